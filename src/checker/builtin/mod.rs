//! The built-in bounded model checker: symbolic execution of seqloc's sequentialized
//! program into SMT, solved with Z3 (the system libz3).
//!
//! A [`Session`] keeps one program's encoding in a live solver, so the localizer adds
//! its `diag != k` constraints and asks again without re-encoding. `engine::check` drives the
//! bounded search with iterative deepening of rounds and loop bounds.

mod canonical;
pub mod diagnose;
pub mod float;
pub mod memory;
pub mod probe;
pub mod stop;
pub mod symex;

pub use canonical::Canonical;

use std::collections::{HashMap, HashSet};
use std::time::{Duration, Instant};

use std::sync::{Arc, Mutex};
use z3::ast::{BV, Bool};

use z3::{Model, Params, SatResult, Solver};

use crate::cex::{Counterexample, InputStep, TraceStep, Violation, ViolationKind, Write};
use crate::ir::*;
use crate::seq::Sequentialized;
use crate::seq::schedule::{Block, InputValue, Schedule, StmtIndex, ThreadSpec, Until};
use memory::ObjKind;
use symex::{EventKind, Output, PropKind, Symex, SymexError, SymexOptions, Validity};

#[derive(Debug, thiserror::Error)]
pub enum BmcError {
    #[error(transparent)]
    Symex(#[from] SymexError),
    #[error("Z3 failed: {0}")]
    Solver(String),
}

/// Time spent encoding and solving, for BENCHMARKS.md and `-v`.
#[derive(Clone, Copy, Debug, Default)]
pub struct Stats {
    pub encode_ms: u64,
    pub solve_ms: u64,
    pub solver_calls: u32,
    /// The limit that ended the search without an answer. It lives with the statistics
    /// because every checker fills them (an external one leaves it `None` and says
    /// `limit_reached` for its time limit).
    pub limit: Option<Limit>,
}

/// A limit that stops a search before it has an answer: the exit code and the sweep's
/// classification follow it, never the wording of a message.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Limit {
    Time,
    Memory,
    /// Ctrl-C: Z3 catches SIGINT while it solves and gives up.
    Interrupted,
}

impl Limit {
    pub fn as_str(self) -> &'static str {
        match self {
            Limit::Time => "time",
            Limit::Memory => "memory",
            Limit::Interrupted => "interrupted",
        }
    }
}

pub enum Answer {
    Violated(Model),
    Holds,
    Unknown(Undecided),
}

/// The answer to [`Session::query_core`].
pub enum CoreAnswer {
    Sat(Model),
    /// Unsatisfiable: the assumptions of the core.
    Unsat(Vec<Bool>),
    Unknown(Undecided),
}

/// Why the solver gave no answer.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Undecided {
    /// A limit: the session's deadline, Z3's memory, or Ctrl-C.
    Limit(Limit),
    /// Another thread closed the session's [`SolveGate`].
    Stopped,
    /// The session's work budget ([`Session::set_work_budget`]) is used up.
    Work,
    /// Anything else Z3 says (an incomplete theory, no model).
    Solver(String),
}

impl Undecided {
    pub fn limit(&self) -> Option<Limit> {
        match self {
            Undecided::Limit(l) => Some(*l),
            _ => None,
        }
    }

    /// Z3's reason for `unknown`, typed at the one place its words are read: Z3 offers
    /// nothing but the text.
    fn from_z3(reason: &str) -> Undecided {
        match reason {
            "canceled" | "timeout" => Undecided::Limit(Limit::Time),
            "interrupted from keyboard" => Undecided::Limit(Limit::Interrupted),
            r if r.contains("memory") => Undecided::Limit(Limit::Memory),
            // Only a session given a work budget sets Z3's `rlimit`.
            r if r.contains("resource limit") => Undecided::Work,
            r => Undecided::Solver(z3_reason_summary(r)),
        }
    }
}

/// The first line of Z3's reason for `unknown`, without the declarations some reasons
/// carry after it: `sat.giveup` appends every uninterpreted function it saw, hundreds of
/// lines of S-expressions that would drown the report they end up in.
fn z3_reason_summary(reason: &str) -> String {
    let first = reason.lines().next().unwrap_or("").trim();
    let first = first.split(" (declare-fun").next().unwrap_or(first);
    let first = first.trim().trim_start_matches('(').trim();
    if first.is_empty() {
        "unknown".into()
    } else {
        first.to_string()
    }
}

impl std::fmt::Display for Undecided {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            Undecided::Limit(Limit::Time) => f.write_str("time limit reached"),
            Undecided::Limit(Limit::Memory) => f.write_str("memory limit reached"),
            Undecided::Limit(Limit::Interrupted) => f.write_str("interrupted"),
            Undecided::Stopped => {
                f.write_str("stopped: the explicit-state search decided the program")
            }
            Undecided::Work => f.write_str("the search's work budget was used up"),
            Undecided::Solver(w) => f.write_str(w),
        }
    }
}

/// One sequential program, encoded once, with a live solver.
pub struct Session {
    pub seq: Sequentialized,
    pub out: Output,
    solver: Solver,
    pub stats: Stats,
    deadline: Option<Instant>,
    queries: u32,
    /// Constraints added after encoding (kept for fresh-solver queries too).
    added: Vec<Bool>,
    gate: Option<Arc<SolveGate>>,
    /// The gate's owner closes it at the deadline (see [`Session::set_gate_owning_deadline`]).
    gate_owns_deadline: bool,
    /// Z3 resource units the root-cause questions may use in all, and those used.
    work: Option<(u64, u64)>,
}

/// Lets another thread stop the solver: [`SolveGate::close`] interrupts a solve in
/// progress and makes every later one answer "unknown" at once.
///
/// Z3 4.8's interrupt, reaching a context outside a check, cancels it for good (every
/// `simplify` and solve fails afterwards), so the gate is open around Z3's check alone and
/// the interrupt is sent only then; a session whose gate closed makes no more Z3 calls.
/// The check's own first and last instructions are beyond the gate's sight: a caller that
/// goes on with Z3 on that thread asks [`context_usable`] ([`on_usable_context`]).
#[derive(Default)]
pub struct SolveGate {
    /// (a solve is running, the gate is closed)
    state: Mutex<(bool, bool)>,
}

/// Whether this thread's Z3 context still answers. An interrupt that reaches a context
/// outside a check (the gates send theirs only while one runs, but the check's own start
/// and end are not theirs to see) cancels it for good in Z3 4.8: every `simplify` and
/// solve on it fails from then on, and the z3 crate panics on the first `null`.
pub fn context_usable() -> bool {
    let ctx = z3::Context::thread_local();
    let c = ctx.get_z3_context();
    // SAFETY: `c` is this thread's live context (held by `ctx`); `true` is a constant of
    // its manager, and the simplified term is only compared with null, never used.
    unsafe { z3_sys::Z3_mk_true(c).is_some_and(|t| z3_sys::Z3_simplify(c, t).is_some()) }
}

