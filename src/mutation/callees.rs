//! A call of a helper where its wrapper was meant: `conn_put_back(p, c);` on an error
//! path, where every other path calls `pool_release(p, c)`, which puts the connection
//! back *and* posts the pool's semaphore. The path that skips the wrapper skips the
//! release, and a thread waiting for it blocks for ever.
//!
//! Why mutants of their own: along the failing run the error path ran and the other
//! thread blocked; no value the call's line computes gives the token back — the fix is
//! which function the line calls. The mutant calls the wrapper instead: a function with
//! the helper's parameter types that calls the helper and also releases or wakes (an
//! unlock, a `sem_post`, a signal or broadcast) that the helper does not. As every
//! mutant, it counts only when the oracle proves the changed program free of failures
//! and deadlocks in every execution.

use tree_sitter::Node;

use super::operators::{Mutant, each_node, text_of};
use super::primitives::{Part, SyncMutant};

/// The calls that give something back to other threads: what a wrapper adds.
pub(super) fn releases(name: &str) -> bool {
    matches!(
        name,
        "sem_post"
            | "pthread_mutex_unlock"
            | "pthread_rwlock_unlock"
            | "pthread_spin_unlock"
            | "pthread_cond_signal"
            | "pthread_cond_broadcast"
            | "mtx_unlock"
            | "cnd_signal"
            | "cnd_broadcast"
    )
}

/// A call that gives back a lock or a semaphore's token (not a wake-up: that takes
/// nothing back from anyone).
fn gives_back(name: &str) -> bool {
    matches!(
        name,
        "pthread_mutex_unlock"
            | "pthread_spin_unlock"
            | "pthread_rwlock_unlock"
            | "mtx_unlock"
            | "sem_post"
    )
}

/// A function definition: its name, its parameters' types as written, the functions its
/// body calls, and its body's byte range.
struct Function {
    name: String,
    params: Vec<String>,
    calls: Vec<String>,
    body: (usize, usize),
    /// The body drops a reference: an `if` tests what an atomic decrement returned
    /// (`if (atomic_fetch_sub(&b->refs, 1) == 1) release(b);`), a `put`.
    drops_reference: bool,
}

/// An atomic decrement that returns the count it found.
fn is_atomic_decrement(name: &str) -> bool {
    matches!(
        name,
        "atomic_fetch_sub"
            | "atomic_fetch_sub_explicit"
            | "__atomic_fetch_sub"
            | "__atomic_sub_fetch"
            | "__sync_fetch_and_sub"
            | "__sync_sub_and_fetch"
    )
}

/// The function declarator of a function definition (under its pointer declarators).
fn declarator(f: Node<'_>) -> Option<Node<'_>> {
    let mut d = f.child_by_field_name("declarator");
    while let Some(x) = d.filter(|x| x.kind() != "function_declarator") {
        d = x.child_by_field_name("declarator");
    }
    d
}

fn functions(text: &str) -> Vec<Function> {
    let mut out = Vec::new();
    each_node(text, |n| {
        if n.kind() != "function_definition" {
            return;
        }
        let Some(body) = n.child_by_field_name("body") else {
            return;
        };
        let Some(fd) = declarator(n) else {
            return;
        };
        let (Some(name), Some(list)) = (
            fd.child_by_field_name("declarator"),
            fd.child_by_field_name("parameters"),
        ) else {
            return;
        };
        let mut cursor = list.walk();
        let params = list
            .named_children(&mut cursor)
            .filter(|p| p.kind() == "parameter_declaration")
            .map(|p| parameter_type(text, p))
            .collect();
        let mut calls = Vec::new();
        let mut drops_reference = false;
        let mut stack = vec![body];
        while let Some(x) = stack.pop() {
            let mut c = x.walk();
            stack.extend(x.named_children(&mut c));
            if let Some(f) = called(text, x) {
                calls.push(f.to_string());
            }
            if x.kind() == "if_statement"
                && x.child_by_field_name("condition")
                    .is_some_and(|t| super::operators::calls(text, t, &is_atomic_decrement))
            {
                drops_reference = true;
            }
        }
        out.push(Function {
            name: text_of(text, name).to_string(),
            params,
            calls,
            body: (body.start_byte(), body.end_byte()),
            drops_reference,
        });
    });
    out
}

/// A parameter's type as written, with a `*` for each pointer level of its declarator
/// (`struct conn *c` → `struct conn*`).
fn parameter_type(text: &str, p: Node) -> String {
    let mut ty = p
        .child_by_field_name("type")
        .map_or("", |t| text_of(text, t))
        .split_whitespace()
        .collect::<Vec<_>>()
        .join(" ");
    let mut d = p.child_by_field_name("declarator");
    while let Some(x) = d {
        if x.kind() == "pointer_declarator" || x.kind() == "abstract_pointer_declarator" {
            ty.push('*');
        }
        d = x.child_by_field_name("declarator");
    }
    ty
}

/// The name of the function a call node calls directly.
pub(super) fn called<'t>(text: &'t str, n: Node) -> Option<&'t str> {
    if n.kind() != "call_expression" {
        return None;
    }
    let f = n.child_by_field_name("function")?;
    (f.kind() == "identifier").then(|| text_of(text, f))
}

