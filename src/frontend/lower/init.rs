//! Initializers: braced lists with designators and brace elision, resolved to explicit
//! field and index paths (C11 6.7.9).

use lang_c::ast;
use lang_c::span::{Node, Span};

use super::{Lowerer, R};
use crate::ir::consteval::eval_int;
use crate::ir::*;

impl Lowerer<'_, '_> {
    /// Lowers the initializer of an object of type `ty`; returns the (possibly completed,
    /// for `T x[] = {...}`) type and the initializer.
    pub(super) fn initializer(
        &mut self,
        ty: &Type,
        init: &Node<ast::Initializer>,
    ) -> R<(Type, Init)> {
        match &init.node {
            ast::Initializer::Expression(e) => self.init_expr(ty, e),
            ast::Initializer::List(items) => self.init_list(ty, items, init.span),
        }
    }

    fn init_expr(&mut self, ty: &Type, e: &Node<ast::Expression>) -> R<(Type, Init)> {
        let raw = self.expr(e)?;
        if let (Type::Array(elem, len), ExprKind::Str(bytes)) = (ty.resolve(self.tt()), &raw.kind) {
            if elem.is_integer(self.tt()) {
                let n = len.unwrap_or(bytes.len() as u64 + 1);
                let elem = (**elem).clone();
                let arr = Type::Array(Box::new(elem), Some(n));
                let mut s = raw.clone();
                s.ty = arr.clone();
                let out_ty = match ty.resolve(self.tt()) {
                    Type::Array(_, Some(_)) => ty.clone(),
                    _ => arr,
                };
                return Ok((out_ty, Init::Expr(s)));
            }
        }
        if ty.is_aggregate(self.tt()) && !raw.ty.same_as(ty, self.tt()) {
            return Err(self.error(
                e.span,
                "an aggregate initialized from a non-aggregate expression",
            ));
        }
        let x = self.decay(raw);
        Ok((ty.clone(), Init::Expr(self.conv(x, ty))))
    }

    pub(super) fn init_list(
        &mut self,
        ty: &Type,
        items: &[Node<ast::InitializerListItem>],
        span: Span,
    ) -> R<(Type, Init)> {
        if ty.is_scalar(self.tt()) {
            // `int x = { 3 };`
            return match items.first() {
                Some(it) => self.initializer(ty, &it.node.initializer),
                None => Ok((
                    ty.clone(),
                    Init::Expr(Expr::int(0, ty.clone(), self.loc(span))),
                )),
            };
        }
        let mut pos = 0;
        self.fill(ty, items, &mut pos, true, span)
    }

    /// Fills one aggregate from `items[*pos..]`. `braced`: the list belongs to this object
    /// alone; otherwise (brace elision) take only what the object needs.
    fn fill(
        &mut self,
        ty: &Type,
        items: &[Node<ast::InitializerListItem>],
        pos: &mut usize,
        braced: bool,
        span: Span,
    ) -> R<(Type, Init)> {
        match ty.resolve(self.tt()).clone() {
            Type::Comp(cid) => {
                let def = self.tt().comp(cid).clone();
                let mut out = Vec::new();
                let mut next = 0usize;
                while *pos < items.len() {
                    let it = &items[*pos];
                    if !it.node.designation.is_empty() {
                        if !braced {
                            break;
                        }
                        let (idx, init) = self.designated_field(
                            cid,
                            &it.node.designation,
                            &it.node.initializer,
                            it.span,
                        )?;
                        out.push(init);
                        next = idx + 1;
                        *pos += 1;
                        continue;
                    }
                    while next < def.fields.len()
                        && def.fields[next].name.is_none()
                        && def.fields[next].bit_width.is_some()
                    {
                        next += 1; // unnamed bit-fields take no initializer
                    }
                    if next >= def.fields.len() || (def.is_union && next > 0) {
                        if braced {
                            *pos = items.len(); // excess initializers: gcc warns and drops them
                        }
                        break;
                    }
                    let fty = def.fields[next].ty.clone();
                    let init = self.init_one(&fty, items, pos, span)?;
                    out.push(InitItem {
                        path: vec![Designator::Field(next)],
                        init,
                    });
                    next += 1;
                }
                Ok((ty.clone(), Init::List(out)))
            }
            Type::Array(elem, len) => {
                let mut out = Vec::new();
                let mut next: u64 = 0;
                let mut max: u64 = 0;
                while *pos < items.len() {
                    let it = &items[*pos];
                    if !it.node.designation.is_empty() {
                        if !braced {
                            break;
                        }
                        let (lo, hi) = match &it.node.designation[0].node {
                            ast::Designator::Index(e) => {
                                let v = self.const_index(e)?;
                                (v, v)
                            }
                            ast::Designator::Range(r) => (
                                self.const_index(&r.node.from)?,
                                self.const_index(&r.node.to)?,
                            ),
                            ast::Designator::Member(_) => {
                                return Err(self
                                    .error(it.span, "member designator in an array initializer"));
                            }
                        };
                        for i in lo..=hi {
                            let init = self.designated_rest(
                                &elem,
                                &it.node.designation[1..],
                                &it.node.initializer,
                                it.span,
                            )?;
                            out.push(InitItem {
                                path: vec![Designator::Index(i)],
                                init,
                            });
                        }
                        next = hi + 1;
                        max = max.max(next);
                        *pos += 1;
                        continue;
                    }
                    if len.is_some_and(|n| next >= n) {
                        if braced {
                            *pos = items.len();
                        }
                        break;
                    }
                    let init = self.init_one(&elem, items, pos, span)?;
                    out.push(InitItem {
                        path: vec![Designator::Index(next)],
                        init,
                    });
                    next += 1;
                    max = max.max(next);
                }
                let out_ty = match len {
                    Some(_) => ty.clone(),
                    None => Type::Array(elem, Some(max)),
                };
                Ok((out_ty, Init::List(out)))
            }
            _ => Err(self.error(span, "braced initializer for a scalar inside a list")),
        }
    }

