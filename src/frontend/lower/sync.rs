//! `pthread_barrier_wait` and `pthread_once` lowered to steps every engine models as it
//! models a semaphore wait: one call that blocks or not.
//!
//! * `pthread_barrier_wait(b)` becomes `({ int g = arrive(b); leave(b, g); })`: the
//!   arrival counts the thread in (and, as the last of the cycle, releases the others and
//!   answers -1); the departure blocks until the cycle is complete and answers
//!   `PTHREAD_BARRIER_SERIAL_THREAD` to the thread that completed it, 0 to the others.
//! * `pthread_once(o, f)` becomes `({ if (begin(o)) { f(); end(o); } 0; })`: `begin` takes
//!   a control from 0 (not started) to 1 (running) and answers 1, answers 0 at 2 (done),
//!   blocks at 1; `end` sets 2. The routine's statements stay ordinary statements, so
//!   threads that do not call `pthread_once` interleave with them.
//!
//! The names are in `ir::known` (`BARRIER_ARRIVE`...); no program can call them.

use std::collections::HashSet;

use lang_c::span::Span;

use super::{FrontendError, Lowerer, R, atomic::is_stable};
use crate::diagnostics::SourceSpot;
use crate::ir::known::{BARRIER_ARRIVE, BARRIER_LEAVE, Known, ONCE_BEGIN, ONCE_END, classify};
use crate::ir::*;

impl Lowerer<'_, '_> {
    /// `call` (already lowered) itself, or its lowering when it calls the library's
    /// `pthread_barrier_wait` or `pthread_once`.
    pub(super) fn barrier_or_once(&mut self, call: Expr, span: Span) -> R<Expr> {
        let ExprKind::Call(callee, args) = &call.kind else {
            return Ok(call);
        };
        let ExprKind::Func(f) = callee.peel().kind else {
            return Ok(call);
        };
        let func = self.prog.func(f);
        let name = func.name.clone();
        if func.body.is_some() || !matches!(name.as_str(), "pthread_barrier_wait" | "pthread_once")
        {
            return Ok(call);
        }
        let loc = call.loc;
        if self.atomic_depth > 0 || self.in_atomic_fn {
            return Err(self.unsupported(
                span,
                format!("`{name}` inside an atomic section (it may block)"),
            ));
        }
        if self.func.is_none() {
            return Err(self.error(span, format!("`{name}` outside a function")));
        }
        let want = if name == "pthread_once" { 2 } else { 1 };
        if args.len() != want {
            return Err(self.error(
                span,
                format!("`{name}` takes {want} argument(s), not {}", args.len()),
            ));
        }
        self.lowered_sync.push((f, loc));
        let mut stmts = vec![];
        let obj = self.object_once(args[0].clone(), &mut stmts);
        if name == "pthread_barrier_wait" {
            let arrive = self.builtin_call(BARRIER_ARRIVE, vec![obj.clone()], loc);
            let g = self
                .prog
                .new_local(self.func, "__seq_barrier_generation", Type::int(), loc);
            stmts.push(Stmt::new(
                StmtKind::Decl {
                    var: g,
                    init: Some(Init::Expr(arrive)),
                },
                loc,
            ));
            let gen_value = Expr::var(g, self.prog, loc);
            let leave = self.builtin_call(BARRIER_LEAVE, vec![obj, gen_value], loc);
            stmts.push(Stmt::expr(leave));
            return Ok(Expr::new(ExprKind::StmtExpr(stmts), Type::int(), loc));
        }
        // `pthread_once`: the routine must be a function the analysis can name.
        let routine = match args[1].peel().kind {
            ExprKind::Func(g) => g,
            _ => {
                return Err(self.unsupported(
                    span,
                    "`pthread_once` with an init routine that is not a named function",
                ));
            }
        };
        let rty = self.prog.func(routine).ty.clone();
        if !rty.params.is_empty() || rty.variadic {
            return Err(self.unsupported(
                span,
                "`pthread_once` with an init routine that takes arguments",
            ));
        }
        self.once_routines.push((routine, loc));
        let begin = self.builtin_call(ONCE_BEGIN, vec![obj.clone()], loc);
        let end = self.builtin_call(ONCE_END, vec![obj], loc);
        let run = Expr::new(
            ExprKind::Call(Box::new(self.func_expr(routine, loc)), vec![]),
            rty.ret.unqualified().clone(),
            loc,
        );
        stmts.push(Stmt::new(
            StmtKind::If {
                cond: begin,
                then: Box::new(Stmt::block(vec![Stmt::expr(run), Stmt::expr(end)], loc)),
                els: None,
            },
            loc,
        ));
        stmts.push(Stmt::expr(Expr::int(0, Type::int(), loc)));
        Ok(Expr::new(ExprKind::StmtExpr(stmts), Type::int(), loc))
    }

