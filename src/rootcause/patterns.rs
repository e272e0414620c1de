//! The patterns the projection shows, each naming the statements a repair would change
//! (see `rank`'s module comment for where they rank): a reader started before the write
//! it needed, a publication out of order, a critical section split between check and
//! act, a read made before the join of the thread whose write it needed, and a
//! synchronization object each thread has its own copy of.

use super::{Event, FlowChange, Why};
use crate::cex::Counterexample;
use crate::diag::explain::{Candidate, CandidateKind, Explainer, Role, same_file};
use crate::ir::StmtId;

/// A use before initialisation by the creator (see `Role::StartedTooEarly`): a thread
/// that writes nothing of what it read, created by the thread whose write the closest
/// passing run lets it read, which that thread made only after the creation. The
/// creation decides the order: it is named, and when the write is made inside a call, the
/// call in the creator's own code after the creation (which would move before it).
pub(super) fn started_before_init(
    explainer: &Explainer,
    why: &Why,
    failing: &Counterexample,
    order: &[&FlowChange],
    cands: &mut [Candidate],
    added: &mut Vec<Candidate>,
) -> Vec<u32> {
    use crate::diag::ordering::creation_index;
    let outcome = explainer.outcome();
    let mut readers: Vec<u32> = Vec::new();
    for ch in order.iter().filter(|c| c.inter_thread()) {
        let r = &ch.read;
        let Some(w) = &ch.passing else { continue };
        if w.thread == r.thread
            || readers.contains(&r.thread)
            || why.writers.contains(&(r.var.clone(), r.thread))
        {
            continue;
        }
        let made_after_creation = creation_index(&why.passing.steps, r.thread)
            .and_then(|i| why.passing.steps.get(i).map(|s| (i, s)))
            .is_some_and(|(i, s)| s.thread == w.thread && i < w.step);
        let Some(create) = creation_index(&failing.steps, r.thread)
            .and_then(|i| failing.steps.get(i))
            .filter(|s| s.thread == w.thread && s.line > 0)
        else {
            continue;
        };
        if !made_after_creation {
            continue;
        }
        let Some(write) = why.passing.steps.get(w.step) else {
            continue;
        };
        readers.push(r.thread);
        let creator = explainer.thread_name(w.thread);
        let reader = explainer.thread_name(r.thread);
        let call = explainer
            .call_towards(create.sid, write.sid)
            .and_then(|st| explainer.step_at(w.thread, st.id));
        let via = call
            .as_ref()
            .map(|c| format!(" (made inside the call at line {})", c.line))
            .unwrap_or_default();
        let hint = format!(
            "{creator} creates {reader} here, before its own write of `{}` at line {}{via}; {reader} reads it at line {} and never writes it, so it used it before it was set: had {creator} created {reader} after that write, {outcome} (an order violation: create it later, or make it wait)",
            r.var, w.line, r.line
        );
        let call_hint = format!(
            "this call makes {creator}'s write of `{}` at line {}, which {reader} (created at line {}) needed before its read at line {}: had it come before the creation, {outcome} (an order violation)",
            r.var, w.line, create.line, r.line
        );
        for (step, hint) in [Some((create, hint)), call.as_ref().map(|c| (c, call_hint))]
            .into_iter()
            .flatten()
        {
            let named = Named {
                kind: CandidateKind::Ordering,
                role: Role::StartedTooEarly,
                whole_thread: std::ptr::eq(step, create),
                hint,
            };
            // A value change of the handle or of the call's result says less than the
            // order does.
            name_step(explainer, cands, added, step, named, |c| {
                (!c.specification && c.set.is_none()).then_some(true)
            });
        }
    }
    readers
}

