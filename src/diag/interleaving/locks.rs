//! Lock sets along a trace, read from the printed statements of its steps.

use std::collections::{BTreeMap, BTreeSet};

use crate::cex::TraceStep;

/// A lock acquisition a finding names.
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
    /// The shared locations of the conflict it was found on (`jobs_done`, `pool.count`).
    pub variables: Vec<String>,
    /// The conflicting access itself, when the trace shows it.
    pub access: Option<TraceStep>,
}

impl LockUse {
    /// A lock a thread holds, or let go of, at `step`, tied to no access.
    pub(crate) fn at(thread: u32, lock: &str, step: &TraceStep) -> Self {
        LockUse {
            thread,
            lock: lock.to_string(),
            step: step.clone(),
            access_line: 0,
            same_name: false,
            variables: vec![],
            access: None,
        }
    }
}

/// A conflicting access made without a lock that the other side of the conflict held at
/// its own access to the same location (Eraser's lockset rule along one run): the
/// accesses do not exclude each other, and this one is where the lock is missing.
#[derive(Clone, Debug)]
pub struct Unprotected {
    /// The thread that made the access, and the access.
    pub thread: u32,
    pub step: TraceStep,
    /// The locations both accessed.
    pub variables: Vec<String>,
    /// The lock the other thread held, that thread, and its access's line.
    pub lock: String,
    pub holder: u32,
    pub holder_line: u32,
}

/// After each step, per thread, the locks held with the step that took each.
pub(crate) type LockSets = Vec<BTreeMap<u32, Vec<(String, usize)>>>;

/// An unlock of a mutex the unlocking thread does not hold, made while another thread
/// holds it: the unlock frees the other thread's lock (the checkers' models, like most
/// libraries for a default mutex, do not refuse it), and that thread goes on inside a
/// section nothing excludes any more. POSIX leaves it undefined; it is a fault wherever
/// it happens, and in a failing run the likeliest one.
#[derive(Clone, Debug)]
pub struct ForeignUnlock {
    /// The thread that unlocked, and its unlock.
    pub thread: u32,
    pub step: TraceStep,
    pub lock: String,
    /// The thread that held the mutex, and the step that took it.
    pub holder: u32,
    pub taken: TraceStep,
    /// The unlocking thread's own earlier release of the mutex, when it had held it
    /// before: this unlock is then one too many, not the end of a failed attempt.
    pub released_before: Option<TraceStep>,
}

/// After each step: the locks every thread holds, with the step that acquired each. A
/// semaphore the trace uses as a lock (see [`lock_like_semaphores`]) counts as one.
pub(crate) fn locks_held(steps: &[TraceStep]) -> LockSets {
    lock_history(steps, false).0
}

/// As [`locks_held`], with the read-write locks too (a read lock as held as a write
/// lock). Only for what a deadlock's picture asks — who ended or blocked still holding
/// something another thread waits for; the analyses of data races keep to exclusive
/// locks, since two readers both "holding" the read lock exclude nothing.
pub(crate) fn locks_held_with_rwlocks(steps: &[TraceStep]) -> LockSets {
    lock_history(steps, true).0
}

/// The unlocks of the trace that freed another thread's mutex (see [`ForeignUnlock`]).
pub fn foreign_unlocks(steps: &[TraceStep]) -> Vec<ForeignUnlock> {
    lock_history(steps, false).1
}

