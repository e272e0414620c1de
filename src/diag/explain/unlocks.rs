//! An unlock of a mutex another thread holds (`diag::interleaving::ForeignUnlock`): the
//! unlocking thread never took the mutex, most often because its `trylock` failed and it
//! went on as if it had. That attempt is the fault; the unlock is where it shows.
//!
//! An unlock of a mutex no thread holds (the unlock property, `ViolationKind::Unlock`):
//! the unlock that failed is named, after such an attempt when there is one.

use super::{Candidate, CandidateKind, Explainer, Role, before_specification, same_file};
use crate::cex::{TraceStep, ViolationKind};
use crate::diag::interleaving::ForeignUnlock;
use crate::ir::StmtId;

impl Explainer<'_> {
    /// Candidates from the unlocks of the failing run that freed another thread's mutex:
    /// the unlocking thread's `trylock` of that mutex whose result it did not test (when
    /// its function has one before the unlock), then the unlock itself.
    pub fn foreign_unlock_candidates(
        &self,
        unlocks: &[ForeignUnlock],
        mut out: Vec<Candidate>,
    ) -> Vec<Candidate> {
        let mut extra: Vec<Candidate> = Vec::new();
        for f in unlocks {
            let who = self.thread_name(f.thread);
            let holder = self.thread_name(f.holder);
            let attempt = match &f.released_before {
                Some(_) => None,
                None => self.untested_trylock(f),
            };
            let freed = format!(
                "{holder}, which took `{lock}` at line {taken}, was still inside its section: the unlock freed {holder}'s lock, and what the lock kept apart ran together",
                lock = f.lock,
                taken = f.taken.line,
            );
            if let Some(try_step) = &attempt {
                let hint = format!(
                    "{who}'s `trylock` of `{lock}` here did not take it ({holder} held it), and {who} went on as if it had: it unlocked `{lock}` at line {unlock}. {freed}; {who} must take `{lock}` before going on (a blocking lock, or the trylock's result tested)",
                    lock = f.lock,
                    unlock = f.step.line,
                );
                self.name_foreign(&mut out, &mut extra, try_step, &hint, Role::ForeignUnlock);
            }
            let hint = match &attempt {
                Some(t) => format!(
                    "{who} unlocks `{lock}` here without holding it (its trylock at line {at} failed). {freed}",
                    lock = f.lock,
                    at = t.line,
                ),
                None => match &f.released_before {
                    Some(r) => format!(
                        "{who} unlocks `{lock}` here without holding it: it let go of it already at line {at}. {freed}; this unlock is one too many, or a lock is missing between the two",
                        lock = f.lock,
                        at = r.line,
                    ),
                    None => format!(
                        "{who} unlocks `{lock}` here without holding it (the run shows no lock of it by {who}). {freed}; a lock is missing before {who}'s accesses, or this unlock is one too many",
                        lock = f.lock,
                    ),
                },
            };
            self.name_foreign(&mut out, &mut extra, &f.step, &hint, Role::Plain);
        }
        before_specification(out, extra)
    }

    /// Candidates for a failure of the unlock property: the failing thread's untested
    /// `trylock` of the mutex before the unlock (when its function has one), then the
    /// unlock, with what the run shows of the thread's own hold of the mutex.
    pub fn free_unlock_candidates(&self, mut out: Vec<Candidate>) -> Vec<Candidate> {
        let v = &self.cex.violation;
        if v.kind != ViolationKind::Unlock {
            return out;
        }
        let Some(thread) = v.thread else {
            return out;
        };
        let shown =
            self.cex.steps.iter().rposition(|s| {
                s.thread == thread && s.line == v.line && same_file(&s.file, &v.file)
            });
        // ESBMC's trace shows no step for the unlock whose check failed inside its
        // pthread model: the step is the unlock call at the violation's location.
        let (at, step) = match shown.and_then(|i| Some((i, self.cex.steps.get(i)?.clone()))) {
            Some(x) => x,
            None => {
                let Some((sid, st)) = self
                    .stmts
                    .iter()
                    .filter(|(_, st)| st.loc == v.loc && self.lock_call(st).is_some())
                    .min_by_key(|(id, _)| **id)
                else {
                    return out;
                };
                let step = TraceStep {
                    thread,
                    loc: st.loc,
                    sid: *sid,
                    file: v.file.clone(),
                    line: v.line,
                    statement: v.message.clone(),
                    writes: vec![],
                };
                (self.cex.steps.len(), step)
            }
        };
        let step = &step;
        let Some((_, lock)) = self.stmts.get(&step.sid).and_then(|s| self.lock_call(s)) else {
            return out;
        };
        let who = self.thread_name(step.thread);
        // The thread's own last lock or unlock of the mutex before this one.
        let earlier = self
            .cex
            .steps
            .get(..at)
            .unwrap_or_default()
            .iter()
            .rev()
            .find_map(|s| {
                if s.thread != step.thread {
                    return None;
                }
                let (name, obj) = self.stmts.get(&s.sid).and_then(|st| self.lock_call(st))?;
                (obj == lock && !name.starts_with("pthread_cond_")).then_some((s, name))
            });
        let attempt = match &earlier {
            Some((_, name)) if name.ends_with("_unlock") => None,
            _ => self.untested_trylock_before(step, &lock),
        };
        let mut extra: Vec<Candidate> = Vec::new();
        if let Some(try_step) = &attempt {
            let hint = format!(
                "{who}'s `trylock` of `{lock}` here did not take it, and {who} went on as if it had: its unlock at line {unlock} gave back `{lock}` while no thread held it; {who} must take `{lock}` before going on (a blocking lock, or the trylock's result tested)",
                unlock = step.line,
            );
            self.name_foreign(&mut out, &mut extra, try_step, &hint, Role::ForeignUnlock);
        }
        let hint = match (&attempt, &earlier) {
            (Some(t), _) => format!(
                "{who} unlocks `{lock}` here while no thread holds it: its trylock at line {at} failed",
                at = t.line,
            ),
            (None, Some((r, name))) if name.ends_with("_unlock") => format!(
                "{who} unlocks `{lock}` here while no thread holds it: it gave it back already at line {at}, so this unlock is one too many, or a lock is missing between the two",
                at = r.line,
            ),
            _ => format!(
                "{who} unlocks `{lock}` here while no thread holds it: it did not take `{lock}` on the way here, so this unlock is one too many on this path, or the lock is missing before it"
            ),
        };
        self.name_foreign(&mut out, &mut extra, step, &hint, Role::FreeUnlock);
        before_specification(out, extra)
    }

    /// Names `step` with `hint`: a new locking candidate, or the one already on its line
    /// (see `replaceable`).
    pub(super) fn name_foreign(
        &self,
        out: &mut [Candidate],
        extra: &mut Vec<Candidate>,
        step: &TraceStep,
        hint: &str,
        role: Role,
    ) {
        let on = |c: &Candidate| c.line == step.line && super::same_file(&c.file, &step.file);
        let at = extra.len();
        self.push_step_candidate(extra, out, step, CandidateKind::Locking, hint);
        if let Some(c) = extra.get_mut(at) {
            c.role = role;
            return;
        }
        for c in out.iter_mut().chain(extra.iter_mut()).filter(|c| on(c)) {
            // The attempt takes over a boundary or a locking claim on its line too: it
            // says why the region was not one section. The unlock only takes a value's.
            let replaceable = c.role == Role::Plain
                && match role {
                    Role::ForeignUnlock => c.kind != CandidateKind::Ordering,
                    _ => c.kind == CandidateKind::Value,
                };
            if !c.specification && c.set.is_none() && replaceable {
                c.kind = CandidateKind::Locking;
                c.role = role;
                c.hint = hint.to_string();
                if !c.threads.iter().any(|t| t.id == step.thread) {
                    c.threads.push(self.thread_ref(step.thread));
                }
            }
        }
    }

    /// The unlocking thread's `trylock` of the same mutex in the function of the unlock,
    /// before it, whose result is dropped or only stored (a `trylock` tested by an `if`
    /// or a loop is the program's own handling of the failure): the nearest one, as a
    /// step of that thread. A failed attempt writes nothing, so the trace may not show it.
    fn untested_trylock(&self, f: &ForeignUnlock) -> Option<TraceStep> {
        self.untested_trylock_before(&f.step, &f.lock)
    }

    /// The same for the unlock `unlock` of `lock`, by the thread of that step.
    fn untested_trylock_before(&self, unlock: &TraceStep, lock: &str) -> Option<TraceStep> {
        let func = self.function_of(unlock.sid)?;
        let mut best: Option<(u32, StmtId)> = None;
        for (id, st) in &self.stmts {
            if self.function_of(*id) != Some(func) {
                continue;
            }
            let Some((name, obj)) = self.lock_call(st) else {
                continue;
            };
            if !name.ends_with("_trylock") || obj != lock {
                continue;
            }
            let Some(p) = self.normalized.sources.position(st.loc) else {
                continue;
            };
            if !same_file(p.file, &unlock.file) || p.line >= unlock.line {
                continue;
            }
            if best.is_none_or(|(l, _)| p.line > l) {
                best = Some((p.line, *id));
            }
        }
        let (_, sid) = best?;
        self.step_at(unlock.thread, sid)
    }
}
