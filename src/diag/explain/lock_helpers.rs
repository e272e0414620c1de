//! Lock helpers (`void lock_account(struct account *a) { pthread_mutex_lock(&a->mu); }`):
//! a function that takes a mutex and returns holding it. In a deadlock, the line inside
//! the helper is where every caller's lock shows; the order that closes the cycle is
//! decided by the calls in the callers, so those are what a deadlock names. Likewise a
//! join helper (`join_all(p)`): what its join holds back comes after its call.

use super::Explainer;
use super::interleaving::JoinWakes;
use crate::cex::TraceStep;
use crate::diag::interleaving::DeadlockState;
use crate::ir::StmtId;
use crate::ir::known::Known;

impl Explainer<'_> {
    /// `st` with each blocked lock, and each held lock of a blocked thread, made inside a
    /// lock helper, and each blocked join inside a function that wakes nothing after it,
    /// moved to the helper's call in its caller (the thread's own call in the run). One
    /// whose call cannot be told stays where it is.
    pub(super) fn lifted_out_of_helpers(&self, st: &DeadlockState) -> DeadlockState {
        let mut out = st.clone();
        let waiters = out.blocked.clone();
        for b in out.blocked.iter_mut() {
            // A join inside a helper (`join_all(p)`) that wakes nothing after it: what
            // the join holds back is in the caller, after the call.
            let others: Vec<&TraceStep> = waiters.iter().filter(|o| o.thread != b.thread).collect();
            let join_helper = self.join_wakes(b, &others) == Some(JoinWakes::Nothing);
            if !self.in_lock_helper(b.sid) && !join_helper {
                continue;
            }
            // Blocked inside the helper: the thread's latest call toward it is the one
            // it is in (a helper that only locks does not recurse).
            if let Some(call) = self.helper_call(self.cex.steps.len(), b) {
                *b = call;
            }
        }
        // The held locks again, with where each was taken in the run (`deadlock_state`
        // lists them in this order): two takes through one helper look alike.
        let blocked: Vec<u32> = out.blocked.iter().map(|b| b.thread).collect();
        let steps = &self.cex.steps;
        let takes: Vec<(u32, String, usize)> = crate::diag::interleaving::locks_held(steps)
            .last()
            .map(|end| {
                end.iter()
                    .flat_map(|(t, ls)| ls.iter().map(|(l, a)| (*t, l.clone(), *a)))
                    .collect()
            })
            .unwrap_or_default();
        if takes.len() != out.held.len() {
            return out;
        }
        for (h, (t, lock, at)) in out.held.iter_mut().zip(takes) {
            if h.thread != t
                || h.lock != lock
                || h.step.sid != steps.get(at).map_or(StmtId::NONE, |s| s.sid)
            {
                continue;
            }
            if !blocked.contains(&h.thread) || !self.in_lock_helper(h.step.sid) {
                continue;
            }
            if let Some(call) = self.helper_call(at, &h.step) {
                h.step = call;
            }
        }
        out
    }

    /// The call in its caller that made `step`, a step of a helper's: the thread's last
    /// step before `upto` that calls toward the helper (a helper that only locks or
    /// joins does not recurse), else the call that ran no step (see `unseen_call`).
    fn helper_call(&self, upto: usize, step: &TraceStep) -> Option<TraceStep> {
        self.cex
            .steps
            .get(..upto)?
            .iter()
            .rev()
            .find(|p| p.thread == step.thread && self.calls_toward(p.sid, step.sid))
            .cloned()
            .or_else(|| self.unseen_call(upto, step))
    }

    /// The call toward `step`'s function that ran no step of its own (a call with no
    /// arguments binds nothing): the first such call after the thread's last step before
    /// `upto` in another function, its caller's.
    fn unseen_call(&self, upto: usize, step: &TraceStep) -> Option<TraceStep> {
        let inner = self.function_of(step.sid)?;
        let before = self
            .cex
            .steps
            .get(..upto)?
            .iter()
            .rev()
            .filter(|p| p.thread == step.thread)
            .find(|p| self.function_of(p.sid) != Some(inner))?;
        let call = self.call_towards(before.sid, step.sid)?;
        self.step_at(step.thread, call.id)
    }

    /// The statement `sid` locks a mutex in a function that never unlocks it (by the
    /// same text): the function returns holding it, for its caller.
    pub(super) fn in_lock_helper(&self, sid: StmtId) -> bool {
        let Some(stmt) = self.stmts.get(&sid) else {
            return false;
        };
        let locked: Vec<String> = self
            .calls_in(stmt)
            .into_iter()
            .filter(|(k, _)| *k == Known::MutexLock)
            .map(|(_, m)| m)
            .collect();
        let Some(f) = self.function_of(sid) else {
            return false;
        };
        !locked.is_empty()
            && !self.stmts.iter().any(|(id, s)| {
                self.function_of(*id) == Some(f)
                    && self
                        .calls_in(s)
                        .iter()
                        .any(|(k, m)| *k == Known::MutexUnlock && locked.contains(m))
            })
    }
}
