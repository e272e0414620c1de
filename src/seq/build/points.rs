//! Program points: the guard that runs a point only when the schedule says so, and the
//! end-of-run probe that records where each thread would resume.

use super::state::Builder;
use crate::ir::build as b;
use crate::ir::*;
use crate::seq::PointInfo;
use crate::seq::schedule::Stop;

impl Builder<'_> {
    /// `if (ACTIVE(k, p)) { point marker; [blocking]; stmts }`.
    pub(super) fn guard(
        &mut self,
        k: u32,
        p: usize,
        head: StmtId,
        loc: Loc,
        blocking: Option<Expr>,
        stmts: Vec<Stmt>,
    ) -> Stmt {
        let tt = self.prog.types.clone();
        let pc = b::elem(&self.prog, self.vars.pc, b::uint(k as i128));
        // The marker carries the point's head statement, so traces can name it.
        let marker = b::expr_stmt(
            b::intrinsic(
                Intrinsic::Point,
                vec![b::int(k as i128), b::int(p as i128)],
                loc,
            ),
            loc,
            head,
        );
        let pc_ok = b::bin(BinOp::Le, pc.clone(), b::uint(p as i128));
        // Fixed switch points run like the symbolic framework with constant `cs`.
        let concrete = self.concrete.filter(|r| r.ends.is_none());
        match concrete {
            None => {
                let before_cs = b::bin(
                    BinOp::Lt,
                    b::uint(p as i128),
                    b::var(&self.prog, self.vars.cs),
                );
                let mut body = vec![marker];
                if let Some(c) = blocking {
                    body.push(b::expr_stmt(
                        b::intrinsic(Intrinsic::Assume, vec![c], loc),
                        loc,
                        StmtId::NONE,
                    ));
                }
                body.extend(stmts);
                let mut cond = b::and(pc_ok, before_cs);
                if self.concrete.is_none() {
                    cond = b::and(cond, b::not(b::var(&self.prog, self.vars.failed)));
                }
                b::if_(cond, body, None)
            }
            Some(r) => {
                let not_stopped = b::not(b::var(&self.prog, self.vars.stop));
                let stop_here = |this: &mut Self, reason: i128| -> Vec<Stmt> {
                    let set_pc = b::assign(pc.clone(), b::uint(p as i128), &tt);
                    let stop = b::assign(b::var(&this.prog, this.vars.stop), b::int(1), &tt);
                    let why = b::assign(
                        b::var(&this.prog, this.vars.stop_reason),
                        b::int(reason),
                        &tt,
                    );
                    vec![
                        b::expr_stmt(set_pc, Loc::SYNTH, StmtId::NONE),
                        b::expr_stmt(stop, Loc::SYNTH, StmtId::NONE),
                        b::expr_stmt(why, Loc::SYNTH, StmtId::NONE),
                    ]
                };
                let mut inner = match blocking {
                    Some(c) => {
                        let blocked = stop_here(self, 2);
                        vec![b::if_(c, stmts, Some(blocked))]
                    }
                    None => stmts,
                };
                let is_stop_stmt = !head.is_none()
                    && r.blocks
                        .iter()
                        .any(|bl| bl.thread == k && bl.until.stmt() == Some(head));
                if is_stop_stmt {
                    let occ = self.occ_var(k, head);
                    let oi = b::var(&self.prog, self.vars.order_index);
                    let sid_match = b::bin(
                        BinOp::Eq,
                        b::elem(&self.prog, self.vars.stop_sid, oi.clone()),
                        b::uint(head.0 as i128 + 1),
                    );
                    let mut occ_match = b::bin(
                        BinOp::Eq,
                        b::bin(BinOp::Add, b::var(&self.prog, occ), b::uint(1)),
                        b::elem(&self.prog, self.vars.stop_occ, oi.clone()),
                    );
                    let count = b::assign(
                        b::var(&self.prog, occ),
                        b::bin(BinOp::Add, b::var(&self.prog, occ), b::uint(1)),
                        &tt,
                    );
                    let mut go = vec![b::expr_stmt(count, Loc::SYNTH, StmtId::NONE)];
                    // A stop counted within its block compares the arrivals at it since
                    // the block began (`__seq_stop_seen`, reset by the framework at each
                    // block) instead of the thread's.
                    let in_block_stops = r
                        .blocks
                        .iter()
                        .any(|bl| matches!(bl.until, Stop::BeforeInBlock(..)));
                    if in_block_stops {
                        let in_block = b::elem(&self.prog, self.vars.stop_in_block, oi.clone());
                        let seen = b::var(&self.prog, self.vars.stop_seen);
                        let seen_match = b::bin(
                            BinOp::Eq,
                            b::bin(BinOp::Add, seen.clone(), b::uint(1)),
                            b::elem(&self.prog, self.vars.stop_occ, oi.clone()),
                        );
                        occ_match = b::bin(
                            BinOp::LogOr,
                            b::and(in_block.clone(), seen_match),
                            b::and(b::not(in_block), occ_match),
                        );
                        let seen_count = b::assign(
                            seen.clone(),
                            b::bin(BinOp::Add, seen, sid_match.clone()),
                            &tt,
                        );
                        go.push(b::expr_stmt(seen_count, Loc::SYNTH, StmtId::NONE));
                    }
                    go.append(&mut inner);
                    let stopped = stop_here(self, 1);
                    inner = vec![b::if_(b::and(sid_match, occ_match), stopped, Some(go))];
                }
                let mut body = vec![marker];
                body.extend(inner);
                b::if_(b::and(pc_ok, not_stopped), body, None)
            }
        }
    }

    /// The deadlock probe for one slot code: the same control skeleton, each point
    /// replaced by "if this is the thread's next point, record whether it is blocked".
    pub(super) fn probe_code(&mut self, k: u32, code: &[Stmt], points: &[PointInfo]) -> Vec<Stmt> {
        let suffix = format!(
            "_probe{k}_{}",
            self.prog.fresh_label("p").trim_start_matches("__p")
        );
        let mut out = Vec::new();
        for s in code {
            if let Some(x) = self.probe_stmt(k, s, points, &suffix) {
                out.push(x);
            }
        }
        out
    }

    pub(super) fn probe_stmt(
        &mut self,
        k: u32,
        s: &Stmt,
        points: &[PointInfo],
        suffix: &str,
    ) -> Option<Stmt> {
        let tt = self.prog.types.clone();
        match &s.kind {
            StmtKind::If { cond, then, els } => {
                if let Some(p) = point_of(then) {
                    let pc = b::elem(&self.prog, self.vars.pc, b::uint(k as i128));
                    let here = b::and(
                        b::bin(BinOp::Le, pc, b::uint(p as i128)),
                        b::not(b::var(&self.prog, self.vars.probed)),
                    );
                    let blocked_val = match points.get(p).and_then(|x| x.blocking.clone()) {
                        Some(c) => b::not(c),
                        None => b::int(0),
                    };
                    let set_probed =
                        b::assign(b::var(&self.prog, self.vars.probed), b::int(1), &tt);
                    let set_blocked =
                        b::assign(b::var(&self.prog, self.vars.blocked), blocked_val, &tt);
                    let resume = b::intrinsic(
                        Intrinsic::Resume,
                        vec![b::int(k as i128), b::int(p as i128)],
                        Loc::SYNTH,
                    );
                    return Some(b::if_(
                        here,
                        vec![
                            b::expr_stmt(set_probed, Loc::SYNTH, StmtId::NONE),
                            b::expr_stmt(set_blocked, Loc::SYNTH, StmtId::NONE),
                            b::expr_stmt(resume, Loc::SYNTH, StmtId::NONE),
                        ],
                        None,
                    ));
                }
                let t = self.probe_block(k, then, points, suffix);
                let e = els.as_ref().map(|e| self.probe_block(k, e, points, suffix));
                Some(b::if_(cond.clone(), t, e))
            }
            StmtKind::Block(ss) => Some(Stmt::block(
                self.probe_block_list(k, ss, points, suffix),
                Loc::SYNTH,
            )),
            StmtKind::Goto(l) => Some(b::goto(&format!("{l}{suffix}"))),
            StmtKind::Label(l) => Some(b::label(&format!("{l}{suffix}"))),
            _ => None,
        }
    }

    pub(super) fn probe_block(
        &mut self,
        k: u32,
        s: &Stmt,
        points: &[PointInfo],
        suffix: &str,
    ) -> Vec<Stmt> {
        match &s.kind {
            StmtKind::Block(ss) => self.probe_block_list(k, ss, points, suffix),
            _ => self.probe_stmt(k, s, points, suffix).into_iter().collect(),
        }
    }

    pub(super) fn probe_block_list(
        &mut self,
        k: u32,
        ss: &[Stmt],
        points: &[PointInfo],
        suffix: &str,
    ) -> Vec<Stmt> {
        ss.iter()
            .filter_map(|x| self.probe_stmt(k, x, points, suffix))
            .collect()
    }
}

/// The point index of a guarded group (`if (...) { Point(k, p); ... }`).
pub(super) fn point_of(then: &Stmt) -> Option<usize> {
    let StmtKind::Block(ss) = &then.kind else {
        return None;
    };
    let StmtKind::Expr(e) = &ss.first()?.kind else {
        return None;
    };
    match &e.kind {
        ExprKind::Intrinsic(Intrinsic::Point, args) => args.get(1)?.as_int().map(|p| p as usize),
        _ => None,
    }
}
