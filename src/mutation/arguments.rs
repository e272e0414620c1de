//! A thread handed the address of a variable its creator goes on changing: the classic
//! `for (i = 0; i < N; i++) pthread_create(&t[i], 0, worker, &i);`. The new thread reads
//! whatever `i` holds when it gets to it, not the value it was created with.
//!
//! Why a mutant of its own: along the failing schedule the creator's `i++` ran before the
//! thread's read, so Griesmeyer's value changes name the loop header (`i++` storing
//! another value) and the thread's read — never the creation, whose stored value (the
//! address) is right. The fix is at the creation: each thread gets its own copy of the
//! value. The mutant makes exactly that change (the statement that creates the thread
//! becomes `{ T *own = malloc(sizeof *own); *own = i; pthread_create(.., own); }`, which
//! the oracle's front end models), and counts, as every mutant, only when the oracle
//! proves the changed program free of failures and deadlocks in every execution.
//!
//! Only where the creator writes the variable again after the creation: a variable an
//! enclosing loop of the creation assigns (its counter, or a value read in each round).
//! An address of something written once before the creation hands over nothing racy.

use tree_sitter::Node;

use super::operators::{Mutant, each_node, text_of};
use super::primitives::{Part, SyncMutant};

/// The calls that start a thread, and the index of their argument for it.
fn start_argument(name: &str) -> Option<usize> {
    match name {
        "pthread_create" => Some(3),
        "thrd_create" => Some(2),
        _ => None,
    }
}

fn named_children(n: Node) -> Vec<Node> {
    let mut cursor = n.walk();
    n.named_children(&mut cursor)
        .filter(|c| c.kind() != "comment")
        .collect()
}

/// The mutants of the thread creations on `lines` (from 1) of `text`: the copy of a
/// variable the creator changes, and each integer literal of the argument off by one
/// (`&jobs[0]` handed to two threads, `(void *)1` for the second worker's id).
pub fn argument_mutants(text: &str, lines: &[u32]) -> Vec<SyncMutant> {
    let mut out = Vec::new();
    each_node(text, |n| {
        let row = n.start_position().row as u32 + 1;
        if n.kind() == "expression_statement" && lines.contains(&row) {
            if let Some(m) = copy_mutant(text, n) {
                out.push(m);
            }
            literal_mutants(text, n, &mut out);
        }
        if n.kind() == "for_statement" {
            index_mutants(text, n, lines, &mut out);
            object_mutants(text, n, lines, &mut out);
        }
    });
    out
}

/// In a loop that creates threads, the address of a constant element (`&jobs[0]`) on a
/// line of `lines` made the address of the loop counter's element (`&jobs[i]`): each
/// round's thread was meant to get its own slot, whether the address is handed over
/// directly or through a local first.
fn index_mutants(text: &str, lp: Node, lines: &[u32], out: &mut Vec<SyncMutant>) {
    let counter = lp.child_by_field_name("update").and_then(|u| {
        let t = match u.kind() {
            "update_expression" => u.child_by_field_name("argument"),
            "assignment_expression" => u.child_by_field_name("left"),
            _ => None,
        }?;
        (t.kind() == "identifier").then(|| text_of(text, t).to_string())
    });
    let (Some(counter), Some(body)) = (counter, lp.child_by_field_name("body")) else {
        return;
    };
    let creates = {
        let mut found = false;
        let mut stack = vec![body];
        while let Some(n) = stack.pop() {
            if n.kind() == "call_expression"
                && n.child_by_field_name("function")
                    .is_some_and(|f| start_argument(text_of(text, f)).is_some())
            {
                found = true;
                break;
            }
            stack.extend(named_children(n));
        }
        found
    };
    if !creates {
        return;
    }
    let mut stack = vec![body];
    while let Some(n) = stack.pop() {
        stack.extend(named_children(n));
        let row = n.start_position().row as u32 + 1;
        let is_address = n.kind() == "pointer_expression"
            && n.child_by_field_name("operator")
                .is_some_and(|o| text_of(text, o) == "&");
        if !is_address || !lines.contains(&row) {
            continue;
        }
        let Some(index) = n
            .child_by_field_name("argument")
            .filter(|a| a.kind() == "subscript_expression")
            .and_then(|a| a.child_by_field_name("index"))
            .filter(|i| i.kind() == "number_literal")
        else {
            continue;
        };
        out.push(SyncMutant {
            mutant: Mutant::of_node(text, index, counter.clone()),
            part: Part::Slot,
        });
    }
}

