//! `realloc(p, n)` as C specifies it, written out with `malloc`, `free` and a copy:
//! `realloc(NULL, n)` is `malloc(n)`; otherwise a new block of `n` bytes gets the old
//! block's bytes up to the smaller of the two sizes, one store each (a copy is no atomic
//! step: another thread may write the old block meanwhile), the old block is freed and
//! the new one returned. The model always moves the block, which C allows; like `malloc`
//! it never fails. `realloc(p, 0)` with a constant 0 is refused by name (implementation-
//! defined; C23 makes it undefined); a size that is 0 only when the program runs does
//! what glibc does: a non-null block is freed and the answer is `NULL` (`realloc(NULL, 0)`
//! is `malloc(0)`).
//!
//! The copy needs the old block's size, which the model's memory does not give the
//! program. It is kept beside the variable holding the block, as a variable-length
//! local's length is (`vla`): a pointer variable `p` given to `realloc` gets a shadow
//! `__seq_size_p` (a local for a local, a global for a global, thread-local for a
//! thread-local), set wherever `p` is: to `n` by `p = malloc(n)` and `p = realloc(_, n)`,
//! to `a * b` by `p = calloc(a, b)`, to 0 by `p = NULL`. For a variable other threads can
//! see, the shadow and the pointer are written together in one atomic step, and `realloc`
//! reads them together, so no thread sees one without the other.
//!
//! What this cannot follow is refused by name, at the `realloc`: a pointer that is not a
//! variable (a struct member, an array element, an expression), a parameter (its block's
//! size is the caller's), and a variable that is also set any other way (from another
//! pointer, by `++` or `+=`, through its address, by a static initializer other than a
//! null pointer, or declared `extern` and defined elsewhere).

use std::collections::HashMap;

use lang_c::ast;
use lang_c::span::{Node, Span};

use super::{FrontendError, Lowerer, R};
use crate::diagnostics::SourceSpot;
use crate::ir::build as b;
use crate::ir::known::{Known, classify};
use crate::ir::visit::{self, VisitorMut};
use crate::ir::*;

const README: &str =
    "seqloc supports the C that SV-COMP's pthread tasks use; see README \"Supported C\"";

/// The sizes kept beside the variables given to `realloc`.
#[derive(Default, Clone, Debug)]
pub(super) struct Sizes {
    /// Each variable's shadow size.
    shadows: HashMap<VarId, VarId>,
    /// The `realloc` calls, by the variable they were given.
    sites: Vec<(VarId, Loc)>,
    /// The variable holding a `realloc` model's answer, and the one holding its size.
    results: HashMap<VarId, VarId>,
    /// The sizes of the `realloc` models, declared at the top of their functions.
    hoisted: Vec<VarId>,
}

