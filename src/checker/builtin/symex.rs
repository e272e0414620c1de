//! Symbolic execution of a sequential IR program into SMT (bit-vectors and arrays).
//!
//! Execution is a single walk in program order with a *path guard*: every assignment
//! becomes `x' = ite(guard, value, x)` (named as a fresh SSA constant), so no state ever
//! needs merging; a forward `goto` adds its guard to the label's pending guard, and
//! reaching the label ORs it back in. `assume(c)` strengthens the current guard from that
//! point on, so an error reached *before* an `abort()` still counts (C and SV-COMP
//! semantics). Loops left in the program are unrolled while their condition can hold,
//! up to a bound; calls are inlined on the fly.
//!
//! It records the properties (each one a named Boolean), the unwinding bounds reached,
//! every assignment with its guard (for traces) and every nondeterministic value.

use std::collections::{HashMap, HashSet};
use std::time::Instant;

use z3::ast::{Ast, BV, Bool};

use super::memory::{Content, Layout, Memory, Namer, ObjKind};
use crate::analysis::shared::address_taken_vars;
use crate::ir::known::{Known, classify};
use crate::ir::*;

#[derive(Debug, thiserror::Error)]
pub enum SymexError {
    /// A construct the built-in checker refuses: the spot's message names it.
    #[error("{}: {}", .0.location(), .0.message)]
    Unsupported(Box<crate::diagnostics::SourceSpot>),
    #[error("the time limit was reached while encoding the program")]
    Timeout,
    #[error("the program needs more than {0} memory objects")]
    TooManyObjects(u64),
    #[error("internal error in the built-in checker: {0}")]
    Internal(String),
}

type R<T> = Result<T, SymexError>;

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum PropKind {
    /// `assert` / `__VERIFIER_assert` failed.
    Assertion,
    /// `reach_error()` (or `__assert_fail`) was reached.
    Error,
    Deadlock,
    /// An unlock gave back a mutex no thread held.
    Unlock,
}

#[derive(Clone, Debug)]
pub struct Prop {
    pub kind: PropKind,
    pub loc: Loc,
    pub sid: StmtId,
    pub point: Option<(u32, u32)>,
    /// True exactly when this property is violated.
    pub lit: Bool,
}

#[derive(Clone, Debug)]
pub struct Event {
    pub guard: Bool,
    pub point: Option<(u32, u32)>,
    pub sid: StmtId,
    pub loc: Loc,
    pub kind: EventKind,
}

#[derive(Clone, Debug)]
pub enum EventKind {
    /// A program point of a thread slot started executing.
    Point,
    /// A statement of the program as written ran (one event per execution).
    Exec,
    /// An assignment: the lvalue as written and the value stored.
    /// `lhs` as the checked program names it; `shown` as the source does, `None` for a
    /// temporary seqloc made up (see `cex::Write`).
    Assign {
        lhs: String,
        shown: Option<String>,
        value: BV,
        ty: Type,
    },
    /// The end-of-run probe found that thread slot `k` would resume at point `p`.
    Resume { k: u32, p: u32 },
}

/// One evaluation of a localization site (`Intrinsic::Diag`): whether the `diag` switch
/// selected it, the value the solver chose, and the value the statement computes.
#[derive(Clone, Debug)]
pub struct DiagRec {
    pub site: u32,
    pub guard: Bool,
    pub selected: Bool,
    pub chosen: BV,
    pub original: BV,
    pub ty: Type,
}

#[derive(Clone, Debug)]
pub struct InputRec {
    pub guard: Bool,
    pub point: Option<(u32, u32)>,
    pub sid: StmtId,
    pub loc: Loc,
    pub value: BV,
    pub ty: Type,
    /// The occurrence a replayed input's counter names (see [`Intrinsic::Nondet`]);
    /// `None` for a plain nondet, whose occurrence is its rank among the statement's.
    pub occurrence: Option<BV>,
}

pub struct SymexOptions {
    /// Bound for loops still present in the program (the framework's own loops are
    /// counted and never reach it).
    pub loop_bound: u32,
    pub max_call_depth: u32,
    pub deadline: Option<Instant>,
    /// Which executions with an undefined access are discarded.
    pub valid: Validity,
}

/// The accesses an execution may make and still count (see [`SymexOptions::valid`]).
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord)]
pub enum Validity {
    /// Every access counts; one into no object reads an unconstrained value.
    Any,
    /// A read through a pointer into no object (NULL, freed or made up) discards the
    /// execution. The failing run's replay sets this: a failure that rests on such a
    /// read is none the program shows.
    Objects,
    /// Also a read or a store outside its object (an index off either end). The
    /// diagnosis model sets this: a changed value that only avoids the failure through
    /// an access C leaves undefined is no repair, and its value is no hint to offer. (The
    /// failing run itself may make such an access: then only changes that avoid it count.)
    InBounds,
}

/// What kind of bound cut an execution off.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Cut {
    /// A loop's unwinding bound: a deeper one lets the loop go on.
    Loop,
    /// The recursion depth, which grows with the unwinding as a loop's bound does.
    Recursion,
    /// Another bound of the sequential program (thread slots, keys, a barrier's cycles):
    /// the loop bound does not move it.
    Other,
}

pub struct Output {
    /// Definitions and constraints (always asserted).
    pub asserts: Vec<Bool>,
    pub props: Vec<Prop>,
    /// Where executions are cut off by a bound: the literal is true when one is, and the
    /// kind of bound says whether a deeper loop bound could let it go on.
    pub unwinds: Vec<(Loc, Bool, Cut)>,
    /// Where the replay of a concrete schedule went wrong: the step (block number, from
    /// 1) and when.
    pub mismatches: Vec<(Option<BV>, Bool)>,
    pub events: Vec<Event>,
    pub inputs: Vec<InputRec>,
    pub diags: Vec<DiagRec>,
    /// Final values of global registers (for reading the schedule off a model).
    pub globals: HashMap<VarId, BV>,
    pub mem: Memory,
    pub var_objects: HashMap<VarId, u32>,
    /// Whether the encoding reads values as floating-point numbers (Z3's QF_BV solver,
    /// the root-cause search's bit-blaster, does not take them).
    pub uses_floats: bool,
}

struct Frame {
    func: FuncId,
    locals: HashMap<VarId, BV>,
    local_objs: HashMap<VarId, u32>,
    pending: HashMap<String, Bool>,
    seen_labels: HashSet<String>,
    loops: Vec<(String, String)>,
    switches: Vec<(Vec<Bool>, usize, String)>,
    ret: Option<(VarId, Type)>,
    ret_label: String,
}

pub struct Symex<'p> {
    prog: &'p Program,
    uses_floats: std::cell::Cell<bool>,
    dm: DataModel,
    lay: Layout,
    mem: Memory,
    globals: HashMap<VarId, BV>,
    frames: Vec<Frame>,
    guard: Bool,
    nm: Namer,
    props: Vec<Prop>,
    unwinds: Vec<(Loc, Bool, Cut)>,
    mismatches: Vec<(Option<BV>, Bool)>,
    events: Vec<Event>,
    inputs: Vec<InputRec>,
    diags: Vec<DiagRec>,
    point: Option<(u32, u32)>,
    addr_taken: HashSet<VarId>,
    var_obj: HashMap<VarId, u32>,
    fn_obj: HashMap<FuncId, u32>,
    str_obj: HashMap<Vec<u8>, u32>,
    opts: SymexOptions,
    steps: u64,
    cur_sid: StmtId,
    cur_loc: Loc,
    /// The type a `malloc` result is about to be stored as (`T *p = malloc(...)`), so the
    /// block gets T's layout.
    alloc_hint: Option<Type>,
    /// The current path was ended by an assumption that cannot hold (its guard is
    /// constrained false), not by control flow: joins may ignore it.
    infeasible: bool,
    /// Paths ended by control (an error, `abort`, an exhausted loop bound) so far. A call
    /// during which none ended returns on every path that entered it.
    control_kills: u64,
}

impl<'p> Symex<'p> {
    pub fn new(prog: &'p Program, opts: SymexOptions) -> R<Symex<'p>> {
        let dm = prog.data_model;
        let lay = Layout::new(dm);
        let mut s = Symex {
            prog,
            uses_floats: std::cell::Cell::new(false),
            dm,
            lay,
            mem: Memory::new(lay),
            globals: HashMap::new(),
            frames: vec![],
            guard: Bool::from_bool(true),
            nm: Namer {
                asserts: vec![],
                counter: 0,
                defs: HashMap::new(),
            },
            props: vec![],
            unwinds: vec![],
            mismatches: vec![],
            events: vec![],
            inputs: vec![],
            diags: vec![],
            point: None,
            addr_taken: address_taken_vars(prog),
            var_obj: HashMap::new(),
            fn_obj: HashMap::new(),
            str_obj: HashMap::new(),
            opts,
            steps: 0,
            cur_sid: StmtId::NONE,
            cur_loc: Loc::SYNTH,
            alloc_hint: None,
            infeasible: false,
            control_kills: 0,
        };
        for (i, _) in prog.funcs.iter().enumerate() {
            let f = FuncId(i as u32);
            let name = prog.func(f).name.clone();
            let o = s
                .mem
                .alloc(
                    ObjKind::Func(f),
                    &name,
                    None,
                    None,
                    false,
                    &prog.types,
                    dm,
                    &mut s.nm,
                )
                .ok_or(SymexError::TooManyObjects(lay.max_objects()))?;
            s.fn_obj.insert(f, o);
        }
        s.init_globals()?;
        Ok(s)
    }

    fn fresh_name(&mut self, hint: &str) -> String {
        self.nm.fresh(hint)
    }

    /// The refusal of `what` at `loc` ("the built-in checker does not support {what}").
    /// Code the front end or the passes made up has no location of its own: the statement
    /// being encoded then stands for it, so the user still sees which line to look at.
    fn unsupported(&self, what: impl Into<String>, loc: Loc) -> SymexError {
        let loc = if loc.is_synth() { self.cur_loc } else { loc };
        SymexError::Unsupported(Box::new(crate::diagnostics::SourceSpot::refusal(
            &self.prog.sources,
            loc,
            format!("the built-in checker does not support {}", what.into()),
        )))
    }

    fn tt(&self) -> &'p TypeTable {
        &self.prog.types
    }