/// Runs `f` on this thread, or — when this thread's Z3 context no longer answers (see
/// [`context_usable`]) — on a fresh thread, whose context is fresh. The usual case keeps
/// the context the search ran in: the later encodings find its terms made already, and
/// answers on this context are what the measurements were taken with.
pub fn on_usable_context<R: Send>(f: impl FnOnce() -> R + Send) -> std::io::Result<R> {
    if context_usable() {
        return Ok(f());
    }
    std::thread::scope(|s| {
        let h = std::thread::Builder::new()
            .stack_size(crate::STACK_BYTES)
            .spawn_scoped(s, f)?;
        match h.join() {
            Ok(r) => Ok(r),
            Err(panic) => std::panic::resume_unwind(panic),
        }
    })
}

/// A thread's Z3 context, as another thread may interrupt it. The safe API offers this
/// only through a borrow of the context, which cannot leave its thread.
#[derive(Clone, Copy)]
pub struct Interruptible(z3_sys::Z3_context);

// SAFETY: `Z3_interrupt` is the one Z3 call made to be called from another thread, and
// `interrupt` documents when the context is alive.
unsafe impl Send for Interruptible {}
unsafe impl Sync for Interruptible {}

impl Interruptible {
    /// The calling thread's context.
    pub fn this_thread() -> Interruptible {
        Interruptible(z3::Context::thread_local().get_z3_context())
    }

    /// Interrupts the solve in progress on that context. Call it only from
    /// [`SolveGate::close`] of a gate its thread solves behind: the closure runs only while
    /// that thread is inside a solve, so the context is alive.
    pub fn interrupt(self) {
        // SAFETY: see above.
        unsafe { z3_sys::Z3_interrupt(self.0) }
    }

    /// Tells contexts apart (their address).
    fn key(self) -> usize {
        self.0.as_ptr() as usize
    }
}

impl SolveGate {
    /// Closes the gate, interrupting the solve in progress (`interrupt` is Z3's).
    pub fn close(&self, interrupt: impl FnOnce()) {
        let mut st = self.state.lock().unwrap_or_else(|e| e.into_inner());
        st.1 = true;
        if st.0 {
            interrupt();
        }
    }

    pub fn is_closed(&self) -> bool {
        self.state.lock().unwrap_or_else(|e| e.into_inner()).1
    }

    /// Marks a solve as starting; false when the gate is closed.
    fn enter(&self) -> bool {
        let mut st = self.state.lock().unwrap_or_else(|e| e.into_inner());
        if st.1 {
            return false;
        }
        st.0 = true;
        true
    }

    /// Marks the solve as over; false when the gate closed meanwhile.
    fn leave(&self) -> bool {
        let mut st = self.state.lock().unwrap_or_else(|e| e.into_inner());
        st.0 = false;
        !st.1
    }
}

impl Session {
    pub fn new(
        seq: Sequentialized,
        loop_bound: u32,
        deadline: Option<Instant>,
    ) -> Result<Session, BmcError> {
        Session::encode(seq, loop_bound, deadline, Validity::Any)
    }

    /// Like [`Session::new`], discarding the executions with an access `valid` rules
    /// out (for the localizer: see [`Validity`]).
    pub fn new_valid(
        seq: Sequentialized,
        loop_bound: u32,
        deadline: Option<Instant>,
        valid: Validity,
    ) -> Result<Session, BmcError> {
        Session::encode(seq, loop_bound, deadline, valid)
    }

    fn encode(
        seq: Sequentialized,
        loop_bound: u32,
        deadline: Option<Instant>,
        valid: Validity,
    ) -> Result<Session, BmcError> {
        // After a stop the thread's Z3 context may be cancelled for good: no new encoding
        // (the callers read the stop as the limit it is).
        if stop::requested().is_some() {
            return Err(BmcError::Symex(SymexError::Timeout));
        }
        let t0 = Instant::now();
        let out = {
            let mut sx = Symex::new(
                &seq.program,
                SymexOptions {
                    loop_bound,
                    max_call_depth: 64,
                    deadline,
                    valid,
                },
            )?;
            sx.run_main()?;
            sx.finish()
        };
        let solver = new_solver();
        for a in &out.asserts {
            solver.assert(a);
        }
        if let Ok(path) = std::env::var("SEQLOC_DUMP_SMT") {
            let mut text = solver.to_smt2();
            for p in &out.props {
                text.push_str(&format!("; property {:?}\n", p.lit));
            }
            let _ = std::fs::write(path, text);
        }
        Ok(Session {
            seq,
            out,
            solver,
            stats: Stats {
                encode_ms: t0.elapsed().as_millis() as u64,
                ..Stats::default()
            },
            deadline,
            queries: 0,
            added: vec![],
            gate: None,
            gate_owns_deadline: false,
            work: None,
        })
    }

    /// Answers the later questions ([`Session::query_core`]) on Z3's solver for QF_BV
    /// ([`Session::bit_blaster`]): two to three times faster than the SMT core for the
    /// root-cause search's many short questions. `false`, and the live solver kept, when
    /// Z3 has no such solver.
    pub fn ask_on_bit_blaster(&mut self) -> bool {
        // The budget's account goes on: each solve is limited to what is left, as
        // `set_work_budget` limits the live solver's.
        let left = self.work.map(|(budget, used)| budget.saturating_sub(used));
        let Some(solver) = self.bit_blaster(left) else {
            return false;
        };
        self.solver = solver;
        true
    }

    /// Goes back from [`Session::ask_on_bit_blaster`] to Z3's SMT core, with the encoding
    /// and the constraints added so far: for an encoding the QF_BV solver gives up on
    /// (an object kept as an SMT array, an uninterpreted function).
    pub fn ask_on_smt_core(&mut self) {
        let solver = new_solver();
        for a in self.out.asserts.iter().chain(self.added.iter()) {
            solver.assert(a);
        }
        self.solver = solver;
    }

    /// A solver for QF_BV holding the encoding and the constraints added so far: it
    /// bit-blasts them once and answers each question, with its assumptions, on a SAT
    /// core. Each solve is limited to `work` units when given (set once: setting Z3's
    /// parameters before every question slowed each down). `None` when Z3 has none.
    fn bit_blaster(&self, work: Option<u64>) -> Option<Solver> {
        if self.out.uses_floats {
            return None;
        }
        let solver = Solver::new_for_logic("QF_BV")?;
        let mut p = Params::new();
        p.set_bool("ctrl_c", false);
        if let Some(units) = work {
            p.set_u32("rlimit", rlimit(units));
        }
        solver.set_params(&p);
        for a in self.out.asserts.iter().chain(self.added.iter()) {
            solver.assert(a);
        }
        Some(solver)
    }

    /// Whether the encoding reads values as floating-point numbers (see
    /// `symex::Output::uses_floats`).
    pub fn uses_floats(&self) -> bool {
        self.out.uses_floats
    }

    /// Adds a constraint for all later queries (the localizer's `diag != k`).
    pub fn add(&mut self, c: &Bool) {
        self.solver.assert(c);
        self.added.push(c.clone());
    }

