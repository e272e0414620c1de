//! Which repairs remove which root causes, and the fewest, cheapest repairs that remove
//! them all: ConcBugAssist's kill sets and binate covering (paper 000, Alg. 2), the
//! covering solved with Z3's optimizer (every root cause killed is a hard constraint, each
//! repair chosen costs its weight: weighted MaxSAT).
//!
//! A root cause is a set of the failing run's inter-thread orderings that by themselves
//! force the failure (`rootcause::causes`); a repair *kills* it when no run of the patched
//! program can have all of them. What a repair rules out — its *kill set* — is read from
//! the source text (`kills`).
//!
//! The covering is *binate* because repairs exclude each other: two whose edits overlap
//! cannot both be made, and two critical sections whose lines overlap in one function would
//! nest two mutexes (a lock-order deadlock waiting to happen) — no cover has both.
//!
//! Kill sets are a reading of the text, not a proof: program order within a thread is read
//! from line numbers, and a loop's iterations are told apart by the accesses' occurrence
//! counts. So a cover is a proposal like any other: it is re-checked, and only the
//! checker's answer makes it a repair.

mod kills;
#[cfg(test)]
mod tests;

use std::collections::{BTreeSet, HashSet};

use z3::SatResult;
use z3::ast::Bool;

use super::actions::{Action, Proposal, Region, Sites, propose};
use super::edit;
use super::source::Source;
use super::{Outcome, Verifier, search};
use crate::rootcause::causes::{Access, CauseOrdering, RootCause};
pub use kills::mark_kills;

/// Covers tried at most (each is one re-check).
pub const MAX_COVERS: usize = 3;

/// Two repairs that cannot be made together.
fn conflict(src: &Source, a: &Proposal, b: &Proposal) -> bool {
    let both: Vec<edit::Edit> = a.edits.iter().chain(&b.edits).cloned().collect();
    if edit::apply(&src.text, &both).is_err() {
        return true;
    }
    let regions = |p: &Proposal| -> Vec<Region> {
        match &p.action {
            Action::Lock { regions, .. } => regions.clone(),
            _ => vec![],
        }
    };
    let (ra, rb) = (regions(a), regions(b));
    ra.iter().any(|x| {
        rb.iter().any(|y| {
            x.function == y.function && x.first_line <= y.last_line && y.first_line <= x.last_line
        })
    })
}

/// A repair's weight in the covering, by its size: statements under the lock, lines
/// changed, and a new mutex counted as three more statements locked (an existing mutex is
/// preferred unless it locks much more); a serializing repair outweighs any size. The
/// order of trying's tier is left out: it says which sites a proposal was drawn from, a
/// guess at the right lines that the kill set has now answered.
fn weight(src: &Source, p: &Proposal) -> u64 {
    let (serializes, _tier, locked, new, _edits) = p.cost();
    let lines = edit::apply(&src.text, &p.edits)
        .map_or(p.edits.len(), |t| edit::lines_changed(&src.text, &t));
    u64::from(serializes) * 100_000
        + locked as u64 * 10
        + lines as u64 * 3
        + u64::from(new) * 30
        + 1
}

/// Minimum covers of the root causes, and the root causes no proposal kills.
#[derive(Clone, Debug, Default)]
pub struct Covers {
    pub covers: Vec<Vec<usize>>,
    pub uncovered: Vec<usize>,
}