    // ---- types ----------------------------------------------------------------------

    fn bits(&self, ty: &Type, loc: Loc) -> R<u32> {
        let tt = self.tt();
        match ty.resolve(tt) {
            Type::Pointer(_) => Ok(self.lay.ptr_bits),
            Type::Int(k) => Ok(k.bits(self.dm)),
            Type::Enum(_) => Ok(32),
            Type::Float(k) => super::float::bits(*k).ok_or_else(|| {
                self.unsupported("`long double` (x87's 80-bit format) arithmetic", loc)
            }),
            Type::Void => Ok(32),
            Type::Array(..) | Type::Function(_) => Ok(self.lay.ptr_bits),
            Type::Comp(_) => Err(self.unsupported("a struct or union used as a scalar value", loc)),
            _ => Ok(32),
        }
    }

    /// The width of a `float` or `double` value; `None` for every other type.
    fn float_bits(&self, ty: &Type) -> Option<u32> {
        match ty.resolve(self.tt()) {
            Type::Float(k) => {
                self.uses_floats.set(true);
                super::float::bits(*k)
            }
            _ => None,
        }
    }

    /// A float term Z3 refused (it should not): reported as a refusal at `loc`.
    fn float_err(&self, loc: Loc) -> impl Fn(super::float::FloatError) -> SymexError + '_ {
        move |e| self.unsupported(e.0, loc)
    }

    fn signed(&self, ty: &Type) -> bool {
        ty.int_kind(self.tt()).is_some_and(|k| k.is_signed())
    }

    fn size_of(&self, ty: &Type, loc: Loc) -> R<u64> {
        ty.size(self.tt(), self.dm)
            .ok_or_else(|| self.unsupported("an object of incomplete or unknown size", loc))
    }

    fn is_register(&self, v: VarId) -> bool {
        let var = self.prog.var(v);
        !self.addr_taken.contains(&v) && var.ty.is_scalar(self.tt())
    }

    // ---- globals --------------------------------------------------------------------

    fn init_globals(&mut self) -> R<()> {
        let prog = self.prog;
        // Only the globals the program uses get storage (glibc declares many).
        let used = crate::ir::print::used_items(prog);
        for (i, var) in prog.vars.iter().enumerate() {
            if var.kind != VarKind::Global {
                continue;
            }
            let v = VarId(i as u32);
            if !used.contains(&Item::Var(v)) && var.func.is_none() {
                continue;
            }
            if self.is_register(v) {
                let w = self.bits(&var.ty, var.loc).unwrap_or(32);
                let init = match &var.init {
                    Some(Init::Expr(e)) => {
                        let val = self.eval(e)?;
                        self.cast(val, &e.ty, &var.ty, e.loc)?
                    }
                    Some(Init::List(items)) => match items.first().map(|it| &it.init) {
                        Some(Init::Expr(e)) => {
                            let val = self.eval(e)?;
                            self.cast(val, &e.ty, &var.ty, e.loc)?
                        }
                        _ => BV::from_u64(0, w),
                    },
                    None => BV::from_u64(0, w),
                };
                self.globals.insert(v, init);
            } else {
                let o = self
                    .mem
                    .alloc(
                        ObjKind::Var(v),
                        &var.name,
                        Some(&var.ty),
                        None,
                        false,
                        &prog.types,
                        self.dm,
                        &mut self.nm,
                    )
                    .ok_or(SymexError::TooManyObjects(self.lay.max_objects()))?;
                self.var_obj.insert(v, o);
            }
        }
        // Initializers of objects, now that every object has an address.
        for (i, var) in prog.vars.iter().enumerate() {
            let v = VarId(i as u32);
            let (Some(init), Some(o)) = (&var.init, self.var_obj.get(&v).copied()) else {
                continue;
            };
            let base = self.lay.pointer(o, 0);
            // A refusal inside the initializer points at the declaration.
            self.cur_loc = var.loc;
            self.write_init(&base, &var.ty, init, &Bool::from_bool(true))?;
        }
        self.cur_loc = Loc::SYNTH;
        Ok(())
    }

    fn write_init(&mut self, addr: &BV, ty: &Type, init: &Init, guard: &Bool) -> R<()> {
        let tt = self.tt();
        match init {
            Init::Expr(e) => {
                if let (ExprKind::Str(bytes), Type::Array(_, n)) = (&e.kind, ty.resolve(tt)) {
                    let n = n.unwrap_or(bytes.len() as u64 + 1);
                    for i in 0..n {
                        let b = bytes.get(i as usize).copied().unwrap_or(0);
                        let p = self.mem.offset(addr, &BV::from_u64(i, self.lay.ptr_bits));
                        self.store(&p, &BV::from_u64(b as u64, 8), guard);
                    }
                    return Ok(());
                }
                if ty.is_aggregate(tt) {
                    let src = self.addr(e)?;
                    let n = self.size_of(ty, e.loc)?;
                    return self.copy_bytes(addr, &src, n, guard);
                }
                let v = self.eval(e)?;
                let v = self.cast(v, &e.ty, ty, e.loc)?;
                self.store(addr, &v, guard);
                Ok(())
            }
            Init::List(items) => {
                for it in items {
                    let mut a = addr.clone();
                    let mut t = ty.clone();
                    for d in &it.path {
                        match (d, t.resolve(tt).clone()) {
                            (Designator::Field(f), Type::Comp(c)) => {
                                let layout = tt.layout(c, self.dm);
                                let off = layout.offsets.get(*f).map(|o| o.byte).unwrap_or(0);
                                if layout.offsets.get(*f).is_some_and(|o| o.bit.is_some()) {
                                    let at = match &it.init {
                                        Init::Expr(e) => e.loc,
                                        Init::List(_) => Loc::SYNTH,
                                    };
                                    return Err(self.unsupported("bit-field initializers", at));
                                }
                                a = self.mem.offset(&a, &BV::from_u64(off, self.lay.ptr_bits));
                                t = tt
                                    .comp(c)
                                    .fields
                                    .get(*f)
                                    .map(|x| x.ty.clone())
                                    .unwrap_or(Type::int());
                            }
                            (Designator::Index(i), Type::Array(e, _)) => {
                                let es = e.size(tt, self.dm).unwrap_or(1);
                                a = self
                                    .mem
                                    .offset(&a, &BV::from_u64(i * es, self.lay.ptr_bits));
                                t = (*e).clone();
                            }
                            _ => {}
                        }
                    }
                    self.write_init(&a, &t, &it.init, guard)?;
                }
                Ok(())
            }
        }
    }

    // ---- storage --------------------------------------------------------------------

    fn store(&mut self, p: &BV, v: &BV, guard: &Bool) {
        self.mem.store(p, v, guard, &mut self.nm);
    }

    fn load(&mut self, p: &BV, bits: u32) -> BV {
        self.require_valid(p, u64::from(bits.div_ceil(8)));
        self.mem.load(p, bits, &mut self.nm)
    }

    /// Discards the executions in which an access of `bytes` at `p` is undefined as
    /// [`SymexOptions::valid`] asks: lands in no object (NULL, a function) or, with
    /// [`Validity::InBounds`], outside its object.
    fn require_valid(&mut self, p: &BV, bytes: u64) {
        if self.opts.valid == Validity::Any || self.guard.as_bool() == Some(false) {
            return;
        }
        let bounded = self.opts.valid == Validity::InBounds;
        let Some(cands) = self.mem.candidates(p, &self.nm.defs) else {
            return;
        };
        let obj = self.lay.obj_of(p);
        let off = self.lay.off_of(p).simplify();
        let mut ok: Vec<Bool> = Vec::new();
        let mut restricts = false;
        for o in cands {
            let Some(object) = self.mem.objects.get(o as usize) else {
                restricts = true;
                continue;
            };
            if matches!(object.content, Content::None) {
                restricts = true;
                continue;
            }
            let is = obj.eq(BV::from_u64(o as u64, self.lay.obj_bits));
            // An object of unknown size (a block of a symbolic length) is not bounded here.
            // The framework's own arrays (recorded inputs, waiters) are read past their
            // end on purpose: a changed run that makes more choices than the failing run
            // recorded reads an unconstrained one there.
            let framework = crate::ir::internal::is_internal_name(&object.name);
            let fits = match object.size {
                _ if !bounded || framework => Bool::from_bool(true),
                Some(size) if size >= bytes => {
                    let last = BV::from_u64(size - bytes, self.lay.off_bits);
                    off.bvule(&last).simplify()
                }
                Some(_) => Bool::from_bool(false),
                None => Bool::from_bool(true),
            };
            if fits.as_bool() != Some(true) {
                restricts = true;
            }
            ok.push(Bool::and(&[is, fits]));
        }
        if !restricts {
            return;
        }
        let valid = Bool::or(&ok).simplify();
        let g = self.guard.clone();
        self.nm.asserts.push(g.implies(&valid));
    }

    fn copy_bytes(&mut self, dst: &BV, src: &BV, n: u64, guard: &Bool) -> R<()> {
        if n > 4096 {
            return Err(self.unsupported(format!("copying a {n}-byte object"), self.cur_loc));
        }
        for i in 0..n {
            let off = BV::from_u64(i, self.lay.ptr_bits);
            let b = self.load(&self.mem.offset(src, &off), 8);
            let d = self.mem.offset(dst, &off);
            self.store(&d, &b, guard);
        }
        Ok(())
    }

    fn reg_get(&self, v: VarId) -> Option<BV> {
        if let Some(f) = self.frames.last() {
            if let Some(x) = f.locals.get(&v) {
                return Some(x.clone());
            }
        }
        self.globals.get(&v).cloned()
    }

    fn reg_set(&mut self, v: VarId, val: BV) {
        let guard = self.guard.clone();
        let old = self.reg_get(v);
        let new = match (guard.as_bool(), old) {
            (Some(true), _) | (_, None) => val,
            (Some(false), Some(o)) => o,
            (None, Some(o)) => guard.ite(&val, &o),
        };
        let new = self.nm.name_bv(&self.prog.var(v).name.clone(), new);
        let is_local = self
            .frames
            .last()
            .is_some_and(|f| f.locals.contains_key(&v));
        if is_local {
            if let Some(f) = self.frames.last_mut() {
                f.locals.insert(v, new);
            }
        } else {
            self.globals.insert(v, new);
        }
    }

    fn name_bv(&mut self, hint: &str, v: BV) -> BV {
        self.nm.name_bv(hint, v)
    }

    /// A replacement pointer for a localization site of type `ty`: NULL or the start of
    /// an object of the pointed-to type that exists now (a repair a person could write,
    /// unlike an arbitrary address).
    fn pointer_choice(&mut self, ty: &Type) -> BV {
        const MAX_CHOICES: usize = 16;
        let tt = &self.prog.types;
        let lay = self.lay;
        let null = lay.pointer(0, 0);
        let Some(pointee) = ty.pointee(tt).cloned() else {
            return null;
        };
        let fits = |t: &Type| -> bool {
            t.same_as(&pointee, tt)
                || matches!(t.resolve(tt), Type::Array(el, _) if el.same_as(&pointee, tt))
        };
        // Only the program's own objects: pointing it at the framework's `order` array or
        // a temporary is no change a person could make.
        let own = |k: &ObjKind| match k {
            ObjKind::Var(v) => {
                let var = self.prog.var(*v);
                var.loc != Loc::SYNTH && !crate::ir::internal::is_internal_name(&var.name)
            }
            _ => true,
        };
        let objs: Vec<u32> = self
            .mem
            .objects
            .iter()
            .enumerate()
            .filter(|(_, o)| o.ty.as_ref().is_some_and(fits) && own(&o.kind))
            .map(|(i, _)| i as u32)
            .collect();
        let mut v = null;
        for o in objs.into_iter().rev().take(MAX_CHOICES) {
            let pick = Bool::new_const(self.fresh_name("diag_pick"));
            v = pick.ite(&lay.pointer(o, 0), &v);
        }
        v
    }

    fn name_bool(&mut self, hint: &str, b: Bool) -> Bool {
        let b = b.simplify();
        if b.as_bool().is_some() || b.is_const() {
            return b;
        }
        let n = self.fresh_name(hint);
        let c = Bool::new_const(n);
        self.nm.asserts.push(c.eq(&b));
        c
    }

    fn var_object(&mut self, v: VarId) -> R<u32> {
        if let Some(o) = self.var_obj.get(&v) {
            return Ok(*o);
        }
        if let Some(f) = self.frames.last() {
            if let Some(o) = f.local_objs.get(&v) {
                return Ok(*o);
            }
        }
        // A local that needs memory and was not declared yet in this frame.
        let var = self.prog.var(v);
        let name = var.name.clone();
        let ty = var.ty.clone();
        let o = self
            .mem
            .alloc(
                ObjKind::Var(v),
                &name,
                Some(&ty),
                None,
                true,
                &self.prog.types,
                self.dm,
                &mut self.nm,
            )
            .ok_or(SymexError::TooManyObjects(self.lay.max_objects()))?;
        if let Some(f) = self.frames.last_mut() {
            f.local_objs.insert(v, o);
        } else {
            self.var_obj.insert(v, o);
        }
        Ok(o)
    }

    // ---- lvalues --------------------------------------------------------------------

    /// The address of an lvalue.
    fn addr(&mut self, e: &Expr) -> R<BV> {
        let tt = self.tt();
        match &e.kind {
            ExprKind::Var(v) => {
                let o = self.var_object(*v)?;
                Ok(self.lay.pointer(o, 0))
            }
            ExprKind::Deref(p) => self.eval(p),
            ExprKind::Member(b, i) => {
                let base = self.addr(b)?;
                let Type::Comp(c) = b.ty.resolve(tt) else {
                    return Err(self.unsupported("member of a non-struct", e.loc));
                };
                let layout = tt.layout(*c, self.dm);
                let Some(fo) = layout.offsets.get(*i) else {
                    return Err(SymexError::Internal("field index out of range".into()));
                };
                if fo.bit.is_some() {
                    return Err(self.unsupported("bit-fields", e.loc));
                }
                Ok(self
                    .mem
                    .offset(&base, &BV::from_u64(fo.byte, self.lay.ptr_bits)))
            }
            ExprKind::Index(b, i) => {
                let base = self.eval(b)?;
                self.ptr_add(&base, &b.ty, i, false, e.loc)
            }
            ExprKind::Str(bytes) => Ok(self.string(bytes)?),
            ExprKind::Compound(init) => {
                let name = self.fresh_name("compound");
                let o = self
                    .mem
                    .alloc(
                        ObjKind::Temp,
                        &name,
                        Some(&e.ty),
                        None,
                        false,
                        tt,
                        self.dm,
                        &mut self.nm,
                    )
                    .ok_or(SymexError::TooManyObjects(self.lay.max_objects()))?;
                let p = self.lay.pointer(o, 0);
                let g = self.guard.clone();
                self.write_init(&p, &e.ty, init, &g)?;
                Ok(p)
            }
            ExprKind::Cast { e: inner, .. } if inner.is_lvalue() => self.addr(inner),
            _ => Err(self.unsupported("taking the address of a non-lvalue", e.loc)),
        }
    }

    fn string(&mut self, bytes: &[u8]) -> R<BV> {
        if let Some(o) = self.str_obj.get(bytes) {
            return Ok(self.lay.pointer(*o, 0));
        }
        let o = self
            .mem
            .alloc(
                ObjKind::Str,
                "string",
                None,
                Some(bytes.len() as u64 + 1),
                false,
                &self.prog.types,
                self.dm,
                &mut self.nm,
            )
            .ok_or(SymexError::TooManyObjects(self.lay.max_objects()))?;
        let p = self.lay.pointer(o, 0);
        for (i, b) in bytes.iter().enumerate() {
            let a = self
                .mem
                .offset(&p, &BV::from_u64(i as u64, self.lay.ptr_bits));
            self.store(&a, &BV::from_u64(*b as u64, 8), &Bool::from_bool(true));
        }
        self.str_obj.insert(bytes.to_vec(), o);
        Ok(p)
    }

    fn ptr_add(&mut self, base: &BV, base_ty: &Type, idx: &Expr, negate: bool, loc: Loc) -> R<BV> {
        let tt = self.tt();
        let elem = base_ty
            .pointee(tt)
            .cloned()
            .unwrap_or(Type::Int(IntKind::Char));
        let esize = if elem.is_void(tt) || elem.is_function(tt) {
            1
        } else {
            self.size_of(&elem, loc)?
        };
        let i = self.eval(idx)?;
        let i = resize(i, self.lay.ptr_bits, self.signed(&idx.ty));
        let scaled = if esize == 1 {
            i
        } else {
            i.bvmul(BV::from_u64(esize, self.lay.ptr_bits))
        };
        let delta = if negate { scaled.bvneg() } else { scaled };
        Ok(self.mem.offset(base, &delta))
    }

    // ---- values ---------------------------------------------------------------------

    fn int_const(&self, v: i128, bits: u32) -> BV {
        if bits <= 64 {
            BV::from_u64(v as u64, bits)
        } else {
            let u = v as u128;
            let hi = BV::from_u64((u >> 64) as u64, bits - 64);
            let lo = BV::from_u64(u as u64, 64);
            hi.concat(&lo)
        }
    }

    fn bool_to_bv(&self, b: &Bool, bits: u32) -> BV {
        b.ite(&BV::from_u64(1, bits), &BV::from_u64(0, bits))
    }

    pub fn truth(&mut self, e: &Expr) -> R<Bool> {
        match &e.kind {
            ExprKind::Binary(op, a, b) if op.is_comparison() => self.compare(*op, a, b),
            ExprKind::Binary(BinOp::LogAnd, a, b) => {
                Ok(Bool::and(&[self.truth(a)?, self.truth(b)?]))
            }
            ExprKind::Binary(BinOp::LogOr, a, b) => Ok(Bool::or(&[self.truth(a)?, self.truth(b)?])),
            ExprKind::Unary(UnOp::LogNot, a) => Ok(self.truth(a)?.not()),
            ExprKind::Int(v) => Ok(Bool::from_bool(*v != 0)),
            _ => {
                let v = self.eval(e)?;
                if self.float_bits(&e.ty).is_some() {
                    return super::float::truth(&v).map_err(self.float_err(e.loc));
                }
                let w = v.get_size();
                Ok(v.eq(BV::from_u64(0, w)).not())
            }
        }
    }

    fn compare(&mut self, op: BinOp, a: &Expr, b: &Expr) -> R<Bool> {
        let x = self.eval(a)?;
        let y = self.eval(b)?;
        if self.float_bits(&a.ty).is_some() && x.get_size() == y.get_size() {
            return super::float::compare(op, &x, &y).map_err(self.float_err(a.loc));
        }
        let (x, y) = self.same_width(x, y, self.signed(&a.ty));
        let signed = self.signed(&a.ty) && !a.ty.is_pointer(self.tt());
        Ok(match op {
            BinOp::Eq => x.eq(&y),
            BinOp::Ne => x.eq(&y).not(),
            BinOp::Lt => {
                if signed {
                    x.bvslt(&y)
                } else {
                    x.bvult(&y)
                }
            }
            BinOp::Gt => {
                if signed {
                    x.bvsgt(&y)
                } else {
                    x.bvugt(&y)
                }
            }
            BinOp::Le => {
                if signed {
                    x.bvsle(&y)
                } else {
                    x.bvule(&y)
                }
            }
            BinOp::Ge => {
                if signed {
                    x.bvsge(&y)
                } else {
                    x.bvuge(&y)
                }
            }
            _ => return Err(SymexError::Internal("not a comparison".into())),
        })
    }

    fn same_width(&self, x: BV, y: BV, signed: bool) -> (BV, BV) {
        let (wx, wy) = (x.get_size(), y.get_size());
        if wx == wy {
            (x, y)
        } else if wx > wy {
            let y = resize(y, wx, signed);
            (x, y)
        } else {
            let x = resize(x, wy, signed);
            (x, y)
        }
    }

    pub fn eval(&mut self, e: &Expr) -> R<BV> {
        let tt = self.tt();
        match &e.kind {
            ExprKind::Int(v) => {
                let bits = self.bits(&e.ty, e.loc)?;
                if self.float_bits(&e.ty).is_some() {
                    // The passes write `x + 1` for `x++` with `1` of x's type.
                    let u = super::float::int_constant_bits(*v, bits);
                    return Ok(BV::from_u64(u, bits));
                }
                Ok(self.int_const(*v, bits))
            }
            ExprKind::Float(text) => {
                let bits = self.bits(&e.ty, e.loc)?;
                match super::float::constant_bits(text, bits) {
                    Some(u) => Ok(BV::from_u64(u, bits)),
                    None => Err(self.unsupported("hexadecimal floating constants", e.loc)),
                }
            }
            ExprKind::Str(bytes) => self.string(bytes),
            ExprKind::Var(v) => {
                if self.is_register(*v) {
                    match self.reg_get(*v) {
                        Some(x) => Ok(x),
                        None => {
                            // A local read before its declaration ran: indeterminate.
                            let w = self.bits(&e.ty, e.loc)?;
                            let n = self.fresh_name(&self.prog.var(*v).name.clone());
                            let x = BV::new_const(n, w);
                            if let Some(f) = self.frames.last_mut() {
                                f.locals.insert(*v, x.clone());
                            }
                            Ok(x)
                        }
                    }
                } else if e.ty.is_array(tt) {
                    self.addr(e)
                } else {
                    let p = self.addr(e)?;
                    let w = self.bits(&e.ty, e.loc)?;
                    Ok(self.load(&p, w))
                }
            }
            ExprKind::Func(f) => {
                let o = self.fn_obj.get(f).copied().unwrap_or(0);
                Ok(self.lay.pointer(o, 0))
            }
            ExprKind::Member(..) | ExprKind::Index(..) | ExprKind::Deref(_) => {
                if e.ty.is_array(tt) || e.ty.is_function(tt) {
                    return self.addr(e);
                }
                if matches!(e.ty.resolve(tt), Type::Comp(_)) {
                    return Err(self.unsupported("a struct value used in an expression", e.loc));
                }
                let p = self.addr(e)?;
                let w = self.bits(&e.ty, e.loc)?;
                Ok(self.load(&p, w))
            }
            ExprKind::Decay(x) => self.addr(x),
            ExprKind::AddrOf(x) => match &x.kind {
                ExprKind::Func(_) => self.eval(x),
                _ => self.addr(x),
            },
            ExprKind::Unary(op, a) => {
                let w = self.bits(&e.ty, e.loc)?;
                match op {
                    UnOp::Neg if self.float_bits(&e.ty).is_some() => {
                        let x = self.eval(a)?;
                        super::float::neg(&x).map_err(self.float_err(e.loc))
                    }
                    UnOp::Neg => Ok(self.eval(a)?.bvneg()),
                    UnOp::Sqrt | UnOp::FAbs if self.float_bits(&e.ty).is_some() => {
                        let x = self.eval(a)?;
                        let r = if *op == UnOp::Sqrt {
                            super::float::sqrt(&x)
                        } else {
                            super::float::abs(&x)
                        };
                        r.map_err(self.float_err(e.loc))
                    }
                    UnOp::Sqrt | UnOp::FAbs => Err(self.unsupported(
                        "a square root or `fabs` of something that is not a float",
                        e.loc,
                    )),
                    UnOp::BitNot => Ok(self.eval(a)?.bvnot()),
                    UnOp::LogNot => {
                        let t = self.truth(a)?;
                        Ok(self.bool_to_bv(&t.not(), w))
                    }
                }
            }
            ExprKind::Binary(op, a, b) => self.binary(e, *op, a, b),
            ExprKind::Cond(c, a, b) => {
                let c = self.truth(c)?;
                let x = self.eval(a)?;
                let before = self.inputs.len();
                let y = self.eval(b)?;
                let (x, y) = self.same_width(x, y, self.signed(&e.ty));
                let v = c.ite(&x, &y);
                // A replayed input (`occ <= n ? table[occ - 1] : nondet(occ)`) is read
                // back as the value it took, recorded or open.
                if matches!(&b.kind, ExprKind::Intrinsic(Intrinsic::Nondet, args) if !args.is_empty())
                    && self.inputs.len() == before + 1
                {
                    if let Some(r) = self.inputs.last_mut() {
                        r.value = v.clone();
                    }
                }
                Ok(v)
            }
            ExprKind::Comma(a, b) => {
                self.eval(a)?;
                self.eval(b)
            }
            ExprKind::Cast { e: inner, .. } => {
                if e.ty.is_void(tt) {
                    self.eval(inner)?;
                    return Ok(BV::from_u64(0, 32));
                }
                let v = self.eval(inner)?;
                self.cast(v, &inner.ty, &e.ty, e.loc)
            }
            ExprKind::SizeofType(t) => {
                let n = self.size_of(t, e.loc)?;
                let w = self.bits(&e.ty, e.loc)?;
                Ok(BV::from_u64(n, w))
            }
            ExprKind::AlignofType(t) => {
                let w = self.bits(&e.ty, e.loc)?;
                Ok(BV::from_u64(t.align(tt, self.dm), w))
            }
            ExprKind::Assign(l, r) => {
                self.assign(l, r)?;
                self.eval(l)
            }
            ExprKind::Intrinsic(Intrinsic::Diag, args) => {
                let (Some(c), Some(orig)) = (args.first(), args.get(1)) else {
                    return Err(self.unsupported("a malformed localization site", e.loc));
                };
                let site = args.get(2).and_then(Expr::as_int).unwrap_or(0) as u32;
                let selected = self.truth(c)?;
                let original = self.eval(orig)?;
                let w = self.bits(&e.ty, e.loc)?;
                let v = if e.ty.is_pointer(tt) {
                    self.pointer_choice(&e.ty)
                } else {
                    let n = self.fresh_name("diag_value");
                    BV::new_const(n, w)
                };
                let v = if matches!(e.ty.resolve(tt), Type::Int(IntKind::Bool)) {
                    let b = v.extract(0, 0).zero_ext(w - 1);
                    self.name_bv("diag_bool", b)
                } else {
                    v
                };
                self.diags.push(DiagRec {
                    site,
                    guard: self.guard.clone(),
                    selected: selected.clone(),
                    chosen: v.clone(),
                    original: original.clone(),
                    ty: e.ty.clone(),
                });
                Ok(selected.ite(&v, &original))
            }
            ExprKind::Intrinsic(Intrinsic::Nondet, args) => {
                let occurrence = match args.first() {
                    Some(o) => Some(self.eval(o)?),
                    None => None,
                };
                let w = self.bits(&e.ty, e.loc)?;
                let n = self.fresh_name("input");
                let v = BV::new_const(n, w);
                let v = if matches!(e.ty.resolve(tt), Type::Int(IntKind::Bool)) {
                    // A nondet _Bool is 0 or 1.
                    let b = v.extract(0, 0).zero_ext(w - 1);
                    self.name_bv("input_bool", b)
                } else {
                    v
                };
                self.inputs.push(InputRec {
                    guard: self.guard.clone(),
                    point: self.point,
                    sid: self.cur_sid,
                    loc: e.loc,
                    value: v.clone(),
                    ty: e.ty.clone(),
                    occurrence,
                });
                Ok(v)
            }
            ExprKind::Call(..) => self.call_value(e),
            ExprKind::OpAssign { .. } | ExprKind::IncDec { .. } => {
                Err(self.unsupported("an assignment inside an expression", e.loc))
            }
            ExprKind::StmtExpr(_) => Err(self.unsupported("a statement expression", e.loc)),
            ExprKind::Compound(_) => self.addr(e),
            ExprKind::Intrinsic(..) => Ok(BV::from_u64(0, 32)),
        }
    }

    fn binary(&mut self, e: &Expr, op: BinOp, a: &Expr, b: &Expr) -> R<BV> {
        let tt = self.tt();
        let w = self.bits(&e.ty, e.loc)?;
        if op.is_comparison() || op.is_logical() {
            let t = self.truth(e)?;
            return Ok(self.bool_to_bv(&t, w));
        }
        let ap = a.ty.is_pointer(tt);
        let bp = b.ty.is_pointer(tt);
        if ap && bp && op == BinOp::Sub {
            let x = self.eval(a)?;
            let y = self.eval(b)?;
            let elem =
                a.ty.pointee(tt)
                    .cloned()
                    .unwrap_or(Type::Int(IntKind::Char));
            let es = elem.size(tt, self.dm).unwrap_or(1).max(1);
            let d = x.bvsub(&y);
            let d = if es > 1 {
                d.bvsdiv(BV::from_u64(es, self.lay.ptr_bits))
            } else {
                d
            };
            return Ok(resize(d, w, true));
        }
        if ap && matches!(op, BinOp::Add | BinOp::Sub) {
            let base = self.eval(a)?;
            return self.ptr_add(&base, &a.ty, b, op == BinOp::Sub, e.loc);
        }
        if bp && op == BinOp::Add {
            let base = self.eval(b)?;
            return self.ptr_add(&base, &b.ty, a, false, e.loc);
        }
        let x = self.eval(a)?;
        let y = self.eval(b)?;
        if self.float_bits(&e.ty).is_some() {
            if x.get_size() != w || y.get_size() != w {
                return Err(SymexError::Internal(format!(
                    "floating-point `{}` on operands of another type",
                    op.c_op()
                )));
            }
            return super::float::arith(op, &x, &y).map_err(self.float_err(e.loc));
        }
        let signed = self.signed(&e.ty);
        let x = resize(x, w, self.signed(&a.ty));
        let y = if matches!(op, BinOp::Shl | BinOp::Shr) {
            resize(y, w, false)
        } else {
            resize(y, w, self.signed(&b.ty))
        };
        Ok(match op {
            BinOp::Add => x.bvadd(&y),
            BinOp::Sub => x.bvsub(&y),
            BinOp::Mul => x.bvmul(&y),
            BinOp::Div => {
                if signed {
                    x.bvsdiv(&y)
                } else {
                    x.bvudiv(&y)
                }
            }
            BinOp::Rem => {
                if signed {
                    x.bvsrem(&y)
                } else {
                    x.bvurem(&y)
                }
            }
            BinOp::Shl => x.bvshl(&y),
            BinOp::Shr => {
                if signed {
                    x.bvashr(&y)
                } else {
                    x.bvlshr(&y)
                }
            }
            BinOp::BitAnd => x.bvand(&y),
            BinOp::BitOr => x.bvor(&y),
            BinOp::BitXor => x.bvxor(&y),
            _ => return Err(SymexError::Internal(format!("operator {op:?}"))),
        })
    }

    fn cast(&mut self, v: BV, from: &Type, to: &Type, loc: Loc) -> R<BV> {
        let tt = self.tt();
        if to.is_void(tt) {
            return Ok(v);
        }
        let from_float = self.float_bits(from);
        if matches!(to.resolve(tt), Type::Int(IntKind::Bool)) {
            let z = match from_float {
                Some(_) => super::float::truth(&v).map_err(self.float_err(loc))?,
                None => v.eq(BV::from_u64(0, v.get_size())).not(),
            };
            return Ok(self.bool_to_bv(&z, 8));
        }
        let w = self.bits(to, loc)?;
        let from_signed = self.signed(from) && !from.is_pointer(tt);
        let to_float = self.float_bits(to).is_some();
        let r = match (from_float, to_float) {
            (Some(_), true) => super::float::resize(&v, w),
            (Some(_), false) => super::float::to_int(&v, self.signed(to), w),
            (None, true) => super::float::from_int(&v, from_signed, w),
            (None, false) => return Ok(resize(v, w, from_signed)),
        };
        r.map_err(self.float_err(loc))
    }

    // ---- statements -----------------------------------------------------------------

    fn check_time(&mut self) -> R<()> {
        self.steps += 1;
        if self.steps % 512 == 0 {
            // A stop asked for by the watchdog (memory, a signal) ends the encoding as the
            // time limit does; the caller reads which from `stop::requested`.
            if super::stop::requested().is_some() {
                return Err(SymexError::Timeout);
            }
            if let Some(d) = self.opts.deadline {
                if Instant::now() > d {
                    return Err(SymexError::Timeout);
                }
            }
        }
        Ok(())
    }

    fn dead(&self) -> bool {
        self.guard.as_bool() == Some(false)
    }

    pub fn run_main(&mut self) -> R<()> {
        let Some(m) = self.prog.main() else {
            return Err(SymexError::Internal("no main".into()));
        };
        self.call(m, &[], None)
    }

    fn exec(&mut self, s: &Stmt) -> R<()> {
        self.check_time()?;
        // Labels must run even on a dead path: jumps may revive it.
        match &s.kind {
            StmtKind::Label(l) => {
                let pend = self.frames.last_mut().and_then(|f| {
                    f.seen_labels.insert(l.clone());
                    f.pending.remove(l)
                });
                if let Some(p) = pend {
                    let g = Bool::or(&[self.guard.clone(), p]);
                    self.guard = self.name_bool("guard", g);
                }
                return Ok(());
            }
            StmtKind::Block(ss) => {
                for x in ss {
                    self.exec(x)?;
                }
                return Ok(());
            }
            StmtKind::Case { .. } | StmtKind::Default => {
                let g = self.frames.last_mut().and_then(|f| {
                    let (guards, next, _) = f.switches.last_mut()?;
                    let g = guards.get(*next).cloned();
                    *next += 1;
                    g
                });
                if let Some(g) = g {
                    let g = Bool::or(&[self.guard.clone(), g]);
                    self.guard = self.name_bool("guard", g);
                }
                return Ok(());
            }
            _ => {}
        }
        if self.dead() && !contains_label(s) {
            return Ok(());
        }
        self.cur_sid = s.id;
        self.cur_loc = s.loc;
        if !s.id.is_none()
            && matches!(
                s.kind,
                StmtKind::Decl { .. } | StmtKind::Expr(_) | StmtKind::Return(_)
            )
        {
            let is_marker = matches!(&s.kind, StmtKind::Expr(e) if matches!(e.kind, ExprKind::Intrinsic(Intrinsic::Point, _)));
            if !is_marker {
                self.events.push(Event {
                    guard: self.guard.clone(),
                    point: self.point,
                    sid: s.id,
                    loc: s.loc,
                    kind: EventKind::Exec,
                });
            }
        }
        match &s.kind {
            StmtKind::Decl { var, init } => self.decl(*var, init.as_ref(), s),
            StmtKind::Expr(e) => self.expr_stmt(e, s),
            StmtKind::If { cond, then, els } => {
                let c = self.truth(cond)?;
                let c = self.name_bool("cond", c);
                let g0 = self.guard.clone();
                // A decided condition leaves the other branch dead (no code for it).
                let both = |g: &Bool, c: &Bool| match c.as_bool() {
                    Some(true) => g.clone(),
                    Some(false) => Bool::from_bool(false),
                    None => Bool::and(&[g.clone(), c.clone()]),
                };
                self.guard = both(&g0, &c);
                let outer_infeasible = std::mem::replace(&mut self.infeasible, false);
                self.exec(then)?;
                let gt = self.guard.clone();
                let then_infeasible = std::mem::replace(&mut self.infeasible, false);
                let not_c = match c.as_bool() {
                    Some(b) => Bool::from_bool(!b),
                    None => c.not(),
                };
                self.guard = both(&g0, &not_c);
                if let Some(e) = els {
                    self.exec(e)?;
                }
                let ge = self.guard.clone();
                let else_infeasible = std::mem::replace(&mut self.infeasible, outer_infeasible);
                // A branch that only ends in an impossible assumption adds nothing to the
                // other's condition: its paths are excluded by the constraint already.
                let gt_pure = Bool::and(&[g0.clone(), c.clone()]);
                let ge_pure = Bool::and(&[g0.clone(), c.not()]);
                let then_adds_nothing =
                    then_infeasible && gt.as_bool() == Some(false) && ge == ge_pure;
                let else_adds_nothing =
                    else_infeasible && ge.as_bool() == Some(false) && gt == gt_pure;
                if then_adds_nothing || else_adds_nothing {
                    self.guard = g0;
                } else {
                    self.guard = self.join(&g0, &c, gt, ge);
                }
                Ok(())
            }
            StmtKind::While { cond, body } => self.while_loop(Some(cond), body, None, s),
            StmtKind::DoWhile { body, cond } => self.while_loop(Some(cond), body, Some(()), s),
            StmtKind::For {
                init,
                cond,
                step,
                body,
            } => {
                for i in init {
                    self.exec(i)?;
                }
                self.for_loop(cond.as_ref(), step.as_ref(), body, s)
            }
            StmtKind::Switch { cond, body } => self.switch(cond, body),
            StmtKind::Goto(l) => {
                // A jump no path reaches (after `abort()`, say) goes nowhere.
                if self.dead() {
                    return Ok(());
                }
                let seen = self
                    .frames
                    .last()
                    .is_some_and(|f| f.seen_labels.contains(l));
                if seen {
                    return Err(
                        self.unsupported("a backward `goto` (a loop written with goto)", s.loc)
                    );
                }
                self.jump(l.clone());
                Ok(())
            }
            StmtKind::Break => {
                let target = self.frames.last().and_then(|f| {
                    // The innermost of the enclosing loop and switch: switches push their
                    // break label on the loop stack too.
                    f.loops.last().map(|(b, _)| b.clone())
                });
                match target {
                    Some(t) => {
                        self.jump(t);
                        Ok(())
                    }
                    None => Ok(()),
                }
            }
            StmtKind::Continue => {
                let target = self.frames.last().and_then(|f| {
                    f.loops
                        .iter()
                        .rev()
                        .find(|(_, c)| !c.is_empty())
                        .map(|(_, c)| c.clone())
                });
                if let Some(t) = target {
                    self.jump(t);
                }
                Ok(())
            }
            StmtKind::Return(e) => {
                if let Some(e) = e {
                    let ret = self.frames.last().and_then(|f| f.ret.clone());
                    if let Some((rv, rty)) = ret {
                        if !rty.is_void(self.tt()) && !e.ty.is_void(self.tt()) {
                            let v = self.eval(e)?;
                            let v = self.cast(v, &e.ty, &rty, e.loc)?;
                            self.reg_set(rv, v);
                        } else {
                            self.eval(e)?;
                        }
                    } else {
                        self.eval(e)?;
                    }
                }
                let l = self
                    .frames
                    .last()
                    .map(|f| f.ret_label.clone())
                    .unwrap_or_default();
                self.jump(l);
                Ok(())
            }
            StmtKind::Skip
            | StmtKind::Label(_)
            | StmtKind::Block(_)
            | StmtKind::Case { .. }
            | StmtKind::Default => Ok(()),
        }
    }

    /// The guard after an if: the entry guard when neither branch changed its guard.
    fn join(&mut self, g0: &Bool, c: &Bool, gt: Bool, ge: Bool) -> Bool {
        if let Some(b) = c.as_bool() {
            // Only one branch ran.
            return if b { gt } else { ge };
        }
        let then_same = gt == Bool::and(&[g0.clone(), c.clone()]);
        let else_same = ge == Bool::and(&[g0.clone(), c.not()]);
        if then_same && else_same {
            return g0.clone();
        }
        let g = Bool::or(&[gt, ge]);
        self.name_bool("guard", g)
    }

    fn jump(&mut self, label: String) {
        let g = self.guard.clone();
        if g.as_bool() != Some(false) {
            if let Some(f) = self.frames.last_mut() {
                let p = match f.pending.remove(&label) {
                    Some(p) => Bool::or(&[p, g]),
                    None => g,
                };
                f.pending.insert(label, p);
            }
        }
        self.guard = Bool::from_bool(false);
    }

    fn take_pending(&mut self, label: &str) -> Option<Bool> {
        self.frames.last_mut().and_then(|f| f.pending.remove(label))
    }

    fn while_loop(
        &mut self,
        cond: Option<&Expr>,
        body: &Stmt,
        do_while: Option<()>,
        s: &Stmt,
    ) -> R<()> {
        let brk = format!("\u{0}brk{}", self.fresh_name("l"));
        let cont = format!("\u{0}cont{}", self.fresh_name("l"));
        // Paths that left through the condition.
        let mut exits: Vec<Bool> = Vec::new();
        let mut first = true;
        let mut bound_reached = true;
        for _ in 0..=self.opts.loop_bound {
            if !(first && do_while.is_some()) {
                if let Some(c) = cond {
                    let c = self.truth(c)?.simplify();
                    if c.as_bool() == Some(false) {
                        exits.push(self.guard.clone());
                        self.guard = Bool::from_bool(false);
                        bound_reached = false;
                        break;
                    }
                    if c.as_bool() != Some(true) {
                        exits.push(Bool::and(&[self.guard.clone(), c.not()]));
                    }
                    let g = Bool::and(&[self.guard.clone(), c]);
                    self.guard = self.name_bool("guard", g);
                }
            }
            first = false;
            if self.dead() {
                bound_reached = false;
                break;
            }
            if let Some(f) = self.frames.last_mut() {
                f.loops.push((brk.clone(), cont.clone()));
            }
            self.exec(body)?;
            if let Some(f) = self.frames.last_mut() {
                f.loops.pop();
            }
            if let Some(p) = self.take_pending(&cont) {
                let g = Bool::or(&[self.guard.clone(), p]);
                self.guard = self.name_bool("guard", g);
            }
        }
        if bound_reached && !self.dead() {
            // Still looping after the bound: an unwinding bound reached; such executions
            // are cut off here.
            let still = match cond {
                Some(c) => {
                    let c = self.truth(c)?;
                    Bool::and(&[self.guard.clone(), c])
                }
                None => self.guard.clone(),
            };
            let u = self.name_bool("unwind", still.clone());
            let reached = u.as_bool() != Some(false);
            if reached {
                self.unwinds.push((s.loc, u, Cut::Loop));
            }
            if cond.is_some() {
                let c = self.truth(cond.unwrap_or(&Expr::int(1, Type::int(), s.loc)))?;
                exits.push(Bool::and(&[self.guard.clone(), c.not()]));
            }
            if reached {
                self.control_kills += 1;
            }
            self.guard = Bool::from_bool(false);
        }
        let mut out = vec![self.guard.clone()];
        out.extend(exits);
        if let Some(p) = self.take_pending(&brk) {
            out.push(p);
        }
        let g = Bool::or(&out);
        self.guard = self.name_bool("guard", g.simplify());
        Ok(())
    }

    fn for_loop(
        &mut self,
        cond: Option<&Expr>,
        step: Option<&Expr>,
        body: &Stmt,
        s: &Stmt,
    ) -> R<()> {
        let mut stmts = vec![body.clone()];
        let cont_label = format!("\u{0}forcont{}", self.fresh_name("l"));
        // `continue` in a for loop runs the step: give it a label before the step.
        let mut b = body.clone();
        redirect_continue(&mut b, &cont_label);
        stmts[0] = b;
        stmts.push(Stmt::new(StmtKind::Label(cont_label), s.loc));
        if let Some(st) = step {
            stmts.push(Stmt::new(StmtKind::Expr(st.clone()), s.loc));
        }
        let body = Stmt::block(stmts, s.loc);
        let c = cond
            .cloned()
            .unwrap_or_else(|| Expr::int(1, Type::int(), s.loc));
        self.while_loop(Some(&c), &body, None, s)
    }

    fn switch(&mut self, cond: &Expr, body: &Stmt) -> R<()> {
        let v = self.eval(cond)?;
        let w = v.get_size();
        let mut cases = Vec::new();
        collect_cases(body, &mut cases);
        let mut guards = Vec::new();
        let mut matched: Vec<Bool> = Vec::new();
        let mut default_idx = None;
        for (i, c) in cases.iter().enumerate() {
            match c {
                Some((lo, hi)) => {
                    let m = if lo == hi {
                        v.eq(self.int_const(*lo, w))
                    } else {
                        Bool::and(&[
                            v.bvsge(self.int_const(*lo, w)),
                            v.bvsle(self.int_const(*hi, w)),
                        ])
                    };
                    matched.push(m.clone());
                    guards.push(Bool::and(&[self.guard.clone(), m]));
                }
                None => {
                    default_idx = Some(i);
                    guards.push(Bool::from_bool(false));
                }
            }
        }
        let none = Bool::or(&matched).not();
        if let Some(d) = default_idx {
            guards[d] = Bool::and(&[self.guard.clone(), none.clone()]);
        }
        let guards: Vec<Bool> = guards.into_iter().map(|g| g.simplify()).collect();
        let brk = format!("\u{0}swbrk{}", self.fresh_name("l"));
        let fallthrough_to_end = if default_idx.is_none() {
            Bool::and(&[self.guard.clone(), none])
        } else {
            Bool::from_bool(false)
        };
        if let Some(f) = self.frames.last_mut() {
            f.switches.push((guards, 0, brk.clone()));
            // `break` inside the switch leaves the switch; `continue` still means the loop.
            f.loops.push((brk.clone(), String::new()));
        }
        self.guard = Bool::from_bool(false);
        self.exec(body)?;
        if let Some(f) = self.frames.last_mut() {
            f.switches.pop();
            f.loops.pop();
        }
        let mut g = Bool::or(&[self.guard.clone(), fallthrough_to_end]);
        if let Some(p) = self.take_pending(&brk) {
            g = Bool::or(&[g, p]);
        }
        self.guard = self.name_bool("guard", g);
        Ok(())
    }

    fn decl(&mut self, var: VarId, init: Option<&Init>, s: &Stmt) -> R<()> {
        let ty = self.prog.var(var).ty.clone();
        if self.is_register(var) {
            let w = self.bits(&ty, s.loc)?;
            let v = match init {
                Some(Init::Expr(e)) => {
                    self.alloc_hint = ty.pointee(self.tt()).cloned();
                    let x = self.eval(e);
                    self.alloc_hint = None;
                    let x = x?;
                    self.cast(x, &e.ty, &ty, e.loc)?
                }
                Some(Init::List(items)) => match items.first().map(|i| &i.init) {
                    Some(Init::Expr(e)) => {
                        let x = self.eval(e)?;
                        self.cast(x, &e.ty, &ty, e.loc)?
                    }
                    _ => BV::from_u64(0, w),
                },
                None => {
                    let n = self.fresh_name(&self.prog.var(var).name.clone());
                    BV::new_const(n, w)
                }
            };
            let is_global = self.prog.var(var).kind == VarKind::Global;
            if !is_global {
                if let Some(f) = self.frames.last_mut() {
                    f.locals.entry(var).or_insert_with(|| BV::from_u64(0, w));
                }
            }
            self.reg_set(var, v.clone());
            self.record_assign(s, &Expr::var(var, self.prog, s.loc), v, &ty);
            return Ok(());
        }
        // An object: fresh storage for each execution of a local declaration.
        let is_global = self.prog.var(var).kind == VarKind::Global;
        if !is_global {
            let name = self.prog.var(var).name.clone();
            let o = self
                .mem
                .alloc(
                    ObjKind::Var(var),
                    &name,
                    Some(&ty),
                    None,
                    init.is_none(),
                    &self.prog.types,
                    self.dm,
                    &mut self.nm,
                )
                .ok_or(SymexError::TooManyObjects(self.lay.max_objects()))?;
            if let Some(f) = self.frames.last_mut() {
                f.local_objs.insert(var, o);
            }
        }
        if let Some(init) = init {
            let o = self.var_object(var)?;
            let p = self.lay.pointer(o, 0);
            let g = self.guard.clone();
            if matches!(init, Init::List(_)) {
                // Unlisted members are zero.
                let n = self.size_of(&ty, s.loc)?;
                for i in 0..n {
                    let a = self.mem.offset(&p, &BV::from_u64(i, self.lay.ptr_bits));
                    self.store(&a, &BV::from_u64(0, 8), &g);
                }
            }
            self.write_init(&p, &ty, init, &g)?;
        }
        Ok(())
    }

    fn expr_stmt(&mut self, e: &Expr, s: &Stmt) -> R<()> {
        match &e.kind {
            ExprKind::Assign(l, r) => {
                let v = self.assign(l, r)?;
                if let Some(v) = v {
                    self.record_assign(s, l, v, &l.ty);
                }
                Ok(())
            }
            ExprKind::Call(..) => {
                self.call_value(e)?;
                Ok(())
            }
            ExprKind::Intrinsic(i, args) => self.intrinsic(*i, args, s),
            _ => {
                self.eval(e)?;
                Ok(())
            }
        }
    }

    /// Performs `l = r`; returns the stored value (for scalars).
    fn assign(&mut self, l: &Expr, r: &Expr) -> R<Option<BV>> {
        let tt = self.tt();
        if l.ty.is_aggregate(tt) {
            let n = self.size_of(&l.ty, l.loc)?;
            let dst = self.addr(l)?;
            let src = self.addr(r)?;
            let g = self.guard.clone();
            self.copy_bytes(&dst, &src, n, &g)?;
            return Ok(None);
        }
        self.alloc_hint = l.ty.pointee(tt).cloned();
        let v = self.eval(r);
        self.alloc_hint = None;
        let v = v?;
        let v = self.cast(v, &r.ty, &l.ty, l.loc)?;
        match &l.kind {
            ExprKind::Var(x) if self.is_register(*x) => {
                self.reg_set(*x, v);
                Ok(self.reg_get(*x))
            }
            _ => {
                let p = self.addr(l)?;
                self.require_valid(&p, u64::from(v.get_size().div_ceil(8)));
                let g = self.guard.clone();
                let v = self.name_bv("value", v);
                self.store(&p, &v, &g);
                Ok(Some(v))
            }
        }
    }

    fn record_assign(&mut self, s: &Stmt, lhs: &Expr, value: BV, ty: &Type) {
        if s.loc.is_synth() && s.id.is_none() {
            return;
        }
        self.events.push(Event {
            guard: self.guard.clone(),
            point: self.point,
            sid: s.id,
            loc: s.loc,
            kind: EventKind::Assign {
                lhs: crate::ir::print::expr_to_string(self.prog, lhs),
                shown: Some(crate::ir::print::expr_in_source_terms(self.prog, lhs))
                    .filter(|t| !crate::ir::internal::mentions_internal_name(t)),
                value,
                ty: ty.clone(),
            },
        });
    }

    fn intrinsic(&mut self, i: Intrinsic, args: &[Expr], s: &Stmt) -> R<()> {
        let loc = s.loc;
        match i {
            Intrinsic::Assume | Intrinsic::Await => {
                let c = match args.first() {
                    Some(a) => self.truth(a)?,
                    None => Bool::from_bool(true),
                };
                // An assumption constrains the paths that reach it (`guard → c`); the
                // guard itself stays the control-flow condition, so state updated later
                // under it (the framework's program counters) stays as simple as the
                // control flow.
                match c.simplify().as_bool() {
                    Some(true) => {}
                    Some(false) => {
                        let g = self.guard.clone();
                        if g.as_bool() != Some(false) {
                            self.nm.asserts.push(g.not());
                            self.guard = Bool::from_bool(false);
                            self.infeasible = true;
                        }
                    }
                    None => {
                        let g = self.guard.clone();
                        if g.as_bool() != Some(false) {
                            self.nm.asserts.push(g.implies(&c));
                        }
                    }
                }
            }
            Intrinsic::Assert => {
                let c = match args.first() {
                    Some(a) => self.truth(a)?,
                    None => Bool::from_bool(true),
                };
                let v = Bool::and(&[self.guard.clone(), c.not()]);
                self.prop(PropKind::Assertion, v, s);
            }
            Intrinsic::Error => {
                let v = self.guard.clone();
                self.prop(PropKind::Error, v, s);
                if args.first().and_then(Expr::as_int) == Some(crate::seq::build::ERROR_RECORD_ONLY)
                {
                    // The sequentializer stops the run itself (symbolic mode).
                    return Ok(());
                }
                // Execution goes on after a failed assertion only in the checker's
                // imagination; the error ends this path.
                if !self.dead() {
                    self.control_kills += 1;
                }
                self.guard = Bool::from_bool(false);
            }
            Intrinsic::MustHold => {
                let c = match args.first() {
                    Some(a) => self.truth(a)?,
                    None => Bool::from_bool(true),
                };
                let v = Bool::and(&[self.guard.clone(), c.not()]);
                self.prop(PropKind::Unlock, v, s);
            }
            Intrinsic::Deadlock => {
                let c = match args.first() {
                    Some(a) => self.truth(a)?,
                    None => Bool::from_bool(false),
                };
                let v = Bool::and(&[self.guard.clone(), c]);
                self.prop(PropKind::Deadlock, v, s);
            }
            Intrinsic::Abort => {
                if !self.dead() {
                    self.control_kills += 1;
                }
                self.guard = Bool::from_bool(false)
            }
            Intrinsic::Unwind => {
                let u = self.name_bool("unwind", self.guard.clone());
                if u.as_bool() != Some(false) {
                    let cut = match args.first().and_then(Expr::as_int) {
                        None => Cut::Loop,
                        Some(crate::ir::build::RECURSION_CUT) => Cut::Recursion,
                        Some(_) => Cut::Other,
                    };
                    self.unwinds.push((loc, u, cut));
                    self.control_kills += 1;
                }
                self.guard = Bool::from_bool(false);
            }
            Intrinsic::Mismatch => {
                let step = match args.first() {
                    Some(a) => Some(self.eval(a)?),
                    None => None,
                };
                // Recorded, not followed by a cut: every question about a replay excludes
                // the mismatches itself, and the framework's state after the check stays
                // as concrete as the schedule (a cut would make it depend on the check).
                let m = self.name_bool("mismatch", self.guard.clone());
                if m.as_bool() != Some(false) {
                    self.mismatches.push((step, m));
                }
            }
            Intrinsic::Point => {
                let k = args.first().and_then(|a| a.as_int()).unwrap_or(0) as u32;
                let p = args.get(1).and_then(|a| a.as_int()).unwrap_or(0) as u32;
                self.point = Some((k, p));
                self.events.push(Event {
                    guard: self.guard.clone(),
                    point: self.point,
                    sid: s.id,
                    loc,
                    kind: EventKind::Point,
                });
            }
            Intrinsic::Resume => {
                let k = args.first().and_then(|a| a.as_int()).unwrap_or(0) as u32;
                let p = args.get(1).and_then(|a| a.as_int()).unwrap_or(0) as u32;
                self.events.push(Event {
                    guard: self.guard.clone(),
                    point: Some((k, p)),
                    sid: s.id,
                    loc,
                    kind: EventKind::Resume { k, p },
                });
            }
            Intrinsic::AtomicBegin | Intrinsic::AtomicEnd | Intrinsic::Diag => {}
            Intrinsic::Nondet => {
                self.eval(&Expr::new(
                    ExprKind::Intrinsic(Intrinsic::Nondet, vec![]),
                    Type::int(),
                    loc,
                ))?;
            }
        }
        Ok(())
    }

    fn prop(&mut self, kind: PropKind, violated: Bool, s: &Stmt) {
        let lit = self.name_bool("violation", violated);
        if lit.as_bool() == Some(false) {
            return;
        }
        self.props.push(Prop {
            kind,
            loc: s.loc,
            sid: s.id,
            point: self.point,
            lit,
        });
    }

    // ---- calls ----------------------------------------------------------------------

    fn call_value(&mut self, e: &Expr) -> R<BV> {
        let ExprKind::Call(callee, args) = &e.kind else {
            return Err(SymexError::Internal("not a call".into()));
        };
        let f = match callee.peel().kind {
            ExprKind::Func(f) => f,
            _ => {
                return Err(
                    self.unsupported("an indirect call the sequentializer did not resolve", e.loc)
                );
            }
        };
        let func = self.prog.func(f);
        if func.body.is_some() {
            let ret = if func.ty.ret.is_void(self.tt()) {
                None
            } else {
                let v = self.prog.vars.len() as u32;
                Some((VarId(u32::MAX - v), func.ty.ret.clone()))
            };
            let mut vals = Vec::new();
            for a in args {
                vals.push((self.eval(a)?, a.ty.clone()));
            }
            self.call(f, &vals, ret.clone())?;
            return Ok(match ret {
                Some((rv, rty)) => {
                    let w = self.bits(&rty, e.loc)?;

                    self.globals
                        .remove(&rv)
                        .unwrap_or_else(|| BV::from_u64(0, w))
                }
                None => BV::from_u64(0, 32),
            });
        }
        let w = if e.ty.is_void(self.tt()) {
            32
        } else {
            self.bits(&e.ty, e.loc)?
        };
        match classify(&func.name) {
            Known::Malloc | Known::Calloc => {
                let size = match (classify(&func.name), args.as_slice()) {
                    (Known::Calloc, [n, sz]) => {
                        let a = self.eval(n)?;
                        let b = self.eval(sz)?;
                        let (a, b) = self.same_width(a, b, false);
                        a.bvmul(&b)
                    }
                    (_, [n, ..]) => self.eval(n)?,
                    _ => BV::from_u64(0, 32),
                };
                let size_c = size.simplify().as_u64();
                let name = self.fresh_name("heap");
                let nondet = classify(&func.name) == Known::Malloc;
                // Typed when the size is a whole number of the target type's objects.
                let ty = match (self.alloc_hint.take(), size_c) {
                    (Some(t), Some(n)) if !t.is_void(self.tt()) => match t.size(self.tt(), self.dm)
                    {
                        Some(es) if es > 0 && n % es == 0 && n / es == 1 => Some(t),
                        Some(es) if es > 0 && n % es == 0 => {
                            Some(Type::Array(Box::new(t), Some(n / es)))
                        }
                        _ => None,
                    },
                    _ => None,
                };
                let o = self
                    .mem
                    .alloc(
                        ObjKind::Heap(e.loc),
                        &name,
                        ty.as_ref(),
                        size_c,
                        nondet,
                        &self.prog.types,
                        self.dm,
                        &mut self.nm,
                    )
                    .ok_or(SymexError::TooManyObjects(self.lay.max_objects()))?;
                Ok(resize(self.lay.pointer(o, 0), w, false))
            }
            Known::Free => {
                for a in args {
                    self.eval(a)?;
                }
                Ok(BV::from_u64(0, w))
            }
            _ if crate::ir::known::has_no_effect(&func.name) => {
                for a in args {
                    self.eval(a)?;
                }
                let n = self.fresh_name(&func.name);
                Ok(BV::new_const(n, w))
            }
            _ => Err(self.unsupported(
                format!(
                    "{} ({})",
                    crate::ir::known::refused_call(&func.name),
                    crate::ir::known::refusal_reason(&func.name)
                ),
                e.loc,
            )),
        }
    }

    fn call(&mut self, f: FuncId, args: &[(BV, Type)], ret: Option<(VarId, Type)>) -> R<()> {
        if self.frames.len() as u32 > self.opts.max_call_depth {
            return Err(self.unsupported(
                format!("recursion deeper than {} calls", self.opts.max_call_depth),
                self.prog.func(f).loc,
            ));
        }
        let func = self.prog.func(f);
        let Some(body) = &func.body else {
            return Err(SymexError::Internal(
                "call to a function without a body".into(),
            ));
        };
        let ret_label = format!("\u{0}ret{}", self.fresh_name("l"));
        let mut frame = Frame {
            func: f,
            locals: HashMap::new(),
            local_objs: HashMap::new(),
            pending: HashMap::new(),
            seen_labels: HashSet::new(),
            loops: vec![],
            switches: vec![],
            ret: ret.clone(),
            ret_label: ret_label.clone(),
        };
        if let Some((rv, rty)) = &ret {
            let w = self.bits(rty, func.loc)?;
            frame.locals.insert(*rv, BV::from_u64(0, w));
        }
        self.frames.push(frame);
        for (i, p) in func.params.iter().enumerate() {
            let pty = self.prog.var(*p).ty.clone();
            let Some((v, vty)) = args.get(i).cloned() else {
                continue;
            };
            let v = self.cast(v, &vty, &pty, func.loc)?;
            if self.is_register(*p) {
                if let Some(fr) = self.frames.last_mut() {
                    fr.locals.insert(*p, v);
                }
            } else {
                let o = self.var_object(*p)?;
                let g = self.guard.clone();
                let ptr = self.lay.pointer(o, 0);
                self.store(&ptr, &v, &g);
            }
        }
        let entry_guard = self.guard.clone();
        let kills_before = self.control_kills;
        let infeasible_before = self.infeasible;
        self.exec(body)?;
        if let Some(p) = self.take_pending(&ret_label) {
            let g = Bool::or(&[self.guard.clone(), p]);
            self.guard = self.name_bool("guard", g);
        }
        if self.control_kills == kills_before {
            // Every path that entered returned (paths cut by impossible assumptions are
            // excluded by their constraints): the caller goes on under its own guard, not
            // under the merge of the callee's branches.
            self.guard = entry_guard;
            self.infeasible = infeasible_before;
        }
        let frame = self.frames.pop();
        if let (Some(fr), Some((rv, _))) = (frame, ret) {
            if let Some(v) = fr.locals.get(&rv) {
                self.globals.insert(rv, v.clone());
            }
            let _ = fr.func;
        }
        Ok(())
    }

    pub fn finish(self) -> Output {
        Output {
            asserts: self.nm.asserts,
            props: self.props,
            unwinds: self.unwinds,
            mismatches: self.mismatches,
            events: self.events,
            inputs: self.inputs,
            diags: self.diags,
            globals: self.globals,
            mem: self.mem,
            var_objects: self.var_obj,
            uses_floats: self.uses_floats.get(),
        }
    }
}

