//! Which repairs remove which root causes, and the fewest, cheapest repairs that remove
//! them all: ConcBugAssist's kill sets and binate covering (paper 000, Alg. 2), the
//! covering solved with Z3's optimizer (every root cause killed is a hard constraint, each
//! repair chosen costs its weight: weighted MaxSAT).
//!
//! A root cause is a set of the failing run's inter-thread orderings that by themselves
//! force the failure (`rootcause::causes`); a repair *kills* it when no run of the patched
//! program can have all of them. What a repair rules out is read from the source text:
//!
//! * a **critical section** (`Lock`): two sections of one mutex run one after the other,
//!   whole — in a section of the proposal, or in one the program already has for an
//!   existing mutex. It kills a root cause with an ordering from one thread's section to
//!   another thread's section and one back (ConcBugAssist's atomic region: another
//!   thread's access between two of a section's; or two check-then-acts, each thread's
//!   check before the other's act). An atomic section (`source::ATOMIC`) needs only one
//!   side: no other thread runs inside it at all. A section holds the accesses of the
//!   helpers its calls reach as well as its own lines';
//! * a **reordering** reverses the program order of the moved statement and those it
//!   jumps over: it kills the same sandwich when `p` and `q` are on the two sides of the
//!   move; a `pthread_join` moved up makes what it jumps over wait for the whole thread,
//!   a `pthread_create` moved down starts the thread after it (an ordering the other way
//!   round is killed);
//! * a **handshake** makes a statement wait for another thread's write: it kills a root
//!   cause in which the waiting thread (at or after that statement) runs an access before
//!   the writer's access at or before the write — the opposite order (ConcBugAssist's
//!   ordering repair);
//! * a **join** makes the creator wait for the thread's end: it kills an ordering of the
//!   creator's access at or after the join before one of the thread's.
//!
//! The rules read data orderings. A deadlock's root causes are orderings of lock calls
//! that only the locks' semantics make contradictory (a lock order made consistent kills
//! none of them by these rules), so a deadlock's repairs are not chosen by covering.
//!
//! The other repairs (a wait made a loop, a release before a return, a thread's own
//! argument, a value change) have no kill set here: they keep their place in the ordinary
//! order of trying.
//!
//! The covering is *binate* because repairs exclude each other: two whose edits overlap
//! cannot both be made, and two critical sections whose lines overlap in one function would
//! nest two mutexes (a lock-order deadlock waiting to happen) — no cover has both.
//!
//! Kill sets are a reading of the text, not a proof: program order within a thread is read
//! from line numbers, and a loop's iterations are told apart by the accesses' occurrence
//! counts. So a cover is a proposal like any other: it is re-checked, and only the
//! checker's answer makes it a repair.

use std::collections::{BTreeSet, HashSet};

use z3::SatResult;
use z3::ast::Bool;

use super::actions::joins::{creation, reachable};
use super::actions::{Action, Proposal, Region, Sites, held_at, propose};
use super::edit;
use super::source::{ATOMIC, Source};
use super::{Outcome, Verifier, search};
use crate::rootcause::causes::{Access, CauseOrdering, RootCause};

/// Covers tried at most (each is one re-check).
pub const MAX_COVERS: usize = 3;

/// An access of a root cause, placed in the source.
#[derive(Clone, Debug)]
struct Point {
    thread: u32,
    line: u32,
    occurrence: u32,
    write: bool,
    stmt: usize,
    function: String,
}

impl Point {
    fn of(src: &Source, a: &Access) -> Option<Point> {
        let stmt = src.statement_at(a.line)?;
        Some(Point {
            thread: a.thread,
            line: a.line,
            occurrence: a.occurrence,
            write: a.write,
            stmt,
            function: src.stmts.get(stmt)?.function.clone(),
        })
    }

    /// Runs no later than `o` in their thread (read from the source: a loop's iterations
    /// by occurrence, then lines, then a line's read before its write).
    fn not_after(&self, o: &Point) -> bool {
        (self.occurrence, self.line, self.write) <= (o.occurrence, o.line, o.write)
    }
}

/// A root cause's orderings whose accesses are both in the input: `(before, after)`.
struct Cause(Vec<(Point, Point)>);

