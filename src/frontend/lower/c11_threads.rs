//! C11's `<threads.h>` lowered onto the pthread calls every engine models, as glibc
//! implements it (`nptl/thrd_*.c`, `mtx_*.c`, `cnd_*.c`, `tss_*.c`, `call_once.c`): each
//! C11 function is the pthread function of the same meaning, its error number mapped to
//! C11's result (`thrd_err_map`: 0 → `thrd_success`, `EBUSY` → `thrd_busy`, `ETIMEDOUT` →
//! `thrd_timedout`, `ENOMEM` → `thrd_nomem`, anything else → `thrd_error`).
//!
//! Two differences need more than a rename:
//!
//! * A C11 thread returns an `int`, a pthread one a `void *`. The start routines given to
//!   `thrd_create` are re-typed once the unit is lowered (`retype_c11_start_routines`):
//!   their `return e;` becomes `return (void *)(intptr_t)e;`, and `thrd_join` reads the
//!   result back as `(int)(intptr_t)`. A routine the program also calls directly or
//!   takes the address of elsewhere would then return the wrong type there: refused by
//!   name.
//! * `mtx_init`'s type: `mtx_plain` and `mtx_timed` are the default mutex, a type with
//!   `mtx_recursive` a recursive one (through a mutex attribute, as glibc does); any other
//!   value answers `thrd_error` and leaves the mutex uninitialized.
//!
//! `mtx_timedlock` is not modelled (neither is `pthread_mutex_timedlock`) and stays
//! refused by name; `thrd_sleep` and `thrd_yield` change nothing the model keeps
//! (`thrd_sleep` answers 0, an uninterrupted sleep).

use std::collections::HashMap;

use lang_c::span::Span;

use super::{FrontendError, Lowerer, R};
use crate::diagnostics::SourceSpot;
use crate::ir::build as b;
use crate::ir::visit::{self, VisitorMut};
use crate::ir::*;

/// glibc's error numbers and C11's results (`<threads.h>`'s enumeration).
const EBUSY: i128 = 16;
const ENOMEM: i128 = 12;
const ETIMEDOUT: i128 = 110;
const THRD_SUCCESS: i128 = 0;
const THRD_BUSY: i128 = 1;
const THRD_ERROR: i128 = 2;
const THRD_NOMEM: i128 = 3;
const THRD_TIMEDOUT: i128 = 4;
/// `mtx_recursive` in `mtx_init`'s type, and the types C11 defines (`mtx_plain` 0,
/// `mtx_recursive` 1, `mtx_timed` 2, and the two combinations with `mtx_recursive`).
const MTX_RECURSIVE: i128 = 1;
const MTX_TYPES: i128 = 3;
/// `PTHREAD_MUTEX_RECURSIVE` in glibc and musl.
const PTHREAD_MUTEX_RECURSIVE: i128 = 1;

/// The `<threads.h>` functions this module lowers.
fn is_c11_thread_function(name: &str) -> bool {
    matches!(
        name,
        "thrd_create"
            | "thrd_join"
            | "thrd_exit"
            | "thrd_current"
            | "thrd_equal"
            | "thrd_detach"
            | "thrd_yield"
            | "thrd_sleep"
            | "mtx_init"
            | "mtx_lock"
            | "mtx_trylock"
            | "mtx_unlock"
            | "mtx_destroy"
            | "cnd_init"
            | "cnd_signal"
            | "cnd_broadcast"
            | "cnd_wait"
            | "cnd_timedwait"
            | "cnd_destroy"
            | "tss_create"
            | "tss_get"
            | "tss_set"
            | "tss_delete"
            | "call_once"
    )
}

