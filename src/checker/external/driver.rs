//! The paper's procedure (section V-A) with an external checker: the deadlock check first,
//! then the counterexample run, the context bound deepened step by step; and the
//! localization rounds, one checker run per candidate with `assume(diag != k)` added.
//!
//! The checker always runs on a program seqloc printed (unless `--raw`), in its dialect, in
//! a private temp dir; its trace is mapped back to the program as written
//! ([`super::mapping`]), and a failure it reports is replayed with seqloc's sequentializer
//! before it is trusted ([`crate::diag::localize::prepare`]).

use std::path::{Path, PathBuf};
use std::time::{Duration, Instant};

use super::flags::{self, RunFlags};
use super::mapping::{self, LineMap, MapError};
use super::process::{self, RunOutput, RunSpec};
use super::{ExternalError, Kind};
use crate::cex::{Counterexample, ViolationKind};
use crate::check::{self, CheckOptions, CheckOutcome, Phase, Prepared, Verdict};
use crate::checker::builtin::{Properties, Stats};
use crate::diag::Target;
use crate::diag::localize::{Diagnosis, Finding, Localization, LocalizeError, LocalizeOptions};
use crate::dialect::Dialect;
use crate::ir::print::{PrintOptions, print_program};
use crate::ir::{Program, Stmt, StmtId, StmtKind};
use crate::seq::schedule::Schedule;
use crate::trace::{self, Outcome, RawTrace};

/// What the user asked of the external checker.
#[derive(Clone, Debug)]
pub struct Config {
    pub kind: Kind,
    /// `--checker-path`.
    pub path: Option<PathBuf>,
    /// `--checker-arg`, passed through after seqloc's own flags.
    pub extra_args: Vec<String>,
    /// The whole analysis' time limit.
    pub timeout: Option<Duration>,
    pub memory_mb: Option<u64>,
    /// Run the checker on the user's file unchanged.
    pub raw: bool,
    pub keep_temps: bool,
    /// `--templates DIR` (dialects).
    pub templates: Option<PathBuf>,
    /// The user's preprocessor flags, for `--raw` runs.
    pub include: Vec<PathBuf>,
    pub defines: Vec<String>,
}

/// The exploration bounds.
#[derive(Clone, Debug)]
pub struct Bounds {
    /// A fixed context bound (ESBMC); `None` deepens 2, 4, 8, … up to `max_context_bound`.
    pub context_bound: Option<u32>,
    pub max_context_bound: u32,
    /// A fixed loop bound; `None` starts at 2 and doubles while an unwinding assertion fails.
    pub unwind: Option<u32>,
    pub max_unwind: u32,
    /// For the built-in stand-in deadlock check and the replay.
    pub threads: u32,
    pub recursion: u32,
}

/// Where progress and `-v` lines go: `(level, message)`; level 0 is always shown.
pub type Log<'a> = &'a dyn Fn(u8, &str);

/// ESBMC's `--deadlock-check` has not finished on two-thread programs within minutes
/// (fixtures f02, f03, f06, f08; esbmc#6480); it gets this share of the time limit, or this
/// many seconds without one, before the built-in deadlock check stands in.
const DEADLOCK_SHARE: f64 = 1.0 / 3.0;
const DEADLOCK_DEFAULT: Duration = Duration::from_secs(60);
/// `--version` answers at once; anything slower is not a working checker.
const VERSION_TIMEOUT: Duration = Duration::from_secs(20);
/// Lines of checker output quoted in errors.
const TAIL: usize = 12;

/// A located external checker with its temp dir.
pub struct External {
    pub cfg: Config,
    pub program: PathBuf,
    /// As the checker printed it (`7.9.0`), when `--version` said.
    pub version: Option<String>,
    dir: PathBuf,
    /// Removed on drop, unless the temps are kept.
    _guard: Option<tempfile::TempDir>,
    deadline: Option<Instant>,
    /// Checker processes started.
    pub runs: u32,
}

impl External {
    /// Finds the checker, asks its version, makes the temp dir.
    pub fn start(cfg: Config, log: Log) -> Result<External, ExternalError> {
        let deadline = cfg.timeout.map(|t| Instant::now() + t);
        process::catch_stop_signals();
        let program = process::locate(cfg.kind.name(), cfg.path.as_deref(), cfg.kind.env_var())?;
        let tmp = tempfile::Builder::new()
            .prefix("seqloc-")
            .tempdir()
            .map_err(|e| ExternalError::Io {
                what: format!("cannot create a temporary directory: {e}"),
                command: String::new(),
            })?;
        let (dir, guard) = if cfg.keep_temps {
            let p = tmp.keep();
            log(0, &format!("keeping temporary files in {}", p.display()));
            (p, None)
        } else {
            (tmp.path().to_path_buf(), Some(tmp))
        };
        let mut ext = External {
            cfg,
            program,
            version: None,
            dir,
            _guard: guard,
            deadline,
            runs: 0,
        };
        ext.version = ext.detect_version(log)?;
        log(
            1,
            &format!(
                "{} {} at {}",
                ext.cfg.kind.label(),
                ext.version.as_deref().unwrap_or("(version unknown)"),
                ext.program.display()
            ),
        );
        Ok(ext)
    }

