//! Running a sweep: one seqloc child process per task and property, a pool of `jobs` worker
//! threads that each wait on one child at a time (the children are the parallelism), and a
//! [`TaskResult`] for every entry, whatever happened to its run.
//!
//! This module owns the child's command line ([`child_argv`]) and the limits derived from the
//! options ([`kill_grace`]); spawning is in `process`, the meaning of a run in `outcome`.
//! Entries that need no run (skipped properties, unusable task definitions) get their result
//! here without a child.

use std::ffi::OsString;
use std::io::IsTerminal;
use std::os::unix::fs::PermissionsExt;
use std::sync::Mutex;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::time::{Duration, Instant, SystemTime};

use indicatif::{ProgressBar, ProgressDrawTarget, ProgressStyle};

use super::messages;
use super::outcome::{self, Context};
pub use super::process::kill_all_running;
use super::process::{self, Limits};
use super::results::{Machine, ReportOptions, SCHEMA, Status, SweepReport, TaskResult};
use super::shard;
use super::task::{DataModel, PropertyKind, Task, TaskProperty, slash_path};
use super::witnesses::{self, WitnessFiles};
use super::{Mode, SweepError, SweepOptions};

/// Lines of stderr kept in a result.
const STDERR_LINES: usize = 20;

/// The data model given to seqloc when a task does not name one: format 1.0 task files have no
/// options, and SV-COMP's concurrency tasks are 32-bit.
pub const DEFAULT_DATA_MODEL: DataModel = DataModel::Ilp32;

/// Runs `tasks` (only the shard `opts.shard`, if set) and returns the report, sorted by id.
///
/// Fails only before any child starts (the seqloc executable cannot be run, a worker thread
/// cannot be started). Every task gets a result: failures of its run are its status.
pub fn run(opts: &SweepOptions, tasks: Vec<Task>) -> Result<SweepReport, SweepError> {
    check_executable(opts)?;
    let started = SystemTime::now();
    let clock = Instant::now();
    // Named from every task, before sharding: each shard then names a task's witness alike.
    let stems = opts.witness_dir.as_ref().map(|_| witnesses::stems(&tasks));
    if let Some(dir) = &opts.witness_dir {
        std::fs::create_dir_all(dir).map_err(|source| SweepError::WitnessDir {
            path: dir.clone(),
            source,
        })?;
    }
    let tasks = match opts.shard {
        Some(s) => shard::select(tasks, s)?,
        None => tasks,
    };

    // Plan: a finished result for entries that need no run, a job for the others.
    let mut results: Vec<Option<TaskResult>> = Vec::new();
    let mut jobs: Vec<(usize, &Task, &TaskProperty, Option<WitnessFiles>)> = Vec::new();
    for task in &tasks {
        for entry in plan(task) {
            match entry {
                Planned::Done(r) => results.push(Some(*r)),
                Planned::Run(p) => {
                    let files = opts.witness_dir.as_ref().map(|dir| {
                        let stem = stems
                            .as_ref()
                            .and_then(|s| s.get(&task.id))
                            .cloned()
                            .unwrap_or_else(|| "task".to_string());
                        witnesses::files(dir, &stem, task, &p.kind)
                    });
                    jobs.push((results.len(), task, p, files));
                    results.push(None);
                }
            }
        }
    }

    let bar = progress_bar(opts, jobs.len());
    let slots = Mutex::new(results);
    let next = AtomicUsize::new(0);
    let workers = opts.effective_jobs().clamp(1, jobs.len().max(1));
    let suspend_bar = bar.clone();
    messages::with_output_hook(Box::new(move |f| suspend_bar.suspend(f)), || {
        std::thread::scope(|s| -> Result<(), SweepError> {
            for w in 0..workers {
                std::thread::Builder::new()
                    .name(format!("sweep-worker-{w}"))
                    .spawn_scoped(s, || {
                        loop {
                            // A stopped sweep starts nothing more; the jobs left get a
                            // result below.
                            if opts.stop.requested() {
                                break;
                            }
                            let i = next.fetch_add(1, Ordering::Relaxed);
                            let Some((slot, task, property, files)) = jobs.get(i) else {
                                break;
                            };
                            let slot = *slot;
                            bar.set_message(task.id.clone());
                            let r = run_one(opts, task, property, files.as_ref());
                            if r.status == Status::Error {
                                messages::task_error(
                                    &r.id,
                                    r.reason.as_deref().unwrap_or("failed"),
                                );
                            }
                            if let Ok(mut slots) = slots.lock() {
                                slots[slot] = Some(r);
                            }
                            bar.inc(1);
                        }
                    })
                    .map_err(SweepError::Thread)?;
            }
            Ok(())
        })
    })?;
    bar.finish_and_clear();

    let mut slots = slots
        .into_inner()
        .unwrap_or_else(|poisoned| poisoned.into_inner());
    for (slot, task, property, _) in &jobs {
        if slots[*slot].is_none() {
            slots[*slot] = Some(TaskResult {
                status: Status::Skipped,
                reason: Some("not run: the sweep was stopped before this task started".into()),
                ..base_result(task, property.kind.name(), property.expected)
            });
        }
    }
    let mut tasks: Vec<TaskResult> = slots.into_iter().flatten().collect();
    tasks.sort_by(|a, b| a.id.cmp(&b.id));
    Ok(SweepReport {
        schema: SCHEMA.to_string(),
        mode: opts.mode,
        started: super::results::rfc3339_utc(started),
        elapsed_ms: millis(clock.elapsed()),
        machine: Machine::current(),
        options: ReportOptions::from_options(opts),
        merged_from: Vec::new(),
        interrupted: opts.stop.requested(),
        tasks,
    })
}