/// The minimum covers of the root causes, cheapest first: sets of proposals (indices)
/// that together kill every root cause some proposal kills, no two in conflict, at most
/// `max`. Root causes no proposal kills are left out (`uncovered`). The problem is a
/// few dozen variables: the optimizer runs without a time limit (Z3 4.8's timeouts race,
/// see `Session::set_gate_owning_deadline`).
pub fn minimum_covers(src: &Source, proposals: &[Proposal], causes: usize, max: usize) -> Covers {
    let killers: Vec<usize> = (0..proposals.len())
        .filter(|&i| proposals.get(i).is_some_and(|p| !p.kills.is_empty()))
        .collect();
    let covered: BTreeSet<usize> = killers
        .iter()
        .filter_map(|&i| proposals.get(i))
        .flat_map(|p| p.kills.iter().copied())
        .collect();
    let uncovered = (0..causes).filter(|c| !covered.contains(c)).collect();
    if covered.is_empty() {
        return Covers {
            covers: vec![],
            uncovered,
        };
    }
    let opt = z3::Optimize::new();
    let vars: Vec<(usize, Bool)> = killers
        .iter()
        .map(|&i| (i, Bool::new_const(format!("repair{i}"))))
        .collect();
    for c in &covered {
        let lits: Vec<&Bool> = vars
            .iter()
            .filter(|(i, _)| proposals.get(*i).is_some_and(|p| p.kills.contains(c)))
            .map(|(_, v)| v)
            .collect();
        opt.assert(Bool::or(&lits));
    }
    for (k, (i, vi)) in vars.iter().enumerate() {
        for (j, vj) in vars.iter().skip(k + 1) {
            if let (Some(a), Some(b)) = (proposals.get(*i), proposals.get(*j)) {
                if conflict(src, a, b) {
                    opt.assert(Bool::and(&[vi, vj]).not());
                }
            }
        }
        if let Some(p) = proposals.get(*i) {
            opt.assert_soft(&vi.not(), weight(src, p), None);
        }
    }
    let mut covers = Vec::new();
    while covers.len() < max && opt.check(&[]) == SatResult::Sat {
        let Some(m) = opt.get_model() else { break };
        let chosen: Vec<(usize, &Bool)> = vars
            .iter()
            .filter(|(_, v)| m.eval(v, true).and_then(|b| b.as_bool()) == Some(true))
            .map(|(i, v)| (*i, v))
            .collect();
        if chosen.is_empty() {
            break;
        }
        // The next cover is another set (a superset of this one costs more and comes
        // after any cheaper other set).
        let lits: Vec<&Bool> = chosen.iter().map(|(_, v)| *v).collect();
        opt.assert(Bool::and(&lits).not());
        covers.push(chosen.into_iter().map(|(i, _)| i).collect());
    }
    Covers { covers, uncovered }
}

/// The proposals each cover makes: one proposal, or several made as one `Cover`.
pub fn cover_proposals(src: &Source, proposals: &[Proposal], covers: &Covers) -> Vec<Proposal> {
    let mut out = Vec::new();
    for cover in &covers.covers {
        let parts: Vec<&Proposal> = cover.iter().filter_map(|&i| proposals.get(i)).collect();
        match parts.as_slice() {
            [] => {}
            [one] => out.push((*one).clone()),
            several => {
                // Two new mutexes get the same fresh name and declaration: one
                // declaration, one mutex for both.
                let mut seen = HashSet::new();
                let edits: Vec<edit::Edit> = several
                    .iter()
                    .flat_map(|p| p.edits.iter().cloned())
                    .filter(|e| seen.insert(e.clone()))
                    .collect();
                if edit::apply(&src.text, &edits).is_err() {
                    continue;
                }
                let mut kills: Vec<usize> = several
                    .iter()
                    .flat_map(|p| p.kills.iter().copied())
                    .collect();
                kills.sort_unstable();
                kills.dedup();
                out.push(Proposal {
                    action: Action::Cover {
                        parts: several.iter().map(|p| p.action.clone()).collect(),
                    },
                    summary: several
                        .iter()
                        .map(|p| p.summary.as_str())
                        .collect::<Vec<_>>()
                        .join("; and "),
                    edits,
                    statements_locked: several.iter().map(|p| p.statements_locked).sum(),
                    serializes: several.iter().any(|p| p.serializes),
                    tier: several.iter().map(|p| p.tier).max().unwrap_or(0),
                    kills,
                });
            }
        }
    }
    out
}

/// Rounds of covering: after the covers of a round fail, the failure one of them leaves is
/// localized again and its root causes join the set (ConcBugAssist's loop: a root cause
/// the first failing run did not show is found in the run the repair still allows).
pub const COVER_ROUNDS: usize = 3;

/// A root cause of a patched program's failure with the patched program's lines taken
/// back to the original's; orderings on lines the patch changed are left out (`None`
/// when none is left).
pub fn map_back(original: &str, patched: &str, c: &RootCause) -> Option<RootCause> {
    let diff = similar::TextDiff::from_lines(original, patched);
    let mut lines = std::collections::HashMap::new();
    for op in diff.ops() {
        if op.tag() == similar::DiffTag::Equal {
            for (o, n) in op.old_range().zip(op.new_range()) {
                lines.insert(n as u32 + 1, o as u32 + 1);
            }
        }
    }
    let back = |a: &Access| -> Option<Access> {
        Some(Access {
            line: *lines.get(&a.line)?,
            ..a.clone()
        })
    };
    let orderings: Vec<CauseOrdering> = c
        .orderings
        .iter()
        .filter_map(|o| {
            Some(CauseOrdering {
                before: back(&o.before)?,
                after: back(&o.after)?,
            })
        })
        .collect();
    (!orderings.is_empty()).then(|| RootCause {
        orderings,
        ..c.clone()
    })
}

