//! Loops written with `goto`: a label followed, in the same block, by statements that jump
//! back to it becomes `label: while (1) { statements; break; again: }`, in the shape
//! normalization gives every loop (`passes::normalize`), with each jump back a jump
//! forward to `again`, which starts the next iteration.
//!
//! Why: the bounded search unrolls structured loops and refuses a backward jump (it cannot
//! bound one), yet C programs retry with `again: ... goto again;` (SV-COMP's
//! `pthread-divine` FIFO pops a node and starts over that way). Written as a loop, the
//! retry is unwound like any other loop, and its bound is reported as a loop's.
//!
//! The rewrite is exact only where the new loop changes nothing else, so it is made only
//! when, inside the statements after the label:
//!
//! * no `break` is outside a loop or `switch` among them, and no `continue` outside a loop
//!   among them (it would now leave or restart the new loop instead of the one around the
//!   label's block; a `switch` does not catch a `continue`);
//! * no `case` or `default` label is outside a `switch` among them, loops or not (the
//!   label's block is a `switch` body, which the loop would cut);
//! * every label among them is jumped to only from among them (a jump into the loop's body
//!   from outside).
//!
//! A backward jump to statements that end the run (SV-COMP's `goto ERROR;` back into an
//! earlier `ERROR: { reach_error(); abort(); }`) is no loop; it becomes a copy of those
//! statements (`inline_error_tails`).
//!
//! Anything else is left as written, and the bounded search refuses the backward jump by
//! name as before. A jump back from inside an inner loop is a jump out of that loop, which
//! a forward `goto` is too, so it needs no condition. Labels are processed from the last in
//! a block to the first, so nested retry loops nest.

use std::collections::{BTreeSet, HashMap};

use crate::ir::visit::{VisitorMut, walk_stmt_mut};
use crate::ir::*;

/// Rewrites the retry loops of every function of `prog` (normalized: runs after it).
pub fn rewrite(prog: &mut Program) {
    for i in 0..prog.funcs.len() {
        let Some(mut body) = prog.funcs.get_mut(i).and_then(|f| f.body.take()) else {
            continue;
        };
        let mut gotos = HashMap::new();
        count_gotos(&body, &mut gotos);
        rewrite_stmt(&mut body, &gotos, prog);
        inline_error_tails(&mut body);
        if let Some(f) = prog.funcs.get_mut(i) {
            f.body = Some(body);
        }
    }
}

fn count_gotos(s: &Stmt, out: &mut HashMap<String, usize>) {
    crate::ir::visit::each_stmt(s, &mut |x| {
        if let StmtKind::Goto(l) = &x.kind {
            *out.entry(l.clone()).or_default() += 1;
        }
    });
}

fn fresh(prog: &mut Program) -> StmtId {
    let id = StmtId(prog.next_stmt_id);
    prog.next_stmt_id += 1;
    id
}

/// Rewrites the blocks inside `s` first, then `s`: an inner retry loop is made before the
/// outer one is looked at.
fn rewrite_stmt(s: &mut Stmt, gotos: &HashMap<String, usize>, prog: &mut Program) {
    struct Rewrite<'a> {
        gotos: &'a HashMap<String, usize>,
        prog: &'a mut Program,
    }
    impl VisitorMut for Rewrite<'_> {
        fn visit_stmt(&mut self, s: &mut Stmt) {
            walk_stmt_mut(self, s);
            if let StmtKind::Block(ss) = &mut s.kind {
                rewrite_block(ss, self.gotos, self.prog);
            }
        }
    }
    Rewrite { gotos, prog }.visit_stmt(s)
}

