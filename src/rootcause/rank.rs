//! Ranking by cause, in three tiers:
//!
//! 1. Where the schedule must change: the candidates of the interleaving analyses
//!    (`locking`, `atomicity`, `ordering`), each a replay in which changing the schedule
//!    there, and only there, makes the failure go away — the boundary of a violated
//!    atomic region, the lock that does not exclude, the statement that ran too early.
//! 2. The accesses that raced: a candidate on a line of the differential projection — a
//!    read whose source changed between the failing and the closest passing run, or one
//!    of the two writes it read from.
//! 3. The other value candidates, which may only carry the failure's consequence (the
//!    assertion's own reads, copies into locals, `main`'s setup).
//!
//! An ordering candidate whose line touches nothing the projection's changes touch (its
//! accesses are not the flows that differ) comes after tier 2's accesses, before a whole
//! thread serialized.
//!
//! In tier 1, an atomicity boundary on a line that accesses no shared memory (a loop
//! header, a local update: a boundary only by position) comes after the others; a thread
//! creation to move after a join (the whole thread serialized, the bluntest repair) comes
//! after tier 2. Where a
//! thread blocks in a deadlock (`blocking`) is where the failure shows, not a cause, and
//! stays in tier 3 with the values.
//!
//! In tier 2, the earlier a change comes in the failing run, the higher its lines rank:
//! the first flow that differs is the divergence, later ones may be its consequences (a
//! read that saw another value takes another path, and what it writes then differs too).
//! A change between threads comes before a change within one thread. The projection's
//! accesses of changes between threads that no other analysis named are added (kind
//! `flow`): typically the write that came too late, which Griesmeyer's method cannot name
//! because the failing run never reached it before the check.
//!
//! A deadlock's own cause comes before everything else: a condition wait outside any
//! loop (`Role::BareWait`: a lost wake-up) or a `pthread_join` whose own code after it
//! would wake another blocked thread (`Role::JoinBeforeWake`: the join holds the
//! wake-up back; no lock order can be changed there, the join must move), then the
//! hold-and-wait (Coffman's condition
//! that every lock deadlock needs): where a thread took the lock it holds
//! (`Role::TookHeldLock`), then where it blocks for ever holding it
//! (`Role::HoldsWhileBlocked`). Where the lock was taken comes first because the fix is
//! most often to take it later or not at all (the scope of the lock). When the thread
//! blocks inside a function it called holding the lock (the second lock taken by a
//! callee), the call comes before both (`Role::CallWhileHolding`): the order of the two
//! locks crosses the call, which is what moves out of the section; of several such calls
//! (a cycle of helpers), the one of the thread that took its lock last, which closed the
//! cycle, first. After the
//! other values and blocked threads come a thread blocked in `pthread_join` that only
//! waits for the deadlock (`Role::Bystander`) and a changed thread handle
//! (`Role::ThreadHandle`: the library chooses it, no program change can).
//!
//! A block-scope `static` several threads use as scratch (`Role::SharedStatic`) and a
//! direct call of a `pthread_once` init routine the failing run entered more than once
//! (`Role::OnceBypassed`) rank with the deadlocks' own lines: each is the one place that
//! makes the code run shared (or twice) whatever the schedule.
//!
//! A missing lock comes next (`Role::Unprotected`, Eraser's lockset rule along the failing
//! run): a conflicting access around a necessary context switch made holding no lock,
//! while the other thread held one at its own access to the same location — a writer
//! that raises a waiter's predicate without the mutex the waiter tests it under (a lost
//! wake-up), an update beside a locked read-modify-write. The access without the lock is
//! where one was dropped, and the repair is to take it there; the region it broke into is
//! only where that shows. A thread that held the lock at its access but let it go before
//! the switch (a split section) is not taken for one.
//! An unlock made just before the thread's access of a location another thread accesses
//! holding that mutex (`Role::ReleasedEarly`) ranks with it: the access held another lock,
//! or none, and the unlock is what to move.
//!
//! A use before initialisation (`Role::StartedTooEarly`) comes next: a thread that
//! writes nothing of what it read, created before the write it needed was made — by its
//! creator after the creation (the closest passing run has the write first), or by a
//! sibling the ordering analysis showed must run first. Its `pthread_create` is where the
//! order is decided, then the call in the creator's own code that makes the write. A
//! thread that also writes what it read races instead (a lost update), and keeps the
//! other tiers. With it come two patterns the projection shows: a publication out of
//! order (`Role::PublishedEarly`: a reader tested a flag a thread wrote and then read
//! data that thread wrote only after the flag — both writes are named, the flag first,
//! the data write (`Role::PublishedData`) with the analyses' own lines) and a split
//! critical section (`Role::SplitSection`: a thread's check and its act on a location,
//! with an unlock and a lock of the same mutex between them in one function, and another
//! thread's access in the gap — the unlock and the lock are named).
//!
//! A value candidate on the one line a thread was preempted inside (`Role::SplitStatement`:
//! `sum += v` split between its read and its write) is that whole region, right after the
//! boundaries the analyses named. An order between two sections of one mutex
//! (`Role::OrderedSections`: the lock excluded them, only their order failed) is a
//! replay's word that either order may be meant: after the projection's lines, and never
//! taken for where the failure arises. A statement, or its thread's creation, that ran
//! before a thread that never ran at all (`Role::NeverRanFirst`) comes right after the
//! plain values: that thread's writes may only overwrite a wrong start value. But when
//! that statement is the test of a condition wait's loop (`Role::WaitTestLetThrough`),
//! the waiter went on although what it needed never happened: the wait's condition is
//! wrong, and it ranks with the waits guarded by `if`.
//!
//! Where a preempted thread that never ran again would have resumed (`Role::NotResumed`,
//! from the schedule) comes after the boundaries the run showed, before the boundaries
//! that are one only by position; inside a function its last step was calling, after
//! those (the call is the boundary in its own code).
//!
//! A boundary on a call whose callee holds the other boundary (the thread resumed inside
//! the function it was calling: `Role::CallBoundary`) counts as one that accesses what
//! conflicts — the call encloses the accesses — and the line inside the callee
//! (`Role::BoundaryInCallee`) comes right after the boundaries the thread's own code shows.
//!
//! An access inside a `__VERIFIER_atomic_*` function runs as one step with its call, so
//! the projection names the call site first (see `lifted`), the line inside after it.
//!
//! Otherwise the order of `diag::explain` stands (a stable sort); sets of lines come after
//! the single lines, and the failing check itself last — except that among the plain
//! values, the copies the failing assertion's thread made only after its last context
//! switch (the check's own reads, copies into locals, a helper reading for it) come after
//! the others. A value fault that every interleaving shows has no cause to rank it by;
//! such a copy only carried what the threads made.
//!
//! The head of the list is marked as where the failure arises (`Candidate::cause`, see
//! `mark_causes`): tier 0 when it has a line, otherwise the accesses of the projection's
//! first change. A user reads those few lines first; the report sets the others apart
//! as values that may only carry the failure (the ranking is the same either way).

