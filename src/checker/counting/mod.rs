//! A counting argument that proves assertions about shared counters without exploring
//! interleavings, for programs whose state space is too large to search: many threads
//! each doing `t = x; x = t + 1;` while another asserts `x <= n`.
//!
//! A global `x` is a *counter* when its address is never taken and every write to it is
//! either a constant or `x = t + c` with `c >= 0`, where the local `t` only ever holds
//! values read from `x` and is assigned before the write (or an atomic `x++`/`x += c`).
//! Then, by induction over any interleaving, `x` never exceeds its largest constant plus
//! `c` for every increment run so far (the value read was at most the bound at the time of
//! the read, and the bound only grows), and never goes below its smallest constant. The
//! number of runs of each increment comes from [`runs`]: once per call or thread start of
//! its function, times the trip bounds of the loops around it; those bounds may read
//! variables [`prefix`] freezes (`n = nondet(); assume(n < 40); for (i = 0; i < n; i++)
//! pthread_create(..)`).
//!
//! An assertion is proved when its condition holds for every value each counter read
//! can have and the values the prefix leaves in the frozen variables, and every counter's
//! bound fits its type (so no increment wraps). Z3 decides both, with the prefix's exact
//! path condition. Anything outside these forms leaves the program to the search: the
//! argument never guesses.

mod encode;
mod joins;

pub use joins::prove_no_deadlock;
mod prefix;
mod runs;

use std::collections::{HashMap, HashSet};

use z3::ast::{BV, Bool};
use z3::{Params, SatResult, Solver};

use crate::analysis::hazards::Hazards;
use crate::analysis::shared::address_taken_vars;
use crate::ir::consteval::eval_int;
use crate::ir::print::expr_to_string;
use crate::ir::types::IntKind;
use crate::ir::visit;
use crate::ir::*;

use encode::{Leaves, MAX_FACTORS, fits, int, int_of, kind, max_of, sum};
use prefix::{Prefix, prefix};
use runs::{Count, RunCounts, Runs, own_exprs};

/// How long Z3 may take on one proof obligation.
const SOLVER_MS: u32 = 5_000;

/// Proves every reachable check of `prog`, or says why it cannot: `Ok` is the argument,
/// for the report.
///
/// The proof uses a Z3 context of its own: terms built in the thread's context change the
/// models its later queries return, and so which counterexample the search reports.
pub fn prove(prog: &Program, h: &Hazards) -> Result<String, String> {
    z3::with_z3_config(&z3::Config::new(), || prove_in_context(prog, h))
}

