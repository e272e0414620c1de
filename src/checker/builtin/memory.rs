//! Memory for the built-in checker: objects and (object, offset) pointers.
//!
//! A pointer is one bit-vector of the target's pointer width whose high bits name an
//! object and low bits an offset, so pointer arithmetic, comparison and casts to integers
//! behave as C programs expect, and a pointer stored in memory is just a value. Object 0
//! is NULL; functions have objects too (with no content), so function pointers compare
//! as they should.
//!
//! Objects of a known layout (arrays and structs of scalars, address-taken scalars: what
//! concurrent C programs mostly use) are *field-sensitive*: one bit-vector per scalar
//! leaf, so the formula stays pure bit-vector and an access at a symbolic offset is a
//! choice among the leaves of that width. Large objects, unions and untyped heap blocks
//! are byte arrays (SMT array theory). Every new content is a named SSA constant.

use std::collections::{HashMap, HashSet};

use z3::Sort;
use z3::ast::{Array, Ast, BV, Bool};

use crate::ir::*;

/// Objects with more scalar leaves than this are byte arrays.
const MAX_LEAVES: usize = 256;

#[derive(Clone, Copy, Debug)]
pub struct Layout {
    pub ptr_bits: u32,
    pub obj_bits: u32,
    pub off_bits: u32,
}

impl Layout {
    pub fn new(dm: DataModel) -> Layout {
        match dm {
            DataModel::Ilp32 => Layout {
                ptr_bits: 32,
                obj_bits: 12,
                off_bits: 20,
            },
            DataModel::Lp64 => Layout {
                ptr_bits: 64,
                obj_bits: 24,
                off_bits: 40,
            },
        }
    }

    pub fn max_objects(&self) -> u64 {
        1u64 << self.obj_bits
    }

    pub fn pointer(&self, obj: u32, off: u64) -> BV {
        let v = ((obj as u64) << self.off_bits) | (off & ((1u64 << self.off_bits) - 1));
        BV::from_u64(v, self.ptr_bits)
    }

    pub fn obj_of(&self, p: &BV) -> BV {
        p.extract(self.ptr_bits - 1, self.off_bits)
    }

    pub fn off_of(&self, p: &BV) -> BV {
        p.extract(self.off_bits - 1, 0)
    }
}

#[derive(Clone, Debug, PartialEq)]
pub enum ObjKind {
    Null,
    Func(FuncId),
    Var(VarId),
    Str,
    Heap(Loc),
    Temp,
}

#[derive(Clone, Debug)]
pub struct Leaf {
    pub off: u64,
    pub bits: u32,
    pub val: BV,
}

#[derive(Clone, Debug)]
pub enum Content {
    None,
    Leaves(Vec<Leaf>),
    Bytes(Array),
}

#[derive(Clone, Debug)]
pub struct Object {
    pub kind: ObjKind,
    pub name: String,
    pub size: Option<u64>,
    pub content: Content,
    /// The C type of the object, when known (variables, typed allocations).
    pub ty: Option<Type>,
}

/// Where new names and definitions go (shared with the executor).
pub struct Namer {
    pub asserts: Vec<Bool>,
    pub counter: u32,
    /// The term each named bit-vector stands for, so the objects a pointer may point to
    /// can be read through the names (a pointer loaded from memory or kept in a
    /// variable is a name).
    pub defs: HashMap<String, BV>,
}

impl Namer {
    pub fn fresh(&mut self, hint: &str) -> String {
        self.counter += 1;
        format!("{hint}#{}", self.counter)
    }

    /// Names a value by a fresh constant (unless it is already a constant or numeral).
    pub fn name_bv(&mut self, hint: &str, v: BV) -> BV {
        // Named terms are shallow (operators over names and numerals), so simplifying is
        // cheap, and it keeps values that are constant (a replayed schedule's counters)
        // numerals, so branches on them are decided while encoding.
        // (Only a numeral replaces the term: the simplifier rewrites pointer arithmetic
        // into forms that no longer show which object a pointer points to.)
        let simple = v.simplify();
        if simple.as_u64().is_some() {
            return simple;
        }
        if v.is_const() {
            return v;
        }
        let name = self.fresh(hint);
        let c = BV::new_const(name.as_str(), v.get_size());
        self.asserts.push(c.eq(&v));
        self.defs.insert(name, v);
        c
    }
}