/// The program's functions whose body gives something back to other threads (an
/// unlock, a post, a signal, a reference dropped): each name with its body's first and
/// last line (from 1).
pub(super) fn releasing_functions(text: &str) -> Vec<(String, (u32, u32))> {
    let line = |at: usize| text.get(..at).map_or(0, |t| t.matches('\n').count()) as u32 + 1;
    functions(text)
        .into_iter()
        .filter(|f| f.drops_reference || f.calls.iter().any(|c| releases(c)))
        .map(|f| (f.name, (line(f.body.0), line(f.body.1))))
        .collect()
}

/// The program's functions that give back more than they take: more unlocks and posts
/// than locks and waits (`flush_locked(l)` ending in `unlock(l)` of its caller's lock),
/// each with its body's lines as [`releasing_functions`] gives them. A function that
/// takes a lock and gives it back (`timer_rearm`) is a critical section of its own, not a
/// release.
pub(super) fn net_releasing_functions(text: &str) -> Vec<(String, (u32, u32))> {
    let takes = |c: &str| {
        matches!(
            c,
            "pthread_mutex_lock"
                | "pthread_mutex_trylock"
                | "pthread_mutex_timedlock"
                | "pthread_spin_lock"
                | "pthread_spin_trylock"
                | "pthread_rwlock_rdlock"
                | "pthread_rwlock_wrlock"
                | "pthread_rwlock_tryrdlock"
                | "pthread_rwlock_trywrlock"
                | "mtx_lock"
                | "mtx_trylock"
                | "mtx_timedlock"
                | "sem_wait"
                | "sem_trywait"
                | "sem_timedwait"
        )
    };
    let fs = functions(text);
    let net: Vec<&str> = fs
        .iter()
        .filter(|f| {
            let given =
                f.calls.iter().filter(|c| gives_back(c)).count() + usize::from(f.drops_reference);
            given > f.calls.iter().filter(|c| takes(c)).count()
        })
        .map(|f| f.name.as_str())
        .collect();
    releasing_functions(text)
        .into_iter()
        .filter(|(name, _)| net.contains(&name.as_str()))
        .collect()
}

