//! `seqloc localize prog.c --checker esbmc|cbmc` against the real tools, as a user types it:
//! ESBMC 8.4 and CBMC 6.6 (and 5.12), installed by `make checkers` into `.checkers/bin`,
//! which `make test` puts first on PATH. The programs are the project's own benchmarks,
//! with their ground truth from `benchmarks/MANIFEST.json`.
//!
//! Where a checker is not installed the tests print a notice and skip, unless
//! `SEQLOC_REQUIRE_CHECKERS=1` (set by `make test`, and so by CI): then a missing checker
//! fails the test, so CI can never pass without running them.

use std::io::Write as _;
use std::path::{Path, PathBuf};
use std::process::Command;

fn root() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
}

/// The executable of `tool` (`esbmc`, `cbmc`, `cbmc-5.12`) as seqloc would find it: the
/// environment variable, then PATH, then the project's `.checkers/bin`.
fn checker(tool: &str) -> Option<PathBuf> {
    let var = format!("SEQLOC_{}", tool.to_uppercase().replace(['-', '.'], "_"));
    if let Some(p) = std::env::var_os(&var).map(PathBuf::from) {
        if p.is_file() {
            return Some(p);
        }
    }
    let on_path = std::env::var_os("PATH")
        .into_iter()
        .flat_map(|p| std::env::split_paths(&p).collect::<Vec<_>>())
        .map(|d| d.join(tool))
        .find(|p| p.is_file());
    let found = on_path.or_else(|| {
        let p = root().join(".checkers/bin").join(tool);
        p.is_file().then_some(p)
    });
    if found.is_none() {
        let required = std::env::var("SEQLOC_REQUIRE_CHECKERS").is_ok_and(|v| v == "1");
        assert!(
            !required,
            "{tool} is not installed but SEQLOC_REQUIRE_CHECKERS=1: run `make checkers`"
        );
        let _ = writeln!(
            std::io::stderr(),
            "NOTICE: skipped: {tool} not installed (`make checkers` installs it)"
        );
    }
    found
}

struct Run {
    code: i32,
    json: serde_json::Value,
    stdout: String,
    stderr: String,
}

fn seqloc(args: &[&str]) -> Run {
    let out = Command::new(env!("CARGO_BIN_EXE_seqloc"))
        .args(args)
        .env("NO_COLOR", "1")
        .output()
        .expect("runs seqloc");
    let stdout = String::from_utf8_lossy(&out.stdout).into_owned();
    Run {
        code: out.status.code().unwrap_or(-1),
        json: serde_json::from_str(&stdout).unwrap_or(serde_json::Value::Null),
        stdout,
        stderr: String::from_utf8_lossy(&out.stderr).into_owned(),
    }
}

/// `seqloc localize TASK.c --checker TOOL --checker-path EXE --format json`.
fn localize(task: &str, tool: &str, exe: &Path, extra: &[&str]) -> Run {
    let file = root().join("benchmarks").join(format!("{task}.c"));
    let checker = if tool.starts_with("cbmc") {
        "cbmc"
    } else {
        "esbmc"
    };
    let mut args = vec![
        "localize",
        file.to_str().unwrap_or_default(),
        "--checker",
        checker,
        "--checker-path",
        exe.to_str().unwrap_or_default(),
        "--format",
        "json",
        "--timeout",
        "600",
    ];
    args.extend_from_slice(extra);
    seqloc(&args)
}

/// The manifest's faulty lines and property of a task.
fn truth(task: &str) -> (Vec<u64>, String) {
    let text = std::fs::read_to_string(root().join("benchmarks/MANIFEST.json")).expect("manifest");
    let m: serde_json::Value = serde_json::from_str(&text).expect("manifest json");
    let t = &m["tasks"][format!("{task}.yml")];
    let lines = t["faulty_lines"]
        .as_array()
        .into_iter()
        .flatten()
        .filter_map(serde_json::Value::as_u64)
        .collect();
    // The manifest names SV-COMP's property files; seqloc's option says `deadlock`.
    let property = match t["property"].as_str().unwrap_or("") {
        "no-deadlock" => "deadlock",
        p => p,
    };
    (lines, property.to_string())
}

fn candidate_lines(j: &serde_json::Value) -> Vec<u64> {
    j["candidates"]
        .as_array()
        .into_iter()
        .flatten()
        .flat_map(|c| {
            let mut v: Vec<u64> = c["line"].as_u64().into_iter().collect();
            v.extend(
                c["lines"]
                    .as_array()
                    .into_iter()
                    .flatten()
                    .filter_map(serde_json::Value::as_u64),
            );
            v
        })
        .collect()
}

/// A buggy benchmark localized through the real checker: a failure (exit 1) with a
/// ground-truth line among the candidates, and the checker really ran.
fn hits(task: &str, tool: &str) {
    let Some(exe) = checker(tool) else { return };
    let (faulty, property) = truth(task);
    assert!(
        !faulty.is_empty(),
        "{task}: no ground truth in the manifest"
    );
    let r = localize(task, tool, &exe, &["--property", &property]);
    assert_eq!(r.code, 1, "{task} with {tool}:\n{}\n{}", r.stdout, r.stderr);
    let got = candidate_lines(&r.json);
    assert!(
        got.iter().any(|l| faulty.contains(l)),
        "{task} with {tool}: candidates {got:?}, faulty lines {faulty:?}\n{}",
        r.stderr
    );
    let runs = r.json["checker_runs"].as_u64().unwrap_or(0);
    assert!(
        runs >= 2,
        "{task} with {tool}: {runs} checker runs\n{}",
        r.stdout
    );
}

