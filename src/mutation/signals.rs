//! A wake-up sent before the change it announces: `pthread_cond_signal(&cv);` and only
//! then `done = 1;`. A waiter that tests `done` between the two finds it unset and waits
//! for a signal that has already gone: a lost wake-up.
//!
//! Why a mutant of its own: along the deadlocking schedule the signal ran (to nobody)
//! and the waiter blocked; no value its line computes avoids the deadlock — the fix is
//! where the call stands. The mutant moves the call statement down past one, two, … of
//! the statements that follow it in its block (at most [`FURTHEST`], never past a
//! `return`, `break`, `continue` or `goto`), and counts, as every mutant, only when the
//! oracle proves the moved program free of failures and deadlocks in every execution.

use tree_sitter::Node;

use super::operators::{Mutant, each_node, text_of};
use super::primitives::{Part, SyncMutant};

/// How many statements a signal is moved past, at most.
const FURTHEST: usize = 4;

fn is_wake_up(name: &str) -> bool {
    matches!(
        name,
        "pthread_cond_signal" | "pthread_cond_broadcast" | "cnd_signal" | "cnd_broadcast"
    )
}

/// The moves of the wake-up calls on `lines` (from 1) of `text`.
pub fn signal_moves(text: &str, lines: &[u32]) -> Vec<SyncMutant> {
    let mut out = Vec::new();
    each_node(text, |n| {
        if n.kind() == "compound_statement" {
            moves_in_block(text, n, lines, &mut out);
        }
    });
    out
}

/// The start of the line that holds byte `at`.
fn line_start(text: &str, at: usize) -> usize {
    text.get(..at)
        .and_then(|t| t.rfind('\n'))
        .map_or(0, |i| i + 1)
}

/// The end of the line that holds byte `at`, past its newline.
fn line_end(text: &str, at: usize) -> usize {
    text.get(at..)
        .and_then(|t| t.find('\n'))
        .map_or(text.len(), |i| at + i + 1)
}

/// Whether `n` has its lines to itself: nothing but blanks before it on its first line
/// and after it on its last.
fn owns_lines(text: &str, n: Node) -> bool {
    let (a, b) = (n.start_byte(), n.end_byte());
    let before = text.get(line_start(text, a)..a).unwrap_or("x");
    let after = text.get(b..line_end(text, b)).unwrap_or("x");
    before.trim().is_empty() && after.trim().is_empty()
}

fn moves_in_block(text: &str, block: Node, lines: &[u32], out: &mut Vec<SyncMutant>) {
    let mut cursor = block.walk();
    let stmts: Vec<Node> = block
        .named_children(&mut cursor)
        .filter(|c| c.kind() != "comment")
        .collect();
    for (i, s) in stmts.iter().enumerate() {
        let row = s.start_position().row as u32 + 1;
        let call = s.named_child(0).filter(|c| c.kind() == "call_expression");
        let name = call
            .and_then(|c| c.child_by_field_name("function"))
            .map_or("", |f| text_of(text, f));
        if s.kind() != "expression_statement"
            || !is_wake_up(name)
            || !lines.contains(&row)
            || !owns_lines(text, *s)
        {
            continue;
        }
        let from = line_start(text, s.start_byte());
        let own_end = line_end(text, s.end_byte());
        let Some(own) = text.get(from..own_end) else {
            continue;
        };
        for next in stmts.iter().skip(i + 1).take(FURTHEST) {
            if matches!(
                next.kind(),
                "return_statement" | "break_statement" | "continue_statement" | "goto_statement"
            ) || !owns_lines(text, *next)
            {
                break;
            }
            let end = line_end(text, next.end_byte());
            let Some(between) = text.get(own_end..end) else {
                break;
            };
            let mut to = between.to_string();
            if !to.ends_with('\n') {
                to.push('\n');
            }
            to.push_str(own);
            out.push(SyncMutant {
                mutant: Mutant {
                    line: row,
                    column: s.start_position().column as u32 + 1,
                    start: from,
                    end,
                    from: text_of(text, *s).to_string(),
                    to,
                },
                part: Part::SignalOrder,
            });
        }
    }
}

/// The line a move puts the signal after (its mutant's text ends with the signal's own
/// line).
pub fn moved_after(m: &Mutant) -> u32 {
    m.line + m.to.lines().count().saturating_sub(1) as u32
}

#[cfg(test)]
mod tests {
    use super::*;

    const PROG: &str = "void *w(void *a) {\n  int n = 1;\n  pthread_cond_signal(&cv);\n  pthread_mutex_lock(&m);\n  done = n;\n  pthread_mutex_unlock(&m);\n  return a;\n}\nvoid f(void) { if (x) pthread_cond_signal(&cv); pthread_cond_broadcast(&cv); x = 1; }\n";

    #[test]
    fn a_signal_moves_down_its_block_up_to_a_return() {
        let ms = signal_moves(PROG, &[3, 9]);
        let afters: Vec<u32> = ms.iter().map(|m| moved_after(&m.mutant)).collect();
        assert_eq!(
            afters,
            [4, 5, 6],
            "not past the return; line 9 shares its line"
        );
        let moved = ms[2].mutant.apply(PROG).expect("applies");
        assert!(
            moved.contains("  int n = 1;\n  pthread_mutex_lock(&m);\n  done = n;\n  pthread_mutex_unlock(&m);\n  pthread_cond_signal(&cv);\n  return a;"),
            "{moved}"
        );
        assert!(
            signal_moves(PROG, &[4]).is_empty(),
            "only a signal the run reached"
        );
    }
}
