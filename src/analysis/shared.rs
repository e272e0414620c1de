//! Which memory other threads can see: the variables more than one thread instance
//! accesses, locals and globals whose address escapes, and the shared reads an expression
//! performs. The normalization pass, the sequentializer and the checkers all ask this;
//! it is an analysis, not part of a transformation.

use std::collections::HashSet;

use crate::analysis::facts::{shared_globals, thread_structure};
use crate::ir::known::{Known, classify};
use crate::ir::visit::{self, Visitor};
use crate::ir::*;

/// Which variables other threads may access.
#[derive(Clone, Debug, Default)]
pub struct SharedInfo {
    /// Globals accessed by more than one thread instance (but for those `main` hands to a
    /// thread and takes back, `analysis::hand_off`), and locals whose address escapes
    /// (they may be reached through pointers from another thread).
    pub vars: HashSet<VarId>,
}

impl SharedInfo {
    pub fn compute(prog: &Program) -> SharedInfo {
        let ts = thread_structure(prog);
        let globals = shared_globals(prog, &ts);
        // A global handed from `main` to one thread and back is never accessed by two
        // threads at once (`hand_off`).
        let handed = crate::analysis::hand_off::handed_off(prog, &ts, &globals);
        let mut vars: HashSet<VarId> = globals
            .into_keys()
            .filter(|v| !handed.contains(v))
            .collect();
        vars.extend(escaped_locals(prog));
        // Globals whose address is taken are reachable through pointers too.
        for v in escaped_globals(prog) {
            vars.insert(v);
        }
        SharedInfo { vars }
    }

    /// Whether reading or writing this lvalue touches memory another thread may see.
    pub fn is_shared_lvalue(&self, e: &Expr) -> bool {
        match &e.kind {
            ExprKind::Var(v) => self.vars.contains(v),
            ExprKind::Member(b, _) => self.is_shared_lvalue(b),
            ExprKind::Index(b, _) => match &b.kind {
                ExprKind::Decay(arr) => self.is_shared_lvalue(arr),
                _ => true,
            },
            ExprKind::Deref(_) => true,
            _ => false,
        }
    }
}

/// Locals (and parameters) whose address is taken or whose array decays outside an index.
fn escaped_locals(prog: &Program) -> HashSet<VarId> {
    let mut out = HashSet::new();
    for v in address_taken_vars(prog) {
        if prog.var(v).kind != VarKind::Global {
            out.insert(v);
        }
    }
    out
}

fn escaped_globals(prog: &Program) -> HashSet<VarId> {
    address_taken_vars(prog)
        .into_iter()
        .filter(|v| prog.var(*v).kind == VarKind::Global && !prog.var(*v).thread_local)
        .collect()
}

pub fn address_taken_vars(prog: &Program) -> HashSet<VarId> {
    let bodies: Vec<&Stmt> = prog.funcs.iter().filter_map(|f| f.body.as_ref()).collect();
    address_taken_in(prog, &bodies)
}

