//! Threads in slots: which function each slot may run, and a thread's code once
//! inlined, unrolled and moved to globals.

use std::collections::{BTreeSet, HashMap};

use super::state::{Builder, MAX_KEYS};
use crate::ir::build as b;
use crate::ir::known::{Known, classify};
use crate::ir::visit::{self, VisitorMut};
use crate::ir::*;
use crate::passes::inline::Inliner;
use crate::passes::unroll::{Unroller, unrolled_size_of};
use crate::seq::{SeqError, SeqOptions};

/// How many slots the symbolic program needs and which functions each may run.
pub(super) fn slot_plan(
    prog: &mut Program,
    thread_fns: &[FuncId],
    opts: &SeqOptions,
) -> Result<(Vec<Vec<usize>>, u32, bool), SeqError> {
    // Count creation sites in each function's unrolled code (a scratch copy).
    let mut creates_in: Vec<Vec<(u32, u32, Vec<usize>)>> = Vec::new();
    let mut scratch = prog.clone();
    for &f in thread_fns {
        let Some(body) = scratch.func(f).body.clone() else {
            creates_in.push(vec![]);
            continue;
        };
        let body = Inliner::new(&mut scratch, None, opts.recursion).inline_body(f, &body)?;
        let body = Unroller::new(&mut scratch, None, opts.unwind).unroll(body);
        let mut sites = Vec::new();
        let mut count = CreateCounter {
            prog: &scratch,
            thread_fns,
            cur: Some((0, 0)),
            pending: HashMap::new(),
            sites: &mut sites,
        };
        count.stmt(&body);
        creates_in.push(sites);
    }
    let threads_create = creates_in.iter().skip(1).any(|s| !s.is_empty());
    let main_sites = &creates_in[0];
    let main_max = main_sites
        .iter()
        .map(|(_, hi, _)| hi + 1)
        .max()
        .unwrap_or(0);
    let mut needed = 1 + main_max;
    if threads_create {
        let per_thread = creates_in
            .iter()
            .skip(1)
            .map(|s| s.len() as u32)
            .max()
            .unwrap_or(0);
        needed = needed.saturating_add(needed.saturating_mul(per_thread));
    }
    let nslots = needed.min(opts.max_threads.max(1));
    let all_created: BTreeSet<usize> = creates_in
        .iter()
        .flat_map(|s| s.iter().flat_map(|(_, _, f)| f.iter().copied()))
        .collect();
    let mut plan = vec![vec![0usize]];
    for k in 1..nslots {
        let mut fns: BTreeSet<usize> = BTreeSet::new();
        for (lo, hi, f) in main_sites {
            if *lo < k && k <= *hi + 1 {
                fns.extend(f.iter().copied());
            }
        }
        if threads_create {
            fns.extend(all_created.iter().copied());
        }
        if fns.is_empty() {
            fns.extend(all_created.iter().copied());
        }
        plan.push(fns.into_iter().collect());
    }
    let _ = prog;
    Ok((plan, nslots, !threads_create))
}

/// The thread id each `pthread_create` of main's unrolled `code` gives, in the order the
/// translation meets them: `Some(1 + n)` when exactly `n` creations precede it on every
/// path, `None` where that number depends on the path. `None` overall when the code jumps
/// backwards (a loop the count cannot see).
pub(super) fn static_create_ids(
    prog: &Program,
    thread_fns: &[FuncId],
    code: &Stmt,
) -> Option<Vec<Option<u32>>> {
    let mut seen_labels: BTreeSet<String> = BTreeSet::new();
    let mut backward = false;
    visit::each_stmt(code, &mut |s| match &s.kind {
        StmtKind::Label(l) => {
            seen_labels.insert(l.clone());
        }
        StmtKind::Goto(l) if seen_labels.contains(l) => backward = true,
        _ => {}
    });
    if backward {
        return None;
    }
    let mut sites = Vec::new();
    let mut count = CreateCounter {
        prog,
        thread_fns,
        cur: Some((0, 0)),
        pending: HashMap::new(),
        sites: &mut sites,
    };
    count.stmt(code);
    Some(
        sites
            .iter()
            .map(|(lo, hi, _)| (lo == hi).then_some(lo + 1))
            .collect(),
    )
}

/// Walks unrolled code counting `pthread_create` calls: for each site, the fewest and most
/// creations that can precede it, and the thread functions it may start.
pub(super) struct CreateCounter<'a, 'b> {
    prog: &'a Program,
    thread_fns: &'a [FuncId],
    cur: Option<(u32, u32)>,
    pending: HashMap<String, (u32, u32)>,
    sites: &'b mut Vec<(u32, u32, Vec<usize>)>,
}

impl CreateCounter<'_, '_> {
    fn join(a: Option<(u32, u32)>, b: Option<(u32, u32)>) -> Option<(u32, u32)> {
        match (a, b) {
            (Some((x, y)), Some((u, v))) => Some((x.min(u), y.max(v))),
            (a, None) => a,
            (None, b) => b,
        }
    }