/// A publication out of order (see `Role::PublishedEarly`): a read that saw an old value
/// of a location another thread writes later, although the same reader had already seen
/// and tested a later write of that thread to another location (a flag, a count) — the
/// writer made the second write visible before the first. Both writes are named, in program order.
/// A write the writer made before it created the reader hands over a start value, it
/// publishes nothing, and does not count.
pub(super) fn published_early(
    explainer: &Explainer,
    why: &Why,
    failing: &Counterexample,
    order: &[&FlowChange],
    started: &[u32],
    cands: &mut [Candidate],
    added: &mut Vec<Candidate>,
) {
    use crate::diag::interleaving::locks_held;
    use crate::diag::ordering::creation_index;
    let outcome = explainer.outcome();
    let fex = &why.failing_execution;
    let mut named: Vec<(u32, u32)> = Vec::new();
    let mut held_f = None;
    let mut held_p = None;
    let mut ptr_f = None;
    let mut ptr_p = None;
    for ch in order.iter().filter(|c| c.inter_thread()) {
        let r = &ch.read;
        let Some(late) = &ch.passing else { continue };
        let writer = late.thread;
        // A reader started too early is explained by its creation already.
        if writer == r.thread
            || started.contains(&r.thread)
            || ch.failing.as_ref().is_some_and(|f| f.thread != writer)
        {
            continue;
        }
        // The late write did not happen before the read in the failing run.
        if fex
            .find(&late.key)
            .and_then(|i| fex.events.get(i))
            .is_some_and(|e| e.step < r.step)
        {
            continue;
        }
        let created = creation_index(&failing.steps, r.thread);
        let handed_over = |e: &Event| {
            e.thread
                == failing
                    .steps
                    .get(created.unwrap_or(0))
                    .map_or(u32::MAX, |s| s.thread)
                && created.is_some_and(|c| e.step < c)
        };
        // Of the writer's writes to other locations the reader saw before, the last one
        // the writer made: everything it wrote before that was visible anyway.
        let seen_from: Vec<(&Event, &Event)> = fex
            .flows
            .iter()
            .filter_map(|fl| {
                let rd = fex.events.get(fl.read)?;
                let src = fex.events.get(fl.source?)?;
                (rd.thread == r.thread
                    && rd.step < r.step
                    && rd.var != r.var
                    && src.thread == writer
                    && !handed_over(src))
                .then_some((rd, src))
            })
            .collect();
        let Some(last) = seen_from.iter().map(|(_, src)| src.step).max() else {
            continue;
        };
        // The reader tested what it saw (a flag, a count): it went on because of it. A
        // snapshot of both locations that tests neither is an atomicity violation, which
        // the boundaries name. Of several reads of that write (`if (p == NULL)`, then
        // `t = p`), the one that tested it counts; of several tests (a lookup loop that
        // missed, then hit), the last before the read: the one the reader acted on.
        let Some(&(seen, early)) = seen_from
            .iter()
            .filter(|(_, src)| src.step == last)
            .filter(|(rd, _)| explainer.read_decides(rd.key.sid))
            .max_by_key(|(rd, _)| rd.step)
        else {
            continue;
        };
        // The reader tested and read inside one section of a mutex the writer held at
        // both writes: it saw one consistent state, and the later write is a later
        // section of the writer's (the next round of a loop), which nothing published —
        // unless the writer released and took the mutex back between its two writes in
        // its code (`ready = 1` in one section, the payload in the next): that state was
        // published half made.
        let held_f = held_f.get_or_insert_with(|| locks_held(&failing.steps));
        let held_p = held_p.get_or_insert_with(|| locks_held(&why.passing.steps));
        let at = |h: &crate::diag::interleaving::LockSets, step: usize, t: u32| {
            h.get(step)
                .and_then(|m| m.get(&t))
                .cloned()
                .unwrap_or_default()
        };
        let reader_test = at(held_f, seen.step, r.thread);
        let reader_read = at(held_f, r.step, r.thread);
        let writer_early = at(held_f, early.step, writer);
        let writer_late = at(held_p, late.step, writer);
        // Locks compared by the objects their texts name (`l->lock` in the writer's
        // helper is the reader's `lst.lock`).
        let in_failing = &*ptr_f
            .get_or_insert_with(|| crate::diag::interleaving::StablePointers::of(&failing.steps));
        let in_passing = &*ptr_p.get_or_insert_with(|| {
            crate::diag::interleaving::StablePointers::of(&why.passing.steps)
        });
        let reader_lock = |l: &str| in_failing.resolve(r.thread, l);
        let one_section = reader_test.iter().any(|(l, acq)| {
            reader_read.contains(&(l.clone(), *acq))
                && writer_early
                    .iter()
                    .any(|(w, _)| in_failing.resolve(writer, w) == reader_lock(l))
                && writer_late
                    .iter()
                    .any(|(w, _)| in_passing.resolve(writer, w) == reader_lock(l))
        });
        // Half made, the state is a publication only when the reader's test decided
        // whether it read the data at all (`if (posted) { .. minutes .. }`); a list
        // walked and then checked against its size in one section is a snapshot of two
        // updates split in two: an atomicity violation, which the boundaries name.
        if one_section {
            let split = explainer.split_section(early.key.sid, late.key.sid);
            match split {
                Some(split) if !explainer.test_guards(seen.key.sid, r.key.sid) => {
                    // Writing the data first would show the other half made instead:
                    // the two writes belong in one section.
                    split_update(
                        explainer,
                        (writer, r.thread),
                        (early, late, r),
                        split,
                        cands,
                        added,
                    );
                    continue;
                }
                Some(_) => {}
                None => continue,
            }
        }
        // The reader read the data holding a lock and the writer wrote it holding one, and
        // no mutex was both (by the objects their pointers name: each worker's own
        // `w->lock`): the two sections did not exclude each other. A wrong lock, which the
        // lock-set analyses name, not an order of publication.
        let objects =
            |set: &[(String, usize)], t: u32, p: &crate::diag::interleaving::StablePointers| {
                set.iter()
                    .map(|(l, _)| p.resolve(t, l))
                    .collect::<std::collections::BTreeSet<String>>()
            };
        let read_under = objects(&reader_read, r.thread, in_failing);
        let written_under = objects(&writer_late, writer, in_passing);
        if !read_under.is_empty()
            && !written_under.is_empty()
            && read_under.is_disjoint(&written_under)
        {
            continue;
        }
        if named.contains(&(writer, early.line)) {
            continue;
        }
        named.push((writer, early.line));
        let w = explainer.thread_name(writer);
        let reader = explainer.thread_name(r.thread);
        let hint = format!(
            "{w} writes `{}` here, and {reader} saw it, before {w} wrote `{}` at line {}: {reader} then read `{}` at line {} too early (its old value); had {w} made the write at line {} first, {outcome} (an order violation: publish after the data is written)",
            early.var, late.var, late.line, r.var, r.line, late.line
        );
        let late_hint = format!(
            "{w} writes `{}` here only after its write of `{}` at line {}, which {reader} already saw: {reader}'s read at line {} came before this write; made before line {}, {outcome} (an order violation)",
            late.var, early.var, early.line, r.line, early.line
        );
        // The flag is what was published early: it comes first.
        for (step, hint, role) in [
            (failing.steps.get(early.step), hint, Role::PublishedEarly),
            (
                why.passing.steps.get(late.step),
                late_hint,
                Role::PublishedData,
            ),
        ] {
            let as_ = (CandidateKind::Ordering, role);
            name_steps(
                explainer,
                cands,
                added,
                step.map(|s| (s, hint)),
                as_,
                takes_plain,
            );
        }
    }
}

