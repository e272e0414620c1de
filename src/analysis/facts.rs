//! Concurrency facts of a program, read off the lowered IR: thread entry functions and
//! their creation sites and instance counts, the pthread and SV-COMP calls, the shared
//! variables with the lines that read and write them, locks and condition variables,
//! and the assertion sites. `seqloc parse` prints them; the normalizer uses the
//! shared-variable analysis to decide which accesses are visible to other threads.

use std::collections::{BTreeMap, BTreeSet, HashMap, HashSet};

use serde::Serialize;

use super::loops::{TripCount, trip_count};
use crate::ir::known::{Known, classify, is_atomic_function, sync_typedef};
use crate::ir::print::expr_to_string;
use crate::ir::visit::{self, Visitor};
use crate::ir::*;

/// Who runs a function: `main`, or a thread entry function (possibly several instances).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Root {
    Main,
    Thread(FuncId),
}

#[derive(Clone, Debug, Serialize)]
pub struct Facts {
    pub threads: Vec<ThreadFact>,
    pub shared: Vec<SharedVar>,
    pub escaping: Vec<Escape>,
    pub sync_objects: Vec<SyncObject>,
    pub pthread_calls: Vec<CallSite>,
    pub svcomp_calls: Vec<CallSite>,
    pub atomic_functions: Vec<String>,
    pub assertions: Vec<CallSite>,
}

#[derive(Clone, Debug, Serialize)]
pub struct ThreadFact {
    pub function: String,
    pub defined_at: String,
    pub creations: Vec<Creation>,
    /// Total instances over all creation sites.
    pub instances: TripCount,
}

#[derive(Clone, Debug, Serialize)]
pub struct Creation {
    pub at: String,
    pub in_function: String,
    pub instances: TripCount,
    /// The thread function was passed through a variable, not named directly.
    pub indirect: bool,
}

#[derive(Clone, Debug, Serialize)]
pub struct SharedVar {
    pub name: String,
    pub declared_at: String,
    /// Thread entry functions (and `main`) that access it.
    pub threads: Vec<String>,
    pub reads: Vec<u32>,
    pub writes: Vec<u32>,
}

#[derive(Clone, Debug, Serialize)]
pub struct Escape {
    /// What escapes: `&ids[i]` passed to `pthread_create`, a `malloc`ed block stored in a
    /// global, ...
    pub what: String,
    pub at: String,
    pub how: String,
}

#[derive(Clone, Debug, Serialize)]
pub struct SyncObject {
    pub name: String,
    pub kind: crate::ir::known::SyncKind,
    pub declared_at: String,
    pub uses: Vec<CallSite>,
}

#[derive(Clone, Debug, Serialize)]
pub struct CallSite {
    pub function: String,
    pub kind: Known,
    pub at: String,
    pub line: u32,
    pub in_function: String,
    /// The call as written (arguments printed).
    pub text: String,
}

/// Call graph and thread structure, shared by the facts and by later passes.
pub struct ThreadStructure {
    /// Direct (and resolved indirect) callees of every defined function.
    pub calls: HashMap<FuncId, BTreeSet<FuncId>>,
    /// Thread entry functions with the creation sites that start them.
    pub entries: BTreeMap<FuncId, Vec<(Loc, FuncId, TripCount, bool)>>,
    /// Functions reachable from each root.
    pub reach: BTreeMap<Root, BTreeSet<FuncId>>,
    /// How many instances of each root exist (main: 1).
    pub instances: BTreeMap<Root, TripCount>,
}

/// Functions whose address is taken (candidates for indirect calls and thread entries).
pub fn address_taken_functions(prog: &Program) -> BTreeSet<FuncId> {
    named_functions(prog, false)
}

/// The functions an indirect call may denote: those whose address the program keeps
/// somewhere it can call it from. A function named only as the start routine of a
/// thread creation is called by the thread library alone — its address goes nowhere a
/// pointer of the program can read it — so a callback called through `t->cb(arg)` is
/// never a thread's entry (a thread entry inlined as a candidate callback runs its
/// loops, and the callbacks they call, once more at each level, to the recursion bound).
pub fn pointer_callable_functions(prog: &Program) -> BTreeSet<FuncId> {
    named_functions(prog, true)
}

