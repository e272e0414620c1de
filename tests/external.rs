//! `seqloc check --checker esbmc|cbmc` end to end, with fake checkers: small shell scripts
//! that print a recorded ESBMC output (`../shared/fixtures/esbmc/`) or a CBMC output written
//! to FORMAT.md, and exit with the recorded code. The recordings were made on the raw fixture
//! programs, so these runs use `--raw`. The real checkers are exercised by `real_*` tests when
//! they are installed (on PATH, or `SEQLOC_ESBMC` / `SEQLOC_CBMC`).

use std::io::Write as _;
use std::path::{Path, PathBuf};
use std::process::Command;

fn fixtures() -> Option<PathBuf> {
    let dir = PathBuf::from(concat!(env!("CARGO_MANIFEST_DIR"), "/../shared/fixtures"));
    if dir.is_dir() {
        Some(dir)
    } else {
        let _ = writeln!(
            std::io::stderr(),
            "NOTICE: skipped: ../shared/fixtures not found (it is beside the clone on CI only)"
        );
        None
    }
}

/// A fake checker in `dir`: answers `--version` with `version`, otherwise copies `stdout` and
/// `stderr` (files) to its outputs, sleeps `sleep` seconds, and exits with `code`.
fn fake(dir: &Path, version: &str, stdout: &Path, stderr: &Path, code: i32, sleep: u32) -> PathBuf {
    use std::os::unix::fs::PermissionsExt;
    let script = dir.join("fake-checker");
    let text = format!(
        "#!/bin/sh\nfor a in \"$@\"; do echo \"$a\" >> '{log}'; done\necho --- >> '{log}'\nif [ \"$1\" = --version ]; then echo '{version}'; exit 0; fi\nsleep {sleep}\ncat '{out}'\ncat '{err}' >&2\nexit {code}\n",
        log = dir.join("args.log").display(),
        out = stdout.display(),
        err = stderr.display(),
    );
    std::fs::write(&script, text).expect("write fake");
    std::fs::set_permissions(&script, std::fs::Permissions::from_mode(0o755)).expect("chmod");
    script
}

fn seqloc(args: &[&str]) -> (i32, String, String) {
    let out = Command::new(env!("CARGO_BIN_EXE_seqloc"))
        .args(args)
        .env("NO_COLOR", "1")
        .output()
        .expect("runs seqloc");
    (
        out.status.code().unwrap_or(-1),
        String::from_utf8_lossy(&out.stdout).into_owned(),
        String::from_utf8_lossy(&out.stderr).into_owned(),
    )
}

/// `seqloc check PROG --checker TOOL --checker-path CHECKER --property unreach-call --json`:
/// the exit code, the parsed report, and both outputs for messages.
fn check_json(prog: &Path, tool: &str, checker: &Path) -> (i32, serde_json::Value, String, String) {
    let (exit, stdout, stderr) = seqloc(&[
        "check",
        prog.to_str().unwrap_or_default(),
        "--checker",
        tool,
        "--checker-path",
        checker.to_str().unwrap_or_default(),
        "--property",
        "unreach-call",
        "--json",
    ]);
    let j: serde_json::Value =
        serde_json::from_str(&stdout).unwrap_or_else(|e| panic!("{e}: {stdout}\n{stderr}"));
    (exit, j, stdout, stderr)
}

fn recorded(fx: &Path, run: &str) -> (PathBuf, PathBuf, i32) {
    let file = |ext: &str| fx.join("esbmc").join(format!("{run}.{ext}"));
    let code = std::fs::read_to_string(file("exit"))
        .ok()
        .and_then(|c| c.trim().parse().ok())
        .unwrap_or(0);
    (file("stdout"), file("stderr"), code)
}

