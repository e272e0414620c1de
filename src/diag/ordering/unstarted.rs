//! Order violations against a thread that never ran.
//!
//! A thread created in the failing run may not have run a single step before the failure:
//! the logger's setup thread is created first, the application thread second, and the
//! application writes to the log before the setup thread ever started. The trace holds no
//! block of the setup thread to move, so [`super::order_violations`] sees nothing. Its
//! accesses are known from its code: every statement of its function and the functions
//! it calls. A step of another thread that touches what that code writes (or writes what
//! it reads) is tried with the whole thread run in front of it — in front of the step, and
//! in front of the step's block when the step sits inside a critical section the thread
//! would have to wait for. When the failure disappears, the step ran too early.
//!
//! For a statement of another thread than the creator, such a run is weak evidence: the
//! unstarted thread's writes may only overwrite a wrong start value the statement read (a
//! sibling that runs first is often meant), so its candidates rank with the plain values
//! (`Role::NeverRanFirst`) and its run is no closest passing run. The creator reading
//! its child's work before the child ran (no join before the read) is a missing join.
//!
//! When it was the step's thread's first access to that data and the thread was created
//! after the one that never ran, one more replay runs the unstarted thread to its end in
//! front of that creation: when that passes too, the `pthread_create` is a repair
//! (create it after the other thread is joined), as for a thread whose block could move.

use std::collections::BTreeSet;

use super::{
    OrderSearch, OrderViolation, block_runs, creation_index, data_accesses, first_clash, may_alias,
    touching,
};
use crate::cex::{Counterexample, TraceStep};
use crate::diag::Replays;
use crate::diag::interleaving::Accesses;
use crate::passes::Prepared;
use crate::seq::schedule::{Resolved, ResolvedBlock, Stop};

/// Replays tried at most for one thread that never ran, and for all of them.
const MAX_TESTED: usize = 8;
const MAX_TESTED_IN_ALL: usize = 24;

/// Order violations against the threads the failing run created but never ran (see the
/// module comment).
pub fn unstarted_order_violations<R: Replays>(
    prep: &Prepared,
    replays: &R,
    resolved: &Resolved,
    replay: &Counterexample,
    accesses: &Accesses,
) -> Result<OrderSearch, R::Error> {
    let steps = &replay.steps;
    let mut found = OrderSearch::default();
    let Some(runs) = block_runs(resolved, steps) else {
        return Ok(found);
    };
    let touched = |s: &TraceStep| data_accesses(accesses, s);
    let mut never = crate::diag::interleaving::unscheduled_threads(prep, resolved, steps);
    for (t, f) in &resolved.threads {
        if !resolved.blocks.iter().any(|b| b.thread == *t) {
            never.push((*t, *f));
        }
    }
    if never.is_empty() {
        return Ok(found);
    }
    let structure = crate::analysis::facts::thread_structure(&prep.normalized);
    for (y, f) in never {
        if found.replays >= MAX_TESTED_IN_ALL {
            break;
        }
        let Some(cy) = creation_index(steps, y) else {
            continue;
        };
        let code = thread_code(prep, &structure, y, f, false);
        let theirs = touching(accesses, code);
        let mut tested = 0;
        let mut done: BTreeSet<u32> = BTreeSet::new();
        'steps: for (i, b) in resolved.blocks.iter().enumerate() {
            if b.thread == y || done.contains(&b.thread) {
                continue;
            }
            let (start, end) = runs[i];
            for k in start.max(cy + 1)..end {
                if tested >= MAX_TESTED || replays.expired() {
                    break 'steps;
                }
                let step = &steps[k];
                let (r, w) = touched(step);
                let Some((late_step, conflicts)) = first_clash(&theirs, (&r, &w)) else {
                    continue;
                };
                // In front of the step; else in front of its block (the step may sit in a
                // section the unstarted thread would wait for).
                let mut passing = None;
                for at in [k, start] {
                    if passing.is_some() || (at == start && k == start) {
                        continue;
                    }
                    let Some(r) = run_thread_before(resolved, &runs, i, steps, at, y, f) else {
                        continue;
                    };
                    tested += 1;
                    if !replays.fails(&r, true)? {
                        passing = Some(r);
                    }
                }
                let Some(passing) = passing else {
                    continue;
                };
                let mentions = |p: &TraceStep| {
                    let (pr, pw) = touched(p);
                    conflicts
                        .iter()
                        .any(|c| pr.iter().chain(&pw).any(|o| may_alias(c, o, false)))
                };
                let first_access = !steps[..k]
                    .iter()
                    .any(|p| p.thread == step.thread && mentions(p));
                let reader_only = !steps.iter().any(|p| {
                    p.thread == step.thread
                        && touched(p)
                            .1
                            .iter()
                            .any(|o| conflicts.iter().any(|c| may_alias(c, o, false)))
                });
                // The early thread's creation, after the unstarted thread's: run the
                // unstarted thread to its end in front of it.
                let mut creation = None;
                if let Some(cx) = creation_index(steps, step.thread).filter(|cx| *cx > cy) {
                    if first_access && tested < MAX_TESTED {
                        if let Some(ci) = runs.iter().position(|(s, e)| (*s..*e).contains(&cx)) {
                            if let Some(r) = run_thread_before(resolved, &runs, ci, steps, cx, y, f)
                            {
                                tested += 1;
                                if !replays.fails(&r, true)? {
                                    creation = Some(steps[cx].clone());
                                }
                            }
                        }
                    }
                }
                let by_creator = steps.get(cy).is_some_and(|c| c.thread == step.thread);
                found.violations.push(OrderViolation {
                    early: step.clone(),
                    late_thread: y,
                    late_step,
                    conflicts,
                    creation,
                    reader_only,
                    passing,
                    detached: None,
                    same_lock: None,
                    sibling_never_ran: !by_creator,
                });
                done.insert(b.thread);
                continue 'steps;
            }
        }
        found.replays += tested;
    }
    Ok(found)
}