/// An update of two locations made in two critical sections of one function, which
/// another thread read in one section between them (`sum += v; unlock; lock; count++`,
/// a monitor checking both): the unlock and the lock between the writes are named
/// (`Role::SplitSection`). No order of the two writes is right, so it is no publication.
fn split_update(
    explainer: &Explainer,
    (writer, reader): (u32, u32),
    (early, late, read): (&Event, &Event, &Event),
    (unlock, lock): (StmtId, StmtId),
    cands: &mut [Candidate],
    added: &mut Vec<Candidate>,
) {
    let outcome = explainer.outcome();
    let t = explainer.thread_name(writer);
    let other = explainer.thread_name(reader);
    let ends: Vec<(crate::cex::TraceStep, String)> = [(unlock, "releases"), (lock, "takes back")]
        .into_iter()
        .filter_map(|(sid, what)| {
            let step = explainer.step_at(writer, sid)?;
            let hint = format!(
                "{t} {what} the mutex here, between its write of `{}` at line {} and its write of `{}` at line {}: {other} read both in one section in between (line {}) and saw the update half made; kept as one critical section, {outcome} (an atomicity violation: one update split in two sections)",
                early.var, early.line, late.var, late.line, read.line
            );
            Some((step, hint))
        })
        .collect();
    let steps = ends.iter().map(|(s, h)| (s, h.clone()));
    let as_ = (CandidateKind::Atomicity, Role::SplitSection);
    name_steps(explainer, cands, added, steps, as_, takes_split_boundary);
}

