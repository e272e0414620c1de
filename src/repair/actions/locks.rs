//! Critical sections: one mutex around a region of each function the sites are in — an
//! existing mutex widened over the region, or a new one.

use std::collections::{BTreeMap, BTreeSet};

use super::{Action, Proposal, Region, delete_stmt, function_of, held_at, pairs};
use crate::repair::edit::Edit;
use crate::repair::source::{ATOMIC, Source, lock_calls};

/// One region per function: the block that holds every site of the function, from the
/// first site's statement to the last's.
#[derive(Clone, Debug, PartialEq, Eq)]
struct Span {
    block: usize,
    lo: usize,
    hi: usize,
}

fn spans(src: &Source, lines: &[u32]) -> Vec<Span> {
    let mut by_fn: BTreeMap<String, Vec<usize>> = BTreeMap::new();
    for &l in lines {
        if let Some(s) = src.statement_at(l) {
            let f = src
                .stmts
                .get(s)
                .map(|x| x.function.clone())
                .unwrap_or_default();
            by_fn.entry(f).or_default().push(s);
        }
    }
    let mut out = Vec::new();
    for stmts in by_fn.values() {
        let Some(&first) = stmts.first() else {
            continue;
        };
        let common = src
            .enclosing_blocks(first)
            .into_iter()
            .find(|&b| stmts.iter().all(|&s| src.child_of_block(b, s).is_some()));
        let Some(b) = common else { continue };
        let idx: Vec<usize> = stmts
            .iter()
            .filter_map(|&s| src.child_of_block(b, s))
            .filter_map(|c| src.position(c).map(|(_, i)| i))
            .collect();
        if let (Some(&lo), Some(&hi)) = (idx.iter().min(), idx.iter().max()) {
            out.push(Span { block: b, lo, hi });
        }
    }
    out
}

fn children(src: &Source, sp: &Span) -> Vec<usize> {
    src.blocks
        .get(sp.block)
        .map(|b| {
            b.stmts
                .iter()
                .skip(sp.lo)
                .take(sp.hi + 1 - sp.lo)
                .copied()
                .collect()
        })
        .unwrap_or_default()
}

/// A span widened so that `m`'s critical sections in its block lie wholly inside or
/// outside it, and the lock and unlock calls of `m` inside it (to move out to its ends).
/// `None` when `m` cannot be used: a call without a partner in its block, or the span
/// already under `m`.
fn widen(src: &Source, sp: &Span, m: &str) -> Option<(Span, Vec<usize>)> {
    let block = src.blocks.get(sp.block)?;
    let level = pairs(src, &block.stmts, m)?;
    let pos = |s: usize| block.stmts.iter().position(|&x| x == s);
    let (mut lo, mut hi) = (sp.lo, sp.hi);
    loop {
        let mut changed = false;
        for &(l, u) in &level {
            let (pl, pu) = (pos(l)?, pos(u)?);
            let inside = |p: usize| lo <= p && p <= hi;
            if inside(pl) != inside(pu) || (pl < lo && pu > hi && (lo..=hi).any(|_| false)) {
                lo = lo.min(pl);
                hi = hi.max(pu);
                changed = true;
            }
        }
        if !changed {
            break;
        }
    }
    let span = Span {
        block: sp.block,
        lo,
        hi,
    };
    let kids = children(src, &span);
    // Under `m` already (a section around the whole span): wrapping it again would
    // deadlock on the non-recursive mutex.
    if kids.first().is_some_and(|&k| held_at(src, k, m)) {
        return None;
    }
    let mut removed = Vec::new();
    for &(l, u) in &level {
        if kids.contains(&l) && kids.contains(&u) {
            removed.extend([l, u]);
        }
    }
    // Sections nested deeper inside the span must pair up within their own blocks.
    for &k in &kids {
        for inner in src.within(k) {
            if inner == k {
                continue;
            }
            let Some(ib) = src.stmts.get(inner).and_then(|s| s.block) else {
                continue;
            };
            if src.blocks.get(ib).and_then(|b| b.stmts.first()) != Some(&inner) {
                continue;
            }
            let stmts = src.blocks.get(ib)?.stmts.clone();
            for (l, u) in pairs(src, &stmts, m)? {
                removed.extend([l, u]);
            }
        }
    }
    Some((span, removed))
}

