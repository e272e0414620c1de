//! Cleanup handlers and deferred cancellation, lowered to ordinary statements on a few
//! variables every engine already models.
//!
//! * `pthread_cleanup_push(f, a)` / `pthread_cleanup_pop(e)` are glibc macros: a block
//!   with locals `__cancel_routine = f`, `__cancel_arg = a`, a `__sigsetjmp_cancel` whose
//!   non-zero return (the unwinding) runs the routine, and `__pthread_register_cancel` /
//!   `__pthread_unregister_cancel` around the body; the pop runs the routine itself when
//!   `e` is non-zero. POSIX makes push and pop a lexical pair, so the handlers pushed at a
//!   point of a function are the enclosing blocks' routines: whatever ends the thread there
//!   early — `pthread_exit`, an acted-on cancellation — calls them, innermost first, and the
//!   jump buffer is never jumped to (`__sigsetjmp_cancel` is 0). A call made inside a push
//!   block to a function that may end the thread (`pthread_exit` or a cancellation point,
//!   at any depth) would need the caller's handlers run from there: refused by name.
//! * `pthread_cancel(t)` marks `t`'s request pending (`__seq_cancel_pending[t]`, up to
//!   [`MAX_CANCELLED`] thread ids; a larger one ends the run as a bound reached). The
//!   request acts at the target's next cancellation point while its state is enabled
//!   (`pthread_setcancelstate`, kept per thread id the same way): the handlers run and the thread
//!   exits with `PTHREAD_CANCELED`. Cancellation points modelled: `pthread_testcancel`,
//!   `sleep`, `usleep`, `nanosleep`, `clock_nanosleep`, and the blocking calls `pthread_join`, `pthread_cond_wait`,
//!   `pthread_cond_timedwait` and `sem_wait` when the request is already pending as they
//!   are called. A request arriving while its target is blocked in one of them would wake
//!   it; that is not modelled, so a program in which a thread that may be cancelled blocks
//!   in one is refused by name (`refuse_blocked_cancellation`), as is one where `main`
//!   itself could be cancelled (it names its own id). Asynchronous cancellation
//!   (`PTHREAD_CANCEL_ASYNCHRONOUS`) is refused. POSIX's optional cancellation points
//!   (`printf` and other output) are taken not to be ones (glibc acts there only when the
//!   output reaches a system call): README says so.

use std::collections::{HashMap, HashSet};

use lang_c::ast;
use lang_c::span::Span;
use lang_c::visit::Visit;

use super::{Lowerer, R};
use crate::diagnostics::SourceSpot;
use crate::ir::build as b;
use crate::ir::*;

/// Thread ids whose cancellation is tracked (a larger id ends the run as a bound reached).
pub(super) const MAX_CANCELLED: usize = 64;

/// glibc's `PTHREAD_CANCEL_ENABLE`/`DISABLE` and `DEFERRED`/`ASYNCHRONOUS`.
const CANCEL_DISABLE: i128 = 1;
const CANCEL_ASYNCHRONOUS: i128 = 1;
const EINVAL: i128 = 22;

/// What the unit uses, found before lowering (a call may come before the function that
/// makes the program cancel).
#[derive(Default, Clone, Copy, Debug)]
pub(super) struct CancelUse {
    pub cancels: bool,
    pub cleanup: bool,
}

impl CancelUse {
    pub(super) fn of(unit: &ast::TranslationUnit) -> CancelUse {
        struct Calls(CancelUse);
        impl<'ast> Visit<'ast> for Calls {
            fn visit_call_expression(&mut self, c: &'ast ast::CallExpression, span: &'ast Span) {
                if let ast::Expression::Identifier(id) = &c.callee.node {
                    match id.node.name.as_str() {
                        "pthread_cancel" => self.0.cancels = true,
                        "__pthread_register_cancel" => self.0.cleanup = true,
                        _ => {}
                    }
                }
                lang_c::visit::visit_call_expression(self, c, span);
            }
        }
        let mut v = Calls(CancelUse::default());
        v.visit_translation_unit(unit);
        v.0
    }
}

