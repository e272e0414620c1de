//! How many times a statement can run, over the whole execution and all threads: a sum
//! of products of loop trip bounds, each either a constant (`prog.loop_bounds`) or a
//! counted loop `for (i = a; i < e; i++)` whose bound `e` only reads frozen variables.
//!
//! A function runs once per call and once per `pthread_create` that names it; `main`
//! runs once. A function whose address goes anywhere else (a variable, a table, another
//! call's argument) may run any number of times, and so may code in a function with a
//! jump backwards or into a loop, or in a recursive one.

use std::collections::{HashMap, HashSet};

use crate::analysis::loops::continues;
use crate::ir::consteval::eval_int;
use crate::ir::known::{Known, classify};
use crate::ir::visit::{Visitor, walk_expr};
use crate::ir::*;

use super::encode::kind;

/// A bound on how many times something runs: `Σ coeff · Π trips`.
#[derive(Clone, Debug)]
pub struct Runs(pub Vec<(u128, Vec<Trips>)>);

/// A counted loop's trip bound: `max(0, bound - start)` iterations (one more when
/// `inclusive`), `bound` read in the comparison's type `kind`.
#[derive(Clone, Debug)]
pub struct Trips {
    pub bound: Expr,
    pub start: i128,
    pub inclusive: bool,
    pub kind: crate::ir::types::IntKind,
}

pub type Count = Result<Runs, String>;

impl Runs {
    pub fn constant(n: u128) -> Runs {
        Runs(vec![(n, vec![])])
    }

    pub fn zero() -> Runs {
        Runs(vec![])
    }

    pub fn plus(mut self, o: Runs) -> Runs {
        self.0.extend(o.0);
        self
    }

    pub fn times(&self, o: &Runs) -> Result<Runs, String> {
        let mut out = vec![];
        for (a, ta) in &self.0 {
            for (b, tb) in &o.0 {
                let c = a.checked_mul(*b).ok_or("a run count overflows")?;
                let mut t = ta.clone();
                t.extend(tb.iter().cloned());
                out.push((c, t));
            }
        }
        Ok(Runs(out))
    }
}

/// Function run counts of one program.
pub struct RunCounts<'p> {
    prog: &'p Program,
    main: FuncId,
    reachable: HashSet<FuncId>,
    taken: &'p HashSet<VarId>,
    /// Where each function is called or started: the caller and how often that
    /// statement runs per run of the caller.
    sites: HashMap<FuncId, Vec<(FuncId, Count)>>,
    /// Functions whose address goes somewhere seqloc does not follow.
    escapes: HashMap<FuncId, Loc>,
    memo: HashMap<FuncId, Count>,
    busy: HashSet<FuncId>,
}

