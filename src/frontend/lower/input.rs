//! The program's command-line input: numbers read from `argv` with `sscanf`, `atoi` and
//! their relatives, modelled as what they are to a verifier — any value the input could
//! give.
//!
//! seqloc gives `main` an arbitrary `argc` and `argv` (`seq::build`), and a string behind
//! `argv` is arbitrary too, so the number a conversion makes of it is any value of the
//! target's type. That is exact only while the string really is the input: the source
//! must be `argv[K]` (or `*(argv + K)`, `*argv`) of `main`'s own second parameter, with a
//! constant `K`, never a buffer the program wrote, and the format only integer conversions
//! (`%d`, `%i`, `%u`, `%x`, `%o` with their length modifiers, and `%*…` to skip one).
//! Anything else — `%s`, `%f`, a literal or local source, `strtol` with an end pointer or a
//! base that is not a constant — is left as the plain call, which the later passes refuse
//! by name.
//!
//! One string is one input: converting `argv[K]` again (a second call, a loop) gives the
//! same answer, so each string's conversion is remembered in locals of `main` (an
//! [`ArgvMemo`]) and made once. Converting one string two different ways (`atoi` and
//! `%x`) would need the two answers related as the string relates them; seqloc does not
//! model that and leaves the second call, refused by name, rather than answer as if the
//! two were independent. A non-constant index (`argv[i]` in a loop over the arguments)
//! is refused for the same reason: it may name a string converted before.
//!
//! `sscanf` with `n` conversions returns `EOF` (an empty string) or how many it stored,
//! `0..=n`, and stores exactly that many: the model picks the count first and gives
//! each of the first `count` targets an arbitrary value.

use lang_c::ast;
use lang_c::span::Node;

use super::{Lowerer, R};
use crate::ir::build as b;
use crate::ir::*;

/// The conversions of `atoi` and its relatives: the name and the result type.
fn numeric(name: &str) -> Option<Type> {
    Some(match name {
        "atoi" => Type::int(),
        "atol" | "strtol" => Type::Int(IntKind::Long),
        "atoll" | "strtoll" => Type::Int(IntKind::LongLong),
        "strtoul" => Type::Int(IntKind::ULong),
        "strtoull" => Type::Int(IntKind::ULongLong),
        _ => return None,
    })
}

/// How many values the `sscanf` format `f` stores, when every conversion is an integer
/// one (`None` otherwise). The format is read as `scanf`'s (`stdin::conversions`).
fn integer_conversions(f: &[u8]) -> Option<usize> {
    let convs = super::stdin::conversions(f)?;
    convs
        .iter()
        .all(|c| *c == super::stdin::Conversion::Integer)
        .then_some(convs.len())
}

/// The remembered conversion of one string of `argv`: locals of `main`, declared at its
/// start, set by the first conversion and read by every later one.
pub(super) struct ArgvMemo {
    /// The string: `argv[index]`.
    index: i128,
    /// How it is converted (`atoi`, `strtol/16`, `sscanf:%d %d`): only the same
    /// conversion may read the memo.
    conversion: String,
    /// Whether the string was converted yet.
    done: VarId,
    /// `sscanf`'s count (`EOF`, or how many it stored).
    count: Option<VarId>,
    /// The numbers: one for `atoi` and its relatives, one per stored conversion for
    /// `sscanf`.
    values: Vec<VarId>,
    loc: Loc,
}

/// `K` of a source `argv[K]`, `*(argv + K)` or `*argv`, `K` a constant.
fn argv_index(e: &Expr, argv: VarId) -> Option<i128> {
    let is_argv = |x: &Expr| matches!(x.peel().kind, ExprKind::Var(v) if v == argv);
    let constant = |x: &Expr| match x.peel().kind {
        ExprKind::Int(k) => Some(k),
        _ => None,
    };
    match &e.peel().kind {
        ExprKind::Index(base, k) if is_argv(base) => constant(k),
        ExprKind::Deref(p) => match &p.peel().kind {
            ExprKind::Binary(BinOp::Add, a, c) if is_argv(a) => constant(c),
            ExprKind::Binary(BinOp::Add, a, c) if is_argv(c) => constant(a),
            _ if is_argv(p) => Some(0),
            _ => None,
        },
        _ => None,
    }
}

