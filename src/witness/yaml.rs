//! YAML violation witnesses, format 2.2 (`entry_type: violation_sequence`) with its
//! concurrency extension, written from a [`Counterexample`] and read back into a
//! [`Schedule`].
//!
//! A format-2.2 witness is one sequence of segments whose order is the happens-before
//! order of their waypoints; each waypoint names the thread that passes it (`thread_id`:
//! `0` is `main`, `k` the thread the k-th `function_enter` waypoint at a `pthread_create`
//! registered, so creation order, as seqloc numbers threads). The validators of
//! concurrency witnesses (ConcurrentWitness2Test) replay it natively: where the thread
//! changes from one waypoint to the next they hold the new thread before the first
//! statement of the waypoint's line until every earlier such point has run.
//!
//! seqloc writes, in the order of the schedule's blocks:
//!
//! * at each context switch, an `assumption` waypoint (constraint `1`) of the thread that
//!   resumes, at the line of the first statement it runs: it holds the thread there;
//! * a `function_enter` waypoint at the opening parenthesis of each `pthread_create` that
//!   makes a thread, in creation order (it numbers the threads);
//! * a `function_return` waypoint at each `__VERIFIER_nondet_*` call whose value the run
//!   took (`\result == v`, format `ext_c_expression`, at the call's closing parenthesis);
//! * the `target` (the failing check), last.
//!
//! A waypoint names a line, and the validators hold a thread at the first time it reaches
//! that line's first statement after its previous waypoint. So a schedule is written only
//! when that reading is the schedule: every switch falls before the first statement of a
//! line (not between the read and the write of `x = x + 1`), and no thread passes its next
//! switch point's statement earlier in the block that precedes it. Otherwise the witness is
//! refused by name, as a deadlock is (no property of the format); the GraphML witness
//! ([`super::graphml`]) names statements exactly and has no such limits.
//!
//! [`read`] reads a format-2.2 witness as the validators do: a block per change of thread,
//! each held before the first statement of the line of its thread's next waypoint, counted
//! within the block ([`Until::Before`]'s `within_block`), a thread's last block running to
//! its end; the `function_return` values are the inputs, the k-th at a line the k-th
//! value taken there. A thread preempted for good is not held by the format: it runs on.
//! The format carries no loop bound: a replay picks its own (`--unwind`).

use std::collections::{BTreeMap, HashMap, HashSet};

use serde::Serialize;

use super::{Hints, Meta, WitnessError};
use crate::analysis::shared::SharedInfo;
use crate::cex::{Counterexample, ViolationKind};
use crate::ir::visit;
use crate::ir::{Expr, ExprKind, Init, Program, StmtId, StmtKind};
use crate::passes::normalize::shared_accesses;
use crate::seq::schedule::{Block, InputValue, SCHEMA, Schedule, StmtIndex, ThreadSpec, Until};

/// The format version seqloc writes and reads.
pub const FORMAT_VERSION: &str = "2.2";
#[derive(Serialize)]
struct Entry {
    entry_type: &'static str,
    metadata: Metadata,
    content: Vec<Segment>,
}

#[derive(Serialize)]
struct Metadata {
    format_version: &'static str,
    uuid: String,
    creation_time: String,
    producer: Producer,
    task: Task,
}

#[derive(Serialize)]
struct Producer {
    name: String,
    version: String,
}

#[derive(Serialize)]
struct Task {
    input_files: Vec<String>,
    input_file_hashes: std::collections::BTreeMap<String, String>,
    specification: String,
    data_model: &'static str,
    language: &'static str,
}

#[derive(Serialize)]
struct Segment {
    segment: Vec<WaypointItem>,
}

#[derive(Serialize)]
struct WaypointItem {
    waypoint: Waypoint,
}

#[derive(Serialize)]
struct Waypoint {
    #[serde(rename = "type")]
    kind: &'static str,
    action: &'static str,
    thread_id: u32,
    location: Location,
    #[serde(skip_serializing_if = "Option::is_none")]
    constraint: Option<Constraint>,
}

#[derive(Serialize)]
struct Location {
    file_name: String,
    line: u32,
    column: u32,
    function: String,
}

#[derive(Serialize)]
struct Constraint {
    value: String,
    format: &'static str,
}

