//! Loop unrolling and switch lowering: thread code becomes loop-free, with only forward
//! jumps, so that every program point is executed at most once per thread — what lazy
//! sequentialization's program-counter points need.
//!
//! A normalized loop `while (1) { if (!c) break; body }` unrolls into copies of its body;
//! `break` jumps past the last copy, `continue` to the next copy. A counted loop is unrolled
//! exactly as often as it runs; any other loop `--unwind` times, followed by an
//! [`Intrinsic::Unwind`] marker: executions that would go further are cut off, and the
//! checker reports that the bound was reached (never "no failure" as "verified").
//! Locals declared in a loop body get fresh copies per iteration (block scope), which
//! also keeps every branch temporary assigned once.

use std::collections::HashMap;

use crate::ir::visit::{self, VisitorMut};
use crate::ir::*;

/// The first statement of `body` that runs as a step of its own: where a loop's next
/// iteration begins (its exit test, for a normalized `while (1) { if (!c) break; ... }`).
/// `None` when it is not plain which statement that is (the body begins with a statement
/// of no id of its own, or is empty).
fn first_step(body: &Stmt) -> Option<StmtId> {
    match &body.kind {
        StmtKind::Block(ss) => ss
            .iter()
            .find(|s| !matches!(&s.kind, StmtKind::Label(_)))
            .and_then(first_step),
        StmtKind::Label(_) => None,
        _ if body.id.is_none() => None,
        _ => Some(body.id),
    }
}

/// A counted loop is unrolled to its constant trip count only up to this many iterations;
/// a longer one is unrolled to the search's bound like any other loop (reaching it makes
/// the answer "bound reached", never a wrong one). A constant `i < 2147483647` once made
/// the unroller ask for 2^31 copies of a body.
const MAX_EXACT_TRIPS: u64 = 1024;

/// How many copies of the body of loop `id` unrolling makes with `default_bound`: a
/// counted loop's exact trip count (the exit test runs once more than the body), else the
/// bound.
fn copies(prog: &Program, id: StmtId, default_bound: u32) -> u64 {
    match prog.loop_bounds.get(&id) {
        Some(n) if *n <= MAX_EXACT_TRIPS => n + 1,
        _ => u64::from(default_bound),
    }
}

/// About how many statements unrolling every loop of `prog` with `default_bound` makes
/// (calls not inlined; saturating). Nested loops multiply: a caller with a bound of its own
/// choosing (the explorer's replay, which unwinds as far as a path's loops ran) asks this
/// first rather than build a program that does not fit in memory.
pub fn unrolled_size(prog: &Program, default_bound: u32) -> u128 {
    let mut v = Size {
        prog,
        bound: default_bound,
        mult: 1,
        total: 0,
    };
    visit::walk_program(&mut v, prog);
    v.total
}

/// [`unrolled_size`] of one statement (a thread's body with its calls inlined: loops in
/// callees called from loops multiply too).
pub fn unrolled_size_of(prog: &Program, s: &Stmt, default_bound: u32) -> u128 {
    let mut v = Size {
        prog,
        bound: default_bound,
        mult: 1,
        total: 0,
    };
    visit::Visitor::visit_stmt(&mut v, s);
    v.total
}

struct Size<'p> {
    prog: &'p Program,
    bound: u32,
    mult: u128,
    total: u128,
}
impl visit::Visitor for Size<'_> {
    fn visit_stmt(&mut self, s: &Stmt) {
        self.total = self.total.saturating_add(self.mult);
        let looping = matches!(
            s.kind,
            StmtKind::While { .. } | StmtKind::DoWhile { .. } | StmtKind::For { .. }
        );
        if !looping {
            return visit::walk_stmt(self, s);
        }
        let outer = self.mult;
        let n = copies(self.prog, s.id, self.bound);
        self.mult = outer.saturating_mul(u128::from(n));
        visit::walk_stmt(self, s);
        self.mult = outer;
    }
    fn visit_expr(&mut self, _: &Expr) {}
}

pub struct Unroller<'a> {
    pub prog: &'a mut Program,
    pub owner: Option<FuncId>,
    pub default_bound: u32,
    /// Per-loop bounds given by the user (`--unwindset`-style), by statement id.
    pub overrides: HashMap<StmtId, u32>,
}

