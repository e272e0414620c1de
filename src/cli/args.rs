//! What the user typed: clap definitions only, no I/O.

use std::path::PathBuf;

use clap::{Args, Parser, Subcommand, ValueEnum};

use seqloc::report::style::ColorChoice;

const ABOUT: &str =
    "Localize the faulty lines of multi-threaded pthread C programs with bounded model checking";

const LONG_ABOUT: &str = "\
seqloc asks a bounded model checker for a failing interleaving of a pthread C program, \
rewrites the threads into one sequential program that replays it, instruments every \
statement with a nondeterministic `diag` switch and asks again which single-line changes \
make the failure go away (Alves, Cordeiro, de Lima Filho: Fault Localization in \
Multi-Threaded C Programs using Bounded Model Checking).";

/// `seqloc 0.1.0 (Z3 4.8.12)`: the built-in checker's solver is part of what answers.
pub static VERSION: std::sync::LazyLock<String> = std::sync::LazyLock::new(|| {
    format!(
        "{} ({})",
        env!("CARGO_PKG_VERSION"),
        super::cmd_check::z3_version()
    )
});

/// The long help: the description and the exit codes, from the one table of them.
fn long_about() -> String {
    let mut s = format!("{LONG_ABOUT}\n\nExit codes:");
    for (code, meaning) in seqloc::exit::CODES {
        s.push_str(&format!("\n  {code}  {}", meaning.replace('`', "")));
    }
    s
}

#[derive(Parser, Debug)]
#[command(
    name = "seqloc",
    version = VERSION.as_str(),
    about = ABOUT,
    long_about = long_about(),
    propagate_version = true
)]
pub struct Cli {
    #[command(subcommand)]
    pub cmd: Command,
    /// When to use colour on the terminal (NO_COLOR is honoured)
    #[arg(long, global = true, value_enum, default_value_t = ColorChoice::Auto)]
    pub color: ColorChoice,
    /// Print the stages, their timings and every external command line
    #[arg(short, long, global = true, action = clap::ArgAction::Count)]
    pub verbose: u8,
}

#[derive(Subcommand, Debug)]
pub enum Command {
    /// Parse a C file and print its concurrency facts: threads, shared variables, locks, assertions
    Parse(ParseArgs),
    /// Search for a failing interleaving (assertion failure, reach_error, deadlock)
    Check(CheckArgs),
    /// Write the sequential program that replays one interleaving (the switch(order[i]) framework)
    Sequentialize(SeqArgs),
    /// Write the diag-instrumented sequential program used for localization
    Instrument(InstrumentArgs),
    /// Find the lines whose change removes the failure (the main job)
    Localize(LocalizeArgs),
    /// Localize, then propose a lock, a reordering or an unlock that removes the failure,
    /// re-checked before it is shown, as a patch of the source file
    Repair(RepairArgs),
    /// Run check or localize over SV-COMP-style task folders, in parallel, with limits
    Sweep(SweepArgs),
}

#[derive(Args, Debug, Clone)]
pub struct InputArgs {
    /// The C file (`.c`, or `.i` already preprocessed)
    pub file: PathBuf,
    /// Add a directory to the preprocessor's include path
    #[arg(short = 'I', value_name = "DIR")]
    pub include: Vec<PathBuf>,
    /// Define a preprocessor macro (NAME or NAME=VALUE)
    #[arg(short = 'D', value_name = "MACRO")]
    pub define: Vec<String>,
    /// Target data model: the width of long and of pointers
    #[arg(long, value_enum, default_value_t = DataModelArg::Lp64)]
    pub data_model: DataModelArg,
    /// What a call of a function the program declares (or calls) but never defines means
    #[arg(long, value_enum, value_name = "MEANING", default_value_t = UndefinedArg::Refuse)]
    pub undefined_functions: UndefinedArg,
}

#[derive(ValueEnum, Debug, Clone, Copy, PartialEq, Eq)]
pub enum UndefinedArg {
    /// Refused by name (exit 2): its effect is unknown
    Refuse,
    /// ESBMC's and CBMC's convention: a nondeterministic return value and no other effect
    /// (never for a C library function, nor one returning a pointer, struct or float)
    Nondet,
}

#[derive(ValueEnum, Debug, Clone, Copy, PartialEq, Eq)]
pub enum DataModelArg {
    /// 32-bit long and pointers (most SV-COMP concurrency tasks)
    Ilp32,
    /// 64-bit long and pointers (x86-64 Linux)
    Lp64,
}

