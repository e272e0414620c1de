//! `seqloc sweep`: run seqloc over whole SV-COMP-style benchmark folders, in parallel, with
//! per-task time and memory limits, and summarise the results.
//!
//! This module owns the machinery of a sweep, in the order a sweep runs it:
//!
//! * [`task`]: finds the tasks (SV-COMP task definitions, bare C files, `MANIFEST.json` ground
//!   truth) and identifies their properties;
//! * [`shard`]: picks one deterministic slice of the tasks (`--shard I/N`) and merges the result
//!   files of several shards;
//! * [`runner`]: runs seqloc once per task and property, as a child process with limits, and
//!   turns each run into a [`TaskResult`];
//! * [`results`]: the result types and their JSON and CSV forms (the wire format, versioned
//!   `seqloc.sweep/1`);
//! * [`summary`]: the plain-text summary table.
//!
//! **Architecture invariant:** a sweep never runs a check in-process. Every task is a separate
//! `seqloc check`/`seqloc localize` child process, in its own process group, under `RLIMIT_AS`
//! and `RLIMIT_CPU`, killed as a group when it runs past its wall-clock limit. A crash, a hang
//! or an allocation storm in one task therefore cannot take the sweep down: it becomes that
//! task's status (timeout, memout, error) and the other tasks' results are kept. The sweep
//! knows seqloc only through the child's documented JSON on stdout and its exit code.
//!
//! Timeouts and out-of-memory are results, not errors. [`SweepError`] is kept for what stops a
//! sweep before it starts or after it ends: paths that do not exist, an unreadable ground-truth
//! manifest, a bad `--shard`, result files that cannot be merged, output that cannot be
//! written. Problems that affect one task go through [`messages`].
//!
//! The CLI's path through the API: [`SweepOptions::new`], then [`sweep`] (or [`task::discover`]
//! and [`runner::run`]), then [`results::write_json`] / [`results::write_csv`] and
//! [`summary::render_table`]; `--merge` is [`shard::merge`].

use std::path::PathBuf;
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::Duration;

use serde::{Deserialize, Serialize};

pub mod messages;
mod outcome;
mod process;
pub mod results;
pub mod runner;
pub mod shard;
pub mod summary;
pub mod task;
pub mod witnesses;

pub use results::{SweepReport, TaskResult};
pub use runner::run;
pub use shard::{merge, parse_shard};
pub use summary::render_table;
pub use task::{Task, discover};

/// What each task's child process is asked to do.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum Mode {
    /// `seqloc check`: find a failure (verdicts only).
    Check,
    /// `seqloc localize`: find a failure and its candidate faulty lines.
    Localize,
}

impl Mode {
    /// The seqloc subcommand for this mode.
    pub fn subcommand(self) -> &'static str {
        match self {
            Mode::Check => "check",
            Mode::Localize => "localize",
        }
    }
}

/// Everything a sweep needs to know, resolved (no defaults left to pick).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct SweepOptions {
    /// Folders (searched recursively), task definitions (`.yml`) and C files (`.c`, `.i`).
    pub paths: Vec<PathBuf>,
    pub mode: Mode,
    /// Number of tasks run at the same time (child processes); 0 means [`default_jobs`].
    pub jobs: usize,
    /// Wall-clock limit per task. Passed to the child as `--timeout`; the sweep kills the
    /// child's process group a short grace period later (see [`runner::kill_grace`]).
    pub timeout: Duration,
    /// Address-space limit per task (`RLIMIT_AS`), in MiB; 0 means no limit.
    pub memory_mb: u64,
    /// `Some((i, n))`: run only shard `i` of `n` (1-based), see [`shard::select`].
    pub shard: Option<(u32, u32)>,
    /// Passed to every child after seqloc's own arguments.
    pub extra_args: Vec<String>,
    /// The seqloc executable to run (the CLI passes `std::env::current_exe()`).
    pub seqloc_exe: PathBuf,
    /// Draw a progress bar; it is drawn only when stderr is also a terminal.
    pub progress: bool,
    /// Write a violation witness per failing task and property into this folder (created
    /// if missing); see [`witnesses`].
    pub witness_dir: Option<PathBuf>,
    /// Set to stop the sweep early (the CLI sets it on SIGINT/SIGTERM): no task starts
    /// after it, running ones are ended, and the report holds what finished.
    pub stop: StopFlag,
}