fn is_jump_free(src: &Source, kids: &[usize]) -> bool {
    kids.iter()
        .all(|&k| src.stmts.get(k).is_some_and(|s| !s.jumps))
}

/// Edits that put `before` on its own line before statement `first` and `after` after
/// statement `last` (inline when a statement shares its line).
fn wrap(src: &Source, first: usize, last: usize, before: &str, after: &str) -> Vec<Edit> {
    let mut out = Vec::new();
    let indent = src.indent(first);
    match src.own_lines(first) {
        Some((start, _)) => out.push(Edit::insert(start, format!("{indent}{before}\n"))),
        None => {
            if let Some(s) = src.stmts.get(first) {
                out.push(Edit::insert(s.start, format!("{before} ")));
            }
        }
    }
    match src.own_lines(last) {
        Some((_, end)) => out.push(Edit::insert(end, format!("{indent}{after}\n"))),
        None => {
            if let Some(s) = src.stmts.get(last) {
                out.push(Edit::insert(s.end, format!(" {after}")));
            }
        }
    }
    out
}

fn lines_of(src: &Source, kids: &[usize]) -> (u32, u32) {
    let first = kids
        .first()
        .and_then(|&k| src.stmts.get(k))
        .map_or(0, |s| s.first_line);
    let last = kids
        .last()
        .and_then(|&k| src.stmts.get(k))
        .map_or(0, |s| s.last_line);
    (first, last)
}

fn describe_regions(regions: &[Region]) -> String {
    regions
        .iter()
        .map(|r| {
            if r.first_line == r.last_line {
                format!("line {} of `{}`", r.first_line, r.function)
            } else {
                format!("lines {}–{} of `{}`", r.first_line, r.last_line, r.function)
            }
        })
        .collect::<Vec<_>>()
        .join(" and ")
}

/// The critical-section proposals for one set of sites: each existing mutex that can be
/// widened over the regions, and a new one.
pub(super) fn locks(src: &Source, lines: &[u32]) -> Vec<Proposal> {
    let spans = spans(src, lines);
    if spans.is_empty() {
        return vec![];
    }
    let grown: Vec<Span> = spans.iter().map(|sp| grow(src, sp)).collect();
    let mut out = locks_over(src, &spans);
    if grown != spans {
        out.extend(locks_over(src, &grown));
    }
    // A region inside a branch or loop body, lifted to the statement that holds it and
    // grown there: the test that chose the branch belongs with what it guards.
    let lifted: Vec<Span> = spans
        .iter()
        .map(|sp| lift(src, sp).map_or_else(|| sp.clone(), |l| grow(src, &l)))
        .collect();
    if lifted != grown && lifted != spans {
        out.extend(locks_over(src, &lifted));
    }
    out
}

/// The span of the statement whose body holds `sp`'s block.
fn lift(src: &Source, sp: &Span) -> Option<Span> {
    let parent = src.blocks.get(sp.block)?.stmt?;
    let (block, i) = src.position(parent)?;
    Some(Span {
        block,
        lo: i,
        hi: i,
    })
}

