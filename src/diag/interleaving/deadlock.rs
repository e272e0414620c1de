//! The picture of a deadlock: who waits where, who holds which lock, who ended holding one.

use std::collections::BTreeMap;

use super::exits::{exit_jumps, skips};
use super::locks::{LockUse, locks_held_with_rwlocks};
use crate::cex::{Counterexample, TraceStep};
use crate::ir::{FuncId, Stmt, StmtId, StmtKind};
use crate::passes::Prepared;
use crate::seq::schedule::{Resolved, Stop};

/// Where a deadlock stands: the statement each blocked thread waits at, the locks held
/// at the end with the steps that took them, and, for every thread that ended while
/// still holding a lock, the statement by which it left the function that took the lock
/// (an unlock missing on that way out).
#[derive(Clone, Debug, Default)]
pub struct DeadlockState {
    pub blocked: Vec<TraceStep>,
    pub held: Vec<LockUse>,
    pub ended_holding: Vec<LeftHolding>,
    /// Threads that ended by a way out of their function that skips the post or signal
    /// the function makes on another path, while a blocked thread waits for it.
    pub skipped_wakes: Vec<SkippedWake>,
}

/// A way out of a function that skips its wake-up: `sem_post(&done)` on one path, a
/// `return` without it on another, and a thread blocked in `sem_wait(&done)`.
#[derive(Clone, Debug)]
pub struct SkippedWake {
    /// The statement by which the thread left the function.
    pub step: TraceStep,
    pub function: String,
    /// The object and the line of the wake-up the function makes elsewhere.
    pub object: String,
    pub wake_line: u32,
    /// Where the waiter blocks.
    pub waiter: TraceStep,
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
    /// The thread went on and blocked (see `left_then_blocked`), rather than ended.
    pub went_on: bool,
    /// The function unlocks the mutex on another way out: the way taken skipped it.
    pub skips_unlock: bool,
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
        if let Some(sid) = until.stmt() {
            blocked_at.insert(*t, sid);
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
    let held = locks_held_with_rwlocks(steps);
    if let Some(end) = held.last() {
        for (t, locks) in end {
            for (lock, acq) in locks {
                let Some(step) = steps.get(*acq) else {
                    continue;
                };
                st.held.push(LockUse::at(*t, lock, step));
                // A thread whose last block runs "to the end" may have blocked instead.
                let ended = matches!(last_block.get(t), Some(Stop::End))
                    && !waiting.iter().any(|(w, _)| w == t);
                if ended {
                    let unlocks = steps
                        .get(*acq)
                        .and_then(|s| prep.index.get(s.sid))
                        .is_some_and(|e| unlocks_in(prep, e.func, lock));
                    st.ended_holding.extend(
                        left_holding(prep, steps, *acq, steps.len(), *t, lock)
                            .into_iter()
                            .map(|l| LeftHolding {
                                skips_unlock: l.exit && unlocks,
                                ..l
                            }),
                    );
                } else if blocked_at.contains_key(t) {
                    st.ended_holding
                        .extend(left_then_blocked(prep, steps, *acq, *t, lock));
                }
            }
        }
    }
    st.skipped_wakes = skipped_wakes(prep, steps, &st.blocked, &last_block, waiting);
    st
}

/// The wake-ups a blocked thread needs, by the object it waits on: a semaphore's posts,
/// a condition's signals and broadcasts.
fn wake_kinds(k: crate::ir::known::Known) -> &'static [crate::ir::known::Known] {
    use crate::ir::known::Known;
    match k {
        Known::SemWait => &[Known::SemPost],
        Known::CondWait => &[Known::CondSignal, Known::CondBroadcast],
        _ => &[],
    }
}

/// The library calls statement `s` itself makes (not a branch's), with the object its
/// first argument names (`&done` as `done`).
fn sync_calls(prog: &crate::ir::Program, s: &Stmt) -> Vec<(crate::ir::known::Known, String)> {
    use crate::ir::ExprKind;
    let mut out = Vec::new();
    if matches!(
        s.kind,
        StmtKind::Block(_)
            | StmtKind::If { .. }
            | StmtKind::While { .. }
            | StmtKind::DoWhile { .. }
            | StmtKind::For { .. }
            | StmtKind::Switch { .. }
    ) {
        return out;
    }
    crate::ir::visit::each_expr(s, &mut |e| {
        if let ExprKind::Call(f, args) = &e.kind {
            if let ExprKind::Func(fid) = f.peel().kind {
                let k = crate::ir::known::classify(&prog.func(fid).name);
                let obj = args
                    .first()
                    .map(|a| crate::ir::print::expr_to_string(prog, a))
                    .unwrap_or_default();
                out.push((k, obj.trim_start_matches('&').trim().to_string()));
            }
        }
    });
    out
}

