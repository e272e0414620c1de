//! The way out of a function after a thread's last step: an inlined `return` runs no step.

use crate::ir::{Stmt, StmtId, StmtKind};

/// A position in a function body: each frame is a statement and the index of the child
/// control is in (`Block`: the statement's index; `If`: 0 then, 1 else; loops: 0 body).
type Path<'a> = Vec<(&'a Stmt, usize)>;

/// Most jumps followed from one statement to the function's exit (a `goto` cycle ends).
const MAX_JUMPS: u32 = 32;

/// The jumps by which control leaves a function right after statement `sid` ran, when
/// nothing in between runs a step (labels, empty statements, the ends of `if` branches,
/// and of an `if` the one branch that reaches a `return` without a step): every `goto`
/// and `break` taken, then the `return`. `None` when the
/// way out is not that simple (a loop goes round again, a statement would run, the body
/// ends without a `return`). A statement that is itself a `return` is its own way out.
pub(super) fn exit_jumps(body: &Stmt, sid: StmtId) -> Option<Vec<&Stmt>> {
    if sid.is_none() {
        return None;
    }
    let mut path = Vec::new();
    let target = find(
        body,
        &|s: &Stmt| s.id == sid && !matches!(s.kind, StmtKind::Block(_)),
        &mut path,
    )?;
    let mut jumps = Vec::new();
    let mut budget = MAX_JUMPS;
    let done = match &target.kind {
        // An `if` whose condition was the last step: which branch it took is found as
        // for one reached without a step.
        StmtKind::Return(_) | StmtKind::Goto(_) | StmtKind::Break | StmtKind::If { .. } => {
            // `enter` wants the frame of the statement's parent on the path.
            matches!(
                enter(body, target, &mut path, &mut jumps, &mut budget),
                Flow::Done(true)
            )
        }
        StmtKind::While { .. }
        | StmtKind::DoWhile { .. }
        | StmtKind::For { .. }
        | StmtKind::Switch { .. } => false,
        _ => leave(body, path, &mut jumps, &mut budget),
    };
    (done && !jumps.is_empty()).then_some(jumps)
}

/// Whether control that leaves the function by `exit` (a `return`) never ran `other`:
/// the two are on different branches of an `if`, or `exit` comes first in a block that
/// holds both. `false` when `other` may have run before (it comes first, perhaps under a
/// condition of its own) or either is not in `body`.
pub(super) fn skips(body: &Stmt, exit: StmtId, other: StmtId) -> bool {
    let (mut pe, mut po) = (Vec::new(), Vec::new());
    if find(body, &|s: &Stmt| s.id == exit, &mut pe).is_none()
        || find(body, &|s: &Stmt| s.id == other, &mut po).is_none()
    {
        return false;
    }
    for ((ps, ie), (_, io)) in pe.iter().zip(&po) {
        if ie == io {
            continue;
        }
        return match ps.kind {
            StmtKind::If { .. } => true,
            StmtKind::Block(_) => ie < io,
            _ => false,
        };
    }
    false
}

enum Flow {
    /// Control passes on to the statement after it.
    Through,
    /// Control went elsewhere: whether it reached a `return`.
    Done(bool),
}

/// The first statement satisfying `pred` in `s`, with the path to it.
fn find<'a>(s: &'a Stmt, pred: &dyn Fn(&Stmt) -> bool, path: &mut Path<'a>) -> Option<&'a Stmt> {
    if pred(s) {
        return Some(s);
    }
    let children: Vec<&'a Stmt> = match &s.kind {
        StmtKind::Block(ss) => ss.iter().collect(),
        StmtKind::If { then, els, .. } => {
            let mut v = vec![then.as_ref()];
            v.extend(els.as_deref());
            v
        }
        StmtKind::While { body, .. }
        | StmtKind::DoWhile { body, .. }
        | StmtKind::For { body, .. }
        | StmtKind::Switch { body, .. } => vec![body.as_ref()],
        _ => vec![],
    };
    for (i, c) in children.into_iter().enumerate() {
        path.push((s, i));
        if let Some(x) = find(c, pred, path) {
            return Some(x);
        }
        path.pop();
    }
    None
}

/// Control after the statement at the end of `path` completed: whether it reaches a
/// `return` through statements that run no step.
fn leave<'a>(
    body: &'a Stmt,
    mut path: Path<'a>,
    jumps: &mut Vec<&'a Stmt>,
    budget: &mut u32,
) -> bool {
    while let Some((parent, idx)) = path.pop() {
        match &parent.kind {
            StmtKind::Block(ss) => {
                for (j, next) in ss.iter().enumerate().skip(idx + 1) {
                    path.push((parent, j));
                    match enter(body, next, &mut path, jumps, budget) {
                        Flow::Through => {
                            path.pop();
                        }
                        Flow::Done(r) => return r,
                    }
                }
            }
            // A branch ran to its end: the statement after the `if`.
            StmtKind::If { .. } => {}
            // A loop body's end goes round again (its condition runs a step).
            _ => return false,
        }
    }
    // The body ended without a `return`.
    false
}

