//! Mutants of a synchronization primitive's kind or count: a read lock taken for a
//! write, a semaphore or barrier made for one thread too many or too few, a mutex of the
//! wrong type, a signal where every waiter must wake, a `trylock` whose failure is not
//! handled — and of a condition wait's loop test, which decides whether a thread waits
//! (`while (items != 0) pthread_cond_wait(..)` for `== 0`: the consumer never waits).
//!
//! Why they are needed: Griesmeyer's method changes the *value* a line computes along
//! the failing interleaving, with the schedule held. A primitive of the wrong kind is
//! wrong because of the schedules it allows: made right, the failing schedule cannot be
//! followed at all (the second thread blocks on the write lock), so no value change of
//! its line avoids the failure along it and the line is no candidate. The lines that are
//! candidates are the racing accesses the primitive failed to order — true, but the fix
//! is one word of the call (`pthread_rwlock_rdlock` → `pthread_rwlock_wrlock`, the `2` of
//! `sem_init(&s, 0, 2)`), and a user reads the first line or two.
//!
//! A wait loop's test is the same kind of line: a thread that should have waited and did
//! not runs on along the failing schedule (its test's value change would need another
//! schedule, in which it waits for a signal), and one that waits when it should not
//! blocks for ever, where a deadlock's candidates name the wait, not its test. Its
//! mutants are the one-token operators of `operators` (the nearest relational operator,
//! a constant off by one) inside the test only.
//!
//! A mutant counts only when the oracle proves the mutated program free of failures and
//! deadlocks in every execution, as for the value mutants (`super`). The mutants are few
//! (one or two per call or test) and tried only on lines the failing run executed.

use tree_sitter::Node;

use super::operators::{Mutant, each_node, text_of};

/// What a synchronization mutant changes.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Part {
    /// The call itself: `pthread_rwlock_wrlock` for `pthread_rwlock_rdlock`.
    Kind,
    /// A semaphore's or barrier's count.
    Count,
    /// The type a mutex attribute gives.
    MutexType,
    /// The test of a loop around a condition wait.
    WaitTest,
    /// A global a wait loop's test names, swapped for another of its type: the wrong
    /// flag waited for.
    WaitFlag,
    /// A flag a waking thread sets before it broadcasts, missing from the test of the
    /// loop around the wait (`mutation::wait_terms`).
    WaitTerm,
    /// The address handed to a new thread, of a variable its creator changes
    /// (`mutation::arguments`).
    ArgumentCopy,
    /// An integer in the argument handed to a new thread (`&jobs[0]` for the second).
    Argument,
    /// A constant element in a loop that creates threads (`&jobs[0]` for `&jobs[i]`).
    Slot,
    /// One object handed to every thread a loop creates, through a local pointer
    /// (`a = &args;`, `mutation::arguments`).
    SharedObject,
    /// A wake-up sent before the change it announces (`mutation::signals`).
    SignalOrder,
    /// A call of the program's own function that gives something back (unlocks,
    /// posts, signals) made before a use it should follow (`mutation::signals`).
    ReleaseOrder,
    /// A helper called where its wrapper, which also releases or wakes, was meant
    /// (`mutation::callees`).
    Callee,
    /// A barrier or semaphore wait made after statements it should protect
    /// (`mutation::signals`).
    WaitOrder,
    /// A release on one branch that the thread makes again after it (a binary
    /// semaphore posted twice, an unlock repeated): removed (`mutation::signals`).
    ExtraRelease,
    /// A write of what a wait loop's test reads, on a path that wakes nobody: a
    /// broadcast added after it (`mutation::wakes`).
    MissingWake,
    /// A call through a pointer (a callback) made while a lock is held, the unlock
    /// after it: moved above the call (`mutation::callbacks`).
    LockedCallback,
    /// A global's start value (`int tokens = 2;`): the count of a hand-made
    /// synchronization, or any value the threads start from.
    StartValue,
    /// The test of a loop that posts or signals (`mutation::guards`): it wakes the
    /// others the wrong number of times.
    LoopBound,
    /// The test of an `if` whose branch waits (`mutation::guards`).
    Guard,
    /// The test of an `if` whose branch wakes the others and does not wait.
    WakeGuard,
    /// The global a store writes, swapped for one of its type that nothing writes
    /// (`mutation::targets`): a store copied from another function unchanged.
    StoreTarget,
    /// A write of what a wait loop's test reads (a hand-made lock's or gate's state)
    /// that lets the wrong thread on (`mutation::gate_writes`).
    GateWrite,
    /// A value computed once before a loop that refreshes what it is computed from (a
    /// compare-and-swap retry's new value): moved into the loop
    /// (`mutation::stale_values`).
    StaleRetry,
    /// A loop's test of a copy of shared state taken before the loop: the shared read
    /// for the copy (`mutation::stale_values`).
    StaleCopy,
    /// A post, wait or wake-up of another object of the same type than the one meant
    /// (`mutation::objects`).
    WrongObject,
    /// A copy of shared state taken before a condition wait and used after it: moved
    /// after the wait (`mutation::stale_values`).
    CopyBeforeWait,
    /// The test of a bounds check whose branch leaves (a full ring, a limit reached),
    /// off by one (`mutation::bounds`).
    BoundCheck,
    /// An unlock and the lock of the same object a few statements later, opening a
    /// window between a check and the update that depends on it (`mutation::sections`).
    SplitSection,
    /// A critical section under the wrong mutex: the lock and its unlock naming another
    /// of the same type reached the same way (`mutation::objects`).
    WrongLock,
    /// A release (a post, an unlock, a wake-up) that ends one branch of an `if` only:
    /// moved after the `if` (`mutation::release_paths`).
    OnePathRelease,
}

