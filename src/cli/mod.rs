//! The command line: one function per subcommand, errors mapped to exit codes in one place.

pub mod args;
mod artefacts;
mod cmd_check;
mod cmd_localize;
mod cmd_parse;
mod cmd_repair;
mod cmd_seq;
mod cmd_sweep;
mod mutants;
mod progress;

use std::path::{Path, PathBuf};
use std::process::ExitCode;
use std::time::Duration;

use args::{Cli, Command, DataModelArg, InputArgs};
use seqloc::diagnostics::SourceSpot;
use seqloc::frontend::{FrontendError, FrontendOptions, PreprocessOptions};
use seqloc::ir::{DataModel, Program};
use seqloc::report::style::Style;

pub use seqloc::exit::{
    BAD_INPUT as EXIT_BAD_INPUT, FAILURE_FOUND as EXIT_FAILURE_FOUND, NO_ANSWER as EXIT_CHECKER,
    NO_FAILURE as EXIT_NO_FAILURE,
};

/// An error on its way to the user: the exit code, the message, located diagnostics.
#[derive(Debug)]
pub struct Fail {
    pub code: u8,
    pub message: String,
    pub spots: Vec<SourceSpot>,
    pub notes: Vec<String>,
    /// The limit that stopped the run, for the machine-readable error.
    pub limit: Option<seqloc::checker::builtin::Limit>,
}

impl Fail {
    pub fn input(message: impl Into<String>) -> Fail {
        Fail {
            code: EXIT_BAD_INPUT,
            message: message.into(),
            spots: vec![],
            notes: vec![],
            limit: None,
        }
    }
    pub fn checker(message: impl Into<String>) -> Fail {
        Fail {
            code: EXIT_CHECKER,
            message: message.into(),
            spots: vec![],
            notes: vec![],
            limit: None,
        }
    }
}

impl From<FrontendError> for Fail {
    fn from(e: FrontendError) -> Fail {
        let mut f = Fail::input(e.to_string());
        f.spots = e.spots().into_iter().cloned().collect();
        if let FrontendError::Preprocess {
            command, stderr, ..
        } = &e
        {
            f.notes.push(format!("command: {command}"));
            let tail: Vec<&str> = stderr.lines().rev().take(8).collect();
            for l in tail.into_iter().rev() {
                f.notes.push(l.to_string());
            }
        }
        f
    }
}

impl Fail {
    /// A refused construct: bad input, located (the caret display, JSON `locations`).
    pub fn refusal(message: String, spot: Option<&SourceSpot>) -> Fail {
        Fail {
            spots: spot.into_iter().cloned().collect(),
            ..Fail::input(message)
        }
    }

    fn from_seq(e: &seqloc::seq::SeqError) -> Fail {
        Fail::refusal(e.to_string(), e.spot())
    }
}

impl From<seqloc::seq::SeqError> for Fail {
    fn from(e: seqloc::seq::SeqError) -> Fail {
        Fail::from_seq(&e)
    }
}

impl From<seqloc::seq::schedule::ScheduleError> for Fail {
    fn from(e: seqloc::seq::schedule::ScheduleError) -> Fail {
        Fail::input(e.to_string())
    }
}

impl From<seqloc::engine::check::CheckError> for Fail {
    fn from(e: seqloc::engine::check::CheckError) -> Fail {
        use seqloc::checker::builtin::BmcError;
        use seqloc::checker::builtin::symex::SymexError;
        use seqloc::engine::check::CheckError;
        match &e {
            CheckError::Seq(s) => Fail::from_seq(s),
            CheckError::Bmc(BmcError::Symex(SymexError::Unsupported(spot))) => {
                Fail::refusal(e.to_string(), Some(spot))
            }
            CheckError::Bmc(BmcError::Symex(SymexError::Timeout)) => {
                match seqloc::checker::builtin::stop::requested() {
                    Some(l) => Fail {
                        limit: Some(l),
                        ..Fail::checker(format!(
                            "{} while encoding the program",
                            seqloc::checker::builtin::stop::describe(l)
                        ))
                    },
                    None => Fail {
                        limit: Some(seqloc::checker::builtin::Limit::Time),
                        ..Fail::checker("time limit reached while encoding the program")
                    },
                }
            }
            _ => Fail::checker(e.to_string()),
        }
    }
}

