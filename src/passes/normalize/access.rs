//! One shared access per statement: shared reads hoisted into temporaries.

use super::normalizer::Normalizer;
use crate::analysis::shared::{SharedInfo, addr_reads, count_reads};
use crate::ir::visit::{self, Visitor};
use crate::ir::*;

impl Normalizer<'_> {
    /// Emits a simple statement after hoisting shared reads into temporaries until it
    /// performs at most one shared access.
    pub(super) fn simple(&mut self, kind: StmtKind, loc: Loc, out: &mut Vec<Stmt>) {
        let shared = self.shared;
        let Some(mut kind) = self.split_copy(kind, loc, out) else {
            return;
        };
        match &mut kind {
            StmtKind::Expr(e) => match &mut e.kind {
                ExprKind::Assign(l, r) => {
                    let write = shared.is_shared_lvalue(l);
                    let is_call = matches!(r.kind, ExprKind::Call(..));
                    let keep = if write || is_call { 0 } else { 1 };
                    self.hoist_in_assign(l, r, keep, out);
                    if is_call && write {
                        // `x = f(a)` with `x` shared: the call and the write are two steps.
                        let ty = r.ty.clone();
                        let t = self.temp(&ty, loc);
                        let call = std::mem::replace(r.as_mut(), Expr::var(t, self.prog, loc));
                        self.push(
                            StmtKind::Decl {
                                var: t,
                                init: Some(Init::Expr(call)),
                            },
                            loc,
                            out,
                        );
                    }
                }
                ExprKind::Call(_, args) => {
                    for a in args.iter_mut() {
                        self.hoist(a, 0, out);
                    }
                }
                ExprKind::Intrinsic(_, args) => {
                    let total: usize = args.iter().map(|a| count_reads(shared, a)).sum();
                    let mut allowed = 1usize;
                    for a in args.iter_mut() {
                        let n = count_reads(shared, a);
                        let keep = allowed.min(n);
                        allowed -= keep;
                        let _ = total;
                        self.hoist(a, keep, out);
                    }
                }
                _ => self.hoist(e, 1, out),
            },
            StmtKind::Decl { var, init } => {
                let write = shared.vars.contains(var);
                match init {
                    Some(Init::Expr(x)) => {
                        let is_call = matches!(x.kind, ExprKind::Call(..));
                        let keep = if write || is_call { 0 } else { 1 };
                        if let ExprKind::Call(_, args) = &mut x.kind {
                            for a in args.iter_mut() {
                                self.hoist(a, 0, out);
                            }
                        } else {
                            self.hoist(x, keep, out);
                        }
                    }
                    Some(Init::List(_)) => {
                        let mut init_taken = init.take();
                        if let Some(i) = &mut init_taken {
                            self.hoist_init(i, out);
                        }
                        *init = init_taken;
                    }
                    None => {}
                }
            }
            StmtKind::Return(Some(e)) => {
                if let ExprKind::Call(_, args) = &mut e.kind {
                    for a in args.iter_mut() {
                        self.hoist(a, 0, out);
                    }
                } else {
                    self.hoist(e, 1, out)
                }
            }
            StmtKind::If { cond, .. } | StmtKind::Switch { cond, .. } => self.hoist(cond, 0, out),
            _ => {}
        }
        self.push(kind, loc, out);
    }

    pub(super) fn hoist_init(&mut self, i: &mut Init, out: &mut Vec<Stmt>) {
        match i {
            Init::Expr(e) => self.hoist(e, 0, out),
            Init::List(items) => {
                for it in items {
                    self.hoist_init(&mut it.init, out);
                }
            }
        }
    }

    pub(super) fn hoist_in_assign(
        &mut self,
        l: &mut Expr,
        r: &mut Expr,
        keep: usize,
        out: &mut Vec<Stmt>,
    ) {
        // Evaluation order: the right-hand side, then the address of the left.
        let rn = count_reads(self.shared, r);
        let keep_r = keep.min(rn);
        if let ExprKind::Call(_, args) = &mut r.kind {
            for a in args.iter_mut() {
                self.hoist(a, 0, out);
            }
        } else {
            self.hoist(r, keep_r, out);
        }
        let keep_l = keep - keep_r;
        let mut reads = Vec::new();
        addr_reads(self.shared, l, &mut |_| reads.push(()));
        let n = reads.len();
        let to_hoist = n.saturating_sub(keep_l);
        let mut k = 0;
        let mut taken: Vec<Expr> = Vec::new();
        addr_reads_mut(self.shared, l, &mut |x| {
            if k < to_hoist {
                take(x, &mut taken);
            }
            k += 1;
        });
        self.bind_taken(l, taken, out);
    }

    /// Hoists every shared read of the address computation of lvalue `l` (`p` in `p->s`,
    /// `i` in `a[i]`), so that it can be named again without reading again.
    pub(super) fn hoist_address(&mut self, l: &mut Expr, out: &mut Vec<Stmt>) {
        let mut taken: Vec<Expr> = Vec::new();
        addr_reads_mut(self.shared, l, &mut |x| take(x, &mut taken));
        self.bind_taken(l, taken, out);
    }

    /// Hoists all but the last `keep` shared reads of `e` (in evaluation order).
    pub(super) fn hoist(&mut self, e: &mut Expr, keep: usize, out: &mut Vec<Stmt>) {
        let n = count_reads(self.shared, e);
        if n <= keep {
            return;
        }
        let to_hoist = n - keep;
        let mut k = 0;
        let mut taken: Vec<Expr> = Vec::new();
        reads_mut(self.shared, e, &mut |x| {
            if k < to_hoist {
                take(x, &mut taken);
            }
            k += 1;
        });
        self.bind_taken(e, taken, out);
    }

    /// Emits `t_i = read_i` for each hoisted read and patches the placeholders.
    pub(super) fn bind_taken(&mut self, e: &mut Expr, taken: Vec<Expr>, out: &mut Vec<Stmt>) {
        if taken.is_empty() {
            return;
        }
        let mut vars = Vec::new();
        for mut x in taken {
            // A read nested in a later one (`s.b[s.a]`: `s.a`, then `s.b[..]`) was
            // taken first, so the later one holds its placeholder: bind it to the
            // temporary already declared, or the placeholder id escapes into the IR.
            patch_placeholders(&mut x, &vars, self.prog);
            let x = match self.bind_copy(x, out) {
                Ok(t) => {
                    vars.push(t);
                    continue;
                }
                Err(x) => x,
            };
            let loc = x.loc;
            let t = self.temp(&x.ty, loc);
            self.push(
                StmtKind::Decl {
                    var: t,
                    init: Some(Init::Expr(x)),
                },
                loc,
                out,
            );
            vars.push(t);
        }
        patch_placeholders(e, &vars, self.prog);
    }
}

