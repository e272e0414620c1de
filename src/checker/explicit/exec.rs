//! Running one thread of one state: C semantics on concrete values (the normalized IR, so
//! every statement makes at most one access to shared memory), pthread operations, and the
//! choices a step makes (a `_Bool` or 8-bit input, which waiter a signal wakes, the outcome
//! of a comparison on a symbolic input: see `symbolic`).

use rustc_hash::FxHashMap as HashMap;
use std::cell::RefCell;

use crate::analysis::shared::SharedInfo;
use crate::ir::known::{Known, classify, is_atomic_function};
use crate::ir::types::{CompLayout, DataModel, IntKind, TypeTable};
use crate::ir::*;

use super::Unsupported;
use super::code::{Code, Instr, flatten};
use super::frozen::frozen_globals;
use super::liveness::Liveness;
use super::locks::{guarded_reads, unlock_args, unlock_moves_left};
use super::state::{
    FUNC_BASE, Frame, Obj, Origin, Place, State, Status, Thread, Val, is_object, sym_of, sym_tag,
};
use super::symbolic::{self, Dom, MAX_ENUM};

mod float;
mod sync;
mod threads;
mod tls;

/// Why a step did not produce a successor.
#[derive(Debug)]
pub enum Stop {
    /// The thread's next operation blocks (a held mutex, an unfinished join, a condition
    /// not yet signalled): it cannot take a step here.
    Blocked,
    /// An `assume` failed, or the thread blocked inside an atomic section: no execution.
    Cut,
    /// A property violation (failed assertion or error location).
    Violation(Loc),
    Unsupported(Unsupported),
}

impl From<Unsupported> for Stop {
    fn from(u: Unsupported) -> Stop {
        Stop::Unsupported(u)
    }
}

type R<T> = Result<T, Stop>;

fn unsupported<T>(what: &str, loc: Loc) -> R<T> {
    Err(Stop::Unsupported(Unsupported::at(what, loc)))
}

/// The nondeterministic choices of one step: the first `forced.len()` are given, later
/// ones take 0 and are recorded with their number of alternatives.
#[derive(Default)]
pub struct Chooser {
    pub forced: Vec<u32>,
    pub made: Vec<(u32, u32)>,
    /// When set, the statements the step executes, in order (for building a schedule).
    pub executed: Option<Vec<StmtId>>,
    /// A hash of the statements the step executed: steps with equal traces ran the same
    /// statements, so either one's schedule describes both.
    pub trace: u64,
    /// The step ran an instruction at one of `Machine::watch`.
    pub watched: bool,
}

impl Chooser {
    /// A chooser that makes the given choices first.
    pub fn forcing(mut self, choices: &[u32]) -> Chooser {
        self.forced = choices.to_vec();
        self
    }

    fn pick(&mut self, domain: u32) -> u32 {
        let i = self.made.len();
        let v = self.forced.get(i).copied().unwrap_or(0);
        self.made.push((v, domain));
        v
    }
}

/// Instructions a step may run without yielding to other threads: after this many, the
/// explorer gives up (a local loop that never ends).
const MAX_LOCAL_INSTRS: usize = 1_000_000;
/// Choices one step may make (each comparison on a symbolic input inside a local loop is
/// one): beyond this the explorer gives up rather than branch on every iteration.
const MAX_STEP_CHOICES: usize = 1024;
/// Objects (variables and allocations) larger than this make the explorer give up: it
/// keeps every byte of every object in each state, and the bounded search, which keeps
/// large objects as SMT arrays, answers instead. A program's `int buf[1 << 30]` once made it
/// ask the allocator for 4 GB.
const MAX_OBJECT_BYTES: u64 = 1 << 20;

fn too_large<T>(bytes: u64, loc: Loc) -> R<T> {
    unsupported(
        &format!("an object of {bytes} bytes (more than 1 MiB)"),
        loc,
    )
}

/// Threads beyond this make the explorer give up (creation in an unbounded loop).
pub const MAX_THREADS: usize = 64;

pub struct Machine<'p> {
    pub prog: &'p Program,
    tt: &'p TypeTable,
    dm: DataModel,
    codes: HashMap<FuncId, Code>,
    /// Per function, per instruction: whether it touches memory or state other threads see.
    visible: HashMap<FuncId, Vec<bool>>,
    /// By function id.
    liveness: Vec<Option<Liveness>>,
    pub globals: HashMap<VarId, u32>,
    /// The string literals the functions index (`"busy"[i]`, as `strcpy` is written
    /// out): one object each, allocated after the globals and, like them, never
    /// renumbered.
    literals: HashMap<Vec<u8>, u32>,
    layouts: RefCell<HashMap<CompId, CompLayout>>,
    pub main: FuncId,
    /// The program sets a mutex type: each mutex keeps its type and re-lock count in its
    /// own bytes (see `sync`).
    typed_mutexes: bool,
    /// Some thread may be detached (`known::detaches`): attributes carry detach states.
    detaches: bool,
    /// The condition waits that may wake without a signal (`analysis::waits`).
    spurious_waits: std::collections::HashSet<StmtId>,
    /// Locations whose execution a step notes in `Chooser::watched` (usually none).
    pub watch: std::collections::HashSet<Loc>,
    /// The unlock property: an unlock of a free default mutex is a violation.
    pub unlocks: bool,
}

