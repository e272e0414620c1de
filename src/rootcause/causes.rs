//! Minimal root causes (ConcBugAssist, Alg. 1; Symbiosis's root-cause sub-schedule): the
//! inter-thread orderings of the failing run as selectable constraints, and the smallest
//! sets of them that by themselves force the failure.
//!
//! A set of orderings *forces* the failure when no complete execution with the failing
//! run's inputs that keeps those orderings passes; it is a *root cause* when, besides,
//! dropping any one of its orderings lets one pass. The question "does this set force the
//! failure?" is the solver's ([`Forcing`], answered by `engine::causes` over the program's
//! symbolic encoding, with the set's ordering literals as assumptions and Z3's unsat core
//! as the first guess of a smaller set); this module chooses the orderings and walks the
//! sets. Shrinking keeps the invariant that the current set forces the failure, so the
//! result is sufficient, and every ordering kept was kept because the set without it
//! admitted a passing run, so it is minimal — both answered by the solver, nothing inferred.
//!
//! Distinct root causes: after one is found, each of its orderings in turn is forbidden
//! from the selection (with those forbidden on the way there) and the rest is shrunk
//! again, breadth first; the sets found are distinct by construction. This does not
//! enumerate every root cause when there are many (a hitting-set search would), and
//! says so by `complete: false`.

use std::collections::{BTreeSet, HashSet, VecDeque};

use super::events::{Event, Execution};

/// One ordering of the failing run between two conflicting accesses of different
/// threads: `before` ran before `after` (indices into [`Execution::events`]).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Ordering {
    pub before: usize,
    pub after: usize,
}

/// The selectable orderings of a failing run: every pair of conflicting accesses of
/// different threads (same location, one of them a write, or both calls on the same
/// synchronization object), in the order the run made them; one per pair of trace steps.
///
/// All pairs, not only each access's nearest predecessor: an ordering constrains two
/// accesses only when both happen, so program order cannot stand in for the pairs left
/// out — a run that skips the nearer access could reorder the farther one.
pub fn orderings(ex: &Execution) -> Vec<Ordering> {
    let mut out = Vec::new();
    let mut steps_seen: HashSet<(usize, usize)> = HashSet::new();
    for (j, e2) in ex.events.iter().enumerate() {
        for (i, e1) in ex.events.iter().enumerate().take(j) {
            if e1.thread == e2.thread || !conflict(e1, e2) || e1.step == e2.step {
                continue;
            }
            if steps_seen.insert((e1.step, e2.step)) {
                out.push(Ordering {
                    before: i,
                    after: j,
                });
            }
        }
    }
    out
}

fn conflict(a: &Event, b: &Event) -> bool {
    super::events::overlaps(&a.var, &b.var) && (a.write || b.write || (a.sync && b.sync))
}

/// The solver's answer for one selection of orderings.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Forced {
    /// Every execution keeping the selection fails; `core` is a subset of the selection
    /// that does already (the solver's unsat core; the whole selection when it has none).
    Fails { core: Vec<usize> },
    /// Some complete execution keeping the selection passes.
    Passes,
    /// The solver gave no answer (a limit, or undecided).
    Unknown(String),
}

/// "Does keeping these orderings (indices into the list of orderings) force the
/// failure?"
pub trait Forcing {
    type Error;
    fn forces(&mut self, kept: &[usize]) -> Result<Forced, Self::Error>;
}

/// What the enumeration found.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Enumerated {
    /// Root causes, each a sorted list of ordering indices, in the order found.
    pub causes: Vec<Vec<usize>>,
    /// Every ordering of the failing run is needed by none: the failure happens in every
    /// complete execution with these inputs, whatever the order (a sequential bug).
    pub order_independent: bool,
    /// The orderings together do not force the failure (the encoding admits a passing
    /// run that keeps all of them): no root cause can be named.
    pub not_forced: bool,
    /// Solver questions asked.
    pub queries: usize,
    /// The search ran out of questions or got no answer before it had looked at every
    /// branch: more root causes may exist.
    pub complete: bool,
    /// Why it stopped early, in words.
    pub stopped: Option<String>,
}

