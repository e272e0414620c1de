//! Building the sequential program: slots, points, guards, the pthread model and the
//! `switch(order[order_index])` framework. See the module docs of [`super`].

use std::collections::{BTreeSet, HashMap};

use super::rules::{Action, Rules, TypeRule};
use super::schedule::{Resolved, Stop};
use super::skeleton::{Expansion, SlotValues};
use super::{
    Mode, PointInfo, PointKind, SeqError, SeqOptions, SeqVars, Sequentialized, SlotCode, SlotInfo,
};
use crate::analysis::facts::thread_structure;
use crate::analysis::shared::{SharedInfo, address_taken_in};
use crate::ir::build as b;
use crate::ir::known::{Known, classify};
use crate::ir::visit::{self, VisitorMut};
use crate::ir::*;
use crate::passes::inline::Inliner;
use crate::passes::normalize::shared_accesses;
use crate::passes::unroll::Unroller;

/// `EBUSY` and `ETIMEDOUT` on Linux.
const EBUSY: i128 = 16;
const ETIMEDOUT: i128 = 110;
/// Most `pthread_key_create` keys modelled.
const MAX_KEYS: u32 = 4;

mod sync;
/// Where `pthread_exit` in main jumps: past main's exit point, which would end the process.
const MAIN_EXIT: &str = "__seq_main_pthread_exit";

/// Builds the sequential program for `normalized` (the output of normalization).
pub fn sequentialize(
    normalized: &Program,
    shared: &SharedInfo,
    mode: Mode,
    opts: &SeqOptions,
) -> Result<Sequentialized, SeqError> {
    let mut prog = normalized.clone();
    let orig_main = prog.main().ok_or(SeqError::NoMain)?;
    apply_type_rules(&mut prog, &opts.rules);

    // Thread functions: main first, then every function passed to pthread_create.
    let ts = thread_structure(&prog);
    let mut thread_fns = vec![orig_main];
    for f in ts.entries.keys() {
        if *f != orig_main {
            thread_fns.push(*f);
        }
    }

    // Slots and the functions each may run.
    let mut only_main_creates = false;
    let (slot_fns, slot_bound): (Vec<Vec<usize>>, u32) = match mode {
        Mode::Concrete(r) => {
            // Slot k is the k-th thread created; threads the schedule never runs need
            // not be listed (their slots get no code).
            let max_id = r.threads.iter().map(|(id, _)| *id).max().unwrap_or(0);
            let mut v: Vec<Vec<usize>> = vec![Vec::new(); max_id as usize + 1];
            let mut threads = r.threads.clone();
            threads.sort_by_key(|(id, _)| *id);
            for (id, f) in &threads {
                let idx = match thread_fns.iter().position(|x| x == f) {
                    Some(i) => i,
                    None => {
                        thread_fns.push(*f);
                        thread_fns.len() - 1
                    }
                };
                if *id == 0 && idx != 0 {
                    return Err(SeqError::Schedule {
                        step: 0,
                        reason: format!("thread 0 must run `main`, not `{}`", prog.func(*f).name),
                    });
                }
                v[*id as usize] = vec![idx];
            }
            let n = v.len() as u32;
            (v, n)
        }
        Mode::Symbolic => {
            let (plan, n, only_main) = slot_plan(&mut prog, &thread_fns, opts)?;
            only_main_creates = only_main;
            (plan, n)
        }
    };
    let nslots = slot_fns.len() as u32;

    let vars = make_vars(&mut prog, nslots, mode);
    let typed_mutexes = crate::ir::known::sets_mutex_type(&prog);
    let mut builder = Builder {
        prog,
        opts,
        vars,
        nslots,
        thread_fns: thread_fns.clone(),
        concrete: match mode {
            Mode::Concrete(r) => Some(r),
            Mode::Symbolic => None,
        },
        occ_vars: HashMap::new(),
        input_occ: HashMap::new(),
        input_tables: HashMap::new(),
        models_mutexes: opts.rules.models_mutexes() || typed_mutexes,
        typed_mutexes,
        dtors: vec![],
        static_ids: None,
        creates_seen: 0,
    };
    builder.dtors = destructor_candidates(&builder.prog);

    // 1. Every slot's code: inlined, unrolled, locals hoisted into globals.
    let mut raw: Vec<(u32, usize, Stmt, String)> = Vec::new();
    for (k, fns) in slot_fns.iter().enumerate() {
        for &j in fns {
            let f = thread_fns[j];
            let (code, end) = builder.thread_code(k as u32, f)?;
            raw.push((k as u32, j, code, end));
        }
    }
    // 2. Which memory the other threads see, in the sequential program.
    let mut seq_shared = shared.clone();
    let stmts: Vec<&Stmt> = raw.iter().map(|(_, _, s, _)| s).collect();
    for v in address_taken_in(&builder.prog, &stmts) {
        seq_shared.vars.insert(v);
    }
    // 3. Points and guards.
    let mut slots: Vec<SlotInfo> = (0..nslots)
        .map(|id| SlotInfo { id, codes: vec![] })
        .collect();
    let mut probes: Vec<Vec<Stmt>> = (0..nslots).map(|_| vec![]).collect();
    let mut slot_bodies: Vec<Vec<Stmt>> = (0..nslots).map(|_| vec![]).collect();
    for (k, j, code, end) in raw {
        // Main's creations get thread ids fixed at translation time when it is the only
        // creator and each creation site is reached after a known number of others: a
        // symbolic `nthreads` would make every `created[nthreads] = 1` a choice among all
        // slots (Lazy-CSeq numbers its threads statically for the same reason).
        builder.static_ids = if k == 0 && only_main_creates {
            static_create_ids(&builder.prog, &builder.thread_fns, &code)
        } else {
            None
        };
        let walk = |builder: &mut Builder, code: Stmt| {
            builder.creates_seen = 0;
            let mut g = SlotGen::new(builder, k, &seq_shared);
            g.end_label = Some(end.clone());
            let mut out = Vec::new();
            g.walk(code, &mut out);
            g.flush(&mut out);
            let points = std::mem::take(&mut g.points);
            (out, points)
        };
        let (mut out, mut points) = walk(&mut builder, code.clone());
        if builder
            .static_ids
            .as_ref()
            .is_some_and(|ids| ids.len() != builder.creates_seen)
        {
            // The count and the translation disagree on the creation sites: number them
            // at run time instead.
            builder.static_ids = None;
            (out, points) = walk(&mut builder, code);
        }
        builder.static_ids = None;
        let mut full = out;
        // The thread's end.
        full.push(b::label(&end));
        let exit_stmts = builder.exit_statements(k, j);
        let p = points.len();
        let f = thread_fns[j];
        let floc = builder.prog.func(f).loc;
        points.push(PointInfo {
            head: StmtId::NONE,
            loc: floc,
            stmts: vec![],
            step_heads: vec![],
            visible: true,
            blocking: None,
            kind: PointKind::Exit,
        });
        full.push(builder.guard(k, p, StmtId::NONE, floc, None, exit_stmts));
        if k == 0 {
            full.push(b::label(MAIN_EXIT));
        }
        let probe = builder.probe_code(k, &full, &points);
        let name = builder.prog.func(f).name.clone();
        let dispatch = b::if_(
            b::bin(
                BinOp::Eq,
                b::elem(&builder.prog, builder.vars.fnid, b::uint(k as i128)),
                b::int(j as i128),
            ),
            full,
            None,
        );
        slot_bodies[k as usize].push(dispatch);
        probes[k as usize].push(b::if_(
            b::bin(
                BinOp::Eq,
                b::elem(&builder.prog, builder.vars.fnid, b::uint(k as i128)),
                b::int(j as i128),
            ),
            probe,
            None,
        ));
        slots[k as usize].codes.push(SlotCode {
            thread_fn: j,
            func: f,
            name,
            points,
            code_func: FuncId(0),
        });
    }
    // 4. One function per slot, one probe per slot, and the framework's main.
    let mut slot_funcs = Vec::new();
    for k in 0..nslots {
        let name = match slots[k as usize].codes.as_slice() {
            [one] => format!("__seq_thread{}_{}", k, one.name),
            _ => format!("__seq_thread{k}"),
        };
        let body = std::mem::take(&mut slot_bodies[k as usize]);
        let fid = builder.new_function(&name, body);
        for c in &mut slots[k as usize].codes {
            c.code_func = fid;
        }
        slot_funcs.push(fid);
    }
    // The probes find each live thread's next point at the end of the run: for the
    // deadlock property, and (symbolic mode) for where a preempted thread's last block ends.
    let mut probe_funcs = Vec::new();
    if opts.deadlock || matches!(mode, Mode::Symbolic) {
        for k in 0..nslots {
            let body = std::mem::take(&mut probes[k as usize]);
            let fid = builder.new_function(&format!("__seq_probe{k}"), body);
            probe_funcs.push(fid);
        }
    }
    let steps = builder.framework(&slots, &slot_funcs, &probe_funcs, orig_main)?;
    Ok(Sequentialized {
        program: builder.prog,
        thread_fns,
        slots,
        vars: builder.vars,
        steps,
        slot_bound,
    })
}

/// Table II types: `pthread_mutex_t` and `pthread_cond_t` become `int`, and their
/// initializers (`PTHREAD_MUTEX_INITIALIZER`) become 0.
fn apply_type_rules(prog: &mut Program, rules: &Rules) {
    let mut changed = false;
    for t in prog.types.typedefs.iter_mut() {
        if rules.type_rule(&t.name) == TypeRule::Int {
            t.ty = Type::int();
            changed = true;
        }
    }
    if !changed {
        return;
    }
    let tt = prog.types.clone();
    for v in prog.vars.iter_mut() {
        if let Some(i) = v.init.take() {
            v.init = Some(fix_init(i, &v.ty, &tt));
        }
    }
    let var_types: Vec<Type> = prog.vars.iter().map(|v| v.ty.clone()).collect();
    for f in prog.funcs.iter_mut() {
        if let Some(body) = &mut f.body {
            struct Fix<'a>(&'a TypeTable, &'a [Type]);
            impl VisitorMut for Fix<'_> {
                fn visit_stmt(&mut self, s: &mut Stmt) {
                    if let StmtKind::Decl { var, init } = &mut s.kind {
                        if let Some(i) = init.take() {
                            *init = Some(fix_init(i, &self.1[var.0 as usize], self.0));
                        }
                    }
                    visit::walk_stmt_mut(self, s)
                }
            }
            Fix(&tt, &var_types).visit_stmt(body);
        }
    }
}

