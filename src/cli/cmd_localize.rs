//! `seqloc instrument` and `seqloc localize`: the paper's pipeline from a failing
//! interleaving to fault candidates.

use std::path::Path;
use std::time::Instant;

use super::args::{
    BoundArgs, CheckArgs, CheckerArgs, CheckerKind, Format, InputArgs, InstrumentArgs,
    LocalizeArgs, PropertyArg,
};
use super::cmd_seq::header;
use super::{
    Ctx, EXIT_BAD_INPUT, EXIT_CHECKER, EXIT_FAILURE_FOUND, EXIT_NO_FAILURE, Fail, load, timeout,
    verbose, write_output,
};
use seqloc::cex::ViolationKind;
use seqloc::checker::external::External;
use seqloc::dialect::Dialect;
use seqloc::engine::check::{CheckOutcome, Verdict};
use seqloc::engine::diagnosis::Diagnosis;
use seqloc::engine::localize::{Asked, LocalizeConfig, LocalizeError};
use seqloc::instrument::Instrumented;
use seqloc::instrument::Target;
use seqloc::ir::print::{PrintOptions, print_program};
use seqloc::passes::Prepared;
use seqloc::report::check::CheckerInfo;
use seqloc::report::localize::{LocalizeReport, Times};
use seqloc::report::style::Style;
use seqloc::seq::{Framework, Sequentialized};

/// Loop bound for replaying a schedule given with `--schedule` (no checker run says
/// which bound the interleaving needs).
const SCHEDULE_UNWIND: u32 = 8;

/// A failing interleaving to localize along, and where it came from.
struct Failing {
    failing: seqloc::engine::localize::Failing,
    /// The schedule came from the user (a replay problem is then bad input).
    from_user: bool,
    /// How the checker's search found it, when it says (a built-in search standing in for
    /// the external checker, a simplified interleaving): the report's `reason`.
    how: Option<String>,
    /// The checker's own counterexample when `failing` holds a simplified schedule in its
    /// place: still the failure found, should a limit stop the localization.
    checker_cex: Option<seqloc::cex::Counterexample>,
    /// The built-in checker's counterexample is the explicit-state explorer's, with as
    /// many context switches as its search made.
    explored: bool,
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
    /// `--rules`/`--templates`, loaded once.
    framework: Framework,
    /// `--rules` was given: the explicit-state explorer, which models pthread calls as
    /// POSIX does rather than by the rules, stays off so that one semantics answers.
    custom_rules: bool,
    templates: Option<&'a Path>,
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
            failing: seqloc::engine::localize::Failing {
                schedule,
                target,
                unwind: c
                    .bounds
                    .unwind
                    .unwrap_or(SCHEDULE_UNWIND.max(hints.unwind.unwrap_or(0))),
                cex: None,
            },
            from_user: true,
            how: None,
            checker_cex: None,
            explored: false,
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
        bounds: BoundArgs {
            no_explore: c.bounds.no_explore || c.custom_rules,
            ..c.bounds.clone()
        },
        property: c.property,
        format: Format::Text,
        json: false,
        emit_schedule: None,
        artefacts: Default::default(),
        fewest_rounds: true,
        explorer_after: Some(seqloc::engine::check::CHEAP_BUDGET),
    };
    let (out, info, ext) =
        super::cmd_check::run_check_keep(ctx, prep, &check, &c.framework, c.templates)?;
    let unwind = out.bounds.unwind;
    match out.counterexample {
        Some(cex) => {
            verbose(
                ctx,
                1,
                format!(
                    "counterexample: {} with {}",
                    cex.violation.describe(),
                    seqloc::words::count(cex.context_switches(), "context switch")
                ),
            );
            Ok((
                Search::Failing(Box::new(Failing {
                    failing: seqloc::engine::localize::Failing::of(cex, unwind),
                    from_user: false,
                    how: out.reason,
                    checker_cex: None,
                    explored: out.explored_counterexample,
                })),
                info,
                ext,
            ))
        }
        None => Ok((Search::NoFailure(Box::new(out)), info, ext)),
    }
}

fn config(c: &Common, faults: u32, max_candidates: Option<usize>) -> LocalizeConfig {
    LocalizeConfig {
        framework: c.framework.clone(),
        max_threads: c.bounds.threads(),
        recursion: c.bounds.recursion.max(1),
        faults: faults.max(1),
        max_candidates,
        deadline: None,
        fresh_solver: std::env::var_os("SEQLOC_FRESH_SOLVER").is_some(),
        root_causes: 0,
        causes_time: None,
    }
}

