//! A second SMT solver for a slow localization round (ESBMC only).
//!
//! ESBMC's default solver (Bitwuzla in 8.4) answers most rounds in seconds, but a round can
//! be far harder for one solver than for another, and the last round of every localization
//! ("no line is left") is unsatisfiable, the kind of question where the solvers differ most.
//! Measured on `stress/job_struct_wronglock`: rounds 1–6 took Bitwuzla 2–8 s and Boolector
//! 1–40 s; round 7 took Bitwuzla 143 s and 17 GB before it stopped with "Out of memory",
//! and Boolector proved it in 25 s. No single solver is the right default, so a round that
//! has not answered after a while (or whose solver failed) gets a second ESBMC with another
//! solver beside it; the first answer is the round's, the other run is stopped. Rounds that
//! answer in time are untouched, and a user who names a solver (`--checker-arg --z3`) keeps
//! it alone.

use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::{Duration, Instant};

use super::{External, Log};
use crate::checker::external::flags::RunFlags;
use crate::checker::external::process::{self, RunOutput};
use crate::checker::external::{ExternalError, Kind};
use crate::trace::{Outcome, RawTrace};

/// ESBMC's solver flags: one of them among the user's arguments is the user's choice.
const SOLVER_FLAGS: &[&str] = &[
    "--bitwuzla",
    "--boolector",
    "--z3",
    "--cvc",
    "--cvc4",
    "--cvc5",
    "--mathsat",
    "--yices",
    "--smtlib",
];

/// The second solvers, in the order they are preferred: Boolector proved the unsatisfiable
/// rounds Bitwuzla could not; Z3 is in every ESBMC build.
const SECOND: &[&str] = &["boolector", "bitwuzla", "z3"];

/// How a round was answered.
pub(in crate::checker::external) struct Answered {
    pub trace: RawTrace,
    /// The second solver's flag, when its run answered.
    pub second: Option<String>,
}

impl External {
    /// One localization round: the run of `file`, and after `after` without an answer (or
    /// at once, when the run fails without one) a second run with another solver beside it.
    pub(in crate::checker::external) fn run_round(
        &mut self,
        file: &str,
        f: &RunFlags,
        tag: &str,
        after: Duration,
        log: Log,
    ) -> Result<Answered, ExternalError> {
        if !self.may_use_a_second_solver() {
            let (_, trace) = self.run(file, f, tag, None, log)?;
            return Ok(Answered {
                trace,
                second: None,
            });
        }
        let (mut first, first_line) = self.spec(file, f, tag, None, &[])?;
        let stop_first = Arc::new(AtomicBool::new(false));
        first.superseded.push(stop_first.clone());
        log(1, &format!("running: {first_line}"));
        let t0 = Instant::now();
        std::thread::scope(|scope| {
            let first_run = scope.spawn(move || process::run(&first));
            while !first_run.is_finished() && t0.elapsed() < after {
                std::thread::sleep(POLL);
            }
            let mut first_run = Some(first_run);
            let mut first_result = None;
            if let Some(h) = first_run.take_if(|h| h.is_finished()) {
                let r = joined(h).and_then(|out| self.finish(out, first_line.clone(), log));
                if !worth_a_second_solver(&r) {
                    return answered(r, None);
                }
                first_result = Some(r);
            }
            let default = self.default_solver(tag);
            let second = SECOND
                .iter()
                .find(|s| Some(**s) != default.as_deref())
                .map(|s| format!("--{s}"));
            let started = second.as_ref().and_then(|flag| {
                let second_tag = format!("{tag}-{}", flag.trim_start_matches('-'));
                self.spec(file, f, &second_tag, None, std::slice::from_ref(flag))
                    .ok()
                    .map(|(spec, line)| (flag.clone(), spec, line))
            });
            // No second solver, or no time left to start it: the first run's answer.
            let Some((flag, mut second_spec, second_line)) = started else {
                return match (first_result, first_run) {
                    (Some(r), _) => answered(r, None),
                    (None, Some(h)) => answered(
                        joined(h).and_then(|out| self.finish(out, first_line.clone(), log)),
                        None,
                    ),
                    (None, None) => Err(lost()),
                };
            };
            let stop_second = Arc::new(AtomicBool::new(false));
            second_spec.superseded.push(stop_second.clone());
            let default_name = default.unwrap_or_else(|| "its default solver".into());
            let why = match &first_result {
                Some(Err(e)) => format!("{e}"),
                Some(Ok(_)) => "could not decide".into(),
                None => format!("no answer after {:.1} s", after.as_secs_f64()),
            };
            log(
                0,
                &format!(
                    "{tag}: ESBMC with {default_name}: {why}; ESBMC with {flag} runs beside it"
                ),
            );
            log(1, &format!("running: {second_line}"));
            let t1 = Instant::now();
            let mut second_run = Some(scope.spawn(move || process::run(&second_spec)));
            loop {
                if let Some(h) = first_run.take_if(|h| h.is_finished()) {
                    let r = joined(h).and_then(|out| self.finish(out, first_line.clone(), log));
                    // An answer, or an end for both (the time limit, an interruption).
                    if !worth_a_second_solver(&r) {
                        stop_second.store(true, Ordering::SeqCst);
                        if let Some(h) = second_run.take() {
                            let _ = h.join();
                            self.runs += 1;
                        }
                        return answered(r, None);
                    }
                    first_result = Some(r);
                }
                if let Some(h) = second_run.take_if(|h| h.is_finished()) {
                    let r = joined(h).and_then(|out| self.finish(out, second_line.clone(), log));
                    if is_an_answer(&r) {
                        stop_first.store(true, Ordering::SeqCst);
                        if let Some(h) = first_run.take() {
                            let _ = h.join();
                            self.runs += 1;
                        }
                        log(
                            0,
                            &format!(
                                "{tag}: ESBMC with {flag} answered first, in {:.1} s",
                                t1.elapsed().as_secs_f64()
                            ),
                        );
                        return answered(r, Some(flag));
                    }
                    log(
                        1,
                        &format!(
                            "{tag}: ESBMC with {flag} gave no answer ({})",
                            match &r {
                                Err(e) => e.to_string(),
                                Ok(_) => "it could not decide".into(),
                            }
                        ),
                    );
                }
                if first_run.is_none() && second_run.is_none() {
                    // Neither answered: the first run's end is the round's.
                    return match first_result {
                        Some(r) => answered(r, None),
                        None => Err(lost()),
                    };
                }
                std::thread::sleep(POLL);
            }
        })
    }