/// A braced initializer whose object became a scalar: keep the first scalar in it.
fn fix_init(i: Init, ty: &Type, tt: &TypeTable) -> Init {
    match (i, ty.resolve(tt)) {
        (Init::List(items), t) if t.is_scalar(tt) => {
            fn first(i: &Init) -> Option<Expr> {
                match i {
                    Init::Expr(e) => Some(e.clone()),
                    Init::List(items) => items.iter().find_map(|it| first(&it.init)),
                }
            }
            let e = items
                .iter()
                .find_map(|it| first(&it.init))
                .map(|e| b::conv(e, ty, tt))
                .unwrap_or_else(|| b::typed_int(0, ty));
            Init::Expr(e)
        }
        (Init::List(items), Type::Comp(c)) => {
            let fields = tt.comp(*c).fields.clone();
            Init::List(
                items
                    .into_iter()
                    .map(|it| {
                        let fty = match it.path.first() {
                            Some(Designator::Field(f)) => {
                                fields.get(*f).map(|x| x.ty.clone()).unwrap_or(Type::int())
                            }
                            _ => Type::int(),
                        };
                        InitItem {
                            path: it.path,
                            init: fix_init(it.init, &fty, tt),
                        }
                    })
                    .collect(),
            )
        }
        (Init::List(items), Type::Array(e, _)) => {
            let e = (**e).clone();
            Init::List(
                items
                    .into_iter()
                    .map(|it| InitItem {
                        path: it.path,
                        init: fix_init(it.init, &e, tt),
                    })
                    .collect(),
            )
        }
        (Init::Expr(e), t) if t.is_scalar(tt) && !e.ty.is_scalar(tt) => {
            Init::Expr(b::typed_int(0, ty))
        }
        (i, _) => i,
    }
}

/// How many slots the symbolic program needs and which functions each may run.
fn slot_plan(
    prog: &mut Program,
    thread_fns: &[FuncId],
    opts: &SeqOptions,
) -> Result<(Vec<Vec<usize>>, u32, bool), SeqError> {
    // Count creation sites in each function's unrolled code (a scratch copy).
    let mut creates_in: Vec<Vec<(u32, u32, Vec<usize>)>> = Vec::new();
    let mut scratch = prog.clone();
    for &f in thread_fns {
        let Some(body) = scratch.func(f).body.clone() else {
            creates_in.push(vec![]);
            continue;
        };
        let body = Inliner::new(&mut scratch, None, opts.recursion).inline_body(f, &body)?;
        let body = Unroller::new(&mut scratch, None, opts.unwind).unroll(body);
        let mut sites = Vec::new();
        let mut count = CreateCounter {
            prog: &scratch,
            thread_fns,
            cur: Some((0, 0)),
            pending: HashMap::new(),
            sites: &mut sites,
        };
        count.stmt(&body);
        creates_in.push(sites);
    }
    let threads_create = creates_in.iter().skip(1).any(|s| !s.is_empty());
    let main_sites = &creates_in[0];
    let main_max = main_sites
        .iter()
        .map(|(_, hi, _)| hi + 1)
        .max()
        .unwrap_or(0);
    let mut needed = 1 + main_max;
    if threads_create {
        let per_thread = creates_in
            .iter()
            .skip(1)
            .map(|s| s.len() as u32)
            .max()
            .unwrap_or(0);
        needed = needed.saturating_add(needed.saturating_mul(per_thread));
    }
    let nslots = needed.min(opts.max_threads.max(1));
    let all_created: BTreeSet<usize> = creates_in
        .iter()
        .flat_map(|s| s.iter().flat_map(|(_, _, f)| f.iter().copied()))
        .collect();
    let mut plan = vec![vec![0usize]];
    for k in 1..nslots {
        let mut fns: BTreeSet<usize> = BTreeSet::new();
        for (lo, hi, f) in main_sites {
            if *lo < k && k <= *hi + 1 {
                fns.extend(f.iter().copied());
            }
        }
        if threads_create {
            fns.extend(all_created.iter().copied());
        }
        if fns.is_empty() {
            fns.extend(all_created.iter().copied());
        }
        plan.push(fns.into_iter().collect());
    }
    let _ = prog;
    Ok((plan, nslots, !threads_create))
}

/// The thread id each `pthread_create` of main's unrolled `code` gives, in the order the
/// translation meets them: `Some(1 + n)` when exactly `n` creations precede it on every
/// path, `None` where that number depends on the path. `None` overall when the code jumps
/// backwards (a loop the count cannot see).
fn static_create_ids(
    prog: &Program,
    thread_fns: &[FuncId],
    code: &Stmt,
) -> Option<Vec<Option<u32>>> {
    let mut seen_labels: BTreeSet<String> = BTreeSet::new();
    let mut backward = false;
    visit::each_stmt(code, &mut |s| match &s.kind {
        StmtKind::Label(l) => {
            seen_labels.insert(l.clone());
        }
        StmtKind::Goto(l) if seen_labels.contains(l) => backward = true,
        _ => {}
    });
    if backward {
        return None;
    }
    let mut sites = Vec::new();
    let mut count = CreateCounter {
        prog,
        thread_fns,
        cur: Some((0, 0)),
        pending: HashMap::new(),
        sites: &mut sites,
    };
    count.stmt(code);
    Some(
        sites
            .iter()
            .map(|(lo, hi, _)| (lo == hi).then_some(lo + 1))
            .collect(),
    )
}

/// Walks unrolled code counting `pthread_create` calls: for each site, the fewest and most
/// creations that can precede it, and the thread functions it may start.
struct CreateCounter<'a, 'b> {
    prog: &'a Program,
    thread_fns: &'a [FuncId],
    cur: Option<(u32, u32)>,
    pending: HashMap<String, (u32, u32)>,
    sites: &'b mut Vec<(u32, u32, Vec<usize>)>,
}

impl CreateCounter<'_, '_> {
    fn join(a: Option<(u32, u32)>, b: Option<(u32, u32)>) -> Option<(u32, u32)> {
        match (a, b) {
            (Some((x, y)), Some((u, v))) => Some((x.min(u), y.max(v))),
            (a, None) => a,
            (None, b) => b,
        }
    }

    fn stmt(&mut self, s: &Stmt) {
        match &s.kind {
            StmtKind::Block(ss) => ss.iter().for_each(|x| self.stmt(x)),
            StmtKind::If { then, els, .. } => {
                let start = self.cur;
                self.stmt(then);
                let after_then = self.cur;
                self.cur = start;
                if let Some(e) = els {
                    self.stmt(e);
                }
                self.cur = Self::join(after_then, self.cur);
            }
            StmtKind::Goto(l) => {
                let p = self.pending.remove(l);
                self.pending
                    .insert(l.clone(), Self::join(p, self.cur).unwrap_or((0, 0)));
                self.cur = None;
            }
            StmtKind::Label(l) => {
                let p = self.pending.remove(l);
                self.cur = Self::join(self.cur, p);
            }
            _ => {
                let mut found = Vec::new();
                visit::each_expr(s, &mut |e| {
                    if let ExprKind::Call(c, args) = &e.kind {
                        if let ExprKind::Func(f) = c.peel().kind {
                            if classify(&self.prog.func(f).name) == Known::ThreadCreate {
                                let fns: Vec<usize> = match args.get(2).map(|a| &a.peel().kind) {
                                    Some(ExprKind::Func(tf)) => self
                                        .thread_fns
                                        .iter()
                                        .position(|x| x == tf)
                                        .into_iter()
                                        .collect(),
                                    _ => (1..self.thread_fns.len()).collect(),
                                };
                                found.push(fns);
                            }
                        }
                    }
                });
                for fns in found {
                    if let Some((lo, hi)) = self.cur {
                        self.sites.push((lo, hi, fns));
                        self.cur = Some((lo + 1, hi + 1));
                    }
                }
            }
        }
    }
}

fn make_vars(prog: &mut Program, nslots: u32, mode: Mode) -> SeqVars {
    let n = nslots as u64;
    let arr = |t: Type, n: u64| Type::Array(Box::new(t), Some(n));
    let blocks = match mode {
        Mode::Concrete(r) => r.blocks.len().max(1) as u64,
        Mode::Symbolic => 1,
    };
    let void_ptr = Type::void_ptr();
    let dtor_ty = Type::ptr(Type::Function(Box::new(FuncType {
        ret: Type::Void,
        params: vec![Type::void_ptr()],
        variadic: false,
        unprototyped: false,
    })));
    let mut g = |name: &str, ty: Type| prog.new_global(name, ty, None, Loc::SYNTH);
    SeqVars {
        pc: g("__seq_pc", arr(Type::uint(), n)),
        cs: g("__seq_cs", Type::uint()),
        created: g("__seq_created", arr(Type::bool(), n)),
        done: g("__seq_done", arr(Type::bool(), n)),
        fnid: g("__seq_fn", arr(Type::int(), n)),
        arg: g("__seq_arg", arr(void_ptr.clone(), n)),
        ret: g("__seq_ret", arr(void_ptr.clone(), n)),
        nthreads: g("__seq_nthreads", Type::uint()),
        halted: g("__seq_halted", Type::bool()),
        atomic: g("__seq_atomic", arr(Type::bool(), n)),
        wait: g("__seq_wait", arr(void_ptr.clone(), n)),
        sig: g("__seq_sig", arr(Type::bool(), n)),
        tls: g("__seq_tls", arr(arr(void_ptr.clone(), MAX_KEYS as u64), n)),
        nkeys: g("__seq_nkeys", Type::uint()),
        dtor: g("__seq_dtor", arr(dtor_ty, MAX_KEYS as u64)),
        stop: g("__seq_stop", Type::bool()),
        stop_reason: g("__seq_stop_reason", Type::int()),
        order: g("order", arr(Type::int(), blocks)),
        stop_sid: g("__seq_stop_stmt", arr(Type::uint(), blocks)),
        stop_occ: g("__seq_stop_occ", arr(Type::uint(), blocks)),
        order_index: g("order_index", Type::int()),
        probed: g("__seq_probed", Type::bool()),
        blocked: g("__seq_blocked", Type::bool()),
        dead: g("__seq_deadlock", Type::bool()),
        tmp: g("__seq_tmp", Type::uint()),
        failed: g("__seq_failed", Type::bool()),
    }
}

