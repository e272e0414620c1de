//! `seqloc repair`: localize, propose repairs from what the localization found, and keep
//! those whose patched program checks clean with the same checker and bounds.

use std::path::{Path, PathBuf};
use std::time::{Duration, Instant};

use super::args::CheckerKind;
use super::args::{CheckArgs, Format, InputArgs, LocalizeArgs, PropertyArg, RepairArgs};
use super::cmd_localize::{Found, Run, localize_run};
use super::{Ctx, EXIT_BAD_INPUT, Fail, load, timeout, verbose, write_output};
use seqloc::checker::explicit::{ExploreOptions, Explored, explore};
use seqloc::engine::check::Verdict;
use seqloc::engine::localize::Localized;
use seqloc::passes::Prepared;
use seqloc::repair::{self, Sites, Source, Verification, Verifier, cover};
use seqloc::report::repair::{RepairReport, RepairTimes};
use seqloc::report::style::Style;
use seqloc::rootcause::causes::{Access, CauseOrdering, RootCause};

pub fn run(ctx: &Ctx, a: RepairArgs) -> Result<u8, Fail> {
    let t0 = Instant::now();
    let format = super::args::output_format(a.format.into(), a.json);
    // Refused before the work, not after it.
    if let Some(p) = &a.write_patch {
        if super::same_file(p, &a.input.file) {
            return Err(Fail::input(format!(
                "refusing to write the patch to {}: it is the input file (seqloc never modifies it)",
                p.display()
            )));
        }
    }
    let text = std::fs::read_to_string(&a.input.file)
        .map_err(|e| Fail::input(format!("cannot read {}: {e}", a.input.file.display())))?;
    let la = localize_args(&a, a.input.clone());
    let run = localize_run(ctx, &la)?;
    let searched = match &run.found {
        // Cut short before any candidate: nothing to repair from (exit 3 says why).
        Found::NoFailure(_) | Found::Cut { .. } => None,
        Found::Localized { localized, .. } => Some(search_repairs(ctx, &a, &text, localized, t0)?),
    };
    let outcome = searched.as_ref().map(|(o, _)| o);
    let patch_file = match (&a.write_patch, outcome.and_then(|o| o.verified.first())) {
        (Some(p), Some(first)) => {
            write_output(Some(p), &a.input.file, &first.diff)?;
            Some(p.display().to_string())
        }
        _ => None,
    };
    let report = RepairReport {
        program: a.input.file.display().to_string(),
        localize: serde_json::from_str(&seqloc::report::localize::to_json(&run.report()))
            .unwrap_or(serde_json::Value::Null),
        outcome,
        patch_file,
        time_ms: RepairTimes {
            total: t0.elapsed().as_millis() as u64,
            rechecks: searched.as_ref().map_or(0, |(_, ms)| *ms),
        },
    };
    print(ctx, &a, format, &report, &run, &text)?;
    // No verified repair because the time ran out is no answer to "is there one?".
    if outcome.is_some_and(|o| o.verified.is_empty() && o.out_of_time) {
        return Ok(super::EXIT_CHECKER);
    }
    Ok(run.exit_code())
}

