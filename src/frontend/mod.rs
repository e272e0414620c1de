//! The C front end: preprocess with the system preprocessor, parse with lang-c (GNU C),
//! lower the AST to seqloc's IR.
//!
//! It owns everything that knows C syntax. It does not know threads, checkers or
//! schedules: it hands a fully typed [`Program`] to the rest of seqloc. Syntax errors are
//! reported against the file as written (with tree-sitter, which sees the unexpanded
//! source and recovers to report more than one error).

mod clang_annotations;
mod identifiers;
mod implicit_int;
mod linemap;
mod lower;
pub mod preprocess;
pub mod syntax_check;
pub mod undefined;

use std::path::{Path, PathBuf};

use crate::diagnostics::SourceSpot;
use crate::ir::{DataModel, Program};
pub use preprocess::PreprocessOptions;

#[derive(Debug, thiserror::Error)]
pub enum FrontendError {
    #[error("cannot read {}: {reason}", path.display())]
    Io { path: PathBuf, reason: String },
    #[error("{} {reason}", path.display())]
    BadInput { path: PathBuf, reason: String },
    #[error("preprocessing {} failed: {}", path.display(), first_line(stderr))]
    Preprocess {
        path: PathBuf,
        command: String,
        stderr: String,
    },
    #[error("{}", syntax_summary(.0))]
    Syntax(Vec<SourceSpot>),
    #[error("unsupported construct: {}", .0.message)]
    Unsupported(SourceSpot),
    #[error("{}", .0.message)]
    Semantic(SourceSpot),
}

fn first_line(s: &str) -> &str {
    s.lines()
        .find(|l| l.contains("error"))
        .or_else(|| s.lines().next())
        .unwrap_or("")
}

fn syntax_summary(errs: &[SourceSpot]) -> String {
    match errs.len() {
        1 => format!("syntax error: {}", errs[0].message),
        n => format!("{n} syntax errors"),
    }
}

impl FrontendError {
    /// The located diagnostics this error carries, for rendering with a snippet.
    pub fn spots(&self) -> Vec<&SourceSpot> {
        match self {
            FrontendError::Syntax(v) => v.iter().collect(),
            FrontendError::Unsupported(s) | FrontendError::Semantic(s) => vec![s],
            _ => vec![],
        }
    }
}

#[derive(Clone, Debug, Default)]
pub struct FrontendOptions {
    pub preprocess: PreprocessOptions,
    pub data_model: DataModel,
    /// What a call of a function the program never defines means.
    pub undefined: undefined::UndefinedFunctions,
}

/// Preprocesses, parses and lowers one C file.
pub fn load(path: &Path, opts: &FrontendOptions) -> Result<Program, FrontendError> {
    let pp = preprocess::preprocess(path, &opts.preprocess)?;
    let mut prog = lower_preprocessed(path, pp, opts.data_model)?;
    if opts.undefined == undefined::UndefinedFunctions::Nondet {
        for (name, loc) in undefined::apply(&mut prog, opts.preprocess.cpp.as_deref()) {
            note_taken_as_nondet(&prog, loc, &name);
        }
    }
    Ok(prog)
}

/// Parses and lowers text that is already preprocessed (the fuzz harness uses this).
pub fn load_text(name: &str, text: &str, dm: DataModel) -> Result<Program, FrontendError> {
    let pp = preprocess::from_text(text.to_string());
    lower_preprocessed(Path::new(name), pp, dm)
}

