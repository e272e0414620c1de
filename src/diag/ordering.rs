//! Order violations: statements that ran too early.
//!
//! Some failures need the *absence* of a context switch: main overwrites the struct it
//! handed to a worker before the worker read it, a worker reads a table before the
//! loader filled it. No value along the failing interleaving is wrong in isolation and no
//! preemption can be removed; the repair makes one thread wait for another. For each
//! block of the failing schedule and each other thread whose next block touches what the
//! block touches (a write against a read or a write), the schedule is replayed with that
//! other block moved in front of the conflicting statement. When the failure disappears,
//! the statement ran too early: an `ordering` candidate. When it was the thread's very
//! first shared access, the other thread was created before it, and the block that had
//! to come first ran the other thread to its end without blocking, the thread itself
//! started too early: the `pthread_create` that started it is a candidate as well (create
//! it after the other thread is joined).
//!
//! As in [`super::interleaving`], every verdict is a concrete replay on the built-in
//! checker; a replay that cannot follow its schedule is never taken as evidence.

use std::collections::BTreeSet;

use super::Replays;
use super::interleaving::Accesses;
use crate::cex::{Counterexample, TraceStep};
use crate::passes::Prepared;
use crate::seq::schedule::{Resolved, ResolvedBlock, Stop};

/// The shared locations a step reads and writes.
type ReadsWrites = (BTreeSet<String>, BTreeSet<String>);

/// Reorderings tested at most (each costs one replay).
const MAX_TESTED: usize = 24;

/// A statement that ran before another thread's conflicting block, when the failure
/// needs that order.
#[derive(Clone, Debug)]
pub struct OrderViolation {
    /// The statement that ran too early, and its thread.
    pub early: TraceStep,
    /// The thread whose block had to come first, and its first conflicting step.
    pub late_thread: u32,
    pub late_step: TraceStep,
    /// Shared locations both touch.
    pub conflicts: Vec<String>,
    /// The `pthread_create` that started the early thread, when the early statement was
    /// its first access to what conflicts: the thread as a whole started too early.
    pub creation: Option<TraceStep>,
    /// The early thread never writes what conflicts in the failing run: it only uses what
    /// the late thread makes (a use before initialisation, not a race between updates).
    pub reader_only: bool,
    /// The schedule with the late block moved in front: it passes.
    pub passing: Resolved,
}

/// What the search found, and how many replays it took.
#[derive(Debug, Default)]
pub struct OrderSearch {
    pub violations: Vec<OrderViolation>,
    pub replays: usize,
}

