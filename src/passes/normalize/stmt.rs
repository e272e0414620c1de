//! Statements: every loop in one shape, a fresh temporary for every branch condition.

use super::normalizer::Normalizer;
use crate::analysis::loops::{TripCount, trip_count};
use crate::ir::*;

impl Normalizer<'_> {
    /// Appends the normalized form of `s` to `out`. `cont` is the label `continue` must
    /// jump to in the innermost enclosing loop, when that loop needs one.
    pub(super) fn stmt(&mut self, s: Stmt, out: &mut Vec<Stmt>, cont: Option<&str>) {
        let loc = s.loc;
        match s.kind {
            StmtKind::Decl { var, init } => match init {
                None => self.push(StmtKind::Decl { var, init: None }, loc, out),
                // C puts a declarator's name in scope before its initializer, and
                // `int x = f(&x)` uses that. The initializer's calls become statements
                // before the declaration, where `x` is not declared yet (the printed
                // program does not compile): declare it first, then assign.
                Some(Init::Expr(e))
                    if !e.ty.is_array(self.tt())
                        && names_var(&e, var)
                        && !self.prog.var(var).ty.quals(self.tt()).konst =>
                {
                    self.push(StmtKind::Decl { var, init: None }, loc, out);
                    let target = Expr::var(var, self.prog, loc);
                    let ty = target.ty.clone();
                    self.effect(
                        Expr::new(ExprKind::Assign(Box::new(target), Box::new(e)), ty, loc),
                        out,
                    );
                }
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
            StmtKind::DoWhile { body, cond } if cond.as_int() == Some(0) && !breaks_out(&body) => {
                // `do { ... } while (0)`, the macro idiom: the body once, a `continue`
                // going to its end. As a loop it would be copied at every unwinding, and
                // nested (glibc's `pthread_cleanup_push`/`pop` nest three deep per pair)
                // the copies multiply.
                let l = self.label("cont");
                let mut b = Vec::new();
                self.stmt(*body, &mut b, Some(&l));
                self.push(StmtKind::Label(l), loc, &mut b);
                out.push(Stmt::block(b, loc));
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
                        let v = self.rhs(e, out);
                        // `return f(x)`: the call first, as its own statement (`t = f(x);
                        // return t;`), the shape every engine executes a call in — the
                        // explorer took a call left in the `return` for one inside an
                        // expression and gave up.
                        Some(if matches!(v.kind, ExprKind::Call(..)) {
                            self.bind(v, loc, out)
                        } else {
                            v
                        })
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
    pub(super) fn loop_exit_test(&mut self, cond: Expr, out: &mut Vec<Stmt>) {
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

    pub(super) fn emit_loop(
        &mut self,
        body: Vec<Stmt>,
        loc: Loc,
        bound: TripCount,
        out: &mut Vec<Stmt>,
    ) {
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
    pub(super) fn cond(&mut self, e: Expr, out: &mut Vec<Stmt>) -> Expr {
        let loc = e.loc;
        let p = self.pure(e, out);
        self.bind(p, loc, out)
    }

    pub(super) fn init(&mut self, init: Init, out: &mut Vec<Stmt>) -> Init {
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
}

/// Whether `s` has a `break` that leaves it (one not inside a loop or `switch` of its own).
fn breaks_out(s: &Stmt) -> bool {
    match &s.kind {
        StmtKind::Break => true,
        StmtKind::Block(v) => v.iter().any(breaks_out),
        StmtKind::If { then, els, .. } => {
            breaks_out(then) || els.as_ref().is_some_and(|e| breaks_out(e))
        }
        _ => false,
    }
}

/// Whether `e` names `var`.
fn names_var(e: &Expr, var: VarId) -> bool {
    let mut found = false;
    crate::ir::visit::each_subexpr(e, &mut |x| {
        found |= matches!(x.kind, ExprKind::Var(v) if v == var)
    });
    found
}
