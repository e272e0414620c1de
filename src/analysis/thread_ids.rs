//! Who can hold a thread's id: the one question the sequentializer asks is whether some
//! `pthread_join` may name the calling thread itself (which answers EDEADLK at once instead
//! of blocking). Modelling that costs a disjunct in every join's guard, and a changed
//! encoding makes the solver return another counterexample, so it is modelled only where
//! a thread may know its own id.

use std::collections::BTreeSet;

use crate::ir::known::{Known, classify};
use crate::ir::visit::{self, Visitor};
use crate::ir::*;

/// Whether some thread may hold its own id, so that a join may name the joining thread.
/// `false` only when provably not: no `pthread_self`, every `pthread_create` stores the id
/// into a local of the creator (a variable or an element of a local array), those locals
/// are used nowhere but as the first argument of `pthread_create`, `pthread_join` or
/// `pthread_detach`, and every join and detach names one of them — so an id stays with
/// the thread that created it, which is never the created thread.
pub fn may_join_itself(prog: &Program) -> bool {
    let mut held: BTreeSet<VarId> = BTreeSet::new();
    let mut open = false;
    let mut collect = |e: &Expr| {
        let ExprKind::Call(callee, args) = &e.kind else {
            return;
        };
        let ExprKind::Func(f) = callee.peel().kind else {
            return;
        };
        match classify(&prog.func(f).name) {
            Known::ThreadSelf => open = true,
            Known::ThreadCreate => match args.first().and_then(|a| id_home(a, prog)) {
                Some(v) => {
                    held.insert(v);
                }
                None => open = true,
            },
            _ => {}
        }
    };
    for f in &prog.funcs {
        if let Some(body) = &f.body {
            visit::each_expr(body, &mut collect);
        }
    }
    if open {
        return true;
    }
    let mut uses = Uses {
        prog,
        held: &held,
        stray: false,
    };
    for f in &prog.funcs {
        if let Some(body) = &f.body {
            uses.visit_stmt(body);
        }
    }
    for v in &prog.vars {
        if let Some(i) = &v.init {
            uses.visit_init(i);
        }
    }
    uses.stray
}

/// The declarations without a value of the locals whose address `pthread_create` is
/// given (`pthread_t a; pthread_create(&a, ..)`): whatever such a declaration leaves in
/// the local is no input of the program, `pthread_create` writes the id, so a report
/// does not list it among the inputs. (A program that reads the handle before creating
/// the thread reads that value; the replay keeps it, only the listing leaves it out.)
pub fn unset_handle_decls(prog: &Program) -> Vec<Loc> {
    let mut created: BTreeSet<VarId> = BTreeSet::new();
    for f in &prog.funcs {
        let Some(body) = &f.body else { continue };
        visit::each_expr(body, &mut |e| {
            let ExprKind::Call(callee, args) = &e.kind else {
                return;
            };
            let ExprKind::Func(g) = callee.peel().kind else {
                return;
            };
            if classify(&prog.func(g).name) != Known::ThreadCreate {
                return;
            }
            if let Some(ExprKind::AddrOf(x)) = args.first().map(|a| &a.peel().kind) {
                if let ExprKind::Var(v) = x.peel().kind {
                    if prog.var(v).kind == VarKind::Local {
                        created.insert(v);
                    }
                }
            }
        });
    }
    let mut out = Vec::new();
    for f in &prog.funcs {
        let Some(body) = &f.body else { continue };
        visit::each_stmt(body, &mut |s| {
            if let StmtKind::Decl { var, init: None } = &s.kind {
                if created.contains(var) {
                    out.push(s.loc);
                }
            }
        });
    }
    out
}

/// The local `x` of `&x` or `&x[i]`, where `pthread_create` stores the new id.
fn id_home(e: &Expr, prog: &Program) -> Option<VarId> {
    let ExprKind::AddrOf(inner) = &e.peel().kind else {
        return None;
    };
    let base = match &inner.kind {
        ExprKind::Index(a, _) => a.peel(),
        _ => inner.as_ref(),
    };
    match base.kind {
        ExprKind::Var(v) if prog.var(v).kind == VarKind::Local && !prog.var(v).is_static => Some(v),
        _ => None,
    }
}

/// The local `x` of a handle `x` or `x[i]` given to join or detach.
fn handle_local(e: &Expr) -> Option<VarId> {
    let base = match &e.peel().kind {
        ExprKind::Index(a, _) => a.peel(),
        _ => e.peel(),
    };
    match base.kind {
        ExprKind::Var(v) => Some(v),
        _ => None,
    }
}

