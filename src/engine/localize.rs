//! `seqloc localize` as a library call, after a failing interleaving is known (from a
//! checker's counterexample or a user's schedule): the validated diagnosis model
//! (`engine::diagnosis`), then, side by side, the candidate loop on the chosen checker and the
//! interleaving analyses on the built-in one (necessary context switches, order
//! violations, missing joins), and the ranking that merges them (`engine::candidates`, `diag::explain`).

use std::sync::{Arc, Mutex};
use std::time::Instant;

use super::candidates::{self as candidate_loop, Localization, LoopOptions};
use super::diagnosis::{self as diagnosis_mod, Diagnosis, DiagnosisError};
use super::progress::Observer;
use super::replay::{ReplayBounds, ReplayError, Replayer, lock_refusal};
use crate::cex::{Counterexample, ViolationKind};
use crate::checker::builtin::{Interruptible, Limit, SolveGate};
use crate::checker::external::External;
use crate::checker::external::rounds::Rounds;
use crate::checker::oracle::OracleError;
use crate::diag::Replays;
use crate::diag::explain::{Candidate, Explainer};
use crate::diag::interleaving::{
    NecessarySwitch, deadlock_state, necessary_switches, unscheduled_threads, with_threads,
};
use crate::diag::ordering::{
    MissingJoin, OrderSearch, detached_joins, missing_joins, order_violations,
    unresumed_order_violations, unstarted_order_violations,
};
use crate::diag::waits::unlooped_waits;
use crate::instrument::Target;
use crate::passes::Prepared;
use crate::rootcause::Neighbour;
use crate::seq::Framework;
use crate::seq::schedule::{Block, Resolved, Schedule, Stop, ThreadSpec, Until};

/// A failing interleaving to localize along.
#[derive(Clone, Debug)]
pub struct Failing {
    pub schedule: Schedule,
    pub target: Target,
    /// The loop bound the failure needs.
    pub unwind: u32,
    /// The checker's counterexample (absent for a user's schedule).
    pub cex: Option<Counterexample>,
}

impl Failing {
    /// The failure of a checker's counterexample.
    pub fn of(cex: Counterexample, unwind: u32) -> Failing {
        Failing {
            schedule: cex.schedule.clone(),
            target: target_of(cex.violation.kind),
            unwind,
            cex: Some(cex),
        }
    }
}

pub fn target_of(kind: ViolationKind) -> Target {
    match kind {
        ViolationKind::Deadlock => Target::Deadlock,
        ViolationKind::Unlock => Target::Unlock,
        _ => Target::Failure,
    }
}

/// What every step of the localization shares.
#[derive(Clone, Debug)]
pub struct LocalizeConfig {
    /// `--rules`, `--templates`.
    pub framework: Framework,
    pub max_threads: u32,
    pub recursion: u32,
    /// Largest set of lines that may change together (`--faults`).
    pub faults: u32,
    /// `--max-candidates`.
    pub max_candidates: Option<usize>,
    pub deadline: Option<Instant>,
    /// Ask each of the built-in checker's questions on a fresh solver.
    pub fresh_solver: bool,
    /// Root causes to look for (`--root-causes`; 0: none).
    pub root_causes: usize,
    /// `--root-cause-time`: the root-cause search's whole time, in place of
    /// `CAUSES_TIME`.
    pub causes_time: Option<std::time::Duration>,
}

