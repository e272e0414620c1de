//! A mutex let go one statement too early: `pthread_spin_unlock(&t->lock);
//! t->generation++;`, where another thread accesses `generation` holding `t->lock`. The
//! access right after the unlock is outside the section it belongs in, and another
//! thread's access comes between its read and its write; the unlock is the line to move
//! (after the access). The access is only where the missing exclusion shows.
//!
//! Eraser's lockset rule along the run (`diag::interleaving::Unprotected`) names an access
//! made holding no lock at all; this one held another (a per-entry lock beside the
//! table's), so the two sets are disjoint without either being empty.

use std::collections::BTreeSet;

use super::{Candidate, CandidateKind, Explainer, Role, same_file};

impl Explainer<'_> {
    /// Candidates for the unlocks made just before an access of a location other threads
    /// access holding that mutex (see the module comment): the access is on a candidate's
    /// line, the thread held the mutex until the unlock and its last lock call in the
    /// access's function was that unlock.
    pub fn early_unlock_candidates(&self, mut out: Vec<Candidate>) -> Vec<Candidate> {
        let steps = &self.cex.steps;
        let held = crate::diag::interleaving::locks_held(steps);
        let holds = |at: usize, t: u32, m: &str| {
            held.get(at)
                .and_then(|h| h.get(&t))
                .is_some_and(|v| v.iter().any(|(l, _)| same_lock(l, m)))
        };
        let mut named: BTreeSet<(u32, String)> = BTreeSet::new();
        for (i, a) in steps.iter().enumerate() {
            let on_candidate =
                |c: &Candidate| c.line == a.line && same_file(&c.file, &a.file) && !c.specification;
            if !out.iter().any(on_candidate) {
                continue;
            }
            // The whole line's accesses: a statement seqloc writes out as several (a
            // `memset`) is one access in the program.
            let (reads, writes) = self.accesses(&a.file, a.line);
            if self
                .stmt_access(a.sid)
                .is_none_or(|(r, w)| r.is_empty() && w.is_empty())
            {
                continue;
            }
            let Some(u) = self.unlock_before(i) else {
                continue;
            };
            let Some(unlock) = steps.get(u) else {
                continue;
            };
            let Some((_, m)) = self
                .stmts
                .get(&unlock.sid)
                .and_then(|st| self.lock_call(st))
            else {
                continue;
            };
            // Held up to the unlock, not at the access.
            if u == 0 || !holds(u - 1, a.thread, &m) || holds(i, a.thread, &m) {
                continue;
            }
            // Another thread's conflicting access of the same location made holding it.
            let Some((other, v)) = steps.iter().enumerate().find_map(|(j, o)| {
                if o.thread == a.thread || !holds(j, o.thread, &m) {
                    return None;
                }
                let (r, w) = self.stmt_access(o.sid)?;
                writes
                    .iter()
                    .find(|v| r.contains(v) || w.contains(v))
                    .or_else(|| reads.iter().find(|v| w.contains(v)))
                    .map(|v| (o, v.clone()))
            }) else {
                continue;
            };
            // Every other access that conflicts with this one while its thread runs holds
            // the mutex too (the same statement of another thread, with the same fault,
            // aside): otherwise the unlock moved would not exclude them all.
            let first = steps.iter().position(|s| s.thread == a.thread).unwrap_or(0);
            let end = steps
                .iter()
                .rposition(|s| s.thread == a.thread)
                .unwrap_or(i);
            let conflicts = |o: &crate::cex::TraceStep| {
                self.stmt_access(o.sid).is_some_and(|(r, w)| {
                    writes.iter().any(|v| r.contains(v) || w.contains(v))
                        || reads.iter().any(|v| w.contains(v))
                })
            };
            let bare = steps
                .iter()
                .enumerate()
                .take(end + 1)
                .skip(first)
                .any(|(j, o)| {
                    o.thread != a.thread
                        && !(o.line == a.line && same_file(&o.file, &a.file))
                        && conflicts(o)
                        && !holds(j, o.thread, &m)
                });
            if bare {
                continue;
            }
            if !named.insert((unlock.sid.0, m.clone())) {
                continue;
            }
            let hint = format!(
                "{t} lets `{m}` go here, before its access of `{v}` at line {}, which {o} makes holding `{m}` (line {}): the access is outside the critical section it belongs in, and another thread's access can come in the middle of it; unlocked after line {}, the two exclude each other",
                a.line,
                other.line,
                a.line,
                t = self.thread_name(a.thread),
                o = self.thread_name(other.thread),
            );
            self.name_as(
                &mut out,
                unlock,
                &hint,
                (CandidateKind::Locking, Role::ReleasedEarly),
            );
        }
        out
    }
}

/// Two lock texts name the same mutex (`&t->lock` and `t->lock` alike).
fn same_lock(a: &str, b: &str) -> bool {
    let plain = |s: &str| -> String {
        s.chars()
            .filter(|c| !c.is_whitespace())
            .collect::<String>()
            .trim_start_matches('&')
            .to_string()
    };
    plain(a) == plain(b)
}