/// The program's functions that give something back to other threads and never wait:
/// a function that waits for its turn (`take_slot`: a condition wait, a semaphore wait,
/// a join) is a take, whatever locks it gives back on the way out — made later, it only
/// takes later. `frame_release` (a flag set under the pool's lock) gives. Each with its
/// body's lines as [`releasing_functions`] gives them.
pub(super) fn giving_functions(text: &str) -> Vec<(String, (u32, u32))> {
    let waits = |c: &str| {
        matches!(
            c,
            "pthread_cond_wait"
                | "pthread_cond_timedwait"
                | "cnd_wait"
                | "cnd_timedwait"
                | "sem_wait"
                | "sem_timedwait"
                | "pthread_join"
                | "thrd_join"
                | "pthread_barrier_wait"
        )
    };
    let fs = functions(text);
    releasing_functions(text)
        .into_iter()
        .filter(|(name, _)| {
            !fs.iter()
                .any(|f| &f.name == name && f.calls.iter().any(|c| waits(c)))
        })
        .collect()
}

/// The names of the program's functions that make a condition wait themselves (and so
/// give their caller's mutex up while they wait).
pub(super) fn condition_waiting_functions(text: &str) -> Vec<String> {
    functions(text)
        .into_iter()
        .filter(|f| f.calls.iter().any(|c| super::wait_terms::is_wait(c)))
        .map(|f| f.name)
        .collect()
}

/// What a call of the program's function `name` with the arguments `args` (their text)
/// does besides giving back: its body's statements without the unlocks and posts, its
/// parameters replaced by the arguments, on one line (`dev_release(d)` whose body is
/// `d->busy = 0; sem_post(&d->sem);` gives `d->busy = 0;`). None unless every statement
/// of the body is an expression statement, some of them release and some do not.
pub(super) fn body_without_releases(text: &str, name: &str, args: &[&str]) -> Option<String> {
    let tree = crate::frontend::syntax_check::parse_c(text).ok()?;
    let root = tree.root_node();
    let mut cursor = root.walk();
    let f = root
        .named_children(&mut cursor)
        .filter(|n| n.kind() == "function_definition")
        .find(|n| {
            declarator(*n)
                .and_then(|fd| fd.child_by_field_name("declarator"))
                .is_some_and(|x| text_of(text, x) == name)
        })?;
    let fd = declarator(f)?;
    let list = fd.child_by_field_name("parameters")?;
    let mut cursor = list.walk();
    let mut params: Vec<&str> = Vec::new();
    for p in list
        .named_children(&mut cursor)
        .filter(|p| p.kind() == "parameter_declaration")
    {
        let mut d = p.child_by_field_name("declarator");
        while let Some(x) = d.filter(|x| x.kind() != "identifier") {
            d = x.child_by_field_name("declarator");
        }
        params.push(d.map(|x| text_of(text, x))?);
    }
    if params.len() != args.len() {
        return None;
    }
    let body = f.child_by_field_name("body")?;
    let mut cursor = body.walk();
    let stmts: Vec<Node> = body
        .named_children(&mut cursor)
        .filter(|c| c.kind() != "comment")
        .collect();
    let mut kept = Vec::new();
    let mut dropped = 0;
    for s in stmts {
        if s.kind() != "expression_statement" {
            return None;
        }
        let gives = s
            .named_child(0)
            .and_then(|c| called(text, c))
            .is_some_and(gives_back);
        if gives {
            dropped += 1;
            continue;
        }
        // The parameters' uses, replaced from the end so the earlier offsets hold.
        let mut uses = Vec::new();
        let mut stack = vec![s];
        while let Some(x) = stack.pop() {
            let mut c = x.walk();
            stack.extend(x.named_children(&mut c));
            if x.kind() == "identifier" {
                if let Some(i) = params.iter().position(|p| *p == text_of(text, x)) {
                    uses.push((x.start_byte(), x.end_byte(), i));
                }
            }
        }
        uses.sort_unstable();
        let mut stmt = text_of(text, s).to_string();
        for (a, b, i) in uses.into_iter().rev() {
            let arg = args.get(i)?;
            let simple = arg.chars().all(|c| c.is_alphanumeric() || c == '_');
            let with = if simple {
                arg.to_string()
            } else {
                format!("({arg})")
            };
            stmt.replace_range(a - s.start_byte()..b - s.start_byte(), &with);
        }
        kept.push(stmt.split_whitespace().collect::<Vec<_>>().join(" "));
    }
    (dropped > 0 && !kept.is_empty()).then(|| kept.join(" "))
}

