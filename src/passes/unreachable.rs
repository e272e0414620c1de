//! Drops statements that no execution reaches because the statement before them in the
//! same block never completes (`abort()`, `return`, `goto`, `break`, `continue`).
//!
//! SV-COMP's error blocks end in dead code such as `ERROR: { reach_error(); abort(); } goto
//! ERROR;`: the backward `goto` never runs, but the bounded checker, which refuses backward
//! jumps, would otherwise reject the program. Code that is jumped into (a statement with a
//! label or `case` inside) is kept.

use crate::ir::*;

/// Prunes every function body of `prog`.
pub fn prune(prog: &mut Program) {
    for f in &mut prog.funcs {
        if let Some(body) = &mut f.body {
            prune_stmt(body);
        }
    }
}

/// Prunes inside `s`; returns whether `s` never completes normally (control never reaches
/// the statement after it, except by a jump to a label).
fn prune_stmt(s: &mut Stmt) -> bool {
    match &mut s.kind {
        StmtKind::Block(ss) => {
            let mut ends = false;
            let mut kept = Vec::with_capacity(ss.len());
            for mut x in std::mem::take(ss) {
                if ends && !has_label(&x) {
                    continue;
                }
                ends = prune_stmt(&mut x);
                kept.push(x);
            }
            *ss = kept;
            ends
        }
        StmtKind::If { then, els, .. } => {
            let t = prune_stmt(then);
            let e = els.as_mut().map(|e| prune_stmt(e));
            t && e == Some(true)
        }
        // A loop or switch body's end or `break` leads past it: the statement completes.
        StmtKind::While { body, .. }
        | StmtKind::DoWhile { body, .. }
        | StmtKind::For { body, .. }
        | StmtKind::Switch { body, .. } => {
            prune_stmt(body);
            false
        }
        StmtKind::Expr(e) => matches!(e.kind, ExprKind::Intrinsic(Intrinsic::Abort, _)),
        StmtKind::Goto(_) | StmtKind::Break | StmtKind::Continue | StmtKind::Return(_) => true,
        StmtKind::Decl { .. }
        | StmtKind::Case { .. }
        | StmtKind::Default
        | StmtKind::Label(_)
        | StmtKind::Skip => false,
    }
}

/// Whether a jump can land in `s` (a label or a switch case at any depth).
fn has_label(s: &Stmt) -> bool {
    let mut found = false;
    crate::ir::visit::each_stmt(s, &mut |x| {
        found |= matches!(
            x.kind,
            StmtKind::Label(_) | StmtKind::Case { .. } | StmtKind::Default
        );
    });
    found
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::ir::types::DataModel;

    fn pruned(src: &str) -> String {
        let mut prog = crate::frontend::load_text("t.c", src, DataModel::Lp64).expect("parses");
        crate::passes::normalize::normalize(&mut prog);
        prune(&mut prog);
        crate::ir::print::print_program(
            &prog,
            crate::ir::dialect::Dialect::svcomp(),
            &crate::ir::print::PrintOptions::default(),
        )
        .text
    }

    #[test]
    fn drops_the_dead_backward_goto_after_abort_but_keeps_labelled_code() {
        let out = pruned(
            "extern void abort(void); int x;\
             int main(void) { if (x) { ERROR: { x = 2; abort(); } goto ERROR; }\
             x = 1; goto L; x = 5; L: x = 3; return 0; x = 4; }",
        );
        assert!(!out.contains("goto ERROR"), "{out}");
        assert!(!out.contains("x = 5") && !out.contains("x = 4"), "{out}");
        assert!(out.contains("x = 3") && out.contains("x = 1"), "{out}");
    }

    #[test]
    fn a_switch_case_after_break_is_kept() {
        let out = pruned(
            "int x; int main(void) { switch (x) { case 1: x = 7; break; x = 8; case 2: x = 9; } return 0; }",
        );
        assert!(out.contains("x = 9") && !out.contains("x = 8"), "{out}");
    }
}
