//! Function inlining (paper Fig. 5–6): a call becomes the callee's body with fresh copies
//! of its parameters and locals, returns become jumps to the end of the copy. Copies keep
//! the callee's statement ids and locations, so a line executed through several call
//! sites is still one line. Recursion is inlined up to `--recursion` calls deep (at least the
//! unwinding); a run that goes deeper is cut off there, as by a loop's unwinding bound.

use std::collections::{BTreeSet, HashMap};

use crate::analysis::facts::pointer_callable_functions;
use crate::diagnostics::SourceSpot;
use crate::ir::known::{Known, classify, has_no_effect, is_atomic_function};
use crate::ir::visit::{self, VisitorMut};
use crate::ir::*;

#[derive(Debug, thiserror::Error)]
pub enum InlineError {
    /// A call seqloc refuses: the spot's message names the function and says why.
    #[error("{}: {}", .0.location(), .0.message)]
    Unsupported(Box<SourceSpot>),
}

pub struct Inliner<'a> {
    pub prog: &'a mut Program,
    /// The function the inlined code ends up in (new locals belong to it).
    pub owner: Option<FuncId>,
    pub max_depth: u32,
    taken: BTreeSet<FuncId>,
    stack: Vec<FuncId>,
    /// Copies of recursive calls made so far (see [`RECURSIVE_COPIES`]).
    recursive_copies: u32,
}

/// The most copies of recursive calls one inlining makes.
const RECURSIVE_COPIES: u32 = 4096;

