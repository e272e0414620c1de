//! `<string.h>`'s `memset`, `memcpy` and `memmove`, as the element stores they make.
//!
//! `memset(p, c, n)` and `memcpy(d, s, n)` are lowered to stores of elements — `p[0] = v;
//! p[1] = v; ...` — one step each, as a compiled loop makes them (neither is atomic:
//! another thread can see a half-cleared buffer).
//!
//! Whole elements of the destination's pointee type `T` when the call writes whole ones
//! (fewer steps, and values a trace shows as the program's):
//!
//! * `T` is a complete object type (not `void`), and `n` is a constant multiple of
//!   `sizeof(T)` or has the shape `k * sizeof(T)` (either way round): `k` elements;
//! * for `memset`, every byte set to `c` makes a value of `T` seqloc can write: an integer
//!   of the byte repeated (`c` a constant, or any `c` when `T` is one byte), or, with
//!   `c == 0`, a null pointer or a zeroed struct or union (not a row of a
//!   two-dimensional array: an array is not assigned whole);
//! * for `memcpy`, the source's pointee type is `T` too.
//!
//! Otherwise bytes, as the functions are specified: `n` stores of `unsigned char` through
//! the destination (and loads through the source) — a `void *` from `malloc`, a count
//! that is not whole elements, a fill of a pointer or a float, a copy between types. The
//! memory model is byte-addressed, so this is exact too, only longer. A count up to
//! [`UNROLLED`] elements gives straight-line stores; a larger or variable one a counted
//! loop (evaluated once, before the stores). All return the destination.
//!
//! `memmove(d, s, n)` is specified "as if the characters were first copied into a
//! temporary array that does not overlap": it is written so, every element of the source
//! read into a temporary before any element of the destination is stored. That is right
//! for overlapping ranges either way round without comparing the two pointers (which the
//! explicit-state explorer cannot order across objects), and it is one implementation the
//! standard allows; the temporary is a local array for a constant count and a heap block,
//! freed after the stores, for a variable one. The rest of the header is left as calls,
//! refused by name by the later passes.

use lang_c::ast;
use lang_c::span::Node;

use super::{Lowerer, R};
use crate::ir::build as b;
use crate::ir::consteval::eval_int;
use crate::ir::*;

/// What each element of the destination gets.
enum Element {
    /// The fill value (`memset`).
    Fill(Expr),
    /// The element at the same index of the source pointer (`memcpy`).
    From(Expr),
}

/// Element counts up to this are written as straight-line stores; more as a loop.
const UNROLLED: i128 = 16;

