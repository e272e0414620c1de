//! Fault localization's pieces that need no solver (paper 004, sections III-C and IV):
//! Griesmeyer's instrumentation of the sequential program that replays one failing
//! interleaving, the analyses of that interleaving, and the explanations. The procedure
//! that runs them — validation, the candidate loop over a checker, the analyses' replays —
//! is `engine` (`engine::diagnosis`, `engine::candidates`, `engine::localize`).
//!
//! * [`instrument`] turns the concrete sequential program into the diagnosis model: every
//!   statement copy computes `diag == k ? nondet : original` (k names the statement's
//!   original source line), the failure becomes an assumption that it does not happen,
//!   and `assert(false)` closes the program — so a "counterexample" of the instrumented
//!   program is a choice of lines, and values for them, that avoids the failure.
//! * [`interleaving`] and [`ordering`] ask, through [`Replays`], which context switches the
//!   failure needs and which statements ran too early; [`waits`] finds condition waits
//!   guarded by `if` that the trace wakes from.
//! * [`explain`] turns the solver's choices into source-level repair hints and collects,
//!   per line, the threads that ran it and the shared variables it reads and writes.

pub mod explain;
pub mod instrument;
pub mod interleaving;
pub mod ordering;
pub mod waits;

use crate::ir::{Loc, StmtId};
use crate::seq::schedule::Resolved;

/// Replays of variants of the failing schedule, as the interleaving analyses
/// ([`interleaving`], [`ordering`]) ask them; `engine::replay::Replayer` answers with the
/// built-in checker.
pub trait Replays {
    type Error;
    /// Whether the program still fails along `r`. With `strict`, "no failure" counts only
    /// when some execution can follow `r`.
    fn fails(&self, r: &Resolved, strict: bool) -> Result<bool, Self::Error>;
    /// The analyses' time is up (they stop with what they found).
    fn expired(&self) -> bool;
}

/// What the localization must make go away.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Target {
    /// An assertion failure or a reached error location (every assertion must hold).
    Failure,
    /// The interleaving ends with every live thread blocked.
    Deadlock,
}

/// One statement copy of the sequential program that the `diag` switch can change.
#[derive(Clone, Debug)]
pub struct Site {
    pub id: u32,
    /// The diag value that selects it: its original line (see [`LineKey`]).
    pub key: u32,
    /// The statement of the program as written it is a copy of.
    pub sid: StmtId,
    pub loc: Loc,
    /// The thread slot whose code holds it.
    pub slot: u32,
    pub kind: SiteKind,
}

#[derive(Clone, Debug, PartialEq, Eq)]
pub enum SiteKind {
    /// The value stored by an assignment, initialisation or argument binding; `lhs` is
    /// the lvalue as the normalized program writes it, its variables named as the source
    /// names them (a thread's copy `k_1` of a parameter is `k`).
    Store { lhs: String, temp: bool },
    /// The value of a branch condition.
    Condition,
}

/// A diag value and the source line it names. Lines of the input file are their own line
/// numbers (as in the paper's Fig. 2); lines of other files (headers) get numbers above
/// 100000 so two files never share a value.
#[derive(Clone, Debug)]
pub struct LineKey {
    pub key: u32,
    pub file: String,
    pub line: u32,
    pub loc: Loc,
}

/// One answer: a set of lines whose change avoids the failure, and the changes made.
#[derive(Clone, Debug)]
pub struct Finding {
    /// Diag values (line keys), increasing.
    pub set: Vec<u32>,
    pub changes: Vec<Change>,
    /// Time from the start of the loop.
    pub at_ms: u64,
    /// What an external checker stored on the changed lines (`x = 2`): its model is not
    /// seqloc's, so its values are shown beside seqloc's hint.
    pub stored: Vec<String>,
}

/// A statement copy whose value the checker changed.
#[derive(Clone, Debug)]
pub struct Change {
    pub site: u32,
    pub chosen: i128,
    pub original: i128,
    /// The value is a truth value (`_Bool`).
    pub boolean: bool,
    /// Pointers, as `NULL` or `&object` (numbers are rendered by the reader).
    pub chosen_text: Option<String>,
    pub original_text: Option<String>,
}
