//! An external checker run by the paper's procedure (section V-A): each question of the
//! deepening (`engine::deepen`) one run — the deadlock check first, then the counterexample
//! run — as [`Probing`]; the localization's questions are `super::rounds`.
//!
//! The checker always runs on a program seqloc printed (unless `--raw`), in its dialect, in
//! a private temp dir; its trace is mapped back to the program as written
//! ([`super::mapping`]), and a failure it reports is replayed with seqloc's sequentializer
//! before it is trusted (through [`Backstop::replays`], which the engine answers).
//!
//! Where the checker's own search cannot be trusted, the built-in search stands in
//! ([`stand_in`]).

use std::collections::HashSet;
use std::path::{Path, PathBuf};
use std::sync::Arc;
use std::sync::atomic::AtomicBool;
use std::time::{Duration, Instant};

use super::flags::{self, RunFlags};
use super::mapping::{self, LineMap, MapError};
use super::process::{self, RunOutput, RunSpec};
use super::{Backstop, ExternalError, Kind};
use crate::cex::{Counterexample, ViolationKind};
use crate::checker::bounded::{BoundedSearch, Probe, Probed, Rung};
use crate::checker::builtin::{Properties, Stats};
use crate::checker::outcome::{self, CheckOutcome, Verdict};
use crate::dialect::Dialect;
use crate::instrument::Target;
use crate::ir::Program;
use crate::ir::print::{PrintOptions, print_program};
use crate::passes::Prepared;
use crate::seq::schedule::{InputValue, Schedule};
use crate::trace::{self, Outcome, RawTrace};

mod second_solver;
mod stand_in;

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
    /// `--alone`: the checker's own search finds the failing interleaving, with no
    /// built-in search beside it or in its place (`--raw` implies it).
    pub alone: bool,
    pub keep_temps: bool,
    /// `--templates DIR` (dialects).
    pub templates: Option<PathBuf>,
    /// The user's preprocessor flags, for `--raw` runs.
    pub include: Vec<PathBuf>,
    pub defines: Vec<String>,
    /// `--rules`/`--templates`: the sequentializer's rules and framework, for the
    /// programs printed for the checker and the replays that validate its answers.
    pub framework: crate::seq::Framework,
}

impl Config {
    /// Only the checker's own search looks for the failing interleaving (`--raw`,
    /// `--alone`): none of seqloc's beside it or in its place.
    pub fn searches_alone(&self) -> bool {
        self.raw || self.alone
    }
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
    /// Loops cut at the bound are assumed not to go on ([`crate::engine::deepen::Plan`]).
    pub assume_loop_bounds: bool,
    /// For the built-in stand-in deadlock check and the replay.
    pub threads: u32,
    pub recursion: u32,
    /// `--context-switches K`: a counterexample with more switches (ESBMC counts its
    /// context bound its own way; CBMC has none) is beyond the bounds, not an answer.
    pub max_switches: Option<u32>,
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
    /// Set when a search beside the checker answered first: the run in progress is
    /// stopped and no other starts ([`ExternalError::Superseded`]).
    superseded: Option<Arc<AtomicBool>>,
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
            superseded: None,
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

