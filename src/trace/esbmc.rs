//! ESBMC's output, read: the text counterexample and verdict (which ESBMC 7.9 prints on
//! stderr), the `--generate-json-report` `report.json`, and the version banner.
//!
//! What ESBMC 7.9 prints, as recorded in `shared/fixtures/esbmc/`:
//!
//! ```text
//! ESBMC version 7.9.0 64-bit x86_64 linux
//! ...status lines, one block per explored interleaving...
//! Building error trace
//!
//! [Counterexample]
//!
//!
//! State 20 file f03_loop.c line 18 column 3 function main thread 0
//! ----------------------------------------------------
//!   a = 0 (00000000 ...)
//!
//! State 109 file f03_loop.c line 23 column 3 function main thread 0
//! ----------------------------------------------------
//! Violated property:
//!   file f03_loop.c line 23 column 3 function main
//!   assertion total == 6
//!   total == 6
//!
//!
//! VERIFICATION FAILED
//! ```
//!
//! Only assignments get a `State`; assumptions leave gaps in the numbering. The last state has
//! no body: it is the failing assertion, and its header carries the violating thread. Global
//! initialisers have no `function`. ESBMC's own models (its pthread library, named by the path
//! of the source tree it was built from, `esbmc_intrinsics.h`) run inside the trace and are
//! marked internal. A run killed by a time limit stops mid-stream with no verdict line: that
//! is [`Outcome::Unknown`], never success.
//!
//! The JSON report has the same steps (plus assumptions) numbered from 0, but **no thread
//! numbers**; [`attach_threads`] takes them from the text output of the same run.

use std::collections::HashMap;
use std::sync::LazyLock;

use regex::Regex;
use serde::Deserialize;

use super::raw::{
    CheckerKind, Outcome, RawTrace, SrcLoc, Step, StepKind, TraceParseError, Violation,
    ViolationKind, decode_value_int, is_builtin_check, last_line, loc_fields, snippet, snippet_at,
    strip_binary_group,
};

const CHECKER: CheckerKind = CheckerKind::Esbmc;