impl Cause {
    fn of(src: &Source, c: &RootCause, in_input: &dyn Fn(&str) -> bool) -> Cause {
        Cause(
            c.orderings
                .iter()
                .filter(|o| in_input(&o.before.file) && in_input(&o.after.file))
                .filter_map(|o| Some((Point::of(src, &o.before)?, Point::of(src, &o.after)?)))
                .collect(),
        )
    }

    /// `(p, w, w2, q)` for each pair of orderings `p before w`, `w2 before q` where `p`
    /// and `q` are one thread's, in that order, and `w`, `w2` another's, in that order:
    /// the other thread's accesses come between `p` and `q`.
    fn sandwiches(&self) -> impl Iterator<Item = (&Point, &Point, &Point, &Point)> {
        self.0.iter().flat_map(move |(p, w)| {
            self.0.iter().filter_map(move |(w2, q)| {
                let fits = p.thread == q.thread
                    && w.thread == w2.thread
                    && p.thread != w.thread
                    && p.not_after(q)
                    && w.not_after(w2);
                fits.then_some((p, w, w2, q))
            })
        })
    }
}

/// Where a point is under the mutex of a `Lock`: in one of its regions, or (an existing
/// mutex) in a section the program already has.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Section {
    Region(usize),
    Held,
}

fn is_loop(kind: &str) -> bool {
    matches!(kind, "for_statement" | "while_statement" | "do_statement")
}

struct LockKills<'a> {
    src: &'a Source,
    mutex: &'a str,
    new: bool,
    regions: &'a [Region],
    /// Per region, the functions its calls reach.
    called: Vec<BTreeSet<String>>,
}

impl<'a> LockKills<'a> {
    fn new(src: &'a Source, mutex: &'a str, new: bool, regions: &'a [Region]) -> Self {
        let defined: BTreeSet<&str> = src.stmts.iter().map(|s| s.function.as_str()).collect();
        let called = regions
            .iter()
            .map(|r| {
                src.stmts
                    .iter()
                    .filter(|st| {
                        st.function == r.function
                            && r.first_line <= st.first_line
                            && st.last_line <= r.last_line
                    })
                    .flat_map(|st| st.idents.iter())
                    .filter(|g| **g != r.function && defined.contains(g.as_str()))
                    .flat_map(|g| reachable(src, g))
                    .collect()
            })
            .collect();
        LockKills {
            src,
            mutex,
            new,
            regions,
            called,
        }
    }

    /// Whether region `i` holds `p`: on one of its lines, or in a function that a call
    /// on one of its lines reaches (an access inside a helper the section calls).
    fn holds(&self, i: usize, p: &Point) -> bool {
        let Some(r) = self.regions.get(i) else {
            return false;
        };
        if r.function == p.function {
            return r.first_line <= p.line && p.line <= r.last_line;
        }
        self.called.get(i).is_some_and(|c| c.contains(&p.function))
    }

    fn section(&self, p: &Point) -> Option<Section> {
        let in_region = (0..self.regions.len()).find(|&i| self.holds(i, p));
        match in_region {
            Some(i) => Some(Section::Region(i)),
            None if !self.new && held_at(self.src, p.stmt, self.mutex) => Some(Section::Held),
            None => None,
        }
    }

    /// `a` and `b` run in one execution of one section: in the same iteration, or in a
    /// region that holds the whole loop around both.
    fn together(&self, a: &Point, b: &Point) -> bool {
        let Some(s) = self.section(a) else {
            return false;
        };
        if self.section(b) != Some(s) {
            return false;
        }
        // One execution of a section: the same iteration of one function's code; or, for
        // accesses in two helpers the section calls, the first execution of each.
        if a.occurrence == b.occurrence && (a.function == b.function || a.occurrence == 1) {
            return true;
        }
        if a.function != b.function {
            return false;
        }
        let Section::Region(i) = s else {
            return false;
        };
        let Some(r) = self.regions.get(i) else {
            return false;
        };
        let mut cur = self.src.stmts.get(a.stmt).and_then(|s| s.parent);
        while let Some(c) = cur {
            let Some(st) = self.src.stmts.get(c) else {
                break;
            };
            if is_loop(&st.kind)
                && r.first_line <= st.first_line
                && st.last_line <= r.last_line
                && self.src.within(c).contains(&b.stmt)
            {
                return true;
            }
            cur = st.parent;
        }
        false
    }

