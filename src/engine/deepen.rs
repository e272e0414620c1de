//! The deepening loop, written once for every checker: ask for a failure within small
//! bounds, and raise the bounds until one is found, the bounds the user allowed are
//! searched, or a limit ends it.
//!
//! Two bounds grow: the checker's bound on interleavings (rounds for the built-in search,
//! ESBMC's context bound; CBMC has none) and the loop bound, doubled while some loop reaches
//! it. How they grow is the [`Plan`]: together (the built-in search, where one phase costs
//! about rounds times unwind and a phase is one solver call) or loops first (a checker run
//! per phase). The question itself is the checker's ([`BoundedSearch`]); a [`Steer`] lets
//! a search running beside the loop (the built-in explorer) stop it or widen it.
//!
//! Invariants:
//! * a failure is reported with the bounds of the phase that found it, never a later one;
//! * "no failure" is only said of bounds searched to the end: a phase cut short by a limit
//!   reports the last phase that finished, and the verdict is unknown;
//! * loops that reached their bound in the last phase make the verdict unknown, never
//!   "no failure".

use std::collections::VecDeque;
use std::time::{Duration, Instant};

use crate::cex::ViolationKind;
use crate::checker::bounded::{BoundedSearch, Probe, Probed, Rung};
use crate::checker::builtin::{Limit, Stats};
use crate::checker::outcome::{Bounds, CheckOutcome, Phase, Verdict};

/// How the bounds grow.
#[derive(Clone, Debug)]
pub struct Plan {
    /// The bound on interleavings; `None` when the checker has none.
    pub schedule: Option<Ladder>,
    /// A loop bound the user fixed.
    pub unwind: Option<u32>,
    pub first_unwind: u32,
    pub max_unwind: u32,
    /// The loop bound is an assumption (`--assume-loop-bounds`, the peers'
    /// `--no-unwinding-assertions`): a search that finds no failure in the executions
    /// within it answers "no failure within bounds", naming the loops it cut, instead of
    /// UNKNOWN.
    pub assume_loop_bounds: bool,
    /// Loop bounds at which a loop of the program runs to its end (its constant trip
    /// count, and one more for a checker that also tests the condition after the last
    /// iteration): the loop bound grows to the next of them when it comes before the
    /// doubled bound, so that a loop of 5 iterations is searched at 5 and 6, not only at 8.
    pub stops: Vec<u32>,
    /// Raise both bounds after each phase; otherwise the loop bound first, and the
    /// schedule bound once every loop ran to its end (or the loop bound is at its most).
    pub diagonal: bool,
    /// While loop bounds are reached, try phases with the smallest schedule bound and
    /// deeper loops that cost no more than the next phase (see [`Plan::diagonal`]).
    pub wide: bool,
    pub deadline: Option<Instant>,
    /// The user's time limit, for the report.
    pub timeout: Option<Duration>,
}

/// The schedule bound's steps.
#[derive(Clone, Debug)]
pub struct Ladder {
    /// A bound the user fixed: the only step.
    pub fixed: Option<u32>,
    /// The steps before `max`; past them, `max`.
    pub steps: Vec<u32>,
    pub max: u32,
}

/// What a search running beside the deepening may say to it.
pub trait Steer {
    /// The most the schedule bound may grow to, given the usual most (the built-in search
    /// goes on past it while the explorer holds a failure it has not replayed yet).
    fn max_schedule(&self, usual: u32) -> u32 {
        usual
    }
    /// Stop before the next phase, as a time limit would.
    fn halted(&self) -> bool {
        false
    }
    /// Stop before the next phase with the outcome of the last finished one, which had
    /// these bounds (a failure found beside the loop is the answer).
    fn settled(&self, _last: &Bounds) -> bool {
        false
    }
    /// Stop after a phase that found no failure, as a time limit would (a proof beside the
    /// loop makes the rest pointless).
    fn proved(&self) -> bool {
        false
    }
    /// A phase with this schedule bound starts.
    fn starting(&self, _schedule: u32) {}
    /// A phase of the diagonal with this schedule bound found no failure.
    fn finished(&self, _schedule: u32) {}
}

