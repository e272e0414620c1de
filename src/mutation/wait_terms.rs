//! A wait loop's test that leaves out what a waking thread announces: `while (q->count
//! == 0) pthread_cond_wait(&q->nonempty, &q->lock);` where the shutdown path sets
//! `q->shutdown = 1;` and broadcasts `q->nonempty`. The broadcast wakes the waiter, its
//! test still holds, and it waits again — for ever, once nothing else will come.
//!
//! Why mutants of their own: along the failing run the broadcast reached the waiter and
//! its test sent it back; no value on the test's line avoids that (its operands are what
//! the other threads made them), and the one-token mutants of the test change how it
//! reads what it already reads, not what it leaves out. The mutant adds the announced
//! flag to the test (`q->count == 0 && !q->shutdown`): a flag a thread sets to a
//! non-zero constant just before it signals or broadcasts the condition variable the
//! loop waits on (the same member of a structure, or the same global), named through
//! the waiter's own pointer to that structure. As every mutant, it counts only when the
//! oracle proves the changed program free of failures and deadlocks in every execution.

use tree_sitter::Node;

use super::operators::{Mutant, each_node, text_of};
use super::primitives::{Part, SyncMutant};

/// How many statements before a wake-up the flag it announces may be set.
const BEFORE: usize = 3;

/// A condition wait, POSIX or C11.
pub(super) fn is_wait(name: &str) -> bool {
    matches!(
        name,
        "pthread_cond_wait" | "pthread_cond_timedwait" | "cnd_wait" | "cnd_timedwait"
    )
}

/// A wake-up of a condition variable's waiters, POSIX or C11.
pub(super) fn is_wake_up(name: &str) -> bool {
    matches!(
        name,
        "pthread_cond_signal" | "pthread_cond_broadcast" | "cnd_signal" | "cnd_broadcast"
    )
}

/// A condition variable's argument split into the structure it is reached through and
/// its member: `&q->nonempty` → (`q->`, `nonempty`), `&cv` → (``, `cv`).
pub(super) fn split_member(arg: &str) -> (String, String) {
    let t: String = arg.chars().filter(|c| !c.is_whitespace()).collect();
    let t = t.strip_prefix('&').unwrap_or(&t).to_string();
    let cut = [t.rfind("->").map(|i| i + 2), t.rfind('.').map(|i| i + 1)]
        .into_iter()
        .flatten()
        .max();
    match cut {
        Some(i) => (
            t.get(..i).unwrap_or("").to_string(),
            t.get(i..).unwrap_or("").to_string(),
        ),
        None => (String::new(), t),
    }
}

/// The first argument of a call node, as text.
pub(super) fn first_argument<'t>(text: &'t str, call: Node) -> Option<&'t str> {
    let args = call.child_by_field_name("arguments")?;
    args.named_child(0).map(|a| text_of(text, a))
}

/// The flags announced with a wake-up of the condition variable member `cv`: for each
/// signal or broadcast of it, the members (or globals, when the condition variable is
/// one) set to a non-zero constant in the statements just before it, relative to the
/// structure the condition variable is reached through.
fn announced_flags(text: &str, cv: &str) -> Vec<String> {
    let mut out: Vec<String> = Vec::new();
    each_node(text, |n| {
        if n.kind() != "compound_statement" {
            return;
        }
        let mut cursor = n.walk();
        let stmts: Vec<Node> = n
            .named_children(&mut cursor)
            .filter(|c| c.kind() != "comment")
            .collect();
        for (i, s) in stmts.iter().enumerate() {
            let Some(call) = s
                .named_child(0)
                .filter(|c| s.kind() == "expression_statement" && c.kind() == "call_expression")
            else {
                continue;
            };
            if !super::callees::called(text, call).is_some_and(is_wake_up) {
                continue;
            }
            let Some((base, member)) = first_argument(text, call).map(split_member) else {
                continue;
            };
            if member != cv {
                continue;
            }
            for prev in stmts.iter().take(i).rev().take(BEFORE) {
                let Some(flag) = set_nonzero(text, *prev) else {
                    continue;
                };
                let Some(rest) = flag.strip_prefix(base.as_str()) else {
                    continue;
                };
                let simple = !rest.is_empty()
                    && rest.chars().all(|c| c.is_alphanumeric() || c == '_')
                    && !rest.starts_with(|c: char| c.is_ascii_digit());
                if simple && rest != cv && !out.iter().any(|f| f == rest) {
                    out.push(rest.to_string());
                }
            }
        }
    });
    out
}

