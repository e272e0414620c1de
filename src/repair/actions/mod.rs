//! The repairs proposed for a localized failure (see the module comment of `repair`),
//! each as edits of the user's source text, in the order they are worth trying.

mod arguments;
mod handshakes;
pub(in crate::repair) mod joins;
mod locks;
mod moves;
pub mod primitives;
mod sync;
mod values;

use std::collections::{BTreeSet, HashSet};

use super::edit::Edit;
use super::source::Source;
use arguments::argument_slots;
use handshakes::handshakes;
use joins::{missing_joins, thread_orders};
use locks::locks;
use moves::reorders;
use primitives::primitives;
use sync::{drop_relocks, guard_waits, releases, wait_loops};
use values::conditions;

/// Where the localization points, in the input file's lines.
#[derive(Clone, Debug, Default)]
pub struct Sites {
    /// Candidate lines, best first.
    pub ranked: Vec<u32>,
    /// The differential projection's inter-thread flows: a read's line and the lines of
    /// the writes it read from in the failing and the passing run.
    pub flows: Vec<(u32, Vec<u32>)>,
    /// Orderings the passing run has and the failing one lacks: another thread's write
    /// (its line) that a read (its line) sees when it passes.
    pub orders: Vec<(u32, u32)>,
    /// The failure is a deadlock.
    pub deadlock: bool,
    /// Lines whose one-word change the localization's mutants proved fixing (`Candidate::
    /// fixed_by`): a global's start value is proposed only there — elsewhere a start
    /// value "fixes" by doing less (`int stock = 0;`: nobody buys).
    pub fixed: Vec<u32>,
}

/// A region of one function under a lock.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Region {
    pub function: String,
    pub first_line: u32,
    pub last_line: u32,
}

#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Action {
    /// `mutex` (a new one when `new`) taken around each region.
    Lock {
        mutex: String,
        new: bool,
        regions: Vec<Region>,
    },
    /// The statement at line `moved` put before (or, `after`, after) the one at `target`.
    Reorder {
        function: String,
        moved: u32,
        target: u32,
        after: bool,
    },
    /// The `if` around a condition wait at `line` made a `while`: the predicate is tested
    /// again after every wake-up.
    WaitLoop { function: String, line: u32 },
    /// `function` is only ever called with `mutex` held: its own lock and unlock of it
    /// (lines `lock` and `unlock`) go.
    DropRelock {
        function: String,
        mutex: String,
        lock: u32,
        unlock: u32,
    },
    /// `mutex` unlocked before the jump at `line`.
    Release {
        function: String,
        mutex: String,
        line: u32,
    },
    /// The bare condition wait at `line` put in a `while (predicate)` loop.
    GuardWait {
        function: String,
        line: u32,
        predicate: String,
    },
    /// The thread created at `line` given its own element of a new array `slot` instead
    /// of the address of the loop counter `var`.
    ArgumentSlot {
        function: String,
        line: u32,
        var: String,
        slot: String,
    },
    /// The statement at `before` in `reader` waits for a new flag that `writer` raises
    /// (and broadcasts) after the statement at `after`.
    Handshake {
        writer: String,
        after: u32,
        reader: String,
        before: u32,
        flag: String,
    },
    /// `pthread_join(thread, 0)` inserted before the statement at `line`.
    Join {
        function: String,
        line: u32,
        thread: String,
    },
    /// Several repairs made together: the minimum cover of the root causes (see
    /// `repair::cover`), each part removing some of them.
    Cover { parts: Vec<Action> },
    /// Two repairs, the second found by localizing the program the first one patched.
    Combined {
        first: Box<Action>,
        then: Box<Action>,
    },
    /// A synchronization call's kind or count: the word `from` made `to` at `line`.
    Primitive {
        function: String,
        line: u32,
        from: String,
        to: String,
    },
    /// A value change: `from` made `to` in the condition at `line`.
    Condition {
        function: String,
        line: u32,
        from: String,
        to: String,
    },
}

impl Action {
    pub fn kind(&self) -> &'static str {
        match self {
            Action::Lock { mutex, .. } if mutex == super::source::ATOMIC => "atomic",
            Action::Lock { .. } => "lock",
            Action::Reorder { .. } => "reorder",
            Action::Release { .. } => "release",
            Action::WaitLoop { .. } => "wait-loop",
            Action::DropRelock { .. } => "drop-relock",
            Action::GuardWait { .. } => "guard-wait",
            Action::Join { .. } => "join",
            Action::Handshake { .. } => "handshake",
            Action::Combined { .. } => "combined",
            Action::Cover { .. } => "cover",
            Action::ArgumentSlot { .. } => "argument-slot",
            Action::Condition { .. } => "condition",
            Action::Primitive { .. } => "primitive",
        }
    }
}

