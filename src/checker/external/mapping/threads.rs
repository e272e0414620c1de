//! Which function each thread of a trace ran, and which threads the trace shows ending:
//! read off what each checker's pthread model prints (ESBMC's `{ .func=&f }`, CBMC's
//! `start_routine` binding and library calls), corrected where a checker shows a function
//! the start routine calls first.

use std::collections::{HashMap, HashSet};

use super::Exec;
use crate::ir::Program;
use crate::seq::schedule::ThreadSpec;
use crate::trace::{RawTrace, StepKind};

/// The function each thread ran: main for thread 0; for the others the start routine the
/// checker's pthread model recorded (ESBMC's `{ .func=&adder, ... }`, the first call
/// CBMC shows), else the function of the thread's first user step — each replaced by the
/// one thread entry function that calls it when it is not one itself (a thread whose
/// first statement is a call: CBMC shows the callee first).
pub(super) fn thread_specs(trace: &RawTrace, execs: &[Exec], prog: &Program) -> Vec<ThreadSpec> {
    let mut ids: Vec<u32> = Vec::new();
    for e in execs {
        if !ids.contains(&e.thread) {
            ids.push(e.thread);
        }
    }
    if !ids.contains(&0) {
        ids.push(0);
    }
    ids.sort_unstable();
    let has_body = |name: &str| {
        prog.func_named(name)
            .is_some_and(|f| prog.func(f).body.is_some())
    };
    let ts = crate::analysis::facts::thread_structure(prog);
    ids.into_iter()
        .map(|id| {
            let function = if id == 0 {
                "main".to_string()
            } else {
                let named = start_routine(trace, id).filter(|n| has_body(n));
                let first = trace
                    .user_steps()
                    .find(|s| s.thread == id)
                    .and_then(|s| s.loc.as_ref()?.function.clone());
                // Either may be a function the thread calls (CBMC shows the start
                // routine's call from its library as internal): the entry that calls it.
                let entry = [&named, &first]
                    .into_iter()
                    .flatten()
                    .find_map(|n| entry_calling(prog, &ts, n));
                entry.or(named).or(first).unwrap_or_else(|| "?".into())
            };
            ThreadSpec::new(id, function)
        })
        .collect()
}

/// `name` when it is a thread entry function, else the one thread entry function that can
/// call it; `None` when none or several can.
fn entry_calling(
    prog: &Program,
    ts: &crate::analysis::facts::ThreadStructure,
    name: &str,
) -> Option<String> {
    let f = prog.func_named(name)?;
    if ts.entries.contains_key(&f) {
        return Some(name.to_string());
    }
    let mut callers = ts.entries.keys().filter(|e| {
        ts.reach
            .get(&crate::analysis::facts::Root::Thread(**e))
            .is_some_and(|r| r.contains(&f))
    });
    match (callers.next(), callers.next()) {
        (Some(e), None) => Some(prog.func(*e).name.clone()),
        _ => None,
    }
}

/// Threads the trace shows returning from their start routine after their last user step:
/// ESBMC's pthread model stores the result (`exit_val`) in its trampoline, CBMC shows the
/// start routine's `function-return`.
pub(super) fn finished_threads(trace: &RawTrace) -> HashSet<u32> {
    let mut last_user: std::collections::HashMap<u32, usize> = std::collections::HashMap::new();
    for (i, s) in trace.steps.iter().enumerate() {
        if !s.internal {
            last_user.insert(s.thread, i);
        }
    }
    let mut out = HashSet::new();
    for (&thread, &last) in &last_user {
        if thread == 0 {
            continue;
        }
        // CBMC calls the start routine from its library: the function of the thread's first
        // user step names it then.
        let routine = start_routine(trace, thread).or_else(|| {
            trace
                .user_steps()
                .find(|s| s.thread == thread)
                .and_then(|s| s.loc.as_ref()?.function.clone())
        });
        let returned = trace
            .steps
            .iter()
            .skip(last)
            .filter(|s| s.thread == thread)
            .any(|s| match &s.kind {
                StepKind::Assignment { lhs, .. } => {
                    s.internal && (lhs == "exit_val" || lhs.ends_with("::exit_val"))
                }
                StepKind::FunctionReturn { function } => {
                    routine.as_deref() == Some(function.as_str())
                }
                _ => false,
            });
        if returned {
            out.insert(thread);
        }
    }
    out
}

