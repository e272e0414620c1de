//! Globals that no thread can change while another thread runs: `main` writes them before
//! it creates its first thread and nobody writes them after (`n = nondet(); assume(n <
//! 10); for (i = 0; i < n; i++) pthread_create(..)`). A read of such a global commutes with
//! every other thread's step, so the explorer need not switch threads before it; in the
//! parameterized SV-COMP tasks every worker reads the bound `n`, and each read was a point
//! where all interleavings were tried.
//!
//! A global qualifies when its address is never taken (so no pointer can write it), every
//! write to it is in `main`'s own body, and no such write can run after an instruction
//! of `main` that may create a thread (a `pthread_create`, a call to a function that may
//! reach one, or a call through a pointer).

use std::collections::HashSet;

use rustc_hash::FxHashMap as HashMap;

use crate::analysis::shared::address_taken_vars;
use crate::ir::known::{Known, classify};
use crate::ir::visit::{Visitor, walk_expr, walk_init};
use crate::ir::*;

use super::code::{Code, Instr};

pub fn frozen_globals(
    prog: &Program,
    codes: &HashMap<FuncId, Code>,
    main: FuncId,
) -> HashSet<VarId> {
    let Some(main_code) = codes.get(&main) else {
        return HashSet::new();
    };
    let taken = address_taken_vars(prog);
    let mut frozen: HashSet<VarId> = prog
        .vars
        .iter()
        .enumerate()
        .map(|(i, _)| VarId(i as u32))
        .filter(|v| {
            let var = prog.var(*v);
            var.kind == VarKind::Global && !var.thread_local && !taken.contains(v)
        })
        .collect();
    // Writes anywhere but in `main`, and any call of `main`, disqualify.
    for (f, code) in codes {
        let mut scan = Scan::new(prog);
        code.instrs.iter().for_each(|i| scan.instr(i));
        if scan.calls.contains(&Some(main)) {
            return HashSet::new();
        }
        if *f != main {
            frozen.retain(|v| !scan.writes.contains(v));
        }
    }
    let after = after_threads(prog, codes, main);
    for (pc, ins) in main_code.instrs.iter().enumerate() {
        if after[pc] {
            let mut scan = Scan::new(prog);
            scan.instr(ins);
            frozen.retain(|v| !scan.writes.contains(v));
        }
    }
    frozen
}

/// Per instruction of `main`: whether it may run after a thread exists (it is reachable
/// from an instruction that may create one, that instruction included).
pub fn after_threads(prog: &Program, codes: &HashMap<FuncId, Code>, main: FuncId) -> Vec<bool> {
    let Some(main_code) = codes.get(&main) else {
        return vec![];
    };
    let creates = may_create_threads(prog, codes);
    let n = main_code.instrs.len();
    let mut after = vec![false; n];
    let mut work: Vec<usize> = vec![];
    for (pc, ins) in main_code.instrs.iter().enumerate() {
        let mut scan = Scan::new(prog);
        scan.instr(ins);
        if scan
            .calls
            .iter()
            .any(|c| c.is_none_or(|f| creates.contains(&f)))
        {
            after[pc] = true;
            work.push(pc);
        }
    }
    while let Some(pc) = work.pop() {
        for s in main_code.instrs[pc].successors(pc) {
            if s < n && !after[s] {
                after[s] = true;
                work.push(s);
            }
        }
    }
    after
}

/// Functions that may create a thread, directly or through calls.
fn may_create_threads(prog: &Program, codes: &HashMap<FuncId, Code>) -> HashSet<FuncId> {
    reaching(prog, codes, |k| k == Known::ThreadCreate)
}

/// The library functions `target` picks, and the functions with a body that may call one,
/// directly or through calls (a call through a pointer may reach anything).
pub fn reaching(
    prog: &Program,
    codes: &HashMap<FuncId, Code>,
    target: impl Fn(Known) -> bool,
) -> HashSet<FuncId> {
    let calls: Vec<(FuncId, Vec<Option<FuncId>>)> = codes
        .iter()
        .map(|(f, code)| {
            let mut scan = Scan::new(prog);
            code.instrs.iter().for_each(|i| scan.instr(i));
            (*f, scan.calls)
        })
        .collect();
    let mut out: HashSet<FuncId> = prog
        .funcs
        .iter()
        .enumerate()
        .filter(|(_, f)| target(classify(&f.name)))
        .map(|(i, _)| FuncId(i as u32))
        .collect();
    loop {
        let before = out.len();
        for (f, cs) in &calls {
            if cs.iter().any(|c| c.is_none_or(|g| out.contains(&g))) {
                out.insert(*f);
            }
        }
        if out.len() == before {
            return out;
        }
    }
}

