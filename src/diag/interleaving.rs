//! Interleaving causes: the context switches the failure needs.
//!
//! Griesmeyer's method keeps the failing interleaving fixed and asks which *value* to
//! change. Synchronization faults — a too-short atomic section, a read-modify-write split
//! by a preemption, two critical sections under different locks — have no such value
//! along the interleaving: the repair changes which interleavings exist. In the spirit of
//! ConcBugAssist's atomicity constraints (paper README: "atomicity-violation search"), each
//! preemption of the failing schedule is tested by replaying the schedule without it (the
//! preempted thread runs on to its next switch point): a preemption whose removal makes the
//! failure disappear is *necessary*, and the statements on both sides of it must not be
//! separated. For each necessary preemption the locks held around the conflicting accesses
//! are compared, so that two critical sections guarded by different locks name their
//! lock acquisitions.
//!
//! Every verdict here is a concrete replay on the built-in checker (never a guess), at the
//! cost of one small encoding per preemption.

use std::collections::{BTreeMap, BTreeSet};

use super::Replays;
use crate::cex::{Counterexample, TraceStep};
use crate::ir::{FuncId, Stmt, StmtId, StmtKind};
use crate::passes::Prepared;
use crate::seq::schedule::{Resolved, Stop};

/// A run of one thread in the trace: (thread, first step, one past its last step).
type Run = (u32, usize, usize);
/// After each step, per thread, the locks held with the step that took each.
type LockSets = Vec<BTreeMap<u32, Vec<(String, usize)>>>;

/// The shared locations a step's line reads and writes.
pub type Accesses<'a> = dyn Fn(&TraceStep) -> (Vec<String>, Vec<String>) + 'a;

/// Preemptions tested at most (each costs one replay).
const MAX_TESTED: usize = 24;

/// A preemption the failure needs.
#[derive(Clone, Debug)]
pub struct NecessarySwitch {
    /// The preempted thread.
    pub thread: u32,
    /// The last step the thread ran before the switch, and the one it resumed at (none
    /// when it never ran again).
    pub last: Option<TraceStep>,
    pub resume: Option<TraceStep>,
    /// Threads that ran in between.
    pub between: Vec<u32>,
    /// Shared locations the thread touched around the switch that the threads in between
    /// also touched.
    pub conflicts: Vec<String>,
    /// Inconsistent locking around the conflicting accesses: a lock acquisition of the
    /// preempted thread or of a thread in between, when their lock sets at the accesses
    /// are disjoint (both non-empty).
    pub locks: Vec<LockUse>,
}

#[derive(Clone, Debug)]
pub struct LockUse {
    pub thread: u32,
    pub lock: String,
    /// The acquisition.
    pub step: TraceStep,
    /// The conflicting access it guards.
    pub access_line: u32,
    /// The other thread's lock is written the same way (`j->lock`) but is another mutex:
    /// both threads held it at once.
    pub same_name: bool,
}

/// Tests every preemption of the replayed schedule (see the module comment).
pub fn necessary_switches<R: Replays>(
    replays: &R,
    resolved: &Resolved,
    replay: &Counterexample,
    accesses: &Accesses,
) -> Result<Vec<NecessarySwitch>, R::Error> {
    let segments = segments(&replay.steps);
    let mut out = Vec::new();
    let mut tested = 0;
    for (i, b) in resolved.blocks.iter().enumerate() {
        let Stop::Before(..) = b.until else { continue };
        if tested >= MAX_TESTED {
            break;
        }
        if replays.expired() {
            break;
        }
        tested += 1;
        let next = resolved.blocks[i + 1..]
            .iter()
            .position(|o| o.thread == b.thread)
            .map(|p| p + i + 1);
        let mut r = resolved.clone();
        r.ends = None;
        match next {
            Some(j) => {
                r.blocks[i].until = r.blocks[j].until;
                r.blocks.remove(j);
            }
            None => r.blocks[i].until = Stop::End,
        }
        if !replays.fails(&r, false)? {
            out.push(describe(
                b.thread,
                i,
                resolved,
                &segments,
                &replay.steps,
                accesses,
            ));
        }
    }
    Ok(out)
}

/// Where a deadlock stands: the statement each blocked thread waits at, the locks held
/// at the end with the steps that took them, and, for every thread that ended while
/// still holding a lock, the statement by which it left the function that took the lock
/// (an unlock missing on that way out).
#[derive(Clone, Debug, Default)]
pub struct DeadlockState {
    pub blocked: Vec<TraceStep>,
    pub held: Vec<LockUse>,
    pub ended_holding: Vec<LeftHolding>,
}

