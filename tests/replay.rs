//! The sequentializer against ground truth: hand-written schedules with more than 50
//! context switches, replayed by the sequential program compiled with gcc and run
//! natively. The run's own point trace (`-DSEQLOC_TRACE=1`) must follow the schedule block
//! by block: each block runs the thread the schedule names, and stops exactly before the
//! named statement's n-th execution. A failing schedule must fail, a passing one pass.

mod common;

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

/// Sequentializes along `sched`, builds with tracing on, runs: (exit code, stdout).
fn replay(sched: &serde_json::Value, dir: &Path, name: &str) -> (Option<i32>, String) {
    let sfile = dir.join(format!("{name}.json"));
    std::fs::write(&sfile, sched.to_string()).expect("write schedule");
    let c = dir.join(format!("{name}.c"));
    let o = run(&[
        "sequentialize",
        PROGRAM,
        "--schedule",
        &sfile.to_string_lossy(),
        "--dialect",
        "gcc",
        "-o",
        &c.to_string_lossy(),
    ]);
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    let exe = dir.join(name);
    let g = std::process::Command::new("gcc")
        .args(["-w", "-DSEQLOC_TRACE=1", "-o"])
        .arg(&exe)
        .arg(&c)
        .output()
        .expect("gcc runs");
    assert!(g.status.success(), "{}", String::from_utf8_lossy(&g.stderr));
    let r = std::process::Command::new(&exe)
        .output()
        .expect("the program runs");
    (
        r.status.code(),
        String::from_utf8_lossy(&r.stdout).into_owned(),
    )
}

/// `@point THREAD POINT FILE:LINE` lines of the native run: (thread, point, line).
fn points(out: &str) -> Vec<(u32, u32, u32)> {
    out.lines()
        .filter_map(|l| {
            let mut w = l.strip_prefix("@point ")?.split_whitespace();
            let t = w.next()?.parse().ok()?;
            let p = w.next()?.parse().ok()?;
            let line = w.next()?.rsplit(':').next()?.parse().ok()?;
            Some((t, p, line))
        })
        .collect()
}

/// Checks the native trace against the schedule, block by block. A point's marker prints
/// when the thread reaches it, so a block that stops before a statement shows that
/// statement last, and the thread's next block shows it again first.
fn follows(sched: &serde_json::Value, trace: &[(u32, u32, u32)]) {
    let blocks = sched["blocks"].as_array().expect("blocks");
    // Split the trace where the thread changes.
    let mut runs: Vec<Vec<(u32, u32, u32)>> = vec![];
    for &step in trace {
        match runs.last_mut() {
            Some(r) if r[0].0 == step.0 => r.push(step),
            _ => runs.push(vec![step]),
        }
    }
    assert_eq!(
        runs.len(),
        blocks.len(),
        "the run has {} blocks, the schedule {}",
        runs.len(),
        blocks.len()
    );
    // Executions of each (thread, line) so far, not counting reached-but-stopped points.
    let mut executed: std::collections::HashMap<(u32, u32), u32> = Default::default();
    let mut stopped_at: std::collections::HashMap<u32, (u32, u32)> = Default::default();
    for (i, (run, block)) in runs.iter().zip(blocks).enumerate() {
        let t = block["thread"].as_u64().expect("thread") as u32;
        assert_eq!(run[0].0, t, "block {i} runs thread {} not {t}", run[0].0);
        let mut steps: &[(u32, u32, u32)] = run;
        // Resuming where the thread stopped: its first point is the one it stopped before.
        if let Some((p, line)) = stopped_at.remove(&t) {
            assert_eq!(
                (steps[0].1, steps[0].2),
                (p, line),
                "block {i} resumes elsewhere"
            );
        }
        let until = &block["until"];
        if until == "end" {
            for s in steps {
                *executed.entry((t, s.2)).or_default() += 1;
            }
            continue;
        }
        let line: u32 = until["before"]
            .as_str()
            .and_then(|b| b.rsplit(':').next())
            .and_then(|l| l.parse().ok())
            .expect("before names a line");
        let occurrence = until["occurrence"].as_u64().unwrap_or(1) as u32;
        let (last, ran) = steps.split_last().expect("a block runs something");
        steps = ran;
        for s in steps {
            *executed.entry((t, s.2)).or_default() += 1;
        }
        assert_eq!(
            last.2, line,
            "block {i} stops before line {} not {line}",
            last.2
        );
        let before_stop = executed.get(&(t, line)).copied().unwrap_or(0);
        assert_eq!(
            before_stop + 1,
            occurrence,
            "block {i} stops before execution {} of line {line}, not {occurrence}",
            before_stop + 1
        );
        stopped_at.insert(t, (last.1, last.2));
    }
    // Threads that ran to their end never run again: nothing is left stopped.
    assert!(
        stopped_at.is_empty(),
        "threads left stopped: {stopped_at:?}"
    );
}

fn switches(sched: &serde_json::Value) -> usize {
    sched["blocks"].as_array().map_or(0, |b| b.len()) - 1
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
    let (code, out) = replay(&sched, dir.path(), "losing");
    assert_eq!(code, Some(1), "{out}");
    assert!(out.contains("@seqloc error-reached"), "{out}");
    let trace = points(&out);
    follows(&sched, &trace);
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
    let (code, out) = replay(&sched, dir.path(), "turns");
    assert_eq!(code, Some(0), "{out}");
    assert!(!out.contains("@seqloc"), "{out}");
    follows(&sched, &points(&out));
}

#[test]
fn the_trace_check_notices_a_run_that_does_not_follow_its_schedule() {
    if !have_gcc() {
        return;
    }
    let dir = tempfile::tempdir().expect("tempdir");
    let l = lines();
    let (_, out) = replay(&losing_schedule(&l), dir.path(), "losing");
    let trace = points(&out);
    // The same run held against other schedules: the turn-taking one, and the losing one
    // with one stop moved by an iteration.
    let mut shifted = losing_schedule(&l);
    shifted["blocks"][5]["until"]["occurrence"] = json!(4);
    for other in [taking_turns(&l), shifted] {
        let caught = std::panic::catch_unwind(|| follows(&other, &trace));
        assert!(caught.is_err(), "a different schedule passed the check");
    }
}
