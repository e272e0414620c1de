//! Thread-local storage in the explorer: `_Thread_local`/`__thread` variables and
//! `pthread_key_*` values. Each thread owns its objects (`Thread::tls`, by slot): one per
//! thread-local variable, made on the thread's first access and initialized as the
//! variable's static initializer says, and one holding the thread's value of every key,
//! a pointer per key. Being objects, they are part of the state, its fingerprint and its
//! canonical form like any other memory; a pointer to a thread's own copy that another
//! thread reads reaches the same object, as in C.
//!
//! Keys are numbered from 0 in creation order (`State::keys`, which keeps each key's
//! destructor), as glibc gives them out. When a thread ends (its start routine returns or
//! it calls `pthread_exit`; not when the process ends), each key's destructor is called in
//! it for each non-NULL value, the value set to NULL first, as POSIX says: the thread runs
//! the destructor's frame like any call, and finishes with its own result once none is
//! left (`Thread::exiting` keeps the result meanwhile). The front end lets through only
//! destructors that free their value and touch nothing else
//! (`frontend::lower::key_destructors`), so one pass over the keys is all POSIX's
//! repetition would do.

use super::{Cx, FUNC_BASE, R, Val, unsupported};
use crate::checker::explicit::state::{Obj, Status};
use crate::ir::known::Known;
use crate::ir::known::errno::EINVAL;
use crate::ir::{Expr, FuncId, Loc, Type, VarId};

/// The slot of the keys' values among a thread's own objects (variables use their id).
const KEYS_SLOT: u32 = u32::MAX;
/// Keys the explorer gives out; more make it give up (glibc's `PTHREAD_KEYS_MAX` is 1024).
pub(super) const MAX_KEYS: u32 = 64;

impl Cx<'_, '_> {
    /// The current thread's object for `slot`, made by `make` when it has none yet.
    fn own_object(&mut self, slot: u32, make: impl FnOnce(&mut Self) -> R<u32>) -> R<u32> {
        let tls = &self.st.threads[self.tid].tls;
        match tls.binary_search_by_key(&slot, |(s, _)| *s) {
            Ok(i) => Ok(tls[i].1),
            Err(i) => {
                let o = make(self)?;
                self.st.threads[self.tid].tls.insert(i, (slot, o));
                Ok(o)
            }
        }
    }

    /// The current thread's copy of thread-local variable `v`.
    pub(super) fn thread_local(&mut self, v: VarId, loc: Loc) -> R<u32> {
        self.own_object(v.0, |cx| {
            let var = cx.m.prog.var(v);
            let (ty, init) = (var.ty.clone(), var.init.clone());
            let size = cx.m.size(&ty, loc)?;
            // Static storage: zero unless its initializer says otherwise.
            let o = cx.st.alloc(Obj::new(size as usize, false, true));
            if let Some(init) = &init {
                cx.init(&ty, (o, 0), init, loc)?;
            }
            Ok(o)
        })
    }

    /// `pthread_key_create`, `pthread_key_delete`, `pthread_getspecific`,
    /// `pthread_setspecific`.
    pub(super) fn key_call(&mut self, known: Known, args: &[Expr], loc: Loc) -> R<Option<Val>> {
        let arg = |i: usize| -> R<&Expr> {
            match args.get(i) {
                Some(a) => Ok(a),
                None => unsupported("a key call with too few arguments", loc),
            }
        };
        let pw = self.m.dm.pointer_bytes() as i64;
        let valid = |cx: &Self, k: i128| (0..cx.st.keys.len() as i128).contains(&k);
        match known {
            Known::KeyCreate => {
                let d = self.eval(arg(1)?)?;
                // 0: none; else the destructor's function id + 1.
                let destructor = match d {
                    _ if !d.truth() => 0,
                    Val { v: 0, prov } if prov >= FUNC_BASE => prov - FUNC_BASE + 1,
                    _ => return unsupported("a key destructor that is not a function", loc),
                };
                let k = self.st.keys.len() as u32;
                if k >= MAX_KEYS {
                    return unsupported(&format!("more than {MAX_KEYS} thread-specific keys"), loc);
                }
                self.st.keys.push(destructor);
                let p = self.eval_place_of_ptr(arg(0)?)?;
                let ty = arg(0)?
                    .ty
                    .pointee(self.tt())
                    .cloned()
                    .unwrap_or(Type::uint());
                self.store(p, &ty, Val::int(i128::from(k)), loc)?;
                Ok(Some(Val::int(0)))
            }
            Known::KeyDelete => {
                let k = self.eval(arg(0)?)?.v;
                Ok(Some(Val::int(if valid(self, k) { 0 } else { EINVAL })))
            }
            Known::GetSpecific => {
                let k = self.eval(arg(0)?)?.v;
                let tls = &self.st.threads[self.tid].tls;
                let own = tls
                    .binary_search_by_key(&KEYS_SLOT, |(s, _)| *s)
                    .ok()
                    .map(|i| tls[i].1);
                match own {
                    Some(o) if valid(self, k) => self
                        .load((o, k as i64 * pw), &Type::void_ptr(), loc)
                        .map(Some),
                    _ => Ok(Some(Val::int(0))),
                }
            }
            Known::SetSpecific => {
                let k = self.eval(arg(0)?)?.v;
                let v = self.eval(arg(1)?)?;
                if !valid(self, k) {
                    return Ok(Some(Val::int(EINVAL)));
                }
                let o = self.own_object(KEYS_SLOT, |cx| {
                    Ok(cx
                        .st
                        .alloc(Obj::new((MAX_KEYS as i64 * pw) as usize, false, true)))
                })?;
                let v = self.convert(v, &Type::void_ptr(), loc)?;
                self.store((o, k as i64 * pw), &Type::void_ptr(), v, loc)?;
                Ok(Some(Val::int(0)))
            }
            _ => unsupported("a call that is not a key call", loc),
        }
    }

    /// Ends the current thread with result `v`, after running the destructors of its
    /// non-NULL key values (see the module comment).
    pub(super) fn finish_thread(&mut self, v: Val, loc: Loc) -> R<()> {
        let tid = self.tid;
        let result = self.st.threads[tid].exiting.take().unwrap_or(v);
        if !self.st.exited {
            if let Some((d, value)) = self.next_destructor(loc)? {
                self.st.threads[tid].exiting = Some(result);
                let frame = self.entry_frame(d, value, loc)?;
                self.st.threads[tid].frames.push(frame);
                return Ok(());
            }
        }
        self.st.threads[tid].status = Status::Finished(result);
        Ok(())
    }

    /// The next destructor to run in the current thread and the value it is given (set
    /// to NULL in the thread's slot), if any is left.
    fn next_destructor(&mut self, loc: Loc) -> R<Option<(FuncId, Val)>> {
        let tls = &self.st.threads[self.tid].tls;
        let Some(own) = tls
            .binary_search_by_key(&KEYS_SLOT, |(s, _)| *s)
            .ok()
            .map(|i| tls[i].1)
        else {
            return Ok(None);
        };
        let pw = self.m.dm.pointer_bytes() as i64;
        let ptr = Type::void_ptr();
        for (k, d) in self.st.keys.clone().into_iter().enumerate() {
            if d == 0 {
                continue;
            }
            let at = (own, k as i64 * pw);
            let value = self.load(at, &ptr, loc)?;
            if value.truth() {
                self.store(at, &ptr, Val::int(0), loc)?;
                return Ok(Some((FuncId(d - 1), value)));
            }
        }
        Ok(None)
    }
}
