//! The user's source text as statements and blocks (tree-sitter), so that a repair is
//! written into the file the user wrote, keeping its formatting and comments, rather than
//! into the IR's printout.
//!
//! Only what the repairs need is kept: each statement that is a child of a block or the
//! body of a control statement, its byte range and lines, its function, the call it makes
//! when it is a call statement, and the identifiers it reads and writes (textually, to
//! tell whether two statements may swap).

use std::collections::BTreeSet;

use super::RepairError;

/// A statement of a function body.
#[derive(Clone, Debug)]
pub struct Stmt {
    pub kind: String,
    pub start: usize,
    pub end: usize,
    pub first_line: u32,
    pub last_line: u32,
    /// The block (`{ … }`) it is a direct child of; `None` for the body of an `if` or a
    /// loop written without braces.
    pub block: Option<usize>,
    /// The statement it is nested in.
    pub parent: Option<usize>,
    pub function: String,
    /// `name(args);`: the called function and its arguments' text.
    pub call: Option<Call>,
    /// Contains a `return`, `goto`, or a `break`/`continue` that leaves it.
    pub jumps: bool,
    /// Mentions an assertion, assumption or error call: never moved.
    pub checks: bool,
    /// Calls a function other than the pthread and SV-COMP ones (its effects are unknown
    /// here).
    pub calls_user: bool,
    /// Identifiers mentioned, and those written (assigned, incremented, passed by address,
    /// declared).
    pub idents: BTreeSet<String>,
    pub writes: BTreeSet<String>,
    /// For a control statement: the parts of its condition a value repair may change.
    pub condition: Vec<CondPart>,
    /// For a counting `for` loop (`v = …; v < bound; v++`).
    pub counting: Option<Counting>,
}

/// A relational operator of a condition (`<`, `!=`, …), or a `± 1` term (`n - 1`) in one:
/// the two places an off-by-one or an inverted test is written.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct CondPart {
    pub start: usize,
    pub end: usize,
    /// The operator, or the whole `x ± 1` term.
    pub text: String,
    /// For a `± 1` term: its other operand's text.
    pub without_one: Option<String>,
}

/// `for (v = 0; v < bound; v++)`: a loop that counts `v` from zero to `bound`.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Counting {
    pub var: String,
    pub bound: String,
    /// `v` is declared in the loop's own header (`for (int v = 0; …)`).
    pub declared_here: bool,
    /// Byte offset just after the header's closing parenthesis.
    pub header_end: usize,
}

/// A local variable declared in a function body.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Local {
    pub function: String,
    pub name: String,
    /// The declaration's type, as written (`int`, `unsigned long`).
    pub ty: String,
    /// The declaration statement.
    pub stmt: usize,
}

#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Call {
    pub name: String,
    pub args: Vec<String>,
}

/// The program's atomic sections (`__VERIFIER_atomic_begin()` … `__VERIFIER_atomic_end()`)
/// taken as one more mutex of the program, by this name: they pair up, nest and widen
/// like a mutex's sections, and where a program already uses them a repair does too (a
/// stronger section than a mutex's: no other thread runs inside it, locked or not).
pub const ATOMIC: &str = "__VERIFIER_atomic";

/// The statements that take and release `m` (see [`ATOMIC`]).
pub fn lock_calls(m: &str) -> (String, String) {
    if m == ATOMIC {
        (
            "__VERIFIER_atomic_begin();".to_string(),
            "__VERIFIER_atomic_end();".to_string(),
        )
    } else {
        (
            format!("pthread_mutex_lock(&{m});"),
            format!("pthread_mutex_unlock(&{m});"),
        )
    }
}

impl Call {
    /// The mutex of `pthread_mutex_lock(&m)`/`pthread_mutex_unlock(&m)`, as written without
    /// the `&`: `m`, `acc->lock`; [`ATOMIC`] for an atomic section's begin and end.
    pub fn mutex(&self) -> Option<(&'static str, String)> {
        match self.name.as_str() {
            "__VERIFIER_atomic_begin" => return Some(("lock", ATOMIC.to_string())),
            "__VERIFIER_atomic_end" => return Some(("unlock", ATOMIC.to_string())),
            _ => {}
        }
        let op = match self.name.as_str() {
            "pthread_mutex_lock" => "lock",
            "pthread_mutex_unlock" => "unlock",
            _ => return None,
        };
        let arg = self.args.first()?.trim();
        let m = arg.strip_prefix('&')?.trim();
        Some((op, m.to_string()))
    }
}

