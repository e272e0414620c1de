//! A store to the wrong variable: `reads_done++;` in the writer, copied from the reader,
//! where `writes_done++;` was meant. The variable meant is then written nowhere in the
//! program, yet read (by a check, say).
//!
//! Why mutants of their own: Griesmeyer's method changes the value one line stores, and
//! the line stores into the wrong place — no value it could store there makes the other
//! variable right, so the line is no candidate (only the check is). The mutant swaps the
//! stored-to global for one of the same declared type that nothing writes; as every
//! mutant, it counts only when the oracle proves the changed program free of failures and
//! deadlocks in every execution.
//!
//! The same slip copied into two functions is fixed by either swap when the program is
//! symmetric; the store whose function is named like the variable swapped in (`writes_done`
//! in `write_side`) is tried first, so that its line is the one named.

use std::collections::BTreeSet;

use tree_sitter::Node;

use super::operators::{Mutant, each_node, text_of};
use super::primitives::{Part, SyncMutant, scalar_globals};

/// The mutants swapping the global a store on one of `lines` writes for a global of the
/// same declared type that no statement of `text` writes and some statement reads.
pub fn store_target_mutants(text: &str, lines: &[u32]) -> Vec<SyncMutant> {
    let globals = scalar_globals(text);
    if globals.len() < 2 {
        return vec![];
    }
    // Written (stored to, incremented, or its address taken: a call may write through
    // it) and read, by name, in function bodies.
    let mut written: BTreeSet<String> = BTreeSet::new();
    let mut read: BTreeSet<String> = BTreeSet::new();
    // Each store: the variable, the whole store as a mutant with the places of the
    // variable's name in it (`hits = hits + 1` copied is renamed throughout), and the
    // function it is in.
    let mut stores: Vec<Store> = Vec::new();
    each_node(text, |n| {
        if let Some(target) = stored_identifier(n) {
            let name = text_of(text, target).to_string();
            written.insert(name.clone());
            let mut places = Vec::new();
            let mut stack = vec![n];
            while let Some(x) = stack.pop() {
                let mut cursor = x.walk();
                stack.extend(x.named_children(&mut cursor));
                if x.kind() == "identifier" && text_of(text, x) == name {
                    places.push((
                        x.start_byte() - n.start_byte(),
                        x.end_byte() - n.start_byte(),
                    ));
                }
            }
            places.sort_unstable();
            stores.push(Store {
                name: name.clone(),
                store: Mutant::of_node(text, n, String::new()),
                places,
                function: enclosing_function(text, n).unwrap_or_default(),
            });
        }
        if n.kind() == "pointer_expression"
            && n.child_by_field_name("operator")
                .is_some_and(|o| text_of(text, o) == "&")
        {
            if let Some(a) = n.child_by_field_name("argument") {
                written.insert(text_of(text, a).to_string());
            }
        }
        if n.kind() == "identifier" && inside_function(n) {
            read.insert(text_of(text, n).to_string());
        }
    });
    let unwritten: Vec<&(String, String)> = globals
        .iter()
        .filter(|(g, _)| !written.contains(g) && read.contains(g))
        .collect();
    if unwritten.is_empty() {
        return vec![];
    }
    let mut out: Vec<(usize, SyncMutant)> = Vec::new();
    for Store {
        name,
        store,
        places,
        function,
    } in stores
    {
        if !lines.contains(&store.line) || store.from.contains('\n') {
            continue;
        }
        let Some((_, ty)) = globals.iter().find(|(g, _)| *g == name) else {
            continue;
        };
        for (other, _) in unwritten.iter().filter(|(_, t)| t == ty) {
            let mut to = String::new();
            let mut at = 0;
            for (a, b) in &places {
                to.push_str(store.from.get(at..*a).unwrap_or(""));
                to.push_str(other);
                at = *b;
            }
            to.push_str(store.from.get(at..).unwrap_or(""));
            out.push((
                shared_words(&function, other),
                SyncMutant {
                    mutant: Mutant {
                        to,
                        ..store.clone()
                    },
                    part: Part::StoreTarget,
                },
            ));
        }
    }
    // Most words in common with the function first; the text's order otherwise.
    out.sort_by_key(|(words, _)| std::cmp::Reverse(*words));
    out.into_iter().map(|(_, m)| m).collect()
}

/// A store to a named variable, as the mutant that rewrites it (its text in `from`).
struct Store {
    name: String,
    store: Mutant,
    /// Where the name stands in the store's text (byte ranges).
    places: Vec<(usize, usize)>,
    /// The function the store is in.
    function: String,
}