/// Tests moving other threads' blocks in front of conflicting statements (see the module
/// comment).
pub fn order_violations<R: Replays>(
    replays: &R,
    resolved: &Resolved,
    replay: &Counterexample,
    accesses: &Accesses,
) -> Result<OrderSearch, R::Error> {
    let steps = &replay.steps;
    let Some(runs) = block_runs(resolved, steps) else {
        return Ok(OrderSearch::default());
    };
    // Data only: the order in which threads take a lock or start and join is what a
    // mutex or a join decides, not an order violation on data.
    let touched = |s: &TraceStep| -> ReadsWrites {
        if s.statement.contains("pthread_") {
            return Default::default();
        }
        let (r, w) = accesses(s);
        (r.into_iter().collect(), w.into_iter().collect())
    };
    let mut out: Vec<OrderViolation> = Vec::new();
    let mut tested = 0;

    for (i, bi) in resolved.blocks.iter().enumerate() {
        let (start, end) = runs[i];
        for (j, bj) in resolved.blocks.iter().enumerate().skip(i + 1) {
            if bj.thread == bi.thread {
                continue;
            }
            // Only the other thread's next block can move: it may not overtake the
            // thread's own earlier blocks.
            if resolved.blocks[i..j].iter().any(|b| b.thread == bj.thread) {
                continue;
            }
            let (js, je) = runs[j];
            let theirs: Vec<(usize, ReadsWrites)> =
                (js..je).map(|k| (k, touched(&steps[k]))).collect();
            // Accesses named alike first; a whole object through a pointer (`*p`), which
            // may be anything, only when none of those shows the order.
            'pair: for wild in [false, true] {
                for k in start..end {
                    if tested >= MAX_TESTED || replays.expired() {
                        return Ok(OrderSearch {
                            violations: out,
                            replays: tested,
                        });
                    }
                    let step = &steps[k];
                    let (r, w) = touched(step);
                    let clash = theirs.iter().find_map(|(tk, (tr, tw))| {
                        let hits = |v: &&String, set: &BTreeSet<String>| {
                            set.iter().any(|o| may_alias(v, o, wild))
                        };
                        let mut c: Vec<String> = w
                            .iter()
                            .filter(|v| hits(v, tr) || hits(v, tw))
                            .chain(r.iter().filter(|v| hits(v, tw)))
                            .cloned()
                            .collect();
                        // A location read and written is one conflict.
                        c.sort();
                        c.dedup();
                        (!c.is_empty()).then_some((*tk, c))
                    });
                    let Some((their_k, conflicts)) = clash else {
                        continue;
                    };
                    if out
                        .iter()
                        .any(|o| o.early.line == step.line && o.early.thread == step.thread)
                    {
                        continue;
                    }
                    // A thread cannot run before it is created: no replay needed.
                    if creation_index(steps, bj.thread).is_some_and(|c| c >= k) {
                        continue;
                    }
                    let Some(moved) = move_before(resolved, i, j, steps, k) else {
                        continue;
                    };
                    tested += 1;
                    // Strict: a moved block whose thread does not exist yet shows nothing.
                    if replays.fails(&moved, true)? {
                        continue;
                    }
                    let first_access = !steps[..k].iter().any(|p| {
                        p.thread == step.thread && {
                            let (pr, pw) = touched(p);
                            conflicts
                                .iter()
                                .any(|c| pr.iter().chain(&pw).any(|o| may_alias(c, o, wild)))
                        }
                    });
                    let reader_only = !steps.iter().any(|p| {
                        p.thread == step.thread
                            && touched(p)
                                .1
                                .iter()
                                .any(|o| conflicts.iter().any(|c| may_alias(c, o, wild)))
                    });
                    out.push(OrderViolation {
                        early: step.clone(),
                        reader_only,
                        late_thread: bj.thread,
                        late_step: steps[their_k].clone(),
                        conflicts,
                        // Starting the early thread after the late one is done is a repair
                        // when the late one already existed when it was created and the
                        // block that had to come first is its start: the whole late thread
                        // must come first, which a join before the creation gives.
                        creation: if first_access
                            && bj.thread < step.thread
                            && finishes_unblocked(resolved, j, &steps[js..je])
                        {
                            creation_step(steps, step.thread)
                        } else {
                            None
                        },
                        passing: moved,
                    });
                    // One early statement per block and other thread: the first one whose
                    // reordering avoids the failure.
                    break 'pair;
                }
            }
        }
    }
    Ok(OrderSearch {
        violations: out,
        replays: tested,
    })
}

/// A thread that never ran in the failing interleaving, whose work a read needed first,
/// while the reading thread joined some of the threads created with it but not this one.
#[derive(Clone, Debug)]
pub struct MissingJoin {
    /// The read that needed the thread's work.
    pub reader: TraceStep,
    /// The thread that never ran, its function, and where it was created.
    pub thread: u32,
    pub function: String,
    pub creation: TraceStep,
    /// Threads created at that statement, and how many of them the reader joined there.
    pub created: usize,
    pub joined: usize,
    /// The join that stopped short, and the loop around it (as steps of the reader).
    pub joins: Vec<TraceStep>,
    /// The schedule with the unjoined thread run before the read: it passes.
    pub passing: Resolved,
}

