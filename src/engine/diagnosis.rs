//! The diagnosis model along a failing schedule, built only from a replay that has been
//! shown to fail (DESIGN: never a bogus candidate): the sequential program with no line
//! changed must fail the way the counterexample did and follow the schedule. A replay that
//! does not is a sequentialization error, reported as such.

use std::collections::BTreeMap;

use super::replay::{Replay, ReplayError, Replayer};
use crate::cex::Counterexample;
use crate::checker::builtin::symex::{EventKind, PropKind};
use crate::checker::builtin::{Answer, Limit, Session, Stats, Undecided, truth};
use crate::instrument::Instrumented;
use crate::instrument::Target;
use crate::ir::StmtId;
use crate::seq::schedule::Resolved;
use crate::seq::{PointKind, SeqOptions, Sequentialized};

#[derive(Debug, thiserror::Error)]
pub enum DiagnosisError {
    /// The sequential program does not reproduce the counterexample.
    #[error("the sequential program does not reproduce the failure: {0}")]
    NotReproduced(String),
    /// A limit stopped a solve that had to be answered.
    #[error("{} while {}", crate::checker::builtin::stop::describe(*.0), .1)]
    Limit(Limit, &'static str),
    #[error(transparent)]
    Bmc(#[from] crate::checker::builtin::BmcError),
}

impl DiagnosisError {
    pub(crate) fn from_replay(e: ReplayError, what: &'static str) -> DiagnosisError {
        match e {
            ReplayError::Limit(l) => DiagnosisError::Limit(l, what),
            ReplayError::Sequentialize(e) => DiagnosisError::NotReproduced(e.to_string()),
            ReplayError::Bmc(e) => DiagnosisError::Bmc(e),
        }
    }
}

/// The validation's work, counted in the localization's totals.
#[derive(Clone, Debug, Default)]
pub struct Validation {
    pub checker_runs: u32,
    pub stats: Stats,
}

/// What the localization runs on: the sequential program along the failing schedule,
/// its diagnosis model, and the replayed failing run.
pub struct Diagnosis {
    /// The sequential program the model instruments (fixed switch points when the
    /// replay allowed computing them, else the occurrence-based replay).
    pub sequential: Sequentialized,
    pub model: Instrumented,
    /// The failing run as the replay executed it.
    pub replay: Counterexample,
    /// The switch points are fixed (see [`Resolved::ends`]).
    pub fixed_switches: bool,
    /// Validation work, counted in the localization's totals.
    pub validation: Validation,
    /// The schedule and options the replay used, for replaying variants of it
    /// (`diag::interleaving`).
    pub resolved: Resolved,
    pub seq_opts: SeqOptions,
    pub target: Target,
    /// Where each thread still alive when the replay ended would resume, as the
    /// end-of-run probes found it (thread, statement), in thread order; in a deadlock, the
    /// statement each thread is blocked at, also for a thread that never ran a step.
    pub waiting: Vec<(u32, StmtId)>,
}

/// Builds and validates the diagnosis model for `resolved` with `faults` diag variables.
pub fn prepare(
    replayer: &Replayer,
    resolved: &Resolved,
    faults: u32,
) -> Result<Diagnosis, DiagnosisError> {
    let mut val = Validation::default();
    let target = replayer.target;
    let concrete = replayer
        .sequential(resolved)
        .map_err(|e| DiagnosisError::NotReproduced(e.to_string()))?;
    let (replay, ends, waiting) = validate_replay(replayer, &concrete, &mut val, true)?;
    // The same replay with its context switches pinned to the program points where the
    // replay made them: a changed value then cannot move a switch, and the encoding
    // holds each block's code once instead of every block holding its thread's code.
    let fixed = ends.and_then(|ends| {
        let mut r = resolved.clone();
        r.ends = Some(ends);
        replayer.sequential(&r).ok()
    });
    let (sequential, fixed_switches) = match fixed {
        Some(sq) => match validate_replay(replayer, &sq, &mut val, false) {
            Ok(_) => (sq, true),
            Err(e @ DiagnosisError::Limit(..)) => return Err(e),
            Err(_) => (concrete, false),
        },
        None => (concrete, false),
    };
    let model = crate::instrument::instrument(&sequential, target, faults);
    Ok(Diagnosis {
        sequential,
        model,
        replay,
        fixed_switches,
        validation: val,
        resolved: resolved.clone(),
        seq_opts: replayer.seq_options(),
        target,
        waiting,
    })
}

impl Diagnosis {
    /// The sequential program with the instrumented program in it: what the localization's
    /// questions are asked of.
    pub fn model_program(&self) -> Sequentialized {
        let mut m = self.sequential.clone();
        m.program = self.model.program.clone();
        m
    }
}

/// A validated replay: the failing run, the block ends and the waiting threads.
type Replayed = (Counterexample, Option<Vec<u32>>, Vec<(u32, StmtId)>);

/// Checks that a concrete sequential program fails as the counterexample did; returns
/// the replayed failing run (its trace is the one the report shows), when asked the
/// program point at which each block's thread stopped, and where each live thread would
/// resume at the end (see [`Diagnosis::waiting`]).
fn validate_replay(
    replayer: &Replayer,
    concrete: &Sequentialized,
    val: &mut Validation,
    want_ends: bool,
) -> Result<Replayed, DiagnosisError> {
    let target = replayer.target;
    let mut r = Replay::encode(concrete.clone(), replayer.deadline, true)
        .map_err(|e| DiagnosisError::from_replay(e, "encoding the sequential program"))?;
    let answer = r.fails(target, false);
    val.checker_runs += 1;
    let result = match answer {
        Answer::Violated(model) => {
            let ends = if want_ends {
                block_ends(&r.session, &model, concrete)
            } else {
                None
            };
            let waiting = resume_points(&r.session, &model, concrete);
            Ok((r.counterexample(&model, replayer.prep), ends, waiting))
        }
        Answer::Unknown(Undecided::Limit(l)) => Err(DiagnosisError::Limit(
            l,
            "validating the sequential program",
        )),
        Answer::Unknown(why) => Err(DiagnosisError::NotReproduced(format!(
            "the solver could not decide whether it fails ({why})"
        ))),
        Answer::Holds => {
            let why = match r.first_mismatch() {
                Some(step) => format!(
                    "the schedule cannot be replayed: at block {step} the thread is not running or does not reach the statement the block ends before"
                ),
                None => match target {
                    Target::Failure => {
                        "replayed along the schedule, no assertion fails".to_string()
                    }
                    Target::Deadlock => {
                        "replayed along the schedule, the threads do not deadlock".to_string()
                    }
                    Target::Unlock => {
                        "replayed along the schedule, every unlock finds its mutex locked"
                            .to_string()
                    }
                },
            };
            val.checker_runs += 1;
            Err(DiagnosisError::NotReproduced(why))
        }
    };
    add_stats(&mut val.stats, r.stats());
    result
}

pub(crate) fn add_stats(total: &mut Stats, s: &Stats) {
    total.encode_ms += s.encode_ms;
    total.solve_ms += s.solve_ms;
    total.solver_calls += s.solver_calls;
}

/// Where each block of a replayed run stopped: the program point its thread would
/// execute next (one past its exit point when it finished; one past the failing point for
/// a last block that ended in the failure). `None` when the run's points cannot be told
/// apart by block (two consecutive blocks of one thread).
fn block_ends(s: &Session, model: &z3::Model, sq: &Sequentialized) -> Option<Vec<u32>> {
    let mut groups: Vec<(u32, Vec<u32>)> = Vec::new();
    for ev in &s.out.events {
        if !matches!(ev.kind, EventKind::Point) || !truth(model, &ev.guard) {
            continue;
        }
        let Some((k, p)) = ev.point else { continue };
        match groups.last_mut() {
            Some((t, ps)) if *t == k => ps.push(p),
            _ => groups.push((k, vec![p])),
        }
    }
    if groups.len() != sq.steps as usize {
        return None;
    }
    // A statement that failed ran its point (the block ends after it). A deadlock is
    // no statement's failure: its property is checked after the schedule, and a thread's
    // last point there is the one it blocks at, which it must not run.
    let failing_point = s
        .out
        .props
        .iter()
        .find(|p| p.kind != PropKind::Deadlock && truth(model, &p.lit))
        .and_then(|p| p.point);
    let last = groups.len() - 1;
    let mut ends = Vec::new();
    for (i, (k, ps)) in groups.iter().enumerate() {
        let p = *ps.last()?;
        let code = sq
            .slots
            .get(*k as usize)?
            .codes
            .iter()
            .find(|c| ps.iter().all(|x| (*x as usize) < c.points.len()))?;
        let exit = code
            .points
            .get(p as usize)
            .is_some_and(|pi| pi.kind == PointKind::Exit);
        let died_here = i == last && failing_point == Some((*k, p));
        ends.push(if exit || died_here { p + 1 } else { p });
    }
    Some(ends)
}

/// The statement each live thread of a replayed run would resume at, from the end-of-run
/// probes (a replay gives each slot at most one code). A thread at its exit point, or one
/// the probes did not reach, is left out.
fn resume_points(s: &Session, model: &z3::Model, sq: &Sequentialized) -> Vec<(u32, StmtId)> {
    let mut at: BTreeMap<u32, StmtId> = BTreeMap::new();
    for ev in &s.out.events {
        let EventKind::Resume { k, p } = ev.kind else {
            continue;
        };
        if !truth(model, &ev.guard) {
            continue;
        }
        let Some([code]) = sq.slots.get(k as usize).map(|sl| sl.codes.as_slice()) else {
            continue;
        };
        if let Some(pi) = code.points.get(p as usize) {
            if pi.kind == PointKind::Code && !pi.head.is_none() {
                at.insert(k, pi.head);
            }
        }
    }
    at.into_iter().collect()
}