/// The YAML text of the format-2.2 witness of `cex`. `source` is the program's text (for
/// the columns of the calls' parentheses).
pub fn write(
    cex: &Counterexample,
    prog: &Program,
    shared: &SharedInfo,
    index: &StmtIndex,
    meta: &Meta,
    source: &str,
) -> Result<String, WitnessError> {
    let not_covered = |reason: String| WitnessError::NotCovered {
        format: "YAML 2.2",
        reason,
    };
    if cex.violation.kind == ViolationKind::Deadlock {
        return Err(not_covered(
            "a deadlock is not a property the format describes (use the GraphML witness)".into(),
        ));
    }
    let (steps, plan) = super::graphml::block_steps(cex, index).map_err(not_covered)?;
    let lines: Vec<&str> = source.lines().collect();
    let function_at = |sid| {
        index
            .get(sid)
            .map(|e| prog.func(e.func).name.clone())
            .unwrap_or_default()
    };
    let location = |line: u32, column: u32, function: String| Location {
        file_name: meta.program_file.clone(),
        line,
        column: column.max(1),
        function,
    };
    // The first statement of a step's line: where a validator holds a thread.
    let line_head = |sid| {
        let e = index.get(sid)?;
        index.resolve(&format!("{}:{}", e.file, e.line)).ok()
    };
    // Each block that ran something, with its steps: a block in which its thread ran
    // nothing (it blocked at once) switches to no statement.
    let ran: Vec<(u32, &[usize])> = cex
        .schedule
        .blocks
        .iter()
        .zip(&plan)
        .filter(|(_, taken)| !taken.is_empty())
        .map(|(b, taken)| (b.thread, taken.as_slice()))
        .collect();
    // Merged runs of one thread: a switch only where the thread changes.
    let mut runs: Vec<(u32, Vec<usize>)> = Vec::new();
    for (t, taken) in ran {
        match runs.last_mut() {
            Some((last, v)) if *last == t => v.extend_from_slice(taken),
            _ => runs.push((t, taken.to_vec())),
        }
    }
    // Every switch must be one the validators' reading makes. Where it is not, the
    // thread's own steps that touch nothing shared (a loop's `i = i + 1` and `i < n`)
    // may run before the switch instead of after it, which changes no other thread's
    // view, until it resumes where a waypoint holds it.
    let movable = movable_statements(prog, shared);
    let holdable = |t: u32, taken: &[usize], next: &[usize]| -> Result<(), String> {
        let Some(resume) = next.first().and_then(|&i| steps.get(i)) else {
            return Ok(());
        };
        let head = line_head(resume.sid);
        if head != Some(resume.sid) {
            return Err(format!(
                "thread {t} resumes at `{}` (line {}), not at the first statement of its line: a waypoint names a line",
                resume.statement, resume.line
            ));
        }
        let first_line = taken.first().and_then(|&i| steps.get(i)).map(|s| s.line);
        let allowed = usize::from(first_line == Some(resume.line));
        let passes = taken
            .iter()
            .filter(|&&i| steps.get(i).is_some_and(|s| Some(s.sid) == head))
            .count();
        if passes != allowed {
            return Err(format!(
                "thread {t} runs `{}` (line {}) {passes} time(s) before it is preempted there: a validator holds a thread the first time it reaches its next waypoint",
                resume.statement, resume.line
            ));
        }
        Ok(())
    };
    for ri in 0..runs.len() {
        let t = runs[ri].0;
        let Some(rj) = (ri + 1..runs.len()).find(|&j| runs[j].0 == t) else {
            continue;
        };
        while let Err(why) = holdable(t, &runs[ri].1, &runs[rj].1) {
            let first = runs[rj].1.first().copied();
            match first.filter(|&i| {
                runs[rj].1.len() > 1 && steps.get(i).is_some_and(|s| movable.contains(&s.sid))
            }) {
                Some(i) => {
                    runs[rj].1.remove(0);
                    runs[ri].1.push(i);
                }
                None => return Err(not_covered(why)),
            }
        }
    }
    let mut waypoints: Vec<Waypoint> = Vec::new();
    let mut counts: HashMap<(u32, crate::ir::StmtId), u32> = HashMap::new();
    let mut next_thread = 1u32;
    let mut current: Option<u32> = None;
    for (t, taken) in &runs {
        for (n, step) in taken.iter().filter_map(|&i| steps.get(i)).enumerate() {
            let col = index.get(step.sid).map(|e| e.col).unwrap_or(1);
            if n == 0 && current != Some(*t) {
                waypoints.push(Waypoint {
                    kind: "assumption",
                    action: "follow",
                    thread_id: *t,
                    location: location(step.line, col, function_at(step.sid)),
                    constraint: Some(Constraint {
                        value: "1".into(),
                        format: "c_expression",
                    }),
                });
                current = Some(*t);
            }
            let text = lines.get(step.line.saturating_sub(1) as usize).copied();
            if super::graphml::is_thread_creation(&step.statement) {
                let column = call_open(text, "pthread_create").unwrap_or(col);
                for _ in super::graphml::created_ids(step, &mut next_thread) {
                    waypoints.push(Waypoint {
                        kind: "function_enter",
                        action: "follow",
                        thread_id: step.thread,
                        location: location(step.line, column, function_at(step.sid)),
                        constraint: None,
                    });
                }
            }
            let n = counts.entry((step.thread, step.sid)).or_insert(0);
            *n += 1;
            let name = index.name(step.sid);
            let Some(v) = cex
                .schedule
                .inputs
                .iter()
                .find(|v| v.thread == step.thread && v.at == name && v.occurrence == *n)
            else {
                continue;
            };
            let Some(column) = nondet_call_end(text) else {
                continue;
            };
            waypoints.push(Waypoint {
                kind: "function_return",
                action: "follow",
                thread_id: step.thread,
                location: location(step.line, column, function_at(step.sid)),
                constraint: Some(Constraint {
                    value: format!(
                        "\\result == {}",
                        v.text.clone().unwrap_or_else(|| v.value.to_string())
                    ),
                    format: "ext_c_expression",
                }),
            });
        }
    }
    let vio = &cex.violation;
    let target_function = index
        .entries
        .iter()
        .find(|e| e.line == vio.line && e.col == vio.column)
        .or_else(|| index.entries.iter().find(|e| e.line == vio.line))
        .map(|e| prog.func(e.func).name.clone())
        .unwrap_or_else(|| "main".into());
    waypoints.push(Waypoint {
        kind: "target",
        action: "follow",
        thread_id: vio.thread.or(current).unwrap_or(0),
        location: location(vio.line, vio.column, target_function),
        constraint: None,
    });
    let spec = meta
        .specification
        .trim()
        .strip_prefix("CHECK( init(main()), LTL(")
        .and_then(|s| s.strip_suffix(") )"))
        .unwrap_or(&meta.specification)
        .to_string();
    let entry = Entry {
        entry_type: "violation_sequence",
        metadata: Metadata {
            format_version: FORMAT_VERSION,
            uuid: uuid_from(&format!(
                "{}{}{}",
                meta.program_hash,
                meta.creation_time,
                std::process::id()
            )),
            creation_time: meta.creation_time.clone(),
            producer: Producer {
                name: meta.producer_name.clone(),
                version: meta.producer_version.clone(),
            },
            task: Task {
                input_files: vec![meta.program_file.clone()],
                input_file_hashes: [(meta.program_file.clone(), meta.program_hash.clone())]
                    .into_iter()
                    .collect(),
                specification: spec,
                data_model: meta.arch.data_model(),
                language: "C",
            },
        },
        content: waypoints
            .into_iter()
            .map(|waypoint| Segment {
                segment: vec![WaypointItem { waypoint }],
            })
            .collect(),
    };
    serde_norway::to_string(&vec![entry]).map_err(|e| not_covered(e.to_string()))
}