/// A correct benchmark: no failure, no candidates.
fn clean(task: &str, tool: &str) {
    let Some(exe) = checker(tool) else { return };
    let r = localize(task, tool, &exe, &["--property", "unreach-call"]);
    assert_eq!(r.code, 0, "{task} with {tool}:\n{}\n{}", r.stdout, r.stderr);
    assert!(
        candidate_lines(&r.json).is_empty(),
        "{task} with {tool}: {}",
        r.stdout
    );
}

// One program per bug class that each checker's traces are read right on, through each
// checker. `make bench-checkers` runs every benchmark and writes the table of BENCHMARKS.md,
// which lists where they are not (CBMC's traces of programs with mutexes do not replay yet;
// ESBMC's deadlock interleaving of lock_order_two localizes only main's join).

#[test]
fn esbmc_lost_update() {
    hits("concbugs/histogram_lost_update", "esbmc");
}

#[test]
fn cbmc_lost_update() {
    hits("concbugs/histogram_lost_update", "cbmc");
}

#[test]
fn esbmc_lock_released_between_two_updates() {
    hits("concbugs/transfer_two_locks", "esbmc");
}

/// CBMC prints lock calls away from where the locks were taken (see `trace::cbmc`).
#[test]
fn cbmc_lock_released_between_two_updates() {
    hits("concbugs/transfer_two_locks", "cbmc");
}

#[test]
fn esbmc_order_violation() {
    hits("concbugs/message_flag_before_data", "esbmc");
}

#[test]
fn cbmc_order_violation() {
    hits("concbugs/message_flag_before_data", "cbmc");
}

#[test]
fn cbmc_lock_order_deadlock() {
    hits("deadlock/lock_order_two", "cbmc");
}

#[test]
fn esbmc_paper_atomicity() {
    hits("paper/lazy01_bad", "esbmc");
}

/// ESBMC 8.4's trace of `lazy01_bad` does not show an unlock: every reading of it has a
/// thread take a mutex another holds. It is refused with the locks honoured (never
/// explained as a schedule that cannot happen), and the failing interleaving is the
/// built-in search's, along which ESBMC localizes.
#[test]
fn esbmc_interleavings_must_honour_the_locks() {
    let Some(exe) = checker("esbmc") else { return };
    let r = localize("paper/lazy01_bad", "esbmc", &exe, &[]);
    assert_eq!(r.code, 1, "{}\n{}", r.stdout, r.stderr);
    let reason = r.json["reason"].as_str().unwrap_or_default();
    if reason.contains("does not reproduce") {
        assert!(reason.contains("with the locks honoured"), "{reason}");
        assert!(reason.contains("in its place"), "{reason}");
    }
    // Whichever interleaving was kept, it honours the locks: no candidate says two
    // threads held one mutex.
    let text = r.json.to_string();
    assert!(!text.contains("a different mutex in each"), "{text}");
}

/// ESBMC 8.4 answers VERIFICATION SUCCESSFUL on this program (main's stack struct, written
/// by the thread it is handed to, read before the join): its "no failure" on a program
/// whose locals another thread reaches is no verdict. Never exit 0: a failure (should a
/// later ESBMC find it) or UNKNOWN naming the local.
#[test]
fn esbmc_no_failure_with_an_escaped_local_is_unknown() {
    let Some(exe) = checker("esbmc") else { return };
    let task = "seeds/parse_count_before_join_bad";
    let r = localize(task, "esbmc", &exe, &["--property", "unreach-call"]);
    match r.code {
        1 => {}
        3 => assert!(
            r.stdout.contains("local variable another thread reaches")
                && r.stdout.contains("`job`"),
            "{task}: {}",
            r.stdout
        ),
        c => panic!(
            "{task} with esbmc: exit {c} (a wrong verdict)\n{}\n{}",
            r.stdout, r.stderr
        ),
    }
}

/// CBMC shows the call of a thread's start routine as its library's: the first call it
/// shows of a thread whose first statement is `ensure_ready()` is that callee, which the
/// schedule must not take for the thread's function (it did until 2026-11-28: "the
/// schedule cannot be replayed", UNKNOWN).
#[test]
fn cbmc_thread_starting_with_a_call_is_localized() {
    hits("concbugs/lazy_init_twice", "cbmc");
}

/// Three threads start with a call of the same `log_event`: which one a thread runs is
/// read off the `start_routine` CBMC binds at its `pthread_create`, in creation order.
#[test]
fn cbmc_threads_starting_with_a_shared_helper_are_told_apart() {
    hits("stress/journal_helper_depth2", "cbmc");
}

/// CBMC shows a `pthread_join` that waits to the end of the trace by its location only,
/// naming no thread: `main` did not go past it (until 2026-11-28 the mapping took it as
/// run, and the replay refused `main` passing a join of a thread still running).
#[test]
fn cbmc_join_shown_only_by_its_location_is_not_passed() {
    hits("concbugs/stats_multivar_race", "cbmc");
}

#[test]
fn cbmc_correct_program_has_no_candidates() {
    clean("correct/account_ok", "cbmc");
}

/// CBMC 6.6 declines this correct program (threads sharing heap pointers: "pointer
/// handling for concurrency is unsound"); seqloc's built-in checker, asked in its place,
/// explores every execution, and that proof is the answer (it was UNKNOWN until
/// 2026-12-04).
#[test]
fn cbmc_declined_correct_program_has_the_builtin_proof() {
    clean("correct/malloc_pop_ok", "cbmc");
}