/// The variable `stmt` sets to a non-zero constant (`q->shutdown = 1;`, `stop = true;`),
/// as text without blanks.
fn set_nonzero(text: &str, stmt: Node) -> Option<String> {
    let e = stmt
        .named_child(0)
        .filter(|_| stmt.kind() == "expression_statement")?;
    if e.kind() != "assignment_expression"
        || e.child_by_field_name("operator")
            .is_none_or(|o| text_of(text, o) != "=")
    {
        return None;
    }
    let right = e.child_by_field_name("right")?;
    let r = text_of(text, right).trim();
    let nonzero = match right.kind() {
        "number_literal" => r
            .trim_end_matches(['u', 'U', 'l', 'L'])
            .parse::<i64>()
            .is_ok_and(|v| v != 0),
        "true" => true,
        _ => false,
    };
    let left = e.child_by_field_name("left")?;
    nonzero.then(|| {
        text_of(text, left)
            .chars()
            .filter(|c| !c.is_whitespace())
            .collect()
    })
}

/// The mutants that add an announced flag to the test of the wait loop `lp` (a `while`
/// or `do` whose body waits on a condition variable), its test being `test`.
pub fn missing_terms(text: &str, lp: Node, test: Node) -> Vec<SyncMutant> {
    let Some(body) = lp.child_by_field_name("body") else {
        return vec![];
    };
    let mut cv = None;
    let mut stack = vec![body];
    while let Some(x) = stack.pop() {
        let mut c = x.walk();
        stack.extend(x.named_children(&mut c));
        if super::callees::called(text, x).is_some_and(is_wait) {
            cv = first_argument(text, x).map(split_member);
            break;
        }
    }
    let Some((base, member)) = cv else {
        return vec![];
    };
    let inner = if test.kind() == "parenthesized_expression" {
        test.named_child(0)
    } else {
        Some(test)
    };
    let Some(e) = inner else {
        return vec![];
    };
    let t = text_of(text, e);
    let loose = e.kind() == "binary_expression"
        && e.child_by_field_name("operator")
            .is_some_and(|o| text_of(text, o) == "||")
        || matches!(
            e.kind(),
            "conditional_expression" | "assignment_expression" | "comma_expression"
        );
    let mut out = Vec::new();
    for flag in announced_flags(text, &member) {
        if super::signals::mentions(t, &flag) {
            continue;
        }
        let to = if loose {
            format!("({t}) && !{base}{flag}")
        } else {
            format!("{t} && !{base}{flag}")
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
            part: Part::WaitTerm,
        });
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    const QUEUE: &str = "void stop(struct wq *q) {\n  pthread_mutex_lock(&q->lock);\n  q->shutdown = 1;\n  q->epoch = q->epoch + 1;\n  pthread_cond_broadcast(&q->nonempty);\n  pthread_mutex_unlock(&q->lock);\n}\n\
void put(struct wq *q) {\n  q->count++;\n  pthread_cond_signal(&q->nonempty);\n}\n\
int next(struct wq *w) {\n  while (w->count == 0 || w->paused)\n    pthread_cond_wait(&w->nonempty, &w->lock);\n  return 1;\n}\n";

    fn loops(text: &str) -> Vec<SyncMutant> {
        let mut out = Vec::new();
        each_node(text, |n| {
            if let (true, Some(test)) = (
                matches!(n.kind(), "while_statement" | "do_statement"),
                n.child_by_field_name("condition"),
            ) {
                out.extend(missing_terms(text, n, test));
            }
        });
        out
    }

    #[test]
    fn a_flag_set_before_a_broadcast_joins_the_waiters_test() {
        let ms = loops(QUEUE);
        let got: Vec<(u32, &str)> = ms
            .iter()
            .map(|m| (m.mutant.line, m.mutant.to.as_str()))
            .collect();
        assert_eq!(
            got,
            [(13, "(w->count == 0 || w->paused) && !w->shutdown")],
            "named through the waiter's pointer; not `epoch`, an increment; not the count"
        );
        let fixed = ms[0].mutant.apply(QUEUE).expect("applies");
        assert!(fixed.contains("while ((w->count == 0 || w->paused) && !w->shutdown)\n"));
    }

    #[test]
    fn a_flag_already_tested_or_announced_on_another_variable_is_not_added() {
        let tested = QUEUE.replace("w->paused", "w->shutdown");
        assert!(loops(&tested).is_empty());
        let other = QUEUE.replace("broadcast(&q->nonempty)", "broadcast(&q->drained)");
        assert!(loops(&other).is_empty());
        let globals = "void stop(void) {\n  done = 1;\n  pthread_cond_broadcast(&cv);\n}\n\
void w(void) {\n  while (!ready)\n    pthread_cond_wait(&cv, &m);\n}\n";
        let got: Vec<String> = loops(globals).iter().map(|m| m.mutant.to.clone()).collect();
        assert_eq!(got, ["!ready && !done"]);
    }
}