#[test]
fn esbmc_failure_is_mapped_and_replayed() {
    let Some(fx) = fixtures() else { return };
    let tmp = tempfile::tempdir().expect("tempdir");
    let (out, err, code) = recorded(&fx, "f03_loop.cex");
    let checker = fake(
        tmp.path(),
        "ESBMC version 7.9.0 64-bit x86_64 linux",
        &out,
        &err,
        code,
        0,
    );
    let prog = fx.join("programs/f03_loop.c");
    let (exit, stdout, stderr) = seqloc(&[
        "check",
        prog.to_str().unwrap_or_default(),
        "--checker",
        "esbmc",
        "--checker-path",
        checker.to_str().unwrap_or_default(),
        "--raw",
        "--json",
        "-v",
    ]);
    assert_eq!(exit, 1, "stdout: {stdout}\nstderr: {stderr}");
    let j: serde_json::Value = serde_json::from_str(&stdout).expect("json");
    assert_eq!(j["verdict"], "failure");
    assert_eq!(j["checker"]["name"], "esbmc");
    assert_eq!(j["checker"]["version"], "ESBMC 7.9.0");
    assert_eq!(j["property"]["line"], 23);
    assert!(
        j["schedule"]["blocks"]
            .as_array()
            .is_some_and(|b| b.len() > 2)
    );
    // -v prints every command line, copyable into a shell.
    assert!(stderr.contains("running: (cd "), "{stderr}");
    assert!(stderr.contains("--no-por"), "{stderr}");
    assert!(stderr.contains("--context-bound 2"), "{stderr}");
    // The deadlock check ran first (paper V-A): its (recorded) answer was the assertion.
    let args = std::fs::read_to_string(tmp.path().join("args.log")).unwrap_or_default();
    assert!(args.contains("--deadlock-check"), "{args}");
}

#[test]
fn esbmc_success_is_no_failure_within_the_bound_reached() {
    let Some(fx) = fixtures() else { return };
    let tmp = tempfile::tempdir().expect("tempdir");
    let (out, err, code) = recorded(&fx, "f01_race.cex");
    let checker = fake(
        tmp.path(),
        "ESBMC version 7.9.0 64-bit x86_64 linux",
        &out,
        &err,
        code,
        0,
    );
    let prog = fx.join("programs/f01_race.c");
    let (exit, stdout, stderr) = seqloc(&[
        "check",
        prog.to_str().unwrap_or_default(),
        "--checker",
        "esbmc",
        "--checker-path",
        checker.to_str().unwrap_or_default(),
        "--raw",
        "--max-rounds",
        "4",
        "--json",
    ]);
    assert_eq!(exit, 0, "stdout: {stdout}\nstderr: {stderr}");
    let j: serde_json::Value = serde_json::from_str(&stdout).expect("json");
    assert_eq!(j["verdict"], "no-failure-within-bounds");
    let reason = j["reason"].as_str().unwrap_or_default();
    assert!(reason.contains("context-bound 4"), "{reason}");
    assert!(stderr.contains("context bound reached"), "{stderr}");
}

