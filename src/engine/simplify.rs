//! Fewer context switches in an external checker's failing interleaving.
//!
//! ESBMC and CBMC return *a* failing interleaving, not a simple one: CBMC, which has no
//! context bound, often interleaves two loops step by step (`concbugs/table_use_before_init`:
//! eight context switches where the failure needs one). Every later step reads that
//! schedule — the interleaving analyses test each of its preemptions, the root-cause search
//! makes each of its orderings a constraint — and on a needlessly long one they say little:
//! the order violation (the worker created before the table was filled) hides behind
//! preemptions inside the loops. The built-in checker's own counterexample has the fewest
//! rounds its search needs; this brings a checker's close to that.
//!
//! The technique is trace simplification by replay (Jalbert & Sen, "A trace simplification
//! technique for effective debugging of concurrent programs", FSE 2010), in its simplest,
//! greedy form: take one preemption out — the preempted thread runs on to its next switch
//! point, or, failing that, its run waits for its next one — and keep the change when a run
//! that follows the new schedule still fails *at the same place* with every lock honoured,
//! and every run that follows it fails.
//! Each kept change is a concrete replay on the built-in checker; nothing is guessed. The
//! result is a failing interleaving like any other: the diagnosis validates it again, and
//! the external checker localizes along it.

use std::time::{Duration, Instant};

use super::localize::{Failing, LocalizeConfig};
use super::replay::{LockCheck, ReplayBounds, Replayer};
use crate::checker::builtin::Answer;
use crate::instrument::Target;
use crate::passes::Prepared;
use crate::seq::schedule::{Schedule, Until};

/// Replays tried at most, so that a long schedule cannot hold the localization up.
const MAX_REPLAYS: usize = 60;

/// Time the simplification may take at most (less when the run's deadline is nearer).
const MAX_TIME: Duration = Duration::from_secs(20);

/// A simpler failing schedule.
#[derive(Debug, Clone)]
pub struct Simplified {
    pub schedule: Schedule,
    /// Context switches before and after.
    pub before: usize,
    pub after: usize,
    /// Replays asked.
    pub replays: usize,
}

/// The failing schedule of `f` with the preemptions the failure does not need taken out,
/// when there are any; `None` when every one is needed, or for what this does not handle
/// (an unlock of a mutex not held; a schedule without the checker's counterexample, as a
/// user's own). A deadlock's variant must leave every thread stuck where the checker's
/// did; a thread that never ran has no block, and no change gives it one.
pub fn fewer_switches(prep: &Prepared, f: &Failing, cfg: &LocalizeConfig) -> Option<Simplified> {
    let cex = f.cex.as_ref()?;
    if !matches!(f.target, Target::Failure | Target::Deadlock) {
        return None;
    }
    // Stops counted within their blocks (a YAML witness's) would move when blocks merge.
    if f.schedule.blocks.iter().any(|b| {
        matches!(
            b.until,
            Until::Before {
                within_block: true,
                ..
            }
        )
    }) {
        return None;
    }
    let before = f.schedule.context_switches();
    if before <= 1 {
        return None;
    }
    let own = Instant::now() + MAX_TIME;
    let deadline = Some(cfg.deadline.map_or(own, |d| d.min(own)));
    let at = (cex.violation.file.as_str(), cex.violation.line);
    let mut test = Tester {
        prep,
        cfg,
        target: f.target,
        unwind: f.unwind,
        deadline,
        at,
        stuck: stuck_at(cex),
        replays: 0,
    };
    let mut cur = f.schedule.clone();
    // After a change the search goes on from the block before it: what came earlier was
    // tried already, and a merge only changes the blocks around it.
    let mut i = 0;
    'blocks: while i < cur.blocks.len() {
        for variant in [run_on(&cur, i), postpone(&cur, i)].into_iter().flatten() {
            if test.exhausted() {
                break 'blocks;
            }
            if variant.context_switches() < cur.context_switches() && test.still_fails(&variant) {
                cur = variant;
                i = i.saturating_sub(1);
                continue 'blocks;
            }
        }
        i += 1;
    }
    let after = cur.context_switches();
    (after < before).then_some(Simplified {
        schedule: cur,
        before,
        after,
        replays: test.replays,
    })
}

