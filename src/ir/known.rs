//! The library functions seqloc gives a meaning to: the pthread API, the SV-COMP
//! primitives and the few C library calls the built-in checker models. Everything that
//! names these functions goes through [`classify`], so the list lives in one place.

use serde::Serialize;

#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize)]
#[serde(rename_all = "kebab-case")]
pub enum Known {
    // Threads.
    ThreadCreate,
    ThreadJoin,
    ThreadExit,
    ThreadSelf,
    ThreadEqual,
    ThreadDetach,
    // Mutexes.
    MutexInit,
    MutexLock,
    MutexTrylock,
    MutexUnlock,
    MutexDestroy,
    // Condition variables.
    CondInit,
    CondWait,
    CondTimedwait,
    CondSignal,
    CondBroadcast,
    CondDestroy,
    // Counting semaphores (`sem_t`): the count lives in the object itself.
    SemInit,
    SemWait,
    SemTrywait,
    SemPost,
    SemGetvalue,
    SemDestroy,
    // Read-write locks (`pthread_rwlock_t`): 0 free, n > 0 held by n readers, -1 by a
    // writer.
    RwInit,
    RwRdlock,
    RwWrlock,
    RwTryrdlock,
    RwTrywrlock,
    RwUnlock,
    RwDestroy,
    // Barriers (`pthread_barrier_t`): the front end lowers `pthread_barrier_wait` to an
    // arrival and a departure (`lower::sync`), so that each is one step that blocks or not.
    BarrierInit,
    /// The arrival at a barrier: -1 when it completes the cycle (this thread is the
    /// serial one), else the generation it arrived in.
    BarrierArrive,
    /// Blocks until the barrier's generation differs from the one given (the cycle
    /// completed); answers `PTHREAD_BARRIER_SERIAL_THREAD` for the serial thread, else 0.
    BarrierLeave,
    BarrierDestroy,
    // `pthread_once`, lowered by the front end to `if (begin(&o)) { fn(); end(&o); }`: the
    // control is 0 (not started), 1 (running), 2 (done).
    /// 0 → 1 answering 1 (run the routine); 2 answers 0; blocks at 1.
    OnceBegin,
    /// → 2.
    OnceEnd,
    /// `pthread_attr_*`, `pthread_mutexattr_*`, `pthread_condattr_*`: no effect.
    Attr,
    // Thread-specific data.
    KeyCreate,
    KeyDelete,
    GetSpecific,
    SetSpecific,
    // SV-COMP.
    Nondet,
    VerifierAssert,
    VerifierAssume,
    ReachError,
    AtomicBegin,
    AtomicEnd,
    // C library.
    /// `abort`, `exit`, `_Exit`, `pthread_exit` from main...: the process stops.
    Abort,
    /// `__assert_fail` and friends: what a failed `assert` calls. Named `assertion` where
    /// it is shown (`seqloc parse`): the user wrote an `assert`.
    #[serde(rename = "assertion")]
    AssertFail,
    Malloc,
    Calloc,
    Free,
    /// A pthread or C library facility seqloc does not model (named in the error).
    Unsupported,
    Other,
}

impl Known {
    pub fn is_pthread(self) -> bool {
        matches!(
            self,
            Known::ThreadCreate
                | Known::ThreadJoin
                | Known::ThreadExit
                | Known::ThreadSelf
                | Known::ThreadEqual
                | Known::ThreadDetach
                | Known::MutexInit
                | Known::MutexLock
                | Known::MutexTrylock
                | Known::MutexUnlock
                | Known::MutexDestroy
                | Known::CondInit
                | Known::CondWait
                | Known::CondTimedwait
                | Known::CondSignal
                | Known::CondBroadcast
                | Known::CondDestroy
                | Known::SemInit
                | Known::SemWait
                | Known::SemTrywait
                | Known::SemPost
                | Known::SemGetvalue
                | Known::SemDestroy
                | Known::RwInit
                | Known::RwRdlock
                | Known::RwWrlock
                | Known::RwTryrdlock
                | Known::RwTrywrlock
                | Known::RwUnlock
                | Known::RwDestroy
                | Known::BarrierInit
                | Known::BarrierArrive
                | Known::BarrierLeave
                | Known::BarrierDestroy
                | Known::OnceBegin
                | Known::OnceEnd
                | Known::Attr
                | Known::KeyCreate
                | Known::KeyDelete
                | Known::GetSpecific
                | Known::SetSpecific
        )
    }