/// A `{ … }` block of a function body, its statements in order.
#[derive(Clone, Debug)]
pub struct Block {
    pub stmts: Vec<usize>,
    /// The statement the block is (a compound statement), when it is nested in one.
    pub stmt: Option<usize>,
}

/// The parsed file.
#[derive(Debug)]
pub struct Source {
    pub text: String,
    pub stmts: Vec<Stmt>,
    pub blocks: Vec<Block>,
    /// Byte offset just after the last top-level `#include` line (0 when none).
    pub includes_end: usize,
    /// Every identifier of the file (new names must not collide).
    pub idents: BTreeSet<String>,
    /// Top-level `pthread_mutex_t` variables declared with a plain name.
    pub global_mutexes: Vec<String>,
    pub includes_pthread: bool,
    /// The program writes atomic sections (`__VERIFIER_atomic_begin`): a repair may too.
    pub atomic_sections: bool,
    /// Local variables declared with a plain name (not arrays or pointers).
    pub locals: Vec<Local>,
}

/// Calls whose effect the repairs know: they read and write only their arguments.
fn known_call(name: &str) -> bool {
    name.starts_with("pthread_")
        || name.starts_with("__VERIFIER_")
        || matches!(name, "assert" | "printf" | "puts" | "usleep" | "sleep")
}

fn is_check_call(name: &str) -> bool {
    matches!(
        name,
        "assert" | "__VERIFIER_assert" | "__VERIFIER_assume" | "reach_error" | "abort"
    ) || name.starts_with("__assert")
}

impl Source {
    pub fn parse(text: &str) -> Result<Source, RepairError> {
        let tree = crate::frontend::syntax_check::parse_c(text).map_err(RepairError::Source)?;
        let mut s = Source {
            text: text.to_string(),
            stmts: vec![],
            blocks: vec![],
            includes_end: 0,
            idents: BTreeSet::new(),
            global_mutexes: vec![],
            includes_pthread: false,
            atomic_sections: false,
            locals: vec![],
        };
        let root = tree.root_node();
        let mut cursor = root.walk();
        for item in root.named_children(&mut cursor) {
            match item.kind() {
                "preproc_include" => {
                    s.includes_end = item.end_byte();
                    if node_text(text, item).contains("pthread.h") {
                        s.includes_pthread = true;
                    }
                }
                "declaration" => {
                    let t = node_text(text, item);
                    if t.contains("pthread_mutex_t") {
                        s.global_mutexes.extend(declared_names(text, item));
                    }
                }
                "function_definition" => {
                    let name = item
                        .child_by_field_name("declarator")
                        .and_then(|d| function_name(text, d))
                        .unwrap_or_default();
                    if let Some(body) = item.child_by_field_name("body") {
                        s.block(text, body, None, &name);
                    }
                }
                _ => {}
            }
        }
        collect_idents(text, root, &mut s.idents);
        s.atomic_sections = s.stmts.iter().any(|st| {
            st.call
                .as_ref()
                .is_some_and(|c| c.name == "__VERIFIER_atomic_begin")
        });
        // `#include` lines end at their newline, which tree-sitter counts in the node.
        if s.includes_end > 0 && !text[..s.includes_end].ends_with('\n') {
            s.includes_end = text[s.includes_end..]
                .find('\n')
                .map_or(text.len(), |i| s.includes_end + i + 1);
        }
        Ok(s)
    }

    fn block(
        &mut self,
        text: &str,
        node: tree_sitter::Node,
        stmt: Option<usize>,
        func: &str,
    ) -> usize {
        let id = self.blocks.len();
        self.blocks.push(Block {
            stmts: vec![],
            stmt,
        });
        let mut cursor = node.walk();
        let children: Vec<_> = node.named_children(&mut cursor).collect();
        for child in children {
            if child.kind() == "comment" {
                continue;
            }
            let sid = self.statement(text, child, Some(id), stmt, func);
            if let Some(b) = self.blocks.get_mut(id) {
                b.stmts.push(sid);
            }
        }
        id
    }