/// In a loop that creates threads, a local pointer handed to each new thread that the
/// round points at one object declared outside the loop (`struct job *a = &args;
/// a->id = i; pthread_create(.., a);`): every thread gets the same object, which the next
/// round rewrites. The mutant gives each round a fresh object (`malloc(sizeof args)`),
/// which the round's writes through the pointer fill.
fn object_mutants(text: &str, lp: Node, lines: &[u32], out: &mut Vec<SyncMutant>) {
    let Some(body) = lp.child_by_field_name("body") else {
        return;
    };
    let mut handed: Vec<String> = Vec::new();
    let mut stack = vec![body];
    while let Some(n) = stack.pop() {
        stack.extend(named_children(n));
        if n.kind() != "expression_statement" {
            continue;
        }
        let Some(arg) = find_call(text, n).and_then(|call| {
            let index = start_argument(text_of(text, call.child_by_field_name("function")?))?;
            named_children(call.child_by_field_name("arguments")?)
                .get(index)
                .copied()
        }) else {
            continue;
        };
        let arg = match arg.kind() {
            "cast_expression" => arg.child_by_field_name("value").unwrap_or(arg),
            _ => arg,
        };
        if arg.kind() == "identifier" {
            handed.push(text_of(text, arg).to_string());
        }
    }
    if handed.is_empty() {
        return;
    }
    let mut stack = vec![body];
    while let Some(n) = stack.pop() {
        stack.extend(named_children(n));
        // `T *p = &x;` or `p = &x;`, `p` handed to the new threads.
        let (target, value) = match n.kind() {
            "init_declarator" => (
                n.child_by_field_name("declarator")
                    .and_then(|d| declared_name(text, d)),
                n.child_by_field_name("value"),
            ),
            "assignment_expression" => (
                n.child_by_field_name("left")
                    .filter(|l| l.kind() == "identifier")
                    .map(|l| text_of(text, l)),
                n.child_by_field_name("right"),
            ),
            _ => continue,
        };
        let (Some(target), Some(value)) = (target, value) else {
            continue;
        };
        let row = value.start_position().row as u32 + 1;
        if !handed.iter().any(|h| h == target)
            || value.kind() != "pointer_expression"
            || value.child(0).is_none_or(|o| text_of(text, o) != "&")
            || !lines.contains(&row)
        {
            continue;
        }
        let Some(object) = value
            .child_by_field_name("argument")
            .filter(|a| a.kind() == "identifier")
        else {
            continue;
        };
        let name = text_of(text, object);
        // An object of the round's own: each thread has its own already.
        if declares(text, body, name) {
            continue;
        }
        out.push(SyncMutant {
            mutant: Mutant::of_node(text, value, format!("malloc(sizeof {name})")),
            part: Part::SharedObject,
        });
    }
}

/// Whether `n`'s subtree declares `name`.
fn declares(text: &str, n: Node, name: &str) -> bool {
    if n.kind() == "declaration" {
        let mut cursor = n.walk();
        return n
            .children_by_field_name("declarator", &mut cursor)
            .any(|d| declared_name(text, d) == Some(name));
    }
    named_children(n)
        .into_iter()
        .any(|c| declares(text, c, name))
}