    /// Two sections of one mutex run one after the other, whole: a root cause with an
    /// ordering from one thread's section to another's and one back cannot happen in
    /// either order.
    ///
    /// An atomic section is stronger: no other thread runs inside it, under the section or
    /// not, so one thread's side alone decides.
    fn kills(&self, c: &Cause) -> bool {
        let atomic = self.mutex == ATOMIC;
        c.0.iter().any(|(x, y)| {
            x.thread != y.thread
                && c.0.iter().any(|(y2, x2)| {
                    y2.thread == y.thread
                        && x2.thread == x.thread
                        && self.together(x, x2)
                        && (atomic || self.together(y, y2))
                })
        })
    }
}

/// The two sides of a reordering, `(first, second)`: after the move every statement of
/// `first` runs before every statement of `second`; before it, the opposite.
fn reorder_sides(
    src: &Source,
    moved: u32,
    target: u32,
    after: bool,
) -> Option<(Vec<usize>, Vec<usize>)> {
    let (sm, st) = (src.statement_at(moved)?, src.statement_at(target)?);
    for b in src.enclosing_blocks(sm) {
        let (Some(cm), Some(ct)) = (src.child_of_block(b, sm), src.child_of_block(b, st)) else {
            continue;
        };
        let stmts = &src.blocks.get(b)?.stmts;
        let im = stmts.iter().position(|&x| x == cm)?;
        let it = stmts.iter().position(|&x| x == ct)?;
        let span = |r: std::ops::Range<usize>| -> Vec<usize> {
            stmts
                .get(r)
                .unwrap_or(&[])
                .iter()
                .flat_map(|&s| src.within(s))
                .collect()
        };
        let moved_stmts = src.within(cm);
        return Some(if !after && it < im {
            // Moved up over `it..im`: it now runs before them.
            (moved_stmts, span(it..im))
        } else if after && im < it {
            // Moved down over `im+1..=it`: they now run before it.
            (span(im + 1..it + 1), moved_stmts)
        } else {
            return None;
        });
    }
    None
}

/// The functions a thread started with handle `h` runs (its start routine and what it
/// calls).
fn routines_of(src: &Source, h: &str) -> BTreeSet<String> {
    (0..src.stmts.len())
        .filter_map(|s| creation(src, s))
        .filter(|(x, _)| x == h)
        .flat_map(|(_, f)| reachable(src, &f))
        .collect()
}

/// A join or a creation moved: a join that now comes before statements `second` makes
/// them wait for the whole thread (an ordering of theirs before one of the thread's
/// accesses cannot happen); a creation that now comes after statements `first` starts the
/// thread after them (an ordering of the thread's access before theirs cannot happen).
fn thread_moved(
    src: &Source,
    c: &Cause,
    function: &str,
    first: &[usize],
    second: &[usize],
) -> bool {
    let call_of = |stmts: &[usize], name: &str| -> Option<String> {
        stmts.iter().find_map(|&s| {
            let call = src.stmts.get(s)?.call.as_ref()?;
            if call.name != name {
                return None;
            }
            let h = call.args.first()?.trim();
            Some(h.strip_prefix('&').unwrap_or(h).trim().to_string())
        })
    };
    let in_thread = |routines: &BTreeSet<String>, y: &Point| routines.contains(&y.function);
    if let Some(h) = call_of(first, "pthread_join") {
        let routines = routines_of(src, &h);
        if c.0.iter().any(|(x, y)| {
            x.thread != y.thread
                && x.function == function
                && second.contains(&x.stmt)
                && in_thread(&routines, y)
        }) {
            return true;
        }
    }
    if let Some(h) = call_of(second, "pthread_create") {
        let routines = routines_of(src, &h);
        if c.0.iter().any(|(y, x)| {
            x.thread != y.thread
                && x.function == function
                && first.contains(&x.stmt)
                && in_thread(&routines, y)
        }) {
            return true;
        }
    }
    false
}