    fn set_timeout_on(&self, solver: &Solver) -> bool {
        if let Some(left) = self.timeout_left() {
            if left.is_zero() {
                return false;
            }
            let mut p = Params::new();
            p.set_u32("timeout", left.as_millis().min(u32::MAX as u128) as u32);
            solver.set_params(&p);
        }
        true
    }

    /// Is any of `lits` satisfiable together with `extra`? Runs on a fresh solver over
    /// the terms already built (no re-encoding): Z3's non-incremental mode preprocesses
    /// the formula, which is many times faster for a single question.
    pub fn query(&mut self, lits: &[Bool], extra: &[Bool]) -> Answer {
        if lits.is_empty() {
            return Answer::Holds;
        }
        let solver = new_solver();
        if !self.set_timeout_on(&solver) {
            return Answer::Unknown(Undecided::Limit(Limit::Time));
        }
        for a in &self.out.asserts {
            solver.assert(a);
        }
        for a in &self.added {
            solver.assert(a);
        }
        solver.assert(Bool::or(lits));
        for e in extra {
            solver.assert(e);
        }
        self.solve(&solver, &[])
    }

    /// Like [`Session::query`], on the live incremental solver: for many questions about
    /// one encoding that differ by a few constraints (the localizer's rounds).
    pub fn query_incremental(&mut self, lits: &[Bool], extra: &[Bool]) -> Answer {
        if lits.is_empty() {
            return Answer::Holds;
        }
        if !self.set_timeout_on(&self.solver) {
            return Answer::Unknown(Undecided::Limit(Limit::Time));
        }
        self.queries += 1;
        let sel = Bool::new_const(format!("query#{}", self.queries));
        self.solver.assert(sel.implies(Bool::or(lits)));
        let mut assumptions = vec![sel];
        assumptions.extend(extra.iter().cloned());
        let (answer, ms) = gated(self.gate.as_deref(), &self.solver, &assumptions);
        self.stats.solve_ms += ms;
        self.stats.solver_calls += 1;
        answer
    }

    /// Is the encoding satisfiable with every one of `assumptions` true? On the live
    /// incremental solver; when it is not, the answer names a subset of the assumptions
    /// that is unsatisfiable already (Z3's unsat core, not necessarily minimal): the
    /// root-cause search shrinks it query by query.
    pub fn query_core(&mut self, assumptions: &[Bool]) -> CoreAnswer {
        if !self.set_timeout_on(&self.solver) {
            return CoreAnswer::Unknown(Undecided::Limit(Limit::Time));
        }
        let Some(before) = self.limit_work() else {
            return CoreAnswer::Unknown(Undecided::Work);
        };
        let (answer, ms) = gated(self.gate.as_deref(), &self.solver, assumptions);
        self.stats.solve_ms += ms;
        self.stats.solver_calls += 1;
        let out_of_work = self.account_work(before);
        match answer {
            Answer::Violated(m) => CoreAnswer::Sat(m),
            Answer::Unknown(_) if out_of_work => CoreAnswer::Unknown(Undecided::Work),
            Answer::Unknown(u) => CoreAnswer::Unknown(u),
            Answer::Holds => CoreAnswer::Unsat(self.solver.get_unsat_core()),
        }
    }

    /// A model of the encoding with `hard` true that satisfies as many of `soft` as it
    /// can, asked of the live solver ([`Session::query_core`]'s budget and gate). First
    /// every soft literal is assumed; each unsat core found drops its soft literals from
    /// the assumptions until a model comes: the cores are disjoint and each needs one of
    /// its literals false, so the optimum lies between that model's count and the number
    /// of soft literals less the cores. Then a bisection between the two on "at least
    /// `k` of `soft`" (a cardinality constraint behind a fresh literal, assumed by the one
    /// question that asks it). After [`Session::ask_on_bit_blaster`] each question is a
    /// SAT call on the encoding already bit-blasted, with the clauses the earlier ones
    /// learnt, where Z3's optimizer would start over. The optimum is the same count;
    /// which of the equally good models comes back is the solver's choice.
    pub fn most_satisfied(&mut self, hard: &[Bool], soft: &[Bool]) -> Answer {
        let kept = |m: &Model| soft.iter().filter(|l| truth(m, l)).count();
        let mut assumed: Vec<&Bool> = soft.iter().collect();
        let mut cores = 0;
        let mut best = loop {
            let mut asked = hard.to_vec();
            asked.extend(assumed.iter().map(|l| (*l).clone()));
            match self.query_core(&asked) {
                CoreAnswer::Sat(m) => break m,
                CoreAnswer::Unsat(core) => {
                    let before = assumed.len();
                    assumed.retain(|l| !core.iter().any(|c| c == *l));
                    if assumed.len() == before {
                        // No soft literal in the core: `hard` alone is unsatisfiable.
                        return Answer::Holds;
                    }
                    cores += 1;
                }
                CoreAnswer::Unknown(u) => return Answer::Unknown(u),
            }
        };
        let (mut lo, mut hi) = (kept(&best), soft.len().saturating_sub(cores));
        while lo < hi {
            let mid = lo + (hi - lo).div_ceil(2);
            let Ok(k) = u32::try_from(mid) else {
                break;
            };
            let at_least = Bool::fresh_const("at_least");
            self.add(&at_least.implies(z3::ast::atleast(soft.iter(), k)));
            let mut asked = hard.to_vec();
            asked.push(at_least);
            match self.query_core(&asked) {
                CoreAnswer::Sat(m) => {
                    lo = kept(&m).max(mid);
                    best = m;
                }
                CoreAnswer::Unsat(_) => hi = mid - 1,
                CoreAnswer::Unknown(u) => return Answer::Unknown(u),
            }
        }
        Answer::Violated(best)
    }

    /// Lets `gate` stop this session's solving (see [`SolveGate`]).
    pub fn set_gate(&mut self, gate: Arc<SolveGate>) {
        self.gate = Some(gate);
    }

    /// Like [`Session::set_gate`], and the gate's owner enforces the deadline by closing
    /// it: Z3's own `timeout` is no longer set. Z3 4.8.12 runs each timeout on a timer
    /// thread pool that races (Z3Prover/z3#5371); the root-cause search, which asks many
    /// short questions with timeouts while other threads solve, corrupted the heap (an
    /// abort or a segfault in about one localization in eight with `--checker cbmc`).
    pub fn set_gate_owning_deadline(&mut self, gate: Arc<SolveGate>) {
        self.gate = Some(gate);
        self.gate_owns_deadline = true;
    }

    /// Bounds the work of [`Session::query_core`]'s questions, in all, by Z3's resource
    /// count (`rlimit`): unlike a time, the same on a loaded machine as on a quiet one, so
    /// a search bounded by it finds the same answers on both. Once the questions have
    /// used the budget, the next answers [`Undecided::Work`]; one question alone may use
    /// at most the whole budget (the limit is set once: setting Z3's parameters before
    /// every question slowed each down by half). The rate is about 1–3 million units a
    /// second on the project's machine (BENCHMARKS.md).
    pub fn set_work_budget(&mut self, units: u64) {
        self.work = Some((units, 0));
        set_work_limit(&self.solver, Some(units));
    }

