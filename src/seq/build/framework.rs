//! The framework around the slots: its `__seq_*` variables and its `main`, expanded from
//! the skeleton.

use std::collections::HashMap;

use super::state::{Builder, MAX_KEYS};
use crate::ir::build as b;
use crate::ir::*;
use crate::seq::schedule::Stop;
use crate::seq::skeleton::{Expansion, SlotValues};
use crate::seq::{Mode, SeqError, SeqVars, SlotInfo};

/// `ids`: how many thread ids the detach states cover (`Builder::detach_ids`).
pub(super) fn make_vars(prog: &mut Program, nslots: u32, ids: u32, mode: Mode) -> SeqVars {
    let n = nslots as u64;
    let arr = |t: Type, n: u64| Type::Array(Box::new(t), Some(n));
    let blocks = match mode {
        Mode::Concrete(r) => r.blocks.len().max(1) as u64,
        Mode::Symbolic => 1,
    };
    let void_ptr = Type::void_ptr();
    let dtor_ty = Type::ptr(Type::Function(Box::new(FuncType {
        ret: Type::Void,
        params: vec![Type::void_ptr()],
        variadic: false,
        unprototyped: false,
    })));
    let mut g = |name: &str, ty: Type| prog.new_global(name, ty, None, Loc::SYNTH);
    SeqVars {
        pc: g("__seq_pc", arr(Type::uint(), n)),
        cs: g("__seq_cs", Type::uint()),
        created: g("__seq_created", arr(Type::bool(), n)),
        done: g("__seq_done", arr(Type::bool(), n)),
        detached: g("__seq_detached", arr(Type::int(), ids as u64)),
        fnid: g("__seq_fn", arr(Type::int(), n)),
        arg: g("__seq_arg", arr(void_ptr.clone(), n)),
        ret: g("__seq_ret", arr(void_ptr.clone(), n)),
        nthreads: g("__seq_nthreads", Type::uint()),
        halted: g("__seq_halted", Type::bool()),
        atomic: g("__seq_atomic", arr(Type::bool(), n)),
        wait: g("__seq_wait", arr(void_ptr.clone(), n)),
        sig: g("__seq_sig", arr(Type::bool(), n)),
        tls: g("__seq_tls", arr(arr(void_ptr.clone(), MAX_KEYS as u64), n)),
        nkeys: g("__seq_nkeys", Type::uint()),
        dtor: g("__seq_dtor", arr(dtor_ty, MAX_KEYS as u64)),
        stop: g("__seq_stop", Type::bool()),
        stop_reason: g("__seq_stop_reason", Type::int()),
        order: g("order", arr(Type::int(), blocks)),
        stop_sid: g("__seq_stop_stmt", arr(Type::uint(), blocks)),
        stop_occ: g("__seq_stop_occ", arr(Type::uint(), blocks)),
        stop_in_block: g("__seq_stop_in_block", arr(Type::bool(), blocks)),
        stop_seen: g("__seq_stop_seen", Type::uint()),
        order_index: g("order_index", Type::int()),
        probed: g("__seq_probed", Type::bool()),
        blocked: g("__seq_blocked", Type::bool()),
        dead: g("__seq_deadlock", Type::bool()),
        tmp: g("__seq_tmp", Type::uint()),
        failed: g("__seq_failed", Type::bool()),
    }
}