use super::patterns::{
    local_sync_objects, published_early, reads_before_join, split_sections, started_before_init,
};
use super::{Event, FlowChange, Why};
use crate::cex::Counterexample;
use crate::diag::explain::{Candidate, CandidateKind, Explainer, Role, renumber, same_file};

/// `cands` re-ranked by cause, with the projection's accesses added when there is a
/// `why` (see the module comment). `failing` is the trace the projection's failing
/// events index.
pub fn by_cause(
    explainer: &Explainer,
    cands: Vec<Candidate>,
    why: Option<&Why>,
    failing: &Counterexample,
) -> Vec<Candidate> {
    let tail = check_tail(explainer, failing);
    let mut cands = cands;
    let mut own_copies: Vec<Candidate> = Vec::new();
    local_sync_objects(explainer, failing, &mut cands, &mut own_copies);
    cands.extend(own_copies);
    let Some(why) = why else {
        let mut out = cands;
        out.sort_by_key(|c| after_tail(tier(c, None), c, &tail));
        debug_tiers(&out, |c| tier(c, None));
        mark_causes(&mut out, |c| tier(c, None));
        for c in &mut out {
            c.plain_value = c.kind == CandidateKind::Value && tier(c, None) == PLAIN_VALUE;
        }
        renumber(&mut out);
        return out;
    };
    // Changes between threads first, each group in the failing run's order.
    let mut order: Vec<&FlowChange> = why.projection.iter().collect();
    order.sort_by_key(|c| (!c.inter_thread(), c.read.step));
    // Where a thread would have resumed is only the schedule's word; a write the
    // projection shows came too late is a run's: that line is named as the flow.
    cands.retain(|c| {
        !(matches!(c.role, Role::NotResumed | Role::NotResumedInCallee)
            && order.iter().any(|ch| {
                ch.inter_thread()
                    && ch
                        .lines()
                        .any(|(f, l)| l == c.line && same_file(f, &c.file))
            }))
    });
    let mut added: Vec<Candidate> = Vec::new();
    let outcome = explainer.outcome();
    let name = |e: &Event| {
        format!(
            "{}'s write at line {}",
            explainer.thread_name(e.thread),
            e.line
        )
    };
    let source = |e: &Option<Event>| e.as_ref().map(name).unwrap_or("the initial value".into());
    let lifted = |trace, e: &Event| lifted(explainer, trace, e);
    let fex = &why.failing_execution;
    for ch in order.iter().filter(|c| c.inter_thread()) {
        let r = &ch.read;
        let reader = format!(
            "{}'s read of `{}` at line {}",
            explainer.thread_name(r.thread),
            r.var,
            r.line
        );
        let passing = format!("in the closest passing run ({})", why.change);
        let events = [
            (
                lifted(failing, r),
                format!(
                    "{reader} saw {}; {passing} it sees {}, and {outcome}",
                    source(&ch.failing),
                    source(&ch.passing)
                ),
            ),
            (
                ch.failing.as_ref().and_then(|w| lifted(failing, w)),
                format!(
                    "this write reached {reader}; {passing} the read sees {} instead, and {outcome}",
                    source(&ch.passing)
                ),
            ),
            (
                ch.passing.as_ref().and_then(|w| lifted(&why.passing, w)),
                // A write made before the read in the failing run too was overwritten
                // in between; otherwise it came too late.
                if ch.passing.as_ref().is_some_and(|w| {
                    fex.find(&w.key)
                        .and_then(|i| fex.events.get(i))
                        .is_some_and(|e| e.step < r.step)
                }) {
                    format!(
                        "{reader} saw {}, made after this write; {passing} the read sees this write, and {outcome}",
                        source(&ch.failing)
                    )
                } else {
                    format!(
                        "this write came after {reader}, which saw {}; {passing} it comes first, and {outcome}",
                        source(&ch.failing)
                    )
                },
            ),
        ];
        for (step, hint) in events {
            if let Some(step) = step.filter(|s| s.line > 0) {
                explainer.push_step_candidate(&mut added, &cands, step, CandidateKind::Flow, &hint);
            }
        }
    }
    let started = started_before_init(explainer, why, failing, &order, &mut cands, &mut added);
    published_early(
        explainer, why, failing, &order, &started, &mut cands, &mut added,
    );
    super::handback::handed_back_early(explainer, why, failing, &order, &mut cands, &mut added);
    split_sections(explainer, why, &order, &mut cands, &mut added);
    reads_before_join(explainer, why, failing, &order, &mut cands, &mut added);
    // A change's call sites (see `lift`) rank before the lines inside the atomic
    // functions they call: index 2i for the first, 2i + 1 for the second.
    let on = |c: &Candidate, s: Option<&crate::cex::TraceStep>| {
        s.is_some_and(|s| s.line == c.line && same_file(&s.file, &c.file))
    };
    let first_change = |c: &Candidate| {
        order.iter().enumerate().find_map(|(i, ch)| {
            let sites = [
                lifted(failing, &ch.read),
                ch.failing.as_ref().and_then(|w| lifted(failing, w)),
                ch.passing.as_ref().and_then(|w| lifted(&why.passing, w)),
            ];
            if sites.into_iter().any(|s| on(c, s)) {
                Some(2 * i)
            } else if ch
                .lines()
                .any(|(f, l)| l == c.line && same_file(f, &c.file))
            {
                Some(2 * i + 1)
            } else {
                None
            }
        })
    };
    // What the projection's accesses touch, in the candidates' own names: an ordering
    // candidate that touches none of it is a replay's word that the order mattered, but
    // its own accesses are not the flows that differ (`acc->deposits` named where the
    // lost update is on `acc->balance`, two lines below in the same block): after the
    // accesses that raced.
    let mut touched: Vec<String> = Vec::new();
    for ch in order.iter().filter(|c| c.inter_thread()) {
        for (f, l) in ch.lines() {
            let (r, w) = explainer.accesses(f, l);
            touched.extend(r);
            touched.extend(w);
        }
    }
    let unrelated = |c: &Candidate| {
        c.kind == CandidateKind::Ordering
            && c.role == Role::Plain
            && !c.whole_thread
            && !touched.is_empty()
            && (!c.reads.is_empty() || !c.writes.is_empty())
            && !c.reads.iter().chain(&c.writes).any(|a| touched.contains(a))
    };
    // The threads that created a reader before they wrote what it needed (their
    // creation named, `Role::StartedTooEarly`): such a creator's own access made without
    // the reader's lock is that write itself, and a lock around it would not have made the
    // reader wait. The creation's order is the fault; the access comes after it.
    let creators: Vec<u32> = cands
        .iter()
        .chain(added.iter())
        .filter(|c| c.role == Role::StartedTooEarly && c.whole_thread)
        .flat_map(|c| c.threads.iter().map(|t| t.id))
        .collect();
    let creators_write = |c: &Candidate| {
        c.role == Role::Unprotected
            && !c.threads.is_empty()
            && c.threads.iter().all(|t| creators.contains(&t.id))
    };
    let key = |c: &Candidate| {
        if unrelated(c) {
            (1, usize::MAX - 1)
        } else if creators_write(c) {
            (0, 4)
        } else {
            tier(c, first_change(c))
        }
    };
    let mut out = cands;
    out.extend(added);
    out.sort_by_key(|c| after_tail(key(c), c, &tail));
    debug_tiers(&out, key);
    mark_causes(&mut out, key);
    let plain: Vec<bool> = out
        .iter()
        .map(|c| c.kind == CandidateKind::Value && key(c) == PLAIN_VALUE)
        .collect();
    for (c, p) in out.iter_mut().zip(plain) {
        c.plain_value = p;
    }
    renumber(&mut out);
    out
}