impl Lowerer<'_, '_> {
    /// `main`'s body with its integer parameters (`argc`) read as inputs first: a
    /// statement at the parameter, so that a counterexample records the value and its
    /// replays keep it (the sequential program's own binding of the parameters is a
    /// value no replay can fix).
    pub(super) fn main_inputs(
        &mut self,
        params: &[VarId],
        decl: &super::Declared,
        body: Stmt,
    ) -> Stmt {
        let mut v = Vec::new();
        // The memos of the strings converted, declared first: none converted yet.
        for m in std::mem::take(&mut self.argv_memos) {
            let vars = std::iter::once(m.done).chain(m.count).chain(m.values);
            for var in vars {
                let ty = self.prog.var(var).ty.clone();
                v.push(Stmt::new(
                    StmtKind::Decl {
                        var,
                        init: Some(Init::Expr(b::typed_int(0, &ty))),
                    },
                    m.loc,
                ));
            }
        }
        for (p, d) in params.iter().zip(&decl.params) {
            let ty = self.prog.var(*p).ty.clone();
            if !ty.is_integer(self.tt()) {
                continue;
            }
            let target = Expr::var(*p, self.prog, d.loc);
            let read = b::assign(target, b::nondet(&ty, d.loc), self.tt());
            v.push(Stmt::expr(read));
        }
        if v.is_empty() {
            return body;
        }
        // Into the body's own list: the analyses that read `main`'s straight-line
        // prefix (`checker::counting`) walk its top-level statements.
        let loc = body.loc;
        match body.kind {
            StmtKind::Block(ss) => v.extend(ss),
            _ => v.push(body),
        }
        Stmt::block(v, loc)
    }

    /// The model of a call of `name` reading a number from the command line, when it
    /// is one (see the module comment); `None` leaves the call as it is.
    pub(super) fn input_call(
        &mut self,
        name: &str,
        args: &[Node<ast::Expression>],
        loc: Loc,
    ) -> R<Option<Expr>> {
        let result = numeric(name);
        if (result.is_none() && name != "sscanf") || args.is_empty() {
            return Ok(None);
        }
        // A function of that name the program defines itself is its own.
        if self.defines_function(name) {
            return Ok(None);
        }
        let Some(argv) = self.argv else {
            return Ok(None);
        };
        let source = self.rvalue(&args[0])?;
        let Some(index) = argv_index(&source, argv) else {
            return Ok(None);
        };
        // The source is only evaluated for its side effects: what it holds is input.
        let mut stmts = Vec::new();
        Self::keep_effects(source, &mut stmts, loc);
        if let Some(ty) = result {
            // `strtol(s, &end, base)`: where the number ended is not modelled.
            if let Some(end) = args.get(1) {
                let end = self.rvalue(end)?;
                if !matches!(end.peel().kind, ExprKind::Int(0)) {
                    return Ok(None);
                }
            }
            // The base is part of the conversion: `strtol(s, 0, 16)` is not `atol(s)`.
            let mut conversion = name.to_string();
            if let Some(base) = args.get(2) {
                let base = self.rvalue(base)?;
                let ExprKind::Int(k) = base.peel().kind else {
                    return Ok(None);
                };
                conversion = format!("{name}/{k}");
            }
            let Some((done, _, values)) =
                self.argv_memo(index, &conversion, std::slice::from_ref(&ty), false, loc)
            else {
                return Ok(None);
            };
            let Some(value) = values.first().copied() else {
                return Ok(None);
            };
            let first = self.first_conversion(done, &[value], None, 0, loc);
            stmts.push(b::if_(b::not(Expr::var(done, self.prog, loc)), first, None));
            stmts.push(b::expr_stmt(
                Expr::var(value, self.prog, loc),
                loc,
                StmtId::NONE,
            ));
            self.c11_calls.push((name.to_string(), loc));
            return Ok(Some(Expr::new(ExprKind::StmtExpr(stmts), ty, loc)));
        }
        let Some(format) = args.get(1) else {
            return Ok(None);
        };
        let format = self.rvalue(format)?;
        let ExprKind::Str(bytes) = &format.peel().kind else {
            return Ok(None);
        };
        let Some(n) = integer_conversions(bytes) else {
            return Ok(None);
        };
        if args.len() != n + 2 {
            return Ok(None);
        }
        let conversion = format!("sscanf:{}", String::from_utf8_lossy(bytes));
        // The targets, evaluated once, before anything is stored.
        let mut targets = Vec::new();
        for a in &args[2..] {
            let p = self.rvalue(a)?;
            let Some(pointee) = p.ty.pointee(self.tt()).cloned() else {
                return Ok(None);
            };
            if !pointee.is_integer(self.tt()) || pointee.quals(self.tt()).konst {
                return Ok(None);
            }
            let t = self
                .prog
                .new_local(self.func, "__seq_scan_target", p.ty.clone(), loc);
            stmts.push(Stmt::new(
                StmtKind::Decl {
                    var: t,
                    init: Some(Init::Expr(p)),
                },
                loc,
            ));
            targets.push((t, pointee));
        }
        let types: Vec<Type> = targets.iter().map(|(_, ty)| ty.clone()).collect();
        let Some((done, count, values)) = self.argv_memo(index, &conversion, &types, true, loc)
        else {
            return Ok(None);
        };
        let Some(count) = count else {
            return Ok(None);
        };
        let first = self.first_conversion(done, &values, Some(count), n, loc);
        stmts.push(b::if_(b::not(Expr::var(done, self.prog, loc)), first, None));
        let c = || Expr::var(count, self.prog, loc);
        for (k, ((t, _), v)) in targets.into_iter().zip(values).enumerate() {
            let store = b::assign(
                b::deref(Expr::var(t, self.prog, loc), self.tt()),
                Expr::var(v, self.prog, loc),
                self.tt(),
            );
            stmts.push(b::if_(
                b::bin(BinOp::Gt, c(), b::int(k as i128)),
                vec![b::expr_stmt(store, loc, StmtId::NONE)],
                None,
            ));
        }
        stmts.push(b::expr_stmt(c(), loc, StmtId::NONE));
        self.c11_calls.push((name.to_string(), loc));
        Ok(Some(Expr::new(ExprKind::StmtExpr(stmts), Type::int(), loc)))
    }

