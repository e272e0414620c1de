//! Everything seqloc prints for people and machines: text with optional colour, the
//! versioned JSON formats, SARIF. Only this module serializes results.

pub mod check;
pub mod error;
pub mod facts;
pub mod html;
pub mod localize;
pub mod style;
