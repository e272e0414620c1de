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

mod deadlock;
mod exits;
#[cfg(test)]
mod fixtures;
mod locks;
mod pointers;

pub use deadlock::{DeadlockState, LeftHolding, deadlock_state, unscheduled_threads, with_threads};

use std::collections::{BTreeMap, BTreeSet};

use super::Replays;
use crate::cex::{Counterexample, TraceStep};
use crate::seq::schedule::{Resolved, Stop};
pub use locks::{ForeignUnlock, LockUse, Unprotected, foreign_unlocks};
pub(crate) use locks::{LockSets, locks_held, rwlock_self_wait};
pub use pointers::{Pointers, StablePointers, StepPointers};

/// A run of one thread in the trace: (thread, first step, one past its last step).
type Run = (u32, usize, usize);

/// The shared locations a step's line reads and writes.
pub type Accesses<'a> = dyn Fn(&TraceStep) -> (Vec<String>, Vec<String>) + 'a;

/// Preemptions tested at most (each costs one replay).
const MAX_TESTED: usize = 24;

/// Steps kept of a preempted thread's run before its last step (`run_before`).
const RUN_BEFORE: usize = 16;

/// A preemption the failure needs.
#[derive(Clone, Debug)]
pub struct NecessarySwitch {
    /// The preempted thread.
    pub thread: u32,
    /// The last step the thread ran before the switch, and the one it resumed at (none
    /// when it never ran again).
    pub last: Option<TraceStep>,
    pub resume: Option<TraceStep>,
    /// When it never ran again: the statement its block stopped before (the schedule's
    /// `until`), where it would have resumed.
    pub stopped_before: Option<crate::ir::StmtId>,
    /// Threads that ran in between.
    pub between: Vec<u32>,
    /// Shared locations the thread touched around the switch that the threads in between
    /// also touched.
    pub conflicts: Vec<String>,
    /// Inconsistent locking around the conflicting accesses: a lock acquisition of the
    /// preempted thread or of a thread in between, when their lock sets at the accesses
    /// are disjoint (both non-empty).
    pub locks: Vec<LockUse>,
    /// A conflicting access, of the preempted thread or of a thread in between, made
    /// holding no lock while the other side held one at its access.
    pub unprotected: Vec<Unprotected>,
    /// The locks the preempted thread held when it was preempted (a mutex, or a
    /// semaphore the trace uses as one), each with the step that took it.
    pub held: Vec<LockUse>,
    /// The locks the preempted thread released in its run before the switch and did not
    /// take back, each with the step that released it.
    pub released: Vec<LockUse>,
    /// The preempted thread's steps of its run before `last`, the latest first (at most
    /// a few): where a region that `last`'s line only seems to split starts.
    pub run_before: Vec<TraceStep>,
    /// The schedule without the preemption: it passes (or no run follows it).
    pub passing: Resolved,
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
        if b.until.stmt().is_none() {
            continue;
        }
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
            let mut sw = describe(b.thread, i, resolved, &segments, &replay.steps, accesses);
            // No run may follow the variant: run on, the thread may block (a join, a
            // lock, a wait) before its next switch point, and the non-strict replay takes
            // a schedule no run follows for "no failure". A real run switches where the
            // thread blocks and resumes it later. Preempted right before a join, the
            // removal then tests nothing (the join waits for that thread anyway); further
            // on, when the schedule with the thread run on until it blocks or ends, its
            // later blocks kept, still fails, the failure did not need the preemption.
            let at_join = sw
                .resume
                .as_ref()
                .is_some_and(|s| s.statement.contains("pthread_join("));
            if (at_join || next.is_some()) && replays.fails(&r, true)? {
                if at_join {
                    continue;
                }
                let mut blocked = resolved.clone();
                blocked.ends = None;
                blocked.blocks[i].until = Stop::End;
                if replays.fails(&blocked, false)? {
                    continue;
                }
            }
            sw.passing = r;
            out.push(sw);
        }
    }
    Ok(out)
}