    /// Raises the work budget by `units` (no effect on a session without one): a later
    /// stage that must not be starved by an earlier one gets its own share.
    pub fn add_work_budget(&mut self, units: u64) {
        if let Some((budget, used)) = self.work {
            let budget = budget.saturating_add(units);
            self.work = Some((budget, used));
            set_work_limit(&self.solver, Some(budget.saturating_sub(used)));
        }
    }

    /// The session's work budget is used up.
    pub fn work_exhausted(&self) -> bool {
        self.work.is_some_and(|(budget, used)| used >= budget)
    }

    /// The resource units this session's budgeted questions have used.
    pub fn work_used(&self) -> u64 {
        self.work.map_or(0, |(_, used)| used)
    }

    /// The live solver's resource count so far, or `None` when a work budget is set and
    /// used up.
    fn limit_work(&mut self) -> Option<u64> {
        let Some((budget, used)) = self.work else {
            return Some(0);
        };
        if used >= budget {
            return None;
        }
        Some(resource_count(&self.solver))
    }

    /// Adds the last solve's work to the budget's account; whether it is used up.
    fn account_work(&mut self, before: u64) -> bool {
        let Some((budget, used)) = self.work else {
            return false;
        };
        let spent = resource_count(&self.solver).saturating_sub(before);
        let used = used.saturating_add(spent);
        self.work = Some((budget, used));
        used >= budget
    }

    /// The deadline's time left, for Z3's `timeout`; `None` when the session has no
    /// deadline or its gate enforces it, `Some(0)` when it has passed.
    fn timeout_left(&self) -> Option<Duration> {
        let d = self.deadline?;
        let left = d.saturating_duration_since(Instant::now());
        if self.gate_owns_deadline && !left.is_zero() {
            return None;
        }
        Some(left)
    }

    fn solve(&mut self, solver: &Solver, assumptions: &[Bool]) -> Answer {
        let (answer, ms) = gated(self.gate.as_deref(), solver, assumptions);
        self.stats.solve_ms += ms;
        self.stats.solver_calls += 1;
        answer
    }

    pub fn property_lits(&self, kinds: &[PropKind]) -> Vec<Bool> {
        self.out
            .props
            .iter()
            .filter(|p| kinds.contains(&p.kind))
            .map(|p| p.lit.clone())
            .collect()
    }

    pub fn unwind_lits(&self) -> Vec<Bool> {
        self.out.unwinds.iter().map(|(_, b, _)| b.clone()).collect()
    }

    pub fn mismatch_lits(&self) -> Vec<Bool> {
        self.out.mismatches.iter().map(|(_, b)| b.clone()).collect()
    }

    /// The schedule step (block, from 1) at which a model's replay went wrong.
    pub fn mismatch_step(&self, model: &Model) -> Option<i64> {
        self.out.mismatches.iter().find_map(|(step, m)| {
            if !truth(model, m) {
                return None;
            }
            let v = step.as_ref()?;
            let u = value(model, v)?;
            Some(signed_value(u, v.get_size(), true) as i64)
        })
    }

    /// A global's final value in a model, as a signed or unsigned number of its width.
    pub fn global_value(&self, model: &Model, v: VarId, signed: bool) -> Option<i128> {
        let bv = self.out.globals.get(&v)?;
        let u = value(model, bv)?;
        Some(signed_value(u, bv.get_size(), signed))
    }

    /// A value as C text: signed numbers, `NULL`, `&object`.
    pub fn render_value(&self, model: &Model, v: &BV, ty: &Type) -> String {
        render(model, v, ty, self, &self.seq.program)
    }

    /// The term of a global's final value (for constraints over it, like `diag != k`).
    pub fn global_term(&self, v: VarId) -> Option<&BV> {
        self.out.globals.get(&v)
    }

    /// Reads the counterexample a model describes.
    pub fn counterexample(
        &self,
        model: &Model,
        index: &StmtIndex,
        prog: &Program,
    ) -> Counterexample {
        extract(self, model, index, prog).0
    }

    /// [`Session::counterexample`], and for each of its trace steps the program point
    /// (slot, point) its statement ran at: how the root-cause search names the failing
    /// run's events in another encoding of the same program.
    pub fn counterexample_at_points(
        &self,
        model: &Model,
        index: &StmtIndex,
        prog: &Program,
    ) -> (Counterexample, Vec<(u32, u32)>) {
        extract(self, model, index, prog)
    }
}

/// [`solve`], unless `gate` is closed before or during the solve.
fn gated(gate: Option<&SolveGate>, solver: &Solver, assumptions: &[Bool]) -> (Answer, u64) {
    solve(solver, assumptions, gate)
}

/// Z3's resource count of `solver` so far (its `rlimit count` statistic; 0 before it has
/// solved).
fn resource_count(solver: &Solver) -> u64 {
    match solver.get_statistics().value("rlimit count") {
        Some(z3::StatisticsValue::UInt(n)) => u64::from(n),
        Some(z3::StatisticsValue::Double(d)) if d.is_finite() && d >= 0.0 => d as u64,
        _ => 0,
    }
}

/// Limits `solver`'s next solves to `units` more resource units each (Z3 counts them
/// from where the count stands when a solve starts); `None` lifts the limit.
fn set_work_limit(solver: &Solver, units: Option<u64>) {
    let mut p = Params::new();
    p.set_u32("rlimit", units.map_or(0, rlimit));
    solver.set_params(&p);
}

/// Z3's `rlimit` parameter is 32 bits wide; 0 would mean "no limit".
fn rlimit(units: u64) -> u32 {
    units.clamp(1, u64::from(u32::MAX)) as u32
}

/// A solver that leaves Ctrl-C to seqloc: Z3 would catch SIGINT itself while it solves
/// and answer "canceled" on that one thread only; [`stop`]'s watchdog stops every thread
/// and says why.
pub fn new_solver() -> Solver {
    let solver = Solver::new();
    let mut p = Params::new();
    p.set_bool("ctrl_c", false);
    // A different seed makes Z3 return other, equally short counterexamples: how the
    // ranking's independence of the model is measured (`scripts/rank_stability.py`).
    if let Some(seed) = std::env::var("SEQLOC_Z3_SEED")
        .ok()
        .and_then(|s| s.trim().parse::<u32>().ok())
    {
        p.set_u32("random_seed", seed);
        p.set_u32("sat.random_seed", seed);
    }
    solver.set_params(&p);
    solver
}