/// Functions passed as destructors to `pthread_key_create`.
fn destructor_candidates(prog: &Program) -> Vec<FuncId> {
    let mut out = BTreeSet::new();
    for f in &prog.funcs {
        if let Some(body) = &f.body {
            visit::each_expr(body, &mut |e| {
                if let ExprKind::Call(c, args) = &e.kind {
                    if let ExprKind::Func(cf) = c.peel().kind {
                        if classify(&prog.func(cf).name) == Known::KeyCreate {
                            if let Some(ExprKind::Func(d)) = args.get(1).map(|a| &a.peel().kind) {
                                out.insert(*d);
                            }
                        }
                    }
                }
            });
        }
    }
    out.into_iter().collect()
}

struct Builder<'a> {
    prog: Program,
    opts: &'a SeqOptions,
    vars: SeqVars,
    nslots: u32,
    thread_fns: Vec<FuncId>,
    concrete: Option<&'a Resolved>,
    /// Occurrence counters per (slot, statement), for concrete stops and inputs.
    occ_vars: HashMap<(u32, StmtId), VarId>,
    input_occ: HashMap<(u32, StmtId), VarId>,
    input_tables: HashMap<(u32, StmtId), (VarId, usize)>,
    models_mutexes: bool,
    /// The program sets a mutex type: mutexes use the typed encoding (see `sync`).
    typed_mutexes: bool,
    dtors: Vec<FuncId>,
    /// Symbolic mode, main's code: the fixed thread id of each creation site in order
    /// (see [`static_create_ids`]), and how many sites the translation has met.
    static_ids: Option<Vec<Option<u32>>>,
    creates_seen: usize,
}

