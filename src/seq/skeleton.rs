//! The framework skeleton as data: `templates/framework.c` is the sequential program's
//! `main` (paper 004, Fig. 4 and Table I), written as C with a few line directives. It is
//! compiled in; `--templates DIR` reads `DIR/framework.c` instead, so the order in which
//! the framework runs blocks can be changed without recompiling.
//!
//! The engine expands the directives for one program (its slots, rounds or blocks), parses
//! the result with seqloc's own C front end, and grafts the body of its `main` into the
//! sequential program, binding names to the sequentializer's variables and functions.
//! The directive language is documented at the top of `templates/framework.c`.

use std::collections::HashMap;
use std::path::{Path, PathBuf};

use crate::ir::visit::{self, VisitorMut};
use crate::ir::*;

const BUILTIN: &str = include_str!("../../templates/framework.c");
/// In angle brackets, like gcc's `<built-in>`: the front end reads a named source file
/// from disk for its columns, and this one must never be `./templates/framework.c` of
/// whatever directory seqloc runs in. Only `--templates` names a file to read.
const BUILTIN_ORIGIN: &str = "<built-in templates/framework.c>";

#[derive(Debug, thiserror::Error)]
pub enum SkeletonError {
    #[error("cannot read the framework template {}: {reason}", path.display())]
    Read { path: PathBuf, reason: String },
    #[error("framework template {origin}:{line}: {reason}")]
    Directive {
        origin: String,
        line: usize,
        reason: String,
    },
    #[error("framework template {origin}: {reason}")]
    Invalid { origin: String, reason: String },
}

/// A framework template, compiled in or read from a template directory.
#[derive(Clone, Debug)]
pub struct Skeleton {
    text: String,
    /// Where the text came from, for messages and line markers.
    origin: String,
}

impl Default for Skeleton {
    fn default() -> Self {
        Skeleton::builtin()
    }
}

/// What one slot contributes to the expansion.
pub struct SlotValues {
    pub thread: String,
    pub probe: Option<String>,
    pub points: usize,
}

/// The facts of one sequential program the template is expanded for.
pub struct Expansion {
    pub flags: Vec<&'static str>,
    pub slots: Vec<SlotValues>,
    pub rounds: u32,
    pub blocks: usize,
    /// With the flag `switch_bound`: the most runs that may execute anything (`{RUNS}`).
    pub runs: Option<u32>,
}

const FLAGS: &[&str] = &[
    "symbolic",
    "concrete",
    "fixed_points",
    "probes",
    "deadlock",
    "switch_bound",
];

/// Functions a template may call that are not functions of the program.
const BUILTIN_CALLS: &[&str] = &[
    "__VERIFIER_assume",
    "__VERIFIER_nondet_uint",
    "__seq_mismatch",
    "__seq_deadlock_reached",
];

impl Skeleton {
    pub fn builtin() -> Skeleton {
        Skeleton {
            text: BUILTIN.to_string(),
            origin: BUILTIN_ORIGIN.to_string(),
        }
    }

    /// `dir/framework.c` when a template directory is given and has one, else the
    /// compiled-in skeleton. The text is checked (directives balanced, flags known) here,
    /// so a broken override is reported before any work is done.
    pub fn load(dir: Option<&Path>) -> Result<Skeleton, SkeletonError> {
        let Some(path) = dir.map(|d| d.join("framework.c")).filter(|p| p.exists()) else {
            return Ok(Skeleton::builtin());
        };
        let text = std::fs::read_to_string(&path).map_err(|e| SkeletonError::Read {
            path: path.clone(),
            reason: e.to_string(),
        })?;
        let s = Skeleton {
            text,
            origin: path.display().to_string(),
        };
        s.parse()?;
        Ok(s)
    }

    pub fn origin(&self) -> &str {
        &self.origin
    }

    fn parse(&self) -> Result<Vec<Node>, SkeletonError> {
        let lines: Vec<(usize, &str)> = self
            .text
            .lines()
            .enumerate()
            .map(|(i, l)| (i + 1, l))
            .collect();
        let mut pos = 0;
        let nodes = self.parse_nodes(&lines, &mut pos, None)?;
        Ok(nodes)
    }