/// The proposals for a localized failure, re-checked until one verifies; and how long the
/// re-checks took.
fn search_repairs(
    ctx: &Ctx,
    a: &RepairArgs,
    text: &str,
    localized: &Localized,
    t0: Instant,
) -> Result<(repair::Outcome, u64), Fail> {
    let src = Source::parse(text).map_err(|e| Fail::input(e.to_string()))?;
    let sites = sites(localized, &a.input.file);
    let proposals = repair::actions::propose(&src, &sites);
    verbose(
        ctx,
        1,
        format!(
            "repair: {} proposals from candidate lines {:?}",
            proposals.len(),
            sites.ranked
        ),
    );
    let dir = tempfile::Builder::new()
        .prefix("seqloc-repair-")
        .tempdir()
        .map_err(|e| Fail::checker(format!("cannot make a temporary directory: {e}")))?;
    let mut v = Recheck {
        ctx,
        a,
        dir: dir.path(),
        deadline: timeout(a.checker.time_limit()).map(|t| t0 + t),
        per: Duration::from_secs_f64(a.verify_timeout.max(1.0)),
    };
    let t = Instant::now();
    let path = diff_path(&a.input.file);
    let want = a.repairs as usize;
    // A deadlock's root causes are orderings of lock calls, which only the locks'
    // semantics make contradictory: the kill sets read data orderings (see
    // `repair::cover`), so a deadlock's repairs keep the ordinary order (lock orders and
    // releases first, drawn from the wait-for cycle).
    let causes = localized
        .causes
        .as_ref()
        .filter(|rc| !rc.causes.is_empty() && !sites.deadlock);
    let total = proposals.len();
    // A primitive's kind or count the ranking already found fixing (its mutants, see
    // `seqloc::mutation::primitives`) is the one-word repair: tried before any cover.
    let (first, proposals): (Vec<_>, Vec<_>) = proposals.into_iter().partition(|p| {
        matches!(&p.action, repair::actions::Action::Primitive { line, .. }
            | repair::actions::Action::Condition { line, .. }
            if p.tier == repair::actions::primitives::PRIMITIVE_TIER
                && sites.ranked.iter().take(3).any(|l| l == line))
    });
    let mut outcome = repair::search(&src, &path, first, want, &mut v);
    let (found, rest, made) = match causes {
        _ if outcome.verified.len() >= want.max(1) || outcome.out_of_time => {
            (repair::Outcome::default(), vec![], 0)
        }
        Some(rc) => {
            let input = |f: &str| names_input(f, &a.input.file);
            let c = cover::search_covered(
                &src,
                &path,
                proposals,
                rc.causes.clone(),
                &input,
                want,
                &mut v,
            );
            (c.outcome, c.rest, c.made)
        }
        None => (repair::Outcome::default(), proposals, 0),
    };
    // What the covers were chosen against is theirs to say (`absorb` adds up the work).
    let (root_causes, uncovered) = (found.root_causes, found.uncovered.clone());
    outcome.absorb(found);
    outcome.root_causes = root_causes;
    outcome.uncovered = uncovered;
    if outcome.verified.len() < want.max(1) && !outcome.out_of_time {
        outcome.absorb(repair::search(&src, &path, rest, want, &mut v));
    }
    // Every proposal once, and each cover made of several.
    outcome.proposed = total + made;
    if outcome.verified.is_empty() && !outcome.out_of_time {
        second_round(ctx, a, &src, &mut outcome, &mut v);
    }
    for n in &outcome.notes {
        verbose(ctx, 1, format!("repair: {n}"));
    }
    for d in &outcome.dropped {
        verbose(ctx, 1, format!("repair dropped: {} — {}", d.summary, d.why));
    }
    Ok((outcome, t.elapsed().as_millis() as u64))
}

/// The localization `repair` runs, on `input`.
fn localize_args(a: &RepairArgs, input: InputArgs) -> LocalizeArgs {
    LocalizeArgs {
        input,
        checker: a.checker.clone(),
        bounds: a.bounds.clone(),
        property: a.property,
        schedule: None,
        faults: 1,
        max_candidates: None,
        // The covering chooses against them (`repair::cover`); their search keeps to its
        // own time limit.
        root_causes: ROOT_CAUSES,
        root_cause_time: None,
        no_mutants: false,
        format: Format::Json,
        json: false,
        emit_sequential: None,
        emit_instrumented: None,
        artefacts: Default::default(),
        rules: None,
        templates: None,
        repair: false,
    }
}

/// Root causes asked of the localization a repair is chosen against.
const ROOT_CAUSES: u32 = 6;

/// A patched copy written to `dir` under the input's name, as an input whose `#include
/// "…"` still finds the original's neighbours.
fn patched_input(a: &RepairArgs, dir: &Path, patched: &str) -> Result<InputArgs, String> {
    super::copy_beside(&a.input, dir, patched)
        .map_err(|e| format!("cannot write the patched program: {e}"))
}

/// How many of the proposals whose patched program still failed are localized again.
const SECOND_ROUND: usize = 2;

/// No proposal verified: the cheapest ones that left a failure (not a deadlock they
/// made) may have removed one of two faults. Each patched program is localized again and
/// the proposals for what is left are tried on top.
fn second_round(
    ctx: &Ctx,
    a: &RepairArgs,
    src: &Source,
    outcome: &mut repair::Outcome,
    v: &mut Recheck,
) {
    let firsts: Vec<(repair::Proposal, String)> = outcome
        .dropped
        .iter()
        .filter_map(|d| d.still_fails.clone())
        .take(SECOND_ROUND)
        .collect();
    let path = diff_path(&a.input.file);
    for (first, patched) in firsts {
        if v.expired() {
            outcome.out_of_time = true;
            break;
        }
        let Ok(input) = patched_input(a, v.dir, &patched) else {
            continue;
        };
        let file = input.file.clone();
        // The second step tries every proposal as it comes: no covering, no root causes.
        let la = LocalizeArgs {
            root_causes: 0,
            ..localize_args(a, input)
        };
        let run = match localize_run(ctx, &la) {
            Ok(r) => r,
            Err(f) => {
                verbose(
                    ctx,
                    1,
                    format!("repair: after `{}`: {}", first.summary, f.message),
                );
                continue;
            }
        };
        let Found::Localized { localized, .. } = &run.found else {
            continue;
        };
        let Ok(src2) = Source::parse(&patched) else {
            continue;
        };
        let props = repair::actions::propose(&src2, &sites(localized, &file));
        verbose(
            ctx,
            1,
            format!(
                "repair: {} proposals on top of `{}`",
                props.len(),
                first.summary
            ),
        );
        let o2 = repair::search(&src2, &path, props, a.repairs as usize, v);
        outcome.proposed += o2.proposed;
        outcome.checked += o2.checked;
        outcome.out_of_time |= o2.out_of_time;
        outcome
            .dropped
            .extend(o2.dropped.into_iter().map(|d| repair::Dropped {
                summary: format!("{}; and then {}", first.summary, d.summary),
                why: d.why,
                still_fails: None,
            }));
        for then in o2.verified {
            outcome
                .verified
                .push(repair::combine(src, &path, &first, then));
        }
        if !outcome.verified.is_empty() {
            break;
        }
    }
}