/// Finds a use of a held local outside the first argument of create, join or detach, or
/// a join or detach of a handle that is not a held local.
struct Uses<'a> {
    prog: &'a Program,
    held: &'a BTreeSet<VarId>,
    stray: bool,
}

impl Visitor for Uses<'_> {
    fn visit_expr(&mut self, e: &Expr) {
        match &e.kind {
            ExprKind::Var(v) if self.held.contains(v) => self.stray = true,
            ExprKind::Call(callee, args) => {
                let kind = match callee.peel().kind {
                    ExprKind::Func(f) => classify(&self.prog.func(f).name),
                    _ => Known::Other,
                };
                let thread_call = matches!(
                    kind,
                    Known::ThreadCreate | Known::ThreadJoin | Known::ThreadDetach
                );
                // A join or detach of a handle no creation stored (an uninitialized
                // local, a field, a global) names whatever that value is: the joiner too.
                if matches!(kind, Known::ThreadJoin | Known::ThreadDetach)
                    && !args
                        .first()
                        .and_then(handle_local)
                        .is_some_and(|v| self.held.contains(&v))
                {
                    self.stray = true;
                }
                self.visit_expr(callee);
                for (i, a) in args.iter().enumerate() {
                    if i == 0 && thread_call {
                        // The id's own place; only an index inside it is a use.
                        visit::each_subexpr(a, &mut |x| {
                            if let ExprKind::Index(_, idx) = &x.kind {
                                visit::each_subexpr(idx, &mut |y| {
                                    if matches!(&y.kind, ExprKind::Var(v) if self.held.contains(v))
                                    {
                                        self.stray = true;
                                    }
                                });
                            }
                        });
                    } else {
                        self.visit_expr(a);
                    }
                }
            }
            _ => visit::walk_expr(self, e),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn program(src: &str) -> Program {
        let dir = tempfile::tempdir().unwrap_or_else(|e| unreachable!("{e}"));
        let path = dir.path().join("p.c");
        std::fs::write(&path, src).unwrap_or_else(|e| unreachable!("{e}"));
        let prog = crate::frontend::load(&path, &Default::default())
            .unwrap_or_else(|e| unreachable!("{e:?}"));
        // What the sequentializer asks it of: the normalized program.
        crate::passes::Prepared::new(prog).normalized
    }

    const HEAD: &str = "#include <pthread.h>\nvoid *w(void *a) { return 0; }\n";

    #[test]
    fn handles_pthread_create_writes_are_told_apart_from_other_locals() {
        let p = program(&format!(
            "{HEAD}int main() {{ pthread_t a, b; int x; pthread_t c = 0;\n\
             pthread_create(&a, 0, w, 0); pthread_create(&c, 0, w, 0);\n\
             pthread_join(a, 0); pthread_join(c, 0); return x; }}\n"
        ));
        let named: Vec<String> = unset_handle_decls(&p)
            .into_iter()
            .filter_map(|l| {
                p.sources
                    .position(l)
                    .map(|q| format!("{}:{}", q.line, q.col))
            })
            .collect();
        // `a` only: `b` is never created into, `x` is no handle, `c` has a value.
        assert_eq!(named, ["3:24"], "{named:?}");
    }

    #[test]
    fn ids_kept_by_their_creator_cannot_name_the_joiner() {
        let p = program(&format!(
            "{HEAD}int main() {{ pthread_t a, t[2]; int i; pthread_create(&a, 0, w, 0);\n\
             for (i = 0; i < 2; i++) pthread_create(&t[i], 0, w, 0);\n\
             pthread_join(a, 0); for (i = 0; i < 2; i++) pthread_join(t[i], 0); return 0; }}\n"
        ));
        assert!(!may_join_itself(&p));
    }

    #[test]
    fn self_global_ids_and_escaping_locals_may() {
        for body in [
            "pthread_t a; pthread_create(&a, 0, w, 0); pthread_join(pthread_self(), 0);",
            "pthread_t a; pthread_create(&a, 0, w, &a); pthread_join(a, 0);",
            "pthread_t a, b; pthread_create(&a, 0, w, 0); b = a; pthread_join(b, 0);",
            // A handle no creation stored holds whatever it holds: the joiner's id too.
            "pthread_t a, g; pthread_create(&a, 0, w, 0); pthread_join(g, 0);",
        ] {
            let p = program(&format!("{HEAD}int main() {{ {body} return 0; }}\n"));
            assert!(may_join_itself(&p), "{body}");
        }
        let p = program(&format!(
            "{HEAD}pthread_t g;\nint main() {{ pthread_create(&g, 0, w, 0); pthread_join(g, 0); return 0; }}\n"
        ));
        assert!(may_join_itself(&p));
    }
}
