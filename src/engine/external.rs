//! What the external checkers' driver asks of seqloc's own engine
//! ([`crate::checker::external::Backstop`]): the replay that validates their
//! counterexamples, and the built-in search where they have no deadlock check or declined
//! the program.

use std::path::Path;
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::{Duration, Instant};

use super::check::{self, CheckOptions};
use super::deepen::{Alone, Ladder, Plan, deepen};
use super::diagnosis::{DiagnosisError, prepare};
use super::replay::{ReplayBounds, Replayer};
use crate::cex::Counterexample;
use crate::checker::bounded::BoundedSearch;
use crate::checker::builtin::Properties;
use crate::checker::external::driver::Log;
use crate::checker::external::{Backstop, Bounds, External, ExternalError, Kind};
use crate::checker::outcome::{CheckOutcome, Verdict};
use crate::instrument::Target;
use crate::passes::Prepared;
use crate::seq::Framework;
#[cfg(test)]
use crate::seq::schedule::InputValue;

/// Replays `cex` with the compiled-in framework within the driver's bounds (the tests'
/// way into [`EngineBackstop::replays`]): `Err` says why it does not fail the same way.
#[cfg(test)]
fn replay(
    prep: &Prepared,
    cex: &Counterexample,
    target: Target,
    unwind: u32,
    bounds: &Bounds,
    time: Option<Duration>,
) -> Result<Vec<InputValue>, String> {
    let framework = Framework::builtin();
    EngineBackstop {
        prep,
        framework: &framework,
        threads: bounds.threads.max(1),
        recursion: bounds.recursion.max(1),
    }
    .replays(cex, target, unwind, time)
    .map(|run| run.schedule.inputs)
}

pub struct EngineBackstop<'a> {
    pub prep: &'a Prepared,
    pub framework: &'a Framework,
    pub threads: u32,
    pub recursion: u32,
}

impl Backstop for EngineBackstop<'_> {
    fn replays(
        &self,
        cex: &Counterexample,
        target: Target,
        unwind: u32,
        time: Option<Duration>,
    ) -> Result<Counterexample, String> {
        let resolved = cex
            .schedule
            .resolve(&self.prep.normalized, &self.prep.index)
            .map_err(|e| e.to_string())?;
        let replayer = Replayer {
            prep: self.prep,
            framework: self.framework,
            bounds: ReplayBounds {
                unwind,
                max_threads: self.threads,
                recursion: self.recursion,
            },
            target,
            deadline: time.map(|t| Instant::now() + t),
        };
        let run = prepare(&replayer, &resolved, 1)
            .map(|d| d.replay)
            .map_err(|e| match e {
                DiagnosisError::NotReproduced(why) => why,
                other => other.to_string(),
            })?;
        // The replay drops lock calls (Table II's non-deadlock rules), sound only for a
        // schedule made under lock semantics. A schedule read from a checker's trace may
        // not be one: the mapping can end a run before an unlock the trace does not show
        // (`paper/lazy01_bad` with ESBMC 8: the auditor then locks a mutex the adder still
        // holds). Explained, such a schedule would have two threads hold one mutex; it is
        // refused, and the driver tries its other readings of the trace, then the
        // built-in search in the checker's place.
        let check = replayer
            .check_locks(&resolved, true)
            .map_err(|e| e.to_string())?;
        match super::replay::lock_refusal(&check) {
            Some(why) if !matches!(check, super::replay::LockCheck::Undecided(_)) => Err(why),
            _ => Ok(run),
        }
    }

    fn search(
        &self,
        properties: Properties,
        bounds: &Bounds,
        time: Option<Duration>,
    ) -> Result<CheckOutcome, String> {
        check::check(self.prep, &self.options(properties, bounds, time)).map_err(|e| e.to_string())
    }
}

impl EngineBackstop<'_> {
    /// The built-in search's options within the driver's bounds.
    fn options(
        &self,
        properties: Properties,
        bounds: &Bounds,
        time: Option<Duration>,
    ) -> CheckOptions {
        CheckOptions {
            rounds: bounds.context_bound.map(|k| k + 1),
            max_rounds: bounds.max_context_bound.max(1) + 1,
            unwind: bounds.unwind,
            max_unwind: bounds.max_unwind.max(1),
            assume_loop_bounds: bounds.assume_loop_bounds,
            max_threads: bounds.threads.max(1),
            properties,
            timeout: time,
            recursion: bounds.recursion.max(1),
            max_switches: bounds.context_bound,
            // The explorer beside the bounded search (and the static argument before both)
            // answers "no deadlock" for most programs in moments; alone, the bounded search
            // deepens to the last round before it can say so (minutes for two threads and a
            // loop, with no time limit given).
            explore: true,
            fewest_rounds: true,
            explorer_after: None,
            framework: self.framework.clone(),
            stop: None,
        }
    }
}

