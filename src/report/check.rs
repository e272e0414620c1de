//! The result of `seqloc check`: readable text, the `seqloc.check/1` JSON and SARIF 2.1.0
//! (one result for the failure found, with the interleaving as a code flow; none otherwise).
//!
//! # JSON (`seqloc.check/1`)
//!
//! | field | meaning |
//! |---|---|
//! | `schema` | `"seqloc.check/1"` |
//! | `program` | the input file |
//! | `checker` | `{ "name", "version" }` |
//! | `verdict` | `failure`, `deadlock`, `no-failure-within-bounds` or `unknown` |
//! | `reason` | why the verdict is what it is (bounds reached, limits), or `null` |
//! | `property` | the violated property: `kind` (`assertion`, `error`, `deadlock`, `unlock`: an unlock of a mutex no thread holds), `file`, `line`, `column`, `thread`, `message` — or `null` |
//! | `bounds` | `{ "rounds", "unwind", "threads" }` of the last search; `rounds` and `threads` are `null` for a checker not given them (ESBMC and CBMC create the threads, CBMC has no rounds) |
//! | `loops_complete` | every loop ran to its end within the unwinding bound |
//! | `unwinding_reached` | loops whose bound was reached (`file:line`) |
//! | `schedule` | the failing interleaving in `seqloc.schedule/1` form, or `null` |
//! | `trace` | one entry per step: `thread`, `file`, `line`, `statement`, `writes` |
//! | `inputs` | nondeterministic values: `thread`, `at`, `value` |
//! | `time_ms` | `{ "total", "encode", "solve" }` |
//! | `phases` | each bound tried and its result |
//! | `limit` | what left the verdict `unknown` when it was a limit: `time`, `memory` or `interrupted` (Ctrl-C); otherwise `null` |
//! | `exhaustive` | `true` when every execution was explored with no bound (the explicit-state search finished): the verdict is then a proof, not a bounded check |
//! | `exploration` | the explicit-state search: `result` (`safe`, `failure`, `deadlock`, `inconclusive`), `reason` (why it gave up, and where), `states`, `transitions`, `ms`; `null` when it did not run |

use serde::Serialize;

use super::json;
use super::style::Style;
use crate::cex::{Counterexample, InputStep, TraceStep, ViolationKind};
use crate::diagnostics::SourceSpot;
use crate::engine::check::{CheckOutcome, Verdict};
use crate::ir::Program;
use crate::words::count;

pub const SCHEMA: &str = "seqloc.check/1";

#[derive(Clone, Debug, Serialize)]
pub struct CheckerInfo {
    pub name: String,
    pub version: String,
}

#[derive(Serialize)]
pub struct TimeMs {
    pub total: u64,
    pub encode: u64,
    pub solve: u64,
}

#[derive(Serialize)]
struct CheckJson<'a> {
    schema: &'static str,
    program: String,
    checker: &'a CheckerInfo,
    verdict: &'static str,
    reason: Option<String>,
    property: Option<json::Property>,
    bounds: json::BoundsJson,
    loops_complete: bool,
    unwinding_reached: &'a [String],
    schedule: Option<&'a crate::seq::schedule::Schedule>,
    trace: Vec<json::StepJson>,
    inputs: Vec<json::InputJson>,
    time_ms: TimeMs,
    phases: Vec<json::PhaseJson>,
    limit: Option<&'static str>,
    exhaustive: bool,
    exploration: Option<json::ExplorationJson>,
}