fn rewrite_block(ss: &mut Vec<Stmt>, gotos: &HashMap<String, usize>, prog: &mut Program) {
    let mut i = ss.len();
    while i > 0 {
        i -= 1;
        let Some(StmtKind::Label(label)) = ss.get(i).map(|s| &s.kind) else {
            continue;
        };
        let label = label.clone();
        let Some(region) = ss.get(i + 1..) else {
            continue;
        };
        if !is_retry_loop(region, &label, gotos) {
            continue;
        }
        let head = ss[i].loc;
        let again = prog.fresh_label("again");
        let mut body: Vec<Stmt> = ss.drain(i + 1..).collect();
        for x in &mut body {
            retarget(x, &label, &again);
        }
        let end = body.last().map(|x| x.loc).unwrap_or(head);
        body.push(Stmt::new(StmtKind::Break, end).with_id(fresh(prog)));
        body.push(Stmt::new(StmtKind::Label(again), end).with_id(fresh(prog)));
        let block = Stmt::block(body, head).with_id(fresh(prog));
        let id = fresh(prog);
        ss.push(
            Stmt::new(
                StmtKind::While {
                    cond: Expr::int(1, Type::int(), head),
                    body: Box::new(block),
                },
                head,
            )
            .with_id(id),
        );
    }
}

/// What the statements after a label hold: the jumps back, `break`/`continue`/`case`
/// outside the loops and `switch`es among them, the labels and the jumps to each.
#[derive(Default)]
struct Region {
    jumps_back: usize,
    loose_break_or_continue: bool,
    loose_case: bool,
    labels: BTreeSet<String>,
    gotos: HashMap<String, usize>,
}

fn is_retry_loop(region: &[Stmt], label: &str, gotos: &HashMap<String, usize>) -> bool {
    let mut r = Region::default();
    for s in region {
        scan(s, label, Depth::default(), &mut r);
    }
    r.jumps_back > 0
        && !r.loose_break_or_continue
        && !r.loose_case
        && r.labels
            .iter()
            .all(|l| r.gotos.get(l).copied().unwrap_or(0) == gotos.get(l).copied().unwrap_or(0))
}

/// How many loops and `switch`es among the statements after the label enclose a
/// statement: a `break` is caught by either, a `continue` only by a loop (inside a
/// `switch` it still continues the loop around it), a `case` only by a `switch` (inside
/// a loop, Duff's device, it still belongs to the `switch` around it).
#[derive(Clone, Copy, Default)]
struct Depth {
    loops: usize,
    switches: usize,
}

fn scan(s: &Stmt, label: &str, depth: Depth, r: &mut Region) {
    let in_loop = Depth {
        loops: depth.loops + 1,
        ..depth
    };
    match &s.kind {
        StmtKind::Goto(l) => {
            *r.gotos.entry(l.clone()).or_default() += 1;
            if l == label {
                r.jumps_back += 1;
            }
        }
        StmtKind::Label(l) => {
            r.labels.insert(l.clone());
        }
        StmtKind::Break if depth.loops + depth.switches == 0 => r.loose_break_or_continue = true,
        StmtKind::Continue if depth.loops == 0 => r.loose_break_or_continue = true,
        StmtKind::Case { .. } | StmtKind::Default if depth.switches == 0 => r.loose_case = true,
        StmtKind::Block(ss) => {
            for x in ss {
                scan(x, label, depth, r);
            }
        }
        StmtKind::If { then, els, .. } => {
            scan(then, label, depth, r);
            if let Some(e) = els {
                scan(e, label, depth, r);
            }
        }
        StmtKind::While { body, .. } | StmtKind::DoWhile { body, .. } => {
            scan(body, label, in_loop, r)
        }
        StmtKind::Switch { body, .. } => scan(
            body,
            label,
            Depth {
                switches: depth.switches + 1,
                ..depth
            },
            r,
        ),
        StmtKind::For { init, body, .. } => {
            for x in init {
                scan(x, label, depth, r);
            }
            scan(body, label, in_loop, r);
        }
        _ => {}
    }
}

/// A backward jump to a label whose statements end the run without falling through (SV-COMP's
/// `ERROR: { reach_error(); abort(); }` in an earlier block, jumped to by a later `goto
/// ERROR;`) is no loop: it runs those statements and never comes back. The jump is replaced
/// by a copy of them (their ids kept, as inlining keeps them), which is exact because
/// control cannot leave the copy but through their end. Only plain statements qualify:
/// expressions, blocks and `if`s, ending in `abort()`, `exit` or a `return`.
fn inline_error_tails(body: &mut Stmt) {
    let mut tails: HashMap<String, (usize, Vec<Stmt>)> = HashMap::new();
    find_tails(body, &mut tails);
    if tails.is_empty() {
        return;
    }
    replace_backward(body, &tails);
}

