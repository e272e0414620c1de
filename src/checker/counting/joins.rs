//! No deadlock without a search, for programs whose only way to block is `main` joining
//! the threads it created: the other half of what `--property all` asks, beside the
//! counting argument for the checks (`super::prove`).
//!
//! A deadlock is a state in which every live thread is blocked. When no thread but `main`
//! can block (nothing reachable locks a mutex, waits on a condition or a barrier, spins on
//! a flag the checkers model as a wait, or runs code seqloc cannot see) and `main` blocks
//! only in `pthread_join`, a deadlock would be `main` joining a thread that is not live and
//! has not finished: a thread that was never created. So the argument shows that every
//! join's handle holds a thread `main` created before:
//!
//! * a handle variable `t` written only by `pthread_create(&t, ..)`, joined after such a
//!   create at the top level of `main` (not under a branch or in a loop), or
//! * an array `t` written only by `pthread_create(&t[i], ..)` in a counted loop
//!   `for (i = 0; i < n; i++)` at the top level of `main`, the create unconditional in its
//!   body, joined as `t[j]` in a later counted loop `for (j = 0; j < n; j++)` with the same
//!   bound: a constant, or a variable nothing writes after the create loop begins.
//!
//! Anything else (a join in another function, of a computed handle, in a loop of another
//! shape; `main` in an atomic section) is left to the search: the argument never guesses.

use std::collections::HashSet;

use crate::analysis::hazards::Hazards;
use crate::ir::known::{Known, classify};
use crate::ir::visit;

use super::runs::own_exprs;
use crate::ir::*;

/// Shows that no execution of `prog` (normalized) deadlocks, or says why it cannot: `Ok` is
/// the argument, for the report.
pub fn prove_no_deadlock(prog: &Program, h: &Hazards) -> Result<String, String> {
    let main = prog.main().ok_or("no main")?;
    let at = |loc: Loc| prog.sources.describe_line(loc);
    // A library function that may block, or code seqloc cannot see, whose address is taken
    // (in reachable code or a global's initializer) may be called through it anywhere.
    for (g, loc) in taken_functions(prog, h) {
        let fun = prog.func(g);
        if fun.body.is_some() {
            continue;
        }
        let known = classify(&fun.name);
        let unseen = fun.unsupported.is_some()
            || (known == Known::Other && !prog.sources.is_system(fun.loc));
        if unseen || known.may_block() {
            return Err(format!(
                "the address of `{}` is taken at {}: a call through it may block",
                fun.name,
                at(loc)
            ));
        }
    }
    // What may block, function by function.
    for f in &h.reachable {
        let Some(body) = &prog.func(*f).body else {
            continue;
        };
        let mut why: Option<String> = None;
        visit::each_stmt(body, &mut |s| {
            if why.is_some() {
                return;
            }
            let looped = match &s.kind {
                StmtKind::While { body, .. } | StmtKind::DoWhile { body, .. } => Some(body),
                StmtKind::For { body, .. } => Some(body),
                _ => None,
            };
            if let Some(b) = looped {
                if !prog.loop_bounds.contains_key(&s.id) && only_waits(b) {
                    why = Some(format!("a loop that waits at {}", at(s.loc)));
                }
            }
        });
        visit::each_expr(body, &mut |e| {
            if why.is_some() {
                return;
            }
            match &e.kind {
                ExprKind::Intrinsic(Intrinsic::Await, _) => {
                    why = Some(format!("a wait at {}", at(e.loc)));
                }
                ExprKind::Func(g) if *g == main => {
                    why = Some(format!("main's address is taken at {}", at(e.loc)));
                }
                ExprKind::Call(c, _) => {
                    let ExprKind::Func(g) = &c.peel().kind else {
                        return;
                    };
                    let fun = prog.func(*g);
                    let known = classify(&fun.name);
                    let unseen = fun.unsupported.is_some()
                        || (fun.body.is_none()
                            && known == Known::Other
                            && !prog.sources.is_system(fun.loc));
                    why = match known {
                        _ if unseen => Some(format!("code seqloc cannot see at {}", at(e.loc))),
                        Known::ThreadJoin if *f != main => {
                            Some(format!("a join outside main at {}", at(e.loc)))
                        }
                        Known::ThreadJoin => None,
                        k if k.may_block() => {
                            Some(format!("`{}` at {} may block", fun.name, at(e.loc)))
                        }
                        Known::AtomicBegin if *f == main => {
                            Some(format!("main enters an atomic section at {}", at(e.loc)))
                        }
                        _ => None,
                    };
                }
                _ => {}
            }
        });
        if let Some(w) = why {
            return Err(w);
        }
    }
    let body = prog.func(main).body.as_ref().ok_or("main has no body")?;
    let mut v = Joins {
        prog,
        main,
        created: vec![],
        joins: 0,
        taken: crate::analysis::shared::address_taken_vars(prog),
    };
    v.top(&flat(body))?;
    Ok(match v.joins {
        0 => "nothing reachable can block".into(),
        _ => "no deadlock: only main can block, joining threads it created before".into(),
    })
}

