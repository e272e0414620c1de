//! Table II actions for the synchronization objects beyond the default mutex: counting
//! semaphores, read-write locks, and mutexes whose type an attribute chooses (recursive,
//! error-checking). Each object is one integer of the sequential program:
//!
//! * a semaphore: its count;
//! * a read-write lock: 0 free, `n > 0` held by `n` readers, -1 held by a writer;
//! * a mutex, when the program sets a mutex type (`typed_mutexes`): the owner's slot + 1
//!   in bits 0-7 (0: free), the recursive re-locks in bits 8-23, the type in bits 24-25
//!   (`PTHREAD_MUTEX_RECURSIVE` 1, `..._ERRORCHECK` 2, anything else behaves as the
//!   default type). A program without a mutex type keeps the plain encoding (0 free, else
//!   owner + 1), so its encoding and its explanations stay as they were;
//! * a barrier: its count in bits 0-9, the threads arrived in this cycle in bits 10-19,
//!   the generation (cycles completed) in bits 20-30. A count of 0 (no successful init)
//!   never fills: waiting there blocks for ever; neither does a count above the thread
//!   slots, stored as slots + 1. A 2048th cycle (a waiter could no longer tell its cycle
//!   from a later one), or a count beyond 1023 with more than 1022 slots, ends the run as
//!   a bound reached (`Unwind`): the verdict is then unknown, never wrong;
//! * a `pthread_once` control: 0 not started, 1 running, 2 done (`PTHREAD_ONCE_INIT` is 0).

use super::state::{EBUSY, SlotGen, Step, bin_or, is_null};
use crate::ir::build as b;
use crate::ir::known::{
    BARRIER_SERIAL_THREAD, Known, MutexAttr, ThreadAttr, classify, is_spinlock_call, mutex_attr,
    thread_attr,
};
use crate::ir::*;
use crate::seq::rules::Action;

use crate::ir::known::errno::{EDEADLK, EINVAL, EPERM};
const RECURSIVE: i128 = 1;
const ERRORCHECK: i128 = 2;
const OWNER_MASK: i128 = 0xff;
const COUNT_ONE: i128 = 0x100;
const COUNT_MASK: i128 = 0xff_ff00;
const KIND_SHIFT: i128 = 24;
/// A barrier's fields (see the module comment).
const BARRIER_FIELD: i128 = 0x3ff;
const ARRIVED_SHIFT: i128 = 10;
const GENERATION_SHIFT: i128 = 20;
const MAX_GENERATION: i128 = 0x7ff;

/// The action of one of the front end's own calls (the lowering of `pthread_barrier_wait`
/// and `pthread_once`), in both rule groups: what they answer decides which code runs.
pub fn builtin_action(name: &str) -> Option<Action> {
    Some(match classify(name) {
        Known::BarrierArrive => Action::BarrierArrive,
        Known::BarrierLeave => Action::BarrierLeave,
        Known::OnceBegin => Action::OnceBegin,
        Known::OnceEnd => Action::OnceEnd,
        _ => return None,
    })
}

/// The action of a mutex call in a program with typed mutexes, whatever the rule group
/// says: a re-lock's and an unlock's results depend on the type and owner, which no
/// schedule records, so they are modelled in both groups. Spinlocks keep their rules: a
/// spinlock has no type.
pub fn typed_action(name: &str) -> Option<Action> {
    if let Some(attr) = mutex_attr(name) {
        return match attr {
            MutexAttr::Init => Some(Action::Store0),
            MutexAttr::SetType => Some(Action::AttrSet),
            MutexAttr::GetType => Some(Action::AttrGet),
            MutexAttr::Other => None,
        };
    }
    if is_spinlock_call(name) {
        return None;
    }
    Some(match classify(name) {
        Known::MutexInit => Action::MutexInit,
        Known::MutexLock => Action::Lock,
        Known::MutexTrylock => Action::Trylock,
        Known::MutexUnlock => Action::Unlock,
        _ => return None,
    })
}

/// The action of a detach or a thread attribute's detach-state call in a program whose
/// threads may be detached, whatever the rule group says: what a later join or detach
/// answers (and whether a join waits) depends on the state, which no schedule records.
pub fn lifecycle_action(name: &str) -> Option<Action> {
    if classify(name) == Known::ThreadDetach {
        return Some(Action::Detach);
    }
    Some(match thread_attr(name)? {
        ThreadAttr::Init => Action::Store0,
        ThreadAttr::SetDetachState => Action::AttrSet,
        ThreadAttr::GetDetachState => Action::AttrGet,
    })
}

