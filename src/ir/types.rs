//! C types as seqloc's IR sees them.
//!
//! Types keep typedef names and qualifiers so that the printer can emit C a person recognises
//! (`pthread_mutex_t`, `const char *`), while every semantic question (width, signedness,
//! layout) goes through [`Type::resolve`], which looks through both. Sizes and layouts depend
//! on the data model (SV-COMP tasks declare ILP32 or LP64), so they are computed on demand,
//! never stored in the IR.

use serde::Serialize;

/// The integer types of C, signedness included (plain `char` is signed, as on x86).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize)]
pub enum IntKind {
    Bool,
    Char,
    SChar,
    UChar,
    Short,
    UShort,
    Int,
    UInt,
    Long,
    ULong,
    LongLong,
    ULongLong,
    Int128,
    UInt128,
}

impl IntKind {
    pub fn is_signed(self) -> bool {
        matches!(
            self,
            IntKind::Char
                | IntKind::SChar
                | IntKind::Short
                | IntKind::Int
                | IntKind::Long
                | IntKind::LongLong
                | IntKind::Int128
        )
    }

    /// Conversion rank (C11 6.3.1.1); signed and unsigned variants share a rank.
    pub fn rank(self) -> u8 {
        match self {
            IntKind::Bool => 0,
            IntKind::Char | IntKind::SChar | IntKind::UChar => 1,
            IntKind::Short | IntKind::UShort => 2,
            IntKind::Int | IntKind::UInt => 3,
            IntKind::Long | IntKind::ULong => 4,
            IntKind::LongLong | IntKind::ULongLong => 5,
            IntKind::Int128 | IntKind::UInt128 => 6,
        }
    }

    pub fn to_unsigned(self) -> IntKind {
        match self {
            IntKind::Char | IntKind::SChar => IntKind::UChar,
            IntKind::Short => IntKind::UShort,
            IntKind::Int => IntKind::UInt,
            IntKind::Long => IntKind::ULong,
            IntKind::LongLong => IntKind::ULongLong,
            IntKind::Int128 => IntKind::UInt128,
            k => k,
        }
    }

    pub fn bytes(self, dm: DataModel) -> u64 {
        match self {
            IntKind::Bool | IntKind::Char | IntKind::SChar | IntKind::UChar => 1,
            IntKind::Short | IntKind::UShort => 2,
            IntKind::Int | IntKind::UInt => 4,
            IntKind::Long | IntKind::ULong => match dm {
                DataModel::Ilp32 => 4,
                DataModel::Lp64 => 8,
            },
            IntKind::LongLong | IntKind::ULongLong => 8,
            IntKind::Int128 | IntKind::UInt128 => 16,
        }
    }

    pub fn bits(self, dm: DataModel) -> u32 {
        (self.bytes(dm) * 8) as u32
    }

    pub fn c_name(self) -> &'static str {
        match self {
            IntKind::Bool => "_Bool",
            IntKind::Char => "char",
            IntKind::SChar => "signed char",
            IntKind::UChar => "unsigned char",
            IntKind::Short => "short",
            IntKind::UShort => "unsigned short",
            IntKind::Int => "int",
            IntKind::UInt => "unsigned int",
            IntKind::Long => "long",
            IntKind::ULong => "unsigned long",
            IntKind::LongLong => "long long",
            IntKind::ULongLong => "unsigned long long",
            IntKind::Int128 => "__int128",
            IntKind::UInt128 => "unsigned __int128",
        }
    }

    /// Wraps `v` to the range of this type (two's complement), as a C conversion does.
    pub fn wrap(self, v: i128, dm: DataModel) -> i128 {
        if self == IntKind::Bool {
            return (v != 0) as i128;
        }
        let bits = self.bits(dm);
        if bits >= 128 {
            return v;
        }
        let mask = (1i128 << bits) - 1;
        let u = v & mask;
        if self.is_signed() && (u >> (bits - 1)) & 1 == 1 {
            u - (1i128 << bits)
        } else {
            u
        }
    }
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize)]
pub enum FloatKind {
    Float,
    Double,
    LongDouble,
}