    pub fn name(&self) -> &'static str {
        self.cfg.kind.name()
    }

    /// Finds `kind` where a run would (`PATH`, `$SEQLOC_ESBMC`/`$SEQLOC_CBMC`) and asks its
    /// version, for `seqloc --version`: the executable and its version line, or why not.
    pub fn probe(kind: Kind) -> Result<(PathBuf, String), ExternalError> {
        let cfg = Config {
            kind,
            path: None,
            extra_args: Vec::new(),
            timeout: None,
            memory_mb: None,
            raw: false,
            keep_temps: false,
            templates: None,
            include: Vec::new(),
            defines: Vec::new(),
        };
        let ext = External::start(cfg, &|_, _| {})?;
        let text = ext.version_text();
        Ok((ext.program.clone(), text))
    }

    pub fn version_text(&self) -> String {
        match &self.version {
            Some(v) => format!("{} {v}", self.cfg.kind.label()),
            None => format!("{} (version unknown)", self.cfg.kind.label()),
        }
    }

    pub fn temp_dir(&self) -> &Path {
        &self.dir
    }

    fn detect_version(&mut self, log: Log) -> Result<Option<String>, ExternalError> {
        let spec = RunSpec {
            program: self.program.clone(),
            args: flags::version_args(),
            cwd: self.dir.clone(),
            timeout: Some(VERSION_TIMEOUT),
            memory_mb: self.cfg.memory_mb,
            tag: "version".into(),
        };
        log(1, &format!("running: {}", self.shell_line(&spec)));
        let out = process::run(&spec)?;
        self.runs += 1;
        if out.timed_out {
            return Err(ExternalError::Timeout {
                checker: self.name().into(),
                secs: VERSION_TIMEOUT.as_secs_f64(),
                during: "answering --version".into(),
                command: out.command.clone(),
                tail: out.tail(TAIL),
            });
        }
        let text = format!("{}\n{}", out.stdout, out.stderr);
        let v = match self.cfg.kind {
            Kind::Esbmc => trace::esbmc::version(&text),
            Kind::Cbmc => trace::cbmc::version(&text),
        };
        Ok(v.or_else(|| {
            text.lines()
                .map(str::trim)
                .find(|l| !l.is_empty())
                .map(str::to_string)
        }))
    }

    /// `(cd DIR && CMD)`: the command as a user would repeat it.
    fn shell_line(&self, spec: &RunSpec) -> String {
        format!(
            "(cd {} && {})",
            process::shell_quote(&spec.cwd.display().to_string()),
            process::command_line(&spec.program, &spec.args)
        )
    }

    fn remaining(&self) -> Option<Duration> {
        self.deadline
            .map(|d| d.saturating_duration_since(Instant::now()))
    }

    /// Writes `prog` in the checker's dialect to `name` in the temp dir; returns the line
    /// map of the printed text against `index`'s statements (if any).
    fn write_program(
        &self,
        prog: &Program,
        name: &str,
        index: Option<&crate::seq::schedule::StmtIndex>,
    ) -> Result<LineMap, ExternalError> {
        let dialect = Dialect::load(self.cfg.kind.dialect(), self.cfg.templates.as_deref())
            .map_err(|e| ExternalError::Print {
                checker: self.name().into(),
                reason: e.to_string(),
            })?;
        let printed = print_program(
            prog,
            &dialect,
            &PrintOptions {
                loc_comments: true,
                ..Default::default()
            },
        );
        std::fs::write(self.dir.join(name), &printed.text).map_err(|e| ExternalError::Print {
            checker: self.name().into(),
            reason: format!("cannot write {}: {e}", self.dir.join(name).display()),
        })?;
        let empty = crate::seq::schedule::StmtIndex::default();
        Ok(LineMap::printed(name, &printed, index.unwrap_or(&empty)))
    }

    /// One checker run on `file` (relative to the temp dir, or absolute for `--raw`).
    fn run(
        &mut self,
        file: &str,
        f: &RunFlags,
        tag: &str,
        budget: Option<Duration>,
        log: Log,
    ) -> Result<(RunOutput, RawTrace), ExternalError> {
        let mut args = Vec::new();
        if self.cfg.raw && !f.sequential {
            for i in &self.cfg.include {
                args.push(format!("-I{}", i.display()));
            }
            for d in &self.cfg.defines {
                args.push(format!("-D{d}"));
            }
        }
        let mut a = flags::for_kind(
            self.cfg.kind,
            file,
            f,
            self.version.as_deref(),
            &self.cfg.extra_args,
        );
        args.append(&mut a);
        let timeout = match (self.remaining(), budget) {
            (Some(r), Some(b)) => Some(r.min(b)),
            (r, b) => r.or(b),
        };
        let spec = RunSpec {
            program: self.program.clone(),
            args,
            cwd: self.dir.clone(),
            timeout,
            memory_mb: self.cfg.memory_mb,
            tag: tag.to_string(),
        };
        let line = self.shell_line(&spec);
        log(1, &format!("running: {line}"));
        if timeout.is_some_and(|t| t.is_zero()) {
            return Err(self.timeout_error(&line, Duration::ZERO, "before it could start", vec![]));
        }
        let out = process::run(&spec)?;
        self.runs += 1;
        log(
            2,
            &format!(
                "{} exited with {} after {} ms",
                self.name(),
                exit_text(&out),
                out.elapsed.as_millis()
            ),
        );
        if out.timed_out {
            return Err(self.timeout_error(&line, out.elapsed, "", out.tail(TAIL)));
        }
        if self.cfg.memory_mb.is_some() && out.out_of_memory() {
            return Err(ExternalError::OutOfMemory {
                checker: self.name().into(),
                limit: self
                    .cfg
                    .memory_mb
                    .map(|m| format!(" (limit {m} MB)"))
                    .unwrap_or_default(),
                command: line,
                tail: out.tail(TAIL),
            });
        }
        let parsed = match self.cfg.kind {
            Kind::Esbmc => trace::esbmc::parse_text(&out.stdout, &out.stderr),
            Kind::Cbmc => trace::cbmc::parse_json_ui(&out.stdout)
                .or_else(|_| trace::cbmc::parse_text_output(&out.stdout, &out.stderr)),
        };
        let trace = match parsed {
            Ok(t) => t,
            Err(e) => {
                return Err(if out.code.is_some_and(|c| self.normal_exit(c)) {
                    ExternalError::Unreadable {
                        checker: self.name().into(),
                        reason: e.to_string(),
                        command: line,
                        tail: out.tail(TAIL),
                    }
                } else {
                    ExternalError::Crashed {
                        checker: self.name().into(),
                        how: exit_text(&out),
                        command: line,
                        tail: out.tail(TAIL),
                    }
                });
            }
        };
        // A run that ended abnormally without a verdict crashed, unless it said why it
        // could not decide (CBMC's unsoundness abort is such a statement: `unknown`).
        if let Outcome::Unknown { reason } = &trace.outcome
            && !out.code.is_some_and(|c| self.normal_exit(c))
            && !reason.contains("unsound")
        {
            return Err(ExternalError::Crashed {
                checker: self.name().into(),
                how: format!("{}: {reason}", exit_text(&out)),
                command: line,
                tail: out.tail(TAIL),
            });
        }
        Ok((out, trace))
    }

    fn normal_exit(&self, code: i32) -> bool {
        match self.cfg.kind {
            Kind::Esbmc => code == 0 || code == 1,
            Kind::Cbmc => code == 0 || code == 10 || code == 5,
        }
    }

    fn timeout_error(
        &self,
        command: &str,
        elapsed: Duration,
        during: &str,
        tail: Vec<String>,
    ) -> ExternalError {
        ExternalError::Timeout {
            checker: self.name().into(),
            secs: elapsed.as_secs_f64(),
            during: during.to_string(),
            command: command.to_string(),
            tail,
        }
    }
}