/// The functions the program names other than by calling them, leaving out a thread
/// creation's start routine when `skip_start_routines`.
fn named_functions(prog: &Program, skip_start_routines: bool) -> BTreeSet<FuncId> {
    struct V<'p>(&'p Program, bool, BTreeSet<FuncId>);
    impl Visitor for V<'_> {
        fn visit_expr(&mut self, e: &Expr) {
            match &e.kind {
                ExprKind::Call(c, args) => {
                    let creates = self.1
                        && matches!(c.peel().kind, ExprKind::Func(f)
                            if classify(&self.0.func(f).name) == Known::ThreadCreate);
                    if !matches!(c.kind, ExprKind::Func(_)) {
                        self.visit_expr(c);
                    }
                    for (i, a) in args.iter().enumerate() {
                        if creates && i == 2 && matches!(uncast(a).kind, ExprKind::Func(_)) {
                            continue;
                        }
                        self.visit_expr(a);
                    }
                }
                ExprKind::Func(f) => {
                    self.2.insert(*f);
                }
                _ => visit::walk_expr(self, e),
            }
        }
    }
    let mut v = V(prog, skip_start_routines, BTreeSet::new());
    for f in &prog.funcs {
        if let Some(b) = &f.body {
            v.visit_stmt(b);
        }
    }
    for var in &prog.vars {
        if let Some(i) = &var.init {
            v.visit_init(i);
        }
    }
    v.2
}

/// `e` without its casts, implicit or written (`(void *(*)(void *))worker`).
fn uncast(e: &Expr) -> &Expr {
    match &e.peel().kind {
        ExprKind::Cast { e: inner, .. } => uncast(inner),
        _ => e.peel(),
    }
}

/// The functions an expression used as a callee (or thread entry) may denote.
pub fn resolve_callee(
    prog: &Program,
    e: &Expr,
    taken: &BTreeSet<FuncId>,
    arity: Option<usize>,
) -> Vec<FuncId> {
    match &e.peel().kind {
        ExprKind::Func(f) => vec![*f],
        ExprKind::Cast { e: inner, .. } => resolve_callee(prog, inner, taken, arity),
        _ => taken
            .iter()
            .copied()
            .filter(|f| {
                let func = prog.func(*f);
                func.body.is_some()
                    && arity.is_none_or(|n| func.ty.params.len() == n || func.ty.unprototyped)
            })
            .collect(),
    }
}

pub fn thread_structure(prog: &Program) -> ThreadStructure {
    let taken = address_taken_functions(prog);
    let mut calls: HashMap<FuncId, BTreeSet<FuncId>> = HashMap::new();
    // (site loc, creating function, loop factor, thread function, indirect)
    let mut creates: Vec<(Loc, FuncId, TripCount, FuncId, bool)> = Vec::new();
    // (caller, callee, loop factor) for invocation counting.
    let mut call_sites: Vec<(FuncId, FuncId, TripCount)> = Vec::new();
    for (i, f) in prog.funcs.iter().enumerate() {
        let fid = FuncId(i as u32);
        let Some(body) = &f.body else { continue };
        let mut w = CallWalker {
            prog,
            taken: &taken,
            loop_factor: vec![],
            out_calls: vec![],
            out_creates: vec![],
        };
        w.stmt(body, None);
        let entry = calls.entry(fid).or_default();
        for (callee, factor) in w.out_calls {
            entry.insert(callee);
            call_sites.push((fid, callee, factor));
        }
        for (loc, factor, tf, indirect) in w.out_creates {
            creates.push((loc, fid, factor, tf, indirect));
        }
    }
    let mut entries: BTreeMap<FuncId, Vec<(Loc, FuncId, TripCount, bool)>> = BTreeMap::new();
    for (loc, creator, factor, tf, indirect) in &creates {
        entries
            .entry(*tf)
            .or_default()
            .push((*loc, *creator, *factor, *indirect));
    }
    let mut reach = BTreeMap::new();
    let mut roots = vec![];
    if let Some(m) = prog.main() {
        roots.push((Root::Main, m));
    }
    for tf in entries.keys() {
        roots.push((Root::Thread(*tf), *tf));
    }
    for (r, f) in &roots {
        let mut seen = BTreeSet::new();
        let mut work = vec![*f];
        while let Some(x) = work.pop() {
            if seen.insert(x) {
                if let Some(cs) = calls.get(&x) {
                    work.extend(cs.iter().copied());
                }
            }
        }
        reach.insert(*r, seen);
    }
    // Invocation counts: how often each function runs, following call and create sites
    // from main. Recursion and cycles make the count unbounded.
    let mut invocations: HashMap<FuncId, TripCount> = HashMap::new();
    if let Some(m) = prog.main() {
        let mut stack = Vec::new();
        count_invocations(
            m,
            TripCount::Exactly(1),
            &call_sites,
            &creates,
            &mut invocations,
            &mut stack,
        );
    }
    let mut instances = BTreeMap::new();
    instances.insert(Root::Main, TripCount::Exactly(1));
    for (tf, sites) in &entries {
        let mut total = TripCount::Exactly(0);
        for (_, creator, factor, _) in sites {
            let inv = invocations
                .get(creator)
                .copied()
                .unwrap_or(TripCount::Exactly(0));
            total = total.plus(inv.times(*factor));
        }
        instances.insert(Root::Thread(*tf), total);
    }
    ThreadStructure {
        calls,
        entries,
        reach,
        instances,
    }
}

