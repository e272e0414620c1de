//! The explorer's states: memory as objects of bytes (with which bytes hold a defined value
//! and which hold a pointer into which object), threads as stacks of frames, and the
//! pthread objects' state. Two states that are equal in every field are the same program
//! state, so the explorer can recognise a state it has seen (spin loops close a cycle).

use std::collections::BTreeMap;
use std::hash::{Hash, Hasher};

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

#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct Obj {
    pub bytes: Vec<u8>,
    /// Which bytes hold a defined value.
    pub init: Vec<bool>,
    /// Pointers stored in the object: offset of the pointer's first byte → object.
    pub prov: BTreeMap<u32, u32>,
    pub heap: bool,
}

impl Obj {
    pub fn new(size: usize, heap: bool, zeroed: bool) -> Obj {
        Obj {
            bytes: vec![0; size],
            init: vec![zeroed; size],
            prov: BTreeMap::new(),
            heap,
        }
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
    pub objs: Vec<Option<Obj>>,
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

    pub fn release(&mut self, id: u32) {
        if let Some(o) = self.objs.get_mut(id as usize) {
            *o = None;
        }
        while self.objs.len() > 1 && self.objs.last().is_some_and(|o| o.is_none()) {
            self.objs.pop();
        }
    }

    /// A 128-bit fingerprint (two SipHash runs with different prefixes).
    pub fn fingerprint(&self) -> u128 {
        let mut a = std::collections::hash_map::DefaultHasher::new();
        0xa5u8.hash(&mut a);
        self.hash(&mut a);
        let mut b = std::collections::hash_map::DefaultHasher::new();
        0x5au8.hash(&mut b);
        self.hash(&mut b);
        ((a.finish() as u128) << 64) | b.finish() as u128
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