/// The root causes (indices of `causes`) that `a` kills.
fn kill_set(src: &Source, a: &Action, causes: &[Cause]) -> Vec<usize> {
    let lock = match a {
        Action::Lock {
            mutex,
            new,
            regions,
        } => Some(LockKills::new(src, mutex, *new, regions)),
        _ => None,
    };
    let kills = |c: &Cause| -> bool {
        match a {
            Action::Lock { .. } => lock.as_ref().is_some_and(|l| l.kills(c)),
            Action::Reorder {
                function,
                moved,
                target,
                after,
            } => reorder_sides(src, *moved, *target, *after).is_some_and(|(first, second)| {
                // After the move `first` runs before `second`; a sandwich that needs `q`
                // of `first` after `p` of `second` in one iteration cannot happen.
                let sandwich = c.sandwiches().any(|(p, _, _, q)| {
                    p.function == *function
                        && p.occurrence == q.occurrence
                        && second.contains(&p.stmt)
                        && first.contains(&q.stmt)
                });
                sandwich || thread_moved(src, c, function, &first, &second)
            }),
            Action::Handshake {
                writer,
                after,
                reader,
                before,
                ..
            } => c.0.iter().any(|(r, w)| {
                r.thread != w.thread
                    && r.function == *reader
                    && r.line >= *before
                    && w.function == *writer
                    && w.line <= *after
            }),
            Action::Join {
                function,
                line,
                thread,
            } => {
                let routines = routines_of(src, thread);
                c.0.iter().any(|(x, y)| {
                    x.thread != y.thread
                        && x.function == *function
                        && x.line >= *line
                        && routines.contains(&y.function)
                })
            }
            Action::Cover { parts } => parts
                .iter()
                .any(|p| !kill_set(src, p, std::slice::from_ref(c)).is_empty()),
            _ => false,
        }
    };
    causes
        .iter()
        .enumerate()
        .filter(|(_, c)| kills(c))
        .map(|(i, _)| i)
        .collect()
}

/// Sets `kills` on each proposal: the root causes it removes.
pub fn mark_kills(
    src: &Source,
    proposals: &mut [Proposal],
    causes: &[RootCause],
    in_input: &dyn Fn(&str) -> bool,
) {
    let causes: Vec<Cause> = causes.iter().map(|c| Cause::of(src, c, in_input)).collect();
    for p in proposals {
        p.kills = kill_set(src, &p.action, &causes);
    }
}

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

#[cfg(test)]
mod tests {
    use super::*;
    use crate::repair::actions::tests::SEAT;
    use crate::repair::actions::{Sites, propose};

    fn access(thread: u32, line: u32, var: &str, write: bool) -> Access {
        Access {
            thread,
            file: "t.c".into(),
            line,
            variable: var.into(),
            write,
            sync: false,
            statement: String::new(),
            occurrence: 1,
        }
    }

    /// A root cause from `(before, after)` pairs.
    fn cause(orderings: Vec<(Access, Access)>) -> RootCause {
        RootCause {
            orderings: orderings
                .into_iter()
                .map(|(before, after)| CauseOrdering { before, after })
                .collect(),
            atomicity: None,
            verified: Some(true),
        }
    }

    fn marked(prog: &str, sites: &Sites, causes: &[RootCause]) -> (Source, Vec<Proposal>) {
        let src = Source::parse(prog).expect("parses");
        let mut props = propose(&src, sites);
        mark_kills(&src, &mut props, causes, &|f| f == "t.c");
        (src, props)
    }

    #[test]
    fn a_section_over_the_check_and_the_act_kills_two_crossed_check_then_acts() {
        // Each thread's check (line 5) ran before the other's act (line 7): whichever
        // whole section runs first, one of the two orderings is reversed.
        let c = cause(vec![
            (access(2, 5, "seats", false), access(1, 7, "seats", true)),
            (access(1, 5, "seats", false), access(2, 7, "seats", true)),
        ]);
        let sites = Sites {
            ranked: vec![5, 7],
            ..Sites::default()
        };
        let (src, props) = marked(SEAT, &sites, &[c]);
        let widened = props
            .iter()
            .find(|p| {
                matches!(&p.action, Action::Lock { new: false, regions, .. }
                if regions.iter().any(|r| r.first_line <= 5 && 7 <= r.last_line))
            })
            .expect("the existing mutex widened over lines 5-7");
        assert_eq!(widened.kills, vec![0]);
        // A section over the act alone (the program as it is) leaves both orders possible.
        let narrow = props.iter().find(|p| {
            matches!(&p.action, Action::Lock { regions, .. }
                if regions.iter().all(|r| r.first_line > 5))
        });
        assert!(narrow.is_none_or(|p| p.kills.is_empty()), "{narrow:?}");
        let covers = minimum_covers(&src, &props, 1, MAX_COVERS);
        assert!(!covers.covers.is_empty() && covers.uncovered.is_empty());
        for cover in &covers.covers {
            assert!(
                cover
                    .iter()
                    .all(|&i| props.get(i).is_some_and(|p| p.kills == vec![0]))
            );
        }
    }