fn count_invocations(
    f: FuncId,
    times: TripCount,
    call_sites: &[(FuncId, FuncId, TripCount)],
    creates: &[(Loc, FuncId, TripCount, FuncId, bool)],
    out: &mut HashMap<FuncId, TripCount>,
    stack: &mut Vec<FuncId>,
) {
    if stack.contains(&f) {
        out.insert(f, TripCount::Unbounded);
        return;
    }
    let prev = out.get(&f).copied().unwrap_or(TripCount::Exactly(0));
    out.insert(f, prev.plus(times));
    stack.push(f);
    for (caller, callee, factor) in call_sites {
        if *caller == f {
            count_invocations(
                *callee,
                times.times(*factor),
                call_sites,
                creates,
                out,
                stack,
            );
        }
    }
    for (_, creator, factor, tf, _) in creates {
        if *creator == f {
            count_invocations(*tf, times.times(*factor), call_sites, creates, out, stack);
        }
    }
    stack.pop();
}

struct CallWalker<'a> {
    prog: &'a Program,
    taken: &'a BTreeSet<FuncId>,
    loop_factor: Vec<TripCount>,
    out_calls: Vec<(FuncId, TripCount)>,
    out_creates: Vec<(Loc, TripCount, FuncId, bool)>,
}

impl CallWalker<'_> {
    fn factor(&self) -> TripCount {
        self.loop_factor
            .iter()
            .fold(TripCount::Exactly(1), |a, b| a.times(*b))
    }

    fn stmt(&mut self, s: &Stmt, preceding: Option<&Stmt>) {
        match &s.kind {
            StmtKind::Block(ss) => {
                let mut prev: Option<&Stmt> = None;
                for x in ss {
                    self.stmt(x, prev);
                    prev = Some(x);
                }
            }
            StmtKind::For { .. } | StmtKind::While { .. } | StmtKind::DoWhile { .. } => {
                let tc = trip_count(self.prog, s, preceding);
                // A do-while body runs at least once; `Exactly(0)` only for while/for.
                self.loop_factor.push(tc);
                self.exprs(s);
                match &s.kind {
                    StmtKind::For { init, body, .. } => {
                        self.loop_factor.pop();
                        for i in init {
                            self.stmt(i, None);
                        }
                        self.loop_factor.push(tc);
                        self.stmt(body, None);
                    }
                    StmtKind::While { body, .. } | StmtKind::DoWhile { body, .. } => {
                        self.stmt(body, None)
                    }
                    _ => {}
                }
                self.loop_factor.pop();
            }
            StmtKind::If { cond, then, els } => {
                self.expr(cond);
                self.stmt(then, None);
                if let Some(e) = els {
                    self.stmt(e, None);
                }
            }
            StmtKind::Switch { cond, body } => {
                self.expr(cond);
                self.stmt(body, None);
            }
            _ => self.exprs(s),
        }
    }

    /// Visits the expressions that belong to `s` itself (not to nested statements).
    fn exprs(&mut self, s: &Stmt) {
        match &s.kind {
            StmtKind::Expr(e) | StmtKind::Return(Some(e)) => self.expr(e),
            StmtKind::Decl { init: Some(i), .. } => {
                let mut v = ExprCollector(vec![]);
                v.visit_init(i);
                for e in v.0 {
                    self.expr(&e);
                }
            }
            StmtKind::For { cond, step, .. } => {
                if let Some(c) = cond {
                    self.expr(c)
                }
                if let Some(c) = step {
                    self.expr(c)
                }
            }
            StmtKind::While { cond, .. } | StmtKind::DoWhile { cond, .. } => self.expr(cond),
            _ => {}
        }
    }

    fn expr(&mut self, e: &Expr) {
        let factor = self.factor();
        let prog = self.prog;
        let taken = self.taken;
        let mut found_calls = vec![];
        let mut found_creates = vec![];
        visit::each_subexpr(e, &mut |x| {
            if let ExprKind::Call(callee, args) = &x.kind {
                if let ExprKind::Func(f) = callee.peel().kind {
                    if classify(&prog.func(f).name) == Known::ThreadCreate {
                        if let Some(a) = args.get(2) {
                            let indirect = !matches!(a.peel().kind, ExprKind::Func(_));
                            for tf in resolve_callee(prog, a, taken, Some(1)) {
                                found_creates.push((x.loc, tf, indirect));
                            }
                        }
                        return;
                    }
                }
                for f in resolve_callee(prog, callee, taken, Some(args.len())) {
                    if prog.func(f).body.is_some() {
                        found_calls.push(f);
                    }
                }
            }
        });
        for f in found_calls {
            self.out_calls.push((f, factor));
        }
        for (loc, tf, ind) in found_creates {
            self.out_creates.push((loc, factor, tf, ind));
        }
    }
}

