//! CBMC's output, read: the `--json-ui` stream (preferred) and the plain `--trace` text.
//!
//! The formats are documented in `shared/fixtures/cbmc/FORMAT.md` (from CBMC's source; no
//! CBMC binary was available to record real output). The points this parser is built on:
//!
//! * `--json-ui` prints one JSON array, streamed: `{"program": "CBMC 6.x"}`, messages
//!   (`messageText`/`messageType`), one `{"result": [...]}` with a `trace` per failed property,
//!   and `{"cProverStatus": ...}` last. Elements are classified by their keys, not position.
//!   A killed CBMC leaves the array unterminated: complete elements are kept, and a missing
//!   `cProverStatus` means "no verdict".
//! * Trace steps have no step number in JSON: the array order *is* CBMC's execution order (it
//!   sorts steps by the solver's clocks before printing), so steps keep their array position
//!   as index. Only the order of shared-variable accesses is meaningful; a thread's leading
//!   local steps may appear displaced (FORMAT.md §2.6).
//! * `hidden` steps (CBMC's pthread library) and `internal` ones (except `input` steps, which
//!   carry nondeterministic inputs) are marked internal, as are steps located in CBMC's
//!   built-in library files (`<builtin-library-…>`, `<built-in-additions>`).
//! * CBMC aborts multi-threaded programs it cannot encode soundly with "pointer handling for
//!   concurrency is unsound": that is [`Outcome::Declined`], never "no failure".
//!
//! Unknown keys and step types are ignored on purpose: CBMC adds them between versions.

mod library_calls;

use std::sync::LazyLock;

use regex::Regex;
use serde::Deserialize;
use serde_json::Value;

use super::raw::{
    CheckerKind, Outcome, RawTrace, SrcLoc, Step, StepKind, TraceParseError, Violation,
    ViolationKind, decode_value_int, int_from_binary, is_builtin_check, last_line, loc_fields,
    snippet, snippet_at, strip_binary_group,
};

const CHECKER: CheckerKind = CheckerKind::Cbmc;

/// The message CBMC aborts with when its concurrency encoding would be unsound
/// (diffblue/cbmc#8714, PR #1994).
const UNSOUND: &str = "pointer handling for concurrency is unsound";

