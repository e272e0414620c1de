//! The localization loop with the built-in checker: one encoding of the diagnosis model
//! in a live solver, one query per answer, `diag != k` added after each.
//!
//! Before the loop the replay is validated (DESIGN: never a bogus candidate): the
//! sequential program with no line changed must fail the way the counterexample did and
//! follow the schedule, and the diagnosis model with no line selected must not be able to
//! pass. Either check failing is a sequentialization error, reported as such.
//!
//! With `faults = N` the loop runs N times, for sets of 1, 2, ... N lines: the diag
//! variables of a set are kept in increasing order (one answer per set), unused ones are
//! 0 (no line), and every set found excludes all its supersets, so each set reported is
//! minimal — no line of it can be left unchanged.

use std::collections::BTreeMap;
use std::time::Instant;

use z3::ast::{BV, Bool};

use super::Target;
use super::instrument::Instrumented;
use crate::cex::Counterexample;
use crate::checker::builtin::symex::{EventKind, PropKind, SymexError};
use crate::checker::builtin::{
    Answer, BmcError, Limit, Session, Stats, Undecided, signed_value, truth, value,
};
use crate::ir::{Program, StmtId};
use crate::passes::normalize::SharedInfo;
use crate::seq::schedule::{Resolved, StmtIndex};
use crate::seq::{Mode, PointKind, SeqOptions, Sequentialized, sequentialize};

#[derive(Clone, Debug)]
pub struct LocalizeOptions {
    /// Largest set of lines that may change together.
    pub faults: u32,
    /// Stop after this many answers.
    pub max_candidates: Option<usize>,
    pub deadline: Option<Instant>,
    /// Ask each question on a fresh solver over the same terms instead of the live one.
    pub fresh_solver: bool,
}

/// One answer: a set of lines whose change avoids the failure, and the changes made.
#[derive(Clone, Debug)]
pub struct Finding {
    /// Diag values (line keys), increasing.
    pub set: Vec<u32>,
    pub changes: Vec<Change>,
    /// Time from the start of the loop.
    pub at_ms: u64,
}

/// A statement copy whose value the checker changed.
#[derive(Clone, Debug)]
pub struct Change {
    pub site: u32,
    pub chosen: i128,
    pub original: i128,
    /// The value is a truth value (`_Bool`).
    pub boolean: bool,
    /// Pointers, as `NULL` or `&object` (numbers are rendered by the reader).
    pub chosen_text: Option<String>,
    pub original_text: Option<String>,
}

#[derive(Clone, Debug, Default)]
pub struct Localization {
    pub findings: Vec<Finding>,
    /// The loop ran until the checker had no more answers.
    pub complete: bool,
    /// Why it stopped early (candidate limit, time limit, solver).
    pub stopped: Option<String>,
    /// The limit that stopped it, when one did: the candidates are then only those found
    /// so far.
    pub limit: Option<Limit>,
    /// Questions asked of the solver (validation included).
    pub checker_runs: u32,
    pub stats: Stats,
}

