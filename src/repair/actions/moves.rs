//! Reorderings: a statement moved before or after a nearby statement of its block that it
//! does not depend on, never pushing code out of a critical section.

use std::collections::BTreeSet;

use super::{Action, MAX_MOVE, MAX_RANKED, Proposal, Sites, mentions, pairs};
use crate::repair::edit::Edit;
use crate::repair::source::Source;

/// The mutexes the lock calls of `stmts` name (fields and pointers included).
fn block_mutexes(src: &Source, stmts: &[usize]) -> Vec<String> {
    let mut out: Vec<String> = stmts
        .iter()
        .filter_map(|&s| src.stmts.get(s)?.call.as_ref()?.mutex())
        .map(|(_, m)| m)
        .filter(|m| !src.global_mutexes.contains(m))
        .collect();
    out.sort();
    out.dedup();
    out
}

/// A statement with no effect (`(void)arg;`): moving it, or across it alone, changes
/// nothing.
fn inert(src: &Source, s: usize) -> bool {
    src.stmts.get(s).is_some_and(|st| {
        let text = src.text_of(s);
        let text = text.strip_prefix("(void)").unwrap_or(text);
        st.kind == "expression_statement"
            && st.writes.is_empty()
            && st.call.is_none()
            && !text.contains('(')
    })
}

/// Can `x` move across `c` without changing what either computes (textually)?
fn independent(src: &Source, x: usize, c: usize) -> bool {
    let (Some(a), Some(b)) = (src.stmts.get(x), src.stmts.get(c)) else {
        return false;
    };
    let movable = |s: &crate::repair::source::Stmt| {
        !s.jumps && !s.checks && !s.calls_user && s.kind != "declaration"
    };
    movable(a) && movable(b) && a.writes.is_disjoint(&b.idents) && b.writes.is_disjoint(&a.idents)
}

/// Statement moves around the best candidates: a candidate moved up or down over up to
/// `MAX_MOVE` statements of its block, or a neighbour moved across it.
pub(super) fn reorders(src: &Source, sites: &Sites) -> Vec<Proposal> {
    let mut out = Vec::new();
    let mut seen = BTreeSet::new();
    for &line in sites.ranked.iter().take(MAX_RANKED + 2) {
        let Some(s) = src.statement_at(line) else {
            continue;
        };
        let Some((b, i)) = src.position(s) else {
            continue;
        };
        let Some(block) = src.blocks.get(b) else {
            continue;
        };
        // (moved, target): the statement at `moved` goes before `target` when
        // target < moved, after it when target > moved.
        let mut moves = Vec::new();
        for k in 1..=MAX_MOVE {
            if let Some(j) = i.checked_sub(k) {
                moves.extend([(i, j), (j, i)]);
            }
            if i + k < block.stmts.len() {
                moves.extend([(i + k, i), (i, i + k)]);
            }
        }
        // Over a whole critical section next to it (a lock and its unlock in the block):
        // a join or a lock taken after another thread's section, not inside it.
        let level: Vec<(usize, usize)> = src
            .global_mutexes
            .iter()
            .chain(block_mutexes(src, &block.stmts).iter())
            .filter_map(|m| pairs(src, &block.stmts, m))
            .flatten()
            .filter_map(|(l, u)| {
                let pl = block.stmts.iter().position(|&x| x == l)?;
                let pu = block.stmts.iter().position(|&x| x == u)?;
                Some((pl, pu))
            })
            .collect();
        for &(pl, pu) in &level {
            if pl == i + 1 {
                moves.push((i, pu));
            }
            if pu + 1 == i {
                moves.push((i, pl));
            }
        }
        for (from, to) in moves {
            if !seen.insert((b, from, to)) {
                continue;
            }
            if let Some(p) = reorder(src, &block.stmts, from, to) {
                out.push(p);
            }
        }
    }
    out
}

