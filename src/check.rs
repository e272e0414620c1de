//! `seqloc check` with the built-in checker: the bounded search for a failing
//! interleaving, deepening the number of rounds and the loop bounds until it finds a
//! failure, proves there is none within the bounds, or runs out of time.
//!
//! Verdicts are never stronger than the search: "no failure within bounds" names the
//! bounds, and says whether every loop was explored to its end and every thread had a
//! slot; a time or memory limit gives "unknown" with the bounds reached.

use std::time::{Duration, Instant};

use serde::Serialize;

use crate::cex::Counterexample;
use crate::checker::builtin::{Answer, BmcError, Properties, Session, Stats};
use crate::ir::Program;
use crate::passes::normalize::SharedInfo;
use crate::seq::schedule::StmtIndex;
use crate::seq::{self, Mode, SeqError, SeqOptions};

/// A program ready for checking: as lowered, and normalized.
pub struct Prepared {
    pub lowered: Program,
    pub normalized: Program,
    pub shared: SharedInfo,
    pub index: StmtIndex,
}

impl Prepared {
    pub fn new(lowered: Program) -> Prepared {
        let mut normalized = lowered.clone();
        let shared = crate::passes::normalize::normalize(&mut normalized);
        let index = StmtIndex::build(&normalized);
        Prepared {
            lowered,
            normalized,
            shared,
            index,
        }
    }
}

#[derive(Clone, Debug)]
pub struct CheckOptions {
    /// Fixed number of rounds; `None` deepens up to `max_rounds`.
    pub rounds: Option<u32>,
    pub max_rounds: u32,
    /// Fixed loop bound; `None` deepens up to `max_unwind` while a bound is reached.
    pub unwind: Option<u32>,
    pub max_unwind: u32,
    pub max_threads: u32,
    pub properties: Properties,
    pub timeout: Option<Duration>,
    pub recursion: u32,
}

