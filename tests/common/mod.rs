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

/// `seqloc localize TASK --format json --property P --timeout 300` on a benchmark: exit
/// code, report (`Null` if stdout is no JSON) and stderr. `ground_truth.rs` and
/// `root_causes.rs` ask the same question of every buggy benchmark (four minutes of the
/// suite each), so the answer of one run of this very binary is kept under
/// `CARGO_TARGET_TMPDIR` and given to the other: the key holds the binary's size and
/// modification time, the arguments and the program's text, so a rebuilt binary or an
/// edited program runs again.
pub fn benchmark_localization(
    task: &str,
    t: &serde_json::Value,
) -> (Option<i32>, serde_json::Value, String) {
    use std::hash::{Hash, Hasher};
    let program = task_program(task);
    let args = [
        "localize",
        program.to_str().unwrap_or_default(),
        "--format",
        "json",
        "--property",
        property_arg(t),
        "--timeout",
        "300",
    ];
    let exe = Path::new(env!("CARGO_BIN_EXE_seqloc"));
    let key = std::fs::metadata(exe).ok().and_then(|m| {
        let text = std::fs::read(root().join(&program)).ok()?;
        let mut h = std::collections::hash_map::DefaultHasher::new();
        (m.len(), m.modified().ok()?).hash(&mut h);
        args.hash(&mut h);
        text.hash(&mut h);
        Some(format!("{:016x}", h.finish()))
    });
    let file = key.map(|k| {
        Path::new(env!("CARGO_TARGET_TMPDIR"))
            .join("benchmark-localizations")
            .join(format!("{}-{k}.json", task.replace(['/', '.'], "_")))
    });
    let parse = |stdout: &[u8]| serde_json::from_slice(stdout).unwrap_or(serde_json::Value::Null);
    if let Some(kept) = file
        .as_ref()
        .and_then(|f| std::fs::read(f).ok())
        .and_then(|b| serde_json::from_slice::<serde_json::Value>(&b).ok())
    {
        let code = kept["code"].as_i64().and_then(|c| i32::try_from(c).ok());
        let out = kept["stdout"].as_str().unwrap_or_default();
        let err = kept["stderr"].as_str().unwrap_or_default().to_string();
        return (code, parse(out.as_bytes()), err);
    }
    let o = run(&args);
    let (code, out, err) = (o.status.code(), stdout(&o), stderr(&o));
    // A run ended by a signal is not kept: the next test asks again.
    if let (Some(f), Some(c)) = (&file, code) {
        let kept = serde_json::json!({"code": c, "stdout": out, "stderr": err});
        let tmp = f.with_extension(format!("tmp{}", std::process::id()));
        let written = f
            .parent()
            .map(std::fs::create_dir_all)
            .transpose()
            .ok()
            .and_then(|_| std::fs::write(&tmp, kept.to_string()).ok());
        if written.is_some() {
            let _ = std::fs::rename(&tmp, f);
        }
    }
    (code, parse(out.as_bytes()), err)
}