/// Up to `wanted` distinct root causes among `total` orderings, asking at most `budget`
/// questions. Orderings of one `class` (the same lines and accesses, in another thread
/// or loop iteration) are one ordering for distinctness: a second root cause must differ
/// from the first in its lines, not only in which iteration raced.
pub fn enumerate<F: Forcing>(
    f: &mut F,
    total: usize,
    wanted: usize,
    budget: usize,
    class: &dyn Fn(usize) -> usize,
) -> Result<Enumerated, F::Error> {
    let mut out = Enumerated {
        complete: true,
        ..Enumerated::default()
    };
    let all: Vec<usize> = (0..total).collect();
    let first = ask(f, &all, &mut out)?;
    let core = match first {
        Forced::Fails { core } => core,
        Forced::Passes => {
            out.not_forced = true;
            return Ok(out);
        }
        Forced::Unknown(why) => {
            out.complete = false;
            out.stopped = Some(why);
            return Ok(out);
        }
    };
    if core.is_empty() {
        out.order_independent = true;
        return Ok(out);
    }
    let mut queue: VecDeque<BTreeSet<usize>> = VecDeque::new();
    let mut tried: HashSet<BTreeSet<usize>> = HashSet::new();
    let mut seen: HashSet<Vec<usize>> = HashSet::new();
    let mut pending_core = Some((BTreeSet::new(), core));
    loop {
        if let Some((excluded, core)) = pending_core.take() {
            match shrink(f, core, budget, &mut out)? {
                // No ordering needed after all (the first core was not minimal): the
                // failure does not depend on the order.
                Some(cause) if cause.is_empty() => {
                    out.order_independent = true;
                    out.causes.clear();
                    break;
                }
                Some(cause) => {
                    let mut sig: Vec<usize> = cause.iter().map(|o| class(*o)).collect();
                    sig.sort_unstable();
                    sig.dedup();
                    if seen.insert(sig.clone()) {
                        for c in sig {
                            let mut x = excluded.clone();
                            x.insert(c);
                            queue.push_back(x);
                        }
                        out.causes.push(cause);
                    }
                }
                None => {
                    out.complete = false;
                    break;
                }
            }
        }
        if out.causes.len() >= wanted {
            // Stopped by the number asked for, not by the search.
            out.complete = queue.is_empty();
            break;
        }
        let Some(excluded) = queue.pop_front() else {
            break;
        };
        if !tried.insert(excluded.clone()) {
            continue;
        }
        if out.queries >= budget {
            out.complete = false;
            out.stopped = Some(format!("stopped after {budget} solver questions"));
            break;
        }
        let kept: Vec<usize> = all
            .iter()
            .copied()
            .filter(|o| !excluded.contains(&class(*o)))
            .collect();
        match ask(f, &kept, &mut out)? {
            Forced::Fails { core } => pending_core = Some((excluded, core)),
            Forced::Passes => {}
            Forced::Unknown(why) => {
                out.complete = false;
                out.stopped = Some(why);
                break;
            }
        }
    }
    Ok(out)
}

fn ask<F: Forcing>(f: &mut F, kept: &[usize], out: &mut Enumerated) -> Result<Forced, F::Error> {
    out.queries += 1;
    let r = f.forces(kept)?;
    Ok(match r {
        // A core must lie within what was asked: anything else is not an answer.
        Forced::Fails { core } => {
            let asked: HashSet<usize> = kept.iter().copied().collect();
            let mut core: Vec<usize> = core.into_iter().filter(|o| asked.contains(o)).collect();
            core.sort_unstable();
            core.dedup();
            Forced::Fails { core }
        }
        other => other,
    })
}

