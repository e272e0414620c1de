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
        // change as its own, as in CBMC; unless its address is taken anywhere in the
        // spawner, when both share it (`check_spawn_copies`, once the body is complete).
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
        // Each local the statement names travels in a heap cell: the spawner fills it
        // (`T *cell = malloc(sizeof(T)); *cell = v;`) and the thread starts with
        // `T v' = *(T *)slot;`, its own copy. One local is the thread's argument itself;
        // several travel in an array of cell pointers, `slot` being `((void **)arg)[i]`.
        // Whether a local is copied or shared (a dirty one) is only known once the
        // spawner's body is complete: `check_spawn_copies` then turns a shared one's cell
        // into the local itself.
        let slots = if foreign.len() > 1 {
            let ptr_size = self.prog.sizeof(&void_ptr).unwrap_or(8);
            let slots_ty = Type::ptr(void_ptr.clone());
            let slots =
                self.prog
                    .new_local(Some(spawner), "__seq_async_slots", slots_ty.clone(), loc);
            let bytes = ptr_size * foreign.len() as u64;
            let decl = self.heap_decl(slots, bytes, span, VLA_WHAT, loc)?;
            spawner_code.push(decl);
            arg = self.conv(Expr::var(slots, self.prog, loc), &void_ptr);
            Some(slots)
        } else {
            None
        };
        for (i, &v) in foreign.iter().enumerate() {
            let ty = self.prog.var(v).ty.clone();
            let Some(size) = self.prog.sizeof(&ty) else {
                let msg = shared_local(self, v, "names");
                return Err(self.unsupported(span, msg));
            };
            let cell = self.prog.new_local(
                Some(spawner),
                "__seq_async_cell",
                Type::ptr(ty.clone()),
                loc,
            );
            let decl = self.heap_decl(cell, size, span, VLA_WHAT, loc)?;
            spawner_code.push(decl);
            let cell_e = Expr::var(cell, self.prog, loc);
            // C assigns no arrays: an array is only ever shared (its cell becomes the
            // array itself), and `check_spawn_copies` refuses one that would be copied.
            if !matches!(ty.resolve(self.tt()), Type::Array(..)) {
                spawner_code.push(store_through(self.prog, cell, v, loc));
            }
            let slot_in_thread = match slots {
                Some(slots) => {
                    let slots_ty = Type::ptr(void_ptr.clone());
                    spawner_code.push(Stmt::new(
                        StmtKind::Expr(Expr::new(
                            ExprKind::Assign(
                                Box::new(Expr::new(
                                    ExprKind::Index(
                                        Box::new(Expr::var(slots, self.prog, loc)),
                                        Box::new(Expr::int(i as i128, Type::int(), loc)),
                                    ),
                                    void_ptr.clone(),
                                    loc,
                                )),
                                Box::new(self.conv(cell_e.clone(), &void_ptr)),
                            ),
                            void_ptr.clone(),
                            loc,
                        )),
                        loc,
                    ));
                    let as_slots = Expr::new(
                        ExprKind::Cast {
                            e: Box::new(Expr::var(param, self.prog, loc)),
                            implicit: false,
                        },
                        slots_ty,
                        loc,
                    );
                    Expr::new(
                        ExprKind::Index(
                            Box::new(as_slots),
                            Box::new(Expr::int(i as i128, Type::int(), loc)),
                        ),
                        void_ptr.clone(),
                        loc,
                    )
                }
                None => {
                    arg = self.conv(cell_e, &void_ptr);
                    Expr::var(param, self.prog, loc)
                }
            };
            let name = self.prog.var(v).name.clone();
            let copy = self.prog.new_local(Some(fid), &name, ty.clone(), loc);
            self.prog.var_mut(copy).source_name = self.prog.var(v).source_name.clone();
            // Written out: C dereferences no `void *`, so the printed program needs the cast.
            let from = Expr::new(
                ExprKind::Cast {
                    e: Box::new(slot_in_thread),
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
            self.spawn_copies.push(SpawnCopy {
                spawner,
                var: v,
                cell,
                thread: fid,
                copy,
                loc,
                label: label.to_string(),
            });
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

    /// CBMC's rule for the locals a spawned statement names (see `spawn_statement`), once
    /// `func`'s body is complete: a local whose address is taken anywhere in it (a dirty
    /// one) is one object the spawner and the thread share; any other is copied at the
    /// spawn. A shared local is moved to the heap for its whole life: after its
    /// declaration (or at the start, for a parameter) `T *cell = malloc(sizeof(T)); *cell
    /// = v;`, every later use of `v` reads `*cell`, the spawn hands over `cell` itself,
    /// and the thread works on `*cell` instead of a copy. The heap object outlives the
    /// spawner's return, as CBMC's dirty locals do.
    pub(super) fn check_spawn_copies(
        &mut self,
        func: FuncId,
        params: &[VarId],
        body: &mut Stmt,
    ) -> R<()> {
        let copies: Vec<SpawnCopy> = self
            .spawn_copies
            .iter()
            .filter(|c| c.spawner == func)
            .cloned()
            .collect();
        self.spawn_copies.retain(|c| c.spawner != func);
        let mut shared: Vec<(VarId, VarId)> = Vec::new();
        for c in &copies {
            let dirty = lends(body, c.var)
                || self
                    .prog
                    .func(c.thread)
                    .body
                    .as_ref()
                    .is_some_and(|b| lends(b, c.copy));
            let is_array = matches!(self.prog.var(c.var).ty.resolve(self.tt()), Type::Array(..));
            if !dirty {
                if is_array {
                    return Err(self.spawn_refusal(
                        c,
                        func,
                        "names the array",
                        "seqloc copies scalar, pointer and struct locals into such a \
                         thread, not arrays",
                    ));
                }
                continue;
            }
            let heap = match shared.iter().find(|(v, _)| *v == c.var) {
                Some((_, h)) => *h,
                None => {
                    let h = self.move_to_heap(func, params, body, c)?;
                    shared.push((c.var, h));
                    h
                }
            };
            // The spawn's cell is the local's heap object itself, not a copy of it.
            let heap_e = Expr::var(heap, self.prog, c.loc);
            alias_cell(body, c.cell, heap_e);
            // The thread works on the shared object: its copy becomes a pointer to it.
            let copy_ty = self.prog.var(c.copy).ty.clone();
            let ptr = self.prog.new_local(
                Some(c.thread),
                "__seq_async_shared",
                Type::ptr(copy_ty.clone()),
                c.loc,
            );
            self.prog.var_mut(ptr).source_name = self.prog.var(c.copy).source_name.clone();
            let prog = &mut *self.prog;
            if let Some(tbody) = prog
                .funcs
                .get_mut(c.thread.0 as usize)
                .and_then(|f| f.body.take())
            {
                let mut tbody = tbody;
                pointer_instead_of_copy(&mut tbody, c.copy, ptr);
                crate::ir::visit::VisitorMut::visit_stmt(
                    &mut ToHeap {
                        from: c.copy,
                        cell: ptr,
                        ty: copy_ty,
                        cell_ty: Type::ptr(prog.var(c.copy).ty.clone()),
                    },
                    &mut tbody,
                );
                prog.func_mut(c.thread).body = Some(tbody);
            }
        }
        Ok(())
    }

    fn spawn_refusal(
        &self,
        c: &SpawnCopy,
        func: FuncId,
        why: &str,
        what: &str,
    ) -> super::FrontendError {
        let s = crate::diagnostics::SourceSpot::at(
            &self.prog.sources,
            c.loc,
            format!(
                "the statement `{}:` runs in a new thread {why} `{}`, a local of `{}`: {what}",
                c.label,
                self.prog.var(c.var).shown_name(),
                self.prog.func(func).name,
            ),
        );
        super::FrontendError::Unsupported(s.with_note(
            "seqloc supports the C that SV-COMP's pthread tasks use; see README \"Supported C\"",
        ))
    }

    /// `T *var = malloc(bytes);` for the pointer variable `var`; `what` names the need
    /// in the refusal of a program that defines its own `malloc`.
    fn heap_decl(&mut self, var: VarId, bytes: u64, span: Span, what: &str, loc: Loc) -> R<Stmt> {
        let malloc = self.allocator("malloc", span, what)?;
        let callee = self.func_expr(malloc, loc);
        let size = Expr::int(bytes as i128, Type::Int(self.dm().size_t()), loc);
        let call = Expr::new(
            ExprKind::Call(Box::new(callee), vec![size]),
            Type::void_ptr(),
            loc,
        );
        let init = self.conv(call, &self.prog.var(var).ty.clone());
        Ok(Stmt::new(
            StmtKind::Decl {
                var,
                init: Some(Init::Expr(init)),
            },
            loc,
        ))
    }

    /// Moves the local `c.var` of `func` to a heap object (see `check_spawn_copies`) and
    /// returns the variable pointing to it.
    fn move_to_heap(
        &mut self,
        func: FuncId,
        params: &[VarId],
        body: &mut Stmt,
        c: &SpawnCopy,
    ) -> R<VarId> {
        let v = c.var;
        let ty = self.prog.var(v).ty.clone();
        let loc = self.prog.var(v).loc;
        let is_array = matches!(ty.resolve(self.tt()), Type::Array(..));
        let Some(size) = self.prog.sizeof(&ty) else {
            return Err(self.spawn_refusal(c, func, "shares", "its size is unknown"));
        };
        let cell = self
            .prog
            .new_local(Some(func), "__seq_dirty_local", Type::ptr(ty.clone()), loc);
        self.prog.var_mut(cell).source_name = self.prog.var(v).source_name.clone();
        let decl = self.heap_decl(
            cell,
            size,
            Span::none(),
            "a local a spawned thread shares",
            loc,
        )?;
        let declared = find_decl(body, v);
        let initialized = matches!(declared, Some(true));
        if is_array && initialized {
            return Err(self.spawn_refusal(
                c,
                func,
                "shares",
                "seqloc moves such a local to the heap, but not an initialized array",
            ));
        }
        crate::ir::visit::VisitorMut::visit_stmt(
            &mut ToHeap {
                from: v,
                cell,
                ty: ty.clone(),
                cell_ty: Type::ptr(ty.clone()),
            },
            body,
        );
        let mut code = vec![decl];
        let in_decl = declared.is_some();
        if !is_array && (initialized || !in_decl) {
            code.push(store_through(self.prog, cell, v, loc));
        }
        if in_decl {
            if !insert_after_decl(body, v, &mut Some(code)) {
                return Err(self.spawn_refusal(
                    c,
                    func,
                    "shares",
                    "its declaration is not a statement of a block (seqloc moves such a \
                     local to the heap after it)",
                ));
            }
        } else if params.contains(&v) {
            let old = std::mem::replace(body, Stmt::skip(loc));
            code.push(old);
            *body = Stmt::block(code, loc);
        } else {
            return Err(self.spawn_refusal(c, func, "shares", "its declaration was not found"));
        }
        Ok(cell)
    }
}

/// What `Lowerer::malloc` names in its refusal (the spawn's cells kept that wording).
const VLA_WHAT: &str = "a variable-length array";

/// `*cell = v;`
fn store_through(prog: &Program, cell: VarId, v: VarId, loc: Loc) -> Stmt {
    let ty = prog.var(v).ty.clone();
    let target = Expr::new(
        ExprKind::Deref(Box::new(Expr::var(cell, prog, loc))),
        ty.clone(),
        loc,
    );
    Stmt::new(
        StmtKind::Expr(Expr::new(
            ExprKind::Assign(Box::new(target), Box::new(Expr::var(v, prog, loc))),
            ty,
            loc,
        )),
        loc,
    )
}

/// One local of a spawner handed to a spawned statement: its heap `cell` in the spawner,
/// and `copy`, the thread's variable that starts from it.
#[derive(Clone, Debug)]
pub(super) struct SpawnCopy {
    spawner: FuncId,
    var: VarId,
    cell: VarId,
    thread: FuncId,
    copy: VarId,
    loc: Loc,
    label: String,
}

/// Whether `body` declares `v`: `Some(true)` with an initializer, `Some(false)` without.
fn find_decl(body: &Stmt, v: VarId) -> Option<bool> {
    let mut found = None;
    crate::ir::visit::each_stmt(body, &mut |s| {
        if let StmtKind::Decl { var, init } = &s.kind {
            if *var == v {
                found = Some(init.is_some());
            }
        }
    });
    found
}

/// Inserts `code` right after the declaration of `v` in the block holding it.
fn insert_after_decl(s: &mut Stmt, v: VarId, code: &mut Option<Vec<Stmt>>) -> bool {
    struct Insert<'a> {
        v: VarId,
        code: &'a mut Option<Vec<Stmt>>,
    }
    impl crate::ir::visit::VisitorMut for Insert<'_> {
        fn visit_stmt(&mut self, s: &mut Stmt) {
            if let StmtKind::Block(ss) = &mut s.kind {
                let at = ss
                    .iter()
                    .position(|x| matches!(x.kind, StmtKind::Decl { var, .. } if var == self.v));
                if let Some(at) = at {
                    if let Some(code) = self.code.take() {
                        for (k, c) in code.into_iter().enumerate() {
                            ss.insert(at + 1 + k, c);
                        }
                        return;
                    }
                }
            }
            crate::ir::visit::walk_stmt_mut(self, s)
        }
    }
    crate::ir::visit::VisitorMut::visit_stmt(&mut Insert { v, code }, s);
    code.is_none()
}

