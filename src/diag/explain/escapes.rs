//! A pointer into guarded data used after the section that found it.
//!
//! `lock; e = lookup(key); unlock; v = e->data;` — the thread looks an entry up under the
//! mutex and reads through the pointer after letting the mutex go. Another thread that
//! changes (clears, frees, reuses) the entry under the same mutex between the unlock and
//! the read makes the read see what the lookup did not find. The region the atomicity
//! analysis names (the read and the statement before it) is only the symptom's end: the
//! unlock released the data while the thread still held a reference into it. The repair
//! moves the unlock after the last use (or copies the data inside the section), so the
//! unlock is named, before the read.
//!
//! Read off the failing run and the code alone: the read's pointer is a local the thread
//! set inside its last critical section of the function, not set again since, and
//! another thread wrote what the read reads (by member name) between the unlock and the
//! read.

use super::{Candidate, CandidateKind, Explainer, Role};
use crate::cex::TraceStep;
use crate::ir::{Expr, ExprKind, Init, Stmt, StmtKind, VarId, VarKind};

impl Explainer<'_> {
    /// Candidates for the unlocks that released data a thread went on using through a
    /// pointer it found in the section (see the module comment).
    pub fn escaped_pointer_candidates(&self, mut out: Vec<Candidate>) -> Vec<Candidate> {
        let steps = &self.cex.steps;
        let outcome = self.outcome();
        let mut named: Vec<crate::ir::StmtId> = Vec::new();
        for (i, x) in steps.iter().enumerate() {
            let Some(st) = self.stmts.get(&x.sid) else {
                continue;
            };
            let Some((reads, _)) = self.stmt_access(x.sid) else {
                continue;
            };
            let pointers = self.local_pointers_read_through(st);
            if reads.is_empty() || pointers.is_empty() {
                continue;
            }
            let Some(u) = self.unlock_before(i) else {
                continue;
            };
            let Some(unlock) = steps.get(u) else {
                continue;
            };
            if named.contains(&unlock.sid) {
                continue;
            }
            let Some(section) = self.section_before(x.thread, unlock) else {
                continue;
            };
            let sets = |s: &TraceStep, p: VarId| {
                self.stmts
                    .get(&s.sid)
                    .is_some_and(|st| assigns_local(st, p))
            };
            // The pointer set inside the section, not set again since.
            let Some((p, found)) = pointers.iter().find_map(|p| {
                let found = section.iter().rfind(|s| sets(s, *p))?;
                let again = steps[u + 1..i]
                    .iter()
                    .any(|s| s.thread == x.thread && sets(s, *p));
                (!again).then_some((*p, *found))
            }) else {
                continue;
            };
            let Some(gap) = steps[u + 1..i].iter().find(|g| {
                g.thread != x.thread
                    && self.stmt_access(g.sid).is_some_and(|(_, ws)| {
                        ws.iter().any(|w| reads.iter().any(|r| same_member(r, w)))
                    })
            }) else {
                continue;
            };
            named.push(unlock.sid);
            let name = self.normalized.var(p).name.clone();
            let hint = format!(
                "{} releases the mutex here while it still uses `{name}`, which it set at line {} inside the section: {}'s write at line {} came before its read through `{name}` at line {}; released after the last use of `{name}` (or with the data copied inside the section), {outcome} (an atomicity violation: a reference escaped its critical section)",
                self.thread_name(x.thread),
                found.line,
                self.thread_name(gap.thread),
                gap.line,
                x.line,
            );
            self.name_as(
                &mut out,
                unlock,
                &hint,
                (CandidateKind::Atomicity, Role::EscapedPointer),
            );
        }
        out
    }

    /// The locals of the thread's own that `s` dereferences (`e->data`, `*p`).
    fn local_pointers_read_through(&self, s: &Stmt) -> Vec<VarId> {
        let mut out = Vec::new();
        let mut visit = |e: &Expr| {
            if let ExprKind::Deref(inner) = &e.kind {
                if let ExprKind::Var(v) = strip_casts(inner).kind {
                    let var = self.normalized.var(v);
                    let local = matches!(var.kind, VarKind::Local | VarKind::Param);
                    if local && !self.shared.vars.contains(&v) && !out.contains(&v) {
                        out.push(v);
                    }
                }
            }
        };
        crate::ir::visit::each_expr(s, &mut visit);
        out
    }
}

fn strip_casts(e: &Expr) -> &Expr {
    match &e.kind {
        ExprKind::Cast { e, .. } | ExprKind::Decay(e) => strip_casts(e),
        _ => e,
    }
}

/// Statement `s` sets local `p`: its declaration with a value, or an assignment to it.
fn assigns_local(s: &Stmt, p: VarId) -> bool {
    match &s.kind {
        StmtKind::Decl {
            var,
            init: Some(Init::Expr(_)),
        } => *var == p,
        StmtKind::Expr(e) => {
            matches!(&e.kind, ExprKind::Assign(l, _) if matches!(l.kind, ExprKind::Var(v) if v == p))
        }
        _ => false,
    }
}

/// Two of the analyses' location texts name the same member (`e->data` and
/// `cache[i].data`): the text after the last `->` or `.`, indices dropped.
fn same_member(a: &str, b: &str) -> bool {
    let member = |x: &str| -> Option<String> {
        let cut = x
            .rfind("->")
            .map(|i| i + 2)
            .or_else(|| x.rfind('.').map(|i| i + 1))?;
        Some(x[cut..].split('[').next().unwrap_or_default().to_string())
    };
    match (member(a), member(b)) {
        (Some(m), Some(n)) => m == n,
        _ => false,
    }
}
