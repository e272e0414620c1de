//! What every part of the builder shares: the program under construction, one slot's
//! generator and its steps, and the errno values the pthread model returns.

use std::collections::{HashMap, HashSet};

use crate::analysis::shared::SharedInfo;
use crate::ir::build as b;
use crate::ir::*;
use crate::seq::schedule::Resolved;
use crate::seq::{PointInfo, SeqOptions, SeqVars};

pub(super) use crate::ir::known::errno::{EBUSY, EDEADLK, EINVAL, ESRCH, ETIMEDOUT};

/// Most `pthread_key_create` keys modelled.
pub(super) const MAX_KEYS: u32 = 4;

/// Where `pthread_exit` in main jumps: past main's exit point, which would end the process.
pub(super) const MAIN_EXIT: &str = "__seq_main_pthread_exit";

pub(super) struct Builder<'a> {
    pub(super) prog: Program,
    pub(super) opts: &'a SeqOptions,
    pub(super) vars: SeqVars,
    pub(super) nslots: u32,
    pub(super) thread_fns: Vec<FuncId>,
    pub(super) concrete: Option<&'a Resolved>,
    /// The recorded inputs a replay (or the root-cause search's symbolic program) reads.
    pub(super) inputs: Option<&'a super::Inputs>,
    /// Occurrence counters per (slot, statement), for concrete stops and inputs.
    pub(super) occ_vars: HashMap<(u32, StmtId), VarId>,
    pub(super) input_occ: HashMap<(u32, StmtId), VarId>,
    pub(super) input_tables: HashMap<(u32, StmtId), (VarId, usize)>,
    pub(super) models_mutexes: bool,
    /// The program sets a mutex type: mutexes use the typed encoding (see `sync`).
    pub(super) typed_mutexes: bool,
    /// Some join may name the joining thread (`analysis::thread_ids`): only then is a
    /// self-join's EDEADLK modelled.
    pub(super) self_joins: bool,
    /// Some thread may be detached (`known::detaches`): joins and detaches answer from
    /// the threads' detach states.
    pub(super) detaches: bool,
    /// The thread ids `__seq_detached` covers (at least the slots): an id past them,
    /// possible only in a replay of more threads than the bound, counts as joinable.
    pub(super) detach_ids: u32,
    /// The condition waits that may wake without a signal (`analysis::waits`).
    pub(super) spurious_waits: std::collections::HashSet<StmtId>,
    pub(super) dtors: Vec<FuncId>,
    /// Symbolic mode, main's code: the fixed thread id of each creation site in order
    /// (see `threads::static_create_ids`), and how many sites the translation has met.
    pub(super) static_ids: Option<Vec<Option<u32>>>,
    pub(super) creates_seen: usize,
}

impl Builder<'_> {
    pub(super) fn label(&mut self, hint: &str) -> String {
        self.prog.fresh_label(&format!("seq_{hint}"))
    }

    pub(super) fn tt(&self) -> &TypeTable {
        &self.prog.types
    }

    pub(super) fn new_function(&mut self, name: &str, body: Vec<Stmt>) -> FuncId {
        let f = self.prog.add_func(Function {
            name: name.to_string(),
            ty: FuncType {
                ret: Type::Void,
                params: vec![],
                variadic: false,
                unprototyped: false,
            },
            params: vec![],
            body: Some(Stmt::block(body, Loc::SYNTH)),
            is_static: true,
            is_inline: false,
            noreturn: false,
            loc: Loc::SYNTH,
            unsupported: None,
        });
        self.prog.items.push(Item::Func(f));
        f
    }

    pub(super) fn input_occ_var(&mut self, k: u32, sid: StmtId) -> VarId {
        if let Some(v) = self.input_occ.get(&(k, sid)) {
            return *v;
        }
        let v = self.prog.new_global(
            &format!("__seq_inocc{}_{}", k, sid.0),
            Type::uint(),
            None,
            Loc::SYNTH,
        );
        self.input_occ.insert((k, sid), v);
        v
    }

    pub(super) fn occ_var(&mut self, k: u32, sid: StmtId) -> VarId {
        if let Some(v) = self.occ_vars.get(&(k, sid)) {
            return *v;
        }
        let v = self.prog.new_global(
            &format!("__seq_occ{}_{}", k, sid.0),
            Type::uint(),
            None,
            Loc::SYNTH,
        );
        self.occ_vars.insert((k, sid), v);
        v
    }
}

/// One step of translated code: its statements and what kind of point it needs.
pub(super) struct Step {
    pub(super) stmts: Vec<Stmt>,
    pub(super) head: StmtId,
    pub(super) loc: Loc,
    pub(super) visible: bool,
    pub(super) blocking: Option<Expr>,
    /// A jump that follows the step (`pthread_exit`, `return`).
    pub(super) then_goto: Option<String>,
    /// The step sets the thread's atomic flag to this (an atomic section's begin or end).
    pub(super) sets_atomic: Option<bool>,
}

pub(super) struct Group {
    pub(super) head: StmtId,
    pub(super) step_heads: Vec<StmtId>,
    pub(super) loc: Loc,
    pub(super) stmts: Vec<Stmt>,
    pub(super) visible: bool,
    pub(super) blocking: Option<Expr>,
    /// Other threads may tell whether the point ran: it reads or writes what they see,
    /// synchronizes, blocks, or begins or ends an atomic section.
    pub(super) significant: bool,
}

/// Cuts one slot's code into points and guards them.
pub(super) struct SlotGen<'a, 'b> {
    pub(super) b: &'a mut Builder<'b>,
    pub(super) k: u32,
    pub(super) shared: &'a SharedInfo,
    pub(super) points: Vec<PointInfo>,
    pub(super) cur: Option<Group>,
    pub(super) end_label: Option<String>,
    /// The thread's atomic flag (`__seq_atomic`) at this place of the walk, on every path
    /// that reaches it; `None` when paths disagree ([`PointInfo::may_end_run`]).
    pub(super) atomic: Option<bool>,
    /// The flag at the jumps to each label seen so far, merged.
    pub(super) at_gotos: HashMap<String, Option<bool>>,
    pub(super) labels: HashSet<String>,
    /// A jump back to a label already walked: the flag is unknown everywhere.
    pub(super) atomic_unknown: bool,
}

impl<'a, 'b> SlotGen<'a, 'b> {
    pub(super) fn new(b: &'a mut Builder<'b>, k: u32, shared: &'a SharedInfo) -> SlotGen<'a, 'b> {
        SlotGen {
            b,
            k,
            shared,
            points: vec![],
            cur: None,
            end_label: None,
            atomic: Some(false),
            at_gotos: HashMap::new(),
            labels: HashSet::new(),
            atomic_unknown: false,
        }
    }
}

pub(super) fn bin_or(a: Expr, c: Expr) -> Expr {
    b::bin(BinOp::LogOr, a, c)
}

pub(super) fn is_null(e: &Expr, tt: &TypeTable) -> bool {
    let _ = tt;
    e.as_int() == Some(0)
}