impl Lowerer<'_, '_> {
    /// The model of a call of `realloc` (see the module comment); `None` leaves any other
    /// call as it is.
    pub(super) fn realloc_call(
        &mut self,
        name: &str,
        args: &[Node<ast::Expression>],
        span: Span,
        loc: Loc,
    ) -> R<Option<Expr>> {
        if name != "realloc"
            || args.len() != 2
            || self.defines_function(name)
            || self.func.is_none()
        {
            return Ok(None);
        }
        let p = self.rvalue(&args[0])?;
        let n = self.rvalue(&args[1])?;
        let null = p.as_int() == Some(0);
        if !n.ty.is_integer(self.tt()) || (!null && p.ty.pointee(self.tt()).is_none()) {
            return Ok(None);
        }
        let size_t = Type::Int(self.dm().size_t());
        let n = self.conv(n, &size_t);
        if n.as_int() == Some(0) {
            return Err(self.unsupported(
                span,
                "`realloc` with size 0 (implementation-defined: glibc frees the block and \
                 answers NULL, other libraries answer a new block)",
            ));
        }
        let malloc = self.allocator("malloc", span, "`realloc`")?;
        if null {
            return Ok(Some(Expr::new(
                ExprKind::Call(Box::new(self.func_expr(malloc, loc)), vec![n]),
                Type::void_ptr(),
                loc,
            )));
        }
        let v = match p.uncast().kind {
            ExprKind::Var(v) if self.prog.var(v).ty.is_pointer(self.tt()) => v,
            _ => {
                return Err(self.unsupported(
                    span,
                    "`realloc` of a pointer that is not held in a variable (seqloc keeps a \
                     block's size beside the pointer variable given to `realloc`)",
                ));
            }
        };
        let var = self.prog.var(v).clone();
        if var.kind == VarKind::Param {
            return Err(self.unsupported(
                span,
                format!(
                    "`realloc` of the parameter `{}`: its block's size is the caller's, which \
                     seqloc does not follow into the function",
                    var.shown_name()
                ),
            ));
        }
        let free = self.allocator("free", span, "`realloc`")?;
        let shadow = self.shadow_size(v, loc);
        self.sizes.sites.push((v, loc));
        let void_ptr = Type::void_ptr();
        let mut stmts = Vec::new();
        // The block and its size, read together.
        let mut read = Vec::new();
        let old = self.declare_temp(
            "__seq_realloc_old",
            &void_ptr,
            Expr::var(v, self.prog, loc),
            &mut read,
            loc,
        );
        let old_n = self.declare_temp(
            "__seq_realloc_old_size",
            &size_t,
            Expr::var(shadow, self.prog, loc),
            &mut read,
            loc,
        );
        if var.kind == VarKind::Global {
            self.indivisible(read, &mut stmts, loc);
        } else {
            stmts.extend(read);
        }
        // The size outlives this statement expression: the assignment that stores the
        // answer keeps it as the new block's (`Tracker::allocation`), after the
        // expression's end. It is declared at the top of the function
        // (`track_realloc_sizes`), so the program printed as C declares it where both
        // see it.
        let nv = self
            .prog
            .new_local(self.func, "__seq_realloc_size", size_t.clone(), loc);
        stmts.push(b::expr_stmt(
            b::assign(Expr::var(nv, self.prog, loc), n, self.tt()),
            loc,
            StmtId::NONE,
        ));
        self.sizes.hoisted.push(nv);
        let n = Expr::var(nv, self.prog, loc);
        let new_v = self
            .prog
            .new_local(self.func, "__seq_realloc_new", void_ptr.clone(), loc);
        stmts.push(Stmt::new(
            StmtKind::Decl {
                var: new_v,
                init: None,
            },
            loc,
        ));
        let new = Expr::var(new_v, self.prog, loc);
        let null = self.conv(b::int(0), &void_ptr);
        let call = |l: &Self, f: FuncId, args: Vec<Expr>, ty: Type| {
            Expr::new(ExprKind::Call(Box::new(l.func_expr(f, loc)), args), ty, loc)
        };
        let release = b::expr_stmt(
            call(self, free, vec![old.clone()], Type::Void),
            loc,
            StmtId::NONE,
        );
        // glibc's answer to a size of 0: the block freed, NULL.
        let to_nothing = vec![
            release.clone(),
            b::expr_stmt(
                b::assign(new.clone(), null.clone(), self.tt()),
                loc,
                StmtId::NONE,
            ),
        ];
        let mut moved = vec![b::expr_stmt(
            b::assign(
                new.clone(),
                call(self, malloc, vec![n.clone()], void_ptr.clone()),
                self.tt(),
            ),
            loc,
            StmtId::NONE,
        )];
        let mut copy = Vec::new();
        let smaller = b::cond(
            b::bin(BinOp::Lt, old_n.clone(), n.clone()),
            old_n,
            n.clone(),
            loc,
        );
        let count = self.declare_temp("__seq_realloc_copy", &size_t, smaller, &mut copy, loc);
        let bytes = Type::ptr(Type::Int(IntKind::UChar));
        let from = self.declare_temp(
            "__seq_realloc_src",
            &bytes,
            b::conv(old.clone(), &bytes, self.tt()),
            &mut copy,
            loc,
        );
        let to = self.declare_temp(
            "__seq_realloc_dst",
            &bytes,
            b::conv(new.clone(), &bytes, self.tt()),
            &mut copy,
            loc,
        );
        let uchar = Type::Int(IntKind::UChar);
        let at = |p: &Expr, i: Expr| {
            Expr::new(
                ExprKind::Index(Box::new(p.clone()), Box::new(i)),
                uchar.clone(),
                loc,
            )
        };
        self.element_stores(&count, &mut copy, loc, |i| {
            (at(&to, i.clone()), at(&from, i))
        });
        copy.push(release);
        moved.push(b::if_(
            b::bin(BinOp::Ne, old.clone(), null.clone()),
            copy,
            None,
        ));
        let emptied = b::and(
            b::bin(BinOp::Ne, old, null),
            b::bin(BinOp::Eq, n.clone(), Expr::int(0, size_t, loc)),
        );
        stmts.push(b::if_(emptied, to_nothing, Some(moved)));
        stmts.push(Stmt::expr(new));
        if let ExprKind::Var(nv) = n.kind {
            self.sizes.results.insert(new_v, nv);
        }
        Ok(Some(Expr::new(ExprKind::StmtExpr(stmts), void_ptr, loc)))
    }

