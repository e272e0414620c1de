//! The JSON reports' own types. Every field of `seqloc.check/1` and `seqloc.localize/1` is
//! written from these, never from the engine's structs: an internal rename or a new field
//! there cannot change a published schema, and a schema change is a change to this file.
//!
//! The schedule is the exception: it is embedded as the `seqloc.schedule/1` document that
//! `--schedule` reads back, owned by `seq::schedule`.

use serde::Serialize;

use crate::cex::{InputStep, TraceStep, Violation, ViolationKind};
use crate::checker::builtin::Limit;
use crate::checker::outcome::{Bounds, Exploration, Phase, Verdict};
use crate::diag::explain::{Candidate, CandidateKind};

/// `failure`, `deadlock`, `no-failure-within-bounds`, `unknown`.
pub fn verdict(v: Verdict) -> &'static str {
    match v {
        Verdict::Failure => "failure",
        Verdict::Deadlock => "deadlock",
        Verdict::NoFailureWithinBounds => "no-failure-within-bounds",
        Verdict::Unknown => "unknown",
    }
}

/// `time`, `memory`, `interrupted`.
pub fn limit(l: Option<Limit>) -> Option<&'static str> {
    l.map(Limit::as_str)
}

#[derive(Serialize)]
pub struct Property {
    pub kind: &'static str,
    pub file: String,
    pub line: u32,
    pub column: u32,
    pub thread: Option<u32>,
    pub message: String,
}

impl From<&Violation> for Property {
    fn from(v: &Violation) -> Self {
        Property {
            kind: match v.kind {
                ViolationKind::Assertion => "assertion",
                ViolationKind::Error => "error",
                ViolationKind::Deadlock => "deadlock",
                ViolationKind::Unlock => "unlock",
            },
            file: v.file.clone(),
            line: v.line,
            column: v.column,
            thread: v.thread,
            message: v.message.clone(),
        }
    }
}

#[derive(Serialize)]
pub struct BoundsJson {
    /// `null` when the checker was given none (CBMC has no rounds).
    pub rounds: Option<u32>,
    pub unwind: u32,
    /// `null` when the checker was given none (ESBMC and CBMC create threads themselves).
    pub threads: Option<u32>,
}

impl From<&Bounds> for BoundsJson {
    fn from(b: &Bounds) -> Self {
        // 0 is how a bound the checker does not take is recorded: no search has 0.
        BoundsJson {
            rounds: (b.rounds > 0).then_some(b.rounds),
            unwind: b.unwind,
            threads: (b.threads > 0).then_some(b.threads),
        }
    }
}

#[derive(Serialize)]
pub struct PhaseJson {
    pub bounds: BoundsJson,
    pub result: String,
    pub encode_ms: u64,
    pub solve_ms: u64,
}

impl From<&Phase> for PhaseJson {
    fn from(p: &Phase) -> Self {
        PhaseJson {
            bounds: (&p.bounds).into(),
            result: p.result.clone(),
            encode_ms: p.encode_ms,
            solve_ms: p.solve_ms,
        }
    }
}

#[derive(Serialize)]
pub struct WriteJson {
    pub lhs: String,
    pub value: String,
}

#[derive(Serialize)]
pub struct StepJson {
    pub thread: u32,
    pub file: String,
    pub line: u32,
    pub statement: String,
    /// The variables written, named as the source names them (a temporary seqloc made up
    /// is left out: `effect` says what it held).
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub writes: Vec<WriteJson>,
    /// What the step did, in the words of the text trace (`counter == 2 is false`).
    #[serde(skip_serializing_if = "String::is_empty")]
    pub effect: String,
}

impl From<&TraceStep> for StepJson {
    fn from(s: &TraceStep) -> Self {
        StepJson {
            thread: s.thread,
            file: s.file.clone(),
            line: s.line,
            statement: super::check::shown_statement(s),
            writes: s
                .writes
                .iter()
                .filter_map(|w| {
                    Some(WriteJson {
                        lhs: w.shown.as_deref()?.trim_start_matches("*&").to_string(),
                        value: w.value.clone(),
                    })
                })
                .collect(),
            effect: super::check::step_effect(s),
        }
    }
}

#[derive(Serialize)]
pub struct InputJson {
    pub thread: u32,
    pub at: String,
    pub value: i128,
}

impl From<&InputStep> for InputJson {
    fn from(i: &InputStep) -> Self {
        InputJson {
            thread: i.thread,
            at: i.at.clone(),
            value: i.value,
        }
    }
}

#[derive(Serialize)]
pub struct ExplorationJson {
    pub result: &'static str,
    pub reason: Option<String>,
    pub states: u64,
    pub transitions: u64,
    pub ms: u64,
}

impl From<&Exploration> for ExplorationJson {
    fn from(e: &Exploration) -> Self {
        ExplorationJson {
            result: e.result,
            reason: e.reason.clone(),
            states: e.states,
            transitions: e.transitions,
            ms: e.ms,
        }
    }
}

#[derive(Serialize)]
pub struct ThreadJson {
    pub id: u32,
    pub function: String,
}

#[derive(Serialize)]
pub struct ChangeJson {
    pub thread: u32,
    pub column: u32,
    pub what: String,
    pub chosen: String,
    pub original: String,
}

#[derive(Serialize)]
pub struct CandidateJson {
    pub rank: usize,
    pub kind: &'static str,
    pub file: String,
    pub line: u32,
    pub column: u32,
    pub columns: Vec<u32>,
    pub diag: u32,
    pub threads: Vec<ThreadJson>,
    pub reads: Vec<String>,
    pub writes: Vec<String>,
    pub set: Option<usize>,
    pub hint: String,
    pub specification: bool,
    pub cause: bool,
    pub fixed_by: Option<String>,
    pub changes: Vec<ChangeJson>,
}

/// `value`, `atomicity`, `locking`, `blocking`, `ordering`, `flow`.
pub fn candidate_kind(k: CandidateKind) -> &'static str {
    match k {
        CandidateKind::Value => "value",
        CandidateKind::Atomicity => "atomicity",
        CandidateKind::Locking => "locking",
        CandidateKind::Blocking => "blocking",
        CandidateKind::Ordering => "ordering",
        CandidateKind::Flow => "flow",
    }
}

impl From<&Candidate> for CandidateJson {
    fn from(c: &Candidate) -> Self {
        CandidateJson {
            rank: c.rank,
            kind: candidate_kind(c.kind),
            file: c.file.clone(),
            line: c.line,
            column: c.column,
            columns: c.columns.clone(),
            diag: c.diag,
            threads: c
                .threads
                .iter()
                .map(|t| ThreadJson {
                    id: t.id,
                    function: t.function.clone(),
                })
                .collect(),
            reads: c.reads.clone(),
            writes: c.writes.clone(),
            set: c.set,
            hint: c.hint.clone(),
            specification: c.specification,
            cause: c.cause,
            fixed_by: c.fixed_by.clone(),
            changes: c
                .changes
                .iter()
                .map(|ch| ChangeJson {
                    thread: ch.thread,
                    column: ch.column,
                    what: ch.what.clone(),
                    chosen: ch.chosen.clone(),
                    original: ch.original.clone(),
                })
                .collect(),
        }
    }
}

/// A path as a SARIF artifact URI: absolute paths as `file://` URIs, relative ones as
/// they are (relative to the working directory, SARIF's default base).
pub fn sarif_uri(f: &str) -> String {
    if f.starts_with('/') {
        format!("file://{f}")
    } else {
        f.to_string()
    }
}
