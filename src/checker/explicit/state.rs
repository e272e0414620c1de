//! The explorer's states: memory as objects of bytes (with which bytes hold a defined value
//! and which hold a pointer into which object), threads as stacks of frames, and the
//! pthread objects' state. Two states that are equal in every field are the same program
//! state, so the explorer can recognise a state it has seen (spin loops close a cycle).

use std::cell::{Cell, RefCell};
use std::collections::BTreeMap;
use std::hash::{Hash, Hasher};
use std::rc::Rc;

use crate::ir::{FuncId, VarId};

/// Provenance tags at or above this are function pointers (`FUNC_BASE + function id`).
pub const FUNC_BASE: u32 = 0x8000_0000;
/// Provenance tags from this up to `FUNC_BASE` are thread ids (`TID_BASE + thread`), so
/// that renumbering threads can find every id the program stored.
pub const TID_BASE: u32 = 0x7000_0000;

/// Provenance tags from this up to `TID_BASE` are symbolic inputs: `SYM_BASE + (id << 2)`
/// in a value (the value is the input plus `v`), with the low two bits giving the width
/// (1, 2, 4 or 8 bytes) where it is stored in an object.
pub const SYM_BASE: u32 = 0x6000_0000;

/// The tags of a `float` and a `double` value (`v` holds its IEEE bits) while it is a
/// value: memory keeps only the bits, and a load of a floating type tags them again. The
/// tag is what makes a float's truth IEEE's (`-0.0` is false) and keeps integer
/// arithmetic, which refuses tagged operands, off its bits.
pub const F32_TAG: u32 = 0x5FFF_FFF0;
pub const F64_TAG: u32 = 0x5FFF_FFF1;

/// Whether a provenance tag names an object (not nothing, a float, an input, a thread or
/// a function).
pub fn is_object(prov: u32) -> bool {
    prov != 0 && prov < F32_TAG
}

/// The input a provenance tag names, with the stored width code (log2 of its bytes).
pub fn sym_of(prov: u32) -> Option<(u32, u32)> {
    (SYM_BASE..TID_BASE)
        .contains(&prov)
        .then(|| ((prov - SYM_BASE) >> 2, (prov - SYM_BASE) & 3))
}

/// The tag of input `id` stored `bytes` wide (`bytes` is 1, 2, 4 or 8; 0 in a value).
pub fn sym_tag(id: u32, bytes: u64) -> u32 {
    SYM_BASE + (id << 2) + bytes.max(1).trailing_zeros()
}

/// A scalar: an integer already wrapped to its type, or a pointer (`prov` names the object,
/// `v` is the byte offset). `prov == 0` is no object: a plain integer, or NULL when `v == 0`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Val {
    pub v: i128,
    pub prov: u32,
}

impl Val {
    pub fn int(v: i128) -> Val {
        Val { v, prov: 0 }
    }
    pub fn truth(self) -> bool {
        match self.as_float() {
            Some(x) => x != 0.0,
            None => self.v != 0 || self.prov != 0,
        }
    }
    /// A `float` (32 bits) or `double` value.
    pub fn float(bits: u32, x: f64) -> Val {
        if bits == 32 {
            Val {
                v: i128::from((x as f32).to_bits()),
                prov: F32_TAG,
            }
        } else {
            Val {
                v: i128::from(x.to_bits()),
                prov: F64_TAG,
            }
        }
    }
    /// A float's bits read from memory as a value of the given width.
    pub fn float_bits(bits: u32, v: i128) -> Val {
        Val {
            v,
            prov: if bits == 32 { F32_TAG } else { F64_TAG },
        }
    }
    /// The number a float value holds (a `float` widened exactly), if it is one.
    pub fn as_float(self) -> Option<f64> {
        match self.prov {
            F32_TAG => Some(f64::from(f32::from_bits(self.v as u32))),
            F64_TAG => Some(f64::from_bits(self.v as u64)),
            _ => None,
        }
    }
    /// The width of a float value: 32 or 64.
    pub fn float_width(self) -> Option<u32> {
        match self.prov {
            F32_TAG => Some(32),
            F64_TAG => Some(64),
            _ => None,
        }
    }
    /// A thread id as the program sees it (`pthread_t`): the id lives in the tag alone.
    pub fn thread(t: usize) -> Val {
        Val {
            v: 0,
            prov: TID_BASE + t as u32,
        }
    }
    pub fn as_thread(self) -> Option<usize> {
        (self.prov >= TID_BASE && self.prov < FUNC_BASE).then(|| (self.prov - TID_BASE) as usize)
    }
    /// A symbolic value: input `id` plus `v`.
    pub fn sym(id: u32, v: i128) -> Val {
        Val {
            v,
            prov: sym_tag(id, 0),
        }
    }
    /// The input this value is, plus `v`, if it is symbolic.
    pub fn as_sym(self) -> Option<u32> {
        sym_of(self.prov).map(|(id, _)| id)
    }
}