impl Lowerer<'_, '_> {
    /// The model of a call of `memset` or `memcpy`, when its arguments have a shape it
    /// covers (see the module comment); `None` leaves the call as it is.
    pub(super) fn memory_call(
        &mut self,
        name: &str,
        args: &[Node<ast::Expression>],
        loc: Loc,
    ) -> R<Option<Expr>> {
        if !matches!(name, "memset" | "memcpy" | "memmove")
            || args.len() != 3
            || self.defines_function(name)
            || self.func.is_none()
        {
            return Ok(None);
        }
        let dst = self.rvalue(&args[0])?;
        let Some(pointee) = dst.ty.pointee(self.tt()).map(|t| t.unqualified().clone()) else {
            return Ok(None);
        };
        if matches!(pointee.resolve(self.tt()), Type::Function(_)) {
            return Ok(None);
        }
        let second = self.rvalue(&args[1])?;
        let n = self.rvalue(&args[2])?;
        let memset = name == "memset";
        if !memset && second.ty.pointee(self.tt()).is_none() {
            return Ok(None);
        }
        let mut stmts = Vec::new();
        let (elem, count, fill) =
            match self.whole_elements(memset, &pointee, &second, &n, &mut stmts, loc) {
                Some(t) => t,
                None => {
                    // Bytes, as the function is specified: any count, any object.
                    let uchar = Type::Int(IntKind::UChar);
                    let fill = memset.then(|| b::conv(second.clone(), &uchar, self.tt()));
                    (uchar, n, fill)
                }
            };
        let size_t = Type::Int(self.dm().size_t());
        let count = match count.as_int() {
            Some(_) => count,
            // Evaluated once, before the stores, as the call's argument is.
            None => {
                let c = self.conv(count, &size_t);
                self.declare_temp("__seq_mem_count", &size_t, c, &mut stmts, loc)
            }
        };
        let elem_ptr = Type::ptr(elem.clone());
        // One element of `&x` is stored as `x` itself (`memset(&mb->slot, 0, sizeof
        // mb->slot)` writes `mb->slot`), when naming `x` again reads nothing another
        // thread may change: what the trace and the analyses then name is the program's.
        let single = count.as_int() == Some(1);
        let place = match &dst.peel().kind {
            ExprKind::AddrOf(x)
                if single
                    && self.stable_place(x)
                    && x.ty.unqualified().same_as(&elem, self.tt()) =>
            {
                Some((**x).clone())
            }
            _ => None,
        };
        let d = b::conv(dst, &elem_ptr, self.tt());
        let d = self.declare_temp("__seq_mem_dst", &elem_ptr, d, &mut stmts, loc);
        // What element `i` gets: the fill, or the source's element `i`.
        let mut source = b::int(0);
        let element = match fill {
            Some(v) => {
                // Evaluated once, as the argument is.
                let v = if v.as_int().is_some() || matches!(v.kind, ExprKind::Var(_)) {
                    v
                } else {
                    let ty = v.ty.clone();
                    self.declare_temp("__seq_mem_fill", &ty, v, &mut stmts, loc)
                };
                Element::Fill(v)
            }
            None => {
                source = second.clone();
                let s = b::conv(second, &elem_ptr, self.tt());
                let s = self.declare_temp("__seq_mem_src", &elem_ptr, s, &mut stmts, loc);
                Element::From(s)
            }
        };
        // One element is `*p` (`memset(p, 0, sizeof *p)`), so that its stores are named
        // as the program's own `p->n` accesses are.
        let elem_at = |p: &Expr, i: Expr| {
            if single {
                return Expr::new(ExprKind::Deref(Box::new(p.clone())), elem.clone(), loc);
            }
            Expr::new(
                ExprKind::Index(Box::new(p.clone()), Box::new(i)),
                elem.clone(),
                loc,
            )
        };
        // `memmove`: the source first into a temporary, which the stores then read.
        let mut release = None;
        let element = match element {
            Element::From(src) if name == "memmove" => {
                let span = args[0].span;
                let cap = self.array_capacity(&source, &elem);
                let (tmp, freed) = self.move_buffer(&elem, &count, cap, &mut stmts, span, loc)?;
                self.element_stores(&count, &mut stmts, loc, |i| {
                    (elem_at(&tmp, i.clone()), elem_at(&src, i))
                });
                release = freed;
                Element::From(tmp)
            }
            other => other,
        };
        self.element_stores(&count, &mut stmts, loc, |i| {
            let v = match &element {
                Element::Fill(v) => v.clone(),
                Element::From(s) => elem_at(s, i.clone()),
            };
            let at = match &place {
                Some(x) => x.clone(),
                None => elem_at(&d, i),
            };
            (at, v)
        });
        stmts.extend(release);
        let ret = Type::void_ptr();
        stmts.push(Stmt::expr(self.conv(d.clone(), &ret)));
        Ok(Some(Expr::new(ExprKind::StmtExpr(stmts), ret, loc)))
    }

    /// `place(i) = value(i);` for every `i` below `count`, as `(place, value) = store(i)`:
    /// straight-line stores for a small constant count, a counted loop otherwise.
    pub(super) fn element_stores(
        &mut self,
        count: &Expr,
        stmts: &mut Vec<Stmt>,
        loc: Loc,
        store: impl Fn(Expr) -> (Expr, Expr),
    ) {
        let size_t = Type::Int(self.dm().size_t());
        if let Some(k) = count.as_int().filter(|&k| k <= UNROLLED) {
            for j in 0..k {
                let (place, value) = store(Expr::int(j, size_t.clone(), loc));
                let assign = b::assign(place, value, self.tt());
                stmts.push(b::expr_stmt(assign, loc, StmtId::NONE));
            }
            return;
        }
        let iv = self
            .prog
            .new_local(self.func, "__seq_mem_i", size_t.clone(), loc);
        let i = Expr::var(iv, self.prog, loc);
        let count = self.conv(count.clone(), &size_t);
        let (place, value) = store(i.clone());
        let assign = b::assign(place, value, self.tt());
        let step = b::assign(
            i.clone(),
            b::bin(BinOp::Add, i.clone(), Expr::int(1, size_t.clone(), loc)),
            self.tt(),
        );
        stmts.push(Stmt::new(
            StmtKind::For {
                init: vec![Stmt::new(
                    StmtKind::Decl {
                        var: iv,
                        init: Some(Init::Expr(Expr::int(0, size_t, loc))),
                    },
                    loc,
                )],
                cond: Some(b::bin(BinOp::Lt, i, count)),
                step: Some(step),
                body: Box::new(Stmt::block(
                    vec![b::expr_stmt(assign, loc, StmtId::NONE)],
                    loc,
                )),
            },
            loc,
        ));
    }

