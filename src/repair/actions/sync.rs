//! Repairs of how a thread uses a mutex or a condition variable: an unlock before a return
//! that leaks a lock, a `while` for the `if` around a condition wait, a relock dropped.

use std::collections::BTreeSet;

use super::{Action, Proposal, Sites, delete_stmt, function_of, held_at, pairs, site_functions};
use crate::repair::edit::Edit;
use crate::repair::source::{Source, lock_calls};

/// An unlock before each jump that leaves a function of the sites with a mutex held.
pub(super) fn releases(src: &Source, sites: &Sites) -> Vec<Proposal> {
    let functions = site_functions(src, sites);
    let mut out = Vec::new();
    for (i, st) in src.stmts.iter().enumerate() {
        if st.kind != "return_statement" || !functions.contains(&st.function) {
            continue;
        }
        for m in held_mutexes(src, i) {
            let (_, unlock) = lock_calls(&m);
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
                kills: Vec::new(),
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
            kills: Vec::new(),
            tier: 0,
        });
    }
    out
}

/// A condition wait that tests no predicate (`pthread_cond_wait(&cv, &m);` alone) waits
/// for ever when the signal came first (a lost wake-up) and returns on a spurious one.
/// When a thread that signals `cv` sets a shared flag to a constant before it
/// (`done = 1; pthread_cond_signal(&cv);`), the wait goes in a loop on that flag: the
/// waiter waits only while the flag is unset, and again after every wake-up.
pub(super) fn guard_waits(src: &Source) -> Vec<Proposal> {
    let mut out = Vec::new();
    for (i, st) in src.stmts.iter().enumerate() {
        let Some(call) = &st.call else { continue };
        if !matches!(
            call.name.as_str(),
            "pthread_cond_wait" | "pthread_cond_timedwait"
        ) {
            continue;
        }
        let Some(cv) = call.args.first().map(|a| a.trim()) else {
            continue;
        };
        // Only a wait that is a statement of a block and not the body of a test or a
        // loop (a `for` that counts rounds does not test a predicate).
        let owner = st.block.and_then(|b| src.blocks.get(b)).map(|b| {
            b.stmt
                .and_then(|o| src.stmts.get(o))
                .map(|o| o.kind.as_str())
        });
        match owner {
            Some(None | Some("for_statement" | "compound_statement")) => {}
            _ => continue,
        }
        for (var, value) in flags_set_before_signal(src, cv) {
            let pred = if value == "1" || value == "true" {
                format!("!{var}")
            } else {
                format!("{var} != {value}")
            };
            out.push(Proposal {
                summary: format!(
                    "wait only while `{pred}`, and test it again after each wake-up: the wait at line {} of `{}` in a `while` loop",
                    st.first_line, st.function
                ),
                action: Action::GuardWait {
                    function: st.function.clone(),
                    line: st.first_line,
                    predicate: pred.clone(),
                },
                edits: vec![Edit {
                    start: st.start,
                    end: st.end,
                    text: format!("while ({pred})\n{}  {}", src.indent(i), src.text_of(i)),
                }],
                statements_locked: 0,
                serializes: false,
                kills: Vec::new(),
                tier: 0,
            });
        }
    }
    out
}

/// The shared flags (`name = constant;`) set before a signal or broadcast of `cv` in the
/// signalling statement's block, with the constant.
fn flags_set_before_signal(src: &Source, cv: &str) -> Vec<(String, String)> {
    let mut out: Vec<(String, String)> = Vec::new();
    for (j, sg) in src.stmts.iter().enumerate() {
        let Some(call) = &sg.call else { continue };
        if !matches!(
            call.name.as_str(),
            "pthread_cond_signal" | "pthread_cond_broadcast"
        ) || call.args.first().map(|a| a.trim()) != Some(cv)
        {
            continue;
        }
        let Some((b, k)) = src.position(j) else {
            continue;
        };
        let before = src
            .blocks
            .get(b)
            .and_then(|b| b.stmts.get(..k))
            .unwrap_or(&[]);
        for &x in before.iter().rev() {
            let Some((var, value)) = constant_assignment(src.text_of(x)) else {
                continue;
            };
            let local = src
                .locals
                .iter()
                .any(|l| l.function == sg.function && l.name == var);
            if !local && !out.iter().any(|(v, _)| *v == var) {
                out.push((var, value));
            }
        }
    }
    out
}

/// `name = 12;` or `name = true;`.
fn constant_assignment(stmt: &str) -> Option<(String, String)> {
    let (l, r) = stmt.strip_suffix(';')?.split_once('=')?;
    let (l, r) = (l.trim(), r.trim());
    let ident = |s: &str| {
        s.chars()
            .next()
            .is_some_and(|c| c.is_ascii_alphabetic() || c == '_')
            && s.chars().all(|c| c.is_ascii_alphanumeric() || c == '_')
    };
    let constant = r == "true" || (!r.is_empty() && r.chars().all(|c| c.is_ascii_digit()));
    (ident(l) && constant && !r.starts_with('=')).then(|| (l.to_string(), r.to_string()))
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
                        kills: Vec::new(),
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

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_bare_wait_is_guarded_by_the_flag_its_signaller_sets() {
        let prog = r#"#include <pthread.h>
pthread_mutex_t m = PTHREAD_MUTEX_INITIALIZER;
pthread_cond_t c = PTHREAD_COND_INITIALIZER;
int go = 0;
void *a(void *x) {
  int mine = 3;
  pthread_mutex_lock(&m);
  mine = 4;
  go = 1;
  pthread_cond_signal(&c);
  pthread_mutex_unlock(&m);
  return 0;
}
void *b(void *x) {
  pthread_mutex_lock(&m);
  pthread_cond_wait(&c, &m);
  while (!go)
    pthread_cond_wait(&c, &m);
  pthread_mutex_unlock(&m);
  return 0;
}
"#;
        let src = Source::parse(prog).expect("parses");
        let p = guard_waits(&src);
        // Only the bare wait, and only on the shared flag (not the local `mine`).
        assert_eq!(p.len(), 1, "{p:?}");
        let t = crate::repair::edit::apply(&src.text, &p[0].edits).expect("applies");
        assert!(
            t.contains("  while (!go)\n    pthread_cond_wait(&c, &m);\n  while (!go)"),
            "{t}"
        );
        assert_eq!(
            constant_assignment("state = 2;"),
            Some(("state".into(), "2".into()))
        );
        assert_eq!(constant_assignment("n = n + 1;"), None);
        assert_eq!(constant_assignment("a[i] = 1;"), None);
        assert_eq!(constant_assignment("x == 1;"), None);
    }
}