/// CBMC's unsoundness abort decides nothing: the built-in checker searches in its place. On
/// a failing program it finds the failure (CBMC would then localize along it); on a correct
/// one whose every execution it explores, its proof is the answer; where a loop bound cuts
/// its search, the verdict stays unknown with CBMC's reason. Each reason says whose answer
/// it is.
#[test]
fn cbmc_unsound_abort_is_unknown_unless_the_builtin_checker_decides() {
    let tmp = tempfile::tempdir().expect("tempdir");
    let json = r#"[
  {
    "program": "CBMC 6.4.1 (cbmc-6.4.1)"
  },
  {
    "messageText": "pointer handling for concurrency is unsound",
    "messageType": "ERROR"
  }
]
"#;
    let out = tmp.path().join("out.json");
    let err = tmp.path().join("err.txt");
    std::fs::write(&out, json).expect("write");
    std::fs::write(&err, "").expect("write");
    let checker = fake(tmp.path(), "6.4.1 (cbmc-6.4.1)", &out, &err, 6, 0);
    let header = "#include <pthread.h>\n#include <assert.h>\nint x;\nvoid *t(void *a) { x = 1; return 0; }\n";
    for (name, main, verdict, says) in [
        (
            "ok.c",
            "int main(void) { pthread_t h; pthread_create(&h, 0, t, 0); pthread_join(h, 0); assert(x == 1); return 0; }\n",
            "no-failure-within-bounds",
            "explored every execution with no bound cutting any",
        ),
        (
            "ok_unbounded.c",
            "extern int __VERIFIER_nondet_int(void);\nint main(void) { pthread_t h; pthread_create(&h, 0, t, 0); pthread_join(h, 0); while (__VERIFIER_nondet_int()) x++; assert(x >= 1); return 0; }\n",
            "unknown",
            "unsound",
        ),
        (
            "racy.c",
            "int main(void) { pthread_t h; pthread_create(&h, 0, t, 0); assert(x == 0); return 0; }\n",
            "failure",
            "declined",
        ),
    ] {
        let prog = tmp.path().join(name);
        std::fs::write(&prog, format!("{header}{main}")).expect("write");
        let (exit, j, stdout, stderr) = check_json(&prog, "cbmc", &checker);
        assert_eq!(j["verdict"], verdict, "{name}: {stderr}");
        assert!(
            j["reason"].as_str().is_some_and(|r| r.contains(says)),
            "{name}: {}",
            j["reason"]
        );
        assert_eq!(exit == 1, verdict == "failure", "{name}: exit {exit}");
        if verdict == "no-failure-within-bounds" {
            assert_eq!(j["exhaustive"], true, "{name}: {stdout}");
            assert!(
                j["reason"].as_str().is_some_and(|r| r.contains("declined")),
                "{name}: {}",
                j["reason"]
            );
        }
    }
    let args = std::fs::read_to_string(tmp.path().join("args.log")).unwrap_or_default();
    assert!(
        args.contains("--json-ui") && args.contains("--no-standard-checks"),
        "{args}"
    );
}

/// ESBMC's "no failure" on a program whose interleavings it is known to miss (here memory
/// allocated and written through a thread's local pointer) is doubted: the built-in checker
/// searches in its place. Its proof (every execution explored, no bound cutting any) is the
/// answer; where a loop bound cuts its search, the doubt keeps the verdict unknown.
#[test]
fn a_doubted_esbmc_success_is_decided_only_by_the_builtin_checkers_proof() {
    let tmp = tempfile::tempdir().expect("tempdir");
    let out = tmp.path().join("out.txt");
    let err = tmp.path().join("err.txt");
    std::fs::write(&out, "VERIFICATION SUCCESSFUL\n").expect("write");
    std::fs::write(&err, "").expect("write");
    let checker = fake(
        tmp.path(),
        "ESBMC version 8.4.0 64-bit x86_64 linux",
        &out,
        &err,
        0,
        0,
    );
    let header = "#include <pthread.h>\n#include <assert.h>\n#include <stdlib.h>\nextern int __VERIFIER_nondet_int(void);\nvoid *t(void *a) { int *p = a; *p = 1; return 0; }\n";
    for (name, tail, verdict, says) in [
        (
            "heap_ok.c",
            "",
            "no-failure-within-bounds",
            "explored every execution with no bound cutting any",
        ),
        (
            "heap_unbounded.c",
            "while (__VERIFIER_nondet_int()) *p = *p + 1; ",
            "unknown",
            "not trusted",
        ),
    ] {
        let prog = tmp.path().join(name);
        std::fs::write(
            &prog,
            format!(
                "{header}int main(void) {{ int *p = malloc(sizeof *p); if (!p) return 0; *p = 0; pthread_t h; pthread_create(&h, 0, t, p); pthread_join(h, 0); {tail}assert(*p >= 1); return 0; }}\n"
            ),
        )
        .expect("write");
        let (exit, j, stdout, stderr) = check_json(&prog, "esbmc", &checker);
        assert_eq!(j["verdict"], verdict, "{name}: {stdout}\n{stderr}");
        let reason = j["reason"].as_str().unwrap_or_default();
        assert!(reason.contains(says), "{name}: {reason}");
        assert!(reason.contains("allocated memory"), "{name}: {reason}");
        assert_eq!(
            j["exhaustive"],
            verdict == "no-failure-within-bounds",
            "{name}: {stdout}"
        );
        assert_ne!(exit, 1, "{name}: exit {exit}");
    }
}