/// Control reaching statement `s` (at the end of `path`).
fn enter<'a>(
    body: &'a Stmt,
    s: &'a Stmt,
    path: &mut Path<'a>,
    jumps: &mut Vec<&'a Stmt>,
    budget: &mut u32,
) -> Flow {
    match &s.kind {
        StmtKind::Skip | StmtKind::Label(_) => Flow::Through,
        StmtKind::Block(ss) => {
            for (j, c) in ss.iter().enumerate() {
                path.push((s, j));
                match enter(body, c, path, jumps, budget) {
                    Flow::Through => {
                        path.pop();
                    }
                    done => return done,
                }
            }
            Flow::Through
        }
        StmtKind::Return(_) => {
            jumps.push(s);
            Flow::Done(true)
        }
        // A condition is a local temporary (normalization's shape): testing it runs no
        // step, but one branch may. The thread ran no further step here, so a branch that
        // would have is not the one taken; when exactly one branch reaches a `return`
        // without a step, that is the way out.
        StmtKind::If { then, els, .. } => {
            let mut ways: Vec<Vec<&'a Stmt>> = Vec::new();
            for (k, branch) in std::iter::once(then.as_ref())
                .chain(els.as_deref())
                .enumerate()
            {
                let mut p = path.clone();
                let mut js = jumps.clone();
                let mut b = *budget;
                p.push((s, k));
                let reached = match enter(body, branch, &mut p, &mut js, &mut b) {
                    Flow::Through => {
                        p.pop();
                        leave(body, p, &mut js, &mut b)
                    }
                    Flow::Done(r) => r,
                };
                if reached {
                    ways.push(js);
                }
            }
            if els.is_none() {
                // No `else`: control may also pass straight to the statement after.
                let mut js = jumps.clone();
                let mut b = *budget;
                if leave(body, path.clone(), &mut js, &mut b) {
                    ways.push(js);
                }
            }
            ways.dedup_by(|a, b| {
                a.len() == b.len() && a.iter().zip(b.iter()).all(|(x, y)| x.id == y.id)
            });
            match <[_; 1]>::try_from(ways) {
                Ok([way]) => {
                    *jumps = way;
                    Flow::Done(true)
                }
                Err(_) => Flow::Done(false),
            }
        }
        StmtKind::Goto(l) => {
            jumps.push(s);
            if *budget == 0 {
                return Flow::Done(false);
            }
            *budget -= 1;
            let mut to = Vec::new();
            let is_label = |x: &Stmt| matches!(&x.kind, StmtKind::Label(m) if m == l);
            if find(body, &is_label, &mut to).is_none() {
                return Flow::Done(false);
            }
            Flow::Done(leave(body, to, jumps, budget))
        }
        StmtKind::Break => {
            jumps.push(s);
            // The innermost loop or switch completes.
            let Some(pos) = path.iter().rposition(|(a, _)| {
                matches!(
                    a.kind,
                    StmtKind::While { .. }
                        | StmtKind::DoWhile { .. }
                        | StmtKind::For { .. }
                        | StmtKind::Switch { .. }
                )
            }) else {
                return Flow::Done(false);
            };
            Flow::Done(leave(body, path[..pos].to_vec(), jumps, budget))
        }
        _ => Flow::Done(false),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::diag::interleaving::fixtures::{EXITS, last_stmt_at, prepared};

    fn exit_lines(p: &crate::passes::Prepared, func: &str, line: u32) -> Option<Vec<u32>> {
        let prog = &p.normalized;
        let f = prog.func_named(func)?;
        let body = prog.func(f).body.as_ref()?;
        let sid = last_stmt_at(p, func, line);
        exit_jumps(body, sid).map(|js| js.iter().map(|s| prog.sources.line(s.loc)).collect())
    }

    /// A `return` skips what another branch, or what comes after it, would run.
    #[test]
    fn a_return_skips_the_other_branch_and_what_follows() {
        let p = prepared(EXITS);
        let prog = &p.normalized;
        let f = prog.func_named("early").expect("early");
        let body = prog.func(f).body.as_ref().expect("a body");
        let early_return = last_stmt_at(&p, "early", 9);
        // `n = n + v` (line 11) comes after the early return; `n = n + 1` (8) before it.
        assert!(skips(body, early_return, last_stmt_at(&p, "early", 11)));
        assert!(!skips(body, early_return, last_stmt_at(&p, "early", 8)));
        // The last `return 0` (13) runs after line 11.
        assert!(!skips(
            body,
            last_stmt_at(&p, "early", 13),
            last_stmt_at(&p, "early", 11)
        ));
    }

    /// An inlined `return` runs no step: the way out after the last step is found in the
    /// function's control flow.
    #[test]
    fn the_return_after_the_last_step_is_found() {
        let p = prepared(EXITS);
        // After `n = n + 1` (line 8): the early `return -1` (line 9).
        assert_eq!(exit_lines(&p, "early", 8), Some(vec![9]));
        // A return that ran is its own way out.
        assert_eq!(exit_lines(&p, "early", 9), Some(vec![9]));
        // After the condition of line 18: the `goto out` (19), then `return v` (23) —
        // the other branch runs a step (line 20), so the thread that ran none took this.
        assert_eq!(exit_lines(&p, "via_goto", 18), Some(vec![19, 23]));
        assert_eq!(exit_lines(&p, "via_goto", 19), Some(vec![19, 23]));
        // After the condition of line 7 (`early`) both ways run a step (lines 8, 11).
        assert_eq!(exit_lines(&p, "early", 7), None);
        // `break` leaves the loop for the `return r` after it.
        assert_eq!(exit_lines(&p, "via_break", 31), Some(vec![31, 35]));
        // The end of a loop body goes round again; a body without `return` ends.
        assert_eq!(exit_lines(&p, "via_break", 33), None);
        assert_eq!(exit_lines(&p, "falls_off", 40), None);
        // Statements that would run a step in between: no simple way out.
        assert_eq!(exit_lines(&p, "early", 6), None);
    }
}
