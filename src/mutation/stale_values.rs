//! Values taken once before a loop, stale in its later rounds.
//!
//! A value computed once before a loop that refreshes what it is computed from: a
//! compare-and-swap retry loop whose new value (`int want = old + n;`) is taken before
//! the loop, while each failed `atomic_compare_exchange_strong(&q->used, &old, want)`
//! reloads `old` — the retry installs a sum made from the stale value, and an update
//! another thread made in between is lost.
//!
//! Why mutants of their own: along the failing run the stale value is the one the
//! statement computed; another value there changes what the first attempt installs as
//! well, and Griesmeyer's candidates name the compare-and-swap and the check rather
//! than the place. The mutant moves the statement to the start of the loop's body, so
//! each round computes it from what the round reads. It is offered where the statement
//! stands right before the loop, reads a variable the loop writes (assigned, updated or
//! handed by address to a call, as a compare-and-swap's expected value is), and sets a
//! variable the loop reads and never writes itself. As every mutant, it counts only
//! when the oracle proves the changed program free of failures and deadlocks in every
//! execution.
//!
//! And a copy of shared state taken before a loop whose tests read the copy: `int
//! stopping = l->stopping;` under the lock, then `if (stopping) break;` in each round
//! of the flusher's loop while the shutdown sets `l->stopping` — the loop never sees
//! it. Griesmeyer's value on the test's line names it among the check's other reads;
//! the mutant replaces the copy in the test by the shared read it copied (`l->stopping`),
//! where the loop writes neither the copy nor what the read goes through.
//!
//! And a copy of shared state taken right before a condition wait and used after it:
//! `int slot = q->head;` then `wait_nonempty(q);`, which gives the lock up while it
//! waits, so another consumer takes the same slot. The mutant moves the copy after the
//! wait (the wait loop itself, a condition wait, or a call of a function of the program
//! that makes one), where the wait does not name the copy and a later statement does.

use tree_sitter::Node;

use super::operators::{Mutant, each_node, text_of};
use super::primitives::{Part, SyncMutant};
use super::signals::{line_end, line_start, mentions, owns_lines};

/// The variable `stmt` sets and the expression it sets it from: `int want = old + n;`
/// or `want = old + n;`.
fn sets<'t>(text: &'t str, stmt: Node<'t>) -> Option<(&'t str, Node<'t>)> {
    match stmt.kind() {
        "declaration" => {
            let mut c = stmt.walk();
            let inits: Vec<Node> = stmt
                .children_by_field_name("declarator", &mut c)
                .filter(|d| d.kind() == "init_declarator")
                .collect();
            let [d] = inits.as_slice() else {
                return None;
            };
            let name = d
                .child_by_field_name("declarator")
                .filter(|n| n.kind() == "identifier")?;
            Some((text_of(text, name), d.child_by_field_name("value")?))
        }
        "expression_statement" => {
            let e = stmt
                .named_child(0)
                .filter(|e| e.kind() == "assignment_expression")?;
            let left = e
                .child_by_field_name("left")
                .filter(|l| l.kind() == "identifier")?;
            (e.child_by_field_name("operator").map(|o| text_of(text, o)) == Some("="))
                .then_some(())?;
            Some((text_of(text, left), e.child_by_field_name("right")?))
        }
        _ => None,
    }
}

/// A move of statement `stmt`: the text `span` rewritten as `to`, placed on the
/// statement's line and named by its text.
fn moved(
    text: &str,
    stmt: Node,
    span: std::ops::Range<usize>,
    to: String,
    part: Part,
) -> SyncMutant {
    SyncMutant {
        mutant: Mutant {
            line: stmt.start_position().row as u32 + 1,
            column: stmt.start_position().column as u32 + 1,
            start: span.start,
            end: span.end,
            from: text_of(text, stmt).to_string(),
            to,
        },
        part,
    }
}

/// The file-scope variables' names.
fn global_names(text: &str) -> Vec<String> {
    super::primitives::scalar_globals(text)
        .into_iter()
        .map(|(name, _)| name)
        .collect()
}