    fn statement(
        &mut self,
        text: &str,
        node: tree_sitter::Node,
        block: Option<usize>,
        parent: Option<usize>,
        func: &str,
    ) -> usize {
        let id = self.stmts.len();
        let mut idents = BTreeSet::new();
        collect_idents(text, node, &mut idents);
        let mut writes = BTreeSet::new();
        collect_writes(text, node, &mut writes);
        let mut facts = Facts::default();
        scan(text, node, 0, &mut facts);
        let mut condition = vec![];
        if let Some(c) = node.child_by_field_name("condition") {
            condition_parts(text, c, &mut condition);
        }
        if node.kind() == "declaration" {
            self.locals.extend(plain_locals(text, node, func, id));
        }
        self.stmts.push(Stmt {
            kind: node.kind().to_string(),
            start: node.start_byte(),
            end: node.end_byte(),
            first_line: node.start_position().row as u32 + 1,
            last_line: node.end_position().row as u32 + 1,
            block,
            parent,
            function: func.to_string(),
            call: call_of(text, node),
            jumps: facts.jumps,
            checks: facts.checks,
            calls_user: facts.calls_user,
            idents,
            writes,
            condition,
            counting: counting(text, node),
        });
        // Nested statements: the bodies of control statements and nested blocks.
        let mut cursor = node.walk();
        let children: Vec<_> = node.named_children(&mut cursor).collect();
        for child in children {
            match child.kind() {
                "compound_statement" => {
                    self.block(text, child, Some(id), func);
                }
                // Their statements belong to the enclosing `if` or `switch`.
                "else_clause" | "case_statement" => {
                    let mut c2 = child.walk();
                    let inner: Vec<_> = child.named_children(&mut c2).collect();
                    for n in inner {
                        self.nested(text, n, id, func);
                    }
                }
                k if is_statement(k) => {
                    self.statement(text, child, None, Some(id), func);
                }
                _ => {}
            }
        }
        id
    }

    fn nested(&mut self, text: &str, n: tree_sitter::Node, parent: usize, func: &str) {
        if n.kind() == "compound_statement" {
            self.block(text, n, Some(parent), func);
        } else if is_statement(n.kind()) {
            self.statement(text, n, None, Some(parent), func);
        }
    }

    /// The innermost statement that covers `line` and is a child of a block, skipping
    /// compound statements themselves.
    pub fn statement_at(&self, line: u32) -> Option<usize> {
        self.stmts
            .iter()
            .enumerate()
            .filter(|(_, s)| {
                s.first_line <= line
                    && line <= s.last_line
                    && s.kind != "compound_statement"
                    && s.block.is_some()
            })
            .min_by_key(|(_, s)| (s.last_line - s.first_line, s.end - s.start))
            .map(|(i, _)| i)
    }

    /// The statement that is a child of block `b` and contains statement `s` (`s` itself
    /// when it is one).
    pub fn child_of_block(&self, b: usize, s: usize) -> Option<usize> {
        let mut cur = Some(s);
        while let Some(c) = cur {
            let st = self.stmts.get(c)?;
            if st.block == Some(b) {
                return Some(c);
            }
            cur = st.parent;
        }
        None
    }

    /// The blocks that contain statement `s`, innermost first.
    pub fn enclosing_blocks(&self, s: usize) -> Vec<usize> {
        let mut out = vec![];
        let mut cur = Some(s);
        while let Some(c) = cur {
            let Some(st) = self.stmts.get(c) else { break };
            if let Some(b) = st.block {
                out.push(b);
            }
            cur = st.parent;
        }
        out
    }

    /// Statement `s`'s position in its block.
    pub fn position(&self, s: usize) -> Option<(usize, usize)> {
        let b = self.stmts.get(s)?.block?;
        let i = self.blocks.get(b)?.stmts.iter().position(|&x| x == s)?;
        Some((b, i))
    }

