//! Schedules given with `--schedule` around `pthread_join`: the replay honours joins, so a
//! schedule in which a thread passes the join of a thread that has not finished is no
//! execution of the program and is refused as bad input (exit 2), by `localize` (which
//! must not localize a failure no execution has) and by `sequentialize` (which must not
//! write a program replaying it). The programs are in `tests/programs/joins/`.

mod common;

use common::*;

const HANDOFF: &str = "tests/programs/joins/handoff.c";
const EXIT_THEN_JOIN: &str = "tests/programs/joins/exit_then_join.c";

fn schedule(dir: &std::path::Path, name: &str, blocks: serde_json::Value) -> String {
    schedule_file(dir, name, &["main", "worker"], blocks)
}

/// `localize` along a schedule that is no execution: bad input, no candidates.
fn localize_refuses(program: &str, sched: &str, message: &str) {
    let o = run(&["localize", program, "--schedule", sched]);
    assert_eq!(o.status.code(), Some(2), "{sched}: {}", stderr(&o));
    assert!(!stdout(&o).contains("candidate"), "{sched}: {}", stdout(&o));
    assert!(stderr(&o).contains(message), "{sched}: {}", stderr(&o));
}

/// `sequentialize` along a schedule that no execution follows: bad input, no program.
fn sequentialize_refuses(program: &str, sched: &str, step: u32) {
    let o = run(&["sequentialize", program, "--schedule", sched]);
    assert_eq!(o.status.code(), Some(2), "{sched}: {}", stderr(&o));
    let message = format!("schedule step {step}: no execution follows the schedule here");
    assert!(stderr(&o).contains(&message), "{sched}: {}", stderr(&o));
    assert!(stdout(&o).is_empty(), "{sched}: wrote a program");
}

/// main runs past `pthread_join(t)` before the worker ran at all.
#[test]
fn passing_the_join_of_a_thread_that_never_ran_is_refused() {
    let dir = tempfile::tempdir().expect("tempdir");
    // main alone "until end": it waits in the join, so the assertion is never reached
    // (with the joins removed, main went on and the assertion "failed" with stage 0).
    let alone = schedule(
        dir.path(),
        "main-alone",
        serde_json::json!([{"thread": 0, "until": "end"}]),
    );
    localize_refuses(HANDOFF, &alone, "no assertion fails");
    // main stopped only after the join: no execution gets there.
    let past = schedule(
        dir.path(),
        "main-past-join",
        serde_json::json!([{"thread": 0, "until": before("handoff.c:21")}]),
    );
    localize_refuses(HANDOFF, &past, "cannot be replayed: at block 1");
    sequentialize_refuses(HANDOFF, &past, 1);
}

/// main runs past `pthread_join(t)` while the worker is between its two steps.
#[test]
fn passing_the_join_of_an_unfinished_thread_is_refused() {
    let dir = tempfile::tempdir().expect("tempdir");
    let half = |last: serde_json::Value| {
        serde_json::json!([
            {"thread": 0, "until": before("handoff.c:20")},
            {"thread": 1, "until": before("handoff.c:12")},
            {"thread": 0, "until": last},
        ])
    };
    // With the joins removed this "failed" with stage 1 and localized a fault.
    let to_end = schedule(dir.path(), "half-done-end", half("end".into()));
    localize_refuses(HANDOFF, &to_end, "no assertion fails");
    let past = schedule(dir.path(), "half-done-past", half(before("handoff.c:21")));
    localize_refuses(HANDOFF, &past, "cannot be replayed: at block 3");
    sequentialize_refuses(HANDOFF, &past, 3);
}

/// The join returns once the joined thread ended, by returning or through `pthread_exit`:
/// a schedule that runs the worker to its `pthread_exit` before main passes the join is
/// followed, and its real failure is localized.
#[test]
fn a_join_after_the_thread_exited_is_followed() {
    let dir = tempfile::tempdir().expect("tempdir");
    let ok = schedule(
        dir.path(),
        "exit-then-join",
        serde_json::json!([
            {"thread": 0, "until": before("exit_then_join.c:20")},
            {"thread": 1, "until": "end"},
            {"thread": 0, "until": "end"},
        ]),
    );
    let o = run(&["sequentialize", EXIT_THEN_JOIN, "--schedule", &ok]);
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    let o = run(&[
        "localize",
        EXIT_THEN_JOIN,
        "--schedule",
        &ok,
        "--format",
        "json",
    ]);
    assert_eq!(o.status.code(), Some(1), "{}", stderr(&o));
    let j = json(&o);
    assert_eq!(j["verdict"], "failure", "{j}");
    assert_eq!(j["property"]["line"], 21, "{j}");
    // main past the join while the worker has not reached its pthread_exit: refused.
    let early = schedule(
        dir.path(),
        "join-before-exit",
        serde_json::json!([
            {"thread": 0, "until": before("exit_then_join.c:20")},
            {"thread": 1, "until": before("exit_then_join.c:11")},
            {"thread": 0, "until": before("exit_then_join.c:21")},
        ]),
    );
    sequentialize_refuses(EXIT_THEN_JOIN, &early, 3);
    localize_refuses(EXIT_THEN_JOIN, &early, "cannot be replayed: at block 3");
}