/// Calls `visit` with each statement on `lines` (from 1) of `text` that has its lines to
/// itself and sets a variable, the variable's name and the expression it is set from.
fn each_setting(text: &str, lines: &[u32], mut visit: impl FnMut(Node, &str, Node)) {
    each_node(text, |stmt| {
        let row = stmt.start_position().row as u32 + 1;
        if !lines.contains(&row) || !owns_lines(text, stmt) {
            return;
        }
        if let Some((var, value)) = sets(text, stmt) {
            visit(stmt, var, value);
        }
    });
}

/// The plain variables `n` writes: assigned, updated, or handed by address (`&old`).
fn writes_in(text: &str, n: Node) -> Vec<String> {
    let mut out = Vec::new();
    let mut stack = vec![n];
    while let Some(x) = stack.pop() {
        let target = match x.kind() {
            "assignment_expression" => x.child_by_field_name("left"),
            "update_expression" => x.child_by_field_name("argument"),
            "pointer_expression"
                if x.child_by_field_name("operator")
                    .is_some_and(|o| text_of(text, o) == "&") =>
            {
                x.child_by_field_name("argument")
            }
            _ => None,
        };
        if let Some(t) = target.filter(|t| t.kind() == "identifier") {
            out.push(text_of(text, t).to_string());
        }
        let mut c = x.walk();
        stack.extend(x.named_children(&mut c));
    }
    out
}

/// The identifiers `n` names.
fn names_in(text: &str, n: Node) -> Vec<String> {
    let mut out = Vec::new();
    let mut stack = vec![n];
    while let Some(x) = stack.pop() {
        if x.kind() == "identifier" {
            out.push(text_of(text, x).to_string());
        }
        let mut c = x.walk();
        stack.extend(x.named_children(&mut c));
    }
    out
}

/// The moves into the loop after it of each statement on `lines` (from 1) of `text`
/// that computes, before a loop, a value the loop's rounds should recompute.
pub fn stale_before_loop_mutants(text: &str, lines: &[u32]) -> Vec<SyncMutant> {
    let mut out = Vec::new();
    each_setting(text, lines, |stmt, var, value| {
        let Some(lp) = stmt.next_named_sibling().filter(|l| {
            matches!(
                l.kind(),
                "for_statement" | "while_statement" | "do_statement"
            )
        }) else {
            return;
        };
        let Some(body) = lp
            .child_by_field_name("body")
            .filter(|b| b.kind() == "compound_statement")
        else {
            return;
        };
        let written = writes_in(text, lp);
        let reads = names_in(text, value);
        let refreshed = reads.iter().any(|r| r != var && written.contains(r));
        if !refreshed || written.iter().any(|w| w == var) || !mentions(text_of(text, lp), var) {
            return;
        }
        // The body's `{` ends its line; the statement goes on the line after it, indented
        // as the body's first statement.
        let brace_end = line_end(text, body.start_byte());
        if text
            .get(body.start_byte() + 1..brace_end)
            .is_none_or(|rest| !rest.trim().is_empty())
        {
            return;
        }
        let indent = body
            .named_child(0)
            .and_then(|first| text.get(line_start(text, first.start_byte())..first.start_byte()))
            .filter(|i| i.trim().is_empty())
            .unwrap_or("    ");
        let (from, cut_to) = (
            line_start(text, stmt.start_byte()),
            line_end(text, stmt.end_byte()),
        );
        let Some(between) = text.get(cut_to..brace_end) else {
            return;
        };
        out.push(moved(
            text,
            stmt,
            from..brace_end,
            format!("{between}{indent}{}\n", text_of(text, stmt)),
            Part::StaleRetry,
        ));
    });
    out
}