    /// Nodes up to the `//@end` (or `//@else`) closing `open`, or to the end of the text.
    fn parse_nodes(
        &self,
        lines: &[(usize, &str)],
        pos: &mut usize,
        open: Option<(usize, &str)>,
    ) -> Result<Vec<Node>, SkeletonError> {
        let mut out = Vec::new();
        while let Some(&(no, text)) = lines.get(*pos) {
            *pos += 1;
            let Some(d) = text.trim_start().strip_prefix("//@") else {
                out.push(Node::Line(no, text.to_string()));
                continue;
            };
            let mut words = d.split_whitespace();
            let err = |reason: String| SkeletonError::Directive {
                origin: self.origin.clone(),
                line: no,
                reason,
            };
            match (words.next(), words.next(), words.next()) {
                (Some("if"), Some(flag), None) => {
                    let (neg, name) = match flag.strip_prefix('!') {
                        Some(n) => (true, n),
                        None => (false, flag),
                    };
                    if !FLAGS.contains(&name) {
                        return Err(err(format!(
                            "unknown flag `{name}` (known: {})",
                            FLAGS.join(", ")
                        )));
                    }
                    let then = self.parse_nodes(lines, pos, Some((no, "if")))?;
                    let closed_by_else = lines
                        .get(pos.saturating_sub(1))
                        .is_some_and(|(_, l)| l.trim_start().starts_with("//@else"));
                    let els = if closed_by_else {
                        self.parse_nodes(lines, pos, Some((no, "else")))?
                    } else {
                        vec![]
                    };
                    out.push(Node::If {
                        flag: name.to_string(),
                        neg,
                        then,
                        els,
                    });
                }
                (Some("for"), Some(kind @ ("slot" | "round")), None) => {
                    let body = self.parse_nodes(lines, pos, Some((no, "for")))?;
                    out.push(Node::For {
                        slots: kind == "slot",
                        body,
                    });
                }
                (Some("else"), None, _) => {
                    return match open {
                        Some((_, "if")) => Ok(out),
                        _ => Err(err("`//@else` without an open `//@if`".into())),
                    };
                }
                (Some("end"), None, _) => {
                    return match open {
                        Some(_) => Ok(out),
                        None => Err(err("`//@end` closes nothing".into())),
                    };
                }
                _ => {
                    return Err(err(format!(
                        "unknown directive `//@{}` (known: if FLAG, if !FLAG, else, end, for slot, for round)",
                        d.trim()
                    )));
                }
            }
        }
        match open {
            Some((line, what)) => Err(SkeletonError::Directive {
                origin: self.origin.clone(),
                line,
                reason: format!("`//@{what}` is never closed with `//@end`"),
            }),
            None => Ok(out),
        }
    }

    /// The template expanded for one program: C text with line markers pointing back at
    /// the template, so a parse error names the template's own line.
    pub fn expand(&self, x: &Expansion) -> Result<String, SkeletonError> {
        // A template of the user's written before `--context-switches` bounded switches
        // would silently let more through.
        if x.flags.contains(&"switch_bound") && !self.text.contains("//@if switch_bound") {
            return Err(SkeletonError::Invalid {
                origin: self.origin.clone(),
                reason: "it has no `//@if switch_bound` section, so it cannot honour --context-switches (see templates/framework.c)".into(),
            });
        }
        let nodes = self.parse()?;
        let mut out = String::new();
        let mut env: HashMap<&'static str, String> = HashMap::new();
        env.insert("BLOCKS", x.blocks.to_string());
        env.insert("ROUNDS", x.rounds.to_string());
        if let Some(n) = x.runs {
            env.insert("RUNS", n.to_string());
        }
        self.render(&nodes, x, &mut env, &mut false, &mut out)?;
        Ok(out)
    }

    fn render(
        &self,
        nodes: &[Node],
        x: &Expansion,
        env: &mut HashMap<&'static str, String>,
        in_comment: &mut bool,
        out: &mut String,
    ) -> Result<(), SkeletonError> {
        for n in nodes {
            match n {
                Node::Line(no, text) => {
                    out.push_str(&format!("# {no} \"{}\"\n", self.origin));
                    out.push_str(&self.fill(*no, text, env, in_comment)?);
                    out.push('\n');
                }
                Node::If {
                    flag,
                    neg,
                    then,
                    els,
                } => {
                    let on = x.flags.contains(&flag.as_str()) != *neg;
                    self.render(if on { then } else { els }, x, env, in_comment, out)?;
                }
                Node::For { slots: true, body } => {
                    for (k, s) in x.slots.iter().enumerate() {
                        env.insert("SLOT", k.to_string());
                        env.insert("CASE", (k + 1).to_string());
                        env.insert("THREAD", s.thread.clone());
                        env.insert("POINTS", s.points.to_string());
                        match &s.probe {
                            Some(p) => env.insert("PROBE", p.clone()),
                            None => env.remove("PROBE"),
                        };
                        self.render(body, x, env, in_comment, out)?;
                    }
                    for k in ["SLOT", "CASE", "THREAD", "POINTS", "PROBE"] {
                        env.remove(k);
                    }
                }
                Node::For { slots: false, body } => {
                    for r in 1..=x.rounds {
                        env.insert("ROUND", r.to_string());
                        self.render(body, x, env, in_comment, out)?;
                    }
                    env.remove("ROUND");
                }
            }
        }
        Ok(())
    }

