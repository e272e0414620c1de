//! `seqloc instrument` and `seqloc localize`: the paper's pipeline from a failing
//! interleaving to fault candidates.

use std::path::Path;
use std::time::Instant;

use super::args::{
    BoundArgs, CheckArgs, CheckerArgs, CheckerKind, Format, InputArgs, InstrumentArgs,
    LocalizeArgs, PropertyArg,
};
use super::cmd_seq::{header, rules};
use super::{
    Ctx, EXIT_BAD_INPUT, EXIT_CHECKER, EXIT_FAILURE_FOUND, EXIT_NO_FAILURE, Fail, load, timeout,
    verbose, write_output,
};
use seqloc::cex::{Counterexample, ViolationKind};
use seqloc::check::{CheckOutcome, Prepared, Verdict};
use seqloc::checker::external::External;
use seqloc::diag::Target;
use seqloc::diag::explain::Explainer;
use seqloc::diag::instrument::Instrumented;
use seqloc::diag::interleaving::{
    deadlock_state, necessary_switches, unscheduled_threads, with_threads,
};
use seqloc::diag::localize::{
    Diagnosis, LocalizeError, LocalizeOptions, Source, localize, prepare,
};
use seqloc::diag::ordering::{missing_joins, order_violations};
use seqloc::diag::waits::unlooped_waits;
use seqloc::dialect::Dialect;
use seqloc::ir::print::{PrintOptions, print_program};
use seqloc::report::check::CheckerInfo;
use seqloc::report::localize::{LocalizeReport, Times};
use seqloc::report::style::Style;
use seqloc::seq::schedule::{Block, Schedule, ThreadSpec, Until};
use seqloc::seq::{SeqOptions, Sequentialized};

/// Loop bound for replaying a schedule given with `--schedule` (no checker run says
/// which bound the interleaving needs).
const SCHEDULE_UNWIND: u32 = 8;

/// A failing interleaving to localize along.
struct Failing {
    schedule: Schedule,
    target: Target,
    unwind: u32,
    /// The checker's counterexample (absent for `--schedule`).
    cex: Option<Counterexample>,
    /// The schedule came from the user (a replay problem is then bad input).
    from_user: bool,
}

enum Search {
    Failing(Box<Failing>),
    NoFailure(Box<CheckOutcome>),
}

struct Common<'a> {
    input: &'a InputArgs,
    checker: &'a CheckerArgs,
    bounds: &'a BoundArgs,
    property: PropertyArg,
    schedule: Option<&'a Path>,
    rules: Option<&'a Path>,
    templates: Option<&'a Path>,
}

fn target_of(kind: ViolationKind) -> Target {
    match kind {
        ViolationKind::Deadlock => Target::Deadlock,
        _ => Target::Failure,
    }
}

/// The first step of the paper's procedure: a failing interleaving, from the checker or
/// from `--schedule`.
fn find_failure(
    ctx: &Ctx,
    prep: &Prepared,
    c: &Common,
) -> Result<(Search, CheckerInfo, Option<External>), Fail> {
    if let Some(path) = c.schedule {
        let (schedule, hints) = seqloc::witness::load_schedule_hints(path)?;
        let target = if c.property == PropertyArg::Deadlock || hints.deadlock {
            Target::Deadlock
        } else {
            Target::Failure
        };
        let failing = Failing {
            schedule,
            target,
            unwind: c
                .bounds
                .unwind
                .unwrap_or(SCHEDULE_UNWIND.max(hints.unwind.unwrap_or(0))),
            cex: None,
            from_user: true,
        };
        return Ok((
            Search::Failing(Box::new(failing)),
            super::cmd_check::builtin_info(),
            None,
        ));
    }
    // Localization wants the bounded search's counterexample (fewest rounds, so fewest
    // context switches to explain), and `check` prefers it whenever the bounded search
    // finds one. The explorer beside it (unless `--no-explore`) proves a correct program
    // correct instead of running to the time limit, and its failure, replayed, is the one
    // to localize when the bounded search's rounds cannot reach any.
    let check = CheckArgs {
        input: c.input.clone(),
        checker: c.checker.clone(),
        bounds: c.bounds.clone(),
        property: c.property,
        format: Format::Text,
        json: false,
        emit_schedule: None,
        artefacts: Default::default(),
        fewest_rounds: true,
    };
    let (out, info, ext) = super::cmd_check::run_check_keep(ctx, prep, &check, c.templates)?;
    let unwind = out.bounds.unwind;
    match out.counterexample {
        Some(cex) => {
            verbose(
                ctx,
                1,
                format!(
                    "counterexample: {} with {} context switches",
                    cex.violation.describe(),
                    cex.context_switches()
                ),
            );
            Ok((
                Search::Failing(Box::new(Failing {
                    schedule: cex.schedule.clone(),
                    target: target_of(cex.violation.kind),
                    unwind,
                    cex: Some(cex),
                    from_user: false,
                })),
                info,
                ext,
            ))
        }
        None => Ok((Search::NoFailure(Box::new(out)), info, ext)),
    }
}

