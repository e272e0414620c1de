//! The C library's clocks and random numbers, modelled as what they are to a verifier:
//! values the program cannot predict, within what the library promises.
//!
//! * `rand()`, `random()` (and `rand_r(&seed)`, which also changes the seed): any value
//!   from 0 to `RAND_MAX` (glibc's, 2^31 − 1). `srand(s)` and `srandom(s)` only evaluate
//!   their argument: since no sequence is modelled, no seed can change one.
//! * `time(p)`, `gettimeofday(tv, tz)`, `clock_gettime(clk, ts)` and `clock()` read one
//!   clock that never goes back: two globals (seconds and nanoseconds, starting at 0) that
//!   each reading moves forward by any amount, as one indivisible step (an atomic
//!   section), so that a thread's readings, and readings ordered by the schedule across
//!   threads, never decrease. Independent values would let `end - start` be negative and
//!   fail an assertion no real run can fail. `time` also stores its answer through a
//!   non-null `p`; `gettimeofday` and `clock_gettime` store the seconds and the
//!   microseconds or nanoseconds through a non-null pointer and answer 0 (they fail only on
//!   a bad pointer or clock id, which the model does not check); `clock()` answers
//!   microseconds (`CLOCKS_PER_SEC` is 10^6). The time zone argument of `gettimeofday` is
//!   obsolete (POSIX) and ignored. The model's clock is the wall clock and the CPU clock at
//!   once: every clock id reads it, which allows every run the separate clocks allow and
//!   more (a monotonic clock and the wall clock drifting apart is not excluded; their
//!   agreement is not assumed either, since each reading moves it arbitrarily).
//!
//! CBMC's `__CPROVER_fence` is a no-op: it matters only under CBMC's weak memory models,
//! and seqloc checks sequential consistency.
//!
//! A function of one of these names that the program defines itself is its own; a call
//! whose arguments do not have the library's shape (a `struct timeval` without
//! `tv_sec`/`tv_usec`) is left as the call, which the later passes refuse by name.

use lang_c::ast;
use lang_c::span::{Node, Span};

use super::{Lowerer, R, assume};
use crate::ir::build as b;
use crate::ir::*;

/// glibc's `RAND_MAX`.
const RAND_MAX: i128 = 2_147_483_647;
/// A reading's seconds stay below 2^40 (35,000 years), so `clock()`'s microseconds fit
/// a 64-bit `long` and no sum of readings the program makes overflows it.
const MAX_SECONDS: i128 = 1 << 40;
const NANOS: i128 = 1_000_000_000;
/// `clock()`'s microseconds stay below 2^62: no difference of two readings overflows.
const MAX_CPU: i128 = 1 << 62;

/// The clock's globals: the seconds, the microseconds `gettimeofday` last read within
/// them, the nanoseconds `clock_gettime` last read, and `clock()`'s processor time.
#[derive(Clone, Copy, Debug)]
pub(super) struct Clock {
    seconds: VarId,
    micros: VarId,
    nanos: VarId,
    cpu: VarId,
}

/// What a reading of the clock reads besides the seconds.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Unit {
    Seconds,
    Micros,
    Nanos,
}