    /// Replaces `{NAME}` placeholders and drops comments (which may talk about them; the
    /// front end reads preprocessed text). C's own braces never enclose a bare upper-case
    /// word. `in_comment` carries an open `/* ... */` from one line to the next.
    fn fill(
        &self,
        no: usize,
        text: &str,
        env: &HashMap<&'static str, String>,
        in_comment: &mut bool,
    ) -> Result<String, SkeletonError> {
        let mut out = String::with_capacity(text.len());
        let mut rest = text;
        loop {
            if *in_comment {
                match rest.find("*/") {
                    Some(i) => {
                        out.push(' ');
                        rest = &rest[i + 2..];
                        *in_comment = false;
                    }
                    None => return Ok(out),
                }
            }
            let next = rest.find(['{', '/']);
            let Some(i) = next else {
                out.push_str(rest);
                return Ok(out);
            };
            out.push_str(&rest[..i]);
            let at = &rest[i..];
            if let Some(after) = at.strip_prefix("/*") {
                *in_comment = true;
                rest = after;
                continue;
            }
            if at.starts_with("//") {
                return Ok(out);
            }
            let after = &at[1..];
            if at.starts_with('/') {
                out.push('/');
                rest = after;
                continue;
            }
            let name_len = after
                .find(|c: char| !(c.is_ascii_uppercase() || c == '_'))
                .unwrap_or(after.len());
            if name_len > 0 && after[name_len..].starts_with('}') {
                let name = &after[..name_len];
                let v = env.get(name).ok_or_else(|| SkeletonError::Directive {
                    origin: self.origin.clone(),
                    line: no,
                    reason: format!(
                        "`{{{name}}}` has no value here ({{SLOT}}, {{CASE}}, {{THREAD}}, {{PROBE}} and {{POINTS}} exist inside `//@for slot`, {{ROUND}} inside `//@for round`, {{PROBE}} only when the flag `probes` holds)"
                    ),
                })?;
                out.push_str(v);
                rest = &after[name_len + 1..];
            } else {
                out.push('{');
                rest = after;
            }
        }
    }

    /// Expands, parses and binds the template: the body of the framework's `main` for
    /// `prog`, whose variables and functions the template names are given in `vars` and
    /// `funcs`.
    pub fn instantiate(
        &self,
        prog: &Program,
        x: &Expansion,
        vars: &HashMap<String, VarId>,
        funcs: &HashMap<String, FuncId>,
    ) -> Result<Stmt, SkeletonError> {
        let invalid = |reason: String| SkeletonError::Invalid {
            origin: self.origin.clone(),
            reason,
        };
        let mut text = String::from("# 1 \"<framework declarations>\"\n");
        let mut names: Vec<(&String, &VarId)> = vars.iter().collect();
        names.sort();
        for (name, v) in names {
            let ty = &prog.var(*v).ty;
            text.push_str(&format!(
                "extern {};\n",
                crate::ir::print::declaration(prog, ty, name)
            ));
        }
        let mut fnames: Vec<&String> = funcs.keys().collect();
        fnames.sort();
        for f in fnames {
            text.push_str(&format!("void {f}(void);\n"));
        }
        text.push_str(
            "void __VERIFIER_assume(int);\nunsigned int __VERIFIER_nondet_uint(void);\n\
             void __seq_mismatch(int);\nvoid __seq_deadlock_reached(int);\n",
        );
        text.push_str(&self.expand(x)?);
        let mini = crate::frontend::load_text(&self.origin, &text, prog.data_model).map_err(
            |e| match e.spots().first() {
                Some(spot) => SkeletonError::Directive {
                    origin: spot.file.clone(),
                    line: spot.line as usize,
                    reason: format!("column {}: {}", spot.col, spot.message),
                },
                None => invalid(e.to_string()),
            },
        )?;
        let main = mini
            .funcs
            .iter()
            .find(|f| f.name == "main" && f.body.is_some())
            .ok_or_else(|| invalid("it defines no `main` function".into()))?;
        if let Some(f) = mini
            .funcs
            .iter()
            .find(|f| f.body.is_some() && f.name != "main")
        {
            return Err(invalid(format!(
                "it defines `{}`; the skeleton is one function, `main`",
                f.name
            )));
        }
        let mut body = main.body.clone().unwrap_or_else(|| Stmt::skip(Loc::SYNTH));
        let mut binder = Binder {
            mini: &mini,
            vars,
            funcs,
            error: None,
        };
        binder.visit_stmt(&mut body);
        match binder.error {
            Some(reason) => Err(invalid(reason)),
            None => Ok(body),
        }
    }
}