fn check_executable(opts: &SweepOptions) -> Result<(), SweepError> {
    let bad = |reason: String| SweepError::Executable {
        path: opts.seqloc_exe.clone(),
        reason,
    };
    let meta = std::fs::metadata(&opts.seqloc_exe).map_err(|e| bad(e.to_string()))?;
    if !meta.is_file() || meta.permissions().mode() & 0o111 == 0 {
        return Err(bad("not an executable file".to_string()));
    }
    Ok(())
}

fn progress_bar(opts: &SweepOptions, len: usize) -> ProgressBar {
    if !opts.progress || !std::io::stderr().is_terminal() {
        return ProgressBar::hidden();
    }
    let bar = ProgressBar::with_draw_target(Some(len as u64), ProgressDrawTarget::stderr());
    if let Ok(style) = ProgressStyle::with_template(
        "{bar:30} {pos}/{len} [{elapsed_precise}, eta {eta}] {wide_msg}",
    ) {
        bar.set_style(style);
    }
    bar
}

enum Planned<'a> {
    Done(Box<TaskResult>),
    Run(&'a TaskProperty),
}

/// The entries of one task: one per property it lists.
fn plan(task: &Task) -> Vec<Planned<'_>> {
    let not_run = |property: &str, expected, status, reason: String| {
        Planned::Done(Box::new(TaskResult {
            status,
            reason: Some(reason),
            ..base_result(task, property, expected)
        }))
    };
    if let Some(problem) = &task.problem {
        messages::task_error(&task.id, problem);
        let mut entries: Vec<Planned<'_>> = task
            .properties
            .iter()
            .map(|p| not_run(p.kind.name(), p.expected, Status::Error, problem.clone()))
            .collect();
        if entries.is_empty() {
            entries.push(not_run("unknown", None, Status::Error, problem.clone()));
        }
        return entries;
    }
    if task.properties.is_empty() {
        return vec![not_run(
            "none",
            None,
            Status::Skipped,
            "the task lists no property".to_string(),
        )];
    }
    let language = task
        .language
        .as_deref()
        .filter(|l| !l.eq_ignore_ascii_case("c"));
    task.properties
        .iter()
        .map(|p| {
            let skip = |reason: String| not_run(p.kind.name(), p.expected, Status::Skipped, reason);
            if let Some(l) = language {
                skip(format!("seqloc checks C programs, this task is in {l}"))
            } else if task.inputs.len() != 1 {
                skip(format!(
                    "the task has {} input files; seqloc takes one",
                    task.inputs.len()
                ))
            } else if let PropertyKind::Unsupported(name) = &p.kind {
                skip(format!(
                    "seqloc does not check property {name} (it checks unreach-call and no-deadlock)"
                ))
            } else {
                Planned::Run(p)
            }
        })
        .collect()
}

