//! Griesmeyer's diagnosis model of a concrete sequential program (paper 004, Fig. 2).
//!
//! Which statements are instrumented: every copy (thread instance, inlined call, unrolled
//! iteration) of a statement of the program as written that stores an integer value —
//! assignments, initialisations, the binding of an inlined call's arguments, a thread's
//! return value, a lock acquisition's effect on the lock, a pointer to data — every
//! branch condition, and the start value of each global integer the program initializes
//! where it declares it (changed at the start of `main`, before any thread runs). Not instrumented: the framework's own bookkeeping (`__seq_*`,
//! `order[]`), aggregate values, `void *` and function pointers, opaque handles
//! (`pthread_t`, `pthread_once_t`, keys: a made-up thread id "fixes" a deadlock by
//! joining another thread and leaving the blocked one behind), and values computed by
//! library calls. (The built-in checker replaces a pointer by NULL or the start of an
//! existing object of the pointed-to type; an external checker picks any pointer.) The `diag` value of a copy is its original line
//! ([`LineKey`]), so all copies of one line change together: "change this line".
//!
//! The property is turned around: every assertion and error location of the replay
//! becomes an assumption (for a deadlock, "not every live thread is blocked at the end"),
//! a schedule mismatch or an exhausted loop bound cuts the run off, and `assert(0)` at the
//! end of the framework is reached exactly by runs that follow the schedule and do not
//! fail. A checker's counterexample to it names a line to change.

use std::collections::{BTreeMap, HashSet};

use crate::ir::build as b;
use crate::ir::*;
use crate::seq::Sequentialized;

/// What the localization must make go away.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Target {
    /// An assertion failure or a reached error location (every assertion must hold).
    Failure,
    /// The interleaving ends with every live thread blocked.
    Deadlock,
    /// An unlock gives back a mutex no thread holds (the unlock property): replayed with
    /// the lock calls kept and each unlock checked.
    Unlock,
}

/// One statement copy of the sequential program that the `diag` switch can change.
#[derive(Clone, Debug)]
pub struct Site {
    pub id: u32,
    /// The diag value that selects it: its original line (see [`LineKey`]).
    pub key: u32,
    /// The statement of the program as written it is a copy of.
    pub sid: StmtId,
    pub loc: Loc,
    /// The thread slot whose code holds it.
    pub slot: u32,
    pub kind: SiteKind,
    /// The value reads as true or false (a condition, or a comparison's temporary):
    /// changing 1 to 8 changes nothing.
    pub truth: bool,
}

#[derive(Clone, Debug, PartialEq, Eq)]
pub enum SiteKind {
    /// The value stored by an assignment, initialisation or argument binding; `lhs` is
    /// the lvalue as the normalized program writes it, its variables named as the source
    /// names them (a thread's copy `k_1` of a parameter is `k`).
    Store { lhs: String, temp: bool },
    /// The value of a branch condition.
    Condition,
}

/// A diag value and the source line it names. Lines of the input file are their own line
/// numbers (as in the paper's Fig. 2); lines of other files (headers) get numbers above
/// 100000 so two files never share a value.
#[derive(Clone, Debug)]
pub struct LineKey {
    pub key: u32,
    pub file: String,
    pub line: u32,
    pub loc: Loc,
}

/// One answer: a set of lines whose change avoids the failure, and the changes made.
#[derive(Clone, Debug)]
pub struct Finding {
    /// Diag values (line keys), increasing.
    pub set: Vec<u32>,
    pub changes: Vec<Change>,
    /// Time from the start of the loop.
    pub at_ms: u64,
    /// What an external checker stored on the changed lines (`x = 2`): its model is not
    /// seqloc's, so its values are shown beside seqloc's hint.
    pub stored: Vec<String>,
}

/// A statement copy whose value the checker changed.
#[derive(Clone, Debug)]
pub struct Change {
    pub site: u32,
    pub chosen: i128,
    pub original: i128,
    /// The value is a truth value (`_Bool`).
    pub boolean: bool,
    /// Pointers, as `NULL` or `&object` (numbers are rendered by the reader).
    pub chosen_text: Option<String>,
    pub original_text: Option<String>,
}