/// Threads that ended having left their function by a way that skips the wake-up it
/// makes on another path, which a blocked thread waits for (see [`SkippedWake`]). Only a
/// thread that made no such wake-up at all in the run counts (a loop that posts too
/// few times is another fault), and only a way out `exit_jumps` can name.
fn skipped_wakes(
    prep: &Prepared,
    steps: &[TraceStep],
    blocked: &[TraceStep],
    last_block: &BTreeMap<u32, Stop>,
    waiting: &[(u32, StmtId)],
) -> Vec<SkippedWake> {
    let prog = &prep.normalized;
    let stmt_of = |sid: StmtId| -> Option<Stmt> {
        let f = prep.index.get(sid)?.func;
        let mut found = None;
        crate::ir::visit::each_stmt(prog.func(f).body.as_ref()?, &mut |s| {
            if s.id == sid && found.is_none() {
                found = Some(s.clone());
            }
        });
        found
    };
    let mut out: Vec<SkippedWake> = Vec::new();
    for b in blocked {
        let Some(stmt) = stmt_of(b.sid) else { continue };
        for (k, object) in sync_calls(prog, &stmt) {
            let kinds = wake_kinds(k);
            if kinds.is_empty() {
                continue;
            }
            for (t, until) in last_block {
                let ended = *until == Stop::End
                    && *t != b.thread
                    && !waiting.iter().any(|(w, _)| w == t)
                    && !blocked.iter().any(|x| x.thread == *t);
                let Some(last) = steps.iter().rev().find(|s| s.thread == *t) else {
                    continue;
                };
                if !ended {
                    continue;
                }
                let Some(func) = prep.index.get(last.sid).map(|e| e.func) else {
                    continue;
                };
                let Some(body) = prog.func(func).body.as_ref() else {
                    continue;
                };
                let mut wakes: Vec<(StmtId, u32)> = Vec::new();
                crate::ir::visit::each_stmt(body, &mut |s| {
                    if sync_calls(prog, s)
                        .iter()
                        .any(|(c, o)| kinds.contains(c) && *o == object)
                    {
                        wakes.push((s.id, prog.sources.line(s.loc)));
                    }
                });
                let woke = steps
                    .iter()
                    .any(|s| s.thread == *t && wakes.iter().any(|(w, _)| *w == s.sid));
                if woke {
                    continue;
                }
                let Some(jumps) = exit_jumps(body, last.sid) else {
                    continue;
                };
                // A signal to nobody shows no step: only a way out that cannot have
                // passed a wake-up (another branch, or after the `return`) counts.
                let Some(exit) = jumps.last().map(|j| j.id) else {
                    continue;
                };
                if !wakes.iter().all(|(w, _)| skips(body, exit, *w)) {
                    continue;
                }
                let Some(&(_, wake_line)) = wakes.first() else {
                    continue;
                };
                for j in jumps {
                    let Some(step) = step_of(prep, *t, j) else {
                        continue;
                    };
                    if out
                        .iter()
                        .any(|o| o.step.sid == step.sid && o.step.thread == *t)
                    {
                        continue;
                    }
                    out.push(SkippedWake {
                        step,
                        function: prog.func(func).name.clone(),
                        object: object.clone(),
                        wake_line,
                        waiter: b.clone(),
                    });
                }
            }
        }
    }
    out
}

