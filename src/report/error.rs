//! An error as machines read it. With `--format json` or `--format sarif` (and `parse
//! --json`), stdout holds one of these instead of nothing, so a script reading stdout
//! always gets a document; the human message, with its caret display, is on stderr. With
//! `--format html` it is a small self-contained page ([`to_html`]), so a CI job that
//! publishes the page shows why there is no report.
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

/// A self-contained HTML page for the error: the message, each location with its source
/// line and caret, the notes. Well-formed XML, as the report page is.
pub fn to_html(e: &ErrorReport) -> String {
    use super::html::esc;
    use std::fmt::Write as _;
    let mut o = String::new();
    let _ = write!(
        o,
        "<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\"/>\n<title>seqloc: error</title>\n<style>body{{font-family:sans-serif;margin:2em;max-width:60em}}.verdict{{background:#b00020;color:#fff;padding:.1em .5em;border-radius:.3em}}pre{{background:#f4f4f4;padding:.6em;overflow-x:auto}}</style>\n</head>\n<body>\n<header><h1>{}</h1><div><span class=\"verdict\" id=\"verdict\">error</span> exit code {}</div></header>\n<main>\n<p id=\"message\">{}</p>\n",
        esc(if e.program.is_empty() {
            "seqloc"
        } else {
            e.program
        }),
        e.exit_code,
        esc(e.message)
    );
    if !e.spots.is_empty() {
        o.push_str("<ul id=\"locations\">\n");
        for s in e.spots {
            let _ = writeln!(
                o,
                "<li><code>{}:{}:{}</code> {}<pre>{}</pre></li>",
                esc(&s.file),
                s.line,
                s.col,
                esc(&s.message),
                esc(&s.render_plain("error"))
            );
        }
        o.push_str("</ul>\n");
    }
    if !e.notes.is_empty() {
        let _ = writeln!(o, "<pre id=\"notes\">{}</pre>", esc(&e.notes.join("\n")));
    }
    o.push_str("</main>\n</body>\n</html>\n");
    o
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_html_error_page_escapes_and_locates() {
        let spot = SourceSpot {
            file: "a.c".into(),
            line: 3,
            col: 5,
            message: "`<x>` & co".into(),
            source_line: Some("  x = <y>;".into()),
            notes: vec![],
        };
        let page = to_html(&ErrorReport {
            program: "a.c",
            exit_code: 2,
            message: "bad <input>",
            notes: &[],
            spots: std::slice::from_ref(&spot),
            limit: None,
        });
        assert!(page.starts_with("<!DOCTYPE html>"), "{page}");
        assert!(page.contains("bad &lt;input&gt;"), "{page}");
        assert!(page.contains("<code>a.c:3:5</code>"), "{page}");
        assert!(!page.contains("<x>") && !page.contains("<y>"), "{page}");
    }
}
