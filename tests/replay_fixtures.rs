//! Every fixture program (`../shared/fixtures/programs`) replayed along hand-written
//! schedules (`tests/schedules/fixtures/NAME.KIND.json`, each explained by its `comment`):
//! sequentialized with the gcc dialect, compiled with gcc and run natively, the run must end
//! exactly as the fixtures' README says (the `@seqloc` line naming the failing assertion,
//! or a deadlock, or a clean exit for the correct program), and its point trace must follow
//! the schedule block by block (`common::replay::follows`). Every fixture has a schedule,
//! and every schedule an expected outcome here. A schedule that does not fit its program
//! is rejected.

mod common;

use common::replay::{Run, follows, replay};
use common::*;
use serde_json::Value;
use std::path::Path;

const SCHEDULES: &str = "tests/schedules/fixtures";

/// One change to a schedule.
type Change = fn(&mut Value);

#[derive(Clone, Copy, Debug)]
enum Outcome {
    /// Exit 1 and `@seqloc KIND FIXTURE:LINE`, LINE the assertion's line.
    Fails(&'static str, u32),
    /// Exit 1 and `@seqloc deadlock -`: every live thread blocked at the end of the
    /// schedule. Only the deadlock group of Table II (`--deadlock-rules`) models the mutexes
    /// and joins that block; the non-deadlock group removes them.
    Deadlock,
    /// Exit 0 and no `@seqloc` line.
    Passes,
}

struct Case {
    schedule: &'static str,
    outcome: Outcome,
}

/// The expected outcome of each schedule. Failures are those of the fixtures' README;
/// `assert` is lowered to `reach_error()` and reported as a reached error, the programs'
/// own `__VERIFIER_assert` as a failed assertion.
const CASES: &[Case] = &[
    Case {
        schedule: "f01_race.fail.json",
        outcome: Outcome::Fails("error-reached", 25),
    },
    Case {
        schedule: "f02_deadlock.deadlock.json",
        outcome: Outcome::Deadlock,
    },
    Case {
        schedule: "f03_loop.fail.json",
        outcome: Outcome::Fails("error-reached", 23),
    },
    Case {
        schedule: "f04_svcomp_nondet.fail.json",
        outcome: Outcome::Fails("assertion-failed", 31),
    },
    Case {
        schedule: "f04_svcomp_nondet.pass.json",
        outcome: Outcome::Passes,
    },
    Case {
        schedule: "f05_condvar.fail.json",
        outcome: Outcome::Fails("error-reached", 40),
    },
    Case {
        schedule: "f05_condvar.deadlock.json",
        outcome: Outcome::Deadlock,
    },
    // The fixtures' README says line 28; the assertion is on line 27 (28 is `return 0;`).
    Case {
        schedule: "f06_thread_array.fail.json",
        outcome: Outcome::Fails("error-reached", 27),
    },
    Case {
        schedule: "f07_calls.fail.json",
        outcome: Outcome::Fails("error-reached", 36),
    },
    Case {
        schedule: "f08_correct.pass.json",
        outcome: Outcome::Passes,
    },
    Case {
        schedule: "f09_atomic.fail.json",
        outcome: Outcome::Fails("assertion-failed", 27),
    },
    Case {
        schedule: "f10_malloc.fail.json",
        outcome: Outcome::Fails("error-reached", 37),
    },
];

/// `f01_race.fail.json` -> `f01_race.c`.
fn fixture_of(schedule: &str) -> String {
    let stem = schedule.split('.').next().unwrap_or(schedule);
    format!("{stem}.c")
}

fn load(schedule: &str) -> Value {
    let p = root().join(SCHEDULES).join(schedule);
    let text =
        std::fs::read_to_string(&p).unwrap_or_else(|e| panic!("cannot read {}: {e}", p.display()));
    serde_json::from_str(&text).unwrap_or_else(|e| panic!("{schedule} is not JSON: {e}"))
}

/// The rule groups a schedule is replayed under. A failing or passing schedule must be a
/// real execution: with the mutexes and joins modelled (`--deadlock-rules`) it must end the
/// same way as with them removed (the non-deadlock group, the default for a schedule file).
fn rule_groups(outcome: Outcome) -> &'static [&'static [&'static str]] {
    match outcome {
        Outcome::Deadlock => &[&["--deadlock-rules"]],
        Outcome::Fails(..) | Outcome::Passes => &[&[], &["--deadlock-rules"]],
    }
}

/// The exit code and `@seqloc` lines the run must have.
fn expected(outcome: Outcome, fixture: &str) -> (i32, Vec<String>) {
    match outcome {
        Outcome::Fails(kind, line) => (1, vec![format!("@seqloc {kind} {fixture}:{line}")]),
        Outcome::Deadlock => (1, vec!["@seqloc deadlock -".to_string()]),
        Outcome::Passes => (0, vec![]),
    }
}

fn seqloc_lines(run: &Run) -> Vec<String> {
    run.out
        .lines()
        .filter(|l| l.starts_with("@seqloc "))
        .map(str::to_string)
        .collect()
}

/// Replays one case under one rule group; `Err` says what went wrong.
fn check(case: &Case, args: &[&str], programs: &Path, dir: &Path) -> Result<(), String> {
    let fixture = fixture_of(case.schedule);
    let sched = load(case.schedule);
    let group = if args.is_empty() {
        "non-deadlock rules".to_string()
    } else {
        args.join(" ")
    };
    let name = format!(
        "{}{}",
        case.schedule.trim_end_matches(".json"),
        if args.is_empty() { "" } else { ".dl" }
    );
    let program = programs.join(&fixture);
    std::panic::catch_unwind(|| {
        let run = replay(&program, &sched, dir, &name, args);
        let (code, lines) = expected(case.outcome, &fixture);
        assert_eq!(run.code, Some(code), "exit code\n{}", run.out);
        assert_eq!(seqloc_lines(&run), lines, "outcome\n{}", run.out);
        follows(&sched, &run);
    })
    .map_err(|e| {
        let msg = e
            .downcast_ref::<String>()
            .cloned()
            .or_else(|| e.downcast_ref::<&str>().map(|s| s.to_string()))
            .unwrap_or_default();
        format!("{} ({group}): {msg}", case.schedule)
    })
}

#[test]
fn every_fixture_has_a_schedule_and_every_schedule_an_expected_outcome() {
    let Some(programs) = shared("fixtures/programs") else {
        return;
    };
    let mut fixtures: Vec<String> = std::fs::read_dir(&programs)
        .expect("fixtures/programs is readable")
        .filter_map(|e| e.ok()?.file_name().into_string().ok())
        .filter(|n| n.ends_with(".c"))
        .collect();
    fixtures.sort();
    assert!(fixtures.len() >= 10, "fixtures: {fixtures:?}");
    for f in &fixtures {
        assert!(
            CASES.iter().any(|c| &fixture_of(c.schedule) == f),
            "fixture {f} has no schedule in {SCHEDULES}"
        );
    }
    let mut files: Vec<String> = std::fs::read_dir(root().join(SCHEDULES))
        .expect("the schedules directory is readable")
        .filter_map(|e| e.ok()?.file_name().into_string().ok())
        .collect();
    files.sort();
    let mut listed: Vec<String> = CASES.iter().map(|c| c.schedule.to_string()).collect();
    listed.sort();
    assert_eq!(
        files, listed,
        "every schedule file needs an expected outcome here, and every case its file"
    );
    for c in CASES {
        let fixture = fixture_of(c.schedule);
        assert!(
            fixtures.contains(&fixture),
            "{}: no fixture {fixture}",
            c.schedule
        );
        let sched = load(c.schedule);
        assert!(
            sched["comment"].as_str().is_some_and(|s| !s.is_empty()),
            "{}: a schedule says in its `comment` what interleaving it is",
            c.schedule
        );
        // The expected line is the assertion's, in the program itself.
        if let Outcome::Fails(_, line) = c.outcome {
            let src = std::fs::read_to_string(programs.join(&fixture)).expect("fixture");
            let text = src.lines().nth(line as usize - 1).unwrap_or("");
            assert!(
                text.contains("assert"),
                "{}: line {line} of {fixture} is not an assertion: `{text}`",
                c.schedule
            );
        }
    }
    // f05 reaches both a failure and a deadlock; f08 has no failure.
    for (fixture, kind) in [
        ("f05_condvar.c", "fail"),
        ("f05_condvar.c", "deadlock"),
        ("f08_correct.c", "pass"),
    ] {
        assert!(
            CASES
                .iter()
                .any(|c| fixture_of(c.schedule) == fixture && c.schedule.contains(kind)),
            "{fixture} needs a `{kind}` schedule"
        );
    }
}

#[test]
fn each_fixture_schedule_ends_as_expected_and_its_trace_follows_it() {
    let Some(programs) = shared("fixtures/programs") else {
        return;
    };
    if !have_gcc() {
        return;
    }
    let dir = tempfile::tempdir().expect("tempdir");
    let jobs: Vec<(&Case, &[&str])> = CASES
        .iter()
        .flat_map(|c| rule_groups(c.outcome).iter().map(move |g| (c, *g)))
        .collect();
    let results = parallel(&jobs, |(case, args)| {
        check(case, args, &programs, dir.path())
    });
    let failures: Vec<String> = results.into_iter().filter_map(Result::err).collect();
    assert!(
        failures.is_empty(),
        "{} of {} replays went wrong:\n{}",
        failures.len(),
        jobs.len(),
        failures.join("\n\n")
    );
}

/// The failing schedule of f01 with one change, written where `sequentialize` reads it.
fn f01_variant(dir: &Path, name: &str, change: Change) -> String {
    let mut sched = load("f01_race.fail.json");
    change(&mut sched);
    let p = dir.join(format!("{name}.json"));
    std::fs::write(&p, sched.to_string()).expect("write schedule");
    p.to_string_lossy().into_owned()
}

#[test]
fn a_schedule_that_does_not_fit_its_fixture_is_rejected_naming_the_step() {
    let Some(programs) = shared("fixtures/programs") else {
        return;
    };
    let dir = tempfile::tempdir().expect("tempdir");
    let program = programs.join("f01_race.c");
    let program = program.to_string_lossy();
    // Rejected before anything runs (exit 2): a thread id `threads` does not declare, and a
    // statement the block's thread cannot execute (line 14 is t2's code, block 2 runs t1).
    let bad: [(&str, Change, &str); 2] = [
        (
            "undeclared-thread",
            |s| s["blocks"][1]["thread"] = 7.into(),
            "schedule step 2 (thread 7): thread 7 is not declared in `threads`",
        ),
        (
            "other-threads-code",
            |s| s["blocks"][1]["until"]["before"] = "f01_race.c:14".into(),
            "schedule step 2 (thread 1): `f01_race.c:14` is not code thread 1 (`t1`) can run",
        ),
    ];
    for (name, change, message) in bad {
        let sfile = f01_variant(dir.path(), name, change);
        let o = run(&[
            "sequentialize",
            &program,
            "--schedule",
            &sfile,
            "--dialect",
            "gcc",
        ]);
        assert_eq!(o.status.code(), Some(2), "{name}: {}", stderr(&o));
        assert!(stderr(&o).contains(message), "{name}: {}", stderr(&o));
        assert!(stdout(&o).is_empty(), "{name}: wrote a program");
    }
    // A statement t1 runs, but only once: its second execution is never reached. The
    // built-in checker runs the sequential program and finds that no execution follows
    // the schedule past that step: bad input too.
    let sfile = f01_variant(dir.path(), "never-reached", |s| {
        s["blocks"][1]["until"]["occurrence"] = 2.into()
    });
    let o = run(&["sequentialize", &program, "--schedule", &sfile]);
    assert_eq!(o.status.code(), Some(2), "{}", stderr(&o));
    assert!(
        stderr(&o).contains("schedule step 2: no execution follows the schedule here"),
        "{}",
        stderr(&o)
    );
    assert!(stdout(&o).is_empty(), "wrote a program");
}

#[test]
fn the_trace_check_notices_a_fixture_run_that_does_not_follow_its_schedule() {
    let Some(programs) = shared("fixtures/programs") else {
        return;
    };
    if !have_gcc() {
        return;
    }
    let dir = tempfile::tempdir().expect("tempdir");
    // Each run held against its schedule with one stop changed: a condition wait's
    // occurrences (starting to wait is the first, waking the second), an iteration of an
    // unrolled loop, and a line.
    let changed: [(&str, Change); 3] = [
        ("f05_condvar.fail.json", |s| {
            s["blocks"][1]["until"]["occurrence"] = 1.into()
        }),
        ("f03_loop.fail.json", |s| {
            s["blocks"][1]["until"]["occurrence"] = 2.into()
        }),
        ("f09_atomic.fail.json", |s| {
            s["blocks"][1]["until"]["before"] = "f09_atomic.c:15".into()
        }),
    ];
    for (schedule, change) in changed {
        let sched = load(schedule);
        let program = programs.join(fixture_of(schedule));
        let run = replay(&program, &sched, dir.path(), schedule, &[]);
        follows(&sched, &run);
        let mut other = sched.clone();
        change(&mut other);
        let caught = std::panic::catch_unwind(|| follows(&other, &run));
        assert!(caught.is_err(), "{schedule}: a different schedule passed");
    }
}

/// A context switch inside a `__VERIFIER_atomic_*` section is not an interleaving of the
/// program: the framework reports a schedule mismatch at that block, so `sequentialize`,
/// which runs the sequential program with the built-in checker, refuses the schedule at
/// that step (exit 2). Here the checker thread is stopped between its two reads, which
/// are inside one atomic section.
#[test]
fn a_schedule_that_switches_inside_an_atomic_section_is_refused() {
    let Some(programs) = shared("fixtures/programs") else {
        return;
    };
    let dir = tempfile::tempdir().expect("tempdir");
    let sched = serde_json::json!({
        "schema": "seqloc.schedule/1",
        "threads": [
            {"id": 0, "function": "main"},
            {"id": 1, "function": "writer"},
            {"id": 2, "function": "checker"}
        ],
        "blocks": [
            {"thread": 0, "until": {"before": "f09_atomic.c:36"}},
            {"thread": 2, "until": {"before": "f09_atomic.c:25"}},
            {"thread": 1, "until": "end"},
            {"thread": 2, "until": "end"},
            {"thread": 0, "until": "end"}
        ]
    });
    let sfile = dir.path().join("inside-atomic.json");
    std::fs::write(&sfile, sched.to_string()).expect("write schedule");
    let program = programs.join("f09_atomic.c");
    let o = run(&[
        "sequentialize",
        &program.to_string_lossy(),
        "--schedule",
        &sfile.to_string_lossy(),
    ]);
    assert_eq!(o.status.code(), Some(2), "{}", stderr(&o));
    assert!(
        stderr(&o).contains("schedule step 2: no execution follows the schedule here"),
        "{}",
        stderr(&o)
    );
}