impl From<seqloc::engine::localize::LocalizeError> for Fail {
    fn from(e: seqloc::engine::localize::LocalizeError) -> Fail {
        use seqloc::checker::oracle::OracleError;
        use seqloc::engine::localize::LocalizeError;
        match e {
            LocalizeError::Limit(l, _) => Fail {
                limit: Some(l),
                ..Fail::checker(e.to_string())
            },
            LocalizeError::Oracle(OracleError::External(e)) => cmd_check::external_fail(e),
            // A construct the diagnosis model's encoding refuses is the program's, as in
            // `check`: bad input, not a checker failure.
            LocalizeError::Oracle(OracleError::Builtin(
                seqloc::checker::builtin::BmcError::Symex(
                    seqloc::checker::builtin::symex::SymexError::Unsupported(ref spot),
                ),
            )) => Fail::refusal(e.to_string(), Some(spot)),
            e => Fail::checker(e.to_string()),
        }
    }
}

impl From<seqloc::seq::FrameworkError> for Fail {
    fn from(e: seqloc::seq::FrameworkError) -> Fail {
        Fail::input(e.to_string())
    }
}

impl From<seqloc::dialect::DialectError> for Fail {
    fn from(e: seqloc::dialect::DialectError) -> Fail {
        Fail::input(e.to_string())
    }
}

impl From<seqloc::seq::rules::RulesError> for Fail {
    fn from(e: seqloc::seq::rules::RulesError) -> Fail {
        Fail::input(e.to_string())
    }
}

impl From<seqloc::seq::skeleton::SkeletonError> for Fail {
    fn from(e: seqloc::seq::skeleton::SkeletonError) -> Fail {
        Fail::input(e.to_string())
    }
}

pub struct Ctx {
    pub verbose: u8,
    pub color: seqloc::report::style::ColorChoice,
}

pub fn main() -> ExitCode {
    let cli = match parse_command_line() {
        Ok(c) => c,
        Err(e) => return usage_error(e),
    };
    let err_style = Style::for_stderr(cli.color);
    let ctx = Ctx {
        verbose: cli.verbose,
        color: cli.color,
    };
    let machine = machine_output(&cli.cmd);
    // Ctrl-C, SIGTERM and the built-in checker's memory limit stop every stage of a run
    // (search, replays, localization) with an answer: UNKNOWN, exit 3, the limit named.
    let checker = match &cli.cmd {
        Command::Check(a) => Some(&a.checker),
        Command::Sequentialize(a) => Some(&a.checker),
        Command::Instrument(a) => Some(&a.checker),
        Command::Localize(a) => Some(&a.checker),
        Command::Repair(a) => Some(&a.checker),
        Command::Parse(_) | Command::Sweep(_) => None,
    };
    if let Some(c) = checker {
        let builtin = c.checker == args::CheckerKind::Builtin;
        seqloc::checker::builtin::stop::watch(c.memory_limit.filter(|_| builtin));
        seqloc::checker::builtin::stop::set_time_limit(timeout(c.time_limit()));
    }
    let bounds = match &cli.cmd {
        Command::Check(a) => Some(&a.bounds),
        Command::Sequentialize(a) => Some(&a.bounds),
        Command::Instrument(a) => Some(&a.bounds),
        Command::Localize(a) => Some(&a.bounds),
        Command::Repair(a) => Some(&a.bounds),
        Command::Parse(_) | Command::Sweep(_) => None,
    };
    if let Some(Err(message)) = bounds.map(args::BoundArgs::validate) {
        return fail(Fail::input(message), machine.as_ref(), &err_style);
    }
    let r = match cli.cmd {
        Command::Parse(a) => cmd_parse::run(&ctx, a),
        Command::Check(a) => cmd_check::run(&ctx, a),
        Command::Sequentialize(a) => cmd_seq::run(&ctx, a),
        Command::Instrument(a) => cmd_localize::instrument(&ctx, a),
        Command::Localize(a) => cmd_localize::run(&ctx, a),
        Command::Repair(a) => cmd_repair::run(&ctx, a),
        Command::Sweep(a) => cmd_sweep::run(&ctx, a),
    };
    match r {
        Ok(code) => ExitCode::from(code),
        Err(f) => fail(f, machine.as_ref(), &err_style),
    }
}

