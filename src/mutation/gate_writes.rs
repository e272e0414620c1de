//! The state a hand-made synchronization waits on, written wrong: a ticket lock whose
//! acquire also advances the counter it serves (`t->holder = t->serving++;`), a lease
//! whose uncontended path never marks it held (`l->held = 1;` only inside `if
//! (l->held) { … }`), a gate whose owner record is the "no owner" value itself
//! (`g->owner = worker;` with worker 0 while `while (g->owner != NO_OWNER)` waits).
//!
//! Why mutants of their own: Griesmeyer's candidates come from values changed along the
//! failing schedule, and a different value of such state makes a thread of that
//! schedule wait where it ran on — the schedule can no longer be followed, so no value
//! on the line "avoids the failure" and the line is no candidate at all. Only a change
//! of the program checked over every execution can name it. The variables are those a
//! wait loop's test reads (a condition wait's, or a spin loop's with nothing but a
//! yield in its body); the mutants of a statement that writes one, on a line the run
//! executed, are: its one-token operator mutants (`--` for `++`, a constant off by one);
//! an increment inside a larger expression dropped (`t->serving++` read for its value
//! is `t->serving` plus a side effect); a variable stored where the waits compare the
//! state with a constant, moved past it (`worker + 1`); and a constant stored as the
//! last statement of a branch of an `if` moved after the `if`, so every path stores it. As
//! every mutant, each counts only when the oracle proves the changed program free of
//! failures and deadlocks in every execution.

use tree_sitter::Node;

use super::operators::{Mutant, each_loop, each_node, mutants_at, text_of};
use super::primitives::{Part, SyncMutant};
use super::signals::{line_end, line_start, owns_lines};
use super::wait_terms::{is_wait, split_member};

/// A variable a wait loop's test reads, split (`t->`, `serving`), and whether the test
/// compares it with a constant (`g->owner != NO_OWNER`).
#[derive(Debug, PartialEq, Eq)]
struct GateVar {
    base: String,
    member: String,
    against_constant: bool,
}

/// A call a spin loop may make while it waits.
fn is_relax(name: &str) -> bool {
    matches!(
        name,
        "sched_yield" | "pthread_yield" | "thrd_yield" | "cpu_relax" | "__builtin_ia32_pause"
    )
}

/// Whether `body` only waits: a condition wait anywhere in it, or (a spin loop) nothing
/// but yields.
fn waits(text: &str, body: Node) -> bool {
    let mut stack = vec![body];
    let mut only_relax = true;
    while let Some(x) = stack.pop() {
        if let Some(name) = super::callees::called(text, x) {
            if is_wait(name) {
                return true;
            }
            only_relax &= is_relax(name);
            continue;
        }
        match x.kind() {
            "compound_statement" | "expression_statement" | ";" | "{" | "}" | "comment" => {}
            _ => only_relax = false,
        }
        let mut c = x.walk();
        stack.extend(x.children(&mut c));
    }
    only_relax
}

/// A constant as a comparison may name it: a number, a character, or a macro's name
/// (all capitals).
fn is_constant(text: &str, n: Node) -> bool {
    match n.kind() {
        "number_literal" | "char_literal" | "true" | "false" | "null" => true,
        "identifier" => {
            let t = text_of(text, n);
            t.chars().any(|c| c.is_ascii_uppercase())
                && t.chars()
                    .all(|c| c.is_ascii_uppercase() || c.is_ascii_digit() || c == '_')
        }
        _ => false,
    }
}

/// The variables the tests of the program's wait loops read.
fn gate_vars(text: &str) -> Vec<GateVar> {
    let mut out: Vec<GateVar> = Vec::new();
    each_loop(text, |_, test, body| {
        if !waits(text, body) {
            return;
        }
        let mut stack = vec![test];
        while let Some(x) = stack.pop() {
            if matches!(x.kind(), "field_expression" | "identifier")
                && x.parent().is_none_or(|p| p.kind() != "field_expression")
                && !is_constant(text, x)
            {
                let (base, member) = split_member(text_of(text, x));
                let against_constant = x.parent().is_some_and(|p| {
                    p.kind() == "binary_expression"
                        && p.child_by_field_name("operator")
                            .is_some_and(|o| matches!(text_of(text, o), "==" | "!="))
                        && [
                            p.child_by_field_name("left"),
                            p.child_by_field_name("right"),
                        ]
                        .into_iter()
                        .flatten()
                        .any(|side| side.id() != x.id() && is_constant(text, side))
                });
                match out
                    .iter_mut()
                    .find(|g| g.member == member && g.base.is_empty() == base.is_empty())
                {
                    Some(g) => g.against_constant |= against_constant,
                    None => out.push(GateVar {
                        base,
                        member,
                        against_constant,
                    }),
                }
                continue;
            }
            let mut c = x.walk();
            stack.extend(x.named_children(&mut c));
        }
    });
    out
}