/// The name a declarator declares (`*p = &x` declares `p`, `v[3]` declares `v`).
fn declared_name<'t>(text: &'t str, d: Node) -> Option<&'t str> {
    let mut d = d;
    while d.kind() != "identifier" {
        d = d.child_by_field_name("declarator")?;
    }
    Some(text_of(text, d))
}

/// The mutant of one statement (`pthread_create(..);` or `rc = pthread_create(..);`).
fn copy_mutant(text: &str, stmt: Node) -> Option<SyncMutant> {
    let call = find_call(text, stmt)?;
    let f = call.child_by_field_name("function")?;
    let index = start_argument(text_of(text, f))?;
    let args = named_children(call.child_by_field_name("arguments")?);
    let arg = *args.get(index)?;
    // `&v`, `(void *)&v`: the address of a plain variable.
    let inner = match arg.kind() {
        "cast_expression" => arg.child_by_field_name("value")?,
        _ => arg,
    };
    if inner.kind() != "pointer_expression" || text_of(text, inner.child(0)?) != "&" {
        return None;
    }
    let var = inner.child_by_field_name("argument")?;
    if var.kind() != "identifier" {
        return None;
    }
    let name = text_of(text, var);
    if !rewritten_around(text, stmt, name) {
        return None;
    }
    let ty = declared_type(text, stmt, name)?;
    let own = format!("__seqloc_own_{name}");
    let before = text.get(stmt.start_byte()..arg.start_byte())?;
    let after = text.get(arg.end_byte()..stmt.end_byte())?;
    let to =
        format!("{{ {ty} *{own} = malloc(sizeof *{own}); *{own} = {name}; {before}{own}{after} }}");
    Some(SyncMutant {
        mutant: Mutant {
            line: stmt.start_position().row as u32 + 1,
            column: arg.start_position().column as u32 + 1,
            start: stmt.start_byte(),
            end: stmt.end_byte(),
            from: text_of(text, arg).to_string(),
            to,
        },
        part: Part::ArgumentCopy,
    })
}

/// The integer literals of a creation's argument for the thread, off by one (not below
/// zero, and not inside `sizeof`).
fn literal_mutants(text: &str, stmt: Node, out: &mut Vec<SyncMutant>) {
    let Some(call) = find_call(text, stmt) else {
        return;
    };
    let Some(index) = call
        .child_by_field_name("function")
        .and_then(|f| start_argument(text_of(text, f)))
    else {
        return;
    };
    let Some(arg) = call
        .child_by_field_name("arguments")
        .and_then(|a| named_children(a).get(index).copied())
    else {
        return;
    };
    let mut stack = vec![arg];
    while let Some(n) = stack.pop() {
        match n.kind() {
            "sizeof_expression" => continue,
            "number_literal" => {
                let Ok(v) = text_of(text, n).parse::<i64>() else {
                    continue;
                };
                for w in [v - 1, v + 1].into_iter().filter(|w| *w >= 0) {
                    out.push(SyncMutant {
                        mutant: Mutant::of_node(text, n, w.to_string()),
                        part: Part::Argument,
                    });
                }
            }
            _ => stack.extend(named_children(n).into_iter().rev()),
        }
    }
}

/// The creation call a statement makes: the statement's expression, or the right side of
/// its assignment.
fn find_call<'t>(text: &str, stmt: Node<'t>) -> Option<Node<'t>> {
    let e = stmt.named_child(0)?;
    let e = match e.kind() {
        "assignment_expression" => e.child_by_field_name("right")?,
        _ => e,
    };
    let f = e.child_by_field_name("function")?;
    (e.kind() == "call_expression" && start_argument(text_of(text, f)).is_some()).then_some(e)
}

/// Whether a loop around `stmt` (inside its function) assigns `name` outside `stmt`: its
/// header's update or a statement of its body.
fn rewritten_around(text: &str, stmt: Node, name: &str) -> bool {
    let mut up = stmt.parent();
    while let Some(p) = up {
        if p.kind() == "function_definition" {
            return false;
        }
        if matches!(
            p.kind(),
            "for_statement" | "while_statement" | "do_statement"
        ) && assigns(text, p, name, stmt)
        {
            return true;
        }
        up = p.parent();
    }
    false
}

