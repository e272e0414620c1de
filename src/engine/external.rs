//! What the external checkers' driver asks of seqloc's own engine
//! ([`crate::checker::external::Backstop`]): the replay that validates their
//! counterexamples, and the built-in search where they have no deadlock check or declined
//! the program.

use std::path::Path;
use std::time::{Duration, Instant};

use super::check::{self, CheckOptions};
use super::deepen::{Alone, Ladder, Plan, deepen};
use super::diagnosis::{DiagnosisError, prepare};
use super::replay::{ReplayBounds, Replayer};
use crate::cex::Counterexample;
use crate::checker::bounded::BoundedSearch;
use crate::checker::builtin::Properties;
use crate::checker::external::driver::Log;
use crate::checker::external::{Backstop, Bounds, External, ExternalError};
use crate::checker::outcome::{CheckOutcome, Verdict};
use crate::instrument::Target;
use crate::passes::Prepared;
use crate::seq::Framework;

/// Replays `cex` with the compiled-in framework within the driver's bounds: `Err` says why
/// it does not fail the same way.
pub fn replay(
    prep: &Prepared,
    cex: &Counterexample,
    target: Target,
    unwind: u32,
    bounds: &Bounds,
    time: Option<Duration>,
) -> Result<(), String> {
    let framework = Framework::builtin();
    EngineBackstop {
        prep,
        framework: &framework,
        threads: bounds.threads.max(1),
        recursion: bounds.recursion.max(1),
    }
    .replays(cex, target, unwind, time)
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
    ) -> Result<(), String> {
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
        // Not asked here yet: `Replayer::check_locks`. The mapping ends an ESBMC 8 run
        // before an unlock ESBMC does not show (`paper/lazy01_bad`: the auditor then
        // locks a mutex the adder still holds), so with the locks checked no reading of
        // that trace replays. Until the mapping moves such ends past unshown unlocks, a
        // mapped schedule is validated with the locks dropped, as the paper's rules do.
        prepare(&replayer, &resolved, 1)
            .map(|_| ())
            .map_err(|e| match e {
                DiagnosisError::NotReproduced(why) => why,
                other => other.to_string(),
            })
    }

    fn search(
        &self,
        properties: Properties,
        bounds: &Bounds,
        time: Option<Duration>,
    ) -> Result<CheckOutcome, String> {
        let opts = CheckOptions {
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
            framework: self.framework.clone(),
        };
        check::check(self.prep, &opts).map_err(|e| e.to_string())
    }
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
    let mut probing = ext.probing(prep, input, props, bounds, &backstop, log)?;
    let mut out = deepen(&mut probing, &plan, &Alone)?;
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
    if out.verdict == Verdict::NoFailureWithinBounds {
        log(
            0,
            &format!(
                "context bound reached: {}",
                probing.bounds_text(&out.bounds)
            ),
        );
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
