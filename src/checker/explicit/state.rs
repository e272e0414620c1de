//! The explorer's states: memory as objects of bytes (with which bytes hold a defined value
//! and which hold a pointer into which object), threads as stacks of frames, and the
//! pthread objects' state. Two states that are equal in every field are the same program
//! state, so the explorer can recognise a state it has seen (spin loops close a cycle).

use std::cell::Cell;
use std::collections::BTreeMap;
use std::hash::{Hash, Hasher};
use std::rc::Rc;

use crate::ir::{FuncId, VarId};

/// Provenance tags at or above this are function pointers (`FUNC_BASE + function id`).
pub const FUNC_BASE: u32 = 0x8000_0000;

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
        self.v != 0 || self.prov != 0
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

    /// 128 bits of two independently keyed SipHash runs over the contents.
    pub fn digest(&self) -> u128 {
        if let Some(d) = self.digest.get() {
            return d;
        }
        let half = |key: u8| {
            let mut h = std::collections::hash_map::DefaultHasher::new();
            key.hash(&mut h);
            self.bytes.hash(&mut h);
            // `bool` slices hash element by element; as bytes they hash in one write.
            let init: Vec<u8> = self.init.iter().map(|b| *b as u8).collect();
            init.hash(&mut h);
            self.prov.hash(&mut h);
            self.heap.hash(&mut h);
            h.finish() as u128
        };
        let d = (half(0xa5) << 64) | half(0x5a);
        self.digest.set(Some(d));
        d
    }

    /// Forgets the pointers stored at offsets `lo..hi` (their bytes are being overwritten).
    pub fn clear_prov(&mut self, lo: u32, hi: u32) {
        let stale: Vec<u32> = self.prov.range(lo..hi).map(|(k, _)| *k).collect();
        for k in stale {
            self.prov.remove(&k);
        }
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
    },
    Finished(Val),
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
}

#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct State {
    pub objs: Vec<Option<Rc<Obj>>>,
    pub threads: Vec<Thread>,
    /// Held mutexes → owning thread.
    pub locks: BTreeMap<Place, u32>,
    /// The process ended (`main` returned, `exit`, `abort`).
    pub exited: bool,
}

impl State {
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
        let live = |id: u32| {
            id != 0 && id < FUNC_BASE && matches!(self.objs.get(id as usize), Some(Some(_)))
        };
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
            match &t.status {
                Status::Finished(v) => roots.push(v.prov),
                Status::Waiting { cond, mutex, .. } => roots.extend([cond.0, mutex.0]),
                Status::Running | Status::Stuck => {}
            }
        }
        roots.extend(self.locks.keys().map(|p| p.0));
        for id in roots {
            if id == 0 || id >= FUNC_BASE {
                continue;
            }
            if !live(id) {
                return;
            }
            if map[id as usize] == 0 {
                map[id as usize] = order.len() as u32 + 1;
                order.push(id);
            }
        }
        let mut i = 0;
        while i < order.len() {
            if let Some(Some(o)) = self.objs.get(order[i] as usize) {
                for &t in o.prov.values() {
                    if t == 0 || t >= FUNC_BASE {
                        continue;
                    }
                    if !live(t) {
                        return;
                    }
                    if map[t as usize] == 0 {
                        map[t as usize] = order.len() as u32 + 1;
                        order.push(t);
                    }
                }
            }
            i += 1;
        }
        // Unreachable objects (leaked memory) keep their relative order.
        for id in 1..n as u32 {
            if live(id) && map[id as usize] == 0 {
                map[id as usize] = order.len() as u32 + 1;
                order.push(id);
            }
        }
        if order.len() + 1 == n && order.iter().enumerate().all(|(i, &o)| o == i as u32 + 1) {
            return;
        }
        let rename = |id: u32| {
            if id == 0 || id >= FUNC_BASE {
                id
            } else {
                map[id as usize]
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
            match &mut t.status {
                Status::Finished(v) => v.prov = rename(v.prov),
                Status::Waiting { cond, mutex, .. } => {
                    cond.0 = rename(cond.0);
                    mutex.0 = rename(mutex.0);
                }
                Status::Running | Status::Stuck => {}
            }
        }
        self.locks = std::mem::take(&mut self.locks)
            .into_iter()
            .map(|(p, t)| ((rename(p.0), p.1), t))
            .collect();
    }

    /// A 128-bit fingerprint: the state is written out once, then hashed in two bulk
    /// SipHash runs with different keys (many small writes are what hashing costs).
    pub fn fingerprint(&self) -> u128 {
        let mut buf = Collect(Vec::with_capacity(1024));
        self.hash(&mut buf);
        let half = |key: u8| {
            let mut h = std::collections::hash_map::DefaultHasher::new();
            h.write_u8(key);
            h.write(&buf.0);
            h.finish() as u128
        };
        (half(0xa5) << 64) | half(0x5a)
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

/// A `Hasher` that only collects the bytes written to it.
struct Collect(Vec<u8>);

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
            let mut st = State {
                objs: vec![None],
                threads: vec![],
                locks: BTreeMap::new(),
                exited: false,
            };
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
    fn a_changed_object_gets_a_new_digest() {
        let mut st = State {
            objs: vec![None],
            threads: vec![],
            locks: BTreeMap::new(),
            exited: false,
        };
        let id = st.alloc(int_obj(1));
        let before = st.fingerprint();
        let copy = st.clone();
        st.obj_mut(id).expect("allocated").bytes[0] = 2;
        assert_ne!(st.fingerprint(), before);
        // The copy that shared the object is unchanged.
        assert_eq!(copy.fingerprint(), before);
    }
}
