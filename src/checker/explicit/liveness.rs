//! Which locals are dead where: a local whose value no path reads before overwriting it
//! cannot influence the rest of the execution, so the explorer forgets its value. Without
//! this, the temporaries that normalization introduces keep stale values, and states that
//! differ only in them are explored again and again (two threads of `barrier_2t` made
//! millions of such states).
//!
//! Only scalar locals and parameters whose address is never taken are tracked: through a
//! pointer, any access may read them, and a struct member assignment overwrites only part
//! of an aggregate.

use std::collections::HashMap;

use crate::ir::visit::each_subexpr;
use crate::ir::*;

use super::code::{Code, Instr};

/// Per instruction, the tracked locals that are live before it runs.
#[derive(Debug, Default)]
pub struct Liveness {
    /// Tracked variable → bit, as a table from `base`: `u32::MAX` is not tracked.
    base: u32,
    slots: Vec<u32>,
    words: usize,
    live: Vec<Vec<u64>>,
}

impl Liveness {
    pub fn compute(prog: &Program, code: &Code) -> Liveness {
        let index = tracked(prog, code);
        let words = index.len().div_ceil(64);
        let n = code.instrs.len();
        let base = index.keys().map(|v| v.0).min().unwrap_or(0);
        let top = index.keys().map(|v| v.0).max().unwrap_or(0);
        let mut slots = vec![
            u32::MAX;
            if index.is_empty() {
                0
            } else {
                (top - base + 1) as usize
            }
        ];
        for (v, i) in &index {
            slots[(v.0 - base) as usize] = *i as u32;
        }
        if words == 0 {
            return Liveness {
                base,
                slots,
                words,
                live: vec![],
            };
        }
        let mut uses = vec![vec![0u64; words]; n];
        let mut defs = vec![vec![0u64; words]; n];
        for (pc, ins) in code.instrs.iter().enumerate() {
            let (u, d) = (&mut uses[pc], &mut defs[pc]);
            let use_all = |e: &Expr, u: &mut Vec<u64>| {
                each_subexpr(e, &mut |x| {
                    if let ExprKind::Var(v) = x.kind {
                        if let Some(&i) = index.get(&v) {
                            u[i / 64] |= 1 << (i % 64);
                        }
                    }
                })
            };
            match ins {
                Instr::Decl { var, init } => {
                    if let Some(init) = init {
                        each_init_expr(init, &mut |e| use_all(e, u));
                    }
                    if let Some(&i) = index.get(var) {
                        d[i / 64] |= 1 << (i % 64);
                    }
                }
                Instr::Exec(e) => match &e.kind {
                    ExprKind::Assign(lhs, rhs) => match lhs.kind {
                        ExprKind::Var(v) if index.contains_key(&v) => {
                            use_all(rhs, u);
                            let i = index[&v];
                            d[i / 64] |= 1 << (i % 64);
                        }
                        _ => use_all(e, u),
                    },
                    _ => use_all(e, u),
                },
                Instr::Branch { cond, .. } | Instr::Switch { cond, .. } => use_all(cond, u),
                Instr::Return(Some(e)) => use_all(e, u),
                Instr::Return(None) | Instr::Jump(_) => {}
            }
        }
        let succs: Vec<Vec<usize>> = code
            .instrs
            .iter()
            .enumerate()
            .map(|(pc, ins)| match ins {
                Instr::Jump(to) => vec![*to],
                Instr::Branch { to, .. } => vec![pc + 1, *to],
                Instr::Switch { cases, default, .. } => {
                    let mut s: Vec<usize> = cases.iter().map(|c| c.2).collect();
                    s.push(*default);
                    s
                }
                Instr::Return(_) => vec![],
                Instr::Decl { .. } | Instr::Exec(_) => vec![pc + 1],
            })
            .collect();
        let mut live = vec![vec![0u64; words]; n];
        let mut changed = true;
        while changed {
            changed = false;
            for pc in (0..n).rev() {
                let mut out = vec![0u64; words];
                for &s in &succs[pc] {
                    // Falling off the end returns: nothing is live there.
                    if let Some(l) = live.get(s) {
                        out.iter_mut().zip(l).for_each(|(o, x)| *o |= x);
                    }
                }
                for w in 0..words {
                    let v = uses[pc][w] | (out[w] & !defs[pc][w]);
                    if v != live[pc][w] {
                        live[pc][w] = v;
                        changed = true;
                    }
                }
            }
        }
        Liveness {
            base,
            slots,
            words,
            live,
        }
    }

    /// Whether `var`'s value is certainly not read again from instruction `pc` on.
    pub fn dead(&self, pc: u32, var: VarId) -> bool {
        if self.words == 0 {
            return false;
        }
        let Some(&i) = var
            .0
            .checked_sub(self.base)
            .and_then(|k| self.slots.get(k as usize))
            .filter(|i| **i != u32::MAX)
        else {
            return false;
        };
        let i = i as usize;
        match self.live.get(pc as usize) {
            Some(l) => l[i / 64] & (1 << (i % 64)) == 0,
            // Past the last instruction the function returns.
            None => true,
        }
    }
}