static VERSION_RE: LazyLock<Regex> = LazyLock::new(|| {
    Regex::new(r"ESBMC version v?(\d+(?:\.\d+)+[^\s]*)").expect("constant regex is valid")
});
/// The ESBMC version named in `esbmc --version` output or in a run's banner (`7.9.0`).
pub fn version(output: &str) -> Option<String> {
    VERSION_RE
        .captures(output)
        .and_then(|c| c.get(1))
        .map(|m| m.as_str().to_string())
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Verdict {
    Failed,
    Successful,
    Unknown,
}

fn verdict(text: &str) -> Option<Verdict> {
    // The last one wins: a verdict line is printed once, at the end, and any earlier one
    // would be from a sub-run (k-induction steps, for instance).
    text.lines().rev().find_map(|l| match l.trim() {
        "VERIFICATION FAILED" => Some(Verdict::Failed),
        "VERIFICATION SUCCESSFUL" => Some(Verdict::Successful),
        "VERIFICATION UNKNOWN" => Some(Verdict::Unknown),
        _ => None,
    })
}

fn error_lines(text: &str) -> impl Iterator<Item = &str> {
    text.lines()
        .map(str::trim)
        .filter(|l| l.starts_with("ERROR:"))
}

const CEX_MARKERS: &[&str] = &["[Counterexample]", "Counterexample:"];

fn counterexample_start(text: &str) -> Option<usize> {
    CEX_MARKERS
        .iter()
        .filter_map(|m| text.find(m).map(|at| at + m.len()))
        .min()
}

/// Parses a run's stdout and stderr (ESBMC 7.9 prints the counterexample and verdict on
/// stderr; older versions used stdout, so both are read).
///
/// A run without a verdict line (killed, timed out, crashed) is `Ok` with
/// [`Outcome::Unknown`] if the output is recognisably ESBMC's, an `Err` if nothing in it is.
/// `ERROR:` lines turn a claimed success into `Unknown`.
pub fn parse_text(stdout: &str, stderr: &str) -> Result<RawTrace, TraceParseError> {
    let version = version(stderr).or_else(|| version(stdout));
    let verdicts = (verdict(stderr), verdict(stdout));
    // The stream holding the verdict (or else a counterexample) is the one to read.
    let main = match verdicts {
        (Some(_), _) => stderr,
        (None, Some(_)) => stdout,
        (None, None) if counterexample_start(stderr).is_some() => stderr,
        (None, None) if counterexample_start(stdout).is_some() => stdout,
        (None, None) if stderr.trim().is_empty() => stdout,
        (None, None) => stderr,
    };
    let verdict = verdicts.0.or(verdicts.1);
    let errors: Vec<&str> = error_lines(stderr).chain(error_lines(stdout)).collect();

    let recognised = version.is_some()
        || verdict.is_some()
        || !errors.is_empty()
        || counterexample_start(main).is_some();
    if !recognised {
        return Err(TraceParseError::Unrecognised {
            checker: CHECKER,
            snippet: snippet(if main.trim().is_empty() { stdout } else { main }),
        });
    }

    let mut trace = RawTrace {
        checker: CHECKER,
        version,
        outcome: Outcome::Unknown {
            reason: String::new(),
        },
        violation: None,
        steps: Vec::new(),
        threads_known: true,
    };
    trace.outcome = match verdict {
        Some(Verdict::Failed) => {
            if let Some(start) = counterexample_start(main) {
                let cex = parse_counterexample(main.get(start..).unwrap_or(""))?;
                trace.steps = cex.steps;
                trace.violation = cex.violation;
            }
            Outcome::Failed
        }
        Some(Verdict::Successful) if errors.is_empty() => Outcome::Successful,
        Some(Verdict::Successful) => Outcome::Unknown {
            reason: format!(
                "ESBMC said VERIFICATION SUCCESSFUL but also reported: {}",
                snippet(&errors.join("; "))
            ),
        },
        Some(Verdict::Unknown) => Outcome::Unknown {
            reason: match errors.first() {
                Some(e) => format!("ESBMC: VERIFICATION UNKNOWN ({})", snippet(e)),
                None => "ESBMC: VERIFICATION UNKNOWN".to_string(),
            },
        },
        None => Outcome::Unknown {
            reason: match errors.first() {
                Some(e) => format!("ESBMC stopped with an error: {}", snippet(e)),
                None => format!(
                    "ESBMC printed no verdict (killed, timed out or crashed?); its output ends with `{}`",
                    last_line(main)
                ),
            },
        },
    };
    Ok(trace)
}

struct Counterexample {
    steps: Vec<Step>,
    violation: Option<Violation>,
}

/// The `State` header being read, and how many body lines it has had so far.
struct OpenState {
    index: usize,
    thread: u32,
    loc: Option<SrcLoc>,
    lines: usize,
}

fn malformed(what: &str, text: &str) -> TraceParseError {
    TraceParseError::Malformed {
        checker: CHECKER,
        what: what.to_string(),
        snippet: snippet(text),
    }
}

fn parse_loc(text: &str) -> Result<Option<SrcLoc>, TraceParseError> {
    loc_fields(text)
        .ok_or_else(|| malformed("unreadable source location", text))?
        .src_loc()
        .map_err(|()| malformed("line or column is not a number", text))
}

/// ESBMC's own model sources: its C library (pthread, stdlib) named by the path of the
/// source tree it was built from (`<esbmc-src>` in the fixtures), its intrinsics header and
/// the headers it unpacks into a temporary directory; ESBMC 8 serves its library from a
/// virtual file system (`/esbmc-vfs/libc/library/pthread_lib.c`).
fn is_model_file(file: &str) -> bool {
    file.starts_with("<esbmc-src>")
        || file.starts_with("/esbmc-vfs/")
        || file.contains("c2goto/library")
        || file.ends_with("esbmc_intrinsics.h")
        || file.starts_with("<built-in")
        || (file.contains("esbmc") && file.contains("/headers/"))
}

/// Names ESBMC generates for its own bookkeeping (`__ESBMC_*`, the symex guard, return
/// values of its intrinsics).
fn is_internal_name(name: &str) -> bool {
    name.starts_with("__ESBMC") || name.starts_with("goto_symex::") || name.contains("$___ESBMC_")
}

fn loc_is_internal(loc: Option<&SrcLoc>) -> bool {
    loc.is_some_and(|l| {
        is_model_file(&l.file) || l.function.as_deref().is_some_and(is_internal_name)
    })
}

fn classify(message: &str, internal: bool) -> ViolationKind {
    let lower = message.to_ascii_lowercase();
    if super::raw::is_unlock_check(message) {
        ViolationKind::Unlock
    } else if lower.contains("deadlock") {
        ViolationKind::Deadlock
    } else if lower.contains("unwinding assertion") {
        ViolationKind::UnwindingAssertion
    } else if lower.starts_with("assertion") {
        ViolationKind::Assertion
    } else if internal || is_builtin_check(message) {
        ViolationKind::Other(message.to_string())
    } else {
        ViolationKind::Assertion
    }
}

fn assignment_step(state: &OpenState, body: &str) -> Step {
    let (kind, internal_name) = match body.split_once(" = ") {
        Some((lhs, value)) => {
            let lhs = lhs.trim();
            let value = strip_binary_group(value.trim());
            (
                StepKind::Assignment {
                    lhs: lhs.to_string(),
                    value: value.to_string(),
                    value_int: decode_value_int(value),
                },
                is_internal_name(lhs),
            )
        }
        None => (
            StepKind::Other {
                text: body.trim().to_string(),
            },
            false,
        ),
    };
    Step {
        index: state.index,
        thread: state.thread,
        loc: state.loc.clone(),
        kind,
        internal: internal_name || loc_is_internal(state.loc.as_ref()),
    }
}

/// `State N <location> thread T`; the location may be empty.
fn parse_state_header(line: &str) -> Result<OpenState, TraceParseError> {
    let rest = line
        .strip_prefix("State ")
        .ok_or_else(|| malformed("unreadable State header", line))?;
    let (number, location) = rest.split_once(' ').unwrap_or((rest, ""));
    let index = number
        .parse()
        .map_err(|_| malformed("unreadable State number", line))?;
    let fields = loc_fields(location).ok_or_else(|| malformed("unreadable State header", line))?;
    let thread = fields
        .thread_number()
        .ok()
        .flatten()
        .ok_or_else(|| malformed("State header without a thread number", line))?;
    let loc = fields
        .src_loc()
        .map_err(|()| malformed("line or column is not a number", line))?;
    Ok(OpenState {
        index,
        thread,
        loc,
        lines: 0,
    })
}

/// Reads the counterexample from just after its marker up to the first violated property.
fn parse_counterexample(text: &str) -> Result<Counterexample, TraceParseError> {
    let mut steps = Vec::new();
    let mut open: Option<OpenState> = None;
    let mut lines = text.lines();
    while let Some(line) = lines.next() {
        let trimmed = line.trim();
        if trimmed.starts_with("State ") {
            if let Some(state) = open.take().filter(|s| s.lines == 0) {
                steps.push(assignment_step(&state, ""));
            }
            open = Some(parse_state_header(trimmed)?);
        } else if trimmed == "Violated property:" {
            let violation = parse_violation(&mut lines, open.as_ref())?;
            // The header before `Violated property:` is the failing assertion itself.
            if let Some(state) = open.take() {
                steps.push(Step {
                    index: state.index,
                    thread: state.thread,
                    loc: state.loc.clone(),
                    kind: StepKind::Other {
                        text: format!("violated: {}", violation.message),
                    },
                    internal: loc_is_internal(state.loc.as_ref()),
                });
            }
            steps.sort_by_key(|s| s.index);
            return Ok(Counterexample {
                steps,
                violation: Some(violation),
            });
        } else if trimmed.starts_with("VERIFICATION ") || CEX_MARKERS.contains(&trimmed) {
            break;
        } else if trimmed.is_empty() || trimmed.chars().all(|c| c == '-') {
            continue;
        } else if line.starts_with(' ') {
            if let Some(state) = open.as_mut() {
                state.lines += 1;
                steps.push(assignment_step(state, trimmed));
            }
        }
        // Other unindented lines are status messages ESBMC may interleave; they carry
        // nothing of the trace, so they are skipped on purpose.
    }
    if let Some(state) = open.filter(|s| s.lines == 0) {
        steps.push(assignment_step(&state, ""));
    }
    // ESBMC numbers states in execution order; sorting (stably) only guards that promise.
    steps.sort_by_key(|s| s.index);
    Ok(Counterexample {
        steps,
        violation: None,
    })
}

/// Reads the lines after `Violated property:`: an optional location, an optional comment,
/// then the violated condition; a blank line ends the block.
fn parse_violation<'a>(
    lines: &mut impl Iterator<Item = &'a str>,
    state: Option<&OpenState>,
) -> Result<Violation, TraceParseError> {
    let mut loc = None;
    let mut rest = Vec::new();
    for line in lines.by_ref() {
        let trimmed = line.trim();
        if trimmed.is_empty() || trimmed.starts_with("VERIFICATION ") {
            break;
        }
        if loc.is_none() && rest.is_empty() && trimmed.starts_with("file ") {
            loc = parse_loc(trimmed)?;
        } else {
            rest.push(trimmed);
        }
    }
    let (message, condition) = match rest.as_slice() {
        [] => (String::new(), None),
        [only] => (only.to_string(), Some(only.to_string())),
        [comment, condition @ ..] => (comment.to_string(), Some(condition.join(" "))),
    };
    let loc = loc.or_else(|| state.and_then(|s| s.loc.clone()));
    let internal = loc_is_internal(loc.as_ref());
    Ok(Violation {
        kind: classify(&message, internal),
        message,
        loc,
        thread: state.map(|s| s.thread),
        condition,
        property: None,
        internal,
    })
}

