//! `seqloc check`: search for a failing interleaving.

use std::time::Instant;

use super::args::{BoundArgs, CheckArgs, CheckerKind, Format, PropertyArg};
use super::{
    Ctx, EXIT_CHECKER, EXIT_FAILURE_FOUND, EXIT_NO_FAILURE, Fail, load, timeout, verbose,
    write_output,
};
use seqloc::check::{CheckOptions, CheckOutcome, Prepared, Verdict};
use seqloc::checker::builtin::Properties;
use seqloc::report::check::CheckerInfo;
use seqloc::report::style::Style;

pub fn properties(p: PropertyArg) -> Properties {
    match p {
        PropertyArg::All => Properties {
            assertions: true,
            deadlock: true,
        },
        PropertyArg::UnreachCall => Properties {
            assertions: true,
            deadlock: false,
        },
        PropertyArg::Deadlock => Properties {
            assertions: false,
            deadlock: true,
        },
    }
}

pub fn check_options(b: &BoundArgs, props: Properties, secs: Option<f64>) -> CheckOptions {
    CheckOptions {
        rounds: b.rounds.or(b.context_switches.map(|k| k + 1)),
        max_rounds: b.max_rounds.max(1),
        unwind: b.unwind,
        max_unwind: b.max_unwind.max(1),
        max_threads: b.threads.max(1),
        properties: props,
        timeout: timeout(secs),
        recursion: b.recursion.max(1),
    }
}

pub fn builtin_info() -> CheckerInfo {
    CheckerInfo {
        name: "builtin".into(),
        version: format!(
            "seqloc {} with {}",
            env!("CARGO_PKG_VERSION"),
            z3::full_version()
        ),
    }
}

/// Runs the search with the chosen checker.
pub fn run_check(
    ctx: &Ctx,
    prep: &Prepared,
    a: &CheckArgs,
) -> Result<(CheckOutcome, CheckerInfo), Fail> {
    let props = properties(a.property);
    match a.checker.checker {
        CheckerKind::Builtin => {
            let opts = check_options(&a.bounds, props, a.checker.timeout);
            let out = seqloc::check::check(prep, &opts)?;
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
            Ok((out, builtin_info()))
        }
        CheckerKind::Esbmc | CheckerKind::Cbmc => seqloc_external(ctx, prep, a),
    }
}

fn seqloc_external(
    ctx: &Ctx,
    prep: &Prepared,
    a: &CheckArgs,
) -> Result<(CheckOutcome, CheckerInfo), Fail> {
    let _ = (ctx, prep, a);
    Err(Fail::checker(
        "the external checker adapters are not wired into `check` yet",
    ))
}

pub fn exit_code(out: &CheckOutcome) -> u8 {
    match out.verdict {
        Verdict::Failure | Verdict::Deadlock => EXIT_FAILURE_FOUND,
        Verdict::NoFailureWithinBounds => EXIT_NO_FAILURE,
        Verdict::Unknown if out.limit_reached => EXIT_CHECKER,
        Verdict::Unknown => EXIT_NO_FAILURE,
    }
}

pub fn run(ctx: &Ctx, a: CheckArgs) -> Result<u8, Fail> {
    let t0 = Instant::now();
    let prog = load(ctx, &a.input)?;
    let prep = Prepared::new(prog);
    let (out, info) = run_check(ctx, &prep, &a)?;
    let total = t0.elapsed().as_millis() as u64;
    let name = a.input.file.display().to_string();
    if let (Some(path), Some(cex)) = (&a.emit_schedule, &out.counterexample) {
        write_output(
            Some(path),
            &a.input.file,
            &format!("{}\n", cex.schedule.to_json()),
        )?;
    }
    let json = a.json || a.format == Format::Json;
    let text = if json {
        format!(
            "{}\n",
            seqloc::report::check::to_json(&out, &name, info, total)
        )
    } else {
        let label = format!("{} checker, {}", info.name, info.version);
        seqloc::report::check::render_text(
            &out,
            &prep.normalized,
            &name,
            &label,
            &Style::for_stdout(ctx.color),
            total,
        )
    };
    write_output(None, &a.input.file, &text)?;
    Ok(exit_code(&out))
}
