//! A bounds check off by one: `if (tail - head > SLOTS) return 0;` where a ring of
//! `SLOTS` slots is full at `>=`, the producer overwrites a slot the consumer has not read;
//! `if (active <= MAX) admit; else reject;` lets one client too many in.
//!
//! Why mutants of their own: the check is a test of shared state whose branch leaves (a
//! full or empty buffer, a limit reached) or that chooses between two branches, and
//! along the failing schedule the thread took the other way. Made to leave, the thread runs other statements than the schedule
//! holds, so Griesmeyer's method, which keeps the schedule, never names the test. The
//! explorer, over every interleaving, sees the changed boundary. Only the boundary of the
//! comparison is tried (`<` and `<=`, `>` and `>=`): an inverted test or a changed limit
//! is another program, not a slip, and each mutant is a whole program checked.

use tree_sitter::Node;

use super::operators::{each_node, mutants_at, text_of};
use super::primitives::{Part, SyncMutant, scalar_globals};

/// Whether statement `n` leaves what it is in: a `return`, `break`, `continue` or `goto`,
/// alone or ending a block.
fn leaves(n: Node) -> bool {
    match n.kind() {
        "return_statement" | "break_statement" | "continue_statement" | "goto_statement" => true,
        "compound_statement" => {
            let mut cursor = n.walk();
            let last = n
                .named_children(&mut cursor)
                .filter(|c| c.kind() != "comment")
                .last();
            last.is_some_and(leaves)
        }
        _ => false,
    }
}

/// Whether test `n` reads what other threads may change: a global, a member reached
/// through a pointer, or an atomic object.
fn reads_shared(text: &str, n: Node, globals: &[String]) -> bool {
    let mut stack = vec![n];
    while let Some(x) = stack.pop() {
        match x.kind() {
            "identifier" if globals.iter().any(|g| g == text_of(text, x)) => return true,
            "field_expression"
                if x.child_by_field_name("operator")
                    .is_some_and(|o| text_of(text, o) == "->") =>
            {
                return true;
            }
            "call_expression"
                if x.child_by_field_name("function").is_some_and(|f| {
                    let name = text_of(text, f);
                    name.starts_with("atomic_")
                        || name.starts_with("__atomic_")
                        || name.starts_with("__sync_")
                }) =>
            {
                return true;
            }
            _ => {}
        }
        let mut cursor = x.walk();
        stack.extend(x.named_children(&mut cursor));
    }
    false
}

/// `names` and the locals of the function around `n` that are set from shared state
/// (`unsigned w = atomic_load(&mb->written);`): a test of such copies tests shared state.
fn with_copies(text: &str, n: Node, names: &[String]) -> Vec<String> {
    let mut out = names.to_vec();
    let mut f = Some(n);
    while let Some(x) = f.filter(|x| x.kind() != "function_definition") {
        f = x.parent();
    }
    let Some(body) = f.and_then(|f| f.child_by_field_name("body")) else {
        return out;
    };
    // Twice: a copy of a copy (`avail = cap - used` after `used = atomic_load(..)`).
    for _ in 0..2 {
        let mut stack = vec![body];
        while let Some(x) = stack.pop() {
            let mut cursor = x.walk();
            stack.extend(x.named_children(&mut cursor));
            let (target, value) = match x.kind() {
                "init_declarator" => (
                    x.child_by_field_name("declarator"),
                    x.child_by_field_name("value"),
                ),
                "assignment_expression" => (
                    x.child_by_field_name("left"),
                    x.child_by_field_name("right"),
                ),
                _ => continue,
            };
            let (Some(target), Some(value)) = (target, value) else {
                continue;
            };
            let name = text_of(text, target);
            if target.kind() == "identifier"
                && !out.iter().any(|o| o == name)
                && reads_shared(text, value, &out)
            {
                out.push(name.to_string());
            }
        }
    }
    out
}