static VERSION_RE: LazyLock<Regex> = LazyLock::new(|| {
    Regex::new(r#"(?:CBMC version |"program":\s*"CBMC |^\s*)v?(\d+\.\d+(?:\.\d+)*)\b"#)
        .expect("constant regex is valid")
});
static RESULT_RE: LazyLock<Regex> = LazyLock::new(|| {
    Regex::new(
        r"^\[([^\]]+)\] (?:(?:file (.+?) )?line (\d+) )?(.*): (SUCCESS|FAILURE|UNKNOWN|NOT CHECKED|UNREACHABLE|ERROR)\s*$",
    )
    .expect("constant regex is valid")
});
static CALL_RE: LazyLock<Regex> = LazyLock::new(|| {
    Regex::new(r"^#### Function (call|return from):? ([^\s(]+)").expect("constant regex is valid")
});

/// The CBMC version named in `cbmc --version` output (`6.4.1 (cbmc-6.4.1)`), in a run's
/// banner (`CBMC version 6.4.1 ...`) or in `--json-ui`'s `program` element.
pub fn version(output: &str) -> Option<String> {
    output
        .lines()
        .take(200)
        .filter(|l| l.contains("CBMC") || l.trim_start().starts_with(|c: char| c.is_ascii_digit()))
        .find_map(|l| VERSION_RE.captures(l))
        .and_then(|c| c.get(1))
        .map(|m| m.as_str().to_string())
}

/// The version in `--json-ui`'s `program` element (`CBMC 6.4.1 (cbmc-6.4.1)`).
fn version_of_program(program: &str) -> Option<String> {
    program
        .strip_prefix("CBMC ")
        .unwrap_or(program)
        .split_whitespace()
        .next()
        .filter(|v| v.starts_with(|c: char| c.is_ascii_digit()))
        .map(str::to_string)
}

fn malformed(what: &str, text: &str) -> TraceParseError {
    TraceParseError::Malformed {
        checker: CHECKER,
        what: what.to_string(),
        snippet: snippet(text),
    }
}

/// CBMC's built-in library and additions; their steps are the checker's models.
fn is_builtin_file(file: &str) -> bool {
    file.starts_with('<')
}

fn is_internal_name(name: &str) -> bool {
    name.starts_with("__CPROVER") || name.starts_with("__actual_thread_spawn")
}

/// The kind of a failed property, from its id (`<function>.<class>.<n>`) and description.
/// An assertion inside CBMC's own library (`must hold lock` in its pthread model) is a
/// misuse check, not the user's assertion.
fn classify(property: Option<&str>, description: &str, internal: bool) -> ViolationKind {
    let class = property
        .and_then(|p| p.split('.').rev().nth(1))
        .unwrap_or("");
    let lower = description.to_ascii_lowercase();
    if class == "unwind" || class == "recursion" || lower.contains("unwinding assertion") {
        ViolationKind::UnwindingAssertion
    } else if super::raw::is_unlock_check(description) {
        ViolationKind::Unlock
    } else if lower.contains("deadlock") {
        ViolationKind::Deadlock
    } else if internal {
        ViolationKind::Other(description.to_string())
    } else if class == "assertion" || lower.starts_with("assertion") {
        ViolationKind::Assertion
    } else if !class.is_empty() {
        ViolationKind::Other(class.to_string())
    } else if is_builtin_check(description) {
        ViolationKind::Other(description.to_string())
    } else {
        // No property id (the `--stop-on-fail` text has none): a description that is not a
        // built-in check's is a `__CPROVER_assert` message.
        ViolationKind::Assertion
    }
}

// ---------------------------------------------------------------------------------------
// --json-ui

/// Splits the `--json-ui` array into its elements, tolerating an unterminated array (a
/// killed CBMC). Returns the complete elements and whether the array was closed.
fn json_elements(text: &str) -> Result<(Vec<Value>, bool), TraceParseError> {
    // The array opens at the start of a line, followed by an object (or its end). Anything
    // printed before it (a wrapper, a shell) is skipped; `[main.assertion.1] ...` lines of the
    // text format are not an opening.
    let opens_array = |at: usize| {
        text.get(at + 1..)
            .map(str::trim_start)
            .is_some_and(|rest| rest.is_empty() || rest.starts_with(['{', ']']))
    };
    let first_non_blank = |at: usize| {
        let rest = text.get(at..).unwrap_or("");
        at + (rest.len() - rest.trim_start_matches([' ', '\t', '\r']).len())
    };
    let line_starts = std::iter::once(0).chain(text.match_indices('\n').map(|(at, _)| at + 1));
    let mut pos = line_starts
        .map(first_non_blank)
        .find(|&at| text.as_bytes().get(at) == Some(&b'[') && opens_array(at))
        .ok_or_else(|| TraceParseError::Unrecognised {
            checker: CHECKER,
            snippet: snippet(text),
        })?;
    pos += 1;
    let mut items = Vec::new();
    let skip_ws = |mut at: usize| {
        while text
            .as_bytes()
            .get(at)
            .is_some_and(|b| b.is_ascii_whitespace())
        {
            at += 1;
        }
        at
    };
    loop {
        pos = skip_ws(pos);
        match text.as_bytes().get(pos) {
            None => return Ok((items, false)),
            Some(b']') if items.is_empty() => return Ok((items, true)),
            _ => {}
        }
        let rest = text.get(pos..).unwrap_or("");
        let mut stream = serde_json::Deserializer::from_str(rest).into_iter::<Value>();
        match stream.next() {
            Some(Ok(v)) => {
                pos += stream.byte_offset();
                items.push(v);
            }
            Some(Err(e)) if e.is_eof() => return Ok((items, false)),
            Some(Err(e)) => {
                return Err(TraceParseError::Json {
                    checker: CHECKER,
                    reason: e.to_string(),
                    snippet: snippet_at(text, pos),
                });
            }
            None => return Ok((items, false)),
        }
        pos = skip_ws(pos);
        match text.as_bytes().get(pos) {
            None => return Ok((items, false)),
            Some(b',') => pos += 1,
            Some(b']') => return Ok((items, true)),
            Some(_) => {
                return Err(malformed(
                    "expected `,` or `]` between --json-ui elements",
                    text.get(pos..).unwrap_or(""),
                ));
            }
        }
    }
}

#[derive(Debug, Deserialize)]
struct PropertyResult {
    description: Option<String>,
    property: Option<String>,
    #[serde(rename = "sourceLocation")]
    source_location: Option<JsonLoc>,
    status: Option<String>,
    trace: Option<Vec<Value>>,
}

/// A property of CBMC's own model of a spawned thread (`__spawned_thread`, in its built-in
/// library), not of the user's program. That model calls the start routine through a
/// function pointer and checks the pointer (`__spawned_thread.pointer_dereference.1`,
/// "dereferenced function pointer must be worker"); CBMC 6.6 fails that check for threads
/// created in a loop whose handles are array elements (`stress/thread_ids_loopvar.c`), a
/// path of its model, not of the program: the start routine is a constant.
fn of_thread_model(r: &PropertyResult) -> bool {
    r.property
        .as_deref()
        .is_some_and(|p| p.starts_with("__spawned_thread."))
}

/// `workingDirectory` and `bytecodeIndex` are ignored on purpose.
#[derive(Debug, Deserialize)]
struct JsonLoc {
    file: Option<String>,
    line: Option<StringOrNumber>,
    column: Option<StringOrNumber>,
    function: Option<String>,
}

/// CBMC writes numbers in source locations as strings; numbers are accepted too.
#[derive(Debug, Deserialize)]
#[serde(untagged)]
enum StringOrNumber {
    String(String),
    Number(u64),
}

impl StringOrNumber {
    fn as_u32(&self) -> Option<u32> {
        match self {
            StringOrNumber::String(s) => s.trim().parse().ok(),
            StringOrNumber::Number(n) => u32::try_from(*n).ok(),
        }
    }
}

/// Fields of a trace step seqloc uses; `mode`, `assignmentType`, `rawLhs` and others are
/// ignored on purpose.
#[derive(Debug, Deserialize)]
struct JsonStep {
    #[serde(rename = "stepType")]
    step_type: Option<String>,
    thread: Option<u32>,
    hidden: Option<bool>,
    internal: Option<bool>,
    #[serde(rename = "sourceLocation")]
    source_location: Option<JsonLoc>,
    lhs: Option<String>,
    value: Option<Value>,
    function: Option<JsonFunction>,
    property: Option<String>,
    reason: Option<String>,
    #[serde(rename = "inputID")]
    input_id: Option<String>,
    #[serde(rename = "outputID")]
    output_id: Option<String>,
    values: Option<Vec<Value>>,
}

#[derive(Debug, Deserialize)]
struct JsonFunction {
    #[serde(rename = "displayName")]
    display_name: Option<String>,
    identifier: Option<String>,
}

fn json_loc(loc: Option<&JsonLoc>) -> Result<Option<SrcLoc>, TraceParseError> {
    let Some(loc) = loc else { return Ok(None) };
    let Some(file) = loc.file.as_deref().filter(|f| !f.is_empty()) else {
        return Ok(None);
    };
    let Some(line) = &loc.line else {
        return Ok(None);
    };
    let line = line.as_u32().ok_or_else(|| {
        malformed(
            "source location with an unreadable line",
            &format!("{loc:?}"),
        )
    })?;
    Ok(Some(SrcLoc {
        file: file.to_string(),
        line,
        column: loc.column.as_ref().and_then(StringOrNumber::as_u32),
        function: loc.function.clone().filter(|f| !f.is_empty()),
    }))
}

fn is_signed_type(c_type: &str) -> bool {
    !(c_type.contains("unsigned") || c_type.contains("_Bool") || c_type == "bool")
}

/// A `value` object (FORMAT.md §2.5) as text and, for integers and booleans, as a number.
/// Numbers come from `binary` and the C type: `data` carries C suffixes and char literals.
fn render_value(value: &Value) -> (String, Option<i128>) {
    let Value::Object(map) = value else {
        return match value {
            Value::String(s) => (s.clone(), decode_value_int(s)),
            Value::Null => (String::new(), None),
            other => (other.to_string(), None),
        };
    };
    let str_of = |key: &str| map.get(key).and_then(Value::as_str);
    let data_text = || match map.get("data") {
        Some(Value::String(s)) => Some(s.clone()),
        Some(Value::Bool(b)) => Some(b.to_string()),
        Some(Value::Null) | None => None,
        Some(other) => Some(other.to_string()),
    };
    match str_of("name") {
        Some("integer" | "bitvector") => {
            let int = match (str_of("binary"), str_of("type")) {
                (Some(bits), Some(ty)) => int_from_binary(bits, is_signed_type(ty)),
                (bits, None) => data_text()
                    .as_deref()
                    .and_then(decode_value_int)
                    .or_else(|| bits.and_then(|b| int_from_binary(b, false))),
                (None, Some(_)) => data_text().as_deref().and_then(decode_value_int),
            };
            let text = data_text()
                .or_else(|| int.map(|i| i.to_string()))
                .or_else(|| str_of("binary").map(str::to_string))
                .unwrap_or_default();
            (text, int)
        }
        // A float's number is its IEEE bit pattern, as the built-in checker records a
        // float input (`seq::schedule::InputValue::value`).
        Some("float") => {
            let bits = str_of("binary").and_then(|b| int_from_binary(b, false));
            (data_text().unwrap_or_default(), bits)
        }
        Some("boolean") => {
            let truth = match map.get("data") {
                Some(Value::Bool(b)) => Some(*b),
                _ => match str_of("binary") {
                    Some("1") => Some(true),
                    Some("0") => Some(false),
                    _ => data_text()
                        .as_deref()
                        .and_then(decode_value_int)
                        .map(|i| i != 0),
                },
            };
            match truth {
                Some(b) => (b.to_string(), Some(i128::from(b))),
                None => (data_text().unwrap_or_default(), None),
            }
        }
        Some("array") => {
            let elements = map
                .get("elements")
                .and_then(Value::as_array)
                .map(|els| {
                    els.iter()
                        .map(|e| e.get("value").map_or(String::new(), |v| render_value(v).0))
                        .collect::<Vec<_>>()
                        .join(", ")
                })
                .unwrap_or_default();
            (format!("{{ {elements} }}"), None)
        }
        Some("struct") => {
            let members = map
                .get("members")
                .and_then(Value::as_array)
                .map(|ms| {
                    ms.iter()
                        .map(|m| {
                            let name = m.get("name").and_then(Value::as_str).unwrap_or("?");
                            let v = m.get("value").map_or(String::new(), |v| render_value(v).0);
                            format!(".{name}={v}")
                        })
                        .collect::<Vec<_>>()
                        .join(", ")
                })
                .unwrap_or_default();
            (format!("{{ {members} }}"), None)
        }
        Some("union") => {
            let member = map.get("member");
            let name = member
                .and_then(|m| m.get("name"))
                .and_then(Value::as_str)
                .unwrap_or("?");
            let v = member
                .and_then(|m| m.get("value"))
                .map_or(String::new(), |v| render_value(v).0);
            (format!("{{ .{name}={v} }}"), None)
        }
        // Pointers, floats, strings: text only. A pointer's `data` is `NULL` or a symbol.
        Some(_) => (
            data_text()
                .or_else(|| str_of("binary").map(str::to_string))
                .unwrap_or_else(|| "?".to_string()),
            None,
        ),
        None => (value.to_string(), None),
    }
}

fn render_values(values: Option<&Vec<Value>>) -> (String, Option<i128>) {
    let rendered: Vec<(String, Option<i128>)> = values
        .map(|vs| vs.iter().map(render_value).collect())
        .unwrap_or_default();
    let int = match rendered.as_slice() {
        [(_, int)] => *int,
        _ => None,
    };
    let text = rendered
        .into_iter()
        .map(|(t, _)| t)
        .collect::<Vec<_>>()
        .join("; ");
    (text, int)
}

struct ConvertedStep {
    step: Step,
    property: Option<String>,
    reason: Option<String>,
    is_failure: bool,
    has_thread: bool,
}

fn convert_step(position: usize, raw: &Value) -> Result<ConvertedStep, TraceParseError> {
    let js = JsonStep::deserialize(raw)
        .map_err(|e| malformed(&format!("unexpected trace step ({e})"), &raw.to_string()))?;
    let loc = json_loc(js.source_location.as_ref())?;
    let step_type = js.step_type.as_deref().unwrap_or("");
    let function_name = || {
        js.function
            .as_ref()
            .and_then(|f| f.display_name.clone().or_else(|| f.identifier.clone()))
            .unwrap_or_default()
    };
    let mut internal_name = false;
    let kind = match step_type {
        "assignment" => {
            let lhs = js.lhs.clone().unwrap_or_default();
            let (value, value_int) = js
                .value
                .as_ref()
                .map_or((String::new(), None), render_value);
            internal_name = is_internal_name(&lhs);
            StepKind::Assignment {
                lhs,
                value,
                value_int,
            }
        }
        "input" => {
            let (value, value_int) = render_values(js.values.as_ref());
            StepKind::Assignment {
                lhs: js.input_id.clone().unwrap_or_default(),
                value,
                value_int,
            }
        }
        "function-call" => {
            let function = function_name();
            internal_name = is_internal_name(&function);
            StepKind::FunctionCall { function }
        }
        "function-return" => {
            let function = function_name();
            internal_name = is_internal_name(&function);
            StepKind::FunctionReturn { function }
        }
        "failure" => StepKind::Other {
            text: format!("violated: {}", js.reason.as_deref().unwrap_or("")),
        },
        "output" => StepKind::Other {
            text: format!(
                "output {}: {}",
                js.output_id.as_deref().unwrap_or(""),
                render_values(js.values.as_ref()).0
            ),
        },
        other => StepKind::Other {
            text: other.to_string(),
        },
    };
    // `input` steps are always flagged internal by CBMC, yet they carry the program's
    // nondeterministic inputs, which the user needs to see.
    let internal = js.hidden.unwrap_or(false)
        || (js.internal.unwrap_or(false) && step_type != "input")
        || internal_name
        || loc.as_ref().is_some_and(|l| is_builtin_file(&l.file));
    Ok(ConvertedStep {
        step: Step {
            index: position,
            thread: js.thread.unwrap_or(0),
            loc,
            kind,
            internal,
        },
        property: js.property,
        reason: js.reason,
        is_failure: step_type == "failure",
        has_thread: js.thread.is_some(),
    })
}

/// Parses `cbmc --json-ui --trace` stdout.
///
/// The first property with status `FAILURE` gives the violation and the steps; other failed
/// properties are not returned (seqloc localizes one failure at a time). Aborts (any `ERROR`
/// message without a failure, and "pointer handling for concurrency is unsound" always),
/// `inconclusive`/`error` verdicts and a missing verdict are [`Outcome::Unknown`].
pub fn parse_json_ui(stdout: &str) -> Result<RawTrace, TraceParseError> {
    let (elements, closed) = json_elements(stdout)?;
    let mut version_text = None;
    let mut errors: Vec<String> = Vec::new();
    let mut results: Vec<PropertyResult> = Vec::new();
    let mut status: Option<String> = None;
    for element in &elements {
        let Value::Object(map) = element else {
            continue;
        };
        if let Some(program) = map.get("program").and_then(Value::as_str) {
            version_text = Some(program.to_string());
        } else if let Some(text) = map.get("messageText").and_then(Value::as_str) {
            if map.get("messageType").and_then(Value::as_str) == Some("ERROR") {
                errors.push(text.to_string());
            }
        } else if let Some(result) = map.get("result") {
            let list = Vec::<PropertyResult>::deserialize(result).map_err(|e| {
                malformed(
                    &format!("unexpected `result` element ({e})"),
                    &result.to_string(),
                )
            })?;
            results.extend(list);
        } else if let Some(s) = map.get("cProverStatus").and_then(Value::as_str) {
            status = Some(s.to_string());
        } else if map.contains_key("trace") && map.contains_key("property") {
            // --stop-on-fail prints the failed property at top level, status `failed`.
            let single = PropertyResult::deserialize(element).map_err(|e| {
                malformed(
                    &format!("unexpected failed property ({e})"),
                    &element.to_string(),
                )
            })?;
            results.push(single);
        }
    }
    let recognised = version_text.is_some()
        || status.is_some()
        || !results.is_empty()
        || elements.iter().any(|e| e.get("messageText").is_some());
    if !recognised {
        return Err(TraceParseError::Unrecognised {
            checker: CHECKER,
            snippet: snippet(stdout),
        });
    }

    let mut trace = RawTrace {
        checker: CHECKER,
        version: version_text.as_deref().and_then(version_of_program),
        outcome: Outcome::Failed,
        violation: None,
        steps: Vec::new(),
        threads_known: true,
    };

    if let Some(e) = errors.iter().find(|e| e.contains(UNSOUND)) {
        trace.outcome = Outcome::Declined {
            reason: format!("CBMC aborted: {}", snippet(e)),
        };
        return Ok(trace);
    }

    let is_failed = |r: &&PropertyResult| {
        r.status
            .as_deref()
            .is_some_and(|s| s.eq_ignore_ascii_case("FAILURE") || s.eq_ignore_ascii_case("failed"))
    };
    let failed = results
        .iter()
        .filter(is_failed)
        .find(|r| !of_thread_model(r));
    // Only CBMC's own model of a spawned thread failed: CBMC declined the program.
    if failed.is_none()
        && let Some(r) = results
            .iter()
            .filter(is_failed)
            .find(|r| of_thread_model(r))
    {
        trace.outcome = Outcome::Declined {
            reason: format!(
                "CBMC's own model of thread creation failed its check `{}` ({}), not a property of the program",
                r.property.as_deref().unwrap_or("?"),
                snippet(r.description.as_deref().unwrap_or("no description"))
            ),
        };
        return Ok(trace);
    }
    let first_error = || errors.first().map(|e| snippet(e));
    // CBMC writes the status in lower case; any other case is read the same.
    let status = status.map(|s| s.to_ascii_lowercase());
    trace.outcome = match (status.as_deref(), failed) {
        (Some("failure"), _) | (None, Some(_)) => Outcome::Failed,
        (Some("success"), _) if errors.is_empty() => Outcome::Successful,
        (Some("success"), _) => Outcome::Unknown {
            reason: format!(
                "CBMC said VERIFICATION SUCCESSFUL but also reported an error: {}",
                first_error().unwrap_or_default()
            ),
        },
        (Some("inconclusive"), _) => {
            let open: Vec<&str> = results
                .iter()
                .filter(|r| {
                    matches!(
                        r.status.as_deref(),
                        Some("UNKNOWN" | "NOT CHECKED" | "ERROR")
                    )
                })
                .filter_map(|r| r.property.as_deref())
                .take(3)
                .collect();
            Outcome::Unknown {
                reason: if open.is_empty() {
                    "CBMC: VERIFICATION INCONCLUSIVE".to_string()
                } else {
                    format!(
                        "CBMC: VERIFICATION INCONCLUSIVE ({} not decided)",
                        open.join(", ")
                    )
                },
            }
        }
        (Some(other), _) => Outcome::Unknown {
            reason: match first_error() {
                Some(e) => format!("CBMC: verification {other}: {e}"),
                None => format!("CBMC: verification {}", snippet(other)),
            },
        },
        (None, None) => Outcome::Unknown {
            reason: match first_error() {
                Some(e) => format!("CBMC stopped with an error: {e}"),
                None if closed => "CBMC printed no verdict".to_string(),
                None => format!(
                    "CBMC printed no verdict (killed, timed out or crashed?); its output ends with `{}`",
                    last_line(stdout)
                ),
            },
        },
    };

    let Some(result) = failed.filter(|_| trace.outcome == Outcome::Failed) else {
        return Ok(trace);
    };
    let mut failure: Option<(usize, Option<String>, Option<String>)> = None;
    for (position, raw) in result.trace.iter().flatten().enumerate() {
        let converted = convert_step(position, raw)?;
        if !converted.has_thread {
            trace.threads_known = false;
        }
        if converted.is_failure && (converted.property == result.property || failure.is_none()) {
            failure = Some((position, converted.property, converted.reason));
        }
        trace.steps.push(converted.step);
    }
    let failure_step = failure.as_ref().and_then(|(at, _, _)| trace.steps.get(*at));
    let message = result
        .description
        .clone()
        .or_else(|| failure.as_ref().and_then(|(_, _, reason)| reason.clone()))
        .unwrap_or_default();
    let property = result
        .property
        .clone()
        .or_else(|| failure.as_ref().and_then(|(_, p, _)| p.clone()));
    let loc = match json_loc(result.source_location.as_ref())? {
        Some(loc) => Some(loc),
        None => failure_step.and_then(|s| s.loc.clone()),
    };
    let internal = loc.as_ref().is_some_and(|l| is_builtin_file(&l.file));
    trace.violation = Some(Violation {
        kind: classify(property.as_deref(), &message, internal),
        message,
        loc,
        thread: failure_step.map(|s| s.thread),
        condition: None,
        property,
        internal,
    });
    library_calls::place_at_library_writes(&mut trace.steps);
    Ok(trace)
}

// ---------------------------------------------------------------------------------------
// plain text

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Verdict {
    Failed,
    Successful,
    Inconclusive,
    Error,
}

fn verdict(text: &str) -> Option<Verdict> {
    text.lines().rev().find_map(|l| match l.trim() {
        "VERIFICATION FAILED" => Some(Verdict::Failed),
        "VERIFICATION SUCCESSFUL" => Some(Verdict::Successful),
        "VERIFICATION INCONCLUSIVE" => Some(Verdict::Inconclusive),
        "VERIFICATION ERROR" => Some(Verdict::Error),
        _ => None,
    })
}

struct TextResult {
    property: String,
    loc: Option<SrcLoc>,
    description: String,
    status: String,
}

/// The `** Results:` list: `[id] line L description: STATUS`, grouped under
/// `<file> function <fn>` headers.
fn text_results(text: &str) -> Vec<TextResult> {
    let mut results = Vec::new();
    let mut group: Option<(String, Option<String>)> = None;
    let mut in_results = false;
    for line in text.lines() {
        let trimmed = line.trim_end();
        if trimmed == "** Results:" {
            in_results = true;
            continue;
        }
        if !in_results {
            continue;
        }
        if trimmed.starts_with("Trace for ") || trimmed.starts_with("** ") {
            in_results = false;
            continue;
        }
        if let Some(caps) = RESULT_RE.captures(trimmed) {
            let get = |i: usize| caps.get(i).map(|m| m.as_str().to_string());
            let file = get(2).or_else(|| group.as_ref().map(|g| g.0.clone()));
            let line = caps.get(3).and_then(|m| m.as_str().parse().ok());
            let loc = match (file, line) {
                (Some(file), Some(line)) => Some(SrcLoc {
                    file,
                    line,
                    column: None,
                    function: group.as_ref().and_then(|g| g.1.clone()),
                }),
                _ => None,
            };
            results.push(TextResult {
                property: get(1).unwrap_or_default(),
                loc,
                description: get(4).unwrap_or_default(),
                status: get(5).unwrap_or_default(),
            });
        } else if let Some((file, function)) = trimmed.rsplit_once(" function ") {
            group = Some((file.to_string(), Some(function.to_string())));
        } else if !trimmed.is_empty() {
            group = Some((trimmed.to_string(), None));
        }
    }
    results
}

/// A location in CBMC's text (`file F function G line L thread T` in state headers and
/// violated properties, `file F line L column C function G` after `Assumption:`), with the
/// function cleaned by [`user_function`], and its thread if it names one.
fn parse_text_loc(text: &str) -> Result<(Option<SrcLoc>, Option<u32>), TraceParseError> {
    let fields = loc_fields(text).ok_or_else(|| malformed("unreadable location", text))?;
    let bad_number = |()| malformed("line, column or thread is not a number", text);
    let mut loc = fields.src_loc().map_err(bad_number)?;
    if let Some(loc) = loc.as_mut() {
        loc.function = user_function(loc.function.as_deref());
    }
    Ok((loc, fields.thread_number().map_err(bad_number)?))
}

/// `__CPROVER_initialize` is the executing function of global initialisers, not a place in
/// the user's code; JSON gives such steps no function, and so does this.
fn user_function(function: Option<&str>) -> Option<String> {
    function
        .filter(|f| *f != "__CPROVER_initialize")
        .map(str::to_string)
}

struct TextTrace {
    steps: Vec<Step>,
    violation: Option<Violation>,
}

fn text_step(index: usize, thread: u32, loc: Option<SrcLoc>, kind: StepKind) -> Step {
    let internal = loc.as_ref().is_some_and(|l| {
        is_builtin_file(&l.file) || l.function.as_deref().is_some_and(is_internal_name)
    }) || match &kind {
        StepKind::Assignment { lhs, .. } => is_internal_name(lhs),
        StepKind::FunctionCall { function } | StepKind::FunctionReturn { function } => {
            is_internal_name(function)
        }
        _ => false,
    };
    Step {
        index,
        thread,
        loc,
        kind,
        internal,
    }
}

fn parse_text_trace(text: &str, property: Option<&str>) -> Result<TextTrace, TraceParseError> {
    let mut steps: Vec<Step> = Vec::new();
    // The current state header: number, thread, location.
    let mut header: Option<(usize, u32, Option<SrcLoc>)> = None;
    let mut lines = text.lines().peekable();
    let mut violation = None;
    while let Some(line) = lines.next() {
        let trimmed = line.trim();
        let (last_index, last_thread) = header
            .as_ref()
            .map(|(i, t, _)| (*i, *t))
            .or_else(|| steps.last().map(|s| (s.index, s.thread)))
            .unwrap_or((0, 0));
        if trimmed.starts_with("State ") {
            let rest = trimmed.strip_prefix("State ").unwrap_or("");
            let (number, location) = rest.split_once(' ').unwrap_or((rest, ""));
            let index = number
                .parse()
                .map_err(|_| malformed("unreadable State number", trimmed))?;
            let (loc, thread) = parse_text_loc(location)?;
            header = Some((index, thread.unwrap_or(0), loc));
        } else if trimmed == "Assumption:" {
            let (loc, _) = parse_text_loc(lines.next().unwrap_or(""))?;
            let _condition = lines.next();
            steps.push(text_step(
                last_index,
                last_thread,
                loc,
                StepKind::Assumption,
            ));
            header = None;
        } else if trimmed == "Violated property:" {
            let loc_line = lines.next().unwrap_or("").trim();
            let (loc, thread) = parse_text_loc(loc_line)?;
            let message = lines.next().unwrap_or("").trim().to_string();
            let condition = lines
                .next_if(|l| !l.trim().is_empty())
                .map(|l| l.trim().to_string());
            let internal = loc.as_ref().is_some_and(|l| is_builtin_file(&l.file));
            let thread_or_last = thread.unwrap_or(last_thread);
            steps.push(text_step(
                last_index,
                thread_or_last,
                loc.clone(),
                StepKind::Other {
                    text: format!("violated: {message}"),
                },
            ));
            violation = Some(Violation {
                kind: classify(property, &message, internal),
                message,
                loc,
                thread: Some(thread_or_last),
                condition,
                property: property.map(str::to_string),
                internal,
            });
            break;
        } else if let Some(caps) = CALL_RE.captures(trimmed) {
            let function = caps.get(2).map_or("", |m| m.as_str()).to_string();
            let kind = if caps.get(1).map(|m| m.as_str()) == Some("call") {
                StepKind::FunctionCall { function }
            } else {
                StepKind::FunctionReturn { function }
            };
            let loc = header.as_ref().and_then(|(_, _, l)| l.clone());
            steps.push(text_step(last_index, last_thread, loc, kind));
        } else if trimmed.starts_with("Trace for ")
            || trimmed.starts_with("** ")
            || trimmed.starts_with("VERIFICATION ")
        {
            break;
        } else if line.starts_with("  ") && !trimmed.is_empty() {
            let Some((index, thread, loc)) = header.as_ref() else {
                continue;
            };
            let (lhs, value) = match trimmed.strip_prefix("INPUT ") {
                Some(input) => input.split_once(": ").unwrap_or((input, "")),
                None => trimmed.split_once('=').unwrap_or((trimmed, "")),
            };
            let value = strip_binary_group(value.trim());
            let kind = StepKind::Assignment {
                lhs: lhs.trim().to_string(),
                value: value.to_string(),
                value_int: decode_value_int(value),
            };
            steps.push(text_step(*index, *thread, loc.clone(), kind));
        }
        // Anything else (separators, blank lines, status messages) carries no step.
    }
    // State numbers are CBMC's step numbers in execution order; a stable sort keeps the
    // trace in that order even if a future version prints blocks out of order.
    steps.sort_by_key(|s| s.index);
    Ok(TextTrace { steps, violation })
}

/// Parses plain `cbmc --trace` stdout. CBMC prints errors on stderr in this mode; use
/// [`parse_text_output`] to have them considered too.
pub fn parse_text(stdout: &str) -> Result<RawTrace, TraceParseError> {
    let version = version(stdout);
    let verdict = verdict(stdout);
    let trace_start = stdout
        .find("Trace for ")
        .or_else(|| stdout.find("Counterexample:"));
    let recognised = version.is_some()
        || verdict.is_some()
        || trace_start.is_some()
        || stdout.contains("** Results:")
        || stdout.contains(UNSOUND);
    if !recognised {
        return Err(TraceParseError::Unrecognised {
            checker: CHECKER,
            snippet: snippet(stdout),
        });
    }
    let mut trace = RawTrace {
        checker: CHECKER,
        version,
        outcome: Outcome::Failed,
        violation: None,
        steps: Vec::new(),
        threads_known: true,
    };
    if let Some(line) = stdout.lines().find(|l| l.contains(UNSOUND)) {
        trace.outcome = Outcome::Declined {
            reason: format!("CBMC aborted: {}", snippet(line)),
        };
        return Ok(trace);
    }
    trace.outcome = match verdict {
        Some(Verdict::Failed) => Outcome::Failed,
        Some(Verdict::Successful) => Outcome::Successful,
        Some(Verdict::Inconclusive) => Outcome::Unknown {
            reason: "CBMC: VERIFICATION INCONCLUSIVE".to_string(),
        },
        Some(Verdict::Error) => Outcome::Unknown {
            reason: "CBMC: VERIFICATION ERROR".to_string(),
        },
        None => Outcome::Unknown {
            reason: format!(
                "CBMC printed no verdict (killed, timed out or crashed?); its output ends with `{}`",
                last_line(stdout)
            ),
        },
    };
    if trace.outcome != Outcome::Failed {
        return Ok(trace);
    }
    let results = text_results(stdout);
    if let Some(start) = trace_start {
        let block = stdout.get(start..).unwrap_or("");
        let (first_line, body) = block.split_once('\n').unwrap_or((block, ""));
        let property = first_line
            .trim()
            .strip_prefix("Trace for ")
            .and_then(|p| p.strip_suffix(':'))
            .map(str::to_string);
        let parsed = parse_text_trace(body, property.as_deref())?;
        trace.steps = parsed.steps;
        trace.violation = parsed.violation;
    }
    // Without a trace (or a `Violated property` block), the results list still names the
    // failed property and its line.
    if trace.violation.is_none()
        && let Some(r) = results.iter().find(|r| r.status == "FAILURE")
    {
        trace.violation = Some(Violation {
            kind: classify(
                Some(&r.property),
                &r.description,
                r.loc.as_ref().is_some_and(|l| is_builtin_file(&l.file)),
            ),
            message: r.description.clone(),
            internal: r.loc.as_ref().is_some_and(|l| is_builtin_file(&l.file)),
            loc: r.loc.clone(),
            thread: None,
            condition: None,
            property: Some(r.property.clone()),
        });
    }
    if let Some(v) = trace.violation.as_mut()
        && let Some(r) = results
            .iter()
            .find(|r| Some(r.property.as_str()) == v.property.as_deref())
    {
        // The results list has the property's function even when the trace's does not.
        if let (Some(loc), Some(rloc)) = (v.loc.as_mut(), r.loc.as_ref())
            && loc.function.is_none()
        {
            loc.function = rloc.function.clone();
        }
    }
    Ok(trace)
}

/// [`parse_text`], with the stderr CBMC writes its errors to in text mode: the unsoundness
/// abort there makes the outcome unknown, and it explains a missing verdict.
pub fn parse_text_output(stdout: &str, stderr: &str) -> Result<RawTrace, TraceParseError> {
    if let Some(line) = stderr.lines().find(|l| l.contains(UNSOUND)) {
        return Ok(RawTrace {
            checker: CHECKER,
            version: version(stdout).or_else(|| version(stderr)),
            outcome: Outcome::Declined {
                reason: format!("CBMC aborted: {}", snippet(line)),
            },
            violation: None,
            steps: Vec::new(),
            threads_known: true,
        });
    }
    match parse_text(stdout) {
        Ok(mut trace) => {
            if let Outcome::Unknown { reason } = &mut trace.outcome
                && verdict(stdout).is_none()
                && !stderr.trim().is_empty()
            {
                *reason = format!("{reason}; stderr ends with `{}`", last_line(stderr));
            }
            Ok(trace)
        }
        Err(e) => Err(e),
    }
}

#[cfg(test)]
pub(crate) mod tests;
