//! Joins, detaches and the detach state a thread attribute carries, in the explorer.
//! A thread's state (`Detach`) lives in the thread itself; an attribute's, as in the
//! sequentializer, is an `int` at the start of the attribute object, and only in a
//! program that may detach a thread (`known::detaches`): elsewhere attributes change
//! nothing seqloc models.

use super::super::state::{Detach, Place, Status};
use super::{Cx, R, Stop, Val, unsupported};
use crate::ir::known::errno::{EDEADLK, EINVAL, ESRCH};
use crate::ir::known::{CREATE_DETACHED, ThreadAttr, thread_attr};
use crate::ir::{Expr, Loc, Type};

impl Cx<'_, '_> {
    /// `pthread_join(t, ret)`: waits for `t` to finish and takes its result, or answers at
    /// once with EDEADLK (itself) or EINVAL (a detached thread: glibc's answer, POSIX
    /// leaves it undefined; or one another join has begun on). In a program whose threads
    /// have detach states the join takes two steps, as in the sequentializer: it answers
    /// and begins (`Status::Joining`), then waits (`finish_join`).
    pub(super) fn join(&mut self, args: &[Expr], loc: Loc) -> R<Option<Val>> {
        let target = self.thread_arg(args, "pthread_join", loc)?;
        let ret = match args.get(1) {
            Some(a) => {
                let p = self.eval(a)?;
                match p.truth() {
                    true => Some(self.ptr_place(p, loc)?),
                    false => None,
                }
            }
            None => None,
        };
        let answer = if target == self.tid {
            // Linux returns EDEADLK at once (POSIX allows it); nothing is stored.
            Some(EDEADLK)
        } else if matches!(
            self.st.threads[target].detach,
            Detach::Detached | Detach::Joining
        ) {
            Some(EINVAL)
        } else {
            None
        };
        if self.m.detaches {
            if answer.is_none() {
                self.st.threads[target].detach = Detach::Joining;
            }
            self.st.threads[self.tid].status = Status::Joining {
                target: answer.is_none().then_some(target as u32),
                ret,
            };
            return Ok(Some(Val::int(answer.unwrap_or(0))));
        }
        if let Some(code) = answer {
            return Ok(Some(Val::int(code)));
        }
        let Status::Finished(v) = self.st.threads[target].status else {
            return Err(Stop::Blocked);
        };
        if let Some(place) = ret {
            self.store(place, &Type::void_ptr(), v, loc)?;
        }
        self.st.threads[target].detach = Detach::Joined;
        Ok(Some(Val::int(0)))
    }

    /// The second step of a join in progress: blocked until its thread has finished, then
    /// its result is stored.
    pub(super) fn finish_join(&mut self, target: Option<u32>, ret: Option<Place>) -> R<()> {
        if let Some(t) = target.map(|t| t as usize) {
            let Some(&Status::Finished(v)) = self.st.threads.get(t).map(|x| &x.status) else {
                return Err(Stop::Blocked);
            };
            if let Some(place) = ret {
                let loc = self.m.current_loc(self.st, self.tid);
                self.store(place, &Type::void_ptr(), v, loc)?;
            }
            if let Some(x) = self.st.threads.get_mut(t) {
                x.detach = Detach::Joined;
            }
        }
        self.st.threads[self.tid].status = Status::Running;
        Ok(())
    }

    /// `pthread_detach(t)`: EINVAL for a thread already detached, ESRCH for one already
    /// joined (glibc's answers); otherwise nobody may join `t` any more.
    pub(super) fn detach(&mut self, args: &[Expr], loc: Loc) -> R<Option<Val>> {
        let target = self.thread_arg(args, "pthread_detach", loc)?;
        let thread = &mut self.st.threads[target];
        Ok(Some(Val::int(match thread.detach {
            Detach::Joinable => {
                thread.detach = Detach::Detached;
                0
            }
            Detach::Detached => EINVAL,
            // A join has begun: glibc leaves the thread joinable and answers 0.
            Detach::Joining => 0,
            Detach::Joined => ESRCH,
        })))
    }

    /// The thread `name`'s first argument names.
    fn thread_arg(&mut self, args: &[Expr], name: &str, loc: Loc) -> R<usize> {
        let Some(handle) = args.first() else {
            return unsupported(&format!("`{name}` without its thread"), loc);
        };
        let t = self.eval(handle)?;
        match t.as_thread().filter(|i| *i < self.st.threads.len()) {
            Some(target) => Ok(target),
            None => unsupported(
                &format!("`{name}` of a thread id the explorer does not know"),
                loc,
            ),
        }
    }

    /// The detach state `pthread_create`'s attribute asks for (joinable without one).
    pub(super) fn created_detach(&mut self, attr: Option<&Expr>, loc: Loc) -> R<Detach> {
        let Some(a) = attr.filter(|_| self.m.detaches) else {
            return Ok(Detach::Joinable);
        };
        let p = self.eval(a)?;
        if !p.truth() {
            return Ok(Detach::Joinable);
        }
        let place = self.ptr_place(p, loc)?;
        let state = self.load(place, &Type::int(), loc)?;
        Ok(if state.v == CREATE_DETACHED {
            Detach::Detached
        } else {
            Detach::Joinable
        })
    }

