//! A post or a wake-up of the wrong object: a bounded buffer's `get` that posts
//! `&b->filled` where it frees a slot (`&b->free_slots`), a `sem_wait` on the semaphore
//! the other side waits on, a signal of the condition variable nobody waits on for this
//! change. The counts drift: a consumer goes on with no item made, a producer overwrites
//! an unread slot.
//!
//! Why mutants of their own: along the failing run the call ran, on an object whose
//! value Griesmeyer's switch may change, but a semaphore or condition variable changed
//! by value is no program a user wrote, and the analyses see only the consequence (a
//! read of an empty slot). The mutant names another object of the same type reached the
//! same way: another member of the structure the argument's member belongs to (of the
//! member's declared type), through the same pointer; the same member of another
//! global structure of the same type (`&rx_pool.avail` for `&tx_pool.avail`); or
//! another file-scope variable of the global's type. As every mutant, it counts only when the oracle proves the
//! changed program free of failures and deadlocks in every execution.

use tree_sitter::Node;

use super::operators::{Mutant, each_node, text_of};
use super::primitives::{Part, SyncMutant, scalar_globals};
use super::wait_terms::split_member;

/// The calls whose object may be the wrong one of its kind.
fn takes_object(name: &str) -> bool {
    matches!(
        name,
        "sem_post" | "sem_wait" | "pthread_cond_signal" | "pthread_cond_broadcast"
    )
}

/// The members of each structure with their declared type's text, per structure.
fn struct_members(text: &str) -> Vec<Vec<(String, String)>> {
    let mut out = Vec::new();
    each_node(text, |n| {
        if n.kind() != "field_declaration_list" {
            return;
        }
        let mut members = Vec::new();
        let mut c = n.walk();
        for f in n.named_children(&mut c) {
            if f.kind() != "field_declaration" {
                continue;
            }
            let Some(ty) = f.child_by_field_name("type") else {
                continue;
            };
            let mut d = f.walk();
            for name in f.children_by_field_name("declarator", &mut d) {
                if name.kind() == "field_identifier" {
                    members.push((
                        text_of(text, name).to_string(),
                        text_of(text, ty).to_string(),
                    ));
                }
            }
        }
        out.push(members);
    });
    out
}

/// The mutants naming another object of the same type in the calls on `lines` (from 1)
/// of `text` that post, wait or wake, in the order of the text.
pub fn object_swaps(text: &str, lines: &[u32]) -> Vec<SyncMutant> {
    let structs = struct_members(text);
    let globals = scalar_globals(text);
    let mut out = Vec::new();
    each_node(text, |call| {
        let row = call.start_position().row as u32 + 1;
        if call.kind() != "call_expression" || !lines.contains(&row) {
            return;
        }
        if !super::callees::called(text, call).is_some_and(takes_object) {
            return;
        }
        let Some(arg) = call
            .child_by_field_name("arguments")
            .and_then(|a| a.named_child(0))
            .filter(|a| a.kind() == "pointer_expression")
            .and_then(|a| a.child_by_field_name("argument"))
        else {
            return;
        };
        out.extend(swaps_of(text, arg, &structs, &globals));
    });
    out
}

/// The unlock that releases what a lock call takes.
fn unlock_of(name: &str) -> Option<&'static str> {
    Some(match name {
        "pthread_mutex_lock" => "pthread_mutex_unlock",
        "pthread_spin_lock" => "pthread_spin_unlock",
        "pthread_rwlock_wrlock" | "pthread_rwlock_rdlock" => "pthread_rwlock_unlock",
        "mtx_lock" => "mtx_unlock",
        _ => return None,
    })
}

/// The object a call statement names first (`&t->stats_lock`'s `t->stats_lock`) and the
/// call's name.
fn call_object<'t>(text: &'t str, stmt: Node<'t>) -> Option<(&'t str, Node<'t>)> {
    let call = stmt.named_child(0)?;
    let name = super::callees::called(text, call)?;
    let object = call
        .child_by_field_name("arguments")?
        .named_child(0)
        .filter(|a| a.kind() == "pointer_expression")?
        .child_by_field_name("argument")?;
    Some((name, object))
}

