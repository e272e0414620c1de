//! A barrier made for fewer threads than wait at it: it let one thread through before
//! another had arrived, and the first then used what the other had still to make.
//! Read from an order violation (`diag::ordering`) and the program's own code.

use super::{Candidate, CandidateKind, Explainer, Role};
use crate::cex::TraceStep;
use crate::diag::ordering::OrderViolation;
use crate::ir::known::Known;

/// The barrier that should have held the early statement back (see the module comment).
pub(super) struct ShortBarrier {
    pub name: String,
    /// Its `pthread_barrier_init`.
    pub init: TraceStep,
    /// The early thread's wait it passed (its arrival).
    pub passed: TraceStep,
}

impl Explainer<'_> {
    /// The early thread of `v` passed a wait at barrier `B` before its early statement,
    /// in the barrier's first cycle, and the late thread's function waits at `B` too
    /// without having arrived there before: a barrier counting every thread that waits
    /// would have held the early thread until the late one arrived — after its late
    /// statement, when the wait follows it in the late thread's function. So the count
    /// given at `B`'s `pthread_barrier_init` is too small. Barriers are told apart by
    /// their text (`&b` → `b`): one reached under two names is missed, never confused.
    pub(super) fn short_barrier(&self, v: &OrderViolation) -> Option<ShortBarrier> {
        let steps = &self.cex.steps;
        let at = self.first_run_of(&v.early)?;
        let barrier_calls = |s: &TraceStep, kind: Known| -> Vec<String> {
            self.stmts
                .get(&s.sid)
                .map(|st| {
                    self.calls_in(st)
                        .into_iter()
                        .filter(|(k, _)| *k == kind)
                        .map(|(_, o)| o)
                        .collect()
                })
                .unwrap_or_default()
        };
        // The early thread's arrivals at barriers before the early statement, which it
        // went on to (so it left the barrier; the departure shows no step of its own):
        // one barrier, arrived at once (its first cycle).
        let mut passed: Option<(String, TraceStep)> = None;
        for s in steps
            .get(..at)?
            .iter()
            .filter(|s| s.thread == v.early.thread)
        {
            for b in barrier_calls(s, Known::BarrierArrive) {
                match &passed {
                    None => passed = Some((b, s.clone())),
                    Some(_) => return None,
                }
            }
        }
        let (name, leave) = passed?;
        // The late thread had not arrived at it before (in the failing run).
        let arrived_before = steps
            .iter()
            .filter(|s| s.thread == v.late_thread)
            .any(|s| barrier_calls(s, Known::BarrierArrive).contains(&name));
        if arrived_before || name.is_empty() {
            return None;
        }
        // The late statement's function waits at the same barrier after it.
        let f = self.function_of(v.late_step.sid)?;
        let body = self.normalized.funcs.get(f)?.body.as_ref()?;
        let late_line = v.late_step.line;
        let mut waits_after = false;
        crate::ir::visit::each_stmt(body, &mut |st| {
            let after = self
                .normalized
                .sources
                .position(st.loc)
                .is_some_and(|p| p.line > late_line);
            if after
                && self
                    .calls_in(st)
                    .iter()
                    .any(|(k, o)| *k == Known::BarrierArrive && *o == name)
            {
                waits_after = true;
            }
        });
        if !waits_after {
            return None;
        }
        let init = steps
            .iter()
            .find(|s| barrier_calls(s, Known::BarrierInit).contains(&name))?
            .clone();
        Some(ShortBarrier {
            name,
            init,
            passed: leave,
        })
    }

    /// Names the `pthread_barrier_init` of a barrier made for too few threads (see
    /// [`Explainer::short_barrier`]) among `extra`.
    pub(super) fn push_short_barrier(
        &self,
        out: &mut Vec<Candidate>,
        extra: &mut Vec<Candidate>,
        v: &OrderViolation,
    ) {
        let Some(b) = self.short_barrier(v) else {
            return;
        };
        let name = |t: u32| self.thread_name(t);
        let hint = format!(
            "{} makes barrier `{}` here for fewer threads than wait at it: it let {} through its wait at line {} before {} had arrived (its wait follows line {}), so {} used at line {} what {} had still to make; the count must be the number of threads that wait at `{}` (a barrier made for too few threads)",
            name(b.init.thread),
            b.name,
            name(v.early.thread),
            b.passed.line,
            name(v.late_thread),
            v.late_step.line,
            name(v.early.thread),
            v.early.line,
            name(v.late_thread),
            b.name
        );
        if let Some(i) = self.take_or_push(out, extra, &b.init, CandidateKind::Ordering, &hint)
            && let Some(c) = extra.get_mut(i)
        {
            c.role = Role::ShortBarrier;
        }
    }
}