/// The statements whose step may run before or after another thread's without changing
/// either: they touch no shared object and call nothing (a call may synchronize, or be a
/// thread's exit).
fn movable_statements(prog: &Program, shared: &SharedInfo) -> HashSet<StmtId> {
    let mut out = HashSet::new();
    for f in &prog.funcs {
        let Some(body) = &f.body else { continue };
        visit::each_stmt(body, &mut |s| {
            let calls = |e: &Expr| {
                let mut found = false;
                visit::each_subexpr(e, &mut |x| {
                    found |= matches!(x.kind, ExprKind::Call(..) | ExprKind::Intrinsic(..));
                });
                found
            };
            let plain = match &s.kind {
                StmtKind::Expr(e) => !calls(e),
                StmtKind::Decl { init, .. } => match init {
                    Some(Init::Expr(e)) => !calls(e),
                    Some(_) => false,
                    None => true,
                },
                StmtKind::If { cond, .. } | StmtKind::While { cond, .. } => !calls(cond),
                _ => false,
            };
            if plain && !s.id.is_none() && shared_accesses(shared, s) == 0 {
                out.insert(s.id);
            }
        });
    }
    out
}

/// One follow waypoint as read: its thread, type, place and constraint.
struct ReadWaypoint {
    thread: u32,
    kind: String,
    file: String,
    line: u64,
    function: String,
    constraint: Option<String>,
}