    /// How many elements of `elem` the array the pointer `src` points into holds, when
    /// `src` is (a conversion of) an array, `a + k`, `a - k` or `&a[k]` and the array's
    /// size is known: a copy out of it can read no more without leaving the object.
    fn array_capacity(&self, src: &Expr, elem: &Type) -> Option<i128> {
        let mut e = src.uncast();
        if let ExprKind::Binary(BinOp::Add | BinOp::Sub, a, _) = &e.kind {
            if a.ty.pointee(self.tt()).is_some() {
                e = a.uncast();
            }
        }
        if let ExprKind::AddrOf(x) = &e.kind {
            if let ExprKind::Index(base, _) = &x.kind {
                e = base.uncast();
            }
        }
        if !e.ty.is_array(self.tt()) {
            return None;
        }
        let total = self.prog.sizeof(&e.ty)?;
        let size = self.prog.sizeof(elem).filter(|&s| s > 0)?;
        Some(i128::from(total / size)).filter(|&k| k > 0)
    }

    /// `memmove`'s temporary of `count` elements of `elem`, declared into `out`: a local
    /// array for a constant count or one bounded by the source array's capacity `cap`
    /// (a local of known size keeps the memory model's field-sensitive leaves, where a
    /// block of unknown size is an SMT array), else a `malloc`'d block, with the statement
    /// that frees it after the stores.
    fn move_buffer(
        &mut self,
        elem: &Type,
        count: &Expr,
        cap: Option<i128>,
        out: &mut Vec<Stmt>,
        span: lang_c::span::Span,
        loc: Loc,
    ) -> R<(Expr, Option<Stmt>)> {
        let elem_ptr = Type::ptr(elem.clone());
        if let Some(k) = count.as_int().or(cap) {
            // A zero-length array is no C object: one element stands in, never touched.
            let len = u64::try_from(k.max(1)).unwrap_or(1);
            let arr = Type::Array(Box::new(elem.clone()), Some(len));
            let v = self.prog.new_local(self.func, "__seq_mem_tmp", arr, loc);
            out.push(Stmt::new(StmtKind::Decl { var: v, init: None }, loc));
            let whole = Expr::var(v, self.prog, loc);
            return Ok((
                Expr::new(ExprKind::Decay(Box::new(whole)), elem_ptr, loc),
                None,
            ));
        }
        let size_t = Type::Int(self.dm().size_t());
        let malloc = self.allocator("malloc", span, "`memmove` with a variable count")?;
        let free = self.allocator("free", span, "`memmove` with a variable count")?;
        let bytes = b::bin(
            BinOp::Mul,
            self.conv(count.clone(), &size_t),
            Expr::new(ExprKind::SizeofType(elem.clone()), size_t, loc),
        );
        let call = Expr::new(
            ExprKind::Call(Box::new(self.func_expr(malloc, loc)), vec![bytes]),
            Type::void_ptr(),
            loc,
        );
        let block = self.conv(call, &elem_ptr);
        let tmp = self.declare_temp("__seq_mem_tmp", &elem_ptr, block, out, loc);
        let release = Expr::new(
            ExprKind::Call(
                Box::new(self.func_expr(free, loc)),
                vec![self.conv(tmp.clone(), &Type::void_ptr())],
            ),
            Type::Void,
            loc,
        );
        Ok((tmp, Some(b::expr_stmt(release, loc, StmtId::NONE))))
    }

