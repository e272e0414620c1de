//! Checker output parsers: ESBMC's and CBMC's counterexamples and verdicts, read into
//! checker-neutral types ([`RawTrace`]).
//!
//! This module owns all knowledge of what ESBMC and CBMC print: their text traces, ESBMC's
//! JSON report, CBMC's `--json-ui` stream, their version banners and their quirks (internal
//! `__ESBMC_*`/`__CPROVER_*` steps, library models running inside the trace, CBMC's
//! unsoundness abort, truncated output from killed runs). It does not know seqloc's IR, and it
//! neither runs checkers nor maps a trace onto the program: `checker/` starts the processes and
//! hands their output here; turning a [`RawTrace`] into a schedule over the IR happens there
//! too.
//!
//! Every parser takes text and returns `Result<RawTrace, TraceParseError>`; none panics on any
//! input. A run that ended without a verdict is `Ok` with [`Outcome::Unknown`] (never
//! `Successful`); output that is not the checker's at all is an `Err` quoting a snippet.

pub mod cbmc;
pub mod esbmc;
pub mod raw;

pub use raw::{
    CheckerKind, Outcome, RawTrace, SrcLoc, Step, StepKind, TraceParseError, Violation,
    ViolationKind, decode_value_int, int_from_binary,
};

/// Helpers shared by the parsers' tests: where the recorded checker outputs live.
#[cfg(test)]
pub(crate) mod test_support {
    use std::path::PathBuf;

    /// `../shared/fixtures`, or `None` after saying on stderr that the test is skipped.
    pub(crate) fn fixtures_dir() -> Option<PathBuf> {
        let dir = PathBuf::from(concat!(env!("CARGO_MANIFEST_DIR"), "/../shared/fixtures"));
        if dir.is_dir() {
            Some(dir)
        } else {
            eprintln!("skipped: ../shared/fixtures not found");
            None
        }
    }

    /// The text of one recorded ESBMC file (`f03_loop.cex.stderr`).
    pub(crate) fn esbmc_file(dir: &std::path::Path, name: &str) -> String {
        let path = dir.join("esbmc").join(name);
        std::fs::read_to_string(&path)
            .unwrap_or_else(|e| panic!("cannot read fixture {}: {e}", path.display()))
    }
}
