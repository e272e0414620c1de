//! `main`'s locals that another thread reaches through a pointer, spelled for ESBMC as
//! file-scope variables.
//!
//! ESBMC 8.4 loses the interleavings on such a local: a program whose thread writes a
//! field of `main`'s stack struct through the pointer it was handed, which `main` reads
//! before the join, is VERIFICATION SUCCESSFUL, also when `main` reads it through a
//! pointer, and VERIFICATION FAILED once the struct is `static` (measured with ESBMC
//! 8.4.0; `tests/programs/esbmc_misses/stack_counter_read_early.c` in
//! `tests/real_checkers.rs`). `main` runs once, so its locals can live at file scope
//! without changing what the program does, as long as nothing calls `main` again: the
//! declaration becomes an assignment of the initial value where it stood (an
//! indeterminate value, as C gives a local without an initializer, is a nondeterministic
//! one per scalar).
//!
//! When one such local cannot be moved that way (a local of another function, which
//! several threads may run at once; `main` called by the program; a braced initializer;
//! an aggregate with a union or a bit-field, whose every bit a nondeterministic value
//! per member would not cover) nothing is moved ([`hoist_escaped_locals`] answers `None`)
//! and ESBMC's "no failure" on the program stays in doubt.

use std::collections::HashSet;

use crate::ir::build;
use crate::ir::visit::{self, Visitor};
use crate::ir::{Expr, ExprKind, FuncId, Init, Loc, Program, Stmt, StmtKind, Type, VarId, VarKind};

/// Leaves an aggregate may have before it is left as it is.
const MAX_LEAVES: usize = 256;

/// `prog` with the locals `escaped` (all of them `main`'s) moved to file scope; `None` when
/// there is none, or one cannot be moved (see the module's comment).
pub fn hoist_escaped_locals(prog: &Program, escaped: &[VarId]) -> Option<Program> {
    if escaped.is_empty() {
        return None;
    }
    let main = prog.func_named("main")?;
    if escaped.iter().any(|v| {
        let v = prog.var(*v);
        v.kind != VarKind::Local || v.func != Some(main)
    }) {
        return None;
    }
    if calls_main(prog, main) {
        return None;
    }
    let wanted: HashSet<VarId> = escaped.iter().copied().collect();
    let mut out = prog.clone();
    let mut body = out.funcs[main.0 as usize].body.take()?;
    let mut moved = HashSet::new();
    let ok = rewrite(&mut body, &wanted, prog, &mut moved);
    if !ok || moved != wanted {
        return None;
    }
    out.funcs[main.0 as usize].body = Some(body);
    let mut order: Vec<VarId> = wanted.iter().copied().collect();
    order.sort();
    for v in order {
        let var = &mut out.vars[v.0 as usize];
        var.kind = VarKind::Global;
        var.is_static = true;
        var.init = None;
        // The printer declares the program's file-scope variables from its items.
        out.items.push(crate::ir::Item::Var(v));
    }
    Some(out)
}

fn calls_main(prog: &Program, main: FuncId) -> bool {
    struct Find {
        main: FuncId,
        found: bool,
    }
    impl Visitor for Find {
        fn visit_expr(&mut self, e: &Expr) {
            if matches!(e.kind, ExprKind::Func(f) if f == self.main) {
                self.found = true;
            }
            visit::walk_expr(self, e)
        }
    }
    let mut v = Find { main, found: false };
    visit::walk_program(&mut v, prog);
    v.found
}