pub fn to_json(
    out: &CheckOutcome,
    prog: &Program,
    program: &str,
    checker: CheckerInfo,
    total_ms: u64,
) -> String {
    let cex = out.counterexample.as_ref();
    let j = CheckJson {
        schema: SCHEMA,
        program: program.to_string(),
        checker: &checker,
        verdict: json::verdict(out.verdict),
        reason: out.reason.clone(),
        property: cex.map(|c| (&c.violation).into()),
        bounds: (&out.bounds).into(),
        loops_complete: out.loops_complete,
        unwinding_reached: &out.unwinding_reached,
        schedule: cex.map(|c| &c.schedule),
        trace: cex
            .map(|c| {
                let handles = crate::analysis::thread_ids::unset_handle_decls(prog);
                c.steps
                    .iter()
                    .map(|s| (&shown_step(s, &handles, prog)).into())
                    .collect()
            })
            .unwrap_or_default(),
        inputs: cex
            .map(|c| shown_inputs(c, prog).into_iter().map(Into::into).collect())
            .unwrap_or_default(),
        time_ms: TimeMs {
            total: total_ms,
            encode: out.stats.encode_ms,
            solve: out.stats.solve_ms,
        },
        phases: out.phases.iter().map(Into::into).collect(),
        limit: json::limit(out.limit()),
        exhaustive: out.exhaustive(),
        exploration: out.exploration.as_ref().map(Into::into),
    };
    serde_json::to_string_pretty(&j).unwrap_or_default()
}

/// The thread label used in traces: `T1 t1` (id and function).
pub fn thread_label(cex: &Counterexample, t: u32) -> String {
    schedule_thread_label(&cex.schedule, t)
}

/// [`thread_label`] from a schedule alone.
pub fn schedule_thread_label(s: &crate::seq::schedule::Schedule, t: u32) -> String {
    let f = s
        .threads
        .iter()
        .find(|x| x.id == t)
        .map(|x| x.function.as_str())
        .unwrap_or("?");
    format!("T{t} {f}")
}

/// A search's bounds in words, without those the checker was not given (recorded as 0:
/// ESBMC and CBMC create the threads themselves, CBMC has no rounds).
pub fn bounds_text(b: &crate::checker::outcome::Bounds) -> String {
    let mut parts = Vec::new();
    if b.rounds > 0 {
        parts.push(count(b.rounds, "round"));
    }
    parts.push(format!("loops unwound {}", count(b.unwind, "time")));
    if b.threads > 0 {
        parts.push(count(b.threads, "thread slot"));
    }
    parts.join(", ")
}

/// What a step did, in source terms: `t = 0`, `reads x = 0`, `counter == 2 is false`,
/// `m: held by T2`. Variables are named as the source names them (`Write::shown`); a
/// temporary of seqloc's is described by what its statement computed, or left out.
pub fn step_effect(step: &TraceStep) -> String {
    let sync = sync_call(&step.statement);
    let mut parts = Vec::new();
    for w in &step.writes {
        match &w.shown {
            Some(name) => {
                let name = name.trim_start_matches("*&");
                match &sync {
                    // A synchronization object's integer is the sequential program's
                    // encoding (seq::build::sync), not a value the user's program holds.
                    Some((call, object)) if object == name => {
                        if let Some(words) = sync_state(call, name, &w.value) {
                            parts.push(words);
                        }
                    }
                    _ => parts.push(format!("{name} = {}", w.value)),
                }
            }
            None => {
                // `int __t = x;`: the step is a read of the right-hand side.
                let rhs = step
                    .statement
                    .split_once('=')
                    .map(|(_, r)| r.trim().trim_end_matches(';').trim().to_string())
                    .unwrap_or_default();
                if rhs.contains("nondet") {
                    parts.push(format!("input {}", w.value));
                } else if rhs.is_empty()
                    || rhs.contains('(')
                    || crate::ir::internal::mentions_internal_name(&rhs)
                {
                    // A call's result or a value computed from other temporaries: the
                    // source has no name for it (and a call's temporary is written before
                    // the call returns), so the step says nothing of it.
                } else if let Some(truth) = truth_words(&rhs, &w.value) {
                    parts.push(format!("{rhs} is {truth}"));
                } else {
                    parts.push(format!("reads {rhs} = {}", w.value));
                }
            }
        }
    }
    parts.join(", ")
}