/// For each thread the trace shows created, the index of the step that created it. Thread
/// ids are creation order (`seq::schedule`), so the k-th creation step made thread k —
/// read so only when every thread's creation shows before its first step; otherwise no
/// thread is taken as created anywhere, and nothing is ordered by creation.
fn creation_steps(steps: &[TraceStep]) -> BTreeMap<u32, usize> {
    let creates: Vec<usize> = steps
        .iter()
        .enumerate()
        .filter(|(_, s)| {
            s.statement.contains("pthread_create(") || s.statement.contains("thrd_create(")
        })
        .map(|(i, _)| i)
        .collect();
    let mut out = BTreeMap::new();
    for (k, &at) in creates.iter().enumerate() {
        let t = k as u32 + 1;
        if steps
            .iter()
            .position(|s| s.thread == t)
            .is_some_and(|f| f < at)
        {
            return BTreeMap::new();
        }
        out.insert(t, at);
    }
    // A thread that ran without a creation the trace shows: the counting is off.
    if steps
        .iter()
        .any(|s| s.thread != 0 && !out.contains_key(&s.thread))
    {
        return BTreeMap::new();
    }
    out
}

/// The step of `creator` that created `t`, or created the thread that (transitively)
/// created it: everything `creator` did before it happens before all of `t`.
fn created_by(
    creations: &BTreeMap<u32, usize>,
    steps: &[TraceStep],
    creator: u32,
    t: u32,
) -> Option<usize> {
    let mut cur = t;
    for _ in 0..=creations.len() {
        let at = *creations.get(&cur)?;
        let parent = steps.get(at)?.thread;
        if parent == creator {
            return Some(at);
        }
        cur = parent;
    }
    None
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
        stopped_before: None,
        between: vec![],
        conflicts: vec![],
        locks: vec![],
        unprotected: vec![],
        held: vec![],
        released: vec![],
        run_before: vec![],
        passing: resolved.clone(),
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
    // One block showed no step (a thread that only signalled before the switch: a
    // synchronization call's own statements are the model's). When the run taken for
    // block k starts where that block stopped, it is the next block's, and block k is
    // the one that showed nothing: its last step is unknown (naming the run's last line
    // would say the thread was preempted where it never was).
    if runs.len() + 1 == blocks_of {
        let until = resolved.blocks.get(block).and_then(|b| b.until.stmt());
        if until.is_some() && steps.get(start).map(|s| s.sid) == until {
            sw.resume = steps.get(start).cloned();
            return sw;
        }
    }
    let resume_at = runs.get(k + 1).map(|r| r.1);
    sw.last = steps.get(end - 1).cloned();
    sw.run_before = steps
        .get(start..end.saturating_sub(1))
        .unwrap_or_default()
        .iter()
        .rev()
        .filter(|s| s.thread == thread)
        .take(RUN_BEFORE)
        .cloned()
        .collect();
    sw.resume = resume_at.and_then(|i| steps.get(i).cloned());
    if sw.resume.is_none() {
        if let Some(sid) = resolved.blocks.get(block).and_then(|b| b.until.stmt()) {
            sw.stopped_before = Some(sid);
        }
    }
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
    // What the thread touched after it created (directly or through the threads it
    // created) the thread `t`: its accesses before that creation happen before all of
    // `t` (main's setup of the fields a worker later guards), and conflict with nothing
    // `t` does.
    let creations = creation_steps(steps);
    let mut touched_since: BTreeMap<u32, (usize, BTreeSet<String>, BTreeSet<String>)> =
        BTreeMap::new();
    let mut since = |t: u32| -> (usize, BTreeSet<String>, BTreeSet<String>) {
        touched_since
            .entry(t)
            .or_insert_with(|| {
                let cut = created_by(&creations, steps, thread, t).map_or(0, |c| c + 1);
                let mut reads = BTreeSet::new();
                let mut writes = BTreeSet::new();
                for (_, s) in mine.iter().filter(|(i, _)| *i >= cut) {
                    let (r, w) = touched(s);
                    reads.extend(r);
                    writes.extend(w);
                }
                (cut, reads, writes)
            })
            .clone()
    };
    let held = locks_held(steps);
    let pointers = StablePointers::of(steps);
    if let Some(mine) = end.checked_sub(1).and_then(|e| held.get(e)?.get(&thread)) {
        for (lock, acq) in mine {
            if let Some(step) = steps.get(*acq) {
                sw.held.push(LockUse::at(thread, lock, step));
            }
        }
    }
    // Released in the run before the switch: held before a step of the run, not after
    // it, and not held again at the switch. A condition wait gives its mutex up by
    // design and is no release of a section.
    let at_switch: Vec<&String> = end
        .checked_sub(1)
        .and_then(|e| held.get(e)?.get(&thread))
        .map(|v| v.iter().map(|(l, _)| l).collect())
        .unwrap_or_default();
    for j in start.max(1)..end {
        let (Some(step), Some(before), Some(after)) = (steps.get(j), held.get(j - 1), held.get(j))
        else {
            continue;
        };
        if step.thread != thread || step.statement.contains("pthread_cond_") {
            continue;
        }
        let now: Vec<&String> = after
            .get(&thread)
            .map(|v| v.iter().map(|(l, _)| l).collect())
            .unwrap_or_default();
        for (lock, _) in before.get(&thread).into_iter().flatten() {
            if !now.contains(&lock) && !at_switch.contains(&lock) {
                sw.released.push(LockUse::at(thread, lock, step));
            }
        }
    }
    let mut conflicts = BTreeSet::new();
    for (bi, s) in (end..between_end).zip(between.iter()) {
        let (r, w) = touched(s);
        let (cut, my_reads, my_writes) = since(s.thread);
        let clash: Vec<String> = w
            .iter()
            .filter(|v| my_reads.contains(*v) || my_writes.contains(*v))
            .chain(r.iter().filter(|v| my_writes.contains(*v)))
            .cloned()
            .collect::<BTreeSet<String>>()
            .into_iter()
            .collect();
        if clash.is_empty() {
            continue;
        }
        // The preempted thread's own access to what clashes: nearest before the switch,
        // else the first after it resumed.
        let my_access = mine
            .iter()
            .filter(|(i, _)| *i < end && *i >= cut)
            .rev()
            .chain(mine.iter().filter(|(i, _)| *i >= end))
            .find(|(_, m)| {
                let (r, w) = touched(m);
                clash.iter().any(|v| r.contains(v) || w.contains(v))
            });
        let my_line = my_access
            .filter(|(i, _)| *i < end)
            .map(|(_, m)| m.line)
            .unwrap_or(0);
        // Locks: the other thread's at this access, the preempted thread's at the switch.
        let held_by = |at: usize, t: u32| -> BTreeSet<&String> {
            held.get(at)
                .and_then(|h| h.get(&t))
                .map(|v| v.iter().map(|(l, _)| l).collect())
                .unwrap_or_default()
        };
        let their_set = held_by(bi, s.thread);
        let my_set = held_by(end - 1, thread);
        // The same sets with the locks reached through a pointer named by their object
        // (`from->lock` in the thread that set `from = &checking` is `checking.lock`):
        // whether the two sections excluded each other.
        let objects = |set: &BTreeSet<&String>, t: u32| -> BTreeSet<String> {
            set.iter().map(|l| pointers.resolve(t, l)).collect()
        };
        if their_set.is_empty() != my_set.is_empty() {
            if let Some(&(mi, m)) = my_access {
                let at_mine = held_by(mi, thread);
                // One side held a lock at its access, the other none at its own. The
                // preempted thread is taken as unprotected only when it held nothing at
                // the access itself either: a check and an act in two critical sections
                // of one lock is a split section, not a missing lock.
                let found = if their_set.is_empty() {
                    my_set
                        .intersection(&at_mine)
                        .next()
                        .map(|l| (s.thread, (*s).clone(), (*l).clone(), thread, m.line))
                } else if at_mine.is_empty() {
                    their_set
                        .iter()
                        .next()
                        .map(|l| (thread, m.clone(), (*l).clone(), s.thread, s.line))
                } else {
                    None
                };
                if let Some((t, step, lock, holder, holder_line)) = found {
                    if !sw
                        .unprotected
                        .iter()
                        .any(|u| u.thread == t && u.step.line == step.line)
                    {
                        sw.unprotected.push(Unprotected {
                            thread: t,
                            step,
                            variables: clash.clone(),
                            lock,
                            holder,
                            holder_line,
                        });
                    }
                }
            }
        }
        conflicts.extend(clash.iter().cloned());
        // The preempted thread's locks at its own access to what clashes: the locks it
        // holds at the switch may guard other data (`jobs_done` under `stats_lock`
        // while the clash is on `queue_head`, taken under `queue_lock` earlier).
        let (mine_at, mine_line) = match my_access {
            Some(&(mi, m)) => (held_by(mi, thread), m.line),
            None => (my_set.clone(), my_line),
        };
        if their_set.is_empty() || mine_at.is_empty() {
            continue;
        }
        // A lock both took around the two accesses excluded them, unless the preempted
        // thread still held it at the switch while the other accessed: the trace
        // respects mutual exclusion (the checker models locks), so a lock written the
        // same way in both (`j->lock`, `&w->m`) is then a different mutex in each.
        let (their_objects, mine_objects) =
            (objects(&their_set, s.thread), objects(&mine_at, thread));
        let at_switch_objects = objects(&my_set, thread);
        let common: Vec<&String> = their_objects.intersection(&mine_objects).collect();
        if !common.is_empty() && !common.iter().any(|l| at_switch_objects.contains(*l)) {
            continue;
        }
        let same_name = their_set.intersection(&mine_at).next().is_some();
        let mine_index = my_access.map(|&(mi, _)| mi).unwrap_or(end - 1);
        let my_step = my_access.map(|&(_, m)| m.clone());
        for (t, at, line, access) in [
            (s.thread, bi, s.line, Some((*s).clone())),
            (thread, mine_index, mine_line, my_step),
        ] {
            for (lock, acq) in held.get(at).and_then(|h| h.get(&t)).into_iter().flatten() {
                if let Some(step) = steps.get(*acq) {
                    match sw
                        .locks
                        .iter_mut()
                        .find(|l| l.step.line == step.line && l.thread == t)
                    {
                        Some(known) => {
                            for v in &clash {
                                if !known.variables.contains(v) {
                                    known.variables.push(v.clone());
                                }
                            }
                        }
                        None => sw.locks.push(LockUse {
                            thread: t,
                            lock: lock.clone(),
                            step: step.clone(),
                            access_line: line,
                            same_name,
                            variables: clash.clone(),
                            access: access.clone(),
                        }),
                    }
                }
            }
        }
    }
    sw.conflicts = conflicts.into_iter().collect();
    sw
}

