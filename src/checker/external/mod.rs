//! ESBMC and CBMC, run as processes on seqloc's own printed programs, their traces read back
//! into seqloc's types (DESIGN principles 3 and 6).
//!
//! * [`process`] starts a checker: argument vector, private temp dir as working directory,
//!   own process group killed at the time limit, address-space limit, every command line
//!   available in shell-quoted form.
//! * [`flags`] is what each checker is asked, and why (the upstream issues are cited there).
//! * [`mapping`] turns a trace into a [`crate::cex::Counterexample`]: statements, schedule,
//!   inputs.
//! * [`driver`] is the paper's procedure (section V-A) around them: the deadlock check first,
//!   the counterexample run with the context bound deepened step by step, and the
//!   localization rounds with `assume(diag != k)`.

pub mod atomics;
pub mod driver;
pub mod flags;
pub mod gaps;
pub mod locals;
pub mod mapping;
pub mod process;
pub mod rounds;

use std::fmt;

pub use driver::{Bounds, Config, External};

/// What the driver asks of seqloc's own engine (`engine::external`): the replay that
/// validates a counterexample before it is trusted, and the built-in search that stands in
/// where the external checker has no deadlock check (CBMC), did not finish one (ESBMC), or
/// declined the concurrent program (CBMC's unsoundness abort).
pub trait Backstop {
    /// Replays `cex`'s schedule with seqloc's sequentializer and the built-in checker: the
    /// failing run the replay found (with the inputs the checker's trace does not name),
    /// or why it does not fail the same way.
    fn replays(
        &self,
        cex: &crate::cex::Counterexample,
        target: crate::instrument::Target,
        unwind: u32,
        time: Option<std::time::Duration>,
    ) -> Result<crate::cex::Counterexample, String>;
    /// The built-in checker's search for `props` within the driver's bounds: the outcome,
    /// or why it could not run.
    fn search(
        &self,
        props: crate::checker::builtin::Properties,
        bounds: &Bounds,
        time: Option<std::time::Duration>,
    ) -> Result<crate::checker::outcome::CheckOutcome, String>;
}

/// Which external checker.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Kind {
    Esbmc,
    Cbmc,
}

impl Kind {
    /// The executable's usual name (and the name in reports).
    pub fn name(self) -> &'static str {
        match self {
            Kind::Esbmc => "esbmc",
            Kind::Cbmc => "cbmc",
        }
    }
    /// The environment variable that may point at the executable.
    pub fn env_var(self) -> &'static str {
        match self {
            Kind::Esbmc => "SEQLOC_ESBMC",
            Kind::Cbmc => "SEQLOC_CBMC",
        }
    }
    /// The dialect (templates/dialects/NAME.toml) its programs are printed in.
    pub fn dialect(self) -> &'static str {
        self.name()
    }
    pub fn label(self) -> &'static str {
        match self {
            Kind::Esbmc => "ESBMC",
            Kind::Cbmc => "CBMC",
        }
    }
}

impl fmt::Display for Kind {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

/// Why an external checker run gave no usable answer. Each variant that involves a run
/// carries its command line (shell-quoted, to be run from the temp dir) and the last lines
/// of its output, so the user can reproduce it.
#[derive(Debug, thiserror::Error)]
pub enum ExternalError {
    #[error(
        "{checker} not found (looked at {looked}); install it, point --checker-path at it, or use --checker builtin, which needs nothing installed"
    )]
    NotFound { checker: String, looked: String },
    #[error("cannot start {program}: {reason}")]
    Spawn {
        program: String,
        reason: String,
        command: String,
    },
    #[error("{what}")]
    Io { what: String, command: String },
    #[error(
        "interrupted by signal {signal} while the checker ran; the checker's process group was stopped"
    )]
    Interrupted { signal: i32, command: String },
    #[error("the checker was stopped: seqloc's built-in checker found the failure first")]
    Superseded { command: String },
    #[error("{checker} reached the time limit ({secs:.1} s) {during}")]
    Timeout {
        checker: String,
        secs: f64,
        during: String,
        command: String,
        tail: Vec<String>,
    },
    #[error("{checker} ran out of memory{limit}")]
    OutOfMemory {
        checker: String,
        limit: String,
        command: String,
        tail: Vec<String>,
    },
    #[error("{checker} crashed ({how})")]
    Crashed {
        checker: String,
        how: String,
        command: String,
        tail: Vec<String>,
    },
    #[error("cannot read {checker}'s output: {reason}")]
    Unreadable {
        checker: String,
        reason: String,
        command: String,
        tail: Vec<String>,
    },
    #[error("cannot print the program for {checker}: {reason}")]
    Print { checker: String, reason: String },
}

impl ExternalError {
    /// The command line of the run that failed, if one ran.
    pub fn command(&self) -> Option<&str> {
        match self {
            ExternalError::Spawn { command, .. }
            | ExternalError::Io { command, .. }
            | ExternalError::Timeout { command, .. }
            | ExternalError::Interrupted { command, .. }
            | ExternalError::Superseded { command, .. }
            | ExternalError::OutOfMemory { command, .. }
            | ExternalError::Crashed { command, .. }
            | ExternalError::Unreadable { command, .. } => Some(command),
            _ => None,
        }
    }

    /// The last lines of the failed run's output.
    pub fn tail(&self) -> &[String] {
        match self {
            ExternalError::Timeout { tail, .. }
            | ExternalError::OutOfMemory { tail, .. }
            | ExternalError::Crashed { tail, .. }
            | ExternalError::Unreadable { tail, .. } => tail,
            _ => &[],
        }
    }
}
