//! SV-COMP's `__VERIFIER_atomic_*` functions, spelled for ESBMC as seqloc reads them.
//!
//! seqloc runs a call of such a function as one atomic section (`passes::inline` puts the
//! inlined body between an atomic begin and end). ESBMC 8.4 gives these names a treatment
//! of its own that loses interleavings between two such calls: two threads that each call
//! an atomic get and then an atomic set are VERIFICATION SUCCESSFUL, and VERIFICATION
//! FAILED once the functions are renamed, with or without `__ESBMC_atomic_begin/end`
//! around each call (measured with ESBMC 8.4.0; `tests/programs/esbmc_misses/atomic_read_then_write.c`
//! in `tests/real_checkers.rs`). So the program ESBMC is given calls them by another name,
//! each call between the dialect's atomic begin and end, as seqloc's own semantics has it.
//!
//! Only calls that are whole statements can be bracketed that way (`f(x);`, `v = f(x);`,
//! `T v = f(x);`); the normalized program has no other, but a function whose address is
//! taken or a call left inside an expression would run unbracketed, so then the program
//! is not rewritten at all ([`explicit_atomics`] answers `None`) and ESBMC's "no failure"
//! on it stays in doubt.

use std::collections::HashSet;

use crate::ir::build::intrinsic;
use crate::ir::known::is_atomic_function;
use crate::ir::visit::{self, Visitor};
use crate::ir::{Expr, ExprKind, FuncId, Init, Intrinsic, Loc, Program, Stmt, StmtKind};

/// The prefix the rewritten functions are given (an internal name, see
/// `ir::internal::is_internal_name`).
const PREFIX: &str = "__seqloc_atomic_";

/// The `__VERIFIER_atomic_*` functions `prog` defines (with a body).
pub fn atomic_functions(prog: &Program) -> HashSet<FuncId> {
    prog.funcs
        .iter()
        .enumerate()
        .filter(|(_, f)| f.body.is_some() && is_atomic_function(&f.name))
        .map(|(i, _)| FuncId(i as u32))
        .collect()
}

/// `prog` with every `__VERIFIER_atomic_*` function renamed and each call of one between
/// an atomic begin and end; `None` when it has no such function with a body, or one is
/// used otherwise than called by a whole statement.
pub fn explicit_atomics(prog: &Program) -> Option<Program> {
    let atomic = atomic_functions(prog);
    if atomic.is_empty() {
        return None;
    }
    let uses = count_uses(prog, &atomic);
    let mut out = prog.clone();
    let mut bracketed = 0usize;
    for f in &mut out.funcs {
        if let Some(body) = &mut f.body {
            bracket(body, &atomic, &mut bracketed);
        }
    }
    if bracketed != uses {
        return None;
    }
    let taken: HashSet<String> = prog.funcs.iter().map(|f| f.name.clone()).collect();
    for &id in &atomic {
        let f = &mut out.funcs[id.0 as usize];
        let rest = f.name.trim_start_matches("__VERIFIER_atomic_");
        let base = format!("{PREFIX}{rest}");
        let mut name = base.clone();
        let mut n = 1;
        while taken.contains(&name) {
            name = format!("{base}_{n}");
            n += 1;
        }
        f.name = name;
    }
    Some(out)
}

/// Every mention of an atomic function anywhere in the program (calls and taken addresses).
fn count_uses(prog: &Program, atomic: &HashSet<FuncId>) -> usize {
    struct Count<'a> {
        atomic: &'a HashSet<FuncId>,
        n: usize,
    }
    impl Visitor for Count<'_> {
        fn visit_expr(&mut self, e: &Expr) {
            if let ExprKind::Func(f) = e.kind
                && self.atomic.contains(&f)
            {
                self.n += 1;
            }
            visit::walk_expr(self, e)
        }
    }
    let mut c = Count { atomic, n: 0 };
    visit::walk_program(&mut c, prog);
    c.n
}

/// The atomic function a whole statement calls: `f(..);`, `v = f(..);`, `T v = f(..);`,
/// when no other part of it mentions one.
fn called_atomic(s: &Stmt, atomic: &HashSet<FuncId>) -> bool {
    let call = |e: &Expr| -> bool {
        let ExprKind::Call(c, args) = &e.peel().kind else {
            return false;
        };
        matches!(c.peel().kind, ExprKind::Func(f) if atomic.contains(&f))
            && args.iter().all(|a| !mentions(a, atomic))
    };
    match &s.kind {
        StmtKind::Expr(e) => match &e.kind {
            ExprKind::Assign(lhs, rhs) => call(rhs) && !mentions(lhs, atomic),
            _ => call(e),
        },
        StmtKind::Decl {
            init: Some(Init::Expr(e)),
            ..
        } => call(e),
        _ => false,
    }
}

fn mentions(e: &Expr, atomic: &HashSet<FuncId>) -> bool {
    struct Find<'a> {
        atomic: &'a HashSet<FuncId>,
        found: bool,
    }
    impl Visitor for Find<'_> {
        fn visit_expr(&mut self, e: &Expr) {
            if let ExprKind::Func(f) = e.kind
                && self.atomic.contains(&f)
            {
                self.found = true;
            }
            visit::walk_expr(self, e)
        }
    }
    let mut v = Find {
        atomic,
        found: false,
    };
    v.visit_expr(e);
    v.found
}

fn marker(i: Intrinsic) -> Stmt {
    Stmt::expr(intrinsic(i, vec![], Loc::SYNTH))
}