/// The tiers behind an order, for whoever tunes the ranking (as `SEQLOC_DEBUG_LOCALIZE`
/// shows the candidate loop's queries).
fn debug_tiers(out: &[Candidate], key: impl Fn(&Candidate) -> (u8, usize)) {
    if std::env::var_os("SEQLOC_DEBUG_RANK").is_some() {
        for c in out {
            eprintln!(
                "rank: line {} {:?} {:?} {:?}",
                c.line,
                c.kind,
                c.role,
                key(c)
            );
        }
    }
}

/// The tier of an order between two sections of one mutex (`Role::OrderedSections`):
/// after the projection's lines, never taken for where the failure arises.
const ORDERED_SECTIONS: (u8, usize) = (1, usize::MAX - 2);

/// The tier of the values that may only carry the failure (see the module comment).
const PLAIN_VALUE: (u8, usize) = (2, 0);

/// The lines of an assertion's failing run that its thread ran only in its last run of
/// steps, after the last context switch, and that only copy a value (see
/// `Explainer::only_copies`): the check's own reads, copies into locals, a helper's
/// `b = balance; return b;` — they see what the other threads left and decide nothing of
/// it. A line that computes there (an operator, a condition, a call) may be the fault
/// and is not one of them. Empty for a deadlock (where the last steps are where a thread
/// blocks, which has its own roles) and when the check's thread ran alone.
fn check_tail(explainer: &Explainer, failing: &Counterexample) -> Vec<(String, u32)> {
    use crate::cex::ViolationKind;
    if failing.violation.kind == ViolationKind::Deadlock {
        return Vec::new();
    }
    let Some(last) = failing.steps.last() else {
        return Vec::new();
    };
    let start = failing
        .steps
        .iter()
        .rposition(|s| s.thread != last.thread)
        .map_or(0, |i| i + 1);
    if start == 0 {
        return Vec::new();
    }
    let (before, tail) = failing.steps.split_at(start);
    let mut out: Vec<(String, u32)> = Vec::new();
    for s in tail {
        let ran_before = before
            .iter()
            .any(|b| b.line == s.line && same_file(&b.file, &s.file));
        if !ran_before
            && !out
                .iter()
                .any(|(f, l)| *l == s.line && same_file(f, &s.file))
            && explainer.only_copies(&s.file, s.line)
        {
            out.push((s.file.clone(), s.line));
        }
    }
    out
}