/// The diagnosis model along the failing interleaving, with Table II's group chosen by
/// the failure (deadlock rules for a deadlock), validated against the failure.
fn diagnosis(
    prep: &Prepared,
    f: &Failing,
    c: &Common,
    faults: u32,
    opts: &LocalizeOptions,
) -> Result<Diagnosis, Fail> {
    let (deadlock_rules, nondeadlock_rules) = rules(c.rules)?;
    let resolved = f
        .schedule
        .resolve(&prep.normalized, &prep.index)
        .map_err(|e| replay_fail(f, e.to_string()))?;
    let deadlock = f.target == Target::Deadlock;
    let seq_opts = SeqOptions {
        unwind: f.unwind.max(1),
        rounds: 1,
        max_threads: c.bounds.threads(),
        recursion: c.bounds.recursion.max(1),
        deadlock,
        rules: if deadlock {
            deadlock_rules
        } else {
            nondeadlock_rules
        },
        skeleton: seqloc::seq::skeleton::Skeleton::load(c.templates)?,
    };
    let src = Source {
        normalized: &prep.normalized,
        shared: &prep.shared,
        index: &prep.index,
    };
    // A deadlock involves every live thread, also one that blocked at its first statement
    // and so has no block in the schedule: the replay must run it (to its first
    // statement) for its deadlock to be the checker's.
    let unscheduled = match (&f.cex, deadlock) {
        (Some(cex), true) => unscheduled_threads(&src, &resolved, &cex.steps),
        _ => vec![],
    };
    let mut prepared = None;
    if !unscheduled.is_empty() {
        let all = with_threads(&resolved, &unscheduled);
        match prepare(&src, &all, &seq_opts, f.target, faults, opts) {
            // Not reproduced with them: the schedule as the checker gave it.
            Err(LocalizeError::NotReproduced(_)) => {}
            r => prepared = Some(r),
        }
    }
    let prepared =
        prepared.unwrap_or_else(|| prepare(&src, &resolved, &seq_opts, f.target, faults, opts));
    match prepared {
        Ok(d) => Ok(d),
        Err(LocalizeError::NotReproduced(why)) => Err(replay_fail(
            f,
            format!("the sequential program does not reproduce the failure: {why}"),
        )),
        Err(e @ LocalizeError::Limit(..)) => Err(e.into()),
        Err(e) => Err(Fail::checker(e.to_string())),
    }
}

/// A schedule that does not replay: bad input when the user gave it, a checker/adapter
/// problem when the checker did.
fn replay_fail(f: &Failing, msg: String) -> Fail {
    let mut fail = if f.from_user {
        Fail::input(msg)
    } else {
        Fail::checker(format!("sequentialization error: {msg}"))
    };
    fail.code = if f.from_user {
        EXIT_BAD_INPUT
    } else {
        EXIT_CHECKER
    };
    fail.notes
        .push(format!("schedule: {}", f.schedule.compact()));
    fail
}

fn dialect_for(checker: CheckerKind) -> &'static str {
    match checker {
        CheckerKind::Builtin => "svcomp",
        CheckerKind::Esbmc => "esbmc",
        CheckerKind::Cbmc => "cbmc",
    }
}