#[derive(Debug, thiserror::Error)]
pub enum LocalizeError {
    /// The schedule does not resolve against the program, or its replay does not fail
    /// the way the checker said: a sequentialization error for a checker's schedule, bad
    /// input for a user's.
    #[error("{0}")]
    NotReproduced(String),
    /// A limit stopped a step that had to finish.
    #[error("{} while {}", crate::checker::builtin::stop::describe(*.0), .1)]
    Limit(Limit, &'static str),
    /// The checker failed (an external checker's error, or the built-in one's).
    #[error(transparent)]
    Oracle(OracleError),
}

impl From<DiagnosisError> for LocalizeError {
    fn from(e: DiagnosisError) -> Self {
        match e {
            DiagnosisError::NotReproduced(why) => LocalizeError::NotReproduced(format!(
                "the sequential program does not reproduce the failure: {why}"
            )),
            DiagnosisError::Limit(l, what) => LocalizeError::Limit(l, what),
            DiagnosisError::Bmc(e) => LocalizeError::Oracle(OracleError::Builtin(e)),
        }
    }
}

impl From<OracleError> for LocalizeError {
    fn from(e: OracleError) -> Self {
        match e {
            OracleError::NotReproduced(why) => LocalizeError::NotReproduced(format!(
                "the sequential program does not reproduce the failure: {why}"
            )),
            OracleError::Limit(l, what) => LocalizeError::Limit(l, what),
            e => LocalizeError::Oracle(e),
        }
    }
}

fn replayer<'a>(
    prep: &'a Prepared,
    cfg: &'a LocalizeConfig,
    unwind: u32,
    target: Target,
) -> Replayer<'a> {
    Replayer {
        prep,
        framework: &cfg.framework,
        bounds: ReplayBounds {
            unwind,
            max_threads: cfg.max_threads,
            recursion: cfg.recursion,
        },
        target,
        deadline: cfg.deadline,
    }
}

/// The validated diagnosis model along `f`, with Table II's group chosen by the failure
/// (deadlock rules for a deadlock).
pub fn diagnosis(
    prep: &Prepared,
    f: &Failing,
    cfg: &LocalizeConfig,
) -> Result<Diagnosis, LocalizeError> {
    let resolved = f
        .schedule
        .resolve(&prep.normalized, &prep.index)
        .map_err(|e| LocalizeError::NotReproduced(e.to_string()))?;
    let unwind = f.unwind.max(f.schedule.deepest_stop()).max(1);
    let replayer = replayer(prep, cfg, unwind, f.target);
    let faults = cfg.faults.max(1);
    // A deadlock involves every live thread, also one that blocked at its first statement
    // and so has no block in the schedule: the replay must run it (to its first
    // statement) for its deadlock to be the checker's.
    let unscheduled = match (&f.cex, f.target) {
        (Some(cex), Target::Deadlock) => unscheduled_threads(prep, &resolved, &cex.steps),
        _ => vec![],
    };
    if !unscheduled.is_empty() {
        let all = with_threads(&resolved, &unscheduled);
        match diagnosis_mod::prepare(&replayer, &all, faults) {
            // Not reproduced with them: the schedule as the checker gave it.
            Err(DiagnosisError::NotReproduced(_)) => {}
            r => return Ok(r?),
        }
    }
    let mut d = diagnosis_mod::prepare(&replayer, &resolved, faults)?;
    // Stops counted within their blocks (a YAML witness) are no points of the threads'
    // runs, which the analyses that merge and move blocks need: the blocks the replay
    // followed, read off its run, have them.
    if resolved
        .blocks
        .iter()
        .any(|b| matches!(b.until, Stop::BeforeInBlock(..)))
    {
        // Its blocks only: the inputs the schedule fixed are its own (a replay's run
        // reads them from tables, not as the choices a run's schedule records).
        let absolute = Schedule {
            blocks: d.replay.schedule.blocks.clone(),
            ..f.schedule.clone()
        }
        .resolve(&prep.normalized, &prep.index)
        .map_err(|e| LocalizeError::NotReproduced(e.to_string()))?;
        d = diagnosis_mod::prepare(&replayer, &absolute, faults)?;
    }
    // A schedule no checker produced (`--schedule`) was replayed with lock calls dropped;
    // it must also be one some execution follows with them.
    if f.cex.is_none() {
        let check = replayer
            .check_locks(&resolved, true)
            .map_err(|e| DiagnosisError::from_replay(e, "checking the schedule's locks"))?;
        if let Some(why) = lock_refusal(&check) {
            return Err(DiagnosisError::NotReproduced(why).into());
        }
    }
    Ok(d)
}

/// The checker that answers the candidate loop's questions.
pub enum Asked<'a> {
    Builtin,
    External(&'a mut External),
}

/// The most time the root-cause search gets, from the start of the localization loop it
/// runs beside (the localization's own time limit bounds it too). The search is bounded
/// by its questions' number and Z3 work (`causes::MAX_QUESTIONS`, `causes::WORK_BUDGET`),
/// which do not depend on the machine's load; this time is the safety net, well above
/// what the work budget takes here, for a machine many times slower or a step outside
/// the solver that runs long. Reaching it makes the answer depend on the machine.
const CAUSES_TIME: std::time::Duration = std::time::Duration::from_secs(20);

