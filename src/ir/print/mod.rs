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

use std::collections::HashMap;

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

/// [`expr_in_source_terms`], with seqloc's temporaries printed as the expressions in
/// `origins` (see [`temp_origins`]).
pub fn expr_in_source_terms_with(
    prog: &Program,
    e: &Expr,
    origins: &HashMap<VarId, String>,
) -> String {
    let opts = PrintOptions::default();
    let mut p = Printer::for_messages(prog, Dialect::svcomp(), &opts);
    p.source_names = true;
    p.origins = Some(origins);
    p.expr(e, 0)
}

/// The temporaries normalization introduced to hold a copy of what the user wrote as a
/// postfix expression (`__t = shared_box;` for `shared_box->count = ...`), each with that
/// expression's text: a report names `__t->count` as `shared_box->count`. Only a
/// temporary defined once, by its declaration, and only a copy of a variable, a member, an
/// element at a constant or variable index or an arrow chain of those (text that needs no
/// parentheses in front of `->`, `.` or `[`).
pub fn temp_origins(prog: &Program) -> HashMap<VarId, String> {
    use crate::ir::{ExprKind, Init, StmtKind};
    fn postfix(e: &Expr) -> bool {
        match &e.kind {
            ExprKind::Var(_) => true,
            ExprKind::Member(b, _) => match &b.kind {
                ExprKind::Deref(p) => postfix(p.peel()),
                _ => postfix(b),
            },
            ExprKind::Index(b, i) => {
                let base = match &b.kind {
                    ExprKind::Decay(a) => a,
                    _ => b,
                };
                postfix(base.peel()) && matches!(i.peel().kind, ExprKind::Int(_) | ExprKind::Var(_))
            }
            ExprKind::Cast {
                e, implicit: true, ..
            } => postfix(e),
            _ => false,
        }
    }
    let is_temp = |v: VarId| {
        let var = prog.var(v);
        // `__seq_mem_*`: the pointers a lowered `memset`/`memcpy` stores through.
        matches!(var.name.as_str(), "__t" | "__seq_mem_dst" | "__seq_mem_src")
            && var.source_name.is_none()
            && var.kind == crate::ir::VarKind::Local
    };
    let mut defs: HashMap<VarId, (u32, Option<Expr>)> = HashMap::new();
    for f in &prog.funcs {
        let Some(body) = &f.body else { continue };
        crate::ir::visit::each_stmt(body, &mut |s| match &s.kind {
            StmtKind::Decl { var, init } if is_temp(*var) => {
                let d = defs.entry(*var).or_insert((0, None));
                d.0 += 1;
                if let Some(Init::Expr(e)) = init
                    && postfix(e.peel())
                {
                    d.1 = Some(e.peel().clone());
                }
            }
            _ => {}
        });
        crate::ir::visit::each_expr(body, &mut |e| {
            if let ExprKind::Assign(l, _) = &e.kind
                && let ExprKind::Var(v) = l.peel().kind
                && is_temp(v)
            {
                defs.entry(v).or_insert((0, None)).0 += 2;
            }
        });
    }
    // In the order the temporaries were made, so that one copied from another (`__t2 =
    // __t1->next`) reads the first's origin.
    let mut once: Vec<(VarId, Expr)> = defs
        .into_iter()
        .filter_map(|(v, (n, e))| e.filter(|_| n == 1).map(|e| (v, e)))
        .collect();
    once.sort_by_key(|(v, _)| *v);
    let mut origins = HashMap::new();
    for (v, e) in once {
        let text = expr_in_source_terms_with(prog, &e, &origins);
        origins.insert(v, text);
    }
    origins
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
