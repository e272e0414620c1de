//! `seqloc check`: search for a failing interleaving.

use std::time::Instant;

use std::path::Path;

use super::args::{BoundArgs, CheckArgs, CheckerArgs, CheckerKind, Format, InputArgs, PropertyArg};
use super::{
    Ctx, EXIT_CHECKER, EXIT_FAILURE_FOUND, EXIT_NO_FAILURE, Fail, load, timeout, verbose,
    write_output,
};
use seqloc::checker::builtin::Properties;
use seqloc::checker::external::{Bounds as ExternalBounds, Config, External, ExternalError, Kind};
use seqloc::engine::check::{CheckOptions, CheckOutcome, Verdict};
use seqloc::passes::Prepared;
use seqloc::report::check::CheckerInfo;
use seqloc::report::style::Style;

pub fn properties(p: PropertyArg) -> Properties {
    match p {
        PropertyArg::All => Properties {
            assertions: true,
            deadlock: true,
            unlocks: true,
        },
        PropertyArg::UnreachCall => Properties {
            assertions: true,
            deadlock: false,
            unlocks: false,
        },
        PropertyArg::Deadlock => Properties {
            assertions: false,
            deadlock: true,
            unlocks: false,
        },
    }
}

pub fn check_options(b: &BoundArgs, props: Properties, secs: Option<f64>) -> CheckOptions {
    CheckOptions {
        rounds: b.rounds.or(b.context_switches.map(|k| k + 1)),
        max_rounds: b.max_rounds(),
        unwind: b.unwind,
        max_unwind: b.max_unwind.max(1),
        assume_loop_bounds: b.assume_loop_bounds,
        max_threads: b.threads(),
        properties: props,
        timeout: timeout(secs),
        recursion: b.recursion.max(1),
        max_switches: b.context_switches,
        explore: !b.no_explore,
        fewest_rounds: false,
        explorer_after: None,
        framework: seqloc::seq::Framework::builtin(),
        stop: None,
    }
}

/// `Z3 4.8.12`: the solver named, its revision number left out when it is 0.
pub fn z3_version() -> String {
    let v = z3::full_version();
    let v = v.strip_suffix(".0").unwrap_or(v);
    format!("Z3 {v}")
}

pub fn builtin_info() -> CheckerInfo {
    CheckerInfo {
        name: "builtin".into(),
        version: format!("seqloc {} with {}", env!("CARGO_PKG_VERSION"), z3_version()),
    }
}

/// Runs the search with the chosen checker.
pub fn run_check(
    ctx: &Ctx,
    prep: &Prepared,
    a: &CheckArgs,
) -> Result<(CheckOutcome, CheckerInfo), Fail> {
    run_check_keep(ctx, prep, a, &seqloc::seq::Framework::builtin(), None)
        .map(|(out, info, _)| (out, info))
}

/// [`run_check`], handing back the external checker (with its temp dir and version) for the
/// localization rounds that follow.
pub fn run_check_keep(
    ctx: &Ctx,
    prep: &Prepared,
    a: &CheckArgs,
    framework: &seqloc::seq::Framework,
    templates: Option<&Path>,
) -> Result<(CheckOutcome, CheckerInfo, Option<External>), Fail> {
    match a.checker.checker {
        CheckerKind::Builtin => Ok((
            builtin_check(ctx, prep, a, framework)?,
            builtin_info(),
            None,
        )),
        CheckerKind::Esbmc | CheckerKind::Cbmc => {
            seqloc_external(ctx, prep, a, framework, templates)
        }
    }
}