/// The checker's search runs alone this long, at most: a program it answers within it
/// is its own to answer, with its own counterexample.
const ALONE_AT_MOST: Duration = Duration::from_secs(30);

/// How long the checker searches alone before the built-in search joins it: a quarter of
/// the time limit, and at most [`ALONE_AT_MOST`].
fn alone_for(timeout: Option<Duration>) -> Duration {
    timeout.map_or(ALONE_AT_MOST, |t| (t / 4).min(ALONE_AT_MOST))
}

/// Which of the built-in searches beside the checker found the failure.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Beside {
    /// The deadlock search that runs beside ESBMC's `--deadlock-check` from the start.
    Deadlock,
    /// The whole search, once the checker had searched alone for [`alone_for`].
    Joined,
    /// The whole search, after the checker ended first without an answer (a loop bound
    /// reached at its deepest unwinding): a bound the built-in search may not need.
    After,
}

/// What a built-in search beside the checker concluded first.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Concluded {
    /// A failing interleaving, replayed.
    Failure,
    /// No failure in any execution, explored with no bound cutting any
    /// ([`CheckOutcome::exhaustive`]): a proof, not a bounded answer.
    Proof,
}

/// The built-in searches beside the checker's. Where ESBMC's `--deadlock-check` runs
/// first (`early_deadlock`), the built-in deadlock search runs beside it from the start:
/// that check is the slow one (it ran into its share of the time limit on most deadlock
/// benchmarks, each row then taking the 30 s before the built-in search joined) and has
/// given false and missed deadlocks, while the built-in search finds or rules out a
/// deadlock in moments. Then, once the checker has searched alone for [`alone_for`], the
/// whole built-in search joins it with half of the time then left (the localization needs
/// the rest). A failure found (replayed by the built-in search) sets `found`, which stops
/// the checker, and so does the whole search's proof that no execution fails (only an
/// exhaustive one: a bounded "no failure" leaves the checker searching); `done` ends the
/// wait or the search once the checker answered.
#[allow(clippy::too_many_arguments)]
fn beside(
    backstop: &EngineBackstop,
    props: Properties,
    bounds: &Bounds,
    deadline: Option<Instant>,
    alone: Duration,
    early_deadlock: bool,
    done: &Arc<AtomicBool>,
    found: &AtomicBool,
) -> Option<(CheckOutcome, Beside, Concluded)> {
    let start = Instant::now() + alone;
    let search = |props: Properties, time: Option<Duration>, proofs: bool| {
        let out = conclude(backstop, props, bounds, time, proofs, Some(done.clone()))?;
        if done.load(Ordering::SeqCst) {
            return None;
        }
        found.store(true, Ordering::SeqCst);
        Some(out)
    };
    if early_deadlock {
        let only_deadlock = Properties {
            assertions: false,
            deadlock: true,
            unlocks: false,
        };
        // Its "no deadlock" says nothing of the assertions: not a proof of the program.
        if let Some((out, concluded)) = search(only_deadlock, Some(alone), false) {
            return Some((out, Beside::Deadlock, concluded));
        }
    }
    while Instant::now() < start {
        if done.load(Ordering::SeqCst) {
            return None;
        }
        std::thread::sleep(Duration::from_millis(20));
    }
    let time = deadline.map(|d| d.saturating_duration_since(Instant::now()) / 2);
    search(props, time, true).map(|(out, concluded)| (out, Beside::Joined, concluded))
}

/// The built-in search within `time`, if it concludes: a failing interleaving (replayed by
/// the search), or, when `proofs`, no failure in any execution with no bound cutting any.
fn conclude(
    backstop: &EngineBackstop,
    props: Properties,
    bounds: &Bounds,
    time: Option<Duration>,
    proofs: bool,
    stop: Option<Arc<AtomicBool>>,
) -> Option<(CheckOutcome, Concluded)> {
    let opts = CheckOptions {
        stop,
        ..backstop.options(props, bounds, time)
    };
    let out = check::check(backstop.prep, &opts).ok()?;
    let failed =
        matches!(out.verdict, Verdict::Failure | Verdict::Deadlock) && out.counterexample.is_some();
    if failed {
        Some((out, Concluded::Failure))
    } else if proofs && out.exhaustive() {
        Some((out, Concluded::Proof))
    } else {
        None
    }
}

