//! Functions as flat instruction lists: the explicit-state explorer keeps a thread's
//! position as (function, instruction index), which structured statements cannot give.

use rustc_hash::FxHashMap as HashMap;

use crate::ir::*;

use super::Unsupported;

#[derive(Clone, Debug)]
pub enum Instr {
    /// A local comes into scope: initialised, or (without an initialiser) indeterminate.
    Decl {
        var: VarId,
        init: Option<Init>,
    },
    Exec(Expr),
    /// Falls through when `cond` holds, jumps to `to` otherwise.
    Branch {
        cond: Expr,
        to: usize,
    },
    Jump(usize),
    Switch {
        cond: Expr,
        cases: Vec<(i128, i128, usize)>,
        default: usize,
    },
    Return(Option<Expr>),
}

impl Instr {
    /// Where control may go after this instruction at `pc` (calls return to `pc + 1`).
    pub fn successors(&self, pc: usize) -> Vec<usize> {
        match self {
            Instr::Branch { to, .. } => vec![pc + 1, *to],
            Instr::Jump(to) => vec![*to],
            Instr::Switch { cases, default, .. } => {
                let mut v: Vec<usize> = cases.iter().map(|c| c.2).collect();
                v.push(*default);
                v
            }
            Instr::Return(_) => vec![],
            Instr::Decl { .. } | Instr::Exec(_) => vec![pc + 1],
        }
    }
}

#[derive(Clone, Debug)]
pub struct Code {
    pub instrs: Vec<Instr>,
    pub locs: Vec<Loc>,
    /// The normalized statement each instruction comes from (what schedules name).
    pub ids: Vec<StmtId>,
}

#[derive(Default)]
struct Flat {
    instrs: Vec<Instr>,
    locs: Vec<Loc>,
    ids: Vec<StmtId>,
    /// The statement being flattened.
    cur: Option<StmtId>,
    labels: HashMap<String, usize>,
    /// Jumps to patch: instruction index and label.
    gotos: Vec<(usize, String)>,
    /// Innermost loop or switch first: (break target patches, continue target).
    breaks: Vec<Vec<usize>>,
    continues: Vec<Option<usize>>,
    /// `continue` jumps waiting for their target (loops whose step comes after the body).
    pending_continues: Vec<Vec<usize>>,
}

const UNPATCHED: usize = usize::MAX;

impl Flat {
    fn push(&mut self, i: Instr, loc: Loc) -> usize {
        self.instrs.push(i);
        self.locs.push(loc);
        self.ids.push(self.cur.unwrap_or(StmtId::NONE));
        self.instrs.len() - 1
    }

    fn here(&self) -> usize {
        self.instrs.len()
    }

    fn patch(&mut self, at: usize, to: usize) {
        match &mut self.instrs[at] {
            Instr::Jump(t) | Instr::Branch { to: t, .. } => *t = to,
            Instr::Switch { default, .. } => *default = to,
            _ => {}
        }
    }