/// A way out of a function with a lock still held, by a thread that then ended.
#[derive(Clone, Debug)]
pub struct LeftHolding {
    /// The statement by which the thread left the function that took the lock: a `return`
    /// (or a `goto`/`break` on the way to one) the execution took, else the thread's last
    /// step in that function.
    pub step: TraceStep,
    pub lock: String,
    /// The acquisition.
    pub acquired: TraceStep,
    /// The function that took the lock.
    pub function: String,
    /// `step` is a statement that leaves the function (not merely its last step).
    pub exit: bool,
}

/// The wait-for picture of a deadlocked replay (no solving: read off the schedule, the
/// trace and `waiting`, the statement each live thread would resume at when the replay
/// ended, as the end-of-run probes found it; see `engine::diagnosis::Diagnosis::waiting`).
/// A thread with no step in the trace (it blocked at its first statement) is only known
/// from `waiting`.
pub fn deadlock_state(
    prep: &Prepared,
    resolved: &Resolved,
    replay: &Counterexample,
    waiting: &[(u32, StmtId)],
) -> DeadlockState {
    let mut st = DeadlockState::default();
    let steps = &replay.steps;
    let mut last_block: BTreeMap<u32, Stop> = BTreeMap::new();
    for b in &resolved.blocks {
        last_block.insert(b.thread, b.until);
    }
    let mut blocked_at: BTreeMap<u32, StmtId> = BTreeMap::new();
    for (t, until) in &last_block {
        if let Stop::Before(sid, _) = until {
            blocked_at.insert(*t, *sid);
        }
    }
    // The probes know every live thread, also those the schedule never ran.
    for (t, sid) in waiting {
        blocked_at.insert(*t, *sid);
    }
    for (t, sid) in &blocked_at {
        if let Some(e) = prep.index.get(*sid) {
            st.blocked.push(TraceStep {
                thread: *t,
                loc: e.loc,
                sid: *sid,
                file: e.file.clone(),
                line: e.line,
                statement: e.text.clone(),
                writes: vec![],
            });
        }
    }
    let held = locks_held(steps);
    if let Some(end) = held.last() {
        for (t, locks) in end {
            for (lock, acq) in locks {
                let Some(step) = steps.get(*acq) else {
                    continue;
                };
                st.held.push(LockUse {
                    thread: *t,
                    lock: lock.clone(),
                    step: step.clone(),
                    access_line: 0,
                    same_name: false,
                });
                // A thread whose last block runs "to the end" may have blocked instead.
                let ended = matches!(last_block.get(t), Some(Stop::End))
                    && !waiting.iter().any(|(w, _)| w == t);
                if ended {
                    st.ended_holding
                        .extend(left_holding(prep, steps, *acq, *t, lock));
                }
            }
        }
    }
    st
}

/// How thread `t` left the function whose statement `steps[acq]` took `lock`, which it
/// never released: the jumps from its last step there to a `return` of that function
/// (an inlined `return` runs no step of its own), else that last step.
fn left_holding(
    prep: &Prepared,
    steps: &[TraceStep],
    acq: usize,
    t: u32,
    lock: &str,
) -> Vec<LeftHolding> {
    let Some(acquired) = steps.get(acq) else {
        return vec![];
    };
    let func = prep.index.get(acquired.sid).map(|e| e.func);
    let Some(last) = steps[acq..]
        .iter()
        .rev()
        .filter(|s| s.thread == t)
        .find(|s| func.is_none() || prep.index.get(s.sid).map(|e| e.func) == func)
    else {
        return vec![];
    };
    let function = func
        .map(|f| prep.normalized.func(f).name.clone())
        .unwrap_or_default();
    let entry = |step: TraceStep, exit: bool| LeftHolding {
        step,
        lock: lock.to_string(),
        acquired: acquired.clone(),
        function: function.clone(),
        exit,
    };
    let jumps = func
        .and_then(|f| prep.normalized.func(f).body.as_ref())
        .and_then(|body| exit_jumps(body, last.sid))
        .unwrap_or_default();
    let out: Vec<LeftHolding> = jumps
        .into_iter()
        .filter_map(|s| step_of(prep, t, s))
        .map(|s| entry(s, true))
        .collect();
    if out.is_empty() {
        return vec![entry(last.clone(), false)];
    }
    out
}

/// Threads the trace creates that the schedule does not list, with their functions. A
/// thread that blocks at its first statement runs no block, so a counterexample's
/// schedule leaves it out; its replay then gives it no code, and the deadlock it is part
/// of loses a thread (the replay's join on it blocks whatever the thread would do). Ids
/// are creation order, as in schedules; a creation through a function pointer names no
/// function and adds no thread.
pub fn unscheduled_threads(
    prep: &Prepared,
    resolved: &Resolved,
    steps: &[TraceStep],
) -> Vec<(u32, FuncId)> {
    let prog = &prep.normalized;
    let mut creates: BTreeMap<StmtId, Option<FuncId>> = BTreeMap::new();
    for f in &prog.funcs {
        let Some(body) = &f.body else { continue };
        crate::ir::visit::each_stmt(body, &mut |s| {
            if let Some(tf) = created_function(prog, s) {
                creates.insert(s.id, tf);
            }
        });
    }
    let mut out = Vec::new();
    let mut id = 0u32;
    for s in steps {
        let Some(tf) = creates.get(&s.sid) else {
            continue;
        };
        id += 1;
        if id > crate::seq::schedule::MAX_THREAD_ID {
            break;
        }
        let Some(tf) = tf else { continue };
        let listed = resolved.threads.iter().any(|(t, _)| *t == id);
        if !listed && prog.func(*tf).body.is_some() {
            out.push((id, *tf));
        }
    }
    out
}

