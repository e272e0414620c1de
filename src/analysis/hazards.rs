//! What could go wrong at all: the first check (an assertion, an error call) and the
//! first statement that may block (a lock, a join, a condition wait, a loop with no
//! constant bound) in the code an execution can enter.
//!
//! The code an execution can enter is every function reachable from `main` through direct
//! calls, plus every function whose address is taken in reachable code or in a global's
//! initializer: thread entries passed to `pthread_create` and targets of calls through
//! pointers are among those. Code seqloc cannot see (a function declared outside the system
//! headers and defined nowhere in the program) counts as both a check and a block.
//! A program with no reachable check cannot fail, whatever its
//! threads do, and one with nothing that may block cannot deadlock. The explorer answers
//! such a program at once, as ESBMC does when it generates no verification conditions,
//! instead of enumerating interleavings that cannot matter. The checks it finds may still
//! be proved to hold without a search (`checker::counting`), which needs the reachable code
//! and whether every check is one it can read (an assertion or an error call, not code it
//! cannot see).

use std::collections::HashSet;

use crate::ir::known::{Known, classify};
use crate::ir::visit::{Visitor, walk_expr, walk_stmt};
use crate::ir::*;

#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Hazards {
    /// A reachable assertion or error call.
    pub check: Option<Loc>,
    /// A reachable statement that may block, or loop forever (a spinning thread is stuck).
    pub block: Option<Loc>,
    /// A reachable check that is not an assertion or error statement of the program's
    /// own code: a call of code seqloc cannot see, or of an SV-COMP check function
    /// through a pointer.
    pub opaque_check: Option<Loc>,
    /// The functions an execution can enter, `main` first.
    pub reachable: Vec<FuncId>,
}

/// The hazards of the code reachable from `main` (none when there is no `main`: nothing
/// runs).
pub fn hazards(prog: &Program) -> Hazards {
    let mut scan = Scan {
        prog,
        found: Hazards::default(),
        entered: HashSet::new(),
        work: vec![],
    };
    let Some(main) = prog.main() else {
        return scan.found;
    };
    scan.enter(main);
    // Addresses stored in global data can be called from anywhere.
    for v in &prog.vars {
        if v.kind == VarKind::Global {
            if let Some(i) = &v.init {
                scan.visit_init(i);
            }
        }
    }
    while let Some(f) = scan.work.pop() {
        if let Some(body) = &prog.func(f).body {
            scan.visit_stmt(body);
        }
    }
    scan.found
}

struct Scan<'p> {
    prog: &'p Program,
    found: Hazards,
    entered: HashSet<FuncId>,
    work: Vec<FuncId>,
}

impl Scan<'_> {
    fn enter(&mut self, f: FuncId) {
        if self.entered.insert(f) {
            self.work.push(f);
            self.found.reachable.push(f);
        }
    }

    fn check(&mut self, loc: Loc) {
        self.found.check.get_or_insert(loc);
    }

    fn block(&mut self, loc: Loc) {
        self.found.block.get_or_insert(loc);
    }

    fn call(&mut self, f: FuncId, loc: Loc) {
        let fun = self.prog.func(f);
        let known = classify(&fun.name);
        // Code seqloc cannot see (a system helper it could not lower, a function of the
        // user's defined in another file) may check or block; a library function declared
        // in a system header does neither.
        let unseen = fun.unsupported.is_some()
            || (fun.body.is_none()
                && known == Known::Other
                && !self.prog.sources.is_system(fun.loc));
        if unseen {
            self.check(loc);
            self.found.opaque_check.get_or_insert(loc);
            self.block(loc);
        }
        match known {
            Known::VerifierAssert | Known::ReachError | Known::AssertFail => {
                self.check(loc);
                self.found.opaque_check.get_or_insert(loc);
            }
            // Unsupported facilities may block too; seqloc cannot tell.
            k if k.may_block() => self.block(loc),
            _ => {}
        }
        self.enter(f);
    }
}

