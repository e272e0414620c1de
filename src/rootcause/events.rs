//! The failing execution as events: every shared access of the trace, in trace order, and
//! for every read the write it read from (or the initial value). A lock, unlock, wait or
//! signal call is an access to its object that reads and writes it, so that "T2 took `m`
//! after T1 released it" is a data flow like any other.
//!
//! Events are named across executions of the same program by [`EventKey`]: the thread,
//! the statement, the object and how many times the thread had made that access before.
//! Two replays of the same program with different schedules give the same key to "the
//! second time T1 read `count` at line 12", which is what the differential projection
//! compares.

use std::collections::HashMap;

use crate::cex::TraceStep;
use crate::diag::interleaving::Pointers;
use crate::ir::StmtId;

/// The shared locations a step's line reads and writes.
pub type Accesses<'a> = dyn Fn(&TraceStep) -> (Vec<String>, Vec<String>) + 'a;

/// An event's name in every execution of the program (see the module comment).
#[derive(Clone, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct EventKey {
    pub thread: u32,
    pub sid: StmtId,
    pub line: u32,
    pub var: String,
    pub write: bool,
    /// How many times the thread made this access before (from 0).
    pub occurrence: u32,
}

/// One shared access of a trace.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Event {
    /// The trace step that made it.
    pub step: usize,
    pub thread: u32,
    pub file: String,
    pub line: u32,
    pub var: String,
    pub write: bool,
    /// A synchronization call (lock, unlock, wait, signal, create, join).
    pub sync: bool,
    pub key: EventKey,
}

/// A read and the write it read from: `None` is the value the location held before any
/// write of the trace (its initial value).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Flow {
    pub read: usize,
    pub source: Option<usize>,
}

/// A trace as shared events and data flows.
#[derive(Clone, Debug, Default)]
pub struct Execution {
    pub events: Vec<Event>,
    pub flows: Vec<Flow>,
}

impl Execution {
    /// The events of `steps`. Without `sync`, synchronization calls make no events: the
    /// replays of a failure (not a deadlock) drop lock calls (Table II's non-deadlock
    /// rules), so the order in which their traces take a lock is no order of the program.
    pub fn of(steps: &[TraceStep], accesses: &Accesses, sync: bool) -> Execution {
        let mut ex = Execution::default();
        let mut seen: HashMap<(u32, StmtId, u32, String, bool), u32> = HashMap::new();
        let mut last_write: HashMap<String, usize> = HashMap::new();
        let mut pointers = Pointers::default();
        for (i, s) in steps.iter().enumerate() {
            let step_pointers = pointers.clone();
            pointers.record(s);
            let is_sync = s.statement.contains("pthread_");
            if is_sync && !sync {
                continue;
            }
            let (reads, writes) = accesses(s);
            // A synchronization call reads its object's state before it changes it.
            let mut accesses: Vec<(String, bool)> = reads.into_iter().map(|v| (v, false)).collect();
            if is_sync {
                accesses.extend(writes.iter().map(|v| (v.clone(), false)));
            }
            accesses.extend(writes.into_iter().map(|v| (v, true)));
            accesses.dedup();
            for (var, write) in accesses {
                let var = step_pointers.resolve(s.thread, &var);
                let n = seen
                    .entry((s.thread, s.sid, s.line, var.clone(), write))
                    .or_insert(0);
                let key = EventKey {
                    thread: s.thread,
                    sid: s.sid,
                    line: s.line,
                    var: var.clone(),
                    write,
                    occurrence: *n,
                };
                *n += 1;
                let idx = ex.events.len();
                if write {
                    last_write.insert(var.clone(), idx);
                } else {
                    // A member read after its whole struct was stored (a copy, a `memset`)
                    // reads that store.
                    let source = last_write
                        .iter()
                        .filter(|(w, _)| overlaps(w, &var))
                        .map(|(_, i)| *i)
                        .max();
                    ex.flows.push(Flow { read: idx, source });
                }
                ex.events.push(Event {
                    step: i,
                    thread: s.thread,
                    file: s.file.clone(),
                    line: s.line,
                    var,
                    write,
                    sync: is_sync,
                    key,
                });
            }
        }
        ex
    }

    /// The event with `key`, when this execution made it.
    pub fn find(&self, key: &EventKey) -> Option<usize> {
        self.events.iter().position(|e| &e.key == key)
    }

    /// The write `read` (an index of `events`) read from, by key; `Some(None)` for the
    /// initial value, `None` when `read` is no read of this execution.
    pub fn source_of(&self, read: usize) -> Option<Option<&EventKey>> {
        self.flows
            .iter()
            .find(|f| f.read == read)
            .map(|f| f.source.and_then(|w| self.events.get(w)).map(|e| &e.key))
    }

    /// Inter-thread flows: reads of a value another thread wrote.
    pub fn inter_thread_flows(&self) -> usize {
        self.flows
            .iter()
            .filter(|f| {
                f.source.is_some_and(|w| {
                    self.events.get(w).map(|e| e.thread)
                        != self.events.get(f.read).map(|e| e.thread)
                })
            })
            .count()
    }
}

/// Whether accesses named `a` and `b` may touch the same memory: the same name, or one a
/// part of the other — a whole struct or element (`cfg`, `*p`, `p[]`: what a struct copy
/// or a `memset`/`memcpy` of whole elements stores) and a member or element of it
/// (`cfg.limit`, `p->n`, `p[].data[]`). A pointer itself (`p`) is no part of what it
/// points to.
pub fn overlaps(a: &str, b: &str) -> bool {
    a == b || part_of(a, b) || part_of(b, a)
}

