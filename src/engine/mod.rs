//! The paper's procedure, written once for every checker.
//!
//! * [`check`] — find a failure: the built-in bounded search deepening rounds and loop
//!   bounds with the explicit-state explorer beside it; ESBMC and CBMC deepen in their
//!   driver (`checker::external::driver`), backed by [`external`] for the replays and the
//!   deadlock search only the built-in checker has.
//! * [`replay`] — the one replay: does a schedule replay, does it fail.
//! * [`diagnosis`] — the validated diagnosis model along a failing schedule.
//! * [`candidates`] — the candidate loop over any [`crate::checker::oracle::Oracle`].
//! * [`localize`] — `seqloc localize` as a library call: failure, diagnosis, candidates,
//!   the interleaving analyses and the ranking.
//! * [`progress`] — what a long run reports while it works.

pub mod candidates;
pub mod check;
pub mod diagnosis;
pub mod external;
pub mod localize;
pub mod progress;
pub mod replay;
