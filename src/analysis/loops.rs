//! Constant trip counts of counted loops (`for (i = a; i < b; i++)` and its variants),
//! used to unroll a loop exactly as often as it runs and to count thread instances
//! created in loops.

use crate::ir::consteval::eval_int;
use crate::ir::types::IntKind;
use crate::ir::visit;
use crate::ir::*;

/// How many times a loop body runs, when the front end can tell.
#[derive(Clone, Copy, Debug, PartialEq, Eq, serde::Serialize)]
#[serde(rename_all = "kebab-case")]
pub enum TripCount {
    Exactly(u64),
    /// `while (1)` with no way out but a `break` the analysis cannot bound.
    Unbounded,
    /// The bound is not a constant (e.g. it depends on an input).
    Unknown,
}

impl TripCount {
    pub fn times(self, other: TripCount) -> TripCount {
        match (self, other) {
            (TripCount::Exactly(a), TripCount::Exactly(b)) => {
                TripCount::Exactly(a.saturating_mul(b))
            }
            (TripCount::Exactly(0), _) | (_, TripCount::Exactly(0)) => TripCount::Exactly(0),
            (TripCount::Unbounded, _) | (_, TripCount::Unbounded) => TripCount::Unbounded,
            _ => TripCount::Unknown,
        }
    }
    pub fn plus(self, other: TripCount) -> TripCount {
        match (self, other) {
            (TripCount::Exactly(a), TripCount::Exactly(b)) => {
                TripCount::Exactly(a.saturating_add(b))
            }
            (TripCount::Unbounded, _) | (_, TripCount::Unbounded) => TripCount::Unbounded,
            _ => TripCount::Unknown,
        }
    }
}

/// The trip count of a loop statement (`For`, `While`, `DoWhile`) of the lowered IR.
pub fn trip_count(prog: &Program, s: &Stmt, preceding: Option<&Stmt>) -> TripCount {
    let tt = &prog.types;
    let dm = prog.data_model;
    match &s.kind {
        StmtKind::For {
            init,
            cond,
            step,
            body,
        } => {
            let Some(cond) = cond else {
                return TripCount::Unbounded;
            };
            let Some((var, start)) = init.last().and_then(|i| init_value(i, tt, dm)) else {
                return const_cond(cond, tt, dm);
            };
            counted(prog, var, start, cond, step.as_ref(), body)
        }
        StmtKind::While { cond, body } => {
            if let Some(tc) = const_cond_opt(cond, tt, dm) {
                return tc;
            }
            // `i = a; while (i < b) { ...; i++; }`
            let Some((var, start)) = preceding.and_then(|p| init_value(p, tt, dm)) else {
                return TripCount::Unknown;
            };
            let StmtKind::Block(stmts) = &body.kind else {
                return TripCount::Unknown;
            };
            let Some(last) = stmts.last() else {
                return TripCount::Unknown;
            };
            let StmtKind::Expr(step) = &last.kind else {
                return TripCount::Unknown;
            };
            // A `continue` would skip the increment.
            if stmts.iter().any(continues) {
                return TripCount::Unknown;
            }
            let rest = Stmt::block(stmts[..stmts.len() - 1].to_vec(), body.loc);
            counted(prog, var, start, cond, Some(step), &rest)
        }
        StmtKind::DoWhile { cond, .. } => {
            const_cond_opt(cond, tt, dm).unwrap_or(TripCount::Unknown)
        }
        _ => TripCount::Unknown,
    }
}

fn const_cond(cond: &Expr, tt: &TypeTable, dm: DataModel) -> TripCount {
    const_cond_opt(cond, tt, dm).unwrap_or(TripCount::Unknown)
}

fn const_cond_opt(cond: &Expr, tt: &TypeTable, dm: DataModel) -> Option<TripCount> {
    match eval_int(cond, tt, dm) {
        Some(0) => Some(TripCount::Exactly(0)),
        Some(_) => Some(TripCount::Unbounded),
        None => None,
    }
}

/// `i = c` or `int i = c` with a constant `c`.
fn init_value(s: &Stmt, tt: &TypeTable, dm: DataModel) -> Option<(VarId, i128)> {
    match &s.kind {
        StmtKind::Expr(e) => match &e.kind {
            ExprKind::Assign(l, r) => match l.kind {
                ExprKind::Var(v) => Some((v, eval_int(r, tt, dm)?)),
                _ => None,
            },
            _ => None,
        },
        StmtKind::Decl {
            var,
            init: Some(Init::Expr(e)),
        } => Some((*var, eval_int(e, tt, dm)?)),
        _ => None,
    }
}

fn counted(
    prog: &Program,
    var: VarId,
    start: i128,
    cond: &Expr,
    step: Option<&Expr>,
    body: &Stmt,
) -> TripCount {
    let tt = &prog.types;
    let dm = prog.data_model;
    let Some(delta) = step.and_then(|s| step_delta(s, var, tt, dm)) else {
        return TripCount::Unknown;
    };
    if assigns(body, var) {
        return TripCount::Unknown;
    }
    let ExprKind::Binary(op, l, r) = &cond.peel().kind else {
        return TripCount::Unknown;
    };
    let (op, bound) = if is_var(l, var) {
        (*op, eval_int(r, tt, dm))
    } else if is_var(r, var) {
        (op.swapped(), eval_int(l, tt, dm))
    } else {
        return TripCount::Unknown;
    };
    let Some(bound) = bound else {
        return TripCount::Unknown;
    };
    let n = match (op, delta) {
        (BinOp::Lt, d) if d > 0 => (bound - start + d - 1).div_euclid(d),
        (BinOp::Le, d) if d > 0 => (bound - start + d).div_euclid(d),
        (BinOp::Ne, d) if d > 0 && bound >= start && (bound - start) % d == 0 => {
            (bound - start) / d
        }
        (BinOp::Gt, d) if d < 0 => (start - bound - d - 1).div_euclid(-d),
        (BinOp::Ge, d) if d < 0 => (start - bound - d).div_euclid(-d),
        (BinOp::Ne, d) if d < 0 && start >= bound && (start - bound) % (-d) == 0 => {
            (start - bound) / (-d)
        }
        _ => return TripCount::Unknown,
    };
    let n = n.max(0);
    // The counter must reach the value that ends the loop without wrapping: with
    // `unsigned char i`, `i < 300` holds forever.
    let Some(kind) = prog.var(var).ty.int_kind(tt) else {
        return TripCount::Unknown;
    };
    let last = start + n * delta;
    if kind == IntKind::Bool || kind.wrap(start, dm) != start || kind.wrap(last, dm) != last {
        return TripCount::Unknown;
    }
    TripCount::Exactly(n as u64)
}

