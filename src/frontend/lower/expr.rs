//! Expressions: name resolution, C typing (promotions, usual arithmetic conversions,
//! pointer arithmetic), and explicit implicit conversions.

use lang_c::ast;
use lang_c::span::{Node, Span};

use super::literal;
use super::{Binding, Lowerer, R};
use crate::ir::consteval::{eval_int, literal_type};
use crate::ir::*;

impl Lowerer<'_, '_> {
    /// An expression as an rvalue: arrays decay to pointers to their first element.
    pub(super) fn rvalue(&mut self, e: &Node<ast::Expression>) -> R<Expr> {
        let ex = self.expr(e)?;
        Ok(self.decay(ex))
    }

    pub(super) fn decay(&self, e: Expr) -> Expr {
        match e.ty.resolve(self.tt()) {
            Type::Array(elem, _) => {
                let ty = Type::ptr((**elem).clone());
                let loc = e.loc;
                Expr::new(ExprKind::Decay(Box::new(e)), ty, loc)
            }
            _ => e,
        }
    }

    /// `conv` where C requires the value to be assignable to `to` (an argument, an
    /// assignment, a `return`): a struct or union only from the same type, a scalar
    /// never from a struct or union. Converted anyway, such a value reached the engines
    /// with a width they cannot take apart (`what` names the place, for the message).
    pub(super) fn conv_assignable(
        &mut self,
        e: Expr,
        to: &Type,
        span: Span,
        what: &str,
    ) -> R<Expr> {
        let (from_agg, to_agg) = (e.ty.is_aggregate(self.tt()), to.is_aggregate(self.tt()));
        if (from_agg || to_agg) && !(from_agg && to_agg && e.ty.same_as(to, self.tt())) {
            return Err(self.error(
                span,
                format!(
                    "{what}: a value of type `{}` where `{}` is expected (incompatible types)",
                    crate::ir::print::declaration(self.prog, &e.ty, "").trim(),
                    crate::ir::print::declaration(self.prog, to, "").trim()
                ),
            ));
        }
        Ok(self.conv(e, to))
    }

    /// An implicit conversion of `e` to `to` (none if the types already agree).
    pub(super) fn conv(&self, e: Expr, to: &Type) -> Expr {
        if e.ty.same_as(to, self.tt()) {
            return e;
        }
        let loc = e.loc;
        Expr::new(
            ExprKind::Cast {
                e: Box::new(e),
                implicit: true,
            },
            to.unqualified().clone(),
            loc,
        )
    }

    pub(super) fn promoted_type(&self, ty: &Type) -> Type {
        match ty.int_kind(self.tt()) {
            Some(k) if k.rank() < IntKind::Int.rank() => Type::int(),
            Some(k) if matches!(ty.resolve(self.tt()), Type::Enum(_)) => Type::Int(k),
            _ => match ty.resolve(self.tt()) {
                Type::Enum(_) => Type::int(),
                _ => ty.unqualified().clone(),
            },
        }
    }

    fn promote(&self, e: Expr) -> Expr {
        let t = self.promoted_type(&e.ty);
        self.conv(e, &t)
    }

    /// The usual arithmetic conversions (C11 6.3.1.8).
    pub(super) fn common_type(&self, a: &Type, b: &Type) -> Type {
        let tt = self.tt();
        let fa = match a.resolve(tt) {
            Type::Float(k) => Some(*k),
            _ => None,
        };
        let fb = match b.resolve(tt) {
            Type::Float(k) => Some(*k),
            _ => None,
        };
        match (fa, fb) {
            (Some(x), Some(y)) => {
                let rank = |k: FloatKind| match k {
                    FloatKind::Float => 0,
                    FloatKind::Double => 1,
                    FloatKind::LongDouble => 2,
                };
                return Type::Float(if rank(x) >= rank(y) { x } else { y });
            }
            (Some(x), None) | (None, Some(x)) => return Type::Float(x),
            _ => {}
        }
        let pa = self.promoted_type(a).int_kind(tt).unwrap_or(IntKind::Int);
        let pb = self.promoted_type(b).int_kind(tt).unwrap_or(IntKind::Int);
        if pa == pb {
            return Type::Int(pa);
        }
        if pa.is_signed() == pb.is_signed() {
            return Type::Int(if pa.rank() >= pb.rank() { pa } else { pb });
        }
        let (u, s) = if pa.is_signed() { (pb, pa) } else { (pa, pb) };
        let dm = self.dm();
        Type::Int(if u.rank() >= s.rank() {
            u
        } else if s.bits(dm) > u.bits(dm) {
            s
        } else {
            s.to_unsigned()
        })
    }

