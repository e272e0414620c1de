//! `nanosleep` and `clock_nanosleep`, as `sleep` and `usleep` are taken: a sleep changes
//! nothing the model keeps, since a schedule may already run any other thread for any
//! time. What the model keeps of them:
//!
//! * the request is read (`tv_sec`, then `tv_nsec`), as the kernel reads it, and a request
//!   Linux refuses (`tv_sec < 0`, `tv_nsec` outside `0..1e9`) answers `EINVAL` at once:
//!   `nanosleep` -1 with `errno` set (`errno`), `clock_nanosleep` the error number itself
//!   (it never sets `errno`); any other request answers 0, an uninterrupted sleep, and
//!   the remainder `rem` is not written (Linux writes it only when a signal interrupts the
//!   sleep, and no signal is modelled);
//! * both are cancellation points (`cancel` puts the point in front of the model);
//! * the model's clock (`libc`) is not moved by a sleep, as it is not by `sleep`: each
//!   reading moves it by any amount, so every run a real sleep allows is in the model,
//!   and a failure that needs a reading to have moved less than a sleep asked for is not
//!   a real one.
//!
//! `clock_nanosleep` is modelled for the clocks Linux sleeps on (`CLOCK_REALTIME`,
//! `CLOCK_MONOTONIC`, `CLOCK_PROCESS_CPUTIME_ID`, `CLOCK_BOOTTIME`, `CLOCK_TAI`) given as
//! constants, with the relative flag 0. `TIMER_ABSTIME` (a sleep until the clock reads a
//! time: an order with the model's clock readings that is not kept), another clock or a
//! clock or flag that is no constant is refused by name; so is a null request (`EFAULT`).

use lang_c::span::Span;

use super::{Lowerer, R};
use crate::ir::build as b;
use crate::ir::*;

/// Linux's `EINVAL`.
const EINVAL: i128 = 22;
const NANOS: i128 = 1_000_000_000;
/// The clock ids Linux's `clock_nanosleep` sleeps on: `CLOCK_REALTIME` 0,
/// `CLOCK_MONOTONIC` 1, `CLOCK_PROCESS_CPUTIME_ID` 2, `CLOCK_BOOTTIME` 7, `CLOCK_TAI` 11
/// (`CLOCK_THREAD_CPUTIME_ID` answers `EINVAL`, the alarm clocks need a capability).
const SLEEP_CLOCKS: [i128; 5] = [0, 1, 2, 7, 11];

