//! Normalization: every statement becomes *simple* and performs at most one access to
//! memory another thread can see.
//!
//! C does not make `x = x + 1` atomic: another thread may run between its read and its
//! write (DESIGN principle 6). After this pass the read and the write are two statements
//! (`t = x; x = t + 1;`), so both the sequentializer and an external checker that
//! switches threads only between statements see every interleaving. The pass also
//!
//! * pulls side effects out of expressions (calls, assignments, `++`, statement
//!   expressions) in C's evaluation order, keeping short-circuit and `?:` semantics;
//! * gives every branch a fresh condition temporary, so that a thread resumed in the
//!   middle of its code re-takes exactly the branches it took before;
//! * rewrites every loop to `while (1) { cond; if (!cond) break; body }` (recording the
//!   constant trip count of counted loops);
//! * turns the SV-COMP primitives into intrinsics (`__VERIFIER_assert` → assert at the
//!   caller's line, `reach_error`/`__assert_fail` → error, `abort` → abort, nondet);
//! * numbers every statement ([`StmtId`]), the identity every later copy keeps.

use std::collections::HashSet;

use crate::analysis::facts::{shared_globals, thread_structure};
use crate::analysis::loops::{TripCount, trip_count};
use crate::ir::known::{Known, classify};
use crate::ir::visit::{self, Visitor};
use crate::ir::*;

/// Which variables other threads may access.
#[derive(Clone, Debug, Default)]
pub struct SharedInfo {
    /// Globals accessed by more than one thread instance, and locals whose address
    /// escapes (they may be reached through pointers from another thread).
    pub vars: HashSet<VarId>,
}

impl SharedInfo {
    pub fn compute(prog: &Program) -> SharedInfo {
        let ts = thread_structure(prog);
        let mut vars: HashSet<VarId> = shared_globals(prog, &ts).into_keys().collect();
        vars.extend(escaped_locals(prog));
        // Globals whose address is taken are reachable through pointers too.
        for v in escaped_globals(prog) {
            vars.insert(v);
        }
        SharedInfo { vars }
    }

    /// Whether reading or writing this lvalue touches memory another thread may see.
    pub fn is_shared_lvalue(&self, e: &Expr) -> bool {
        match &e.kind {
            ExprKind::Var(v) => self.vars.contains(v),
            ExprKind::Member(b, _) => self.is_shared_lvalue(b),
            ExprKind::Index(b, _) => match &b.kind {
                ExprKind::Decay(arr) => self.is_shared_lvalue(arr),
                _ => true,
            },
            ExprKind::Deref(_) => true,
            _ => false,
        }
    }
}

/// Locals (and parameters) whose address is taken or whose array decays outside an index.
fn escaped_locals(prog: &Program) -> HashSet<VarId> {
    let mut out = HashSet::new();
    for v in address_taken_vars(prog) {
        if prog.var(v).kind != VarKind::Global {
            out.insert(v);
        }
    }
    out
}

fn escaped_globals(prog: &Program) -> HashSet<VarId> {
    address_taken_vars(prog)
        .into_iter()
        .filter(|v| prog.var(*v).kind == VarKind::Global && !prog.var(*v).thread_local)
        .collect()
}

pub fn address_taken_vars(prog: &Program) -> HashSet<VarId> {
    let bodies: Vec<&Stmt> = prog.funcs.iter().filter_map(|f| f.body.as_ref()).collect();
    address_taken_in(prog, &bodies)
}

/// Variables whose address is taken in `stmts` or in a global initializer of `prog`.
pub fn address_taken_in(prog: &Program, stmts: &[&Stmt]) -> HashSet<VarId> {
    struct V<'a>(HashSet<VarId>, &'a Program);
    impl V<'_> {
        fn ignores_arg(&self, callee: &Expr, i: usize) -> bool {
            let ExprKind::Func(f) = callee.peel().kind else {
                return false;
            };
            let k = classify(&self.1.func(f).name);
            // `sem_getvalue` stores through its second argument.
            if k.is_sync_object_op() && !(k == Known::SemGetvalue && i == 1) {
                return true;
            }
            matches!(
                (k, i),
                (Known::ThreadCreate, 0)
                    | (Known::ThreadJoin, 1)
                    | (Known::Attr, _)
                    | (Known::KeyCreate, 0)
            )
        }
        /// Index expressions inside an address that does not escape still read.
        fn visit_expr_inside(&mut self, e: &Expr) {
            match &e.kind {
                ExprKind::Member(b, _) => self.visit_expr_inside(b),
                ExprKind::Index(b, i) => {
                    self.visit_expr(i);
                    match &b.kind {
                        ExprKind::Decay(x) => self.visit_expr_inside(x),
                        _ => self.visit_expr(b),
                    }
                }
                ExprKind::Var(_) => {}
                _ => self.visit_expr(e),
            }
        }
        fn base(&mut self, e: &Expr) {
            match &e.kind {
                ExprKind::Var(v) => {
                    self.0.insert(*v);
                }
                ExprKind::Member(b, _) => self.base(b),
                ExprKind::Index(b, i) => {
                    self.visit_expr(i);
                    match &b.kind {
                        ExprKind::Decay(x) => self.base(x),
                        _ => self.visit_expr(b),
                    }
                }
                _ => self.visit_expr(e),
            }
        }
    }
    impl Visitor for V<'_> {
        fn visit_expr(&mut self, e: &Expr) {
            match &e.kind {
                ExprKind::Call(callee, args) => {
                    // The thread-id slot of `pthread_create` and the objects handed to the
                    // mutex and condition-variable calls do not escape to another thread
                    // through these calls.
                    self.visit_expr(callee);
                    for (i, a) in args.iter().enumerate() {
                        if self.ignores_arg(callee, i) {
                            if let ExprKind::AddrOf(x) = &a.peel().kind {
                                self.visit_expr_inside(x);
                                continue;
                            }
                        }
                        self.visit_expr(a);
                    }
                }
                ExprKind::AddrOf(x) | ExprKind::Decay(x) => self.base(x),
                ExprKind::Index(b, i) => {
                    self.visit_expr(i);
                    match &b.kind {
                        // `a[i]` on an array is not an escape of `a`.
                        ExprKind::Decay(x) => self.visit_expr(x),
                        _ => self.visit_expr(b),
                    }
                }
                _ => visit::walk_expr(self, e),
            }
        }
    }
    let mut v = V(HashSet::new(), prog);
    for s in stmts {
        v.visit_stmt(s);
    }
    for var in &prog.vars {
        if let Some(i) = &var.init {
            v.visit_init(i);
        }
    }
    v.0
}

