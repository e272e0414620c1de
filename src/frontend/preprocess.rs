//! Running the system C preprocessor, and the small textual fix-ups lang-c needs.
//!
//! `.c` files go through `gcc -E` with the user's `-I`/`-D`; `.i` files are already
//! preprocessed but may still carry comments, so they go through `gcc -E -fpreprocessed`,
//! which strips comments and expands nothing. Line markers are kept in both cases: they are
//! how every IR location names the file as written.

use std::path::{Path, PathBuf};
use std::process::Command;

use super::{FrontendError, identifiers};

#[derive(Clone, Debug, Default)]
pub struct PreprocessOptions {
    pub include_dirs: Vec<PathBuf>,
    pub defines: Vec<String>,
    /// The preprocessor command (default `gcc`).
    pub cpp: Option<String>,
}

/// Preprocessed text plus the map from fixed-up offsets back to offsets in the
/// preprocessor's output.
pub struct Preprocessed {
    /// The text lang-c parses.
    pub text: String,
    /// The preprocessor's output before fix-ups (what the line table indexes).
    pub raw: String,
    /// `(offset in text, offset in raw)` anchors, ascending; between anchors the texts agree.
    anchors: Vec<(usize, usize)>,
    /// Whether an identifier beyond ASCII was spelled for lang-c (`frontend::identifiers`).
    extended: bool,
}

impl Preprocessed {
    pub fn has_extended_identifiers(&self) -> bool {
        self.extended
    }

    /// Maps an offset in `text` (what lang-c saw) to the matching offset in `raw`.
    pub fn raw_offset(&self, off: usize) -> usize {
        let i = self.anchors.partition_point(|(t, _)| *t <= off);
        if i == 0 {
            return off;
        }
        let (t, r) = self.anchors[i - 1];
        r + (off - t)
    }

    /// The same text with `what` written in front of each offset of `at` (ascending
    /// offsets in `text`); offsets after an insertion map back as before, and the
    /// inserted text maps to where it was inserted.
    /// The same text with some characters replaced, offset for offset (`text` must be as
    /// long as the current text): the anchors stay valid.
    pub fn with_same_offsets(&self, text: String) -> Option<Preprocessed> {
        (text.len() == self.text.len()).then(|| Preprocessed {
            text,
            raw: self.raw.clone(),
            anchors: self.anchors.clone(),
            extended: self.extended,
        })
    }

    pub fn with_inserted(&self, at: &[usize], what: &str) -> Preprocessed {
        let mut text = String::with_capacity(self.text.len() + at.len() * what.len());
        let mut anchors = Vec::new();
        let mut last = 0;
        for &p in at {
            let Some(piece) = self.text.get(last..p) else {
                continue;
            };
            text.push_str(piece);
            let r = self.raw_offset(p);
            anchors.push((text.len(), r));
            text.push_str(what);
            anchors.push((text.len(), r));
            last = p;
        }
        text.push_str(self.text.get(last..).unwrap_or_default());
        // The old anchors, moved by the insertions before them.
        for &(t, r) in &self.anchors {
            let before = at.iter().filter(|&&p| p <= t).count();
            anchors.push((t + before * what.len(), r));
        }
        anchors.sort_by_key(|a| a.0);
        Preprocessed {
            text,
            raw: self.raw.clone(),
            anchors,
            extended: self.extended,
        }
    }
}

/// Checks that `path` is a readable, non-empty text file before anything runs on it.
pub fn check_input(path: &Path) -> Result<String, FrontendError> {
    let bad = |reason: &str| FrontendError::BadInput {
        path: path.to_path_buf(),
        reason: reason.to_string(),
    };
    let meta = std::fs::metadata(path).map_err(|e| FrontendError::Io {
        path: path.to_path_buf(),
        reason: e.to_string(),
    })?;
    if meta.is_dir() {
        return Err(bad(
            "is a directory, not a C file (use `seqloc sweep` for folders)",
        ));
    }
    let bytes = std::fs::read(path).map_err(|e| FrontendError::Io {
        path: path.to_path_buf(),
        reason: e.to_string(),
    })?;
    if bytes.iter().all(|b| b.is_ascii_whitespace()) {
        return Err(bad("is empty: there is no program to analyse"));
    }
    if bytes.contains(&0) {
        return Err(bad("is a binary file, not C source"));
    }
    String::from_utf8(bytes).or_else(|e| {
        // C sources in Latin-1 exist; keep going with a lossy decoding rather than refuse.
        Ok(String::from_utf8_lossy(e.as_bytes()).into_owned())
    })
}