/// The diagnosis model and what it takes to read a checker's answer back.
#[derive(Clone, Debug)]
pub struct Instrumented {
    pub program: Program,
    pub sites: Vec<Site>,
    /// Every diag value some site uses, by key.
    pub lines: BTreeMap<u32, LineKey>,
    /// `diag` (one fault) or `diag1 .. diagN`.
    pub diag_vars: Vec<VarId>,
    pub target: Target,
}

impl Instrumented {
    pub fn line(&self, key: u32) -> Option<&LineKey> {
        self.lines.get(&key)
    }

    pub fn diag_names(&self) -> Vec<String> {
        self.diag_vars
            .iter()
            .map(|v| self.program.var(*v).name.clone())
            .collect()
    }
}

/// Builds the diagnosis model of `seq` (a concrete sequentialization) with `faults` diag
/// variables.
pub fn instrument(seq: &Sequentialized, target: Target, faults: u32) -> Instrumented {
    let mut prog = seq.program.clone();
    let framework: HashSet<VarId> = framework_vars(seq);
    // The input file is the one holding the user's `main`; its lines are their own keys.
    let main_file = seq
        .thread_fns
        .first()
        .and_then(|f| prog.sources.position(prog.func(*f).loc))
        .map(|p| p.file.to_string())
        .unwrap_or_default();
    let faults = faults.max(1);
    let mut diag_vars = Vec::new();
    for i in 0..faults {
        let base = if faults == 1 {
            "diag".to_string()
        } else {
            format!("diag{}", i + 1)
        };
        let taken = |n: &str| prog.vars.iter().any(|v| v.name == n);
        let name = if taken(&base) {
            format!("__seq_{base}")
        } else {
            base
        };
        let v = prog.new_global(&name, Type::int(), None, Loc::SYNTH);
        diag_vars.push(v);
    }
    let mut ins = Instrumenter {
        prog: &mut prog,
        framework,
        diag_vars: diag_vars.clone(),
        main_file,
        file_numbers: BTreeMap::new(),
        sites: Vec::new(),
        lines: BTreeMap::new(),
        slot: 0,
        target,
    };
    let initial = ins.initial_values();
    let nfuncs = ins.prog.funcs.len();
    let main = ins.prog.main();
    let mut initial = Some(initial);
    for f in 0..nfuncs {
        let fid = FuncId(f as u32);
        let Some(mut body) = ins.prog.func_mut(fid).body.take() else {
            continue;
        };
        ins.slot = 0;
        ins.stmt(&mut body);
        if Some(fid) == main {
            close_main(
                ins.prog,
                &mut body,
                &diag_vars,
                initial.take().unwrap_or_default(),
            );
        }
        ins.prog.func_mut(fid).body = Some(body);
    }
    let sites = std::mem::take(&mut ins.sites);
    let lines = std::mem::take(&mut ins.lines);
    Instrumented {
        program: prog,
        sites,
        lines,
        diag_vars,
        target,
    }
}

/// The framework's variables: never instrumented.
fn framework_vars(seq: &Sequentialized) -> HashSet<VarId> {
    let mut set: HashSet<VarId> = seq.vars.all().into_iter().collect();
    for (i, var) in seq.program.vars.iter().enumerate() {
        if var.name.starts_with("__seq") {
            set.insert(VarId(i as u32));
        }
    }
    set
}

/// `diag = nondet` at the start of the framework's `main`, then the changeable initial
/// values (`initial`), and `assert(0)` before its end.
fn close_main(prog: &Program, body: &mut Stmt, diag_vars: &[VarId], initial: Vec<Stmt>) {
    let tt = prog.types.clone();
    let mut init = Vec::new();
    for v in diag_vars {
        init.push(b::expr_stmt(
            b::assign(b::var(prog, *v), b::nondet(&Type::int(), Loc::SYNTH), &tt),
            Loc::SYNTH,
            StmtId::NONE,
        ));
    }
    init.extend(initial);
    let done = b::expr_stmt(
        b::intrinsic(Intrinsic::Assert, vec![b::int(0)], Loc::SYNTH),
        Loc::SYNTH,
        StmtId::NONE,
    );
    match &mut body.kind {
        StmtKind::Block(ss) => {
            let at = match ss.last() {
                Some(Stmt {
                    kind: StmtKind::Return(_),
                    ..
                }) => ss.len() - 1,
                _ => ss.len(),
            };
            ss.insert(at, done);
            for (i, s) in init.into_iter().enumerate() {
                ss.insert(i, s);
            }
        }
        _ => {
            let old = std::mem::replace(body, Stmt::skip(Loc::SYNTH));
            let mut ss = init;
            ss.push(old);
            ss.push(done);
            *body = Stmt::block(ss, Loc::SYNTH);
        }
    }
}

