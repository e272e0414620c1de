//! The built-in checker's answer to the deepening's question ([`BoundedSearch`]): the
//! program sequentialized with a symbolic schedule of `rounds` rounds and loops unrolled
//! `unwind` times, encoded afresh, and one solver call for a violated property.

use std::sync::Arc;
use std::time::Instant;

use super::symex::Cut;
use super::{Answer, BmcError, Properties, Session, SolveGate, Stats, Undecided};
use crate::checker::bounded::{BoundedSearch, Probe, Probed, Rung};
use crate::checker::outcome::Bounds;
use crate::passes::Prepared;
use crate::seq::{self, Framework, Mode, SeqError};

#[derive(Debug, thiserror::Error)]
pub enum ProbeError {
    #[error(transparent)]
    Seq(#[from] SeqError),
    #[error(transparent)]
    Bmc(#[from] BmcError),
}

/// The bounded search over one prepared program.
pub struct BoundedProbe<'a> {
    pub prep: &'a Prepared,
    pub framework: &'a Framework,
    pub properties: Properties,
    pub max_threads: u32,
    pub recursion: u32,
    /// `--context-switches`: the most switches a run may have, whatever the rounds.
    pub max_switches: Option<u32>,
    pub deadline: Option<Instant>,
    /// Closed by a search beside this one: the solver call in progress is interrupted and
    /// the phase ends as at the time limit.
    pub gate: Arc<SolveGate>,
    /// Report the failing run `canonical`'s criterion picks, not the solver's first (for
    /// an explanation: the ranking must not change with the model); `check` alone wants
    /// its answer fast.
    pub canonical: bool,
}

/// The smallest rounds the deepening starts with, when a question comes without any.
const FIRST_ROUNDS: u32 = 2;

/// The Z3 work (resource units) the questions that make a counterexample canonical may
/// use. Work, not time: the run picked must not depend on the machine's load. What the
/// questions need varies with Z3's seed and with any change of the encoding's terms (the
/// same formula built in another order): on the buggy benchmarks under seeds 0–2 from
/// under 3 million to 25.7 million (`registry_ten_threads`, 7 s here; BENCHMARKS.md).
/// 6 million left seven of them to the solver's later choices, so their ranking changed
/// with the seed; this leaves room above the most measured.
const CANONICAL_WORK: u64 = 40_000_000;

/// The same for an encoding with floating-point terms: Z3's SMT core answers those
/// questions (its QF_BV solver does not take floats), at 10 to 80 s for the 40 million
/// on a two-thread `double` update. The later choices are then the solver's, so the
/// ranking of such a program may change with Z3's model.
const CANONICAL_WORK_FLOATS: u64 = 4_000_000;

impl BoundedSearch for BoundedProbe<'_> {
    type Error = ProbeError;