    /// glibc puts a `pthread_once` control back to "not started" when its routine ends
    /// its thread (`pthread_exit` runs the cancellation handler), and another caller runs
    /// the routine again; the model keeps it "running", so that caller would block for
    /// ever. A routine that may reach `pthread_exit`, or a call seqloc cannot resolve, is
    /// refused at its `pthread_once`.
    pub(super) fn refuse_once_routines_that_exit(&mut self) -> R<()> {
        // A program's own `pthread_barrier_wait` or `pthread_once`, defined after a call
        // the library's meaning was given to.
        for &(f, loc) in &self.lowered_sync {
            if self.prog.func(f).body.is_some() {
                let name = self.prog.func(f).name.clone();
                let spot = SourceSpot::at(
                    &self.prog.sources,
                    loc,
                    format!("a call of the program's own `{name}` before its definition"),
                );
                return Err(FrontendError::Unsupported(spot));
            }
        }
        for (routine, loc) in self.once_routines.clone() {
            let mut seen = HashSet::from([routine]);
            let mut todo = vec![routine];
            while let Some(g) = todo.pop() {
                let Some(body) = &self.prog.func(g).body else {
                    continue;
                };
                let mut why: Option<&str> = None;
                let mut next = vec![];
                crate::ir::visit::each_expr(body, &mut |e| {
                    let ExprKind::Call(c, _) = &e.kind else {
                        return;
                    };
                    match c.peel().kind {
                        ExprKind::Func(h) => {
                            if classify(&self.prog.func(h).name) == Known::ThreadExit {
                                why = Some("may end its thread with `pthread_exit`");
                            }
                            next.push(h);
                        }
                        _ => why = Some("calls a function through a pointer"),
                    }
                });
                if let Some(why) = why {
                    let name = self.prog.func(routine).name.clone();
                    let spot = SourceSpot::at(
                        &self.prog.sources,
                        loc,
                        format!(
                            "`pthread_once` with the init routine `{name}`, which {why}: \
                             a control reset by an ended routine is not modelled"
                        ),
                    );
                    return Err(FrontendError::Unsupported(spot));
                }
                for h in next {
                    if seen.insert(h) {
                        todo.push(h);
                    }
                }
            }
        }
        Ok(())
    }

    /// The object argument, evaluated once: `&x` of a stable `x` as it is, anything else
    /// through a temporary.
    pub(super) fn object_once(&mut self, arg: Expr, stmts: &mut Vec<Stmt>) -> Expr {
        if let ExprKind::AddrOf(x) = &arg.peel().kind {
            if is_stable(x) {
                return arg;
            }
        }
        let loc = arg.loc;
        let ty = arg.ty.clone();
        let v = self.prog.new_local(self.func, "__seq_sync_object", ty, loc);
        stmts.push(Stmt::new(
            StmtKind::Decl {
                var: v,
                init: Some(Init::Expr(arg)),
            },
            loc,
        ));
        Expr::var(v, self.prog, loc)
    }

    /// A call of one of seqloc's own functions (declared, unprototyped, on first use).
    pub(super) fn builtin_call(&mut self, name: &str, args: Vec<Expr>, loc: Loc) -> Expr {
        let f = match self.prog.func_named(name) {
            Some(f) => f,
            None => {
                let f = self
                    .prog
                    .add_func(Function::undeclared_int(name, Loc::SYNTH));
                self.prog.items.push(Item::Func(f));
                f
            }
        };
        let callee = self.func_expr(f, loc);
        Expr::new(ExprKind::Call(Box::new(callee), args), Type::int(), loc)
    }
}
