//! Table II actions as statements: what each pthread call becomes in the sequential
//! program (`sync` has the semaphores, read-write locks and typed mutexes).

use super::lifecycle::DETACHED;
use super::state::{
    EBUSY, EDEADLK, ETIMEDOUT, MAIN_EXIT, MAX_KEYS, SlotGen, Step, bin_or, is_null,
};
use crate::ir::build as b;
use crate::ir::known::CREATE_DETACHED;
use crate::ir::*;
use crate::seq::rules::Action;

impl<'a, 'b> SlotGen<'a, 'b> {
    /// The unlock property's check, when the options ask for it: `held` (the mutex is
    /// locked) must hold. A failed check ends the run as a failed assertion does: a
    /// replay stops, the symbolic program notes the failure.
    pub(super) fn must_hold(&self, held: Expr, loc: Loc, id: StmtId) -> Vec<Stmt> {
        if !self.b.opts.unlocks {
            return vec![];
        }
        let tt = self.b.prog.types.clone();
        let check = b::expr_stmt(
            b::intrinsic(Intrinsic::MustHold, vec![held.clone()], loc),
            loc,
            id,
        );
        let end = match self.b.concrete {
            Some(_) => b::intrinsic(Intrinsic::Abort, vec![], loc),
            None => b::assign(b::var(&self.b.prog, self.b.vars.failed), b::int(1), &tt),
        };
        vec![
            check,
            b::if_(b::not(held), vec![b::expr_stmt(end, loc, id)], None),
        ]
    }

