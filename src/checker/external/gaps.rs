//! What ESBMC and CBMC do not model as POSIX does. The program they search keeps its
//! pthread calls, which they run on their own library models: ESBMC 8.4 has no body for
//! `sem_trywait`, CBMC 6.6 none for `pthread_spin_init`, and CBMC's `sem_wait` does not
//! block at 0; neither knows mutex types, and neither answers a join of a detached thread
//! (it waits) or a second detach (it succeeds) as glibc does. Barriers and `pthread_once` are refused with
//! them: the front end lowers their waits to seqloc's own calls (`lower::sync`), which
//! the checkers' libraries cannot know. Their "no failure" would then be no answer, and
//! their counterexamples are not safe either: the replay that validates one takes a
//! thread that blocks where the trace let it run to its end as having ended, and the
//! non-deadlock rules drop joins, so a trace through a `sem_wait` that should have
//! blocked replayed as an assertion failure of a correct program. Such programs are
//! refused for the external search (the sequential programs of localization are
//! seqloc's own and stay available through `--schedule`).

use crate::ir::known::{classify, is_spinlock_call, sets_a_mutex_type, uses_detach_state};
use crate::ir::{ExprKind, Loc, Program};

/// The first call of a synchronization primitive the external checkers do not model
/// faithfully: its name and where it is.
pub fn unmodelled_sync(prog: &Program) -> Option<(String, Loc)> {
    let mut found: Option<(String, Loc)> = None;
    for f in &prog.funcs {
        let Some(body) = &f.body else { continue };
        crate::ir::visit::each_expr(body, &mut |e| {
            if found.is_some() {
                return;
            }
            let ExprKind::Call(c, args) = &e.kind else {
                return;
            };
            let ExprKind::Func(g) = c.peel().kind else {
                return;
            };
            let name = &prog.func(g).name;
            let k = classify(name);
            let sem_or_rw = k.is_semaphore_or_rwlock();
            if sem_or_rw
                || sets_a_mutex_type(name, args)
                || is_spinlock_call(name)
                || uses_detach_state(name, args)
            {
                found = Some((name.clone(), e.loc));
            }
            // Barrier waits and `pthread_once` are lowered to calls only seqloc knows.
            if k.is_barrier_or_once() {
                let shown = k.user_name().unwrap_or(name.as_str());
                found = Some((shown.to_string(), e.loc));
            }
        });
        if found.is_some() {
            break;
        }
    }
    found
}