/// A step's statement in source terms: a temporary's declaration (`int __t = x == 1;`,
/// how normalization splits a condition out) is the expression it holds.
pub fn shown_statement(step: &TraceStep) -> String {
    let text = &step.statement;
    if !crate::ir::internal::mentions_internal_name(text) {
        return text.clone();
    }
    match text.split_once('=') {
        Some((lhs, rhs)) if crate::ir::internal::mentions_internal_name(lhs) => {
            let rhs = rhs.trim().trim_end_matches(';').trim();
            if crate::ir::internal::mentions_internal_name(rhs) {
                String::new()
            } else {
                rhs.to_string()
            }
        }
        _ => String::new(),
    }
}

/// `true`/`false` for the value of a comparison or logical expression (`counter == 2`),
/// which C computes as 1 or 0.
fn truth_words(expr: &str, value: &str) -> Option<&'static str> {
    // Shifts and arrows are no comparisons.
    let bare = expr
        .replace("<<", " ")
        .replace(">>", " ")
        .replace("->", " ");
    let logical = ["==", "!=", "<", ">", "&&", "||"]
        .iter()
        .any(|op| bare.contains(op))
        || bare.starts_with('!');
    if !logical {
        return None;
    }
    match value {
        "0" => Some("false"),
        "1" => Some("true"),
        _ => None,
    }
}

/// The pthread or semaphore function a statement calls and the object its first
/// argument names (`pthread_mutex_lock(&m)` → `("pthread_mutex_lock", "m")`).
fn sync_call(statement: &str) -> Option<(String, String)> {
    let at = ["pthread_", "sem_"]
        .iter()
        .filter_map(|p| statement.find(p))
        .min()?;
    let rest = statement.get(at..)?;
    let (name, args) = rest.split_once('(')?;
    let first = args.split([',', ')']).next()?.trim();
    let object = first.strip_prefix('&')?.trim();
    Some((name.trim().to_string(), object.to_string()))
}

/// A synchronization object's state in words, from its integer in the sequential program
/// (the encodings of `rules/*.toml` and `seq::build::sync`); `None` for the objects
/// whose integer says nothing a reader needs (condition variables, barriers, once
/// controls): the step's statement already says what happened.
fn sync_state(call: &str, object: &str, value: &str) -> Option<String> {
    let v: i128 = value.trim_end_matches(['u', 'l', 'U', 'L']).parse().ok()?;
    if call.starts_with("pthread_mutex_") || call.starts_with("pthread_spin_") {
        // The owner's slot + 1 in the low byte (the type and re-locks above it).
        let owner = v & 0xff;
        return Some(if owner == 0 {
            format!("{object}: free")
        } else {
            format!("{object}: held by T{}", owner - 1)
        });
    }
    if call.starts_with("pthread_rwlock_") {
        return Some(match v {
            0 => format!("{object}: free"),
            -1 => format!("{object}: held by a writer"),
            n if n > 0 => format!(
                "{object}: held by {}",
                crate::words::count(n.unsigned_abs(), "reader")
            ),
            _ => return None,
        });
    }
    if call.starts_with("sem_") {
        return Some(format!("{object}: count {v}"));
    }
    None
}

/// Whether `loc` is one of `decls` (compared by position: the report's program and the
/// checked one are different copies of the same source).
fn at_any(prog: &Program, loc: crate::ir::Loc, decls: &[crate::ir::Loc]) -> bool {
    let Some(p) = prog.sources.position(loc) else {
        return false;
    };
    decls.iter().any(|d| {
        prog.sources
            .position(*d)
            .is_some_and(|q| q.file == p.file && q.line == p.line && q.col == p.col)
    })
}

/// The inputs a user reads about: without the values an unset thread handle held before
/// `pthread_create` wrote it (`analysis::thread_ids::unset_handle_decls`). The schedule
/// keeps every input, for replays.
pub fn shown_inputs<'a>(cex: &'a Counterexample, prog: &Program) -> Vec<&'a InputStep> {
    let handles = crate::analysis::thread_ids::unset_handle_decls(prog);
    let names: Vec<String> = handles
        .iter()
        .filter_map(|l| prog.sources.position(*l))
        .map(|p| {
            format!(
                "{}:{}:{}",
                crate::seq::schedule::short_file(p.file),
                p.line,
                p.col
            )
        })
        .collect();
    cex.inputs
        .iter()
        .filter(|i| {
            let at = i.at.split('#').next().unwrap_or(&i.at);
            !names.iter().any(|n| n == at)
        })
        .collect()
}

