//! seqloc: fault localization for multi-threaded pthread C programs with bounded model
//! checking. See ARCHITECTURE.md for the map of modules.

pub mod analysis;
pub mod cex;
pub mod check;
pub mod checker;
pub mod diag;
pub mod diagnostics;
pub mod dialect;
pub mod exit;
pub mod frontend;
pub mod ir;
pub mod passes;
pub mod report;
pub mod seq;
pub mod sweep;
pub mod trace;
