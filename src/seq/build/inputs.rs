//! Nondeterministic inputs (or, replaying, the recorded ones) and the values of
//! aggregates set element by element.

use super::state::SlotGen;
use crate::ir::build as b;
use crate::ir::*;

impl<'a, 'b> SlotGen<'a, 'b> {
    /// A nondeterministic value, or where inputs are fixed the recorded input for this
    /// statement's next occurrence in this thread. Returns statements to run first (the
    /// occurrence counter) and the value.
    pub(super) fn input(&mut self, ty: &Type, loc: Loc, id: StmtId) -> (Vec<Stmt>, Expr) {
        let Some(inputs) = self.b.inputs else {
            return (vec![], b::nondet(ty, loc));
        };
        let Some(values) = inputs.get(&(self.k, id)).cloned() else {
            return (vec![], b::nondet(ty, loc));
        };
        let tt = self.b.prog.types.clone();
        // A float input is recorded as its bit pattern: its table holds the floats.
        let float = match ty.resolve(&tt) {
            Type::Float(k) => crate::checker::builtin::float::bits(*k),
            _ => None,
        };
        let (table, len) = match self.b.input_tables.get(&(self.k, id)) {
            Some(t) => *t,
            None => {
                let n = values.iter().map(|(o, _)| *o).max().unwrap_or(0) as usize;
                let elem = match float {
                    Some(_) => ty.unqualified().clone(),
                    None => Type::Int(IntKind::LongLong),
                };
                let mut items = Vec::new();
                for (o, v) in &values {
                    let value = match float {
                        Some(bits) => float_constant(*v as u64, bits, &elem),
                        None => Expr::int(*v, Type::Int(IntKind::LongLong), Loc::SYNTH),
                    };
                    items.push(InitItem {
                        path: vec![Designator::Index(u64::from(o.saturating_sub(1)))],
                        init: Init::Expr(value),
                    });
                }
                let g = self.b.prog.new_global(
                    &format!("__seq_input{}_{}", self.k, id.0),
                    Type::Array(Box::new(elem), Some(n.max(1) as u64)),
                    Some(Init::List(items)),
                    Loc::SYNTH,
                );
                self.b.input_tables.insert((self.k, id), (g, n));
                (g, n)
            }
        };
        // `occ = occ + 1; value = occ <= n ? table[occ - 1] : nondet(occ)`
        let occ = self.b.input_occ_var(self.k, id);
        let prog = &self.b.prog;
        let occ_e = b::var(prog, occ);
        let bump = b::assign(
            occ_e.clone(),
            b::bin(BinOp::Add, occ_e.clone(), b::uint(1)),
            &tt,
        );
        let within = b::bin(BinOp::Le, occ_e.clone(), b::uint(len as i128));
        let val = b::conv(
            b::elem(prog, table, b::bin(BinOp::Sub, occ_e.clone(), b::uint(1))),
            ty,
            &tt,
        );
        let value = Expr::new(
            ExprKind::Cond(
                Box::new(within),
                Box::new(val),
                Box::new(Expr::new(
                    ExprKind::Intrinsic(Intrinsic::Nondet, vec![occ_e.clone()]),
                    ty.unqualified().clone(),
                    loc,
                )),
            ),
            ty.unqualified().clone(),
            loc,
        );
        (vec![b::expr_stmt(bump, loc, id)], value)
    }

    pub(super) fn fix_inputs(&mut self, e: Expr, loc: Loc, id: StmtId) -> (Vec<Stmt>, Expr) {
        if self.b.inputs.is_none() {
            return (vec![], e);
        }
        match &e.kind {
            ExprKind::Intrinsic(Intrinsic::Nondet, _) => {
                let ty = e.ty.clone();
                self.input(&ty, loc, id)
            }
            ExprKind::Assign(l, r)
                if matches!(r.kind, ExprKind::Intrinsic(Intrinsic::Nondet, _)) =>
            {
                let ty = r.ty.clone();
                let (pre, v) = self.input(&ty, loc, id);
                let tt = self.b.prog.types.clone();
                (pre, b::assign((**l).clone(), v, &tt))
            }
            _ => (vec![], e),
        }
    }
}

/// The float of type `ty` whose bit pattern is `u`: its decimal constant, or `0.0 / 0.0`
/// and `±1.0 / 0.0` for a NaN and the infinities (constant expressions gcc folds).
fn float_constant(u: u64, bits: u32, ty: &Type) -> Expr {
    use crate::checker::builtin::float::{decimal_text, value_of_bits};
    let lit = |t: &str| Expr::new(ExprKind::Float(t.to_string()), ty.clone(), Loc::SYNTH);
    if let Some(t) = decimal_text(u, bits) {
        return lit(&t);
    }
    let x = value_of_bits(u, bits);
    let num = if x.is_nan() {
        lit("0.0")
    } else if x < 0.0 {
        lit("-1.0")
    } else {
        lit("1.0")
    };
    Expr::new(
        ExprKind::Binary(BinOp::Div, Box::new(num), Box::new(lit("0.0"))),
        ty.clone(),
        Loc::SYNTH,
    )
}