    pub(super) fn is_null_constant(&self, e: &Expr) -> bool {
        let inner = match &e.kind {
            ExprKind::Cast { e: inner, .. }
                if e.ty
                    .pointee(self.tt())
                    .is_some_and(|p| p.is_void(self.tt())) =>
            {
                inner.as_ref()
            }
            _ => e,
        };
        inner.ty.is_integer(self.tt()) && eval_int(inner, self.tt(), self.dm()) == Some(0)
    }

    pub(super) fn expr(&mut self, e: &Node<ast::Expression>) -> R<Expr> {
        let loc = self.loc(e.span);
        match &e.node {
            ast::Expression::Identifier(id) => self.identifier(&id.node.name, e.span, loc),
            ast::Expression::Constant(c) => self.constant(&c.node, e.span, loc),
            ast::Expression::StringLiteral(s) => {
                let mut bytes = Vec::new();
                for piece in &s.node {
                    if literal::is_wide(piece) {
                        return Err(self.unsupported(e.span, "wide string literals"));
                    }
                    let body =
                        literal::literal_body(piece, '"').map_err(|m| self.error(e.span, m))?;
                    bytes.extend(literal::unescape(body).map_err(|m| self.error(e.span, m))?);
                }
                let n = bytes.len() as u64 + 1;
                Ok(Expr::new(
                    ExprKind::Str(bytes),
                    Type::Array(Box::new(Type::char()), Some(n)),
                    loc,
                ))
            }
            ast::Expression::Member(m) => {
                let base = match m.node.operator.node {
                    ast::MemberOperator::Direct => self.expr(&m.node.expression)?,
                    ast::MemberOperator::Indirect => {
                        let p = self.rvalue(&m.node.expression)?;
                        let Some(pointee) = p.ty.pointee(self.tt()).cloned() else {
                            return Err(self.error(e.span, "`->` applied to a non-pointer"));
                        };
                        Expr::new(ExprKind::Deref(Box::new(p)), pointee, loc)
                    }
                };
                self.member(base, &m.node.identifier.node.name, e.span, loc)
            }
            ast::Expression::Call(c) => self.call(c, e.span, loc),
            ast::Expression::CompoundLiteral(cl) => {
                let ty = self.type_name(&cl.node.type_name)?;
                let (ty, init) = self.init_list(&ty, &cl.node.initializer_list, e.span)?;
                Ok(Expr::new(ExprKind::Compound(Box::new(init)), ty, loc))
            }
            ast::Expression::SizeOfTy(s) => {
                let ty = self.type_name(&s.node.0)?;
                Ok(Expr::new(
                    ExprKind::SizeofType(ty),
                    Type::Int(self.dm().size_t()),
                    loc,
                ))
            }
            ast::Expression::SizeOfVal(s) => {
                let inner = self.expr(&s.node.0)?;
                if let Some(size) = self.vla_sizeof(&inner) {
                    return Ok(size);
                }
                // `sizeof` does not evaluate its operand (but for a VLA's, above): only
                // its type matters, and the operand may name what cannot be named where
                // the program is printed (the variable being declared, `p` in
                // `T *p = malloc(sizeof *p)`, whose initializer's call becomes a
                // statement before the declaration; a local the sequentializer renames).
                Ok(Expr::new(
                    ExprKind::SizeofType(inner.ty),
                    Type::Int(self.dm().size_t()),
                    loc,
                ))
            }
            ast::Expression::AlignOf(a) => {
                let ty = self.type_name(&a.node.0)?;
                Ok(Expr::new(
                    ExprKind::AlignofType(ty),
                    Type::Int(self.dm().size_t()),
                    loc,
                ))
            }
            ast::Expression::UnaryOperator(u) => self.unary(&u.node, e.span, loc),
            ast::Expression::Cast(c) => {
                let ty = self.type_name(&c.node.type_name)?;
                let inner = self.rvalue(&c.node.expression)?;
                let aggregate = inner.ty.is_aggregate(self.tt()) || ty.is_aggregate(self.tt());
                if aggregate && !ty.is_void(self.tt()) {
                    // C allows neither; GCC's cast to a union type is an extension.
                    return Err(
                        self.unsupported(e.span, "a cast to or from a struct or union type")
                    );
                }
                Ok(Expr::new(
                    ExprKind::Cast {
                        e: Box::new(inner),
                        implicit: false,
                    },
                    ty,
                    loc,
                ))
            }
            ast::Expression::BinaryOperator(b) => self.binary(&b.node, e.span, loc),
            ast::Expression::Conditional(c) => {
                let cond = self.rvalue(&c.node.condition)?;
                let t = self.rvalue(&c.node.then_expression)?;
                let f = self.rvalue(&c.node.else_expression)?;
                let ty = self.cond_type(&t, &f);
                let t = self.conv(t, &ty);
                let f = self.conv(f, &ty);
                Ok(Expr::new(
                    ExprKind::Cond(Box::new(cond), Box::new(t), Box::new(f)),
                    ty,
                    loc,
                ))
            }
            ast::Expression::Comma(items) => {
                let mut acc: Option<Expr> = None;
                for it in items.iter() {
                    let x = self.rvalue(it)?;
                    acc = Some(match acc {
                        None => x,
                        Some(a) => {
                            // The value of a comma expression is not an lvalue: no
                            // qualifiers (`__typeof__((void)0, *p)` in <stdatomic.h> relies
                            // on this to drop `_Atomic`).
                            let ty = if x.ty.quals(self.tt()).is_empty() {
                                x.ty.clone()
                            } else {
                                x.ty.resolve(self.tt()).clone()
                            };
                            Expr::new(ExprKind::Comma(Box::new(a), Box::new(x)), ty, loc)
                        }
                    });
                }
                acc.ok_or_else(|| self.error(e.span, "empty comma expression"))
            }
            ast::Expression::OffsetOf(o) => {
                let ty = self.type_name(&o.node.type_name)?;
                let off = self.offset_of(&ty, &o.node.designator.node, e.span)?;
                Ok(Expr::int(off as i128, Type::Int(self.dm().size_t()), loc))
            }
            ast::Expression::VaArg(_) => {
                Err(self.unsupported(e.span, "va_arg (variadic functions)"))
            }
            ast::Expression::GenericSelection(g) => {
                let ctrl = self.rvalue(&g.node.expression)?;
                let mut default = None;
                for a in &g.node.associations {
                    match &a.node {
                        ast::GenericAssociation::Type(t) => {
                            let ty = self.type_name(&t.node.type_name)?;
                            if ty.same_as(&ctrl.ty, self.tt()) {
                                return self.expr(&t.node.expression);
                            }
                        }
                        ast::GenericAssociation::Default(d) => default = Some(d),
                    }
                }
                match default {
                    Some(d) => self.expr(d),
                    None => Err(self.error(e.span, "no _Generic association matches")),
                }
            }
            ast::Expression::Statement(s) => {
                let ast::Statement::Compound(items) = &s.node else {
                    return Err(self.unsupported(e.span, "statement expression without braces"));
                };
                self.push_scope();
                let mut stmts = Vec::new();
                for it in items {
                    stmts.extend(self.block_item(it)?);
                }
                self.pop_scope();
                let ty = match stmts.last() {
                    Some(Stmt {
                        kind: StmtKind::Expr(x),
                        ..
                    }) => x.ty.clone(),
                    _ => Type::Void,
                };
                Ok(Expr::new(ExprKind::StmtExpr(stmts), ty, loc))
            }
        }
    }