/// A barrier's generation, read as unsigned: whatever value the localization's
/// instrumentation gives the object, it is never the serial thread's -1.
fn barrier_generation(x: Expr, tt: &TypeTable) -> Expr {
    let bits = b::bin(
        BinOp::Shr,
        b::conv(x, &Type::uint(), tt),
        b::uint(GENERATION_SHIFT),
    );
    b::conv(bits, &Type::int(), tt)
}

impl SlotGen<'_, '_> {
    /// The steps of one of the actions this module owns.
    pub(super) fn sync_model(
        &mut self,
        action: Action,
        lhs: Option<Expr>,
        args: &[Expr],
        loc: Loc,
        id: StmtId,
    ) -> Vec<Step> {
        let tt = self.b.prog.types.clone();
        let st = |e: Expr| b::expr_stmt(e, loc, id);
        let arg = |i: usize| args.get(i).cloned().unwrap_or_else(|| b::int(0));
        let set = |l: &Option<Expr>, v: i128| -> Vec<Stmt> {
            match l {
                Some(l) => vec![st(b::assign(l.clone(), b::int(v), &tt))],
                None => vec![],
            }
        };
        let step = |stmts: Vec<Stmt>, blocking: Option<Expr>| Step {
            stmts,
            head: id,
            loc,
            visible: true,
            blocking,
            then_goto: None,
            sets_atomic: None,
        };
        let x = b::deref(arg(0), &tt);
        let me1 = b::int(i128::from(self.k) + 1);
        let int = |v: i128| b::int(v);
        let bin = b::bin;
        match action {
            Action::SemInit => {
                let mut s = vec![st(b::assign(x, arg(2), &tt))];
                s.extend(set(&lhs, 0));
                vec![step(s, None)]
            }
            Action::SemWait | Action::RdLock | Action::WrLock => {
                let (enabled, next) = match action {
                    Action::SemWait => (
                        bin(BinOp::Gt, x.clone(), int(0)),
                        bin(BinOp::Sub, x.clone(), int(1)),
                    ),
                    Action::RdLock => (
                        bin(BinOp::Ge, x.clone(), int(0)),
                        bin(BinOp::Add, x.clone(), int(1)),
                    ),
                    _ => (bin(BinOp::Eq, x.clone(), int(0)), int(-1)),
                };
                let mut s = vec![st(b::assign(x, next, &tt))];
                s.extend(set(&lhs, 0));
                vec![step(s, Some(enabled))]
            }
            Action::SemTrywait | Action::TryRdLock | Action::TryWrLock => {
                let (free, next, busy) = match action {
                    // `sem_trywait` fails with -1 (errno EAGAIN; seqloc refuses `errno`).
                    Action::SemTrywait => (
                        bin(BinOp::Gt, x.clone(), int(0)),
                        bin(BinOp::Sub, x.clone(), int(1)),
                        -1,
                    ),
                    Action::TryRdLock => (
                        bin(BinOp::Ge, x.clone(), int(0)),
                        bin(BinOp::Add, x.clone(), int(1)),
                        EBUSY,
                    ),
                    _ => (bin(BinOp::Eq, x.clone(), int(0)), int(-1), EBUSY),
                };
                let mut ok = vec![st(b::assign(x, next, &tt))];
                ok.extend(set(&lhs, 0));
                vec![step(vec![b::if_(free, ok, Some(set(&lhs, busy)))], None)]
            }
            Action::SemPost => {
                let mut s = vec![st(b::assign(x.clone(), bin(BinOp::Add, x, int(1)), &tt))];
                s.extend(set(&lhs, 0));
                vec![step(s, None)]
            }
            Action::SemGetvalue => {
                let mut s = vec![];
                let out = arg(1);
                if !is_null(&out, &tt) {
                    s.push(st(b::assign(b::deref(out, &tt), x, &tt)));
                }
                s.extend(set(&lhs, 0));
                vec![step(s, None)]
            }
            Action::RwUnlock => {
                // Readers leave one at a time; a writer (-1) leaves it free.
                let next = b::cond(
                    bin(BinOp::Gt, x.clone(), int(0)),
                    bin(BinOp::Sub, x.clone(), int(1)),
                    int(0),
                    loc,
                );
                let mut s = vec![st(b::assign(x, next, &tt))];
                s.extend(set(&lhs, 0));
                vec![step(s, None)]
            }
            Action::MutexInit => {
                // The type the attribute holds, or the default type.
                let mut s = vec![st(b::assign(x.clone(), int(0), &tt))];
                let attr = arg(1);
                if self.b.typed_mutexes && !is_null(&attr, &tt) {
                    let nonnull = bin(BinOp::Ne, attr.clone(), b::conv(int(0), &attr.ty, &tt));
                    let kind = bin(BinOp::Shl, b::deref(attr, &tt), int(KIND_SHIFT));
                    s.push(b::if_(nonnull, vec![st(b::assign(x, kind, &tt))], None));
                }
                s.extend(set(&lhs, 0));
                vec![step(s, None)]
            }
            Action::AttrSet => {
                let mut s = vec![st(b::assign(x, arg(1), &tt))];
                s.extend(set(&lhs, 0));
                vec![step(s, None)]
            }
            Action::AttrGet => {
                let mut s = vec![];
                let out = arg(1);
                if !is_null(&out, &tt) {
                    s.push(st(b::assign(b::deref(out, &tt), x, &tt)));
                }
                s.extend(set(&lhs, 0));
                vec![step(s, None)]
            }
            Action::Lock | Action::Trylock | Action::Unlock => {
                let owner = bin(BinOp::BitAnd, x.clone(), int(OWNER_MASK));
                let kind = bin(BinOp::Shr, x.clone(), int(KIND_SHIFT));
                let free = bin(BinOp::Eq, owner.clone(), int(0));
                let mine = bin(BinOp::Eq, owner, me1.clone());
                let is = |k: i128| bin(BinOp::Eq, kind.clone(), int(k));
                let take = |r: i128| {
                    let mut v = vec![st(b::assign(
                        x.clone(),
                        bin(BinOp::Add, x.clone(), me1.clone()),
                        &tt,
                    ))];
                    v.extend(set(&lhs, r));
                    v
                };
                let again = |r: i128| {
                    let mut v = vec![st(b::assign(
                        x.clone(),
                        bin(BinOp::Add, x.clone(), int(COUNT_ONE)),
                        &tt,
                    ))];
                    v.extend(set(&lhs, r));
                    v
                };
                // Only the type stays: free, no re-locks.
                let release = {
                    let mut v = vec![st(b::assign(
                        x.clone(),
                        bin(BinOp::Shl, kind.clone(), int(KIND_SHIFT)),
                        &tt,
                    ))];
                    v.extend(set(&lhs, 0));
                    v
                };
                match action {
                    Action::Lock => {
                        // The owner re-locking a recursive mutex counts; an error-checking
                        // one answers EDEADLK; the default type blocks for ever.
                        let enabled = b::and(
                            bin_or(free.clone(), mine),
                            bin_or(bin_or(free.clone(), is(RECURSIVE)), is(ERRORCHECK)),
                        );
                        let relock = b::if_(is(RECURSIVE), again(0), Some(set(&lhs, EDEADLK)));
                        vec![step(
                            vec![b::if_(free, take(0), Some(vec![relock]))],
                            Some(enabled),
                        )]
                    }
                    Action::Trylock => {
                        let relock = b::if_(
                            b::and(mine, is(RECURSIVE)),
                            again(0),
                            Some(set(&lhs, EBUSY)),
                        );
                        vec![step(vec![b::if_(free, take(0), Some(vec![relock]))], None)]
                    }
                    _ => {
                        // The owner: one re-lock less, or free. Another thread: EPERM for
                        // the checking types; the default type's unlock is undefined
                        // there and frees it, as without a type.
                        let counted = bin(
                            BinOp::Ne,
                            bin(BinOp::BitAnd, x.clone(), int(COUNT_MASK)),
                            int(0),
                        );
                        let mut down = vec![st(b::assign(
                            x.clone(),
                            bin(BinOp::Sub, x.clone(), int(COUNT_ONE)),
                            &tt,
                        ))];
                        down.extend(set(&lhs, 0));
                        let owner_unlock =
                            b::if_(b::and(is(RECURSIVE), counted), down, Some(release.clone()));
                        // The default type's unlock of a free mutex: the unlock property.
                        let mut unchecked = self.must_hold(b::not(free.clone()), loc, id);
                        unchecked.extend(release);
                        let other = b::if_(
                            bin_or(is(RECURSIVE), is(ERRORCHECK)),
                            set(&lhs, EPERM),
                            Some(unchecked),
                        );
                        vec![step(
                            vec![b::if_(mine, vec![owner_unlock], Some(vec![other]))],
                            None,
                        )]
                    }
                }
            }
            Action::BarrierInit => {
                // `count` is unsigned: 0, or beyond glibc's limit (INT_MAX), is EINVAL.
                let count = b::conv(arg(2), &Type::uint(), &tt);
                let valid = b::and(
                    bin(BinOp::Ne, count.clone(), b::uint(0)),
                    bin(BinOp::Le, count.clone(), b::uint(i128::from(i32::MAX))),
                );
                // No cycle can gather more threads than there are slots (a thread that
                // arrived waits until its cycle completes): a larger count is stored as
                // one more than the slots, which never fills either.
                let never = i128::from(self.b.nslots) + 1;
                let mut ok = vec![];
                let stored = if never <= BARRIER_FIELD {
                    b::cond(
                        bin(BinOp::Gt, count.clone(), b::uint(never)),
                        int(never),
                        b::conv(count, &Type::int(), &tt),
                        loc,
                    )
                } else {
                    ok.push(b::if_(
                        bin(BinOp::Gt, count.clone(), b::uint(BARRIER_FIELD)),
                        vec![st(b::bound_cut(loc))],
                        None,
                    ));
                    b::conv(count, &Type::int(), &tt)
                };
                ok.push(st(b::assign(x.clone(), stored, &tt)));
                ok.extend(set(&lhs, 0));
                let mut bad = vec![st(b::assign(x, int(0), &tt))];
                bad.extend(set(&lhs, EINVAL));
                vec![step(vec![b::if_(valid, ok, Some(bad))], None)]
            }
            Action::BarrierArrive => {
                // Blocks for ever on a barrier with no count; the last of a cycle starts
                // the next generation and answers -1, the others their generation.
                let count = bin(BinOp::BitAnd, x.clone(), int(BARRIER_FIELD));
                let arrived = bin(
                    BinOp::BitAnd,
                    bin(BinOp::Shr, x.clone(), int(ARRIVED_SHIFT)),
                    int(BARRIER_FIELD),
                );
                let generation = barrier_generation(x.clone(), &tt);
                let last = bin(BinOp::Eq, bin(BinOp::Add, arrived, int(1)), count.clone());
                let mut complete = vec![b::if_(
                    bin(BinOp::Ge, generation.clone(), int(MAX_GENERATION)),
                    vec![st(b::bound_cut(loc))],
                    None,
                )];
                complete.push(st(b::assign(
                    x.clone(),
                    bin(
                        BinOp::BitOr,
                        count.clone(),
                        bin(
                            BinOp::Shl,
                            bin(BinOp::Add, generation.clone(), int(1)),
                            int(GENERATION_SHIFT),
                        ),
                    ),
                    &tt,
                )));
                complete.extend(set(&lhs, -1));
                let mut wait = vec![];
                if let Some(l) = &lhs {
                    wait.push(st(b::assign(l.clone(), generation, &tt)));
                }
                wait.push(st(b::assign(
                    x.clone(),
                    bin(BinOp::Add, x, int(1 << ARRIVED_SHIFT)),
                    &tt,
                )));
                let enabled = bin(BinOp::Ne, count, int(0));
                vec![step(
                    vec![b::if_(last, complete, Some(wait))],
                    Some(enabled),
                )]
            }
            Action::BarrierLeave => {
                let mine = arg(1);
                let serial = bin(BinOp::Eq, mine.clone(), int(-1));
                let generation = barrier_generation(x, &tt);
                let enabled = bin_or(serial.clone(), bin(BinOp::Ne, generation, mine));
                let mut s = vec![];
                if let Some(l) = &lhs {
                    s.push(st(b::assign(
                        l.clone(),
                        b::cond(serial, int(BARRIER_SERIAL_THREAD), int(0), loc),
                        &tt,
                    )));
                }
                vec![step(s, Some(enabled))]
            }
            Action::OnceBegin => {
                // Blocks while another thread runs the routine; the first caller runs it.
                let enabled = bin(BinOp::Ne, x.clone(), int(1));
                let mut first = vec![st(b::assign(x.clone(), int(1), &tt))];
                first.extend(set(&lhs, 1));
                let s = vec![b::if_(bin(BinOp::Eq, x, int(0)), first, Some(set(&lhs, 0)))];
                vec![step(s, Some(enabled))]
            }
            Action::OnceEnd => {
                let mut s = vec![st(b::assign(x, int(2), &tt))];
                s.extend(set(&lhs, 0));
                vec![step(s, None)]
            }
            _ => vec![step(set(&lhs, 0), None)],
        }
    }

    /// `pthread_cond_wait` on a typed mutex: releases it keeping its type.
    pub(super) fn typed_release(&self, m: Expr) -> Expr {
        let tt = &self.b.prog.types;
        let kind = b::bin(BinOp::Shr, m.clone(), b::int(KIND_SHIFT));
        b::assign(m, b::bin(BinOp::Shl, kind, b::int(KIND_SHIFT)), tt)
    }

    /// `pthread_cond_wait` on a typed mutex: whether it is free to take back, and taking it.
    pub(super) fn typed_retake(&self, m: Expr) -> (Expr, Expr) {
        let tt = &self.b.prog.types;
        let free = b::bin(
            BinOp::Eq,
            b::bin(BinOp::BitAnd, m.clone(), b::int(OWNER_MASK)),
            b::int(0),
        );
        let me1 = b::int(i128::from(self.k) + 1);
        (free, b::assign(m.clone(), b::bin(BinOp::Add, m, me1), tt))
    }
}