pub struct Memory {
    pub lay: Layout,
    pub objects: Vec<Object>,
}

impl Memory {
    pub fn new(lay: Layout) -> Memory {
        Memory {
            lay,
            objects: vec![Object {
                kind: ObjKind::Null,
                name: "NULL".into(),
                size: Some(0),
                content: Content::None,
                ty: None,
            }],
        }
    }

    fn index_sort(&self) -> Sort {
        Sort::bitvector(self.lay.off_bits)
    }

    /// A new object of type `ty` (or untyped of `size` bytes). Its content starts zero,
    /// or unconstrained when `nondet`.
    #[allow(clippy::too_many_arguments)] // the object's description, then the context
    pub fn alloc(
        &mut self,
        kind: ObjKind,
        name: &str,
        ty: Option<&Type>,
        size: Option<u64>,
        nondet: bool,
        tt: &TypeTable,
        dm: DataModel,
        namer: &mut Namer,
    ) -> Option<u32> {
        let id = self.objects.len() as u64;
        if id >= self.lay.max_objects() {
            return None;
        }
        let content = match (&kind, ty) {
            (ObjKind::Func(_) | ObjKind::Null, _) => Content::None,
            (_, Some(t)) => {
                let mut leaves = Vec::new();
                if scalar_leaves(t, 0, tt, dm, self.lay.ptr_bits, &mut leaves) && !leaves.is_empty()
                {
                    Content::Leaves(
                        leaves
                            .into_iter()
                            .map(|(off, bits)| Leaf {
                                off,
                                bits,
                                val: if nondet {
                                    BV::new_const(namer.fresh(&format!("{name}@{off}")), bits)
                                } else {
                                    BV::from_u64(0, bits)
                                },
                            })
                            .collect(),
                    )
                } else {
                    self.bytes(name, nondet, namer)
                }
            }
            (_, None) => self.bytes(name, nondet, namer),
        };
        let size = size.or_else(|| ty.and_then(|t| t.size(tt, dm)));
        self.objects.push(Object {
            kind,
            name: name.to_string(),
            size,
            content,
            ty: ty.cloned(),
        });
        Some(id as u32)
    }

    fn bytes(&self, name: &str, nondet: bool, namer: &mut Namer) -> Content {
        if nondet {
            Content::Bytes(Array::new_const(
                namer.fresh(name),
                &self.index_sort(),
                &Sort::bitvector(8),
            ))
        } else {
            Content::Bytes(Array::const_array(&self.index_sort(), &BV::from_u64(0, 8)))
        }
    }

    /// The objects a pointer term may point into, read off the term's structure; `None`
    /// when the term does not say (a nondeterministic pointer, say).
    pub fn candidates(&self, p: &BV, defs: &HashMap<String, BV>) -> Option<Vec<u32>> {
        // An explicit work list: chains of names (a pointer stored and reloaded many
        // times) can be long.
        const BUDGET: usize = 50_000;
        let mut out = Vec::new();
        let mut seen: HashSet<String> = HashSet::new();
        let mut work: Vec<(BV, bool)> = vec![(p.clone(), false)];
        let mut steps = 0;
        while let Some((t, obj_part)) = work.pop() {
            steps += 1;
            if steps > BUDGET {
                return None;
            }
            if let Some(v) = t.as_u64() {
                out.push(if obj_part {
                    v as u32
                } else {
                    (v >> self.lay.off_bits) as u32
                });
                continue;
            }
            let Ok(decl) = t.safe_decl() else {
                return None;
            };
            let kids = t.children();
            let bv = |i: usize| kids.get(i).and_then(|k| k.as_bv());
            // A name: what it was defined as. (Tested without `DeclKind`: the crate's
            // numbering of operator kinds need not match the system libz3's.)
            if kids.is_empty() && t.is_const() {
                let name = decl.name();
                if seen.contains(&name) {
                    continue;
                }
                let def = defs.get(&name).cloned()?;
                seen.insert(name);
                work.push((def, obj_part));
                continue;
            }
            match decl.kind() {
                z3::DeclKind::Ite => {
                    work.push((bv(1)?, obj_part));
                    work.push((bv(2)?, obj_part));
                }
                // `concat(object, offset)`: pointer arithmetic as the executor builds it.
                z3::DeclKind::Concat if !obj_part => work.push((bv(0)?, true)),
                // The object part of a pointer.
                z3::DeclKind::Extract if obj_part => {
                    let p = bv(0)?;
                    if p.get_size() != self.lay.ptr_bits {
                        return None;
                    }
                    work.push((p, false));
                }
                // Pointer arithmetic: `pointer + offset` (the simplifier may put the
                // constant first). The pointer is the operand that is not a small
                // constant; if both could be pointers the term does not say.
                z3::DeclKind::Badd | z3::DeclKind::Bsub if !obj_part => {
                    let bvs: Vec<BV> = kids.iter().filter_map(|k| k.as_bv()).collect();
                    let small =
                        |b: &BV| b.as_u64().is_some_and(|v| v < (1u64 << self.lay.off_bits));
                    let is_sub = decl.kind() == z3::DeclKind::Bsub;
                    let ptrs: Vec<&BV> = bvs
                        .iter()
                        .enumerate()
                        .filter(|(i, b)| !(small(b) || is_sub && *i > 0))
                        .map(|(_, b)| b)
                        .collect();
                    match ptrs.as_slice() {
                        [] => out.push(0),
                        [one] => work.push(((*one).clone(), false)),
                        _ => return None,
                    }
                }
                _ => return None,
            }
        }
        // A pointer made from an integer (`(void *)-1`, a mutex attribute `2`) names an
        // object id no object has: it points into no object, and a store through it is
        // lost (C leaves it undefined), as a load through it is unconstrained.
        out.retain(|o| (*o as usize) < self.objects.len());
        out.sort();
        out.dedup();
        Some(out)
    }