/// The globals an instruction writes by name and the functions it calls (`None`: through
/// a pointer).
pub struct Scan<'p> {
    prog: &'p Program,
    pub writes: HashSet<VarId>,
    pub calls: Vec<Option<FuncId>>,
}

impl<'p> Scan<'p> {
    pub fn new(prog: &'p Program) -> Scan<'p> {
        Scan {
            prog,
            writes: HashSet::new(),
            calls: vec![],
        }
    }

    pub fn instr(&mut self, ins: &Instr) {
        match ins {
            Instr::Decl { init, .. } => {
                if let Some(i) = init {
                    walk_init(self, i);
                }
            }
            Instr::Exec(e) | Instr::Branch { cond: e, .. } | Instr::Switch { cond: e, .. } => {
                self.visit_expr(e)
            }
            Instr::Return(e) => {
                if let Some(e) = e {
                    self.visit_expr(e)
                }
            }
            Instr::Jump(_) => {}
        }
    }

    fn written(&mut self, lhs: &Expr) {
        match &lhs.kind {
            ExprKind::Var(v) if self.prog.var(*v).kind == VarKind::Global => {
                self.writes.insert(*v);
            }
            ExprKind::Member(b, _) => self.written(b),
            ExprKind::Index(b, _) => {
                if let ExprKind::Decay(a) = &b.kind {
                    self.written(a)
                }
            }
            _ => {}
        }
    }
}

impl Visitor for Scan<'_> {
    fn visit_expr(&mut self, e: &Expr) {
        match &e.kind {
            ExprKind::Assign(lhs, _) => self.written(lhs),
            ExprKind::OpAssign { lhs, .. } => self.written(lhs),
            ExprKind::IncDec { e: x, .. } => self.written(x),
            ExprKind::Call(c, _) => self.calls.push(match &c.peel().kind {
                ExprKind::Func(f) => Some(*f),
                _ => None,
            }),
            _ => {}
        }
        walk_expr(self, e)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::checker::explicit::code::flatten_all;

    fn frozen_names(src: &str) -> Vec<String> {
        let prog = crate::frontend::load_text("t.c", src, crate::ir::types::DataModel::Lp64)
            .expect("parses");
        let main = prog.main().expect("main");
        let codes = flatten_all(&prog);
        let mut v: Vec<String> = frozen_globals(&prog, &codes, main)
            .into_iter()
            .map(|v| prog.var(v).name.clone())
            .collect();
        v.sort();
        v
    }

    const HEAD: &str = "typedef unsigned long pthread_t;\n\
        int pthread_create(pthread_t *, void *, void *(*)(void *), void *);\n\
        int nondet(void);\n";

    #[test]
    fn a_bound_set_before_the_threads_start_is_frozen() {
        let src = format!(
            "{HEAD}int n, x, late;\n\
             void *w(void *a) {{ x = x + n; return 0; }}\n\
             int main() {{ pthread_t t; n = nondet(); for (int i = 0; i < n; i++) \
             pthread_create(&t, 0, w, 0); late = 1; return 0; }}"
        );
        // `x` is written by a worker, `late` after a thread exists.
        assert_eq!(frozen_names(&src), vec!["n".to_string()]);
    }

    #[test]
    fn a_write_in_a_loop_that_creates_threads_is_not_frozen() {
        let src = format!(
            "{HEAD}int n;\n\
             void *w(void *a) {{ return (void *)(long)n; }}\n\
             int main() {{ pthread_t t; for (int i = 0; i < 3; i++) {{ n = i; \
             pthread_create(&t, 0, w, 0); }} return 0; }}"
        );
        assert!(frozen_names(&src).is_empty());
    }

    #[test]
    fn creation_inside_a_helper_counts_and_taken_addresses_disqualify() {
        let src = format!(
            "{HEAD}int n, m, *p = &m;\n\
             void *w(void *a) {{ return (void *)(long)(n + *p); }}\n\
             void spawn(void) {{ pthread_t t; pthread_create(&t, 0, w, 0); }}\n\
             int main() {{ m = 1; spawn(); n = 2; return 0; }}"
        );
        // `n` is written after `spawn` created a thread; `m`'s address is taken; `p` is
        // only ever initialised.
        assert_eq!(frozen_names(&src), vec!["p".to_string()]);
    }
}