/// Missing joins (a join loop that stops one thread short): for every thread the trace
/// creates that never ran, when its creator joined only some of the threads created at
/// the same statement, the replay runs the thread in front of the creator's reads after
/// its joins; a read whose failure disappears needed the thread joined first.
pub fn missing_joins<R: Replays>(
    prep: &Prepared,
    replays: &R,
    resolved: &Resolved,
    replay: &Counterexample,
    accesses: &Accesses,
) -> Result<Vec<MissingJoin>, R::Error> {
    let steps = &replay.steps;
    let Some(runs) = block_runs(resolved, steps) else {
        return Ok(vec![]);
    };
    let mut never: Vec<(u32, crate::ir::FuncId)> =
        super::interleaving::unscheduled_threads(prep, resolved, steps);
    for (t, f) in &resolved.threads {
        if !resolved.blocks.iter().any(|b| b.thread == *t) {
            never.push((*t, *f));
        }
    }
    let mut out = Vec::new();
    for (y, f) in never {
        let Some(ci) = creation_index(steps, y) else {
            continue;
        };
        let creation = &steps[ci];
        let x = creation.thread;
        let created = steps
            .iter()
            .filter(|s| s.sid == creation.sid && s.statement.contains("pthread_create("))
            .count();
        // The creator's join sites, with how often each ran.
        let mut sites: Vec<(crate::ir::StmtId, usize, usize)> = Vec::new();
        for (i, s) in steps.iter().enumerate() {
            if s.thread != x || !s.statement.contains("pthread_join(") {
                continue;
            }
            match sites.iter_mut().find(|(sid, _, _)| *sid == s.sid) {
                Some(e) => e.1 += 1,
                None => sites.push((s.sid, 1, i)),
            }
        }
        let short: Vec<&(crate::ir::StmtId, usize, usize)> =
            sites.iter().filter(|(_, n, _)| *n < created).collect();
        let Some(last_join) = steps
            .iter()
            .rposition(|s| s.thread == x && s.statement.contains("pthread_join("))
        else {
            continue;
        };
        if short.is_empty() {
            continue;
        }
        let mut tested = 0;
        'reads: for (i, b) in resolved.blocks.iter().enumerate() {
            if b.thread != x {
                continue;
            }
            for k in runs[i].0.max(last_join + 1)..runs[i].1 {
                let (reads, _) = accesses(&steps[k]);
                if reads.is_empty() || steps[k].statement.contains("pthread_") {
                    continue;
                }
                if tested >= 8 || replays.expired() {
                    break 'reads;
                }
                let Some(mut r) = insert_before(resolved, i, steps, k, y) else {
                    continue;
                };
                if !r.threads.iter().any(|(t, _)| *t == y) {
                    r.threads.push((y, f));
                    r.threads.sort_by_key(|(t, _)| *t);
                }
                tested += 1;
                if replays.fails(&r, true)? {
                    continue;
                }
                let (sid, n, at) = *short[0];
                let mut joins = vec![steps[at].clone()];
                if let Some(l) = crate::analysis::waits::enclosing_loop(&prep.normalized, sid) {
                    if let Some(pos) = prep.normalized.sources.position(l.loc) {
                        joins.push(TraceStep {
                            thread: x,
                            loc: l.loc,
                            sid: l.id,
                            file: steps[at].file.clone(),
                            line: pos.line,
                            statement: String::new(),
                            writes: vec![],
                        });
                    }
                }
                out.push(MissingJoin {
                    reader: steps[k].clone(),
                    thread: y,
                    function: prep.normalized.func(f).name.clone(),
                    creation: creation.clone(),
                    created,
                    joined: n,
                    joins,
                    passing: r,
                });
                break 'reads;
            }
        }
    }
    Ok(out)
}

/// The schedule with a block running thread `y` to its end inserted in front of step `k`
/// of block `i`.
fn insert_before(
    resolved: &Resolved,
    i: usize,
    steps: &[TraceStep],
    k: usize,
    y: u32,
) -> Option<Resolved> {
    let run = ResolvedBlock {
        thread: y,
        until: Stop::End,
    };
    split_around(resolved.clone(), i, steps, k, run)
}

