//! What `main` settles before anything else runs: the straight-line statements at the top
//! of its body (assignments, `assume`s, branches over them) up to the first statement the
//! encoding cannot read, which comes at the latest with the first `pthread_create`. Their
//! effect is exact: the values the variables hold when the prefix ends, and the condition
//! under which it ends at all (an `assume` that fails, or an `abort`, ends the program
//! before any thread exists).
//!
//! A variable the prefix may write and nothing after it writes is *frozen*: every read
//! after the prefix, in any thread, sees the prefix's final value.

use std::collections::{HashMap, HashSet};

use z3::ast::{BV, Bool};

use crate::analysis::shared::has_effects;
use crate::ir::consteval::eval_int;
use crate::ir::known::{Known, classify};
use crate::ir::visit;
use crate::ir::*;

use super::encode::{self, Leaves, kind};

pub struct Prefix {
    /// The prefix runs to its end.
    pub reach: Bool,
    /// The values of the frozen variables when the prefix ends.
    pub frozen: HashMap<VarId, BV>,
}

/// The prefix of `main`, and the variables it freezes: scalar integer globals with a
/// constant initial value and `main`'s own locals, whose address is never taken.
pub fn prefix(
    prog: &Program,
    main: FuncId,
    reachable: &[FuncId],
    taken: &HashSet<VarId>,
) -> Option<Prefix> {
    let body = prog.func(main).body.as_ref()?;
    let StmtKind::Block(stmts) = &body.kind else {
        return None;
    };
    let mut env: HashMap<VarId, BV> = HashMap::new();
    let mut tracked: HashSet<VarId> = HashSet::new();
    for (i, var) in prog.vars.iter().enumerate() {
        let v = VarId(i as u32);
        if taken.contains(&v) {
            continue;
        }
        let Some(k) = kind(prog, &var.ty) else {
            continue;
        };
        let w = encode::bits(prog, k);
        match var.kind {
            VarKind::Global if !var.thread_local && !var.is_extern => {
                let init = match &var.init {
                    None => 0,
                    Some(Init::Expr(e)) => match eval_int(e, &prog.types, prog.data_model) {
                        Some(c) => k.wrap(c, prog.data_model),
                        None => continue,
                    },
                    Some(Init::List(_)) => continue,
                };
                env.insert(v, encode::constant(init, w));
            }
            VarKind::Param if var.func == Some(main) => {
                env.insert(v, BV::fresh_const(&var.name, w));
            }
            VarKind::Local if var.func == Some(main) => {}
            _ => continue,
        }
        tracked.insert(v);
    }
    let mut run = Run {
        tracked: &tracked,
        env,
        reach: Bool::from_bool(true),
    };
    let mut len = 0;
    for s in stmts {
        let (env, reach) = (run.env.clone(), run.reach.clone());
        if run.stmt(prog, s).is_none() {
            run.env = env;
            run.reach = reach;
            break;
        }
        len += 1;
    }
    // Written after the prefix, anywhere: not frozen.
    let mut later: HashSet<VarId> = HashSet::new();
    for f in reachable {
        let Some(b) = &prog.func(*f).body else {
            continue;
        };
        if *f == main {
            stmts[len..].iter().for_each(|s| writes(s, &mut later));
        } else {
            writes(b, &mut later);
        }
    }
    let frozen = run
        .env
        .into_iter()
        .filter(|(v, _)| tracked.contains(v) && !later.contains(v))
        .collect();
    Some(Prefix {
        reach: run.reach,
        frozen,
    })
}

/// The variables `s` may assign or declare anew.
pub fn writes(s: &Stmt, out: &mut HashSet<VarId>) {
    visit::each_stmt(s, &mut |s| {
        if let StmtKind::Decl { var, .. } = &s.kind {
            out.insert(*var);
        }
    });
    visit::each_expr(s, &mut |e| match &e.kind {
        ExprKind::Assign(l, _)
        | ExprKind::OpAssign { lhs: l, .. }
        | ExprKind::IncDec { e: l, .. } => {
            if let ExprKind::Var(v) = l.peel().kind {
                out.insert(v);
            }
        }
        _ => {}
    });
}

struct Run<'t> {
    tracked: &'t HashSet<VarId>,
    env: HashMap<VarId, BV>,
    reach: Bool,
}

