//! The adapters against what the real ESBMC 8.4 and CBMC 6.6 printed on seqloc's printed
//! benchmarks (`tests/recordings/`, made by `scripts/record_checkers.sh`): each trace maps to
//! a schedule that seqloc's sequentializer replays to the same failure.
//!
//! What the recordings taught the adapters: ESBMC 8 serves its C library from
//! `/esbmc-vfs/` and shows no step for a pthread call, so a run the trace leaves open may
//! stop before an unlock it did run (transfer_two_locks) or before a loop exit it took
//! (histogram_lost_update); the second reading ([`Boundary::BeforeWait`]) settles both. CBMC
//! shows a call's `function-call` step, then other threads, then the parameter bindings
//! (the call ran at its last step), and places a thread's steps that touch nothing shared
//! anywhere, even before that thread's earlier ones: only its shared steps place its runs
//! ([`Boundary::SharedSteps`]).

use std::path::{Path, PathBuf};

use crate::checker::external::mapping::tests::{bounds, prepared};
use crate::checker::external::mapping::{Boundary, JoinReading, LineMap, to_counterexample_with};
use crate::dialect::Dialect;
use crate::instrument::Target;
use crate::ir::print::{PrintOptions, print_program};
use crate::trace;

fn root() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
}

fn read(p: &Path) -> String {
    std::fs::read_to_string(p).unwrap_or_else(|e| panic!("{}: {e}", p.display()))
}

/// Whether each reading ([`Boundary::BeforeShown`], [`Boundary::BeforeWait`],
/// [`Boundary::SharedSteps`]) of `tool`'s recorded trace on benchmark `name` replays to the
/// failure.
fn readings(tool: &str, name: &str) -> [bool; 3] {
    let dir = root().join("tests/recordings").join(tool);
    let prep = prepared(&root().join("benchmarks/concbugs").join(format!("{name}.c")));
    let dialect = Dialect::load(tool, None).expect("dialect");
    let printed = print_program(
        &prep.normalized,
        &dialect,
        &PrintOptions {
            loc_comments: true,
            ..Default::default()
        },
    );
    let file = format!("{name}.seqloc.c");
    // The recordings were made from the repository with a relative path.
    let text = printed.text.replace(&format!("{}/", root().display()), "");
    assert!(
        text == read(&dir.join(&file)),
        "{tool}/{file}: seqloc prints this program differently from when it was recorded; \
         re-record with scripts/record_checkers.sh (after make checkers)"
    );
    let stdout = read(&dir.join(format!("{name}.stdout")));
    let raw = match tool {
        "esbmc" => trace::esbmc::parse_text(&stdout, &read(&dir.join(format!("{name}.stderr")))),
        _ => trace::cbmc::parse_json_ui(&stdout),
    }
    .expect("parses");
    let map = LineMap::printed(&file, &printed, &prep.index);
    [
        Boundary::BeforeShown,
        Boundary::BeforeWait,
        Boundary::SharedSteps,
    ]
    .map(|policy| {
        let cex = to_counterexample_with(
            &raw,
            &prep.normalized,
            &prep.index,
            &map,
            tool,
            policy,
            JoinReading::Proven,
        )
        .unwrap_or_else(|e| panic!("{tool}/{name}: {e}"));
        assert_eq!(cex.violation.line, assertion_line(name), "{tool}/{name}");
        super::replay(&prep, &cex, Target::Failure, 8, &bounds(), None).is_ok()
    })
}

fn assertion_line(name: &str) -> u32 {
    match name {
        "transfer_two_locks" => 54,
        "histogram_lost_update" => 48,
        _ => 0,
    }
}

/// The reading that lets the unlocks ESBMC 8 does not show run replays. (Since
/// 2026-11-28 the first reading does too: it no longer stops a thread's creator before
/// the `pthread_create` ESBMC does not show, `mapping::past_create`.)
#[test]
fn esbmc_8_unlock_it_does_not_show_has_run() {
    assert!(readings("esbmc", "transfer_two_locks")[1]);
}

#[test]
fn esbmc_8_thread_that_returned_ran_to_its_end() {
    assert_eq!(
        readings("esbmc", "histogram_lost_update")[..2],
        [false, true]
    );
}

#[test]
fn cbmc_6_runs_are_placed_by_shared_steps() {
    assert_eq!(
        readings("cbmc", "histogram_lost_update"),
        [false, false, true]
    );
}

/// CBMC 6 prints a thread's `pthread_mutex_lock` call where the solver put it (often while
/// another thread holds the mutex) and the lock's write inside its library model where the
/// lock was taken; main's `pthread_join` before the joined thread's steps. Moved to their
/// library writes and after the joined thread (`trace::cbmc`), the calls replay.
#[test]
fn cbmc_6_lock_calls_are_placed_at_their_library_writes() {
    let r = readings("cbmc", "transfer_two_locks");
    assert!(r.iter().any(|&x| x), "no reading replays: {r:?}");
}
