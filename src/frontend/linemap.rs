//! From offsets in the preprocessor's output to `file:line:col` in the files as written.
//!
//! Line markers (`# 12 "f.c" 1 3`) give file and line. The preprocessor collapses runs of
//! whitespace and strips comments, so the column is recovered by aligning the
//! preprocessed line with the original line character by character (skipping whitespace
//! and comments); where they disagree (a macro expanded on that line) the preprocessed
//! column stands.

use std::collections::HashMap;
use std::path::{Path, PathBuf};

use crate::ir::{FileId, Loc, LocData, SourceMap};

pub struct LineTable {
    line_starts: Vec<usize>,
    info: Vec<(FileId, u32)>,
}

impl LineTable {
    /// Builds the table, registering every file named by a line marker in `sources`.
    /// `main_file` names lines that precede any marker.
    pub fn build(raw: &str, main_file: &str, sources: &mut SourceMap) -> LineTable {
        let mut line_starts = Vec::new();
        let mut info = Vec::new();
        let mut cur_file = sources.add_file(main_file, false);
        let mut cur_line: u32 = 1;
        let mut pos = 0;
        for line in raw.split_inclusive('\n') {
            line_starts.push(pos);
            pos += line.len();
            if let Some((num, name, flags)) = parse_marker(line) {
                // Flag 3 marks system-header text; on the input file itself it only marks a
                // system macro's expansion, and the input is never a system file.
                let system = flags.contains(&3) && name != main_file;
                cur_file = sources.add_file(&name, system);
                if system {
                    sources.files[cur_file.0 as usize].system = true;
                }
                cur_line = num;
                info.push((cur_file, 0));
                continue;
            }
            info.push((cur_file, cur_line));
            cur_line += 1;
        }
        LineTable { line_starts, info }
    }

    /// File, line and 1-based column (in the preprocessed line) of a raw offset, plus the
    /// index of the preprocessed line.
    pub fn locate(&self, off: usize) -> (FileId, u32, u32, usize) {
        let i = self
            .line_starts
            .partition_point(|s| *s <= off)
            .saturating_sub(1);
        let (f, l) = self.info.get(i).copied().unwrap_or((FileId(0), 1));
        let col = off.saturating_sub(*self.line_starts.get(i).unwrap_or(&0)) as u32 + 1;
        (f, l, col, i)
    }

    pub fn line_text<'a>(&self, raw: &'a str, idx: usize) -> &'a str {
        let start = self.line_starts.get(idx).copied().unwrap_or(0);
        let end = self.line_starts.get(idx + 1).copied().unwrap_or(raw.len());
        raw.get(start..end)
            .unwrap_or("")
            .trim_end_matches(['\n', '\r'])
    }
}

/// Parses `# 12 "file" 1 3` or `#line 12 "file"`.
fn parse_marker(line: &str) -> Option<(u32, String, Vec<u32>)> {
    let t = line.trim_start();
    let rest = t.strip_prefix('#')?;
    let rest = rest.trim_start();
    let rest = rest.strip_prefix("line").unwrap_or(rest).trim_start();
    let num_end = rest.find(|c: char| !c.is_ascii_digit())?;
    if num_end == 0 {
        return None;
    }
    let num: u32 = rest[..num_end].parse().ok()?;
    let rest = rest[num_end..].trim_start();
    let rest = rest.strip_prefix('"')?;
    let mut name = String::new();
    let mut chars = rest.char_indices();
    let mut end = None;
    while let Some((i, c)) = chars.next() {
        match c {
            '\\' => {
                if let Some((_, n)) = chars.next() {
                    name.push(n)
                }
            }
            '"' => {
                end = Some(i);
                break;
            }
            c => name.push(c),
        }
    }
    let end = end?;
    let flags = rest[end + 1..]
        .split_whitespace()
        .filter_map(|f| f.parse().ok())
        .collect();
    Some((num, name, flags))
}

/// Turns raw offsets into interned [`Loc`]s, fixing columns against the original files.
pub struct Locator<'a> {
    pub raw: &'a str,
    pub table: LineTable,
    base_dir: PathBuf,
    originals: HashMap<FileId, Option<Vec<String>>>,
}