#[test]
fn timeout_names_the_checker_and_the_command() {
    let Some(fx) = fixtures() else { return };
    let tmp = tempfile::tempdir().expect("tempdir");
    let (out, err, code) = recorded(&fx, "f03_loop.cex");
    let checker = fake(
        tmp.path(),
        "ESBMC version 7.9.0 64-bit x86_64 linux",
        &out,
        &err,
        code,
        30,
    );
    let prog = fx.join("programs/f03_loop.c");
    let t0 = std::time::Instant::now();
    let (exit, _, stderr) = seqloc(&[
        "check",
        prog.to_str().unwrap_or_default(),
        "--checker",
        "esbmc",
        "--checker-path",
        checker.to_str().unwrap_or_default(),
        "--property",
        "unreach-call",
        "--raw",
        "--timeout",
        "1",
    ]);
    assert!(t0.elapsed().as_secs() < 20);
    assert_eq!(exit, 3, "{stderr}");
    assert!(stderr.contains("time limit"), "{stderr}");
    assert!(stderr.contains("command: (cd "), "{stderr}");
}

#[test]
fn missing_checker_points_at_builtin() {
    let Some(fx) = fixtures() else { return };
    let prog = fx.join("programs/f01_race.c");
    let (exit, _, stderr) = seqloc(&[
        "check",
        prog.to_str().unwrap_or_default(),
        "--checker",
        "esbmc",
        "--checker-path",
        "/nonexistent/esbmc",
    ]);
    assert_eq!(exit, 3);
    assert!(stderr.contains("esbmc not found"), "{stderr}");
    assert!(stderr.contains("--checker builtin"), "{stderr}");
}

/// The real ESBMC, when installed: seqloc's printed program makes it find the race it misses
/// on the raw file (DESIGN principle 6).
#[test]
fn real_esbmc_finds_the_split_race() {
    let Some(fx) = fixtures() else { return };
    if !installed("esbmc") {
        let _ = writeln!(std::io::stderr(), "NOTICE: skipped: esbmc not installed");
        return;
    }
    let prog = fx.join("programs/f01_race.c");
    let (exit, stdout, stderr) = seqloc(&[
        "check",
        prog.to_str().unwrap_or_default(),
        "--checker",
        "esbmc",
        "--property",
        "unreach-call",
        "--json",
        "--timeout",
        "300",
    ]);
    assert_eq!(exit, 1, "{stdout}\n{stderr}");
}