impl<'p> Machine<'p> {
    pub fn new(prog: &'p Program, shared: &SharedInfo) -> Result<Machine<'p>, Unsupported> {
        let main = prog
            .main()
            .ok_or_else(|| Unsupported::at("no `main` function", Loc::SYNTH))?;
        let mut codes: HashMap<FuncId, Code> = HashMap::default();
        let mut visible = HashMap::default();
        let mut liveness: Vec<Option<Liveness>> = (0..prog.funcs.len()).map(|_| None).collect();
        for (i, f) in prog.funcs.iter().enumerate() {
            let Some(body) = &f.body else { continue };
            let id = FuncId(i as u32);
            let code = match flatten(body) {
                Ok(c) => c,
                // Only functions that run matter; remember the reason for when one does.
                Err(_) if id != main => continue,
                Err(e) => return Err(e),
            };
            liveness[i] = Some(Liveness::compute(prog, &code));
            codes.insert(id, code);
        }
        // Globals frozen before the first thread starts are read without switching.
        let frozen = frozen_globals(prog, &codes, main);
        let shared = without(shared, &frozen);
        // Reads of globals whose writers all hold a mutex this instruction holds too.
        let guarded = guarded_reads(prog, &codes, main);
        // Unlocks, and the ends of threads other than `main`, are left movers (see
        // `locks`): they run in the step before them.
        // An unlock of a typed mutex may answer EPERM or only count down: not a mover.
        let typed_mutexes = crate::ir::known::sets_mutex_type(prog);
        let unlocks_move = unlock_moves_left(prog, &codes) && !typed_mutexes;
        for (id, code) in &codes {
            let vis = code
                .instrs
                .iter()
                .enumerate()
                .map(|(pc, ins)| {
                    if let Some(args) = unlock_args(prog, ins).filter(|_| unlocks_move) {
                        return args.iter().any(|a| expr_visible(prog, &shared, a));
                    }
                    match guarded.get(id).and_then(|g| g.get(pc)) {
                        Some(g) if !g.is_empty() => {
                            let g: std::collections::HashSet<VarId> = g.iter().copied().collect();
                            instr_visible(prog, &without(&shared, &g), ins)
                        }
                        _ => instr_visible(prog, &shared, ins),
                    }
                })
                .collect();
            visible.insert(*id, vis);
        }
        Ok(Machine {
            prog,
            tt: &prog.types,
            dm: prog.data_model,
            codes,
            visible,
            liveness,
            globals: HashMap::default(),
            literals: HashMap::default(),
            layouts: RefCell::new(HashMap::default()),
            main,
            typed_mutexes,
            detaches: crate::ir::known::detaches(prog),
            spurious_waits: crate::analysis::waits::spurious_wake_sites(prog),
            watch: Default::default(),
            unlocks: false,
        })
    }

    /// The state before `main` runs: globals initialised, `main` at its first instruction.
    pub fn initial(&mut self) -> R<State> {
        let mut st = State {
            origin: Origin(vec![0]),
            ..State::empty()
        };
        let mut globals = HashMap::default();
        for (i, v) in self.prog.vars.iter().enumerate() {
            if v.kind != VarKind::Global {
                continue;
            }
            // An extern array of unknown size has no bytes of its own here.
            let size = match v.ty.size(self.tt, self.dm) {
                Some(s) if s > MAX_OBJECT_BYTES => return too_large(s, v.loc),
                Some(s) => s,
                None => 0,
            };
            let id = st.alloc(Obj::new(size as usize, false, !v.is_extern));
            globals.insert(VarId(i as u32), id);
        }
        self.globals = globals;
        let mut literals = HashMap::default();
        for f in &self.prog.funcs {
            let Some(body) = &f.body else { continue };
            crate::ir::visit::each_expr(body, &mut |e| {
                if let ExprKind::Str(bytes) = &e.kind {
                    literals.entry(bytes.clone()).or_insert(0);
                }
            });
        }
        let mut texts: Vec<Vec<u8>> = literals.keys().cloned().collect();
        texts.sort();
        for text in texts {
            let mut obj = Obj::new(text.len() + 1, false, true);
            obj.bytes[..text.len()].copy_from_slice(&text);
            let id = st.alloc(obj);
            literals.insert(text, id);
        }
        self.literals = literals;
        let frame = Frame {
            func: self.main,
            pc: 0,
            locals: vec![],
            ret: None,
            atomic_fn: false,
        };
        st.threads.push(Thread {
            frames: vec![frame],
            status: Status::Running,
            atomic: 0,
            detach: super::state::Detach::Joinable,
            tls: vec![],
            exiting: None,
        });
        for (i, v) in self.prog.vars.iter().enumerate() {
            if v.kind != VarKind::Global || v.thread_local {
                continue;
            }
            if let Some(init) = &v.init {
                let obj = self.globals[&VarId(i as u32)];
                let mut cx = Cx {
                    m: self,
                    st: &mut st,
                    tid: 0,
                    ch: &mut Chooser::default(),
                };
                cx.init(&v.ty, (obj, 0), init, v.loc)?;
            }
        }
        // `main`'s parameters hold no value the program may rely on (the front end reads
        // `argc` as an input first thing; a read of `argv` gives up).
        let params: Vec<VarId> = self.prog.func(self.main).params.clone();
        for p in params {
            let size = self.size(&self.prog.var(p).ty, Loc::SYNTH)?;
            let o = st.alloc(Obj::new(size as usize, false, false));
            st.threads[0].frames[0].bind(p, o);
        }
        Ok(st)
    }

    fn layout(&self, id: CompId) -> CompLayout {
        self.layouts
            .borrow_mut()
            .entry(id)
            .or_insert_with(|| self.tt.layout(id, self.dm))
            .clone()
    }

    fn size(&self, ty: &Type, loc: Loc) -> R<u64> {
        match ty.size(self.tt, self.dm) {
            Some(s) if s > MAX_OBJECT_BYTES => too_large(s, loc),
            Some(s) => Ok(s),
            None if ty.is_void(self.tt) || ty.is_function(self.tt) => Ok(1),
            None => unsupported("an object of incomplete type", loc),
        }
    }

    /// Runs thread `tid` from where it stands up to just before its next visible
    /// instruction (the whole of an atomic section counts as one step), without putting
    /// the result in canonical form: the successors of one step keep the objects and input
    /// ids they were given, so they can be compared (see `merge`) before `canonical`
    /// renames them.
    pub fn step_raw(&self, st: &mut State, tid: usize, ch: &mut Chooser) -> R<()> {
        if let Status::Waiting {
            mutex,
            signaled,
            spurious,
            ..
        } = st.threads[tid].status
        {
            if !(signaled || spurious) || st.locks.contains_key(&mutex) {
                return Err(Stop::Blocked);
            }
            st.locks.insert(mutex, tid as u32);
            st.threads[tid].status = Status::Running;
            // Schedules count a condition wait twice: when it starts and when it wakes.
            if let Some(log) = &mut ch.executed {
                log.extend(self.prev_stmt(st, tid));
            }
            return self.run_local(st, tid, ch);
        }
        if let Status::Joining { target, ret } = st.threads[tid].status {
            let mut cx = Cx {
                m: self,
                st,
                tid,
                ch,
            };
            cx.finish_join(target, ret)?;
            // Counted twice, as a condition wait: when it starts and when it returns.
            if let Some(log) = &mut ch.executed {
                log.extend(self.prev_stmt(st, tid));
            }
            return self.run_local(st, tid, ch);
        }
        let mut cx = Cx {
            m: self,
            st,
            tid,
            ch,
        };
        cx.exec_one()?;
        self.run_local(st, tid, ch)
    }

    /// The representative of the states that behave alike: dead values forgotten, alike
    /// threads and objects in a canonical order.
    pub fn canonical(&self, st: &mut State) {
        self.forget_dead(st);
        let fixed = (self.globals.len() + self.literals.len()) as u32;
        st.sort_threads(fixed);
        st.canonicalize(fixed);
        st.normalize_syms();
    }

    /// Clears the values of locals no path reads again, so that states differing only in
    /// them are recognised as one.
    pub fn forget_dead(&self, st: &mut State) {
        let mut dead: Vec<u32> = vec![];
        for t in &st.threads {
            for f in &t.frames {
                let Some(Some(l)) = self.liveness.get(f.func.0 as usize) else {
                    continue;
                };
                for &(var, obj) in &f.locals {
                    if !l.dead(f.pc, var) {
                        continue;
                    }
                    if st
                        .obj(obj)
                        .is_some_and(|o| o.init.iter().any(|b| *b) || !o.prov.is_empty())
                    {
                        dead.push(obj);
                    }
                }
            }
        }
        for id in dead {
            if let Some(o) = st.obj_mut(id) {
                o.bytes.iter_mut().for_each(|b| *b = 0);
                o.init.iter_mut().for_each(|b| *b = false);
                o.prov.clear();
            }
        }
    }

    fn run_local(&self, st: &mut State, tid: usize, ch: &mut Chooser) -> R<()> {
        let mut n = 0usize;
        // A loop that touches nothing shared and never ends (`while (y != 0) {}` on a
        // local copy) is found when the state repeats at a backward jump (Brent's cycle
        // detection: compare with a snapshot retaken at every power of two).
        let mut jumps = 0u64;
        let mut snapshot: Option<u128> = None;
        loop {
            if st.exited || st.threads[tid].status != Status::Running {
                return Ok(());
            }
            let atomic = st.threads[tid].atomic > 0;
            if !atomic && self.next_visible(st, tid) {
                return Ok(());
            }
            n += 1;
            if n > MAX_LOCAL_INSTRS {
                let loc = self.current_loc(st, tid);
                return unsupported("a loop that runs a million steps without yielding", loc);
            }
            let before = st.threads[tid].frames.last().map(|f| f.pc);
            let mut cx = Cx {
                m: self,
                st,
                tid,
                ch,
            };
            match cx.exec_one() {
                // Blocking inside an atomic section: no execution goes on from here.
                Err(Stop::Blocked) => return Err(Stop::Cut),
                r => r?,
            }
            if ch.made.len() > MAX_STEP_CHOICES {
                let loc = self.current_loc(st, tid);
                return unsupported(
                    "a loop that branches on a nondeterministic input at every iteration (more than 1024 choices in one step)",
                    loc,
                );
            }
            let after = st.threads[tid].frames.last().map(|f| f.pc);
            if n > 1000 && matches!((before, after), (Some(b), Some(a)) if a <= b) {
                jumps += 1;
                let f = st.fingerprint();
                if snapshot == Some(f) {
                    if atomic {
                        // Spinning inside an atomic section: no other thread can ever run.
                        return Err(Stop::Cut);
                    }
                    st.threads[tid].status = Status::Stuck;
                    return Ok(());
                }
                if jumps.is_power_of_two() {
                    snapshot = Some(f);
                }
            }
        }
    }

    fn next_visible(&self, st: &State, tid: usize) -> bool {
        let t = &st.threads[tid];
        let Some(f) = t.frames.last() else {
            return true;
        };
        let Some(code) = self.codes.get(&f.func) else {
            return true;
        };
        match code.instrs.get(f.pc as usize) {
            // The end of the process stops every thread. The end of another thread only
            // enables joins of it: a left mover, like an unlock, it needs no switch point
            // (what it returns may still read shared memory).
            Some(Instr::Return(_)) if t.frames.len() == 1 && tid == 0 => true,
            Some(_) => self.visible[&f.func][f.pc as usize],
            None => true,
        }
    }

    /// The statement thread `tid` executes next (a condition wait or join it is waiting
    /// in counts as next).
    pub fn next_stmt(&self, st: &State, tid: usize) -> Option<StmtId> {
        if matches!(
            st.threads[tid].status,
            Status::Waiting { .. } | Status::Joining { .. }
        ) {
            return self.prev_stmt(st, tid);
        }
        let f = st.threads[tid].frames.last()?;
        let id = *self.codes.get(&f.func)?.ids.get(f.pc as usize)?;
        (!id.is_none()).then_some(id)
    }

    /// The statement thread `tid` executed last (a condition wait it is waiting in).
    pub fn prev_stmt(&self, st: &State, tid: usize) -> Option<StmtId> {
        let f = st.threads[tid].frames.last()?;
        let pc = (f.pc as usize).checked_sub(1)?;
        let id = *self.codes.get(&f.func)?.ids.get(pc)?;
        (!id.is_none()).then_some(id)
    }

    /// The function thread `tid` started in.
    pub fn thread_func(&self, st: &State, tid: usize) -> Option<FuncId> {
        st.threads[tid].frames.first().map(|f| f.func)
    }

    pub fn current_loc(&self, st: &State, tid: usize) -> Loc {
        st.threads[tid]
            .frames
            .last()
            .and_then(|f| {
                self.codes
                    .get(&f.func)
                    .and_then(|c| c.locs.get(f.pc as usize).copied())
            })
            .unwrap_or(Loc::SYNTH)
    }
}

/// `(lhs, callee, args)` when an instruction is a call.
fn call_of(ins: &Instr) -> Option<(Option<&Expr>, &Expr, &[Expr])> {
    match ins {
        Instr::Exec(e) => match &e.kind {
            ExprKind::Call(c, a) => Some((None, c, a)),
            ExprKind::Assign(l, r) => stored_call(r, &l.ty).map(|(c, a)| (Some(&**l), c, a)),
            _ => None,
        },
        _ => None,
    }
}

/// `(callee, args)` when `r`, stored into an object of type `lty`, is a call: also one
/// converted to exactly `lty` (`p = malloc(n)` converts `void *`), since storing the
/// result converts it to `lty` anyway. A cast to another type (`x = (short)f()` into an
/// `int`) is a conversion of its own and stays an expression.
fn stored_call<'e>(r: &'e Expr, lty: &Type) -> Option<(&'e Expr, &'e [Expr])> {
    match &r.kind {
        ExprKind::Call(c, a) => Some((c, a)),
        ExprKind::Cast { e, .. } if r.ty == *lty => match &e.kind {
            ExprKind::Call(c, a) => Some((c, a)),
            _ => None,
        },
        _ => None,
    }
}