impl Lowerer<'_, '_> {
    /// The model of `call` (already lowered) when it calls the library's `nanosleep` or
    /// `clock_nanosleep` (see the module comment); any other call as it is.
    pub(super) fn sleep_call(&mut self, call: Expr, span: Span) -> R<Expr> {
        let ExprKind::Call(callee, args) = &call.kind else {
            return Ok(call);
        };
        let ExprKind::Func(f) = callee.peel().kind else {
            return Ok(call);
        };
        if self.prog.func(f).body.is_some() {
            return Ok(call);
        }
        let name = self.prog.func(f).name.clone();
        let loc = call.loc;
        let (req, rem, sets_errno, leading) = match (name.as_str(), args.as_slice()) {
            ("nanosleep", [req, rem]) => (req.clone(), rem.clone(), true, vec![]),
            ("clock_nanosleep", [clock, flags, req, rem]) => {
                match clock.as_int() {
                    Some(c) if SLEEP_CLOCKS.contains(&c) => {}
                    Some(c) => {
                        return Err(self.unsupported(
                            span,
                            format!(
                                "`clock_nanosleep` on clock {c}, which Linux does not sleep on \
                                 (seqloc models CLOCK_REALTIME, CLOCK_MONOTONIC, \
                                 CLOCK_PROCESS_CPUTIME_ID, CLOCK_BOOTTIME and CLOCK_TAI)"
                            ),
                        ));
                    }
                    None => {
                        return Err(self.unsupported(
                            span,
                            "`clock_nanosleep` with a clock that is not a constant",
                        ));
                    }
                }
                if flags.as_int() != Some(0) {
                    return Err(self.unsupported(
                        span,
                        "`clock_nanosleep` with `TIMER_ABSTIME` or flags that are not the \
                         constant 0 (a sleep until the clock reads a time: its order with the \
                         model's clock readings is not kept)",
                    ));
                }
                (
                    req.clone(),
                    rem.clone(),
                    false,
                    vec![clock.clone(), flags.clone()],
                )
            }
            _ => return Ok(call),
        };
        if req.as_int() == Some(0) {
            return Err(self.unsupported(
                span,
                format!("`{name}` with a null request (it fails with `EFAULT`)"),
            ));
        }
        let mut stmts = Vec::new();
        for e in leading {
            Self::keep_effects(e, &mut stmts, loc);
        }
        let pty = req.ty.unqualified().clone();
        let q = self.declare_temp("__seq_sleep_req", &pty, req, &mut stmts, loc);
        Self::keep_effects(rem, &mut stmts, loc);
        let sec = self.member(b::deref(q.clone(), self.tt()), "tv_sec", span, loc)?;
        let nsec = self.member(b::deref(q, self.tt()), "tv_nsec", span, loc)?;
        if !sec.ty.is_integer(self.tt()) || !nsec.ty.is_integer(self.tt()) {
            return Ok(call);
        }
        let ll = Type::Int(IntKind::LongLong);
        let s = self.declare_temp("__seq_sleep_sec", &ll, sec, &mut stmts, loc);
        let ns = self.declare_temp("__seq_sleep_nsec", &ll, nsec, &mut stmts, loc);
        let ret = call.ty.clone();
        let r = self.declare_temp("__seq_sleep_result", &ret, b::int(0), &mut stmts, loc);
        let invalid = b::bin(
            BinOp::LogOr,
            b::bin(BinOp::Lt, s, b::typed_int(0, &ll)),
            b::bin(
                BinOp::LogOr,
                b::bin(BinOp::Lt, ns.clone(), b::typed_int(0, &ll)),
                b::bin(BinOp::Ge, ns, b::typed_int(NANOS, &ll)),
            ),
        );
        let answer = if sets_errno { -1 } else { EINVAL };
        let mut refuse = vec![b::expr_stmt(
            b::assign(r.clone(), b::typed_int(answer, &ret), self.tt()),
            loc,
            StmtId::NONE,
        )];
        if sets_errno {
            refuse.extend(self.set_errno(EINVAL, loc));
        }
        stmts.push(b::if_(invalid, refuse, None));
        stmts.push(Stmt::expr(r));
        Ok(Expr::new(ExprKind::StmtExpr(stmts), ret, loc))
    }
}

#[cfg(test)]
mod tests {
    use super::super::test_util::calls_to;
    use crate::ir::types::DataModel;
    use crate::ir::*;

    const DECLS: &str = "struct timespec { long tv_sec; long tv_nsec; };\n\
        int nanosleep(const struct timespec *, struct timespec *);\n\
        int clock_nanosleep(int, int, const struct timespec *, struct timespec *);\n";

    fn load(src: &str) -> Result<Program, String> {
        let text = format!("{DECLS}{src}");
        crate::frontend::load_text("t.c", &text, DataModel::Lp64).map_err(|e| e.to_string())
    }

    #[test]
    fn nanosleep_is_a_check_of_the_request_and_no_call() {
        let p = load(
            "int main(void) { struct timespec ts = {0, 1000}; \
             int r = nanosleep(&ts, 0); \
             r += clock_nanosleep(1, 0, &ts, &ts); return r; }",
        )
        .expect("lowers");
        assert_eq!(calls_to(&p, "nanosleep"), 0);
        assert_eq!(calls_to(&p, "clock_nanosleep"), 0);
        assert!(p.vars.iter().any(|v| v.name == "__seq_sleep_req"));
    }

    #[test]
    fn sleeps_the_model_cannot_keep_are_refused_by_name() {
        for (src, what) in [
            (
                "int main(void) { struct timespec ts = {1, 0}; \
                 return clock_nanosleep(0, 1, &ts, 0); }",
                "TIMER_ABSTIME",
            ),
            (
                "int main(void) { struct timespec ts = {1, 0}; \
                 return clock_nanosleep(3, 0, &ts, 0); }",
                "`clock_nanosleep` on clock 3",
            ),
            ("int main(void) { return nanosleep(0, 0); }", "null request"),
        ] {
            let e = load(src).map(|_| ()).expect_err(src);
            assert!(e.contains(what), "{src}: {e}");
        }
    }
}
