//! The candidates of the interleaving analyses (necessary context switches, order
//! violations, missing joins, `if`-guarded waits) and of a deadlock's wait-for picture,
//! with the roles the ranking reads (`Role`): what the run's schedule, not a value, says
//! about the failure.

use std::collections::BTreeSet;

use super::{Candidate, CandidateKind, Explainer, Role, before_specification, renumber, same_file};
use crate::ir::*;

/// Per mutex acquisition statement, what its section touches (`Explainer::lock_users`).
type Sections = std::collections::BTreeMap<StmtId, SectionUse>;

/// What one critical section touches, statement by statement.
#[derive(Clone, Debug, Default)]
struct SectionUse {
    /// Other globals than the data asked about.
    other: BTreeSet<VarId>,
    /// Source lines that touch the data asked about, and lines that touch only other
    /// globals (a line normalization splits in two counts once).
    this_data: BTreeSet<u32>,
    other_data: BTreeSet<u32>,
}

/// How a mutex is used around some data (`Explainer::lock_users`).
#[derive(Clone, Copy, Debug, Default)]
struct LockUsers {
    /// Functions that touch the data while holding it.
    functions: usize,
    /// Other globals it is held around anywhere in the program.
    other_data: usize,
}

impl Explainer<'_> {
    /// Candidates from the context switches the failure needs, after `value` candidates
    /// (lines already named there are not repeated), ranked in the same numbering.
    pub fn switch_candidates(
        &self,
        switches: &[crate::diag::interleaving::NecessarySwitch],
        mut out: Vec<Candidate>,
    ) -> Vec<Candidate> {
        let outcome = self.outcome();
        let mut extra: Vec<Candidate> = Vec::new();
        let name = |t: u32| self.thread_name(t);
        for sw in switches {
            // Preempted inside a line before the line touched anything shared (an atomic
            // store's operands evaluated, the store not made yet): the same as preempted
            // before the line, and the region starts at the thread's last step before it
            // that touched shared data (the load of a load-and-store pair).
            let last = match (&sw.last, &sw.resume) {
                (Some(l), Some(r))
                    if l.line == r.line
                        && same_file(&l.file, &r.file)
                        && !l.statement.contains("pthread_cond_")
                        && self.touches_nothing_shared(l)
                        && sw
                            .run_before
                            .iter()
                            .take_while(|s| s.line == l.line)
                            .all(|s| self.touches_nothing_shared(s)) =>
                {
                    sw.run_before
                        .iter()
                        .filter(|s| s.line != l.line)
                        .find(|s| !self.touches_nothing_shared(s))
                        .cloned()
                        .or_else(|| sw.last.clone())
                }
                _ => sw.last.clone(),
            };
            let others: Vec<String> = sw.between.iter().map(|t| name(*t)).collect();
            let others = if others.is_empty() {
                "the other threads".to_string()
            } else {
                others.join(", ")
            };
            let touched = quoted(&sw.conflicts);
            let on = if touched.is_empty() {
                String::new()
            } else {
                format!(" (they touch {touched})")
            };
            // Preempted inside a critical section the other threads' accesses did not
            // take: the region is one section already, and "make it atomic" would be
            // false; what is missing is the lock on the other side.
            let section = sw.held.iter().find_map(|h| {
                let bare = |u: &&crate::diag::interleaving::Unprotected| {
                    u.holder == sw.thread
                        && u.lock == h.lock
                        && !u.variables.iter().all(|v| self.is_atomic_global(v))
                };
                let lines: BTreeSet<u32> = sw
                    .unprotected
                    .iter()
                    .filter(bare)
                    .map(|u| u.step.line)
                    .collect();
                let threads: BTreeSet<u32> = sw
                    .unprotected
                    .iter()
                    .filter(bare)
                    .map(|u| u.thread)
                    .collect();
                (!lines.is_empty()).then(|| {
                    let lines: Vec<String> = lines.iter().map(u32::to_string).collect();
                    let who: Vec<String> = threads.iter().map(|t| name(*t)).collect();
                    format!(
                        "inside its critical section on `{lock}` (taken at line {at}), and {who} ran before it could go on; had it not been preempted there, {outcome}. The section excluded nothing: {who} accessed {what} at line {lines} without taking `{lock}`, and must take it there too",
                        lock = h.lock,
                        at = h.step.line,
                        who = who.join(", "),
                        what = if touched.is_empty() {
                            "the same data"
                        } else {
                            touched.as_str()
                        },
                        lines = lines.join(", "),
                    )
                })
            });
            let hint = match (&last, &sw.resume, &section) {
                (Some(l), _, Some(section)) => format!(
                    "{} was preempted after line {} {section}",
                    name(sw.thread),
                    l.line
                ),
                // Preempted inside a condition wait: the wait gives its mutex up while it
                // waits by design, so no "make it atomic" — only where it was preempted.
                (Some(l), Some(r), None)
                    if l.line == r.line
                        && same_file(&l.file, &r.file)
                        && (l.statement.contains("pthread_cond_wait(")
                            || l.statement.contains("pthread_cond_timedwait(")) =>
                {
                    format!(
                        "{} was preempted inside its condition wait at line {} and {others} ran in between{on}; without that context switch {outcome}",
                        name(sw.thread),
                        l.line
                    )
                }
                // One line, preempted inside: a statement that is no single step (a loop
                // written on one line, a library call seqloc writes out as one).
                (Some(l), Some(r), None) if l.line == r.line && same_file(&l.file, &r.file) => {
                    format!(
                        "{} was preempted inside line {} (its statement is several steps) and {others} ran in between{on}; without that context switch {outcome}: line {} needs to run atomically (one critical section)",
                        name(sw.thread),
                        l.line,
                        l.line
                    )
                }
                (Some(l), Some(r), None) => format!(
                    "{} was preempted between line {} and line {} and {others} ran in between{on}; without that context switch {outcome}: lines {}–{} need to run atomically (one critical section)",
                    name(sw.thread),
                    l.line,
                    r.line,
                    l.line.min(r.line),
                    l.line.max(r.line)
                ),
                (Some(l), None, None) => format!(
                    "{} was preempted after line {l} and {others} ran before it could go on{on}; had it not been preempted there, {outcome}: the code after line {l} belongs in the same critical section",
                    name(sw.thread),
                    l = l.line
                ),
                _ => continue,
            };
            // A thread that never ran again resumes, in the program, at the statement its
            // block stopped before: the other end of the region that should be one step.
            let next = match (&sw.resume, sw.stopped_before) {
                (None, Some(sid)) => self.step_at(sw.thread, sid),
                _ => None,
            };
            let one_line = matches!(
                (&last, &sw.resume),
                (Some(l), Some(r)) if l.line == r.line
                    && same_file(&l.file, &r.file)
                    && !l.statement.contains("pthread_cond_")
            );
            for step in [&last, &sw.resume].into_iter().flatten() {
                self.push_step_candidate(&mut extra, &out, step, CandidateKind::Atomicity, &hint);
                // A value candidate already on the line is this end of the region too.
                for c in out.iter_mut() {
                    if c.line == step.line
                        && same_file(&c.file, &step.file)
                        && c.kind == CandidateKind::Value
                        && c.role == Role::Plain
                        && !c.specification
                        && c.set.is_none()
                    {
                        c.role = if one_line {
                            Role::SplitStatement
                        } else {
                            Role::AlsoBoundary
                        };
                        c.hint = format!("{hint}; {}", c.hint);
                    }
                }
            }
            // The thread resumed inside a function its last step was calling: that call
            // is the boundary in the thread's own code (it encloses the accesses that
            // conflict), the line inside the callee comes after it. A value candidate on
            // the call's line says less than the boundary does.
            if let (Some(l), Some(r)) = (&last, &sw.resume) {
                if self.calls_toward(l.sid, r.sid) {
                    let on = |c: &Candidate, s: &crate::cex::TraceStep| {
                        c.line == s.line && same_file(&c.file, &s.file)
                    };
                    for c in out.iter_mut().chain(extra.iter_mut()) {
                        if on(c, l) && !c.specification && c.set.is_none() {
                            c.kind = CandidateKind::Atomicity;
                            c.role = Role::CallBoundary;
                            c.hint = hint.clone();
                        } else if on(c, r) && c.kind == CandidateKind::Atomicity {
                            c.role = Role::BoundaryInCallee;
                        }
                    }
                }
            }
            if let Some(step) = &next {
                let before = extra.len();
                self.push_step_candidate(&mut extra, &out, step, CandidateKind::Atomicity, &hint);
                // In another function than the last step (inside a call it was making),
                // the call itself is the boundary in the thread's own code.
                let same_function = sw
                    .last
                    .as_ref()
                    .is_some_and(|l| self.function_of(l.sid) == self.function_of(step.sid));
                if let Some(c) = extra.get_mut(before) {
                    c.role = if same_function {
                        Role::NotResumed
                    } else {
                        Role::NotResumedInCallee
                    };
                }
            }
            // Preempted inside a call, to resume (or stopped) in the caller: the call is
            // the boundary in the thread's own code (`set_timeout(300); set_retries(3);`
            // meant as one update), the line inside the callee comes after it.
            let other_end = sw.resume.as_ref().or(next.as_ref());
            if let (Some(l), Some(o)) = (&last, other_end) {
                let caller = self.function_of(o.sid);
                let call = self
                    .outer_call(l)
                    .filter(|_| caller.is_some() && self.function_of(l.sid) != caller)
                    .filter(|c| self.function_of(c.sid) == caller);
                if let Some(call) = call {
                    let on = |c: &Candidate, s: &crate::cex::TraceStep| {
                        c.line == s.line && same_file(&c.file, &s.file)
                    };
                    let mut named = false;
                    for c in out.iter_mut().chain(extra.iter_mut()) {
                        if on(c, &call) && !c.specification && c.set.is_none() {
                            c.kind = CandidateKind::Atomicity;
                            c.role = Role::CallBoundary;
                            c.hint = hint.clone();
                            named = true;
                        } else if on(c, l) && c.kind == CandidateKind::Atomicity {
                            c.role = Role::BoundaryInCallee;
                        }
                    }
                    if !named {
                        let before = extra.len();
                        self.push_step_candidate(
                            &mut extra,
                            &out,
                            &call,
                            CandidateKind::Atomicity,
                            &hint,
                        );
                        if let Some(c) = extra.get_mut(before) {
                            c.role = Role::CallBoundary;
                        }
                    }
                }
            }
            // Two sections under different locks: the lock the program's other accesses
            // of that data take is the one meant, the section under the odd one out is
            // the slip (consistent locking as the program's own belief). The lock fewer
            // functions take around the data comes first; an equal count keeps the order.
            // On a tie, the lock also held around other data is the one borrowed for
            // this data (`queue_lock` around `jobs_done`, beside `stats_lock`, which
            // guards nothing else).
            let mut locks: Vec<&crate::diag::interleaving::LockUse> = sw.locks.iter().collect();
            let mut sections = Sections::default();
            if locks.len() > 1 && !locks.iter().any(|l| l.same_name) {
                let mut vars: Vec<String> = Vec::new();
                for l in &locks {
                    for v in &l.variables {
                        if !vars.contains(v) {
                            vars.push(v.clone());
                        }
                    }
                }
                let (users, found) = self.lock_users(&vars);
                sections = found;
                locks.sort_by_key(|l| {
                    let u = users.get(&l.lock).copied().unwrap_or_default();
                    (u.functions, std::cmp::Reverse(u.other_data))
                });
            }
            // The section under the odd lock is mostly about other data (`table_insert`
            // holds `table_lock` around two statements on the table and bumps
            // `refcount` in a third): that lock is right where it is, and the access
            // that raced is what sits under the wrong one. It comes first; the lock
            // lines follow. A section mostly about the raced data took the wrong lock
            // at its lock line.
            let guards = |l: &crate::diag::interleaving::LockUse| -> Option<Vec<String>> {
                let sec = sections.get(&l.step.sid)?;
                let other_only = sec.other_data.difference(&sec.this_data).count();
                Some(if other_only > sec.this_data.len() {
                    sec.other
                        .iter()
                        .map(|v| self.normalized.var(*v).shown_name().to_string())
                        .collect()
                } else {
                    Vec::new()
                })
            };
            if let [first, rest @ ..] = locks.as_slice()
                && !first.same_name
                && let Some(other) = guards(first).filter(|o| !o.is_empty())
                && let Some(access) = &first.access
                && let Some(theirs) = rest.iter().find(|o| {
                    o.thread != first.thread
                        && o.lock != first.lock
                        && guards(o).is_some_and(|g| g.is_empty())
                })
            {
                let hint = format!(
                    "{} accesses {} here inside its section on `{}` (taken at line {}), which guards {}; {} holds `{}` around its own access at line {}: the two do not exclude each other, and this access belongs under `{}`",
                    name(first.thread),
                    quoted(&first.variables),
                    first.lock,
                    first.step.line,
                    quoted(&other),
                    name(theirs.thread),
                    theirs.lock,
                    theirs.access_line,
                    theirs.lock
                );
                // Preempted inside it, or one end of a region: the lock says more.
                for c in out.iter_mut() {
                    if c.line == access.line
                        && same_file(&c.file, &access.file)
                        && c.kind == CandidateKind::Value
                        && matches!(c.role, Role::SplitStatement | Role::AlsoBoundary)
                    {
                        c.role = Role::Plain;
                    }
                }
                self.take_or_push(&mut out, &mut extra, access, CandidateKind::Locking, &hint);
            }
            for l in locks {
                let hint = if l.same_name {
                    format!(
                        "{} takes `{}` here around its access at line {}, and so does the other thread, but it is a different mutex in each (both held it at once): the two critical sections do not exclude each other; both must lock the same mutex",
                        name(l.thread),
                        l.lock,
                        l.access_line
                    )
                } else {
                    format!(
                        "{} takes `{}` here around its access at line {}, while the conflicting accesses of the other thread hold a different lock: the two critical sections do not exclude each other; both must use the same lock",
                        name(l.thread),
                        l.lock,
                        l.access_line
                    )
                };
                // A lock already named as one end of a region is that section's lock:
                // the lock is the more precise reading, at its place in the lock order.
                let on = |c: &Candidate| c.line == l.step.line && same_file(&c.file, &l.step.file);
                let next = extra.len();
                if let Some(c) = extra.iter_mut().find(|c| {
                    on(c)
                        && c.kind == CandidateKind::Atomicity
                        && !c.specification
                        && c.set.is_none()
                }) {
                    c.kind = CandidateKind::Locking;
                    c.role = Role::default();
                    c.hint = hint;
                    c.rank = next;
                    let by = self.thread_ref(l.thread);
                    if !c.threads.iter().any(|t| t.id == by.id) {
                        c.threads.push(by);
                        c.threads.sort_by_key(|t| t.id);
                    }
                    continue;
                }
                self.push_step_candidate(&mut extra, &out, &l.step, CandidateKind::Locking, &hint);
            }
        }
        for sw in switches {
            for u in &sw.unprotected {
                // A C11 atomic is made to be accessed without a lock.
                if u.variables.iter().all(|v| self.is_atomic_global(v)) {
                    continue;
                }
                // The preempted thread let go of the lock in the same function before
                // the switch and went on to this access without it: its section ended
                // too early (`closed` tested under the lock, `buf` used after it).
                let early = sw.released.iter().find(|r| {
                    u.thread == sw.thread
                        && r.lock == u.lock
                        && self.function_of(r.step.sid).is_some()
                        && self.function_of(r.step.sid) == self.function_of(u.step.sid)
                });
                if let Some(r) = early {
                    let hint = format!(
                        "{} releases `{}` here, and at line {} accesses {} holding no lock; {} accessed it under `{}` at line {} in between: had the section gone on over line {}, {outcome} (an atomicity violation: the critical section ended too early)",
                        name(sw.thread),
                        r.lock,
                        u.step.line,
                        quoted(&u.variables),
                        name(u.holder),
                        u.lock,
                        u.holder_line,
                        u.step.line
                    );
                    if let Some(i) = self.take_or_push(
                        &mut out,
                        &mut extra,
                        &r.step,
                        CandidateKind::Atomicity,
                        &hint,
                    ) && let Some(c) = extra.get_mut(i)
                    {
                        c.role = Role::SplitSection;
                    }
                }
                let hint = format!(
                    "{} accesses `{}` here holding no lock, while {} holds `{}` around its access at line {}: the two accesses do not exclude each other; {} must hold `{}` here too",
                    name(u.thread),
                    u.variables.join("`, `"),
                    name(u.holder),
                    u.lock,
                    u.holder_line,
                    name(u.thread),
                    u.lock
                );
                let step = &u.step;
                // A double-checked fast path reads without the lock on purpose: what it
                // read too early is an order of the writes, which the projection names;
                // the lock stays a repair, with the analyses' own lines.
                let fast_path = self.double_checked(step.sid, &u.variables, &u.lock);
                let (role, hint) = match fast_path {
                    Some(again) => (
                        Role::Plain,
                        format!(
                            "{hint} (it tests again under `{}` at line {again}: a double-checked fast path, which must not see the flag before the data)",
                            u.lock
                        ),
                    ),
                    None => (Role::Unprotected, hint),
                };
                // Both made the access in one helper, which the holder called with the
                // lock taken in its own code: the lock is missing around this thread's
                // call of the helper, and the line inside is only where that shows.
                let role = match self.unlocked_call(u) {
                    Some((call, callee)) if role == Role::Unprotected => {
                        let call_hint = format!(
                            "{} calls `{callee}` here holding no lock; inside it, at line {}, it accesses {}, which {} accessed in the same function at line {} holding `{}` (taken in its caller): {} must hold `{}` around this call too",
                            name(u.thread),
                            u.step.line,
                            quoted(&u.variables),
                            name(u.holder),
                            u.holder_line,
                            u.lock,
                            name(u.thread),
                            u.lock
                        );
                        let at = extra.len();
                        self.push_step_candidate(
                            &mut extra,
                            &out,
                            &call,
                            CandidateKind::Locking,
                            &call_hint,
                        );
                        if let Some(c) = extra.get_mut(at) {
                            c.role = Role::Unprotected;
                        }
                        Role::Plain
                    }
                    _ => role,
                };
                let on = |c: &Candidate| c.line == step.line && same_file(&c.file, &step.file);
                let before = extra.len();
                self.push_step_candidate(&mut extra, &out, step, CandidateKind::Locking, &hint);
                if let Some(c) = extra.get_mut(before) {
                    c.role = role;
                    continue;
                }
                // Already named (a value, or one end of a region): it is this access.
                for c in out.iter_mut().chain(extra.iter_mut()).filter(|c| on(c)) {
                    if !c.specification && c.set.is_none() && c.role != Role::Unprotected {
                        c.kind = CandidateKind::Locking;
                        c.role = role;
                        c.hint = hint.clone();
                    }
                }
            }
        }
        // Locking first: it names the repair; then the atomicity pairs in trace order.
        extra.sort_by_key(|c| (c.kind != CandidateKind::Locking, c.rank));
        before_specification(out, extra)
    }

    /// The call of a helper that made an unprotected access (see `Unprotected`), when the
    /// holder made its own access inside the same helper and the helper takes no lock of
    /// that name itself: the holder's lock came from its caller, and this thread's call
    /// is where the lock is missing. With the callee's name.
    fn unlocked_call(
        &self,
        u: &crate::diag::interleaving::Unprotected,
    ) -> Option<(crate::cex::TraceStep, String)> {
        let f = self.function_of(u.step.sid)?;
        let mut holder_here = false;
        for (id, st) in &self.stmts {
            if self.function_of(*id) != Some(f) {
                continue;
            }
            if self
                .lock_call(st)
                .is_some_and(|(name, obj)| obj == u.lock && name.ends_with("lock"))
            {
                return None;
            }
            holder_here |= self
                .normalized
                .sources
                .position(st.loc)
                .is_some_and(|p| p.line == u.holder_line && same_file(p.file, &u.step.file));
        }
        if !holder_here {
            return None;
        }
        let call = self.outer_call(&u.step)?;
        let callee = self.normalized.funcs.get(f)?.name.clone();
        Some((call, callee))
    }

    /// Where in the failing run `step`'s thread first ran its statement.
    pub(super) fn first_run_of(&self, step: &crate::cex::TraceStep) -> Option<usize> {
        self.cex
            .steps
            .iter()
            .position(|s| s.thread == step.thread && s.sid == step.sid)
    }

    /// The statement of `step` reads and writes no shared location.
    fn touches_nothing_shared(&self, step: &crate::cex::TraceStep) -> bool {
        self.stmt_access(step.sid)
            .is_some_and(|(r, w)| r.is_empty() && w.is_empty())
    }

    /// The early statement of `v` reads what conflicts, and the same thread's next
    /// statement in the same function that touches it writes it (along the failing run):
    /// a read-modify-write split in two, a lost update.
    fn writes_back(&self, v: &crate::diag::ordering::OrderViolation) -> bool {
        let steps = &self.cex.steps;
        let Some(at) = self.first_run_of(&v.early) else {
            return false;
        };
        let f = self.function_of(v.early.sid);
        let (reads, _) = self.accesses(&v.early.file, v.early.line);
        if f.is_none() || !v.conflicts.iter().any(|c| reads.contains(c)) {
            return false;
        }
        steps
            .iter()
            .skip(at + 1)
            .filter(|s| s.thread == v.early.thread && s.line != v.early.line)
            .take_while(|s| self.function_of(s.sid) == f)
            .find_map(|s| {
                let (r, w) = self.accesses(&s.file, s.line);
                let touches = |set: &[String]| v.conflicts.iter().any(|c| set.contains(c));
                (touches(&r) || touches(&w)).then(|| touches(&w))
            })
            .unwrap_or(false)
    }

    /// Names `step` as a `kind` candidate with `hint` among `extra`: a plain value
    /// candidate already on its line takes these words and moves to this place (a
    /// value's place would sort it ahead of the analyses' own lines); a line named
    /// otherwise keeps its name. The index in `extra` when the line was placed there now.
    pub(super) fn take_or_push(
        &self,
        out: &mut Vec<Candidate>,
        extra: &mut Vec<Candidate>,
        step: &crate::cex::TraceStep,
        kind: CandidateKind,
        hint: &str,
    ) -> Option<usize> {
        let on = |c: &Candidate| c.line == step.line && same_file(&c.file, &step.file);
        if let Some(at) = out.iter().position(|c| {
            on(c)
                && c.kind == CandidateKind::Value
                && c.role == Role::Plain
                && !c.specification
                && c.set.is_none()
        }) {
            let mut c = out.remove(at);
            c.kind = kind;
            c.hint = hint.to_string();
            c.rank = extra.len();
            extra.push(c);
            return Some(extra.len() - 1);
        }
        let before = extra.len();
        self.push_step_candidate(extra, out, step, kind, hint);
        (extra.len() > before).then_some(before)
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
                let hint = format!(
                    "{} creates {} here, before {} has reached line {}; {} touches {on} at line {} too early: create it after {} is done (joined), or make it wait",
                    name(c.thread),
                    name(v.early.thread),
                    name(v.late_thread),
                    v.late_step.line,
                    name(v.early.thread),
                    v.early.line,
                    name(v.late_thread)
                );
                self.push_step_candidate(&mut extra, &out, c, CandidateKind::Ordering, &hint);
                if let Some(last) = extra.last_mut().filter(|x| x.line == c.line) {
                    last.whole_thread = true;
                    // A creation named for another thread that never ran keeps its role.
                    if v.reader_only && last.role != Role::NeverRanFirst && !v.sibling_never_ran {
                        last.role = Role::StartedTooEarly;
                    }
                }
            }
            if v.sibling_never_ran {
                for c in extra.iter_mut().skip(start) {
                    if c.kind == CandidateKind::Ordering {
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

    /// Candidates from condition waits guarded by `if` (see `diag::waits`): the `if`,
    /// before the value candidates on the failing check itself.
    pub fn wait_candidates(
        &self,
        guards: &[crate::cex::TraceStep],
        out: Vec<Candidate>,
    ) -> Vec<Candidate> {
        let outcome = self.outcome();
        let mut extra: Vec<Candidate> = Vec::new();
        for g in guards {
            let hint = format!(
                "{} tests the condition it waits for with `if` and does not test it again when it wakes up: another thread can change it between the signal and the wake-up (and waits may wake spuriously); tested in a `while` loop around the wait, {outcome} (CERT CON36-C)",
                self.thread_name(g.thread)
            );
            self.push_step_candidate(&mut extra, &out, g, CandidateKind::Atomicity, &hint);
        }
        before_specification(out, extra)
    }

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
            if l.went_on {
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
        let bare_wait = |b: &crate::cex::TraceStep| {
            self.stmts.get(&b.sid).is_some_and(|s| {
                self.calls_in(s)
                    .iter()
                    .any(|(k, _)| *k == crate::ir::known::Known::CondWait)
            }) && crate::analysis::waits::outside_any_loop(self.normalized, b.sid)
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

    /// The library calls a simple statement makes (its own expressions, not a branch's),
    /// with their first argument as the program writes it (`&m` as `m`).
    /// For each mutex, how many functions of the program touch one of `vars` (global
    /// names, as the conflicts name them; `items[]` for an element, the struct for a
    /// member `pool.count`) while holding it, and how many other globals it is held
    /// around anywhere: the locks followed statement by statement through each
    /// function's body. The lock and unlock calls themselves touch nothing. Beside it,
    /// per acquisition statement, the other globals its own section touches.
    fn lock_users(
        &self,
        vars: &[String],
    ) -> (std::collections::BTreeMap<String, LockUsers>, Sections) {
        use crate::ir::known::Known;
        let wanted: BTreeSet<&str> = vars
            .iter()
            .map(|v| v.split('.').next().unwrap_or(v).trim_end_matches("[]"))
            .filter(|v| !v.is_empty() && !v.contains(['-', '*', '[']))
            .collect();
        let mut users: std::collections::BTreeMap<String, BTreeSet<usize>> = Default::default();
        let mut others: std::collections::BTreeMap<String, BTreeSet<VarId>> = Default::default();
        // Per acquisition statement: the other globals its section touches.
        let mut sections = Sections::default();
        for (fi, f) in self.normalized.funcs.iter().enumerate() {
            let Some(body) = &f.body else { continue };
            let mut held: Vec<(String, StmtId)> = Vec::new();
            crate::ir::visit::each_stmt(body, &mut |s| {
                // The statement's own expressions: a branch's condition, not its body.
                struct Names<'p> {
                    prog: &'p Program,
                    wanted: &'p BTreeSet<&'p str>,
                    hit: bool,
                    other: BTreeSet<VarId>,
                }
                impl crate::ir::visit::Visitor for Names<'_> {
                    fn visit_expr(&mut self, x: &Expr) {
                        if let ExprKind::Var(v) = &x.kind {
                            let var = self.prog.var(*v);
                            if var.kind == VarKind::Global {
                                if self.wanted.contains(var.shown_name()) {
                                    self.hit = true;
                                } else if !crate::ir::internal::is_internal_name(&var.name) {
                                    self.other.insert(*v);
                                }
                            }
                        }
                        crate::ir::visit::walk_expr(self, x)
                    }
                }
                let names = |visit: &dyn Fn(&mut Names)| {
                    let mut n = Names {
                        prog: self.normalized,
                        wanted: &wanted,
                        hit: false,
                        other: BTreeSet::new(),
                    };
                    visit(&mut n);
                    (n.hit, n.other)
                };
                let touches_in = |st: &Stmt| names(&|n| crate::ir::visit::walk_stmt(n, st));
                let condition = |cond: &Expr| names(&|n| crate::ir::visit::walk_expr(n, cond));
                let (touches, other) = match &s.kind {
                    StmtKind::Expr(_) => {
                        let mut locking = false;
                        for (k, obj) in self.calls_in(s) {
                            match k {
                                Known::MutexLock => {
                                    held.push((obj, s.id));
                                    locking = true;
                                }
                                Known::MutexUnlock => {
                                    if let Some(p) = held.iter().rposition(|h| h.0 == obj) {
                                        held.remove(p);
                                    }
                                    locking = true;
                                }
                                _ => {}
                            }
                        }
                        if locking {
                            (false, BTreeSet::new())
                        } else {
                            touches_in(s)
                        }
                    }
                    StmtKind::Decl { .. } | StmtKind::Return(_) => touches_in(s),
                    StmtKind::If { cond, .. } | StmtKind::While { cond, .. } => condition(cond),
                    _ => (false, BTreeSet::new()),
                };
                for (h, at) in &held {
                    if touches {
                        users.entry(h.clone()).or_default().insert(fi);
                    }
                    others
                        .entry(h.clone())
                        .or_default()
                        .extend(other.iter().copied());
                    let sec = sections.entry(*at).or_default();
                    sec.other.extend(other.iter().copied());
                    let line = self.normalized.sources.position(s.loc).map(|p| p.line);
                    if let Some(line) = line {
                        if touches {
                            sec.this_data.insert(line);
                        } else if !other.is_empty() {
                            sec.other_data.insert(line);
                        }
                    }
                }
            });
        }
        let mut out: std::collections::BTreeMap<String, LockUsers> = Default::default();
        for (lock, fs) in users {
            out.entry(lock).or_default().functions = fs.len();
        }
        for (lock, vs) in others {
            out.entry(lock).or_default().other_data = vs.len();
        }
        (out, sections)
    }

    pub(super) fn calls_in(&self, s: &Stmt) -> Vec<(crate::ir::known::Known, String)> {
        struct Calls<'p, 'e> {
            ex: &'p Explainer<'e>,
            out: Vec<(crate::ir::known::Known, String)>,
        }
        impl crate::ir::visit::Visitor for Calls<'_, '_> {
            fn visit_expr(&mut self, e: &Expr) {
                if let ExprKind::Call(f, args) = &e.kind {
                    if let ExprKind::Func(fid) = f.peel().kind {
                        let func = self.ex.normalized.func(fid);
                        // A function of the program's own, or one seqloc does not know,
                        // is `Other`: it may do anything.
                        let known = crate::ir::known::classify(&func.name);
                        let obj = args
                            .first()
                            .map(|a| self.ex.object_text(a))
                            .unwrap_or_default();
                        self.out.push((known, obj));
                    }
                }
                crate::ir::visit::walk_expr(self, e)
            }
        }
        let mut v = Calls {
            ex: self,
            out: Vec::new(),
        };
        match &s.kind {
            StmtKind::Expr(e) => crate::ir::visit::Visitor::visit_expr(&mut v, e),
            StmtKind::Decl { init: Some(i), .. } => {
                crate::ir::visit::Visitor::visit_init(&mut v, i)
            }
            StmtKind::Return(Some(e)) => crate::ir::visit::Visitor::visit_expr(&mut v, e),
            _ => {}
        }
        v.out
    }

    /// A critical section split between two accesses of one thread: when `first` and
    /// `last` are in one function and, between their lines, the function releases a
    /// mutex and takes the same mutex again, the unlock and the lock (the last unlock
    /// before the first lock after `first`). What was checked under the lock at `first`
    /// is no longer protected when `last` acts on it.
    pub(crate) fn split_section(&self, first: StmtId, last: StmtId) -> Option<(StmtId, StmtId)> {
        use crate::ir::known::Known;
        let f = self.function_of(first)?;
        if self.function_of(last)? != f {
            return None;
        }
        let line = |sid: StmtId| {
            let st = self.stmts.get(&sid)?;
            self.normalized.sources.position(st.loc).map(|p| p.line)
        };
        let (lo, hi) = (line(first)?, line(last)?);
        if lo >= hi {
            return None;
        }
        let body = self.normalized.funcs.get(f)?.body.as_ref()?;
        let mut calls: Vec<(u32, StmtId, Known, String)> = Vec::new();
        crate::ir::visit::each_stmt(body, &mut |s| {
            if matches!(s.kind, StmtKind::Block(_)) {
                return;
            }
            let Some(l) = self.normalized.sources.position(s.loc).map(|p| p.line) else {
                return;
            };
            if l > lo && l < hi {
                for (k, obj) in self.calls_in(s) {
                    if matches!(k, Known::MutexLock | Known::MutexUnlock) {
                        calls.push((l, s.id, k, obj));
                    }
                }
            }
        });
        calls.sort_by_key(|c| c.0);
        let (lock_at, lock, _, m) = calls.iter().find(|c| c.2 == Known::MutexLock)?;
        let unlock = calls
            .iter()
            .rfind(|c| c.2 == Known::MutexUnlock && c.0 < *lock_at && c.3 == *m)?;
        Some((unlock.1, *lock))
    }

    /// In the function of `first` (a shared read), an `if` after the lock `lock` and up
    /// to `last`'s line whose line reads only locals, one of which a statement on
    /// `first`'s line assigned: the test of a copy made before the section was split.
    /// The `if` and the local's name.
    pub(crate) fn stale_test(
        &self,
        first: StmtId,
        lock: StmtId,
        last: StmtId,
    ) -> Option<(StmtId, String)> {
        let f = self.function_of(first)?;
        let body = self.normalized.funcs.get(f)?.body.as_ref()?;
        let pos = |sid: StmtId| {
            let st = self.stmts.get(&sid)?;
            self.normalized.sources.position(st.loc)
        };
        let (first_at, lock_line, last_line) = (pos(first)?, pos(lock)?.line, pos(last)?.line);
        let line_of = |s: &Stmt| self.normalized.sources.position(s.loc).map(|p| p.line);
        let is_local = |v: crate::ir::VarId| {
            matches!(
                self.normalized.var(v).kind,
                crate::ir::VarKind::Local | crate::ir::VarKind::Param
            )
        };
        // The locals the first section's line assigns.
        let mut copies: Vec<crate::ir::VarId> = Vec::new();
        crate::ir::visit::each_stmt(body, &mut |s| {
            if line_of(s) != Some(first_at.line) {
                return;
            }
            let target = match &s.kind {
                StmtKind::Decl { var, .. } => Some(*var),
                StmtKind::Expr(e) => match &e.kind {
                    ExprKind::Assign(l, _) => match l.peel().kind {
                        ExprKind::Var(v) => Some(v),
                        _ => None,
                    },
                    _ => None,
                },
                _ => None,
            };
            if let Some(v) = target.filter(|v| is_local(*v)) {
                copies.push(v);
            }
        });
        let mut found: Option<(StmtId, String)> = None;
        crate::ir::visit::each_stmt(body, &mut |s| {
            if found.is_some() || !matches!(s.kind, StmtKind::If { .. }) {
                return;
            }
            let Some(l) = line_of(s).filter(|l| *l > lock_line && *l <= last_line) else {
                return;
            };
            let (reads, _) = self.accesses(first_at.file, l);
            if !reads.is_empty() {
                return;
            }
            // The locals the statements on the test's line read.
            let mut read = None;
            crate::ir::visit::each_stmt(body, &mut |t| {
                if line_of(t) != Some(l) || matches!(t.kind, StmtKind::Block(_)) {
                    return;
                }
                let own: Vec<&Expr> = match &t.kind {
                    StmtKind::If { cond, .. } => vec![cond],
                    StmtKind::Decl {
                        init: Some(crate::ir::Init::Expr(e)),
                        ..
                    } => vec![e],
                    StmtKind::Expr(e) => vec![e],
                    _ => vec![],
                };
                for e in own {
                    crate::ir::visit::each_subexpr(e, &mut |x| {
                        if let ExprKind::Var(v) = x.kind
                            && copies.contains(&v)
                        {
                            read = Some(v);
                        }
                    });
                }
            });
            if let Some(v) = read {
                found = Some((s.id, self.normalized.var(v).name.clone()));
            }
        });
        found
    }

    /// One of the statements of an instrumented line creates a thread.
    pub(super) fn creates_thread(&self, sites: &[&crate::instrument::Site]) -> bool {
        sites.iter().any(|site| {
            self.stmts.get(&site.sid).is_some_and(|s| {
                self.calls_in(s)
                    .iter()
                    .any(|(k, _)| *k == crate::ir::known::Known::ThreadCreate)
            })
        })
    }

    /// What comes after a `pthread_join` at `step` in its function that could wake
    /// another blocked thread (`others`): `None` when `step` is no join. A thread blocked
    /// there, holding no lock, is a bystander of the deadlock when nothing could
    /// ([`JoinWakes::Nothing`]: no unlock, signal, broadcast or post of an object one
    /// waits on, and no call of the program's own functions, which might); it closes
    /// the cycle when one does for certain ([`JoinWakes::Surely`]: the join holds that
    /// wake-up back).
    /// A blocked call of the program's own function that joins (a join helper's call,
    /// see `lock_helpers`) counts as the join.
    pub(super) fn join_wakes(
        &self,
        step: &crate::cex::TraceStep,
        others: &[&crate::cex::TraceStep],
    ) -> Option<JoinWakes> {
        use crate::ir::known::Known;
        let stmt = self.stmts.get(&step.sid)?;
        let joins = |s: &Stmt| {
            self.calls_in(s)
                .iter()
                .any(|(k, _)| *k == Known::ThreadJoin)
        };
        if !joins(stmt) && !self.calls_a_joiner(stmt, &joins) {
            return None;
        }
        let mut waited: BTreeSet<String> = BTreeSet::new();
        for o in others {
            for (k, obj) in self
                .stmts
                .get(&o.sid)
                .map(|s| self.calls_in(s))
                .unwrap_or_default()
            {
                if k.may_block() && k != Known::ThreadJoin {
                    waited.insert(obj);
                }
            }
            // A condition wait also waits for its mutex.
            if let Some(StmtKind::Expr(e)) = self.stmts.get(&o.sid).map(|s| &s.kind) {
                if let Some(ExprKind::Call(_, args)) = Some(&e.peel().kind) {
                    if let Some(ExprKind::AddrOf(x)) = args.get(1).map(|a| &a.peel().kind) {
                        waited.insert(self.lvalue_text(x));
                    }
                }
            }
        }
        let body = self
            .function_of(step.sid)
            .and_then(|f| self.normalized.funcs.get(f))
            .and_then(|f| f.body.as_ref())?;
        let (mut surely, mut maybe) = (false, false);
        crate::ir::visit::each_stmt(body, &mut |s| {
            if matches!(s.kind, StmtKind::Block(_)) {
                return;
            }
            let later = self
                .normalized
                .sources
                .position(s.loc)
                .is_some_and(|p| p.line > step.line);
            if !later {
                return;
            }
            for (k, obj) in self.calls_in(s) {
                match k {
                    Known::Other => maybe = true,
                    Known::MutexUnlock
                    | Known::CondSignal
                    | Known::CondBroadcast
                    | Known::SemPost
                    | Known::RwUnlock => surely |= waited.contains(&obj),
                    _ => {}
                }
            }
        });
        Some(if surely {
            JoinWakes::Surely
        } else if maybe {
            JoinWakes::Maybe
        } else {
            JoinWakes::Nothing
        })
    }
}

/// See [`Explainer::join_wakes`].
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) enum JoinWakes {
    Surely,
    Maybe,
    Nothing,
}

/// `a`, `b` for a list of locations, without the model's own names (the pointer an
/// atomic operation's model writes through): empty when no other is left.
fn quoted(vars: &[String]) -> String {
    vars.iter()
        .filter(|v| !crate::ir::internal::mentions_internal_name(v))
        .map(|v| format!("`{v}`"))
        .collect::<Vec<_>>()
        .join(", ")
}
