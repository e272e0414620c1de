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
    /// `__assert_fail` and friends: what a failed `assert` calls.
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
                | Known::Attr
                | Known::KeyCreate
                | Known::KeyDelete
                | Known::GetSpecific
                | Known::SetSpecific
        )
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
            || n.starts_with("__atomic_")
            || n.starts_with("__sync_")
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
        "pthread_mutex_t" => Some(SyncKind::Mutex),
        "pthread_cond_t" => Some(SyncKind::Cond),
        _ => None,
    }
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize)]
#[serde(rename_all = "kebab-case")]
pub enum SyncKind {
    Mutex,
    Cond,
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
}