/// A step as a user reads it: without the value an unset thread handle's declaration
/// left (see [`shown_inputs`]).
fn shown_step(step: &TraceStep, handles: &[crate::ir::Loc], prog: &Program) -> TraceStep {
    let mut s = step.clone();
    if at_any(prog, step.loc, handles) {
        s.writes.clear();
    }
    s
}

pub fn render_trace(cex: &Counterexample, prog: &Program, st: &Style) -> String {
    let mut out = String::new();
    let width = cex
        .schedule
        .threads
        .iter()
        .map(|t| thread_label(cex, t.id).len())
        .max()
        .unwrap_or(8);
    let handles = crate::analysis::thread_ids::unset_handle_decls(prog);
    let mut prev_thread = None;
    for (i, s) in cex.steps.iter().enumerate() {
        let s = &shown_step(s, &handles, prog);
        if prev_thread.is_some_and(|p| p != s.thread) {
            out.push_str(&format!("    {}\n", st.dim("--- context switch ---")));
        }
        prev_thread = Some(s.thread);
        let file = crate::seq::schedule::short_file(&s.file);
        let src = prog
            .sources
            .source_line(s.loc)
            .map(|l| l.trim().to_string())
            .unwrap_or_else(|| s.statement.clone());
        let eff = step_effect(s);
        let eff = if eff.is_empty() {
            String::new()
        } else {
            format!("   {}", st.cyan(&eff))
        };
        out.push_str(&format!(
            "  {:>3}  {:<width$}  {:<18} {}{}\n",
            i + 1,
            thread_label(cex, s.thread),
            format!("{file}:{}", s.line),
            src,
            eff,
            width = width
        ));
    }
    out
}

pub fn render_text(
    out: &CheckOutcome,
    prog: &Program,
    program: &str,
    checker: &str,
    st: &Style,
    total_ms: u64,
) -> String {
    let mut s = String::new();
    s.push_str(&format!(
        "{} {} ({})\n",
        st.bold("seqloc check"),
        program,
        checker
    ));
    let bounds = bounds_text(&out.bounds);
    match (&out.verdict, &out.counterexample) {
        (Verdict::Failure | Verdict::Deadlock, Some(cex)) => {
            let v = &cex.violation;
            let head = match v.kind {
                ViolationKind::Deadlock => "DEADLOCK: every live thread is blocked".to_string(),
                ViolationKind::Assertion => format!(
                    "FAILURE: assertion failed at {}:{}",
                    crate::seq::schedule::short_file(&v.file),
                    v.line
                ),
                ViolationKind::Error => format!(
                    "FAILURE: error location reached at {}:{}",
                    crate::seq::schedule::short_file(&v.file),
                    v.line
                ),
                ViolationKind::Unlock => format!(
                    "FAILURE: unlock of a mutex no thread holds at {}:{}",
                    crate::seq::schedule::short_file(&v.file),
                    v.line
                ),
            };
            s.push_str(&format!("{}\n", st.red(&head)));
            if v.kind != ViolationKind::Deadlock {
                let spot = SourceSpot::at(
                    &prog.sources,
                    v.loc,
                    format!("in thread {}", thread_label(cex, v.thread.unwrap_or(0))),
                );
                s.push_str(&spot.render_plain("note"));
            }
            s.push_str(&format!(
                "\n{} ({}, {}):\n",
                st.bold("Interleaving"),
                count(cex.schedule.threads.len(), "thread"),
                count(cex.context_switches(), "context switch")
            ));
            s.push_str(&render_trace(cex, prog, st));
            let inputs = shown_inputs(cex, prog);
            if !inputs.is_empty() {
                s.push_str(&format!("\n{}\n", st.bold("Inputs:")));
                for i in inputs {
                    s.push_str(&format!(
                        "  {} at {}: {}{}\n",
                        thread_label(cex, i.thread),
                        i.at,
                        i.value,
                        wake_meaning(cex, i)
                    ));
                }
            }
            let how = match &out.reason {
                Some(r) => r.clone(),
                None => format!("found with {bounds}"),
            };
            s.push_str(&format!("\n{how}; {:.1} s\n", total_ms as f64 / 1000.0));
        }
        (Verdict::NoFailureWithinBounds, _) if out.exhaustive() => {
            s.push_str(&format!("{}\n", st.green("NO FAILURE in any execution")));
            if let Some(r) = &out.reason {
                s.push_str(&format!("  {r}\n"));
            }
            s.push_str(&format!("  {:.1} s\n", total_ms as f64 / 1000.0));
        }
        (Verdict::NoFailureWithinBounds, _) => {
            s.push_str(&format!("{}\n", st.green("NO FAILURE within the bounds")));
            if let Some(r) = &out.reason {
                s.push_str(&format!("  {r}\n"));
            }
            s.push_str(&format!(
                "  bounds: {bounds}; {:.1} s\n",
                total_ms as f64 / 1000.0
            ));
            s.push_str(&format!(
                "  {}\n",
                st.dim("a bounded check: deeper interleavings (--rounds) or longer loops (--unwind) are not covered")
            ));
        }
        _ => {
            s.push_str(&format!("{}\n", st.yellow("UNKNOWN")));
            if let Some(r) = &out.reason {
                s.push_str(&format!("  {r}\n"));
            }
            s.push_str(&format!(
                "  last bounds: {bounds}; {:.1} s\n",
                total_ms as f64 / 1000.0
            ));
        }
    }
    s
}

