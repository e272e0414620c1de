//! The paper's procedure, written once for every checker.
//!
//! * [`deepen`] — the one deepening loop: bounds raised phase by phase over any
//!   [`crate::checker::bounded::BoundedSearch`].
//! * [`check`] — find a failure with the built-in checker: its bounded search deepened
//!   with the explicit-state explorer beside it.
//! * [`external`] — find a failure with ESBMC or CBMC (one run per phase of the same
//!   deepening), and what their driver asks of the engine: the replays and the deadlock
//!   search only the built-in checker has.
//! * [`replay`] — the one replay: does a schedule replay, does it fail.
//! * [`diagnosis`] — the validated diagnosis model along a failing schedule.
//! * [`candidates`] — the candidate loop over any [`crate::checker::oracle::Oracle`].
//! * [`localize`] — `seqloc localize` as a library call: failure, diagnosis, candidates,
//!   the interleaving analyses and the ranking.
//! * [`simplify`] — fewer context switches in an external checker's failing
//!   interleaving, each removal replayed.
//! * [`progress`] — what a long run reports while it works.

pub mod candidates;
pub mod causes;
pub mod check;
pub mod deepen;
pub mod diagnosis;
pub mod external;
pub mod localize;
pub mod progress;
pub mod replay;
pub mod simplify;
