//! `seqloc check` with the built-in checker: the bounded search for a failing
//! interleaving, deepening the number of rounds and the loop bounds until it finds a
//! failure, proves there is none within the bounds, or runs out of time.
//!
//! Verdicts are never stronger than the search: "no failure within bounds" names the
//! bounds, and says whether every loop was explored to its end and every thread had a
//! slot; a time or memory limit gives "unknown" with the bounds reached.

use std::sync::atomic::{AtomicBool, AtomicU32, Ordering};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

use super::deepen::{Ladder, Plan, Steer};
use crate::cex::Counterexample;
use crate::checker::builtin::probe::{BoundedProbe, ProbeError};
pub use crate::checker::builtin::stop::seconds;
use crate::checker::builtin::{
    Answer, BmcError, Interruptible, Limit, Properties, SolveGate, Stats,
};
use crate::checker::explicit::{self, ExploreOptions, ExploreStats, Explored};
pub use crate::checker::outcome::{Bounds, CheckOutcome, Exploration, Phase, Verdict};
use crate::ir::Program;
use crate::passes::Prepared;
use crate::seq::{self, Mode, SeqError};

#[derive(Clone, Debug)]
pub struct CheckOptions {
    /// Fixed number of rounds; `None` deepens up to `max_rounds`.
    pub rounds: Option<u32>,
    pub max_rounds: u32,
    /// Fixed loop bound; `None` deepens up to `max_unwind` while a bound is reached.
    pub unwind: Option<u32>,
    pub max_unwind: u32,
    /// Loops cut at the bound are assumed not to go on ([`super::deepen::Plan`]).
    pub assume_loop_bounds: bool,
    pub max_threads: u32,
    pub properties: Properties,
    pub timeout: Option<Duration>,
    pub recursion: u32,
    /// `--context-switches K`: the bounded search admits runs with at most K switches
    /// (its rounds are K + 1, which alone would admit more).
    pub max_switches: Option<u32>,
    /// Run the explicit-state explorer beside the bounded search
    /// ([`crate::checker::explicit`]): it can prove a program correct with no bound, and
    /// keeps a failure beyond the bounds from being reported as "no failure".
    pub explore: bool,
    /// Take the explorer's failure only once the bounded search's cheap phases (up to
    /// `CHEAP_ROUNDS` rounds) found none: theirs has the fewest rounds, so the fewest
    /// context switches to explain, which localization wants. Without it the first
    /// failure found is the answer.
    pub fewest_rounds: bool,
    /// With `fewest_rounds`: once the explorer holds a failure, how long from the start
    /// of the check the cheap phases may still run before the explorer's failure stands
    /// (`localize` gives [`CHEAP_BUDGET`] and simplifies the explorer's schedule after);
    /// `None`: to their end.
    pub explorer_after: Option<Duration>,
    /// Table II's rules and the framework (`--rules`, `--templates`): the search
    /// sequentializes with them as the replay does.
    pub framework: crate::seq::Framework,
    /// Set from outside to end the search as a time limit would (a checker searching beside
    /// it answered first); its outcome is then not wanted.
    pub stop: Option<Arc<AtomicBool>>,
}

/// Bounds the user gave (rounds, `--context-switches` as rounds, `--max-rounds`;
/// `--threads`). A failure that needs more is outside what they asked to search: it is
/// reported as lying beyond the bounds, never taken as the counterexample (localizing
/// along it would explain an interleaving they excluded), and the bounded search does not
/// go past them to look for one.
#[derive(Clone, Copy, Debug, Default)]
pub struct UserBounds {
    pub rounds: Option<u32>,
    pub threads: Option<u32>,
    /// The time limit is the user's, not the default one: the explorer may use all of it.
    pub timeout_given: bool,
    /// A limit on resident memory in MB: a watchdog stops the search when it is passed.
    pub memory_mb: Option<u64>,
}

impl UserBounds {
    /// Does `cex` fit them?
    fn fits(&self, cex: &Counterexample) -> bool {
        let rounds = cex.context_switches() as u64 + 1;
        let threads = cex.schedule.threads.len() as u64;
        self.rounds.is_none_or(|r| rounds <= u64::from(r))
            && self.threads.is_none_or(|t| threads <= u64::from(t))
    }
}

impl Default for CheckOptions {
    fn default() -> Self {
        CheckOptions {
            rounds: None,
            max_rounds: 16,
            unwind: None,
            max_unwind: 64,
            assume_loop_bounds: false,
            max_threads: 64,
            properties: Properties {
                assertions: true,
                deadlock: true,
                unlocks: true,
            },
            timeout: None,
            recursion: 3,
            max_switches: None,
            explore: true,
            fewest_rounds: false,
            explorer_after: None,
            framework: crate::seq::Framework::builtin(),
            stop: None,
        }
    }
}