/// Which candidates a split section's unlock or lock takes over: a boundary the schedule
/// named (where a thread would have resumed is its word for the same boundary; the split
/// says why it is one) or a value, never the failing check or a multi-line set.
fn takes_split_boundary(c: &Candidate) -> Option<bool> {
    let plain = matches!(
        c.role,
        Role::Plain
            | Role::NotResumed
            | Role::NotResumedInCallee
            | Role::AlsoBoundary
            | Role::SplitStatement
    );
    (!c.specification && c.set.is_none() && plain).then_some(true)
}

/// A check and its act split across two critical sections (see `Role::SplitSection`):
/// a read that missed a write another thread made too late, when that thread had
/// accessed the same location earlier in the same function and released and re-took the
/// mutex in between. The unlock and the lock are named.
pub(super) fn split_sections(
    explainer: &Explainer,
    why: &Why,
    order: &[&FlowChange],
    cands: &mut [Candidate],
    added: &mut Vec<Candidate>,
) {
    let outcome = explainer.outcome();
    let fex = &why.failing_execution;
    let mut named: Vec<StmtId> = Vec::new();
    for ch in order.iter().filter(|c| c.inter_thread()) {
        let r = &ch.read;
        let Some(late) = &ch.passing else { continue };
        let owner = late.thread;
        if owner == r.thread {
            continue;
        }
        let Some(first) = fex
            .events
            .iter()
            .rfind(|e| e.thread == owner && e.var == late.var && e.step < r.step)
        else {
            continue;
        };
        let Some((unlock, lock)) = explainer.split_section(first.key.sid, late.key.sid) else {
            continue;
        };
        if named.contains(&unlock) {
            continue;
        }
        named.push(unlock);
        let t = explainer.thread_name(owner);
        let other = explainer.thread_name(r.thread);
        // The section taken back tests a copy made before the unlock (`if (avail)` of an
        // `avail = stock > 0` from the first section): the test is stale, and testing the
        // shared state itself there is the repair that keeps both sections.
        if let Some((test, copy)) = explainer.stale_test(first.key.sid, lock, late.key.sid)
            && let Some(step) = explainer.step_at(owner, test)
        {
            let hint = format!(
                "{t} tests `{copy}` here, a copy it made at line {} before releasing the mutex: under the lock taken back, `{}` may have changed ({other}'s access at line {} came in between), so the test decides on a stale value; test `{}` itself here (an atomicity violation: a stale check)",
                first.line, late.var, r.line, late.var
            );
            let as_ = (CandidateKind::Atomicity, Role::StaleTest);
            name_steps(explainer, cands, added, [(&step, hint)], as_, |c| {
                (!c.specification && c.set.is_none()).then_some(true)
            });
        }
        let mut ends = Vec::new();
        for (sid, what) in [(unlock, "releases"), (lock, "takes back")] {
            let Some(step) = explainer.step_at(owner, sid) else {
                continue;
            };
            let hint = format!(
                "{t} {what} the mutex here, between its access of `{}` at line {} and its write at line {}: {other}'s read at line {} came in between and saw the old value; kept as one critical section, {outcome} (an atomicity violation: the section was split)",
                late.var, first.line, late.line, r.line
            );
            ends.push((step, hint));
        }
        {
            let steps = ends.iter().map(|(s, h)| (s, h.clone()));
            let as_ = (CandidateKind::Atomicity, Role::SplitSection);
            name_steps(explainer, cands, added, steps, as_, takes_split_boundary);
        }
    }
}