impl Part {
    /// The words for a report: "the synchronization here is of the wrong …".
    pub fn words(self) -> &'static str {
        match self {
            Part::Kind => "the synchronization here is of the wrong kind",
            Part::Count => "the synchronization here is made for the wrong count",
            Part::MutexType => "the mutex is made of the wrong type",
            Part::WaitTest => "this wait loop's test decides wrongly whether the thread waits",
            Part::WaitFlag => "this wait loop waits for the wrong flag",
            Part::WaitTerm => "this wait loop's test leaves out what the waking thread announces",
            Part::ArgumentCopy => {
                "the thread created here is given the address of a variable its creator goes on changing"
            }
            Part::StartValue => "the start value here is wrong",
            Part::Argument => "the thread created here is handed the wrong argument",
            Part::Slot => "every thread this loop creates is handed the same element",
            Part::SharedObject => {
                "every thread this loop creates is handed this one object, which the next round rewrites"
            }
            Part::SignalOrder => "this wake-up is sent before the change it announces",
            Part::ReleaseOrder => {
                "this call gives back too early, before a later statement of its block"
            }
            Part::WaitOrder => "this wait comes after statements it should protect",
            Part::ExtraRelease => {
                "this gives back what the thread gives back again later: one release too many"
            }
            Part::LockedCallback => {
                "this call runs a callback while holding a lock the callback's code may need"
            }
            Part::MissingWake => "this changes what a waiting thread waits for, and wakes nobody",
            Part::Callee => "this call skips what its wrapper gives back to the other threads",
            Part::LoopBound => "this loop wakes the other threads the wrong number of times",
            Part::Guard => "this test decides wrongly whether the thread waits",
            Part::WakeGuard => "this test decides wrongly when the thread wakes the others",
            Part::StoreTarget => "this store writes the wrong variable",
            Part::CopyBeforeWait => {
                "this copies shared state before a wait that lets the other threads change it"
            }
            Part::WrongObject => "this call posts, waits on or wakes the wrong object",
            Part::StaleCopy => {
                "this test reads a copy of shared state taken before the loop, never read again"
            }
            Part::StaleRetry => {
                "this value is computed once, before the loop whose rounds refresh what it is computed from"
            }
            Part::GateWrite => {
                "this write of the state the waiting threads test lets the wrong thread on"
            }
            Part::BoundCheck => "this bounds check of shared state is off by one",
            Part::WrongLock => "this critical section is under the wrong lock",
            Part::OnePathRelease => {
                "this release is made on one path only: the other path keeps what it should give back"
            }
            Part::SplitSection => {
                "this unlock splits a critical section: the statements after it run unprotected until the lock is taken again"
            }
        }
    }

    /// A lock's part, or an order between threads.
    pub fn is_locking(self) -> bool {
        matches!(
            self,
            Part::MutexType | Part::LockedCallback | Part::SplitSection | Part::WrongLock
        )
    }
}