#[derive(Debug, thiserror::Error)]
pub enum CheckError {
    #[error(transparent)]
    Seq(#[from] SeqError),
    #[error(transparent)]
    Bmc(#[from] BmcError),
}

impl From<ProbeError> for CheckError {
    fn from(e: ProbeError) -> Self {
        match e {
            ProbeError::Seq(e) => CheckError::Seq(e),
            ProbeError::Bmc(e) => CheckError::Bmc(e),
        }
    }
}

const ROUNDS: &[u32] = &[2, 3, 4, 6, 8, 12, 16, 24, 32, 48, 64];

/// Phases with at most this many rounds are run even when the explorer's failure is
/// already replayed: they are quick and may find a counterexample with fewer rounds.
const CHEAP_ROUNDS: u32 = 4;

/// How the explorer and the bounded search talk to each other while both run.
#[derive(Default)]
struct Control {
    /// The explorer proved the program: the bounded search can stop.
    proved: AtomicBool,
    /// The explorer found a failure: the bounded search goes on past `max_rounds`.
    failing: AtomicBool,
    /// The explorer's failure was replayed into a counterexample.
    replayed: AtomicBool,
    /// The bounded search is done and the explorer's answer is no longer wanted.
    cancel: AtomicBool,
    /// The rounds of the bounded search's phase in progress.
    running_rounds: AtomicU32,
    /// The bounded search finished its cheap phases (up to `CHEAP_ROUNDS`) with no failure.
    cheap_done: AtomicBool,
    /// The bounded search is over; `bmc_failed` if it found a failure or deadlock.
    bmc_done: AtomicBool,
    bmc_failed: AtomicBool,
    /// Stops the bounded search's solver once the explorer proved the program, or once its
    /// replayed failure makes a deep phase pointless.
    gate: Arc<SolveGate>,
    /// Stops the replay of the explorer's failure once the bounded search found its own.
    replay_gate: Arc<SolveGate>,
    /// The explorer thread's Z3 context, which the replay solves in.
    replay_ctx: Mutex<Option<Interruptible>>,
}

impl Control {
    fn stop_replay(&self) {
        self.replay_gate.close(|| {
            let ctx = *self.replay_ctx.lock().unwrap_or_else(|e| e.into_inner());
            if let Some(c) = ctx {
                c.interrupt()
            }
        });
    }
}

/// The explorer's time without a time limit of the user's.
const EXPLORE_BUDGET: Duration = Duration::from_secs(120);

/// How long a replay of the explorer's failure may take while the bounded search's cheap
/// phases run beside it, when the fewest rounds are not required: long enough for a path
/// of a hundred steps, short enough that a long replay waits its turn.
const EARLY_REPLAY: Duration = Duration::from_secs(2);

/// How long a cheap phase of the bounded search may go on once the explorer's failure is
/// replayed, when the fewest rounds are not required.
const CHEAP_GRACE: Duration = Duration::from_secs(2);

/// How long, from the start of the check, `localize` lets the bounded search's cheap
/// phases run once the explorer holds a failure (`CheckOptions::explorer_after`): a cheap
/// phase on a program with long loops can take minutes (a four-round phase over a
/// `memset` loop, 67 s), and the time is the localization's. Measured: on the project's
/// benchmarks every cheap phase that finds a failure answers within a few seconds.
pub const CHEAP_BUDGET: Duration = Duration::from_secs(15);

/// The bounded search for a failing interleaving, with the explicit-state explorer beside
/// it (on its own thread) unless `opts.explore` is off.
pub fn check(prep: &Prepared, opts: &CheckOptions) -> Result<CheckOutcome, CheckError> {
    check_within(prep, opts, UserBounds::default())
}

/// [`check`], holding the explorer's failures to the bounds the user gave.
pub fn check_within(
    prep: &Prepared,
    opts: &CheckOptions,
    user: UserBounds,
) -> Result<CheckOutcome, CheckError> {
    // A check after another one on this thread (`repair` verifies many): the earlier one's
    // interrupt may have left the context unable to answer.
    if !crate::checker::builtin::context_usable() {
        return crate::checker::builtin::on_usable_context(|| check_within(prep, opts, user))
            .map_err(|e| {
                BmcError::Solver(format!(
                    "this thread's Z3 context was interrupted and no thread could be started for a fresh one: {e}"
                ))
            })?;
    }
    let mut out = search(prep, opts, user)?;
    if let Some(cex) = &mut out.counterexample {
        name_assertion(cex, prep);
    }
    Ok(out)
}

/// `assert(e)` of `<assert.h>` fails by calling `__assert_fail`, which normalization makes
/// an error location like `reach_error()`; the user wrote an assertion and reads that
/// word: the violation is named after the call the lowered program has at its place, with
/// the assertion's source line as its message.
pub fn name_assertion(cex: &mut Counterexample, prep: &Prepared) {
    use crate::ir::known::{Known, classify};
    use crate::ir::visit::{Visitor, walk_expr};
    use crate::ir::{Expr, ExprKind, Loc};
    struct Find<'p> {
        prog: &'p Program,
        at: Loc,
        found: bool,
    }
    impl Visitor for Find<'_> {
        fn visit_expr(&mut self, e: &Expr) {
            if e.loc == self.at {
                if let ExprKind::Call(c, _) = &e.kind {
                    if let ExprKind::Func(f) = &c.peel().kind {
                        self.found |= classify(&self.prog.func(*f).name) == Known::AssertFail;
                    }
                }
            }
            walk_expr(self, e)
        }
    }
    let v = &mut cex.violation;
    if v.kind != crate::cex::ViolationKind::Error || v.loc.is_synth() {
        return;
    }
    let mut find = Find {
        prog: &prep.lowered,
        at: v.loc,
        found: false,
    };
    for f in &prep.lowered.funcs {
        if let Some(body) = &f.body {
            find.visit_stmt(body);
        }
    }
    if find.found {
        v.kind = crate::cex::ViolationKind::Assertion;
        if let Some(line) = prep.lowered.sources.source_line(v.loc) {
            v.message = line.trim().to_string();
        }
    }
}