/// A minimal forcing subset of `set`, which forces the failure. Orderings are dropped
/// in chunks from the earliest on, halving the chunk when a drop lets a run pass, down to
/// single orderings (the solver's core rarely shrinks a large selection by much, and a
/// root cause holds few of the orderings: this asks O(k log n) questions instead of n).
/// `None` when the budget or an unanswered question stops it before it is minimal.
fn shrink<F: Forcing>(
    f: &mut F,
    set: Vec<usize>,
    budget: usize,
    out: &mut Enumerated,
) -> Result<Option<Vec<usize>>, F::Error> {
    // Invariant: `necessary` ∪ `rest` forces the failure; each of `necessary`, dropped
    // from a superset of the final set, let a run pass.
    let mut necessary: Vec<usize> = Vec::new();
    let mut rest: Vec<usize> = set;
    let mut chunk = rest.len().div_ceil(2).max(1);
    while !rest.is_empty() {
        if out.queries >= budget {
            out.stopped = Some(format!("stopped after {budget} solver questions"));
            return Ok(None);
        }
        chunk = chunk.clamp(1, rest.len());
        let trial: Vec<usize> = necessary
            .iter()
            .chain(rest.iter().skip(chunk))
            .copied()
            .collect();
        match ask(f, &trial, out)? {
            Forced::Fails { core } => {
                let core: HashSet<usize> = core.into_iter().collect();
                rest = rest.split_off(chunk);
                rest.retain(|x| core.contains(x));
            }
            Forced::Passes if chunk == 1 => {
                necessary.push(rest.remove(0));
                chunk = rest.len().div_ceil(2).max(1);
            }
            Forced::Passes => chunk /= 2,
            Forced::Unknown(why) => {
                out.stopped = Some(why);
                return Ok(None);
            }
        }
    }
    necessary.sort_unstable();
    Ok(Some(necessary))
}

/// One access of a root cause's ordering, as the report names it.
#[derive(Clone, Debug, PartialEq, Eq, serde::Serialize)]
pub struct Access {
    pub thread: u32,
    pub file: String,
    pub line: u32,
    pub variable: String,
    pub write: bool,
    /// A synchronization call (its statement says which).
    pub sync: bool,
    /// The statement as written.
    pub statement: String,
    /// Which of the thread's executions of this access it is, from 1 (a loop's, or a
    /// function's called twice).
    pub occurrence: u32,
}

impl Access {
    pub fn of(e: &Event, statement: &str) -> Access {
        Access {
            thread: e.thread,
            file: e.file.clone(),
            line: e.line,
            variable: e.var.clone(),
            write: e.write,
            sync: e.sync,
            statement: statement.to_string(),
            occurrence: e.key.occurrence + 1,
        }
    }

    /// `T2 reads balance (line 15)`, `T1 calls pthread_mutex_unlock on m (line 20, 2nd time)`.
    pub fn describe(&self) -> String {
        let what = if self.sync {
            let call = self
                .statement
                .split('(')
                .next()
                .map(str::trim)
                .and_then(|c| c.rsplit([' ', '=']).next())
                .filter(|c| !c.is_empty())
                .unwrap_or("a synchronization call");
            format!("calls {call} on {}", self.variable)
        } else if self.write {
            format!("writes {}", self.variable)
        } else {
            format!("reads {}", self.variable)
        };
        if self.occurrence > 1 {
            format!(
                "T{} {what} (line {}, {} time)",
                self.thread,
                self.line,
                super::ordinal(self.occurrence)
            )
        } else {
            format!("T{} {what} (line {})", self.thread, self.line)
        }
    }

    /// The same access of the program, whichever execution of it.
    pub fn same_place(&self, o: &Access) -> bool {
        Access {
            occurrence: o.occurrence,
            ..self.clone()
        } == *o
    }

    /// `write of `balance``, `read of `x``, `call on `m``.
    pub fn noun(&self) -> String {
        let kind = if self.sync {
            "call on"
        } else if self.write {
            "write of"
        } else {
            "read of"
        };
        format!("{kind} `{}`", self.variable)
    }
}

/// Why a localization that asked for root causes gives none: the search's error or the
/// reason it stopped, and whether its time ran out (then more time may find one).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct MissingCauses {
    pub reason: String,
    pub out_of_time: bool,
}

/// One ordering of a root cause: `before` ran before `after` in the failing run.
#[derive(Clone, Debug, PartialEq, Eq, serde::Serialize)]
pub struct CauseOrdering {
    pub before: Access,
    pub after: Access,
}

impl CauseOrdering {
    pub fn describe(&self) -> String {
        format!(
            "{} before {}",
            self.before.describe(),
            self.after.describe()
        )
    }
}