#[derive(ValueEnum, Debug, Clone, Copy, PartialEq, Eq)]
pub enum Format {
    Text,
    Json,
    Sarif,
    /// One self-contained HTML page (source with the candidates, swim lanes of the threads)
    Html,
}

/// The formats `repair` writes: a repair has no HTML page, so its help does not offer one.
#[derive(ValueEnum, Debug, Clone, Copy, PartialEq, Eq)]
pub enum RepairFormat {
    Text,
    Json,
    Sarif,
}

impl From<RepairFormat> for Format {
    fn from(f: RepairFormat) -> Format {
        match f {
            RepairFormat::Text => Format::Text,
            RepairFormat::Json => Format::Json,
            RepairFormat::Sarif => Format::Sarif,
        }
    }
}

/// `--format`, or JSON for `--json` (the two conflict, so at most one was given).
pub fn output_format(format: Format, json: bool) -> Format {
    if json { Format::Json } else { format }
}

#[derive(ValueEnum, Debug, Clone, Copy, PartialEq, Eq)]
pub enum CheckerKind {
    /// seqloc's own bounded model checker (Z3); needs nothing installed
    Builtin,
    /// ESBMC, run as a process
    Esbmc,
    /// CBMC, run as a process
    Cbmc,
}

impl CheckerKind {
    /// The checker's name in a sentence.
    pub fn label(self) -> &'static str {
        match self {
            CheckerKind::Builtin => "the built-in checker",
            CheckerKind::Esbmc => "ESBMC",
            CheckerKind::Cbmc => "CBMC",
        }
    }
}

#[derive(ValueEnum, Debug, Clone, Copy, PartialEq, Eq)]
pub enum PropertyArg {
    /// Assertions, reach_error and deadlocks
    All,
    /// Assertions and reach_error (the SV-COMP unreach-call property)
    UnreachCall,
    /// Deadlocks only (every live thread blocked)
    Deadlock,
}

#[derive(Args, Debug, Clone)]
pub struct CheckerArgs {
    /// Which bounded model checker finds the interleavings
    #[arg(long, value_enum, default_value_t = CheckerKind::Builtin)]
    pub checker: CheckerKind,
    /// Path to the checker's executable (default: found on PATH, or $SEQLOC_ESBMC / $SEQLOC_CBMC)
    #[arg(long, value_name = "PATH")]
    pub checker_path: Option<PathBuf>,
    /// An extra argument for the external checker (repeatable)
    #[arg(long, value_name = "ARG", allow_hyphen_values = true)]
    pub checker_arg: Vec<String>,
    /// Time limit in seconds for the whole analysis (a run that reaches it answers
    /// UNKNOWN, exit 3, naming the limit)
    /// [default: 900]
    #[arg(long, value_name = "SECS", value_parser = seconds)]
    pub timeout: Option<f64>,
    /// Memory limit in MB: the external checker's, or, with the built-in checker, seqloc's
    /// resident memory during the search and the localization (a watchdog stops it:
    /// UNKNOWN, exit 3, the limit named)
    #[arg(long, value_name = "MB", value_parser = clap::value_parser!(u64).range(1..))]
    pub memory_limit: Option<u64>,
    /// Run the external checker on the file as written, not on seqloc's version with
    /// every shared read and write as its own statement, and let its search alone find the
    /// failing interleaving (for comparison)
    #[arg(long)]
    pub raw: bool,
    /// Let the external checker's own search alone find the failing interleaving, on
    /// seqloc's version of the file: no built-in search beside it, nor in its place where
    /// its answer does not replay (for comparison; --raw implies it)
    #[arg(long)]
    pub alone: bool,
    /// Keep temporary files (and print where they are)
    #[arg(long)]
    pub keep_temps: bool,
}

/// Default of `--timeout`: SV-COMP's 15 minutes. Without one a search that cannot
/// finish would never answer; with it the answer is UNKNOWN, saying which limit.
pub const DEFAULT_TIMEOUT: f64 = 900.0;

/// Default of `--max-rounds`.
pub const MAX_ROUNDS: u32 = 16;
/// Default of `--threads`.
pub const THREADS: u32 = 64;