impl Default for CheckOptions {
    fn default() -> Self {
        CheckOptions {
            rounds: None,
            max_rounds: 16,
            unwind: None,
            max_unwind: 64,
            max_threads: 64,
            properties: Properties {
                assertions: true,
                deadlock: true,
            },
            timeout: None,
            recursion: 3,
        }
    }
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
#[serde(rename_all = "kebab-case")]
pub enum Verdict {
    Failure,
    Deadlock,
    NoFailureWithinBounds,
    Unknown,
}

#[derive(Clone, Debug, Default, Serialize)]
pub struct Bounds {
    pub rounds: u32,
    pub unwind: u32,
    pub threads: u32,
}

#[derive(Clone, Debug, Serialize)]
pub struct Phase {
    pub bounds: Bounds,
    pub result: String,
    pub encode_ms: u64,
    pub solve_ms: u64,
}

#[derive(Debug, Serialize)]
pub struct CheckOutcome {
    pub verdict: Verdict,
    pub reason: Option<String>,
    pub bounds: Bounds,
    /// Every loop ran to its end within the unwinding bound and every thread had a slot.
    pub loops_complete: bool,
    /// Loop bounds reached in the last phase (`file:line`).
    pub unwinding_reached: Vec<String>,
    pub counterexample: Option<Counterexample>,
    pub phases: Vec<Phase>,
    pub stats: Stats,
    /// The search stopped at a time or memory limit (not at its bounds).
    pub limit_reached: bool,
}

#[derive(Debug, thiserror::Error)]
pub enum CheckError {
    #[error(transparent)]
    Seq(#[from] SeqError),
    #[error(transparent)]
    Bmc(#[from] BmcError),
}

const ROUNDS: &[u32] = &[2, 3, 4, 6, 8, 12, 16, 24, 32, 48, 64];

pub fn check(prep: &Prepared, opts: &CheckOptions) -> Result<CheckOutcome, CheckError> {
    let deadline = opts.timeout.map(|t| Instant::now() + t);
    let mut rounds_i = 0usize;
    let mut unwind = opts.unwind.unwrap_or(2);
    let mut phases = Vec::new();
    let mut stats = Stats::default();
    let mut last_done: Option<(Bounds, bool, Vec<String>)> = None;
    loop {
        let rounds = opts
            .rounds
            .unwrap_or(ROUNDS.get(rounds_i).copied().unwrap_or(opts.max_rounds));
        let rounds = rounds.min(opts.max_rounds.max(1));
        let seq_opts = SeqOptions {
            unwind,
            rounds,
            max_threads: opts.max_threads,
            recursion: opts.recursion,
            deadlock: opts.properties.deadlock,
            rules: crate::seq::rules::Rules::deadlock(),
            skeleton: crate::seq::skeleton::Skeleton::builtin(),
        };
        let sq = seq::sequentialize(&prep.normalized, &prep.shared, Mode::Symbolic, &seq_opts)?;
        let bounds = Bounds {
            rounds,
            unwind,
            threads: sq.slot_bound,
        };
        // The framework's own loop runs once per round; loops left in user code were
        // unrolled already.
        let session = Session::new(sq, rounds.max(unwind) + 2, deadline);
        let mut session = match session {
            Ok(s) => s,
            Err(BmcError::Symex(crate::checker::builtin::symex::SymexError::Timeout)) => {
                return Ok(timed_out(last_done, bounds, phases, stats));
            }
            Err(e) => return Err(e.into()),
        };
        let lits = session.property_lits(&opts.properties.kinds());
        let answer = session.query(&lits, &[]);
        let mut phase = Phase {
            bounds: bounds.clone(),
            result: String::new(),
            encode_ms: session.stats.encode_ms,
            solve_ms: 0,
        };
        match answer {
            Answer::Violated(model) => {
                let cex = session.counterexample(&model, &prep.index, &prep.normalized);
                phase.result = "failure".into();
                phase.solve_ms = session.stats.solve_ms;
                add_stats(&mut stats, &session.stats);
                phases.push(phase);
                let verdict = if cex.violation.kind == crate::cex::ViolationKind::Deadlock {
                    Verdict::Deadlock
                } else {
                    Verdict::Failure
                };
                return Ok(CheckOutcome {
                    verdict,
                    reason: None,
                    bounds,
                    loops_complete: false,
                    unwinding_reached: vec![],
                    counterexample: Some(cex),
                    phases,
                    stats,
                    limit_reached: false,
                });
            }
            Answer::Unknown(why) => {
                phase.result = format!("unknown: {why}");
                phase.solve_ms = session.stats.solve_ms;
                add_stats(&mut stats, &session.stats);
                phases.push(phase);
                if why.contains("time limit") || deadline.is_some_and(|d| Instant::now() >= d) {
                    return Ok(timed_out(last_done, bounds, phases, stats));
                }
                let memory = why.contains("memory");
                return Ok(CheckOutcome {
                    verdict: Verdict::Unknown,
                    reason: Some(if memory {
                        format!(
                            "memory limit reached while checking {} rounds",
                            bounds.rounds
                        )
                    } else {
                        format!("the solver could not decide: {why}")
                    }),
                    bounds,
                    loops_complete: false,
                    unwinding_reached: vec![],
                    counterexample: None,
                    phases,
                    stats,
                    limit_reached: memory,
                });
            }
            Answer::Holds => {}
        }
        // No failure within these bounds: were the loop bounds reached?
        let unwinds = session.unwind_lits();
        let reached: Vec<String> = match session.query(&unwinds, &[]) {
            Answer::Violated(model) => session
                .out
                .unwinds
                .iter()
                .filter(|(_, b)| {
                    model
                        .eval(b, true)
                        .and_then(|v| v.as_bool())
                        .unwrap_or(false)
                })
                .map(|(l, _)| prep.normalized.sources.describe_line(*l))
                .collect(),
            Answer::Holds => vec![],
            Answer::Unknown(_) => vec!["(undecided)".into()],
        };
        phase.result = if reached.is_empty() {
            "no failure; loops complete".into()
        } else {
            format!("no failure; loop bound reached at {}", reached.join(", "))
        };
        phase.solve_ms = session.stats.solve_ms;
        add_stats(&mut stats, &session.stats);
        phases.push(phase);
        let complete = reached.is_empty();
        last_done = Some((bounds.clone(), complete, reached.clone()));
        let rounds_done = opts.rounds.is_some() || rounds >= opts.max_rounds;
        let unwind_done = opts.unwind.is_some() || complete || unwind >= opts.max_unwind;
        if rounds_done && unwind_done {
            return Ok(finished(bounds, complete, reached, phases, stats));
        }
        if deadline.is_some_and(|d| Instant::now() >= d) {
            return Ok(timed_out(last_done, bounds, phases, stats));
        }
        if !unwind_done {
            unwind = (unwind * 2).min(opts.max_unwind);
        }
        if !rounds_done {
            rounds_i += 1;
        }
    }
}

fn add_stats(total: &mut Stats, s: &Stats) {
    total.encode_ms += s.encode_ms;
    total.solve_ms += s.solve_ms;
    total.solver_calls += s.solver_calls;
}

fn finished(
    bounds: Bounds,
    complete: bool,
    reached: Vec<String>,
    phases: Vec<Phase>,
    stats: Stats,
) -> CheckOutcome {
    let reason = if complete {
        format!(
            "no failure in any execution with up to {} rounds of context switches; every loop ran to its end",
            bounds.rounds
        )
    } else {
        format!(
            "no failure with up to {} rounds and loops unwound {} times; loop bounds were reached at {}",
            bounds.rounds,
            bounds.unwind,
            reached.join(", ")
        )
    };
    CheckOutcome {
        verdict: if complete {
            Verdict::NoFailureWithinBounds
        } else {
            Verdict::Unknown
        },
        reason: Some(reason),
        bounds,
        loops_complete: complete,
        unwinding_reached: reached,
        counterexample: None,
        phases,
        stats,
        limit_reached: false,
    }
}

fn timed_out(
    last: Option<(Bounds, bool, Vec<String>)>,
    trying: Bounds,
    phases: Vec<Phase>,
    stats: Stats,
) -> CheckOutcome {
    let reason = match &last {
        Some((b, _, _)) => format!(
            "time limit reached while checking {} rounds (no failure with {} rounds, loops unwound {} times)",
            trying.rounds, b.rounds, b.unwind
        ),
        None => format!("time limit reached while checking {} rounds", trying.rounds),
    };
    let (bounds, complete, reached) = last.unwrap_or((trying, false, vec![]));
    CheckOutcome {
        verdict: Verdict::Unknown,
        reason: Some(reason),
        bounds,
        loops_complete: complete,
        unwinding_reached: reached,
        counterexample: None,
        phases,
        stats,
        limit_reached: true,
    }
}