/// A place in memory: object and byte offset.
pub type Place = (u32, i64);

/// An object's contents. States share unchanged objects (`Rc`), and an object's digest is
/// computed once, so a step costs what it changes rather than the size of the state.
#[derive(Clone, Debug)]
pub struct Obj {
    pub bytes: Vec<u8>,
    /// Which bytes hold a defined value.
    pub init: Vec<bool>,
    /// Pointers stored in the object: offset of the pointer's first byte → object.
    pub prov: BTreeMap<u32, u32>,
    pub heap: bool,
    /// The digest of the fields above; reset by `State::obj_mut` before any change.
    digest: Cell<Option<u128>>,
}

impl PartialEq for Obj {
    fn eq(&self, o: &Obj) -> bool {
        self.bytes == o.bytes && self.init == o.init && self.prov == o.prov && self.heap == o.heap
    }
}
impl Eq for Obj {}

impl Hash for Obj {
    fn hash<H: Hasher>(&self, h: &mut H) {
        h.write_u128(self.digest());
    }
}

impl Obj {
    pub fn new(size: usize, heap: bool, zeroed: bool) -> Obj {
        Obj {
            bytes: vec![0; size],
            init: vec![zeroed; size],
            prov: BTreeMap::new(),
            heap,
            digest: Cell::new(None),
        }
    }

    /// A 128-bit digest of the contents (see `digest128`).
    pub fn digest(&self) -> u128 {
        if let Some(d) = self.digest.get() {
            return d;
        }
        let d = with_buffer(&OBJ_BUF, |buf| {
            self.bytes.hash(buf);
            // `bool` slices hash element by element; as bytes they go in one write.
            buf.0.extend(self.init.iter().map(|b| *b as u8));
            self.prov.hash(buf);
            self.heap.hash(buf);
            digest128(&buf.0)
        });
        self.digest.set(Some(d));
        d
    }

    /// Forgets the tags (pointers, thread ids, inputs) whose bytes overlap `off..off + n`,
    /// which are being overwritten; a pointer-sized tag is `pw` bytes, an input's as wide
    /// as it was stored. Returns whether an input was only partly overwritten (its other
    /// bytes would no longer mean anything).
    pub fn clear_tags(&mut self, off: u32, n: u32, pw: u32) -> bool {
        let mut partial = false;
        let mut stale = vec![];
        for (&at, &t) in self.prov.range(off.saturating_sub(7)..off + n) {
            let width = match sym_of(t) {
                Some((_, w)) => 1 << w,
                None => pw,
            };
            if at + width <= off {
                continue;
            }
            if sym_of(t).is_some() && (at < off || at + width > off + n) {
                partial = true;
            }
            stale.push(at);
        }
        for k in stale {
            self.prov.remove(&k);
        }
        partial
    }
}

#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct Frame {
    pub func: FuncId,
    pub pc: u32,
    /// Locals that have come into scope, by variable, with their objects (sorted).
    pub locals: Vec<(VarId, u32)>,
    /// Where the caller wants the return value.
    pub ret: Option<Place>,
    /// A `__VERIFIER_atomic_*` function: the thread is atomic until it returns.
    pub atomic_fn: bool,
}

impl Frame {
    pub fn local(&self, v: VarId) -> Option<u32> {
        self.locals
            .binary_search_by_key(&v, |(x, _)| *x)
            .ok()
            .map(|i| self.locals[i].1)
    }
    pub fn bind(&mut self, v: VarId, obj: u32) {
        match self.locals.binary_search_by_key(&v, |(x, _)| *x) {
            Ok(i) => self.locals[i].1 = obj,
            Err(i) => self.locals.insert(i, (v, obj)),
        }
    }
}

