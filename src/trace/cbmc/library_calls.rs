//! Where a pthread call happened in a CBMC trace.
//!
//! CBMC's partial-order encoding orders only shared-memory events by the solver's clocks; a
//! thread's local steps are printed wherever the solver put them. A `pthread_mutex_lock(&m)`
//! in user code leaves two kinds of step:
//!
//! * the user-side `function-call` step with its parameter bindings (`mutex = &m`), which is
//!   thread-local and so printed at an arbitrary point — often long before the lock could be
//!   taken, while another thread still holds it;
//! * inside `<builtin-library-pthread_mutex_lock>`, the write of the mutex object (CBMC 6
//!   prints `byte_extract_little_endian(m.__data.__lock, 0l, char) = 1` and then the whole
//!   mutex, member by member), which is shared and so printed where the lock was really taken.
//!
//! Read as printed, the first places a lock before the unlock it waited for, and the schedule
//! seqloc builds from it cannot be replayed. So the call's own steps are moved to where its
//! library write is: the k-th call of such a function by a thread is paired with the k-th
//! write run in that function's library body by the same thread (a thread's shared events
//! keep their program order in the trace). Where the counts differ — a library body with
//! several writes per call in some CBMC version, a thread blocked in its last call — the
//! function's calls of that thread are left where CBMC printed them: the replay then decides,
//! as before, and a wrong placement is never invented.
//!
//! `pthread_join(t)` has the same problem and no visible write: its effect is a hidden read of
//! the joined thread's exit flag. Its parameter binding names the joined thread by CBMC's own
//! thread number (`thread = 1ul`), so a join printed before that thread's last step is moved
//! to just after it — unless that last step is the failure itself (the join then never
//! returned, and where CBMC printed it is left alone).

use std::collections::HashMap;

use crate::trace::raw::{Step, StepKind};

/// Library functions whose body makes one write run per call, and whose effect is that
/// write: the moment the call took effect for the other threads.
const ONE_WRITE_CALLS: &[&str] = &[
    "pthread_mutex_lock",
    "pthread_mutex_unlock",
    "pthread_spin_lock",
    "pthread_spin_unlock",
];

/// The library function whose model a step runs in (`<builtin-library-NAME>`).
fn library_function(step: &Step) -> Option<&str> {
    let file = &step.loc.as_ref()?.file;
    file.strip_prefix("<builtin-library-")?.strip_suffix('>')
}

fn same_place(a: &Step, b: &Step) -> bool {
    match (&a.loc, &b.loc) {
        (Some(x), Some(y)) => x.file == y.file && x.line == y.line,
        _ => false,
    }
}

/// Starts of write runs: an assignment in a [`ONE_WRITE_CALLS`] body that does not continue
/// the previous step's run (same thread, same library line), keyed by (thread, function).
fn write_runs(steps: &[Step]) -> HashMap<(u32, &str), Vec<usize>> {
    let mut runs: HashMap<(u32, &str), Vec<usize>> = HashMap::new();
    for (i, step) in steps.iter().enumerate() {
        let Some(function) = library_function(step) else {
            continue;
        };
        if !ONE_WRITE_CALLS.contains(&function) || !matches!(step.kind, StepKind::Assignment { .. })
        {
            continue;
        }
        let continues = i
            .checked_sub(1)
            .and_then(|p| steps.get(p))
            .is_some_and(|prev| {
                prev.thread == step.thread
                    && same_place(prev, step)
                    && matches!(prev.kind, StepKind::Assignment { .. })
            });
        if !continues {
            runs.entry((step.thread, function)).or_default().push(i);
        }
    }
    runs
}

/// User-side calls of [`ONE_WRITE_CALLS`] functions, each with its [`call_group`].
fn calls(steps: &[Step]) -> HashMap<(u32, &str), Vec<Vec<usize>>> {
    let mut out: HashMap<(u32, &str), Vec<Vec<usize>>> = HashMap::new();
    for (i, step) in steps.iter().enumerate() {
        let StepKind::FunctionCall { function } = &step.kind else {
            continue;
        };
        let Some(function) = ONE_WRITE_CALLS.iter().find(|f| **f == function.as_str()) else {
            continue;
        };
        if step.loc.is_none() || library_function(step).is_some() {
            continue;
        }
        let group = call_group(steps, i);
        out.entry((step.thread, function)).or_default().push(group);
    }
    out
}