fn prove_in_context(prog: &Program, h: &Hazards) -> Result<String, String> {
    if let Some(loc) = h.opaque_check {
        return Err(format!(
            "a check at {} is in code seqloc cannot read",
            prog.sources.describe_line(loc)
        ));
    }
    let main = prog.main().ok_or("no main")?;
    let taken = address_taken_vars(prog);
    let prefix = prefix(prog, main, &h.reachable, &taken).ok_or("main has no body")?;
    let mut rc = RunCounts::new(prog, main, &h.reachable, &taken);
    let mut writes: HashMap<VarId, Vec<Write>> = HashMap::new();
    rc.each_stmt(|f, stmts, i, runs| {
        for (v, form) in write_forms(prog, &stmts[i]) {
            writes.entry(v).or_default().push(Write {
                func: f,
                stmts,
                i,
                form,
                runs: runs.clone(),
            });
        }
    });
    let mut checks = vec![];
    for f in &h.reachable {
        if let Some(b) = &prog.func(*f).body {
            find_checks(
                std::slice::from_ref(b),
                &mut vec![],
                Via::Top,
                *f,
                &mut checks,
            )?;
        }
    }
    let mut ctx = Ctx {
        prog,
        taken: &taken,
        prefix: &prefix,
        writes: &writes,
        counters: HashMap::new(),
        used: vec![],
    };
    let solver = Solver::new();
    let mut p = Params::new();
    // Ctrl-C is seqloc's to handle (see `builtin::new_solver`).
    p.set_bool("ctrl_c", false);
    p.set_u32("timeout", SOLVER_MS);
    solver.set_params(&p);
    let proved = |solver: &Solver, hyps: &[Bool], goal: &Bool| -> bool {
        solver.push();
        solver.assert(&prefix.reach);
        hyps.iter().for_each(|b| solver.assert(b));
        solver.assert(goal.not());
        let r = solver.check();
        solver.pop(1);
        r == SatResult::Unsat
    };
    for c in &checks {
        let mut side = vec![];
        let goal = {
            let mut l = CheckLeaves {
                ctx: &mut ctx,
                path: c.path.clone(),
                func: c.func,
                depth: 0,
                side: &mut side,
                refused: None,
            };
            let t = encode::truth(prog, c.cond, &mut l);
            let refused = l.refused.take();
            match t {
                Some(t) if c.must_hold => t,
                Some(t) => t.not(),
                None => {
                    return Err(refused.unwrap_or_else(|| {
                        format!(
                            "the check at {} is not about counters and frozen values",
                            prog.sources.describe_line(c.loc)
                        )
                    }));
                }
            }
        };
        if !proved(&solver, &side, &goal) {
            return Err(format!(
                "the counting bounds do not imply the check at {}",
                prog.sources.describe_line(c.loc)
            ));
        }
    }
    if checks.is_empty() {
        return Err("no check to prove".into());
    }
    let mut why = vec![];
    for v in ctx.used.clone() {
        let Some(Ok(c)) = ctx.counters.get(&v) else {
            continue;
        };
        let fits_type = c.high.bvsle(int(max_of(prog, c.kind)));
        let mut goals = c.finite.clone();
        goals.push(fits_type);
        if !proved(&solver, &[], &Bool::and(&goals)) {
            return Err(format!(
                "the bound of {} may not fit its type",
                prog.var(v).name
            ));
        }
        why.push(c.text.clone());
    }
    if why.is_empty() {
        return Ok(
            "every reachable assertion holds in every execution: it reads only values \
             main fixes before it starts a thread"
                .into(),
        );
    }
    Ok(format!(
        "every reachable assertion holds in every interleaving, by counting: {}",
        why.join("; ")
    ))
}

/// A check: `cond` must hold there (an assertion, or the `else` of an `if` around an
/// error call) or must not (the `then` of such an `if`).
struct Check<'p> {
    func: FuncId,
    loc: Loc,
    cond: &'p Expr,
    must_hold: bool,
    /// Where `cond` is evaluated.
    path: Vec<Frame<'p>>,
}

/// One level of the statement nesting: statement `i` of `stmts`, reached from the level
/// above through `via`.
#[derive(Clone, Copy)]
struct Frame<'p> {
    stmts: &'p [Stmt],
    i: usize,
    via: Via,
}

#[derive(Clone, Copy, PartialEq, Eq)]
enum Via {
    Top,
    Block,
    Then,
    Else,
    Loop,
    Switch,
}