#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub enum Status {
    Running,
    /// In `pthread_cond_wait`: released `mutex`, waits for a signal on `cond`, then
    /// re-acquires the mutex.
    Waiting {
        cond: Place,
        mutex: Place,
        signaled: bool,
        /// Chosen as the wait starts (only at `analysis::waits::spurious_wake_sites`): the
        /// wait returns without a signal once the mutex is free, as POSIX allows.
        spurious: bool,
    },
    Finished(Val),
    /// In `pthread_join`, in a program whose threads have detach states: the call has
    /// answered (0, or an error when `target` is `None`) and the thread waits for `target`
    /// to finish, to store its result through `ret`. A join has begun, so a detach of
    /// `target` meanwhile changes nothing (glibc), as in the sequentializer's two steps.
    Joining {
        target: Option<u32>,
        ret: Option<Place>,
    },
    /// In a loop that touches nothing shared and never ends: it takes no more steps, but
    /// the thread is still alive (a deadlock check sees it as blocked).
    Stuck,
}

#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct Thread {
    pub frames: Vec<Frame>,
    pub status: Status,
    /// Depth of `__VERIFIER_atomic_begin` sections and atomic functions.
    pub atomic: u32,
    /// Whether the thread has been detached or joined (what a later join or detach
    /// answers).
    pub detach: Detach,
    /// The thread's own objects by slot (sorted): its copies of thread-local variables
    /// and its keys' values (see `exec::tls`).
    pub tls: Vec<(u32, u32)>,
    /// The thread's result while the destructors of its keys run (see `exec::tls`).
    pub exiting: Option<Val>,
}

/// A thread's detach state.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub enum Detach {
    #[default]
    Joinable,
    Detached,
    /// A join of it has begun (`Status::Joining`).
    Joining,
    Joined,
}

/// Which thread, by creation order, each position of `State::threads` holds. Not part of
/// the state's identity: states that differ only in it are symmetric.
#[derive(Clone, Debug, Default)]
pub struct Origin(pub Vec<u32>);

impl PartialEq for Origin {
    fn eq(&self, _: &Origin) -> bool {
        true
    }
}
impl Eq for Origin {}
impl Hash for Origin {
    fn hash<H: Hasher>(&self, _: &mut H) {}
}

#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct State {
    pub objs: Vec<Option<Rc<Obj>>>,
    pub threads: Vec<Thread>,
    pub origin: Origin,
    /// Held mutexes → owning thread.
    pub locks: BTreeMap<Place, u32>,
    /// The process ended (`main` returned, `exit`, `abort`).
    pub exited: bool,
    /// The values each symbolic input may still take (inclusive bounds), by input id.
    /// Comparisons split and narrow them; see `checker::explicit::symbolic`.
    pub syms: Vec<(i128, i128)>,
    /// The thread-specific keys created so far, by number: each one's destructor (its
    /// function id + 1; 0 for none).
    pub keys: Vec<u32>,
}

impl State {
    /// No objects (id 0 is reserved for "no object") and no threads.
    pub fn empty() -> State {
        State {
            objs: vec![None],
            threads: vec![],
            origin: Origin::default(),
            locks: BTreeMap::new(),
            exited: false,
            syms: vec![],
            keys: vec![],
        }
    }

    /// The smallest free object id (0 is no object): states that allocate in the same
    /// pattern get the same ids, so they can be recognised again.
    pub fn alloc(&mut self, obj: Obj) -> u32 {
        let obj = Rc::new(obj);
        match self.objs.iter().skip(1).position(|o| o.is_none()) {
            Some(i) => {
                self.objs[i + 1] = Some(obj);
                (i + 1) as u32
            }
            None => {
                self.objs.push(Some(obj));
                (self.objs.len() - 1) as u32
            }
        }
    }

    pub fn obj(&self, id: u32) -> Option<&Obj> {
        self.objs.get(id as usize)?.as_deref()
    }

    /// The object to change: a copy of its own if another state shares it.
    pub fn obj_mut(&mut self, id: u32) -> Option<&mut Obj> {
        let o = Rc::make_mut(self.objs.get_mut(id as usize)?.as_mut()?);
        o.digest.set(None);
        Some(o)
    }

    pub fn release(&mut self, id: u32) {
        if let Some(o) = self.objs.get_mut(id as usize) {
            *o = None;
        }
        while self.objs.len() > 1 && self.objs.last().is_some_and(|o| o.is_none()) {
            self.objs.pop();
        }
    }