impl<'a> Unroller<'a> {
    pub fn new(prog: &'a mut Program, owner: Option<FuncId>, default_bound: u32) -> Unroller<'a> {
        Unroller {
            prog,
            owner,
            default_bound,
            overrides: HashMap::new(),
        }
    }

    fn label(&mut self, hint: &str) -> String {
        self.prog.fresh_label(hint)
    }

    pub fn unroll(&mut self, s: Stmt) -> Stmt {
        let loc = s.loc;
        let id = s.id;
        match s.kind {
            StmtKind::Block(ss) => {
                Stmt::block(ss.into_iter().map(|x| self.unroll(x)).collect(), loc)
            }
            StmtKind::If { cond, then, els } => Stmt::new(
                StmtKind::If {
                    cond,
                    then: Box::new(self.unroll(*then)),
                    els: els.map(|e| Box::new(self.unroll(*e))),
                },
                loc,
            )
            .with_id(id),
            StmtKind::While { cond, body } => self.unroll_loop(cond, *body, loc, id),
            StmtKind::DoWhile { body, cond } => {
                // Normalization leaves no do-while; handle it anyway as body-then-while.
                let w = Stmt::new(
                    StmtKind::While {
                        cond,
                        body: body.clone(),
                    },
                    loc,
                )
                .with_id(id);
                Stmt::block(vec![self.unroll(*body), self.unroll(w)], loc)
            }
            StmtKind::For { .. } => Stmt::new(s.kind, loc).with_id(id),
            StmtKind::Switch { cond, body } => {
                let body = self.unroll(*body);
                self.lower_switch(cond, body, loc, id)
            }
            k => Stmt::new(k, loc).with_id(id),
        }
    }

    fn unroll_loop(&mut self, cond: Expr, body: Stmt, loc: Loc, id: StmtId) -> Stmt {
        if let Some(wait) = spin_wait(&cond, &body) {
            return Stmt::new(
                StmtKind::Expr(Expr::new(
                    ExprKind::Intrinsic(Intrinsic::Await, vec![wait]),
                    Type::Void,
                    loc,
                )),
                loc,
            )
            .with_id(id);
        }
        if let Some(first) = first_step(&body) {
            self.prog.loop_resumes.insert(id, first);
        }
        let body = self.unroll(body);
        let bound = match self.overrides.get(&id) {
            Some(b) => *b as u64,
            None => copies(self.prog, id, self.default_bound),
        };
        let exit = self.label("exit");
        let mut out = Vec::new();
        let cond_is_true = cond.as_int().is_some_and(|v| v != 0);
        for _ in 0..bound {
            let next = self.label("next");
            let mut copy = self.fresh_copy(&body);
            redirect(&mut copy, &exit, &next);
            if cond_is_true {
                out.push(copy);
            } else {
                let not = Expr::new(
                    ExprKind::Unary(UnOp::LogNot, Box::new(cond.clone())),
                    Type::int(),
                    loc,
                );
                out.push(Stmt::new(
                    StmtKind::If {
                        cond: not,
                        then: Box::new(goto(&exit, loc)),
                        els: None,
                    },
                    loc,
                ));
                out.push(copy);
            }
            out.push(Stmt::new(StmtKind::Label(next), loc));
        }
        if !cond_is_true {
            let not = Expr::new(
                ExprKind::Unary(UnOp::LogNot, Box::new(cond.clone())),
                Type::int(),
                loc,
            );
            out.push(Stmt::new(
                StmtKind::If {
                    cond: not,
                    then: Box::new(goto(&exit, loc)),
                    els: None,
                },
                loc,
            ));
        }
        out.push(
            Stmt::new(
                StmtKind::Expr(Expr::new(
                    ExprKind::Intrinsic(Intrinsic::Unwind, vec![]),
                    Type::Void,
                    loc,
                )),
                loc,
            )
            .with_id(id),
        );
        out.push(Stmt::new(StmtKind::Label(exit), loc));
        Stmt::block(out, loc)
    }

    /// A copy of `body` with fresh locals and labels.
    fn fresh_copy(&mut self, body: &Stmt) -> Stmt {
        let mut decls = Vec::new();
        visit::each_stmt(body, &mut |s| {
            if let StmtKind::Decl { var, .. } = &s.kind {
                decls.push(*var);
            }
        });
        let mut renames = HashMap::new();
        for v in decls {
            let var = self.prog.var(v).clone();
            if var.kind == VarKind::Global {
                continue;
            }
            let nv =
                self.prog
                    .new_local(self.owner.or(var.func), &var.name, var.ty.clone(), var.loc);
            self.prog.var_mut(nv).source_name = var.source_name.clone();
            renames.insert(v, nv);
        }
        let suffix = format!("_u{}", self.prog.fresh_label("u").trim_start_matches("__u"));
        // Only labels defined inside the body are duplicated; jumps out of the loop keep
        // their targets.
        let mut defined = std::collections::HashSet::new();
        visit::each_stmt(body, &mut |s| {
            if let StmtKind::Label(l) = &s.kind {
                defined.insert(l.clone());
            }
        });
        let mut copy = body.clone();
        let mut r = Renamer {
            vars: &renames,
            suffix: &suffix,
            labels: &defined,
        };
        r.visit_stmt(&mut copy);
        copy
    }

    /// `switch` as a chain of tests and forward jumps (the case labels become labels).
    fn lower_switch(&mut self, cond: Expr, body: Stmt, loc: Loc, id: StmtId) -> Stmt {
        let end = self.label("swend");
        let mut cases: Vec<(Option<(i128, i128)>, String)> = Vec::new();
        let mut body = body;
        let prog = &mut *self.prog;
        label_cases(&mut body, &mut cases, &mut || prog.fresh_label("case"));
        redirect_break(&mut body, &end);
        let mut out = Vec::new();
        let ty = cond.ty.clone();
        let mut default = None;
        for (range, label) in &cases {
            match range {
                Some((lo, hi)) => {
                    let c = if lo == hi {
                        Expr::new(
                            ExprKind::Binary(
                                BinOp::Eq,
                                Box::new(cond.clone()),
                                Box::new(Expr::int(*lo, ty.clone(), loc)),
                            ),
                            Type::int(),
                            loc,
                        )
                    } else {
                        let ge = Expr::new(
                            ExprKind::Binary(
                                BinOp::Ge,
                                Box::new(cond.clone()),
                                Box::new(Expr::int(*lo, ty.clone(), loc)),
                            ),
                            Type::int(),
                            loc,
                        );
                        let le = Expr::new(
                            ExprKind::Binary(
                                BinOp::Le,
                                Box::new(cond.clone()),
                                Box::new(Expr::int(*hi, ty.clone(), loc)),
                            ),
                            Type::int(),
                            loc,
                        );
                        Expr::new(
                            ExprKind::Binary(BinOp::LogAnd, Box::new(ge), Box::new(le)),
                            Type::int(),
                            loc,
                        )
                    };
                    out.push(
                        Stmt::new(
                            StmtKind::If {
                                cond: c,
                                then: Box::new(goto(label, loc)),
                                els: None,
                            },
                            loc,
                        )
                        .with_id(id),
                    );
                }
                None => default = Some(label.clone()),
            }
        }
        out.push(goto(default.as_deref().unwrap_or(&end), loc));
        out.push(body);
        out.push(Stmt::new(StmtKind::Label(end), loc));
        Stmt::block(out, loc)
    }
}

/// A loop that only re-evaluates its exit condition (`while (y != 0) {}` after
/// normalization: temporaries, the exit test, nothing else) waits for the condition: it
/// does nothing another thread can observe until it exits. Returns the condition under
/// which it exits, written over the memory it reads.
fn spin_wait(cond: &Expr, body: &Stmt) -> Option<Expr> {
    if cond.as_int().is_none_or(|v| v == 0) {
        return None;
    }
    let StmtKind::Block(stmts) = &body.kind else {
        return None;
    };
    let mut defs: HashMap<VarId, Expr> = HashMap::new();
    let mut exit: Option<Expr> = None;
    for s in stmts {
        match &s.kind {
            StmtKind::Label(_) | StmtKind::Skip => {}
            StmtKind::Decl {
                var,
                init: Some(Init::Expr(e)),
            } if exit.is_none() && is_pure(e) => {
                defs.insert(*var, substitute(e, &defs));
            }
            StmtKind::If {
                cond: c,
                then,
                els: None,
            } if exit.is_none() => {
                let breaks = matches!(&then.kind, StmtKind::Block(v) if v.len() == 1 && matches!(v[0].kind, StmtKind::Break));
                if !breaks {
                    return None;
                }
                // `if (!c) break;`: the loop exits when `!c` holds.
                exit = Some(substitute(c, &defs));
            }
            StmtKind::Block(inner) if inner.is_empty() => {}
            _ => return None,
        }
    }
    exit
}

fn is_pure(e: &Expr) -> bool {
    let mut pure = true;
    visit::each_subexpr(e, &mut |x| {
        if matches!(
            x.kind,
            ExprKind::Call(..)
                | ExprKind::Assign(..)
                | ExprKind::OpAssign { .. }
                | ExprKind::IncDec { .. }
                | ExprKind::Intrinsic(..)
                | ExprKind::StmtExpr(_)
        ) {
            pure = false;
        }
    });
    pure
}

fn substitute(e: &Expr, defs: &HashMap<VarId, Expr>) -> Expr {
    struct S<'a>(&'a HashMap<VarId, Expr>);
    impl VisitorMut for S<'_> {
        fn visit_expr(&mut self, e: &mut Expr) {
            if let ExprKind::Var(v) = e.kind {
                if let Some(d) = self.0.get(&v) {
                    *e = d.clone();
                    return;
                }
            }
            visit::walk_expr_mut(self, e)
        }
    }
    let mut x = e.clone();
    S(defs).visit_expr(&mut x);
    x
}