/// The localization rounds on an external checker: round 1 answers `diag = 14` (the recorded
/// ESBMC run on the hand-instrumented f01), round 2 says VERIFICATION SUCCESSFUL; the
/// failing interleaving comes from the built-in checker as a schedule file.
#[test]
fn localization_rounds_read_the_diag_value() {
    use std::os::unix::fs::PermissionsExt;
    let Some(fx) = fixtures() else { return };
    let tmp = tempfile::tempdir().expect("tempdir");
    let prog = fx.join("programs/f01_race.c");
    let sched = tmp.path().join("s.json");
    let (exit, _, stderr) = seqloc(&[
        "check",
        prog.to_str().unwrap_or_default(),
        "--emit-schedule",
        sched.to_str().unwrap_or_default(),
    ]);
    assert_eq!(exit, 1, "{stderr}");
    let e = fx.join("esbmc");
    let script = tmp.path().join("esbmc");
    let text = format!(
        "#!/bin/sh\nfor a in \"$@\"; do echo \"$a\" >> '{log}'; done\ncase \"$1\" in\n  --version) echo 'ESBMC version 7.9.0 64-bit x86_64 linux'; exit 0;;\n  diag.round1.c) cat '{e}/diag_f01.round1.stdout'; cat '{e}/diag_f01.round1.stderr' >&2; exit 1;;\n  diag.round2.c) grep -q 'diag != 14' diag.round2.c || exit 9; cat '{e}/diag_f01.round2.stdout'; cat '{e}/diag_f01.round2.stderr' >&2; exit 0;;\nesac\nexit 9\n",
        log = tmp.path().join("args.log").display(),
        e = e.display(),
    );
    std::fs::write(&script, text).expect("write");
    std::fs::set_permissions(&script, std::fs::Permissions::from_mode(0o755)).expect("chmod");
    let (exit, stdout, stderr) = seqloc(&[
        "localize",
        prog.to_str().unwrap_or_default(),
        "--schedule",
        sched.to_str().unwrap_or_default(),
        "--checker",
        "esbmc",
        "--checker-path",
        script.to_str().unwrap_or_default(),
        "--json",
    ]);
    assert_eq!(exit, 1, "stdout: {stdout}\nstderr: {stderr}");
    let j: serde_json::Value = serde_json::from_str(&stdout).expect("json");
    // The checker's rounds give the value candidates; the interleaving analysis may add
    // atomicity candidates of its own.
    let cands: Vec<serde_json::Value> = j["candidates"]
        .as_array()
        .cloned()
        .unwrap_or_default()
        .into_iter()
        .filter(|c| c["kind"] == "value")
        .collect();
    assert_eq!(cands.len(), 1, "{stdout}");
    assert_eq!(cands[0]["line"], 14);
    assert!(stderr.contains("round 1: diag = 14"), "{stderr}");
    assert!(stderr.contains("round 2: no more candidates"), "{stderr}");
    let args = std::fs::read_to_string(tmp.path().join("args.log")).unwrap_or_default();
    assert!(!args.contains("--no-por"), "sequential rounds: {args}");
}

/// A checker run that fails after the first candidate (ESBMC's solver out of memory in a
/// late round): the candidates found are kept and listed, and the reason names the round,
/// the command and the checker's last lines; no error throws them away.
#[test]
fn a_checker_failing_in_a_later_round_keeps_the_candidates_found() {
    use std::os::unix::fs::PermissionsExt;
    let Some(fx) = fixtures() else { return };
    let tmp = tempfile::tempdir().expect("tempdir");
    let prog = fx.join("programs/f01_race.c");
    let sched = tmp.path().join("s.json");
    let (exit, _, stderr) = seqloc(&[
        "check",
        prog.to_str().unwrap_or_default(),
        "--emit-schedule",
        sched.to_str().unwrap_or_default(),
    ]);
    assert_eq!(exit, 1, "{stderr}");
    let e = fx.join("esbmc");
    let script = tmp.path().join("esbmc");
    let text = format!(
        "#!/bin/sh\ncase \"$1\" in\n  --version) echo 'ESBMC version 7.9.0 64-bit x86_64 linux'; exit 0;;\n  diag.round1.c) cat '{e}/diag_f01.round1.stdout'; cat '{e}/diag_f01.round1.stderr' >&2; exit 1;;\n  diag.round2.c) echo 'ERROR: Out of memory' >&2; echo 'ERROR: SMT solver failed' >&2; exit 2;;\nesac\nexit 9\n",
        e = e.display(),
    );
    std::fs::write(&script, text).expect("write");
    std::fs::set_permissions(&script, std::fs::Permissions::from_mode(0o755)).expect("chmod");
    let (exit, stdout, stderr) = seqloc(&[
        "localize",
        prog.to_str().unwrap_or_default(),
        "--schedule",
        sched.to_str().unwrap_or_default(),
        "--checker",
        "esbmc",
        "--checker-path",
        script.to_str().unwrap_or_default(),
        "--json",
    ]);
    assert_eq!(exit, 1, "stdout: {stdout}\nstderr: {stderr}");
    let j: serde_json::Value = serde_json::from_str(&stdout).expect("json");
    let lines: Vec<u64> = j["candidates"]
        .as_array()
        .into_iter()
        .flatten()
        .filter(|c| c["kind"] == "value")
        .filter_map(|c| c["line"].as_u64())
        .collect();
    assert_eq!(lines, vec![14], "{stdout}");
    assert!(
        stdout.contains("round 2")
            && stdout.contains("Out of memory")
            && stdout.contains("diag.round2.c"),
        "{stdout}"
    );
}

