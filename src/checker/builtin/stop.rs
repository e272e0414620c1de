//! Stopping the built-in checker from outside, process-wide: a memory limit passed or a
//! stop signal (SIGINT, SIGTERM) received, at any stage of a run — the search, the
//! replays, the localization loop and the interleaving analyses that follow it.
//!
//! [`watch`] starts a thread that polls the process's resident memory and the stop signal
//! (caught by [`crate::checker::external::process::catch_stop_signals`], which it
//! installs). When one of them fires it records the [`Limit`] ([`requested`]) and
//! interrupts every Z3 solve in progress; every solve, symbolic execution and exploration
//! started afterwards gives up at once with that limit. The solves register themselves
//! around Z3's check ([`Solving`]), so a context is interrupted only while its thread is
//! inside a solve, when it is alive.

use std::sync::Mutex;
use std::sync::atomic::{AtomicU8, AtomicU64, Ordering};
use std::time::Duration;

use super::{Interruptible, Limit};

/// How long the stages get to give up after a stop before the process exits anyway.
const GRACE: Duration = Duration::from_secs(10);

/// 0: no stop; otherwise the limit that asked for one (see [`code`]).
static STOP: AtomicU8 = AtomicU8::new(0);
/// The memory limit being watched, in MB (0: none), for messages.
static MEMORY_MB: AtomicU64 = AtomicU64::new(0);
/// The user's time limit in milliseconds (0: none), for messages.
static TIME_MS: AtomicU64 = AtomicU64::new(0);
/// The contexts of the threads inside a solve, with how many solves each has running.
static SOLVING: Mutex<Vec<(usize, Interruptible)>> = Mutex::new(Vec::new());

fn code(l: Limit) -> u8 {
    match l {
        Limit::Time => 1,
        Limit::Memory => 2,
        Limit::Interrupted => 3,
    }
}

/// The limit that stopped the run, if one did.
pub fn requested() -> Option<Limit> {
    match STOP.load(Ordering::SeqCst) {
        1 => Some(Limit::Time),
        2 => Some(Limit::Memory),
        3 => Some(Limit::Interrupted),
        _ => None,
    }
}

/// The memory limit [`watch`] watches, in MB.
pub fn memory_limit_mb() -> Option<u64> {
    match MEMORY_MB.load(Ordering::SeqCst) {
        0 => None,
        mb => Some(mb),
    }
}

/// Records the user's time limit, so that a message about reaching it can name it.
pub fn set_time_limit(limit: Option<Duration>) {
    let ms = limit.map_or(0, |d| u64::try_from(d.as_millis()).unwrap_or(u64::MAX));
    TIME_MS.store(ms, Ordering::SeqCst);
}

/// A duration as a user writes it: `12 s`, `1.5 s`.
pub fn seconds(d: Duration) -> String {
    let s = d.as_secs_f64();
    if s.fract() == 0.0 {
        format!("{s:.0} s")
    } else {
        format!("{s} s")
    }
}

fn time_limit() -> Option<Duration> {
    match TIME_MS.load(Ordering::SeqCst) {
        0 => None,
        ms => Some(Duration::from_millis(ms)),
    }
}

/// Stops the run: records `l` (the first stop wins) and interrupts the solves in progress.
pub fn request(l: Limit) {
    let _ = STOP.compare_exchange(0, code(l), Ordering::SeqCst, Ordering::SeqCst);
    let solving = SOLVING.lock().unwrap_or_else(|e| e.into_inner());
    for (_, ctx) in solving.iter() {
        ctx.interrupt();
    }
}

/// Marks the calling thread as solving for as long as it lives; registered before the
/// stop is looked at, so that [`request`] either sees it or is seen by it.
pub(super) struct Solving(usize);

impl Solving {
    pub(super) fn enter() -> Solving {
        let ctx = Interruptible::this_thread();
        let key = ctx.key();
        SOLVING
            .lock()
            .unwrap_or_else(|e| e.into_inner())
            .push((key, ctx));
        Solving(key)
    }
}

impl Drop for Solving {
    fn drop(&mut self) {
        let mut solving = SOLVING.lock().unwrap_or_else(|e| e.into_inner());
        if let Some(i) = solving.iter().position(|(k, _)| *k == self.0) {
            solving.swap_remove(i);
        }
    }
}

