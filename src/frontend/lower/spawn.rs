//! CBMC's thread creation by label: `__CPROVER_ASYNC_1: f(x);` runs the labelled statement
//! in a new thread. CBMC's regression tests and older SV-COMP tasks start threads this
//! way; taken as an ordinary label, the statement would run in the spawning thread and
//! every interleaving with it would be missed. It is lowered to what it means: a thread
//! function holding the statement, started by `pthread_create` where the label stands.
//!
//! CBMC's new thread starts with a copy of the locals of the function it was spawned from,
//! taken at the spawn (`goto_symext::symex_start_thread`: "create a copy of the local
//! variables for the new thread"), except for a local whose address is taken anywhere (a
//! "dirty" one), which stays one object both threads share. The copy is what a POSIX
//! program gets by passing the value to `pthread_create`; the sharing has no POSIX
//! counterpart seqloc models, so a statement naming a local whose address is taken is
//! refused by name. So is one that jumps out of itself (a `goto`, `return`, a `break` or
//! `continue` of an enclosing loop, a label another `goto` could reach) and one in an
//! atomic section (CBMC stops there too: "start_thread in atomic section").

use std::collections::HashSet;

use lang_c::ast;
use lang_c::span::{Node, Span};

use super::{Lowerer, R};
use crate::ir::*;

/// The label prefix CBMC reads as "run this statement in a new thread".
pub(super) const ASYNC_LABEL: &str = "__CPROVER_ASYNC_";