impl Builder<'_> {
    fn label(&mut self, hint: &str) -> String {
        self.prog.fresh_label(&format!("seq_{hint}"))
    }

    fn tt(&self) -> &TypeTable {
        &self.prog.types
    }

    fn new_function(&mut self, name: &str, body: Vec<Stmt>) -> FuncId {
        let f = self.prog.add_func(Function {
            name: name.to_string(),
            ty: FuncType {
                ret: Type::Void,
                params: vec![],
                variadic: false,
                unprototyped: false,
            },
            params: vec![],
            body: Some(Stmt::block(body, Loc::SYNTH)),
            is_static: true,
            is_inline: false,
            noreturn: false,
            loc: Loc::SYNTH,
            unsupported: None,
        });
        self.prog.items.push(Item::Func(f));
        f
    }

    /// The code of function `f` for slot `k`: inlined, unrolled, with every local moved
    /// into a global of its own (so its value survives context switches) and the
    /// parameter bound to the slot's argument. Returns the code and its end label.
    fn thread_code(&mut self, k: u32, f: FuncId) -> Result<(Stmt, String), SeqError> {
        let Some(body) = self.prog.func(f).body.clone() else {
            return Err(SeqError::Unsupported {
                what: format!("thread function `{}`", self.prog.func(f).name),
                at: self.prog.sources.describe(self.prog.func(f).loc),
                reason: "it has no body".into(),
            });
        };
        let body = Inliner::new(&mut self.prog, None, self.opts.recursion).inline_body(f, &body)?;
        let mut unroller = Unroller::new(&mut self.prog, None, self.opts.unwind);
        let body = unroller.unroll(body);
        // Locals → globals.
        let mut locals: BTreeSet<VarId> = BTreeSet::new();
        for p in &self.prog.func(f).params {
            locals.insert(*p);
        }
        visit::each_stmt(&body, &mut |s| {
            if let StmtKind::Decl { var, .. } = &s.kind {
                locals.insert(*var);
            }
        });
        visit::each_expr(&body, &mut |e| {
            if let ExprKind::Var(v) = e.kind {
                locals.insert(v);
            }
        });
        let fname = self.prog.func(f).name.clone();
        let mut renames: HashMap<VarId, VarId> = HashMap::new();
        for v in locals {
            let var = self.prog.var(v).clone();
            let hoist = match var.kind {
                VarKind::Local | VarKind::Param => true,
                // Thread-local globals get a copy per thread (main keeps the original).
                VarKind::Global => var.thread_local && k > 0,
            };
            if !hoist {
                continue;
            }
            let name = if k == 0 {
                var.name.clone()
            } else {
                format!("{}_{}", var.name, k)
            };
            let init = if var.thread_local {
                var.init.clone()
            } else {
                None
            };
            // A `const` local is assigned where it was declared, so its global is not const.
            let ty = strip_const(&var.ty);
            let g = self.prog.new_global(&name, ty, init, var.loc);
            self.prog.var_mut(g).func = None;
            renames.insert(v, g);
        }
        let mut body = body;
        let mut r = Rename(&renames);
        r.visit_stmt(&mut body);
        // Bind parameters: main's from nondet (argc/argv), a thread's from its argument.
        let mut entry = Vec::new();
        let params = self.prog.func(f).params.clone();
        for (i, p) in params.iter().enumerate() {
            let Some(g) = renames.get(p).copied() else {
                continue;
            };
            let target = b::var(&self.prog, g);
            let value = if k == 0 || i > 0 {
                b::nondet(&target.ty, Loc::SYNTH)
            } else {
                b::elem(&self.prog, self.vars.arg, b::uint(k as i128))
            };
            let a = b::assign(target, value, self.tt());
            entry.push(b::expr_stmt(a, self.prog.func(f).loc, StmtId::NONE));
        }
        let end = self.label(&format!("end_{fname}_"));
        let mut v = entry;
        v.push(body);
        Ok((Stmt::block(v, Loc::SYNTH), end))
    }

    /// Statements of a thread's last point.
    fn exit_statements(&mut self, k: u32, _j: usize) -> Vec<Stmt> {
        let mut out = Vec::new();
        let tt = self.prog.types.clone();
        if k == 0 {
            let h = b::assign(b::var(&self.prog, self.vars.halted), b::int(1), &tt);
            out.push(b::expr_stmt(h, Loc::SYNTH, StmtId::NONE));
        } else {
            // Destructors of thread-specific data run as the thread exits.
            for key in 0..MAX_KEYS {
                for d in self.dtors.clone() {
                    let val = b::elem2(
                        &self.prog,
                        self.vars.tls,
                        b::uint(k as i128),
                        b::uint(key as i128),
                    );
                    let dptr = b::elem(&self.prog, self.vars.dtor, b::uint(key as i128));
                    let fexpr = Expr::new(ExprKind::Func(d), dptr.ty.clone(), Loc::SYNTH);
                    let is_d = b::bin(BinOp::Eq, dptr, fexpr);
                    let nonnull = b::bin(
                        BinOp::Ne,
                        val.clone(),
                        b::conv(b::int(0), &Type::void_ptr(), &tt),
                    );
                    let call = b::call(&self.prog, d, vec![val.clone()]);
                    let call_stmt = b::expr_stmt(call, Loc::SYNTH, StmtId::NONE);
                    let inlined = Inliner::new(&mut self.prog, None, self.opts.recursion)
                        .inline_body(d, &Stmt::block(vec![call_stmt], Loc::SYNTH));
                    let inlined = match inlined {
                        Ok(s) => Unroller::new(&mut self.prog, None, self.opts.unwind).unroll(s),
                        Err(_) => continue,
                    };
                    let clear = b::assign(val, b::conv(b::int(0), &Type::void_ptr(), &tt), &tt);
                    out.push(b::if_(
                        b::and(is_d, nonnull),
                        vec![inlined, b::expr_stmt(clear, Loc::SYNTH, StmtId::NONE)],
                        None,
                    ));
                }
            }
        }
        let d = b::assign(
            b::elem(&self.prog, self.vars.done, b::uint(k as i128)),
            b::int(1),
            &tt,
        );
        out.push(b::expr_stmt(d, Loc::SYNTH, StmtId::NONE));
        out
    }

    /// `if (ACTIVE(k, p)) { point marker; [blocking]; stmts }`.
    fn guard(
        &mut self,
        k: u32,
        p: usize,
        head: StmtId,
        loc: Loc,
        blocking: Option<Expr>,
        stmts: Vec<Stmt>,
    ) -> Stmt {
        let tt = self.prog.types.clone();
        let pc = b::elem(&self.prog, self.vars.pc, b::uint(k as i128));
        // The marker carries the point's head statement, so traces can name it.
        let marker = b::expr_stmt(
            b::intrinsic(
                Intrinsic::Point,
                vec![b::int(k as i128), b::int(p as i128)],
                loc,
            ),
            loc,
            head,
        );
        let pc_ok = b::bin(BinOp::Le, pc.clone(), b::uint(p as i128));
        // Fixed switch points run like the symbolic framework with constant `cs`.
        let concrete = self.concrete.filter(|r| r.ends.is_none());
        match concrete {
            None => {
                let before_cs = b::bin(
                    BinOp::Lt,
                    b::uint(p as i128),
                    b::var(&self.prog, self.vars.cs),
                );
                let mut body = vec![marker];
                if let Some(c) = blocking {
                    body.push(b::expr_stmt(
                        b::intrinsic(Intrinsic::Assume, vec![c], loc),
                        loc,
                        StmtId::NONE,
                    ));
                }
                body.extend(stmts);
                let mut cond = b::and(pc_ok, before_cs);
                if self.concrete.is_none() {
                    cond = b::and(cond, b::not(b::var(&self.prog, self.vars.failed)));
                }
                b::if_(cond, body, None)
            }
            Some(r) => {
                let not_stopped = b::not(b::var(&self.prog, self.vars.stop));
                let stop_here = |this: &mut Self, reason: i128| -> Vec<Stmt> {
                    let set_pc = b::assign(pc.clone(), b::uint(p as i128), &tt);
                    let stop = b::assign(b::var(&this.prog, this.vars.stop), b::int(1), &tt);
                    let why = b::assign(
                        b::var(&this.prog, this.vars.stop_reason),
                        b::int(reason),
                        &tt,
                    );
                    vec![
                        b::expr_stmt(set_pc, Loc::SYNTH, StmtId::NONE),
                        b::expr_stmt(stop, Loc::SYNTH, StmtId::NONE),
                        b::expr_stmt(why, Loc::SYNTH, StmtId::NONE),
                    ]
                };
                let mut inner = match blocking {
                    Some(c) => {
                        let blocked = stop_here(self, 2);
                        vec![b::if_(c, stmts, Some(blocked))]
                    }
                    None => stmts,
                };
                let is_stop_stmt = !head.is_none()
                    && r.blocks.iter().any(|bl| {
                        bl.thread == k && matches!(bl.until, Stop::Before(s, _) if s == head)
                    });
                if is_stop_stmt {
                    let occ = self.occ_var(k, head);
                    let oi = b::var(&self.prog, self.vars.order_index);
                    let sid_match = b::bin(
                        BinOp::Eq,
                        b::elem(&self.prog, self.vars.stop_sid, oi.clone()),
                        b::uint(head.0 as i128 + 1),
                    );
                    let occ_match = b::bin(
                        BinOp::Eq,
                        b::bin(BinOp::Add, b::var(&self.prog, occ), b::uint(1)),
                        b::elem(&self.prog, self.vars.stop_occ, oi),
                    );
                    let count = b::assign(
                        b::var(&self.prog, occ),
                        b::bin(BinOp::Add, b::var(&self.prog, occ), b::uint(1)),
                        &tt,
                    );
                    let mut go = vec![b::expr_stmt(count, Loc::SYNTH, StmtId::NONE)];
                    go.append(&mut inner);
                    let stopped = stop_here(self, 1);
                    inner = vec![b::if_(b::and(sid_match, occ_match), stopped, Some(go))];
                }
                let mut body = vec![marker];
                body.extend(inner);
                b::if_(b::and(pc_ok, not_stopped), body, None)
            }
        }
    }

    fn input_occ_var(&mut self, k: u32, sid: StmtId) -> VarId {
        if let Some(v) = self.input_occ.get(&(k, sid)) {
            return *v;
        }
        let v = self.prog.new_global(
            &format!("__seq_inocc{}_{}", k, sid.0),
            Type::uint(),
            None,
            Loc::SYNTH,
        );
        self.input_occ.insert((k, sid), v);
        v
    }

    fn occ_var(&mut self, k: u32, sid: StmtId) -> VarId {
        if let Some(v) = self.occ_vars.get(&(k, sid)) {
            return *v;
        }
        let v = self.prog.new_global(
            &format!("__seq_occ{}_{}", k, sid.0),
            Type::uint(),
            None,
            Loc::SYNTH,
        );
        self.occ_vars.insert((k, sid), v);
        v
    }

    /// The deadlock probe for one slot code: the same control skeleton, each point
    /// replaced by "if this is the thread's next point, record whether it is blocked".
    fn probe_code(&mut self, k: u32, code: &[Stmt], points: &[PointInfo]) -> Vec<Stmt> {
        let suffix = format!(
            "_probe{k}_{}",
            self.prog.fresh_label("p").trim_start_matches("__p")
        );
        let mut out = Vec::new();
        for s in code {
            if let Some(x) = self.probe_stmt(k, s, points, &suffix) {
                out.push(x);
            }
        }
        out
    }

    fn probe_stmt(&mut self, k: u32, s: &Stmt, points: &[PointInfo], suffix: &str) -> Option<Stmt> {
        let tt = self.prog.types.clone();
        match &s.kind {
            StmtKind::If { cond, then, els } => {
                if let Some(p) = point_of(then) {
                    let pc = b::elem(&self.prog, self.vars.pc, b::uint(k as i128));
                    let here = b::and(
                        b::bin(BinOp::Le, pc, b::uint(p as i128)),
                        b::not(b::var(&self.prog, self.vars.probed)),
                    );
                    let blocked_val = match points.get(p).and_then(|x| x.blocking.clone()) {
                        Some(c) => b::not(c),
                        None => b::int(0),
                    };
                    let set_probed =
                        b::assign(b::var(&self.prog, self.vars.probed), b::int(1), &tt);
                    let set_blocked =
                        b::assign(b::var(&self.prog, self.vars.blocked), blocked_val, &tt);
                    let resume = b::intrinsic(
                        Intrinsic::Resume,
                        vec![b::int(k as i128), b::int(p as i128)],
                        Loc::SYNTH,
                    );
                    return Some(b::if_(
                        here,
                        vec![
                            b::expr_stmt(set_probed, Loc::SYNTH, StmtId::NONE),
                            b::expr_stmt(set_blocked, Loc::SYNTH, StmtId::NONE),
                            b::expr_stmt(resume, Loc::SYNTH, StmtId::NONE),
                        ],
                        None,
                    ));
                }
                let t = self.probe_block(k, then, points, suffix);
                let e = els.as_ref().map(|e| self.probe_block(k, e, points, suffix));
                Some(b::if_(cond.clone(), t, e))
            }
            StmtKind::Block(ss) => Some(Stmt::block(
                self.probe_block_list(k, ss, points, suffix),
                Loc::SYNTH,
            )),
            StmtKind::Goto(l) => Some(b::goto(&format!("{l}{suffix}"))),
            StmtKind::Label(l) => Some(b::label(&format!("{l}{suffix}"))),
            _ => None,
        }
    }

    fn probe_block(&mut self, k: u32, s: &Stmt, points: &[PointInfo], suffix: &str) -> Vec<Stmt> {
        match &s.kind {
            StmtKind::Block(ss) => self.probe_block_list(k, ss, points, suffix),
            _ => self.probe_stmt(k, s, points, suffix).into_iter().collect(),
        }
    }

    fn probe_block_list(
        &mut self,
        k: u32,
        ss: &[Stmt],
        points: &[PointInfo],
        suffix: &str,
    ) -> Vec<Stmt> {
        ss.iter()
            .filter_map(|x| self.probe_stmt(k, x, points, suffix))
            .collect()
    }

    /// The framework's `main` from the skeleton (`templates/framework.c`); returns the
    /// number of rounds or blocks.
    fn framework(
        &mut self,
        slots: &[SlotInfo],
        slot_funcs: &[FuncId],
        probe_funcs: &[FuncId],
        orig_main: FuncId,
    ) -> Result<u32, SeqError> {
        let v = self.vars.clone();
        let mut flags = Vec::new();
        let mut fixed = None;
        let steps;
        match self.concrete {
            None => {
                flags.push("symbolic");
                steps = self.opts.rounds.max(1);
            }
            Some(r) => {
                flags.push("concrete");
                steps = r.blocks.len() as u32;
                // order[] holds case numbers (1 = main, n+1 = thread n), as in the paper;
                // the stop arrays say where each block ends (statement id + 1, or 0 for
                // "until it ends or blocks").
                let order_init: Vec<Expr> = r
                    .blocks
                    .iter()
                    .map(|bl| b::int(bl.thread as i128 + 1))
                    .collect();
                let sid_init: Vec<Expr> = r
                    .blocks
                    .iter()
                    .map(|bl| match bl.until {
                        Stop::End => b::uint(0),
                        Stop::Before(s, _) => b::uint(s.0 as i128 + 1),
                    })
                    .collect();
                let occ_init: Vec<Expr> = r
                    .blocks
                    .iter()
                    .map(|bl| match bl.until {
                        Stop::End => b::uint(0),
                        Stop::Before(_, o) => b::uint(o as i128),
                    })
                    .collect();
                self.prog.var_mut(v.order).init = Some(init_list(order_init));
                self.prog.var_mut(v.stop_sid).init = Some(init_list(sid_init));
                self.prog.var_mut(v.stop_occ).init = Some(init_list(occ_init));
                // Fixed switch points: block i runs its thread up to point `__seq_cs_at[i]`.
                fixed = r.ends.as_ref().map(|ends| {
                    let items: Vec<Expr> = ends.iter().map(|e| b::uint(*e as i128)).collect();
                    self.prog.new_global(
                        "__seq_cs_at",
                        Type::Array(Box::new(Type::uint()), Some(items.len().max(1) as u64)),
                        Some(init_list(items)),
                        Loc::SYNTH,
                    )
                });
                if fixed.is_some() {
                    flags.push("fixed_points");
                }
            }
        }
        if !probe_funcs.is_empty() {
            flags.push("probes");
            if self.opts.deadlock {
                flags.push("deadlock");
            }
        }
        let mut vars: HashMap<String, VarId> = HashMap::new();
        for id in v.all().into_iter().chain(fixed) {
            vars.insert(self.prog.var(id).name.clone(), id);
        }
        let mut funcs: HashMap<String, FuncId> = HashMap::new();
        for f in slot_funcs.iter().chain(probe_funcs) {
            funcs.insert(self.prog.func(*f).name.clone(), *f);
        }
        let expansion = Expansion {
            flags,
            slots: slots
                .iter()
                .enumerate()
                .map(|(k, slot)| SlotValues {
                    thread: self.prog.func(slot_funcs[k]).name.clone(),
                    probe: probe_funcs.get(k).map(|f| self.prog.func(*f).name.clone()),
                    points: slot.codes.iter().map(|c| c.points.len()).max().unwrap_or(1),
                })
                .collect(),
            rounds: steps,
            blocks: steps as usize,
        };
        let body = self
            .opts
            .skeleton
            .instantiate(&self.prog, &expansion, &vars, &funcs)?;
        // The user's main becomes slot 0's code; the framework takes its name.
        let user_main_loc = self.prog.func(orig_main).loc;
        self.prog.func_mut(orig_main).name = "__seq_user_main".into();
        let m = self.prog.add_func(Function {
            name: "main".into(),
            ty: FuncType {
                ret: Type::int(),
                params: vec![],
                variadic: false,
                unprototyped: false,
            },
            params: vec![],
            body: Some(body),
            is_static: false,
            is_inline: false,
            noreturn: false,
            loc: user_main_loc,
            unsupported: None,
        });
        self.prog.items.push(Item::Func(m));
        Ok(steps)
    }
}

