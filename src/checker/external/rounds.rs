//! The localization's question on ESBMC or CBMC: the diagnosis model printed in the
//! checker's dialect with `assume(diag != k)` for every line found before, one run per
//! question. A counterexample's value of `diag` names the next line; "verification
//! successful" means no line is left.

use std::time::{Duration, Instant};

use super::ExternalError;
use super::driver::{External, Log};
use super::flags::RunFlags;
use super::mapping::LineMap;
use crate::checker::builtin::{Limit, Stats};
use crate::checker::oracle::{Answered, Next, Oracle, OracleError, Stop};
use crate::instrument::Instrumented;
use crate::ir::{Program, Stmt, StmtId, StmtKind};
use crate::trace::{self, Outcome, RawTrace};

/// An external checker asked the localization's questions, one line at a time.
pub struct Rounds<'a> {
    ext: &'a mut External,
    ins: &'a Instrumented,
    diag_var: crate::ir::VarId,
    diag_name: String,
    /// The framework's loop runs once per block; two spare iterations keep the unwinding
    /// assertion from firing on its exit test.
    unwind: u32,
    round: u32,
    /// The checker's processes started before the first round: a round with a second
    /// solver beside it is two runs.
    runs_before: u32,
    /// The longest round answered so far: a round three times as long, and at least
    /// [`SECOND_SOLVER_AFTER`], gets a second solver beside it.
    slowest: Duration,
    stats: Stats,
    log: Log<'a>,
}

/// The least time a round runs alone before a second solver joins it: most rounds answer
/// in a few seconds, and a second process is not free on a machine with two cores.
const SECOND_SOLVER_AFTER: Duration = Duration::from_secs(10);

impl<'a> Rounds<'a> {
    /// `steps`: the blocks of the sequential program the model instruments.
    pub fn new(
        ext: &'a mut External,
        ins: &'a Instrumented,
        steps: u32,
        log: Log<'a>,
    ) -> Result<Rounds<'a>, OracleError> {
        let Some(&diag_var) = ins.diag_vars.first() else {
            return Err(ExternalError::Print {
                checker: ext.name().into(),
                reason: "the diagnosis model has no diag variable".into(),
            }
            .into());
        };
        let diag_name = ins.program.var(diag_var).name.clone();
        let runs_before = ext.runs;
        Ok(Rounds {
            runs_before,
            ext,
            ins,
            diag_var,
            diag_name,
            unwind: steps + 2,
            round: 0,
            slowest: Duration::ZERO,
            stats: Stats::default(),
            log,
        })
    }

    fn unreadable(&self, reason: String) -> OracleError {
        ExternalError::Unreadable {
            checker: self.ext.name().into(),
            reason,
            command: String::new(),
            tail: vec![],
        }
        .into()
    }
}

