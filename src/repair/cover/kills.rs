//! Kill sets: which of the localization's root causes a repair removes — no run of the
//! patched program can have all of a root cause's orderings — read from the source text
//! (the covering that uses them is `repair::cover`). What each kind of repair rules out:
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

use std::collections::BTreeSet;

use crate::repair::actions::joins::{creation, reachable};
use crate::repair::actions::{Action, Proposal, Region, held_at};
use crate::repair::source::{ATOMIC, Source};
use crate::rootcause::causes::{Access, RootCause};

/// An access of a root cause, placed in the source.
#[derive(Clone, Debug)]
pub(super) struct Point {
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
pub(super) struct Cause(pub(super) Vec<(Point, Point)>);

impl Cause {
    pub(super) fn of(src: &Source, c: &RootCause, in_input: &dyn Fn(&str) -> bool) -> Cause {
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
    if let Some(h) = call_of(first, "pthread_join") {
        let waits = |x: &Point| x.function == function && second.contains(&x.stmt);
        if creator_before_thread(c, &routines_of(src, &h), waits) {
            return true;
        }
    }
    if let Some(h) = call_of(second, "pthread_create") {
        // The thread's access before the creator's: the cause's orderings turned round.
        let flipped = Cause(c.0.iter().map(|(y, x)| (x.clone(), y.clone())).collect());
        let earlier = |x: &Point| x.function == function && first.contains(&x.stmt);
        if creator_before_thread(&flipped, &routines_of(src, &h), earlier) {
            return true;
        }
    }
    false
}

/// Whether the cause orders an access of the creator that `creator` picks before an access
/// of the thread (a function of `routines`): what a join there rules out.
fn creator_before_thread(
    c: &Cause,
    routines: &BTreeSet<String>,
    creator: impl Fn(&Point) -> bool,
) -> bool {
    c.0.iter()
        .any(|(x, y)| x.thread != y.thread && creator(x) && routines.contains(&y.function))
}

/// The root causes (indices of `causes`) that `a` kills.
pub(super) fn kill_set(src: &Source, a: &Action, causes: &[Cause]) -> Vec<usize> {
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
            } => creator_before_thread(c, &routines_of(src, thread), |x| {
                x.function == *function && x.line >= *line
            }),
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