    /// `p + delta` (delta in bytes, any width): the offset moves, the object stays.
    pub fn offset(&self, p: &BV, delta: &BV) -> BV {
        let d = if delta.get_size() >= self.lay.off_bits {
            delta.extract(self.lay.off_bits - 1, 0)
        } else {
            delta.sign_ext(self.lay.off_bits - delta.get_size())
        };
        let r = self.lay.obj_of(p).concat(self.lay.off_of(p).bvadd(&d));
        if p.as_u64().is_some() && d.simplify().as_u64().is_some() {
            r.simplify()
        } else {
            r
        }
    }

    pub fn data_objects(&self) -> Vec<u32> {
        (0..self.objects.len() as u32)
            .filter(|o| {
                self.objects
                    .get(*o as usize)
                    .is_some_and(|x| !matches!(x.content, Content::None))
            })
            .collect()
    }

    /// Reads `bits` at `p`; a pointer into no object reads an unconstrained value.
    pub fn load(&self, p: &BV, bits: u32, namer: &mut Namer) -> BV {
        if std::env::var("SEQLOC_DEBUG_MEM").is_ok() {
            eprintln!(
                "load {:?} cands {:?}",
                p.to_string().chars().take(200).collect::<String>(),
                self.candidates(p, &namer.defs)
            );
        }
        let cands = self
            .candidates(p, &namer.defs)
            .unwrap_or_else(|| self.data_objects());
        let obj = self.lay.obj_of(p);
        let off = self.lay.off_of(p).simplify();
        let mut branches: Vec<(u32, BV)> = Vec::new();
        let mut needs_default = false;
        for o in &cands {
            match self.read_object(*o, &off, bits, namer) {
                Some(v) => branches.push((*o, v)),
                None => needs_default = true,
            }
        }
        if branches.len() == 1 && !needs_default && cands.len() == 1 {
            return branches
                .pop()
                .map(|(_, v)| v)
                .unwrap_or_else(|| BV::from_u64(0, bits));
        }
        let mut acc = BV::new_const(namer.fresh("unknown"), bits);
        for (o, v) in branches.into_iter().rev() {
            let is = obj.eq(BV::from_u64(o as u64, self.lay.obj_bits));
            acc = is.ite(&v, &acc);
        }
        acc
    }

    fn read_object(&self, o: u32, off: &BV, bits: u32, namer: &mut Namer) -> Option<BV> {
        match &self.objects.get(o as usize)?.content {
            Content::None => None,
            Content::Bytes(arr) => Some(read_bytes(arr, off, bits.div_ceil(8), self.lay.off_bits))
                .map(|v| fit(v, bits)),
            Content::Leaves(leaves) => {
                if let Some(c) = off.as_u64() {
                    return Some(
                        read_leaves_at(leaves, c, bits)
                            .unwrap_or_else(|| BV::new_const(namer.fresh("unknown"), bits)),
                    );
                }
                // A symbolic offset: one of the leaves of this width.
                let mut acc: Option<BV> = None;
                for l in leaves.iter().rev() {
                    if l.bits != bits {
                        continue;
                    }
                    let here = off.eq(BV::from_u64(l.off, self.lay.off_bits));
                    acc = Some(match acc {
                        None => l.val.clone(),
                        Some(a) => here.ite(&l.val, &a),
                    });
                }
                Some(acc.unwrap_or_else(|| BV::new_const(namer.fresh("unknown"), bits)))
            }
        }
    }