/// A plain value candidate on a line of the check's tail (see [`check_tail`]) comes after
/// the other plain values: the faulty value was most likely made where the threads ran,
/// and the check only carried it (a value fault every interleaving shows has no cause
/// to rank it by, so this order decides). Other tiers are unchanged.
fn after_tail(t: (u8, usize), c: &Candidate, tail: &[(String, u32)]) -> (u8, usize, bool) {
    let in_tail = t == (2, 0)
        && tail
            .iter()
            .any(|(f, l)| *l == c.line && same_file(f, &c.file));
    (t.0, t.1, in_tail)
}

/// Marks where the failure arises (`Candidate::cause`): the candidates of tier 0 —
/// where the schedule must change, a deadlock's own cause, the patterns the projection
/// shows. When no analysis names such a line, the accesses of the projection's first
/// change (the divergence between the failing and the closest passing run: the read and
/// the writes it saw or should have seen); the later changes may be its consequences.
/// `out` is sorted by tier, so the marked ones are the head of the list; the rest may
/// only carry the failure. With neither, nothing is marked: no cause was established.
fn mark_causes(out: &mut [Candidate], tier: impl Fn(&Candidate) -> (u8, usize)) {
    let tiers: Vec<(u8, usize)> = out.iter().map(&tier).collect();
    let schedule = tiers.iter().any(|t| t.0 == 0);
    // `first_change` numbers change i's sites 2i and the other lines on it 2i + 1.
    let divergence = tiers
        .iter()
        .filter(|t| t.0 == 1 && **t != ORDERED_SECTIONS)
        .map(|t| t.1 / 2)
        .min();
    for (c, t) in out.iter_mut().zip(tiers) {
        c.cause = t.0 == 0
            || (!schedule && t.0 == 1 && t != ORDERED_SECTIONS && Some(t.1 / 2) == divergence);
    }
}

