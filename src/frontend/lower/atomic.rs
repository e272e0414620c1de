//! C11 atomics and GCC's atomic builtins, each one indivisible step.
//!
//! `<stdatomic.h>`'s macros expand to GCC's `__atomic_*` builtins (`atomic_fetch_add` to
//! `__atomic_fetch_add`, `atomic_load` to a statement expression around `__atomic_load`),
//! and `x++`/`x += v` on an `_Atomic` object is one indivisible read-modify-write. Each is
//! lowered here to plain C the rest of seqloc already models in every engine: an atomic
//! section (`Intrinsic::AtomicBegin/End`, what `__VERIFIER_atomic_begin/end` become) around
//! plain reads and writes, inside a statement expression whose value is the builtin's. So
//! `r = __atomic_fetch_add(p, v, order)` becomes
//! `r = ({ T *q = p; T w = v; atomic { T t = *q; *q = t + w; } t; })`.
//!
//! Arguments are evaluated before the section, as the compiled code does (only the
//! read-modify-write itself is one instruction), so a shared read in an argument stays
//! its own step. A single load or store (`__atomic_load_n`, `__atomic_store_n`,
//! `__atomic_clear`) needs no section: every read and write is one step already.
//!
//! Every memory order is checked as sequentially consistent: a program that asks for a
//! weaker one is noted (`Lowerer::weak_order`) so the user is told once that behaviours
//! only that order allows are not explored. Fences are no-ops under that semantics.
//! `compare_exchange_weak` may fail spuriously (C11 7.17.7.4): its success is also a
//! nondeterministic choice. GCC's fetch-and-op builtins on pointers add bytes, not
//! elements (and `<stdatomic.h>`'s macros inherit that), so they are refused by name
//! rather than given either meaning; so are builtins not listed here
//! (`__atomic_is_lock_free`...), by the later stages that refuse unknown `__atomic_*` calls.

use lang_c::ast;
use lang_c::span::{Node, Span};

use super::{Lowerer, R};
use crate::ir::consteval::eval_int;
use crate::ir::*;

/// The arithmetic of a fetch-and-op builtin.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum RmwOp {
    Add,
    Sub,
    And,
    Or,
    Xor,
    Nand,
}

/// Which value a fetch-and-op returns.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Returns {
    Old,
    New,
}

/// The builtins modelled, by shape. `order` lists the positions of memory-order arguments.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Builtin {
    /// `__atomic_load_n(p, o)`.
    LoadN,
    /// `__atomic_load(p, ret, o)`.
    Load,
    /// `__atomic_store_n(p, v, o)`.
    StoreN,
    /// `__atomic_store(p, vp, o)`.
    Store,
    /// `__atomic_exchange_n(p, v, o)`, `__sync_lock_test_and_set(p, v)`.
    ExchangeN,
    /// `__atomic_exchange(p, vp, ret, o)`.
    Exchange,
    /// `__atomic_compare_exchange_n(p, expected, desired, weak, s, f)`.
    CmpXchgN,
    /// `__atomic_compare_exchange(p, expected, desired_p, weak, s, f)`.
    CmpXchg,
    /// `__atomic_fetch_add(p, v, o)`, `__atomic_add_fetch`, `__sync_fetch_and_add(p, v)`...
    Rmw(RmwOp, Returns),
    /// `__sync_bool_compare_and_swap(p, old, new)` (`true`) or
    /// `__sync_val_compare_and_swap` (`false`: the old value).
    SyncCas(bool),
    /// `__atomic_test_and_set(p, o)`.
    TestAndSet,
    /// `__atomic_clear(p, o)`: a store of 0 to a flag byte.
    Clear,
    /// `__sync_lock_release(p)`: a store of 0 to an integer of any width.
    Release,
    /// `__atomic_thread_fence(o)`, `__atomic_signal_fence(o)`, `__sync_synchronize()`.
    Fence,
}