    const FLAG: &str = r#"#include <pthread.h>
#include <assert.h>
int data, flag;
void *send(void *a) {
  flag = 1;
  data = 7;
  return a;
}
void *recv(void *a) {
  if (flag)
    assert(data == 7);
  return a;
}
"#;

    #[test]
    fn moving_the_data_before_the_flag_kills_the_read_between_them() {
        // T1 raised the flag (5) before T2 read it (10); T2 read the data (11) before T1
        // wrote it (6).
        let c = cause(vec![
            (access(1, 5, "flag", true), access(2, 10, "flag", false)),
            (access(2, 11, "data", false), access(1, 6, "data", true)),
        ]);
        let sites = Sites {
            ranked: vec![5, 6, 11],
            ..Sites::default()
        };
        let (_, props) = marked(FLAG, &sites, &[c]);
        let up = props
            .iter()
            .find(|p| {
                matches!(
                    p.action,
                    Action::Reorder {
                        moved: 6,
                        target: 5,
                        after: false,
                        ..
                    }
                )
            })
            .expect("line 6 moved before line 5");
        assert_eq!(up.kills, vec![0]);
        // Moving it the other way round changes nothing the root cause needs.
        for p in &props {
            if let Action::Reorder { moved, target, .. } = p.action {
                if (moved, target) != (6, 5) && (moved, target) != (5, 6) {
                    assert!(p.kills.is_empty(), "{p:?}");
                }
            }
        }
    }

    const ORDER: &str = r#"#include <pthread.h>
#include <assert.h>
int port;
void *configure(void *a) {
  port = 8080;
  return a;
}
void *serve(void *a) {
  int p = port;
  assert(p == 8080);
  return a;
}
"#;

    #[test]
    fn a_handshake_kills_the_read_that_came_before_the_write() {
        let c = cause(vec![(
            access(2, 9, "port", false),
            access(1, 5, "port", true),
        )]);
        let sites = Sites {
            ranked: vec![9, 5],
            orders: vec![(5, 9)],
            ..Sites::default()
        };
        let (_, props) = marked(ORDER, &sites, std::slice::from_ref(&c));
        let h = props
            .iter()
            .find(|p| matches!(p.action, Action::Handshake { .. }))
            .expect("a handshake");
        assert_eq!(h.kills, vec![0]);
        // The opposite ordering (the write first) is not what the handshake rules out.
        let other = cause(vec![(
            access(1, 5, "port", true),
            access(2, 9, "port", false),
        )]);
        let (_, props) = marked(ORDER, &sites, &[other]);
        assert!(props.iter().all(|p| p.kills.is_empty()), "{props:?}");
    }

    const TWO: &str = r#"#include <pthread.h>
pthread_mutex_t m = PTHREAD_MUTEX_INITIALIZER;
int c, d;
void *inc1(void *a) {
  int t = c;
  c = t + 1;
  return a;
}
void *inc2(void *a) {
  pthread_mutex_lock(&m);
  int t = c;
  c = t + 1;
  pthread_mutex_unlock(&m);
  d = c;
  return a;
}
"#;

    fn kills_of(prog: &str, a: &Action, c: &RootCause) -> Vec<usize> {
        let src = Source::parse(prog).expect("parses");
        kill_set(&src, a, &[Cause::of(&src, c, &|_| true)])
    }

    fn region(function: &str, first_line: u32, last_line: u32) -> Region {
        Region {
            function: function.into(),
            first_line,
            last_line,
        }
    }