impl<'p> RunCounts<'p> {
    pub fn new(
        prog: &'p Program,
        main: FuncId,
        reachable: &[FuncId],
        taken: &'p HashSet<VarId>,
    ) -> RunCounts<'p> {
        let mut rc = RunCounts {
            prog,
            main,
            reachable: reachable.iter().copied().collect(),
            taken,
            sites: HashMap::new(),
            escapes: HashMap::new(),
            memo: HashMap::new(),
            busy: HashSet::new(),
        };
        let mut found: Vec<(FuncId, FuncId, Count)> = vec![];
        let mut escapes: Vec<(FuncId, Loc)> = vec![];
        for f in reachable {
            each_stmt_runs(prog, *f, taken, &mut |stmts, i, runs| {
                let mut refs = Refs {
                    prog,
                    calls: vec![],
                    escapes: vec![],
                };
                own_exprs(&stmts[i], &mut |e| refs.visit_expr(e));
                for g in refs.calls {
                    found.push((g, *f, runs.clone()));
                }
                escapes.extend(refs.escapes);
            });
        }
        for v in &prog.vars {
            if let Some(init) = &v.init {
                let mut refs = Refs {
                    prog,
                    calls: vec![],
                    escapes: vec![],
                };
                refs.visit_init(init);
                escapes.extend(refs.escapes);
                escapes.extend(refs.calls.into_iter().map(|g| (g, v.loc)));
            }
        }
        for (g, caller, runs) in found {
            rc.sites.entry(g).or_default().push((caller, runs));
        }
        for (g, loc) in escapes {
            rc.escapes.entry(g).or_insert(loc);
        }
        rc
    }

    /// How many times `f` runs, at most.
    pub fn of_func(&mut self, f: FuncId) -> Count {
        if let Some(c) = self.memo.get(&f) {
            return c.clone();
        }
        let name = &self.prog.func(f).name;
        if let Some(loc) = self.escapes.get(&f) {
            return Err(format!(
                "the address of {name} escapes at {}",
                self.prog.sources.describe_line(*loc)
            ));
        }
        if !self.busy.insert(f) {
            return Err(format!("{name} is recursive"));
        }
        let sites = self.sites.get(&f).cloned().unwrap_or_default();
        let mut total = if f == self.main {
            if !sites.is_empty() {
                self.busy.remove(&f);
                return Err("main is called".into());
            }
            Runs::constant(1)
        } else {
            Runs::zero()
        };
        let mut out = Ok(());
        for (caller, within) in sites {
            let r = self
                .of_func(caller)
                .and_then(|c| c.times(&within?))
                .map(|r| total.clone().plus(r));
            match r {
                Ok(t) => total = t,
                Err(e) => {
                    out = Err(e);
                    break;
                }
            }
        }
        self.busy.remove(&f);
        let c = out.map(|_| total);
        self.memo.insert(f, c.clone());
        c
    }

    /// Calls `each` with every statement of a reachable function and how many times it
    /// runs in all.
    pub fn each_stmt(&mut self, mut each: impl FnMut(FuncId, &'p [Stmt], usize, Count)) {
        let funcs: Vec<FuncId> = self.reachable.iter().copied().collect();
        for f in funcs {
            let total = self.of_func(f);
            let (prog, taken) = (self.prog, self.taken);
            each_stmt_runs(prog, f, taken, &mut |stmts, i, within| {
                let runs = match (&total, within) {
                    (Ok(t), Ok(w)) => t.times(&w),
                    (Err(e), _) => Err(e.clone()),
                    (_, Err(e)) => Err(e),
                };
                each(f, stmts, i, runs)
            });
        }
    }
}

/// The expressions a statement evaluates itself (not those of the statements it holds).
pub fn own_exprs<'a>(s: &'a Stmt, f: &mut dyn FnMut(&'a Expr)) {
    match &s.kind {
        StmtKind::Decl {
            init: Some(Init::Expr(e)),
            ..
        }
        | StmtKind::Expr(e)
        | StmtKind::If { cond: e, .. }
        | StmtKind::While { cond: e, .. }
        | StmtKind::DoWhile { cond: e, .. }
        | StmtKind::Switch { cond: e, .. }
        | StmtKind::Return(Some(e)) => f(e),
        StmtKind::Decl {
            init: Some(Init::List(items)),
            ..
        } => {
            fn list<'a>(items: &'a [InitItem], f: &mut dyn FnMut(&'a Expr)) {
                for i in items {
                    match &i.init {
                        Init::Expr(e) => f(e),
                        Init::List(l) => list(l, f),
                    }
                }
            }
            list(items, f)
        }
        StmtKind::For {
            cond, step, init, ..
        } => {
            init.iter().for_each(|s| own_exprs(s, f));
            cond.iter().chain(step.iter()).for_each(f);
        }
        _ => {}
    }
}

/// Direct calls and thread starts of named functions; every other use of a function's
/// address escapes.
struct Refs<'p> {
    prog: &'p Program,
    calls: Vec<FuncId>,
    escapes: Vec<(FuncId, Loc)>,
}

fn strip(e: &Expr) -> &Expr {
    match &e.kind {
        ExprKind::Cast { e, .. } | ExprKind::Decay(e) => strip(e),
        _ => e,
    }
}

impl Visitor for Refs<'_> {
    fn visit_expr(&mut self, e: &Expr) {
        match &e.kind {
            ExprKind::Call(callee, args) => {
                if let ExprKind::Func(g) = strip(callee).kind {
                    self.calls.push(g);
                    let create = classify(&self.prog.func(g).name) == Known::ThreadCreate;
                    for (i, a) in args.iter().enumerate() {
                        match strip(a).kind {
                            ExprKind::Func(t) if create && i == 2 => self.calls.push(t),
                            _ => self.visit_expr(a),
                        }
                    }
                    return;
                }
            }
            ExprKind::Func(g) => self.escapes.push((*g, e.loc)),
            _ => {}
        }
        walk_expr(self, e)
    }
}

