//! Statement names that survive every copy: each normalized statement's source position
//! and part number (`file:line:col#part`), how schedules, witnesses and reports name
//! statements.

use std::collections::HashMap;

use crate::ir::*;

/// Every normalized statement with its source position and part number, for naming
/// statements in schedules (`file:line:col#part`).
#[derive(Clone, Debug, Default)]
pub struct StmtIndex {
    pub entries: Vec<StmtEntry>,
    by_id: HashMap<StmtId, usize>,
}

#[derive(Clone, Debug)]
pub struct StmtEntry {
    pub id: StmtId,
    pub func: FuncId,
    pub loc: Loc,
    pub file: String,
    pub line: u32,
    pub col: u32,
    /// 1-based rank among the statements with the same file, line and column.
    pub part: u32,
    pub text: String,
}

impl StmtIndex {
    pub fn build(prog: &Program) -> StmtIndex {
        let mut entries = Vec::new();
        let mut seen: HashMap<(String, u32, u32), u32> = HashMap::new();
        for (i, f) in prog.funcs.iter().enumerate() {
            let Some(body) = &f.body else { continue };
            crate::ir::visit::each_stmt(body, &mut |s| {
                if s.id.is_none() || matches!(s.kind, StmtKind::Block(_)) {
                    return;
                }
                let Some(p) = prog.sources.position(s.loc) else {
                    return;
                };
                let key = (p.file.to_string(), p.line, p.col);
                let part = seen.entry(key).or_insert(0);
                *part += 1;
                entries.push(StmtEntry {
                    id: s.id,
                    func: FuncId(i as u32),
                    loc: s.loc,
                    file: p.file.to_string(),
                    line: p.line,
                    col: p.col,
                    part: *part,
                    text: crate::ir::print::stmt_summary(prog, s),
                });
            });
        }
        let by_id = entries.iter().enumerate().map(|(i, e)| (e.id, i)).collect();
        StmtIndex { entries, by_id }
    }

    pub fn get(&self, id: StmtId) -> Option<&StmtEntry> {
        self.by_id.get(&id).map(|i| &self.entries[*i])
    }

    /// The canonical name of a statement: `file:line:col`, with `#part` when needed.
    pub fn name(&self, id: StmtId) -> String {
        match self.get(id) {
            Some(e) => {
                let file = short_file(&e.file);
                if e.part > 1
                    || self.entries.iter().any(|x| {
                        x.file == e.file && x.line == e.line && x.col == e.col && x.part > 1
                    })
                {
                    format!("{file}:{}:{}#{}", e.line, e.col, e.part)
                } else {
                    format!("{file}:{}:{}", e.line, e.col)
                }
            }
            None => format!("<statement {}>", id.0),
        }
    }

    /// Resolves `file:line[:col][#part]`.
    pub fn resolve(&self, text: &str) -> Result<StmtId, String> {
        let (body, part) = match text.rsplit_once('#') {
            Some((b, p)) => (
                b,
                p.parse::<u32>()
                    .map_err(|_| format!("`{text}`: part `{p}` is not a number"))?,
            ),
            None => (text, 1),
        };
        let mut it = body.rsplitn(3, ':');
        let a = it.next();
        let b = it.next();
        let c = it.next();
        let (file, line, col) = match (a, b, c) {
            (Some(col), Some(line), Some(file))
                if line.parse::<u32>().is_ok() && col.parse::<u32>().is_ok() =>
            {
                (
                    file,
                    line.parse::<u32>().unwrap_or(0),
                    Some(col.parse::<u32>().unwrap_or(0)),
                )
            }
            (Some(line), Some(rest), c) if line.parse::<u32>().is_ok() => {
                let file = match c {
                    Some(f) => format!("{f}:{rest}"),
                    None => rest.to_string(),
                };
                return self.resolve_parts(
                    text,
                    &file,
                    line.parse::<u32>().unwrap_or(0),
                    None,
                    part,
                );
            }
            _ => return Err(format!("`{text}` is not `file:line[:col][#part]`")),
        };
        self.resolve_parts(text, file, line, col, part)
    }

    fn resolve_parts(
        &self,
        text: &str,
        file: &str,
        line: u32,
        col: Option<u32>,
        part: u32,
    ) -> Result<StmtId, String> {
        let matches: Vec<&StmtEntry> = self
            .entries
            .iter()
            .filter(|e| {
                same_file(&e.file, file) && e.line == line && col.is_none_or(|c| c == e.col)
            })
            .collect();
        if matches.is_empty() {
            return Err(format!("no statement at `{text}`"));
        }
        matches
            .get(part.saturating_sub(1) as usize)
            .map(|e| e.id)
            .ok_or_else(|| {
                format!(
                    "`{text}`: there are only {} statements there",
                    matches.len()
                )
            })
    }
}

pub fn short_file(f: &str) -> &str {
    f.rsplit('/').next().unwrap_or(f)
}

/// Whether two spellings of a file name the same file (a path and its base name agree).
pub fn same_file(a: &str, b: &str) -> bool {
    a == b
        || a.ends_with(&format!("/{b}"))
        || b.ends_with(&format!("/{a}"))
        || short_file(a) == short_file(b)
}