struct ExprCollector(Vec<Expr>);
impl Visitor for ExprCollector {
    fn visit_expr(&mut self, e: &Expr) {
        self.0.push(e.clone());
    }
}

/// Direct global accesses of one function: (var, is_write, loc).
pub fn global_accesses(prog: &Program, f: FuncId) -> Vec<(VarId, bool, Loc)> {
    let mut out = Vec::new();
    if let Some(b) = &prog.func(f).body {
        let mut a = AccessWalker {
            prog,
            out: &mut out,
        };
        a.visit_stmt(b);
    }
    out
}

struct AccessWalker<'a, 'b> {
    prog: &'a Program,
    out: &'b mut Vec<(VarId, bool, Loc)>,
}

impl AccessWalker<'_, '_> {
    /// Records the base variable of an lvalue accessed directly (not through a pointer).
    fn lvalue_base(&mut self, e: &Expr, write: bool) {
        match &e.kind {
            ExprKind::Var(v) => {
                if self.prog.var(*v).kind == VarKind::Global && !self.prog.var(*v).thread_local {
                    self.out.push((*v, write, e.loc));
                }
            }
            ExprKind::Member(b, _) => self.lvalue_base(b, write),
            ExprKind::Index(b, i) => {
                self.visit_expr(i);
                match &b.kind {
                    ExprKind::Decay(arr) => self.lvalue_base(arr, write),
                    _ => self.visit_expr(b),
                }
            }
            ExprKind::Deref(p) => self.visit_expr(p),
            _ => self.visit_expr(e),
        }
    }
}

impl Visitor for AccessWalker<'_, '_> {
    fn visit_expr(&mut self, e: &Expr) {
        match &e.kind {
            ExprKind::Assign(l, r) => {
                self.lvalue_base(l, true);
                self.visit_expr(r);
            }
            ExprKind::OpAssign { lhs, rhs, .. } => {
                self.lvalue_base(lhs, false);
                self.lvalue_base(lhs, true);
                self.visit_expr(rhs);
            }
            ExprKind::IncDec { e: x, .. } => {
                self.lvalue_base(x, false);
                self.lvalue_base(x, true);
            }
            ExprKind::Var(_) | ExprKind::Member(..) | ExprKind::Index(..) => {
                self.lvalue_base(e, false)
            }
            // Taking an address or the size is not an access.
            ExprKind::AddrOf(x) => {
                if let ExprKind::Index(_, i) = &x.kind {
                    self.visit_expr(i)
                }
            }
            ExprKind::Decay(x) => {
                if !matches!(x.kind, ExprKind::Var(_)) {
                    self.visit_expr(x)
                }
            }
            ExprKind::SizeofType(_) => {}
            _ => visit::walk_expr(self, e),
        }
    }
    fn visit_stmt(&mut self, s: &Stmt) {
        if let StmtKind::Decl { init: Some(i), .. } = &s.kind {
            self.visit_init(i);
            return;
        }
        visit::walk_stmt(self, s)
    }
}