/// The mutants calling a wrapper for each call statement on `lines` (from 1) of `text`
/// that calls the function it wraps, outside the wrapper itself.
pub fn wrapper_mutants(text: &str, lines: &[u32]) -> Vec<SyncMutant> {
    let fs = functions(text);
    // (helper, wrapper): the wrapper calls the helper, takes its parameter types and
    // gives something back that the helper does not.
    let mut pairs: Vec<(&Function, &Function)> = Vec::new();
    for g in &fs {
        for f in fs.iter().filter(|f| f.name != g.name) {
            let adds = g.calls.iter().any(|c| releases(c) && !f.calls.contains(c));
            if adds && f.params == g.params && g.calls.contains(&f.name) {
                pairs.push((f, g));
            }
        }
    }
    if pairs.is_empty() {
        return vec![];
    }
    let mut out = Vec::new();
    each_node(text, |n| {
        let row = n.start_position().row as u32 + 1;
        if n.kind() != "expression_statement" || !lines.contains(&row) {
            return;
        }
        let Some(call) = n.named_child(0) else {
            return;
        };
        let Some(name) = called(text, call) else {
            return;
        };
        for (f, g) in pairs.iter().filter(|(f, _)| f.name == name) {
            let inside = |h: &Function| h.body.0 <= n.start_byte() && n.end_byte() <= h.body.1;
            if inside(g) || inside(f) {
                continue;
            }
            let Some(fname) = call.child_by_field_name("function") else {
                continue;
            };
            out.push(SyncMutant {
                mutant: Mutant::of_node(text, fname, g.name.clone()),
                part: Part::Callee,
            });
        }
    });
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_function_that_drops_a_reference_gives_back() {
        let text = "#include <stdatomic.h>\nstruct blob { atomic_int refs; int live; };\nvoid blob_get(struct blob *b) { atomic_fetch_add(&b->refs, 1); }\nvoid blob_put(struct blob *b)\n{\n  if (atomic_fetch_sub(&b->refs, 1) == 1)\n    b->live = 0;\n}\nvoid count(struct blob *b) { atomic_fetch_sub(&b->refs, 1); }\n";
        let names: Vec<String> = net_releasing_functions(text)
            .into_iter()
            .map(|(n, _)| n)
            .collect();
        assert_eq!(
            names,
            ["blob_put"],
            "a decrement whose count nobody tests is no put"
        );
    }

    const PROG: &str = "void put_back(struct pool *p, struct conn *c) { lock(p); c->used = 0; unlock(p); }\nvoid release(struct pool *p, struct conn *c) {\n  put_back(p, c);\n  sem_post(&p->free);\n}\nvoid other(struct pool *p) { sem_post(&p->free); put_back(p, 0); }\nstruct conn *acquire(struct pool *p) {\n  struct conn *c = take(p);\n  if (c->broken) {\n    put_back(p, c);\n    return 0;\n  }\n  return c;\n}\n";

    #[test]
    fn a_helper_called_where_its_releasing_wrapper_was_meant() {
        let all: Vec<u32> = (1..=15).collect();
        let ms = wrapper_mutants(PROG, &all);
        let got: Vec<(u32, &str)> = ms
            .iter()
            .map(|m| (m.mutant.line, m.mutant.to.as_str()))
            .collect();
        assert_eq!(
            got,
            [(6, "release"), (10, "release")],
            "not inside the wrapper; `other` is none (other parameters), its call is one"
        );
        let moved = ms[1].mutant.apply(PROG).expect("applies");
        assert!(
            moved.contains("    release(p, c);\n    return 0;"),
            "{moved}"
        );
        assert!(
            wrapper_mutants(PROG, &[3, 9]).is_empty(),
            "only lines the run ran"
        );
    }
}