    /// Writes `value` at `p` under `guard`.
    pub fn store(&mut self, p: &BV, value: &BV, guard: &Bool, namer: &mut Namer) {
        let cands = self
            .candidates(p, &namer.defs)
            .unwrap_or_else(|| self.data_objects());
        let obj = self.lay.obj_of(p);
        let off = self.lay.off_of(p).simplify();
        let single = cands.len() == 1;
        for o in cands {
            let g = if single {
                guard.clone()
            } else {
                Bool::and(&[
                    guard.clone(),
                    obj.eq(BV::from_u64(o as u64, self.lay.obj_bits)),
                ])
            };
            if g.as_bool() == Some(false) {
                continue;
            }
            self.write_object(o, &off, value, &g, namer);
        }
    }

    fn write_object(&mut self, o: u32, off: &BV, value: &BV, g: &Bool, namer: &mut Namer) {
        let off_bits = self.lay.off_bits;
        let Some(obj) = self.objects.get_mut(o as usize) else {
            return;
        };
        let name = obj.name.clone();
        match &mut obj.content {
            Content::None => {}
            Content::Bytes(arr) => {
                let new = write_bytes(arr, off, value, value.get_size().div_ceil(8), g, off_bits);
                let v = Array::new_const(
                    namer.fresh(&name),
                    &Sort::bitvector(off_bits),
                    &Sort::bitvector(8),
                );
                namer.asserts.push(v.eq(&new));
                *arr = v;
            }
            Content::Leaves(leaves) => {
                let bits = value.get_size();
                if let Some(c) = off.as_u64() {
                    write_leaves_at(leaves, c, value, g, &name, namer);
                    return;
                }
                for l in leaves.iter_mut() {
                    if l.bits != bits {
                        continue;
                    }
                    let here = Bool::and(&[g.clone(), off.eq(BV::from_u64(l.off, off_bits))]);
                    let new = here.ite(value, &l.val);
                    l.val = namer.name_bv(&format!("{name}@{}", l.off), new);
                }
            }
        }
    }
}

/// Scalar leaves of a type: (byte offset, bits). False when the type cannot be
/// represented field by field (unions, bit-fields, floats, too many leaves).
fn scalar_leaves(
    ty: &Type,
    base: u64,
    tt: &TypeTable,
    dm: DataModel,
    ptr_bits: u32,
    out: &mut Vec<(u64, u32)>,
) -> bool {
    if out.len() > MAX_LEAVES {
        return false;
    }
    match ty.resolve(tt) {
        Type::Int(k) => {
            out.push((base, k.bits(dm)));
            true
        }
        Type::Enum(_) => {
            out.push((base, 32));
            true
        }
        Type::Pointer(_) => {
            out.push((base, ptr_bits));
            true
        }
        Type::Array(e, Some(n)) => {
            let Some(es) = e.size(tt, dm) else {
                return false;
            };
            for i in 0..*n {
                if !scalar_leaves(e, base + i * es, tt, dm, ptr_bits, out) {
                    return false;
                }
            }
            true
        }
        Type::Comp(c) => {
            let def = tt.comp(*c);
            if def.is_union || !def.complete {
                return false;
            }
            let layout = tt.layout(*c, dm);
            for (i, f) in def.fields.iter().enumerate() {
                if f.bit_width.is_some() {
                    return false;
                }
                let off = layout.offsets.get(i).map(|o| o.byte).unwrap_or(0);
                if !scalar_leaves(&f.ty, base + off, tt, dm, ptr_bits, out) {
                    return false;
                }
            }
            true
        }
        _ => false,
    }
}

fn fit(v: BV, bits: u32) -> BV {
    let w = v.get_size();
    if w > bits { v.extract(bits - 1, 0) } else { v }
}

