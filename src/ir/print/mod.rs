//! The C printer: IR → C that `gcc -fsyntax-only -Wall` accepts, formatted for people.
//!
//! The output is self-contained: it declares every type, function and variable it uses
//! (unused system-header declarations are dropped) and includes no headers, so it means
//! the same under gcc, ESBMC and CBMC. Intrinsics (nondet, assume, assert, error) are
//! spelled by a checker [`Dialect`]; messages use the SV-COMP one. Alongside the text the
//! printer records, for every output line, the source location of the statement printed
//! there, which is how an external checker's trace is mapped back to the user's lines.

mod decl;
mod expr;
mod names;
mod printer;
mod program;
mod stmt;

pub use expr::{c_string, int_lit};
pub use printer::{PrintOptions, Printed};
pub use program::used_items;

use crate::ir::dialect::Dialect;
use crate::ir::syntax::*;
use crate::ir::types::*;
use printer::Printer;

pub fn print_program(prog: &Program, dialect: &Dialect, opts: &PrintOptions) -> Printed {
    let mut p = Printer::new(prog, dialect, opts);
    p.program();
    p.finish()
}

/// Prints one expression (for messages and reports).
pub fn expr_to_string(prog: &Program, e: &Expr) -> String {
    let opts = PrintOptions::default();
    let mut p = Printer::for_messages(prog, Dialect::svcomp(), &opts);
    p.expr(e, 0)
}

/// Prints one expression as the user's source names its variables (a thread's copy
/// `t_1` of a local is `t`): for reports. [`expr_to_string`] keeps the copies apart, as
/// what matches a trace's writes must.
pub fn expr_in_source_terms(prog: &Program, e: &Expr) -> String {
    let opts = PrintOptions::default();
    let mut p = Printer::for_messages(prog, Dialect::svcomp(), &opts);
    p.source_names = true;
    p.expr(e, 0)
}

/// `ty name` as a C declarator (for declarations seqloc generates).
pub fn declaration(prog: &Program, ty: &Type, name: &str) -> String {
    let opts = PrintOptions::default();
    let p = Printer::for_messages(prog, Dialect::svcomp(), &opts);
    p.declare(ty, name)
}

/// Prints one statement on one line where possible (for traces and reports).
pub fn stmt_summary(prog: &Program, s: &Stmt) -> String {
    let opts = PrintOptions::default();
    let mut p = Printer::for_messages(prog, Dialect::svcomp(), &opts);
    match &s.kind {
        StmtKind::Expr(e) => format!("{};", p.expr(e, 0)),
        StmtKind::Decl { var, init } => {
            let ty = prog.var(*var).ty.clone();
            let d = p.declare(&ty, &p.var_name(*var));
            match init {
                Some(i) => format!("{d} = {};", p.init(&ty, i)),
                None => format!("{d};"),
            }
        }
        StmtKind::If { cond, .. } => format!("if ({})", p.expr(cond, 0)),
        StmtKind::While { cond, .. } => format!("while ({})", p.expr(cond, 0)),
        StmtKind::DoWhile { cond, .. } => format!("do ... while ({})", p.expr(cond, 0)),
        StmtKind::For { cond, .. } => format!(
            "for (...; {}; ...)",
            cond.as_ref().map(|c| p.expr(c, 0)).unwrap_or_default()
        ),
        StmtKind::Switch { cond, .. } => format!("switch ({})", p.expr(cond, 0)),
        StmtKind::Return(Some(e)) => format!("return {};", p.expr(e, 0)),
        StmtKind::Return(None) => "return;".into(),
        StmtKind::Goto(l) => format!("goto {l};"),
        StmtKind::Break => "break;".into(),
        StmtKind::Continue => "continue;".into(),
        StmtKind::Label(l) => format!("{l}:"),
        StmtKind::Case { lo, .. } => format!("case {lo}:"),
        StmtKind::Default => "default:".into(),
        StmtKind::Block(_) => "{ ... }".into(),
        StmtKind::Skip => ";".into(),
    }
}