fn find_checks<'p>(
    stmts: &'p [Stmt],
    path: &mut Vec<Frame<'p>>,
    via: Via,
    func: FuncId,
    out: &mut Vec<Check<'p>>,
) -> Result<(), String> {
    for (i, s) in stmts.iter().enumerate() {
        path.push(Frame { stmts, i, via });
        let mut nested = None;
        own_exprs(s, &mut |e| {
            visit::each_subexpr(e, &mut |x| {
                if let ExprKind::Intrinsic(k @ (Intrinsic::Assert | Intrinsic::Error), _) = &x.kind
                {
                    nested.get_or_insert((*k, x.loc));
                }
            })
        });
        match &s.kind {
            StmtKind::Expr(Expr {
                kind: ExprKind::Intrinsic(Intrinsic::Assert, args),
                loc,
                ..
            }) => {
                let cond = args.first().ok_or("an assertion without a condition")?;
                out.push(Check {
                    func,
                    loc: *loc,
                    cond,
                    must_hold: true,
                    path: path.clone(),
                });
            }
            StmtKind::Expr(Expr {
                kind: ExprKind::Intrinsic(Intrinsic::Error, _),
                loc,
                ..
            }) => {
                // The branch of the `if` that leads here must never be taken.
                let n = path.len();
                let ok = n >= 3
                    && matches!(path[n - 1].via, Via::Block)
                    && matches!(path[n - 2].via, Via::Then | Via::Else);
                // A label in the branch could be jumped to without passing the test.
                let branch = ok.then(|| &path[n - 2]).map(|p| &p.stmts[p.i]);
                let mut labelled = false;
                if let Some(b) = branch {
                    visit::each_stmt(b, &mut |s| {
                        labelled |= matches!(
                            s.kind,
                            StmtKind::Label(_) | StmtKind::Case { .. } | StmtKind::Default
                        )
                    });
                }
                let parent = (ok && !labelled)
                    .then(|| &path[n - 3])
                    .map(|p| &p.stmts[p.i]);
                let Some(Stmt {
                    kind: StmtKind::If { cond, .. },
                    ..
                }) = parent
                else {
                    return Err("an error call not directly under an if".into());
                };
                out.push(Check {
                    func,
                    loc: *loc,
                    cond,
                    must_hold: path[n - 2].via == Via::Else,
                    path: path[..n - 2].to_vec(),
                });
            }
            _ => {
                if let Some((_, loc)) = nested {
                    let _ = loc;
                    return Err("a check inside an expression".into());
                }
            }
        }
        match &s.kind {
            StmtKind::Block(ss) => find_checks(ss, path, Via::Block, func, out)?,
            StmtKind::If { then, els, .. } => {
                find_checks(std::slice::from_ref(then), path, Via::Then, func, out)?;
                if let Some(e) = els {
                    find_checks(std::slice::from_ref(e), path, Via::Else, func, out)?;
                }
            }
            StmtKind::While { body, .. }
            | StmtKind::DoWhile { body, .. }
            | StmtKind::For { body, .. } => {
                find_checks(std::slice::from_ref(body), path, Via::Loop, func, out)?
            }
            StmtKind::Switch { body, .. } => {
                find_checks(std::slice::from_ref(body), path, Via::Switch, func, out)?
            }
            _ => {}
        }
        path.pop();
    }
    Ok(())
}

/// How a statement writes a global.
#[derive(Clone, Copy, Debug)]
enum Form {
    /// `x = constant`, the constant converted to `x`'s type.
    Reset(i128),
    /// `x = t + by` with `t` a local that should hold a value of `x`; `None` for an
    /// atomic `x++` or `x += by`.
    Step {
        by: i128,
        holder: Option<VarId>,
    },
    Other,
}

struct Write<'p> {
    func: FuncId,
    stmts: &'p [Stmt],
    i: usize,
    form: Form,
    runs: Count,
}

/// The globals a statement writes, each with the form of the write.
fn write_forms(prog: &Program, s: &Stmt) -> Vec<(VarId, Form)> {
    let mut targets = vec![];
    own_exprs(s, &mut |e| {
        visit::each_subexpr(e, &mut |x| match &x.kind {
            ExprKind::Assign(l, _)
            | ExprKind::OpAssign { lhs: l, .. }
            | ExprKind::IncDec { e: l, .. } => {
                if let ExprKind::Var(v) = l.peel().kind {
                    if prog.var(v).kind == VarKind::Global {
                        targets.push(v);
                    }
                }
            }
            _ => {}
        })
    });
    let top = match &s.kind {
        StmtKind::Expr(e) => Some(e),
        _ => None,
    };
    targets
        .iter()
        .map(|v| {
            let form = match top {
                Some(e) if targets.len() == 1 => form_of(prog, *v, e),
                _ => Form::Other,
            };
            (*v, form)
        })
        .collect()
}