/// ESBMC reaches its deepest loop bound on this correct program (up to 64 threads created in
/// a loop) and answers nothing; seqloc's built-in checker, asked in its place, proves it by
/// a counting argument, and that proof is the answer (it was UNKNOWN until 2026-12-04).
#[test]
fn esbmc_loop_bound_reached_has_the_builtin_proof() {
    clean("correct/ticket_clerks_ok", "esbmc");
}

/// CBMC 5.12 (Debian 11's): the flags chosen for a version before 6 (no
/// `--no-standard-checks`) are accepted, and it finds and localizes the order violation.
#[test]
fn cbmc_5_12_order_violation() {
    hits("concbugs/message_flag_before_data", "cbmc-5.12");
}

/// `seqloc --version` names the checkers it finds, with their versions.
#[test]
fn version_lists_the_checkers_found() {
    let (Some(esbmc), Some(cbmc)) = (checker("esbmc"), checker("cbmc")) else {
        return;
    };
    let out = Command::new(env!("CARGO_BIN_EXE_seqloc"))
        .arg("--version")
        .env("SEQLOC_ESBMC", &esbmc)
        .env("SEQLOC_CBMC", &cbmc)
        .output()
        .expect("runs seqloc");
    let text = String::from_utf8_lossy(&out.stdout);
    assert!(text.contains("built-in checker: Z3 "), "{text}");
    assert!(text.contains("esbmc: ESBMC 8."), "{text}");
    assert!(text.contains("cbmc: CBMC 6."), "{text}");
}

/// A program CBMC 6 refuses to analyse soundly (threads sharing heap pointers): seqloc says
/// unknown with CBMC's reason, never a verdict.
#[test]
fn cbmc_unsound_pointer_abort_is_unknown() {
    let Some(exe) = checker("cbmc") else { return };
    let tmp = tempfile::tempdir().expect("tempdir");
    let prog = tmp.path().join("heap_share.c");
    std::fs::write(
        &prog,
        "#include <pthread.h>\n#include <stdlib.h>\n#include <assert.h>\n\
         int *cell;\n\
         void *worker(void *arg) { int *p = arg; *p = *p + 1; return 0; }\n\
         int main(void) {\n  pthread_t t;\n  cell = malloc(sizeof *cell);\n  if (!cell) return 0;\n  *cell = 0;\n\
         \x20 pthread_create(&t, 0, worker, cell);\n  *cell = *cell + 1;\n  pthread_join(t, 0);\n\
         \x20 assert(*cell == 2);\n  return 0;\n}\n",
    )
    .expect("write");
    let r = seqloc(&[
        "check",
        prog.to_str().unwrap_or_default(),
        "--checker",
        "cbmc",
        "--checker-path",
        exe.to_str().unwrap_or_default(),
        "--property",
        "unreach-call",
        "--json",
        "--timeout",
        "300",
    ]);
    let verdict = r.json["verdict"].as_str().unwrap_or_default();
    assert_ne!(verdict, "no-failure-within-bounds", "{}", r.stdout);
    if verdict == "unknown" {
        // CBMC's abort, or a failure of CBMC's that seqloc's replay does not reproduce
        // (then the checker's word only: no verdict).
        assert!(
            r.stdout.contains("unsound") || r.stdout.contains("does not reproduce"),
            "unknown without CBMC's reason: {}",
            r.stdout
        );
    } else {
        // CBMC may also find the race before it gives up on the pointers: then seqloc must
        // have replayed it.
        assert_eq!(verdict, "failure", "{}\n{}", r.stdout, r.stderr);
    }
}

/// A relative `--checker-path` names the file from where the user typed it, although the
/// checker runs in seqloc's temp dir.
#[test]
fn relative_checker_path_is_taken_from_the_working_directory() {
    let Some(exe) = checker("esbmc") else { return };
    let tmp = tempfile::tempdir().expect("tempdir");
    std::os::unix::fs::symlink(&exe, tmp.path().join("my-esbmc")).expect("symlink");
    let prog = root().join("examples/lost_update.c");
    let out = Command::new(env!("CARGO_BIN_EXE_seqloc"))
        .current_dir(tmp.path())
        .args([
            "check",
            prog.to_str().unwrap_or_default(),
            "--checker",
            "esbmc",
            "--checker-path",
            "./my-esbmc",
            "--property",
            "unreach-call",
            "--json",
            "--timeout",
            "300",
        ])
        .output()
        .expect("runs seqloc");
    let stdout = String::from_utf8_lossy(&out.stdout);
    assert_eq!(
        out.status.code(),
        Some(1),
        "{stdout}\n{}",
        String::from_utf8_lossy(&out.stderr)
    );
}