fn exit_text(out: &RunOutput) -> String {
    match (out.code, out.signal) {
        (Some(c), _) => format!("exit code {c}"),
        (None, Some(s)) => format!("signal {s}"),
        _ => "an unknown status".into(),
    }
}

/// The program the checker runs for `check`: seqloc's printed normalized program, or the
/// user's file (`--raw`).
struct Subject {
    file: String,
    map: LineMap,
}

/// How a check ended at one bound.
enum Step {
    /// A counterexample, and another reading of the same trace's schedule where the trace
    /// leaves it open (see [`mapping::Boundary`]).
    Found(Box<Counterexample>, Vec<Schedule>),
    /// No failure at this bound; every loop finished within `unwind`.
    Clean,
    /// The loop bound was reached; deepen `unwind`.
    Unwind(String),
    /// The checker could not decide (unknown verdict).
    Undecided(String),
}

impl External {
    fn subject(&self, prep: &Prepared, input: &Path) -> Result<Subject, ExternalError> {
        if self.cfg.raw {
            let abs = std::fs::canonicalize(input).unwrap_or_else(|_| input.to_path_buf());
            return Ok(Subject {
                file: abs.display().to_string(),
                map: LineMap::Raw,
            });
        }
        let stem = input
            .file_stem()
            .and_then(|s| s.to_str())
            .filter(|s| !s.is_empty())
            .unwrap_or("program");
        let name = format!("{stem}.seqloc.c");
        let map = self.write_program(&prep.normalized, &name, Some(&prep.index))?;
        Ok(Subject { file: name, map })
    }