    fn probe(&mut self, rung: Rung) -> Result<Probe, ProbeError> {
        let rounds = rung.schedule.unwrap_or(FIRST_ROUNDS);
        let unwind = rung.unwind;
        let seq_opts = seq::SeqOptions {
            max_switches: self.max_switches,
            unlocks: self.properties.unlocks,
            ..self.framework.search_options(
                unwind,
                rounds,
                self.max_threads,
                self.recursion,
                self.properties.deadlock,
            )
        };
        let prep = self.prep;
        let sq = seq::sequentialize(&prep.normalized, &prep.shared, Mode::Symbolic, &seq_opts)?;
        // `--context-switches` cuts interleavings whatever the rounds.
        let schedule_enough = self.max_switches.is_none().then(|| sq.rounds_enough());
        let bounds = Bounds {
            rounds,
            unwind,
            threads: sq.slot_bound,
        };
        let probe = |result, session: Option<&Session>| Probe {
            bounds: bounds.clone(),
            result,
            encode_ms: session.map_or(0, |s| s.stats.encode_ms),
            solve_ms: session.map_or(0, |s| s.stats.solve_ms),
            stats: session.map_or(Stats::default(), |s| s.stats),
        };
        // The framework's own loop runs once per round; loops left in user code were
        // unrolled already.
        let mut session = match Session::new(sq, rounds.max(unwind) + 2, self.deadline) {
            Ok(mut s) => {
                s.set_gate(self.gate.clone());
                s
            }
            Err(BmcError::Symex(super::symex::SymexError::Timeout)) => {
                return Ok(probe(Probed::OutOfTime, None));
            }
            Err(e) => return Err(e.into()),
        };
        let lits = session.property_lits(&self.properties.kinds());
        match session.query(&lits, &[]) {
            Answer::Violated(model) if self.canonical => {
                // The run reported is the one `canonical`'s criterion picks, not Z3's first:
                // the ranking built on it must not change with the model.
                let budget = if session.uses_floats() {
                    CANONICAL_WORK_FLOATS
                } else {
                    CANONICAL_WORK
                };
                let t0 = Instant::now();
                let c = session.canonical(&lits, model, budget);
                let detail = if c.complete {
                    format!(
                        "made canonical: {} questions, {:.1} million units of Z3's work, {} ms",
                        c.questions,
                        c.work as f64 / 1e6,
                        t0.elapsed().as_millis()
                    )
                } else {
                    format!(
                        "canonical only in its first choices: the questions needed more than {:.1} million units of Z3's work ({} asked, {} ms), the later choices are the solver's",
                        budget as f64 / 1e6,
                        c.questions,
                        t0.elapsed().as_millis()
                    )
                };
                let model = c.model;
                let cex = session.counterexample(&model, &prep.index, &prep.normalized);
                if !super::names_a_violation(&cex) {
                    return Ok(probe(unlocated(), Some(&session)));
                }
                return Ok(probe(
                    Probed::Found {
                        cex: Box::new(cex),
                        notes: vec![],
                        detail: Some(detail),
                    },
                    Some(&session),
                ));
            }
            Answer::Violated(model) => {
                let cex = session.counterexample(&model, &prep.index, &prep.normalized);
                if !super::names_a_violation(&cex) {
                    return Ok(probe(unlocated(), Some(&session)));
                }
                return Ok(probe(
                    Probed::Found {
                        cex: Box::new(cex),
                        notes: vec![],
                        detail: None,
                    },
                    Some(&session),
                ));
            }
            Answer::Unknown(why) => {
                let limit = why.limit();
                let result = if limit == Some(super::Limit::Time)
                    || why == Undecided::Stopped
                    || self.deadline.is_some_and(|d| Instant::now() >= d)
                    || self.gate.is_closed()
                {
                    Probed::OutOfTime
                } else {
                    let trying = self.bounds_text(&bounds);
                    Probed::Undecided {
                        reason: match limit {
                            Some(l @ (super::Limit::Memory | super::Limit::Interrupted)) => {
                                format!("{} while checking {trying}", super::stop::describe(l))
                            }
                            _ => format!("the solver could not decide: {why}"),
                        },
                        limit,
                    }
                };
                return Ok(probe(result, Some(&session)));
            }
            Answer::Holds => {}
        }
        // No failure within these bounds: were the loop bounds reached?
        let unwinds = session.unwind_lits();
        let cut: Vec<(String, Cut)> = match session.query(&unwinds, &[]) {
            Answer::Violated(model) => session
                .out
                .unwinds
                .iter()
                .filter(|(_, b, _)| {
                    model
                        .eval(b, true)
                        .and_then(|v| v.as_bool())
                        .unwrap_or(false)
                })
                .map(|(l, _, k)| {
                    let at = prep.normalized.sources.describe_line(*l);
                    match k {
                        // Grows with the unwinding like a loop's; said as what it is.
                        Cut::Recursion => (format!("{at} (recursion depth)"), Cut::Loop),
                        k => (at, *k),
                    }
                })
                .collect(),
            Answer::Holds => vec![],
            Answer::Unknown(_) => vec![("(undecided)".into(), Cut::Loop)],
        };
        let (loops, other): (Vec<_>, Vec<_>) = cut.into_iter().partition(|(_, k)| *k == Cut::Loop);
        let reached = loops.into_iter().map(|(l, _)| l).collect();
        let other = other.into_iter().map(|(l, _)| l).collect();
        Ok(probe(
            Probed::NoFailure {
                reached,
                other,
                schedule_enough,
            },
            Some(&session),
        ))
    }

    fn bounds_text(&self, b: &Bounds) -> String {
        format!(
            "{} with loops unwound {}",
            crate::words::count(b.rounds, "round"),
            crate::words::count(b.unwind, "time")
        )
    }

    fn no_failure_text(&self, b: &Bounds) -> String {
        format!(
            "no failure in any execution with up to {} of context switches",
            crate::words::count(b.rounds, "round")
        )
    }

    fn every_interleaving_text(&self, b: &Bounds) -> String {
        format!(
            "no failure in any execution: {} of context switches hold every interleaving",
            crate::words::count(b.rounds, "round")
        )
    }
}

/// A "fails" answer whose model names no violated property: no verdict, never a failure
/// at no location.
fn unlocated() -> Probed {
    Probed::Undecided {
        reason: "the solver's model of a failure names no violated property (please report \
                 this program)"
            .into(),
        limit: None,
    }
}