/// Moves read `x` into `taken`, leaving a placeholder for the temporary `bind_taken` will
/// give it (an id counted down from `u32::MAX`, which names no variable).
fn take(x: &mut Expr, taken: &mut Vec<Expr>) {
    let placeholder = Expr::new(
        ExprKind::Var(VarId(u32::MAX - taken.len() as u32)),
        x.ty.clone(),
        x.loc,
    );
    taken.push(std::mem::replace(x, placeholder));
}

fn patch_placeholders(e: &mut Expr, vars: &[VarId], prog: &Program) {
    struct P<'a>(&'a [VarId], &'a Program);
    impl visit::VisitorMut for P<'_> {
        fn visit_expr(&mut self, e: &mut Expr) {
            if let ExprKind::Var(v) = e.kind {
                let k = (u32::MAX - v.0) as usize;
                if v.0 > u32::MAX - 1_000_000 {
                    if let Some(t) = self.0.get(k) {
                        e.kind = ExprKind::Var(*t);
                        e.ty = self.1.var(*t).ty.clone();
                        return;
                    }
                }
            }
            visit::walk_expr_mut(self, e)
        }
    }
    visit::VisitorMut::visit_expr(&mut P(vars, prog), e)
}

fn reads_mut(shared: &SharedInfo, e: &mut Expr, f: &mut dyn FnMut(&mut Expr)) {
    match &mut e.kind {
        ExprKind::Var(_) | ExprKind::Member(..) | ExprKind::Index(..) | ExprKind::Deref(_) => {
            addr_reads_mut(shared, e, f);
            if shared.is_shared_lvalue(e) {
                f(e)
            }
        }
        ExprKind::Decay(x) | ExprKind::AddrOf(x) => addr_reads_mut(shared, x, f),
        ExprKind::SizeofType(_) | ExprKind::AlignofType(_) => {}
        _ => {
            struct C<'a, 'b>(&'a SharedInfo, &'b mut dyn FnMut(&mut Expr));
            impl visit::VisitorMut for C<'_, '_> {
                fn visit_expr(&mut self, e: &mut Expr) {
                    reads_mut(self.0, e, self.1)
                }
                fn visit_stmt(&mut self, _: &mut Stmt) {}
            }
            visit::walk_expr_mut(&mut C(shared, f), e)
        }
    }
}

fn addr_reads_mut(shared: &SharedInfo, e: &mut Expr, f: &mut dyn FnMut(&mut Expr)) {
    match &mut e.kind {
        ExprKind::Var(_) | ExprKind::Str(_) | ExprKind::Compound(_) => {}
        ExprKind::Member(b, _) => addr_reads_mut(shared, b, f),
        ExprKind::Index(b, i) => {
            reads_mut(shared, b, f);
            reads_mut(shared, i, f);
        }
        ExprKind::Deref(p) => reads_mut(shared, p, f),
        _ => reads_mut(shared, e, f),
    }
}

/// Shared accesses (reads and the write) one simple statement performs; the
/// normalization invariant is that this is at most one.
pub fn shared_accesses(shared: &SharedInfo, s: &Stmt) -> usize {
    match &s.kind {
        StmtKind::Expr(e) => match &e.kind {
            ExprKind::Assign(l, r) => {
                let mut n = count_reads(shared, r);
                addr_reads(shared, l, &mut |_| n += 1);
                n + shared.is_shared_lvalue(l) as usize
            }
            _ => count_reads(shared, e),
        },
        StmtKind::Decl { var, init } => {
            let mut n = shared.vars.contains(var) as usize * init.is_some() as usize;
            if let Some(i) = init {
                struct C<'a>(&'a SharedInfo, usize);
                impl Visitor for C<'_> {
                    fn visit_expr(&mut self, e: &Expr) {
                        self.1 += count_reads(self.0, e)
                    }
                }
                let mut c = C(shared, 0);
                c.visit_init(i);
                n += c.1;
            }
            n
        }
        StmtKind::Return(Some(e)) => count_reads(shared, e),
        StmtKind::If { cond, .. }
        | StmtKind::Switch { cond, .. }
        | StmtKind::While { cond, .. } => count_reads(shared, cond),
        _ => 0,
    }
}