pub fn is_preprocessed(path: &Path) -> bool {
    path.extension().is_some_and(|e| e == "i")
}

/// The preprocessor command line, as data (printed with `-v`).
pub fn cpp_command(path: &Path, opts: &PreprocessOptions) -> Vec<String> {
    let mut argv = vec![
        opts.cpp.clone().unwrap_or_else(|| "gcc".to_string()),
        "-E".into(),
    ];
    if is_preprocessed(path) {
        // Strip comments only; an `.i` file has no directives left to run.
        argv.push("-fpreprocessed".into());
    } else {
        for d in &opts.include_dirs {
            argv.push(format!("-I{}", d.display()));
        }
        for d in &opts.defines {
            argv.push(format!("-D{d}"));
        }
    }
    argv.push("-x".into());
    argv.push("c".into());
    argv.push(path.display().to_string());
    argv
}

pub fn preprocess(path: &Path, opts: &PreprocessOptions) -> Result<Preprocessed, FrontendError> {
    check_input(path)?;
    let argv = cpp_command(path, opts);
    let out = Command::new(&argv[0])
        .args(&argv[1..])
        .output()
        .map_err(|e| FrontendError::Preprocess {
            path: path.to_path_buf(),
            command: argv.join(" "),
            stderr: format!("could not start `{}`: {e} (install gcc)", argv[0]),
        })?;
    if !out.status.success() {
        return Err(FrontendError::Preprocess {
            path: path.to_path_buf(),
            command: argv.join(" "),
            stderr: String::from_utf8_lossy(&out.stderr).into_owned(),
        });
    }
    let raw = String::from_utf8_lossy(&out.stdout).into_owned();
    Ok(fix_up(raw))
}

/// Preprocessed text given directly (tests, the fuzz harness).
pub fn from_text(raw: String) -> Preprocessed {
    fix_up(raw)
}

/// GNU spellings lang-c does not know, rewritten to ones it does. Only whole identifiers
/// outside string and character literals are touched. CBMC's `__CPROVER_bool` is its
/// one-bit boolean, which is C's `_Bool` in every value it can hold.
const REWRITES: &[(&str, &str)] = &[("__thread", "_Thread_local"), ("__CPROVER_bool", "_Bool")];

/// GCC's `__auto_type` (a declaration whose type is its initializer's), which
/// `<stdatomic.h>`'s `atomic_load`/`atomic_store`/`atomic_exchange`/
/// `atomic_compare_exchange_*` expand to. lang-c does not know the keyword, but parses it
/// as a type name once it is declared as one: this declaration is put in front of the
/// text, and the lowering gives each `__auto_type` variable its initializer's type (the
/// declaration itself is dropped there).
pub const AUTO_TYPE_DECL: &str = "typedef int __auto_type;\n";