fn print(
    ctx: &Ctx,
    a: &RepairArgs,
    format: Format,
    report: &RepairReport,
    run: &Run,
    source: &str,
) -> Result<(), Fail> {
    let text = match format {
        Format::Json => format!("{}\n", seqloc::report::repair::to_json(report)),
        Format::Sarif => format!(
            "{}\n",
            seqloc::report::repair::to_sarif(
                &seqloc::report::localize::to_sarif(&run.report()),
                report,
                source,
                &seqloc::report::localize::sarif_uri(&report.program)
            )
        ),
        _ => format!(
            "{}{}",
            seqloc::report::localize::render_text(
                &run.report(),
                &run.prep.normalized,
                &Style::for_stdout(ctx.color),
            ),
            seqloc::report::repair::render_text(report, &Style::for_stdout(ctx.color))
        ),
    };
    write_output(None, &a.input.file, &text)
}

/// The path the patch names: as given when relative (so `git apply` and `patch -p1` work
/// from the directory it is relative to), the file name when absolute.
fn diff_path(p: &Path) -> String {
    if p.is_relative() {
        p.components()
            .filter(|c| !matches!(c, std::path::Component::CurDir))
            .collect::<PathBuf>()
            .display()
            .to_string()
    } else {
        p.file_name()
            .map(|n| n.to_string_lossy().into_owned())
            .unwrap_or_default()
    }
}

/// Whether a file name from the localization (a candidate's, an event's) is the input:
/// by path, by canonical path, or — for a name the localization shortened — by file name.
fn names_input(a: &str, input: &Path) -> bool {
    let a = Path::new(a);
    if a == input {
        return true;
    }
    match (std::fs::canonicalize(a), std::fs::canonicalize(input)) {
        (Ok(x), Ok(y)) => x == y,
        _ => a.file_name().is_some() && a.file_name() == input.file_name(),
    }
}

/// The localization's lines in the input file: candidates in rank order, and the
/// projection's inter-thread flows.
fn sites(l: &Localized, input: &Path) -> Sites {
    let mut ranked = Vec::new();
    for c in &l.candidates {
        if names_input(&c.file, input) && !ranked.contains(&c.line) {
            ranked.push(c.line);
        }
    }
    let mut flows = Vec::new();
    let mut orders = Vec::new();
    if let Some(why) = &l.why {
        for f in why.projection.iter().filter(|f| f.inter_thread()) {
            if !names_input(&f.read.file, input) {
                continue;
            }
            let writes = [&f.failing, &f.passing]
                .into_iter()
                .flatten()
                .filter(|w| names_input(&w.file, input))
                .map(|w| w.line)
                .collect();
            flows.push((f.read.line, writes));
            if let Some(w) = f
                .passing
                .as_ref()
                .filter(|w| w.thread != f.read.thread && names_input(&w.file, input))
            {
                orders.push((w.line, f.read.line));
            }
        }
    }
    let fixed = l
        .candidates
        .iter()
        .filter(|c| c.fixed_by.is_some() && names_input(&c.file, input))
        .map(|c| c.line)
        .collect();
    Sites {
        ranked,
        flows,
        orders,
        fixed,
        deadlock: l.cex.violation.kind == seqloc::cex::ViolationKind::Deadlock,
    }
}

/// How long the explorer alone may look for a patched program's failure before the whole
/// check runs.
const QUICK_REJECT: Duration = Duration::from_secs(5);

/// Re-checks a patched program as `seqloc check` would, with the user's checker and
/// bounds, assertions and deadlocks both.
struct Recheck<'a> {
    ctx: &'a Ctx,
    a: &'a RepairArgs,
    dir: &'a Path,
    deadline: Option<Instant>,
    per: Duration,
}

