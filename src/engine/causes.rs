//! Minimal root causes on the solver (issue "why it fails", item 2; ConcBugAssist Alg. 1):
//! the question of `rootcause::causes` — "does keeping these orderings of the failing run
//! force the failure?" — asked of the program's symbolic encoding.
//!
//! The encoding is the one the search uses (`seq::build`, `Mode::Symbolic`, Table II's
//! deadlock rules: locks honoured), with enough rounds to hold the failing run and one
//! more, and loops to the failing run's bound. In it:
//!
//! * the failing run's inputs are fixed: every nondeterministic input the failing run
//!   read takes the value it had, at the same program point;
//! * each ordering "access A of thread T before access B of thread U" is a literal
//!   `order_n`, implying that when both program points run, A's runs first (the framework's
//!   rounds run in a fixed order, so the encoding's events come in execution order);
//! * a passing run is a complete one: no property is violated, no loop is cut by the
//!   bound, and every thread of the failing run (main included) reaches its end.
//!
//! "Forces the failure" is then "unsatisfiable with the literals assumed", and Z3's unsat
//! core is the first guess at a smaller set. The failing run's own points come from its
//! replay under the same rules (`Mode::Concrete`), whose program points are embedded into
//! the encoding's, thread by thread, before anything is asked (a replay splits a point
//! where a block of its schedule ends).
//!
//! Limits, said in the report: sufficiency is among the executions of those bounds
//! (rounds, loop bound); a thread that creates threads is not analysed yet. Inputs the
//! schedule records are read from its table by occurrence in the encoding too
//! (`seq::sequentialize_with_inputs`), so an input read in a loop or at several call sites
//! stays fixed; the solver's own choices in the replay are fixed at their program points. For a deadlock
//! the failing property is the deadlock (the encoding checks it at the end of the rounds);
//! a passing run, complete, cannot be deadlocked.

use std::collections::{BTreeMap, BTreeSet};
use std::sync::Arc;
use std::time::Instant;

use z3::ast::{BV, Bool};

use super::diagnosis::Diagnosis;
use super::replay::{Replay, ReplayError, Replayer, target_kinds};
use crate::checker::builtin::symex::EventKind;
use crate::checker::builtin::{
    Answer, BmcError, CoreAnswer, Session, SolveGate, Undecided, truth, value,
};
use crate::instrument::Target;
use crate::rootcause::causes::{
    Access, CauseOrdering, ClosestRun, Forced, Forcing, RootCause, RootCauses, enumerate, orderings,
};
use crate::rootcause::{Accesses, Execution};
use crate::seq::{
    Mode, PointKind, SeqError, SeqOptions, Sequentialized, sequentialize, sequentialize_with_inputs,
};