/// Whether a real checker is installed (on PATH, or named by `SEQLOC_<TOOL>`).
fn installed(tool: &str) -> bool {
    std::env::var_os(format!("SEQLOC_{}", tool.to_uppercase())).is_some()
        || std::env::var_os("PATH")
            .is_some_and(|p| std::env::split_paths(&p).any(|d| d.join(tool).is_file()))
}

/// The `value` candidates' diag values of a JSON localization report.
fn diag_values(stdout: &str) -> Vec<u64> {
    let j: serde_json::Value = serde_json::from_str(stdout).expect("json report");
    let mut v: Vec<u64> = j["candidates"]
        .as_array()
        .into_iter()
        .flatten()
        .filter(|c| c["kind"] == "value")
        .filter_map(|c| c["diag"].as_u64())
        .collect();
    v.sort_unstable();
    v
}

/// With a real ESBMC or CBMC installed: localization along the same failing interleaving
/// gives the same diag values (the lines whose change avoids the failure) as the built-in
/// checker, on every fixture program with an assertion failure.
#[test]
fn real_checkers_find_the_builtin_checkers_diag_values() {
    let Some(fx) = fixtures() else { return };
    let tools: Vec<&str> = ["esbmc", "cbmc"]
        .into_iter()
        .filter(|t| installed(t))
        .collect();
    if tools.is_empty() {
        let _ = writeln!(
            std::io::stderr(),
            "NOTICE: skipped: neither esbmc nor cbmc is installed"
        );
        return;
    }
    let tmp = tempfile::tempdir().expect("tempdir");
    for name in ["f01_race", "f03_loop", "f07_calls"] {
        let prog = fx.join(format!("programs/{name}.c"));
        let sched = tmp.path().join(format!("{name}.json"));
        let (exit, _, stderr) = seqloc(&[
            "check",
            prog.to_str().unwrap_or_default(),
            "--property",
            "unreach-call",
            "--emit-schedule",
            sched.to_str().unwrap_or_default(),
        ]);
        assert_eq!(exit, 1, "{name}: {stderr}");
        let localize = |checker: &str| {
            let (exit, stdout, stderr) = seqloc(&[
                "localize",
                prog.to_str().unwrap_or_default(),
                "--schedule",
                sched.to_str().unwrap_or_default(),
                "--checker",
                checker,
                "--format",
                "json",
                "--timeout",
                "600",
            ]);
            assert_eq!(exit, 1, "{name} with {checker}: {stderr}");
            diag_values(&stdout)
        };
        let builtin = localize("builtin");
        for tool in &tools {
            assert_eq!(
                localize(tool),
                builtin,
                "{name}: {tool} and the built-in checker"
            );
        }
    }
}