/// The mutants naming another lock of the same type in a lock call on `lines` (from 1)
/// and in the unlock that ends its critical section in the same block — a critical
/// section under the wrong mutex (`&t->stats_lock` where the data is `table_lock`'s).
/// One mutant changes both: a lock swapped alone would leave its unlock releasing a
/// mutex the thread does not hold.
pub fn lock_swaps(text: &str, lines: &[u32]) -> Vec<SyncMutant> {
    let structs = struct_members(text);
    let globals = scalar_globals(text);
    let mut out = Vec::new();
    each_node(text, |block| {
        if block.kind() != "compound_statement" {
            return;
        }
        let mut cursor = block.walk();
        let stmts: Vec<Node> = block.named_children(&mut cursor).collect();
        for (i, lock) in stmts.iter().enumerate() {
            let row = lock.start_position().row as u32 + 1;
            let Some((name, object)) = call_object(text, *lock) else {
                continue;
            };
            let Some(release) = unlock_of(name).filter(|_| lines.contains(&row)) else {
                continue;
            };
            let object_text = text_of(text, object);
            let unlock = stmts.iter().skip(i + 1).find_map(|s| {
                call_object(text, *s)
                    .filter(|(n, o)| *n == release && text_of(text, *o) == object_text)
                    .map(|(_, o)| (*s, o))
            });
            let Some((unlock, unlock_object)) = unlock else {
                continue;
            };
            for m in swaps_of(text, object, &structs, &globals) {
                // The same token in the unlock's object, at the same offset.
                let at = m.mutant.start - object.start_byte() + unlock_object.start_byte();
                let len = m.mutant.end - m.mutant.start;
                let (Some(head), Some(middle), Some(tail)) = (
                    text.get(lock.start_byte()..m.mutant.start),
                    text.get(m.mutant.end..at),
                    text.get(at + len..unlock.end_byte()),
                ) else {
                    continue;
                };
                let to = format!("{head}{new}{middle}{new}{tail}", new = m.mutant.to);
                out.push(SyncMutant {
                    mutant: Mutant {
                        line: row,
                        column: m.mutant.column,
                        start: lock.start_byte(),
                        end: unlock.end_byte(),
                        from: text_of(text, *lock).to_string()
                            + text.get(lock.end_byte()..unlock.end_byte()).unwrap_or(""),
                        to,
                    },
                    part: Part::WrongLock,
                });
            }
        }
    });
    out
}

/// The names a lock swap exchanges: (the lock named, the one named instead).
pub fn swapped_names(m: &Mutant) -> (String, String) {
    let same = m
        .from
        .bytes()
        .zip(m.to.bytes())
        .take_while(|(a, b)| a == b)
        .count();
    let ident = |s: &str| -> String {
        let start = s
            .get(..same)
            .and_then(|h| h.rfind(|c: char| !(c.is_alphanumeric() || c == '_')))
            .map_or(0, |i| i + 1);
        s.get(start..)
            .unwrap_or("")
            .chars()
            .take_while(|c| c.is_alphanumeric() || *c == '_')
            .collect()
    };
    (ident(&m.from), ident(&m.to))
}