/// Normalizes every function body of `prog`.
pub fn normalize(prog: &mut Program) -> SharedInfo {
    let shared = SharedInfo::compute(prog);
    for i in 0..prog.funcs.len() {
        let fid = FuncId(i as u32);
        let Some(body) = prog.funcs[i].body.take() else {
            continue;
        };
        let mut n = Normalizer {
            prog,
            shared: &shared,
            func: fid,
        };
        let loc = body.loc;
        let mut out = Vec::new();
        match body.kind {
            StmtKind::Block(ss) => {
                for s in ss {
                    n.stmt(s, &mut out, None);
                }
            }
            k => n.stmt(Stmt::new(k, loc), &mut out, None),
        }
        prog.funcs[i].body = Some(Stmt::block(out, loc));
    }
    super::unreachable::prune(prog);
    shared
}

struct Normalizer<'a> {
    prog: &'a mut Program,
    shared: &'a SharedInfo,
    func: FuncId,
}

impl Normalizer<'_> {
    fn tt(&self) -> &TypeTable {
        &self.prog.types
    }

    fn id(&mut self) -> StmtId {
        let id = StmtId(self.prog.next_stmt_id);
        self.prog.next_stmt_id += 1;
        id
    }

    fn label(&mut self, hint: &str) -> String {
        self.prog.fresh_label(hint)
    }

    fn temp(&mut self, ty: &Type, loc: Loc) -> VarId {
        let ty = ty.unqualified().clone();
        self.prog.new_local(Some(self.func), "__t", ty, loc)
    }

    fn push(&mut self, kind: StmtKind, loc: Loc, out: &mut Vec<Stmt>) {
        let id = self.id();
        out.push(Stmt::new(kind, loc).with_id(id));
    }

    // ---- statements -------------------------------------------------------------------

    /// Appends the normalized form of `s` to `out`. `cont` is the label `continue` must
    /// jump to in the innermost enclosing loop, when that loop needs one.
    fn stmt(&mut self, s: Stmt, out: &mut Vec<Stmt>, cont: Option<&str>) {
        let loc = s.loc;
        match s.kind {
            StmtKind::Decl { var, init } => match init {
                None => self.push(StmtKind::Decl { var, init: None }, loc, out),
                Some(Init::Expr(e)) if !e.ty.is_array(self.tt()) => {
                    let e = self.rhs(e, out);
                    self.simple(
                        StmtKind::Decl {
                            var,
                            init: Some(Init::Expr(e)),
                        },
                        loc,
                        out,
                    );
                }
                Some(init) => {
                    let init = self.init(init, out);
                    self.simple(
                        StmtKind::Decl {
                            var,
                            init: Some(init),
                        },
                        loc,
                        out,
                    );
                }
            },
            StmtKind::Expr(e) => self.effect(e, out),
            StmtKind::Block(ss) => {
                let mut inner = Vec::new();
                for x in ss {
                    self.stmt(x, &mut inner, cont);
                }
                out.push(Stmt::block(inner, loc));
            }
            StmtKind::If { cond, then, els } => {
                let c = self.cond(cond, out);
                let mut t = Vec::new();
                self.stmt(*then, &mut t, cont);
                let e = els.map(|e| {
                    let mut v = Vec::new();
                    self.stmt(*e, &mut v, cont);
                    Box::new(Stmt::block(v, loc))
                });
                self.push(
                    StmtKind::If {
                        cond: c,
                        then: Box::new(Stmt::block(t, loc)),
                        els: e,
                    },
                    loc,
                    out,
                );
            }
            StmtKind::Switch { cond, body } => {
                let c = self.cond(cond, out);
                let mut b = Vec::new();
                self.stmt(*body, &mut b, cont);
                self.push(
                    StmtKind::Switch {
                        cond: c,
                        body: Box::new(Stmt::block(b, loc)),
                    },
                    loc,
                    out,
                );
            }
            StmtKind::While { cond, body } => {
                let bound = trip_count(
                    self.prog,
                    &Stmt::new(
                        StmtKind::While {
                            cond: cond.clone(),
                            body: body.clone(),
                        },
                        loc,
                    ),
                    None,
                );
                let mut b = Vec::new();
                self.loop_exit_test(cond, &mut b);
                self.stmt(*body, &mut b, None);
                self.emit_loop(b, loc, bound, out);
            }
            StmtKind::DoWhile { body, cond } => {
                let l = self.label("cont");
                let mut b = Vec::new();
                self.stmt(*body, &mut b, Some(&l));
                self.push(StmtKind::Label(l), loc, &mut b);
                self.loop_exit_test(cond, &mut b);
                self.emit_loop(b, loc, TripCount::Unknown, out);
            }
            StmtKind::For {
                init,
                cond,
                step,
                body,
            } => {
                let bound = trip_count(
                    self.prog,
                    &Stmt::new(
                        StmtKind::For {
                            init: init.clone(),
                            cond: cond.clone(),
                            step: step.clone(),
                            body: body.clone(),
                        },
                        loc,
                    ),
                    None,
                );
                let mut scope = Vec::new();
                for i in init {
                    self.stmt(i, &mut scope, cont);
                }
                let l = self.label("cont");
                let mut b = Vec::new();
                if let Some(c) = cond {
                    self.loop_exit_test(c, &mut b);
                }
                self.stmt(*body, &mut b, Some(&l));
                self.push(StmtKind::Label(l), loc, &mut b);
                if let Some(st) = step {
                    self.effect(st, &mut b);
                }
                self.emit_loop(b, loc, bound, &mut scope);
                out.push(Stmt::block(scope, loc));
            }
            StmtKind::Return(e) => {
                let e = e.map(|e| {
                    if e.ty.is_void(self.tt()) {
                        self.effect(e, out);
                        None
                    } else {
                        Some(self.rhs(e, out))
                    }
                });
                self.simple(StmtKind::Return(e.flatten()), loc, out);
            }
            StmtKind::Continue => match cont {
                Some(l) => self.push(StmtKind::Goto(l.to_string()), loc, out),
                None => self.push(StmtKind::Continue, loc, out),
            },
            k @ (StmtKind::Case { .. }
            | StmtKind::Default
            | StmtKind::Label(_)
            | StmtKind::Goto(_)
            | StmtKind::Break
            | StmtKind::Skip) => self.push(k, loc, out),
        }
    }

    /// `int c = cond; if (!c) break;` at the top of a loop body.
    fn loop_exit_test(&mut self, cond: Expr, out: &mut Vec<Stmt>) {
        if let Some(v) = cond.as_int() {
            if v != 0 {
                return;
            }
        }
        let loc = cond.loc;
        let c = self.cond(cond, out);
        let not = Expr::new(ExprKind::Unary(UnOp::LogNot, Box::new(c)), Type::int(), loc);
        let brk = Stmt::new(StmtKind::Break, loc).with_id(self.id());
        self.push(
            StmtKind::If {
                cond: not,
                then: Box::new(Stmt::block(vec![brk], loc)),
                els: None,
            },
            loc,
            out,
        );
    }

    fn emit_loop(&mut self, body: Vec<Stmt>, loc: Loc, bound: TripCount, out: &mut Vec<Stmt>) {
        let id = self.id();
        if let TripCount::Exactly(n) = bound {
            self.prog.loop_bounds.insert(id, n);
        }
        out.push(
            Stmt::new(
                StmtKind::While {
                    cond: Expr::int(1, Type::int(), loc),
                    body: Box::new(Stmt::block(body, loc)),
                },
                loc,
            )
            .with_id(id),
        );
    }

    /// A branch condition: evaluated into a fresh temporary that nothing else writes.
    fn cond(&mut self, e: Expr, out: &mut Vec<Stmt>) -> Expr {
        let loc = e.loc;
        let p = self.pure(e, out);
        let t = self.temp(&p.ty, loc);
        self.simple(
            StmtKind::Decl {
                var: t,
                init: Some(Init::Expr(p)),
            },
            loc,
            out,
        );
        Expr::var(t, self.prog, loc)
    }

    fn init(&mut self, init: Init, out: &mut Vec<Stmt>) -> Init {
        match init {
            Init::Expr(e) => Init::Expr(self.pure(e, out)),
            Init::List(items) => Init::List(
                items
                    .into_iter()
                    .map(|it| InitItem {
                        path: it.path,
                        init: self.init(it.init, out),
                    })
                    .collect(),
            ),
        }
    }

    // ---- expressions for their effect ------------------------------------------------

    fn effect(&mut self, e: Expr, out: &mut Vec<Stmt>) {
        let loc = e.loc;
        match e.kind {
            ExprKind::Assign(l, r) => {
                let l = self.lvalue(*l, out);
                let r = self.rhs(*r, out);
                self.simple(StmtKind::Expr(assign(l, r, loc)), loc, out);
            }
            ExprKind::OpAssign {
                op,
                lhs,
                rhs,
                op_ty,
            } => {
                let l = self.lvalue(*lhs, out);
                let r = self.pure(*rhs, out);
                let v = self.op_value(op, l.clone(), r, &op_ty, loc);
                self.simple(StmtKind::Expr(assign(l, v, loc)), loc, out);
            }
            ExprKind::IncDec { inc, e: x, .. } => {
                let l = self.lvalue(*x, out);
                let v = self.step_value(inc, l.clone(), loc);
                self.simple(StmtKind::Expr(assign(l, v, loc)), loc, out);
            }
            ExprKind::Call(..) => {
                let c = self.call(e, out);
                if let Some(c) = c {
                    self.simple(StmtKind::Expr(c), loc, out);
                }
            }
            ExprKind::Comma(a, b) => {
                self.effect(*a, out);
                self.effect(*b, out);
            }
            ExprKind::Cast { e: x, .. } => self.effect(*x, out),
            ExprKind::Cond(c, a, b) if has_effects(&a) || has_effects(&b) => {
                let c = self.cond(*c, out);
                let mut t = Vec::new();
                self.effect(*a, &mut t);
                let mut f = Vec::new();
                self.effect(*b, &mut f);
                self.push(
                    StmtKind::If {
                        cond: c,
                        then: Box::new(Stmt::block(t, loc)),
                        els: Some(Box::new(Stmt::block(f, loc))),
                    },
                    loc,
                    out,
                );
            }
            ExprKind::Binary(op @ (BinOp::LogAnd | BinOp::LogOr), a, b) if has_effects(&b) => {
                let c = self.cond(*a, out);
                let c = if op == BinOp::LogOr {
                    Expr::new(ExprKind::Unary(UnOp::LogNot, Box::new(c)), Type::int(), loc)
                } else {
                    c
                };
                let mut t = Vec::new();
                self.effect(*b, &mut t);
                self.push(
                    StmtKind::If {
                        cond: c,
                        then: Box::new(Stmt::block(t, loc)),
                        els: None,
                    },
                    loc,
                    out,
                );
            }
            ExprKind::StmtExpr(ss) => {
                let mut inner = Vec::new();
                for s in ss {
                    self.stmt(s, &mut inner, None);
                }
                out.push(Stmt::block(inner, loc));
            }
            ExprKind::Intrinsic(i, args) => {
                let args = args.into_iter().map(|a| self.pure(a, out)).collect();
                self.simple(
                    StmtKind::Expr(Expr::new(ExprKind::Intrinsic(i, args), e.ty, loc)),
                    loc,
                    out,
                );
            }
            kind => {
                // No effect of its own: keep only the effects of its operands.
                let _ = self.pure(Expr::new(kind, e.ty, loc), out);
            }
        }
    }

    /// The right-hand side of an assignment: a pure expression, or a call kept in place
    /// (`x = f(a)` stays one statement).
    fn rhs(&mut self, e: Expr, out: &mut Vec<Stmt>) -> Expr {
        if let ExprKind::Call(..) = e.kind {
            let ty = e.ty.clone();
            if let Some(c) = self.call(e, out) {
                if !ty.is_void(self.tt()) {
                    return c;
                }
            }
            return Expr::int(0, Type::int(), Loc::SYNTH);
        }
        self.pure(e, out)
    }

    /// Lowers a call: SV-COMP primitives become intrinsics (emitted here; `None` is
    /// returned), other calls get pure arguments and are returned for the caller to use.
    fn call(&mut self, e: Expr, out: &mut Vec<Stmt>) -> Option<Expr> {
        let loc = e.loc;
        let ty = e.ty.clone();
        let ExprKind::Call(callee, args) = e.kind else {
            return Some(self.pure(e, out));
        };
        let known = match callee.peel().kind {
            ExprKind::Func(f) => classify(&self.prog.func(f).name),
            _ => Known::Other,
        };
        let intrinsic = |i: Intrinsic, args: Vec<Expr>| {
            Expr::new(ExprKind::Intrinsic(i, args), Type::Void, loc)
        };
        match known {
            Known::VerifierAssert | Known::VerifierAssume => {
                let c = match args.into_iter().next() {
                    Some(a) => self.pure(a, out),
                    None => Expr::int(1, Type::int(), loc),
                };
                let i = if known == Known::VerifierAssert {
                    Intrinsic::Assert
                } else {
                    Intrinsic::Assume
                };
                self.simple(StmtKind::Expr(intrinsic(i, vec![c])), loc, out);
                None
            }
            Known::ReachError | Known::AssertFail => {
                self.simple(
                    StmtKind::Expr(intrinsic(Intrinsic::Error, vec![])),
                    loc,
                    out,
                );
                None
            }
            Known::Abort => {
                for a in args {
                    self.effect(a, out);
                }
                self.simple(
                    StmtKind::Expr(intrinsic(Intrinsic::Abort, vec![])),
                    loc,
                    out,
                );
                None
            }
            Known::AtomicBegin | Known::AtomicEnd => {
                let i = if known == Known::AtomicBegin {
                    Intrinsic::AtomicBegin
                } else {
                    Intrinsic::AtomicEnd
                };
                self.simple(StmtKind::Expr(intrinsic(i, vec![])), loc, out);
                None
            }
            Known::Nondet => Some(Expr::new(
                ExprKind::Intrinsic(Intrinsic::Nondet, vec![]),
                ty,
                loc,
            )),
            _ => {
                let callee = self.pure(*callee, out);
                let args = args.into_iter().map(|a| self.pure(a, out)).collect();
                Some(Expr::new(ExprKind::Call(Box::new(callee), args), ty, loc))
            }
        }
    }

    // ---- pure expressions -----------------------------------------------------------

    /// An equivalent expression without side effects; the effects go to `out`, in order.
    fn pure(&mut self, e: Expr, out: &mut Vec<Stmt>) -> Expr {
        let loc = e.loc;
        let ty = e.ty.clone();
        match e.kind {
            ExprKind::Int(_)
            | ExprKind::Float(_)
            | ExprKind::Str(_)
            | ExprKind::Var(_)
            | ExprKind::Func(_)
            | ExprKind::SizeofType(_)
            | ExprKind::SizeofExpr(_)
            | ExprKind::AlignofType(_) => Expr::new(e.kind, ty, loc),
            ExprKind::Unary(op, a) => {
                let a = self.pure(*a, out);
                Expr::new(ExprKind::Unary(op, Box::new(a)), ty, loc)
            }
            ExprKind::Binary(op @ (BinOp::LogAnd | BinOp::LogOr), a, b)
                if self.needs_statements(&b) =>
            {
                // Short circuit with effects or shared reads on the right: branch.
                let t = self.temp(&Type::int(), loc);
                self.push(StmtKind::Decl { var: t, init: None }, loc, out);
                let c = self.cond(*a, out);
                let mut rhs_out = Vec::new();
                let b = self.pure(*b, &mut rhs_out);
                let zero = zero_of(&b.ty, self.tt(), loc);
                let bval = Expr::new(
                    ExprKind::Binary(BinOp::Ne, Box::new(b), Box::new(zero)),
                    Type::int(),
                    loc,
                );
                self.simple(
                    StmtKind::Expr(assign(Expr::var(t, self.prog, loc), bval, loc)),
                    loc,
                    &mut rhs_out,
                );
                let short = Expr::int((op == BinOp::LogOr) as i128, Type::int(), loc);
                let mut short_out = Vec::new();
                self.simple(
                    StmtKind::Expr(assign(Expr::var(t, self.prog, loc), short, loc)),
                    loc,
                    &mut short_out,
                );
                let (then, els) = if op == BinOp::LogAnd {
                    (rhs_out, short_out)
                } else {
                    (short_out, rhs_out)
                };
                self.push(
                    StmtKind::If {
                        cond: c,
                        then: Box::new(Stmt::block(then, loc)),
                        els: Some(Box::new(Stmt::block(els, loc))),
                    },
                    loc,
                    out,
                );
                Expr::var(t, self.prog, loc)
            }
            ExprKind::Binary(op, a, b) => {
                let a = self.pure(*a, out);
                let b = self.pure(*b, out);
                Expr::new(ExprKind::Binary(op, Box::new(a), Box::new(b)), ty, loc)
            }
            ExprKind::Cond(c, a, b) if self.needs_statements(&a) || self.needs_statements(&b) => {
                let void = ty.is_void(self.tt());
                let t = if void {
                    None
                } else {
                    Some(self.temp(&ty, loc))
                };
                if let Some(t) = t {
                    self.push(StmtKind::Decl { var: t, init: None }, loc, out);
                }
                let c = self.cond(*c, out);
                let branch = |this: &mut Self, x: Expr| {
                    let mut v = Vec::new();
                    match t {
                        Some(t) => {
                            let x = this.pure(x, &mut v);
                            let target = Expr::var(t, this.prog, loc);
                            this.simple(StmtKind::Expr(assign(target, x, loc)), loc, &mut v);
                        }
                        None => this.effect(x, &mut v),
                    }
                    Stmt::block(v, loc)
                };
                let then = branch(self, *a);
                let els = branch(self, *b);
                self.push(
                    StmtKind::If {
                        cond: c,
                        then: Box::new(then),
                        els: Some(Box::new(els)),
                    },
                    loc,
                    out,
                );
                match t {
                    Some(t) => Expr::var(t, self.prog, loc),
                    None => Expr::new(ExprKind::Int(0), Type::Void, loc),
                }
            }
            ExprKind::Cond(c, a, b) => {
                let c = self.pure(*c, out);
                let a = self.pure(*a, out);
                let b = self.pure(*b, out);
                Expr::new(
                    ExprKind::Cond(Box::new(c), Box::new(a), Box::new(b)),
                    ty,
                    loc,
                )
            }
            ExprKind::Comma(a, b) => {
                self.effect(*a, out);
                self.pure(*b, out)
            }
            ExprKind::Assign(l, r) => {
                let l = self.lvalue(*l, out);
                let r = self.pure(*r, out);
                let t = self.temp(&ty, loc);
                self.simple(
                    StmtKind::Decl {
                        var: t,
                        init: Some(Init::Expr(r)),
                    },
                    loc,
                    out,
                );
                let tv = Expr::var(t, self.prog, loc);
                self.simple(StmtKind::Expr(assign(l, tv.clone(), loc)), loc, out);
                tv
            }
            ExprKind::OpAssign {
                op,
                lhs,
                rhs,
                op_ty,
            } => {
                let l = self.lvalue(*lhs, out);
                let r = self.pure(*rhs, out);
                let v = self.op_value(op, l.clone(), r, &op_ty, loc);
                let t = self.temp(&ty, loc);
                self.simple(
                    StmtKind::Decl {
                        var: t,
                        init: Some(Init::Expr(v)),
                    },
                    loc,
                    out,
                );
                let tv = Expr::var(t, self.prog, loc);
                self.simple(StmtKind::Expr(assign(l, tv.clone(), loc)), loc, out);
                tv
            }
            ExprKind::IncDec { inc, post, e: x } => {
                let l = self.lvalue(*x, out);
                let t = self.temp(&ty, loc);
                let tv = Expr::var(t, self.prog, loc);
                if post {
                    self.simple(
                        StmtKind::Decl {
                            var: t,
                            init: Some(Init::Expr(l.clone())),
                        },
                        loc,
                        out,
                    );
                    let v = self.step_value(inc, tv.clone(), loc);
                    self.simple(StmtKind::Expr(assign(l, v, loc)), loc, out);
                } else {
                    let v = self.step_value(inc, l.clone(), loc);
                    self.simple(
                        StmtKind::Decl {
                            var: t,
                            init: Some(Init::Expr(v)),
                        },
                        loc,
                        out,
                    );
                    self.simple(StmtKind::Expr(assign(l, tv.clone(), loc)), loc, out);
                }
                tv
            }
            // `T *p = malloc(...)`: the call's temporary gets the pointer type the value
            // is converted to, so the allocation is typed where it is made.
            ExprKind::Cast { e: x, implicit }
                if matches!(x.kind, ExprKind::Call(..))
                    && ty.is_pointer(self.tt())
                    && x.ty.is_pointer(self.tt()) =>
            {
                let xty = x.ty.clone();
                match self.call(*x, out) {
                    Some(c) => {
                        let conv = Expr::new(
                            ExprKind::Cast {
                                e: Box::new(c),
                                implicit,
                            },
                            ty.clone(),
                            loc,
                        );
                        let t = self.temp(&ty, loc);
                        self.simple(
                            StmtKind::Decl {
                                var: t,
                                init: Some(Init::Expr(conv)),
                            },
                            loc,
                            out,
                        );
                        Expr::var(t, self.prog, loc)
                    }
                    None => Expr::new(
                        ExprKind::Cast {
                            e: Box::new(Expr::new(ExprKind::Int(0), xty, loc)),
                            implicit,
                        },
                        ty,
                        loc,
                    ),
                }
            }
            ExprKind::Cast { e: x, implicit } => {
                let x = self.pure(*x, out);
                Expr::new(
                    ExprKind::Cast {
                        e: Box::new(x),
                        implicit,
                    },
                    ty,
                    loc,
                )
            }
            ExprKind::Decay(x) => {
                let x = self.lvalue(*x, out);
                Expr::new(ExprKind::Decay(Box::new(x)), ty, loc)
            }
            ExprKind::AddrOf(x) => {
                let x = self.lvalue(*x, out);
                Expr::new(ExprKind::AddrOf(Box::new(x)), ty, loc)
            }
            ExprKind::Deref(p) => {
                let p = self.pure(*p, out);
                Expr::new(ExprKind::Deref(Box::new(p)), ty, loc)
            }
            ExprKind::Member(b, i) => {
                let b = self.lvalue(*b, out);
                Expr::new(ExprKind::Member(Box::new(b), i), ty, loc)
            }
            ExprKind::Index(b, i) => {
                let b = self.pure(*b, out);
                let i = self.pure(*i, out);
                Expr::new(ExprKind::Index(Box::new(b), Box::new(i)), ty, loc)
            }
            ExprKind::Call(..) => {
                let void = ty.is_void(self.tt());
                match self.call(Expr::new(e.kind, ty.clone(), loc), out) {
                    Some(c) if void => {
                        self.simple(StmtKind::Expr(c), loc, out);
                        Expr::new(ExprKind::Int(0), Type::Void, loc)
                    }
                    Some(c) => {
                        let t = self.temp(&ty, loc);
                        self.simple(
                            StmtKind::Decl {
                                var: t,
                                init: Some(Init::Expr(c)),
                            },
                            loc,
                            out,
                        );
                        Expr::var(t, self.prog, loc)
                    }
                    None => Expr::new(ExprKind::Int(0), Type::Void, loc),
                }
            }
            ExprKind::StmtExpr(mut ss) => {
                let last = ss.pop();
                let mut inner = Vec::new();
                for s in ss {
                    self.stmt(s, &mut inner, None);
                }
                let value = match last {
                    Some(Stmt {
                        kind: StmtKind::Expr(x),
                        ..
                    }) if !ty.is_void(self.tt()) => {
                        let v = self.pure(x, &mut inner);
                        let t = self.temp(&ty, loc);
                        self.push(StmtKind::Decl { var: t, init: None }, loc, out);
                        let tv = Expr::var(t, self.prog, loc);
                        self.simple(StmtKind::Expr(assign(tv.clone(), v, loc)), loc, &mut inner);
                        tv
                    }
                    Some(s) => {
                        self.stmt(s, &mut inner, None);
                        Expr::new(ExprKind::Int(0), Type::Void, loc)
                    }
                    None => Expr::new(ExprKind::Int(0), Type::Void, loc),
                };
                out.push(Stmt::block(inner, loc));
                value
            }
            ExprKind::Compound(init) => {
                let init = self.init(*init, out);
                let t = self.temp(&ty, loc);
                self.simple(
                    StmtKind::Decl {
                        var: t,
                        init: Some(init),
                    },
                    loc,
                    out,
                );
                Expr::var(t, self.prog, loc)
            }
            ExprKind::Intrinsic(Intrinsic::Nondet, _) => {
                let t = self.temp(&ty, loc);
                let nd = Expr::new(
                    ExprKind::Intrinsic(Intrinsic::Nondet, vec![]),
                    ty.clone(),
                    loc,
                );
                self.simple(
                    StmtKind::Decl {
                        var: t,
                        init: Some(Init::Expr(nd)),
                    },
                    loc,
                    out,
                );
                Expr::var(t, self.prog, loc)
            }
            ExprKind::Intrinsic(i, args) => {
                let args = args.into_iter().map(|a| self.pure(a, out)).collect();
                self.simple(
                    StmtKind::Expr(Expr::new(ExprKind::Intrinsic(i, args), Type::Void, loc)),
                    loc,
                    out,
                );
                Expr::new(ExprKind::Int(0), Type::Void, loc)
            }
        }
    }

    /// An lvalue with pure sub-expressions (its address is computed without effects).
    fn lvalue(&mut self, e: Expr, out: &mut Vec<Stmt>) -> Expr {
        let loc = e.loc;
        let ty = e.ty.clone();
        match e.kind {
            ExprKind::Var(_) | ExprKind::Str(_) => e,
            ExprKind::Member(b, i) => {
                let b = self.lvalue(*b, out);
                Expr::new(ExprKind::Member(Box::new(b), i), ty, loc)
            }
            ExprKind::Index(b, i) => {
                let b = self.pure(*b, out);
                let i = self.pure(*i, out);
                Expr::new(ExprKind::Index(Box::new(b), Box::new(i)), ty, loc)
            }
            ExprKind::Deref(p) => {
                let p = self.pure(*p, out);
                Expr::new(ExprKind::Deref(Box::new(p)), ty, loc)
            }
            kind => self.pure(Expr::new(kind, ty, loc), out),
        }
    }

    fn needs_statements(&self, e: &Expr) -> bool {
        has_effects(e) || count_reads(self.shared, e) > 0
    }

    /// `(T)((op_ty)l op r)` for compound assignment.
    fn op_value(&self, op: BinOp, l: Expr, r: Expr, op_ty: &Type, loc: Loc) -> Expr {
        let lty = l.ty.clone();
        let lhs = if l.ty.same_as(op_ty, self.tt()) {
            l
        } else {
            Expr::new(
                ExprKind::Cast {
                    e: Box::new(l),
                    implicit: true,
                },
                op_ty.clone(),
                loc,
            )
        };
        let v = Expr::new(
            ExprKind::Binary(op, Box::new(lhs), Box::new(r)),
            op_ty.clone(),
            loc,
        );
        if v.ty.same_as(&lty, self.tt()) {
            v
        } else {
            Expr::new(
                ExprKind::Cast {
                    e: Box::new(v),
                    implicit: true,
                },
                lty.unqualified().clone(),
                loc,
            )
        }
    }

    fn step_value(&self, inc: bool, l: Expr, loc: Loc) -> Expr {
        let op = if inc { BinOp::Add } else { BinOp::Sub };
        let lty = l.ty.unqualified().clone();
        if lty.is_pointer(self.tt()) {
            let one = Expr::int(1, Type::int(), loc);
            return Expr::new(ExprKind::Binary(op, Box::new(l), Box::new(one)), lty, loc);
        }
        let pty = match lty.int_kind(self.tt()) {
            Some(k) if k.rank() < IntKind::Int.rank() => Type::int(),
            _ => lty.clone(),
        };
        let one = Expr::int(1, pty.clone(), loc);
        self.op_value(op, l, one, &pty, loc)
    }

    // ---- phase 2: one shared access per statement -------------------------------------

    /// Emits a simple statement after hoisting shared reads into temporaries until it
    /// performs at most one shared access.
    fn simple(&mut self, kind: StmtKind, loc: Loc, out: &mut Vec<Stmt>) {
        let shared = self.shared;
        let mut kind = kind;
        match &mut kind {
            StmtKind::Expr(e) => match &mut e.kind {
                ExprKind::Assign(l, r) => {
                    let write = shared.is_shared_lvalue(l);
                    let is_call = matches!(r.kind, ExprKind::Call(..));
                    let keep = if write || is_call { 0 } else { 1 };
                    self.hoist_in_assign(l, r, keep, out);
                    if is_call && write {
                        // `x = f(a)` with `x` shared: the call and the write are two steps.
                        let ty = r.ty.clone();
                        let t = self.temp(&ty, loc);
                        let call = std::mem::replace(r.as_mut(), Expr::var(t, self.prog, loc));
                        self.push(
                            StmtKind::Decl {
                                var: t,
                                init: Some(Init::Expr(call)),
                            },
                            loc,
                            out,
                        );
                    }
                }
                ExprKind::Call(_, args) => {
                    for a in args.iter_mut() {
                        self.hoist(a, 0, out);
                    }
                }
                ExprKind::Intrinsic(_, args) => {
                    let total: usize = args.iter().map(|a| count_reads(shared, a)).sum();
                    let mut allowed = 1usize;
                    for a in args.iter_mut() {
                        let n = count_reads(shared, a);
                        let keep = allowed.min(n);
                        allowed -= keep;
                        let _ = total;
                        self.hoist(a, keep, out);
                    }
                }
                _ => self.hoist(e, 1, out),
            },
            StmtKind::Decl { var, init } => {
                let write = shared.vars.contains(var);
                match init {
                    Some(Init::Expr(x)) => {
                        let is_call = matches!(x.kind, ExprKind::Call(..));
                        let keep = if write || is_call { 0 } else { 1 };
                        if let ExprKind::Call(_, args) = &mut x.kind {
                            for a in args.iter_mut() {
                                self.hoist(a, 0, out);
                            }
                        } else {
                            self.hoist(x, keep, out);
                        }
                    }
                    Some(Init::List(_)) => {
                        let mut init_taken = init.take();
                        if let Some(i) = &mut init_taken {
                            self.hoist_init(i, out);
                        }
                        *init = init_taken;
                    }
                    None => {}
                }
            }
            StmtKind::Return(Some(e)) => {
                if let ExprKind::Call(_, args) = &mut e.kind {
                    for a in args.iter_mut() {
                        self.hoist(a, 0, out);
                    }
                } else {
                    self.hoist(e, 1, out)
                }
            }
            StmtKind::If { cond, .. } | StmtKind::Switch { cond, .. } => self.hoist(cond, 0, out),
            _ => {}
        }
        self.push(kind, loc, out);
    }

    fn hoist_init(&mut self, i: &mut Init, out: &mut Vec<Stmt>) {
        match i {
            Init::Expr(e) => self.hoist(e, 0, out),
            Init::List(items) => {
                for it in items {
                    self.hoist_init(&mut it.init, out);
                }
            }
        }
    }

    fn hoist_in_assign(&mut self, l: &mut Expr, r: &mut Expr, keep: usize, out: &mut Vec<Stmt>) {
        // Evaluation order: the right-hand side, then the address of the left.
        let rn = count_reads(self.shared, r);
        let keep_r = keep.min(rn);
        if let ExprKind::Call(_, args) = &mut r.kind {
            for a in args.iter_mut() {
                self.hoist(a, 0, out);
            }
        } else {
            self.hoist(r, keep_r, out);
        }
        let keep_l = keep - keep_r;
        let mut reads = Vec::new();
        addr_reads(self.shared, l, &mut |_| reads.push(()));
        let n = reads.len();
        let to_hoist = n.saturating_sub(keep_l);
        let mut k = 0;
        let mut taken: Vec<Expr> = Vec::new();
        addr_reads_mut(self.shared, l, &mut |x| {
            if k < to_hoist {
                let ty = x.ty.clone();
                let loc = x.loc;
                let placeholder =
                    Expr::new(ExprKind::Var(VarId(u32::MAX - taken.len() as u32)), ty, loc);
                taken.push(std::mem::replace(x, placeholder));
            }
            k += 1;
        });
        self.bind_taken(l, taken, out);
    }

    /// Hoists all but the last `keep` shared reads of `e` (in evaluation order).
    fn hoist(&mut self, e: &mut Expr, keep: usize, out: &mut Vec<Stmt>) {
        let n = count_reads(self.shared, e);
        if n <= keep {
            return;
        }
        let to_hoist = n - keep;
        let mut k = 0;
        let mut taken: Vec<Expr> = Vec::new();
        reads_mut(self.shared, e, &mut |x| {
            if k < to_hoist {
                let ty = x.ty.clone();
                let loc = x.loc;
                let placeholder =
                    Expr::new(ExprKind::Var(VarId(u32::MAX - taken.len() as u32)), ty, loc);
                taken.push(std::mem::replace(x, placeholder));
            }
            k += 1;
        });
        self.bind_taken(e, taken, out);
    }

    /// Emits `t_i = read_i` for each hoisted read and patches the placeholders.
    fn bind_taken(&mut self, e: &mut Expr, taken: Vec<Expr>, out: &mut Vec<Stmt>) {
        if taken.is_empty() {
            return;
        }
        let mut vars = Vec::new();
        for mut x in taken {
            // A read nested in a later one (`s.b[s.a]`: `s.a`, then `s.b[..]`) was
            // taken first, so the later one holds its placeholder: bind it to the
            // temporary already declared, or the placeholder id escapes into the IR.
            patch_placeholders(&mut x, &vars, self.prog);
            let loc = x.loc;
            let t = self.temp(&x.ty, loc);
            self.push(
                StmtKind::Decl {
                    var: t,
                    init: Some(Init::Expr(x)),
                },
                loc,
                out,
            );
            vars.push(t);
        }
        patch_placeholders(e, &vars, self.prog);
    }
}