    /// Every statement nested in `s`, itself included.
    pub fn within(&self, s: usize) -> Vec<usize> {
        let Some(st) = self.stmts.get(s) else {
            return vec![];
        };
        self.stmts
            .iter()
            .enumerate()
            .filter(|(_, x)| x.start >= st.start && x.end <= st.end)
            .map(|(i, _)| i)
            .collect()
    }

    /// The byte range of the whole lines statement `s` occupies, when nothing else is on
    /// them; `None` when it shares a line with other code.
    pub fn own_lines(&self, s: usize) -> Option<(usize, usize)> {
        let st = self.stmts.get(s)?;
        let line_start = self.text[..st.start].rfind('\n').map_or(0, |i| i + 1);
        if !self.text[line_start..st.start].trim().is_empty() {
            return None;
        }
        let rest = &self.text[st.end..];
        let nl = rest.find('\n').map_or(self.text.len(), |i| st.end + i + 1);
        let tail = self.text[st.end..nl].trim();
        if !(tail.is_empty() || tail.starts_with("//")) {
            return None;
        }
        Some((line_start, nl))
    }

    /// The indentation of the line statement `s` starts on.
    pub fn indent(&self, s: usize) -> String {
        let Some(st) = self.stmts.get(s) else {
            return String::new();
        };
        let line_start = self.text[..st.start].rfind('\n').map_or(0, |i| i + 1);
        self.text[line_start..st.start]
            .chars()
            .take_while(|c| c.is_whitespace())
            .collect()
    }

    pub fn text_of(&self, s: usize) -> &str {
        self.stmts
            .get(s)
            .and_then(|st| self.text.get(st.start..st.end))
            .unwrap_or("")
    }

    /// A name for a new variable that the file does not use.
    pub fn fresh_name(&self, base: &str) -> String {
        if !self.idents.contains(base) {
            return base.to_string();
        }
        (2..)
            .map(|i| format!("{base}_{i}"))
            .find(|n| !self.idents.contains(n))
            .unwrap_or_else(|| base.to_string())
    }
}

fn is_statement(kind: &str) -> bool {
    kind.ends_with("_statement") || kind == "declaration"
}

fn node_text<'t>(text: &'t str, n: tree_sitter::Node) -> &'t str {
    text.get(n.start_byte()..n.end_byte()).unwrap_or("")
}

fn function_name(text: &str, d: tree_sitter::Node) -> Option<String> {
    let mut cur = d;
    loop {
        if cur.kind() == "identifier" {
            return Some(node_text(text, cur).to_string());
        }
        cur = cur.child_by_field_name("declarator")?;
    }
}

fn declared_names(text: &str, decl: tree_sitter::Node) -> Vec<String> {
    let mut out = vec![];
    let mut cursor = decl.walk();
    for d in decl.children_by_field_name("declarator", &mut cursor) {
        let mut cur = d;
        loop {
            if cur.kind() == "identifier" {
                out.push(node_text(text, cur).to_string());
                break;
            }
            match cur.child_by_field_name("declarator") {
                Some(n) => cur = n,
                None => break,
            }
        }
    }
    out
}

fn call_of(text: &str, node: tree_sitter::Node) -> Option<Call> {
    if node.kind() != "expression_statement" {
        return None;
    }
    let e = node.named_child(0)?;
    if e.kind() != "call_expression" {
        return None;
    }
    let f = e.child_by_field_name("function")?;
    if f.kind() != "identifier" {
        return None;
    }
    let args = e.child_by_field_name("arguments")?;
    let mut cursor = args.walk();
    let args = args
        .named_children(&mut cursor)
        .filter(|a| a.kind() != "comment")
        .map(|a| node_text(text, a).to_string())
        .collect();
    Some(Call {
        name: node_text(text, f).to_string(),
        args,
    })
}

fn collect_idents(text: &str, n: tree_sitter::Node, out: &mut BTreeSet<String>) {
    if matches!(
        n.kind(),
        "identifier" | "field_identifier" | "type_identifier"
    ) {
        out.insert(node_text(text, n).to_string());
    }
    let mut cursor = n.walk();
    for c in n.children(&mut cursor) {
        collect_idents(text, c, out);
    }
}