/// Replaces each declaration of a `wanted` variable in the block lists under `s` by the
/// assignment of its initial value; `false` when one cannot be.
fn rewrite(
    s: &mut Stmt,
    wanted: &HashSet<VarId>,
    prog: &Program,
    moved: &mut HashSet<VarId>,
) -> bool {
    match &mut s.kind {
        StmtKind::Block(ss) => {
            let old = std::mem::take(ss);
            for mut x in old {
                if let StmtKind::Decl { var, init } = &x.kind
                    && wanted.contains(var)
                {
                    let Some(mut stmts) = initial_value(prog, *var, init.as_ref(), &x) else {
                        return false;
                    };
                    if !moved.insert(*var) {
                        return false;
                    }
                    ss.append(&mut stmts);
                    continue;
                }
                if !rewrite(&mut x, wanted, prog, moved) {
                    return false;
                }
                ss.push(x);
            }
            true
        }
        StmtKind::If { then, els, .. } => {
            rewrite(then, wanted, prog, moved)
                && els
                    .as_deref_mut()
                    .is_none_or(|e| rewrite(e, wanted, prog, moved))
        }
        StmtKind::While { body, .. }
        | StmtKind::DoWhile { body, .. }
        | StmtKind::Switch { body, .. } => rewrite(body, wanted, prog, moved),
        StmtKind::For { init, body, .. } => {
            init.iter().all(|i| !declares(i, wanted)) && rewrite(body, wanted, prog, moved)
        }
        StmtKind::Decl { var, .. } => !wanted.contains(var),
        StmtKind::Expr(_)
        | StmtKind::Case { .. }
        | StmtKind::Default
        | StmtKind::Label(_)
        | StmtKind::Goto(_)
        | StmtKind::Break
        | StmtKind::Continue
        | StmtKind::Return(_)
        | StmtKind::Skip => true,
    }
}

fn declares(s: &Stmt, wanted: &HashSet<VarId>) -> bool {
    matches!(&s.kind, StmtKind::Decl { var, .. } if wanted.contains(var))
}

/// What the declaration `decl` of `v` did, as statements: `v = e;` (the declaration's
/// location and id, so the trace's step maps to it), or a nondeterministic value per
/// scalar for no initializer. `None` for a braced list or an aggregate whose leaves are
/// not all plain scalars.
fn initial_value(prog: &Program, v: VarId, init: Option<&Init>, decl: &Stmt) -> Option<Vec<Stmt>> {
    let tt = &prog.types;
    let ty = &prog.var(v).ty;
    // A `const` local cannot be assigned, an array not as a whole.
    if matches!(ty, Type::Qualified(..))
        || matches!(ty.resolve(tt), Type::Array(..)) && init.is_some()
    {
        return None;
    }
    let target = build::var(prog, v);
    match init {
        Some(Init::Expr(e)) => Some(vec![build::expr_stmt(
            build::assign(target, e.clone(), tt),
            decl.loc,
            decl.id,
        )]),
        Some(Init::List(_)) => None,
        None => {
            let mut leaves = Vec::new();
            leaves_of(prog, target, &mut leaves)?;
            // The declaration's own line stays (an empty statement), so that the lines of
            // the statements that share its location keep their places in the line map.
            let kept = Stmt::skip(decl.loc).with_id(decl.id);
            Some(
                std::iter::once(kept)
                    .chain(
                        leaves
                            .into_iter()
                            .map(|l| {
                                let ty = l.ty.clone();
                                Stmt::expr(build::assign(l, build::nondet(&ty, Loc::SYNTH), tt))
                            })
                            .map(|mut s| {
                                s.loc = Loc::SYNTH;
                                s
                            }),
                    )
                    .collect(),
            )
        }
    }
}

