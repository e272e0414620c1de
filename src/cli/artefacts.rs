//! Files written beside a `check` or `localize` report: violation witnesses
//! (`--witness`, `--witness-yaml`) and the HTML report (`--html`). The formats live in the
//! library (`seqloc::witness`, `seqloc::report::html`); this file reads the options,
//! replays a YAML witness read back before writing it (the one check that joins the
//! witness formats and the replay engine), and writes the files.

use std::path::{Path, PathBuf};

use clap::Args;

use super::args::{BoundArgs, DataModelArg, InputArgs};
use super::{Fail, write_output};
use seqloc::cex::Counterexample;
use seqloc::engine::replay::{ReplayBounds, Replayer};
use seqloc::instrument::Target;
use seqloc::passes::Prepared;
use seqloc::witness::{Arch, Meta, WitnessError};

#[derive(Args, Debug, Clone, Default)]
pub struct ArtefactArgs {
    /// Write a GraphML violation witness (SV-COMP format 1.0, with thread ids and switch
    /// points) of the failure to FILE; `--schedule FILE` replays it
    #[arg(long, value_name = "FILE")]
    pub witness: Option<PathBuf>,
    /// Write a YAML violation witness (format 2.2: context switches with thread ids, thread
    /// creations, input values, the failing check) of an assertion or reach_error failure
    /// to FILE; `--schedule FILE` replays it
    #[arg(long, value_name = "FILE")]
    pub witness_yaml: Option<PathBuf>,
    /// The property file (.prp) whose text the witnesses give as their specification
    /// (default: unreach-call, or seqloc's no-deadlock property for a deadlock)
    #[arg(long, value_name = "FILE")]
    pub witness_spec: Option<PathBuf>,
    /// Also write the report as one self-contained HTML page to FILE
    #[arg(long, value_name = "FILE")]
    pub html: Option<PathBuf>,
}

fn witness_fail(e: WitnessError) -> Fail {
    Fail::input(e.to_string())
}

/// Writes the witnesses asked for, of `cex` (none when there was no failure: then a
/// note on stderr says so and no file is written).
pub fn write_witnesses(
    a: &ArtefactArgs,
    input: &InputArgs,
    bounds: &BoundArgs,
    prep: &Prepared,
    cex: Option<&Counterexample>,
) -> Result<(), Fail> {
    if a.witness.is_none() && a.witness_yaml.is_none() {
        return Ok(());
    }
    let Some(cex) = cex else {
        eprintln!("note: no violation witness written: no failure was found");
        return Ok(());
    };
    let spec =
        match &a.witness_spec {
            Some(p) => Some(std::fs::read_to_string(p).map_err(|e| {
                Fail::input(format!("cannot read property file {}: {e}", p.display()))
            })?),
            None => None,
        };
    let arch = match input.data_model {
        DataModelArg::Ilp32 => Arch::Bits32,
        DataModelArg::Lp64 => Arch::Bits64,
    };
    let meta = Meta::new(&input.file, cex, arch, spec.as_deref()).map_err(witness_fail)?;
    if let Some(p) = &a.witness {
        match seqloc::witness::graphml::write(cex, &prep.index, &meta) {
            Ok(text) => write_output(Some(p), &input.file, &text)?,
            // The verdict stands without its witness: say why there is none.
            Err(e @ WitnessError::NotCovered { .. }) => eprintln!("warning: {e}"),
            Err(e) => return Err(witness_fail(e)),
        }
    }
    if let Some(p) = &a.witness_yaml {
        let source = std::fs::read_to_string(&input.file).unwrap_or_default();
        let written = seqloc::witness::yaml::write(
            cex,
            &prep.normalized,
            &prep.shared,
            &prep.index,
            &meta,
            &source,
        )
            .and_then(|text| {
                yaml_replays(&text, prep, cex, bounds)
                    .map(|()| text)
                    .map_err(|reason| WitnessError::NotCovered {
                        format: "YAML 2.2",
                        reason: format!(
                            "read as its validators read it, the witness does not replay to the failure: {reason}"
                        ),
                    })
            });
        match written {
            Ok(text) => write_output(Some(p), &input.file, &text)?,
            // A failure the format cannot describe is no error of the run: say so.
            Err(e @ WitnessError::NotCovered { .. }) => eprintln!("note: {e}"),
            Err(e) => return Err(witness_fail(e)),
        }
    }
    Ok(())
}