/// `shared` less the variables in `gone`.
fn without(shared: &SharedInfo, gone: &std::collections::HashSet<VarId>) -> SharedInfo {
    SharedInfo {
        vars: shared.vars.difference(gone).copied().collect(),
    }
}

fn instr_visible(prog: &Program, shared: &SharedInfo, ins: &Instr) -> bool {
    match ins {
        Instr::Decl { init, .. } => init.as_ref().is_some_and(|i| init_visible(prog, shared, i)),
        Instr::Exec(e) => expr_visible(prog, shared, e),
        Instr::Branch { cond, .. } | Instr::Switch { cond, .. } => expr_visible(prog, shared, cond),
        Instr::Jump(_) => false,
        Instr::Return(e) => e.as_ref().is_some_and(|e| expr_visible(prog, shared, e)),
    }
}

fn init_visible(prog: &Program, shared: &SharedInfo, i: &Init) -> bool {
    match i {
        Init::Expr(e) => expr_visible(prog, shared, e),
        Init::List(items) => items.iter().any(|it| init_visible(prog, shared, &it.init)),
    }
}

/// Whether evaluating `e` may touch what another thread sees: shared variables, memory
/// through pointers, library and pthread calls, atomic sections, the end of the process.
fn expr_visible(prog: &Program, shared: &SharedInfo, e: &Expr) -> bool {
    let sub = |x: &Expr| expr_visible(prog, shared, x);
    match &e.kind {
        ExprKind::Int(_)
        | ExprKind::Float(_)
        | ExprKind::Str(_)
        | ExprKind::Func(_)
        | ExprKind::SizeofType(_)
        | ExprKind::AlignofType(_) => false,
        // An access: to shared memory, or with an address that takes a shared read.
        ExprKind::Var(_) | ExprKind::Deref(_) | ExprKind::Index(..) | ExprKind::Member(..) => {
            shared.is_shared_lvalue(e) || addr_visible(prog, shared, e)
        }
        ExprKind::AddrOf(x) => addr_visible(prog, shared, x),
        ExprKind::Decay(x) => addr_visible(prog, shared, x),
        ExprKind::Unary(_, x) | ExprKind::Cast { e: x, .. } => sub(x),
        ExprKind::Binary(_, a, b) | ExprKind::Assign(a, b) | ExprKind::Comma(a, b) => {
            sub(a) || sub(b)
        }
        ExprKind::OpAssign { lhs, rhs, .. } => sub(lhs) || sub(rhs),
        ExprKind::IncDec { e, .. } => sub(e),
        ExprKind::Cond(a, b, c) => sub(a) || sub(b) || sub(c),
        ExprKind::Call(c, args) => {
            let user = match &c.peel().kind {
                ExprKind::Func(f) => {
                    let fun = prog.func(*f);
                    fun.body.is_some()
                        && !is_atomic_function(&fun.name)
                        && classify(&fun.name) == Known::Other
                }
                _ => false,
            };
            !user || args.iter().any(sub)
        }
        ExprKind::StmtExpr(_) | ExprKind::Compound(_) => true,
        ExprKind::Intrinsic(i, args) => match i {
            Intrinsic::Nondet | Intrinsic::Assume => args.iter().any(sub),
            _ => true,
        },
    }
}

/// Taking an address reads no memory, but indices and pointers inside it may.
fn addr_visible(prog: &Program, shared: &SharedInfo, e: &Expr) -> bool {
    match &e.kind {
        ExprKind::Var(_) | ExprKind::Str(_) | ExprKind::Func(_) => false,
        ExprKind::Member(b, _) => addr_visible(prog, shared, b),
        ExprKind::Index(b, i) => match &b.kind {
            ExprKind::Decay(a) => addr_visible(prog, shared, a) || expr_visible(prog, shared, i),
            _ => expr_visible(prog, shared, b) || expr_visible(prog, shared, i),
        },
        ExprKind::Deref(p) => expr_visible(prog, shared, p),
        _ => expr_visible(prog, shared, e),
    }
}

/// One thread's view of a state while it runs.
struct Cx<'a, 'p> {
    m: &'a Machine<'p>,
    st: &'a mut State,
    tid: usize,
    ch: &'a mut Chooser,
}

impl Cx<'_, '_> {
    fn tt(&self) -> &TypeTable {
        self.m.tt
    }

    fn frame(&mut self) -> &mut Frame {
        let t = &mut self.st.threads[self.tid];
        let n = t.frames.len() - 1;
        &mut t.frames[n]
    }

    fn exec_one(&mut self) -> R<()> {
        let (func, pc) = {
            let f = self.frame();
            (f.func, f.pc as usize)
        };
        let m = self.m;
        let Some(code) = m.codes.get(&func) else {
            let name = &m.prog.func(func).name;
            return unsupported(
                &format!("`{name}`, whose body the explorer cannot run"),
                m.prog.func(func).loc,
            );
        };
        let Some(ins) = code.instrs.get(pc) else {
            return self.ret(None, Loc::SYNTH);
        };
        let loc = code.locs[pc];
        if let Some(log) = &mut self.ch.executed {
            log.push(code.ids[pc]);
        }
        if !m.watch.is_empty() && m.watch.contains(&loc) {
            self.ch.watched = true;
        }
        self.ch.trace = (self.ch.trace ^ u64::from(code.ids[pc].0))
            .wrapping_mul(0x100_0000_01b3)
            .rotate_left(5);
        self.frame().pc += 1;
        match ins {
            Instr::Decl { var, init } => {
                let ty = m.prog.var(*var).ty.clone();
                let size = m.size(&ty, loc)? as usize;
                let obj = match self.frame().local(*var) {
                    Some(o) => {
                        if let Some(ob) = self.st.obj_mut(o) {
                            ob.init.iter_mut().for_each(|b| *b = false);
                            ob.prov.clear();
                        }
                        o
                    }
                    None => {
                        let o = self.st.alloc(Obj::new(size, false, false));
                        self.frame().bind(*var, o);
                        o
                    }
                };
                if let Some(init) = init {
                    if let Init::Expr(e) = init {
                        if let Some((c, a)) = stored_call(e, &ty) {
                            return self.call(Some((obj, 0)), &ty, c, a, loc);
                        }
                    }
                    self.init(&ty, (obj, 0), init, loc)?;
                }
                Ok(())
            }
            Instr::Exec(e) => {
                if let Some((lhs, c, a)) = call_of(ins) {
                    let (place, ty) = match lhs {
                        Some(l) => (Some(self.place(l)?), l.ty.clone()),
                        None => (None, Type::Void),
                    };
                    return self.call(place, &ty, c, a, loc);
                }
                self.effect(e)
            }
            Instr::Branch { cond, to } => {
                let c = self.eval_sym(cond)?;
                if !self.truth(c)? {
                    self.frame().pc = *to as u32;
                }
                Ok(())
            }
            Instr::Jump(to) => {
                self.frame().pc = *to as u32;
                Ok(())
            }
            Instr::Switch {
                cond,
                cases,
                default,
            } => {
                let v = self.eval_sym(cond)?;
                if let Some(id) = v.as_sym() {
                    let to = self.switch_sym(id, v.v, cases, *default, loc)?;
                    self.frame().pc = to as u32;
                    return Ok(());
                }
                if v.prov != 0 {
                    return unsupported("a switch on a pointer", loc);
                }
                let to = cases
                    .iter()
                    .find(|(lo, hi, _)| *lo <= v.v && v.v <= *hi)
                    .map(|c| c.2)
                    .unwrap_or(*default);
                self.frame().pc = to as u32;
                Ok(())
            }
            Instr::Return(e) => {
                let v = match e {
                    Some(e) if e.ty.is_aggregate(self.tt()) => {
                        // Copied into the caller's place now, while the callee's locals
                        // (`return job;`) still exist.
                        let src = self.place(e)?;
                        if let Some(dst) = self.frame().ret {
                            let n = self.m.size(&e.ty, loc)?;
                            self.copy(dst, src, n, loc)?;
                        }
                        None
                    }
                    Some(e) if !e.ty.is_void(self.tt()) => Some(self.eval_sym(e)?),
                    Some(e) => {
                        self.eval(e)?;
                        None
                    }
                    None => None,
                };
                self.ret(v, loc)
            }
        }
    }