    fn stmt(&mut self, s: &Stmt) -> Result<(), Unsupported> {
        let loc = s.loc;
        self.cur = Some(s.id);
        match &s.kind {
            StmtKind::Decl { var, init } => {
                self.push(
                    Instr::Decl {
                        var: *var,
                        init: init.clone(),
                    },
                    loc,
                );
            }
            StmtKind::Expr(e) => {
                self.push(Instr::Exec(e.clone()), loc);
            }
            StmtKind::Block(ss) => {
                for x in ss {
                    self.stmt(x)?;
                }
            }
            StmtKind::If { cond, then, els } => {
                let br = self.push(
                    Instr::Branch {
                        cond: cond.clone(),
                        to: UNPATCHED,
                    },
                    loc,
                );
                self.stmt(then)?;
                match els {
                    Some(e) => {
                        let j = self.push(Instr::Jump(UNPATCHED), loc);
                        let h = self.here();
                        self.patch(br, h);
                        self.stmt(e)?;
                        let h = self.here();
                        self.patch(j, h);
                    }
                    None => {
                        let h = self.here();
                        self.patch(br, h);
                    }
                }
            }
            StmtKind::While { cond, body } => {
                let top = self.here();
                let br = self.push(
                    Instr::Branch {
                        cond: cond.clone(),
                        to: UNPATCHED,
                    },
                    loc,
                );
                self.loop_body(body, Some(top))?;
                self.push(Instr::Jump(top), loc);
                let end = self.here();
                self.patch(br, end);
                self.end_loop(end);
            }
            StmtKind::DoWhile { body, cond } => {
                let top = self.here();
                self.loop_body(body, None)?;
                let test = self.here();
                self.resolve_continues(test);
                let br = self.push(
                    Instr::Branch {
                        cond: cond.clone(),
                        to: UNPATCHED,
                    },
                    loc,
                );
                self.push(Instr::Jump(top), loc);
                let end = self.here();
                self.patch(br, end);
                self.end_loop(end);
            }
            StmtKind::For {
                init,
                cond,
                step,
                body,
            } => {
                for i in init {
                    self.stmt(i)?;
                }
                let top = self.here();
                let br = cond.as_ref().map(|c| {
                    self.push(
                        Instr::Branch {
                            cond: c.clone(),
                            to: UNPATCHED,
                        },
                        loc,
                    )
                });
                self.loop_body(body, None)?;
                let st = self.here();
                self.resolve_continues(st);
                if let Some(e) = step {
                    self.push(Instr::Exec(e.clone()), loc);
                }
                self.push(Instr::Jump(top), loc);
                let end = self.here();
                if let Some(br) = br {
                    self.patch(br, end);
                }
                self.end_loop(end);
            }
            StmtKind::Switch { cond, body } => {
                let sw = self.push(
                    Instr::Switch {
                        cond: cond.clone(),
                        cases: vec![],
                        default: UNPATCHED,
                    },
                    loc,
                );
                self.breaks.push(vec![]);
                // A `continue` inside a switch belongs to the enclosing loop.
                let mut cases = vec![];
                let mut default = None;
                self.switch_body(body, &mut cases, &mut default)?;
                let end = self.here();
                if let Instr::Switch {
                    cases: c,
                    default: d,
                    ..
                } = &mut self.instrs[sw]
                {
                    *c = cases;
                    *d = default.unwrap_or(end);
                }
                for b in self.breaks.pop().unwrap_or_default() {
                    self.patch(b, end);
                }
            }
            StmtKind::Case { .. } | StmtKind::Default => {
                return Err(Unsupported::at("a case label outside a switch", loc));
            }
            StmtKind::Label(l) => {
                let h = self.here();
                self.labels.insert(l.clone(), h);
            }
            StmtKind::Goto(l) => {
                let j = self.push(Instr::Jump(UNPATCHED), loc);
                self.gotos.push((j, l.clone()));
            }
            StmtKind::Break => {
                let j = self.push(Instr::Jump(UNPATCHED), loc);
                match self.breaks.last_mut() {
                    Some(b) => b.push(j),
                    None => return Err(Unsupported::at("`break` outside a loop", loc)),
                }
            }
            StmtKind::Continue => {
                let j = self.push(Instr::Jump(UNPATCHED), loc);
                match self.continues.last().copied() {
                    Some(Some(t)) => self.patch(j, t),
                    Some(None) => {
                        if let Some(p) = self.pending_continues.last_mut() {
                            p.push(j);
                        }
                    }
                    None => return Err(Unsupported::at("`continue` outside a loop", loc)),
                }
            }
            StmtKind::Return(e) => {
                self.push(Instr::Return(e.clone()), loc);
            }
            StmtKind::Skip => {}
        }
        Ok(())
    }

    /// A loop body; `cont` is the continue target when it is already known.
    fn loop_body(&mut self, body: &Stmt, cont: Option<usize>) -> Result<(), Unsupported> {
        self.breaks.push(vec![]);
        self.continues.push(cont);
        self.pending_continues.push(vec![]);
        self.stmt(body)
    }

    fn resolve_continues(&mut self, to: usize) {
        if let Some(p) = self.pending_continues.last_mut() {
            for j in std::mem::take(p) {
                self.patch(j, to);
            }
        }
    }

