//! A change of what a waiter waits for, made on a path that wakes nobody: the finishing
//! path decrements `t->pending` and broadcasts `t->idle_cv` when it reaches zero, the
//! cancelling path decrements it and stops there. A waiter in `while (t->pending > 0)
//! pthread_cond_wait(&t->idle_cv, ..)` whose last task was cancelled sleeps for ever.
//!
//! Why mutants of their own: along the failing run the write ran and the waiter slept
//! through it; no value the write computes wakes anyone — what is missing is a
//! statement. The mutant adds `pthread_cond_broadcast(&t->idle_cv);` after a write of
//! a variable a wait loop's test reads (the same member of a structure, named through
//! the writer's own pointer, or the same global), where no wake-up follows on every
//! path (none at all, or one under an `if` the path skips; a wake-up of another
//! condition variable is the wrong one, not a missing one). An extra broadcast takes
//! nothing away — a waiter in a loop tests again and waits again — so a mutant that
//! removes every deadlock found the wake that was missing. As every mutant, it counts only when the oracle proves the changed
//! program free of failures and deadlocks in every execution.

use tree_sitter::Node;

use super::operators::{Mutant, each_loop, each_node, text_of};
use super::primitives::{Part, SyncMutant};
use super::wait_terms::{first_argument, is_wait, is_wake_up, split_member};

/// A wait loop: the condition variable it waits on, split (`t->`, `idle_cv`), and the
/// variables its test reads, split likewise; the C11 flavour when it waits with
/// `cnd_wait`.
struct WaitLoop {
    cv: (String, String),
    reads: Vec<(String, String)>,
    c11: bool,
}

fn wait_loops(text: &str) -> Vec<WaitLoop> {
    let mut out = Vec::new();
    each_loop(text, |_, test, body| {
        let mut wait = None;
        let mut stack = vec![body];
        while let Some(x) = stack.pop() {
            let mut c = x.walk();
            stack.extend(x.named_children(&mut c));
            if let Some(name) = super::callees::called(text, x).filter(|f| is_wait(f)) {
                wait = first_argument(text, x).map(|a| (split_member(a), name.starts_with("cnd")));
                break;
            }
        }
        let Some((cv, c11)) = wait else {
            return;
        };
        let mut reads = Vec::new();
        let mut stack = vec![test];
        while let Some(x) = stack.pop() {
            if matches!(x.kind(), "field_expression" | "identifier")
                && x.parent().is_none_or(|p| p.kind() != "field_expression")
            {
                reads.push(split_member(text_of(text, x)));
                continue;
            }
            let mut c = x.walk();
            stack.extend(x.named_children(&mut c));
        }
        out.push(WaitLoop { cv, reads, c11 });
    });
    out
}

/// The variable a statement writes, split (`t->pending--;`, `count -= n;`,
/// `t->pending = 0;`), when it is an expression statement that writes one.
fn written(text: &str, stmt: Node) -> Option<(String, String)> {
    let e = stmt
        .named_child(0)
        .filter(|_| stmt.kind() == "expression_statement")?;
    let target = match e.kind() {
        "assignment_expression" => e.child_by_field_name("left")?,
        "update_expression" => e.child_by_field_name("argument")?,
        _ => return None,
    };
    matches!(target.kind(), "field_expression" | "identifier")
        .then(|| split_member(text_of(text, target)))
}

/// Whether a wake-up follows `stmt` on every path of its function: a call statement
/// after it in its block or in an enclosing one (one under an `if` wakes on some paths
/// only — the path that skips it is the one to mend). A wake-up of another condition
/// variable counts too: that path wakes, the wrong waiters maybe, which the analyses
/// name (`Role::WrongWake`) better than a broadcast added beside it.
fn woken_after(text: &str, stmt: Node) -> bool {
    let mut at = stmt;
    while let Some(block) = at.parent() {
        if block.kind() == "function_definition" {
            return false;
        }
        if block.kind() == "compound_statement" {
            let mut c = block.walk();
            let wakes = block
                .named_children(&mut c)
                .filter(|s| s.start_byte() >= at.end_byte())
                .any(|s| {
                    s.kind() == "expression_statement"
                        && s.named_child(0).is_some_and(|call| {
                            super::callees::called(text, call).is_some_and(is_wake_up)
                        })
                });
            if wakes {
                return true;
            }
        }
        at = block;
    }
    false
}