/// The sites a root cause points at, for proposals: its accesses' lines, each read with
/// the write it raced with, and — for a read that came before another thread's write —
/// the ordering a handshake would add.
fn sites_of(causes: &[RootCause], in_input: &dyn Fn(&str) -> bool) -> Sites {
    let mut sites = Sites::default();
    for o in causes.iter().flat_map(|c| &c.orderings) {
        let (b, a) = (&o.before, &o.after);
        if !in_input(&b.file) || !in_input(&a.file) {
            continue;
        }
        for l in [b.line, a.line] {
            if !sites.ranked.contains(&l) {
                sites.ranked.push(l);
            }
        }
        let (read, write) = match (b.write, a.write) {
            (false, true) => (b, a),
            (true, false) => (a, b),
            _ => continue,
        };
        sites.flows.push((read.line, vec![write.line]));
        if !b.write {
            sites.orders.push((a.line, b.line));
        }
    }
    sites
}

/// What the covering did: its re-checks, the proposals left for the ordinary order
/// (those not tried, their kill sets over every root cause found), and the root causes.
pub struct Covered {
    pub outcome: Outcome,
    pub rest: Vec<Proposal>,
    /// Covers of several proposals made (proposals of their own).
    pub made: usize,
}

/// Tries the minimum covers of `causes` until `want` verify, learning root causes from
/// the failures covers leave for up to [`COVER_ROUNDS`] rounds.
pub fn search_covered(
    src: &Source,
    diff_path: &str,
    mut proposals: Vec<Proposal>,
    mut causes: Vec<RootCause>,
    in_input: &dyn Fn(&str) -> bool,
    want: usize,
    v: &mut dyn Verifier,
) -> Covered {
    let mut outcome = Outcome::default();
    let mut tried: HashSet<String> = HashSet::new();
    let mut uncovered = Vec::new();
    let mut made = 0;
    for round in 0..COVER_ROUNDS {
        mark_kills(src, &mut proposals, &causes, in_input);
        let covers = minimum_covers(src, &proposals, causes.len(), MAX_COVERS);
        uncovered.clone_from(&covers.uncovered);
        outcome.notes.push(format!(
            "cover round {}: {} root causes, minimum covers {:?} (proposal indices), none kills {:?}",
            round + 1,
            causes.len(),
            covers.covers,
            covers.uncovered
        ));
        let fresh: Vec<Proposal> = cover_proposals(src, &proposals, &covers)
            .into_iter()
            .filter(|p| edit::apply(&src.text, &p.edits).is_ok_and(|t| tried.insert(t)))
            .collect();
        if fresh.is_empty() {
            break;
        }
        made += fresh
            .iter()
            .filter(|p| matches!(p.action, Action::Cover { .. }))
            .count();
        let o = search(src, diff_path, fresh, want, v);
        let left = o
            .dropped
            .iter()
            .find_map(|d| d.still_fails.as_ref().map(|(_, t)| t.clone()));
        outcome.absorb(o);
        if outcome.verified.len() >= want.max(1) || outcome.out_of_time || v.expired() {
            break;
        }
        let Some(patched) = left else { break };
        let before = causes.len();
        let found = v.root_causes(&patched);
        let mut unmapped = 0;
        for c in &found {
            match map_back(&src.text, &patched, c) {
                Some(m) if !causes.iter().any(|k| k.orderings == m.orderings) => causes.push(m),
                Some(_) => {}
                None => unmapped += 1,
            }
        }
        outcome.notes.push(format!(
            "cover round {}: the failure a cover leaves has {} root causes, {} new ({} only on lines the patch changed)",
            round + 1,
            found.len(),
            causes.len() - before,
            unmapped
        ));
        if causes.len() == before {
            break;
        }
        // The new root causes' lines may be far from the first failure's sites: the
        // proposals for them join the ones there are.
        let mut known: HashSet<String> = proposals
            .iter()
            .filter_map(|p| edit::apply(&src.text, &p.edits).ok())
            .collect();
        let more: Vec<Proposal> = propose(
            src,
            &sites_of(causes.get(before..).unwrap_or(&[]), in_input),
        )
        .into_iter()
        .filter(|p| edit::apply(&src.text, &p.edits).is_ok_and(|t| known.insert(t)))
        .collect();
        outcome.notes.push(format!(
            "cover round {}: {} more proposals from the new root causes' lines",
            round + 1,
            more.len()
        ));
        proposals.extend(more);
    }
    outcome.root_causes = causes.len();
    outcome.uncovered = uncovered;
    let rest = proposals
        .into_iter()
        .filter(|p| edit::apply(&src.text, &p.edits).is_ok_and(|t| !tried.contains(&t)))
        .collect();
    Covered {
        outcome,
        rest,
        made,
    }
}
