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

/// Every parser must survive anything: truncated, byte-flipped and garbled versions of the
/// recorded ESBMC outputs and of the hand-written CBMC traces may parse or fail, never panic,
/// and never turn into a success the text does not state.
#[cfg(test)]
mod robustness {
    use std::sync::LazyLock;

    use proptest::prelude::*;
    use proptest::sample::Index;

    use super::*;

    /// Bigger recordings (f06's 7 MB of interleavings) add time, not cases.
    const MAX_FIXTURE_BYTES: u64 = 120_000;

    static CORPUS: LazyLock<Vec<String>> = LazyLock::new(|| {
        let mut corpus = cbmc::tests::sample_outputs();
        // The project's own recordings of ESBMC 8.4 and CBMC 6.6 (`tests/recordings`).
        let own = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/recordings");
        for tool in ["esbmc", "cbmc"] {
            let mut files: Vec<_> = std::fs::read_dir(own.join(tool))
                .map(|entries| entries.filter_map(|e| e.ok()).map(|e| e.path()).collect())
                .unwrap_or_default();
            files.sort();
            for path in files {
                let output = path
                    .extension()
                    .is_some_and(|x| x == "stdout" || x == "stderr");
                if output && let Ok(text) = std::fs::read_to_string(&path) {
                    // The start of a long one: truncation is one of the mutations anyway.
                    let mut end = text.len().min(MAX_FIXTURE_BYTES as usize);
                    while !text.is_char_boundary(end) {
                        end -= 1;
                    }
                    corpus.push(text[..end].to_string());
                }
            }
        }
        let Some(dir) = test_support::fixtures_dir() else {
            return corpus;
        };
        let mut files: Vec<_> = std::fs::read_dir(dir.join("esbmc"))
            .map(|entries| entries.filter_map(|e| e.ok()).map(|e| e.path()).collect())
            .unwrap_or_default();
        files.sort();
        for path in files {
            let name = path.file_name().and_then(|n| n.to_str()).unwrap_or("");
            let wanted = name.ends_with(".stderr") || name.ends_with(".report.json");
            let small = path.metadata().is_ok_and(|m| m.len() <= MAX_FIXTURE_BYTES);
            if wanted
                && small
                && let Ok(text) = std::fs::read_to_string(&path)
            {
                corpus.push(text);
            }
        }
        corpus
    });

    #[derive(Debug, Clone)]
    enum Mutation {
        Truncate,
        Flip(u8),
        Replace(Vec<u8>),
        Delete(usize),
        Duplicate(usize),
    }

    fn mutation() -> impl Strategy<Value = Mutation> {
        prop_oneof![
            Just(Mutation::Truncate),
            any::<u8>().prop_map(Mutation::Flip),
            proptest::collection::vec(any::<u8>(), 0..40).prop_map(Mutation::Replace),
            (1usize..400).prop_map(Mutation::Delete),
            (1usize..400).prop_map(Mutation::Duplicate),
        ]
    }

    fn mutate(text: &str, at: Index, m: &Mutation) -> String {
        let mut bytes = text.as_bytes().to_vec();
        let pos = if bytes.is_empty() {
            0
        } else {
            at.index(bytes.len())
        };
        match m {
            Mutation::Truncate => bytes.truncate(pos),
            Mutation::Flip(mask) => {
                if let Some(b) = bytes.get_mut(pos) {
                    *b ^= mask | 1;
                }
            }
            Mutation::Replace(new) => {
                let end = (pos + new.len()).min(bytes.len());
                bytes.splice(pos..end, new.iter().copied());
            }
            Mutation::Delete(len) => {
                let end = (pos + len).min(bytes.len());
                bytes.drain(pos..end);
            }
            Mutation::Duplicate(len) => {
                let end = (pos + len).min(bytes.len());
                let chunk = bytes[pos..end].to_vec();
                bytes.splice(pos..pos, chunk);
            }
        }
        String::from_utf8_lossy(&bytes).into_owned()
    }

    /// What every successful parse must satisfy, and a workout for the helpers.
    fn check(result: Result<RawTrace, TraceParseError>, text: &str, success_word: &str) {
        let Ok(trace) = result else { return };
        if trace.outcome == Outcome::Successful {
            assert!(
                text.contains(success_word),
                "success the text does not state"
            );
            assert!(trace.violation.is_none());
        }
        let _ = trace.context_switches();
        let _ = trace.failure_site();
        let _ = trace.user_steps().count();
        let _ = trace.threads();
        let _ = trace.last_value_of("x");
    }

    proptest! {
        // `PROPTEST_CASES` for a long run (BENCHMARKS.md, "Fuzzing").
        #![proptest_config(ProptestConfig {
            cases: std::env::var("PROPTEST_CASES").ok().and_then(|v| v.parse().ok()).unwrap_or(300),
            ..ProptestConfig::default()
        })]

        #[test]
        fn parsers_never_panic(doc in any::<Index>(), at in any::<Index>(), m in mutation()) {
            let corpus = &*CORPUS;
            let text = mutate(&corpus[doc.index(corpus.len())], at, &m);
            check(esbmc::parse_text("", &text), &text, "VERIFICATION SUCCESSFUL");
            check(esbmc::parse_text(&text, ""), &text, "VERIFICATION SUCCESSFUL");
            check(esbmc::parse_json_report(&text), &text, "\"success\"");
            check(esbmc::parse_json_report_with_text(&text, "", &text), &text, "\"success\"");
            check(cbmc::parse_json_ui(&text), &text, "\"success\"");
            check(cbmc::parse_text(&text), &text, "VERIFICATION SUCCESSFUL");
            check(cbmc::parse_text_output(&text, &text), &text, "VERIFICATION SUCCESSFUL");
            let _ = (esbmc::version(&text), cbmc::version(&text));
            let _ = decode_value_int(&text);
            let _ = int_from_binary(&text, true);
        }
    }
}
