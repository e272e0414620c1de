//! Declaration specifiers, declarators, struct/union/enum definitions and type names.

use lang_c::ast;
use lang_c::span::{Node, Span};

use super::{Binding, Declared, Lowerer, ParamDecl, R, Specs, Tag};
use crate::ir::consteval::eval_int;
use crate::ir::*;

#[derive(Default)]
struct TypeSpecCount {
    void: bool,
    char: bool,
    short: bool,
    int: bool,
    long: u8,
    float: bool,
    double: bool,
    signed: bool,
    unsigned: bool,
    bool_: bool,
    complex: bool,
    int128: bool,
    named: Option<Type>,
}

impl Lowerer<'_, '_> {
    pub(super) fn specifiers(
        &mut self,
        specs: &[Node<ast::DeclarationSpecifier>],
        span: Span,
    ) -> R<Specs> {
        let mut count = TypeSpecCount::default();
        let mut quals = Quals::default();
        let mut storage = None;
        let mut inline = false;
        let mut noreturn = false;
        let mut thread_local = false;
        let mut mode = None;
        for s in specs {
            match &s.node {
                ast::DeclarationSpecifier::StorageClass(sc) => match sc.node {
                    ast::StorageClassSpecifier::ThreadLocal => thread_local = true,
                    ast::StorageClassSpecifier::Auto | ast::StorageClassSpecifier::Register => {}
                    ref other => storage = Some(other.clone()),
                },
                ast::DeclarationSpecifier::TypeSpecifier(ts) => self.type_spec(ts, &mut count)?,
                ast::DeclarationSpecifier::TypeQualifier(q) => qual(&q.node, &mut quals),
                ast::DeclarationSpecifier::Function(f) => match f.node {
                    ast::FunctionSpecifier::Inline => inline = true,
                    ast::FunctionSpecifier::Noreturn => noreturn = true,
                },
                ast::DeclarationSpecifier::Alignment(_) => {}
                ast::DeclarationSpecifier::Extension(exts) => {
                    self.extensions(exts, &mut noreturn, &mut mode)
                }
            }
        }
        let mut ty = self.combine(count, span)?;
        if let Some(bytes) = mode {
            ty = mode_type(&ty, bytes, self.tt());
        }
        Ok(Specs {
            ty: ty.qualified(quals),
            storage,
            inline,
            noreturn,
            thread_local,
        })
    }

    fn extensions(
        &mut self,
        exts: &[Node<ast::Extension>],
        noreturn: &mut bool,
        mode: &mut Option<u64>,
    ) {
        for e in exts {
            if let ast::Extension::Attribute(a) = &e.node {
                let name = a.name.node.trim_matches('_');
                match name {
                    "noreturn" => *noreturn = true,
                    "mode" => {
                        if let Some(arg) = a.arguments.first() {
                            if let ast::Expression::Identifier(id) = &arg.node {
                                *mode = match id.node.name.trim_matches('_') {
                                    "QI" | "byte" => Some(1),
                                    "HI" => Some(2),
                                    "SI" => Some(4),
                                    "DI" => Some(8),
                                    "TI" => Some(16),
                                    "word" | "pointer" => Some(self.dm().pointer_bytes()),
                                    _ => None,
                                };
                            }
                        }
                    }
                    _ => {}
                }
            }
        }
    }

    fn type_spec(&mut self, ts: &Node<ast::TypeSpecifier>, c: &mut TypeSpecCount) -> R<()> {
        match &ts.node {
            ast::TypeSpecifier::Void => c.void = true,
            ast::TypeSpecifier::Char => c.char = true,
            ast::TypeSpecifier::Short => c.short = true,
            ast::TypeSpecifier::Int => c.int = true,
            ast::TypeSpecifier::Long => c.long += 1,
            ast::TypeSpecifier::Float => c.float = true,
            ast::TypeSpecifier::Double => c.double = true,
            ast::TypeSpecifier::Signed => c.signed = true,
            ast::TypeSpecifier::Unsigned => c.unsigned = true,
            ast::TypeSpecifier::Bool => c.bool_ = true,
            ast::TypeSpecifier::Complex => c.complex = true,
            ast::TypeSpecifier::Atomic(tn) => {
                let atomic = Quals {
                    atomic: true,
                    ..Quals::default()
                };
                c.named = Some(self.type_name(tn)?.qualified(atomic))
            }
            ast::TypeSpecifier::Struct(st) => c.named = Some(self.struct_type(st)?),
            ast::TypeSpecifier::Enum(et) => c.named = Some(self.enum_type(et)?),
            ast::TypeSpecifier::TypedefName(id) => {
                if id.node.name == "__int128" || id.node.name == "__int128_t" {
                    c.int128 = true;
                    return Ok(());
                }
                if id.node.name == "__uint128_t" {
                    c.int128 = true;
                    c.unsigned = true;
                    return Ok(());
                }
                match self.lookup(&id.node.name) {
                    Some(Binding::Typedef(t)) => c.named = Some(Type::Typedef(*t)),
                    _ if id.node.name == "__builtin_va_list" => {
                        c.named = Some(Type::ptr(Type::Void))
                    }
                    _ => {
                        return Err(
                            self.error(id.span, format!("unknown type name `{}`", id.node.name))
                        );
                    }
                }
            }
            ast::TypeSpecifier::TypeOf(t) => {
                c.named = Some(match &t.node {
                    ast::TypeOf::Type(tn) => self.type_name(tn)?,
                    ast::TypeOf::Expression(e) => self.expr(e)?.ty,
                })
            }
            ast::TypeSpecifier::TS18661Float(_) => {
                return Err(self.unsupported(ts.span, "_FloatN types"));
            }
        }
        Ok(())
    }

