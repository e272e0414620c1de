//! A `trylock` whose failure the program tests, but not every failure: its result kept in
//! a variable, a test of that variable that turns back on some results (`EINVAL`) and
//! lets the others (`EBUSY`) through to the data the lock guards. When the failing run
//! made such an access holding no lock (`diag::interleaving::Unprotected`) after the
//! thread's `trylock` of that very lock, the attempt failed and the test let it through:
//! the test is the fault (it must turn back on every non-zero result), the access is
//! where it shows, and making the `trylock` a blocking lock is a repair by doing less.
//!
//! A `trylock` whose result is dropped or never tested before the access is
//! `diag::explain::unlocks`' case (or the lock-set analysis's, the access).

use super::Explainer;
use crate::cex::TraceStep;
use crate::diag::interleaving::Unprotected;
use crate::ir::{Expr, ExprKind, Init, Stmt, StmtKind, VarId};

impl Explainer<'_> {
    /// For an access made without `u.lock`: the test, between the thread's `trylock` of
    /// that lock (in the access's function, its result kept in a variable) and the
    /// access, that read the result and let the run go on; as a step of the thread, with
    /// the line of the `trylock`.
    pub(super) fn trylock_let_through(&self, u: &Unprotected) -> Option<(TraceStep, u32)> {
        let f = self.function_of(u.step.sid)?;
        let line_of = |s: &Stmt| {
            self.normalized
                .sources
                .position(s.loc)
                .filter(|p| super::same_file(p.file, &u.step.file))
                .map(|p| p.line)
        };
        let mine = || {
            self.stmts
                .iter()
                .filter(move |(id, _)| self.function_of(**id) == Some(f))
        };
        // The nearest `trylock` of the lock before the access whose result is kept.
        let (try_line, result) = mine()
            .filter_map(|(_, s)| {
                let line = line_of(s)?;
                (line < u.step.line).then_some(())?;
                let (var, call) = kept_result(s)?;
                let (name, obj) = self.lock_call(&Stmt {
                    kind: StmtKind::Expr(call.clone()),
                    ..s.clone()
                })?;
                (name.ends_with("_trylock") && obj == u.lock).then_some((line, var))
            })
            .max_by_key(|(line, _)| *line)?;
        // A branch between the two whose line reads the result (`int __t = rc == 22;
        // if (__t)` is one source line), the first the thread ran before the access.
        let mut tests: Vec<(u32, crate::ir::StmtId)> = mine()
            .filter_map(|(id, s)| {
                let line = line_of(s)?;
                (try_line < line && line < u.step.line && is_branch(s)).then_some((line, *id))
            })
            .filter(|(line, _)| {
                mine().any(|(_, s)| line_of(s) == Some(*line) && reads_own(s, result))
            })
            .collect();
        tests.sort();
        let access =
            self.cex.steps.iter().position(|s| {
                s.thread == u.thread && s.sid == u.step.sid && s.line == u.step.line
            })?;
        let (_, sid) = tests.into_iter().find(|(line, _)| {
            self.cex.steps.iter().take(access).any(|s| {
                s.thread == u.thread && s.line == *line && super::same_file(&s.file, &u.step.file)
            })
        })?;
        Some((self.step_at(u.thread, sid)?, try_line))
    }
}

/// The variable a statement keeps a call's result in (`int rc = f(..);`, `rc = f(..);`),
/// with the call.
fn kept_result(s: &Stmt) -> Option<(VarId, &Expr)> {
    let (var, value) = match &s.kind {
        StmtKind::Decl {
            var,
            init: Some(Init::Expr(e)),
        } => (*var, e),
        StmtKind::Expr(e) => match &e.kind {
            ExprKind::Assign(l, r) => match l.peel().kind {
                ExprKind::Var(v) => (v, &**r),
                _ => return None,
            },
            _ => return None,
        },
        _ => return None,
    };
    matches!(value.peel().kind, ExprKind::Call(..)).then_some((var, value.peel()))
}

fn is_branch(s: &Stmt) -> bool {
    matches!(
        s.kind,
        StmtKind::If { .. } | StmtKind::While { .. } | StmtKind::Switch { .. }
    )
}

/// A statement's own expressions (not a branch's body) read `v`.
fn reads_own(s: &Stmt, v: VarId) -> bool {
    let own: Vec<&Expr> = match &s.kind {
        StmtKind::Decl {
            init: Some(Init::Expr(e)),
            ..
        }
        | StmtKind::Expr(e)
        | StmtKind::If { cond: e, .. }
        | StmtKind::While { cond: e, .. }
        | StmtKind::Switch { cond: e, .. } => vec![e],
        _ => vec![],
    };
    let mut hit = false;
    for e in own {
        crate::ir::visit::each_subexpr(e, &mut |x| {
            hit |= matches!(x.kind, ExprKind::Var(w) if w == v);
        });
    }
    hit
}