fn assign(l: Expr, r: Expr, loc: Loc) -> Expr {
    let ty = l.ty.unqualified().clone();
    Expr::new(ExprKind::Assign(Box::new(l), Box::new(r)), ty, loc)
}

fn zero_of(ty: &Type, tt: &TypeTable, loc: Loc) -> Expr {
    if ty.is_pointer(tt) {
        Expr::new(
            ExprKind::Cast {
                e: Box::new(Expr::int(0, Type::int(), loc)),
                implicit: true,
            },
            ty.clone(),
            loc,
        )
    } else {
        Expr::int(0, ty.unqualified().clone(), loc)
    }
}

fn patch_placeholders(e: &mut Expr, vars: &[VarId], prog: &Program) {
    struct P<'a>(&'a [VarId], &'a Program);
    impl visit::VisitorMut for P<'_> {
        fn visit_expr(&mut self, e: &mut Expr) {
            if let ExprKind::Var(v) = e.kind {
                let k = (u32::MAX - v.0) as usize;
                if v.0 > u32::MAX - 1_000_000 {
                    if let Some(t) = self.0.get(k) {
                        e.kind = ExprKind::Var(*t);
                        e.ty = self.1.var(*t).ty.clone();
                        return;
                    }
                }
            }
            visit::walk_expr_mut(self, e)
        }
    }
    visit::VisitorMut::visit_expr(&mut P(vars, prog), e)
}