    /// The shadow size of the pointer variable `v` (see the module comment), made at the
    /// first `realloc` of it.
    fn shadow_size(&mut self, v: VarId, loc: Loc) -> VarId {
        if let Some(s) = self.sizes.shadows.get(&v) {
            return *s;
        }
        let var = self.prog.var(v).clone();
        let size_t = Type::Int(self.dm().size_t());
        let name = format!("__seq_size_{}", var.name);
        let s = match var.kind {
            VarKind::Global => {
                let zero = Some(Init::Expr(Expr::int(0, size_t.clone(), loc)));
                let s = self.prog.new_global(&name, size_t, zero, loc);
                let sv = self.prog.var_mut(s);
                sv.thread_local = var.thread_local;
                sv.is_static = var.is_static;
                s
            }
            _ => self.prog.new_local(var.func, &name, size_t, loc),
        };
        self.prog.var_mut(s).source_name = Some(format!("<size of {}>", var.shown_name()));
        self.sizes.shadows.insert(v, s);
        s
    }

    /// Once the unit is lowered: every write of a variable given to `realloc` keeps its
    /// shadow size, or the `realloc` is refused (see the module comment).
    pub(super) fn track_realloc_sizes(&mut self) -> R<()> {
        if self.sizes.shadows.is_empty() {
            return Ok(());
        }
        self.shadow_copies();
        let mut untracked: HashMap<VarId, (Loc, String)> = HashMap::new();
        for &v in self.sizes.shadows.keys() {
            let var = self.prog.var(v);
            if var.kind != VarKind::Global {
                continue;
            }
            let null_init = match &var.init {
                None => true,
                Some(Init::Expr(e)) => e.as_int() == Some(0),
                Some(Init::List(_)) => false,
            };
            if var.is_extern {
                untracked.insert(v, (var.loc, "is defined in another file".into()));
            } else if !null_init {
                untracked.insert(
                    v,
                    (
                        var.loc,
                        "is initialized to something other than a null pointer".into(),
                    ),
                );
            }
        }
        let user_sections: Vec<bool> = self
            .prog
            .funcs
            .iter()
            .map(|f| {
                crate::ir::known::is_atomic_function(&f.name)
                    || f.body.as_ref().is_some_and(|body| {
                        let mut found = false;
                        visit::each_expr(body, &mut |e| {
                            found |= user_atomic_marker(self.prog, e).is_some();
                        });
                        found
                    })
            })
            .collect();
        for (i, &sections) in user_sections.iter().enumerate() {
            let f = FuncId(i as u32);
            let Some(mut body) = self.prog.funcs[i].body.take() else {
                continue;
            };
            let whole_function_atomic =
                crate::ir::known::is_atomic_function(&self.prog.funcs[i].name);
            let mut t = Tracker {
                prog: &mut *self.prog,
                func: f,
                sizes: &self.sizes,
                untracked: &mut untracked,
                whole_function_atomic,
                user_sections: sections,
                depth: 0,
                sectioned: false,
            };
            t.visit_stmt(&mut body);
            let sectioned = t.sectioned;
            // A local's shadow starts at the top of its function, where every use sees it;
            // so does each `realloc` model's size.
            let mut decls: Vec<Stmt> = self
                .sizes
                .shadows
                .iter()
                .filter(|(v, _)| {
                    let var = self.prog.var(**v);
                    var.kind == VarKind::Local && var.func == Some(f)
                })
                .map(|(_, s)| s)
                .chain(
                    self.sizes
                        .hoisted
                        .iter()
                        .filter(|v| self.prog.var(**v).func == Some(f)),
                )
                .map(|s| {
                    let size_t = self.prog.var(*s).ty.clone();
                    Stmt::new(
                        StmtKind::Decl {
                            var: *s,
                            init: Some(Init::Expr(Expr::int(0, size_t, body.loc))),
                        },
                        body.loc,
                    )
                })
                .collect();
            decls.sort_by_key(|s| match s.kind {
                StmtKind::Decl { var, .. } => var.0,
                _ => 0,
            });
            if !decls.is_empty() {
                match &mut body.kind {
                    StmtKind::Block(stmts) => {
                        decls.append(stmts);
                        *stmts = decls;
                    }
                    _ => {
                        let loc = body.loc;
                        decls.push(body);
                        body = Stmt::block(decls, loc);
                    }
                }
            }
            self.prog.funcs[i].body = Some(body);
            if sectioned {
                self.sectioned.insert(f);
            }
        }
        // In source order: the first `realloc` that cannot be followed is the one named.
        for (v, loc) in self.sizes.sites.clone() {
            if let Some((at, why)) = untracked.get(&v) {
                let what = format!(
                    "`realloc` of `{}`, which {why} (line {}): seqloc keeps the size of the \
                     block a pointer variable holds beside it, and follows only `malloc`, \
                     `calloc`, `realloc` and a null pointer into it",
                    self.prog.var(v).shown_name(),
                    self.prog.sources.line(*at),
                );
                let s = SourceSpot::at(&self.prog.sources, loc, what);
                return Err(FrontendError::Unsupported(s.with_note(README)));
            }
        }
        Ok(())
    }
}

