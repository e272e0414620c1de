//! `errno`, which glibc (and musl) define as `(*__errno_location ())`: a thread-local
//! `int` of the model, `__seq_errno` (shown as `errno`), 0 when each thread starts (C11
//! 7.5p3 for the first thread; glibc's thread-local storage for the others). The call
//! becomes the variable's address and `*` of it the variable itself, so reads and writes
//! of `errno` are accesses of a `_Thread_local` variable, which every engine already gives
//! each thread its own copy of.
//!
//! What the modelled library calls do to it, in a program that uses `errno` (others are
//! not changed at all):
//!
//! * the pthread functions, the semaphores but `sem_trywait`, `free`, the `<string.h>`
//!   functions, the clocks, `rand`, `sleep`/`usleep`, and `malloc`/`calloc`/`realloc`
//!   (which never fail in the model) leave it unchanged, as glibc's do on success (the
//!   pthread functions return their error instead);
//! * `sem_trywait` that finds the count 0 sets it to `EAGAIN`; `nanosleep` with a request
//!   Linux refuses sets `EINVAL` (`sleep`);
//! * output (`printf`, `puts`...), standard input (`scanf`, `fgets`, `getchar`...) and
//!   the numbers read from `argv` (`sscanf`, `atoi`, `strtol`...) may leave any positive
//!   value in it, or leave it unchanged: C allows any library function whose description
//!   does not say otherwise to set it (C11 7.5p3), and glibc's do (`strtol`'s `ERANGE`,
//!   stdio's failed system calls), so the model allows each.
//!
//! A program that defines its own `__errno_location` keeps it.

use lang_c::ast;
use lang_c::span::Span;
use lang_c::visit::Visit;

use super::Lowerer;
use crate::ir::build as b;
use crate::ir::*;

/// glibc's `EAGAIN`.
const EAGAIN: i128 = 11;

/// The function glibc's `errno` macro calls.
const LOCATION: &str = "__errno_location";

/// Whether the unit reads or writes `errno` (a call of `__errno_location`), found before
/// lowering: the calls that may set it come before its first use too.
pub(super) fn uses_errno(unit: &ast::TranslationUnit) -> bool {
    struct Finder(bool);
    impl<'ast> Visit<'ast> for Finder {
        fn visit_call_expression(&mut self, c: &'ast ast::CallExpression, span: &'ast Span) {
            if let ast::Expression::Identifier(id) = &c.callee.node {
                self.0 |= id.node.name == LOCATION;
            }
            lang_c::visit::visit_call_expression(self, c, span);
        }
    }
    let mut f = Finder(false);
    f.visit_translation_unit(unit);
    f.0
}

/// Library calls that may leave any positive value in `errno` (see the module comment).
fn may_set_errno(name: &str) -> bool {
    crate::ir::known::writes_output(name)
        || matches!(
            name,
            "scanf"
                | "fscanf"
                | "getchar"
                | "fgetc"
                | "getc"
                | "fgets"
                | "sscanf"
                | "atoi"
                | "atol"
                | "atoll"
                | "strtol"
                | "strtoll"
                | "strtoul"
                | "strtoull"
        )
}

impl Lowerer<'_, '_> {
    /// `__errno_location()`: the address of the thread's `errno`; `None` for any other
    /// call, or in a program with its own `__errno_location`.
    pub(super) fn errno_location(&mut self, name: &str, argc: usize, loc: Loc) -> Option<Expr> {
        if name != LOCATION || argc != 0 || self.defines_function(name) || self.func.is_none() {
            return None;
        }
        let v = self.errno_var(loc);
        Some(b::addr_of(Expr::var(v, self.prog, loc)))
    }

    /// `errno` itself when `p` is its address (`*__errno_location ()`).
    pub(super) fn errno_deref(&self, p: &Expr, loc: Loc) -> Option<Expr> {
        let ExprKind::AddrOf(x) = &p.kind else {
            return None;
        };
        match x.kind {
            ExprKind::Var(v) if Some(v) == self.errno => {
                Some(Expr::new(ExprKind::Var(v), x.ty.clone(), loc))
            }
            _ => None,
        }
    }

    /// The thread-local variable that is `errno`, declared at its first use.
    fn errno_var(&mut self, loc: Loc) -> VarId {
        if let Some(v) = self.errno {
            return v;
        }
        let int = Type::int();
        let v = self.prog.new_global(
            "__seq_errno",
            int.clone(),
            Some(Init::Expr(b::typed_int(0, &int))),
            loc,
        );
        let var = self.prog.var_mut(v);
        var.thread_local = true;
        var.source_name = Some("errno".into());
        self.errno = Some(v);
        v
    }