fn lock_history(steps: &[TraceStep], rwlocks: bool) -> (LockSets, Vec<ForeignUnlock>) {
    let sems = lock_like_semaphores(steps);
    let mut cur: BTreeMap<u32, Vec<(String, usize)>> = BTreeMap::new();
    let mut out = Vec::with_capacity(steps.len());
    let mut foreign = Vec::new();
    let mut released: BTreeMap<(u32, String), usize> = BTreeMap::new();
    // A condition wait shows twice: it releases its mutex when the thread starts waiting
    // and takes it again when the thread wakes.
    let mut waits: BTreeMap<(u32, crate::ir::StmtId), u32> = BTreeMap::new();
    for (i, s) in steps.iter().enumerate() {
        let unlock_call =
            lock_op(&s.statement).or_else(|| rwlocks.then(|| rwlock_op(&s.statement)).flatten());
        let op = unlock_call
            .clone()
            .or_else(|| took_by_trying(s))
            .or_else(|| sem_op(&s.statement).filter(|(_, sem)| sems.contains(sem)))
            .or_else(|| {
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
                        released.insert((s.thread, lock), i);
                    } else if matches!(unlock_call, Some((LockOp::Release, _)))
                        && names_one_object(&lock)
                        && writes_lock(s, &lock)
                    {
                        // Only where the step shows the mutex written: a trace that does
                        // not show mutex states may also hide a trylock that took it.
                        let holder = cur.iter().find_map(|(t, v)| {
                            (*t != s.thread)
                                .then(|| v.iter().rposition(|(l, _)| *l == lock))
                                .flatten()
                                .map(|p| (*t, p))
                        });
                        if let Some((holder, p)) = holder
                            && let Some(v) = cur.get_mut(&holder)
                        {
                            let (_, acq) = v.remove(p);
                            if let Some(taken) = steps.get(acq) {
                                foreign.push(ForeignUnlock {
                                    thread: s.thread,
                                    step: s.clone(),
                                    lock: lock.clone(),
                                    holder,
                                    taken: taken.clone(),
                                    released_before: released
                                        .get(&(s.thread, lock.clone()))
                                        .and_then(|r| steps.get(*r))
                                        .cloned(),
                                });
                            }
                        }
                    }
                }
            }
        }
        out.push(cur.clone());
    }
    (out, foreign)
}

/// A lock text that names one mutex in every thread: not reached through a pointer or an
/// index (`a->mu` is a different mutex for each `a`).
fn names_one_object(lock: &str) -> bool {
    !lock.contains("->") && !lock.contains('*') && !lock.contains('[')
}

/// The step writes the mutex `m` (its state, as the built-in checker's trace shows it).
fn writes_lock(s: &TraceStep, m: &str) -> bool {
    let names_m = |name: &str| name.strip_prefix("*&").unwrap_or(name) == m;
    s.writes
        .iter()
        .any(|w| names_m(&w.lhs) || w.shown.as_deref().is_some_and(names_m))
}

#[derive(Clone)]
enum LockOp {
    Acquire,
    Release,
}

/// The semaphores this trace uses as locks: made with the value 1 (`sem_init(&s, 0, 1)`
/// in the trace), and every thread that touches one waits on it before it posts it, one
/// post per wait, never while another thread holds it (a binary semaphore around a
/// critical section). A semaphore one thread posts and another waits on is a signal, and
/// one that starts higher or is waited on twice before a post counts something: neither
/// is a lock. A `sem_trywait` or `sem_timedwait` may fail, which the trace does not say,
/// so a semaphore taken that way is not counted either.
fn lock_like_semaphores(steps: &[TraceStep]) -> BTreeSet<String> {
    let mut holder: BTreeMap<String, u32> = BTreeMap::new();
    let mut broken: BTreeSet<String> = BTreeSet::new();
    let mut binary: BTreeSet<String> = BTreeSet::new();
    for s in steps {
        if let Some(args) = call_args(&s.statement, &["sem_init("]) {
            if let (Some(sem), Some(value)) = (args.first(), args.get(2)) {
                let sem = sem.strip_prefix('&').unwrap_or(sem).trim().to_string();
                if value == "1" {
                    binary.insert(sem);
                } else {
                    broken.insert(sem);
                }
            }
            continue;
        }
        if let Some(sem) = call_arg(&s.statement, &["sem_trywait(", "sem_timedwait("]) {
            broken.insert(sem);
            continue;
        }
        let Some((op, sem)) = sem_op(&s.statement) else {
            continue;
        };
        match (op, holder.get(&sem).copied()) {
            (LockOp::Acquire, None) => {
                holder.insert(sem, s.thread);
            }
            (LockOp::Release, Some(t)) if t == s.thread => {
                holder.remove(&sem);
            }
            _ => {
                broken.insert(sem);
            }
        }
    }
    binary.difference(&broken).cloned().collect()
}