impl Lowerer<'_, '_> {
    /// A local pointer variable copied into one given to `realloc` carries a block's size
    /// too (`tmp = realloc(buf, n); if (!tmp) …; buf = tmp;`, the idiom that keeps the
    /// old block when `realloc` fails): it gets a shadow of its own, and the copy copies
    /// the size. Only a local: a shared variable's block and size could be read apart.
    fn shadow_copies(&mut self) {
        loop {
            let mut more: Vec<(VarId, Loc)> = Vec::new();
            let shadows = &self.sizes.shadows;
            let prog = &*self.prog;
            let copied = |rhs: &Expr| match rhs.uncast().kind {
                ExprKind::Var(w)
                    if !shadows.contains_key(&w)
                        && prog.var(w).kind == VarKind::Local
                        && prog.var(w).ty.is_pointer(&prog.types) =>
                {
                    Some(w)
                }
                _ => None,
            };
            for f in &prog.funcs {
                let Some(body) = &f.body else { continue };
                visit::each_stmt(body, &mut |st| {
                    if let StmtKind::Decl {
                        var,
                        init: Some(Init::Expr(rhs)),
                    } = &st.kind
                    {
                        if let (true, Some(w)) = (shadows.contains_key(var), copied(rhs)) {
                            more.push((w, st.loc));
                        }
                    }
                });
                visit::each_expr(body, &mut |e| {
                    if let ExprKind::Assign(lhs, rhs) = &e.kind {
                        let to_shadowed = matches!(lhs.peel().kind,
                            ExprKind::Var(v) if shadows.contains_key(&v));
                        if let (true, Some(w)) = (to_shadowed, copied(rhs)) {
                            more.push((w, e.loc));
                        }
                    }
                });
            }
            if more.is_empty() {
                return;
            }
            for (w, loc) in more {
                self.shadow_size(w, loc);
            }
        }
    }
}

/// `Some(true)` for a call of the program's own atomic-section begin, `Some(false)` for
/// its end.
fn user_atomic_marker(prog: &Program, e: &Expr) -> Option<bool> {
    let ExprKind::Call(c, _) = &e.kind else {
        return None;
    };
    let ExprKind::Func(f) = c.peel().kind else {
        return None;
    };
    match classify(&prog.func(f).name) {
        Known::AtomicBegin => Some(true),
        Known::AtomicEnd => Some(false),
        _ => None,
    }
}