impl Builtin {
    /// The builtin a name denotes, with its argument count and memory-order positions.
    fn of(name: &str) -> Option<(Builtin, usize, &'static [usize])> {
        use Builtin::*;
        let rmw = |s: &str| match s {
            "add" => Some(RmwOp::Add),
            "sub" => Some(RmwOp::Sub),
            "and" => Some(RmwOp::And),
            "or" => Some(RmwOp::Or),
            "xor" => Some(RmwOp::Xor),
            "nand" => Some(RmwOp::Nand),
            _ => None,
        };
        Some(match name {
            "__atomic_load_n" => (LoadN, 2, &[1]),
            "__atomic_load" => (Load, 3, &[2]),
            "__atomic_store_n" => (StoreN, 3, &[2]),
            "__atomic_store" => (Store, 3, &[2]),
            "__atomic_exchange_n" => (ExchangeN, 3, &[2]),
            "__atomic_exchange" => (Exchange, 4, &[3]),
            "__atomic_compare_exchange_n" => (CmpXchgN, 6, &[4, 5]),
            "__atomic_compare_exchange" => (CmpXchg, 6, &[4, 5]),
            "__atomic_test_and_set" => (TestAndSet, 2, &[1]),
            "__atomic_clear" => (Clear, 2, &[1]),
            "__atomic_thread_fence" | "__atomic_signal_fence" => (Fence, 1, &[0]),
            "__sync_synchronize" => (Fence, 0, &[]),
            "__sync_lock_test_and_set" => (ExchangeN, 2, &[]),
            "__sync_lock_release" => (Release, 1, &[]),
            "__sync_bool_compare_and_swap" => (SyncCas(true), 3, &[]),
            "__sync_val_compare_and_swap" => (SyncCas(false), 3, &[]),
            n => {
                if let Some(op) = n.strip_prefix("__atomic_fetch_").and_then(rmw) {
                    (Rmw(op, Returns::Old), 3, &[2])
                } else if let Some(op) = n
                    .strip_prefix("__atomic_")
                    .and_then(|s| s.strip_suffix("_fetch"))
                    .and_then(rmw)
                {
                    (Rmw(op, Returns::New), 3, &[2])
                } else if let Some(op) = n.strip_prefix("__sync_fetch_and_").and_then(rmw) {
                    (Rmw(op, Returns::Old), 2, &[])
                } else if let Some(op) = n
                    .strip_prefix("__sync_")
                    .and_then(|s| s.strip_suffix("_and_fetch"))
                    .and_then(rmw)
                {
                    (Rmw(op, Returns::New), 2, &[])
                } else {
                    return None;
                }
            }
        })
    }
}

/// The C11 names a program may call without `<stdatomic.h>` (an implicit declaration, as
/// ESBMC and CBMC accept), as the builtin call the header's macro would give: the builtin's
/// name and where the default order (`seq_cst`) goes, if the name has no `_explicit`.
fn c11_name(name: &str) -> Option<&'static str> {
    let base = name.strip_suffix("_explicit").unwrap_or(name);
    Some(match base {
        "atomic_load" => "__atomic_load_n",
        "atomic_store" | "atomic_init" => "__atomic_store_n",
        "atomic_exchange" => "__atomic_exchange_n",
        "atomic_compare_exchange_strong" | "atomic_compare_exchange_weak" => {
            "__atomic_compare_exchange_n"
        }
        "atomic_fetch_add" => "__atomic_fetch_add",
        "atomic_fetch_sub" => "__atomic_fetch_sub",
        "atomic_fetch_and" => "__atomic_fetch_and",
        "atomic_fetch_or" => "__atomic_fetch_or",
        "atomic_fetch_xor" => "__atomic_fetch_xor",
        "atomic_flag_test_and_set" => "__atomic_test_and_set",
        "atomic_flag_clear" => "__atomic_clear",
        "atomic_thread_fence" => "__atomic_thread_fence",
        "atomic_signal_fence" => "__atomic_signal_fence",
        _ => return None,
    })
}

/// `__ATOMIC_SEQ_CST` (`memory_order_seq_cst`); GCC's HLE flags sit above the low 16 bits.
const SEQ_CST: i128 = 5;