// ---------------------------------------------------------------------------------------
// report.json
//
// Mirrors what ESBMC's `json.cpp` writes. `coverage`, `initial_values` and `source_files`
// are ignored on purpose (seqloc has the sources; coverage is derivable from the steps), as
// is any field a later version adds.

#[derive(Debug, Deserialize)]
struct ReportEntry {
    status: Option<String>,
    #[serde(default)]
    steps: Vec<serde_json::Value>,
}

#[derive(Debug, Deserialize)]
struct ReportStep {
    #[serde(rename = "type")]
    kind: Option<String>,
    file: Option<String>,
    function: Option<String>,
    line: Option<StringOrNumber>,
    step_number: Option<usize>,
    message: Option<String>,
    assignment: Option<ReportAssignment>,
    assertion: Option<ReportAssertion>,
    function_call: Option<ReportFunctionCall>,
}

/// ESBMC writes `line` as a string; a number is accepted too, in case that changes.
#[derive(Debug, Deserialize)]
#[serde(untagged)]
enum StringOrNumber {
    String(String),
    Number(u64),
}

#[derive(Debug, Deserialize)]
struct ReportAssignment {
    lhs: Option<String>,
    rhs: Option<serde_json::Value>,
    rhs_type: Option<String>,
}

#[derive(Debug, Deserialize)]
struct ReportAssertion {
    comment: Option<String>,
    guard: Option<String>,
}

#[derive(Debug, Deserialize)]
struct ReportFunctionCall {
    argument: Option<String>,
}

fn json_error(text: &str, e: &serde_json::Error) -> TraceParseError {
    // serde_json counts lines and columns from 1; turn them back into a byte offset so the
    // snippet shows the offending text.
    let offset: usize = text
        .split_inclusive('\n')
        .take(e.line().saturating_sub(1))
        .map(str::len)
        .sum::<usize>()
        + e.column().saturating_sub(1);
    TraceParseError::Json {
        checker: CHECKER,
        reason: e.to_string(),
        snippet: snippet_at(text, offset),
    }
}

/// A report value as text: strings as they are, pointers by their address, anything
/// structured as compact JSON.
fn render_rhs(rhs: Option<&serde_json::Value>) -> String {
    match rhs {
        None | Some(serde_json::Value::Null) => String::new(),
        Some(serde_json::Value::String(s)) => s.clone(),
        Some(v @ serde_json::Value::Object(map)) => {
            match (
                map.get("__type").and_then(|t| t.as_str()),
                map.get("address"),
            ) {
                (Some("pointer"), Some(serde_json::Value::String(addr))) => addr.clone(),
                _ => v.to_string(),
            }
        }
        Some(v) => v.to_string(),
    }
}

fn report_loc(
    step: &ReportStep,
    raw: &serde_json::Value,
) -> Result<Option<SrcLoc>, TraceParseError> {
    let Some(file) = step.file.as_deref().filter(|f| !f.is_empty()) else {
        return Ok(None);
    };
    let line = match &step.line {
        None => return Ok(None),
        Some(StringOrNumber::Number(n)) => u32::try_from(*n).ok(),
        Some(StringOrNumber::String(s)) => s.trim().parse().ok(),
    }
    .ok_or_else(|| malformed("report.json step with an unreadable line", &raw.to_string()))?;
    Ok(Some(SrcLoc {
        file: file.to_string(),
        line,
        column: None,
        function: step.function.clone().filter(|f| !f.is_empty()),
    }))
}