/// Block `i`'s thread is not preempted there: it runs on to where its next block stops
/// (or to its end) and that block goes.
fn run_on(s: &Schedule, i: usize) -> Option<Schedule> {
    let b = s.blocks.get(i)?;
    if matches!(b.until, Until::Keyword(_)) {
        return None;
    }
    let mut out = s.clone();
    let next = s
        .blocks
        .iter()
        .enumerate()
        .skip(i + 1)
        .find(|(_, o)| o.thread == b.thread)
        .map(|(j, _)| j);
    match next {
        Some(j) => {
            let until = s.blocks.get(j)?.until.clone();
            out.blocks.get_mut(i)?.until = until;
            out.blocks.remove(j);
        }
        None => out.blocks.get_mut(i)?.until = Until::Keyword("end".into()),
    }
    Some(merged(out))
}

/// Block `i` does not run where it is: its thread's steps wait for its next block (which
/// starts where this one did). Not for a thread's last block, which nothing would run.
fn postpone(s: &Schedule, i: usize) -> Option<Schedule> {
    let b = s.blocks.get(i)?;
    s.blocks.iter().skip(i + 1).find(|o| o.thread == b.thread)?;
    let mut out = s.clone();
    out.blocks.remove(i);
    Some(merged(out))
}

/// Neighbouring blocks of one thread made one: the first runs to where the second stops.
fn merged(mut s: Schedule) -> Schedule {
    let mut k = 0;
    while k + 1 < s.blocks.len() {
        if s.blocks[k].thread == s.blocks[k + 1].thread {
            let next = s.blocks.remove(k + 1);
            s.blocks[k].until = next.until;
        } else {
            k += 1;
        }
    }
    for b in &mut s.blocks {
        b.ran.clear();
    }
    s
}

/// Where each thread of a deadlocked run was last seen: (thread, file, line).
fn stuck_at(cex: &crate::cex::Counterexample) -> Vec<(u32, String, u32)> {
    let mut last: std::collections::BTreeMap<u32, (String, u32)> = Default::default();
    for s in &cex.steps {
        last.insert(s.thread, (s.file.clone(), s.line));
    }
    last.into_iter().map(|(t, (f, l))| (t, f, l)).collect()
}

struct Tester<'a> {
    prep: &'a Prepared,
    cfg: &'a LocalizeConfig,
    target: Target,
    unwind: u32,
    deadline: Option<Instant>,
    /// Where the checker's failure is (file, line): a variant failing elsewhere is
    /// another failure, not this one simplified.
    at: (&'a str, u32),
    /// For a deadlock: where each thread of the checker's run was stuck.
    stuck: Vec<(u32, String, u32)>,
    replays: usize,
}