/// The type without `const` at the top level or on array elements.
fn strip_const(ty: &Type) -> Type {
    match ty {
        Type::Qualified(inner, q) => {
            let q = Quals { konst: false, ..*q };
            strip_const(inner).qualified(q)
        }
        Type::Array(e, n) => Type::Array(Box::new(strip_const(e)), *n),
        t => t.clone(),
    }
}

fn init_list(xs: Vec<Expr>) -> Init {
    Init::List(
        xs.into_iter()
            .enumerate()
            .map(|(i, e)| InitItem {
                path: vec![Designator::Index(i as u64)],
                init: Init::Expr(e),
            })
            .collect(),
    )
}

fn bin_or(a: Expr, c: Expr) -> Expr {
    b::bin(BinOp::LogOr, a, c)
}

/// The point index of a guarded group (`if (...) { Point(k, p); ... }`).
fn point_of(then: &Stmt) -> Option<usize> {
    let StmtKind::Block(ss) = &then.kind else {
        return None;
    };
    let StmtKind::Expr(e) = &ss.first()?.kind else {
        return None;
    };
    match &e.kind {
        ExprKind::Intrinsic(Intrinsic::Point, args) => args.get(1)?.as_int().map(|p| p as usize),
        _ => None,
    }
}

struct Rename<'a>(&'a HashMap<VarId, VarId>);

impl VisitorMut for Rename<'_> {
    fn visit_stmt(&mut self, s: &mut Stmt) {
        if let StmtKind::Decl { var, .. } = &mut s.kind {
            if let Some(n) = self.0.get(var) {
                *var = *n;
            }
        }
        visit::walk_stmt_mut(self, s)
    }
    fn visit_expr(&mut self, e: &mut Expr) {
        if let ExprKind::Var(v) = &mut e.kind {
            if let Some(n) = self.0.get(v) {
                *v = *n;
                // The hoisted global has the same type.
            }
        }
        visit::walk_expr_mut(self, e)
    }
}

/// One step of translated code: its statements and what kind of point it needs.
struct Step {
    stmts: Vec<Stmt>,
    head: StmtId,
    loc: Loc,
    visible: bool,
    blocking: Option<Expr>,
    /// A jump that follows the step (`pthread_exit`, `return`).
    then_goto: Option<String>,
}

struct Group {
    head: StmtId,
    step_heads: Vec<StmtId>,
    loc: Loc,
    stmts: Vec<Stmt>,
    visible: bool,
    blocking: Option<Expr>,
}

/// Cuts one slot's code into points and guards them.
struct SlotGen<'a, 'b> {
    b: &'a mut Builder<'b>,
    k: u32,
    shared: &'a SharedInfo,
    points: Vec<PointInfo>,
    cur: Option<Group>,
    end_label: Option<String>,
}

impl<'a, 'b> SlotGen<'a, 'b> {
    fn new(b: &'a mut Builder<'b>, k: u32, shared: &'a SharedInfo) -> SlotGen<'a, 'b> {
        SlotGen {
            b,
            k,
            shared,
            points: vec![],
            cur: None,
            end_label: None,
        }
    }

    fn flush(&mut self, out: &mut Vec<Stmt>) {
        if let Some(g) = self.cur.take() {
            let p = self.points.len();
            self.points.push(PointInfo {
                head: g.head,
                loc: g.loc,
                stmts: g
                    .stmts
                    .iter()
                    .filter(|s| !s.id.is_none())
                    .map(|s| (s.id, s.loc))
                    .collect(),
                step_heads: g.step_heads,
                visible: g.visible,
                blocking: g.blocking.clone(),
                kind: PointKind::Code,
            });
            let s = self.b.guard(self.k, p, g.head, g.loc, g.blocking, g.stmts);
            out.push(s);
        }
    }

    fn walk(&mut self, s: Stmt, out: &mut Vec<Stmt>) {
        let loc = s.loc;
        match s.kind {
            StmtKind::Block(ss) => {
                for x in ss {
                    self.walk(x, out);
                }
            }
            StmtKind::If { cond, then, els } => {
                self.flush(out);
                let t = self.branch(*then);
                let e = els.map(|e| Box::new(self.branch(*e)));
                out.push(Stmt::new(
                    StmtKind::If {
                        cond,
                        then: Box::new(t),
                        els: e,
                    },
                    loc,
                ));
            }
            StmtKind::Goto(l) => {
                self.flush(out);
                out.push(Stmt::new(StmtKind::Goto(l), loc));
            }
            StmtKind::Label(l) => {
                self.flush(out);
                out.push(Stmt::new(StmtKind::Label(l), loc));
            }
            StmtKind::Skip
            | StmtKind::Break
            | StmtKind::Continue
            | StmtKind::Case { .. }
            | StmtKind::Default => {}
            StmtKind::Return(v) => {
                let id = s.id;
                let mut stmts = Vec::new();
                if let Some(v) = v {
                    if self.k != 0 && !v.ty.is_void(self.b.tt()) {
                        let tt = self.b.prog.types.clone();
                        let target =
                            b::elem(&self.b.prog, self.b.vars.ret, b::uint(self.k as i128));
                        stmts.push(b::expr_stmt(b::assign(target, v, &tt), loc, id));
                    }
                }
                let end = self.end_label();
                let step = Step {
                    stmts,
                    head: id,
                    loc,
                    visible: false,
                    blocking: None,
                    then_goto: Some(end),
                };
                self.add(step, out);
            }
            kind @ (StmtKind::Decl { .. } | StmtKind::Expr(_)) => {
                let st = Stmt {
                    kind,
                    loc,
                    id: s.id,
                };
                let steps = self.translate(st);
                for step in steps {
                    self.add(step, out);
                }
            }
            StmtKind::While { .. }
            | StmtKind::DoWhile { .. }
            | StmtKind::For { .. }
            | StmtKind::Switch { .. } => {
                // Unrolling leaves none; keep the statement in its own point if one slips.
                self.flush(out);
                out.push(Stmt {
                    kind: s.kind,
                    loc,
                    id: s.id,
                });
            }
        }
    }

    fn end_label(&mut self) -> String {
        if self.end_label.is_none() {
            self.end_label = Some(format!("__seq_end{}", self.k));
        }
        self.end_label.clone().unwrap_or_default()
    }

    fn branch(&mut self, s: Stmt) -> Stmt {
        let loc = s.loc;
        let mut v = Vec::new();
        self.walk(s, &mut v);
        self.flush(&mut v);
        Stmt::block(v, loc)
    }

    fn add(&mut self, step: Step, out: &mut Vec<Stmt>) {
        let forced = self.b.concrete.is_some_and(|r| {
            !step.head.is_none()
                && r.blocks.iter().any(|bl| {
                    bl.thread == self.k && matches!(bl.until, Stop::Before(s, _) if s == step.head)
                })
        });
        let starts_new = step.visible || step.blocking.is_some() || forced;
        if starts_new || self.cur.is_none() {
            self.flush(out);
            self.cur = Some(Group {
                head: step.head,
                step_heads: vec![],
                loc: step.loc,
                stmts: vec![],
                visible: step.visible,
                blocking: step.blocking.clone(),
            });
        }
        if let Some(g) = &mut self.cur {
            if !step.head.is_none() {
                g.step_heads.push(step.head);
            }
            g.stmts.extend(step.stmts);
        }
        if step.blocking.is_some() {
            self.flush(out);
        }
        if let Some(l) = step.then_goto {
            self.flush(out);
            // The jump targets this slot's end label, which the caller places.
            out.push(b::goto(&l));
        }
    }