    fn combine(&mut self, c: TypeSpecCount, span: Span) -> R<Type> {
        if let Some(t) = c.named {
            return Ok(t);
        }
        if c.complex {
            return Err(self.unsupported(span, "_Complex types"));
        }
        if c.void {
            return Ok(Type::Void);
        }
        if c.bool_ {
            return Ok(Type::bool());
        }
        if c.float {
            return Ok(Type::Float(FloatKind::Float));
        }
        if c.double {
            return Ok(Type::Float(if c.long > 0 {
                FloatKind::LongDouble
            } else {
                FloatKind::Double
            }));
        }
        let k = if c.int128 {
            IntKind::Int128
        } else if c.char {
            if c.unsigned {
                IntKind::UChar
            } else if c.signed {
                IntKind::SChar
            } else {
                IntKind::Char
            }
        } else if c.short {
            IntKind::Short
        } else if c.long >= 2 {
            IntKind::LongLong
        } else if c.long == 1 {
            IntKind::Long
        } else {
            IntKind::Int
        };
        Ok(Type::Int(if c.unsigned && k != IntKind::UChar {
            k.to_unsigned()
        } else {
            k
        }))
    }

    pub(super) fn type_name(&mut self, tn: &Node<ast::TypeName>) -> R<Type> {
        let base = self.spec_quals(&tn.node.specifiers, tn.span)?;
        match &tn.node.declarator {
            Some(d) => {
                let decl = self.declarator(base, d)?;
                if decl.vla {
                    return Err(self.unsupported(
                        tn.span,
                        "a variable-length array type in a type name (`sizeof(int[n])`, a cast)",
                    ));
                }
                Ok(decl.ty)
            }
            None => Ok(base),
        }
    }

    fn spec_quals(&mut self, sq: &[Node<ast::SpecifierQualifier>], span: Span) -> R<Type> {
        let mut count = TypeSpecCount::default();
        let mut quals = Quals::default();
        let mut mode = None;
        let mut noreturn = false;
        for s in sq {
            match &s.node {
                ast::SpecifierQualifier::TypeSpecifier(ts) => self.type_spec(ts, &mut count)?,
                ast::SpecifierQualifier::TypeQualifier(q) => qual(&q.node, &mut quals),
                ast::SpecifierQualifier::Extension(e) => {
                    self.extensions(e, &mut noreturn, &mut mode)
                }
            }
        }
        let mut ty = self.combine(count, span)?;
        if let Some(bytes) = mode {
            ty = mode_type(&ty, bytes, self.tt());
        }
        Ok(ty.qualified(quals))
    }

