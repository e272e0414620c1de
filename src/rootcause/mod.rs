//! Why the failure happens (issue "why it fails", papers 000 ConcBugAssist, 001
//! Symbiosis and 002 MaxSMT-DSP): the failing execution as shared events and data flows
//! ([`events`]), its minimal root causes ([`causes`]), a passing schedule close to the
//! failing one, and the differential projection between the two ([`projection`]) — the
//! few data flows whose change turns the failure into a pass. The lines of that
//! projection are the accesses that raced; the candidates on them rank first ([`rank`]).
//!
//! Root causes are sets of the failing run's inter-thread orderings that by themselves
//! force the failure, minimal, each answered by the solver over the program's symbolic
//! encoding (`engine::causes` asks, [`causes`] chooses what to ask). They are reported,
//! not yet used in the ranking: on the project's benchmarks their lines are the racing
//! accesses, while the ground truth names where the fix goes (10 of 17 name a
//! ground-truth line), so they would not move a faulty line up (BENCHMARKS.md).
//!
//! How close "closest" is: the passing schedules considered are the failing schedule's
//! one-change neighbours that the interleaving analyses already replayed and found
//! passing (one preemption removed, one block moved in front of a conflicting statement,
//! an unjoined thread run before a read). Among those that a run follows, the one with the
//! fewest changed data flows is taken (then the first found). This is Symbiosis's
//! differential projection over a neighbourhood of the failing schedule, not MaxSMT-DSP's
//! optimum over every passing schedule, and no claim of minimality over all schedules is
//! made.
//!
//! Every passing execution here is a concrete replay by the built-in checker with the
//! failing run's inputs, a whole execution: every thread run to its end ([`to_the_end`]),
//! every lock honoured, no deadlock at its end, no loop cut short by the bound (see
//! `engine::replay::Replayer::passing_run`); nothing is inferred from the trace alone.

pub mod causes;
pub mod events;
mod handback;
mod patterns;
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
    /// A run that follows `r` and does not fail, when there is one, with the loop bound
    /// it was made with.
    fn passing_run(&self, r: &Resolved) -> Result<Option<(Counterexample, u32)>, Self::Error>;
    fn expired(&self) -> bool;
}

/// A passing schedule one change away from the failing one, and how it differs.
#[derive(Clone, Debug)]
pub struct Neighbour {
    /// The change, in words ("without T1's preemption after line 33").
    pub change: String,
    /// The changed schedule; the passing run runs every thread it leaves stopped on to
    /// its end after it ([`to_the_end`]).
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
    /// Which threads write each location, in the failing or the passing execution: a
    /// thread that writes none of what it read needs others' writes, it does not race.
    pub writers: std::collections::BTreeSet<(String, u32)>,
    /// The failing execution's events and flows.
    pub failing_execution: Execution,
    /// Passing neighbours replayed.
    pub tried: usize,
    /// The loop bound the replays ran with: `seqloc sequentialize --schedule` needs it to
    /// replay the passing schedule (set by the engine).
    pub unwind: u32,
    /// The passing run's schedule, as read back from it, replays and passes by itself
    /// (checked by the engine): only then is it given to the user to replay.
    pub schedule_replays: bool,
}

/// Passing neighbours replayed at most (each costs one replay).
pub const MAX_REPLAYED: usize = 12;

/// `r` with every thread that its last block leaves stopped run on to its end, one after
/// the other after the schedule: main (thread 0) last, since it is the one that joins.
pub fn to_the_end(r: &Resolved) -> Resolved {
    let mut out = r.clone();
    out.finish_threads(None, false);
    out
}

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
        // A variant that leaves threads stopped may pass only because the check was not
        // reached yet: the passing run must be a whole execution.
        let Some((pass, unwind)) = runs.passing_run(&to_the_end(&n.schedule))? else {
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
            let writers = fex
                .events
                .iter()
                .chain(&pex.events)
                .filter(|e| e.write)
                .map(|e| (e.var.clone(), e.thread))
                .collect();
            best = Some(Why {
                writers,
                failing_execution: fex.clone(),
                change: n.change.clone(),
                passing: pass,
                projection,
                failing_flows: fex.flows.len(),
                tried: 0,
                unwind,
                schedule_replays: false,
            });
        }
    }
    Ok(best.map(|mut w| {
        w.tried = tried;
        w
    }))
}

/// `1st`, `2nd`, `3rd`, `4th`, ..., `11th`, `12th`, `13th`, `21st`.
pub fn ordinal(n: u32) -> String {
    let suffix = match (n % 10, n % 100) {
        (_, 11..=13) => "th",
        (1, _) => "st",
        (2, _) => "nd",
        (3, _) => "rd",
        _ => "th",
    };
    format!("{n}{suffix}")
}

#[cfg(test)]
mod tests {
    use super::to_the_end;
    use crate::ir::{FuncId, StmtId};
    use crate::seq::schedule::{Resolved, ResolvedBlock, Stop};

    #[test]
    fn stopped_threads_run_to_their_end_main_last() {
        let before = Stop::Before(StmtId::NONE, 1);
        let r = Resolved {
            threads: vec![(0, FuncId(0)), (1, FuncId(1)), (2, FuncId(1))],
            blocks: vec![
                ResolvedBlock {
                    thread: 0,
                    until: before,
                },
                ResolvedBlock {
                    thread: 1,
                    until: Stop::End,
                },
                ResolvedBlock {
                    thread: 2,
                    until: before,
                },
            ],
            inputs: Default::default(),
            ends: Some(vec![1, 2, 3]),
        };
        let done = to_the_end(&r);
        let blocks: Vec<(u32, bool)> = done
            .blocks
            .iter()
            .map(|b| (b.thread, b.until == Stop::End))
            .collect();
        // T2's last block runs on; main comes back last.
        assert_eq!(blocks, vec![(0, false), (1, true), (2, true), (0, true)]);
        assert!(done.ends.is_none());
    }
}
