//! A callback run while a lock is held: `h.fn(h.ctx, ev);` and only then
//! `pthread_mutex_unlock(&b->lock);`. The callback is code the caller does not see (a
//! handler someone registered, a timer's action); when it takes a lock of its own, and
//! another thread holds that lock while it asks for the caller's, the two close a cycle
//! — a lock-order inversion that no line of the callback or of the other thread shows.
//!
//! Why mutants of their own: along the failing run the thread blocked inside the
//! callback, before the unlock; the lock calls are what the analyses name (each "had it
//! left the lock free"), and none of them is where the program is wrong — taking a lock
//! is right, calling out while holding it is not. The mutant moves the unlock up above
//! the statement that makes the call (a call through a pointer: a field, an array
//! element, a parameter or a local), past at most [`FURTHEST`] statements of its block,
//! never across a `return`, `break`, `continue` or `goto`, another lock or unlock, nor a
//! declaration the unlock uses. As every mutant, it counts only when the oracle proves
//! the changed program free of failures and deadlocks in every execution.
//!
//! A direct call of the program's own function under a lock is not moved: which locks a
//! function takes inside another's is the program's lock order, a design the analyses
//! judge by the cycle, not a call out of the caller's sight.

use tree_sitter::Node;

use super::operators::{Mutant, each_node, text_of};
use super::primitives::{Part, SyncMutant};
use super::signals::{is_lock_call, line_end, line_start, owns_lines};

/// How many statements an unlock is moved up past, at most.
const FURTHEST: usize = 3;

/// An unlock of a lock a callback could need.
fn is_unlock(name: &str) -> bool {
    matches!(
        name,
        "pthread_mutex_unlock" | "pthread_rwlock_unlock" | "pthread_spin_unlock" | "mtx_unlock"
    )
}

/// The moves of the unlocks in `text` up above a statement on `lines` (from 1: the
/// lines the failing run executed) that calls through a pointer. The mutant is on the
/// calling statement's line; [`unlock_line`] gives the unlock's.
pub fn callback_unlock_moves(text: &str, lines: &[u32]) -> Vec<SyncMutant> {
    let mut out = Vec::new();
    each_node(text, |n| {
        if n.kind() == "compound_statement" {
            moves_in_block(text, n, lines, &mut out);
        }
    });
    out
}

/// The line the unlock stood on before the move (the mutant's text ends with the
/// statements it was moved above, from the calling one).
pub fn unlock_line(m: &Mutant) -> u32 {
    m.line + m.to.lines().count().saturating_sub(1) as u32
}

fn moves_in_block(text: &str, block: Node, lines: &[u32], out: &mut Vec<SyncMutant>) {
    let mut cursor = block.walk();
    let stmts: Vec<Node> = block
        .named_children(&mut cursor)
        .filter(|c| c.kind() != "comment")
        .collect();
    let name_of = |s: &Node| -> &str {
        s.named_child(0)
            .filter(|_| s.kind() == "expression_statement")
            .and_then(|c| super::callees::called(text, c))
            .unwrap_or("")
    };
    let Some(function) = enclosing_function(block) else {
        return;
    };
    let locals = declared_names(text, function);
    for (i, s) in stmts.iter().enumerate() {
        if !is_unlock(name_of(s)) || !owns_lines(text, *s) {
            continue;
        }
        let unlock = text_of(text, *s);
        let own_start = line_start(text, s.start_byte());
        let end = line_end(text, s.end_byte());
        let Some(own) = text.get(own_start..end) else {
            continue;
        };
        let mut own = own.to_string();
        if !own.ends_with('\n') {
            own.push('\n');
        }
        for prev in stmts.iter().take(i).rev().take(FURTHEST) {
            if matches!(
                prev.kind(),
                "return_statement" | "break_statement" | "continue_statement" | "goto_statement"
            ) || !owns_lines(text, *prev)
                || calls_lock(text, *prev)
                || declares_used(text, *prev, unlock)
            {
                break;
            }
            let row = prev.start_position().row as u32 + 1;
            if !lines.contains(&row) || !calls_through_pointer(text, *prev, &locals) {
                continue;
            }
            let from = line_start(text, prev.start_byte());
            let Some(between) = text.get(from..own_start) else {
                break;
            };
            out.push(SyncMutant {
                mutant: Mutant {
                    line: row,
                    column: prev.start_position().column as u32 + 1,
                    start: from,
                    end,
                    from: unlock.to_string(),
                    to: format!("{own}{between}"),
                },
                part: Part::LockedCallback,
            });
        }
    }
}

fn enclosing_function(n: Node) -> Option<Node> {
    let mut p = n.parent();
    while let Some(x) = p {
        if x.kind() == "function_definition" {
            return Some(x);
        }
        p = x.parent();
    }
    None
}