/// The variables of the model (made on first use) and what the refusals made once the
/// whole program is known need.
#[derive(Default, Clone, Debug)]
pub(super) struct CancelVars {
    pending: Option<VarId>,
    disabled: Option<VarId>,
    /// The current function's pushed handlers: its `__cancel_routine` and `__cancel_arg`
    /// locals, outermost first.
    pub(super) handlers: Vec<(VarId, VarId)>,
    /// Blocking cancellation points and `pthread_self` calls, by function.
    pub(super) blocking: Vec<(FuncId, Loc, String)>,
    pub(super) self_ids: Vec<(FuncId, Loc)>,
    /// Functions that may end their thread early (`pthread_exit`, a cancellation point).
    pub(super) ends_thread: HashSet<FuncId>,
    /// Calls made with handlers pushed: the callee (`None` through a pointer) and where.
    pub(super) calls_in_push: Vec<(Option<FuncId>, Loc)>,
}

impl Lowerer<'_, '_> {
    /// `call` (already lowered) itself, or what it means when it is a cleanup or
    /// cancellation call of the library (see the module docs).
    pub(super) fn cancellation(&mut self, call: Expr, span: Span) -> R<Expr> {
        let ExprKind::Call(callee, args) = &call.kind else {
            return Ok(call);
        };
        let loc = call.loc;
        let callee_fn = match callee.peel().kind {
            ExprKind::Func(f) => Some(f),
            _ => None,
        };
        let library = callee_fn.is_some_and(|f| {
            let name = &self.prog.func(f).name;
            name.starts_with("pthread_")
                || name.starts_with("__pthread_")
                || name.starts_with("__sigsetjmp")
        });
        // The macros' own calls of the routine (`__cancel_routine(__cancel_arg)`) are the
        // handler running, not a call that could end the thread.
        let handler_call = matches!(callee.peel().kind, ExprKind::Var(v)
            if self.prog.var(v).name.starts_with("__cancel_routine"));
        if !self.cancel_vars.handlers.is_empty() && !library && !handler_call {
            self.cancel_vars.calls_in_push.push((callee_fn, loc));
        }
        let Some(f) = callee_fn else {
            return Ok(call);
        };
        if self.prog.func(f).body.is_some() {
            return Ok(call);
        }
        let name = self.prog.func(f).name.clone();
        let uses = self.cancel_use;
        let here = self.func;
        if let Some(g) = here {
            let ends = name == "pthread_exit"
                || (uses.cancels
                    && matches!(
                        name.as_str(),
                        "pthread_testcancel"
                            | "sleep"
                            | "usleep"
                            | "nanosleep"
                            | "clock_nanosleep"
                            | "pthread_join"
                            | "pthread_cond_wait"
                            | "pthread_cond_timedwait"
                            | "sem_wait"
                    ));
            if ends {
                self.cancel_vars.ends_thread.insert(g);
            }
        }
        let out = match name.as_str() {
            "__sigsetjmp_cancel" if uses.cleanup => {
                // The handlers run from the stack instead of by a jump back here.
                Expr::new(ExprKind::Int(0), Type::int(), loc)
            }
            "__pthread_unwind_next" if uses.cleanup => {
                // Reached only after a jump back, which never happens.
                stmt_expr(vec![assume_false(loc)], loc)
            }
            "__pthread_register_cancel" => {
                self.push_handler(span)?;
                stmt_expr(vec![], loc)
            }
            "__pthread_unregister_cancel" => {
                self.cancel_vars.handlers.pop();
                stmt_expr(vec![], loc)
            }
            "pthread_exit" if !self.cancel_vars.handlers.is_empty() => {
                let mut v = self.run_handlers(loc);
                v.push(Stmt::expr(call.clone()));
                stmt_expr(v, loc)
            }
            "pthread_cancel" => {
                let t = args
                    .first()
                    .cloned()
                    .ok_or_else(|| self.error(span, "`pthread_cancel` takes 1 argument, not 0"))?;
                let pending = self.cancel_var(Var::Pending);
                let tt = self.prog.types.clone();
                let t = b::conv(t, &Type::uint(), &tt);
                let too_big = b::bin(BinOp::Ge, t.clone(), b::uint(MAX_CANCELLED as i128));
                let mark = b::assign(b::elem(self.prog, pending, t), b::int(1), &tt);
                let v = vec![
                    b::if_(
                        too_big,
                        vec![b::expr_stmt(b::bound_cut(loc), loc, StmtId::NONE)],
                        None,
                    ),
                    b::expr_stmt(mark, loc, StmtId::NONE),
                    Stmt::expr(Expr::new(ExprKind::Int(0), Type::int(), loc)),
                ];
                stmt_expr(v, loc)
            }
            "pthread_testcancel" => stmt_expr(self.cancellation_point(loc), loc),
            "sleep" | "usleep" | "nanosleep" | "clock_nanosleep" if uses.cancels => {
                let mut v = self.cancellation_point(loc);
                v.push(Stmt::expr(self.sleep_call(call.clone(), span)?));
                stmt_expr(v, loc)
            }
            "pthread_join" | "pthread_cond_wait" | "pthread_cond_timedwait" | "sem_wait"
                if uses.cancels =>
            {
                if let Some(g) = here {
                    self.cancel_vars.blocking.push((g, loc, name.clone()));
                }
                let mut v = self.cancellation_point(loc);
                v.push(Stmt::expr(call.clone()));
                stmt_expr(v, loc)
            }
            "pthread_self" if uses.cancels => {
                if let Some(g) = here {
                    self.cancel_vars.self_ids.push((g, loc));
                }
                return Ok(call);
            }
            "pthread_setcancelstate" => self.set_cancel_state(args, span, loc)?,
            "pthread_setcanceltype" => {
                let ty = args.first().and_then(Expr::as_int);
                match ty {
                    Some(0) => {
                        // Deferred, as it was: the old type is deferred too.
                        let mut v = vec![];
                        if let Some(old) = args.get(1).filter(|o| o.as_int() != Some(0)) {
                            let tt = self.prog.types.clone();
                            let store = b::assign(b::deref(old.clone(), &tt), b::int(0), &tt);
                            v.push(b::if_(
                                b::bin(BinOp::Ne, old.clone(), null(&old.ty, loc)),
                                vec![b::expr_stmt(store, loc, StmtId::NONE)],
                                None,
                            ));
                        }
                        v.push(Stmt::expr(Expr::new(ExprKind::Int(0), Type::int(), loc)));
                        stmt_expr(v, loc)
                    }
                    Some(t) if t == CANCEL_ASYNCHRONOUS => {
                        return Err(self.unsupported(
                            span,
                            "asynchronous cancellation (`PTHREAD_CANCEL_ASYNCHRONOUS`): a thread \
                             cancelled at any instruction",
                        ));
                    }
                    _ => {
                        return Err(self.unsupported(
                            span,
                            "`pthread_setcanceltype` with a type that is not a constant",
                        ));
                    }
                }
            }
            _ => return Ok(call),
        };
        Ok(crate::ir::build::relocate(out, loc))
    }