fn base_result(task: &Task, property: &str, expected: Option<bool>) -> TaskResult {
    TaskResult {
        id: format!("{}#{property}", task.id),
        yml: task.yml.as_deref().map(slash_path),
        input: task.inputs.first().map(|p| slash_path(p)),
        category: task.category.clone(),
        property: property.to_string(),
        expected,
        data_model: task.data_model,
        verdict: None,
        exhaustive: None,
        status: Status::Skipped,
        reason: None,
        time_ms: 0,
        peak_mem_kib: None,
        exit_code: None,
        candidates: None,
        hit: None,
        faulty_lines: task.ground_truth.as_ref().map(|g| g.faulty_lines.clone()),
        stderr_tail: None,
        command: None,
        witnesses: Vec::new(),
        witness_note: None,
    }
}

/// The time between the task's limit and the sweep killing its process group: seqloc gets
/// `--timeout` equal to the limit and this long to stop and print its `unknown` answer.
/// 5% of the limit, at least 0.5 s, at most 5 s.
pub fn kill_grace(timeout: Duration) -> Duration {
    (timeout / 20).clamp(Duration::from_millis(500), Duration::from_secs(5))
}

/// The limits of one run under `opts`.
fn limits(opts: &SweepOptions) -> Limits {
    let wall = opts.timeout + kill_grace(opts.timeout);
    Limits {
        wall,
        memory_bytes: (opts.memory_mb > 0).then(|| opts.memory_mb.saturating_mul(1 << 20)),
        // CPU time above the wall limit: a backstop if the parent's kill fails, and a bound
        // on a child that forks away from the group. The built-in checker runs two threads
        // (the bounded search and the explicit-state explorer), so twice the wall time; the
        // wall-clock limit is what ends a run normally.
        cpu_secs: Some(2 * wall.as_secs_f64().ceil() as u64 + 1),
    }
}

/// The `--timeout` value given to seqloc: whole seconds, rounded up, at least 1.
fn timeout_arg(timeout: Duration) -> String {
    (timeout.as_secs_f64().ceil() as u64).max(1).to_string()
}

/// The command line of the child for one task and property:
///
/// ```text
/// <seqloc_exe> check|localize <input> --format json --data-model ilp32|lp64
///     --property unreach-call|deadlock|all --timeout <secs>
///     [--witness W.graphml --witness-yaml W.witness.yml [--witness-spec P.prp]] [extra_args...]
/// ```
///
/// Run as a vector, never through a shell. `None` when seqloc does not check the property or
/// the task has no input.
pub fn child_argv(
    opts: &SweepOptions,
    task: &Task,
    property: &PropertyKind,
    witness: Option<&WitnessFiles>,
) -> Option<Vec<OsString>> {
    let input = task.inputs.first()?;
    let prop = property.cli_value()?;
    let data_model = task.data_model.unwrap_or(DEFAULT_DATA_MODEL);
    let mut argv: Vec<OsString> = vec![
        opts.seqloc_exe.clone().into(),
        opts.mode.subcommand().into(),
        input.clone().into(),
        // The answer is read from stdout as JSON (`outcome` documents the contract).
        "--format".into(),
        "json".into(),
        "--data-model".into(),
        data_model.cli_value().into(),
        "--property".into(),
        prop.into(),
        // seqloc's own limit, so that it can stop and answer `unknown` before the sweep kills
        // it; the sweep's kill comes `kill_grace` later.
        "--timeout".into(),
        timeout_arg(opts.timeout).into(),
    ];
    if let Some(w) = witness {
        argv.extend(w.child_args());
    }
    argv.extend(opts.extra_args.iter().map(OsString::from));
    Some(argv)
}

/// A command line as one string that a POSIX shell reads back as the same words.
pub fn render_command(argv: &[OsString]) -> String {
    argv.iter()
        .map(|a| {
            let s = a.to_string_lossy();
            let safe = !s.is_empty()
                && s.chars()
                    .all(|c| c.is_ascii_alphanumeric() || "-_./=:,+@%".contains(c));
            if safe {
                s.into_owned()
            } else {
                format!("'{}'", s.replace('\'', r"'\''"))
            }
        })
        .collect::<Vec<_>>()
        .join(" ")
}

