//! An ordering between two threads that keeps them concurrent: the read that must come
//! after another thread's write waits for a flag the writer raises once the write is done
//! (a new flag, mutex and condition variable; `while (!flag) pthread_cond_wait(…)` on the
//! reading side, `flag = 1; pthread_cond_broadcast(…)` on the writing side). The flag is a
//! latch, never lowered: every later reader passes. ConcBugAssist's "ordering" repair, as a
//! signal–wait pair rather than a join (a join would serialize the whole threads).

use std::collections::{BTreeMap, BTreeSet};

use super::{Action, Proposal, Sites};
use crate::repair::edit::Edit;
use crate::repair::source::Source;

pub(super) fn handshakes(src: &Source, sites: &Sites) -> Vec<Proposal> {
    // The orderings grouped by the writing and the reading function: one handshake
    // after the group's last write, before its first read.
    let mut groups: BTreeMap<(String, String), (usize, usize)> = BTreeMap::new();
    for &(w, r) in &sites.orders {
        let (Some(ws), Some(rs)) = (src.statement_at(w), src.statement_at(r)) else {
            continue;
        };
        let (Some(wst), Some(rst)) = (src.stmts.get(ws), src.stmts.get(rs)) else {
            continue;
        };
        if wst.function == rst.function {
            continue;
        }
        let e = groups
            .entry((wst.function.clone(), rst.function.clone()))
            .or_insert((ws, rs));
        if src.stmts.get(e.0).is_some_and(|x| x.end < wst.end) {
            e.0 = ws;
        }
        if src.stmts.get(e.1).is_some_and(|x| x.start > rst.start) {
            e.1 = rs;
        }
    }
    let mut out = Vec::new();
    for ((writer, reader), (ws, rs)) in groups {
        let ws = extend_to_companion_writes(src, ws, rs);
        if let Some(p) = handshake(src, &writer, ws, &reader, rs) {
            out.push(p);
        }
    }
    out
}

/// The failing run shows only the orderings it broke: a reader that read `port` too early
/// but `limit`, written just after, in time, names only `port`'s write. Raising the flag
/// right after it would let the reader see the old `limit` (the same failure by the other
/// variable), so the raise moves past the writer's later statements of the same block that
/// write what the reading statement reads, up to the first one that synchronizes, jumps,
/// checks or calls code whose effects are unknown here: the writer's whole unsynchronized
/// stretch of what the reader needs is published at once.
fn extend_to_companion_writes(src: &Source, ws: usize, rs: usize) -> usize {
    let (Some(wst), Some(rst)) = (src.stmts.get(ws), src.stmts.get(rs)) else {
        return ws;
    };
    let reads: BTreeSet<&String> = rst.idents.difference(&rst.writes).collect();
    let Some(block) = wst.block.and_then(|b| src.blocks.get(b)) else {
        return ws;
    };
    let Some(at) = block.stmts.iter().position(|&s| s == ws) else {
        return ws;
    };
    let mut last = ws;
    for &s in block.stmts.iter().skip(at + 1) {
        let Some(st) = src.stmts.get(s) else { break };
        let synchronizes = st.call.as_ref().is_some_and(|c| {
            c.name.starts_with("pthread_") || c.name.starts_with("__VERIFIER_atomic")
        });
        if st.jumps || st.checks || st.calls_user || synchronizes {
            break;
        }
        if st.writes.iter().any(|w| reads.contains(w)) {
            last = s;
        }
    }
    last
}