    /// One normalized statement in the sequential program: pthread calls through the
    /// rules, declarations as assignments to the hoisted globals, inputs fixed in
    /// concrete mode.
    fn translate(&mut self, s: Stmt) -> Vec<Step> {
        let loc = s.loc;
        let id = s.id;
        let tt = self.b.prog.types.clone();
        let plain = |this: &Self, stmts: Vec<Stmt>| -> Step {
            let visible = stmts.iter().any(|x| shared_accesses(this.shared, x) > 0)
                || stmts.iter().any(is_sync_marker);
            Step {
                stmts,
                head: id,
                loc,
                visible,
                blocking: None,
                then_goto: None,
            }
        };
        // Pull out a library call: (lhs, callee, args).
        let call = match &s.kind {
            StmtKind::Expr(e) => match &e.kind {
                ExprKind::Call(c, a) => Some((None, (**c).clone(), a.clone())),
                ExprKind::Assign(l, r) => match &r.kind {
                    ExprKind::Call(c, a) => Some((Some((**l).clone()), (**c).clone(), a.clone())),
                    _ => None,
                },
                _ => None,
            },
            StmtKind::Decl {
                var,
                init: Some(Init::Expr(e)),
            } => match &e.kind {
                ExprKind::Call(c, a) => {
                    Some((Some(b::var(&self.b.prog, *var)), (**c).clone(), a.clone()))
                }
                _ => None,
            },
            _ => None,
        };
        if let Some((lhs, callee, args)) = call {
            if let ExprKind::Func(f) = callee.peel().kind {
                let name = self.b.prog.func(f).name.clone();
                let typed = if self.b.typed_mutexes {
                    sync::typed_action(&name)
                } else {
                    None
                };
                if let Some(action) = typed.or_else(|| self.b.opts.rules.action(&name)) {
                    return self.model(action, lhs, &args, loc, id);
                }
            }
        }
        match s.kind {
            StmtKind::Decl { var, init } => {
                let target = b::var(&self.b.prog, var);
                let ty = target.ty.clone();
                let stmts = match init {
                    None => {
                        if ty.is_scalar(&tt) {
                            let (mut pre, v) = self.input(&ty, loc, id);
                            pre.push(b::expr_stmt(b::assign(target, v, &tt), loc, id));
                            pre
                        } else {
                            havoc_elements(&self.b.prog, target, loc, id)
                        }
                    }
                    Some(Init::Expr(e)) => {
                        let (mut pre, e) = self.fix_inputs(e, loc, id);
                        if ty.is_array(&tt) {
                            pre.extend(init_elements(
                                &self.b.prog,
                                target,
                                &Init::Expr(e),
                                loc,
                                id,
                            ));
                        } else {
                            pre.push(b::expr_stmt(b::assign(target, e, &tt), loc, id));
                        }
                        pre
                    }
                    Some(init) => init_elements(&self.b.prog, target, &init, loc, id),
                };
                vec![plain(self, stmts)]
            }
            StmtKind::Expr(e) => {
                let e = match &e.kind {
                    ExprKind::Intrinsic(Intrinsic::Await, args) => {
                        // A spin-wait: a blocking point whose enabling condition is read
                        // each time the thread tries to go on.
                        let c = args.first().cloned().unwrap_or_else(|| b::int(1));
                        return vec![Step {
                            stmts: vec![],
                            head: id,
                            loc,
                            visible: true,
                            blocking: Some(c),
                            then_goto: None,
                        }];
                    }
                    // Symbolic mode: a violation is recorded and stops the run (every later
                    // point is guarded by `!failed`), without ending the path, so the
                    // probes at the end still see where each thread stood.
                    ExprKind::Intrinsic(Intrinsic::Error, _) if self.b.concrete.is_none() => {
                        let failed = b::var(&self.b.prog, self.b.vars.failed);
                        let record =
                            b::intrinsic(Intrinsic::Error, vec![b::int(ERROR_RECORD_ONLY)], loc);
                        let set = b::assign(failed, b::int(1), &tt);
                        return vec![plain(
                            self,
                            vec![b::expr_stmt(record, loc, id), b::expr_stmt(set, loc, id)],
                        )];
                    }
                    ExprKind::Intrinsic(Intrinsic::Assert, args) if self.b.concrete.is_none() => {
                        let c = args.first().cloned().unwrap_or_else(|| b::int(1));
                        let failed = b::var(&self.b.prog, self.b.vars.failed);
                        let set = b::assign(failed, b::int(1), &tt);
                        let check = b::expr_stmt(e.clone(), loc, id);
                        let mark = b::if_(b::not(c), vec![b::expr_stmt(set, loc, id)], None);
                        return vec![plain(self, vec![check, mark])];
                    }
                    ExprKind::Intrinsic(Intrinsic::AtomicBegin | Intrinsic::AtomicEnd, _) => {
                        let begin =
                            matches!(e.kind, ExprKind::Intrinsic(Intrinsic::AtomicBegin, _));
                        let flag =
                            b::elem(&self.b.prog, self.b.vars.atomic, b::uint(self.k as i128));
                        let set = b::assign(flag, b::int(begin as i128), &tt);
                        return vec![Step {
                            stmts: vec![b::expr_stmt(set, loc, id)],
                            head: id,
                            loc,
                            visible: begin,
                            blocking: None,
                            then_goto: None,
                        }];
                    }
                    _ => e,
                };
                let (mut pre, e) = self.fix_inputs(e, loc, id);
                pre.push(b::expr_stmt(e, loc, id));
                vec![plain(self, pre)]
            }
            k => vec![plain(self, vec![Stmt { kind: k, loc, id }])],
        }
    }

    /// A nondeterministic value, or in concrete mode the recorded input for this
    /// statement's next occurrence in this thread. Returns statements to run first (the
    /// occurrence counter) and the value.
    fn input(&mut self, ty: &Type, loc: Loc, id: StmtId) -> (Vec<Stmt>, Expr) {
        let Some(r) = self.b.concrete else {
            return (vec![], b::nondet(ty, loc));
        };
        let Some(values) = r.inputs.get(&(self.k, id)).cloned() else {
            return (vec![], b::nondet(ty, loc));
        };
        let tt = self.b.prog.types.clone();
        let (table, len) = match self.b.input_tables.get(&(self.k, id)) {
            Some(t) => *t,
            None => {
                let n = values.iter().map(|(o, _)| *o).max().unwrap_or(0) as usize;
                let mut items = Vec::new();
                for (o, v) in &values {
                    items.push(InitItem {
                        path: vec![Designator::Index(u64::from(o.saturating_sub(1)))],
                        init: Init::Expr(Expr::int(*v, Type::Int(IntKind::LongLong), Loc::SYNTH)),
                    });
                }
                let g = self.b.prog.new_global(
                    &format!("__seq_input{}_{}", self.k, id.0),
                    Type::Array(
                        Box::new(Type::Int(IntKind::LongLong)),
                        Some(n.max(1) as u64),
                    ),
                    Some(Init::List(items)),
                    Loc::SYNTH,
                );
                self.b.input_tables.insert((self.k, id), (g, n));
                (g, n)
            }
        };
        // `occ = occ + 1; value = occ <= n ? table[occ - 1] : nondet`
        let occ = self.b.input_occ_var(self.k, id);
        let prog = &self.b.prog;
        let occ_e = b::var(prog, occ);
        let bump = b::assign(
            occ_e.clone(),
            b::bin(BinOp::Add, occ_e.clone(), b::uint(1)),
            &tt,
        );
        let within = b::bin(BinOp::Le, occ_e.clone(), b::uint(len as i128));
        let val = b::conv(
            b::elem(prog, table, b::bin(BinOp::Sub, occ_e, b::uint(1))),
            ty,
            &tt,
        );
        let value = Expr::new(
            ExprKind::Cond(
                Box::new(within),
                Box::new(val),
                Box::new(b::nondet(ty, loc)),
            ),
            ty.unqualified().clone(),
            loc,
        );
        (vec![b::expr_stmt(bump, loc, id)], value)
    }

    fn fix_inputs(&mut self, e: Expr, loc: Loc, id: StmtId) -> (Vec<Stmt>, Expr) {
        if self.b.concrete.is_none() {
            return (vec![], e);
        }
        match &e.kind {
            ExprKind::Intrinsic(Intrinsic::Nondet, _) => {
                let ty = e.ty.clone();
                self.input(&ty, loc, id)
            }
            ExprKind::Assign(l, r)
                if matches!(r.kind, ExprKind::Intrinsic(Intrinsic::Nondet, _)) =>
            {
                let ty = r.ty.clone();
                let (pre, v) = self.input(&ty, loc, id);
                let tt = self.b.prog.types.clone();
                (pre, b::assign((**l).clone(), v, &tt))
            }
            _ => (vec![], e),
        }
    }