    /// A call that may wait for another thread: every deadlock analysis and proof must
    /// count it.
    pub fn may_block(self) -> bool {
        matches!(
            self,
            Known::MutexLock
                | Known::ThreadJoin
                | Known::CondWait
                | Known::CondTimedwait
                | Known::SemWait
                | Known::RwRdlock
                | Known::RwWrlock
                | Known::BarrierArrive
                | Known::BarrierLeave
                | Known::OnceBegin
                | Known::Unsupported
        )
    }

    /// A barrier or `pthread_once` call: modelled by seqloc alone (the front end lowers
    /// `pthread_barrier_wait` and `pthread_once` to calls only seqloc knows).
    pub fn is_barrier_or_once(self) -> bool {
        matches!(
            self,
            Known::BarrierInit
                | Known::BarrierArrive
                | Known::BarrierLeave
                | Known::BarrierDestroy
                | Known::OnceBegin
                | Known::OnceEnd
        )
    }

    /// The name a user wrote for a call of this kind, where seqloc's own name differs
    /// (the lowered barrier waits and `pthread_once`).
    pub fn user_name(self) -> Option<&'static str> {
        match self {
            Known::BarrierArrive | Known::BarrierLeave => Some("pthread_barrier_wait"),
            Known::OnceBegin | Known::OnceEnd => Some("pthread_once"),
            _ => None,
        }
    }

    /// A semaphore or read-write-lock call: modelled by seqloc alone (the checkers' own
    /// libraries differ from POSIX there).
    pub fn is_semaphore_or_rwlock(self) -> bool {
        matches!(
            self,
            Known::SemInit
                | Known::SemWait
                | Known::SemTrywait
                | Known::SemPost
                | Known::SemGetvalue
                | Known::SemDestroy
                | Known::RwInit
                | Known::RwRdlock
                | Known::RwWrlock
                | Known::RwTryrdlock
                | Known::RwTrywrlock
                | Known::RwUnlock
                | Known::RwDestroy
        )
    }

    /// A call on a synchronization object whose first argument names the object only
    /// (its address does not escape into the program's memory).
    pub fn is_sync_object_op(self) -> bool {
        matches!(
            self,
            Known::MutexInit
                | Known::MutexLock
                | Known::MutexTrylock
                | Known::MutexUnlock
                | Known::MutexDestroy
                | Known::CondInit
                | Known::CondWait
                | Known::CondTimedwait
                | Known::CondSignal
                | Known::CondBroadcast
                | Known::CondDestroy
                | Known::SemInit
                | Known::SemWait
                | Known::SemTrywait
                | Known::SemPost
                | Known::SemGetvalue
                | Known::SemDestroy
                | Known::RwInit
                | Known::RwRdlock
                | Known::RwWrlock
                | Known::RwTryrdlock
                | Known::RwTrywrlock
                | Known::RwUnlock
                | Known::RwDestroy
                | Known::BarrierInit
                | Known::BarrierArrive
                | Known::BarrierLeave
                | Known::BarrierDestroy
                | Known::OnceBegin
                | Known::OnceEnd
        )
    }
}

/// The functions the front end lowers `pthread_barrier_wait` and `pthread_once` to (see
/// [`Known::BarrierArrive`], [`Known::OnceBegin`]): no program can name them.
pub const BARRIER_ARRIVE: &str = "__seqloc_barrier_arrive";
pub const BARRIER_LEAVE: &str = "__seqloc_barrier_leave";
pub const ONCE_BEGIN: &str = "__seqloc_once_begin";
pub const ONCE_END: &str = "__seqloc_once_end";
/// glibc's `PTHREAD_BARRIER_SERIAL_THREAD`.
pub const BARRIER_SERIAL_THREAD: i128 = -1;

/// The name a refusal gives a library function: the one the program's source wrote where
/// glibc's headers turn it into another (`setjmp` is `_setjmp`, `errno` reads
/// `__errno_location()`).
pub fn source_name(name: &str) -> &str {
    match name {
        "_setjmp" | "__sigsetjmp" | "sigsetjmp" => "setjmp",
        "_longjmp" | "siglongjmp" | "__longjmp_chk" => "longjmp",
        "__errno_location" => "errno",
        n => n,
    }
}