/// Reports `f` on stderr, and as a document on stdout when a format was asked for.
fn fail(f: Fail, machine: Option<&(args::Format, String)>, err_style: &Style) -> ExitCode {
    report(&f, err_style);
    if let Some((format, program)) = machine {
        let e = seqloc::report::error::ErrorReport {
            program,
            exit_code: f.code,
            message: &f.message,
            notes: &f.notes,
            spots: &f.spots,
            limit: f.limit,
        };
        print_error_document(*format, &e);
    }
    ExitCode::from(f.code)
}

/// Parses the arguments; `--version` also names the solver and the external checkers found
/// (asked only then, as each answers by running).
fn parse_command_line() -> Result<Cli, clap::Error> {
    use clap::{CommandFactory, FromArgMatches};
    let mut cmd = Cli::command();
    if std::env::args_os().any(|a| a == "--version") {
        // The process ends after printing it: leaking the text once is what clap's
        // `&'static str` needs without its `string` feature.
        cmd = cmd.long_version(&*Box::leak(versions().into_boxed_str()));
    }
    let matches = cmd.try_get_matches()?;
    Cli::from_arg_matches(&matches)
}

fn versions() -> String {
    use seqloc::checker::external::{External, ExternalError, Kind};
    // The first line is `-V`'s (`0.1.0 (Z3 4.8.12)`); the checkers follow.
    let mut out = format!(
        "{}\nbuilt-in checker: Z3 {}",
        args::VERSION.as_str(),
        z3::full_version()
    );
    for kind in [Kind::Esbmc, Kind::Cbmc] {
        let line = match External::probe(kind) {
            Ok((path, version)) => format!("{version} ({})", path.display()),
            Err(ExternalError::NotFound { .. }) => format!(
                "not found on PATH or ${} (`make checkers` installs it)",
                kind.env_var()
            ),
            Err(e) => format!("unusable: {e}"),
        };
        out.push_str(&format!("\n{}: {line}", kind.name()));
    }
    out
}

/// A command line clap refuses: its message on stderr as usual (exit 2), and, when the
/// words `--format json|sarif` or `--json` are on it, the error document on stdout.
fn usage_error(e: clap::Error) -> ExitCode {
    let _ = e.print();
    // `--help` and `--version` come this way too, with clap's own exit code (0).
    let code = u8::try_from(e.exit_code()).unwrap_or(EXIT_BAD_INPUT);
    if code != EXIT_BAD_INPUT {
        return ExitCode::from(code);
    }
    let args: Vec<String> = std::env::args().collect();
    let asked = |v: &str| {
        args.windows(2).any(|w| w[0] == "--format" && w[1] == v)
            || args.iter().any(|a| a == &format!("--format={v}"))
    };
    let format = if asked("sarif") {
        args::Format::Sarif
    } else if asked("html") {
        args::Format::Html
    } else if asked("json") || args.iter().any(|a| a == "--json") {
        args::Format::Json
    } else {
        return ExitCode::from(EXIT_BAD_INPUT);
    };
    let rendered = e.render().to_string();
    let message = rendered
        .lines()
        .next()
        .unwrap_or_default()
        .trim_start_matches("error: ")
        .to_string();
    let r = seqloc::report::error::ErrorReport {
        program: "",
        exit_code: EXIT_BAD_INPUT,
        message: &message,
        notes: &[],
        spots: &[],
        limit: None,
    };
    print_error_document(format, &r);
    ExitCode::from(EXIT_BAD_INPUT)
}