impl Verifier for Recheck<'_> {
    fn verify(&mut self, patched: &str) -> Verification {
        let input = match patched_input(self.a, self.dir, patched) {
            Ok(i) => i,
            Err(e) => return Verification::Unknown(e),
        };
        let file = input.file.clone();
        let prog = match load(self.ctx, &input) {
            Ok(p) => p,
            Err(f) => {
                return Verification::Fails(format!(
                    "the patched program does not load: {}",
                    f.message
                ));
            }
        };
        let prep = Prepared::new(prog);
        let left = self
            .deadline
            .map(|d| d.saturating_duration_since(Instant::now()));
        let budget = left.map_or(self.per, |l| l.min(self.per));
        // Most proposals fail, and the explicit-state explorer finds their failure in
        // milliseconds where the bounded search (which `check` waits for, to report the
        // fewest context switches) takes seconds. Only a rejection is taken from it: a
        // proposal is accepted by the whole check alone.
        if self.a.checker.checker == CheckerKind::Builtin && !self.a.bounds.no_explore {
            let opts = ExploreOptions {
                deadline: Some(Instant::now() + budget.min(QUICK_REJECT)),
                // The whole check below looks for every property.
                unlocks: true,
                ..ExploreOptions::default()
            };
            if let Explored::Violation { loc, deadlock, .. } =
                explore(&prep.normalized, &prep.shared, &opts, None)
            {
                let line = prep
                    .normalized
                    .sources
                    .position(loc)
                    .map_or_else(|| "?".to_string(), |p| p.line.to_string());
                return Verification::Fails(format!(
                    "the patched program {} at line {line} (explicit-state search)",
                    if deadlock { "deadlocks" } else { "fails" }
                ));
            }
        }
        let secs = budget.as_secs_f64();
        let check = CheckArgs {
            input,
            checker: super::args::CheckerArgs {
                timeout: Some(secs.max(0.5)),
                ..self.a.checker.clone()
            },
            bounds: self.a.bounds.clone(),
            property: PropertyArg::All,
            format: Format::Text,
            json: false,
            emit_schedule: None,
            artefacts: Default::default(),
            fewest_rounds: false,
            explorer_after: None,
        };
        match super::cmd_check::run_check(self.ctx, &prep, &check) {
            Err(f) if f.code == EXIT_BAD_INPUT => {
                Verification::Fails(format!("the patched program is refused: {}", f.message))
            }
            Err(f) => Verification::Unknown(f.message),
            Ok((out, _)) => match out.verdict {
                Verdict::NoFailureWithinBounds => Verification::Holds {
                    exhaustive: out.exhaustive(),
                    reach: if out.exhaustive() {
                        "no failure or deadlock in any execution".into()
                    } else {
                        format!(
                            "no failure or deadlock within {} rounds and unwinding {}",
                            out.bounds.rounds, out.bounds.unwind
                        )
                    },
                },
                Verdict::Failure | Verdict::Deadlock => Verification::Fails(
                    out.counterexample
                        .as_ref()
                        .map(|c| {
                            format!(
                                "the patched program fails: {}",
                                c.violation
                                    .describe()
                                    .replace(&file.display().to_string(), "the patched file")
                            )
                        })
                        .unwrap_or_else(|| "the patched program fails".into()),
                ),
                Verdict::Unknown => Verification::Unknown(format!(
                    "no answer: {}",
                    out.reason.as_deref().unwrap_or("unknown")
                )),
            },
        }
    }

    fn expired(&self) -> bool {
        self.deadline.is_some_and(|d| Instant::now() >= d)
    }

    fn root_causes(&mut self, patched: &str) -> Vec<RootCause> {
        let Ok(input) = patched_input(self.a, self.dir, patched) else {
            return vec![];
        };
        let file = input.file.clone();
        let run = match localize_run(self.ctx, &localize_args(self.a, input)) {
            Ok(r) => r,
            Err(f) => {
                verbose(
                    self.ctx,
                    1,
                    format!("repair: the cover's patched program: {}", f.message),
                );
                return vec![];
            }
        };
        let Found::Localized { localized, .. } = &run.found else {
            return vec![];
        };
        if localized.cex.violation.kind == seqloc::cex::ViolationKind::Deadlock {
            return vec![];
        }
        let original = self.a.input.file.display().to_string();
        let in_patched = |x: &Access| names_input(&x.file, &file);
        let renamed = |x: &Access| Access {
            file: original.clone(),
            ..x.clone()
        };
        localized
            .causes
            .iter()
            .flat_map(|rc| &rc.causes)
            .filter(|c| {
                c.orderings
                    .iter()
                    .all(|o| in_patched(&o.before) && in_patched(&o.after))
            })
            .map(|c| RootCause {
                orderings: c
                    .orderings
                    .iter()
                    .map(|o| CauseOrdering {
                        before: renamed(&o.before),
                        after: renamed(&o.after),
                    })
                    .collect(),
                ..c.clone()
            })
            .collect()
    }
}
