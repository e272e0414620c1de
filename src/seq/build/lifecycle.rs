//! Joins and detaches in a program whose threads have detach states
//! (`known::detaches`): `__seq_detached[t]` is 0 while `t` is joinable, 1 once detached, 2
//! once joined, and `JOINING + k` while slot `k`'s join of it is under way. Without such
//! states a join is the single waiting step of `actions.rs`.
//!
//! A join then takes two steps, as glibc's does: it answers and begins (EDEADLK for
//! itself, EINVAL for a detached thread or one another join has begun on; else it claims
//! the thread), then waits for the thread to end and takes its result. A detach between
//! the two finds the join begun and, as in glibc, answers 0 and leaves the thread
//! joinable; a one-step join would lose the run where the join waits and succeeds. The
//! explorer takes the same two steps (`checker::explicit::exec::threads`), so that the
//! schedules it finds count the same points.

use super::state::{EDEADLK, EINVAL, ESRCH, SlotGen, Step, is_null};
use crate::ir::build as b;
use crate::ir::*;
use crate::seq::rules::Action;

const JOINABLE: i128 = 0;
pub(super) const DETACHED: i128 = 1;
const JOINED: i128 = 2;
/// `JOINING + k`: slot `k`'s join has begun.
const JOINING: i128 = 3;

impl SlotGen<'_, '_> {
    /// `action` is `Join` or `Detach`.
    pub(super) fn lifecycle(
        &mut self,
        action: Action,
        lhs: Option<Expr>,
        args: &[Expr],
        loc: Loc,
        id: StmtId,
    ) -> Vec<Step> {
        let tt = self.b.prog.types.clone();
        let prog = &self.b.prog;
        let v = self.b.vars.clone();
        let st = |e: Expr| b::expr_stmt(e, loc, id);
        let arg = |i: usize| args.get(i).cloned().unwrap_or_else(|| b::int(0));
        let set = |code: i128| match &lhs {
            Some(l) => vec![st(b::assign(l.clone(), b::int(code), &tt))],
            None => vec![],
        };
        // Every step keeps a statement that always runs: the trace shows where it ran.
        let step = |mut stmts: Vec<Stmt>, blocking: Option<Expr>| {
            stmts.insert(0, st(b::conv(b::int(0), &Type::Void, &tt)));
            Step {
                stmts,
                head: id,
                loc,
                visible: true,
                blocking,
                then_goto: None,
                sets_atomic: None,
            }
        };
        let t = b::conv(arg(0), &Type::uint(), &tt);
        // An id past the states (a replay of more threads than the bound) counts as a
        // joinable thread's.
        let known = b::bin(BinOp::Lt, t.clone(), b::uint(self.b.detach_ids as i128));
        let state = b::elem(prog, v.detached, t.clone());
        let is = |k: i128| b::and(known.clone(), b::bin(BinOp::Eq, state.clone(), b::int(k)));
        let begun = b::and(
            known.clone(),
            b::bin(BinOp::Ge, state.clone(), b::int(JOINING)),
        );
        if action == Action::Detach {
            // glibc: EINVAL for a thread already detached, ESRCH for one already joined
            // (or no thread at all), 0 and no change while a join of it is under way.
            let mut detach = vec![st(b::assign(state.clone(), b::int(DETACHED), &tt))];
            detach.extend(set(0));
            let s = vec![b::if_(
                is(JOINABLE),
                detach,
                Some(vec![b::if_(
                    is(DETACHED),
                    set(EINVAL),
                    Some(vec![b::if_(begun, set(0), Some(set(ESRCH)))]),
                )]),
            )];
            return vec![step(s, None)];
        }
        let mine_value = b::int(JOINING + i128::from(self.k));
        let mine = b::and(
            known.clone(),
            b::bin(BinOp::Eq, state.clone(), mine_value.clone()),
        );
        // 1. The answer, and the claim.
        let is_self = b::bin(BinOp::Eq, t.clone(), b::uint(i128::from(self.k)));
        let claim = vec![b::if_(
            is_self,
            set(EDEADLK),
            Some(vec![b::if_(
                b::bin(BinOp::LogOr, is(DETACHED), begun),
                set(EINVAL),
                Some({
                    let mut c = vec![b::if_(
                        known.clone(),
                        vec![st(b::assign(state.clone(), mine_value, &tt))],
                        None,
                    )];
                    c.extend(set(0));
                    c
                }),
            )]),
        )];
        // 2. The wait: only a join that claimed its thread (or one past the states)
        // waits, and takes the result.
        let mut done = b::elem(prog, v.done, t.clone());
        if self.b.concrete.is_some() {
            // A thread without a slot never ran (see Create): joining it blocks.
            let slotted = b::bin(BinOp::Lt, t.clone(), b::uint(self.b.nslots as i128));
            done = b::and(slotted, done);
        }
        // Answered at once (itself, detached, or claimed by another join): no wait.
        let answered = b::and(known.clone(), b::not(mine.clone()));
        let waits = b::bin(BinOp::LogOr, answered, done);
        let mut take = vec![];
        let rp = arg(1);
        if !is_null(&rp, &tt) {
            let nonnull = b::bin(BinOp::Ne, rp.clone(), b::conv(b::int(0), &rp.ty, &tt));
            let target = b::deref(rp, &tt);
            let val = b::elem(prog, v.ret, t.clone());
            take.push(b::if_(nonnull, vec![st(b::assign(target, val, &tt))], None));
        }
        take.push(b::if_(
            known.clone(),
            vec![st(b::assign(state, b::int(JOINED), &tt))],
            None,
        ));
        let finish = vec![b::if_(
            b::bin(BinOp::LogOr, mine, b::not(known)),
            take,
            None,
        )];
        vec![step(claim, None), step(finish, Some(waits))]
    }
}