    fn identifier(&mut self, name: &str, span: lang_c::span::Span, loc: Loc) -> R<Expr> {
        match self.lookup(name).cloned() {
            // The checkers' own state (`__CPROVER_threads_exited`, `__CPROVER_thread_id`,
            // `__ESBMC_…`) is written by their libraries as threads start and end; seqloc
            // has no such writer, so reading it as a plain variable would be a guess.
            Some(Binding::Var(v))
                if self.prog.var(v).func.is_none()
                    && (name.starts_with("__CPROVER_") || name.starts_with("__ESBMC_")) =>
            {
                Err(self.unsupported(
                    span,
                    format!(
                        "`{name}`, a variable of the checker's own library (written by it as \
                         threads start and end), which seqloc does not model"
                    ),
                ))
            }
            Some(Binding::Var(v)) => Ok(Expr::new(
                ExprKind::Var(v),
                self.prog.var(v).ty.clone(),
                loc,
            )),
            Some(Binding::Func(f)) => Ok(self.func_expr(f, loc)),
            Some(Binding::Const(v)) => Ok(Expr::int(v, Type::int(), loc)),
            Some(Binding::Typedef(_)) => {
                Err(self.error(span, format!("`{name}` is a type, used as a value")))
            }
            None => match name {
                "__func__" | "__FUNCTION__" | "__PRETTY_FUNCTION__" => {
                    let fname = self
                        .func
                        .map(|f| self.prog.func(f).name.clone())
                        .unwrap_or_default();
                    let n = fname.len() as u64 + 1;
                    Ok(Expr::new(
                        ExprKind::Str(fname.into_bytes()),
                        Type::Array(Box::new(Type::char()), Some(n)),
                        loc,
                    ))
                }
                _ => Err(self.error(span, format!("use of undeclared identifier `{name}`"))),
            },
        }
    }

    pub(super) fn func_expr(&self, f: FuncId, loc: Loc) -> Expr {
        let fty = Type::Function(Box::new(self.prog.func(f).ty.clone()));
        Expr::new(ExprKind::Func(f), Type::ptr(fty), loc)
    }