    /// The first frame of a call of `f` that no caller waits on (a thread's start routine,
    /// a key's destructor), its parameter, if it has one, bound to `arg`.
    fn entry_frame(&mut self, f: FuncId, arg: Val, loc: Loc) -> R<Frame> {
        let m = self.m;
        let mut frame = Frame {
            func: f,
            pc: 0,
            locals: vec![],
            ret: None,
            atomic_fn: false,
        };
        if let Some(p) = m.prog.func(f).params.first() {
            let ty = m.prog.var(*p).ty.clone();
            let size = m.size(&ty, loc)?;
            let o = self.st.alloc(Obj::new(size as usize, false, false));
            frame.bind(*p, o);
            let v = self.convert(arg, &ty, loc)?;
            self.store((o, 0), &ty, v, loc)?;
        }
        Ok(frame)
    }

    /// Pops the current frame, handing `v` to the caller (or ending the thread).
    fn ret(&mut self, v: Option<Val>, loc: Loc) -> R<()> {
        let m = self.m;
        let t = &mut self.st.threads[self.tid];
        let Some(f) = t.frames.pop() else {
            return Ok(());
        };
        if f.atomic_fn {
            t.atomic = t.atomic.saturating_sub(1);
        }
        let locals: Vec<u32> = f.locals.iter().map(|(_, o)| *o).collect();
        let depth = t.frames.len();
        for o in locals {
            self.st.release(o);
        }
        if depth == 0 {
            if self.tid == 0 {
                // `main` returning ends the process.
                self.st.exited = true;
            }
            let v = match v {
                Some(v) => self.concrete(v, loc)?,
                None => Val::int(0),
            };
            return self.finish_thread(v, loc);
        }
        if let (Some(place), Some(v)) = (f.ret, v) {
            // The caller's instruction says the type of what receives the value.
            let caller = self.frame();
            let (cf, cpc) = (caller.func, caller.pc as usize - 1);
            let ty = match m.codes.get(&cf).and_then(|c| c.instrs.get(cpc)) {
                Some(Instr::Decl { var, .. }) => m.prog.var(*var).ty.clone(),
                Some(ins) => match call_of(ins) {
                    Some((Some(l), _, _)) => l.ty.clone(),
                    _ => return unsupported("a call whose result goes nowhere known", loc),
                },
                None => return unsupported("a call whose result goes nowhere known", loc),
            };
            let v = self.convert(v, &ty, loc)?;
            self.store(place, &ty, v, loc)?;
        }
        Ok(())
    }

    fn call(
        &mut self,
        lhs: Option<Place>,
        lty: &Type,
        callee: &Expr,
        args: &[Expr],
        loc: Loc,
    ) -> R<()> {
        let m = self.m;
        let f = match &callee.peel().kind {
            ExprKind::Func(f) => *f,
            _ => {
                let v = self.eval(callee)?;
                if v.prov < FUNC_BASE || v.v != 0 {
                    return unsupported("a call through a pointer that is not a function", loc);
                }
                FuncId(v.prov - FUNC_BASE)
            }
        };
        let fun = m.prog.func(f);
        let known = classify(&fun.name);
        if known != Known::Other || fun.body.is_none() {
            let result = self.library(known, &fun.name, args, loc)?;
            if let (Some(p), Some(v)) = (lhs, result) {
                let v = self.convert(v, lty, loc)?;
                self.store(p, lty, v, loc)?;
            }
            return Ok(());
        }
        if self.st.threads[self.tid].frames.len() > 256 {
            return unsupported("recursion deeper than 256 calls", loc);
        }
        // A struct passed by value is copied from where it lives into the parameter.
        let mut vals = Vec::with_capacity(args.len());
        for a in args {
            if a.ty.is_aggregate(self.tt()) {
                vals.push(Err(self.place(a)?));
            } else {
                vals.push(Ok(self.eval_sym(a)?));
            }
        }
        let atomic_fn = is_atomic_function(&fun.name);
        let mut frame = Frame {
            func: f,
            pc: 0,
            locals: vec![],
            ret: lhs,
            atomic_fn,
        };
        for (i, p) in fun.params.iter().enumerate() {
            let ty = m.prog.var(*p).ty.clone();
            let size = m.size(&ty, loc)?;
            let o = self.st.alloc(Obj::new(size as usize, false, false));
            frame.bind(*p, o);
            match vals.get(i) {
                Some(Ok(v)) => {
                    let v = self.convert(*v, &ty, loc)?;
                    self.store((o, 0), &ty, v, loc)?;
                }
                Some(Err(src)) => self.copy((o, 0), *src, size, loc)?,
                None => {}
            }
        }
        let t = &mut self.st.threads[self.tid];
        if atomic_fn {
            t.atomic += 1;
        }
        t.frames.push(frame);
        Ok(())
    }

    /// Functions without a body the explorer knows: pthreads, allocation, output.
    fn library(&mut self, known: Known, name: &str, args: &[Expr], loc: Loc) -> R<Option<Val>> {
        let arg = |i: usize| -> R<&Expr> {
            match args.get(i) {
                Some(a) => Ok(a),
                None => unsupported(&format!("`{name}` with too few arguments"), loc),
            }
        };
        match known {
            Known::ThreadCreate => {
                let f = self.eval(arg(2)?)?;
                if f.prov < FUNC_BASE {
                    return unsupported("a thread started through a non-function", loc);
                }
                let fid = FuncId(f.prov - FUNC_BASE);
                let a = self.eval(arg(3)?)?;
                let id = self.st.threads.len();
                if id >= MAX_THREADS {
                    return unsupported("more than 64 threads", loc);
                }
                let m = self.m;
                let fun = m.prog.func(fid);
                if fun.body.is_none() {
                    return unsupported(
                        &format!("thread function `{}` has no body", fun.name),
                        loc,
                    );
                }
                let frame = self.entry_frame(fid, a, loc)?;
                let detach = self.created_detach(args.get(1), loc)?;
                self.st.threads.push(Thread {
                    frames: vec![frame],
                    status: Status::Running,
                    atomic: 0,
                    detach,
                    tls: vec![],
                    exiting: None,
                });
                self.st.origin.0.push(id as u32);
                let handle = self.eval(arg(0)?)?;
                if handle.truth() {
                    let p = self.ptr_place(handle, loc)?;
                    let ty = arg(0)?
                        .ty
                        .pointee(self.tt())
                        .cloned()
                        .unwrap_or(Type::Int(IntKind::ULong));
                    self.store(p, &ty, Val::thread(id), loc)?;
                }
                Ok(Some(Val::int(0)))
            }
            Known::ThreadJoin => self.join(args, loc),
            Known::ThreadDetach => self.detach(args, loc),
            Known::ThreadExit => {
                let v = match args.first() {
                    Some(a) => self.eval(a)?,
                    None => Val::int(0),
                };
                let t = &mut self.st.threads[self.tid];
                let frames = std::mem::take(&mut t.frames);
                t.atomic = 0;
                for f in frames {
                    for (_, o) in f.locals {
                        self.st.release(o);
                    }
                }
                self.finish_thread(v, loc)?;
                Ok(None)
            }
            Known::ThreadSelf => Ok(Some(Val::thread(self.tid))),
            Known::ThreadEqual => {
                let a = self.eval(arg(0)?)?;
                let b = self.eval(arg(1)?)?;
                Ok(Some(Val::int((a == b) as i128)))
            }
            Known::MutexInit | Known::MutexLock | Known::MutexTrylock | Known::MutexUnlock
                if self.m.typed_mutexes =>
            {
                Ok(Some(Val::int(self.typed_mutex(known, args, loc)?)))
            }
            Known::Attr if self.m.typed_mutexes && crate::ir::known::mutex_attr(name).is_some() => {
                Ok(Some(Val::int(self.mutex_attr(name, args, loc)?)))
            }
            Known::Attr => Ok(Some(Val::int(self.thread_attr(name, args, loc)?))),
            Known::CondInit | Known::CondDestroy | Known::MutexDestroy => Ok(Some(Val::int(0))),
            Known::MutexInit => {
                let p = self.eval_place_of_ptr(arg(0)?)?;
                self.st.locks.remove(&p);
                Ok(Some(Val::int(0)))
            }
            Known::MutexLock => {
                let p = self.eval_place_of_ptr(arg(0)?)?;
                if self.st.locks.contains_key(&p) {
                    return Err(Stop::Blocked);
                }
                self.st.locks.insert(p, self.tid as u32);
                Ok(Some(Val::int(0)))
            }
            Known::MutexTrylock => {
                let p = self.eval_place_of_ptr(arg(0)?)?;
                if self.st.locks.contains_key(&p) {
                    return Ok(Some(Val::int(16)));
                }
                self.st.locks.insert(p, self.tid as u32);
                Ok(Some(Val::int(0)))
            }
            Known::MutexUnlock => {
                let p = self.eval_place_of_ptr(arg(0)?)?;
                if self.st.locks.remove(&p).is_none() && self.m.unlocks {
                    return Err(Stop::Violation(loc));
                }
                Ok(Some(Val::int(0)))
            }
            Known::CondWait => {
                let c = self.eval_place_of_ptr(arg(0)?)?;
                let mx = self.eval_place_of_ptr(arg(1)?)?;
                self.st.locks.remove(&mx);
                if self.m.typed_mutexes {
                    // Waiting gives up every re-lock of a recursive mutex too.
                    self.set_relocks(mx, 0, loc)?;
                }
                let spurious = self
                    .m
                    .prev_stmt(self.st, self.tid)
                    .is_some_and(|id| self.m.spurious_waits.contains(&id))
                    && self.ch.pick(2) == 1;
                self.st.threads[self.tid].status = Status::Waiting {
                    cond: c,
                    mutex: mx,
                    signaled: false,
                    spurious,
                };
                Ok(Some(Val::int(0)))
            }
            Known::CondSignal | Known::CondBroadcast => {
                let c = self.eval_place_of_ptr(arg(0)?)?;
                let waiting: Vec<usize> = (0..self.st.threads.len())
                    .filter(|&i| {
                        matches!(self.st.threads[i].status,
                            Status::Waiting { cond, signaled: false, .. } if cond == c)
                    })
                    .collect();
                let wake: Vec<usize> = if known == Known::CondBroadcast {
                    waiting
                } else if waiting.is_empty() {
                    vec![]
                } else {
                    let i = self.ch.pick(waiting.len() as u32) as usize;
                    vec![waiting[i]]
                };
                for w in wake {
                    if let Status::Waiting { signaled, .. } = &mut self.st.threads[w].status {
                        *signaled = true;
                    }
                }
                Ok(Some(Val::int(0)))
            }
            k if k.is_semaphore_or_rwlock() || k.is_barrier_or_once() => {
                Ok(Some(Val::int(self.sync_object(known, name, args, loc)?)))
            }
            Known::KeyCreate | Known::KeyDelete | Known::GetSpecific | Known::SetSpecific => {
                self.key_call(known, args, loc)
            }
            Known::Malloc | Known::Calloc => {
                let n = if known == Known::Calloc {
                    let a = self.eval(arg(0)?)?;
                    let b = self.eval(arg(1)?)?;
                    a.v.saturating_mul(b.v)
                } else {
                    self.eval(arg(0)?)?.v
                };
                if !(0..=MAX_OBJECT_BYTES as i128).contains(&n) {
                    return unsupported("an allocation larger than 1 MiB", loc);
                }
                let o = self
                    .st
                    .alloc(Obj::new(n as usize, true, known == Known::Calloc));
                Ok(Some(Val { v: 0, prov: o }))
            }
            Known::Free => {
                let p = self.eval(arg(0)?)?;
                if !p.truth() {
                    return Ok(None);
                }
                let heap = self.st.obj(p.prov).is_some_and(|o| o.heap);
                if !heap || p.v != 0 {
                    return unsupported("freeing memory that malloc did not return", loc);
                }
                self.st.release(p.prov);
                Ok(None)
            }
            // Output and sleeping: no effect on the program's state.
            _ if crate::ir::known::has_no_effect(name) || name == "nanosleep" => {
                Ok(Some(Val::int(0)))
            }
            _ => unsupported(&format!("a call to `{name}`"), loc),
        }
    }