    #[test]
    fn a_section_kills_only_when_both_threads_accesses_are_under_the_mutex() {
        // Each thread read `c` before the other wrote it.
        let lost = cause(vec![
            (access(1, 5, "c", false), access(2, 12, "c", true)),
            (access(2, 11, "c", false), access(1, 6, "c", true)),
        ]);
        let lock = |mutex: &str, new: bool, regions: Vec<Region>| Action::Lock {
            mutex: mutex.into(),
            new,
            regions,
        };
        // inc2 already holds `m` around its read and write: `m` around inc1's two lines
        // is enough, a new mutex there alone is not.
        assert_eq!(
            kills_of(TWO, &lock("m", false, vec![region("inc1", 5, 6)]), &lost),
            vec![0]
        );
        assert!(kills_of(TWO, &lock("n", true, vec![region("inc1", 5, 6)]), &lost).is_empty());
        assert_eq!(
            kills_of(
                TWO,
                &lock(
                    "n",
                    true,
                    vec![region("inc1", 5, 6), region("inc2", 11, 12)]
                ),
                &lost
            ),
            vec![0]
        );
        // Two sections that each hold one of inc1's accesses: the other thread may come
        // between them.
        assert!(
            kills_of(
                TWO,
                &lock(
                    "n",
                    true,
                    vec![
                        region("inc1", 5, 5),
                        region("inc1", 6, 6),
                        region("inc2", 11, 12)
                    ]
                ),
                &lost
            )
            .is_empty()
        );
    }

    #[test]
    fn a_handshake_kills_only_reads_at_or_after_the_wait() {
        let h = Action::Handshake {
            writer: "inc1".into(),
            after: 6,
            reader: "inc2".into(),
            before: 12,
            flag: "f".into(),
        };
        let early = cause(vec![(access(2, 11, "c", false), access(1, 6, "c", true))]);
        let late = cause(vec![(access(2, 14, "c", false), access(1, 6, "c", true))]);
        assert!(kills_of(TWO, &h, &early).is_empty());
        assert_eq!(kills_of(TWO, &h, &late), vec![0]);
        // A write after the flag is raised is not ordered by it.
        let after = cause(vec![(access(2, 14, "c", false), access(1, 7, "c", true))]);
        assert!(kills_of(TWO, &h, &after).is_empty());
    }

    #[test]
    fn a_section_in_a_loop_body_does_not_hold_two_iterations_together() {
        let prog = r#"#include <pthread.h>
int c;
void *inc1(void *a) {
  for (int i = 0; i < 2; i++) {
    int t = c;
    c = t + 1;
  }
  return a;
}
void *inc2(void *a) {
  c = 0;
  return a;
}
"#;
        // T2's reset came between T1's first read and its second write.
        let mut second = access(1, 6, "c", true);
        second.occurrence = 2;
        let c = cause(vec![
            (access(1, 5, "c", false), access(2, 11, "c", true)),
            (access(2, 11, "c", true), second),
        ]);
        let lock = |regions: Vec<Region>| Action::Lock {
            mutex: "n".into(),
            new: true,
            regions,
        };
        let body = lock(vec![region("inc1", 5, 6), region("inc2", 11, 11)]);
        let whole = lock(vec![region("inc1", 4, 7), region("inc2", 11, 11)]);
        assert!(kills_of(prog, &body, &c).is_empty());
        assert_eq!(kills_of(prog, &whole, &c), vec![0]);
    }

    #[test]
    fn an_atomic_section_needs_only_the_interrupted_threads_side() {
        let lost = cause(vec![
            (access(1, 5, "c", false), access(2, 14, "c", true)),
            (access(2, 14, "c", true), access(1, 6, "c", true)),
        ]);
        let section = |mutex: &str| Action::Lock {
            mutex: mutex.into(),
            new: false,
            regions: vec![region("inc1", 5, 6)],
        };
        // inc2's write of `d` (line 14) is under no mutex: only an atomic section keeps it
        // out of inc1's two lines.
        assert_eq!(kills_of(TWO, &section(ATOMIC), &lost), vec![0]);
        assert!(kills_of(TWO, &section("m"), &lost).is_empty());
    }

    const RACES: &str = r#"#include <pthread.h>
int a, b;
void *f(void *x) {
  int t = a;
  a = t + 1;
  return x;
}
void *g(void *x) {
  int u = b;
  b = u + 1;
  return x;
}
"#;

    /// Each thread of a pair read `var` (line `read`) before the other wrote it
    /// (`write`).
    fn lost(threads: (u32, u32), var: &str, read: u32, write: u32) -> RootCause {
        cause(vec![
            (
                access(threads.0, read, var, false),
                access(threads.1, write, var, true),
            ),
            (
                access(threads.1, read, var, false),
                access(threads.0, write, var, true),
            ),
        ])
    }