fn each_init_expr(init: &Init, f: &mut dyn FnMut(&Expr)) {
    match init {
        Init::Expr(e) => f(e),
        Init::List(items) => items.iter().for_each(|it| each_init_expr(&it.init, f)),
    }
}

/// The scalar locals and parameters the code mentions whose address it never takes.
fn tracked(prog: &Program, code: &Code) -> HashMap<VarId, usize> {
    let mut seen: Vec<VarId> = vec![];
    let mut escaped: Vec<VarId> = vec![];
    let mut decls: Vec<VarId> = vec![];
    let mut visit = |e: &Expr| {
        each_subexpr(e, &mut |x| match &x.kind {
            ExprKind::Var(v) => seen.push(*v),
            ExprKind::AddrOf(l) | ExprKind::Decay(l) => lvalue_roots(l, &mut escaped),
            _ => {}
        })
    };
    for ins in &code.instrs {
        match ins {
            Instr::Decl { var, init } => {
                decls.push(*var);
                if let Some(init) = init {
                    each_init_expr(init, &mut visit);
                }
            }
            Instr::Exec(e) | Instr::Return(Some(e)) => visit(e),
            Instr::Branch { cond, .. } | Instr::Switch { cond, .. } => visit(cond),
            Instr::Return(None) | Instr::Jump(_) => {}
        }
    }
    seen.extend(decls);
    seen.sort();
    seen.dedup();
    let mut index = HashMap::new();
    for v in seen {
        let var = prog.var(v);
        if matches!(var.kind, VarKind::Global)
            || escaped.contains(&v)
            || !var.ty.is_scalar(&prog.types)
        {
            continue;
        }
        let i = index.len();
        index.insert(v, i);
    }
    index
}

/// The variables an lvalue designates part of (`s.f` is part of `s`).
fn lvalue_roots(e: &Expr, out: &mut Vec<VarId>) {
    match &e.kind {
        ExprKind::Var(v) => out.push(*v),
        ExprKind::Member(x, _) | ExprKind::Cast { e: x, .. } | ExprKind::Comma(_, x) => {
            lvalue_roots(x, out)
        }
        ExprKind::Cond(_, a, b) => {
            lvalue_roots(a, out);
            lvalue_roots(b, out);
        }
        _ => {}
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::checker::explicit::code::flatten;
    use crate::ir::types::DataModel;

    fn liveness_of(src: &str, func: &str) -> (Program, Code, Liveness) {
        let prog = crate::frontend::load_text("t.c", src, DataModel::Lp64).expect("parses");
        let f = prog
            .funcs
            .iter()
            .find(|f| f.name == func)
            .expect("function exists");
        let code = flatten(f.body.as_ref().expect("has a body")).expect("flattens");
        let l = Liveness::compute(&prog, &code);
        (prog, code, l)
    }

    fn var(prog: &Program, name: &str) -> VarId {
        VarId(
            prog.vars
                .iter()
                .position(|v| v.name == name)
                .expect("variable exists") as u32,
        )
    }

    #[test]
    fn a_value_is_dead_after_its_last_read_and_live_across_a_loop() {
        let (prog, code, l) = liveness_of(
            "int g; int f(int n) { int t = g; g = t + 1; int i = 0; while (i < n) { i = i + 1; } return 0; }",
            "f",
        );
        let (t, i, n) = (var(&prog, "t"), var(&prog, "i"), var(&prog, "n"));
        // After `g = t + 1` (instruction 2 starts `int i = 0`), `t` is never read again.
        assert!(!l.dead(1, t));
        assert!(l.dead(2, t));
        // Inside the loop `i` and `n` stay live; at the return nothing is.
        let ret = code
            .instrs
            .iter()
            .position(|x| matches!(x, Instr::Return(_)))
            .expect("a return") as u32;
        let cond = code
            .instrs
            .iter()
            .position(|x| matches!(x, Instr::Branch { .. }))
            .expect("the loop's test") as u32;
        assert!(!l.dead(cond, i) && !l.dead(cond, n));
        assert!(l.dead(ret, i) && l.dead(ret, n));
    }

    #[test]
    fn locals_whose_address_is_taken_are_never_dead() {
        let (prog, _, l) = liveness_of(
            "void h(int *p); int f(void) { int a = 1; h(&a); struct { int x; } s; s.x = 2; return 0; }",
            "f",
        );
        let (a, s) = (var(&prog, "a"), var(&prog, "s"));
        for pc in 0..8 {
            assert!(!l.dead(pc, a) && !l.dead(pc, s));
        }
    }
}