impl Lowerer<'_, '_> {
    /// `label: body` with a [`ASYNC_LABEL`] label, lowered to a `pthread_create` of a new
    /// function whose body is `body`.
    pub(super) fn spawn_statement(
        &mut self,
        label: &str,
        body: &Node<ast::Statement>,
        span: Span,
        loc: Loc,
    ) -> R<Stmt> {
        if self.atomic_depth > 0 || self.in_atomic_fn {
            return Err(self.unsupported(
                span,
                format!(
                    "`{label}:` starts a thread inside an atomic section (CBMC refuses it too)"
                ),
            ));
        }
        let Some(spawner) = self.func else {
            return Err(self.error(span, format!("`{label}:` outside a function")));
        };
        let labels_before = self.labels.len();
        let stmt = self.statement(body)?;
        if self.labels.len() > labels_before {
            return Err(self.unsupported(
                span,
                format!("a label inside the statement `{label}:` runs in a new thread"),
            ));
        }
        if let Some(jump) = escape(&stmt, false, false) {
            return Err(self.unsupported(
                span,
                format!(
                    "`{jump}` leaves the statement `{label}:` runs in a new thread \
                     (the thread has nowhere to jump to)"
                ),
            ));
        }
        // The statement's own locals move with it. A local of the spawner it names is
        // handed to the thread as a copy of its value at the spawn (in a heap cell, as a
        // program passing it to `pthread_create` would), which the thread may go on to
        // change as its own, as in CBMC: exact when nobody takes its address (checked
        // when the spawner's body is complete, `check_spawn_copies`).
        let mut own = HashSet::new();
        crate::ir::visit::each_stmt(&stmt, &mut |s| {
            if let StmtKind::Decl { var, .. } = s.kind {
                own.insert(var);
            }
        });
        let mut foreign: Vec<VarId> = Vec::new();
        crate::ir::visit::each_expr(&stmt, &mut |e| {
            if let ExprKind::Var(v) = e.kind {
                if !own.contains(&v)
                    && self.prog.var(v).func == Some(spawner)
                    && !self.prog.var(v).is_static
                    && !foreign.contains(&v)
                {
                    foreign.push(v);
                }
            }
        });
        let shared_local = |this: &Self, v: VarId, why: &str| {
            format!(
                "the statement `{label}:` runs in a new thread {why} `{}`, a local of `{}`",
                this.prog.var(v).shown_name(),
                this.prog.func(spawner).name
            )
        };
        if let [first, second, ..] = foreign.as_slice() {
            let msg = format!(
                "{} and `{}`: seqloc hands such a thread one copied local",
                shared_local(self, *first, "names"),
                self.prog.var(*second).shown_name()
            );
            return Err(self.unsupported(span, msg));
        }
        let copied = foreign.first().copied();
        if let Some(v) = copied {
            // C assigns no arrays: the copy into the heap cell could not be written out.
            if matches!(self.prog.var(v).ty.resolve(self.tt()), Type::Array(..)) {
                let msg = format!(
                    "{}: seqloc copies scalar, pointer and struct locals into such a thread, \
                     not arrays",
                    shared_local(self, v, "names the array")
                );
                return Err(self.unsupported(span, msg));
            }
            if lends(&stmt, v) {
                let msg = format!(
                    "{} (CBMC then shares the local with the thread instead of copying it; \
                     POSIX threads, which seqloc models, have no such sharing)",
                    shared_local(self, v, "takes the address of")
                );
                return Err(self.unsupported(span, msg));
            }
            self.spawn_copies.push((spawner, v, loc, label.to_string()));
        }

        let void_ptr = Type::void_ptr();
        let line = self.prog.sources.line(loc);
        let mut name = format!("__cprover_async_line{line}");
        let mut k = 1;
        while self.prog.func_named(&name).is_some() {
            k += 1;
            name = format!("__cprover_async_line{line}_{k}");
        }
        let fid = self.prog.add_func(Function {
            name: name.clone(),
            ty: FuncType {
                ret: void_ptr.clone(),
                params: vec![void_ptr.clone()],
                variadic: false,
                unprototyped: false,
            },
            params: vec![],
            body: None,
            is_static: true,
            is_inline: false,
            noreturn: false,
            loc,
            unsupported: None,
        });
        let param = self.prog.new_param(fid, "__param0", void_ptr.clone(), loc);
        for v in own {
            self.prog.var_mut(v).func = Some(fid);
        }
        let null = self.conv(Expr::new(ExprKind::Int(0), Type::int(), loc), &void_ptr);
        let mut body = Vec::new();
        let mut spawner_code = Vec::new();
        let mut arg = null.clone();
        let mut stmt = stmt;
        if let Some(v) = copied {
            // Spawner: `T *cell = malloc(sizeof(T)); *cell = v;`, the cell the argument.
            // Thread: `T v' = *(T *)arg;` and the statement reads `v'`.
            let ty = self.prog.var(v).ty.clone();
            let Some(size) = self.prog.sizeof(&ty) else {
                let msg = shared_local(self, v, "names");
                return Err(self.unsupported(span, msg));
            };
            let malloc = self.malloc(span)?;
            let cell = self.prog.new_local(
                Some(spawner),
                "__seq_async_cell",
                Type::ptr(ty.clone()),
                loc,
            );
            let size = Expr::int(size as i128, Type::Int(self.dm().size_t()), loc);
            let callee = self.func_expr(malloc, loc);
            let call = Expr::new(
                ExprKind::Call(Box::new(callee), vec![size]),
                Type::void_ptr(),
                loc,
            );
            let init = self.conv(call, &Type::ptr(ty.clone()));
            spawner_code.push(Stmt::new(
                StmtKind::Decl {
                    var: cell,
                    init: Some(Init::Expr(init)),
                },
                loc,
            ));
            let cell_e = Expr::var(cell, self.prog, loc);
            let target = Expr::new(ExprKind::Deref(Box::new(cell_e.clone())), ty.clone(), loc);
            spawner_code.push(Stmt::new(
                StmtKind::Expr(Expr::new(
                    ExprKind::Assign(Box::new(target), Box::new(Expr::var(v, self.prog, loc))),
                    ty.clone(),
                    loc,
                )),
                loc,
            ));
            arg = self.conv(cell_e, &void_ptr);
            let name = self.prog.var(v).name.clone();
            let copy = self.prog.new_local(Some(fid), &name, ty.clone(), loc);
            self.prog.var_mut(copy).source_name = self.prog.var(v).source_name.clone();
            // Written out: C dereferences no `void *`, so the printed program needs the cast.
            let from = Expr::new(
                ExprKind::Cast {
                    e: Box::new(Expr::var(param, self.prog, loc)),
                    implicit: false,
                },
                Type::ptr(ty.clone()),
                loc,
            );
            body.push(Stmt::new(
                StmtKind::Decl {
                    var: copy,
                    init: Some(Init::Expr(Expr::new(
                        ExprKind::Deref(Box::new(from)),
                        ty,
                        loc,
                    ))),
                },
                loc,
            ));
            crate::ir::visit::VisitorMut::visit_stmt(&mut Rename { from: v, to: copy }, &mut stmt);
        }
        body.push(stmt);
        body.push(Stmt::new(StmtKind::Return(Some(null.clone())), loc));
        let f = self.prog.func_mut(fid);
        f.params = vec![param];
        f.body = Some(Stmt::block(body, loc));
        self.prog.items.push(Item::Func(fid));

        // `pthread_create(&tid, NULL, thread, NULL)`, with a thread id nobody reads.
        let tid_ty = Type::Int(self.dm().size_t());
        let tid = self
            .prog
            .new_global(&format!("{name}_tid"), tid_ty, None, loc);
        let tid_ptr = Expr::new(
            ExprKind::AddrOf(Box::new(Expr::var(tid, self.prog, loc))),
            Type::ptr(self.prog.var(tid).ty.clone()),
            loc,
        );
        let thread = self.func_expr(fid, loc);
        let mut args = vec![tid_ptr, null, thread, arg];
        if let Some(create) = self.prog.func_named("pthread_create") {
            let fty = self.prog.func(create).ty.clone();
            if !fty.unprototyped {
                args = args
                    .into_iter()
                    .zip(fty.params.iter().map(Some).chain(std::iter::repeat(None)))
                    .map(|(a, p)| match p {
                        Some(p) => self.conv(a, p),
                        None => a,
                    })
                    .collect();
            }
        }
        let call = self.builtin_call("pthread_create", args, loc);
        spawner_code.push(Stmt::new(StmtKind::Expr(call), loc));
        Ok(Stmt::block(spawner_code, loc))
    }