/// Globals that more than one thread instance may access.
pub fn shared_globals(prog: &Program, ts: &ThreadStructure) -> BTreeMap<VarId, BTreeSet<Root>> {
    let mut accessed_by: BTreeMap<VarId, BTreeSet<Root>> = BTreeMap::new();
    let mut per_func: HashMap<FuncId, Vec<(VarId, bool, Loc)>> = HashMap::new();
    for (root, funcs) in &ts.reach {
        for f in funcs {
            let acc = per_func
                .entry(*f)
                .or_insert_with(|| global_accesses(prog, *f));
            for (v, _, _) in acc.iter() {
                accessed_by.entry(*v).or_default().insert(*root);
            }
        }
    }
    accessed_by
        .into_iter()
        .filter(|(_, roots)| {
            roots.len() > 1
                || roots
                    .iter()
                    .any(|r| !matches!(ts.instances.get(r), Some(TripCount::Exactly(0 | 1)) | None))
        })
        .collect()
}

pub fn compute(prog: &Program) -> Facts {
    let ts = thread_structure(prog);
    let src = &prog.sources;
    let root_name = |r: &Root| match r {
        Root::Main => "main".to_string(),
        Root::Thread(f) => prog.func(*f).name.clone(),
    };
    let mut threads = Vec::new();
    for (tf, sites) in &ts.entries {
        let f = prog.func(*tf);
        let mut creations = Vec::new();
        let inv_total = ts
            .instances
            .get(&Root::Thread(*tf))
            .copied()
            .unwrap_or(TripCount::Unknown);
        for (loc, creator, factor, indirect) in sites {
            creations.push(Creation {
                at: src.describe(*loc),
                in_function: prog.func(*creator).name.clone(),
                instances: *factor,
                indirect: *indirect,
            });
        }
        threads.push(ThreadFact {
            function: f.name.clone(),
            defined_at: src.describe(f.loc),
            creations,
            instances: inv_total,
        });
    }
    let shared_map = shared_globals(prog, &ts);
    let mut shared = Vec::new();
    for (v, roots) in &shared_map {
        let var = prog.var(*v);
        let mut reads = BTreeSet::new();
        let mut writes = BTreeSet::new();
        for funcs in ts.reach.values() {
            for f in funcs {
                for (x, w, loc) in global_accesses(prog, *f) {
                    if x == *v {
                        let l = src.line(loc);
                        if w {
                            writes.insert(l);
                        } else {
                            reads.insert(l);
                        }
                    }
                }
            }
        }
        shared.push(SharedVar {
            name: var.name.clone(),
            declared_at: src.describe(var.loc),
            threads: roots.iter().map(root_name).collect(),
            reads: reads.into_iter().collect(),
            writes: writes.into_iter().collect(),
        });
    }
    let mut f = FactWalker {
        prog,
        cur: None,
        pthread_calls: vec![],
        svcomp_calls: vec![],
        assertions: vec![],
        escaping: vec![],
    };
    for (i, func) in prog.funcs.iter().enumerate() {
        if let Some(b) = &func.body {
            f.cur = Some(FuncId(i as u32));
            f.visit_stmt(b);
        }
    }
    let sync_objects = sync_objects(prog, &f.pthread_calls);
    let atomic_functions = prog
        .funcs
        .iter()
        .filter(|f| f.body.is_some() && is_atomic_function(&f.name))
        .map(|f| f.name.clone())
        .collect();
    Facts {
        threads,
        shared,
        escaping: f.escaping,
        sync_objects,
        pthread_calls: f.pthread_calls,
        svcomp_calls: f.svcomp_calls,
        atomic_functions,
        assertions: f.assertions,
    }
}

struct FactWalker<'a> {
    prog: &'a Program,
    cur: Option<FuncId>,
    pthread_calls: Vec<CallSite>,
    svcomp_calls: Vec<CallSite>,
    assertions: Vec<CallSite>,
    escaping: Vec<Escape>,
}

