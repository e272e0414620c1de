//! The mutants of one source line: the classic one-token operators of mutation testing
//! (relational operator replacement with the nearest one, arithmetic `+`/`-`, `*`/`/` and
//! `+`/`*`, compound assignments and increments turned around, an integer constant off by
//! one),
//! inside function bodies and in the start values of file-scope declarations.
//!
//! What is never mutated is what the program's correctness is judged by or what only
//! the environment decides: a statement that states the property (an assertion, an error
//! call, or a condition guarding one), a nondeterministic input, a statement that creates
//! threads (a creation loop run once less has less work that can fail, not a correct
//! one), the arguments of a pthread call, and array sizes (`int a[3]`: the object itself).

use tree_sitter::Node;

/// One token of the text replaced.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Mutant {
    pub line: u32,
    /// Column of the token (from 1, in bytes).
    pub column: u32,
    /// Byte range of the token in the text.
    pub start: usize,
    pub end: usize,
    pub from: String,
    pub to: String,
}

impl Mutant {
    /// The replacement of node `tok`'s text by `to`.
    pub fn of_node(text: &str, tok: Node, to: String) -> Mutant {
        Mutant {
            line: tok.start_position().row as u32 + 1,
            column: tok.start_position().column as u32 + 1,
            start: tok.start_byte(),
            end: tok.end_byte(),
            from: text_of(text, tok).to_string(),
            to,
        }
    }

    /// The text with this token replaced.
    pub fn apply(&self, text: &str) -> Option<String> {
        let (before, after) = (text.get(..self.start)?, text.get(self.end..)?);
        Some(format!("{before}{}{after}", self.to))
    }
}

/// The nearest replacements of a relational operator: its off-by-one or its inversion
/// (the repair's value actions propose the same ones).
pub fn nearest_relop(op: &str) -> &'static [&'static str] {
    match op {
        "<" => &["<="],
        "<=" => &["<"],
        ">" => &[">="],
        ">=" => &[">"],
        "==" => &["!="],
        "!=" => &["=="],
        _ => &[],
    }
}

/// The nearest replacements of an operator token.
fn replacements(op: &str) -> &'static [&'static str] {
    match op {
        "<" | "<=" | ">" | ">=" | "==" | "!=" => nearest_relop(op),
        // `*` for `+` and back: a sum written for a square (`v + v` for `v * v`) is the
        // classic arithmetic-operator slip beside the sign.
        "+" => &["-", "*"],
        "-" => &["+"],
        "*" => &["/", "+"],
        "/" => &["*"],
        "+=" => &["-="],
        "-=" => &["+="],
        "++" => &["--"],
        "--" => &["++"],
        _ => &[],
    }
}

fn is_check_call(name: &str) -> bool {
    matches!(
        name,
        "assert" | "__VERIFIER_assert" | "reach_error" | "abort" | "__VERIFIER_error"
    ) || name.starts_with("__assert")
        || name.starts_with("__ESBMC_assert")
        || name.starts_with("__CPROVER_assert")
}

pub(super) use crate::frontend::syntax_check::text_of;

/// Calls `visit` on every node of `text`'s syntax tree, in the order of the text; nothing
/// when it does not parse.
pub(super) fn each_node(text: &str, visit: impl FnMut(Node)) {
    let Ok(tree) = crate::frontend::syntax_check::parse_c(text) else {
        return;
    };
    crate::frontend::syntax_check::each_descendant(tree.root_node(), visit);
}

/// Calls `visit` with every `while` and `do` loop of `text`, its test and its body, in
/// the order of the text.
pub(super) fn each_loop(text: &str, mut visit: impl FnMut(Node, Node, Node)) {
    each_node(text, |n| {
        if !matches!(n.kind(), "while_statement" | "do_statement") {
            return;
        }
        if let (Some(test), Some(body)) = (
            n.child_by_field_name("condition"),
            n.child_by_field_name("body"),
        ) {
            visit(n, test, body);
        }
    });
}