/// `seqloc check` with the built-in checker.
fn builtin_check(
    ctx: &Ctx,
    prep: &Prepared,
    a: &CheckArgs,
    framework: &seqloc::seq::Framework,
) -> Result<CheckOutcome, Fail> {
    let props = properties(a.property);
    let opts = CheckOptions {
        // A witness is replayed: like `localize`, prefer the bounded search's
        // counterexample (the explorer's, replayed, is taken when it has none).
        fewest_rounds: a.fewest_rounds || a.artefacts.witness.is_some(),
        explorer_after: a.explorer_after,
        framework: framework.clone(),
        ..check_options(&a.bounds, props, a.checker.time_limit())
    };
    let user = seqloc::engine::check::UserBounds {
        rounds: a.bounds.user_rounds(),
        threads: a.bounds.threads,
        timeout_given: a.checker.timeout.is_some(),
        memory_mb: a.checker.memory_limit,
    };
    let out = seqloc::engine::check::check_within(prep, &opts, user)?;
    for p in &out.phases {
        verbose(
            ctx,
            1,
            format!(
                "rounds {} unwind {} threads {}: {} (encode {} ms, solve {} ms)",
                p.bounds.rounds,
                p.bounds.unwind,
                p.bounds.threads,
                p.result,
                p.encode_ms,
                p.solve_ms
            ),
        );
    }
    if let Some(e) = &out.exploration {
        verbose(
            ctx,
            1,
            format!(
                "explicit-state search: {}{} ({} states, {} transitions, {} ms)",
                e.result,
                e.reason
                    .as_deref()
                    .map(|r| format!(": {r}"))
                    .unwrap_or_default(),
                e.states,
                e.transitions,
                e.ms
            ),
        );
    }
    Ok(out)
}

/// The external checker's configuration from the command line.
pub fn external_config(
    c: &CheckerArgs,
    input: &InputArgs,
    framework: &seqloc::seq::Framework,
    templates: Option<&Path>,
) -> Config {
    Config {
        kind: match c.checker {
            CheckerKind::Cbmc => Kind::Cbmc,
            _ => Kind::Esbmc,
        },
        path: c.checker_path.clone(),
        extra_args: c.checker_arg.clone(),
        timeout: timeout(c.time_limit()),
        memory_mb: c.memory_limit.filter(|m| *m > 0),
        raw: c.raw,
        alone: c.alone,
        keep_temps: c.keep_temps,
        templates: templates.map(Path::to_path_buf),
        include: input.include.clone(),
        defines: input.define.clone(),
        framework: framework.clone(),
    }
}

/// `--context-switches K` fixes ESBMC's context bound (`--rounds N` means N - 1 switches);
/// otherwise it deepens 2, 4, 8, … up to `--max-rounds`.
pub fn external_bounds(b: &BoundArgs) -> ExternalBounds {
    ExternalBounds {
        context_bound: b
            .context_switches
            .or(b.rounds.map(|r| r.saturating_sub(1).max(1))),
        max_context_bound: b.max_rounds(),
        unwind: b.unwind,
        max_unwind: b.max_unwind.max(1),
        assume_loop_bounds: b.assume_loop_bounds,
        threads: b.threads(),
        recursion: b.recursion.max(1),
        max_switches: b.context_switches,
    }
}

/// An external checker's failure, with the command line to repeat it and the end of its
/// output.
pub fn external_fail(e: ExternalError) -> Fail {
    let mut f = Fail::checker(e.to_string());
    f.limit = match &e {
        ExternalError::Interrupted { .. } => Some(seqloc::checker::builtin::Limit::Interrupted),
        ExternalError::Timeout { .. } => Some(seqloc::checker::builtin::Limit::Time),
        ExternalError::OutOfMemory { .. } => Some(seqloc::checker::builtin::Limit::Memory),
        _ => f.limit,
    };
    if let Some(c) = e.command().filter(|c| !c.is_empty()) {
        f.notes.push(format!("command: {c}"));
    }
    if !e.tail().is_empty() {
        f.notes.push("last lines of its output:".into());
        f.notes.extend(e.tail().iter().map(|l| format!("  {l}")));
    }
    f
}