/// The rewrite of one function's writes of the variables given to `realloc`.
struct Tracker<'a> {
    prog: &'a mut Program,
    func: FuncId,
    sizes: &'a Sizes,
    untracked: &'a mut HashMap<VarId, (Loc, String)>,
    /// An `__VERIFIER_atomic_*` function: one step already.
    whole_function_atomic: bool,
    /// The function has atomic sections of the program's own (which do not nest).
    user_sections: bool,
    /// Inside the program's own atomic section, in source order.
    depth: u32,
    /// A section of the model's own was made.
    sectioned: bool,
}

impl Tracker<'_> {
    fn tracked(&self, e: &Expr) -> Option<VarId> {
        match e.peel().kind {
            ExprKind::Var(v) if self.sizes.shadows.contains_key(&v) => Some(v),
            _ => None,
        }
    }

    fn give_up(&mut self, v: VarId, loc: Loc, why: &str) {
        self.untracked.entry(v).or_insert((loc, why.to_string()));
    }

    fn temp(&mut self, hint: &str, ty: &Type, init: Expr, out: &mut Vec<Stmt>, loc: Loc) -> Expr {
        let t = self.prog.new_local(Some(self.func), hint, ty.clone(), loc);
        let init = b::conv(init, ty, &self.prog.types);
        out.push(Stmt::new(
            StmtKind::Decl {
                var: t,
                init: Some(Init::Expr(init)),
            },
            loc,
        ));
        Expr::var(t, self.prog, loc)
    }

    /// The statements that evaluate the allocation `rhs` once, the value to store, and the
    /// new block's size; `None` when `rhs` is no allocation the shadow can follow.
    fn allocation(&mut self, rhs: &Expr, loc: Loc) -> Option<(Vec<Stmt>, Expr, Expr)> {
        let size_t = Type::Int(self.prog.data_model.size_t());
        if rhs.as_int() == Some(0) {
            return Some((vec![], rhs.clone(), Expr::int(0, size_t, loc)));
        }
        match &rhs.uncast().kind {
            ExprKind::Call(callee, args) => {
                let ExprKind::Func(f) = callee.peel().kind else {
                    return None;
                };
                let func = self.prog.func(f);
                if func.body.is_some() {
                    return None;
                }
                let (name, k) = (func.name.clone(), classify(&func.name));
                let mut pre = Vec::new();
                let size = match (k, args.as_slice()) {
                    (Known::Malloc, [n]) if name == "malloc" => {
                        self.temp("__seq_alloc_size", &size_t, n.clone(), &mut pre, loc)
                    }
                    (Known::Calloc, [a, c]) => {
                        let a = self.temp("__seq_alloc_count", &size_t, a.clone(), &mut pre, loc);
                        let c = self.temp("__seq_alloc_each", &size_t, c.clone(), &mut pre, loc);
                        let n = b::bin(BinOp::Mul, a.clone(), c.clone());
                        let call = with_args(rhs, vec![a, c]);
                        return Some((pre, call, b::conv(n, &size_t, &self.prog.types)));
                    }
                    _ => return None,
                };
                let call = with_args(rhs, vec![size.clone()]);
                Some((pre, call, size))
            }
            // A copy of a local that keeps a size of its own (`shadow_copies`).
            ExprKind::Var(w) if self.prog.var(*w).kind == VarKind::Local => {
                let from = *self.sizes.shadows.get(w)?;
                Some((vec![], rhs.clone(), Expr::var(from, self.prog, loc)))
            }
            ExprKind::StmtExpr(stmts) => match stmts.last().map(|s| &s.kind) {
                Some(StmtKind::Expr(last)) => match last.uncast().kind {
                    ExprKind::Var(r) => {
                        let n = *self.sizes.results.get(&r)?;
                        Some((vec![], rhs.clone(), Expr::var(n, self.prog, loc)))
                    }
                    _ => None,
                },
                _ => None,
            },
            _ => None,
        }
    }

    /// `v = rhs`, keeping `v`'s shadow size, as a statement expression answering the value
    /// stored.
    fn assignment(&mut self, v: VarId, lhs: Expr, rhs: &Expr, loc: Loc) -> Option<Expr> {
        let (mut stmts, value, size) = self.allocation(rhs, loc)?;
        let ty = lhs.ty.unqualified().clone();
        let t = self.temp("__seq_alloc", &ty, value, &mut stmts, loc);
        let shadow = self.sizes.shadows[&v];
        let tt = &self.prog.types;
        let writes = vec![
            b::expr_stmt(
                b::assign(Expr::var(shadow, self.prog, loc), size, tt),
                loc,
                StmtId::NONE,
            ),
            b::expr_stmt(b::assign(lhs, t.clone(), tt), loc, StmtId::NONE),
        ];
        let shared = self.prog.var(v).kind == VarKind::Global;
        let marked = shared && !self.whole_function_atomic && self.depth == 0;
        if marked {
            self.sectioned = true;
            stmts.push(marker(Intrinsic::AtomicBegin, loc));
        }
        stmts.extend(writes);
        if marked {
            stmts.push(marker(Intrinsic::AtomicEnd, loc));
        }
        stmts.push(Stmt::expr(t));
        Some(Expr::new(ExprKind::StmtExpr(stmts), ty, loc))
    }
}