/// `adder` from a step of thread `id` whose value is ESBMC's start record
/// `{ .func=&adder, .start_arg=0 }`, or from CBMC's call of the thread function.
///
/// CBMC makes that call from its spawn model (`__spawned_thread`, `__actual_thread_spawn`);
/// that step names the routine even when the thread's other calls are printed before it (a
/// thread's local steps have no fixed place in CBMC's traces, and the CBMC reader moves a
/// lock's call to where the lock was taken).
fn start_routine(trace: &RawTrace, id: u32) -> Option<String> {
    let spawned = trace.steps.iter().filter(|s| s.thread == id).find_map(|s| {
        let StepKind::FunctionCall { function } = &s.kind else {
            return None;
        };
        let from = s.loc.as_ref()?.function.as_deref()?;
        (from.contains("spawn") && !function.starts_with("__")).then(|| function.clone())
    });
    if spawned.is_some() {
        return spawned;
    }
    // CBMC binds `pthread_create`'s parameters in the creating thread, after the call's
    // step: the id-th binding of its `start_routine` made thread `id` (threads are
    // numbered in creation order).
    let mut in_create: HashMap<u32, bool> = HashMap::new();
    let bound = trace
        .steps
        .iter()
        .filter_map(|s| match &s.kind {
            StepKind::FunctionCall { function } => {
                in_create.insert(s.thread, function == "pthread_create");
                None
            }
            StepKind::Assignment { lhs, value, .. }
                if lhs == "start_routine" && in_create.get(&s.thread).copied().unwrap_or(false) =>
            {
                in_create.insert(s.thread, false);
                let name: String = value
                    .trim_start_matches(['&', '(', ' '])
                    .chars()
                    .take_while(|c| c.is_ascii_alphanumeric() || *c == '_')
                    .collect();
                Some(name)
            }
            _ => None,
        })
        .nth((id as usize).wrapping_sub(1));
    if let Some(name) = bound.filter(|n| !n.is_empty()) {
        return Some(name);
    }
    trace
        .steps
        .iter()
        .filter(|s| s.thread == id)
        .find_map(|s| match &s.kind {
            StepKind::Assignment { value, .. } => {
                let rest = value.split_once(".func=&")?.1;
                let name: String = rest
                    .chars()
                    .take_while(|c| c.is_ascii_alphanumeric() || *c == '_')
                    .collect();
                (!name.is_empty()).then_some(name)
            }
            StepKind::FunctionCall { function } if !s.internal => Some(function.clone()),
            _ => None,
        })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_callee_of_one_thread_entry_names_that_entry() {
        let dir = tempfile::tempdir().expect("tempdir");
        let path = dir.path().join("p.c");
        std::fs::write(
            &path,
            "#include <pthread.h>
int x;
void helper(void) { x = 1; }
void shared(void) { x = 2; }
void *a(void *p) { helper(); shared(); return 0; }
void *b(void *p) { shared(); return 0; }
int main(void) {
  pthread_t t, u;
  pthread_create(&t, 0, a, 0);
  pthread_create(&u, 0, b, 0);
  return 0;
}
",
        )
        .expect("writes");
        let prog = crate::frontend::load(&path, &Default::default()).expect("parses");
        let ts = crate::analysis::facts::thread_structure(&prog);
        assert_eq!(entry_calling(&prog, &ts, "helper").as_deref(), Some("a"));
        assert_eq!(entry_calling(&prog, &ts, "b").as_deref(), Some("b"));
        // Called from both entries: which thread ran it is not said.
        assert_eq!(entry_calling(&prog, &ts, "shared"), None);
        assert_eq!(entry_calling(&prog, &ts, "main"), None);
    }
}
