//! Running one child process under limits, and nothing else: spawn it in its own process
//! group with `RLIMIT_AS` and `RLIMIT_CPU` (and no core dumps), enforce the wall-clock limit by killing the whole
//! group, reap it with `wait4` for its exit status and peak memory, and hand back a [`RawRun`].
//! What the run *means* (verdict, timeout, memout, crash) is decided in `outcome`, not here.
//!
//! Because every child has its own process group, a Ctrl-C on the terminal reaches the sweep
//! but not its children. Two things keep them from outliving an interrupted sweep: on Linux
//! each child gets `PR_SET_PDEATHSIG` (SIGKILL when the sweep dies), and the groups of running
//! children are kept in a lock-free table that [`kill_all_running`] kills, from a signal
//! handler if need be. The limits bound whatever escapes both.
//!
//! Unix only (process groups, rlimits, `wait4`), like the rest of seqloc's process handling.

use std::ffi::OsString;
use std::io::{self, Read};
use std::os::unix::process::CommandExt;
use std::process::{Command, Stdio};
use std::sync::atomic::{AtomicI32, Ordering};
use std::sync::mpsc::{self, RecvTimeoutError};
use std::sync::{Arc, Mutex};
use std::thread;
use std::time::{Duration, Instant};

/// Keep at most this much of the child's stdout; a longer answer is reported as unparsable
/// rather than eating the sweep's memory.
const STDOUT_CAP: usize = 64 << 20;
/// Keep the last this-many bytes of the child's stderr (for the tail shown in reports).
const STDERR_TAIL: usize = 16 << 10;
/// After SIGTERM to the group, wait this long before SIGKILL.
const TERM_GRACE: Duration = Duration::from_millis(500);
/// How often a waiting worker looks for a stop request.
const STOP_POLL: Duration = Duration::from_millis(100);
/// After the child is reaped, wait this long for its pipes to close. A descendant that left
/// the process group (setsid) could hold them open forever; the sweep does not wait for it.
const PIPE_GRACE: Duration = Duration::from_secs(2);

/// Limits for one run.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct Limits {
    /// Kill the process group after this long.
    pub wall: Duration,
    /// `RLIMIT_AS` in bytes (soft and hard).
    pub memory_bytes: Option<u64>,
    /// `RLIMIT_CPU` soft limit in seconds (SIGXCPU); the hard limit (SIGKILL) is 2 s later.
    pub cpu_secs: Option<u64>,
}

/// How the child ended.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Exit {
    Code(i32),
    Signal(i32),
}

impl Exit {
    /// The shell's convention: the exit code, or 128 + the signal number.
    pub fn code(self) -> i32 {
        match self {
            Exit::Code(c) => c,
            Exit::Signal(s) => 128 + s,
        }
    }
}

/// One finished run, uninterpreted.
#[derive(Clone, Debug)]
pub(crate) struct RawRun {
    pub exit: Exit,
    pub stdout: Vec<u8>,
    /// stdout was longer than [`STDOUT_CAP`].
    pub stdout_truncated: bool,
    /// The end of stderr, lossily decoded.
    pub stderr_tail: String,
    pub elapsed: Duration,
    /// The sweep killed the group because the wall-clock limit passed.
    pub killed_on_timeout: bool,
    /// The sweep ended the group because it was asked to stop.
    pub interrupted: bool,
    /// Peak resident set size (`ru_maxrss`) of the child and the descendants it waited for.
    pub peak_mem_kib: Option<u64>,
    /// User + system CPU time of the child and the descendants it waited for.
    pub cpu_time: Duration,
}

#[derive(Default)]
struct Captured {
    bytes: Vec<u8>,
    truncated: bool,
}

