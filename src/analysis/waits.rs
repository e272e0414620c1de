//! Condition waits and the constructs around them: the `if` that guards a wait with no loop
//! (a spurious wake-up, or another thread taking the state between the signal and the
//! wake-up, defeats it: CERT CON36-C), and the loop around a statement.

use crate::ir::known::{Known, classify};
use crate::ir::*;

/// The condition waits (`pthread_cond_wait`, `pthread_cond_timedwait`) where seqloc models
/// POSIX's spurious wake-ups: the wait may return, once the mutex is free, without any
/// signal. A wait that is all its loop does — `while (!ready) pthread_cond_wait(..);`,
/// the loop's test free of side effects, the wait's result unused — is left out: the loop
/// re-tests its predicate (CERT CON36-C), so a spurious wake-up there only waits again,
/// and modelling it would spend the loop's unwinding bound on wake-ups that change
/// nothing. Every other wait is listed: under an `if` or no test at all a spurious
/// wake-up runs on with the predicate false, and in a loop that does more (counts its
/// tries, leaves on the wait's result) the wake-up is seen (`while (!ready && tries < 2)
/// { wait; tries++; }` can give up with `ready` unset).
pub fn spurious_wake_sites(prog: &Program) -> std::collections::HashSet<StmtId> {
    let mut out = std::collections::HashSet::new();
    for f in &prog.funcs {
        let Some(body) = &f.body else { continue };
        visit::each_stmt(body, &mut |s| {
            if s.id == StmtId::NONE || !is_wait_call(prog, s) {
                return;
            }
            let mut path: Vec<&Stmt> = Vec::new();
            if !find(body, s.id, &mut path) {
                return;
            }
            let innermost = path.iter().rev().find_map(|p| match p.kind {
                StmtKind::While { .. } | StmtKind::DoWhile { .. } | StmtKind::For { .. } => {
                    Some(Some(*p))
                }
                StmtKind::If { .. } => Some(None),
                _ => None,
            });
            let re_tested = innermost
                .flatten()
                .is_some_and(|l| only_waits(prog, l, s.id));
            if !re_tested {
                out.insert(s.id);
            }
        });
    }
    out
}

/// A loop's condition (none for `for (;;)`) and body; `None` for a statement that is no
/// loop.
pub(crate) fn loop_parts(l: &Stmt) -> Option<(Option<&Expr>, &Stmt)> {
    match &l.kind {
        StmtKind::While { cond, body } | StmtKind::DoWhile { body, cond } => {
            Some((Some(cond), body))
        }
        StmtKind::For { cond, body, .. } => Some((cond.as_ref(), body)),
        _ => None,
    }
}

/// The statements of a loop body that compute its test before the first statement
/// `is_wait` picks (the normalizer's `int __t = ..; if (!__t) break;`); `None` when no
/// statement of the body's top level is picked.
fn test_before<'a>(
    prog: &Program,
    body: &'a Stmt,
    is_wait: impl Fn(&Stmt) -> bool,
) -> Option<Vec<&'a Stmt>> {
    let mut flat = Vec::new();
    visit::open_blocks(body, &mut flat);
    let wait_at = flat.iter().position(|s| is_wait(s))?;
    Some(
        flat.into_iter()
            .take(wait_at)
            .filter(|s| tests_only(prog, s))
            .collect(),
    )
}

/// Whether the loop `l` does nothing but test its condition and run the wait `wait`, its
/// result unused: every other statement of its body computes the test into seqloc's
/// temporaries (the normalizer's `int __t = ..; if (!__t) break;`) without side effects,
/// and its own test has none either (a `for` has no step).
fn only_waits(prog: &Program, l: &Stmt, wait: StmtId) -> bool {
    let (cond, body) = match &l.kind {
        StmtKind::While { cond, body } | StmtKind::DoWhile { body, cond } => (Some(cond), body),
        StmtKind::For {
            cond,
            step: None,
            body,
            ..
        } => (cond.as_ref(), body),
        _ => return false,
    };
    if cond.is_some_and(|c| !pure(prog, c)) {
        return false;
    }
    let mut flat = Vec::new();
    visit::open_blocks(body, &mut flat);
    // The wait's result unused (a loop that leaves on it sees a spurious 0), and every
    // other statement part of the test.
    let bare_wait = |s: &Stmt| s.id == wait && matches!(s.kind, StmtKind::Expr(_));
    flat.iter().filter(|s| bare_wait(s)).count() == 1
        && flat.iter().all(|s| bare_wait(s) || tests_only(prog, s))
}