/// `resolved` with the threads `extra` (see [`unscheduled_threads`]) added, each with one
/// block at the end that runs it until it blocks (or ends): a thread that ran no statement
/// a schedule can name still ran its entry (thread-local code) up to its first shared
/// access or synchronization, where the counterexample left it.
pub fn with_threads(resolved: &Resolved, extra: &[(u32, FuncId)]) -> Resolved {
    let mut r = resolved.clone();
    for (id, f) in extra {
        if r.threads.iter().any(|(t, _)| t == id) {
            continue;
        }
        r.threads.push((*id, *f));
        r.blocks.push(crate::seq::schedule::ResolvedBlock {
            thread: *id,
            until: Stop::End,
        });
    }
    r.threads.sort_by_key(|(id, _)| *id);
    r
}

/// For a `pthread_create` statement: the thread function, when the call names one.
fn created_function(prog: &crate::ir::Program, s: &Stmt) -> Option<Option<FuncId>> {
    use crate::ir::ExprKind;
    let StmtKind::Expr(e) = &s.kind else {
        return None;
    };
    let call = match &e.kind {
        ExprKind::Assign(_, r) => r.peel(),
        _ => e.peel(),
    };
    let ExprKind::Call(f, args) = &call.kind else {
        return None;
    };
    let ExprKind::Func(fid) = f.peel().kind else {
        return None;
    };
    if crate::ir::known::classify(&prog.func(fid).name) != crate::ir::known::Known::ThreadCreate
        || s.id.is_none()
    {
        return None;
    }
    let mut arg = args.get(2)?;
    loop {
        arg = arg.peel();
        match &arg.kind {
            ExprKind::Cast { e, .. } | ExprKind::AddrOf(e) => arg = e,
            ExprKind::Func(tf) => return Some(Some(*tf)),
            _ => return Some(None),
        }
    }
}

/// A statement of the program as written, as a trace step of thread `t`.
fn step_of(prep: &Prepared, t: u32, s: &Stmt) -> Option<TraceStep> {
    let p = prep.normalized.sources.position(s.loc)?;
    let statement = prep
        .index
        .get(s.id)
        .map(|e| e.text.clone())
        .unwrap_or_else(|| crate::ir::print::stmt_summary(&prep.normalized, s));
    Some(TraceStep {
        thread: t,
        loc: s.loc,
        sid: s.id,
        file: p.file.to_string(),
        line: p.line,
        statement,
        writes: vec![],
    })
}

/// A position in a function body: each frame is a statement and the index of the child
/// control is in (`Block`: the statement's index; `If`: 0 then, 1 else; loops: 0 body).
type Path<'a> = Vec<(&'a Stmt, usize)>;

/// Most jumps followed from one statement to the function's exit (a `goto` cycle ends).
const MAX_JUMPS: u32 = 32;

/// The jumps by which control leaves a function right after statement `sid` ran, when
/// nothing in between runs a step (labels, empty statements and the ends of `if`
/// branches only): every `goto` and `break` taken, then the `return`. `None` when the
/// way out is not that simple (a loop goes round again, a statement would run, the body
/// ends without a `return`). A statement that is itself a `return` is its own way out.
pub fn exit_jumps(body: &Stmt, sid: StmtId) -> Option<Vec<&Stmt>> {
    if sid.is_none() {
        return None;
    }
    let mut path = Vec::new();
    let target = find(
        body,
        &|s: &Stmt| s.id == sid && !matches!(s.kind, StmtKind::Block(_)),
        &mut path,
    )?;
    let mut jumps = Vec::new();
    let mut budget = MAX_JUMPS;
    let done = match &target.kind {
        StmtKind::Return(_) | StmtKind::Goto(_) | StmtKind::Break => {
            // `enter` wants the frame of the statement's parent on the path.
            matches!(
                enter(body, target, &mut path, &mut jumps, &mut budget),
                Flow::Done(true)
            )
        }
        StmtKind::If { .. }
        | StmtKind::While { .. }
        | StmtKind::DoWhile { .. }
        | StmtKind::For { .. }
        | StmtKind::Switch { .. } => false,
        _ => leave(body, path, &mut jumps, &mut budget),
    };
    (done && !jumps.is_empty()).then_some(jumps)
}