    /// `pthread_setcancelstate(state, old)`: the old state through `old` (unless null),
    /// the new one kept; `EINVAL` for a state that is neither. Not a cancellation point.
    fn set_cancel_state(&mut self, args: &[Expr], span: Span, loc: Loc) -> R<Expr> {
        let [state, old, ..] = args else {
            return Err(self.error(span, "`pthread_setcancelstate` takes 2 arguments"));
        };
        let disabled = self.cancel_var(Var::Disabled);
        let tt = self.prog.types.clone();
        let me = self.builtin_call("pthread_self", vec![], loc);
        let me = b::conv(me, &Type::uint(), &tt);
        let mine = b::elem(self.prog, disabled, me.clone());
        let valid = b::bin(
            BinOp::LogOr,
            b::bin(BinOp::Eq, state.clone(), b::int(0)),
            b::bin(BinOp::Eq, state.clone(), b::int(CANCEL_DISABLE)),
        );
        let mut set = vec![];
        if old.as_int() != Some(0) {
            let store = b::assign(b::deref(old.clone(), &tt), mine.clone(), &tt);
            set.push(b::if_(
                b::bin(BinOp::Ne, old.clone(), null(&old.ty, loc)),
                vec![b::expr_stmt(store, loc, StmtId::NONE)],
                None,
            ));
        }
        let keep = b::assign(
            mine,
            b::bin(BinOp::Eq, state.clone(), b::int(CANCEL_DISABLE)),
            &tt,
        );
        set.push(b::expr_stmt(keep, loc, StmtId::NONE));
        let result = self
            .prog
            .new_local(self.func, "__seq_cancel_result", Type::int(), loc);
        let assign_result = |prog: &Program, v: i128| {
            b::expr_stmt(
                b::assign(b::var(prog, result), b::int(v), &tt),
                loc,
                StmtId::NONE,
            )
        };
        set.push(assign_result(self.prog, 0));
        let invalid = vec![assign_result(self.prog, EINVAL)];
        let too_big = b::bin(BinOp::Ge, me, b::uint(MAX_CANCELLED as i128));
        let v = vec![
            Stmt::new(
                StmtKind::Decl {
                    var: result,
                    init: None,
                },
                loc,
            ),
            b::if_(
                too_big,
                vec![b::expr_stmt(b::bound_cut(loc), loc, StmtId::NONE)],
                None,
            ),
            b::if_(valid, set, Some(invalid)),
            Stmt::expr(b::var(self.prog, result)),
        ];
        Ok(stmt_expr(v, loc))
    }

