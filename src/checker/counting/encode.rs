//! C integer expressions as Z3 bit-vectors, for the small language the counting argument
//! reads: constants, variables the caller gives values to, conversions, arithmetic
//! without division or shifts, comparisons, logic and nondeterministic values. Anything
//! else has no encoding (`None`), and the argument gives up.

use z3::ast::{BV, Bool};

use crate::checker::builtin::symex::resize;
use crate::ir::types::IntKind;
use crate::ir::*;

/// Where variables get their values.
pub trait Leaves {
    fn leaf(&mut self, prog: &Program, v: VarId) -> Option<BV>;
}

/// The integer kind of a type the encoding handles (at most 64 bits, not `_Bool`).
pub fn kind(prog: &Program, ty: &Type) -> Option<IntKind> {
    let k = ty.int_kind(&prog.types)?;
    (k != IntKind::Bool && k.bits(prog.data_model) <= 64).then_some(k)
}

pub fn bits(prog: &Program, k: IntKind) -> u32 {
    k.bits(prog.data_model)
}

/// The largest and smallest values of `k`.
pub fn max_of(prog: &Program, k: IntKind) -> i128 {
    let b = bits(prog, k);
    if k.is_signed() {
        (1i128 << (b - 1)) - 1
    } else {
        (1i128 << b) - 1
    }
}

pub fn min_of(prog: &Program, k: IntKind) -> i128 {
    if k.is_signed() {
        -(1i128 << (bits(prog, k) - 1))
    } else {
        0
    }
}

/// Whether every value of `inner` is a value of `outer`.
pub fn fits(prog: &Program, inner: IntKind, outer: IntKind) -> bool {
    min_of(prog, outer) <= min_of(prog, inner) && max_of(prog, inner) <= max_of(prog, outer)
}

/// `v` (already in the range of a type of `bits` bits) as a bit-vector.
pub fn constant(v: i128, bits: u32) -> BV {
    BV::from_u64(v as u64, bits)
}

/// The width of the exact integer arithmetic of bounds: run counts are products of at
/// most [`MAX_FACTORS`] loop trip counts (each below 2^65) and a coefficient below 2^62,
/// summed, which stays far from overflowing. (Z3's mixed integer and bit-vector reasoning
/// gives up on such bounds; wide bit-vectors it decides.)
pub const WIDE: u32 = 320;
pub const MAX_FACTORS: usize = 3;

/// The value of a bit-vector of kind `k`, exactly, in [`WIDE`] bits.
pub fn int_of(v: &BV, k: IntKind) -> BV {
    resize(v.clone(), WIDE, k.is_signed())
}

/// `v` in [`WIDE`] bits.
pub fn int(v: i128) -> BV {
    resize(
        BV::from_u64((v >> 64) as u64, 64).concat(BV::from_u64(v as u64, 64)),
        WIDE,
        true,
    )
}

pub fn sum(terms: &[BV]) -> BV {
    terms.iter().fold(int(0), |a, b| a.bvadd(b))
}

fn of_bool(b: &Bool, bits: u32) -> BV {
    b.ite(&BV::from_u64(1, bits), &BV::from_u64(0, bits))
}

pub fn value(prog: &Program, e: &Expr, l: &mut dyn Leaves) -> Option<BV> {
    let dm = prog.data_model;
    let k = kind(prog, &e.ty)?;
    let w = bits(prog, k);
    let v = match &e.kind {
        ExprKind::Int(v) => constant(k.wrap(*v, dm), w),
        ExprKind::Var(v) => l.leaf(prog, *v)?,
        ExprKind::Cast { e: inner, .. } => {
            let from = kind(prog, &inner.ty)?;
            resize(value(prog, inner, l)?, w, from.is_signed())
        }
        ExprKind::Unary(op, a) => match op {
            UnOp::Neg => value(prog, a, l)?.bvneg(),
            UnOp::BitNot => value(prog, a, l)?.bvnot(),
            UnOp::LogNot => of_bool(&truth(prog, a, l)?.not(), w),
            UnOp::Sqrt | UnOp::FAbs => return None,
        },
        ExprKind::Binary(op, _, _) if op.is_comparison() || op.is_logical() => {
            of_bool(&truth(prog, e, l)?, w)
        }
        ExprKind::Binary(op, a, b) => {
            let x = value(prog, a, l)?;
            let y = value(prog, b, l)?;
            if x.get_size() != w || y.get_size() != w {
                return None;
            }
            match op {
                BinOp::Add => x.bvadd(&y),
                BinOp::Sub => x.bvsub(&y),
                BinOp::Mul => x.bvmul(&y),
                BinOp::BitAnd => x.bvand(&y),
                BinOp::BitOr => x.bvor(&y),
                BinOp::BitXor => x.bvxor(&y),
                _ => return None,
            }
        }
        ExprKind::Cond(c, a, b) => {
            let c = truth(prog, c, l)?;
            c.ite(&value(prog, a, l)?, &value(prog, b, l)?)
        }
        ExprKind::Intrinsic(Intrinsic::Nondet, _) => BV::fresh_const("nondet", w),
        _ => return None,
    };
    (v.get_size() == w).then_some(v)
}

pub fn truth(prog: &Program, e: &Expr, l: &mut dyn Leaves) -> Option<Bool> {
    match &e.kind {
        ExprKind::Binary(op, a, b) if op.is_comparison() => {
            let k = kind(prog, &a.ty)?;
            let x = value(prog, a, l)?;
            let y = value(prog, b, l)?;
            if x.get_size() != y.get_size() {
                return None;
            }
            let s = k.is_signed();
            Some(match op {
                BinOp::Eq => x.eq(&y),
                BinOp::Ne => x.eq(&y).not(),
                BinOp::Lt if s => x.bvslt(&y),
                BinOp::Lt => x.bvult(&y),
                BinOp::Le if s => x.bvsle(&y),
                BinOp::Le => x.bvule(&y),
                BinOp::Gt if s => x.bvsgt(&y),
                BinOp::Gt => x.bvugt(&y),
                BinOp::Ge if s => x.bvsge(&y),
                BinOp::Ge => x.bvuge(&y),
                _ => return None,
            })
        }
        ExprKind::Binary(BinOp::LogAnd, a, b) => {
            Some(Bool::and(&[truth(prog, a, l)?, truth(prog, b, l)?]))
        }
        ExprKind::Binary(BinOp::LogOr, a, b) => {
            Some(Bool::or(&[truth(prog, a, l)?, truth(prog, b, l)?]))
        }
        ExprKind::Unary(UnOp::LogNot, a) => Some(truth(prog, a, l)?.not()),
        _ => {
            let v = value(prog, e, l)?;
            let w = v.get_size();
            Some(v.eq(BV::from_u64(0, w)).not())
        }
    }
}
