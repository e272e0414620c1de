//! A deadlock's wait-for picture (`diag::interleaving::DeadlockState`): where each thread
//! blocks, the lock acquisitions that hold the others up, the ways out that leave a lock
//! held or skip a wake-up, a thread that locks what it holds itself. No step of a
//! deadlock computes a wrong value, so the roles the ranking reads (`Role`) are what
//! tells the line that closes the cycle from the lines that only wait in it.

use super::interleaving::JoinWakes;
use super::{Candidate, CandidateKind, Explainer, Role, renumber, same_file};
use crate::ir::*;

impl Explainer<'_> {
    /// Candidates from the wait-for picture of a deadlock: where each thread blocks, which
    /// lock acquisitions hold the others up, and returns that leave a lock held.
    pub fn deadlock_candidates(
        &self,
        st: &crate::diag::interleaving::DeadlockState,
        mut out: Vec<Candidate>,
    ) -> Vec<Candidate> {
        let orig = st;
        let lifted = self.lifted_out_of_helpers(st);
        let st = &lifted;
        let name = |t: u32| self.thread_name(t);
        let mut extra: Vec<Candidate> = Vec::new();
        // The ways out that skipped an unlock, with their words: a value candidate the
        // line already has (the `return`'s value) takes them.
        let mut skipped_unlocks: Vec<(crate::cex::TraceStep, String)> = Vec::new();
        for l in &st.ended_holding {
            let (step, lock) = (&l.step, &l.lock);
            let hint = if l.went_on {
                format!(
                    "{} leaves `{}` here still holding `{lock}` (taken at line {}), skipping the unlock the function makes on its other way out; it, or another thread, then blocks on `{lock}` for ever; release it on this path",
                    name(step.thread),
                    l.function,
                    l.acquired.line
                )
            } else if l.skips_unlock {
                format!(
                    "{} leaves `{}` here still holding `{lock}` (taken at line {}), skipping the unlock the function makes on its other way out, and ends: every thread that locks it later blocks for ever; release it on this path",
                    name(step.thread),
                    l.function,
                    l.acquired.line
                )
            } else if l.exit {
                format!(
                    "{} leaves `{}` here still holding `{lock}` (taken at line {}): every thread that locks it later blocks for ever; release it on this path",
                    name(step.thread),
                    l.function,
                    l.acquired.line
                )
            } else {
                format!(
                    "{} ends here still holding `{lock}`: every thread that locks it later blocks for ever; release it on this path",
                    name(step.thread)
                )
            };
            // A `break` (or another jump) out of the loop past the round's unlock is
            // where the path left the section: it is named, the way out after it only
            // shows where the function ended.
            if let Some(j) = self.loop_left_holding(l) {
                let hint = format!(
                    "{} jumps out of its loop here still holding `{lock}` (taken at line {}), skipping the unlock at line {} that the round makes on its other path, and {}: every thread that locks it later blocks for ever; release it before the jump",
                    name(step.thread),
                    l.acquired.line,
                    j.unlock_line,
                    if l.went_on { "goes on" } else { "ends" },
                );
                skipped_unlocks.push((j.step.clone(), hint.clone()));
                self.push_step_candidate(&mut extra, &out, &j.step, CandidateKind::Locking, &hint);
            } else if l.skips_unlock {
                skipped_unlocks.push((step.clone(), hint.clone()));
            }
            self.push_step_candidate(&mut extra, &out, step, CandidateKind::Locking, &hint);
        }
        for w in &st.skipped_wakes {
            let hint = format!(
                "{} leaves `{}` here without the wake-up of `{}` it makes at line {} on another path: {} waits for it at line {} for ever; make it on this path too",
                name(w.step.thread),
                w.function,
                w.object,
                w.wake_line,
                name(w.waiter.thread),
                w.waiter.line
            );
            self.push_step_candidate(&mut extra, &out, &w.step, CandidateKind::Ordering, &hint);
        }
        // A thread blocked locking a mutex it holds itself: a self-deadlock. The lock
        // call is the fault when it is in the function that took the mutex; when it is
        // in a callee, the call made holding the mutex is (call a variant that expects
        // the lock held, or release it first).
        // Read off the locks where they were made (a lock helper's line), and named
        // where the lifted picture puts the blocked lock (its call).
        let mut relocks: Vec<(crate::cex::TraceStep, String, bool)> = Vec::new();
        for (b, named) in orig.blocked.iter().zip(&st.blocked) {
            let Some(stmt) = self.stmts.get(&b.sid) else {
                continue;
            };
            let locked: Vec<String> = self
                .calls_in(stmt)
                .into_iter()
                .filter(|(k, _)| *k == crate::ir::known::Known::MutexLock)
                .map(|(_, m)| m)
                .collect();
            let Some(h) = orig
                .held
                .iter()
                .find(|h| h.thread == b.thread && locked.contains(&h.lock))
            else {
                continue;
            };
            // Mutexes are told apart by their text: `a->mu` in a helper names another
            // mutex for each `a`. Such a text is the same mutex only when no other
            // thread holds a lock — then the mutex this thread waits for can only be
            // held by itself. A plain global's name is always the one mutex.
            let through_pointer = ["->", "*", "["].iter().any(|p| h.lock.contains(p));
            if through_pointer && orig.held.iter().any(|o| o.thread != b.thread) {
                continue;
            }
            let who = name(b.thread);
            // Went round its loop still holding it: the jump that skipped the round's
            // unlock is the fault, as a `return` that does is.
            let after_lock = self
                .cex
                .steps
                .iter()
                .rposition(|s| s.thread == h.step.thread && s.sid == h.step.sid)
                .unwrap_or(0);
            let ran: Vec<StmtId> = self
                .cex
                .steps
                .iter()
                .skip(after_lock + 1)
                .filter(|s| s.thread == b.thread)
                .map(|s| s.sid)
                .collect();
            if let Some(j) = self.jump_past_unlock(&h.step, &h.lock, Some(b.sid), &ran) {
                let hint = format!(
                    "{who} jumps from here to the rest of its loop still holding `{}` (taken at line {}), skipping the unlock at line {} that the round makes on its other path: its next lock of `{}` at line {} then blocks for ever (a self-deadlock); release it on this path",
                    h.lock, h.step.line, j.unlock_line, h.lock, b.line
                );
                skipped_unlocks.push((j.step.clone(), hint.clone()));
                self.push_step_candidate(&mut extra, &out, &j.step, CandidateKind::Locking, &hint);
            }
            let site = self
                .call_towards(h.step.sid, b.sid)
                .and_then(|call| self.step_at(b.thread, call.id));
            // A callee that only wraps another function of the program in the lock
            // (`lock; work(); unlock`) offers the variant the caller should have
            // called: then the call is the fault. Otherwise the outer lock is as
            // likely, and the call is named after where the lock was taken.
            let wrapper = site.is_some() && self.wraps_a_call(b.sid);
            let hint = match &site {
                Some(_) if wrapper => format!(
                    "{who} makes this call holding `{}` (taken at line {}), and the callee locks `{}` again at line {} around work another function does: a thread that locks a mutex it already holds blocks for ever (a self-deadlock); call that function, which expects the lock held, or release the lock before the call",
                    h.lock, h.step.line, h.lock, b.line
                ),
                Some(_) => format!(
                    "{who} makes this call holding `{}` (taken at line {}), and the callee locks `{}` again at line {}: a thread that locks a mutex it already holds blocks for ever (a self-deadlock); release it before the call, or do not take it at line {}",
                    h.lock, h.step.line, h.lock, b.line, h.step.line
                ),
                None => format!(
                    "{who} locks `{}` here while it already holds it (taken at line {}): a thread that locks a mutex it holds blocks for ever (a self-deadlock); leave out this lock, or release the mutex first",
                    h.lock, h.step.line
                ),
            };
            // A second lock in the same function: which of the two names the wrong
            // mutex is not known, and where the lock was taken keeps its place first.
            // A callee that other functions call too takes the lock for them: the call
            // made holding it is the fault.
            let first = wrapper
                || site
                    .as_ref()
                    .is_some_and(|call| self.called_elsewhere(b.sid, call.sid));
            relocks.push((site.unwrap_or_else(|| named.clone()), hint, first));
        }
        // A read-write lock's upgrade: the write lock asked for while the thread still
        // holds its read lock waits for that reader, itself, for ever. Told apart by
        // text like a mutex, so only within the function that took the read lock.
        for b in &orig.blocked {
            let Some((took, lock)) =
                crate::diag::interleaving::rwlock_self_wait(&self.cex.steps, b)
            else {
                continue;
            };
            if self.function_of(took.sid).is_none()
                || self.function_of(took.sid) != self.function_of(b.sid)
            {
                continue;
            }
            let hint = format!(
                "{} asks for `{lock}` here while it still holds it (taken at line {}): a write lock waits until every holder has released it, this thread too, so it blocks for ever (a self-deadlock); release the lock first, and test again once the write lock is taken",
                name(b.thread),
                took.line
            );
            relocks.push((b.clone(), hint, true));
        }
        for (step, hint, _) in &relocks {
            self.push_step_candidate(&mut extra, &out, step, CandidateKind::Locking, hint);
        }
        let calls = self.calls_while_holding(orig);
        for (step, hint) in &calls {
            self.push_step_candidate(&mut extra, &out, step, CandidateKind::Locking, hint);
        }
        for b in &st.blocked {
            let holding: Vec<String> = st
                .held
                .iter()
                .filter(|h| h.thread == b.thread)
                .map(|h| format!("`{}` (taken at line {})", h.lock, h.step.line))
                .collect();
            let hint = if holding.is_empty() {
                format!("{} blocks here for ever in the deadlock", name(b.thread))
            } else {
                format!(
                    "{} blocks here for ever while holding {}: waiting with a lock held closes the cycle",
                    name(b.thread),
                    holding.join(", ")
                )
            };
            self.push_step_candidate(&mut extra, &out, b, CandidateKind::Blocking, &hint);
        }
        for h in &st.held {
            let hint = format!(
                "{} takes `{}` here and still holds it when every thread is blocked",
                name(h.thread),
                h.lock
            );
            self.push_step_candidate(&mut extra, &out, &h.step, CandidateKind::Locking, &hint);
        }
        out.extend(extra);
        // The roles the ranking reads: the hold-and-wait that closes the cycle, and the
        // joins that only wait for it. A line keeps the candidate it already had (a value
        // change of the lock call), with its role added.
        let at = |c: &Candidate, step: &crate::cex::TraceStep| {
            c.line == step.line && same_file(&c.file, &step.file)
        };
        let holds = |t: u32| st.held.iter().any(|h| h.thread == t);
        // A wait outside any loop loses a signal sent before it. Unless its `if` tested
        // the predicate before the mutex was taken (`if (!stop) { lock; wait; }`): the
        // signal came between the test and the lock, and the test outside the section
        // is the fault (the access analyses name it).
        let bare_wait = |b: &crate::cex::TraceStep| {
            self.stmts.get(&b.sid).is_some_and(|s| {
                self.calls_in(s)
                    .iter()
                    .any(|(k, _)| *k == crate::ir::known::Known::CondWait)
            }) && crate::analysis::waits::outside_any_loop(self.normalized, b.sid)
                && !crate::analysis::waits::guarding_if(self.normalized, b.sid)
                    .is_some_and(|g| self.locks_inside(g))
        };
        let wakes = |b: &crate::cex::TraceStep| {
            let others: Vec<&crate::cex::TraceStep> =
                st.blocked.iter().filter(|o| o.thread != b.thread).collect();
            self.join_wakes(b, &others)
        };
        for c in out.iter_mut() {
            if st.skipped_wakes.iter().any(|w| at(c, &w.step)) {
                c.role = Role::SkippedWake;
            } else if let Some((_, hint)) = skipped_unlocks.iter().find(|(s, _)| at(c, s)) {
                c.role = Role::SkippedUnlock;
                if c.kind == CandidateKind::Value && !c.specification && c.set.is_none() {
                    c.kind = CandidateKind::Locking;
                    c.hint = hint.clone();
                }
            } else if let Some((_, hint)) = calls.iter().find(|(s, _)| at(c, s)) {
                c.role = Role::CallWhileHolding;
                // Where the thread stopped (a boundary) or a value there says less than
                // the lock order across the call.
                if matches!(
                    c.kind,
                    CandidateKind::Value | CandidateKind::Blocking | CandidateKind::Atomicity
                ) {
                    c.kind = CandidateKind::Locking;
                    c.hint = hint.clone();
                }
            } else if let Some((_, hint, first)) = relocks.iter().find(|(s, _, _)| at(c, s)) {
                if *first {
                    c.role = Role::Relock;
                }
                if matches!(c.kind, CandidateKind::Value | CandidateKind::Blocking) {
                    c.kind = CandidateKind::Locking;
                    c.hint = hint.clone();
                }
            } else if c.kind == CandidateKind::Blocking
                && st.blocked.iter().any(|b| at(c, b) && bare_wait(b))
            {
                c.role = Role::BareWait;
            } else if st
                .blocked
                .iter()
                .any(|b| at(c, b) && wakes(b) == Some(JoinWakes::Surely))
            {
                // Whatever the line's candidate is (a value change of the joined handle,
                // say), the join is where the cycle closes.
                c.role = Role::JoinBeforeWake;
            } else if st.blocked.iter().any(|b| holds(b.thread) && at(c, b)) {
                c.role = Role::HoldsWhileBlocked;
            } else if st
                .held
                .iter()
                .any(|h| at(c, &h.step) && st.blocked.iter().any(|b| b.thread == h.thread))
            {
                c.role = Role::TookHeldLock;
            } else if c.kind == CandidateKind::Blocking
                && st
                    .blocked
                    .iter()
                    .any(|b| at(c, b) && !holds(b.thread) && wakes(b) == Some(JoinWakes::Nothing))
            {
                c.role = Role::Bystander;
            }
        }
        // Of several calls made holding a lock (a cycle of three helpers), the thread that
        // took its lock last closed the cycle: its call first (`calls` is in that order).
        let slots: Vec<usize> = (0..out.len())
            .filter(|i| {
                out.get(*i)
                    .is_some_and(|c| c.role == Role::CallWhileHolding)
            })
            .collect();
        let mut moved: Vec<Candidate> = slots.iter().filter_map(|i| out.get(*i).cloned()).collect();
        moved.sort_by_key(|c| {
            calls
                .iter()
                .position(|(s, _)| at(c, s))
                .unwrap_or(usize::MAX)
        });
        for (i, c) in slots.into_iter().zip(moved) {
            if let Some(slot) = out.get_mut(i) {
                *slot = c;
            }
        }
        renumber(&mut out);
        out
    }

    /// Whether the function holding `sid` calls another function of the program that
    /// has a body: a wrapper (`lock; work(); unlock`) whose work can be called alone.
    fn wraps_a_call(&self, sid: StmtId) -> bool {
        let Some(f) = self.function_of(sid) else {
            return false;
        };
        let Some(body) = self.normalized.funcs.get(f).and_then(|x| x.body.as_ref()) else {
            return false;
        };
        let mut found = false;
        crate::ir::visit::each_stmt(body, &mut |s| {
            crate::ir::visit::each_expr(s, &mut |e| {
                if let ExprKind::Call(callee, _) = &e.kind {
                    if let ExprKind::Func(g) = callee.peel().kind {
                        found |= g.0 as usize != f && self.normalized.func(g).body.is_some();
                    }
                }
            });
        });
        found
    }
}