fn run_one(
    opts: &SweepOptions,
    task: &Task,
    property: &TaskProperty,
    witness: Option<&WitnessFiles>,
) -> TaskResult {
    let mut result = base_result(task, property.kind.name(), property.expected);
    result.data_model = Some(task.data_model.unwrap_or(DEFAULT_DATA_MODEL));
    let Some(argv) = child_argv(opts, task, &property.kind, witness) else {
        result.status = Status::Error;
        result.reason = Some("nothing to run".to_string());
        return result;
    };
    result.command = Some(render_command(&argv));
    let limits = limits(opts);
    if let Some(w) = witness {
        w.clear();
    }
    let raw = match process::run_limited(&argv, &limits, &opts.stop) {
        Ok(raw) => raw,
        Err(e) => {
            result.status = Status::Error;
            result.reason = Some(format!("cannot run {}: {e}", opts.seqloc_exe.display()));
            return result;
        }
    };
    let ctx = Context {
        mode: opts.mode,
        property: &property.kind,
        expected: property.expected,
        timeout: opts.timeout,
        memory_bytes: limits.memory_bytes,
        cpu_secs: limits.cpu_secs,
        inputs: &task.inputs,
        faulty_lines: task
            .ground_truth
            .as_ref()
            .map(|g| g.faulty_lines.as_slice()),
    };
    if raw.interrupted {
        // Ended by the sweep, not by itself or a limit: no answer to score.
        result.status = Status::Skipped;
        result.reason = Some("interrupted: the sweep was stopped while this task ran".into());
        result.time_ms = millis(raw.elapsed);
        result.exit_code = Some(raw.exit.code());
        return result;
    }
    let o = outcome::interpret(&raw, &ctx);
    result.time_ms = millis(raw.elapsed);
    result.peak_mem_kib = raw.peak_mem_kib;
    result.exit_code = Some(raw.exit.code());
    if !matches!(o.status, Status::Correct | Status::Unscored) {
        result.stderr_tail = tail_lines(&raw.stderr_tail, STDERR_LINES);
    }
    result.status = o.status;
    result.verdict = o.verdict;
    result.exhaustive = o.exhaustive;
    result.reason = o.reason;
    result.candidates = o.candidates;
    result.hit = o.hit;
    if opts.mode == Mode::Check {
        result.candidates = None;
        result.hit = None;
    }
    if let Some(w) = witness {
        (result.witnesses, result.witness_note) =
            witnesses::collect(w, result.verdict, &raw.stderr_tail);
    }
    result
}

fn tail_lines(text: &str, n: usize) -> Option<String> {
    let lines: Vec<&str> = text.lines().collect();
    let start = lines.len().saturating_sub(n);
    let tail = lines[start..].join("\n");
    (!tail.trim().is_empty()).then_some(tail)
}

fn millis(d: Duration) -> u64 {
    u64::try_from(d.as_millis()).unwrap_or(u64::MAX)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::sweep::process::alive;
    use crate::sweep::results::Verdict;
    use crate::sweep::task::discover;
    use crate::sweep::task::tests::{RACE, UNREACH, tree};
    use std::path::{Path, PathBuf};

    /// A fake `seqloc` that behaves according to the input's base name. `$1` is the
    /// subcommand, `$2` the input.
    const FAKE: &str = r#"#!/bin/sh
base=$(basename "$2")
case "$base" in
  bug.c)
    for a in "$@"; do printf '%s\n' "$a"; done > "$2.args"
    echo '{"schema":"seqloc.check/1","verdict":"failure","reason":null,"property":{"kind":"unreach-call"},"bounds":{"rounds":2},"time_ms":{"total":3}}'
    ;;
  safe.c)
    echo '{"schema":"seqloc.check/1","verdict":"no-failure-within-bounds","reason":null}'
    ;;
  sleep.c)
    sleep 30 &
    echo $! > "$2.pid"
    wait
    ;;
  stubborn.c)
    trap '' TERM
    sleep 30 &
    echo $! > "$2.pid"
    wait
    wait
    ;;
  crash.c)
    echo "about to crash" >&2
    kill -SEGV $$
    ;;
  garbage.c)
    echo 'Segmentation fault? no: just not JSON'
    ;;
  badinput.c)
    echo "badinput.c:3:5: error: unsupported construct: inline assembly" >&2
    exit 2
    ;;
  oom.c)
    exec "$PYTHON" -c "x = bytearray(1 << 32)"
    ;;
  big.c)
    exec "$PYTHON" -c "x = b'x' * (64 << 20); print('{\"schema\":\"seqloc.check/1\",\"verdict\":\"unknown\",\"reason\":\"bounds too small\"}')"
    ;;
  loc.c)
    echo '{"schema":"seqloc.localize/1","verdict":"failure","reason":null,"candidates":[{"file":"loc.c","line":7,"column":3,"thread":1},{"file":"loc.c","line":9,"column":1}]}'
    ;;
  *)
    echo "fake seqloc: no behaviour for $base" >&2
    exit 1
    ;;