impl Lowerer<'_, '_> {
    /// `call` (already lowered) itself, or its lowering when it calls one of the C
    /// library's `<threads.h>` functions.
    pub(super) fn c11_thread_call(&mut self, call: Expr, span: Span) -> R<Expr> {
        let ExprKind::Call(callee, args) = &call.kind else {
            return Ok(call);
        };
        let ExprKind::Func(f) = callee.peel().kind else {
            return Ok(call);
        };
        let name = self.prog.func(f).name.clone();
        if self.prog.func(f).body.is_none() && name == "mtx_timedlock" {
            return Err(self.unsupported(
                span,
                "a call to `mtx_timedlock`: a wait until a deadline on the clock is not \
                 modelled (nor is `pthread_mutex_timedlock`)",
            ));
        }
        if self.prog.func(f).body.is_some() || !is_c11_thread_function(&name) {
            return Ok(call);
        }
        let want = match name.as_str() {
            "thrd_current" | "thrd_yield" => 0,
            "thrd_exit" | "thrd_detach" | "mtx_lock" | "mtx_trylock" | "mtx_unlock"
            | "mtx_destroy" | "cnd_init" | "cnd_signal" | "cnd_broadcast" | "cnd_destroy"
            | "tss_get" | "tss_delete" => 1,
            "thrd_create" | "cnd_timedwait" => 3,
            _ => 2,
        };
        if args.len() != want {
            return Err(self.error(
                span,
                format!("`{name}` takes {want} argument(s), not {}", args.len()),
            ));
        }
        if self.func.is_none() {
            return Err(self.error(span, format!("`{name}` outside a function")));
        }
        // A definition of the program's own `mtx_lock`... after this call is refused
        // with the pthread lowerings' (`refuse_once_routines_that_exit`).
        self.lowered_sync.push((f, call.loc));
        let loc = call.loc;
        let args = args.clone();
        let a = |i: usize| args.get(i).cloned().unwrap_or_else(|| b::int(0));
        let int = Type::int();
        let e = match name.as_str() {
            "thrd_create" => {
                let routine = match a(1).peel().kind {
                    ExprKind::Func(g) => g,
                    _ => {
                        return Err(self.unsupported(
                            span,
                            "`thrd_create` with a start routine that is not a named function",
                        ));
                    }
                };
                self.c11_starts.entry(routine).or_default().push(loc);
                let start = Expr::new(ExprKind::Func(routine), Type::ptr(start_type()), loc);
                let null = Expr::int(0, Type::void_ptr(), loc);
                let r =
                    self.pthread_call("pthread_create", int, vec![a(0), null, start, a(2)], loc)?;
                err_map(self, r, loc)
            }
            "thrd_join" => return self.c11_join(a(0), a(1), span, loc),
            "thrd_exit" => {
                let tt = self.prog.types.clone();
                let v = b::conv(
                    b::conv(a(0), &Type::Int(IntKind::Long), &tt),
                    &Type::void_ptr(),
                    &tt,
                );
                let mut e = self.pthread_call("pthread_exit", Type::Void, vec![v], loc)?;
                e.loc = loc;
                e
            }
            "thrd_current" => {
                let ret = self.prog.func(f).ty.ret.unqualified().clone();
                self.pthread_call("pthread_self", ret, vec![], loc)?
            }
            "thrd_equal" => self.pthread_call("pthread_equal", int, args.clone(), loc)?,
            "thrd_detach" => {
                let r = self.pthread_call("pthread_detach", int, args.clone(), loc)?;
                err_map(self, r, loc)
            }
            "thrd_yield" => self.pthread_call("sched_yield", int, vec![], loc)?,
            "thrd_sleep" => {
                // The arguments are evaluated for their effects; the sleep is a no-op.
                let stmts = vec![
                    Stmt::expr(a(0)),
                    Stmt::expr(a(1)),
                    Stmt::expr(Expr::int(0, int.clone(), loc)),
                ];
                Expr::new(ExprKind::StmtExpr(stmts), int, loc)
            }
            "mtx_init" => return self.c11_mutex_init(a(0), a(1), loc),
            "mtx_lock" | "mtx_trylock" | "mtx_unlock" | "cnd_signal" | "cnd_broadcast"
            | "cnd_wait" | "cnd_timedwait" => {
                let pthread = match name.as_str() {
                    "mtx_lock" => "pthread_mutex_lock",
                    "mtx_trylock" => "pthread_mutex_trylock",
                    "mtx_unlock" => "pthread_mutex_unlock",
                    "cnd_signal" => "pthread_cond_signal",
                    "cnd_broadcast" => "pthread_cond_broadcast",
                    "cnd_wait" => "pthread_cond_wait",
                    _ => "pthread_cond_timedwait",
                };
                let r = self.pthread_call(pthread, int, args.clone(), loc)?;
                err_map(self, r, loc)
            }
            "mtx_destroy" => self.pthread_call("pthread_mutex_destroy", int, args.clone(), loc)?,
            "cnd_destroy" => self.pthread_call("pthread_cond_destroy", int, args.clone(), loc)?,
            "cnd_init" => {
                let null = Expr::int(0, Type::void_ptr(), loc);
                let r = self.pthread_call("pthread_cond_init", int, vec![a(0), null], loc)?;
                err_map(self, r, loc)
            }
            "tss_create" | "tss_set" => {
                let pthread = if name == "tss_create" {
                    "pthread_key_create"
                } else {
                    "pthread_setspecific"
                };
                let r = self.pthread_call(pthread, int, args.clone(), loc)?;
                err_map(self, r, loc)
            }
            "tss_get" => {
                self.pthread_call("pthread_getspecific", Type::void_ptr(), args.clone(), loc)?
            }
            "tss_delete" => self.pthread_call("pthread_key_delete", int, args.clone(), loc)?,
            "call_once" => {
                // `pthread_once` on the flag's one `int` (glibc's `once_flag` is a struct
                // holding the `pthread_once_t`), lowered further by `barrier_or_once`.
                let tt = self.prog.types.clone();
                let flag = b::conv(a(0), &Type::ptr(int.clone()), &tt);
                self.pthread_call("pthread_once", int, vec![flag, a(1)], loc)?
            }
            _ => return Ok(call),
        };
        Ok(e)
    }

