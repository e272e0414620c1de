//! seqloc: fault localization for multi-threaded pthread C programs with bounded model
//! checking. See ARCHITECTURE.md for the map of modules.

pub mod diagnostics;
pub mod frontend;
pub mod ir;
pub mod sweep;