/// Every statement of `f` with how many times it runs per run of `f`.
fn each_stmt_runs<'p>(
    prog: &'p Program,
    f: FuncId,
    taken: &HashSet<VarId>,
    each: &mut dyn FnMut(&'p [Stmt], usize, Count),
) {
    let Some(body) = &prog.func(f).body else {
        return;
    };
    let whole: &'p [Stmt] = std::slice::from_ref(body);
    let start = if jumps_are_forward(body) {
        Ok(Runs::constant(1))
    } else {
        Err(format!(
            "{} jumps backwards or into a loop",
            prog.func(f).name
        ))
    };
    walk(prog, taken, whole, &start, each);
}

fn walk<'p>(
    prog: &'p Program,
    taken: &HashSet<VarId>,
    stmts: &'p [Stmt],
    runs: &Count,
    each: &mut dyn FnMut(&'p [Stmt], usize, Count),
) {
    for (i, s) in stmts.iter().enumerate() {
        each(stmts, i, runs.clone());
        match &s.kind {
            StmtKind::Block(ss) => walk(prog, taken, ss, runs, each),
            StmtKind::If { then, els, .. } => {
                walk(prog, taken, std::slice::from_ref(then), runs, each);
                if let Some(e) = els {
                    walk(prog, taken, std::slice::from_ref(e), runs, each);
                }
            }
            StmtKind::Switch { body, .. } => {
                walk(prog, taken, std::slice::from_ref(body), runs, each)
            }
            StmtKind::While { body, .. } => {
                let inner = match runs {
                    Ok(r) => trips(prog, taken, stmts, i).and_then(|t| r.times(&t)),
                    Err(e) => Err(e.clone()),
                };
                walk(prog, taken, std::slice::from_ref(body), &inner, each)
            }
            StmtKind::DoWhile { body, .. } | StmtKind::For { body, .. } => walk(
                prog,
                taken,
                std::slice::from_ref(body),
                &Err("a loop seqloc did not normalize".into()),
                each,
            ),
            _ => {}
        }
    }
}

/// How many times the body of the loop `stmts[i]` runs per run of the loop.
fn trips(prog: &Program, taken: &HashSet<VarId>, stmts: &[Stmt], i: usize) -> Count {
    let s = &stmts[i];
    if let Some(n) = prog.loop_bounds.get(&s.id) {
        return Ok(Runs::constant(*n as u128));
    }
    counted(prog, taken, stmts, i)
        .map(|t| Runs(vec![(1, vec![t])]))
        .ok_or_else(|| {
            format!(
                "the loop at {} has no bound seqloc can read",
                prog.sources.describe_line(s.loc)
            )
        })
}

/// `i = a; while (1) { int c = i < e; if (!c) break; ...; i = i + 1; }`, as normalization
/// writes `for (i = a; i < e; i++)`, with nothing else writing `i` and no `continue` that
/// would skip the increment.
fn counted(prog: &Program, taken: &HashSet<VarId>, stmts: &[Stmt], i: usize) -> Option<Trips> {
    let StmtKind::While { cond, body } = &stmts[i].kind else {
        return None;
    };
    if cond.as_int()? == 0 {
        return None;
    }
    let StmtKind::Block(body) = &body.kind else {
        return None;
    };
    let (var, start) = init_of(prog, stmts.get(i.checked_sub(1)?)?)?;
    let k = kind(prog, &prog.var(var).ty)?;
    if taken.contains(&var) || prog.var(var).kind != VarKind::Local {
        return None;
    }
    let [test, exit, middle @ .., step] = body.as_slice() else {
        return None;
    };
    let StmtKind::Decl {
        var: c,
        init: Some(Init::Expr(t)),
    } = &test.kind
    else {
        return None;
    };
    let ExprKind::Binary(op @ (BinOp::Lt | BinOp::Le), l, bound) = &t.kind else {
        return None;
    };
    // The counter itself, unconverted: a narrower counter compared after promotion
    // could wrap below the bound.
    if !matches!(l.kind, ExprKind::Var(x) if x == var) || kind(prog, &l.ty) != Some(k) {
        return None;
    }
    let StmtKind::If {
        cond: x,
        then,
        els: None,
    } = &exit.kind
    else {
        return None;
    };
    let ExprKind::Unary(UnOp::LogNot, y) = &x.peel().kind else {
        return None;
    };
    if !matches!(y.peel().kind, ExprKind::Var(z) if z == *c) {
        return None;
    }
    let StmtKind::Block(t) = &then.kind else {
        return None;
    };
    if !matches!(t.as_slice(), [b] if matches!(b.kind, StmtKind::Break)) {
        return None;
    }
    let StmtKind::Expr(st) = &step.kind else {
        return None;
    };
    let ExprKind::Assign(lhs, rhs) = &st.kind else {
        return None;
    };
    let ExprKind::Binary(BinOp::Add, a, one) = &rhs.kind else {
        return None;
    };
    if !matches!(lhs.kind, ExprKind::Var(x) if x == var)
        || !matches!(a.kind, ExprKind::Var(x) if x == var)
        || kind(prog, &rhs.ty) != Some(k)
        || eval_int(one, &prog.types, prog.data_model) != Some(1)
    {
        return None;
    }
    let mut written = HashSet::new();
    for s in middle {
        super::prefix::writes(s, &mut written);
        if continues(s) {
            return None;
        }
    }
    if written.contains(&var) || written.contains(c) {
        return None;
    }
    Some(Trips {
        bound: (**bound).clone(),
        start,
        inclusive: *op == BinOp::Le,
        kind: k,
    })
}