/// Runs `argv` (the program first) with `limits`. An `Err` means the child could not be
/// started (or reaped); everything that happens after a successful start is in the `RawRun`.
pub(crate) fn run_limited(
    argv: &[OsString],
    limits: &Limits,
    stop: &super::StopFlag,
) -> io::Result<RawRun> {
    let Some((program, args)) = argv.split_first() else {
        return Err(io::Error::new(io::ErrorKind::InvalidInput, "empty command"));
    };
    let mut cmd = Command::new(program);
    cmd.args(args)
        .stdin(Stdio::null())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        // Its own process group, so that a timeout kills seqloc *and* the checkers it started.
        .process_group(0);

    // Built before the fork: the closure below runs between fork and exec, where only
    // async-signal-safe calls are allowed (no allocation, no locks). setrlimit is a plain
    // system call.
    let as_limit = limits
        .memory_bytes
        .map(|b| within_hard_limit(libc::RLIMIT_AS, b, b));
    let cpu_limit = limits
        .cpu_secs
        .map(|s| within_hard_limit(libc::RLIMIT_CPU, s, s.saturating_add(2)));
    // SAFETY: getpid is a plain system call.
    let parent = unsafe { libc::getpid() };
    // SAFETY: the closure only makes plain system calls (setrlimit, prctl, getppid, _exit) on
    // values computed before the fork, and builds an io::Error from errno, which does not
    // allocate.
    unsafe {
        cmd.pre_exec(move || {
            #[cfg(target_os = "linux")]
            {
                // Die with the sweep. The signal is tied to the thread that forked, a worker
                // that lives until the sweep ends.
                if libc::prctl(libc::PR_SET_PDEATHSIG, libc::SIGKILL as libc::c_ulong) != 0 {
                    return Err(io::Error::last_os_error());
                }
                // The sweep may have died between fork and prctl.
                if libc::getppid() != parent {
                    libc::_exit(1);
                }
            }
            #[cfg(not(target_os = "linux"))]
            let _ = parent;
            // No core dumps: a crashing task under a multi-gigabyte limit would write its
            // whole address space into the sweep's working folder.
            let no_core = libc::rlimit {
                rlim_cur: 0,
                rlim_max: 0,
            };
            if libc::setrlimit(libc::RLIMIT_CORE, &no_core) != 0 {
                return Err(io::Error::last_os_error());
            }
            if let Some(l) = as_limit {
                if libc::setrlimit(libc::RLIMIT_AS, &l) != 0 {
                    return Err(io::Error::last_os_error());
                }
            }
            if let Some(l) = cpu_limit {
                if libc::setrlimit(libc::RLIMIT_CPU, &l) != 0 {
                    return Err(io::Error::last_os_error());
                }
            }
            Ok(())
        });
    }

    let start = Instant::now();
    let mut child = cmd.spawn()?;
    let pid = child.id() as libc::pid_t;
    let registered = RUNNING.insert(pid);

    let stdout = Arc::new(Mutex::new(Captured::default()));
    let stderr = Arc::new(Mutex::new(Captured::default()));
    let (pipes_tx, pipes_rx) = mpsc::channel::<()>();
    if let Some(out) = child.stdout.take() {
        spawn_reader(out, Arc::clone(&stdout), false, pipes_tx.clone())?;
    }
    if let Some(err) = child.stderr.take() {
        spawn_reader(err, Arc::clone(&stderr), true, pipes_tx.clone())?;
    }
    drop(pipes_tx);

    // Reap in a thread, so that this thread can wait on a channel with a timeout; `Child`'s own
    // wait would not give the rusage.
    let (wait_tx, wait_rx) = mpsc::channel();
    thread::Builder::new()
        .name(format!("sweep-wait-{pid}"))
        .spawn(move || {
            let _ = wait_tx.send(wait4(pid));
        })?;

    let mut killed_on_timeout = false;
    let mut interrupted = false;
    let deadline = start + limits.wall;
    let waited = loop {
        if stop.requested() {
            interrupted = true;
            break terminate(pid, &wait_rx)?;
        }
        let left = deadline.saturating_duration_since(Instant::now());
        if left.is_zero() {
            killed_on_timeout = true;
            break terminate(pid, &wait_rx)?;
        }
        // Woken now and then to see a stop request; the child's end wakes it at once.
        match wait_rx.recv_timeout(left.min(STOP_POLL)) {
            Ok(w) => break w,
            Err(RecvTimeoutError::Timeout) => {}
            Err(RecvTimeoutError::Disconnected) => {
                return Err(io::Error::other("the reaper thread ended without a result"));
            }
        }
    };
    let elapsed = start.elapsed();
    // Descendants can outlive the child (a checker left behind, a `sleep`): kill what is left
    // of the group. The group id cannot have been reused while any member is alive, and the
    // child was reaped microseconds ago, so this cannot hit an unrelated group in practice.
    killpg(pid, libc::SIGKILL);
    if registered {
        RUNNING.remove(pid);
    }
    // `child` is dropped without `wait`: it was reaped by wait4 above.
    drop(child);
    let (status, rusage) = waited?;

    // Wait for both readers to see end-of-file, but not forever.
    let pipe_deadline = Instant::now() + PIPE_GRACE;
    for _ in 0..2 {
        let left = pipe_deadline.saturating_duration_since(Instant::now());
        if pipes_rx.recv_timeout(left).is_err() {
            break;
        }
    }
    let (stdout, stdout_truncated) = take(&stdout);
    let (stderr, _) = take(&stderr);

    let exit = if libc::WIFSIGNALED(status) {
        Exit::Signal(libc::WTERMSIG(status))
    } else {
        Exit::Code(libc::WEXITSTATUS(status))
    };
    Ok(RawRun {
        exit,
        stdout,
        stdout_truncated,
        stderr_tail: String::from_utf8_lossy(&stderr).into_owned(),
        elapsed,
        killed_on_timeout,
        interrupted,
        peak_mem_kib: maxrss_kib(&rusage),
        cpu_time: timeval(rusage.ru_utime) + timeval(rusage.ru_stime),
    })
}

