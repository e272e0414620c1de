//! `seqloc sweep`: many tasks, in parallel child processes, with limits and a summary.

use std::time::Duration;

use super::args::{SweepArgs, SweepMode};
use super::{Ctx, EXIT_CHECKER, EXIT_FAILURE_FOUND, EXIT_NO_FAILURE, Fail};
use seqloc::sweep::results::Status;
use seqloc::sweep::{self, Mode, SweepOptions};

pub fn run(_ctx: &Ctx, a: SweepArgs) -> Result<u8, Fail> {
    let report = if !a.merge.is_empty() {
        sweep::merge(&a.merge).map_err(|e| Fail::input(e.to_string()))?
    } else {
        let exe = std::env::current_exe()
            .map_err(|e| Fail::checker(format!("cannot find seqloc's own executable: {e}")))?;
        let mut opts = SweepOptions::new(a.paths.clone(), exe);
        opts.mode = match a.mode {
            SweepMode::Check => Mode::Check,
            SweepMode::Localize => Mode::Localize,
        };
        opts.jobs = a.jobs.unwrap_or(0);
        opts.timeout = Duration::from_secs_f64(a.timeout.max(1.0));
        opts.memory_mb = a.memory_limit;
        opts.shard = match &a.shard {
            Some(s) => Some(sweep::parse_shard(s).map_err(|e| Fail::input(e.to_string()))?),
            None => None,
        };
        opts.extra_args = a.task_args.clone();
        opts.progress = !a.no_progress;
        opts.witness_dir = a.witness_dir.clone();
        watch_stop_signals(&opts.stop);
        sweep::sweep(&opts).map_err(|e| Fail::input(e.to_string()))?
    };
    if report.tasks.is_empty() {
        // Nothing ran, so nothing was shown right: a typo in a path, or the wrong folder.
        return Err(Fail::input(format!(
            "no tasks found in {} (expected .yml task definitions, or .c/.i files)",
            a.paths
                .iter()
                .map(|p| p.display().to_string())
                .collect::<Vec<_>>()
                .join(", ")
        )));
    }
    if let Some(p) = &a.json {
        let f = std::fs::File::create(p)
            .map_err(|e| Fail::input(format!("cannot write {}: {e}", p.display())))?;
        sweep::results::write_json(&report, f).map_err(|e| Fail::input(e.to_string()))?;
    }
    if let Some(p) = &a.csv {
        let f = std::fs::File::create(p)
            .map_err(|e| Fail::input(format!("cannot write {}: {e}", p.display())))?;
        sweep::results::write_csv(&report, f).map_err(|e| Fail::input(e.to_string()))?;
    }
    print!("{}", sweep::render_table(&report));
    if report.interrupted {
        eprintln!(
            "seqloc: the sweep was stopped: the results hold the tasks that finished; the others are `skipped`, with the reason (exit {EXIT_CHECKER})"
        );
        return Ok(EXIT_CHECKER);
    }
    let bad = report
        .tasks
        .iter()
        .filter(|t| matches!(t.status, Status::Wrong | Status::Error))
        .count();
    if bad > 0 && !a.exit_zero {
        eprintln!(
            "seqloc: {bad} task(s) wrong or errored (exit {EXIT_FAILURE_FOUND}; --exit-zero for exit 0)"
        );
        return Ok(EXIT_FAILURE_FOUND);
    }
    Ok(EXIT_NO_FAILURE)
}

/// SIGINT and SIGTERM stop the sweep instead of killing it: no task starts after them, the
/// running ones are ended, and the results of those that finished are written.
fn watch_stop_signals(stop: &sweep::StopFlag) {
    use seqloc::checker::external::process::{catch_stop_signals, stop_signal};
    catch_stop_signals();
    let stop = stop.clone();
    // Without the thread a signal is only seen when the sweep ends: nothing is lost.
    let _ = std::thread::Builder::new()
        .name("sweep-signals".into())
        .spawn(move || {
            while stop_signal().is_none() {
                std::thread::sleep(Duration::from_millis(50));
            }
            stop.request();
        });
}
