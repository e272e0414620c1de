//! Running a checker as a child process: arguments as a vector (never a shell), a private
//! working directory, its own process group (killed as a whole on timeout), an address-space
//! limit, and the output captured in files rather than pipes.
//!
//! Why files and not pipes: ESBMC prints megabytes of interleaving statistics (7 MB for the
//! thread-array fixture); a pipe that nobody drains blocks the child, and draining two pipes
//! needs threads. Files in the private temp dir cost nothing and survive a kill.
//!
//! Why a process group: CBMC's SIGTERM handler calls `killpg(0, SIGTERM)` (FORMAT.md §1), so
//! in seqloc's group it would kill seqloc; and a solver child of ESBMC must die with it.

use std::fs::File;
use std::os::unix::process::{CommandExt, ExitStatusExt};
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, AtomicI32, Ordering as AtomicOrdering};
use std::time::{Duration, Instant};

use super::ExternalError;

/// One checker invocation.
#[derive(Clone, Debug)]
pub struct RunSpec {
    pub program: PathBuf,
    pub args: Vec<String>,
    /// The private temp dir: ESBMC writes `report.json` into its working directory.
    pub cwd: PathBuf,
    pub timeout: Option<Duration>,
    /// Address-space limit in MB (`ulimit -v`), applied in the child before `exec`.
    pub memory_mb: Option<u64>,
    /// A short name for the output files (`cex-k2`), unique within `cwd`.
    pub tag: String,
    /// Any one set when the run's answer is no longer wanted (the built-in search beside it
    /// found the failure first, a second solver answered the round first): the run is
    /// stopped as at the time limit.
    pub superseded: Vec<Arc<AtomicBool>>,
}

/// What a finished (or killed) run left behind.
#[derive(Clone, Debug)]
pub struct RunOutput {
    pub stdout: String,
    pub stderr: String,
    /// The exit code, when the child exited normally.
    pub code: Option<i32>,
    /// The signal that ended it, when one did.
    pub signal: Option<i32>,
    /// seqloc killed it at the time limit.
    pub timed_out: bool,
    pub elapsed: Duration,
    /// The command line, quoted for a POSIX shell.
    pub command: String,
}

impl RunOutput {
    /// The last `n` non-blank lines of stderr (or of stdout when stderr is empty), for
    /// error messages.
    pub fn tail(&self, n: usize) -> Vec<String> {
        let text = if self.stderr.trim().is_empty() {
            &self.stdout
        } else {
            &self.stderr
        };
        let lines: Vec<String> = text
            .lines()
            .filter(|l| !l.trim().is_empty())
            .map(str::to_string)
            .collect();
        let from = lines.len().saturating_sub(n);
        lines[from..].to_vec()
    }

    /// The run ran out of memory under the address-space limit seqloc set: ESBMC and CBMC
    /// print `std::bad_alloc` or "Out of memory" when an allocation fails; a SIGKILL without
    /// seqloc killing it is the kernel's OOM killer. Not every allocation failure is
    /// reported: the static ESBMC 8.4 dies of SIGSEGV, CBMC's C preprocessor (gcc) with
    /// "internal compiler error: Segmentation fault", and an abort is what a C++ program
    /// does with an exception it cannot throw — under a limit, those are the limit too.
    pub fn out_of_memory(&self) -> bool {
        let text = format!("{}\n{}", self.stdout, self.stderr).to_ascii_lowercase();
        text.contains("bad_alloc")
            || text.contains("out of memory")
            || text.contains("memory exhausted")
            || text.contains("cannot allocate memory")
            || text.contains("internal compiler error: segmentation fault")
            || (!self.timed_out
                && matches!(
                    self.signal,
                    Some(libc::SIGKILL | libc::SIGSEGV | libc::SIGABRT | libc::SIGBUS)
                ))
    }
}

/// Quotes one word for a POSIX shell: bare when it is made of safe characters only.
pub fn shell_quote(word: &str) -> String {
    let safe = !word.is_empty()
        && word
            .chars()
            .all(|c| c.is_ascii_alphanumeric() || "-_./=:,+@%".contains(c));
    if safe {
        word.to_string()
    } else {
        format!("'{}'", word.replace('\'', "'\\''"))
    }
}