#[derive(Debug, thiserror::Error)]
pub enum LocalizeError {
    /// The sequential program does not reproduce the counterexample.
    #[error("the sequential program does not reproduce the failure: {0}")]
    NotReproduced(String),
    /// A limit stopped a solve that had to be answered.
    #[error("{limit} while {what}", limit = crate::checker::builtin::stop::describe(*.0), what = .1)]
    Limit(Limit, &'static str),
    #[error(transparent)]
    Bmc(#[from] BmcError),
}

fn encode(
    seq: Sequentialized,
    what: &'static str,
    opts: &LocalizeOptions,
) -> Result<Session, LocalizeError> {
    // Concrete programs are loop-free after unrolling; the framework's loop runs once per
    // block.
    let bound = seq.steps + 2;
    match Session::new_valid_loads(seq, bound, opts.deadline) {
        Ok(s) => Ok(s),
        Err(BmcError::Symex(SymexError::Timeout)) => Err(LocalizeError::Limit(
            crate::checker::builtin::stop::requested().unwrap_or(Limit::Time),
            what,
        )),
        Err(e) => Err(e.into()),
    }
}

fn add_stats(total: &mut Stats, s: &Stats) {
    total.encode_ms += s.encode_ms;
    total.solve_ms += s.solve_ms;
    total.solver_calls += s.solver_calls;
}

fn target_kinds(t: Target) -> Vec<PropKind> {
    match t {
        Target::Failure => vec![PropKind::Assertion, PropKind::Error],
        Target::Deadlock => vec![PropKind::Deadlock],
    }
}

/// The program as written, for naming statements in the replayed counterexample.
pub struct Source<'a> {
    pub normalized: &'a Program,
    pub shared: &'a SharedInfo,
    pub index: &'a StmtIndex,
}

/// What the localization runs on: the sequential program along the failing schedule,
/// its diagnosis model, and the replayed failing run.
pub struct Diagnosis {
    /// The sequential program the model instruments (fixed switch points when the
    /// replay allowed computing them, else the occurrence-based replay).
    pub sequential: Sequentialized,
    pub model: Instrumented,
    /// The failing run as the replay executed it.
    pub replay: Counterexample,
    /// The switch points are fixed (see [`Resolved::ends`]).
    pub fixed_switches: bool,
    /// Validation work, counted in the localization's totals.
    pub validation: Localization,
    /// The schedule and options the replay used, for replaying variants of it
    /// (`diag::interleaving`).
    pub resolved: Resolved,
    pub seq_opts: SeqOptions,
    pub target: Target,
    /// Where each thread still alive when the replay ended would resume, as the
    /// end-of-run probes found it (thread, statement), in thread order; in a deadlock, the
    /// statement each thread is blocked at, also for a thread that never ran a step.
    pub waiting: Vec<(u32, StmtId)>,
}

/// Builds and validates the diagnosis model for `resolved` (DESIGN: never a bogus
/// candidate): the replay must fail as the counterexample did and follow the schedule.
pub fn prepare(
    src: &Source,
    resolved: &Resolved,
    seq_opts: &SeqOptions,
    target: Target,
    faults: u32,
    opts: &LocalizeOptions,
) -> Result<Diagnosis, LocalizeError> {
    let mut loc = Localization::default();
    let concrete = sequentialize(
        src.normalized,
        src.shared,
        Mode::Concrete(resolved),
        seq_opts,
    )
    .map_err(|e| LocalizeError::NotReproduced(e.to_string()))?;
    let (replay, ends, waiting) = validate_replay(&concrete, target, opts, &mut loc, src, true)?;
    // The same replay with its context switches pinned to the program points where the
    // replay made them: a changed value then cannot move a switch, and the encoding
    // holds each block's code once instead of every block holding its thread's code.
    let fixed = ends.and_then(|ends| {
        let mut r = resolved.clone();
        r.ends = Some(ends);
        let sq = sequentialize(src.normalized, src.shared, Mode::Concrete(&r), seq_opts).ok()?;
        Some(sq)
    });
    let (sequential, fixed_switches) = match fixed {
        Some(sq) => match validate_replay(&sq, target, opts, &mut loc, src, false) {
            Ok(_) => (sq, true),
            Err(e @ LocalizeError::Limit(..)) => return Err(e),
            Err(_) => (concrete, false),
        },
        None => (concrete, false),
    };
    let model = super::instrument::instrument(&sequential, target, faults);
    Ok(Diagnosis {
        sequential,
        model,
        replay,
        fixed_switches,
        validation: loc,
        resolved: resolved.clone(),
        seq_opts: seq_opts.clone(),
        target,
        waiting,
    })
}

/// A validated replay: the failing run, the block ends and the waiting threads.
type Replayed = (Counterexample, Option<Vec<u32>>, Vec<(u32, StmtId)>);

/// Checks that a concrete sequential program fails as the counterexample did; returns
/// the replayed failing run (its trace is the one the report shows), when asked the
/// program point at which each block's thread stopped, and where each live thread would
/// resume at the end (see [`Diagnosis::waiting`]).
fn validate_replay(
    concrete: &Sequentialized,
    target: Target,
    opts: &LocalizeOptions,
    loc: &mut Localization,
    src: &Source,
    want_ends: bool,
) -> Result<Replayed, LocalizeError> {
    let mut s = encode(concrete.clone(), "encoding the sequential program", opts)?;
    let lits = s.property_lits(&target_kinds(target));
    let follows: Vec<Bool> = s.mismatch_lits().iter().map(Bool::not).collect();
    let answer = s.query(&lits, &follows);
    loc.checker_runs += 1;
    let result = match answer {
        Answer::Violated(model) => {
            let ends = if want_ends {
                block_ends(&s, &model, concrete)
            } else {
                None
            };
            let waiting = resume_points(&s, &model, concrete);
            Ok((
                s.counterexample(&model, src.index, src.normalized),
                ends,
                waiting,
            ))
        }
        Answer::Unknown(Undecided::Limit(l)) => {
            Err(LocalizeError::Limit(l, "validating the sequential program"))
        }
        Answer::Unknown(why) => Err(LocalizeError::NotReproduced(format!(
            "the solver could not decide whether it fails ({why})"
        ))),
        Answer::Holds => {
            let m = s.mismatch_lits();
            let why = match s.query(&m, &[]) {
                Answer::Violated(model) => match s.mismatch_step(&model) {
                    Some(step) => format!(
                        "the schedule cannot be replayed: at block {step} the thread is not running or does not reach the statement the block ends before"
                    ),
                    None => "the schedule cannot be replayed".to_string(),
                },
                _ => match target {
                    Target::Failure => {
                        "replayed along the schedule, no assertion fails".to_string()
                    }
                    Target::Deadlock => {
                        "replayed along the schedule, the threads do not deadlock".to_string()
                    }
                },
            };
            loc.checker_runs += 1;
            Err(LocalizeError::NotReproduced(why))
        }
    };
    add_stats(&mut loc.stats, &s.stats);
    result
}

/// Where each block of a replayed run stopped: the program point its thread would
/// execute next (one past its exit point when it finished; one past the failing point for
/// a last block that ended in the failure). `None` when the run's points cannot be told
/// apart by block (two consecutive blocks of one thread).
fn block_ends(s: &Session, model: &z3::Model, sq: &Sequentialized) -> Option<Vec<u32>> {
    let mut groups: Vec<(u32, Vec<u32>)> = Vec::new();
    for ev in &s.out.events {
        if !matches!(ev.kind, EventKind::Point) || !truth(model, &ev.guard) {
            continue;
        }
        let Some((k, p)) = ev.point else { continue };
        match groups.last_mut() {
            Some((t, ps)) if *t == k => ps.push(p),
            _ => groups.push((k, vec![p])),
        }
    }
    if groups.len() != sq.steps as usize {
        return None;
    }
    let failing_point = s
        .out
        .props
        .iter()
        .find(|p| truth(model, &p.lit))
        .and_then(|p| p.point);
    let last = groups.len() - 1;
    let mut ends = Vec::new();
    for (i, (k, ps)) in groups.iter().enumerate() {
        let p = *ps.last()?;
        let code = sq
            .slots
            .get(*k as usize)?
            .codes
            .iter()
            .find(|c| ps.iter().all(|x| (*x as usize) < c.points.len()))?;
        let exit = code
            .points
            .get(p as usize)
            .is_some_and(|pi| pi.kind == PointKind::Exit);
        let died_here = i == last && failing_point == Some((*k, p));
        ends.push(if exit || died_here { p + 1 } else { p });
    }
    Some(ends)
}

/// The statement each live thread of a replayed run would resume at, from the end-of-run
/// probes (a replay gives each slot at most one code). A thread at its exit point, or one
/// the probes did not reach, is left out.
fn resume_points(s: &Session, model: &z3::Model, sq: &Sequentialized) -> Vec<(u32, StmtId)> {
    let mut at: BTreeMap<u32, StmtId> = BTreeMap::new();
    for ev in &s.out.events {
        let EventKind::Resume { k, p } = ev.kind else {
            continue;
        };
        if !truth(model, &ev.guard) {
            continue;
        }
        let Some([code]) = sq.slots.get(k as usize).map(|sl| sl.codes.as_slice()) else {
            continue;
        };
        if let Some(pi) = code.points.get(p as usize) {
            if pi.kind == PointKind::Code && !pi.head.is_none() {
                at.insert(k, pi.head);
            }
        }
    }
    at.into_iter().collect()
}

/// The localization loop on a prepared diagnosis model.
pub fn localize(d: &Diagnosis, opts: &LocalizeOptions) -> Result<Localization, LocalizeError> {
    let t0 = Instant::now();
    let mut loc = d.validation.clone();
    let mut model_seq = d.sequential.clone();
    model_seq.program = d.model.program.clone();
    let mut s = encode(model_seq, "encoding the instrumented program", opts)?;
    if std::env::var_os("SEQLOC_DEBUG_LOCALIZE").is_some() {
        let mut counts: std::collections::BTreeMap<u32, usize> = Default::default();
        for r in &s.out.diags {
            *counts.entry(r.site).or_default() += 1;
        }
        eprintln!("diag evaluations per site: {counts:?}");
    }
    // Only runs that follow the schedule count.
    for m in s.mismatch_lits() {
        s.add(&m.not());
    }
    let result = run_loop(&mut s, &d.model, opts, &mut loc, t0);
    add_stats(&mut loc.stats, &s.stats);
    result.map(|()| loc)
}

fn run_loop(
    s: &mut Session,
    ins: &Instrumented,
    opts: &LocalizeOptions,
    loc: &mut Localization,
    t0: Instant,
) -> Result<(), LocalizeError> {
    let end = s.property_lits(&[PropKind::Assertion]);
    let diags: Vec<BV> = ins
        .diag_vars
        .iter()
        .filter_map(|v| s.global_term(*v).cloned())
        .collect();
    if diags.len() != ins.diag_vars.len() {
        return Err(LocalizeError::NotReproduced(
            "the diag variables are missing from the encoding".into(),
        ));
    }
    let width = diags.first().map(BV::get_size).unwrap_or(32);
    let num = |k: i64| BV::from_i64(k, width);
    let no_line: Vec<Bool> = diags.iter().map(|d| d.eq(num(0))).collect();
    // With no line selected the model must not pass: the failure is deterministic.
    loc.checker_runs += 1;
    match ask(s, &end, &no_line, opts) {
        Answer::Holds => {}
        Answer::Violated(_) => {
            return Err(LocalizeError::NotReproduced(
                "with no line changed the instrumented program can avoid the failure (a nondeterministic value the counterexample does not fix)".into(),
            ));
        }
        Answer::Unknown(why) => {
            return Err(if let Some(l) = why.limit() {
                LocalizeError::Limit(l, "validating the instrumented program")
            } else {
                LocalizeError::NotReproduced(format!("the solver could not decide: {why}"))
            });
        }
    }
    let keys: Vec<i64> = ins.lines.keys().map(|k| *k as i64).collect();
    let faults = diags.len();
    'sizes: for size in 1..=faults {
        // The set's diag variables are increasing valid keys; the others select nothing.
        let mut shape: Vec<Bool> = Vec::new();
        for (i, d) in diags.iter().enumerate() {
            if i < size {
                let valid: Vec<Bool> = keys.iter().map(|k| d.eq(num(*k))).collect();
                shape.push(Bool::or(&valid));
                if i + 1 < size {
                    shape.push(d.bvslt(&diags[i + 1]));
                }
            } else {
                shape.push(d.eq(num(0)));
            }
        }
        loop {
            if opts.max_candidates.is_some_and(|m| loc.findings.len() >= m) {
                loc.stopped = Some(format!(
                    "stopped after {} candidates (--max-candidates)",
                    loc.findings.len()
                ));
                return Ok(());
            }
            loc.checker_runs += 1;
            match ask(s, &end, &shape, opts) {
                Answer::Holds => continue 'sizes,
                Answer::Unknown(why) => {
                    loc.limit = why.limit();
                    loc.stopped = Some(if let Some(l) = loc.limit {
                        format!(
                            "{}; the candidates so far are listed",
                            crate::checker::builtin::stop::describe(l)
                        )
                    } else {
                        format!("the solver could not decide ({why})")
                    });
                    return Ok(());
                }
                Answer::Violated(model) => {
                    let mut set: Vec<u32> = diags[..size]
                        .iter()
                        .filter_map(|d| value(&model, d))
                        .map(|u| signed_value(u, width, true))
                        .filter(|v| *v > 0)
                        .map(|v| v as u32)
                        .collect();
                    set.sort_unstable();
                    set.dedup();
                    if set.is_empty() {
                        return Err(LocalizeError::NotReproduced(
                            "the checker passed the program without selecting a line".into(),
                        ));
                    }
                    // Prefer a repair close to what the statement computed: a person reads
                    // "had it stored 2 (it stored 1)" more easily than an arbitrary value.
                    let model = nearer(s, ins, &set, &diags, &end, &shape, opts, loc, &model)
                        .unwrap_or(model);
                    let changes = changes(s, &model, ins, &set);
                    // Exclude this set and every set containing it.
                    let contains: Vec<Bool> = set
                        .iter()
                        .map(|k| {
                            let any: Vec<Bool> =
                                diags.iter().map(|d| d.eq(num(*k as i64))).collect();
                            Bool::or(&any)
                        })
                        .collect();
                    s.add(&Bool::and(&contains).not());
                    loc.findings.push(Finding {
                        set,
                        changes,
                        at_ms: t0.elapsed().as_millis() as u64,
                    });
                }
            }
        }
    }
    loc.complete = true;
    Ok(())
}

