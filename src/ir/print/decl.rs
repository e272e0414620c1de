//! C declarators: a type printed inside out around a name.

use super::printer::Printer;
use crate::ir::types::*;

impl<'a> Printer<'a> {
    pub(super) fn base_name(&self, t: &Type) -> String {
        match t {
            Type::Void => "void".into(),
            Type::Int(k) => k.c_name().into(),
            Type::Float(k) => k.c_name().into(),
            Type::Comp(c) => {
                let kw = if self.tt().comp(*c).is_union {
                    "union"
                } else {
                    "struct"
                };
                format!("{kw} {}", self.comp_tags[c])
            }
            Type::Enum(e) => format!("enum {}", self.enum_tags[e]),
            Type::Typedef(t) => self.tt().typedef(*t).name.clone(),
            _ => "int".into(),
        }
    }

    /// A declaration of `name` with type `ty` (C's inside-out declarator syntax).
    pub(super) fn declare(&self, ty: &Type, name: &str) -> String {
        match ty {
            Type::Pointer(p) => {
                let inner = format!("*{name}");
                match p.unqualified() {
                    Type::Array(..) | Type::Function(_) => {
                        self.declare_pointee(p, &format!("({inner})"))
                    }
                    _ => self.declare_pointee(p, &inner),
                }
            }
            Type::Array(e, n) => {
                let dim = n.map(|n| n.to_string()).unwrap_or_default();
                self.declare(e, &format!("{name}[{dim}]"))
            }
            Type::Function(f) => {
                let params = self.param_list(f, None);
                self.declare(&f.ret, &format!("{name}({params})"))
            }
            Type::Qualified(inner, q) => match inner.as_ref() {
                Type::Pointer(_) => {
                    let qs = quals_str(*q);
                    let n = if name.is_empty() {
                        qs.trim_end().to_string()
                    } else {
                        format!("{qs}{name}")
                    };
                    self.declare(inner, &n)
                }
                Type::Array(..) => self.declare(inner, name),
                other => {
                    let base = format!("{}{}", quals_str(*q), self.base_name(other));
                    join_decl(&base, name)
                }
            },
            t => join_decl(&self.base_name(t), name),
        }
    }

    pub(super) fn declare_pointee(&self, p: &Type, inner: &str) -> String {
        self.declare(p, inner)
    }

    pub(super) fn type_name(&self, ty: &Type) -> String {
        self.declare(ty, "")
    }

    pub(super) fn type_key(&self, ty: &Type) -> String {
        match ty.resolve(self.tt()) {
            Type::Int(k) => match k {
                IntKind::Bool => "bool",
                IntKind::Char | IntKind::SChar => "char",
                IntKind::UChar => "uchar",
                IntKind::Short => "short",
                IntKind::UShort => "ushort",
                IntKind::Int => "int",
                IntKind::UInt => "uint",
                IntKind::Long => "long",
                IntKind::ULong => "ulong",
                IntKind::LongLong => "longlong",
                IntKind::ULongLong => "ulonglong",
                IntKind::Int128 => "longlong",
                IntKind::UInt128 => "ulonglong",
            }
            .into(),
            Type::Enum(_) => "int".into(),
            Type::Pointer(_) => "pointer".into(),
            Type::Float(FloatKind::Float) => "float".into(),
            Type::Float(_) => "double".into(),
            _ => "int".into(),
        }
    }
}

pub(super) fn join_decl(base: &str, name: &str) -> String {
    if name.is_empty() {
        base.to_string()
    } else {
        format!("{base} {name}")
    }
}

pub(super) fn quals_str(q: Quals) -> String {
    let mut s = String::new();
    if q.konst {
        s.push_str("const ");
    }
    if q.volatile {
        s.push_str("volatile ");
    }
    if q.restrict {
        s.push_str("__restrict ");
    }
    s
}