/// Every read or write of `from` becomes one of `*cell`.
struct ToHeap {
    from: VarId,
    cell: VarId,
    ty: Type,
    cell_ty: Type,
}

impl crate::ir::visit::VisitorMut for ToHeap {
    fn visit_expr(&mut self, e: &mut Expr) {
        if let ExprKind::Var(v) = &e.kind {
            if *v == self.from {
                let cell = Expr::new(ExprKind::Var(self.cell), self.cell_ty.clone(), e.loc);
                *e = Expr::new(ExprKind::Deref(Box::new(cell)), self.ty.clone(), e.loc);
                return;
            }
        }
        crate::ir::visit::walk_expr_mut(self, e)
    }
}

/// The spawner's `T *cell = malloc(..); *cell = *heap;` for a shared local becomes
/// `T *cell = heap;`: the thread gets the object, not a copy.
fn alias_cell(body: &mut Stmt, cell: VarId, heap: Expr) {
    struct Alias {
        cell: VarId,
        heap: Expr,
    }
    impl crate::ir::visit::VisitorMut for Alias {
        fn visit_stmt(&mut self, s: &mut Stmt) {
            match &mut s.kind {
                StmtKind::Decl { var, init } if *var == self.cell => {
                    *init = Some(Init::Expr(self.heap.clone()));
                }
                StmtKind::Expr(e) if assigns_through(e, self.cell) => {
                    s.kind = StmtKind::Skip;
                }
                _ => crate::ir::visit::walk_stmt_mut(self, s),
            }
        }
    }
    crate::ir::visit::VisitorMut::visit_stmt(&mut Alias { cell, heap }, body);
}