    fn constant(&mut self, c: &ast::Constant, span: lang_c::span::Span, loc: Loc) -> R<Expr> {
        match c {
            ast::Constant::Integer(i) => {
                let radix = match i.base {
                    ast::IntegerBase::Decimal => 10,
                    ast::IntegerBase::Octal => 8,
                    ast::IntegerBase::Hexadecimal => 16,
                    ast::IntegerBase::Binary => 2,
                };
                let v =
                    literal::parse_integer(&i.number, radix).map_err(|m| self.error(span, m))?;
                if v > u64::MAX as u128 {
                    return Err(self.error(span, "integer constant is too large"));
                }
                let long = match i.suffix.size {
                    ast::IntegerSize::Int => 0,
                    ast::IntegerSize::Long => 1,
                    ast::IntegerSize::LongLong => 2,
                };
                let k = literal_type(v, i.suffix.unsigned, long, radix == 10, self.dm());
                Ok(Expr::int(k.wrap(v as i128, self.dm()), Type::Int(k), loc))
            }
            ast::Constant::Float(f) => {
                let kind = match f.suffix.format {
                    ast::FloatFormat::Float => FloatKind::Float,
                    ast::FloatFormat::Double => FloatKind::Double,
                    ast::FloatFormat::LongDouble => FloatKind::LongDouble,
                    ast::FloatFormat::TS18661Format(_) => {
                        return Err(self.unsupported(span, "_FloatN constants"));
                    }
                };
                let mut text = f.number.to_string();
                if matches!(f.base, ast::FloatBase::Hexadecimal) {
                    text = format!("0x{text}");
                }
                Ok(Expr::new(ExprKind::Float(text), Type::Float(kind), loc))
            }
            ast::Constant::Character(ch) => {
                let v = literal::char_value(ch).map_err(|m| self.error(span, m))?;
                Ok(Expr::int(v, Type::int(), loc))
            }
        }
    }

    pub(super) fn member(
        &mut self,
        base: Expr,
        name: &str,
        span: lang_c::span::Span,
        loc: Loc,
    ) -> R<Expr> {
        let Type::Comp(cid) = base.ty.resolve(self.tt()).clone() else {
            return Err(self.error(
                span,
                format!("member `{name}` of something that is not a struct or union"),
            ));
        };
        if !self.tt().comp(cid).complete {
            return Err(self.error(span, format!("member `{name}` of an incomplete type")));
        }
        let Some((path, _)) = self.tt().find_member(cid, name) else {
            return Err(self.error(span, format!("no member named `{name}`")));
        };
        let mut cur = base;
        let mut comp = cid;
        for idx in path {
            let fty = self.tt().comp(comp).fields[idx].ty.clone();
            if let Type::Comp(c) = fty.resolve(self.tt()) {
                comp = *c;
            }
            cur = Expr::new(ExprKind::Member(Box::new(cur), idx), fty, loc);
        }
        Ok(cur)
    }