/// The command that re-checks an emitted program with the chosen checker.
/// The command that re-checks an emitted program. The framework's loop runs once per
/// block of the schedule, so `blocks + 1` unwindings cover it without the deepening search.
fn recheck_command(checker: CheckerKind, file: &Path, blocks: u32) -> String {
    let f = file.display();
    let n = blocks + 1;
    match checker {
        CheckerKind::Builtin => {
            format!("seqloc check {f} --property unreach-call --rounds 1 --unwind {n}")
        }
        CheckerKind::Esbmc => format!(
            "esbmc {f} --no-bounds-check --no-pointer-check --no-div-by-zero-check --unwind {n}"
        ),
        CheckerKind::Cbmc => format!("cbmc {f} --unwind {n}"),
    }
}

fn print_instrumented(
    ins: &Instrumented,
    checker: CheckerKind,
    templates: Option<&Path>,
    input: &Path,
    out: Option<&Path>,
    blocks: u32,
) -> Result<String, Fail> {
    let dialect = Dialect::load(dialect_for(checker), templates)?;
    let names = ins.diag_names();
    let what = format!(
        "Griesmeyer's diagnosis model of the failing interleaving: each statement computes\n *   `{} == LINE ? nondet : original`; the failure is assumed not to happen and\n *   the final assertion is reached only by runs that avoid it. A counterexample's value of\n *   `{}` names a line to change; add `assume({} != LINE)` and re-check for the next.",
        names.first().map(String::as_str).unwrap_or("diag"),
        names.join("`, `"),
        names.first().map(String::as_str).unwrap_or("diag"),
    );
    let recheck = match out {
        Some(p) => recheck_command(checker, p, blocks),
        None => recheck_command(checker, Path::new("FILE.c"), blocks),
    };
    Ok(print_program(
        &ins.program,
        &dialect,
        &PrintOptions {
            loc_comments: true,
            header: Some(header("diag instrumentation", input, &what, &recheck)),
            ..Default::default()
        },
    )
    .text)
}

fn print_sequential(
    sq: &Sequentialized,
    checker: CheckerKind,
    templates: Option<&Path>,
    input: &Path,
    out: &Path,
) -> Result<String, Fail> {
    let dialect = Dialect::load(dialect_for(checker), templates)?;
    let what = "The sequential program replaying the failing interleaving (the switch(order[i]) framework).";
    Ok(print_program(
        &sq.program,
        &dialect,
        &PrintOptions {
            loc_comments: true,
            header: Some(header(
                "sequentialization",
                input,
                what,
                &recheck_command(checker, out, sq.steps),
            )),
            ..Default::default()
        },
    )
    .text)
}

/// The external localization loop asks one `diag` per round; minimal sets of several lines
/// (`--faults N`) need the shape constraints only the built-in loop adds.
fn external_unsupported(c: &CheckerArgs, faults: u32) -> Result<(), Fail> {
    match c.checker {
        CheckerKind::Builtin => Ok(()),
        _ if faults <= 1 => Ok(()),
        _ => Err(Fail::input(
            "--faults above 1 is available with --checker builtin only; external checkers localize single lines",
        )),
    }
}

pub fn instrument(ctx: &Ctx, a: InstrumentArgs) -> Result<u8, Fail> {
    let prog = load(ctx, &a.input)?;
    let prep = Prepared::new(prog);
    let common = Common {
        input: &a.input,
        checker: &a.checker,
        bounds: &a.bounds,
        property: PropertyArg::All,
        schedule: a.schedule.as_deref(),
        rules: a.rules.as_deref(),
        templates: a.templates.as_deref(),
    };
    let (search, _, _) = find_failure(ctx, &prep, &common)?;
    let failing = match search {
        Search::Failing(f) => f,
        Search::NoFailure(out) => {
            eprintln!(
                "seqloc: no failing interleaving found ({}); nothing to instrument",
                out.reason.as_deref().unwrap_or("within the bounds")
            );
            return Ok(super::cmd_check::exit_code(&out));
        }
    };
    let opts = LocalizeOptions {
        faults: a.faults.max(1),
        max_candidates: None,
        deadline: timeout(a.checker.time_limit()).map(|t| Instant::now() + t),
        fresh_solver: false,
    };
    let d = diagnosis(&prep, &failing, &common, a.faults.max(1), &opts)?;
    let text = print_instrumented(
        &d.model,
        a.checker.checker,
        a.templates.as_deref(),
        &a.input.file,
        a.output.as_deref(),
        d.sequential.steps,
    )?;
    write_output(a.output.as_deref(), &a.input.file, &text)?;
    Ok(EXIT_NO_FAILURE)
}