enum Flow {
    /// Control passes on to the statement after it.
    Through,
    /// Control went elsewhere: whether it reached a `return`.
    Done(bool),
}

/// The first statement satisfying `pred` in `s`, with the path to it.
fn find<'a>(s: &'a Stmt, pred: &dyn Fn(&Stmt) -> bool, path: &mut Path<'a>) -> Option<&'a Stmt> {
    if pred(s) {
        return Some(s);
    }
    let children: Vec<&'a Stmt> = match &s.kind {
        StmtKind::Block(ss) => ss.iter().collect(),
        StmtKind::If { then, els, .. } => {
            let mut v = vec![then.as_ref()];
            v.extend(els.as_deref());
            v
        }
        StmtKind::While { body, .. }
        | StmtKind::DoWhile { body, .. }
        | StmtKind::For { body, .. }
        | StmtKind::Switch { body, .. } => vec![body.as_ref()],
        _ => vec![],
    };
    for (i, c) in children.into_iter().enumerate() {
        path.push((s, i));
        if let Some(x) = find(c, pred, path) {
            return Some(x);
        }
        path.pop();
    }
    None
}

/// Control after the statement at the end of `path` completed: whether it reaches a
/// `return` through statements that run no step.
fn leave<'a>(
    body: &'a Stmt,
    mut path: Path<'a>,
    jumps: &mut Vec<&'a Stmt>,
    budget: &mut u32,
) -> bool {
    while let Some((parent, idx)) = path.pop() {
        match &parent.kind {
            StmtKind::Block(ss) => {
                for (j, next) in ss.iter().enumerate().skip(idx + 1) {
                    path.push((parent, j));
                    match enter(body, next, &mut path, jumps, budget) {
                        Flow::Through => {
                            path.pop();
                        }
                        Flow::Done(r) => return r,
                    }
                }
            }
            // A branch ran to its end: the statement after the `if`.
            StmtKind::If { .. } => {}
            // A loop body's end goes round again (its condition runs a step).
            _ => return false,
        }
    }
    // The body ended without a `return`.
    false
}

/// Control reaching statement `s` (at the end of `path`).
fn enter<'a>(
    body: &'a Stmt,
    s: &'a Stmt,
    path: &mut Path<'a>,
    jumps: &mut Vec<&'a Stmt>,
    budget: &mut u32,
) -> Flow {
    match &s.kind {
        StmtKind::Skip | StmtKind::Label(_) => Flow::Through,
        StmtKind::Block(ss) => {
            for (j, c) in ss.iter().enumerate() {
                path.push((s, j));
                match enter(body, c, path, jumps, budget) {
                    Flow::Through => {
                        path.pop();
                    }
                    done => return done,
                }
            }
            Flow::Through
        }
        StmtKind::Return(_) => {
            jumps.push(s);
            Flow::Done(true)
        }
        StmtKind::Goto(l) => {
            jumps.push(s);
            if *budget == 0 {
                return Flow::Done(false);
            }
            *budget -= 1;
            let mut to = Vec::new();
            let is_label = |x: &Stmt| matches!(&x.kind, StmtKind::Label(m) if m == l);
            if find(body, &is_label, &mut to).is_none() {
                return Flow::Done(false);
            }
            Flow::Done(leave(body, to, jumps, budget))
        }
        StmtKind::Break => {
            jumps.push(s);
            // The innermost loop or switch completes.
            let Some(pos) = path.iter().rposition(|(a, _)| {
                matches!(
                    a.kind,
                    StmtKind::While { .. }
                        | StmtKind::DoWhile { .. }
                        | StmtKind::For { .. }
                        | StmtKind::Switch { .. }
                )
            }) else {
                return Flow::Done(false);
            };
            Flow::Done(leave(body, path[..pos].to_vec(), jumps, budget))
        }
        _ => Flow::Done(false),
    }
}

/// The trace cut into maximal runs of one thread: (thread, first step, end).
fn segments(steps: &[TraceStep]) -> Vec<Run> {
    let mut out: Vec<Run> = Vec::new();
    for (i, s) in steps.iter().enumerate() {
        match out.last_mut() {
            Some((t, _, end)) if *t == s.thread => *end = i + 1,
            _ => out.push((s.thread, i, i + 1)),
        }
    }
    out
}