    /// `thrd_join(t, res)`: `pthread_join` into a `void *`, read back as the `int` the
    /// thread returned.
    fn c11_join(&mut self, t: Expr, res: Expr, span: Span, loc: Loc) -> R<Expr> {
        let int = Type::int();
        let tt = self.prog.types.clone();
        if res.as_int() == Some(0) || is_null_pointer(&res) {
            let null = Expr::int(0, Type::ptr(Type::void_ptr()), loc);
            let r = self.pthread_call("pthread_join", int, vec![t, null], loc)?;
            return Ok(err_map(self, r, loc));
        }
        if res.ty.pointee(&tt).is_none() {
            return Err(self.error(span, "`thrd_join`'s result is not a pointer"));
        }
        let mut stmts = vec![];
        let res = self.object_once(res, &mut stmts);
        let ret = self
            .prog
            .new_local(self.func, "__seq_thread_result", Type::void_ptr(), loc);
        stmts.push(Stmt::new(
            StmtKind::Decl {
                var: ret,
                init: None,
            },
            loc,
        ));
        let place = b::addr_of(Expr::var(ret, self.prog, loc));
        let joined = self.pthread_call("pthread_join", int.clone(), vec![t, place], loc)?;
        let e = self
            .prog
            .new_local(self.func, "__seq_join_error", int.clone(), loc);
        stmts.push(Stmt::new(
            StmtKind::Decl {
                var: e,
                init: Some(Init::Expr(joined)),
            },
            loc,
        ));
        let value = b::conv(
            b::conv(
                Expr::var(ret, self.prog, loc),
                &Type::Int(IntKind::Long),
                &tt,
            ),
            &int,
            &tt,
        );
        let store = b::relocate(b::assign(b::deref(res.clone(), &tt), value, &tt), loc);
        let nonnull = b::bin(BinOp::Ne, res.clone(), b::conv(b::int(0), &res.ty, &tt));
        let ok = b::bin(BinOp::Eq, Expr::var(e, self.prog, loc), b::int(0));
        stmts.push(Stmt::new(
            StmtKind::If {
                cond: b::relocate(b::and(nonnull, ok), loc),
                then: Box::new(Stmt::expr(store)),
                els: None,
            },
            loc,
        ));
        let mapped = err_map(self, Expr::var(e, self.prog, loc), loc);
        stmts.push(Stmt::expr(mapped));
        Ok(Expr::new(ExprKind::StmtExpr(stmts), int, loc))
    }