/// The whole command line, copy-pastable into a shell (run from `cwd`).
pub fn command_line(program: &Path, args: &[String]) -> String {
    let mut words = vec![shell_quote(&program.display().to_string())];
    words.extend(args.iter().map(|a| shell_quote(a)));
    words.join(" ")
}

/// How often a running child is polled; short, because most checker runs of the small
/// programs seqloc localizes take well under a second.
const POLL: Duration = Duration::from_millis(10);
/// After SIGTERM, how long the group gets to exit before SIGKILL.
const GRACE: Duration = Duration::from_millis(500);

/// The signal (SIGINT or SIGTERM) that asked seqloc to stop while a checker may run; 0 for
/// none. Set by [`on_signal`], read by [`run`]'s polling loop.
static STOP_SIGNAL: AtomicI32 = AtomicI32::new(0);

extern "C" fn on_signal(sig: libc::c_int) {
    // Only an atomic store: async-signal-safe.
    STOP_SIGNAL.store(sig, AtomicOrdering::SeqCst);
}

/// From the first external checker run on, SIGINT and SIGTERM no longer end seqloc at
/// once: [`run`] kills the checker's process group and returns
/// [`ExternalError::Interrupted`], so the temp dir is removed on the way out and no
/// checker is left running. (SIGKILL cannot be caught: the checker then gets SIGKILL from
/// `PR_SET_PDEATHSIG`, and the temp dir stays.)
pub fn catch_stop_signals() {
    static ONCE: std::sync::Once = std::sync::Once::new();
    ONCE.call_once(|| {
        for sig in [libc::SIGINT, libc::SIGTERM] {
            // SAFETY: installs a handler that only stores to an atomic; `sa_mask` is
            // emptied by `sigemptyset` before use.
            unsafe {
                let mut sa: libc::sigaction = std::mem::zeroed();
                sa.sa_sigaction = on_signal as *const () as libc::sighandler_t;
                libc::sigemptyset(&mut sa.sa_mask);
                sa.sa_flags = libc::SA_RESTART;
                libc::sigaction(sig, &sa, std::ptr::null_mut());
            }
        }
    });
}

/// The stop signal received, if any.
pub fn stop_signal() -> Option<i32> {
    match STOP_SIGNAL.load(AtomicOrdering::SeqCst) {
        0 => None,
        s => Some(s),
    }
}

