//! Condition waits guarded by `if` instead of a loop, or by nothing.
//!
//! A thread that waits on a condition variable must test its predicate again when it
//! wakes: another thread may have taken what it waited for between the signal and the
//! wake-up, and waits may wake spuriously (POSIX; CERT CON36-C). When the failing trace
//! shows a thread waking from a `pthread_cond_wait` whose nearest enclosing construct in
//! its function is an `if` and no loop, the `if` is where the repair goes (make it a
//! `while`); when no test and no loop surrounds the wait at all, the wait itself is (put
//! it in a `while` loop on the state it waits for). No value along the interleaving
//! changes this, so Griesmeyer's method cannot name the line; the trace shows the
//! wake-up, the program its missing loop.

use std::collections::BTreeMap;

use crate::analysis::waits::{counting_wait_loop, guarding_if, outside_any_loop};
use crate::cex::TraceStep;
use crate::ir::*;

/// A wait the failing run woke from that does not re-test its predicate.
#[derive(Clone, Debug)]
pub struct UnloopedWait {
    /// The `if`, the loop or the wait itself, as a step of the waking thread.
    pub guard: TraceStep,
    pub kind: WaitGuard,
}

/// What surrounds a wait that does not re-test its predicate.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum WaitGuard {
    /// An `if` tests the predicate once.
    If,
    /// A loop counts wake-ups (`analysis::waits::counting_wait_loop`).
    Counting,
    /// Nothing: no test and no loop in its function (`analysis::waits::outside_any_loop`).
    Bare,
}

/// For every thread of the trace that woke from an `if`-guarded wait, from one in a loop
/// that counts wake-ups, or from one with no test around it: the `if`, the loop or the
/// wait, as a step of that thread (its location, line and statement id).
pub fn unlooped_waits(
    normalized: &Program,
    shared: &crate::analysis::shared::SharedInfo,
    steps: &[TraceStep],
) -> Vec<UnloopedWait> {
    // A wait shows as two steps of its statement when other threads ran while it waited
    // (it starts waiting, it wakes), and as one when it woke before any other thread ran (a
    // spurious wake-up): it woke if its thread has any later step.
    let mut seen: BTreeMap<(u32, StmtId), usize> = BTreeMap::new();
    let mut out: Vec<UnloopedWait> = Vec::new();
    for (i, s) in steps.iter().enumerate() {
        if !is_wait(&s.statement) || s.sid == StmtId::NONE {
            continue;
        }
        let n = seen.entry((s.thread, s.sid)).or_default();
        *n += 1;
        let woke = *n == 2
            || steps
                .iter()
                .skip(i + 1)
                .any(|t| t.thread == s.thread && t.sid != s.sid);
        if !woke {
            continue;
        }
        let (guard, kind) = match guarding_if(normalized, s.sid) {
            Some(g) => ((g.loc, g.id), WaitGuard::If),
            None => match counting_wait_loop(normalized, shared, s.sid) {
                Some(l) => ((l.loc, l.id), WaitGuard::Counting),
                None if outside_any_loop(normalized, s.sid) => ((s.loc, s.sid), WaitGuard::Bare),
                None => continue,
            },
        };
        let (loc, sid) = guard;
        let Some(pos) = normalized.sources.position(loc) else {
            continue;
        };
        if out
            .iter()
            .any(|o| o.guard.thread == s.thread && o.guard.sid == sid)
        {
            continue;
        }
        let guard = TraceStep {
            thread: s.thread,
            loc,
            sid,
            file: s.file.clone(),
            line: pos.line,
            statement: normalized
                .sources
                .source_line(loc)
                .map(|l| l.trim().to_string())
                .unwrap_or_default(),
            writes: vec![],
        };
        out.push(UnloopedWait { guard, kind });
    }
    out
}