#[derive(Args, Debug, Clone)]
pub struct BoundArgs {
    /// Rounds of round-robin scheduling (default: deepen 2, 3, 4, 6, ... up to --max-rounds).
    /// A failure the explicit-state explorer finds beyond it is reported, not localized
    #[arg(long, value_name = "N", value_parser = clap::value_parser!(u32).range(1..))]
    pub rounds: Option<u32>,
    /// Bound the number of context switches: K + 1 rounds, of which at most K + 1 thread
    /// runs execute anything, so no counterexample has more than K switches
    #[arg(long, value_name = "K", conflicts_with = "rounds")]
    pub context_switches: Option<u32>,
    /// Largest number of rounds when deepening [default: 16, or --rounds when that is
    /// more; without --rounds, --context-switches, --max-rounds or --threads, up to 64
    /// while the explicit-state search holds a failure that is not replayed yet]; below
    /// --rounds it is refused
    #[arg(long, value_name = "N", value_parser = clap::value_parser!(u32).range(1..))]
    pub max_rounds: Option<u32>,
    /// Loop unwinding bound (default: deepen from 2 while a bound is reached; counted loops run exactly)
    #[arg(long, value_name = "N", value_parser = clap::value_parser!(u32).range(1..))]
    pub unwind: Option<u32>,
    /// Largest loop bound when deepening
    #[arg(long, value_name = "N", default_value_t = 64, value_parser = clap::value_parser!(u32).range(1..))]
    pub max_unwind: u32,
    /// Take the loop bound as an assumption, as ESBMC's and CBMC's
    /// `--no-unwinding-assertions` do (accepted as an alias): executions that run a loop
    /// past it are not searched, and a search that finds no failure in the rest answers NO
    /// FAILURE WITHIN BOUNDS (exit 0), naming the loops it cut, instead of UNKNOWN
    #[arg(long, visible_alias = "no-unwinding-assertions")]
    pub assume_loop_bounds: bool,
    /// Most threads (main included) the search provides slots for [default: 64]
    #[arg(long, value_name = "N", value_parser = clap::value_parser!(u32).range(1..))]
    pub threads: Option<u32>,
    /// Recursion depth for inlining; at least the loop unwinding (as CBMC's `--unwind`
    /// bounds recursion too): a run that recurses deeper is cut off, as a loop past its bound
    #[arg(long, value_name = "N", default_value_t = 3, value_parser = clap::value_parser!(u32).range(1..))]
    pub recursion: u32,
    /// Do not run the explicit-state explorer beside the bounded search (it proves
    /// programs with few states correct with no bound, and spots failures beyond the bounds)
    #[arg(long)]
    pub no_explore: bool,
}

#[derive(Args, Debug)]
pub struct ParseArgs {
    #[command(flatten)]
    pub input: InputArgs,
    /// Print the facts as JSON (seqloc.parse/1)
    #[arg(long)]
    pub json: bool,
    /// Print the program as seqloc's IR reads it back (C), instead of the facts
    #[arg(long)]
    pub print: bool,
    /// Print the program (C, with `/* file:line */` comments) as it stands after a
    /// stage of the pipeline: `lowered` (the front end) or `normalized` (after
    /// `passes::prepare`: one shared access per statement, every loop in one shape)
    #[arg(long, value_enum, value_name = "STAGE", conflicts_with_all = ["print", "json"])]
    pub dump_ir: Option<IrStage>,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, clap::ValueEnum)]
pub enum IrStage {
    Lowered,
    Normalized,
}

#[derive(Args, Debug)]
pub struct CheckArgs {
    #[command(flatten)]
    pub input: InputArgs,
    #[command(flatten)]
    pub checker: CheckerArgs,
    #[command(flatten)]
    pub bounds: BoundArgs,
    /// Which properties to check
    #[arg(long, value_enum, default_value_t = PropertyArg::All)]
    pub property: PropertyArg,
    /// Output format (a failure then prints a `seqloc.error/1` document, SARIF with the
    /// error as a notification, or an HTML error page, on stdout too)
    #[arg(long, value_enum, default_value_t = Format::Text)]
    pub format: Format,
    /// Same as --format json
    #[arg(long, conflicts_with = "format")]
    pub json: bool,
    /// Write the failing schedule (seqloc.schedule/1) to this file
    #[arg(long, value_name = "FILE")]
    pub emit_schedule: Option<PathBuf>,
    #[command(flatten)]
    pub artefacts: super::artefacts::ArtefactArgs,
    /// Prefer the bounded search's counterexample with the fewest rounds (set by the
    /// commands that explain or replay it, not an option of `check`).
    #[arg(skip)]
    pub fewest_rounds: bool,
    /// With `fewest_rounds`: take the explorer's failure after this long from the start
    /// (`engine::check::CheckOptions::explorer_after`; set by `localize`, which simplifies
    /// its schedule).
    #[arg(skip)]
    pub explorer_after: Option<std::time::Duration>,
}