    /// `mtx_init(m, type)`: the default mutex for `mtx_plain` and `mtx_timed`, a
    /// recursive one (through an attribute) when `type` has `mtx_recursive`, and
    /// `thrd_error` for anything else.
    fn c11_mutex_init(&mut self, m: Expr, kind: Expr, loc: Loc) -> R<Expr> {
        let int = Type::int();
        let tt = self.prog.types.clone();
        let null = Expr::int(0, Type::void_ptr(), loc);
        match kind.as_int() {
            Some(k) if !(0..=MTX_TYPES).contains(&k) => {
                return Ok(Expr::new(
                    ExprKind::StmtExpr(vec![
                        Stmt::expr(m),
                        Stmt::expr(Expr::int(THRD_ERROR, int.clone(), loc)),
                    ]),
                    int,
                    loc,
                ));
            }
            Some(k) if k & MTX_RECURSIVE == 0 => {
                let r = self.pthread_call("pthread_mutex_init", int, vec![m, null], loc)?;
                return Ok(err_map(self, r, loc));
            }
            _ => {}
        }
        // A recursive type, or one only known when the program runs.
        let mut stmts = vec![];
        let kv = self
            .prog
            .new_local(self.func, "__seq_mutex_type", int.clone(), loc);
        stmts.push(Stmt::new(
            StmtKind::Decl {
                var: kv,
                init: Some(Init::Expr(b::conv(kind, &int, &tt))),
            },
            loc,
        ));
        let attr = self
            .prog
            .new_local(self.func, "__seq_mutex_attr", int.clone(), loc);
        stmts.push(Stmt::new(
            StmtKind::Decl {
                var: attr,
                init: None,
            },
            loc,
        ));
        let ap = b::addr_of(Expr::var(attr, self.prog, loc));
        let init_attr =
            self.pthread_call("pthread_mutexattr_init", int.clone(), vec![ap.clone()], loc)?;
        let k = Expr::var(kv, self.prog, loc);
        let recursive = b::bin(
            BinOp::Ne,
            b::bin(BinOp::BitAnd, k.clone(), b::int(MTX_RECURSIVE)),
            b::int(0),
        );
        let ptype = b::cond(recursive, b::int(PTHREAD_MUTEX_RECURSIVE), b::int(0), loc);
        let settype = self.pthread_call(
            "pthread_mutexattr_settype",
            int.clone(),
            vec![ap.clone(), ptype],
            loc,
        )?;
        let init = self.pthread_call("pthread_mutex_init", int.clone(), vec![m, ap], loc)?;
        let r = self
            .prog
            .new_local(self.func, "__seq_init_result", int.clone(), loc);
        stmts.push(Stmt::new(
            StmtKind::Decl {
                var: r,
                init: Some(Init::Expr(Expr::int(THRD_ERROR, int.clone(), loc))),
            },
            loc,
        ));
        let valid = b::bin(
            BinOp::Eq,
            b::bin(BinOp::BitAnd, k, b::int(!MTX_TYPES)),
            b::int(0),
        );
        let mapped = err_map(self, init, loc);
        let set_r = b::relocate(b::assign(Expr::var(r, self.prog, loc), mapped, &tt), loc);
        stmts.push(Stmt::new(
            StmtKind::If {
                cond: b::relocate(valid, loc),
                then: Box::new(Stmt::block(
                    vec![
                        Stmt::expr(init_attr),
                        Stmt::expr(settype),
                        Stmt::expr(set_r),
                    ],
                    loc,
                )),
                els: None,
            },
            loc,
        ));
        stmts.push(Stmt::expr(Expr::var(r, self.prog, loc)));
        Ok(Expr::new(ExprKind::StmtExpr(stmts), int, loc))
    }