/// The validated diagnosis model along the failing interleaving. A user's schedule in
/// which no assertion fails may end in a deadlock: under `--property all` (which checks
/// both) it is then replayed as one before it is refused.
fn diagnosis(
    prep: &Prepared,
    f: &mut Failing,
    cfg: &LocalizeConfig,
    property: PropertyArg,
) -> Result<Diagnosis, Fail> {
    match seqloc::engine::localize::diagnosis(prep, &f.failing, cfg) {
        Err(LocalizeError::NotReproduced(why))
            if f.from_user
                && property == PropertyArg::All
                && f.failing.target == Target::Failure =>
        {
            f.failing.target = Target::Deadlock;
            seqloc::engine::localize::diagnosis(prep, &f.failing, cfg).map_err(|_| {
                f.failing.target = Target::Failure;
                replay_fail(
                    f,
                    format!("{why}, and the threads do not deadlock at its end either"),
                )
            })
        }
        r => r.map_err(|e| localize_fail(f, e)),
    }
}

/// A localization error: a replay problem is bad input for a user's schedule.
fn localize_fail(f: &Failing, e: LocalizeError) -> Fail {
    match e {
        LocalizeError::NotReproduced(why) => replay_fail(f, why),
        e => e.into(),
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
        .push(format!("schedule: {}", f.failing.schedule.compact()));
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
        framework: Framework::load(a.rules.as_deref(), a.templates.as_deref())?,
        custom_rules: a.rules.is_some(),
        templates: a.templates.as_deref(),
    };
    let (search, _, _) = find_failure(ctx, &prep, &common)?;
    let mut failing = match search {
        Search::Failing(f) => f,
        Search::NoFailure(out) => {
            let paths: Vec<&std::path::Path> = a.output.iter().map(|p| p.as_path()).collect();
            eprintln!(
                "seqloc: no failing interleaving found ({}); nothing to instrument: {}",
                out.reason.as_deref().unwrap_or("within the bounds"),
                super::nothing_written(&paths, &a.input.file)
            );
            return Ok(super::cmd_check::exit_code(&out));
        }
    };
    let cfg = LocalizeConfig {
        deadline: timeout(a.checker.time_limit()).map(|t| Instant::now() + t),
        ..config(&common, a.faults, None)
    };
    let d = diagnosis(&prep, &mut failing, &cfg, common.property)?;
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

/// What a localization run found: no failure, or the failure localized.
pub(super) struct Run {
    pub prep: Prepared,
    pub info: CheckerInfo,
    pub name: String,
    /// The localization's own time (a repair's re-checks come after it).
    total_ms: u64,
    first_ms: u64,
    pub found: Found,
}

pub(super) enum Found {
    NoFailure(Box<CheckOutcome>),
    /// The failure was found, and a limit stopped the localization before its first
    /// candidate: the failure is reported, with no candidates and the limit.
    Cut {
        cex: Box<seqloc::cex::Counterexample>,
        limit: seqloc::checker::builtin::Limit,
        stopped: String,
        how: Option<String>,
    },
    Localized {
        localized: Box<seqloc::engine::localize::Localized>,
        localization_ms: u64,
        /// The mutants' time (`cli::mutants`), after the localization.
        mutants_ms: u64,
        /// How the failure was found ([`Failing::how`]).
        how: Option<String>,
    },
}

impl Run {
    /// A report with no candidate and no explanation, for the outcomes that stop before
    /// the localization: the fields each sets are its own.
    fn without_candidates(&self, total: u64) -> LocalizeReport<'_> {
        LocalizeReport {
            program: self.name.clone(),
            checker: self.info.clone(),
            verdict: Verdict::Unknown,
            exhaustive: false,
            reason: None,
            cex: None,
            candidates: vec![],
            complete: false,
            stopped: None,
            limit: None,
            checker_runs: 0,
            time: Times {
                total,
                first_counterexample: self.first_ms,
                ..Times::default()
            },
            why: None,
            root_causes: None,
            causes_missing: None,
        }
    }

    /// The report of the run.
    pub fn report(&self) -> LocalizeReport<'_> {
        let total = self.total_ms;
        match &self.found {
            Found::NoFailure(out) => LocalizeReport {
                verdict: out.verdict,
                exhaustive: out.exhaustive(),
                reason: out.reason.clone(),
                // With no answer there is no list to be complete.
                complete: out.verdict != Verdict::Unknown,
                limit: out.limit(),
                checker_runs: out.stats.solver_calls,
                ..self.without_candidates(total)
            },
            Found::Cut {
                cex,
                limit,
                stopped,
                how,
            } => LocalizeReport {
                verdict: verdict_of(cex),
                reason: how.clone(),
                cex: Some(cex),
                complete: false,
                stopped: Some(stopped.clone()),
                limit: Some(*limit),
                ..self.without_candidates(total)
            },
            Found::Localized {
                localized,
                localization_ms,
                mutants_ms,
                how,
            } => {
                let (cex, loc) = (&localized.cex, &localized.loc);
                LocalizeReport {
                    program: self.name.clone(),
                    checker: self.info.clone(),
                    verdict: verdict_of(cex),
                    exhaustive: false,
                    reason: how.clone(),
                    cex: Some(cex),
                    candidates: localized.candidates.clone(),
                    complete: loc.complete,
                    stopped: localized.stopped.clone(),
                    limit: loc.limit,
                    checker_runs: loc.checker_runs,
                    time: Times {
                        total,
                        first_counterexample: self.first_ms,
                        localization: *localization_ms,
                        encode: loc.stats.encode_ms,
                        solve: loc.stats.solve_ms,
                        mutants: *mutants_ms,
                    },
                    why: localized
                        .why
                        .as_ref()
                        .map(|w| seqloc::report::localize::WhyView::of(w, cex)),
                    root_causes: localized.causes.as_ref(),
                    causes_missing: localized.causes_missing.as_ref(),
                }
            }
        }
    }

    /// `localize`'s exit code for the run.
    pub fn exit_code(&self) -> u8 {
        match &self.found {
            Found::NoFailure(out) => super::cmd_check::exit_code(out),
            // Cut short by a limit, the list may miss the faulty line: not the answer
            // asked for, even with candidates to show.
            Found::Localized { localized, .. } if localized.loc.limit.is_some() => EXIT_CHECKER,
            Found::Cut { .. } => EXIT_CHECKER,
            Found::Localized { .. } => EXIT_FAILURE_FOUND,
        }
    }
}