/// Parses ESBMC's `--generate-json-report` `report.json`.
///
/// ESBMC appends one entry per run to an existing `report.json` in its working directory, so
/// the last entry is taken. The report records no threads: every step says thread 0 and
/// [`RawTrace::threads_known`] is `false` until [`attach_threads`] fills them in. Step indices
/// are ESBMC's `step_number + 1`, which is the `State` number its text output prints.
pub fn parse_json_report(report_json: &str) -> Result<RawTrace, TraceParseError> {
    let value: serde_json::Value =
        serde_json::from_str(report_json).map_err(|e| json_error(report_json, &e))?;
    let entry_value = match &value {
        serde_json::Value::Array(entries) => entries
            .last()
            .ok_or_else(|| malformed("report.json holds no run", report_json))?,
        serde_json::Value::Object(_) => &value,
        _ => {
            return Err(malformed(
                "report.json is not an array of runs",
                report_json,
            ));
        }
    };
    let entry = ReportEntry::deserialize(entry_value).map_err(|e| {
        malformed(
            &format!("unexpected report.json entry ({e})"),
            &entry_value.to_string(),
        )
    })?;

    let mut steps = Vec::with_capacity(entry.steps.len());
    let mut violation = None;
    for (position, raw) in entry.steps.iter().enumerate() {
        let step = ReportStep::deserialize(raw).map_err(|e| {
            malformed(
                &format!("unexpected report.json step ({e})"),
                &raw.to_string(),
            )
        })?;
        let loc = report_loc(&step, raw)?;
        let mut internal = loc_is_internal(loc.as_ref());
        let kind = match step.kind.as_deref().unwrap_or("") {
            "assignment" => {
                let a = step.assignment.as_ref();
                let lhs = a.and_then(|a| a.lhs.clone()).unwrap_or_default();
                let value = render_rhs(a.and_then(|a| a.rhs.as_ref()));
                // Only the report's integer-like types are decoded: a null pointer also
                // prints as `0`, and the type says which it is.
                let value_int = match a.and_then(|a| a.rhs_type.as_deref()) {
                    Some("signed" | "unsigned" | "bool") => decode_value_int(&value),
                    _ => None,
                };
                internal |= is_internal_name(&lhs);
                StepKind::Assignment {
                    lhs,
                    value,
                    value_int,
                }
            }
            "assume" => StepKind::Assumption,
            "violation" => {
                let comment = step
                    .assertion
                    .as_ref()
                    .and_then(|a| a.comment.clone())
                    .or_else(|| step.message.clone())
                    .unwrap_or_default();
                let condition = step.assertion.as_ref().and_then(|a| a.guard.clone());
                if violation.is_none() {
                    violation = Some(Violation {
                        kind: classify(&comment, internal),
                        message: comment.clone(),
                        loc: loc.clone(),
                        thread: None,
                        condition,
                        property: None,
                        internal,
                    });
                }
                StepKind::Other {
                    text: format!("violated: {comment}"),
                }
            }
            "function_call" => StepKind::Other {
                text: format!(
                    "function call: {}",
                    step.function_call
                        .as_ref()
                        .and_then(|f| f.argument.as_deref())
                        .unwrap_or("")
                ),
            },
            other => StepKind::Other {
                text: other.to_string(),
            },
        };
        steps.push(Step {
            index: step.step_number.unwrap_or(position).saturating_add(1),
            thread: 0,
            loc,
            kind,
            internal,
        });
    }

    let outcome = match entry.status.as_deref() {
        Some("violation") => Outcome::Failed,
        Some("success") => Outcome::Successful,
        Some(other) => Outcome::Unknown {
            reason: format!("ESBMC's report.json says status `{}`", snippet(other)),
        },
        None => Outcome::Unknown {
            reason: "ESBMC's report.json has no status".to_string(),
        },
    };
    if outcome != Outcome::Failed {
        violation = None;
    }
    Ok(RawTrace {
        checker: CHECKER,
        version: None,
        outcome,
        violation,
        steps,
        threads_known: false,
    })
}