    /// An expression evaluated for its effect.
    fn effect(&mut self, e: &Expr) -> R<()> {
        if let ExprKind::Intrinsic(i, args) = &e.kind {
            match i {
                Intrinsic::Assume => {
                    let c = self.eval_arg_sym(args, e.loc)?;
                    return if self.truth(c)? {
                        Ok(())
                    } else {
                        Err(Stop::Cut)
                    };
                }
                Intrinsic::Assert => {
                    let c = self.eval_arg_sym(args, e.loc)?;
                    return if self.truth(c)? {
                        Ok(())
                    } else {
                        Err(Stop::Violation(e.loc))
                    };
                }
                Intrinsic::Error => return Err(Stop::Violation(e.loc)),
                Intrinsic::Abort => {
                    self.st.exited = true;
                    return Ok(());
                }
                Intrinsic::AtomicBegin => {
                    self.st.threads[self.tid].atomic += 1;
                    return Ok(());
                }
                Intrinsic::AtomicEnd => {
                    let t = &mut self.st.threads[self.tid];
                    t.atomic = t.atomic.saturating_sub(1);
                    return Ok(());
                }
                Intrinsic::Nondet => {}
                other => {
                    return unsupported(&format!("seqloc's own operation {other:?}"), e.loc);
                }
            }
        }
        if e.ty.is_aggregate(self.tt()) {
            if let ExprKind::Assign(l, r) = &e.kind {
                let dst = self.place(l)?;
                let src = self.place(r)?;
                let n = self.m.size(&l.ty, e.loc)?;
                return self.copy(dst, src, n, e.loc);
            }
        }
        self.eval_sym(e).map(|_| ())
    }

    fn eval_arg_sym(&mut self, args: &[Expr], loc: Loc) -> R<Val> {
        match args.first() {
            Some(a) => self.eval_sym(a),
            None => unsupported("an intrinsic without its argument", loc),
        }
    }

    fn eval_place_of_ptr(&mut self, e: &Expr) -> R<Place> {
        let v = self.eval(e)?;
        self.ptr_place(v, e.loc)
    }

    fn ptr_place(&self, v: Val, loc: Loc) -> R<Place> {
        if !is_object(v.prov) {
            return unsupported("a pointer that points to no object", loc);
        }
        Ok((v.prov, v.v as i64))
    }

    /// The object and offset an lvalue designates.
    fn place(&mut self, e: &Expr) -> R<Place> {
        match &e.kind {
            ExprKind::Var(v) => {
                let var = self.m.prog.var(*v);
                if var.kind == VarKind::Global {
                    if var.thread_local {
                        return Ok((self.thread_local(*v, e.loc)?, 0));
                    }
                    return match self.m.globals.get(v) {
                        Some(o) => Ok((*o, 0)),
                        None => unsupported("a global the explorer did not allocate", e.loc),
                    };
                }
                match self.frame().local(*v) {
                    Some(o) => Ok((o, 0)),
                    None => {
                        // A local used before its declaration ran (a jump over it).
                        let ty = var.ty.clone();
                        let size = self.m.size(&ty, e.loc)?;
                        let o = self.st.alloc(Obj::new(size as usize, false, false));
                        self.frame().bind(*v, o);
                        Ok((o, 0))
                    }
                }
            }
            ExprKind::Deref(p) => {
                let v = self.eval(p)?;
                self.ptr_place(v, e.loc)
            }
            ExprKind::Member(b, i) => {
                let (o, off) = self.place(b)?;
                match b.ty.resolve(self.tt()) {
                    Type::Comp(id) => {
                        let l = self.m.layout(*id);
                        let fo = l.offsets.get(*i).copied();
                        match fo {
                            Some(fo) if fo.bit.is_none() => Ok((o, off + fo.byte as i64)),
                            Some(_) => unsupported("a bit-field", e.loc),
                            None => unsupported("a member the layout does not have", e.loc),
                        }
                    }
                    _ => unsupported("a member of a non-struct", e.loc),
                }
            }
            ExprKind::Index(b, i) => {
                let base = self.eval(b)?;
                let idx = thread_number(self.eval(i)?);
                let ety = match b.ty.pointee(self.tt()) {
                    Some(t) => t.clone(),
                    None => return unsupported("indexing a non-pointer", e.loc),
                };
                let size = self.m.size(&ety, e.loc)? as i128;
                let p = Val {
                    v: base.v.wrapping_add(idx.v.wrapping_mul(size)),
                    prov: base.prov,
                };
                self.ptr_place(p, e.loc)
            }
            ExprKind::Cast { e: x, .. } => self.place(x),
            ExprKind::Str(bytes) => match self.m.literals.get(bytes) {
                Some(o) => Ok((*o, 0)),
                None => unsupported("a string literal the explorer did not allocate", e.loc),
            },
            _ => unsupported("this kind of lvalue", e.loc),
        }
    }

    fn int_kind(&self, ty: &Type, loc: Loc) -> R<IntKind> {
        match ty.resolve(self.tt()) {
            Type::Pointer(_) => Ok(self.m.dm.size_t()),
            _ => match ty.int_kind(self.tt()) {
                Some(k) => Ok(k),
                None => unsupported("a value of non-integer type (floating point?)", loc),
            },
        }
    }

    fn obj(&self, id: u32, loc: Loc) -> R<&Obj> {
        match self.st.obj(id) {
            Some(o) => Ok(o),
            None => unsupported(
                "an access to memory that was freed or went out of scope",
                loc,
            ),
        }
    }

    /// A scalar read, made concrete (see `concrete`).
    fn load(&mut self, p: Place, ty: &Type, loc: Loc) -> R<Val> {
        let v = self.load_sym(p, ty, loc)?;
        self.concrete(v, loc)
    }

    /// The integer kind of a scalar's bytes in memory: a float's are its bits.
    fn mem_kind(&self, ty: &Type, loc: Loc) -> R<IntKind> {
        match self.float_type(ty, loc)? {
            Some(32) => Ok(IntKind::UInt),
            Some(_) => Ok(IntKind::ULongLong),
            None => self.int_kind(ty, loc),
        }
    }

