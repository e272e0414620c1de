//! Schedules given with `--schedule` around mutexes. Table II's non-deadlock rules drop
//! lock calls (a checker's schedule already respects them), so a hand-written schedule
//! in which a thread enters a critical section another thread holds would "replay" and
//! "fail" along an execution that does not exist. seqloc replays such a schedule once
//! more with the locks kept and refuses it as bad input (exit 2), in `localize` and in
//! `sequentialize`. The program is in `tests/programs/locks/`.

mod common;

use common::*;

const COUNTER: &str = "tests/programs/locks/locked_counter.c";

fn schedule(dir: &std::path::Path, name: &str, blocks: serde_json::Value) -> String {
    schedule_file(dir, name, &["main", "worker", "worker"], blocks)
}

/// Worker 1 is preempted inside its critical section (after reading the counter) and
/// worker 2 is run into the same critical section: with the locks dropped, the lost update
/// makes the assertion fail.
fn lost_update(dir: &std::path::Path) -> String {
    schedule(
        dir,
        "inside-held-lock",
        serde_json::json!([
            {"thread": 0, "until": before("locked_counter.c:25")},
            {"thread": 1, "until": before("locked_counter.c:15")},
            {"thread": 2, "until": before("locked_counter.c:15")},
            {"thread": 1, "until": "end"},
            {"thread": 2, "until": "end"},
            {"thread": 0, "until": "end"},
        ]),
    )
}

const HELD: &str = "with the locks honoured, no execution follows the schedule past block 3";

#[test]
fn localize_refuses_a_schedule_that_takes_a_held_mutex() {
    let dir = tempfile::tempdir().expect("tempdir");
    let sched = lost_update(dir.path());
    let o = run(&["localize", COUNTER, "--schedule", &sched]);
    assert_eq!(o.status.code(), Some(2), "{}", stderr(&o));
    assert!(!stdout(&o).contains("candidate"), "{}", stdout(&o));
    assert!(stderr(&o).contains(HELD), "{}", stderr(&o));
}

#[test]
fn sequentialize_refuses_a_schedule_that_takes_a_held_mutex() {
    let dir = tempfile::tempdir().expect("tempdir");
    let sched = lost_update(dir.path());
    let o = run(&["sequentialize", COUNTER, "--schedule", &sched]);
    assert_eq!(o.status.code(), Some(2), "{}", stderr(&o));
    assert!(stderr(&o).contains(HELD), "{}", stderr(&o));
    assert!(stdout(&o).is_empty(), "wrote a program");
    // `--no-validate` is the user's way to have the program anyway.
    let o = run(&[
        "sequentialize",
        COUNTER,
        "--schedule",
        &sched,
        "--no-validate",
    ]);
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
}

/// Worker 2 run "until end" while worker 1 holds the mutex: a real execution stops it at
/// the lock (a blocked thread's run ends there), and the lost update is gone. The failure
/// shown with the locks dropped is no execution's: refused by both commands.
#[test]
fn a_failure_that_needs_the_locks_dropped_is_refused() {
    let dir = tempfile::tempdir().expect("tempdir");
    let sched = schedule(
        dir.path(),
        "run-into-held-lock",
        serde_json::json!([
            {"thread": 0, "until": before("locked_counter.c:25")},
            {"thread": 1, "until": before("locked_counter.c:15")},
            {"thread": 2, "until": "end"},
            {"thread": 1, "until": "end"},
            {"thread": 0, "until": "end"},
        ]),
    );
    let message = "with the locks honoured, no execution along the schedule fails";
    for cmd in ["localize", "sequentialize"] {
        let o = run(&[cmd, COUNTER, "--schedule", &sched]);
        assert_eq!(o.status.code(), Some(2), "{cmd}: {}", stderr(&o));
        assert!(stderr(&o).contains(message), "{cmd}: {}", stderr(&o));
    }
}

/// The same workers one after the other respect the mutex: the schedule is followed
/// (and, the program being correct, nothing fails along it).
#[test]
fn a_schedule_that_respects_the_mutex_is_followed() {
    let dir = tempfile::tempdir().expect("tempdir");
    let sched = schedule(
        dir.path(),
        "one-after-the-other",
        serde_json::json!([
            {"thread": 0, "until": before("locked_counter.c:25")},
            {"thread": 1, "until": "end"},
            {"thread": 2, "until": "end"},
            {"thread": 0, "until": "end"},
        ]),
    );
    let o = run(&["sequentialize", COUNTER, "--schedule", &sched]);
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    assert!(stdout(&o).contains("switch"), "{}", stdout(&o));
    let o = run(&["localize", COUNTER, "--schedule", &sched]);
    assert_eq!(o.status.code(), Some(2), "{}", stderr(&o));
    assert!(stderr(&o).contains("no assertion fails"), "{}", stderr(&o));
}
