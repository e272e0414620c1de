//! IR → IR transformations: normalization (one shared access per statement), inlining
//! and unrolling (loop- and call-free thread code for the sequentializer).

pub mod inline;
pub mod normalize;
pub mod unreachable;
pub mod unroll;