fn seqloc_external(
    ctx: &Ctx,
    prep: &Prepared,
    a: &CheckArgs,
    framework: &seqloc::seq::Framework,
    templates: Option<&Path>,
) -> Result<(CheckOutcome, CheckerInfo, Option<External>), Fail> {
    let checker = a.checker.checker.label();
    // Their own library models of these would decide the interleavings they search and
    // the replay of their traces cannot tell (README, "Supported C"). So they do not
    // search such a program: the built-in checker does, and the checker localizes along
    // its failing interleaving (the sequential programs hold seqloc's own models of the
    // primitives). With --raw or --alone, which ask for the checker's own search, it is
    // refused.
    let gap = seqloc::checker::external::gaps::unmodelled_sync(&prep.normalized);
    let alone_flag = if a.checker.raw {
        Some("--raw")
    } else {
        a.checker.alone.then_some("--alone")
    };
    if let Some((name, loc)) = &gap
        && let Some(flag) = alone_flag
    {
        let spot = seqloc::diagnostics::SourceSpot::refusal(
            &prep.normalized.sources,
            *loc,
            format!(
                "`{name}` is not modelled as POSIX specifies by {checker}'s own pthread library, which it would use to search the program (semaphores, read-write locks, spinlocks, mutex types, barriers, pthread_once and detached threads); drop {flag} (the built-in checker then searches and {checker} localizes), or use --checker builtin"
            ),
        );
        return Err(Fail::refusal(
            format!("{}: {}", spot.location(), spot.message),
            Some(&spot),
        ));
    }
    let log = |level: u8, msg: &str| verbose(ctx, level, msg);
    let cfg = external_config(&a.checker, &a.input, framework, templates);
    let mut ext = External::start(cfg, &log).map_err(external_fail)?;
    if let Some((name, loc)) = gap {
        let at = prep
            .normalized
            .sources
            .position(loc)
            .map(|p| format!(" (line {})", p.line))
            .unwrap_or_default();
        let why = format!(
            "{checker}'s own pthread library does not model `{name}`{at} as POSIX specifies, so {checker} did not search the program: seqloc's built-in checker did"
        );
        log(0, &why);
        let mut out = builtin_check(ctx, prep, a, framework)?;
        out.reason = Some(match out.reason.take() {
            Some(r) => format!("{why}; {r}"),
            None => why,
        });
        let info = CheckerInfo {
            name: ext.name().into(),
            version: ext.version_text(),
        };
        return Ok((out, info, Some(ext)));
    }
    let bounds = external_bounds(&a.bounds);
    let out = seqloc::engine::external::check(
        &mut ext,
        prep,
        &a.input.file,
        properties(a.property),
        &bounds,
        framework,
        &log,
    )
    .map_err(external_fail)?;
    let info = CheckerInfo {
        name: ext.name().into(),
        version: ext.version_text(),
    };
    Ok((out, info, Some(ext)))
}

pub fn exit_code(out: &CheckOutcome) -> u8 {
    match out.verdict {
        Verdict::Failure | Verdict::Deadlock => EXIT_FAILURE_FOUND,
        Verdict::NoFailureWithinBounds => EXIT_NO_FAILURE,
        // Whatever stopped the search (a bound, a limit, Ctrl-C), there is no answer, and a
        // script must not read one.
        Verdict::Unknown => EXIT_CHECKER,
    }
}

pub fn run(ctx: &Ctx, a: CheckArgs) -> Result<u8, Fail> {
    let t0 = Instant::now();
    let prog = load(ctx, &a.input)?;
    let prep = Prepared::new(prog);
    let progress =
        super::progress::Progress::start(super::args::output_format(a.format, a.json), ctx.verbose);
    progress.phase("checking: searching for a failing interleaving");
    let (out, info) = run_check(ctx, &prep, &a)?;
    drop(progress);
    let total = t0.elapsed().as_millis() as u64;
    let name = a.input.file.display().to_string();
    if let (Some(path), Some(cex)) = (&a.emit_schedule, &out.counterexample) {
        write_output(
            Some(path),
            &a.input.file,
            &format!("{}\n", cex.schedule.to_json()),
        )?;
    }
    super::artefacts::write_witnesses(
        &a.artefacts,
        &a.input,
        &a.bounds,
        &prep,
        out.counterexample.as_ref(),
    )?;
    let html = || {
        super::artefacts::html_page(
            &a.input.file,
            &prep,
            super::artefacts::Shown {
                verdict: &out.verdict,
                reason: out.reason.as_deref(),
                checker: &info,
                cex: out.counterexample.as_ref(),
                candidates: &[],
                why: vec![],
                orderings: vec![],
            },
        )
    };
    super::artefacts::write_html(&a.artefacts, &a.input.file, html)?;
    let text = match super::args::output_format(a.format, a.json) {
        Format::Html => html(),
        Format::Json => format!(
            "{}\n",
            seqloc::report::check::to_json(&out, &prep.normalized, &name, info, total)
        ),
        Format::Sarif => format!("{}\n", seqloc::report::check::to_sarif(&out, &info)),
        Format::Text => {
            let label = format!("{} checker, {}", info.name, info.version);
            seqloc::report::check::render_text(
                &out,
                &prep.normalized,
                &name,
                &label,
                &Style::for_stdout(ctx.color),
                total,
            )
        }
    };
    write_output(None, &a.input.file, &text)?;
    Ok(exit_code(&out))
}