/// Element-wise nondet values for an uninitialized aggregate (small ones only).
pub(super) fn havoc_elements(prog: &Program, target: Expr, loc: Loc, id: StmtId) -> Vec<Stmt> {
    let mut out = Vec::new();
    let mut leaves = Vec::new();
    scalar_leaves(prog, target, &mut leaves, 64);
    for l in leaves {
        let ty = l.ty.clone();
        out.push(b::expr_stmt(
            b::assign(l, b::nondet(&ty, loc), &prog.types),
            loc,
            id,
        ));
    }
    out
}

pub(super) fn scalar_leaves(prog: &Program, e: Expr, out: &mut Vec<Expr>, limit: usize) {
    if out.len() >= limit {
        return;
    }
    let tt = &prog.types;
    match e.ty.resolve(tt).clone() {
        Type::Array(elem, Some(n)) => {
            for i in 0..n.min(limit as u64) {
                let decayed = Expr::new(
                    ExprKind::Decay(Box::new(e.clone())),
                    Type::ptr((*elem).clone()),
                    Loc::SYNTH,
                );
                let x = Expr::new(
                    ExprKind::Index(Box::new(decayed), Box::new(b::int(i as i128))),
                    (*elem).clone(),
                    Loc::SYNTH,
                );
                scalar_leaves(prog, x, out, limit);
            }
        }
        Type::Comp(c) => {
            let def = tt.comp(c);
            let n = if def.is_union {
                1.min(def.fields.len())
            } else {
                def.fields.len()
            };
            for (i, f) in def.fields.iter().enumerate().take(n) {
                if f.bit_width.is_some() {
                    continue;
                }
                let x = Expr::new(
                    ExprKind::Member(Box::new(e.clone()), i),
                    f.ty.clone(),
                    Loc::SYNTH,
                );
                scalar_leaves(prog, x, out, limit);
            }
        }
        t if t.is_scalar(tt) => out.push(e),
        _ => {}
    }
}

/// Element-wise assignments for an aggregate initializer (unlisted elements are zero).
pub(super) fn init_elements(
    prog: &Program,
    target: Expr,
    init: &Init,
    loc: Loc,
    id: StmtId,
) -> Vec<Stmt> {
    let tt = &prog.types;
    let mut out = Vec::new();
    let mut zero = Vec::new();
    scalar_leaves(prog, target.clone(), &mut zero, 4096);
    // Zero everything first, then apply the listed values (C semantics: the rest is 0).
    for z in zero {
        let ty = z.ty.clone();
        let zv = if ty.is_pointer(tt) {
            b::conv(b::int(0), &ty, tt)
        } else {
            b::typed_int(0, &ty)
        };
        out.push(b::expr_stmt(b::assign(z, zv, tt), loc, id));
    }
    apply_init(prog, target, init, loc, id, &mut out);
    out
}

pub(super) fn apply_init(
    prog: &Program,
    target: Expr,
    init: &Init,
    loc: Loc,
    id: StmtId,
    out: &mut Vec<Stmt>,
) {
    let tt = &prog.types;
    match init {
        Init::Expr(e) => {
            if let (ExprKind::Str(bytes), Type::Array(elem, n)) =
                (&e.kind, target.ty.resolve(tt).clone())
            {
                let n = n.unwrap_or(bytes.len() as u64 + 1);
                for i in 0..n {
                    let c = bytes.get(i as usize).copied().unwrap_or(0) as i128;
                    let decayed = Expr::new(
                        ExprKind::Decay(Box::new(target.clone())),
                        Type::ptr((*elem).clone()),
                        Loc::SYNTH,
                    );
                    let x = Expr::new(
                        ExprKind::Index(Box::new(decayed), Box::new(b::int(i as i128))),
                        (*elem).clone(),
                        Loc::SYNTH,
                    );
                    out.push(b::expr_stmt(
                        b::assign(x, b::typed_int(c, &elem), tt),
                        loc,
                        id,
                    ));
                }
                return;
            }
            out.push(b::expr_stmt(b::assign(target, e.clone(), tt), loc, id));
        }
        Init::List(items) => {
            for it in items {
                let mut sub = target.clone();
                for d in &it.path {
                    sub = match (d, sub.ty.resolve(tt).clone()) {
                        (Designator::Field(f), Type::Comp(c)) => {
                            let fty = tt
                                .comp(c)
                                .fields
                                .get(*f)
                                .map(|x| x.ty.clone())
                                .unwrap_or(Type::int());
                            Expr::new(ExprKind::Member(Box::new(sub), *f), fty, Loc::SYNTH)
                        }
                        (Designator::Index(i), Type::Array(elem, _)) => {
                            let decayed = Expr::new(
                                ExprKind::Decay(Box::new(sub)),
                                Type::ptr((*elem).clone()),
                                Loc::SYNTH,
                            );
                            Expr::new(
                                ExprKind::Index(Box::new(decayed), Box::new(b::int(*i as i128))),
                                (*elem).clone(),
                                Loc::SYNTH,
                            )
                        }
                        _ => sub,
                    };
                }
                apply_init(prog, sub, &it.init, loc, id, out);
            }
        }
    }
}
