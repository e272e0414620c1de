//! A jump out of a critical section past its unlock: inside a loop, a thread takes a
//! mutex, and on one path a `continue` (a `break`, a `goto`) skips the unlock the round
//! makes on its other path. The next round locks the mutex again while the thread holds
//! it, and blocks for ever. The relock is where the deadlock shows; the jump is the
//! fault (the `return` that leaves a function holding a lock is
//! `diag::interleaving::DeadlockState::ended_holding`'s).

use super::Explainer;
use crate::cex::TraceStep;
use crate::ir::known::Known;
use crate::ir::{Stmt, StmtId, StmtKind};

/// A jump the run took that skipped an unlock.
pub(super) struct SkippingJump {
    /// The jump, as a step of the thread (it runs as no step of its own).
    pub step: TraceStep,
    /// The line of the unlock the round makes on its other path.
    pub unlock_line: u32,
}

impl Explainer<'_> {
    /// The jump by which `thread`, holding `lock` (taken by `held`), went on to lock it
    /// again at `relock` — or, without `relock`, left the loop still holding it: in the
    /// innermost loop around `held`, a jump after the lock and before an unlock of
    /// `lock` on a later line, in a block of which the thread ran a statement after the
    /// lock (`ran`). `None` when the two locks are not one statement of one function's
    /// loop, or no such jump is there.
    pub(super) fn jump_past_unlock(
        &self,
        held: &TraceStep,
        lock: &str,
        relock: Option<StmtId>,
        ran: &[StmtId],
    ) -> Option<SkippingJump> {
        let f = self.function_of(held.sid)?;
        if let Some(relock) = relock
            && self.function_of(relock)? != f
        {
            return None;
        }
        let l = crate::analysis::waits::enclosing_loop(self.normalized, held.sid)?;
        let (_, round) = crate::analysis::waits::loop_parts(l)?;
        let line = |s: &Stmt| self.normalized.sources.position(s.loc).map(|p| p.line);
        let mut unlocks: Vec<u32> = Vec::new();
        crate::ir::visit::each_stmt(round, &mut |s| {
            if matches!(s.kind, StmtKind::Block(_)) {
                return;
            }
            let releases = self
                .calls_in(s)
                .iter()
                .any(|(k, obj)| *k == Known::MutexUnlock && obj == lock);
            if let Some(l) = line(s).filter(|_| releases) {
                unlocks.push(l);
            }
        });
        // Whether the thread ran a statement of the round on a line in `lines`.
        let ran_on = |lines: std::ops::RangeInclusive<u32>| {
            let mut hit = false;
            crate::ir::visit::each_stmt(round, &mut |s| {
                hit |= ran.contains(&s.id) && line(s).is_some_and(|l| lines.contains(&l));
            });
            hit
        };
        let mut jumps: Vec<(&Stmt, &[Stmt])> = Vec::new();
        jumps_in(round, &mut jumps);
        jumps
            .into_iter()
            .filter_map(|(jump, block)| {
                let at = line(jump)?;
                let unlock_line = *unlocks.iter().filter(|u| **u > at).min()?;
                // Taken: the jump ran, or a statement beside it did; a jump alone in
                // its branch (`if (paused) continue;`) when nothing up to the unlock did.
                let alone = block.iter().all(|s| s.id == jump.id);
                let taken = ran.contains(&jump.id)
                    || block.iter().any(|s| s.id != jump.id && runs_in(s, ran))
                    || (alone && !ran_on(at + 1..=unlock_line));
                (at > held.line && taken).then_some((at, jump.id, unlock_line))
            })
            .min_by_key(|(at, _, _)| *at)
            .and_then(|(_, sid, unlock_line)| {
                Some(SkippingJump {
                    step: self.step_at(held.thread, sid)?,
                    unlock_line,
                })
            })
    }
}

/// The jumps of a loop's round — `goto` anywhere, `continue` and `break` outside the
/// loops nested in it — each with the statements of the block it stands in.
fn jumps_in<'s>(s: &'s Stmt, out: &mut Vec<(&'s Stmt, &'s [Stmt])>) {
    match &s.kind {
        StmtKind::Block(ss) => {
            for x in ss {
                if matches!(
                    x.kind,
                    StmtKind::Goto(_) | StmtKind::Continue | StmtKind::Break
                ) {
                    out.push((x, ss));
                } else {
                    jumps_in(x, out);
                }
            }
        }
        StmtKind::If { then, els, .. } => {
            jumps_in(then, out);
            if let Some(e) = els {
                jumps_in(e, out);
            }
        }
        StmtKind::Switch { body, .. } => jumps_in(body, out),
        // A nested loop's `continue` and `break` stay in it; its `goto`s may leave.
        StmtKind::While { body, .. }
        | StmtKind::DoWhile { body, .. }
        | StmtKind::For { body, .. } => {
            let mut inner = Vec::new();
            jumps_in(body, &mut inner);
            out.extend(
                inner
                    .into_iter()
                    .filter(|(j, _)| matches!(j.kind, StmtKind::Goto(_))),
            );
        }
        StmtKind::Goto(_) | StmtKind::Continue | StmtKind::Break => out.push((s, &[])),
        _ => {}
    }
}

/// `s`, or a statement inside it, is among `ran`.
fn runs_in(s: &Stmt, ran: &[StmtId]) -> bool {
    let mut hit = false;
    crate::ir::visit::each_stmt(s, &mut |x| hit |= ran.contains(&x.id));
    hit
}