/// The functions whose address is taken (not only called directly) in the reachable code
/// or in a global's initializer, with where.
fn taken_functions(prog: &Program, h: &Hazards) -> Vec<(FuncId, Loc)> {
    struct Taken(Vec<(FuncId, Loc)>);
    impl visit::Visitor for Taken {
        fn visit_expr(&mut self, e: &Expr) {
            match &e.kind {
                ExprKind::Call(c, args) if matches!(c.peel().kind, ExprKind::Func(_)) => {
                    args.iter().for_each(|a| self.visit_expr(a));
                }
                ExprKind::Func(g) => self.0.push((*g, e.loc)),
                _ => visit::walk_expr(self, e),
            }
        }
    }
    let mut t = Taken(vec![]);
    for f in &h.reachable {
        if let Some(body) = &prog.func(*f).body {
            visit::Visitor::visit_stmt(&mut t, body);
        }
    }
    for v in &prog.vars {
        if v.kind == VarKind::Global {
            if let Some(i) = &v.init {
                visit::Visitor::visit_init(&mut t, i);
            }
        }
    }
    t.0
}

/// A loop body that only computes its exit test (`while (!flag) {}` after normalization):
/// a spin that the checkers model as a wait.
fn only_waits(body: &Stmt) -> bool {
    flat(body).iter().all(|s| match &s.kind {
        StmtKind::Decl { .. } | StmtKind::Label(_) | StmtKind::Skip => true,
        StmtKind::If { then, els, .. } => {
            els.is_none() && flat(then).iter().all(|t| matches!(t.kind, StmtKind::Break))
        }
        _ => false,
    })
}

/// The statements of `s`, nested blocks opened.
fn flat(s: &Stmt) -> Vec<&Stmt> {
    let mut out = vec![];
    fn go<'s>(s: &'s Stmt, out: &mut Vec<&'s Stmt>) {
        match &s.kind {
            StmtKind::Block(v) => v.iter().for_each(|s| go(s, out)),
            _ => out.push(s),
        }
    }
    go(s, &mut out);
    out
}

/// Threads created for sure.
#[derive(Clone, Debug, PartialEq)]
enum Created {
    /// `t` holds a thread.
    Scalar(VarId),
    /// `t[0..bound]` hold threads.
    Range(VarId, Bound),
}

#[derive(Clone, Debug, PartialEq)]
enum Bound {
    Const(i128),
    Var(VarId),
}

/// `for (i = 0; i < bound; i++) body` as normalization leaves it: `i = 0;` then
/// `while (1) { c = i < bound; if (!c) break; body; i = i + 1; }`.
struct Counted<'s> {
    index: VarId,
    bound: Bound,
    body: Vec<&'s Stmt>,
}