    /// Whether naming the lvalue `x` again evaluates to the same object: variables,
    /// members, constant elements, and dereferences of a local or parameter pointer.
    fn stable_place(&self, x: &Expr) -> bool {
        match &x.kind {
            ExprKind::Var(_) => true,
            ExprKind::Member(b, _) | ExprKind::Decay(b) => self.stable_place(b),
            ExprKind::Index(b, i) => i.as_int().is_some() && self.stable_place(b),
            ExprKind::Deref(p) => match &p.peel().kind {
                ExprKind::Var(v) => self.prog.var(*v).kind != VarKind::Global,
                _ => false,
            },
            _ => false,
        }
    }

    /// The element type, count and fill value (`None` for a copy) when the call writes
    /// whole elements of the destination's pointee type (see the module comment).
    fn whole_elements(
        &mut self,
        memset: bool,
        pointee: &Type,
        second: &Expr,
        n: &Expr,
        out: &mut Vec<Stmt>,
        loc: Loc,
    ) -> Option<(Type, Expr, Option<Expr>)> {
        if pointee.is_void(self.tt()) {
            return None;
        }
        let size = self.prog.sizeof(pointee).filter(|&s| s > 0)?;
        let count = self.element_count(n, size)?;
        if memset {
            let v = self.fill_value(pointee, second.clone(), size, out, loc)?;
            return Some((pointee.clone(), count, Some(v)));
        }
        let same = second
            .ty
            .pointee(self.tt())
            .is_some_and(|t| t.unqualified().same_as(pointee, self.tt()));
        same.then(|| (pointee.clone(), count, None))
    }

    /// How many elements of `size` bytes the byte count `n` is: `n / size` for a constant
    /// multiple, `k` for `k * sizeof(T)` (the product either way round); `None` otherwise.
    fn element_count(&self, n: &Expr, size: u64) -> Option<Expr> {
        let size = i128::from(size);
        if let Some(v) = eval_int(n, self.tt(), self.dm()) {
            return (v >= 0 && v % size == 0).then(|| b::int(v / size));
        }
        let mut e = n;
        while let ExprKind::Cast { e: inner, .. } = &e.kind {
            e = inner;
        }
        let ExprKind::Binary(BinOp::Mul, a, c) = &e.kind else {
            return None;
        };
        let constant = |x: &Expr| eval_int(x, self.tt(), self.dm());
        match (constant(a), constant(c)) {
            (_, Some(s)) if s == size => Some((**a).clone()),
            (Some(s), _) if s == size => Some((**c).clone()),
            _ => None,
        }
    }

    /// The value of an element of type `elem` (`size` bytes) whose every byte is `c`, when
    /// seqloc can write it (see the module comment). A zeroed aggregate is a local
    /// declared into `out`.
    fn fill_value(
        &mut self,
        elem: &Type,
        c: Expr,
        size: u64,
        out: &mut Vec<Stmt>,
        loc: Loc,
    ) -> Option<Expr> {
        let constant = eval_int(&c, self.tt(), self.dm());
        let tt = self.tt();
        if elem.is_integer(tt) {
            if let Some(c) = constant {
                let byte = c & 0xff;
                let mut v: i128 = 0;
                for _ in 0..size.min(16) {
                    v = (v << 8) | byte;
                }
                // The bit pattern, read back in the element's own type (a signed
                // all-ones pattern is -1).
                let bits = (size * 8).min(128) as u32;
                let signed = elem.int_kind(tt).is_some_and(|k| k.is_signed());
                if signed && bits < 128 && (v >> (bits - 1)) & 1 == 1 {
                    v -= 1i128 << bits;
                }
                return Some(Expr::int(v, elem.clone(), loc));
            }
            if size == 1 {
                let c = self.conv(c, &Type::Int(IntKind::UChar));
                return Some(self.conv(c, elem));
            }
            return None;
        }
        if constant != Some(0) {
            return None;
        }
        if elem.is_pointer(tt) {
            return Some(self.conv(b::int(0), elem));
        }
        // An array element (a row of a two-dimensional array) cannot be assigned whole.
        if matches!(elem.resolve(tt), Type::Comp(_)) {
            let z = self
                .prog
                .new_local(self.func, "__seq_mem_zero", elem.clone(), loc);
            out.push(Stmt::new(
                StmtKind::Decl {
                    var: z,
                    init: Some(Init::List(vec![])),
                },
                loc,
            ));
            return Some(Expr::var(z, self.prog, loc));
        }
        None
    }
}