impl FloatKind {
    pub fn c_name(self) -> &'static str {
        match self {
            FloatKind::Float => "float",
            FloatKind::Double => "double",
            FloatKind::LongDouble => "long double",
        }
    }
}

/// The data model of the target: SV-COMP tasks say which (`options: data_model`).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Default)]
pub enum DataModel {
    Ilp32,
    #[default]
    Lp64,
}

impl DataModel {
    pub fn pointer_bytes(self) -> u64 {
        match self {
            DataModel::Ilp32 => 4,
            DataModel::Lp64 => 8,
        }
    }

    pub fn size_t(self) -> IntKind {
        match self {
            DataModel::Ilp32 => IntKind::UInt,
            DataModel::Lp64 => IntKind::ULong,
        }
    }

    pub fn ptrdiff_t(self) -> IntKind {
        match self {
            DataModel::Ilp32 => IntKind::Int,
            DataModel::Lp64 => IntKind::Long,
        }
    }
}

/// Type qualifiers that matter for printing compatible declarations.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Default)]
pub struct Quals {
    pub konst: bool,
    pub volatile: bool,
    pub restrict: bool,
    /// C11 `_Atomic`: not printed (the printed programs never need it: seqloc refuses
    /// the read-modify-writes whose meaning it changes), kept so they can be refused.
    pub atomic: bool,
}

impl Quals {
    pub fn is_empty(self) -> bool {
        !self.konst && !self.volatile && !self.restrict && !self.atomic
    }
    pub fn union(self, o: Quals) -> Quals {
        Quals {
            konst: self.konst || o.konst,
            volatile: self.volatile || o.volatile,
            restrict: self.restrict || o.restrict,
            atomic: self.atomic || o.atomic,
        }
    }
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct CompId(pub u32);
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct EnumId(pub u32);
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct TypedefId(pub u32);

#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub enum Type {
    Void,
    Int(IntKind),
    Float(FloatKind),
    Pointer(Box<Type>),
    /// Element type and length; `None` for `T[]` (an incomplete array).
    Array(Box<Type>, Option<u64>),
    Function(Box<FuncType>),
    /// A struct or union, by its definition.
    Comp(CompId),
    Enum(EnumId),
    Typedef(TypedefId),
    Qualified(Box<Type>, Quals),
}

#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct FuncType {
    pub ret: Type,
    pub params: Vec<Type>,
    pub variadic: bool,
    /// Declared without a prototype (`int f();`): calls are not checked against `params`.
    pub unprototyped: bool,
}

#[derive(Clone, Debug)]
pub struct Field {
    /// `None` for anonymous struct/union members (C11) and unnamed bit-fields.
    pub name: Option<String>,
    pub ty: Type,
    pub bit_width: Option<u32>,
}

#[derive(Clone, Debug)]
pub struct CompDef {
    pub tag: Option<String>,
    pub is_union: bool,
    pub fields: Vec<Field>,
    /// False for a forward declaration never completed.
    pub complete: bool,
    pub loc: super::Loc,
}

#[derive(Clone, Debug)]
pub struct EnumDef {
    pub tag: Option<String>,
    pub consts: Vec<(String, i128)>,
    pub loc: super::Loc,
}

#[derive(Clone, Debug)]
pub struct TypedefDef {
    pub name: String,
    pub ty: Type,
    pub loc: super::Loc,
}

/// Where struct, union, enum and typedef definitions live; [`Type`] refers into it by id.
#[derive(Clone, Debug, Default)]
pub struct TypeTable {
    pub comps: Vec<CompDef>,
    pub enums: Vec<EnumDef>,
    pub typedefs: Vec<TypedefDef>,
}