fn fix_up(raw: String) -> Preprocessed {
    let bytes = raw.as_bytes();
    let mut text = String::with_capacity(raw.len());
    let mut anchors = Vec::new();
    if mentions_auto_type(&raw) {
        // Offsets past the prefix map back to the raw text; offsets inside it are never
        // located (the lowering drops that declaration).
        text.push_str(AUTO_TYPE_DECL);
        anchors.push((text.len(), 0));
    }
    let mut i = 0;
    let mut last = 0;
    let mut extended = false;
    while i < bytes.len() {
        let c = bytes[i];
        if c == b'"' || c == b'\'' {
            // Skip the literal.
            let q = c;
            i += 1;
            while i < bytes.len() && bytes[i] != q && bytes[i] != b'\n' {
                if bytes[i] == b'\\' {
                    i += 1;
                }
                i += 1;
            }
            i += 1;
            continue;
        }
        let extends = |at: usize| {
            bytes.get(at).is_some_and(|&b| b >= 0x80 || b == b'$')
                || identifiers::ucn_at(bytes, at).is_some()
        };
        if c.is_ascii_alphabetic() || c == b'_' || extends(i) {
            let start = i;
            while i < bytes.len() && (bytes[i].is_ascii_alphanumeric() || bytes[i] == b'_') {
                i += 1;
            }
            if extends(i) {
                if let Some((end, name)) = identifiers::extended_at(bytes, start) {
                    text.push_str(&raw[last..start]);
                    anchors.push((text.len(), start));
                    text.push_str(&identifiers::mangle(&name));
                    anchors.push((text.len(), end));
                    last = end;
                    i = end;
                    extended = true;
                    continue;
                }
                i = i.max(start + 1);
                continue;
            }
            let word = &raw[start..i];
            if let Some((_, to)) = REWRITES.iter().find(|(from, _)| *from == word) {
                text.push_str(&raw[last..start]);
                anchors.push((text.len(), start));
                text.push_str(to);
                anchors.push((text.len(), i));
                last = i;
            }
            continue;
        }
        i += 1;
    }
    if anchors.is_empty() {
        return Preprocessed {
            text: raw.clone(),
            raw,
            anchors,
            extended,
        };
    }
    text.push_str(&raw[last..]);
    Preprocessed {
        text,
        raw,
        anchors,
        extended,
    }
}

/// Whether `__auto_type` occurs as a whole identifier (a cheap scan; a mention inside a
/// string literal only costs the unused declaration).
fn mentions_auto_type(raw: &str) -> bool {
    raw.match_indices("__auto_type").any(|(i, w)| {
        let before = raw[..i].chars().next_back();
        let after = raw[i + w.len()..].chars().next();
        let ident = |c: Option<char>| c.is_some_and(|c| c.is_ascii_alphanumeric() || c == '_');
        !ident(before) && !ident(after)
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn declares_auto_type_for_the_parser_and_maps_offsets_back() {
        let raw = "int f(void) { __auto_type p = 1; return p; }".to_string();
        let p = from_text(raw.clone());
        assert!(p.text.starts_with(AUTO_TYPE_DECL));
        let ret_text = p.text.find("return").unwrap();
        assert_eq!(p.raw_offset(ret_text), raw.find("return").unwrap());
        assert_eq!(
            from_text("int __auto_types;".into()).text,
            "int __auto_types;"
        );
    }

    #[test]
    fn rewrites_thread_keyword_and_maps_offsets_back() {
        let p = from_text("__thread int x; char *s = \"__thread\"; int y;".into());
        assert_eq!(
            p.text,
            "_Thread_local int x; char *s = \"__thread\"; int y;"
        );
        let y_text = p.text.find("int y").unwrap();
        let y_raw = p.raw.find("int y").unwrap();
        assert_eq!(p.raw_offset(y_text), y_raw);
        assert_eq!(p.raw_offset(0), 0);
    }

    #[test]
    fn insertions_map_back_to_where_they_were_made() {
        let p = from_text("__thread int x;\na;\nb;\n".into());
        let at: Vec<usize> = ["a;", "b;"].iter().filter_map(|w| p.text.find(w)).collect();
        let q = p.with_inserted(&at, "int ");
        assert_eq!(q.text, "_Thread_local int x;\nint a;\nint b;\n");
        for w in ["a;", "b;", "x;"] {
            let (t, r) = (q.text.find(w).unwrap(), q.raw.find(w).unwrap());
            assert_eq!(q.raw_offset(t), r, "{w}");
        }
        assert_eq!(
            q.raw_offset(q.text.find("int a").unwrap()),
            q.raw.find("a;").unwrap()
        );
    }

    #[test]
    fn reads_cbmcs_bool_as_c_bool() {
        let p = from_text("__CPROVER_bool b; int __CPROVER_bool_x;".into());
        assert_eq!(p.text, "_Bool b; int __CPROVER_bool_x;");
    }

    #[test]
    fn untouched_text_has_identity_map() {
        let p = from_text("int x;".into());
        assert_eq!(p.text, p.raw);
        assert_eq!(p.raw_offset(3), 3);
    }
}