/// Reads a format-2.2 violation witness into the schedule its validators follow (see the
/// module's documentation). `path` names the witness in messages.
pub fn read(text: &str, path: &str) -> Result<(Schedule, Hints), WitnessError> {
    let bad = |reason: String| WitnessError::Malformed {
        path: path.to_string(),
        reason,
    };
    let doc: serde_norway::Value =
        serde_norway::from_str(text).map_err(|e| bad(format!("not YAML: {e}")))?;
    let entries = doc
        .as_sequence()
        .ok_or_else(|| bad("a witness is a YAML list of entries".into()))?;
    let entry = entries
        .iter()
        .find(|e| e["entry_type"].as_str() == Some("violation_sequence"))
        .ok_or_else(|| {
            bad(
                if entries
                    .iter()
                    .any(|e| e["entry_type"].as_str() == Some("invariant_set"))
                {
                    "a correctness witness (invariant_set), not a violation witness".into()
                } else {
                    "no `violation_sequence` entry".into()
                },
            )
        })?;
    let version = entry["metadata"]["format_version"]
        .as_str()
        .unwrap_or_default();
    if version != FORMAT_VERSION {
        return Err(bad(format!(
            "format version `{version}`: seqloc reads format {FORMAT_VERSION}, whose `thread_id` fixes the interleaving"
        )));
    }
    let segments = entry["content"]
        .as_sequence()
        .ok_or_else(|| bad("`content` is not a list of segments".into()))?;
    let mut waypoints = Vec::new();
    for (si, seg) in segments.iter().enumerate() {
        let items = seg["segment"]
            .as_sequence()
            .ok_or_else(|| bad(format!("segment {}: no waypoint list", si + 1)))?;
        for item in items {
            let w = &item["waypoint"];
            // `avoid` waypoints restrict the matching of paths; an execution cannot
            // follow them, and the validators skip them too.
            if w["action"].as_str() != Some("follow") {
                continue;
            }
            let at = |what: &str| format!("segment {}: {what}", si + 1);
            let thread = match &w["thread_id"] {
                serde_norway::Value::Null => 0,
                v => v
                    .as_u64()
                    .and_then(|t| u32::try_from(t).ok())
                    .ok_or_else(|| bad(at("`thread_id` is not a thread number")))?,
            };
            let loc = &w["location"];
            waypoints.push(ReadWaypoint {
                thread,
                kind: w["type"].as_str().unwrap_or_default().to_string(),
                file: loc["file_name"].as_str().unwrap_or_default().to_string(),
                line: loc["line"]
                    .as_u64()
                    .filter(|l| *l > 0)
                    .ok_or_else(|| bad(at("the waypoint has no line")))?,
                function: loc["function"].as_str().unwrap_or_default().to_string(),
                constraint: w["constraint"]["value"].as_str().map(str::to_string),
            });
        }
    }
    if waypoints.is_empty() {
        return Err(bad("no `follow` waypoint".into()));
    }
    // A block per change of thread, starting at its waypoint's line.
    let mut starts: Vec<(u32, String)> = Vec::new();
    let mut functions: BTreeMap<u32, String> = BTreeMap::new();
    functions.insert(0, "main".into());
    let mut inputs: Vec<InputValue> = Vec::new();
    let mut taken: HashMap<(u32, String), u32> = HashMap::new();
    // The k-th `function_enter` creates thread k (the validators count every one).
    let mut creations: Vec<String> = Vec::new();
    for w in &waypoints {
        let place = format!("{}:{}", w.file, w.line);
        if w.kind == "function_enter" {
            creations.push(place.clone());
        }
        if starts.last().is_none_or(|(t, _)| *t != w.thread) {
            starts.push((w.thread, place.clone()));
        }
        if !w.function.is_empty() {
            functions
                .entry(w.thread)
                .or_insert_with(|| w.function.clone());
        }
        if w.kind == "function_return" {
            let c = w.constraint.as_deref().unwrap_or_default();
            let value = c
                .trim()
                .strip_prefix("\\result")
                .and_then(|r| r.trim_start().strip_prefix("=="))
                .and_then(|v| parse_int(v.trim()))
                .ok_or_else(|| {
                    bad(format!(
                        "function_return at {place}: constraint `{c}` is not `\\result == <integer>`"
                    ))
                })?;
            let n = taken.entry((w.thread, place.clone())).or_insert(0);
            *n += 1;
            inputs.push(InputValue {
                thread: w.thread,
                at: place,
                occurrence: *n,
                value,
                text: None,
            });
        }
    }
    let blocks = starts
        .iter()
        .enumerate()
        .map(|(i, (t, start))| {
            let until = match starts[i + 1..].iter().find(|(u, _)| u == t) {
                // The block's own waypoint runs its line once: it stops at the next time.
                Some((_, next)) => Until::Before {
                    before: next.clone(),
                    occurrence: if next == start { 2 } else { 1 },
                    within_block: true,
                },
                None => Until::Keyword("end".into()),
            };
            Block {
                thread: *t,
                until,
                ran: vec![],
            }
        })
        .collect();
    let threads = functions
        .into_iter()
        .map(|(id, function)| {
            // A waypoint's function is the one its line is in, which need not be the
            // thread's start routine (its first statement may be in a function it calls):
            // the creation names that.
            match id.checked_sub(1).and_then(|k| creations.get(k as usize)) {
                Some(at) => ThreadSpec {
                    id,
                    function: String::new(),
                    created_at: Some(at.clone()),
                },
                None => ThreadSpec::new(id, function),
            }
        })
        .collect();
    Ok((
        Schedule {
            schema: SCHEMA.to_string(),
            threads,
            blocks,
            inputs,
        },
        Hints::default(),
    ))
}

