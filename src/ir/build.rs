//! Small constructors for IR that seqloc generates (the sequentialization framework, the
//! pthread model, instrumentation). Generated code carries [`Loc::SYNTH`] unless a
//! location is given.

use super::*;

pub fn int(v: i128) -> Expr {
    Expr::int(v, Type::int(), Loc::SYNTH)
}

pub fn uint(v: i128) -> Expr {
    Expr::int(v, Type::uint(), Loc::SYNTH)
}

pub fn typed_int(v: i128, ty: &Type) -> Expr {
    Expr::int(v, ty.unqualified().clone(), Loc::SYNTH)
}

pub fn var(prog: &Program, v: VarId) -> Expr {
    Expr::var(v, prog, Loc::SYNTH)
}

/// `arr[i]` for a global array variable.
pub fn elem(prog: &Program, arr: VarId, i: Expr) -> Expr {
    let a = var(prog, arr);
    let elem_ty = a.ty.element(&prog.types).cloned().unwrap_or(Type::int());
    let decayed = Expr::new(
        ExprKind::Decay(Box::new(a)),
        Type::ptr(elem_ty.clone()),
        Loc::SYNTH,
    );
    Expr::new(
        ExprKind::Index(Box::new(decayed), Box::new(i)),
        elem_ty,
        Loc::SYNTH,
    )
}

/// `arr[i][j]` for a two-dimensional global array.
pub fn elem2(prog: &Program, arr: VarId, i: Expr, j: Expr) -> Expr {
    let row = elem(prog, arr, i);
    let inner_ty = row.ty.element(&prog.types).cloned().unwrap_or(Type::int());
    let decayed = Expr::new(
        ExprKind::Decay(Box::new(row)),
        Type::ptr(inner_ty.clone()),
        Loc::SYNTH,
    );
    Expr::new(
        ExprKind::Index(Box::new(decayed), Box::new(j)),
        inner_ty,
        Loc::SYNTH,
    )
}

pub fn conv(e: Expr, ty: &Type, tt: &TypeTable) -> Expr {
    if e.ty.same_as(ty, tt) {
        return e;
    }
    let loc = e.loc;
    Expr::new(
        ExprKind::Cast {
            e: Box::new(e),
            implicit: false,
        },
        ty.unqualified().clone(),
        loc,
    )
}

pub fn assign(l: Expr, r: Expr, tt: &TypeTable) -> Expr {
    let ty = l.ty.unqualified().clone();
    let r = conv(r, &ty, tt);
    let loc = l.loc;
    Expr::new(ExprKind::Assign(Box::new(l), Box::new(r)), ty, loc)
}

pub fn bin(op: BinOp, a: Expr, b: Expr) -> Expr {
    let ty = if op.is_comparison() || op.is_logical() {
        Type::int()
    } else {
        a.ty.clone()
    };
    Expr::new(
        ExprKind::Binary(op, Box::new(a), Box::new(b)),
        ty,
        Loc::SYNTH,
    )
}

/// `c ? t : e`, an `int`.
pub fn cond(c: Expr, t: Expr, e: Expr, loc: Loc) -> Expr {
    Expr::new(
        ExprKind::Cond(Box::new(c), Box::new(t), Box::new(e)),
        Type::int(),
        loc,
    )
}

/// `e` with every generated ([`Loc::SYNTH`]) location in it, statements of statement
/// expressions included, set to `loc`: code the front end writes for a call reads as the
/// call's line in traces and candidates.
pub fn relocate(mut e: Expr, loc: Loc) -> Expr {
    struct At(Loc);
    impl super::visit::VisitorMut for At {
        fn visit_stmt(&mut self, s: &mut Stmt) {
            if s.loc == Loc::SYNTH {
                s.loc = self.0;
            }
            super::visit::walk_stmt_mut(self, s)
        }
        fn visit_expr(&mut self, e: &mut Expr) {
            if e.loc == Loc::SYNTH {
                e.loc = self.0;
            }
            super::visit::walk_expr_mut(self, e)
        }
    }
    super::visit::VisitorMut::visit_expr(&mut At(loc), &mut e);
    e
}

pub fn not(a: Expr) -> Expr {
    Expr::new(
        ExprKind::Unary(UnOp::LogNot, Box::new(a)),
        Type::int(),
        Loc::SYNTH,
    )
}

pub fn and(a: Expr, b: Expr) -> Expr {
    bin(BinOp::LogAnd, a, b)
}

pub fn deref(p: Expr, tt: &TypeTable) -> Expr {
    let ty = p.ty.pointee(tt).cloned().unwrap_or(Type::int());
    let loc = p.loc;
    Expr::new(ExprKind::Deref(Box::new(p)), ty, loc)
}

pub fn addr_of(e: Expr) -> Expr {
    let ty = Type::ptr(e.ty.clone());
    let loc = e.loc;
    Expr::new(ExprKind::AddrOf(Box::new(e)), ty, loc)
}

pub fn intrinsic(i: Intrinsic, args: Vec<Expr>, loc: Loc) -> Expr {
    Expr::new(ExprKind::Intrinsic(i, args), Type::Void, loc)
}

/// Cuts off the runs that reach it because a bound other than a loop's is reached (thread
/// slots, keys, barrier cycles, the inliner's budget of recursive copies): an [`Intrinsic::Unwind`] whose one
/// argument says so, as a deeper loop bound would not let them go on. A loop's cut (the
/// unrolling's) has no argument.
pub fn bound_cut(loc: Loc) -> Expr {
    intrinsic(Intrinsic::Unwind, vec![int(1)], loc)
}

/// The argument of an [`Intrinsic::Unwind`] that cuts off a call deeper than the
/// recursion bound: reported as such, deepened with the unwinding as a loop's cut is.
pub const RECURSION_CUT: i128 = 2;

/// Cuts off the runs that make a call deeper than the recursion bound.
pub fn recursion_cut(loc: Loc) -> Expr {
    intrinsic(Intrinsic::Unwind, vec![int(RECURSION_CUT)], loc)
}

pub fn nondet(ty: &Type, loc: Loc) -> Expr {
    Expr::new(
        ExprKind::Intrinsic(Intrinsic::Nondet, vec![]),
        ty.unqualified().clone(),
        loc,
    )
}

pub fn expr_stmt(e: Expr, loc: Loc, id: StmtId) -> Stmt {
    Stmt::new(StmtKind::Expr(e), loc).with_id(id)
}

pub fn if_(cond: Expr, then: Vec<Stmt>, els: Option<Vec<Stmt>>) -> Stmt {
    Stmt::new(
        StmtKind::If {
            cond,
            then: Box::new(Stmt::block(then, Loc::SYNTH)),
            els: els.map(|e| Box::new(Stmt::block(e, Loc::SYNTH))),
        },
        Loc::SYNTH,
    )
}

pub fn call(prog: &Program, f: FuncId, args: Vec<Expr>) -> Expr {
    let fty = Type::Function(Box::new(prog.func(f).ty.clone()));
    let callee = Expr::new(ExprKind::Func(f), Type::ptr(fty), Loc::SYNTH);
    let ret = prog.func(f).ty.ret.clone();
    Expr::new(ExprKind::Call(Box::new(callee), args), ret, Loc::SYNTH)
}

pub fn goto(l: &str) -> Stmt {
    Stmt::new(StmtKind::Goto(l.to_string()), Loc::SYNTH)
}

pub fn label(l: &str) -> Stmt {
    Stmt::new(StmtKind::Label(l.to_string()), Loc::SYNTH)
}
