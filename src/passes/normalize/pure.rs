//! Pure expressions: the side effects an expression holds go before it, in C's evaluation
//! order, keeping short-circuit and `?:` semantics.

use super::normalizer::{Normalizer, assign, zero_of};
use crate::analysis::shared::{count_reads, has_effects};
use crate::ir::*;

impl Normalizer<'_> {
    /// An equivalent expression without side effects; the effects go to `out`, in order.
    pub(super) fn pure(&mut self, e: Expr, out: &mut Vec<Stmt>) -> Expr {
        let loc = e.loc;
        let ty = e.ty.clone();
        match e.kind {
            ExprKind::Int(_)
            | ExprKind::Float(_)
            | ExprKind::Str(_)
            | ExprKind::Var(_)
            | ExprKind::Func(_)
            | ExprKind::SizeofType(_)
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
                let tv = self.bind(r, loc, out);
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
                let tv = self.bind(v, loc, out);
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
                        self.bind(conv, loc, out)
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
                    Some(c) => self.bind(c, loc, out),
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
                let nd = Expr::new(
                    ExprKind::Intrinsic(Intrinsic::Nondet, vec![]),
                    ty.clone(),
                    loc,
                );
                self.bind(nd, loc, out)
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
    pub(super) fn lvalue(&mut self, e: Expr, out: &mut Vec<Stmt>) -> Expr {
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

    pub(super) fn needs_statements(&self, e: &Expr) -> bool {
        has_effects(e) || count_reads(self.shared, e) > 0
    }

    /// `(T)((op_ty)l op r)` for compound assignment.
    pub(super) fn op_value(&self, op: BinOp, l: Expr, r: Expr, op_ty: &Type, loc: Loc) -> Expr {
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

    pub(super) fn step_value(&self, inc: bool, l: Expr, loc: Loc) -> Expr {
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
}