fn handshake(src: &Source, writer: &str, ws: usize, reader: &str, rs: usize) -> Option<Proposal> {
    let (wst, rst) = (src.stmts.get(ws)?, src.stmts.get(rs)?);
    // Whole statements of a block: the raise goes after the write, the wait before the
    // read. A write that jumps (a `return x = …`) leaves no room after it.
    if wst.block.is_none() || rst.block.is_none() || wst.jumps || wst.checks {
        return None;
    }
    let (_, after) = src.own_lines(ws)?;
    let (before, _) = src.own_lines(rs)?;
    let flag = src.fresh_name("seqloc_ready");
    let m = src.fresh_name(&format!("{flag}_lock"));
    let cv = src.fresh_name(&format!("{flag}_cv"));
    let mut decl = String::new();
    if !src.includes_pthread {
        decl.push_str("#include <pthread.h>\n");
    }
    decl.push_str(&format!(
        "int {flag} = 0; /* added by seqloc repair */\npthread_mutex_t {m} = PTHREAD_MUTEX_INITIALIZER;\npthread_cond_t {cv} = PTHREAD_COND_INITIALIZER;\n"
    ));
    let wi = src.indent(ws);
    let ri = src.indent(rs);
    let raise = format!(
        "{wi}pthread_mutex_lock(&{m});\n{wi}{flag} = 1;\n{wi}pthread_cond_broadcast(&{cv});\n{wi}pthread_mutex_unlock(&{m});\n"
    );
    let wait = format!(
        "{ri}pthread_mutex_lock(&{m});\n{ri}while (!{flag})\n{ri}  pthread_cond_wait(&{cv}, &{m});\n{ri}pthread_mutex_unlock(&{m});\n"
    );
    let (wl, rl) = (wst.last_line, rst.first_line);
    Some(Proposal {
        summary: format!(
            "line {rl} of `{reader}` waits until `{writer}` has done line {wl}: a new flag `{flag}` raised and broadcast after it (condition variable `{cv}`, mutex `{m}`)"
        ),
        action: Action::Handshake {
            writer: writer.to_string(),
            after: wl,
            reader: reader.to_string(),
            before: rl,
            flag,
        },
        edits: vec![
            Edit::insert(src.includes_end, decl),
            Edit::insert(after, raise),
            Edit::insert(before, wait),
        ],
        statements_locked: 0,
        serializes: false,
        kills: Vec::new(),
        tier: 1,
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::repair::edit::apply;

    /// The handshakes proposed for `prog` when the read at line `read` ranks first and
    /// must come after the writes of `orders` (write line, read line).
    fn proposals(prog: &str, read: u32, orders: &[(u32, u32)]) -> (Source, Vec<Proposal>) {
        let src = Source::parse(prog).expect("parses");
        let sites = Sites {
            ranked: vec![read],
            flows: vec![],
            orders: orders.to_vec(),
            deadlock: false,
            fixed: Vec::new(),
        };
        let p = handshakes(&src, &sites);
        (src, p)
    }

    #[test]
    fn the_read_waits_for_the_flag_raised_after_the_last_write() {
        let prog = r#"#include <pthread.h>
int port, limit, served;
void *configure(void *a) {
  port = 8080;
  limit = 4;
  return a;
}
void *serve(void *a) {
  served = port + limit;
  return a;
}
"#;
        let (src, p) = proposals(prog, 9, &[(4, 9), (5, 9)]);
        assert_eq!(p.len(), 1, "{p:?}");
        let t = apply(&src.text, &p[0].edits).expect("applies");
        assert!(
            t.contains("  limit = 4;\n  pthread_mutex_lock(&seqloc_ready_lock);\n  seqloc_ready = 1;\n  pthread_cond_broadcast(&seqloc_ready_cv);\n  pthread_mutex_unlock(&seqloc_ready_lock);\n  return a;"),
            "{t}"
        );
        assert!(
            t.contains("  pthread_mutex_lock(&seqloc_ready_lock);\n  while (!seqloc_ready)\n    pthread_cond_wait(&seqloc_ready_cv, &seqloc_ready_lock);\n  pthread_mutex_unlock(&seqloc_ready_lock);\n  served = port + limit;"),
            "{t}"
        );
        assert!(t.contains(
            "#include <pthread.h>\nint seqloc_ready = 0; /* added by seqloc repair */\n"
        ));
    }

    #[test]
    fn the_raise_waits_for_the_other_writes_the_reader_needs_but_not_past_a_lock() {
        let prog = r#"#include <pthread.h>
int port, limit, other, served;
pthread_mutex_t m;
void *configure(void *a) {
  port = 8080;
  other = 1;
  limit = 4;
  pthread_mutex_lock(&m);
  port = 9090;
  pthread_mutex_unlock(&m);
  return a;
}
void *serve(void *a) {
  served = port + limit;
  return a;
}
"#;
        let (_, p) = proposals(prog, 14, &[(5, 14)]);
        assert_eq!(p.len(), 1, "{p:?}");
        assert!(p[0].summary.contains("has done line 7"), "{}", p[0].summary);
    }
}