    /// `__pthread_register_cancel(&buf)` inside glibc's `pthread_cleanup_push` block: the
    /// block's `__cancel_routine` and `__cancel_arg` are pushed (lexically).
    fn push_handler(&mut self, span: Span) -> R<()> {
        let local = |this: &Self, n: &str| match this.lookup(n) {
            Some(super::Binding::Var(v)) => Some(*v),
            _ => None,
        };
        let (Some(routine), Some(arg)) =
            (local(self, "__cancel_routine"), local(self, "__cancel_arg"))
        else {
            return Err(self.unsupported(
                span,
                "`__pthread_register_cancel` outside glibc's `pthread_cleanup_push`",
            ));
        };
        self.cancel_vars.handlers.push((routine, arg));
        Ok(())
    }

    /// The handlers pushed around this point, innermost first.
    fn run_handlers(&mut self, loc: Loc) -> Vec<Stmt> {
        let mut v = Vec::new();
        for (routine, arg) in self.cancel_vars.handlers.clone().into_iter().rev() {
            let f = Expr::var(routine, self.prog, loc);
            let call = Expr::new(
                ExprKind::Call(Box::new(f), vec![Expr::var(arg, self.prog, loc)]),
                Type::Void,
                loc,
            );
            v.push(b::expr_stmt(call, loc, StmtId::NONE));
        }
        v
    }

    /// A cancellation point: with a request pending for this thread and its state
    /// enabled, the handlers run and the thread exits with `PTHREAD_CANCELED`.
    fn cancellation_point(&mut self, loc: Loc) -> Vec<Stmt> {
        if !self.cancel_use.cancels {
            return vec![];
        }
        let pending = self.cancel_var(Var::Pending);
        let disabled = self.cancel_var(Var::Disabled);
        let tt = self.prog.types.clone();
        let me = self.builtin_call("pthread_self", vec![], loc);
        let me = b::conv(me, &Type::uint(), &tt);
        let acts = b::and(
            b::and(
                b::bin(BinOp::Lt, me.clone(), b::uint(MAX_CANCELLED as i128)),
                b::elem(self.prog, pending, me.clone()),
            ),
            b::not(b::elem(self.prog, disabled, me)),
        );
        let mut then = self.run_handlers(loc);
        let canceled = Expr::new(
            ExprKind::Cast {
                e: Box::new(b::int(-1)),
                implicit: false,
            },
            Type::void_ptr(),
            loc,
        );
        let exit = self.builtin_call("pthread_exit", vec![canceled], loc);
        then.push(b::expr_stmt(exit, loc, StmtId::NONE));
        vec![b::if_(acts, then, None)]
    }