fn search(
    prep: &Prepared,
    opts: &CheckOptions,
    user: UserBounds,
) -> Result<CheckOutcome, CheckError> {
    if !opts.explore {
        let ctl = Control::default();
        let ctx = z3::Context::thread_local();
        let handle = ctx.handle();
        let over = AtomicBool::new(false);
        let watching = AtomicBool::new(true);
        return std::thread::scope(|s| {
            if user.memory_mb.is_some() || opts.stop.is_some() {
                let (watching, over, ctl, handle) = (&watching, &over, &ctl, &handle);
                let (mb, stop) = (user.memory_mb, opts.stop.as_deref());
                s.spawn(move || watch(mb, stop, watching, over, ctl, || handle.interrupt()));
            }
            let on_panic = OnPanic(|| watching.store(false, Ordering::SeqCst));
            let out = deepen(prep, opts, &ctl, user);
            drop(on_panic);
            watching.store(false, Ordering::SeqCst);
            let mut out = out?;
            stopped_out(&mut out, user, over.load(Ordering::SeqCst));
            Ok(out)
        });
    }
    let start = Instant::now();
    let cheap_over = || opts.explorer_after.is_some_and(|b| start.elapsed() >= b);
    let deadline = opts.timeout.map(|t| start + t);
    let ctl = Control::default();
    let eopts = ExploreOptions {
        // Without a time limit of the user's the explorer stops after 2 minutes: a program
        // with too many states is the bounded search's to answer, and the explorer's core
        // is better given back to it.
        deadline: Some(match deadline {
            Some(d) if user.timeout_given => d,
            Some(d) => d.min(start + EXPLORE_BUDGET),
            None => start + EXPLORE_BUDGET,
        }),
        assertions: opts.properties.assertions,
        deadlock: opts.properties.deadlock,
        unlocks: opts.properties.unlocks,
        ..ExploreOptions::default()
    };
    if let Some(why) = explicit::unfailing(&prep.normalized, &eopts) {
        // Nothing reachable can fail: no search is needed, bounded or not.
        // `combine` below gives the verdict and its reason.
        let mut out = CheckOutcome {
            verdict: Verdict::NoFailureWithinBounds,
            reason: None,
            bounds: Bounds::default(),
            loops_complete: true,
            unwinding_reached: vec![],
            counterexample: None,
            phases: vec![],
            stats: Stats::default(),
            limit_reached: false,
            exploration: None,
            every_interleaving: false,
            explored_counterexample: false,
        };
        let stats = ExploreStats {
            states: 0,
            transitions: 0,
            ms: start.elapsed().as_millis() as u64,
            outcomes: 0,
            watched: false,
        };
        combine(
            &mut out,
            Explored::Unfailing { why, stats },
            &prep.normalized,
        );
        return Ok(out);
    }
    // The counting argument was just tried; the explorer need not try it again.
    let eopts = ExploreOptions {
        counting: false,
        ..eopts
    };
    let ctx = z3::Context::thread_local();
    let handle = ctx.handle();
    let over = AtomicBool::new(false);
    let watching = AtomicBool::new(true);
    std::thread::scope(|s| {
        if user.memory_mb.is_some() || opts.stop.is_some() {
            let (watching, over, ctl, handle) = (&watching, &over, &ctl, &handle);
            let (mb, stop) = (user.memory_mb, opts.stop.as_deref());
            s.spawn(move || watch(mb, stop, watching, over, ctl, || handle.interrupt()));
        }
        // The explorer recurses over expressions as the front end does (see STACK_BYTES);
        // without a thread for it, the bounded search answers alone.
        let explorer = std::thread::Builder::new()
            .stack_size(crate::STACK_BYTES)
            .spawn_scoped(s, || {
                *ctl.replay_ctx.lock().unwrap_or_else(|e| e.into_inner()) =
                    Some(Interruptible::this_thread());
                let r =
                    explicit::explore(&prep.normalized, &prep.shared, &eopts, Some(&ctl.cancel));
                // A failure is replayed here, on the explorer's own thread (and Z3 context),
                // while the bounded search goes on.
                let replayed = match &r {
                    Explored::Violation { path, .. } if !path.is_empty() => {
                        ctl.failing.store(true, Ordering::SeqCst);
                        // Without the need for the fewest rounds, a replay that is quick is
                        // tried at once. Otherwise (or when it was not quick) the replay is
                        // only wanted once the bounded search's cheap phases found nothing:
                        // their counterexample, with fewer rounds, is preferred, and two
                        // solvers at once slow each other down.
                        let mut early = None;
                        if !opts.fewest_rounds && !ctl.bmc_failed.load(Ordering::SeqCst) {
                            let quick = Instant::now() + EARLY_REPLAY;
                            let d = deadline.map_or(quick, |d| d.min(quick));
                            early = replay_explored(prep, opts, path, Some(d), &ctl.replay_gate);
                        }
                        let wanted = early.is_none()
                            && loop {
                                if ctl.bmc_failed.load(Ordering::SeqCst)
                                    || crate::checker::builtin::stop::requested().is_some()
                                {
                                    break false;
                                }
                                if ctl.cheap_done.load(Ordering::SeqCst)
                                    || ctl.bmc_done.load(Ordering::SeqCst)
                                    || cheap_over()
                                {
                                    break true;
                                }
                                std::thread::sleep(Duration::from_millis(5));
                            };
                        if wanted {
                            replay_explored(prep, opts, path, deadline, &ctl.replay_gate)
                        } else {
                            early
                        }
                    }
                    Explored::Violation { .. } => {
                        ctl.failing.store(true, Ordering::SeqCst);
                        None
                    }
                    _ => None,
                };
                // A failure beyond the user's bounds must not stop the bounded search: one
                // within them may still be found there.
                let (replayed, beyond) = match replayed {
                    Some((c, _)) if !user.fits(&c) => (None, Some(c)),
                    r => (r, None),
                };
                if matches!(r, Explored::Safe(_) | Explored::Unfailing { .. }) {
                    ctl.proved.store(true, Ordering::SeqCst);
                    ctl.gate.close(|| handle.interrupt());
                }
                // The bounded search's own counterexample, if it finds one within its bounds,
                // has the fewest rounds and is preferred.
                if replayed.is_some() {
                    ctl.replayed.store(true, Ordering::SeqCst);
                    // A phase beyond the cheap ones would only look for a failure with fewer
                    // rounds; it can take until the time limit (`deepen` stops before
                    // starting one, this stops one in progress). Without the need for the
                    // fewest rounds, a cheap phase in progress gets a short grace: its
                    // counterexample, when it has one, is the better one to explain.
                    if !opts.fewest_rounds {
                        let until = Instant::now() + CHEAP_GRACE;
                        while !ctl.bmc_done.load(Ordering::SeqCst)
                            && ctl.running_rounds.load(Ordering::SeqCst) <= CHEAP_ROUNDS
                            && Instant::now() < until
                        {
                            std::thread::sleep(Duration::from_millis(5));
                        }
                    }
                    // With the fewest rounds wanted, the cheap phases run to their end
                    // within their budget; past it the explorer's failure stands (its
                    // schedule is simplified before it is localized, `engine::simplify`).
                    if opts.fewest_rounds && opts.explorer_after.is_some() {
                        while !ctl.bmc_done.load(Ordering::SeqCst)
                            && !ctl.cheap_done.load(Ordering::SeqCst)
                            && ctl.running_rounds.load(Ordering::SeqCst) <= CHEAP_ROUNDS
                            && !cheap_over()
                        {
                            std::thread::sleep(Duration::from_millis(5));
                        }
                    }
                    if !opts.fewest_rounds
                        || ctl.running_rounds.load(Ordering::SeqCst) > CHEAP_ROUNDS
                        || cheap_over()
                    {
                        ctl.gate.close(|| handle.interrupt());
                    }
                }
                (r, replayed, beyond)
            });
        // A panic in the bounded search must not leave the explorer waiting for it for
        // ever (the scope joins the explorer before the panic goes on).
        let on_panic = OnPanic(|| {
            ctl.bmc_done.store(true, Ordering::SeqCst);
            ctl.cancel.store(true, Ordering::SeqCst);
            ctl.stop_replay();
            watching.store(false, Ordering::SeqCst);
        });
        let bmc = deepen(prep, opts, &ctl, user);
        drop(on_panic);
        if let Ok(o) = &bmc {
            if matches!(o.verdict, Verdict::Failure | Verdict::Deadlock) {
                ctl.bmc_failed.store(true, Ordering::SeqCst);
                // Its counterexample is the answer: a replay in progress is not needed.
                ctl.stop_replay();
            }
        }
        ctl.bmc_done.store(true, Ordering::SeqCst);
        // A bounded "no failure" can still become a proof, or be shown short of a failure
        // beyond its bounds: the explorer gets as long again as the bounded search took
        // (at least 2 s), within the time limit.
        // After Ctrl-C the user wants the answer so far, not another wait.
        let wait = match &bmc {
            Ok(o) => {
                !matches!(o.verdict, Verdict::Failure | Verdict::Deadlock)
                    && o.stats.limit != Some(Limit::Interrupted)
            }
            Err(_) => false,
        };
        let mut until = Instant::now() + start.elapsed().max(Duration::from_secs(2));
        if let Some(d) = deadline {
            until = until.min(d);
        }
        let explorer = explorer.ok();
        while wait && explorer.as_ref().is_some_and(|e| !e.is_finished()) && Instant::now() < until
        {
            std::thread::sleep(Duration::from_millis(5));
        }
        ctl.cancel.store(true, Ordering::SeqCst);
        let explored = explorer.map(|e| e.join());
        watching.store(false, Ordering::SeqCst);
        let mut out = bmc?;
        if let Some(Ok((ex, replayed, beyond))) = explored {
            let found = matches!(out.verdict, Verdict::Failure | Verdict::Deadlock);
            combine(&mut out, ex, &prep.normalized);
            if let Some(cex) = beyond.filter(|_| !found && replayed.is_none()) {
                let why = format!(
                    "the explicit-state search found a {} with {} and {}, beyond the bounds given ({}); raise or drop them for a counterexample",
                    if cex.violation.kind == crate::cex::ViolationKind::Deadlock {
                        "deadlock"
                    } else {
                        "failure"
                    },
                    crate::words::count(cex.context_switches(), "context switch"),
                    crate::words::count(cex.schedule.threads.len(), "thread"),
                    bounds_given(user)
                );
                out.verdict = Verdict::Unknown;
                out.reason = Some(format!(
                    "the bounded search found no failure with up to {} and loops unwound {}; {why}",
                    crate::words::count(out.bounds.rounds, "round"),
                    crate::words::count(out.bounds.unwind, "time")
                ));
                out.limit_reached = false;
                out.stats.limit = None;
            }
            if let Some((cex, unwind)) = replayed.filter(|_| !found) {
                // The replay unwound the explorer's loops as far as they ran: a later
                // replay of this counterexample (localization) needs as much, and the
                // schedule's stops alone may not show it (a loop that runs on after its
                // thread's last stop).
                out.bounds.unwind = out.bounds.unwind.max(unwind);
                out.verdict = if cex.violation.kind == crate::cex::ViolationKind::Deadlock {
                    Verdict::Deadlock
                } else {
                    Verdict::Failure
                };
                out.reason = Some(
                    if opts.fewest_rounds {
                        "found by the explicit-state search, beyond the bounded search's reach; replayed through the sequentializer"
                    } else {
                        "found by the explicit-state search first; replayed through the sequentializer"
                    }
                    .into(),
                );
                out.counterexample = Some(cex);
                out.explored_counterexample = true;
                out.limit_reached = false;
                out.stats.limit = None;
            }
        }
        stopped_out(&mut out, user, over.load(Ordering::SeqCst));
        Ok(out)
    })
}

