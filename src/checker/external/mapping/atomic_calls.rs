//! Calls of SV-COMP's `__VERIFIER_atomic_*` functions in a trace whose local steps have
//! no place (CBMC's, read with [`super::Boundary::SharedSteps`]).
//!
//! seqloc runs such a call as one step: the call statement with its whole body. CBMC
//! makes the body atomic from its entry, after the arguments are bound, and its
//! partial-order trace shows the call's own steps (the `function-call`, the parameter
//! bindings, the assignment of the result) anywhere among the thread's other local steps:
//! a reading by shared steps alone then ends a run between the call and its body, or
//! counts the call statement twice, and the schedule does not replay. What has a place is
//! the body's shared accesses; so each invocation is placed as one execution of its call
//! statement, where its first shared access is, and the call statement's own steps are
//! not placed.
//!
//! The call statement is known only when the function is called from one statement of the
//! program; otherwise the steps are left as they are (the replay then decides, and a
//! reading that does not replay is not used).

use std::collections::{HashMap, HashSet};

use super::{Exec, Visibility};
use crate::ir::{ExprKind, FuncId, Program, StmtId};
use crate::seq::schedule::StmtIndex;

/// The executions that place the runs: the shared steps, with each atomic function's
/// invocation as one execution of its call statement.
pub(super) fn placed(
    execs: &[Exec],
    prog: &Program,
    index: &StmtIndex,
    visible: &Visibility,
) -> Vec<Exec> {
    let shared = |e: &&Exec| visible.switches.contains(&e.sid);
    let Some(sites) = call_sites(prog) else {
        return execs.iter().filter(shared).cloned().collect();
    };
    let in_atomic = |e: &Exec| {
        index
            .get(e.sid)
            .map(|x| x.func)
            .filter(|f| sites.contains_key(f))
    };
    let calls: HashSet<StmtId> = sites.values().map(|(sid, _)| *sid).collect();
    // Each thread's open invocation: the atomic function its last placed step was in.
    let mut open: HashMap<u32, FuncId> = HashMap::new();
    let mut out = Vec::new();
    for e in execs.iter().filter(shared) {
        if let Some(f) = in_atomic(e) {
            if open.get(&e.thread) != Some(&f) {
                open.insert(e.thread, f);
                if let Some((sid, loc)) = sites.get(&f) {
                    out.push(Exec {
                        thread: e.thread,
                        sid: *sid,
                        loc: *loc,
                        writes: vec![],
                        called: true,
                    });
                }
            }
            continue;
        }
        if calls.contains(&e.sid) {
            continue;
        }
        open.remove(&e.thread);
        out.push(e.clone());
    }
    out
}

/// Each atomic function with a body and its one call statement (`f(x);`, `v = f(x);`,
/// `T v = f(x);`, the only calls the normalized program has); `None` when one of them is
/// called from several statements or from inside another atomic function.
fn call_sites(prog: &Program) -> Option<HashMap<FuncId, (StmtId, crate::ir::Loc)>> {
    let atomic = crate::checker::external::atomics::atomic_functions(prog);
    if atomic.is_empty() {
        return None;
    }
    let mut sites: HashMap<FuncId, Vec<(StmtId, crate::ir::Loc)>> = HashMap::new();
    let mut nested = false;
    for (i, f) in prog.funcs.iter().enumerate() {
        let Some(body) = &f.body else { continue };
        let inside = atomic.contains(&FuncId(i as u32));
        crate::ir::visit::each_stmt(body, &mut |s| {
            if s.id.is_none() {
                return;
            }
            if let Some(ExprKind::Call(callee, _)) = super::statement_call(s).map(|c| &c.kind) {
                if let ExprKind::Func(g) = callee.peel().kind {
                    if atomic.contains(&g) {
                        nested |= inside;
                        sites.entry(g).or_default().push((s.id, s.loc));
                    }
                }
            }
        });
    }
    if nested {
        return None;
    }
    let mut one = HashMap::new();
    for f in atomic {
        match sites.get(&f).map(Vec::as_slice) {
            Some([site]) => {
                one.insert(f, *site);
            }
            // Never called: nothing of it can be in a trace.
            None | Some([]) => {}
            Some(_) => return None,
        }
    }
    Some(one)
}
