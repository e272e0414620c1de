//! Fault localization's pieces that need no solver (paper 004, sections III-C and IV):
//! Griesmeyer's instrumentation of the sequential program that replays one failing
//! interleaving, the analyses of that interleaving, and the explanations. The procedure
//! that runs them — validation, the candidate loop over a checker, the analyses' replays —
//! is `engine` (`engine::diagnosis`, `engine::candidates`, `engine::localize`).
//!
//! * `crate::instrument` (a room of its own, below the checkers, which speak its data)
//!   turns the concrete sequential program into the diagnosis model.
//! * [`interleaving`] and [`ordering`] ask, through [`Replays`], which context switches the
//!   failure needs and which statements ran too early; [`waits`] finds condition waits
//!   guarded by `if` that the trace wakes from.
//! * [`explain`] turns the solver's choices into source-level repair hints and collects,
//!   per line, the threads that ran it and the shared variables it reads and writes.

pub mod explain;
pub mod interleaving;
pub mod ordering;
pub mod waits;

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