fn lower_preprocessed(
    path: &Path,
    pp: preprocess::Preprocessed,
    dm: DataModel,
) -> Result<Program, FrontendError> {
    let mut prog = Program {
        data_model: dm,
        ..Program::default()
    };
    let config = lang_c::driver::Config::with_gcc();
    let mut pp = pp;
    let parse = match lang_c::driver::parse_preprocessed(&config, pp.text.clone()) {
        Ok(p) => Ok(p),
        Err(e) => {
            // macOS's annotations blanked out (`clang_annotations`), C89's implicit `int`
            // (`a;`, `main() {...}`) written out, or both, each parsed again; the first
            // error stands when none parses.
            let blanked = clang_annotations::blank_clang_annotations(&pp.text)
                .and_then(|t| pp.with_same_offsets(t));
            let with_int = |base: &preprocess::Preprocessed| {
                let missing = implicit_int::missing_types(&base.text);
                (!missing.is_empty()).then(|| base.with_inserted(&missing, "int "))
            };
            let mut tries = Vec::new();
            if let Some(b) = blanked {
                let both = with_int(&b);
                tries.push(b);
                tries.extend(both);
            }
            tries.extend(with_int(&pp));
            match tries.into_iter().find_map(|q| {
                lang_c::driver::parse_preprocessed(&config, q.text.clone())
                    .ok()
                    .map(|p| (q, p))
            }) {
                Some((q, p)) => {
                    pp = q;
                    Ok(p)
                }
                None => Err(e),
            }
        }
    };
    let table = linemap::LineTable::build(&pp.raw, &path.display().to_string(), &mut prog.sources);
    let mut locator = linemap::Locator::new(&pp.raw, table, path);
    let unit = match parse {
        Ok(p) => p.unit,
        Err(e) => {
            let raw_off = pp.raw_offset(e.offset);
            let loc = locator.loc(raw_off, &mut prog.sources);
            let mut expected: Vec<&str> = e.expected.iter().copied().collect();
            expected.sort();
            let found = pp.text[e.offset.min(pp.text.len())..]
                .split_whitespace()
                .next()
                .unwrap_or("end of file")
                .chars()
                .take(20)
                .collect::<String>();
            let found = identifiers::unmangle(&found);
            let msg = format!(
                "unexpected `{found}`; expected one of {}",
                expected
                    .iter()
                    .take(8)
                    .map(|s| format!("`{s}`"))
                    .collect::<Vec<_>>()
                    .join(", ")
            );
            let spot = SourceSpot::at(&prog.sources, loc, msg);
            // tree-sitter sees the file as written and keeps going after an error; prefer its
            // list when it finds the problem, since it points at unexpanded source.
            let mut spots = syntax_check::check_file(path);
            if !spots
                .iter()
                .any(|s| s.file == spot.file && s.line == spot.line)
            {
                spots.push(spot);
                spots.sort_by(|a, b| (&a.file, a.line).cmp(&(&b.file, b.line)));
            }
            return Err(FrontendError::Syntax(spots));
        }
    };
    if let Some((loc, what)) = lower::lower(&unit, &mut prog, &mut locator, &pp)? {
        note_weak_memory_order(&prog, loc, &what);
    }
    if pp.has_extended_identifiers() {
        identifiers::unmangle_program(&mut prog);
    }
    for f in &mut prog.funcs {
        if f.body.is_none() {
            if let Some(alias) = crate::ir::known::dialect_alias(&f.name) {
                f.name = alias;
            }
        }
    }
    Ok(prog)
}

/// Tells the user which functions `--undefined-functions nondet` took as returning a
/// nondeterministic value, once per function and run (stderr, like every notice).
fn note_taken_as_nondet(prog: &Program, loc: crate::ir::Loc, name: &str) {
    static SEEN: std::sync::Mutex<Vec<String>> = std::sync::Mutex::new(Vec::new());
    let Ok(mut seen) = SEEN.lock() else {
        return;
    };
    if seen.iter().any(|s| s == name) {
        return;
    }
    seen.push(name.to_string());
    let spot = SourceSpot::at(&prog.sources, loc, "");
    eprintln!(
        "seqloc: notice: {}:{}: `{name}` has no body: taken as returning a nondeterministic \
         value and doing nothing else (--undefined-functions nondet)",
        spot.file, spot.line
    );
}

/// Tells the user, once per run (a run may load several programs), that a memory order
/// weaker than `seq_cst` is checked as `seq_cst`: an answer about such a program does not
/// cover the behaviours only the weaker order allows. stderr, so machine output on stdout
/// stays one document.
fn note_weak_memory_order(prog: &Program, loc: crate::ir::Loc, what: &str) {
    static ONCE: std::sync::Once = std::sync::Once::new();
    let spot = SourceSpot::at(&prog.sources, loc, "");
    ONCE.call_once(|| {
        eprintln!(
            "seqloc: notice: {}:{}: {what} uses a memory order weaker than seq_cst; every \
             atomic operation is checked as sequentially consistent, so bugs that need a weaker \
             order are out of reach",
            spot.file, spot.line
        )
    });
}