    /// Renumbers the objects in a canonical order: the first `fixed` (the globals) keep
    /// their ids, then the locals of each thread's frames in order, then what their pointers
    /// reach, breadth first. Two states that differ only in the order their threads
    /// allocated (a local of one thread before one of another) become equal. Object ids are
    /// not observable by the program: pointers compare and subtract only within an object.
    /// A dangling pointer (to a freed object) keeps the state as it is, since renaming it
    /// could make it alias a live object.
    pub fn canonicalize(&mut self, fixed: u32) {
        let n = self.objs.len();
        let mut map = vec![0u32; n];
        let mut order: Vec<u32> = Vec::with_capacity(n);
        let live = |id: u32| is_object(id) && matches!(self.objs.get(id as usize), Some(Some(_)));
        for id in 1..=fixed.min(n.saturating_sub(1) as u32) {
            if live(id) {
                map[id as usize] = order.len() as u32 + 1;
                order.push(id);
            }
        }
        let mut roots: Vec<u32> = vec![];
        for t in &self.threads {
            for f in &t.frames {
                roots.extend(f.locals.iter().map(|(_, o)| *o));
                roots.extend(f.ret.map(|p| p.0));
            }
            roots.extend(t.tls.iter().map(|(_, o)| *o));
            roots.extend(t.exiting.map(|v| v.prov));
            match &t.status {
                Status::Finished(v) => roots.push(v.prov),
                Status::Waiting { cond, mutex, .. } => roots.extend([cond.0, mutex.0]),
                Status::Joining { ret, .. } => roots.extend(ret.map(|p| p.0)),
                Status::Running | Status::Stuck => {}
            }
        }
        roots.extend(self.locks.keys().map(|p| p.0));
        // Numbers `id` next unless it has a number; false for a dangling reference.
        let number = |id: u32, map: &mut Vec<u32>, order: &mut Vec<u32>| {
            if !is_object(id) {
                return true;
            }
            if !live(id) {
                return false;
            }
            if map[id as usize] == 0 {
                map[id as usize] = order.len() as u32 + 1;
                order.push(id);
            }
            true
        };
        for id in roots {
            if !number(id, &mut map, &mut order) {
                return;
            }
        }
        // Numbers the targets of the objects in `order` from `i` on, breadth first; false
        // for a dangling one.
        let follow = |i: &mut usize, map: &mut Vec<u32>, order: &mut Vec<u32>| {
            while let Some(&id) = order.get(*i) {
                if let Some(Some(o)) = self.objs.get(id as usize) {
                    for &t in o.prov.values() {
                        if !number(t, map, order) {
                            return false;
                        }
                    }
                }
                *i += 1;
            }
            true
        };
        let mut i = 0;
        if !follow(&mut i, &mut map, &mut order) {
            return;
        }
        // Unreachable objects (leaked memory) keep their relative order.
        for id in 1..n as u32 {
            if live(id) && map[id as usize] == 0 {
                map[id as usize] = order.len() as u32 + 1;
                order.push(id);
            }
        }
        // A leaked object may hold a dangling pointer as well (a struct never freed whose
        // buffer was): every object renamed must have its targets checked.
        if !follow(&mut i, &mut map, &mut order) {
            return;
        }
        if order.len() + 1 == n && order.iter().enumerate().all(|(i, &o)| o == i as u32 + 1) {
            return;
        }
        // Every object reached has a number by now (or the state kept its ids above).
        let rename = |id: u32| {
            if !is_object(id) {
                id
            } else {
                map.get(id as usize).copied().unwrap_or(id)
            }
        };
        let mut objs: Vec<Option<Rc<Obj>>> = Vec::with_capacity(order.len() + 1);
        objs.push(None);
        for &old in &order {
            let mut o = self.objs[old as usize].take();
            if let Some(o) = &mut o {
                if o.prov.values().any(|t| rename(*t) != *t) {
                    let o = Rc::make_mut(o);
                    o.digest.set(None);
                    o.prov.values_mut().for_each(|t| *t = rename(*t));
                }
            }
            objs.push(o);
        }
        self.objs = objs;
        for t in &mut self.threads {
            for f in &mut t.frames {
                f.locals.iter_mut().for_each(|(_, o)| *o = rename(*o));
                if let Some(p) = &mut f.ret {
                    p.0 = rename(p.0);
                }
            }
            t.tls.iter_mut().for_each(|(_, o)| *o = rename(*o));
            if let Some(v) = &mut t.exiting {
                v.prov = rename(v.prov);
            }
            match &mut t.status {
                Status::Finished(v) => v.prov = rename(v.prov),
                Status::Waiting { cond, mutex, .. } => {
                    cond.0 = rename(cond.0);
                    mutex.0 = rename(mutex.0);
                }
                Status::Joining { ret, .. } => {
                    if let Some(p) = ret {
                        p.0 = rename(p.0);
                    }
                }
                Status::Running | Status::Stuck => {}
            }
        }
        self.locks = std::mem::take(&mut self.locks)
            .into_iter()
            .map(|(p, t)| ((rename(p.0), p.1), t))
            .collect();
    }