#[derive(Args, Debug)]
pub struct SeqArgs {
    #[command(flatten)]
    pub input: InputArgs,
    /// Replay this schedule (seqloc.schedule/1 JSON, a GraphML witness seqloc wrote, or a
    /// YAML format-2.2 violation witness);
    /// without it the checker finds one
    #[arg(long, value_name = "FILE")]
    pub schedule: Option<PathBuf>,
    /// Write the lazy sequentialization with a nondeterministic schedule instead (what the
    /// built-in checker checks)
    #[arg(long, conflicts_with = "schedule")]
    pub symbolic: bool,
    /// Where to write the C (default: stdout)
    #[arg(short, long, value_name = "FILE")]
    pub output: Option<PathBuf>,
    /// Spell intrinsics for this checker
    #[arg(long, value_enum)]
    pub dialect: Option<DialectArg>,
    /// Table II rules directory (deadlock.toml, nondeadlock.toml)
    #[arg(long, value_name = "DIR")]
    pub rules: Option<PathBuf>,
    /// Templates directory (framework.c, dialects/*.toml)
    #[arg(long, value_name = "DIR")]
    pub templates: Option<PathBuf>,
    /// Print the statements a schedule can name (file:line:col#part), then exit
    #[arg(long)]
    pub list_points: bool,
    /// Use the deadlock group of Table II (mutexes as integers with blocking) even for a
    /// failure that is not a deadlock
    #[arg(long)]
    pub deadlock_rules: bool,
    /// Write the schedule used to this file
    #[arg(long, value_name = "FILE")]
    pub emit_schedule: Option<PathBuf>,
    /// Do not run a --schedule's replay with the built-in checker to reject schedules no
    /// execution can follow (the check takes seconds on long schedules of large programs)
    #[arg(long)]
    pub no_validate: bool,
    #[command(flatten)]
    pub checker: CheckerArgs,
    #[command(flatten)]
    pub bounds: BoundArgs,
}

#[derive(ValueEnum, Debug, Clone, Copy, PartialEq, Eq)]
pub enum DialectArg {
    Svcomp,
    Esbmc,
    Cbmc,
    Gcc,
}

impl CheckerArgs {
    /// `--timeout`, or the default: there is always a time limit.
    pub fn time_limit(&self) -> Option<f64> {
        Some(self.timeout.unwrap_or(DEFAULT_TIMEOUT))
    }
}

impl BoundArgs {
    /// `--max-rounds`, or the default raised to `--rounds` when that asks for more: a
    /// default must not quietly cap what the user asked for.
    pub fn max_rounds(&self) -> u32 {
        self.max_rounds
            .unwrap_or_else(|| MAX_ROUNDS.max(self.fixed_rounds().unwrap_or(0)))
    }
    /// The rounds `--rounds` or `--context-switches` fix, if either was given.
    fn fixed_rounds(&self) -> Option<u32> {
        self.rounds
            .or(self.context_switches.map(|k| k.saturating_add(1)))
    }
    /// Refuses bounds that contradict each other: a fixed number of rounds above an
    /// explicit `--max-rounds` would be cut to it, and the answer would name bounds the
    /// user did not ask for.
    pub fn validate(&self) -> Result<(), String> {
        let (Some(max), Some(fixed)) = (self.max_rounds, self.fixed_rounds()) else {
            return Ok(());
        };
        if fixed <= max {
            return Ok(());
        }
        let asked = match (self.rounds, self.context_switches) {
            (Some(r), _) => format!("--rounds {r}"),
            (None, Some(k)) => format!("--context-switches {k} ({fixed} rounds)"),
            (None, None) => return Ok(()),
        };
        Err(format!(
            "{asked} is above --max-rounds {max}: the search would stop at {max} rounds; raise --max-rounds or lower the other"
        ))
    }
    pub fn threads(&self) -> u32 {
        self.threads.unwrap_or(THREADS)
    }
    /// The most rounds the user allowed, when they said: a failure needing more is beyond
    /// what they asked to search.
    pub fn user_rounds(&self) -> Option<u32> {
        self.rounds
            .or(self.context_switches.map(|k| k.saturating_add(1)))
            .or(self.max_rounds)
    }
}

