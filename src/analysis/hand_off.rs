//! Globals `main` hands to one thread at its creation and takes back at its join: `main`
//! touches them only before `pthread_create(&h, 0, f, ..)` and after `pthread_join(h, ..)`,
//! the thread `f` (started there once) in between, and no other thread ever. Every access
//! of such a global is ordered with every other by the creation and the join
//! (happens-before), so none can race with another, and a context switch at one changes
//! nothing any thread sees: the global is not shared (`SharedInfo`), its accesses are no
//! switch points of the sequentialized program and no visible steps of the explorer.
//!
//! The common shape this answers is SV-COMP's: `main` sets inputs, starts workers that
//! each keep to their own variables, joins them and checks (`bench-exp1x3.wvr`: each of
//! two threads doubles its own counter; as shared variables, four rounds with loops
//! unrolled four times ran past 90 s).
//!
//! Only what is certain counts: the creation and the join are statements of `main`'s own
//! straight-line top level (not inside a branch or loop), the handle is a variable written
//! by nothing but that creation, with no attribute (so the thread is joinable) and no
//! `pthread_detach` anywhere; `main` has no `goto`, label or `switch`; a statement of
//! `main`'s that may reach the global, directly or through any function it calls, stands
//! before the creation or after the join.

use std::collections::{BTreeMap, BTreeSet, HashMap, HashSet};

use super::facts::{Root, ThreadStructure, global_accesses};
use super::loops::TripCount;
use super::shared::address_taken_vars;
use crate::ir::known::{Known, classify};
use crate::ir::visit;
use crate::ir::*;

/// The globals of `shared` (a global → the roots accessing it) that are handed off.
pub fn handed_off(
    prog: &Program,
    ts: &ThreadStructure,
    shared: &BTreeMap<VarId, BTreeSet<Root>>,
) -> HashSet<VarId> {
    let mut out = HashSet::new();
    let Some(main) = prog.main() else {
        return out;
    };
    let Some(body) = &prog.func(main).body else {
        return out;
    };
    let mut jumps = false;
    visit::each_stmt(body, &mut |s| {
        jumps |= matches!(
            s.kind,
            StmtKind::Goto(_) | StmtKind::Label(_) | StmtKind::Switch { .. }
        );
    });
    let detaches = prog.funcs.iter().filter_map(|f| f.body.as_ref()).any(|b| {
        let mut found = false;
        visit::each_expr(b, &mut |e| {
            found |= callee(prog, e) == Some(Known::ThreadDetach)
        });
        found
    });
    if jumps || detaches {
        return out;
    }
    let mut top: Vec<&Stmt> = Vec::new();
    visit::open_blocks(body, &mut top);
    let taken = address_taken_vars(prog);
    let mut reach_of: HashMap<FuncId, BTreeSet<VarId>> = HashMap::new();
    for (v, roots) in shared {
        let [Root::Main, Root::Thread(f)] = roots.iter().copied().collect::<Vec<_>>()[..] else {
            continue;
        };
        if ts.instances.get(&Root::Thread(f)) != Some(&TripCount::Exactly(1)) {
            continue;
        }
        let Some([(_, creator, TripCount::Exactly(1), false)]) =
            ts.entries.get(&f).map(Vec::as_slice)
        else {
            continue;
        };
        if *creator != main {
            continue;
        }
        let Some((c, handle)) = creation(prog, &top, f) else {
            continue;
        };
        if taken.contains(&handle) || written_elsewhere(prog, handle) {
            continue;
        }
        let Some(j) = top
            .iter()
            .enumerate()
            .skip(c + 1)
            .find(|(_, s)| plain(s) && joins(prog, s, handle))
            .map(|(j, _)| j)
        else {
            continue;
        };
        let inside = top[c..=j]
            .iter()
            .any(|s| may_access(prog, ts, s, *v, &mut reach_of));
        if !inside {
            out.insert(*v);
        }
    }
    out
}

/// A statement that runs its expressions once, straight through.
fn plain(s: &Stmt) -> bool {
    matches!(s.kind, StmtKind::Expr(_) | StmtKind::Decl { .. })
}

