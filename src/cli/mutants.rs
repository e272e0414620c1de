//! The mutation evidence of `localize` (`seqloc::mutation`): each mutated copy of the
//! input written beside a private temporary directory, loaded with the input's own
//! preprocessor options, and searched by the explicit-state explorer.

use std::path::PathBuf;
use std::time::{Duration, Instant};

use super::args::InputArgs;
use super::{Ctx, verbose};
use seqloc::cex::Counterexample;
use seqloc::checker::explicit::{ExploreOptions, Explored, explore};
use seqloc::diag::explain::{Candidate, ThreadRef};
use seqloc::ir::index::same_file;
use seqloc::mutation::{self, Answer, Oracle};
use seqloc::passes::Prepared;

/// States the explorer may visit per mutant: a fixed budget, so whether a mutant counts
/// does not depend on the machine's speed. Programs whose every execution fits in it are
/// the small ones the explorer proves in milliseconds.
const STATES: u64 = 200_000;
/// The mutants' time in all when the localization itself was quicker: evidence is only
/// worth so much time.
const MIN_TIME: Duration = Duration::from_secs(2);
/// A mutant's own safety net (the state budget normally ends its search first).
const PER_MUTANT: Duration = Duration::from_secs(5);

struct Explorer<'a> {
    input: &'a InputArgs,
    dir: PathBuf,
    deadline: Instant,
    /// The file and line of the check that failed, when the failure is a check's.
    check: Option<(String, u32)>,
    /// The failure is an unlock of a free mutex: the mutants are checked for that too.
    unlocks: bool,
}

impl Oracle for Explorer<'_> {
    fn check(&mut self, text: &str) -> Option<Answer> {
        let input = super::copy_beside(self.input, &self.dir, text).ok()?;
        // A mutant the front end refuses says nothing.
        let prog = seqloc::frontend::load(&input.file, &super::frontend_options(&input)).ok()?;
        prog.main()?;
        // The check's locations in the mutant: its line in the copy of the input (or in
        // the header that holds it, which the copy includes from the same place).
        let copy = input.file.display().to_string();
        let watch = match &self.check {
            Some((file, line)) => {
                let input_file = self.input.file.display().to_string();
                let is_file = |name: &str| {
                    if same_file(file, &input_file) {
                        name == copy
                    } else {
                        same_file(name, file)
                    }
                };
                prog.sources.on_line(is_file, *line)
            }
            None => Vec::new(),
        };
        let prep = Prepared::new(prog);
        let explore_opts = ExploreOptions {
            deadline: Some((Instant::now() + PER_MUTANT).min(self.deadline)),
            max_states: STATES,
            // A counting proof would not say whether the check still runs.
            counting: watch.is_empty(),
            watch: watch.clone(),
            unlocks: self.unlocks,
            ..ExploreOptions::default()
        };
        let known = !watch.is_empty();
        match explore(&prep.normalized, &prep.shared, &explore_opts, None) {
            Explored::Safe(stats) => Some(Answer::Fixes {
                outcomes: Some(stats.outcomes),
                reaches: known.then_some(stats.watched),
            }),
            // Nothing checked is reachable at all (without counting, the only proof
            // without exploring), or a counting proof: the outcomes were not counted.
            Explored::Unfailing { .. } => Some(Answer::Fixes {
                outcomes: None,
                reaches: known.then_some(false),
            }),
            Explored::Violation { .. } => Some(Answer::Fails),
            Explored::Inconclusive { .. } => None,
        }
    }

    fn expired(&self) -> bool {
        Instant::now() >= self.deadline
    }
}

