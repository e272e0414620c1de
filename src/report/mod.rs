//! Everything seqloc prints for people and machines: text with optional colour, the
//! versioned JSON formats (from its own types, `json`), SARIF. Only this module serializes
//! results.

pub mod causes;
pub mod check;
pub mod error;
pub mod facts;
pub mod html;
pub mod json;
pub mod localize;
pub mod repair;
pub mod style;