/// Runs its closure when dropped while the thread panics: what a scope's other threads
/// wait for is released, so that the scope can join them and the panic go on.
pub(crate) struct OnPanic<F: FnMut()>(pub(crate) F);

impl<F: FnMut()> Drop for OnPanic<F> {
    fn drop(&mut self) {
        if std::thread::panicking() {
            (self.0)()
        }
    }
}

/// Polls the process's resident memory and `stop` while `watching`; past `mb`, or once
/// `stop` is set, it stops the search as a time limit would (the explorer cancelled, the
/// solvers interrupted), saying in `over` when memory was the reason. A watchdog rather
/// than `RLIMIT_AS`: an allocation refused by the kernel aborts the process (Rust) or
/// throws inside Z3, and the user would get no answer at all.
fn watch(
    mb: Option<u64>,
    stop: Option<&AtomicBool>,
    watching: &AtomicBool,
    over: &AtomicBool,
    ctl: &Control,
    interrupt: impl FnOnce(),
) {
    while watching.load(Ordering::SeqCst) {
        let full = mb
            .is_some_and(|mb| crate::checker::builtin::stop::resident_mb().is_some_and(|r| r > mb));
        if full || stop.is_some_and(|s| s.load(Ordering::SeqCst)) {
            over.store(full, Ordering::SeqCst);
            ctl.cancel.store(true, Ordering::SeqCst);
            ctl.stop_replay();
            ctl.gate.close(interrupt);
            return;
        }
        std::thread::sleep(Duration::from_millis(20));
    }
}

