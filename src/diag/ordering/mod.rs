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

mod uncreated;
mod unresumed;
mod unstarted;

use std::collections::BTreeSet;

pub use uncreated::{EarlyWaitTest, wait_tests_before_creation};
pub use unresumed::unresumed_order_violations;
pub use unstarted::unstarted_order_violations;

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
    /// The early thread had joined the late one before, and the join did not wait: the
    /// late thread was detached (`detached_joins`).
    pub detached: Option<DetachedJoin>,
    /// A lock both threads held at their conflicting accesses in the failing run: the two
    /// sections excluded each other, and only their order failed.
    pub same_lock: Option<String>,
    /// The late thread never ran in the failing run (`unstarted`) and the early statement
    /// is another thread's than its creator's: the late thread's writes, run first, may
    /// only overwrite a wrong start value the statement read (a sibling reading first is
    /// often meant). A creator reading its child's work before the child ran is not this.
    pub sibling_never_ran: bool,
}

/// A join that answered at once (EINVAL) because its thread was detached, and where it
/// was detached: a `pthread_detach`, or the `pthread_create` whose attribute asked for it.
#[derive(Clone, Debug)]
pub struct DetachedJoin {
    pub join: TraceStep,
    pub detach: TraceStep,
    /// For a thread created detached: the `pthread_attr_setdetachstate` call that set
    /// the attribute, when the trace shows it (the same `&attr`, a plain variable).
    pub attr: Option<TraceStep>,
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
    let touched = |s: &TraceStep| data_accesses(accesses, s);
    let mut out: Vec<OrderViolation> = Vec::new();
    let mut tested = 0;
    let held = crate::diag::interleaving::locks_held(steps);

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
                        let c = conflicts_of((&r, &w), (tr, tw), wild);
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
                    let same_lock = shared_lock(&held, k, step.thread, their_k, bj.thread);
                    out.push(OrderViolation {
                        same_lock,
                        sibling_never_ran: false,
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
                        detached: None,
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

/// A thread that never ran (or never finished) in the failing interleaving, whose work a
/// read needed first, while the reading thread joined some of the threads created with
/// it but not this one.
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
    /// The creator did join the thread, but the join did not wait: it was detached.
    pub detached: Option<DetachedJoin>,
    /// The thread ran part of its body before the read (and was preempted for good);
    /// otherwise it never ran before it.
    pub started: bool,
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
    let life = Lifecycle::new(&prep.normalized, resolved, steps);
    // A thread that ran but had not finished when its creator's join answered at once
    // (detached): its rest may be what a later read needed.
    let mut unfinished: Vec<(u32, crate::ir::FuncId)> = Vec::new();
    if let Some(l) = &life {
        for (t, f) in &resolved.threads {
            let creator = creation_index(steps, *t).map(|c| steps[c].thread);
            if !never.iter().any(|(y, _)| y == t)
                && creator.is_some_and(|x| l.detached_join(x, *t, steps.len()).is_some())
            {
                unfinished.push((*t, *f));
            }
        }
    }
    // A thread that started but was preempted for good before its end (its last block
    // stops early): its rest may be what a later read needed, exactly as for a thread
    // that never ran. Which of the two it is only changes the words.
    let mut preempted: Vec<(u32, crate::ir::FuncId)> = Vec::new();
    for (t, f) in &resolved.threads {
        let last = resolved.blocks.iter().rev().find(|b| b.thread == *t);
        if last.is_some_and(|b| b.until != Stop::End)
            && !never.iter().chain(&unfinished).any(|(y, _)| y == t)
        {
            preempted.push((*t, *f));
        }
    }
    let mut out = Vec::new();
    for (y, f) in never.into_iter().chain(unfinished).chain(preempted) {
        let started = resolved.blocks.iter().any(|b| b.thread == y);
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
        // Joined, but the join did not wait: the thread was detached.
        let detached = life
            .as_ref()
            .and_then(|l| l.detached_join(x, y, steps.len()));
        if short.is_empty() && detached.is_none() {
            continue;
        }
        let mut tested = 0;
        'reads: for (i, b) in resolved.blocks.iter().enumerate() {
            // The thread's rest runs in front of the read: none of it may be left after.
            if b.thread != x || resolved.blocks[i..].iter().any(|b| b.thread == y) {
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
                // The join that did not wait, or the join loop that stopped short (and
                // the loop around it).
                let (joined, joins) = match (&detached, short.first()) {
                    (Some(d), _) => (created, vec![d.join.clone()]),
                    (None, Some(&&(sid, n, at))) => {
                        let mut joins = vec![steps[at].clone()];
                        let lp = crate::analysis::waits::enclosing_loop(&prep.normalized, sid);
                        if let Some(l) = lp {
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
                        (n, joins)
                    }
                    (None, None) => break 'reads,
                };
                out.push(MissingJoin {
                    reader: steps[k].clone(),
                    thread: y,
                    function: prep.normalized.func(f).name.clone(),
                    creation: creation.clone(),
                    created,
                    joined,
                    joins,
                    passing: r,
                    detached: detached.clone(),
                    started,
                });
                break 'reads;
            }
        }
    }
    Ok(out)
}

/// The shared data step `s` reads and writes. Data only: the order in which threads take
/// a lock or start and join is what a mutex or a join decides, not an order violation on
/// data.
fn data_accesses(accesses: &Accesses, s: &TraceStep) -> ReadsWrites {
    if s.statement.contains("pthread_") {
        return Default::default();
    }
    let (r, w) = accesses(s);
    (r.into_iter().collect(), w.into_iter().collect())
}

/// Statements of a thread that touch shared data, each with what it reads and writes.
type Touching = Vec<(TraceStep, BTreeSet<String>, BTreeSet<String>)>;

/// Those of `code` that touch shared data (see [`data_accesses`]).
fn touching(accesses: &Accesses, code: impl IntoIterator<Item = TraceStep>) -> Touching {
    code.into_iter()
        .map(|s| {
            let (r, w) = data_accesses(accesses, &s);
            (s, r, w)
        })
        .filter(|(_, r, w)| !r.is_empty() || !w.is_empty())
        .collect()
}

/// The first of `theirs` an access `(reads, writes)` conflicts with, and on what.
fn first_clash(
    theirs: &Touching,
    (r, w): (&BTreeSet<String>, &BTreeSet<String>),
) -> Option<(TraceStep, Vec<String>)> {
    theirs.iter().find_map(|(ts, tr, tw)| {
        let c = conflicts_of((r, w), (tr, tw), false);
        (!c.is_empty()).then(|| (ts.clone(), c))
    })
}

/// The locations on which an access `(reads, writes)` conflicts with another thread's
/// `(their reads, their writes)`: a write against a read or a write, named once.
fn conflicts_of(
    (r, w): (&BTreeSet<String>, &BTreeSet<String>),
    (tr, tw): (&BTreeSet<String>, &BTreeSet<String>),
    wild: bool,
) -> Vec<String> {
    let hits = |v: &&String, set: &BTreeSet<String>| set.iter().any(|o| may_alias(v, o, wild));
    let mut c: Vec<String> = w
        .iter()
        .filter(|v| hits(v, tr) || hits(v, tw))
        .chain(r.iter().filter(|v| hits(v, tw)))
        .cloned()
        .collect();
    // A location read and written is one conflict.
    c.sort();
    c.dedup();
    c
}

/// A lock thread `a` held at step `i` that thread `b` held at step `j` too.
fn shared_lock(
    held: &crate::diag::interleaving::LockSets,
    i: usize,
    a: u32,
    j: usize,
    b: u32,
) -> Option<String> {
    let at = |k: usize, t: u32| -> Vec<&String> {
        held.get(k)
            .and_then(|h| h.get(&t))
            .map(|v| v.iter().map(|(l, _)| l).collect())
            .unwrap_or_default()
    };
    let theirs = at(j, b);
    at(i, a).into_iter().find(|l| theirs.contains(l)).cloned()
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
/// For each order violation whose early thread joined the late one before the early
/// statement and the join did not wait (the late thread ran after it): the thread was
/// detached. Names the join and the detach.
pub fn detached_joins(
    prep: &Prepared,
    resolved: &Resolved,
    replay: &Counterexample,
    violations: &mut [OrderViolation],
) {
    let Some(life) = Lifecycle::new(&prep.normalized, resolved, &replay.steps) else {
        return;
    };
    for v in violations.iter_mut() {
        let Some(k) = replay
            .steps
            .iter()
            .position(|s| s.sid == v.early.sid && s.thread == v.early.thread)
        else {
            continue;
        };
        v.detached = life.detached_join(v.early.thread, v.late_thread, k);
    }
}

/// The thread lifecycle calls of a trace (joins, detaches, creations), in a program whose
/// threads have detach states (`known::detaches`).
struct Lifecycle<'a> {
    prog: &'a crate::ir::Program,
    resolved: &'a Resolved,
    stmts: std::collections::HashMap<crate::ir::StmtId, crate::ir::Stmt>,
    steps: &'a [TraceStep],
}

impl<'a> Lifecycle<'a> {
    fn new(
        prog: &'a crate::ir::Program,
        resolved: &'a Resolved,
        steps: &'a [TraceStep],
    ) -> Option<Lifecycle<'a>> {
        if !crate::ir::known::detaches(prog) {
            return None;
        }
        let mut stmts = std::collections::HashMap::new();
        for f in &prog.funcs {
            if let Some(body) = &f.body {
                crate::ir::visit::each_stmt(body, &mut |s| {
                    stmts.entry(s.id).or_insert_with(|| s.clone());
                });
            }
        }
        Some(Lifecycle {
            prog,
            resolved,
            stmts,
            steps,
        })
    }

    /// The join or detach at step `i`, and the thread it names, when the trace shows it
    /// (an explanation is left out rather than guessed).
    fn named(&self, i: usize) -> Option<(crate::ir::known::Known, u32)> {
        let step = self.steps.get(i)?;
        let (kind, handle) = lifecycle_call(self.prog, self.stmts.get(&step.sid)?)?;
        Some((kind, self.thread_of(i, handle)?))
    }

    /// The thread `handle` names at step `i`: `pthread_self()`, a variable last set by
    /// `pthread_create(&v, ..)` (threads are numbered in creation order) or from
    /// `pthread_self()`, or else the value the trace shows last written to its text.
    fn thread_of(&self, i: usize, handle: &crate::ir::Expr) -> Option<u32> {
        use crate::ir::{ExprKind, Init, StmtKind};
        let steps = self.steps;
        if self.is_self_call(handle) {
            return Some(steps.get(i)?.thread);
        }
        if let ExprKind::Var(v) = handle.peel().kind {
            for (at, s) in steps[..i].iter().enumerate().rev() {
                let Some(stmt) = self.stmts.get(&s.sid) else {
                    continue;
                };
                let value = match &stmt.kind {
                    StmtKind::Decl {
                        var,
                        init: Some(Init::Expr(e)),
                    } if *var == v => Some(e),
                    StmtKind::Expr(e) => match &e.kind {
                        ExprKind::Assign(l, r) if matches!(l.peel().kind, ExprKind::Var(w) if w == v) => {
                            Some(r.as_ref())
                        }
                        _ => None,
                    },
                    _ => None,
                };
                if let Some(e) = value {
                    return if self.is_self_call(e) {
                        Some(s.thread)
                    } else {
                        None
                    };
                }
                if self.creates_into(stmt, v) {
                    let n = steps[..=at]
                        .iter()
                        .filter(|p| p.statement.contains("pthread_create("))
                        .count();
                    return u32::try_from(n).ok();
                }
            }
        }
        let text = crate::ir::print::expr_to_string(self.prog, handle);
        let w = steps[..i].iter().rev().find_map(|s| {
            s.writes
                .iter()
                .rev()
                .find(|w| w.lhs.trim_start_matches("*&") == text)
        })?;
        w.value.parse().ok()
    }

    fn is_self_call(&self, e: &crate::ir::Expr) -> bool {
        use crate::ir::known::{Known, classify};
        matches!(&e.peel().kind, crate::ir::ExprKind::Call(c, _)
            if matches!(&c.peel().kind, crate::ir::ExprKind::Func(g)
                if classify(&self.prog.func(*g).name) == Known::ThreadSelf))
    }

    /// Whether `s` is `pthread_create(&v, ..)`.
    fn creates_into(&self, s: &crate::ir::Stmt, v: crate::ir::VarId) -> bool {
        use crate::ir::known::{Known, classify};
        let mut hit = false;
        crate::ir::visit::each_expr(s, &mut |e| {
            if let crate::ir::ExprKind::Call(c, args) = &e.kind {
                if let crate::ir::ExprKind::Func(g) = c.peel().kind {
                    hit |= classify(&self.prog.func(g).name) == Known::ThreadCreate
                        && matches!(args.first().map(|a| &a.peel().kind),
                            Some(crate::ir::ExprKind::AddrOf(x))
                                if matches!(x.peel().kind, crate::ir::ExprKind::Var(w) if w == v));
                }
            }
        });
        hit
    }

    /// A join of `late` by `joiner` before step `before` that did not wait for it (`late`
    /// had not finished by then: not started, running after it, or never at its end),
    /// and where `late` was detached.
    fn detached_join(&self, joiner: u32, late: u32, before: usize) -> Option<DetachedJoin> {
        use crate::ir::known::Known;
        let steps = self.steps;
        let j = (0..before.min(steps.len())).rev().find(|&i| {
            steps[i].thread == joiner && self.named(i) == Some((Known::ThreadJoin, late))
        })?;
        let started = steps[..j].iter().any(|s| s.thread == late);
        let ran_after = steps[j..].iter().any(|s| s.thread == late);
        let ends = self
            .resolved
            .blocks
            .iter()
            .rev()
            .find(|b| b.thread == late)
            .is_some_and(|b| b.until == Stop::End);
        if started && !ran_after && ends {
            return None;
        }
        let detaches: Vec<(usize, Option<u32>)> = (0..j)
            .filter(|&i| steps[i].statement.contains("pthread_detach("))
            .map(|i| (i, self.named(i).map(|(_, t)| t)))
            .collect();
        // Detached by a call, or else (when every detach before names another thread)
        // created detached.
        let d = match detaches.iter().rev().find(|(_, t)| *t == Some(late)) {
            Some((i, _)) => *i,
            None if detaches.iter().all(|(_, t)| t.is_some()) => creation_index(steps, late)?,
            None => return None,
        };
        let attr = steps[d]
            .statement
            .contains("pthread_create(")
            .then(|| attribute_set(self.prog, &self.stmts, steps, d))
            .flatten();
        Some(DetachedJoin {
            join: steps[j].clone(),
            detach: steps[d].clone(),
            attr,
        })
    }
}

/// The last `pthread_attr_setdetachstate` step before the creation at step `c` on the
/// attribute it passes, when that is a plain variable's address (`&attr`): a text that
/// names one object wherever it is written.
fn attribute_set(
    prog: &crate::ir::Program,
    stmts: &std::collections::HashMap<crate::ir::StmtId, crate::ir::Stmt>,
    steps: &[TraceStep],
    c: usize,
) -> Option<TraceStep> {
    let args_of = |i: usize| -> Option<(String, Vec<crate::ir::Expr>)> {
        let s = stmts.get(&steps.get(i)?.sid)?;
        let mut found = None;
        crate::ir::visit::each_expr(s, &mut |e| {
            if let crate::ir::ExprKind::Call(c, args) = &e.kind {
                if let crate::ir::ExprKind::Func(f) = c.peel().kind {
                    found.get_or_insert((prog.func(f).name.clone(), args.clone()));
                }
            }
        });
        found
    };
    let plain_address = |e: &crate::ir::Expr| match &e.peel().kind {
        crate::ir::ExprKind::AddrOf(x) => matches!(x.peel().kind, crate::ir::ExprKind::Var(_))
            .then(|| crate::ir::print::expr_to_string(prog, x)),
        _ => None,
    };
    let (_, create_args) = args_of(c)?;
    let attr = plain_address(create_args.get(1)?)?;
    (0..c).rev().find_map(|i| {
        let (name, args) = args_of(i)?;
        (name == "pthread_attr_setdetachstate"
            && steps[i].thread == steps[c].thread
            && args.first().and_then(plain_address).as_deref() == Some(attr.as_str()))
        .then(|| steps[i].clone())
    })
}

/// A `pthread_join` or `pthread_detach` call in `s`, and its thread argument.
fn lifecycle_call<'s>(
    prog: &crate::ir::Program,
    s: &'s crate::ir::Stmt,
) -> Option<(crate::ir::known::Known, &'s crate::ir::Expr)> {
    use crate::ir::known::{Known, classify};
    let e = match &s.kind {
        crate::ir::StmtKind::Expr(e) => e,
        crate::ir::StmtKind::Decl {
            init: Some(crate::ir::Init::Expr(e)),
            ..
        } => e,
        _ => return None,
    };
    let call = match &e.kind {
        crate::ir::ExprKind::Assign(_, r) => r.as_ref(),
        _ => e,
    };
    let crate::ir::ExprKind::Call(c, args) = &call.peel().kind else {
        return None;
    };
    let crate::ir::ExprKind::Func(f) = c.peel().kind else {
        return None;
    };
    let kind = classify(&prog.func(f).name);
    matches!(kind, Known::ThreadJoin | Known::ThreadDetach).then_some((kind, args.first()?))
}

fn move_before(
    resolved: &Resolved,
    i: usize,
    j: usize,
    steps: &[TraceStep],
    k: usize,
) -> Option<Resolved> {
    let mut r = resolved.clone();
    let bj = r.blocks.remove(j);
    // The blocks that met at the seam are one thread's: one block, to the later stop. Kept
    // apart, the earlier stop (where the failing run stood when the moved thread ran)
    // must still be reached, which a run that no longer fails may never do.
    if j > 0 && j < r.blocks.len() && r.blocks[j - 1].thread == r.blocks[j].thread {
        r.blocks.remove(j - 1);
    }
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
                // Thread 0's two blocks met where thread 1's was taken out: one block, to
                // the later stop (the earlier one need not be reached once the run passes).
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