pub fn run(ctx: &Ctx, a: LocalizeArgs) -> Result<u8, Fail> {
    let t0 = Instant::now();
    external_unsupported(&a.checker, a.faults)?;
    let prog = load(ctx, &a.input)?;
    let prep = Prepared::new(prog);
    let common = Common {
        input: &a.input,
        checker: &a.checker,
        bounds: &a.bounds,
        property: a.property,
        schedule: a.schedule.as_deref(),
        rules: a.rules.as_deref(),
        templates: a.templates.as_deref(),
    };
    let progress =
        super::progress::Progress::start(super::args::output_format(a.format, a.json), ctx.verbose);
    progress.phase("localizing: searching for a failing interleaving");
    let (search, mut info, ext) = find_failure(ctx, &prep, &common)?;
    progress.phase("localizing: replaying the failure and building the diagnosis model");
    let first_ms = t0.elapsed().as_millis() as u64;
    let name = a.input.file.display().to_string();
    let failing = match search {
        Search::Failing(f) => f,
        Search::NoFailure(out) => {
            let report = LocalizeReport {
                program: name,
                checker: info,
                verdict: out.verdict,
                exhaustive: out.exhaustive(),
                reason: out.reason.clone(),
                cex: None,
                candidates: vec![],
                complete: true,
                stopped: None,
                limit: out.limit(),
                checker_runs: out.stats.solver_calls,
                time: Times {
                    total: t0.elapsed().as_millis() as u64,
                    first_counterexample: first_ms,
                    ..Times::default()
                },
            };
            emit_report(ctx, &a, &report, &prep)?;
            return Ok(super::cmd_check::exit_code(&out));
        }
    };
    let deadline = timeout(a.checker.time_limit()).map(|t| t0 + t);
    let opts = LocalizeOptions {
        faults: a.faults.max(1),
        max_candidates: a.max_candidates.map(|m| m as usize),
        deadline,
        fresh_solver: std::env::var_os("SEQLOC_FRESH_SOLVER").is_some(),
    };
    let t1 = Instant::now();
    let d = diagnosis(&prep, &failing, &common, a.faults.max(1), &opts)?;
    let (sq, ins) = (&d.sequential, &d.model);
    if let Some(p) = &a.emit_sequential {
        let text = print_sequential(
            sq,
            a.checker.checker,
            a.templates.as_deref(),
            &a.input.file,
            p,
        )?;
        write_output(Some(p), &a.input.file, &text)?;
    }
    if let Some(p) = &a.emit_instrumented {
        let text = print_instrumented(
            ins,
            a.checker.checker,
            a.templates.as_deref(),
            &a.input.file,
            Some(p),
            d.sequential.steps,
        )?;
        write_output(Some(p), &a.input.file, &text)?;
    }
    verbose(
        ctx,
        1,
        format!(
            "instrumented {} statement copies on {} lines ({} switch points)",
            ins.sites.len(),
            ins.lines.len(),
            if d.fixed_switches {
                "fixed"
            } else {
                "occurrence-based"
            }
        ),
    );
    let mut cex = failing.cex.clone().unwrap_or_else(|| d.replay.clone());
    seqloc::check::name_assertion(&mut cex, &prep);
    // Threads the replay added to the checker's schedule (they blocked at their first
    // statement), so that the report's schedule replays the same deadlock.
    for (id, f) in &d.resolved.threads {
        if !cex.schedule.threads.iter().any(|t| t.id == *id) {
            cex.schedule.threads.push(ThreadSpec {
                id: *id,
                function: prep.normalized.func(*f).name.clone(),
            });
            cex.schedule.blocks.push(Block {
                thread: *id,
                until: Until::Keyword("end".into()),
                ran: vec![],
            });
        }
    }
    cex.schedule.threads.sort_by_key(|t| t.id);
    let run_localization = || -> Result<(seqloc::diag::localize::Localization, Vec<seqloc::checker::external::driver::RoundValues>), Fail> {
    Ok(match a.checker.checker {
        CheckerKind::Builtin => match localize(&d, &opts) {
            Ok(r) => (r, vec![]),
            Err(LocalizeError::NotReproduced(why)) => {
                return Err(replay_fail(
                    &failing,
                    format!("the sequential program does not reproduce the failure: {why}"),
                ));
            }
            Err(e @ LocalizeError::Limit(..)) => return Err(e.into()),
            Err(e) => return Err(Fail::checker(e.to_string())),
        },
        CheckerKind::Esbmc | CheckerKind::Cbmc => {
            let log = |level: u8, msg: &str| verbose(ctx, level, msg);
            let mut ext = match ext {
                Some(e) => e,
                None => External::start(
                    super::cmd_check::external_config(&a.checker, &a.input, a.templates.as_deref()),
                    &log,
                )
                .map_err(super::cmd_check::external_fail)?,
            };
            // With --schedule no checker ran yet: the header names the one that localizes.
            info = CheckerInfo {
                name: ext.name().into(),
                version: ext.version_text(),
            };
            let r = ext
                .localize(&d, opts.max_candidates, &log)
                .map_err(super::cmd_check::external_fail)?;
            (r.loc, r.values)
        }
    })
    };
    let src = Source {
        normalized: &prep.normalized,
        shared: &prep.shared,
        index: &prep.index,
    };
    // The interleaving analyses replay variants of the schedule on their own solvers: on a
    // second core while the localization loop runs.
    let timed = |which: Analysis| {
        let explainer = Explainer::new(&prep.normalized, &prep.shared, ins, &cex);
        let accesses = |s: &seqloc::cex::TraceStep| explainer.accesses(&s.file, s.line);
        let t = Instant::now();
        let out = match which {
            Analysis::Switches => necessary_switches(
                &src,
                &d.resolved,
                &d.seq_opts,
                d.target,
                &opts,
                &d.replay,
                &accesses,
            )
            .map(Analysed::Switches),
            Analysis::Ordering => order_violations(
                &src,
                &d.resolved,
                &d.seq_opts,
                d.target,
                &opts,
                &d.replay,
                &accesses,
            )
            .and_then(|o| {
                let j = missing_joins(
                    &src,
                    &d.resolved,
                    &d.seq_opts,
                    d.target,
                    &opts,
                    &d.replay,
                    &accesses,
                )?;
                Ok(Analysed::Ordering(o, j))
            }),
        };
        (out, t.elapsed().as_millis())
    };
    progress.phase(
        "localizing: asking the checker which lines could change, and which context switches matter",
    );
    let (localized, switches, ordering) = std::thread::scope(|scope| {
        let switches = scope.spawn(|| timed(Analysis::Switches));
        let ordering = scope.spawn(|| timed(Analysis::Ordering));
        let localized = run_localization();
        (localized, switches.join(), ordering.join())
    });
    drop(progress);
    let (loc, external_values) = localized?;
    let explainer = Explainer::new(&prep.normalized, &prep.shared, ins, &cex);
    let mut candidates = explainer.candidates(&loc.findings);
    match switches {
        Ok((Ok(Analysed::Switches(sw)), ms)) => {
            verbose(
                ctx,
                1,
                format!(
                    "interleaving: {} necessary context switches ({ms} ms)",
                    sw.len()
                ),
            );
            candidates = explainer.switch_candidates(&sw, candidates);
        }
        Ok((Err(e), _)) => verbose(ctx, 1, format!("interleaving: not analysed ({e})")),
        _ => verbose(ctx, 1, "interleaving: not analysed (its thread failed)"),
    }
    let waits = unlooped_waits(&prep.normalized, &d.replay.steps);
    candidates = explainer.wait_candidates(&waits, candidates);
    match ordering {
        Ok((Ok(Analysed::Ordering(v, joins)), ms)) => {
            verbose(
                ctx,
                1,
                format!(
                    "ordering: {} statements ran too early, {} missing joins ({} replays, {ms} ms)",
                    v.violations.len(),
                    joins.len(),
                    v.replays
                ),
            );
            candidates = explainer.join_candidates(&joins, candidates);
            candidates = explainer.ordering_candidates(&v.violations, candidates);
        }
        Ok((Err(e), _)) => verbose(ctx, 1, format!("ordering: not analysed ({e})")),
        _ => verbose(ctx, 1, "ordering: not analysed (its thread failed)"),
    }
    if d.target == Target::Deadlock {
        let st = deadlock_state(&src, &d.resolved, &d.replay, &d.waiting);
        candidates = explainer.deadlock_candidates(&st, candidates);
    }
    // The external checker's model is not seqloc's: what it stored on the changed line is
    // the repair hint it gives.
    for c in &mut candidates {
        if let Some(v) = external_values
            .iter()
            .find(|v| v.key == c.diag && !v.values.is_empty())
        {
            c.hint = format!("{} ({}: {})", c.hint, info.name, v.values.join(", "));
        }
    }
    verbose(
        ctx,
        1,
        format!(
            "localization: {} answers in {} checker runs (encode {} ms, solve {} ms)",
            loc.findings.len(),
            loc.checker_runs,
            loc.stats.encode_ms,
            loc.stats.solve_ms
        ),
    );
    // The analyses of the interleaving add candidates beside the localization loop's,
    // which alone `--max-candidates` stops: the list is cut to the best ranked.
    let mut stopped = loc.stopped.clone();
    if let Some(m) = opts.max_candidates.filter(|m| candidates.len() > *m) {
        candidates.truncate(m);
        stopped = Some(format!("stopped after {m} candidates (--max-candidates)"));
    }
    let verdict = match cex.violation.kind {
        ViolationKind::Deadlock => Verdict::Deadlock,
        _ => Verdict::Failure,
    };
    let report = LocalizeReport {
        program: name,
        checker: info,
        verdict,
        exhaustive: false,
        reason: None,
        cex: Some(&cex),
        candidates,
        complete: loc.complete,
        stopped,
        limit: loc.limit,
        checker_runs: loc.checker_runs,
        time: Times {
            total: t0.elapsed().as_millis() as u64,
            first_counterexample: first_ms,
            localization: t1.elapsed().as_millis() as u64,
            encode: loc.stats.encode_ms,
            solve: loc.stats.solve_ms,
        },
    };
    emit_report(ctx, &a, &report, &prep)?;
    // Cut short by a limit, the list may miss the faulty line: not the answer asked for,
    // even with candidates to show.
    if loc.limit.is_some() {
        return Ok(EXIT_CHECKER);
    }
    Ok(EXIT_FAILURE_FOUND)
}