/// The outcome of a search that a watchdog stopped: this search's memory watchdog
/// (`over`) or the process's ([`crate::checker::builtin::stop`]: memory, a signal).
fn stopped_out(out: &mut CheckOutcome, user: UserBounds, over: bool) {
    use crate::checker::builtin::stop;
    match stop::requested() {
        _ if over => memory_out(out, user),
        Some(Limit::Memory) => memory_out(out, user),
        Some(Limit::Interrupted) => {
            if matches!(out.verdict, Verdict::Failure | Verdict::Deadlock) || out.exhaustive() {
                return;
            }
            out.verdict = Verdict::Unknown;
            out.reason = Some(if out.bounds.rounds == 0 {
                format!(
                    "{} before the first bounded phase finished",
                    stop::describe(Limit::Interrupted)
                )
            } else {
                format!(
                    "{} while checking {} with loops unwound {}",
                    stop::describe(Limit::Interrupted),
                    crate::words::count(out.bounds.rounds, "round"),
                    crate::words::count(out.bounds.unwind, "time")
                )
            });
            out.stats.limit = Some(Limit::Interrupted);
            out.limit_reached = true;
        }
        _ => {}
    }
}

/// The outcome of a search the memory watchdog stopped: a failure found or a proof
/// stands, anything else is UNKNOWN at the memory limit.
fn memory_out(out: &mut CheckOutcome, user: UserBounds) {
    if matches!(out.verdict, Verdict::Failure | Verdict::Deadlock) || out.exhaustive() {
        return;
    }
    out.verdict = Verdict::Unknown;
    let mb = user
        .memory_mb
        .or(crate::checker::builtin::stop::memory_limit_mb())
        .unwrap_or_default();
    out.reason = Some(if out.bounds.rounds == 0 {
        format!("memory limit of {mb} MB reached before the first bounded phase finished")
    } else {
        format!(
            "memory limit of {mb} MB reached while checking {} with loops unwound {}",
            crate::words::count(out.bounds.rounds, "round"),
            crate::words::count(out.bounds.unwind, "time")
        )
    });
    out.stats.limit = Some(Limit::Memory);
    out.limit_reached = true;
}