    /// `seqloc check` with this checker.
    pub fn check(
        &mut self,
        prep: &Prepared,
        input: &Path,
        props: Properties,
        bounds: &Bounds,
        log: Log,
    ) -> Result<CheckOutcome, ExternalError> {
        let subject = self.subject(prep, input)?;
        let ladder: Vec<Option<u32>> = match self.cfg.kind {
            Kind::Esbmc => flags::context_ladder(bounds.context_bound, bounds.max_context_bound)
                .into_iter()
                .map(Some)
                .collect(),
            Kind::Cbmc => vec![None],
        };
        let mut unwind = bounds.unwind.unwrap_or(2).max(1);
        let mut phases: Vec<Phase> = Vec::new();
        // The deadlock check: ESBMC's own while it keeps finishing; else (CBMC has none, or
        // ESBMC's timed out) the built-in checker's, once.
        let mut esbmc_deadlock = props.deadlock && self.cfg.kind == Kind::Esbmc;
        let mut builtin_deadlock_pending = props.deadlock && self.cfg.kind == Kind::Cbmc;
        let mut notes: Vec<String> = Vec::new();
        if builtin_deadlock_pending {
            notes.push(
                "CBMC has no deadlock check; seqloc's built-in checker looked for deadlocks".into(),
            );
        }
        let mut last_clean: Option<(Option<u32>, u32)> = None;
        let mut rung = 0usize;
        while let Some(&k) = ladder.get(rung) {
            if builtin_deadlock_pending {
                builtin_deadlock_pending = false;
                if let Some(out) = self.builtin_deadlock(prep, bounds, &notes, log) {
                    return Ok(out);
                }
            }
            let deadlock_run = esbmc_deadlock;
            let f = RunFlags {
                context_bound: k,
                unwind,
                deadlock_check: deadlock_run,
                sequential: false,
            };
            let tag = match k {
                Some(k) => format!(
                    "{}-k{k}-u{unwind}",
                    if deadlock_run { "deadlock" } else { "cex" }
                ),
                None => format!("cex-u{unwind}"),
            };
            let budget = deadlock_run.then(|| {
                self.cfg
                    .timeout
                    .map(|t| t.mul_f64(DEADLOCK_SHARE))
                    .unwrap_or(DEADLOCK_DEFAULT)
            });
            let t0 = Instant::now();
            let result = self.run(&subject.file, &f, &tag, budget, log);
            let ms = t0.elapsed().as_millis() as u64;
            let bound_text = describe_bounds(k, unwind);
            let (out, trace) = match result {
                Ok(x) => x,
                Err(ExternalError::Timeout { .. })
                    if deadline_left(self.deadline) && deadlock_run =>
                {
                    // The documented failure mode of ESBMC's deadlock check: fall back.
                    let secs = t0.elapsed().as_secs_f64();
                    log(
                        0,
                        &format!(
                            "ESBMC's --deadlock-check did not finish in {secs:.0} s ({bound_text}); seqloc's built-in checker looks for deadlocks instead"
                        ),
                    );
                    notes.push(format!(
                        "ESBMC's --deadlock-check timed out after {secs:.0} s; deadlocks were looked for by seqloc's built-in checker"
                    ));
                    phases.push(phase(k, unwind, "deadlock check: time limit", ms));
                    esbmc_deadlock = false;
                    builtin_deadlock_pending = true;
                    continue;
                }
                Err(ExternalError::Timeout { .. }) if last_clean.is_some() => {
                    phases.push(phase(k, unwind, "time limit", ms));
                    let (lk, lu) = last_clean.unwrap_or((k, unwind));
                    return Ok(limit_outcome(
                        self.name(),
                        lk,
                        lu,
                        &bound_text,
                        phases,
                        notes,
                    ));
                }
                Err(e) => return Err(e),
            };
            let _ = out;
            let step = self.read_step(&trace, prep, &subject.map)?;
            match step {
                Step::Found(cex, other) => {
                    let what = if cex.violation.kind == ViolationKind::Deadlock {
                        "deadlock"
                    } else {
                        "failure"
                    };
                    phases.push(phase(k, unwind, what, ms));
                    log(
                        0,
                        &format!("{} found a {what} ({bound_text})", self.cfg.kind.label()),
                    );
                    return Ok(self.found(*cex, other, prep, bounds, k, unwind, phases, notes, log));
                }
                Step::Undecided(why) => {
                    phases.push(phase(k, unwind, &format!("unknown: {why}"), ms));
                    return Ok(CheckOutcome {
                        verdict: Verdict::Unknown,
                        reason: Some(join_notes(
                            format!(
                                "{} could not decide ({bound_text}): {why}",
                                self.cfg.kind.label()
                            ),
                            &notes,
                        )),
                        bounds: check_bounds(k, unwind),
                        loops_complete: false,
                        unwinding_reached: vec![],
                        counterexample: None,
                        phases,
                        stats: Stats::default(),
                        limit_reached: false,
                        exploration: None,
                    });
                }
                Step::Unwind(at) => {
                    phases.push(phase(k, unwind, &format!("loop bound reached at {at}"), ms));
                    if bounds.unwind.is_some() || unwind >= bounds.max_unwind {
                        return Ok(CheckOutcome {
                            verdict: Verdict::Unknown,
                            reason: Some(join_notes(
                                format!(
                                    "no failure found with {bound_text}, but the loop bound was reached at {at}"
                                ),
                                &notes,
                            )),
                            bounds: check_bounds(k, unwind),
                            loops_complete: false,
                            unwinding_reached: vec![at],
                            counterexample: None,
                            phases,
                            stats: Stats::default(),
                            limit_reached: false,
                            exploration: None,
                        });
                    }
                    unwind = unwind.saturating_mul(2).min(bounds.max_unwind);
                    continue;
                }
                Step::Clean => {
                    phases.push(phase(k, unwind, "no failure; loops complete", ms));
                    log(1, &format!("no failure with {bound_text}"));
                    last_clean = Some((k, unwind));
                    rung += 1;
                }
            }
        }
        let (k, u) = last_clean.unwrap_or((None, unwind));
        let reached = match k {
            Some(k) => format!(
                "no failure in any interleaving with up to {k} context switches (ESBMC --context-bound {k}); every loop ran to its end within {u} iterations"
            ),
            None => format!(
                "no failure in any interleaving (CBMC); every loop ran to its end within {u} iterations"
            ),
        };
        log(
            0,
            &format!("context bound reached: {}", describe_bounds(k, u)),
        );
        if self.cfg.kind == Kind::Esbmc
            && let Some(f) = prep
                .normalized
                .funcs
                .iter()
                .find(|f| f.body.is_some() && crate::ir::known::is_atomic_function(&f.name))
        {
            // ESBMC 8.4 says VERIFICATION SUCCESSFUL on two threads that each call an atomic
            // get and then an atomic set (a lost update it finds once the functions are
            // renamed): its treatment of these functions loses interleavings, so its "no
            // failure" is not an answer here. Failures it reports are still replayed.
            let at = prep
                .normalized
                .sources
                .position(f.loc)
                .map(|p| format!(" (line {})", p.line))
                .unwrap_or_default();
            return Ok(CheckOutcome {
                verdict: Verdict::Unknown,
                reason: Some(join_notes(
                    format!(
                        "ESBMC found no failure ({}), but it misses interleavings between calls of `__VERIFIER_atomic_*` functions such as `{}`{at}, so that is not trusted; the built-in checker and CBMC model them",
                        describe_bounds(k, u),
                        f.name
                    ),
                    &notes,
                )),
                bounds: check_bounds(k, u),
                loops_complete: true,
                unwinding_reached: vec![],
                counterexample: None,
                phases,
                stats: Stats::default(),
                limit_reached: false,
                exploration: None,
            });
        }
        Ok(CheckOutcome {
            verdict: Verdict::NoFailureWithinBounds,
            reason: Some(join_notes(reached, &notes)),
            bounds: check_bounds(k, u),
            loops_complete: true,
            unwinding_reached: vec![],
            counterexample: None,
            phases,
            stats: Stats::default(),
            limit_reached: false,
            exploration: None,
        })
    }