    fn cancel_var(&mut self, which: Var) -> VarId {
        let slot = match which {
            Var::Pending => &self.cancel_vars.pending,
            Var::Disabled => &self.cancel_vars.disabled,
        };
        if let Some(v) = slot {
            return *v;
        }
        let ty = Type::Array(Box::new(Type::bool()), Some(MAX_CANCELLED as u64));
        let name = match which {
            Var::Pending => "__seq_cancel_pending",
            Var::Disabled => "__seq_cancel_disabled",
        };
        let v = self.prog.new_global(name, ty, None, Loc::SYNTH);
        match which {
            Var::Pending => self.cancel_vars.pending = Some(v),
            Var::Disabled => self.cancel_vars.disabled = Some(v),
        }
        v
    }

    /// With `pthread_cancel` in the program: a thread that may be cancelled must not block
    /// in a cancellation point (a request arriving then is not modelled), and `main`
    /// must not be a target (it would name its own id with `pthread_self`).
    pub(super) fn refuse_blocked_cancellation(&mut self) -> R<()> {
        if !self.cancel_vars.calls_in_push.is_empty() {
            let (calls, taken) = call_graph(self.prog);
            for (callee, loc) in self.cancel_vars.calls_in_push.clone() {
                let roots: Vec<FuncId> = match callee {
                    Some(f) => vec![f],
                    None => taken.clone(),
                };
                let reached = closure(&calls, roots);
                if reached
                    .iter()
                    .any(|f| self.cancel_vars.ends_thread.contains(f))
                {
                    let s = SourceSpot::at(
                        &self.prog.sources,
                        loc,
                        "a call, inside `pthread_cleanup_push`, of a function that may end the \
                         thread (`pthread_exit` or a cancellation point): the handlers pushed \
                         here would run from inside it, which seqloc does not model",
                    );
                    return Err(super::FrontendError::Unsupported(s.with_note(README)));
                }
            }
        }
        if !self.cancel_use.cancels {
            return Ok(());
        }
        let (from_main, from_threads) = reach(self.prog);
        if let Some((_, loc, name)) = self
            .cancel_vars
            .blocking
            .iter()
            .find(|(f, ..)| from_threads.contains(f))
        {
            let s = SourceSpot::at(
                &self.prog.sources,
                *loc,
                format!(
                    "`{name}` in a thread of a program that calls `pthread_cancel`: a \
                     cancellation arriving while the thread blocks here would wake it, which \
                     seqloc does not model (a request already pending when it is called is)"
                ),
            );
            return Err(super::FrontendError::Unsupported(s.with_note(README)));
        }
        if let Some((_, loc)) = self
            .cancel_vars
            .self_ids
            .iter()
            .find(|(f, _)| from_main.contains(f))
        {
            let s = SourceSpot::at(
                &self.prog.sources,
                *loc,
                "`pthread_self` in code `main` runs, in a program that calls `pthread_cancel`: \
                 `main` could then be cancelled while it blocks in a join, which seqloc does \
                 not model",
            );
            return Err(super::FrontendError::Unsupported(s.with_note(README)));
        }
        Ok(())
    }
}

const README: &str =
    "seqloc supports the C that SV-COMP's pthread tasks use; see README \"Supported C\"";

#[derive(Clone, Copy)]
enum Var {
    Pending,
    Disabled,
}

fn stmt_expr(v: Vec<Stmt>, loc: Loc) -> Expr {
    let ty = match v.last().map(|s| &s.kind) {
        Some(StmtKind::Expr(e)) => e.ty.clone(),
        _ => Type::Void,
    };
    Expr::new(ExprKind::StmtExpr(v), ty, loc)
}

fn assume_false(loc: Loc) -> Stmt {
    b::expr_stmt(
        b::intrinsic(Intrinsic::Assume, vec![b::int(0)], loc),
        loc,
        StmtId::NONE,
    )
}

fn null(ty: &Type, loc: Loc) -> Expr {
    Expr::new(
        ExprKind::Cast {
            e: Box::new(Expr::new(ExprKind::Int(0), Type::int(), loc)),
            implicit: true,
        },
        ty.clone(),
        loc,
    )
}

