//! The tests that decide how often a thread waits or wakes the others.
//!
//! * A loop that posts or signals the wrong number of times: a producer's `for (i = 0;
//!   i < ITEMS - 1; i++) { ...; sem_post(&items); }` posts one item fewer than its
//!   consumer waits for, and the consumer blocks for ever.
//! * An `if` that decides whether a thread waits or wakes: a reader count's `if (readers
//!   == 2) sem_wait(&room);` lets the first reader in beside the writer.
//!
//! Why mutants of their own: along the failing schedule, a value change of such a test
//! cannot help — the extra round would wait for room the consumer, scheduled later, has
//! not made yet; a reader made to wait for the room the writer holds cannot go on along
//! that schedule — so Griesmeyer's method never names the test. The fix changes whether
//! and how often the thread synchronizes; the explorer, over every interleaving, sees
//! it. The mutants are the operator and constant changes (`operators`) inside the test,
//! on a test line the failing run executed; as every mutant, one counts only when the
//! oracle proves the changed program free of failures and deadlocks in every execution.

use tree_sitter::Node;

use super::operators::{each_node, mutants_at};
use super::primitives::{Part, SyncMutant};

fn is_wake_up(name: &str) -> bool {
    matches!(
        name,
        "sem_post"
            | "pthread_cond_signal"
            | "pthread_cond_broadcast"
            | "cnd_signal"
            | "cnd_broadcast"
    )
}

fn is_wait(name: &str) -> bool {
    matches!(
        name,
        "sem_wait" | "pthread_cond_wait" | "pthread_cond_timedwait" | "cnd_wait"
    )
}

/// Whether `n`'s subtree calls a function `pred` accepts.
fn calls(text: &str, n: Node, pred: &dyn Fn(&str) -> bool) -> bool {
    if n.kind() == "call_expression"
        && n.child_by_field_name("function")
            .and_then(|f| text.get(f.start_byte()..f.end_byte()))
            .is_some_and(pred)
    {
        return true;
    }
    let mut cursor = n.walk();
    let children: Vec<Node> = n.children(&mut cursor).collect();
    children.into_iter().any(|c| calls(text, c, pred))
}

/// The test mutants of every statement `pick` accepts: (its test, its body) when the
/// test is on one line of `lines`.
fn test_mutants(
    text: &str,
    lines: &[u32],
    part: Part,
    pick: for<'n> fn(Node<'n>) -> Option<(Node<'n>, Node<'n>)>,
    body_calls: &dyn Fn(&str) -> bool,
) -> Vec<SyncMutant> {
    let mut tests: Vec<(u32, usize, usize)> = Vec::new();
    each_node(text, |n| {
        let Some((cond, body)) = pick(n) else {
            return;
        };
        let row = cond.start_position().row as u32 + 1;
        // A test over several lines is left alone: `mutants_at` works by line.
        if cond.end_position().row != cond.start_position().row
            || !lines.contains(&row)
            || !calls(text, body, body_calls)
        {
            return;
        }
        tests.push((row, cond.start_byte(), cond.end_byte()));
    });
    let mut out = Vec::new();
    for (row, start, end) in tests {
        for m in mutants_at(text, row) {
            if m.start >= start && m.end <= end {
                out.push(SyncMutant { mutant: m, part });
            }
        }
    }
    out
}

/// A loop's test and body.
fn loop_parts(n: Node) -> Option<(Node, Node)> {
    if !matches!(
        n.kind(),
        "for_statement" | "while_statement" | "do_statement"
    ) {
        return None;
    }
    Some((
        n.child_by_field_name("condition")?,
        n.child_by_field_name("body")?,
    ))
}

/// An `if`'s test and the branch it guards.
fn if_parts(n: Node) -> Option<(Node, Node)> {
    if n.kind() != "if_statement" {
        return None;
    }
    Some((
        n.child_by_field_name("condition")?,
        n.child_by_field_name("consequence")?,
    ))
}

/// The mutants of the tests of the waking loops whose test is on `lines` (from 1).
pub fn loop_bound_mutants(text: &str, lines: &[u32]) -> Vec<SyncMutant> {
    test_mutants(text, lines, Part::LoopBound, loop_parts, &is_wake_up)
}

/// The mutants of the tests of the `if`s on `lines` (from 1) whose branch waits
/// (`Part::Guard`) or, without waiting, wakes the others (`Part::WakeGuard`).
pub fn guard_mutants(text: &str, lines: &[u32]) -> Vec<SyncMutant> {
    let mut out = test_mutants(text, lines, Part::Guard, if_parts, &is_wait);
    let waits: Vec<(usize, usize)> = out.iter().map(|m| (m.mutant.start, m.mutant.end)).collect();
    out.extend(
        test_mutants(text, lines, Part::WakeGuard, if_parts, &is_wake_up)
            .into_iter()
            .filter(|m| !waits.contains(&(m.mutant.start, m.mutant.end))),
    );
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    const PRODUCER: &str = "#include <semaphore.h>\nsem_t items;\nvoid *producer(void *a)\n{\n  for (int i = 0; i < 3 - 1; i++)\n    sem_post(&items);\n  for (int j = 0; j < 3; j++)\n    sem_wait(&items);\n  return a;\n}\n";

    const READERS: &str = "#include <semaphore.h>\nsem_t room;\nint readers;\nvoid enter(void)\n{\n  readers++;\n  if (readers == 2)\n    sem_wait(&room);\n  if (readers > 5)\n    readers = 0;\n}\n";

    #[test]
    fn only_the_test_of_an_if_that_waits_or_wakes_is_mutated() {
        let ms = guard_mutants(READERS, &[7, 9]);
        assert!(
            ms.iter()
                .all(|m| m.mutant.line == 7 && m.part == Part::Guard)
        );
        assert!(ms.iter().any(|m| m.mutant.to == "1"));
        assert!(guard_mutants(READERS, &[9]).is_empty());
    }

    #[test]
    fn only_the_test_of_a_loop_that_wakes_is_mutated() {
        let ms = loop_bound_mutants(PRODUCER, &[5, 7]);
        assert!(!ms.is_empty());
        assert!(
            ms.iter()
                .all(|m| m.mutant.line == 5 && m.part == Part::LoopBound)
        );
        // The test only: `i = 0` and `i++` are not changed.
        assert!(
            ms.iter()
                .all(|m| !m.mutant.from.contains("i++") && m.mutant.from != "0")
        );
        assert!(ms.iter().any(|m| m.mutant.to.contains("<=")));
        // A header the run did not execute is not tried.
        assert!(loop_bound_mutants(PRODUCER, &[7]).is_empty());
    }
}