impl Lowerer<'_, '_> {
    /// The model of a call of `name` reading a clock or a random number, when it is one
    /// (see the module comment); `None` leaves the call as it is.
    pub(super) fn library_call(
        &mut self,
        name: &str,
        args: &[Node<ast::Expression>],
        loc: Loc,
    ) -> R<Option<Expr>> {
        // CBMC's `__CPROVER_fence("WWfence", ...)` orders memory accesses only under its
        // weak memory models; under sequential consistency, which seqloc checks, it
        // orders nothing more (as `atomic_thread_fence` does not).
        if name == "__CPROVER_fence" && !self.defines_function(name) && self.func.is_some() {
            let mut stmts = Vec::new();
            for a in args {
                let e = self.rvalue(a)?;
                Self::keep_effects(e, &mut stmts, loc);
            }
            return Ok(Some(Expr::new(ExprKind::StmtExpr(stmts), Type::Void, loc)));
        }
        let arity = match name {
            "rand" | "random" | "clock" => 0,
            "srand" | "srandom" | "rand_r" | "time" => 1,
            "gettimeofday" | "clock_gettime" => 2,
            _ => return Ok(None),
        };
        if args.len() != arity || self.defines_function(name) || self.func.is_none() {
            return Ok(None);
        }
        let ret = self.declared_return(name);
        match name {
            "rand" | "random" => Ok(Some(self.random(None, ret, loc))),
            "rand_r" => {
                let seed = self.rvalue(&args[0])?;
                Ok(Some(self.random(Some(seed), ret, loc)))
            }
            "srand" | "srandom" => {
                let seed = self.rvalue(&args[0])?;
                let mut stmts = Vec::new();
                Self::keep_effects(seed, &mut stmts, loc);
                Ok(Some(Expr::new(ExprKind::StmtExpr(stmts), Type::Void, loc)))
            }
            "time" => {
                let p = self.rvalue(&args[0])?;
                self.time(p, ret, loc)
            }
            "clock" => {
                let mut stmts = Vec::new();
                let ty = ret.unwrap_or(Type::Int(IntKind::Long));
                let c = self.cpu_clock(&ty, &mut stmts, loc);
                stmts.push(Stmt::expr(c));
                Ok(Some(Expr::new(ExprKind::StmtExpr(stmts), ty, loc)))
            }
            _ => {
                // `gettimeofday(tv, tz)`, `clock_gettime(clk, ts)`.
                let (clock_id, target) = if name == "gettimeofday" {
                    (&args[1], &args[0])
                } else {
                    (&args[0], &args[1])
                };
                let fraction = if name == "gettimeofday" {
                    ("tv_usec", Unit::Micros)
                } else {
                    ("tv_nsec", Unit::Nanos)
                };
                let target_span = target.span;
                let other = self.rvalue(clock_id)?;
                let target = self.rvalue(target)?;
                self.time_struct(other, target, fraction, ret, target_span, loc)
            }
        }
    }

    /// The return type `name` is declared with, when the program's headers declare it.
    pub(super) fn declared_return(&self, name: &str) -> Option<Type> {
        match self.lookup(name) {
            Some(super::Binding::Func(f)) => Some(self.prog.func(*f).ty.ret.unqualified().clone()),
            _ => None,
        }
    }

    /// `({ T r = nondet; assume(0 <= r && r <= RAND_MAX); r; })`, storing any new seed
    /// through `seed` first (`rand_r`).
    fn random(&mut self, seed: Option<Expr>, ret: Option<Type>, loc: Loc) -> Expr {
        let ty = ret.unwrap_or(Type::int());
        let mut stmts = Vec::new();
        if let Some(seed) = seed {
            let pointee = seed.ty.pointee(self.tt()).cloned();
            if let Some(pt) = pointee.filter(|t| t.is_integer(self.tt())) {
                let store = b::assign(b::deref(seed, self.tt()), b::nondet(&pt, loc), self.tt());
                stmts.push(b::expr_stmt(store, loc, StmtId::NONE));
            } else {
                Self::keep_effects(seed, &mut stmts, loc);
            }
        }
        let r = self.declare_temp("__seq_random", &ty, b::nondet(&ty, loc), &mut stmts, loc);
        let in_range = b::and(
            b::bin(BinOp::Ge, r.clone(), b::typed_int(0, &ty)),
            b::bin(BinOp::Le, r.clone(), b::typed_int(RAND_MAX, &ty)),
        );
        stmts.push(assume(in_range, loc));
        stmts.push(Stmt::expr(r));
        Expr::new(ExprKind::StmtExpr(stmts), ty, loc)
    }

