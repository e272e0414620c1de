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

use z3::ast::Bool;

use super::Target;
use super::localize::{LocalizeError, LocalizeOptions, Source};
use crate::cex::{Counterexample, TraceStep};
use crate::checker::builtin::symex::{PropKind, SymexError};
use crate::checker::builtin::{Answer, BmcError, Session};
use crate::seq::schedule::{Resolved, Stop};
use crate::seq::{Mode, SeqOptions, sequentialize};

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
}

/// Tests every preemption of the replayed schedule (see the module comment).
pub fn necessary_switches(
    src: &Source,
    resolved: &Resolved,
    seq_opts: &SeqOptions,
    target: Target,
    opts: &LocalizeOptions,
    replay: &Counterexample,
    accesses: &Accesses,
) -> Result<Vec<NecessarySwitch>, LocalizeError> {
    let segments = segments(&replay.steps);
    let mut out = Vec::new();
    let mut tested = 0;
    for (i, b) in resolved.blocks.iter().enumerate() {
        let Stop::Before(..) = b.until else { continue };
        if tested >= MAX_TESTED {
            break;
        }
        if opts
            .deadline
            .is_some_and(|d| std::time::Instant::now() >= d)
        {
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
        if !fails(src, &r, seq_opts, target, opts, false)? {
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
/// at the end with the steps that took them, and the last step of every thread that
/// ended while still holding a lock (an unlock missing on its way out).
#[derive(Clone, Debug, Default)]
pub struct DeadlockState {
    pub blocked: Vec<TraceStep>,
    pub held: Vec<LockUse>,
    pub ended_holding: Vec<(TraceStep, String)>,
}

/// The wait-for picture of a deadlocked replay (no solving: read off the schedule and the
/// trace).
pub fn deadlock_state(src: &Source, resolved: &Resolved, replay: &Counterexample) -> DeadlockState {
    let mut st = DeadlockState::default();
    let steps = &replay.steps;
    let mut last_block: BTreeMap<u32, Stop> = BTreeMap::new();
    for b in &resolved.blocks {
        last_block.insert(b.thread, b.until);
    }
    for (t, until) in &last_block {
        let Stop::Before(sid, _) = until else {
            continue;
        };
        if let Some(e) = src.index.get(*sid) {
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
                });
                if matches!(last_block.get(t), Some(Stop::End)) {
                    // The way out of the function that took the lock: its last step there.
                    let func = src.index.get(step.sid).map(|e| e.func);
                    let last = steps[*acq..]
                        .iter()
                        .rev()
                        .filter(|s| s.thread == *t)
                        .find(|s| func.is_none() || src.index.get(s.sid).map(|e| e.func) == func);
                    if let Some(last) = last {
                        st.ended_holding.push((last.clone(), lock.clone()));
                    }
                }
            }
        }
    }
    st
}

/// Whether the program fails along `r` (following it).
pub(crate) fn fails(
    src: &Source,
    r: &Resolved,
    seq_opts: &SeqOptions,
    target: Target,
    opts: &LocalizeOptions,
    strict: bool,
) -> Result<bool, LocalizeError> {
    let Ok(sq) = sequentialize(src.normalized, src.shared, Mode::Concrete(r), seq_opts) else {
        // A schedule the sequentializer refuses cannot show the failure gone.
        return Ok(true);
    };
    let bound = sq.steps + 2;
    let mut s = match Session::new(sq, bound, opts.deadline) {
        Ok(s) => s,
        Err(BmcError::Symex(SymexError::Timeout)) => {
            return Err(LocalizeError::Timeout("testing context switches"));
        }
        Err(e) => return Err(e.into()),
    };
    let kinds = match target {
        Target::Failure => vec![PropKind::Assertion, PropKind::Error],
        Target::Deadlock => vec![PropKind::Deadlock],
    };
    let lits = s.property_lits(&kinds);
    let follows: Vec<Bool> = s.mismatch_lits().iter().map(Bool::not).collect();
    Ok(match s.query(&lits, &follows) {
        Answer::Violated(_) => true,
        // No failure among the executions that follow `r`. With `strict`, that counts only
        // if there is such an execution. Without, a schedule no execution can follow counts
        // too: with a preemption removed, the later blocks' stops are typically missed
        // because the run took another path, away from the failure.
        Answer::Holds if strict => !matches!(
            s.query(&[Bool::from_bool(true)], &follows),
            Answer::Violated(_)
        ),
        Answer::Holds => false,
        // Undecided: not evidence that the switch is needed.
        Answer::Unknown(_) => true,
    })
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
    let touched = |s: &TraceStep| -> (BTreeSet<String>, BTreeSet<String>) {
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
        if their_set.is_empty() || my_set.is_empty() || !their_set.is_disjoint(&my_set) {
            continue;
        }
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
    for (i, s) in steps.iter().enumerate() {
        if let Some((op, lock)) = lock_op(&s.statement) {
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
    let (op, rest) = if let Some(p) = stmt.find("pthread_mutex_lock(") {
        (LockOp::Acquire, &stmt[p + "pthread_mutex_lock(".len()..])
    } else if let Some(p) = stmt.find("pthread_mutex_trylock(") {
        // A trylock may fail; the trace does not say, so it is not counted as held.
        let _ = p;
        return None;
    } else if let Some(p) = stmt.find("pthread_mutex_unlock(") {
        (LockOp::Release, &stmt[p + "pthread_mutex_unlock(".len()..])
    } else {
        return None;
    };
    let arg = rest.split(')').next()?.trim();
    let name = arg.strip_prefix('&').unwrap_or(arg).trim();
    (!name.is_empty()).then(|| (op, name.to_string()))
}

#[cfg(test)]
mod tests {
    use super::*;

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