/// Byte layout of a struct or union under one data model.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct CompLayout {
    pub size: u64,
    pub align: u64,
    /// Per field: byte offset, and for bit-fields the bit offset within the storage unit
    /// starting at that byte offset.
    pub offsets: Vec<FieldOffset>,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct FieldOffset {
    pub byte: u64,
    pub bit: Option<(u32, u32)>,
}

impl TypeTable {
    pub fn comp(&self, id: CompId) -> &CompDef {
        &self.comps[id.0 as usize]
    }
    pub fn enum_def(&self, id: EnumId) -> &EnumDef {
        &self.enums[id.0 as usize]
    }
    pub fn typedef(&self, id: TypedefId) -> &TypedefDef {
        &self.typedefs[id.0 as usize]
    }

    /// Finds a typedef by name (used to recognise `pthread_mutex_t` and friends).
    pub fn typedef_named(&self, name: &str) -> Option<TypedefId> {
        self.typedefs
            .iter()
            .position(|t| t.name == name)
            .map(|i| TypedefId(i as u32))
    }

    /// The element and member path (`[1]`, `[1].sum`, `.b`) of the byte `off` inside an
    /// object of type `ty`, for a pointer to `want`: so a pointer to `parts[1]` reads
    /// `&parts[1]` rather than `&parts (at byte 12)`, and a report or an analysis can name
    /// the element. The path goes down until the type there is `want` (or, with no `want`,
    /// a `void *`, stops at the first level the offset starts); `None` when the offset falls
    /// inside a scalar, in padding, or in a union (which member is meant is unknowable).
    pub fn path_at(
        &self,
        ty: &Type,
        off: u64,
        want: Option<&Type>,
        dm: DataModel,
    ) -> Option<String> {
        let want = want.filter(|w| !w.is_void(self)).map(|w| w.resolve(self));
        let mut path = String::new();
        let mut shallow: Option<String> = None;
        let mut ty = ty;
        let mut off = off;
        loop {
            if off == 0 {
                match want {
                    None => return Some(path),
                    Some(w) if ty.resolve(self) == w => return Some(path),
                    Some(_) => {
                        shallow.get_or_insert_with(|| path.clone());
                    }
                }
            }
            match ty.resolve(self) {
                Type::Array(e, n) => {
                    let es = e.size(self, dm).filter(|s| *s > 0)?;
                    let i = off / es;
                    if n.is_some_and(|n| i >= n) {
                        break;
                    }
                    path.push_str(&format!("[{i}]"));
                    off -= i * es;
                    ty = e;
                }
                Type::Comp(id) => {
                    let def = self.comp(*id);
                    if def.is_union || !def.complete {
                        break;
                    }
                    let lay = self.layout(*id, dm);
                    let field = def.fields.iter().zip(&lay.offsets).rev().find(|(f, o)| {
                        o.byte <= off
                            && f.bit_width.is_none()
                            && f.ty.size(self, dm).is_some_and(|s| off < o.byte + s)
                    });
                    let Some((f, o)) = field else {
                        break;
                    };
                    let name = f.name.as_deref()?;
                    path.push('.');
                    path.push_str(name);
                    off -= o.byte;
                    ty = &f.ty;
                }
                _ => break,
            }
        }
        shallow
    }