    /// Reads one run's verdict.
    fn read_step(
        &self,
        trace: &RawTrace,
        prep: &Prepared,
        map: &LineMap,
    ) -> Result<Step, ExternalError> {
        match &trace.outcome {
            Outcome::Successful => Ok(Step::Clean),
            Outcome::Unknown { reason } => Ok(Step::Undecided(reason.clone())),
            Outcome::Failed => {
                let Some(v) = &trace.violation else {
                    return Ok(Step::Undecided(
                        "it reported a failure without a counterexample".into(),
                    ));
                };
                if v.kind == trace::ViolationKind::UnwindingAssertion {
                    let at = v
                        .loc
                        .as_ref()
                        .map(|l| original_line(l, map, &prep.normalized))
                        .unwrap_or_else(|| v.message.clone());
                    return Ok(Step::Unwind(at));
                }
                match mapping::to_counterexample(
                    trace,
                    &prep.normalized,
                    &prep.index,
                    map,
                    self.name(),
                ) {
                    Ok(cex) => {
                        // Other readings of the same trace, tried in turn when the first
                        // does not replay (see `mapping::Boundary`).
                        let mut other: Vec<Schedule> = Vec::new();
                        for policy in [
                            mapping::Boundary::BeforeWait,
                            mapping::Boundary::SharedSteps,
                        ] {
                            let s = mapping::to_counterexample_with(
                                trace,
                                &prep.normalized,
                                &prep.index,
                                map,
                                self.name(),
                                policy,
                            )
                            .map(|c| c.schedule);
                            if let Ok(s) = s {
                                if s != cex.schedule && !other.contains(&s) {
                                    other.push(s);
                                }
                            }
                        }
                        Ok(Step::Found(Box::new(cex), other))
                    }
                    Err(MapError::Unsupported(what)) => Ok(Step::Undecided(format!(
                        "it reported a property seqloc does not localize ({what})"
                    ))),
                    Err(e) => Err(ExternalError::Unreadable {
                        checker: self.name().into(),
                        reason: e.to_string(),
                        command: String::new(),
                        tail: vec![],
                    }),
                }
            }
        }
    }