impl GateVar {
    /// Whether `target` names this variable: the member through any pointer, or the
    /// same global.
    fn is(&self, text: &str, target: Node) -> bool {
        matches!(target.kind(), "field_expression" | "identifier") && {
            let (base, member) = split_member(text_of(text, target));
            member == self.member && base.is_empty() == self.base.is_empty()
        }
    }
}

/// The gate variable `target` names.
fn gate_of<'g>(text: &str, target: Node, gates: &'g [GateVar]) -> Option<&'g GateVar> {
    gates.iter().find(|g| g.is(text, target))
}

/// Whether `n` is inside the test of a loop (the wait's own reads are not its writes).
fn in_loop_test(n: Node) -> bool {
    let mut at = n;
    while let Some(p) = at.parent() {
        if matches!(
            p.kind(),
            "while_statement" | "do_statement" | "for_statement"
        ) && p
            .child_by_field_name("condition")
            .is_some_and(|c| c.start_byte() <= n.start_byte() && n.end_byte() <= c.end_byte())
        {
            return true;
        }
        if p.kind() == "function_definition" {
            return false;
        }
        at = p;
    }
    false
}

/// The writes of gate variables inside `stmt`: (the expression that writes, the
/// variable, whether it is an update whose value is used).
fn gate_writes_in<'t>(
    text: &str,
    stmt: Node<'t>,
    gates: &[GateVar],
) -> Vec<(Node<'t>, bool, bool)> {
    let mut out = Vec::new();
    let mut stack = vec![stmt];
    while let Some(x) = stack.pop() {
        let target = match x.kind() {
            "assignment_expression" => x.child_by_field_name("left"),
            "update_expression" => x.child_by_field_name("argument"),
            _ => None,
        };
        if let Some(g) = target.and_then(|t| gate_of(text, t, gates)) {
            let used = x.kind() == "update_expression"
                && x.parent()
                    .is_some_and(|p| p.kind() != "expression_statement");
            out.push((x, used, g.against_constant));
        }
        let mut c = x.walk();
        stack.extend(x.named_children(&mut c));
    }
    out
}

/// Whether the operator mutant `m` of a statement whose gate writes are `writes` would
/// only stop the threads from waiting, a fix by synchronizing less: a take turned into
/// a give where the program already both takes and gives (`spaces++` for the `spaces--`
/// after a wait while the leaving thread does `spaces++`), or the constant a flag is
/// stored turned into another (`fresh = 1` for the `fresh = 0` that re-arms it) — the
/// analyses say which thread should have waited. A take written as a give where
/// nothing takes (`avail++` after the wait and in the release) is the mistake itself.
fn opens_for_all(text: &str, m: &Mutant, writes: &[(Node, bool, bool)], gates: &[GateVar]) -> bool {
    let Some((w, ..)) = writes
        .iter()
        .find(|(w, ..)| w.start_byte() <= m.start && m.end <= w.end_byte())
    else {
        return false;
    };
    let target = match w.kind() {
        "assignment_expression" => w.child_by_field_name("left"),
        _ => w.child_by_field_name("argument"),
    };
    let Some(gate) = target.and_then(|t| gate_of(text, t, gates)) else {
        return false;
    };
    if matches!(m.from.as_str(), "++" | "--" | "+=" | "-=") {
        let (ups, downs) = directions(text, gate);
        return ups > 0 && downs > 0;
    }
    w.kind() == "assignment_expression"
        && w.child_by_field_name("operator")
            .is_some_and(|o| text_of(text, o) == "=")
        && w.child_by_field_name("right")
            .is_some_and(|r| r.start_byte() == m.start && r.end_byte() == m.end)
}

/// How many of the program's writes of `gate` count it up (`++`, `+=`) and down.
fn directions(text: &str, gate: &GateVar) -> (usize, usize) {
    let (mut ups, mut downs) = (0, 0);
    each_node(text, |x| {
        let (target, op) = match x.kind() {
            "update_expression" => (
                x.child_by_field_name("argument"),
                x.child_by_field_name("operator"),
            ),
            "assignment_expression" => (
                x.child_by_field_name("left"),
                x.child_by_field_name("operator"),
            ),
            _ => return,
        };
        let same = target.is_some_and(|t| gate.is(text, t));
        match op.map(|o| text_of(text, o)) {
            Some("++" | "+=") if same => ups += 1,
            Some("--" | "-=") if same => downs += 1,
            _ => {}
        }
    });
    (ups, downs)
}