/// Fills the thread numbers (and the columns and version) of a trace read from `report.json`
/// from the text output of the same run. Steps are matched by number and must agree on file and line,
/// or the two are not from the same run and this is an `Err`. Steps the text leaves out
/// (assumptions) take the thread of a neighbour in the same function, the next one first:
/// the thread-start assumption at the top of ESBMC's `pthread_trampoline` belongs to the new
/// thread, which only the following step shows.
pub fn attach_threads(report: &mut RawTrace, text: &RawTrace) -> Result<(), TraceParseError> {
    if text.steps.is_empty() || !text.threads_known {
        return Err(malformed(
            "the text output has no counterexample to take threads from",
            &format!("{:?}", text.outcome),
        ));
    }
    let by_index: HashMap<usize, &Step> = text.steps.iter().map(|s| (s.index, s)).collect();
    // Per report step: the text twin's thread and column (the report has no columns).
    let mut known: Vec<Option<(u32, Option<u32>)>> = Vec::with_capacity(report.steps.len());
    for step in &report.steps {
        let Some(t) = by_index.get(&step.index) else {
            known.push(None);
            continue;
        };
        let same_place = match (&step.loc, &t.loc) {
            (Some(a), Some(b)) => a.file == b.file && a.line == b.line,
            (None, None) => true,
            _ => false,
        };
        if !same_place {
            let place = |l: &Option<SrcLoc>| {
                l.as_ref()
                    .map_or("nowhere".to_string(), |l| format!("{}:{}", l.file, l.line))
            };
            return Err(malformed(
                "report.json and the text trace are not from the same run",
                &format!(
                    "step {} is at {} in the report, at {} in the text",
                    step.index,
                    place(&step.loc),
                    place(&t.loc)
                ),
            ));
        }
        known.push(Some((t.thread, t.loc.as_ref().and_then(|l| l.column))));
    }
    let function_of = |i: usize| {
        report
            .steps
            .get(i)
            .and_then(|s| s.loc.as_ref())
            .map(|l| (l.file.clone(), l.function.clone()))
    };
    let thread_at = |j: usize| known.get(j).copied().flatten().map(|(t, _)| (j, t));
    let mut threads = Vec::with_capacity(known.len());
    for (i, twin) in known.iter().enumerate() {
        let resolved = twin.map(|(t, _)| t).or_else(|| {
            let next = (i + 1..known.len()).find_map(thread_at);
            let prev = (0..i).rev().find_map(thread_at);
            let here = function_of(i);
            let same = |n: Option<(usize, u32)>| n.filter(|(j, _)| function_of(*j) == here);
            same(next).or(same(prev)).or(next).or(prev).map(|(_, t)| t)
        });
        threads.push(resolved.unwrap_or(0));
    }
    for ((step, thread), twin) in report.steps.iter_mut().zip(threads).zip(&known) {
        step.thread = thread;
        if let (Some(loc), Some((_, column))) = (step.loc.as_mut(), twin) {
            loc.column = loc.column.or(*column);
        }
    }
    if let (Some(v), Some(tv)) = (report.violation.as_mut(), text.violation.as_ref()) {
        v.thread = tv.thread;
        if let (Some(loc), Some(tloc)) = (v.loc.as_mut(), tv.loc.as_ref())
            && loc.file == tloc.file
            && loc.line == tloc.line
        {
            loc.column = loc.column.or(tloc.column);
        }
    }
    if report.version.is_none() {
        report.version = text.version.clone();
    }
    report.threads_known = true;
    Ok(())
}

/// `report.json` plus the text output of the same run: the report's steps (with assumptions)
/// and the text's thread numbers and version.
pub fn parse_json_report_with_text(
    report_json: &str,
    stdout: &str,
    stderr: &str,
) -> Result<RawTrace, TraceParseError> {
    let mut report = parse_json_report(report_json)?;
    let text = parse_text(stdout, stderr)?;
    attach_threads(&mut report, &text)?;
    Ok(report)
}

#[cfg(test)]
mod tests {
    use std::path::Path;

    use super::*;
    use crate::trace::test_support::{esbmc_file, fixtures_dir};

    /// A recorded run: its stdout and stderr parsed as text.
    fn run(dir: &Path, run: &str) -> RawTrace {
        let stdout = esbmc_file(dir, &format!("{run}.stdout"));
        let stderr = esbmc_file(dir, &format!("{run}.stderr"));
        parse_text(&stdout, &stderr).unwrap_or_else(|e| panic!("{run}: {e}"))
    }

