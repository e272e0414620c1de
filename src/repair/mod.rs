//! Verified repairs: the smallest change to the program — its synchronization first — that
//! removes the failure, written into the user's own source text as a patch, and kept only when the
//! patched program checks clean.
//!
//! The actions (`actions`) are drawn from the localization: its ranked candidate lines and
//! the differential projection's data flows (`rootcause`) say where the racing accesses
//! and the misordered statements are. These kinds of change are proposed:
//!
//! * **a critical section**: one mutex around a region of each function the sites are in
//!   (ConcBugAssist's "atomic region" repair, as a lock), an existing mutex of the program
//!   when its critical sections can be widened to cover the region (its inner lock and
//!   unlock calls move out to the region's ends), otherwise a new one; where the program
//!   writes `__VERIFIER_atomic_begin/end` sections, an atomic section the same way;
//! * **a reordering**: a statement moved before a nearby statement of the same block that
//!   it does not depend on (textually: neither writes a name the other mentions) — a lock
//!   taken in the other threads' order, an unlock moved before a join, a flag set after the
//!   data it announces, a thread created after the data it reads;
//! * **a release before a return**: a function that returns holding a mutex unlocks it
//!   first;
//! * **condition-variable discipline**: the `if` around a wait made a `while`, a bare wait
//!   put in a loop on the flag its signaller sets, a relock of a mutex every caller holds
//!   dropped;
//! * **a thread's own argument**: a thread created in a counting loop with the address of
//!   the counter gets its own element of a new array;
//! * **an ordering between threads** (ConcBugAssist's ordering repair): a read waits on a
//!   new flag and condition variable until another thread's write is done (`handshakes`),
//!   or the creator joins a thread before it reads what the thread writes (`joins`);
//! * last resorts, after every other: **one thread run before another** (a join moved
//!   before a creation) and **a value change** in the condition of a best-ranked candidate
//!   line (an inverted test, an off-by-one), never in what states the property.
//!
//! When no proposal verifies, the cheapest ones whose patched program still fails (not
//! a deadlock they made) are localized again and the proposals for what is left are tried
//! on top (`combine`): two independent faults, of which one trace shows one.
//!
//! Every proposal is checked by re-parsing and re-checking the patched program (through a
//! [`Verifier`] the caller supplies: the same checker and bounds as the localization, with
//! assertions *and* deadlocks checked, so a repair that introduces a deadlock is dropped).
//! Proposals are tried in order of size — statements under a lock, then a new mutex after
//! an existing one, then lines changed — and the first verified ones are the answer.
//!
//! When the localization found root causes, each proposal's kill set (the root causes it
//! removes) is read from the text and the minimum binate covers of them (ConcBugAssist's
//! choice, solved with Z3's optimizer: `cover`) are tried first — one proposal, or
//! several made together when no single one kills every root cause. When a round's
//! covers all fail, the failure one leaves is localized again and its root causes join
//! the set (`cover::search_covered`, ConcBugAssist's loop).
//!
//! Not built (issue 24): kill sets for the repairs other than critical sections,
//! reorderings, handshakes and joins; a new `__VERIFIER_atomic_*` function (atomic
//! *sections* are proposed where the program writes them: `source::ATOMIC`); value
//! repairs beyond a candidate's condition. Verification is as strong as the check: with
//! the built-in checker "no failure in any execution" when the explicit-state explorer
//! finishes, otherwise within the
//! bounds it names.

pub mod actions;
pub mod cover;
pub mod edit;
pub mod source;

use std::time::Instant;

pub use actions::{Proposal, Sites};
pub use source::Source;

#[derive(Debug, thiserror::Error)]
pub enum RepairError {
    #[error("cannot read the source for a repair: {0}")]
    Source(String),
}

/// What a re-check of a patched program said.
#[derive(Clone, Debug)]
pub enum Verification {
    /// No failure and no deadlock: in every execution (`exhaustive`) or within the bounds
    /// `reach` names.
    Holds { exhaustive: bool, reach: String },
    /// The patched program still fails, or fails anew (a deadlock the repair made).
    Fails(String),
    /// No answer (a limit, a bound reached, a program the checker refused).
    Unknown(String),
}

/// Re-checks patched programs for [`search`].
pub trait Verifier {
    fn verify(&mut self, patched: &str) -> Verification;
    /// The time for repairs is over.
    fn expired(&self) -> bool;
    /// The root causes of a patched program that still fails (not by a deadlock),
    /// localized again: lines of the patched text, every access in the input file and
    /// named as the original. None when they are not looked for or not found.
    fn root_causes(&mut self, _patched: &str) -> Vec<crate::rootcause::causes::RootCause> {
        Vec::new()
    }
}

/// A proposal that verified.
#[derive(Clone, Debug)]
pub struct Verified {
    pub proposal: Proposal,
    pub patched: String,
    pub diff: String,
    pub lines_changed: usize,
    pub exhaustive: bool,
    /// How far the verification reaches, in words.
    pub reach: String,
    pub ms: u64,
}

/// A proposal that did not verify, and why.
#[derive(Clone, Debug)]
pub struct Dropped {
    pub summary: String,
    pub why: String,
    /// The patched program, when its re-check found a failure (not a deadlock it made,
    /// not "no answer"): a second fault may be all that is left.
    pub still_fails: Option<(Proposal, String)>,
}