    /// Gives the symbolic inputs canonical ids (in the order the objects, already in
    /// canonical order, hold them), forgets inputs nothing holds any more, and writes the
    /// value of an input narrowed to one value into the bytes that hold it.
    pub fn normalize_syms(&mut self) {
        if self.syms.is_empty() {
            return;
        }
        let old = std::mem::take(&mut self.syms);
        let mut new_id: Vec<Option<u32>> = vec![None; old.len()];
        let mut syms: Vec<(i128, i128)> = vec![];
        let mut changed = vec![];
        for (i, o) in self.objs.iter().enumerate() {
            let Some(o) = o else { continue };
            let mut touch = false;
            for &t in o.prov.values() {
                let Some((id, _)) = sym_of(t) else { continue };
                let Some(&dom) = old.get(id as usize) else {
                    continue;
                };
                if dom.0 == dom.1 {
                    touch = true;
                    continue;
                }
                let slot = &mut new_id[id as usize];
                if slot.is_none() {
                    *slot = Some(syms.len() as u32);
                    syms.push(dom);
                }
                touch |= slot != &Some(id);
            }
            if touch {
                changed.push(i);
            }
        }
        for i in changed {
            let Some(o) = self.obj_mut(i as u32) else {
                continue;
            };
            let tags: Vec<(u32, u32)> = o
                .prov
                .iter()
                .filter(|(_, t)| sym_of(**t).is_some())
                .map(|(k, t)| (*k, *t))
                .collect();
            for (off, t) in tags {
                let Some((id, w)) = sym_of(t) else { continue };
                let n = 1usize << w;
                let Some(&(lo, hi)) = old.get(id as usize) else {
                    continue;
                };
                if lo == hi {
                    // The stored bytes hold the offset from the input.
                    let at = off as usize;
                    let mut u: u128 = 0;
                    for (k, b) in o.bytes[at..at + n].iter().enumerate() {
                        u |= (*b as u128) << (8 * k);
                    }
                    let v = (u as i128).wrapping_add(lo) as u128;
                    for k in 0..n {
                        o.bytes[at + k] = (v >> (8 * k)) as u8;
                    }
                    o.prov.remove(&off);
                } else if let Some(new) = new_id[id as usize] {
                    o.prov.insert(off, sym_tag(new, n as u64));
                }
            }
        }
        self.syms = syms;
    }