fn swaps_of(
    text: &str,
    object: Node,
    structs: &[Vec<(String, String)>],
    globals: &[(String, String)],
) -> Vec<SyncMutant> {
    let (base, member) = split_member(text_of(text, object));
    let others: Vec<String> = if base.is_empty() {
        let Some((_, ty)) = globals.iter().find(|(g, _)| *g == member) else {
            return vec![];
        };
        globals
            .iter()
            .filter(|(g, t)| *g != member && t == ty)
            .map(|(g, _)| g.clone())
            .collect()
    } else {
        // The structure declaring the member; a member name two structures share is
        // ambiguous without types, and left alone.
        let owners: Vec<&Vec<(String, String)>> = structs
            .iter()
            .filter(|s| s.iter().any(|(m, _)| *m == member))
            .collect();
        let [owner] = owners.as_slice() else {
            return vec![];
        };
        let Some((_, ty)) = owner.iter().find(|(m, _)| *m == member) else {
            return vec![];
        };
        owner
            .iter()
            .filter(|(m, t)| *m != member && t == ty)
            .map(|(m, _)| m.clone())
            .collect()
    };
    // The same member of another global structure of the same type (`&tx_pool.avail`
    // for `&rx_pool.avail`).
    let mut out = Vec::new();
    if let Some(b) = object
        .child_by_field_name("argument")
        .filter(|b| object.kind() == "field_expression" && b.kind() == "identifier")
    {
        let name = text_of(text, b);
        if let Some((_, ty)) = globals.iter().find(|(g, _)| g == name) {
            for (g, _) in globals.iter().filter(|(g, t)| g != name && t == ty) {
                out.push(SyncMutant {
                    mutant: Mutant::of_node(text, b, g.clone()),
                    part: Part::WrongObject,
                });
            }
        }
    }
    // The member's own token: the last child of a field expression.
    let tok = if object.kind() == "field_expression" {
        object.child_by_field_name("field")
    } else {
        Some(object)
    };
    let Some(tok) = tok else {
        return out;
    };
    out.extend(others.into_iter().map(|o| SyncMutant {
        mutant: Mutant::of_node(text, tok, o),
        part: Part::WrongObject,
    }));
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    const TABLE: &str = "struct table {\n    pthread_mutex_t table_lock;\n    pthread_mutex_t stats_lock;\n    sem_t ready;\n    int active;\n};\nvoid close_slot(struct table *t)\n{\n    pthread_mutex_lock(&t->stats_lock);\n    t->active--;\n    pthread_mutex_unlock(&t->stats_lock);\n}\n";

    #[test]
    fn a_lock_and_its_unlock_may_name_another_mutex_of_the_structure() {
        let ms = lock_swaps(TABLE, &[9]);
        assert_eq!(ms.len(), 1, "{ms:?}");
        assert_eq!(ms[0].part, Part::WrongLock);
        let fixed = ms[0].mutant.apply(TABLE).expect("applies");
        assert!(
            fixed.contains(
                "lock(&t->table_lock);\n    t->active--;\n    pthread_mutex_unlock(&t->table_lock);"
            ),
            "{fixed}"
        );
        assert_eq!(
            swapped_names(&ms[0].mutant),
            ("stats_lock".to_string(), "table_lock".to_string())
        );
        // A lock the run did not take is not tried.
        assert!(lock_swaps(TABLE, &[10]).is_empty());
    }

    const BUFFER: &str = "struct bbuf {\n    sem_t free_slots;\n    sem_t filled;\n    pthread_mutex_t lock;\n    int in;\n};\nsem_t done, started;\nint n;\nint get(struct bbuf *b) {\n    sem_wait(&b->filled);\n    sem_post(&b->filled);\n    sem_post(&done);\n    pthread_mutex_lock(&b->lock);\n    return 0;\n}\n";

    #[test]
    fn a_post_may_name_the_member_of_another_global_structure() {
        let pools = "struct pool {\n    sem_t avail;\n};\nstatic struct pool rx_pool, tx_pool;\nvoid recycle(void) {\n    sem_post(&tx_pool.avail);\n}\n";
        let got: Vec<String> = object_swaps(pools, &[6])
            .iter()
            .filter_map(|m| m.mutant.apply(pools))
            .filter_map(|t| t.lines().nth(5).map(str::to_string))
            .collect();
        assert_eq!(got, ["    sem_post(&rx_pool.avail);"]);
    }

    #[test]
    fn a_post_may_name_another_semaphore_of_its_structure_or_the_globals() {
        let ms = object_swaps(BUFFER, &[11, 12, 13]);
        let got: Vec<(u32, &str, &str)> = ms
            .iter()
            .map(|m| (m.mutant.line, m.mutant.from.as_str(), m.mutant.to.as_str()))
            .collect();
        assert_eq!(
            got,
            [(11, "filled", "free_slots"), (12, "done", "started")],
            "not the lock, not an `int`"
        );
        let fixed = ms[0].mutant.apply(BUFFER).expect("applies");
        assert!(fixed.contains("    sem_post(&b->free_slots);\n"), "{fixed}");
    }
}
