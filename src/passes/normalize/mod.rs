//! Normalization: every statement becomes *simple* and performs at most one access to
//! memory another thread can see.
//!
//! C does not make `x = x + 1` atomic: another thread may run between its read and its
//! write (DESIGN principle 6). After this pass the read and the write are two statements
//! (`t = x; x = t + 1;`), so both the sequentializer and an external checker that
//! switches threads only between statements see every interleaving. The pass also
//!
//! * pulls side effects out of expressions (calls, assignments, `++`, statement
//!   expressions) in C's evaluation order, keeping short-circuit and `?:` semantics;
//! * gives every branch a fresh condition temporary, so that a thread resumed in the
//!   middle of its code re-takes exactly the branches it took before;
//! * rewrites every loop to `while (1) { cond; if (!cond) break; body }` (recording the
//!   constant trip count of counted loops);
//! * turns the SV-COMP primitives into intrinsics (`__VERIFIER_assert` → assert at the
//!   caller's line, `reach_error`/`__assert_fail` → error, `abort` → abort, nondet);
//! * numbers every statement ([`StmtId`]), the identity every later copy keeps.

mod access;
mod aggregate;
mod effect;
mod normalizer;
mod pure;
mod stmt;

pub use access::shared_accesses;

use normalizer::Normalizer;

use crate::analysis::shared::SharedInfo;
use crate::ir::*;

/// Normalizes every function body of `prog`.
pub fn normalize(prog: &mut Program) -> SharedInfo {
    let shared = SharedInfo::compute(prog);
    for i in 0..prog.funcs.len() {
        let fid = FuncId(i as u32);
        let Some(body) = prog.funcs[i].body.take() else {
            continue;
        };
        let mut n = Normalizer {
            prog,
            shared: &shared,
            func: fid,
        };
        let loc = body.loc;
        let mut out = Vec::new();
        match body.kind {
            StmtKind::Block(ss) => {
                for s in ss {
                    n.stmt(s, &mut out, None);
                }
            }
            k => n.stmt(Stmt::new(k, loc), &mut out, None),
        }
        prog.funcs[i].body = Some(Stmt::block(out, loc));
    }
    super::unreachable::prune(prog);
    // After the pruning: SV-COMP's `ERROR: ...; goto ERROR;` is dead code, not a loop.
    super::goto_loops::rewrite(prog);
    shared
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::analysis::shared::has_effects;
    use crate::frontend;
    use crate::ir::visit;

    fn norm(src: &str) -> (Program, SharedInfo) {
        let mut p = frontend::load_text("t.c", src, DataModel::Lp64).expect("parses");
        let s = normalize(&mut p);
        (p, s)
    }

    fn all_simple(p: &Program, s: &SharedInfo) {
        for f in &p.funcs {
            if let Some(b) = &f.body {
                // No hoisting placeholder may survive: its id names no variable.
                visit::each_expr(b, &mut |x| {
                    if let ExprKind::Var(v) = x.kind {
                        assert!(
                            (v.0 as usize) < p.vars.len(),
                            "placeholder {v:?} left in {}",
                            f.name
                        );
                    }
                });
                visit::each_stmt(b, &mut |st| {
                    assert!(
                        shared_accesses(s, st) <= 1,
                        "statement with {} shared accesses in {}: {}",
                        shared_accesses(s, st),
                        f.name,
                        crate::ir::print::stmt_summary(p, st)
                    );
                    if let StmtKind::Expr(e) = &st.kind {
                        if let ExprKind::Assign(_, r) = &e.kind {
                            assert!(
                                !has_effects(r)
                                    || matches!(
                                        r.kind,
                                        ExprKind::Call(..) | ExprKind::Intrinsic(..)
                                    )
                            );
                        }
                    }
                });
            }
        }
    }

    const RACE: &str = "int x; int y; int a[4];\n\
        void *t(void *arg) { x = x + 1; y = x + y; a[x] = a[y]; x++; if (x > y && y > 0) x = 0; return 0; }\n\
        int main() { int p; void *q; pthread_create(&p, 0, t, 0); pthread_create(&p, 0, t, 0); return x; }\n\
        int pthread_create(int *, void *, void *(*)(void *), void *);\n";

    #[test]
    fn every_statement_has_at_most_one_shared_access() {
        let (p, s) = norm(
            "int pthread_create(int *, void *, void *(*)(void *), void *);\n\
             int x; int y; int a[4];\n\
             void *t(void *arg) { x = x + 1; y = x + y; a[x] = a[y]; x++; if (x > y && y > 0) x = 0; \
             while (x < 3) x += y; for (int i = 0; i < 2; i++) { a[i] = x ? y : x; } return 0; }\n\
             int main() { int p; pthread_create(&p, 0, t, 0); pthread_create(&p, 0, t, 0); return x; }\n",
        );
        assert!(s.vars.iter().any(|v| p.var(*v).name == "x"));
        all_simple(&p, &s);
        let _ = RACE;
    }

    /// A shared read nested in another one that is hoisted too (`s.b[s.a]` in a
    /// condition, `q->v[q->i[q->h]]`) binds the inner temporary in the outer one's
    /// declaration: its placeholder once escaped and panicked `Program::var`.
    #[test]
    fn nested_hoisted_reads_leave_no_placeholder() {
        let (p, s) = norm(
            "int pthread_create(int *, void *, void *(*)(void *), void *);\n\
             struct S { int a; int b[4]; int i[4]; } s; struct S *g = &s; int r;\n\
             void *t(void *arg) { struct S *q = arg; s.a = 1; \
             if (s.b[s.a] == 5) r = 1; r = s.b[s.b[s.a]] + s.b[s.a]; \
             q->b[q->i[q->a]] = q->b[q->a]; while (g->b[g->i[g->a]] > 9) r++; \
             switch (s.b[s.a]) { case 1: r = 2; } return 0; }\n\
             int main() { int p; pthread_create(&p, 0, t, &s); pthread_create(&p, 0, t, &s); \
             return s.b[s.i[s.a]]; }\n",
        );
        all_simple(&p, &s);
    }

    #[test]
    fn counted_loops_keep_their_trip_count() {
        let (p, _) =
            norm("int main() { int s = 0; for (int i = 0; i < 5; i++) s += i; return s; }");
        assert_eq!(p.loop_bounds.values().copied().collect::<Vec<_>>(), vec![5]);
    }
}