/// A read made before the reader joined the thread whose write it needed (see
/// `Role::ReadBeforeJoin`): the closest passing run lets the read see another thread's
/// write, and in the failing run the reader joins that thread only after the read. The
/// read and the join are named: one of them moves past the other. A reader that goes on
/// to write what it read races instead (a lost update), as in `started_before_init`.
pub(super) fn reads_before_join(
    explainer: &Explainer,
    why: &Why,
    failing: &Counterexample,
    order: &[&FlowChange],
    cands: &mut [Candidate],
    added: &mut Vec<Candidate>,
) {
    let outcome = explainer.outcome();
    let mut named: Vec<usize> = Vec::new();
    for ch in order.iter().filter(|c| c.inter_thread()) {
        let r = &ch.read;
        let Some(w) = &ch.passing else { continue };
        // A reader that writes what it read (from the read on) updates it: a lost
        // update races, the join is no cause.
        let updates = why
            .failing_execution
            .events
            .iter()
            .any(|e| e.write && e.thread == r.thread && e.var == r.var && e.step >= r.step);
        if w.thread == r.thread || updates {
            continue;
        }
        let Some(j) = failing
            .steps
            .iter()
            .enumerate()
            .skip(r.step + 1)
            .find(|(i, s)| {
                s.thread == r.thread && joined_thread(&failing.steps, *i) == Some(w.thread)
            })
            .map(|(i, _)| i)
        else {
            continue;
        };
        if named.contains(&j) {
            continue;
        }
        named.push(j);
        let (Some(read), Some(join)) = (failing.steps.get(r.step), failing.steps.get(j)) else {
            continue;
        };
        let reader = explainer.thread_name(r.thread);
        let writer = explainer.thread_name(w.thread);
        let read_hint = format!(
            "{reader} reads `{}` here, before it joins {writer} at line {}, and {writer} writes it at line {}: the read saw a value from before that write; had it come after the join, {outcome} (an order violation: read after the join)",
            r.var, join.line, w.line
        );
        let join_hint = format!(
            "{reader} joins {writer} here, only after its read of `{}` at line {}, which needed {writer}'s write at line {}: had the join come before the read, {outcome} (an order violation)",
            r.var, read.line, w.line
        );
        let steps = [(read, read_hint), (join, join_hint)];
        let as_ = (CandidateKind::Ordering, Role::ReadBeforeJoin);
        name_steps(explainer, cands, added, steps, as_, |c| {
            (!c.specification && c.set.is_none()).then_some(true)
        });
    }
}

/// The thread the `pthread_join` at step `i` waits for, read from the trace: the value
/// last written to the handle it names (`pthread_create(&t1, ..)` writes `*&t1 = 2`; a
/// thread's own locals are written `t1_<thread>`). `None` when the step is no join or
/// the handle is no variable or constant element (`th[i]`): no pattern is guessed.
fn joined_thread(steps: &[crate::cex::TraceStep], i: usize) -> Option<u32> {
    let s = steps.get(i)?;
    let (_, args) = s.statement.split_once("pthread_join(")?;
    let handle = args.split([',', ')']).next()?.trim();
    // A constant element (`w[1]`) names one handle; `th[i]` names whichever `i` is.
    let plain = handle.split(['[', ']']).enumerate().all(|(k, part)| {
        if k % 2 == 1 {
            !part.is_empty() && part.chars().all(|c| c.is_ascii_digit())
        } else {
            part.chars()
                .all(|c| c.is_ascii_alphanumeric() || c == '_' || c == '.')
        }
    });
    if handle.is_empty() || !plain {
        return None;
    }
    let own = format!("{handle}_{}", s.thread);
    steps.get(..i)?.iter().rev().find_map(|p| {
        p.writes
            .iter()
            .rev()
            .find(|w| {
                let lhs = w.lhs.trim_start_matches("*&");
                lhs == handle || lhs == own
            })
            .and_then(|w| w.value.parse().ok())
    })
}

/// Names each of `steps` that has a line as a candidate of `kind` with `role` and its
/// hint (see [`name_step`] for `takes`).
fn name_steps<'s>(
    explainer: &Explainer,
    cands: &mut [Candidate],
    added: &mut Vec<Candidate>,
    steps: impl IntoIterator<Item = (&'s crate::cex::TraceStep, String)>,
    (kind, role): (CandidateKind, Role),
    takes: impl Fn(&Candidate) -> Option<bool>,
) {
    for (step, hint) in steps {
        if step.line == 0 {
            continue;
        }
        let named = Named {
            kind,
            role,
            whole_thread: false,
            hint,
        };
        name_step(explainer, cands, added, step, named, &takes);
    }
}

/// Which candidates a pattern's line takes over: a flow or boundary keeps its words (the
/// role only), a value change says less (role, kind and words); never the failing check,
/// a multi-line set, or a line another pattern named. A value candidate that is also a
/// region's end takes the pattern, which says why the line matters.
pub(super) fn takes_plain(c: &Candidate) -> Option<bool> {
    let plain = matches!(
        c.role,
        Role::Plain | Role::AlsoBoundary | Role::SplitStatement
    );
    (!c.specification && c.set.is_none() && plain).then_some(c.kind == CandidateKind::Value)
}

/// What a pattern of the projection names a step as.
pub(super) struct Named {
    pub(super) kind: CandidateKind,
    pub(super) role: Role,
    pub(super) whole_thread: bool,
    pub(super) hint: String,
}

