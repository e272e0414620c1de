//! What the candidates read from the run's schedule share (`switches`, `orderings`,
//! `deadlocks`), and what other analyses ask of the same run: a step named in place of a
//! value candidate on its line, where a thread first ran a statement, the library calls
//! a statement makes, a critical section split in two and the test of a copy made before
//! it (`rootcause::patterns`), a line that creates a thread, what a blocked join holds
//! back. Kept in one place so every concept reads the program's statements the same way.

use std::collections::BTreeSet;

use super::{Candidate, CandidateKind, Explainer, Role, same_file};
use crate::ir::*;

impl Explainer<'_> {
    /// Where in the failing run `step`'s thread first ran its statement.
    pub(super) fn first_run_of(&self, step: &crate::cex::TraceStep) -> Option<usize> {
        self.cex
            .steps
            .iter()
            .position(|s| s.thread == step.thread && s.sid == step.sid)
    }

    /// Names `step` as a `kind` candidate with `hint` among `extra`: a plain value
    /// candidate already on its line takes these words and moves to this place (a
    /// value's place would sort it ahead of the analyses' own lines); a line named
    /// otherwise keeps its name. The index in `extra` when the line was placed there now.
    pub(super) fn take_or_push(
        &self,
        out: &mut Vec<Candidate>,
        extra: &mut Vec<Candidate>,
        step: &crate::cex::TraceStep,
        kind: CandidateKind,
        hint: &str,
    ) -> Option<usize> {
        let on = |c: &Candidate| c.line == step.line && same_file(&c.file, &step.file);
        if let Some(at) = out.iter().position(|c| {
            on(c)
                && c.kind == CandidateKind::Value
                && c.role == Role::Plain
                && !c.specification
                && c.set.is_none()
        }) {
            let mut c = out.remove(at);
            c.kind = kind;
            c.hint = hint.to_string();
            c.rank = extra.len();
            extra.push(c);
            return Some(extra.len() - 1);
        }
        let before = extra.len();
        self.push_step_candidate(extra, out, step, kind, hint);
        (extra.len() > before).then_some(before)
    }

    /// The library calls a simple statement makes (its own expressions, not a branch's),
    /// with their first argument as the program writes it (`&m` as `m`).
    pub(super) fn calls_in(&self, s: &Stmt) -> Vec<(crate::ir::known::Known, String)> {
        struct Calls<'p, 'e> {
            ex: &'p Explainer<'e>,
            out: Vec<(crate::ir::known::Known, String)>,
        }
        impl crate::ir::visit::Visitor for Calls<'_, '_> {
            fn visit_expr(&mut self, e: &Expr) {
                if let ExprKind::Call(f, args) = &e.kind {
                    if let ExprKind::Func(fid) = f.peel().kind {
                        let func = self.ex.normalized.func(fid);
                        // A function of the program's own, or one seqloc does not know,
                        // is `Other`: it may do anything.
                        let known = crate::ir::known::classify(&func.name);
                        let obj = args
                            .first()
                            .map(|a| self.ex.object_text(a))
                            .unwrap_or_default();
                        self.out.push((known, obj));
                    }
                }
                crate::ir::visit::walk_expr(self, e)
            }
        }
        let mut v = Calls {
            ex: self,
            out: Vec::new(),
        };
        match &s.kind {
            StmtKind::Expr(e) => crate::ir::visit::Visitor::visit_expr(&mut v, e),
            StmtKind::Decl { init: Some(i), .. } => {
                crate::ir::visit::Visitor::visit_init(&mut v, i)
            }
            StmtKind::Return(Some(e)) => crate::ir::visit::Visitor::visit_expr(&mut v, e),
            _ => {}
        }
        v.out
    }

    /// A critical section split between two accesses of one thread: when `first` and
    /// `last` are in one function and, between their lines, the function releases a
    /// mutex and takes the same mutex again, the unlock and the lock (the last unlock
    /// before the first lock after `first`). What was checked under the lock at `first`
    /// is no longer protected when `last` acts on it.
    pub(crate) fn split_section(&self, first: StmtId, last: StmtId) -> Option<(StmtId, StmtId)> {
        use crate::ir::known::Known;
        let f = self.function_of(first)?;
        if self.function_of(last)? != f {
            return None;
        }
        let line = |sid: StmtId| {
            let st = self.stmts.get(&sid)?;
            self.normalized.sources.position(st.loc).map(|p| p.line)
        };
        let (lo, hi) = (line(first)?, line(last)?);
        if lo >= hi {
            return None;
        }
        let body = self.normalized.funcs.get(f)?.body.as_ref()?;
        let mut calls: Vec<(u32, StmtId, Known, String)> = Vec::new();
        crate::ir::visit::each_stmt(body, &mut |s| {
            if matches!(s.kind, StmtKind::Block(_)) {
                return;
            }
            let Some(l) = self.normalized.sources.position(s.loc).map(|p| p.line) else {
                return;
            };
            if l > lo && l < hi {
                for (k, obj) in self.calls_in(s) {
                    if matches!(k, Known::MutexLock | Known::MutexUnlock) {
                        calls.push((l, s.id, k, obj));
                    }
                }
            }
        });
        calls.sort_by_key(|c| c.0);
        let (lock_at, lock, _, m) = calls.iter().find(|c| c.2 == Known::MutexLock)?;
        let unlock = calls
            .iter()
            .rfind(|c| c.2 == Known::MutexUnlock && c.0 < *lock_at && c.3 == *m)?;
        Some((unlock.1, *lock))
    }

    /// In the function of `first` (a shared read), an `if` after the lock `lock` and up
    /// to `last`'s line whose line reads only locals, one of which a statement on
    /// `first`'s line assigned: the test of a copy made before the section was split.
    /// The `if` and the local's name.
    pub(crate) fn stale_test(
        &self,
        first: StmtId,
        lock: StmtId,
        last: StmtId,
    ) -> Option<(StmtId, String)> {
        let f = self.function_of(first)?;
        let body = self.normalized.funcs.get(f)?.body.as_ref()?;
        let pos = |sid: StmtId| {
            let st = self.stmts.get(&sid)?;
            self.normalized.sources.position(st.loc)
        };
        let (first_at, lock_line, last_line) = (pos(first)?, pos(lock)?.line, pos(last)?.line);
        let line_of = |s: &Stmt| self.normalized.sources.position(s.loc).map(|p| p.line);
        let is_local = |v: crate::ir::VarId| {
            matches!(
                self.normalized.var(v).kind,
                crate::ir::VarKind::Local | crate::ir::VarKind::Param
            )
        };
        // The locals the first section's line assigns.
        let mut copies: Vec<crate::ir::VarId> = Vec::new();
        crate::ir::visit::each_stmt(body, &mut |s| {
            if line_of(s) != Some(first_at.line) {
                return;
            }
            let target = match &s.kind {
                StmtKind::Decl { var, .. } => Some(*var),
                StmtKind::Expr(e) => match &e.kind {
                    ExprKind::Assign(l, _) => match l.peel().kind {
                        ExprKind::Var(v) => Some(v),
                        _ => None,
                    },
                    _ => None,
                },
                _ => None,
            };
            if let Some(v) = target.filter(|v| is_local(*v)) {
                copies.push(v);
            }
        });
        let mut found: Option<(StmtId, String)> = None;
        crate::ir::visit::each_stmt(body, &mut |s| {
            if found.is_some() || !matches!(s.kind, StmtKind::If { .. }) {
                return;
            }
            let Some(l) = line_of(s).filter(|l| *l > lock_line && *l <= last_line) else {
                return;
            };
            let (reads, _) = self.accesses(first_at.file, l);
            if !reads.is_empty() {
                return;
            }
            // The locals the statements on the test's line read.
            let mut read = None;
            crate::ir::visit::each_stmt(body, &mut |t| {
                if line_of(t) != Some(l) || matches!(t.kind, StmtKind::Block(_)) {
                    return;
                }
                let own: Vec<&Expr> = match &t.kind {
                    StmtKind::If { cond, .. } => vec![cond],
                    StmtKind::Decl {
                        init: Some(crate::ir::Init::Expr(e)),
                        ..
                    } => vec![e],
                    StmtKind::Expr(e) => vec![e],
                    _ => vec![],
                };
                for e in own {
                    crate::ir::visit::each_subexpr(e, &mut |x| {
                        if let ExprKind::Var(v) = x.kind
                            && copies.contains(&v)
                        {
                            read = Some(v);
                        }
                    });
                }
            });
            if let Some(v) = read {
                found = Some((s.id, self.normalized.var(v).name.clone()));
            }
        });
        found
    }

    /// One of the statements of an instrumented line creates a thread.
    pub(super) fn creates_thread(&self, sites: &[&crate::instrument::Site]) -> bool {
        sites.iter().any(|site| {
            self.stmts.get(&site.sid).is_some_and(|s| {
                self.calls_in(s)
                    .iter()
                    .any(|(k, _)| *k == crate::ir::known::Known::ThreadCreate)
            })
        })
    }

    /// What comes after a `pthread_join` at `step` in its function that could wake
    /// another blocked thread (`others`): `None` when `step` is no join. A thread blocked
    /// there, holding no lock, is a bystander of the deadlock when nothing could
    /// ([`JoinWakes::Nothing`]: no unlock, signal, broadcast or post of an object one
    /// waits on, and no call of the program's own functions, which might); it closes
    /// the cycle when one does for certain ([`JoinWakes::Surely`]: the join holds that
    /// wake-up back).
    /// A blocked call of the program's own function that joins (a join helper's call,
    /// see `lock_helpers`) counts as the join.
    pub(super) fn join_wakes(
        &self,
        step: &crate::cex::TraceStep,
        others: &[&crate::cex::TraceStep],
    ) -> Option<JoinWakes> {
        use crate::ir::known::Known;
        let stmt = self.stmts.get(&step.sid)?;
        let joins = |s: &Stmt| {
            self.calls_in(s)
                .iter()
                .any(|(k, _)| *k == Known::ThreadJoin)
        };
        if !joins(stmt) && !self.calls_a_joiner(stmt, &joins) {
            return None;
        }
        let mut waited: BTreeSet<String> = BTreeSet::new();
        for o in others {
            for (k, obj) in self
                .stmts
                .get(&o.sid)
                .map(|s| self.calls_in(s))
                .unwrap_or_default()
            {
                if k.may_block() && k != Known::ThreadJoin {
                    waited.insert(obj);
                }
            }
            // A condition wait also waits for its mutex.
            if let Some(StmtKind::Expr(e)) = self.stmts.get(&o.sid).map(|s| &s.kind) {
                if let Some(ExprKind::Call(_, args)) = Some(&e.peel().kind) {
                    if let Some(ExprKind::AddrOf(x)) = args.get(1).map(|a| &a.peel().kind) {
                        waited.insert(self.lvalue_text(x));
                    }
                }
            }
        }
        let body = self
            .function_of(step.sid)
            .and_then(|f| self.normalized.funcs.get(f))
            .and_then(|f| f.body.as_ref())?;
        let (mut surely, mut maybe) = (false, false);
        crate::ir::visit::each_stmt(body, &mut |s| {
            if matches!(s.kind, StmtKind::Block(_)) {
                return;
            }
            let later = self
                .normalized
                .sources
                .position(s.loc)
                .is_some_and(|p| p.line > step.line);
            if !later {
                return;
            }
            for (k, obj) in self.calls_in(s) {
                match k {
                    Known::Other => maybe = true,
                    Known::MutexUnlock
                    | Known::CondSignal
                    | Known::CondBroadcast
                    | Known::SemPost
                    | Known::RwUnlock => surely |= waited.contains(&obj),
                    _ => {}
                }
            }
        });
        Some(if surely {
            JoinWakes::Surely
        } else if maybe {
            JoinWakes::Maybe
        } else {
            JoinWakes::Nothing
        })
    }
}

/// See [`Explainer::join_wakes`].
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) enum JoinWakes {
    Surely,
    Maybe,
    Nothing,
}

/// `a`, `b` for a list of locations, without the model's own names (the pointer an
/// atomic operation's model writes through): empty when no other is left.
pub(super) fn quoted(vars: &[String]) -> String {
    vars.iter()
        .filter(|v| !crate::ir::internal::mentions_internal_name(v))
        .map(|v| format!("`{v}`"))
        .collect::<Vec<_>>()
        .join(", ")
}