/// Direct calls by caller, the functions `pthread_create` starts, and the functions whose
/// address is taken (mentioned other than as a direct callee).
fn call_graph(prog: &Program) -> (HashMap<FuncId, Vec<FuncId>>, Vec<FuncId>) {
    let mut calls: HashMap<FuncId, Vec<FuncId>> = HashMap::new();
    let mut mentions: HashMap<FuncId, usize> = HashMap::new();
    let mut direct: HashMap<FuncId, usize> = HashMap::new();
    for (i, f) in prog.funcs.iter().enumerate() {
        let Some(body) = &f.body else { continue };
        let me = FuncId(i as u32);
        crate::ir::visit::each_expr(body, &mut |e| match &e.kind {
            ExprKind::Func(g) => *mentions.entry(*g).or_default() += 1,
            ExprKind::Call(callee, _) => {
                if let ExprKind::Func(g) = callee.peel().kind {
                    calls.entry(me).or_default().push(g);
                    *direct.entry(g).or_default() += 1;
                }
            }
            _ => {}
        });
    }
    let taken = mentions
        .iter()
        .filter(|(f, n)| **n > direct.get(f).copied().unwrap_or(0))
        .map(|(f, _)| *f)
        .collect();
    (calls, taken)
}

fn closure(calls: &HashMap<FuncId, Vec<FuncId>>, roots: Vec<FuncId>) -> HashSet<FuncId> {
    let mut seen: HashSet<FuncId> = HashSet::new();
    let mut todo = roots;
    while let Some(f) = todo.pop() {
        if seen.insert(f) {
            todo.extend(calls.get(&f).into_iter().flatten().copied());
        }
    }
    seen
}

/// The functions `main`'s own thread may run, and those another thread may: direct calls
/// from `main`, and from the functions `pthread_create` starts; a function whose address
/// is taken otherwise counts for both.
fn reach(prog: &Program) -> (HashSet<FuncId>, HashSet<FuncId>) {
    let (calls, taken) = call_graph(prog);
    let mut entries = Vec::new();
    for f in &prog.funcs {
        let Some(body) = &f.body else { continue };
        crate::ir::visit::each_expr(body, &mut |e| {
            if let ExprKind::Call(callee, args) = &e.kind {
                if let ExprKind::Func(g) = callee.peel().kind {
                    if prog.func(g).name == "pthread_create" {
                        if let Some(ExprKind::Func(t)) = args.get(2).map(|a| &a.peel().kind) {
                            entries.push(*t);
                        }
                    }
                }
            }
        });
    }
    let entry_set: HashSet<FuncId> = entries.iter().copied().collect();
    let mut main_roots: Vec<FuncId> = prog.main().into_iter().collect();
    main_roots.extend(taken.iter().filter(|f| !entry_set.contains(f)).copied());
    let mut thread_roots = entries;
    thread_roots.extend(taken);
    (closure(&calls, main_roots), closure(&calls, thread_roots))
}

#[cfg(test)]
mod tests {
    use crate::ir::types::DataModel;
    use crate::ir::*;

    fn load(src: &str) -> Result<Program, String> {
        crate::frontend::load_text("t.c", src, DataModel::Lp64).map_err(|e| e.to_string())
    }

    const DECLS: &str = "typedef unsigned long pthread_t; \
        typedef struct { int b[8]; } __pthread_unwind_buf_t; \
        int __sigsetjmp_cancel(void *b, int m); \
        void __pthread_register_cancel(__pthread_unwind_buf_t *b); \
        void __pthread_unregister_cancel(__pthread_unwind_buf_t *b); \
        void __pthread_unwind_next(__pthread_unwind_buf_t *b); \
        void pthread_exit(void *r); pthread_t pthread_self(void); \
        int pthread_create(pthread_t *t, void *a, void *(*f)(void *), void *arg); \
        int pthread_join(pthread_t t, void **r); int pthread_cancel(pthread_t t); \
        void pthread_testcancel(void); int pthread_cond_wait(void *c, void *m);";

    /// glibc's expansion of `pthread_cleanup_push(f, 0)` (the C, non-exception one).
    fn push(f: &str) -> String {
        format!(
            "do {{ __pthread_unwind_buf_t __cancel_buf; void (*__cancel_routine)(void *) = ({f}); \
             void *__cancel_arg = (0); int __not_first_call = __sigsetjmp_cancel(__cancel_buf.b, 0); \
             if (__not_first_call) {{ __cancel_routine(__cancel_arg); __pthread_unwind_next(&__cancel_buf); }} \
             __pthread_register_cancel(&__cancel_buf); do {{"
        )
    }