    fn call(
        &mut self,
        c: &Node<ast::CallExpression>,
        span: lang_c::span::Span,
        loc: Loc,
    ) -> R<Expr> {
        let callee_name = match &c.node.callee.node {
            ast::Expression::Identifier(id) => Some(id.node.name.clone()),
            _ => None,
        };
        // `__builtin_expect(e, c)` is `e` to everything but the optimiser.
        if let ast::Expression::Identifier(id) = &c.node.callee.node {
            if id.node.name == "__builtin_expect" && c.node.arguments.len() == 2 {
                return self.rvalue(&c.node.arguments[0]);
            }
            if let Some(e) = self.atomic_call(&id.node.name, &c.node.arguments, span, loc)? {
                return Ok(e);
            }
            if let Some(e) = self.errno_location(&id.node.name, c.node.arguments.len(), loc) {
                return Ok(e);
            }
            if let Some(e) = self.input_call(&id.node.name, &c.node.arguments, loc)? {
                return Ok(self.errno_after(callee_name.as_deref(), e, loc));
            }
            if let Some(e) = self.math_call(&id.node.name, &c.node.arguments, loc)? {
                return Ok(e);
            }
            if let Some(e) = self.string_call(&id.node.name, &c.node.arguments, loc)? {
                return Ok(e);
            }
            if let Some(e) = self.stdin_call(&id.node.name, &c.node.arguments, loc)? {
                return Ok(self.errno_after(callee_name.as_deref(), e, loc));
            }
            if let Some(e) = self.library_call(&id.node.name, &c.node.arguments, loc)? {
                return Ok(e);
            }
            if let Some(e) = self.memory_call(&id.node.name, &c.node.arguments, loc)? {
                return Ok(e);
            }
            if let Some(e) = self.realloc_call(&id.node.name, &c.node.arguments, span, loc)? {
                return Ok(e);
            }
            if id.node.name == "__CPROVER_allocate" && c.node.arguments.len() == 2 {
                if let Some(e) = self.cprover_allocate(&c.node.arguments, span, loc)? {
                    return Ok(e);
                }
            }
            match crate::ir::known::classify(&id.node.name) {
                crate::ir::known::Known::AtomicBegin => self.atomic_depth += 1,
                crate::ir::known::Known::AtomicEnd => {
                    self.atomic_depth = self.atomic_depth.saturating_sub(1)
                }
                _ => {}
            }
            if self.lookup(&id.node.name).is_none() {
                // An implicit declaration (C89): `int name()`, or gcc's prototype of a
                // library builtin (`builtins`).
                let mut f = Function::undeclared_int(&id.node.name, loc);
                if let Some((ty, noreturn)) =
                    super::builtins::implicit_prototype(&id.node.name, self.dm())
                {
                    f.ty = ty;
                    f.noreturn = noreturn;
                }
                let fid = self.prog.add_func(f);
                self.prog.items.push(Item::Func(fid));
                self.scopes[0].insert(id.node.name.clone(), Binding::Func(fid));
            }
        }
        let callee = self.rvalue(&c.node.callee)?;
        if self.atomic_depth > 0 || self.in_atomic_fn {
            if let ExprKind::Func(f) = callee.peel().kind {
                self.calls_in_sections.push((f, loc));
            }
        }
        let Some(fty) = callee.ty.func(self.tt()).cloned() else {
            return Err(self.error(span, "called object is not a function"));
        };
        let given = c.node.arguments.len();
        let wanted = fty.params.len();
        if !fty.unprototyped && (given < wanted || (given > wanted && !fty.variadic)) {
            let callee_name = match &callee.peel().kind {
                ExprKind::Func(f) => format!("`{}`", self.prog.func(*f).name),
                _ => "the function".into(),
            };
            return Err(self.error(
                span,
                format!(
                    "{callee_name} called with {given} argument(s); its prototype takes {wanted}{}",
                    if fty.variadic { " or more" } else { "" }
                ),
            ));
        }
        let mut args = Vec::new();
        for (i, a) in c.node.arguments.iter().enumerate() {
            let x = self.rvalue(a)?;
            let x = if !fty.unprototyped && i < fty.params.len() {
                let pt = fty.params[i].clone();
                self.conv_assignable(x, &pt, a.span, &format!("argument {}", i + 1))?
            } else {
                self.default_promote(x)
            };
            args.push(x);
        }
        let call = Expr::new(
            ExprKind::Call(Box::new(callee), args),
            fty.ret.unqualified().clone(),
            loc,
        );
        let call = self.c11_thread_call(call, span)?;
        let call = self.cancellation(call, span)?;
        let call = self.sleep_call(call, span)?;
        let call = self.barrier_or_once(call, span)?;
        Ok(self.errno_after(callee_name.as_deref(), call, loc))
    }

    /// CBMC's `__CPROVER_allocate(size, zero)`: a fresh object that is never null, zeroed
    /// when `zero` is — seqloc's `calloc(1, size)` or `malloc(size)`, which never fail
    /// either. A `zero` that is no constant is left as the call (refused later).
    fn cprover_allocate(
        &mut self,
        args: &[Node<ast::Expression>],
        span: lang_c::span::Span,
        loc: Loc,
    ) -> R<Option<Expr>> {
        if self.defines_function("__CPROVER_allocate") {
            return Ok(None);
        }
        let size = self.rvalue(&args[0])?;
        let zero = self.rvalue(&args[1])?;
        let ExprKind::Int(z) = zero.peel().kind else {
            return Ok(None);
        };
        let size_t = Type::Int(self.dm().size_t());
        let size = self.conv(size, &size_t);
        let (name, args) = if z == 0 {
            ("malloc", vec![size])
        } else {
            ("calloc", vec![Expr::int(1, size_t, loc), size])
        };
        let f = self.allocator(name, span, "`__CPROVER_allocate`")?;
        let callee = self.func_expr(f, loc);
        Ok(Some(Expr::new(
            ExprKind::Call(Box::new(callee), args),
            Type::void_ptr(),
            loc,
        )))
    }

    fn default_promote(&self, e: Expr) -> Expr {
        match e.ty.resolve(self.tt()) {
            Type::Float(FloatKind::Float) => self.conv(e, &Type::Float(FloatKind::Double)),
            _ if e.ty.is_integer(self.tt()) => self.promote(e),
            _ => e,
        }
    }