impl Explainer<'_> {
    /// The calls a deadlocked thread made holding a lock, inside which it blocks on
    /// another mutex (not in a helper that only locks, which `lifted_out_of_helpers`
    /// lifts to its call already): the call, as a step of the thread, with its words.
    fn calls_while_holding(
        &self,
        st: &crate::diag::interleaving::DeadlockState,
    ) -> Vec<(crate::cex::TraceStep, String)> {
        let mut out: Vec<(crate::cex::TraceStep, String, usize)> = Vec::new();
        for b in &st.blocked {
            if self.in_lock_helper(b.sid) {
                continue;
            }
            let Some(stmt) = self.stmts.get(&b.sid) else {
                continue;
            };
            let Some(wanted) = self
                .calls_in(stmt)
                .into_iter()
                .find(|(k, _)| *k == crate::ir::known::Known::MutexLock)
                .map(|(_, m)| m)
            else {
                continue;
            };
            for h in st.held.iter().filter(|h| h.thread == b.thread) {
                // The same mutex again is a relock, which `deadlock_candidates` names.
                if h.lock == wanted || self.function_of(h.step.sid) == self.function_of(b.sid) {
                    continue;
                }
                let Some(call) = self
                    .call_towards(h.step.sid, b.sid)
                    .and_then(|call| self.step_at(b.thread, call.id))
                else {
                    continue;
                };
                if out
                    .iter()
                    .any(|(s, _, _)| s.sid == call.sid && s.thread == call.thread)
                {
                    continue;
                }
                let holders: Vec<String> = st
                    .held
                    .iter()
                    .filter(|o| o.thread != b.thread && o.lock == wanted)
                    .map(|o| self.thread_name(o.thread))
                    .collect();
                let other = match holders.first() {
                    Some(t) => {
                        format!(", which {t} holds while it waits for a lock of this thread's")
                    }
                    None => String::new(),
                };
                let hint = format!(
                    "{} makes this call holding `{}` (taken at line {}), and the callee locks `{wanted}` at line {}{other}: the two locks are taken in opposite orders across the call (a deadlock); make the call after releasing `{}`, or take the locks in one order",
                    self.thread_name(b.thread),
                    h.lock,
                    h.step.line,
                    b.line,
                    h.lock
                );
                let took = self
                    .cex
                    .steps
                    .iter()
                    .rposition(|s| s.thread == h.thread && s.sid == h.step.sid)
                    .unwrap_or(0);
                out.push((call, hint, took));
            }
        }
        // The latest holder first.
        out.sort_by_key(|(_, _, took)| std::cmp::Reverse(*took));
        out.into_iter().map(|(s, h, _)| (s, h)).collect()
    }

    /// Statement `g` (an `if`) takes a mutex inside its branches: its test ran before
    /// the lock.
    fn locks_inside(&self, g: &crate::ir::Stmt) -> bool {
        let mut found = false;
        crate::ir::visit::each_stmt(g, &mut |s| {
            found |= s.id != g.id
                && matches!(s.kind, crate::ir::StmtKind::Expr(_))
                && self
                    .calls_in(s)
                    .iter()
                    .any(|(k, _)| *k == crate::ir::known::Known::MutexLock);
        });
        found
    }

    /// The jump by which a thread that ended (or left its function) holding a lock left
    /// the loop whose round takes and releases it (see `jump_past_unlock`).
    fn loop_left_holding(
        &self,
        l: &crate::diag::interleaving::LeftHolding,
    ) -> Option<super::jumps::SkippingJump> {
        // The lock still held at the end is the thread's last acquisition there.
        let after_lock = self
            .cex
            .steps
            .iter()
            .rposition(|s| s.thread == l.acquired.thread && s.sid == l.acquired.sid)?;
        let ran: Vec<StmtId> = self
            .cex
            .steps
            .iter()
            .skip(after_lock + 1)
            .filter(|s| s.thread == l.step.thread)
            .map(|s| s.sid)
            .collect();
        self.jump_past_unlock(&l.acquired, &l.lock, None, &ran)
    }
}