fn order_name(v: Option<i128>) -> &'static str {
    match v.map(|v| v & 0xffff) {
        Some(0) => "relaxed",
        Some(1) => "consume",
        Some(2) => "acquire",
        Some(3) => "release",
        Some(4) => "acq_rel",
        _ => "not a constant",
    }
}

/// Statements of a lowered atomic operation, in order: argument evaluation, the
/// indivisible part, what follows it.
struct Parts {
    before: Vec<Stmt>,
    section: Vec<Stmt>,
    after: Vec<Stmt>,
}

impl Lowerer<'_, '_> {
    /// A call to one of GCC's atomic builtins, or to a C11 `atomic_*` function the program
    /// never declared, lowered to its indivisible meaning. `None`: not such a call (the
    /// caller lowers it as a plain call; unmodelled `__atomic_*`/`__sync_*` builtins are
    /// refused by name later).
    pub(super) fn atomic_call(
        &mut self,
        name: &str,
        args: &[Node<ast::Expression>],
        span: Span,
        loc: Loc,
    ) -> R<Option<Expr>> {
        let mut lowered = Vec::with_capacity(args.len() + 1);
        let builtin = if let Some(b) = Builtin::of(name) {
            b
        } else if let Some(bname) = c11_name(name).filter(|_| self.lookup(name).is_none()) {
            let Some(b) = Builtin::of(bname) else {
                return Ok(None);
            };
            self.c11_calls.push((name.to_string(), loc));
            // The C11 functions take what the builtin does, without the orders unless
            // `_explicit`; `atomic_compare_exchange_*` has no `weak` argument.
            let explicit = name.ends_with("_explicit");
            let weak = name.contains("_weak");
            for a in args {
                lowered.push(self.rvalue(a)?);
            }
            if b.0 == Builtin::CmpXchgN && lowered.len() >= 3 {
                lowered.insert(3, Expr::int(weak as i128, Type::int(), loc));
            }
            if !explicit && b.0 != Builtin::Fence {
                for _ in b.2 {
                    lowered.push(Expr::int(SEQ_CST, Type::int(), loc));
                }
            }
            b
        } else {
            return Ok(None);
        };
        if lowered.is_empty() {
            for a in args {
                lowered.push(self.rvalue(a)?);
            }
        }
        let (b, nargs, orders) = builtin;
        if lowered.len() != nargs {
            return Err(self.error(
                span,
                format!(
                    "`{name}` takes {nargs} argument{}, not {}",
                    if nargs == 1 { "" } else { "s" },
                    lowered.len()
                ),
            ));
        }
        for &i in orders {
            let v = eval_int(&lowered[i], self.tt(), self.dm());
            if v.map(|v| v & 0xffff) != Some(SEQ_CST)
                && self.weak_order.is_none()
                && !self.is_atomic_init(loc)
            {
                self.weak_order = Some((loc, format!("{name} ({})", order_name(v))));
            }
        }
        self.builtin(b, name, lowered, span, loc).map(Some)
    }

    /// `<stdatomic.h>`'s `atomic_init(p, v)` is a relaxed `__atomic_store`, but it is an
    /// initialization, not a choice of memory order: no notice for it. Told apart by the
    /// line as written (the expansion has no trace of the macro's name).
    fn is_atomic_init(&self, loc: Loc) -> bool {
        let Some(line) = self.prog.sources.source_line(loc) else {
            return false;
        };
        let orders = ["relaxed", "consume", "acquire", "release", "acq_rel"];
        line.contains("atomic_init")
            && !orders.iter().any(|o| line.to_ascii_lowercase().contains(o))
    }