/// What library call `e` is, when it is a direct call.
fn callee(prog: &Program, e: &Expr) -> Option<Known> {
    let ExprKind::Call(c, _) = &e.kind else {
        return None;
    };
    match c.peel().kind {
        ExprKind::Func(g) => Some(classify(&prog.func(g).name)),
        _ => None,
    }
}

/// The top-level statement that creates thread `f` (`pthread_create(&h, 0, f, ..)`) and
/// its handle `h`.
fn creation(prog: &Program, top: &[&Stmt], f: FuncId) -> Option<(usize, VarId)> {
    top.iter().enumerate().find_map(|(i, s)| {
        let mut found = None;
        visit::each_expr(s, &mut |e| {
            let ExprKind::Call(_, args) = &e.kind else {
                return;
            };
            if callee(prog, e) != Some(Known::ThreadCreate) {
                return;
            }
            let starts = args
                .get(2)
                .is_some_and(|a| matches!(a.uncast().kind, ExprKind::Func(g) if g == f));
            let no_attr = args.get(1).is_some_and(|a| a.as_int() == Some(0));
            let handle = args.first().and_then(|a| match &a.uncast().kind {
                ExprKind::AddrOf(h) => match h.kind {
                    ExprKind::Var(v) => Some(v),
                    _ => None,
                },
                _ => None,
            });
            if starts && no_attr {
                found = handle;
            }
        });
        found.filter(|_| plain(s)).map(|h| (i, h))
    })
}

/// Whether anything but one creation writes `h`: an assignment, or a second
/// `pthread_create(&h, ..)` (whose thread a later join of `h` would wait for instead).
fn written_elsewhere(prog: &Program, h: VarId) -> bool {
    let is_h = |x: &Expr| matches!(x.kind, ExprKind::Var(v) if v == h);
    let mut creations = 0;
    let mut assigned = false;
    for b in prog.funcs.iter().filter_map(|f| f.body.as_ref()) {
        visit::each_expr(b, &mut |e| match &e.kind {
            ExprKind::Assign(l, _) | ExprKind::OpAssign { lhs: l, .. } => assigned |= is_h(l),
            ExprKind::IncDec { e: l, .. } => assigned |= is_h(l),
            ExprKind::Call(_, args) if callee(prog, e) == Some(Known::ThreadCreate) => {
                let names_h = args
                    .first()
                    .is_some_and(|a| matches!(&a.uncast().kind, ExprKind::AddrOf(x) if is_h(x)));
                creations += usize::from(names_h);
            }
            _ => {}
        });
    }
    assigned || creations != 1
}

/// Whether statement `s` calls `pthread_join(h, ..)`.
fn joins(prog: &Program, s: &Stmt, h: VarId) -> bool {
    let mut found = false;
    visit::each_expr(s, &mut |e| {
        if let ExprKind::Call(_, args) = &e.kind {
            if callee(prog, e) == Some(Known::ThreadJoin) {
                found |= args
                    .first()
                    .is_some_and(|a| matches!(a.uncast().kind, ExprKind::Var(v) if v == h));
            }
        }
    });
    found
}

/// Whether running `s` may access global `v`: itself, or in a function it calls (through
/// a pointer: any function).
fn may_access(
    prog: &Program,
    ts: &ThreadStructure,
    s: &Stmt,
    v: VarId,
    reach_of: &mut HashMap<FuncId, BTreeSet<VarId>>,
) -> bool {
    let mut direct = false;
    let mut called: Vec<FuncId> = Vec::new();
    let mut indirect = false;
    visit::each_expr(s, &mut |e| match &e.kind {
        ExprKind::Var(x) if *x == v => direct = true,
        ExprKind::Call(c, _) => match c.peel().kind {
            ExprKind::Func(g) => called.push(g),
            _ => indirect = true,
        },
        _ => {}
    });
    if direct || indirect {
        return true;
    }
    called.into_iter().any(|g| {
        reach_of
            .entry(g)
            .or_insert_with(|| reached_globals(prog, ts, g))
            .contains(&v)
    })
}