    /// Initializes one sub-object from `items[*pos]`, eliding braces where C allows.
    fn init_one(
        &mut self,
        ty: &Type,
        items: &[Node<ast::InitializerListItem>],
        pos: &mut usize,
        span: Span,
    ) -> R<Init> {
        let it = &items[*pos];
        match &it.node.initializer.node {
            ast::Initializer::List(inner) => {
                *pos += 1;
                Ok(self.init_list(ty, inner, it.span)?.1)
            }
            ast::Initializer::Expression(e) => {
                if ty.is_aggregate(self.tt()) {
                    let raw = self.expr(e)?;
                    let direct = raw.ty.same_as(ty, self.tt())
                        || (matches!(raw.kind, ExprKind::Str(_)) && ty.is_array(self.tt()));
                    if !direct {
                        return Ok(self.fill(ty, items, pos, false, span)?.1);
                    }
                }
                *pos += 1;
                Ok(self.init_expr(ty, e)?.1)
            }
        }
    }

    fn designated_field(
        &mut self,
        cid: CompId,
        desig: &[Node<ast::Designator>],
        init: &Node<ast::Initializer>,
        span: Span,
    ) -> R<(usize, InitItem)> {
        let ast::Designator::Member(id) = &desig[0].node else {
            return Err(self.error(span, "array designator in a struct initializer"));
        };
        let Some((path, fty)) = self.tt().find_member(cid, &id.node.name) else {
            return Err(self.error(span, format!("no member named `{}`", id.node.name)));
        };
        let mut init = self.designated_rest(&fty, &desig[1..], init, span)?;
        // A member reached through anonymous members: nest one list per level.
        for idx in path[1..].iter().rev() {
            init = Init::List(vec![InitItem {
                path: vec![Designator::Field(*idx)],
                init,
            }]);
        }
        Ok((
            path[0],
            InitItem {
                path: vec![Designator::Field(path[0])],
                init,
            },
        ))
    }

    fn designated_rest(
        &mut self,
        ty: &Type,
        rest: &[Node<ast::Designator>],
        init: &Node<ast::Initializer>,
        span: Span,
    ) -> R<Init> {
        if rest.is_empty() {
            return Ok(self.initializer(ty, init)?.1);
        }
        match (&rest[0].node, ty.resolve(self.tt()).clone()) {
            (ast::Designator::Member(_), Type::Comp(cid)) => {
                let (_, item) = self.designated_field(cid, rest, init, span)?;
                Ok(Init::List(vec![item]))
            }
            (ast::Designator::Index(e), Type::Array(elem, _)) => {
                let i = self.const_index(e)?;
                let inner = self.designated_rest(&elem, &rest[1..], init, span)?;
                Ok(Init::List(vec![InitItem {
                    path: vec![Designator::Index(i)],
                    init: inner,
                }]))
            }
            _ => Err(self.error(span, "designator does not match the type")),
        }
    }

    fn const_index(&mut self, e: &Node<ast::Expression>) -> R<u64> {
        let x = self.expr(e)?;
        match eval_int(&x, self.tt(), self.dm()) {
            Some(v) if v >= 0 => Ok(v as u64),
            _ => Err(self.error(e.span, "array designator is not a non-negative constant")),
        }
    }
}