/// The lines of `file` the failing run executed, (thread, line) in its order: its steps,
/// and the lines its schedule's blocks ran (a lock call's own statements are the model's
/// and show no step).
fn ran_lines(cex: &Counterexample, file: &str) -> Vec<(u32, u32)> {
    let mut out: Vec<(u32, u32)> = cex
        .steps
        .iter()
        .filter(|s| same_file(&s.file, file))
        .map(|s| (s.thread, s.line))
        .collect();
    for b in &cex.schedule.blocks {
        for r in &b.ran {
            let Some((f, l)) = r.rsplit_once(':') else {
                continue;
            };
            let Ok(l) = l.parse::<u32>() else { continue };
            if same_file(f, file) && !out.contains(&(b.thread, l)) {
                out.push((b.thread, l));
            }
        }
    }
    out
}

/// Reorders `cands` by the mutants of the primitives the failing run `cex` called and
/// of the value candidates' lines (see `seqloc::mutation`), within the time the
/// localization took (at least `MIN_TIME`) and before `deadline`. The value mutants are
/// not tried on a deadlock (`values`); `order_independent`: every run with the failing
/// inputs fails, whatever the order (the root causes' finding).
#[allow(clippy::too_many_arguments)]
pub fn rank(
    ctx: &Ctx,
    input: &InputArgs,
    check: Option<(String, u32)>,
    cex: &Counterexample,
    cands: &mut Vec<Candidate>,
    values: bool,
    order_independent: bool,
    localization: Duration,
    deadline: Option<Instant>,
) {
    let t0 = Instant::now();
    let Ok(text) = std::fs::read_to_string(&input.file) else {
        return;
    };
    let Ok(dir) = tempfile::Builder::new().prefix("seqloc-mutant-").tempdir() else {
        verbose(ctx, 1, "mutants: no temporary directory; not tried");
        return;
    };
    let own = t0 + localization.max(MIN_TIME);
    let mut oracle = Explorer {
        input,
        dir: dir.path().to_path_buf(),
        deadline: deadline.map_or(own, |d| d.min(own)),
        check,
        unlocks: cex.violation.kind == seqloc::cex::ViolationKind::Unlock,
    };
    let file = input.file.display().to_string();
    let ran = ran_lines(cex, &file);
    let prim = mutation::primitive_evidence(&text, &ran, &mut oracle);
    let thread = |id: u32| ThreadRef {
        id,
        function: cex
            .schedule
            .threads
            .iter()
            .find(|t| t.id == id)
            .map(|t| t.function.clone())
            .unwrap_or_default(),
    };
    let source = |line: u32| {
        text.lines()
            .nth(line.saturating_sub(1) as usize)
            .map(str::to_string)
    };
    // The candidates name the input as the failing run's steps do.
    let named = cex
        .steps
        .iter()
        .find(|s| same_file(&s.file, &file))
        .map_or_else(|| file.clone(), |s| s.file.clone());
    mutation::apply_primitive_fixes(cands, &prim, &named, &thread, &source, order_independent);
    if prim.checked > 0 {
        verbose(
            ctx,
            1,
            format!(
                "mutants: {} of the primitives checked, a fix on line(s) {:?}{}",
                prim.checked,
                prim.fixes.iter().map(|f| f.mutant.line).collect::<Vec<_>>(),
                if prim.out_of_time {
                    "; the time ran out"
                } else {
                    ""
                }
            ),
        );
    }
    if !values {
        return;
    }
    let ev = mutation::evidence(&text, &file, cands, &mut oracle);
    mutation::apply(cands, &file, &ev);
    verbose(
        ctx,
        1,
        format!(
            "mutants: {} checked on {} lines ({} only kept the check from running), a fix on line(s) {:?}{} ({} ms)",
            ev.checked,
            ev.lines,
            ev.vacuous,
            ev.fixes
                .iter()
                .map(|(line, f)| match f.outcomes {
                    Some(n) => format!("{line} ({n} outcomes)"),
                    None => line.to_string(),
                })
                .collect::<Vec<_>>(),
            if ev.out_of_time {
                "; the time ran out"
            } else if ev.beyond_budget {
                "; the first ones went unanswered within the state budget, the rest were not tried"
            } else {
                ""
            },
            t0.elapsed().as_millis()
        ),
    );
}