    /// glibc's expansion of `pthread_cleanup_pop(e)`.
    fn pop(e: u8) -> String {
        format!(
            "do {{ }} while (0); }} while (0); __pthread_unregister_cancel(&__cancel_buf); \
             if ({e}) __cancel_routine(__cancel_arg); }} while (0);"
        )
    }

    /// The calls of `f`'s body in order: a function's name, or the routine local called.
    fn calls(p: &Program, f: &str) -> (Vec<String>, Vec<VarId>) {
        let f = p.func_named(f).expect("function");
        let body = p.func(f).body.as_ref().expect("body");
        let mut routines = vec![];
        crate::ir::visit::each_stmt(body, &mut |s| {
            if let StmtKind::Decl { var, .. } = s.kind {
                if p.var(var).name == "__cancel_routine" {
                    routines.push(var);
                }
            }
        });
        let mut out = vec![];
        crate::ir::visit::each_expr(body, &mut |e| {
            if let ExprKind::Call(callee, _) = &e.kind {
                out.push(match callee.peel().kind {
                    ExprKind::Func(g) => p.func(g).name.clone(),
                    ExprKind::Var(v) => format!(
                        "routine{}",
                        routines.iter().position(|r| *r == v).map_or(9, |i| i)
                    ),
                    _ => "?".into(),
                });
            }
        });
        (out, routines)
    }

    #[test]
    fn pthread_exit_runs_the_enclosing_handlers_innermost_first() {
        let src = format!(
            "{DECLS} int n; void a(void *x) {{ n = 1; }} void b(void *x) {{ n = 2; }} \
             void *w(void *x) {{ {} {} pthread_exit(0); {} {} return 0; }} \
             int main(void) {{ return 0; }}",
            push("a"),
            push("b"),
            pop(0),
            pop(0)
        );
        let p = load(&src).expect("lowers");
        let (calls, routines) = calls(&p, "w");
        assert_eq!(routines.len(), 2, "{calls:?}");
        let exit = calls
            .iter()
            .position(|c| c == "pthread_exit")
            .expect("pthread_exit");
        assert_eq!(
            calls[..exit].iter().rev().take(2).collect::<Vec<_>>(),
            ["routine0", "routine1"],
            "{calls:?}"
        );
        // The registration calls are gone: nothing of glibc's unwinding is left to model.
        assert!(
            !calls
                .iter()
                .any(|c| c.starts_with("__pthread_") || c.starts_with("__sigsetjmp")),
            "{calls:?}"
        );
    }

    #[test]
    fn a_cancellable_thread_blocking_in_a_cancellation_point_is_refused() {
        let src = format!(
            "{DECLS} int m, c; void *w(void *x) {{ pthread_cond_wait(&c, &m); return 0; }} \
             int main(void) {{ pthread_t t; pthread_create(&t, 0, w, 0); pthread_cancel(t); \
             pthread_join(t, 0); return 0; }}"
        );
        let e = load(&src).expect_err("refused");
        assert!(
            e.contains("pthread_cond_wait") && e.contains("pthread_cancel"),
            "{e}"
        );
        // main's own join is no problem: main cannot be a target.
        let ok = format!(
            "{DECLS} int n; void *w(void *x) {{ pthread_testcancel(); n = 1; return 0; }} \
             int main(void) {{ pthread_t t; pthread_create(&t, 0, w, 0); pthread_cancel(t); \
             pthread_join(t, 0); return 0; }}"
        );
        load(&ok).expect("lowers");
        // ...unless main names its own id.
        let me = format!(
            "{DECLS} pthread_t boss; void *w(void *x) {{ pthread_cancel(boss); return 0; }} \
             int main(void) {{ pthread_t t; boss = pthread_self(); pthread_create(&t, 0, w, 0); \
             pthread_join(t, 0); return 0; }}"
        );
        let e = load(&me).expect_err("refused");
        assert!(e.contains("pthread_self"), "{e}");
    }
}