    /// The locals handed to a spawned statement as copies (see `spawn_statement`) must
    /// keep the value they had at the spawn: refused if `func`'s `body` writes one or
    /// takes its address anywhere.
    pub(super) fn check_spawn_copies(&mut self, func: FuncId, body: &Stmt) -> R<()> {
        let copies: Vec<_> = self
            .spawn_copies
            .iter()
            .filter(|(f, ..)| *f == func)
            .cloned()
            .collect();
        for (_, v, loc, label) in copies {
            if lends(body, v) {
                let s = crate::diagnostics::SourceSpot::at(
                    &self.prog.sources,
                    loc,
                    format!(
                        "the statement `{label}:` runs in a new thread names `{}`, a local of \
                         `{}` whose address `{}` takes (CBMC then shares the local with the \
                         thread instead of copying it; POSIX threads, which seqloc models, \
                         have no such sharing)",
                        self.prog.var(v).shown_name(),
                        self.prog.func(func).name,
                        self.prog.func(func).name,
                    ),
                );
                return Err(super::FrontendError::Unsupported(s.with_note(
                    "seqloc supports the C that SV-COMP's pthread tasks use; see README \
                     \"Supported C\"",
                )));
            }
        }
        self.spawn_copies.retain(|(f, ..)| *f != func);
        Ok(())
    }
}

/// Whether `s` takes the address of `v` (of the whole or of a part: CBMC's dirty locals),
/// or lets an array of it decay to a pointer.
fn lends(s: &Stmt, v: VarId) -> bool {
    fn root(e: &Expr) -> Option<VarId> {
        match &e.peel().kind {
            ExprKind::Var(x) => Some(*x),
            ExprKind::Member(b, _) => root(b),
            ExprKind::Index(b, _) => match &b.kind {
                ExprKind::Decay(a) => root(a),
                _ => None,
            },
            _ => None,
        }
    }
    // `a[i]` decays `a` only to index it; any other decay hands out its address.
    let (mut decays, mut indexed, mut taken) = (0usize, 0usize, false);
    crate::ir::visit::each_expr(s, &mut |e| match &e.kind {
        ExprKind::AddrOf(x) if root(x) == Some(v) => taken = true,
        ExprKind::Decay(x) if root(x) == Some(v) => decays += 1,
        ExprKind::Index(b, _) => {
            if let ExprKind::Decay(x) = &b.kind {
                if root(x) == Some(v) {
                    indexed += 1;
                }
            }
        }
        _ => {}
    });
    taken || decays > indexed
}

/// Renames a variable (the copied local, in the thread's statement).
struct Rename {
    from: VarId,
    to: VarId,
}

impl crate::ir::visit::VisitorMut for Rename {
    fn visit_expr(&mut self, e: &mut Expr) {
        if let ExprKind::Var(v) = &mut e.kind {
            if *v == self.from {
                *v = self.to;
            }
        }
        crate::ir::visit::walk_expr_mut(self, e)
    }
}