    /// A call of the pthread function `name`: the program's own declaration of it (from
    /// `<pthread.h>`), each argument converted to its parameter's type, or a declaration
    /// made here from the arguments' types.
    fn pthread_call(&mut self, name: &str, ret: Type, args: Vec<Expr>, loc: Loc) -> R<Expr> {
        let tt = self.prog.types.clone();
        let f = match self.prog.func_named(name) {
            Some(f) if self.prog.func(f).body.is_some() => {
                let spot = SourceSpot::at(
                    &self.prog.sources,
                    loc,
                    format!(
                        "a C11 thread call, which seqloc models as glibc does, through `{name}`, \
                         and the program defines its own `{name}`"
                    ),
                );
                return Err(FrontendError::Unsupported(spot));
            }
            Some(f) => f,
            None => {
                let mut func = Function::undeclared_int(name, Loc::SYNTH);
                func.ty = FuncType {
                    ret: ret.clone(),
                    params: args.iter().map(|a| a.ty.unqualified().clone()).collect(),
                    variadic: false,
                    unprototyped: false,
                };
                func.noreturn = name == "pthread_exit";
                let f = self.prog.add_func(func);
                self.prog.items.push(Item::Func(f));
                f
            }
        };
        let fty = self.prog.func(f).ty.clone();
        let args = args
            .into_iter()
            .enumerate()
            .map(|(i, a)| match fty.params.get(i) {
                Some(p) if !fty.unprototyped && !matches!(a.peel().kind, ExprKind::Func(_)) => {
                    b::conv(a, p, &tt)
                }
                _ => a,
            })
            .collect();
        let callee = self.func_expr(f, loc);
        let ret = fty.ret.unqualified().clone();
        Ok(Expr::new(ExprKind::Call(Box::new(callee), args), ret, loc))
    }

    /// Once the unit is lowered: each start routine given to `thrd_create` returns a
    /// `void *` holding its `int`, as a pthread start routine does (see the module
    /// comment).
    pub(super) fn retype_c11_start_routines(&mut self) -> R<()> {
        let starts = std::mem::take(&mut self.c11_starts);
        if starts.is_empty() {
            return Ok(());
        }
        let mut routines: Vec<(FuncId, Vec<Loc>)> = starts.into_iter().collect();
        routines.sort_by_key(|(f, _)| *f);
        for (f, sites) in &routines {
            let first = sites.first().copied().unwrap_or(Loc::SYNTH);
            let refuse = |prog: &Program, why: String| {
                FrontendError::Unsupported(SourceSpot::at(&prog.sources, first, why))
            };
            let func = self.prog.func(*f);
            let name = func.name.clone();
            if func.body.is_none() {
                return Err(refuse(
                    self.prog,
                    format!("`thrd_create` of `{name}`, which the program does not define"),
                ));
            }
            let int_result = matches!(func.ty.ret.resolve(self.tt()), Type::Int(_));
            if !int_result || func.ty.params.len() > 1 || func.ty.variadic {
                return Err(refuse(
                    self.prog,
                    format!("`thrd_create` of `{name}`, which is no `int (void *)` function"),
                ));
            }
            let uses = references(self.prog, *f);
            if uses > sites.len() {
                return Err(refuse(
                    self.prog,
                    format!(
                        "the C11 thread function `{name}` is also called or named elsewhere: \
                         seqloc runs it as a pthread start routine returning `void *`"
                    ),
                ));
            }
        }
        let tt = self.prog.types.clone();
        for (f, _) in &routines {
            let func = &mut self.prog.funcs[f.0 as usize];
            func.ty.ret = Type::void_ptr();
            if let Some(body) = &mut func.body {
                ReturnPointer { tt: &tt }.visit_stmt(body);
            }
        }
        // Every designator of a re-typed routine now has the new type.
        let retyped: Vec<FuncId> = routines.iter().map(|(f, _)| *f).collect();
        let types: HashMap<FuncId, Type> = retyped
            .iter()
            .map(|f| {
                (
                    *f,
                    Type::ptr(Type::Function(Box::new(self.prog.func(*f).ty.clone()))),
                )
            })
            .collect();
        let mut fix = Designators { types: &types };
        for func in &mut self.prog.funcs {
            if let Some(body) = &mut func.body {
                fix.visit_stmt(body);
            }
        }
        Ok(())
    }
}

