//! The command line: one function per subcommand, errors mapped to exit codes in one place.

pub mod args;
mod cmd_check;
mod cmd_localize;
mod cmd_parse;
mod cmd_seq;
mod cmd_sweep;

use std::path::Path;
use std::process::ExitCode;
use std::time::Duration;

use clap::Parser;

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
}

impl Fail {
    pub fn input(message: impl Into<String>) -> Fail {
        Fail {
            code: EXIT_BAD_INPUT,
            message: message.into(),
            spots: vec![],
            notes: vec![],
        }
    }
    pub fn checker(message: impl Into<String>) -> Fail {
        Fail {
            code: EXIT_CHECKER,
            message: message.into(),
            spots: vec![],
            notes: vec![],
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

impl From<seqloc::seq::SeqError> for Fail {
    fn from(e: seqloc::seq::SeqError) -> Fail {
        Fail::input(e.to_string())
    }
}

impl From<seqloc::seq::schedule::ScheduleError> for Fail {
    fn from(e: seqloc::seq::schedule::ScheduleError) -> Fail {
        Fail::input(e.to_string())
    }
}

impl From<seqloc::check::CheckError> for Fail {
    fn from(e: seqloc::check::CheckError) -> Fail {
        use seqloc::check::CheckError;
        use seqloc::checker::builtin::BmcError;
        use seqloc::checker::builtin::symex::SymexError;
        match &e {
            CheckError::Seq(s) => Fail::input(s.to_string()),
            CheckError::Bmc(BmcError::Symex(SymexError::Unsupported { .. })) => {
                Fail::input(e.to_string())
            }
            CheckError::Bmc(BmcError::Symex(SymexError::Timeout)) => {
                Fail::checker("time limit reached while encoding the program")
            }
            _ => Fail::checker(e.to_string()),
        }
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
    let cli = Cli::parse();
    let err_style = Style::for_stderr(cli.color);
    let ctx = Ctx {
        verbose: cli.verbose,
        color: cli.color,
    };
    let r = match cli.cmd {
        Command::Parse(a) => cmd_parse::run(&ctx, a),
        Command::Check(a) => cmd_check::run(&ctx, a),
        Command::Sequentialize(a) => cmd_seq::run(&ctx, a),
        Command::Instrument(a) => cmd_localize::instrument(&ctx, a),
        Command::Localize(a) => cmd_localize::run(&ctx, a),
        Command::Sweep(a) => cmd_sweep::run(&ctx, a),
    };
    match r {
        Ok(code) => ExitCode::from(code),
        Err(f) => {
            report(&f, &err_style);
            ExitCode::from(f.code)
        }
    }
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

pub fn load(ctx: &Ctx, input: &InputArgs) -> Result<Program, Fail> {
    let opts = FrontendOptions {
        preprocess: PreprocessOptions {
            include_dirs: input.include.clone(),
            defines: input.define.clone(),
            cpp: None,
        },
        data_model: data_model(input.data_model),
    };
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
            let same = match (std::fs::canonicalize(p), std::fs::canonicalize(input)) {
                (Ok(a), Ok(b)) => a == b,
                _ => false,
            };
            if same {
                return Err(Fail::input(format!(
                    "refusing to write to {}: it is the input file",
                    p.display()
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

pub fn timeout(secs: Option<f64>) -> Option<Duration> {
    secs.filter(|s| s.is_finite() && *s > 0.0)
        .map(Duration::from_secs_f64)
}
