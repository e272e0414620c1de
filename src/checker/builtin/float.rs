//! `float` and `double` as IEEE 754 binary32 and binary64, the way gcc compiles them on
//! x86-64 and on i386 with SSE (`FLT_EVAL_METHOD == 0`): each operation is rounded to
//! its type, to nearest with ties to even.
//!
//! The symbolic execution keeps every value as a bit-vector — memory is bytes, and a
//! float is its IEEE bit pattern there like anywhere else — so only the operations that
//! read a value *as a number* go through Z3's floating-point theory: arithmetic,
//! comparisons, truth, negation and conversions. `long double` (x87's 80-bit format) is
//! refused by the caller, not approximated by `double`.
//!
//! One approximation, documented in the README: converting a float whose integral part
//! does not fit the target integer type is undefined behaviour in C, and the result
//! here is whatever Z3 makes of it (an unspecified value), where x86 would give the
//! "integer indefinite" value.

use z3::Sort;
use z3::ast::{Ast, BV, Bool, Float, RoundingMode};

use crate::ir::{BinOp, FloatKind};

/// Why a float term could not be built: only if Z3 itself refuses the term.
#[derive(Debug)]
pub struct FloatError(pub &'static str);

type R<T> = Result<T, FloatError>;

/// The width of a `float` or `double`; `None` for `long double`.
pub fn bits(kind: FloatKind) -> Option<u32> {
    match kind {
        FloatKind::Float => Some(32),
        FloatKind::Double => Some(64),
        FloatKind::LongDouble => None,
    }
}

fn sort(bits: u32) -> Sort {
    if bits == 32 {
        Sort::float32()
    } else {
        Sort::double()
    }
}

fn nearest() -> RoundingMode {
    RoundingMode::round_nearest_ties_to_even()
}

/// The number a bit pattern of 32 or 64 bits stands for.
pub fn of_bits(v: &BV) -> R<Float> {
    let s = sort(v.get_size());
    let ctx = v.get_ctx();
    // SAFETY: both handles come from live terms of the same context; Z3 checks the
    // width against the sort and reports a mismatch as a null result.
    let raw = unsafe {
        z3_sys::Z3_mk_fpa_to_fp_bv(ctx.get_z3_context(), v.get_z3_ast(), s.get_z3_sort())
    };
    match raw {
        // SAFETY: a non-null term of `ctx`, of floating-point sort.
        Some(a) => Ok(unsafe { Float::wrap(ctx, a) }),
        None => Err(FloatError("a bit pattern as a float")),
    }
}

/// A float's bit pattern. A NaN gets some NaN pattern (which one is unspecified).
pub fn to_bits(f: &Float) -> BV {
    f.to_ieee_bv()
}

/// The bit pattern of a decimal floating constant of the given width, rounded once from
/// the decimal text as C requires (`0.1f` is the float nearest 0.1, not the double
/// nearest rounded again). `None` when the text is not a decimal constant.
pub fn constant_bits(text: &str, bits: u32) -> Option<u64> {
    let t = text.trim();
    if t.starts_with("0x") || t.starts_with("0X") {
        return None;
    }
    if bits == 32 {
        t.parse::<f32>().ok().map(|x| u64::from(x.to_bits()))
    } else {
        t.parse::<f64>().ok().map(f64::to_bits)
    }
}

/// The bit pattern of the integer `v` as a float of the given width (rounded to nearest).
pub fn int_constant_bits(v: i128, bits: u32) -> u64 {
    if bits == 32 {
        u64::from((v as f32).to_bits())
    } else {
        (v as f64).to_bits()
    }
}

/// `x op y` for `+ - * /` on two floats of the same width.
pub fn arith(op: BinOp, x: &BV, y: &BV) -> R<BV> {
    let (a, b) = (of_bits(x)?, of_bits(y)?);
    let rm = nearest();
    let r = match op {
        BinOp::Add => a.add_with_rounding_mode(&b, &rm),
        BinOp::Sub => a.sub_with_rounding_mode(&b, &rm),
        BinOp::Mul => a.mul_with_rounding_mode(&b, &rm),
        BinOp::Div => a.div_with_rounding_mode(&b, &rm),
        _ => return Err(FloatError("this operator on floating-point operands")),
    };
    Ok(to_bits(&r))
}

/// `x op y` for the six comparisons: IEEE's, so a NaN is unordered and unequal to
/// everything, and `-0.0 == 0.0`.
pub fn compare(op: BinOp, x: &BV, y: &BV) -> R<Bool> {
    let (a, b) = (of_bits(x)?, of_bits(y)?);
    Ok(match op {
        BinOp::Eq => a.eq_fpa(&b),
        BinOp::Ne => a.eq_fpa(&b).not(),
        BinOp::Lt => a.lt(&b),
        BinOp::Gt => a.gt(&b),
        BinOp::Le => a.le(&b),
        BinOp::Ge => a.ge(&b),
        _ => return Err(FloatError("this comparison of floating-point operands")),
    })
}

/// Whether a float is true as a condition: anything but `0.0` and `-0.0` (a NaN is true).
pub fn truth(x: &BV) -> R<Bool> {
    Ok(of_bits(x)?.is_zero().not())
}

/// `-x`: only the sign flips (a NaN stays a NaN).
pub fn neg(x: &BV) -> R<BV> {
    Ok(to_bits(&of_bits(x)?.unary_neg()))
}

/// IEEE's square root, rounded to nearest-even.
pub fn sqrt(x: &BV) -> R<BV> {
    Ok(to_bits(&of_bits(x)?.sqrt()))
}

/// `fabs`: only the sign is cleared.
pub fn abs(x: &BV) -> R<BV> {
    Ok(to_bits(&of_bits(x)?.unary_abs()))
}

/// A float of one width converted to another (exact when widening).
pub fn resize(x: &BV, to_bits_n: u32) -> R<BV> {
    if x.get_size() == to_bits_n {
        return Ok(x.clone());
    }
    let f = of_bits(x)?;
    Ok(to_bits(
        &f.to_fp_with_rounding_mode(&nearest(), &sort(to_bits_n)),
    ))
}

/// An integer (two's complement when `signed`) converted to a float of the given width.
pub fn from_int(x: &BV, signed: bool, width: u32) -> R<BV> {
    let ctx = x.get_ctx();
    let rm = nearest();
    let s = sort(width);
    // SAFETY: live terms and sort of one context; a null result is Z3's error signal.
    let raw = unsafe {
        if signed {
            z3_sys::Z3_mk_fpa_to_fp_signed(
                ctx.get_z3_context(),
                rm.get_z3_ast(),
                x.get_z3_ast(),
                s.get_z3_sort(),
            )
        } else {
            z3_sys::Z3_mk_fpa_to_fp_unsigned(
                ctx.get_z3_context(),
                rm.get_z3_ast(),
                x.get_z3_ast(),
                s.get_z3_sort(),
            )
        }
    };
    match raw {
        // SAFETY: a non-null term of `ctx`, of floating-point sort.
        Some(a) => Ok(to_bits(&unsafe { Float::wrap(ctx, a) })),
        None => Err(FloatError("an integer converted to a float")),
    }
}

/// A float converted to an integer of `width` bits: the fraction is discarded (C11
/// 6.3.1.4). Out of range, the result is unspecified (see the module comment).
pub fn to_int(x: &BV, signed: bool, width: u32) -> R<BV> {
    let f = of_bits(x)?;
    let rm = RoundingMode::round_towards_zero();
    Ok(if signed {
        f.to_sbv_with_rounding_mode(&rm, width)
    } else {
        f.to_ubv_with_rounding_mode(&rm, width)
    })
}

/// The number a 32- or 64-bit pattern stands for (a `float` widened exactly).
pub fn value_of_bits(u: u64, bits: u32) -> f64 {
    if bits == 32 {
        f64::from(f32::from_bits(u as u32))
    } else {
        f64::from_bits(u)
    }
}

/// A float's bit pattern as C would print it with `%g`-like brevity: the shortest text
/// that reads back as the same value (`0.1`, `201`, `-0`, `nan`, `inf`).
pub fn render_bits(u: u64, bits: u32) -> String {
    let x = value_of_bits(u, bits);
    if x.is_nan() {
        "nan".into()
    } else if x.is_infinite() {
        if x < 0.0 { "-inf".into() } else { "inf".into() }
    } else if bits == 32 {
        format!("{}", f32::from_bits(u as u32))
    } else {
        format!("{x}")
    }
}

/// A finite float's decimal text that reads back as exactly the same value (no suffix):
/// `0.1`, `1e-7`, `-0.0`. `None` for a NaN or an infinity, which C has no constant for.
pub fn decimal_text(u: u64, bits: u32) -> Option<String> {
    if bits == 32 {
        let x = f32::from_bits(u as u32);
        x.is_finite().then(|| format!("{x:?}"))
    } else {
        let x = f64::from_bits(u);
        x.is_finite().then(|| format!("{x:?}"))
    }
}

/// A float's value as a C expression of its type: `0.1f`, `2.5`, `(0.0 / 0.0)` for a NaN,
/// `(1.0 / 0.0)` for an infinity.
pub fn c_text(u: u64, bits: u32) -> String {
    let suffix = if bits == 32 { "f" } else { "" };
    match decimal_text(u, bits) {
        Some(t) => format!("{t}{suffix}"),
        None => {
            let x = value_of_bits(u, bits);
            if x.is_nan() {
                format!("(0.0{suffix} / 0.0{suffix})")
            } else if x < 0.0 {
                format!("(-1.0{suffix} / 0.0{suffix})")
            } else {
                format!("(1.0{suffix} / 0.0{suffix})")
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use z3::{SatResult, Solver};

    fn val(v: &BV) -> u64 {
        let s = Solver::new();
        let r = BV::new_const("r", v.get_size());
        s.assert(r.eq(v));
        assert_eq!(s.check(), SatResult::Sat);
        let m = s.get_model().expect("a model");
        m.eval(&r, true).and_then(|x| x.as_u64()).expect("a value")
    }

    fn d(x: f64) -> BV {
        BV::from_u64(x.to_bits(), 64)
    }

    #[test]
    fn arithmetic_rounds_to_nearest_like_the_hardware() {
        let r = arith(BinOp::Add, &d(0.1), &d(0.2)).expect("a term");
        assert_eq!(f64::from_bits(val(&r)), 0.1 + 0.2);
        let r = arith(BinOp::Div, &d(1.0), &d(3.0)).expect("a term");
        assert_eq!(f64::from_bits(val(&r)), 1.0 / 3.0);
        let f = BV::from_u64(u64::from(1.1f32.to_bits()), 32);
        let r = arith(BinOp::Mul, &f, &f).expect("a term");
        assert_eq!(f32::from_bits(val(&r) as u32), 1.1f32 * 1.1f32);
    }

    #[test]
    fn comparisons_follow_ieee() {
        let s = Solver::new();
        let nan = d(f64::NAN);
        let t = compare(BinOp::Eq, &nan, &nan).expect("a term");
        s.assert(&t);
        assert_eq!(s.check(), SatResult::Unsat);
        let s = Solver::new();
        let t = compare(BinOp::Eq, &d(0.0), &d(-0.0)).expect("a term");
        s.assert(t.not());
        assert_eq!(s.check(), SatResult::Unsat);
        let s = Solver::new();
        s.assert(truth(&d(-0.0)).expect("a term"));
        assert_eq!(s.check(), SatResult::Unsat);
    }

    #[test]
    fn conversions_truncate_and_round() {
        let r = to_int(&d(-2.75), true, 32).expect("a term");
        assert_eq!(val(&r) as u32 as i32, -2);
        let r = from_int(&BV::from_u64(16_777_217, 32), true, 32).expect("a term");
        assert_eq!(f32::from_bits(val(&r) as u32), 16_777_217i32 as f32);
        let r = from_int(&BV::from_u64(u64::MAX, 64), false, 64).expect("a term");
        assert_eq!(f64::from_bits(val(&r)), u64::MAX as f64);
        let r = resize(&d(0.1), 32).expect("a term");
        assert_eq!(f32::from_bits(val(&r) as u32), 0.1f64 as f32);
    }

    #[test]
    fn constants_round_once_from_the_decimal_text() {
        assert_eq!(constant_bits("0.1", 32), Some(u64::from(0.1f32.to_bits())));
        assert_eq!(constant_bits("1e3", 64), Some(1000f64.to_bits()));
        assert_eq!(constant_bits("5.", 64), Some(5f64.to_bits()));
        assert_eq!(constant_bits(".5", 64), Some(0.5f64.to_bits()));
        assert_eq!(constant_bits("0x1p3", 64), None);
        assert_eq!(render_bits(201f64.to_bits(), 64), "201");
        assert_eq!(render_bits(u64::from(0.1f32.to_bits()), 32), "0.1");
        assert_eq!(render_bits(f64::NAN.to_bits(), 64), "nan");
        assert_eq!(c_text(u64::from(0.1f32.to_bits()), 32), "0.1f");
        assert_eq!(c_text(1e-7f64.to_bits(), 64), "1e-7");
        assert_eq!(c_text(f64::INFINITY.to_bits(), 64), "(1.0 / 0.0)");
        let t = decimal_text(0.3f64.to_bits(), 64).expect("finite");
        assert_eq!(constant_bits(&t, 64), Some(0.3f64.to_bits()));
    }
}