fn contains_label(s: &Stmt) -> bool {
    let mut found = false;
    crate::ir::visit::each_stmt(s, &mut |x| {
        if matches!(
            x.kind,
            StmtKind::Label(_) | StmtKind::Case { .. } | StmtKind::Default
        ) {
            found = true;
        }
    });
    found
}

fn collect_cases(s: &Stmt, out: &mut Vec<Option<(i128, i128)>>) {
    match &s.kind {
        StmtKind::Case { lo, hi } => out.push(Some((*lo, *hi))),
        StmtKind::Default => out.push(None),
        StmtKind::Block(ss) => ss.iter().for_each(|x| collect_cases(x, out)),
        StmtKind::If { then, els, .. } => {
            collect_cases(then, out);
            if let Some(e) = els {
                collect_cases(e, out);
            }
        }
        StmtKind::While { body, .. }
        | StmtKind::DoWhile { body, .. }
        | StmtKind::For { body, .. } => collect_cases(body, out),
        _ => {}
    }
}

fn redirect_continue(s: &mut Stmt, label: &str) {
    match &mut s.kind {
        StmtKind::Continue => s.kind = StmtKind::Goto(label.to_string()),
        StmtKind::Block(ss) => ss.iter_mut().for_each(|x| redirect_continue(x, label)),
        StmtKind::If { then, els, .. } => {
            redirect_continue(then, label);
            if let Some(e) = els {
                redirect_continue(e, label);
            }
        }
        StmtKind::Switch { body, .. } => redirect_continue(body, label),
        _ => {}
    }
}

/// `v` converted to `to` bits as C converts an integer of `v`'s width and signedness:
/// truncated, or sign- or zero-extended.
pub fn resize(v: BV, to: u32, signed: bool) -> BV {
    let from = v.get_size();
    if from == to {
        v
    } else if from > to {
        v.extract(to - 1, 0)
    } else if signed {
        v.sign_ext(to - from)
    } else {
        v.zero_ext(to - from)
    }
}