    /// Table II actions as statements in the sequential program.
    fn model(
        &mut self,
        action: Action,
        lhs: Option<Expr>,
        args: &[Expr],
        loc: Loc,
        id: StmtId,
    ) -> Vec<Step> {
        let tt = self.b.prog.types.clone();
        let k = self.k as i128;
        let prog = &self.b.prog;
        let v = self.b.vars.clone();
        let st = |e: Expr| b::expr_stmt(e, loc, id);
        let zero_result = |lhs: &Option<Expr>| -> Vec<Stmt> {
            match lhs {
                Some(l) => vec![b::expr_stmt(b::assign(l.clone(), b::int(0), &tt), loc, id)],
                None => vec![],
            }
        };
        let step = |stmts: Vec<Stmt>, visible: bool, blocking: Option<Expr>| Step {
            stmts,
            head: id,
            loc,
            visible,
            blocking,
            then_goto: None,
        };
        let arg = |i: usize| args.get(i).cloned().unwrap_or_else(|| b::int(0));
        let me = b::uint(k);
        match action {
            // A removed synchronization call still marks a point (where it was), so both
            // rule groups cut the code at the same places.
            // It stays in the trace as `(void)0` (no value to set), so that lock-set and
            // ordering questions about the replay can see where it ran.
            Action::Remove => {
                let mut s = zero_result(&lhs);
                if s.is_empty() {
                    s.push(st(b::conv(b::int(0), &Type::Void, &tt)));
                }
                vec![step(s, true, None)]
            }
            Action::Create => {
                let mut s = Vec::new();
                let tmp = b::var(prog, v.tmp);
                let nthreads = b::var(prog, v.nthreads);
                let nslots = self.b.nslots as i128;
                let concrete = self.b.concrete.is_some();
                let fixed_id = match &self.b.static_ids {
                    Some(ids) if self.k == 0 => {
                        let id = ids.get(self.b.creates_seen).copied().flatten();
                        self.b.creates_seen += 1;
                        id.filter(|&id| (id as i128) < nslots)
                    }
                    _ => None,
                };
                // The new thread's id: fixed at translation time, or `nthreads` at run time
                // (then bounded by the slots).
                let id = match fixed_id {
                    Some(id) => b::uint(id as i128),
                    None => {
                        if !concrete {
                            // More threads than slots: the bounded exploration stops here.
                            s.push(b::if_(
                                b::bin(BinOp::Ge, nthreads.clone(), b::uint(nslots)),
                                vec![st(b::intrinsic(Intrinsic::Unwind, vec![], loc))],
                                None,
                            ));
                        }
                        tmp.clone()
                    }
                };
                let source = if fixed_id.is_some() {
                    id.clone()
                } else {
                    nthreads.clone()
                };
                s.push(st(b::assign(tmp.clone(), source, &tt)));
                let fid = self.thread_fn_index(&arg(2));
                let record = vec![
                    st(b::assign(
                        b::elem(prog, v.created, id.clone()),
                        b::int(1),
                        &tt,
                    )),
                    st(b::assign(b::elem(prog, v.arg, id.clone()), arg(3), &tt)),
                    st(b::assign(b::elem(prog, v.fnid, id.clone()), fid, &tt)),
                ];
                if concrete {
                    // A replayed schedule lists only the threads that ran; one created
                    // but never scheduled gets its id and no slot.
                    s.push(b::if_(
                        b::bin(BinOp::Lt, nthreads.clone(), b::uint(nslots)),
                        record,
                        None,
                    ));
                } else {
                    s.extend(record);
                }
                s.push(st(b::assign(
                    nthreads,
                    b::bin(BinOp::Add, id.clone(), b::uint(1)),
                    &tt,
                )));
                let t_ptr = arg(0);
                if !is_null(&t_ptr, &tt) {
                    let target = b::deref(t_ptr, &tt);
                    s.push(st(b::assign(target, id, &tt)));
                }
                s.extend(zero_result(&lhs));
                vec![step(s, true, None)]
            }
            Action::Join => {
                let t = b::conv(arg(0), &Type::uint(), &tt);
                let mut done = b::elem(prog, v.done, t.clone());
                if self.b.concrete.is_some() {
                    // A thread without a slot never ran (see Create): joining it blocks.
                    let slotted = b::bin(BinOp::Lt, t.clone(), b::uint(self.b.nslots as i128));
                    done = b::bin(BinOp::LogAnd, slotted, done);
                }
                let mut s = Vec::new();
                let rp = arg(1);
                if !is_null(&rp, &tt) {
                    let nonnull = b::bin(BinOp::Ne, rp.clone(), b::conv(b::int(0), &rp.ty, &tt));
                    let target = b::deref(rp, &tt);
                    let val = b::elem(prog, v.ret, t);
                    s.push(b::if_(nonnull, vec![st(b::assign(target, val, &tt))], None));
                }
                s.extend(zero_result(&lhs));
                // As a removed call, a join with nothing to store stays in the trace as
                // `(void)0`: the ordering questions look for where the joins ran.
                if s.is_empty() {
                    s.push(st(b::conv(b::int(0), &Type::Void, &tt)));
                }
                vec![step(s, true, Some(done))]
            }
            Action::Exit => {
                let mut s = Vec::new();
                if self.k != 0 {
                    s.push(st(b::assign(b::elem(prog, v.ret, me), arg(0), &tt)));
                    let end = self.end_label();
                    return vec![Step {
                        stmts: s,
                        head: id,
                        loc,
                        visible: true,
                        blocking: None,
                        then_goto: Some(end),
                    }];
                }
                // pthread_exit in main: main ends, the other threads go on.
                s.push(st(b::assign(
                    b::elem(prog, v.done, b::uint(0)),
                    b::int(1),
                    &tt,
                )));
                vec![Step {
                    stmts: s,
                    head: id,
                    loc,
                    visible: true,
                    blocking: None,
                    then_goto: Some(MAIN_EXIT.to_string()),
                }]
            }
            Action::SelfId => {
                let s = match lhs {
                    Some(l) => vec![st(b::assign(l, me, &tt))],
                    None => vec![],
                };
                vec![step(s, false, None)]
            }
            Action::Equal => {
                let s = match lhs {
                    Some(l) => vec![st(b::assign(l, b::bin(BinOp::Eq, arg(0), arg(1)), &tt))],
                    None => vec![],
                };
                vec![step(s, false, None)]
            }
            Action::Store0 => {
                let mut s = vec![];
                let p = arg(0);
                if !is_null(&p, &tt) {
                    s.push(st(b::assign(b::deref(p, &tt), b::int(0), &tt)));
                }
                s.extend(zero_result(&lhs));
                vec![step(s, true, None)]
            }
            Action::Lock | Action::Trylock | Action::Unlock if self.b.typed_mutexes => {
                self.sync_model(action, lhs, args, loc, id)
            }
            Action::Lock => {
                let m = b::deref(arg(0), &tt);
                let free = b::bin(BinOp::Eq, m.clone(), b::int(0));
                let mut s = vec![st(b::assign(
                    m,
                    b::bin(BinOp::Add, b::int(k), b::int(1)),
                    &tt,
                ))];
                s.extend(zero_result(&lhs));
                vec![step(s, true, Some(free))]
            }
            Action::Trylock => {
                let m = b::deref(arg(0), &tt);
                let free = b::bin(BinOp::Eq, m.clone(), b::int(0));
                let take = st(b::assign(m, b::bin(BinOp::Add, b::int(k), b::int(1)), &tt));
                let (ok, busy) = match &lhs {
                    Some(l) => (
                        vec![take, st(b::assign(l.clone(), b::int(0), &tt))],
                        vec![st(b::assign(l.clone(), b::int(EBUSY), &tt))],
                    ),
                    None => (vec![take], vec![]),
                };
                vec![step(vec![b::if_(free, ok, Some(busy))], true, None)]
            }
            Action::Unlock => {
                let m = b::deref(arg(0), &tt);
                let mut s = vec![st(b::assign(m, b::int(0), &tt))];
                s.extend(zero_result(&lhs));
                vec![step(s, true, None)]
            }
            Action::CondWait | Action::CondTimedwait => {
                let c = b::conv(arg(0), &Type::void_ptr(), &tt);
                let m_ptr = arg(1);
                let wait = b::elem(prog, v.wait, me.clone());
                let sig = b::elem(prog, v.sig, me.clone());
                // Part one: release the mutex and start waiting.
                let mut a = Vec::new();
                if self.b.models_mutexes && !is_null(&m_ptr, &tt) {
                    let m = b::deref(m_ptr.clone(), &tt);
                    a.push(st(if self.b.typed_mutexes {
                        self.typed_release(m)
                    } else {
                        b::assign(m, b::int(0), &tt)
                    }));
                }
                a.push(st(b::assign(wait.clone(), c, &tt)));
                a.push(st(b::assign(sig.clone(), b::int(0), &tt)));
                // Part two: woken up (no spurious wake-ups), take the mutex back.
                let timed = action == Action::CondTimedwait;
                let timeout = if timed {
                    let t = self.b.prog.new_global(
                        &format!("__seq_timeout{}_{}", self.k, id.0),
                        Type::bool(),
                        None,
                        loc,
                    );
                    Some(t)
                } else {
                    None
                };
                let prog = &self.b.prog;
                let mut enabled = sig.clone();
                let mut c2 = Vec::new();
                if let Some(t) = timeout {
                    enabled = bin_or(enabled, b::var(prog, t));
                }
                if self.b.models_mutexes && !is_null(&m_ptr, &tt) {
                    let m = b::deref(m_ptr.clone(), &tt);
                    if self.b.typed_mutexes {
                        let (free, take) = self.typed_retake(m);
                        enabled = b::and(enabled, free);
                        c2.push(st(take));
                    } else {
                        enabled = b::and(enabled, b::bin(BinOp::Eq, m.clone(), b::int(0)));
                        c2.push(st(b::assign(
                            m,
                            b::bin(BinOp::Add, b::int(k), b::int(1)),
                            &tt,
                        )));
                    }
                }
                match (&lhs, timeout) {
                    (Some(l), Some(_)) => {
                        let r = Expr::new(
                            ExprKind::Cond(
                                Box::new(sig.clone()),
                                Box::new(b::int(0)),
                                Box::new(b::int(ETIMEDOUT)),
                            ),
                            Type::int(),
                            loc,
                        );
                        c2.push(st(b::assign(l.clone(), r, &tt)));
                    }
                    (Some(l), None) => c2.push(st(b::assign(l.clone(), b::int(0), &tt))),
                    _ => {}
                }
                c2.push(st(b::assign(
                    wait,
                    b::conv(b::int(0), &Type::void_ptr(), &tt),
                    &tt,
                )));
                c2.push(st(b::assign(sig, b::int(0), &tt)));
                let mut part_b = Vec::new();
                if let Some(t) = timeout {
                    // Whether this wait times out is a nondeterministic choice (an input).
                    let (mut pre, choose) = self.input(&Type::bool(), loc, id);
                    let prog = &self.b.prog;
                    pre.push(st(b::assign(b::var(prog, t), choose, &tt)));
                    part_b.push(step(pre, false, None));
                }
                let mut out = vec![step(a, true, None)];
                out.extend(part_b);
                out.push(step(c2, true, Some(enabled)));
                out
            }
            Action::CondSignal | Action::CondBroadcast => {
                let c = b::conv(arg(0), &Type::void_ptr(), &tt);
                let n = self.b.nslots as i128;
                let mut s = Vec::new();
                if action == Action::CondBroadcast {
                    for j in 0..n {
                        let waits = b::bin(BinOp::Eq, b::elem(prog, v.wait, b::uint(j)), c.clone());
                        s.push(b::if_(
                            waits,
                            vec![
                                st(b::assign(
                                    b::elem(prog, v.wait, b::uint(j)),
                                    b::conv(b::int(0), &Type::void_ptr(), &tt),
                                    &tt,
                                )),
                                st(b::assign(b::elem(prog, v.sig, b::uint(j)), b::int(1), &tt)),
                            ],
                            None,
                        ));
                    }
                } else {
                    // Wake one waiter, chosen nondeterministically (an input when replayed).
                    let mut any: Option<Expr> = None;
                    for j in 0..n {
                        let w = b::bin(BinOp::Eq, b::elem(prog, v.wait, b::uint(j)), c.clone());
                        any = Some(match any {
                            Some(a) => bin_or(a, w),
                            None => w,
                        });
                    }
                    let pick = self.b.prog.new_global(
                        &format!("__seq_pick{}_{}", self.k, id.0),
                        Type::uint(),
                        None,
                        loc,
                    );
                    let (pre, choose) = self.input(&Type::uint(), loc, id);
                    s.extend(pre);
                    let prog = &self.b.prog;
                    let pk = b::var(prog, pick);
                    let valid = b::and(
                        b::bin(BinOp::Lt, pk.clone(), b::uint(n)),
                        b::bin(BinOp::Eq, b::elem(prog, v.wait, pk.clone()), c.clone()),
                    );
                    s.push(b::if_(
                        any.unwrap_or_else(|| b::int(0)),
                        vec![
                            st(b::assign(pk.clone(), choose, &tt)),
                            st(b::intrinsic(Intrinsic::Assume, vec![valid], loc)),
                            st(b::assign(
                                b::elem(prog, v.wait, pk.clone()),
                                b::conv(b::int(0), &Type::void_ptr(), &tt),
                                &tt,
                            )),
                            st(b::assign(b::elem(prog, v.sig, pk), b::int(1), &tt)),
                        ],
                        None,
                    ));
                }
                s.extend(zero_result(&lhs));
                vec![step(s, true, None)]
            }
            Action::SemInit
            | Action::SemWait
            | Action::SemTrywait
            | Action::SemPost
            | Action::SemGetvalue
            | Action::RdLock
            | Action::WrLock
            | Action::TryRdLock
            | Action::TryWrLock
            | Action::RwUnlock
            | Action::MutexInit
            | Action::MutexattrSettype
            | Action::MutexattrGettype => self.sync_model(action, lhs, args, loc, id),
            Action::KeyCreate => {
                let nk = b::var(prog, v.nkeys);
                let mut s = vec![b::if_(
                    b::bin(BinOp::Ge, nk.clone(), b::uint(MAX_KEYS as i128)),
                    vec![st(b::intrinsic(Intrinsic::Unwind, vec![], loc))],
                    None,
                )];
                let kp = arg(0);
                if !is_null(&kp, &tt) {
                    s.push(st(b::assign(b::deref(kp, &tt), nk.clone(), &tt)));
                }
                s.push(st(b::assign(
                    b::elem(prog, v.dtor, nk.clone()),
                    arg(1),
                    &tt,
                )));
                s.push(st(b::assign(
                    nk.clone(),
                    b::bin(BinOp::Add, nk, b::uint(1)),
                    &tt,
                )));
                s.extend(zero_result(&lhs));
                vec![step(s, true, None)]
            }
            Action::GetSpecific => {
                let key = b::conv(arg(0), &Type::uint(), &tt);
                let s = match lhs {
                    Some(l) => vec![st(b::assign(l, b::elem2(prog, v.tls, me, key), &tt))],
                    None => vec![],
                };
                vec![step(s, false, None)]
            }
            Action::SetSpecific => {
                let key = b::conv(arg(0), &Type::uint(), &tt);
                let mut s = vec![st(b::assign(b::elem2(prog, v.tls, me, key), arg(1), &tt))];
                s.extend(zero_result(&lhs));
                vec![step(s, false, None)]
            }
        }
    }