/// Whether `n`'s subtree calls a function whose name `pred` accepts.
pub(super) fn calls(text: &str, n: Node, pred: &dyn Fn(&str) -> bool) -> bool {
    if n.kind() == "call_expression"
        && n.child_by_field_name("function")
            .is_some_and(|f| pred(text_of(text, f)))
    {
        return true;
    }
    let mut cursor = n.walk();
    let children: Vec<Node> = n.children(&mut cursor).collect();
    children.into_iter().any(|c| calls(text, c, pred))
}

/// Every mutant of line `line` (from 1) of `text`, in the order of the text.
pub fn mutants_at(text: &str, line: u32) -> Vec<Mutant> {
    let Ok(tree) = crate::frontend::syntax_check::parse_c(text) else {
        return vec![];
    };
    let mut out = Vec::new();
    let row = line.saturating_sub(1) as usize;
    let mut cursor = tree.root_node().walk();
    let items: Vec<Node> = tree.root_node().named_children(&mut cursor).collect();
    for item in items {
        if item.start_position().row > row || item.end_position().row < row {
            continue;
        }
        match item.kind() {
            "function_definition" => {
                if let Some(body) = item.child_by_field_name("body") {
                    walk(text, body, row, &mut out);
                }
            }
            // A global's start value (`int pending = 3;`): the initializers only, never
            // the declarator (an array's size is the object itself).
            "declaration" => {
                let mut cursor = item.walk();
                let inits: Vec<Node> = item
                    .children_by_field_name("declarator", &mut cursor)
                    .filter(|d| d.kind() == "init_declarator")
                    .filter_map(|d| d.child_by_field_name("value"))
                    .collect();
                for value in inits {
                    walk(text, value, row, &mut out);
                }
            }
            _ => {}
        }
    }
    out
}

/// The lines (from 1) of file-scope declarations that give a start value, with the
/// names they declare there: `int pending = 3, seen;` → (line, ["pending"]).
pub fn start_value_lines(text: &str) -> Vec<(u32, Vec<String>)> {
    let Ok(tree) = crate::frontend::syntax_check::parse_c(text) else {
        return vec![];
    };
    let mut out: Vec<(u32, Vec<String>)> = Vec::new();
    let mut cursor = tree.root_node().walk();
    let items: Vec<Node> = tree.root_node().named_children(&mut cursor).collect();
    for item in items.into_iter().filter(|i| i.kind() == "declaration") {
        let mut cursor = item.walk();
        for d in item.children_by_field_name("declarator", &mut cursor) {
            let (Some(id), Some(value)) = (
                d.child_by_field_name("declarator"),
                d.child_by_field_name("value"),
            ) else {
                continue;
            };
            if d.kind() != "init_declarator" || id.kind() != "identifier" {
                continue;
            }
            let line = value.start_position().row as u32 + 1;
            let name = text_of(text, id).to_string();
            match out.iter_mut().find(|(l, _)| *l == line) {
                Some((_, names)) => names.push(name),
                None => out.push((line, vec![name])),
            }
        }
    }
    out
}

fn walk(text: &str, n: Node, row: usize, out: &mut Vec<Mutant>) {
    if n.start_position().row > row || n.end_position().row < row || excluded(text, n) {
        return;
    }
    if n.start_position().row == row {
        token_mutants(text, n, out);
    }
    let header = frozen_header(text, n);
    let mut cursor = n.walk();
    let children: Vec<(Option<&str>, Node)> = n
        .children(&mut cursor)
        .enumerate()
        .map(|(i, c)| (n.field_name_for_child(i as u32), c))
        .collect();
    for (field, c) in children {
        if field.is_some_and(|f| header.contains(&f)) {
            continue;
        }
        walk(text, c, row, out);
    }
}