    /// Applies a declarator to a base type: pointers bind first, then array and function
    /// suffixes from the innermost (rightmost) out, then any nested declarator.
    pub(super) fn declarator(&mut self, base: Type, d: &Node<ast::Declarator>) -> R<Declared> {
        let mut ty = base;
        let mut params = Vec::new();
        let mut vla = false;
        // The length of the outermost array when it alone is variable (`int a[n][4]`).
        let mut vla_len: Option<Expr> = None;
        let mut mode = None;
        let mut noreturn = false;
        self.extensions(&d.node.extensions, &mut noreturn, &mut mode);
        if let Some(bytes) = mode {
            ty = mode_type(&ty, bytes, self.tt());
        }
        for dd in &d.node.derived {
            if let ast::DerivedDeclarator::Pointer(q) = &dd.node {
                ty = Type::ptr(ty);
                let mut quals = Quals::default();
                for pq in q {
                    if let ast::PointerQualifier::TypeQualifier(tq) = &pq.node {
                        qual(&tq.node, &mut quals);
                    }
                }
                ty = ty.qualified(quals);
            }
        }
        for dd in d.node.derived.iter().rev() {
            // Whatever is applied now wraps the arrays so far: a variable length among
            // them is no longer the outermost.
            if !matches!(dd.node, ast::DerivedDeclarator::Pointer(_)) {
                vla_len = None;
            }
            match &dd.node {
                ast::DerivedDeclarator::Pointer(_) => {}
                ast::DerivedDeclarator::Array(a) => {
                    let len = match &a.node.size {
                        ast::ArraySize::Unknown | ast::ArraySize::VariableUnknown => None,
                        ast::ArraySize::VariableExpression(e)
                        | ast::ArraySize::StaticExpression(e) => {
                            // In a prototype the length may name an earlier parameter,
                            // which is in no scope yet: a variable length all the same
                            // (adjusted away when it is the outermost).
                            let ex = match self.expr(e) {
                                Ok(ex) => Some(ex),
                                Err(_) if self.in_parameters > 0 => None,
                                Err(err) => return Err(err),
                            };
                            match ex.as_ref().and_then(|x| eval_int(x, self.tt(), self.dm())) {
                                Some(v) if v >= 0 => Some(v as u64),
                                Some(_) => {
                                    return Err(self.error(e.span, "array size is negative"));
                                }
                                None => {
                                    let len = ex.unwrap_or_else(|| {
                                        Expr::new(ExprKind::Int(1), Type::int(), Loc::SYNTH)
                                    });
                                    vla_len = (!vla).then_some(len);
                                    vla = true;
                                    Some(1)
                                }
                            }
                        }
                    };
                    ty = Type::Array(Box::new(ty), len);
                }
                ast::DerivedDeclarator::Function(fd) => {
                    let (ptys, pdecls, variadic) = self.parameters(&fd.node)?;
                    params = pdecls;
                    ty = Type::Function(Box::new(FuncType {
                        ret: ty,
                        params: ptys,
                        variadic,
                        unprototyped: false,
                    }));
                }
                ast::DerivedDeclarator::KRFunction(ids) => {
                    if !ids.is_empty() {
                        return Err(self.unsupported(dd.span, "K&R-style parameter list"));
                    }
                    params.clear();
                    ty = Type::Function(Box::new(FuncType {
                        ret: ty,
                        params: vec![],
                        variadic: false,
                        unprototyped: true,
                    }));
                }
                ast::DerivedDeclarator::Block(_) => {
                    return Err(self.unsupported(dd.span, "block pointers (`^`)"));
                }
            }
        }
        match &d.node.kind.node {
            ast::DeclaratorKind::Abstract => Ok(Declared {
                name: None,
                ty,
                loc: self.loc(d.span),
                params,
                vla,
                vla_len,
            }),
            ast::DeclaratorKind::Identifier(id) => Ok(Declared {
                name: Some(id.node.name.clone()),
                ty,
                loc: self.loc(id.span),
                params,
                vla,
                vla_len,
            }),
            ast::DeclaratorKind::Declarator(inner) => {
                let mut r = self.declarator(ty, inner)?;
                if r.params.is_empty() {
                    r.params = params;
                }
                if vla {
                    // `int (*p)[n]`: a variable length inside what the inner declarator
                    // makes of it.
                    r.vla = true;
                    r.vla_len = None;
                }
                Ok(r)
            }
        }
    }

    fn parameters(&mut self, fd: &ast::FunctionDeclarator) -> R<(Vec<Type>, Vec<ParamDecl>, bool)> {
        self.in_parameters += 1;
        let r = self.parameter_list(fd);
        self.in_parameters -= 1;
        r
    }

