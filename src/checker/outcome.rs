//! What a check answers, whichever checker ran it: the verdict, the bounds searched, the
//! phases of a deepening search, the counterexample, and what stopped it.

use super::builtin::{Limit, Stats};
use crate::cex::Counterexample;

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Verdict {
    Failure,
    Deadlock,
    NoFailureWithinBounds,
    Unknown,
}

#[derive(Clone, Debug, Default)]
pub struct Bounds {
    pub rounds: u32,
    pub unwind: u32,
    pub threads: u32,
}

#[derive(Clone, Debug)]
pub struct Phase {
    pub bounds: Bounds,
    pub result: String,
    pub encode_ms: u64,
    pub solve_ms: u64,
}

#[derive(Debug)]
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
    /// What the explicit-state explorer concluded, when it ran.
    pub exploration: Option<Exploration>,
    /// The last phase's schedule bound held every interleaving of the program as unwound
    /// (the built-in search: `Sequentialized::rounds_enough`).
    pub every_interleaving: bool,
    /// The counterexample is the explicit-state explorer's, replayed: its schedule switches
    /// threads as often as the explorer's depth-first search did (round robin, see
    /// `checker::explicit`), not as seldom as the failure needs.
    pub explored_counterexample: bool,
}

impl CheckOutcome {
    /// The limit that left the verdict unknown, if one did.
    pub fn limit(&self) -> Option<Limit> {
        if self.verdict != Verdict::Unknown {
            return None;
        }
        // An external checker's only limit is its time limit.
        self.stats
            .limit
            .or(self.limit_reached.then_some(Limit::Time))
    }

    /// No failure, and every execution was explored with no bound: by the explicit-state
    /// search, or by a bounded search whose bounds cut nothing (every loop ran to its end,
    /// every thread had a slot, and the rounds held every interleaving).
    pub fn exhaustive(&self) -> bool {
        self.verdict == Verdict::NoFailureWithinBounds
            && (self
                .exploration
                .as_ref()
                .is_some_and(|e| e.result == "safe")
                || (self.every_interleaving && self.loops_complete))
    }
}

/// The explicit-state explorer's part in a check.
#[derive(Clone, Debug)]
pub struct Exploration {
    /// `safe` (every execution explored), `failure`, `deadlock`, or `inconclusive`.
    pub result: &'static str,
    pub reason: Option<String>,
    pub states: u64,
    pub transitions: u64,
    pub ms: u64,
}
