//! Order violations against a thread preempted for good.
//!
//! `main` creates the workers and only then sets up what they use (`log_init()` after the
//! `pthread_create`s); the failing run preempts `main` inside the setup and a worker reads
//! the log before it exists. `main` never runs again before the failure, so the trace holds
//! no later block of it to move ([`super::order_violations`]), and it did run, so it is no
//! thread that never started ([`super::unstarted_order_violations`]). What it had still to
//! do is known from its code: the statements of its function and of the functions it calls
//! that it had not yet executed. A later step of another thread that touches what those
//! write (or writes what they read) is tried with the preempted thread run on in front of
//! it — to its next `pthread_join` (its own function's, after where it stopped) for
//! `main`, whose end is the program's, or to its end for any other thread. When the
//! failure disappears, the step ran too early.
//!
//! When the preempted thread created the early step's thread and the step was that
//! thread's first access to the data, the creation came too soon: created after the
//! setup, the thread would have found it done.

use std::collections::BTreeSet;

use super::unstarted::{run_thread_until_before, thread_code};
use super::{
    OrderSearch, OrderViolation, block_runs, creation_index, data_accesses, first_clash, may_alias,
    touching,
};
use crate::cex::{Counterexample, TraceStep};
use crate::diag::Replays;
use crate::diag::interleaving::Accesses;
use crate::passes::Prepared;
use crate::seq::schedule::{Resolved, Stop};

/// Replays tried at most, in all.
const MAX_TESTED: usize = 8;
/// Joins of `main` tried as the point it runs on to.
const JOINS_TRIED: usize = 2;

/// Order violations against the threads the failing run preempted for good (see the
/// module comment).
pub fn unresumed_order_violations<R: Replays>(
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
    let Some(main) = prep.normalized.main() else {
        return Ok(found);
    };
    let structure = crate::analysis::facts::thread_structure(&prep.normalized);
    let mut threads: Vec<(u32, crate::ir::FuncId)> = vec![(0, main)];
    threads.extend(resolved.threads.iter().copied().filter(|(t, _)| *t != 0));
    for (y, f) in threads {
        if found.replays >= MAX_TESTED || replays.expired() {
            break;
        }
        let Some(last) = resolved.blocks.iter().rposition(|b| b.thread == y) else {
            continue;
        };
        if resolved
            .blocks
            .get(last)
            .is_none_or(|b| b.until == Stop::End)
        {
            continue;
        }
        let Some(stopped_at) = steps.iter().rposition(|s| s.thread == y) else {
            continue;
        };
        let ran: BTreeSet<crate::ir::StmtId> = steps
            .iter()
            .filter(|s| s.thread == y)
            .map(|s| s.sid)
            .collect();
        let code = thread_code(prep, &structure, y, f, y == 0);
        // What it had still to do: the statements it had not executed yet.
        let rest = touching(
            accesses,
            code.iter().filter(|s| !ran.contains(&s.sid)).cloned(),
        );
        if rest.is_empty() {
            continue;
        }
        let stops = run_on_to(prep, &code, steps, y, f, &steps[stopped_at]);
        let mut done: BTreeSet<u32> = BTreeSet::new();
        'steps: for (i, b) in resolved.blocks.iter().enumerate().skip(last + 1) {
            if b.thread == y || done.contains(&b.thread) {
                continue;
            }
            let (start, end) = runs[i];
            for k in start..end {
                if found.replays >= MAX_TESTED || replays.expired() {
                    break 'steps;
                }
                let step = &steps[k];
                let (r, w) = touched(step);
                let Some((late_step, conflicts)) = first_clash(&rest, (&r, &w)) else {
                    continue;
                };
                // In front of the step; else in front of its block (the step may sit in a
                // section the preempted thread would wait for).
                let mut passing = None;
                let places = if k == start { vec![k] } else { vec![k, start] };
                'tries: for at in places {
                    for (until, join_line) in &stops {
                        let until = *until;
                        if found.replays >= MAX_TESTED {
                            break 'tries;
                        }
                        // `main` runs on to a join: a late step it reaches only after that
                        // join (a cleanup after `pthread_join`) is not what the replay ran,
                        // and whatever made it pass is no order of these two.
                        if let Some(join) = join_line
                            && !reached_before(prep, &structure, f, join, &late_step)
                        {
                            continue;
                        }
                        let Some(mut r) =
                            run_thread_until_before(resolved, &runs, i, steps, at, (y, f), until)
                        else {
                            continue;
                        };
                        // The rest of the failing schedule stops where the failing path
                        // went (inside a failing `assert`): every thread runs on to its
                        // end instead, the early one first and `main` last.
                        let inserted = if at == start { i } else { i + 1 };
                        finish_all(&mut r, inserted, step.thread);
                        found.replays += 1;
                        if !replays.fails(&r, true)? {
                            passing = Some(r);
                            break 'tries;
                        }
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
                // Created by the preempted thread before it was done: the creation.
                let creation = creation_index(steps, step.thread)
                    .and_then(|c| steps.get(c))
                    .filter(|c| c.thread == y && first_access)
                    .cloned();
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
                    sibling_never_ran: false,
                });
                done.insert(b.thread);
                continue 'steps;
            }
        }
    }
    Ok(found)
}