fn form_of(prog: &Program, v: VarId, e: &Expr) -> Form {
    let (tt, dm) = (&prog.types, prog.data_model);
    let Some(kg) = kind(prog, &prog.var(v).ty) else {
        return Form::Other;
    };
    let is_v = |x: &Expr| matches!(x.kind, ExprKind::Var(y) if y == v);
    let constant = |x: &Expr| eval_int(x, tt, dm);
    match &e.kind {
        ExprKind::Assign(l, r) if is_v(l) => {
            if let Some(c) = constant(r) {
                return Form::Reset(kg.wrap(c, dm));
            }
            let ExprKind::Binary(BinOp::Add, a, b) = &r.peel().kind else {
                return Form::Other;
            };
            let Some(ka) = kind(prog, &r.peel().ty) else {
                return Form::Other;
            };
            for (x, y) in [(a, b), (b, a)] {
                let ExprKind::Var(t) = x.peel().kind else {
                    continue;
                };
                // `x = x + c`: the read is a value `x` had, even if another thread
                // writes between the read and the write.
                if t == v {
                    match constant(y) {
                        Some(by) if by >= 0 && fits(prog, kg, ka) => {
                            return Form::Step { by, holder: None };
                        }
                        _ => continue,
                    }
                }
                let Some(kt) = kind(prog, &prog.var(t).ty) else {
                    continue;
                };
                let Some(by) = constant(y) else {
                    continue;
                };
                if prog.var(t).kind == VarKind::Local
                    && by >= 0
                    && fits(prog, kg, kt)
                    && fits(prog, kt, ka)
                {
                    return Form::Step {
                        by,
                        holder: Some(t),
                    };
                }
            }
            Form::Other
        }
        ExprKind::OpAssign {
            op: BinOp::Add,
            lhs,
            rhs,
            op_ty,
        } if is_v(lhs) => match (constant(rhs), kind(prog, op_ty)) {
            (Some(by), Some(ko)) if by >= 0 && fits(prog, kg, ko) => {
                Form::Step { by, holder: None }
            }
            _ => Form::Other,
        },
        ExprKind::IncDec {
            inc: true, e: x, ..
        } if is_v(x) => Form::Step {
            by: 1,
            holder: None,
        },
        _ => Form::Other,
    }
}

/// Whether the local `t` of `f` holds a value `x` had, when `stmts[i]` runs: every
/// assignment to `t` reads `x`, and one comes before `stmts[i]` in its block with no label
/// (a jump target) between.
fn holds_value_of(prog: &Program, f: FuncId, stmts: &[Stmt], i: usize, t: VarId, x: VarId) -> bool {
    let Some(body) = &prog.func(f).body else {
        return false;
    };
    let reads_x = |e: &Expr| matches!(e.peel().kind, ExprKind::Var(y) if y == x);
    let mut ok = true;
    visit::each_stmt(body, &mut |s| {
        if let StmtKind::Decl {
            var,
            init: Some(init),
        } = &s.kind
        {
            if *var == t && !matches!(init, Init::Expr(e) if reads_x(e)) {
                ok = false;
            }
        }
    });
    visit::each_expr(body, &mut |e| match &e.kind {
        ExprKind::Assign(l, r) if matches!(l.peel().kind, ExprKind::Var(y) if y == t) => {
            ok &= reads_x(r)
        }
        ExprKind::OpAssign { lhs: l, .. } | ExprKind::IncDec { e: l, .. } if matches!(l.peel().kind, ExprKind::Var(y) if y == t) => {
            ok = false
        }
        _ => {}
    });
    if !ok {
        return false;
    }
    for s in stmts[..i].iter().rev() {
        match &s.kind {
            StmtKind::Decl { var, init: Some(_) } if *var == t => return true,
            StmtKind::Expr(Expr {
                kind: ExprKind::Assign(l, _),
                ..
            }) if matches!(l.kind, ExprKind::Var(y) if y == t) => return true,
            StmtKind::Decl { var, init: None } if *var == t => return false,
            StmtKind::Label(_) | StmtKind::Case { .. } | StmtKind::Default => return false,
            _ => {}
        }
    }
    false
}

/// A counter's bounds, once established.
struct Counter {
    kind: IntKind,
    low: i128,
    /// The largest value, given the frozen values.
    high: BV,
    /// Loops with a `<=` bound end only if the bound is below the type's maximum.
    finite: Vec<Bool>,
    text: String,
}

struct Ctx<'a, 'p> {
    prog: &'p Program,
    taken: &'a HashSet<VarId>,
    prefix: &'a Prefix,
    writes: &'a HashMap<VarId, Vec<Write<'p>>>,
    counters: HashMap<VarId, Result<Counter, String>>,
    used: Vec<VarId>,
}

impl Ctx<'_, '_> {
    fn counter(&mut self, v: VarId) -> Result<&Counter, String> {
        if !self.counters.contains_key(&v) {
            let c = self.establish(v);
            self.counters.insert(v, c);
        }
        if !self.used.contains(&v) {
            self.used.push(v);
        }
        match &self.counters[&v] {
            Ok(c) => Ok(c),
            Err(e) => Err(e.clone()),
        }
    }