/// What a refusal calls a use of the library function `name`: `a call to `f`` (under its
/// source name), or `a use of `errno`` for the function glibc reads it through.
pub fn refused_call(name: &str) -> String {
    match source_name(name) {
        "errno" => "a use of `errno`".to_string(),
        n => format!("a call to `{n}`"),
    }
}

/// Why a call of the bodiless function `name` is refused (the README pointer follows it).
pub fn refusal_reason(name: &str) -> String {
    let facility = matches!(source_name(name), "setjmp" | "longjmp" | "errno")
        || classify(name) == Known::Unsupported;
    if is_gcc_atomic_builtin(name) {
        "a GCC atomic builtin seqloc does not model (it models loads, stores, exchanges, \
         compare-exchanges, fetch-and-op, test-and-set, clear and fences)"
            .into()
    } else if facility {
        "a pthread or C library facility seqloc does not model".into()
    } else {
        "a function the program does not define and seqloc does not model (it models the \
         pthread API, the SV-COMP primitives, malloc/calloc/realloc/free, memset/memcpy/memmove, \
         abort/exit, assert, errno, sleep/usleep/nanosleep, the clocks and rand, numbers read from `argv` with sscanf/atoi/strtol, \
         standard input read with scanf/fgets/getchar, strlen/strcmp/strncmp/strcpy/strncpy/\
         strcat, and sqrt/fabs)"
            .into()
    }
}

pub fn classify(name: &str) -> Known {
    match name {
        "pthread_create" => Known::ThreadCreate,
        "pthread_join" => Known::ThreadJoin,
        "pthread_exit" => Known::ThreadExit,
        "pthread_self" => Known::ThreadSelf,
        "pthread_equal" => Known::ThreadEqual,
        "pthread_detach" => Known::ThreadDetach,
        "pthread_mutex_init" => Known::MutexInit,
        "pthread_mutex_lock" => Known::MutexLock,
        "pthread_mutex_trylock" => Known::MutexTrylock,
        "pthread_mutex_unlock" => Known::MutexUnlock,
        "pthread_mutex_destroy" => Known::MutexDestroy,
        "pthread_cond_init" => Known::CondInit,
        "pthread_cond_wait" => Known::CondWait,
        "pthread_cond_timedwait" => Known::CondTimedwait,
        "pthread_cond_signal" => Known::CondSignal,
        "pthread_cond_broadcast" => Known::CondBroadcast,
        "pthread_cond_destroy" => Known::CondDestroy,
        // A spinlock is a default mutex that busy-waits instead of sleeping: the same
        // interleavings, the same deadlocks (a spin forever is a thread that never
        // proceeds), `EBUSY` from trylock.
        "pthread_spin_init" => Known::MutexInit,
        "pthread_spin_lock" => Known::MutexLock,
        "pthread_spin_trylock" => Known::MutexTrylock,
        "pthread_spin_unlock" => Known::MutexUnlock,
        "pthread_spin_destroy" => Known::MutexDestroy,
        "sem_init" => Known::SemInit,
        "sem_wait" => Known::SemWait,
        "sem_trywait" => Known::SemTrywait,
        "sem_post" => Known::SemPost,
        "sem_getvalue" => Known::SemGetvalue,
        "sem_destroy" => Known::SemDestroy,
        "pthread_rwlock_init" => Known::RwInit,
        "pthread_rwlock_rdlock" => Known::RwRdlock,
        "pthread_rwlock_wrlock" => Known::RwWrlock,
        "pthread_rwlock_tryrdlock" => Known::RwTryrdlock,
        "pthread_rwlock_trywrlock" => Known::RwTrywrlock,
        "pthread_rwlock_unlock" => Known::RwUnlock,
        "pthread_rwlock_destroy" => Known::RwDestroy,
        "pthread_barrier_init" => Known::BarrierInit,
        "pthread_barrier_destroy" => Known::BarrierDestroy,
        BARRIER_ARRIVE => Known::BarrierArrive,
        BARRIER_LEAVE => Known::BarrierLeave,
        ONCE_BEGIN => Known::OnceBegin,
        ONCE_END => Known::OnceEnd,
        // A barrier attribute holds only whether the barrier is process-shared, which
        // changes nothing within one process; `..._getpshared` (an output) stays refused.
        "pthread_barrierattr_init"
        | "pthread_barrierattr_destroy"
        | "pthread_barrierattr_setpshared" => Known::Attr,
        "pthread_key_create" => Known::KeyCreate,
        "pthread_key_delete" => Known::KeyDelete,
        "pthread_getspecific" => Known::GetSpecific,
        "pthread_setspecific" => Known::SetSpecific,
        // ESBMC's and CBMC's spellings: `__X_assert(cond, "message")` checks `cond`, the
        // message is only for their reports.
        "__VERIFIER_assert" | "__ESBMC_assert" | "__CPROVER_assert" => Known::VerifierAssert,
        "__VERIFIER_assume" | "assume_abort_if_not" | "__ESBMC_assume" | "__CPROVER_assume" => {
            Known::VerifierAssume
        }
        "reach_error" | "__VERIFIER_error" => Known::ReachError,
        "__VERIFIER_atomic_begin" | "__ESBMC_atomic_begin" | "__CPROVER_atomic_begin" => {
            Known::AtomicBegin
        }
        "__VERIFIER_atomic_end" | "__ESBMC_atomic_end" | "__CPROVER_atomic_end" => Known::AtomicEnd,
        "abort" | "exit" | "_exit" | "_Exit" => Known::Abort,
        "__assert_fail" | "__assert_perror_fail" | "__assert" | "__assert_rtn" => Known::AssertFail,
        "malloc" | "alloca" | "__builtin_alloca" => Known::Malloc,
        "calloc" => Known::Calloc,
        "free" => Known::Free,
        n if n.starts_with("__VERIFIER_nondet_") => Known::Nondet,
        // A robust mutex answers EOWNERDEAD when its owner ended holding it.
        "pthread_mutexattr_setrobust" | "pthread_mutexattr_setrobust_np" => Known::Unsupported,
        n if n.starts_with("pthread_attr_")
            || n.starts_with("pthread_mutexattr_")
            || n.starts_with("pthread_condattr_")
            || n == "pthread_setname_np"
            || n == "sched_yield"
            || n == "pthread_yield" =>
        {
            Known::Attr
        }
        n if n.starts_with("pthread_")
            || n.starts_with("sem_")
            || is_gcc_atomic_builtin(n)
            || n == "realloc"
            || n == "signal"
            || n == "raise"
            || n == "setjmp"
            || n == "longjmp" =>
        {
            Known::Unsupported
        }
        _ => Known::Other,
    }
}