fn solve(solver: &Solver, assumptions: &[Bool], gate: Option<&SolveGate>) -> (Answer, u64) {
    // Registered before the stop is read: a stop requested from here on interrupts it.
    let _solving = stop::Solving::enter();
    if let Some(l) = stop::requested() {
        return (Answer::Unknown(Undecided::Limit(l)), 0);
    }
    // The gate is open around Z3's check alone: an interrupt that reaches the context
    // outside a check (while the model is read, say) cancels it for good.
    if gate.is_some_and(|g| !g.enter()) {
        return (Answer::Unknown(Undecided::Stopped), 0);
    }
    let t0 = Instant::now();
    let r = if assumptions.is_empty() {
        solver.check()
    } else {
        solver.check_assumptions(assumptions)
    };
    let ms = t0.elapsed().as_millis() as u64;
    if gate.is_some_and(|g| !g.leave()) {
        return (Answer::Unknown(Undecided::Stopped), ms);
    }
    let answer = match r {
        SatResult::Sat => match solver.get_model() {
            Some(m) => Answer::Violated(m),
            None => Answer::Unknown(Undecided::Solver("the solver gave no model".into())),
        },
        SatResult::Unsat => Answer::Holds,
        SatResult::Unknown => match stop::requested() {
            // Interrupted by the watchdog: its reason, not Z3's ("canceled").
            Some(l) => Answer::Unknown(Undecided::Limit(l)),
            None => {
                let why = Undecided::from_z3(
                    &solver
                        .get_reason_unknown()
                        .unwrap_or_else(|| "unknown".into()),
                );
                // Z3 caught SIGINT itself (it does while it solves): the rest of the run
                // stops too.
                if why == Undecided::Limit(Limit::Interrupted) {
                    stop::request(Limit::Interrupted);
                }
                Answer::Unknown(why)
            }
        },
    };
    (answer, ms)
}

/// The message of a counterexample read from a model in which no property literal holds.
const NO_VIOLATION: &str = "no violation in the model";

/// Whether `cex` names the property it violates. A model that satisfies a "fails" question
/// makes one property literal true; one that does not (seen once, under load, as a
/// failure at line 0 whose witness had no step) is no failure to report.
pub fn names_a_violation(cex: &Counterexample) -> bool {
    !(cex.violation.loc.is_synth() && cex.violation.message == NO_VIOLATION)
}

pub fn truth(model: &Model, b: &Bool) -> bool {
    model
        .eval(b, true)
        .and_then(|v| v.as_bool())
        .unwrap_or(false)
}

pub fn value(model: &Model, v: &BV) -> Option<u64> {
    model.eval(v, true).and_then(|x| x.as_u64())
}

/// Renders a value as C: signed integers as signed, pointers as `&object`.
fn render(model: &Model, v: &BV, ty: &Type, s: &Session, prog: &Program) -> String {
    let Some(u) = value(model, v) else {
        return "?".into();
    };
    let tt = &prog.types;
    let bits = v.get_size();
    if ty.is_pointer(tt) {
        let lay = s.out.mem.lay;
        if u == 0 {
            return "NULL".into();
        }
        let obj = (u >> lay.off_bits) as usize;
        let off = u & ((1u64 << lay.off_bits) - 1);
        // In source terms: `&name`, a heap object by the line that allocated it, never an
        // internal object name or a raw address.
        let at = |off: u64| {
            if off == 0 {
                String::new()
            } else {
                format!(" (at byte {off})")
            }
        };
        return match s.out.mem.objects.get(obj).map(|o| &o.kind) {
            Some(ObjKind::Var(v)) if !is_internal_name(&prog.var(*v).name) => {
                let var = prog.var(*v);
                match tt.path_at(&var.ty, off, ty.pointee(tt), prog.data_model) {
                    Some(path) => format!("&{}{path}", var.name),
                    None => format!("&{}{}", var.name, at(off)),
                }
            }
            Some(ObjKind::Func(f)) => format!("&{}", prog.func(*f).name),
            Some(ObjKind::Heap(l)) => format!(
                "a heap object allocated at line {}{}",
                prog.sources.line(*l),
                at(off)
            ),
            Some(ObjKind::Str) => format!("a string literal{}", at(off)),
            // An integer converted to a pointer (`(void *)(intptr_t)5`, a thread's
            // result): the integer, as C would print it.
            Some(ObjKind::Null) if off != 0 => format!("(void *){off}"),
            Some(ObjKind::Null) => "NULL".into(),
            Some(_) => format!("another object{}", at(off)),
            None => "an invalid pointer".into(),
        };
    }
    if matches!(ty.resolve(tt), Type::Float(_)) {
        return float::render_bits(u, bits);
    }
    let signed = ty.int_kind(tt).is_some_and(|k| k.is_signed());
    if signed && bits < 64 && (u >> (bits - 1)) & 1 == 1 {
        format!("{}", (u as i64) - (1i64 << bits))
    } else if signed && bits == 64 {
        format!("{}", u as i64)
    } else {
        format!("{u}")
    }
}

use crate::ir::internal::is_internal_name;

pub fn signed_value(u: u64, bits: u32, signed: bool) -> i128 {
    if signed && bits < 64 && (u >> (bits - 1)) & 1 == 1 {
        u as i128 - (1i128 << bits)
    } else if signed && bits == 64 {
        u as i64 as i128
    } else {
        u as i128
    }
}