    fn parameter_list(
        &mut self,
        fd: &ast::FunctionDeclarator,
    ) -> R<(Vec<Type>, Vec<ParamDecl>, bool)> {
        let mut tys = Vec::new();
        let mut decls = Vec::new();
        for p in &fd.parameters {
            let specs = self.specifiers(&p.node.specifiers, p.span)?;
            let d = match &p.node.declarator {
                Some(d) => self.declarator(specs.ty.clone(), d)?,
                None => Declared {
                    name: None,
                    ty: specs.ty.clone(),
                    loc: self.loc(p.span),
                    params: vec![],
                    vla: false,
                    vla_len: None,
                },
            };
            // `(void)` means no parameters.
            if fd.parameters.len() == 1 && d.name.is_none() && d.ty.is_void(self.tt()) {
                break;
            }
            // `int a[n]` is a pointer like `int a[]`; `int a[][n]` a pointer to rows of a
            // length not known here.
            if d.vla && d.vla_len.is_none() {
                return Err(self.unsupported(
                    p.span,
                    "a parameter whose type has a variable length inside it (`int a[][n]`)",
                ));
            }
            let ty = adjust_param(d.ty.clone(), self.tt());
            tys.push(ty.clone());
            decls.push(ParamDecl {
                name: d.name,
                ty,
                loc: d.loc,
            });
        }
        Ok((tys, decls, fd.ellipsis == ast::Ellipsis::Some))
    }

    fn struct_type(&mut self, st: &Node<ast::StructType>) -> R<Type> {
        let is_union = st.node.kind.node == ast::StructKind::Union;
        let tag = st.node.identifier.as_ref().map(|i| i.node.name.clone());
        let loc = self.loc(st.span);
        let Some(decls) = &st.node.declarations else {
            // A reference (or forward declaration).
            if let Some(t) = &tag {
                if let Some(Tag::Comp(id)) = self.lookup_tag(t) {
                    return Ok(Type::Comp(id));
                }
            }
            let id = self.new_comp(tag.clone(), is_union, loc);
            return Ok(Type::Comp(id));
        };
        // A definition: complete a forward declaration from this scope, or make a new one.
        let id = match tag
            .as_ref()
            .and_then(|t| self.tags.last().and_then(|s| s.get(t)).copied())
        {
            Some(Tag::Comp(id)) if !self.tt().comp(id).complete => id,
            _ => self.new_comp(tag.clone(), is_union, loc),
        };
        let mut fields = Vec::new();
        for d in decls {
            let ast::StructDeclaration::Field(f) = &d.node else {
                continue;
            };
            let base = self.spec_quals(&f.node.specifiers, f.span)?;
            if f.node.declarators.is_empty() {
                // An anonymous struct or union member.
                fields.push(Field {
                    name: None,
                    ty: base,
                    bit_width: None,
                });
                continue;
            }
            for sd in &f.node.declarators {
                let decl = match &sd.node.declarator {
                    Some(dd) => self.declarator(base.clone(), dd)?,
                    None => Declared {
                        name: None,
                        ty: base.clone(),
                        loc,
                        params: vec![],
                        vla: false,
                        vla_len: None,
                    },
                };
                if decl.vla {
                    return Err(self.error(
                        sd.span,
                        "a struct or union member of variable length (C forbids it)",
                    ));
                }
                let bit_width = match &sd.node.bit_width {
                    Some(w) => {
                        let e = self.expr(w)?;
                        match eval_int(&e, self.tt(), self.dm()) {
                            Some(v) if v >= 0 => Some(v as u32),
                            _ => {
                                return Err(self.error(w.span, "bit-field width is not a constant"));
                            }
                        }
                    }
                    None => None,
                };
                fields.push(Field {
                    name: decl.name,
                    ty: decl.ty,
                    bit_width,
                });
            }
        }
        // A member that holds the struct itself by value (directly, in an array, or in
        // another struct that does) has an incomplete type: C rejects it, and its size
        // would be a layout that never ends.
        if let Some(f) = fields
            .iter()
            .find(|f| holds_by_value(&f.ty, id, self.tt(), &mut Vec::new()))
        {
            let what = f
                .name
                .as_deref()
                .map_or("a member".into(), |n| format!("member `{n}`"));
            return Err(self.error(
                st.span,
                format!(
                    "{what} has an incomplete type: it contains the struct or union being defined"
                ),
            ));
        }
        let def = &mut self.prog.types.comps[id.0 as usize];
        def.fields = fields;
        def.complete = true;
        def.loc = loc;
        self.prog.items.push(Item::Comp(id));
        Ok(Type::Comp(id))
    }

    fn new_comp(&mut self, tag: Option<String>, is_union: bool, loc: Loc) -> CompId {
        let id = CompId(self.prog.types.comps.len() as u32);
        self.prog.types.comps.push(CompDef {
            tag: tag.clone(),
            is_union,
            fields: vec![],
            complete: false,
            loc,
        });
        if let Some(t) = tag {
            if let Some(s) = self.tags.last_mut() {
                s.insert(t, Tag::Comp(id));
            }
        }
        id
    }

