//! Mutants of a synchronization primitive's kind or count: a read lock taken for a
//! write, a semaphore or barrier made for one thread too many or too few, a mutex of the
//! wrong type, a signal where every waiter must wake, a `trylock` whose failure is not
//! handled.
//!
//! Why they are needed: Griesmeyer's method changes the *value* a line computes along
//! the failing interleaving, with the schedule held. A primitive of the wrong kind is
//! wrong because of the schedules it allows: made right, the failing schedule cannot be
//! followed at all (the second thread blocks on the write lock), so no value change of
//! its line avoids the failure along it and the line is no candidate. The lines that are
//! candidates are the racing accesses the primitive failed to order — true, but the fix
//! is one word of the call (`pthread_rwlock_rdlock` → `pthread_rwlock_wrlock`, the `2` of
//! `sem_init(&s, 0, 2)`), and a user reads the first line or two.
//!
//! A mutant counts only when the oracle proves the mutated program free of failures and
//! deadlocks in every execution, as for the value mutants (`super`). The mutants are few
//! (one or two per call) and tried only on calls the failing run executed.

use tree_sitter::Node;

use super::operators::Mutant;

/// The calls whose name is the mistake, and the name that may be meant.
fn kind_replacement(name: &str) -> Option<&'static str> {
    Some(match name {
        "pthread_rwlock_rdlock" => "pthread_rwlock_wrlock",
        "pthread_rwlock_tryrdlock" => "pthread_rwlock_trywrlock",
        "pthread_cond_signal" => "pthread_cond_broadcast",
        "pthread_mutex_trylock" => "pthread_mutex_lock",
        "pthread_spin_trylock" => "pthread_spin_lock",
        "sem_trywait" => "sem_wait",
        _ => return None,
    })
}

/// The mutex types a `pthread_mutexattr_settype` may name.
const MUTEX_TYPES: [&str; 4] = [
    "PTHREAD_MUTEX_NORMAL",
    "PTHREAD_MUTEX_RECURSIVE",
    "PTHREAD_MUTEX_ERRORCHECK",
    "PTHREAD_MUTEX_DEFAULT",
];

/// The calls whose count argument (index, smallest count that makes sense) may be off by
/// one.
fn count_argument(name: &str) -> Option<(usize, i64)> {
    match name {
        "sem_init" => Some((2, 0)),
        "pthread_barrier_init" => Some((2, 1)),
        _ => None,
    }
}

fn text_of<'a>(text: &'a str, n: Node) -> &'a str {
    text.get(n.start_byte()..n.end_byte()).unwrap_or("")
}

/// Every primitive mutant on the lines `lines` (from 1) of `text`, in the order of the
/// text.
pub fn primitive_mutants(text: &str, lines: &[u32]) -> Vec<Mutant> {
    let Ok(tree) = crate::frontend::syntax_check::parse_c(text) else {
        return vec![];
    };
    let mut out = Vec::new();
    let mut stack = vec![tree.root_node()];
    while let Some(n) = stack.pop() {
        let row = n.start_position().row as u32 + 1;
        if n.kind() == "call_expression" && lines.contains(&row) {
            call_mutants(text, n, &mut out);
        }
        let mut cursor = n.walk();
        let children: Vec<Node> = n.children(&mut cursor).collect();
        // Pushed last to first: the text's order comes off the stack.
        stack.extend(children.into_iter().rev());
    }
    out
}

fn call_mutants(text: &str, call: Node, out: &mut Vec<Mutant>) {
    let Some(f) = call.child_by_field_name("function") else {
        return;
    };
    let name = text_of(text, f);
    let mut push = |tok: Node, to: &str| {
        out.push(Mutant {
            line: tok.start_position().row as u32 + 1,
            column: tok.start_position().column as u32 + 1,
            start: tok.start_byte(),
            end: tok.end_byte(),
            from: text_of(text, tok).to_string(),
            to: to.to_string(),
        });
    };
    if f.kind() == "identifier" {
        if let Some(to) = kind_replacement(name) {
            push(f, to);
            return;
        }
    }
    let args: Vec<Node> = match call.child_by_field_name("arguments") {
        Some(a) => {
            let mut cursor = a.walk();
            a.named_children(&mut cursor)
                .filter(|c| c.kind() != "comment")
                .collect()
        }
        None => return,
    };
    if name == "pthread_mutexattr_settype" {
        let Some(ty) = args.get(1).copied().filter(|a| a.kind() == "identifier") else {
            return;
        };
        let now = text_of(text, ty);
        if MUTEX_TYPES.contains(&now) {
            // The default type is the normal one in glibc: naming it changes nothing.
            for to in MUTEX_TYPES
                .iter()
                .filter(|t| **t != now && **t != "PTHREAD_MUTEX_DEFAULT")
            {
                push(ty, to);
            }
        }
        return;
    }
    if let Some((i, least)) = count_argument(name) {
        let Some(n) = args
            .get(i)
            .copied()
            .filter(|a| a.kind() == "number_literal")
        else {
            return;
        };
        let Ok(v) = text_of(text, n).parse::<i64>() else {
            return;
        };
        for w in [v.saturating_sub(1), v.saturating_add(1)] {
            if w != v && w >= least {
                push(n, &w.to_string());
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const PROG: &str = r#"#include <pthread.h>
#include <semaphore.h>
pthread_rwlock_t rw; sem_t s; pthread_barrier_t b; pthread_mutex_t m;
pthread_cond_t c; pthread_mutexattr_t at;
void *f(void *arg) {
  pthread_rwlock_rdlock(&rw);
  sem_init(&s, 0, 2);
  pthread_barrier_init(&b, 0, 1);
  pthread_mutexattr_settype(&at, PTHREAD_MUTEX_NORMAL);
  pthread_cond_signal(&c);
  if (pthread_mutex_trylock(&m) == 0) pthread_mutex_unlock(&m);
  sem_init(&s, 0, N);
  pthread_mutex_lock(&m);
  return 0;
}
"#;

    fn texts(line: u32) -> Vec<String> {
        primitive_mutants(PROG, &[line])
            .iter()
            .map(|m| format!("{}->{}", m.from, m.to))
            .collect()
    }

    #[test]
    fn kinds_and_counts_of_the_primitives() {
        assert_eq!(texts(6), ["pthread_rwlock_rdlock->pthread_rwlock_wrlock"]);
        assert_eq!(texts(7), ["2->1", "2->3"]);
        assert_eq!(texts(8), ["1->2"], "a barrier for no thread is no barrier");
        assert_eq!(
            texts(9),
            [
                "PTHREAD_MUTEX_NORMAL->PTHREAD_MUTEX_RECURSIVE",
                "PTHREAD_MUTEX_NORMAL->PTHREAD_MUTEX_ERRORCHECK"
            ]
        );
        assert_eq!(texts(10), ["pthread_cond_signal->pthread_cond_broadcast"]);
        assert_eq!(texts(11), ["pthread_mutex_trylock->pthread_mutex_lock"]);
        assert!(texts(12).is_empty(), "a count that is no literal");
        assert!(texts(13).is_empty(), "a plain lock");
        assert!(texts(3).is_empty(), "no call");
    }

    #[test]
    fn a_mutant_applies_to_its_token_only() {
        let m = primitive_mutants(PROG, &[7]);
        let t = m.first().and_then(|m| m.apply(PROG)).unwrap_or_default();
        assert!(t.contains("sem_init(&s, 0, 1);"), "{t}");
        assert!(t.contains("sem_init(&s, 0, N);"), "{t}");
        assert_eq!(m.first().map(|m| (m.line, m.column)), Some((7, 19)));
    }
}