/// SIGTERM, SIGINT and SIGKILL of seqloc while a checker runs leave no checker process; the
/// first two also remove seqloc's temp dir and exit 3 ("interrupted"). The fake checker
/// writes its pid and sleeps; TMPDIR is private, so leftovers can be counted.
#[test]
fn stop_signals_leave_no_checker_and_no_temp_dir() {
    use std::os::unix::fs::PermissionsExt;
    for (signal, name) in [
        (libc::SIGTERM, "SIGTERM"),
        (libc::SIGINT, "SIGINT"),
        (libc::SIGKILL, "SIGKILL"),
    ] {
        let tmp = tempfile::tempdir().expect("tempdir");
        let scratch = tmp.path().join("tmp");
        std::fs::create_dir(&scratch).expect("scratch");
        let pidfile = tmp.path().join("checker.pid");
        let script = tmp.path().join("esbmc");
        std::fs::write(
            &script,
            format!(
                "#!/bin/sh\nif [ \"$1\" = --version ]; then echo 'ESBMC version 8.4.0 64-bit x86_64 linux'; exit 0; fi\necho $$ > '{}'\nexec sleep 60\n",
                pidfile.display()
            ),
        )
        .expect("write");
        std::fs::set_permissions(&script, std::fs::Permissions::from_mode(0o755)).expect("chmod");
        let prog = tmp.path().join("p.c");
        std::fs::write(
            &prog,
            "#include <pthread.h>\n#include <assert.h>\nint x;\nvoid *t(void *a) { x = x + 1; return 0; }\nint main(void) { pthread_t a; pthread_create(&a, 0, t, 0); x = x + 1; pthread_join(a, 0); assert(x == 2); return 0; }\n",
        )
        .expect("write");
        let child = Command::new(env!("CARGO_BIN_EXE_seqloc"))
            .args([
                "check",
                prog.to_str().unwrap_or_default(),
                "--checker",
                "esbmc",
                "--checker-path",
                script.to_str().unwrap_or_default(),
                "--property",
                "unreach-call",
            ])
            .env("TMPDIR", &scratch)
            .stdout(std::process::Stdio::null())
            .stderr(std::process::Stdio::piped())
            .spawn()
            .expect("spawn");
        // The shell creates the file before `echo` writes the pid into it: wait for a
        // pid, not for the file (a read between the two found it empty under load).
        let started = std::time::Instant::now();
        let pid = || -> Option<i32> {
            std::fs::read_to_string(&pidfile)
                .ok()
                .and_then(|p| p.trim().parse().ok())
        };
        while pid().is_none() && started.elapsed() < std::time::Duration::from_secs(30) {
            std::thread::sleep(std::time::Duration::from_millis(20));
        }
        let checker: i32 = pid().expect("the fake checker started");
        // SAFETY: plain syscall on the child we started.
        unsafe {
            libc::kill(child.id() as i32, signal);
        }
        let out = child.wait_with_output().expect("wait");
        let stderr = String::from_utf8_lossy(&out.stderr);
        // The checker dies with seqloc: its pid no longer names a live process (a zombie
        // reaped by init counts as gone once `kill(pid, 0)` fails).
        let gone = (0..100).any(|_| {
            // SAFETY: signal 0 only checks whether the process exists.
            let alive = unsafe { libc::kill(checker, 0) } == 0
                && std::fs::read_to_string(format!("/proc/{checker}/stat"))
                    .is_ok_and(|s| !s.contains(") Z "));
            if alive {
                std::thread::sleep(std::time::Duration::from_millis(50));
            }
            !alive
        });
        assert!(gone, "{name}: checker {checker} still runs\n{stderr}");
        if signal != libc::SIGKILL {
            assert_eq!(out.status.code(), Some(3), "{name}: {stderr}");
            assert!(stderr.contains("interrupted"), "{name}: {stderr}");
            let left: Vec<_> = std::fs::read_dir(&scratch)
                .map(|d| d.flatten().map(|e| e.file_name()).collect())
                .unwrap_or_default();
            assert!(left.is_empty(), "{name}: left {left:?}");
        }
    }
}

