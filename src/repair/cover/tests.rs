//! The kill rules, each with a case it must not kill, and the covering and its loop.

use super::kills::{Cause, kill_set};
use super::*;
use crate::repair::actions::tests::SEAT;
use crate::repair::actions::{Sites, propose};
use crate::repair::source::ATOMIC;

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
        let g_locked = patched.contains("pthread_mutex_lock(&seqloc_repair_lock);\n  int u = b;");
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