/// A span grown over the neighbouring statements of its block that mention a variable
/// it mentions (BEST's code-proximity rule for intended atomic regions: a read and the
/// write of the value it read belong together), stopping at lock calls and jumps.
fn grow(src: &Source, sp: &Span) -> Span {
    let Some(block) = src.blocks.get(sp.block) else {
        return sp.clone();
    };
    let names = |s: usize| -> BTreeSet<String> {
        src.stmts
            .get(s)
            .map(|st| {
                st.idents
                    .iter()
                    .filter(|i| !i.starts_with("pthread_") && !src.global_mutexes.contains(i))
                    .cloned()
                    .collect()
            })
            .unwrap_or_default()
    };
    let plain = |s: usize| {
        src.stmts.get(s).is_some_and(|st| {
            !st.jumps && !st.checks && st.call.as_ref().and_then(|c| c.mutex()).is_none()
        })
    };
    let (mut lo, mut hi) = (sp.lo, sp.hi);
    let mut seen: BTreeSet<String> = (lo..=hi)
        .filter_map(|i| block.stmts.get(i))
        .flat_map(|&s| names(s))
        .collect();
    loop {
        let mut changed = false;
        if let Some(&prev) = lo.checked_sub(1).and_then(|i| block.stmts.get(i)) {
            if plain(prev) && !names(prev).is_disjoint(&seen) {
                lo -= 1;
                seen.extend(names(prev));
                changed = true;
            }
        }
        if let Some(&next) = block.stmts.get(hi + 1) {
            if plain(next) && !names(next).is_disjoint(&seen) {
                hi += 1;
                seen.extend(names(next));
                changed = true;
            }
        }
        // A region that is the whole inside of a critical section takes the section in:
        // the new lock then nests outside the existing one, as it does wherever a region
        // calls a function that takes it.
        if !changed {
            let op = |i: Option<usize>| {
                i.and_then(|i| block.stmts.get(i))
                    .and_then(|&s| src.stmts.get(s)?.call.as_ref()?.mutex())
            };
            if let (Some(("lock", a)), Some(("unlock", b))) =
                (op(lo.checked_sub(1)), op(Some(hi + 1)))
            {
                if a == b {
                    lo -= 1;
                    hi += 1;
                    changed = true;
                }
            }
        }
        if !changed {
            break;
        }
    }
    Span {
        block: sp.block,
        lo,
        hi,
    }
}

/// Calls an atomic section may not hold: blocking ones, and the atomic functions (an
/// atomic call inside an atomic section is refused by the checkers).
fn blocks_in_atomic(src: &Source, kids: &[usize]) -> bool {
    kids.iter().flat_map(|&k| src.within(k)).any(|i| {
        src.stmts.get(i).is_some_and(|st| {
            st.idents.iter().any(|n| {
                (n.starts_with("__VERIFIER_atomic_")
                    && n != "__VERIFIER_atomic_begin"
                    && n != "__VERIFIER_atomic_end")
                    || matches!(
                        n.as_str(),
                        "pthread_mutex_lock"
                            | "pthread_cond_wait"
                            | "pthread_cond_timedwait"
                            | "pthread_join"
                            | "pthread_barrier_wait"
                            | "pthread_rwlock_rdlock"
                            | "pthread_rwlock_wrlock"
                            | "sem_wait"
                    )
            })
        })
    })
}

fn locks_over(src: &Source, spans: &[Span]) -> Vec<Proposal> {
    let mut out = Vec::new();
    let atomic = src.atomic_sections.then(|| ATOMIC.to_string());
    for m in src.global_mutexes.iter().chain(atomic.as_ref()) {
        let mut edits = Vec::new();
        let mut regions = Vec::new();
        let mut locked = 0;
        let mut ok = true;
        for sp in spans {
            // A region already under `m` (held before its first statement, and no lock
            // or unlock of `m` among its statements) is protected by it as it is.
            let kids = children(src, sp);
            let touches_m = kids.iter().any(|&k| {
                src.within(k).into_iter().any(|i| {
                    src.stmts
                        .get(i)
                        .and_then(|st| st.call.as_ref()?.mutex())
                        .is_some_and(|(_, n)| n == *m)
                })
            });
            if !touches_m && kids.first().is_some_and(|&k| held_at(src, k, m)) {
                continue;
            }
            let Some((w, removed)) = widen(src, sp, m) else {
                ok = false;
                break;
            };
            let kids = children(src, &w);
            if !is_jump_free(src, &kids) || (m == ATOMIC && blocks_in_atomic(src, &kids)) {
                ok = false;
                break;
            }
            let (Some(&first), Some(&last)) = (kids.first(), kids.last()) else {
                ok = false;
                break;
            };
            let (lock, unlock) = lock_calls(m);
            edits.extend(wrap(src, first, last, &lock, &unlock));
            edits.extend(removed.iter().filter_map(|&s| delete_stmt(src, s)));
            locked += kids.iter().map(|&k| src.within(k).len()).sum::<usize>() - removed.len();
            let (a, b) = lines_of(src, &kids);
            regions.push(Region {
                function: function_of(src, first),
                first_line: a,
                last_line: b,
            });
        }
        if ok && !edits.is_empty() {
            let summary = if m == ATOMIC {
                format!(
                    "one atomic section (`__VERIFIER_atomic_begin/end`, as the program's own) around {}",
                    describe_regions(&regions)
                )
            } else {
                format!(
                    "take the existing mutex `{m}` around {}",
                    describe_regions(&regions)
                )
            };
            out.push(Proposal {
                summary,
                action: Action::Lock {
                    mutex: m.clone(),
                    new: false,
                    regions,
                },
                edits,
                statements_locked: locked,
                serializes: false,
                kills: Vec::new(),
                tier: 0,
            });
        }
    }
    let name = src.fresh_name("seqloc_repair_lock");
    let mut edits = Vec::new();
    let mut regions = Vec::new();
    let mut locked = 0;
    for sp in spans {
        let kids = children(src, sp);
        if !is_jump_free(src, &kids) {
            return out;
        }
        let (Some(&first), Some(&last)) = (kids.first(), kids.last()) else {
            return out;
        };
        edits.extend(wrap(
            src,
            first,
            last,
            &format!("pthread_mutex_lock(&{name});"),
            &format!("pthread_mutex_unlock(&{name});"),
        ));
        locked += kids.iter().map(|&k| src.within(k).len()).sum::<usize>();
        let (a, b) = lines_of(src, &kids);
        regions.push(Region {
            function: function_of(src, first),
            first_line: a,
            last_line: b,
        });
    }
    let mut decl = String::new();
    if !src.includes_pthread {
        decl.push_str("#include <pthread.h>\n");
    }
    decl.push_str(&format!(
        "pthread_mutex_t {name} = PTHREAD_MUTEX_INITIALIZER; /* added by seqloc repair */\n"
    ));
    edits.insert(0, Edit::insert(src.includes_end, decl));
    out.push(Proposal {
        summary: format!("a new mutex `{name}` around {}", describe_regions(&regions)),
        action: Action::Lock {
            mutex: name,
            new: true,
            regions,
        },
        edits,
        statements_locked: locked,
        serializes: false,
        kills: Vec::new(),
        tier: 0,
    });
    out
}