/// The SV-COMP name of a function that is only declared, when the checkers' conventions
/// give it a meaning under another name: `nondet_int()`, `nondet_bool()`... (ESBMC and
/// CBMC: any `nondet_*` without a definition returns a nondeterministic value of its
/// return type) and `assert` called without `<assert.h>` (an implicit declaration).
/// Only bodiless functions are renamed: a program that defines its own `nondet_int`
/// keeps it.
pub fn dialect_alias(name: &str) -> Option<String> {
    match name {
        "assert" => Some("__VERIFIER_assert".into()),
        n if n.len() > "nondet_".len() && n.starts_with("nondet_") => {
            Some(format!("__VERIFIER_{n}"))
        }
        _ => None,
    }
}

/// What a `pthread_mutexattr_*` call does, for a program that sets mutex types (where
/// the attribute carries the type): `classify` calls them [`Known::Attr`], no effect (but
/// the robustness setters, which it refuses).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum MutexAttr {
    Init,
    SetType,
    GetType,
    /// Any other attribute (`pthread_mutexattr_destroy`, `..._setpshared`...).
    Other,
}

pub fn mutex_attr(name: &str) -> Option<MutexAttr> {
    match name {
        "pthread_mutexattr_init" => Some(MutexAttr::Init),
        "pthread_mutexattr_settype" => Some(MutexAttr::SetType),
        "pthread_mutexattr_gettype" => Some(MutexAttr::GetType),
        n if n.starts_with("pthread_mutexattr_") => Some(MutexAttr::Other),
        _ => None,
    }
}

/// What a `pthread_attr_*` call does to a thread's detach state, for a program whose
/// threads may be detached (`detaches`): the attribute then carries the state as an `int`
/// (`PTHREAD_CREATE_JOINABLE` 0, `PTHREAD_CREATE_DETACHED` 1, as in glibc and musl).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum ThreadAttr {
    Init,
    SetDetachState,
    GetDetachState,
}