/// Ends the child's group: SIGTERM first so that seqloc may remove its temporary files,
/// SIGKILL if that does not end it within [`TERM_GRACE`]; then its reaped status.
fn terminate<T>(pid: libc::pid_t, wait_rx: &mpsc::Receiver<T>) -> io::Result<T> {
    killpg(pid, libc::SIGTERM);
    match wait_rx.recv_timeout(TERM_GRACE) {
        Ok(w) => Ok(w),
        Err(_) => {
            killpg(pid, libc::SIGKILL);
            wait_rx
                .recv()
                .map_err(|_| io::Error::other("the reaper thread ended without a result"))
        }
    }
}

/// The process groups of the children running now, for [`kill_all_running`]. A fixed table of
/// atomics, because a signal handler may read it: no locks, no allocation. 0 marks a free
/// slot. More children than slots run unregistered (they still have the parent-death signal).
pub(crate) struct Registry {
    slots: [AtomicI32; 512],
}

static RUNNING: Registry = Registry::new();

impl Registry {
    pub(crate) const fn new() -> Registry {
        Registry {
            slots: [const { AtomicI32::new(0) }; 512],
        }
    }

    /// Records a group; false when the table is full.
    pub(crate) fn insert(&self, pgid: libc::pid_t) -> bool {
        self.slots.iter().any(|slot| {
            slot.compare_exchange(0, pgid, Ordering::SeqCst, Ordering::SeqCst)
                .is_ok()
        })
    }

    pub(crate) fn remove(&self, pgid: libc::pid_t) {
        for slot in &self.slots {
            if slot
                .compare_exchange(pgid, 0, Ordering::SeqCst, Ordering::SeqCst)
                .is_ok()
            {
                return;
            }
        }
    }

    /// Sends SIGKILL to every recorded group. Async-signal-safe.
    pub(crate) fn kill_all(&self) {
        for slot in &self.slots {
            let pgid = slot.load(Ordering::SeqCst);
            if pgid > 0 {
                killpg(pgid, libc::SIGKILL);
            }
        }
    }
}

/// Kills the process groups of all running sweep tasks (SIGKILL). Async-signal-safe: the CLI
/// may call it from its SIGINT/SIGTERM handler before exiting, so that an interrupted sweep
/// leaves no seqloc or checker behind. The interrupted tasks are not recorded as results.
pub fn kill_all_running() {
    RUNNING.kill_all();
}