    /// A failure or deadlock the checker reported, replayed with seqloc's sequentializer.
    #[allow(clippy::too_many_arguments)]
    fn found(
        &self,
        mut cex: Counterexample,
        other: Vec<Schedule>,
        prep: &Prepared,
        bounds: &Bounds,
        k: Option<u32>,
        unwind: u32,
        phases: Vec<Phase>,
        mut notes: Vec<String>,
        log: Log,
    ) -> CheckOutcome {
        let deadlock = cex.violation.kind == ViolationKind::Deadlock;
        let target = if deadlock {
            Target::Deadlock
        } else {
            Target::Failure
        };
        log(2, &format!("schedule: {}", cex.schedule.compact()));
        let mut replayed = replay(prep, &cex, target, unwind, bounds, self.remaining());
        for schedule in other {
            let Err(why) = &replayed else { break };
            log(
                1,
                &format!(
                    "this reading of the interleaving does not replay ({why}); trying another: {}",
                    schedule.compact()
                ),
            );
            let mut second = cex.clone();
            second.schedule = schedule;
            let again = replay(prep, &second, target, unwind, bounds, self.remaining());
            if again.is_ok() {
                cex = second;
                replayed = again;
            }
        }
        let label = self.cfg.kind.label();
        match (&replayed, deadlock) {
            (Ok(()), true) => notes.insert(
                0,
                format!("{label}'s deadlock confirmed: seqloc's replay of its interleaving deadlocks too"),
            ),
            (Ok(()), false) => log(1, "the interleaving replays with seqloc's sequentializer"),
            (Err(why), true) => notes.insert(
                0,
                format!(
                    "{label} reported a deadlock that seqloc could not confirm (unconfirmed; {label}'s deadlock check has given false deadlocks, esbmc#6474, #6479, #6477): {why}"
                ),
            ),
            (Err(why), false) => notes.insert(
                0,
                format!("seqloc's replay of {label}'s interleaving does not reproduce the failure: {why}"),
            ),
        }
        CheckOutcome {
            verdict: if deadlock {
                Verdict::Deadlock
            } else {
                Verdict::Failure
            },
            reason: (!notes.is_empty()).then(|| notes.join("; ")),
            bounds: check_bounds(k, unwind),
            loops_complete: false,
            unwinding_reached: vec![],
            counterexample: Some(cex),
            phases,
            stats: Stats::default(),
            limit_reached: false,
            exploration: None,
        }
    }

    /// The built-in checker's deadlock search, standing in for a deadlock check the external
    /// checker lacks or could not finish. Only a deadlock found ends the check.
    fn builtin_deadlock(
        &self,
        prep: &Prepared,
        bounds: &Bounds,
        notes: &[String],
        log: Log,
    ) -> Option<CheckOutcome> {
        let opts = CheckOptions {
            rounds: bounds.context_bound.map(|k| k + 1),
            max_rounds: bounds.max_context_bound.max(1) + 1,
            unwind: bounds.unwind,
            max_unwind: bounds.max_unwind.max(1),
            max_threads: bounds.threads.max(1),
            properties: Properties {
                assertions: false,
                deadlock: true,
            },
            // Half of what is left: the counterexample run still needs time.
            timeout: self.remaining().map(|r| r / 2),
            recursion: bounds.recursion.max(1),
            // Only a deadlock with a counterexample ends the check here.
            explore: false,
            fewest_rounds: true,
        };
        log(1, "built-in deadlock check");
        match check::check(prep, &opts) {
            Ok(mut out) if out.verdict == Verdict::Deadlock => {
                let mut n = notes.to_vec();
                n.push("the deadlock was found by seqloc's built-in checker".into());
                out.reason = Some(n.join("; "));
                Some(out)
            }
            Ok(out) => {
                log(
                    1,
                    &format!(
                        "built-in deadlock check: {}",
                        out.reason.unwrap_or_else(|| "no deadlock".into())
                    ),
                );
                None
            }
            Err(e) => {
                log(0, &format!("built-in deadlock check failed: {e}"));
                None
            }
        }
    }
}

/// Replays a counterexample's schedule with seqloc's sequentializer and the built-in checker.
pub fn replay(
    prep: &Prepared,
    cex: &Counterexample,
    target: Target,
    unwind: u32,
    bounds: &Bounds,
    time: Option<Duration>,
) -> Result<(), String> {
    let resolved = cex
        .schedule
        .resolve(&prep.normalized, &prep.index)
        .map_err(|e| e.to_string())?;
    let deadlock = target == Target::Deadlock;
    let seq_opts = crate::seq::SeqOptions {
        unwind: unwind.max(1),
        rounds: 1,
        max_threads: bounds.threads.max(1),
        recursion: bounds.recursion.max(1),
        deadlock,
        rules: if deadlock {
            crate::seq::rules::Rules::deadlock()
        } else {
            crate::seq::rules::Rules::nondeadlock()
        },
        skeleton: crate::seq::skeleton::Skeleton::builtin(),
    };
    let src = crate::diag::localize::Source {
        normalized: &prep.normalized,
        shared: &prep.shared,
        index: &prep.index,
    };
    let opts = LocalizeOptions {
        faults: 1,
        max_candidates: None,
        deadline: time.map(|t| Instant::now() + t),
        fresh_solver: false,
    };
    crate::diag::localize::prepare(&src, &resolved, &seq_opts, target, 1, &opts)
        .map(|_| ())
        .map_err(|e| match e {
            LocalizeError::NotReproduced(why) => why,
            other => other.to_string(),
        })
}