/// The identifier an assignment or `++`/`--` stores to, when it is a plain name.
fn stored_identifier(n: Node) -> Option<Node> {
    let target = match n.kind() {
        "assignment_expression" => n.child_by_field_name("left"),
        "update_expression" => n.child_by_field_name("argument"),
        _ => None,
    }?;
    (target.kind() == "identifier").then_some(target)
}

fn inside_function(n: Node) -> bool {
    let mut p = n.parent();
    while let Some(x) = p {
        if x.kind() == "function_definition" {
            return true;
        }
        p = x.parent();
    }
    false
}

/// The name of the function `n` is in.
fn enclosing_function(text: &str, n: Node) -> Option<String> {
    let mut p = n.parent();
    while let Some(x) = p {
        if x.kind() == "function_definition" {
            let mut d = x.child_by_field_name("declarator");
            while let Some(decl) = d {
                if decl.kind() == "identifier" {
                    return Some(text_of(text, decl).to_string());
                }
                d = decl.child_by_field_name("declarator");
            }
            return None;
        }
        p = x.parent();
    }
    None
}

/// How many words of `a` a word of `b` matches (`write_side` and `writes_done`: 1), words
/// split at `_` and case changes, of three letters or more, an ending of up to two
/// letters ignored.
fn shared_words(a: &str, b: &str) -> usize {
    let words = |s: &str| -> BTreeSet<String> {
        let mut out = BTreeSet::new();
        let mut cur = String::new();
        let mut prev_lower = false;
        for ch in s.chars() {
            if (ch == '_' || (ch.is_uppercase() && prev_lower)) && !cur.is_empty() {
                out.insert(std::mem::take(&mut cur));
            }
            if ch != '_' {
                cur.push(ch.to_ascii_lowercase());
            }
            prev_lower = ch.is_lowercase();
        }
        if !cur.is_empty() {
            out.insert(cur);
        }
        out.into_iter().filter(|w| w.len() >= 3).collect()
    };
    // One word is the other with an ending (`write`, `writes`; `miss`, `misses`).
    let alike = |x: &String, y: &String| {
        let (short, long) = if x.len() <= y.len() { (x, y) } else { (y, x) };
        long.starts_with(short.as_str()) && long.len() - short.len() <= 2
    };
    let wb = words(b);
    words(a)
        .iter()
        .filter(|x| wb.iter().any(|y| alike(x, y)))
        .count()
}

#[cfg(test)]
mod tests {
    use super::*;

    const COPIED: &str = "int reads_done, writes_done, ops;\n\
        void *read_side(void *a)\n{\n  reads_done++;\n  ops = ops + 1;\n  return a;\n}\n\
        void *write_side(void *a)\n{\n  reads_done++;\n  ops = ops + 1;\n  return a;\n}\n\
        int main(void)\n{\n  return reads_done + writes_done == ops;\n}\n";

    #[test]
    fn a_store_may_name_a_variable_nothing_writes() {
        let ms = store_target_mutants(COPIED, &[4, 5, 10, 11]);
        let got: Vec<(u32, &str, &str)> = ms
            .iter()
            .map(|m| (m.mutant.line, m.mutant.from.as_str(), m.mutant.to.as_str()))
            .collect();
        // `ops = ops + 1` copied is renamed throughout.
        // Both copies may be the slip; the writer's stores, its name like the variable's,
        // first.
        assert_eq!(
            got,
            [
                (10, "reads_done++", "writes_done++"),
                (11, "ops = ops + 1", "writes_done = writes_done + 1"),
                (4, "reads_done++", "writes_done++"),
                (5, "ops = ops + 1", "writes_done = writes_done + 1"),
            ]
        );
        assert!(ms.iter().all(|m| m.part == Part::StoreTarget));
        assert_eq!(shared_words("count_miss", "misses"), 1);
        assert_eq!(shared_words("count_hit", "misses"), 0);
        let fixed = ms
            .first()
            .and_then(|m| m.mutant.apply(COPIED))
            .unwrap_or_default();
        assert!(fixed.contains("void *write_side(void *a)\n{\n  writes_done++;"));
    }

    #[test]
    fn a_variable_written_anywhere_or_never_read_is_not_swapped_in() {
        let both = COPIED.replace(
            "return reads_done + writes_done",
            "writes_done = 1; return reads_done",
        );
        assert!(store_target_mutants(&both, &[4, 5, 10, 11]).is_empty());
        let passed = COPIED.replace(
            "int main(void)\n{\n",
            "int main(void)\n{\n  f(&writes_done);\n",
        );
        assert!(store_target_mutants(&passed, &[4, 5, 10, 11]).is_empty());
        let unread = "int a, b;\nvoid f(void)\n{\n  a++;\n}\n";
        assert!(store_target_mutants(unread, &[4]).is_empty());
    }
}