    /// The index of the thread function a `pthread_create` argument denotes.
    fn thread_fn_index(&self, e: &Expr) -> Expr {
        let fns = &self.b.thread_fns;
        if let ExprKind::Func(f) = e.peel().kind {
            if let Some(i) = fns.iter().position(|x| *x == f) {
                return b::int(i as i128);
            }
        }
        let mut r = b::int(-1);
        for (i, f) in fns.iter().enumerate().skip(1).rev() {
            let fe = Expr::new(ExprKind::Func(*f), e.ty.clone(), Loc::SYNTH);
            let is = b::bin(BinOp::Eq, e.clone(), fe);
            r = Expr::new(
                ExprKind::Cond(Box::new(is), Box::new(b::int(i as i128)), Box::new(r)),
                Type::int(),
                Loc::SYNTH,
            );
        }
        r
    }
}

/// `Error` argument: record the violation without ending the path (symbolic mode).
pub const ERROR_RECORD_ONLY: i128 = 1;

fn is_sync_marker(s: &Stmt) -> bool {
    matches!(&s.kind, StmtKind::Expr(e) if matches!(e.kind, ExprKind::Intrinsic(Intrinsic::AtomicBegin, _)))
}

fn is_null(e: &Expr, tt: &TypeTable) -> bool {
    let _ = tt;
    e.as_int() == Some(0)
}

/// Element-wise nondet values for an uninitialized aggregate (small ones only).
fn havoc_elements(prog: &Program, target: Expr, loc: Loc, id: StmtId) -> Vec<Stmt> {
    let mut out = Vec::new();
    let mut leaves = Vec::new();
    scalar_leaves(prog, target, &mut leaves, 64);
    for l in leaves {
        let ty = l.ty.clone();
        out.push(b::expr_stmt(
            b::assign(l, b::nondet(&ty, loc), &prog.types),
            loc,
            id,
        ));
    }
    out
}

fn scalar_leaves(prog: &Program, e: Expr, out: &mut Vec<Expr>, limit: usize) {
    if out.len() >= limit {
        return;
    }
    let tt = &prog.types;
    match e.ty.resolve(tt).clone() {
        Type::Array(elem, Some(n)) => {
            for i in 0..n.min(limit as u64) {
                let decayed = Expr::new(
                    ExprKind::Decay(Box::new(e.clone())),
                    Type::ptr((*elem).clone()),
                    Loc::SYNTH,
                );
                let x = Expr::new(
                    ExprKind::Index(Box::new(decayed), Box::new(b::int(i as i128))),
                    (*elem).clone(),
                    Loc::SYNTH,
                );
                scalar_leaves(prog, x, out, limit);
            }
        }
        Type::Comp(c) => {
            let def = tt.comp(c);
            let n = if def.is_union {
                1.min(def.fields.len())
            } else {
                def.fields.len()
            };
            for (i, f) in def.fields.iter().enumerate().take(n) {
                if f.bit_width.is_some() {
                    continue;
                }
                let x = Expr::new(
                    ExprKind::Member(Box::new(e.clone()), i),
                    f.ty.clone(),
                    Loc::SYNTH,
                );
                scalar_leaves(prog, x, out, limit);
            }
        }
        t if t.is_scalar(tt) => out.push(e),
        _ => {}
    }
}

/// Element-wise assignments for an aggregate initializer (unlisted elements are zero).
fn init_elements(prog: &Program, target: Expr, init: &Init, loc: Loc, id: StmtId) -> Vec<Stmt> {
    let tt = &prog.types;
    let mut out = Vec::new();
    let mut zero = Vec::new();
    scalar_leaves(prog, target.clone(), &mut zero, 4096);
    // Zero everything first, then apply the listed values (C semantics: the rest is 0).
    for z in zero {
        let ty = z.ty.clone();
        let zv = if ty.is_pointer(tt) {
            b::conv(b::int(0), &ty, tt)
        } else {
            b::typed_int(0, &ty)
        };
        out.push(b::expr_stmt(b::assign(z, zv, tt), loc, id));
    }
    apply_init(prog, target, init, loc, id, &mut out);
    out
}

fn apply_init(
    prog: &Program,
    target: Expr,
    init: &Init,
    loc: Loc,
    id: StmtId,
    out: &mut Vec<Stmt>,
) {
    let tt = &prog.types;
    match init {
        Init::Expr(e) => {
            if let (ExprKind::Str(bytes), Type::Array(elem, n)) =
                (&e.kind, target.ty.resolve(tt).clone())
            {
                let n = n.unwrap_or(bytes.len() as u64 + 1);
                for i in 0..n {
                    let c = bytes.get(i as usize).copied().unwrap_or(0) as i128;
                    let decayed = Expr::new(
                        ExprKind::Decay(Box::new(target.clone())),
                        Type::ptr((*elem).clone()),
                        Loc::SYNTH,
                    );
                    let x = Expr::new(
                        ExprKind::Index(Box::new(decayed), Box::new(b::int(i as i128))),
                        (*elem).clone(),
                        Loc::SYNTH,
                    );
                    out.push(b::expr_stmt(
                        b::assign(x, b::typed_int(c, &elem), tt),
                        loc,
                        id,
                    ));
                }
                return;
            }
            out.push(b::expr_stmt(b::assign(target, e.clone(), tt), loc, id));
        }
        Init::List(items) => {
            for it in items {
                let mut sub = target.clone();
                for d in &it.path {
                    sub = match (d, sub.ty.resolve(tt).clone()) {
                        (Designator::Field(f), Type::Comp(c)) => {
                            let fty = tt
                                .comp(c)
                                .fields
                                .get(*f)
                                .map(|x| x.ty.clone())
                                .unwrap_or(Type::int());
                            Expr::new(ExprKind::Member(Box::new(sub), *f), fty, Loc::SYNTH)
                        }
                        (Designator::Index(i), Type::Array(elem, _)) => {
                            let decayed = Expr::new(
                                ExprKind::Decay(Box::new(sub)),
                                Type::ptr((*elem).clone()),
                                Loc::SYNTH,
                            );
                            Expr::new(
                                ExprKind::Index(Box::new(decayed), Box::new(b::int(*i as i128))),
                                (*elem).clone(),
                                Loc::SYNTH,
                            )
                        }
                        _ => sub,
                    };
                }
                apply_init(prog, sub, &it.init, loc, id, out);
            }
        }
    }
}