    pub fn kind(&self) -> Kind {
        self.cfg.kind
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
            alone: false,
            keep_temps: false,
            templates: None,
            include: Vec::new(),
            defines: Vec::new(),
            framework: crate::seq::Framework::builtin(),
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
            // The memory limit is the checking's: a static ESBMC cannot even print its
            // version under a small one, and the report names the version.
            memory_mb: None,
            tag: "version".into(),
            superseded: Vec::new(),
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
    pub(super) fn write_program(
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
    pub(super) fn run(
        &mut self,
        file: &str,
        f: &RunFlags,
        tag: &str,
        budget: Option<Duration>,
        log: Log,
    ) -> Result<(RunOutput, RawTrace), ExternalError> {
        let (spec, line) = self.spec(file, f, tag, budget, &[])?;
        log(1, &format!("running: {line}"));
        let out = process::run(&spec)?;
        self.finish(out, line, log)
    }

    /// The run's process, `added` after the user's own arguments, and its command line.
    fn spec(
        &self,
        file: &str,
        f: &RunFlags,
        tag: &str,
        budget: Option<Duration>,
        added: &[String],
    ) -> Result<(RunSpec, String), ExternalError> {
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
        args.extend(added.iter().cloned());
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
            superseded: self.superseded.iter().cloned().collect(),
        };
        let line = self.shell_line(&spec);
        if timeout.is_some_and(|t| t.is_zero()) {
            return Err(self.timeout_error(&line, Duration::ZERO, "before it could start", vec![]));
        }
        Ok((spec, line))
    }

    /// A finished run's trace, or the failure it was (time-out, memory, crash, unreadable
    /// output).
    fn finish(
        &mut self,
        out: RunOutput,
        line: String,
        log: Log,
    ) -> Result<(RunOutput, RawTrace), ExternalError> {
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
                    .map(|m| format!(": memory limit of {m} MB reached ({})", exit_text(&out)))
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
        // A run that ended abnormally without a verdict crashed, unless it declined the
        // program (CBMC's unsoundness abort says why it could not decide).
        if let Outcome::Unknown { reason } = &trace.outcome
            && !out.code.is_some_and(|c| self.normal_exit(c))
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
    /// The `__VERIFIER_atomic_*` functions were renamed and their calls bracketed by
    /// atomic sections ([`super::atomics`]), so ESBMC's own treatment of them, which loses
    /// interleavings, does not apply.
    atomics_explicit: bool,
    /// `main`'s locals that other threads reach were moved to file scope
    /// ([`super::locals`]), so ESBMC does not lose the interleavings on them.
    locals_hoisted: bool,
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
    /// The checker declined the concurrent program (see [`Outcome::Declined`]).
    Declined(String),
}

impl External {
    fn subject(&self, prep: &Prepared, input: &Path) -> Result<Subject, ExternalError> {
        if self.cfg.raw {
            let abs = std::fs::canonicalize(input).unwrap_or_else(|_| input.to_path_buf());
            return Ok(Subject {
                file: abs.display().to_string(),
                map: LineMap::Raw,
                atomics_explicit: false,
                locals_hoisted: false,
            });
        }
        let stem = input
            .file_stem()
            .and_then(|s| s.to_str())
            .filter(|s| !s.is_empty())
            .unwrap_or("program");
        let name = format!("{stem}.seqloc.c");
        // ESBMC's spelling of what it would otherwise miss interleavings on: `main`'s
        // locals other threads reach, and the `__VERIFIER_atomic_*` functions.
        let (hoisted, rewritten) = match self.cfg.kind {
            Kind::Esbmc => {
                let hoisted =
                    super::locals::hoist_escaped_locals(&prep.normalized, &escaped_locals(prep));
                let base = hoisted.as_ref().unwrap_or(&prep.normalized);
                let rewritten = super::atomics::explicit_atomics(base);
                (hoisted, rewritten)
            }
            Kind::Cbmc => (None, None),
        };
        let printed = rewritten
            .as_ref()
            .or(hoisted.as_ref())
            .unwrap_or(&prep.normalized);
        let map = self.write_program(printed, &name, Some(&prep.index))?;
        Ok(Subject {
            file: name,
            map,
            atomics_explicit: rewritten.is_some(),
            locals_hoisted: hoisted.is_some(),
        })
    }

    /// The deepening's question for `seqloc check` with this checker (the loop is
    /// `engine::deepen`).
    pub fn probing<'a>(
        &'a mut self,
        prep: &'a Prepared,
        input: &Path,
        props: Properties,
        bounds: &'a Bounds,
        backstop: &'a dyn Backstop,
        log: Log<'a>,
    ) -> Result<Probing<'a>, ExternalError> {
        let subject = self.subject(prep, input)?;
        let kind = self.cfg.kind;
        let mut notes = Vec::new();
        // The deadlock check: ESBMC's own while it keeps finishing; else (CBMC has none, or
        // ESBMC's timed out) the built-in checker's, once.
        let builtin_deadlock_pending = props.deadlock && kind == Kind::Cbmc;
        if builtin_deadlock_pending {
            notes.push(
                "CBMC has no deadlock check; seqloc's built-in checker looked for deadlocks".into(),
            );
        }
        Ok(Probing {
            ext: self,
            prep,
            subject,
            bounds,
            backstop,
            log,
            esbmc_deadlock: props.deadlock && kind == Kind::Esbmc,
            builtin_deadlock_pending,
            props,
            notes,
            answered: false,
            stand_in_asked: false,
        })
    }