/// How often the end of the root-cause search is looked for once the loop is done.
const CAUSES_POLL: std::time::Duration = std::time::Duration::from_millis(2);

/// Ends the root-cause search at its time: closes its gate (no more Z3 work on its
/// thread) and interrupts the solve in progress there.
fn stop_causes(gate: &SolveGate, ctx: &Mutex<Option<Interruptible>>) {
    gate.close(|| {
        if let Some(ctx) = *ctx.lock().unwrap_or_else(|e| e.into_inner()) {
            ctx.interrupt()
        }
    });
}

/// What the localization found, ranked.
pub struct Localized {
    /// The counterexample the report shows: the checker's (or the replay's, for a user's
    /// schedule), with the threads the replay added.
    pub cex: Counterexample,
    pub candidates: Vec<Candidate>,
    pub loc: Localization,
    /// Why the list stops short, in words (`--max-candidates`, a limit).
    pub stopped: Option<String>,
    /// What the analyses did, for `-v`.
    pub notes: Vec<String>,
    /// Why it fails: the closest passing schedule found and the differential projection
    /// (see `rootcause`); none when no neighbour of the failing schedule passes.
    pub why: Option<crate::rootcause::Why>,
    /// The minimal root causes (see `engine::causes`); none when not asked for or not
    /// computed (the notes say why).
    pub causes: Option<crate::rootcause::causes::RootCauses>,
    /// Why no root cause is given although they were asked for: not computed (the
    /// error), or the search stopped before its first; `None` otherwise.
    pub causes_missing: Option<crate::rootcause::causes::MissingCauses>,
}

/// The interleaving analyses' questions, answered by replays.
struct AnalysisReplays<'a> {
    replayer: Replayer<'a>,
    /// An analysis found its time up and gave up part of its questions: the candidates
    /// it would have added may be missing.
    cut: std::sync::atomic::AtomicBool,
}

impl AnalysisReplays<'_> {
    fn out_of_time(&self) -> bool {
        let over = self.replayer.deadline.is_some_and(|d| Instant::now() >= d)
            || crate::checker::builtin::stop::requested().is_some();
        if over {
            self.cut.store(true, std::sync::atomic::Ordering::SeqCst);
        }
        over
    }
}

/// How often a passing neighbour's loop bound is doubled when it cuts the run short.
const PASSING_RAISES: u32 = 2;

impl crate::rootcause::PassingRuns for AnalysisReplays<'_> {
    type Error = ReplayError;

    fn passing_run(&self, r: &Resolved) -> Result<Option<(Counterexample, u32)>, ReplayError> {
        self.replayer.passing_run_raising(r, PASSING_RAISES)
    }

    fn expired(&self) -> bool {
        self.out_of_time()
    }
}

impl Replays for AnalysisReplays<'_> {
    type Error = ReplayError;

    fn fails(&self, r: &Resolved, strict: bool) -> Result<bool, ReplayError> {
        self.replayer.fails(r, strict)
    }

    fn expired(&self) -> bool {
        self.out_of_time()
    }
}

/// Notes an analysis error that a limit caused as a cut.
fn cut_by(replays: &AnalysisReplays, e: &ReplayError) {
    if matches!(e, ReplayError::Limit(_)) {
        replays.cut.store(true, std::sync::atomic::Ordering::SeqCst);
    }
}

enum Analysed {
    Switches(Vec<NecessarySwitch>),
    Ordering(OrderSearch, Vec<MissingJoin>),
}