fn goto(label: &str, loc: Loc) -> Stmt {
    Stmt::new(StmtKind::Goto(label.to_string()), loc)
}

/// `break` → `goto exit`, `continue` → `goto next` (loops inside are already unrolled;
/// `break` inside a nested switch belongs to that switch).
fn redirect(s: &mut Stmt, exit: &str, next: &str) {
    match &mut s.kind {
        StmtKind::Break => s.kind = StmtKind::Goto(exit.to_string()),
        StmtKind::Continue => s.kind = StmtKind::Goto(next.to_string()),
        StmtKind::Block(ss) => ss.iter_mut().for_each(|x| redirect(x, exit, next)),
        StmtKind::If { then, els, .. } => {
            redirect(then, exit, next);
            if let Some(e) = els {
                redirect(e, exit, next)
            }
        }
        StmtKind::Switch { body, .. } => redirect_continue_only(body, next),
        _ => {}
    }
}

fn redirect_continue_only(s: &mut Stmt, next: &str) {
    match &mut s.kind {
        StmtKind::Continue => s.kind = StmtKind::Goto(next.to_string()),
        StmtKind::Block(ss) => ss.iter_mut().for_each(|x| redirect_continue_only(x, next)),
        StmtKind::If { then, els, .. } => {
            redirect_continue_only(then, next);
            if let Some(e) = els {
                redirect_continue_only(e, next)
            }
        }
        StmtKind::Switch { body, .. } => redirect_continue_only(body, next),
        _ => {}
    }
}