/// A root cause: orderings that together force the failure.
#[derive(Clone, Debug, PartialEq, Eq, serde::Serialize)]
pub struct RootCause {
    pub orderings: Vec<CauseOrdering>,
    /// The cause in BEST's words, when it is an atomicity violation (see
    /// [`atomicity_violation`]).
    pub atomicity: Option<String>,
    /// Asked again after the search: the orderings force the failure, and without any
    /// one of them some complete run passes (`None`: the time ran out before the
    /// answer; a cause the check contradicts is not reported at all).
    pub verified: Option<bool>,
}

impl RootCause {
    pub fn describe(&self) -> String {
        self.orderings
            .iter()
            .map(CauseOrdering::describe)
            .collect::<Vec<_>>()
            .join("; ")
    }
}

/// Lines this close in one thread, accessing what the other thread's access conflicts
/// with, are taken as meant to run as one step (BEST's code-proximity rule).
const NEARBY_LINES: u32 = 8;

/// A root cause that is a mutual-atomicity violation, in BEST's words: two of its
/// orderings put another thread's access between two nearby accesses of one thread in
/// one file — "lines 15–16 of T1 were meant to run as one step; T2's write of `balance`
/// (line 16) came between them". `None` for any other cause.
pub fn atomicity_violation(orderings: &[CauseOrdering]) -> Option<String> {
    for o1 in orderings {
        for o2 in orderings {
            let (first, last) = (&o1.before, &o2.after);
            let (u1, u2) = (&o1.after, &o2.before);
            let one_thread = first.thread == last.thread && first.file == last.file;
            let other = u1.thread == u2.thread && u1.thread != first.thread;
            // Two accesses of the region, not one seen from both sides.
            if !one_thread || !other || first.same_place(last) || first.line > last.line {
                continue;
            }
            if last.line - first.line > NEARBY_LINES {
                continue;
            }
            // The other thread's two accesses both came between only when the one that
            // follows the region's start is not after the one that precedes its end in
            // that thread: crossed (T1 locks `a` before T2's region, `b` after it), they
            // are a cycle of two threads' orders — a deadlock's shape, not an
            // interruption.
            let crossed = !u1.same_place(u2)
                && u1.file == u2.file
                && (u2.line, u2.occurrence) < (u1.line, u1.occurrence);
            if crossed {
                continue;
            }
            // One line is one thing that was meant to run as one step.
            let (lines, verb, within) = if first.line == last.line {
                (format!("line {}", first.line), "was", "in the middle of it")
            } else {
                (
                    format!("lines {}–{}", first.line, last.line),
                    "were",
                    "between them",
                )
            };
            let between = if u1.same_place(u2) {
                format!("T{}'s {} (line {}) came", u1.thread, u1.noun(), u1.line)
            } else {
                format!(
                    "T{}'s {} (line {}) and {} (line {}) came",
                    u1.thread,
                    u2.noun(),
                    u2.line,
                    u1.noun(),
                    u1.line
                )
            };
            return Some(format!(
                "{lines} of T{} {verb} meant to run as one step; {between} {within}",
                first.thread
            ));
        }
    }
    None
}

/// The root causes of one failure, and how they were found.
#[derive(Clone, Debug, serde::Serialize)]
pub struct RootCauses {
    pub causes: Vec<RootCause>,
    /// The selectable inter-thread orderings of the failing run.
    pub orderings: usize,
    /// Every complete execution with these inputs fails, in any order.
    pub order_independent: bool,
    /// More root causes may exist than were listed.
    pub complete: bool,
    pub stopped: Option<String>,
    /// The bounds of the executions considered: rounds of context switches and the loop
    /// bound (a root cause is sufficient among those executions).
    pub rounds: u32,
    pub unwind: u32,
    pub queries: usize,
    /// The search used up its work budget (more causes may be found with more).
    pub out_of_work: bool,
    pub time_ms: u64,
    /// The closest passing run among all the encoding's runs (MaxSMT-DSP's optimum, by
    /// its first criterion: the fewest of the failing run's orderings changed), when the
    /// MaxSAT search answered within the budget.
    pub closest: Option<ClosestRun>,
}

