//! Fault localization (paper 004, sections III-C and IV): Griesmeyer's instrumentation of
//! the sequential program that replays one failing interleaving, and the loop that asks a
//! checker which lines' changes make the failure go away.
//!
//! * [`instrument`] turns the concrete sequential program into the diagnosis model: every
//!   statement copy computes `diag == k ? nondet : original` (k names the statement's
//!   original source line), the failure becomes an assumption that it does not happen,
//!   and `assert(false)` closes the program — so a "counterexample" of the instrumented
//!   program is a choice of lines, and values for them, that avoids the failure.
//! * [`localize`] drives the built-in checker over it on one live solver: validation first
//!   (the unchanged replay must fail, deterministically), then `diag != k` after each
//!   answer until none is left; with `--faults N`, minimal sets of up to N lines.
//! * [`explain`] turns the solver's choices into source-level repair hints and collects,
//!   per line, the threads that ran it and the shared variables it reads and writes.

pub mod explain;
pub mod instrument;
pub mod interleaving;
pub mod localize;
pub mod ordering;
pub mod waits;

use serde::Serialize;

use crate::ir::{Loc, StmtId};

/// What the localization must make go away.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
#[serde(rename_all = "kebab-case")]
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
    /// the lvalue as the normalized program writes it.
    Store { lhs: String, temp: bool },
    /// The value of a branch condition.
    Condition,
}

/// A diag value and the source line it names. Lines of the input file are their own line
/// numbers (as in the paper's Fig. 2); lines of other files (headers) get numbers above
/// 100000 so two files never share a value.
#[derive(Clone, Debug, Serialize)]
pub struct LineKey {
    pub key: u32,
    pub file: String,
    pub line: u32,
    #[serde(skip)]
    pub loc: Loc,
}