/// Names `step` as `named`: the line's candidate, when it has one, takes the role when
/// `takes` says so (`Some(true)`: with the kind and words too, `Some(false)`: the role
/// only, `None`: left alone); otherwise a new candidate.
pub(super) fn name_step(
    explainer: &Explainer,
    cands: &mut [Candidate],
    added: &mut Vec<Candidate>,
    step: &crate::cex::TraceStep,
    named: Named,
    takes: impl Fn(&Candidate) -> Option<bool>,
) {
    let on = |c: &Candidate| c.line == step.line && same_file(&c.file, &step.file);
    if let Some(c) = cands.iter_mut().chain(added.iter_mut()).find(|c| on(c)) {
        if let Some(words) = takes(c) {
            c.role = named.role;
            c.whole_thread = named.whole_thread;
            if words {
                c.kind = named.kind;
                c.hint = named.hint;
            }
        }
        return;
    }
    let before = added.len();
    explainer.push_step_candidate(added, cands, step, named.kind, &named.hint);
    if let Some(c) = added.get_mut(before) {
        c.role = named.role;
        c.whole_thread = named.whole_thread;
    }
}

/// A mutex, condition, semaphore or once control declared as a local (not `static`) of
/// a function that two or more threads of the failing run executed, whose address is
/// only ever handed to the library's calls: every thread has its own, so it orders and
/// excludes nothing (`pthread_once_t once = PTHREAD_ONCE_INIT;` inside the thread
/// function). Its declaration is named. A local whose address goes anywhere else (a new
/// thread's argument, a pointer) may be shared on purpose and is left alone.
pub(crate) fn local_sync_objects(
    explainer: &Explainer,
    failing: &Counterexample,
    cands: &mut [Candidate],
    added: &mut Vec<Candidate>,
) {
    use crate::ir::{ExprKind, StmtKind, VarKind};
    let prog = explainer.normalized;
    let tt = &prog.types;
    for (f, func) in prog.funcs.iter().enumerate() {
        let Some(body) = &func.body else { continue };
        let mut threads: Vec<u32> = Vec::new();
        for s in &failing.steps {
            if explainer.function_of(s.sid) == Some(f) && !threads.contains(&s.thread) {
                threads.push(s.thread);
            }
        }
        if threads.len() < 2 {
            continue;
        }
        // The locals of `f` of a synchronization type, with their declarations.
        let mut decls: Vec<(crate::ir::VarId, StmtId)> = Vec::new();
        crate::ir::visit::each_stmt(body, &mut |st| {
            if let StmtKind::Decl { var, .. } = &st.kind {
                let v = prog.var(*var);
                if v.kind == VarKind::Local
                    && !v.is_static
                    && crate::analysis::facts::sync_kind_of(&v.ty, tt).is_some()
                {
                    decls.push((*var, st.id));
                }
            }
        });
        for (v, decl) in decls {
            // Every use of the object is `&v` as a library call's argument: as many
            // mentions of `v` as such arguments.
            let (mut mentions, mut handed) = (0usize, 0usize);
            crate::ir::visit::each_expr(body, &mut |e| match &e.kind {
                ExprKind::Var(w) if *w == v => mentions += 1,
                ExprKind::Call(callee, args)
                    if matches!(callee.peel().kind, ExprKind::Func(g)
                        if prog.func(g).body.is_none()) =>
                {
                    handed += args
                        .iter()
                        .filter(|a| {
                            matches!(&a.peel().kind, ExprKind::AddrOf(x)
                            if matches!(x.peel().kind, ExprKind::Var(w) if w == v))
                        })
                        .count();
                }
                _ => {}
            });
            let only_calls = mentions > 0 && mentions == handed;
            if !only_calls {
                continue;
            }
            let Some(step) = threads
                .first()
                .and_then(|t| explainer.step_at(*t, decl))
                .filter(|s| s.line > 0)
            else {
                continue;
            };
            let name = &prog.var(v).name;
            let hint = format!(
                "`{name}` is a local of `{}`, which {} threads run: each has its own `{name}`, so it synchronizes nothing between them; declare it once, outside the function (a global or `static`)",
                func.name,
                threads.len()
            );
            let named = Named {
                kind: CandidateKind::Locking,
                role: Role::OwnCopy,
                whole_thread: false,
                hint,
            };
            name_step(explainer, cands, added, &step, named, |c| {
                (!c.specification && c.set.is_none()).then_some(true)
            });
        }
    }
}
