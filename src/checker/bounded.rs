//! The check's one question, as every checker answers it: within these bounds, is there a
//! failing execution?
//!
//! The deepening that asks it, bound after bound, is written once (`engine::deepen`); each
//! checker implements only the question: the built-in bounded search on a fresh encoding
//! per phase (`checker::builtin::probe`), ESBMC and CBMC with one run per phase
//! (`checker::external::probe`).

use super::builtin::{Limit, Stats};
use super::outcome::{Bounds, CheckOutcome};
use crate::cex::Counterexample;

/// The bounds of one question. `schedule` is the checker's own bound on interleavings:
/// rounds for the built-in search, the context bound for ESBMC, `None` for CBMC (which has
/// none).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Rung {
    pub schedule: Option<u32>,
    pub unwind: u32,
}

/// What one question found.
#[derive(Debug)]
pub enum Probed {
    /// A failing execution (or a deadlock), with what the checker says about it (an external
    /// checker's replay that did not confirm it, a deadlock found by the stand-in search).
    Found {
        cex: Box<Counterexample>,
        notes: Vec<String>,
        /// How the counterexample was chosen, for `-v` (the built-in checker's canonical
        /// choice: `checker::builtin::canonical`).
        detail: Option<String>,
    },
    /// No failure within the bounds; `reached` names the loops (`file:line`) whose bound was
    /// reached, empty when every loop ran to its end; `other` where another bound of the
    /// sequential program cut runs off (thread slots, keys, barrier cycles), which a
    /// deeper loop bound does not move.
    NoFailure {
        reached: Vec<String>,
        other: Vec<String>,
        /// The schedule bound that holds every interleaving of the program as unwound: a
        /// larger one adds no execution (`Sequentialized::rounds_enough`); `None` when
        /// the checker does not know one.
        schedule_enough: Option<u32>,
    },
    /// A time limit (or a stop the deepening asked for) ended the question: the deepening
    /// reports what it had before it.
    OutOfTime,
    /// The checker could not decide; `limit` when a limit other than time (memory, an
    /// interruption) was why. `reason` is the whole sentence for the report.
    Undecided {
        reason: String,
        limit: Option<Limit>,
    },
    /// No failure in any execution, shown by another search standing in for the checker
    /// (the built-in search, where CBMC declined the program or ESBMC's "no failure" is
    /// doubted) that explored every execution with no bound cutting any
    /// ([`CheckOutcome::exhaustive`]): that search's outcome is the answer, `note` says
    /// whose it is. A bounded "no failure" from a stand-in is no proof and is not this.
    Proven {
        outcome: Box<CheckOutcome>,
        note: String,
    },
}

/// One answer with its cost.
#[derive(Debug)]
pub struct Probe {
    /// The bounds as the report states them (`rounds` holds ESBMC's context bound plus one:
    /// a schedule with K switches fits K + 1 rounds).
    pub bounds: Bounds,
    pub result: Probed,
    pub encode_ms: u64,
    pub solve_ms: u64,
    pub stats: Stats,
}

pub trait BoundedSearch {
    type Error;
    /// Is there a failing execution within `rung`?
    fn probe(&mut self, rung: Rung) -> Result<Probe, Self::Error>;
    /// `4 rounds with loops unwound 2 times`, `context bound 4, unwind 2`: the bounds of a
    /// question, for "while checking …".
    fn bounds_text(&self, b: &Bounds) -> String;
    /// The sentence for no failure within `b` with every loop run to its end.
    fn no_failure_text(&self, b: &Bounds) -> String;
    /// The sentence for no failure within `b`, a schedule bound that holds every
    /// interleaving, with every loop run to its end.
    fn every_interleaving_text(&self, b: &Bounds) -> String {
        self.no_failure_text(b)
    }
    /// Notes for every outcome (a stand-in deadlock search, a check that timed out).
    fn notes(&self) -> Vec<String> {
        Vec::new()
    }
    /// Why this checker's "no failure" within `b` is not an answer for this program, if it is not
    /// (a construct it is known to search incompletely): the verdict becomes unknown.
    fn doubt(&self, _b: &Bounds) -> Option<String> {
        None
    }
}
