//! Native replay of a schedule, shared by `replay.rs` and `replay_fixtures.rs`: sequentialize
//! a program along a schedule for gcc, build it with the point trace on
//! (`-DSEQLOC_TRACE=1`), run it, and check that the run's trace follows the schedule block
//! by block.

use super::{run, stderr};
use serde_json::Value;
use std::collections::HashMap;
use std::path::Path;

/// One native run of a sequential program.
pub struct Run {
    /// The exit code of the native run.
    pub code: Option<i32>,
    /// Its stdout: the `@point` trace and at most one `@seqloc` line.
    pub out: String,
    /// The statement a stop point belongs to, by (thread, point): the number the
    /// sequential program compares with `__seq_stop_stmt`. Every point whose head statement
    /// a block stops before has one; the points of one statement share it (an unrolled
    /// loop has a copy of the statement in each iteration, a condition wait takes two
    /// points: starting to wait and waking).
    pub stop_stmt: HashMap<(u32, u32), u32>,
}

/// Sequentializes `program` (a path relative to the crate root, or absolute) along `sched`
/// with the gcc dialect and the extra `args` (e.g. `--deadlock-rules`), builds it with
/// tracing on and runs it. `name` keeps the files of several replays in `dir` apart.
pub fn replay(program: &Path, sched: &Value, dir: &Path, name: &str, args: &[&str]) -> Run {
    let sfile = dir.join(format!("{name}.json"));
    std::fs::write(&sfile, sched.to_string()).expect("write schedule");
    replay_file(program, &sfile, dir, name, args)
}

/// [`replay`] of a schedule file as `--schedule` reads it (JSON, or a GraphML witness).
pub fn replay_file(program: &Path, sfile: &Path, dir: &Path, name: &str, args: &[&str]) -> Run {
    let c = dir.join(format!("{name}.c"));
    let program = program.to_string_lossy();
    let sfile = sfile.to_string_lossy();
    let cfile = c.to_string_lossy();
    let mut argv = vec![
        "sequentialize",
        program.as_ref(),
        "--schedule",
        sfile.as_ref(),
        "--dialect",
        "gcc",
        "-o",
        cfile.as_ref(),
    ];
    argv.extend_from_slice(args);
    let o = run(&argv);
    assert_eq!(
        o.status.code(),
        Some(0),
        "{program}: seqloc {}: {}",
        argv.join(" "),
        stderr(&o)
    );
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
    let code = std::fs::read_to_string(&c).expect("the sequential program");
    Run {
        code: r.status.code(),
        out: String::from_utf8_lossy(&r.stdout).into_owned(),
        stop_stmt: stop_points(&code),
    }
}

/// The stop points of a sequential program written for gcc: a point's marker
/// (`__builtin_printf("@point %d %d %s\n", THREAD, POINT, ...)`) directly followed by the
/// check `if (__seq_stop_stmt[order_index] == Nu && ...)` of the statement it heads.
fn stop_points(code: &str) -> HashMap<(u32, u32), u32> {
    const MARKER: &str = "\"@point %d %d %s\\n\", ";
    const CHECK: &str = "__seq_stop_stmt[order_index] == ";
    let mut stops = HashMap::new();
    let mut marker: Option<(u32, u32)> = None;
    for line in code.lines() {
        if let Some((_, rest)) = line.split_once(MARKER) {
            let mut w = rest.split(',').map(str::trim);
            let t = w.next().and_then(|t| t.parse().ok());
            let p = w.next().and_then(|p| p.parse().ok());
            marker = t.zip(p);
            continue;
        }
        if let Some(at) = marker.take() {
            if let Some((_, rest)) = line.split_once(CHECK) {
                let n = rest
                    .split(|c: char| !c.is_ascii_digit())
                    .next()
                    .and_then(|n| n.parse().ok())
                    .expect("a statement number after __seq_stop_stmt");
                stops.insert(at, n);
            }
        }
    }
    stops
}

/// The line of a location `file:line`, `file:line:col` or `file:line:col#part`.
pub fn line_of_location(loc: &str) -> Option<u32> {
    let loc = loc.split('#').next()?;
    let mut it = loc.rsplit(':');
    let last = it.next()?;
    let before = it.next()?;
    match (before.parse::<u32>(), last.parse::<u32>()) {
        (Ok(line), Ok(_col)) => Some(line),
        (Err(_), Ok(line)) => Some(line),
        _ => None,
    }
}

/// `@point THREAD POINT FILE:LINE` lines of the native run: (thread, point, line).
pub fn points(out: &str) -> Vec<(u32, u32, u32)> {
    out.lines()
        .filter_map(|l| {
            let mut w = l.strip_prefix("@point ")?.split_whitespace();
            let t = w.next()?.parse().ok()?;
            let p = w.next()?.parse().ok()?;
            let line = line_of_location(w.next()?)?;
            Some((t, p, line))
        })
        .collect()
}