impl<'a> Inliner<'a> {
    pub fn new(prog: &'a mut Program, owner: Option<FuncId>, max_depth: u32) -> Inliner<'a> {
        let taken = pointer_callable_functions(prog);
        Inliner {
            prog,
            owner,
            max_depth,
            taken,
            stack: vec![],
            recursive_copies: 0,
        }
    }

    /// Inlines every call in `body` (which belongs to `func`).
    pub fn inline_body(&mut self, func: FuncId, body: &Stmt) -> Result<Stmt, InlineError> {
        self.stack.push(func);
        let r = self.stmt(body.clone());
        self.stack.pop();
        r
    }

    fn stmt(&mut self, s: Stmt) -> Result<Stmt, InlineError> {
        let loc = s.loc;
        let id = s.id;
        Ok(match s.kind {
            StmtKind::Block(ss) => {
                let mut out = Vec::with_capacity(ss.len());
                for x in ss {
                    out.push(self.stmt(x)?);
                }
                Stmt::block(out, loc)
            }
            StmtKind::If { cond, then, els } => Stmt::new(
                StmtKind::If {
                    cond,
                    then: Box::new(self.stmt(*then)?),
                    els: match els {
                        Some(e) => Some(Box::new(self.stmt(*e)?)),
                        None => None,
                    },
                },
                loc,
            )
            .with_id(id),
            StmtKind::While { cond, body } => Stmt::new(
                StmtKind::While {
                    cond,
                    body: Box::new(self.stmt(*body)?),
                },
                loc,
            )
            .with_id(id),
            StmtKind::Switch { cond, body } => Stmt::new(
                StmtKind::Switch {
                    cond,
                    body: Box::new(self.stmt(*body)?),
                },
                loc,
            )
            .with_id(id),
            StmtKind::Expr(e) => match &e.kind {
                ExprKind::Call(callee, args) => match self.call(callee, args, None, loc, id)? {
                    Some(s) => s,
                    None => Stmt::new(StmtKind::Expr(e), loc).with_id(id),
                },
                ExprKind::Assign(l, r) => match &r.kind {
                    ExprKind::Call(callee, args) => {
                        match self.call(callee, args, Some((**l).clone()), loc, id)? {
                            Some(s) => s,
                            None => Stmt::new(StmtKind::Expr(e), loc).with_id(id),
                        }
                    }
                    _ => Stmt::new(StmtKind::Expr(e), loc).with_id(id),
                },
                _ => Stmt::new(StmtKind::Expr(e), loc).with_id(id),
            },
            StmtKind::Decl {
                var,
                init: Some(Init::Expr(e)),
            } => {
                if let ExprKind::Call(callee, args) = &e.kind {
                    let target = Expr::var(var, self.prog, loc);
                    if let Some(s) = self.call(callee, args, Some(target), loc, id)? {
                        return Ok(Stmt::block(
                            vec![
                                Stmt::new(StmtKind::Decl { var, init: None }, loc).with_id(id),
                                s,
                            ],
                            loc,
                        ));
                    }
                }
                Stmt::new(
                    StmtKind::Decl {
                        var,
                        init: Some(Init::Expr(e)),
                    },
                    loc,
                )
                .with_id(id)
            }
            StmtKind::Return(Some(e)) => {
                if let ExprKind::Call(callee, args) = &e.kind {
                    // `return f(x)`: inline into a temporary first.
                    let t = self.prog.new_local(self.owner, "__r", e.ty.clone(), loc);
                    let target = Expr::var(t, self.prog, loc);
                    if let Some(s) = self.call(callee, args, Some(target.clone()), loc, id)? {
                        return Ok(Stmt::block(
                            vec![
                                Stmt::new(StmtKind::Decl { var: t, init: None }, loc),
                                s,
                                Stmt::new(StmtKind::Return(Some(target)), loc).with_id(id),
                            ],
                            loc,
                        ));
                    }
                    // A library call kept as a call (`return pthread_create(..)`): the
                    // declaration of its result is the shape every engine translates; a
                    // call left inside the `return` was no thread creation, no lock, to
                    // the sequentializer.
                    return Ok(Stmt::block(
                        vec![
                            Stmt::new(
                                StmtKind::Decl {
                                    var: t,
                                    init: Some(Init::Expr(e.clone())),
                                },
                                loc,
                            )
                            .with_id(id),
                            Stmt::new(StmtKind::Return(Some(target)), loc).with_id(id),
                        ],
                        loc,
                    ));
                }
                Stmt::new(StmtKind::Return(Some(e)), loc).with_id(id)
            }
            k => Stmt::new(k, loc).with_id(id),
        })
    }

    /// Inlines one call; `None` when the callee is a library function kept as a call.
    fn call(
        &mut self,
        callee: &Expr,
        args: &[Expr],
        result: Option<Expr>,
        loc: Loc,
        id: StmtId,
    ) -> Result<Option<Stmt>, InlineError> {
        if let ExprKind::Func(f) = callee.peel().kind {
            let func = self.prog.func(f);
            if func.body.is_none() {
                return self.library_call(f, args, loc).map(|_| None);
            }
            return self.inline_one(f, args, result, loc, id).map(Some);
        }
        // An indirect call: one branch per function it may denote.
        let cands: Vec<FuncId> = self
            .taken
            .iter()
            .copied()
            .filter(|f| {
                let func = self.prog.func(*f);
                func.body.is_some() && (func.ty.params.len() == args.len() || func.ty.unprototyped)
            })
            .collect();
        // Of those, the ones whose type fits the pointer's (C11 6.5.2.2p9: a call through
        // an incompatible type is undefined), when there are any: a thread pool's
        // `void (*)(int)` task call would otherwise also inline the `void *(void *)`
        // worker that makes it, inside itself, loops and all, to the recursion depth —
        // a program of millions of statements. The fit is loose (see `fits`), so that a
        // cast the program relies on in practice still keeps its target.
        let cands = match callee.ty.pointee(&self.prog.types) {
            Some(Type::Function(want)) => {
                let fitting: Vec<FuncId> = cands
                    .iter()
                    .copied()
                    .filter(|f| fits(&self.prog.types, want, &self.prog.func(*f).ty))
                    .collect();
                if fitting.is_empty() { cands } else { fitting }
            }
            _ => cands,
        };
        if cands.is_empty() {
            let function = crate::ir::print::expr_to_string(self.prog, callee);
            return Err(self.refuse(
                loc,
                &function,
                "an indirect call with no function it could denote",
            ));
        }
        let mut chain = Stmt::new(
            StmtKind::Expr(Expr::new(
                ExprKind::Intrinsic(Intrinsic::Assume, vec![Expr::int(0, Type::int(), loc)]),
                Type::Void,
                loc,
            )),
            loc,
        );
        for f in cands.into_iter().rev() {
            let body = self.inline_one(f, args, result.clone(), loc, id)?;
            let fexpr = Expr::new(ExprKind::Func(f), callee.ty.clone(), loc);
            let cond = Expr::new(
                ExprKind::Binary(BinOp::Eq, Box::new(callee.clone()), Box::new(fexpr)),
                Type::int(),
                loc,
            );
            chain = Stmt::new(
                StmtKind::If {
                    cond,
                    then: Box::new(body),
                    els: Some(Box::new(chain)),
                },
                loc,
            );
        }
        Ok(Some(chain))
    }

    fn library_call(&mut self, f: FuncId, _args: &[Expr], loc: Loc) -> Result<(), InlineError> {
        let func = self.prog.func(f);
        let name = func.name.clone();
        if let Some((why, at)) = &func.unsupported {
            let reason = format!(
                "its body (at {}) uses {why}",
                self.prog.sources.describe(*at)
            );
            return Err(self.refuse(loc, &name, &reason));
        }
        match classify(&name) {
            Known::Other if !has_no_effect(&name) => {
                let mut reason = crate::ir::known::refusal_reason(&name);
                if crate::frontend::undefined::would_take(self.prog, func) {
                    reason.push_str(
                        "; `--undefined-functions nondet` takes such a function as ESBMC and \
                         CBMC do (any value of its return type, no other effect) unless a call \
                         uses its result as a pointer",
                    );
                }
                Err(self.refuse(loc, &name, &reason))
            }
            Known::Unsupported => {
                Err(self.refuse(loc, &name, &crate::ir::known::refusal_reason(&name)))
            }
            _ => Ok(()),
        }
    }

    /// The refusal of a call to `function` at `loc`, under the name the source wrote.
    fn refuse(&self, loc: Loc, function: &str, reason: &str) -> InlineError {
        InlineError::Unsupported(Box::new(SourceSpot::refusal(
            &self.prog.sources,
            loc,
            format!("{}: {reason}", crate::ir::known::refused_call(function)),
        )))
    }

    fn inline_one(
        &mut self,
        f: FuncId,
        args: &[Expr],
        result: Option<Expr>,
        loc: Loc,
        id: StmtId,
    ) -> Result<Stmt, InlineError> {
        let depth = self.stack.iter().filter(|x| **x == f).count() as u32;
        if depth >= self.max_depth.max(1) {
            // As a loop past its unwinding bound: the runs that recurse this deep are cut
            // off here (a bound reached, so no proof), those that do not are unaffected.
            // `sum(2)` with `--recursion 3` is then checked to its end. The depth grows
            // with the unwinding, so it is a loop's kind of cut.
            let cut = crate::ir::build::recursion_cut(loc);
            return Ok(crate::ir::build::expr_stmt(cut, loc, id));
        }
        if depth > 0 {
            // A function that calls itself twice doubles its copies with each level of
            // depth: past a budget, deeper calls are cut off (a bound the unwinding does
            // not move) rather than inlined until memory runs out.
            self.recursive_copies += 1;
            if self.recursive_copies > RECURSIVE_COPIES {
                let cut = crate::ir::build::bound_cut(loc);
                return Ok(crate::ir::build::expr_stmt(cut, loc, id));
            }
        }
        let callee = self.prog.func(f).clone();
        let Some(body) = callee.body.clone() else {
            return Err(self.refuse(loc, &callee.name, "it has no body"));
        };
        // Fresh copies of the callee's parameters and locals.
        let mut renames: HashMap<VarId, VarId> = HashMap::new();
        let mut out = Vec::new();
        for (i, p) in callee.params.iter().enumerate() {
            let pv = self.prog.var(*p).clone();
            let nv = self
                .prog
                .new_local(self.owner, &pv.name, pv.ty.clone(), pv.loc);
            self.prog.var_mut(nv).source_name = pv.source_name.clone();
            renames.insert(*p, nv);
            let init = args.get(i).cloned().map(Init::Expr);
            // The parameter copy belongs to the call's statement (Fig. 6: `int m = a;`).
            out.push(Stmt::new(StmtKind::Decl { var: nv, init }, loc).with_id(id));
        }
        let mut locals = Vec::new();
        visit::each_stmt(&body, &mut |s| {
            if let StmtKind::Decl { var, .. } = &s.kind {
                locals.push(*var);
            }
        });
        for l in locals {
            if renames.contains_key(&l) {
                continue;
            }
            let lv = self.prog.var(l).clone();
            if lv.kind == VarKind::Global {
                continue;
            }
            let nv = self
                .prog
                .new_local(self.owner, &lv.name, lv.ty.clone(), lv.loc);
            self.prog.var_mut(nv).source_name = lv.source_name.clone();
            renames.insert(l, nv);
        }
        let ret_label = self.prog.fresh_label("ret");
        let suffix = format!("_i{}", self.prog.next_label);
        let ret_var = match &result {
            Some(_) if !callee.ty.ret.is_void(&self.prog.types) => {
                let t = self
                    .prog
                    .new_local(self.owner, "__ret", callee.ty.ret.clone(), loc);
                out.push(Stmt::new(StmtKind::Decl { var: t, init: None }, loc));
                Some(t)
            }
            _ => None,
        };
        let mut copy = body;
        let mut r = Rewriter {
            renames: &renames,
            label_suffix: &suffix,
            ret_label: &ret_label,
            ret_var,
            prog: self.prog,
        };
        r.visit_stmt(&mut copy);
        self.stack.push(f);
        let copy = self.stmt(copy)?;
        self.stack.pop();
        let atomic = is_atomic_function(&callee.name);
        if atomic {
            out.push(intrinsic_stmt(Intrinsic::AtomicBegin, loc, id));
        }
        out.push(copy);
        out.push(Stmt::new(StmtKind::Label(ret_label), callee.loc));
        if atomic {
            out.push(intrinsic_stmt(Intrinsic::AtomicEnd, loc, id));
        }
        if let (Some(target), Some(t)) = (result, ret_var) {
            let rv = Expr::var(t, self.prog, loc);
            let ty = target.ty.unqualified().clone();
            let rv = if rv.ty.same_as(&ty, &self.prog.types) {
                rv
            } else {
                Expr::new(
                    ExprKind::Cast {
                        e: Box::new(rv),
                        implicit: true,
                    },
                    ty.clone(),
                    loc,
                )
            };
            out.push(
                Stmt::new(
                    StmtKind::Expr(Expr::new(
                        ExprKind::Assign(Box::new(target), Box::new(rv)),
                        ty,
                        loc,
                    )),
                    loc,
                )
                .with_id(id),
            );
        }
        Ok(Stmt::block(out, loc))
    }
}

fn intrinsic_stmt(i: Intrinsic, loc: Loc, id: StmtId) -> Stmt {
    Stmt::new(
        StmtKind::Expr(Expr::new(ExprKind::Intrinsic(i, vec![]), Type::Void, loc)),
        loc,
    )
    .with_id(id)
}

struct Rewriter<'a> {
    renames: &'a HashMap<VarId, VarId>,
    label_suffix: &'a str,
    ret_label: &'a str,
    ret_var: Option<VarId>,
    prog: &'a Program,
}