/// The base variable of an lvalue: `a` of `a[i].f`, `p` of `*p` (so writes through a
/// pointer count as writes of the pointer's name: conservative for the swap check,
/// together with the reads of every identifier).
fn base_ident(text: &str, n: tree_sitter::Node) -> Option<String> {
    match n.kind() {
        "identifier" => Some(node_text(text, n).to_string()),
        "field_expression"
        | "subscript_expression"
        | "pointer_expression"
        | "parenthesized_expression" => {
            let inner = n
                .child_by_field_name("argument")
                .or_else(|| n.named_child(0))?;
            base_ident(text, inner)
        }
        _ => None,
    }
}

fn collect_writes(text: &str, n: tree_sitter::Node, out: &mut BTreeSet<String>) {
    match n.kind() {
        "assignment_expression" => {
            if let Some(l) = n
                .child_by_field_name("left")
                .and_then(|l| base_ident(text, l))
            {
                out.insert(l);
            }
        }
        "update_expression" => {
            if let Some(l) = n
                .child_by_field_name("argument")
                .and_then(|l| base_ident(text, l))
            {
                out.insert(l);
            }
        }
        "pointer_expression" if node_text(text, n).starts_with('&') => {
            if let Some(l) = n
                .child_by_field_name("argument")
                .and_then(|l| base_ident(text, l))
            {
                out.insert(l);
            }
        }
        "init_declarator" => {
            if let Some(d) = n.child_by_field_name("declarator") {
                let mut names = BTreeSet::new();
                collect_idents(text, d, &mut names);
                out.extend(names);
            }
        }
        "declaration" => {
            out.extend(declared_names(text, n));
        }
        _ => {}
    }
    let mut cursor = n.walk();
    for c in n.children(&mut cursor) {
        collect_writes(text, c, out);
    }
}

fn condition_parts(text: &str, n: tree_sitter::Node, out: &mut Vec<CondPart>) {
    if n.kind() == "binary_expression" {
        if let Some(op) = n.child_by_field_name("operator") {
            let o = node_text(text, op);
            if matches!(o, "<" | "<=" | ">" | ">=" | "==" | "!=") {
                out.push(CondPart {
                    start: op.start_byte(),
                    end: op.end_byte(),
                    text: o.to_string(),
                    without_one: None,
                });
            }
            let one = n
                .child_by_field_name("right")
                .is_some_and(|r| r.kind() == "number_literal" && node_text(text, r) == "1");
            if matches!(o, "+" | "-") && one {
                if let Some(l) = n.child_by_field_name("left") {
                    out.push(CondPart {
                        start: n.start_byte(),
                        end: n.end_byte(),
                        text: node_text(text, n).to_string(),
                        without_one: Some(node_text(text, l).to_string()),
                    });
                }
            }
        }
    }
    // A call's arguments are the callee's business, not the condition's.
    if n.kind() == "call_expression" {
        return;
    }
    let mut cursor = n.walk();
    for c in n.named_children(&mut cursor) {
        condition_parts(text, c, out);
    }
}

/// `for (v = 0; v < bound; v++)` (or `int v = 0`, `++v`, `v += 1`).
fn counting(text: &str, n: tree_sitter::Node) -> Option<Counting> {
    if n.kind() != "for_statement" {
        return None;
    }
    let init = n.child_by_field_name("initializer")?;
    let (var, declared_here) = match init.kind() {
        "assignment_expression" => {
            let l = init.child_by_field_name("left")?;
            let r = init.child_by_field_name("right")?;
            (l.kind() == "identifier" && node_text(text, r) == "0")
                .then(|| (node_text(text, l).to_string(), false))?
        }
        "declaration" => {
            let d = init.child_by_field_name("declarator")?;
            let name = d.child_by_field_name("declarator")?;
            let value = d.child_by_field_name("value")?;
            (d.kind() == "init_declarator"
                && name.kind() == "identifier"
                && node_text(text, value) == "0")
                .then(|| (node_text(text, name).to_string(), true))?
        }
        _ => return None,
    };
    let cond = n.child_by_field_name("condition")?;
    let left = cond.child_by_field_name("left")?;
    let op = cond.child_by_field_name("operator")?;
    let bound = cond.child_by_field_name("right")?;
    if cond.kind() != "binary_expression"
        || node_text(text, left) != var
        || node_text(text, op) != "<"
    {
        return None;
    }
    let update = n.child_by_field_name("update")?;
    let u = node_text(text, update).replace(' ', "");
    if ![
        format!("{var}++"),
        format!("++{var}"),
        format!("{var}+=1"),
        format!("{var}={var}+1"),
    ]
    .contains(&u)
    {
        return None;
    }
    let body = n.child_by_field_name("body")?;
    let header = text.get(n.start_byte()..body.start_byte())?;
    Some(Counting {
        var,
        bound: node_text(text, bound).to_string(),
        declared_here,
        header_end: n.start_byte() + header.trim_end().len(),
    })
}