/// Runs the checker and waits for it, killing its process group at the time limit or when
/// seqloc is asked to stop (SIGINT, SIGTERM).
pub fn run(spec: &RunSpec) -> Result<RunOutput, ExternalError> {
    let command = command_line(&spec.program, &spec.args);
    if let Some(signal) = stop_signal() {
        return Err(ExternalError::Interrupted { signal, command });
    }
    let superseded = || {
        spec.superseded
            .iter()
            .any(|s| s.load(AtomicOrdering::SeqCst))
    };
    if superseded() {
        return Err(ExternalError::Superseded { command });
    }
    let out_path = spec.cwd.join(format!("{}.stdout", spec.tag));
    let err_path = spec.cwd.join(format!("{}.stderr", spec.tag));
    let io_err = |what: &str, e: std::io::Error| ExternalError::Io {
        what: format!("{what}: {e}"),
        command: command.clone(),
    };
    let stdout = File::create(&out_path).map_err(|e| io_err("cannot create output file", e))?;
    let stderr = File::create(&err_path).map_err(|e| io_err("cannot create output file", e))?;
    let mut cmd = Command::new(&spec.program);
    cmd.args(&spec.args)
        .current_dir(&spec.cwd)
        .stdin(Stdio::null())
        .stdout(Stdio::from(stdout))
        .stderr(Stdio::from(stderr))
        .process_group(0);
    // SAFETY: `prctl` is async-signal-safe and touches no memory of the parent.
    unsafe {
        cmd.pre_exec(|| {
            // A seqloc killed outright (SIGKILL) takes its checker with it.
            if libc::prctl(libc::PR_SET_PDEATHSIG, libc::SIGKILL as libc::c_ulong) != 0 {
                return Err(std::io::Error::last_os_error());
            }
            Ok(())
        });
    }
    if let Some(mb) = spec.memory_mb.filter(|mb| *mb > 0) {
        let bytes = mb.saturating_mul(1024 * 1024) as libc::rlim_t;
        // SAFETY: `setrlimit` is async-signal-safe and touches no memory of the parent; the
        // closure captures a plain integer.
        unsafe {
            cmd.pre_exec(move || {
                let lim = libc::rlimit {
                    rlim_cur: bytes,
                    rlim_max: bytes,
                };
                if libc::setrlimit(libc::RLIMIT_AS, &lim) != 0 {
                    return Err(std::io::Error::last_os_error());
                }
                Ok(())
            });
        }
    }
    let t0 = Instant::now();
    let mut child = cmd.spawn().map_err(|e| ExternalError::Spawn {
        program: spec.program.display().to_string(),
        reason: e.to_string(),
        command: command.clone(),
    })?;
    let pgid = child.id() as libc::pid_t;
    let deadline = spec.timeout.map(|t| t0 + t);
    let mut timed_out = false;
    let status = loop {
        match child.try_wait() {
            Ok(Some(status)) => break status,
            Ok(None) => {}
            Err(e) => return Err(io_err("cannot wait for the checker", e)),
        }
        let stop = stop_signal();
        if stop.is_some() || superseded() || deadline.is_some_and(|d| Instant::now() >= d) {
            timed_out = stop.is_none() && !superseded();
            kill_group(pgid, libc::SIGTERM);
            let grace_end = Instant::now() + GRACE;
            let status = loop {
                if let Ok(Some(s)) = child.try_wait() {
                    break Some(s);
                }
                if Instant::now() >= grace_end {
                    break None;
                }
                std::thread::sleep(POLL);
            };
            match status {
                Some(s) => break s,
                None => {
                    kill_group(pgid, libc::SIGKILL);
                    break child
                        .wait()
                        .map_err(|e| io_err("cannot reap the checker", e))?;
                }
            }
        }
        std::thread::sleep(POLL);
    };
    // A child that exited may have left grandchildren (a solver) in its group.
    kill_group(pgid, libc::SIGKILL);
    if let Some(signal) = stop_signal() {
        return Err(ExternalError::Interrupted { signal, command });
    }
    if superseded() {
        return Err(ExternalError::Superseded { command });
    }
    let elapsed = t0.elapsed();
    let read = |p: &Path| {
        std::fs::read(p)
            .map(|b| String::from_utf8_lossy(&b).into_owned())
            .map_err(|e| io_err("cannot read the checker's output", e))
    };
    Ok(RunOutput {
        stdout: read(&out_path)?,
        stderr: read(&err_path)?,
        code: status.code(),
        signal: status.signal(),
        timed_out,
        elapsed,
        command,
    })
}

fn kill_group(pgid: libc::pid_t, signal: libc::c_int) {
    if pgid > 0 {
        // SAFETY: plain syscall; a group that no longer exists gives ESRCH, which is fine.
        unsafe {
            libc::killpg(pgid, signal);
        }
    }
}

/// Finds the checker's executable: `--checker-path`, then `$SEQLOC_ESBMC`/`$SEQLOC_CBMC`,
/// then `PATH`. The error lists every place looked at.
pub fn locate(name: &str, given: Option<&Path>, env_var: &str) -> Result<PathBuf, ExternalError> {
    let mut looked = Vec::new();
    if let Some(p) = given {
        // Checkers run in seqloc's temp dir: a relative `--checker-path ./x` must name the
        // file the user meant, from where the user typed it.
        let p = &std::path::absolute(p).unwrap_or_else(|_| p.to_path_buf());
        if is_executable(p) {
            return Ok(p.to_path_buf());
        }
        looked.push(format!("--checker-path {}", p.display()));
    }
    if let Some(p) = std::env::var_os(env_var).filter(|p| !p.is_empty()) {
        let p = PathBuf::from(&p);
        let p = std::path::absolute(&p).unwrap_or(p);
        if is_executable(&p) {
            return Ok(p);
        }
        looked.push(format!("${env_var} = {}", p.display()));
    }
    if given.is_none() {
        if let Some(path) = std::env::var_os("PATH") {
            for dir in std::env::split_paths(&path) {
                // A relative PATH entry names a directory from where seqloc was started.
                let p = dir.join(name);
                if is_executable(&p) {
                    return Ok(std::path::absolute(&p).unwrap_or(p));
                }
            }
        }
        looked.push("every directory on PATH".into());
    }
    Err(ExternalError::NotFound {
        checker: name.to_string(),
        looked: looked.join(", "),
    })
}