/// Whether moving `x` across `crossed` keeps every data statement on its side of the lock
/// and unlock calls it passes: a move may pull code into a critical section, never push it
/// out of one (that would be a race made, not removed).
fn keeps_sections(src: &Source, x: usize, crossed: &[usize], up: bool) -> bool {
    let op = |s: usize| src.stmts.get(s).and_then(|st| st.call.as_ref()?.mutex());
    let data = |s: usize| {
        src.stmts.get(s).is_some_and(|st| {
            st.call
                .as_ref()
                .is_none_or(|c| !c.name.starts_with("pthread_"))
        })
    };
    let xo = op(x);
    // Data inside a section of another mutex that moves along with it stays protected.
    let sheltered = |c: usize| {
        let Some(at) = crossed.iter().position(|&y| y == c) else {
            return false;
        };
        let mut open: Vec<String> = Vec::new();
        for &y in crossed.iter().take(at) {
            match op(y) {
                Some(("lock", n)) => open.push(n),
                Some(("unlock", n)) => open.retain(|o| *o != n),
                _ => {}
            }
        }
        open.iter().any(|n| {
            crossed
                .iter()
                .skip(at + 1)
                .any(|&y| op(y).is_some_and(|(k, m)| k == "unlock" && m == *n))
        })
    };
    crossed.iter().all(|&c| {
        let co = op(c);
        if let (Some((_, a)), Some((_, b))) = (&xo, &co) {
            if a == b {
                return false;
            }
        }
        let (x_kind, c_kind) = (xo.as_ref().map(|o| o.0), co.as_ref().map(|o| o.0));
        match (up, x_kind, c_kind) {
            // x moves before a lock: x leaves the section it followed.
            (true, None, Some("lock")) => !data(x),
            // an unlock moves before data: the data leaves the section.
            (true, Some("unlock"), None) => !data(c) || sheltered(c),
            // x moves after an unlock: it leaves the section it was in.
            (false, None, Some("unlock")) => !data(x),
            // a lock moves after data: the data leaves the section.
            (false, Some("lock"), None) => !data(c) || sheltered(c),
            _ => true,
        }
    })
}

pub(super) fn reorder(src: &Source, stmts: &[usize], from: usize, to: usize) -> Option<Proposal> {
    let up = to < from;
    let (&x, &y) = (stmts.get(from)?, stmts.get(to)?);
    let crossed = if up {
        stmts.get(to..from)?
    } else {
        stmts.get(from + 1..=to)?
    };
    if !crossed.iter().all(|&c| independent(src, x, c))
        || !keeps_sections(src, x, crossed, up)
        || inert(src, x)
        || crossed.iter().all(|&c| inert(src, c))
    {
        return None;
    }
    let (xa, xb) = src.own_lines(x)?;
    let (ya, yb) = src.own_lines(y)?;
    let moved = src.text.get(xa..xb)?;
    let (xs, ys) = (src.stmts.get(x)?, src.stmts.get(y)?);
    let at = if up { ya } else { yb };
    Some(Proposal {
        summary: format!(
            "move line {} of `{}` (`{}`) {} line {}",
            xs.first_line,
            xs.function,
            src.text_of(x).lines().next().unwrap_or("").trim(),
            if up { "before" } else { "after" },
            if up { ys.first_line } else { ys.last_line },
        ),
        action: Action::Reorder {
            function: xs.function.clone(),
            moved: xs.first_line,
            target: if up { ys.first_line } else { ys.last_line },
            after: !up,
        },
        edits: if up {
            vec![Edit::insert(at, moved.to_string()), Edit::delete(xa, xb)]
        } else {
            vec![Edit::delete(xa, xb), Edit::insert(at, moved.to_string())]
        },
        statements_locked: 0,
        serializes: serializes(src, x, crossed, up),
        kills: Vec::new(),
        tier: 0,
    })
}

/// Whether a move makes code wait for a whole thread: a join moved earlier or a creation
/// moved later, or code moved after a join or before a creation. (A join moved later or
/// a creation earlier lets the threads overlap more, not less.)
fn serializes(src: &Source, x: usize, crossed: &[usize], up: bool) -> bool {
    let (join, create) = ("pthread_join", "pthread_create");
    if up {
        mentions(src, x, join) || crossed.iter().any(|&c| mentions(src, c, create))
    } else {
        mentions(src, x, create) || crossed.iter().any(|&c| mentions(src, c, join))
    }
}