    fn establish(&self, v: VarId) -> Result<Counter, String> {
        let prog = self.prog;
        let var = prog.var(v);
        let name = &var.name;
        let k = kind(prog, &var.ty).ok_or_else(|| format!("{name} is not an integer"))?;
        if self.taken.contains(&v) || var.thread_local || var.is_extern {
            return Err(format!(
                "{name} may be written through a pointer or per thread"
            ));
        }
        let init = match &var.init {
            None => 0,
            Some(Init::Expr(e)) => k.wrap(
                eval_int(e, &prog.types, prog.data_model)
                    .ok_or_else(|| format!("{name} starts at a value that is not constant"))?,
                prog.data_model,
            ),
            Some(Init::List(_)) => return Err(format!("{name} has a braced initializer")),
        };
        let (mut low, mut high) = (init, init);
        let mut terms = vec![];
        let mut finite = vec![];
        let mut steps = vec![];
        for w in self.writes.get(&v).map(Vec::as_slice).unwrap_or_default() {
            let loc = w.stmts[w.i].loc;
            let at = prog.sources.describe_line(loc);
            match w.form {
                Form::Reset(c) => {
                    low = low.min(c);
                    high = high.max(c);
                }
                Form::Step { by, holder } => {
                    if let Some(t) = holder {
                        if self.taken.contains(&t)
                            || !holds_value_of(prog, w.func, w.stmts, w.i, t, v)
                        {
                            return Err(format!(
                                "the write to {name} at {at} adds to a value not read from it"
                            ));
                        }
                    }
                    let runs = w.runs.clone()?;
                    let (n, fin) = self.runs_int(&runs).ok_or_else(|| {
                        format!("the runs of {at} depend on more than frozen values")
                    })?;
                    finite.extend(fin);
                    terms.push(int(by).bvmul(&n));
                    steps.push(format!(
                        "by {by} at {at}, at most {} times",
                        self.describe(&runs)
                    ));
                }
                Form::Other => return Err(format!("{name} is written otherwise at {at}")),
            }
        }
        if steps.is_empty() {
            return Err(format!("{name} is never increased"));
        }
        terms.push(int(high));
        let resets = if (low, high) == (init, init) {
            String::new()
        } else {
            format!(", is otherwise set only to constants from {low} to {high},")
        };
        let text = format!(
            "{name} starts at {init}{resets} and only grows from a value it held: {}",
            steps.join("; ")
        );
        Ok(Counter {
            kind: k,
            low,
            high: sum(&terms),
            finite,
            text,
        })
    }

    /// A run count as an integer term over the frozen values, with the conditions under
    /// which its loops end.
    fn runs_int(&self, runs: &Runs) -> Option<(BV, Vec<Bool>)> {
        let mut terms = vec![];
        let mut finite = vec![];
        for (c, trips) in &runs.0 {
            if *c >= 1 << 62 || trips.len() > MAX_FACTORS {
                return None;
            }
            let mut product = int(*c as i128);
            for t in trips {
                let e = encode::value(self.prog, &t.bound, &mut Frozen(self.prefix))?;
                let e = int_of(&e, t.kind);
                if t.inclusive {
                    finite.push(e.bvslt(int(max_of(self.prog, t.kind))));
                }
                let n = e.bvsub(int(t.start - t.inclusive as i128));
                product = product.bvmul(n.bvsgt(int(0)).ite(&n, &int(0)));
            }
            terms.push(product);
        }
        Some((sum(&terms), finite))
    }

    fn describe(&self, runs: &Runs) -> String {
        let terms: Vec<String> = runs
            .0
            .iter()
            .map(|(c, trips)| {
                let mut parts: Vec<String> = vec![];
                if *c != 1 || trips.is_empty() {
                    parts.push(c.to_string());
                }
                for t in trips {
                    let b = expr_to_string(self.prog, &t.bound);
                    let off = t.start - t.inclusive as i128;
                    parts.push(match off {
                        0 => b,
                        o if o > 0 => format!("({b} - {o})"),
                        o => format!("({b} + {})", -o),
                    });
                }
                parts.join("·")
            })
            .collect();
        if terms.is_empty() {
            "0".into()
        } else {
            terms.join(" + ")
        }
    }
}

