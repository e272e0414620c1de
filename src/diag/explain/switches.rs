//! The context switches a failure needs (`diag::interleaving::NecessarySwitch`): a
//! thread preempted between two steps that only work as one. Where it was preempted is
//! rarely the repair by itself, so the switch is read with the locks around it — a
//! region to make one critical section, a lock missing on the other side, two sections
//! under different locks. Which of two locks the program means is its own belief, read
//! from how it uses each lock elsewhere (`lock_users`); only the switches ask that.

use std::collections::BTreeSet;

use super::interleaving::quoted;
use super::{Candidate, CandidateKind, Explainer, Role, before_specification, same_file};
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
    /// Other globals it is held around anywhere in the program, and other members it is
    /// held around through a pointer.
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
            // A thread preempted right after it created another, which then ran, with
            // nothing shared between the two runs: the switch only let the new thread
            // start (a schedule the failure needs, as any other order of the starts may
            // be), and "the creation and the next line need to run atomically" would
            // be no advice.
            // Likewise a thread preempted right as it left a barrier, when the run has
            // other regions: the barrier lets every thread go at once, so the switch
            // only placed the thread's next steps among the others' (inside another
            // thread's split update), and "the barrier and the next line need to run
            // atomically" would be no advice either.
            let after_barrier = |sw: &crate::diag::interleaving::NecessarySwitch| {
                sw.last.as_ref().is_some_and(|l| {
                    self.calls_on_line(l, &[crate::ir::known::Known::BarrierLeave])
                })
            };
            if after_barrier(sw) && switches.iter().any(|o| !after_barrier(o)) {
                continue;
            }
            if sw.conflicts.is_empty() && last.as_ref().is_some_and(|l| self.creates_on_line(l)) {
                continue;
            }
            // A thread preempted right after it created another that read what the
            // creator writes only after the creation: the new thread started before its
            // data was set up (an order violation), not a region that should be atomic.
            if let Some(l) = last.as_ref()
                && let Some((write, vars)) = self.set_up_after_creation(sw, l)
            {
                let creator = name(sw.thread);
                let created: Vec<String> = sw.between.iter().map(|t| name(*t)).collect();
                let created = created.join(", ");
                let what = quoted(&vars);
                let hint = format!(
                    "{creator} creates {created} here, before its own write of {what} at line {}: {created} ran at once and read it before that write; had {creator} created it after the write, {outcome} (an order violation: create it later, or make it wait)",
                    write.line
                );
                let write_hint = format!(
                    "{creator} writes {what} here, after it created {created} at line {}, which read it before this write; made before the creation, {outcome} (an order violation)",
                    l.line
                );
                for (step, hint, whole) in [(l, hint, true), (&write, write_hint, false)] {
                    self.push_step_candidate(
                        &mut extra,
                        &out,
                        step,
                        CandidateKind::Ordering,
                        &hint,
                    );
                    let on = |c: &Candidate| c.line == step.line && same_file(&c.file, &step.file);
                    for c in out.iter_mut().chain(extra.iter_mut()).filter(|c| on(c)) {
                        // The creation's line may hold the handle's value change: the
                        // order is what it says.
                        if c.specification
                            || c.set.is_some()
                            || !matches!(c.role, Role::Plain | Role::ThreadHandle)
                        {
                            continue;
                        }
                        c.role = Role::StartedTooEarly;
                        c.whole_thread = whole;
                        if c.kind != CandidateKind::Ordering {
                            c.kind = CandidateKind::Ordering;
                            c.hint = format!("{hint}; {}", c.hint);
                        }
                    }
                }
                continue;
            }
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
            // A compare-exchange whose result the thread drops (a statement of its own):
            // it goes on as if the exchange was made, though another thread's write came
            // between its test and it. Dropping the result is the fault, whatever region
            // it ends; the exchange is named first.
            for step in [&last, &sw.resume].into_iter().flatten() {
                if !self.drops_exchange_result(step) {
                    continue;
                }
                let words = format!(
                    "the result of this compare-exchange is dropped: {} goes on as if it made the exchange, though {others} changed the value in between; test the result and retry (or give up) when it fails",
                    name(sw.thread)
                );
                mark_exchange(out.iter_mut().chain(extra.iter_mut()), step, &words);
            }
            // An atomic load at the region's start and the thread's later atomic store
            // of the same object from it (`old = atomic_load(&s->top); n->next = old;
            // atomic_store(&s->top, n);`): each is one step, the update of the two is
            // not, and another thread's write came between them. The store is what
            // must become a compare-exchange against the loaded value.
            if let (Some(l), Some(r)) = (&last, &sw.resume)
                && !sw.conflicts.is_empty()
                && let Some((store, obj, load_line)) = self.store_after_load(l, r)
            {
                let words = format!(
                    "{} stores `{obj}` here from what it loaded at line {}, but {others} wrote it in between: an atomic load and a later atomic store are no atomic update; make this store a compare-exchange against the loaded value, and retry when it fails",
                    name(sw.thread),
                    load_line
                );
                let at = extra.len();
                self.push_step_candidate(
                    &mut extra,
                    &out,
                    &store,
                    CandidateKind::Atomicity,
                    &words,
                );
                if let Some(c) = extra.get_mut(at) {
                    c.role = Role::DroppedExchange;
                } else {
                    mark_exchange(out.iter_mut().chain(extra.iter_mut()), &store, &words);
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
                    .filter(|c| self.function_of(c.sid) == caller)
                    // A call that ran no step of its own shows only in the code.
                    .or_else(|| {
                        let c = self.call_before(o.sid, l.sid)?;
                        self.step_at(l.thread, c.id)
                    })
                    .filter(|_| caller.is_some() && self.function_of(l.sid) != caller);
                // Preempted inside one call, to go on inside the next: the two calls in
                // their caller are the region's ends in the thread's own code.
                let calls: Vec<crate::cex::TraceStep> = match call {
                    Some(call) => vec![call],
                    None => self
                        .sibling_calls(sw.thread, l.sid, o.sid)
                        .map(|(a, b)| {
                            [a, b]
                                .iter()
                                .filter_map(|s| self.step_at(sw.thread, s.id))
                                .collect()
                        })
                        .unwrap_or_default(),
                };
                let on = |c: &Candidate, s: &crate::cex::TraceStep| {
                    c.line == s.line && same_file(&c.file, &s.file)
                };
                if !calls.is_empty() {
                    for c in out.iter_mut().chain(extra.iter_mut()) {
                        if on(c, l)
                            && c.kind == CandidateKind::Atomicity
                            && !calls.iter().any(|call| on(c, call))
                        {
                            c.role = Role::BoundaryInCallee;
                        }
                    }
                }
                for call in &calls {
                    let mut named = false;
                    for c in out.iter_mut().chain(extra.iter_mut()) {
                        if on(c, call) && !c.specification && c.set.is_none() {
                            c.kind = CandidateKind::Atomicity;
                            c.role = Role::CallBoundary;
                            c.hint = hint.clone();
                            named = true;
                        }
                    }
                    if !named {
                        let before = extra.len();
                        self.push_step_candidate(
                            &mut extra,
                            &out,
                            call,
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
                // A lock taken from an array of locks by another index than the data it
                // guards (`bucket_lock[key % N]` around `counts[b]`) is the slip whatever
                // the counts say: a striped lock matches its stripe.
                // A lock that is a member of the object whose data it is held around
                // (`c->lock` around `c->hits`) is that object's own: the other is the
                // borrowed one, whatever the counts say.
                locks.sort_by_key(|l| {
                    let u = users_of(&users, &l.lock);
                    (
                        !stripe_mismatch(l),
                        l.access
                            .as_ref()
                            .is_some_and(|a| lock_of_the_same_object(&l.lock, &a.statement)),
                        u.functions,
                        std::cmp::Reverse(u.other_data),
                    )
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
                    Some((call, callee, witness)) if role == Role::Unprotected => {
                        let call_hint = match witness {
                            HelperLock::HolderInside => format!(
                                "{} calls `{callee}` here holding no lock; inside it, at line {}, it accesses {}, which {} accessed in the same function at line {} holding `{}` (taken in its caller): {} must hold `{}` around this call too",
                                name(u.thread),
                                u.step.line,
                                quoted(&u.variables),
                                name(u.holder),
                                u.holder_line,
                                u.lock,
                                name(u.thread),
                                u.lock
                            ),
                            HelperLock::CallerLocks(at) => format!(
                                "{} calls `{callee}` here before taking `{}` at line {at}; inside it, at line {}, it accesses {} holding no lock, which {} accessed under `{}` at line {}: the call belongs inside the section, after the lock",
                                name(u.thread),
                                u.lock,
                                u.step.line,
                                quoted(&u.variables),
                                name(u.holder),
                                u.lock,
                                u.holder_line
                            ),
                            HelperLock::CalledUnder(w) => format!(
                                "{} calls `{callee}` here holding no lock; inside it, at line {}, it accesses {}, which {} accessed holding `{}` at line {}; `{callee}` takes no lock itself, and {} calls it holding `{}` (line {}): {} must hold `{}` around this call too",
                                name(u.thread),
                                u.step.line,
                                quoted(&u.variables),
                                name(u.holder),
                                u.lock,
                                u.holder_line,
                                name(w.thread),
                                u.lock,
                                w.line,
                                name(u.thread),
                                u.lock
                            ),
                        };
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
                        } else {
                            // The call already ends a region the failure needs preempted
                            // (the check before the lock): the missing lock says why.
                            let on_call = |c: &Candidate| {
                                c.line == call.line && same_file(&c.file, &call.file)
                            };
                            for c in out.iter_mut().chain(extra.iter_mut()).filter(|c| {
                                on_call(c)
                                    && !c.specification
                                    && c.set.is_none()
                                    && matches!(c.role, Role::Plain | Role::CallBoundary)
                                    && c.kind != CandidateKind::Ordering
                            }) {
                                c.kind = CandidateKind::Locking;
                                c.role = Role::Unprotected;
                                c.hint = call_hint.clone();
                            }
                        }
                        Role::Plain
                    }
                    _ => role,
                };
                if role == Role::Unprotected
                    && let Some((test, try_line)) = self.trylock_let_through(u)
                {
                    let test_hint = format!(
                        "{who}'s `trylock` of `{lock}` at line {try_line} failed ({holder} held it), and this test of its result let {who} go on: at line {at} {who} accessed {vars} without the lock, which {holder} accessed under `{lock}` at line {held}; the test must turn back on every failure (any non-zero result), not only on the ones it names",
                        who = name(u.thread),
                        lock = u.lock,
                        holder = name(u.holder),
                        at = u.step.line,
                        vars = quoted(&u.variables),
                        held = u.holder_line,
                    );
                    self.name_foreign(
                        &mut out,
                        &mut extra,
                        &test,
                        &test_hint,
                        Role::TrylockLetThrough,
                    );
                }
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
    /// helper takes no lock of that name itself and another thread ran it holding the
    /// lock (taken in its caller): the holder's own access in the helper, or another
    /// thread's call of it made inside a section of the lock (`jobq_finish_one` called
    /// under `jq->lock` by the runner). This thread's call is where the lock is missing.
    /// With the callee's name, and the other thread's call when the holder's access was
    /// elsewhere.
    fn unlocked_call(
        &self,
        u: &crate::diag::interleaving::Unprotected,
    ) -> Option<(crate::cex::TraceStep, String, HelperLock)> {
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
        let call = self.outer_call(&u.step)?;
        let callee = self.normalized.funcs.get(f)?.name.clone();
        if holder_here {
            return Some((call, callee, HelperLock::HolderInside));
        }
        let steps = &self.cex.steps;
        let held = crate::diag::interleaving::locks_held(steps);
        let inside = steps.iter().enumerate().find(|(i, s)| {
            s.thread != u.thread
                && self.function_of(s.sid) == Some(f)
                && held
                    .get(*i)
                    .and_then(|h| h.get(&s.thread))
                    .is_some_and(|locks| locks.iter().any(|(l, _)| *l == u.lock))
        });
        if let Some(w) = inside.and_then(|(_, s)| self.outer_call(s)) {
            return Some((call, callee, HelperLock::CalledUnder(w)));
        }
        // The caller takes the lock itself for the accesses the holder made there (`book`
        // checks `has_room(ev, ..)` and only then locks `ev->m` to take the seats): the
        // check through the call belongs in that section.
        let g = self.function_of(call.sid)?;
        let line_in_g = |want: &dyn Fn(&Stmt) -> bool| {
            self.stmts
                .iter()
                .filter(|(id, st)| self.function_of(**id) == Some(g) && want(st))
                .filter_map(|(_, st)| self.normalized.sources.position(st.loc))
                .filter(|p| same_file(p.file, &call.file))
                .map(|p| p.line)
                .min()
        };
        let holder_in_g = line_in_g(&|st: &Stmt| {
            self.normalized
                .sources
                .position(st.loc)
                .is_some_and(|p| p.line == u.holder_line)
        })
        .is_some();
        let locks = line_in_g(&|st: &Stmt| {
            self.lock_call(st)
                .is_some_and(|(name, obj)| obj == u.lock && name.ends_with("_lock"))
        })?;
        holder_in_g.then_some((call, callee, HelperLock::CallerLocks(locks)))
    }

    /// The statement of `step` reads and writes no shared location.
    fn touches_nothing_shared(&self, step: &crate::cex::TraceStep) -> bool {
        self.stmt_access(step.sid)
            .is_some_and(|(r, w)| r.is_empty() && w.is_empty())
    }

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
        // Data reached through a pointer (`l->count` in a helper handed `&lg`) is told by
        // its member: `lg.count` is wanted as `count` there.
        let wanted_members: BTreeSet<String> = vars.iter().filter_map(|v| member_of(v)).collect();
        // A member of a global struct (`inv.stock[]`) is told apart from the struct's other
        // members (`inv.log_entries`, guarded by another lock): per global, the members
        // wanted, unless the whole global is.
        let mut whole: BTreeSet<&str> = BTreeSet::new();
        let mut in_struct: std::collections::BTreeMap<String, BTreeSet<String>> =
            Default::default();
        for v in vars {
            let root = v.split('.').next().unwrap_or(v).trim_end_matches("[]");
            match v.split_once('.').and_then(|(_, rest)| {
                let m = rest.split(['.', '[']).next().unwrap_or_default();
                (!m.is_empty() && !root.contains(['-', '*', '['])).then_some(m)
            }) {
                Some(m) => {
                    in_struct
                        .entry(root.to_string())
                        .or_default()
                        .insert(m.to_string());
                }
                None => {
                    whole.insert(root);
                }
            }
        }
        in_struct.retain(|g, _| !whole.contains(g.as_str()));
        // The program's functions that touch the data, and those that call them: a call
        // made holding a lock touches what its callee does.
        let direct: std::collections::HashSet<usize> = self
            .normalized
            .funcs
            .iter()
            .enumerate()
            .filter(|(_, f)| {
                f.body.as_ref().is_some_and(|b| {
                    let mut n = Names::new(self.normalized, &wanted, &wanted_members, None);
                    n.in_struct = &in_struct;
                    crate::ir::visit::walk_stmt(&mut n, b);
                    n.hit
                })
            })
            .map(|(i, _)| i)
            .collect();
        let mut touching: std::collections::HashSet<usize> = Default::default();
        for f in &direct {
            touching.extend(self.reaching(*f));
        }
        let mut users: std::collections::BTreeMap<String, BTreeSet<usize>> = Default::default();
        let mut others: std::collections::BTreeMap<String, BTreeSet<String>> = Default::default();
        // Per acquisition statement: the other globals its section touches.
        let mut sections = Sections::default();
        for (fi, f) in self.normalized.funcs.iter().enumerate() {
            let Some(body) = &f.body else { continue };
            let mut held: Vec<(String, StmtId)> = Vec::new();
            crate::ir::visit::each_stmt(body, &mut |s| {
                // The statement's own expressions: a branch's condition, not its body.
                let names = |visit: &dyn Fn(&mut Names)| {
                    let mut n =
                        Names::new(self.normalized, &wanted, &wanted_members, Some(&touching));
                    n.in_struct = &in_struct;
                    visit(&mut n);
                    (n.hit, n.other, n.other_members)
                };
                let touches_in = |st: &Stmt| names(&|n| crate::ir::visit::walk_stmt(n, st));
                let condition = |cond: &Expr| names(&|n| crate::ir::visit::walk_expr(n, cond));
                let (touches, other, other_members) = match &s.kind {
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
                            (false, BTreeSet::new(), BTreeSet::new())
                        } else {
                            touches_in(s)
                        }
                    }
                    StmtKind::Decl { .. } | StmtKind::Return(_) => touches_in(s),
                    StmtKind::If { cond, .. } | StmtKind::While { cond, .. } => condition(cond),
                    _ => (false, BTreeSet::new(), BTreeSet::new()),
                };
                for (h, at) in &held {
                    if touches {
                        users.entry(h.clone()).or_default().insert(fi);
                    }
                    let theirs = others.entry(h.clone()).or_default();
                    theirs.extend(other.iter().map(|v| format!("#{}", v.0)));
                    theirs.extend(other_members.iter().map(|m| format!(".{m}")));
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
}

/// The names of the globals a statement touches, and the members it touches through a
/// pointer, for [`Explainer::lock_users`]: whether one is wanted (or a call reaches a
/// function in `calls`), and the others.
struct Names<'p> {
    prog: &'p Program,
    wanted: &'p BTreeSet<&'p str>,
    wanted_members: &'p BTreeSet<String>,
    calls: Option<&'p std::collections::HashSet<usize>>,
    /// Globals of which only some members are wanted, with those members.
    in_struct: &'p std::collections::BTreeMap<String, BTreeSet<String>>,
    hit: bool,
    other: BTreeSet<VarId>,
    other_members: BTreeSet<String>,
}

static NO_STRUCTS: std::sync::LazyLock<std::collections::BTreeMap<String, BTreeSet<String>>> =
    std::sync::LazyLock::new(Default::default);

impl<'p> Names<'p> {
    fn new(
        prog: &'p Program,
        wanted: &'p BTreeSet<&'p str>,
        wanted_members: &'p BTreeSet<String>,
        calls: Option<&'p std::collections::HashSet<usize>>,
    ) -> Self {
        Names {
            prog,
            wanted,
            wanted_members,
            calls,
            in_struct: &NO_STRUCTS,
            hit: false,
            other: BTreeSet::new(),
            other_members: BTreeSet::new(),
        }
    }
}

impl crate::ir::visit::Visitor for Names<'_> {
    fn visit_expr(&mut self, x: &Expr) {
        match &x.kind {
            ExprKind::Var(v) => {
                let var = self.prog.var(*v);
                if var.kind == VarKind::Global {
                    if self.wanted.contains(var.shown_name()) {
                        self.hit = true;
                    } else if !crate::ir::internal::is_internal_name(&var.name) {
                        self.other.insert(*v);
                    }
                }
            }
            ExprKind::Member(base, idx)
                if let ExprKind::Var(v) = base.peel().kind
                    && let Some(members) = self.in_struct.get(self.prog.var(v).shown_name())
                    && self.prog.var(v).kind == VarKind::Global =>
            {
                let name = match base.ty.resolve(&self.prog.types) {
                    crate::ir::Type::Comp(c) => self
                        .prog
                        .types
                        .comp(*c)
                        .fields
                        .get(*idx)
                        .and_then(|f| f.name.clone()),
                    _ => None,
                };
                match name {
                    Some(name) if members.contains(&name) => self.hit = true,
                    Some(name) => {
                        self.other_members.insert(name);
                    }
                    // A member without a name: taken as the whole struct.
                    None => self.hit = true,
                }
                // The struct itself is not touched whole here.
                return;
            }
            ExprKind::Member(base, idx) if matches!(base.peel().kind, ExprKind::Deref(_)) => {
                let name = match base.ty.resolve(&self.prog.types) {
                    crate::ir::Type::Comp(c) => self
                        .prog
                        .types
                        .comp(*c)
                        .fields
                        .get(*idx)
                        .and_then(|f| f.name.clone()),
                    _ => None,
                };
                if let Some(name) = name {
                    if self.wanted_members.contains(&name) {
                        self.hit = true;
                    } else {
                        self.other_members.insert(name);
                    }
                }
            }
            ExprKind::Call(f, _) => {
                if let (ExprKind::Func(g), Some(calls)) = (&f.peel().kind, self.calls) {
                    self.hit |= calls.contains(&(g.0 as usize));
                }
            }
            _ => {}
        }
        crate::ir::visit::walk_expr(self, x)
    }
}

/// The member a location text names last (`count` of `lg.count`, `l->count`; `recs` of
/// `lg.recs[]` and `l->recs[i]`), if any.
fn member_of(v: &str) -> Option<String> {
    let cut = v
        .rfind("->")
        .map(|i| i + 2)
        .or_else(|| v.rfind('.').map(|i| i + 1))?;
    let m = v[cut..].split('[').next().unwrap_or_default();
    (!m.is_empty()).then(|| m.to_string())
}

/// The lock is a member of an object (`c->lock`, `pool.mu`) the statement also reaches a
/// member of (`c->hits++`): the object's own lock.
fn lock_of_the_same_object(lock: &str, statement: &str) -> bool {
    let lock = lock.trim().trim_start_matches('&');
    let Some(cut) = lock.rfind("->").or_else(|| lock.rfind('.')) else {
        return false;
    };
    let base = lock[..cut].trim();
    let own = lock[cut..].trim_start_matches("->").trim_start_matches('.');
    if base.is_empty() || !base.chars().all(|c| c.is_alphanumeric() || c == '_') {
        return false;
    }
    let ident = |c: char| c.is_alphanumeric() || c == '_';
    statement.match_indices(base).any(|(i, _)| {
        let before = statement[..i].chars().next_back();
        let rest = &statement[i + base.len()..];
        let member = rest
            .strip_prefix("->")
            .or_else(|| rest.strip_prefix('.'))
            .map(|m| m.split(|c: char| !ident(c)).next().unwrap_or_default());
        !before.is_some_and(ident) && member.is_some_and(|m| !m.is_empty() && m != own)
    })
}

/// `users`' entry for `lock`; else, for a lock written through another name of the same
/// object (`lg.ring_mu` where the code says `l->ring_mu`), the one entry with its member.
fn users_of(users: &std::collections::BTreeMap<String, LockUsers>, lock: &str) -> LockUsers {
    if let Some(u) = users.get(lock) {
        return *u;
    }
    let Some(m) = member_of(lock) else {
        return LockUsers::default();
    };
    let mut same = users
        .iter()
        .filter(|(k, _)| member_of(k).as_deref() == Some(m.as_str()));
    match (same.next(), same.next()) {
        (Some((_, u)), None) => *u,
        _ => LockUsers::default(),
    }
}

/// The lock is an element of an array of locks (`bucket_lock[key % N]`) and its access
/// indexes data by other indices only (`counts[b] += n`): the lock's stripe is not the
/// data's.
fn stripe_mismatch(l: &crate::diag::interleaving::LockUse) -> bool {
    fn indices(text: &str) -> Vec<String> {
        let mut out = Vec::new();
        let mut depth = 0usize;
        let mut start = 0;
        for (i, c) in text.char_indices() {
            match c {
                '[' => {
                    if depth == 0 {
                        start = i + 1;
                    }
                    depth += 1;
                }
                ']' if depth > 0 => {
                    depth -= 1;
                    if depth == 0 {
                        let idx: String = text[start..i].split_whitespace().collect();
                        if !idx.is_empty() {
                            out.push(idx);
                        }
                    }
                }
                _ => {}
            }
        }
        out
    }
    let Some(access) = &l.access else {
        return false;
    };
    let mine = indices(&l.lock);
    let theirs = indices(&access.statement);
    let constant = |i: &String| i.chars().all(|c| c.is_ascii_digit());
    !mine.is_empty()
        && !theirs.is_empty()
        && !mine.iter().any(constant)
        && !theirs.iter().any(constant)
        && !mine.iter().any(|i| theirs.contains(i))
}

impl Explainer<'_> {
    /// For a switch right after `last`, a thread creation whose new threads ran in
    /// between: the creator's first write, after it resumed and before its next switch,
    /// of a location those threads read in between, with the locations. `None` when the
    /// creator wrote none of what they read (they may have been meant to start then).
    /// Whether `step` creates a thread, or is the rest of a line that does (the test of
    /// `if (pthread_create(..) != 0)` runs as a step of its own after the call).
    fn creates_on_line(&self, step: &crate::cex::TraceStep) -> bool {
        step.statement.contains("pthread_create(")
            || step.statement.contains("thrd_create(")
            || self.calls_on_line(step, &[crate::ir::known::Known::ThreadCreate])
    }

    /// Whether `step`'s line is a compare-exchange made as a statement of its own, its
    /// result dropped (`atomic_compare_exchange_strong(&o, &e, d);`).
    fn drops_exchange_result(&self, step: &crate::cex::TraceStep) -> bool {
        let Some(text) = self.normalized.sources.source_line(step.loc) else {
            return false;
        };
        let text = text.trim();
        let calls = [
            "atomic_compare_exchange_",
            "__atomic_compare_exchange",
            "__sync_bool_compare_and_swap",
        ];
        calls.iter().any(|c| text.starts_with(c))
            && text.ends_with(");")
            && text.matches(';').count() == 1
    }

    /// The thread's latest atomic load of an object (its source line `x =
    /// atomic_load(&o);`) up to `last`, and its next atomic store of the same object from
    /// `resume` on, all in one function: the store's step, the object's text and the
    /// load's line.
    fn store_after_load(
        &self,
        last: &crate::cex::TraceStep,
        resume: &crate::cex::TraceStep,
    ) -> Option<(crate::cex::TraceStep, String, u32)> {
        let first_arg = |step: &crate::cex::TraceStep, calls: &[&str]| -> Option<String> {
            let text = self.normalized.sources.source_line(step.loc)?;
            calls.iter().find_map(|c| {
                let rest = text.split(c).nth(1)?;
                let arg: String = rest
                    .split([',', ')'])
                    .next()?
                    .chars()
                    .filter(|ch| !ch.is_whitespace())
                    .collect();
                (!arg.is_empty()).then_some(arg)
            })
        };
        const LOADS: [&str; 3] = ["atomic_load(", "atomic_load_explicit(", "__atomic_load_n("];
        const STORES: [&str; 3] = [
            "atomic_store(",
            "atomic_store_explicit(",
            "__atomic_store_n(",
        ];
        let f = self.function_of(last.sid)?;
        let steps = &self.cex.steps;
        let t = resume.thread;
        let from = steps
            .iter()
            .position(|s| s.thread == t && s.sid == resume.sid)?;
        let until = steps
            .iter()
            .take(from)
            .rposition(|s| s.thread == t && s.sid == last.sid)?;
        // The thread's latest atomic load before the switch, in the same function.
        let (load, obj) = steps
            .iter()
            .take(until + 1)
            .rev()
            .filter(|s| s.thread == t)
            .take_while(|s| self.function_of(s.sid) == Some(f))
            .find_map(|s| first_arg(s, &LOADS).map(|o| (s, o)))?;
        let store = steps
            .iter()
            .skip(from)
            .filter(|s| s.thread == t)
            .take_while(|s| self.function_of(s.sid) == Some(f))
            .find(|s| first_arg(s, &STORES).is_some_and(|o| o == obj))?;
        Some((
            store.clone(),
            obj.trim_start_matches('&').to_string(),
            load.line,
        ))
    }

    /// Whether a statement on `step`'s line calls one of `kinds`.
    fn calls_on_line(
        &self,
        step: &crate::cex::TraceStep,
        kinds: &[crate::ir::known::Known],
    ) -> bool {
        self.stmts.values().any(|st| {
            self.normalized
                .sources
                .position(st.loc)
                .is_some_and(|p| p.line == step.line && same_file(p.file, &step.file))
                && !matches!(st.kind, StmtKind::Block(_))
                && self.calls_in(st).iter().any(|(k, _)| kinds.contains(k))
        })
    }

    fn set_up_after_creation(
        &self,
        sw: &crate::diag::interleaving::NecessarySwitch,
        last: &crate::cex::TraceStep,
    ) -> Option<(crate::cex::TraceStep, Vec<String>)> {
        if !self.creates_on_line(last) || sw.conflicts.is_empty() || sw.between.is_empty() {
            return None;
        }
        let steps = &self.cex.steps;
        // The creation's step: the creator's step on its line right before another
        // thread's.
        let at = steps.iter().enumerate().position(|(i, s)| {
            s.thread == sw.thread
                && s.sid == last.sid
                && steps.get(i + 1).is_some_and(|n| n.thread != sw.thread)
        })?;
        let back = steps
            .iter()
            .skip(at + 1)
            .position(|s| s.thread == sw.thread)
            .map(|k| at + 1 + k)?;
        let mut read: BTreeSet<String> = BTreeSet::new();
        for s in steps.get(at + 1..back)? {
            if sw.between.contains(&s.thread) {
                read.extend(self.thread_accesses(s).0);
            }
        }
        let block: Vec<&crate::cex::TraceStep> = steps
            .get(back..)?
            .iter()
            .take_while(|s| s.thread == sw.thread)
            .collect();
        // A write the creator announces (a signal, a broadcast or a post after it in its
        // function, read from the code: a trace may end before it) is a hand-over the new
        // thread was meant to wait for: its start was not too early.
        let announced = |w: &crate::cex::TraceStep| {
            let f = self.function_of(w.sid);
            self.stmts.values().any(|st| {
                self.function_of(st.id) == f
                    && self
                        .normalized
                        .sources
                        .position(st.loc)
                        .is_some_and(|p| p.line > w.line)
                    && self.calls_in(st).iter().any(|(k, _)| {
                        matches!(
                            k,
                            crate::ir::known::Known::CondSignal
                                | crate::ir::known::Known::CondBroadcast
                                | crate::ir::known::Known::SemPost
                        )
                    })
            })
        };
        for s in block {
            let written: Vec<String> = self
                .thread_accesses(s)
                .1
                .into_iter()
                .filter(|w| read.contains(w) && sw.conflicts.contains(w))
                .collect();
            if !written.is_empty() {
                return (!announced(s)).then(|| (s.clone(), written));
            }
        }
        None
    }
}

/// Why a helper's access made without a lock is the call's fault (see `unlocked_call`).
enum HelperLock {
    /// The holder's own access is in the helper, with the lock taken in its caller.
    HolderInside,
    /// Another thread called the helper holding the lock: that call.
    CalledUnder(crate::cex::TraceStep),
    /// The caller takes the lock itself, at this line, around the holder's accesses.
    CallerLocks(u32),
}

/// Names the candidates on `step`'s line as the compare-exchange to fix (a dropped
/// result, or a store that must become one), with `words` before what they said.
fn mark_exchange<'c>(
    cands: impl Iterator<Item = &'c mut Candidate>,
    step: &crate::cex::TraceStep,
    words: &str,
) {
    for c in cands {
        if c.line == step.line
            && same_file(&c.file, &step.file)
            && !c.specification
            && c.set.is_none()
        {
            c.kind = CandidateKind::Atomicity;
            c.role = Role::DroppedExchange;
            c.hint = format!("{words}; {}", c.hint);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::stripe_mismatch;
    use crate::cex::TraceStep;
    use crate::diag::interleaving::LockUse;
    use crate::ir::{Loc, StmtId};

    fn lock_around(lock: &str, access: &str) -> LockUse {
        let step = |statement: &str| TraceStep {
            thread: 1,
            loc: Loc(0),
            sid: StmtId::NONE,
            file: "p.c".into(),
            line: 1,
            statement: statement.into(),
            writes: vec![],
        };
        let mut l = LockUse::at(1, lock, &step(&format!("pthread_mutex_lock(&{lock})")));
        l.access = Some(step(access));
        l
    }

    #[test]
    fn a_lock_of_the_object_whose_member_is_accessed_is_its_own() {
        use super::lock_of_the_same_object as own;
        assert!(own("c->lock", "c->hits = c->hits + 1"));
        assert!(own("&pool.mu", "pool.count++"));
        assert!(!own("stats.lock", "c->hits = c->hits + 1"));
        assert!(!own("c->lock", "sc->hits++"));
        assert!(!own("c->lock", "pthread_mutex_lock(&c->lock)"));
        assert!(!own("m", "c->hits++"));
    }

    #[test]
    fn a_striped_lock_by_another_index_than_its_data_is_the_odd_one() {
        assert!(stripe_mismatch(&lock_around(
            "bucket_lock[key % 4]",
            "counts[b] += n"
        )));
        assert!(!stripe_mismatch(&lock_around(
            "bucket_lock[b]",
            "counts[b]++"
        )));
        assert!(!stripe_mismatch(&lock_around(
            "bucket_lock[ b ]",
            "counts[b]++"
        )));
        // Not an array of locks, or data not indexed, or constant stripes: no word.
        assert!(!stripe_mismatch(&lock_around("m", "counts[b]++")));
        assert!(!stripe_mismatch(&lock_around("locks[i]", "total += 1")));
        assert!(!stripe_mismatch(&lock_around("locks[0]", "data[1] = 2")));
    }
}
