//! A critical section split in two: `unlock(&c->lock); v = load(key); lock(&c->lock);`
//! between a check and the update that depends on it (a cache miss looked up under the
//! lock, the entry inserted under it again: two threads both miss and insert twice).
//!
//! Why mutants of their own: the race is between the two halves, and the candidate loop
//! and the analyses name the accesses in them (the check, the insert, the value carried
//! between) — never the unlock and the lock that open the window, which have no value to
//! change. The mutant removes both, so the thread holds the lock across the statements
//! between; the oracle proves it free of failures and deadlocks in every execution (a
//! statement between that takes the same lock itself deadlocks, and is rejected).

use tree_sitter::Node;

use super::operators::{Mutant, each_node, text_of};
use super::primitives::{Part, SyncMutant};

/// The name of the function a statement calls and the text of its first argument, when
/// the statement is a call.
fn call_of<'a>(text: &'a str, stmt: Node) -> Option<(&'a str, &'a str)> {
    let call = stmt
        .named_child(0)
        .filter(|c| c.kind() == "call_expression")?;
    let name = text_of(text, call.child_by_field_name("function")?);
    let args = call.child_by_field_name("arguments")?;
    let first = args.named_child(0)?;
    Some((name, text_of(text, first)))
}

/// The lock call that an unlock of `name` releases, when `name` is an unlock.
fn relock_of(name: &str) -> Option<&'static [&'static str]> {
    Some(match name {
        "pthread_mutex_unlock" => &["pthread_mutex_lock"],
        "pthread_spin_unlock" => &["pthread_spin_lock"],
        "mtx_unlock" => &["mtx_lock"],
        "pthread_rwlock_unlock" => &["pthread_rwlock_wrlock", "pthread_rwlock_rdlock"],
        _ => return None,
    })
}

/// Whether `n` takes, releases or waits on anything: a window with such a call in it is
/// not a plain split (`unlock; cond_wait` is another shape, a wait gives the lock up).
fn synchronizes(text: &str, n: Node) -> bool {
    super::operators::calls(text, n, &|name| {
        super::signals::is_lock_call(name)
            || name.starts_with("pthread_cond_")
            || name.starts_with("sem_")
            || name.starts_with("pthread_barrier_")
            || name == "pthread_join"
    })
}

/// For each unlock on `lines` (from 1) followed in its block, after statements that do
/// not synchronize, by a lock of the same object: the unlock and the lock removed, the
/// statements between kept (`Part::SplitSection`).
pub fn split_section_mutants(text: &str, lines: &[u32]) -> Vec<SyncMutant> {
    let mut out = Vec::new();
    each_node(text, |block| {
        if block.kind() != "compound_statement" {
            return;
        }
        let mut cursor = block.walk();
        let stmts: Vec<Node> = block
            .named_children(&mut cursor)
            .filter(|c| c.kind() != "comment")
            .collect();
        for (i, unlock) in stmts.iter().enumerate() {
            let row = unlock.start_position().row as u32 + 1;
            let Some((name, object)) = call_of(text, *unlock) else {
                continue;
            };
            let Some(relocks) = relock_of(name) else {
                continue;
            };
            if !lines.contains(&row) {
                continue;
            }
            let Some(rest) = stmts.get(i + 1..) else {
                continue;
            };
            for (k, s) in rest.iter().enumerate() {
                if let Some((lock, obj)) = call_of(text, *s)
                    && relocks.contains(&lock)
                    && obj == object
                {
                    // At least one statement between: an unlock right before its relock
                    // opens no window worth a mutant.
                    if k > 0 {
                        let (Some(kept), Some(from)) = (
                            text.get(unlock.end_byte()..s.start_byte()),
                            text.get(unlock.start_byte()..s.end_byte()),
                        ) else {
                            break;
                        };
                        out.push(SyncMutant {
                            mutant: Mutant {
                                line: row,
                                column: unlock.start_position().column as u32 + 1,
                                start: unlock.start_byte(),
                                end: s.end_byte(),
                                from: from.to_string(),
                                to: kept.trim().to_string(),
                            },
                            part: Part::SplitSection,
                        });
                    }
                    break;
                }
                if synchronizes(text, *s) {
                    break;
                }
            }
        }
    });
    out
}

/// The line of the lock a split-section mutant removes.
pub fn relock_line(m: &Mutant) -> u32 {
    m.line + m.from.matches('\n').count() as u32
}

#[cfg(test)]
mod tests {
    use super::*;

    const CACHE: &str = "#include <pthread.h>\nstruct c { pthread_mutex_t lock; int n; };\nint load(int k);\nint get(struct c *c, int k)\n{\n  pthread_mutex_lock(&c->lock);\n  int n = c->n;\n  pthread_mutex_unlock(&c->lock);\n  int v = load(k);\n  pthread_mutex_lock(&c->lock);\n  c->n = n + v;\n  pthread_mutex_unlock(&c->lock);\n  pthread_mutex_lock(&c->lock);\n  pthread_mutex_unlock(&c->lock);\n  return v;\n}\n";

    #[test]
    fn an_unlock_and_its_relock_around_plain_statements_are_removed() {
        let ms = split_section_mutants(CACHE, &[8, 12, 14]);
        assert_eq!(ms.len(), 1, "{ms:?}");
        let m = &ms[0].mutant;
        assert_eq!((m.line, relock_line(m)), (8, 10));
        let mutated = m.apply(CACHE).expect("applies");
        assert_eq!(mutated.matches("pthread_mutex_lock").count(), 2);
        assert_eq!(mutated.matches("pthread_mutex_unlock").count(), 2);
        assert!(mutated.contains("int v = load(k);"));
        // An unlock the run did not execute is not tried.
        assert!(split_section_mutants(CACHE, &[12]).is_empty());
    }

    #[test]
    fn a_window_that_waits_or_takes_another_lock_is_left_alone() {
        let text = "#include <pthread.h>\npthread_mutex_t a, b;\npthread_cond_t cv;\nvoid f(void)\n{\n  pthread_mutex_unlock(&a);\n  pthread_mutex_lock(&b);\n  pthread_mutex_lock(&a);\n  pthread_mutex_unlock(&b);\n  pthread_mutex_unlock(&a);\n  pthread_mutex_lock(&b);\n}\n";
        assert!(split_section_mutants(text, &[6, 7, 8, 9, 10]).is_empty());
    }
}