fn part_of(part: &str, whole: &str) -> bool {
    let after = |rest: &str, seps: &[&str]| seps.iter().any(|s| rest.starts_with(s));
    if let Some(rest) = part.strip_prefix(whole)
        && after(rest, &[".", "["])
    {
        return true;
    }
    // The element a pointer points to, named either way (`*p`, `p[]`).
    let Some(p) = whole.strip_prefix('*').or_else(|| whole.strip_suffix("[]")) else {
        return false;
    };
    if part.strip_prefix('*') == Some(p) || part.strip_suffix("[]") == Some(p) {
        return true;
    }
    part.strip_prefix(p)
        .is_some_and(|rest| after(rest, &["->", "[]."]))
}

#[cfg(test)]
pub(crate) mod tests {
    use super::*;

    pub(crate) fn step(thread: u32, line: u32, statement: &str) -> TraceStep {
        TraceStep::at(thread, line, statement)
    }

    /// `x = x + 1` on line 10, `m` lock/unlock on lines 9 and 11.
    pub(crate) fn acc(s: &TraceStep) -> (Vec<String>, Vec<String>) {
        match s.line {
            10 => (vec!["x".into()], vec!["x".into()]),
            9 | 11 => (vec![], vec!["m".into()]),
            20 => (vec!["x".into()], vec![]),
            _ => (vec![], vec![]),
        }
    }

    #[test]
    fn a_lost_update_reads_the_initial_value_twice() {
        let steps = [step(1, 10, "x = x + 1"), step(2, 10, "x = x + 1")];
        let ex = Execution::of(&steps, &acc, true);
        assert_eq!(ex.events.len(), 4);
        // T1 reads the initial value; T2 reads T1's write.
        assert_eq!(ex.flows[0].source, None);
        assert_eq!(ex.flows[1].source, Some(1));
        assert_eq!(ex.inter_thread_flows(), 1);
        // Two reads of the same line by the same thread are told apart.
        let steps = [step(1, 10, "x = x + 1"), step(1, 10, "x = x + 1")];
        let ex = Execution::of(&steps, &acc, true);
        assert_eq!(ex.events[0].key.occurrence, 0);
        assert_eq!(ex.events[2].key.occurrence, 1);
        assert_eq!(ex.inter_thread_flows(), 0);
    }

    #[test]
    fn a_whole_store_covers_its_members_and_a_pointer_is_no_part_of_its_target() {
        assert!(overlaps("t[]", "t->data[]") && overlaps("t->n", "*t"));
        assert!(overlaps("cfg", "cfg.limit") && overlaps("cfg.a[]", "cfg"));
        assert!(overlaps("*p", "p[]") && overlaps("p[]", "p[].n"));
        assert!(!overlaps("t", "t->n") && !overlaps("cfg", "cfg2.limit"));
        assert!(!overlaps("cfg.a", "cfg.ab") && !overlaps("*p", "pq->n"));
        // A member read after a `memset` of the struct reads the `memset`.
        let acc = |s: &TraceStep| match s.line {
            1 => (vec![], vec!["t->n".to_string()]),
            2 => (vec![], vec!["t[]".to_string()]),
            3 => (vec!["t->n".to_string()], vec![]),
            _ => (vec![], vec![]),
        };
        let steps = [step(1, 1, ""), step(1, 2, ""), step(2, 3, "")];
        let ex = Execution::of(&steps, &acc, false);
        assert_eq!(ex.flows[0].source, Some(1));
    }

    #[test]
    fn a_lock_reads_the_last_unlock() {
        let steps = [
            step(1, 9, "pthread_mutex_lock(&m)"),
            step(1, 11, "pthread_mutex_unlock(&m)"),
            step(2, 9, "pthread_mutex_lock(&m)"),
        ];
        let ex = Execution::of(&steps, &acc, true);
        let t2_lock = ex
            .events
            .iter()
            .position(|e| e.thread == 2 && !e.write)
            .expect("T2 reads m");
        let src = ex.source_of(t2_lock).flatten().expect("from T1's unlock");
        assert_eq!((src.thread, src.line), (1, 11));
        assert!(ex.events.iter().all(|e| e.sync));
    }
}

#[cfg(test)]
mod sync_tests {
    use super::tests::{acc, step};
    use super::*;
    use crate::cex::Write;

    #[test]
    fn an_access_through_a_pointer_names_the_object() {
        let mut set = step(1, 5, "move(&checking)");
        set.writes
            .push(Write::named("from_1".into(), "&checking".into()));
        let through = step(1, 6, "from->balance = 1");
        let direct = step(2, 7, "t = checking.balance");
        let acc = |s: &TraceStep| match s.line {
            6 => (vec![], vec!["from->balance".to_string()]),
            7 => (vec!["checking.balance".to_string()], vec![]),
            _ => (vec![], vec![]),
        };
        let ex = Execution::of(&[set, through, direct], &acc, false);
        assert_eq!(ex.events[0].var, "checking.balance");
        assert_eq!(ex.flows[0].source, Some(0));
    }

    #[test]
    fn without_sync_a_lock_makes_no_event() {
        let steps = [
            step(1, 9, "pthread_mutex_lock(&m)"),
            step(1, 10, "x = x + 1"),
        ];
        let ex = Execution::of(&steps, &acc, false);
        assert!(ex.events.iter().all(|e| e.var == "x"));
    }
}
