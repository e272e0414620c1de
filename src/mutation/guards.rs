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

use super::operators::{Mutant, each_node, mutants_at};
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
    negate: bool,
) -> Vec<SyncMutant> {
    let mut tests: Vec<(u32, usize, usize)> = Vec::new();
    let mut negations: Vec<Mutant> = Vec::new();
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
        if negate {
            negations.extend(negation(text, cond));
        }
    });
    let mut out: Vec<SyncMutant> = negations
        .into_iter()
        .map(|mutant| SyncMutant { mutant, part })
        .collect();
    for (row, start, end) in tests {
        for m in mutants_at(text, row) {
            if m.start >= start && m.end <= end {
                out.push(SyncMutant { mutant: m, part });
            }
        }
    }
    out
}

/// The test turned around: `(ok)` → `(!ok)`, `(!done)` → `(done)`, `(a && b)` →
/// `(!(a && b))`. A guard written the wrong way round (a slot given back when the car was
/// let in rather than when it was turned away) has no one-token operator to change.
fn negation(text: &str, cond: Node) -> Option<Mutant> {
    let inner = if cond.kind() == "parenthesized_expression" {
        cond.named_child(0)?
    } else {
        cond
    };
    let inner_text = text.get(inner.start_byte()..inner.end_byte())?;
    let to = if inner.kind() == "unary_expression"
        && inner
            .child_by_field_name("operator")
            .is_some_and(|o| o.kind() == "!")
    {
        let arg = inner.child_by_field_name("argument")?;
        let arg = if arg.kind() == "parenthesized_expression" {
            arg.named_child(0)?
        } else {
            arg
        };
        text.get(arg.start_byte()..arg.end_byte())?.to_string()
    } else if matches!(
        inner.kind(),
        "identifier" | "field_expression" | "call_expression" | "subscript_expression"
    ) {
        format!("!{inner_text}")
    } else {
        format!("!({inner_text})")
    };
    Some(Mutant::of_node(text, inner, to))
}

/// Whether `m` turns a test around (see [`negation`]) rather than changing one token.
pub fn is_negation(m: &Mutant) -> bool {
    let (from, to) = (m.from.as_str(), m.to.as_str());
    [(from, to), (to, from)]
        .iter()
        .any(|(a, b)| *b == format!("!{a}") || *b == format!("!({a})"))
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
    test_mutants(text, lines, Part::LoopBound, loop_parts, &is_wake_up, false)
}

/// The mutants of the tests of the `if`s on `lines` (from 1) whose branch waits
/// (`Part::Guard`) or, without waiting, wakes the others (`Part::WakeGuard`).
pub fn guard_mutants(text: &str, lines: &[u32]) -> Vec<SyncMutant> {
    let mut out = test_mutants(text, lines, Part::Guard, if_parts, &is_wait, true);
    let waits: Vec<(usize, usize)> = out.iter().map(|m| (m.mutant.start, m.mutant.end)).collect();
    out.extend(
        test_mutants(text, lines, Part::WakeGuard, if_parts, &is_wake_up, true)
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
    fn the_test_of_a_guard_is_turned_around() {
        let text = "#include <semaphore.h>\nsem_t spots;\nint leave(int ok, int *p)\n{\n  if (ok)\n    sem_post(&spots);\n  if (!(ok && *p))\n    sem_wait(&spots);\n  if (p[0] > 1)\n    sem_post(&spots);\n  return ok;\n}\n";
        let to = |line: u32| -> Vec<(String, String)> {
            guard_mutants(text, &[line])
                .into_iter()
                .filter(|m| m.mutant.to.starts_with('!') || m.mutant.from.starts_with('!'))
                .map(|m| (m.mutant.from, m.mutant.to))
                .collect()
        };
        assert_eq!(to(5), vec![("ok".into(), "!ok".into())]);
        assert_eq!(to(7), vec![("!(ok && *p)".into(), "ok && *p".into())]);
        assert_eq!(to(9), vec![("p[0] > 1".into(), "!(p[0] > 1)".into())]);
        let turned = guard_mutants(text, &[5, 7, 9]);
        assert_eq!(turned.iter().filter(|m| is_negation(&m.mutant)).count(), 3);
        // A loop's test is not turned around: a loop run never or for ever.
        assert!(
            loop_bound_mutants(PRODUCER, &[5])
                .iter()
                .all(|m| !m.mutant.to.starts_with('!'))
        );
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