fn describe(
    thread: u32,
    block: usize,
    resolved: &Resolved,
    segments: &[Run],
    steps: &[TraceStep],
    accesses: &Accesses,
) -> NecessarySwitch {
    let mut sw = NecessarySwitch {
        thread,
        last: None,
        resume: None,
        between: vec![],
        conflicts: vec![],
        locks: vec![],
    };
    // The thread's k-th block is its k-th run in the trace when every block ran a
    // visible step; otherwise the switch is reported without its surroundings.
    let k = resolved.blocks[..block]
        .iter()
        .filter(|b| b.thread == thread)
        .count();
    let blocks_of = resolved
        .blocks
        .iter()
        .filter(|b| b.thread == thread)
        .count();
    let runs: Vec<&Run> = segments.iter().filter(|s| s.0 == thread).collect();
    if runs.len() != blocks_of && !(runs.len() + 1 == blocks_of && k + 1 < blocks_of) {
        return sw;
    }
    let Some(&&(_, start, end)) = runs.get(k) else {
        return sw;
    };
    let resume_at = runs.get(k + 1).map(|r| r.1);
    sw.last = steps.get(end - 1).cloned();
    sw.resume = resume_at.and_then(|i| steps.get(i).cloned());
    let between_end = resume_at.unwrap_or(steps.len());
    let between: Vec<&TraceStep> = steps[end..between_end].iter().collect();
    sw.between = between
        .iter()
        .map(|s| s.thread)
        .collect::<BTreeSet<_>>()
        .into_iter()
        .collect();

    // What the thread touched around the switch: its run before it and its next run.
    let after_end = resume_at
        .and_then(|r| segments.iter().find(|s| s.1 == r).map(|s| s.2))
        .unwrap_or(between_end);
    let mine: Vec<(usize, &TraceStep)> = (start..end)
        .chain(resume_at.unwrap_or(between_end)..after_end)
        .filter_map(|i| steps.get(i).map(|s| (i, s)))
        .collect();
    // Data only: a mutex taken by both threads is synchronization, not a conflict.
    let touched = |s: &TraceStep| -> (BTreeSet<String>, BTreeSet<String>) {
        if s.statement.contains("pthread_") {
            return Default::default();
        }
        let (r, w) = accesses(s);
        (r.into_iter().collect(), w.into_iter().collect())
    };
    let mut my_reads = BTreeSet::new();
    let mut my_writes = BTreeSet::new();
    for (_, s) in &mine {
        let (r, w) = touched(s);
        my_reads.extend(r);
        my_writes.extend(w);
    }
    let held = locks_held(steps);
    let mut conflicts = BTreeSet::new();
    for (bi, s) in (end..between_end).zip(between.iter()) {
        let (r, w) = touched(s);
        let clash: Vec<String> = w
            .iter()
            .filter(|v| my_reads.contains(*v) || my_writes.contains(*v))
            .chain(r.iter().filter(|v| my_writes.contains(*v)))
            .cloned()
            .collect();
        if clash.is_empty() {
            continue;
        }
        // The preempted thread's own access to what clashes, nearest the switch.
        let my_line = mine
            .iter()
            .filter(|(i, _)| *i < end)
            .rev()
            .find(|(_, m)| {
                let (r, w) = touched(m);
                clash.iter().any(|v| r.contains(v) || w.contains(v))
            })
            .map(|(_, m)| m.line)
            .unwrap_or(0);
        conflicts.extend(clash);
        // Locks: the other thread's at this access, the preempted thread's at the switch.
        let theirs = &held[bi];
        let mine_held = &held[end - 1];
        let their_set: BTreeSet<&String> = theirs
            .get(&s.thread)
            .map(|v| v.iter().map(|(l, _)| l).collect())
            .unwrap_or_default();
        let my_set: BTreeSet<&String> = mine_held
            .get(&thread)
            .map(|v| v.iter().map(|(l, _)| l).collect())
            .unwrap_or_default();
        // Both sets are held at once (the preempted thread keeps its locks while the
        // other accesses), and the trace respects mutual exclusion (the checker models
        // locks), so a lock written the same way in both (`j->lock`, `&w->m`) is a
        // different mutex in each thread: the sections never excluded each other.
        if their_set.is_empty() || my_set.is_empty() {
            continue;
        }
        let same_name = !their_set.is_disjoint(&my_set);
        for (t, at) in [(s.thread, bi), (thread, end - 1)] {
            for (lock, acq) in held[at].get(&t).into_iter().flatten() {
                if let Some(step) = steps.get(*acq) {
                    if !sw
                        .locks
                        .iter()
                        .any(|l| l.step.line == step.line && l.thread == t)
                    {
                        sw.locks.push(LockUse {
                            thread: t,
                            lock: lock.clone(),
                            step: step.clone(),
                            access_line: if t == thread { my_line } else { s.line },
                            same_name,
                        });
                    }
                }
            }
        }
    }
    sw.conflicts = conflicts.into_iter().collect();
    sw
}