    /// A scalar read, which may be a symbolic input.
    fn load_sym(&mut self, (o, off): Place, ty: &Type, loc: Loc) -> R<Val> {
        let k = self.mem_kind(ty, loc)?;
        let float = self.float_type(ty, loc)?;
        let n = k.bytes(self.m.dm) as usize;
        let obj = self.obj(o, loc)?;
        if off < 0 || off as usize + n > obj.bytes.len() {
            return unsupported("an access outside its object", loc);
        }
        let off = off as usize;
        if obj.init[off..off + n].iter().any(|b| !b) {
            return unsupported(
                "a read of a value never written (an input the explorer cannot enumerate)",
                loc,
            );
        }
        let mut u: u128 = 0;
        for (i, b) in obj.bytes[off..off + n].iter().enumerate() {
            u |= (*b as u128) << (8 * i);
        }
        let v = k.wrap(u as i128, self.m.dm);
        let near = (off.saturating_sub(7) as u32)..(off + n) as u32;
        let mut sym = None;
        for (&at, &t) in obj.prov.range(near) {
            if let Some((id, w)) = sym_of(t) {
                let width = 1usize << w;
                if at as usize + width <= off {
                    continue;
                }
                if at as usize != off || width != n {
                    return unsupported("a read of part of a nondeterministic input", loc);
                }
                sym = Some(id);
            }
        }
        let prov = obj.prov.get(&(off as u32)).copied().unwrap_or(0);
        if let Some(bits) = float {
            if sym.is_some() || prov != 0 {
                return unsupported("a float read from the bytes of an input or an address", loc);
            }
            return Ok(Val::float_bits(bits, v));
        }
        if let Some(id) = sym {
            // The bytes hold the offset from the input, wrapped as the type wraps.
            return self.wrap_sym(Val::sym(id, v), k, loc);
        }
        Ok(Val { v, prov })
    }

    fn store(&mut self, (o, off): Place, ty: &Type, v: Val, loc: Loc) -> R<()> {
        if ty.is_aggregate(self.tt()) {
            return unsupported("storing an aggregate as a scalar", loc);
        }
        let k = self.mem_kind(ty, loc)?;
        if self.float_type(ty, loc)?.is_some() != v.as_float().is_some() {
            return unsupported("a float stored as an integer or an integer as a float", loc);
        }
        let n = k.bytes(self.m.dm) as usize;
        let pw = self.m.dm.pointer_bytes() as i64;
        let obj = match self.st.obj_mut(o) {
            Some(x) => x,
            None => {
                return unsupported(
                    "an access to memory that was freed or went out of scope",
                    loc,
                );
            }
        };
        if off < 0 || off as usize + n > obj.bytes.len() {
            return unsupported("an access outside its object", loc);
        }
        if obj.clear_tags(off as u32, n as u32, pw as u32) {
            return unsupported("a write over part of a nondeterministic input", loc);
        }
        let u = v.v as u128;
        for i in 0..n {
            obj.bytes[off as usize + i] = (u >> (8 * i)) as u8;
            obj.init[off as usize + i] = true;
        }
        if let Some(id) = v.as_sym() {
            obj.prov.insert(off as u32, sym_tag(id, n as u64));
        } else if v.prov != 0 && v.as_float().is_none() {
            obj.prov.insert(off as u32, v.prov);
        }
        Ok(())
    }

    fn copy(&mut self, dst: Place, src: Place, n: u64, loc: Loc) -> R<()> {
        let n = n as usize;
        let pw = self.m.dm.pointer_bytes() as u32;
        let s = self.obj(src.0, loc)?;
        if src.1 < 0 || src.1 as usize + n > s.bytes.len() {
            return unsupported("a copy outside its object", loc);
        }
        let a = src.1 as usize;
        let cuts = |x: usize| {
            s.prov
                .range((x.saturating_sub(7) as u32)..x as u32)
                .any(|(&at, &t)| sym_of(t).is_some_and(|(_, w)| at as usize + (1usize << w) > x))
        };
        if cuts(a) || cuts(a + n) {
            return unsupported("a copy of part of a nondeterministic input", loc);
        }
        let bytes = s.bytes[a..a + n].to_vec();
        let init = s.init[a..a + n].to_vec();
        let provs: Vec<(u32, u32)> = s
            .prov
            .range(a as u32..(a + n) as u32)
            .map(|(k, v)| (*k - a as u32, *v))
            .collect();
        let d = match self.st.obj_mut(dst.0) {
            Some(x) => x,
            None => return unsupported("a copy into memory that is gone", loc),
        };
        if dst.1 < 0 || dst.1 as usize + n > d.bytes.len() {
            return unsupported("a copy outside its object", loc);
        }
        let b = dst.1 as usize;
        d.bytes[b..b + n].copy_from_slice(&bytes);
        d.init[b..b + n].copy_from_slice(&init);
        if d.clear_tags(b as u32, n as u32, pw) {
            return unsupported("a copy over part of a nondeterministic input", loc);
        }
        for (k, v) in provs {
            d.prov.insert(k + b as u32, v);
        }
        Ok(())
    }

    /// Initialises an object (or part of one) from an initializer.
    fn init(&mut self, ty: &Type, place: Place, init: &Init, loc: Loc) -> R<()> {
        match init {
            Init::Expr(e) => {
                if ty.is_aggregate(self.tt()) {
                    if let ExprKind::Str(s) = &e.peel().kind {
                        let n = self.m.size(ty, loc)? as usize;
                        for i in 0..n {
                            let b = s.get(i).copied().unwrap_or(0);
                            self.store(
                                (place.0, place.1 + i as i64),
                                &Type::char(),
                                Val::int(b as i8 as i128),
                                loc,
                            )?;
                        }
                        return Ok(());
                    }
                    let src = self.place(e)?;
                    let n = self.m.size(ty, loc)?;
                    return self.copy(place, src, n, loc);
                }
                let v = self.eval_sym(e)?;
                let v = self.convert(v, ty, loc)?;
                self.store(place, ty, v, loc)
            }
            Init::List(items) => {
                let n = self.m.size(ty, loc)? as usize;
                self.zero(place, n, loc)?;
                for it in items {
                    let mut t = ty.clone();
                    let mut off = place.1;
                    for d in &it.path {
                        match (d, t.resolve(self.tt()).clone()) {
                            (Designator::Field(i), Type::Comp(id)) => {
                                let l = self.m.layout(id);
                                let Some(fo) = l.offsets.get(*i) else {
                                    return unsupported("an initializer for a missing member", loc);
                                };
                                if fo.bit.is_some() {
                                    return unsupported("a bit-field initializer", loc);
                                }
                                off += fo.byte as i64;
                                t = self.tt().comp(id).fields[*i].ty.clone();
                            }
                            (Designator::Index(k), Type::Array(e, _)) => {
                                let es = self.m.size(&e, loc)? as i64;
                                off += es * *k as i64;
                                t = (*e).clone();
                            }
                            _ => {
                                return unsupported(
                                    "an initializer the explorer cannot place",
                                    loc,
                                );
                            }
                        }
                    }
                    self.init(&t, (place.0, off), &it.init, loc)?;
                }
                Ok(())
            }
        }
    }

    fn zero(&mut self, (o, off): Place, n: usize, loc: Loc) -> R<()> {
        let pw = self.m.dm.pointer_bytes() as u32;
        let obj = match self.st.obj_mut(o) {
            Some(x) => x,
            None => return unsupported("initialising memory that is gone", loc),
        };
        if off < 0 || off as usize + n > obj.bytes.len() {
            return unsupported("an initializer outside its object", loc);
        }
        let a = off as usize;
        obj.bytes[a..a + n].iter_mut().for_each(|b| *b = 0);
        obj.init[a..a + n].iter_mut().for_each(|b| *b = true);
        if obj.clear_tags(a as u32, n as u32, pw) {
            return unsupported("an initializer over part of a nondeterministic input", loc);
        }
        Ok(())
    }

    /// C's conversion of a scalar to `ty`.
    fn convert(&mut self, v: Val, ty: &Type, loc: Loc) -> R<Val> {
        if let Some(f) = self.float_convert(v, ty, loc)? {
            return Ok(f);
        }
        if v.as_sym().is_some() {
            return match ty.resolve(self.tt()) {
                Type::Void => Ok(v),
                Type::Int(IntKind::Bool) => Ok(Val::int(self.truth(v)? as i128)),
                Type::Pointer(_) => {
                    let c = self.concrete(v, loc)?;
                    self.convert(c, ty, loc)
                }
                _ => {
                    let k = self.int_kind(ty, loc)?;
                    self.wrap_sym(v, k, loc)
                }
            };
        }
        match ty.resolve(self.tt()) {
            Type::Void => Ok(v),
            Type::Pointer(_) => Ok(Val {
                v: self.m.dm.size_t().wrap(v.v, self.m.dm),
                prov: v.prov,
            }),
            Type::Int(IntKind::Bool) => Ok(Val::int(v.truth() as i128)),
            _ => {
                let k = self.int_kind(ty, loc)?;
                Ok(Val {
                    v: k.wrap(v.v, self.m.dm),
                    prov: v.prov,
                })
            }
        }
    }

    fn nondet(&mut self, ty: &Type, loc: Loc) -> R<Val> {
        if ty.is_pointer(self.tt()) {
            return unsupported("a nondeterministic pointer", loc);
        }
        let k = self.int_kind(ty, loc)?;
        let v = match k {
            IntKind::Bool => self.ch.pick(2) as i128,
            _ if k.bytes(self.m.dm) == 1 => self.ch.pick(256) as i128,
            // Wider inputs are symbols (their stored tags must not outlast a write of
            // their bytes, which pointer-wide tags are cleared by).
            _ if k.bytes(self.m.dm) <= self.m.dm.pointer_bytes() => {
                let id = self.st.syms.len() as u32;
                self.st.syms.push(symbolic::range(k, self.m.dm));
                return Ok(Val::sym(id, 0));
            }
            _ => {
                return unsupported(
                    &format!(
                        "a nondeterministic {} input (wider than a pointer: not kept symbolic)",
                        k.c_name()
                    ),
                    loc,
                );
            }
        };
        Ok(Val::int(k.wrap(v, self.m.dm)))
    }