/// Whether the run stopped at a failed assertion or a reached error: the block running
/// then ends there, and threads stopped before may never resume.
fn ends_in_failure(out: &str) -> bool {
    out.lines().any(|l| {
        l.starts_with("@seqloc assertion-failed ") || l.starts_with("@seqloc error-reached ")
    })
}

/// Checks the native trace against the schedule, block by block: each block runs the
/// thread the schedule names, resumes where that thread stopped, and stops exactly before
/// the named statement's n-th execution. A point's marker prints when the thread reaches
/// it, so a block that stops before a statement shows that statement last, and the
/// thread's next block shows it again first. The trace names a point by its line only, and
/// one line can hold several statements (`x = x + 1` is a read and a write) while one
/// statement can take several points: the stop point must be on the named line, must be
/// a point of a statement the program stops at, and the executions counted are those of
/// the points of that same statement ([`Run::stop_stmt`]).
///
/// A run that ends in a failure ends inside the last block, which then need not reach its
/// stop, and may leave other threads stopped; otherwise no thread is left stopped.
pub fn follows(sched: &Value, run: &Run) {
    let trace = points(&run.out);
    let blocks = sched["blocks"].as_array().expect("blocks");
    for (i, w) in blocks.windows(2).enumerate() {
        assert_ne!(
            w[0]["thread"],
            w[1]["thread"],
            "blocks {i} and {} run the same thread: the trace cannot tell them apart",
            i + 1
        );
    }
    // Split the trace where the thread changes.
    let mut runs: Vec<Vec<(u32, u32, u32)>> = vec![];
    for &step in &trace {
        match runs.last_mut() {
            Some(r) if r[0].0 == step.0 => r.push(step),
            _ => runs.push(vec![step]),
        }
    }
    assert_eq!(
        runs.len(),
        blocks.len(),
        "the run has {} blocks, the schedule {}:\n{}",
        runs.len(),
        blocks.len(),
        run.out
    );
    let failed = ends_in_failure(&run.out);
    // Executions of each (thread, point) so far, not counting reached-but-stopped points.
    let mut executed: HashMap<(u32, u32), u32> = HashMap::new();
    let mut stopped_at: HashMap<u32, (u32, u32)> = HashMap::new();
    for (i, (steps, block)) in runs.iter().zip(blocks).enumerate() {
        let t = block["thread"].as_u64().expect("thread") as u32;
        assert_eq!(
            steps[0].0, t,
            "block {i} runs thread {} not {t}",
            steps[0].0
        );
        // Resuming where the thread stopped: its first point is the one it stopped before.
        if let Some((p, line)) = stopped_at.remove(&t) {
            assert_eq!(
                (steps[0].1, steps[0].2),
                (p, line),
                "block {i} resumes elsewhere"
            );
        }
        let until = &block["until"];
        let cut_short = failed && i + 1 == blocks.len();
        if until == "end" || cut_short {
            for s in steps {
                *executed.entry((t, s.1)).or_default() += 1;
            }
            continue;
        }
        let line = until["before"]
            .as_str()
            .and_then(line_of_location)
            .expect("before names a line");
        let occurrence = until["occurrence"].as_u64().unwrap_or(1) as u32;
        let (last, ran) = steps.split_last().expect("a block runs something");
        for s in ran {
            *executed.entry((t, s.1)).or_default() += 1;
        }
        assert_eq!(
            last.2, line,
            "block {i} stops before line {} not {line}",
            last.2
        );
        let Some(stmt) = run.stop_stmt.get(&(t, last.1)) else {
            panic!(
                "block {i} stops at point {} of thread {t} (line {line}), which heads no statement the program stops at",
                last.1
            )
        };
        let before_stop: u32 = executed
            .iter()
            .filter(|((et, ep), _)| *et == t && run.stop_stmt.get(&(t, *ep)) == Some(stmt))
            .map(|(_, n)| *n)
            .sum();
        assert_eq!(
            before_stop + 1,
            occurrence,
            "block {i} stops before execution {} of the statement at line {line}, not {occurrence}",
            before_stop + 1
        );
        stopped_at.insert(t, (last.1, last.2));
    }
    // Threads that ran to their end never run again: nothing is left stopped, unless a
    // failure ended the run first.
    assert!(
        failed || stopped_at.is_empty(),
        "threads left stopped: {stopped_at:?}"
    );
}

/// The context switches of a schedule (it never runs one thread in two blocks in a row).
pub fn switches(sched: &Value) -> usize {
    sched["blocks"].as_array().map_or(0, |b| b.len()) - 1
}
