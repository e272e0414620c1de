//! A wake-up sent to the wrong condition variable: a deadlocked thread waits on a
//! condition variable that nothing in the program ever signals or broadcasts, while
//! another thread changed what its wait loop tests and then signalled another one
//! (`not_empty` where `not_full` was meant). The signal is the fault. And a wait loop
//! that tests a local copy of shared data, taken once before the wait: woken, it tests
//! the stale copy and waits again.

use super::{Candidate, CandidateKind, Explainer, Role};
use crate::cex::TraceStep;
use crate::diag::interleaving::DeadlockState;
use crate::ir::known::Known;
use crate::ir::{Stmt, StmtKind};

impl Explainer<'_> {
    /// Candidates for the signals of the failing run that went to another condition
    /// variable than the one a deadlocked thread waits on (see the module comment).
    pub fn wrong_wake_candidates(
        &self,
        st: &DeadlockState,
        mut out: Vec<Candidate>,
    ) -> Vec<Candidate> {
        let steps = &self.cex.steps;
        for b in &st.blocked {
            let Some(cv) = self.waited_condition(b) else {
                continue;
            };
            if self.anything_wakes(&cv) {
                // Signalled somewhere: a lost or missing signal is another fault.
                continue;
            }
            // What the wait loop tests: the reads of the waiter's last step before it
            // blocked on another line (the loop's test).
            let Some(tested) = self
                .wait_test(b)
                .and_then(|i| steps.get(i))
                .and_then(|test| self.stmt_access(test.sid))
                .map(|(reads, _)| reads)
            else {
                continue;
            };
            let since = steps
                .iter()
                .rposition(|s| s.thread == b.thread)
                .unwrap_or(0);
            let mut named: Vec<(u32, crate::ir::StmtId)> = Vec::new();
            for w in steps
                .iter()
                .skip(since + 1)
                .filter(|s| s.thread != b.thread)
            {
                let Some((_, wr)) = self.stmt_access(w.sid) else {
                    continue;
                };
                if !wr.iter().any(|v| tested.contains(v)) {
                    continue;
                }
                let Some((signal, other)) = self.next_signal(w) else {
                    continue;
                };
                if same_condition(&other, &cv) || named.contains(&(w.thread, signal.id)) {
                    continue;
                }
                named.push((w.thread, signal.id));
                let Some(step) = self.step_at(w.thread, signal.id) else {
                    continue;
                };
                let hint = format!(
                    "{} changes what {} waits for (line {}) and then signals `{other}` here, but {} waits on `{cv}` at line {}, which nothing in the program signals or broadcasts: the wake-up goes to the wrong condition variable; signal `{cv}` here",
                    self.thread_name(w.thread),
                    self.thread_name(b.thread),
                    w.line,
                    self.thread_name(b.thread),
                    b.line,
                );
                self.name_as(
                    &mut out,
                    &step,
                    &hint,
                    (CandidateKind::Ordering, Role::WrongWake),
                );
            }
        }
        super::renumber(&mut out);
        out
    }

    /// Candidates for the wait loops of a deadlock that test a local copy of shared data
    /// (`int stopping = p->stop; ... while (p->pending == 0 && !stopping) wait`): another
    /// thread changed the data since the copy, and the waiter, woken, tests the copy,
    /// which cannot change, and waits again for ever. The copy and the test are named.
    pub fn stale_wait_candidates(
        &self,
        st: &DeadlockState,
        mut out: Vec<Candidate>,
    ) -> Vec<Candidate> {
        let steps = &self.cex.steps;
        let prog = self.normalized;
        for b in &st.blocked {
            let waits = self.waited_condition(b).is_some();
            let Some(f) = self.function_of(b.sid) else {
                continue;
            };
            let Some(test_at) = self.wait_test(b) else {
                continue;
            };
            let Some(test) = steps.get(test_at) else {
                continue;
            };
            if !waits || self.function_of(test.sid) != Some(f) {
                continue;
            }
            let text = prog.sources.source_line(test.loc).unwrap_or_default();
            let locals: Vec<&str> = prog
                .vars
                .iter()
                .filter(|v| {
                    v.kind == crate::ir::VarKind::Local
                        && v.func.map(|g| g.0 as usize) == Some(f)
                        && mentions(text, v.shown_name())
                })
                .map(|v| v.shown_name())
                .collect();
            for local in locals {
                let writes_local = |s: &TraceStep| {
                    s.thread == b.thread
                        && s.writes.iter().any(|w| w.shown.as_deref() == Some(local))
                };
                // The copy: the waiter's last write of the local before the test, and
                // none after it.
                let Some(copy_at) = steps
                    .get(..test_at)
                    .and_then(|s| s.iter().rposition(writes_local))
                else {
                    continue;
                };
                if steps.iter().skip(copy_at + 1).any(writes_local) {
                    continue;
                }
                let (Some(copy), Some(copied)) =
                    (steps.get(copy_at), self.stmt_access(steps[copy_at].sid))
                else {
                    continue;
                };
                let source = copied.0;
                if source.is_empty() {
                    continue;
                }
                // Changed since by another thread.
                let Some(change) = steps.iter().skip(copy_at + 1).find(|s| {
                    s.thread != b.thread
                        && self
                            .stmt_access(s.sid)
                            .is_some_and(|(_, w)| w.iter().any(|v| source.contains(v)))
                }) else {
                    continue;
                };
                let what = source.join("`, `");
                let test_hint = format!(
                    "{who} waits while this test holds, and it tests `{local}`, a copy of `{what}` made at line {copy} before the wait: {changer} changed `{what}` at line {changed} since, and the test never sees it, so {who} waits again for ever when woken; test `{what}` itself here",
                    who = self.thread_name(b.thread),
                    copy = copy.line,
                    changer = self.thread_name(change.thread),
                    changed = change.line,
                );
                let copy_hint = format!(
                    "{who} copies `{what}` into `{local}` here, once, and its wait loop at line {test} tests the copy: the copy goes stale when {changer} changes `{what}` (line {changed}); read `{what}` in the loop's test instead",
                    who = self.thread_name(b.thread),
                    test = test.line,
                    changer = self.thread_name(change.thread),
                    changed = change.line,
                );
                for (step, hint) in [(test, test_hint), (copy, copy_hint)] {
                    self.name_as(
                        &mut out,
                        step,
                        &hint,
                        (CandidateKind::Value, Role::StaleTest),
                    );
                }
            }
        }
        super::renumber(&mut out);
        out
    }

    /// The condition variable the blocked statement `b` waits on.
    fn waited_condition(&self, b: &TraceStep) -> Option<String> {
        let s = self.stmts.get(&b.sid)?;
        self.calls_in(s)
            .into_iter()
            .find(|(k, _)| *k == Known::CondWait)
            .map(|(_, o)| o)
    }

    /// Where the waiter's loop test ran last: its last step in the run on another line
    /// than the wait it blocked at.
    fn wait_test(&self, b: &TraceStep) -> Option<usize> {
        self.cex
            .steps
            .iter()
            .rposition(|s| s.thread == b.thread && s.line != b.line)
    }

    /// Names `step` as a `kind` candidate with `role` and `hint`: the candidate its line
    /// already has takes them (the analyses found the cause there), else a new one.
    pub(super) fn name_as(
        &self,
        out: &mut Vec<Candidate>,
        step: &TraceStep,
        hint: &str,
        (kind, role): (CandidateKind, Role),
    ) {
        let on = |c: &Candidate| c.line == step.line && super::same_file(&c.file, &step.file);
        if let Some(c) = out.iter_mut().find(|c| on(c)) {
            if !c.specification && c.set.is_none() {
                c.kind = kind;
                c.role = role;
                c.hint = hint.to_string();
            }
            return;
        }
        let mut extra = Vec::new();
        self.push_step_candidate(&mut extra, out, step, kind, hint);
        for mut c in extra {
            c.role = role;
            out.push(c);
        }
    }

    /// Whether any statement of the program signals or broadcasts a condition variable
    /// named like `cv` (by its last member: `b->not_full` and `q->not_full` alike).
    fn anything_wakes(&self, cv: &str) -> bool {
        self.stmts.values().any(|s| {
            !matches!(s.kind, StmtKind::Block(_))
                && self.calls_in(s).iter().any(|(k, o)| {
                    matches!(k, Known::CondSignal | Known::CondBroadcast) && same_condition(o, cv)
                })
        })
    }

    /// The first signal or broadcast after `w`'s statement in its function, by line:
    /// the statement and the condition variable it names.
    fn next_signal(&self, w: &TraceStep) -> Option<(Stmt, String)> {
        let f = self.function_of(w.sid)?;
        let mut best: Option<(u32, Stmt, String)> = None;
        for (id, s) in &self.stmts {
            if self.function_of(*id) != Some(f) || matches!(s.kind, StmtKind::Block(_)) {
                continue;
            }
            let Some(p) = self.normalized.sources.position(s.loc) else {
                continue;
            };
            if p.line <= w.line || !super::same_file(p.file, &w.file) {
                continue;
            }
            let Some((_, o)) = self
                .calls_in(s)
                .into_iter()
                .find(|(k, _)| matches!(k, Known::CondSignal | Known::CondBroadcast))
            else {
                continue;
            };
            if best.as_ref().is_none_or(|(l, _, _)| p.line < *l) {
                best = Some((p.line, s.clone(), o));
            }
        }
        best.map(|(_, s, o)| (s, o))
    }
}

/// `text` mentions the identifier `name` as a whole word.
fn mentions(text: &str, name: &str) -> bool {
    text.match_indices(name).any(|(i, _)| {
        let before = text[..i].chars().next_back();
        let after = text[i + name.len()..].chars().next();
        let word = |c: Option<char>| c.is_some_and(|c| c.is_ascii_alphanumeric() || c == '_');
        !word(before) && !word(after)
    })
}

/// Two condition-variable texts name the same variable as far as text can tell: equal,
/// or equal in their last member (`b->not_full`, `q->not_full`).
fn same_condition(a: &str, b: &str) -> bool {
    let last = |x: &str| x.rsplit(['.', '>']).next().unwrap_or(x).trim().to_string();
    a == b || last(a) == last(b)
}