/// The gate-write mutants of the statements on `lines` (from 1) of `text`, in the order
/// of the text.
pub fn gate_write_mutants(text: &str, lines: &[u32]) -> Vec<SyncMutant> {
    let gates = gate_vars(text);
    if gates.is_empty() {
        return vec![];
    }
    let mut out = Vec::new();
    each_node(text, |n| {
        let row = n.start_position().row as u32 + 1;
        if n.kind() == "if_statement" && lines.contains(&row) {
            out.extend(hoist(text, n, &gates));
        }
        if n.kind() != "expression_statement" || !lines.contains(&row) || in_loop_test(n) {
            return;
        }
        let writes = gate_writes_in(text, n, &gates);
        if writes.is_empty() {
            return;
        }
        let mut add = |m: Mutant| {
            if !out.iter().any(|o: &SyncMutant| o.mutant == m) {
                out.push(SyncMutant {
                    mutant: m,
                    part: Part::GateWrite,
                });
            }
        };
        for m in mutants_at(text, row) {
            let inside = m.start >= n.start_byte() && m.end <= n.end_byte();
            if inside && !opens_for_all(text, &m, &writes, &gates) {
                add(m);
            }
        }
        for (w, used, against_constant) in writes {
            if used {
                if let Some(arg) = w.child_by_field_name("argument") {
                    add(Mutant::of_node(text, w, text_of(text, arg).to_string()));
                }
            }
            let value = w
                .child_by_field_name("right")
                .filter(|r| w.kind() == "assignment_expression" && r.kind() == "identifier");
            if let Some(v) = value.filter(|v| against_constant && !is_constant(text, *v)) {
                add(Mutant::of_node(
                    text,
                    v,
                    format!("{} + 1", text_of(text, v)),
                ));
            }
        }
    });
    out
}

/// The last statement of a branch of `iff` (its `then` or its `else`), when it stores a
/// constant in a gate variable, moved after the whole `if`: the mutant rewrites the `if`
/// and is placed on the moved statement's line.
fn hoist(text: &str, iff: Node, gates: &[GateVar]) -> Vec<SyncMutant> {
    if !owns_lines(text, iff) {
        return vec![];
    }
    let alternative = iff
        .child_by_field_name("alternative")
        .and_then(|e| e.named_child(0).filter(|_| e.kind() == "else_clause"));
    [iff.child_by_field_name("consequence"), alternative]
        .into_iter()
        .flatten()
        .filter(|b| b.kind() == "compound_statement")
        .filter_map(|branch| hoist_from(text, iff, branch, gates))
        .collect()
}

fn hoist_from(text: &str, iff: Node, branch: Node, gates: &[GateVar]) -> Option<SyncMutant> {
    let mut c = branch.walk();
    let last = branch
        .named_children(&mut c)
        .filter(|s| s.kind() != "comment")
        .last()?;
    let e = last
        .named_child(0)
        .filter(|e| last.kind() == "expression_statement" && e.kind() == "assignment_expression")?;
    gate_of(text, e.child_by_field_name("left")?, gates)?;
    if !is_constant(text, e.child_by_field_name("right")?) || !owns_lines(text, last) {
        return None;
    }
    let (from, to) = (iff.start_byte(), iff.end_byte());
    let (cut_from, cut_to) = (
        line_start(text, last.start_byte()),
        line_end(text, last.end_byte()),
    );
    let indent = text.get(line_start(text, from)..from)?;
    let moved = format!(
        "{}{}\n{indent}{}",
        text.get(from..cut_from)?,
        text.get(cut_to..to)?,
        text_of(text, last)
    );
    Some(SyncMutant {
        mutant: Mutant {
            line: last.start_position().row as u32 + 1,
            column: last.start_position().column as u32 + 1,
            start: from,
            end: to,
            from: text_of(text, last).to_string(),
            to: moved,
        },
        part: Part::GateWrite,
    })
}

/// Whether a gate-write mutant moves its statement out of an `if` (its text is the whole
/// `if`) rather than changing a token.
pub fn is_hoist(m: &Mutant) -> bool {
    m.to.contains('\n')
}

#[cfg(test)]
mod tests {
    use super::*;

    const TICKET: &str = "void acquire(struct tl *t) {\n  pthread_mutex_lock(&t->m);\n  unsigned my = t->next++;\n  while (t->serving != my)\n    pthread_cond_wait(&t->cv, &t->m);\n  t->holder = t->serving++;\n  pthread_mutex_unlock(&t->m);\n}\n";

