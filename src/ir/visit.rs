//! Visitors over statements and expressions.
//!
//! Each `visit_*` has a `walk_*` that destructures every variant with no catch-all, so a
//! new IR construct breaks the build exactly where it must be handled.

use super::syntax::*;

pub trait Visitor {
    fn visit_stmt(&mut self, s: &Stmt) {
        walk_stmt(self, s)
    }
    fn visit_expr(&mut self, e: &Expr) {
        walk_expr(self, e)
    }
    fn visit_init(&mut self, i: &Init) {
        walk_init(self, i)
    }
}

/// Every function body and every global's initializer of `prog`: the whole program's code.
pub fn walk_program<V: Visitor + ?Sized>(v: &mut V, prog: &Program) {
    for f in &prog.funcs {
        if let Some(b) = &f.body {
            v.visit_stmt(b);
        }
    }
    for g in &prog.vars {
        if let Some(i) = &g.init {
            v.visit_init(i);
        }
    }
}

/// `s`'s statements with nested plain blocks opened, in order (a statement that is no
/// block is itself).
pub fn open_blocks<'a>(s: &'a Stmt, out: &mut Vec<&'a Stmt>) {
    match &s.kind {
        StmtKind::Block(ss) => ss.iter().for_each(|x| open_blocks(x, out)),
        _ => out.push(s),
    }
}

pub fn walk_stmt<V: Visitor + ?Sized>(v: &mut V, s: &Stmt) {
    match &s.kind {
        StmtKind::Decl { var: _, init } => {
            if let Some(i) = init {
                v.visit_init(i)
            }
        }
        StmtKind::Expr(e) => v.visit_expr(e),
        StmtKind::Block(ss) => ss.iter().for_each(|s| v.visit_stmt(s)),
        StmtKind::If { cond, then, els } => {
            v.visit_expr(cond);
            v.visit_stmt(then);
            if let Some(e) = els {
                v.visit_stmt(e)
            }
        }
        StmtKind::While { cond, body } => {
            v.visit_expr(cond);
            v.visit_stmt(body)
        }
        StmtKind::DoWhile { body, cond } => {
            v.visit_stmt(body);
            v.visit_expr(cond)
        }
        StmtKind::For {
            init,
            cond,
            step,
            body,
        } => {
            init.iter().for_each(|s| v.visit_stmt(s));
            if let Some(c) = cond {
                v.visit_expr(c)
            }
            if let Some(s) = step {
                v.visit_expr(s)
            }
            v.visit_stmt(body)
        }
        StmtKind::Switch { cond, body } => {
            v.visit_expr(cond);
            v.visit_stmt(body)
        }
        StmtKind::Return(e) => {
            if let Some(e) = e {
                v.visit_expr(e)
            }
        }
        StmtKind::Case { .. }
        | StmtKind::Default
        | StmtKind::Label(_)
        | StmtKind::Goto(_)
        | StmtKind::Break
        | StmtKind::Continue
        | StmtKind::Skip => {}
    }
}

pub fn walk_init<V: Visitor + ?Sized>(v: &mut V, i: &Init) {
    match i {
        Init::Expr(e) => v.visit_expr(e),
        Init::List(items) => items.iter().for_each(|it| v.visit_init(&it.init)),
    }
}

pub fn walk_expr<V: Visitor + ?Sized>(v: &mut V, e: &Expr) {
    match &e.kind {
        ExprKind::Int(_)
        | ExprKind::Float(_)
        | ExprKind::Str(_)
        | ExprKind::Var(_)
        | ExprKind::Func(_)
        | ExprKind::SizeofType(_)
        | ExprKind::AlignofType(_) => {}
        ExprKind::Unary(_, a)
        | ExprKind::Cast { e: a, .. }
        | ExprKind::Decay(a)
        | ExprKind::AddrOf(a)
        | ExprKind::Deref(a)
        | ExprKind::Member(a, _)
        | ExprKind::IncDec { e: a, .. } => v.visit_expr(a),
        ExprKind::Binary(_, a, b)
        | ExprKind::Assign(a, b)
        | ExprKind::OpAssign { lhs: a, rhs: b, .. }
        | ExprKind::Comma(a, b)
        | ExprKind::Index(a, b) => {
            v.visit_expr(a);
            v.visit_expr(b)
        }
        ExprKind::Cond(a, b, c) => {
            v.visit_expr(a);
            v.visit_expr(b);
            v.visit_expr(c)
        }
        ExprKind::Call(f, args) => {
            v.visit_expr(f);
            args.iter().for_each(|a| v.visit_expr(a))
        }
        ExprKind::Intrinsic(_, args) => args.iter().for_each(|a| v.visit_expr(a)),
        ExprKind::StmtExpr(ss) => ss.iter().for_each(|s| v.visit_stmt(s)),
        ExprKind::Compound(init) => v.visit_init(init),
    }
}

pub trait VisitorMut {
    fn visit_stmt(&mut self, s: &mut Stmt) {
        walk_stmt_mut(self, s)
    }
    fn visit_expr(&mut self, e: &mut Expr) {
        walk_expr_mut(self, e)
    }
    fn visit_init(&mut self, i: &mut Init) {
        walk_init_mut(self, i)
    }
}

