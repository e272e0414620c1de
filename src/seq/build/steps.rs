//! One slot's code cut into steps and points: which statements may be preempted, and
//! what each normalized statement becomes.

use super::inputs::{havoc_elements, init_elements};
use super::state::{Group, SlotGen, Step};
use crate::ir::build as b;
use crate::ir::*;
use crate::passes::normalize::shared_accesses;
use crate::seq::{PointInfo, PointKind};

impl<'a, 'b> SlotGen<'a, 'b> {
    pub(super) fn flush(&mut self, out: &mut Vec<Stmt>) {
        if let Some(g) = self.cur.take() {
            let p = self.points.len();
            self.points.push(PointInfo {
                head: g.head,
                loc: g.loc,
                stmts: g
                    .stmts
                    .iter()
                    .filter(|s| !s.id.is_none())
                    .map(|s| (s.id, s.loc))
                    .collect(),
                step_heads: g.step_heads,
                visible: g.visible,
                blocking: g.blocking.clone(),
                kind: PointKind::Code,
                may_end_run: g.significant && self.atomic != Some(true),
            });
            let s = self.b.guard(self.k, p, g.head, g.loc, g.blocking, g.stmts);
            out.push(s);
        }
    }

    pub(super) fn walk(&mut self, s: Stmt, out: &mut Vec<Stmt>) {
        let loc = s.loc;
        match s.kind {
            StmtKind::Block(ss) => {
                for x in ss {
                    self.walk(x, out);
                }
            }
            StmtKind::If { cond, then, els } => {
                self.flush(out);
                let before = self.atomic;
                let t = self.branch(*then);
                let after_then = self.atomic;
                self.atomic = before;
                let e = els.map(|e| Box::new(self.branch(*e)));
                self.atomic = merge(after_then, self.atomic);
                out.push(Stmt::new(
                    StmtKind::If {
                        cond,
                        then: Box::new(t),
                        els: e,
                    },
                    loc,
                ));
            }
            StmtKind::Goto(l) => {
                self.flush(out);
                if self.labels.contains(&l) {
                    self.atomic_unknown = true;
                }
                let at = self.at_gotos.get(&l).copied().unwrap_or(self.atomic);
                self.at_gotos.insert(l.clone(), merge(at, self.atomic));
                out.push(Stmt::new(StmtKind::Goto(l), loc));
            }
            StmtKind::Label(l) => {
                self.flush(out);
                if let Some(at) = self.at_gotos.get(&l) {
                    self.atomic = merge(self.atomic, *at);
                }
                self.labels.insert(l.clone());
                out.push(Stmt::new(StmtKind::Label(l), loc));
            }
            StmtKind::Skip
            | StmtKind::Break
            | StmtKind::Continue
            | StmtKind::Case { .. }
            | StmtKind::Default => {}
            StmtKind::Return(v) => {
                let id = s.id;
                let mut stmts = Vec::new();
                if let Some(v) = v {
                    if self.k != 0 && !v.ty.is_void(self.b.tt()) {
                        let tt = self.b.prog.types.clone();
                        let target =
                            b::elem(&self.b.prog, self.b.vars.ret, b::uint(self.k as i128));
                        stmts.push(b::expr_stmt(b::assign(target, v, &tt), loc, id));
                    }
                }
                let end = self.end_label();
                let step = Step {
                    stmts,
                    head: id,
                    loc,
                    visible: false,
                    blocking: None,
                    then_goto: Some(end),
                    sets_atomic: None,
                };
                self.add(step, out);
            }
            kind @ (StmtKind::Decl { .. } | StmtKind::Expr(_)) => {
                let st = Stmt {
                    kind,
                    loc,
                    id: s.id,
                };
                let steps = self.translate(st);
                for step in steps {
                    self.add(step, out);
                }
            }
            StmtKind::While { .. }
            | StmtKind::DoWhile { .. }
            | StmtKind::For { .. }
            | StmtKind::Switch { .. } => {
                // Unrolling leaves none; keep the statement in its own point if one slips.
                self.flush(out);
                self.atomic_unknown = true;
                out.push(Stmt {
                    kind: s.kind,
                    loc,
                    id: s.id,
                });
            }
        }
    }

    pub(super) fn end_label(&mut self) -> String {
        if self.end_label.is_none() {
            self.end_label = Some(format!("__seq_end{}", self.k));
        }
        self.end_label.clone().unwrap_or_default()
    }

    pub(super) fn branch(&mut self, s: Stmt) -> Stmt {
        let loc = s.loc;
        let mut v = Vec::new();
        self.walk(s, &mut v);
        self.flush(&mut v);
        Stmt::block(v, loc)
    }