    /// `x++` and `x += v` on a C11 `_Atomic` object are one indivisible read-modify-write
    /// (`atomic::atomic_rmw`); on anything else, `e` as it is.
    fn maybe_atomic_rmw(&mut self, lvalue_atomic: bool, e: Expr) -> R<Expr> {
        if lvalue_atomic {
            self.atomic_rmw(e)
        } else {
            Ok(e)
        }
    }

    fn unary(
        &mut self,
        u: &ast::UnaryOperatorExpression,
        span: lang_c::span::Span,
        loc: Loc,
    ) -> R<Expr> {
        use ast::UnaryOperator as U;
        match u.operator.node {
            U::PostIncrement | U::PostDecrement | U::PreIncrement | U::PreDecrement => {
                let x = self.expr(&u.operand)?;
                if !x.is_lvalue() {
                    return Err(self.error(
                        span,
                        "increment or decrement of something that is not an lvalue",
                    ));
                }
                let atomic = x.ty.quals(self.tt()).atomic;
                let ty = x.ty.unqualified().clone();
                let e = Expr::new(
                    ExprKind::IncDec {
                        inc: matches!(u.operator.node, U::PostIncrement | U::PreIncrement),
                        post: matches!(u.operator.node, U::PostIncrement | U::PostDecrement),
                        e: Box::new(x),
                    },
                    ty,
                    loc,
                );
                self.maybe_atomic_rmw(atomic, e)
            }
            U::Address => {
                let x = self.expr(&u.operand)?;
                if let ExprKind::Func(_) = x.kind {
                    return Ok(x);
                }
                if !x.is_lvalue() {
                    return Err(self.error(span, "`&` of something that is not an lvalue"));
                }
                if self.is_vla(&x) {
                    return Err(self.unsupported(
                        span,
                        "`&` of a variable-length array (a pointer to the whole array)",
                    ));
                }
                let ty = Type::ptr(x.ty.clone());
                Ok(Expr::new(ExprKind::AddrOf(Box::new(x)), ty, loc))
            }
            U::Indirection => {
                let p = self.rvalue(&u.operand)?;
                let Some(pointee) = p.ty.pointee(self.tt()).cloned() else {
                    return Err(self.error(span, "`*` applied to a non-pointer"));
                };
                if pointee.is_function(self.tt()) {
                    return Ok(p);
                }
                if let Some(errno) = self.errno_deref(&p, loc) {
                    return Ok(errno);
                }
                Ok(Expr::new(ExprKind::Deref(Box::new(p)), pointee, loc))
            }
            U::Plus => {
                let x = self.rvalue(&u.operand)?;
                Ok(self.promote(x))
            }
            U::Minus | U::Complement => {
                let x = self.rvalue(&u.operand)?;
                let x = self.promote(x);
                let ty = x.ty.clone();
                let op = if u.operator.node == U::Minus {
                    UnOp::Neg
                } else {
                    UnOp::BitNot
                };
                Ok(Expr::new(ExprKind::Unary(op, Box::new(x)), ty, loc))
            }
            U::Negate => {
                let x = self.rvalue(&u.operand)?;
                Ok(Expr::new(
                    ExprKind::Unary(UnOp::LogNot, Box::new(x)),
                    Type::int(),
                    loc,
                ))
            }
        }
    }