    /// Whether a round may get a second solver: ESBMC, and no solver of the user's.
    fn may_use_a_second_solver(&self) -> bool {
        self.cfg.kind == Kind::Esbmc
            && !self
                .cfg
                .extra_args
                .iter()
                .any(|a| SOLVER_FLAGS.contains(&a.as_str()))
    }

    /// The solver the round's first run uses: as it printed ("No solver specified;
    /// defaulting to bitwuzla"), else by version (Bitwuzla since ESBMC 8).
    fn default_solver(&self, tag: &str) -> Option<String> {
        let printed = std::fs::read_to_string(self.dir.join(format!("{tag}.stdout")))
            .unwrap_or_default()
            + &std::fs::read_to_string(self.dir.join(format!("{tag}.stderr"))).unwrap_or_default();
        if let Some(s) = named_default(&printed) {
            return Some(s);
        }
        let major: u32 = self
            .version
            .as_deref()?
            .split('.')
            .next()?
            .trim()
            .parse()
            .ok()?;
        (major >= 8).then(|| "bitwuzla".to_string())
    }
}

const POLL: Duration = Duration::from_millis(20);

/// The solver ESBMC says it chose by default.
fn named_default(printed: &str) -> Option<String> {
    printed.lines().find_map(|l| {
        l.trim()
            .strip_prefix("No solver specified; defaulting to ")
            .map(|s| s.trim().to_ascii_lowercase())
    })
}

/// A run that ended without an answer another solver could give: the solver failed, ran
/// out of memory, printed what cannot be read, or could not decide.
fn worth_a_second_solver(r: &Result<(RunOutput, RawTrace), ExternalError>) -> bool {
    match r {
        Ok((_, t)) => matches!(
            t.outcome,
            Outcome::Unknown { .. } | Outcome::Declined { .. }
        ),
        Err(
            ExternalError::Crashed { .. }
            | ExternalError::OutOfMemory { .. }
            | ExternalError::Unreadable { .. },
        ) => true,
        Err(_) => false,
    }
}

/// An answer to the round: a failure (a line) or verification successful (none left).
fn is_an_answer(r: &Result<(RunOutput, RawTrace), ExternalError>) -> bool {
    matches!(r, Ok((_, t)) if matches!(t.outcome, Outcome::Failed | Outcome::Successful))
}

fn answered(
    r: Result<(RunOutput, RawTrace), ExternalError>,
    second: Option<String>,
) -> Result<Answered, ExternalError> {
    r.map(|(_, trace)| Answered { trace, second })
}

fn lost() -> ExternalError {
    ExternalError::Io {
        what: "the round's checker run was lost".into(),
        command: String::new(),
    }
}

fn joined<T>(
    h: std::thread::ScopedJoinHandle<'_, Result<T, ExternalError>>,
) -> Result<T, ExternalError> {
    h.join().unwrap_or_else(|_| {
        Err(ExternalError::Io {
            what: "the thread running the checker panicked".into(),
            command: String::new(),
        })
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_default_solver_is_read_as_esbmc_names_it() {
        let printed = "Parsing diag.round7.c\nNo solver specified; defaulting to bitwuzla\nSolving with solver Bitwuzla 0.9.0\n";
        assert_eq!(named_default(printed).as_deref(), Some("bitwuzla"));
        assert_eq!(
            named_default("No solver specified; defaulting to Z3\n").as_deref(),
            Some("z3")
        );
        assert_eq!(named_default("Unwinding loop 3 iteration 4\n"), None);
        // The second solver is never the one already running.
        let second = SECOND.iter().find(|s| Some(**s) != Some("boolector"));
        assert_eq!(second, Some(&"bitwuzla"));
    }
}