pub fn thread_attr(name: &str) -> Option<ThreadAttr> {
    match name {
        "pthread_attr_init" => Some(ThreadAttr::Init),
        "pthread_attr_setdetachstate" => Some(ThreadAttr::SetDetachState),
        "pthread_attr_getdetachstate" => Some(ThreadAttr::GetDetachState),
        _ => None,
    }
}

/// `PTHREAD_CREATE_DETACHED` in glibc and musl.
pub const CREATE_DETACHED: i128 = 1;

/// Whether the program's threads have detach states to keep: it detaches a thread
/// (`pthread_detach`, or an attribute set to anything but a constant
/// `PTHREAD_CREATE_JOINABLE`), or reads an attribute's state back. Only then are the
/// states kept, which joins and detaches answer from (`EINVAL`, `ESRCH`).
pub fn detaches(prog: &crate::ir::Program) -> bool {
    any_call(prog, uses_detach_state)
}

/// Whether a call to `name` with `args` detaches a thread or reads a detach state (see
/// [`detaches`]).
pub fn uses_detach_state(name: &str, args: &[crate::ir::Expr]) -> bool {
    classify(name) == Known::ThreadDetach
        || thread_attr(name) == Some(ThreadAttr::GetDetachState)
        || (thread_attr(name) == Some(ThreadAttr::SetDetachState)
            && args.get(1).and_then(crate::ir::Expr::as_int) != Some(0))
}

/// Whether `pthread_mutexattr_settype(attr, type)` chooses a type other than
/// `PTHREAD_MUTEX_NORMAL` (= `PTHREAD_MUTEX_DEFAULT`, 0 in glibc): only a constant 0 is
/// known to keep the default.
pub fn sets_a_mutex_type(name: &str, args: &[crate::ir::Expr]) -> bool {
    mutex_attr(name) == Some(MutexAttr::SetType)
        && args.get(1).and_then(crate::ir::Expr::as_int) != Some(0)
}

/// Whether the program chooses a mutex type other than the default anywhere.
pub fn sets_mutex_type(prog: &crate::ir::Program) -> bool {
    any_call(prog, sets_a_mutex_type)
}

/// Whether some function of `prog` calls a function of kind `k`.
pub fn calls(prog: &crate::ir::Program, k: Known) -> bool {
    any_call(prog, |name, _| classify(name) == k)
}

/// Whether some direct call in `prog` satisfies `pred` (given the callee's name and the
/// arguments).
fn any_call(prog: &crate::ir::Program, pred: impl Fn(&str, &[crate::ir::Expr]) -> bool) -> bool {
    let mut found = false;
    for f in &prog.funcs {
        let Some(body) = &f.body else { continue };
        crate::ir::visit::each_expr(body, &mut |e| {
            if let crate::ir::ExprKind::Call(c, args) = &e.kind {
                if let crate::ir::ExprKind::Func(g) = c.peel().kind {
                    found |= pred(&prog.func(g).name, args);
                }
            }
        });
        if found {
            break;
        }
    }
    found
}

/// A spinlock call: `classify` models it as the mutex call of the same name, but the
/// checkers' own libraries and the typed-mutex model tell them apart.
pub fn is_spinlock_call(name: &str) -> bool {
    name.starts_with("pthread_spin_")
}

/// GCC's `__atomic_*` and `__sync_*` builtins: the front end lowers the ones seqloc
/// models; any left is refused by name.
pub fn is_gcc_atomic_builtin(name: &str) -> bool {
    name.starts_with("__atomic_") || name.starts_with("__sync_")
}

/// External functions with no effect on the program's state that seqloc accepts as
/// no-ops returning an unconstrained value (output, sleeping).
pub fn has_no_effect(name: &str) -> bool {
    writes_output(name) || matches!(name, "usleep" | "sleep")
}

/// The output functions seqloc accepts (their text is not kept).
pub fn writes_output(name: &str) -> bool {
    matches!(
        name,
        "printf" | "puts" | "putchar" | "fprintf" | "fflush" | "fputs" | "perror"
    )
}

/// `__VERIFIER_atomic_*` functions run atomically (SV-COMP convention), except the
/// begin/end markers themselves.
pub fn is_atomic_function(name: &str) -> bool {
    name.starts_with("__VERIFIER_atomic_")
        && name != "__VERIFIER_atomic_begin"
        && name != "__VERIFIER_atomic_end"
}