/// Whether two shared locations, as the report names them (`x`, `a[]`, `s.f`, `p->f`,
/// `*p`), may be the same memory. Names are compared as written; an access through a
/// pointer may reach any object with the same field, and a plain `*p` or `p[]` through a
/// pointer any object at all (`wild`). Only used to choose which reorderings to test: each is then
/// decided by a replay, so a wrong "may" costs a test, never a candidate.
fn may_alias(a: &str, b: &str, wild: bool) -> bool {
    if a == b {
        return true;
    }
    let indirect = |x: &str| x.starts_with('*') || x.contains("->");
    if !indirect(a) && !indirect(b) {
        return false;
    }
    let field = |x: &str| -> Option<String> {
        let cut = x
            .rfind("->")
            .map(|i| i + 2)
            .or_else(|| x.rfind('.').map(|i| i + 1))?;
        Some(x[cut..].trim_end_matches("[]").to_string())
    };
    match (field(a), field(b)) {
        (Some(fa), Some(fb)) => fa == fb,
        // A whole object through a pointer: anything.
        _ => wild && ((indirect(a) && field(a).is_none()) || (indirect(b) && field(b).is_none())),
    }
}

/// Whether block `j` is its thread's last and ran it to its end without an operation that
/// can block: then a join of that thread before the early thread's creation orders the
/// two without making the creator wait for something only the early thread can give.
fn finishes_unblocked(resolved: &Resolved, j: usize, ran: &[TraceStep]) -> bool {
    let b = resolved.blocks[j];
    let last = !resolved.blocks[j + 1..]
        .iter()
        .any(|o| o.thread == b.thread);
    let blocking = [
        "pthread_mutex_lock(",
        "pthread_cond_wait(",
        "pthread_cond_timedwait(",
        "pthread_join(",
        "sem_wait(",
        "pthread_spin_lock(",
        "pthread_rwlock_rdlock(",
        "pthread_rwlock_wrlock(",
        crate::ir::known::BARRIER_ARRIVE,
        crate::ir::known::BARRIER_LEAVE,
        crate::ir::known::ONCE_BEGIN,
    ];
    last && b.until == Stop::End
        && !ran
            .iter()
            .any(|s| blocking.iter().any(|op| s.statement.contains(op)))
}

/// For every block, the range of trace steps it ran, when every block of the schedule
/// shows as its own run of steps (otherwise blocks and steps cannot be matched up).
fn block_runs(resolved: &Resolved, steps: &[TraceStep]) -> Option<Vec<(usize, usize)>> {
    let mut runs: Vec<(u32, usize, usize)> = Vec::new();
    for (i, s) in steps.iter().enumerate() {
        match runs.last_mut() {
            Some((t, _, end)) if *t == s.thread => *end = i + 1,
            _ => runs.push((s.thread, i, i + 1)),
        }
    }
    if runs.len() != resolved.blocks.len() {
        return None;
    }
    resolved
        .blocks
        .iter()
        .zip(&runs)
        .map(|(b, r)| (b.thread == r.0).then_some((r.1, r.2)))
        .collect()
}

/// The schedule with block `j` moved in front of step `k` of block `i`.
fn move_before(
    resolved: &Resolved,
    i: usize,
    j: usize,
    steps: &[TraceStep],
    k: usize,
) -> Option<Resolved> {
    let mut r = resolved.clone();
    let bj = r.blocks.remove(j);
    split_around(r, i, steps, k, bj)
}

/// `r` with block `i` cut before its step `k` (by the occurrence the step is of its
/// statement in its thread's run) and `middle` run in the cut; block `i`'s thread resumes
/// after it. Fixed switch points no longer apply.
fn split_around(
    mut r: Resolved,
    i: usize,
    steps: &[TraceStep],
    k: usize,
    middle: ResolvedBlock,
) -> Option<Resolved> {
    let step = steps.get(k)?;
    if step.sid == crate::ir::StmtId::NONE {
        return None;
    }
    let occurrence = steps[..=k]
        .iter()
        .filter(|s| s.thread == step.thread && s.sid == step.sid)
        .count() as u32;
    let bi = r.blocks[i];
    r.ends = None;
    let head = ResolvedBlock {
        thread: bi.thread,
        until: Stop::Before(step.sid, occurrence),
    };
    r.blocks.splice(i..=i, [head, middle, bi]);
    Some(r)
}