/// ESBMC's own library makes a self-join wait for ever, so ESBMC reports a deadlock on a
/// correct program that seqloc's replay cannot reproduce (Linux answers EDEADLK at once).
/// That is the checker's word against the replay: UNKNOWN (exit 3), never a verdict; with
/// `--raw` the user asked for the checker's own answer.
#[test]
fn esbmc_deadlock_seqloc_cannot_replay_is_unknown() {
    let Some(exe) = checker("esbmc") else { return };
    let prog = root().join("tests/programs/issue26/self_join_ok.c");
    let args = |extra: &[&'static str]| {
        let mut a = vec![
            "check".to_string(),
            prog.to_string_lossy().into_owned(),
            "--checker".into(),
            "esbmc".into(),
            "--checker-path".into(),
            exe.to_string_lossy().into_owned(),
            "--format".into(),
            "json".into(),
            "--timeout".into(),
            "120".into(),
        ];
        a.extend(extra.iter().map(|s| s.to_string()));
        a
    };
    let a = args(&[]);
    let r = seqloc(&a.iter().map(String::as_str).collect::<Vec<_>>());
    let verdict = r.json["verdict"].as_str().unwrap_or_default();
    assert!(
        verdict == "unknown" || verdict == "no-failure-within-bounds",
        "{verdict}: {}\n{}",
        r.stdout,
        r.stderr
    );
    if verdict == "unknown" {
        assert_eq!(r.code, 3, "{}", r.stdout);
        assert!(r.stdout.contains("could not confirm"), "{}", r.stdout);
    }
}

/// `seqloc check examples/lost_update.c --checker TOOL --format json` with `extra`.
fn check_example(tool: &str, exe: &Path, extra: &[&str]) -> Run {
    let prog = root().join("examples/lost_update.c");
    let mut args = vec![
        "check",
        prog.to_str().unwrap_or_default(),
        "--checker",
        tool,
        "--checker-path",
        exe.to_str().unwrap_or_default(),
        "--format",
        "json",
    ];
    args.extend_from_slice(extra);
    seqloc(&args)
}

/// Under a memory limit too small for them, ESBMC dies of SIGSEGV and CBMC's preprocessor
/// of an internal compiler error: that is the limit, reported as such (UNKNOWN, exit 3,
/// `limit: "memory"`, the value named), never as a crash or a verdict.
#[test]
fn a_memory_limit_too_small_for_the_checker_is_the_memory_limit() {
    for tool in ["esbmc", "cbmc"] {
        let Some(exe) = checker(tool) else { continue };
        let r = check_example(tool, &exe, &["--memory-limit", "30"]);
        assert_eq!(r.code, 3, "{tool}: {}\n{}", r.stdout, r.stderr);
        assert_eq!(r.json["schema"], "seqloc.check/1", "{tool}: {}", r.stdout);
        assert_eq!(r.json["verdict"], "unknown", "{tool}: {}", r.stdout);
        assert_eq!(r.json["limit"], "memory", "{tool}: {}", r.stdout);
        let reason = r.json["reason"].as_str().unwrap_or_default();
        assert!(reason.contains("memory limit of 30 MB"), "{tool}: {reason}");
    }
}

/// `--context-switches K` holds for ESBMC and CBMC too: ESBMC counts its context bound
/// its own way and CBMC has none, so a counterexample with more switches is beyond the
/// bounds (UNKNOWN, exit 3), never the answer.
#[test]
fn context_switches_bound_external_counterexamples() {
    for tool in ["esbmc", "cbmc"] {
        let Some(exe) = checker(tool) else { continue };
        let r = check_example(tool, &exe, &["--context-switches", "2", "--timeout", "120"]);
        if r.json["verdict"] == "failure" {
            let blocks = r.json["schedule"]["blocks"]
                .as_array()
                .cloned()
                .unwrap_or_default();
            let switches = blocks
                .windows(2)
                .filter(|w| w[0]["thread"] != w[1]["thread"])
                .count();
            assert!(switches <= 2, "{tool}: {}", r.stdout);
        } else {
            assert_ne!(r.code, 1, "{tool}: {}", r.stdout);
        }
    }
}

/// `seqloc localize tests/programs/esbmc_misses/NAME.c --checker esbmc` (JSON).
fn localize_own(name: &str, exe: &Path, property: &str) -> Run {
    localize_own_with(name, "esbmc", exe, property)
}

fn localize_own_with(name: &str, kind: &str, exe: &Path, property: &str) -> Run {
    localize_file(
        &root().join(format!("tests/programs/esbmc_misses/{name}.c")),
        kind,
        exe,
        property,
    )
}

/// `seqloc localize PROG --checker KIND` (JSON, 300 s).
fn localize_file(prog: &Path, kind: &str, exe: &Path, property: &str) -> Run {
    localize_file_with(prog, kind, exe, property, &[])
}

/// [`localize_file`] with `extra` arguments.
fn localize_file_with(prog: &Path, kind: &str, exe: &Path, property: &str, extra: &[&str]) -> Run {
    let mut args = vec![
        "localize",
        prog.to_str().unwrap_or_default(),
        "--checker",
        kind,
        "--checker-path",
        exe.to_str().unwrap_or_default(),
        "--property",
        property,
        "--format",
        "json",
        "--timeout",
        "300",
    ];
    args.extend_from_slice(extra);
    seqloc(&args)
}

/// A failure ESBMC finds in one of the programs it used to miss or whose trace seqloc
/// could not read: localized (exit 1), a faulty line among the candidates.
fn esbmc_localizes_own(name: &str, property: &str, faulty: &[u64]) {
    localizes_own("esbmc", name, property, faulty);
}

fn localizes_own(kind: &str, name: &str, property: &str, faulty: &[u64]) {
    let Some(exe) = checker(kind) else { return };
    let r = localize_own_with(name, kind, &exe, property);
    assert_eq!(r.code, 1, "{name}:\n{}\n{}", r.stdout, r.stderr);
    let got = candidate_lines(&r.json);
    assert!(
        got.iter().any(|l| faulty.contains(l)),
        "{name}: candidates {got:?}, faulty lines {faulty:?}\n{}",
        r.stdout
    );
}