/// The mutants adding a broadcast after each write on `lines` (from 1) of `text` of a
/// variable a wait loop's test reads, where no wake-up follows on every path, in the
/// order of the text.
pub fn missing_wake_mutants(text: &str, lines: &[u32]) -> Vec<SyncMutant> {
    let loops = wait_loops(text);
    if loops.is_empty() {
        return vec![];
    }
    let mut out = Vec::new();
    each_node(text, |n| {
        let row = n.start_position().row as u32 + 1;
        if n.kind() != "expression_statement" || !lines.contains(&row) {
            return;
        }
        let Some((base, member)) = written(text, n) else {
            return;
        };
        let own_line = text
            .get(..n.start_byte())
            .and_then(|t| t.rfind('\n'))
            .map_or(0, |i| i + 1);
        let end = text
            .get(n.end_byte()..)
            .and_then(|t| t.find('\n'))
            .map_or(text.len(), |i| n.end_byte() + i);
        let (Some(indent), Some(rest)) = (
            text.get(own_line..n.start_byte()),
            text.get(n.end_byte()..end),
        ) else {
            return;
        };
        // A statement that shares its line, or a write inside a larger statement, is
        // left alone: the broadcast goes on a line of its own after it.
        if !indent.trim().is_empty() || !rest.trim().is_empty() {
            return;
        }
        let mut added: Vec<String> = Vec::new();
        for lp in &loops {
            let (cbase, cmember) = &lp.cv;
            let Some((pbase, _)) = lp.reads.iter().find(|(_, m)| *m == member) else {
                continue;
            };
            // The writer names the condition variable through its own pointer when the
            // waiter reaches both through one; a global condition variable is itself.
            let cv = if cbase.is_empty() {
                cmember.clone()
            } else if cbase == pbase {
                format!("{base}{cmember}")
            } else {
                continue;
            };
            if (pbase.is_empty() != base.is_empty()) || woken_after(text, n) || added.contains(&cv)
            {
                continue;
            }
            let call = if lp.c11 {
                format!("cnd_broadcast(&{cv});")
            } else {
                format!("pthread_cond_broadcast(&{cv});")
            };
            let stmt = text_of(text, n);
            out.push(SyncMutant {
                mutant: Mutant {
                    line: row,
                    column: n.start_position().column as u32 + 1,
                    start: n.start_byte(),
                    end: n.end_byte(),
                    from: stmt.to_string(),
                    to: format!("{stmt}\n{indent}{call}"),
                },
                part: Part::MissingWake,
            });
            added.push(cv);
        }
    });
    out
}

/// The call a missing-wake mutant adds (the last line of its text).
pub fn added_call(m: &Mutant) -> &str {
    m.to.lines().last().map_or("", str::trim)
}

#[cfg(test)]
mod tests {
    use super::*;

    const TRACKER: &str = "void finish(struct tr *t) {\n  pthread_mutex_lock(&t->lock);\n  if (--t->pending == 0)\n    pthread_cond_broadcast(&t->idle);\n  pthread_mutex_unlock(&t->lock);\n}\n\
void cancel(struct tr *t) {\n  pthread_mutex_lock(&t->lock);\n  t->cancelled++;\n  t->pending--;\n  pthread_mutex_unlock(&t->lock);\n}\n\
void idle(struct tr *w) {\n  while (w->pending > 0)\n    pthread_cond_wait(&w->idle, &w->lock);\n}\n";

    #[test]
    fn a_write_of_the_waited_for_count_on_a_path_that_wakes_nobody_gets_a_broadcast() {
        let all: Vec<u32> = (1..=16).collect();
        let ms = missing_wake_mutants(TRACKER, &all);
        let got: Vec<(u32, &str)> = ms
            .iter()
            .map(|m| (m.mutant.line, added_call(&m.mutant)))
            .collect();
        assert_eq!(
            got,
            [(10, "pthread_cond_broadcast(&t->idle);")],
            "not `cancelled`, which no test reads; not in `finish`, which wakes"
        );
        let guarded = TRACKER.replace(
            "  t->pending--;\n  pthread_mutex_unlock",
            "  t->pending--;\n  if (t->pending == 0)\n    pthread_cond_signal(&t->idle);\n  pthread_mutex_unlock",
        );
        assert_eq!(
            missing_wake_mutants(&guarded, &all).len(),
            1,
            "a wake under an `if`"
        );
        let woken = TRACKER.replace(
            "  t->pending--;\n  pthread_mutex_unlock",
            "  t->pending--;\n  pthread_cond_signal(&t->idle);\n  pthread_mutex_unlock",
        );
        assert!(
            missing_wake_mutants(&woken, &all).is_empty(),
            "a wake after it"
        );
        let fixed = ms[0].mutant.apply(TRACKER).expect("applies");
        assert!(
            fixed.contains(
                "  t->pending--;\n  pthread_cond_broadcast(&t->idle);\n  pthread_mutex_unlock"
            ),
            "{fixed}"
        );
        assert!(
            missing_wake_mutants(TRACKER, &[9]).is_empty(),
            "only lines the run ran"
        );
    }

    #[test]
    fn globals_and_c11_waits_get_their_own_flavour() {
        let prog = "void drop(void) {\n  count = count - 1;\n}\n\
void w(void) {\n  while (count > 0)\n    cnd_wait(&cv, &m);\n}\n";
        let got: Vec<String> = missing_wake_mutants(prog, &[2])
            .iter()
            .map(|m| added_call(&m.mutant).to_string())
            .collect();
        assert_eq!(got, ["cnd_broadcast(&cv);"]);
        let member = prog.replace("count = count - 1", "q->count = 0");
        assert!(
            missing_wake_mutants(&member, &[2]).is_empty(),
            "a member is not the global of its name"
        );
    }
}