    /// Passes a patched program with `f`'s marker and a lock over `g`'s read; otherwise it
    /// fails, and the failure it leaves is `b`'s lost update, at the lines of a text one
    /// line longer.
    struct TwoRaces {
        asked: usize,
    }

    impl Verifier for TwoRaces {
        fn verify(&mut self, patched: &str) -> crate::repair::Verification {
            let g_locked =
                patched.contains("pthread_mutex_lock(&seqloc_repair_lock);\n  int u = b;");
            if patched.contains("/*0*/") && g_locked {
                crate::repair::Verification::Holds {
                    exhaustive: true,
                    reach: "no failure in any execution".into(),
                }
            } else {
                crate::repair::Verification::Fails("fails at line 5".into())
            }
        }
        fn expired(&self) -> bool {
            false
        }
        fn root_causes(&mut self, patched: &str) -> Vec<RootCause> {
            self.asked += 1;
            assert!(patched.starts_with("/*0*/\n"), "{patched}");
            vec![lost((3, 4), "b", 10, 11)]
        }
    }

    #[test]
    fn a_root_cause_the_first_run_did_not_show_is_learnt_and_covered_too() {
        let src = Source::parse(RACES).expect("parses");
        let lock = |i: usize, function: &str, first: u32| Proposal {
            action: Action::Lock {
                mutex: format!("n{i}"),
                new: true,
                regions: vec![region(function, first, first + 1)],
            },
            summary: format!("lock {function}"),
            // A line of its own at the top: the rest of the text keeps its lines.
            edits: vec![edit::Edit::insert(0, format!("/*{i}*/\n"))],
            statements_locked: 2,
            serializes: false,
            tier: 0,
            kills: vec![],
        };
        // Only `f`'s race was seen: no proposal for `g` yet.
        let props = vec![lock(0, "f", 4)];
        let mut v = TwoRaces { asked: 0 };
        let c = search_covered(
            &src,
            "t.c",
            props,
            vec![lost((1, 2), "a", 4, 5)],
            &|f| f == "t.c",
            1,
            &mut v,
        );
        assert_eq!(v.asked, 1);
        assert_eq!(c.outcome.root_causes, 2, "{:?}", c.outcome.notes);
        let r = c.outcome.verified.first().expect("a verified cover");
        assert!(
            matches!(&r.proposal.action, Action::Cover { parts } if parts.len() == 2),
            "{:?}",
            r.proposal
        );
        assert_eq!(r.proposal.kills, vec![0, 1]);
        assert!(r.patched.starts_with("/*0*/\n"), "{}", r.patched);
        assert_eq!(c.made, c.outcome.checked - 1, "{:?}", c.outcome.notes);
    }

    #[test]
    fn a_patched_programs_lines_are_taken_back_and_changed_ones_left_out() {
        let patched = format!("/*new*/\n{}", RACES.replace("  a = t + 1;", "  a = t + 2;"));
        let c = lost((1, 2), "b", 10, 11);
        let back = map_back(RACES, &patched, &c).expect("maps");
        let lines: Vec<(u32, u32)> = back
            .orderings
            .iter()
            .map(|o| (o.before.line, o.after.line))
            .collect();
        assert_eq!(lines, vec![(9, 10), (9, 10)]);
        // Line 6 of the patched text is the changed write of `a`.
        let a = lost((1, 2), "a", 5, 6);
        assert!(map_back(RACES, &patched, &a).is_none());
    }

    const HELPERS: &str = r#"#include <pthread.h>
int hits;
int get(void) {
  return hits;
}
void set(int v) {
  hits = v;
}
void *visit(void *a) {
  int h = get();
  set(h + 1);
  return a;
}
int main(void) {
  pthread_t t;
  pthread_create(&t, 0, visit, 0);
  hits = 5;
  pthread_join(t, 0);
  return hits;
}
"#;