/// The verdict a counterexample stands for.
fn verdict_of(cex: &seqloc::cex::Counterexample) -> Verdict {
    match cex.violation.kind {
        ViolationKind::Deadlock => Verdict::Deadlock,
        _ => Verdict::Failure,
    }
}

pub fn run(ctx: &Ctx, a: LocalizeArgs) -> Result<u8, Fail> {
    if a.repair {
        return super::cmd_repair::run(ctx, repair_args(a)?);
    }
    let r = localize_run(ctx, &a)?;
    emit_report(ctx, &a, &r.report(), &r.prep)?;
    Ok(r.exit_code())
}

/// `localize --repair` is `seqloc repair` with the same input, checker and bounds; the
/// options `repair` has no use for are refused by name rather than ignored.
fn repair_args(a: LocalizeArgs) -> Result<super::args::RepairArgs, Fail> {
    let unused = [
        (a.schedule.is_some(), "--schedule"),
        (a.faults > 1, "--faults"),
        (a.max_candidates.is_some(), "--max-candidates"),
        (a.emit_sequential.is_some(), "--emit-sequential"),
        (a.emit_instrumented.is_some(), "--emit-instrumented"),
        (a.rules.is_some(), "--rules"),
        (a.templates.is_some(), "--templates"),
        (a.artefacts.witness.is_some(), "--witness"),
        (a.artefacts.witness_yaml.is_some(), "--witness-yaml"),
        (a.artefacts.witness_spec.is_some(), "--witness-spec"),
        (a.artefacts.html.is_some(), "--html"),
    ];
    if let Some((_, name)) = unused.iter().find(|(given, _)| *given) {
        return Err(Fail::input(format!(
            "{name} cannot be combined with --repair (run `seqloc localize` with it, and `seqloc repair` for the repair)"
        )));
    }
    use super::args::{Format, RepairFormat};
    let format = match a.format {
        Format::Text => RepairFormat::Text,
        Format::Json => RepairFormat::Json,
        Format::Sarif => RepairFormat::Sarif,
        Format::Html => {
            return Err(Fail::input(
                "--format html cannot be combined with --repair: a repair is printed as text, JSON or SARIF (run `seqloc localize --format html` for the HTML view)",
            ));
        }
    };
    Ok(super::args::RepairArgs {
        input: a.input,
        checker: a.checker,
        bounds: a.bounds,
        property: a.property,
        write_patch: None,
        repairs: 1,
        verify_timeout: 60.0,
        format,
        json: a.json,
    })
}