impl VisitorMut for Rewriter<'_> {
    fn visit_stmt(&mut self, s: &mut Stmt) {
        match &mut s.kind {
            StmtKind::Decl { var, .. } => {
                if let Some(n) = self.renames.get(var) {
                    *var = *n;
                }
            }
            StmtKind::Label(l) | StmtKind::Goto(l) => l.push_str(self.label_suffix),
            StmtKind::Return(e) => {
                let loc = s.loc;
                let id = s.id;
                let mut v = Vec::new();
                let mut value = e.take();
                if self.ret_var.is_none() {
                    // The caller drops the value, not the call that computes it
                    // (`return pthread_create(..)` in a helper called as a statement).
                    if let Some(mut e) = value.take().filter(has_call) {
                        self.visit_expr(&mut e);
                        v.push(Stmt::new(StmtKind::Expr(e), loc).with_id(id));
                    }
                }
                if let (Some(t), Some(mut e)) = (self.ret_var, value) {
                    self.visit_expr(&mut e);
                    let target = Expr::var(t, self.prog, loc);
                    let ty = target.ty.clone();
                    v.push(
                        Stmt::new(
                            StmtKind::Expr(Expr::new(
                                ExprKind::Assign(Box::new(target), Box::new(e)),
                                ty,
                                loc,
                            )),
                            loc,
                        )
                        .with_id(id),
                    );
                }
                v.push(Stmt::new(StmtKind::Goto(self.ret_label.to_string()), loc).with_id(id));
                *s = Stmt::block(v, loc);
                return;
            }
            _ => {}
        }
        visit::walk_stmt_mut(self, s)
    }
    fn visit_expr(&mut self, e: &mut Expr) {
        if let ExprKind::Var(v) = &mut e.kind {
            if let Some(n) = self.renames.get(v) {
                *v = *n;
            }
        }
        visit::walk_expr_mut(self, e)
    }
}

