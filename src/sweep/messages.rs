//! The one place where a sweep reports non-fatal problems: a task whose run failed (crash,
//! bad exit, unparsable output), a file in a benchmark folder that was ignored, result files
//! made with different options. It prints them on stderr (`seqloc: warning: ...`) and records
//! that a task failed, so that the CLI can pick its exit code from [`errored`] after the sweep,
//! as ripgrep's `messages.rs` does for files it could not search.
//!
//! Timeouts and out-of-memory are results, not problems: they are never reported here.
//!
//! The state is process-wide on purpose (a sweep is one per process, and threading a handle
//! through discovery, the worker pool and merging would buy nothing). Printing goes through
//! `with_output_hook` so the runner can hide its progress bar while a line is written.

use std::sync::Mutex;
use std::sync::atomic::{AtomicBool, Ordering};

static QUIET: AtomicBool = AtomicBool::new(false);
static ERRORED: AtomicBool = AtomicBool::new(false);

type Hook = Box<dyn Fn(&dyn Fn()) + Send + Sync>;
static HOOK: Mutex<Option<Hook>> = Mutex::new(None);

/// Silences messages on stderr (they are still counted).
pub fn set_quiet(quiet: bool) {
    QUIET.store(quiet, Ordering::Relaxed);
}

/// Whether any task of this process's sweeps failed (status `error`).
pub fn errored() -> bool {
    ERRORED.load(Ordering::Relaxed)
}

/// A problem that does not fail any task (an ignored file, differing options).
pub fn warn(message: &str) {
    emit(&format!("seqloc: warning: {message}"));
}

/// A task whose run failed. Records that an error happened.
pub fn task_error(id: &str, reason: &str) {
    ERRORED.store(true, Ordering::Relaxed);
    emit(&format!("seqloc: error: {id}: {reason}"));
}

/// Runs `f` with `hook` wrapped around every message printed meanwhile (the runner passes
/// `ProgressBar::suspend`, so a message does not tear the bar).
pub(crate) fn with_output_hook<T>(hook: Hook, f: impl FnOnce() -> T) -> T {
    if let Ok(mut h) = HOOK.lock() {
        *h = Some(hook);
    }
    let out = f();
    if let Ok(mut h) = HOOK.lock() {
        *h = None;
    }
    out
}

fn emit(line: &str) {
    if QUIET.load(Ordering::Relaxed) {
        return;
    }
    let print = || eprintln!("{line}");
    match HOOK.lock() {
        Ok(h) => match h.as_ref() {
            Some(hook) => hook(&print),
            None => print(),
        },
        Err(_) => print(),
    }
}