/// A fake ESBMC 8.4 for the localization rounds: round 1 answers with the recorded failure
/// of `f01_race.c`; in round 2 the default solver does what `default_round2` says (hang,
/// crash) and Boolector proves that no line is left.
fn second_solver_checker(
    dir: &std::path::Path,
    e: &std::path::Path,
    default_round2: &str,
) -> PathBuf {
    use std::os::unix::fs::PermissionsExt;
    let script = dir.join(format!("esbmc-{}", default_round2.len()));
    let text = format!(
        "#!/bin/sh\ncase \"$1\" in\n  --version) echo 'ESBMC version 8.4.0 64-bit x86_64 linux'; exit 0;;\n  diag.round1.c) cat '{e}/diag_f01.round1.stdout'; cat '{e}/diag_f01.round1.stderr' >&2; exit 1;;\n  diag.round2.c)\n    case \" $* \" in *' --boolector '*) echo 'Solving with solver Boolector 3.2.3'; echo; echo 'VERIFICATION SUCCESSFUL'; exit 0;; esac\n    echo 'No solver specified; defaulting to bitwuzla'\n    {default_round2};;\nesac\nexit 9\n",
        e = e.display(),
    );
    std::fs::write(&script, text).expect("write");
    std::fs::set_permissions(&script, std::fs::Permissions::from_mode(0o755)).expect("chmod");
    script
}

/// A localization round ESBMC's default solver does not answer (it runs on, or fails) gets
/// a second ESBMC with another solver beside it, and that answer ends the round; a solver
/// the user named is kept alone.
#[test]
fn a_slow_or_failing_round_gets_a_second_solver() {
    let Some(fx) = fixtures() else { return };
    let tmp = tempfile::tempdir().expect("tempdir");
    let prog = fx.join("programs/f01_race.c");
    let sched = tmp.path().join("s.json");
    let (exit, _, stderr) = seqloc(&[
        "check",
        prog.to_str().unwrap_or_default(),
        "--emit-schedule",
        sched.to_str().unwrap_or_default(),
    ]);
    assert_eq!(exit, 1, "{stderr}");
    let e = fx.join("esbmc");
    let hang = second_solver_checker(tmp.path(), &e, "exec sleep 120");
    let crash = second_solver_checker(
        tmp.path(),
        &e,
        "echo 'ERROR: Out of memory' >&2; echo 'ERROR: SMT solver failed' >&2; exit 2",
    );
    let localize = |script: &PathBuf, extra: &[&str]| {
        let mut args = vec![
            "localize",
            prog.to_str().unwrap_or_default(),
            "--schedule",
            sched.to_str().unwrap_or_default(),
            "--checker",
            "esbmc",
            "--checker-path",
            script.to_str().unwrap_or_default(),
            "--timeout",
            "100",
            "--json",
        ];
        args.extend_from_slice(extra);
        seqloc(&args)
    };
    for (script, why) in [(&hang, "no answer after"), (&crash, "Out of memory")] {
        let (exit, stdout, stderr) = localize(script, &[]);
        assert_eq!(exit, 1, "stdout: {stdout}\nstderr: {stderr}");
        assert_eq!(diag_lines(&stdout), vec![14], "{stdout}");
        assert!(
            stderr.contains(why)
                && stderr.contains("ESBMC with --boolector runs beside it")
                && stderr.contains("no more candidates")
                && stderr.contains("answered by ESBMC with --boolector"),
            "{stderr}"
        );
        // The round ended with its answer, not with the time limit or a failure.
        assert!(!stdout.contains("round 2"), "{stdout}");
    }
    // The user's own solver: no second one, and the failure ends the loop as before.
    let (exit, stdout, stderr) = localize(&crash, &["--checker-arg", "--bitwuzla"]);
    assert_eq!(exit, 1, "stdout: {stdout}\nstderr: {stderr}");
    assert_eq!(diag_lines(&stdout), vec![14], "{stdout}");
    assert!(!stderr.contains("beside it"), "{stderr}");
    assert!(
        stdout.contains("round 2") && stdout.contains("Out of memory"),
        "{stdout}"
    );
}

/// The `value` candidates' lines of a JSON localization report.
fn diag_lines(stdout: &str) -> Vec<u64> {
    let j: serde_json::Value = serde_json::from_str(stdout).expect("json report");
    j["candidates"]
        .as_array()
        .into_iter()
        .flatten()
        .filter(|c| c["kind"] == "value")
        .filter_map(|c| c["line"].as_u64())
        .collect()
}