/// The globals function `f` and everything it calls access.
fn reached_globals(prog: &Program, ts: &ThreadStructure, f: FuncId) -> BTreeSet<VarId> {
    let mut seen = BTreeSet::from([f]);
    let mut todo = vec![f];
    let mut out = BTreeSet::new();
    while let Some(g) = todo.pop() {
        out.extend(global_accesses(prog, g).into_iter().map(|(v, _, _)| v));
        for h in ts.calls.get(&g).into_iter().flatten() {
            if seen.insert(*h) {
                todo.push(*h);
            }
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::analysis::facts::{shared_globals, thread_structure};
    use crate::ir::types::DataModel;

    const PRELUDE: &str = "typedef unsigned long pthread_t;\
        extern int pthread_create(pthread_t *, void *, void *(*)(void *), void *);\
        extern int pthread_join(pthread_t, void **); extern int pthread_detach(pthread_t);\
        extern void reach_error(void);\n";

    /// The names of the globals handed off in `src`.
    fn handed(src: &str) -> Vec<String> {
        let text = format!("{PRELUDE}{src}");
        let prog = crate::frontend::load_text("t.c", &text, DataModel::Lp64).expect("parses");
        let ts = thread_structure(&prog);
        let shared = shared_globals(&prog, &ts);
        let mut names: Vec<String> = handed_off(&prog, &ts, &shared)
            .into_iter()
            .map(|v| prog.var(v).name.clone())
            .collect();
        names.sort();
        names
    }

    const WORKERS: &str = "unsigned x1, x2, n;\
        void *t1(void *a) { while (x1 < n) x1 = x1 + x1; return 0; }\
        void *t2(void *a) { while (x2 < n) x2 = x2 + x2; return 0; }\
        int main(void) { pthread_t a, b; x1 = 1; x2 = 1; n = 9;\
        pthread_create(&a, 0, t1, 0); pthread_create(&b, 0, t2, 0);\
        pthread_join(a, 0); pthread_join(b, 0); if (x1 != x2) reach_error(); return 0; }";

    #[test]
    fn each_worker_keeps_its_own_counter() {
        // `n` is read by both threads: shared (read-only, but not handed to one thread).
        assert_eq!(handed(WORKERS), ["x1", "x2"]);
    }

    #[test]
    fn an_access_between_creation_and_join_keeps_it_shared() {
        let racy = WORKERS.replace(
            "pthread_join(a, 0); pthread_join(b, 0);",
            "x1 = 2; pthread_join(a, 0); pthread_join(b, 0);",
        );
        assert_eq!(handed(&racy), ["x2"]);
        // The same through a helper `main` calls.
        let helper = WORKERS
            .replace(
                "int main(void)",
                "void reset(void) { x2 = 0; } int main(void)",
            )
            .replace(
                "pthread_join(a, 0); pthread_join(b, 0);",
                "pthread_join(a, 0); reset(); pthread_join(b, 0);",
            );
        assert_eq!(handed(&helper), ["x1"]);
    }

    #[test]
    fn only_a_certain_join_of_a_joinable_thread_counts() {
        let cases = [
            // The join may not happen.
            ("pthread_join(a, 0);", "if (n) pthread_join(a, 0);"),
            // The handle is overwritten before the join.
            ("pthread_join(a, 0);", "a = b; pthread_join(a, 0);"),
            // A thread with an attribute may be detached.
            (
                "pthread_create(&a, 0, t1, 0);",
                "pthread_create(&a, &b, t1, 0);",
            ),
            // The creation is inside a loop.
            (
                "pthread_create(&a, 0, t1, 0);",
                "for (int i = 0; i < 1; i++) pthread_create(&a, 0, t1, 0);",
            ),
            // Some thread is detached.
            (
                "pthread_join(a, 0);",
                "pthread_detach(b); pthread_join(a, 0);",
            ),
            // The handle is reused by a second creation: the join waits for that one.
            (
                "pthread_create(&b, 0, t2, 0);",
                "pthread_create(&a, 0, t2, 0);",
            ),
        ];
        for (from, to) in cases {
            let changed = WORKERS.replace(from, to);
            assert!(
                !handed(&changed).contains(&"x1".to_string()),
                "{to}: {:?}",
                handed(&changed)
            );
        }
    }

    #[test]
    fn a_global_two_threads_use_stays_shared() {
        let both = WORKERS.replace(
            "while (x2 < n) x2 = x2 + x2;",
            "while (x2 < n) x2 = x2 + x1;",
        );
        assert_eq!(handed(&both), ["x2"]);
    }
}