impl Oracle for Rounds<'_> {
    /// One diag variable: sets of several lines need the shape constraints only the
    /// built-in checker's loop adds.
    fn max_set(&self) -> usize {
        1
    }

    fn next(&mut self, _size: usize, excluded: &[Vec<u32>]) -> Result<Next, OracleError> {
        let excluded: Vec<u32> = excluded.iter().flatten().copied().collect();
        self.round += 1;
        let round = self.round;
        let prog = with_exclusions(&self.ins.program, self.diag_var, &excluded);
        let name = format!("diag.round{round}.c");
        let map = self.ext.write_program(&prog, &name, None)?;
        let f = RunFlags {
            context_bound: None,
            unwind: self.unwind,
            deadlock_check: false,
            sequential: true,
        };
        let t = Instant::now();
        let after = SECOND_SOLVER_AFTER.max(self.slowest * 3);
        let result = self
            .ext
            .run_round(&name, &f, &format!("round{round}"), after, self.log);
        self.stats.solver_calls += 1;
        let (trace, second) = match result {
            Ok(a) => {
                self.slowest = self.slowest.max(t.elapsed());
                (a.trace, a.second)
            }
            Err(ExternalError::Timeout { .. }) => {
                return Ok(Next::Stopped(Stop::Limit(Limit::Time)));
            }
            Err(ExternalError::Interrupted { .. }) => {
                return Ok(Next::Stopped(Stop::Limit(Limit::Interrupted)));
            }
            // After the first round the candidates found are the checker's answers to
            // programs it ran: a later run that fails (ESBMC's solver out of memory on
            // `stress/job_struct_wronglock` in round 7) ends the loop with them listed, the
            // command and its last lines in the reason, rather than losing them to an error.
            Err(e @ ExternalError::OutOfMemory { .. }) if round > 1 => {
                (self.log)(0, &format!("round {round}: {e}"));
                return Ok(Next::Stopped(Stop::Limit(Limit::Memory)));
            }
            Err(e @ (ExternalError::Crashed { .. } | ExternalError::Unreadable { .. }))
                if round > 1 =>
            {
                let tail = e.tail().join(" | ");
                return Ok(Next::Stopped(Stop::Undecided(format!(
                    "{e} in round {round}, after the candidates listed (command: {}; its last lines: {tail})",
                    e.command().unwrap_or_default()
                ))));
            }
            Err(e) => return Err(e.into()),
        };
        self.stats.solve_ms += t.elapsed().as_millis() as u64;
        let label = self.ext.kind().label();
        let by = second
            .map(|flag| format!(", answered by {label} with {flag}"))
            .unwrap_or_default();
        match &trace.outcome {
            Outcome::Successful => {
                (self.log)(
                    0,
                    &format!(
                        "round {round}: no more candidates ({} ms{by})",
                        t.elapsed().as_millis()
                    ),
                );
                return Ok(Next::Exhausted);
            }
            Outcome::Unknown { reason } | Outcome::Declined { reason } => {
                return Ok(Next::Stopped(Stop::Undecided(format!(
                    "{label} could not decide round {round}: {reason}"
                ))));
            }
            Outcome::Failed => {}
        }
        if let Some(v) = &trace.violation
            && v.kind == trace::ViolationKind::UnwindingAssertion
        {
            return Err(self.unreadable(format!(
                "round {round} hit an unwinding assertion with --unwind {} ({}); the instrumented program should be loop-free",
                self.unwind, v.message
            )));
        }
        let diag_name = &self.diag_name;
        let Some(key) = diag_value(&trace, diag_name) else {
            return Err(self.unreadable(format!(
                "round {round}: the counterexample assigns no value to `{diag_name}`"
            )));
        };
        if !self.ins.lines.contains_key(&key) || excluded.contains(&key) {
            // With no line (or an excluded one) selected the model cannot pass: it was
            // validated with the built-in checker. A checker that says otherwise
            // disagrees with seqloc's semantics of the program.
            return Err(self.unreadable(format!(
                "round {round}: {label} passed the diagnosis model with `{diag_name} = {key}`, which selects no instrumented line; it disagrees with the replay seqloc validated"
            )));
        }
        let line = self
            .ins
            .line(key)
            .map(|l| format!("{}:{}", crate::seq::schedule::short_file(&l.file), l.line))
            .unwrap_or_else(|| key.to_string());
        (self.log)(
            0,
            &format!(
                "round {round}: {diag_name} = {key} ({line}) in {} ms{by}",
                t.elapsed().as_millis()
            ),
        );
        Ok(Next::Found(Answered {
            set: vec![key],
            changes: vec![],
            stored: stored_values(&trace, &map, self.ins, key),
        }))
    }

    fn runs(&self) -> u32 {
        self.ext.runs.saturating_sub(self.runs_before)
    }

    fn stats(&self) -> Stats {
        self.stats
    }
}

/// The diag value the counterexample chose: the last value assigned to the diag variable.
pub fn diag_value(trace: &RawTrace, diag_name: &str) -> Option<u32> {
    let (_, v) = trace.last_value_of(diag_name)?;
    v.and_then(|v| u32::try_from(v).ok())
}