    #[test]
    fn an_increment_read_for_its_value_is_dropped_or_turned_around() {
        let ms = gate_write_mutants(TICKET, &[3, 4, 6]);
        let got: Vec<(u32, &str, &str)> = ms
            .iter()
            .map(|m| (m.mutant.line, m.mutant.from.as_str(), m.mutant.to.as_str()))
            .collect();
        assert!(got.contains(&(6, "++", "--")), "{got:?}");
        assert!(got.contains(&(6, "t->serving++", "t->serving")), "{got:?}");
        assert!(
            got.iter().all(|(l, ..)| *l == 6),
            "`next` is no gate variable, the test is not written: {got:?}"
        );
        assert!(
            gate_write_mutants(TICKET, &[3, 4]).is_empty(),
            "line 6 did not run"
        );
    }

    #[test]
    fn a_stored_identity_is_moved_past_the_constant_the_waits_compare_with() {
        let gate = "void enter(struct g *g, int w) {\n  while (g->owner != NO_OWNER)\n    pthread_cond_wait(&g->cv, &g->m);\n  g->owner = w;\n}\nvoid leave(struct g *g) {\n  g->owner = NO_OWNER;\n}\n";
        let ms = gate_write_mutants(gate, &[2, 4, 7]);
        let got: Vec<(u32, &str)> = ms
            .iter()
            .map(|m| (m.mutant.line, m.mutant.to.as_str()))
            .collect();
        assert_eq!(
            got,
            [(4, "w + 1")],
            "the release stores the constant itself"
        );
        assert!(
            ms[0]
                .mutant
                .apply(gate)
                .is_some_and(|t| t.contains("g->owner = w + 1;"))
        );
    }

    #[test]
    fn a_constant_stored_on_one_path_only_is_moved_after_its_if() {
        let lease = "void acquire(struct l *l) {\n  pthread_mutex_lock(&l->m);\n  if (l->held) {\n    l->waiting++;\n    while (l->held)\n      pthread_cond_wait(&l->cv, &l->m);\n    l->held = 1;\n  }\n  l->owner = 2;\n}\n";
        let ms = gate_write_mutants(lease, &[2, 3, 9]);
        let hoisted: Vec<&SyncMutant> = ms.iter().filter(|m| is_hoist(&m.mutant)).collect();
        assert_eq!(hoisted.len(), 1, "{ms:?}");
        let m = &hoisted[0].mutant;
        assert_eq!((m.line, m.from.as_str()), (7, "l->held = 1;"));
        let moved = m.apply(lease).expect("applies");
        assert!(
            moved.contains(
                "      pthread_cond_wait(&l->cv, &l->m);\n  }\n  l->held = 1;\n  l->owner = 2;"
            ),
            "{moved}"
        );
    }

    #[test]
    fn a_constant_stored_on_the_else_path_only_is_moved_after_the_if() {
        let gate = "void take(struct g *g) {\n  if (g->busy) {\n    while (g->busy)\n      pthread_cond_wait(&g->cv, &g->m);\n  } else {\n    g->busy = 1;\n  }\n}\n";
        let ms = gate_write_mutants(gate, &[2]);
        assert_eq!(ms.len(), 1, "{ms:?}");
        let moved = ms[0].mutant.apply(gate).expect("applies");
        assert!(
            moved.contains("  } else {\n  }\n  g->busy = 1;\n}"),
            "{moved}"
        );
    }

    #[test]
    fn a_take_is_not_turned_into_a_give_nor_a_flag_flipped() {
        let lot = "void park(void) {\n  while (spaces == 0)\n    pthread_cond_wait(&cv, &m);\n  spaces--;\n}\nvoid leave(void) {\n  spaces++;\n  fresh = 0;\n}\nvoid w(void) {\n  while (!fresh)\n    pthread_cond_wait(&cv, &m);\n}\n";
        let ms = gate_write_mutants(lot, &[4, 7, 8]);
        assert!(ms.is_empty(), "{ms:?}");
    }

    #[test]
    fn a_spin_loop_gates_too_and_a_busy_loop_does_not() {
        let spin =
            "void pass(void) {\n  while (turn != me)\n    sched_yield();\n  turn = turn + 2;\n}\n";
        assert!(
            gate_write_mutants(spin, &[4])
                .iter()
                .any(|m| m.mutant.to == "1")
        );
        let busy = "void f(void) {\n  while (n < 3)\n    work();\n  n = n + 2;\n}\n";
        assert!(gate_write_mutants(busy, &[4]).is_empty());
    }
}
