//! A statement that ran before what it should have waited for: an order violation
//! (`diag::ordering`), a read before a join that never came or that a detach made answer
//! at once, a condition wait guarded by `if` (`diag::waits`) whose thread goes on
//! without the condition it waited for. Each is a missing order between two threads, not
//! a missing lock: the repair makes one side wait, so the candidates say who and for what.

use super::interleaving::quoted;
use super::{Candidate, CandidateKind, Explainer, Role, before_specification, same_file};
use crate::diag::waits::WaitGuard;

impl Explainer<'_> {
    /// The early statement of `v` reads what conflicts, and the same thread's next
    /// statement in the same function that touches it writes it (along the failing run):
    /// a read-modify-write split in two, a lost update.
    fn writes_back(&self, v: &crate::diag::ordering::OrderViolation) -> bool {
        let steps = &self.cex.steps;
        let Some(at) = self.first_run_of(&v.early) else {
            return false;
        };
        let f = self.function_of(v.early.sid);
        let (reads, _) = self.thread_accesses(&v.early);
        if f.is_none() || !v.conflicts.iter().any(|c| reads.contains(c)) {
            return false;
        }
        steps
            .iter()
            .skip(at + 1)
            .filter(|s| s.thread == v.early.thread && s.line != v.early.line)
            .take_while(|s| self.function_of(s.sid) == f)
            .find_map(|s| {
                let (r, w) = self.thread_accesses(s);
                let touches = |set: &[String]| v.conflicts.iter().any(|c| set.contains(c));
                (touches(&r) || touches(&w)).then(|| touches(&w))
            })
            .unwrap_or(false)
    }

    /// Candidates from order violations, after the others (lines already named are not
    /// repeated).
    pub fn ordering_candidates(
        &self,
        violations: &[crate::diag::ordering::OrderViolation],
        mut out: Vec<Candidate>,
    ) -> Vec<Candidate> {
        let outcome = self.outcome();
        let name = |t: u32| self.thread_name(t);
        let mut extra: Vec<Candidate> = Vec::new();
        for v in violations {
            let on = match quoted(&v.conflicts) {
                q if q.is_empty() => "the same data".to_string(),
                q => q,
            };
            let hint = format!(
                "{} ran this before {} reached line {} (both touch {on}); had {} run first, {outcome}: this line must wait for {} (an order violation)",
                name(v.early.thread),
                name(v.late_thread),
                v.late_step.line,
                name(v.late_thread),
                name(v.late_thread)
            );
            // Made inside a call of the thread's own code (a helper such as `close(s)`):
            // the call is what the thread's code orders, and comes first — unless another
            // analysis named the statement already (a boundary inside the helper: the
            // helper's own code is then at fault, not where it is called). A plain value
            // change there says only that the helper could have stored something else.
            let start = extra.len();
            let named_already = out.iter().chain(extra.iter()).any(|c| {
                c.line == v.early.line
                    && same_file(&c.file, &v.early.file)
                    && !(c.kind == CandidateKind::Value && c.role == Role::Plain)
            });
            // Before a sibling that never ran, the order is the threads' (the creation),
            // not a call's. A read the thread goes on to write back in the same function
            // (`cur = load(&n); store(&n, cur + 1)`) is a lost update: the region is
            // what is wrong, not when the helper was called.
            let call = if named_already || v.sibling_never_ran || self.writes_back(v) {
                None
            } else {
                self.outer_call(&v.early).filter(|c| c.line != v.early.line)
            };
            if let Some(call) = call {
                let callee = self
                    .function_of(v.early.sid)
                    .and_then(|f| self.normalized.funcs.get(f))
                    .map(|f| format!("`{}`", f.name))
                    .unwrap_or_else(|| "a function".into());
                let call_hint = format!(
                    "{} makes the call into {callee} here, whose line {} ran before {} reached line {} (both touch {on}); had {} run first, {outcome}: this call must wait for {} (an order violation)",
                    name(v.early.thread),
                    v.early.line,
                    name(v.late_thread),
                    v.late_step.line,
                    name(v.late_thread),
                    name(v.late_thread)
                );
                // A value change of the call's line ("had `b` been NULL") says less
                // than the order does: the line takes the order's words, and the order's
                // place — after the boundaries the interleaving analyses named, as any
                // order violation's line (a value's place would put it ahead of them).
                if let Some(i) = self.take_or_push(
                    &mut out,
                    &mut extra,
                    &call,
                    CandidateKind::Ordering,
                    &call_hint,
                ) && let Some(c) = extra.get_mut(i)
                {
                    if v.same_lock.is_some() {
                        c.role = Role::OrderedSections;
                    }
                    if v.sibling_never_ran {
                        c.role = Role::NeverRanFirst;
                    }
                }
            }
            self.push_step_candidate(&mut extra, &out, &v.early, CandidateKind::Ordering, &hint);
            self.push_short_barrier(&mut out, &mut extra, v);
            if v.same_lock.is_some() {
                for c in extra.iter_mut().skip(start) {
                    if c.kind == CandidateKind::Ordering && c.role == Role::Plain {
                        c.role = Role::OrderedSections;
                    }
                }
            }
            if let Some(d) = &v.detached {
                let what = format!(
                    "line {} ran before {} reached line {}",
                    v.early.line,
                    name(v.late_thread),
                    v.late_step.line
                );
                let late = name(v.late_thread);
                self.push_detach_candidates(&mut extra, &mut out, d, &late, &what);
            }
            if let Some(c) = &v.creation {
                // Created by the thread whose later step it needed (`main` sets up after
                // the `pthread_create`s): the creation comes too soon, not the thread.
                let hint = if c.thread == v.late_thread {
                    format!(
                        "{} creates {} here, before it reached line {} itself; {} touches {on} at line {} too early: create it after that line ran, or make it wait",
                        name(c.thread),
                        name(v.early.thread),
                        v.late_step.line,
                        name(v.early.thread),
                        v.early.line,
                    )
                } else {
                    format!(
                        "{} creates {} here, before {} has reached line {}; {} touches {on} at line {} too early: create it after {} is done (joined), or make it wait",
                        name(c.thread),
                        name(v.early.thread),
                        name(v.late_thread),
                        v.late_step.line,
                        name(v.early.thread),
                        v.early.line,
                        name(v.late_thread)
                    )
                };
                self.push_step_candidate(&mut extra, &out, c, CandidateKind::Ordering, &hint);
                if let Some(last) = extra.last_mut().filter(|x| x.line == c.line) {
                    last.whole_thread = true;
                    // A creation named for another thread that never ran keeps its role.
                    // A thread whose early read decides whether it waits on a condition
                    // was made to wait for the data: started early on purpose.
                    if v.reader_only
                        && last.role != Role::NeverRanFirst
                        && !v.sibling_never_ran
                        && !crate::analysis::waits::decides_a_wait(self.normalized, v.early.sid)
                    {
                        last.role = Role::StartedTooEarly;
                    }
                }
            }
            if v.sibling_never_ran {
                let let_through =
                    crate::analysis::waits::is_wait_loop_test(self.normalized, v.early.sid);
                for c in extra.iter_mut().skip(start) {
                    if c.kind != CandidateKind::Ordering {
                        continue;
                    }
                    if let_through && c.line == v.early.line && same_file(&c.file, &v.early.file) {
                        c.role = Role::WaitTestLetThrough;
                        c.hint = format!(
                            "{} tests here whether to wait, and went on without waiting although {} never ran: the condition it waits on does not wait for what {} provides (a wrong wait condition); {}",
                            name(v.early.thread),
                            name(v.late_thread),
                            name(v.late_thread),
                            c.hint
                        );
                    } else {
                        c.role = Role::NeverRanFirst;
                    }
                }
            }
        }
        before_specification(out, extra)
    }

    /// The detach (or the detached creation, and the attribute set detached) that made a
    /// join answer at once: `what` says what then ran too early.
    fn push_detach_candidates(
        &self,
        extra: &mut Vec<Candidate>,
        out: &mut [Candidate],
        d: &crate::diag::ordering::DetachedJoin,
        late: &str,
        what: &str,
    ) {
        let outcome = self.outcome();
        let name = |t: u32| self.thread_name(t);
        let how = if d.detach.statement.contains("pthread_create(") {
            format!(
                "{} creates {late} detached here (its attribute)",
                name(d.detach.thread),
            )
        } else if d.detach.thread == d.join.thread
            || !late.starts_with(&format!("T{} ", d.detach.thread))
        {
            format!("{} detaches {late} here", name(d.detach.thread))
        } else {
            format!("{late} detaches itself here")
        };
        let hint = format!(
            "{how}, so {}'s join at line {} answered EINVAL at once instead of waiting for it, and {what}: had {late} stayed joinable, {outcome} (a detached thread cannot be joined)",
            name(d.join.thread),
            d.join.line,
        );
        // A line another analysis named already (a detach the failing run was preempted
        // after) gets this explanation instead: it says why the order mattered.
        match out
            .iter_mut()
            .find(|c| c.line == d.detach.line && c.file == d.detach.file && c.changes.is_empty())
        {
            Some(c) => {
                c.hint = hint;
                c.kind = CandidateKind::Ordering;
            }
            None => self.push_step_candidate(extra, out, &d.detach, CandidateKind::Ordering, &hint),
        }
        if let Some(a) = &d.attr {
            let hint = format!(
                "the attribute set detached here makes {} create {late} detached at line {}, and {}'s join at line {} then does not wait for it: had the attribute stayed PTHREAD_CREATE_JOINABLE, {outcome}",
                name(d.detach.thread),
                d.detach.line,
                name(d.join.thread),
                d.join.line,
            );
            self.push_step_candidate(extra, out, a, CandidateKind::Ordering, &hint);
        }
    }

    /// Candidates from missing joins (see `diag::ordering::missing_joins`): the join that
    /// stopped short and the loop around it, then the read that came too early.
    pub fn join_candidates(
        &self,
        missing: &[crate::diag::ordering::MissingJoin],
        mut out: Vec<Candidate>,
    ) -> Vec<Candidate> {
        let outcome = self.outcome();
        let name = |t: u32| self.thread_name(t);
        let mut extra: Vec<Candidate> = Vec::new();
        for m in missing {
            let reader = name(m.reader.thread);
            let missing = format!("T{} {}", m.thread, m.function);
            if let Some(d) = &m.detached {
                let what = format!(
                    "{reader} read its result at line {} before {missing} had finished",
                    m.reader.line
                );
                self.push_detach_candidates(&mut extra, &mut out, d, &missing, &what);
                continue;
            }
            let state = if m.started {
                "had not finished"
            } else {
                "never ran"
            };
            let hint = format!(
                "{reader} joins {} of the {} threads created at line {}, not {}, which {state} before {reader} read its result at line {}; had it run first, {outcome}: join every thread created there",
                m.joined, m.created, m.creation.line, missing, m.reader.line
            );
            for j in m.joins.iter().rev() {
                self.push_step_candidate(&mut extra, &out, j, CandidateKind::Ordering, &hint);
            }
            let hint = format!(
                "{reader} reads this before {missing} {} (it is never joined); had it run first, {outcome} (an order violation)",
                if m.started { "finished" } else { "ran" }
            );
            self.push_step_candidate(&mut extra, &out, &m.reader, CandidateKind::Ordering, &hint);
        }
        before_specification(out, extra)
    }

    /// Candidates from condition waits guarded by `if`, in a loop that counts wake-ups, or
    /// with no test at all (see `diag::waits`): the `if`, the loop or the wait, before the
    /// value candidates on the failing check itself.
    pub fn wait_candidates(
        &self,
        guards: &[crate::diag::waits::UnloopedWait],
        mut out: Vec<Candidate>,
    ) -> Vec<Candidate> {
        let outcome = self.outcome();
        let mut extra: Vec<Candidate> = Vec::new();
        for w in guards {
            let g = &w.guard;
            let hint = match w.kind {
                WaitGuard::Counting => format!(
                    "{} counts its wake-ups here instead of testing the state it waits for: a wait may wake without a signal (POSIX allows it), and a signal sent before the wait began is lost, so the loop can end with the state not reached; wait in a `while` loop on that state, {outcome} (CERT CON36-C)",
                    self.thread_name(g.thread)
                ),
                WaitGuard::If => format!(
                    "{} tests the condition it waits for with `if` and does not test it again when it wakes up: another thread can change it between the signal and the wake-up (and waits may wake spuriously); tested in a `while` loop around the wait, {outcome} (CERT CON36-C)",
                    self.thread_name(g.thread)
                ),
                WaitGuard::Bare => format!(
                    "{} waits here without testing the state it waits for, before or after: a wait may wake without a signal (POSIX allows it), and a signal sent before the wait began is lost; wait in a `while` loop on that state, {outcome} (CERT CON36-C)",
                    self.thread_name(g.thread)
                ),
            };
            self.push_step_candidate(&mut extra, &out, g, CandidateKind::Atomicity, &hint);
            let on = |c: &Candidate| c.line == g.line && same_file(&c.file, &g.file);
            for c in extra.iter_mut().filter(|c| on(c)) {
                c.role = Role::IfGuardedWait;
            }
            // A value candidate on the `if` already (the test's value): the same line,
            // named for its missing loop.
            for c in out.iter_mut().filter(|c| {
                on(c) && c.kind == CandidateKind::Value && c.role == Role::Plain && !c.specification
            }) {
                c.role = Role::IfGuardedWait;
                c.kind = CandidateKind::Atomicity;
                c.hint = format!("{hint}; {}", c.hint);
            }
        }
        before_specification(out, extra)
    }

    /// Candidates from wait loops whose test let the failing thread through before the
    /// thread that provides what it waits for was created (`diag::ordering::uncreated`):
    /// the test, as a wrong wait condition, before the values on the failing check.
    pub fn early_wait_test_candidates(
        &self,
        found: &[crate::diag::ordering::EarlyWaitTest],
        mut out: Vec<Candidate>,
    ) -> Vec<Candidate> {
        let mut extra: Vec<Candidate> = Vec::new();
        for w in found {
            let t = &w.test;
            let hint = format!(
                "{} tests here whether to wait, and went on without waiting before any thread running `{}` was created, although `{}` writes {} (line {}) and wakes waiters: the condition it waits on does not wait for what `{}` provides (a wrong wait condition); test in the loop the state the code after it needs",
                self.thread_name(t.thread),
                w.provider,
                w.provider,
                w.on.iter()
                    .map(|o| format!("`{o}`"))
                    .collect::<Vec<_>>()
                    .join(", "),
                w.provider_write.line,
                w.provider,
            );
            let on = |c: &Candidate| c.line == t.line && same_file(&c.file, &t.file);
            // A value candidate on the test already: the same line, named for its condition.
            let mut named = false;
            for c in out
                .iter_mut()
                .filter(|c| on(c) && c.role == Role::Plain && !c.specification)
            {
                c.role = Role::WaitTestLetThrough;
                c.kind = CandidateKind::Ordering;
                c.hint = format!("{hint}; {}", c.hint);
                named = true;
            }
            if named {
                continue;
            }
            self.push_step_candidate(&mut extra, &out, t, CandidateKind::Ordering, &hint);
            for c in extra.iter_mut().filter(|c| on(c)) {
                c.role = Role::WaitTestLetThrough;
            }
        }
        before_specification(out, extra)
    }
}