fn redirect_break(s: &mut Stmt, end: &str) {
    match &mut s.kind {
        StmtKind::Break => s.kind = StmtKind::Goto(end.to_string()),
        StmtKind::Block(ss) => ss.iter_mut().for_each(|x| redirect_break(x, end)),
        StmtKind::If { then, els, .. } => {
            redirect_break(then, end);
            if let Some(e) = els {
                redirect_break(e, end)
            }
        }
        _ => {}
    }
}

fn label_cases(
    s: &mut Stmt,
    out: &mut Vec<(Option<(i128, i128)>, String)>,
    fresh: &mut dyn FnMut() -> String,
) {
    match &mut s.kind {
        StmtKind::Case { lo, hi } => {
            let l = fresh();
            out.push((Some((*lo, *hi)), l.clone()));
            s.kind = StmtKind::Label(l);
        }
        StmtKind::Default => {
            let l = fresh();
            out.push((None, l.clone()));
            s.kind = StmtKind::Label(l);
        }
        StmtKind::Block(ss) => ss.iter_mut().for_each(|x| label_cases(x, out, fresh)),
        StmtKind::If { then, els, .. } => {
            label_cases(then, out, fresh);
            if let Some(e) = els {
                label_cases(e, out, fresh)
            }
        }
        _ => {}
    }
}