    fn stmt(&mut self, s: &Stmt) {
        match &s.kind {
            StmtKind::Block(ss) => ss.iter().for_each(|x| self.stmt(x)),
            StmtKind::If { then, els, .. } => {
                let start = self.cur;
                self.stmt(then);
                let after_then = self.cur;
                self.cur = start;
                if let Some(e) = els {
                    self.stmt(e);
                }
                self.cur = Self::join(after_then, self.cur);
            }
            StmtKind::Goto(l) => {
                let p = self.pending.remove(l);
                self.pending
                    .insert(l.clone(), Self::join(p, self.cur).unwrap_or((0, 0)));
                self.cur = None;
            }
            StmtKind::Label(l) => {
                let p = self.pending.remove(l);
                self.cur = Self::join(self.cur, p);
            }
            _ => {
                let mut found = Vec::new();
                visit::each_expr(s, &mut |e| {
                    if let ExprKind::Call(c, args) = &e.kind {
                        if let ExprKind::Func(f) = c.peel().kind {
                            if classify(&self.prog.func(f).name) == Known::ThreadCreate {
                                let fns: Vec<usize> = match args.get(2).map(|a| &a.peel().kind) {
                                    Some(ExprKind::Func(tf)) => self
                                        .thread_fns
                                        .iter()
                                        .position(|x| x == tf)
                                        .into_iter()
                                        .collect(),
                                    _ => (1..self.thread_fns.len()).collect(),
                                };
                                found.push(fns);
                            }
                        }
                    }
                });
                for fns in found {
                    if let Some((lo, hi)) = self.cur {
                        self.sites.push((lo, hi, fns));
                        self.cur = Some((lo + 1, hi + 1));
                    }
                }
            }
        }
    }
}

/// Functions passed as destructors to `pthread_key_create`.
pub(super) fn destructor_candidates(prog: &Program) -> Vec<FuncId> {
    let mut out = BTreeSet::new();
    for f in &prog.funcs {
        if let Some(body) = &f.body {
            visit::each_expr(body, &mut |e| {
                if let ExprKind::Call(c, args) = &e.kind {
                    if let ExprKind::Func(cf) = c.peel().kind {
                        if classify(&prog.func(cf).name) == Known::KeyCreate {
                            if let Some(ExprKind::Func(d)) = args.get(1).map(|a| &a.peel().kind) {
                                out.insert(*d);
                            }
                        }
                    }
                }
            });
        }
    }
    out.into_iter().collect()
}