/// The copies of shared state made before a loop and tested inside it, on `lines`
/// (the test's line, from 1) of `text`: each test's use of the copy replaced by the
/// shared read (a member through a pointer or of a structure, a file-scope variable, or
/// an atomic load).
pub fn stale_copy_mutants(text: &str, lines: &[u32]) -> Vec<SyncMutant> {
    let globals = global_names(text);
    let mut out = Vec::new();
    each_node(text, |stmt| {
        let Some((var, value)) = sets(text, stmt) else {
            return;
        };
        if !is_shared_read(text, value, &globals) {
            return;
        }
        let through = names_in(text, value);
        let mut later = stmt.next_named_sibling();
        while let Some(lp) = later {
            later = lp.next_named_sibling();
            if !matches!(
                lp.kind(),
                "for_statement" | "while_statement" | "do_statement"
            ) {
                continue;
            }
            let written = writes_in(text, lp);
            if written.iter().any(|w| w == var || through.contains(w)) {
                continue;
            }
            for test in tests_in(lp) {
                let row = test.start_position().row as u32 + 1;
                if !lines.contains(&row) {
                    continue;
                }
                let mut stack = vec![test];
                while let Some(x) = stack.pop() {
                    if x.kind() == "identifier" && text_of(text, x) == var {
                        out.push(SyncMutant {
                            mutant: Mutant::of_node(text, x, text_of(text, value).to_string()),
                            part: Part::StaleCopy,
                        });
                    }
                    let mut c = x.walk();
                    stack.extend(x.named_children(&mut c));
                }
            }
        }
    });
    out
}

/// Whether statement `n` waits on a condition variable: a loop around a condition wait,
/// the wait itself, or a call of one of `waiting` (functions that make one).
fn waits_on_condition(text: &str, n: Node, waiting: &[String]) -> bool {
    super::operators::calls(text, n, &|f| {
        super::wait_terms::is_wait(f) || waiting.iter().any(|w| w == f)
    })
}

/// The moves of a copy of shared state on `lines` (from 1) of `text`, taken right
/// before a condition wait and used after it, to after the wait.
pub fn copy_before_wait_mutants(text: &str, lines: &[u32]) -> Vec<SyncMutant> {
    let waiting = super::callees::condition_waiting_functions(text);
    let globals = global_names(text);
    let mut out = Vec::new();
    each_setting(text, lines, |stmt, var, value| {
        if !is_shared_read(text, value, &globals) {
            return;
        }
        let Some(wait) = stmt.next_named_sibling() else {
            return;
        };
        if wait.kind() == "comment"
            || !owns_lines(text, wait)
            || !waits_on_condition(text, wait, &waiting)
            || mentions(text_of(text, wait), var)
        {
            return;
        }
        let mut later = wait.next_named_sibling();
        let mut used = false;
        while let Some(n) = later {
            used |= mentions(text_of(text, n), var);
            later = n.next_named_sibling();
        }
        if !used {
            return;
        }
        let (from, to) = (
            line_start(text, stmt.start_byte()),
            line_end(text, wait.end_byte()),
        );
        let (Some(copy), Some(rest)) = (
            text.get(from..line_end(text, stmt.end_byte())),
            text.get(line_end(text, stmt.end_byte())..to),
        ) else {
            return;
        };
        out.push(moved(
            text,
            stmt,
            from..to,
            format!("{rest}{copy}"),
            Part::CopyBeforeWait,
        ));
    });
    out
}

/// A read of shared state: a member, a file-scope variable of `globals`, or an atomic
/// load.
fn is_shared_read(text: &str, value: Node, globals: &[String]) -> bool {
    match value.kind() {
        "field_expression" => true,
        "identifier" => globals.iter().any(|g| g == text_of(text, value)),
        "call_expression" => super::callees::called(text, value)
            .is_some_and(|f| f.starts_with("atomic_load") || f == "__atomic_load_n"),
        _ => false,
    }
}

/// The tests of the `if`s and loops inside loop `lp`, and its own.
fn tests_in(lp: Node) -> Vec<Node> {
    let mut out = Vec::new();
    let mut stack = vec![lp];
    while let Some(x) = stack.pop() {
        if matches!(
            x.kind(),
            "if_statement" | "while_statement" | "do_statement" | "for_statement"
        ) && let Some(c) = x.child_by_field_name("condition")
        {
            out.push(c);
        }
        let mut c = x.walk();
        stack.extend(x.named_children(&mut c));
    }
    out.sort_by_key(|n| n.start_byte());
    out
}

/// The line of the loop a stale-value mutant moves its statement into (the original
/// text's line of the loop's `{`).
pub fn moved_into(m: &Mutant) -> u32 {
    m.line + m.to.lines().count().saturating_sub(1) as u32
}

#[cfg(test)]
mod tests {
    use super::*;