/// A decimal or `0x` integer, with an optional sign and C suffixes (`5u`, `-1L`).
fn parse_int(s: &str) -> Option<i128> {
    let s = s.trim_end_matches(['u', 'U', 'l', 'L']);
    let (neg, digits) = match s.strip_prefix('-') {
        Some(d) => (true, d),
        None => (false, s),
    };
    let v = match digits
        .strip_prefix("0x")
        .or_else(|| digits.strip_prefix("0X"))
    {
        Some(h) => i128::from_str_radix(h, 16).ok()?,
        None => digits.parse::<i128>().ok()?,
    };
    Some(if neg { -v } else { v })
}

/// The 1-based column of the opening parenthesis of a call of `name` on a source line.
fn call_open(line: Option<&str>, name: &str) -> Option<u32> {
    let line = line?;
    let at = line.find(name)?;
    let open = at + line[at..].find('(')?;
    Some(open as u32 + 1)
}

/// The 1-based column of the closing parenthesis of the (first) `nondet_*` call on a
/// source line.
fn nondet_call_end(line: Option<&str>) -> Option<u32> {
    let line = line?;
    let at = line.find("nondet_")?;
    let open = at + line[at..].find('(')?;
    let mut depth = 0i32;
    for (i, c) in line[open..].char_indices() {
        match c {
            '(' => depth += 1,
            ')' => {
                depth -= 1;
                if depth == 0 {
                    return Some((open + i + 1) as u32);
                }
            }
            _ => {}
        }
    }
    None
}