    pub fn layout(&self, id: CompId, dm: DataModel) -> CompLayout {
        let def = self.comp(id);
        let mut offsets = Vec::with_capacity(def.fields.len());
        let mut size = 0u64;
        let mut align = 1u64;
        // Bit-field packing state: the byte offset of the current storage unit, its size
        // in bytes and the bits used so far (the usual System V rules, simplified to
        // "a bit-field never straddles a unit of its declared type").
        let mut bit_unit: Option<(u64, u64, u32)> = None;
        for f in &def.fields {
            let fsize = f.ty.size(self, dm).unwrap_or(0);
            let falign = f.ty.align(self, dm);
            if let Some(w) = f.bit_width {
                let unit_bytes = fsize.max(1);
                let unit_bits = (unit_bytes * 8) as u32;
                if def.is_union {
                    offsets.push(FieldOffset {
                        byte: 0,
                        bit: Some((0, w)),
                    });
                    size = size.max(unit_bytes);
                    align = align.max(falign);
                    continue;
                }
                let fits = matches!(bit_unit, Some((_, ub, used)) if ub == unit_bytes && used + w <= unit_bits);
                if w == 0 {
                    bit_unit = None;
                    size = round_up(size, falign);
                    offsets.push(FieldOffset {
                        byte: size,
                        bit: Some((0, 0)),
                    });
                    continue;
                }
                if !fits {
                    let start = round_up(size, falign);
                    bit_unit = Some((start, unit_bytes, 0));
                    size = start + unit_bytes;
                }
                let (start, ub, used) = bit_unit.unwrap_or((size, unit_bytes, 0));
                offsets.push(FieldOffset {
                    byte: start,
                    bit: Some((used, w)),
                });
                bit_unit = Some((start, ub, used + w));
                align = align.max(falign);
                continue;
            }
            bit_unit = None;
            if def.is_union {
                offsets.push(FieldOffset { byte: 0, bit: None });
                size = size.max(fsize);
            } else {
                let off = round_up(size, falign);
                offsets.push(FieldOffset {
                    byte: off,
                    bit: None,
                });
                size = off + fsize;
            }
            align = align.max(falign);
        }
        CompLayout {
            size: round_up(size, align),
            align,
            offsets,
        }
    }

    /// Looks a member up by name, descending into anonymous members; returns the path of
    /// field indices (one per nesting level) and the member's type.
    pub fn find_member(&self, id: CompId, name: &str) -> Option<(Vec<usize>, Type)> {
        let def = self.comp(id);
        for (i, f) in def.fields.iter().enumerate() {
            match &f.name {
                Some(n) if n == name => return Some((vec![i], f.ty.clone())),
                None => {
                    if let Type::Comp(inner) = f.ty.resolve(self) {
                        if let Some((mut path, ty)) = self.find_member(*inner, name) {
                            path.insert(0, i);
                            return Some((path, ty));
                        }
                    }
                }
                _ => {}
            }
        }
        None
    }
}

pub fn round_up(v: u64, a: u64) -> u64 {
    if a <= 1 { v } else { v.div_ceil(a) * a }
}

impl Type {
    pub fn int() -> Type {
        Type::Int(IntKind::Int)
    }
    pub fn uint() -> Type {
        Type::Int(IntKind::UInt)
    }
    pub fn char() -> Type {
        Type::Int(IntKind::Char)
    }
    pub fn bool() -> Type {
        Type::Int(IntKind::Bool)
    }
    pub fn ptr(to: Type) -> Type {
        Type::Pointer(Box::new(to))
    }
    pub fn void_ptr() -> Type {
        Type::ptr(Type::Void)
    }

    /// Looks through typedefs and qualifiers.
    pub fn resolve<'a>(&'a self, tt: &'a TypeTable) -> &'a Type {
        let mut t = self;
        loop {
            match t {
                Type::Typedef(id) => t = &tt.typedef(*id).ty,
                Type::Qualified(inner, _) => t = inner,
                _ => return t,
            }
        }
    }

    /// The qualifiers at the top level (through typedefs).
    /// Whether some typedef on the way from `self` to its resolved type (through
    /// qualifiers) has a name `pred` accepts: `pthread_t` survives as a name even where
    /// it resolves to `unsigned long`.
    pub fn named_by(&self, tt: &TypeTable, pred: impl Fn(&str) -> bool) -> bool {
        let mut t = self;
        loop {
            match t {
                Type::Typedef(id) => {
                    let def = tt.typedef(*id);
                    if pred(&def.name) {
                        return true;
                    }
                    t = &def.ty;
                }
                Type::Qualified(inner, _) => t = inner,
                _ => return false,
            }
        }
    }

