//! An unlock of a mutex another thread holds (`diag::interleaving::ForeignUnlock`): the
//! unlocking thread never took the mutex, most often because its `trylock` failed and it
//! went on as if it had. That attempt is the fault; the unlock is where it shows.

use super::{Candidate, CandidateKind, Explainer, Role, before_specification};
use crate::cex::TraceStep;
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

    /// Names `step` with `hint`: a new locking candidate, or the one already on its line
    /// (see `replaceable`).
    fn name_foreign(
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
        let func = self.function_of(f.step.sid)?;
        let mut best: Option<(u32, StmtId)> = None;
        for (id, st) in &self.stmts {
            if self.function_of(*id) != Some(func) {
                continue;
            }
            let Some((name, obj)) = self.lock_call(st) else {
                continue;
            };
            if !name.ends_with("_trylock") || obj != f.lock {
                continue;
            }
            let Some(p) = self.normalized.sources.position(st.loc) else {
                continue;
            };
            if !super::same_file(p.file, &f.step.file) || p.line >= f.step.line {
                continue;
            }
            if best.is_none_or(|(l, _)| p.line > l) {
                best = Some((p.line, *id));
            }
        }
        let (_, sid) = best?;
        self.step_at(f.thread, sid)
    }
}