/// The statements thread `y` (running `f`; `main` when `is_main`) can execute: its
/// function's and those of the functions it calls, as trace steps of `y`.
pub(super) fn thread_code(
    prep: &Prepared,
    structure: &crate::analysis::facts::ThreadStructure,
    y: u32,
    f: crate::ir::FuncId,
    is_main: bool,
) -> Vec<TraceStep> {
    use crate::analysis::facts::Root;
    let prog = &prep.normalized;
    let root = if is_main { Root::Main } else { Root::Thread(f) };
    let funcs: BTreeSet<crate::ir::FuncId> = structure
        .reach
        .get(&root)
        .cloned()
        .unwrap_or_else(|| [f].into_iter().collect());
    let mut out = Vec::new();
    for g in funcs {
        let Some(body) = &prog.func(g).body else {
            continue;
        };
        crate::ir::visit::each_stmt(body, &mut |s| {
            let Some(p) = prog.sources.position(s.loc) else {
                return;
            };
            let Some(text) = prep.index.get(s.id).map(|e| e.text.clone()) else {
                return;
            };
            out.push(TraceStep {
                thread: y,
                loc: s.loc,
                sid: s.id,
                file: p.file.to_string(),
                line: p.line,
                statement: text,
                writes: vec![],
            });
        });
    }
    out
}

/// The schedule with a block running thread `y` (a thread with no block of its own) to
/// its end in front of step `k` of block `i`: the block is split at the step, or, at its
/// first step, the run goes in front of the whole block.
fn run_thread_before(
    resolved: &Resolved,
    runs: &[(usize, usize)],
    i: usize,
    steps: &[TraceStep],
    k: usize,
    y: u32,
    f: crate::ir::FuncId,
) -> Option<Resolved> {
    run_thread_until_before(resolved, runs, i, steps, k, (y, f), Stop::End)
}

/// [`run_thread_before`], the thread run up to `until`.
pub(super) fn run_thread_until_before(
    resolved: &Resolved,
    runs: &[(usize, usize)],
    i: usize,
    steps: &[TraceStep],
    k: usize,
    (y, f): (u32, crate::ir::FuncId),
    until: Stop,
) -> Option<Resolved> {
    let run = ResolvedBlock { thread: y, until };
    let mut r = if runs.get(i).is_some_and(|(s, _)| *s == k) {
        let mut r = resolved.clone();
        r.ends = None;
        r.blocks.insert(i, run);
        r
    } else {
        super::split_around(resolved.clone(), i, steps, k, run)?
    };
    if !r.threads.iter().any(|(t, _)| *t == y) {
        r.threads.push((y, f));
        r.threads.sort_by_key(|(t, _)| *t);
    }
    Some(r)
}