/// The simplest repair the same lines allow, for the hint: one statement copy changed
/// (tried in execution order), to a value near the one it computed; else every copy
/// near its value; else `None` (keep the first answer).
#[allow(clippy::too_many_arguments)]
fn nearer(
    s: &mut Session,
    ins: &Instrumented,
    set: &[u32],
    diags: &[BV],
    end: &[Bool],
    shape: &[Bool],
    opts: &LocalizeOptions,
    loc: &mut Localization,
    first: &z3::Model,
) -> Option<z3::Model> {
    const NEAR: u64 = 8;
    const MAX_TRIES: usize = 6;
    let mut base: Vec<Bool> = shape.to_vec();
    // The same set, in the same order.
    for (d, k) in diags.iter().zip(set.iter()) {
        base.push(d.eq(BV::from_i64(*k as i64, d.get_size())));
    }
    // The records of the set's sites: whether each is active, its "unchanged" and
    // "near" conditions.
    struct Rec {
        active: Bool,
        same: Bool,
        near: Option<Bool>,
        changed_first: bool,
    }
    let mut recs: Vec<Rec> = Vec::new();
    for rec in &s.out.diags {
        let Some(site) = ins.sites.get(rec.site as usize) else {
            continue;
        };
        if !set.contains(&site.key) {
            continue;
        }
        let active = Bool::and(&[rec.guard.clone(), rec.selected.clone()]);
        let w = rec.chosen.get_size();
        let numeric =
            site.kind != super::SiteKind::Condition && !rec.ty.is_pointer(&ins.program.types);
        let near = (numeric && w >= 5).then(|| {
            rec.chosen
                .bvsub(&rec.original)
                .bvadd(BV::from_u64(NEAR, w))
                .bvule(BV::from_u64(2 * NEAR, w))
        });
        let changed_first =
            truth(first, &active) && value(first, &rec.chosen) != value(first, &rec.original);
        recs.push(Rec {
            same: rec.chosen.eq(&rec.original),
            active,
            near,
            changed_first,
        });
    }
    let changed: Vec<usize> = (0..recs.len()).filter(|i| recs[*i].changed_first).collect();
    if changed.len() > 1 || recs.iter().any(|r| r.changed_first && r.near.is_some()) {
        // One copy at a time (the others keep their values): first with a value near the
        // original, then with any value, because a hint that changes one thread's copy
        // reads better than two arbitrary ones.
        for near in [true, false] {
            if !near && changed.len() <= 1 {
                break;
            }
            for &i in changed.iter().take(MAX_TRIES) {
                let mut extra = base.clone();
                for (j, r) in recs.iter().enumerate() {
                    if j == i {
                        if let (true, Some(n)) = (near, &r.near) {
                            extra.push(r.active.implies(n));
                        }
                    } else {
                        extra.push(r.active.implies(&r.same));
                    }
                }
                loc.checker_runs += 1;
                if let Answer::Violated(m) = ask(s, end, &extra, opts) {
                    return Some(m);
                }
            }
        }
    }
    let mut extra = base;
    for r in &recs {
        if let Some(n) = &r.near {
            extra.push(r.active.implies(n));
        }
    }
    loc.checker_runs += 1;
    match ask(s, end, &extra, opts) {
        Answer::Violated(m) => Some(m),
        _ => None,
    }
}