    /// The context bounds the deepening goes through (ESBMC's `--context-bound`); `None`
    /// for CBMC, which has no such bound.
    pub fn context_ladder(&self, bounds: &Bounds) -> Option<(Option<u32>, Vec<u32>, u32)> {
        match self.cfg.kind {
            Kind::Esbmc => Some((
                bounds.context_bound,
                flags::context_ladder(None, bounds.max_context_bound),
                bounds.max_context_bound.max(1),
            )),
            Kind::Cbmc => None,
        }
    }

    /// A flag that, once set, stops the checker's runs ([`ExternalError::Superseded`]);
    /// `None` lets them run to their end again.
    pub fn supersede_with(&mut self, flag: Option<Arc<AtomicBool>>) {
        self.superseded = flag;
    }

    /// When the whole analysis must end.
    pub fn deadline(&self) -> Option<Instant> {
        self.deadline
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
            Outcome::Declined { reason } => Ok(Step::Declined(reason.clone())),
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
                        // Joins read as proven first, then as printed (each reading is
                        // validated by a replay that honours joins and locks).
                        let readings = [
                            mapping::JoinReading::Proven,
                            mapping::JoinReading::AsPrinted,
                        ]
                        .into_iter()
                        .flat_map(|j| {
                            [
                                mapping::Boundary::BeforeShown,
                                mapping::Boundary::BeforeWait,
                                mapping::Boundary::SharedSteps,
                            ]
                            .map(|b| (b, j))
                        })
                        // The most speculative reading last (see `Boundary::ToBlock`).
                        .chain([
                            (mapping::Boundary::ToBlock, mapping::JoinReading::Proven),
                            (mapping::Boundary::ToBlock, mapping::JoinReading::AsPrinted),
                        ]);
                        for (policy, joins) in readings {
                            let s = mapping::to_counterexample_with(
                                trace,
                                &prep.normalized,
                                &prep.index,
                                map,
                                self.name(),
                                policy,
                                joins,
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
                    // A path seqloc's semantics lacks is no failure seqloc can confirm or
                    // localize, nor an unreadable output.
                    Err(e @ MapError::Unmodelled(_)) => Ok(Step::Undecided(e.to_string())),
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

    /// A failure or deadlock the checker reported, replayed with seqloc's sequentializer:
    /// the counterexample (the reading of the trace that replays, when one does), what
    /// the replay said, and whether it reproduced the checker's verdict.
    fn found(
        &self,
        mut cex: Counterexample,
        other: Vec<Schedule>,
        backstop: &dyn Backstop,
        unwind: u32,
        log: Log,
    ) -> (Counterexample, Option<String>, bool) {
        let deadlock = cex.violation.kind == ViolationKind::Deadlock;
        let target = match cex.violation.kind {
            ViolationKind::Deadlock => Target::Deadlock,
            ViolationKind::Unlock => Target::Unlock,
            _ => Target::Failure,
        };
        log(2, &format!("schedule: {}", cex.schedule.compact()));
        for i in &cex.schedule.inputs {
            log(
                3,
                &format!(
                    "input: T{} at {} (#{}) = {}",
                    i.thread, i.at, i.occurrence, i.value
                ),
            );
        }
        let mut replayed = backstop.replays(&cex, target, unwind, self.remaining());
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
            let again = backstop.replays(&second, target, unwind, self.remaining());
            if again.is_ok() {
                cex = second;
                replayed = again;
            }
        }
        if let Ok(run) = &replayed {
            fill_inputs(&mut cex, &run.schedule.inputs);
            // ESBMC's trace shows no step for the unlock whose check failed inside its
            // pthread model (the site it gives is the thread's statement before the
            // call); seqloc's replay checks each unlock itself and names the call.
            if target == Target::Unlock && run.violation.kind == ViolationKind::Unlock {
                cex.violation = run.violation.clone();
            }
        }
        let label = self.cfg.kind.label();
        let note = match (&replayed, deadlock) {
            (Ok(_), true) => Some(format!(
                "{label}'s deadlock confirmed: seqloc's replay of its interleaving deadlocks too"
            )),
            (Ok(_), false) => {
                log(1, "the interleaving replays with seqloc's sequentializer");
                None
            }
            (Err(why), true) => Some(format!(
                "{label} reported a deadlock that seqloc could not confirm (unconfirmed; {label}'s deadlock check has given false deadlocks, esbmc#6474, #6479, #6477): {why}"
            )),
            (Err(why), false) => Some(format!(
                "seqloc's replay of {label}'s interleaving does not reproduce the failure: {why}"
            )),
        };
        (cex, note, replayed.is_ok())
    }

    /// The built-in checker's deadlock search, standing in for a deadlock check the external
    /// checker lacks or could not finish. Only a deadlock found ends the check.
    fn builtin_deadlock(
        &self,
        bounds: &Bounds,
        backstop: &dyn Backstop,
        log: Log,
    ) -> Option<CheckOutcome> {
        log(1, "built-in deadlock check");
        let props = Properties {
            assertions: false,
            deadlock: true,
            unlocks: false,
        };
        // Half of what is left: the counterexample run still needs time.
        match backstop.search(props, bounds, self.remaining().map(|r| r / 2)) {
            Ok(out) if out.verdict == Verdict::Deadlock => Some(out),
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

/// Adds to `cex` the inputs of the validating replay's failing run that the checker's
/// trace does not name: a choice its own library makes silently (whether a condition wait
/// wakes spuriously: ESBMC's trace shows none) would otherwise stay free in the diagnosis
/// model, which could then pass with no line changed by choosing the other way.
fn fill_inputs(cex: &mut Counterexample, found: &[InputValue]) {
    let named: HashSet<(u32, String, u32)> = cex
        .schedule
        .inputs
        .iter()
        .map(|i| (i.thread, i.at.clone(), i.occurrence))
        .collect();
    for i in found {
        if !named.contains(&(i.thread, i.at.clone(), i.occurrence)) {
            cex.schedule.inputs.push(i.clone());
        }
    }
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

fn check_bounds(k: Option<u32>, unwind: u32) -> outcome::Bounds {
    // `rounds` holds the context bound for ESBMC (the report's "bounds" field); a schedule
    // with K switches fits K + 1 rounds.
    outcome::Bounds {
        rounds: k.map(|k| k + 1).unwrap_or(0),
        unwind,
        threads: 0,
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

/// `seqloc check` with an external checker, one run per question of the deepening
/// ([`BoundedSearch`]): the deadlock check first (ESBMC's own while it finishes, else the
/// built-in checker's, once), then the counterexample run.
pub struct Probing<'a> {
    ext: &'a mut External,
    prep: &'a Prepared,
    subject: Subject,
    bounds: &'a Bounds,
    backstop: &'a dyn Backstop,
    log: Log<'a>,
    esbmc_deadlock: bool,
    builtin_deadlock_pending: bool,
    /// The properties asked for: what the built-in search looks for when the checker
    /// declines the program.
    props: Properties,
    notes: Vec<String>,
    /// Some question was answered with "no failure".
    answered: bool,
    /// The built-in search stood in for the checker once already.
    stand_in_asked: bool,
}

impl Probing<'_> {
    /// The built-in search already stood in for the checker in this check (its answer is
    /// in the outcome's reason): asking it again would repeat the same search.
    pub fn stood_in(&self) -> bool {
        self.stand_in_asked
    }
}

impl BoundedSearch for Probing<'_> {
    type Error = ExternalError;

    fn probe(&mut self, rung: Rung) -> Result<Probe, ExternalError> {
        let (k, unwind) = (rung.schedule, rung.unwind);
        let log = self.log;
        let bound_text = describe_bounds(k, unwind);
        let t0 = Instant::now();
        let probe = |result| Probe {
            bounds: check_bounds(k, unwind),
            result,
            encode_ms: 0,
            solve_ms: t0.elapsed().as_millis() as u64,
            stats: Stats::default(),
        };
        loop {
            if self.builtin_deadlock_pending {
                self.builtin_deadlock_pending = false;
                if let Some(out) = self.ext.builtin_deadlock(self.bounds, self.backstop, log)
                    && let Some(cex) = out.counterexample
                {
                    return Ok(Probe {
                        bounds: out.bounds,
                        result: Probed::Found {
                            cex: Box::new(cex),
                            notes: vec![
                                "the deadlock was found by seqloc's built-in checker".into(),
                            ],
                            detail: None,
                        },
                        encode_ms: out.stats.encode_ms,
                        solve_ms: out.stats.solve_ms,
                        stats: out.stats,
                    });
                }
            }
            let deadlock_run = self.esbmc_deadlock;
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
                self.ext
                    .cfg
                    .timeout
                    .map(|t| t.mul_f64(DEADLOCK_SHARE))
                    .unwrap_or(DEADLOCK_DEFAULT)
            });
            let run_start = Instant::now();
            let trace = match self.ext.run(&self.subject.file, &f, &tag, budget, log) {
                Ok((_, trace)) => trace,
                Err(ExternalError::Timeout { .. })
                    if deadline_left(self.ext.deadline)
                        && deadlock_run
                        && !self.ext.cfg.searches_alone() =>
                {
                    // The documented failure mode of ESBMC's deadlock check: fall back
                    // (not with `--raw`/`--alone`, where its time-out is the answer).
                    let secs = run_start.elapsed().as_secs_f64();
                    log(
                        0,
                        &format!(
                            "ESBMC's --deadlock-check did not finish in {secs:.0} s ({bound_text}); seqloc's built-in checker looks for deadlocks instead"
                        ),
                    );
                    self.notes.push(format!(
                        "ESBMC's --deadlock-check timed out after {secs:.0} s; deadlocks were looked for by seqloc's built-in checker"
                    ));
                    self.esbmc_deadlock = false;
                    self.builtin_deadlock_pending = true;
                    continue;
                }
                // Before any bound was searched to its end there is nothing to report but
                // the run that timed out, with its command line and output.
                Err(e @ ExternalError::Timeout { .. }) if !self.answered => return Err(e),
                Err(ExternalError::Timeout { .. }) => return Ok(probe(Probed::OutOfTime)),
                // The memory limit is an answer of its own: UNKNOWN, the limit named, in the
                // check's report (as the time limit), not an error.
                Err(e @ ExternalError::OutOfMemory { .. }) => {
                    return Ok(probe(Probed::Undecided {
                        reason: e.to_string(),
                        limit: Some(crate::checker::builtin::Limit::Memory),
                    }));
                }
                Err(e) => return Err(e),
            };
            let label = self.ext.cfg.kind.label();
            let result = match self.ext.read_step(&trace, self.prep, &self.subject.map)? {
                // The checkers' pthread models always check unlocks, and every run stops
                // at the first that fails: a property that leaves unlocks out gets no
                // answer from the checker at any bound, and the built-in checker answers
                // in its place.
                Step::Found(cex, _)
                    if cex.violation.kind == ViolationKind::Unlock && !self.props.unlocks =>
                {
                    let why = format!(
                        "its pthread model stops at an unlock of a mutex no thread holds (\"must hold lock upon unlock\") at line {}, a property outside the one asked for",
                        cex.violation.line
                    );
                    return Ok(self.declined(&why, &bound_text, probe));
                }
                Step::Found(cex, other) => {
                    let what = if cex.violation.kind == ViolationKind::Deadlock {
                        "deadlock"
                    } else {
                        "failure"
                    };
                    log(0, &format!("{label} found a {what} ({bound_text})"));
                    let (cex, note, confirmed) =
                        self.ext.found(*cex, other, self.backstop, unwind, log);
                    match note {
                        // A verdict seqloc cannot reproduce is the checker's word only; it
                        // has been wrong (false deadlocks, a self-join that waits for ever).
                        // With `--raw` the user asked for that word.
                        // The built-in search looks for the failure once in its place: a
                        // failure of its own, replayed, is one the checker can localize along.
                        Some(note) if !confirmed && !self.ext.cfg.searches_alone() => {
                            let reason = format!(
                                "{note}; the {what} is not reported as a verdict (--raw or --alone report the checker's own answer)"
                            );
                            if !self.stand_in_asked {
                                log(
                                    0,
                                    &format!(
                                        "{label}'s {what} does not replay; seqloc's built-in checker looks for a failing interleaving"
                                    ),
                                );
                                let standing = format!(
                                    "{note}; the failing interleaving was found by seqloc's built-in checker in its place, and {label} ran on the sequential programs built from it"
                                );
                                if let Ok(Ok(found)) = self.stand_in(standing) {
                                    return Ok(found);
                                }
                            }
                            Probed::Undecided {
                                reason,
                                limit: None,
                            }
                        }
                        note => Probed::Found {
                            cex: Box::new(cex),
                            notes: note.into_iter().collect(),
                            detail: None,
                        },
                    }
                }
                Step::Undecided(why) => Probed::Undecided {
                    reason: format!("{label} could not decide ({bound_text}): {why}"),
                    limit: None,
                },
                Step::Declined(why) => return Ok(self.declined(&why, &bound_text, probe)),
                Step::Unwind(at) => {
                    self.answered = true;
                    Probed::NoFailure {
                        reached: vec![at],
                        other: vec![],
                        schedule_enough: None,
                    }
                }
                Step::Clean => {
                    self.answered = true;
                    log(1, &format!("no failure with {bound_text}"));
                    if let Some(found) = self.doubted_clean(&bound_text) {
                        return Ok(found);
                    }
                    Probed::NoFailure {
                        reached: vec![],
                        other: vec![],
                        schedule_enough: None,
                    }
                }
            };
            return Ok(probe(result));
        }
    }

    fn bounds_text(&self, b: &outcome::Bounds) -> String {
        describe_bounds(schedule_bound(self.ext.cfg.kind, b), b.unwind)
    }

    fn no_failure_text(&self, b: &outcome::Bounds) -> String {
        match schedule_bound(self.ext.cfg.kind, b) {
            Some(k) => format!(
                "no failure in any interleaving with up to {} (ESBMC --context-bound {k}), loops unwound {}",
                crate::words::count(k, "context switch"),
                crate::words::count(b.unwind, "time")
            ),
            None => format!(
                "no failure in any interleaving (CBMC), loops unwound {}",
                crate::words::count(b.unwind, "time")
            ),
        }
    }

    fn notes(&self) -> Vec<String> {
        self.notes.clone()
    }

    fn doubt(&self, b: &outcome::Bounds) -> Option<String> {
        self.misses().map(|m| {
            format!(
                "ESBMC found no failure ({}), but {m}, so that is not trusted; the built-in checker and CBMC model them",
                self.bounds_text(b)
            )
        })
    }
}

/// The locals and parameters another thread reaches through a pointer.
fn escaped_locals(prep: &Prepared) -> Vec<crate::ir::VarId> {
    prep.shared
        .vars
        .iter()
        .copied()
        .filter(|v| prep.normalized.var(*v).kind != crate::ir::VarKind::Global)
        .collect()
}

/// The context bound a report's bounds hold (`rounds` is the bound plus one), for ESBMC.
fn schedule_bound(kind: Kind, b: &outcome::Bounds) -> Option<u32> {
    (kind == Kind::Esbmc && b.rounds > 0).then(|| b.rounds - 1)
}