/// Checks a YAML witness before it is written: read back as its validators read it (a
/// thread preempted for good is not held, a switch falls before the first statement of a
/// line), it must replay to the failure, or it is no witness of it.
fn yaml_replays(
    text: &str,
    prep: &Prepared,
    cex: &Counterexample,
    bounds: &BoundArgs,
) -> Result<(), String> {
    let (schedule, _) =
        seqloc::witness::yaml::read(text, "the witness").map_err(|e| e.to_string())?;
    let resolved = schedule
        .resolve(&prep.normalized, &prep.index)
        .map_err(|e| e.to_string())?;
    let framework = seqloc::seq::Framework::builtin();
    let replayer = Replayer {
        prep,
        framework: &framework,
        bounds: ReplayBounds {
            unwind: seqloc::witness::loop_bound(&cex.steps, &cex.schedule),
            max_threads: bounds.threads(),
            recursion: bounds.recursion.max(1),
        },
        target: Target::Failure,
        deadline: Some(std::time::Instant::now() + YAML_CHECK_TIME),
    };
    match replayer.reproduces(&resolved) {
        Ok(true) => Ok(()),
        Ok(false) => Err(format!(
            "not every run along it fails ({})",
            schedule.compact()
        )),
        Err(e) => Err(e.to_string()),
    }
}

/// The most time the replay that checks a YAML witness may take.
const YAML_CHECK_TIME: std::time::Duration = std::time::Duration::from_secs(60);

/// Writes `html` to the `--html` file, when one was asked for.
pub fn write_html(
    a: &ArtefactArgs,
    input: &Path,
    html: impl FnOnce() -> String,
) -> Result<(), Fail> {
    match &a.html {
        Some(p) => write_output(Some(p), input, &html()),
        None => Ok(()),
    }
}

/// What a `check` or `localize` result shows on its HTML page.
pub struct Shown<'a> {
    pub verdict: &'a seqloc::engine::check::Verdict,
    pub reason: Option<&'a str>,
    pub checker: &'a seqloc::report::check::CheckerInfo,
    pub cex: Option<&'a Counterexample>,
    pub candidates: &'a [seqloc::diag::explain::Candidate],
    /// Why it fails, in lines (`localize`); empty otherwise.
    pub why: Vec<String>,
    /// The root causes' orderings, drawn between the lanes (`localize`); empty otherwise.
    pub orderings: Vec<seqloc::report::html::OrderingArrow>,
}

/// The HTML page of a `check` or `localize` result.
pub fn html_page(program: &Path, prep: &Prepared, shown: Shown) -> String {
    let Shown {
        verdict,
        reason,
        checker,
        cex,
        candidates,
        why,
        orderings,
    } = shown;
    let source = std::fs::read_to_string(program).unwrap_or_default();
    let mut shared: Vec<String> = prep
        .shared
        .vars
        .iter()
        .map(|v| prep.normalized.var(*v).name.clone())
        .collect();
    shared.sort();
    shared.dedup();
    let verdict = seqloc::report::json::verdict(*verdict).to_string();
    let headline = match (cex, reason) {
        (Some(c), _) => c.violation.describe(),
        (None, Some(r)) => r.to_string(),
        (None, None) => "no failure found".into(),
    };
    let program_name = program.display().to_string();
    seqloc::report::html::render(&seqloc::report::html::Page {
        program: &program_name,
        source: &source,
        verdict: &verdict,
        headline,
        checker: format!("{} ({})", checker.name, checker.version),
        cex,
        candidates,
        shared,
        why,
        orderings,
    })
}