    pub(super) fn add(&mut self, step: Step, out: &mut Vec<Stmt>) {
        let forced = self.b.concrete.is_some_and(|r| {
            !step.head.is_none()
                && r.blocks
                    .iter()
                    .any(|bl| bl.thread == self.k && bl.until.stmt() == Some(step.head))
        });
        let starts_new = step.visible || step.blocking.is_some() || forced;
        if starts_new || self.cur.is_none() {
            self.flush(out);
            self.cur = Some(Group {
                head: step.head,
                step_heads: vec![],
                loc: step.loc,
                stmts: vec![],
                visible: step.visible,
                blocking: step.blocking.clone(),
                significant: false,
            });
        }
        if let Some(g) = &mut self.cur {
            g.significant |= step.visible || step.blocking.is_some() || step.sets_atomic.is_some();
            if !step.head.is_none() {
                g.step_heads.push(step.head);
            }
            g.stmts.extend(step.stmts);
        }
        if step.sets_atomic.is_some() {
            self.atomic = step.sets_atomic;
        }
        if step.blocking.is_some() {
            self.flush(out);
        }
        if let Some(l) = step.then_goto {
            self.flush(out);
            // The jump targets this slot's end label, which the caller places.
            out.push(b::goto(&l));
        }
    }

    /// One normalized statement in the sequential program: pthread calls through the
    /// rules, declarations as assignments to the hoisted globals, inputs fixed in
    /// concrete mode.
    pub(super) fn translate(&mut self, s: Stmt) -> Vec<Step> {
        let loc = s.loc;
        let id = s.id;
        let tt = self.b.prog.types.clone();
        let plain = |this: &Self, stmts: Vec<Stmt>| -> Step {
            let visible = stmts.iter().any(|x| shared_accesses(this.shared, x) > 0)
                || stmts.iter().any(is_sync_marker);
            Step {
                stmts,
                head: id,
                loc,
                visible,
                blocking: None,
                then_goto: None,
                sets_atomic: None,
            }
        };
        // Pull out a library call: (lhs, callee, args).
        let call = match &s.kind {
            StmtKind::Expr(e) => match &e.kind {
                ExprKind::Call(c, a) => Some((None, (**c).clone(), a.clone())),
                ExprKind::Assign(l, r) => match &through_pointer_cast(r).kind {
                    ExprKind::Call(c, a) => Some((Some((**l).clone()), (**c).clone(), a.clone())),
                    _ => None,
                },
                _ => None,
            },
            StmtKind::Decl {
                var,
                init: Some(Init::Expr(e)),
            } => match &through_pointer_cast(e).kind {
                ExprKind::Call(c, a) => {
                    Some((Some(b::var(&self.b.prog, *var)), (**c).clone(), a.clone()))
                }
                _ => None,
            },
            _ => None,
        };
        if let Some((lhs, callee, args)) = call {
            if let ExprKind::Func(f) = callee.peel().kind {
                let name = self.b.prog.func(f).name.clone();
                let typed = if self.b.typed_mutexes {
                    super::sync::typed_action(&name)
                } else {
                    None
                }
                .or_else(|| super::sync::builtin_action(&name))
                .or_else(|| {
                    self.b
                        .detaches
                        .then(|| super::sync::lifecycle_action(&name))
                        .flatten()
                });
                if let Some(action) = typed.or_else(|| self.b.opts.rules.action(&name)) {
                    return self.model(action, &name, lhs, &args, loc, id);
                }
            }
        }
        match s.kind {
            StmtKind::Decl { var, init } => {
                let target = b::var(&self.b.prog, var);
                let ty = target.ty.clone();
                let stmts = match init {
                    // seqloc's own temporaries (a call's value, an inlined return) are
                    // written before anything reads them (a function that falls off its
                    // end without a `return` leaves C's value undefined): no input of the
                    // program, so they start at 0 rather than at a value the report lists.
                    None if ty.is_scalar(&tt)
                        && crate::ir::internal::is_written_first_temporary(
                            &self.b.prog.var(var).name,
                        ) =>
                    {
                        vec![b::expr_stmt(b::assign(target, b::int(0), &tt), loc, id)]
                    }
                    None => {
                        if ty.is_scalar(&tt) {
                            let (mut pre, v) = self.input(&ty, loc, id);
                            pre.push(b::expr_stmt(b::assign(target, v, &tt), loc, id));
                            pre
                        } else {
                            havoc_elements(&self.b.prog, target, loc, id)
                        }
                    }
                    Some(Init::Expr(e)) => {
                        let (mut pre, e) = self.fix_inputs(e, loc, id);
                        if ty.is_array(&tt) {
                            pre.extend(init_elements(
                                &self.b.prog,
                                target,
                                &Init::Expr(e),
                                loc,
                                id,
                            ));
                        } else {
                            pre.push(b::expr_stmt(b::assign(target, e, &tt), loc, id));
                        }
                        pre
                    }
                    Some(init) => init_elements(&self.b.prog, target, &init, loc, id),
                };
                vec![plain(self, stmts)]
            }
            StmtKind::Expr(e) => {
                let e = match &e.kind {
                    ExprKind::Intrinsic(Intrinsic::Await, args) => {
                        // A spin-wait: a blocking point whose enabling condition is read
                        // each time the thread tries to go on.
                        let c = args.first().cloned().unwrap_or_else(|| b::int(1));
                        // The wait itself runs as a statement once its condition holds,
                        // so that the run shows where the thread tested it (a hand-made
                        // lock's test, where a preemption splits test and set).
                        return vec![Step {
                            stmts: vec![b::expr_stmt(e.clone(), loc, id)],
                            head: id,
                            loc,
                            visible: true,
                            blocking: Some(c),
                            then_goto: None,
                            sets_atomic: None,
                        }];
                    }
                    // Symbolic mode: a violation is recorded and stops the run (every later
                    // point is guarded by `!failed`), without ending the path, so the
                    // probes at the end still see where each thread stood.
                    ExprKind::Intrinsic(Intrinsic::Error, _) if self.b.concrete.is_none() => {
                        let failed = b::var(&self.b.prog, self.b.vars.failed);
                        let record =
                            b::intrinsic(Intrinsic::Error, vec![b::int(ERROR_RECORD_ONLY)], loc);
                        let set = b::assign(failed, b::int(1), &tt);
                        return vec![plain(
                            self,
                            vec![b::expr_stmt(record, loc, id), b::expr_stmt(set, loc, id)],
                        )];
                    }
                    // The `abort()` after `reach_error()` (SV-COMP's `ERROR: {reach_error();
                    // abort();}`) would end the path the violation was just recorded on, and
                    // the probes would never say where the other threads stood: each one's
                    // last block would become "until end" and a replay would run the rest
                    // of it. After a violation the run is over anyway.
                    ExprKind::Intrinsic(Intrinsic::Abort, _) if self.b.concrete.is_none() => {
                        let failed = b::var(&self.b.prog, self.b.vars.failed);
                        let stop = b::expr_stmt(e.clone(), loc, id);
                        return vec![plain(self, vec![b::if_(b::not(failed), vec![stop], None)])];
                    }
                    ExprKind::Intrinsic(Intrinsic::Assert, args) if self.b.concrete.is_none() => {
                        let c = args.first().cloned().unwrap_or_else(|| b::int(1));
                        let failed = b::var(&self.b.prog, self.b.vars.failed);
                        let set = b::assign(failed, b::int(1), &tt);
                        let check = b::expr_stmt(e.clone(), loc, id);
                        let mark = b::if_(b::not(c), vec![b::expr_stmt(set, loc, id)], None);
                        return vec![plain(self, vec![check, mark])];
                    }
                    // A replay: a failed assertion ends the run, as the `abort()` of
                    // `__VERIFIER_assert` and `assert` does. Without the end, what the
                    // thread does next under the failing values (a read through the NULL
                    // the check was about) would discard the failing run itself.
                    ExprKind::Intrinsic(Intrinsic::Assert, args) => {
                        let c = args.first().cloned().unwrap_or_else(|| b::int(1));
                        let check = b::expr_stmt(e.clone(), loc, id);
                        let stop =
                            b::expr_stmt(b::intrinsic(Intrinsic::Abort, vec![], loc), loc, id);
                        let end = b::if_(b::not(c), vec![stop], None);
                        return vec![plain(self, vec![check, end])];
                    }
                    ExprKind::Intrinsic(Intrinsic::AtomicBegin | Intrinsic::AtomicEnd, _) => {
                        let begin =
                            matches!(e.kind, ExprKind::Intrinsic(Intrinsic::AtomicBegin, _));
                        let flag =
                            b::elem(&self.b.prog, self.b.vars.atomic, b::uint(self.k as i128));
                        let set = b::assign(flag, b::int(begin as i128), &tt);
                        return vec![Step {
                            stmts: vec![b::expr_stmt(set, loc, id)],
                            head: id,
                            loc,
                            visible: begin,
                            blocking: None,
                            then_goto: None,
                            sets_atomic: Some(begin),
                        }];
                    }
                    _ => e,
                };
                let (mut pre, e) = self.fix_inputs(e, loc, id);
                pre.push(b::expr_stmt(e, loc, id));
                vec![plain(self, pre)]
            }
            k => vec![plain(self, vec![Stmt { kind: k, loc, id }])],
        }
    }
}

/// The atomic flag where paths with these flags join.
fn merge(a: Option<bool>, b: Option<bool>) -> Option<bool> {
    if a == b { a } else { None }
}

/// `Error` argument: record the violation without ending the path (symbolic mode).
pub const ERROR_RECORD_ONLY: i128 = 1;

pub(super) fn is_sync_marker(s: &Stmt) -> bool {
    matches!(&s.kind, StmtKind::Expr(e) if matches!(e.kind, ExprKind::Intrinsic(Intrinsic::AtomicBegin, _)))
}

/// The call under a pointer conversion of its result: normalization keeps
/// `int *p = pthread_getspecific(k);` (as `malloc`'s) as one statement with the cast on the
/// call, and the model's assignment to `p` converts the value again.
fn through_pointer_cast(e: &Expr) -> &Expr {
    match &e.kind {
        ExprKind::Cast { e: x, .. } if matches!(x.kind, ExprKind::Call(..)) => x,
        _ => e,
    }
}