    fn enum_type(&mut self, et: &Node<ast::EnumType>) -> R<Type> {
        let tag = et.node.identifier.as_ref().map(|i| i.node.name.clone());
        if et.node.enumerators.is_empty() {
            if let Some(t) = &tag {
                if let Some(Tag::Enum(id)) = self.lookup_tag(t) {
                    return Ok(Type::Enum(id));
                }
            }
        }
        let loc = self.loc(et.span);
        let id = EnumId(self.prog.types.enums.len() as u32);
        self.prog.types.enums.push(EnumDef {
            tag: tag.clone(),
            consts: vec![],
            loc,
        });
        if let Some(t) = tag {
            if let Some(s) = self.tags.last_mut() {
                s.insert(t, Tag::Enum(id));
            }
        }
        let mut next: i128 = 0;
        let mut consts = Vec::new();
        for en in &et.node.enumerators {
            let v = match &en.node.expression {
                Some(e) => {
                    let ex = self.expr(e)?;
                    eval_int(&ex, self.tt(), self.dm()).ok_or_else(|| {
                        self.error(e.span, "enumerator value is not an integer constant")
                    })?
                }
                None => next,
            };
            next = v + 1;
            consts.push((en.node.identifier.node.name.clone(), v));
            self.bind(&en.node.identifier.node.name, Binding::Const(v));
        }
        self.prog.types.enums[id.0 as usize].consts = consts;
        self.prog.items.push(Item::Enum(id));
        Ok(Type::Enum(id))
    }
}

fn qual(q: &ast::TypeQualifier, quals: &mut Quals) {
    match q {
        ast::TypeQualifier::Const => quals.konst = true,
        ast::TypeQualifier::Volatile => quals.volatile = true,
        ast::TypeQualifier::Restrict => quals.restrict = true,
        ast::TypeQualifier::Atomic => quals.atomic = true,
        _ => {}
    }
}

/// `__attribute__((mode(QI)))` and friends: an integer type of the given size.
fn mode_type(ty: &Type, bytes: u64, tt: &TypeTable) -> Type {
    let signed = ty.int_kind(tt).is_none_or(|k| k.is_signed());
    let k = match bytes {
        1 => IntKind::SChar,
        2 => IntKind::Short,
        4 => IntKind::Int,
        8 => IntKind::LongLong,
        _ => IntKind::Int128,
    };
    Type::Int(if signed { k } else { k.to_unsigned() })
}

/// Parameter type adjustment (C11 6.7.6.3p7-8): arrays and functions become pointers.
pub(super) fn adjust_param(ty: Type, tt: &TypeTable) -> Type {
    match ty.resolve(tt) {
        Type::Array(e, _) => Type::ptr((**e).clone()),
        Type::Function(_) => Type::ptr(ty),
        _ => ty,
    }
}

/// Whether a value of type `ty` contains an object of struct or union `id` (not through a
/// pointer). `seen` guards the walk through the struct types already looked at.
fn holds_by_value(ty: &Type, id: CompId, tt: &TypeTable, seen: &mut Vec<CompId>) -> bool {
    match ty.resolve(tt) {
        Type::Array(e, _) => holds_by_value(e, id, tt, seen),
        Type::Comp(c) if *c == id => true,
        Type::Comp(c) if !seen.contains(c) => {
            seen.push(*c);
            tt.comp(*c)
                .fields
                .iter()
                .any(|f| holds_by_value(&f.ty, id, tt, seen))
        }
        _ => false,
    }
}

#[cfg(test)]
mod tests {
    use crate::ir::types::DataModel;

    fn lowers(src: &str) -> Result<(), String> {
        crate::frontend::load_text("t.c", src, DataModel::Lp64)
            .map(|_| ())
            .map_err(|e| e.to_string())
    }

    /// A struct that holds itself by value has no size; C rejects it, and its layout once
    /// recursed until the stack overflowed (found by the pipeline fuzzer).
    #[test]
    fn a_struct_holding_itself_by_value_is_refused() {
        for src in [
            "struct A { int x; struct A a; }; int main(void) { return 0; }",
            "struct A { int x; struct A a[2]; }; int main(void) { return 0; }",
            "struct B; struct C { int y; struct B b[2]; }; struct B { struct C c; }; \
             int main(void) { return 0; }",
        ] {
            let e = lowers(src).expect_err("refused");
            assert!(e.contains("incomplete type"), "{e}");
        }
        // Through a pointer it is a list, and fine.
        lowers(
            "struct N { int v; struct N *next; }; struct L { struct N head; struct N n[3]; }; \
             int main(void) { return 0; }",
        )
        .expect("lowers");
    }
}