fn extract(
    s: &Session,
    model: &Model,
    index: &StmtIndex,
    prog: &Program,
) -> (Counterexample, Vec<(u32, u32)>) {
    let seq = &s.seq;
    let sp = &seq.program;
    // Which violation.
    let prop = s.out.props.iter().find(|p| truth(model, &p.lit));
    let violation = match prop {
        Some(p) => {
            let kind = match p.kind {
                PropKind::Assertion => ViolationKind::Assertion,
                PropKind::Error => ViolationKind::Error,
                PropKind::Deadlock => ViolationKind::Deadlock,
                PropKind::Unlock => ViolationKind::Unlock,
            };
            let thread = if kind == ViolationKind::Deadlock {
                None
            } else {
                p.point.map(|(k, _)| k)
            };
            let msg = match index.get(p.sid) {
                Some(e) => e.text.clone(),
                None => String::new(),
            };
            Violation::new(kind, p.loc, thread, msg, &prog.sources)
        }
        None => Violation::new(
            ViolationKind::Error,
            Loc::SYNTH,
            None,
            NO_VIOLATION.into(),
            &prog.sources,
        ),
    };
    let failed = prop.is_some_and(|p| p.kind != PropKind::Deadlock);
    // The executed points, in order: the schedule.
    let mut points: Vec<(u32, u32, StmtId)> = Vec::new();
    let mut steps: Vec<TraceStep> = Vec::new();
    let mut step_points: Vec<(u32, u32)> = Vec::new();
    let mut last_step_for: HashMap<(u32, StmtId), usize> = HashMap::new();
    // Where each live thread would resume at the end of the run.
    let mut resume: HashMap<u32, u32> = HashMap::new();
    // Every executed point, also those that name no statement (a thread's entry, its exit).
    let mut all_points: Vec<(u32, u32, StmtId)> = Vec::new();
    // Whether a statement ran after each of `all_points` (before the next point).
    let mut ran_after: Vec<bool> = Vec::new();
    // The source lines of the statements each of `all_points` ran (until its thread's
    // next point): a block's `ran` lists every line it executed, not only those that
    // head a switch point (a loop header's first test, a local update, a store).
    let mut point_lines: Vec<Vec<String>> = Vec::new();
    let mut last_point_of: HashMap<u32, usize> = HashMap::new();
    for ev in &s.out.events {
        if !truth(model, &ev.guard) {
            continue;
        }
        match &ev.kind {
            EventKind::Resume { k, p } => {
                resume.insert(*k, *p);
            }
            EventKind::Point => {
                // A thread's exit point names no statement of the program: it belongs to
                // the thread's last block ("until end").
                if let Some((k, p)) = ev.point {
                    last_point_of.insert(k, all_points.len());
                    all_points.push((k, p, ev.sid));
                    ran_after.push(false);
                    // The point's own statement, which may run no statement of its own
                    // that shows (a library call the rules turn into state changes).
                    point_lines.push(
                        index
                            .get(ev.sid)
                            .map(|e| {
                                format!("{}:{}", crate::seq::schedule::short_file(&e.file), e.line)
                            })
                            .into_iter()
                            .collect(),
                    );
                    if !ev.sid.is_none() {
                        points.push((k, p, ev.sid));
                    }
                }
            }
            EventKind::Exec => {
                let Some((k, p)) = ev.point else { continue };
                if let Some(r) = ran_after.last_mut() {
                    *r = true;
                }
                if ev.loc.is_synth() {
                    continue;
                }
                let (file, line) = match prog.sources.position(ev.loc) {
                    Some(p) => (p.file.to_string(), p.line),
                    None => (String::new(), 0),
                };
                if let Some(lines) = last_point_of
                    .get(&k)
                    .and_then(|i| point_lines.get_mut(*i))
                    .filter(|_| line > 0)
                {
                    let l = format!("{}:{line}", crate::seq::schedule::short_file(&file));
                    if lines.last() != Some(&l) {
                        lines.push(l);
                    }
                }
                let statement = index
                    .get(ev.sid)
                    .map(|e| e.text.clone())
                    .unwrap_or_default();
                // One source statement may be several statements of the sequential program.
                if steps
                    .last()
                    .is_some_and(|l| l.thread == k && l.sid == ev.sid)
                {
                    continue;
                }
                last_step_for.insert((k, ev.sid), steps.len());
                step_points.push((k, p));
                steps.push(TraceStep {
                    thread: k,
                    loc: ev.loc,
                    sid: ev.sid,
                    file,
                    line,
                    statement,
                    writes: vec![],
                });
            }
            EventKind::Assign {
                lhs,
                shown,
                value: v,
                ty,
            } => {
                let Some((k, _)) = ev.point else { continue };
                if lhs.starts_with("__seq") {
                    continue;
                }
                if let Some(i) = last_step_for.get(&(k, ev.sid)) {
                    let val = render(model, v, ty, s, sp);
                    if let Some(st) = steps.get_mut(*i) {
                        st.writes.push(Write {
                            lhs: lhs.clone(),
                            shown: shown.clone(),
                            value: val,
                        });
                    }
                }
            }
        }
    }
    // Blocks: maximal runs of one thread; each ends before its thread's next point. A
    // thread that ran from its entry to its exit without another point in between (no
    // point names one of its statements) still has its block, where it ran. (Another
    // thread's entry is not a block of its own: what it runs before its first named point
    // is local, and belongs to the block that point starts — a block for it would only
    // add a context switch that changes nothing.)
    let named_threads: HashSet<u32> = points.iter().map(|(k, _, _)| *k).collect();
    let mut runs: Vec<(u32, Vec<(u32, StmtId)>)> = Vec::new();
    // Each run's executed lines; a thread's lines that fall in no run (its entry, before
    // its first named point) go to its next run.
    let mut run_lines: Vec<Vec<String>> = Vec::new();
    let mut pending: HashMap<u32, Vec<String>> = HashMap::new();
    let mut has_run: HashSet<u32> = HashSet::new();
    for (i, (k, p, sid)) in all_points.iter().enumerate() {
        let named = !sid.is_none();
        let lines = point_lines.get(i).cloned().unwrap_or_default();
        match runs.last_mut() {
            Some((t, v)) if t == k => {
                if named {
                    v.push((*p, *sid));
                }
                if let Some(r) = run_lines.last_mut() {
                    r.extend(lines);
                }
            }
            _ if named
                || (!named_threads.contains(k)
                    && !has_run.contains(k)
                    && ran_after.get(i).copied().unwrap_or(false)) =>
            {
                runs.push((*k, if named { vec![(*p, *sid)] } else { vec![] }));
                let mut r = pending.remove(k).unwrap_or_default();
                r.extend(lines);
                run_lines.push(r);
                has_run.insert(*k);
            }
            _ => pending.entry(*k).or_default().extend(lines),
        }
    }
    // The code a slot ran, to name its points: the first that agrees with one of its named points; for a
    // slot that ran only unnamed points (its entry), the code of its first step's
    // function (the first code is not always it: a client named as the loader made its
    // own deadlock unreplayable).
    let slot_code = |k: u32| -> Option<&crate::seq::SlotCode> {
        let slot = seq.slots.get(k as usize)?;
        let first = steps
            .iter()
            .find(|st| st.thread == k)
            .and_then(|st| index.get(st.sid))
            .map(|e| e.func);
        slot.codes
            .iter()
            .find(|c| {
                points.iter().any(|(kk, p, sid)| {
                    *kk == k && c.points.get(*p as usize).is_some_and(|pi| pi.head == *sid)
                })
            })
            .or_else(|| slot.codes.iter().find(|c| Some(c.func) == first))
            .or_else(|| slot.codes.first())
    };
    // A block boundary "before S, occurrence n" counts the translated steps of S the
    // thread ran before (see `PointInfo::step_heads`), as the replay does.
    let mut step_count: HashMap<(u32, StmtId), u32> = HashMap::new();
    let mut occ_of_named: Vec<u32> = Vec::new();
    for (i, (k, p, sid)) in all_points.iter().enumerate() {
        if !sid.is_none() {
            occ_of_named.push(step_count.get(&(*k, *sid)).copied().unwrap_or(0) + 1);
        }
        // A concrete schedule's block stops *at* a point: the thread reaches it (the
        // marker runs), runs none of its statements, and resumes there in its next block.
        // That visit executed nothing and must not count, or every later `occurrence` of
        // the statement is one too many (the native replay would never stop there).
        // A thread that blocks there (a lock held by another thread) likewise, also when
        // it never runs again (a deadlock).
        let next_of_k = all_points.iter().skip(i + 1).position(|(kk, _, _)| kk == k);
        let stopped_here = !ran_after.get(i).copied().unwrap_or(true)
            && next_of_k.is_none_or(|d| d > 0 && all_points[i + 1 + d].1 == *p);
        if stopped_here {
            continue;
        }
        let heads = slot_code(*k)
            .and_then(|c| c.points.get(*p as usize))
            .map(|pi| pi.step_heads.as_slice())
            .unwrap_or(&[]);
        for h in heads {
            *step_count.entry((*k, *h)).or_insert(0) += 1;
        }
    }
    let mut occurrence_at: Vec<Vec<u32>> = Vec::new();
    let mut named = occ_of_named.into_iter();
    for (_, run) in &runs {
        occurrence_at.push(run.iter().map(|_| named.next().unwrap_or(1)).collect());
    }
    let mut blocks = Vec::new();
    for (i, (k, run)) in runs.iter().enumerate() {
        let next = runs
            .iter()
            .enumerate()
            .skip(i + 1)
            .find(|(_, (t, _))| t == k);
        let until = match next {
            Some((j, (_, nrun))) => match nrun.first() {
                Some((_, sid)) if !sid.is_none() => Until::before(
                    index.name(*sid),
                    occurrence_at[j].first().copied().unwrap_or(1),
                ),
                _ => Until::Keyword("end".into()),
            },
            // The thread's last block: it ends where the thread was preempted, unless it
            // finished (or would resume only at its exit).
            None => {
                let code_head = |p: u32| {
                    let pi = slot_code(*k)?.points.get(p as usize)?;
                    (pi.kind == crate::seq::PointKind::Code && !pi.head.is_none())
                        .then_some(pi.head)
                };
                // The end-of-run probes do not run after a failure; there a thread the
                // schedule stopped reached its stop's point and ran nothing after it.
                // "Until end" would let it run on before the threads after it (an
                // explorer's path replayed so lost the preemption its failure needed).
                // The failing thread's last point may have run nothing that shows
                // before its violation: its block runs to the failure. A run without a
                // failure has no such stop: a thread whose last point ran nothing is
                // blocked there (a join of a thread that never ran), and "until end"
                // replays it so.
                let stopped_at = || {
                    if !failed || violation.thread == Some(*k) {
                        return None;
                    }
                    let i = *last_point_of.get(k)?;
                    if ran_after.get(i).copied().unwrap_or(true) {
                        return None;
                    }
                    all_points.get(i).map(|(_, p, _)| *p)
                };
                let head = match resume.get(k) {
                    Some(p) => code_head(*p),
                    None => stopped_at().and_then(code_head),
                };
                // A thread held at a loop's unwinding cut stopped before the loop's next
                // iteration: the cut exists only at this bound, and a replay unrolled
                // deeper never meets it (the witness and JSON schedules of
                // `40_barrier_vf` and `fkp2013_variant-2` were refused for that).
                let head = head.map(|h| sp.loop_resumes.get(&h).copied().unwrap_or(h));
                match head {
                    Some(h) => Until::before(
                        index.name(h),
                        step_count.get(&(*k, h)).copied().unwrap_or(0) + 1,
                    ),
                    None => Until::Keyword("end".into()),
                }
            }
        };
        let mut ran: Vec<String> = Vec::new();
        for l in run_lines.get(i).into_iter().flatten() {
            if ran.last() != Some(l) {
                ran.push(l.clone());
            }
        }
        // Where no statement shows (a run of points only), the points' own lines.
        if ran.is_empty() {
            for (_, sid) in run {
                if let Some(e) = index.get(*sid) {
                    let l = format!("{}:{}", crate::seq::schedule::short_file(&e.file), e.line);
                    if ran.last() != Some(&l) {
                        ran.push(l);
                    }
                }
            }
        }
        blocks.push(Block {
            thread: *k,
            until,
            ran,
        });
    }
    // Threads: the functions the slots ran. For a deadlock, also the threads created that
    // never ran (of a slot with one function): a replay must probe them too, or a thread
    // blocked at its first statement is taken for not blocked and the deadlock is lost.
    let created = s
        .global_value(model, seq.vars.nthreads, false)
        .unwrap_or(0)
        .clamp(0, i128::from(u32::MAX)) as u32;
    let deadlock = violation.kind == ViolationKind::Deadlock;
    let mut threads = Vec::new();
    let mut late = Vec::new();
    for slot in &seq.slots {
        let ran = runs.iter().any(|(k, _)| *k == slot.id) || slot.id == 0;
        let never_ran_in_deadlock = deadlock && slot.id < created && slot.codes.len() == 1;
        if !(ran || never_ran_in_deadlock) {
            continue;
        }
        if !ran {
            // It runs last, until it blocks: where the deadlock holds it.
            late.push(slot.id);
        }
        let name = slot_code(slot.id)
            .map(|c| prog.func(c.func).name.clone())
            .unwrap_or_default();
        let name = if slot.id == 0 {
            "main".to_string()
        } else {
            name
        };
        threads.push(ThreadSpec::new(slot.id, name));
    }
    // Inputs, with their occurrence per thread and statement.
    let mut inputs = Vec::new();
    let mut input_steps = Vec::new();
    let mut in_count: HashMap<(u32, StmtId), u32> = HashMap::new();
    for inp in &s.out.inputs {
        let Some((k, _)) = inp.point else { continue };
        // A thread that never got a turn read no input, whatever its guard says.
        if inp.sid.is_none() || !threads.iter().any(|t| t.id == k) || !truth(model, &inp.guard) {
            continue;
        }
        let Some(u) = value(model, &inp.value) else {
            continue;
        };
        let signed = inp.ty.int_kind(&sp.types).is_some_and(|k| k.is_signed());
        let v = signed_value(u, inp.value.get_size(), signed);
        let text = matches!(inp.ty.resolve(&sp.types), Type::Float(_))
            .then(|| float::c_text(u, inp.value.get_size()));
        let c = in_count.entry((k, inp.sid)).or_insert(0);
        *c += 1;
        let occurrence = match &inp.occurrence {
            Some(o) => match value(model, o).and_then(|o| u32::try_from(o).ok()) {
                Some(o) => o,
                None => continue,
            },
            None => *c,
        };
        let at = index.name(inp.sid);
        inputs.push(InputValue {
            thread: k,
            at: at.clone(),
            occurrence,
            value: v,
            text,
        });
        input_steps.push(InputStep {
            thread: k,
            at,
            value: v,
        });
    }
    for id in late {
        blocks.push(Block {
            thread: id,
            until: Until::Keyword("end".into()),
            ran: vec![],
        });
    }
    let cex = Counterexample {
        checker: "builtin".into(),
        violation,
        schedule: Schedule {
            schema: crate::seq::schedule::SCHEMA.into(),
            threads,
            blocks,
            inputs,
        },
        steps,
        inputs: input_steps,
    };
    (cex, step_points)
}

