//! `float` and `double` in the explorer: concrete IEEE values computed with Rust's `f32`
//! and `f64`, which round each operation to nearest-even as gcc's SSE code does
//! (`FLT_EVAL_METHOD == 0`), the same semantics as the bounded search's
//! (`checker::builtin::float`).
//!
//! A float value carries the tag `F32_TAG` or `F64_TAG` (`state`), never a pointer's
//! provenance or an input's: a nondeterministic float is refused (it is not enumerable),
//! an input converted to a float is made concrete first. Converting a float to an
//! integer type it does not fit is undefined behaviour and refused here; the bounded
//! search answers such programs alone.

use super::{Cx, R, unsupported};
use crate::checker::builtin::float::{bits as kind_bits, constant_bits, int_constant_bits};
use crate::checker::explicit::state::Val;
use crate::ir::{BinOp, IntKind, Loc, Type, UnOp};

impl Cx<'_, '_> {
    /// The width of a `float` or `double` type; a refusal for `long double`; `None` for
    /// every other type.
    pub(super) fn float_type(&self, ty: &Type, loc: Loc) -> R<Option<u32>> {
        match ty.resolve(self.tt()) {
            Type::Float(k) => match kind_bits(*k) {
                Some(b) => Ok(Some(b)),
                None => unsupported("`long double` (x87's 80-bit format)", loc),
            },
            _ => Ok(None),
        }
    }

    /// A floating constant of type `ty`.
    pub(super) fn float_constant(&self, text: &str, ty: &Type, loc: Loc) -> R<Val> {
        let Some(bits) = self.float_type(ty, loc)? else {
            return unsupported("a floating constant of a non-floating type", loc);
        };
        match constant_bits(text, bits) {
            Some(u) => Ok(Val::float_bits(bits, i128::from(u))),
            None => unsupported("hexadecimal floating constants", loc),
        }
    }

    /// The integer constant `v` written where a float is wanted (`x + 1` for `x++`).
    pub(super) fn float_of_int_constant(&self, v: i128, bits: u32) -> Val {
        Val::float_bits(bits, i128::from(int_constant_bits(v, bits)))
    }

    /// `x op y` on two floats of width `bits`: arithmetic or a comparison.
    pub(super) fn float_binary(&self, op: BinOp, x: Val, y: Val, bits: u32, loc: Loc) -> R<Val> {
        let (Some(a), Some(b)) = (x.as_float(), y.as_float()) else {
            return unsupported("a floating-point operation on a non-float operand", loc);
        };
        if op.is_comparison() {
            // f64 comparisons are IEEE's; a float widened to f64 compares the same.
            let r = match op {
                BinOp::Eq => a == b,
                BinOp::Ne => a != b,
                BinOp::Lt => a < b,
                BinOp::Gt => a > b,
                BinOp::Le => a <= b,
                _ => a >= b,
            };
            return Ok(Val::int(i128::from(r)));
        }
        if bits == 32 {
            let (a, b) = (a as f32, b as f32);
            let r = match op {
                BinOp::Add => a + b,
                BinOp::Sub => a - b,
                BinOp::Mul => a * b,
                BinOp::Div => a / b,
                _ => return unsupported("this operator on floating-point operands", loc),
            };
            Ok(Val::float(32, f64::from(r)))
        } else {
            let r = match op {
                BinOp::Add => a + b,
                BinOp::Sub => a - b,
                BinOp::Mul => a * b,
                BinOp::Div => a / b,
                _ => return unsupported("this operator on floating-point operands", loc),
            };
            Ok(Val::float(64, r))
        }
    }

    /// `-x` on a float: the sign bit flips (a NaN stays a NaN).
    pub(super) fn float_neg(&self, x: Val, loc: Loc) -> R<Val> {
        match x.float_width() {
            Some(32) => Ok(Val::float_bits(32, x.v ^ (1 << 31))),
            Some(_) => Ok(Val::float_bits(64, x.v ^ (1 << 63))),
            None => unsupported("a floating-point negation of a non-float", loc),
        }
    }

    /// `sqrt`/`fabs` on a float, in its own width (Rust's `sqrt` is IEEE's, correctly
    /// rounded).
    pub(super) fn float_math(&self, op: UnOp, x: Val, loc: Loc) -> R<Val> {
        match (op, x.float_width()) {
            (UnOp::Sqrt, Some(32)) => {
                let f = f32::from_bits(x.v as u32).sqrt();
                Ok(Val::float_bits(32, i128::from(f.to_bits())))
            }
            (UnOp::Sqrt, Some(_)) => {
                let f = f64::from_bits(x.v as u64).sqrt();
                Ok(Val::float_bits(64, i128::from(f.to_bits())))
            }
            (UnOp::FAbs, Some(32)) => Ok(Val::float_bits(32, x.v & !(1 << 31))),
            (UnOp::FAbs, Some(_)) => Ok(Val::float_bits(64, x.v & !(1 << 63))),
            _ => unsupported(
                "a square root or `fabs` of something that is not a float",
                loc,
            ),
        }
    }

    /// C's conversion of `v` to `ty` where a float is involved on either side, `None`
    /// when neither is (the caller converts integers and pointers).
    pub(super) fn float_convert(&mut self, v: Val, ty: &Type, loc: Loc) -> R<Option<Val>> {
        let to = self.float_type(ty, loc)?;
        let from = v.as_float();
        match (from, to) {
            (None, None) => Ok(None),
            (Some(x), Some(bits)) => Ok(Some(if v.float_width() == Some(bits) {
                v
            } else {
                Val::float(bits, x)
            })),
            (None, Some(bits)) => {
                let c = self.concrete(v, loc)?;
                if c.prov != 0 {
                    return unsupported("an address or a thread id converted to a float", loc);
                }
                // Rust's integer-to-float `as` rounds to nearest, ties to even, once.
                Ok(Some(if bits == 32 {
                    Val::float(32, f64::from(c.v as f32))
                } else {
                    Val::float(64, c.v as f64)
                }))
            }
            (Some(x), None) => {
                let tt = self.tt();
                if ty.is_void(tt) {
                    return Ok(Some(v));
                }
                if matches!(ty.resolve(tt), Type::Int(IntKind::Bool)) {
                    return Ok(Some(Val::int(i128::from(x != 0.0))));
                }
                let Some(k) = ty.int_kind(tt) else {
                    return unsupported("a float converted to a non-arithmetic type", loc);
                };
                let t = x.trunc();
                let dm = self.m.dm;
                let fits = t.is_finite() && {
                    let n = t as i128;
                    k.wrap(n, dm) == n
                };
                if !fits {
                    return unsupported(
                        "a float converted to an integer type it does not fit (undefined behaviour)",
                        loc,
                    );
                }
                Ok(Some(Val::int(t as i128)))
            }
        }
    }
}