/// The counted loop `looped` is, with the statements before it at the same level: the
/// last of them to write the index sets it to 0.
fn counted<'s>(before: &[&Stmt], looped: &'s Stmt) -> Option<Counted<'s>> {
    let StmtKind::While { cond, body } = &looped.kind else {
        return None;
    };
    if cond.as_int().is_none_or(|c| c == 0) {
        return None;
    }
    let stmts = flat(body);
    let [test, exit, rest @ .., step] = stmts.as_slice() else {
        return None;
    };
    // c = i < bound
    let StmtKind::Decl {
        var: c,
        init: Some(Init::Expr(t)),
    } = &test.kind
    else {
        return None;
    };
    let ExprKind::Binary(BinOp::Lt, l, r) = &t.peel().kind else {
        return None;
    };
    let ExprKind::Var(index) = l.peel().kind else {
        return None;
    };
    let init = before.iter().rev().find(|s| writes(s).contains(&index))?;
    let zero = match &init.kind {
        StmtKind::Decl {
            var,
            init: Some(Init::Expr(e)),
        } => *var == index && e.as_int() == Some(0),
        StmtKind::Expr(e) => matches!(&e.kind,
            ExprKind::Assign(l, r) if r.as_int() == Some(0)
                && matches!(l.peel().kind, ExprKind::Var(v) if v == index)),
        _ => false,
    };
    if !zero {
        return None;
    }
    let bound = match (&r.peel().kind, r.as_int()) {
        (_, Some(k)) => Bound::Const(k),
        (ExprKind::Var(b), None) => Bound::Var(*b),
        _ => return None,
    };
    // if (!c) break;
    let StmtKind::If {
        cond: e,
        then,
        els: None,
    } = &exit.kind
    else {
        return None;
    };
    let ExprKind::Unary(UnOp::LogNot, x) = &e.peel().kind else {
        return None;
    };
    if !matches!(x.peel().kind, ExprKind::Var(v) if v == *c)
        || !flat(then).iter().all(|s| matches!(s.kind, StmtKind::Break))
    {
        return None;
    }
    // i = i + 1
    let StmtKind::Expr(e) = &step.kind else {
        return None;
    };
    let ExprKind::Assign(l, r) = &e.kind else {
        return None;
    };
    let ExprKind::Binary(BinOp::Add, a, one) = &r.peel().kind else {
        return None;
    };
    let is_index = |e: &Expr| matches!(e.peel().kind, ExprKind::Var(v) if v == index);
    if !is_index(l) || !is_index(a) || one.as_int() != Some(1) {
        return None;
    }
    // The body neither leaves the loop early nor changes the index.
    // The label `continue` would jump to may end the body.
    let body: Vec<&Stmt> = rest
        .iter()
        .copied()
        .filter(|s| !matches!(s.kind, StmtKind::Label(_)))
        .collect();
    let mut ok = true;
    for s in &body {
        visit::each_stmt(s, &mut |s| {
            ok &= !matches!(
                s.kind,
                StmtKind::Break
                    | StmtKind::Continue
                    | StmtKind::Goto(_)
                    | StmtKind::Return(_)
                    | StmtKind::Label(_)
            );
        });
        ok &= !writes(s).contains(&index);
    }
    ok.then_some(Counted { index, bound, body })
}

/// The variables `s` assigns or declares, or whose address it takes.
fn writes(s: &Stmt) -> HashSet<VarId> {
    let mut out = HashSet::new();
    visit::each_stmt(s, &mut |s| {
        if let StmtKind::Decl { var, .. } = &s.kind {
            out.insert(*var);
        }
    });
    visit::each_expr(s, &mut |e| match &e.kind {
        ExprKind::Assign(l, _)
        | ExprKind::OpAssign { lhs: l, .. }
        | ExprKind::IncDec { e: l, .. }
        | ExprKind::AddrOf(l) => {
            if let Some(v) = base_var(l) {
                out.insert(v);
            }
        }
        _ => {}
    });
    out
}