/// The typedef names of pthread synchronisation objects (Table II rewrites them).
pub fn sync_typedef(name: &str) -> Option<SyncKind> {
    match name {
        "pthread_mutex_t" | "pthread_spinlock_t" | "mtx_t" => Some(SyncKind::Mutex),
        "pthread_cond_t" | "cnd_t" => Some(SyncKind::Cond),
        "sem_t" => Some(SyncKind::Semaphore),
        "pthread_rwlock_t" => Some(SyncKind::RwLock),
        "pthread_barrier_t" => Some(SyncKind::Barrier),
        "pthread_once_t" | "once_flag" => Some(SyncKind::Once),
        _ => None,
    }
}

/// The typedef names of opaque handles: values the library hands out (a thread id, a key)
/// or keeps for itself (a once control), which a program may copy and compare but never
/// makes up. A different value of one is no repair a programmer could write.
pub fn handle_typedef(name: &str) -> bool {
    matches!(
        name,
        "pthread_t" | "thrd_t" | "pthread_key_t" | "tss_t" | "pthread_once_t" | "once_flag"
    )
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize)]
#[serde(rename_all = "kebab-case")]
pub enum SyncKind {
    Mutex,
    Cond,
    Semaphore,
    RwLock,
    Barrier,
    Once,
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn checker_dialects_mean_the_sv_comp_primitives() {
        for (name, k) in [
            ("__ESBMC_assert", Known::VerifierAssert),
            ("__CPROVER_assert", Known::VerifierAssert),
            ("__ESBMC_assume", Known::VerifierAssume),
            ("__CPROVER_assume", Known::VerifierAssume),
            ("__ESBMC_atomic_begin", Known::AtomicBegin),
            ("__CPROVER_atomic_begin", Known::AtomicBegin),
            ("__ESBMC_atomic_end", Known::AtomicEnd),
            ("__CPROVER_atomic_end", Known::AtomicEnd),
            ("__VERIFIER_nondet_ulong", Known::Nondet),
        ] {
            assert_eq!(classify(name), k, "{name}");
        }
        assert_eq!(
            dialect_alias("nondet_uint").as_deref(),
            Some("__VERIFIER_nondet_uint")
        );
        assert_eq!(
            dialect_alias("assert").as_deref(),
            Some("__VERIFIER_assert")
        );
        assert_eq!(dialect_alias("nondet_"), None);
        assert_eq!(dialect_alias("nondeterminism"), None);
    }

    #[test]
    fn barriers_and_once_are_modelled_and_their_lowering_blocks() {
        assert_eq!(classify("pthread_barrier_init"), Known::BarrierInit);
        assert_eq!(classify("pthread_barrier_destroy"), Known::BarrierDestroy);
        // The calls themselves are lowered by the front end; a call that is left (through
        // a pointer) stays refused.
        assert_eq!(classify("pthread_barrier_wait"), Known::Unsupported);
        assert_eq!(classify("pthread_once"), Known::Unsupported);
        assert_eq!(classify("pthread_barrierattr_setpshared"), Known::Attr);
        assert_eq!(
            classify("pthread_barrierattr_getpshared"),
            Known::Unsupported
        );
        for (name, user) in [
            (BARRIER_ARRIVE, "pthread_barrier_wait"),
            (BARRIER_LEAVE, "pthread_barrier_wait"),
            (ONCE_BEGIN, "pthread_once"),
            (ONCE_END, "pthread_once"),
        ] {
            let k = classify(name);
            assert!(k.is_barrier_or_once() && k.is_pthread(), "{name}");
            assert_eq!(k.user_name(), Some(user));
            assert!(crate::ir::internal::is_internal_name(name), "{name}");
        }
        assert!(classify(BARRIER_ARRIVE).may_block());
        assert!(classify(BARRIER_LEAVE).may_block());
        assert!(classify(ONCE_BEGIN).may_block());
        assert!(!classify(ONCE_END).may_block());
    }
}

/// The error numbers the modelled pthread calls return, as on Linux: one list for the
/// sequentializer and the explorer.
pub mod errno {
    pub const EPERM: i128 = 1;
    pub const ESRCH: i128 = 3;
    pub const EBUSY: i128 = 16;
    pub const EINVAL: i128 = 22;
    pub const EDEADLK: i128 = 35;
    pub const ETIMEDOUT: i128 = 110;
}