/// The values the checker stored on the instrumented copies of line `key` (the changed
/// statement's new values), as `lhs = value`.
fn stored_values(trace: &RawTrace, map: &LineMap, ins: &Instrumented, key: u32) -> Vec<String> {
    let LineMap::Printed {
        file_name,
        line_locs,
        ..
    } = map
    else {
        return vec![];
    };
    let Some(lk) = ins.line(key) else {
        return vec![];
    };
    let sources = &ins.program.sources;
    let mut out: Vec<String> = Vec::new();
    for s in trace.user_steps() {
        let (Some(l), trace::StepKind::Assignment { lhs, value, .. }) = (&s.loc, &s.kind) else {
            continue;
        };
        if !l.file.ends_with(file_name.as_str()) {
            continue;
        }
        let Some(loc) = (l.line as usize)
            .checked_sub(1)
            .and_then(|i| line_locs.get(i))
            .filter(|x| !x.is_synth())
        else {
            continue;
        };
        let Some(p) = sources.position(*loc) else {
            continue;
        };
        if p.line == lk.line
            && crate::seq::schedule::short_file(p.file)
                == crate::seq::schedule::short_file(&lk.file)
            && !lhs.contains('$')
            && !crate::ir::internal::mentions_internal_name(lhs)
        {
            let text = format!("{lhs} = {value}");
            if !out.contains(&text) {
                out.push(text);
            }
        }
    }
    out
}

/// The diagnosis model with `assume(diag != k)` for every excluded `k`, placed right after
/// the diag variable gets its nondeterministic value at the top of `main`.
pub fn with_exclusions(prog: &Program, diag: crate::ir::VarId, excluded: &[u32]) -> Program {
    use crate::ir::build as b;
    let mut p = prog.clone();
    if excluded.is_empty() {
        return p;
    }
    let Some(main) = p.main() else { return p };
    let assumes: Vec<Stmt> = excluded
        .iter()
        .map(|k| {
            let cond = b::bin(
                crate::ir::BinOp::Ne,
                b::var(&p, diag),
                b::int(i128::from(*k)),
            );
            b::expr_stmt(
                b::intrinsic(
                    crate::ir::Intrinsic::Assume,
                    vec![cond],
                    crate::ir::Loc::SYNTH,
                ),
                crate::ir::Loc::SYNTH,
                StmtId::NONE,
            )
        })
        .collect();
    let writes_diag = |s: &Stmt| match &s.kind {
        StmtKind::Expr(e) => matches!(
            &e.kind,
            crate::ir::ExprKind::Assign(l, _) if matches!(&l.kind, crate::ir::ExprKind::Var(v) if *v == diag)
        ),
        _ => false,
    };
    if let Some(body) = p.func_mut(main).body.as_mut()
        && let StmtKind::Block(ss) = &mut body.kind
    {
        let at = ss.iter().position(writes_diag).map(|i| i + 1).unwrap_or(0);
        for (i, a) in assumes.into_iter().enumerate() {
            ss.insert(at + i, a);
        }
    }
    p
}

#[cfg(test)]
mod tests {
    use std::path::Path;

    use super::*;
    use crate::checker::external::mapping::tests::fixtures;
    use crate::trace::esbmc;

    fn read(dir: &Path, name: &str) -> String {
        std::fs::read_to_string(dir.join("esbmc").join(name)).unwrap_or_default()
    }

    #[test]
    fn diag_value_is_read_from_the_rounds() {
        let Some(dir) = fixtures() else { return };
        let r1 = esbmc::parse_text(
            &read(&dir, "diag_f01.round1.stdout"),
            &read(&dir, "diag_f01.round1.stderr"),
        )
        .expect("round 1 parses");
        assert_eq!(r1.outcome, Outcome::Failed);
        assert_eq!(diag_value(&r1, "diag"), Some(14));
        assert_eq!(diag_value(&r1, "diag2"), None);
        let r2 = esbmc::parse_text(
            &read(&dir, "diag_f01.round2.stdout"),
            &read(&dir, "diag_f01.round2.stderr"),
        )
        .expect("round 2 parses");
        assert_eq!(r2.outcome, Outcome::Successful);
        assert_eq!(diag_value(&r2, "diag"), None);
    }
}