/// A statement of a loop's test: a temporary's declaration or assignment from an
/// expression without side effects, a `break`, or an `if` of such statements.
fn tests_only(prog: &Program, s: &Stmt) -> bool {
    let temp = |v: VarId| crate::ir::internal::is_internal_name(&prog.var(v).name);
    match &s.kind {
        StmtKind::Decl { var, init } => {
            temp(*var)
                && match init {
                    None => true,
                    Some(Init::Expr(e)) => pure(prog, e),
                    Some(_) => false,
                }
        }
        StmtKind::Expr(e) => match &e.kind {
            ExprKind::Assign(l, r) => {
                matches!(l.kind, ExprKind::Var(v) if temp(v)) && pure(prog, r)
            }
            ExprKind::Call(..) => pure(prog, e),
            _ => false,
        },
        // A `continue` target the normalizer placed before the test.
        StmtKind::Break | StmtKind::Skip | StmtKind::Label(_) => true,
        StmtKind::Block(ss) => ss.iter().all(|x| tests_only(prog, x)),
        StmtKind::If { cond, then, els } => {
            pure(prog, cond)
                && tests_only(prog, then)
                && els.as_deref().is_none_or(|e| tests_only(prog, e))
        }
        _ => false,
    }
}

/// No assignment, increment or call anywhere in `e`, but calls of the library functions
/// seqloc takes as having no effect (`printf`, `sleep`...: a loop that logs each wake-up
/// still only re-tests its predicate).
fn pure(prog: &Program, e: &Expr) -> bool {
    let mut ok = true;
    visit::each_subexpr(e, &mut |x| {
        ok &= match &x.kind {
            ExprKind::Call(callee, _) => match &callee.peel().kind {
                ExprKind::Func(f) => {
                    let func = prog.func(*f);
                    func.body.is_none() && crate::ir::known::has_no_effect(&func.name)
                }
                _ => false,
            },
            k => !matches!(
                k,
                ExprKind::Assign(..)
                    | ExprKind::OpAssign { .. }
                    | ExprKind::IncDec { .. }
                    | ExprKind::StmtExpr(_)
                    | ExprKind::Intrinsic(..)
            ),
        };
    });
    ok
}

fn is_wait_call(prog: &Program, s: &Stmt) -> bool {
    let e = match &s.kind {
        StmtKind::Expr(e) => e,
        StmtKind::Decl {
            init: Some(Init::Expr(e)),
            ..
        } => e,
        _ => return false,
    };
    let mut found = false;
    visit::each_subexpr(e, &mut |x| {
        if let ExprKind::Call(callee, _) = &x.kind
            && let ExprKind::Func(f) = &callee.kind
        {
            found |= matches!(
                classify(&prog.func(*f).name),
                Known::CondWait | Known::CondTimedwait
            );
        }
    });
    found
}

/// The `if` around statement `sid` when no loop encloses it in its function (and the
/// function has no `goto`, which could make a loop the syntax does not show).
pub fn guarding_if(prog: &Program, sid: StmtId) -> Option<&Stmt> {
    let path = structured_path(prog, sid)?;
    for s in path.iter().rev() {
        match s.kind {
            StmtKind::While { .. } | StmtKind::DoWhile { .. } | StmtKind::For { .. } => {
                return None;
            }
            StmtKind::If { .. } => return Some(s),
            _ => {}
        }
    }
    None
}