/// Reads `bits` at constant offset `c` from leaves: a whole leaf, part of one, or
/// consecutive whole leaves (little endian).
fn read_leaves_at(leaves: &[Leaf], c: u64, bits: u32) -> Option<BV> {
    if let Some(l) = leaves.iter().find(|l| l.off == c && l.bits == bits) {
        return Some(l.val.clone());
    }
    if let Some(l) = leaves
        .iter()
        .find(|l| l.off <= c && c * 8 + bits as u64 <= l.off * 8 + l.bits as u64)
    {
        let lo = ((c - l.off) * 8) as u32;
        return Some(l.val.extract(lo + bits - 1, lo));
    }
    // Spanning several leaves.
    let mut parts: Vec<BV> = Vec::new();
    let mut at = c;
    let end = c + (bits as u64).div_ceil(8);
    while at < end {
        let l = leaves.iter().find(|l| l.off == at)?;
        parts.push(l.val.clone());
        at += (l.bits as u64).div_ceil(8);
    }
    if at != end {
        return None;
    }
    let mut v: Option<BV> = None;
    for p in parts {
        v = Some(match v {
            None => p,
            Some(lower) => p.concat(&lower),
        });
    }
    v
}

fn write_leaves_at(
    leaves: &mut [Leaf],
    c: u64,
    value: &BV,
    g: &Bool,
    name: &str,
    namer: &mut Namer,
) {
    let bits = value.get_size();
    let unconditional = g.as_bool() == Some(true);
    let mut set = |l: &mut Leaf, new: BV| {
        let v = if unconditional {
            new
        } else {
            g.ite(&new, &l.val)
        };
        l.val = namer.name_bv(&format!("{name}@{}", l.off), v);
    };
    if let Some(l) = leaves.iter_mut().find(|l| l.off == c && l.bits == bits) {
        set(l, value.clone());
        return;
    }
    if let Some(l) = leaves
        .iter_mut()
        .find(|l| l.off <= c && c * 8 + bits as u64 <= l.off * 8 + l.bits as u64)
    {
        // Part of a leaf (a byte of an int): splice the bits in.
        let lo = ((c - l.off) * 8) as u32;
        let w = l.bits;
        let mut v = value.clone();
        if lo > 0 {
            v = v.concat(l.val.extract(lo - 1, 0));
        }
        if lo + bits < w {
            v = l.val.extract(w - 1, lo + bits).concat(&v);
        }
        set(l, v);
        return;
    }
    // Spanning consecutive leaves.
    let mut at = c;
    let mut consumed = 0u32;
    while consumed < bits {
        let Some(l) = leaves.iter_mut().find(|l| l.off == at) else {
            return;
        };
        let lb = l.bits.min(bits - consumed);
        let part = value.extract(consumed + lb - 1, consumed);
        let part = if lb < l.bits {
            l.val.extract(l.bits - 1, lb).concat(&part)
        } else {
            part
        };
        at += (l.bits as u64).div_ceil(8);
        consumed += lb;
        set(l, part);
    }
}

fn offset_plus(off: &BV, i: u32, off_bits: u32) -> BV {
    if i == 0 {
        off.clone()
    } else {
        off.bvadd(BV::from_u64(i as u64, off_bits)).simplify()
    }
}

pub fn read_bytes(arr: &Array, off: &BV, bytes: u32, off_bits: u32) -> BV {
    let mut v: Option<BV> = None;
    for i in 0..bytes {
        let b = arr
            .select(&offset_plus(off, i, off_bits))
            .as_bv()
            .unwrap_or_else(|| BV::from_u64(0, 8));
        v = Some(match v {
            None => b,
            Some(lower) => b.concat(&lower),
        });
    }
    v.unwrap_or_else(|| BV::from_u64(0, 8))
}

fn write_bytes(
    arr: &Array,
    off: &BV,
    value: &BV,
    bytes: u32,
    guard: &Bool,
    off_bits: u32,
) -> Array {
    let mut a = arr.clone();
    let unconditional = guard.as_bool() == Some(true);
    for i in 0..bytes {
        let idx = offset_plus(off, i, off_bits);
        let byte = value.extract(i * 8 + 7, i * 8);
        let v = if unconditional {
            byte
        } else {
            let old = arr
                .select(&idx)
                .as_bv()
                .unwrap_or_else(|| BV::from_u64(0, 8));
            guard.ite(&byte, &old)
        };
        a = a.store(&idx, &v);
    }
    a
}
