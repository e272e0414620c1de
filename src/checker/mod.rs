//! Checkers: the built-in bounded model checker, and ESBMC and CBMC run as processes.

pub mod bounded;
pub mod builtin;
pub mod counting;
pub mod explicit;
pub mod external;
pub mod oracle;
pub mod outcome;