/// The loop around condition wait `sid` when it counts wake-ups instead of testing what
/// they announce: the loop is the wait's innermost construct, and its test reads only
/// locals that no other thread sees and that the loop changes only by counting
/// (`for (i = 0; i < n; i++) pthread_cond_wait(..)`). A spurious wake-up, or a signal
/// sent before the wait began (lost), then ends the loop with the state not reached. A
/// local set inside the loop from anything else (`done = ready;`) is a predicate's copy,
/// and such a loop is not one.
pub fn counting_wait_loop<'p>(
    prog: &'p Program,
    shared: &crate::analysis::shared::SharedInfo,
    sid: StmtId,
) -> Option<&'p Stmt> {
    let path = structured_path(prog, sid)?;
    let l = *path.iter().rev().find(|s| {
        matches!(
            s.kind,
            StmtKind::While { .. }
                | StmtKind::DoWhile { .. }
                | StmtKind::For { .. }
                | StmtKind::If { .. }
        )
    })?;
    // The test: the loop's own condition and the statements that compute it in its
    // body before the wait.
    let (cond, body) = loop_parts(l)?;
    let test = test_before(prog, body, |s| s.id == sid)?;
    let mut read: std::collections::HashSet<VarId> = std::collections::HashSet::new();
    let mut private = true;
    let mut note = |e: &Expr| {
        visit::each_subexpr(e, &mut |x| match &x.kind {
            ExprKind::Var(v) => {
                private &= prog.var(*v).kind != VarKind::Global && !shared.vars.contains(v);
                read.insert(*v);
            }
            ExprKind::Deref(_) | ExprKind::Member(..) | ExprKind::Index(..) => private = false,
            _ => {}
        });
    };
    if let Some(c) = cond {
        note(c);
    }
    for s in &test {
        visit::each_expr(s, &mut |e| note(e));
    }
    let temp = |v: &VarId| crate::ir::internal::is_internal_name(&prog.var(*v).name);
    let counters: Vec<VarId> = read.iter().filter(|v| !temp(v)).copied().collect();
    if !private || counters.is_empty() {
        return None;
    }
    // Each counter changed in the loop only from itself and constants.
    let mut counts_only = true;
    visit::each_stmt(body, &mut |s| {
        let StmtKind::Expr(e) = &s.kind else { return };
        let (ExprKind::Assign(lhs, rhs) | ExprKind::OpAssign { lhs, rhs, .. }) = &e.kind else {
            return;
        };
        let ExprKind::Var(v) = lhs.kind else { return };
        if !counters.contains(&v) {
            return;
        }
        visit::each_subexpr(rhs, &mut |x| {
            counts_only &= match &x.kind {
                ExprKind::Var(w) => *w == v,
                ExprKind::Call(..) | ExprKind::Deref(_) | ExprKind::Member(..) => false,
                _ => true,
            };
        });
    });
    counts_only.then_some(l)
}

/// Whether statement `sid` computes the test of a loop around a condition wait (the
/// loop's condition, or the normalizer's `int __t = ..; if (!__t) break;` before the
/// wait in its body): where a waiter decides whether to wait.
pub fn is_wait_loop_test(prog: &Program, sid: StmtId) -> bool {
    let Some(l) = enclosing_loop(prog, sid) else {
        return false;
    };
    let Some(test) =
        loop_parts(l).and_then(|(_, body)| test_before(prog, body, |s| is_wait_call(prog, s)))
    else {
        return false;
    };
    let in_test = |s: &Stmt| {
        let mut hit = false;
        visit::each_stmt(s, &mut |x| hit |= x.id == sid);
        hit
    };
    l.id == sid || test.into_iter().any(in_test)
}

/// Whether statement `sid` decides whether its thread waits on a condition: the test of a
/// loop around a condition wait (`is_wait_loop_test`), or a statement on the line of an
/// `if` whose branches make one (`if (n == 0) pthread_cond_wait(..)`, normalized into a
/// temporary and the `if` on one line). A thread that read shared state there was made
/// to wait for it, not started too early.
pub fn decides_a_wait(prog: &Program, sid: StmtId) -> bool {
    if is_wait_loop_test(prog, sid) {
        return true;
    }
    // The function holding `sid`, and the statement's source line there.
    for f in &prog.funcs {
        let Some(body) = &f.body else { continue };
        let mut path = Vec::new();
        if !find(body, sid, &mut path) {
            continue;
        }
        let mut at = None;
        visit::each_stmt(body, &mut |s| {
            if s.id == sid {
                at = prog.sources.position(s.loc);
            }
        });
        let Some(at) = at else { return false };
        let mut waits = false;
        visit::each_stmt(body, &mut |s| {
            let here = matches!(s.kind, StmtKind::If { .. })
                && prog
                    .sources
                    .position(s.loc)
                    .is_some_and(|p| p.line == at.line && p.file == at.file);
            if here && !waits {
                visit::each_stmt(s, &mut |x| waits |= is_wait_call(prog, x));
            }
        });
        return waits;
    }
    false
}

/// The statements enclosing `sid`, outermost first, when its function has no `goto`
/// (which could make a loop the structure does not show); `None` otherwise.
fn structured_path(prog: &Program, sid: StmtId) -> Option<Vec<&Stmt>> {
    for f in &prog.funcs {
        let Some(body) = &f.body else { continue };
        let mut path: Vec<&Stmt> = Vec::new();
        if find(body, sid, &mut path) {
            let mut has_goto = false;
            visit::each_stmt(body, &mut |s| {
                has_goto |= matches!(s.kind, StmtKind::Goto(_));
            });
            return (!has_goto).then_some(path);
        }
    }
    None
}

