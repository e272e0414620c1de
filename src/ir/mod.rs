//! seqloc's program representation: types, statements and expressions with source
//! locations, visitors, constant folding and the C printer with its checker dialects.

pub mod build;
pub mod consteval;
pub mod dialect;
pub mod index;
pub mod internal;
pub mod known;
pub mod loc;
pub mod print;
pub mod syntax;
pub mod types;
pub mod visit;

pub use loc::{FileId, Loc, LocData, SourceMap};
pub use syntax::*;
pub use types::*;