    /// `time(p)`: the clock's seconds, stored through `p` unless it is null.
    fn time(&mut self, p: Expr, ret: Option<Type>, loc: Loc) -> R<Option<Expr>> {
        let ty = ret.unwrap_or(Type::Int(IntKind::Long));
        let null = self.is_null_constant(&p);
        let pointee = p.ty.pointee(self.tt()).cloned();
        if !null && !pointee.as_ref().is_some_and(|t| t.is_integer(self.tt())) {
            return Ok(None);
        }
        let mut stmts = Vec::new();
        let target = if null {
            None
        } else {
            let pty = p.ty.unqualified().clone();
            Some(self.declare_temp("__seq_time_target", &pty, p, &mut stmts, loc))
        };
        let (s, _) = self.read_clock(Unit::Seconds, &mut stmts, loc);
        let value = self.declare_temp("__seq_time", &ty, s, &mut stmts, loc);
        if let Some(q) = target {
            let store = b::assign(b::deref(q.clone(), self.tt()), value.clone(), self.tt());
            let null = self.conv(b::int(0), &q.ty);
            stmts.push(b::if_(
                b::bin(BinOp::Ne, q, null),
                vec![b::expr_stmt(store, loc, StmtId::NONE)],
                None,
            ));
        }
        stmts.push(Stmt::expr(value));
        Ok(Some(Expr::new(ExprKind::StmtExpr(stmts), ty, loc)))
    }

    /// `gettimeofday`/`clock_gettime`: the clock stored into `target`'s `tv_sec` and
    /// `fraction.0` (read in `fraction.1`) unless it is null; 0.
    fn time_struct(
        &mut self,
        other: Expr,
        target: Expr,
        fraction: (&str, Unit),
        ret: Option<Type>,
        span: Span,
        loc: Loc,
    ) -> R<Option<Expr>> {
        let Some(pointee) = target.ty.pointee(self.tt()).cloned() else {
            return Ok(None);
        };
        let Type::Comp(cid) = pointee.resolve(self.tt()).clone() else {
            return Ok(None);
        };
        let has =
            |l: &Self, m: &str| l.tt().comp(cid).complete && l.tt().find_member(cid, m).is_some();
        if !has(self, "tv_sec") || !has(self, fraction.0) {
            return Ok(None);
        }
        let mut stmts = Vec::new();
        Self::keep_effects(other, &mut stmts, loc);
        let pty = target.ty.unqualified().clone();
        let q = self.declare_temp("__seq_time_target", &pty, target, &mut stmts, loc);
        let (s, part) = self.read_clock(fraction.1, &mut stmts, loc);
        let part = part.unwrap_or(b::int(0));
        let sec = self.member(b::deref(q.clone(), self.tt()), "tv_sec", span, loc)?;
        let frac = self.member(b::deref(q.clone(), self.tt()), fraction.0, span, loc)?;
        let stores = vec![
            b::expr_stmt(b::assign(sec, s, self.tt()), loc, StmtId::NONE),
            b::expr_stmt(b::assign(frac, part, self.tt()), loc, StmtId::NONE),
        ];
        let null = self.conv(b::int(0), &q.ty);
        stmts.push(b::if_(b::bin(BinOp::Ne, q, null), stores, None));
        let ty = ret.unwrap_or(Type::int());
        stmts.push(Stmt::expr(b::typed_int(0, &ty)));
        Ok(Some(Expr::new(ExprKind::StmtExpr(stmts), ty, loc)))
    }