/// After each step: the locks every thread holds, with the step that acquired each.
fn locks_held(steps: &[TraceStep]) -> LockSets {
    let mut cur: BTreeMap<u32, Vec<(String, usize)>> = BTreeMap::new();
    let mut out = Vec::with_capacity(steps.len());
    // A condition wait shows twice: it releases its mutex when the thread starts waiting
    // and takes it again when the thread wakes.
    let mut waits: BTreeMap<(u32, crate::ir::StmtId), u32> = BTreeMap::new();
    for (i, s) in steps.iter().enumerate() {
        let op = lock_op(&s.statement).or_else(|| {
            let lock = wait_mutex(&s.statement)?;
            let n = waits.entry((s.thread, s.sid)).or_default();
            *n += 1;
            Some((
                if *n % 2 == 1 {
                    LockOp::Release
                } else {
                    LockOp::Acquire
                },
                lock,
            ))
        });
        if let Some((op, lock)) = op {
            let mine = cur.entry(s.thread).or_default();
            match op {
                LockOp::Acquire => mine.push((lock, i)),
                LockOp::Release => {
                    if let Some(p) = mine.iter().rposition(|(l, _)| *l == lock) {
                        mine.remove(p);
                    }
                }
            }
        }
        out.push(cur.clone());
    }
    out
}

enum LockOp {
    Acquire,
    Release,
}

/// A mutex operation in a trace statement, with the lock named as written (`&m` → `m`).
/// Locks reached through different pointer expressions are told apart by their text: a
/// lock passed as a parameter under another name is missed, never confused.
fn lock_op(stmt: &str) -> Option<(LockOp, String)> {
    // A spinlock is a mutex that busy-waits. A trylock may fail; the trace does not say,
    // so it is not counted as held.
    let find = |names: &[&str]| {
        names
            .iter()
            .find_map(|n| stmt.find(n).map(|p| &stmt[p + n.len()..]))
    };
    if find(&["pthread_mutex_trylock(", "pthread_spin_trylock("]).is_some() {
        return None;
    }
    let (op, rest) = if let Some(r) = find(&["pthread_mutex_lock(", "pthread_spin_lock("]) {
        (LockOp::Acquire, r)
    } else if let Some(r) = find(&["pthread_mutex_unlock(", "pthread_spin_unlock("]) {
        (LockOp::Release, r)
    } else {
        return None;
    };
    let arg = rest.split(')').next()?.trim();
    let name = arg.strip_prefix('&').unwrap_or(arg).trim();
    (!name.is_empty()).then(|| (op, name.to_string()))
}