    pub fn quals(&self, tt: &TypeTable) -> Quals {
        let mut t = self;
        let mut q = Quals::default();
        loop {
            match t {
                Type::Typedef(id) => t = &tt.typedef(*id).ty,
                Type::Qualified(inner, qq) => {
                    q = q.union(*qq);
                    t = inner
                }
                _ => return q,
            }
        }
    }

    /// Strips top-level qualifiers but keeps typedef names (for printing).
    pub fn unqualified(&self) -> &Type {
        match self {
            Type::Qualified(inner, _) => inner.unqualified(),
            t => t,
        }
    }

    pub fn qualified(self, q: Quals) -> Type {
        if q.is_empty() {
            return self;
        }
        match self {
            Type::Qualified(inner, q0) => Type::Qualified(inner, q0.union(q)),
            t => Type::Qualified(Box::new(t), q),
        }
    }

    /// The integer kind of an integer or enum type (enums are `unsigned int` when no
    /// constant is negative, `int` otherwise, as gcc does).
    pub fn int_kind(&self, tt: &TypeTable) -> Option<IntKind> {
        match self.resolve(tt) {
            Type::Int(k) => Some(*k),
            Type::Enum(id) => {
                let def = tt.enum_def(*id);
                if def.consts.iter().any(|(_, v)| *v < 0) {
                    Some(IntKind::Int)
                } else if def.consts.iter().any(|(_, v)| *v > u32::MAX as i128) {
                    Some(IntKind::ULong)
                } else {
                    Some(IntKind::UInt)
                }
            }
            _ => None,
        }
    }

    pub fn is_integer(&self, tt: &TypeTable) -> bool {
        self.int_kind(tt).is_some()
    }
    pub fn is_pointer(&self, tt: &TypeTable) -> bool {
        matches!(self.resolve(tt), Type::Pointer(_))
    }
    pub fn is_arithmetic(&self, tt: &TypeTable) -> bool {
        self.is_integer(tt) || matches!(self.resolve(tt), Type::Float(_))
    }
    pub fn is_scalar(&self, tt: &TypeTable) -> bool {
        self.is_arithmetic(tt) || self.is_pointer(tt)
    }
    pub fn is_void(&self, tt: &TypeTable) -> bool {
        matches!(self.resolve(tt), Type::Void)
    }
    pub fn is_array(&self, tt: &TypeTable) -> bool {
        matches!(self.resolve(tt), Type::Array(..))
    }
    pub fn is_function(&self, tt: &TypeTable) -> bool {
        matches!(self.resolve(tt), Type::Function(_))
    }
    pub fn is_aggregate(&self, tt: &TypeTable) -> bool {
        matches!(self.resolve(tt), Type::Array(..) | Type::Comp(_))
    }

    /// The pointee of a pointer type.
    pub fn pointee<'a>(&'a self, tt: &'a TypeTable) -> Option<&'a Type> {
        match self.resolve(tt) {
            Type::Pointer(p) => Some(p),
            _ => None,
        }
    }

    /// The element type of an array type.
    pub fn element<'a>(&'a self, tt: &'a TypeTable) -> Option<&'a Type> {
        match self.resolve(tt) {
            Type::Array(e, _) => Some(e),
            _ => None,
        }
    }

    pub fn func<'a>(&'a self, tt: &'a TypeTable) -> Option<&'a FuncType> {
        match self.resolve(tt) {
            Type::Function(f) => Some(f),
            Type::Pointer(p) => match p.resolve(tt) {
                Type::Function(f) => Some(f),
                _ => None,
            },
            _ => None,
        }
    }