    /// A `pthread_attr_*` call in a program that may detach a thread: the detach state
    /// is kept as the attribute's `int`; every other attribute changes nothing modelled.
    pub(super) fn thread_attr(&mut self, name: &str, args: &[Expr], loc: Loc) -> R<i128> {
        let Some(kind) = thread_attr(name).filter(|_| self.m.detaches) else {
            return Ok(0);
        };
        let Some(a) = args.first() else {
            return unsupported(&format!("`{name}` without its attribute"), loc);
        };
        let p = self.eval_place_of_ptr(a)?;
        match kind {
            ThreadAttr::Init => self.store(p, &Type::int(), Val::int(0), loc)?,
            ThreadAttr::SetDetachState => {
                let Some(v) = args.get(1) else {
                    return unsupported(&format!("`{name}` without a state"), loc);
                };
                let v = self.eval(v)?;
                self.store(p, &Type::int(), Val::int(v.v), loc)?;
            }
            ThreadAttr::GetDetachState => {
                let Some(out) = args.get(1) else {
                    return unsupported(&format!("`{name}` without its result"), loc);
                };
                let v = self.load(p, &Type::int(), loc)?;
                let q = self.eval_place_of_ptr(out)?;
                self.store(q, &Type::int(), v, loc)?;
            }
        }
        Ok(0)
    }
}

#[cfg(test)]
mod tests {
    use crate::checker::explicit::{ExploreOptions, Explored, explore};
    use crate::ir::types::DataModel;
    use crate::passes::Prepared;

    const PRELUDE: &str = "typedef unsigned long pthread_t; typedef union { char s[56]; long a; } pthread_attr_t;\
        extern int pthread_create(pthread_t *, const pthread_attr_t *, void *(*)(void *), void *);\
        extern int pthread_join(pthread_t, void **); extern int pthread_detach(pthread_t);\
        extern pthread_t pthread_self(void);\
        extern int pthread_attr_init(pthread_attr_t *);\
        extern int pthread_attr_setdetachstate(pthread_attr_t *, int);\
        extern int pthread_attr_getdetachstate(const pthread_attr_t *, int *);\
        extern void reach_error(void);\n\
        int done; void *w(void *a) { done = 1; return 0; }\n";

    /// Whether `main`'s body (after the prelude) can reach `reach_error`.
    fn fails(main: &str) -> bool {
        let text = format!("{PRELUDE}int main(void) {{ {main} return 0; }}");
        let prog = crate::frontend::load_text("t.c", &text, DataModel::Lp64).expect("parses");
        let prep = Prepared::new(prog);
        let opts = ExploreOptions {
            counting: false,
            ..ExploreOptions::default()
        };
        match explore(&prep.normalized, &prep.shared, &opts, None) {
            Explored::Violation { .. } => true,
            Explored::Safe(_) => false,
            other => panic!("{main}: {other:?}"),
        }
    }

    #[test]
    fn joins_and_detaches_answer_from_the_detach_state() {
        let t = "pthread_t t; pthread_create(&t, 0, w, 0);";
        // Detached: a second detach is EINVAL, a join EINVAL at once (it may not wait).
        assert!(!fails(&format!(
            "{t} if (pthread_detach(t) != 0 || pthread_detach(t) != 22) reach_error();"
        )));
        assert!(!fails(&format!(
            "{t} pthread_detach(t); if (pthread_join(t, 0) != 22) reach_error();"
        )));
        assert!(fails(&format!(
            "{t} pthread_detach(t); pthread_join(t, 0); if (!done) reach_error();"
        )));
        // Joined: a detach is ESRCH, and the join waited.
        assert!(!fails(&format!(
            "{t} if (pthread_join(t, 0) != 0 || !done || pthread_detach(t) != 3) reach_error();"
        )));
        // A thread that detaches itself: the join may come before (it waits) or after.
        let own = "pthread_t t; pthread_create(&t, 0, d, 0); int r = pthread_join(t, 0);";
        let d = "void *d(void *a) { pthread_detach(pthread_self()); done = 1; return 0; }";
        assert!(fails_with(d, &format!("{own} if (r == 22) reach_error();")));
        assert!(fails_with(d, &format!("{own} if (r == 0) reach_error();")));
        assert!(!fails_with(
            d,
            &format!("{own} if (r != 0 && r != 22) reach_error();")
        ));
    }

    /// `fails` with a function defined before `main`.
    fn fails_with(def: &str, main: &str) -> bool {
        let text = format!("{PRELUDE}{def}\nint main(void) {{ {main} return 0; }}");
        let prog = crate::frontend::load_text("t.c", &text, DataModel::Lp64).expect("parses");
        let prep = Prepared::new(prog);
        let opts = ExploreOptions {
            counting: false,
            ..ExploreOptions::default()
        };
        matches!(
            explore(&prep.normalized, &prep.shared, &opts, None),
            Explored::Violation { .. }
        )
    }

    #[test]
    fn an_attribute_carries_the_detach_state_to_the_creation() {
        let a = "pthread_attr_t a; pthread_attr_init(&a); int s = -1;";
        assert!(!fails(&format!(
            "{a} pthread_attr_setdetachstate(&a, 1); pthread_attr_getdetachstate(&a, &s);\
             pthread_t t; pthread_create(&t, &a, w, 0);\
             if (s != 1 || pthread_join(t, 0) != 22) reach_error();"
        )));
        assert!(!fails(&format!(
            "{a} pthread_attr_getdetachstate(&a, &s); pthread_t t; pthread_create(&t, &a, w, 0);\
             if (s != 0 || pthread_join(t, 0) != 0 || !done) reach_error();"
        )));
    }
}
