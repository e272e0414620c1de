//! Building the sequential program: slots, points, guards, the pthread model and the
//! `switch(order[order_index])` framework. See the module docs of [`super`].

mod actions;
mod framework;
mod inputs;
mod lifecycle;
mod points;
mod state;
mod steps;
mod sync;
mod threads;
mod types;

pub use steps::ERROR_RECORD_ONLY;

use std::collections::HashMap;

use super::{Mode, PointInfo, PointKind, SeqError, SeqOptions, Sequentialized, SlotCode, SlotInfo};
use crate::analysis::facts::thread_structure;
use crate::analysis::shared::{SharedInfo, address_taken_in};
use crate::ir::build as b;
use crate::ir::*;
use framework::make_vars;
use state::{Builder, MAIN_EXIT, SlotGen};
use threads::{destructor_candidates, slot_plan, static_create_ids};
use types::apply_type_rules;

/// Builds the sequential program for `normalized` (the output of normalization).
pub fn sequentialize(
    normalized: &Program,
    shared: &SharedInfo,
    mode: Mode,
    opts: &SeqOptions,
) -> Result<Sequentialized, SeqError> {
    let inputs = match mode {
        Mode::Concrete(r) => Some(&r.inputs),
        Mode::Symbolic => None,
    };
    build(normalized, shared, mode, inputs, opts)
}

/// The symbolic program (every schedule of the rounds) with the inputs of `inputs` fixed
/// as a replay fixes them: thread `k`'s `i`-th execution of statement `s` reads the `i`-th
/// recorded value, and an occurrence beyond the record is nondeterministic again. The
/// root-cause search asks its questions of it: "every run with the failing inputs" holds
/// whichever path, loop iteration or inlined call reads an input, which fixing values by
/// program point could not say of an input read in a loop or from two call sites.
pub fn sequentialize_with_inputs(
    normalized: &Program,
    shared: &SharedInfo,
    inputs: &Inputs,
    opts: &SeqOptions,
) -> Result<Sequentialized, SeqError> {
    build(normalized, shared, Mode::Symbolic, Some(inputs), opts)
}

/// Input values by thread and statement, in occurrence order (as `Resolved::inputs`).
pub type Inputs = HashMap<(u32, StmtId), Vec<(u32, i128)>>;