struct Instrumenter<'a> {
    prog: &'a mut Program,
    framework: HashSet<VarId>,
    diag_vars: Vec<VarId>,
    main_file: String,
    /// Other files' numbers, for their keys.
    file_numbers: BTreeMap<String, u32>,
    sites: Vec<Site>,
    lines: BTreeMap<u32, LineKey>,
    /// The thread slot of the code being walked (from the point markers).
    slot: u32,
    target: Target,
}

impl Instrumenter<'_> {
    /// `g = diag == k ? nondet : g` for each global integer the program initializes where
    /// it declares it (`int pending = 3;`), its key the declaration's line: a wrong start
    /// value is a fault like a wrong store, and no statement of a thread holds it. Run
    /// before any thread starts, so every copy of the program sees the changed value.
    /// Not changed: `const` objects (the printed C could not assign them), thread-local
    /// ones (each thread has its own start value), aggregates, pointers, and what the
    /// framework or a system header declares.
    fn initial_values(&mut self) -> Vec<Stmt> {
        let mut out = Vec::new();
        for i in 0..self.prog.vars.len() {
            let v = VarId(i as u32);
            let var = self.prog.var(v);
            let tt = &self.prog.types;
            let user = !var.loc.is_synth() && !self.prog.sources.is_system(var.loc);
            if var.kind != VarKind::Global
                || !matches!(var.init, Some(Init::Expr(_)))
                || !user
                || var.thread_local
                || var.is_extern
                || self.framework.contains(&v)
                || crate::ir::internal::is_internal_name(&var.name)
                || !var.ty.is_integer(tt)
                || var.ty.named_by(tt, crate::ir::known::handle_typedef)
                || var.ty.quals(tt).konst
            {
                continue;
            }
            let (loc, lhs) = (var.loc, var.shown_name().to_string());
            let current = b::var(self.prog, v);
            let changed = self.site(
                current,
                loc,
                StmtId::NONE,
                SiteKind::Store { lhs, temp: false },
            );
            let tt = self.prog.types.clone();
            out.push(b::expr_stmt(
                b::assign(b::var(self.prog, v), changed, &tt),
                loc,
                StmtId::NONE,
            ));
        }
        out
    }

    fn stmt(&mut self, s: &mut Stmt) {
        let user = self.is_user(s);
        match &mut s.kind {
            StmtKind::Block(ss) => {
                for x in ss {
                    self.stmt(x);
                }
            }
            StmtKind::If { cond, then, els } => {
                if user && cond.ty.is_integer(&self.prog.types) && !has_call(cond) {
                    let c = std::mem::replace(cond, b::int(0));
                    *cond = self.site(c, s.loc, s.id, SiteKind::Condition);
                }
                self.stmt(then);
                if let Some(e) = els {
                    self.stmt(e);
                }
            }
            StmtKind::While { body, .. }
            | StmtKind::DoWhile { body, .. }
            | StmtKind::For { body, .. }
            | StmtKind::Switch { body, .. } => self.stmt(body),
            StmtKind::Label(_) | StmtKind::Goto(_) => {}
            StmtKind::Expr(e) => {
                if let ExprKind::Intrinsic(i, args) = &mut e.kind {
                    self.property(i, args);
                    if *i == Intrinsic::Point {
                        if let Some(k) = args.first().and_then(Expr::as_int) {
                            self.slot = k as u32;
                        }
                    }
                    return;
                }
                if !user {
                    return;
                }
                let (loc, id) = (s.loc, s.id);
                if let ExprKind::Assign(l, r) = &mut e.kind {
                    if self.changeable_store(l, r) {
                        let lhs = crate::ir::print::expr_in_source_terms(self.prog, l);
                        let temp =
                            root_var(l).is_some_and(|v| self.prog.var(v).name.starts_with("__"));
                        let old = std::mem::replace(&mut **r, b::int(0));
                        **r = self.site(old, loc, id, SiteKind::Store { lhs, temp });
                    }
                }
            }
            _ => {}
        }
    }

    /// Turns the property around: what failed must not fail.
    fn property(&self, i: &mut Intrinsic, args: &mut Vec<Expr>) {
        match *i {
            Intrinsic::Assert | Intrinsic::MustHold => *i = Intrinsic::Assume,
            Intrinsic::Error => {
                *i = Intrinsic::Assume;
                *args = vec![b::int(0)];
            }
            // A change that runs a loop past its unrolled copies is not counted: the
            // run is cut off as infeasible (an assumption), not ended by control.
            Intrinsic::Unwind => {
                *i = Intrinsic::Assume;
                *args = vec![b::int(0)];
            }
            Intrinsic::Deadlock => {
                let flag = args.first().cloned().unwrap_or_else(|| b::int(0));
                *i = Intrinsic::Assume;
                *args = vec![b::not(flag)];
            }
            _ => {}
        }
        let _ = self.target;
    }

    fn is_user(&self, s: &Stmt) -> bool {
        !s.id.is_none() && !s.loc.is_synth() && !self.prog.sources.is_system(s.loc)
    }

    fn changeable_store(&self, l: &Expr, r: &Expr) -> bool {
        let tt = &self.prog.types;
        let data_pointer = l.ty.is_pointer(tt)
            && !l
                .ty
                .pointee(tt)
                .is_some_and(|t| t.is_function(tt) || t.is_void(tt));
        if !(l.ty.is_integer(tt) || data_pointer)
            || has_call(r)
            || l.ty.named_by(tt, crate::ir::known::handle_typedef)
        {
            return false;
        }
        match root_var(l) {
            Some(v) => !self.framework.contains(&v),
            // A store through a pointer (`*p = v`, `p->f = v`) is the user's.
            None => true,
        }
    }

    /// `diag == key ? nondet : e`, recording the site.
    fn site(&mut self, e: Expr, loc: Loc, sid: StmtId, kind: SiteKind) -> Expr {
        let key = self.key(loc);
        let id = self.sites.len() as u32;
        let truth = kind == SiteKind::Condition || e.is_truth_valued();
        self.sites.push(Site {
            id,
            key,
            sid,
            loc,
            slot: self.slot,
            kind,
            truth,
        });
        let mut sel: Option<Expr> = None;
        for v in &self.diag_vars {
            let eq = b::bin(BinOp::Eq, b::var(self.prog, *v), b::int(key as i128));
            sel = Some(match sel {
                None => eq,
                Some(s) => b::bin(BinOp::LogOr, s, eq),
            });
        }
        let ty = e.ty.clone();
        Expr::new(
            ExprKind::Intrinsic(
                Intrinsic::Diag,
                vec![sel.unwrap_or_else(|| b::int(0)), e, b::int(id as i128)],
            ),
            ty,
            loc,
        )
    }

    fn key(&mut self, loc: Loc) -> u32 {
        let (file, line) = match self.prog.sources.position(loc) {
            Some(p) => (p.file.to_string(), p.line),
            None => (String::new(), 0),
        };
        let key = if file == self.main_file {
            line
        } else {
            let next = self.file_numbers.len() as u32 + 1;
            let n = *self.file_numbers.entry(file.clone()).or_insert(next);
            n * 100_000 + line
        };
        let line_loc = self.prog.sources.line_key(loc);
        self.lines.entry(key).or_insert(LineKey {
            key,
            file,
            line,
            loc: line_loc,
        });
        key
    }
}

fn root_var(e: &Expr) -> Option<VarId> {
    match &e.kind {
        ExprKind::Var(v) => Some(*v),
        ExprKind::Member(b, _) => root_var(b),
        ExprKind::Index(b, _) => match &b.kind {
            ExprKind::Decay(a) => root_var(a),
            _ => None,
        },
        ExprKind::Cast { e, .. } => root_var(e),
        ExprKind::Deref(p) => match &p.peel().kind {
            ExprKind::AddrOf(x) => root_var(x),
            _ => None,
        },
        _ => None,
    }
}

fn has_call(e: &Expr) -> bool {
    let mut found = false;
    crate::ir::visit::each_subexpr(e, &mut |x| {
        if matches!(x.kind, ExprKind::Call(..)) {
            found = true;
        }
    });
    found
}