    /// The values input `id` may still take.
    fn dom(&self, id: u32) -> Dom {
        self.st.syms.get(id as usize).copied().unwrap_or((0, 0))
    }

    /// One successor per outcome: picks one of `outs` (a choice only when there are
    /// several) and narrows input `id` to its interval.
    fn split<T: Copy>(&mut self, id: u32, outs: &[(T, Dom)], loc: Loc) -> R<T> {
        let i = match outs.len() {
            0 => return unsupported("a comparison on an input with no values left", loc),
            1 => 0,
            n => self.ch.pick(n as u32) as usize,
        };
        let (t, d) = outs[i];
        if let Some(s) = self.st.syms.get_mut(id as usize) {
            *s = d;
        }
        Ok(t)
    }

    /// A concrete value for `v`: a symbolic input takes each of its values in turn (when
    /// it has at most `MAX_ENUM`), and keeps it from then on.
    fn concrete(&mut self, v: Val, loc: Loc) -> R<Val> {
        let Some(id) = v.as_sym() else {
            return Ok(v);
        };
        let d = self.dom(id);
        let n = symbolic::size(d);
        if n > MAX_ENUM {
            return unsupported(
                &format!(
                    "a nondeterministic input used in arithmetic, as an index or as an argument to the library, with {n} possible values (too many to enumerate)"
                ),
                loc,
            );
        }
        let c = d.0 + self.ch.pick(n as u32) as i128;
        if let Some(s) = self.st.syms.get_mut(id as usize) {
            *s = (c, c);
        }
        Ok(Val::int(c + v.v))
    }

    /// Whether `v` is non-zero; on a symbolic input, one successor per outcome.
    fn truth(&mut self, v: Val) -> R<bool> {
        let Some(id) = v.as_sym() else {
            return Ok(v.truth());
        };
        let outs = symbolic::compare(self.dom(id), v.v, BinOp::Ne, 0);
        self.split(id, &outs, Loc::SYNTH)
    }

    /// `input + v` converted to kind `k`, split where it wraps around.
    fn wrap_sym(&mut self, v: Val, k: IntKind, loc: Loc) -> R<Val> {
        let Some(id) = v.as_sym() else {
            return Ok(Val::int(k.wrap(v.v, self.m.dm)));
        };
        if k == IntKind::Bool {
            return Ok(Val::int(self.truth(v)? as i128));
        }
        match symbolic::wrap_pieces(self.dom(id), v.v, k, self.m.dm) {
            Some(pieces) => {
                let outs: Vec<(i128, Dom)> = pieces.iter().map(|(d, off)| (*off, *d)).collect();
                let off = self.split(id, &outs, loc)?;
                Ok(Val::sym(id, off))
            }
            None => {
                let c = self.concrete(v, loc)?;
                Ok(Val::int(k.wrap(c.v, self.m.dm)))
            }
        }
    }

    /// The case a switch on `input + v` takes: one successor per case range the input's
    /// interval meets, and one per gap between them (the default); enumerated instead
    /// when that makes more than 64 successors.
    fn switch_sym(
        &mut self,
        id: u32,
        v: i128,
        cases: &[(i128, i128, usize)],
        default: usize,
        loc: Loc,
    ) -> R<usize> {
        let dom = self.dom(id);
        let mut outs: Vec<(usize, Dom)> = vec![];
        let mut covered: Vec<Dom> = vec![];
        for &(lo, hi, to) in cases {
            let d = ((lo - v).max(dom.0), (hi - v).min(dom.1));
            if d.0 <= d.1 {
                outs.push((to, d));
                covered.push(d);
            }
        }
        covered.sort_unstable();
        let mut at = dom.0;
        for (a, b) in covered {
            if a > at {
                outs.push((default, (at, a - 1)));
            }
            at = at.max(b + 1);
        }
        if at <= dom.1 {
            outs.push((default, (at, dom.1)));
        }
        if outs.len() > 64 {
            let c = self.concrete(Val::sym(id, v), loc)?;
            return Ok(cases
                .iter()
                .find(|(lo, hi, _)| *lo <= c.v && c.v <= *hi)
                .map(|c| c.2)
                .unwrap_or(default));
        }
        self.split(id, &outs, loc)
    }

    /// A comparison with a symbolic operand: split by its outcomes.
    fn compare_sym(&mut self, op: BinOp, x: Val, y: Val, loc: Loc) -> R<Val> {
        let (mut x, mut y) = (x, y);
        if let (Some(a), Some(b)) = (x.as_sym(), y.as_sym()) {
            if a == b {
                return Ok(Val::int(op.holds(x.v, y.v) as i128));
            }
            // Two inputs: the one with fewer values becomes concrete.
            if symbolic::size(self.dom(a)) <= symbolic::size(self.dom(b)) {
                x = self.concrete(x, loc)?;
            } else {
                y = self.concrete(y, loc)?;
            }
        }
        let (s, c, op) = match (x.as_sym(), y.as_sym()) {
            (Some(_), None) => (x, y, op),
            (None, Some(_)) => (y, x, op.swapped()),
            _ => return unsupported("a comparison of two inputs", loc),
        };
        if c.prov != 0 {
            return unsupported("a comparison of an input with an address", loc);
        }
        let Some(id) = s.as_sym() else {
            return unsupported("a comparison of two inputs", loc);
        };
        let outs = symbolic::compare(self.dom(id), s.v, op, c.v);
        let r = self.split(id, &outs, loc)?;
        Ok(Val::int(r as i128))
    }

    /// The value of `e`, made concrete (see `concrete`).
    fn eval(&mut self, e: &Expr) -> R<Val> {
        let v = self.eval_sym(e)?;
        self.concrete(v, e.loc)
    }

    /// The value of `e`, which may be a symbolic input plus a constant. Only the operations
    /// that handle such values (copies, conversions, comparisons, additions of a constant,
    /// conditions) see them; everything else goes through `eval`.
    fn eval_sym(&mut self, e: &Expr) -> R<Val> {
        let loc = e.loc;
        match &e.kind {
            ExprKind::Int(v) => match self.float_type(&e.ty, loc)? {
                Some(bits) => Ok(self.float_of_int_constant(*v, bits)),
                None => Ok(Val::int(*v)),
            },
            ExprKind::Float(text) => self.float_constant(text, &e.ty, loc),
            ExprKind::Str(_) => unsupported("a string literal used as a value", loc),
            ExprKind::Var(_) | ExprKind::Deref(_) | ExprKind::Member(..) | ExprKind::Index(..) => {
                if e.ty.is_aggregate(self.tt()) || e.ty.is_function(self.tt()) {
                    return unsupported("an aggregate used as a value", loc);
                }
                let p = self.place(e)?;
                self.load_sym(p, &e.ty, loc)
            }
            ExprKind::Func(f) => Ok(Val {
                v: 0,
                prov: FUNC_BASE + f.0,
            }),
            ExprKind::Unary(UnOp::LogNot, x) => {
                let a = self.eval_sym(x)?;
                Ok(Val::int(!self.truth(a)? as i128))
            }
            ExprKind::Unary(op, x) => {
                let a = self.eval(x)?;
                if a.as_thread().is_some() && *op != UnOp::LogNot {
                    return unsupported("arithmetic on a thread id", loc);
                }
                if a.as_float().is_some() {
                    return match op {
                        UnOp::LogNot => Ok(Val::int(!a.truth() as i128)),
                        UnOp::Neg => self.float_neg(a, loc),
                        UnOp::Sqrt | UnOp::FAbs => self.float_math(*op, a, loc),
                        UnOp::BitNot => unsupported("`~` on a float", loc),
                    };
                }
                match op {
                    UnOp::LogNot => Ok(Val::int(!a.truth() as i128)),
                    UnOp::Neg => self.convert(Val::int(a.v.wrapping_neg()), &e.ty, loc),
                    UnOp::BitNot => self.convert(Val::int(!a.v), &e.ty, loc),
                    UnOp::Sqrt | UnOp::FAbs => unsupported(
                        "a square root or `fabs` of something that is not a float",
                        loc,
                    ),
                }
            }
            ExprKind::Binary(op, a, b) => self.binary(*op, a, b, &e.ty, loc),
            ExprKind::Assign(l, r) => {
                let p = self.place(l)?;
                let v = self.eval_sym(r)?;
                let v = self.convert(v, &l.ty, loc)?;
                self.store(p, &l.ty, v, loc)?;
                Ok(v)
            }
            ExprKind::OpAssign {
                op,
                lhs,
                rhs,
                op_ty,
            } => {
                let p = self.place(lhs)?;
                let old = self.load(p, &lhs.ty, loc)?;
                let r = self.eval(rhs)?;
                let v = if lhs.ty.is_pointer(self.tt()) {
                    self.ptr_arith(*op, old, r, &lhs.ty, loc)?
                } else {
                    let a = self.convert(old, op_ty, loc)?;
                    let b = self.convert(r, op_ty, loc)?;
                    self.arith(*op, a, b, op_ty, loc)?
                };
                let v = self.convert(v, &lhs.ty, loc)?;
                self.store(p, &lhs.ty, v, loc)?;
                Ok(v)
            }
            ExprKind::IncDec { inc, post, e: x } => {
                let p = self.place(x)?;
                let old = self.load(p, &x.ty, loc)?;
                if old.as_thread().is_some() {
                    return unsupported("arithmetic on a thread id", loc);
                }
                let one = Val::int(1);
                let op = if *inc { BinOp::Add } else { BinOp::Sub };
                let new = if let Some(bits) = old.float_width() {
                    let one = self.float_of_int_constant(1, bits);
                    self.float_binary(op, old, one, bits, loc)?
                } else if x.ty.is_pointer(self.tt()) {
                    self.ptr_arith(op, old, one, &x.ty, loc)?
                } else {
                    let v = if *inc {
                        old.v.wrapping_add(1)
                    } else {
                        old.v.wrapping_sub(1)
                    };
                    self.convert(Val { v, prov: old.prov }, &x.ty, loc)?
                };
                self.store(p, &x.ty, new, loc)?;
                Ok(if *post { old } else { new })
            }
            ExprKind::Cond(c, a, b) => {
                let c = self.eval_sym(c)?;
                let v = if self.truth(c)? {
                    self.eval_sym(a)?
                } else {
                    self.eval_sym(b)?
                };
                self.convert(v, &e.ty, loc)
            }
            ExprKind::Comma(a, b) => {
                self.effect(a)?;
                self.eval_sym(b)
            }
            ExprKind::Cast { e: x, .. } => {
                if e.ty.is_void(self.tt()) {
                    self.effect(x)?;
                    return Ok(Val::int(0));
                }
                let v = self.eval_sym(x)?;
                self.convert(v, &e.ty, loc)
            }
            ExprKind::Decay(x) | ExprKind::AddrOf(x) => {
                if let ExprKind::Func(f) = &x.peel().kind {
                    return Ok(Val {
                        v: 0,
                        prov: FUNC_BASE + f.0,
                    });
                }
                let (o, off) = self.place(x)?;
                Ok(Val {
                    v: off as i128,
                    prov: o,
                })
            }
            ExprKind::SizeofType(t) => Ok(Val::int(self.m.size(t, loc)? as i128)),
            ExprKind::AlignofType(t) => Ok(Val::int(t.align(self.tt(), self.m.dm) as i128)),
            ExprKind::Call(..) => unsupported("a call inside an expression", loc),
            ExprKind::StmtExpr(_) | ExprKind::Compound(_) => {
                unsupported("a statement expression or compound literal", loc)
            }
            ExprKind::Intrinsic(Intrinsic::Nondet, _) => self.nondet(&e.ty, loc),
            ExprKind::Intrinsic(..) => {
                self.effect(e)?;
                Ok(Val::int(0))
            }
        }
    }