/// The error as a document of the format stdout was asked for.
fn print_error_document(format: args::Format, e: &seqloc::report::error::ErrorReport) {
    let doc = match format {
        args::Format::Sarif => seqloc::report::error::to_sarif(e),
        args::Format::Html => seqloc::report::error::to_html(e),
        _ => seqloc::report::error::to_json(e),
    };
    use std::io::Write;
    let _ = writeln!(std::io::stdout().lock(), "{}", doc.trim_end());
}

/// The document format a command's stdout was asked for (and its input file): a failure
/// then prints an error document there too, not nothing.
fn machine_output(cmd: &Command) -> Option<(args::Format, String)> {
    let (format, file) = match cmd {
        Command::Check(a) => (args::output_format(a.format, a.json), &a.input.file),
        Command::Localize(a) => (args::output_format(a.format, a.json), &a.input.file),
        Command::Repair(a) => (args::output_format(a.format.into(), a.json), &a.input.file),
        Command::Parse(a) if a.json => (args::Format::Json, &a.input.file),
        _ => return None,
    };
    (format != args::Format::Text).then(|| (format, file.display().to_string()))
}

fn report(f: &Fail, st: &Style) {
    let mut out = String::new();
    if f.spots.is_empty() {
        out.push_str(&format!("{}: {}\n", st.red("error"), f.message));
    } else {
        if f.spots.len() > 1 {
            out.push_str(&format!("{}: {}\n", st.red("error"), f.message));
        }
        for s in &f.spots {
            let r = s.render_plain("error");
            out.push_str(&r.replacen("error", &st.red("error"), 1));
        }
    }
    for n in &f.notes {
        out.push_str(&format!("  {} {n}\n", st.blue("=")));
    }
    eprint!("{out}");
}

pub fn verbose(ctx: &Ctx, level: u8, msg: impl AsRef<str>) {
    if ctx.verbose >= level {
        eprintln!("seqloc: {}", msg.as_ref());
    }
}

pub fn data_model(d: DataModelArg) -> DataModel {
    match d {
        DataModelArg::Ilp32 => DataModel::Ilp32,
        DataModelArg::Lp64 => DataModel::Lp64,
    }
}

/// [`load_any`], refusing what is not a C program to run: a C++ file (by its extension;
/// `gcc -E` would fail on its headers with a message about them instead) and a program
/// without `main` (nothing runs, so "no failure" would be an empty claim).
pub fn load(ctx: &Ctx, input: &InputArgs) -> Result<Program, Fail> {
    let p = load_any(ctx, input)?;
    if p.main().is_none() {
        return Err(Fail::input(format!(
            "{} has no `main`: there is no execution to check (seqloc analyses whole programs; see README \"Supported C\")",
            input.file.display()
        )));
    }
    Ok(p)
}

fn refuse_cplusplus(file: &Path) -> Result<(), Fail> {
    let ext = file.extension().and_then(|e| e.to_str()).unwrap_or("");
    if matches!(
        ext,
        "cc" | "cpp" | "cxx" | "c++" | "C" | "hpp" | "hh" | "hxx" | "ii"
    ) {
        return Err(Fail::input(format!(
            "{} is C++ (by its extension `.{ext}`): seqloc analyses C programs (see README \"Supported C\")",
            file.display()
        )));
    }
    Ok(())
}

/// The front end's options for `input`: its include path, macros and data model.
pub fn frontend_options(input: &InputArgs) -> FrontendOptions {
    FrontendOptions {
        preprocess: PreprocessOptions {
            include_dirs: input.include.clone(),
            defines: input.define.clone(),
            cpp: None,
        },
        data_model: data_model(input.data_model),
        undefined: match input.undefined_functions {
            args::UndefinedArg::Refuse => seqloc::frontend::undefined::UndefinedFunctions::Refuse,
            args::UndefinedArg::Nondet => seqloc::frontend::undefined::UndefinedFunctions::Nondet,
        },
    }
}

