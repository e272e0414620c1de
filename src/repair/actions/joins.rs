//! Orderings between whole threads: a join added where a thread's results are read before
//! it was joined, and (a last resort) one thread run wholly before another.

use std::collections::BTreeSet;

use super::moves::reorder;
use super::{Action, Proposal, Sites};
use crate::repair::edit::Edit;
use crate::repair::source::Source;

/// The functions the sites (candidate lines and the flows' reads and writes) are in.
fn site_functions(src: &Source, sites: &Sites) -> BTreeSet<String> {
    sites
        .ranked
        .iter()
        .chain(
            sites
                .flows
                .iter()
                .flat_map(|(r, ws)| std::iter::once(r).chain(ws)),
        )
        .filter_map(|&l| src.statement_at(l))
        .filter_map(|s| src.stmts.get(s).map(|st| st.function.clone()))
        .collect()
}

/// `pthread_create(&h, attr, f, arg)` with a plain handle `h`: (h, f).
pub(in crate::repair) fn creation(src: &Source, s: usize) -> Option<(String, String)> {
    let c = src.stmts.get(s)?.call.as_ref()?;
    if c.name != "pthread_create" {
        return None;
    }
    let h = c.args.first()?.trim().strip_prefix('&')?.trim();
    let f = c.args.get(2)?.trim().trim_start_matches('&').trim();
    let plain = |x: &str| !x.is_empty() && x.chars().all(|c| c.is_ascii_alphanumeric() || c == '_');
    (plain(h) && plain(f)).then(|| (h.to_string(), f.to_string()))
}

fn joins(src: &Source, s: usize, h: &str) -> bool {
    src.stmts.get(s).is_some_and(|st| {
        st.call.as_ref().is_some_and(|c| {
            c.name == "pthread_join" && c.args.first().map(|a| a.trim()) == Some(h)
        }) || (st.call.is_none()
            && src.text_of(s).contains("pthread_join")
            && st.idents.contains(h))
    })
}

/// A thread whose function (or a callee) writes what a site of its creator reads after
/// the creation, with no join of it in between: `pthread_join` inserted before the first
/// such site — or the thread's own later join moved there.
pub(super) fn missing_joins(src: &Source, sites: &Sites) -> Vec<Proposal> {
    let site_stmts: Vec<usize> = sites
        .ranked
        .iter()
        .chain(sites.flows.iter().map(|(r, _)| r))
        .filter_map(|&l| src.statement_at(l))
        .collect();
    let mut out = Vec::new();
    for block in &src.blocks {
        for (i, &c) in block.stmts.iter().enumerate() {
            let Some((h, f)) = creation(src, c) else {
                continue;
            };
            let creator = src
                .stmts
                .get(c)
                .map(|s| s.function.clone())
                .unwrap_or_default();
            let local =
                |n: &str, func: &str| src.locals.iter().any(|l| l.name == n && l.function == func);
            // What the thread writes that its creator could see: no local of either.
            let written: BTreeSet<String> = reachable(src, &f)
                .iter()
                .flat_map(|g| {
                    src.stmts
                        .iter()
                        .filter(move |s| s.function == *g)
                        .flat_map(move |s| s.writes.iter().filter(move |w| !local(w, g)))
                })
                .filter(|w| !local(w, &creator))
                .cloned()
                .collect();
            let reads_written = |s: usize| {
                src.stmts
                    .get(s)
                    .is_some_and(|st| !st.idents.is_disjoint(&written))
            };
            // The first statement of the block after the creation that holds such a site,
            // with no join of `h` before it.
            let mut target = None;
            for (j, &x) in block.stmts.iter().enumerate().skip(i + 1) {
                let inside = src.within(x);
                if inside.iter().any(|&y| joins(src, y, &h)) {
                    break;
                }
                if site_stmts
                    .iter()
                    .any(|&s| inside.contains(&s) && reads_written(s))
                {
                    target = Some(j);
                    break;
                }
            }
            let Some(j) = target else { continue };
            let Some(&t) = block.stmts.get(j) else {
                continue;
            };
            let later = block
                .stmts
                .iter()
                .enumerate()
                .skip(j + 1)
                .find(|(_, x)| src.within(**x).iter().any(|&y| joins(src, y, &h)));
            let line = src.stmts.get(t).map_or(0, |s| s.first_line);
            let mut p = match later {
                // The thread's own join, moved up.
                Some((k, &x)) if src.stmts.get(x).is_some_and(|s| s.call.is_some()) => {
                    match reorder(src, &block.stmts, k, j) {
                        Some(p) => p,
                        None => continue,
                    }
                }
                Some(_) => continue,
                None => {
                    let Some((a, _)) = src.own_lines(t) else {
                        continue;
                    };
                    Proposal {
                        summary: String::new(),
                        action: Action::Join {
                            function: creator.clone(),
                            line,
                            thread: h.clone(),
                        },
                        edits: vec![Edit::insert(
                            a,
                            format!("{}pthread_join({h}, 0);\n", src.indent(t)),
                        )],
                        statements_locked: 0,
                        serializes: false,
                        kills: Vec::new(),
                        tier: 1,
                    }
                }
            };
            p.summary = format!(
                "join `{h}` (`{f}`) before line {line} of `{creator}`, which reads what it writes"
            );
            p.serializes = false;
            p.tier = 1;
            out.push(p);
        }
    }
    out
}