    fn assignments<'a>(trace: &'a RawTrace, lhs: &str) -> Vec<(&'a Step, Option<i128>)> {
        trace
            .steps
            .iter()
            .filter_map(|s| match &s.kind {
                StepKind::Assignment {
                    lhs: l, value_int, ..
                } if l == lhs => Some((s, *value_int)),
                _ => None,
            })
            .collect()
    }

    fn violation(trace: &RawTrace) -> &Violation {
        trace
            .violation
            .as_ref()
            .expect("a failed run has a violated property")
    }

    #[test]
    fn every_recorded_run_parses_consistently_with_its_exit_code() {
        let Some(dir) = fixtures_dir() else { return };
        let mut runs: Vec<String> = std::fs::read_dir(dir.join("esbmc"))
            .expect("fixtures/esbmc is readable")
            .filter_map(|e| e.ok())
            .filter_map(|e| {
                e.file_name()
                    .to_str()?
                    .strip_suffix(".exit")
                    .map(str::to_string)
            })
            .collect();
        runs.sort();
        assert!(
            runs.len() >= 32,
            "expected all recorded runs, found {runs:?}"
        );
        for name in &runs {
            let trace = run(&dir, name);
            let exit = esbmc_file(&dir, &format!("{name}.exit"));
            assert_eq!(trace.checker, CheckerKind::Esbmc);
            assert_eq!(trace.version.as_deref(), Some("7.9.0"), "{name}");
            match exit.trim() {
                "0" => {
                    assert_eq!(trace.outcome, Outcome::Successful, "{name}");
                    assert!(
                        trace.violation.is_none() && trace.steps.is_empty(),
                        "{name}"
                    );
                }
                "1" => {
                    assert_eq!(trace.outcome, Outcome::Failed, "{name}");
                    let v = violation(&trace);
                    assert!(v.loc.is_some() && v.thread.is_some(), "{name}: {v:?}");
                    assert!(trace.user_steps().count() > 3, "{name}");
                    assert!(trace.steps.windows(2).all(|w| w[0].index <= w[1].index));
                    // The failing assertion is the last step, in the violating thread.
                    let last = trace.steps.last().expect("steps");
                    assert_eq!(Some(last.thread), v.thread, "{name}");
                    assert!(
                        matches!(&last.kind, StepKind::Other { text } if text.starts_with("violated: "))
                    );
                }
                "124" => {
                    // Killed by the time limit mid-run: no verdict, never success.
                    let Outcome::Unknown { reason } = &trace.outcome else {
                        panic!("{name}: killed run parsed as {:?}", trace.outcome)
                    };
                    assert!(reason.contains("no verdict"), "{name}: {reason}");
                    assert!(trace.violation.is_none(), "{name}");
                }
                other => panic!("{name}: unexpected exit code {other}"),
            }
        }
    }

    #[test]
    fn version_from_banner_and_version_file() {
        let Some(dir) = fixtures_dir() else { return };
        assert_eq!(
            version(&esbmc_file(&dir, "VERSION")).as_deref(),
            Some("7.9.0")
        );
        assert_eq!(version("no banner here"), None);
    }

    /// ESBMC runs `x = x + 1` as one step and misses this race (fixtures README).
    #[test]
    fn f01_race_is_missed_by_esbmc() {
        let Some(dir) = fixtures_dir() else { return };
        for name in ["f01_race.cex", "f01_race.deadlock", "f01_race.json"] {
            assert_eq!(run(&dir, name).outcome, Outcome::Successful, "{name}");
        }
    }

    #[test]
    fn failing_runs_name_the_ground_truth_line() {
        let Some(dir) = fixtures_dir() else { return };
        // (run, ESBMC's location of the property, where it shows in the user's code): the
        // last column is the fixtures README's ground truth.
        let expected = [
            ("f03_loop", ("f03_loop.c", 23, "main"), 23),
            (
                "f04_svcomp_nondet",
                ("f04_svcomp_nondet.c", 3, "reach_error"),
                31,
            ),
            ("f05_condvar", ("f05_condvar.c", 40, "main"), 40),
            ("f07_calls", ("f07_calls.c", 36, "main"), 36),
            ("f09_atomic", ("f09_atomic.c", 3, "reach_error"), 27),
            ("f10_malloc", ("f10_malloc.c", 37, "main"), 37),
        ];
        for (program, (file, line, function), site) in expected {
            for mode in ["cex", "deadlock", "json"] {
                let name = format!("{program}.{mode}");
                if esbmc_file(&dir, &format!("{name}.exit")).trim() == "124" {
                    continue; // f03's --deadlock-check run was killed; see killed_runs_are_unknown
                }
                let trace = run(&dir, &name);
                let v = violation(&trace);
                let loc = v.loc.as_ref().expect("located");
                assert_eq!((loc.file.as_str(), loc.line), (file, line), "{name}");
                assert_eq!(loc.function.as_deref(), Some(function), "{name}");
                // A failed --deadlock-check run is not necessarily a deadlock (README).
                assert_eq!(v.kind, ViolationKind::Assertion, "{name}");
                assert!(!v.internal, "{name}");
                assert_eq!(trace.failure_site().map(|l| l.line), Some(site), "{name}");
            }
        }
    }

    #[test]
    fn f03_loop_shows_threads_and_the_lost_update() {
        let Some(dir) = fixtures_dir() else { return };
        let trace = run(&dir, "f03_loop.cex");
        let v = violation(&trace);
        assert_eq!(v.message, "assertion total == 6");
        assert_eq!(v.condition.as_deref(), Some("total == 6"));
        assert_eq!(v.thread, Some(0));
        assert_eq!(loc_column(v), Some(3));
        assert_eq!(trace.threads(), vec![0, 1, 2]);

        let totals = assignments(&trace, "total");
        // The global initialiser (no function) and each thread's writes at line 11.
        let (init, init_value) = totals.first().expect("total is initialised");
        assert_eq!(*init_value, Some(0));
        assert_eq!(init.loc.as_ref().and_then(|l| l.function.as_deref()), None);
        let writers: Vec<u32> = totals.iter().skip(1).map(|(s, _)| s.thread).collect();
        assert!(writers.contains(&1) && writers.contains(&2), "{writers:?}");
        // Thread 1 read 2 before thread 2 ran to 5, then wrote 3: the lost update.
        assert_eq!(trace.last_value_of("total"), Some(("3", Some(3))));

        // State 81 is thread 1's late write, between thread 2's steps.
        let s81 = trace
            .steps
            .iter()
            .find(|s| s.index == 81)
            .expect("State 81");
        assert_eq!(
            (s81.thread, s81.loc.as_ref().map(|l| l.line)),
            (1, Some(11))
        );
        let switches = trace.context_switches();
        assert!(switches.len() >= 5, "{switches:?}");
        let s81_pos = trace
            .steps
            .iter()
            .position(|s| s.index == 81)
            .expect("State 81");
        assert!(switches.contains(&s81_pos));
    }

    fn loc_column(v: &Violation) -> Option<u32> {
        v.loc.as_ref().and_then(|l| l.column)
    }

    #[test]
    fn checker_internals_are_marked() {
        let Some(dir) = fixtures_dir() else { return };
        let trace = run(&dir, "f03_loop.cex");
        let by_index = |i: usize| trace.steps.iter().find(|s| s.index == i).expect("state");
        // esbmc_intrinsics.h, ESBMC's pthread model, and its bookkeeping are internal.
        assert!(by_index(1).internal);
        assert!(by_index(18).internal); // __ESBMC_pthread_start_main_hook
        assert!(by_index(36).internal); // pthread_trampoline
        assert!(!by_index(5).internal); // total = 0, the user's global
        assert!(!by_index(43).internal); // t = 0 in adder
        for step in trace.user_steps() {
            let file = step.loc.as_ref().map(|l| l.file.as_str());
            assert_eq!(file, Some("f03_loop.c"), "{step:?}");
        }
        // The symex guard ESBMC writes at user lines is bookkeeping, not the program's.
        let t = run(&dir, "f04_svcomp_nondet.cex");
        let guards = assignments(&t, "goto_symex::guard");
        assert!(!guards.is_empty() && guards.iter().all(|(s, _)| s.internal));
    }

    #[test]
    fn values_are_decoded() {
        let Some(dir) = fixtures_dir() else { return };
        let f05 = run(&dir, "f05_condvar.cex");
        assert_eq!(f05.last_value_of("items").and_then(|v| v.1), Some(-1));
        assert_eq!(f05.threads(), vec![0, 1, 2, 3]);
        let f10 = run(&dir, "f10_malloc.cex");
        let (text, int) = f10.last_value_of("n").expect("n is assigned");
        assert_eq!((text, int), ("( struct node *)0", None));
        let (text, int) = f10.last_value_of("thread").expect("thread is assigned");
        assert_eq!((text, int), ("2", Some(2)));
        let (text, _) = f10.last_value_of("arg").expect("arg is assigned");
        assert_eq!(text, "(void *)(&vb)");
        // A _Bool prints without a binary group.
        assert_eq!(f10.last_value_of("ended").and_then(|v| v.1), Some(1));
        // f04's nondeterministic input is in the trace.
        let f04 = run(&dir, "f04_svcomp_nondet.cex");
        assert!(f04.last_value_of("limit").and_then(|v| v.1).is_some());
    }

    #[test]
    fn f09_atomic_fails_in_thread_2() {
        let Some(dir) = fixtures_dir() else { return };
        let trace = run(&dir, "f09_atomic.cex");
        let v = violation(&trace);
        assert_eq!(v.thread, Some(2));
        assert_eq!(trace.last_value_of("sa").and_then(|v| v.1), Some(1));
        assert_eq!(trace.last_value_of("sb").and_then(|v| v.1), Some(0));
        let site = trace.failure_site().expect("site");
        assert_eq!((site.line, site.function.as_deref()), (27, Some("checker")));
    }

    #[test]
    fn diag_rounds_expose_the_chosen_diag_value() {
        let Some(dir) = fixtures_dir() else { return };
        let round1 = run(&dir, "diag_f01.round1");
        assert_eq!(round1.outcome, Outcome::Failed);
        assert_eq!(round1.last_value_of("diag"), Some(("14", Some(14))));
        let diag = assignments(&round1, "diag");
        assert_eq!(diag.len(), 1);
        let (step, _) = diag[0];
        assert_eq!(
            step.loc.as_ref().map(|l| (l.line, l.function.as_deref())),
            Some((14, Some("main")))
        );
        assert!(!step.internal);
        let v = violation(&round1);
        assert_eq!(
            (v.message.as_str(), v.condition.as_deref()),
            ("diagnosis", Some("0"))
        );
        assert_eq!(v.kind, ViolationKind::Assertion);
        assert_eq!(v.loc.as_ref().map(|l| l.line), Some(22));
        assert_eq!(
            round1.last_value_of("r2").and_then(|v| v.1),
            Some(2147483647)
        );
        // Round 2 excludes diag == 14 and nothing else fails.
        assert_eq!(run(&dir, "diag_f01.round2").outcome, Outcome::Successful);
    }

    #[test]
    fn killed_runs_are_unknown() {
        let Some(dir) = fixtures_dir() else { return };
        for program in [
            "f02_deadlock",
            "f03_loop",
            "f06_thread_array",
            "f08_correct",
        ] {
            let name = format!("{program}.deadlock");
            assert_eq!(esbmc_file(&dir, &format!("{name}.exit")).trim(), "124");
            let trace = run(&dir, &name);
            assert!(matches!(trace.outcome, Outcome::Unknown { .. }), "{name}");
        }
        // f03's counterexample run cut just before its verdict line: still not a verdict.
        let stderr = esbmc_file(&dir, "f03_loop.cex.stderr");
        let cut = stderr.find("VERIFICATION FAILED").expect("verdict");
        let trace = parse_text("", &stderr[..cut]).expect("recognisable");
        assert!(matches!(trace.outcome, Outcome::Unknown { .. }));
        assert!(trace.steps.is_empty() && trace.violation.is_none());
    }

    #[test]
    fn json_reports_match_the_text_of_the_same_run() {
        let Some(dir) = fixtures_dir() else { return };
        let programs = [
            "f03_loop",
            "f04_svcomp_nondet",
            "f05_condvar",
            "f07_calls",
            "f09_atomic",
            "f10_malloc",
        ];
        for program in programs {
            let report = esbmc_file(&dir, &format!("{program}.report.json"));
            let bare = parse_json_report(&report).unwrap_or_else(|e| panic!("{program}: {e}"));
            assert_eq!(bare.outcome, Outcome::Failed, "{program}");
            assert!(!bare.threads_known, "{program}");
            assert!(bare.steps.iter().all(|s| s.thread == 0));
            assert!(
                bare.steps.iter().any(|s| s.kind == StepKind::Assumption),
                "{program}"
            );

            let text = run(&dir, &format!("{program}.json"));
            let (rv, tv) = (violation(&bare), violation(&text));
            assert_eq!(rv.message, tv.message, "{program}");
            assert_eq!(rv.condition, tv.condition, "{program}");
            assert_eq!(
                rv.loc.as_ref().map(|l| (&l.file, l.line)),
                tv.loc.as_ref().map(|l| (&l.file, l.line))
            );

            let stdout = esbmc_file(&dir, &format!("{program}.json.stdout"));
            let stderr = esbmc_file(&dir, &format!("{program}.json.stderr"));
            let full = parse_json_report_with_text(&report, &stdout, &stderr)
                .unwrap_or_else(|e| panic!("{program}: {e}"));
            assert!(full.threads_known);
            assert_eq!(full.version.as_deref(), Some("7.9.0"));
            assert_eq!(violation(&full).thread, tv.thread, "{program}");
            assert_eq!(full.failure_site(), text.failure_site(), "{program}");
            for step in &text.steps {
                let twin = full
                    .steps
                    .iter()
                    .find(|s| s.index == step.index)
                    .expect("same steps");
                assert_eq!(
                    (twin.thread, &twin.loc),
                    (step.thread, &step.loc),
                    "{program} {}",
                    step.index
                );
                if let (StepKind::Assignment { lhs: a, .. }, StepKind::Assignment { lhs: b, .. }) =
                    (&twin.kind, &step.kind)
                {
                    assert_eq!(a, b, "{program} {}", step.index);
                }
            }
            assert_eq!(
                full.context_switches().len(),
                text.context_switches().len(),
                "{program}"
            );
        }
    }

    #[test]
    fn report_values_use_the_report_types() {
        let Some(dir) = fixtures_dir() else { return };
        let mut trace =
            parse_json_report(&esbmc_file(&dir, "f03_loop.report.json")).expect("parses");
        // A pointer's `0` is not an integer; the report's type says so.
        let thread_ptr = trace
            .steps
            .iter()
            .find_map(|s| match &s.kind {
                StepKind::Assignment {
                    lhs,
                    value,
                    value_int,
                } if lhs == "attr" => Some((value.clone(), *value_int)),
                _ => None,
            })
            .expect("attr");
        assert_eq!(thread_ptr, ("0".to_string(), None));
        assert_eq!(trace.last_value_of("total"), Some(("3", Some(3))));
        // The assumption opening thread 1's trampoline belongs to thread 1.
        let text = run(&dir, "f03_loop.json");
        attach_threads(&mut trace, &text).expect("same run");
        let assume = trace.steps.iter().find(|s| s.index == 35).expect("step 35");
        assert_eq!((&assume.kind, assume.thread), (&StepKind::Assumption, 1));
    }

    #[test]
    fn reports_and_texts_of_different_runs_are_refused() {
        let Some(dir) = fixtures_dir() else { return };
        let mut report =
            parse_json_report(&esbmc_file(&dir, "f03_loop.report.json")).expect("parses");
        let other = run(&dir, "f04_svcomp_nondet.json");
        let err = attach_threads(&mut report, &other).expect_err("different programs");
        assert!(err.to_string().contains("not from the same run"), "{err}");
        let killed = run(&dir, "f03_loop.deadlock");
        assert!(attach_threads(&mut report, &killed).is_err());
    }

    #[test]
    fn deadlocks_and_unwinding_are_classified() {
        // ESBMC's --deadlock-check assertion, as its pthread model words it (no recorded run
        // reached it within the time limit, so this block is written from the model's source).
        let stderr = "ESBMC version 7.9.0 64-bit x86_64 linux
[Counterexample]

State 40 file f02_deadlock.c line 19 column 3 function audit thread 2
----------------------------------------------------
  mutex = &ledger

State 52 file /home/u/esbmc/src/c2goto/library/pthread_lib.c line 374 column 5 function pthread_mutex_lock_check thread 2
----------------------------------------------------
Violated property:
  file /home/u/esbmc/src/c2goto/library/pthread_lib.c line 374 column 5 function pthread_mutex_lock_check
  Deadlocked state in pthread_mutex_lock
  __ESBMC_blocked_threads_count != __ESBMC_num_threads_running


VERIFICATION FAILED
";
        let trace = parse_text("", stderr).expect("parses");
        let v = violation(&trace);
        assert_eq!(v.kind, ViolationKind::Deadlock);
        assert!(v.internal);
        assert_eq!(v.thread, Some(2));
        assert_eq!(trace.failure_site().map(|l| l.line), Some(19));

        let unwind = "ESBMC version 7.9.0 64-bit x86_64 linux
[Counterexample]

State 3 file loop.c line 9 column 3 function adder thread 1
----------------------------------------------------
Violated property:
  file loop.c line 9 column 3 function adder
  unwinding assertion loop 2
  0

VERIFICATION FAILED
";
        let trace = parse_text(unwind, "").expect("parses from stdout too");
        assert_eq!(violation(&trace).kind, ViolationKind::UnwindingAssertion);
        assert_eq!(
            classify("dereference failure: NULL pointer", false),
            ViolationKind::Other("dereference failure: NULL pointer".into())
        );
        assert_eq!(classify("my own message", false), ViolationKind::Assertion);
        assert_eq!(
            classify("must hold lock upon unlock", true),
            ViolationKind::Unlock
        );
    }

    #[test]
    fn unknown_errors_and_garbage() {
        let unknown = parse_text(
            "",
            "ESBMC version 7.9.0 64-bit x86_64 linux\nVERIFICATION UNKNOWN\n",
        )
        .expect("parses");
        assert!(matches!(unknown.outcome, Outcome::Unknown { .. }));
        let error = parse_text("", "ESBMC version 7.9.0\nERROR: PARSING ERROR\n").expect("parses");
        let Outcome::Unknown { reason } = &error.outcome else {
            panic!("{:?}", error.outcome)
        };
        assert!(reason.contains("PARSING ERROR"), "{reason}");
        let success_with_error =
            parse_text("", "ERROR: out of memory\nVERIFICATION SUCCESSFUL\n").expect("parses");
        assert!(matches!(
            success_with_error.outcome,
            Outcome::Unknown { .. }
        ));
        assert!(matches!(
            parse_text("", ""),
            Err(TraceParseError::Unrecognised { .. })
        ));
        let err = parse_text("hello", "world").expect_err("not ESBMC");
        assert!(err.to_string().contains("world"), "{err}");
        let bad_state = "ESBMC version 7.9.0\n[Counterexample]\nState x file a.c\n  a = 1\nVERIFICATION FAILED\n";
        let err = parse_text("", bad_state).expect_err("malformed header");
        assert!(err.to_string().contains("State x file a.c"), "{err}");
        let err = parse_json_report("[{\"steps\": 5}]").expect_err("steps must be a list");
        assert!(err.to_string().contains("steps"), "{err}");
        let err = parse_json_report("[1, 2").expect_err("not JSON");
        assert!(matches!(err, TraceParseError::Json { .. }), "{err}");
        assert!(parse_json_report("[]").is_err());
        let no_status = parse_json_report("{\"steps\": []}").expect("an entry without status");
        assert!(matches!(no_status.outcome, Outcome::Unknown { .. }));
    }
}