/// Whether `n`'s subtree, `skip` aside, assigns `name` (`name = ..`, `name += ..`,
/// `name++`).
fn assigns(text: &str, n: Node, name: &str, skip: Node) -> bool {
    if n.id() == skip.id() {
        return false;
    }
    let target = match n.kind() {
        "assignment_expression" => n.child_by_field_name("left"),
        "update_expression" => n.child_by_field_name("argument"),
        _ => None,
    };
    // The variable itself, or a member of it (`arg.index = i;` for a struct handed over).
    let mut base = target;
    while let Some(b) = base.filter(|b| b.kind() == "field_expression") {
        base = b.child_by_field_name("argument");
    }
    if base.is_some_and(|t| t.kind() == "identifier" && text_of(text, t) == name) {
        return true;
    }
    named_children(n)
        .into_iter()
        .any(|c| assigns(text, c, name, skip))
}

/// The type `name` is declared with in the function around `at` (a plain declarator, not
/// a pointer or an array), as written.
fn declared_type(text: &str, at: Node, name: &str) -> Option<String> {
    let mut up = at.parent();
    let mut func = None;
    while let Some(p) = up {
        if p.kind() == "function_definition" {
            func = Some(p);
            break;
        }
        up = p.parent();
    }
    let mut stack = vec![func?];
    while let Some(n) = stack.pop() {
        if n.kind() == "declaration" {
            let ty = n.child_by_field_name("type")?;
            let mut cursor = n.walk();
            for d in n.children_by_field_name("declarator", &mut cursor) {
                let id = match d.kind() {
                    "init_declarator" => d.child_by_field_name("declarator"),
                    _ => Some(d),
                };
                if id.is_some_and(|i| i.kind() == "identifier" && text_of(text, i) == name) {
                    // Qualifiers before the type (`volatile int i`) stay out: the copy
                    // is the thread's own.
                    return Some(text_of(text, ty).to_string());
                }
            }
        }
        stack.extend(named_children(n));
    }
    None
}

#[cfg(test)]
mod tests {
    use super::*;

    const PROG: &str = r#"#include <pthread.h>
int seen[2];
void *worker(void *arg) { int id = *(int *)arg; seen[id]++; return 0; }
int main(void) {
  pthread_t t[2];
  int i, rc, fixed = 1;
  for (i = 0; i < 2; i++)
    pthread_create(&t[i], 0, worker, &i);
  for (i = 0; i < 2; i++) {
    rc = pthread_create(&t[i], 0, worker, (void *)&i);
  }
  pthread_create(&t[0], 0, worker, &fixed);
  for (long k = 0; k < 2; k++)
    pthread_create(&t[k], 0, worker, &seen[k]);
  return rc;
}
"#;

    #[test]
    fn a_loop_counters_address_gets_a_copy_per_thread() {
        let ms: Vec<SyncMutant> = argument_mutants(PROG, &[8, 10, 12, 14])
            .into_iter()
            .filter(|m| m.part == Part::ArgumentCopy)
            .collect();
        let lines: Vec<u32> = ms.iter().map(|m| m.mutant.line).collect();
        assert_eq!(lines, [8, 10], "not `&fixed`, written once; not `&seen[k]`");
        let first = &ms[0].mutant;
        assert_eq!(first.from, "&i");
        let t = first.apply(PROG).expect("applies");
        assert!(
            t.contains("{ int *__seqloc_own_i = malloc(sizeof *__seqloc_own_i); *__seqloc_own_i = i; pthread_create(&t[i], 0, worker, __seqloc_own_i); }"),
            "{t}"
        );
        let second = ms[1].mutant.apply(PROG).expect("applies");
        assert!(
            second.contains("rc = pthread_create(&t[i], 0, worker, __seqloc_own_i); }"),
            "the cast goes with the address: {second}"
        );
        assert!(
            argument_mutants(PROG, &[7]).is_empty(),
            "only lines the run reached"
        );
    }

