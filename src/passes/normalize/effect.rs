//! Expressions evaluated for their effect, and calls: side effects in C's order.

use super::normalizer::{Normalizer, assign};
use crate::analysis::shared::has_effects;
use crate::ir::known::{Known, classify};
use crate::ir::*;

impl Normalizer<'_> {
    pub(super) fn effect(&mut self, e: Expr, out: &mut Vec<Stmt>) {
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
    pub(super) fn rhs(&mut self, e: Expr, out: &mut Vec<Stmt>) -> Expr {
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
    pub(super) fn call(&mut self, e: Expr, out: &mut Vec<Stmt>) -> Option<Expr> {
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
            Known::Nondet => {
                // `__VERIFIER_nondet_*` take none, but a function taken as nondeterministic
                // under `--undefined-functions nondet` may: C evaluates them all the same.
                for a in args {
                    self.effect(a, out);
                }
                Some(Expr::new(
                    ExprKind::Intrinsic(Intrinsic::Nondet, vec![]),
                    ty,
                    loc,
                ))
            }
            _ => {
                let callee = self.pure(*callee, out);
                let args = args.into_iter().map(|a| self.pure(a, out)).collect();
                Some(Expr::new(ExprKind::Call(Box::new(callee), args), ty, loc))
            }
        }
    }
}
