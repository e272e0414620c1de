//! The localization's questions, as every checker answers them.
//!
//! The diagnosis model (`instrument`) makes a checker's counterexample a choice of
//! lines: the run that avoids the failure with those lines' values changed. The candidate
//! loop (`engine::candidates`) asks, set size by set size, for the next set that contains
//! no set found before, until the checker has none left. It is written once; each checker
//! implements only the question: the built-in one on a live solver
//! (`checker::builtin::diagnose`), ESBMC and CBMC with one run per question and
//! `assume(diag != k)` for what is excluded (`checker::external::rounds`).

use super::builtin::{Limit, Stats};
use super::external::ExternalError;
use crate::instrument::Change;

/// One answer: a set of lines whose change avoids the failure.
#[derive(Clone, Debug)]
pub struct Answered {
    /// Diag values (line keys), increasing.
    pub set: Vec<u32>,
    /// The statement copies whose values the checker changed (the built-in checker's
    /// model; empty when the checker's model cannot be read back so far).
    pub changes: Vec<Change>,
    /// What the checker stored on the changed lines, as it prints them (`x = 2`).
    pub stored: Vec<String>,
}

/// Why a checker stopped answering before it said "no more".
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Stop {
    /// A time or memory limit, or an interruption: the answers so far are all there is.
    Limit(Limit),
    /// The checker could not decide (an incomplete theory, an unknown result).
    Undecided(String),
}

pub enum Next {
    Found(Answered),
    /// No set of this size is left.
    Exhausted,
    Stopped(Stop),
}

#[derive(Debug, thiserror::Error)]
pub enum OracleError {
    /// The diagnosis model contradicts the replay it was built from (it can avoid the
    /// failure with no line changed, or the checker chose no line).
    #[error("the sequential program does not reproduce the failure: {0}")]
    NotReproduced(String),
    /// A limit stopped a question that had to be answered.
    #[error("{} while {}", crate::checker::builtin::stop::describe(*.0), .1)]
    Limit(Limit, &'static str),
    #[error(transparent)]
    Builtin(#[from] super::builtin::BmcError),
    #[error(transparent)]
    External(#[from] ExternalError),
}

pub trait Oracle {
    /// The largest set one question can ask for (`--faults`).
    fn max_set(&self) -> usize;
    /// The next set of exactly `size` lines containing none of `excluded` (a set found
    /// before rules out every set that contains it), whose change avoids the failure.
    fn next(&mut self, size: usize, excluded: &[Vec<u32>]) -> Result<Next, OracleError>;
    /// Questions asked so far (validation included).
    fn runs(&self) -> u32;
    /// Encoding and solving time so far.
    fn stats(&self) -> Stats;
}