impl<'a> Locator<'a> {
    pub fn new(raw: &'a str, table: LineTable, input: &Path) -> Locator<'a> {
        Locator {
            raw,
            table,
            base_dir: input.parent().map(Path::to_path_buf).unwrap_or_default(),
            originals: HashMap::new(),
        }
    }

    pub fn loc(&mut self, off: usize, sources: &mut SourceMap) -> Loc {
        let (file, line, col, idx) = self.table.locate(off);
        if line == 0 {
            return Loc::SYNTH;
        }
        let col = self.fix_column(file, line, col, idx, sources);
        sources.intern(LocData { file, line, col })
    }

    fn fix_column(
        &mut self,
        file: FileId,
        line: u32,
        col: u32,
        idx: usize,
        sources: &mut SourceMap,
    ) -> u32 {
        if sources.file(file).system {
            return col;
        }
        if !self.originals.contains_key(&file) {
            let loaded = self.load(file, sources);
            self.originals.insert(file, loaded);
        }
        let Some(Some(lines)) = self.originals.get(&file) else {
            return col;
        };
        let Some(orig) = lines.get(line as usize - 1) else {
            return col;
        };
        let pp = self.table.line_text(self.raw, idx);
        align_column(pp, orig, col).unwrap_or_else(|| statement_start(orig))
    }

    fn load(&self, file: FileId, sources: &mut SourceMap) -> Option<Vec<String>> {
        let name = sources.file(file).name.clone();
        if name.starts_with('<') {
            return None;
        }
        let p = Path::new(&name);
        let candidates = [p.to_path_buf(), self.base_dir.join(p)];
        for c in candidates {
            if let Ok(text) = std::fs::read_to_string(&c) {
                let f = &mut sources.files[file.0 as usize];
                f.path = Some(c);
                let lines = text.lines().map(str::to_string).collect();
                f.text = Some(text);
                return Some(lines);
            }
        }
        None
    }
}

/// Finds the column in `orig` of the character at 1-based `col` in `pp` (the preprocessed
/// line as gcc wrote it).
fn align_column(pp: &str, orig: &str, col: u32) -> Option<u32> {
    let (pp, of_raw) = decode_ucns(pp);
    let target = *of_raw.get((col as usize).checked_sub(1)?)?;
    if target >= pp.len() {
        return None;
    }
    match_non_blank(&pp, orig, target).or_else(|| unique_token(&pp, orig, target))
}

/// The column in `orig` of `pp[target]`, counting non-blank characters outside comments
/// from the start of both lines (the preprocessor only re-spaces and drops comments).
fn match_non_blank(pp: &[char], orig: &str, target: usize) -> Option<u32> {
    let before: Vec<char> = pp[..target]
        .iter()
        .copied()
        .filter(|c| !c.is_whitespace())
        .collect();
    let k = before.len();
    let want = pp[target];
    let mut prefix_agrees = true;
    let oc: Vec<char> = orig.chars().collect();
    let mut seen = 0;
    let mut i = 0;
    while i < oc.len() {
        if oc[i] == '/' && i + 1 < oc.len() && oc[i + 1] == '/' {
            return None;
        }
        if oc[i] == '/' && i + 1 < oc.len() && oc[i + 1] == '*' {
            i += 2;
            while i + 1 < oc.len() && !(oc[i] == '*' && oc[i + 1] == '/') {
                i += 1;
            }
            i += 2;
            continue;
        }
        if !oc[i].is_whitespace() {
            if seen == k {
                // The whole word must agree: in a line a macro rewrote, one character may
                // match by chance.
                let word = |c: &char| c.is_alphanumeric() || *c == '_';
                let rest = pp[target..].iter().take_while(|c| word(c));
                let same = rest.zip(&oc[i..]).all(|(a, b)| a == b);
                // Everything before agreeing, a different word here is a macro's name
                // replaced by its value (`x = N;` read as `x = 3;`): the place is right.
                return ((oc[i] == want && same) || prefix_agrees).then_some(i as u32 + 1);
            }
            prefix_agrees &= before.get(seen) == Some(&oc[i]);
            seen += 1;
        }
        i += 1;
    }
    None
}

/// The column of the first non-blank character of `line`: where a rewritten line cannot be
/// matched (the `__assert_fail` call glibc's `assert` expands to), the statement it is in.
fn statement_start(line: &str) -> u32 {
    line.chars().take_while(|c| c.is_whitespace()).count() as u32 + 1
}

/// Where the line was rewritten by a macro (`assert(x == 2)` becomes glibc's statement
/// expression), counting characters says nothing: the identifier or number at `pp[target]`
/// is found in `orig` instead, when it occurs there exactly once as a whole word.
fn unique_token(pp: &[char], orig: &str, target: usize) -> Option<u32> {
    let word = |c: &char| c.is_alphanumeric() || *c == '_';
    let token: Vec<char> = pp.get(target..)?.iter().copied().take_while(word).collect();
    if token.is_empty() || pp[..target].last().is_some_and(word) {
        return None;
    }
    let oc: Vec<char> = orig.chars().collect();
    let mut found = None;
    for start in 0..oc.len() {
        let end = start + token.len();
        if oc.get(start..end) != Some(&token[..])
            || (start > 0 && word(&oc[start - 1]))
            || oc.get(end).is_some_and(word)
        {
            continue;
        }
        if found.is_some() {
            return None;
        }
        found = Some(start as u32 + 1);
    }
    found
}

/// The characters of a preprocessed line with each universal character name read as the
/// one character it names (gcc writes `zähler` as `z\U000000e4hler`), and for each
/// character of the line as written, the index of the character it is part of.
fn decode_ucns(pp: &str) -> (Vec<char>, Vec<usize>) {
    let bytes = pp.as_bytes();
    let mut chars = Vec::with_capacity(pp.len());
    let mut of_raw = Vec::with_capacity(pp.len());
    let mut it = pp.char_indices();
    while let Some((b, c)) = it.next() {
        if let Some((decoded, len)) = super::identifiers::ucn_at(bytes, b) {
            of_raw.extend(std::iter::repeat_n(chars.len(), len));
            chars.push(decoded);
            // A UCN is ASCII: its length in bytes is its length in characters.
            for _ in 1..len {
                it.next();
            }
        } else {
            of_raw.push(chars.len());
            chars.push(c);
        }
    }
    (chars, of_raw)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn columns_count_a_universal_character_name_as_one_character() {
        let pp = "  z\\U000000e4hler = t + 1;";
        let orig = "  zähler = t + 1;";
        // `t` is column 21 of the preprocessed line and column 12 of the file.
        assert_eq!(align_column(pp, orig, 21), Some(12));
        assert_eq!(align_column(pp, orig, 3), Some(3));
    }

    #[test]
    fn a_token_rewritten_by_a_macro_is_found_where_it_occurs_once() {
        let pp = "((void) sizeof ((zaehler == 2) ? 1 : 0), __extension__ ({ if (zaehler == 2)";
        let orig = "  assert(zaehler == 2); /* the total */";
        let col = pp.rfind("zaehler").unwrap() as u32 + 1;
        assert_eq!(align_column(pp, orig, col), Some(10));
        // A token the line holds twice is not guessed.
        assert_eq!(align_column(pp, "  assert(zaehler == zaehler);", col), None);
    }

    #[test]
    fn markers_are_parsed() {
        assert_eq!(
            parse_marker("# 12 \"a/b.c\" 1 3\n"),
            Some((12, "a/b.c".to_string(), vec![1, 3]))
        );
        assert_eq!(
            parse_marker("#line 4 \"x.c\""),
            Some((4, "x.c".to_string(), vec![]))
        );
        assert_eq!(parse_marker("#pragma once"), None);
        assert_eq!(parse_marker("int x;"), None);
    }

    #[test]
    fn table_follows_markers() {
        let raw = "# 1 \"a.c\"\nint x;\n# 10 \"b.h\" 1 3\nint y;\nint z;\n# 3 \"a.c\" 2\nint w;\n";
        let mut sm = SourceMap::default();
        let t = LineTable::build(raw, "a.c", &mut sm);
        let at = |s: &str| {
            let (f, l, c, _) = t.locate(raw.find(s).unwrap());
            (sm.file(f).name.clone(), l, c)
        };
        assert_eq!(at("int x"), ("a.c".into(), 1, 1));
        assert_eq!(at("int z"), ("b.h".into(), 11, 1));
        assert!(sm.files.iter().any(|f| f.name == "b.h" && f.system));
        assert_eq!(at("int w"), ("a.c".into(), 3, 1));
    }

    #[test]
    fn columns_align_with_original_spacing() {
        // gcc -E collapses "x  =   x" to "x = x".
        assert_eq!(align_column("  x = x+1;", "  x  =   x+1;", 7), Some(10));
        assert_eq!(align_column("x = 3;", "x = N; // c", 5), Some(5));
        assert_eq!(align_column("y = 3;", "x = N; // c", 5), None);
        assert_eq!(align_column("int x;", "int /* c */ x;", 5), Some(13));
    }
}