/// Variables whose address is taken in `stmts` or in a global initializer of `prog`.
pub fn address_taken_in(prog: &Program, stmts: &[&Stmt]) -> HashSet<VarId> {
    struct V<'a>(HashSet<VarId>, &'a Program);
    impl V<'_> {
        fn ignores_arg(&self, callee: &Expr, i: usize) -> bool {
            let ExprKind::Func(f) = callee.peel().kind else {
                return false;
            };
            let k = classify(&self.1.func(f).name);
            // `sem_getvalue` stores through its second argument.
            if k.is_sync_object_op() && !(k == Known::SemGetvalue && i == 1) {
                return true;
            }
            matches!(
                (k, i),
                (Known::ThreadCreate, 0)
                    | (Known::ThreadJoin, 1)
                    | (Known::Attr, _)
                    | (Known::KeyCreate, 0)
            )
        }
        /// Index expressions inside an address that does not escape still read.
        fn visit_expr_inside(&mut self, e: &Expr) {
            match &e.kind {
                ExprKind::Member(b, _) => self.visit_expr_inside(b),
                ExprKind::Index(b, i) => {
                    self.visit_expr(i);
                    match &b.kind {
                        ExprKind::Decay(x) => self.visit_expr_inside(x),
                        _ => self.visit_expr(b),
                    }
                }
                ExprKind::Var(_) => {}
                _ => self.visit_expr(e),
            }
        }
        fn base(&mut self, e: &Expr) {
            match &e.kind {
                ExprKind::Var(v) => {
                    self.0.insert(*v);
                }
                ExprKind::Member(b, _) => self.base(b),
                ExprKind::Index(b, i) => {
                    self.visit_expr(i);
                    match &b.kind {
                        ExprKind::Decay(x) => self.base(x),
                        _ => self.visit_expr(b),
                    }
                }
                _ => self.visit_expr(e),
            }
        }
    }
    impl Visitor for V<'_> {
        fn visit_expr(&mut self, e: &Expr) {
            match &e.kind {
                ExprKind::Call(callee, args) => {
                    // The thread-id slot of `pthread_create` and the objects handed to the
                    // mutex and condition-variable calls do not escape to another thread
                    // through these calls.
                    self.visit_expr(callee);
                    for (i, a) in args.iter().enumerate() {
                        if self.ignores_arg(callee, i) {
                            if let ExprKind::AddrOf(x) = &a.peel().kind {
                                self.visit_expr_inside(x);
                                continue;
                            }
                        }
                        self.visit_expr(a);
                    }
                }
                ExprKind::AddrOf(x) | ExprKind::Decay(x) => self.base(x),
                ExprKind::Index(b, i) => {
                    self.visit_expr(i);
                    match &b.kind {
                        // `a[i]` on an array is not an escape of `a`.
                        ExprKind::Decay(x) => self.visit_expr(x),
                        _ => self.visit_expr(b),
                    }
                }
                _ => visit::walk_expr(self, e),
            }
        }
    }
    let mut v = V(HashSet::new(), prog);
    for s in stmts {
        v.visit_stmt(s);
    }
    for var in &prog.vars {
        if let Some(i) = &var.init {
            v.visit_init(i);
        }
    }
    v.0
}

/// Whether evaluating `e` changes anything (or must be emitted as its own statement).
pub fn has_effects(e: &Expr) -> bool {
    let mut found = false;
    visit::each_subexpr(e, &mut |x| {
        if matches!(
            x.kind,
            ExprKind::Assign(..)
                | ExprKind::OpAssign { .. }
                | ExprKind::IncDec { .. }
                | ExprKind::Call(..)
                | ExprKind::StmtExpr(_)
                | ExprKind::Compound(_)
                | ExprKind::Intrinsic(..)
        ) {
            found = true;
        }
    });
    found
}

/// Number of shared reads `e` performs as an rvalue.
pub fn count_reads(shared: &SharedInfo, e: &Expr) -> usize {
    let mut n = 0;
    reads(shared, e, &mut |_| n += 1);
    n
}

/// Visits the shared reads of an rvalue in evaluation order (address reads first).
pub(crate) fn reads(shared: &SharedInfo, e: &Expr, f: &mut dyn FnMut(&Expr)) {
    match &e.kind {
        ExprKind::Var(_) | ExprKind::Member(..) | ExprKind::Index(..) | ExprKind::Deref(_) => {
            addr_reads(shared, e, f);
            if shared.is_shared_lvalue(e) {
                f(e)
            }
        }
        ExprKind::Decay(x) | ExprKind::AddrOf(x) => addr_reads(shared, x, f),
        ExprKind::SizeofType(_) | ExprKind::AlignofType(_) => {}
        // Nothing else reads memory except through its operands.
        _ => {
            struct C<'a, 'b>(&'a SharedInfo, &'b mut dyn FnMut(&Expr));
            impl Visitor for C<'_, '_> {
                fn visit_expr(&mut self, e: &Expr) {
                    reads(self.0, e, self.1)
                }
                fn visit_stmt(&mut self, _: &Stmt) {}
            }
            visit::walk_expr(&mut C(shared, f), e)
        }
    }
}

pub(crate) fn addr_reads(shared: &SharedInfo, e: &Expr, f: &mut dyn FnMut(&Expr)) {
    match &e.kind {
        ExprKind::Var(_) | ExprKind::Str(_) | ExprKind::Compound(_) => {}
        ExprKind::Member(b, _) => addr_reads(shared, b, f),
        ExprKind::Index(b, i) => {
            reads(shared, b, f);
            reads(shared, i, f);
        }
        ExprKind::Deref(p) => reads(shared, p, f),
        _ => reads(shared, e, f),
    }
}