/// Whether evaluating `e` changes anything (or must be emitted as its own statement).
pub fn has_effects(e: &Expr) -> bool {
    let mut found = false;
    visit::each_subexpr(e, &mut |x| {
        if matches!(
            x.kind,
            ExprKind::Assign(..)
                | ExprKind::OpAssign { .. }
                | ExprKind::IncDec { .. }
                | ExprKind::Call(..)
                | ExprKind::StmtExpr(_)
                | ExprKind::Compound(_)
                | ExprKind::Intrinsic(..)
        ) {
            found = true;
        }
    });
    found
}

/// Number of shared reads `e` performs as an rvalue.
pub fn count_reads(shared: &SharedInfo, e: &Expr) -> usize {
    let mut n = 0;
    reads(shared, e, &mut |_| n += 1);
    n
}

/// Visits the shared reads of an rvalue in evaluation order (address reads first).
fn reads(shared: &SharedInfo, e: &Expr, f: &mut dyn FnMut(&Expr)) {
    match &e.kind {
        ExprKind::Var(_) | ExprKind::Member(..) | ExprKind::Index(..) | ExprKind::Deref(_) => {
            addr_reads(shared, e, f);
            if shared.is_shared_lvalue(e) {
                f(e)
            }
        }
        ExprKind::Decay(x) | ExprKind::AddrOf(x) => addr_reads(shared, x, f),
        ExprKind::SizeofExpr(_) | ExprKind::SizeofType(_) | ExprKind::AlignofType(_) => {}
        // Nothing else reads memory except through its operands.
        _ => {
            struct C<'a, 'b>(&'a SharedInfo, &'b mut dyn FnMut(&Expr));
            impl Visitor for C<'_, '_> {
                fn visit_expr(&mut self, e: &Expr) {
                    reads(self.0, e, self.1)
                }
                fn visit_stmt(&mut self, _: &Stmt) {}
            }
            visit::walk_expr(&mut C(shared, f), e)
        }
    }
}