/// Only the frozen variables have values.
struct Frozen<'a>(&'a Prefix);

impl Leaves for Frozen<'_> {
    fn leaf(&mut self, _prog: &Program, v: VarId) -> Option<BV> {
        self.0.frozen.get(&v).cloned()
    }
}

/// The values a check's condition reads: frozen values, counters (any value within their
/// bounds, each read on its own), and locals through the assignments that reach the check.
struct CheckLeaves<'c, 'a, 'p> {
    ctx: &'c mut Ctx<'a, 'p>,
    path: Vec<Frame<'p>>,
    func: FuncId,
    depth: u32,
    side: &'c mut Vec<Bool>,
    refused: Option<String>,
}

impl Leaves for CheckLeaves<'_, '_, '_> {
    fn leaf(&mut self, prog: &Program, v: VarId) -> Option<BV> {
        if let Some(x) = self.ctx.prefix.frozen.get(&v) {
            return Some(x.clone());
        }
        let var = prog.var(v);
        match var.kind {
            VarKind::Global => match self.ctx.counter(v) {
                Ok(c) => {
                    let (k, low, high) = (c.kind, c.low, c.high.clone());
                    let x = BV::fresh_const(&var.name, encode::bits(prog, k));
                    let i = int_of(&x, k);
                    self.side
                        .push(Bool::and(&[i.bvsge(int(low)), i.bvsle(&high)]));
                    Some(x)
                }
                Err(e) => {
                    self.refused.get_or_insert(e);
                    None
                }
            },
            VarKind::Local if var.func == Some(self.func) && !self.ctx.taken.contains(&v) => {
                if self.depth > 16 {
                    return None;
                }
                let (e, path) = reaching_def(&self.path, v)?;
                let mut inner = CheckLeaves {
                    ctx: self.ctx,
                    path,
                    func: self.func,
                    depth: self.depth + 1,
                    side: self.side,
                    refused: None,
                };
                let r = encode::value(prog, e, &mut inner);
                if let Some(why) = inner.refused {
                    self.refused.get_or_insert(why);
                }
                r
            }
            _ => None,
        }
    }
}

/// The assignment to the local `t` that every execution reaching the last frame of `path`
/// ran last, and where it is.
fn reaching_def<'p>(path: &[Frame<'p>], t: VarId) -> Option<(&'p Expr, Vec<Frame<'p>>)> {
    let mut k = path.len().checked_sub(1)?;
    let mut before = path[k].i;
    loop {
        let Frame { stmts, via, .. } = path[k];
        for j in (0..before).rev() {
            let s = &stmts[j];
            let def = match &s.kind {
                StmtKind::Decl {
                    var,
                    init: Some(Init::Expr(e)),
                } if *var == t => Some(e),
                StmtKind::Expr(Expr {
                    kind: ExprKind::Assign(l, r),
                    ..
                }) if matches!(l.kind, ExprKind::Var(y) if y == t) => Some(&**r),
                _ => None,
            };
            if let Some(e) = def {
                let mut at = path[..k].to_vec();
                at.push(Frame { stmts, i: j, via });
                return Some((e, at));
            }
            if matches!(
                s.kind,
                StmtKind::Label(_) | StmtKind::Case { .. } | StmtKind::Default
            ) || writes_var(s, t)
            {
                return None;
            }
        }
        match via {
            Via::Top | Via::Switch => return None,
            // An earlier iteration may have written `t` after this point.
            Via::Loop if writes_var(&path[k - 1].stmts[path[k - 1].i], t) => return None,
            _ => {}
        }
        k -= 1;
        before = path[k].i;
    }
}