    /// Puts the threads other than `main` in a canonical order (by what each is doing), so
    /// that states that differ only in which of several alike threads is where are one
    /// state. Every thread id the program holds is renamed with them (ids are tagged
    /// values, see `TID_BASE`), as are lock owners; `origin` remembers who is who.
    /// Threads with equal sort keys keep their relative order, which is sound (any
    /// consistent renaming is) but may leave symmetric states apart.
    pub fn sort_threads(&mut self, fixed: u32) {
        let n = self.threads.len();
        // A join in progress names its thread by position: kept in creation order then.
        // Threads with objects of their own (`Thread::tls`) are not compared by them
        // (`thread_key`): kept in order too.
        if n < 3
            || self
                .threads
                .iter()
                .any(|t| matches!(t.status, Status::Joining { .. }) || !t.tls.is_empty())
        {
            return;
        }
        // Only threads that started in the same function can be alike.
        let mut starts: Vec<FuncId> = self.threads[1..]
            .iter()
            .filter_map(|t| t.frames.first().map(|f| f.func))
            .collect();
        starts.sort();
        if starts.windows(2).all(|w| w[0] != w[1]) {
            return;
        }
        // Objects whose ids do not depend on the threads' order: the globals and `main`'s
        // locals. A thread id stored anywhere else could not be renamed consistently.
        let mut stable: Vec<bool> = (0..self.objs.len()).map(|i| i as u32 <= fixed).collect();
        for f in self
            .threads
            .first()
            .map(|t| t.frames.as_slice())
            .unwrap_or(&[])
        {
            for (_, o) in &f.locals {
                if let Some(b) = stable.get_mut(*o as usize) {
                    *b = true;
                }
            }
        }
        let mut refs: Vec<Vec<(u32, u32)>> = vec![vec![]; n];
        for (id, o) in self.objs.iter().enumerate() {
            let Some(o) = o else { continue };
            for (off, p) in &o.prov {
                if let Some(t) = (Val { v: 0, prov: *p }).as_thread() {
                    if !stable[id] {
                        return;
                    }
                    if let Some(r) = refs.get_mut(t) {
                        r.push((id as u32, *off));
                    }
                }
            }
        }
        let keys: Vec<u128> = (0..n).map(|i| self.thread_key(i, &refs[i])).collect();
        let mut order: Vec<usize> = (1..n).collect();
        order.sort_by_key(|&i| keys[i]);
        if order.iter().enumerate().all(|(j, &o)| o == j + 1) {
            return;
        }
        // Threads with equal keys must be interchangeable for the order to be canonical:
        // no pointers in their locals, no waiting on an object that moves.
        for w in order.windows(2) {
            if keys[w[0]] == keys[w[1]] && !(self.plain(w[0]) && self.plain(w[1])) {
                return;
            }
        }
        let mut new_of_old: Vec<u32> = vec![0; n];
        for (j, &old) in order.iter().enumerate() {
            new_of_old[old] = j as u32 + 1;
        }
        let rename = |prov: u32| match (Val { v: 0, prov }).as_thread() {
            Some(t) if t < n => TID_BASE + new_of_old[t],
            _ => prov,
        };
        let mut threads: Vec<Thread> = Vec::with_capacity(n);
        let mut origin: Vec<u32> = Vec::with_capacity(n);
        let mut old_threads: Vec<Option<Thread>> = std::mem::take(&mut self.threads)
            .into_iter()
            .map(Some)
            .collect();
        for &old in std::iter::once(&0).chain(order.iter()) {
            if let Some(mut t) = old_threads[old].take() {
                if let Status::Finished(v) = &mut t.status {
                    v.prov = rename(v.prov);
                }
                threads.push(t);
            }
            origin.push(self.origin.0.get(old).copied().unwrap_or(old as u32));
        }
        self.threads = threads;
        self.origin = Origin(origin);
        for o in self.objs.iter_mut().flatten() {
            if o.prov.values().any(|p| rename(*p) != *p) {
                let o = Rc::make_mut(o);
                o.digest.set(None);
                o.prov.values_mut().for_each(|p| *p = rename(*p));
            }
        }
        for owner in self.locks.values_mut() {
            *owner = new_of_old.get(*owner as usize).copied().unwrap_or(*owner);
        }
    }

    /// What thread `i` is doing, independent of object and thread numbering: its frames'
    /// positions and its locals' contents (pointers counted, not followed).
    fn thread_key(&self, i: usize, refs: &[(u32, u32)]) -> u128 {
        let t = &self.threads[i];
        let mut buf = Collect(Vec::with_capacity(256));
        refs.hash(&mut buf);
        (t.atomic, t.detach).hash(&mut buf);
        std::mem::discriminant(&t.status).hash(&mut buf);
        match &t.status {
            Status::Finished(v) => v.v.hash(&mut buf),
            Status::Waiting {
                signaled, spurious, ..
            } => (signaled, spurious).hash(&mut buf),
            Status::Joining { target, ret } => (target, ret.map(|p| p.1)).hash(&mut buf),
            Status::Running | Status::Stuck => {}
        }
        for f in &t.frames {
            // Where the return value goes, as (caller's variable, offset).
            let ret = f.ret.map(|p| {
                let var = t
                    .frames
                    .iter()
                    .flat_map(|g| g.locals.iter())
                    .find(|(_, o)| *o == p.0)
                    .map(|(v, _)| v.0);
                (var, p.1)
            });
            (f.func, f.pc, f.atomic_fn, ret).hash(&mut buf);
            for (var, obj) in &f.locals {
                var.hash(&mut buf);
                if let Some(o) = self.obj(*obj) {
                    o.bytes.hash(&mut buf);
                    o.init.len().hash(&mut buf);
                    for b in &o.init {
                        buf.0.push(*b as u8);
                    }
                    for (k, tag) in &o.prov {
                        k.hash(&mut buf);
                        // An input counts by the values it may still take, not by its
                        // number, so that alike threads holding alike inputs sort as alike.
                        if let Some((id, w)) = sym_of(*tag) {
                            (w, self.syms.get(id as usize)).hash(&mut buf);
                        }
                    }
                }
            }
        }
        self.locks.values().any(|o| *o as usize == i).hash(&mut buf);
        digest128(&buf.0)
    }

