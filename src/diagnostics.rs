//! Located messages (`file:line:col`, the source line, a caret) shared by every stage that
//! reports a problem in the user's program. The text rendering is `report::error` (and
//! `report::check`/`report::localize` for a counterexample's and the candidates' lines).

use serde::Serialize;

use crate::ir::{Loc, SourceMap};

/// Where a refusal sends the reader: the README section that lists what is modelled.
pub const SUPPORTED_C: &str = "see README \"Supported C\"";

#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct SourceSpot {
    pub file: String,
    pub line: u32,
    pub col: u32,
    pub message: String,
    /// The text of the line, when the file could be read.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub source_line: Option<String>,
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub notes: Vec<String>,
}

impl SourceSpot {
    pub fn at(sources: &SourceMap, loc: Loc, message: impl Into<String>) -> SourceSpot {
        match sources.position(loc) {
            Some(p) => SourceSpot {
                file: p.file.to_string(),
                line: p.line,
                col: p.col,
                message: message.into(),
                source_line: sources.source_line(loc).map(str::to_string),
                notes: vec![],
            },
            None => SourceSpot {
                file: "<generated>".into(),
                line: 0,
                col: 0,
                message: message.into(),
                source_line: None,
                notes: vec![],
            },
        }
    }

    /// A construct seqloc refuses, at `loc`: `message` names it and says why, and the
    /// README section that lists what is modelled is named after it, as every refusal does.
    pub fn refusal(sources: &SourceMap, loc: Loc, message: impl Into<String>) -> SourceSpot {
        SourceSpot::at(sources, loc, format!("{}; {SUPPORTED_C}", message.into()))
    }

    pub fn with_note(mut self, note: impl Into<String>) -> SourceSpot {
        self.notes.push(note.into());
        self
    }

    pub fn location(&self) -> String {
        format!("{}:{}:{}", self.file, self.line, self.col)
    }

    /// Plain rendering: `file:line:col: message`, the line and a caret.
    pub fn render_plain(&self, severity: &str) -> String {
        let mut out = format!("{severity}: {}\n  --> {}\n", self.message, self.location());
        if let Some(src) = &self.source_line {
            let gutter = self.line.to_string();
            let pad = " ".repeat(gutter.len());
            let caret_pad: String = src
                .chars()
                .take(self.col.saturating_sub(1) as usize)
                .map(|c| if c == '\t' { '\t' } else { ' ' })
                .collect();
            out.push_str(&format!(
                "{pad} |\n{gutter} | {src}\n{pad} | {caret_pad}^\n"
            ));
        }
        for n in &self.notes {
            out.push_str(&format!("  = note: {n}\n"));
        }
        out
    }
}