fn emit_report(
    ctx: &Ctx,
    a: &LocalizeArgs,
    r: &LocalizeReport,
    prep: &Prepared,
) -> Result<(), Fail> {
    super::artefacts::write_witnesses(&a.artefacts, &a.input, prep, r.cex)?;
    let html = || {
        super::artefacts::html_page(
            &a.input.file,
            prep,
            &r.verdict,
            r.reason.as_deref(),
            &r.checker,
            r.cex,
            &r.candidates,
        )
    };
    super::artefacts::write_html(&a.artefacts, &a.input.file, html)?;
    let format = super::args::output_format(a.format, a.json);
    let text = match format {
        Format::Html => html(),
        Format::Json => format!("{}\n", seqloc::report::localize::to_json(r)),
        Format::Sarif => format!("{}\n", seqloc::report::localize::to_sarif(r)),
        Format::Text => seqloc::report::localize::render_text(
            r,
            &prep.normalized,
            &Style::for_stdout(ctx.color),
        ),
    };
    write_output(None, &a.input.file, &text)
}

/// The interleaving analyses, each run on its own thread (and solver) beside the
/// localization loop.
#[derive(Clone, Copy)]
enum Analysis {
    Switches,
    Ordering,
}

enum Analysed {
    Switches(Vec<seqloc::diag::interleaving::NecessarySwitch>),
    Ordering(
        seqloc::diag::ordering::OrderSearch,
        Vec<seqloc::diag::ordering::MissingJoin>,
    ),
}
