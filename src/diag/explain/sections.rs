//! A critical section split in two: a thread reads shared data under a mutex, lets
//! the mutex go (to log, to call out), takes it back in the same function and writes
//! the data from what it read before (`ok = balance >= amount; unlock; audit(); lock;
//! if (ok) balance -= amount;`). Another thread's write in the gap is lost or
//! overdrawn. The unlock and the lock are the fault: kept as one section, no write can
//! come between the check and the act.
//!
//! Read off the failing run alone, so it needs no closest passing run (the projection's
//! `rootcause::patterns::split_sections` names the same shape from the writer's side
//! when there is one).
//!
//! And a value read again after the section that copied it: `int pos = l->len;` under
//! the lock, then `l->entries[l->len - 1] = ev;` after the unlock. Another thread's
//! write in between makes the second read see another value than the copy; the read
//! again is the fault (use the copy), named before the unlock that ended the section.

use super::{Candidate, CandidateKind, Explainer, Role};
use crate::cex::TraceStep;
use crate::ir::{ExprKind, Init, StmtKind};

impl Explainer<'_> {
    /// Candidates for the split sections of the failing run (see the module comment):
    /// a thread's read of a shared variable and its later write of it in the same
    /// function, with an unlock and a lock of one mutex between them in the code and
    /// in the run, and another thread's write of the variable between the unlock and
    /// the lock in the run.
    pub fn split_section_candidates(&self, mut out: Vec<Candidate>) -> Vec<Candidate> {
        let steps = &self.cex.steps;
        let outcome = self.outcome();
        let mut named: Vec<crate::ir::StmtId> = Vec::new();
        for (i, r) in steps.iter().enumerate() {
            let Some((reads, _)) = self.stmt_access(r.sid) else {
                continue;
            };
            for v in &reads {
                // The thread's next write of `v`: the act on what it read.
                let Some((w, act)) = steps
                    .iter()
                    .enumerate()
                    .skip(i + 1)
                    .filter(|(_, s)| s.thread == r.thread)
                    .find(|(_, s)| {
                        self.stmt_access(s.sid)
                            .is_some_and(|(_, ws)| ws.contains(v))
                    })
                else {
                    continue;
                };
                let Some((unlock, lock)) = self.split_section(r.sid, act.sid) else {
                    if let Some(step) = self.recheck_missing(i, w, v, &outcome) {
                        self.name_as(
                            &mut out,
                            &step.0,
                            &step.1,
                            (CandidateKind::Atomicity, Role::SplitSection),
                        );
                    }
                    continue;
                };
                if named.contains(&unlock) {
                    continue;
                }
                let at = |sid| {
                    steps
                        .iter()
                        .enumerate()
                        .take(w)
                        .skip(i + 1)
                        .find(|(_, s)| s.thread == r.thread && s.sid == sid)
                        .map(|(k, _)| k)
                };
                let (Some(u), Some(l)) = (at(unlock), at(lock)) else {
                    continue;
                };
                if u >= l {
                    continue;
                }
                let Some(gap) = self
                    .other_writes(steps, (u + 1, l), r.thread, v)
                    .find(|g| same_location(g, act))
                else {
                    continue;
                };
                named.push(unlock);
                let t = self.thread_name(r.thread);
                let other = self.thread_name(gap.thread);
                for (sid, what) in [(unlock, "releases"), (lock, "takes back")] {
                    let Some(step) = self.step_at(r.thread, sid) else {
                        continue;
                    };
                    let hint = format!(
                        "{t} {what} the mutex here, between its read of `{v}` at line {} and its write of it at line {}: {other}'s write at line {} came in between, and {t} went on from what it had read before; kept as one critical section, {outcome} (an atomicity violation: the section was split)",
                        r.line, act.line, gap.line
                    );
                    self.name_as(
                        &mut out,
                        &step,
                        &hint,
                        (CandidateKind::Atomicity, Role::SplitSection),
                    );
                }
            }
        }
        out
    }

    /// A check made in a helper's own critical section and acted on in the caller's
    /// next one (`idx = lookup(r, id); if (idx >= 0) return idx; lock(&r->lock);
    /// idx = append_locked(r, id);`): the read at `steps[i]` is in a section of a mutex
    /// the helper lets go of, the caller takes the same mutex again and writes the
    /// location (`steps[w]`), another thread's write of it came in between, and the
    /// caller tested what the helper's call gave back before acting. The helper's
    /// section cannot simply be kept open (another caller wants the check alone), so
    /// the act is the line to change: check again under the lock before acting. The
    /// caller's statement that acts, with the words for it.
    fn recheck_missing(
        &self,
        i: usize,
        w: usize,
        v: &str,
        outcome: &str,
    ) -> Option<(TraceStep, String)> {
        let steps = &self.cex.steps;
        let (r, act) = (steps.get(i)?, steps.get(w)?);
        let t = r.thread;
        let lock_of = |k: usize| -> Option<(String, String)> {
            let s = steps.get(k).filter(|s| s.thread == t)?;
            self.lock_call(self.stmts.get(&s.sid)?)
                .filter(|(name, _)| name.starts_with("pthread_mutex_"))
        };
        // The section the read is in ends at the thread's first unlock after it, of a
        // mutex whose last call before the read locked it.
        let (u, (_, m)) = (i + 1..w)
            .filter_map(|k| lock_of(k).map(|c| (k, c)))
            .find(|(_, (name, _))| name.ends_with("_unlock"))?;
        let held = (0..i)
            .rev()
            .filter_map(lock_of)
            .find(|(_, obj)| *obj == m)
            .is_some_and(|(name, _)| name.ends_with("_lock"));
        if !held {
            return None;
        }
        // The act is in a section of the same mutex taken again after it.
        let l = (u + 1..w)
            .find(|&k| lock_of(k).is_some_and(|(name, obj)| name.ends_with("_lock") && obj == m))?;
        if (l + 1..w).any(|k| lock_of(k).is_some_and(|(_, obj)| obj == m)) {
            return None;
        }
        let (unlock, lock) = (steps.get(u)?, steps.get(l)?);
        let h = self.function_of(lock.sid)?;
        let helper = self.function_of(unlock.sid)?;
        if helper == h {
            return None;
        }
        // The thread's latest step in function `f` at or before step `k`.
        let in_fn = |f: usize, k: usize| {
            (0..=k)
                .rev()
                .filter_map(|j| steps.get(j).map(|s| (j, s)))
                .find(|(_, s)| s.thread == t && self.function_of(s.sid) == Some(f))
        };
        // The act in the section's own function: the act itself, or the call it is
        // made in. That is the line to change.
        let (a, act_h) = in_fn(h, w)?;
        if a <= l || (act_h.sid != act.sid && !self.calls_toward(act_h.sid, act.sid)) {
            return None;
        }
        // Where the check belongs: the section's first statement after the lock.
        let first = steps
            .iter()
            .take(a + 1)
            .skip(l + 1)
            .find(|s| s.thread == t && self.function_of(s.sid) == Some(h))?;
        // The section's own function called the check too (`idx = lookup(..); if (idx
        // >= 0) return idx; lock; append_locked(..)`). When the act is in another helper
        // the caller calls (`if (find(..) < 0) insert(..);`), the caller's two calls are
        // the region to make one, which the boundary at the check's call names (blind
        // probes: three such programs' truth was the caller's lines, one the section's).
        let (_, check) = in_fn(h, u)?;
        if !self.calls_toward(check.sid, unlock.sid) {
            return None;
        }
        let gap = self
            .other_writes(steps, (u + 1, l), t, v)
            .find(|g| same_location(g, act))?;
        // The caller went on from what the helper gave back: a test of it, kept in a
        // variable, before the act. A test on the call's own line (`if (in_stock() > 0)
        // { lock; ...`) moves into the section whole: the boundary at the call names that.
        let (_, copy) = self.stale_test(check.sid, check.sid, act_h.sid)?;
        let callee = self.normalized.funcs.get(helper)?.name.clone();
        let found = if crate::ir::internal::is_internal_name(&copy) {
            format!("line {}", check.line)
        } else {
            format!("`{copy}`, line {}", check.line)
        };
        let hint = format!(
            "{tn} goes on here, in its section of `{m}` taken again at line {}, to write `{v}` (line {}) on what `{callee}` found under the same mutex ({found}) before letting it go at line {}: {other}'s write at line {} came in between; checked again under the lock before acting, {outcome} (an atomicity violation: the check and the act are separate critical sections)",
            lock.line,
            act.line,
            unlock.line,
            gap.line,
            tn = self.thread_name(t),
            other = self.thread_name(gap.thread),
        );
        Some((first.clone(), hint))
    }

    /// The steps of `steps[from..to]` made by other threads than `thread` that write
    /// `v` (by the analyses' text of it).
    fn other_writes<'s>(
        &'s self,
        steps: &'s [TraceStep],
        (from, to): (usize, usize),
        thread: u32,
        v: &'s str,
    ) -> impl Iterator<Item = &'s TraceStep> + 's {
        steps.iter().take(to).skip(from).filter(move |g| {
            g.thread != thread
                && self
                    .stmt_access(g.sid)
                    .is_some_and(|(_, ws)| ws.iter().any(|w| w == v))
        })
    }

    /// Candidates for the reads, outside any lock, of a shared variable the thread
    /// copied into a local in the section it just ended (see the module comment), when
    /// another thread wrote the variable between the copy and the read.
    pub fn reread_candidates(&self, mut out: Vec<Candidate>) -> Vec<Candidate> {
        let steps = &self.cex.steps;
        let mut named: Vec<crate::ir::StmtId> = Vec::new();
        for (i, x) in steps.iter().enumerate() {
            let Some((reads, _)) = self.stmt_access(x.sid) else {
                continue;
            };
            if reads.is_empty() || named.contains(&x.sid) {
                continue;
            }
            let Some(unlock) = self.unlock_before(i).and_then(|u| steps.get(u)) else {
                continue;
            };
            for v in &reads {
                // A copy made in the section, or the thread's own write there (`refs--`
                // under the lock, `if (refs == 0)` after it).
                let copied = self.copied_in_section(x.thread, unlock, std::slice::from_ref(v));
                let own = copied.is_none();
                let Some(copy) = copied.or_else(|| self.written_in_section(x.thread, unlock, v))
                else {
                    continue;
                };
                let Some(from) = steps.iter().position(|s| {
                    s.thread == copy.thread && s.sid == copy.sid && s.line == copy.line
                }) else {
                    continue;
                };
                let Some(w) = self.other_writes(steps, (from + 1, i), x.thread, v).next() else {
                    continue;
                };
                named.push(x.sid);
                let (made, differs, repair) = if own {
                    ("wrote", "its own write", "read it inside the section")
                } else {
                    ("copied", "the copy", "use the copy here")
                };
                let hint = format!(
                    "{} reads `{v}` here again after releasing the mutex at line {}, though it {made} `{v}` at line {} under the lock; {}'s write at line {} came in between, so this read sees another value than {differs}: {repair} (an atomicity violation: a value read again outside its section)",
                    self.thread_name(x.thread),
                    unlock.line,
                    copy.line,
                    self.thread_name(w.thread),
                    w.line
                );
                self.name_as(
                    &mut out,
                    x,
                    &hint,
                    (CandidateKind::Atomicity, Role::StaleTest),
                );
                break;
            }
        }
        out
    }

    /// The index of the step before step `i` where its thread last called a lock function
    /// in `i`'s function, when that call was an unlock: the section that ended before `i`.
    pub(super) fn unlock_before(&self, i: usize) -> Option<usize> {
        let steps = &self.cex.steps;
        let x = steps.get(i)?;
        let f = self.function_of(x.sid)?;
        let (k, call) = (0..i).rev().find_map(|k| {
            let s = steps.get(k)?;
            if s.thread != x.thread || self.function_of(s.sid) != Some(f) {
                return None;
            }
            let st = self.stmts.get(&s.sid)?;
            self.lock_call(st).map(|(call, _)| (k, call))
        })?;
        call.ends_with("_unlock").then_some(k)
    }

    /// The steps of `thread`'s critical section that `unlock` ends, in order: since its
    /// last lock call before the unlock, in the unlock's function.
    pub(super) fn section_before(
        &self,
        thread: u32,
        unlock: &crate::cex::TraceStep,
    ) -> Option<Vec<&crate::cex::TraceStep>> {
        let steps = &self.cex.steps;
        let f = self.function_of(unlock.sid)?;
        let end = steps
            .iter()
            .rposition(|s| s.thread == thread && s.sid == unlock.sid && s.line == unlock.line)?;
        let mut section: Vec<&crate::cex::TraceStep> = steps
            .iter()
            .take(end)
            .filter(|s| s.thread == thread && self.function_of(s.sid) == Some(f))
            .collect::<Vec<_>>()
            .into_iter()
            .rev()
            .take_while(|s| {
                self.stmts
                    .get(&s.sid)
                    .is_none_or(|st| self.lock_call(st).is_none())
            })
            .collect();
        section.reverse();
        Some(section)
    }

    /// The last step of `thread`, in the critical section that `unlock` ends, that writes
    /// `v` (by the analyses' text of it).
    fn written_in_section(
        &self,
        thread: u32,
        unlock: &crate::cex::TraceStep,
        v: &str,
    ) -> Option<crate::cex::TraceStep> {
        self.section_before(thread, unlock)?
            .into_iter()
            .rev()
            .find(|s| {
                self.stmt_access(s.sid)
                    .is_some_and(|(_, ws)| ws.iter().any(|w| w == v))
            })
            .cloned()
    }

    /// The step of `thread`, in the critical section that `unlock` ends (since its last
    /// lock of the same mutex, in the same function), that copies exactly `vars` into a
    /// local: `int pos = l->len;`.
    fn copied_in_section(
        &self,
        thread: u32,
        unlock: &crate::cex::TraceStep,
        vars: &[String],
    ) -> Option<crate::cex::TraceStep> {
        self.section_before(thread, unlock)?
            .into_iter()
            .find_map(|s| {
                let st = self.stmts.get(&s.sid)?;
                // A local of the user's own: a temporary the normalization made for a
                // read-modify-write (`b->refs = b->refs - 1`) is no copy the code keeps.
                let users = |v: crate::ir::VarId| {
                    !crate::ir::internal::is_internal_name(&self.normalized.var(v).name)
                };
                let local_copy = match &st.kind {
                    StmtKind::Decl {
                        var,
                        init: Some(Init::Expr(_)),
                    } => users(*var),
                    StmtKind::Expr(e) => match &e.kind {
                        ExprKind::Assign(l, _) => {
                            matches!(l.kind, ExprKind::Var(v) if users(v))
                                && !self.shared.is_shared_lvalue(l)
                        }
                        _ => false,
                    },
                    _ => false,
                };
                let (reads, writes) = self.stmt_access(s.sid)?;
                (local_copy && writes.is_empty() && !vars.is_empty() && reads == vars)
                    .then(|| s.clone())
            })
    }
}

/// Two writes of one location, as far as the trace tells: the source's names of what
/// each wrote (a thread's copy of a pointer is its own in the checked program's names,
/// `a_1->balance`, so the source's `a->balance` is compared: text, as the analyses tell
/// mutexes apart), when both steps show a write the source names; the statement's
/// text alone otherwise.
fn same_location(a: &TraceStep, b: &TraceStep) -> bool {
    let named = |s: &TraceStep| -> Vec<String> {
        s.writes.iter().filter_map(|w| w.shown.clone()).collect()
    };
    let (x, y) = (named(a), named(b));
    x.is_empty() || y.is_empty() || x.iter().any(|n| y.contains(n))
}