fn addr_reads(shared: &SharedInfo, e: &Expr, f: &mut dyn FnMut(&Expr)) {
    match &e.kind {
        ExprKind::Var(_) | ExprKind::Str(_) | ExprKind::Compound(_) => {}
        ExprKind::Member(b, _) => addr_reads(shared, b, f),
        ExprKind::Index(b, i) => {
            reads(shared, b, f);
            reads(shared, i, f);
        }
        ExprKind::Deref(p) => reads(shared, p, f),
        _ => reads(shared, e, f),
    }
}

fn reads_mut(shared: &SharedInfo, e: &mut Expr, f: &mut dyn FnMut(&mut Expr)) {
    match &mut e.kind {
        ExprKind::Var(_) | ExprKind::Member(..) | ExprKind::Index(..) | ExprKind::Deref(_) => {
            addr_reads_mut(shared, e, f);
            if shared.is_shared_lvalue(e) {
                f(e)
            }
        }
        ExprKind::Decay(x) | ExprKind::AddrOf(x) => addr_reads_mut(shared, x, f),
        ExprKind::SizeofExpr(_) | ExprKind::SizeofType(_) | ExprKind::AlignofType(_) => {}
        _ => {
            struct C<'a, 'b>(&'a SharedInfo, &'b mut dyn FnMut(&mut Expr));
            impl visit::VisitorMut for C<'_, '_> {
                fn visit_expr(&mut self, e: &mut Expr) {
                    reads_mut(self.0, e, self.1)
                }
                fn visit_stmt(&mut self, _: &mut Stmt) {}
            }
            visit::walk_expr_mut(&mut C(shared, f), e)
        }
    }
}

