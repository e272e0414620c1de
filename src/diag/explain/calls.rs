//! Where a statement stands in the program's own code: the calls that lead from one
//! function into another, the call in a thread's function that makes a statement of a
//! callee, whether a shared read decides a branch, and a step for a statement a run did
//! not make. The ranking's patterns ask these (`rootcause::rank`).

use super::Explainer;
use crate::ir::*;

impl Explainer<'_> {
    /// The functions that call the function with index `callee`, directly or through
    /// the program's own functions, and `callee` itself (a fixed point over the calls).
    pub(super) fn reaching(&self, callee: usize) -> std::collections::HashSet<usize> {
        let mut reaches: std::collections::HashSet<usize> = [callee].into();
        loop {
            let before = reaches.len();
            for (fi, f) in self.normalized.funcs.iter().enumerate() {
                if !reaches.contains(&fi)
                    && f.body.as_ref().is_some_and(|b| calls_into(b, &reaches))
                {
                    reaches.insert(fi);
                }
            }
            if reaches.len() == before {
                return reaches;
            }
        }
    }

    /// The function of `inner` is called, directly, from a function other than
    /// `caller`'s: a helper that has other callers, which may not hold its lock.
    pub(crate) fn called_elsewhere(&self, inner: StmtId, caller: StmtId) -> bool {
        let (Some(g), Some(f)) = (self.function_of(inner), self.function_of(caller)) else {
            return false;
        };
        let set: std::collections::HashSet<usize> = [g].into();
        self.normalized.funcs.iter().enumerate().any(|(fi, func)| {
            fi != f && fi != g && func.body.as_ref().is_some_and(|b| calls_into(b, &set))
        })
    }

    /// `s` calls a function of the program that joins a thread (directly or through
    /// others): `joins` tells a statement that joins.
    pub(crate) fn calls_a_joiner(&self, s: &Stmt, joins: &dyn Fn(&Stmt) -> bool) -> bool {
        let mut joiners = std::collections::HashSet::new();
        for (fi, f) in self.normalized.funcs.iter().enumerate() {
            let Some(body) = &f.body else { continue };
            let mut found = false;
            crate::ir::visit::each_stmt(body, &mut |x| {
                found |= !matches!(x.kind, StmtKind::Block(_)) && joins(x);
            });
            if found {
                joiners.extend(self.reaching(fi));
            }
        }
        if let Some(own) = self.function_of(s.id) {
            joiners.remove(&own);
        }
        !joiners.is_empty() && calls_into(s, &joiners)
    }

    /// `name` (as an access is named) is a global of a C11 `_Atomic` type
    /// (`atomic_int`, `_Atomic long`): one made to be accessed without a lock.
    pub(crate) fn is_atomic_global(&self, name: &str) -> bool {
        let prog = self.normalized;
        prog.vars.iter().any(|v| {
            v.kind == VarKind::Global && v.shown_name() == name && v.ty.quals(&prog.types).atomic
        })
    }

    /// The call that made `step`: the thread's last earlier step of the trace that calls
    /// the step's function (directly or through the program's own functions) from
    /// another function — the helper's call site in its caller. `None` when the step is
    /// made by the thread's function itself, and when the step's runs in the trace sit
    /// under different calls (a helper called from two places): which one to name is
    /// then not clear.
    pub(crate) fn outer_call(&self, step: &crate::cex::TraceStep) -> Option<crate::cex::TraceStep> {
        let steps = &self.cex.steps;
        let mut found: Option<crate::cex::TraceStep> = None;
        let mut any = false;
        for (at, s) in steps.iter().enumerate() {
            if s.thread != step.thread || s.sid != step.sid {
                continue;
            }
            any = true;
            let mut call: Option<&crate::cex::TraceStep> = None;
            for p in steps[..at].iter().rev().filter(|p| p.thread == step.thread) {
                if self.calls_toward(p.sid, s.sid) {
                    call = Some(p);
                    break;
                }
            }
            match (&found, call) {
                (_, None) => return None,
                (None, Some(c)) => found = Some(c.clone()),
                (Some(f), Some(c)) if f.sid == c.sid => {}
                _ => return None,
            }
        }
        found.filter(|_| any)
    }

    /// The statement `sid` calls the function of `target` (directly or through the
    /// program's own functions), which is another function than its own: `sid` is where
    /// `target`'s step shows in its caller's code.
    pub(crate) fn calls_toward(&self, sid: StmtId, target: StmtId) -> bool {
        let (Some(caller), Some(callee)) = (self.function_of(sid), self.function_of(target)) else {
            return false;
        };
        caller != callee
            && self
                .stmts
                .get(&sid)
                .is_some_and(|s| calls_into(s, &self.reaching(callee)))
    }

    /// The first simple statement after `after`, in `after`'s function, that calls the
    /// function of `target` directly or through the program's own functions: where a
    /// statement made inside a call shows in the caller's code. `None` when both are in
    /// one function or no such call follows.
    pub(crate) fn call_towards(&self, after: StmtId, target: StmtId) -> Option<Stmt> {
        let caller = self.function_of(after)?;
        let callee = self.function_of(target)?;
        if caller == callee {
            return None;
        }
        let reaches = self.reaching(callee);
        let body = self.normalized.funcs.get(caller)?.body.as_ref()?;
        let mut seen_after = false;
        let mut found: Option<Stmt> = None;
        crate::ir::visit::each_stmt(body, &mut |s| {
            if found.is_some() {
                return;
            }
            if s.id == after {
                seen_after = true;
                return;
            }
            let simple = is_simple(s);
            if seen_after && simple && calls_into(s, &reaches) {
                found = Some(s.clone());
            }
        });
        found
    }

    /// The last simple statement before `before`, in `before`'s function, that calls the
    /// function of `target` directly or through the program's own functions: the call a
    /// statement made inside it came from, when the call ran no step of its own (a call
    /// with no arguments binds nothing). `None` when both are in one function.
    pub(crate) fn call_before(&self, before: StmtId, target: StmtId) -> Option<Stmt> {
        let caller = self.function_of(before)?;
        let callee = self.function_of(target)?;
        if caller == callee {
            return None;
        }
        let reaches = self.reaching(callee);
        let body = self.normalized.funcs.get(caller)?.body.as_ref()?;
        let mut reached = false;
        let mut found: Option<Stmt> = None;
        crate::ir::visit::each_stmt(body, &mut |s| {
            if reached || s.id == before {
                reached = true;
                return;
            }
            let simple = is_simple(s);
            if simple && calls_into(s, &reaches) {
                found = Some(s.clone());
            }
        });
        found.filter(|_| reached)
    }

    /// A region that ends inside one call and goes on inside the next (`issue(); log();`,
    /// neither call running a step of its own): in a function on `thread`'s path, the
    /// last simple statement calling toward `first`'s function before the first one
    /// calling toward `then`'s, two different statements. `None` when the two are in one
    /// function or no function the thread runs makes the two calls apart.
    pub(crate) fn sibling_calls(
        &self,
        thread: u32,
        first: StmtId,
        then: StmtId,
    ) -> Option<(Stmt, Stmt)> {
        let (fa, fb) = (self.function_of(first)?, self.function_of(then)?);
        if fa == fb {
            return None;
        }
        let entry = self.thread_ref(thread).function;
        let entry = self.normalized.funcs.iter().position(|f| f.name == entry)?;
        let (ra, rb) = (self.reaching(fa), self.reaching(fb));
        for g in ra.intersection(&rb) {
            if *g == fa || *g == fb || !self.reaching(*g).contains(&entry) {
                continue;
            }
            let Some(body) = self.normalized.funcs.get(*g).and_then(|f| f.body.as_ref()) else {
                continue;
            };
            let mut last_a: Option<Stmt> = None;
            let mut found: Option<(Stmt, Stmt)> = None;
            crate::ir::visit::each_stmt(body, &mut |s| {
                let simple = is_simple(s);
                if found.is_some() || !simple {
                    return;
                }
                let (to_a, to_b) = (calls_into(s, &ra), calls_into(s, &rb));
                if to_a && to_b {
                    return;
                }
                if to_b {
                    if let Some(a) = last_a.take() {
                        found = Some((a, s.clone()));
                    }
                } else if to_a {
                    last_a = Some(s.clone());
                }
            });
            if found.is_some() {
                return found;
            }
        }
        None
    }

    /// A branch (`if`, a loop, `switch`) is on the line of `sid`: a shared read there
    /// decides the control flow (normalization moves the read into a temporary just
    /// before the test, on the same line). So does a read copied into a local that its
    /// function returns, when a call of that function is on a branch's line
    /// (`r = ready; ... return r;` under `if (is_ready())`).
    pub(crate) fn read_decides(&self, sid: StmtId) -> bool {
        self.branch_beside(sid) || self.returned_to_a_branch(sid)
    }

    /// The branch on the line of test `test` (see `read_decides`) encloses statement
    /// `read`, or a call toward its function: whether `read` runs depends on the test
    /// (`if (d->posted) { .. d->minutes .. }`), rather than coming after it whatever it
    /// decided (a loop over a list, then a check of its size).
    pub(crate) fn test_guards(&self, test: StmtId, read: StmtId) -> bool {
        let Some(at) = self
            .stmts
            .get(&test)
            .and_then(|s| self.normalized.sources.position(s.loc))
        else {
            return false;
        };
        let f = self.function_of(test);
        self.stmts.iter().any(|(id, s)| {
            let inner: Vec<&Stmt> = match &s.kind {
                StmtKind::If { then, els, .. } => {
                    std::iter::once(&**then).chain(els.as_deref()).collect()
                }
                StmtKind::While { body, .. }
                | StmtKind::DoWhile { body, .. }
                | StmtKind::For { body, .. }
                | StmtKind::Switch { body, .. } => vec![&**body],
                _ => return false,
            };
            let here = self.function_of(*id) == f
                && self
                    .normalized
                    .sources
                    .position(s.loc)
                    .is_some_and(|p| p.line == at.line && p.file == at.file);
            here && inner.iter().any(|b| {
                let mut hit = false;
                crate::ir::visit::each_stmt(b, &mut |x| {
                    hit |= x.id == read || self.calls_toward(x.id, read);
                });
                hit
            })
        })
    }

    fn branch_beside(&self, sid: StmtId) -> bool {
        let Some(at) = self
            .stmts
            .get(&sid)
            .and_then(|s| self.normalized.sources.position(s.loc))
        else {
            return false;
        };
        let f = self.function_of(sid);
        self.stmts.iter().any(|(id, s)| {
            matches!(
                s.kind,
                StmtKind::If { .. }
                    | StmtKind::While { .. }
                    | StmtKind::DoWhile { .. }
                    | StmtKind::For { .. }
                    | StmtKind::Switch { .. }
            ) && self.function_of(*id) == f
                && self
                    .normalized
                    .sources
                    .position(s.loc)
                    .is_some_and(|p| p.line == at.line && p.file == at.file)
        })
    }

    fn returned_to_a_branch(&self, sid: StmtId) -> bool {
        let Some(s) = self.stmts.get(&sid) else {
            return false;
        };
        let local = match &s.kind {
            StmtKind::Decl { var, init: Some(_) } => *var,
            StmtKind::Expr(e) => match &e.kind {
                ExprKind::Assign(l, _) => match l.peel().kind {
                    ExprKind::Var(v) => v,
                    _ => return false,
                },
                _ => return false,
            },
            _ => return false,
        };
        if self.normalized.var(local).kind == VarKind::Global {
            return false;
        }
        let Some(f) = self.function_of(sid) else {
            return false;
        };
        let returns_it = self
            .normalized
            .funcs
            .get(f)
            .and_then(|f| f.body.as_ref())
            .is_some_and(|b| {
                let mut hit = false;
                crate::ir::visit::each_stmt(b, &mut |st| {
                    if let StmtKind::Return(Some(e)) = &st.kind {
                        hit |= matches!(e.peel().kind, ExprKind::Var(v) if v == local);
                    }
                });
                hit
            });
        if !returns_it {
            return false;
        }
        let callee: std::collections::HashSet<usize> = [f].into();
        self.stmts.iter().any(|(id, st)| match &st.kind {
            StmtKind::Expr(_) | StmtKind::Decl { .. } => {
                calls_into(st, &callee) && self.branch_beside(*id)
            }
            StmtKind::If { cond, .. }
            | StmtKind::While { cond, .. }
            | StmtKind::DoWhile { cond, .. }
            | StmtKind::Switch { cond, .. } => {
                let mut hit = false;
                crate::ir::visit::each_subexpr(cond, &mut |e| {
                    if let ExprKind::Call(g, _) = &e.kind
                        && let ExprKind::Func(fid) = g.peel().kind
                    {
                        hit |= fid.0 as usize == f;
                    }
                });
                hit
            }
            _ => false,
        })
    }

    /// The function of `sid` tests one of `vars`, takes `lock`, and tests it again (the
    /// double-checked idiom, `if (!init) { lock(m); if (!init) ... }`): its accesses
    /// without `lock` are the intended fast path, not a lock forgotten. Lines as the
    /// source has them; `None` when the function does not read that way.
    pub(crate) fn double_checked(&self, sid: StmtId, vars: &[String], lock: &str) -> Option<u32> {
        let f = self.function_of(sid)?;
        let line = |s: &Stmt| self.normalized.sources.position(s.loc).map(|p| p.line);
        let mine = || {
            self.stmts
                .iter()
                .filter(move |(id, _)| self.function_of(**id) == Some(f))
        };
        let locked = mine()
            .filter(|(_, s)| {
                self.lock_call(s).is_some_and(|(name, obj)| {
                    obj == lock && (name == "pthread_mutex_lock" || name == "pthread_spin_lock")
                })
            })
            .filter_map(|(_, s)| line(s))
            .min()?;
        let tests: Vec<u32> = mine()
            .filter(|(id, _)| {
                self.stmt_access(**id)
                    .is_some_and(|(reads, _)| reads.iter().any(|r| vars.contains(r)))
                    && self.read_decides(**id)
            })
            .filter_map(|(_, s)| line(s))
            .collect();
        let again = tests.iter().copied().filter(|l| *l > locked).min()?;
        tests.iter().any(|l| *l < locked).then_some(again)
    }

    /// A step of `thread` at statement `sid`, for naming a statement the run did not make.
    pub(crate) fn step_at(&self, thread: u32, sid: StmtId) -> Option<crate::cex::TraceStep> {
        let st = self.stmts.get(&sid)?;
        let pos = self.normalized.sources.position(st.loc)?;
        Some(crate::cex::TraceStep {
            thread,
            loc: st.loc,
            sid,
            file: pos.file.to_string(),
            line: pos.line,
            statement: String::new(),
            writes: vec![],
        })
    }
}

/// `s` (with the statements inside it) calls one of the functions with indices `set`.
/// A statement that is no block and no branch: where a call shows in its caller's code.
fn is_simple(s: &Stmt) -> bool {
    matches!(
        s.kind,
        StmtKind::Expr(_) | StmtKind::Decl { .. } | StmtKind::Return(_)
    )
}

fn calls_into(s: &Stmt, set: &std::collections::HashSet<usize>) -> bool {
    let mut hit = false;
    crate::ir::visit::each_expr(s, &mut |e| {
        if let ExprKind::Call(f, _) = &e.kind {
            if let ExprKind::Func(fid) = f.peel().kind {
                hit |= set.contains(&(fid.0 as usize));
            }
        }
    });
    hit
}