    fn end_loop(&mut self, end: usize) {
        self.continues.pop();
        let pending = self.pending_continues.pop().unwrap_or_default();
        for b in self.breaks.pop().unwrap_or_default() {
            self.patch(b, end);
        }
        // Loops whose continue target was known patched their jumps directly.
        debug_assert!(pending.is_empty());
    }

    /// A switch body: case labels at any depth except inside a nested switch.
    fn switch_body(
        &mut self,
        s: &Stmt,
        cases: &mut Vec<(i128, i128, usize)>,
        default: &mut Option<usize>,
    ) -> Result<(), Unsupported> {
        match &s.kind {
            StmtKind::Case { lo, hi } => {
                cases.push((*lo, *hi, self.here()));
                Ok(())
            }
            StmtKind::Default => {
                *default = Some(self.here());
                Ok(())
            }
            StmtKind::Block(ss) => {
                for x in ss {
                    self.switch_body(x, cases, default)?;
                }
                Ok(())
            }
            StmtKind::If { .. }
            | StmtKind::While { .. }
            | StmtKind::DoWhile { .. }
            | StmtKind::For { .. }
                if contains_case(s) =>
            {
                Err(Unsupported::at(
                    "a case label inside a nested statement (Duff's device)",
                    s.loc,
                ))
            }
            _ => self.stmt(s),
        }
    }
}

fn contains_case(s: &Stmt) -> bool {
    match &s.kind {
        StmtKind::Case { .. } | StmtKind::Default => true,
        StmtKind::Block(ss) => ss.iter().any(contains_case),
        StmtKind::If { then, els, .. } => {
            contains_case(then) || els.as_ref().is_some_and(|e| contains_case(e))
        }
        StmtKind::While { body, .. }
        | StmtKind::DoWhile { body, .. }
        | StmtKind::For { body, .. } => contains_case(body),
        _ => false,
    }
}

/// Flattens a function body. Falling off the end returns (without a value).
pub fn flatten(body: &Stmt) -> Result<Code, Unsupported> {
    let mut f = Flat::default();
    f.stmt(body)?;
    f.push(Instr::Return(None), body.loc);
    for (j, l) in std::mem::take(&mut f.gotos) {
        match f.labels.get(&l) {
            Some(&t) => f.patch(j, t),
            None => {
                return Err(Unsupported::at(
                    &format!("`goto {l}` to a label that is not in the function"),
                    f.locs[j],
                ));
            }
        }
    }
    if let Some(i) = f.instrs.iter().position(|i| match i {
        Instr::Jump(t) | Instr::Branch { to: t, .. } => *t == UNPATCHED,
        _ => false,
    }) {
        return Err(Unsupported::at(
            "a jump the explorer could not resolve",
            f.locs[i],
        ));
    }
    Ok(Code {
        instrs: f.instrs,
        locs: f.locs,
        ids: f.ids,
    })
}

/// Every function with a body that flattens, by id (for analyses' tests).
#[cfg(test)]
pub fn flatten_all(prog: &Program) -> HashMap<FuncId, Code> {
    prog.funcs
        .iter()
        .enumerate()
        .filter_map(|(i, f)| Some((FuncId(i as u32), flatten(f.body.as_ref()?).ok()?)))
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    fn prog(src: &str) -> Program {
        crate::frontend::load_text("t.c", src, crate::ir::types::DataModel::Lp64).expect("parses")
    }

    #[test]
    fn loops_and_switches_become_jumps() {
        let p = prog(
            "int g; int main(void) { int i; for (i = 0; i < 3; i++) { if (i == 1) continue; g++; }\
             switch (g) { case 1: g = 5; break; default: g = 6; } do { g--; } while (g > 0); return g; }",
        );
        let f = p.main().expect("main");
        let body = p.func(f).body.as_ref().expect("body");
        let code = flatten(body).expect("flattens");
        for i in &code.instrs {
            if let Instr::Jump(t) | Instr::Branch { to: t, .. } = i {
                assert!(*t <= code.instrs.len(), "{i:?}");
            }
        }
        assert!(
            code.instrs
                .iter()
                .any(|i| matches!(i, Instr::Switch { cases, .. } if cases.len() == 1))
        );
    }
}