#[cfg(test)]
mod tests {
    use super::fixtures::step;
    use super::*;
    use crate::seq::schedule::ResolvedBlock;

    /// `x = v` writes `x`, `r = x` and `while (!x)` read it; nothing else is shared.
    fn accesses(s: &TraceStep) -> (Vec<String>, Vec<String>) {
        let st = s.statement.as_str();
        if let Some((lhs, _)) = st.split_once(" = ") {
            if lhs.trim() == "x" {
                return (vec![], vec!["x".into()]);
            }
            return (vec!["x".into()], vec![]);
        }
        if st.contains('x') {
            return (vec!["x".into()], vec![]);
        }
        (vec![], vec![])
    }

    /// Thread 1 runs `steps` up to `cut`, thread 2 the rest before it, thread 1 resumes.
    fn switch_in(steps: &[TraceStep]) -> NecessarySwitch {
        preempted(1, 2, steps)
    }

    /// Thread `t` is preempted in its first block, `other` runs, `t` resumes.
    fn preempted(t: u32, other: u32, steps: &[TraceStep]) -> NecessarySwitch {
        let b = |thread, until| ResolvedBlock { thread, until };
        let at = Stop::Before(crate::ir::StmtId(9), 1);
        let resolved = Resolved {
            threads: vec![],
            blocks: vec![b(t, at), b(other, Stop::End), b(t, Stop::End)],
            inputs: Default::default(),
            ends: None,
        };
        describe(t, 0, &resolved, &segments(steps), steps, &accesses)
    }