/// Steers nothing.
pub struct Alone;
impl Steer for Alone {}

/// The last phase of the diagonal that finished: its bounds, whether every loop ran to its
/// end, the loops that reached their bound, and whether its schedule bound held every
/// interleaving.
type Done = (Bounds, bool, Vec<String>, bool);

/// A bound other than a loop's that cut runs off, in a report's words.
const OTHER_BOUND: &str = "a thread, key, barrier-cycle or recursion bound";

/// Deepens `search` by `plan` until an answer.
pub fn deepen<S: BoundedSearch>(
    search: &mut S,
    plan: &Plan,
    steer: &dyn Steer,
) -> Result<CheckOutcome, S::Error> {
    let mut step = 0usize;
    let mut diag_unwind = plan.unwind.unwrap_or(plan.first_unwind).max(1);
    let mut phases: Vec<Phase> = Vec::new();
    let mut stats = Stats::default();
    let mut last_done: Option<Done> = None;
    // Loop bounds for the wide phases due before the next phase of the diagonal, in order.
    let mut wide: VecDeque<u32> = VecDeque::new();
    let mut widest = 0u32;
    let fixed_schedule = plan.schedule.as_ref().is_some_and(|l| l.fixed.is_some());
    // The schedule bound that holds every interleaving, from the last phase of the
    // diagonal whose loops all ran to their end (a deeper loop bound, more points, may
    // need more).
    let mut enough: Option<u32> = None;
    loop {
        let max = plan
            .schedule
            .as_ref()
            .map(|l| steer.max_schedule(l.max).max(1));
        let diagonal = plan.schedule.as_ref().zip(max).map(|(l, max)| {
            l.fixed.unwrap_or_else(|| {
                let s = l.steps.get(step).copied().unwrap_or(max).min(max);
                // No step past the bound that holds every interleaving.
                enough.map_or(s, |e: u32| s.min(e.max(1)))
            })
        });
        let wide_unwind = wide.pop_front();
        let rung = match wide_unwind {
            Some(u) => Rung {
                schedule: plan
                    .schedule
                    .as_ref()
                    .zip(max)
                    .map(|(l, max)| l.steps.first().copied().unwrap_or(max).min(max)),
                unwind: u,
            },
            None => Rung {
                schedule: diagonal,
                unwind: diag_unwind,
            },
        };
        if let Some(s) = rung.schedule {
            steer.starting(s);
        }
        if steer.halted() {
            let trying = last_done.as_ref().map(|l| l.0.clone()).unwrap_or_default();
            return Ok(timed_out(search, last_done, trying, phases, stats, plan));
        }
        if let Some(done) = last_done.clone().filter(|l| steer.settled(&l.0)) {
            return Ok(finished(search, plan, done, phases, stats));
        }
        let Probe {
            bounds,
            result,
            encode_ms,
            solve_ms,
            stats: s,
        } = search.probe(rung)?;
        add_stats(&mut stats, &s);
        let mut phase = Phase {
            bounds: bounds.clone(),
            result: String::new(),
            encode_ms,
            solve_ms,
        };
        let (reached, other, every, schedule_enough) = match result {
            Probed::Found { cex, notes, detail } => {
                let deadlock = cex.violation.kind == ViolationKind::Deadlock;
                phase.result = if deadlock { "deadlock" } else { "failure" }.into();
                if let Some(d) = detail {
                    phase.result.push_str(&format!(" ({d})"));
                }
                phases.push(phase);
                let notes = with_notes(notes, search);
                return Ok(CheckOutcome {
                    verdict: if deadlock {
                        Verdict::Deadlock
                    } else {
                        Verdict::Failure
                    },
                    reason: (!notes.is_empty()).then(|| notes.join("; ")),
                    bounds,
                    loops_complete: false,
                    unwinding_reached: vec![],
                    counterexample: Some(*cex),
                    phases,
                    stats,
                    limit_reached: false,
                    exploration: None,
                    every_interleaving: false,
                    explored_counterexample: false,
                });
            }
            Probed::OutOfTime => {
                // Interrupted because the explorer proved the program, not by the clock.
                phase.result = if steer.proved() {
                    "stopped: the explicit-state search proved the program".into()
                } else {
                    "time limit".into()
                };
                phases.push(phase);
                return Ok(timed_out(search, last_done, bounds, phases, stats, plan));
            }
            Probed::Undecided { reason, limit } => {
                phase.result = format!("unknown: {reason}");
                phases.push(phase);
                stats.limit = limit;
                let reason = with_notes(vec![reason], search).join("; ");
                return Ok(CheckOutcome {
                    verdict: Verdict::Unknown,
                    reason: Some(reason),
                    bounds,
                    loops_complete: false,
                    unwinding_reached: vec![],
                    counterexample: None,
                    phases,
                    stats,
                    limit_reached: limit.is_some(),
                    exploration: None,
                    every_interleaving: false,
                    explored_counterexample: false,
                });
            }
            Probed::Proven { outcome, note } => {
                phase.result = "no failure in any execution (a stand-in search's proof)".into();
                phases.push(phase);
                let mut out = *outcome;
                let notes = with_notes(
                    std::iter::once(note).chain(out.reason.take()).collect(),
                    search,
                );
                out.reason = Some(notes.join("; "));
                out.phases = phases;
                out.stats = stats;
                return Ok(out);
            }
            Probed::NoFailure {
                reached,
                other,
                schedule_enough,
            } => {
                if let Some(e) = schedule_enough {
                    phase.result = format!("{e} rounds hold every interleaving");
                }
                let every = rung
                    .schedule
                    .zip(schedule_enough)
                    .is_some_and(|(s, e)| s >= e);
                (reached, other, every, schedule_enough)
            }
        };
        let enough_text = std::mem::take(&mut phase.result);
        phase.result = match (reached.is_empty(), other.is_empty()) {
            (true, true) => "no failure; loops complete".into(),
            (false, true) => format!("no failure; loop bound reached at {}", reached.join(", ")),
            (true, false) => format!(
                "no failure; {} reached at {}",
                OTHER_BOUND,
                other.join(", ")
            ),
            (false, false) => format!(
                "no failure; loop bound reached at {}; {} reached at {}",
                reached.join(", "),
                OTHER_BOUND,
                other.join(", ")
            ),
        };
        if !enough_text.is_empty() {
            phase.result.push_str(&format!("; {enough_text}"));
        }
        phases.push(phase);
        // Only a loop bound grows with the unwinding; the others cut runs off at any.
        let loops_complete = reached.is_empty();
        if wide_unwind.is_none() && loops_complete {
            enough = schedule_enough;
        }
        let complete = loops_complete && other.is_empty();
        let reached: Vec<String> = reached
            .into_iter()
            .chain(other.into_iter().map(|o| format!("{o} ({OTHER_BOUND})")))
            .collect();
        if plan.deadline.is_some_and(|d| Instant::now() >= d) || steer.proved() {
            let done = if wide_unwind.is_some() {
                last_done
            } else {
                Some((bounds.clone(), complete, reached, every))
            };
            return Ok(timed_out(search, done, bounds, phases, stats, plan));
        }
        if wide_unwind.is_some() {
            // A wide phase only looks for failures; its loops running to their end with
            // the fewest rounds says nothing about more rounds, but deeper wide phases
            // are pointless.
            if complete && every {
                // Every loop ran to its end in every interleaving: nothing is left to search.
                let done = (bounds, complete, reached, every);
                return Ok(finished(search, plan, done, phases, stats));
            }
            if complete {
                wide.clear();
            }
            continue;
        }
        last_done = Some((bounds.clone(), complete, reached.clone(), every));
        if let Some(s) = rung.schedule {
            steer.finished(s);
        }
        // Rounds that hold every interleaving at this loop bound: a deeper loop bound may
        // need more (its unrolled loops have more points), so this is asked again.
        let schedule_done = fixed_schedule
            || every
            || match (rung.schedule, max) {
                (Some(s), Some(max)) => s >= max,
                _ => true,
            };
        let unwind_done = plan.unwind.is_some() || loops_complete || diag_unwind >= plan.max_unwind;
        if schedule_done && unwind_done {
            return Ok(finished(
                search,
                plan,
                (bounds, complete, reached, every),
                phases,
                stats,
            ));
        }
        if !unwind_done {
            diag_unwind = next_unwind(diag_unwind, &plan.stops, plan.max_unwind);
        }
        if !schedule_done && (plan.diagonal || unwind_done) {
            step += 1;
        }
        // While loop bounds are reached, phases with the fewest rounds and deeper loops
        // are cheaper than the diagonal's next one (cost grows with rounds times unwind)
        // and find failures that need many loop iterations or thread instances but few
        // context switches (all threads created, then each run to its end). They go
        // first, as long as they cost no more than that next phase.
        if plan.wide && !loops_complete && !fixed_schedule && plan.unwind.is_none() {
            if let (Some(l), Some(max)) = (&plan.schedule, max) {
                let first = l.steps.first().copied().unwrap_or(max).min(max);
                let next = l.steps.get(step).copied().unwrap_or(max).min(max);
                let next_cost = u64::from(next) * u64::from(diag_unwind);
                let mut u = widest.max(diag_unwind).saturating_mul(2);
                while u <= plan.max_unwind && u64::from(first) * u64::from(u) <= next_cost {
                    wide.push_back(u);
                    widest = u;
                    u = u.saturating_mul(2);
                }
            }
        }
    }
}