/// The most statements the explorer's replay may unroll its program to (see
/// [`crate::passes::unroll::unrolled_size`]).
const MAX_REPLAY_STATEMENTS: u128 = 400_000;

/// A failing execution the explorer found, as a counterexample: its schedule replayed by
/// the concrete-schedule sequentializer and the built-in checker (inputs the explorer
/// enumerated, and which waiter a signal woke, are left to the solver). `None` when the
/// replay does not fail within the time left. With the counterexample, the loop
/// unwinding it was replayed with.
fn replay_explored(
    prep: &Prepared,
    opts: &CheckOptions,
    path: &[explicit::Transition],
    deadline: Option<Instant>,
    gate: &Arc<SolveGate>,
) -> Option<(crate::cex::Counterexample, u32)> {
    let (resolved, most) = explicit::schedule_of(&prep.normalized, &prep.shared, path)?;
    let unwind = most + 1;
    // Every loop unwound as far as the path's longest ran: nested loops multiply, and a
    // long path through a loop nest would make a program that does not fit in memory
    // (a thread pool's worker loop around a wait loop, 22 GB). Such a failure is left to
    // the bounded search, which finds it with its own small bounds.
    if crate::passes::unroll::unrolled_size(&prep.normalized, unwind) > MAX_REPLAY_STATEMENTS {
        return None;
    }
    let seq_opts = seq::SeqOptions {
        unlocks: opts.properties.unlocks,
        // With its calls inlined a thread may unroll to far more than the program: loops
        // in callees called from loops multiply (a timer wheel's 10 GB before any
        // answer, its time limit passed).
        max_statements: Some(MAX_REPLAY_STATEMENTS),
        ..opts.framework.search_options(
            unwind,
            1,
            opts.max_threads.max(resolved.threads.len() as u32),
            opts.recursion,
            opts.properties.deadlock,
        )
    };
    let sq = seq::sequentialize(
        &prep.normalized,
        &prep.shared,
        Mode::Concrete(&resolved),
        &seq_opts,
    )
    .ok()?;
    // The explorer's loops ran up to `most` times: that many more unwindings.
    let mut replay = super::replay::Replay::encode_bounded(sq, most, deadline, false).ok()?;
    replay.session.set_gate(gate.clone());
    match replay.fails_with(&opts.properties.kinds(), false) {
        Answer::Violated(model) => Some(replay.counterexample(&model, prep))
            .filter(crate::checker::builtin::names_a_violation)
            .map(|c| (c, unwind)),
        _ => None,
    }
}