fn build(
    normalized: &Program,
    shared: &SharedInfo,
    mode: Mode,
    inputs: Option<&Inputs>,
    opts: &SeqOptions,
) -> Result<Sequentialized, SeqError> {
    let mut prog = normalized.clone();
    // The sequential program declares a thread's locals without their initializers and
    // assigns them, member by member for a struct: a `const` member would make that
    // assignment an error for the compilers and checkers that read the printed program.
    for comp in &mut prog.types.comps {
        for f in &mut comp.fields {
            f.ty = threads::strip_const(&f.ty);
        }
    }
    let orig_main = prog.main().ok_or(SeqError::NoMain)?;
    apply_type_rules(&mut prog, &opts.rules);

    // Thread functions: main first, then every function passed to pthread_create.
    let ts = thread_structure(&prog);
    let mut thread_fns = vec![orig_main];
    for f in ts.entries.keys() {
        if *f != orig_main {
            thread_fns.push(*f);
        }
    }

    // Slots and the functions each may run.
    let mut only_main_creates = false;
    let (slot_fns, slot_bound): (Vec<Vec<usize>>, u32) = match mode {
        Mode::Concrete(r) => {
            // Slot k is the k-th thread created; threads the schedule never runs need
            // not be listed (their slots get no code).
            let max_id = r.threads.iter().map(|(id, _)| *id).max().unwrap_or(0);
            let mut v: Vec<Vec<usize>> = vec![Vec::new(); max_id as usize + 1];
            let mut threads = r.threads.clone();
            threads.sort_by_key(|(id, _)| *id);
            for (id, f) in &threads {
                let idx = match thread_fns.iter().position(|x| x == f) {
                    Some(i) => i,
                    None => {
                        thread_fns.push(*f);
                        thread_fns.len() - 1
                    }
                };
                if *id == 0 && idx != 0 {
                    return Err(SeqError::Schedule {
                        step: 0,
                        reason: format!("thread 0 must run `main`, not `{}`", prog.func(*f).name),
                    });
                }
                v[*id as usize] = vec![idx];
            }
            let n = v.len() as u32;
            (v, n)
        }
        Mode::Symbolic => {
            let (plan, n, only_main) = slot_plan(&mut prog, &thread_fns, opts)?;
            only_main_creates = only_main;
            (plan, n)
        }
    };
    let nslots = slot_fns.len() as u32;

    // A replay gives slots only to the threads that ran, but a thread that never ran may
    // still be detached and joined: the states cover every id up to the thread bound.
    let detach_ids = nslots.max(opts.max_threads);
    let vars = make_vars(&mut prog, nslots, detach_ids, mode);
    let typed_mutexes = crate::ir::known::sets_mutex_type(&prog);
    let mut builder = Builder {
        prog,
        opts,
        vars,
        nslots,
        thread_fns: thread_fns.clone(),
        concrete: match mode {
            Mode::Concrete(r) => Some(r),
            Mode::Symbolic => None,
        },
        inputs,
        occ_vars: HashMap::new(),
        input_occ: HashMap::new(),
        input_tables: HashMap::new(),
        models_mutexes: opts.rules.models_mutexes() || typed_mutexes,
        typed_mutexes,
        self_joins: crate::analysis::thread_ids::may_join_itself(normalized),
        detaches: crate::ir::known::detaches(normalized),
        detach_ids,
        spurious_waits: crate::analysis::waits::spurious_wake_sites(normalized),
        dtors: vec![],
        static_ids: None,
        creates_seen: 0,
    };
    builder.dtors = destructor_candidates(&builder.prog);

    // 1. Every slot's code: inlined, unrolled, locals hoisted into globals.
    let mut raw: Vec<(u32, usize, Stmt, String)> = Vec::new();
    for (k, fns) in slot_fns.iter().enumerate() {
        for &j in fns {
            let f = thread_fns[j];
            let (code, end) = builder.thread_code(k as u32, f)?;
            raw.push((k as u32, j, code, end));
        }
    }
    // 2. Which memory the other threads see, in the sequential program.
    let mut seq_shared = shared.clone();
    let stmts: Vec<&Stmt> = raw.iter().map(|(_, _, s, _)| s).collect();
    let taken = address_taken_in(&builder.prog, &stmts);
    // A global `main` froze before its first thread started is read without a switch
    // before it (as the explorer reads it): no write can come between, so no schedule
    // is lost, and fewer points need fewer rounds.
    for v in crate::checker::explicit::frozen_globals(normalized) {
        if !taken.contains(&v) {
            seq_shared.vars.remove(&v);
        }
    }
    seq_shared.vars.extend(taken);
    // 3. Points and guards.
    let mut slots: Vec<SlotInfo> = (0..nslots)
        .map(|id| SlotInfo { id, codes: vec![] })
        .collect();
    let mut probes: Vec<Vec<Stmt>> = (0..nslots).map(|_| vec![]).collect();
    let mut slot_bodies: Vec<Vec<Stmt>> = (0..nslots).map(|_| vec![]).collect();
    for (k, j, code, end) in raw {
        // Main's creations get thread ids fixed at translation time when it is the only
        // creator and each creation site is reached after a known number of others: a
        // symbolic `nthreads` would make every `created[nthreads] = 1` a choice among all
        // slots (Lazy-CSeq numbers its threads statically for the same reason).
        builder.static_ids = if k == 0 && only_main_creates {
            static_create_ids(&builder.prog, &builder.thread_fns, &code)
        } else {
            None
        };
        let walk = |builder: &mut Builder, code: Stmt| {
            builder.creates_seen = 0;
            let mut g = SlotGen::new(builder, k, &seq_shared);
            g.end_label = Some(end.clone());
            let mut out = Vec::new();
            g.walk(code, &mut out);
            g.flush(&mut out);
            let mut points = std::mem::take(&mut g.points);
            if g.atomic_unknown {
                for p in &mut points {
                    p.may_end_run = true;
                }
            }
            (out, points)
        };
        let (mut out, mut points) = walk(&mut builder, code.clone());
        if builder
            .static_ids
            .as_ref()
            .is_some_and(|ids| ids.len() != builder.creates_seen)
        {
            // The count and the translation disagree on the creation sites: number them
            // at run time instead.
            builder.static_ids = None;
            (out, points) = walk(&mut builder, code);
        }
        builder.static_ids = None;
        let mut full = out;
        // The thread's end.
        full.push(b::label(&end));
        let exit_stmts = builder.exit_statements(k, j);
        let p = points.len();
        let f = thread_fns[j];
        let floc = builder.prog.func(f).loc;
        points.push(PointInfo {
            head: StmtId::NONE,
            loc: floc,
            stmts: vec![],
            step_heads: vec![],
            visible: true,
            blocking: None,
            kind: PointKind::Exit,
            may_end_run: true,
        });
        full.push(builder.guard(k, p, StmtId::NONE, floc, None, exit_stmts));
        if k == 0 {
            full.push(b::label(MAIN_EXIT));
        }
        let probe = builder.probe_code(k, &full, &points);
        let name = builder.prog.func(f).name.clone();
        let dispatch = b::if_(
            b::bin(
                BinOp::Eq,
                b::elem(&builder.prog, builder.vars.fnid, b::uint(k as i128)),
                b::int(j as i128),
            ),
            full,
            None,
        );
        slot_bodies[k as usize].push(dispatch);
        probes[k as usize].push(b::if_(
            b::bin(
                BinOp::Eq,
                b::elem(&builder.prog, builder.vars.fnid, b::uint(k as i128)),
                b::int(j as i128),
            ),
            probe,
            None,
        ));
        slots[k as usize].codes.push(SlotCode {
            thread_fn: j,
            func: f,
            name,
            points,
            code_func: FuncId(0),
        });
    }
    // 4. One function per slot, one probe per slot, and the framework's main.
    let mut slot_funcs = Vec::new();
    for k in 0..nslots {
        let name = match slots[k as usize].codes.as_slice() {
            [one] => format!("__seq_thread{}_{}", k, one.name),
            _ => format!("__seq_thread{k}"),
        };
        let body = std::mem::take(&mut slot_bodies[k as usize]);
        let fid = builder.new_function(&name, body);
        for c in &mut slots[k as usize].codes {
            c.code_func = fid;
        }
        slot_funcs.push(fid);
    }
    // The probes find each live thread's next point at the end of the run: for the
    // deadlock property, and (symbolic mode) for where a preempted thread's last block ends.
    let mut probe_funcs = Vec::new();
    if opts.deadlock || matches!(mode, Mode::Symbolic) {
        for k in 0..nslots {
            let body = std::mem::take(&mut probes[k as usize]);
            let fid = builder.new_function(&format!("__seq_probe{k}"), body);
            probe_funcs.push(fid);
        }
    }
    let steps = builder.framework(&slots, &slot_funcs, &probe_funcs, orig_main)?;
    Ok(Sequentialized {
        program: builder.prog,
        thread_fns,
        slots,
        vars: builder.vars,
        steps,
        slot_bound,
    })
}