#[cfg(test)]
mod atomic_tests {
    use super::*;
    use crate::repair::edit::apply;

    const SPLIT: &str = r#"extern void __VERIFIER_atomic_begin(void);
extern void __VERIFIER_atomic_end(void);
int seq, reading;
void *sensor(void *arg) {
  int k;
  for (k = 1; k <= 2; k++) {
    __VERIFIER_atomic_begin();
    seq = k;
    __VERIFIER_atomic_end();
    __VERIFIER_atomic_begin();
    reading = 10 * k;
    __VERIFIER_atomic_end();
  }
  return 0;
}
"#;

    #[test]
    fn two_atomic_sections_of_the_program_merge_into_one() {
        let src = Source::parse(SPLIT).expect("parses");
        assert!(src.atomic_sections);
        let props = locks(&src, &[9, 10]);
        let merged = props
            .iter()
            .find(|p| matches!(&p.action, Action::Lock { mutex, regions, .. }
                if mutex == ATOMIC && regions.iter().all(|r| r.first_line == 7 && r.last_line == 12)))
            .expect("the two sections of the loop body merged");
        assert_eq!(merged.action.kind(), "atomic");
        let text = apply(&src.text, &merged.edits).expect("applies");
        assert!(
            text.contains("    __VERIFIER_atomic_begin();\n    seq = k;\n    reading = 10 * k;\n    __VERIFIER_atomic_end();\n  }"),
            "{text}"
        );
    }

    #[test]
    fn no_atomic_section_where_the_program_has_none_or_it_would_block() {
        let plain = SPLIT
            .replace("__VERIFIER_atomic_begin();", "(void)0;")
            .replace("__VERIFIER_atomic_end();", "(void)0;");
        let src = Source::parse(&plain).expect("parses");
        assert!(!src.atomic_sections);
        assert!(
            locks(&src, &[8, 11])
                .iter()
                .all(|p| p.action.kind() == "lock")
        );
        // A wait inside the region: an atomic section may not block.
        let waits = SPLIT.replace("    seq = k;\n", "    seq = k;\n    pthread_join(h, 0);\n");
        let src = Source::parse(&waits).expect("parses");
        let props = locks(&src, &[8, 9]);
        assert!(
            props.iter().all(|p| p.action.kind() != "atomic"),
            "{props:?}"
        );
    }
}
