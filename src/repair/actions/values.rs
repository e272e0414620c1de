//! Value repairs: an inverted test or an off-by-one in the condition of a candidate line
//! (`!=` for `==`, `<=` for `<`, `n` for `n - 1`).
//!
//! These change what the program computes, not how its threads synchronize, so they are
//! the last resort: tried only on the best-ranked candidate lines, after every
//! synchronization repair, and never on what states the property. A condition that guards
//! an assertion or an error call is the specification (changing it would make the check
//! pass, not the program correct), a loop that creates threads would run fewer of them
//! (the failure gone because the work is), and a nondeterministic input is the
//! environment's choice.

use super::{Action, Proposal, Sites, mentions};
use crate::repair::edit::Edit;
use crate::repair::source::Source;

/// How many of the best candidate lines are looked at.
const LINES: usize = 3;

pub(super) fn conditions(src: &Source, sites: &Sites) -> Vec<Proposal> {
    let mut out = Vec::new();
    let mut seen = Vec::new();
    for &line in sites.ranked.iter().take(LINES) {
        let Some(s) = src.statement_at(line) else {
            continue;
        };
        let Some(st) = src.stmts.get(s) else {
            continue;
        };
        // A candidate inside a statement names its condition only when it is the
        // statement's first line, or the wait of a wait loop (`while (p) wait(…);`: the
        // loop's test decides whether the thread blocks there).
        let wait_loop = matches!(st.kind.as_str(), "while_statement" | "do_statement")
            && src.text_of(s).contains("pthread_cond_");
        if seen.contains(&s) || (st.first_line != line && !wait_loop) || !changeable(src, s) {
            continue;
        }
        seen.push(s);
        // A `± 1` dropped first: `i < n` reads better than `i <= n - 1`.
        let changes = st
            .condition
            .iter()
            .filter_map(|p| Some((p, p.without_one.clone()?)))
            .chain(st.condition.iter().flat_map(|p| {
                crate::mutation::operators::nearest_relop(&p.text)
                    .iter()
                    .map(move |a| (p, a.to_string()))
            }));
        for (part, t) in changes {
            {
                out.push(Proposal {
                    summary: format!(
                        "a value change, not a synchronization one: `{}` for `{}` in the condition at line {} of `{}`",
                        t, part.text, st.first_line, st.function
                    ),
                    action: Action::Condition {
                        function: st.function.clone(),
                        line: st.first_line,
                        from: part.text.clone(),
                        to: t.clone(),
                    },
                    edits: vec![Edit {
                        start: part.start,
                        end: part.end,
                        text: t,
                    }],
                    statements_locked: 0,
                    serializes: false,
                    kills: Vec::new(),
                    tier: 3,
                });
            }
        }
    }
    out
}

/// Whether the condition of control statement `s` may be changed (see the module comment).
fn changeable(src: &Source, s: usize) -> bool {
    let Some(st) = src.stmts.get(s) else {
        return false;
    };
    let text = src.text_of(s);
    matches!(
        st.kind.as_str(),
        "if_statement" | "while_statement" | "for_statement" | "do_statement"
    ) && !st.checks
        && !text.contains("nondet")
        && !mentions(src, s, "pthread_create")
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::repair::edit::apply;

    const JOINS: &str = r#"#include <pthread.h>
#include <assert.h>
int part[3];
int main(void) {
  pthread_t th[3];
  int i;
  for (i = 0; i < 3 - 1; i++)
    pthread_join(th[i], 0);
  if (part[0] != 1) assert(0);
  for (i = 0; i < 3; i++)
    pthread_create(&th[i], 0, 0, 0);
  while (part[1] != 0) i++;
  return 0;
}
"#;

    #[test]
    fn off_by_ones_and_inversions_but_never_a_check_or_a_thread_count() {
        let src = Source::parse(JOINS).expect("parses");
        let sites = Sites {
            ranked: vec![7, 9, 10],
            flows: vec![],
            orders: vec![],
            deadlock: false,
            fixed: Vec::new(),
        };
        let texts: Vec<String> = conditions(&src, &sites)
            .iter()
            .map(|p| apply(&src.text, &p.edits).expect("applies"))
            .collect();
        assert_eq!(texts.len(), 2, "{texts:?}");
        assert!(texts.iter().any(|t| t.contains("i <= 3 - 1;")));
        assert!(
            texts
                .iter()
                .any(|t| t.contains("for (i = 0; i < 3; i++)\n    pthread_join"))
        );
        // The loop at 12 is not among the best lines.
        let sites = Sites {
            ranked: vec![12],
            flows: vec![],
            orders: vec![],
            deadlock: false,
            fixed: Vec::new(),
        };
        let p = conditions(&src, &sites);
        assert_eq!(p.len(), 1);
        assert!(
            apply(&src.text, &p[0].edits)
                .expect("applies")
                .contains("while (part[1] == 0)")
        );
    }
}