#[derive(Clone, Debug)]
pub struct Proposal {
    pub action: Action,
    pub summary: String,
    pub edits: Vec<Edit>,
    /// Statements under the new or widened lock (0 for the other kinds).
    pub statements_locked: usize,
    /// It moves a thread's creation or join: one thread then runs wholly before or
    /// after another, the bluntest repair (tried after every other).
    pub serializes: bool,
    /// Tried after the proposals of a lower tier: lock proposals not drawn from the
    /// projection's flows (1), lock proposals for a deadlock (2), value changes (3), a
    /// synchronization call's word or a wait loop's test (4, `primitives`).
    pub tier: u8,
    /// The root causes it removes, by their index in the localization's list (see
    /// `repair::cover`; empty when none were found or it removes none).
    pub kills: Vec<usize>,
}

impl Proposal {
    /// The order of trying: narrowest lock scope, an existing mutex before a new one,
    /// then fewest edits.
    pub(crate) fn cost(&self) -> (bool, u8, usize, u8, usize) {
        let new = matches!(self.action, Action::Lock { new: true, .. });
        (
            self.serializes,
            self.tier,
            self.statements_locked,
            u8::from(new),
            self.edits.len(),
        )
    }
}

/// How many site sets feed the lock proposals, and how many proposals are tried in all:
/// each costs a re-check.
const MAX_RANKED: usize = 4;
const MAX_PROPOSALS: usize = 32;
/// The last resorts — one thread run wholly before another, a value changed — tried after
/// those, however many they are.
const MAX_LAST_RESORTS: usize = 8;
/// How far a statement moves, in statements of its block.
const MAX_MOVE: usize = 3;

/// Every repair worth re-checking for `sites`, cheapest first.
pub fn propose(src: &Source, sites: &Sites) -> Vec<Proposal> {
    let mut out = Vec::new();
    for (set, from_flow) in site_sets(sites) {
        for mut p in locks(src, &set) {
            p.tier = if sites.deadlock {
                2
            } else {
                u8::from(!from_flow)
            };
            out.push(p);
        }
    }
    out.extend(reorders(src, sites));
    out.extend(releases(src, sites));
    out.extend(wait_loops(src));
    out.extend(guard_waits(src));
    out.extend(argument_slots(src));
    out.extend(missing_joins(src, sites));
    out.extend(handshakes(src, sites));
    out.extend(drop_relocks(src, sites));
    // One proposal per resulting program, and none that gives back the program as it is
    // (a section moved out to where it already was).
    let mut seen = HashSet::new();
    seen.insert(src.text.clone());
    let mut distinct = |mut ps: Vec<Proposal>, n: usize| {
        ps.sort_by_key(Proposal::cost);
        ps.retain(|p| super::edit::apply(&src.text, &p.edits).is_ok_and(|t| seen.insert(t)));
        ps.truncate(n);
        ps
    };
    let mut last = thread_orders(src, sites);
    last.extend(conditions(src, sites));
    let words = primitives(src, sites);
    if src.text.contains("\r\n") {
        // New lines end as the file's do (a file edited on Windows stays CRLF).
        for e in out
            .iter_mut()
            .chain(last.iter_mut())
            .flat_map(|p| p.edits.iter_mut())
        {
            e.text = e.text.replace("\r\n", "\n").replace('\n', "\r\n");
        }
    }
    let mut out = distinct(out, MAX_PROPOSALS);
    // Their own budget (`primitives::MAX`), and their edits before the value changes'
    // same ones: the CLI takes those the ranking found fixing to the front, in the
    // order the ranking tried them.
    let n = words.len();
    let words = distinct(words, n);
    out.extend(distinct(last, MAX_LAST_RESORTS));
    out.extend(words);
    out
}

/// The sets of lines a critical section should cover: each flow's read with the writes
/// it saw, and the best candidates taken together.
fn site_sets(sites: &Sites) -> Vec<(Vec<u32>, bool)> {
    let mut sets: Vec<(Vec<u32>, bool)> = Vec::new();
    for (read, writes) in &sites.flows {
        let mut all = vec![*read];
        all.extend(writes);
        sets.push((all, true));
        for w in writes {
            sets.push((vec![*read, *w], true));
        }
    }
    let top: Vec<u32> = sites.ranked.iter().copied().take(MAX_RANKED).collect();
    for n in 1..=top.len() {
        sets.push((top.iter().copied().take(n).collect(), false));
    }
    for (i, a) in top.iter().enumerate() {
        for b in top.iter().skip(i + 1) {
            sets.push((vec![*a, *b], false));
        }
    }
    for (s, _) in &mut sets {
        s.sort_unstable();
        s.dedup();
    }
    let mut seen = HashSet::new();
    sets.retain(|(s, _)| seen.insert(s.clone()));
    sets
}