/// Labels with a tail that ends the run, with their place in the function's pre-order.
fn find_tails(body: &Stmt, out: &mut HashMap<String, (usize, Vec<Stmt>)>) {
    let mut order = 0;
    let mut places: HashMap<String, usize> = HashMap::new();
    let mut tails: Vec<(String, Vec<Stmt>)> = Vec::new();
    crate::ir::visit::each_stmt(body, &mut |s| {
        order += 1;
        match &s.kind {
            StmtKind::Label(l) => {
                places.insert(l.clone(), order);
            }
            StmtKind::Block(ss) => {
                for (i, x) in ss.iter().enumerate() {
                    let StmtKind::Label(l) = &x.kind else {
                        continue;
                    };
                    let rest = ss.get(i + 1..).unwrap_or_default();
                    if let Some(end) = rest.iter().position(never_completes) {
                        let tail = &rest[..=end];
                        if tail.iter().all(plain) {
                            tails.push((l.clone(), tail.to_vec()));
                        }
                    }
                }
            }
            _ => {}
        }
    });
    for (l, tail) in tails {
        if let Some(&at) = places.get(&l) {
            out.insert(l, (at, tail));
        }
    }
}

/// Replaces each jump that comes after its label's tail in pre-order (the same order as
/// `find_tails` counts, a jump having no statements inside) by a copy of the tail.
fn replace_backward(body: &mut Stmt, tails: &HashMap<String, (usize, Vec<Stmt>)>) {
    struct Replace<'a> {
        order: usize,
        tails: &'a HashMap<String, (usize, Vec<Stmt>)>,
    }
    impl VisitorMut for Replace<'_> {
        fn visit_stmt(&mut self, s: &mut Stmt) {
            self.order += 1;
            if let StmtKind::Goto(l) = &s.kind {
                if let Some((at, tail)) = self.tails.get(l.as_str()) {
                    if *at < self.order {
                        s.kind = StmtKind::Block(tail.clone());
                    }
                }
                return;
            }
            walk_stmt_mut(self, s)
        }
    }
    Replace { order: 0, tails }.visit_stmt(body)
}

/// Control never leaves `s` through its end (`abort()`, `exit`, a `return`, or a block or
/// both branches of an `if` doing so).
fn never_completes(s: &Stmt) -> bool {
    match &s.kind {
        StmtKind::Expr(e) => matches!(e.kind, ExprKind::Intrinsic(Intrinsic::Abort, _)),
        StmtKind::Return(_) => true,
        StmtKind::Block(ss) => ss.iter().any(never_completes),
        StmtKind::If { then, els, .. } => {
            never_completes(then) && els.as_deref().is_some_and(never_completes)
        }
        _ => false,
    }
}

/// A statement a copy can stand for the original: no declaration, jump or label inside.
fn plain(s: &Stmt) -> bool {
    match &s.kind {
        StmtKind::Expr(_) | StmtKind::Return(_) | StmtKind::Skip => true,
        StmtKind::Block(ss) => ss.iter().all(plain),
        StmtKind::If { then, els, .. } => plain(then) && els.as_deref().is_none_or(plain),
        _ => false,
    }
}

/// Every jump to `label` in `s` jumps to `again` instead.
fn retarget(s: &mut Stmt, label: &str, again: &str) {
    struct Retarget<'a>(&'a str, &'a str);
    impl VisitorMut for Retarget<'_> {
        fn visit_stmt(&mut self, s: &mut Stmt) {
            match &mut s.kind {
                StmtKind::Goto(l) if l == self.0 => *l = self.1.to_string(),
                _ => walk_stmt_mut(self, s),
            }
        }
    }
    Retarget(label, again).visit_stmt(s)
}

