//! YAML violation witnesses, format 2.0 (`entry_type: violation_sequence`).
//!
//! Format 2.0 describes an execution by waypoints in one sequence of segments: the value a
//! `__VERIFIER_nondet_*` call returns (`function_return`, at the call's closing
//! parenthesis, with the constraint `\result == v`) and the failing check (`target`). It
//! has no way to say which thread runs a waypoint or when threads switch, so for a
//! concurrent failure it fixes the inputs and the place of the violation and leaves the
//! interleaving to the validator's own search. It is written for reachability failures
//! (a failed assertion, `reach_error`) only: a deadlock is no property of the format. The
//! GraphML witness ([`super::graphml`]) is the one that fixes the interleaving and that
//! seqloc replays.

use serde::Serialize;

use super::{Meta, WitnessError};
use crate::cex::{Counterexample, ViolationKind};
use crate::ir::Program;
use crate::seq::schedule::StmtIndex;

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

/// The YAML text of the format-2.0 witness of `cex`. `source` is the program's text (for
/// the columns of the calls' closing parentheses).
pub fn write(
    cex: &Counterexample,
    prog: &Program,
    index: &StmtIndex,
    meta: &Meta,
    source: &str,
) -> Result<String, WitnessError> {
    if cex.violation.kind == ViolationKind::Deadlock {
        return Err(WitnessError::NotCovered {
            format: "YAML 2.0",
            reason: "a deadlock is not a property the format describes (use the GraphML witness)"
                .into(),
        });
    }
    let lines: Vec<&str> = source.lines().collect();
    let function_at = |sid| {
        index
            .get(sid)
            .map(|e| prog.func(e.func).name.clone())
            .unwrap_or_default()
    };
    let mut segments = Vec::new();
    // Each input in trace order: the step that takes it, as `graphml` finds it.
    let mut counts: std::collections::HashMap<(u32, crate::ir::StmtId), u32> =
        std::collections::HashMap::new();
    for step in &cex.steps {
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
        let Some(e) = index.get(step.sid) else {
            continue;
        };
        let Some(f) = nondet_call_end(lines.get(e.line.saturating_sub(1) as usize).copied()) else {
            continue;
        };
        segments.push(Segment {
            segment: vec![WaypointItem {
                waypoint: Waypoint {
                    kind: "function_return",
                    action: "follow",
                    location: Location {
                        file_name: meta.program_file.clone(),
                        line: e.line,
                        column: f,
                        function: function_at(step.sid),
                    },
                    constraint: Some(Constraint {
                        value: format!("\\result == {}", v.value),
                        format: "acsl_expression",
                    }),
                },
            }],
        });
    }
    let vio = &cex.violation;
    let target_function = index
        .entries
        .iter()
        .find(|e| e.line == vio.line && e.col == vio.column)
        .or_else(|| index.entries.iter().find(|e| e.line == vio.line))
        .map(|e| prog.func(e.func).name.clone())
        .unwrap_or_else(|| "main".into());
    segments.push(Segment {
        segment: vec![WaypointItem {
            waypoint: Waypoint {
                kind: "target",
                action: "follow",
                location: Location {
                    file_name: meta.program_file.clone(),
                    line: vio.line,
                    column: vio.column.max(1),
                    function: target_function,
                },
                constraint: None,
            },
        }],
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
            format_version: "2.0",
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
        content: segments,
    };
    serde_norway::to_string(&vec![entry]).map_err(|e| WitnessError::NotCovered {
        format: "YAML 2.0",
        reason: e.to_string(),
    })
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
    fn uuids_have_the_version_4_shape() {
        let u = uuid_from("seed");
        assert_eq!(u.len(), 36);
        assert_eq!(&u[14..15], "4");
        assert!(matches!(&u[19..20], "8" | "9" | "a" | "b"));
        assert_ne!(u, uuid_from("other seed"));
    }
}