    fn builtin(
        &mut self,
        b: Builtin,
        name: &str,
        args: Vec<Expr>,
        span: Span,
        loc: Loc,
    ) -> R<Expr> {
        let mut a = args.into_iter();
        let mut next = || a.next().unwrap_or_else(|| Expr::int(0, Type::int(), loc));
        let mut p = Parts {
            before: vec![],
            section: vec![],
            after: vec![],
        };
        let value = match b {
            Builtin::Fence => {
                // Evaluate the order for its effects; under sequential consistency a fence
                // orders nothing more.
                let o = next();
                p.before.push(Stmt::expr(o));
                None
            }
            Builtin::LoadN => {
                let obj = self.object(next(), name, span, &mut p.before)?;
                self.scalar(&obj, name, span)?;
                let ty = self.plain(&obj.ty);
                Some(self.conv(obj, &ty))
            }
            Builtin::Load => {
                let obj = self.object(next(), name, span, &mut p.before)?;
                self.scalar(&obj, name, span)?;
                let ret = self.object(next(), name, span, &mut p.before)?;
                let ty = self.plain(&ret.ty);
                let v = self.conv(obj, &ty);
                p.before.push(Stmt::expr(assign(ret, v, loc)));
                None
            }
            Builtin::StoreN | Builtin::Store | Builtin::Clear | Builtin::Release => {
                let obj = self.object(next(), name, span, &mut p.before)?;
                let obj = if b == Builtin::Clear {
                    self.flag_byte(obj, name, span)?
                } else {
                    self.scalar(&obj, name, span)?;
                    obj
                };
                let ty = self.plain(&obj.ty);
                let v = match b {
                    Builtin::StoreN => next(),
                    Builtin::Store => self.object(next(), name, span, &mut p.before)?,
                    _ => Expr::int(0, Type::int(), loc),
                };
                let v = self.conv(v, &ty);
                let v = self.hoist("__atomic_value", &ty, v, &mut p.before)?;
                p.before.push(Stmt::expr(assign(obj, v, loc)));
                None
            }
            Builtin::ExchangeN | Builtin::Exchange => {
                let obj = self.object(next(), name, span, &mut p.before)?;
                self.scalar(&obj, name, span)?;
                let ty = self.plain(&obj.ty);
                let v = if b == Builtin::Exchange {
                    self.object(next(), name, span, &mut p.before)?
                } else {
                    next()
                };
                let v = self.conv(v, &ty);
                let v = self.hoist("__atomic_value", &ty, v, &mut p.before)?;
                let old = self.temp("__atomic_old", &ty, obj.clone(), &mut p.section)?;
                p.section.push(Stmt::expr(assign(obj, v, loc)));
                if b == Builtin::Exchange {
                    let ret = self.object(next(), name, span, &mut p.before)?;
                    p.after.push(Stmt::expr(assign(ret, old, loc)));
                    None
                } else {
                    Some(old)
                }
            }
            Builtin::CmpXchgN | Builtin::CmpXchg | Builtin::SyncCas(_) => {
                let obj = self.object(next(), name, span, &mut p.before)?;
                self.scalar(&obj, name, span)?;
                let ty = self.plain(&obj.ty);
                let (expected, e) = if let Builtin::SyncCas(_) = b {
                    let e = self.conv(next(), &ty);
                    (
                        None,
                        self.hoist("__atomic_expected", &ty, e, &mut p.before)?,
                    )
                } else {
                    let place = self.object(next(), name, span, &mut p.before)?;
                    let e = self.conv(place.clone(), &ty);
                    let e = self.temp("__atomic_expected", &ty, e, &mut p.before)?;
                    (Some(place), e)
                };
                let d = if b == Builtin::CmpXchg {
                    self.object(next(), name, span, &mut p.before)?
                } else {
                    next()
                };
                let d = self.conv(d, &ty);
                let d = self.hoist("__atomic_desired", &ty, d, &mut p.before)?;
                let weak = if let Builtin::SyncCas(_) = b {
                    Expr::int(0, Type::int(), loc)
                } else {
                    next()
                };
                let weak = match eval_int(&weak, self.tt(), self.dm()) {
                    Some(w) => Expr::int((w != 0) as i128, Type::int(), loc),
                    None => self.hoist("__atomic_weak", &Type::int(), weak, &mut p.before)?,
                };
                let old = self.temp("__atomic_old", &ty, obj.clone(), &mut p.section)?;
                let equal = Expr::new(
                    ExprKind::Binary(BinOp::Eq, Box::new(old.clone()), Box::new(e)),
                    Type::int(),
                    loc,
                );
                // A weak compare-exchange may fail even when the values are equal.
                let succeeds = match weak.as_int() {
                    Some(0) => equal,
                    _ => {
                        let spurious = Expr::new(
                            ExprKind::Intrinsic(Intrinsic::Nondet, vec![]),
                            Type::bool(),
                            loc,
                        );
                        let may = match weak.as_int() {
                            Some(_) => spurious,
                            None => Expr::new(
                                ExprKind::Binary(
                                    BinOp::LogOr,
                                    Box::new(Expr::new(
                                        ExprKind::Unary(UnOp::LogNot, Box::new(weak)),
                                        Type::int(),
                                        loc,
                                    )),
                                    Box::new(spurious),
                                ),
                                Type::int(),
                                loc,
                            ),
                        };
                        Expr::new(
                            ExprKind::Binary(BinOp::LogAnd, Box::new(equal), Box::new(may)),
                            Type::int(),
                            loc,
                        )
                    }
                };
                let succeeds = self.conv(succeeds, &Type::bool());
                let ok = self.temp("__atomic_ok", &Type::bool(), succeeds, &mut p.section)?;
                p.section.push(Stmt::new(
                    StmtKind::If {
                        cond: ok.clone(),
                        then: Box::new(Stmt::expr(assign(obj, d, loc))),
                        els: None,
                    },
                    loc,
                ));
                if let Some(place) = expected {
                    // On failure the current value is written back to `*expected`, after
                    // the indivisible part (as the compiled code stores it).
                    let not_ok = Expr::new(
                        ExprKind::Unary(UnOp::LogNot, Box::new(ok.clone())),
                        Type::int(),
                        loc,
                    );
                    p.after.push(Stmt::new(
                        StmtKind::If {
                            cond: not_ok,
                            then: Box::new(Stmt::expr(assign(place, old.clone(), loc))),
                            els: None,
                        },
                        loc,
                    ));
                }
                match b {
                    Builtin::SyncCas(false) => Some(old),
                    _ => Some(ok),
                }
            }
            Builtin::Rmw(op, returns) => {
                let obj = self.object(next(), name, span, &mut p.before)?;
                let ty = self.plain(&obj.ty);
                let Some(k) = ty.int_kind(self.tt()).filter(|k| *k != IntKind::Bool) else {
                    return Err(self.unsupported(
                        span,
                        format!(
                            "`{name}` on a {}: GCC adds bytes to a pointer where C11 adds \
                             elements, so seqloc does not pick a meaning",
                            if ty.is_pointer(self.tt()) {
                                "pointer"
                            } else {
                                "non-integer object"
                            }
                        ),
                    ));
                };
                let v = self.conv(next(), &ty);
                let v = self.hoist("__atomic_value", &ty, v, &mut p.before)?;
                let old = self.temp("__atomic_old", &ty, obj.clone(), &mut p.section)?;
                let new = self.rmw_value(op, old.clone(), v, k, &ty, loc);
                let new = self.temp("__atomic_new", &ty, new, &mut p.section)?;
                p.section.push(Stmt::expr(assign(obj, new.clone(), loc)));
                Some(match returns {
                    Returns::Old => old,
                    Returns::New => new,
                })
            }
            Builtin::TestAndSet => {
                let obj = self.object(next(), name, span, &mut p.before)?;
                let byte = self.flag_byte(obj, name, span)?;
                let ty = self.plain(&byte.ty);
                let old = self.temp("__atomic_old", &ty, byte.clone(), &mut p.section)?;
                let one = self.conv(Expr::int(1, Type::int(), loc), &ty);
                p.section.push(Stmt::expr(assign(byte, one, loc)));
                let set = Expr::new(
                    ExprKind::Binary(
                        BinOp::Ne,
                        Box::new(old),
                        Box::new(Expr::int(0, Type::int(), loc)),
                    ),
                    Type::int(),
                    loc,
                );
                Some(self.conv(set, &Type::bool()))
            }
        };
        Ok(self.assemble(p, value, loc))
    }