    fn binary(
        &mut self,
        b: &ast::BinaryOperatorExpression,
        span: lang_c::span::Span,
        loc: Loc,
    ) -> R<Expr> {
        use ast::BinaryOperator as B;
        let op = b.operator.node.clone();
        match op {
            B::Assign => {
                let lhs = self.expr(&b.lhs)?;
                if !lhs.is_lvalue() {
                    return Err(self.error(span, "assignment to something that is not an lvalue"));
                }
                let rhs = self.rvalue(&b.rhs)?;
                let ty = lhs.ty.unqualified().clone();
                let rhs = self.conv_assignable(rhs, &ty, span, "assignment")?;
                return Ok(Expr::new(
                    ExprKind::Assign(Box::new(lhs), Box::new(rhs)),
                    ty,
                    loc,
                ));
            }
            B::AssignMultiply
            | B::AssignDivide
            | B::AssignModulo
            | B::AssignPlus
            | B::AssignMinus
            | B::AssignShiftLeft
            | B::AssignShiftRight
            | B::AssignBitwiseAnd
            | B::AssignBitwiseXor
            | B::AssignBitwiseOr => {
                let bop = match op {
                    B::AssignMultiply => BinOp::Mul,
                    B::AssignDivide => BinOp::Div,
                    B::AssignModulo => BinOp::Rem,
                    B::AssignPlus => BinOp::Add,
                    B::AssignMinus => BinOp::Sub,
                    B::AssignShiftLeft => BinOp::Shl,
                    B::AssignShiftRight => BinOp::Shr,
                    B::AssignBitwiseAnd => BinOp::BitAnd,
                    B::AssignBitwiseXor => BinOp::BitXor,
                    _ => BinOp::BitOr,
                };
                let lhs = self.expr(&b.lhs)?;
                if !lhs.is_lvalue() {
                    return Err(self.error(span, "assignment to something that is not an lvalue"));
                }
                let atomic = lhs.ty.quals(self.tt()).atomic;
                let rhs = self.rvalue(&b.rhs)?;
                let ty = lhs.ty.unqualified().clone();
                let (op_ty, rhs) = if lhs.ty.is_pointer(self.tt()) {
                    (ty.clone(), self.promote(rhs))
                } else if matches!(bop, BinOp::Shl | BinOp::Shr) {
                    (self.promoted_type(&lhs.ty), self.promote(rhs))
                } else {
                    let ct = self.common_type(&lhs.ty, &rhs.ty);
                    let r = self.conv(rhs, &ct);
                    (ct, r)
                };
                let e = Expr::new(
                    ExprKind::OpAssign {
                        op: bop,
                        lhs: Box::new(lhs),
                        rhs: Box::new(rhs),
                        op_ty,
                    },
                    ty,
                    loc,
                );
                return self.maybe_atomic_rmw(atomic, e);
            }
            _ => {}
        }
        let a = self.rvalue(&b.lhs)?;
        let c = self.rvalue(&b.rhs)?;
        let tt = self.tt();
        match op {
            B::Index => {
                let (base, idx) = if a.ty.is_pointer(tt) { (a, c) } else { (c, a) };
                let Some(elem) = base.ty.pointee(self.tt()).cloned() else {
                    return Err(self.error(
                        span,
                        "subscript of something that is not an array or pointer",
                    ));
                };
                let idx = self.promote(idx);
                Ok(Expr::new(
                    ExprKind::Index(Box::new(base), Box::new(idx)),
                    elem,
                    loc,
                ))
            }
            B::Plus | B::Minus if a.ty.is_pointer(tt) || c.ty.is_pointer(tt) => {
                let bop = if op == B::Plus {
                    BinOp::Add
                } else {
                    BinOp::Sub
                };
                if a.ty.is_pointer(tt) && c.ty.is_pointer(tt) {
                    if bop == BinOp::Add {
                        return Err(self.error(span, "adding two pointers"));
                    }
                    let ty = Type::Int(self.dm().ptrdiff_t());
                    return Ok(Expr::new(
                        ExprKind::Binary(bop, Box::new(a), Box::new(c)),
                        ty,
                        loc,
                    ));
                }
                let (p, i) = if a.ty.is_pointer(tt) { (a, c) } else { (c, a) };
                let ty = p.ty.unqualified().clone();
                let i = self.promote(i);
                Ok(Expr::new(
                    ExprKind::Binary(bop, Box::new(p), Box::new(i)),
                    ty,
                    loc,
                ))
            }
            B::Multiply
            | B::Divide
            | B::Modulo
            | B::Plus
            | B::Minus
            | B::BitwiseAnd
            | B::BitwiseXor
            | B::BitwiseOr => {
                let bop = match op {
                    B::Multiply => BinOp::Mul,
                    B::Divide => BinOp::Div,
                    B::Modulo => BinOp::Rem,
                    B::Plus => BinOp::Add,
                    B::Minus => BinOp::Sub,
                    B::BitwiseAnd => BinOp::BitAnd,
                    B::BitwiseXor => BinOp::BitXor,
                    _ => BinOp::BitOr,
                };
                if !a.ty.is_arithmetic(tt) || !c.ty.is_arithmetic(tt) {
                    return Err(self.error(span, format!("invalid operands to `{}`", bop.c_op())));
                }
                let ct = self.common_type(&a.ty, &c.ty);
                let a = self.conv(a, &ct);
                let c = self.conv(c, &ct);
                Ok(Expr::new(
                    ExprKind::Binary(bop, Box::new(a), Box::new(c)),
                    ct,
                    loc,
                ))
            }
            B::ShiftLeft | B::ShiftRight => {
                let bop = if op == B::ShiftLeft {
                    BinOp::Shl
                } else {
                    BinOp::Shr
                };
                let a = self.promote(a);
                let c = self.promote(c);
                let ty = a.ty.clone();
                Ok(Expr::new(
                    ExprKind::Binary(bop, Box::new(a), Box::new(c)),
                    ty,
                    loc,
                ))
            }
            B::Less
            | B::Greater
            | B::LessOrEqual
            | B::GreaterOrEqual
            | B::Equals
            | B::NotEquals => {
                let bop = match op {
                    B::Less => BinOp::Lt,
                    B::Greater => BinOp::Gt,
                    B::LessOrEqual => BinOp::Le,
                    B::GreaterOrEqual => BinOp::Ge,
                    B::Equals => BinOp::Eq,
                    _ => BinOp::Ne,
                };
                let (a, c) = if a.ty.is_pointer(tt) || c.ty.is_pointer(tt) {
                    if a.ty.is_pointer(tt) && !c.ty.is_pointer(tt) {
                        let t = a.ty.clone();
                        (a, self.conv(c, &t))
                    } else if !a.ty.is_pointer(tt) {
                        let t = c.ty.clone();
                        (self.conv(a, &t), c)
                    } else if self.is_null_constant(&c) || a.ty.same_as(&c.ty, tt) {
                        let t = a.ty.clone();
                        (a, self.conv(c, &t))
                    } else {
                        let vp = Type::void_ptr();
                        (self.conv(a, &vp), self.conv(c, &vp))
                    }
                } else {
                    let ct = self.common_type(&a.ty, &c.ty);
                    (self.conv(a, &ct), self.conv(c, &ct))
                };
                Ok(Expr::new(
                    ExprKind::Binary(bop, Box::new(a), Box::new(c)),
                    Type::int(),
                    loc,
                ))
            }
            B::LogicalAnd | B::LogicalOr => {
                let bop = if op == B::LogicalAnd {
                    BinOp::LogAnd
                } else {
                    BinOp::LogOr
                };
                Ok(Expr::new(
                    ExprKind::Binary(bop, Box::new(a), Box::new(c)),
                    Type::int(),
                    loc,
                ))
            }
            _ => Err(self.error(span, "unexpected operator")),
        }
    }

