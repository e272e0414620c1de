//! The explicit-state explorer against ground truth: on every task of `benchmarks/` and of
//! `../shared/svcomp/` it must never call a program with a known bug safe, nor find a
//! failure in a program expected to be correct. Where it gives up is allowed (the bounded
//! checker answers then); the counts are printed, and a floor keeps it from silently
//! giving up on everything.

mod common;

use std::path::PathBuf;
use std::time::{Duration, Instant};

use seqloc::checker::explicit::{ExploreOptions, Explored, explore};
use seqloc::frontend::{FrontendOptions, load};
use seqloc::ir::types::DataModel;
use seqloc::passes::Prepared;
use seqloc::sweep::task::{DataModel as TaskModel, PropertyKind, discover};

#[derive(Default, Debug)]
struct Tally {
    safe: usize,
    violation: usize,
    inconclusive: usize,
}

fn run_tasks(root: PathBuf, per_task: Duration) -> (Tally, Vec<String>) {
    let tasks = discover(&[root]).expect("tasks are discovered");
    let mut tally = Tally::default();
    let mut wrong = vec![];
    for t in tasks {
        let Some(input) = t.inputs.first() else {
            continue;
        };
        for p in &t.properties {
            let (assertions, deadlock) = match p.kind {
                PropertyKind::UnreachCall => (true, false),
                PropertyKind::NoDeadlock => (false, true),
                _ => continue,
            };
            let Some(expected) = p.expected else { continue };
            let opts = FrontendOptions {
                data_model: match t.data_model {
                    Some(TaskModel::Ilp32) => DataModel::Ilp32,
                    _ => DataModel::Lp64,
                },
                ..FrontendOptions::default()
            };
            let Ok(prog) = load(input, &opts) else {
                continue;
            };
            let prep = Prepared::new(prog);
            let eo = ExploreOptions {
                deadline: Some(Instant::now() + per_task),
                assertions,
                deadlock,
                ..ExploreOptions::default()
            };
            let r = explore(&prep.normalized, &prep.shared, &eo, None);
            let what = match &r {
                Explored::Safe(s) => {
                    tally.safe += 1;
                    format!("safe ({} states)", s.states)
                }
                Explored::Unfailing { why, .. } => {
                    tally.safe += 1;
                    format!("safe: {why}")
                }
                Explored::Violation { deadlock, .. } => {
                    tally.violation += 1;
                    format!("violation (deadlock: {deadlock})")
                }
                Explored::Inconclusive { reason, .. } => {
                    tally.inconclusive += 1;
                    format!("inconclusive: {reason}")
                }
            };
            eprintln!("{} [{}] expected {expected}: {what}", t.id, p.kind.name());
            let contradicts = match r {
                Explored::Safe(_) | Explored::Unfailing { .. } => !expected,
                Explored::Violation { .. } => expected,
                Explored::Inconclusive { .. } => false,
            };
            if contradicts {
                wrong.push(format!(
                    "{} [{}]: expected {expected}, {what}",
                    t.id,
                    p.kind.name()
                ));
            }
        }
    }
    (tally, wrong)
}

#[test]
fn explorer_agrees_with_the_benchmarks_expected_verdicts() {
    let root = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("benchmarks");
    let (tally, wrong) = run_tasks(root, Duration::from_secs(10));
    eprintln!("benchmarks: {tally:?}");
    assert!(
        wrong.is_empty(),
        "the explorer contradicts ground truth:\n{}",
        wrong.join("\n")
    );
    // Most benchmarks have small state spaces; a regression that makes the explorer give
    // up everywhere should not pass unnoticed.
    assert!(tally.safe + tally.violation >= 40, "{tally:?}");
}

#[test]
fn explorer_agrees_with_svcomp_expected_verdicts() {
    let Some(dir) = common::shared("svcomp/c") else {
        return;
    };
    let (tally, wrong) = run_tasks(dir, Duration::from_secs(10));
    eprintln!("svcomp: {tally:?}");
    assert!(
        wrong.is_empty(),
        "the explorer contradicts ground truth:\n{}",
        wrong.join("\n")
    );
    assert!(tally.safe + tally.violation >= 20, "{tally:?}");
}

/// A call's result converted to exactly the type it is stored in (`p = malloc(n)` turns
/// `void *` into `struct box *`) is the call's own store: the explorer decides both
/// programs of `tests/programs/heap/` instead of giving up at the conversion.
#[test]
fn the_explorer_follows_a_converted_malloc_result() {
    for (name, fails) in [("counter_box_ok.c", false), ("counter_box_bad.c", true)] {
        let path = common::root().join("tests/programs/heap").join(name);
        let prog = load(&path, &FrontendOptions::default()).expect("the program loads");
        let prep = Prepared::new(prog);
        let eo = ExploreOptions {
            deadline: Some(Instant::now() + Duration::from_secs(60)),
            assertions: true,
            deadlock: false,
            ..ExploreOptions::default()
        };
        match explore(&prep.normalized, &prep.shared, &eo, None) {
            Explored::Safe(_) => assert!(!fails, "{name}: called safe"),
            Explored::Violation { .. } => assert!(fails, "{name}: a failure in a correct program"),
            other => panic!("{name}: not decided: {other:?}"),
        }
    }
}

/// Thread-local variables and `pthread_key_*` values are each thread's own objects in the
/// explorer, and a key's destructor runs in each exiting thread for its non-NULL value: it
/// decides the thread-storage programs of `tests/programs/issue26/` (the correct ones would
/// fail were the storage shared) instead of giving up.
#[test]
fn the_explorer_keeps_thread_storage_per_thread() {
    let dir = common::root().join("tests/programs/issue26");
    for (name, fails) in [
        ("thread_local_flag_ok.c", false),
        ("thread_local_flag_fail.c", true),
        ("thread_specific_ok.c", false),
        ("thread_specific_fail.c", true),
        ("thread_specific_destructor_ok.c", false),
        ("thread_specific_destructor_fail.c", true),
        ("c11_tss_ok.c", false),
        ("c11_tss_fail.c", true),
    ] {
        let prog = load(&dir.join(name), &FrontendOptions::default()).expect("the program loads");
        let prep = Prepared::new(prog);
        let eo = ExploreOptions {
            deadline: Some(Instant::now() + Duration::from_secs(60)),
            ..ExploreOptions::default()
        };
        match explore(&prep.normalized, &prep.shared, &eo, None) {
            Explored::Safe(_) => assert!(!fails, "{name}: called safe"),
            Explored::Violation { .. } => assert!(fails, "{name}: a failure in a correct program"),
            other => panic!("{name}: not decided: {other:?}"),
        }
    }
}