/// The mutex a `pthread_cond_wait` or `pthread_cond_timedwait` statement releases while
/// it waits, named as written (`&m` → `m`).
fn wait_mutex(stmt: &str) -> Option<String> {
    let p = stmt
        .find("pthread_cond_wait(")
        .map(|p| p + "pthread_cond_wait(".len())
        .or_else(|| {
            stmt.find("pthread_cond_timedwait(")
                .map(|p| p + "pthread_cond_timedwait(".len())
        })?;
    let arg = stmt[p..].split(')').next()?.split(',').nth(1)?.trim();
    let name = arg.strip_prefix('&').unwrap_or(arg).trim();
    (!name.is_empty()).then(|| name.to_string())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_condition_wait_releases_its_mutex_until_it_wakes() {
        assert_eq!(
            wait_mutex("pthread_cond_wait(&c, &m);").as_deref(),
            Some("m")
        );
        assert_eq!(
            wait_mutex("r = pthread_cond_timedwait(&s->c, &s->m, &t);").as_deref(),
            Some("s->m")
        );
        assert!(wait_mutex("pthread_cond_signal(&c);").is_none());
        let mut wait = step(1, 11, "pthread_cond_wait(&c, &m);");
        wait.sid = crate::ir::StmtId(7);
        let steps = vec![
            step(1, 10, "pthread_mutex_lock(&m);"),
            wait.clone(),
            step(2, 20, "pthread_mutex_lock(&m);"),
            step(2, 21, "pthread_cond_signal(&c);"),
            step(2, 22, "pthread_mutex_unlock(&m);"),
            wait,
        ];
        let held = locks_held(&steps);
        let has = |at: usize, t: u32| held[at].get(&t).is_some_and(|v| !v.is_empty());
        assert!(has(0, 1));
        assert!(!has(1, 1), "waiting releases m");
        assert!(has(2, 2) && !has(2, 1));
        assert!(has(5, 1), "waking takes m again");
    }

    fn step(thread: u32, line: u32, statement: &str) -> TraceStep {
        TraceStep {
            thread,
            loc: crate::ir::Loc::SYNTH,
            sid: crate::ir::StmtId::NONE,
            file: "p.c".into(),
            line,
            statement: statement.into(),
            writes: vec![],
        }
    }

    #[test]
    fn lock_operations_are_read_from_statements() {
        assert!(matches!(
            lock_op("pthread_mutex_lock(&count_lock);"),
            Some((LockOp::Acquire, l)) if l == "count_lock"
        ));
        assert!(matches!(
            lock_op("r = pthread_mutex_unlock(&s->m);"),
            Some((LockOp::Release, l)) if l == "s->m"
        ));
        assert!(lock_op("pthread_mutex_trylock(&m);").is_none());
        assert!(lock_op("x = y + 1;").is_none());
    }

    #[test]
    fn lock_sets_follow_the_trace() {
        let steps = vec![
            step(1, 10, "pthread_mutex_lock(&a);"),
            step(2, 20, "pthread_mutex_lock(&b);"),
            step(1, 11, "pthread_mutex_unlock(&a);"),
        ];
        let held = locks_held(&steps);
        assert_eq!(held[1][&1], vec![("a".to_string(), 0)]);
        assert_eq!(held[1][&2], vec![("b".to_string(), 1)]);
        assert!(held[2][&1].is_empty());
    }

    /// A C program (with `#include`s) through the front end and the normalization.
    fn prepared(text: &str) -> crate::passes::Prepared {
        let dir = tempfile::tempdir().expect("tempdir");
        let path = dir.path().join("p.c");
        std::fs::write(&path, text).expect("writes");
        let prog = crate::frontend::load(&path, &Default::default()).expect("parses");
        crate::passes::Prepared::new(prog)
    }

    /// The normalized statement of function `func` at `line` that comes last in the body.
    fn last_stmt_at(p: &crate::passes::Prepared, func: &str, line: u32) -> StmtId {
        let prog = &p.normalized;
        let f = prog.func_named(func).expect("function");
        let mut found = StmtId::NONE;
        if let Some(body) = &prog.func(f).body {
            crate::ir::visit::each_stmt(body, &mut |s| {
                if !s.id.is_none()
                    && !matches!(s.kind, StmtKind::Block(_))
                    && prog.sources.line(s.loc) == line
                {
                    found = s.id;
                }
            });
        }
        found
    }

    fn exit_lines(p: &crate::passes::Prepared, func: &str, line: u32) -> Option<Vec<u32>> {
        let prog = &p.normalized;
        let f = prog.func_named(func)?;
        let body = prog.func(f).body.as_ref()?;
        let sid = last_stmt_at(p, func, line);
        exit_jumps(body, sid).map(|js| js.iter().map(|s| prog.sources.line(s.loc)).collect())
    }

    const EXITS: &str = "#include <pthread.h>
pthread_mutex_t m;
int n;
int early(int v)
{
  pthread_mutex_lock(&m);
  if (v < 0) {
    n = n + 1;
    return -1;
  }
  n = n + v;
  pthread_mutex_unlock(&m);
  return 0;
}
int via_goto(int v)
{
  pthread_mutex_lock(&m);
  if (v < 0)
    goto out;
  n = v;
  pthread_mutex_unlock(&m);
out:
  return v;
}
int via_break(int v)
{
  int r = 0;
  while (1) {
    pthread_mutex_lock(&m);
    if (v < 0)
      break;
    n = n + v;
    pthread_mutex_unlock(&m);
  }
  return r;
}
void falls_off(int v)
{
  pthread_mutex_lock(&m);
  n = v;
}
void *t(void *a)
{
  early(n);
  via_goto(n);
  via_break(n);
  falls_off(n);
  return a;
}
int main(void)
{
  pthread_t x;
  pthread_create(&x, 0, t, 0);
  return 0;
}
";

    /// An inlined `return` runs no step: the way out after the last step is found in the
    /// function's control flow.
    #[test]
    fn the_return_after_the_last_step_is_found() {
        let p = prepared(EXITS);
        // After `n = n + 1` (line 8): the early `return -1` (line 9).
        assert_eq!(exit_lines(&p, "early", 8), Some(vec![9]));
        // A return that ran is its own way out.
        assert_eq!(exit_lines(&p, "early", 9), Some(vec![9]));
        // After the condition of line 18: the `goto out` (19), then `return v` (23).
        let cond = exit_lines(&p, "via_goto", 18);
        assert_eq!(cond, None, "a condition decides where control goes");
        assert_eq!(exit_lines(&p, "via_goto", 19), Some(vec![19, 23]));
        // `break` leaves the loop for the `return r` after it.
        assert_eq!(exit_lines(&p, "via_break", 31), Some(vec![31, 35]));
        // The end of a loop body goes round again; a body without `return` ends.
        assert_eq!(exit_lines(&p, "via_break", 33), None);
        assert_eq!(exit_lines(&p, "falls_off", 40), None);
        // Statements that would run a step in between: no simple way out.
        assert_eq!(exit_lines(&p, "early", 6), None);
    }

    /// A thread that ended holding a lock taken in a function it left by an inlined
    /// `return`: the candidate is that `return`, not the thread's last step.
    #[test]
    fn a_lock_left_held_points_at_the_return_taken() {
        let p = prepared(EXITS);
        let src = &p;
        let at = |line: u32, statement: &str| {
            let sid = last_stmt_at(&p, "early", line);
            let e = p.index.get(sid).expect("indexed");
            TraceStep {
                thread: 1,
                loc: e.loc,
                sid,
                file: e.file.clone(),
                line,
                statement: statement.into(),
                writes: vec![],
            }
        };
        let replay = Counterexample {
            checker: "test".into(),
            violation: crate::cex::Violation::new(
                crate::cex::ViolationKind::Deadlock,
                crate::ir::Loc::SYNTH,
                None,
                String::new(),
                &p.normalized.sources,
            ),
            schedule: crate::seq::schedule::Schedule {
                schema: crate::seq::schedule::SCHEMA.into(),
                threads: vec![],
                blocks: vec![],
                inputs: vec![],
            },
            steps: vec![at(6, "pthread_mutex_lock(&m);"), at(8, "n = __t + 1;")],
            inputs: vec![],
        };
        let t = p.normalized.func_named("t").expect("t");
        let resolved = Resolved {
            threads: vec![(1, t)],
            blocks: vec![crate::seq::schedule::ResolvedBlock {
                thread: 1,
                until: Stop::End,
            }],
            inputs: Default::default(),
            ends: None,
        };
        let st = deadlock_state(src, &resolved, &replay, &[]);
        let left: Vec<(u32, bool, &str)> = st
            .ended_holding
            .iter()
            .map(|l| (l.step.line, l.exit, l.function.as_str()))
            .collect();
        assert_eq!(left, vec![(9, true, "early")]);
        // Still waiting at the end (its last block ran "to the end" and blocked): it did
        // not end.
        let waiting = [(1, last_stmt_at(&p, "early", 6))];
        let st = deadlock_state(src, &resolved, &replay, &waiting);
        assert!(st.ended_holding.is_empty());
        assert_eq!(st.blocked.len(), 1);
    }

    /// As in join_cycle: threads that block at their first statement run no step, so
    /// the counterexample's schedule never names them. The replay must still run them,
    /// and the deadlock picture must say where they wait.
    #[test]
    fn threads_blocked_at_their_first_statement_are_in_the_deadlock() {
        let p = prepared(
            "#include <pthread.h>
pthread_t second;
pthread_mutex_t m;
void *stage2(void *arg)
{
  pthread_mutex_lock(&m);
  pthread_mutex_unlock(&m);
  return arg;
}
void *stage1(void *arg)
{
  pthread_join(second, 0);
  return arg;
}
int main(void)
{
  pthread_t s1;
  pthread_mutex_init(&m, 0);
  pthread_mutex_lock(&m);
  pthread_create(&second, 0, stage2, 0);
  pthread_create(&s1, 0, stage1, 0);
  pthread_join(s1, 0);
  pthread_mutex_unlock(&m);
  return 0;
}
",
        );
        let opts = crate::engine::check::CheckOptions {
            max_rounds: 4,
            ..Default::default()
        };
        let out = crate::engine::check::check(&p, &opts).expect("checks");
        let cex = out.counterexample.expect("deadlocks");
        let resolved = cex
            .schedule
            .resolve(&p.normalized, &p.index)
            .expect("resolves");
        let src = &p;
        let stage1 = p.normalized.func_named("stage1").expect("stage1");
        let stage2 = p.normalized.func_named("stage2").expect("stage2");
        // Neither thread ran a step the schedule can name.
        let extra = unscheduled_threads(src, &resolved, &cex.steps);
        assert_eq!(extra, vec![(1, stage2), (2, stage1)]);
        let all = with_threads(&resolved, &extra);
        assert_eq!(all.blocks.len(), resolved.blocks.len() + 2);
        let framework = crate::seq::Framework::builtin();
        let replayer = crate::engine::replay::Replayer {
            prep: &p,
            framework: &framework,
            bounds: crate::engine::replay::ReplayBounds {
                unwind: out.bounds.unwind.max(1),
                max_threads: 32,
                recursion: 3,
            },
            target: super::super::Target::Deadlock,
            deadline: None,
        };
        let d = crate::engine::diagnosis::prepare(&replayer, &all, 1)
            .expect("the replay with both threads deadlocks");
        let st = deadlock_state(src, &d.resolved, &d.replay, &d.waiting);
        let blocked: Vec<(u32, u32)> = st.blocked.iter().map(|b| (b.thread, b.line)).collect();
        assert_eq!(blocked, vec![(0, 22), (1, 6), (2, 12)]);
        // Main holds `m` into the deadlock; no thread ended holding a lock.
        assert!(st.held.iter().any(|h| h.thread == 0 && h.lock == "m"));
        assert!(st.ended_holding.is_empty());
    }

    #[test]
    fn segments_are_runs_of_one_thread() {
        let steps = vec![
            step(0, 1, ""),
            step(0, 2, ""),
            step(1, 3, ""),
            step(0, 4, ""),
        ];
        assert_eq!(segments(&steps), vec![(0, 0, 2), (1, 2, 3), (0, 3, 4)]);
    }
}
