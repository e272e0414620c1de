//! The sequentializer against ground truth: hand-written schedules with more than 50
//! context switches, replayed by the sequential program compiled with gcc and run
//! natively. The run's own point trace (`-DSEQLOC_TRACE=1`) must follow the schedule block
//! by block: each block runs the thread the schedule names, and stops exactly before the
//! named statement's n-th execution. A failing schedule must fail, a passing one pass;
//! the checker's own counterexamples replay to their failure.

mod common;

use common::replay::{Run, follows, points, replay, switches};
use common::*;
use serde_json::json;
use std::path::Path;

const PROGRAM: &str = "tests/programs/replay/pingpong.c";
const ROUNDS: u32 = 30;

/// The line of the first source line containing `marker`.
fn line_of(src: &str, marker: &str) -> u32 {
    src.lines()
        .position(|l| l.contains(marker))
        .map(|i| i as u32 + 1)
        .unwrap_or_else(|| panic!("`{marker}` not in {PROGRAM}"))
}

struct Lines {
    read: u32,
    write: u32,
    join: u32,
}

fn lines() -> Lines {
    let src = std::fs::read_to_string(root().join(PROGRAM)).expect("test program");
    Lines {
        read: line_of(&src, "/* read */"),
        write: line_of(&src, "/* write */"),
        join: line_of(&src, "pthread_join(a, 0);"),
    }
}

fn before(line: u32, occurrence: u32) -> serde_json::Value {
    json!({"before": format!("pingpong.c:{line}"), "occurrence": occurrence})
}

/// Worker 1 reads, worker 2 runs a whole iteration, worker 1 writes its stale value: an
/// update is lost in every iteration.
fn losing_schedule(l: &Lines) -> serde_json::Value {
    let mut blocks = vec![json!({"thread": 0, "until": before(l.join, 1)})];
    for i in 1..=ROUNDS {
        blocks.push(json!({"thread": 1, "until": before(l.write, i)}));
        let t2 = if i < ROUNDS {
            before(l.read, i + 1)
        } else {
            json!("end")
        };
        blocks.push(json!({"thread": 2, "until": t2}));
    }
    blocks.push(json!({"thread": 1, "until": "end"}));
    blocks.push(json!({"thread": 0, "until": "end"}));
    schedule(blocks)
}

/// The workers take turns by whole iterations: no update is lost.
fn taking_turns(l: &Lines) -> serde_json::Value {
    let mut blocks = vec![json!({"thread": 0, "until": before(l.join, 1)})];
    for i in 1..=ROUNDS {
        for t in [1, 2] {
            let until = if i < ROUNDS {
                before(l.read, i + 1)
            } else {
                json!("end")
            };
            blocks.push(json!({"thread": t, "until": until}));
        }
    }
    blocks.push(json!({"thread": 0, "until": "end"}));
    schedule(blocks)
}

/// Replays `sched` on the test program (non-deadlock rules, as for any failure).
fn replay_pingpong(sched: &serde_json::Value, dir: &Path, name: &str) -> Run {
    replay(Path::new(PROGRAM), sched, dir, name, &[])
}

fn schedule(blocks: Vec<serde_json::Value>) -> serde_json::Value {
    json!({
        "schema": "seqloc.schedule/1",
        "threads": [
            {"id": 0, "function": "main"},
            {"id": 1, "function": "worker"},
            {"id": 2, "function": "worker"}
        ],
        "blocks": blocks
    })
}

#[test]
fn a_schedule_with_sixty_switches_loses_an_update_in_every_iteration() {
    if !have_gcc() {
        return;
    }
    let dir = tempfile::tempdir().expect("tempdir");
    let l = lines();
    let sched = losing_schedule(&l);
    assert!(switches(&sched) >= 50);
    let run = replay_pingpong(&sched, dir.path(), "losing");
    assert_eq!(run.code, Some(1), "{}", run.out);
    assert!(run.out.contains("@seqloc error-reached"), "{}", run.out);
    follows(&sched, &run);
    let trace = points(&run.out);
    // Every write of worker 1 comes right after a whole iteration of worker 2.
    let writes: Vec<usize> = trace
        .iter()
        .enumerate()
        .filter(|(_, s)| s.0 == 1 && s.2 == l.write)
        .map(|(i, _)| i)
        .collect();
    assert!(writes.len() >= ROUNDS as usize);
}

#[test]
fn a_schedule_that_takes_turns_passes() {
    if !have_gcc() {
        return;
    }
    let dir = tempfile::tempdir().expect("tempdir");
    let sched = taking_turns(&lines());
    assert!(switches(&sched) >= 50);
    let run = replay_pingpong(&sched, dir.path(), "turns");
    assert_eq!(run.code, Some(0), "{}", run.out);
    assert!(!run.out.contains("@seqloc"), "{}", run.out);
    follows(&sched, &run);
}

#[test]
fn the_trace_check_notices_a_run_that_does_not_follow_its_schedule() {
    if !have_gcc() {
        return;
    }
    let dir = tempfile::tempdir().expect("tempdir");
    let l = lines();
    let run = replay_pingpong(&losing_schedule(&l), dir.path(), "losing");
    // The same run held against other schedules: the turn-taking one, and the losing one
    // with one stop moved by an iteration.
    let mut shifted = losing_schedule(&l);
    shifted["blocks"][5]["until"]["occurrence"] = json!(4);
    for other in [taking_turns(&l), shifted] {
        let caught = std::panic::catch_unwind(|| follows(&other, &run));
        assert!(caught.is_err(), "a different schedule passed the check");
    }
}

/// The checker's own counterexamples, replayed natively: whatever schedule `check --json`
/// returns for these programs must reach the failure it reports, and be followed block by
/// block. Each program stops a thread for good where the checker's framework once lost
/// the stop: after `reach_error(); abort();` (the abort ended the path before the
/// end-of-run probes), inside a `__VERIFIER_atomic_*` function, at a loop's unwinding
/// cut (a statement only that bound has) — or numbered a signal's choice of waiter by the
/// signals sent rather than the choices made (a signal before anyone waits chose nothing).
#[test]
fn the_checkers_schedules_stop_preempted_threads_where_they_stood() {
    if !have_gcc() {
        return;
    }
    let dir = tempfile::tempdir().expect("tempdir");
    let programs = [
        "preempted_producer.c",
        "failure_in_atomic.c",
        "held_at_loop_bound.c",
        "signal_before_a_waiter.c",
    ];
    for name in programs {
        let program = Path::new("tests/programs/replay/checker_schedules").join(name);
        let o = run(&["check", &program.to_string_lossy(), "--json"]);
        assert_eq!(o.status.code(), Some(1), "{name}: {}", stderr(&o));
        let check = json(&o);
        let line = &check["property"]["line"];
        let r = replay(&program, &check["schedule"], dir.path(), name, &[]);
        let expect = format!("{name}:{line}");
        assert!(
            r.code == Some(1)
                && r.out.lines().any(|l| {
                    l.starts_with("@seqloc ") && l.contains(&expect) && !l.contains("mismatch")
                }),
            "{name}: the checker's schedule {} does not replay to `{expect}`: exit {:?}, {}",
            check["schedule"],
            r.code,
            r.out.lines().rev().take(3).collect::<Vec<_>>().join(" | ")
        );
        follows(&check["schedule"], &r);
    }
}