/// SARIF 2.1.0: one result for the failure or deadlock found, with the failing
/// interleaving as its code flow; no result otherwise. The verdict, `exhaustive`, `limit`
/// and the reason are the invocation's properties, so that "no result" is never read
/// without knowing whether it is a proof, a bounded check or no answer.
pub fn to_sarif(out: &CheckOutcome, checker: &CheckerInfo) -> String {
    use super::json::sarif_uri;
    use serde_json::{Value, json};
    let rules = json!([
        { "id": "seqloc/assertion", "name": "AssertionFailure",
          "shortDescription": { "text": "An assertion fails in some interleaving" },
          "defaultConfiguration": { "level": "error" } },
        { "id": "seqloc/error-call", "name": "ErrorLocationReached",
          "shortDescription": { "text": "An error call (reach_error, __VERIFIER_error) is reached in some interleaving" },
          "defaultConfiguration": { "level": "error" } },
        { "id": "seqloc/deadlock", "name": "Deadlock",
          "shortDescription": { "text": "Every live thread is blocked in some interleaving" },
          "defaultConfiguration": { "level": "error" } },
        { "id": "seqloc/unlock", "name": "UnlockOfFreeMutex",
          "shortDescription": { "text": "A mutex no thread holds is unlocked in some interleaving (\"must hold lock upon unlock\")" },
          "defaultConfiguration": { "level": "error" } }
    ]);
    let results: Vec<Value> = out
        .counterexample
        .as_ref()
        .filter(|_| matches!(out.verdict, Verdict::Failure | Verdict::Deadlock))
        .map(|cex| {
            let v = &cex.violation;
            let (rule, index) = match v.kind {
                ViolationKind::Assertion => ("seqloc/assertion", 0),
                ViolationKind::Error => ("seqloc/error-call", 1),
                ViolationKind::Deadlock => ("seqloc/deadlock", 2),
                ViolationKind::Unlock => ("seqloc/unlock", 3),
            };
            let mut r = json!({
                "ruleId": rule,
                "ruleIndex": index,
                "level": "error",
                "message": { "text": v.describe() },
                "codeFlows": [code_flow(cex)]
            });
            if v.line > 0 {
                if let Some(o) = r.as_object_mut() {
                    o.insert(
                        "locations".into(),
                        json!([{
                            "physicalLocation": {
                                "artifactLocation": { "uri": sarif_uri(&v.file) },
                                "region": { "startLine": v.line, "startColumn": v.column.max(1) }
                            }
                        }]),
                    );
                }
            }
            r
        })
        .into_iter()
        .collect();
    let mut notifications: Vec<Value> = Vec::new();
    if out.verdict == Verdict::Unknown {
        notifications.push(json!({
            "level": "warning",
            "message": { "text": format!("no answer: {}", out.reason.as_deref().unwrap_or("unknown")) }
        }));
    }
    let doc = json!({
        "$schema": "https://json.schemastore.org/sarif-2.1.0.json",
        "version": "2.1.0",
        "runs": [{
            "tool": { "driver": {
                "name": "seqloc",
                "version": env!("CARGO_PKG_VERSION"),
                "rules": rules
            } },
            "invocations": [{
                "executionSuccessful": true,
                "toolExecutionNotifications": notifications,
                "properties": {
                    "checker": checker.name,
                    "checkerVersion": checker.version,
                    "verdict": json::verdict(out.verdict),
                    "exhaustive": out.exhaustive(),
                    "limit": json::limit(out.limit()),
                    "reason": out.reason
                }
            }],
            "results": results
        }]
    });
    serde_json::to_string_pretty(&doc).unwrap_or_default()
}

