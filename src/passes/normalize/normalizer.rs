//! The pass's state over one function body, and the fresh ids, labels and temporaries it
//! makes.

use crate::analysis::shared::SharedInfo;
use crate::ir::*;

pub(super) struct Normalizer<'a> {
    pub(super) prog: &'a mut Program,
    pub(super) shared: &'a SharedInfo,
    pub(super) func: FuncId,
}

impl Normalizer<'_> {
    pub(super) fn tt(&self) -> &TypeTable {
        &self.prog.types
    }

    pub(super) fn id(&mut self) -> StmtId {
        let id = StmtId(self.prog.next_stmt_id);
        self.prog.next_stmt_id += 1;
        id
    }

    pub(super) fn label(&mut self, hint: &str) -> String {
        self.prog.fresh_label(hint)
    }

    pub(super) fn temp(&mut self, ty: &Type, loc: Loc) -> VarId {
        let ty = ty.unqualified().clone();
        self.prog.new_local(Some(self.func), "__t", ty, loc)
    }

    /// `T t = value;` as a simple statement; the new temporary, as an expression.
    pub(super) fn bind(&mut self, value: Expr, loc: Loc, out: &mut Vec<Stmt>) -> Expr {
        let t = self.temp(&value.ty, loc);
        self.simple(
            StmtKind::Decl {
                var: t,
                init: Some(Init::Expr(value)),
            },
            loc,
            out,
        );
        Expr::var(t, self.prog, loc)
    }

    pub(super) fn push(&mut self, kind: StmtKind, loc: Loc, out: &mut Vec<Stmt>) {
        let id = self.id();
        out.push(Stmt::new(kind, loc).with_id(id));
    }
}

pub(super) fn assign(l: Expr, r: Expr, loc: Loc) -> Expr {
    let ty = l.ty.unqualified().clone();
    Expr::new(ExprKind::Assign(Box::new(l), Box::new(r)), ty, loc)
}

pub(super) fn zero_of(ty: &Type, tt: &TypeTable, loc: Loc) -> Expr {
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