/// A mutant and what it changes.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct SyncMutant {
    pub mutant: Mutant,
    pub part: Part,
}

/// The calls whose name is the mistake, and the name that may be meant.
fn kind_replacement(name: &str) -> Option<&'static str> {
    Some(match name {
        "pthread_rwlock_rdlock" => "pthread_rwlock_wrlock",
        "pthread_rwlock_tryrdlock" => "pthread_rwlock_trywrlock",
        "pthread_cond_signal" => "pthread_cond_broadcast",
        "pthread_mutex_trylock" => "pthread_mutex_lock",
        "pthread_spin_trylock" => "pthread_spin_lock",
        "sem_trywait" => "sem_wait",
        _ => return None,
    })
}

/// The mutex types a `pthread_mutexattr_settype` may name.
const MUTEX_TYPES: [&str; 4] = [
    "PTHREAD_MUTEX_NORMAL",
    "PTHREAD_MUTEX_RECURSIVE",
    "PTHREAD_MUTEX_ERRORCHECK",
    "PTHREAD_MUTEX_DEFAULT",
];

/// The calls whose count argument (index, smallest count that makes sense) may be off by
/// one.
fn count_argument(name: &str) -> Option<(usize, i64)> {
    match name {
        "sem_init" => Some((2, 0)),
        "pthread_barrier_init" => Some((2, 1)),
        _ => None,
    }
}

/// Every synchronization mutant on the lines `lines` (from 1) of `text`, in the order of
/// the text.
pub fn primitive_mutants(text: &str, lines: &[u32]) -> Vec<SyncMutant> {
    let mut out = Vec::new();
    each_node(text, |n| {
        let row = n.start_position().row as u32 + 1;
        if n.kind() == "call_expression" && lines.contains(&row) {
            call_mutants(text, n, &mut out);
        }
        if matches!(n.kind(), "while_statement" | "do_statement") {
            wait_test_mutants(text, n, lines, &mut out);
        }
    });
    out
}

/// The one-token mutants of the test of a loop whose body waits on a condition variable,
/// when the test's first line is one of `lines`.
fn wait_test_mutants(text: &str, lp: Node, lines: &[u32], out: &mut Vec<SyncMutant>) {
    let Some(test) = lp.child_by_field_name("condition") else {
        return;
    };
    let row = test.start_position().row as u32 + 1;
    if !lines.contains(&row) {
        return;
    }
    let waits = lp.child_by_field_name("body").is_some_and(|b| {
        let t = text_of(text, b);
        t.contains("pthread_cond_wait") || t.contains("pthread_cond_timedwait")
    });
    if !waits {
        return;
    }
    // A flag the waking thread announces that the test leaves out (a shutdown): first,
    // since a line keeps its first fixing mutant, and one that keeps the test and adds
    // what it misses says more than a token changed or a flag swapped (either can "fix"
    // by waiting for the announcement alone).
    out.extend(super::wait_terms::missing_terms(text, lp, test));
    for m in super::operators::mutants_at(text, row) {
        if m.start >= test.start_byte() && m.end <= test.end_byte() {
            out.push(SyncMutant {
                mutant: m,
                part: Part::WaitTest,
            });
        }
    }
    // A term too many (`!c->done || c->durable_lsn < lsn` where the durable position
    // alone says enough, and `done` is re-armed before a slow waiter sees it) or one a
    // thread should not wait for: each term of the test's `||` or `&&` left out.
    out.extend(dropped_terms(text, test));
    // The wrong flag waited for (`while (!started)` for `while (!done)`): a global the
    // test names swapped for another global of the same declared type.
    out.extend(flag_swaps(text, test));
    // The test turned around (`while (ready)` for `while (!ready)`): a predicate written
    // the wrong way round is the wait test's own mistake. Only where the run never
    // waited in this loop: turned around there, the thread waits — more synchronization.
    // Where it waited, turned around it never would, and a program can be made to pass
    // by a thread that no longer waits at all (a join after the wait already orders it).
    let body = lp.child_by_field_name("body");
    let waited = body.is_some_and(|b| {
        let (first, last) = (
            b.start_position().row as u32 + 1,
            b.end_position().row as u32 + 1,
        );
        text.lines()
            .enumerate()
            .skip(first.saturating_sub(1) as usize)
            .take((last + 1 - first) as usize)
            .any(|(i, l)| {
                (l.contains("pthread_cond_wait") || l.contains("pthread_cond_timedwait"))
                    && lines.contains(&(i as u32 + 1))
            })
    });
    if waited {
        return;
    }
    let inner = if test.kind() == "parenthesized_expression" {
        test.named_child(0)
    } else {
        Some(test)
    };
    let Some(e) = inner.filter(|e| e.start_position().row == e.end_position().row) else {
        return;
    };
    let t = text_of(text, e);
    let negated = e.kind() == "unary_expression"
        && e.child_by_field_name("operator")
            .is_some_and(|o| text_of(text, o) == "!");
    let to = match e.child_by_field_name("argument") {
        Some(a) if negated => text_of(text, a).to_string(),
        _ if matches!(
            e.kind(),
            "identifier" | "field_expression" | "subscript_expression" | "call_expression"
        ) =>
        {
            format!("!{t}")
        }
        _ => format!("!({t})"),
    };
    out.push(SyncMutant {
        mutant: Mutant {
            line: e.start_position().row as u32 + 1,
            column: e.start_position().column as u32 + 1,
            start: e.start_byte(),
            end: e.end_byte(),
            from: t.to_string(),
            to,
        },
        part: Part::WaitTest,
    });
}