#[derive(Clone, Debug, Default)]
pub struct Outcome {
    pub verified: Vec<Verified>,
    pub dropped: Vec<Dropped>,
    /// Proposals made in all, and how many were re-checked.
    pub proposed: usize,
    pub checked: usize,
    /// The time ran out before every proposal was checked.
    pub out_of_time: bool,
    /// The root causes the proposals were chosen against (`cover`), and those no
    /// proposal kills.
    pub root_causes: usize,
    pub uncovered: Vec<usize>,
    /// What the search did, for `-v`.
    pub notes: Vec<String>,
}

impl Outcome {
    /// Another search's re-checks added to these.
    pub fn absorb(&mut self, o: Outcome) {
        self.verified.extend(o.verified);
        self.dropped.extend(o.dropped);
        self.proposed += o.proposed;
        self.checked += o.checked;
        self.out_of_time |= o.out_of_time;
        self.notes.extend(o.notes);
    }
}

/// A repair in two steps: `first` (whose patched program still failed) and then `then`,
/// found by localizing that program again, written as one change of the original.
pub fn combine(src: &Source, diff_path: &str, first: &Proposal, then: Verified) -> Verified {
    let edits = edit::edits_between(&src.text, &then.patched);
    Verified {
        proposal: Proposal {
            summary: format!(
                "{}; and then (in the program so patched, by its line numbers) {}",
                first.summary, then.proposal.summary
            ),
            action: actions::Action::Combined {
                first: Box::new(first.action.clone()),
                then: Box::new(then.proposal.action.clone()),
            },
            statements_locked: first.statements_locked + then.proposal.statements_locked,
            serializes: first.serializes || then.proposal.serializes,
            // The second step's root causes are another localization's.
            kills: first.kills.clone(),
            tier: first.tier.max(then.proposal.tier),
            edits,
        },
        diff: edit::unified_diff(&src.text, &then.patched, diff_path),
        lines_changed: edit::lines_changed(&src.text, &then.patched),
        ..then
    }
}

/// Tries `proposals` in order, re-checking each patched program, until `want` verify.
pub fn search(
    src: &Source,
    diff_path: &str,
    proposals: Vec<Proposal>,
    want: usize,
    v: &mut dyn Verifier,
) -> Outcome {
    let mut out = Outcome {
        proposed: proposals.len(),
        ..Outcome::default()
    };
    for p in proposals {
        if out.verified.len() >= want.max(1) {
            break;
        }
        if v.expired() {
            out.out_of_time = true;
            break;
        }
        let patched = match edit::apply(&src.text, &p.edits) {
            Ok(t) => t,
            Err(e) => {
                out.dropped.push(Dropped {
                    summary: p.summary.clone(),
                    why: e.to_string(),
                    still_fails: None,
                });
                continue;
            }
        };
        let t = Instant::now();
        out.checked += 1;
        match v.verify(&patched) {
            Verification::Holds { exhaustive, reach } => {
                let diff = edit::unified_diff(&src.text, &patched, diff_path);
                let lines_changed = edit::lines_changed(&src.text, &patched);
                out.verified.push(Verified {
                    proposal: p,
                    patched,
                    diff,
                    lines_changed,
                    exhaustive,
                    reach,
                    ms: t.elapsed().as_millis() as u64,
                });
            }
            Verification::Fails(why) => {
                let still_fails = (!why.contains("deadlocks")).then(|| (p.clone(), patched));
                out.dropped.push(Dropped {
                    summary: p.summary,
                    why,
                    still_fails,
                });
            }
            Verification::Unknown(why) => out.dropped.push(Dropped {
                summary: p.summary,
                why,
                still_fails: None,
            }),
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    struct Script(Vec<Verification>);

    impl Verifier for Script {
        fn verify(&mut self, _: &str) -> Verification {
            if self.0.is_empty() {
                Verification::Unknown("no more answers".into())
            } else {
                self.0.remove(0)
            }
        }
        fn expired(&self) -> bool {
            false
        }
    }

    const PROG: &str = "#include <pthread.h>\nint c;\nvoid *t(void *a) {\n  int s = c;\n  c = s + 1;\n  return 0;\n}\n";

    #[test]
    fn the_first_proposal_that_verifies_is_kept_and_the_others_say_why() {
        let src = Source::parse(PROG).expect("parses");
        let sites = Sites {
            ranked: vec![5, 4],
            flows: vec![(4, vec![5])],
            orders: vec![],
            deadlock: false,
            fixed: vec![],
        };
        let props = actions::propose(&src, &sites);
        assert!(props.len() >= 2, "{props:?}");
        let mut v = Script(vec![
            Verification::Fails("assertion at line 9".into()),
            Verification::Holds {
                exhaustive: true,
                reach: "no failure in any execution".into(),
            },
        ]);
        let out = search(&src, "t.c", props, 1, &mut v);
        assert_eq!(out.verified.len(), 1);
        assert_eq!(out.dropped.len(), 1);
        assert_eq!(out.checked, 2);
        let d = &out.verified[0].diff;
        assert!(d.contains("+  pthread_mutex_lock("), "{d}");
    }
}