impl VisitorMut for Tracker<'_> {
    fn visit_stmt(&mut self, s: &mut Stmt) {
        if let StmtKind::Decl { var, init } = &mut s.kind {
            let v = *var;
            if self.sizes.shadows.contains_key(&v) {
                let loc = s.loc;
                match init {
                    None => {}
                    Some(Init::Expr(rhs)) => {
                        visit::walk_expr_mut(self, rhs);
                        match self.allocation(rhs, loc) {
                            Some((mut stmts, value, size)) => {
                                let shadow = self.sizes.shadows[&v];
                                let set = b::assign(
                                    Expr::var(shadow, self.prog, loc),
                                    size,
                                    &self.prog.types,
                                );
                                let ty = value.ty.clone();
                                let t = self.temp("__seq_alloc", &ty, value, &mut stmts, loc);
                                stmts.push(b::expr_stmt(set, loc, StmtId::NONE));
                                stmts.push(Stmt::expr(t));
                                *rhs = Expr::new(ExprKind::StmtExpr(stmts), ty, loc);
                            }
                            None => self.give_up(
                                v,
                                loc,
                                "is initialized from something other than an allocation",
                            ),
                        }
                        return;
                    }
                    Some(Init::List(_)) => {
                        self.give_up(v, loc, "is initialized by a braced list");
                    }
                }
            }
        }
        visit::walk_stmt_mut(self, s);
    }

    fn visit_expr(&mut self, e: &mut Expr) {
        if self.user_sections {
            match user_atomic_marker(self.prog, e) {
                Some(true) => self.depth += 1,
                Some(false) => self.depth = self.depth.saturating_sub(1),
                None => {}
            }
        }
        visit::walk_expr_mut(self, e);
        let loc = e.loc;
        match &e.kind {
            ExprKind::AddrOf(x) => {
                if let Some(v) = self.tracked(x) {
                    self.give_up(v, loc, "has its address taken");
                }
            }
            ExprKind::IncDec { e: x, .. } => {
                if let Some(v) = self.tracked(x) {
                    self.give_up(v, loc, "is changed by `++` or `--`");
                }
            }
            ExprKind::OpAssign { lhs, .. } => {
                if let Some(v) = self.tracked(lhs) {
                    self.give_up(v, loc, "is changed by a compound assignment");
                }
            }
            ExprKind::Assign(lhs, rhs) => {
                if let Some(v) = self.tracked(lhs) {
                    let (lhs, rhs) = ((**lhs).clone(), (**rhs).clone());
                    match self.assignment(v, lhs, &rhs, loc) {
                        Some(x) => *e = x,
                        None => self.give_up(
                            v,
                            loc,
                            "is assigned something other than `malloc`, `calloc`, `realloc` \
                             or a null pointer",
                        ),
                    }
                }
            }
            _ => {}
        }
    }
}

/// `rhs` (a call under conversions) with the call's arguments replaced by `args`.
fn with_args(rhs: &Expr, args: Vec<Expr>) -> Expr {
    match &rhs.kind {
        ExprKind::Cast { e, implicit } => Expr::new(
            ExprKind::Cast {
                e: Box::new(with_args(e, args)),
                implicit: *implicit,
            },
            rhs.ty.clone(),
            rhs.loc,
        ),
        ExprKind::Call(callee, _) => Expr::new(
            ExprKind::Call(callee.clone(), args),
            rhs.ty.clone(),
            rhs.loc,
        ),
        _ => rhs.clone(),
    }
}