/// How long the built-in search may take in the checker's place after the checker ended
/// without an answer, when no time limit was given: the question that ended it has no
/// limit of its own.
const AFTER_AT_MOST: Duration = Duration::from_secs(60);

/// The checker's search ended without an answer because a loop bound was reached at its
/// deepest unwinding (not at a time or memory limit, not with its failure or a checker
/// error): the built-in search, whose explorer and invariants need no loop bound, may
/// still conclude. (The caller also skips it where the built-in search already stood in.)
fn bound_reached(out: &CheckOutcome) -> bool {
    out.verdict == Verdict::Unknown
        && out.limit().is_none()
        && !out.unwinding_reached.is_empty()
        && out.counterexample.is_none()
}

/// `seqloc check` with ESBMC or CBMC: the deepening of [`super::deepen`] over one checker
/// run per phase, loops first (a run is expensive, and a deeper loop bound at the same
/// context bound is the cheaper next question), the context bound once every loop ran to
/// its end.
#[allow(clippy::too_many_arguments)]
pub fn check(
    ext: &mut External,
    prep: &Prepared,
    input: &Path,
    props: Properties,
    bounds: &Bounds,
    framework: &Framework,
    log: Log,
) -> Result<CheckOutcome, ExternalError> {
    let name = ext.name().to_string();
    let backstop = EngineBackstop {
        prep,
        framework,
        threads: bounds.threads.max(1),
        recursion: bounds.recursion.max(1),
    };
    let plan = Plan {
        schedule: ext
            .context_ladder(bounds)
            .map(|(fixed, steps, max)| Ladder { fixed, steps, max }),
        unwind: bounds.unwind,
        first_unwind: bounds.unwind.unwrap_or(2).max(1),
        stops: loop_stops(prep),
        max_unwind: bounds.max_unwind.max(1),
        assume_loop_bounds: bounds.assume_loop_bounds,
        diagonal: false,
        wide: false,
        deadline: ext.deadline(),
        timeout: ext.cfg.timeout,
    };
    // A portfolio for the failing interleaving, unless the checker's own answer was asked
    // for (`--raw`): where the checker's search is slow (ESBMC on `wronglock_bad` reaches
    // 150 s; the built-in search finds the failure in moments), the built-in search joins
    // it, and the first failure found is the one the checker localizes along (the
    // sequential programs have no threads to search).
    let raw = ext.cfg.searches_alone();
    let alone = alone_for(ext.cfg.timeout);
    let deadline = ext.deadline();
    let done = Arc::new(AtomicBool::new(false));
    let found = Arc::new(AtomicBool::new(false));
    let early_deadlock = props.deadlock && ext.cfg.kind == Kind::Esbmc;
    let mut stood_in = false;
    ext.supersede_with((!raw).then(|| found.clone()));
    let (searched, stand_in) = std::thread::scope(|s| {
        // The built-in search recurses over expressions as the front end does.
        let helper = (!raw)
            .then(|| {
                std::thread::Builder::new()
                    .stack_size(crate::STACK_BYTES)
                    .spawn_scoped(s, || {
                        beside(
                            &backstop,
                            props,
                            bounds,
                            deadline,
                            alone,
                            early_deadlock,
                            &done,
                            &found,
                        )
                    })
                    .ok()
            })
            .flatten();
        let on_panic = check::OnPanic(|| done.store(true, Ordering::SeqCst));
        let searched = ext
            .probing(prep, input, props, bounds, &backstop, log)
            .and_then(|mut probing| {
                let out = deepen(&mut probing, &plan, &Alone)?;
                stood_in = probing.stood_in();
                // A stand-in's proof reached no bound.
                if out.verdict == Verdict::NoFailureWithinBounds && !out.exhaustive() {
                    log(
                        0,
                        &format!(
                            "context bound reached: {}",
                            probing.bounds_text(&out.bounds)
                        ),
                    );
                }
                Ok(out)
            });
        drop(on_panic);
        done.store(true, Ordering::SeqCst);
        let stand_in = helper.and_then(|h| h.join().ok()).flatten();
        (searched, stand_in)
    });
    ext.supersede_with(None);
    // A checker that ended at its deepest loop bound before the built-in search joined it:
    // the built-in search looks once in its place.
    let stand_in = match stand_in {
        None if !raw
            && !stood_in
            && searched.as_ref().is_ok_and(bound_reached)
            && deadline.is_none_or(|d| Instant::now() < d) =>
        {
            let label = ext.cfg.kind.label();
            log(
                0,
                &format!(
                    "{label} reached its loop bounds without an answer; seqloc's built-in checker searches in its place"
                ),
            );
            let time = deadline.map_or(AFTER_AT_MOST, |d| {
                d.saturating_duration_since(Instant::now()) / 2
            });
            conclude(&backstop, props, bounds, Some(time), true, None)
                .map(|(out, concluded)| (out, Beside::After, concluded))
        }
        s => s,
    };
    let found_by_checker = searched.as_ref().is_ok_and(|o| o.counterexample.is_some());
    let mut out = match stand_in {
        Some((mut out, by, concluded)) if !found_by_checker => {
            let label = ext.cfg.kind.label();
            let (why, note) = match by {
                Beside::Deadlock => (
                    format!(
                        "seqloc's built-in deadlock search, run beside {label}'s --deadlock-check from the start, found a deadlock first"
                    ),
                    format!(
                        "the deadlock was found by seqloc's built-in checker beside {label}'s --deadlock-check, and {label} ran on the sequential programs built from it (--alone: {label}'s own search only)"
                    ),
                ),
                Beside::Joined | Beside::After => {
                    let why = match (&searched, by) {
                        (Ok(o), Beside::After) => format!(
                            "{label} gave no answer ({})",
                            o.reason
                                .as_deref()
                                .unwrap_or("its loop bounds were reached")
                        ),
                        (Err(ExternalError::Superseded { .. }) | Ok(_), _) => {
                            format!("{label} had found no failure after {} s", alone.as_secs())
                        }
                        (Err(e), _) => format!("{label} gave no answer ({e})"),
                    };
                    let (beside, from_then) = if by == Beside::After {
                        ("in its place", "in its place")
                    } else {
                        ("searching beside it", "searching beside it from then on")
                    };
                    match concluded {
                        Concluded::Failure => (
                            format!(
                                "{why}; seqloc's built-in checker, {beside}, found a failing interleaving"
                            ),
                            format!(
                                "{why}; the failing interleaving was found by seqloc's built-in checker, {from_then}, and {label} ran on the sequential programs built from it (--alone: {label}'s own search only)"
                            ),
                        ),
                        Concluded::Proof => (
                            format!(
                                "{why}; seqloc's built-in checker, {beside}, explored every execution and found no failure"
                            ),
                            format!(
                                "{why}; seqloc's built-in checker, {from_then}, explored every execution with no bound cutting any and found no failure{} (--alone: {label}'s own search only)",
                                if by == Beside::After {
                                    String::new()
                                } else {
                                    format!(", so {label} was stopped")
                                }
                            ),
                        ),
                    }
                }
            };
            log(0, &why);
            out.reason = Some(match out.reason.take() {
                Some(r) => format!("{note}; {r}"),
                None => note,
            });
            out
        }
        _ => searched?,
    };
    // The user's switch bound holds whatever the checker's own context bound counted.
    if let (Some(k), Some(cex)) = (bounds.max_switches, &out.counterexample) {
        let n = cex.context_switches();
        if n > k as usize {
            out.reason = Some(format!(
                "{}'s counterexample ({}) has {}, beyond --context-switches {k}; raise or drop it for a counterexample",
                name,
                cex.violation.describe(),
                crate::words::count(n, "context switch")
            ));
            out.verdict = Verdict::Unknown;
            out.counterexample = None;
        }
    }
    Ok(out)
}

/// The loop bounds at which the program's counted loops run to their end (see
/// [`Plan::stops`]): each constant trip count normalization found, and one more, since
/// CBMC's and ESBMC's `--unwind N` with unwinding assertions tests the condition once
/// more after the last iteration.
fn loop_stops(prep: &Prepared) -> Vec<u32> {
    let mut stops: Vec<u32> = prep
        .normalized
        .loop_bounds
        .values()
        .filter_map(|&t| u32::try_from(t).ok())
        .flat_map(|t| [t, t.saturating_add(1)])
        .filter(|&t| t > 0)
        .collect();
    stops.sort_unstable();
    stops.dedup();
    stops
}

#[cfg(test)]
mod recordings;
#[cfg(test)]
mod tests;
