//! Repairs of how a thread uses a mutex or a condition variable: an unlock before a return
//! that leaks a lock, a `while` for the `if` around a condition wait, a relock dropped.

use std::collections::BTreeSet;

use super::{Action, Proposal, Sites, delete_stmt, function_of, held_at, pairs, site_functions};
use crate::repair::edit::Edit;
use crate::repair::source::Source;

/// An unlock before each jump that leaves a function of the sites with a mutex held.
pub(super) fn releases(src: &Source, sites: &Sites) -> Vec<Proposal> {
    let functions = site_functions(src, sites);
    let mut out = Vec::new();
    for (i, st) in src.stmts.iter().enumerate() {
        if st.kind != "return_statement" || !functions.contains(&st.function) {
            continue;
        }
        for m in held_mutexes(src, i) {
            let unlock = format!("pthread_mutex_unlock(&{m});");
            let edits = if st.block.is_some() {
                match src.own_lines(i) {
                    Some((a, _)) => vec![Edit::insert(a, format!("{}{unlock}\n", src.indent(i)))],
                    None => vec![Edit::insert(st.start, format!("{unlock} "))],
                }
            } else {
                vec![Edit {
                    start: st.start,
                    end: st.end,
                    text: format!("{{ {unlock} {} }}", src.text_of(i)),
                }]
            };
            out.push(Proposal {
                summary: format!(
                    "unlock `{m}` before the return at line {} of `{}`",
                    st.first_line, st.function
                ),
                action: Action::Release {
                    function: st.function.clone(),
                    mutex: m.clone(),
                    line: st.first_line,
                },
                edits,
                statements_locked: 0,
                serializes: false,
                tier: 0,
            });
        }
    }
    out
}

/// Each `if` without `else` whose body waits on a condition variable becomes a `while`:
/// after a wake-up (a spurious one, or another thread's that consumed the state) the
/// predicate is tested again, as POSIX asks of every condition wait.
pub(super) fn wait_loops(src: &Source) -> Vec<Proposal> {
    let mut out = Vec::new();
    for (i, st) in src.stmts.iter().enumerate() {
        if st.kind != "if_statement" || !src.text_of(i).starts_with("if") {
            continue;
        }
        let text = src.text_of(i);
        if text.contains("else")
            || !(text.contains("pthread_cond_wait") || text.contains("pthread_cond_timedwait"))
        {
            continue;
        }
        out.push(Proposal {
            summary: format!(
                "test the condition again after each wake-up: `while` for the `if` at line {} of `{}`",
                st.first_line, st.function
            ),
            action: Action::WaitLoop {
                function: st.function.clone(),
                line: st.first_line,
            },
            edits: vec![Edit {
                start: st.start,
                end: st.start + 2,
                text: "while".into(),
            }],
            statements_locked: 0,
            serializes: false,
            tier: 0,
        });
    }
    out
}

/// A function of the sites that locks a mutex every one of its callers already holds
/// (a non-recursive mutex locked twice deadlocks): its own lock and unlock of it go. Only
/// when every call is under the mutex and no thread starts in the function.
pub(super) fn drop_relocks(src: &Source, sites: &Sites) -> Vec<Proposal> {
    let functions = site_functions(src, sites);
    let mut out = Vec::new();
    for f in &functions {
        // Every mention of `f` outside it, at the innermost statement that makes it.
        let names_f = |i: usize| {
            src.stmts
                .get(i)
                .is_some_and(|st| st.function != *f && st.idents.contains(f))
        };
        let calls: Vec<usize> = (0..src.stmts.len())
            .filter(|&i| names_f(i) && !src.within(i).into_iter().any(|j| j != i && names_f(j)))
            .collect();
        if calls.is_empty()
            || calls
                .iter()
                .any(|&c| src.text_of(c).contains("pthread_create"))
        {
            continue;
        }
        for b in &src.blocks {
            let Some(&first) = b.stmts.first() else {
                continue;
            };
            if function_of(src, first) != *f {
                continue;
            }
            for m in &src.global_mutexes {
                let Some(ps) = pairs(src, &b.stmts, m) else {
                    continue;
                };
                if !calls.iter().all(|&c| held_at(src, c, m)) {
                    continue;
                }
                for (l, u) in ps {
                    let (Some(dl), Some(du)) = (delete_stmt(src, l), delete_stmt(src, u)) else {
                        continue;
                    };
                    let (ll, ul) = (
                        src.stmts.get(l).map_or(0, |s| s.first_line),
                        src.stmts.get(u).map_or(0, |s| s.first_line),
                    );
                    out.push(Proposal {
                        summary: format!(
                            "`{f}` is only called with `{m}` held: drop its own lock and unlock of `{m}` (lines {ll} and {ul})"
                        ),
                        action: Action::DropRelock {
                            function: f.clone(),
                            mutex: m.clone(),
                            lock: ll,
                            unlock: ul,
                        },
                        edits: vec![dl, du],
                        statements_locked: 0,
                        serializes: false,
                        tier: 0,
                    });
                }
            }
        }
    }
    out
}

/// The mutexes locked before statement `s` in its block or an enclosing one and not
/// unlocked since.
fn held_mutexes(src: &Source, s: usize) -> Vec<String> {
    let mut names = BTreeSet::new();
    for st in &src.stmts {
        if let Some((_, m)) = st.call.as_ref().and_then(|c| c.mutex()) {
            names.insert(m);
        }
    }
    // A brace-less body: its parent statement's position counts.
    let anchor = {
        let mut cur = s;
        while src.stmts.get(cur).is_some_and(|x| x.block.is_none()) {
            match src.stmts.get(cur).and_then(|x| x.parent) {
                Some(p) => cur = p,
                None => break,
            }
        }
        cur
    };
    names
        .into_iter()
        .filter(|m| held_at(src, anchor, m))
        .collect()
}