/// Brackets each call statement of an atomic function in `s`, counting them. A declaration
/// stays in its block (its scope), with the markers beside it; any other statement is
/// bracketed in a block of its own.
fn bracket(s: &mut Stmt, atomic: &HashSet<FuncId>, n: &mut usize) {
    if called_atomic(s, atomic) && !matches!(s.kind, StmtKind::Decl { .. }) {
        *n += 1;
        let inner = std::mem::replace(s, Stmt::skip(Loc::SYNTH));
        *s = Stmt::block(
            vec![
                marker(Intrinsic::AtomicBegin),
                inner,
                marker(Intrinsic::AtomicEnd),
            ],
            Loc::SYNTH,
        );
        return;
    }
    match &mut s.kind {
        StmtKind::Block(ss) => {
            let old = std::mem::take(ss);
            for mut x in old {
                if matches!(x.kind, StmtKind::Decl { .. }) && called_atomic(&x, atomic) {
                    *n += 1;
                    ss.push(marker(Intrinsic::AtomicBegin));
                    ss.push(x);
                    ss.push(marker(Intrinsic::AtomicEnd));
                } else {
                    bracket(&mut x, atomic, n);
                    ss.push(x);
                }
            }
        }
        StmtKind::If { then, els, .. } => {
            bracket(then, atomic, n);
            if let Some(e) = els {
                bracket(e, atomic, n);
            }
        }
        StmtKind::While { body, .. }
        | StmtKind::DoWhile { body, .. }
        | StmtKind::Switch { body, .. } => bracket(body, atomic, n),
        StmtKind::For { init, body, .. } => {
            // A `for` initializer stays where it is: a call there is left unbracketed and
            // counted as such.
            let _ = init;
            bracket(body, atomic, n)
        }
        StmtKind::Decl { .. }
        | StmtKind::Expr(_)
        | StmtKind::Case { .. }
        | StmtKind::Default
        | StmtKind::Label(_)
        | StmtKind::Goto(_)
        | StmtKind::Break
        | StmtKind::Continue
        | StmtKind::Return(_)
        | StmtKind::Skip => {}
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::dialect::Dialect;
    use crate::ir::print::{PrintOptions, print_program};

    fn normalized(src: &str) -> Program {
        let mut p =
            crate::frontend::load_text("t.c", src, crate::ir::DataModel::Lp64).expect("parses");
        crate::passes::normalize::normalize(&mut p);
        p
    }

    fn esbmc_text(p: &Program) -> String {
        let d = Dialect::load("esbmc", None).expect("dialect");
        print_program(p, &d, &PrintOptions::default()).text
    }

    const GETSET: &str = r#"
typedef unsigned long pthread_t;
int pthread_create(pthread_t *, void *, void *(*)(void *), void *);
int pthread_join(pthread_t, void **);
int balance;
int __VERIFIER_atomic_read(void) { return balance; }
void __VERIFIER_atomic_write(int v) { balance = v; }
void *deposit(void *arg) {
  int b = __VERIFIER_atomic_read();
  int c;
  __VERIFIER_atomic_write(b + 10);
  c = __VERIFIER_atomic_read();
  if (c > 5)
    __VERIFIER_atomic_write(c - 5);
  return arg;
}
int main(void) { pthread_t t; pthread_create(&t, 0, deposit, 0); deposit(0); return 0; }
"#;

    #[test]
    fn atomic_functions_are_renamed_and_each_call_bracketed() {
        let p = normalized(GETSET);
        let q = explicit_atomics(&p).expect("rewritten");
        let text = esbmc_text(&q);
        assert!(!text.contains("__VERIFIER_atomic_"), "{text}");
        assert!(text.contains("__seqloc_atomic_read"), "{text}");
        // Four calls, each between a begin and an end.
        assert_eq!(text.matches("__ESBMC_atomic_begin();").count(), 4, "{text}");
        assert_eq!(text.matches("__ESBMC_atomic_end();").count(), 4, "{text}");
        let lines: Vec<&str> = text.lines().map(str::trim).collect();
        for (i, l) in lines.iter().enumerate() {
            if l.contains("__seqloc_atomic_") && !l.contains('(') {
                continue;
            }
            if (l.contains("= __seqloc_atomic_") || l.starts_with("__seqloc_atomic_"))
                && l.ends_with(';')
            {
                assert_eq!(lines[i - 1], "__ESBMC_atomic_begin();", "{text}");
                assert_eq!(lines[i + 1], "__ESBMC_atomic_end();", "{text}");
            }
        }
        // The statements keep their ids: the line map still finds them.
        let ids = |p: &Program| {
            let mut v = Vec::new();
            for f in &p.funcs {
                if let Some(b) = &f.body {
                    crate::ir::visit::each_stmt(b, &mut |s| {
                        if !s.id.is_none() {
                            v.push(s.id);
                        }
                    });
                }
            }
            v
        };
        assert_eq!(ids(&p), ids(&q));
    }

    #[test]
    fn no_atomic_function_nothing_to_rewrite() {
        let p = normalized("int x; int main(void) { x = 1; return 0; }");
        assert!(explicit_atomics(&p).is_none());
    }

    /// A function whose address is taken could run unbracketed: the program is left as it
    /// is (and ESBMC's "no failure" stays in doubt).
    #[test]
    fn an_atomic_function_used_as_a_value_is_not_rewritten() {
        let p = normalized(
            r#"
typedef unsigned long pthread_t;
int pthread_create(pthread_t *, void *, void *(*)(void *), void *);
int pthread_join(pthread_t, void **);
int x;
void *__VERIFIER_atomic_bump(void *a) { x = x + 1; return a; }
int main(void) { pthread_t t; pthread_create(&t, 0, __VERIFIER_atomic_bump, 0); return 0; }
"#,
        );
        assert!(explicit_atomics(&p).is_none());
    }
}