/// Statement `sid` is outside every loop of its function, and the function has no `goto`
/// (which could make a loop): a condition wait there never tests whether what it waits
/// for already happened, so a signal sent before it is lost for good.
pub fn outside_any_loop(prog: &Program, sid: StmtId) -> bool {
    structured_path(prog, sid).is_some_and(|path| {
        !path.iter().any(|s| {
            matches!(
                s.kind,
                StmtKind::While { .. } | StmtKind::DoWhile { .. } | StmtKind::For { .. }
            )
        })
    })
}

/// The innermost loop around statement `sid` in its function.
pub(crate) fn enclosing_loop(prog: &Program, sid: StmtId) -> Option<&Stmt> {
    for f in &prog.funcs {
        let Some(body) = &f.body else { continue };
        let mut path: Vec<&Stmt> = Vec::new();
        if find(body, sid, &mut path) {
            return path.into_iter().rev().find(|s| {
                matches!(
                    s.kind,
                    StmtKind::While { .. } | StmtKind::DoWhile { .. } | StmtKind::For { .. }
                )
            });
        }
    }
    None
}

/// Whether `sid` is inside `s`; `path` gets the statements enclosing it, outermost first.
fn find<'a>(s: &'a Stmt, sid: StmtId, path: &mut Vec<&'a Stmt>) -> bool {
    if s.id == sid && !matches!(s.kind, StmtKind::Block(_)) {
        return true;
    }
    path.push(s);
    let found = match &s.kind {
        StmtKind::Block(ss) => ss.iter().any(|x| find(x, sid, path)),
        StmtKind::If { then, els, .. } => {
            find(then, sid, path) || els.as_deref().is_some_and(|e| find(e, sid, path))
        }
        StmtKind::While { body, .. }
        | StmtKind::DoWhile { body, .. }
        | StmtKind::Switch { body, .. } => find(body, sid, path),
        StmtKind::For { init, body, .. } => {
            init.iter().any(|x| find(x, sid, path)) || find(body, sid, path)
        }
        _ => false,
    };
    if !found {
        path.pop();
    }
    found
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The line of each statement `spurious_wake_sites` lists.
    fn site_lines(src: &str) -> Vec<u32> {
        let mut p = crate::frontend::load_text("t.c", src, DataModel::Lp64).expect("parses");
        crate::passes::normalize::normalize(&mut p);
        let sites = spurious_wake_sites(&p);
        let mut lines = Vec::new();
        for f in &p.funcs {
            let Some(body) = &f.body else { continue };
            visit::each_stmt(body, &mut |s| {
                if sites.contains(&s.id) && !matches!(s.kind, StmtKind::Block(_)) {
                    lines.extend(p.sources.position(s.loc).map(|x| x.line));
                }
            });
        }
        lines.sort();
        lines
    }

    #[test]
    fn waits_no_loop_re_tests_may_wake_spuriously() {
        let lines = site_lines(
            "typedef struct { int x; } pthread_mutex_t; typedef struct { int x; } pthread_cond_t;\n\
             extern int pthread_cond_wait(pthread_cond_t *, pthread_mutex_t *);\n\
             pthread_mutex_t m; pthread_cond_t c; int ready, done;\n\
             void a(void) { if (!ready) pthread_cond_wait(&c, &m); }\n\
             void b(void) { pthread_cond_wait(&c, &m); }\n\
             void d(void) { while (!ready) pthread_cond_wait(&c, &m); }\n\
             void e(void) { while (!done) { if (!ready) pthread_cond_wait(&c, &m); done = 1; } }\n\
             void f(void) { for (;;) { int r = pthread_cond_wait(&c, &m); if (r == 0) break; } }\n\
             void g(void) { int n = 0; while (!ready && n < 2) { pthread_cond_wait(&c, &m); n++; } }\n\
             void h(void) { while (ready == 0 && done == 0) { pthread_cond_wait(&c, &m); } }\n\
             void k(void) { do pthread_cond_wait(&c, &m); while (!ready); }\n\
             extern int printf(const char *, ...);\n\
             void l(void) { while (!ready) { printf(\"wait\"); pthread_cond_wait(&c, &m); printf(\"woke\"); } }\n\
             int main(void) { a(); b(); d(); e(); f(); g(); h(); k(); l(); return 0; }\n",
        );
        // Line 4 (`if`), 5 (no test), 7 (`if` inside a loop), 8 (the loop leaves on the
        // wait's result), 9 (the loop counts its wake-ups); not 6, 10, 11 and 13 (loops
        // that only re-test their predicate, one logging each wake-up).
        assert_eq!(lines, vec![4, 5, 7, 8, 9]);
    }
}