/// The candidate loop on `asked` and the interleaving analyses (on two more threads),
/// merged and ranked.
pub fn localize(
    prep: &Prepared,
    f: &Failing,
    d: &Diagnosis,
    asked: Asked,
    cfg: &LocalizeConfig,
    observer: &dyn Observer,
    log: crate::checker::external::driver::Log,
) -> Result<Localized, LocalizeError> {
    let mut cex = f.cex.clone().unwrap_or_else(|| d.replay.clone());
    super::check::name_assertion(&mut cex, prep);
    add_replayed_threads(&mut cex, d, prep);
    let ins = &d.model;
    let opts = LoopOptions {
        faults: cfg.faults.max(1),
        max_candidates: cfg.max_candidates,
    };
    let checker_name = match &asked {
        Asked::Builtin => None,
        Asked::External(e) => Some(e.name()),
    };
    let run_loop = || -> Result<Localization, LocalizeError> {
        match asked {
            Asked::Builtin => {
                let mut oracle = crate::checker::builtin::diagnose::Diagnose::new(
                    d.model_program(),
                    ins,
                    cfg.deadline,
                    cfg.fresh_solver,
                )?;
                Ok(candidate_loop::run(
                    &mut oracle,
                    &d.validation,
                    &opts,
                    observer,
                )?)
            }
            Asked::External(ext) => {
                let mut oracle = Rounds::new(ext, ins, d.sequential.steps, log)?;
                Ok(candidate_loop::run(
                    &mut oracle,
                    &d.validation,
                    &opts,
                    observer,
                )?)
            }
        }
    };
    let replays = AnalysisReplays {
        replayer: Replayer {
            prep,
            framework: &cfg.framework,
            bounds: ReplayBounds {
                unwind: d.seq_opts.unwind,
                max_threads: d.seq_opts.max_threads,
                recursion: d.seq_opts.recursion,
            },
            target: d.target,
            deadline: cfg.deadline,
        },
        cut: std::sync::atomic::AtomicBool::new(false),
    };
    let explainer = Explainer::new(&prep.normalized, &prep.shared, ins, &cex);
    // Accesses through a pointer named by the object it pointed to at that step of the
    // analysed run (`*pp` is `head` while `pp = &head`).
    let pointers = crate::diag::interleaving::StepPointers::of(&d.replay.steps);
    let accesses =
        |s: &crate::cex::TraceStep| pointers.accesses(s, explainer.accesses(&s.file, s.line));
    let timed = |switches: bool| {
        let t = Instant::now();
        let out = if switches {
            necessary_switches(&replays, &d.resolved, &d.replay, &accesses).map(Analysed::Switches)
        } else {
            order_violations(&replays, &d.resolved, &d.replay, &accesses).and_then(|mut o| {
                let u =
                    unstarted_order_violations(prep, &replays, &d.resolved, &d.replay, &accesses)?;
                o.violations.extend(u.violations);
                o.replays += u.replays;
                let u =
                    unresumed_order_violations(prep, &replays, &d.resolved, &d.replay, &accesses)?;
                o.violations.extend(u.violations);
                o.replays += u.replays;
                detached_joins(prep, &d.resolved, &d.replay, &mut o.violations);
                let j = missing_joins(prep, &replays, &d.resolved, &d.replay, &accesses)?;
                Ok(Analysed::Ordering(o, j))
            })
        };
        (out, t.elapsed().as_millis())
    };
    let step_accesses = |s: &crate::cex::TraceStep| {
        explainer
            .stmt_access(s.sid)
            .unwrap_or_else(|| explainer.accesses(&s.file, s.line))
    };
    // The root causes need only the failing run: they are looked for beside the loop.
    let causes_gate = Arc::new(SolveGate::default());
    let causes_ctx: Mutex<Option<Interruptible>> = Mutex::new(None);
    let causes_done = std::sync::atomic::AtomicBool::new(false);
    let root_causes = || {
        *causes_ctx.lock().unwrap_or_else(|e| e.into_inner()) = Some(Interruptible::this_thread());
        let now = Instant::now();
        let own = now + cfg.causes_time.unwrap_or(CAUSES_TIME);
        let deadline = match cfg.deadline {
            Some(d) => d.min(own),
            None => own,
        };
        let r = super::causes::root_causes(
            &replays.replayer,
            d,
            &step_accesses,
            cfg.root_causes,
            Some(deadline),
            // A time given by the user is the search's bound, in place of its work.
            cfg.causes_time
                .is_none()
                .then_some(super::causes::WORK_BUDGET),
            Some(&causes_gate),
        );
        causes_done.store(true, std::sync::atomic::Ordering::SeqCst);
        r
    };
    // The interleaving analyses replay variants of the schedule on their own solvers: on a
    // second core while the localization loop runs.
    // They walk expressions recursively as the front end does: the same large stacks
    // (`crate::STACK_BYTES`). An analysis whose thread cannot start is "not analysed".
    let big = || std::thread::Builder::new().stack_size(crate::STACK_BYTES);
    let (localized, switches, ordering, causes) = std::thread::scope(|scope| {
        let switches = big().spawn_scoped(scope, || timed(true)).ok();
        let ordering = big().spawn_scoped(scope, || timed(false)).ok();
        let started = Instant::now();
        let causes = (cfg.root_causes > 0).then(|| big().spawn_scoped(scope, root_causes).ok());
        // The root-cause search's sessions set no Z3 timeout (Z3 4.8.12's timers race:
        // see `Session::set_gate_owning_deadline`); its deadline is enforced here, by
        // closing its gate.
        let causes_deadline = {
            let at = started + cfg.causes_time.unwrap_or(CAUSES_TIME);
            cfg.deadline.map_or(at, |d| d.min(at))
        };
        if matches!(causes, Some(Some(_))) {
            let (gate, ctx, done) = (&causes_gate, &causes_ctx, &causes_done);
            scope.spawn(move || {
                while !done.load(std::sync::atomic::Ordering::SeqCst) && !gate.is_closed() {
                    if Instant::now() >= causes_deadline {
                        stop_causes(gate, ctx);
                        break;
                    }
                    std::thread::sleep(CAUSES_POLL);
                }
            });
        }
        let localized = run_loop();
        // Once the loop is done the root-cause search is waited for until its questions
        // are asked or its time is up; then its solve is interrupted.
        if let Some(Some(c)) = &causes {
            while !c.is_finished() && Instant::now() < causes_deadline {
                std::thread::sleep(CAUSES_POLL);
            }
            if !c.is_finished() {
                stop_causes(&causes_gate, &causes_ctx);
            }
        }
        (
            localized,
            joined(switches),
            joined(ordering),
            causes.map(joined),
        )
    });
    let causes = match causes {
        Some(Ok(r)) => Some(r),
        Some(Err(_)) => Some(Err(super::causes::CausesError::Unsupported(
            "its thread failed".into(),
        ))),
        None => None,
    };
    let mut loc = localized?;
    let mut notes = Vec::new();
    let mut neighbours = Vec::new();
    let mut candidates = explainer.candidates(&loc.findings);
    match switches {
        Ok((Ok(Analysed::Switches(sw)), ms)) => {
            neighbours.extend(sw.iter().map(|s| Neighbour {
                change: match &s.last {
                    Some(l) => format!("T{} not preempted after line {}", s.thread, l.line),
                    None => format!("T{} not preempted", s.thread),
                },
                schedule: s.passing.clone(),
            }));
            notes.push(format!(
                "interleaving: {} necessary context switches ({ms} ms)",
                sw.len()
            ));
            candidates = explainer.switch_candidates(&sw, candidates);
        }
        Ok((Err(e), _)) => {
            cut_by(&replays, &e);
            notes.push(format!("interleaving: not analysed ({e})"))
        }
        _ => notes.push("interleaving: not analysed (its thread failed)".into()),
    }
    let waits = unlooped_waits(&prep.normalized, &prep.shared, &d.replay.steps);
    candidates = explainer.wait_candidates(&waits, candidates);
    let early_tests = crate::diag::ordering::wait_tests_before_creation(
        prep,
        &d.resolved,
        &d.replay.steps,
        &accesses,
    );
    candidates = explainer.early_wait_test_candidates(&early_tests, candidates);
    candidates = explainer.foreign_unlock_candidates(
        &crate::diag::interleaving::foreign_unlocks(&d.replay.steps),
        candidates,
    );
    candidates = explainer.free_unlock_candidates(candidates);
    candidates = explainer.early_unlock_candidates(candidates);
    candidates = explainer.shared_static_candidates(candidates);
    candidates = explainer.once_bypass_candidates(candidates);
    candidates = explainer.split_section_candidates(candidates);
    candidates = explainer.reread_candidates(candidates);
    candidates = explainer.escaped_pointer_candidates(candidates);
    match ordering {
        Ok((Ok(Analysed::Ordering(v, joins)), ms)) => {
            notes.push(format!(
                "ordering: {} statements ran too early, {} missing joins ({} replays, {ms} ms)",
                v.violations.len(),
                joins.len(),
                v.replays
            ));
            // A thread that never ran, run first, may only overwrite a wrong start value:
            // no closest passing run to explain the failure by.
            neighbours.extend(
                v.violations
                    .iter()
                    .filter(|o| !o.sibling_never_ran)
                    .map(|o| Neighbour {
                        change: format!(
                            "T{} (from line {}) run before T{}'s line {}",
                            o.late_thread, o.late_step.line, o.early.thread, o.early.line
                        ),
                        schedule: o.passing.clone(),
                    }),
            );
            neighbours.extend(joins.iter().map(|j| Neighbour {
                change: format!(
                    "T{} ({}) run before T{}'s line {}",
                    j.thread, j.function, j.reader.thread, j.reader.line
                ),
                schedule: j.passing.clone(),
            }));
            candidates = explainer.join_candidates(&joins, candidates);
            candidates = explainer.ordering_candidates(&v.violations, candidates);
        }
        Ok((Err(e), _)) => {
            cut_by(&replays, &e);
            notes.push(format!("ordering: not analysed ({e})"))
        }
        _ => notes.push("ordering: not analysed (its thread failed)".into()),
    }
    if d.target == Target::Deadlock {
        let st = deadlock_state(prep, &d.resolved, &d.replay, &d.waiting);
        candidates = explainer.deadlock_candidates(&st, candidates);
        candidates = explainer.wrong_wake_candidates(&st, candidates);
        candidates = explainer.stale_wait_candidates(&st, candidates);
    }
    let t = Instant::now();
    // Per statement, not per line: a line's call binding or condition step is no access
    // to what the line's assignment touches.
    let mut why = match crate::rootcause::closest(
        &replays,
        &d.replay,
        &neighbours,
        &step_accesses,
        d.target == Target::Deadlock,
    ) {
        Ok(w) => w,
        Err(e) => {
            cut_by(&replays, &e);
            notes.push(format!("why: not analysed ({e})"));
            None
        }
    };
    if why.is_none() && !neighbours.is_empty() {
        notes.push(format!(
            "why: none of the {} passing neighbours of the failing schedule makes a whole passing run ({} ms)",
            neighbours.len().min(crate::rootcause::MAX_REPLAYED),
            t.elapsed().as_millis()
        ));
    }
    if let Some(w) = &mut why {
        w.unwind = w.unwind.max(d.seq_opts.unwind);
        // The schedule read back from the passing run is what the user gets to replay:
        // it must replay and pass by itself (a condition wait's two points, for one, can
        // make it name another run than the variant that passed).
        // It must also run every thread to its end: a prefix of a run passes only until
        // the check is reached.
        let sched = &w.passing.schedule;
        let whole = sched.threads.iter().all(|t| {
            sched
                .blocks
                .iter()
                .rev()
                .find(|b| b.thread == t.id)
                .is_none_or(|b| matches!(&b.until, Until::Keyword(k) if k == "end"))
        });
        w.schedule_replays = whole
            && sched
                .resolve(&prep.normalized, &prep.index)
                .ok()
                .and_then(|r| {
                    let at = crate::engine::replay::Replayer {
                        bounds: crate::engine::replay::ReplayBounds {
                            unwind: w.unwind,
                            ..replays.replayer.bounds
                        },
                        ..replays.replayer.clone()
                    };
                    at.passing_run(&r).ok().flatten()
                })
                .is_some();
        notes.push(format!(
            "why: closest passing schedule of {} tried ({}), {} of {} data flows differ, its schedule {} ({} ms)",
            w.tried,
            w.change,
            w.projection.len(),
            w.failing_flows,
            if w.schedule_replays {
                "replays"
            } else {
                "does not replay by itself (not given)"
            },
            t.elapsed().as_millis()
        ));
    }
    // The gate closes only when the search's time is up; more time (`--root-cause-time`)
    // also lifts the work budget.
    let missing = |reason: String, out_of_work: bool| crate::rootcause::causes::MissingCauses {
        reason,
        out_of_time: causes_gate.is_closed() || out_of_work,
    };
    let mut causes_missing = None;
    let causes = match causes {
        Some(Ok(c)) => {
            if c.causes.is_empty() && !c.order_independent {
                causes_missing = c.stopped.clone().map(|s| missing(s, c.out_of_work));
            }
            notes.push(format!(
                "root causes: {} found among {} orderings ({} solver questions, {} rounds, {} ms){}",
                c.causes.len(),
                c.orderings,
                c.queries,
                c.rounds,
                c.time_ms,
                c.stopped
                    .as_ref()
                    .map(|s| format!("; {s}"))
                    .unwrap_or_default()
            ));
            Some(c)
        }
        Some(Err(e)) => {
            notes.push(format!("root causes: not computed ({e})"));
            let out_of_work = matches!(e, super::causes::CausesError::OutOfWork);
            causes_missing = Some(missing(e.to_string(), out_of_work));
            None
        }
        None => None,
    };
    candidates = crate::rootcause::rank::by_cause(&explainer, candidates, why.as_ref(), &d.replay);
    // The analyses matched accesses by every name, a normalization temporary's too; the
    // report lists the program's own (`j->data`, not the `__t[]` it was copied into).
    for c in &mut candidates {
        let own = |x: &String| !crate::ir::internal::mentions_internal_name(x);
        c.reads.retain(own);
        c.writes.retain(own);
    }
    // The external checker's model is not seqloc's: what it stored on the changed line is
    // the repair hint it gives.
    if let Some(name) = checker_name {
        for c in &mut candidates {
            if let Some(fd) = loc
                .findings
                .iter()
                .find(|fd| fd.set == [c.diag] && !fd.stored.is_empty())
            {
                c.hint = format!("{} ({name}: {})", c.hint, fd.stored.join(", "));
            }
        }
    }
    notes.push(format!(
        "localization: {} answers in {} checker runs (encode {} ms, solve {} ms)",
        loc.findings.len(),
        loc.checker_runs,
        loc.stats.encode_ms,
        loc.stats.solve_ms
    ));
    // An analysis the limit cut short may have had candidates to add: the list is then
    // what was found so far, as when the limit stops the loop itself.
    if loc.limit.is_none() && replays.cut.load(std::sync::atomic::Ordering::SeqCst) {
        let l = crate::checker::builtin::stop::requested().unwrap_or(Limit::Time);
        loc.limit = Some(l);
        loc.complete = false;
        loc.stopped = Some(format!(
            "{} before the analyses of the interleaving finished; the candidates so far are listed",
            crate::checker::builtin::stop::describe(l)
        ));
    }
    // The analyses of the interleaving add candidates beside the localization loop's,
    // which alone `--max-candidates` stops: the list is cut to the best ranked.
    let mut stopped = loc.stopped.clone();
    if let Some(m) = cfg.max_candidates.filter(|m| candidates.len() > *m) {
        candidates.truncate(m);
        stopped = Some(format!("stopped after {m} candidates (--max-candidates)"));
    }
    Ok(Localized {
        cex,
        candidates,
        loc,
        stopped,
        notes,
        why,
        causes,
        causes_missing,
    })
}

/// Threads the replay added to the checker's schedule (they blocked at their first
/// statement), so that the report's schedule replays the same deadlock.
fn add_replayed_threads(cex: &mut Counterexample, d: &Diagnosis, prep: &Prepared) {
    for (id, f) in &d.resolved.threads {
        if !cex.schedule.threads.iter().any(|t| t.id == *id) {
            cex.schedule
                .threads
                .push(ThreadSpec::new(*id, prep.normalized.func(*f).name.clone()));
            cex.schedule.blocks.push(Block {
                thread: *id,
                until: Until::Keyword("end".into()),
                ran: vec![],
            });
        }
    }
    cex.schedule.threads.sort_by_key(|t| t.id);
}

/// What an analysis thread returned; `Err` when it could not start or panicked.
fn joined<T>(h: Option<std::thread::ScopedJoinHandle<'_, T>>) -> Result<T, ()> {
    match h {
        Some(h) => h.join().map_err(|_| ()),
        None => Err(()),
    }
}