    /// `x++`, `--x`, `x op= v` (already lowered as `e`) on an `_Atomic` lvalue: one
    /// indivisible read-modify-write, as `lock add` makes it.
    pub(super) fn atomic_rmw(&mut self, e: Expr) -> R<Expr> {
        let loc = e.loc;
        let ty = e.ty.clone();
        let mut p = Parts {
            before: vec![],
            section: vec![],
            after: vec![],
        };
        let inner = match e.kind {
            ExprKind::IncDec { inc, post, e: x } => {
                let x = self.stable(*x, &mut p.before)?;
                ExprKind::IncDec {
                    inc,
                    post,
                    e: Box::new(x),
                }
            }
            ExprKind::OpAssign {
                op,
                lhs,
                rhs,
                op_ty,
            } => {
                let lhs = self.stable(*lhs, &mut p.before)?;
                let rty = rhs.ty.clone();
                let rhs = self.hoist("__atomic_value", &rty, *rhs, &mut p.before)?;
                ExprKind::OpAssign {
                    op,
                    lhs: Box::new(lhs),
                    rhs: Box::new(rhs),
                    op_ty,
                }
            }
            other => return Ok(Expr::new(other, ty, loc)),
        };
        let plain = self.plain(&ty);
        let r = self.temp(
            "__atomic_result",
            &plain,
            Expr::new(inner, ty, loc),
            &mut p.section,
        )?;
        Ok(self.assemble(p, Some(r), loc))
    }