/// The bounded search's outcome, strengthened or corrected by the explorer's.
fn combine(out: &mut CheckOutcome, ex: Explored, prog: &Program) {
    let (result, reason, stats) = match &ex {
        Explored::Safe(st) => ("safe", None, st.clone()),
        Explored::Unfailing { why, stats } => ("safe", Some(why.clone()), stats.clone()),
        Explored::Violation {
            deadlock, stats, ..
        } => (
            if *deadlock { "deadlock" } else { "failure" },
            None,
            stats.clone(),
        ),
        Explored::Inconclusive { reason, loc, stats } => {
            let at = loc
                .filter(|l| !l.is_synth())
                .map(|l| format!(" at {}", prog.sources.describe(l)))
                .unwrap_or_default();
            ("inconclusive", Some(format!("{reason}{at}")), stats.clone())
        }
    };
    out.exploration = Some(Exploration {
        result,
        reason,
        states: stats.states,
        transitions: stats.transitions,
        ms: stats.ms,
    });
    let found = matches!(out.verdict, Verdict::Failure | Verdict::Deadlock);
    match ex {
        Explored::Safe(st) if !found => {
            out.verdict = Verdict::NoFailureWithinBounds;
            out.reason = Some(format!(
                "no failure in any execution: every interleaving was explored ({} states), with no bound on rounds or loops",
                st.states
            ));
            out.loops_complete = true;
            out.unwinding_reached.clear();
            out.limit_reached = false;
            out.stats.limit = None;
        }
        Explored::Unfailing { why, .. } if !found => {
            out.verdict = Verdict::NoFailureWithinBounds;
            out.reason = Some(format!("no failure in any execution: {why}"));
            out.loops_complete = true;
            out.unwinding_reached.clear();
            out.limit_reached = false;
            out.stats.limit = None;
        }
        Explored::Violation { loc, deadlock, .. }
            if out.verdict == Verdict::NoFailureWithinBounds =>
        {
            out.verdict = Verdict::Unknown;
            // Not a limit: the failure lies beyond the bounds the search was given.
            out.limit_reached = false;
            if out.every_interleaving && out.loops_complete {
                // Both searches claim to be complete: one of them is wrong, and neither
                // verdict is given.
                out.every_interleaving = false;
                out.reason = Some(format!(
                    "the bounded search found no failure in any interleaving, but the explicit-state search reached a {} at {}: the two searches disagree, so there is no verdict (please report this program)",
                    if deadlock { "deadlock" } else { "failure" },
                    prog.sources.describe(loc)
                ));
                return;
            }
            out.reason = Some(format!(
                "no failure with up to {}, but the explicit-state search reached a {} at {}: a failing execution lies beyond the bounds (raise --max-rounds or --max-unwind for a counterexample)",
                crate::words::count(out.bounds.rounds, "round"),
                if deadlock { "deadlock" } else { "failure" },
                prog.sources.describe(loc)
            ));
        }
        _ => {}
    }
}

/// The built-in bounded search, deepened by [`super::deepen`] and steered by the explorer
/// beside it.
fn deepen(
    prep: &Prepared,
    opts: &CheckOptions,
    ctl: &Control,
    user: UserBounds,
) -> Result<CheckOutcome, CheckError> {
    let deadline = opts.timeout.map(|t| Instant::now() + t);
    let max_rounds = opts.max_rounds.max(1);
    let plan = Plan {
        schedule: Some(Ladder {
            fixed: opts.rounds.map(|r| r.min(max_rounds)),
            steps: ROUNDS.to_vec(),
            max: max_rounds,
        }),
        unwind: opts.unwind,
        first_unwind: 2,
        // The sequentializer unrolls a counted loop to its trip count whatever the bound.
        stops: vec![],
        max_unwind: opts.max_unwind,
        assume_loop_bounds: opts.assume_loop_bounds,
        diagonal: true,
        wide: true,
        deadline,
        timeout: opts.timeout,
    };
    let mut search = BoundedProbe {
        prep,
        framework: &opts.framework,
        properties: opts.properties,
        max_threads: opts.max_threads,
        recursion: opts.recursion,
        max_switches: opts.max_switches,
        deadline,
        gate: ctl.gate.clone(),
        canonical: opts.fewest_rounds,
    };
    let steer = Steering { ctl, user };
    Ok(super::deepen::deepen(&mut search, &plan, &steer)?)
}

/// What the explorer, on its thread, says to the bounded search through [`Control`].
struct Steering<'a> {
    ctl: &'a Control,
    user: UserBounds,
}