    /// Moves the clock forward by any amount, as one step: its seconds, and the fraction
    /// `unit` reads (see [`Unit`]). Answers locals holding the new seconds and fraction.
    fn read_clock(&mut self, unit: Unit, out: &mut Vec<Stmt>, loc: Loc) -> (Expr, Option<Expr>) {
        let clock = self.clock(loc);
        let ll = Type::Int(IntKind::LongLong);
        let int = Type::int();
        let s_old = Expr::var(clock.seconds, self.prog, loc);
        let mut section = Vec::new();
        let s = self.declare_temp(
            "__seq_clock_read",
            &ll,
            b::nondet(&ll, loc),
            &mut section,
            loc,
        );
        let mut forward = b::and(
            b::bin(BinOp::Ge, s.clone(), s_old.clone()),
            b::bin(BinOp::Lt, s.clone(), b::typed_int(MAX_SECONDS, &ll)),
        );
        let fraction = match unit {
            Unit::Seconds => None,
            Unit::Micros => Some((clock.micros, 1_000_000)),
            Unit::Nanos => Some((clock.nanos, NANOS)),
        };
        let read = fraction.map(|(var, limit)| {
            let f = self.declare_temp(
                "__seq_clock_read_part",
                &int,
                b::nondet(&int, loc),
                &mut section,
                loc,
            );
            let old = Expr::var(var, self.prog, loc);
            forward = b::and(
                forward.clone(),
                b::and(
                    b::and(
                        b::bin(BinOp::Ge, f.clone(), b::int(0)),
                        b::bin(BinOp::Lt, f.clone(), b::int(limit)),
                    ),
                    b::bin(
                        BinOp::LogOr,
                        b::bin(BinOp::Gt, s.clone(), s_old.clone()),
                        b::bin(BinOp::Ge, f.clone(), old),
                    ),
                ),
            );
            (var, f)
        });
        section.push(assume(forward, loc));
        // A new second starts every fraction afresh.
        let mut restart = Vec::new();
        for var in [clock.micros, clock.nanos] {
            let v = Expr::var(var, self.prog, loc);
            restart.push(b::expr_stmt(
                b::assign(v, b::int(0), self.tt()),
                loc,
                StmtId::NONE,
            ));
        }
        section.push(b::if_(
            b::bin(BinOp::Gt, s.clone(), s_old.clone()),
            restart,
            None,
        ));
        section.push(b::expr_stmt(
            b::assign(s_old, s.clone(), self.tt()),
            loc,
            StmtId::NONE,
        ));
        if let Some((var, f)) = &read {
            let v = Expr::var(*var, self.prog, loc);
            section.push(b::expr_stmt(
                b::assign(v, f.clone(), self.tt()),
                loc,
                StmtId::NONE,
            ));
        }
        self.indivisible(section, out, loc);
        (s, read.map(|(_, f)| f))
    }

    /// `clock()`: the processor time used, in microseconds, from a counter of its own
    /// that never goes back.
    fn cpu_clock(&mut self, ty: &Type, out: &mut Vec<Stmt>, loc: Loc) -> Expr {
        let clock = self.clock(loc);
        let long = Type::Int(IntKind::Long);
        let old = Expr::var(clock.cpu, self.prog, loc);
        let mut section = Vec::new();
        let c = self.declare_temp(
            "__seq_cpu_read",
            &long,
            b::nondet(&long, loc),
            &mut section,
            loc,
        );
        let forward = b::and(
            b::bin(BinOp::Ge, c.clone(), old.clone()),
            b::bin(BinOp::Lt, c.clone(), b::typed_int(MAX_CPU, &long)),
        );
        section.push(assume(forward, loc));
        section.push(b::expr_stmt(
            b::assign(old, c.clone(), self.tt()),
            loc,
            StmtId::NONE,
        ));
        self.indivisible(section, out, loc);
        self.conv(c, ty)
    }

    /// The clock's globals, declared at the first reading.
    fn clock(&mut self, loc: Loc) -> Clock {
        if let Some(c) = self.clock {
            return c;
        }
        let ll = Type::Int(IntKind::LongLong);
        let int = Type::int();
        let long = Type::Int(IntKind::Long);
        let zero = |ty: &Type| Some(Init::Expr(b::typed_int(0, ty)));
        let c = Clock {
            seconds: self
                .prog
                .new_global("__seq_clock", ll.clone(), zero(&ll), loc),
            micros: self
                .prog
                .new_global("__seq_clock_us", int.clone(), zero(&int), loc),
            nanos: self
                .prog
                .new_global("__seq_clock_ns", int.clone(), zero(&int), loc),
            cpu: self
                .prog
                .new_global("__seq_cpu_clock", long.clone(), zero(&long), loc),
        };
        for v in [c.seconds, c.micros, c.nanos, c.cpu] {
            self.prog.var_mut(v).source_name = Some("<clock>".into());
        }
        self.clock = Some(c);
        c
    }
}