impl FactWalker<'_> {
    fn site(&self, f: FuncId, kind: Known, e: &Expr) -> CallSite {
        // An assertion as the user wrote it; the lowered barrier waits and `pthread_once`
        // under the names the user wrote.
        let (function, text) = match (kind == Known::AssertFail)
            .then(|| assertion_text(e))
            .flatten()
        {
            Some(cond) => ("assert".to_string(), format!("assert({cond})")),
            None => (
                kind.user_name()
                    .map(str::to_string)
                    .unwrap_or_else(|| self.prog.func(f).name.clone()),
                expr_to_string(self.prog, e),
            ),
        };
        CallSite {
            function,
            kind,
            at: self.prog.sources.describe(e.loc),
            line: self.prog.sources.line(e.loc),
            in_function: self
                .cur
                .map(|c| self.prog.func(c).name.clone())
                .unwrap_or_default(),
            text,
        }
    }
}

impl Visitor for FactWalker<'_> {
    fn visit_expr(&mut self, e: &Expr) {
        if let ExprKind::Call(callee, args) = &e.kind {
            if let ExprKind::Func(f) = callee.peel().kind {
                let kind = classify(&self.prog.func(f).name);
                // A lowered barrier wait or `pthread_once` is two calls: listed once.
                if kind.is_pthread() && !matches!(kind, Known::BarrierArrive | Known::OnceEnd) {
                    self.pthread_calls.push(self.site(f, kind, e));
                }
                if matches!(
                    kind,
                    Known::Nondet
                        | Known::VerifierAssert
                        | Known::VerifierAssume
                        | Known::ReachError
                        | Known::AtomicBegin
                        | Known::AtomicEnd
                        | Known::Abort
                        | Known::AssertFail
                ) || is_atomic_function(&self.prog.func(f).name)
                {
                    self.svcomp_calls.push(self.site(f, kind, e));
                }
                let in_reach_error = self
                    .cur
                    .is_some_and(|c| classify(&self.prog.func(c).name) == Known::ReachError);
                if matches!(kind, Known::VerifierAssert | Known::ReachError)
                    || (kind == Known::AssertFail && !in_reach_error)
                {
                    self.assertions.push(self.site(f, kind, e));
                }
                if kind == Known::ThreadCreate {
                    if let Some(a) = args.get(3) {
                        let p = a.peel();
                        if matches!(p.kind, ExprKind::AddrOf(_))
                            || matches!(p.kind, ExprKind::Decay(_))
                        {
                            self.escaping.push(Escape {
                                what: expr_to_string(self.prog, p),
                                at: self.prog.sources.describe(e.loc),
                                how: "passed to a new thread as its argument".into(),
                            });
                        }
                    }
                }
            }
        }
        if let ExprKind::Assign(l, r) = &e.kind {
            // A malloc'ed block or a local's address stored into a global becomes shared.
            let lhs_global = matches!(l.peel().kind, ExprKind::Var(v) if self.prog.var(v).kind == VarKind::Global);
            if lhs_global {
                let r = r.peel();
                let from_malloc = matches!(&r.kind, ExprKind::Call(c, _) if matches!(c.peel().kind, ExprKind::Func(f) if matches!(classify(&self.prog.func(f).name), Known::Malloc | Known::Calloc)));
                let local_addr = matches!(&r.kind, ExprKind::AddrOf(x) if matches!(x.peel().kind, ExprKind::Var(v) if self.prog.var(v).kind != VarKind::Global));
                if from_malloc
                    || local_addr
                    || r.ty.is_pointer(&self.prog.types)
                        && matches!(r.kind, ExprKind::Var(v) if self.prog.var(v).kind != VarKind::Global)
                {
                    self.escaping.push(Escape {
                        what: expr_to_string(self.prog, r),
                        at: self.prog.sources.describe(e.loc),
                        how: format!("stored in the global `{}`", expr_to_string(self.prog, l)),
                    });
                }
            }
        }
        visit::walk_expr(self, e)
    }
}

