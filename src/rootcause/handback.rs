//! A hand-back before the last use (`Role::HandedBackEarly`): a thread tells another it is
//! done with shared data — a flag, a count, a state the other thread waits for or tests —
//! and only then makes its last read of that data. The other thread, let through by the
//! test, overwrites or clears the data (`memset` before `free`, the next message into the
//! slot), and the late read sees that. The projection shows the read's flow changed: in
//! the closest passing run it saw the value from before. The hand-back write is named;
//! the repair moves it after the last use (or copies the data out first).

use super::patterns::{Named, name_step, takes_plain};
use super::{Event, FlowChange, Why};
use crate::cex::Counterexample;
use crate::diag::explain::{Candidate, CandidateKind, Explainer, Role};

/// Names the hand-back writes the projection's changed reads show (see the module
/// comment).
pub(super) fn handed_back_early(
    explainer: &Explainer,
    why: &Why,
    failing: &Counterexample,
    order: &[&FlowChange],
    cands: &mut [Candidate],
    added: &mut Vec<Candidate>,
) {
    let fex = &why.failing_execution;
    let outcome = explainer.outcome();
    let mut named: Vec<usize> = Vec::new();
    for ch in order.iter().filter(|c| c.inter_thread()) {
        let r = &ch.read;
        let Some(w) = &ch.failing else { continue };
        let other = w.thread;
        // A reader that also writes what it read races for it (a lost update), which
        // the boundaries and the lock analyses name: no hand-back.
        if other == r.thread || why.writers.contains(&(r.var.clone(), r.thread)) {
            continue;
        }
        // The passing run's read saw a value from before that write: the reader was only
        // too late, not reading something the other thread had still to make.
        if ch.passing.as_ref().is_some_and(|p| {
            p.thread == other
                && fex
                    .find(&p.key)
                    .and_then(|i| fex.events.get(i))
                    .is_none_or(|e| e.step > w.step)
        }) {
            continue;
        }
        let Some(h) = hand_back(explainer, fex, r, w) else {
            continue;
        };
        let (test, back) = h;
        if named.contains(&back.step) {
            continue;
        }
        named.push(back.step);
        let Some(step) = failing.steps.get(back.step) else {
            continue;
        };
        let me = explainer.thread_name(r.thread);
        let them = explainer.thread_name(other);
        let hint = format!(
            "{me} writes `{}` here, which {them} tested at line {} before it wrote `{}` at line {}; {me} still read `{}` at line {} after this write, and saw {them}'s value: had {me} made this write after its last use of the data, {outcome} (an order violation: hand it back after the last use, or copy the data out first)",
            back.var, test.line, w.var, w.line, r.var, r.line
        );
        let as_ = Named {
            kind: CandidateKind::Ordering,
            role: Role::HandedBackEarly,
            whole_thread: false,
            hint,
        };
        name_step(explainer, cands, added, step, as_, takes_plain);
    }
}

/// The other thread's test before its write `w` (the last one before it that decides a
/// branch) and the reader's own earlier write that test saw, when the reader made that
/// write before its read `r` of another location.
fn hand_back<'e>(
    explainer: &Explainer,
    fex: &'e super::Execution,
    r: &Event,
    w: &Event,
) -> Option<(&'e Event, &'e Event)> {
    fex.flows
        .iter()
        .filter_map(|fl| {
            let rd = fex.events.get(fl.read)?;
            let src = fex.events.get(fl.source?)?;
            (rd.thread == w.thread
                && rd.step < w.step
                && src.thread == r.thread
                && src.write
                && src.step < r.step
                && !super::events::overlaps(&rd.var, &r.var)
                && explainer.read_decides(rd.key.sid))
            .then_some((rd, src))
        })
        .max_by_key(|(rd, _)| rd.step)
}