impl Builder<'_> {
    /// The framework's `main` from the skeleton (`templates/framework.c`); returns the
    /// number of rounds or blocks.
    pub(super) fn framework(
        &mut self,
        slots: &[SlotInfo],
        slot_funcs: &[FuncId],
        probe_funcs: &[FuncId],
        orig_main: FuncId,
    ) -> Result<u32, SeqError> {
        let v = self.vars.clone();
        let mut flags = Vec::new();
        let mut fixed = None;
        let mut runs = None;
        let mut greedy = Vec::new();
        let steps;
        match self.concrete {
            None => {
                flags.push("symbolic");
                steps = self.opts.rounds.max(1);
                // Where the last run that executed anything was: the skeleton places each
                // run in the earliest round the round-robin allows, so an interleaving has
                // one placement, not one per way of spreading empty runs over the rounds.
                for (name, init) in [
                    ("__seq_last_round", b::uint(1)),
                    ("__seq_last_slot", b::int(-1)),
                ] {
                    let ty = init.ty.clone();
                    greedy.push(
                        self.prog
                            .new_global(name, ty, Some(Init::Expr(init)), Loc::SYNTH),
                    );
                }
                // `--context-switches K`: at most K + 1 runs that execute anything, so
                // at most K switches between them (rounds bound runs, not switches).
                if let Some(k) = self.opts.max_switches {
                    flags.push("switch_bound");
                    runs = Some((
                        self.prog.new_global(
                            "__seq_runs",
                            Type::uint(),
                            Some(Init::Expr(b::uint(0))),
                            Loc::SYNTH,
                        ),
                        k.saturating_add(1),
                    ));
                }
            }
            Some(r) => {
                flags.push("concrete");
                steps = r.blocks.len() as u32;
                // order[] holds case numbers (1 = main, n+1 = thread n), as in the paper;
                // the stop arrays say where each block ends (statement id + 1, or 0 for
                // "until it ends or blocks").
                let order_init: Vec<Expr> = r
                    .blocks
                    .iter()
                    .map(|bl| b::int(bl.thread as i128 + 1))
                    .collect();
                let sid_init: Vec<Expr> = r
                    .blocks
                    .iter()
                    .map(|bl| match bl.until {
                        Stop::End => b::uint(0),
                        Stop::Before(s, _) | Stop::BeforeInBlock(s, _) => b::uint(s.0 as i128 + 1),
                    })
                    .collect();
                let occ_init: Vec<Expr> = r
                    .blocks
                    .iter()
                    .map(|bl| match bl.until {
                        Stop::End => b::uint(0),
                        Stop::Before(_, o) | Stop::BeforeInBlock(_, o) => b::uint(o as i128),
                    })
                    .collect();
                self.prog.var_mut(v.order).init = Some(init_list(order_init));
                self.prog.var_mut(v.stop_sid).init = Some(init_list(sid_init));
                self.prog.var_mut(v.stop_occ).init = Some(init_list(occ_init));
                let in_block_init: Vec<Expr> = r
                    .blocks
                    .iter()
                    .map(|bl| b::int(matches!(bl.until, Stop::BeforeInBlock(..)) as i128))
                    .collect();
                self.prog.var_mut(v.stop_in_block).init = Some(init_list(in_block_init));
                // Fixed switch points: block i runs its thread up to point `__seq_cs_at[i]`.
                fixed = r.ends.as_ref().map(|ends| {
                    let items: Vec<Expr> = ends.iter().map(|e| b::uint(*e as i128)).collect();
                    self.prog.new_global(
                        "__seq_cs_at",
                        Type::Array(Box::new(Type::uint()), Some(items.len().max(1) as u64)),
                        Some(init_list(items)),
                        Loc::SYNTH,
                    )
                });
                if fixed.is_some() {
                    flags.push("fixed_points");
                }
            }
        }
        if !probe_funcs.is_empty() {
            flags.push("probes");
            if self.opts.deadlock {
                flags.push("deadlock");
            }
        }
        let mut vars: HashMap<String, VarId> = HashMap::new();
        for id in v
            .all()
            .into_iter()
            .chain(fixed)
            .chain(runs.map(|(v, _)| v))
            .chain(greedy)
        {
            vars.insert(self.prog.var(id).name.clone(), id);
        }
        let mut funcs: HashMap<String, FuncId> = HashMap::new();
        for f in slot_funcs.iter().chain(probe_funcs) {
            funcs.insert(self.prog.func(*f).name.clone(), *f);
        }
        let expansion = Expansion {
            flags,
            slots: slots
                .iter()
                .enumerate()
                .map(|(k, slot)| SlotValues {
                    thread: self.prog.func(slot_funcs[k]).name.clone(),
                    probe: probe_funcs.get(k).map(|f| self.prog.func(*f).name.clone()),
                    points: slot.codes.iter().map(|c| c.points.len()).max().unwrap_or(1),
                })
                .collect(),
            rounds: steps,
            blocks: steps as usize,
            runs: runs.map(|(_, n)| n),
        };
        let body = self
            .opts
            .skeleton
            .instantiate(&self.prog, &expansion, &vars, &funcs)?;
        // The user's main becomes slot 0's code; the framework takes its name.
        let user_main_loc = self.prog.func(orig_main).loc;
        self.prog.func_mut(orig_main).name = "__seq_user_main".into();
        let m = self.prog.add_func(Function {
            name: "main".into(),
            ty: FuncType {
                ret: Type::int(),
                params: vec![],
                variadic: false,
                unprototyped: false,
            },
            params: vec![],
            body: Some(body),
            is_static: false,
            is_inline: false,
            noreturn: false,
            loc: user_main_loc,
            unsupported: None,
        });
        self.prog.items.push(Item::Func(m));
        Ok(steps)
    }
}

pub(super) fn init_list(xs: Vec<Expr>) -> Init {
    Init::List(
        xs.into_iter()
            .enumerate()
            .map(|(i, e)| InitItem {
                path: vec![Designator::Index(i as u64)],
                init: Init::Expr(e),
            })
            .collect(),
    )
}