fn is_wait(statement: &str) -> bool {
    statement.contains("pthread_cond_wait(") || statement.contains("pthread_cond_timedwait(")
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::analysis::shared::SharedInfo;
    use crate::frontend::load_text;
    use crate::passes::normalize::normalize;
    use crate::seq::schedule::StmtIndex;

    const IF_WAIT: &str = "
typedef unsigned long pthread_t; typedef int pthread_mutex_t; typedef int pthread_cond_t;
int pthread_mutex_lock(pthread_mutex_t *); int pthread_mutex_unlock(pthread_mutex_t *);
int pthread_cond_wait(pthread_cond_t *, pthread_mutex_t *);
pthread_mutex_t m; pthread_cond_t c; int items;
void *consumer(void *arg)
{
  pthread_mutex_lock(&m);
  if (items == 0)
    pthread_cond_wait(&c, &m);
  items = items - 1;
  pthread_mutex_unlock(&m);
  while (items == 5)
    pthread_cond_wait(&c, &m);
  return 0;
}
";

    /// Steps for the statements of `line` (every part), as a trace would name them.
    fn steps_at(prog: &Program, line: u32, thread: u32) -> Vec<TraceStep> {
        let index = StmtIndex::build(prog);
        let mut out = Vec::new();
        for f in &prog.funcs {
            let Some(body) = &f.body else { continue };
            visit::each_stmt(body, &mut |s| {
                if s.id != StmtId::NONE && prog.sources.line(s.loc) == line {
                    if let Some(e) = index.get(s.id) {
                        out.push(TraceStep {
                            thread,
                            loc: s.loc,
                            sid: s.id,
                            file: "w.c".into(),
                            line,
                            statement: e.text.clone(),
                            writes: vec![],
                        });
                    }
                }
            });
        }
        out
    }

    fn program() -> Program {
        let mut p = load_text("w.c", IF_WAIT, DataModel::default()).unwrap();
        normalize(&mut p);
        p
    }

    #[test]
    fn a_wake_up_from_an_if_guarded_wait_names_the_if() {
        let p = program();
        let wait = steps_at(&p, 10, 1);
        assert!(!wait.is_empty());
        let mut trace = wait.clone();
        trace.extend(wait.clone());
        let found = unlooped_waits(&p, &SharedInfo::compute(&p), &trace);
        assert_eq!(found.len(), 1, "{found:?}");
        assert_eq!(found[0].guard.line, 9);
        assert_eq!(found[0].guard.thread, 1);
        // Waiting without waking is not enough.
        assert!(unlooped_waits(&p, &SharedInfo::compute(&p), &wait).is_empty());
    }

    /// A spurious wake-up before any other thread ran shows the wait once, then the
    /// thread's next statement.
    #[test]
    fn a_wait_followed_by_its_thread_woke() {
        let p = program();
        let mut trace = steps_at(&p, 10, 1);
        assert!(!trace.is_empty());
        trace.extend(steps_at(&p, 11, 1));
        let found = unlooped_waits(&p, &SharedInfo::compute(&p), &trace);
        assert_eq!(found.len(), 1, "{found:?}");
        assert_eq!(found[0].guard.line, 9);
        // Another thread's later step is not a wake-up.
        let mut other = steps_at(&p, 10, 1);
        other.extend(steps_at(&p, 11, 2));
        assert!(unlooped_waits(&p, &SharedInfo::compute(&p), &other).is_empty());
    }

    const COUNTED: &str = "
typedef unsigned long pthread_t; typedef int pthread_mutex_t; typedef int pthread_cond_t;
int pthread_mutex_lock(pthread_mutex_t *); int pthread_mutex_unlock(pthread_mutex_t *);
int pthread_cond_wait(pthread_cond_t *, pthread_mutex_t *);
pthread_mutex_t m; pthread_cond_t c; int started; int ready;
void *counted(void *arg)
{
  for (int i = 0; i < 2; i++)
    pthread_cond_wait(&c, &m);
  return 0;
}
void *copied(void *arg)
{
  int done = 0;
  while (!done) {
    pthread_cond_wait(&c, &m);
    done = ready;
  }
  return 0;
}
void *tested(void *arg)
{
  for (int i = 0; i < 2 && started < 2; i++)
    pthread_cond_wait(&c, &m);
  return 0;
}
";

    /// A loop that counts its wake-ups is named; one that tests a copy of the state, or
    /// the state itself beside a count, is not.
    #[test]
    fn a_loop_that_counts_wake_ups_is_named() {
        let mut p = load_text("w.c", COUNTED, DataModel::default()).unwrap();
        normalize(&mut p);
        let shared = SharedInfo::compute(&p);
        let woke = |line: u32| {
            let mut trace = steps_at(&p, line, 1);
            assert!(!trace.is_empty(), "line {line}");
            trace.extend(trace.clone());
            unlooped_waits(&p, &shared, &trace)
        };
        let found = woke(9);
        assert_eq!(found.len(), 1, "{found:?}");
        assert_eq!(found[0].guard.line, 8);
        assert_eq!(found[0].kind, WaitGuard::Counting);
        assert!(woke(16).is_empty());
        assert!(woke(24).is_empty());
    }

    #[test]
    fn a_wait_in_a_loop_is_fine() {
        let p = program();
        let wait = steps_at(&p, 14, 1);
        assert!(!wait.is_empty());
        let mut trace = wait.clone();
        trace.extend(wait);
        assert!(unlooped_waits(&p, &SharedInfo::compute(&p), &trace).is_empty());
    }
}