#[derive(Debug)]
enum Node {
    Line(usize, String),
    If {
        flag: String,
        neg: bool,
        then: Vec<Node>,
        els: Vec<Node>,
    },
    For {
        slots: bool,
        body: Vec<Node>,
    },
}

/// Rebinds the parsed template to the sequential program: names to its variables and
/// functions, the SV-COMP calls and seqloc's own to intrinsics; every location becomes
/// "generated", so nothing in the framework is taken for user code.
struct Binder<'a> {
    mini: &'a Program,
    vars: &'a HashMap<String, VarId>,
    funcs: &'a HashMap<String, FuncId>,
    error: Option<String>,
}

impl Binder<'_> {
    fn fail(&mut self, reason: String) {
        if self.error.is_none() {
            self.error = Some(reason);
        }
    }

    fn callee_name(&self, callee: &Expr) -> Option<String> {
        match callee.peel().kind {
            ExprKind::Func(f) => Some(self.mini.func(f).name.clone()),
            _ => None,
        }
    }
}

impl VisitorMut for Binder<'_> {
    fn visit_stmt(&mut self, s: &mut Stmt) {
        s.loc = Loc::SYNTH;
        s.id = StmtId::NONE;
        match &s.kind {
            StmtKind::Decl { var, .. } => {
                let name = self.mini.var(*var).name.clone();
                self.fail(format!(
                    "it declares `{name}`; the skeleton may only use the sequentializer's variables"
                ));
                return;
            }
            StmtKind::For { .. } | StmtKind::DoWhile { .. } | StmtKind::Goto(_) => {
                self.fail(
                    "it uses `for`, `do` or `goto`; the skeleton is written with `if`, `while` and `switch`"
                        .into(),
                );
                return;
            }
            _ => {}
        }
        visit::walk_stmt_mut(self, s);
    }

    fn visit_expr(&mut self, e: &mut Expr) {
        e.loc = Loc::SYNTH;
        if let ExprKind::Call(callee, args) = &mut e.kind {
            let name = self.callee_name(callee);
            let intrinsic = match name.as_deref() {
                Some("__VERIFIER_assume") => Some(Intrinsic::Assume),
                Some("__VERIFIER_nondet_uint") => Some(Intrinsic::Nondet),
                Some("__seq_mismatch") => Some(Intrinsic::Mismatch),
                Some("__seq_deadlock_reached") => Some(Intrinsic::Deadlock),
                _ => None,
            };
            if let Some(i) = intrinsic {
                let mut args = std::mem::take(args);
                for a in &mut args {
                    self.visit_expr(a);
                }
                let ty = if i == Intrinsic::Nondet {
                    e.ty.clone()
                } else {
                    Type::Void
                };
                *e = Expr::new(ExprKind::Intrinsic(i, args), ty, Loc::SYNTH);
                return;
            }
            if !args.is_empty() {
                self.fail(format!(
                    "it passes arguments to `{}`; slot and probe functions take none",
                    name.unwrap_or_default()
                ));
            }
        }
        match &mut e.kind {
            ExprKind::Var(v) => {
                let name = &self.mini.var(*v).name;
                match self.vars.get(name) {
                    Some(id) => *v = *id,
                    None => {
                        let reason = format!(
                            "`{name}` is not one of the sequentializer's variables (order, order_index, __seq_*)"
                        );
                        self.fail(reason);
                    }
                }
            }
            ExprKind::Func(f) => {
                let name = &self.mini.func(*f).name;
                match self.funcs.get(name) {
                    Some(id) => *f = *id,
                    None => {
                        let reason = if BUILTIN_CALLS.contains(&name.as_str()) {
                            format!("`{name}` may only be called")
                        } else {
                            format!("`{name}` is not a slot or probe function of this program")
                        };
                        self.fail(reason);
                    }
                }
            }
            ExprKind::StmtExpr(_) | ExprKind::Compound(_) | ExprKind::Str(_) => {
                self.fail("it uses a statement expression, compound literal or string".into());
            }
            _ => {}
        }
        visit::walk_expr_mut(self, e);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn expansion(flags: Vec<&'static str>) -> Expansion {
        Expansion {
            flags,
            slots: vec![
                SlotValues {
                    thread: "t0".into(),
                    probe: Some("p0".into()),
                    points: 4,
                },
                SlotValues {
                    thread: "t1".into(),
                    probe: Some("p1".into()),
                    points: 7,
                },
            ],
            rounds: 3,
            blocks: 5,
            runs: None,
        }
    }

    fn code(text: &str) -> String {
        text.lines()
            .filter(|l| !l.starts_with("# "))
            .collect::<Vec<_>>()
            .join("\n")
    }

    #[test]
    fn the_builtin_skeleton_expands_one_case_per_slot() {
        let s = Skeleton::builtin();
        let out = code(&s.expand(&expansion(vec!["concrete"])).unwrap());
        assert!(out.contains("case 1:"), "{out}");
        assert!(out.contains("case 2:"));
        assert!(!out.contains("case 3:"));
        assert!(out.contains("t1();"));
        assert!(out.contains("order_index < 5"));
        assert!(!out.contains("__seq_round"));
        assert!(!out.contains("__seq_cs_at"));
    }

    #[test]
    fn rounds_repeat_every_slot() {
        let s = Skeleton::builtin();
        let out = code(&s.expand(&expansion(vec!["symbolic"])).unwrap());
        assert_eq!(out.matches("t0();").count(), 3);
        assert_eq!(out.matches("t1();").count(), 3);
        assert!(out.contains("__seq_round3:"));
        assert!(out.contains("__seq_cs <= 7"));
        assert!(!out.contains("switch"));
    }

    #[test]
    fn negated_flags_and_else_branches_are_kept_by_the_flags() {
        let s = Skeleton::builtin();
        let fixed = code(
            &s.expand(&expansion(vec!["concrete", "fixed_points"]))
                .unwrap(),
        );
        assert!(fixed.contains("__seq_cs_at[order_index]"));
        assert!(!fixed.contains("__seq_stop_stmt"));
        let stops = code(&s.expand(&expansion(vec!["concrete"])).unwrap());
        assert!(stops.contains("__seq_stop_stmt"));
    }

    fn skeleton(text: &str) -> Skeleton {
        Skeleton {
            text: text.into(),
            origin: "t.c".into(),
        }
    }

    #[test]
    fn malformed_directives_name_their_line() {
        let e = skeleton("a\n//@if nonsense\n//@end\n").parse().unwrap_err();
        assert!(
            e.to_string().contains("t.c:2: unknown flag `nonsense`"),
            "{e}"
        );
        let e = skeleton("a\n//@for slot\nb\n").parse().unwrap_err();
        assert!(
            e.to_string().contains("t.c:2: `//@for` is never closed"),
            "{e}"
        );
        let e = skeleton("//@end\n").parse().unwrap_err();
        assert!(e.to_string().contains("closes nothing"), "{e}");
        let e = skeleton("//@for thread\n//@end\n").parse().unwrap_err();
        assert!(e.to_string().contains("unknown directive"), "{e}");
    }

    #[test]
    fn a_placeholder_outside_its_loop_is_an_error() {
        let e = skeleton("x = {SLOT};\n")
            .expand(&expansion(vec![]))
            .unwrap_err();
        assert!(
            e.to_string().contains("t.c:1: `{SLOT}` has no value here"),
            "{e}"
        );
        // C braces and comments are left alone.
        let ok = skeleton("if (a) { b(); } /* {SLOT}\n {CASE} */ x = a / 2; // {ROUND}\n")
            .expand(&expansion(vec![]))
            .unwrap();
        assert!(ok.contains("if (a) { b(); } \n"), "{ok}");
        assert!(ok.contains("\n  x = a / 2; \n"), "{ok}");
    }
}
