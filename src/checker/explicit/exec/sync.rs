//! Semaphores and read-write locks in the explorer. Their state is an `int` at the start
//! of the object itself (a semaphore's count; a read-write lock's readers, or -1 for a
//! writer, 0 when free), so states, fingerprints and canonical forms cover it with no
//! table of their own, and a zero-initialized object (`PTHREAD_RWLOCK_INITIALIZER`) is a
//! free lock. A barrier keeps three `int`s there: its count (0: no successful init, a
//! wait blocks for ever), the threads arrived in this cycle and the generation (cycles
//! completed); a `pthread_once` control its `int` (0 not started, 1 running, 2 done).

use super::{Cx, R, Stop, unsupported};
use crate::ir::known::{Known, MutexAttr, mutex_attr};
use crate::ir::{Expr, Loc, Type};

/// `EBUSY` on Linux.
use crate::ir::known::BARRIER_SERIAL_THREAD;
use crate::ir::known::errno::{EBUSY, EDEADLK, EINVAL, EPERM};

/// Where a barrier keeps its count, arrivals and generation, in its own bytes.
const ARRIVED_AT: i64 = 4;
const GENERATION_AT: i64 = 8;

impl Cx<'_, '_> {
    /// `known` is one of the semaphore or read-write lock calls.
    pub(super) fn sync_object(
        &mut self,
        known: Known,
        name: &str,
        args: &[Expr],
        loc: Loc,
    ) -> R<i128> {
        let Some(obj) = args.first() else {
            return unsupported(&format!("`{name}` without its object"), loc);
        };
        let p = self.eval_place_of_ptr(obj)?;
        let int = Type::int();
        let word = |cx: &mut Self| -> R<i128> { Ok(cx.load(p, &int, loc)?.v) };
        let set = |cx: &mut Self, v: i128| cx.store(p, &Type::int(), super::Val::int(v), loc);
        match known {
            Known::SemInit => {
                let Some(value) = args.get(2) else {
                    return unsupported("`sem_init` without its value", loc);
                };
                let v = self.eval(value)?;
                let v = self.convert(v, &Type::uint(), loc)?;
                set(self, v.v)?;
            }
            Known::RwInit => set(self, 0)?,
            Known::SemDestroy | Known::RwDestroy => {}
            Known::SemWait => {
                let v = word(self)?;
                if v <= 0 {
                    return Err(Stop::Blocked);
                }
                set(self, v - 1)?;
            }
            Known::SemTrywait => {
                let v = word(self)?;
                if v <= 0 {
                    // errno EAGAIN; seqloc refuses programs that read `errno`.
                    return Ok(-1);
                }
                set(self, v - 1)?;
            }
            Known::SemPost => {
                let v = word(self)?;
                set(self, v + 1)?;
            }
            Known::SemGetvalue => {
                let v = word(self)?;
                let Some(out) = args.get(1) else {
                    return unsupported("`sem_getvalue` without its result", loc);
                };
                let q = self.eval_place_of_ptr(out)?;
                self.store(q, &Type::int(), super::Val::int(v), loc)?;
            }
            Known::RwRdlock | Known::RwTryrdlock => {
                let v = word(self)?;
                if v < 0 {
                    return if known == Known::RwRdlock {
                        Err(Stop::Blocked)
                    } else {
                        Ok(EBUSY)
                    };
                }
                set(self, v + 1)?;
            }
            Known::RwWrlock | Known::RwTrywrlock => {
                let v = word(self)?;
                if v != 0 {
                    return if known == Known::RwWrlock {
                        Err(Stop::Blocked)
                    } else {
                        Ok(EBUSY)
                    };
                }
                set(self, -1)?;
            }
            Known::RwUnlock => {
                let v = word(self)?;
                set(self, if v > 0 { v - 1 } else { 0 })?;
            }
            Known::BarrierInit => {
                let Some(count) = args.get(2) else {
                    return unsupported("`pthread_barrier_init` without its count", loc);
                };
                let v = self.eval(count)?;
                let v = self.convert(v, &Type::uint(), loc)?.v;
                let valid = v != 0 && v <= i128::from(i32::MAX);
                set(self, if valid { v } else { 0 })?;
                self.store((p.0, p.1 + ARRIVED_AT), &int, super::Val::int(0), loc)?;
                self.store((p.0, p.1 + GENERATION_AT), &int, super::Val::int(0), loc)?;
                if !valid {
                    return Ok(EINVAL);
                }
            }
            Known::BarrierDestroy => {}
            Known::BarrierArrive => {
                let count = word(self)?;
                if count <= 0 {
                    return Err(Stop::Blocked);
                }
                let arrived = self.load((p.0, p.1 + ARRIVED_AT), &int, loc)?.v;
                let generation = self.load((p.0, p.1 + GENERATION_AT), &int, loc)?.v;
                if arrived + 1 < count {
                    let next = super::Val::int(arrived + 1);
                    self.store((p.0, p.1 + ARRIVED_AT), &int, next, loc)?;
                    return Ok(generation);
                }
                if generation >= i128::from(i32::MAX) {
                    return unsupported("a barrier completing 2^31 cycles", loc);
                }
                let next = super::Val::int(generation + 1);
                self.store((p.0, p.1 + ARRIVED_AT), &int, super::Val::int(0), loc)?;
                self.store((p.0, p.1 + GENERATION_AT), &int, next, loc)?;
                return Ok(-1);
            }
            Known::BarrierLeave => {
                let Some(mine) = args.get(1) else {
                    return unsupported("a barrier departure without its generation", loc);
                };
                let mine = self.eval(mine)?.v;
                if mine == -1 {
                    return Ok(BARRIER_SERIAL_THREAD);
                }
                let generation = self.load((p.0, p.1 + GENERATION_AT), &int, loc)?.v;
                if generation == mine {
                    return Err(Stop::Blocked);
                }
            }
            Known::OnceBegin => match word(self)? {
                0 => {
                    set(self, 1)?;
                    return Ok(1);
                }
                1 => return Err(Stop::Blocked),
                _ => {}
            },
            Known::OnceEnd => set(self, 2)?,
            _ => return unsupported(&format!("a call to `{name}`"), loc),
        }
        Ok(0)
    }
}

