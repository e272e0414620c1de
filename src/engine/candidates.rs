//! The candidate loop (paper 004, section IV), written once for every checker: ask the
//! [`Oracle`] for a set of lines whose change avoids the failure, exclude it (and every set
//! containing it), ask again; sets of 1, 2, ... `faults` lines in turn, so that each set
//! reported is minimal — no line of it can be left unchanged.

use std::time::Instant;

use super::diagnosis::{Validation, add_stats};
use super::progress::Observer;
use crate::checker::builtin::{Limit, Stats};
use crate::checker::oracle::{Next, Oracle, OracleError, Stop};
use crate::instrument::Finding;

#[derive(Clone, Debug)]
pub struct LoopOptions {
    /// Largest set of lines that may change together.
    pub faults: u32,
    /// Stop after this many answers.
    pub max_candidates: Option<usize>,
}

#[derive(Clone, Debug, Default)]
pub struct Localization {
    pub findings: Vec<Finding>,
    /// The loop ran until the checker had no more answers.
    pub complete: bool,
    /// Why it stopped early (candidate limit, time limit, solver), in words.
    pub stopped: Option<String>,
    /// The limit that stopped it, when one did: the candidates are then only those found
    /// so far.
    pub limit: Option<Limit>,
    /// Questions asked of the checker (validation included).
    pub checker_runs: u32,
    pub stats: Stats,
}

/// Runs the loop on `oracle`, counting the diagnosis model's validation in the totals.
pub fn run(
    oracle: &mut dyn Oracle,
    validation: &Validation,
    opts: &LoopOptions,
    observer: &dyn Observer,
) -> Result<Localization, OracleError> {
    let t0 = Instant::now();
    let mut loc = Localization::default();
    let sizes = (opts.faults.max(1) as usize).min(oracle.max_set().max(1));
    let mut excluded: Vec<Vec<u32>> = Vec::new();
    let result = (|| {
        for size in 1..=sizes {
            loop {
                if opts.max_candidates.is_some_and(|m| loc.findings.len() >= m) {
                    loc.stopped = Some(format!(
                        "stopped after {} (--max-candidates)",
                        crate::words::count(loc.findings.len(), "candidate")
                    ));
                    return Ok(());
                }
                let next = oracle.next(size, &excluded)?;
                observer.checker_run(oracle.runs(), loc.findings.len());
                match next {
                    Next::Exhausted => break,
                    Next::Stopped(Stop::Limit(l)) => {
                        loc.limit = Some(l);
                        loc.stopped = Some(format!(
                            "{}; the candidates so far are listed",
                            crate::checker::builtin::stop::describe(l)
                        ));
                        return Ok(());
                    }
                    Next::Stopped(Stop::Undecided(why)) => {
                        loc.stopped = Some(why);
                        return Ok(());
                    }
                    Next::Found(a) => {
                        excluded.push(a.set.clone());
                        loc.findings.push(Finding {
                            set: a.set,
                            changes: a.changes,
                            at_ms: t0.elapsed().as_millis() as u64,
                            stored: a.stored,
                        });
                        observer.checker_run(oracle.runs(), loc.findings.len());
                    }
                }
            }
        }
        loc.complete = true;
        Ok(())
    })();
    loc.checker_runs = validation.checker_runs + oracle.runs();
    loc.stats = validation.stats;
    add_stats(&mut loc.stats, &oracle.stats());
    result.map(|()| loc)
}