fn deadline_left(deadline: Option<Instant>) -> bool {
    deadline.is_none_or(|d| Instant::now() < d)
}

fn describe_bounds(k: Option<u32>, unwind: u32) -> String {
    match k {
        Some(k) => format!("context bound {k}, unwind {unwind}"),
        None => format!("unwind {unwind}"),
    }
}

fn check_bounds(k: Option<u32>, unwind: u32) -> check::Bounds {
    // `rounds` holds the context bound for ESBMC (the report's "bounds" field); a schedule
    // with K switches fits K + 1 rounds.
    check::Bounds {
        rounds: k.map(|k| k + 1).unwrap_or(0),
        unwind,
        threads: 0,
    }
}

fn phase(k: Option<u32>, unwind: u32, result: &str, ms: u64) -> Phase {
    Phase {
        bounds: check_bounds(k, unwind),
        result: result.to_string(),
        encode_ms: 0,
        solve_ms: ms,
    }
}

fn join_notes(first: String, notes: &[String]) -> String {
    let mut all = vec![first];
    all.extend(notes.iter().cloned());
    all.join("; ")
}

fn limit_outcome(
    name: &str,
    k: Option<u32>,
    unwind: u32,
    trying: &str,
    phases: Vec<Phase>,
    notes: Vec<String>,
) -> CheckOutcome {
    CheckOutcome {
        verdict: Verdict::Unknown,
        reason: Some(join_notes(
            format!(
                "time limit reached while {name} checked {trying} (no failure with {})",
                describe_bounds(k, unwind)
            ),
            &notes,
        )),
        bounds: check_bounds(k, unwind),
        loops_complete: false,
        unwinding_reached: vec![],
        counterexample: None,
        phases,
        stats: Stats::default(),
        limit_reached: true,
        exploration: None,
    }
}

/// A checker location as the user's `file:line`.
fn original_line(l: &trace::SrcLoc, map: &LineMap, prog: &Program) -> String {
    if let LineMap::Printed {
        file_name,
        line_locs,
        ..
    } = map
        && l.file.ends_with(file_name.as_str())
        && let Some(loc) = (l.line as usize)
            .checked_sub(1)
            .and_then(|i| line_locs.get(i))
            .filter(|x| !x.is_synth())
    {
        return prog.sources.describe_line(*loc);
    }
    format!("{}:{}", l.file, l.line)
}

// ---- localization ------------------------------------------------------------------------

/// One answer of an external localization round, beyond the diag value: what the checker
/// stored on the selected line (`x = 2`), for the repair hint.
#[derive(Clone, Debug, Default)]
pub struct RoundValues {
    pub key: u32,
    pub values: Vec<String>,
}

/// The result of the external localization loop, in the built-in loop's types.
pub struct ExternalLocalization {
    pub loc: Localization,
    pub values: Vec<RoundValues>,
}

