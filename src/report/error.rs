//! An error as machines read it. With `--format json` or `--format sarif` (and `parse
//! --json`), stdout holds one of these instead of nothing, so a script reading stdout
//! always gets a document; the human message, with its caret display, is on stderr.
//!
//! # JSON (`seqloc.error/1`)
//!
//! | field | meaning |
//! |---|---|
//! | `schema` | `"seqloc.error/1"` |
//! | `program` | the input file |
//! | `exit_code` | the process's exit code (2 bad input, 3 no answer) |
//! | `error` | the message |
//! | `notes` | further lines (the command an external checker ran, its last output lines) |
//! | `locations` | where in the source: `file`, `line`, `column`, `message` |
//! | `limit` | `time`, `memory` or `interrupted` when a limit stopped the run, else `null` |

use serde::Serialize;

use crate::checker::builtin::Limit;
use crate::diagnostics::SourceSpot;

pub const SCHEMA: &str = "seqloc.error/1";

pub struct ErrorReport<'a> {
    pub program: &'a str,
    pub exit_code: u8,
    pub message: &'a str,
    pub notes: &'a [String],
    pub spots: &'a [SourceSpot],
    pub limit: Option<Limit>,
}

#[derive(Serialize)]
struct Location<'a> {
    file: &'a str,
    line: u32,
    column: u32,
    message: &'a str,
}

#[derive(Serialize)]
struct Json<'a> {
    schema: &'static str,
    program: &'a str,
    exit_code: u8,
    error: &'a str,
    notes: &'a [String],
    locations: Vec<Location<'a>>,
    limit: Option<&'static str>,
}

fn locations<'a>(e: &ErrorReport<'a>) -> Vec<Location<'a>> {
    e.spots
        .iter()
        .map(|s| Location {
            file: &s.file,
            line: s.line,
            column: s.col,
            message: &s.message,
        })
        .collect()
}

pub fn to_json(e: &ErrorReport) -> String {
    let j = Json {
        schema: SCHEMA,
        program: e.program,
        exit_code: e.exit_code,
        error: e.message,
        notes: e.notes,
        locations: locations(e),
        limit: super::json::limit(e.limit),
    };
    serde_json::to_string_pretty(&j).unwrap_or_default()
}

/// SARIF 2.1.0: a run that did not succeed, the error as its tool execution notification.
pub fn to_sarif(e: &ErrorReport) -> String {
    use serde_json::{Value, json};
    let locs: Vec<Value> = locations(e)
        .iter()
        .map(|l| {
            json!({
                "physicalLocation": {
                    "artifactLocation": { "uri": super::localize::sarif_uri(l.file) },
                    "region": { "startLine": l.line.max(1), "startColumn": l.column.max(1) }
                },
                "message": { "text": l.message }
            })
        })
        .collect();
    let mut text = e.message.to_string();
    for n in e.notes {
        text.push('\n');
        text.push_str(n);
    }
    let doc = json!({
        "$schema": "https://json.schemastore.org/sarif-2.1.0.json",
        "version": "2.1.0",
        "runs": [{
            "tool": { "driver": { "name": "seqloc", "version": env!("CARGO_PKG_VERSION") } },
            "invocations": [{
                "executionSuccessful": false,
                "exitCode": e.exit_code,
                "toolExecutionNotifications": [{
                    "level": "error",
                    "message": { "text": text },
                    "locations": locs
                }],
                "properties": { "limit": super::json::limit(e.limit) }
            }],
            "results": []
        }]
    });
    serde_json::to_string_pretty(&doc).unwrap_or_default()
}