    /// Size in bytes; `None` for incomplete types, functions and `void`.
    pub fn size(&self, tt: &TypeTable, dm: DataModel) -> Option<u64> {
        match self.resolve(tt) {
            Type::Void | Type::Function(_) => None,
            Type::Int(k) => Some(k.bytes(dm)),
            Type::Enum(_) => Some(4),
            Type::Float(FloatKind::Float) => Some(4),
            Type::Float(FloatKind::Double) => Some(8),
            Type::Float(FloatKind::LongDouble) => Some(match dm {
                DataModel::Ilp32 => 12,
                DataModel::Lp64 => 16,
            }),
            Type::Pointer(_) => Some(dm.pointer_bytes()),
            Type::Array(e, n) => Some(e.size(tt, dm)? * (*n)?),
            Type::Comp(id) => {
                if tt.comp(*id).complete {
                    Some(tt.layout(*id, dm).size)
                } else {
                    None
                }
            }
            Type::Typedef(_) | Type::Qualified(..) => None,
        }
    }

    pub fn align(&self, tt: &TypeTable, dm: DataModel) -> u64 {
        match self.resolve(tt) {
            Type::Array(e, _) => e.align(tt, dm),
            Type::Comp(id) => {
                if tt.comp(*id).complete {
                    tt.layout(*id, dm).align
                } else {
                    1
                }
            }
            // i386 System V aligns 8-byte scalars to 4 inside structs.
            Type::Int(k) if dm == DataModel::Ilp32 => k.bytes(dm).min(4),
            Type::Float(FloatKind::Double) | Type::Float(FloatKind::LongDouble)
                if dm == DataModel::Ilp32 =>
            {
                4
            }
            Type::Float(FloatKind::LongDouble) => 16,
            t => t.size(tt, dm).unwrap_or(1).max(1),
        }
    }

    /// Structural compatibility, loosely: used to decide whether an implicit conversion is
    /// needed, never to reject a program gcc accepts.
    pub fn same_as(&self, other: &Type, tt: &TypeTable) -> bool {
        let (a, b) = (self.resolve(tt), other.resolve(tt));
        match (a, b) {
            (Type::Pointer(x), Type::Pointer(y)) => x.same_as(y, tt),
            (Type::Array(x, n), Type::Array(y, m)) => n == m && x.same_as(y, tt),
            (Type::Enum(_), Type::Int(_)) | (Type::Int(_), Type::Enum(_)) => {
                a.int_kind(tt) == b.int_kind(tt)
            }
            _ => a == b,
        }
    }
}

#[cfg(test)]
mod path_tests {
    use crate::ir::DataModel;

    #[test]
    fn an_offset_reads_as_the_element_and_member_it_starts() {
        let src = "struct range { int lo; int hi; int sum; }; struct range parts[2]; \
                   union u { int a; char b; } un; int main(void) { return 0; }";
        let prog = crate::frontend::load_text("t.c", src, DataModel::Lp64).expect("parses");
        let tt = &prog.types;
        let dm = DataModel::Lp64;
        let parts = &prog.var(prog.global_named("parts").expect("parts")).ty;
        let elem = parts.element(tt).expect("an array").clone();
        let int = crate::ir::Type::Int(crate::ir::IntKind::Int);
        assert_eq!(
            tt.path_at(parts, 12, Some(&elem), dm).as_deref(),
            Some("[1]")
        );
        assert_eq!(
            tt.path_at(parts, 0, Some(&elem), dm).as_deref(),
            Some("[0]")
        );
        assert_eq!(
            tt.path_at(parts, 20, Some(&int), dm).as_deref(),
            Some("[1].sum")
        );
        // A `void *` stops where the offset starts: the whole array at 0.
        assert_eq!(tt.path_at(parts, 0, None, dm).as_deref(), Some(""));
        assert_eq!(tt.path_at(parts, 12, None, dm).as_deref(), Some("[1]"));
        // Inside a scalar, or past the end: no path.
        assert_eq!(tt.path_at(parts, 13, Some(&int), dm), None);
        assert_eq!(tt.path_at(parts, 24, None, dm), None);
        // A union's member is not known.
        let un = &prog.var(prog.global_named("un").expect("un")).ty;
        assert_eq!(tt.path_at(un, 0, Some(&int), dm).as_deref(), Some(""));
    }
}