/// Calls `f` on `e` and every expression inside it.
fn each_in(e: &Expr, f: &mut dyn FnMut(&Expr)) {
    struct V<'a>(&'a mut dyn FnMut(&Expr));
    impl visit::Visitor for V<'_> {
        fn visit_expr(&mut self, e: &Expr) {
            (self.0)(e);
            visit::walk_expr(self, e)
        }
    }
    visit::Visitor::visit_expr(&mut V(f), e)
}

/// The variable an lvalue (`x`, `x[i]`, `x.f`) is part of.
fn base_var(e: &Expr) -> Option<VarId> {
    match &e.peel().kind {
        ExprKind::Var(v) => Some(*v),
        // `peel` opens the array's decay.
        ExprKind::Index(b, _) => match &b.peel().kind {
            ExprKind::Var(v) if matches!(b.kind, ExprKind::Decay(_)) => Some(*v),
            _ => None,
        },
        ExprKind::Member(b, _) => base_var(b),
        _ => None,
    }
}

/// A call of a known function in a statement `f(..);` or `x = f(..);`.
fn call_of<'s>(prog: &Program, s: &'s Stmt, known: Known) -> Option<&'s [Expr]> {
    let e = match &s.kind {
        StmtKind::Expr(e) => e,
        StmtKind::Decl {
            init: Some(Init::Expr(e)),
            ..
        } => e,
        _ => return None,
    };
    let call = match &e.kind {
        ExprKind::Assign(_, r) => r,
        _ => e,
    };
    let ExprKind::Call(c, args) = &call.peel().kind else {
        return None;
    };
    let ExprKind::Func(f) = &c.peel().kind else {
        return None;
    };
    (classify(&prog.func(*f).name) == known).then_some(args.as_slice())
}

struct Joins<'p> {
    prog: &'p Program,
    main: FuncId,
    created: Vec<Created>,
    joins: usize,
    /// Variables whose address is taken.
    taken: HashSet<VarId>,
}