/// The wait test `test` with one term of its top-level `||` or `&&` left out, for each
/// term (`a || b || c` gives `b || c`, `a || c`, `a || b`).
fn dropped_terms(text: &str, test: Node) -> Vec<SyncMutant> {
    let inner = if test.kind() == "parenthesized_expression" {
        test.named_child(0)
    } else {
        Some(test)
    };
    let Some(e) = inner.filter(|e| e.kind() == "binary_expression") else {
        return vec![];
    };
    let Some(op) = e
        .child_by_field_name("operator")
        .map(|o| text_of(text, o))
        .filter(|o| matches!(*o, "||" | "&&"))
    else {
        return vec![];
    };
    // The chain's terms, left to right (`a || b || c` parses as `(a || b) || c`).
    let mut terms = Vec::new();
    let mut stack = vec![e];
    while let Some(x) = stack.pop() {
        let same = x.kind() == "binary_expression"
            && x.child_by_field_name("operator")
                .is_some_and(|o| text_of(text, o) == op);
        match (
            same,
            x.child_by_field_name("left"),
            x.child_by_field_name("right"),
        ) {
            (true, Some(l), Some(r)) => {
                stack.push(r);
                stack.push(l);
            }
            _ => terms.push(text_of(text, x)),
        }
    }
    (0..terms.len())
        .map(|i| {
            let kept: Vec<&str> = terms
                .iter()
                .enumerate()
                .filter(|(j, _)| *j != i)
                .map(|(_, t)| *t)
                .collect();
            SyncMutant {
                mutant: Mutant {
                    line: e.start_position().row as u32 + 1,
                    column: e.start_position().column as u32 + 1,
                    start: e.start_byte(),
                    end: e.end_byte(),
                    from: text_of(text, e).to_string(),
                    to: kept.join(&format!(" {op} ")),
                },
                part: Part::WaitTest,
            }
        })
        .collect()
}

/// The file-scope scalar variables of `text` with their declared type's text
/// (`int started = 0, done;` gives `started` and `done`, both `int`).
pub(super) fn scalar_globals(text: &str) -> Vec<(String, String)> {
    let Ok(tree) = crate::frontend::syntax_check::parse_c(text) else {
        return vec![];
    };
    let root = tree.root_node();
    let mut cursor = root.walk();
    let mut out = Vec::new();
    for item in root.named_children(&mut cursor) {
        if item.kind() != "declaration" {
            continue;
        }
        let Some(ty) = item.child_by_field_name("type") else {
            continue;
        };
        let mut c = item.walk();
        for d in item.children_by_field_name("declarator", &mut c) {
            let name = if d.kind() == "init_declarator" {
                d.child_by_field_name("declarator")
            } else {
                Some(d)
            };
            if let Some(n) = name.filter(|n| n.kind() == "identifier") {
                out.push((text_of(text, n).to_string(), text_of(text, ty).to_string()));
            }
        }
    }
    out
}