pub fn walk_stmt_mut<V: VisitorMut + ?Sized>(v: &mut V, s: &mut Stmt) {
    match &mut s.kind {
        StmtKind::Decl { var: _, init } => {
            if let Some(i) = init {
                v.visit_init(i)
            }
        }
        StmtKind::Expr(e) => v.visit_expr(e),
        StmtKind::Block(ss) => ss.iter_mut().for_each(|s| v.visit_stmt(s)),
        StmtKind::If { cond, then, els } => {
            v.visit_expr(cond);
            v.visit_stmt(then);
            if let Some(e) = els {
                v.visit_stmt(e)
            }
        }
        StmtKind::While { cond, body } => {
            v.visit_expr(cond);
            v.visit_stmt(body)
        }
        StmtKind::DoWhile { body, cond } => {
            v.visit_stmt(body);
            v.visit_expr(cond)
        }
        StmtKind::For {
            init,
            cond,
            step,
            body,
        } => {
            init.iter_mut().for_each(|s| v.visit_stmt(s));
            if let Some(c) = cond {
                v.visit_expr(c)
            }
            if let Some(s) = step {
                v.visit_expr(s)
            }
            v.visit_stmt(body)
        }
        StmtKind::Switch { cond, body } => {
            v.visit_expr(cond);
            v.visit_stmt(body)
        }
        StmtKind::Return(e) => {
            if let Some(e) = e {
                v.visit_expr(e)
            }
        }
        StmtKind::Case { .. }
        | StmtKind::Default
        | StmtKind::Label(_)
        | StmtKind::Goto(_)
        | StmtKind::Break
        | StmtKind::Continue
        | StmtKind::Skip => {}
    }
}

pub fn walk_init_mut<V: VisitorMut + ?Sized>(v: &mut V, i: &mut Init) {
    match i {
        Init::Expr(e) => v.visit_expr(e),
        Init::List(items) => items.iter_mut().for_each(|it| v.visit_init(&mut it.init)),
    }
}

pub fn walk_expr_mut<V: VisitorMut + ?Sized>(v: &mut V, e: &mut Expr) {
    match &mut e.kind {
        ExprKind::Int(_)
        | ExprKind::Float(_)
        | ExprKind::Str(_)
        | ExprKind::Var(_)
        | ExprKind::Func(_)
        | ExprKind::SizeofType(_)
        | ExprKind::AlignofType(_) => {}
        ExprKind::Unary(_, a)
        | ExprKind::Cast { e: a, .. }
        | ExprKind::Decay(a)
        | ExprKind::AddrOf(a)
        | ExprKind::Deref(a)
        | ExprKind::Member(a, _)
        | ExprKind::IncDec { e: a, .. } => v.visit_expr(a),
        ExprKind::Binary(_, a, b)
        | ExprKind::Assign(a, b)
        | ExprKind::OpAssign { lhs: a, rhs: b, .. }
        | ExprKind::Comma(a, b)
        | ExprKind::Index(a, b) => {
            v.visit_expr(a);
            v.visit_expr(b)
        }
        ExprKind::Cond(a, b, c) => {
            v.visit_expr(a);
            v.visit_expr(b);
            v.visit_expr(c)
        }
        ExprKind::Call(f, args) => {
            v.visit_expr(f);
            args.iter_mut().for_each(|a| v.visit_expr(a))
        }
        ExprKind::Intrinsic(_, args) => args.iter_mut().for_each(|a| v.visit_expr(a)),
        ExprKind::StmtExpr(ss) => ss.iter_mut().for_each(|s| v.visit_stmt(s)),
        ExprKind::Compound(init) => v.visit_init(init),
    }
}

/// Calls `f` on every statement, pre-order.
pub fn each_stmt(s: &Stmt, f: &mut dyn FnMut(&Stmt)) {
    struct V<'a>(&'a mut dyn FnMut(&Stmt));
    impl Visitor for V<'_> {
        fn visit_stmt(&mut self, s: &Stmt) {
            (self.0)(s);
            walk_stmt(self, s)
        }
    }
    V(f).visit_stmt(s)
}

/// Calls `f` on every expression (every sub-expression too), pre-order.
pub fn each_expr(s: &Stmt, f: &mut dyn FnMut(&Expr)) {
    struct V<'a>(&'a mut dyn FnMut(&Expr));
    impl Visitor for V<'_> {
        fn visit_expr(&mut self, e: &Expr) {
            (self.0)(e);
            walk_expr(self, e)
        }
    }
    V(f).visit_stmt(s)
}

/// Calls `f` on every sub-expression of `e` (including `e`), pre-order.
pub fn each_subexpr(e: &Expr, f: &mut dyn FnMut(&Expr)) {
    struct V<'a>(&'a mut dyn FnMut(&Expr));
    impl Visitor for V<'_> {
        fn visit_expr(&mut self, e: &Expr) {
            (self.0)(e);
            walk_expr(self, e)
        }
    }
    V(f).visit_expr(e)
}