/// The step that made `e`, or for an access inside a `__VERIFIER_atomic_*` function, the
/// call site: the call and its body are one indivisible step, so the call is where the
/// schedule can go another way (the last step of the same thread outside the function).
fn lifted<'t>(
    explainer: &Explainer,
    trace: &'t Counterexample,
    e: &Event,
) -> Option<&'t crate::cex::TraceStep> {
    let s = trace.steps.get(e.step)?;
    if !explainer.in_atomic_function(s.sid) {
        return Some(s);
    }
    trace
        .steps
        .get(..e.step)?
        .iter()
        .rev()
        .find(|p| p.thread == s.thread && p.line > 0 && !explainer.in_atomic_function(p.sid))
}

/// A candidate's place (see the module comment): tier, then the index of the first
/// projection change it takes part in.
fn tier(c: &Candidate, change: Option<usize>) -> (u8, usize) {
    if c.specification || c.set.is_some() {
        return (3, 0);
    }
    match c.role {
        // A deadlock's hold-and-wait is its cause: where the cycle closes first, then
        // where the lock it holds was taken.
        Role::BareWait
        | Role::JoinBeforeWake
        | Role::Relock
        | Role::CallWhileHolding
        | Role::SkippedWake
        | Role::SkippedUnlock
        | Role::WrongWake
        | Role::OwnCopy => {
            return (0, 0);
        }
        Role::TookHeldLock => return (0, 1),
        Role::HoldsWhileBlocked => return (0, 2),
        // After the other values and blocked threads: a join that only waits, and a
        // thread handle's value.
        Role::Bystander => return (2, 1),
        // A use before initialisation names where the order is decided.
        // A missing lock is the repair itself, before the order it lets happen; a lock
        // attempt that failed and freed another thread's section by its unlock, before
        // the accesses that then ran unprotected.
        Role::ForeignUnlock => return (0, 2),
        // A kept `trylock` result tested for some failures only: the test let this run's
        // failure through to the accesses the lock-set analysis names, before them.
        Role::TrylockLetThrough => return (0, 2),
        // An unlock of a free mutex: after the untested attempt that explains it.
        Role::FreeUnlock => return (0, 3),
        // A function's scratch shared by every call: the declaration is the repair, the
        // accesses only where the race shows.
        Role::SharedStatic | Role::OnceBypassed => return (0, 2),
        // A section ended while the thread still reads through a pointer it found there:
        // the repair extends that section, before a new one around the read.
        Role::EscapedPointer => return (0, 2),
        Role::Unprotected | Role::ReleasedEarly => return (0, 3),
        // The count a barrier was made with decides the order its waits force.
        Role::ShortBarrier => return (0, 3),
        Role::StartedTooEarly => return (0, if c.whole_thread { 3 } else { 4 }),
        // A stale test is where the split section's repair keeps both sections.
        Role::StaleTest => return (0, 3),
        // A wait the run woke from with nothing testing its condition again: a defect by
        // POSIX whatever the schedule, before the switches and orders it lets happen.
        Role::IfGuardedWait | Role::WaitTestLetThrough => return (0, 4),
        Role::PublishedEarly
        | Role::SplitSection
        | Role::ReadBeforeJoin
        | Role::HandedBackEarly
        | Role::DroppedExchange => return (0, 4),
        // The data written after the flag: the other end, with the analyses' own lines.
        Role::PublishedData => return (0, 5),
        Role::ThreadHandle if c.kind == CandidateKind::Value => return (2, 2),
        _ => {}
    }
    let touches = !(c.reads.is_empty() && c.writes.is_empty());
    match c.role {
        // One end of a violated region that was a value candidate first: after the
        // boundaries the analysis named itself.
        Role::AlsoBoundary if touches => return (0, 9),
        // The whole region on one line: right after the boundaries the analysis named.
        Role::SplitStatement if touches => return (0, 6),
        // Two sections of one mutex in the wrong order: the lock excluded them, and
        // either order may be what the program means (the check may be what is wrong).
        // A replay's word, not where the failure arises: after the projection's lines.
        Role::OrderedSections => return ORDERED_SECTIONS,
        // Before a thread that never ran: right after the plain values.
        Role::NeverRanFirst => return (2, 1),
        Role::CallBoundary => return (0, 5),
        Role::BoundaryInCallee => return (0, 6),
        Role::NotResumed if touches => return (0, 6),
        Role::NotResumedInCallee => return (0, 8),
        _ => {}
    }
    match (c.kind, change) {
        // An atomic region is made of shared accesses: a boundary on a line that makes
        // none (a loop header, a local update) is one only by position, after the
        // boundaries that access what conflicts.
        (CandidateKind::Atomicity, _) if !touches => (0, 7),
        // Starting a thread only after another is done removes every interleaving of the
        // two: a repair, but the bluntest; after the accesses that raced.
        (CandidateKind::Ordering, _) if c.whole_thread => (1, usize::MAX),
        (CandidateKind::Locking | CandidateKind::Atomicity | CandidateKind::Ordering, _) => (0, 5),
        (_, Some(i)) => (1, i),
        _ => PLAIN_VALUE,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn cand(line: u32, kind: CandidateKind, access: bool) -> Candidate {
        Candidate {
            reads: if access { vec!["x".into()] } else { vec![] },
            ..Candidate::on_line(line, kind)
        }
    }

    #[test]
    fn causes_rank_by_tier() {
        use CandidateKind::*;
        let mut spec = cand(40, Value, true);
        spec.specification = true;
        let mut cands = [
            spec,
            cand(30, Value, true),
            cand(31, Blocking, false),
            cand(20, Atomicity, false),
            cand(21, Atomicity, true),
            cand(22, Ordering, false),
            {
                let mut c = cand(23, Ordering, false);
                c.whole_thread = true;
                c
            },
        ];
        // Line 30 is on the projection's second change, 31 on none.
        let change = |c: &Candidate| (c.line == 30).then_some(1);
        cands.sort_by_key(|c| tier(c, change(c)));
        let lines: Vec<u32> = cands.iter().map(|c| c.line).collect();
        assert_eq!(lines, vec![21, 22, 20, 30, 23, 31, 40]);
        // Where a thread would have resumed: after the boundaries the run showed, before
        // those that are one only by position.
        let mut resumed = cand(25, Atomicity, true);
        resumed.role = Role::NotResumed;
        let mut more = [
            cand(24, Atomicity, false),
            resumed,
            cand(26, Atomicity, true),
        ];
        more.sort_by_key(|c| tier(c, None));
        let lines: Vec<u32> = more.iter().map(|c| c.line).collect();
        assert_eq!(lines, vec![26, 25, 24]);
        // A call whose callee holds the other boundary counts as touching what conflicts
        // (its callee does); the line inside comes after it. A use before initialisation
        // (the creation, then the call that makes the write), a publication out of order
        // and a split section come before the plain boundaries.
        let with = |line, kind, role: Role, whole: bool| {
            let mut c = cand(line, kind, false);
            c.role = role;
            c.whole_thread = whole;
            c
        };
        let mut calls = [
            cand(30, Atomicity, false),
            with(31, Atomicity, Role::BoundaryInCallee, false),
            cand(32, Atomicity, true),
            with(33, Atomicity, Role::CallBoundary, false),
            with(34, Atomicity, Role::SplitSection, false),
            with(35, Ordering, Role::StartedTooEarly, false),
            with(36, Ordering, Role::StartedTooEarly, true),
            with(37, Ordering, Role::PublishedEarly, false),
        ];
        calls.sort_by_key(|c| tier(c, None));
        let lines: Vec<u32> = calls.iter().map(|c| c.line).collect();
        assert_eq!(lines, vec![36, 34, 35, 37, 32, 33, 31, 30]);
        // The data a flag announced comes after the flag, whichever was named first;
        // a barrier's count comes with the missing locks.
        let mut published = [
            with(40, Flow, Role::PublishedData, false),
            with(41, Ordering, Role::PublishedEarly, false),
            with(42, Ordering, Role::ShortBarrier, false),
        ];
        published.sort_by_key(|c| tier(c, None));
        let lines: Vec<u32> = published.iter().map(|c| c.line).collect();
        assert_eq!(lines, vec![42, 41, 40]);
    }

    #[test]
    fn a_deadlock_ranks_its_hold_and_wait_first_and_its_bystanders_last() {
        use CandidateKind::*;
        let with = |line, kind, role| {
            let mut c = cand(line, kind, false);
            c.role = role;
            c
        };
        let mut cands = [
            with(54, Value, Role::ThreadHandle),
            with(55, Blocking, Role::Bystander),
            cand(60, Value, true),
            with(35, Value, Role::TookHeldLock),
            cand(42, Blocking, false),
            cand(44, Atomicity, true),
            with(38, Blocking, Role::HoldsWhileBlocked),
            with(47, Blocking, Role::BareWait),
            with(49, Blocking, Role::JoinBeforeWake),
        ];
        cands.sort_by_key(|c| tier(c, None));
        let lines: Vec<u32> = cands.iter().map(|c| c.line).collect();
        assert_eq!(lines, vec![47, 49, 35, 38, 44, 60, 42, 55, 54]);
        // The deadlock's own cause and the boundary are where it arises; the value, the
        // blocked thread, the bystander and the handle may only carry it.
        mark_causes(&mut cands, |c| tier(c, None));
        let causes: Vec<u32> = cands.iter().filter(|c| c.cause).map(|c| c.line).collect();
        assert_eq!(causes, vec![47, 49, 35, 38, 44]);
    }

    #[test]
    fn a_value_candidate_that_is_also_a_boundary_is_a_cause_after_the_named_ones() {
        use CandidateKind::*;
        let with = |line, kind, role: Role, access: bool| {
            let mut c = cand(line, kind, access);
            c.role = role;
            c
        };
        let mut cands = vec![
            cand(50, Value, true),
            with(47, Value, Role::AlsoBoundary, true),
            // A line without a shared access is no boundary of a region of accesses.
            with(46, Value, Role::AlsoBoundary, false),
            cand(48, Atomicity, true),
        ];
        cands.sort_by_key(|c| tier(c, None));
        mark_causes(&mut cands, |c| tier(c, None));
        let marked: Vec<(u32, bool)> = cands.iter().map(|c| (c.line, c.cause)).collect();
        assert_eq!(
            marked,
            vec![(48, true), (47, true), (50, false), (46, false)]
        );
    }

    #[test]
    fn causes_are_the_head_of_the_ranking_where_the_schedule_must_change_else_the_divergence() {
        use CandidateKind::*;
        let mut spec = cand(40, Value, true);
        spec.specification = true;
        let mut cands = vec![
            spec,
            cand(31, Value, true),
            cand(30, Value, true),
            cand(22, Ordering, false),
            cand(33, Blocking, false),
        ];
        // Line 30 is on the projection's first change: an access that raced.
        let change = |c: &Candidate| (c.line == 30).then_some(0);
        cands.sort_by_key(|c| tier(c, change(c)));
        mark_causes(&mut cands, |c| tier(c, change(c)));
        let marked: Vec<(u32, bool)> = cands.iter().map(|c| (c.line, c.cause)).collect();
        assert_eq!(
            marked,
            vec![
                (22, true),
                (30, false),
                (31, false),
                (33, false),
                (40, false)
            ]
        );
        // With no line where the schedule must change, the first change of the
        // projection is where the failure arises; a later change's access is not.
        let mut flows = vec![
            cand(31, Value, true),
            cand(30, Value, true),
            cand(35, Flow, true),
            cand(36, Value, true),
        ];
        let change = |c: &Candidate| match c.line {
            30 | 35 => Some(0),
            36 => Some(2),
            _ => None,
        };
        flows.sort_by_key(|c| tier(c, change(c)));
        mark_causes(&mut flows, |c| tier(c, change(c)));
        let marked: Vec<(u32, bool)> = flows.iter().map(|c| (c.line, c.cause)).collect();
        assert_eq!(
            marked,
            vec![(30, true), (35, true), (36, false), (31, false)]
        );
        // Without a projection or an analysis's line, nothing is marked: no cause was
        // established, and the report lists every candidate alike.
        let mut plain = vec![cand(31, Value, true), cand(32, Value, false)];
        mark_causes(&mut plain, |c| tier(c, None));
        assert!(plain.iter().all(|c| !c.cause));
    }
}