    /// The memo of `argv[index]` converted by `conversion` into values of `types` (with a
    /// count for `sscanf`), as its locals (done, count, values): the existing one, or a
    /// new one. `None` when the string was converted another way before (see the module
    /// comment).
    fn argv_memo(
        &mut self,
        index: i128,
        conversion: &str,
        types: &[Type],
        with_count: bool,
        loc: Loc,
    ) -> Option<(VarId, Option<VarId>, Vec<VarId>)> {
        let memo = |m: &ArgvMemo| (m.done, m.count, m.values.clone());
        if let Some(m) = self.argv_memos.iter().find(|m| m.index == index) {
            return (m.conversion == conversion).then(|| memo(m));
        }
        let done = self
            .prog
            .new_local(self.func, "__seq_argv_read", Type::int(), loc);
        let count = with_count.then(|| {
            self.prog
                .new_local(self.func, "__seq_argv_count", Type::int(), loc)
        });
        let values = types
            .iter()
            .map(|ty| {
                self.prog
                    .new_local(self.func, "__seq_argv_value", ty.clone(), loc)
            })
            .collect();
        self.argv_memos.push(ArgvMemo {
            index,
            conversion: conversion.to_string(),
            done,
            count,
            values,
            loc,
        });
        self.argv_memos.last().map(memo)
    }

    /// The first conversion of a string: any count `EOF..=n` (`sscanf`) and any values,
    /// remembered.
    fn first_conversion(
        &mut self,
        done: VarId,
        values: &[VarId],
        count: Option<VarId>,
        n: usize,
        loc: Loc,
    ) -> Vec<Stmt> {
        let mut first = Vec::new();
        if let Some(count) = count {
            let c = || Expr::var(count, self.prog, loc);
            first.push(b::expr_stmt(
                b::assign(c(), b::nondet(&Type::int(), loc), self.tt()),
                loc,
                StmtId::NONE,
            ));
            let in_range = b::and(
                b::bin(BinOp::Ge, c(), b::int(-1)),
                b::bin(BinOp::Le, c(), b::int(n as i128)),
            );
            first.push(b::expr_stmt(
                b::intrinsic(Intrinsic::Assume, vec![in_range], loc),
                loc,
                StmtId::NONE,
            ));
        }
        for v in values {
            let ty = self.prog.var(*v).ty.clone();
            first.push(b::expr_stmt(
                b::assign(
                    Expr::var(*v, self.prog, loc),
                    b::nondet(&ty, loc),
                    self.tt(),
                ),
                loc,
                StmtId::NONE,
            ));
        }
        first.push(b::expr_stmt(
            b::assign(Expr::var(done, self.prog, loc), b::int(1), self.tt()),
            loc,
            StmtId::NONE,
        ));
        first
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn only_integer_formats_are_modelled() {
        assert_eq!(integer_conversions(b"%d"), Some(1));
        assert_eq!(integer_conversions(b"%d %ld, %*d %5u %%"), Some(3));
        assert_eq!(integer_conversions(b"%hhx:%llo"), Some(2));
        assert_eq!(integer_conversions(b"no conversion"), Some(0));
        assert_eq!(integer_conversions(b"%s"), None);
        assert_eq!(integer_conversions(b"%d %f"), None);
        assert_eq!(integer_conversions(b"%c"), None);
        assert_eq!(integer_conversions(b"%"), None);
    }

    #[test]
    fn the_numeric_conversions_have_their_types() {
        assert_eq!(numeric("atoi"), Some(Type::int()));
        assert!(numeric("strtoul").is_some());
        assert!(numeric("strtod").is_none());
        assert!(numeric("sscanf").is_none());
    }
}