    /// The statement expression `({ before; atomic { section } after; value; })`. Inside
    /// a section already (an `__VERIFIER_atomic_*` function, or between the program's own
    /// `atomic_begin`/`atomic_end`) no markers are added: the flag the sequentializer keeps
    /// per thread does not nest.
    fn assemble(&mut self, p: Parts, value: Option<Expr>, loc: Loc) -> Expr {
        let mut stmts = p.before;
        if !p.section.is_empty() {
            self.indivisible(p.section, &mut stmts, loc);
        }
        stmts.extend(p.after);
        let ty = match value {
            Some(v) => {
                let ty = v.ty.clone();
                stmts.push(Stmt::expr(v));
                ty
            }
            None => Type::Void,
        };
        Expr::new(ExprKind::StmtExpr(stmts), ty, loc)
    }

    /// `section` into `out` as one step (an atomic section). Inside a section already (an
    /// `__VERIFIER_atomic_*` function, the program's own `atomic_begin`) it is part of
    /// that one: the flag the sequentializer keeps per thread does not nest.
    pub(super) fn indivisible(&mut self, section: Vec<Stmt>, out: &mut Vec<Stmt>, loc: Loc) {
        let marked = self.atomic_depth == 0 && !self.in_atomic_fn;
        if marked {
            if let Some(f) = self.func {
                self.sectioned.insert(f);
            }
            out.push(marker(Intrinsic::AtomicBegin, loc));
        }
        out.extend(section);
        if marked {
            out.push(marker(Intrinsic::AtomicEnd, loc));
        }
    }

    /// `old op v` in `ty`, computed in the unsigned type of its promotion: GCC defines
    /// the builtins' arithmetic to wrap around, signed types included.
    fn rmw_value(&self, op: RmwOp, old: Expr, v: Expr, k: IntKind, ty: &Type, loc: Loc) -> Expr {
        let promoted = self.promoted_type(&Type::Int(k));
        let wide = Type::Int(
            promoted
                .int_kind(self.tt())
                .unwrap_or(IntKind::Int)
                .to_unsigned(),
        );
        let a = self.conv(old, &wide);
        let b = self.conv(v, &wide);
        let bin = |op: BinOp, a: Expr, b: Expr| {
            Expr::new(
                ExprKind::Binary(op, Box::new(a), Box::new(b)),
                wide.clone(),
                loc,
            )
        };
        let r = match op {
            RmwOp::Add => bin(BinOp::Add, a, b),
            RmwOp::Sub => bin(BinOp::Sub, a, b),
            RmwOp::And => bin(BinOp::BitAnd, a, b),
            RmwOp::Or => bin(BinOp::BitOr, a, b),
            RmwOp::Xor => bin(BinOp::BitXor, a, b),
            RmwOp::Nand => Expr::new(
                ExprKind::Unary(UnOp::BitNot, Box::new(bin(BinOp::BitAnd, a, b))),
                wide.clone(),
                loc,
            ),
        };
        self.conv(r, ty)
    }