impl Tester<'_> {
    fn exhausted(&self) -> bool {
        self.replays >= MAX_REPLAYS || self.deadline.is_some_and(|d| Instant::now() >= d)
    }

    /// Some run follows `s` and fails where the checker's did, with every lock honoured.
    fn still_fails(&mut self, s: &Schedule) -> bool {
        let Ok(resolved) = s.resolve(&self.prep.normalized, &self.prep.index) else {
            return false;
        };
        self.replays += 1;
        let replayer = Replayer {
            prep: self.prep,
            framework: &self.cfg.framework,
            bounds: ReplayBounds {
                unwind: self.unwind.max(s.deepest_stop()).max(1),
                max_threads: self.cfg.max_threads,
                recursion: self.cfg.recursion,
            },
            target: self.target,
            deadline: self.deadline,
        };
        let Ok(mut replay) = replayer.encode(&resolved) else {
            return false;
        };
        let Answer::Violated(model) = replay.fails(self.target, true) else {
            return false;
        };
        let run = replay.counterexample(&model, self.prep);
        if self.target == Target::Deadlock {
            // The same deadlock: every thread stuck where it was (a deadlock elsewhere,
            // or of other threads, is another failure).
            if stuck_at(&run) != self.stuck {
                return false;
            }
            // The deadlock's replay keeps every lock call: no check of the locks to add.
            self.replays += 1;
            return matches!(replayer.reproduces(&resolved), Ok(true));
        }
        if (run.violation.file.as_str(), run.violation.line) != self.at {
            return false;
        }
        // The failure's replay drops lock calls: the variant may have run a thread into a
        // critical section another holds.
        if !matches!(
            replayer.check_locks(&resolved, true),
            Ok(LockCheck::Honoured)
        ) {
            return false;
        }
        // And every run along it must fail, not only some: the diagnosis model asks which
        // line's change lets a run pass, and a schedule that leaves a choice open (a
        // spurious wake-up at an `if`-guarded wait, which the checker's longer schedule
        // had ruled out) has a passing run with no change at all (CBMC then answers
        // `diag = 0`, `concbugs/cond_if_not_while`).
        self.replays += 1;
        matches!(replayer.reproduces(&resolved), Ok(true))
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::seq::schedule::{Block, ThreadSpec};

    fn block(thread: u32, until: &str) -> Block {
        Block {
            thread,
            until: if until == "end" {
                Until::Keyword("end".into())
            } else {
                Until::before(until.into(), 1)
            },
            ran: vec![],
        }
    }

    fn schedule(blocks: Vec<Block>) -> Schedule {
        Schedule {
            schema: String::new(),
            threads: vec![ThreadSpec::new(1, "w".into())],
            blocks,
            inputs: vec![],
        }
    }

    fn shape(s: &Schedule) -> Vec<(u32, String)> {
        s.blocks
            .iter()
            .map(|b| {
                (
                    b.thread,
                    match &b.until {
                        Until::Keyword(k) => k.clone(),
                        Until::Before { before, .. } => before.clone(),
                    },
                )
            })
            .collect()
    }

    /// T0 a, T1 b, T0 c, T1 end, T0 end.
    fn two_threads_taking_turns() -> Schedule {
        schedule(vec![
            block(0, "a"),
            block(1, "b"),
            block(0, "c"),
            block(1, "end"),
            block(0, "end"),
        ])
    }

    #[test]
    fn running_on_takes_the_next_stop_and_merges_neighbours() {
        // T0 a, T1 b, T0 c, T1 end, T0 end: T1 run on past b swallows its "end" block and
        // leaves T0 c and T0 end side by side, which merge.
        let s = two_threads_taking_turns();
        let r = run_on(&s, 1).expect("a variant");
        assert_eq!(
            shape(&r),
            vec![(0, "a".into()), (1, "end".into()), (0, "end".into())]
        );
        assert!(r.context_switches() < s.context_switches());
    }

    #[test]
    fn a_last_block_runs_to_the_end_and_cannot_be_postponed() {
        let s = schedule(vec![block(0, "a"), block(1, "b"), block(0, "end")]);
        let r = run_on(&s, 1).expect("a variant");
        assert_eq!(
            shape(&r),
            vec![(0, "a".into()), (1, "end".into()), (0, "end".into())]
        );
        assert!(postpone(&s, 1).is_none());
        assert!(run_on(&s, 2).is_none(), "an end block has no preemption");
    }

    #[test]
    fn postponing_lets_the_next_block_start_where_this_one_did() {
        let s = two_threads_taking_turns();
        let r = postpone(&s, 1).expect("a variant");
        assert_eq!(
            shape(&r),
            vec![(0, "c".into()), (1, "end".into()), (0, "end".into())]
        );
    }
}