impl Joins<'_> {
    /// `main`'s top-level statements, in order.
    fn top(&mut self, stmts: &[&Stmt]) -> Result<(), String> {
        let mut i = 0;
        while i < stmts.len() {
            let s = stmts[i];
            if let Some(c) = counted(&stmts[..i], s).filter(|c| {
                !self.taken.contains(&c.index) && self.prog.var(c.index).func == Some(self.main)
            }) {
                self.counted_loop(&c, &stmts[i + 1..])?;
                i += 1;
                continue;
            }
            if let Some(args) = call_of(self.prog, s, Known::ThreadCreate) {
                if let Some(v) = args.first().and_then(|a| self.created_scalar(a)) {
                    self.created.push(Created::Scalar(v));
                }
            }
            self.joins_in(s, &[], None)?;
            i += 1;
        }
        Ok(())
    }

    /// `&t` for a handle variable `t` written by nothing but creates.
    fn created_scalar(&self, arg: &Expr) -> Option<VarId> {
        let ExprKind::AddrOf(x) = &arg.peel().kind else {
            return None;
        };
        let ExprKind::Var(v) = x.peel().kind else {
            return None;
        };
        self.handle_only(v).then_some(v)
    }

    /// Is `v` written by nothing but `pthread_create(&v, ..)` / `pthread_create(&v[i],
    /// ..)`, its address taken nowhere else, and local to `main`?
    fn handle_only(&self, v: VarId) -> bool {
        let var = self.prog.var(v);
        if var.func != Some(self.main) || var.kind != VarKind::Local {
            return false;
        }
        let Some(body) = &self.prog.func(self.main).body else {
            return false;
        };
        let mut ok = true;
        visit::each_stmt(body, &mut |s| {
            // Its declaration (without a value) is the only other write.
            if let StmtKind::Decl { var, init } = &s.kind {
                if *var == v && init.is_some() {
                    ok = false;
                }
                return;
            }
            let creates = call_of(self.prog, s, Known::ThreadCreate).is_some();
            let mut seen = 0usize;
            let mut decays = 0usize;
            let mut indexed = 0usize;
            own_exprs(s, &mut |e| {
                each_in(e, &mut |e| match &e.kind {
                    ExprKind::Assign(l, _)
                    | ExprKind::OpAssign { lhs: l, .. }
                    | ExprKind::IncDec { e: l, .. }
                        if base_var(l) == Some(v) =>
                    {
                        ok = false
                    }
                    ExprKind::AddrOf(l) if base_var(l) == Some(v) => seen += 1,
                    ExprKind::Decay(a) if matches!(a.peel().kind, ExprKind::Var(x) if x == v) => {
                        decays += 1
                    }
                    ExprKind::Index(b, _) => {
                        if let ExprKind::Decay(a) = &b.kind {
                            if matches!(a.peel().kind, ExprKind::Var(x) if x == v) {
                                indexed += 1;
                            }
                        }
                    }
                    _ => {}
                })
            });
            // Its address only as the create's first argument.
            if seen > 0 {
                let first = call_of(self.prog, s, Known::ThreadCreate)
                    .and_then(|a| a.first())
                    .is_some_and(
                        |a| matches!(&a.peel().kind, ExprKind::AddrOf(l) if base_var(l) == Some(v)),
                    );
                ok &= creates && first && seen == 1;
            }
            // An array that decays to a pointer anywhere but in an index escapes.
            ok &= decays == indexed;
        });
        ok
    }

    /// A counted loop at the top level of `main`: creating a range of handles, or joining
    /// one; `after` are the statements that follow it (which must not change its bound).
    fn counted_loop(&mut self, c: &Counted, after: &[&Stmt]) -> Result<(), String> {
        // Creating: `pthread_create(&t[i], ..)` unconditionally in the body.
        for s in &c.body {
            let Some(args) = call_of(self.prog, s, Known::ThreadCreate) else {
                continue;
            };
            let Some(ExprKind::AddrOf(x)) = args.first().map(|a| &a.peel().kind) else {
                continue;
            };
            let ExprKind::Index(b, i) = &x.peel().kind else {
                continue;
            };
            let ExprKind::Decay(a) = &b.kind else {
                continue;
            };
            let (ExprKind::Var(t), ExprKind::Var(j)) = (&a.peel().kind, &i.peel().kind) else {
                continue;
            };
            let in_loop = |b: &Bound| match b {
                Bound::Var(b) => c.body.iter().any(|s| writes(s).contains(b)),
                Bound::Const(_) => false,
            };
            if *j == c.index
                && self.handle_only(*t)
                && !in_loop(&c.bound)
                && self.stable(&c.bound, after)
            {
                self.created.push(Created::Range(*t, c.bound.clone()));
            }
        }
        for s in &c.body {
            self.joins_in(s, &c.body, Some(c))?;
        }
        Ok(())
    }

    /// Does `bound` keep its value from the loop on: a constant, or a variable whose
    /// address is not taken and that nothing but `main`'s statements before it writes?
    fn stable(&self, bound: &Bound, after: &[&Stmt]) -> bool {
        let Bound::Var(b) = bound else {
            return true;
        };
        let mut ok = true;
        for (i, f) in self.prog.funcs.iter().enumerate() {
            let Some(body) = &f.body else {
                continue;
            };
            if FuncId(i as u32) == self.main {
                for s in after {
                    ok &= !writes(s).contains(b);
                }
                continue;
            }
            ok &= !writes(body).contains(b);
        }
        // Written through its address: not stable.
        ok && !self.taken.contains(b)
    }

    /// Checks every join in `s`: its handle must hold a thread created before. `body` and
    /// `lp` are the counted loop `s` is in, if any (its handle may be `t[i]`).
    fn joins_in(&mut self, s: &Stmt, body: &[&Stmt], lp: Option<&Counted>) -> Result<(), String> {
        let mut err: Option<String> = None;
        let mut joins = 0;
        visit::each_stmt(s, &mut |st| {
            if err.is_some() {
                return;
            }
            let Some(args) = call_of(self.prog, st, Known::ThreadJoin) else {
                return;
            };
            joins += 1;
            let ok = args
                .first()
                .and_then(|h| self.handle_of(h, body))
                .is_some_and(|h| self.joinable(h, lp));
            if !ok {
                err = Some(format!(
                    "the join at {} may not name a thread created before it",
                    self.prog.sources.describe_line(st.loc)
                ));
            }
        });
        // A join the statement forms above do not show (inside an expression).
        let mut calls = 0;
        visit::each_expr(s, &mut |e| {
            if let ExprKind::Call(c, _) = &e.kind {
                if let ExprKind::Func(f) = &c.peel().kind {
                    calls += (classify(&self.prog.func(*f).name) == Known::ThreadJoin) as usize;
                }
            }
        });
        if let Some(e) = err {
            return Err(e);
        }
        if calls != joins {
            return Err(format!(
                "a join at {} is inside an expression",
                self.prog.sources.describe_line(s.loc)
            ));
        }
        self.joins += joins;
        Ok(())
    }

    /// The handle expression a join reads: itself, or what a temporary declared in the
    /// same loop body holds.
    fn handle_of<'e>(&self, h: &'e Expr, body: &'e [&'e Stmt]) -> Option<&'e Expr> {
        let ExprKind::Var(v) = h.peel().kind else {
            return Some(h.peel());
        };
        if self.prog.var(v).kind != VarKind::Local || !self.prog.var(v).name.starts_with("__") {
            return Some(h.peel());
        }
        body.iter().find_map(|s| match &s.kind {
            StmtKind::Decl {
                var,
                init: Some(Init::Expr(e)),
            } if *var == v => Some(e.peel()),
            _ => None,
        })
    }

    fn joinable(&self, h: &Expr, lp: Option<&Counted>) -> bool {
        match &h.kind {
            ExprKind::Var(v) => self.created.contains(&Created::Scalar(*v)),
            ExprKind::Index(b, i) => {
                let (ExprKind::Decay(a), Some(lp)) = (&b.kind, lp) else {
                    return false;
                };
                let (ExprKind::Var(t), ExprKind::Var(j)) = (&a.peel().kind, &i.peel().kind) else {
                    return false;
                };
                *j == lp.index && self.created.contains(&Created::Range(*t, lp.bound.clone()))
            }
            _ => false,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn prove(src: &str) -> Result<String, String> {
        let mut prog = crate::frontend::load_text("t.c", src, crate::ir::types::DataModel::Lp64)
            .expect("parses");
        crate::passes::normalize::normalize(&mut prog);
        let h = crate::analysis::hazards::hazards(&prog);
        prove_no_deadlock(&prog, &h)
    }

    const HEAD: &str = "typedef unsigned long pthread_t;\n\
        typedef struct { int x; } pthread_mutex_t;\n\
        int pthread_create(pthread_t *, void *, void *(*)(void *), void *);\n\
        int pthread_join(pthread_t, void **);\n\
        int pthread_mutex_lock(pthread_mutex_t *);\n\
        int pthread_mutex_unlock(pthread_mutex_t *);\n\
        int __VERIFIER_nondet_int(void);\n\
        void __VERIFIER_assume(int);\n\
        int x; int n;\n\
        void *w(void *a) { int t = x; x = t + 1; return 0; }\n";

    #[test]
    fn joins_of_created_threads_cannot_deadlock() {
        let one = prove(&format!(
            "{HEAD}int main() {{ pthread_t t; pthread_create(&t, 0, w, 0); \
             pthread_join(t, 0); return 0; }}"
        ));
        assert!(one.is_ok(), "{one:?}");
        let many = prove(&format!(
            "{HEAD}int main() {{ pthread_t t[8]; n = __VERIFIER_nondet_int(); \
             __VERIFIER_assume(n >= 1 && n <= 8); \
             for (int i = 0; i < n; i++) pthread_create(&t[i], 0, w, 0); \
             for (int i = 0; i < n; i++) pthread_join(t[i], 0); return 0; }}"
        ));
        assert!(many.is_ok(), "{many:?}");
    }

    #[test]
    fn a_join_that_may_name_no_thread_is_not_proved() {
        // Joined before it is created.
        let early = prove(&format!(
            "{HEAD}int main() {{ pthread_t t; pthread_join(t, 0); \
             pthread_create(&t, 0, w, 0); return 0; }}"
        ));
        assert!(early.is_err(), "{early:?}");
        // Created under a condition.
        let maybe = prove(&format!(
            "{HEAD}int main() {{ pthread_t t; if (__VERIFIER_nondet_int()) \
             pthread_create(&t, 0, w, 0); pthread_join(t, 0); return 0; }}"
        ));
        assert!(maybe.is_err(), "{maybe:?}");
        // More joined than created.
        let more = prove(&format!(
            "{HEAD}int main() {{ pthread_t t[8]; \
             for (int i = 0; i < 4; i++) pthread_create(&t[i], 0, w, 0); \
             for (int i = 0; i < 8; i++) pthread_join(t[i], 0); return 0; }}"
        ));
        assert!(more.is_err(), "{more:?}");
        // The bound changes between the loops.
        let moved = prove(&format!(
            "{HEAD}int main() {{ pthread_t t[8]; n = 2; \
             for (int i = 0; i < n; i++) pthread_create(&t[i], 0, w, 0); n = 4; \
             for (int i = 0; i < n; i++) pthread_join(t[i], 0); return 0; }}"
        ));
        assert!(moved.is_err(), "{moved:?}");
    }

    #[test]
    fn other_ways_to_block_are_not_proved() {
        let lock = prove(&format!(
            "{HEAD}pthread_mutex_t m;\n\
             void *l(void *a) {{ pthread_mutex_lock(&m); return 0; }}\n\
             int main() {{ pthread_t t; pthread_create(&t, 0, l, 0); \
             pthread_join(t, 0); return 0; }}"
        ));
        assert!(lock.is_err(), "{lock:?}");
        let spin = prove(&format!(
            "{HEAD}volatile int flag;\n\
             void *s(void *a) {{ while (!flag) {{}} return 0; }}\n\
             int main() {{ pthread_t t; pthread_create(&t, 0, s, 0); \
             pthread_join(t, 0); return 0; }}"
        ));
        assert!(spin.is_err(), "{spin:?}");
        let joiner = prove(&format!(
            "{HEAD}pthread_t first;\n\
             void *j(void *a) {{ pthread_join(first, 0); return 0; }}\n\
             int main() {{ pthread_t t; pthread_create(&first, 0, w, 0); \
             pthread_create(&t, 0, j, 0); pthread_join(t, 0); return 0; }}"
        ));
        assert!(joiner.is_err(), "{joiner:?}");
        // A lock called through a pointer (set in a global's initializer or in code).
        for set in [
            "int (*lock)(pthread_mutex_t *) = pthread_mutex_lock;\n",
            "int (*lock)(pthread_mutex_t *);\nvoid set(void) { lock = pthread_mutex_lock; }\n",
        ] {
            let called = set.contains("set(void)");
            let through = prove(&format!(
                "{HEAD}pthread_mutex_t m;\n{set}\
                 void *l(void *a) {{ lock(&m); return 0; }}\n\
                 int main() {{ pthread_t t; {} pthread_create(&t, 0, l, 0); \
                 pthread_join(t, 0); return 0; }}",
                if called { "set();" } else { "" }
            ));
            assert!(
                through.as_ref().is_err_and(|w| w.contains("address")),
                "{through:?}"
            );
        }
    }
}