/// `void *(void *)`, a pthread start routine's type.
fn start_type() -> Type {
    Type::Function(Box::new(FuncType {
        ret: Type::void_ptr(),
        params: vec![Type::void_ptr()],
        variadic: false,
        unprototyped: false,
    }))
}

fn is_null_pointer(e: &Expr) -> bool {
    match &e.kind {
        ExprKind::Cast { e, .. } => e.as_int() == Some(0) || is_null_pointer(e),
        _ => false,
    }
}

/// glibc's `thrd_err_map` of the error number `e`, which is evaluated once.
fn err_map(l: &mut Lowerer<'_, '_>, e: Expr, loc: Loc) -> Expr {
    let int = Type::int();
    let v = l
        .prog
        .new_local(l.func, "__seq_pthread_error", int.clone(), loc);
    let read = || Expr::var(v, l.prog, loc);
    let is = |n: i128| b::bin(BinOp::Eq, read(), b::int(n));
    let mapped = b::cond(
        is(0),
        b::int(THRD_SUCCESS),
        b::cond(
            is(EBUSY),
            b::int(THRD_BUSY),
            b::cond(
                is(ETIMEDOUT),
                b::int(THRD_TIMEDOUT),
                b::cond(is(ENOMEM), b::int(THRD_NOMEM), b::int(THRD_ERROR), loc),
                loc,
            ),
            loc,
        ),
        loc,
    );
    let decl = Stmt::new(
        StmtKind::Decl {
            var: v,
            init: Some(Init::Expr(e)),
        },
        loc,
    );
    Expr::new(
        ExprKind::StmtExpr(vec![decl, Stmt::expr(b::relocate(mapped, loc))]),
        int,
        loc,
    )
}

/// How many times `f` is named in the program's function bodies and global initializers.
fn references(prog: &Program, f: FuncId) -> usize {
    struct Count(FuncId, usize);
    impl visit::Visitor for Count {
        fn visit_expr(&mut self, e: &Expr) {
            if matches!(e.kind, ExprKind::Func(g) if g == self.0) {
                self.1 += 1;
            }
            visit::walk_expr(self, e);
        }
    }
    let mut c = Count(f, 0);
    for func in &prog.funcs {
        if let Some(body) = &func.body {
            visit::Visitor::visit_stmt(&mut c, body);
        }
    }
    for v in &prog.vars {
        if let Some(init) = &v.init {
            visit::Visitor::visit_init(&mut c, init);
        }
    }
    c.1
}

/// `return e;` → `return (void *)(intptr_t)e;`.
struct ReturnPointer<'a> {
    tt: &'a TypeTable,
}

impl VisitorMut for ReturnPointer<'_> {
    fn visit_stmt(&mut self, s: &mut Stmt) {
        if let StmtKind::Return(Some(e)) = &mut s.kind {
            let v = std::mem::replace(e, b::int(0));
            let wide = b::conv(v, &Type::Int(IntKind::Long), self.tt);
            *e = b::conv(wide, &Type::void_ptr(), self.tt);
        }
        visit::walk_stmt_mut(self, s);
    }
}

struct Designators<'a> {
    types: &'a HashMap<FuncId, Type>,
}

impl VisitorMut for Designators<'_> {
    fn visit_expr(&mut self, e: &mut Expr) {
        if let ExprKind::Func(f) = e.kind {
            if let Some(t) = self.types.get(&f) {
                e.ty = t.clone();
            }
        }
        visit::walk_expr_mut(self, e);
    }
}