    #[test]
    fn an_access_without_the_lock_the_other_side_held_is_unprotected() {
        // The waiter tests the flag and waits under `m`; the setter writes it bare.
        let steps = vec![
            step(1, 31, "pthread_mutex_lock(&m);"),
            step(1, 32, "while (!x)"),
            step(2, 22, "x = 1;"),
            step(2, 23, "pthread_cond_signal(&c);"),
            step(1, 33, "pthread_cond_wait(&c, &m);"),
        ];
        let sw = switch_in(&steps);
        assert_eq!(sw.unprotected.len(), 1, "{:?}", sw.unprotected);
        let u = &sw.unprotected[0];
        assert_eq!(
            (u.thread, u.step.line, u.holder, u.holder_line),
            (2, 22, 1, 32)
        );
        assert_eq!(u.lock, "m");
        // The other way round: the preempted thread's read is the bare one.
        let steps = vec![
            step(1, 32, "r = x;"),
            step(2, 21, "pthread_mutex_lock(&m);"),
            step(2, 22, "x = 1;"),
            step(2, 23, "pthread_mutex_unlock(&m);"),
            step(1, 33, "x = r + 1;"),
        ];
        let sw = switch_in(&steps);
        assert_eq!(sw.unprotected.len(), 1, "{:?}", sw.unprotected);
        let u = &sw.unprotected[0];
        assert_eq!(
            (u.thread, u.step.line, u.holder, u.holder_line),
            (1, 32, 2, 22)
        );
    }