/// ESBMC 8.4 loses the interleavings between calls of `__VERIFIER_atomic_*` functions
/// (VERIFICATION SUCCESSFUL on this lost update); seqloc gives it the functions renamed,
/// each call in an atomic section of its own (`checker::external::atomics`). Until
/// 2026-11-28 its "no failure" here was UNKNOWN.
#[test]
fn esbmc_atomic_functions_keep_their_interleavings() {
    esbmc_localizes_own("atomic_read_then_write", "unreach-call", &[21, 22]);
}

/// The same rewriting on a correct program: each call stays atomic, so ESBMC's "no
/// failure" is an answer now (no doubt left to make it UNKNOWN), and never a failure.
#[test]
fn esbmc_atomic_function_that_is_correct_has_no_failure() {
    let Some(exe) = checker("esbmc") else { return };
    let r = localize_own("atomic_add_ok", &exe, "unreach-call");
    assert_eq!(r.code, 0, "{}\n{}", r.stdout, r.stderr);
    assert!(candidate_lines(&r.json).is_empty(), "{}", r.stdout);
}

/// CBMC makes a `__VERIFIER_atomic_*` function's body atomic from its entry and shows the
/// call's own steps anywhere among the thread's local steps: read by its shared steps
/// alone, a run ended between a call and its body, which seqloc runs as one step, and the
/// schedule did not replay (UNKNOWN until 2026-12-02). Each invocation is now placed
/// where its first shared access is (`checker::external::mapping::atomic_calls`).
#[test]
fn cbmc_atomic_function_calls_are_placed_by_their_bodies() {
    localizes_own("cbmc", "atomic_read_then_write", "unreach-call", &[21, 22]);
    // And the correct one stays without a failure.
    let Some(exe) = checker("cbmc") else { return };
    let r = localize_own_with("atomic_add_ok", "cbmc", &exe, "unreach-call");
    assert_eq!(r.code, 0, "{}\n{}", r.stdout, r.stderr);
    assert!(candidate_lines(&r.json).is_empty(), "{}", r.stdout);
}

/// CBMC shows an explicit atomic section's begin as a step of no place among its thread's
/// local steps: read by the shared steps, a run ended between the begin and the access
/// after it, where no other thread can run, and the schedule did not replay (UNKNOWN until
/// 2026-12-02, as SV-COMP's `fib_bench-2` and `triangular-2` were). It ends before the
/// begin now.
#[test]
fn cbmc_runs_end_before_an_atomic_section_not_inside_it() {
    localizes_own(
        "cbmc",
        "atomic_sections_in_loops",
        "unreach-call",
        &[16, 26],
    );
}

/// In a deadlock every thread's last run goes on until it blocks: ESBMC 8 shows no
/// pthread call, so a relocking thread's last shown step is before its call of the
/// function that locks, and `main`'s before its `pthread_create` calls. Until 2026-11-28 the deadlock was
/// "unconfirmed" (UNKNOWN). `--alone`: ESBMC's own deadlock trace, not the built-in
/// deadlock search's beside it.
#[test]
fn esbmc_deadlock_runs_end_where_threads_block() {
    let Some(exe) = checker("esbmc") else { return };
    let prog = root().join("tests/programs/esbmc_misses/relock_in_callee.c");
    let r = localize_file_with(&prog, "esbmc", &exe, "deadlock", &["--alone"]);
    assert_eq!(r.code, 1, "{}\n{}", r.stdout, r.stderr);
    assert!(
        !reason(&r).contains("built-in"),
        "ESBMC's own deadlock: {}",
        reason(&r)
    );
    let got = candidate_lines(&r.json);
    assert!(
        got.iter().any(|l| [13, 20, 22, 29].contains(l)),
        "candidates {got:?}\n{}",
        r.stdout
    );
}

/// ESBMC 8 shows no step for `pthread_create`: a thread that runs was created, so its
/// creator's run went past the call. Until 2026-11-28 `main` was stopped before it and
/// the replay refused the schedule (UNKNOWN).
#[test]
fn esbmc_creator_runs_past_the_create_it_does_not_show() {
    esbmc_localizes_own("size_set_after_spawn", "unreach-call", &[19, 20]);
}

/// `main` leaves its loop of `pthread_create` calls (ESBMC shows the condition, not the
/// `break`, nor the calls) and is never run again: its last run ends where it blocks (the
/// first join), not before the loop's first statement. Until 2026-11-28 no reading of the
/// trace replayed (UNKNOWN).
#[test]
fn esbmc_thread_that_left_a_loop_runs_to_its_end() {
    esbmc_localizes_own(
        "close_loop_then_send",
        "unreach-call",
        &[15, 16, 17, 18, 27, 28, 32, 33, 34],
    );
}

/// ESBMC 8.4 loses the interleavings on `main`'s stack struct that the thread it is
/// handed to writes (VERIFICATION SUCCESSFUL here); seqloc prints it at file scope for
/// ESBMC (`checker::external::locals`). Until 2026-11-28 its "no failure" was UNKNOWN.
#[test]
fn esbmc_mains_local_other_threads_reach_keeps_its_interleavings() {
    esbmc_localizes_own("stack_counter_read_early", "unreach-call", &[29, 30]);
}

/// The reason a localization's report gives for how its failure was found.
fn reason(r: &Run) -> String {
    r.json["reason"].as_str().unwrap_or_default().to_string()
}