    fn cond_type(&self, t: &Expr, f: &Expr) -> Type {
        let tt = self.tt();
        if t.ty.is_arithmetic(tt) && f.ty.is_arithmetic(tt) {
            return self.common_type(&t.ty, &f.ty);
        }
        if t.ty.is_void(tt) || f.ty.is_void(tt) {
            return Type::Void;
        }
        if t.ty.is_pointer(tt) && f.ty.is_pointer(tt) {
            let tv = t.ty.pointee(tt).is_some_and(|p| p.is_void(tt));
            let fv = f.ty.pointee(tt).is_some_and(|p| p.is_void(tt));
            if tv && !self.is_null_constant(t) {
                return t.ty.unqualified().clone();
            }
            if fv && !self.is_null_constant(f) {
                return f.ty.unqualified().clone();
            }
            if self.is_null_constant(t) {
                return f.ty.unqualified().clone();
            }
            return t.ty.unqualified().clone();
        }
        if t.ty.is_pointer(tt) {
            return t.ty.unqualified().clone();
        }
        if f.ty.is_pointer(tt) {
            return f.ty.unqualified().clone();
        }
        t.ty.unqualified().clone()
    }

    fn offset_of(
        &mut self,
        ty: &Type,
        d: &ast::OffsetDesignator,
        span: lang_c::span::Span,
    ) -> R<u64> {
        let dm = self.dm();
        let mut cur = ty.clone();
        let mut off = 0u64;
        let step_member = |this: &mut Self, cur: &mut Type, off: &mut u64, name: &str| -> R<()> {
            let Type::Comp(cid) = cur.resolve(this.tt()).clone() else {
                return Err(this.error(span, "offsetof into a non-struct"));
            };
            let Some((path, fty)) = this.tt().find_member(cid, name) else {
                return Err(this.error(span, format!("no member named `{name}`")));
            };
            let mut comp = cid;
            for idx in path {
                let layout = this.tt().layout(comp, dm);
                *off += layout.offsets[idx].byte;
                if let Type::Comp(c) = this.tt().comp(comp).fields[idx].ty.resolve(this.tt()) {
                    comp = *c;
                }
            }
            *cur = fty;
            Ok(())
        };
        step_member(self, &mut cur, &mut off, &d.base.node.name)?;
        for m in &d.members {
            match &m.node {
                ast::OffsetMember::Member(id) | ast::OffsetMember::IndirectMember(id) => {
                    step_member(self, &mut cur, &mut off, &id.node.name)?
                }
                ast::OffsetMember::Index(e) => {
                    let ex = self.expr(e)?;
                    let Some(i) = eval_int(&ex, self.tt(), dm) else {
                        return Err(self.error(span, "offsetof index is not a constant"));
                    };
                    let Some(elem) = cur.element(self.tt()).cloned() else {
                        return Err(self.error(span, "offsetof index into a non-array"));
                    };
                    off += elem.size(self.tt(), dm).unwrap_or(0) * i as u64;
                    cur = elem;
                }
            }
        }
        Ok(off)
    }
}