/// What a condition wait's input means: whether that wait woke spuriously (a timed wait
/// without a signal otherwise times out).
fn wake_meaning(cex: &Counterexample, input: &crate::cex::InputStep) -> &'static str {
    let timed = cex.steps.iter().any(|t| {
        t.thread == input.thread
            && input
                .at
                .strip_prefix(&format!("{}:{}:", t.file, t.line))
                .is_some()
            && t.statement.contains("pthread_cond_timedwait(")
    });
    match (timed, input.value != 0) {
        (true, true) => " (this wait may wake spuriously: 0 without a signal)",
        (true, false) => " (without a signal this wait times out)",
        _ => "",
    }
}

/// `T0 main 29-33 → T1 post 9 → ...` of a schedule: each block's thread and the lines it
/// ran (`report::localize::interleaving` of a counterexample).
pub fn schedule_interleaving(schedule: &crate::seq::schedule::Schedule) -> String {
    let label = |t: u32| schedule_thread_label(schedule, t);
    let mut parts = Vec::new();
    for b in &schedule.blocks {
        let lines: Vec<u32> = b
            .ran
            .iter()
            .filter_map(|l| l.rsplit(':').next()?.parse().ok())
            .collect();
        let text = compress(&lines);
        let label = label(b.thread);
        parts.push(if text.is_empty() {
            label
        } else {
            format!("{label} {text}")
        });
    }
    parts.join(" → ")
}

/// `29,30,31,33` → `29-31,33`.
fn compress(lines: &[u32]) -> String {
    let mut out: Vec<String> = Vec::new();
    let mut i = 0;
    while i < lines.len() {
        let start = lines[i];
        let mut end = start;
        while i + 1 < lines.len() && lines[i + 1] == end + 1 {
            i += 1;
            end = lines[i];
        }
        out.push(if end == start {
            start.to_string()
        } else {
            format!("{start}-{end}")
        });
        i += 1;
    }
    out.join(",")
}