/// The first jump in `s` that leaves it: `goto`, `return`, or a `break`/`continue` with no
/// loop (or, for `break`, switch) of its own around it.
fn escape(s: &Stmt, in_loop: bool, in_switch: bool) -> Option<&'static str> {
    match &s.kind {
        StmtKind::Goto(_) => Some("goto"),
        StmtKind::Return(_) => Some("return"),
        StmtKind::Break if !in_loop && !in_switch => Some("break"),
        StmtKind::Continue if !in_loop => Some("continue"),
        StmtKind::Case { .. } | StmtKind::Default if !in_switch => Some("case"),
        StmtKind::Block(v) => v.iter().find_map(|s| escape(s, in_loop, in_switch)),
        StmtKind::If { then, els, .. } => escape(then, in_loop, in_switch)
            .or_else(|| els.as_ref().and_then(|e| escape(e, in_loop, in_switch))),
        StmtKind::While { body, .. } | StmtKind::DoWhile { body, .. } => {
            escape(body, true, in_switch)
        }
        StmtKind::For { init, body, .. } => init
            .iter()
            .find_map(|s| escape(s, in_loop, in_switch))
            .or_else(|| escape(body, true, in_switch)),
        StmtKind::Switch { body, .. } => escape(body, in_loop, true),
        _ => None,
    }
}

#[cfg(test)]
mod tests {
    use crate::ir::types::DataModel;
    use crate::ir::*;

    fn load(src: &str) -> Result<Program, String> {
        crate::frontend::load_text("t.c", src, DataModel::Lp64).map_err(|e| e.to_string())
    }

    /// The names of the functions `f` calls directly, in order.
    fn calls(p: &Program, f: &str) -> (Vec<String>, ()) {
        let f = p.func_named(f).expect("function");
        let body = p.func(f).body.as_ref().expect("body");
        let mut out = vec![];
        crate::ir::visit::each_expr(body, &mut |e| {
            if let ExprKind::Call(callee, _) = &e.kind {
                if let ExprKind::Func(g) = callee.peel().kind {
                    out.push(p.func(g).name.clone());
                }
            }
        });
        (out, ())
    }

    #[test]
    fn a_cprover_async_label_starts_a_thread() {
        let p = load(
            "int x; void f(int v) { x = v; } \
             int main(void) { int k = 3; __CPROVER_ASYNC_1: f(k); return x; }",
        )
        .expect("lowers");
        let spawned = p
            .funcs
            .iter()
            .position(|f| f.name.starts_with("__cprover_async_line"))
            .expect("a thread function");
        let (main_calls, _) = calls(&p, "main");
        assert!(
            main_calls.contains(&"pthread_create".to_string()),
            "{main_calls:?}"
        );
        assert!(!main_calls.contains(&"f".to_string()), "{main_calls:?}");
        let name = p.funcs[spawned].name.clone();
        let (thread_calls, _) = calls(&p, &name);
        assert!(thread_calls.contains(&"f".to_string()), "{thread_calls:?}");
        // A local the spawner writes after the spawn is copied at the spawn, as CBMC does.
        load(
            "int x; void f(int v) { x = v; } \
             int main(void) { int k = 3; __CPROVER_ASYNC_1: f(k); k = 4; return x; }",
        )
        .expect("a written local is copied");
        // One whose address is taken would be shared (CBMC's dirty locals): refused, also
        // when only an element's address is taken or an array decays to a pointer.
        for main in [
            "int k = 3; int *p = &k; __CPROVER_ASYNC_1: f(k); return *p;",
            "struct s l = {{1, 2}}; int *p = &l.a[1]; __CPROVER_ASYNC_1: f(l.a[0]); return *p;",
            "struct s l = {{1, 2}}; int *p = l.a; __CPROVER_ASYNC_1: f(l.a[0]); return *p;",
        ] {
            let e = load(&format!(
                "struct s {{ int a[2]; }}; int x; void f(int v) {{ x = v; }} \
                 int main(void) {{ {main} }}"
            ))
            .expect_err("refused");
            assert!(
                e.contains("__CPROVER_ASYNC_1") && e.contains("address"),
                "{e}"
            );
        }
        // Indexing an array member is no lending; a struct is copied whole.
        load(
            "struct s { int a[2]; }; int x; void f(int v) { x = v; } \
             int main(void) { struct s l = {{1, 2}}; l.a[1] = 5; \
             __CPROVER_ASYNC_1: f(l.a[1]); return x; }",
        )
        .expect("a struct with an indexed array member is copied");
        // An array itself is not (C assigns no arrays).
        let e = load(
            "int x; void f(int v) { x = v; } \
             int main(void) { int a[2] = {1, 2}; __CPROVER_ASYNC_1: f(a[1]); return x; }",
        )
        .expect_err("refused");
        assert!(e.contains("not arrays"), "{e}");
    }
}