    #[test]
    fn a_section_holds_what_the_helpers_it_calls_access() {
        // T2's get (line 4) before T1's set (7); T1's set before T2's set: both visitors
        // read before either wrote.
        let c = cause(vec![
            (access(2, 4, "hits", false), access(1, 7, "hits", true)),
            (access(1, 7, "hits", true), access(2, 7, "hits", true)),
        ]);
        let lock = |first, last| Action::Lock {
            mutex: "n".into(),
            new: true,
            regions: vec![region("visit", first, last)],
        };
        assert_eq!(kills_of(HELPERS, &lock(10, 11), &c), vec![0]);
        // Around the set alone: the get of one visitor can still come between.
        assert!(kills_of(HELPERS, &lock(11, 11), &c).is_empty());
    }

    #[test]
    fn a_join_moved_up_or_a_creation_moved_down_orders_the_whole_thread() {
        // main's write (line 17) came before the thread's read (4).
        let early = cause(vec![(
            access(0, 17, "hits", true),
            access(1, 4, "hits", false),
        )]);
        let join_up = Action::Reorder {
            function: "main".into(),
            moved: 18,
            target: 17,
            after: false,
        };
        assert_eq!(kills_of(HELPERS, &join_up, &early), vec![0]);
        // The thread's read (4) came before main's write (17): creating the thread after
        // the write rules that out; joining it earlier does not.
        let late = cause(vec![(
            access(1, 4, "hits", false),
            access(0, 17, "hits", true),
        )]);
        let create_down = Action::Reorder {
            function: "main".into(),
            moved: 16,
            target: 17,
            after: true,
        };
        assert_eq!(kills_of(HELPERS, &create_down, &late), vec![0]);
        assert!(kills_of(HELPERS, &join_up, &late).is_empty());
        assert!(kills_of(HELPERS, &create_down, &early).is_empty());
    }

    fn proposal(at: usize, kills: Vec<usize>, locked: usize) -> Proposal {
        Proposal {
            action: Action::WaitLoop {
                function: "f".into(),
                line: at as u32,
            },
            summary: format!("p{at}"),
            edits: vec![edit::Edit::insert(at, "x")],
            statements_locked: locked,
            serializes: false,
            tier: 0,
            kills,
        }
    }

    #[test]
    fn two_new_mutexes_of_one_cover_are_declared_once() {
        let src = Source::parse("int a;\nint b;\nint c;\n").expect("parses");
        let decl = edit::Edit::insert(0, "pthread_mutex_t n;\n");
        let mut props = vec![proposal(7, vec![0], 1), proposal(14, vec![1], 1)];
        for p in &mut props {
            p.edits.insert(0, decl.clone());
        }
        let covers = minimum_covers(&src, &props, 2, 1);
        let made = cover_proposals(&src, &props, &covers);
        let text = made
            .first()
            .and_then(|p| edit::apply(&src.text, &p.edits).ok())
            .expect("one cover");
        assert_eq!(text.matches("pthread_mutex_t n;").count(), 1, "{text}");
    }

    #[test]
    fn the_cover_takes_two_cheap_repairs_over_one_dear_one_unless_they_conflict() {
        let src = Source::parse("int a;\nint b;\nint c;\n").expect("parses");
        let props = vec![
            proposal(0, vec![0], 1),
            proposal(7, vec![1], 1),
            proposal(14, vec![0, 1], 40),
        ];
        let covers = minimum_covers(&src, &props, 3, MAX_COVERS);
        assert_eq!(covers.covers.first(), Some(&vec![0, 1]));
        assert_eq!(covers.covers.get(1), Some(&vec![2]));
        assert_eq!(covers.uncovered, vec![2]);
        let tried = cover_proposals(&src, &props, &covers);
        let first = tried.first().expect("a proposal");
        assert!(matches!(&first.action, Action::Cover { parts } if parts.len() == 2));
        assert_eq!(first.kills, vec![0, 1]);
        assert_eq!(first.edits.len(), 2);
        assert_eq!(
            tried.iter().map(|p| p.summary.as_str()).collect::<Vec<_>>(),
            vec!["p0; and p7", "p14"]
        );

        // Two edits of one place cannot both be made: the dear one is the only cover.
        let mut clash = props;
        if let Some(p) = clash.get_mut(1) {
            p.edits = vec![edit::Edit::delete(0, 3)];
        }
        if let Some(p) = clash.get_mut(0) {
            p.edits = vec![edit::Edit::delete(1, 2)];
        }
        let covers = minimum_covers(&src, &clash, 2, MAX_COVERS);
        assert_eq!(covers.covers, vec![vec![2]]);
    }
}