/// The limit `(soft, hard)` lowered to the hard limit this process already has: an
/// unprivileged process cannot raise its hard limit, and asking to would make every spawn fail
/// (a sweep run under `ulimit -v`, say). The stricter limit is the one in force anyway.
fn within_hard_limit(resource: RlimitResource, soft: u64, hard: u64) -> libc::rlimit {
    let mut current = libc::rlimit {
        rlim_cur: libc::RLIM_INFINITY,
        rlim_max: libc::RLIM_INFINITY,
    };
    // SAFETY: a valid pointer to a local; on failure `current` stays "unlimited".
    unsafe {
        libc::getrlimit(resource, &mut current);
    }
    let cap = |v: u64| {
        let v = v as libc::rlim_t;
        if current.rlim_max == libc::RLIM_INFINITY {
            v
        } else {
            v.min(current.rlim_max)
        }
    };
    libc::rlimit {
        rlim_cur: cap(soft),
        rlim_max: cap(hard),
    }
}

#[cfg(all(target_os = "linux", target_env = "gnu"))]
type RlimitResource = libc::__rlimit_resource_t;
#[cfg(not(all(target_os = "linux", target_env = "gnu")))]
type RlimitResource = libc::c_int;

fn spawn_reader(
    mut pipe: impl Read + Send + 'static,
    into: Arc<Mutex<Captured>>,
    keep_tail: bool,
    done: mpsc::Sender<()>,
) -> io::Result<()> {
    thread::Builder::new()
        .name("sweep-pipe".to_string())
        .spawn(move || {
            let mut buf = [0u8; 8192];
            loop {
                let n = match pipe.read(&mut buf) {
                    Ok(0) => break,
                    Ok(n) => n,
                    Err(e) if e.kind() == io::ErrorKind::Interrupted => continue,
                    Err(_) => break,
                };
                let Ok(mut c) = into.lock() else { break };
                if keep_tail {
                    c.bytes.extend_from_slice(&buf[..n]);
                    if c.bytes.len() > 2 * STDERR_TAIL {
                        let cut = c.bytes.len() - STDERR_TAIL;
                        c.bytes.drain(..cut);
                        c.truncated = true;
                    }
                } else if c.bytes.len() + n <= STDOUT_CAP {
                    c.bytes.extend_from_slice(&buf[..n]);
                } else {
                    // Keep draining so that the child does not block on a full pipe.
                    c.truncated = true;
                }
            }
            let _ = done.send(());
        })?;
    Ok(())
}

fn take(c: &Arc<Mutex<Captured>>) -> (Vec<u8>, bool) {
    match c.lock() {
        Ok(mut c) => {
            let mut bytes = std::mem::take(&mut c.bytes);
            if c.truncated && bytes.len() > STDERR_TAIL {
                let cut = bytes.len() - STDERR_TAIL;
                bytes.drain(..cut);
            }
            (bytes, c.truncated)
        }
        Err(_) => (Vec::new(), true),
    }
}

fn wait4(pid: libc::pid_t) -> io::Result<(libc::c_int, libc::rusage)> {
    loop {
        let mut status: libc::c_int = 0;
        // SAFETY: rusage is plain old data; zero is a valid value.
        let mut rusage: libc::rusage = unsafe { std::mem::zeroed() };
        // SAFETY: valid pointers to locals; pid is our own child.
        let r = unsafe { libc::wait4(pid, &mut status, 0, &mut rusage) };
        if r == pid {
            return Ok((status, rusage));
        }
        let e = io::Error::last_os_error();
        if e.kind() != io::ErrorKind::Interrupted {
            return Err(e);
        }
    }
}

fn killpg(pgid: libc::pid_t, signal: libc::c_int) {
    // SAFETY: plain system call. ESRCH (the group is already gone) is the expected failure.
    unsafe {
        libc::killpg(pgid, signal);
    }
}

fn maxrss_kib(r: &libc::rusage) -> Option<u64> {
    let v = u64::try_from(r.ru_maxrss).ok()?;
    // Linux reports KiB, macOS bytes.
    if cfg!(target_os = "macos") {
        Some(v / 1024)
    } else {
        Some(v)
    }
}

fn timeval(t: libc::timeval) -> Duration {
    Duration::from_secs(t.tv_sec.max(0) as u64) + Duration::from_micros(t.tv_usec.max(0) as u64)
}