/// Where thread `y` runs on to: `main` to one of its own function's joins after the
/// statement it stopped at (its end is the program's, with threads still running), with
/// the join's line; any other thread to its end.
fn run_on_to(
    prep: &Prepared,
    code: &[TraceStep],
    steps: &[TraceStep],
    y: u32,
    f: crate::ir::FuncId,
    stopped: &TraceStep,
) -> Vec<(Stop, Option<(String, u32)>)> {
    if y != 0 {
        return vec![(Stop::End, None)];
    }
    let mut own_sids: BTreeSet<crate::ir::StmtId> = BTreeSet::new();
    if let Some(body) = &prep.normalized.func(f).body {
        crate::ir::visit::each_stmt(body, &mut |s| {
            own_sids.insert(s.id);
        });
    }
    let own = |s: &TraceStep| own_sids.contains(&s.sid);
    let after = |s: &TraceStep| {
        crate::ir::index::same_file(&s.file, &stopped.file) && s.line > stopped.line
            || !own(stopped)
    };
    let mut joins: Vec<&TraceStep> = code
        .iter()
        .filter(|s| s.statement.contains("pthread_join(") && own(s) && after(s))
        .collect();
    joins.sort_by_key(|s| s.line);
    joins
        .into_iter()
        .take(JOINS_TRIED)
        .map(|j| {
            let before = steps
                .iter()
                .filter(|s| s.thread == y && s.sid == j.sid)
                .count() as u32;
            (
                Stop::Before(j.sid, before + 1),
                Some((j.file.clone(), j.line)),
            )
        })
        .collect()
}

/// Whether `main` (function `f`), run on to just before the join on `join` (file, line),
/// can have made `late`: a statement of its own above the join, or one of a function
/// that a call of its own above the join reaches.
fn reached_before(
    prep: &Prepared,
    structure: &crate::analysis::facts::ThreadStructure,
    f: crate::ir::FuncId,
    (file, join): &(String, u32),
    late: &TraceStep,
) -> bool {
    let prog = &prep.normalized;
    let above = |s: &crate::ir::Stmt| {
        prog.sources
            .position(s.loc)
            .is_some_and(|p| crate::ir::index::same_file(p.file, file) && p.line < *join)
    };
    let Some(body) = &prog.func(f).body else {
        return true;
    };
    // The function `late` belongs to.
    let mut home = None;
    for (i, g) in prog.funcs.iter().enumerate() {
        if let Some(b) = &g.body {
            crate::ir::visit::each_stmt(b, &mut |s| {
                if s.id == late.sid {
                    home = Some(crate::ir::FuncId(i as u32));
                }
            });
        }
    }
    let Some(home) = home else {
        return true;
    };
    if home == f {
        return crate::ir::index::same_file(&late.file, file) && late.line < *join;
    }
    // The functions that reach `home` through calls (itself included).
    let mut reaching: BTreeSet<crate::ir::FuncId> = [home].into();
    loop {
        let before = reaching.len();
        for (g, callees) in &structure.calls {
            if callees.iter().any(|c| reaching.contains(c)) {
                reaching.insert(*g);
            }
        }
        if reaching.len() == before {
            break;
        }
    }
    let mut calls = false;
    crate::ir::visit::each_stmt(body, &mut |s| {
        if calls || !above(s) || matches!(s.kind, crate::ir::StmtKind::Block(_)) {
            return;
        }
        crate::ir::visit::each_expr(s, &mut |e| {
            if let crate::ir::ExprKind::Call(c, _) = &e.kind
                && let crate::ir::ExprKind::Func(g) = c.peel().kind
            {
                calls |= reaching.contains(&g);
            }
        });
    });
    calls
}

/// `r` cut after its block `upto`, every thread then run to its end: `first` first, the
/// others in the order of their ids, `main` last.
fn finish_all(r: &mut Resolved, upto: usize, first: u32) {
    r.blocks.truncate(upto + 1);
    r.ends = None;
    r.finish_threads(Some(first), true);
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::ir::{FuncId, StmtId};
    use crate::seq::schedule::ResolvedBlock;

    #[test]
    fn the_cut_schedule_runs_every_thread_to_its_end_main_last() {
        let b = |thread, until| ResolvedBlock { thread, until };
        let mut r = Resolved {
            threads: vec![(0, FuncId(0)), (1, FuncId(1)), (2, FuncId(1))],
            blocks: vec![
                b(0, Stop::Before(StmtId(10), 1)),
                b(2, Stop::Before(StmtId(18), 1)),
                b(0, Stop::Before(StmtId(41), 1)),
                b(2, Stop::Before(StmtId(20), 1)),
                b(1, Stop::Before(StmtId(17), 1)),
            ],
            inputs: Default::default(),
            ends: None,
        };
        finish_all(&mut r, 2, 2);
        let threads: Vec<(u32, Stop)> = r.blocks.iter().map(|b| (b.thread, b.until)).collect();
        assert_eq!(
            threads,
            vec![
                (0, Stop::Before(StmtId(10), 1)),
                (2, Stop::Before(StmtId(18), 1)),
                (0, Stop::Before(StmtId(41), 1)),
                (2, Stop::End),
                (1, Stop::End),
                (0, Stop::End),
            ]
        );
    }
}