/// ESBMC 8.4 says VERIFICATION SUCCESSFUL on lost updates to allocated memory reached
/// through a thread's local pointer (a `malloc`ed struct handed to each thread, a
/// `calloc`ed counter bumped through a local copy of the pointer): seqloc's verdict was
/// "no failure" (exit 0) on both. Now that "no failure" is doubted, the built-in checker
/// finds the interleaving, and ESBMC localizes along it.
#[test]
fn esbmc_heap_lost_updates_are_found_in_its_place_and_localized() {
    for (name, faulty) in [
        ("heap_struct_by_arg", &[23u64, 24][..]),
        ("heap_counter_by_local", &[20, 21][..]),
    ] {
        let Some(exe) = checker("esbmc") else { return };
        let r = localize_own_with(name, "esbmc", &exe, "unreach-call");
        assert_eq!(r.code, 1, "{name}:\n{}\n{}", r.stdout, r.stderr);
        assert!(
            reason(&r).contains("allocated memory"),
            "{name}: {}",
            reason(&r)
        );
        let got = candidate_lines(&r.json);
        assert!(
            got.iter().any(|l| faulty.contains(l)),
            "{name}: candidates {got:?}, faulty {faulty:?}"
        );
    }
}

/// CBMC 6.6 aborts the same programs ("pointer handling for concurrency is unsound"):
/// UNKNOWN until now. The sequential programs along a failing interleaving have no
/// threads, and CBMC runs those: the built-in checker finds the interleaving, CBMC
/// localizes.
#[test]
fn cbmc_declined_program_is_localized_along_the_builtin_interleaving() {
    let Some(exe) = checker("cbmc") else { return };
    let r = localize_own_with("heap_struct_by_arg", "cbmc", &exe, "unreach-call");
    assert_eq!(r.code, 1, "{}\n{}", r.stdout, r.stderr);
    assert!(reason(&r).contains("declined"), "{}", reason(&r));
    let got = candidate_lines(&r.json);
    assert!(got.iter().any(|l| [23, 24].contains(l)), "{got:?}");
}

/// `T *p = malloc(sizeof *p)` and `int x = f(&x)` name the variable in its own
/// initializer; the printed program hoisted the call above the declaration, and ESBMC
/// and CBMC stopped on it ("failed to find symbol").
#[test]
fn initializers_that_name_their_own_variable_print_for_both_checkers() {
    for kind in ["esbmc", "cbmc"] {
        let Some(exe) = checker(kind) else { return };
        let r = localize_own_with("self_reference_init", kind, &exe, "unreach-call");
        assert_eq!(r.code, 1, "{kind}:\n{}\n{}", r.stdout, r.stderr);
        let got = candidate_lines(&r.json);
        assert!(got.contains(&28), "{kind}: {got:?}");
    }
}

/// CBMC interleaves the loader's and the worker's loops step by step (8 context switches
/// where the failure needs fewer); along that schedule the creation of the worker before
/// the loader is joined (line 49) was no candidate at all. The switches the failure does
/// not need are taken out by replay first, and line 49 is found, first.
#[test]
fn cbmc_interleaving_is_simplified_before_it_is_localized() {
    let Some(exe) = checker("cbmc") else { return };
    let prog = root().join("benchmarks/concbugs/table_use_before_init.c");
    let r = localize_file(&prog, "cbmc", &exe, "unreach-call");
    assert_eq!(r.code, 1, "{}\n{}", r.stdout, r.stderr);
    assert!(reason(&r).contains("taken out"), "{}", reason(&r));
    let got = candidate_lines(&r.json);
    assert_eq!(got.first(), Some(&49), "{got:?}");
}

/// A program with a primitive ESBMC's or CBMC's own pthread library does not model as
/// POSIX does (a semaphore, `pthread_once`, a barrier, an error-checking mutex) was refused
/// with them. The built-in checker now searches in their place, and the real checker
/// localizes along its failing interleaving: the sequential programs hold seqloc's own
/// models of the primitives. A correct one is answered by the built-in checker's search.
#[test]
fn unmodelled_primitives_are_searched_by_the_builtin_checker_and_localized_by_the_real_one() {
    for (kind, prog, faulty) in [
        ("esbmc", "sem_bounded_buffer_fail.c", 16),
        ("cbmc", "sem_bounded_buffer_fail.c", 16),
        ("esbmc", "barrier_phase_fail.c", 14),
        ("cbmc", "once_reader_fail.c", 15),
        ("cbmc", "mutex_errorcheck_fail.c", 19),
    ] {
        let Some(exe) = checker(kind) else { return };
        let path = root().join("tests/programs/issue26").join(prog);
        let r = localize_file(&path, kind, &exe, "unreach-call");
        assert_eq!(r.code, 1, "{kind} {prog}:\n{}\n{}", r.stdout, r.stderr);
        assert!(
            reason(&r).contains("did not search the program"),
            "{kind} {prog}: {}",
            reason(&r)
        );
        let got = candidate_lines(&r.json);
        assert!(got.contains(&faulty), "{kind} {prog}: {got:?}");
    }
    let Some(exe) = checker("esbmc") else { return };
    let path = root().join("tests/programs/issue26/sem_bounded_buffer_ok.c");
    let r = seqloc(&[
        "check",
        path.to_str().unwrap_or_default(),
        "--checker",
        "esbmc",
        "--checker-path",
        exe.to_str().unwrap_or_default(),
        "--json",
    ]);
    assert_eq!(r.code, 0, "{}\n{}", r.stdout, r.stderr);
}