    /// `errno = value;`, in a program that uses `errno` (nothing otherwise).
    pub(super) fn set_errno(&mut self, value: i128, loc: Loc) -> Vec<Stmt> {
        if !self.errno_used {
            return vec![];
        }
        let v = self.errno_var(loc);
        let e = Expr::var(v, self.prog, loc);
        vec![b::expr_stmt(
            b::assign(e, b::int(value), self.tt()),
            loc,
            StmtId::NONE,
        )]
    }

    /// `e`, the lowered call of the library function `name`, followed by what it does to
    /// `errno` (see the module comment) in a program that uses it.
    pub(super) fn errno_after(&mut self, name: Option<&str>, e: Expr, loc: Loc) -> Expr {
        let Some(name) = name else { return e };
        if !self.errno_used || self.defines_function(name) || self.func.is_none() {
            return e;
        }
        let trywait = name == "sem_trywait";
        if !trywait && !may_set_errno(name) {
            return e;
        }
        let errno = self.errno_var(loc);
        let mut stmts = Vec::new();
        let ty = e.ty.clone();
        let value = if ty.is_void(self.tt()) {
            stmts.push(b::expr_stmt(e, loc, StmtId::NONE));
            None
        } else {
            Some(self.declare_temp("__seq_errno_call", &ty, e, &mut stmts, loc))
        };
        let place = Expr::var(errno, self.prog, loc);
        match &value {
            Some(r) if trywait => {
                let set = b::assign(place, b::int(EAGAIN), self.tt());
                stmts.push(b::if_(
                    b::bin(BinOp::Ne, r.clone(), b::typed_int(0, &ty)),
                    vec![b::expr_stmt(set, loc, StmtId::NONE)],
                    None,
                ));
            }
            _ => {
                let int = Type::int();
                let any = self.declare_temp(
                    "__seq_errno_any",
                    &int,
                    b::nondet(&int, loc),
                    &mut stmts,
                    loc,
                );
                let set = b::assign(place, any.clone(), self.tt());
                stmts.push(b::if_(
                    b::bin(BinOp::Gt, any, b::int(0)),
                    vec![b::expr_stmt(set, loc, StmtId::NONE)],
                    None,
                ));
            }
        }
        if let Some(r) = value {
            stmts.push(Stmt::expr(r));
        }
        Expr::new(ExprKind::StmtExpr(stmts), ty, loc)
    }
}

#[cfg(test)]
mod tests {
    use crate::ir::types::DataModel;
    use crate::ir::*;

    fn load(src: &str) -> Program {
        crate::frontend::load_text("t.c", src, DataModel::Lp64).expect("lowers")
    }

    #[test]
    fn errno_is_a_thread_local_int_and_no_call() {
        let p = load(
            "extern int *__errno_location(void);\n\
             int main(void) { (*__errno_location ()) = 3; int *q = &(*__errno_location ());\n\
             return (*__errno_location ()) + *q; }",
        );
        let e = p
            .vars
            .iter()
            .find(|v| v.name == "__seq_errno")
            .expect("errno's variable");
        assert!(e.thread_local && e.kind == VarKind::Global);
        assert_eq!(e.shown_name(), "errno");
        let main = p.main().expect("main");
        let mut calls = 0;
        let mut derefs = 0;
        crate::ir::visit::each_expr(p.func(main).body.as_ref().expect("body"), &mut |x| match &x
            .kind
        {
            ExprKind::Call(..) => calls += 1,
            ExprKind::Deref(inner) if matches!(inner.kind, ExprKind::AddrOf(_)) => derefs += 1,
            _ => {}
        });
        assert_eq!((calls, derefs), (0, 0));
    }

    #[test]
    fn only_a_program_that_uses_errno_has_one() {
        let p = load("int printf(const char *, ...);\nint main(void) { printf(\"x\"); return 0; }");
        assert!(!p.vars.iter().any(|v| v.name == "__seq_errno"));
        let p = load(
            "int printf(const char *, ...);\nextern int *__errno_location(void);\n\
             int main(void) { printf(\"x\"); return (*__errno_location ()); }",
        );
        // The output may set it: a nondeterministic value kept only when positive.
        assert!(p.vars.iter().any(|v| v.name == "__seq_errno_any"));
    }
}