fn marker(i: Intrinsic, loc: Loc) -> Stmt {
    Stmt::expr(Expr::new(ExprKind::Intrinsic(i, vec![]), Type::Void, loc))
}

#[cfg(test)]
mod tests {
    use super::super::test_util::calls_to;
    use crate::ir::types::DataModel;
    use crate::ir::*;

    const DECLS: &str = "void *malloc(unsigned long); void *calloc(unsigned long, unsigned long);\n\
        void *realloc(void *, unsigned long); void free(void *);\n";

    fn load(src: &str) -> Result<Program, String> {
        let text = format!("{DECLS}{src}");
        crate::frontend::load_text("t.c", &text, DataModel::Lp64).map_err(|e| e.to_string())
    }

    #[test]
    fn realloc_is_malloc_copy_and_free_with_the_size_kept_beside_the_pointer() {
        let p = load(
            "int *g;\nint main(void) { int *l = malloc(8); l = realloc(l, 16);\n\
             g = calloc(2, 4); g = realloc(g, 4); g = 0; g = realloc(g, 4);\n\
             int *n = realloc(0, 4); free(n); free(l); free(g); return 0; }",
        )
        .expect("lowers");
        assert_eq!(calls_to(&p, "realloc"), 0);
        let shadow = |n: &str| p.vars.iter().find(|v| v.name == n).map(|v| v.kind);
        assert_eq!(shadow("__seq_size_g"), Some(VarKind::Global));
        assert_eq!(shadow("__seq_size_l"), Some(VarKind::Local));
        // `realloc(0, 4)` is `malloc(4)`: no shadow for `n`, which no realloc is given.
        assert_eq!(shadow("__seq_size_n"), None);
        assert!(crate::ir::internal::is_internal_name("__seq_size_g"));
    }

    /// `tmp = realloc(buf, n); if (!tmp) …; buf = tmp;`: the copy carries the size, so a
    /// second `realloc` of `buf` knows how much to copy.
    #[test]
    fn a_size_follows_a_pointer_through_a_local_copy() {
        let p = load(
            "int *buf; int main(void) { buf = malloc(4); int *tmp = realloc(buf, 8);\n\
             if (!tmp) return 1; buf = tmp; int *q; q = buf; tmp = realloc(buf, 16);\n\
             if (tmp) buf = tmp; free(buf); return 0; }",
        )
        .expect("lowers");
        assert_eq!(calls_to(&p, "realloc"), 0);
        let shadow = |n: &str| p.vars.iter().any(|v| v.name == n);
        assert!(shadow("__seq_size_buf") && shadow("__seq_size_tmp"));
        assert!(!shadow("__seq_size_q"), "`q` is never copied into `buf`");
    }

    #[test]
    fn reallocs_whose_old_size_cannot_be_followed_are_refused_by_name() {
        for (src, what) in [
            (
                "struct V { int *d; }; int main(void) { struct V v; v.d = malloc(4);\n\
                 v.d = realloc(v.d, 8); return 0; }",
                "not held in a variable",
            ),
            (
                "int *grow(int *p) { return realloc(p, 8); } int main(void) { return 0; }",
                "parameter `p`",
            ),
            (
                "int main(void) { int *p = malloc(8), *q; q = p + 1; p = realloc(q, 8);\n\
                 return 0; }",
                "`realloc` of `q`, which is assigned something other than",
            ),
            (
                "int *g; int main(void) { int *q; g = malloc(4); q = g; q = realloc(q, 8);\n\
                 return 0; }",
                "`realloc` of `q`, which is assigned something other than",
            ),
            (
                "int main(void) { int *p = malloc(8); p++; p = realloc(p, 8); return 0; }",
                "`++`",
            ),
            (
                "int a[2]; int *g = a; int main(void) { g = realloc(g, 8); return 0; }",
                "initialized to something other than a null pointer",
            ),
            (
                "int main(void) { int *p = malloc(4); p = realloc(p, 0); return 0; }",
                "size 0",
            ),
        ] {
            let e = load(src).map(|_| ()).expect_err(src);
            assert!(e.contains(what), "{src}: {e}");
        }
    }
}