/// The names a function's parameters and local declarations introduce: a call of one
/// of them is a call through a pointer (nothing else of a function's own can be called).
fn declared_names(text: &str, function: Node) -> Vec<String> {
    let mut names = Vec::new();
    let mut stack = vec![function];
    while let Some(x) = stack.pop() {
        let mut c = x.walk();
        stack.extend(x.named_children(&mut c));
        if matches!(x.kind(), "parameter_declaration" | "declaration") {
            // `int a, b;` has a declarator per name.
            let mut c = x.walk();
            for top in x.children_by_field_name("declarator", &mut c) {
                if let Some(name) = innermost_name(text, Some(top)) {
                    names.push(name);
                }
            }
        }
    }
    names
}

/// The identifier a declarator declares (`(*cb)(void *)` → `cb`, `f = g` → `f`); none
/// for a function's own prototype (`void f(int)`), which declares no pointer.
fn innermost_name(text: &str, mut d: Option<Node>) -> Option<String> {
    while let Some(x) = d {
        if x.kind() == "identifier" {
            return Some(text_of(text, x).to_string());
        }
        if x.kind() == "function_declarator"
            && x.child_by_field_name("declarator")
                .is_some_and(|n| n.kind() == "identifier")
        {
            return None;
        }
        d = x
            .child_by_field_name("declarator")
            .or_else(|| (x.kind() == "parenthesized_declarator").then(|| x.named_child(0))?);
    }
    None
}

/// Whether `stmt` calls through a pointer: a called field or element (`h.fn(..)`,
/// `t[i]->cb(..)`), a dereference, or a parameter or local of the function.
fn calls_through_pointer(text: &str, stmt: Node, locals: &[String]) -> bool {
    let mut stack = vec![stmt];
    while let Some(x) = stack.pop() {
        let mut c = x.walk();
        stack.extend(x.named_children(&mut c));
        if x.kind() != "call_expression" {
            continue;
        }
        let Some(f) = x.child_by_field_name("function") else {
            continue;
        };
        let indirect = match f.kind() {
            "identifier" => locals.iter().any(|l| l == text_of(text, f)),
            _ => true,
        };
        if indirect {
            return true;
        }
    }
    false
}

/// Whether `stmt` takes or releases a lock itself (not in a function it calls).
fn calls_lock(text: &str, stmt: Node) -> bool {
    let mut stack = vec![stmt];
    while let Some(x) = stack.pop() {
        let mut c = x.walk();
        stack.extend(x.named_children(&mut c));
        if super::callees::called(text, x).is_some_and(is_lock_call) {
            return true;
        }
    }
    false
}

/// `stmt` declares a name that `call`'s text uses: the call cannot move above it.
fn declares_used(text: &str, stmt: Node, call: &str) -> bool {
    if stmt.kind() != "declaration" {
        return false;
    }
    declared_names(text, stmt)
        .iter()
        .any(|n| super::signals::mentions(call, n))
}

#[cfg(test)]
mod tests {
    use super::*;

    const BUS: &str = "void publish(struct bus *b, int ev) {\n  pthread_mutex_lock(&b->lock);\n  struct handler h = b->h[ev];\n  b->published++;\n  h.fn(h.ctx, ev);\n  pthread_mutex_unlock(&b->lock);\n}\n\
void fire(struct wheel *w, void (*done)(int)) {\n  pthread_mutex_lock(&w->lock);\n  for (int i = 0; i < w->n; i++) w->t[i]->cb(w->t[i]->arg);\n  done(w->n);\n  helper(w);\n  pthread_mutex_unlock(&w->lock);\n}\n";

    #[test]
    fn an_unlock_moves_above_a_call_through_a_pointer() {
        let ms = callback_unlock_moves(BUS, &(1..=20).collect::<Vec<_>>());
        let got: Vec<(u32, u32)> = ms
            .iter()
            .map(|m| (m.mutant.line, unlock_line(&m.mutant)))
            .collect();
        assert_eq!(
            got,
            [(5, 6), (11, 13), (10, 13)],
            "the field call, the parameter, the element; not `helper`, nor `b->published++`"
        );
        assert!(ms.iter().all(|m| m.part == Part::LockedCallback));
        let moved = ms[0].mutant.apply(BUS).expect("applies");
        assert!(
            moved.contains(
                "  b->published++;\n  pthread_mutex_unlock(&b->lock);\n  h.fn(h.ctx, ev);\n}"
            ),
            "{moved}"
        );
        assert!(
            callback_unlock_moves(BUS, &[4, 6, 12]).is_empty(),
            "only a call the run reached"
        );
    }

    #[test]
    fn an_unlock_stays_below_a_lock_and_a_declaration_it_uses() {
        let prog = "void f(struct s *p) {\n  pthread_mutex_lock(&p->a);\n  p->cb(p);\n  pthread_mutex_lock(&p->b);\n  pthread_mutex_unlock(&p->a);\n}\n\
void g(struct s *p) {\n  p->cb(p);\n  pthread_mutex_t *l = &p->a;\n  pthread_mutex_unlock(l);\n}\n";
        assert!(callback_unlock_moves(prog, &[3, 8]).is_empty());
    }
}