    /// Table II actions as statements in the sequential program.
    pub(super) fn model(
        &mut self,
        action: Action,
        callee: &str,
        lhs: Option<Expr>,
        args: &[Expr],
        loc: Loc,
        id: StmtId,
    ) -> Vec<Step> {
        let joins = crate::ir::known::classify(callee) == crate::ir::known::Known::ThreadJoin;
        let tt = self.b.prog.types.clone();
        let k = self.k as i128;
        let prog = &self.b.prog;
        let v = self.b.vars.clone();
        let st = |e: Expr| b::expr_stmt(e, loc, id);
        let zero_result = |lhs: &Option<Expr>| -> Vec<Stmt> {
            match lhs {
                Some(l) => vec![b::expr_stmt(b::assign(l.clone(), b::int(0), &tt), loc, id)],
                None => vec![],
            }
        };
        // Every call keeps a statement of its own, `(void)0` when it sets nothing (a join
        // of a thread whose result is not asked): the trace of a replay shows where each
        // synchronization call ran, which the lock-set and ordering analyses read.
        let step = |stmts: Vec<Stmt>, visible: bool, blocking: Option<Expr>| Step {
            stmts: if stmts.is_empty() {
                vec![st(b::conv(b::int(0), &Type::Void, &tt))]
            } else {
                stmts
            },
            head: id,
            loc,
            visible,
            blocking,
            then_goto: None,
            sets_atomic: None,
        };
        let arg = |i: usize| args.get(i).cloned().unwrap_or_else(|| b::int(0));
        let me = b::uint(k);
        match action {
            // A removed synchronization call still marks a point (where it was), so both
            // rule groups cut the code at the same places.
            // It stays in the trace as `(void)0` when it has no value to set (`step`).
            Action::Remove => {
                let s = match (&lhs, joins && self.b.self_joins) {
                    // A removed join still answers what it would have: the schedule
                    // already waited for the thread, but a thread joining itself gets
                    // EDEADLK at once (as with the `join` action).
                    (Some(l), true) => vec![b::if_(
                        b::bin(BinOp::Eq, b::conv(arg(0), &Type::uint(), &tt), me.clone()),
                        vec![st(b::assign(l.clone(), b::int(EDEADLK), &tt))],
                        Some(zero_result(&lhs)),
                    )],
                    _ => zero_result(&lhs),
                };
                vec![step(s, true, None)]
            }
            Action::Create => {
                let mut s = Vec::new();
                let tmp = b::var(prog, v.tmp);
                let nthreads = b::var(prog, v.nthreads);
                let nslots = self.b.nslots as i128;
                let concrete = self.b.concrete.is_some();
                let fixed_id = match &self.b.static_ids {
                    Some(ids) if self.k == 0 => {
                        let id = ids.get(self.b.creates_seen).copied().flatten();
                        self.b.creates_seen += 1;
                        id.filter(|&id| (id as i128) < nslots)
                    }
                    _ => None,
                };
                // The new thread's id: fixed at translation time, or `nthreads` at run time
                // (then bounded by the slots).
                let id = match fixed_id {
                    Some(id) => b::uint(id as i128),
                    None => {
                        if !concrete {
                            // More threads than slots: the bounded exploration stops here.
                            s.push(b::if_(
                                b::bin(BinOp::Ge, nthreads.clone(), b::uint(nslots)),
                                vec![st(b::bound_cut(loc))],
                                None,
                            ));
                        }
                        tmp.clone()
                    }
                };
                let source = if fixed_id.is_some() {
                    id.clone()
                } else {
                    nthreads.clone()
                };
                s.push(st(b::assign(tmp.clone(), source, &tt)));
                let fid = self.thread_fn_index(&arg(2));
                let record = vec![
                    st(b::assign(
                        b::elem(prog, v.created, id.clone()),
                        b::int(1),
                        &tt,
                    )),
                    st(b::assign(b::elem(prog, v.arg, id.clone()), arg(3), &tt)),
                    st(b::assign(b::elem(prog, v.fnid, id.clone()), fid, &tt)),
                ];
                if concrete {
                    // A replayed schedule lists only the threads that ran; one created
                    // but never scheduled gets its id and no slot.
                    s.push(b::if_(
                        b::bin(BinOp::Lt, nthreads.clone(), b::uint(nslots)),
                        record,
                        None,
                    ));
                } else {
                    s.extend(record);
                }
                let attr = arg(1);
                let int_attr = attr.ty.pointee(&tt).is_some_and(|t| t.is_integer(&tt));
                if self.b.detaches && !is_null(&attr, &tt) && int_attr {
                    // Created detached through its attribute (an `int` under the rules),
                    // slot or not: a thread that never runs may still be joined.
                    let nonnull =
                        b::bin(BinOp::Ne, attr.clone(), b::conv(b::int(0), &attr.ty, &tt));
                    let state = b::bin(BinOp::Eq, b::deref(attr, &tt), b::int(CREATE_DETACHED));
                    let known = b::bin(BinOp::Lt, id.clone(), b::uint(self.b.detach_ids as i128));
                    s.push(b::if_(
                        b::bin(BinOp::LogAnd, known, b::bin(BinOp::LogAnd, nonnull, state)),
                        vec![st(b::assign(
                            b::elem(prog, v.detached, id.clone()),
                            b::int(DETACHED),
                            &tt,
                        ))],
                        None,
                    ));
                }
                s.push(st(b::assign(
                    nthreads,
                    b::bin(BinOp::Add, id.clone(), b::uint(1)),
                    &tt,
                )));
                let t_ptr = arg(0);
                if !is_null(&t_ptr, &tt) {
                    let target = b::deref(t_ptr, &tt);
                    s.push(st(b::assign(target, id, &tt)));
                }
                s.extend(zero_result(&lhs));
                vec![step(s, true, None)]
            }
            Action::Join | Action::Detach if self.b.detaches => {
                self.lifecycle(action, lhs, args, loc, id)
            }
            Action::Join => {
                let t = b::conv(arg(0), &Type::uint(), &tt);
                let mut done = b::elem(prog, v.done, t.clone());
                if self.b.concrete.is_some() {
                    // A thread without a slot never ran (see Create): joining it blocks.
                    let slotted = b::bin(BinOp::Lt, t.clone(), b::uint(self.b.nslots as i128));
                    done = b::bin(BinOp::LogAnd, slotted, done);
                }
                // Joining oneself does not block: Linux (and POSIX, as the error it may
                // report) returns EDEADLK at once and stores nothing.
                let is_self = if self.b.self_joins {
                    b::bin(BinOp::Eq, t.clone(), me.clone())
                } else {
                    b::int(0)
                };
                let done = if self.b.self_joins {
                    b::bin(BinOp::LogOr, is_self.clone(), done)
                } else {
                    done
                };
                let mut s = Vec::new();
                let rp = arg(1);
                if !is_null(&rp, &tt) {
                    let nonnull = b::bin(BinOp::Ne, rp.clone(), b::conv(b::int(0), &rp.ty, &tt));
                    let other = if self.b.self_joins {
                        b::bin(BinOp::LogAnd, nonnull, b::not(is_self.clone()))
                    } else {
                        nonnull
                    };
                    let target = b::deref(rp, &tt);
                    let val = b::elem(prog, v.ret, t);
                    s.push(b::if_(other, vec![st(b::assign(target, val, &tt))], None));
                }
                if !self.b.self_joins {
                    s.extend(zero_result(&lhs));
                } else if let Some(l) = &lhs {
                    s.push(b::if_(
                        is_self,
                        vec![st(b::assign(l.clone(), b::int(EDEADLK), &tt))],
                        Some(zero_result(&lhs)),
                    ));
                }
                vec![step(s, true, Some(done))]
            }
            // Without detach states (`known::detaches`), a detach changes nothing modelled.
            Action::Detach => vec![step(zero_result(&lhs), true, None)],
            Action::Exit => {
                let mut s = Vec::new();
                if self.k != 0 {
                    s.push(st(b::assign(b::elem(prog, v.ret, me), arg(0), &tt)));
                    let end = self.end_label();
                    return vec![Step {
                        stmts: s,
                        head: id,
                        loc,
                        visible: true,
                        blocking: None,
                        then_goto: Some(end),
                        sets_atomic: None,
                    }];
                }
                // pthread_exit in main: main ends, the other threads go on.
                s.push(st(b::assign(
                    b::elem(prog, v.done, b::uint(0)),
                    b::int(1),
                    &tt,
                )));
                vec![Step {
                    stmts: s,
                    head: id,
                    loc,
                    visible: true,
                    blocking: None,
                    then_goto: Some(MAIN_EXIT.to_string()),
                    sets_atomic: None,
                }]
            }
            Action::SelfId => {
                let s = match lhs {
                    Some(l) => vec![st(b::assign(l, me, &tt))],
                    None => vec![],
                };
                vec![step(s, false, None)]
            }
            Action::Equal => {
                let s = match lhs {
                    Some(l) => vec![st(b::assign(l, b::bin(BinOp::Eq, arg(0), arg(1)), &tt))],
                    None => vec![],
                };
                vec![step(s, false, None)]
            }
            Action::Store0 => {
                let mut s = vec![];
                let p = arg(0);
                if !is_null(&p, &tt) {
                    s.push(st(b::assign(b::deref(p, &tt), b::int(0), &tt)));
                }
                s.extend(zero_result(&lhs));
                vec![step(s, true, None)]
            }
            Action::Lock | Action::Trylock | Action::Unlock if self.b.typed_mutexes => {
                self.sync_model(action, lhs, args, loc, id)
            }
            Action::Lock => {
                let m = b::deref(arg(0), &tt);
                let free = b::bin(BinOp::Eq, m.clone(), b::int(0));
                let mut s = vec![st(b::assign(
                    m,
                    b::bin(BinOp::Add, b::int(k), b::int(1)),
                    &tt,
                ))];
                s.extend(zero_result(&lhs));
                vec![step(s, true, Some(free))]
            }
            Action::Trylock => {
                let m = b::deref(arg(0), &tt);
                let free = b::bin(BinOp::Eq, m.clone(), b::int(0));
                let take = st(b::assign(m, b::bin(BinOp::Add, b::int(k), b::int(1)), &tt));
                let (ok, busy) = match &lhs {
                    Some(l) => (
                        vec![take, st(b::assign(l.clone(), b::int(0), &tt))],
                        vec![st(b::assign(l.clone(), b::int(EBUSY), &tt))],
                    ),
                    None => (vec![take], vec![]),
                };
                vec![step(vec![b::if_(free, ok, Some(busy))], true, None)]
            }
            Action::Unlock => {
                let m = b::deref(arg(0), &tt);
                let mut s = self.must_hold(b::bin(BinOp::Ne, m.clone(), b::int(0)), loc, id);
                s.push(st(b::assign(m, b::int(0), &tt)));
                s.extend(zero_result(&lhs));
                vec![step(s, true, None)]
            }
            Action::CondWait | Action::CondTimedwait => {
                let c = b::conv(arg(0), &Type::void_ptr(), &tt);
                let m_ptr = arg(1);
                let wait = b::elem(prog, v.wait, me.clone());
                let sig = b::elem(prog, v.sig, me.clone());
                // Part one: release the mutex and start waiting.
                let mut a = Vec::new();
                if self.b.models_mutexes && !is_null(&m_ptr, &tt) {
                    let m = b::deref(m_ptr.clone(), &tt);
                    a.push(st(if self.b.typed_mutexes {
                        self.typed_release(m)
                    } else {
                        b::assign(m, b::int(0), &tt)
                    }));
                }
                a.push(st(b::assign(wait.clone(), c, &tt)));
                a.push(st(b::assign(sig.clone(), b::int(0), &tt)));
                // Part two: woken up, take the mutex back. Woken by a signal, by the end
                // of a timed wait's time, or (where `analysis::waits::spurious_wake_sites`
                // says it matters) by nothing at all: POSIX allows spurious wake-ups.
                //
                // A timed wait can always return once its mutex is free: signalled if a
                // signal came first, else its time ran out, whenever the schedule runs it —
                // it never blocks for ever, so a run in which it waits is no deadlock (a
                // choice "does not time out" made as it starts once made every unsignalled
                // timed wait a false DEADLOCK). Only an untimed wait waits for a signal; a
                // spurious wake-up is one nondeterministic choice made as the wait starts.
                let timed = action == Action::CondTimedwait;
                let spurious = self.b.spurious_waits.contains(&id).then(|| {
                    self.b.prog.new_global(
                        &format!("__seq_spurious{}_{}", self.k, id.0),
                        Type::bool(),
                        None,
                        loc,
                    )
                });
                let prog = &self.b.prog;
                let mut enabled = match (timed, spurious) {
                    (true, _) => None,
                    (false, Some(t)) => Some(bin_or(sig.clone(), b::var(prog, t))),
                    (false, None) => Some(sig.clone()),
                };
                let mut c2 = Vec::new();
                if self.b.models_mutexes && !is_null(&m_ptr, &tt) {
                    let m = b::deref(m_ptr.clone(), &tt);
                    let free = if self.b.typed_mutexes {
                        let (free, take) = self.typed_retake(m);
                        c2.push(st(take));
                        free
                    } else {
                        let free = b::bin(BinOp::Eq, m.clone(), b::int(0));
                        c2.push(st(b::assign(
                            m,
                            b::bin(BinOp::Add, b::int(k), b::int(1)),
                            &tt,
                        )));
                        free
                    };
                    enabled = Some(match enabled {
                        Some(e) => b::and(e, free),
                        None => free,
                    });
                }
                match &lhs {
                    Some(l) if timed => {
                        // Unsignalled: a spurious wake-up answers 0, the end of its time
                        // `ETIMEDOUT`.
                        let early = match spurious {
                            Some(t) => Expr::new(
                                ExprKind::Cond(
                                    Box::new(b::var(&self.b.prog, t)),
                                    Box::new(b::int(0)),
                                    Box::new(b::int(ETIMEDOUT)),
                                ),
                                Type::int(),
                                loc,
                            ),
                            None => b::int(ETIMEDOUT),
                        };
                        let r = Expr::new(
                            ExprKind::Cond(
                                Box::new(sig.clone()),
                                Box::new(b::int(0)),
                                Box::new(early),
                            ),
                            Type::int(),
                            loc,
                        );
                        c2.push(st(b::assign(l.clone(), r, &tt)));
                    }
                    Some(l) => c2.push(st(b::assign(l.clone(), b::int(0), &tt))),
                    None => {}
                }
                c2.push(st(b::assign(
                    wait,
                    b::conv(b::int(0), &Type::void_ptr(), &tt),
                    &tt,
                )));
                c2.push(st(b::assign(sig, b::int(0), &tt)));
                let mut part_b = Vec::new();
                if let Some(t) = spurious {
                    // Whether this wait wakes spuriously is a nondeterministic choice (an
                    // input).
                    let (mut pre, choose) = self.input(&Type::bool(), loc, id);
                    let prog = &self.b.prog;
                    pre.push(st(b::assign(b::var(prog, t), choose, &tt)));
                    part_b.push(step(pre, false, None));
                }
                let mut out = vec![step(a, true, None)];
                out.extend(part_b);
                out.push(step(c2, true, enabled));
                out
            }
            Action::CondSignal | Action::CondBroadcast => {
                let c = b::conv(arg(0), &Type::void_ptr(), &tt);
                let n = self.b.nslots as i128;
                let mut s = Vec::new();
                if action == Action::CondBroadcast {
                    for j in 0..n {
                        let waits = b::bin(BinOp::Eq, b::elem(prog, v.wait, b::uint(j)), c.clone());
                        s.push(b::if_(
                            waits,
                            vec![
                                st(b::assign(
                                    b::elem(prog, v.wait, b::uint(j)),
                                    b::conv(b::int(0), &Type::void_ptr(), &tt),
                                    &tt,
                                )),
                                st(b::assign(b::elem(prog, v.sig, b::uint(j)), b::int(1), &tt)),
                            ],
                            None,
                        ));
                    }
                } else {
                    // Wake one waiter, chosen nondeterministically (an input when replayed).
                    let mut any: Option<Expr> = None;
                    for j in 0..n {
                        let w = b::bin(BinOp::Eq, b::elem(prog, v.wait, b::uint(j)), c.clone());
                        any = Some(match any {
                            Some(a) => bin_or(a, w),
                            None => w,
                        });
                    }
                    let pick = self.b.prog.new_global(
                        &format!("__seq_pick{}_{}", self.k, id.0),
                        Type::uint(),
                        None,
                        loc,
                    );
                    // The occurrence counter counts picks made, not signals sent: a signal
                    // with no waiter chooses nothing, and a read-back schedule (which
                    // records the choices) numbers its picks the same way.
                    let (mut chosen, choose) = self.input(&Type::uint(), loc, id);
                    let prog = &self.b.prog;
                    let pk = b::var(prog, pick);
                    let valid = b::and(
                        b::bin(BinOp::Lt, pk.clone(), b::uint(n)),
                        b::bin(BinOp::Eq, b::elem(prog, v.wait, pk.clone()), c.clone()),
                    );
                    chosen.extend([
                        st(b::assign(pk.clone(), choose, &tt)),
                        st(b::intrinsic(Intrinsic::Assume, vec![valid], loc)),
                        st(b::assign(
                            b::elem(prog, v.wait, pk.clone()),
                            b::conv(b::int(0), &Type::void_ptr(), &tt),
                            &tt,
                        )),
                        st(b::assign(b::elem(prog, v.sig, pk), b::int(1), &tt)),
                    ]);
                    s.push(b::if_(any.unwrap_or_else(|| b::int(0)), chosen, None));
                }
                s.extend(zero_result(&lhs));
                vec![step(s, true, None)]
            }
            Action::SemInit
            | Action::SemWait
            | Action::SemTrywait
            | Action::SemPost
            | Action::SemGetvalue
            | Action::RdLock
            | Action::WrLock
            | Action::TryRdLock
            | Action::TryWrLock
            | Action::RwUnlock
            | Action::MutexInit
            | Action::AttrSet
            | Action::AttrGet
            | Action::BarrierInit
            | Action::BarrierArrive
            | Action::BarrierLeave
            | Action::OnceBegin
            | Action::OnceEnd => self.sync_model(action, lhs, args, loc, id),
            Action::KeyCreate => {
                let nk = b::var(prog, v.nkeys);
                let mut s = vec![b::if_(
                    b::bin(BinOp::Ge, nk.clone(), b::uint(MAX_KEYS as i128)),
                    vec![st(b::bound_cut(loc))],
                    None,
                )];
                let kp = arg(0);
                if !is_null(&kp, &tt) {
                    s.push(st(b::assign(b::deref(kp, &tt), nk.clone(), &tt)));
                }
                s.push(st(b::assign(
                    b::elem(prog, v.dtor, nk.clone()),
                    arg(1),
                    &tt,
                )));
                s.push(st(b::assign(
                    nk.clone(),
                    b::bin(BinOp::Add, nk, b::uint(1)),
                    &tt,
                )));
                s.extend(zero_result(&lhs));
                vec![step(s, true, None)]
            }
            Action::GetSpecific => {
                let key = b::conv(arg(0), &Type::uint(), &tt);
                let s = match lhs {
                    Some(l) => vec![st(b::assign(l, b::elem2(prog, v.tls, me, key), &tt))],
                    None => vec![],
                };
                vec![step(s, false, None)]
            }
            Action::SetSpecific => {
                let key = b::conv(arg(0), &Type::uint(), &tt);
                let mut s = vec![st(b::assign(b::elem2(prog, v.tls, me, key), arg(1), &tt))];
                s.extend(zero_result(&lhs));
                vec![step(s, false, None)]
            }
        }
    }

    /// The index of the thread function a `pthread_create` argument denotes.
    pub(super) fn thread_fn_index(&self, e: &Expr) -> Expr {
        let fns = &self.b.thread_fns;
        if let ExprKind::Func(f) = e.peel().kind {
            if let Some(i) = fns.iter().position(|x| *x == f) {
                return b::int(i as i128);
            }
        }
        let mut r = b::int(-1);
        for (i, f) in fns.iter().enumerate().skip(1).rev() {
            let fe = Expr::new(ExprKind::Func(*f), e.ty.clone(), Loc::SYNTH);
            let is = b::bin(BinOp::Eq, e.clone(), fe);
            r = Expr::new(
                ExprKind::Cond(Box::new(is), Box::new(b::int(i as i128)), Box::new(r)),
                Type::int(),
                Loc::SYNTH,
            );
        }
        r
    }
}