    /// Whether thread `i`'s state holds no object or thread reference its key leaves out
    /// (an input it holds is in the key by its values; one it shares with another thread
    /// or a global is not, which leaves the order sound but maybe not canonical).
    fn plain(&self, i: usize) -> bool {
        let t = &self.threads[i];
        let status = match &t.status {
            Status::Finished(v) => v.prov == 0,
            Status::Waiting { .. } | Status::Joining { .. } => false,
            Status::Running | Status::Stuck => true,
        };
        // A callee's return place is in its caller's frame: the same for alike threads.
        let own = |p: Place| {
            t.frames
                .iter()
                .any(|f| f.locals.iter().any(|(_, o)| *o == p.0))
        };
        status
            && t.frames.iter().all(|f| {
                f.ret.is_none_or(own)
                    && f.locals.iter().all(|(_, o)| {
                        self.obj(*o)
                            .is_none_or(|o| o.prov.values().all(|t| sym_of(*t).is_some()))
                    })
            })
    }

    /// A 128-bit fingerprint: the state is written out once, then digested in bulk (many
    /// small writes are what hashing costs).
    pub fn fingerprint(&self) -> u128 {
        with_buffer(&STATE_BUF, |buf| {
            self.hash(buf);
            digest128(&buf.0)
        })
    }

    /// Approximate bytes held, for the memory limit.
    pub fn weight(&self) -> usize {
        let objs: usize = self
            .objs
            .iter()
            .flatten()
            .map(|o| o.bytes.len() * 2 + o.prov.len() * 16 + 64)
            .sum();
        let frames: usize = self
            .threads
            .iter()
            .map(|t| {
                t.frames
                    .iter()
                    .map(|f| 48 + f.locals.len() * 8)
                    .sum::<usize>()
                    + 48
            })
            .sum();
        objs + frames + 64
    }
}

/// A 128-bit digest of `bytes` (XXH3-128: hashing is most of what the explorer costs, and
/// SipHash, twice for 128 bits, was several times slower).
fn digest128(bytes: &[u8]) -> u128 {
    xxhash_rust::xxh3::xxh3_128(bytes)
}

/// A `Hasher` that only collects the bytes written to it.
struct Collect(Vec<u8>);

thread_local! {
    // Reused buffers: a step hashes a state or object about as often as it allocates one.
    // Two, since hashing a state digests its objects.
    static STATE_BUF: RefCell<Vec<u8>> = const { RefCell::new(Vec::new()) };
    static OBJ_BUF: RefCell<Vec<u8>> = const { RefCell::new(Vec::new()) };
}

/// Runs `f` on an empty `Collect` whose allocation is kept for the next call.
fn with_buffer<T>(
    key: &'static std::thread::LocalKey<RefCell<Vec<u8>>>,
    f: impl FnOnce(&mut Collect) -> T,
) -> T {
    key.with(|cell| {
        let mut c = Collect(std::mem::take(&mut *cell.borrow_mut()));
        c.0.clear();
        let r = f(&mut c);
        *cell.borrow_mut() = c.0;
        r
    })
}

