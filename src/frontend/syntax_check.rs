//! Syntax errors reported against the file as written.
//!
//! lang-c parses preprocessed text and stops at the first error. When it fails, seqloc
//! parses the user's original file with tree-sitter-c, which keeps going after an error,
//! so a user sees every syntax error (up to [`MAX_ERRORS`]) at its place in the source,
//! macros unexpanded.

use std::path::Path;

use crate::diagnostics::SourceSpot;

pub const MAX_ERRORS: usize = 20;

/// Syntax errors tree-sitter finds in `path` (empty if it finds none or cannot read it).
pub fn check_file(path: &Path) -> Vec<SourceSpot> {
    match std::fs::read_to_string(path) {
        Ok(text) => check_text(&path.display().to_string(), &text),
        Err(_) => vec![],
    }
}

/// The text of tree-sitter node `n` of `text` (empty if the range does not fit).
pub fn text_of<'a>(text: &'a str, n: tree_sitter::Node) -> &'a str {
    text.get(n.start_byte()..n.end_byte()).unwrap_or("")
}

/// Calls `visit` on `n` and every node below it, in the order of the text. With a stack,
/// not recursion: a 3,000-term sum is 3,000 levels deep.
pub fn each_descendant<'t>(n: tree_sitter::Node<'t>, mut visit: impl FnMut(tree_sitter::Node<'t>)) {
    let mut stack = vec![n];
    while let Some(n) = stack.pop() {
        visit(n);
        let mut cursor = n.walk();
        let children: Vec<tree_sitter::Node> = n.children(&mut cursor).collect();
        // Pushed last to first: the text's order comes off the stack.
        stack.extend(children.into_iter().rev());
    }
}

/// `text` parsed by tree-sitter's C grammar (which keeps going after an error, so a tree
/// comes back for any text); the reason when none does.
pub fn parse_c(text: &str) -> Result<tree_sitter::Tree, String> {
    let mut parser = tree_sitter::Parser::new();
    parser
        .set_language(&tree_sitter_c::LANGUAGE.into())
        .map_err(|e| format!("tree-sitter C grammar: {e}"))?;
    parser
        .parse(text, None)
        .ok_or_else(|| "the file could not be parsed".to_string())
}

pub fn check_text(name: &str, text: &str) -> Vec<SourceSpot> {
    let Ok(tree) = parse_c(text) else {
        return vec![];
    };
    let lines: Vec<&str> = text.lines().collect();
    let mut out = Vec::new();
    let mut cursor = tree.walk();
    collect(&mut cursor, text, name, &lines, &mut out);
    out.sort_by_key(|s| (s.line, s.col));
    out.dedup_by_key(|s| s.line);
    out.truncate(MAX_ERRORS);
    out
}

/// What a node tree-sitter had to invent says was missing: a token by its spelling
/// (`;`), and a missing identifier as what C expects there — a name in a declarator, an
/// expression anywhere else (`int x = ;`), not tree-sitter's node kind.
fn missing_words(node: &tree_sitter::Node, field: Option<&str>) -> String {
    let kind = node.kind();
    if !node.is_named() {
        return format!("missing `{kind}`");
    }
    let expression =
        kind == "identifier" || kind.ends_with("_expression") || kind.ends_with("_literal");
    match field {
        Some("declarator") if kind == "identifier" => "expected a name".to_string(),
        _ if expression => "expected an expression".to_string(),
        _ => format!("missing {}", kind.replace('_', " ")),
    }
}

fn collect(
    cursor: &mut tree_sitter::TreeCursor,
    text: &str,
    name: &str,
    lines: &[&str],
    out: &mut Vec<SourceSpot>,
) {
    loop {
        let node = cursor.node();
        if node.is_missing() {
            let p = node.start_position();
            out.push(spot(
                name,
                lines,
                p.row,
                p.column,
                missing_words(&node, cursor.field_name()),
            ));
        } else if node.is_error() {
            let p = node.start_position();
            let snippet: String = text
                .get(node.start_byte()..node.end_byte())
                .unwrap_or("")
                .split_whitespace()
                .next()
                .unwrap_or("")
                .chars()
                .take(24)
                .collect();
            let msg = if snippet.is_empty() {
                "unexpected end of input".to_string()
            } else {
                format!("unexpected `{snippet}`")
            };
            out.push(spot(name, lines, p.row, p.column, msg));
        } else if node.has_error() && cursor.goto_first_child() {
            collect(cursor, text, name, lines, out);
            cursor.goto_parent();
        }
        if !cursor.goto_next_sibling() {
            break;
        }
    }
}

fn spot(name: &str, lines: &[&str], row: usize, col: usize, message: String) -> SourceSpot {
    SourceSpot {
        file: name.to_string(),
        line: row as u32 + 1,
        col: col as u32 + 1,
        message,
        source_line: lines.get(row).map(|s| s.to_string()),
        notes: vec![],
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn reports_several_errors_with_positions() {
        let src = "int main() {\n  int x = ;\n  x = 1\n  return x;\n}\nint f( { }\n";
        let errs = check_text("t.c", src);
        assert!(errs.len() >= 2, "{errs:?}");
        assert_eq!(errs[0].line, 2);
        assert!(errs.iter().all(|e| e.file == "t.c" && e.col >= 1));
    }

    #[test]
    fn a_missing_value_is_an_expected_expression() {
        let errs = check_text("t.c", "int main() {\n  int x = ;\n  return x;\n}\n");
        assert_eq!(errs.len(), 1, "{errs:?}");
        assert_eq!(errs[0].message, "expected an expression", "{errs:?}");
        let errs = check_text("t.c", "int main() {\n  int x = 1\n  return x;\n}\n");
        assert!(errs.iter().any(|e| e.message == "missing `;`"), "{errs:?}");
    }

    #[test]
    fn clean_code_has_no_errors() {
        assert!(check_text("t.c", "int main(void) { return 0; }\n").is_empty());
    }
}