#[cfg(test)]
mod tests {
    use crate::frontend;
    use crate::ir::*;

    fn prepared(src: &str) -> Program {
        let mut p = frontend::load_text("t.c", src, DataModel::Lp64).expect("parses");
        crate::passes::normalize::normalize(&mut p);
        p
    }

    /// Loops, and jumps to the labels the program wrote (`again`) and to the ones the
    /// rewrite made (`again_…`).
    fn kinds(p: &Program, func: &str) -> (usize, usize, usize) {
        let f = p.func_named(func).expect("function");
        let (mut loops, mut written, mut made) = (0, 0, 0);
        if let Some(body) = &p.func(f).body {
            crate::ir::visit::each_stmt(body, &mut |s| match &s.kind {
                StmtKind::While { .. } => loops += 1,
                StmtKind::Goto(l) if l == "again" => written += 1,
                StmtKind::Goto(l) if l.starts_with("__again") => made += 1,
                _ => {}
            });
        }
        (loops, written, made)
    }

    #[test]
    fn a_retry_with_goto_becomes_a_loop() {
        let p = prepared(
            "int n;\nvoid pop(void) {\nagain:\n  n = n - 1;\n  if (n > 3) {\n    n = n - 1;\n    goto again;\n  }\n}\n",
        );
        assert_eq!(kinds(&p, "pop"), (1, 0, 1));
    }

    #[test]
    fn a_jump_back_from_an_inner_loop_leaves_it() {
        let p = prepared(
            "int n;\nvoid f(void) {\nagain:\n  while (n > 0) {\n    n = n - 1;\n    if (n == 5) goto again;\n  }\n}\n",
        );
        assert_eq!(kinds(&p, "f"), (2, 0, 1));
    }

    #[test]
    fn jumps_a_loop_would_change_are_left_alone() {
        // A `break` after the label leaves the loop around the block.
        let p = prepared(
            "int n;\nvoid g(void) {\n  while (n < 9) {\n  again:\n    n = n + 1;\n    if (n == 4) break;\n    if (n < 3) goto again;\n  }\n}\n",
        );
        assert_eq!(kinds(&p, "g"), (1, 1, 0));
        // A `continue` inside a `switch` still continues the loop around the label.
        let p = prepared(
            "int n;\nvoid k(void) {\n  while (n < 9) {\n  again:\n    n = n + 1;\n    switch (n) { case 2: continue; default: n = n + 1; }\n    if (n < 3) goto again;\n  }\n}\n",
        );
        assert_eq!(kinds(&p, "k").1, 1, "the jump back stays");
        // A jump from before the label into the statements after it.
        let p = prepared(
            "int n;\nvoid h(void) {\n  if (n) goto inside;\nagain:\n  n = n + 1;\ninside:\n  if (n < 3) goto again;\n}\n",
        );
        assert_eq!(kinds(&p, "h"), (0, 1, 0));
    }

    #[test]
    fn a_backward_jump_to_an_error_block_runs_a_copy_of_it() {
        let p = prepared(
            "extern void abort(void);\nint n;\nvoid f(void) {\n  if (n == 1) { ERROR: { n = 9; abort(); } }\n  n = n + 1;\n  if (n == 3) { goto ERROR; }\n}\n",
        );
        let f = p.func_named("f").expect("function");
        let mut gotos = 0;
        if let Some(body) = &p.func(f).body {
            crate::ir::visit::each_stmt(body, &mut |s| {
                gotos += usize::from(matches!(s.kind, StmtKind::Goto(_)));
            });
        }
        assert_eq!(gotos, 0);
    }

    #[test]
    fn a_forward_jump_to_the_label_still_lands_before_the_loop() {
        let p = prepared(
            "int n;\nvoid f(void) {\n  if (n) goto again;\n  n = 2;\nagain:\n  n = n - 1;\n  if (n > 0) goto again;\n}\n",
        );
        assert_eq!(kinds(&p, "f"), (1, 1, 1));
    }
}