    fn binary(&mut self, op: BinOp, a: &Expr, b: &Expr, ty: &Type, loc: Loc) -> R<Val> {
        if op == BinOp::LogAnd || op == BinOp::LogOr {
            let x = self.eval_sym(a)?;
            let x = self.truth(x)?;
            if (op == BinOp::LogAnd) != x {
                return Ok(Val::int(x as i128));
            }
            let y = self.eval_sym(b)?;
            return Ok(Val::int(self.truth(y)? as i128));
        }
        if let Some(bits) = self.float_type(&a.ty, loc)? {
            // The lowering converts both operands to their common type.
            let x = self.eval(a)?;
            let y = self.eval(b)?;
            return self.float_binary(op, x, y, bits, loc);
        }
        let mut x = self.eval_sym(a)?;
        let mut y = self.eval_sym(b)?;
        let (pa, pb) = (a.ty.is_pointer(self.tt()), b.ty.is_pointer(self.tt()));
        // A thread handle met by a plain number (`t < 64`, the cancellation model's
        // tables) is the thread's number, as the sequential programs number threads:
        // by creation, `main` 0.
        if !pa && !pb {
            if y.prov == 0 {
                x = thread_number(x);
            }
            if x.prov == 0 {
                y = thread_number(y);
            }
        }
        let (sx, sy) = (x.as_sym().is_some(), y.as_sym().is_some());
        if (sx || sy) && !pa && !pb {
            if op.is_comparison() {
                return self.compare_sym(op, x, y, loc);
            }
            // Adding or subtracting a constant keeps the input symbolic.
            let k = self.int_kind(ty, loc)?;
            match (op, sx, sy) {
                (BinOp::Add | BinOp::Sub, true, false) if y.prov == 0 => {
                    let d = if op == BinOp::Add {
                        y.v
                    } else {
                        y.v.wrapping_neg()
                    };
                    return self.wrap_sym(Val { v: x.v + d, ..x }, k, loc);
                }
                (BinOp::Add, false, true) if x.prov == 0 => {
                    return self.wrap_sym(Val { v: y.v + x.v, ..y }, k, loc);
                }
                _ => {}
            }
        }
        let x = self.concrete(x, loc)?;
        let y = self.concrete(y, loc)?;
        if op.is_comparison() {
            if pa || pb || x.prov != 0 || y.prov != 0 {
                let r = match op {
                    BinOp::Eq => x == y,
                    BinOp::Ne => x != y,
                    _ => {
                        if x.prov != y.prov {
                            return unsupported("ordering pointers into different objects", loc);
                        }
                        op.holds(x.v, y.v)
                    }
                };
                return Ok(Val::int(r as i128));
            }
            return Ok(Val::int(op.holds(x.v, y.v) as i128));
        }
        if pa && pb && op == BinOp::Sub {
            if x.prov != y.prov {
                return unsupported("subtracting pointers into different objects", loc);
            }
            let size = match a.ty.pointee(self.tt()) {
                Some(t) => self.m.size(t, loc)?.max(1) as i128,
                None => 1,
            };
            return self.convert(Val::int((x.v - y.v) / size), ty, loc);
        }
        if pa {
            return self.ptr_arith(op, x, y, &a.ty, loc);
        }
        if pb && op == BinOp::Add {
            return self.ptr_arith(op, y, x, &b.ty, loc);
        }
        self.arith(op, x, y, ty, loc)
    }

    fn ptr_arith(&mut self, op: BinOp, p: Val, i: Val, pty: &Type, loc: Loc) -> R<Val> {
        if p.as_thread().is_some() || i.prov != 0 {
            return unsupported("arithmetic on a thread id or an address", loc);
        }
        let size = match pty.pointee(self.tt()) {
            Some(t) => self.m.size(t, loc)?.max(1) as i128,
            None => 1,
        };
        let v = match op {
            BinOp::Add => p.v.wrapping_add(i.v.wrapping_mul(size)),
            BinOp::Sub => p.v.wrapping_sub(i.v.wrapping_mul(size)),
            _ => return unsupported("this arithmetic on a pointer", loc),
        };
        Ok(Val { v, prov: p.prov })
    }

    /// Integer arithmetic in `ty` (the operands are already of the common type).
    fn arith(&mut self, op: BinOp, x: Val, y: Val, ty: &Type, loc: Loc) -> R<Val> {
        if let Some(bits) = self.float_type(ty, loc)? {
            return self.float_binary(op, x, y, bits, loc);
        }
        let k = self.int_kind(ty, loc)?;
        let bits = k.bits(self.m.dm) as i128;
        if x.as_thread().is_some() || y.as_thread().is_some() {
            return unsupported("arithmetic on a thread id", loc);
        }
        let prov = match op {
            BinOp::Add | BinOp::Sub if y.prov == 0 => x.prov,
            BinOp::Add if x.prov == 0 => y.prov,
            _ if x.prov == 0 && y.prov == 0 => 0,
            _ => return unsupported("arithmetic on a pointer's address", loc),
        };
        let v = match op {
            BinOp::Add => x.v.wrapping_add(y.v),
            BinOp::Sub => x.v.wrapping_sub(y.v),
            BinOp::Mul => x.v.wrapping_mul(y.v),
            BinOp::Div | BinOp::Rem => {
                if y.v == 0 {
                    return unsupported("a division by zero", loc);
                }
                if op == BinOp::Div {
                    x.v / y.v
                } else {
                    x.v % y.v
                }
            }
            BinOp::Shl | BinOp::Shr => {
                if y.v < 0 || y.v >= bits {
                    return unsupported("a shift by more than the width", loc);
                }
                if op == BinOp::Shl {
                    x.v.wrapping_shl(y.v as u32)
                } else {
                    x.v >> y.v
                }
            }
            BinOp::BitAnd => x.v & y.v,
            BinOp::BitOr => x.v | y.v,
            BinOp::BitXor => x.v ^ y.v,
            _ => return unsupported("this operator", loc),
        };
        Ok(Val {
            v: k.wrap(v, self.m.dm),
            prov,
        })
    }
}

/// A thread handle as the number the sequential programs give the thread (its index in
/// creation order, `main` 0); any other value as it is.
fn thread_number(v: Val) -> Val {
    match v.as_thread() {
        Some(t) => Val::int(t as i128),
        None => v,
    }
}