/// Each global a wait test names, swapped for each other global of its type.
fn flag_swaps(text: &str, test: Node) -> Vec<SyncMutant> {
    let globals = scalar_globals(text);
    let mut out = Vec::new();
    let mut stack = vec![test];
    while let Some(n) = stack.pop() {
        let mut cursor = n.walk();
        stack.extend(n.named_children(&mut cursor));
        if n.kind() != "identifier" {
            continue;
        }
        let name = text_of(text, n);
        let Some((_, ty)) = globals.iter().find(|(g, _)| g == name) else {
            continue;
        };
        for (other, _) in globals.iter().filter(|(g, t)| g != name && t == ty) {
            out.push(SyncMutant {
                mutant: Mutant::of_node(text, n, other.clone()),
                part: Part::WaitFlag,
            });
        }
    }
    out
}

fn call_mutants(text: &str, call: Node, out: &mut Vec<SyncMutant>) {
    let Some(f) = call.child_by_field_name("function") else {
        return;
    };
    let name = text_of(text, f);
    let mut push = |tok: Node, to: &str, part: Part| {
        out.push(SyncMutant {
            mutant: Mutant::of_node(text, tok, to.to_string()),
            part,
        });
    };
    if f.kind() == "identifier" {
        if let Some(to) = kind_replacement(name) {
            push(f, to, Part::Kind);
            return;
        }
    }
    let args: Vec<Node> = match call.child_by_field_name("arguments") {
        Some(a) => {
            let mut cursor = a.walk();
            a.named_children(&mut cursor)
                .filter(|c| c.kind() != "comment")
                .collect()
        }
        None => return,
    };
    if name == "pthread_mutexattr_settype" {
        let Some(ty) = args.get(1).copied().filter(|a| a.kind() == "identifier") else {
            return;
        };
        let now = text_of(text, ty);
        if MUTEX_TYPES.contains(&now) {
            // The default type is the normal one in glibc: naming it changes nothing.
            for to in MUTEX_TYPES
                .iter()
                .filter(|t| **t != now && **t != "PTHREAD_MUTEX_DEFAULT")
            {
                push(ty, to, Part::MutexType);
            }
        }
        return;
    }
    if let Some((i, least)) = count_argument(name) {
        let Some(n) = args.get(i).copied() else {
            return;
        };
        if n.kind() == "number_literal" {
            let Ok(v) = text_of(text, n).parse::<i64>() else {
                return;
            };
            for w in [v.saturating_sub(1), v.saturating_add(1)] {
                if w != v && w >= least {
                    push(n, &w.to_string(), Part::Count);
                }
            }
        } else if n.start_position().row == n.end_position().row {
            // A count written as an expression (`NW - 1`, `NTHREADS`): one less and one
            // more than it.
            let t = text_of(text, n);
            let simple = matches!(
                n.kind(),
                "identifier" | "call_expression" | "field_expression"
            );
            let (less, more) = if simple {
                (format!("{t} - 1"), format!("{t} + 1"))
            } else {
                (format!("({t}) - 1"), format!("({t}) + 1"))
            };
            for to in [less, more] {
                push(n, &to, Part::Count);
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const PROG: &str = r#"#include <pthread.h>
#include <semaphore.h>
pthread_rwlock_t rw; sem_t s; pthread_barrier_t b; pthread_mutex_t m;
pthread_cond_t c; pthread_mutexattr_t at;
void *f(void *arg) {
  pthread_rwlock_rdlock(&rw);
  sem_init(&s, 0, 2);
  pthread_barrier_init(&b, 0, 1);
  pthread_mutexattr_settype(&at, PTHREAD_MUTEX_NORMAL);
  pthread_cond_signal(&c);
  if (pthread_mutex_trylock(&m) == 0) pthread_mutex_unlock(&m);
  sem_init(&s, 0, N);
  pthread_mutex_lock(&m);
  while (s != 0)
    pthread_cond_wait(&c, &m);
  while (s < 2) s++;
  return 0;
}
"#;

    fn texts(line: u32) -> Vec<String> {
        primitive_mutants(PROG, &[line])
            .iter()
            .map(|m| format!("{}->{}", m.mutant.from, m.mutant.to))
            .collect()
    }

    #[test]
    fn kinds_and_counts_of_the_primitives() {
        assert_eq!(texts(6), ["pthread_rwlock_rdlock->pthread_rwlock_wrlock"]);
        assert_eq!(texts(7), ["2->1", "2->3"]);
        assert_eq!(texts(8), ["1->2"], "a barrier for no thread is no barrier");
        assert_eq!(
            texts(9),
            [
                "PTHREAD_MUTEX_NORMAL->PTHREAD_MUTEX_RECURSIVE",
                "PTHREAD_MUTEX_NORMAL->PTHREAD_MUTEX_ERRORCHECK"
            ]
        );
        assert_eq!(texts(10), ["pthread_cond_signal->pthread_cond_broadcast"]);
        assert_eq!(texts(11), ["pthread_mutex_trylock->pthread_mutex_lock"]);
        assert_eq!(
            texts(12),
            ["N->N - 1", "N->N + 1"],
            "a count that is no literal"
        );
        assert!(texts(13).is_empty(), "a plain lock");
        assert!(texts(3).is_empty(), "no call");
        assert_eq!(
            texts(14),
            ["!=->==", "0->1", "s != 0->!(s != 0)"],
            "a wait loop's test"
        );
        assert!(texts(16).is_empty(), "a loop that does not wait");
        let waited: Vec<String> = primitive_mutants(PROG, &[14, 15])
            .iter()
            .map(|m| m.mutant.to.clone())
            .collect();
        assert_eq!(
            waited,
            ["==", "1"],
            "not turned around where the run waited"
        );
        assert_eq!(
            primitive_mutants(PROG, &[14]).first().map(|m| m.part),
            Some(Part::WaitTest)
        );
    }

    #[test]
    fn a_wait_test_may_name_the_wrong_flag() {
        let prog = "#include <pthread.h>\npthread_mutex_t m; pthread_cond_t c;\nint started = 0, done;\nlong other;\nvoid *f(void *a) {\n  while (!started)\n    pthread_cond_wait(&c, &m);\n  return a;\n}\n";
        let swaps: Vec<String> = primitive_mutants(prog, &[6])
            .iter()
            .filter(|m| m.mutant.from == "started")
            .map(|m| m.mutant.to.clone())
            .collect();
        // Another global of the same type only: not `other` (a `long`), not `m`.
        assert_eq!(swaps, ["done"]);
    }

    #[test]
    fn each_term_of_a_wait_test_may_be_one_too_many() {
        let prog = "void w(struct c *c, long lsn) {\n  while (!c->done || c->lsn < lsn || c->paused)\n    pthread_cond_wait(&c->cv, &c->m);\n}\n";
        let dropped: Vec<String> = primitive_mutants(prog, &[2, 3])
            .iter()
            .filter(|m| m.mutant.from.len() > 20)
            .map(|m| m.mutant.to.clone())
            .collect();
        assert_eq!(
            dropped,
            [
                "c->lsn < lsn || c->paused",
                "!c->done || c->paused",
                "!c->done || c->lsn < lsn"
            ]
        );
    }

    #[test]
    fn a_mutant_applies_to_its_token_only() {
        let m: Vec<Mutant> = primitive_mutants(PROG, &[7])
            .into_iter()
            .map(|m| m.mutant)
            .collect();
        let t = m.first().and_then(|m| m.apply(PROG)).unwrap_or_default();
        assert!(t.contains("sem_init(&s, 0, 1);"), "{t}");
        assert!(t.contains("sem_init(&s, 0, N);"), "{t}");
        assert_eq!(m.first().map(|m| (m.line, m.column)), Some((7, 19)));
    }
}