/// The plainly declared names of a declaration (`int i, k = 0;`), with its type.
fn plain_locals(text: &str, decl: tree_sitter::Node, func: &str, stmt: usize) -> Vec<Local> {
    let Some(ty) = decl.child_by_field_name("type") else {
        return vec![];
    };
    let mut cursor = decl.walk();
    decl.children_by_field_name("declarator", &mut cursor)
        .filter_map(|d| {
            let name = match d.kind() {
                "identifier" => d,
                "init_declarator" => d.child_by_field_name("declarator")?,
                _ => return None,
            };
            (name.kind() == "identifier").then(|| Local {
                function: func.to_string(),
                name: node_text(text, name).to_string(),
                ty: node_text(text, ty).to_string(),
                stmt,
            })
        })
        .collect()
}

#[derive(Default)]
struct Facts {
    jumps: bool,
    checks: bool,
    calls_user: bool,
}

/// `loops`: how many loops or switches around `n` lie inside the statement scanned, so a
/// `break` inside them stays inside.
fn scan(text: &str, n: tree_sitter::Node, loops: u32, f: &mut Facts) {
    match n.kind() {
        "return_statement" | "goto_statement" => f.jumps = true,
        "break_statement" | "continue_statement" if loops == 0 => f.jumps = true,
        "call_expression" => {
            if let Some(name) = n.child_by_field_name("function") {
                let name = node_text(text, name);
                if is_check_call(name) {
                    f.checks = true;
                }
                if !known_call(name) {
                    f.calls_user = true;
                }
            }
        }
        _ => {}
    }
    let inner = loops
        + u32::from(matches!(
            n.kind(),
            "for_statement" | "while_statement" | "do_statement" | "switch_statement"
        ));
    let mut cursor = n.walk();
    for c in n.children(&mut cursor) {
        scan(text, c, inner, f);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const PROG: &str = r#"#include <pthread.h>
pthread_mutex_t m = PTHREAD_MUTEX_INITIALIZER;
int x;
void *t(void *a) {
  int seen = x;
  if (seen > 0) {
    pthread_mutex_lock(&m);
    x = seen - 1;
    pthread_mutex_unlock(&m);
  }
  return 0;
}
"#;

    #[test]
    fn statements_blocks_and_calls() {
        let s = Source::parse(PROG).expect("parses");
        assert_eq!(s.global_mutexes, vec!["m".to_string()]);
        assert!(s.includes_pthread);
        assert_eq!(&s.text[..s.includes_end], "#include <pthread.h>\n");
        let at8 = s.statement_at(8).expect("line 8");
        assert_eq!(s.text_of(at8), "x = seen - 1;");
        assert!(s.stmts[at8].writes.contains("x"));
        let at6 = s.statement_at(6).expect("line 6");
        assert_eq!(s.stmts[at6].kind, "if_statement");
        let lock = s.statement_at(7).expect("line 7");
        assert_eq!(
            s.stmts[lock].call.as_ref().and_then(|c| c.mutex()),
            Some(("lock", "m".to_string()))
        );
        // The lock is nested in the if's block, which is nested in the body.
        let body = s.enclosing_blocks(lock);
        assert_eq!(body.len(), 2);
        assert_eq!(s.child_of_block(body[1], lock), Some(at6));
        assert!(s.stmts[s.statement_at(11).expect("return")].jumps);
        assert!(!s.stmts[at6].jumps);
        assert_eq!(s.indent(at8), "    ");
        assert!(s.own_lines(at8).is_some());
        assert_eq!(s.fresh_name("m"), "m_2");
    }
}
