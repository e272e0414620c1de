//! `<string.h>`'s string functions — `strlen`, `strcmp`, `strncmp`, `strcpy`, `strncpy`,
//! `strcat` — as the loops over characters they are, written out at the call: each
//! character read or written is an access of its own, as in the library (no string
//! function is atomic, and another thread may change a string while it is being compared
//! or copied).
//!
//! `strcmp`/`strncmp` answer any value of the sign of the first difference (C promises
//! only the sign, and glibc's answers differ between its implementations): a program
//! that depends on more is checked against every answer the standard allows.
//!
//! A named array is indexed as itself (`s[i]`) rather than through a pointer to it, so
//! the analyses still see which object each character belongs to. Arguments of other
//! shapes go through a pointer temporary. A function of these names the program defines
//! itself is its own.

use lang_c::ast;
use lang_c::span::Node;

use super::{Lowerer, R};
use crate::ir::build as b;
use crate::ir::*;

impl Lowerer<'_, '_> {
    /// The model of a call of `name`, when it is one of the modelled string functions
    /// with arguments of its shape; `None` leaves the call as it is.
    pub(super) fn string_call(
        &mut self,
        name: &str,
        args: &[Node<ast::Expression>],
        loc: Loc,
    ) -> R<Option<Expr>> {
        let arity = match name {
            "strlen" => 1,
            "strcmp" | "strcpy" | "strcat" => 2,
            "strncmp" | "strncpy" => 3,
            _ => return Ok(None),
        };
        if args.len() != arity || self.func.is_none() || self.defines_function(name) {
            return Ok(None);
        }
        let mut stmts = Vec::new();
        let mut strings = Vec::new();
        for a in &args[..arity.min(2)] {
            let e = self.rvalue(a)?;
            let Some(s) = self.string_operand(e, &mut stmts, loc) else {
                return Ok(None);
            };
            strings.push(s);
        }
        let size_t = Type::Int(self.dm().size_t());
        let limit = match args.get(2) {
            Some(n) => {
                let n = self.rvalue(n)?;
                if !n.ty.is_integer(self.tt()) {
                    return Ok(None);
                }
                let n = self.conv(n, &size_t);
                Some(self.declare_temp("__seq_str_limit", &size_t, n, &mut stmts, loc))
            }
            None => None,
        };
        let i = self.declare_temp(
            "__seq_str_i",
            &size_t,
            Expr::int(0, size_t.clone(), loc),
            &mut stmts,
            loc,
        );
        let elems: Vec<Type> = strings
            .iter()
            .map(|s| {
                s.ty.pointee(self.tt())
                    .map(|t| t.unqualified().clone())
                    .unwrap_or(Type::Int(IntKind::Char))
            })
            .collect();
        let at = |s: &Expr, i: Expr| {
            let k = strings.iter().position(|x| std::ptr::eq(x, s)).unwrap_or(0);
            let elem = elems.get(k).cloned().unwrap_or(Type::Int(IntKind::Char));
            Expr::new(ExprKind::Index(Box::new(s.clone()), Box::new(i)), elem, loc)
        };
        let nul = |e: Expr| b::bin(BinOp::Ne, e, b::int(0));
        let step = b::assign(
            i.clone(),
            b::bin(BinOp::Add, i.clone(), Expr::int(1, size_t.clone(), loc)),
            self.tt(),
        );
        let result = match (name, strings.as_slice()) {
            ("strlen", [s]) => {
                stmts.push(while_(nul(at(s, i.clone())), step, loc));
                i
            }
            ("strcpy" | "strcat", [d, s]) => {
                // `strcat` first finds the end of `d`: `while (d[j] != 0) j++;`.
                let end = if name == "strcat" {
                    let zero = Expr::int(0, size_t.clone(), loc);
                    let j = self.declare_temp("__seq_str_end", &size_t, zero, &mut stmts, loc);
                    let one = Expr::int(1, size_t.clone(), loc);
                    let next = b::assign(j.clone(), b::bin(BinOp::Add, j.clone(), one), self.tt());
                    stmts.push(while_(nul(at(d, j.clone())), next, loc));
                    Some(j)
                } else {
                    None
                };
                let to = |i: Expr| match &end {
                    Some(j) => b::bin(BinOp::Add, j.clone(), i),
                    None => i,
                };
                // `do { c = s[i]; d[i] = c; i++; } while (c != 0)`, the NUL copied too.
                let c = self
                    .prog
                    .new_local(self.func, "__seq_str_c", Type::int(), loc);
                let cx = Expr::var(c, self.prog, loc);
                let mut body = Vec::new();
                body.push(b::expr_stmt(
                    b::assign(cx.clone(), at(s, i.clone()), self.tt()),
                    loc,
                    StmtId::NONE,
                ));
                let dst = at(d, to(i.clone()));
                let dst_ty = dst.ty.clone();
                body.push(b::expr_stmt(
                    b::assign(dst, self.conv(cx.clone(), &dst_ty), self.tt()),
                    loc,
                    StmtId::NONE,
                ));
                body.push(b::expr_stmt(step, loc, StmtId::NONE));
                stmts.push(Stmt::new(StmtKind::Decl { var: c, init: None }, loc));
                stmts.push(Stmt::new(
                    StmtKind::DoWhile {
                        body: Box::new(Stmt::block(body, loc)),
                        cond: nul(cx),
                    },
                    loc,
                ));
                let ret = Type::ptr(Type::Int(IntKind::Char));
                self.conv(d.clone(), &ret)
            }
            ("strncpy", [d, s]) => {
                // `c = 1; while (i < n) { if (c != 0) c = s[i]; d[i] = c; i++; }`: the
                // characters up to the first NUL, then NULs up to `n` (C11 7.24.2.4); no
                // character of `s` past its NUL is read.
                let Some(n) = limit.clone() else {
                    return Ok(None);
                };
                let int = Type::int();
                let c = self.declare_temp("__seq_str_c", &int, b::int(1), &mut stmts, loc);
                let read = Stmt::new(
                    StmtKind::If {
                        cond: nul(c.clone()),
                        then: Box::new(b::expr_stmt(
                            b::assign(c.clone(), at(s, i.clone()), self.tt()),
                            loc,
                            StmtId::NONE,
                        )),
                        els: None,
                    },
                    loc,
                );
                let dst = at(d, i.clone());
                let dst_ty = dst.ty.clone();
                let store = b::expr_stmt(
                    b::assign(dst, self.conv(c.clone(), &dst_ty), self.tt()),
                    loc,
                    StmtId::NONE,
                );
                stmts.push(Stmt::new(
                    StmtKind::While {
                        cond: b::bin(BinOp::Lt, i.clone(), n),
                        body: Box::new(Stmt::block(
                            vec![read, store, b::expr_stmt(step, loc, StmtId::NONE)],
                            loc,
                        )),
                    },
                    loc,
                ));
                let ret = Type::ptr(Type::Int(IntKind::Char));
                self.conv(d.clone(), &ret)
            }
            (_, [x, y]) => {
                // Compared as `unsigned char`, as C specifies.
                let uchar = Type::Int(IntKind::UChar);
                let cx = |s: &Expr, i: Expr| {
                    b::conv(
                        b::conv(at(s, i), &uchar, self.tt()),
                        &Type::int(),
                        self.tt(),
                    )
                };
                let mut go = b::and(
                    nul(cx(x, i.clone())),
                    b::bin(BinOp::Eq, cx(x, i.clone()), cx(y, i.clone())),
                );
                let mut within = None;
                if let Some(n) = &limit {
                    // `i < n - 1`: the `n`th pair is compared, not stepped past.
                    let one = Expr::int(1, size_t.clone(), loc);
                    let last = b::bin(BinOp::Add, i.clone(), one);
                    go = b::and(b::bin(BinOp::Lt, last, n.clone()), go);
                    within = Some(b::bin(
                        BinOp::Eq,
                        n.clone(),
                        Expr::int(0, size_t.clone(), loc),
                    ));
                }
                stmts.push(while_(go, step, loc));
                let int = Type::int();
                let diff = b::bin(BinOp::Sub, cx(x, i.clone()), cx(y, i.clone()));
                let diff = match within {
                    // `strncmp(a, b, 0)` compares nothing: equal.
                    Some(empty) => Expr::new(
                        ExprKind::Cond(Box::new(empty), Box::new(b::int(0)), Box::new(diff)),
                        int.clone(),
                        loc,
                    ),
                    None => diff,
                };
                let d = self.declare_temp("__seq_str_diff", &int, diff, &mut stmts, loc);
                let r =
                    self.declare_temp("__seq_str_cmp", &int, b::nondet(&int, loc), &mut stmts, loc);
                let same_sign = b::and(
                    b::bin(
                        BinOp::Eq,
                        b::bin(BinOp::Lt, r.clone(), b::int(0)),
                        b::bin(BinOp::Lt, d.clone(), b::int(0)),
                    ),
                    b::bin(
                        BinOp::Eq,
                        b::bin(BinOp::Gt, r.clone(), b::int(0)),
                        b::bin(BinOp::Gt, d, b::int(0)),
                    ),
                );
                stmts.push(b::expr_stmt(
                    b::intrinsic(Intrinsic::Assume, vec![same_sign], loc),
                    loc,
                    StmtId::NONE,
                ));
                r
            }
            _ => return Ok(None),
        };
        self.c11_calls.push((name.to_string(), loc));
        let ty = result.ty.clone();
        stmts.push(Stmt::expr(result));
        super::locate(&mut stmts, loc);
        Ok(Some(Expr::new(ExprKind::StmtExpr(stmts), ty, loc)))
    }

    /// A string argument as something to index: a named array itself, or a pointer
    /// temporary holding the argument. `None` when it is no pointer to characters.
    fn string_operand(&mut self, e: Expr, out: &mut Vec<Stmt>, loc: Loc) -> Option<Expr> {
        let pointee = e.ty.pointee(self.tt())?.unqualified().clone();
        if !matches!(
            pointee.resolve(self.tt()),
            Type::Int(IntKind::Char | IntKind::SChar | IntKind::UChar)
        ) {
            return None;
        }
        if let ExprKind::Decay(a) = &e.kind {
            if matches!(a.kind, ExprKind::Var(_)) {
                return Some(e);
            }
        }
        let ty = e.ty.unqualified().clone();
        Some(self.declare_temp("__seq_str", &ty, e, out, loc))
    }
}

/// `while (cond) step;`
fn while_(cond: Expr, step: Expr, loc: Loc) -> Stmt {
    Stmt::new(
        StmtKind::While {
            cond,
            body: Box::new(Stmt::block(
                vec![b::expr_stmt(step, loc, StmtId::NONE)],
                loc,
            )),
        },
        loc,
    )
}