/// `seqloc localize` up to its report: the search, the diagnosis model (and the programs
/// `--emit-*` asks for), the candidate loop and the analyses.
pub(super) fn localize_run(ctx: &Ctx, a: &LocalizeArgs) -> Result<Run, Fail> {
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
        framework: Framework::load(a.rules.as_deref(), a.templates.as_deref())?,
        custom_rules: a.rules.is_some(),
        templates: a.templates.as_deref(),
    };
    let progress =
        super::progress::Progress::start(super::args::output_format(a.format, a.json), ctx.verbose);
    progress.phase("localizing: searching for a failing interleaving");
    let (search, info, ext) = find_failure(ctx, &prep, &common)?;
    let rest = || localize_found(ctx, a, t0, &common, progress, prep, search, info, ext);
    seqloc::checker::builtin::on_usable_context(rest).map_err(|e| {
        Fail::checker(format!(
            "the search's Z3 context was interrupted and no thread could be started for a fresh one: {e}"
        ))
    })?
}

/// [`localize_run`] once the search answered: the replay, the diagnosis model, the
/// candidate loop and the analyses.
#[allow(clippy::too_many_arguments)]
fn localize_found(
    ctx: &Ctx,
    a: &LocalizeArgs,
    t0: Instant,
    common: &Common,
    progress: super::progress::Progress,
    prep: Prepared,
    search: Search,
    mut info: CheckerInfo,
    ext: Option<External>,
) -> Result<Run, Fail> {
    progress.phase("localizing: replaying the failure and building the diagnosis model");
    let first_ms = t0.elapsed().as_millis() as u64;
    let name = a.input.file.display().to_string();
    let mut failing = match search {
        Search::Failing(f) => f,
        Search::NoFailure(out) => {
            return Ok(Run {
                prep,
                info,
                name,
                total_ms: t0.elapsed().as_millis() as u64,
                first_ms,
                found: Found::NoFailure(out),
            });
        }
    };
    let deadline = timeout(a.checker.time_limit()).map(|t| t0 + t);
    let cfg = LocalizeConfig {
        deadline,
        root_causes: a.root_causes as usize,
        causes_time: a.root_cause_time.map(std::time::Duration::from_secs),
        ..config(common, a.faults, a.max_candidates.map(|m| m as usize))
    };
    let t1 = Instant::now();
    // A limit reached after the failure was found does not lose it: the failure is the
    // answer, with no candidates yet.
    let cut = |fail: Fail, failing: &Failing, prep: Prepared, info: CheckerInfo, name: String| {
        let found = failing
            .failing
            .cex
            .as_ref()
            .or(failing.checker_cex.as_ref());
        match (fail.limit, found) {
            (Some(limit), Some(cex)) => Ok(Run {
                prep,
                info,
                name,
                total_ms: t0.elapsed().as_millis() as u64,
                first_ms,
                found: Found::Cut {
                    cex: Box::new(cex.clone()),
                    limit,
                    stopped: format!("{}; no candidates were found before it", fail.message),
                    how: failing.how.clone(),
                },
            }),
            _ => Err(fail),
        }
    };
    // An external checker's interleaving, or the built-in explorer's, with the preemptions
    // the failure does not need taken out (`engine::simplify`): what the analyses and the
    // ranking read. The bounded search's own has the fewest rounds already.
    if !failing.from_user
        && (a.checker.checker != CheckerKind::Builtin || failing.explored)
        && let Some(s) = seqloc::engine::simplify::fewer_switches(&prep, &failing.failing, &cfg)
    {
        let label = if failing.explored {
            "the explicit-state search"
        } else {
            a.checker.checker.label()
        };
        let note = format!(
            "{label}'s interleaving had {}, {} of which the failure does not need: taken out, each removal replayed ({})",
            seqloc::words::count(s.before, "context switch"),
            s.before - s.after,
            seqloc::words::count(s.replays, "replay")
        );
        verbose(ctx, 1, &note);
        failing.how = Some(match failing.how.take() {
            Some(h) => format!("{note}; {h}"),
            None => note,
        });
        failing.checker_cex = failing.failing.cex.take();
        failing.failing.schedule = s.schedule;
    }
    let d = match diagnosis(&prep, &mut failing, &cfg, common.property) {
        Ok(d) => d,
        Err(fail) => return cut(fail, &failing, prep, info, name),
    };
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
    let log = |level: u8, msg: &str| verbose(ctx, level, msg);
    let mut ext = ext;
    let asked = match a.checker.checker {
        CheckerKind::Builtin => Asked::Builtin,
        CheckerKind::Esbmc | CheckerKind::Cbmc => {
            if ext.is_none() {
                ext = Some(
                    External::start(
                        super::cmd_check::external_config(
                            &a.checker,
                            &a.input,
                            &common.framework,
                            a.templates.as_deref(),
                        ),
                        &log,
                    )
                    .map_err(super::cmd_check::external_fail)?,
                );
            }
            match ext.as_mut() {
                Some(e) => {
                    // With --schedule no checker ran yet: the header names the one that
                    // localizes.
                    info = CheckerInfo {
                        name: e.name().into(),
                        version: e.version_text(),
                    };
                    Asked::External(e)
                }
                None => Asked::Builtin,
            }
        }
    };
    progress.phase(
        "localizing: asking the checker which lines could change, and which context switches matter",
    );
    let localized = seqloc::engine::localize::localize(
        &prep,
        &failing.failing,
        &d,
        asked,
        &cfg,
        &progress,
        &log,
    )
    .map_err(|e| localize_fail(&failing, e));
    drop(progress);
    let mut localized = match localized {
        Ok(l) => l,
        Err(fail) => {
            drop(d);
            return cut(fail, &failing, prep, info, name);
        }
    };
    let localization_ms = t1.elapsed().as_millis() as u64;
    let t2 = Instant::now();
    if !a.no_mutants {
        let v = &localized.cex.violation;
        let check = (v.line > 0).then(|| (v.file.clone(), v.line));
        let cex = localized.cex.clone();
        super::mutants::rank(
            ctx,
            &a.input,
            check,
            &cex,
            &mut localized.candidates,
            v.kind != ViolationKind::Deadlock,
            localized
                .causes
                .as_ref()
                .is_some_and(|c| c.order_independent),
            t1.elapsed(),
            cfg.deadline,
        );
    }
    let mutants_ms = t2.elapsed().as_millis() as u64;
    if let Ok(text) = std::fs::read_to_string(&a.input.file) {
        // The candidates name the input as the failing run's steps do.
        let file = a.input.file.display().to_string();
        let named = localized
            .cex
            .steps
            .iter()
            .find(|s| seqloc::diag::explain::same_file(&s.file, &file))
            .map_or(file, |s| s.file.clone());
        seqloc::diag::explain::lock_choice::name_lock_choices(
            &mut localized.candidates,
            &text,
            &named,
        );
    }
    for n in &localized.notes {
        verbose(ctx, 1, n);
    }
    Ok(Run {
        prep,
        info,
        name,
        total_ms: t0.elapsed().as_millis() as u64,
        first_ms,
        found: Found::Localized {
            localized: Box::new(localized),
            localization_ms,
            mutants_ms,
            how: failing.how,
        },
    })
}

fn emit_report(
    ctx: &Ctx,
    a: &LocalizeArgs,
    r: &LocalizeReport,
    prep: &Prepared,
) -> Result<(), Fail> {
    super::artefacts::write_witnesses(&a.artefacts, &a.input, &a.bounds, prep, r.cex)?;
    let html = || {
        super::artefacts::html_page(
            &a.input.file,
            prep,
            super::artefacts::Shown {
                verdict: &r.verdict,
                reason: r.reason.as_deref(),
                checker: &r.checker,
                cex: r.cex,
                candidates: &r.candidates,
                why: {
                    let mut lines = match (&r.why, r.cex) {
                        (Some(w), Some(c)) => w.lines(c),
                        _ => vec![],
                    };
                    if let Some(rc) = r.root_causes {
                        lines.extend(seqloc::report::causes::lines(rc));
                    }
                    lines
                },
                orderings: r
                    .root_causes
                    .map(seqloc::report::causes::arrows)
                    .unwrap_or_default(),
            },
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