/// Which properties a check looks for.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Properties {
    pub assertions: bool,
    pub deadlock: bool,
    /// Unlocks of a mutex no thread holds (ESBMC's and CBMC's "must hold lock upon
    /// unlock").
    pub unlocks: bool,
}

impl Properties {
    pub fn kinds(&self) -> Vec<PropKind> {
        let mut v = Vec::new();
        if self.assertions {
            v.push(PropKind::Assertion);
            v.push(PropKind::Error);
        }
        if self.deadlock {
            v.push(PropKind::Deadlock);
        }
        if self.unlocks {
            v.push(PropKind::Unlock);
        }
        v
    }
}

/// Remaining time before a deadline.
pub fn remaining(deadline: Option<Instant>) -> Option<Duration> {
    deadline.map(|d| d.saturating_duration_since(Instant::now()))
}

#[cfg(test)]
mod naming_tests {
    use crate::ir::internal::{is_internal_name, mentions_internal_name};

    #[test]
    fn internal_names_are_told_from_the_programs() {
        for n in [
            "__ret",
            "__ret_2",
            "__t",
            "__t_14",
            "__r_3",
            "__seq_pc",
            "__diag_1",
            "__atomic_value_1",
        ] {
            assert!(is_internal_name(n), "{n}");
        }
        for n in [
            "x",
            "t",
            "total",
            "__VERIFIER_nondet_int",
            "__thread_count",
            "ret",
        ] {
            assert!(!is_internal_name(n), "{n}");
        }
        assert!(mentions_internal_name("the value of `__t_3 + 1`"));
        assert!(!mentions_internal_name("the value of `count == 2`"));
    }
}