/// A semaphore's `sem_wait` (taking it) or `sem_post` (giving it back).
fn sem_op(stmt: &str) -> Option<(LockOp, String)> {
    if let Some(sem) = call_arg(stmt, &["sem_wait("]) {
        return Some((LockOp::Acquire, sem));
    }
    call_arg(stmt, &["sem_post("]).map(|sem| (LockOp::Release, sem))
}

/// The first argument of a call to one of `calls` (each written with its parenthesis)
/// in a trace statement, named as written (`&m` → `m`).
fn call_arg(stmt: &str, calls: &[&str]) -> Option<String> {
    let args = call_args(stmt, calls)?;
    let arg = args.first()?;
    let name = arg.strip_prefix('&').unwrap_or(arg).trim();
    (!name.is_empty()).then(|| name.to_string())
}

/// The arguments, trimmed, of a call to one of `calls` in a trace statement: the text up
/// to the first `)` split at commas (the calls read here take plain arguments).
fn call_args(stmt: &str, calls: &[&str]) -> Option<Vec<String>> {
    let rest = calls.iter().find_map(|c| {
        stmt.match_indices(c)
            // `sem_wait(` must not match inside `my_sem_wait(`.
            .find(|(p, _)| {
                stmt[..*p]
                    .chars()
                    .next_back()
                    .is_none_or(|ch| !(ch.is_alphanumeric() || ch == '_'))
            })
            .map(|(p, _)| &stmt[p + c.len()..])
    })?;
    let inner = rest.split(')').next()?;
    Some(inner.split(',').map(|a| a.trim().to_string()).collect())
}

/// A mutex operation in a trace statement, with the lock named as written (`&m` → `m`).
/// Locks reached through different pointer expressions are told apart by their text: a
/// lock passed as a parameter under another name is missed, never confused.
/// A thread blocked on a read-write lock it holds itself: `b` asks for `rwlock`'s write
/// lock while the thread still holds a read or write lock on it (or a read lock while
/// it holds the write lock) — the upgrade that waits for its own reader. The step that
/// took the lock it holds, and the lock as written.
pub(crate) fn rwlock_self_wait(steps: &[TraceStep], b: &TraceStep) -> Option<(TraceStep, String)> {
    let (wants_write, lock) = if let Some(l) = call_arg(&b.statement, &["pthread_rwlock_wrlock("]) {
        (true, l)
    } else {
        (false, call_arg(&b.statement, &["pthread_rwlock_rdlock("])?)
    };
    let mine: Vec<&TraceStep> = steps.iter().filter(|s| s.thread == b.thread).collect();
    // The blocked call itself, when the trace shows the attempt, takes nothing.
    let upto = match mine.last() {
        Some(last) if last.sid == b.sid && last.line == b.line => mine.len() - 1,
        _ => mine.len(),
    };
    let mut held: Vec<(&TraceStep, bool)> = Vec::new();
    for s in mine.iter().take(upto) {
        if call_arg(&s.statement, &["pthread_rwlock_rdlock("]).as_deref() == Some(&lock) {
            held.push((s, false));
        } else if call_arg(&s.statement, &["pthread_rwlock_wrlock("]).as_deref() == Some(&lock) {
            held.push((s, true));
        } else if call_arg(&s.statement, &["pthread_rwlock_unlock("]).as_deref() == Some(&lock) {
            held.pop();
        }
    }
    held.iter()
        .rev()
        .find(|(_, write)| wants_write || *write)
        .map(|(s, _)| ((*s).clone(), lock.clone()))
}

fn lock_op(stmt: &str) -> Option<(LockOp, String)> {
    // A spinlock is a mutex that busy-waits. A trylock may fail; the trace does not say,
    // so it is not counted as held.
    if call_arg(stmt, &["pthread_mutex_trylock(", "pthread_spin_trylock("]).is_some() {
        return None;
    }
    if let Some(m) = call_arg(stmt, &["pthread_mutex_lock(", "pthread_spin_lock("]) {
        return Some((LockOp::Acquire, m));
    }
    call_arg(stmt, &["pthread_mutex_unlock(", "pthread_spin_unlock("]).map(|m| (LockOp::Release, m))
}