fn is_executable(p: &Path) -> bool {
    use std::os::unix::fs::PermissionsExt;
    p.metadata()
        .is_ok_and(|m| m.is_file() && m.permissions().mode() & 0o111 != 0)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn spec(dir: &Path, script: &str, timeout: Option<Duration>) -> RunSpec {
        RunSpec {
            program: PathBuf::from("/bin/sh"),
            args: vec!["-c".into(), script.into()],
            cwd: dir.to_path_buf(),
            timeout,
            memory_mb: None,
            superseded: Vec::new(),
            tag: "t".into(),
        }
    }

    #[test]
    fn quotes_for_a_shell() {
        assert_eq!(shell_quote("--unwind"), "--unwind");
        assert_eq!(shell_quote("a b"), "'a b'");
        assert_eq!(shell_quote("it's"), "'it'\\''s'");
        assert_eq!(shell_quote(""), "''");
        assert_eq!(
            command_line(Path::new("/usr/bin/esbmc"), &["x.c".into(), "$HOME".into()]),
            "/usr/bin/esbmc x.c '$HOME'"
        );
    }

    #[test]
    fn captures_output_and_exit_code() {
        let dir = tempfile::tempdir().expect("tempdir");
        let out = run(&spec(
            dir.path(),
            "echo out; echo err >&2; pwd; exit 3",
            None,
        ))
        .expect("runs");
        assert_eq!(out.code, Some(3));
        assert!(out.stdout.starts_with("out\n"));
        assert!(out.stdout.contains(&*dir.path().to_string_lossy()));
        assert_eq!(out.tail(5), vec!["err".to_string()]);
        assert!(!out.timed_out);
    }

    #[test]
    fn kills_the_whole_group_at_the_time_limit() {
        let dir = tempfile::tempdir().expect("tempdir");
        let t0 = Instant::now();
        // A grandchild that would outlive a plain kill of the shell.
        let out = run(&spec(
            dir.path(),
            "sleep 30 & echo started; wait",
            Some(Duration::from_millis(300)),
        ))
        .expect("runs");
        assert!(out.timed_out);
        assert!(t0.elapsed() < Duration::from_secs(10));
        assert_eq!(out.stdout, "started\n");
    }

    #[test]
    fn a_superseded_run_is_stopped_and_says_so() {
        let dir = tempfile::tempdir().expect("tempdir");
        let flag = Arc::new(AtomicBool::new(false));
        let mut s = spec(dir.path(), "sleep 30 & echo started; wait", None);
        s.superseded = vec![flag.clone()];
        let setter = {
            let flag = flag.clone();
            std::thread::spawn(move || {
                std::thread::sleep(Duration::from_millis(300));
                flag.store(true, AtomicOrdering::SeqCst);
            })
        };
        let err = run(&s).expect_err("superseded");
        setter.join().expect("setter");
        assert!(matches!(err, ExternalError::Superseded { .. }), "{err}");
        // Already superseded: it does not start.
        let err = run(&s).expect_err("superseded");
        assert!(matches!(err, ExternalError::Superseded { .. }), "{err}");
    }

    #[test]
    fn memory_limit_is_applied() {
        let dir = tempfile::tempdir().expect("tempdir");
        let mut s = spec(dir.path(), "ulimit -v", None);
        s.memory_mb = Some(256);
        let out = run(&s).expect("runs");
        assert_eq!(out.stdout.trim(), (256 * 1024).to_string());
    }

    #[test]
    fn missing_checker_says_where_it_looked() {
        let err = locate(
            "esbmc",
            Some(Path::new("/nonexistent/esbmc")),
            "SEQLOC_TEST_UNSET_VAR",
        )
        .expect_err("not found");
        let msg = err.to_string();
        assert!(msg.contains("/nonexistent/esbmc"), "{msg}");
    }
}