    const CAS: &str = "int reserve(struct q *q, int n) {\n    int old = atomic_load(&q->used);\n    int want = old + n;\n    for (int a = 0; a < 3; a++) {\n        if (want > q->limit)\n            return 0;\n        if (atomic_compare_exchange_strong(&q->used, &old, want))\n            return 1;\n    }\n    return 0;\n}\n";

    #[test]
    fn a_value_made_from_what_the_retry_refreshes_moves_into_the_loop() {
        let ms = stale_before_loop_mutants(CAS, &[2, 3, 4]);
        assert_eq!(
            ms.len(),
            1,
            "`old` itself is what the loop refreshes: {ms:?}"
        );
        let m = &ms[0].mutant;
        assert_eq!((m.line, moved_into(m)), (3, 4));
        let moved = m.apply(CAS).expect("applies");
        assert!(
            moved.contains(
                "    int old = atomic_load(&q->used);\n    for (int a = 0; a < 3; a++) {\n        int want = old + n;\n        if (want > q->limit)"
            ),
            "{moved}"
        );
    }

    const FLUSHER: &str = "void *flush(void *arg) {\n    struct lg *l = arg;\n    int stopping = l->stopping;\n    if (stopping)\n        return 0;\n    for (int r = 0; r < 3; r++) {\n        if (stopping)\n            break;\n        l->written++;\n    }\n    return 0;\n}\n";

    #[test]
    fn a_copy_of_shared_state_tested_in_a_loop_is_read_again() {
        let ms = stale_copy_mutants(FLUSHER, &[3, 4, 6, 7]);
        let got: Vec<(u32, &str, &str)> = ms
            .iter()
            .map(|m| (m.mutant.line, m.mutant.from.as_str(), m.mutant.to.as_str()))
            .collect();
        assert_eq!(
            got,
            [(7, "stopping", "l->stopping")],
            "not the test before the loop"
        );
        let refreshed = FLUSHER.replace("        l->written++;", "        stopping = l->stopping;");
        assert!(stale_copy_mutants(&refreshed, &[7]).is_empty());
        let atomic = FLUSHER.replace("= l->stopping;", "= atomic_load(&l->stop);");
        assert_eq!(
            stale_copy_mutants(&atomic, &[7])
                .first()
                .map(|m| m.mutant.to.as_str()),
            Some("atomic_load(&l->stop)")
        );
        let local = FLUSHER.replace("l->stopping;\n    if", "count;\n    if");
        assert!(
            stale_copy_mutants(&local, &[7]).is_empty(),
            "`count` is no global"
        );
    }

    #[test]
    fn a_copy_taken_before_a_condition_wait_moves_after_it() {
        let take = "void wait_item(struct q *q) {\n    while (q->count == 0)\n        pthread_cond_wait(&q->cv, &q->m);\n}\nint take(struct q *q) {\n    int slot = q->head;\n    wait_item(q);\n    return q->items[slot];\n}\n";
        let ms = copy_before_wait_mutants(take, &[6]);
        assert_eq!(ms.len(), 1, "{ms:?}");
        let moved = ms[0].mutant.apply(take).expect("applies");
        assert!(
            moved.contains("    wait_item(q);\n    int slot = q->head;\n    return"),
            "{moved}"
        );
        let unused = take.replace("q->items[slot]", "q->items[0]");
        assert!(copy_before_wait_mutants(&unused, &[6]).is_empty());
        let no_wait = take.replace("pthread_cond_wait(&q->cv, &q->m)", "spin()");
        assert!(copy_before_wait_mutants(&no_wait, &[6]).is_empty());
    }

    #[test]
    fn a_value_the_loop_recomputes_or_never_reads_stays() {
        let recomputed = CAS.replace(
            "        if (want > q->limit)",
            "        want = old + n;\n        if (want > q->limit)",
        );
        assert!(stale_before_loop_mutants(&recomputed, &[3]).is_empty());
        let fixed = "void f(void) {\n    int n = count;\n    for (int i = 0; i < n; i++) {\n        total += i;\n    }\n}\n";
        assert!(
            stale_before_loop_mutants(fixed, &[2]).is_empty(),
            "the loop does not write what `n` is made from"
        );
    }
}