/// A version-4-shaped UUID from a SHA-256 of `seed` (unique per program, time and process).
fn uuid_from(seed: &str) -> String {
    let mut b = super::sha256::digest(seed.as_bytes());
    b[6] = (b[6] & 0x0f) | 0x40;
    b[8] = (b[8] & 0x3f) | 0x80;
    let h: String = b[..16].iter().map(|x| format!("{x:02x}")).collect();
    format!(
        "{}-{}-{}-{}-{}",
        &h[0..8],
        &h[8..12],
        &h[12..16],
        &h[16..20],
        &h[20..32]
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn closing_parenthesis_of_a_nondet_call() {
        // `  x = __VERIFIER_nondet_int();` : the `)` is column 29.
        let l = "  x = __VERIFIER_nondet_int();";
        assert_eq!(nondet_call_end(Some(l)), Some(29));
        assert_eq!(&l[28..29], ")");
        assert_eq!(nondet_call_end(Some("  f(nondet_uint( ), 2);")), Some(18));
        assert_eq!(nondet_call_end(Some("x = 1;")), None);
    }

    #[test]
    fn opening_parenthesis_of_pthread_create() {
        // As the format's examples place it: `    pthread_create(` has `(` at column 19.
        let l = "    pthread_create(&t, 0, writer, 0);";
        assert_eq!(call_open(Some(l), "pthread_create"), Some(19));
        assert_eq!(call_open(Some("x = 1;"), "pthread_create"), None);
    }

    #[test]
    fn integers_of_constraints() {
        assert_eq!(parse_int("5"), Some(5));
        assert_eq!(parse_int("-12"), Some(-12));
        assert_eq!(parse_int("0x1F"), Some(31));
        assert_eq!(parse_int("4294967295u"), Some(4294967295));
        assert_eq!(parse_int("x"), None);
    }

    const CONCURRENT: &str = r#"
- entry_type: violation_sequence
  metadata:
    format_version: "2.2"
    task: {input_files: ["w.c"], specification: "G ! call(reach_error())"}
  content:
  - segment:
    - waypoint: {type: function_enter, action: follow, thread_id: 0,
                 location: {file_name: "w.c", line: 22, column: 19, function: main}}
  - segment:
    - waypoint: {type: assumption, action: follow, thread_id: 1,
                 constraint: {value: "1", format: c_expression},
                 location: {file_name: "w.c", line: 15, column: 5, function: writer}}
  - segment:
    - waypoint: {type: function_return, action: follow, thread_id: 1,
                 constraint: {value: "\\result == -3", format: ext_c_expression},
                 location: {file_name: "w.c", line: 16, column: 30, function: writer}}
  - segment:
    - waypoint: {type: assumption, action: follow, thread_id: 0,
                 constraint: {value: "1", format: c_expression},
                 location: {file_name: "w.c", line: 23, column: 5, function: main}}
  - segment:
    - waypoint: {type: assumption, action: follow, thread_id: 1,
                 constraint: {value: "1", format: c_expression},
                 location: {file_name: "w.c", line: 15, column: 5, function: writer}}
  - segment:
    - waypoint: {type: target, action: follow, thread_id: 1,
                 location: {file_name: "w.c", line: 17, column: 9, function: writer}}
"#;

    #[test]
    fn a_concurrent_witness_reads_as_the_validators_hold_threads() {
        let (s, hints) = read(CONCURRENT, "w.yml").expect("reads");
        assert_eq!(hints, Hints::default());
        assert_eq!(
            s.threads,
            vec![
                ThreadSpec::new(0, "main".into()),
                // Named by its creation: the waypoint's function need not be its start.
                ThreadSpec {
                    id: 1,
                    function: String::new(),
                    created_at: Some("w.c:22".into()),
                },
            ]
        );
        let until: Vec<(u32, Until)> = s
            .blocks
            .iter()
            .map(|b| (b.thread, b.until.clone()))
            .collect();
        let held = |at: &str, occurrence| Until::Before {
            before: at.into(),
            occurrence,
            within_block: true,
        };
        assert_eq!(
            until,
            vec![
                (0, held("w.c:23", 1)),
                // Thread 1 resumes at the line it started at: its start counts once.
                (1, held("w.c:15", 2)),
                (0, Until::Keyword("end".into())),
                (1, Until::Keyword("end".into())),
            ]
        );
        assert_eq!(
            s.inputs,
            vec![InputValue {
                thread: 1,
                at: "w.c:16".into(),
                occurrence: 1,
                value: -3,
                text: None,
            }]
        );
    }

    #[test]
    fn witnesses_that_fix_no_interleaving_are_refused() {
        let old = CONCURRENT.replace("\"2.2\"", "\"2.0\"");
        let e = read(&old, "w.yml").expect_err("2.0");
        assert!(e.to_string().contains("format version `2.0`"), "{e}");
        let e = read("- entry_type: invariant_set\n", "w.yml").expect_err("correctness");
        assert!(e.to_string().contains("correctness witness"), "{e}");
        let e = read(&CONCURRENT.replace("-3", "x"), "w.yml").expect_err("value");
        assert!(
            e.to_string().contains("is not `\\result == <integer>`"),
            "{e}"
        );
    }

    #[test]
    fn uuids_have_the_version_4_shape() {
        let u = uuid_from("seed");
        assert_eq!(u.len(), 36);
        assert_eq!(&u[14..15], "4");
        assert!(matches!(&u[19..20], "8" | "9" | "a" | "b"));
        assert_ne!(u, uuid_from("other seed"));
    }
}