/// The loop bound after `u`: doubled, or the first of `stops` before that.
fn next_unwind(u: u32, stops: &[u32], max: u32) -> u32 {
    let doubled = u.saturating_mul(2);
    let stop = stops.iter().copied().filter(|&s| s > u).min();
    stop.map_or(doubled, |s| s.min(doubled)).min(max)
}

fn with_notes<S: BoundedSearch>(mut first: Vec<String>, search: &S) -> Vec<String> {
    first.extend(search.notes());
    first
}

fn add_stats(total: &mut Stats, s: &Stats) {
    total.encode_ms += s.encode_ms;
    total.solve_ms += s.solve_ms;
    total.solver_calls += s.solver_calls;
}

fn finished<S: BoundedSearch>(
    search: &S,
    plan: &Plan,
    (bounds, complete, reached, every): Done,
    phases: Vec<Phase>,
    stats: Stats,
) -> CheckOutcome {
    // Loops cut at a bound the user takes as an assumption count as run to their end;
    // the report still names where they were cut.
    let answered = complete || plan.assume_loop_bounds;
    let doubt = answered.then(|| search.doubt(&bounds)).flatten();
    let reason = if let Some(d) = &doubt {
        d.clone()
    } else if complete {
        let text = if every {
            search.every_interleaving_text(&bounds)
        } else {
            search.no_failure_text(&bounds)
        };
        format!("{text}; every loop ran to its end")
    } else {
        // A site with its kind in parentheses (a recursion depth, a thread bound) is no
        // loop's.
        let which = if reached.iter().all(|r| !r.ends_with(')')) {
            "loop bounds"
        } else {
            "bounds"
        };
        let assumed = if plan.assume_loop_bounds {
            " and taken as assumptions (--assume-loop-bounds): executions past them were not searched"
        } else {
            ""
        };
        format!(
            "no failure with {}; {which} were reached at {}{assumed}",
            search.bounds_text(&bounds),
            reached.join(", ")
        )
    };
    CheckOutcome {
        verdict: if answered && doubt.is_none() {
            Verdict::NoFailureWithinBounds
        } else {
            Verdict::Unknown
        },
        reason: Some(with_notes(vec![reason], search).join("; ")),
        bounds,
        loops_complete: complete,
        unwinding_reached: reached,
        counterexample: None,
        phases,
        stats,
        limit_reached: false,
        exploration: None,
        every_interleaving: complete && every,
        explored_counterexample: false,
    }
}