/// The parts of a control statement that are not mutated while the rest is: an `if`
/// that only guards a check (`if (x != 3) reach_error();`: the property) keeps its
/// condition and that branch, and the header of a loop whose body creates threads (run once less, it
/// has less work that can fail, not a correct one) or only checks (`for (i = 0; i < n; i++)
/// assert(a[i] == i);`: run less, it checks less — the property, not the program).
fn frozen_header(text: &str, n: Node) -> &'static [&'static str] {
    match n.kind() {
        "if_statement"
            if n.child_by_field_name("consequence")
                .is_some_and(|c| only_checks(text, c)) =>
        {
            &["condition", "consequence"]
        }
        "for_statement" | "while_statement" | "do_statement"
            if n.child_by_field_name("body").is_some_and(|b| {
                calls(text, b, &|name| name == "pthread_create") || only_checks(text, b)
            }) =>
        {
            &["initializer", "condition", "update"]
        }
        _ => &[],
    }
}

/// A branch that does nothing but report the failure: check calls, `abort`, a label
/// such as `ERROR:`, a `return`.
fn only_checks(text: &str, n: Node) -> bool {
    match n.kind() {
        "compound_statement" => {
            let mut cursor = n.walk();
            let stmts: Vec<Node> = n
                .named_children(&mut cursor)
                .filter(|c| c.kind() != "comment")
                .collect();
            !stmts.is_empty()
                && stmts.iter().any(|s| calls(text, *s, &is_check_call))
                && stmts
                    .iter()
                    .all(|s| only_checks(text, *s) || s.kind() == "return_statement")
        }
        "labeled_statement" => {
            let mut cursor = n.walk();
            let inner: Vec<Node> = n.named_children(&mut cursor).collect();
            inner
                .iter()
                .any(|c| c.kind() != "statement_identifier" && only_checks(text, *c))
        }
        "expression_statement" => calls(text, n, &is_check_call),
        _ => false,
    }
}

/// A subtree none of whose tokens is mutated (see the module comment).
fn excluded(text: &str, n: Node) -> bool {
    match n.kind() {
        "array_declarator" | "sizeof_expression" | "preproc_def" | "preproc_function_def" => {
            return true;
        }
        "call_expression" => {
            let name = n
                .child_by_field_name("function")
                .map_or("", |f| text_of(text, f));
            if name.starts_with("pthread_")
                || name.starts_with("sem_")
                || name.contains("nondet")
                || is_check_call(name)
            {
                return true;
            }
        }
        _ => {}
    }
    // A plain statement that checks is the property itself; one that creates threads or
    // reads an input is left whole. Control statements are decided by their parts
    // (`frozen_header`), their bodies' statements each on its own.
    match n.kind() {
        "expression_statement" | "declaration" | "return_statement" => calls(text, n, &|name| {
            name == "pthread_create" || name.contains("nondet") || is_check_call(name)
        }),
        _ => false,
    }
}

