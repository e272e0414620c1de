//! seqloc: fault localization for multi-threaded pthread C programs with bounded model
//! checking. See ARCHITECTURE.md for the map of modules.

/// The stack of the threads that run the pipeline: the parser, the lowering, the passes
/// and the explorer recurse over expressions and statements, and a 3,000-term sum or
/// `else if` chain overflows an 8 MB stack. A thread's stack pages are only used as the
/// recursion reaches them, so the reservation costs address space, not memory.
pub const STACK_BYTES: usize = 256 << 20;

pub mod analysis;
pub mod cex;

pub mod checker;
pub mod diag;
pub mod diagnostics;
pub mod engine;
pub mod exit;
pub mod frontend;
pub mod instrument;
pub mod ir;
pub mod mutation;
pub mod passes;
pub mod repair;
pub mod report;
pub mod rootcause;
pub mod seq;
pub mod sweep;
pub mod trace;
pub mod witness;
pub mod words;

/// The checker dialects are the printer's spellings (`ir::dialect`); the other stages
/// name them here.
pub use ir::dialect;