impl Hasher for Collect {
    fn write(&mut self, bytes: &[u8]) {
        self.0.extend_from_slice(bytes);
    }
    fn finish(&self) -> u64 {
        0
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn thread(locals: Vec<(VarId, u32)>) -> Thread {
        Thread {
            frames: vec![Frame {
                func: FuncId(1),
                pc: 3,
                locals,
                ret: None,
                atomic_fn: false,
            }],
            status: Status::Running,
            atomic: 0,
            detach: Detach::Joinable,
            tls: vec![],
            exiting: None,
        }
    }

    fn int_obj(v: u8) -> Obj {
        let mut o = Obj::new(1, false, true);
        o.bytes[0] = v;
        o
    }

    #[test]
    fn allocation_order_does_not_distinguish_states() {
        // Global 1; thread 0 has local 10 = 7, thread 1 has local 11 pointing at a heap
        // object holding 9. Built once in one allocation order and once in another.
        let build = |swap: bool| {
            let mut st = State::empty();
            st.alloc(int_obj(1));
            let mut ptr = Obj::new(8, false, true);
            let (a, heap, p) = if swap {
                let heap = st.alloc(Obj::new(1, true, true));
                let p = st.alloc(ptr.clone());
                let a = st.alloc(int_obj(7));
                (a, heap, p)
            } else {
                let a = st.alloc(int_obj(7));
                let p = st.alloc(ptr.clone());
                let heap = st.alloc(Obj::new(1, true, true));
                (a, heap, p)
            };
            st.obj_mut(heap).expect("allocated").bytes[0] = 9;
            ptr.prov.insert(0, heap);
            *st.obj_mut(p).expect("allocated") = ptr;
            st.threads = vec![thread(vec![(VarId(10), a)]), thread(vec![(VarId(11), p)])];
            st.canonicalize(1);
            st
        };
        let (x, y) = (build(false), build(true));
        assert_eq!(x, y);
        assert_eq!(x.fingerprint(), y.fingerprint());
        // The pointer still leads to the object holding 9.
        let p = x.threads[1].frames[0].locals[0].1;
        let heap = x
            .obj(p)
            .and_then(|o| o.prov.get(&0).copied())
            .expect("a pointer");
        assert_eq!(x.obj(heap).map(|o| o.bytes[0]), Some(9));
    }

    #[test]
    fn a_leaked_object_holding_a_freed_pointer_keeps_the_state_as_it_is() {
        // Global 1; a struct nothing points to any more (leaked) still points at its
        // buffer, which was freed: the last object, so its id is past the end.
        let mut st = State::empty();
        st.alloc(int_obj(1));
        let mut leaked = Obj::new(8, false, true);
        let holder = st.alloc(Obj::new(8, false, true));
        let buffer = st.alloc(int_obj(3));
        leaked.prov.insert(0, buffer);
        *st.obj_mut(holder).expect("allocated") = leaked;
        st.release(buffer);
        let before = st.clone();
        st.canonicalize(1);
        assert_eq!(st, before);
    }

    #[test]
    fn a_changed_object_gets_a_new_digest() {
        let mut st = State::empty();
        let id = st.alloc(int_obj(1));
        let before = st.fingerprint();
        let copy = st.clone();
        st.obj_mut(id).expect("allocated").bytes[0] = 2;
        assert_ne!(st.fingerprint(), before);
        // The copy that shared the object is unchanged.
        assert_eq!(copy.fingerprint(), before);
    }

    #[test]
    fn alike_threads_in_either_order_are_one_state_with_their_ids_renamed() {
        // main (thread 0) holds one handle in a global; threads 1 and 2 run the same
        // function at different places. Built in both orders of the two threads.
        let build = |swap: bool| {
            let mut st = State {
                origin: Origin(vec![0, 1, 2]),
                ..State::empty()
            };
            let g = st.alloc(Obj::new(8, false, true));
            let at = |pc: u32| Thread {
                frames: vec![Frame {
                    func: FuncId(1),
                    pc,
                    locals: vec![],
                    ret: None,
                    atomic_fn: false,
                }],
                status: Status::Running,
                atomic: 0,
                detach: Detach::Joinable,
                tls: vec![],
                exiting: None,
            };
            let main = Thread {
                frames: vec![],
                status: Status::Running,
                atomic: 0,
                detach: Detach::Joinable,
                tls: vec![],
                exiting: None,
            };
            // The handle names the thread at pc 7.
            let (threads, handle) = if swap {
                (vec![main, at(7), at(3)], 1)
            } else {
                (vec![main, at(3), at(7)], 2)
            };
            st.threads = threads;
            st.obj_mut(g)
                .expect("allocated")
                .prov
                .insert(0, Val::thread(handle).prov);
            st.sort_threads(1);
            st.canonicalize(1);
            st
        };
        let (x, y) = (build(false), build(true));
        assert_eq!(x.fingerprint(), y.fingerprint());
        let held = x
            .obj(1)
            .and_then(|o| o.prov.get(&0).copied())
            .expect("a handle");
        let t = (Val { v: 0, prov: held }).as_thread().expect("a thread id");
        assert_eq!(x.threads[t].frames[0].pc, 7);
    }
}
