//! C89's implicit `int` at file scope: `a;`, `*p, *q;`, `static n = 3;` and function
//! definitions with no return type (`main() { ... }`), which gcc still accepts (with
//! `-Wimplicit-int` warnings) and test-case reducers such as C-Reduce produce all the
//! time. lang-c's grammar is C99's and rejects them, so when a parse fails the front end
//! asks this module where a file-scope declaration lacks its type, writes `int ` there and
//! parses again (the original error stands if that parse fails too).
//!
//! The scan is token-level and only looks at the start of each file-scope declaration:
//! after the storage classes, qualifiers, `__extension__` and attributes, an identifier
//! that is neither a keyword nor a name some `typedef` declares, followed by `;`, `,`, `=`,
//! `(` or `[`, is a declarator without a type; so is a leading `*`. Every identifier a
//! `typedef` mentions counts as a type name, which over-approximates the typedef names: a
//! miss only leaves that declaration to the parser's error. Implicit `int` inside function
//! bodies and K&R parameter lists are not handled.

use std::collections::HashSet;

/// Words that begin a declaration without being a type themselves.
const PREFIXES: &[&str] = &[
    "static",
    "extern",
    "inline",
    "__inline",
    "__inline__",
    "const",
    "__const",
    "volatile",
    "__volatile__",
    "register",
    "_Thread_local",
    "__extension__",
    "_Noreturn",
    "__thread",
    "restrict",
    "__restrict",
];

/// Words that are not declarators: type specifiers and the rest of the language's and
/// gcc's keywords.
const KEYWORDS: &[&str] = &[
    "void",
    "char",
    "short",
    "int",
    "long",
    "float",
    "double",
    "signed",
    "__signed__",
    "unsigned",
    "_Bool",
    "_Complex",
    "struct",
    "union",
    "enum",
    "typedef",
    "typeof",
    "__typeof__",
    "__typeof",
    "_Atomic",
    "_Alignas",
    "_Static_assert",
    "__auto_type",
    "__int128",
    "__builtin_va_list",
    "asm",
    "__asm",
    "__asm__",
    "__attribute__",
    "__attribute",
    "__declspec",
    "sizeof",
    "return",
    "if",
    "else",
    "while",
    "for",
    "do",
    "switch",
    "case",
    "default",
    "goto",
    "break",
    "continue",
];

#[derive(Clone, Copy, Debug, PartialEq)]
enum Tok<'a> {
    Ident(&'a str),
    Punct(u8),
    Other,
}

/// Tokens of preprocessed text with their offsets: identifiers, single-byte punctuators,
/// and everything else (numbers, literals) as `Other`. Line markers are skipped.
fn tokens(text: &str) -> Vec<(usize, Tok<'_>)> {
    let b = text.as_bytes();
    let mut out = Vec::new();
    let mut i = 0;
    let mut line_start = true;
    while i < b.len() {
        let c = b[i];
        if c == b'\n' {
            line_start = true;
            i += 1;
            continue;
        }
        if c.is_ascii_whitespace() {
            i += 1;
            continue;
        }
        if c == b'#' && line_start {
            while i < b.len() && b[i] != b'\n' {
                i += 1;
            }
            continue;
        }
        line_start = false;
        if c == b'"' || c == b'\'' {
            let start = i;
            i += 1;
            while i < b.len() && b[i] != c && b[i] != b'\n' {
                if b[i] == b'\\' {
                    i += 1;
                }
                i += 1;
            }
            i += 1;
            out.push((start, Tok::Other));
            continue;
        }
        if c.is_ascii_alphabetic() || c == b'_' {
            let start = i;
            while i < b.len() && (b[i].is_ascii_alphanumeric() || b[i] == b'_') {
                i += 1;
            }
            out.push((start, Tok::Ident(&text[start..i])));
            continue;
        }
        if c.is_ascii_digit() {
            let start = i;
            while i < b.len() && (b[i].is_ascii_alphanumeric() || b[i] == b'_' || b[i] == b'.') {
                i += 1;
            }
            out.push((start, Tok::Other));
            continue;
        }
        out.push((i, Tok::Punct(c)));
        i += 1;
    }
    out
}