impl Builder<'_> {
    /// The code of function `f` for slot `k`: inlined, unrolled, with every local moved
    /// into a global of its own (so its value survives context switches) and the
    /// parameter bound to the slot's argument. Returns the code and its end label.
    pub(super) fn thread_code(&mut self, k: u32, f: FuncId) -> Result<(Stmt, String), SeqError> {
        let Some(body) = self.prog.func(f).body.clone() else {
            return Err(SeqError::Unsupported(Box::new(
                crate::diagnostics::SourceSpot::refusal(
                    &self.prog.sources,
                    self.prog.func(f).loc,
                    format!(
                        "thread function `{}`: it has no body, so the sequentializer has no code to run",
                        self.prog.func(f).name
                    ),
                ),
            )));
        };
        let body = Inliner::new(&mut self.prog, None, self.opts.recursion).inline_body(f, &body)?;
        if let Some(limit) = self.opts.max_statements {
            let statements = unrolled_size_of(&self.prog, &body, self.opts.unwind);
            if statements > limit {
                return Err(SeqError::TooLarge {
                    function: self.prog.func(f).name.clone(),
                    statements,
                    limit,
                });
            }
        }
        let mut unroller = Unroller::new(&mut self.prog, None, self.opts.unwind);
        let body = unroller.unroll(body);
        // Locals → globals.
        let mut locals: BTreeSet<VarId> = BTreeSet::new();
        for p in &self.prog.func(f).params {
            locals.insert(*p);
        }
        visit::each_stmt(&body, &mut |s| {
            if let StmtKind::Decl { var, .. } = &s.kind {
                locals.insert(*var);
            }
        });
        visit::each_expr(&body, &mut |e| {
            if let ExprKind::Var(v) = e.kind {
                locals.insert(v);
            }
        });
        let fname = self.prog.func(f).name.clone();
        let mut renames: HashMap<VarId, VarId> = HashMap::new();
        for v in locals {
            let var = self.prog.var(v).clone();
            let hoist = match var.kind {
                VarKind::Local | VarKind::Param => true,
                // Thread-local globals get a copy per thread (main keeps the original).
                VarKind::Global => var.thread_local && k > 0,
            };
            if !hoist {
                continue;
            }
            let name = if k == 0 {
                var.name.clone()
            } else {
                format!("{}_{}", var.name, k)
            };
            let init = if var.thread_local {
                var.init.clone()
            } else {
                None
            };
            // A `const` local is assigned where it was declared, so its global is not const.
            let ty = strip_const(&var.ty);
            let g = self.prog.new_global(&name, ty, init, var.loc);
            self.prog.var_mut(g).func = None;
            self.prog.var_mut(g).source_name = Some(var.shown_name().to_string());
            renames.insert(v, g);
        }
        let mut body = body;
        let mut r = Rename(&renames);
        r.visit_stmt(&mut body);
        // Bind parameters: main's from nondet (argc/argv), a thread's from its argument.
        let mut entry = Vec::new();
        let params = self.prog.func(f).params.clone();
        for (i, p) in params.iter().enumerate() {
            let Some(g) = renames.get(p).copied() else {
                continue;
            };
            let target = b::var(&self.prog, g);
            let value = if k == 0 || i > 0 {
                b::nondet(&target.ty, Loc::SYNTH)
            } else {
                b::elem(&self.prog, self.vars.arg, b::uint(k as i128))
            };
            let a = b::assign(target, value, self.tt());
            entry.push(b::expr_stmt(a, self.prog.func(f).loc, StmtId::NONE));
        }
        let end = self.label(&format!("end_{fname}_"));
        let mut v = entry;
        v.push(body);
        Ok((Stmt::block(v, Loc::SYNTH), end))
    }

    /// Statements of a thread's last point.
    pub(super) fn exit_statements(&mut self, k: u32, _j: usize) -> Vec<Stmt> {
        let mut out = Vec::new();
        let tt = self.prog.types.clone();
        if k == 0 {
            let h = b::assign(b::var(&self.prog, self.vars.halted), b::int(1), &tt);
            out.push(b::expr_stmt(h, Loc::SYNTH, StmtId::NONE));
        } else {
            // Destructors of thread-specific data run as the thread exits.
            for key in 0..MAX_KEYS {
                for d in self.dtors.clone() {
                    let val = b::elem2(
                        &self.prog,
                        self.vars.tls,
                        b::uint(k as i128),
                        b::uint(key as i128),
                    );
                    let dptr = b::elem(&self.prog, self.vars.dtor, b::uint(key as i128));
                    let fexpr = Expr::new(ExprKind::Func(d), dptr.ty.clone(), Loc::SYNTH);
                    let is_d = b::bin(BinOp::Eq, dptr, fexpr);
                    let nonnull = b::bin(
                        BinOp::Ne,
                        val.clone(),
                        b::conv(b::int(0), &Type::void_ptr(), &tt),
                    );
                    let call = b::call(&self.prog, d, vec![val.clone()]);
                    let call_stmt = b::expr_stmt(call, Loc::SYNTH, StmtId::NONE);
                    let inlined = Inliner::new(&mut self.prog, None, self.opts.recursion)
                        .inline_body(d, &Stmt::block(vec![call_stmt], Loc::SYNTH));
                    let inlined = match inlined {
                        Ok(s) => Unroller::new(&mut self.prog, None, self.opts.unwind).unroll(s),
                        Err(_) => continue,
                    };
                    let clear = b::assign(val, b::conv(b::int(0), &Type::void_ptr(), &tt), &tt);
                    out.push(b::if_(
                        b::and(is_d, nonnull),
                        vec![inlined, b::expr_stmt(clear, Loc::SYNTH, StmtId::NONE)],
                        None,
                    ));
                }
            }
        }
        let d = b::assign(
            b::elem(&self.prog, self.vars.done, b::uint(k as i128)),
            b::int(1),
            &tt,
        );
        out.push(b::expr_stmt(d, Loc::SYNTH, StmtId::NONE));
        out
    }
}

/// The type without `const` at the top level or on array elements.
pub(super) fn strip_const(ty: &Type) -> Type {
    match ty {
        Type::Qualified(inner, q) => {
            let q = Quals { konst: false, ..*q };
            strip_const(inner).qualified(q)
        }
        Type::Array(e, n) => Type::Array(Box::new(strip_const(e)), *n),
        t => t.clone(),
    }
}

pub(super) struct Rename<'a>(&'a HashMap<VarId, VarId>);

impl VisitorMut for Rename<'_> {
    fn visit_stmt(&mut self, s: &mut Stmt) {
        if let StmtKind::Decl { var, .. } = &mut s.kind {
            if let Some(n) = self.0.get(var) {
                *var = *n;
            }
        }
        visit::walk_stmt_mut(self, s)
    }
    fn visit_expr(&mut self, e: &mut Expr) {
        if let ExprKind::Var(v) = &mut e.kind {
            if let Some(n) = self.0.get(v) {
                *v = *n;
                // The hoisted global has the same type.
            }
        }
        visit::walk_expr_mut(self, e)
    }
}