/// A checker whose search of the multi-threaded program is slow: this wrapper runs the
/// real one on programs without threads (the sequential programs seqloc localizes with)
/// and sleeps on the others, as ESBMC's search does on `wronglock_bad` for minutes. Once
/// the checker has searched alone for a quarter of the time limit, the built-in search
/// joins it; its failing interleaving stops the checker's run, the real checker localizes
/// along it, and the report says whose interleaving it was. With `--raw` the checker's own
/// search is all there is, and its time limit is the answer.
/// A wrapper around the real checker `exe`, written to `dir/kind`, that never answers on a
/// multi-threaded program (it sleeps) and runs the checker on the sequential ones.
fn slow_wrapper(dir: &Path, kind: &str, exe: &Path) -> PathBuf {
    use std::os::unix::fs::PermissionsExt;
    let slow = dir.join(kind);
    std::fs::write(
        &slow,
        format!(
            "#!/bin/sh\nfor a in \"$@\"; do\n  case \"$a\" in\n    *.c) if grep -q 'pthread_create *(' \"$a\"; then exec sleep 600; fi ;;\n  esac\ndone\nexec '{}' \"$@\"\n",
            exe.display()
        ),
    )
    .expect("write the wrapper");
    std::fs::set_permissions(&slow, std::fs::Permissions::from_mode(0o755)).expect("chmod");
    slow
}

#[test]
fn a_slow_checker_is_joined_by_the_builtin_search() {
    for kind in ["esbmc", "cbmc"] {
        let Some(exe) = checker(kind) else { return };
        let tmp = tempfile::tempdir().expect("tempdir");
        let slow = slow_wrapper(tmp.path(), kind, &exe);
        let task = "concbugs/histogram_lost_update";
        let (faulty, _) = truth(task);
        let file = root().join("benchmarks").join(format!("{task}.c"));
        let run = |timeout: &str, extra: &[&str]| {
            let mut args = vec![
                "localize",
                file.to_str().unwrap_or_default(),
                "--checker",
                kind,
                "--checker-path",
                slow.to_str().unwrap_or_default(),
                "--property",
                "unreach-call",
                "--format",
                "json",
                "--timeout",
                timeout,
            ];
            args.extend_from_slice(extra);
            seqloc(&args)
        };
        let r = run("60", &[]);
        assert_eq!(r.code, 1, "{kind}:\n{}\n{}", r.stdout, r.stderr);
        assert!(
            reason(&r).contains("searching beside it"),
            "{kind}: {}",
            reason(&r)
        );
        let got = candidate_lines(&r.json);
        assert!(
            got.iter().any(|l| faulty.contains(l)),
            "{kind}: candidates {got:?}, faulty lines {faulty:?}\n{}",
            r.stdout
        );
        for alone in ["--raw", "--alone"] {
            let r = run("8", &[alone]);
            assert_eq!(r.code, 3, "{kind} {alone}:\n{}\n{}", r.stdout, r.stderr);
        }
    }
}

/// A wrapper around the real ESBMC that never answers on multi-threaded programs: the
/// built-in deadlock search runs beside its `--deadlock-check` from the start, finds the
/// deadlock, and ESBMC localizes along it — long before the whole built-in search would
/// have joined (a quarter of the time limit). With `--alone`, ESBMC's own search only,
/// the time limit is the answer.
#[test]
fn a_slow_deadlock_check_has_the_builtin_deadlock_search_beside_it() {
    let Some(exe) = checker("esbmc") else { return };
    let tmp = tempfile::tempdir().expect("tempdir");
    let slow = slow_wrapper(tmp.path(), "esbmc", &exe);
    let task = "deadlock/lock_order_two";
    let (faulty, _) = truth(task);
    let file = root().join("benchmarks").join(format!("{task}.c"));
    let run = |timeout: &str, extra: &[&str]| {
        let mut args = vec![
            "localize",
            file.to_str().unwrap_or_default(),
            "--checker",
            "esbmc",
            "--checker-path",
            slow.to_str().unwrap_or_default(),
            "--property",
            "deadlock",
            "--format",
            "json",
            "--timeout",
            timeout,
        ];
        args.extend_from_slice(extra);
        seqloc(&args)
    };
    let r = run("120", &[]);
    assert_eq!(r.code, 1, "{}\n{}", r.stdout, r.stderr);
    assert_eq!(r.json["verdict"], "deadlock", "{}", r.stdout);
    assert!(
        reason(&r).contains("beside ESBMC's --deadlock-check"),
        "{}",
        reason(&r)
    );
    let got = candidate_lines(&r.json);
    assert!(
        got.iter().any(|l| faulty.contains(l)),
        "candidates {got:?}, faulty lines {faulty:?}\n{}",
        r.stdout
    );
    let r = run("8", &["--alone"]);
    assert_eq!(r.code, 3, "--alone:\n{}\n{}", r.stdout, r.stderr);
}