/// Every scalar inside `e`, or `None` when some part is not a plain scalar, array of known
/// length or struct (a union, a bit-field), or there are too many.
fn leaves_of(prog: &Program, e: Expr, out: &mut Vec<Expr>) -> Option<()> {
    if out.len() > MAX_LEAVES {
        return None;
    }
    let tt = &prog.types;
    match e.ty.resolve(tt).clone() {
        Type::Array(elem, Some(n)) => {
            if n as usize > MAX_LEAVES {
                return None;
            }
            for i in 0..n {
                let decayed = Expr::new(
                    ExprKind::Decay(Box::new(e.clone())),
                    Type::ptr((*elem).clone()),
                    Loc::SYNTH,
                );
                let x = Expr::new(
                    ExprKind::Index(Box::new(decayed), Box::new(build::int(i as i128))),
                    (*elem).clone(),
                    Loc::SYNTH,
                );
                leaves_of(prog, x, out)?;
            }
            Some(())
        }
        Type::Comp(c) => {
            let def = tt.comp(c);
            if def.is_union {
                return None;
            }
            for (i, f) in def.fields.iter().enumerate() {
                if f.bit_width.is_some() {
                    return None;
                }
                let x = Expr::new(
                    ExprKind::Member(Box::new(e.clone()), i),
                    f.ty.clone(),
                    Loc::SYNTH,
                );
                leaves_of(prog, x, out)?;
            }
            Some(())
        }
        t if t.is_scalar(tt) => {
            out.push(e);
            Some(())
        }
        _ => None,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::dialect::Dialect;
    use crate::ir::print::{PrintOptions, print_program};
    use crate::passes::Prepared;

    fn escaped(p: &Prepared) -> Vec<VarId> {
        p.shared
            .vars
            .iter()
            .copied()
            .filter(|v| p.normalized.var(*v).kind != VarKind::Global)
            .collect()
    }

    fn prepared(src: &str) -> Prepared {
        let prog =
            crate::frontend::load_text("t.c", src, crate::ir::DataModel::Lp64).expect("parses");
        Prepared::new(prog)
    }

    #[test]
    fn mains_struct_another_thread_writes_moves_to_file_scope() {
        let p = prepared(
            r#"
typedef unsigned long pthread_t;
int pthread_create(pthread_t *, void *, void *(*)(void *), void *);
int pthread_join(pthread_t, void **);
struct job { int n; int v[2]; };
void *work(void *a) { struct job *j = a; j->n = j->n + 1; return 0; }
int main(void) {
  pthread_t t;
  struct job job;
  int seen = 3;
  job.n = 0;
  pthread_create(&t, 0, work, &job);
  seen = job.n;
  pthread_join(t, 0);
  return seen;
}
"#,
        );
        let esc = escaped(&p);
        assert_eq!(esc.len(), 1);
        let q = hoist_escaped_locals(&p.normalized, &esc).expect("hoisted");
        let d = Dialect::load("esbmc", None).expect("dialect");
        let text = print_program(&q, &d, &PrintOptions::default()).text;
        // At file scope, with a nondeterministic value per scalar where it was declared.
        let decl = text
            .lines()
            .position(|l| l.starts_with("static struct job") && l.contains("job"))
            .unwrap_or_else(|| panic!("{text}"));
        let main = text
            .lines()
            .position(|l| l == "int main(void)")
            .expect("main");
        assert!(decl < main, "{text}");
        assert_eq!(text.matches("nondet_int()").count(), 3, "{text}");
        assert!(!text.contains("  struct job job;"), "{text}");
    }

    #[test]
    fn a_thread_functions_local_stays_where_it_is() {
        let p = prepared(
            r#"
typedef unsigned long pthread_t;
int pthread_create(pthread_t *, void *, void *(*)(void *), void *);
int pthread_join(pthread_t, void **);
int *shared;
void *work(void *a) { int mine = 1; shared = &mine; return a; }
void *peek(void *a) { if (shared) *shared = 2; return a; }
int main(void) {
  pthread_t t, u;
  pthread_create(&t, 0, work, 0);
  pthread_create(&u, 0, peek, 0);
  return 0;
}
"#,
        );
        let esc = escaped(&p);
        assert!(!esc.is_empty());
        assert!(hoist_escaped_locals(&p.normalized, &esc).is_none());
    }

    #[test]
    fn a_braced_initializer_is_left_as_it_is() {
        let p = prepared(
            r#"
typedef unsigned long pthread_t;
int pthread_create(pthread_t *, void *, void *(*)(void *), void *);
int pthread_join(pthread_t, void **);
void *work(void *a) { int *v = a; v[0] = v[1]; return 0; }
int main(void) {
  pthread_t t;
  int v[2] = { 1, 2 };
  pthread_create(&t, 0, work, v);
  pthread_join(t, 0);
  return v[0];
}
"#,
        );
        let esc = escaped(&p);
        assert!(!esc.is_empty());
        assert!(hoist_escaped_locals(&p.normalized, &esc).is_none());
    }
}