/// A time limit in seconds: positive and finite.
fn seconds(s: &str) -> Result<f64, String> {
    match s.parse::<f64>() {
        Ok(v) if v.is_finite() && v > 0.0 && v <= MAX_SECONDS => Ok(v),
        Ok(v) if v > MAX_SECONDS => Err(format!(
            "must be at most {MAX_SECONDS:.0} seconds (about a year): every run has a time limit (left out, the option's default), and none is longer"
        )),
        Ok(_) => Err("must be a positive number of seconds".into()),
        Err(e) => Err(e.to_string()),
    }
}

/// The longest time limit taken: a deadline past it overflows the clock (`Instant` plus a
/// duration of 10^30 s panics), and no run is meant to last longer.
const MAX_SECONDS: f64 = 31_536_000.0;

impl DialectArg {
    pub fn name(self) -> &'static str {
        match self {
            DialectArg::Svcomp => "svcomp",
            DialectArg::Esbmc => "esbmc",
            DialectArg::Cbmc => "cbmc",
            DialectArg::Gcc => "gcc",
        }
    }
}

#[derive(Args, Debug)]
pub struct InstrumentArgs {
    #[command(flatten)]
    pub input: InputArgs,
    /// Instrument along this schedule; without it the checker finds one
    #[arg(long, value_name = "FILE")]
    pub schedule: Option<PathBuf>,
    /// Where to write the C (default: stdout)
    #[arg(short, long, value_name = "FILE")]
    pub output: Option<PathBuf>,
    /// Number of diag variables (lines that may change together)
    #[arg(long, value_name = "N", default_value_t = 1, value_parser = clap::value_parser!(u32).range(1..))]
    pub faults: u32,
    /// Table II rules directory (deadlock.toml, nondeadlock.toml)
    #[arg(long, value_name = "DIR")]
    pub rules: Option<PathBuf>,
    /// Templates directory (framework.c, dialects/*.toml)
    #[arg(long, value_name = "DIR")]
    pub templates: Option<PathBuf>,
    #[command(flatten)]
    pub checker: CheckerArgs,
    #[command(flatten)]
    pub bounds: BoundArgs,
}

#[derive(Args, Debug)]
pub struct LocalizeArgs {
    #[command(flatten)]
    pub input: InputArgs,
    #[command(flatten)]
    pub checker: CheckerArgs,
    #[command(flatten)]
    pub bounds: BoundArgs,
    /// Which properties to check
    #[arg(long, value_enum, default_value_t = PropertyArg::All)]
    pub property: PropertyArg,
    /// Localize along this schedule (JSON, a GraphML witness seqloc wrote, or a YAML
    /// format-2.2 witness) instead of asking the checker for one
    #[arg(long, value_name = "FILE")]
    pub schedule: Option<PathBuf>,
    /// Number of diag variables: report minimal sets of up to N lines that must change together
    #[arg(long, value_name = "N", default_value_t = 1, value_parser = clap::value_parser!(u32).range(1..))]
    pub faults: u32,
    /// Stop after this many candidates: the first N the checker finds, ranked among
    /// themselves (a full run may rank another line first)
    #[arg(long, value_name = "N", value_parser = clap::value_parser!(u32).range(1..))]
    pub max_candidates: Option<u32>,
    /// Look for up to N minimal root causes: sets of the failing run's inter-thread
    /// orderings that by themselves force the failure (0: none)
    #[arg(long, value_name = "N", default_value_t = 3)]
    pub root_causes: u32,
    /// Seconds the root-cause search may take in all, from the start of the localization
    /// (default 20, a safety net: the search is bounded by 120 solver questions and 8
    /// million units of Z3's work, which do not depend on the machine's load)
    #[arg(long, value_name = "SECS", value_parser = clap::value_parser!(u64).range(1..))]
    pub root_cause_time: Option<u64>,
    /// Do not try one-token changes (an operator, an integer constant) of the value
    /// candidates' lines; by default a line where one removes the failure from every
    /// execution ranks before the other value candidates
    #[arg(long)]
    pub no_mutants: bool,
    /// Output format (a failure then prints a `seqloc.error/1` document, SARIF with the
    /// error as a notification, or an HTML error page, on stdout too)
    #[arg(long, value_enum, default_value_t = Format::Text)]
    pub format: Format,
    /// Same as --format json
    #[arg(long, conflicts_with = "format")]
    pub json: bool,
    /// Write the sequential program (for manual inspection)
    #[arg(long, value_name = "FILE")]
    pub emit_sequential: Option<PathBuf>,
    /// Write the diag-instrumented program (for manual inspection)
    #[arg(long, value_name = "FILE")]
    pub emit_instrumented: Option<PathBuf>,
    #[command(flatten)]
    pub artefacts: super::artefacts::ArtefactArgs,
    /// Table II rules directory (deadlock.toml, nondeadlock.toml)
    #[arg(long, value_name = "DIR")]
    pub rules: Option<PathBuf>,
    /// Templates directory (framework.c, dialects/*.toml)
    #[arg(long, value_name = "DIR")]
    pub templates: Option<PathBuf>,
    /// Also propose a verified repair, as `seqloc repair` does (its report replaces this
    /// one's)
    #[arg(long)]
    pub repair: bool,
}