fn ask(s: &mut Session, end: &[Bool], extra: &[Bool], opts: &LocalizeOptions) -> Answer {
    let t = Instant::now();
    let a = if opts.fresh_solver {
        s.query(end, extra)
    } else {
        s.query_incremental(end, extra)
    };
    if std::env::var_os("SEQLOC_DEBUG_LOCALIZE").is_some() {
        let what = match &a {
            Answer::Violated(_) => "sat",
            Answer::Holds => "unsat",
            Answer::Unknown(_) => "unknown",
        };
        eprintln!("localize query: {what} in {} ms", t.elapsed().as_millis());
    }
    a
}

/// The site copies of `set`'s lines the model changed (selected, executed, and given a
/// value other than the one the statement computes).
fn changes(s: &Session, model: &z3::Model, ins: &Instrumented, set: &[u32]) -> Vec<Change> {
    let mut out = Vec::new();
    for rec in &s.out.diags {
        let Some(site) = ins.sites.get(rec.site as usize) else {
            continue;
        };
        if !set.contains(&site.key) || !truth(model, &rec.guard) || !truth(model, &rec.selected) {
            continue;
        }
        let signed = rec
            .ty
            .int_kind(&ins.program.types)
            .is_some_and(|k| k.is_signed());
        let (Some(c), Some(o)) = (value(model, &rec.chosen), value(model, &rec.original)) else {
            continue;
        };
        let w = rec.chosen.get_size();
        let (chosen, original) = (signed_value(c, w, signed), signed_value(o, w, signed));
        let boolean = site.kind == super::SiteKind::Condition
            || matches!(
                rec.ty.resolve(&ins.program.types),
                crate::ir::Type::Int(crate::ir::IntKind::Bool)
            );
        let pointer = rec.ty.is_pointer(&ins.program.types);
        let differs = if boolean {
            (chosen != 0) != (original != 0)
        } else {
            chosen != original
        };
        if differs {
            let (chosen_text, original_text) = if pointer {
                (
                    Some(s.render_value(model, &rec.chosen, &rec.ty)),
                    Some(s.render_value(model, &rec.original, &rec.ty)),
                )
            } else {
                (None, None)
            };
            out.push(Change {
                site: rec.site,
                chosen,
                original,
                boolean,
                chosen_text,
                original_text,
            });
        }
    }
    out
}