/// The failing interleaving as a SARIF code flow: one thread flow per thread, its steps in
/// execution order.
pub(crate) fn code_flow(cex: &Counterexample) -> serde_json::Value {
    use serde_json::{Value, json};
    let uri = |f: &str| super::json::sarif_uri(f);
    let mut flows: Vec<Value> = Vec::new();
    for t in &cex.schedule.threads {
        let locs: Vec<Value> = cex
            .steps
            .iter()
            .enumerate()
            .filter(|(_, s)| s.thread == t.id)
            .map(|(i, s)| {
                json!({
                    "executionOrder": i + 1,
                    "location": {
                        "physicalLocation": {
                            "artifactLocation": { "uri": uri(&s.file) },
                            "region": { "startLine": s.line }
                        },
                        "message": { "text": shown_statement(s) }
                    }
                })
            })
            .collect();
        if locs.is_empty() {
            continue;
        }
        flows.push(json!({
            "id": format!("T{}", t.id),
            "message": { "text": format!("thread T{} ({})", t.id, t.function) },
            "locations": locs
        }));
    }
    json!({
        "message": { "text": format!("failing interleaving: {}", schedule_interleaving(&cex.schedule)) },
        "threadFlows": flows
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::cex::Write;
    use crate::ir::{Loc, StmtId};

    fn step(statement: &str, writes: Vec<Write>) -> TraceStep {
        TraceStep {
            thread: 1,
            loc: Loc::SYNTH,
            sid: StmtId::NONE,
            file: "p.c".into(),
            line: 1,
            statement: statement.into(),
            writes,
        }
    }

    fn copy(lhs: &str, shown: &str, value: &str) -> Write {
        Write {
            lhs: lhs.into(),
            shown: Some(shown.into()),
            value: value.into(),
        }
    }

    #[test]
    fn a_threads_copy_of_a_local_is_named_as_the_source_names_it() {
        let s = step("int t = counter;", vec![copy("t_1", "t", "0")]);
        assert_eq!(step_effect(&s), "t = 0");
    }

    #[test]
    fn a_failing_comparison_is_false_not_zero() {
        let s = step(
            "int __t = counter == 2;",
            vec![Write::named("__t".into(), "0".into())],
        );
        assert_eq!(step_effect(&s), "counter == 2 is false");
        assert_eq!(shown_statement(&s), "counter == 2");
        let s = step(
            "int __t = x << 2;",
            vec![Write::named("__t".into(), "0".into())],
        );
        assert_eq!(step_effect(&s), "reads x << 2 = 0");
    }

    #[test]
    fn a_calls_temporary_and_a_made_up_name_are_not_shown() {
        let s = step(
            "int __t = add(0);",
            vec![Write::named("__t".into(), "0".into())],
        );
        assert_eq!(step_effect(&s), "");
        let s = step(
            "__atomic_value = v;",
            vec![Write::named("__atomic_value_1".into(), "1".into())],
        );
        assert_eq!(step_effect(&s), "reads v = 1");
    }

    #[test]
    fn bounds_a_checker_was_not_given_are_left_out() {
        use crate::checker::outcome::Bounds;
        let b = |rounds, unwind, threads| Bounds {
            rounds,
            unwind,
            threads,
        };
        assert_eq!(
            bounds_text(&b(3, 2, 3)),
            "3 rounds, loops unwound 2 times, 3 thread slots"
        );
        assert_eq!(
            bounds_text(&b(1, 1, 1)),
            "1 round, loops unwound 1 time, 1 thread slot"
        );
        // ESBMC: no thread slots; CBMC: no rounds either.
        assert_eq!(bounds_text(&b(3, 2, 0)), "3 rounds, loops unwound 2 times");
        assert_eq!(bounds_text(&b(0, 2, 0)), "loops unwound 2 times");
    }

    #[test]
    fn a_mutex_is_free_or_held_by_a_thread() {
        let s = step("pthread_mutex_lock(&b);", vec![copy("b", "b", "3")]);
        assert_eq!(step_effect(&s), "b: held by T2");
        let s = step("pthread_mutex_unlock(&b);", vec![copy("b", "b", "0")]);
        assert_eq!(step_effect(&s), "b: free");
        let s = step("pthread_cond_signal(&c);", vec![copy("c", "c", "0")]);
        assert_eq!(step_effect(&s), "");
        let s = step(
            "int __t = pthread_mutex_trylock(&m);",
            vec![copy("m", "m", "1"), Write::named("__t".into(), "0".into())],
        );
        assert_eq!(step_effect(&s), "m: held by T0");
    }
}