fn sync_objects(prog: &Program, calls: &[CallSite]) -> Vec<SyncObject> {
    let mut out = Vec::new();
    let mut names: HashSet<String> = HashSet::new();
    for v in &prog.vars {
        if v.kind != VarKind::Global {
            continue;
        }
        if let Some(kind) = sync_kind_of(&v.ty, &prog.types) {
            names.insert(v.name.clone());
            let uses = calls
                .iter()
                .filter(|c| mentions(&c.text, &v.name))
                .cloned()
                .collect();
            out.push(SyncObject {
                name: v.name.clone(),
                kind,
                declared_at: prog.sources.describe(v.loc),
                uses,
            });
        }
    }
    // Mutexes and condition variables inside structs (`b->lock`): one entry per field.
    for c in &prog.types.comps {
        for f in &c.fields {
            let (Some(name), Some(kind)) = (&f.name, sync_kind_of(&f.ty, &prog.types)) else {
                continue;
            };
            let label = format!(
                "{}.{}",
                c.tag.clone().unwrap_or_else(|| "(struct)".into()),
                name
            );
            if names.contains(&label) || prog.sources.is_system(c.loc) {
                continue;
            }
            let uses: Vec<CallSite> = calls
                .iter()
                .filter(|cs| {
                    cs.text.contains(&format!("->{name}")) || cs.text.contains(&format!(".{name}"))
                })
                .cloned()
                .collect();
            if uses.is_empty() {
                continue;
            }
            names.insert(label.clone());
            out.push(SyncObject {
                name: label,
                kind,
                declared_at: prog.sources.describe(c.loc),
                uses,
            });
        }
    }
    out
}

/// The condition of the `assert` that `__assert_fail(cond, file, line, function)` was
/// expanded from: its first argument is the condition as the user wrote it.
fn assertion_text(call: &Expr) -> Option<String> {
    let ExprKind::Call(_, args) = &call.kind else {
        return None;
    };
    let mut a = args.first()?.peel();
    if let ExprKind::Decay(inner) = &a.kind {
        a = inner.peel();
    }
    match &a.kind {
        ExprKind::Str(bytes) => {
            let text = String::from_utf8_lossy(bytes);
            Some(text.trim_end_matches('\0').to_string())
        }
        _ => None,
    }
}

/// The pthread or C11 synchronization object `ty` is (through typedefs, qualifiers and
/// arrays), if any.
pub fn sync_kind_of(ty: &Type, tt: &TypeTable) -> Option<crate::ir::known::SyncKind> {
    let mut t = ty;
    loop {
        match t {
            Type::Typedef(id) => {
                if let Some(k) = sync_typedef(&tt.typedef(*id).name) {
                    return Some(k);
                }
                t = &tt.typedef(*id).ty;
            }
            Type::Qualified(inner, _) => t = inner,
            Type::Array(e, _) => t = e,
            _ => return None,
        }
    }
}

fn mentions(text: &str, name: &str) -> bool {
    let bytes = text.as_bytes();
    let mut start = 0;
    while let Some(i) = text[start..].find(name) {
        let a = start + i;
        let b = a + name.len();
        let before = a == 0 || !(bytes[a - 1].is_ascii_alphanumeric() || bytes[a - 1] == b'_');
        let after = b >= bytes.len() || !(bytes[b].is_ascii_alphanumeric() || bytes[b] == b'_');
        if before && after {
            return true;
        }
        start = b;
    }
    false
}

#[cfg(test)]
mod tests {
    use super::*;

    fn program(src: &str) -> Program {
        let dir = tempfile::tempdir().unwrap_or_else(|e| unreachable!("{e}"));
        let path = dir.path().join("p.c");
        std::fs::write(&path, src).unwrap_or_else(|e| unreachable!("{e}"));
        crate::frontend::load(&path, &Default::default()).unwrap_or_else(|e| unreachable!("{e:?}"))
    }

    fn names(prog: &Program, set: &BTreeSet<FuncId>) -> Vec<String> {
        set.iter().map(|f| prog.func(*f).name.clone()).collect()
    }

    /// A start routine is no callback: the thread library alone calls it. One whose
    /// address the program also keeps (a table of entries) is both.
    #[test]
    fn a_function_only_started_as_a_thread_is_not_called_through_pointers() {
        let p = program(
            "#include <pthread.h>\n\
             void done(void *a) { }\n\
             void *w(void *a) { return 0; }\n\
             void *v(void *a) { return 0; }\n\
             void *(*table[1])(void *) = { v };\n\
             struct t { void (*cb)(void *); } t;\n\
             int main() { pthread_t a, b; t.cb = done;\n\
             pthread_create(&a, 0, w, 0); pthread_create(&b, 0, (void *(*)(void *))v, 0);\n\
             t.cb(0); return 0; }\n",
        );
        assert_eq!(names(&p, &address_taken_functions(&p)), ["done", "w", "v"]);
        assert_eq!(names(&p, &pointer_callable_functions(&p)), ["done", "v"]);
    }
}