    #[test]
    fn setup_before_a_creation_conflicts_with_nothing_the_created_thread_does() {
        let run = |steps: &[TraceStep]| preempted(0, 1, steps);
        // Main sets `x` up, creates the worker, which writes it under `m`.
        let mut steps = vec![
            step(0, 10, "x = 0;"),
            step(0, 11, "pthread_create(&t, 0, f, 0);"),
            step(1, 20, "pthread_mutex_lock(&m);"),
            step(1, 21, "x = 1;"),
            step(1, 22, "pthread_mutex_unlock(&m);"),
            step(0, 12, "pthread_join(t, 0);"),
        ];
        let sw = run(&steps);
        assert!(sw.unprotected.is_empty(), "{:?}", sw.unprotected);
        assert!(sw.conflicts.is_empty(), "{:?}", sw.conflicts);
        // A trace that does not show the creation orders nothing by it.
        steps.remove(1);
        let sw = run(&steps);
        assert_eq!(sw.unprotected.len(), 1, "{:?}", sw.unprotected);
        assert_eq!(sw.conflicts, vec!["x".to_string()]);
    }

    #[test]
    fn a_check_and_act_in_two_sections_of_one_lock_is_no_missing_lock() {
        // Thread 1 read under `m`, let it go, and is preempted: its access held the lock.
        let steps = vec![
            step(1, 30, "pthread_mutex_lock(&m);"),
            step(1, 31, "r = x;"),
            step(1, 32, "pthread_mutex_unlock(&m);"),
            step(2, 21, "pthread_mutex_lock(&m);"),
            step(2, 22, "x = 1;"),
            step(2, 23, "pthread_mutex_unlock(&m);"),
            step(1, 33, "pthread_mutex_lock(&m);"),
            step(1, 34, "x = r + 1;"),
        ];
        assert!(switch_in(&steps).unprotected.is_empty());
        // Both sides bare: a race, but no lock to name.
        let steps = vec![
            step(1, 31, "r = x;"),
            step(2, 22, "x = 1;"),
            step(1, 34, "x = r + 1;"),
        ];
        assert!(switch_in(&steps).unprotected.is_empty());
    }

    #[test]
    fn a_wrong_lock_is_paired_with_the_section_of_the_access() {
        // Thread 1 read `x` under `a`, let it go and holds `b` (around other data) at the
        // switch; thread 2 writes `x` under `c`: `a` and `c` did not exclude each other.
        let steps = vec![
            step(1, 30, "pthread_mutex_lock(&a);"),
            step(1, 31, "r = x;"),
            step(1, 32, "pthread_mutex_unlock(&a);"),
            step(1, 33, "pthread_mutex_lock(&b);"),
            step(2, 21, "pthread_mutex_lock(&c);"),
            step(2, 22, "x = 1;"),
            step(2, 23, "pthread_mutex_unlock(&c);"),
            step(1, 34, "x = r + 1;"),
        ];
        let sw = switch_in(&steps);
        let mut locks: Vec<(u32, String, u32, u32)> = sw
            .locks
            .iter()
            .map(|l| (l.thread, l.lock.clone(), l.step.line, l.access_line))
            .collect();
        locks.sort();
        assert_eq!(
            locks,
            vec![(1, "a".into(), 30, 31), (2, "c".into(), 21, 22)],
            "{:?}",
            sw.locks
        );
        assert!(sw.locks.iter().all(|l| l.variables == ["x"]));
        // Under `a` on both sides, released before the switch: they excluded each other.
        let steps = vec![
            step(1, 30, "pthread_mutex_lock(&a);"),
            step(1, 31, "r = x;"),
            step(1, 32, "pthread_mutex_unlock(&a);"),
            step(1, 33, "pthread_mutex_lock(&b);"),
            step(2, 21, "pthread_mutex_lock(&a);"),
            step(2, 22, "x = 1;"),
            step(2, 23, "pthread_mutex_unlock(&a);"),
            step(1, 34, "x = r + 1;"),
        ];
        assert!(switch_in(&steps).locks.is_empty());
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