/// A call's steps: the `location-only` step just before it and the parameter bindings
/// just after it (same thread, same line).
fn call_group(steps: &[Step], i: usize) -> Vec<usize> {
    let Some(step) = steps.get(i) else {
        return Vec::new();
    };
    let mut group = Vec::new();
    if let Some(p) = i.checked_sub(1)
        && let Some(prev) = steps.get(p)
        && prev.thread == step.thread
        && same_place(prev, step)
        && matches!(prev.kind, StepKind::Other { .. })
    {
        group.push(p);
    }
    group.push(i);
    group.extend(
        steps
            .iter()
            .enumerate()
            .skip(i + 1)
            .take_while(|(_, s)| {
                s.thread == step.thread
                    && same_place(s, step)
                    && matches!(s.kind, StepKind::Assignment { .. })
            })
            .map(|(j, _)| j),
    );
    group
}

/// Each user `pthread_join` call printed before the joined thread's last step, with that
/// step's position.
fn early_joins(steps: &[Step]) -> Vec<(Vec<usize>, usize)> {
    let mut last_of: HashMap<u32, usize> = HashMap::new();
    for (i, s) in steps.iter().enumerate() {
        last_of.insert(s.thread, i);
    }
    let mut out = Vec::new();
    for (i, step) in steps.iter().enumerate() {
        let StepKind::FunctionCall { function } = &step.kind else {
            continue;
        };
        if function != "pthread_join" || step.loc.is_none() || library_function(step).is_some() {
            continue;
        }
        let group = call_group(steps, i);
        // The first binding is the thread argument.
        let joined = group
            .iter()
            .filter_map(|&j| steps.get(j))
            .find_map(|s| match &s.kind {
                StepKind::Assignment { value_int, .. } => *value_int,
                _ => None,
            });
        let Some(joined) = joined.and_then(|t| u32::try_from(t).ok()) else {
            continue;
        };
        let Some(&last) = last_of.get(&joined) else {
            continue;
        };
        let failed_there = steps.get(last).is_some_and(
            |s| matches!(&s.kind, StepKind::Other { text } if text.starts_with("violated:")),
        );
        if joined != step.thread && last > i && !failed_there {
            out.push((group, last));
        }
    }
    out
}

