//! Why the failure happens (issue "why it fails", papers 001 Symbiosis and 002
//! MaxSMT-DSP): the failing execution as shared events and data flows ([`events`]), a
//! passing schedule close to the failing one, and the differential projection between the
//! two ([`projection`]) — the few data flows whose change turns the failure into a pass.
//! The lines of that projection are the accesses that raced; the candidates on them rank
//! first ([`rank`]).
//!
//! How close "closest" is: the passing schedules considered are the failing schedule's
//! one-change neighbours that the interleaving analyses already replayed and found
//! passing (one preemption removed, one block moved in front of a conflicting statement,
//! an unjoined thread run before a read). Among those that a run follows, the one with the
//! fewest changed data flows is taken (then the first found). This is Symbiosis's
//! differential projection over a neighbourhood of the failing schedule, not MaxSMT-DSP's
//! optimum over every passing schedule, and no claim of minimality over all schedules is
//! made; nor are the orderings checked sufficient (ConcBugAssist's root causes), which
//! needs the schedule as solver variables — not done yet.
//!
//! Every passing execution here is a concrete replay by the built-in checker with the
//! failing run's inputs; nothing is inferred from the trace alone.

pub mod events;
pub mod projection;
pub mod rank;

use crate::cex::Counterexample;
use crate::seq::schedule::Resolved;
pub use events::{Accesses, Event, EventKey, Execution};
pub use projection::{FlowChange, differential};

/// Replays that name a passing run, as the root-cause search asks them;
/// `engine::replay::Replayer` answers with the built-in checker.
pub trait PassingRuns {
    type Error;
    /// A run that follows `r` and does not fail, when there is one.
    fn passing_run(&self, r: &Resolved) -> Result<Option<Counterexample>, Self::Error>;
    fn expired(&self) -> bool;
}

/// A passing schedule one change away from the failing one, and how it differs.
#[derive(Clone, Debug)]
pub struct Neighbour {
    /// The change, in words ("without T1's preemption after line 33").
    pub change: String,
    pub schedule: Resolved,
}

/// The answer: the closest passing run found and its differential projection.
#[derive(Clone, Debug)]
pub struct Why {
    pub change: String,
    /// The passing run (its trace and schedule).
    pub passing: Counterexample,
    pub projection: Vec<FlowChange>,
    /// Data flows of the failing execution (the projection's share of them is the
    /// measure Symbiosis reports).
    pub failing_flows: usize,
    /// Passing neighbours replayed.
    pub tried: usize,
}

/// Passing neighbours replayed at most (each costs one replay).
const MAX_REPLAYED: usize = 12;

/// The closest of `neighbours` (see the module comment), with its projection. With
/// `sync` (a deadlock), lock and wait calls are events (see [`Execution::of`]).
pub fn closest<P: PassingRuns>(
    runs: &P,
    failing: &Counterexample,
    neighbours: &[Neighbour],
    accesses: &Accesses,
    sync: bool,
) -> Result<Option<Why>, P::Error> {
    let fex = Execution::of(&failing.steps, accesses, sync);
    let mut best: Option<Why> = None;
    let mut tried = 0;
    for n in neighbours {
        if tried >= MAX_REPLAYED || runs.expired() {
            break;
        }
        tried += 1;
        let Some(pass) = runs.passing_run(&n.schedule)? else {
            continue;
        };
        let pex = Execution::of(&pass.steps, accesses, sync);
        let projection = differential(&fex, &pex);
        // A neighbour whose flows all agree differs only where seqloc sees no shared
        // access (a path or a lock order it does not model as data): kept only when
        // nothing better is found.
        let better = match &best {
            None => true,
            Some(b) => {
                let key = |p: &[FlowChange]| (p.is_empty(), p.len());
                key(&projection) < key(&b.projection)
            }
        };
        if better {
            best = Some(Why {
                change: n.change.clone(),
                passing: pass,
                projection,
                failing_flows: fex.flows.len(),
                tried: 0,
            });
        }
    }
    Ok(best.map(|mut w| {
        w.tried = tried;
        w
    }))
}
