//! Condition waits and the constructs around them: the `if` that guards a wait with no loop
//! (a spurious wake-up, or another thread taking the state between the signal and the
//! wake-up, defeats it: CERT CON36-C), and the loop around a statement.

use crate::ir::known::{Known, classify};
use crate::ir::*;

/// Every `pthread_cond_wait`/`pthread_cond_timedwait` call guarded by an `if` and no loop:
/// the wait's location and the `if`'s.
///
/// seqloc does not model spurious wake-ups (a wait returns only when signalled or timed
/// out), so for such a wait "no failure" is not an answer: a spurious wake-up may still make
/// the program fail.
pub fn if_guarded_waits(prog: &Program) -> Vec<(Loc, Loc)> {
    let mut out = Vec::new();
    for f in &prog.funcs {
        let Some(body) = &f.body else { continue };
        visit::each_stmt(body, &mut |s| {
            if s.id == StmtId::NONE || !is_wait_call(prog, s) {
                return;
            }
            if let Some(guard) = guarding_if(prog, s.id) {
                out.push((s.loc, guard.loc));
            }
        });
    }
    out
}

fn is_wait_call(prog: &Program, s: &Stmt) -> bool {
    let StmtKind::Expr(e) = &s.kind else {
        return false;
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