    /// The object a builtin's pointer argument points to, as an lvalue that stays the same
    /// object when read again: `&x` gives `x` itself; any other pointer is evaluated once,
    /// before the indivisible part, into a temporary.
    fn object(&mut self, ptr: Expr, name: &str, span: Span, out: &mut Vec<Stmt>) -> R<Expr> {
        let Some(pointee) = ptr.ty.pointee(self.tt()).cloned() else {
            return Err(self.error(span, format!("`{name}` needs a pointer argument")));
        };
        if pointee.is_void(self.tt()) || pointee.is_function(self.tt()) {
            return Err(self.unsupported(
                span,
                format!("`{name}` through a `void *` or function pointer"),
            ));
        }
        match &ptr.peel().kind {
            ExprKind::AddrOf(lv) if is_stable(lv) => return Ok((**lv).clone()),
            ExprKind::Var(v) => {
                if let Some(lv) = self.header_ptrs.get(v) {
                    return Ok(lv.clone());
                }
            }
            _ => {}
        }
        let loc = ptr.loc;
        let pty = ptr.ty.unqualified().clone();
        let q = self.hoist("__atomic_ptr", &pty, ptr, out)?;
        Ok(Expr::new(ExprKind::Deref(Box::new(q)), pointee, loc))
    }

    /// Atomic operations on structs and unions are refused: their copies are not modelled
    /// member by member yet (README, "Supported C").
    fn scalar(&mut self, obj: &Expr, name: &str, span: Span) -> R<()> {
        if obj.ty.is_scalar(self.tt()) {
            Ok(())
        } else {
            Err(self.unsupported(
                span,
                format!("`{name}` on an object that is not an integer or a pointer"),
            ))
        }
    }

    /// An `_Atomic` lvalue whose address is computed before the indivisible part.
    fn stable(&mut self, lv: Expr, out: &mut Vec<Stmt>) -> R<Expr> {
        if is_stable(&lv) {
            return Ok(lv);
        }
        let loc = lv.loc;
        let ty = lv.ty.clone();
        let ptr = match lv.kind {
            ExprKind::Deref(p) => *p,
            kind => {
                let inner = Expr::new(kind, ty.clone(), loc);
                Expr::new(
                    ExprKind::AddrOf(Box::new(inner)),
                    Type::ptr(ty.clone()),
                    loc,
                )
            }
        };
        let pty = ptr.ty.unqualified().clone();
        let q = self.hoist("__atomic_ptr", &pty, ptr, out)?;
        Ok(Expr::new(ExprKind::Deref(Box::new(q)), ty, loc))
    }

    /// The byte `__atomic_test_and_set`/`__atomic_clear` work on: the object itself when it
    /// is one byte (`bool`, `char`), the first member of a one-byte struct such as
    /// `atomic_flag` (`_Atomic struct { _Bool __val; }`).
    fn flag_byte(&mut self, obj: Expr, name: &str, span: Span) -> R<Expr> {
        let dm = self.dm();
        let loc = obj.loc;
        let one_byte_int = |t: &Type, tt: &TypeTable| t.is_integer(tt) && t.size(tt, dm) == Some(1);
        if one_byte_int(&obj.ty, self.tt()) {
            return Ok(obj);
        }
        if let Type::Comp(cid) = obj.ty.resolve(self.tt()) {
            let c = self.tt().comp(*cid);
            if let Some(f) = c.fields.first() {
                if c.complete
                    && one_byte_int(&f.ty, self.tt())
                    && obj.ty.size(self.tt(), dm) == Some(1)
                {
                    let fty = f.ty.clone();
                    return Ok(Expr::new(ExprKind::Member(Box::new(obj), 0), fty, loc));
                }
            }
        }
        Err(self.unsupported(
            span,
            format!("`{name}` on an object that is not one byte (a flag, `bool` or `char`)"),
        ))
    }