/// A complete passing run that keeps as many of the failing run's orderings as any does.
#[derive(Clone, Debug, serde::Serialize)]
pub struct ClosestRun {
    /// Orderings it keeps.
    pub kept: usize,
    /// The differential projection: the orderings it reverses (both accesses happen, in
    /// the other order) or leaves out (one of them does not happen).
    pub flipped: Vec<CauseOrdering>,
    /// Its schedule (`seqloc.schedule/1`), for `--schedule`.
    pub schedule: crate::seq::schedule::Schedule,
    /// The schedule replays by itself and passes (the built-in replay, every thread to
    /// its end, locks honoured, no deadlock, no loop cut by the bound).
    pub replays: bool,
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A failure forced exactly by any of the given sets (the answer's core is the first
    /// such set inside the selection, like a solver's core: not minimal when the sets nest).
    struct Sets(Vec<Vec<usize>>, usize);

    impl Forcing for Sets {
        type Error = ();
        fn forces(&mut self, kept: &[usize]) -> Result<Forced, ()> {
            self.1 += 1;
            for s in &self.0 {
                if s.iter().all(|o| kept.contains(o)) {
                    // A generous core: the set plus one more kept ordering.
                    let mut core = s.clone();
                    if let Some(extra) = kept.iter().find(|o| !s.is_empty() && !s.contains(o)) {
                        core.push(*extra);
                    }
                    return Ok(Forced::Fails { core });
                }
            }
            Ok(Forced::Passes)
        }
    }

    #[test]
    fn one_cause_is_shrunk_to_its_orderings() {
        let mut f = Sets(vec![vec![2, 5]], 0);
        let e = enumerate(&mut f, 8, 3, 100, &|o| o).unwrap();
        assert_eq!(e.causes, vec![vec![2, 5]]);
        assert!(e.complete);
        assert!(!e.order_independent && !e.not_forced);
    }

    #[test]
    fn distinct_causes_are_enumerated() {
        let mut f = Sets(vec![vec![1, 3], vec![4], vec![0, 6, 7]], 0);
        let e = enumerate(&mut f, 8, 5, 200, &|o| o).unwrap();
        let mut got = e.causes.clone();
        got.sort();
        assert_eq!(got, vec![vec![0, 6, 7], vec![1, 3], vec![4]]);
        for c in &e.causes {
            // Each is forcing and minimal.
            let mut g = Sets(f.0.clone(), 0);
            assert!(matches!(g.forces(c).unwrap(), Forced::Fails { .. }));
            for drop in c {
                let less: Vec<usize> = c.iter().copied().filter(|o| o != drop).collect();
                assert_eq!(g.forces(&less).unwrap(), Forced::Passes);
            }
        }
    }

    fn access(thread: u32, line: u32, var: &str, write: bool) -> Access {
        Access {
            thread,
            file: "p.c".into(),
            line,
            variable: var.into(),
            write,
            sync: false,
            statement: String::new(),
            occurrence: 1,
        }
    }

    #[test]
    fn a_later_execution_of_an_access_says_which() {
        let mut a = access(1, 41, "am", true);
        assert_eq!(a.describe(), "T1 writes am (line 41)");
        a.occurrence = 2;
        assert_eq!(a.describe(), "T1 writes am (line 41, 2nd time)");
        assert!(a.same_place(&access(1, 41, "am", true)));
        assert!(!a.same_place(&access(2, 41, "am", true)));
    }

    #[test]
    fn an_interleaved_pair_of_nearby_accesses_is_an_atomicity_violation() {
        let lost = [
            CauseOrdering {
                before: access(1, 15, "balance", false),
                after: access(2, 16, "balance", true),
            },
            CauseOrdering {
                before: access(2, 16, "balance", true),
                after: access(1, 16, "balance", true),
            },
        ];
        assert_eq!(
            atomicity_violation(&lost).as_deref(),
            Some(
                "lines 15–16 of T1 were meant to run as one step; T2's write of `balance` (line 16) came between them"
            )
        );
        // An order violation: one ordering, no region.
        assert_eq!(atomicity_violation(&lost[..1]), None);
        // One line read and written (`acc = acc + k`): one thing, in the singular.
        let one_line = [
            CauseOrdering {
                before: access(1, 3, "acc", false),
                after: access(2, 3, "acc", true),
            },
            CauseOrdering {
                before: access(2, 3, "acc", true),
                after: access(1, 3, "acc", true),
            },
        ];
        assert_eq!(
            atomicity_violation(&one_line).as_deref(),
            Some(
                "line 3 of T1 was meant to run as one step; T2's write of `acc` (line 3) came in the middle of it"
            )
        );
        // Far apart: not one region.
        let far = [
            CauseOrdering {
                before: access(1, 15, "x", false),
                after: access(2, 40, "x", true),
            },
            CauseOrdering {
                before: access(2, 40, "x", true),
                after: access(1, 60, "x", true),
            },
        ];
        assert_eq!(atomicity_violation(&far), None);
        // Crossed: T1 took `a` (line 13) before T2's region and `b` (line 19) after its
        // start — two locks taken in opposite orders, not an interruption.
        let crossed = [
            CauseOrdering {
                before: access(2, 27, "b", true),
                after: access(1, 19, "b", true),
            },
            CauseOrdering {
                before: access(1, 13, "a", true),
                after: access(2, 28, "a", true),
            },
        ];
        assert_eq!(atomicity_violation(&crossed), None);
    }

    #[test]
    fn causes_of_one_class_count_once() {
        // Orderings 0..4 are two classes (even, odd); causes {0}, {2} are one class.
        let mut f = Sets(vec![vec![0], vec![2], vec![1]], 0);
        let e = enumerate(&mut f, 4, 5, 100, &|o| o % 2).unwrap();
        assert_eq!(e.causes.len(), 2);
        assert!(e.causes.contains(&vec![1]));
    }

    #[test]
    fn wanted_and_budget_stop_the_search() {
        let mut f = Sets(vec![vec![1], vec![2], vec![3]], 0);
        let e = enumerate(&mut f, 4, 1, 100, &|o| o).unwrap();
        assert_eq!(e.causes.len(), 1);
        assert!(!e.complete);
        let mut f = Sets(vec![vec![1, 2]], 0);
        let e = enumerate(&mut f, 40, 3, 3, &|o| o).unwrap();
        assert!(e.causes.is_empty());
        assert!(!e.complete);
        assert!(e.stopped.is_some());
    }

    #[test]
    fn failures_that_need_no_order_and_orders_that_do_not_force() {
        let mut f = Sets(vec![vec![]], 0);
        let e = enumerate(&mut f, 4, 3, 100, &|o| o).unwrap();
        assert!(e.order_independent && e.causes.is_empty());
        let mut f = Sets(vec![], 0);
        let e = enumerate(&mut f, 4, 3, 100, &|o| o).unwrap();
        assert!(e.not_forced && e.causes.is_empty());
    }

    fn ev(step: usize, thread: u32, var: &str, write: bool) -> Event {
        Event {
            step,
            thread,
            file: "p.c".into(),
            line: step as u32,
            var: var.into(),
            write,
            sync: false,
            key: crate::rootcause::EventKey {
                thread,
                sid: crate::ir::StmtId::NONE,
                line: step as u32,
                var: var.into(),
                write,
                occurrence: 0,
            },
        }
    }

    #[test]
    fn orderings_are_the_conflicting_pairs_of_different_threads() {
        let ex = Execution {
            events: vec![
                ev(0, 1, "x", false),
                ev(1, 2, "x", true),
                ev(2, 1, "x", true),
                ev(3, 2, "y", false),
                ev(4, 1, "x", false),
                ev(5, 3, "x", false),
            ],
            flows: vec![],
        };
        let o = orderings(&ex);
        let pairs: Vec<(usize, usize)> = o.iter().map(|o| (o.before, o.after)).collect();
        // Read-read is no conflict, nor are accesses of one thread or to other locations.
        assert_eq!(pairs, vec![(0, 1), (1, 2), (1, 4), (1, 5), (2, 5)]);
    }
}