impl Visitor for Scan<'_> {
    fn visit_stmt(&mut self, s: &Stmt) {
        match &s.kind {
            StmtKind::While { .. } | StmtKind::DoWhile { .. } | StmtKind::For { .. }
                if !self.prog.loop_bounds.contains_key(&s.id) =>
            {
                self.block(s.loc)
            }
            // A jump may close a loop.
            StmtKind::Goto(_) => self.block(s.loc),
            _ => {}
        }
        walk_stmt(self, s)
    }

    fn visit_expr(&mut self, e: &Expr) {
        match &e.kind {
            ExprKind::Call(c, args) => {
                if let ExprKind::Func(f) = &c.peel().kind {
                    self.call(*f, e.loc);
                    args.iter().for_each(|a| self.visit_expr(a));
                    return;
                }
            }
            // A function whose address is taken may be called through it.
            ExprKind::Func(f) => self.call(*f, e.loc),
            ExprKind::Intrinsic(Intrinsic::Assert | Intrinsic::Error, _) => self.check(e.loc),
            ExprKind::Intrinsic(Intrinsic::Await, _) => self.block(e.loc),
            _ => {}
        }
        walk_expr(self, e)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn of(src: &str) -> Hazards {
        of_prog(src).0
    }

    fn of_prog(src: &str) -> (Hazards, Program) {
        let mut prog = crate::frontend::load_text("t.c", src, crate::ir::types::DataModel::Lp64)
            .expect("parses");
        crate::passes::normalize::normalize(&mut prog);
        (hazards(&prog), prog)
    }

    const HEAD: &str = "typedef unsigned long pthread_t;\n\
        int pthread_create(pthread_t *, void *, void *(*)(void *), void *);\n\
        int pthread_join(pthread_t, void **);\n\
        void reach_error(void);\n\
        void __VERIFIER_assert(int);\n";

    #[test]
    fn racing_threads_that_assert_nothing_have_no_hazard() {
        let (h, prog) = of_prog(&format!(
            "{HEAD}int x;\n\
             void check(void) {{ __VERIFIER_assert(x < 10); }}\n\
             void *w(void *a) {{ int t = x; x = t + 1; return 0; }}\n\
             int main() {{ pthread_t t; for (int i = 0; i < 50; i++) \
             pthread_create(&t, 0, w, 0); return 0; }}"
        ));
        // `check` is never called.
        assert_eq!((h.check, h.block, h.opaque_check), (None, None, None));
        let names: Vec<&str> = h
            .reachable
            .iter()
            .map(|f| prog.func(*f).name.as_str())
            .collect();
        assert!(names.contains(&"main") && names.contains(&"w"), "{names:?}");
        assert!(!names.contains(&"check"), "{names:?}");
    }

    #[test]
    fn a_check_in_a_thread_entry_is_reached_through_its_address() {
        let h = of(&format!(
            "{HEAD}int x;\n\
             void *w(void *a) {{ if (x) reach_error(); return 0; }}\n\
             int main() {{ pthread_t t; pthread_create(&t, 0, w, 0); return 0; }}"
        ));
        assert!(h.check.is_some());
        assert!(h.block.is_none());
    }

    #[test]
    fn a_function_stored_in_a_global_table_is_reachable() {
        let h = of(&format!(
            "{HEAD}void bad(void) {{ __VERIFIER_assert(0); }}\n\
             void (*table[1])(void) = {{ bad }};\n\
             int main() {{ table[0](); return 0; }}"
        ));
        assert!(h.check.is_some());
    }

    #[test]
    fn a_function_defined_elsewhere_may_fail() {
        let h = of(&format!(
            "{HEAD}void log_hit(int);\n\
             int main() {{ log_hit(1); return 0; }}"
        ));
        assert!(h.check.is_some() && h.block.is_some() && h.opaque_check.is_some());
    }

    #[test]
    fn joins_and_unbounded_loops_may_block() {
        let join = of(&format!(
            "{HEAD}void *w(void *a) {{ return 0; }}\n\
             int main() {{ pthread_t t; pthread_create(&t, 0, w, 0); \
             pthread_join(t, 0); return 0; }}"
        ));
        assert!(join.block.is_some() && join.check.is_none());
        let spin = of(&format!(
            "{HEAD}volatile int flag;\n\
             void *w(void *a) {{ while (!flag) {{}} return 0; }}\n\
             int main() {{ pthread_t t; pthread_create(&t, 0, w, 0); return 0; }}"
        ));
        assert!(spin.block.is_some() && spin.check.is_none());
    }
}