/// The lock and unlock calls of `m` among `stmts`, paired in order; `None` when one has
/// no partner among them.
fn pairs(src: &Source, stmts: &[usize], m: &str) -> Option<Vec<(usize, usize)>> {
    let mut open = Vec::new();
    let mut out = Vec::new();
    for &s in stmts {
        match src.stmts.get(s).and_then(|x| x.call.as_ref()?.mutex()) {
            Some(("lock", ref n)) if n == m => open.push(s),
            Some(("unlock", ref n)) if n == m => out.push((open.pop()?, s)),
            _ => {}
        }
    }
    open.is_empty().then_some(out)
}

/// Whether `s` (a child of its block) runs with `m` held by a lock call before it in its
/// block or an enclosing one.
pub(in crate::repair) fn held_at(src: &Source, s: usize, m: &str) -> bool {
    let mut cur = Some(s);
    while let Some(c) = cur {
        let Some(st) = src.stmts.get(c) else { break };
        if let Some(b) = st.block {
            let mut depth = 0i32;
            for &x in src.blocks.get(b).map(|b| b.stmts.as_slice()).unwrap_or(&[]) {
                if x == c {
                    break;
                }
                match src.stmts.get(x).and_then(|y| y.call.as_ref()?.mutex()) {
                    Some(("lock", ref n)) if n == m => depth += 1,
                    Some(("unlock", ref n)) if n == m => depth -= 1,
                    _ => {}
                }
            }
            if depth > 0 {
                return true;
            }
        }
        cur = st.parent;
    }
    false
}

fn delete_stmt(src: &Source, s: usize) -> Option<Edit> {
    match src.own_lines(s) {
        Some((a, b)) => Some(Edit::delete(a, b)),
        None => src.stmts.get(s).map(|st| Edit::delete(st.start, st.end)),
    }
}

fn function_of(src: &Source, s: usize) -> String {
    src.stmts
        .get(s)
        .map(|x| x.function.clone())
        .unwrap_or_default()
}

/// The functions the ranked candidate lines are in.
fn site_functions(src: &Source, sites: &Sites) -> BTreeSet<String> {
    sites
        .ranked
        .iter()
        .filter_map(|&l| src.statement_at(l))
        .map(|s| function_of(src, s))
        .collect()
}

/// Whether statement `s` mentions `name` (a call of it), itself or nested.
fn mentions(src: &Source, s: usize, name: &str) -> bool {
    src.within(s)
        .iter()
        .any(|&i| src.stmts.get(i).is_some_and(|st| st.idents.contains(name)))
}

#[cfg(test)]
pub(crate) mod tests {
    use super::*;
    use crate::repair::edit::apply;

    /// A check-then-act: the test of `seats` outside the critical section.
    pub(crate) const SEAT: &str = r#"#include <pthread.h>
pthread_mutex_t m = PTHREAD_MUTEX_INITIALIZER;
int seats = 1;
void *buy(void *a) {
  if (seats > 0) {
    pthread_mutex_lock(&m);
    seats = seats - 1;
    pthread_mutex_unlock(&m);
  }
  return 0;
}
"#;

    #[test]
    fn an_existing_mutex_is_widened_over_the_check() {
        let src = Source::parse(SEAT).expect("parses");
        let props = locks(&src, &[5, 7]);
        let existing = props
            .iter()
            .find(|p| matches!(&p.action, Action::Lock { new: false, .. }))
            .expect("widens m");
        let text = apply(&src.text, &existing.edits).expect("applies");
        assert_eq!(
            text,
            r#"#include <pthread.h>
pthread_mutex_t m = PTHREAD_MUTEX_INITIALIZER;
int seats = 1;
void *buy(void *a) {
  pthread_mutex_lock(&m);
  if (seats > 0) {
    seats = seats - 1;
  }
  pthread_mutex_unlock(&m);
  return 0;
}
"#
        );
        assert!(
            props
                .iter()
                .any(|p| matches!(&p.action, Action::Lock { new: true, .. }))
        );
    }

    const TWO: &str = r#"#include <pthread.h>
pthread_mutex_t m = PTHREAD_MUTEX_INITIALIZER;
int bal;
void *t(void *a) {
  int v;
  pthread_mutex_lock(&m);
  v = bal;
  pthread_mutex_unlock(&m);
  pthread_mutex_lock(&m);
  bal = v + 1;
  pthread_mutex_unlock(&m);
  return 0;
}
"#;