/// Moves each paired call (with its bindings) to just before its library write, and each
/// early join to just after the joined thread's last step, and renumbers the steps by their
/// new positions.
pub(super) fn place_at_library_writes(steps: &mut Vec<Step>) {
    // (position it sorts at, 0 before / 1 at / 2 after the step there, order in the group)
    let mut keys: Vec<(usize, u8, usize)> = (0..steps.len()).map(|i| (i, 1, 0)).collect();
    let mut moved = false;
    for (group, last) in early_joins(steps) {
        for (order, &j) in group.iter().enumerate() {
            if let Some(k) = keys.get_mut(j) {
                *k = (last, 2, order);
                moved = true;
            }
        }
    }
    let runs = write_runs(steps);
    for (key, groups) in calls(steps) {
        let Some(writes) = runs.get(&key) else {
            continue;
        };
        if writes.len() != groups.len() {
            continue;
        }
        for (group, &write) in groups.iter().zip(writes) {
            for (order, &j) in group.iter().enumerate() {
                if let Some(k) = keys.get_mut(j) {
                    *k = (write, 0, order);
                    moved = true;
                }
            }
        }
    }
    if !moved {
        return;
    }
    let mut order: Vec<usize> = (0..steps.len()).collect();
    order.sort_by_key(|&i| keys.get(i).copied().unwrap_or((i, 1, 0)));
    let mut old: Vec<Option<Step>> = std::mem::take(steps).into_iter().map(Some).collect();
    for i in order {
        if let Some(step) = old.get_mut(i).and_then(Option::take) {
            steps.push(step);
        }
    }
    for (position, step) in steps.iter_mut().enumerate() {
        step.index = position;
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::trace::raw::SrcLoc;

    fn at(thread: u32, file: &str, line: u32, kind: StepKind) -> Step {
        Step {
            index: 0,
            thread,
            loc: Some(SrcLoc {
                file: file.to_string(),
                line,
                column: None,
                function: None,
            }),
            kind,
            internal: file.starts_with('<'),
        }
    }
    fn write(thread: u32, file: &str, line: u32, lhs: &str) -> Step {
        at(
            thread,
            file,
            line,
            StepKind::Assignment {
                lhs: lhs.to_string(),
                value: "1".to_string(),
                value_int: Some(1),
            },
        )
    }
    fn call(thread: u32, line: u32, function: &str) -> Step {
        at(
            thread,
            "p.c",
            line,
            StepKind::FunctionCall {
                function: function.to_string(),
            },
        )
    }
    const LOCK: &str = "<builtin-library-pthread_mutex_lock>";
    const UNLOCK: &str = "<builtin-library-pthread_mutex_unlock>";

    fn shape(steps: &[Step]) -> Vec<String> {
        steps
            .iter()
            .map(|s| {
                let what = match &s.kind {
                    StepKind::Assignment { lhs, .. } => lhs.clone(),
                    StepKind::FunctionCall { function } => format!("call {function}"),
                    _ => "other".to_string(),
                };
                format!("T{} {}", s.thread, what)
            })
            .collect()
    }

    /// T1's call of lock(m) is printed before T2 unlocks m; its write after: the call moves
    /// to the write, with its binding, and the indices follow the new order.
    #[test]
    fn a_lock_call_moves_to_its_write() {
        let mut steps = vec![
            call(1, 10, "pthread_mutex_lock"),
            write(1, "p.c", 10, "mutex"),
            write(2, UNLOCK, 41, "m.__data.__lock"),
            write(2, UNLOCK, 41, "m.__size[0l]"),
            write(1, LOCK, 39, "m.__data.__lock"),
            write(1, LOCK, 39, "m.__size[0l]"),
            write(1, "p.c", 11, "x"),
        ];
        place_at_library_writes(&mut steps);
        assert_eq!(
            shape(&steps),
            [
                "T2 m.__data.__lock",
                "T2 m.__size[0l]",
                "T1 call pthread_mutex_lock",
                "T1 mutex",
                "T1 m.__data.__lock",
                "T1 m.__size[0l]",
                "T1 x",
            ]
        );
        assert!(steps.iter().enumerate().all(|(i, s)| s.index == i));
    }

    /// A call printed after its write (CBMC does that too) moves back to it; calls pair with
    /// writes in order, per thread.
    #[test]
    fn calls_pair_with_writes_in_order_per_thread() {
        let mut steps = vec![
            write(1, LOCK, 39, "a.__data.__lock"),
            write(2, "p.c", 5, "y"),
            write(1, LOCK, 39, "b.__data.__lock"),
            call(1, 10, "pthread_mutex_lock"),
            call(1, 12, "pthread_mutex_lock"),
        ];
        place_at_library_writes(&mut steps);
        assert_eq!(
            shape(&steps),
            [
                "T1 call pthread_mutex_lock",
                "T1 a.__data.__lock",
                "T2 y",
                "T1 call pthread_mutex_lock",
                "T1 b.__data.__lock",
            ]
        );
        assert_eq!(steps[0].loc.as_ref().map(|l| l.line), Some(10));
        assert_eq!(steps[3].loc.as_ref().map(|l| l.line), Some(12));
    }

    /// A thread blocked in its last lock has a call and no write: nothing of that thread's
    /// locks is moved, since the pairing is not certain.
    #[test]
    fn unequal_counts_leave_the_calls_in_place() {
        let mut steps = vec![
            call(1, 10, "pthread_mutex_lock"),
            write(2, "p.c", 5, "y"),
            write(1, LOCK, 39, "a.__data.__lock"),
            call(1, 12, "pthread_mutex_lock"),
        ];
        let before = shape(&steps);
        place_at_library_writes(&mut steps);
        assert_eq!(shape(&steps), before);
    }

    /// Other library calls (create, join) are not touched.
    #[test]
    fn other_calls_stay() {
        let mut steps = vec![
            call(0, 10, "pthread_create"),
            write(1, "p.c", 5, "y"),
            write(0, "<builtin-library-pthread_create>", 36, "next"),
        ];
        let before = shape(&steps);
        place_at_library_writes(&mut steps);
        assert_eq!(shape(&steps), before);
    }

    fn bind(thread: u32, line: u32, value: i128) -> Step {
        at(
            thread,
            "p.c",
            line,
            StepKind::Assignment {
                lhs: "thread".to_string(),
                value: format!("{value}ul"),
                value_int: Some(value),
            },
        )
    }

    /// main's join of T1 is printed before T1's steps: it moves after T1's last one.
    #[test]
    fn an_early_join_moves_after_the_joined_thread() {
        let mut steps = vec![
            call(0, 20, "pthread_join"),
            bind(0, 20, 1),
            write(1, "p.c", 5, "x"),
            write(1, "p.c", 6, "y"),
            write(0, "p.c", 21, "z"),
        ];
        place_at_library_writes(&mut steps);
        assert_eq!(
            shape(&steps),
            ["T1 x", "T1 y", "T0 call pthread_join", "T0 thread", "T0 z"]
        );
    }

    /// A join of the thread that fails never returned: it stays where it was printed.
    #[test]
    fn a_join_of_the_failing_thread_stays() {
        let mut steps = vec![
            call(0, 20, "pthread_join"),
            bind(0, 20, 1),
            write(1, "p.c", 5, "x"),
            at(
                1,
                "p.c",
                6,
                StepKind::Other {
                    text: "violated: assertion".to_string(),
                },
            ),
        ];
        let before = shape(&steps);
        place_at_library_writes(&mut steps);
        assert_eq!(shape(&steps), before);
    }
}