/// `PTHREAD_MUTEX_RECURSIVE` and `PTHREAD_MUTEX_ERRORCHECK` in glibc.
const RECURSIVE: i128 = 1;
const ERRORCHECK: i128 = 2;
/// Where a typed mutex keeps its type and its re-lock count, in its own bytes (its owner
/// is in `State::locks`, as for every mutex). A zero-initialized mutex is of the
/// default type.
const KIND_AT: i64 = 0;
const RELOCKS_AT: i64 = 4;

impl Cx<'_, '_> {
    fn mutex_word(&mut self, p: super::Place, at: i64, loc: Loc) -> R<i128> {
        Ok(self.load((p.0, p.1 + at), &Type::int(), loc)?.v)
    }

    pub(super) fn set_relocks(&mut self, p: super::Place, n: i128, loc: Loc) -> R<()> {
        self.store(
            (p.0, p.1 + RELOCKS_AT),
            &Type::int(),
            super::Val::int(n),
            loc,
        )
    }

    /// A mutex call in a program that sets mutex types.
    pub(super) fn typed_mutex(&mut self, known: Known, args: &[Expr], loc: Loc) -> R<i128> {
        let Some(m) = args.first() else {
            return unsupported("a mutex call without its mutex", loc);
        };
        let p = self.eval_place_of_ptr(m)?;
        let me = self.tid as u32;
        if known == Known::MutexInit {
            let mut kind = 0;
            if let Some(a) = args.get(1) {
                let v = self.eval(a)?;
                if v.truth() {
                    let q = self.ptr_place(v, loc)?;
                    kind = self.load(q, &Type::int(), loc)?.v;
                }
            }
            self.st.locks.remove(&p);
            self.store(
                (p.0, p.1 + KIND_AT),
                &Type::int(),
                super::Val::int(kind),
                loc,
            )?;
            self.set_relocks(p, 0, loc)?;
            return Ok(0);
        }
        let kind = self.mutex_word(p, KIND_AT, loc)?;
        let owner = self.st.locks.get(&p).copied();
        match known {
            Known::MutexLock | Known::MutexTrylock => match owner {
                None => {
                    self.st.locks.insert(p, me);
                    self.set_relocks(p, 0, loc)?;
                    Ok(0)
                }
                Some(o) if o == me && kind == RECURSIVE => {
                    let n = self.mutex_word(p, RELOCKS_AT, loc)?;
                    self.set_relocks(p, n + 1, loc)?;
                    Ok(0)
                }
                _ if known == Known::MutexTrylock => Ok(EBUSY),
                Some(o) if o == me && kind == ERRORCHECK => Ok(EDEADLK),
                _ => Err(Stop::Blocked),
            },
            _ => match owner {
                Some(o) if o == me => {
                    let n = self.mutex_word(p, RELOCKS_AT, loc)?;
                    if kind == RECURSIVE && n > 0 {
                        self.set_relocks(p, n - 1, loc)?;
                    } else {
                        self.st.locks.remove(&p);
                    }
                    Ok(0)
                }
                _ if kind == RECURSIVE || kind == ERRORCHECK => Ok(EPERM),
                // The default type's unlock of a free mutex violates the unlock property.
                None if self.m.unlocks => Err(Stop::Violation(loc)),
                // The default type's unlock by another thread is undefined; it frees
                // the mutex, as without types.
                _ => {
                    self.st.locks.remove(&p);
                    Ok(0)
                }
            },
        }
    }

    /// `pthread_mutexattr_*` in a program that sets mutex types: the attribute holds the
    /// type as an `int`.
    pub(super) fn mutex_attr(&mut self, name: &str, args: &[Expr], loc: Loc) -> R<i128> {
        let Some(a) = args.first() else {
            return unsupported(&format!("`{name}` without its attribute"), loc);
        };
        let p = self.eval_place_of_ptr(a)?;
        match mutex_attr(name) {
            Some(MutexAttr::Init) => {
                self.store(p, &Type::int(), super::Val::int(0), loc)?;
            }
            Some(MutexAttr::SetType) => {
                let Some(t) = args.get(1) else {
                    return unsupported("`pthread_mutexattr_settype` without a type", loc);
                };
                let v = self.eval(t)?;
                self.store(p, &Type::int(), super::Val::int(v.v), loc)?;
            }
            Some(MutexAttr::GetType) => {
                let Some(out) = args.get(1) else {
                    return unsupported("`pthread_mutexattr_gettype` without its result", loc);
                };
                let v = self.load(p, &Type::int(), loc)?;
                let q = self.eval_place_of_ptr(out)?;
                self.store(q, &Type::int(), v, loc)?;
            }
            Some(MutexAttr::Other) | None => {}
        }
        Ok(0)
    }
}