    #[test]
    fn two_sections_merge_into_one() {
        let src = Source::parse(TWO).expect("parses");
        let p = locks(&src, &[7, 10])
            .into_iter()
            .find(|p| matches!(&p.action, Action::Lock { new: false, .. }))
            .expect("widens m");
        let text = apply(&src.text, &p.edits).expect("applies");
        assert!(
            text.contains("  pthread_mutex_lock(&m);\n  v = bal;\n  bal = v + 1;\n  pthread_mutex_unlock(&m);\n"),
            "{text}"
        );
    }

    #[test]
    fn new_lines_end_as_the_files_do() {
        let src = Source::parse(&SEAT.replace('\n', "\r\n")).expect("parses");
        let sites = Sites {
            ranked: vec![5, 7],
            flows: vec![],
            orders: vec![],
            deadlock: false,
            fixed: Vec::new(),
        };
        let p = propose(&src, &sites);
        assert!(!p.is_empty());
        for q in &p {
            let t = apply(&src.text, &q.edits).expect("applies");
            assert!(!t.replace("\r\n", "").contains('\n'), "{t:?}");
        }
    }

    const ORDER: &str = r#"#include <pthread.h>
pthread_mutex_t a = PTHREAD_MUTEX_INITIALIZER, b = PTHREAD_MUTEX_INITIALIZER;
void *t(void *x) {
  pthread_mutex_lock(&b);
  pthread_mutex_lock(&a);
  pthread_mutex_unlock(&a);
  pthread_mutex_unlock(&b);
  return 0;
}
void *u(void *x) {
  pthread_mutex_lock(&a);
  if (x) return 0;
  pthread_mutex_unlock(&a);
  return 0;
}
"#;

    #[test]
    fn locks_swap_and_returns_release() {
        let src = Source::parse(ORDER).expect("parses");
        assert_eq!(src.global_mutexes, vec!["a".to_string(), "b".to_string()]);
        let sites = Sites {
            ranked: vec![4, 12],
            flows: vec![],
            orders: vec![],
            deadlock: true,
            fixed: Vec::new(),
        };
        let r = reorders(&src, &sites);
        let swap = r
            .iter()
            .find(|p| {
                p.action
                    == Action::Reorder {
                        function: "t".into(),
                        moved: 5,
                        target: 4,
                        after: false,
                    }
            })
            .expect("lock a moved before lock b");
        let text = apply(&src.text, &swap.edits).expect("applies");
        assert!(text.contains("  pthread_mutex_lock(&a);\n  pthread_mutex_lock(&b);\n"));
        let rel = releases(&src, &sites);
        assert_eq!(rel.len(), 1, "{rel:?}");
        let text = apply(&src.text, &rel[0].edits).expect("applies");
        assert!(
            text.contains("if (x) { pthread_mutex_unlock(&a); return 0; }"),
            "{text}"
        );
    }

    const SECTIONS: &str = r#"#include <pthread.h>
pthread_mutex_t t = PTHREAD_MUTEX_INITIALIZER, q = PTHREAD_MUTEX_INITIALIZER;
int queued, rows;
void *c(void *x) {
  pthread_mutex_lock(&t);
  pthread_mutex_lock(&q);
  queued = queued - 1;
  pthread_mutex_unlock(&q);
  rows = rows + 1;
  pthread_mutex_unlock(&t);
  return 0;
}
"#;

    #[test]
    fn moves_pull_code_into_sections_never_out() {
        let src = Source::parse(SECTIONS).expect("parses");
        let sites = Sites {
            ranked: vec![5, 7, 9],
            flows: vec![],
            orders: vec![],
            deadlock: true,
            fixed: Vec::new(),
        };
        let moves: Vec<Action> = reorders(&src, &sites)
            .into_iter()
            .map(|p| p.action)
            .collect();
        // The outer lock taken after the inner section: its data stays under `q`.
        assert!(
            moves.contains(&Action::Reorder {
                function: "c".into(),
                moved: 5,
                target: 8,
                after: true,
            }),
            "{moves:?}"
        );
        // `rows` is never pushed out of `t`'s section, nor `queued` out of `q`'s.
        for m in &moves {
            if let Action::Reorder {
                moved,
                target,
                after,
                ..
            } = m
            {
                assert!(!(*moved == 9 && *target == 10 && *after), "{m:?}");
                assert!(!(*moved == 7 && *target == 6 && !*after), "{m:?}");
                assert!(!(*moved == 10 && *target == 9 && !*after), "{m:?}");
            }
        }
    }
}