fn writes_var(s: &Stmt, t: VarId) -> bool {
    let mut w = HashSet::new();
    prefix::writes(s, &mut w);
    w.contains(&t)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::analysis::hazards::hazards;

    fn prove_src(body: &str) -> Result<String, String> {
        let src = format!(
            "typedef unsigned long pthread_t;\n\
             int pthread_create(pthread_t *, void *, void *(*)(void *), void *);\n\
             int pthread_join(pthread_t, void **);\n\
             void reach_error(void);\n\
             void __VERIFIER_assert(int);\n\
             void assume_abort_if_not(int);\n\
             int __VERIFIER_nondet_int(void);\n\
             {body}"
        );
        let mut prog = crate::frontend::load_text("t.c", &src, crate::ir::types::DataModel::Lp64)
            .expect("parses");
        crate::passes::normalize::normalize(&mut prog);
        prove(&prog, &hazards(&prog))
    }

    /// A checker thread, `workers` incrementing threads started by `main`'s loop `create`,
    /// and the assertion `check`.
    fn racing(decls: &str, worker: &str, setup: &str, create: &str, check: &str) -> String {
        format!(
            "{decls}\n\
             void *checker(void *a) {{ {check} return 0; }}\n\
             void *worker(void *a) {{ {worker} return 0; }}\n\
             int main() {{ pthread_t t1, t2; int i; {setup}\n\
               pthread_create(&t1, 0, checker, 0);\n\
               {create}\n\
               return 0; }}"
        )
    }

    /// The argument refuses, with a reason (printed, for a reader of the test log).
    fn refused(src: &str) {
        match prove_src(src) {
            Ok(why) => panic!("proved: {why}"),
            Err(e) => eprintln!("refused: {e}"),
        }
    }

    const INC: &str = "int t; t = x; x = t + 1;";
    const LOOP_N: &str = "for (i = 0; i < n; i++) pthread_create(&t2, 0, worker, 0);";

    #[test]
    fn fifty_increments_never_pass_fifty() {
        let p = racing(
            "volatile int x;",
            INC,
            "x = 0;",
            "for (i = 0; i < 50; i++) pthread_create(&t2, 0, worker, 0);",
            "__VERIFIER_assert(x <= 50);",
        );
        let why = prove_src(&p).expect("proved");
        assert!(why.contains("at most 50 times"), "{why}");
    }

    #[test]
    fn fifty_one_increments_may_pass_fifty() {
        let p = racing(
            "volatile int x;",
            INC,
            "x = 0;",
            "for (i = 0; i < 51; i++) pthread_create(&t2, 0, worker, 0);",
            "__VERIFIER_assert(x <= 50);",
        );
        refused(&p);
        let le = racing(
            "volatile int x;",
            INC,
            "",
            "for (i = 0; i <= 50; i++) pthread_create(&t2, 0, worker, 0);",
            "__VERIFIER_assert(x <= 50);",
        );
        refused(&le);
    }

    #[test]
    fn a_bound_read_from_an_input_needs_the_assumption_that_limits_it() {
        let with = racing(
            "volatile int x; volatile int n;",
            INC,
            "n = __VERIFIER_nondet_int(); assume_abort_if_not(n > 0);",
            LOOP_N,
            "__VERIFIER_assert(x <= n);",
        );
        prove_src(&with).expect("proved");
        // With n < 0 no worker starts, and 0 <= n fails.
        let without = racing(
            "volatile int x; volatile int n;",
            INC,
            "n = __VERIFIER_nondet_int();",
            LOOP_N,
            "__VERIFIER_assert(x <= n);",
        );
        refused(&without);
        // A bound main changes after starting threads is not frozen.
        let moved = racing(
            "volatile int x; volatile int n;",
            INC,
            "n = __VERIFIER_nondet_int(); assume_abort_if_not(n > 0);",
            &format!("{LOOP_N} n = n - 1;"),
            "__VERIFIER_assert(x <= n);",
        );
        refused(&moved);
    }

    #[test]
    fn larger_steps_and_more_runs_count() {
        let twice = racing(
            "volatile int x; volatile int n;",
            "int j, t; for (j = 0; j < 2; j++) { t = x; x = t + 1; }",
            "n = __VERIFIER_nondet_int(); assume_abort_if_not(n > 0 && n < 1000);",
            LOOP_N,
            "__VERIFIER_assert(x <= 2 * n);",
        );
        prove_src(&twice).expect("proved");
        let tight = twice.replace("x <= 2 * n", "x <= 2 * n - 1");
        refused(&tight);
        let by_two = racing(
            "volatile int x; volatile int n;",
            "int t; t = x; x = t + 2;",
            "n = __VERIFIER_nondet_int(); assume_abort_if_not(n > 0);",
            LOOP_N,
            "__VERIFIER_assert(x <= n);",
        );
        refused(&by_two);
    }

    #[test]
    fn an_increment_of_another_value_is_not_counted() {
        let p = racing(
            "volatile int x; volatile int y;",
            "int t; t = y; x = t + 1;",
            "",
            "for (i = 0; i < 5; i++) pthread_create(&t2, 0, worker, 0);",
            "__VERIFIER_assert(x <= 5);",
        );
        refused(&p);
        // `t` is assigned from `x` on one path only.
        let partial = racing(
            "volatile int x; int c;",
            "int t; if (c) t = x; x = t + 1;",
            "",
            "for (i = 0; i < 5; i++) pthread_create(&t2, 0, worker, 0);",
            "__VERIFIER_assert(x <= 5);",
        );
        refused(&partial);
        let down = racing(
            "volatile int x;",
            "int t; t = x; x = t - 1;",
            "",
            "for (i = 0; i < 5; i++) pthread_create(&t2, 0, worker, 0);",
            "__VERIFIER_assert(x <= 5);",
        );
        refused(&down);
    }

    #[test]
    fn a_counter_that_would_wrap_proves_nothing() {
        // After 128 increments a signed char is negative.
        let p = racing(
            "volatile signed char x;",
            "signed char t; t = x; x = t + 1;",
            "",
            "for (i = 0; i < 200; i++) pthread_create(&t2, 0, worker, 0);",
            "__VERIFIER_assert(x >= 0);",
        );
        refused(&p);
        let fits = p.replace("i < 200", "i < 100");
        prove_src(&fits).expect("proved");
    }

    #[test]
    fn threads_started_any_number_of_times_are_not_counted() {
        // Through a pointer.
        let p = format!(
            "volatile int x; void *(*start)(void *);\n\
             void *worker(void *a) {{ {INC} return 0; }}\n\
             void *checker(void *a) {{ __VERIFIER_assert(x <= 5); return 0; }}\n\
             int main() {{ pthread_t t; int i; start = worker;\n\
               pthread_create(&t, 0, checker, 0);\n\
               for (i = 0; i < 5; i++) pthread_create(&t, 0, start, 0); return 0; }}"
        );
        refused(&p);
        // In a loop whose `continue` skips the increment of its counter.
        let skip = racing(
            "volatile int x; int c;",
            INC,
            "",
            "i = 0; while (i < 5) { pthread_create(&t2, 0, worker, 0); if (c) continue; i++; }",
            "__VERIFIER_assert(x <= 5);",
        );
        refused(&skip);
        // Through a backward jump.
        let again = racing(
            "volatile int x; int c;",
            &format!("again: {{ {INC} }} if (c) goto again;"),
            "",
            "for (i = 0; i < 5; i++) pthread_create(&t2, 0, worker, 0);",
            "__VERIFIER_assert(x <= 5);",
        );
        refused(&again);
    }

    #[test]
    fn a_counter_written_through_a_pointer_is_not_a_counter() {
        let p = racing(
            "volatile int x; volatile int *p = &x;",
            INC,
            "",
            "for (i = 0; i < 5; i++) pthread_create(&t2, 0, worker, 0); *p = 100;",
            "__VERIFIER_assert(x <= 5);",
        );
        refused(&p);
    }

    #[test]
    fn an_error_call_under_an_if_is_a_check() {
        let p = racing(
            "volatile int x;",
            INC,
            "",
            "for (i = 0; i < 5; i++) pthread_create(&t2, 0, worker, 0);",
            "int v = x; if (v > 5) reach_error();",
        );
        prove_src(&p).expect("proved");
        let bad = p.replace("v > 5", "v > 4");
        refused(&bad);
    }

    #[test]
    fn a_check_about_anything_else_is_left_to_the_search() {
        let p = racing(
            "volatile int x; int y;",
            &format!("{INC} y = 1;"),
            "",
            "for (i = 0; i < 5; i++) pthread_create(&t2, 0, worker, 0);",
            "__VERIFIER_assert(y == 0);",
        );
        refused(&p);
    }
}