#[derive(Debug, thiserror::Error)]
pub enum CausesError {
    /// The failure is of a kind, or the program of a shape, not analysed yet.
    #[error("{0}")]
    Unsupported(String),
    /// The work budget (`WORK_BUDGET`) was used up before a first answer.
    #[error("stopped: the search's work budget was used up before its first answer")]
    OutOfWork,
    #[error(transparent)]
    Replay(#[from] ReplayError),
    #[error("the program cannot be sequentialized: {0}")]
    Seq(#[from] SeqError),
    #[error(transparent)]
    Bmc(#[from] BmcError),
}

/// The fewest rounds the runs are considered in: with fewer, a complete passing run is
/// often out of reach, and the failure would look forced by nothing.
const MIN_ROUNDS: u32 = 3;

/// How far the loop bound is raised above the failing run's while a run with the failing
/// inputs still reaches it.
const MAX_EXTRA_UNWIND: u32 = 3;

/// Why a search stopped when its gate closed.
const STOPPED: &str = "stopped: the search's time was up before its questions were asked";

/// Z3 resource units the questions of one search may use in all (see
/// [`Session::set_work_budget`]): about 3–5 s of solving on the project's machine, and
/// the same answers on any machine, however loaded. 15 million found causes on 32 of the
/// 58 buggy benchmarks against 30 (BENCHMARKS.md), but doubled the whole run's time on
/// the larger ones, where no cause comes within either.
pub const WORK_BUDGET: u64 = 8_000_000;

/// Z3 resource units added to the budget, once the search is done, for asking its causes
/// again (a cause of k orderings is k + 1 questions, each usually well under a million).
const VERIFY_WORK: u64 = 2_000_000;

/// Solver questions one search asks at most.
const MAX_QUESTIONS: usize = 120;

/// Up to `wanted` root causes of the failing run of `d`, within [`MAX_QUESTIONS`] solver
/// questions and `work` units of Z3's work ([`WORK_BUDGET`] by default): bounded by what
/// it asks, not by time, so that a loaded machine finds the same causes as a quiet one
/// (the `deadline` and the gate only cut a search that would take too long anywhere;
/// without `work`, as with `--root-cause-time`, they are its bound).
pub fn root_causes(
    replayer: &Replayer,
    d: &Diagnosis,
    accesses: &Accesses,
    wanted: usize,
    deadline: Option<Instant>,
    work: Option<u64>,
    gate: Option<&Arc<SolveGate>>,
) -> Result<RootCauses, CausesError> {
    // Once the gate closes (its solve interrupted, which may have reached this thread's
    // Z3 context just outside the check and cancelled it for good), no more Z3 work is
    // done: every solve answers "stopped" at once and the search returns.
    let stopped = || gate.is_some_and(|g| g.is_closed());
    let stop_error = || CausesError::Unsupported(STOPPED.into());
    let t0 = Instant::now();
    let deadlock = d.target == Target::Deadlock;
    let prep = replayer.prep;
    let kinds = target_kinds(d.target);
    let first = replayer.seq_options().unwind;
    let mut unwind = first;
    // The work of the sessions given up for a higher loop bound counts against the budget.
    let mut spent: u64 = 0;
    let (mut session, lits, pass, ords, ex, steps, rounds) = loop {
        // 1. The failing run with the locks kept, at its program points.
        let opts = SeqOptions {
            deadlock,
            rules: replayer.framework.deadlock_rules.clone(),
            unwind,
            ..replayer.seq_options()
        };
        let concrete = sequentialize(
            &prep.normalized,
            &prep.shared,
            Mode::Concrete(&d.resolved),
            &opts,
        )?;
        let mut failing = Replay::encode(concrete, deadline, false)?;
        if let Some(g) = gate {
            failing.session.set_gate_owning_deadline(g.clone());
        }
        let model = match failing.fails(d.target, false) {
            Answer::Violated(m) => m,
            Answer::Holds => {
                return Err(CausesError::Unsupported(
                    "the failing schedule, replayed with the locks kept, does not fail".into(),
                ));
            }
            Answer::Unknown(_) if stopped() => return Err(stop_error()),
            Answer::Unknown(u) => {
                return Err(CausesError::Unsupported(format!("not decided: {u}")));
            }
        };
        let (cex, points) =
            failing
                .session
                .counterexample_at_points(&model, &prep.index, &prep.normalized);
        if cex
            .steps
            .iter()
            .any(|s| s.thread != 0 && s.statement.contains("pthread_create"))
        {
            return Err(CausesError::Unsupported(
                "a thread other than main creates threads (their numbers depend on the order)"
                    .into(),
            ));
        }
        // Inputs the schedule records are the replay's table, not its solver's choice.
        let recorded = &d.resolved.inputs;
        let inputs: BTreeMap<_, _> = failing_inputs(&failing.session, &model)
            .into_iter()
            .filter(|(((k, _), sid), _)| !recorded.contains_key(&(*k, *sid)))
            .collect();
        // 2. The encoding of every run: the failing run's rounds and one more.
        let rounds = (rounds_of(&points) + 1).max(MIN_ROUNDS);
        let sopts = SeqOptions {
            unlocks: d.target == Target::Unlock,
            ..replayer.framework.search_options(
                unwind,
                rounds,
                opts.max_threads,
                opts.recursion,
                deadlock,
            )
        };
        // The recorded inputs are read from the replay's table, occurrence by occurrence,
        // wherever the encoding's path reads them.
        let symbolic = sequentialize_with_inputs(&prep.normalized, &prep.shared, recorded, &sopts)?;
        let mut session = Session::new(symbolic, rounds.max(unwind) + 2, deadline)?;
        if let Some(budget) = work {
            session.set_work_budget(budget.saturating_sub(spent));
        }
        if let Some(g) = gate {
            session.set_gate_owning_deadline(g.clone());
        }
        // Every thread of the failing run, also one created that never ran.
        let mut slots: BTreeSet<u32> = points.iter().map(|(k, _)| *k).collect();
        slots.extend(d.resolved.threads.iter().map(|(t, _)| *t));
        slots.insert(0);
        let nthreads = failing
            .session
            .global_value(&model, failing.session.seq.vars.nthreads, false)
            .unwrap_or(0);
        slots.extend((0..nthreads.clamp(0, 1 << 16)).map(|k| k as u32));
        let mut threads = d.resolved.threads.clone();
        threads.extend(created_functions(prep, &cex, nthreads));
        let codes = align(&failing.session.seq, &session.seq, &slots, &threads)?;
        let inputs: BTreeMap<((u32, u32), crate::ir::StmtId), u64> = inputs
            .into_iter()
            .filter_map(|(((k, p), sid), v)| {
                let q = *codes.get(&k)?.map.get(p as usize)?;
                Some((((k, q), sid), v))
            })
            .collect();
        // 3. The orderings and their literals. The failing run's steps, at the encoding's
        // points, then the accesses its unfinished threads had still to make: an access the
        // failure came before is ordered after every access of the run.
        let mut steps = cex.steps.clone();
        let mut at_point: Vec<Option<(u32, u32)>> = points
            .iter()
            .map(|(k, p)| Some((*k, *codes.get(k)?.map.get(*p as usize)?)))
            .collect();
        let executed = steps.len();
        for (step, point) in pending(prep, &session.seq, &codes, &points, cex.violation.thread) {
            steps.push(step);
            at_point.push(Some(point));
        }
        let ex = Execution::of(&steps, accesses, true);
        let ords: Vec<_> = orderings(&ex)
            .into_iter()
            .filter(|o| ex.events.get(o.before).is_some_and(|e| e.step < executed))
            .collect();
        let at: BTreeMap<(u32, u32), Vec<(usize, Bool)>> = point_events(&session, &codes);
        let mut lits: Vec<Bool> = Vec::new();
        for (n, o) in ords.iter().enumerate() {
            let point = |e: usize| -> Option<(u32, u32)> {
                let ev = ex.events.get(e)?;
                *at_point.get(ev.step)?
            };
            let (Some(a), Some(b)) = (point(o.before), point(o.after)) else {
                return Err(CausesError::Unsupported(
                    "an access of the failing run has no program point".into(),
                ));
            };
            let order = ordered(&at, a, b).ok_or_else(|| {
                CausesError::Unsupported(format!(
                    "T{}'s point {} runs in no execution of the encoding",
                    a.0, a.1
                ))
            })?;
            let lit = Bool::new_const(format!("order_{n}"));
            session.add(&lit.implies(&order));
            lits.push(lit);
        }
        // 4. Inputs, a passing run and a failing one.
        let fixed: Vec<Bool> = session
            .out
            .inputs
            .iter()
            .filter_map(|rec| {
                let v = inputs.get(&(rec.point?, rec.sid))?;
                let same = rec.value.eq(BV::from_u64(*v, rec.value.get_size()));
                Some(rec.guard.implies(&same))
            })
            .collect();
        for f in &fixed {
            session.add(f);
        }
        let mut passing = vec![];
        // A passing run violates no property at all: neither the one that failed nor
        // another (a deadlock is no pass for an assertion's root cause, nor the reverse).
        for p in &session.out.props {
            passing.push(p.lit.not());
        }
        for (_, u, _) in &session.out.unwinds {
            passing.push(u.not());
        }
        for k in &slots {
            let exits: Vec<Bool> = at
                .iter()
                .filter(|((kk, p), _)| kk == k && codes.get(k).is_some_and(|c| c.exit == *p))
                .flat_map(|(_, v)| v.iter().map(|(_, g)| g.clone()))
                .collect();
            if exits.is_empty() {
                return Err(CausesError::Unsupported(format!(
                    "thread T{k} has no end in the encoding"
                )));
            }
            passing.push(Bool::or(&exits));
        }
        let pass = Bool::new_const("root_cause_passing");
        session.add(&pass.implies(Bool::and(&passing)));
        let fail = Bool::new_const("root_cause_failing");
        session.add(&fail.implies(Bool::or(&session.property_lits(&kinds))));
        // The questions are many and short, on a fixed encoding: bit-blasted once (see
        // `Session::ask_on_bit_blaster`), they take a third to a half of the time.
        session.ask_on_bit_blaster();
        // The failing run must be one of the encoding's runs, or no answer means anything.
        let mut all = lits.clone();
        all.push(fail.clone());
        match session.query_core(&all) {
            CoreAnswer::Sat(_) => {}
            CoreAnswer::Unsat(_) => {
                return Err(CausesError::Unsupported(
                    "the failing run is not a run of the search's encoding".into(),
                ));
            }
            CoreAnswer::Unknown(_) if stopped() => return Err(stop_error()),
            CoreAnswer::Unknown(Undecided::Work) => return Err(CausesError::OutOfWork),
            CoreAnswer::Unknown(u) => {
                return Err(CausesError::Unsupported(format!("not decided: {u}")));
            }
        }
        // No run with these inputs may be cut short by the loop bound: a run that needs
        // more iterations would be missing from every answer, and every set of orderings
        // could look forcing. The bound is raised a few times before giving up. Asked
        // on the live solver after the question above, which has paid for its start.
        let cuts = session.unwind_lits();
        let cut = Bool::new_const("root_cause_cut");
        let answer = if cuts.is_empty() {
            CoreAnswer::Unsat(vec![])
        } else {
            session.add(&cut.implies(Bool::or(&cuts)));
            session.query_core(std::slice::from_ref(&cut))
        };
        match answer {
            CoreAnswer::Unsat(_) => {}
            CoreAnswer::Sat(_) if unwind < first + MAX_EXTRA_UNWIND => {
                spent = spent.saturating_add(session.work_used());
                unwind += 1;
                continue;
            }
            CoreAnswer::Sat(_) => {
                return Err(CausesError::Unsupported(format!(
                    "a run with these inputs has a loop longer than {unwind} iterations"
                )));
            }
            CoreAnswer::Unknown(_) if stopped() => return Err(stop_error()),
            CoreAnswer::Unknown(Undecided::Work) => return Err(CausesError::OutOfWork),
            CoreAnswer::Unknown(u) => {
                return Err(CausesError::Unsupported(format!("not decided: {u}")));
            }
        }
        break (session, lits, pass, ords, ex, steps, rounds);
    };
    let describe = |n: usize| -> Option<CauseOrdering> {
        let o = ords.get(n)?;
        let access = |e: usize| {
            let ev = ex.events.get(e)?;
            let st = steps.get(ev.step)?;
            Some(Access::of(ev, &st.statement))
        };
        Some(CauseOrdering {
            before: access(o.before)?,
            after: access(o.after)?,
        })
    };
    // 5. The search, then each cause asked again.
    let mut forcing = Ask {
        session: &mut session,
        lits: &lits,
        pass: &pass,
        stopped: &stopped,
    };
    // An ordering's class: its two accesses' lines and kinds, whoever made them.
    let mut classes: BTreeMap<Vec<(u32, String, bool, bool)>, usize> = BTreeMap::new();
    let class_of: Vec<usize> = ords
        .iter()
        .map(|o| {
            let key: Vec<(u32, String, bool, bool)> = [o.before, o.after]
                .iter()
                .filter_map(|e| ex.events.get(*e))
                .map(|e| (e.line, e.var.clone(), e.write, e.sync))
                .collect();
            let n = classes.len();
            *classes.entry(key).or_insert(n)
        })
        .collect();
    let class = |o: usize| class_of.get(o).copied().unwrap_or(usize::MAX);
    let found = enumerate(&mut forcing, lits.len(), wanted, MAX_QUESTIONS, &class)?;
    // Each cause is asked again with work of its own: a search that used its budget up
    // on the way to a cause would otherwise report it unconfirmed.
    let out_of_work = session.work_exhausted();
    if work.is_some() && !found.causes.is_empty() {
        session.add_work_budget(VERIFY_WORK);
    }
    let mut contradicted = 0;
    let causes: Vec<RootCause> = found
        .causes
        .iter()
        .filter_map(|c| {
            let verified = verify(&mut session, &lits, &pass, c);
            if verified == Some(false) {
                contradicted += 1;
                return None;
            }
            let orderings: Vec<CauseOrdering> = c.iter().filter_map(|n| describe(*n)).collect();
            let atomicity = crate::rootcause::causes::atomicity_violation(&orderings);
            Some(RootCause {
                orderings,
                atomicity,
                verified,
            })
        })
        .collect();
    // 6. The closest passing run (MaxSMT-DSP's optimum, by the orderings it keeps), with
    // the time the causes left: an optimum is dearer than a cause (on a run of a few
    // hundred orderings, tens of seconds), and a search stopped here keeps its causes.
    let closest = if stopped() {
        None
    } else {
        closest_run(&mut session, &pass, &lits, &describe, replayer, unwind)
    };
    Ok(RootCauses {
        causes,
        orderings: lits.len(),
        order_independent: found.order_independent,
        complete: found.complete,
        stopped: if found.not_forced {
            Some(match spurious_wake_up(prep, &d.resolved.inputs) {
                Some((thread, line)) => format!(
                    "the failing run needs T{thread}'s wait at line {line} to return without a signal (a spurious wake-up, which POSIX allows): no ordering between threads forces that"
                ),
                None => {
                    "the failing run's orderings do not force the failure in the encoding".into()
                }
            })
        } else if contradicted > 0 {
            Some(format!(
                "{contradicted} set(s) found were not confirmed by the second check and are left out"
            ))
        } else {
            found.stopped
        },
        rounds,
        unwind,
        queries: found.queries,
        closest,
        out_of_work,
        time_ms: t0.elapsed().as_millis() as u64,
    })
}

/// A condition wait the failing run woke from without a signal: its spurious wake-up is
/// one of the run's inputs (`analysis::waits::spurious_wake_sites`), not an ordering, so
/// the orderings cannot force a failure that needs it. The thread and the wait's line.
fn spurious_wake_up(
    prep: &crate::passes::Prepared,
    inputs: &crate::seq::Inputs,
) -> Option<(u32, u32)> {
    let sites = crate::analysis::waits::spurious_wake_sites(&prep.normalized);
    let mut woke: Vec<(u32, u32)> = inputs
        .iter()
        .filter(|((_, sid), values)| sites.contains(sid) && values.iter().any(|(_, v)| *v != 0))
        .filter_map(|((k, sid), _)| Some((*k, prep.index.get(*sid)?.line)))
        .collect();
    woke.sort();
    woke.into_iter().next()
}

/// The passing run that keeps the most of the failing run's orderings (MaxSAT over the
/// orderings' literals, `Session::most_satisfied`: disjoint cores, then a bisection on
/// their count), its schedule replayed before it is given.
fn closest_run(
    session: &mut Session,
    pass: &Bool,
    lits: &[Bool],
    describe: &dyn Fn(usize) -> Option<CauseOrdering>,
    replayer: &Replayer,
    unwind: u32,
) -> Option<ClosestRun> {
    let prep = replayer.prep;
    let Answer::Violated(m) = session.most_satisfied(std::slice::from_ref(pass), lits) else {
        return None;
    };
    let flipped: Vec<usize> = (0..lits.len())
        .filter(|n| lits.get(*n).is_some_and(|l| !truth(&m, l)))
        .collect();
    let run = session.counterexample(&m, &prep.index, &prep.normalized);
    // A concrete replay, quick; without a deadline, so that no Z3 timer runs on this
    // thread (see `Session::set_gate_owning_deadline`).
    let again = Replayer {
        bounds: super::replay::ReplayBounds {
            unwind,
            ..replayer.bounds
        },
        deadline: None,
        ..replayer.clone()
    };
    let replays = run
        .schedule
        .resolve(&prep.normalized, &prep.index)
        .ok()
        .and_then(|r| again.passing_run(&r).ok().flatten())
        .is_some();
    Some(ClosestRun {
        kept: lits.len() - flipped.len(),
        flipped: flipped.iter().filter_map(|n| describe(*n)).collect(),
        schedule: run.schedule,
        replays,
    })
}

/// Forces the failure: unsatisfiable with the cause's orderings and a passing run; and
/// without each one of them, satisfiable. Asked again after the search, apart from the
/// answers that shaped it, so that a slip in the search cannot report a set that is not
/// a root cause.
fn verify(session: &mut Session, lits: &[Bool], pass: &Bool, cause: &[usize]) -> Option<bool> {
    let chosen = |skip: Option<usize>| -> Vec<Bool> {
        let mut v: Vec<Bool> = cause
            .iter()
            .filter(|n| Some(**n) != skip)
            .filter_map(|n| lits.get(*n).cloned())
            .collect();
        v.push(pass.clone());
        v
    };
    match session.query_core(&chosen(None)) {
        CoreAnswer::Unsat(_) => {}
        CoreAnswer::Sat(_) => return Some(false),
        CoreAnswer::Unknown(_) => return None,
    }
    for n in cause {
        match session.query_core(&chosen(Some(*n))) {
            CoreAnswer::Sat(_) => {}
            CoreAnswer::Unsat(_) => return Some(false),
            CoreAnswer::Unknown(_) => return None,
        }
    }
    Some(true)
}

struct Ask<'a> {
    session: &'a mut Session,
    lits: &'a [Bool],
    pass: &'a Bool,
    /// The gate closed: an unknown answer is the stop, not the solver's.
    stopped: &'a dyn Fn() -> bool,
}

impl Forcing for Ask<'_> {
    type Error = CausesError;

    fn forces(&mut self, kept: &[usize]) -> Result<Forced, CausesError> {
        let mut assumptions: Vec<Bool> = kept
            .iter()
            .filter_map(|n| self.lits.get(*n).cloned())
            .collect();
        assumptions.push(self.pass.clone());
        Ok(match self.session.query_core(&assumptions) {
            CoreAnswer::Sat(_) => Forced::Passes,
            CoreAnswer::Unsat(core) => Forced::Fails {
                core: core.iter().filter_map(order_index).collect(),
            },
            CoreAnswer::Unknown(_) if (self.stopped)() => Forced::Unknown(STOPPED.into()),
            CoreAnswer::Unknown(u) => Forced::Unknown(format!("not decided: {u}")),
        })
    }
}

/// `order_7` → 7.
fn order_index(b: &Bool) -> Option<usize> {
    let name = b.to_string();
    name.trim_matches('|').strip_prefix("order_")?.parse().ok()
}

/// Rounds of the framework's round-robin that hold a run whose steps ran at `points`:
/// a new round starts whenever the next thread's slot is not after the previous one's.
fn rounds_of(points: &[(u32, u32)]) -> u32 {
    let mut rounds = 1;
    let mut last: Option<u32> = None;
    for (k, _) in points {
        match last {
            Some(l) if l == *k => continue,
            Some(l) if *k < l => rounds += 1,
            _ => {}
        }
        last = Some(*k);
    }
    rounds
}

/// The code a failing thread's slot runs in the encoding.
struct Aligned {
    /// Index into the slot's codes.
    code: usize,
    /// The exit point's index.
    exit: u32,
    /// The encoding's point for each of the replay's points.
    map: Vec<u32>,
}

/// For every slot the failing run used: the encoding's code with the same function,
/// whose program points the replay's include in the same order. The replay may split a
/// point where a block of its schedule ends (before a statement that is no point of the
/// encoding); what runs after such a split belongs to the encoding's point before it.
fn align(
    replay: &Sequentialized,
    symbolic: &Sequentialized,
    slots: &BTreeSet<u32>,
    threads: &[(u32, crate::ir::FuncId)],
) -> Result<BTreeMap<u32, Aligned>, CausesError> {
    let mut out = BTreeMap::new();
    for k in slots {
        let mismatch = || {
            CausesError::Unsupported(format!(
                "thread T{k}'s program points differ between the replay and the encoding"
            ))
        };
        let sym = symbolic.slots.get(*k as usize).ok_or_else(mismatch)?;
        let (i, c, map) = match replay.slots.get(*k as usize).and_then(|s| s.codes.first()) {
            // Created, never scheduled: the replay gave it no code. Nothing of it ran,
            // so the encoding's code is all there is to name, when there is one.
            None => {
                // A slot that may run several functions runs the one the schedule
                // created it with.
                let func = threads.iter().find(|(t, _)| t == k).map(|(_, f)| *f);
                let (i, c) = match (func, sym.codes.as_slice()) {
                    (Some(f), codes) => codes
                        .iter()
                        .enumerate()
                        .find(|(_, c)| c.func == f)
                        .ok_or_else(mismatch)?,
                    (None, [c]) => (0, c),
                    (None, _) => return Err(mismatch()),
                };
                (i, c, (0..c.points.len() as u32).collect())
            }
            Some(code) => {
                let heads: Vec<_> = code.points.iter().map(|p| (p.head, p.kind)).collect();
                sym.codes
                    .iter()
                    .enumerate()
                    .filter(|(_, c)| c.func == code.func)
                    .find_map(|(i, c)| {
                        let theirs: Vec<_> = c.points.iter().map(|p| (p.head, p.kind)).collect();
                        Some((i, c, embed(&theirs, &heads)?))
                    })
                    .ok_or_else(mismatch)?
            }
        };
        let exit = c
            .points
            .iter()
            .position(|p| p.kind == PointKind::Exit)
            .ok_or_else(mismatch)?;
        out.insert(
            *k,
            Aligned {
                code: i,
                exit: exit as u32,
                map,
            },
        );
    }
    Ok(out)
}

/// The function each thread of the failing run started with, also one created that never
/// ran (a schedule lists only the threads that ran): main's `k`-th creation starts thread
/// `k` (the search refuses runs where another thread creates threads), and a creation
/// site that can start one function only names it; `nthreads` (main included) is the
/// failing run's own count of threads.
fn created_functions(
    prep: &crate::passes::Prepared,
    cex: &crate::cex::Counterexample,
    nthreads: i128,
) -> Vec<(u32, crate::ir::FuncId)> {
    let ts = crate::analysis::facts::thread_structure(&prep.normalized);
    let mut started: BTreeMap<crate::ir::Loc, Vec<crate::ir::FuncId>> = BTreeMap::new();
    for (f, sites) in &ts.entries {
        for (loc, _, _, _) in sites {
            started.entry(*loc).or_default().push(*f);
        }
    }
    let mut out = Vec::new();
    let mut k = 0u32;
    for step in cex.steps.iter().filter(|s| s.thread == 0) {
        let Some(fns) = started.get(&step.loc) else {
            continue;
        };
        k += 1;
        if let [f] = fns.as_slice() {
            out.push((k, *f));
        }
    }
    // A count that disagrees with the run's own (a creation the steps show twice, or
    // one they miss) would name the wrong function, and a passing run would have to end
    // in code its thread never runs: then nothing is inferred.
    if i128::from(k) + 1 != nthreads {
        return vec![];
    }
    out
}

/// `small` as a subsequence of `big` (the earliest embedding, which a split never
/// shifts: a split point's statement is not the encoding's next point there): for each
/// element of `big`, the index of the element of `small` it falls under. `None` when
/// `small` is not a subsequence, or `big` starts with an element `small` lacks.
fn embed<T: PartialEq>(small: &[T], big: &[T]) -> Option<Vec<u32>> {
    let mut map = Vec::with_capacity(big.len());
    let mut j = 0usize;
    for x in big {
        if small.get(j) == Some(x) {
            map.push(j as u32);
            j += 1;
        } else {
            // Under the last matched point.
            map.push(j.checked_sub(1)? as u32);
        }
    }
    (j == small.len()).then_some(map)
}

/// The encoding's point events of the aligned codes, by (slot, point): each with its
/// position among the events (execution order) and its guard. A slot that can run
/// several functions tells them apart by the point's statement.
fn point_events(
    s: &Session,
    codes: &BTreeMap<u32, Aligned>,
) -> BTreeMap<(u32, u32), Vec<(usize, Bool)>> {
    let mut out: BTreeMap<(u32, u32), Vec<(usize, Bool)>> = BTreeMap::new();
    for (i, ev) in s.out.events.iter().enumerate() {
        if !matches!(ev.kind, EventKind::Point) {
            continue;
        }
        let Some((k, p)) = ev.point else { continue };
        let Some(a) = codes.get(&k) else { continue };
        let Some(slot) = s.seq.slots.get(k as usize) else {
            continue;
        };
        let head = slot
            .codes
            .get(a.code)
            .and_then(|c| c.points.get(p as usize))
            .map(|pi| pi.head);
        if slot.codes.len() > 1 && head != Some(ev.sid) {
            continue;
        }
        out.entry((k, p)).or_default().push((i, ev.guard.clone()));
    }
    out
}

/// "When points `a` and `b` both run, `a` runs first": an ordering constrains the order of
/// two accesses, not whether they happen (a run may take another path), so that a root
/// cause names orders and nothing else. The failing run's orderings together still force
/// it: every read that happens reads from the same write, up to the failure. `None` when
/// `a` runs in no execution of the encoding (the failing run's points were misread).
fn ordered(
    at: &BTreeMap<(u32, u32), Vec<(usize, Bool)>>,
    a: (u32, u32),
    b: (u32, u32),
) -> Option<Bool> {
    let ea = at.get(&a)?;
    let Some(eb) = at.get(&b) else {
        return Some(Bool::from_bool(true));
    };
    let any =
        |e: &Vec<(usize, Bool)>| Bool::or(&e.iter().map(|(_, g)| g.clone()).collect::<Vec<_>>());
    let first: Vec<Bool> = ea
        .iter()
        .flat_map(|(i, ga)| {
            eb.iter()
                .filter(move |(j, _)| i < j)
                .map(move |(_, gb)| Bool::and(&[ga.clone(), gb.clone()]))
        })
        .collect();
    let both = Bool::and(&[any(ea), any(eb)]);
    Some(both.implies(Bool::or(&first)))
}

/// The statements each unfinished thread of the failing run (not the one that failed)
/// had still to run: its points after the last one it ran (all of them for a thread that
/// never ran), as steps the accesses can be read from, with their points.
fn pending(
    prep: &crate::passes::Prepared,
    symbolic: &Sequentialized,
    codes: &BTreeMap<u32, Aligned>,
    ran: &[(u32, u32)],
    failed: Option<u32>,
) -> Vec<(crate::cex::TraceStep, (u32, u32))> {
    let mut out = Vec::new();
    let mut slots: Vec<&u32> = codes.keys().collect();
    slots.sort();
    for k in slots {
        if Some(*k) == failed {
            continue;
        }
        let Some(a) = codes.get(k) else { continue };
        let Some(code) = symbolic
            .slots
            .get(*k as usize)
            .and_then(|s| s.codes.get(a.code))
        else {
            continue;
        };
        let last = ran
            .iter()
            .filter(|(kk, _)| kk == k)
            .filter_map(|(_, p)| a.map.get(*p as usize).copied())
            .max();
        let from = last.map_or(0, |l| l + 1);
        for (q, pi) in code.points.iter().enumerate().skip(from as usize) {
            if pi.kind == PointKind::Exit || !pi.visible {
                continue;
            }
            for (sid, loc) in &pi.stmts {
                let (file, line) = match prep.normalized.sources.position(*loc) {
                    Some(p) => (p.file.to_string(), p.line),
                    None => continue,
                };
                let statement = prep
                    .index
                    .get(*sid)
                    .map(|e| e.text.clone())
                    .unwrap_or_default();
                out.push((
                    crate::cex::TraceStep {
                        thread: *k,
                        loc: *loc,
                        sid: *sid,
                        file,
                        line,
                        statement,
                        writes: vec![],
                    },
                    (*k, q as u32),
                ));
            }
        }
    }
    out
}

/// The failing run's inputs by program point and statement.
fn failing_inputs(
    s: &Session,
    model: &z3::Model,
) -> BTreeMap<((u32, u32), crate::ir::StmtId), u64> {
    let mut out = BTreeMap::new();
    for rec in &s.out.inputs {
        let Some(p) = rec.point else { continue };
        if !truth(model, &rec.guard) {
            continue;
        }
        if let Some(v) = value(model, &rec.value) {
            out.insert((p, rec.sid), v);
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::rounds_of;

    #[test]
    fn a_split_point_falls_under_the_point_before_it() {
        use super::embed;
        assert_eq!(embed(&[1, 3, 4], &[1, 2, 3, 4]), Some(vec![0, 0, 1, 2]));
        assert_eq!(
            embed(&[1, 3, 4, 3], &[1, 3, 9, 4, 3]),
            Some(vec![0, 1, 1, 2, 3])
        );
        assert_eq!(embed(&[1, 3], &[2, 1, 3]), None);
        assert_eq!(embed(&[1, 3], &[1, 4]), None);
    }

    #[test]
    fn rounds_follow_the_slot_order() {
        assert_eq!(rounds_of(&[]), 1);
        assert_eq!(rounds_of(&[(0, 1), (0, 2), (1, 0), (2, 0)]), 1);
        assert_eq!(rounds_of(&[(0, 1), (1, 0), (0, 2), (2, 0)]), 2);
        assert_eq!(rounds_of(&[(0, 1), (2, 0), (1, 0), (2, 1), (1, 1)]), 3);
    }
}