#[cfg(test)]
mod most_satisfied_tests {
    use z3::ast::Bool;

    use super::{Answer, Session, truth};
    use crate::ir::DataModel;
    use crate::passes::Prepared;
    use crate::seq::{self, Framework, Mode};

    fn session(bit_blasted: bool) -> Session {
        let src = "extern void reach_error(void); int x; int main(void) { x = 1; if (x != 1) reach_error(); return 0; }";
        let prog = crate::frontend::load_text("t.c", src, DataModel::Lp64).expect("parses");
        let prep = Prepared::new(prog);
        let opts = Framework::builtin().search_options(1, 1, 1, 1, false);
        let sq = seq::sequentialize(&prep.normalized, &prep.shared, Mode::Symbolic, &opts)
            .expect("sequentializes");
        let mut s = Session::new(sq, 3, None).expect("encodes");
        if bit_blasted {
            assert!(s.ask_on_bit_blaster());
        }
        s
    }

    /// Five soft literals, pairs of which exclude each other: at most three can hold, and
    /// the search finds three, on either solver.
    #[test]
    fn the_most_soft_literals_are_kept() {
        for bit_blasted in [false, true] {
            let mut s = session(bit_blasted);
            let soft: Vec<Bool> = (0..5)
                .map(|i| Bool::new_const(format!("soft_{i}")))
                .collect();
            let [a, b, c, d, _e] = &soft[..] else {
                unreachable!()
            };
            s.add(&Bool::and(&[a, b]).not());
            s.add(&Bool::and(&[c, d]).not());
            // The hard literal rules out b and d: a, c and e are what can hold.
            let hard = Bool::new_const("hard");
            s.add(&hard.implies(Bool::or(&[b, d]).not()));
            let Answer::Violated(m) = s.most_satisfied(std::slice::from_ref(&hard), &soft) else {
                panic!("a model exists");
            };
            let held: Vec<bool> = soft.iter().map(|l| truth(&m, l)).collect();
            assert_eq!(
                held,
                [true, false, true, false, true],
                "bit-blasted: {bit_blasted}"
            );
            // Without it, one of each excluding pair and e: three again, never four.
            let Answer::Violated(m) = s.most_satisfied(&[], &soft) else {
                panic!("a model exists");
            };
            let kept = soft.iter().filter(|l| truth(&m, l)).count();
            assert_eq!(kept, 3, "bit-blasted: {bit_blasted}");
            // A hard literal that contradicts the encoding: no model at all.
            let never = Bool::new_const("never");
            s.add(&never.implies(Bool::from_bool(false)));
            assert!(matches!(s.most_satisfied(&[never], &soft), Answer::Holds));
        }
    }

    /// A model in which no property literal holds (the program above never fails) gives
    /// a counterexample that names no violation, which `check` never reports as a failure.
    #[test]
    fn a_model_without_a_violated_property_names_none() {
        let src = "extern void reach_error(void); int x; int main(void) { x = 1; if (x != 1) reach_error(); return 0; }";
        let prog = crate::frontend::load_text("t.c", src, DataModel::Lp64).expect("parses");
        let prep = Prepared::new(prog);
        let mut s = session(false);
        let Answer::Violated(m) = s.most_satisfied(&[], &[]) else {
            panic!("the encoding has a model");
        };
        let cex = s.counterexample(&m, &prep.index, &prep.normalized);
        assert!(!super::names_a_violation(&cex), "{:?}", cex.violation);
    }
}

#[cfg(test)]
mod reason_tests {
    use super::{Limit, Undecided, z3_reason_summary};

    #[test]
    fn z3_reasons_are_kept_to_their_first_line() {
        let giveup = "(sat.giveup interpreted functions sent to SAT solver (declare-fun =\n             ((Array (_ BitVec 40) (_ BitVec 8))\n              (Array (_ BitVec 40) (_ BitVec 8)))\n             Bool)\n(declare-fun bit2bool ((_ BitVec 8)) Bool)\n)";
        assert_eq!(
            z3_reason_summary(giveup),
            "sat.giveup interpreted functions sent to SAT solver"
        );
        assert_eq!(
            z3_reason_summary("incomplete quantifiers"),
            "incomplete quantifiers"
        );
        assert_eq!(z3_reason_summary("\n"), "unknown");
        assert_eq!(
            Undecided::from_z3("canceled"),
            Undecided::Limit(Limit::Time)
        );
        assert_eq!(
            Undecided::from_z3(giveup).to_string(),
            "sat.giveup interpreted functions sent to SAT solver"
        );
    }
}

#[cfg(test)]
mod context_tests {
    use z3::ast::{Ast, BV};

    use super::{context_usable, on_usable_context};

    fn simplify_answers() -> bool {
        let x = BV::new_const("x", 8);
        let sum = (x.clone() + BV::from_u64(1, 8)) - BV::from_u64(1, 8);
        sum.simplify() == x
    }

    #[test]
    fn an_interrupt_outside_a_check_is_survived_on_a_fresh_context() {
        // On a thread of its own: the interrupt below spoils this thread's context.
        let r = std::thread::spawn(|| {
            assert!(context_usable());
            // Outside any check, as a gate's interrupt can arrive just before one starts.
            z3::Context::thread_local().interrupt();
            let spoiled = !context_usable();
            let fresh = on_usable_context(|| context_usable() && simplify_answers());
            (spoiled, fresh.ok())
        })
        .join()
        .ok();
        assert_eq!(r, Some((true, Some(true))));
    }

    #[test]
    fn a_usable_context_runs_on_its_own_thread() {
        let here = std::thread::current().id();
        let ran = on_usable_context(|| std::thread::current().id());
        assert_eq!(ran.ok(), Some(here));
    }
}