/// How thread `t` left the function whose statement `steps[acq]` took `lock`, which it
/// never released: the jumps from its last step there to a `return` of that function
/// (an inlined `return` runs no step of its own), else that last step.
/// Only the steps before `end` count.
fn left_holding(
    prep: &Prepared,
    steps: &[TraceStep],
    acq: usize,
    end: usize,
    t: u32,
    lock: &str,
) -> Vec<LeftHolding> {
    let Some(acquired) = steps.get(acq) else {
        return vec![];
    };
    let func = prep.index.get(acquired.sid).map(|e| e.func);
    let Some(last) = steps
        .get(acq..end)
        .unwrap_or_default()
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
        went_on: false,
        skips_unlock: false,
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

/// A lock a blocked thread still holds, taken by a function the thread has returned
/// from since, when that function unlocks the mutex on another path: the way out it
/// took skipped the unlock (an early `return` between the lock and the unlock), and the
/// thread, or another, blocks on the mutex later. See [`left_holding`]; the function's
/// run ends at the thread's first later step outside it and its callees. A function
/// with no unlock of the mutex (a lock helper, `lock_account(a)`) returns holding it by
/// design, and is not named.
fn left_then_blocked(
    prep: &Prepared,
    steps: &[TraceStep],
    acq: usize,
    t: u32,
    lock: &str,
) -> Vec<LeftHolding> {
    let prog = &prep.normalized;
    let Some(func) = steps
        .get(acq)
        .and_then(|s| prep.index.get(s.sid))
        .map(|e| e.func)
    else {
        return vec![];
    };
    if !unlocks_in(prep, func, lock) {
        return vec![];
    }
    let inside = callees(prog, func);
    let Some(end) = steps
        .iter()
        .enumerate()
        .skip(acq + 1)
        .find(|(_, s)| {
            s.thread == t
                && prep
                    .index
                    .get(s.sid)
                    .is_some_and(|e| !inside.contains(&e.func))
        })
        .map(|(i, _)| i)
    else {
        return vec![];
    };
    left_holding(prep, steps, acq, end, t, lock)
        .into_iter()
        .filter(|l| l.exit)
        .map(|l| LeftHolding {
            went_on: true,
            skips_unlock: true,
            ..l
        })
        .collect()
}

/// Whether function `func` unlocks `lock` somewhere in its body.
fn unlocks_in(prep: &Prepared, func: FuncId, lock: &str) -> bool {
    let prog = &prep.normalized;
    let Some(body) = prog.func(func).body.as_ref() else {
        return false;
    };
    let mut unlocks = false;
    crate::ir::visit::each_stmt(body, &mut |s| {
        unlocks |= sync_calls(prog, s)
            .iter()
            .any(|(k, o)| *k == crate::ir::known::Known::MutexUnlock && o == lock);
    });
    unlocks
}

/// `f` and every function of the program it calls, directly or through others.
fn callees(prog: &crate::ir::Program, f: FuncId) -> Vec<FuncId> {
    let mut out = vec![f];
    let mut i = 0;
    while let Some(&g) = out.get(i) {
        i += 1;
        let Some(body) = prog.func(g).body.as_ref() else {
            continue;
        };
        crate::ir::visit::each_stmt(body, &mut |s| {
            crate::ir::visit::each_expr(s, &mut |e| {
                if let crate::ir::ExprKind::Call(c, _) = &e.kind
                    && let crate::ir::ExprKind::Func(h) = c.peel().kind
                    && !out.contains(&h)
                {
                    out.push(h);
                }
            });
        });
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

#[cfg(test)]
mod tests {
    use super::*;
    use crate::diag::interleaving::fixtures::{EXITS, last_stmt_at, prepared};

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
        let left: Vec<(u32, bool, &str, bool)> = st
            .ended_holding
            .iter()
            .map(|l| (l.step.line, l.exit, l.function.as_str(), l.skips_unlock))
            .collect();
        // `early` unlocks `m` on its other way out: the `return` taken skipped it.
        assert_eq!(left, vec![(9, true, "early", true)]);
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
        // Neither thread ran a step the schedule can name. The checker's schedule lists
        // them already (each run last, until it blocks); without them, this analysis adds
        // them itself.
        assert!(resolved.threads.contains(&(1, stage2)), "{resolved:?}");
        assert!(resolved.threads.contains(&(2, stage1)), "{resolved:?}");
        assert!(unscheduled_threads(src, &resolved, &cex.steps).is_empty());
        let mut bare = resolved.clone();
        bare.threads.retain(|(t, _)| *t == 0);
        bare.blocks.retain(|b| b.thread == 0);
        let extra = unscheduled_threads(src, &bare, &cex.steps);
        assert_eq!(extra, vec![(1, stage2), (2, stage1)]);
        let all = with_threads(&bare, &extra);
        assert_eq!(all.blocks.len(), bare.blocks.len() + 2);
        let framework = crate::seq::Framework::builtin();
        let replayer = crate::engine::replay::Replayer {
            prep: &p,
            framework: &framework,
            bounds: crate::engine::replay::ReplayBounds {
                unwind: out.bounds.unwind.max(1),
                max_threads: 32,
                recursion: 3,
            },
            target: crate::instrument::Target::Deadlock,
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
}
