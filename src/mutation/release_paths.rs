//! A release made on one path only: `if (job->pages > MAX) { s->rejected++; } else {
//! ...; sem_post(&s->free_slots); }` gives the slot back only for a printed job, and a
//! producer waits for ever once a rejected job took the last slot.
//!
//! Why mutants of their own: along the failing run the thread took the branch without
//! the release, and nothing there has a value to change — the missing call is not a line.
//! The mutant moves the release that ends one branch of an `if` after the `if`, so it runs
//! on every path; the oracle proves the changed program free of failures and deadlocks in
//! every execution (a release the other path must not make leaves a count or a lock
//! wrong, and is rejected).

use tree_sitter::Node;

use super::operators::{Mutant, each_node, text_of};
use super::primitives::{Part, SyncMutant};

/// A call that gives something back to the other threads: a library release or one of
/// the program's own releasing functions.
fn releases(name: &str, own: &[(String, (u32, u32))]) -> bool {
    super::callees::releases(name) || own.iter().any(|(o, _)| o == name)
}

/// The statements of a branch: the block's, or the one statement.
fn statements(branch: Node) -> Vec<Node> {
    if branch.kind() == "compound_statement" {
        let mut cursor = branch.walk();
        branch
            .named_children(&mut cursor)
            .filter(|c| c.kind() != "comment")
            .collect()
    } else {
        vec![branch]
    }
}

/// For each release that ends one branch of an `if` whose test is on `lines` (from 1)
/// and whose other path does not make it — the run reached the `if` and may have taken
/// the other path —: the release moved after the `if` (`Part::OnePathRelease`).
pub fn one_path_release_mutants(text: &str, lines: &[u32]) -> Vec<SyncMutant> {
    let own = super::callees::net_releasing_functions(text);
    let mut out = Vec::new();
    each_node(text, |stmt| {
        if stmt.kind() != "if_statement" {
            return;
        }
        let Some(then) = stmt.child_by_field_name("consequence") else {
            return;
        };
        let other = stmt
            .child_by_field_name("alternative")
            .and_then(|e| e.named_child(0));
        // Only the blocks of the branches: an `else if` chain's own `if` is visited in turn.
        let branches: Vec<(Node, Option<Node>)> = match other {
            Some(o) if o.kind() == "if_statement" => vec![(then, None)],
            Some(o) => vec![(then, Some(o)), (o, Some(then))],
            None => vec![(then, None)],
        };
        for (branch, rest) in branches {
            let Some(last) = statements(branch).last().copied() else {
                continue;
            };
            let row = last.start_position().row as u32 + 1;
            let name = last
                .named_child(0)
                .and_then(|c| super::callees::called(text, c))
                .unwrap_or("");
            // The run reached the `if`; it may well have taken the other path.
            let test_row = stmt
                .child_by_field_name("condition")
                .map_or(row, |c| c.start_position().row as u32 + 1);
            if last.kind() != "expression_statement"
                || !lines.contains(&test_row)
                || !releases(name, &own)
            {
                continue;
            }
            let call = text_of(text, last);
            if rest.is_some_and(|r| text_of(text, r).contains(call)) {
                continue;
            }
            let (Some(between), Some(end)) = (
                text.get(last.end_byte()..stmt.end_byte()),
                text.get(super::signals::line_start(text, stmt.start_byte())..stmt.start_byte()),
            ) else {
                continue;
            };
            // The `if`'s own indentation for the moved call.
            let indent: String = end.chars().take_while(|c| c.is_whitespace()).collect();
            out.push(SyncMutant {
                mutant: Mutant {
                    line: row,
                    column: last.start_position().column as u32 + 1,
                    start: last.start_byte(),
                    end: stmt.end_byte(),
                    from: format!("{call}{between}"),
                    to: format!("{}\n{indent}{call}", between.trim_start()),
                },
                part: Part::OnePathRelease,
            });
        }
    });
    out
}

/// The moved call of a one-path-release mutant.
pub fn moved_call(m: &Mutant) -> &str {
    m.to.rsplit('\n').next().unwrap_or("").trim()
}

#[cfg(test)]
mod tests {
    use super::*;

    const SPOOL: &str = "#include <semaphore.h>\nsem_t free_slots;\nint rejected, printed;\nvoid complete(int pages)\n{\n    if (pages > 4) {\n        rejected++;\n    } else {\n        printed += pages;\n        sem_post(&free_slots);\n    }\n    if (pages > 9)\n        sem_post(&free_slots);\n    else\n        sem_post(&free_slots);\n}\n";

    #[test]
    fn a_release_that_ends_one_branch_moves_after_the_if() {
        let ms = one_path_release_mutants(SPOOL, &[6, 12]);
        assert_eq!(ms.len(), 1, "both branches of the second `if` post: {ms:?}");
        let m = &ms[0].mutant;
        assert_eq!((m.line, ms[0].part), (10, Part::OnePathRelease));
        assert_eq!(moved_call(m), "sem_post(&free_slots);");
        let fixed = m.apply(SPOOL).expect("applies");
        assert!(
            fixed.contains("        printed += pages;\n        }\n    sem_post(&free_slots);\n    if (pages > 9)"),
            "{fixed}"
        );
        // An `if` the run did not reach is not tried.
        assert!(one_path_release_mutants(SPOOL, &[7, 9, 10, 12]).is_empty());
    }
}
