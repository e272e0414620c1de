//! A thread given the address of its creator's loop counter
//! (`for (i = 0; i < N; i++) pthread_create(&t[i], 0, f, &i);`) reads whatever value the
//! counter has when it gets to it, not the one it was created with. The repair gives each
//! thread its own slot: an array beside the counter, one element per iteration, set just
//! before the creation.

use super::{Action, Proposal};
use crate::repair::edit::Edit;
use crate::repair::source::Source;

pub(super) fn argument_slots(src: &Source) -> Vec<Proposal> {
    let mut out = Vec::new();
    for (c, st) in src.stmts.iter().enumerate() {
        let Some(call) = &st.call else { continue };
        if call.name != "pthread_create" {
            continue;
        }
        let Some(var) = call
            .args
            .get(3)
            .and_then(|a| a.trim().strip_prefix('&'))
            .map(str::trim)
        else {
            continue;
        };
        // The innermost enclosing loop that counts `var`.
        let mut up = st.parent;
        let mut found = None;
        while let Some(p) = up {
            let Some(ps) = src.stmts.get(p) else { break };
            if let Some(k) = ps.counting.as_ref().filter(|k| k.var == var) {
                found = Some((p, k.clone()));
                break;
            }
            up = ps.parent;
        }
        let Some((f, counting)) = found else { continue };
        if let Some(p) = slot(src, c, f, &counting) {
            out.push(p);
        }
    }
    out
}

fn slot(
    src: &Source,
    create: usize,
    for_stmt: usize,
    counting: &crate::repair::source::Counting,
) -> Option<Proposal> {
    let st = src.stmts.get(create)?;
    let var = &counting.var;
    let function = &st.function;
    let local = |n: &str| {
        src.locals
            .iter()
            .find(|l| l.function == *function && l.name == n)
    };
    // The bound must mean the same where the array is declared: a literal, a macro or a
    // global, never another local.
    let bound = counting.bound.trim();
    let bound_ok = bound
        .split(|c: char| !(c.is_ascii_alphanumeric() || c == '_'))
        .filter(|w| !w.is_empty())
        .all(|w| local(w).is_none());
    if !bound_ok {
        return None;
    }
    let name = src.fresh_name(&format!("seqloc_arg_{var}"));
    // The array lives as long as the counter did: declared after the counter's
    // declaration, or before the loop when the counter is the loop's own.
    let (ty, anchor, after) = if counting.declared_here {
        let header = src
            .text
            .get(src.stmts.get(for_stmt)?.start..counting.header_end)?;
        let ty = header
            .split_once('(')?
            .1
            .trim_start()
            .split_once(var.as_str())?
            .0
            .trim()
            .to_string();
        (ty, for_stmt, false)
    } else {
        let l = local(var)?;
        (l.ty.clone(), l.stmt, true)
    };
    if ty.is_empty() || ty.contains('*') {
        return None;
    }
    let (a, b) = src.own_lines(anchor)?;
    let decl = format!("{}{ty} {name}[{bound}];\n", src.indent(anchor));
    let declare = Edit::insert(if after { b } else { a }, decl);
    let arg = call_arg_range(src, create, 3)?;
    let created = format!(
        "{}{}{}",
        src.text.get(st.start..arg.0)?,
        format_args!("&{name}[{var}]"),
        src.text.get(arg.1..st.end)?
    );
    let set = format!("{name}[{var}] = {var};");
    let ind = src.indent(create);
    let body = if st.block.is_some() {
        let (ca, _) = src.own_lines(create)?;
        vec![
            Edit::insert(ca, format!("{ind}{set}\n")),
            Edit {
                start: st.start,
                end: st.end,
                text: created,
            },
        ]
    } else if st.parent == Some(for_stmt) {
        // The loop's body without braces: it gets them.
        let fi = src.indent(for_stmt);
        vec![Edit {
            start: counting.header_end,
            end: st.end,
            text: format!(" {{\n{ind}{set}\n{ind}{created}\n{fi}}}"),
        }]
    } else {
        return None;
    };
    let mut edits = vec![declare];
    edits.extend(body);
    Some(Proposal {
        summary: format!(
            "give each thread created at line {} of `{function}` its own copy of `{var}` (`{name}[{var}]`), not the address of the loop counter",
            st.first_line
        ),
        action: Action::ArgumentSlot {
            function: function.clone(),
            line: st.first_line,
            var: var.clone(),
            slot: name,
        },
        edits,
        statements_locked: 0,
        serializes: false,
        kills: Vec::new(),
        tier: 0,
    })
}

/// The byte range of argument `k` of the call statement `s`, found by walking its text
/// (the source keeps the arguments' text, not their places).
fn call_arg_range(src: &Source, s: usize, k: usize) -> Option<(usize, usize)> {
    let st = src.stmts.get(s)?;
    let text = src.text.get(st.start..st.end)?;
    let open = text.find('(')?;
    let (mut depth, mut index, mut from) = (0i32, 0usize, open + 1);
    for (i, ch) in text.char_indices().skip(open) {
        match ch {
            '(' | '[' | '{' => depth += 1,
            ')' | ']' | '}' => {
                depth -= 1;
                if depth == 0 {
                    return (index == k).then(|| trimmed(text, from, i, st.start))?;
                }
            }
            ',' if depth == 1 => {
                if index == k {
                    return trimmed(text, from, i, st.start);
                }
                index += 1;
                from = i + 1;
            }
            _ => {}
        }
    }
    None
}

fn trimmed(text: &str, a: usize, b: usize, base: usize) -> Option<(usize, usize)> {
    let piece = text.get(a..b)?;
    let lead = piece.len() - piece.trim_start().len();
    let trail = piece.len() - piece.trim_end().len();
    Some((base + a + lead, base + b - trail))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::repair::edit::apply;

    #[test]
    fn each_thread_gets_its_own_slot() {
        let prog = r#"#include <pthread.h>
void *w(void *a) { return a; }
int main(void) {
  pthread_t th[4];
  int i, k;
  for (i = 0; i < 4; i++)
    pthread_create(&th[i], 0, w, &i);
  for (k = 0; k < 4; k++) {
    pthread_create(&th[k], 0, w, &k);
  }
  return 0;
}
"#;
        let src = Source::parse(prog).expect("parses");
        let p = argument_slots(&src);
        assert_eq!(p.len(), 2, "{p:?}");
        let t = apply(&src.text, &p[0].edits).expect("applies");
        assert!(
            t.contains(
                "  int i, k;\n  int seqloc_arg_i[4];\n  for (i = 0; i < 4; i++) {\n    seqloc_arg_i[i] = i;\n    pthread_create(&th[i], 0, w, &seqloc_arg_i[i]);\n  }\n"
            ),
            "{t}"
        );
        let t = apply(&src.text, &p[1].edits).expect("applies");
        assert!(
            t.contains("k++) {\n    seqloc_arg_k[k] = k;\n    pthread_create(&th[k], 0, w, &seqloc_arg_k[k]);\n  }"),
            "{t}"
        );
    }

    #[test]
    fn a_bound_held_in_a_local_is_left_alone() {
        let prog = r#"#include <pthread.h>
void *w(void *a) { return a; }
int main(void) {
  pthread_t th[4];
  int n = 4;
  for (int i = 0; i < n; i++)
    pthread_create(&th[i], 0, w, &i);
  return 0;
}
"#;
        let src = Source::parse(prog).expect("parses");
        assert!(argument_slots(&src).is_empty());
    }
}