impl Leaves for Run<'_> {
    fn leaf(&mut self, _prog: &Program, v: VarId) -> Option<BV> {
        self.env.get(&v).cloned()
    }
}

impl Run<'_> {
    fn set(&mut self, prog: &Program, v: VarId, e: &Expr) -> Option<()> {
        if !self.tracked.contains(&v) {
            return None;
        }
        let k = kind(prog, &prog.var(v).ty)?;
        let x = encode::value(prog, e, self)?;
        (x.get_size() == encode::bits(prog, k)).then_some(())?;
        self.env.insert(v, x);
        Some(())
    }

    /// Runs one statement; `None` when it is outside what the prefix reads.
    fn stmt(&mut self, prog: &Program, s: &Stmt) -> Option<()> {
        match &s.kind {
            StmtKind::Skip => {}
            StmtKind::Block(ss) => {
                for s in ss {
                    self.stmt(prog, s)?;
                }
            }
            // Variables the prefix does not track (arrays, structs, pointers, locals
            // whose address is taken) cannot change one it tracks when they are set
            // without calls: nothing tracked is reachable through a pointer.
            StmtKind::Decl { var, init } if !self.tracked.contains(var) => match init {
                None => {}
                Some(Init::Expr(e)) if !has_effects(e) => {}
                Some(_) => return None,
            },
            StmtKind::Decl { var, init } => match init {
                None => {
                    let k = kind(prog, &prog.var(*var).ty)?;
                    let w = encode::bits(prog, k);
                    self.env
                        .insert(*var, BV::fresh_const(&prog.var(*var).name, w));
                }
                Some(Init::Expr(e)) => self.set(prog, *var, e)?,
                Some(Init::List(_)) => return None,
            },
            StmtKind::Expr(e) => match &e.kind {
                ExprKind::Assign(l, r) => match l.kind {
                    ExprKind::Var(v) if self.tracked.contains(&v) => self.set(prog, v, r)?,
                    _ if !has_effects(l) && !has_effects(r) => {}
                    _ => return None,
                },
                ExprKind::Intrinsic(Intrinsic::Assume, args) => {
                    let c = encode::truth(prog, args.first()?, self)?;
                    self.reach = Bool::and(&[self.reach.clone(), c]);
                }
                ExprKind::Intrinsic(Intrinsic::Abort, _) => self.reach = Bool::from_bool(false),
                // Initializing a mutex or a condition variable, or setting attributes,
                // writes only the object passed by address: no variable the prefix
                // tracks (their addresses are never taken).
                ExprKind::Call(callee, args) => {
                    let ExprKind::Func(f) = callee.peel().kind else {
                        return None;
                    };
                    let pure = args.iter().all(|a| !has_effects(a));
                    let inert = matches!(
                        classify(&prog.func(f).name),
                        Known::MutexInit | Known::CondInit | Known::Attr
                    );
                    if !(pure && inert) {
                        return None;
                    }
                }
                _ => return None,
            },
            StmtKind::If { cond, then, els } => {
                let c = encode::truth(prog, cond, self)?;
                let (env0, reach0) = (self.env.clone(), self.reach.clone());
                self.reach = Bool::and(&[reach0.clone(), c.clone()]);
                self.stmt(prog, then)?;
                let (env1, reach1) = (std::mem::replace(&mut self.env, env0), self.reach.clone());
                self.reach = Bool::and(&[reach0, c.not()]);
                if let Some(e) = els {
                    self.stmt(prog, e)?;
                }
                let reach2 = self.reach.clone();
                for (v, x1) in env1 {
                    let merged = match self.env.get(&v) {
                        Some(x2) => reach1.ite(&x1, x2),
                        // Declared in the `then` branch only: out of scope after it.
                        None => x1,
                    };
                    self.env.insert(v, merged);
                }
                self.reach = Bool::or(&[reach1, reach2]);
            }
            // `main` returns before any thread exists: the program ends.
            StmtKind::Return(e) => {
                if let Some(e) = e {
                    encode::value(prog, e, self)?;
                }
                self.reach = Bool::from_bool(false);
            }
            // Loops, jumps and labels (a label could be jumped back to from after the
            // prefix) end it.
            _ => return None,
        }
        Some(())
    }
}