impl External {
    /// The localization loop on the external checker: the diagnosis model printed in its
    /// dialect, one run per round, `assume(diag != k)` added for every answer, until the
    /// checker finds no counterexample or `max_candidates` answers are in.
    pub fn localize(
        &mut self,
        d: &Diagnosis,
        max_candidates: Option<usize>,
        log: Log,
    ) -> Result<ExternalLocalization, ExternalError> {
        let t0 = Instant::now();
        let mut loc = d.validation.clone();
        let mut values = Vec::new();
        let ins = &d.model;
        let Some(&diag_var) = ins.diag_vars.first() else {
            return Err(ExternalError::Print {
                checker: self.name().into(),
                reason: "the diagnosis model has no diag variable".into(),
            });
        };
        let diag_name = ins.program.var(diag_var).name.clone();
        // The framework's loop runs once per block; two spare iterations keep the unwinding
        // assertion from firing on its exit test.
        let unwind = d.sequential.steps + 2;
        let mut excluded: Vec<u32> = Vec::new();
        let mut round = 0u32;
        loop {
            if max_candidates.is_some_and(|m| loc.findings.len() >= m) {
                loc.stopped = Some(format!(
                    "stopped after {} candidates (--max-candidates)",
                    loc.findings.len()
                ));
                break;
            }
            round += 1;
            let prog = with_exclusions(&ins.program, diag_var, &excluded);
            let name = format!("diag.round{round}.c");
            let map = self.write_program(&prog, &name, None)?;
            let f = RunFlags {
                context_bound: None,
                unwind,
                deadlock_check: false,
                sequential: true,
            };
            let t = Instant::now();
            let result = self.run(&name, &f, &format!("round{round}"), None, log);
            loc.checker_runs += 1;
            let (_, trace) = match result {
                Ok(x) => x,
                Err(ExternalError::Timeout { .. }) => {
                    loc.stopped =
                        Some("time limit reached; the candidates so far are listed".to_string());
                    break;
                }
                Err(e) => return Err(e),
            };
            loc.stats.solve_ms += t.elapsed().as_millis() as u64;
            match &trace.outcome {
                Outcome::Successful => {
                    log(
                        0,
                        &format!(
                            "round {round}: no more candidates ({} ms)",
                            t.elapsed().as_millis()
                        ),
                    );
                    loc.complete = true;
                    break;
                }
                Outcome::Unknown { reason } => {
                    loc.stopped = Some(format!(
                        "{} could not decide round {round}: {reason}",
                        self.cfg.kind.label()
                    ));
                    break;
                }
                Outcome::Failed => {}
            }
            if let Some(v) = &trace.violation
                && v.kind == trace::ViolationKind::UnwindingAssertion
            {
                return Err(ExternalError::Unreadable {
                    checker: self.name().into(),
                    reason: format!(
                        "round {round} hit an unwinding assertion with --unwind {unwind} ({}); the instrumented program should be loop-free",
                        v.message
                    ),
                    command: String::new(),
                    tail: vec![],
                });
            }
            let Some(key) = diag_value(&trace, &diag_name) else {
                return Err(ExternalError::Unreadable {
                    checker: self.name().into(),
                    reason: format!(
                        "round {round}: the counterexample assigns no value to `{diag_name}`"
                    ),
                    command: String::new(),
                    tail: vec![],
                });
            };
            if !ins.lines.contains_key(&key) || excluded.contains(&key) {
                // With no line (or an excluded one) selected the model cannot pass: it was
                // validated with the built-in checker. A checker that says otherwise
                // disagrees with seqloc's semantics of the program.
                return Err(ExternalError::Unreadable {
                    checker: self.name().into(),
                    reason: format!(
                        "round {round}: {} passed the diagnosis model with `{diag_name} = {key}`, which selects no instrumented line; it disagrees with the replay seqloc validated",
                        self.cfg.kind.label()
                    ),
                    command: String::new(),
                    tail: vec![],
                });
            }
            let line = ins
                .line(key)
                .map(|l| format!("{}:{}", crate::seq::schedule::short_file(&l.file), l.line))
                .unwrap_or_else(|| key.to_string());
            log(
                0,
                &format!(
                    "round {round}: {diag_name} = {key} ({line}) in {} ms",
                    t.elapsed().as_millis()
                ),
            );
            values.push(RoundValues {
                key,
                values: stored_values(&trace, &map, ins, key),
            });
            loc.findings.push(Finding {
                set: vec![key],
                changes: vec![],
                at_ms: t0.elapsed().as_millis() as u64,
            });
            excluded.push(key);
        }
        Ok(ExternalLocalization { loc, values })
    }
}

/// The diag value the counterexample chose: the last value assigned to the diag variable.
pub fn diag_value(trace: &RawTrace, diag_name: &str) -> Option<u32> {
    let (_, v) = trace.last_value_of(diag_name)?;
    v.and_then(|v| u32::try_from(v).ok())
}

/// The values the checker stored on the instrumented copies of line `key` (the changed
/// statement's new values), as `lhs = value`.
fn stored_values(
    trace: &RawTrace,
    map: &LineMap,
    ins: &crate::diag::instrument::Instrumented,
    key: u32,
) -> Vec<String> {
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
    use super::*;
    use crate::checker::external::mapping::tests::{fixtures, prepared};
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

    /// The exclusions land right after `diag` gets its value, in the checker's spelling.
    #[test]
    fn exclusions_follow_the_diag_choice() {
        let Some(dir) = fixtures() else { return };
        let prep = prepared(&dir.join("programs/f01_race.c"));
        let sched = {
            let out = check::check(&prep, &CheckOptions::default()).expect("builtin check");
            out.counterexample.expect("f01 fails").schedule
        };
        let resolved = sched
            .resolve(&prep.normalized, &prep.index)
            .expect("resolves");
        let src = crate::diag::localize::Source {
            normalized: &prep.normalized,
            shared: &prep.shared,
            index: &prep.index,
        };
        let d = crate::diag::localize::prepare(
            &src,
            &resolved,
            &crate::seq::SeqOptions {
                deadlock: false,
                rules: crate::seq::rules::Rules::nondeadlock(),
                ..Default::default()
            },
            Target::Failure,
            1,
            &LocalizeOptions {
                faults: 1,
                max_candidates: None,
                deadline: None,
                fresh_solver: false,
            },
        )
        .expect("prepares");
        let diag = d.model.diag_vars[0];
        let p = with_exclusions(&d.model.program, diag, &[8, 14]);
        let dialect = Dialect::load("esbmc", None).expect("dialect");
        let text = print_program(&p, &dialect, &PrintOptions::default()).text;
        let at = |needle: &str| {
            text.find(needle)
                .unwrap_or_else(|| panic!("{needle}:\n{text}"))
        };
        assert!(at("__ESBMC_assume(diag != 8)") > at("diag = "));
        assert!(at("__ESBMC_assume(diag != 14)") > at("__ESBMC_assume(diag != 8)"));
        assert!(
            !print_program(&d.model.program, &dialect, &PrintOptions::default())
                .text
                .contains("diag != 8")
        );
    }
}
