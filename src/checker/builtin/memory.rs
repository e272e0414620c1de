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
//! choice among the places such an access may start (the leaves of that width and the
//! offsets aligned for it). Small objects with no such layout (unions, bit-fields, untyped
//! heap blocks of a known size) are leaves of one byte each, so they stay pure bit-vector
//! too: Z3's array theory under a round-robin schedule's guarded copies took minutes where
//! the same bytes as bit-vectors take seconds. Large objects and blocks of unknown size are
//! byte arrays (SMT array theory). Every new content is a named SSA constant.

use std::collections::{BTreeMap, HashMap, HashSet};

use z3::Sort;
use z3::ast::{Array, Ast, BV, Bool};

use crate::ir::*;

/// Objects with more scalar leaves than this are byte arrays.
const MAX_LEAVES: usize = 256;

/// Objects without a scalar layout up to this many bytes are one leaf per byte.
const MAX_BYTE_LEAVES: u64 = 256;

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
        let size = size.or_else(|| ty.and_then(|t| t.size(tt, dm)));
        let mut leaves = Vec::new();
        let typed = ty.is_some_and(|t| {
            scalar_leaves(t, 0, tt, dm, self.lay.ptr_bits, &mut leaves) && !leaves.is_empty()
        });
        if !typed {
            leaves = match size {
                Some(n) if n > 0 && n <= MAX_BYTE_LEAVES => (0..n).map(|off| (off, 8)).collect(),
                _ => vec![],
            };
        }
        let content = match &kind {
            ObjKind::Func(_) | ObjKind::Null => Content::None,
            _ if leaves.is_empty() => self.bytes(name, nondet, namer),
            _ => Content::Leaves(
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
            ),
        };
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

    /// The offsets `p` may have, read off its definition as [`Memory::candidates`] reads
    /// the objects: a loaded pointer is a name, so its offset is symbolic in the formula
    /// even when every definition behind it is one constant (`m->bytes` through a
    /// parameter). `None` when the term does not say or allows too many.
    fn offsets(&self, p: &BV, defs: &HashMap<String, BV>) -> Option<Vec<u64>> {
        let mut memo = HashMap::new();
        let mut steps = 0;
        let values = possible_values(p, defs, &mut memo, &mut steps, 0)?;
        let mask = (1u64 << self.lay.off_bits) - 1;
        let mut out: Vec<u64> = values.into_iter().map(|v| v & mask).collect();
        out.sort_unstable();
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
        let t = self.target(p, &namer.defs);
        let (cands, off, reach) = (&t.objects, &t.off, t.reach());
        let obj = self.lay.obj_of(p);
        let mut branches: Vec<(u32, BV)> = Vec::new();
        let mut needs_default = false;
        for o in cands {
            match self.read_object(*o, off, reach, bits, namer) {
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

    /// Where an access through `p` may land, as far as its definitions say.
    fn target(&self, p: &BV, defs: &HashMap<String, BV>) -> Target {
        let (off, offsets) = self.offset_of(p, defs);
        let found = self.candidates(p, defs);
        Target {
            objects_known: found.is_some(),
            objects: found.unwrap_or_else(|| self.data_objects()),
            off,
            offsets,
        }
    }

    /// The offset of `p`, a numeral when its definition allows one value, with the values
    /// it may take when they are few.
    fn offset_of(&self, p: &BV, defs: &HashMap<String, BV>) -> (BV, Option<Vec<u64>>) {
        let off = self.lay.off_of(p).simplify();
        if off.as_u64().is_some() {
            return (off, None);
        }
        match self.offsets(p, defs) {
            Some(v) if v.len() == 1 => {
                let c = v.first().copied().unwrap_or(0);
                (BV::from_u64(c, self.lay.off_bits), None)
            }
            v => (off, v),
        }
    }

    fn read_object(
        &self,
        o: u32,
        off: &BV,
        reach: Reach,
        bits: u32,
        namer: &mut Namer,
    ) -> Option<BV> {
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
                // A symbolic offset: one of the places the access may start. (Anywhere
                // else is outside the object or misaligned, which C leaves undefined: the
                // last place stands for it, as it did when only leaves of the access's
                // width were places, and the formula stays as small.)
                let mut acc: Option<BV> = None;
                for c in symbolic_starts(leaves, bits, self.lay.ptr_bits, reach)
                    .into_iter()
                    .rev()
                {
                    if let Some(v) = read_leaves_at(leaves, c, bits) {
                        acc = Some(match acc {
                            None => v,
                            Some(a) => off.eq(BV::from_u64(c, self.lay.off_bits)).ite(&v, &a),
                        });
                    }
                }
                Some(acc.unwrap_or_else(|| BV::new_const(namer.fresh("unknown"), bits)))
            }
        }
    }

    /// Writes `value` at `p` under `guard`.
    pub fn store(&mut self, p: &BV, value: &BV, guard: &Bool, namer: &mut Namer) {
        let t = self.target(p, &namer.defs);
        let (cands, off, reach) = (&t.objects, &t.off, t.reach());
        let obj = self.lay.obj_of(p);
        let single = cands.len() == 1;
        for &o in cands {
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
            self.write_object(o, off, reach, value, &g, namer);
        }
    }

    fn write_object(
        &mut self,
        o: u32,
        off: &BV,
        reach: Reach,
        value: &BV,
        g: &Bool,
        namer: &mut Namer,
    ) {
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
                // A symbolic offset: each leaf the write may touch becomes a choice
                // among what each possible start would leave in it.
                let mut chains: BTreeMap<usize, BV> = BTreeMap::new();
                let unconditional = g.as_bool() == Some(true);
                for c in symbolic_starts(leaves, bits, self.lay.ptr_bits, reach) {
                    let Some(parts) = splice_at(leaves, c, value) else {
                        continue;
                    };
                    let at = off.eq(BV::from_u64(c, off_bits));
                    let here = if unconditional {
                        at
                    } else {
                        Bool::and(&[g.clone(), at])
                    };
                    for (i, v) in parts {
                        let Some(l) = leaves.get(i) else {
                            continue;
                        };
                        let base = chains.remove(&i).unwrap_or_else(|| l.val.clone());
                        chains.insert(i, here.ite(&v, &base));
                    }
                }
                for (i, new) in chains {
                    let Some(l) = leaves.get_mut(i) else {
                        continue;
                    };
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

/// At most this many values are tracked per term by [`possible_values`].
const MAX_VALUES: usize = 64;

/// Every value a bit-vector term may take, when its definitions (through `defs`) leave
/// only a few: numerals, names, `ite` (both branches) and any operator over operands with
/// few values (evaluated by substituting them). A superset of the term's values, or `None`.
fn possible_values(
    t: &BV,
    defs: &HashMap<String, BV>,
    memo: &mut HashMap<String, Option<Vec<u64>>>,
    steps: &mut usize,
    depth: usize,
) -> Option<Vec<u64>> {
    // Bounds keep a long chain of names from costing more than the access it serves.
    const BUDGET: usize = 20_000;
    const MAX_DEPTH: usize = 200;
    *steps += 1;
    if *steps > BUDGET || depth > MAX_DEPTH || t.get_size() > 64 {
        return None;
    }
    if let Some(v) = t.as_u64() {
        return Some(vec![v]);
    }
    let decl = t.safe_decl().ok()?;
    let kids = t.children();
    if kids.is_empty() && t.is_const() {
        let name = decl.name();
        if let Some(known) = memo.get(&name) {
            return known.clone();
        }
        // Cut cycles (none are expected in SSA definitions): unknown while in progress.
        memo.insert(name.clone(), None);
        let def = defs.get(&name).cloned();
        let r = def.and_then(|d| possible_values(&d, defs, memo, steps, depth + 1));
        memo.insert(name, r.clone());
        return r;
    }
    if decl.kind() == z3::DeclKind::Ite {
        let a = possible_values(&kids.get(1)?.as_bv()?, defs, memo, steps, depth + 1)?;
        let b = possible_values(&kids.get(2)?.as_bv()?, defs, memo, steps, depth + 1)?;
        let mut v: Vec<u64> = a.into_iter().chain(b).collect();
        v.sort_unstable();
        v.dedup();
        return (v.len() <= MAX_VALUES).then_some(v);
    }
    let operands: Vec<BV> = kids.iter().map(|k| k.as_bv()).collect::<Option<_>>()?;
    let mut combos: Vec<Vec<(BV, BV)>> = vec![vec![]];
    for k in &operands {
        let vals = possible_values(k, defs, memo, steps, depth + 1)?;
        if combos.len() * vals.len() > MAX_VALUES {
            return None;
        }
        combos = combos
            .into_iter()
            .flat_map(|c| {
                vals.iter().map(move |v| {
                    let mut c = c.clone();
                    c.push((k.clone(), BV::from_u64(*v, k.get_size())));
                    c
                })
            })
            .collect();
    }
    let mut out = Vec::new();
    for c in combos {
        let pairs: Vec<(&BV, &BV)> = c.iter().map(|(a, b)| (a, b)).collect();
        out.push(t.substitute(&pairs).simplify().as_u64()?);
    }
    out.sort_unstable();
    out.dedup();
    Some(out)
}

/// The objects an access may touch (every data object when its pointer does not say) and
/// its offset.
struct Target {
    objects: Vec<u32>,
    objects_known: bool,
    off: BV,
    offsets: Option<Vec<u64>>,
}

/// What a pointer's definition says about where an access through it may start.
#[derive(Clone, Copy)]
enum Reach<'a> {
    /// These offsets.
    Offsets(&'a [u64]),
    /// Its objects are known, not its offset: anywhere it may start in them.
    Anywhere,
    /// Not even its objects are known (a pointer never assigned on this path, say): the
    /// typed view, as a well-typed program reads memory.
    Typed,
}

impl Target {
    fn reach(&self) -> Reach<'_> {
        match &self.offsets {
            Some(v) => Reach::Offsets(v),
            None if self.objects_known => Reach::Anywhere,
            None => Reach::Typed,
        }
    }
}

/// The start offsets an access of `bits` at a symbolic offset may have: those its pointer's
/// definition allows when they are known; else the offsets aligned for its size within
/// the object (C leaves a misaligned access undefined) and the leaves of exactly its width
/// (a packed struct's fields). With [`Reach::Typed`] only the latter, except in objects of
/// bytes (unions, untyped blocks, char arrays), which have no typed view.
fn symbolic_starts(leaves: &[Leaf], bits: u32, ptr_bits: u32, reach: Reach) -> Vec<u64> {
    let same_width = leaves.iter().filter(|l| l.bits == bits).map(|l| l.off);
    match reach {
        Reach::Offsets(k) => return k.to_vec(),
        Reach::Typed if leaves.iter().any(|l| l.bits != 8) => return same_width.collect(),
        _ => {}
    }
    let bytes = u64::from(bits.div_ceil(8)).max(1);
    let end = leaves
        .iter()
        .map(|l| l.off + u64::from(l.bits.div_ceil(8)))
        .max()
        .unwrap_or(0);
    // The largest power of two dividing the size, as C's scalar types are aligned, but no
    // more than a pointer (i386 aligns 8-byte integers to 4).
    let align = (1u64 << bytes.trailing_zeros()).min(u64::from(ptr_bits / 8).max(1));
    let mut out: Vec<u64> = (0..end)
        .step_by(align as usize)
        .filter(|c| c + bytes <= end)
        .collect();
    out.extend(same_width);
    out.sort_unstable();
    out.dedup();
    out
}

/// The leaf holding byte `c`, with the bit where that byte starts in it.
fn leaf_of_byte(leaves: &[Leaf], c: u64) -> Option<(usize, u32)> {
    let i = leaves
        .iter()
        .position(|l| l.off <= c && c < l.off + u64::from(l.bits / 8))?;
    let l = leaves.get(i)?;
    Some((i, ((c - l.off) * 8) as u32))
}

/// Reads `bits` at constant offset `c` from leaves (little endian): a whole leaf, part of
/// one, consecutive whole leaves, or else byte by byte from whatever leaves hold them.
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
    if bits % 8 != 0 {
        return None;
    }
    let mut v: Option<BV> = None;
    for k in 0..u64::from(bits / 8) {
        let (i, lo) = leaf_of_byte(leaves, c + k)?;
        let byte = leaves.get(i)?.val.extract(lo + 7, lo);
        v = Some(match v {
            None => byte,
            Some(lower) => byte.concat(&lower),
        });
    }
    v
}

/// What writing `value` at constant offset `c` leaves in the leaves it touches, as
/// (leaf index, new value); `None` when some byte it writes is in no leaf.
fn splice_at(leaves: &[Leaf], c: u64, value: &BV) -> Option<Vec<(usize, BV)>> {
    let bits = value.get_size();
    if let Some(i) = leaves.iter().position(|l| l.off == c && l.bits == bits) {
        return Some(vec![(i, value.clone())]);
    }
    if let Some(i) = leaves
        .iter()
        .position(|l| l.off <= c && c * 8 + bits as u64 <= l.off * 8 + l.bits as u64)
    {
        let l = leaves.get(i)?;
        return Some(vec![(i, splice(&l.val, ((c - l.off) * 8) as u32, value))]);
    }
    if bits % 8 != 0 {
        return None;
    }
    // Byte by byte: whole leaves and parts of leaves alike.
    let mut out: Vec<(usize, BV)> = Vec::new();
    for k in 0..bits / 8 {
        let (i, lo) = leaf_of_byte(leaves, c + u64::from(k))?;
        let byte = value.extract(k * 8 + 7, k * 8);
        let pos = match out.iter().position(|(j, _)| *j == i) {
            Some(p) => p,
            None => {
                out.push((i, leaves.get(i)?.val.clone()));
                out.len() - 1
            }
        };
        let slot = out.get_mut(pos)?;
        slot.1 = splice(&slot.1, lo, &byte);
    }
    Some(out)
}

/// `old` with `part` written over its bits from `lo` up.
fn splice(old: &BV, lo: u32, part: &BV) -> BV {
    let w = old.get_size();
    let bits = part.get_size();
    let mut v = part.clone();
    if lo > 0 {
        v = v.concat(old.extract(lo - 1, 0));
    }
    if lo + bits < w {
        v = old.extract(w - 1, lo + bits).concat(&v);
    }
    v
}

/// Writes `value` at constant offset `c` under `g`; a write into no leaf is lost (it is
/// outside the object: C leaves it undefined).
fn write_leaves_at(
    leaves: &mut [Leaf],
    c: u64,
    value: &BV,
    g: &Bool,
    name: &str,
    namer: &mut Namer,
) {
    let Some(parts) = splice_at(leaves, c, value) else {
        return;
    };
    let unconditional = g.as_bool() == Some(true);
    for (i, new) in parts {
        let Some(l) = leaves.get_mut(i) else {
            continue;
        };
        let v = if unconditional {
            new
        } else {
            g.ite(&new, &l.val)
        };
        l.val = namer.name_bv(&format!("{name}@{}", l.off), v);
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

#[cfg(test)]
mod tests {
    use super::*;
    use z3::{SatResult, Solver};

    fn namer() -> Namer {
        Namer {
            asserts: vec![],
            counter: 0,
            defs: HashMap::new(),
        }
    }

    /// Whether `claim` holds in every model of what the memory asserted.
    fn always(n: &Namer, claim: &Bool) -> bool {
        let s = Solver::new();
        for a in &n.asserts {
            s.assert(a);
        }
        s.assert(claim.not());
        s.check() == SatResult::Unsat
    }

    fn object(mem: &mut Memory, n: &mut Namer, ty: Option<&Type>, size: Option<u64>) -> u32 {
        mem.alloc(
            ObjKind::Temp,
            "o",
            ty,
            size,
            false,
            &TypeTable::default(),
            DataModel::Lp64,
            n,
        )
        .expect("an object id")
    }

    /// A pointer to object `o` at a symbolic offset `idx * scale` with `idx < count`.
    fn at_index(mem: &Memory, n: &mut Namer, o: u32, scale: u64, count: u64) -> BV {
        let idx = BV::new_const("idx", mem.lay.off_bits);
        n.asserts
            .push(idx.bvult(BV::from_u64(count, mem.lay.off_bits)));
        let base = mem.lay.pointer(o, 0);
        let delta = idx.bvmul(BV::from_u64(scale, mem.lay.off_bits));
        mem.offset(&base, &delta)
    }

    /// A memory holding one `int` array of `len` elements, and the array's object.
    fn int_array(len: u64) -> (Namer, Memory, u32) {
        let mut n = namer();
        let mut mem = Memory::new(Layout::new(DataModel::Lp64));
        let ints = Type::Array(Box::new(Type::Int(IntKind::Int)), Some(len));
        let o = object(&mut mem, &mut n, Some(&ints), None);
        (n, mem, o)
    }

    /// A struct copied byte by byte into an `int` array at a symbolic index lands in the
    /// ints (it was lost: a byte store found no leaf of its width).
    #[test]
    fn bytes_written_at_a_symbolic_offset_land_in_wider_leaves() {
        let (mut n, mut mem, o) = int_array(6);
        let p = at_index(&mem, &mut n, o, 8, 3);
        let value = BV::from_u64(0x0000_0002_0000_0001, 64);
        for i in 0..8u64 {
            let byte = value.extract(i as u32 * 8 + 7, i as u32 * 8);
            let q = mem.offset(&p, &BV::from_u64(i, 64));
            mem.store(&q, &byte, &Bool::from_bool(true), &mut n);
        }
        let first = mem.load(&p, 32, &mut n);
        let second = mem.load(&mem.offset(&p, &BV::from_u64(4, 64)), 32, &mut n);
        assert!(always(&n, &first.eq(BV::from_u64(1, 32))));
        assert!(always(&n, &second.eq(BV::from_u64(2, 32))));
    }

    /// An object without a scalar layout (an untyped block) is bytes as bit-vectors: a
    /// `long` written at a symbolic offset reads back whole, and its neighbours keep theirs.
    #[test]
    fn an_untyped_block_is_byte_leaves_and_keeps_what_was_written() {
        let mut n = namer();
        let mut mem = Memory::new(Layout::new(DataModel::Lp64));
        let o = object(&mut mem, &mut n, None, Some(24));
        let Some(Object {
            content: Content::Leaves(leaves),
            ..
        }) = mem.objects.get(o as usize)
        else {
            panic!("a 24-byte block should be byte leaves");
        };
        assert_eq!(leaves.len(), 24);
        let neighbour = mem.offset(&mem.lay.pointer(o, 0), &BV::from_u64(16, 64));
        mem.store(
            &neighbour,
            &BV::from_u64(7, 64),
            &Bool::from_bool(true),
            &mut n,
        );
        let p = at_index(&mem, &mut n, o, 8, 2);
        mem.store(
            &p,
            &BV::from_u64(0x1122_3344_5566_7788, 64),
            &Bool::from_bool(true),
            &mut n,
        );
        let back = mem.load(&p, 64, &mut n);
        let third = mem.load(&neighbour, 64, &mut n);
        assert!(always(
            &n,
            &back.eq(BV::from_u64(0x1122_3344_5566_7788, 64))
        ));
        assert!(always(&n, &third.eq(BV::from_u64(7, 64))));
        // The low half of the write, read as an `int` at the same symbolic place.
        let low = mem.load(&p, 32, &mut n);
        assert!(always(&n, &low.eq(BV::from_u64(0x5566_7788, 32))));
    }

    /// A loaded pointer is a name; the offsets it may have are read off what it names, so
    /// an access through it touches only those places.
    #[test]
    fn a_named_pointer_has_the_offsets_of_its_definition() {
        let (mut n, mut mem, o) = int_array(4);
        let c = Bool::new_const("c");
        let base = mem.lay.pointer(o, 0);
        let either = c.ite(
            &mem.offset(&base, &BV::from_u64(4, 64)),
            &mem.offset(&base, &BV::from_u64(8, 64)),
        );
        let p = n.name_bv("p", either);
        assert_eq!(mem.offsets(&p, &n.defs), Some(vec![4, 8]));
        let free = BV::new_const("free", 64);
        assert_eq!(mem.offsets(&free, &n.defs), None);
        mem.store(&p, &BV::from_u64(9, 32), &Bool::from_bool(true), &mut n);
        let at4 = mem.load(&mem.offset(&base, &BV::from_u64(4, 64)), 32, &mut n);
        let at0 = mem.load(&base, 32, &mut n);
        assert!(always(&n, &c.implies(at4.eq(BV::from_u64(9, 32)))));
        assert!(always(&n, &at0.eq(BV::from_u64(0, 32))));
    }

    /// Large blocks stay SMT arrays.
    #[test]
    fn a_large_block_is_an_array() {
        let mut n = namer();
        let mut mem = Memory::new(Layout::new(DataModel::Lp64));
        let o = object(&mut mem, &mut n, None, Some(MAX_BYTE_LEAVES + 1));
        assert!(matches!(
            mem.objects.get(o as usize).map(|x| &x.content),
            Some(Content::Bytes(_))
        ));
    }
}