/// One thread run wholly before another: of two threads created in one block whose
/// functions (or their callees) hold the sites, the first one's join moved before the
/// second one's creation. The bluntest ordering repair, tried after every other.
pub(super) fn thread_orders(src: &Source, sites: &Sites) -> Vec<Proposal> {
    let site_fns = site_functions(src, sites);
    let mut out = Vec::new();
    for block in &src.blocks {
        let call = |s: usize| src.stmts.get(s).and_then(|st| st.call.as_ref());
        let creates: Vec<(usize, String, String)> = block
            .stmts
            .iter()
            .enumerate()
            .filter_map(|(i, &s)| {
                let c = call(s).filter(|c| c.name == "pthread_create")?;
                let handle = c.args.first()?.trim().strip_prefix('&')?.trim().to_string();
                let f = c.args.get(2)?.trim().trim_start_matches('&').to_string();
                Some((i, handle, f))
            })
            .collect();
        let join_of = |h: &str, after: usize| {
            block.stmts.iter().enumerate().position(|(i, &s)| {
                i > after
                    && call(s).is_some_and(|c| {
                        c.name == "pthread_join" && c.args.first().map(|a| a.trim()) == Some(h)
                    })
            })
        };
        for (a, (pa, ha, fa)) in creates.iter().enumerate() {
            if !reaches(src, fa, &site_fns) {
                continue;
            }
            for (pb, _, fb) in creates.iter().skip(a + 1) {
                if pb <= pa || !reaches(src, fb, &site_fns) {
                    continue;
                }
                let Some(pj) = join_of(ha, *pb) else { continue };
                if let Some(mut p) = reorder(src, &block.stmts, pj, *pb) {
                    p.summary = format!(
                        "{}: `{fa}` then runs wholly before `{fb}` starts",
                        p.summary
                    );
                    out.push(p);
                }
            }
        }
    }
    out
}

/// Whether function `f`, or a function it calls (named in its body), is one of `targets`.
fn reaches(src: &Source, f: &str, targets: &BTreeSet<String>) -> bool {
    !reachable(src, f).is_disjoint(targets)
}

/// `f` and the functions of the file it calls, directly or not (named in a body).
pub(in crate::repair) fn reachable(src: &Source, f: &str) -> BTreeSet<String> {
    let defined: BTreeSet<&str> = src.stmts.iter().map(|s| s.function.as_str()).collect();
    let mut todo = vec![f.to_string()];
    let mut seen = BTreeSet::new();
    while let Some(g) = todo.pop() {
        if !seen.insert(g.clone()) {
            continue;
        }
        for st in src.stmts.iter().filter(|s| s.function == g) {
            todo.extend(
                st.idents
                    .iter()
                    .filter(|i| defined.contains(i.as_str()) && !seen.contains(*i))
                    .cloned(),
            );
        }
    }
    seen
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::repair::edit::apply;

    const PROG: &str = r#"#include <pthread.h>
#include <assert.h>
int out = 0, other = 0;
void *work(void *a) { out = 42; return a; }
void *idle(void *a) { other = 1; return a; }
int main(void) {
  pthread_t t, u;
  pthread_create(&t, 0, work, 0);
  pthread_create(&u, 0, idle, 0);
  assert(out == 42);
  pthread_join(u, 0);
  return 0;
}
"#;

    #[test]
    fn the_writer_is_joined_before_its_result_is_read() {
        let src = Source::parse(PROG).expect("parses");
        let sites = Sites {
            ranked: vec![10, 4],
            flows: vec![(10, vec![4])],
            orders: vec![],
            deadlock: false,
            fixed: Vec::new(),
        };
        let p = missing_joins(&src, &sites);
        // `work` writes what line 10 reads; `idle` reaches no site.
        assert_eq!(p.len(), 1, "{p:?}");
        let t = apply(&src.text, &p[0].edits).expect("applies");
        assert!(
            t.contains(
                "  pthread_create(&u, 0, idle, 0);\n  pthread_join(t, 0);\n  assert(out == 42);"
            ),
            "{t}"
        );
    }
}