/// The boundary mutants of the tests on `lines` (from 1) of the `if`s whose branch leaves
/// and whose test compares shared state by order (`Part::BoundCheck`), directly or
/// through copies the function took of it.
pub fn bound_check_mutants(text: &str, lines: &[u32]) -> Vec<SyncMutant> {
    let globals: Vec<String> = scalar_globals(text)
        .into_iter()
        .map(|(name, _)| name)
        .collect();
    let mut tests: Vec<(u32, usize, usize)> = Vec::new();
    each_node(text, |n| {
        if n.kind() != "if_statement" {
            return;
        }
        let (Some(cond), Some(branch)) = (
            n.child_by_field_name("condition"),
            n.child_by_field_name("consequence"),
        ) else {
            return;
        };
        let row = cond.start_position().row as u32 + 1;
        // A test over several lines is left alone: `mutants_at` works by line.
        if cond.end_position().row != cond.start_position().row
            || !lines.contains(&row)
            || !(leaves(branch) || n.child_by_field_name("alternative").is_some())
            || !reads_shared(text, cond, &with_copies(text, n, &globals))
        {
            return;
        }
        tests.push((row, cond.start_byte(), cond.end_byte()));
    });
    let mut out = Vec::new();
    for (row, start, end) in tests {
        for m in mutants_at(text, row) {
            let boundary = matches!(
                (m.from.as_str(), m.to.as_str()),
                ("<", "<=") | ("<=", "<") | (">", ">=") | (">=", ">")
            );
            if boundary && m.start >= start && m.end <= end {
                out.push(SyncMutant {
                    mutant: m,
                    part: Part::BoundCheck,
                });
            }
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    const RING: &str = "#include <stdatomic.h>\nstruct ring { atomic_uint head, tail; int slot[2]; };\nstruct ring ring;\nint push(struct ring *r, int v)\n{\n  unsigned t = atomic_load(&r->tail);\n  if (t - atomic_load(&r->head) > 2)\n    return 0;\n  int k = v;\n  if (k > 3)\n    return 1;\n  unsigned h = atomic_load(&r->head), used = t - h;\n  if (used < 1)\n    return 2;\n  if (t > 1) {\n    k++;\n  }\n  r->slot[t % 2] = k;\n  return 1;\n}\n";

    #[test]
    fn only_the_boundary_of_a_test_of_shared_state_that_leaves_is_mutated() {
        let ms = bound_check_mutants(RING, &[7, 10, 15]);
        assert_eq!(ms.len(), 1, "{ms:?}");
        let m = &ms[0].mutant;
        assert_eq!((m.line, m.from.as_str(), m.to.as_str()), (7, ">", ">="));
        assert_eq!(ms[0].part, Part::BoundCheck);
        // A test the run did not execute is not tried.
        assert!(bound_check_mutants(RING, &[10, 15]).is_empty());
    }

    #[test]
    fn a_test_of_a_local_copy_of_shared_state_counts() {
        let ms = bound_check_mutants(RING, &[13]);
        assert_eq!(ms.len(), 1, "{ms:?}");
        assert_eq!((ms[0].mutant.line, ms[0].mutant.to.as_str()), (13, "<="));
    }

    #[test]
    fn a_test_that_chooses_between_two_branches_counts() {
        let text = "int active;\nint enter(void)\n{\n  int ok = 0;\n  if (active <= 2) {\n    active++;\n    ok = 1;\n  } else {\n    ok = 0;\n  }\n  if (active > 1)\n    ok = 2;\n  return ok;\n}\n";
        let ms = bound_check_mutants(text, &[5, 11]);
        assert_eq!(ms.len(), 1, "{ms:?}");
        assert_eq!((ms[0].mutant.line, ms[0].mutant.to.as_str()), (5, "<"));
    }

    #[test]
    fn a_block_that_ends_by_leaving_counts_and_a_global_is_shared() {
        let text = "int used;\nint take(void)\n{\n  for (int i = 0; i < 3; i++) {\n    if (used >= 4) {\n      used = 4;\n      break;\n    }\n    used++;\n  }\n  return used;\n}\n";
        let ms = bound_check_mutants(text, &[5]);
        assert_eq!(ms.len(), 1, "{ms:?}");
        assert_eq!(ms[0].mutant.to, ">");
    }
}
