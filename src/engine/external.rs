//! What the external checkers' driver asks of seqloc's own engine
//! ([`crate::checker::external::Backstop`]): the replay that validates their
//! counterexamples, and the built-in deadlock search where they have none.

use std::time::{Duration, Instant};

use super::check::{self, CheckOptions};
use super::diagnosis::{DiagnosisError, prepare};
use super::replay::{ReplayBounds, Replayer};
use crate::cex::Counterexample;
use crate::checker::builtin::Properties;
use crate::checker::external::{Backstop, Bounds};
use crate::checker::outcome::CheckOutcome;
use crate::diag::Target;
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
        prepare(&replayer, &resolved, 1)
            .map(|_| ())
            .map_err(|e| match e {
                DiagnosisError::NotReproduced(why) => why,
                other => other.to_string(),
            })
    }

    fn deadlock(&self, bounds: &Bounds, time: Option<Duration>) -> Result<CheckOutcome, String> {
        let opts = CheckOptions {
            rounds: bounds.context_bound.map(|k| k + 1),
            max_rounds: bounds.max_context_bound.max(1) + 1,
            unwind: bounds.unwind,
            max_unwind: bounds.max_unwind.max(1),
            max_threads: bounds.threads.max(1),
            properties: Properties {
                assertions: false,
                deadlock: true,
            },
            timeout: time,
            recursion: bounds.recursion.max(1),
            // Only a deadlock with a counterexample ends the check here.
            explore: false,
            fewest_rounds: true,
            framework: self.framework.clone(),
        };
        check::check(self.prep, &opts).map_err(|e| e.to_string())
    }
}
