//! Analyses over the lowered IR: loop trip counts, the thread structure (entry functions,
//! creation sites, instance counts) and the concurrency facts `seqloc parse` prints.

pub mod facts;
pub mod hand_off;
pub mod hazards;
pub mod loops;
pub mod shared;
pub mod thread_ids;
pub mod waits;