    /// `e` itself when it is a constant or a local's value, else a temporary holding it
    /// (evaluated here, before the indivisible part).
    fn hoist(&mut self, hint: &str, ty: &Type, e: Expr, out: &mut Vec<Stmt>) -> R<Expr> {
        if e.as_int().is_some() {
            return Ok(e);
        }
        self.temp(hint, ty, e, out)
    }

    /// A new local of the current function initialized to `init`; its value.
    fn temp(&mut self, hint: &str, ty: &Type, init: Expr, out: &mut Vec<Stmt>) -> R<Expr> {
        let loc = init.loc;
        if self.func.is_none() {
            let spot = crate::diagnostics::SourceSpot::at(
                &self.prog.sources,
                loc,
                "an atomic operation outside a function",
            );
            return Err(super::FrontendError::Semantic(spot));
        }
        Ok(self.declare_temp(hint, ty, init, out, loc))
    }

    /// `ty` without `_Atomic` and other qualifiers, through typedefs (`atomic_int` is a
    /// typedef of `_Atomic int`): the type of a value read from such an object.
    fn plain(&self, ty: &Type) -> Type {
        if ty.quals(self.tt()).is_empty() {
            ty.clone()
        } else {
            ty.resolve(self.tt()).clone()
        }
    }
}

/// An lvalue whose evaluation reads nothing another thread could change and has no
/// effect: a variable, a member of one, an element at a constant index of an array one.
pub(super) fn is_stable(e: &Expr) -> bool {
    match &e.kind {
        ExprKind::Var(_) => true,
        ExprKind::Member(b, _) => is_stable(b),
        ExprKind::Index(b, i) => {
            i.as_int().is_some() && matches!(&b.kind, ExprKind::Decay(a) if is_stable(a))
        }
        _ => false,
    }
}

fn assign(l: Expr, r: Expr, loc: Loc) -> Expr {
    let ty = l.ty.unqualified().clone();
    Expr::new(ExprKind::Assign(Box::new(l), Box::new(r)), ty, loc)
}

fn marker(i: Intrinsic, loc: Loc) -> Stmt {
    Stmt::expr(Expr::new(ExprKind::Intrinsic(i, vec![]), Type::Void, loc))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn builtin_names_and_shapes() {
        assert_eq!(
            Builtin::of("__atomic_fetch_nand").map(|b| b.0),
            Some(Builtin::Rmw(RmwOp::Nand, Returns::Old))
        );
        assert_eq!(
            Builtin::of("__atomic_sub_fetch").map(|b| b.0),
            Some(Builtin::Rmw(RmwOp::Sub, Returns::New))
        );
        assert_eq!(
            Builtin::of("__sync_fetch_and_or").map(|b| (b.0, b.1)),
            Some((Builtin::Rmw(RmwOp::Or, Returns::Old), 2))
        );
        assert_eq!(
            Builtin::of("__sync_xor_and_fetch").map(|b| b.0),
            Some(Builtin::Rmw(RmwOp::Xor, Returns::New))
        );
        assert_eq!(
            Builtin::of("__atomic_compare_exchange_n").map(|b| b.2),
            Some(&[4usize, 5][..])
        );
        for unmodelled in [
            "__atomic_is_lock_free",
            "__atomic_always_lock_free",
            "__atomic_fetch_min",
            "__sync_fetch_and_mul",
        ] {
            assert_eq!(Builtin::of(unmodelled), None, "{unmodelled}");
        }
        assert_eq!(
            c11_name("atomic_fetch_add_explicit"),
            Some("__atomic_fetch_add")
        );
        assert_eq!(c11_name("atomic_is_lock_free"), None);
    }
}