/// Whether `e` is `*cell = ...`.
fn assigns_through(e: &Expr, cell: VarId) -> bool {
    match &e.kind {
        ExprKind::Assign(target, _) => match &target.kind {
            ExprKind::Deref(p) => matches!(p.kind, ExprKind::Var(c) if c == cell),
            _ => false,
        },
        _ => false,
    }
}

/// The thread's `T v' = *(T *)slot;` becomes `T *p = (T *)slot;` (its uses of `v'`
/// are then turned into `*p` by `ToHeap`).
fn pointer_instead_of_copy(body: &mut Stmt, copy: VarId, ptr: VarId) {
    struct Repoint {
        copy: VarId,
        ptr: VarId,
    }
    impl crate::ir::visit::VisitorMut for Repoint {
        fn visit_stmt(&mut self, s: &mut Stmt) {
            if let StmtKind::Decl { var, init } = &mut s.kind {
                if *var == self.copy {
                    if let Some(Init::Expr(e)) = init {
                        if let ExprKind::Deref(p) = &e.kind {
                            let p = (**p).clone();
                            *var = self.ptr;
                            *init = Some(Init::Expr(p));
                            return;
                        }
                    }
                }
            }
            crate::ir::visit::walk_stmt_mut(self, s)
        }
    }
    crate::ir::visit::VisitorMut::visit_stmt(&mut Repoint { copy, ptr }, body);
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

    fn printed(p: &Program) -> String {
        let dialect = crate::ir::dialect::Dialect::svcomp();
        crate::ir::print::print_program(p, dialect, &Default::default()).text
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
        // One whose address is taken is shared (CBMC's dirty locals): it moves to the heap
        // and the thread gets the object itself, also when only an element's address is
        // taken or an array decays to a pointer.
        for main in [
            "int k = 3; int *p = &k; __CPROVER_ASYNC_1: f(k); return *p;",
            "struct s l = {{1, 2}}; int *p = &l.a[1]; __CPROVER_ASYNC_1: f(l.a[0]); return *p;",
            "struct s l = {{1, 2}}; int *p = l.a; __CPROVER_ASYNC_1: f(l.a[0]); return *p;",
            "int a[2]; a[0] = 1; int *p = a; __CPROVER_ASYNC_1: f(a[0]); return *p;",
        ] {
            let p = load(&format!(
                "struct s {{ int a[2]; }}; int x; void f(int v) {{ x = v; }} \
                 int main(void) {{ {main} }}"
            ))
            .expect("a dirty local is shared");
            let text = printed(&p);
            assert!(text.contains("*__seq_async_shared"), "{text}");
        }
        // Several locals travel together, each copied.
        let p = load(
            "int x; void f(int v, int w) { x = v + w; } \
             int main(void) { int k = 3, j = 4; __CPROVER_ASYNC_1: f(k, j); k = 5; return x; }",
        )
        .expect("two copied locals");
        let text = printed(&p);
        assert!(text.contains("__seq_async_slots[1]"), "{text}");
        // An initialized array that would have to be shared is refused.
        let e = load(
            "int x; void f(int *v) { x = v[0]; } \
             int main(void) { int a[2] = {1, 2}; __CPROVER_ASYNC_1: f(a); return x; }",
        )
        .expect_err("refused");
        assert!(e.contains("initialized array"), "{e}");
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