    #[test]
    fn a_struct_rewritten_member_by_member_is_copied_and_a_literal_argument_moves_by_one() {
        let prog = "struct a { int i; };\nvoid *f(void *p) { return p; }\nint main(void) {\n  pthread_t t[2];\n  struct a arg;\n  int s[2];\n  for (int i = 0; i < 2; i++) {\n    arg.i = i;\n    pthread_create(&t[i], 0, f, &arg);\n  }\n  pthread_create(&t[0], 0, f, &s[0]);\n  pthread_create(&t[1], 0, f, (void *)sizeof(int));\n  return 0;\n}\n";
        let ms: Vec<String> = argument_mutants(prog, &[9, 11, 12])
            .iter()
            .map(|m| {
                format!(
                    "{}:{:?}:{}->{}",
                    m.mutant.line, m.part, m.mutant.from, m.mutant.to
                )
            })
            .collect();
        assert_eq!(ms.len(), 2, "{ms:?}");
        assert!(
            ms[0].starts_with("9:ArgumentCopy:&arg->{ struct a *__seqloc_own_arg"),
            "{ms:?}"
        );
        assert_eq!(ms[1], "11:Argument:0->1", "never below zero, never a size");
    }

    #[test]
    fn a_constant_slot_in_a_creating_loop_becomes_the_counters() {
        let prog = "struct job { int id; };\nvoid *f(void *p) { return p; }\nint main(void) {\n  pthread_t t[2];\n  struct job jobs[2];\n  for (int i = 0; i < 2; i++) {\n    struct job *j = &jobs[0];\n    j->id = i;\n    pthread_create(&t[i], 0, f, j);\n  }\n  for (int k = 0; k < 2; k++)\n    jobs[0].id = k + *&jobs[1].id;\n  return 0;\n}\n";
        let ms: Vec<String> = argument_mutants(prog, &[7, 9, 12])
            .iter()
            .map(|m| format!("{}:{}->{}", m.mutant.line, m.mutant.from, m.mutant.to))
            .collect();
        // Not in the loop that creates no thread; not on a line the run did not make.
        assert_eq!(ms, ["7:0->i"]);
        assert!(argument_mutants(prog, &[9, 12]).is_empty());
    }

    #[test]
    fn one_object_handed_through_a_pointer_gets_a_fresh_one_each_round() {
        let prog = "int main(void) {\n  struct job one, *p;\n  for (int i = 0; i < 2; i++) {\n    struct job mine;\n    struct job *a = &one;\n    p = &one;\n    struct job *b = &mine;\n    a->id = i;\n    pthread_create(&t[i], 0, w, a);\n    pthread_create(&t[i], 0, w, (void *)p);\n    pthread_create(&t[i], 0, w, b);\n  }\n  int *q = &one.id;\n}\n";
        let all: Vec<u32> = (1..=14).collect();
        let ms: Vec<SyncMutant> = argument_mutants(prog, &all)
            .into_iter()
            .filter(|m| m.part == Part::SharedObject)
            .collect();
        let mut got: Vec<(u32, String)> = ms
            .iter()
            .map(|m| (m.mutant.line, m.mutant.to.clone()))
            .collect();
        got.sort();
        assert_eq!(
            got,
            [
                (5, "malloc(sizeof one)".to_string()),
                (6, "malloc(sizeof one)".to_string())
            ],
            "not the round's own `mine`, nor outside the loop"
        );
        let lines_not_run: Vec<u32> = vec![1, 2, 3];
        assert!(
            argument_mutants(prog, &lines_not_run)
                .iter()
                .all(|m| m.part != Part::SharedObject)
        );
    }
}