esac
"#;

    /// The real python executable (not a pyenv shim script), if there is one.
    fn python() -> Option<PathBuf> {
        let out = std::process::Command::new("python3")
            .args(["-c", "import sys; print(sys.executable)"])
            .output()
            .ok()?;
        let p = PathBuf::from(String::from_utf8_lossy(&out.stdout).trim());
        (out.status.success() && p.is_file()).then_some(p)
    }

    fn fake_seqloc(dir: &Path, python: Option<&Path>) -> PathBuf {
        let exe = dir.join("fake-seqloc");
        let py = python.map(|p| p.display().to_string()).unwrap_or_default();
        let script = FAKE.replacen("#!/bin/sh\n", &format!("#!/bin/sh\nPYTHON='{py}'\n"), 1);
        std::fs::write(&exe, script).unwrap();
        std::fs::set_permissions(&exe, std::fs::Permissions::from_mode(0o755)).unwrap();
        exe
    }

    fn opts(exe: PathBuf, mode: Mode) -> SweepOptions {
        SweepOptions {
            paths: vec![],
            mode,
            jobs: 4,
            timeout: Duration::from_secs(1),
            memory_mb: 256,
            shard: None,
            extra_args: vec!["--unwind".into(), "3".into()],
            seqloc_exe: exe,
            progress: false,
            witness_dir: None,
            stop: Default::default(),
        }
    }

    const C: &str = "int main(void) { return 0; }\n";

    fn by_id<'a>(r: &'a SweepReport, suffix: &str) -> &'a TaskResult {
        r.tasks
            .iter()
            .find(|t| t.id.ends_with(suffix))
            .unwrap_or_else(|| panic!("no result {suffix} in {:#?}", r.tasks))
    }

    #[test]
    fn runs_a_mixed_sweep_and_survives_every_failure() {
        let files = vec![
            ("b/properties/unreach-call.prp", UNREACH),
            ("b/properties/no-data-race.prp", RACE),
            (
                "b/pthread/bug.yml",
                "format_version: '2.0'\ninput_files: bug.c\nproperties:\n  - property_file: ../properties/unreach-call.prp\n    expected_verdict: false\n  - property_file: ../properties/no-data-race.prp\n    expected_verdict: true\noptions:\n  language: C\n  data_model: LP64\n",
            ),
            ("b/pthread/bug.c", C),
            (
                "b/pthread/safe.yml",
                "format_version: '1.0'\ninput_files: safe.c\nproperties:\n  - property_file: ../properties/unreach-call.prp\n    expected_verdict: false\n",
            ),
            ("b/pthread/safe.c", C),
            ("b/odd/sleep.c", C),
            ("b/odd/stubborn.c", C),
            ("b/odd/crash.c", C),
            ("b/odd/garbage.c", C),
            ("b/odd/badinput.c", C),
        ];
        let dir = tree(&files);
        let exe = fake_seqloc(dir.path(), None);
        let root = dir.path().join("b");
        let tasks = discover(std::slice::from_ref(&root)).unwrap();
        let mut o = opts(exe.clone(), Mode::Check);
        // A child's peak resident memory (`ru_maxrss`) counts the forking process's at
        // the fork: this test binary's, which other tests running beside it can push
        // past half of 256 MiB, and the crashing child's SIGSEGV was then read as
        // "close to the memory limit" (a clean-clone CI run, 2026-12-05).
        o.memory_mb = 1024;
        let clock = Instant::now();
        let r = run(&o, tasks).unwrap();
        let took = clock.elapsed();

        // The sweep completed with every entry, sorted, and in parallel: the two timeouts
        // (1 s + grace each, one with a SIGTERM-proof group) did not run one after the other
        // with everything else.
        assert_eq!(r.tasks.len(), 8, "{:#?}", r.tasks);
        assert!(r.tasks.windows(2).all(|w| w[0].id < w[1].id));
        assert!(took < Duration::from_secs(20), "{took:?}");
        assert_eq!(r.schema, SCHEMA);
        assert_eq!(r.options.jobs, 4);

        let bug = by_id(&r, "bug.yml#unreach-call");
        assert_eq!(bug.status, Status::Correct, "{bug:#?}");
        assert_eq!(bug.verdict, Some(Verdict::Failure));
        assert_eq!(bug.exit_code, Some(0));
        assert!(bug.peak_mem_kib.is_some_and(|m| m > 0), "{bug:#?}");
        assert_eq!(bug.candidates, None);
        let input = root.join("pthread/bug.c");
        let args = std::fs::read_to_string(input.with_extension("c.args")).unwrap();
        let want = format!(
            "check\n{}\n--format\njson\n--data-model\nlp64\n--property\nunreach-call\n--timeout\n1\n--unwind\n3\n",
            input.display()
        );
        assert_eq!(args, want);
        assert!(
            bug.command
                .as_deref()
                .is_some_and(|c| c.contains("--property unreach-call"))
        );

        let race = by_id(&r, "bug.yml#no-data-race");
        assert_eq!(race.status, Status::Skipped);
        assert!(
            race.reason
                .as_deref()
                .is_some_and(|x| x.contains("no-data-race"))
        );
        assert_eq!(race.time_ms, 0);

        let safe = by_id(&r, "safe.yml#unreach-call");
        assert_eq!(safe.status, Status::Wrong);
        assert!(safe.reason.as_deref().is_some_and(|x| x.contains("missed")));
        assert_eq!(safe.data_model, Some(DataModel::Ilp32));

        for name in ["sleep.c#all", "stubborn.c#all"] {
            let t = by_id(&r, name);
            assert_eq!(t.status, Status::Timeout, "{t:#?}");
            assert!(t.time_ms >= 1000 && t.time_ms < 5000, "{t:#?}");
            // The child's own child (the `sleep`) died with the group.
            let pid_file = root
                .join("odd")
                .join(name.trim_end_matches("#all"))
                .with_extension("c.pid");
            let pid: i32 = std::fs::read_to_string(&pid_file)
                .unwrap()
                .trim()
                .parse()
                .unwrap();
            // SIGKILL is delivered asynchronously: give a loaded machine a moment to finish it.
            let deadline = Instant::now() + Duration::from_secs(3);
            while alive(pid) && Instant::now() < deadline {
                std::thread::sleep(Duration::from_millis(20));
            }
            assert!(!alive(pid), "{name}: sleep {pid} survived the group kill");
        }

        let crash = by_id(&r, "crash.c#all");
        assert_eq!(crash.status, Status::Error, "{crash:#?}");
        assert!(
            crash
                .reason
                .as_deref()
                .is_some_and(|x| x.contains("SIGSEGV")),
            "{crash:#?}"
        );
        assert_eq!(crash.exit_code, Some(128 + libc::SIGSEGV));
        assert_eq!(crash.stderr_tail.as_deref(), Some("about to crash"));

        let garbage = by_id(&r, "garbage.c#all");
        assert_eq!(garbage.status, Status::Error);
        assert!(
            garbage
                .reason
                .as_deref()
                .is_some_and(|x| x.contains("unparsable output"))
        );

        let bad = by_id(&r, "badinput.c#all");
        assert_eq!(bad.status, Status::Error);
        assert!(
            bad.reason
                .as_deref()
                .is_some_and(|x| x.contains("input error (exit 2): badinput.c:3:5"))
        );

        // The summary renders whatever happened.
        let table = crate::sweep::render_table(&r);
        assert!(table.contains("total"));
    }

    #[test]
    fn memory_limit_and_peak_memory() {
        let Some(python) = python() else {
            eprintln!("skipped: python3 not found, the memout and peak-memory cases do not run");
            return;
        };
        let dir = tree(&[("b/oom.c", C), ("b/big.c", C)]);
        let exe = fake_seqloc(dir.path(), Some(&python));
        let tasks = discover(&[dir.path().join("b")]).unwrap();
        // A generous time limit: python starts slowly on a loaded machine.
        let mut o = opts(exe, Mode::Check);
        o.timeout = Duration::from_secs(60);
        let r = run(&o, tasks).unwrap();
        // 4 GiB under a 256 MiB RLIMIT_AS: MemoryError.
        let oom = by_id(&r, "oom.c#all");
        assert_eq!(oom.status, Status::Memout, "{oom:#?}");
        assert!(
            oom.stderr_tail
                .as_deref()
                .is_some_and(|x| x.contains("MemoryError"))
        );
        // 64 MiB written: the peak resident memory shows it.
        let big = by_id(&r, "big.c#all");
        assert_eq!(big.status, Status::Unknown, "{big:#?}");
        assert_eq!(big.reason.as_deref(), Some("bounds too small"));
        assert!(big.peak_mem_kib.is_some_and(|m| m >= 64 << 10), "{big:#?}");
    }

    #[test]
    fn sweeps_the_real_svcomp_tree_with_a_fake_seqloc() {
        let root = Path::new(concat!(env!("CARGO_MANIFEST_DIR"), "/../shared/svcomp/c"));
        if !root.is_dir() {
            eprintln!("skipped: ../shared/svcomp not found");
            return;
        }
        let dir = tree(&[]);
        // Answers "failure" for everything: right on the 27 false tasks, wrong on the 29 true.
        let exe = dir.path().join("always-failure");
        std::fs::write(
            &exe,
            "#!/bin/sh\necho '{\"schema\":\"seqloc.check/1\",\"verdict\":\"failure\",\"reason\":null}'\n",
        )
        .unwrap();
        std::fs::set_permissions(&exe, std::fs::Permissions::from_mode(0o755)).unwrap();
        let mut o = opts(exe, Mode::Check);
        o.paths = vec![root.to_path_buf()];
        o.timeout = Duration::from_secs(30);
        let r = crate::sweep::sweep(&o).unwrap();
        let count = |s: Status| r.tasks.iter().filter(|t| t.status == s).count();
        assert_eq!(r.tasks.len(), 58);
        assert_eq!(count(Status::Correct), 27);
        assert_eq!(count(Status::Wrong), 29);
        assert_eq!(count(Status::Skipped), 2);
        let table = crate::sweep::render_table(&r);
        eprintln!("{table}");
        assert!(table.contains("pthread-divine"));
    }

    #[test]
    fn localize_mode_records_candidates_and_hits() {
        let dir = tree(&[
            ("b/properties/unreach-call.prp", UNREACH),
            (
                "b/MANIFEST.json",
                r#"{"version":1,"tasks":{"cat/loc.yml":{"faulty_lines":[9]}}}"#,
            ),
            (
                "b/cat/loc.yml",
                "format_version: '2.0'\ninput_files: loc.c\nproperties:\n  - property_file: ../properties/unreach-call.prp\n    expected_verdict: false\n",
            ),
            ("b/cat/loc.c", C),
        ]);
        let exe = fake_seqloc(dir.path(), None);
        let tasks = discover(&[dir.path().join("b")]).unwrap();
        let r = run(&opts(exe, Mode::Localize), tasks).unwrap();
        assert_eq!(r.mode, Mode::Localize);
        let t = by_id(&r, "loc.yml#unreach-call");
        assert_eq!(t.status, Status::Correct, "{t:#?}");
        assert_eq!((t.candidates, t.hit), (Some(2), Some(true)));
        assert_eq!(t.faulty_lines, Some(vec![9]));
        assert!(
            t.command
                .as_deref()
                .is_some_and(|c| c.contains(" localize "))
        );
    }

    #[test]
    fn shard_option_runs_one_slice() {
        let dir = tree(&[("b/a.c", C), ("b/b.c", C), ("b/c.c", C)]);
        let exe = fake_seqloc(dir.path(), None);
        let tasks = discover(&[dir.path().join("b")]).unwrap();
        let mut o = opts(exe, Mode::Check);
        o.shard = Some((2, 2));
        let r = run(&o, tasks).unwrap();
        // Only b.c; the fake has no behaviour for it, so it is an error, not a crash of the sweep.
        assert_eq!(r.tasks.len(), 1);
        assert!(r.tasks[0].id.ends_with("b/b.c#all"));
        assert_eq!(r.tasks[0].status, Status::Error);
        assert_eq!(r.options.shard.as_deref(), Some("2/2"));
    }

    #[test]
    fn a_stopped_sweep_reports_what_finished() {
        let dir = tree(&[("b/a/bug.c", C), ("b/b/sleep.c", C), ("b/c/safe.c", C)]);
        let exe = fake_seqloc(dir.path(), None);
        let tasks = discover(&[dir.path().join("b")]).unwrap();
        let mut o = opts(exe, Mode::Check);
        o.jobs = 1;
        o.timeout = Duration::from_secs(60);
        // Stop once the second task (30 s of sleep) is running.
        let pid_file = dir.path().join("b/b/sleep.c.pid");
        let stop = o.stop.clone();
        let watcher = std::thread::spawn(move || {
            let deadline = Instant::now() + Duration::from_secs(30);
            while !pid_file.exists() && Instant::now() < deadline {
                std::thread::sleep(Duration::from_millis(20));
            }
            stop.request();
        });
        let clock = Instant::now();
        let r = run(&o, tasks).unwrap();
        watcher.join().unwrap();
        assert!(
            clock.elapsed() < Duration::from_secs(20),
            "{:?}",
            clock.elapsed()
        );
        assert!(r.interrupted);
        assert_eq!(r.tasks.len(), 3, "{:#?}", r.tasks);
        let bug = by_id(&r, "bug.c#all");
        assert_eq!(bug.status, Status::Unscored, "{bug:#?}");
        assert_eq!(bug.verdict, Some(Verdict::Failure));
        let sleep = by_id(&r, "sleep.c#all");
        assert_eq!(sleep.status, Status::Skipped, "{sleep:#?}");
        assert!(
            sleep
                .reason
                .as_deref()
                .is_some_and(|x| x.contains("interrupted"))
        );
        let safe = by_id(&r, "safe.c#all");
        assert_eq!(safe.status, Status::Skipped, "{safe:#?}");
        assert!(
            safe.reason
                .as_deref()
                .is_some_and(|x| x.contains("not run"))
        );
        let json = serde_json::to_value(&r).unwrap();
        assert_eq!(json["interrupted"], true);
    }

    #[test]
    fn a_missing_executable_stops_the_sweep_before_it_starts() {
        let dir = tree(&[("b/a.c", C)]);
        let tasks = discover(&[dir.path().join("b")]).unwrap();
        let e = run(&opts(dir.path().join("nope"), Mode::Check), tasks).unwrap_err();
        assert!(matches!(e, SweepError::Executable { .. }), "{e}");
        assert!(e.to_string().contains("nope"));
    }

    #[test]
    fn builds_the_child_command_line() {
        let dir = tree(&[("x/a.i", C)]);
        let mut tasks = discover(&[dir.path().join("x/a.i")]).unwrap();
        let task = tasks.remove(0);
        let mut o = opts(PathBuf::from("/opt/seq loc/seqloc"), Mode::Localize);
        o.timeout = Duration::from_millis(2500);
        o.extra_args = vec!["--checker".into(), "esbmc".into()];
        let argv = child_argv(&o, &task, &PropertyKind::All, None).unwrap();
        let words: Vec<String> = argv
            .iter()
            .map(|a| a.to_string_lossy().into_owned())
            .collect();
        let input = dir.path().join("x/a.i").display().to_string();
        assert_eq!(
            words,
            [
                "/opt/seq loc/seqloc",
                "localize",
                &input,
                "--format",
                "json",
                "--data-model",
                "ilp32",
                "--property",
                "all",
                "--timeout",
                "3",
                "--checker",
                "esbmc",
            ]
        );
        assert!(child_argv(&o, &task, &PropertyKind::Unsupported("x".into()), None).is_none());
        assert_eq!(
            child_argv(&o, &task, &PropertyKind::NoDeadlock, None).unwrap()[8],
            OsString::from("deadlock")
        );
        assert!(render_command(&argv).starts_with("'/opt/seq loc/seqloc' localize "));
        assert_eq!(render_command(&["it's".into()]), r"'it'\''s'");
        assert_eq!(
            kill_grace(Duration::from_secs(1)),
            Duration::from_millis(500)
        );
        assert_eq!(kill_grace(Duration::from_secs(900)), Duration::from_secs(5));
    }
}