/// Whether `s` holds a `continue` of the loop around it (not of a loop inside it).
pub fn continues(s: &Stmt) -> bool {
    match &s.kind {
        StmtKind::Continue => true,
        StmtKind::Block(ss) => ss.iter().any(continues),
        StmtKind::If { then, els, .. } => continues(then) || els.as_deref().is_some_and(continues),
        StmtKind::Switch { body, .. } => continues(body),
        _ => false,
    }
}

fn is_var(e: &Expr, v: VarId) -> bool {
    matches!(e.peel().kind, ExprKind::Var(x) if x == v)
}

fn step_delta(e: &Expr, v: VarId, tt: &TypeTable, dm: DataModel) -> Option<i128> {
    match &e.peel().kind {
        ExprKind::IncDec { inc, e: x, .. } if is_var(x, v) => Some(if *inc { 1 } else { -1 }),
        ExprKind::OpAssign { op, lhs, rhs, .. } if is_var(lhs, v) => {
            let k = eval_int(rhs, tt, dm)?;
            match op {
                BinOp::Add => Some(k),
                BinOp::Sub => Some(-k),
                _ => None,
            }
        }
        ExprKind::Assign(l, r) if is_var(l, v) => match &r.peel().kind {
            ExprKind::Binary(BinOp::Add, a, b) if is_var(a, v) => eval_int(b, tt, dm),
            ExprKind::Binary(BinOp::Sub, a, b) if is_var(a, v) => eval_int(b, tt, dm).map(|k| -k),
            _ => None,
        },
        _ => None,
    }
}

/// Whether `s` may write `v` (directly, or by taking its address).
fn assigns(s: &Stmt, v: VarId) -> bool {
    let mut found = false;
    visit::each_expr(s, &mut |e| match &e.kind {
        ExprKind::Assign(l, _)
        | ExprKind::OpAssign { lhs: l, .. }
        | ExprKind::IncDec { e: l, .. }
            if is_var(l, v) =>
        {
            found = true
        }
        ExprKind::AddrOf(x) if is_var(x, v) => found = true,
        _ => {}
    });
    found
}

#[cfg(test)]
mod tests {
    use crate::ir::types::DataModel;

    fn bounds(src: &str) -> Vec<u64> {
        let mut prog = crate::frontend::load_text("t.c", src, DataModel::Lp64).expect("parses");
        crate::passes::normalize::normalize(&mut prog);
        let mut b: Vec<u64> = prog.loop_bounds.values().copied().collect();
        b.sort();
        b
    }

    #[test]
    fn counted_loops_have_their_trip_counts() {
        assert_eq!(
            bounds("int main() { int s = 0; for (int i = 0; i < 7; i++) s++; return s; }"),
            vec![7]
        );
        assert_eq!(
            bounds("int main() { int s = 0; for (int i = 10; i >= 0; i -= 2) s++; return s; }"),
            vec![6]
        );
    }

    /// The trip count of the first `while` in `main`, given the statement before it.
    fn while_trips(src: &str) -> super::TripCount {
        use crate::ir::StmtKind;
        let prog = crate::frontend::load_text("t.c", src, DataModel::Lp64).expect("parses");
        let body = prog
            .func(prog.main().expect("main"))
            .body
            .clone()
            .expect("body");
        let StmtKind::Block(ss) = &body.kind else {
            panic!("main's body is a block")
        };
        let i = ss
            .iter()
            .position(|s| matches!(s.kind, StmtKind::While { .. }))
            .expect("a while loop");
        super::trip_count(&prog, &ss[i], i.checked_sub(1).map(|p| &ss[p]))
    }

    #[test]
    fn a_continue_that_skips_the_increment_leaves_the_loop_unbounded() {
        assert_eq!(
            while_trips(
                "int nd(void); int main() { int s = 0; int i = 0; \
                 while (i < 10) { if (nd()) continue; i++; } return s; }"
            ),
            super::TripCount::Unknown
        );
        assert_eq!(
            while_trips(
                "int main() { int s = 0; int i = 0; while (i < 10) { s++; i++; } return s; }"
            ),
            super::TripCount::Exactly(10)
        );
    }

    #[test]
    fn a_counter_that_wraps_before_the_bound_has_no_trip_count() {
        // `i` never reaches 300: the loop does not end.
        assert_eq!(
            bounds(
                "int main() { int s = 0; for (unsigned char i = 0; i < 300; i++) s++; return s; }"
            ),
            Vec::<u64>::new()
        );
        assert_eq!(
            bounds(
                "int main() { int s = 0; for (unsigned char i = 0; i < 255; i++) s++; return s; }"
            ),
            vec![255]
        );
    }
}