/// The expression calls a function (its value may be unused, its effect is not).
fn has_call(e: &Expr) -> bool {
    let mut found = false;
    visit::each_subexpr(e, &mut |x| {
        if matches!(x.kind, ExprKind::Call(..)) {
            found = true;
        }
    });
    found
}

/// Whether a function of type `have` may be what a pointer of function type `want`
/// denotes, loosely: each parameter and the result of the same kind — integer (or enum),
/// floating, pointer, struct or union — a `void` result on either side fitting any
/// (the caller ignores it, or the callee returns none), an unprototyped side fitting all.
fn fits(tt: &TypeTable, want: &FuncType, have: &FuncType) -> bool {
    #[derive(PartialEq)]
    enum Kind {
        Integer,
        Floating,
        Pointer,
        Aggregate,
        Void,
        Other,
    }
    let kind = |t: &Type| match t.resolve(tt) {
        Type::Void => Kind::Void,
        t if t.is_integer(tt) => Kind::Integer,
        t if t.pointee(tt).is_some() || matches!(t, Type::Array(..) | Type::Function(_)) => {
            Kind::Pointer
        }
        Type::Comp(_) => Kind::Aggregate,
        Type::Float(_) => Kind::Floating,
        _ => Kind::Other,
    };
    if want.unprototyped || have.unprototyped {
        return true;
    }
    let (r1, r2) = (kind(&want.ret), kind(&have.ret));
    let result = r1 == r2 || r1 == Kind::Void || r2 == Kind::Void;
    result
        && want.params.len() == have.params.len()
        && want
            .params
            .iter()
            .zip(&have.params)
            .all(|(a, b)| kind(a) == kind(b))
}

#[cfg(test)]
mod tests {
    use super::fits;
    use crate::ir::*;

    fn f(ret: Type, params: Vec<Type>) -> FuncType {
        FuncType {
            ret,
            params,
            variadic: false,
            unprototyped: false,
        }
    }

    #[test]
    fn an_indirect_call_denotes_functions_of_a_fitting_type() {
        let tt = TypeTable::default();
        let job = f(Type::Void, vec![Type::int()]);
        let start = f(Type::void_ptr(), vec![Type::void_ptr()]);
        assert!(fits(&tt, &job, &f(Type::Void, vec![Type::int()])));
        // A result the caller ignores, or one the callee does not give.
        assert!(fits(
            &tt,
            &job,
            &f(Type::int(), vec![Type::Int(IntKind::Long)])
        ));
        assert!(fits(
            &tt,
            &start,
            &f(Type::Void, vec![Type::ptr(Type::int())])
        ));
        assert!(
            !fits(&tt, &job, &start),
            "a thread's start routine is no job"
        );
        assert!(!fits(&tt, &job, &f(Type::Void, vec![])));
        let old = FuncType {
            unprototyped: true,
            ..f(Type::int(), vec![])
        };
        assert!(fits(&tt, &job, &old));
    }
}