/// A request to stop a sweep, shared between the sweep and whoever may ask (a signal
/// watcher). Two flags are equal when they are the same flag.
#[derive(Clone, Debug, Default)]
pub struct StopFlag(Arc<AtomicBool>);

impl StopFlag {
    pub fn request(&self) {
        self.0.store(true, Ordering::SeqCst);
    }

    pub fn requested(&self) -> bool {
        self.0.load(Ordering::SeqCst)
    }
}

impl PartialEq for StopFlag {
    fn eq(&self, other: &StopFlag) -> bool {
        Arc::ptr_eq(&self.0, &other.0)
    }
}

impl Eq for StopFlag {}

impl SweepOptions {
    /// Options with SV-COMP's limits (900 s, 15 000 MB), check mode, one job per core, no
    /// shard, no extra arguments, progress bar on.
    pub fn new(paths: Vec<PathBuf>, seqloc_exe: PathBuf) -> SweepOptions {
        SweepOptions {
            paths,
            mode: Mode::Check,
            jobs: default_jobs(),
            timeout: Duration::from_secs(900),
            memory_mb: 15_000,
            shard: None,
            extra_args: Vec::new(),
            seqloc_exe,
            progress: true,
            witness_dir: None,
            stop: StopFlag::default(),
        }
    }

    /// The number of workers actually used.
    pub fn effective_jobs(&self) -> usize {
        if self.jobs == 0 {
            default_jobs()
        } else {
            self.jobs
        }
    }
}

/// The default number of parallel tasks: the number of cores seqloc may use.
pub fn default_jobs() -> usize {
    std::thread::available_parallelism().map_or(1, |n| n.get())
}

/// Discovers the tasks under `opts.paths` and runs them (the shard in `opts.shard` only).
pub fn sweep(opts: &SweepOptions) -> Result<SweepReport, SweepError> {
    let tasks = discover(&opts.paths)?;
    run(opts, tasks)
}

/// What stops a sweep. One task's failure is never one of these: it is that task's status.
#[derive(Debug, thiserror::Error)]
pub enum SweepError {
    #[error("{}: no such file or folder", path.display())]
    NotFound { path: PathBuf },
    #[error(
        "{}: not a folder, a task definition (.yml, .yaml) or a C file (.c, .i)",
        path.display()
    )]
    UnsupportedPath { path: PathBuf },
    #[error("cannot read {}", path.display())]
    Io {
        path: PathBuf,
        #[source]
        source: std::io::Error,
    },
    #[error("{}: not an SV-COMP task definition: {reason}", path.display())]
    NotATask { path: PathBuf, reason: String },
    #[error("{}: invalid ground-truth manifest: {message}", path.display())]
    Manifest { path: PathBuf, message: String },
    #[error("invalid shard `{spec}`: {reason} (expected I/N with 1 <= I <= N, e.g. 2/8)")]
    BadShard { spec: String, reason: String },
    #[error("cannot run seqloc executable {}: {reason}", path.display())]
    Executable { path: PathBuf, reason: String },
    #[error("{}: not a seqloc sweep result file: {message}", path.display())]
    BadReport { path: PathBuf, message: String },
    #[error("cannot merge {}: {reason}", path.display())]
    MergeConflict { path: PathBuf, reason: String },
    #[error(
        "cannot merge: task {id} is in both {} and {}",
        first.display(),
        second.display()
    )]
    DuplicateTask {
        id: String,
        first: PathBuf,
        second: PathBuf,
    },
    #[error("cannot write the {what} results")]
    Write {
        what: &'static str,
        #[source]
        source: std::io::Error,
    },
    #[error("cannot create the witness folder {}", path.display())]
    WitnessDir {
        path: PathBuf,
        #[source]
        source: std::io::Error,
    },
    #[error("cannot start a sweep worker thread")]
    Thread(#[source] std::io::Error),
}
