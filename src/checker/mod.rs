//! Checkers: the built-in bounded model checker, and ESBMC and CBMC run as processes.

pub mod builtin;
pub mod explicit;
pub mod external;