/// The `pthread_create` step that started thread `t`: threads are numbered in creation
/// order, so it is the `t`-th creation in the trace.
fn creation_step(steps: &[TraceStep], t: u32) -> Option<TraceStep> {
    creation_index(steps, t).map(|i| steps[i].clone())
}

pub(crate) fn creation_index(steps: &[TraceStep], t: u32) -> Option<usize> {
    if t == 0 {
        return None;
    }
    steps
        .iter()
        .enumerate()
        .filter(|(_, s)| s.statement.contains("pthread_create("))
        .nth(t as usize - 1)
        .map(|(i, _)| i)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::ir::{FuncId, Loc, StmtId};

    fn step(thread: u32, sid: u32, line: u32, statement: &str) -> TraceStep {
        TraceStep {
            thread,
            loc: Loc::SYNTH,
            sid: StmtId(sid),
            file: "p.c".into(),
            line,
            statement: statement.into(),
            writes: vec![],
        }
    }

    fn schedule(blocks: &[(u32, Stop)]) -> Resolved {
        Resolved {
            threads: vec![(0, FuncId(0)), (1, FuncId(1)), (2, FuncId(1))],
            blocks: blocks
                .iter()
                .map(|&(thread, until)| ResolvedBlock { thread, until })
                .collect(),
            inputs: Default::default(),
            ends: Some(vec![1, 2, 3]),
        }
    }

    #[test]
    fn a_block_moves_in_front_of_the_nth_execution_of_a_statement() {
        let steps = vec![
            step(0, 1, 10, "x = 1;"),
            step(0, 1, 10, "x = 1;"),
            step(0, 2, 11, "y = 2;"),
            step(1, 7, 20, "r = x;"),
            step(0, 3, 12, "z = 3;"),
        ];
        let r = schedule(&[
            (0, Stop::Before(StmtId(3), 1)),
            (1, Stop::End),
            (0, Stop::End),
        ]);
        assert_eq!(block_runs(&r, &steps), Some(vec![(0, 3), (3, 4), (4, 5)]));
        let m = move_before(&r, 0, 1, &steps, 1).unwrap();
        assert_eq!(m.ends, None);
        assert_eq!(
            m.blocks,
            vec![
                ResolvedBlock {
                    thread: 0,
                    until: Stop::Before(StmtId(1), 2)
                },
                ResolvedBlock {
                    thread: 1,
                    until: Stop::End
                },
                ResolvedBlock {
                    thread: 0,
                    until: Stop::Before(StmtId(3), 1)
                },
                ResolvedBlock {
                    thread: 0,
                    until: Stop::End
                },
            ]
        );
    }

    #[test]
    fn blocks_that_show_no_steps_cannot_be_matched() {
        let steps = vec![step(0, 1, 10, "x = 1;"), step(0, 2, 11, "y = 2;")];
        let r = schedule(&[
            (0, Stop::Before(StmtId(2), 1)),
            (1, Stop::End),
            (0, Stop::End),
        ]);
        assert_eq!(block_runs(&r, &steps), None);
    }

    #[test]
    fn pointers_may_reach_objects_with_the_same_field() {
        assert!(may_alias("x", "x", false));
        assert!(!may_alias("x", "y", true));
        assert!(!may_alias("s.id", "s.weight", true));
        assert!(may_alias("t->id", "spec.id", false));
        assert!(!may_alias("t->id", "spec.weight", true));
        assert!(may_alias("*p", "count", true));
        assert!(!may_alias("*p", "count", false));
        assert!(may_alias("out[]", "*q", true));
        assert!(!may_alias("out[]", "in[]", true));
    }

    #[test]
    fn the_nth_thread_is_started_by_the_nth_creation() {
        let steps = vec![
            step(0, 1, 5, "pthread_create(&a, 0, f, 0);"),
            step(1, 7, 20, "r = x;"),
            step(0, 2, 6, "pthread_create(&b, 0, f, 0);"),
        ];
        assert_eq!(creation_step(&steps, 2).map(|s| s.line), Some(6));
        assert_eq!(creation_step(&steps, 1).map(|s| s.line), Some(5));
        assert!(creation_step(&steps, 3).is_none());
        assert!(creation_step(&steps, 0).is_none());
    }
}