/// Whether a process with this id is running (used by tests to check that a group was
/// killed). A zombie counts as dead: an orphan is reaped by init, which in some containers
/// never happens.
#[cfg(test)]
pub(crate) fn alive(pid: libc::pid_t) -> bool {
    match std::fs::read_to_string(format!("/proc/{pid}/stat")) {
        // The state follows the parenthesised command name.
        Ok(stat) => !matches!(
            stat.rsplit_once(')')
                .map(|(_, rest)| rest.trim_start().chars().next()),
            Some(Some('Z' | 'X'))
        ),
        Err(_) => false,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn sh(script: &str, wall: Duration) -> RawRun {
        let argv: Vec<OsString> = vec!["/bin/sh".into(), "-c".into(), script.into()];
        let limits = Limits {
            wall,
            memory_bytes: Some(512 << 20),
            cpu_secs: Some(30),
        };
        run_limited(&argv, &limits, &Default::default()).unwrap()
    }

    #[test]
    fn captures_exit_code_and_both_streams() {
        let r = sh("echo out; echo err >&2; exit 7", Duration::from_secs(10));
        assert_eq!(r.exit, Exit::Code(7));
        assert_eq!(r.stdout, b"out\n");
        assert_eq!(r.stderr_tail, "err\n");
        assert!(!r.killed_on_timeout);
        assert!(r.peak_mem_kib.is_some_and(|m| m > 0));
    }

    #[test]
    fn the_child_runs_under_the_limits() {
        // Soft limits as the child sees them: no core dumps, 512 MiB of address space (in
        // KiB), 30 s of CPU time.
        let r = sh("ulimit -c; ulimit -v; ulimit -t", Duration::from_secs(10));
        assert_eq!(String::from_utf8_lossy(&r.stdout), "0\n524288\n30\n");
    }

    #[test]
    fn large_outputs_do_not_block_the_child() {
        // Far more than a pipe buffer on both streams; stderr keeps only its tail.
        let r = sh(
            "head -c 3000000 /dev/zero | tr '\\0' o; head -c 3000000 /dev/zero | tr '\\0' e >&2; echo END >&2",
            Duration::from_secs(20),
        );
        assert_eq!(r.exit, Exit::Code(0));
        assert_eq!(r.stdout.len(), 3_000_000);
        assert!(r.stderr_tail.len() <= STDERR_TAIL);
        assert!(r.stderr_tail.ends_with("eEND\n"));
    }

    #[test]
    fn reports_signals_as_128_plus_signal() {
        let r = sh("kill -ABRT $$", Duration::from_secs(10));
        assert_eq!(r.exit, Exit::Signal(libc::SIGABRT));
        assert_eq!(r.exit.code(), 134);
    }

    #[test]
    fn limits_stay_within_the_hard_limit_in_force() {
        let l = within_hard_limit(libc::RLIMIT_CPU, 5, 7);
        assert!(l.rlim_cur <= 5 && l.rlim_max <= 7 && l.rlim_cur <= l.rlim_max);
    }

    #[test]
    fn the_registry_kills_recorded_groups() {
        // A local table, so that no other test's children are touched.
        let table = Registry::new();
        let mut child = std::process::Command::new("sleep")
            .arg("30")
            .process_group(0)
            .spawn()
            .unwrap();
        let pid = child.id() as libc::pid_t;
        assert!(table.insert(pid));
        table.kill_all();
        let status = child.wait().unwrap();
        use std::os::unix::process::ExitStatusExt;
        assert_eq!(status.signal(), Some(libc::SIGKILL));
        table.remove(pid);
        assert!(table.slots.iter().all(|s| s.load(Ordering::SeqCst) == 0));
        // Full table: insert says so instead of overwriting.
        for k in 0..512 {
            assert!(table.insert(100_000 + k));
        }
        assert!(!table.insert(7));
    }

    #[test]
    fn a_missing_program_is_an_error_to_start() {
        let argv: Vec<OsString> = vec!["/nonexistent/seqloc".into()];
        let limits = Limits {
            wall: Duration::from_secs(1),
            memory_bytes: None,
            cpu_secs: None,
        };
        assert!(run_limited(&argv, &limits, &Default::default()).is_err());
        assert!(run_limited(&[], &limits, &Default::default()).is_err());
    }
}