fn addr_reads_mut(shared: &SharedInfo, e: &mut Expr, f: &mut dyn FnMut(&mut Expr)) {
    match &mut e.kind {
        ExprKind::Var(_) | ExprKind::Str(_) | ExprKind::Compound(_) => {}
        ExprKind::Member(b, _) => addr_reads_mut(shared, b, f),
        ExprKind::Index(b, i) => {
            reads_mut(shared, b, f);
            reads_mut(shared, i, f);
        }
        ExprKind::Deref(p) => reads_mut(shared, p, f),
        _ => reads_mut(shared, e, f),
    }
}

/// Shared accesses (reads and the write) one simple statement performs; the
/// normalization invariant is that this is at most one.
pub fn shared_accesses(shared: &SharedInfo, s: &Stmt) -> usize {
    match &s.kind {
        StmtKind::Expr(e) => match &e.kind {
            ExprKind::Assign(l, r) => {
                let mut n = count_reads(shared, r);
                addr_reads(shared, l, &mut |_| n += 1);
                n + shared.is_shared_lvalue(l) as usize
            }
            _ => count_reads(shared, e),
        },
        StmtKind::Decl { var, init } => {
            let mut n = shared.vars.contains(var) as usize * init.is_some() as usize;
            if let Some(i) = init {
                struct C<'a>(&'a SharedInfo, usize);
                impl Visitor for C<'_> {
                    fn visit_expr(&mut self, e: &Expr) {
                        self.1 += count_reads(self.0, e)
                    }
                }
                let mut c = C(shared, 0);
                c.visit_init(i);
                n += c.1;
            }
            n
        }
        StmtKind::Return(Some(e)) => count_reads(shared, e),
        StmtKind::If { cond, .. }
        | StmtKind::Switch { cond, .. }
        | StmtKind::While { cond, .. } => count_reads(shared, cond),
        _ => 0,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::frontend;

    fn norm(src: &str) -> (Program, SharedInfo) {
        let mut p = frontend::load_text("t.c", src, DataModel::Lp64).expect("parses");
        let s = normalize(&mut p);
        (p, s)
    }

    fn all_simple(p: &Program, s: &SharedInfo) {
        for f in &p.funcs {
            if let Some(b) = &f.body {
                // No hoisting placeholder may survive: its id names no variable.
                visit::each_expr(b, &mut |x| {
                    if let ExprKind::Var(v) = x.kind {
                        assert!(
                            (v.0 as usize) < p.vars.len(),
                            "placeholder {v:?} left in {}",
                            f.name
                        );
                    }
                });
                visit::each_stmt(b, &mut |st| {
                    assert!(
                        shared_accesses(s, st) <= 1,
                        "statement with {} shared accesses in {}: {}",
                        shared_accesses(s, st),
                        f.name,
                        crate::ir::print::stmt_summary(p, st)
                    );
                    if let StmtKind::Expr(e) = &st.kind {
                        if let ExprKind::Assign(_, r) = &e.kind {
                            assert!(
                                !has_effects(r)
                                    || matches!(
                                        r.kind,
                                        ExprKind::Call(..) | ExprKind::Intrinsic(..)
                                    )
                            );
                        }
                    }
                });
            }
        }
    }

    const RACE: &str = "int x; int y; int a[4];\n\
        void *t(void *arg) { x = x + 1; y = x + y; a[x] = a[y]; x++; if (x > y && y > 0) x = 0; return 0; }\n\
        int main() { int p; void *q; pthread_create(&p, 0, t, 0); pthread_create(&p, 0, t, 0); return x; }\n\
        int pthread_create(int *, void *, void *(*)(void *), void *);\n";

    #[test]
    fn every_statement_has_at_most_one_shared_access() {
        let (p, s) = norm(
            "int pthread_create(int *, void *, void *(*)(void *), void *);\n\
             int x; int y; int a[4];\n\
             void *t(void *arg) { x = x + 1; y = x + y; a[x] = a[y]; x++; if (x > y && y > 0) x = 0; \
             while (x < 3) x += y; for (int i = 0; i < 2; i++) { a[i] = x ? y : x; } return 0; }\n\
             int main() { int p; pthread_create(&p, 0, t, 0); pthread_create(&p, 0, t, 0); return x; }\n",
        );
        assert!(s.vars.iter().any(|v| p.var(*v).name == "x"));
        all_simple(&p, &s);
        let _ = RACE;
    }

    /// A shared read nested in another one that is hoisted too (`s.b[s.a]` in a
    /// condition, `q->v[q->i[q->h]]`) binds the inner temporary in the outer one's
    /// declaration: its placeholder once escaped and panicked `Program::var`.
    #[test]
    fn nested_hoisted_reads_leave_no_placeholder() {
        let (p, s) = norm(
            "int pthread_create(int *, void *, void *(*)(void *), void *);\n\
             struct S { int a; int b[4]; int i[4]; } s; struct S *g = &s; int r;\n\
             void *t(void *arg) { struct S *q = arg; s.a = 1; \
             if (s.b[s.a] == 5) r = 1; r = s.b[s.b[s.a]] + s.b[s.a]; \
             q->b[q->i[q->a]] = q->b[q->a]; while (g->b[g->i[g->a]] > 9) r++; \
             switch (s.b[s.a]) { case 1: r = 2; } return 0; }\n\
             int main() { int p; pthread_create(&p, 0, t, &s); pthread_create(&p, 0, t, &s); \
             return s.b[s.i[s.a]]; }\n",
        );
        all_simple(&p, &s);
    }

    #[test]
    fn counted_loops_keep_their_trip_count() {
        let (p, _) =
            norm("int main() { int s = 0; for (int i = 0; i < 5; i++) s += i; return s; }");
        assert_eq!(p.loop_bounds.values().copied().collect::<Vec<_>>(), vec![5]);
    }
}
