//! Integer constant expressions (array sizes, case labels, enum values, bit widths), folded
//! with C semantics under the program's data model.

use super::syntax::*;
use super::types::{DataModel, IntKind, Type, TypeTable};

pub fn eval_int(e: &Expr, tt: &TypeTable, dm: DataModel) -> Option<i128> {
    let v = eval(e, tt, dm)?;
    Some(wrap_to(v, &e.ty, tt, dm))
}

fn wrap_to(v: i128, ty: &Type, tt: &TypeTable, dm: DataModel) -> i128 {
    match ty.int_kind(tt) {
        Some(k) => k.wrap(v, dm),
        None => v,
    }
}

fn eval(e: &Expr, tt: &TypeTable, dm: DataModel) -> Option<i128> {
    let ev = |x: &Expr| eval_int(x, tt, dm);
    Some(match &e.kind {
        ExprKind::Int(v) => *v,
        ExprKind::Cast { e: inner, .. } => {
            if e.ty.is_integer(tt) {
                wrap_to(ev(inner)?, &e.ty, tt, dm)
            } else if e.ty.is_pointer(tt) {
                // Casts of integer constants to pointers: `(void *)0`.
                ev(inner)?
            } else {
                return None;
            }
        }
        ExprKind::Unary(op, a) => {
            let a = ev(a)?;
            match op {
                UnOp::Neg => a.checked_neg()?,
                UnOp::BitNot => !a,
                UnOp::LogNot => (a == 0) as i128,
                UnOp::Sqrt | UnOp::FAbs => return None,
            }
        }
        ExprKind::Binary(op, a, b) => {
            let x = ev(a)?;
            if *op == BinOp::LogAnd && x == 0 {
                return Some(0);
            }
            if *op == BinOp::LogOr && x != 0 {
                return Some(1);
            }
            let y = ev(b)?;
            match op {
                BinOp::Add => x.checked_add(y)?,
                BinOp::Sub => x.checked_sub(y)?,
                BinOp::Mul => x.checked_mul(y)?,
                BinOp::Div => {
                    if y == 0 {
                        return None;
                    }
                    x.checked_div(y)?
                }
                BinOp::Rem => {
                    if y == 0 {
                        return None;
                    }
                    x.checked_rem(y)?
                }
                BinOp::Shl => x.checked_shl(u32::try_from(y).ok()?)?,
                BinOp::Shr => x.checked_shr(u32::try_from(y).ok()?)?,
                BinOp::BitAnd => x & y,
                BinOp::BitOr => x | y,
                BinOp::BitXor => x ^ y,
                BinOp::Lt => (x < y) as i128,
                BinOp::Gt => (x > y) as i128,
                BinOp::Le => (x <= y) as i128,
                BinOp::Ge => (x >= y) as i128,
                BinOp::Eq => (x == y) as i128,
                BinOp::Ne => (x != y) as i128,
                BinOp::LogAnd | BinOp::LogOr => (y != 0) as i128,
            }
        }
        ExprKind::Cond(c, t, f) => {
            if ev(c)? != 0 {
                ev(t)?
            } else {
                ev(f)?
            }
        }
        ExprKind::Comma(_, b) => ev(b)?,
        ExprKind::SizeofType(t) => t.size(tt, dm)? as i128,
        ExprKind::AlignofType(t) => t.align(tt, dm) as i128,
        _ => return None,
    })
}

/// The type of an integer literal with value `v` (C11 6.4.4.1), given its suffix and base.
pub fn literal_type(v: u128, unsigned: bool, long: u8, decimal: bool, dm: DataModel) -> IntKind {
    let candidates: &[IntKind] = match (unsigned, long, decimal) {
        (false, 0, true) => &[IntKind::Int, IntKind::Long, IntKind::LongLong],
        (false, 0, false) => &[
            IntKind::Int,
            IntKind::UInt,
            IntKind::Long,
            IntKind::ULong,
            IntKind::LongLong,
            IntKind::ULongLong,
        ],
        (true, 0, _) => &[IntKind::UInt, IntKind::ULong, IntKind::ULongLong],
        (false, 1, true) => &[IntKind::Long, IntKind::LongLong],
        (false, 1, false) => &[
            IntKind::Long,
            IntKind::ULong,
            IntKind::LongLong,
            IntKind::ULongLong,
        ],
        (true, 1, _) => &[IntKind::ULong, IntKind::ULongLong],
        (false, _, true) => &[IntKind::LongLong],
        (false, _, false) => &[IntKind::LongLong, IntKind::ULongLong],
        (true, _, _) => &[IntKind::ULongLong],
    };
    for k in candidates {
        let bits = k.bits(dm);
        let max: u128 = if k.is_signed() {
            (1u128 << (bits - 1)) - 1
        } else if bits >= 128 {
            u128::MAX
        } else {
            (1u128 << bits) - 1
        };
        if v <= max {
            return *k;
        }
    }
    if unsigned || !decimal {
        IntKind::ULongLong
    } else {
        IntKind::LongLong
    }
}
