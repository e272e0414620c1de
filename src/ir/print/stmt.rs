//! Statements, always braced below a condition or loop.

use super::expr::int_lit;
use super::printer::Printer;
use crate::ir::Loc;
use crate::ir::syntax::*;
use crate::ir::types::*;

impl<'a> Printer<'a> {
    pub(super) fn stmt(&mut self, s: &Stmt) {
        match &s.kind {
            StmtKind::Decl { var, init } => {
                let name = self.var_name(*var);
                let ty = self.prog.var(*var).ty.clone();
                let d = self.declare(&ty, &name);
                let text = match init {
                    Some(i) => format!("{d} = {};", self.init(&ty, i)),
                    None => format!("{d};"),
                };
                self.line(&text, s.loc);
            }
            StmtKind::Expr(e) => {
                let t = self.expr(e, 0);
                self.line(&format!("{t};"), s.loc);
            }
            StmtKind::Block(ss) => {
                self.line("{", Loc::SYNTH);
                self.indent += 1;
                for x in ss {
                    self.stmt(x);
                }
                self.indent -= 1;
                self.line("}", Loc::SYNTH);
            }
            StmtKind::If { cond, then, els } => {
                let c = self.expr(cond, 0);
                self.line(&format!("if ({c})"), s.loc);
                self.sub(then);
                if let Some(e) = els {
                    self.line("else", Loc::SYNTH);
                    self.sub(e);
                }
            }
            StmtKind::While { cond, body } => {
                let c = self.expr(cond, 0);
                self.line(&format!("while ({c})"), s.loc);
                self.sub(body);
            }
            StmtKind::DoWhile { body, cond } => {
                self.line("do", s.loc);
                self.sub(body);
                let c = self.expr(cond, 0);
                self.line(&format!("while ({c});"), cond.loc);
            }
            StmtKind::For {
                init,
                cond,
                step,
                body,
            } => {
                // Declarations in the init clause need their own block to keep C89-safe
                // scoping and to allow several declarators of different types.
                let simple_init = init.len() <= 1
                    && init
                        .iter()
                        .all(|s| matches!(s.kind, StmtKind::Expr(_) | StmtKind::Decl { .. }));
                let c = cond.as_ref().map(|c| self.expr(c, 0)).unwrap_or_default();
                let st = step.as_ref().map(|c| self.expr(c, 0)).unwrap_or_default();
                if simple_init {
                    let i = match init.first() {
                        Some(s) => self.inline_stmt(s),
                        None => ";".to_string(),
                    };
                    self.line(&format!("for ({i} {c}; {st})"), s.loc);
                    self.sub(body);
                } else {
                    self.line("{", Loc::SYNTH);
                    self.indent += 1;
                    for x in init {
                        self.stmt(x);
                    }
                    self.line(&format!("for (; {c}; {st})"), s.loc);
                    self.sub(body);
                    self.indent -= 1;
                    self.line("}", Loc::SYNTH);
                }
            }
            StmtKind::Switch { cond, body } => {
                let c = self.expr(cond, 0);
                self.line(&format!("switch ({c})"), s.loc);
                self.sub(body);
            }
            StmtKind::Case { lo, hi } => {
                // Case labels are converted to the controlling type anyway: the plainest
                // literal that holds the value reads best.
                let lit = |v: i128| {
                    let k = if i32::try_from(v).is_ok() {
                        IntKind::Int
                    } else {
                        IntKind::LongLong
                    };
                    int_lit(v, k)
                };
                let t = if lo == hi {
                    format!("case {}:", lit(*lo))
                } else {
                    format!("case {} ... {}:", lit(*lo), lit(*hi))
                };
                self.indent = self.indent.saturating_sub(1);
                self.line(&format!("{t};"), s.loc);
                self.indent += 1;
            }
            StmtKind::Default => {
                self.indent = self.indent.saturating_sub(1);
                self.line("default: ;", s.loc);
                self.indent += 1;
            }
            StmtKind::Label(l) => {
                // Labels nothing jumps to (SV-COMP's `ERROR:`) would draw -Wunused-label,
                // and `label: __attribute__((unused));` is GNU C that not every checker's
                // front end reads: they mean nothing, so they are left out.
                if self.goto_targets.contains(l) {
                    self.indent = self.indent.saturating_sub(1);
                    self.line(&format!("{l}:;"), s.loc);
                    self.indent += 1;
                } else if !s.id.is_none() {
                    self.omitted.push(s.id);
                }
            }
            StmtKind::Goto(l) => self.line(&format!("goto {l};"), s.loc),
            StmtKind::Break => self.line("break;", s.loc),
            StmtKind::Continue => self.line("continue;", s.loc),
            StmtKind::Return(e) => {
                let t = match e {
                    Some(e) => format!("return {};", self.expr(e, 0)),
                    None => "return;".to_string(),
                };
                self.line(&t, s.loc);
            }
            StmtKind::Skip => self.line(";", s.loc),
        }
    }

    /// A sub-statement, always braced (so dangling else and declarations are safe).
    pub(super) fn sub(&mut self, s: &Stmt) {
        match &s.kind {
            StmtKind::Block(_) => self.stmt(s),
            _ => {
                self.line("{", Loc::SYNTH);
                self.indent += 1;
                self.stmt(s);
                self.indent -= 1;
                self.line("}", Loc::SYNTH);
            }
        }
    }

    pub(super) fn inline_stmt(&mut self, s: &Stmt) -> String {
        match &s.kind {
            StmtKind::Expr(e) => format!("{};", self.expr(e, 0)),
            StmtKind::Decl { var, init } => {
                let name = self.var_name(*var);
                let ty = self.prog.var(*var).ty.clone();
                let d = self.declare(&ty, &name);
                match init {
                    Some(i) => format!("{d} = {};", self.init(&ty, i)),
                    None => format!("{d};"),
                }
            }
            _ => ";".into(),
        }
    }
}
