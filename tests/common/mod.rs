//! Shared helpers of the integration tests: run the `seqloc` binary as a user would, find
//! the read-only inputs beside the clone (`../shared`), and run jobs two at a time.
#![allow(dead_code)]

pub mod fuzz;
pub mod replay;

use std::io::Write;
use std::path::{Path, PathBuf};
use std::process::{Command, Output};
use std::sync::Mutex;

pub fn root() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
}

pub fn seqloc() -> Command {
    let mut c = Command::new(env!("CARGO_BIN_EXE_seqloc"));
    c.current_dir(root()).env("NO_COLOR", "1");
    c
}

pub fn run(args: &[&str]) -> Output {
    seqloc()
        .args(args)
        .output()
        .expect("the seqloc binary runs")
}

pub fn stdout(o: &Output) -> String {
    String::from_utf8_lossy(&o.stdout).into_owned()
}

pub fn stderr(o: &Output) -> String {
    String::from_utf8_lossy(&o.stderr).into_owned()
}

/// `../shared/<sub>`, or `None` after printing that the test is skipped: the shared
/// inputs exist on CI and on development machines, not in a user's fresh clone.
pub fn shared(sub: &str) -> Option<PathBuf> {
    let p = root().join("..").join("shared").join(sub);
    if p.exists() {
        Some(p)
    } else {
        // Straight to the stream: libtest captures `eprintln!` of a passing test, and a
        // skip must not be silent.
        let _ = writeln!(
            std::io::stderr(),
            "NOTICE: skipped: {} not found (it is beside the clone on CI only)",
            p.display()
        );
        None
    }
}

pub fn have_gcc() -> bool {
    let ok = Command::new("gcc")
        .arg("--version")
        .output()
        .is_ok_and(|o| o.status.success());
    if !ok {
        eprintln!("NOTICE: skipped: gcc not found");
    }
    ok
}

/// The JSON a command printed on stdout.
pub fn json(o: &Output) -> serde_json::Value {
    serde_json::from_slice(&o.stdout).unwrap_or_else(|e| {
        panic!(
            "stdout is not JSON ({e}):\n{}\nstderr:\n{}",
            stdout(o),
            stderr(o)
        )
    })
}

/// Runs `f` over `items` on two threads (the CI machine has two cores) and returns the
/// results in order.
pub fn parallel<T: Sync, R: Send>(items: &[T], f: impl Fn(&T) -> R + Sync) -> Vec<R> {
    let next = Mutex::new(0usize);
    let out: Mutex<Vec<Option<R>>> = Mutex::new((0..items.len()).map(|_| None).collect());
    std::thread::scope(|s| {
        for _ in 0..2 {
            s.spawn(|| {
                loop {
                    let i = {
                        let mut n = next.lock().expect("lock");
                        let i = *n;
                        *n += 1;
                        i
                    };
                    let Some(item) = items.get(i) else { break };
                    let r = f(item);
                    out.lock().expect("lock")[i] = Some(r);
                }
            });
        }
    });
    out.into_inner()
        .expect("lock")
        .into_iter()
        .map(|r| r.expect("every item ran"))
        .collect()
}

/// The ground truth of the project's benchmarks: (task file relative to `benchmarks/`, task).
pub fn manifest() -> Vec<(String, serde_json::Value)> {
    let p = root().join("benchmarks/MANIFEST.json");
    let text = std::fs::read_to_string(&p).expect("benchmarks/MANIFEST.json is readable");
    let v: serde_json::Value = serde_json::from_str(&text).expect("MANIFEST.json is JSON");
    let mut tasks: Vec<(String, serde_json::Value)> = v["tasks"]
        .as_object()
        .expect("tasks object")
        .iter()
        .map(|(k, t)| (k.clone(), t.clone()))
        .collect();
    tasks.sort_by(|a, b| a.0.cmp(&b.0));
    tasks
}

/// The C file of a task file `dir/x.yml`.
pub fn task_program(task: &str) -> PathBuf {
    Path::new("benchmarks").join(task.replace(".yml", ".c"))
}

/// The `--property` value for a manifest property.
pub fn property_arg(t: &serde_json::Value) -> &'static str {
    if t["property"] == "no-deadlock" {
        "deadlock"
    } else {
        "unreach-call"
    }
}

/// The candidate lines of a `seqloc.localize/1` report.
pub fn candidate_lines(report: &serde_json::Value) -> Vec<u64> {
    report["candidates"]
        .as_array()
        .map(|c| c.iter().filter_map(|c| c["line"].as_u64()).collect())
        .unwrap_or_default()
}

/// Writes a `seqloc.schedule/1` file named `name` in `dir`: thread `i` runs `threads[i]`
/// (`main` first), with the given `blocks`. Returns its path.
pub fn schedule_file(
    dir: &Path,
    name: &str,
    threads: &[&str],
    blocks: serde_json::Value,
) -> String {
    let threads: Vec<serde_json::Value> = threads
        .iter()
        .enumerate()
        .map(|(id, f)| serde_json::json!({"id": id, "function": f}))
        .collect();
    let s = serde_json::json!({
        "schema": "seqloc.schedule/1",
        "threads": threads,
        "blocks": blocks,
    });
    let path = dir.join(format!("{name}.json"));
    std::fs::write(&path, s.to_string()).expect("write schedule");
    path.to_string_lossy().into_owned()
}

/// A block end `{"before": point}` (`file:line[:col]`).
pub fn before(point: &str) -> serde_json::Value {
    serde_json::json!({ "before": point })
}
