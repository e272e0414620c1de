//! The destructors of thread-specific keys (`pthread_key_create(&k, d)`, C11's
//! `tss_create`). POSIX runs `d(value)` in each exiting thread for its non-NULL value,
//! concurrently with the other threads. The sequentializer runs every destructor call of
//! a thread as part of its last step, one indivisible block, and the explorer does not run
//! them at all (it leaves such programs to the bounded search). One indivisible block is
//! only right for a destructor no other thread can observe part-way: one that frees its
//! value and touches nothing else. A destructor that reads or writes anything beyond its
//! own locals (a global, memory through a pointer) or calls anything but `free` is
//! refused by name, since checked as one step it could hide the interleavings that fail
//! (a release counter updated in two exiting threads at once was reported "no failure in
//! any execution" before this check).

use super::{FrontendError, Lowerer, R};
use crate::diagnostics::SourceSpot;
use crate::ir::known::{Known, classify};
use crate::ir::{Expr, ExprKind, FuncId, Loc, Program, VarKind};

impl Lowerer<'_, '_> {
    pub(super) fn refuse_observable_key_destructors(&mut self) -> R<()> {
        let mut creations: Vec<(Expr, Loc)> = Vec::new();
        for f in &self.prog.funcs {
            let Some(body) = &f.body else { continue };
            crate::ir::visit::each_expr(body, &mut |e| {
                if let ExprKind::Call(c, args) = &e.kind {
                    if let ExprKind::Func(cf) = c.peel().kind {
                        if classify(&self.prog.func(cf).name) == Known::KeyCreate {
                            if let Some(d) = args.get(1) {
                                creations.push((d.clone(), e.loc));
                            }
                        }
                    }
                }
            });
        }
        for (d, loc) in creations {
            let d = uncast(&d);
            let why = match &d.kind {
                _ if d.as_int() == Some(0) => continue,
                ExprKind::Func(f) => match observable(self.prog, *f) {
                    None => continue,
                    Some(why) => format!(
                        "the thread-specific key destructor `{}`, which {why}: destructors \
                         are checked as one step at the thread's exit, which is only right \
                         for one that frees its value and touches nothing else",
                        self.prog.func(*f).name
                    ),
                },
                _ => "a thread-specific key destructor given through a pointer".to_string(),
            };
            return Err(FrontendError::Unsupported(SourceSpot::at(
                &self.prog.sources,
                loc,
                why,
            )));
        }
        Ok(())
    }
}

/// `e` without its conversions (`NULL` is `(void *)0`, a function designator decays).
fn uncast(e: &Expr) -> &Expr {
    match &e.kind {
        ExprKind::Cast { e, .. } | ExprKind::Decay(e) => uncast(e),
        _ => e,
    }
}

/// What in destructor `f` another thread could observe part-way, if anything.
fn observable(prog: &Program, f: FuncId) -> Option<&'static str> {
    let Some(body) = &prog.func(f).body else {
        return Some("the program does not define");
    };
    let mut why = None;
    crate::ir::visit::each_expr(body, &mut |e| {
        if why.is_some() {
            return;
        }
        why = match &e.kind {
            ExprKind::Var(v) if prog.var(*v).kind == VarKind::Global => {
                Some("uses a global variable")
            }
            ExprKind::Deref(_) | ExprKind::Index(..) => Some("accesses memory through a pointer"),
            ExprKind::Call(c, _) => match c.peel().kind {
                ExprKind::Func(g) if classify(&prog.func(g).name) == Known::Free => None,
                _ => Some("calls a function other than `free`"),
            },
            ExprKind::Intrinsic(..) | ExprKind::StmtExpr(_) => Some("does more than free"),
            _ => None,
        };
    });
    why
}