/// `text` written to `dir` under `input`'s file name, as an input whose `#include "…"`
/// still finds the original's neighbours (a patched or mutated copy of it).
pub fn copy_beside(input: &InputArgs, dir: &Path, text: &str) -> Result<InputArgs, String> {
    let file = dir.join(input.file.file_name().unwrap_or("copy.c".as_ref()));
    std::fs::write(&file, text).map_err(|e| format!("cannot write {}: {e}", file.display()))?;
    let mut include = input.include.clone();
    if let Some(parent) = input.file.parent() {
        include.insert(
            0,
            if parent.as_os_str().is_empty() {
                PathBuf::from(".")
            } else {
                parent.to_path_buf()
            },
        );
    }
    Ok(InputArgs {
        file,
        include,
        ..input.clone()
    })
}

/// The program as lowered, whatever it holds.
fn load_any(ctx: &Ctx, input: &InputArgs) -> Result<Program, Fail> {
    refuse_cplusplus(&input.file)?;
    let opts = frontend_options(input);
    let t0 = std::time::Instant::now();
    let p = seqloc::frontend::load(&input.file, &opts)?;
    verbose(
        ctx,
        1,
        format!(
            "parsed and lowered {} in {} ms",
            input.file.display(),
            t0.elapsed().as_millis()
        ),
    );
    Ok(p)
}

/// Writes `text` to `path` (never over the input) or stdout.
pub fn write_output(path: Option<&Path>, input: &Path, text: &str) -> Result<(), Fail> {
    match path {
        Some(p) => {
            if same_file(p, input) {
                return Err(Fail::input(format!(
                    "refusing to write to {}: it is the input file{}",
                    p.display(),
                    if std::fs::canonicalize(p).ok() == std::fs::canonicalize(input).ok() {
                        ""
                    } else {
                        " (another name, a hard link, of the same file)"
                    }
                )));
            }
            std::fs::write(p, text)
                .map_err(|e| Fail::input(format!("cannot write {}: {e}", p.display())))
        }
        None => {
            use std::io::Write;
            let mut out = std::io::stdout().lock();
            // A closed pipe (`| head`) is not an error worth reporting.
            let _ = out.write_all(text.as_bytes());
            Ok(())
        }
    }
}

/// When a run has nothing to write (no failing interleaving): the words for the message
/// that says so, naming each `-o`-style path. A regular file already at one of them is
/// removed, as `make` deletes a target whose recipe failed: a script that compiles it next
/// must not take an earlier run's output for this one's. The input is never removed, nor
/// anything that is not a plain file (`/dev/null`, a link, a folder).
pub fn nothing_written(paths: &[&Path], input: &Path) -> String {
    let mut words = Vec::new();
    for p in paths {
        let regular = std::fs::symlink_metadata(p).is_ok_and(|m| m.is_file());
        let said = if !regular {
            if std::fs::symlink_metadata(p).is_ok() {
                format!("{} not written (left as it was)", p.display())
            } else {
                format!("{} not written", p.display())
            }
        } else if same_file(p, input) {
            format!("{} not written (it is the input file)", p.display())
        } else {
            match std::fs::remove_file(p) {
                Ok(()) => format!(
                    "{} not written (the file an earlier run left there was removed)",
                    p.display()
                ),
                Err(e) => format!(
                    "{} not written (an earlier file there could not be removed: {e}; it is not this run's output)",
                    p.display()
                ),
            }
        };
        words.push(said);
    }
    if words.is_empty() {
        "stdout left empty".to_string()
    } else {
        words.join("; ")
    }
}

/// Are `a` and `b` one file: the same path once links are resolved, or the same inode on
/// the same device (a hard link)? A path that does not exist yet is no existing file.
pub(super) fn same_file(a: &Path, b: &Path) -> bool {
    use std::os::unix::fs::MetadataExt;
    if let (Ok(x), Ok(y)) = (std::fs::canonicalize(a), std::fs::canonicalize(b)) {
        if x == y {
            return true;
        }
    }
    match (std::fs::metadata(a), std::fs::metadata(b)) {
        (Ok(x), Ok(y)) => x.dev() == y.dev() && x.ino() == y.ino(),
        _ => false,
    }
}

pub fn timeout(secs: Option<f64>) -> Option<Duration> {
    secs.filter(|s| s.is_finite() && *s > 0.0)
        .map(Duration::from_secs_f64)
}