/// `i = a` or `int i = a`, with `a` a constant in the range of `i`'s type.
fn init_of(prog: &Program, s: &Stmt) -> Option<(VarId, i128)> {
    let (v, e) = match &s.kind {
        StmtKind::Expr(e) => match &e.kind {
            ExprKind::Assign(l, r) => match l.kind {
                ExprKind::Var(v) => (v, &**r),
                _ => return None,
            },
            _ => return None,
        },
        StmtKind::Decl {
            var,
            init: Some(Init::Expr(e)),
        } => (*var, e),
        _ => return None,
    };
    let k = kind(prog, &prog.var(v).ty)?;
    let a = eval_int(e, &prog.types, prog.data_model)?;
    (k.wrap(a, prog.data_model) == a).then_some((v, a))
}

/// Whether every `goto` jumps forwards and not into a loop, and every `case` label sits
/// in its `switch`'s loop: then no jump makes code run again.
fn jumps_are_forward(body: &Stmt) -> bool {
    #[derive(Default)]
    struct Scan {
        order: usize,
        loops: Vec<usize>,
        next_loop: usize,
        labels: HashMap<String, (usize, Vec<usize>)>,
        gotos: Vec<(String, usize, Vec<usize>)>,
        switches: Vec<Vec<usize>>,
        ok: bool,
    }
    fn go(s: &Stmt, sc: &mut Scan) {
        sc.order += 1;
        match &s.kind {
            StmtKind::Label(l) => {
                sc.labels.insert(l.clone(), (sc.order, sc.loops.clone()));
            }
            StmtKind::Goto(l) => sc.gotos.push((l.clone(), sc.order, sc.loops.clone())),
            StmtKind::Case { .. } | StmtKind::Default => {
                sc.ok &= sc.switches.last() == Some(&sc.loops);
            }
            StmtKind::Block(ss) => ss.iter().for_each(|s| go(s, sc)),
            StmtKind::If { then, els, .. } => {
                go(then, sc);
                if let Some(e) = els {
                    go(e, sc);
                }
            }
            StmtKind::Switch { body, .. } => {
                sc.switches.push(sc.loops.clone());
                go(body, sc);
                sc.switches.pop();
            }
            StmtKind::While { body, .. }
            | StmtKind::DoWhile { body, .. }
            | StmtKind::For { body, .. } => {
                sc.next_loop += 1;
                sc.loops.push(sc.next_loop);
                go(body, sc);
                sc.loops.pop();
            }
            _ => {}
        }
    }
    let mut sc = Scan {
        ok: true,
        ..Scan::default()
    };
    go(body, &mut sc);
    sc.ok
        && sc.gotos.iter().all(|(l, at, loops)| {
            sc.labels
                .get(l)
                .is_some_and(|(to, inner)| to > at && loops.starts_with(inner))
        })
}