fn token_mutants(text: &str, n: Node, out: &mut Vec<Mutant>) {
    let mut push = |tok: Node, to: String| out.push(Mutant::of_node(text, tok, to));
    match n.kind() {
        "binary_expression" | "assignment_expression" | "update_expression" => {
            if let Some(op) = n.child_by_field_name("operator") {
                for r in replacements(text_of(text, op)) {
                    push(op, (*r).to_string());
                }
            }
        }
        "number_literal" => {
            let t = text_of(text, n);
            // Decimal integers without a suffix only: `0x10`, `1.5`, `10u` stay. The
            // grammar reads a sign into the literal (`x = -50;`); a literal without
            // one is not made negative (`-1` would read as a new operator).
            if let Ok(v) = t.parse::<i64>() {
                for w in [v.saturating_sub(1), v.saturating_add(1)] {
                    if w != v && (w >= 0 || v < 0) {
                        push(n, w.to_string());
                    }
                }
            }
        }
        _ => {}
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const PROG: &str = r#"#include <pthread.h>
#include <assert.h>
int hist[3], total;
void *count(void *arg) {
  int i, b;
  for (i = 0; i < 4; i++) {
    b = i % 4;
    total += 1;
  }
  return 0;
}
int main(void) {
  pthread_t t[2];
  int k;
  for (k = 0; k < 2; k++)
    pthread_create(&t[k], 0, count, 0);
  if (total != 8) reach_error();
  assert(total == 8);
  k = __VERIFIER_nondet_int() + 1;
  if (k > 0) {
    k = k + 1;
    assert(k > 1);
  }
  for (k = 0; k < 2; k++) {
    hist[k] = k + 1;
    pthread_create(&t[k], 0, count, 0);
  }
  if (k == 2) { ERROR: reach_error(); return 1; }
  return 0;
}
"#;

    fn texts(line: u32) -> Vec<String> {
        mutants_at(PROG, line)
            .iter()
            .map(|m| format!("{}->{}", m.from, m.to))
            .collect()
    }

    #[test]
    fn operators_and_constants_of_a_line() {
        assert_eq!(
            texts(6),
            ["0->1", "<-><=", "4->3", "4->5", "++->--"],
            "the loop header"
        );
        assert_eq!(texts(7), ["4->3", "4->5"]);
        assert_eq!(texts(8), ["+=->-=", "1->0", "1->2"]);
        let m = &mutants_at(PROG, 8)[0];
        let t = m.apply(PROG).expect("applies");
        assert!(t.contains("total -= 1;"), "{t}");
        assert_eq!((m.line, m.column), (8, 11));
    }

    #[test]
    fn never_the_property_a_thread_count_an_input_or_an_object_size() {
        assert!(texts(3).is_empty(), "a global without a start value");
        assert!(texts(13).is_empty(), "an array size");
        assert!(texts(15).is_empty(), "a loop that creates threads");
        assert!(texts(16).is_empty(), "pthread_create's arguments");
        assert!(texts(17).is_empty(), "a condition guarding an error call");
        assert!(texts(18).is_empty(), "an assertion");
        assert!(texts(19).is_empty(), "a nondeterministic input");
        assert!(texts(28).is_empty(), "a condition guarding only a check");
        assert!(texts(24).is_empty(), "the header of a creation loop");
        let checks = "int a[4];\nint main(void) {\n  int i;\n  for (i = 0; i < 4; i++)\n    assert(a[i] == i);\n  return 0;\n}\n";
        assert!(mutants_at(checks, 4).is_empty(), "a loop that only checks");
    }

    #[test]
    fn a_global_start_value_is_mutated_not_its_size() {
        let g = "#define N 2\nint pending = 3, seen;\nint a[4] = {1, 2};\nint *p = 0;\nint main(void) {\n  return 0;\n}\n";
        let at = |line| -> Vec<String> {
            mutants_at(g, line)
                .iter()
                .map(|m| format!("{}->{}", m.from, m.to))
                .collect()
        };
        assert!(at(1).is_empty(), "a macro");
        assert_eq!(at(2), ["3->2", "3->4"]);
        assert_eq!(
            at(3),
            ["1->0", "1->2", "2->1", "2->3"],
            "the items, not the size"
        );
        assert_eq!(at(4), ["0->1"]);
    }

    #[test]
    fn the_bodies_of_checking_branches_and_creation_loops_are_mutated() {
        assert_eq!(
            texts(20),
            [">->>=", "0->1"],
            "the branch does more than check"
        );
        assert_eq!(texts(21), ["+->-", "+->*", "1->0", "1->2"]);
        assert!(texts(22).is_empty(), "the assertion inside it");
        assert_eq!(
            texts(25),
            ["+->-", "+->*", "1->0", "1->2"],
            "a creation loop's body"
        );
        let neg = "int x;\nint main(void) {\n  x = -50;\n  return 0;\n}\n";
        let m: Vec<String> = mutants_at(neg, 3).iter().map(|m| m.to.clone()).collect();
        assert_eq!(m, ["-51", "-49"], "a negative literal moves both ways");
    }
}