/// Starts the watchdog for the rest of the process's life: stop signals always, resident
/// memory past `memory_mb` when given. Called once per run; later calls do nothing.
pub fn watch(memory_mb: Option<u64>) {
    static ONCE: std::sync::Once = std::sync::Once::new();
    ONCE.call_once(|| {
        crate::checker::external::process::catch_stop_signals();
        // Under an address-space limit (`ulimit -v`, `seqloc sweep`'s `RLIMIT_AS`) an
        // allocation past it fails, and Z3's failures panic inside the z3 crate: stop
        // while there is room, as at a memory limit. Without a limit of the user's, the
        // messages name this one.
        let space = address_space_limit();
        let named = memory_mb.or(space.map(|b| b >> 20));
        MEMORY_MB.store(named.unwrap_or(0), Ordering::SeqCst);
        let spawned = std::thread::Builder::new()
            .name("seqloc-watchdog".into())
            .spawn(move || {
                loop {
                    if crate::checker::external::process::stop_signal().is_some() {
                        request(Limit::Interrupted);
                        break;
                    }
                    if memory_mb.is_some_and(|mb| resident_mb().is_some_and(|r| r > mb))
                        || space.is_some_and(|l| {
                            address_space_bytes().is_some_and(|v| v > l / 10 * SPACE_TENTHS)
                        })
                    {
                        request(Limit::Memory);
                        break;
                    }
                    std::thread::sleep(Duration::from_millis(20));
                }
                // Every stage gives up within a fraction of a second of the stop; one that
                // does not (a stage that never looks) must not keep the user waiting.
                std::thread::sleep(GRACE);
                eprintln!(
                    "error: {}, and seqloc did not stop within {} s: exiting without a report",
                    requested().map_or_else(|| "stopped".into(), describe),
                    GRACE.as_secs()
                );
                // SAFETY: `_exit` ends the process at once, without running destructors that
                // other threads might still be using.
                unsafe { libc::_exit(i32::from(crate::exit::NO_ANSWER)) }
            });
        // Without the thread, limits are only the time limit's; nothing else changes.
        drop(spawned);
    });
}

/// The share of an address-space limit, in tenths, past which the watchdog stops the run:
/// Z3 asks for memory in large blocks, so the last tenth is the margin.
const SPACE_TENTHS: u64 = 9;

/// The soft address-space limit (`RLIMIT_AS`) in bytes, when one is set.
pub fn address_space_limit() -> Option<u64> {
    let mut r = libc::rlimit {
        rlim_cur: 0,
        rlim_max: 0,
    };
    // SAFETY: getrlimit only writes the struct it is given.
    if unsafe { libc::getrlimit(libc::RLIMIT_AS, &mut r) } != 0 {
        return None;
    }
    (r.rlim_cur != libc::RLIM_INFINITY).then_some(r.rlim_cur)
}

/// The address space this process has mapped, in bytes.
pub fn address_space_bytes() -> Option<u64> {
    statm_bytes(0)
}

/// Whether the process has mapped most of its address-space limit (three quarters or
/// more): a panic then is most likely an allocation that failed against the limit.
pub fn near_address_space_limit() -> bool {
    address_space_limit().is_some_and(|l| address_space_bytes().is_some_and(|v| v >= l / 4 * 3))
}

/// Resident memory of this process in MB.
pub fn resident_mb() -> Option<u64> {
    statm_bytes(1).map(|b| b >> 20)
}

/// Field `field` of `/proc/self/statm` (Linux; 0: mapped, 1: resident), in bytes.
fn statm_bytes(field: usize) -> Option<u64> {
    let statm = std::fs::read_to_string("/proc/self/statm").ok()?;
    let pages: u64 = statm.split_whitespace().nth(field)?.parse().ok()?;
    // SAFETY: sysconf only reads a configuration value.
    let page = unsafe { libc::sysconf(libc::_SC_PAGESIZE) };
    let page = u64::try_from(page).ok().filter(|p| *p > 0)?;
    Some(pages.saturating_mul(page))
}

/// The words for a limit that stopped the run, with its value where it has one.
pub fn describe(l: Limit) -> String {
    match (l, memory_limit_mb()) {
        (Limit::Memory, Some(mb)) => format!("memory limit of {mb} MB reached"),
        (Limit::Interrupted, _) => "interrupted (Ctrl-C or SIGTERM)".into(),
        (Limit::Time, _) if time_limit().is_some() => format!(
            "time limit of {} reached",
            seconds(time_limit().unwrap_or_default())
        ),
        (l, _) => super::Undecided::Limit(l).to_string(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_mapped_address_space_is_read() {
        let mapped = address_space_bytes().expect("/proc/self/statm");
        assert!(mapped > 0);
        // Whatever the test runner's limit, the process lives within it.
        if let Some(limit) = address_space_limit() {
            assert!(mapped <= limit, "{mapped} > {limit}");
        }
    }
}
