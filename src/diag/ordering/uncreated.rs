//! Wait loops that let a thread through before its provider was even created.
//!
//! A consumer created before its producer can fail before the producer's creation: its
//! wait loop tests the wrong state (`while (queued == SLOTS)` where `while (queued == 0)`
//! was meant), goes on without waiting, and its next check finds nothing there. No value
//! along the failing run is wrong and no block can move — the producer has no block, it
//! does not exist yet — so neither Griesmeyer's method nor the replayed orderings of
//! [`super::unstarted_order_violations`] (which moves threads the run created) can name
//! the test. The program names it: the failing thread's last wait-loop test read some
//! state, the thread went on to read state (up to its failing check) that no other thread
//! changed meanwhile, and a thread function the run never started writes both and signals
//! (the code that would have released the waiter).
//!
//! This reads code, not replays: the evidence is the shape (a wait loop's test, a check
//! on what it tested, a provider not yet started that writes it and signals), so its
//! candidate ranks with the other wait-condition findings and claims no passing run.

use std::collections::BTreeSet;

use super::{data_accesses, first_clash, may_alias, touching, unstarted::thread_code};
use crate::analysis::waits::is_wait_loop_test;
use crate::cex::TraceStep;
use crate::diag::interleaving::Accesses;
use crate::ir::FuncId;
use crate::passes::Prepared;
use crate::seq::schedule::Resolved;

/// A wait loop's test that let the failing thread through before the thread that provides
/// what it waits for was created.
#[derive(Clone, Debug)]
pub struct EarlyWaitTest {
    /// The test, as the failing thread's step.
    pub test: TraceStep,
    /// The function of the thread that was never started.
    pub provider: String,
    /// Its write of what the test reads.
    pub provider_write: TraceStep,
    /// The locations the test and the provider share.
    pub on: Vec<String>,
}

/// Statements of a thread's code that hand a waiter its wake-up.
const RELEASES: [&str; 3] = [
    "pthread_cond_signal(",
    "pthread_cond_broadcast(",
    "sem_post(",
];

/// The failing thread's last wait-loop test, when it let the thread through before a
/// provider was created (see the module comment).
pub fn wait_tests_before_creation(
    prep: &Prepared,
    resolved: &Resolved,
    steps: &[TraceStep],
    accesses: &Accesses,
) -> Vec<EarlyWaitTest> {
    let mut out = Vec::new();
    let Some((fail, before)) = steps.split_last() else {
        return out;
    };
    let prog = &prep.normalized;
    let Some(at) = before
        .iter()
        .rposition(|s| s.thread == fail.thread && is_wait_loop_test(prog, s.sid))
    else {
        return out;
    };
    let test = &before[at];
    let (tested, _) = data_accesses(accesses, test);
    // What the thread read from the test on, up to and with the failing check: the check
    // may read a local the thread computed from the shared state.
    let mut checked = BTreeSet::new();
    for s in before[at + 1..]
        .iter()
        .chain([fail])
        .filter(|s| s.thread == fail.thread)
    {
        checked.extend(data_accesses(accesses, s).0);
    }
    if tested.is_empty() || checked.is_empty() {
        return out;
    }
    // Another thread that changed what the thread read after the test let it through is
    // a race of threads that exist, for the replayed analyses to name.
    let changed = before[at + 1..].iter().any(|s| {
        s.thread != fail.thread
            && data_accesses(accesses, s)
                .1
                .iter()
                .any(|w| checked.iter().any(|c| may_alias(c, w, false)))
    });
    if changed {
        return out;
    }
    let none = BTreeSet::new();
    let structure = crate::analysis::facts::thread_structure(prog);
    // Threads the run created, whether or not they ran: those are the replayed analyses'.
    let mut started: BTreeSet<FuncId> = resolved.threads.iter().map(|(_, f)| *f).collect();
    started.extend(
        crate::diag::interleaving::unscheduled_threads(prep, resolved, steps)
            .into_iter()
            .map(|(_, f)| f),
    );
    // An id no thread of the run has: the provider's code is only read, never scheduled.
    let id = resolved.threads.iter().map(|(t, _)| *t).max().unwrap_or(0) + 1;
    for f in structure.entries.keys() {
        if started.contains(f) || prog.func(*f).body.is_none() {
            continue;
        }
        let code = thread_code(prep, &structure, id, *f, false);
        if !code
            .iter()
            .any(|s| RELEASES.iter().any(|r| s.statement.contains(r)))
        {
            continue;
        }
        let theirs = touching(accesses, code);
        let Some((write, on)) = first_clash(&theirs, (&tested, &none)) else {
            continue;
        };
        if first_clash(&theirs, (&checked, &none)).is_none() {
            continue;
        }
        out.push(EarlyWaitTest {
            test: test.clone(),
            provider: prog.func(*f).name.clone(),
            provider_write: write,
            on,
        });
    }
    out
}