#[derive(Args, Debug)]
pub struct RepairArgs {
    #[command(flatten)]
    pub input: InputArgs,
    #[command(flatten)]
    pub checker: CheckerArgs,
    #[command(flatten)]
    pub bounds: BoundArgs,
    /// Which properties the failure to repair may break (repairs are re-checked against
    /// assertions and deadlocks both)
    #[arg(long, value_enum, default_value_t = PropertyArg::All)]
    pub property: PropertyArg,
    /// Write the first verified repair to FILE as a unified diff (`git apply FILE`, or
    /// `patch -p1 < FILE`, from the directory the input path is relative to)
    #[arg(long, value_name = "FILE")]
    pub write_patch: Option<PathBuf>,
    /// How many verified repairs to look for
    #[arg(long, value_name = "N", default_value_t = 1, value_parser = clap::value_parser!(u32).range(1..))]
    pub repairs: u32,
    /// Time limit of each re-check of a patched program (the whole run stays within
    /// --timeout)
    #[arg(long, value_name = "SECS", default_value_t = 60.0, value_parser = seconds)]
    pub verify_timeout: f64,
    /// Output format: text, json (`seqloc.repair/1`, documented in src/report/repair.rs) or
    /// sarif (the repair as a fix); for the HTML view of the localization run `seqloc
    /// localize --format html`
    #[arg(long, value_enum, default_value_t = RepairFormat::Text)]
    pub format: RepairFormat,
    /// Same as --format json
    #[arg(long, conflicts_with = "format")]
    pub json: bool,
}

#[derive(Args, Debug)]
pub struct SweepArgs {
    /// Folders, .yml task files or .c/.i files
    #[arg(required_unless_present = "merge")]
    pub paths: Vec<PathBuf>,
    /// What to run per task
    #[arg(long, value_enum, default_value_t = SweepMode::Check)]
    pub mode: SweepMode,
    /// Parallel tasks (default: all cores)
    #[arg(short, long, value_name = "N", value_parser = clap::builder::RangedU64ValueParser::<usize>::new().range(1..))]
    pub jobs: Option<usize>,
    /// Per-task time limit in seconds
    #[arg(long, value_name = "SECS", default_value_t = 60.0, value_parser = seconds)]
    pub timeout: f64,
    /// Per-task memory limit in MB (0: none)
    #[arg(long, value_name = "MB", default_value_t = 4096)]
    pub memory_limit: u64,
    /// Run only slice I of N (1-based), e.g. 2/4
    #[arg(long, value_name = "I/N")]
    pub shard: Option<String>,
    /// Write results as JSON
    #[arg(long, value_name = "FILE")]
    pub json: Option<PathBuf>,
    /// Write results as CSV
    #[arg(long, value_name = "FILE")]
    pub csv: Option<PathBuf>,
    /// Merge the JSON results of shards instead of running
    #[arg(long, value_name = "FILE", num_args = 1..)]
    pub merge: Vec<PathBuf>,
    /// Write a violation witness of each task that fails into DIR (created if missing):
    /// DIR/<task>.graphml, and DIR/<task>.witness.yml for an assertion or reach_error failure
    #[arg(long, value_name = "DIR", conflicts_with = "merge")]
    pub witness_dir: Option<PathBuf>,
    /// Extra arguments for each task's seqloc run (e.g. --checker esbmc)
    #[arg(long = "task-arg", value_name = "ARG", allow_hyphen_values = true)]
    pub task_args: Vec<String>,
    /// No progress bar
    #[arg(long)]
    pub no_progress: bool,
    /// Exit 0 even when a task's verdict is wrong or a task errored (by default the sweep
    /// then exits 1)
    #[arg(long)]
    pub exit_zero: bool,
}

#[derive(ValueEnum, Debug, Clone, Copy, PartialEq, Eq)]
pub enum SweepMode {
    Check,
    Localize,
}