fn timed_out<S: BoundedSearch>(
    search: &S,
    last: Option<Done>,
    trying: Bounds,
    phases: Vec<Phase>,
    mut stats: Stats,
    plan: &Plan,
) -> CheckOutcome {
    // The watchdog's stop (memory, a signal) ends a phase as the time limit does.
    let stopped = crate::checker::builtin::stop::requested();
    stats.limit = Some(stopped.unwrap_or(Limit::Time));
    let limit = match (stopped, plan.timeout) {
        (Some(l), _) => crate::checker::builtin::stop::describe(l),
        (None, Some(t)) => format!(
            "time limit of {} reached",
            crate::checker::builtin::stop::seconds(t)
        ),
        (None, None) => "time limit reached".into(),
    };
    let reason = match &last {
        Some((b, _, _, _)) => format!(
            "{limit} while checking {} (no failure with {})",
            search.bounds_text(&trying),
            search.bounds_text(b)
        ),
        None => format!("{limit} while checking {}", search.bounds_text(&trying)),
    };
    let (bounds, complete, reached, _) = last.unwrap_or((trying, false, vec![], false));
    CheckOutcome {
        verdict: Verdict::Unknown,
        reason: Some(with_notes(vec![reason], search).join("; ")),
        bounds,
        loops_complete: complete,
        unwinding_reached: reached,
        counterexample: None,
        phases,
        stats,
        limit_reached: true,
        exploration: None,
        every_interleaving: false,
        explored_counterexample: false,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::cex::{Counterexample, Violation};
    use crate::seq::schedule::Schedule;

    #[test]
    fn the_loop_bound_stops_where_a_counted_loop_ends() {
        // A loop of 4 iterations: 2, 4, then 5 (not 8), then doubling again.
        let stops = [4, 5];
        assert_eq!(next_unwind(2, &stops, 64), 4);
        assert_eq!(next_unwind(4, &stops, 64), 5);
        assert_eq!(next_unwind(5, &stops, 64), 10);
        assert_eq!(next_unwind(2, &[], 64), 4);
        // Never past the most the user allowed, and a stop beyond the doubling waits.
        assert_eq!(next_unwind(40, &stops, 64), 64);
        assert_eq!(next_unwind(2, &[100], 64), 4);
    }

    /// A checker whose failure needs `fail_at` (schedule, unwind) or more, and whose loops
    /// run to their end from `loops_end` on; it records the questions asked.
    struct Scripted {
        fail_at: Option<(u32, u32)>,
        loops_end: u32,
        /// Answer "out of time" from this question on (0-based).
        out_of_time_at: Option<usize>,
        doubt: Option<String>,
        /// Rounds from which every interleaving is held.
        every_at: Option<u32>,
        asked: Vec<Rung>,
    }

    fn scripted(fail_at: Option<(u32, u32)>, loops_end: u32) -> Scripted {
        Scripted {
            fail_at,
            loops_end,
            out_of_time_at: None,
            doubt: None,
            every_at: None,
            asked: vec![],
        }
    }

    fn cex() -> Box<Counterexample> {
        let schedule = Schedule::from_json(r#"{"threads":[],"blocks":[]}"#, "test")
            .unwrap_or_else(|e| unreachable!("{e}"));
        Box::new(Counterexample {
            checker: "scripted".into(),
            violation: Violation {
                kind: ViolationKind::Assertion,
                loc: crate::ir::Loc::SYNTH,
                file: "p.c".into(),
                line: 3,
                column: 1,
                thread: Some(1),
                message: "assertion".into(),
            },
            schedule,
            steps: vec![],
            inputs: vec![],
        })
    }

    impl BoundedSearch for Scripted {
        type Error = std::convert::Infallible;
        fn probe(&mut self, rung: Rung) -> Result<Probe, Self::Error> {
            self.asked.push(rung);
            let s = rung.schedule.unwrap_or(0);
            let result = if self.out_of_time_at.is_some_and(|n| self.asked.len() > n) {
                Probed::OutOfTime
            } else if self
                .fail_at
                .is_some_and(|(fs, fu)| s >= fs && rung.unwind >= fu)
            {
                Probed::Found {
                    cex: cex(),
                    notes: vec![],
                    detail: None,
                }
            } else if rung.unwind >= self.loops_end {
                Probed::NoFailure {
                    reached: vec![],
                    other: vec![],
                    schedule_enough: self.every_at,
                }
            } else {
                Probed::NoFailure {
                    reached: vec!["p.c:7".into()],
                    other: vec![],
                    schedule_enough: self.every_at,
                }
            };
            Ok(Probe {
                bounds: Bounds {
                    rounds: s,
                    unwind: rung.unwind,
                    threads: 2,
                },
                result,
                encode_ms: 0,
                solve_ms: 0,
                stats: Stats::default(),
            })
        }
        fn bounds_text(&self, b: &Bounds) -> String {
            format!("{}/{}", b.rounds, b.unwind)
        }
        fn no_failure_text(&self, b: &Bounds) -> String {
            format!("no failure within {}/{}", b.rounds, b.unwind)
        }
        fn doubt(&self, _b: &Bounds) -> Option<String> {
            self.doubt.clone()
        }
    }

    fn plan(diagonal: bool, wide: bool) -> Plan {
        Plan {
            schedule: Some(Ladder {
                fixed: None,
                steps: vec![2, 3, 4, 6, 8],
                max: 8,
            }),
            unwind: None,
            first_unwind: 2,
            stops: vec![],
            max_unwind: 16,
            assume_loop_bounds: false,
            diagonal,
            wide,
            deadline: None,
            timeout: None,
        }
    }

    fn run(s: &mut Scripted, p: &Plan) -> CheckOutcome {
        match deepen(s, p, &Alone) {
            Ok(o) => o,
            Err(e) => match e {},
        }
    }

    #[test]
    fn a_failure_is_reported_with_the_bounds_that_found_it() {
        let mut s = scripted(Some((4, 4)), 4);
        let out = run(&mut s, &plan(true, false));
        assert_eq!(out.verdict, Verdict::Failure);
        assert_eq!((out.bounds.rounds, out.bounds.unwind), (4, 4));
        assert!(out.counterexample.is_some());
        // The diagonal: both bounds grow after each phase, the loop bound until every loop
        // runs to its end.
        let asked: Vec<_> = s.asked.iter().map(|r| (r.schedule, r.unwind)).collect();
        assert_eq!(asked, vec![(Some(2), 2), (Some(3), 4), (Some(4), 4)]);
    }

    #[test]
    fn loops_first_raises_the_schedule_bound_only_once_loops_end() {
        let mut s = scripted(None, 8);
        let out = run(&mut s, &plan(false, false));
        assert_eq!(out.verdict, Verdict::NoFailureWithinBounds);
        let asked: Vec<_> = s.asked.iter().map(|r| (r.schedule, r.unwind)).collect();
        assert_eq!(
            asked,
            vec![
                (Some(2), 2),
                (Some(2), 4),
                (Some(2), 8),
                (Some(3), 8),
                (Some(4), 8),
                (Some(6), 8),
                (Some(8), 8)
            ]
        );
        assert_eq!(out.bounds.rounds, 8);
        assert!(out.loops_complete);
    }

    #[test]
    fn loops_that_never_end_leave_the_verdict_unknown() {
        let mut s = scripted(None, u32::MAX);
        let out = run(&mut s, &plan(true, false));
        assert_eq!(out.verdict, Verdict::Unknown);
        assert!(!out.loops_complete);
        assert_eq!(out.unwinding_reached, vec!["p.c:7".to_string()]);
        assert_eq!(out.bounds.unwind, 16);
        assert!(!out.limit_reached);
    }

    #[test]
    fn a_phase_cut_short_reports_the_last_finished_one() {
        let mut s = scripted(None, 2);
        s.out_of_time_at = Some(2);
        let out = run(&mut s, &plan(true, false));
        assert_eq!(out.verdict, Verdict::Unknown);
        assert!(out.limit_reached);
        assert_eq!(out.bounds.rounds, 3);
        let reason = out.reason.unwrap_or_default();
        assert!(reason.contains("while checking 4/2"), "{reason}");
        assert!(reason.contains("no failure with 3/2"), "{reason}");
    }

    #[test]
    fn wide_phases_find_deep_loops_with_few_rounds_first() {
        // The failure needs 16 loop iterations but only the first schedule bound.
        let mut s = scripted(Some((2, 16)), u32::MAX);
        let out = run(&mut s, &plan(true, true));
        assert_eq!(out.verdict, Verdict::Failure);
        assert_eq!((out.bounds.rounds, out.bounds.unwind), (2, 16));
        // Found before the diagonal reached 16.
        assert!(
            s.asked
                .iter()
                .all(|r| r.unwind < 16 || r.schedule == Some(2))
        );
    }

    #[test]
    fn a_doubted_no_failure_is_unknown() {
        let mut s = scripted(None, 2);
        s.doubt = Some("this checker misses interleavings here".into());
        let out = run(&mut s, &plan(true, false));
        assert_eq!(out.verdict, Verdict::Unknown);
        assert!(
            out.reason
                .unwrap_or_default()
                .contains("misses interleavings")
        );
    }

    #[test]
    fn without_a_schedule_bound_only_loops_deepen() {
        let mut s = scripted(None, 8);
        let mut p = plan(false, false);
        p.schedule = None;
        let out = run(&mut s, &p);
        assert_eq!(out.verdict, Verdict::NoFailureWithinBounds);
        let asked: Vec<_> = s.asked.iter().map(|r| (r.schedule, r.unwind)).collect();
        assert_eq!(asked, vec![(None, 2), (None, 4), (None, 8)]);
    }

    #[test]
    fn rounds_that_hold_every_interleaving_end_the_search_with_no_failure() {
        // Loops end at unwind 4; three rounds hold every interleaving.
        let mut s = scripted(None, 4);
        s.every_at = Some(3);
        let out = run(&mut s, &plan(true, false));
        assert_eq!(out.verdict, Verdict::NoFailureWithinBounds);
        let asked: Vec<_> = s.asked.iter().map(|r| (r.schedule, r.unwind)).collect();
        assert_eq!(asked, [(Some(2), 2), (Some(3), 4)]);
        assert!(
            out.phases
                .last()
                .is_some_and(|p| p.result.ends_with("3 rounds hold every interleaving")),
            "{:?}",
            out.phases
        );
    }

    #[test]
    fn a_wide_phase_with_every_interleaving_and_loops_complete_is_the_answer() {
        // Two rounds hold everything, loops end at 8: the wide phases reach it first.
        let mut s = scripted(None, 8);
        s.every_at = Some(2);
        let out = run(&mut s, &plan(true, true));
        assert_eq!(out.verdict, Verdict::NoFailureWithinBounds);
        assert_eq!(out.bounds.unwind, 8);
        assert!(
            s.asked.iter().all(|r| r.schedule == Some(2)),
            "{:?}",
            s.asked
        );
    }

    #[test]
    fn without_every_interleaving_the_rounds_climb_to_their_most() {
        let mut s = scripted(None, 2);
        let out = run(&mut s, &plan(true, false));
        assert_eq!(out.verdict, Verdict::NoFailureWithinBounds);
        assert_eq!(s.asked.last().and_then(|r| r.schedule), Some(8));
    }

    #[test]
    fn the_schedule_bound_stops_at_the_rounds_that_hold_every_interleaving() {
        // The ladder's 6 would be past the 5 rounds that hold everything.
        let mut s = scripted(None, 2);
        s.every_at = Some(5);
        let out = run(&mut s, &plan(true, false));
        assert_eq!(out.verdict, Verdict::NoFailureWithinBounds);
        let asked: Vec<_> = s.asked.iter().filter_map(|r| r.schedule).collect();
        assert_eq!(asked, [2, 3, 4, 5]);
    }
}