/// Offsets in `text` where a file-scope declaration lacks its type (see the module
/// comment); empty when there is none.
pub fn missing_types(text: &str) -> Vec<usize> {
    let toks = tokens(text);
    let typedefs = typedef_names(&toks);
    let is_type_word =
        |w: &str| KEYWORDS.contains(&w) || PREFIXES.contains(&w) || typedefs.contains(w);
    let mut out = Vec::new();
    let mut i = 0;
    while i < toks.len() {
        // `i` is the first token of a file-scope declaration.
        let mut j = i;
        loop {
            match toks.get(j).map(|t| t.1) {
                Some(Tok::Ident(w)) if PREFIXES.contains(&w) => j += 1,
                Some(Tok::Ident("__attribute__" | "__attribute")) => {
                    j = skip_group(&toks, j + 1);
                }
                _ => break,
            }
        }
        match (toks.get(j).map(|t| t.1), toks.get(j + 1).map(|t| t.1)) {
            (Some(Tok::Punct(b'*')), _) => out.push(toks[j].0),
            (Some(Tok::Ident(w)), Some(Tok::Punct(b';' | b',' | b'=' | b'(' | b'[')))
                if !is_type_word(w) =>
            {
                out.push(toks[j].0);
            }
            _ => {}
        }
        i = end_of_declaration(&toks, j);
    }
    out
}

/// The token after the parenthesized group that starts at `j` (or `j` when none does).
fn skip_group(toks: &[(usize, Tok<'_>)], j: usize) -> usize {
    if toks.get(j).map(|t| t.1) != Some(Tok::Punct(b'(')) {
        return j;
    }
    let mut depth = 0usize;
    let mut k = j;
    while k < toks.len() {
        match toks[k].1 {
            Tok::Punct(b'(') => depth += 1,
            Tok::Punct(b')') => {
                depth = depth.saturating_sub(1);
                if depth == 0 {
                    return k + 1;
                }
            }
            _ => {}
        }
        k += 1;
    }
    k
}

/// The first token after the file-scope declaration that `from` is inside: past its `;`
/// at depth 0, or past the `}` of a function body (a `{` at depth 0 after a `)`; a
/// struct's or an initializer's braces do not end the declaration).
fn end_of_declaration(toks: &[(usize, Tok<'_>)], from: usize) -> usize {
    let mut depth = 0usize;
    let mut body = false;
    let mut k = from;
    while k < toks.len() {
        match toks[k].1 {
            Tok::Punct(b'(' | b'[') => depth += 1,
            Tok::Punct(b')' | b']') => depth = depth.saturating_sub(1),
            Tok::Punct(b'{') => {
                if depth == 0 && k > 0 && toks[k - 1].1 == Tok::Punct(b')') {
                    body = true;
                }
                depth += 1;
            }
            Tok::Punct(b'}') => {
                depth = depth.saturating_sub(1);
                if depth == 0 && body {
                    return k + 1;
                }
            }
            Tok::Punct(b';') if depth == 0 => return k + 1,
            _ => {}
        }
        k += 1;
    }
    k.max(from + 1)
}

/// Every identifier inside a file-scope `typedef` declaration (a superset of the names
/// it declares).
fn typedef_names<'a>(toks: &[(usize, Tok<'a>)]) -> HashSet<&'a str> {
    let mut names = HashSet::new();
    let mut i = 0;
    while i < toks.len() {
        let mut j = i;
        while matches!(toks.get(j).map(|t| t.1), Some(Tok::Ident("__extension__"))) {
            j += 1;
        }
        let end = end_of_declaration(toks, j);
        if toks.get(j).map(|t| t.1) == Some(Tok::Ident("typedef")) {
            for t in toks.get(j..end).unwrap_or_default() {
                if let Tok::Ident(w) = t.1 {
                    names.insert(w);
                }
            }
        }
        i = end;
    }
    names
}

#[cfg(test)]
mod tests {
    use super::*;

    fn fixed(text: &str) -> String {
        let mut out = text.to_string();
        for at in missing_types(text).into_iter().rev() {
            out.insert_str(at, "int ");
        }
        out
    }

    #[test]
    fn gives_file_scope_declarations_without_a_type_an_int() {
        let text =
            "a;\n*d, *e;\nstatic n = 3;\nb()\n{\n  if (a)\n    ;\n}\nmain() { return b(); }\n";
        assert_eq!(
            fixed(text),
            "int a;\nint *d, *e;\nstatic int n = 3;\nint b()\n{\n  if (a)\n    ;\n}\nint main() { return b(); }\n"
        );
    }

    #[test]
    fn leaves_typed_declarations_typedef_names_and_bodies_alone() {
        let text = "# 1 \"x.c\"\ntypedef unsigned long size_t;\ntypedef int (*fp)(int);\n\
                    size_t s;\nfp f(int);\nstruct S { int x; } v;\nint t[] = {1, 2};\n\
                    __extension__ typedef long long ll;\nll q;\n\
                    static const char *name(void) { x = 1; return 0; }\n\
                    int __attribute__((unused)) w;\n";
        assert!(missing_types(text).is_empty(), "{:?}", missing_types(text));
    }

    #[test]
    fn a_string_with_a_semicolon_ends_nothing() {
        let text = "char *s = \"a; b\";\nc;\n";
        assert_eq!(fixed(text), "char *s = \"a; b\";\nint c;\n");
    }
}
