//! Symbolic inputs: an input too wide to enumerate (`__VERIFIER_nondet_int()`) is kept as a
//! symbol with the interval of values it may still take. A value is the symbol plus a
//! constant (`Val::sym`), exact: never wrapped. Comparisons with constants split the
//! interval (one successor per outcome, the interval narrowed in each); a conversion or an
//! addition that may wrap around splits it at the wrap points. Everything else (a
//! multiplication, an index, a call into the library) takes a concrete value: each value
//! of the interval in turn when it has at most [`MAX_ENUM`] values, otherwise the explorer
//! gives up, naming the input. So `x = nondet(); assume(0 <= x && x < 5)` costs one state,
//! not five, and `n = nondet_uint(); assume(n <= 10)` enumerates eleven values only where
//! the program computes with `n`.

use crate::ir::BinOp;
use crate::ir::types::{DataModel, IntKind};

/// The most values an input is enumerated over when the program needs a concrete value.
pub const MAX_ENUM: i128 = 256;

/// An inclusive interval of values.
pub type Dom = (i128, i128);

/// The values of an integer kind.
pub fn range(k: IntKind, dm: DataModel) -> Dom {
    let bits = k.bits(dm);
    if k == IntKind::Bool {
        (0, 1)
    } else if bits >= 127 {
        // 128-bit kinds: inputs are at most 64 bits wide, so their values always fit.
        (if k.is_signed() { i128::MIN } else { 0 }, i128::MAX)
    } else if k.is_signed() {
        (-(1i128 << (bits - 1)), (1i128 << (bits - 1)) - 1)
    } else {
        (0, (1i128 << bits) - 1)
    }
}

/// How `input + v`, with the input in `dom`, converts to kind `k`: each piece narrows the
/// input's interval to where the conversion subtracts one multiple of 2^bits, and gives the
/// new offset. `None` when the interval spans more than three such pieces.
pub fn wrap_pieces(dom: Dom, v: i128, k: IntKind, dm: DataModel) -> Option<Vec<(Dom, i128)>> {
    if k.bits(dm) >= 127 {
        return Some(vec![(dom, v)]);
    }
    let (tmin, _) = range(k, dm);
    let modulus = 1i128 << k.bits(dm);
    let (a, b) = (dom.0.checked_add(v)?, dom.1.checked_add(v)?);
    let m_lo = (a - tmin).div_euclid(modulus);
    let m_hi = (b - tmin).div_euclid(modulus);
    if m_hi - m_lo > 2 {
        return None;
    }
    Some(
        (m_lo..=m_hi)
            .map(|m| {
                let lo = (tmin + m * modulus - v).max(dom.0);
                let hi = (tmin + (m + 1) * modulus - 1 - v).min(dom.1);
                ((lo, hi), v - m * modulus)
            })
            .collect(),
    )
}

/// The outcomes of `input + v  op  c` with the input in `dom`: each possible result with
/// the input's interval narrowed to where it holds (no empty intervals).
pub fn compare(dom: Dom, v: i128, op: BinOp, c: i128) -> Vec<(bool, Dom)> {
    let t = c - v;
    let (lo, hi) = dom;
    let below = |x: i128| (lo, hi.min(x - 1)); // input < x
    let from = |x: i128| (lo.max(x), hi); // input >= x
    let parts: Vec<(bool, Dom)> = match op {
        BinOp::Lt => vec![(true, below(t)), (false, from(t))],
        BinOp::Le => vec![(true, below(t + 1)), (false, from(t + 1))],
        BinOp::Gt => vec![(true, from(t + 1)), (false, below(t + 1))],
        BinOp::Ge => vec![(true, from(t)), (false, below(t))],
        BinOp::Eq | BinOp::Ne => {
            let eq = op == BinOp::Eq;
            vec![
                (eq, (t.max(lo), t.min(hi))),
                (!eq, below(t)),
                (!eq, from(t + 1)),
            ]
        }
        _ => vec![],
    };
    parts.into_iter().filter(|(_, d)| d.0 <= d.1).collect()
}

/// The number of values in an interval.
pub fn size(dom: Dom) -> i128 {
    dom.1.saturating_sub(dom.0).saturating_add(1)
}

#[cfg(test)]
mod tests {
    use super::*;

    const DM: DataModel = DataModel::Ilp32;

    #[test]
    fn an_unsigned_input_converted_to_int_splits_where_it_wraps() {
        let dom = range(IntKind::UInt, DM);
        let p = wrap_pieces(dom, 0, IntKind::Int, DM).expect("two pieces");
        assert_eq!(
            p,
            vec![
                ((0, (1 << 31) - 1), 0),
                ((1 << 31, (1 << 32) - 1), -(1 << 32)),
            ]
        );
        // Narrowed to where it fits, the conversion is exact.
        assert_eq!(
            wrap_pieces((5, 10), 0, IntKind::Int, DM),
            Some(vec![((5, 10), 0)])
        );
        // `x + 1` on the largest int wraps to the smallest.
        let max = (1i128 << 31) - 1;
        assert_eq!(
            wrap_pieces((max - 1, max), 1, IntKind::Int, DM),
            Some(vec![((max - 1, max - 1), 1), ((max, max), 1 - (1 << 32))])
        );
    }

    #[test]
    fn comparisons_split_the_interval_into_their_outcomes() {
        assert_eq!(
            compare((0, 100), 0, BinOp::Lt, 5),
            vec![(true, (0, 4)), (false, (5, 100))]
        );
        // `x + 2 >= 5` is `x >= 3`.
        assert_eq!(
            compare((0, 100), 2, BinOp::Ge, 5),
            vec![(true, (3, 100)), (false, (0, 2))]
        );
        assert_eq!(
            compare((0, 100), 0, BinOp::Ne, 0),
            vec![(false, (0, 0)), (true, (1, 100))]
        );
        assert_eq!(
            compare((0, 100), 0, BinOp::Eq, 50),
            vec![(true, (50, 50)), (false, (0, 49)), (false, (51, 100))]
        );
        // Decided without a split.
        assert_eq!(compare((0, 4), 0, BinOp::Eq, -2), vec![(false, (0, 4))]);
    }
}