/// A read-write lock taken or given back (a `tryrdlock`/`trywrlock` may fail and is not
/// counted, as a mutex's trylock is not).
fn rwlock_op(stmt: &str) -> Option<(LockOp, String)> {
    if let Some(l) = call_arg(stmt, &["pthread_rwlock_rdlock(", "pthread_rwlock_wrlock("]) {
        return Some((LockOp::Acquire, l));
    }
    call_arg(stmt, &["pthread_rwlock_unlock("]).map(|l| (LockOp::Release, l))
}

/// A `trylock` that took its mutex: the trace shows the mutex written (held) by the
/// step. A failed attempt writes nothing, and a trace that does not show the mutex's
/// state (an external checker's) leaves the attempt uncounted, as before.
fn took_by_trying(s: &TraceStep) -> Option<(LockOp, String)> {
    let m = call_arg(
        &s.statement,
        &["pthread_mutex_trylock(", "pthread_spin_trylock("],
    )?;
    let names_m = |name: &str| name.strip_prefix("*&").unwrap_or(name) == m;
    s.writes
        .iter()
        .any(|w| (names_m(&w.lhs) || w.shown.as_deref().is_some_and(names_m)) && w.value != "0")
        .then_some((LockOp::Acquire, m))
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
    use crate::diag::interleaving::fixtures::step;

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

    #[test]
    fn a_trylock_holds_its_mutex_only_when_the_trace_shows_it_taken() {
        let mut took = step(1, 18, "pthread_mutex_trylock(&a->lock)");
        took.writes
            .push(crate::cex::Write::named("*&a->lock".into(), "3".into()));
        let failed = step(2, 18, "pthread_mutex_trylock(&a->lock)");
        let held = locks_held(&[took, failed]);
        let has = |at: usize, t: u32| held[at].get(&t).is_some_and(|v| !v.is_empty());
        assert!(has(0, 1), "the write shows the mutex taken");
        assert!(!has(1, 2), "a failed attempt writes nothing");
    }

    #[test]
    fn an_unlock_of_a_mutex_another_thread_holds_frees_it() {
        let shows = |mut s: TraceStep, m: &str, v: &str| {
            s.writes
                .push(crate::cex::Write::named(format!("*&{m}"), v.into()));
            s
        };
        let steps = vec![
            shows(step(1, 14, "pthread_mutex_trylock(&spool)"), "spool", "1"),
            step(2, 15, "job = next;"),
            shows(step(2, 18, "pthread_mutex_unlock(&spool);"), "spool", "0"),
            step(1, 15, "job = next;"),
        ];
        let held = locks_held(&steps);
        let has = |at: usize, t: u32| held[at].get(&t).is_some_and(|v| !v.is_empty());
        assert!(has(1, 1));
        assert!(!has(3, 1), "T2's unlock freed T1's mutex");
        let f = foreign_unlocks(&steps);
        assert_eq!(f.len(), 1);
        assert_eq!((f[0].thread, f[0].holder, f[0].taken.line), (2, 1, 14));
        assert!(f[0].released_before.is_none());

        // A second unlock after the thread's own section: one too many.
        let twice = vec![
            shows(step(2, 10, "pthread_mutex_lock(&m);"), "m", "2"),
            shows(step(2, 11, "pthread_mutex_unlock(&m);"), "m", "0"),
            shows(step(1, 20, "pthread_mutex_lock(&m);"), "m", "1"),
            shows(step(2, 12, "pthread_mutex_unlock(&m);"), "m", "0"),
        ];
        let f = foreign_unlocks(&twice);
        assert_eq!(f.len(), 1);
        assert_eq!(f[0].released_before.as_ref().map(|s| s.line), Some(11));

        // A trace that does not show the mutex's state claims nothing (a trylock it
        // does not show may have taken it), nor does a mutex reached by a pointer.
        let hidden = vec![
            step(1, 20, "pthread_mutex_lock(&m);"),
            step(2, 12, "pthread_mutex_unlock(&m);"),
        ];
        assert!(foreign_unlocks(&hidden).is_empty());
        let pointer = vec![
            shows(step(1, 20, "pthread_mutex_lock(&a->m);"), "a->m", "1"),
            shows(step(2, 12, "pthread_mutex_unlock(&a->m);"), "a->m", "0"),
        ];
        assert!(foreign_unlocks(&pointer).is_empty());
        assert!(
            locks_held(&pointer)[1]
                .get(&1)
                .is_some_and(|v| !v.is_empty())
        );
    }

    #[test]
    fn a_write_lock_under_the_threads_own_read_lock_waits_for_itself() {
        let steps = vec![
            step(1, 10, "pthread_rwlock_rdlock(&rw);"),
            step(2, 20, "pthread_rwlock_rdlock(&rw);"),
            step(2, 21, "pthread_rwlock_unlock(&rw);"),
            step(1, 11, "x = y;"),
        ];
        let blocked = step(1, 12, "pthread_rwlock_wrlock(&rw);");
        let (took, lock) = rwlock_self_wait(&steps, &blocked).expect("an upgrade");
        assert_eq!((took.line, lock.as_str()), (10, "rw"));
        let other = step(2, 22, "pthread_rwlock_wrlock(&rw);");
        assert!(
            rwlock_self_wait(&steps, &other).is_none(),
            "released before"
        );
        let reader = step(1, 12, "pthread_rwlock_rdlock(&rw);");
        assert!(
            rwlock_self_wait(&steps, &reader).is_none(),
            "a second read lock does not wait for itself"
        );
    }

    #[test]
    fn read_write_locks_count_for_a_deadlocks_picture_only() {
        let steps = vec![
            step(1, 10, "pthread_rwlock_rdlock(&rw);"),
            step(2, 20, "pthread_rwlock_wrlock(&rw);"),
        ];
        assert_eq!(
            locks_held_with_rwlocks(&steps)[0][&1],
            vec![("rw".to_string(), 0)]
        );
        assert!(locks_held(&steps)[0].get(&1).is_none_or(|v| v.is_empty()));
        let tried = vec![step(1, 10, "pthread_rwlock_tryrdlock(&rw);")];
        assert!(
            locks_held_with_rwlocks(&tried)[0]
                .get(&1)
                .is_none_or(|v| v.is_empty())
        );
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
    fn a_binary_semaphore_around_a_section_is_a_lock_and_a_signal_is_not() {
        let steps = vec![
            step(0, 1, "sem_init(&room, 0, 1);"),
            step(0, 2, "sem_init(&ready, 0, 0);"),
            step(1, 10, "sem_wait(&room);"),
            step(1, 11, "x = x + 1;"),
            step(2, 20, "sem_post(&ready);"),
            step(1, 12, "sem_post(&room);"),
            step(3, 30, "sem_wait(&ready);"),
            step(3, 31, "sem_wait(&room);"),
        ];
        let held = locks_held(&steps);
        assert_eq!(held[3][&1], vec![("room".to_string(), 2)]);
        assert!(held[5][&1].is_empty(), "the post gives it back");
        assert!(
            held[6].get(&3).is_none_or(|v| v.is_empty()),
            "`ready` starts at 0 and is posted by one thread for another: a signal"
        );
        assert_eq!(held[7][&3], vec![("room".to_string(), 7)]);
        // Made with 1 but held by two threads at once: it counts, no lock.
        let counting = vec![
            step(0, 1, "sem_init(&slots, 0, 1);"),
            step(1, 10, "sem_wait(&slots);"),
            step(2, 20, "sem_post(&slots);"),
            step(2, 21, "sem_wait(&slots);"),
        ];
        assert!(lock_like_semaphores(&counting).is_empty());
        // Never made in the trace: its start value is unknown.
        assert!(
            lock_like_semaphores(&[step(1, 10, "sem_wait(&s);"), step(1, 11, "sem_post(&s);")])
                .is_empty()
        );
        assert!(call_arg("my_sem_wait(&s);", &["sem_wait("]).is_none());
        // A wrapper named like the library call makes no semaphore.
        assert!(
            lock_like_semaphores(&[
                step(0, 1, "my_sem_init(&s, 0, 1);"),
                step(1, 10, "sem_wait(&s);"),
                step(1, 11, "sem_post(&s);"),
            ])
            .is_empty()
        );
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
}