impl Steer for Steering<'_> {
    fn max_schedule(&self, usual: u32) -> u32 {
        // A failure the explorer found is worth looking for beyond `max_rounds`.
        // Once it is replayed, the bounded search only looks for a shorter one within its
        // usual bounds.
        // Bounds the user gave hold: `--threads` too, as more rounds cannot reach a
        // failure that needs more threads than it allows.
        if self.ctl.failing.load(Ordering::SeqCst)
            && !self.ctl.replayed.load(Ordering::SeqCst)
            && self.user.rounds.is_none()
            && self.user.threads.is_none()
        {
            usual.max(64)
        } else {
            usual
        }
    }

    fn halted(&self) -> bool {
        self.ctl.gate.is_closed()
    }

    fn settled(&self, last: &Bounds) -> bool {
        // Once the cheap phases (up to 4 rounds) found nothing, the explorer's replayed
        // counterexample stands: deeper phases could find one with fewer context switches,
        // but a deep bug can keep them busy until the time limit. (Without the need for
        // the fewest rounds, the explorer's thread also cuts the cheap phases short.)
        self.ctl.replayed.load(Ordering::SeqCst) && last.rounds >= CHEAP_ROUNDS
    }

    fn proved(&self) -> bool {
        self.ctl.proved.load(Ordering::SeqCst)
    }

    fn starting(&self, rounds: u32) {
        self.ctl.running_rounds.store(rounds, Ordering::SeqCst);
    }

    fn finished(&self, rounds: u32) {
        if rounds >= CHEAP_ROUNDS {
            self.ctl.cheap_done.store(true, Ordering::SeqCst);
        }
    }
}

/// `--rounds 2, --threads 2`: the bounds a user gave, as they gave them.
fn bounds_given(user: UserBounds) -> String {
    let mut parts = vec![];
    if let Some(r) = user.rounds {
        parts.push(match r {
            1 => "1 round, so no context switch".to_string(),
            _ => format!(
                "{r} rounds, so {}",
                crate::words::count(r - 1, "context switch")
            ),
        });
    }
    if let Some(t) = user.threads {
        parts.push(crate::words::count(t, "thread"));
    }
    parts.join(", ")
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The explorer's failure needs `w` preempted between its writes and `r` run before
    /// it resumes; `w` never runs again. Replayed into a counterexample, the schedule must
    /// still stop `w` there: "until end" for a thread's last block would run it on before
    /// `r` (`stress/sort_swap_nested` ended so in "does not reproduce" under load).
    #[test]
    fn an_explored_failure_keeps_the_stop_of_a_thread_that_never_resumes() {
        let src = "typedef unsigned long pthread_t;\
            extern int pthread_create(pthread_t *, void *, void *(*)(void *), void *);\
            extern void reach_error(void);\
            int x;\
            void *w(void *a) { x = 1; x = 0; return 0; }\
            void *r(void *a) { if (x == 1) reach_error(); return 0; }\
            int main(void) { pthread_t a, b; pthread_create(&a, 0, w, 0); pthread_create(&b, 0, r, 0); return 0; }";
        let prog = crate::frontend::load_text("t.c", src, crate::ir::types::DataModel::Lp64)
            .expect("parses");
        let prep = Prepared::new(prog);
        let eopts = ExploreOptions {
            counting: false,
            ..ExploreOptions::default()
        };
        let Explored::Violation { path, .. } =
            explicit::explore(&prep.normalized, &prep.shared, &eopts, None)
        else {
            panic!("the explorer finds the failure");
        };
        let opts = CheckOptions::default();
        let gate = Arc::new(SolveGate::default());
        let (cex, unwind) =
            replay_explored(&prep, &opts, &path, None, &gate).expect("the path replays");
        let resolved = cex
            .schedule
            .resolve(&prep.normalized, &prep.index)
            .expect("the schedule resolves");
        eprintln!("SCHED {}", cex.schedule.compact());
        let framework = seq::Framework::builtin();
        let replayer = super::super::replay::Replayer {
            prep: &prep,
            framework: &framework,
            bounds: super::super::replay::ReplayBounds {
                unwind,
                max_threads: 3,
                recursion: 3,
            },
            target: crate::instrument::Target::Failure,
            deadline: None,
        };
        assert!(
            replayer.reproduces(&resolved).expect("replays"),
            "{}",
            cex.schedule.compact()
        );
    }

    #[test]
    fn on_panic_runs_only_while_unwinding() {
        let released = AtomicBool::new(false);
        drop(OnPanic(|| released.store(true, Ordering::SeqCst)));
        assert!(!released.load(Ordering::SeqCst));
        // A scope whose main thread panics while another waits for it: the waiter is
        // released and the scope ends with the panic instead of hanging.
        let r = std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| {
            std::thread::scope(|s| {
                s.spawn(|| {
                    while !released.load(Ordering::SeqCst) {
                        std::thread::sleep(Duration::from_millis(1));
                    }
                });
                let _guard = OnPanic(|| released.store(true, Ordering::SeqCst));
                panic!("the bounded search failed");
            })
        }));
        assert!(r.is_err());
        assert!(released.load(Ordering::SeqCst));
    }
}