/// On a correct program the built-in search that joins a slow checker explores every
/// execution (no bound cuts any): that proof is the answer, and the checker is stopped —
/// before 2026-12-04 such a program stayed UNKNOWN until the time limit. A bounded
/// "no failure" would not stop the checker; with `--alone` the time limit is the answer.
#[test]
fn a_slow_checker_on_a_correct_program_has_the_builtin_proof() {
    for kind in ["esbmc", "cbmc"] {
        let Some(exe) = checker(kind) else { return };
        let tmp = tempfile::tempdir().expect("tempdir");
        let slow = slow_wrapper(tmp.path(), kind, &exe);
        let file = root().join("benchmarks/correct/histogram_ok.c");
        let run = |timeout: &str, extra: &[&str]| {
            let mut args = vec![
                "localize",
                file.to_str().unwrap_or_default(),
                "--checker",
                kind,
                "--checker-path",
                slow.to_str().unwrap_or_default(),
                "--property",
                "unreach-call",
                "--format",
                "json",
                "--timeout",
                timeout,
            ];
            args.extend_from_slice(extra);
            seqloc(&args)
        };
        let r = run("60", &[]);
        assert_eq!(r.code, 0, "{kind}:\n{}\n{}", r.stdout, r.stderr);
        assert_eq!(
            r.json["verdict"], "no-failure-within-bounds",
            "{}",
            r.stdout
        );
        assert!(
            reason(&r).contains("explored every execution"),
            "{kind}: {}",
            reason(&r)
        );
        assert!(candidate_lines(&r.json).is_empty(), "{}", r.stdout);
        let r = run("8", &["--alone"]);
        assert_eq!(r.code, 3, "{kind} --alone:\n{}\n{}", r.stdout, r.stderr);
    }
}

/// C11's `<threads.h>`, which the front end lowers onto the pthread calls, runs with the
/// real checkers too: the printed program holds the pthread calls. Both localize the
/// split critical section (line 17). On the correct twin ESBMC agrees; CBMC "finds" a
/// failure that seqloc's replay does not reproduce (the threads' results come back
/// through `pthread_join`, which CBMC 6.6 does not hand back as POSIX does: the same
/// program written with pthreads is answered the same way), so the answer is UNKNOWN,
/// never a wrong failure.
#[test]
fn c11_threads_run_with_the_real_checkers() {
    let fail = root().join("tests/programs/issue26/c11_split_section_fail.c");
    let ok = root().join("tests/programs/issue26/c11_split_section_ok.c");
    for kind in ["esbmc", "cbmc"] {
        let Some(exe) = checker(kind) else { return };
        let r = localize_file(&fail, kind, &exe, "unreach-call");
        assert_eq!(r.code, 1, "{kind}:\n{}\n{}", r.stdout, r.stderr);
        let got = candidate_lines(&r.json);
        assert!(got.contains(&17), "{kind}: {got:?}");
        let r = seqloc(&[
            "check",
            ok.to_str().unwrap_or_default(),
            "--checker",
            kind,
            "--checker-path",
            exe.to_str().unwrap_or_default(),
            "--json",
        ]);
        let want = if kind == "esbmc" { 0 } else { 3 };
        assert_eq!(r.code, want, "{kind}:\n{}\n{}", r.stdout, r.stderr);
    }
}

/// A failure that needs a timed wait to wake spuriously: the real checkers' traces name no
/// such choice (their libraries make it silently), so the diagnosis model along their
/// interleaving takes it from seqloc's replay of that interleaving. With it left free,
/// ESBMC passed the model with no line changed and `localize` stopped with exit 3.
#[test]
fn timed_waits_that_wake_spuriously_are_localized_by_the_real_checkers() {
    for kind in ["esbmc", "cbmc"] {
        let Some(exe) = checker(kind) else { continue };
        for (prog, faulty) in [
            ("cond_timedwait_unsignalled_fail.c", 22),
            ("cond_timedwait_spurious_fail.c", 20),
        ] {
            let path = root().join("tests/programs/issue26").join(prog);
            let r = localize_file(&path, kind, &exe, "unreach-call");
            assert_eq!(r.code, 1, "{kind} {prog}:\n{}\n{}", r.stdout, r.stderr);
            let got = candidate_lines(&r.json);
            assert!(got.contains(&faulty), "{kind} {prog}: {got:?}");
        }
    }
}

/// Both checkers' pthread models report "must hold lock upon unlock"; seqloc localizes it
/// as the unlock property (before 2026-12-06 it answered UNKNOWN, "a property seqloc does
/// not localize"). ESBMC's trace shows no step for the failing unlock (its check is inside
/// the model): seqloc's replay names the call. The unlock on the error path is first;
/// the fixed program has no failure. With `--property unreach-call` the program, which
/// asserts nothing, has no failure: the unlock the checkers stop at is not the property
/// asked for (CBMC's model stops there whatever is asked, and the built-in checker
/// answers in its place).
#[test]
fn unlocks_of_a_free_mutex_are_localized_by_the_real_checkers() {
    let dir = root().join("tests/programs/issue26");
    for kind in ["esbmc", "cbmc"] {
        let Some(exe) = checker(kind) else { continue };
        let r = localize_file(&dir.join("unlock_unheld_fail.c"), kind, &exe, "all");
        assert_eq!(r.code, 1, "{kind}:\n{}\n{}", r.stdout, r.stderr);
        assert_eq!(r.json["property"]["kind"], "unlock", "{kind}: {}", r.stdout);
        assert_eq!(r.json["property"]["line"], 17, "{kind}: {}", r.stdout);
        let got = candidate_lines(&r.json);
        assert_eq!(got.first(), Some(&17), "{kind}: {got:?}\n{}", r.stdout);
        let ok = localize_file(&dir.join("unlock_unheld_ok.c"), kind, &exe, "all");
        assert_eq!(ok.code, 0, "{kind}:\n{}\n{}", ok.stdout, ok.stderr);
        let other = localize_file(
            &dir.join("unlock_unheld_fail.c"),
            kind,
            &exe,
            "unreach-call",
        );
        assert_eq!(other.code, 0, "{kind}:\n{}\n{}", other.stdout, other.stderr);
    }
}
