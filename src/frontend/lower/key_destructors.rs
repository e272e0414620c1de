//! The destructors of thread-specific keys (`pthread_key_create(&k, d)`, C11's
//! `tss_create`). POSIX runs `d(value)` in each exiting thread for its non-NULL value,
//! concurrently with the other threads. The sequentializer runs every destructor call of
//! a thread as part of its last step, one indivisible block. That is only right for a
//! destructor no other thread can observe part-way: one that frees or checks its value
//! and touches nothing else. A destructor that reads or writes anything beyond its own
//! locals (a global, memory through a pointer) or calls anything but `free`, a check or a
//! function of the same kind is refused by name, since checked as one step it could hide
//! the interleavings that fail (a release counter updated in two exiting threads at once
//! was reported "no failure in any execution" before this check). The explorer runs the
//! destructors it is left with as calls of the exiting thread (`checker::explicit::exec::tls`).

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
            let d = d.uncast();
            let why = match &d.kind {
                _ if d.as_int() == Some(0) => continue,
                ExprKind::Func(f) => match observable(self.prog, *f) {
                    None => continue,
                    Some(why) => format!(
                        "the thread-specific key destructor `{}`, which {why}: destructors \
                         are checked as one step at the thread's exit, which is only right \
                         for one that frees or checks its value and touches nothing else",
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

/// What in destructor `f` (or a function it calls) another thread could observe
/// part-way, if anything. A check (`assert`, `reach_error`, `abort`) may stand in it: it
/// reads the destructor's own values and ends the run, which no other thread sees
/// part-way either (SV-COMP's `tls_destructor_worker` checks its value there).
fn observable(prog: &Program, f: FuncId) -> Option<&'static str> {
    let mut seen = vec![f];
    let mut todo = vec![f];
    while let Some(g) = todo.pop() {
        let Some(body) = &prog.func(g).body else {
            return Some("calls a function the program does not define");
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
                ExprKind::Deref(_) | ExprKind::Index(..) => {
                    Some("accesses memory through a pointer")
                }
                ExprKind::Call(c, _) => match c.peel().kind {
                    ExprKind::Func(h) => match classify(&prog.func(h).name) {
                        Known::Free
                        | Known::ReachError
                        | Known::AssertFail
                        | Known::VerifierAssert
                        | Known::VerifierAssume
                        | Known::Abort => None,
                        Known::Other if prog.func(h).body.is_some() => {
                            if !seen.contains(&h) {
                                seen.push(h);
                                todo.push(h);
                            }
                            None
                        }
                        _ => Some("calls a function other than `free` or a check"),
                    },
                    _ => Some("calls a function through a pointer"),
                },
                ExprKind::StmtExpr(_) => None,
                _ => None,
            };
        });
        if why.is_some() {
            return why;
        }
    }
    None
}