struct Renamer<'a> {
    vars: &'a HashMap<VarId, VarId>,
    suffix: &'a str,
    labels: &'a std::collections::HashSet<String>,
}

impl VisitorMut for Renamer<'_> {
    fn visit_stmt(&mut self, s: &mut Stmt) {
        match &mut s.kind {
            StmtKind::Decl { var, .. } => {
                if let Some(n) = self.vars.get(var) {
                    *var = *n;
                }
            }
            StmtKind::Label(l) | StmtKind::Goto(l) if self.labels.contains(l.as_str()) => {
                l.push_str(self.suffix)
            }
            _ => {}
        }
        visit::walk_stmt_mut(self, s)
    }
    fn visit_expr(&mut self, e: &mut Expr) {
        if let ExprKind::Var(v) = &mut e.kind {
            if let Some(n) = self.vars.get(v) {
                *v = *n;
            }
        }
        visit::walk_expr_mut(self, e)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The `Unwind` markers and loop copies of `main` unrolled with bound 2.
    fn unrolled(src: &str) -> (usize, usize) {
        let mut p = crate::frontend::load_text("t.c", src, DataModel::Lp64).expect("parses");
        crate::passes::normalize::normalize(&mut p);
        let main = p.main().expect("main");
        let body = p.func(main).body.clone().expect("body");
        let out = Unroller::new(&mut p, Some(main), 2).unroll(body);
        let (mut unwinds, mut copies) = (0, 0);
        crate::ir::visit::each_stmt(&out, &mut |s| match &s.kind {
            StmtKind::Expr(e) if matches!(e.kind, ExprKind::Intrinsic(Intrinsic::Unwind, _)) => {
                unwinds += 1
            }
            StmtKind::Label(l) if l.contains("next") => copies += 1,
            _ => {}
        });
        (unwinds, copies)
    }

    #[test]
    fn a_short_counted_loop_runs_exactly_and_a_long_one_to_the_bound() {
        let short = unrolled("int x; int main() { for (int i = 0; i < 5; i++) x++; return x; }");
        // Six exit tests, the last one always true (its Unwind marker unreachable).
        assert_eq!(short, (1, 6));
        let long =
            unrolled("int x; int main() { for (int i = 0; i < 2147483647; i++) x++; return x; }");
        assert_eq!(long, (1, 2));
    }

    #[test]
    fn a_cut_loop_names_the_statement_its_next_iteration_begins_with() {
        let src = "int x; int n; int main() { while (x < n) { x = x + 1; } return x; }";
        let mut p = crate::frontend::load_text("t.c", src, DataModel::Lp64).expect("parses");
        crate::passes::normalize::normalize(&mut p);
        let main = p.main().expect("main");
        let body = p.func(main).body.clone().expect("body");
        let out = Unroller::new(&mut p, Some(main), 2).unroll(body);
        let mut cut = None;
        crate::ir::visit::each_stmt(&out, &mut |s| {
            if let StmtKind::Expr(e) = &s.kind {
                if matches!(e.kind, ExprKind::Intrinsic(Intrinsic::Unwind, _)) {
                    cut = Some(s.id)
                }
            }
        });
        let cut = cut.expect("the loop is cut at bound 2");
        let next = p.loop_resumes.get(&cut).copied();
        assert!(next.is_some(), "no resume statement for the cut");
        assert_ne!(next, Some(cut));
        // The body's first step (the normalized exit test, or the increment) is a
        // statement the unrolled copies run, never the cut itself.
        let mut in_copies = false;
        crate::ir::visit::each_stmt(&out, &mut |s| in_copies |= Some(s.id) == next);
        assert!(in_copies);
    }
}
