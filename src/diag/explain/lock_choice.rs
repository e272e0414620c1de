//! Where the mutex a lock call takes was chosen.
//!
//! A lock call through a local pointer (`pthread_mutex_lock(&first->lock)` after `struct
//! account *first = from;`, or `pthread_mutex_lock(guard)` after `pthread_mutex_t *guard =
//! &rl->config_lock;`) takes whatever mutex the pointer names, and the analyses see the
//! call: the lock order of a deadlock, the section under the wrong mutex. The fault is
//! often where the pointer was set — the lock order chosen by argument order rather than by
//! a rule both threads share, the mutex of the configuration where the data is the
//! bucket's — and no value change of that line avoids the failure along the run (the
//! pointer names an object; Griesmeyer's switch cannot name another one), so the diagnosis
//! never offers it. The line that set the pointer is named right after the lock call's
//! candidate, not above it: the call may be the fault itself. Two exceptions, where the
//! choice is the likelier fault: a stripe of a lock array chosen by another index than
//! the section's data, and a deadlock's two lock calls both through chosen locals
//! (`first = from; second = to;`), which spell the lock order out as the arguments'.
//!
//! Read from the source text: the pointer is a local of the function that locks (not a
//! parameter: the caller chose that one), set at most twice in it.

use tree_sitter::Node;

use crate::frontend::syntax_check::{each_descendant, text_of};

use super::{Candidate, CandidateKind, Role, renumber, same_file};

/// The calls that take or give back the object their first argument points to.
fn locks_object(name: &str) -> bool {
    matches!(
        name,
        "pthread_mutex_lock"
            | "pthread_mutex_trylock"
            | "pthread_mutex_timedlock"
            | "pthread_mutex_unlock"
            | "pthread_rwlock_rdlock"
            | "pthread_rwlock_wrlock"
            | "pthread_rwlock_unlock"
            | "pthread_spin_lock"
            | "pthread_spin_unlock"
            | "mtx_lock"
            | "mtx_unlock"
    )
}

/// Most places a local pointer may be set and still be "the" choice of the mutex.
const MAX_SETS: usize = 2;

/// A lock call's pointer and the lines that set it.
#[derive(Debug, PartialEq)]
struct Choice {
    /// The line of the lock call (from 1).
    call_line: u32,
    pointer: String,
    /// The lines (from 1) that set the pointer, and each one's statement.
    sets: Vec<(u32, String)>,
}

/// The variable an object expression is reached through: `first` in `&first->lock`,
/// `guard` in `guard`, `b` in `&b->slots[i].lock`.
fn base_variable<'t>(text: &'t str, mut n: Node<'t>) -> Option<&'t str> {
    for _ in 0..32 {
        n = match n.kind() {
            "identifier" => return Some(text_of(text, n)),
            "pointer_expression" => n.child_by_field_name("argument")?,
            "field_expression" => n.child_by_field_name("argument")?,
            "subscript_expression" => n.child_by_field_name("argument")?,
            "parenthesized_expression" => n.named_child(0)?,
            _ => return None,
        };
    }
    None
}

/// The declarator's name, through `*`s: `first` in `*first = from`.
fn declared_name<'t>(text: &'t str, mut d: Node<'t>) -> Option<(&'t str, bool)> {
    let mut pointer = false;
    for _ in 0..8 {
        match d.kind() {
            "identifier" => return Some((text_of(text, d), pointer)),
            "pointer_declarator" => {
                pointer = true;
                d = d.child_by_field_name("declarator")?;
            }
            "init_declarator" => d = d.child_by_field_name("declarator")?,
            _ => return None,
        }
    }
    None
}

/// The statement around `n`, for the candidate's words.
fn statement_text(text: &str, mut n: Node) -> String {
    while let Some(p) = n.parent() {
        if matches!(n.kind(), "declaration" | "expression_statement") {
            break;
        }
        n = p;
    }
    text_of(text, n)
        .split_whitespace()
        .collect::<Vec<_>>()
        .join(" ")
}

/// Every lock call through a local pointer set at most [`MAX_SETS`] times in its function.
fn choices(text: &str) -> Vec<Choice> {
    let Ok(tree) = crate::frontend::syntax_check::parse_c(text) else {
        return vec![];
    };
    let mut out = Vec::new();
    each_descendant(tree.root_node(), |f| {
        if f.kind() != "function_definition" {
            return;
        }
        let Some(body) = f.child_by_field_name("body") else {
            return;
        };
        // A thread's start argument (`void *arg`) is no choice between objects: `struct
        // mailbox *m = arg;` only gives it its type.
        let mut untyped: Vec<&str> = Vec::new();
        let mut declarator = f.child_by_field_name("declarator");
        while let Some(d) = declarator.filter(|d| d.kind() != "function_declarator") {
            declarator = d.child_by_field_name("declarator");
        }
        if let Some(params) = declarator.and_then(|d| d.child_by_field_name("parameters")) {
            let mut c = params.walk();
            for p in params.named_children(&mut c) {
                let is_void = p
                    .child_by_field_name("type")
                    .is_some_and(|t| text_of(text, t) == "void");
                if let Some((name, true)) = p
                    .child_by_field_name("declarator")
                    .and_then(|d| declared_name(text, d))
                    .filter(|_| is_void)
                {
                    untyped.push(name);
                }
            }
        }
        // The function's pointer locals and where each is set; a local declared twice
        // (in two blocks) is two variables, and left alone.
        let mut locals: Vec<(&str, Vec<Node>)> = Vec::new();
        let mut declared_twice: Vec<&str> = Vec::new();
        let mut assigned: Vec<(&str, Node)> = Vec::new();
        let mut calls: Vec<(u32, &str, bool)> = Vec::new();
        each_descendant(body, |n| match n.kind() {
            "declaration" => {
                let mut c = n.walk();
                for d in n.children_by_field_name("declarator", &mut c) {
                    let Some((name, pointer)) = declared_name(text, d) else {
                        continue;
                    };
                    if locals.iter().any(|(l, _)| *l == name) {
                        declared_twice.push(name);
                    }
                    if pointer {
                        let sets = if d.kind() == "init_declarator" {
                            vec![d]
                        } else {
                            vec![]
                        };
                        locals.push((name, sets));
                    }
                }
            }
            "assignment_expression" => {
                if let Some(l) = n
                    .child_by_field_name("left")
                    .filter(|l| l.kind() == "identifier")
                {
                    assigned.push((text_of(text, l), n));
                }
            }
            "call_expression" => {
                let name = n
                    .child_by_field_name("function")
                    .map(|f| text_of(text, f))
                    .unwrap_or("");
                if !locks_object(name) {
                    return;
                }
                let Some(arg) = n
                    .child_by_field_name("arguments")
                    .and_then(|a| a.named_child(0))
                else {
                    return;
                };
                let Some(base) = base_variable(text, arg) else {
                    return;
                };
                calls.push((
                    n.start_position().row as u32 + 1,
                    base,
                    arg.kind() == "identifier",
                ));
            }
            _ => {}
        });
        for (call_line, base, names_mutex) in calls {
            if declared_twice.contains(&base) {
                continue;
            }
            let Some((_, inits)) = locals.iter().find(|(l, _)| *l == base) else {
                continue;
            };
            let sets: Vec<Node> = inits
                .iter()
                .copied()
                .chain(assigned.iter().filter(|(l, _)| *l == base).map(|(_, n)| *n))
                .collect();
            // A pointer to the mutex itself (`guard`) names the lock wherever it is set;
            // a pointer to the structure that holds it (`first` in `&first->lock`) is a
            // choice of the lock only where it is set to one of several objects (`first =
            // from`, `from->id < to->id ? from : to`), not where it is the address of
            // the one element the function works on (`b = &rl->buckets[id]`).
            // Nor is a pointer moved along in a loop (`prev = cur` walking a list hand
            // over hand) one choice.
            let in_loop = |n: &Node| {
                let mut p = n.parent();
                while let Some(a) = p {
                    if matches!(
                        a.kind(),
                        "for_statement" | "while_statement" | "do_statement"
                    ) {
                        return true;
                    }
                    if a.id() == body.id() {
                        break;
                    }
                    p = a.parent();
                }
                false
            };
            let chooses = |n: &Node| {
                if in_loop(n) {
                    return false;
                }
                let value = n
                    .child_by_field_name("value")
                    .or_else(|| n.child_by_field_name("right"));
                names_mutex
                    || value.is_some_and(|v| match v.kind() {
                        "identifier" => !untyped.contains(&text_of(text, v)),
                        "conditional_expression" => true,
                        _ => false,
                    })
            };
            if sets.is_empty() || sets.len() > MAX_SETS || !sets.iter().all(chooses) {
                continue;
            }
            let sets: Vec<(u32, String)> = sets
                .into_iter()
                .map(|n| (n.start_position().row as u32 + 1, statement_text(text, n)))
                .filter(|(line, _)| *line != call_line)
                .collect();
            if !sets.is_empty() {
                out.push(Choice {
                    call_line,
                    pointer: base.to_string(),
                    sets,
                });
            }
        }
    });
    out
}

/// Names, right after each candidate on a lock call through a local pointer, the lines
/// that set the pointer (see the module's words). `text` is the source of `file`.
pub fn name_lock_choices(cands: &mut Vec<Candidate>, text: &str, file: &str) {
    let found = choices(text);
    if found.is_empty() {
        return;
    }
    // A deadlock's hold-and-wait on two lock calls whose mutexes both come through local
    // pointers (`first = from; second = to;` then lock `first`, lock `second`): the
    // function names its lock order in those locals, and a thread moving the other way
    // takes the same two calls in the opposite order. The choice is the fault there,
    // above the calls, which only carry it out.
    let in_cycle = |c: &Candidate| matches!(c.role, Role::TookHeldLock | Role::HoldsWhileBlocked);
    let ordered_pair: Vec<u32> = cands
        .iter()
        .filter(|c| in_cycle(c) && same_file(&c.file, file))
        .filter_map(|c| found.iter().find(|ch| ch.call_line == c.line))
        .map(|ch| ch.call_line)
        .collect();
    let pointers_of = |line: u32| {
        found
            .iter()
            .filter(move |ch| ch.call_line == line)
            .map(|ch| ch.pointer.as_str())
    };
    let chosen_order = |call: u32| {
        ordered_pair.contains(&call)
            && ordered_pair.iter().any(|other| {
                *other != call && pointers_of(*other).any(|p| pointers_of(call).all(|q| q != p))
            })
    };
    let mut i = 0;
    while i < cands.len() {
        let Some(c) = cands.get(i) else { break };
        if !same_file(&c.file, file) {
            i += 1;
            continue;
        }
        let call = c.line;
        let order = chosen_order(call);
        let mut at = i + 1;
        for choice in found.iter().filter(|ch| ch.call_line == call) {
            for (line, statement) in &choice.sets {
                // A stripe of a lock array chosen by another index than the data the
                // section touches: the choice is the fault, and goes above the call.
                let stripe = stripe_mismatch(text, statement, call, &choice.pointer);
                let words = match &stripe {
                    Some((lock, data)) => format!(
                        "the mutex line {call} takes through `{}` is chosen here (`{statement}`) by `{lock}`, while the section's data is chosen by `{data}`: two keys of one stripe's data take different stripes' mutexes; choose the mutex by what chooses the data",
                        choice.pointer
                    ),
                    None if order => format!(
                        "the mutex line {call} takes through `{}` is chosen here (`{statement}`), and the one the other lock call takes likewise: the lock order follows the arguments' order, so a thread passing them the other way takes the same two mutexes in the opposite order; choose the order by a rule every thread shares (an id, an address)",
                        choice.pointer
                    ),
                    None => format!(
                        "the mutex line {call} takes through `{}` is chosen here (`{statement}`): a lock order, or a lock, that depends on which object this names",
                        choice.pointer
                    ),
                };
                let above = stripe.is_some() || order;
                let target = if above { i } else { at };
                match cands
                    .iter()
                    .position(|o| o.line == *line && same_file(&o.file, file))
                {
                    // Named above already: it stays where it is.
                    Some(p) if p < target => continue,
                    Some(p) => {
                        let mut moved = cands.remove(p);
                        moved.hint = if moved.hint.is_empty() {
                            words
                        } else {
                            format!("{words}; {}", moved.hint)
                        };
                        if above {
                            moved.kind = CandidateKind::Locking;
                            if let Some(c) = cands.get(i) {
                                moved.cause |= c.cause;
                            }
                        }
                        cands.insert(target, moved);
                    }
                    None => {
                        let Some(c) = cands.get(i) else { break };
                        let source_line = text
                            .lines()
                            .nth(line.saturating_sub(1) as usize)
                            .map(str::to_string);
                        let column = source_line
                            .as_deref()
                            .map_or(1, |l| l.len() - l.trim_start().len() + 1)
                            as u32;
                        let new = Candidate {
                            file: c.file.clone(),
                            column,
                            columns: vec![column],
                            diag: 0,
                            threads: c.threads.clone(),
                            hint: words,
                            source_line,
                            cause: c.cause,
                            ..Candidate::on_line(*line, CandidateKind::Locking)
                        };
                        cands.insert(target, new);
                    }
                }
                if above {
                    i += 1;
                }
                at += 1;
            }
        }
        i = at;
    }
    renumber(cands);
}

/// The text between the last `[` and its `]` of `s`, spaces dropped.
fn last_index(s: &str) -> Option<String> {
    let open = s.rfind('[')?;
    let close = open + s.get(open..)?.find(']')?;
    let inner: String = s.get(open + 1..close)?.split_whitespace().collect();
    (!inner.is_empty()).then_some(inner)
}

/// Whether `set` (`pthread_mutex_t *m = &t->locks[key % N];`) picks a mutex from an array
/// by an index that none of the data accesses of the section the lock call at line
/// `call` opens uses, while they index by another (`t->counts[b]`): the lock's index and
/// one data index, spaces dropped. The section runs to the unlock of `pointer`, read
/// from the source text, at most 40 lines.
fn stripe_mismatch(text: &str, set: &str, call: u32, pointer: &str) -> Option<(String, String)> {
    let lock = last_index(set.split('=').nth(1)?)?;
    let unlock = |l: &str| {
        l.contains("unlock") && {
            let compact: String = l.split_whitespace().collect();
            compact.contains(&format!("({pointer})"))
        }
    };
    let mut data: Vec<String> = Vec::new();
    for l in text
        .lines()
        .skip(call as usize)
        .take(40)
        .take_while(|l| !unlock(l))
    {
        let mut rest = l;
        while let Some(open) = rest.find('[') {
            let Some(close) = rest.get(open..).and_then(|r| r.find(']')) else {
                break;
            };
            let inner: String = rest
                .get(open + 1..open + close)
                .unwrap_or_default()
                .split_whitespace()
                .collect();
            if !inner.is_empty() {
                data.push(inner);
            }
            rest = rest.get(open + close + 1..).unwrap_or_default();
        }
    }
    if data.contains(&lock) {
        return None;
    }
    if let Some(d) = data.into_iter().next() {
        return Some((lock, d));
    }
    other_element_pointer(text, set, call, pointer, &lock)
}

/// The section reaches its data through another local pointer into the same table than
/// the mutex's element, set by another expression (`bk = bucket_for(t, key)` beside
/// `m = &t->b[key % N].mtx`): the two may name different elements. That pointer's
/// setting, as `bk = bucket_for(t, key)`, spaces dropped.
fn other_element_pointer(
    text: &str,
    set: &str,
    call: u32,
    pointer: &str,
    lock: &str,
) -> Option<(String, String)> {
    let value = set.split_once('=')?.1;
    let root: String = value
        .trim_start()
        .trim_start_matches('&')
        .chars()
        .take_while(|c| c.is_ascii_alphanumeric() || *c == '_')
        .collect();
    if root.is_empty() {
        return None;
    }
    let compact = |s: &str| s.split_whitespace().collect::<String>();
    let lines: Vec<&str> = text.lines().collect();
    let at = (call as usize).saturating_sub(1);
    let section =
        lines.iter().skip(at + 1).take(40).take_while(|l| {
            !(l.contains("unlock") && compact(l).contains(&format!("({pointer})")))
        });
    for l in section {
        let mut rest = *l;
        while let Some(arrow) = rest.find("->") {
            let base: String = rest[..arrow]
                .chars()
                .rev()
                .take_while(|c| c.is_ascii_alphanumeric() || *c == '_')
                .collect::<Vec<char>>()
                .into_iter()
                .rev()
                .collect();
            rest = rest.get(arrow + 2..).unwrap_or_default();
            if base.is_empty() || base == pointer || base == root {
                continue;
            }
            // Its setting above the call, in the same function (the nearest one).
            let setting = lines.iter().take(at).rev().take(40).find_map(|s| {
                let c = compact(s);
                let (lhs, rhs) = c.split_once('=')?;
                let named = lhs.trim_start_matches("struct").ends_with(&base)
                    && lhs
                        .strip_suffix(base.as_str())
                        .is_some_and(|p| p.is_empty() || p.ends_with(['*', ' ']));
                (named && !rhs.starts_with('=')).then(|| rhs.trim_end_matches(';').to_string())
            })?;
            let mentions_root = setting
                .split(|c: char| !(c.is_ascii_alphanumeric() || c == '_'))
                .any(|w| w == root);
            if mentions_root && !setting.contains(lock) {
                return Some((lock.to_string(), format!("{base}={setting}")));
            }
        }
    }
    None
}

#[cfg(test)]
mod tests {
    use super::*;

    const TRANSFER: &str = "struct account { pthread_mutex_t lock; long balance; };\nint transfer(struct account *from, struct account *to)\n{\n    struct account *first = from;\n    struct account *second = to;\n    pthread_mutex_lock(&first->lock);\n    pthread_mutex_lock(&second->lock);\n    from->balance--;\n    pthread_mutex_unlock(&second->lock);\n    pthread_mutex_unlock(&from->lock);\n    return 0;\n}\n";

    #[test]
    fn a_lock_through_a_local_pointer_names_where_the_pointer_was_set() {
        let found = choices(TRANSFER);
        let lines: Vec<(u32, u32)> = found
            .iter()
            .flat_map(|c| c.sets.iter().map(move |(l, _)| (c.call_line, *l)))
            .collect();
        // `from` is a parameter: its unlock names no line.
        assert_eq!(lines, vec![(6, 4), (7, 5), (9, 5)]);
        assert_eq!(found[0].sets[0].1, "struct account *first = from;");
    }

    #[test]
    fn the_line_that_set_the_pointer_follows_the_lock_calls_candidate() {
        let mut cands = vec![
            Candidate::on_line(6, CandidateKind::Locking),
            Candidate::on_line(8, CandidateKind::Value),
            Candidate::on_line(5, CandidateKind::Value),
        ];
        name_lock_choices(&mut cands, TRANSFER, "p.c");
        let order: Vec<u32> = cands.iter().map(|c| c.line).collect();
        assert_eq!(order, vec![6, 4, 8, 5]);
        assert!(cands[1].hint.contains("`first`"), "{}", cands[1].hint);
        assert_eq!(cands[1].rank, 2);
        // The address of the one element a function works on chooses no lock.
        let element = "void take(struct pool *p, int i)\n{\n    struct bucket *b = &p->buckets[i];\n    pthread_mutex_lock(&b->lock);\n}\n";
        assert!(choices(element).is_empty());
        let guard = "void refill(struct pool *p)\n{\n    pthread_mutex_t *guard = &p->config_lock;\n    pthread_mutex_lock(guard);\n}\n";
        assert_eq!(choices(guard).len(), 1);
        let start = "void *executor(void *arg)\n{\n    struct mailbox *m = arg;\n    pthread_mutex_lock(&m->lock);\n    return 0;\n}\n";
        assert!(choices(start).is_empty());
        let walk = "int reap(struct session *head)\n{\n    struct session *prev = head, *cur;\n    pthread_mutex_lock(&prev->lock);\n    while ((cur = prev->next) != 0) {\n        pthread_mutex_unlock(&prev->lock);\n        prev = cur;\n    }\n    return 0;\n}\n";
        assert!(choices(walk).is_empty());
        // A pointer set three times is no one choice.
        let many = "void f(pthread_mutex_t *a, pthread_mutex_t *b)\n{\n    pthread_mutex_t *m = a;\n    if (a) m = b;\n    else m = a;\n    pthread_mutex_lock(m);\n}\n";
        assert!(choices(many).is_empty());
    }

    #[test]
    fn a_lock_order_chosen_by_two_locals_goes_above_the_deadlocked_calls() {
        let role = |line, role| Candidate {
            role,
            ..Candidate::on_line(line, CandidateKind::Locking)
        };
        let mut cands = vec![
            role(6, Role::TookHeldLock),
            role(7, Role::HoldsWhileBlocked),
            Candidate::on_line(8, CandidateKind::Value),
        ];
        name_lock_choices(&mut cands, TRANSFER, "p.c");
        let order: Vec<u32> = cands.iter().map(|c| c.line).collect();
        assert_eq!(order, vec![4, 6, 5, 7, 8]);
        assert!(
            cands[0].hint.contains("opposite order"),
            "{}",
            cands[0].hint
        );
        // One of the two calls through a choice: the choice follows its call.
        let one = TRANSFER.replace(
            "lock(&second->lock);\n    from",
            "lock(&to->lock);\n    from",
        );
        let mut cands = vec![
            role(6, Role::TookHeldLock),
            role(7, Role::HoldsWhileBlocked),
        ];
        name_lock_choices(&mut cands, &one, "p.c");
        let order: Vec<u32> = cands.iter().map(|c| c.line).collect();
        assert_eq!(order, vec![6, 4, 7]);
    }

    #[test]
    fn a_stripe_chosen_by_another_index_than_the_data_goes_above_the_call() {
        let striped = "void dec(struct table *t, int key)\n{\n    unsigned b = key % 8;\n    pthread_mutex_t *m = &t->locks[key % 4];\n    pthread_mutex_lock(m);\n    t->counts[b]--;\n    pthread_mutex_unlock(m);\n}\n";
        let mut cands = vec![
            Candidate::on_line(5, CandidateKind::Locking),
            Candidate::on_line(6, CandidateKind::Value),
        ];
        name_lock_choices(&mut cands, striped, "p.c");
        let order: Vec<u32> = cands.iter().map(|c| c.line).collect();
        assert_eq!(order, vec![4, 5, 6]);
        assert!(cands[0].hint.contains("`key%4`"), "{}", cands[0].hint);
        // Chosen by the data's own index: after the call, as any choice.
        let same = striped
            .replace("locks[key % 4]", "locks[b % 4]")
            .replace("counts[b]", "counts[b % 4]");
        let mut cands = vec![Candidate::on_line(5, CandidateKind::Locking)];
        name_lock_choices(&mut cands, &same, "p.c");
        let order: Vec<u32> = cands.iter().map(|c| c.line).collect();
        assert_eq!(order, vec![5, 4]);
    }

    #[test]
    fn a_stripe_chosen_apart_from_the_pointer_to_the_data_goes_above_the_call() {
        let apart = "void add(struct table *t, int key)\n{\n    struct bucket *bk = bucket_for(t, key);\n    pthread_mutex_t *m = &t->b[key % 3].mtx;\n    pthread_mutex_lock(m);\n    bk->count++;\n    pthread_mutex_unlock(m);\n}\n";
        let mut cands = vec![
            Candidate::on_line(5, CandidateKind::Locking),
            Candidate::on_line(6, CandidateKind::Value),
        ];
        name_lock_choices(&mut cands, apart, "p.c");
        let order: Vec<u32> = cands.iter().map(|c| c.line).collect();
        assert_eq!(order, vec![4, 5, 6]);
        assert!(
            cands[0].hint.contains("bk=bucket_for(t,key)"),
            "{}",
            cands[0].hint
        );
        // The data's pointer set from the mutex's own element: after the call.
        let together = apart.replace("bucket_for(t, key)", "&t->b[key % 3]");
        let mut cands = vec![Candidate::on_line(5, CandidateKind::Locking)];
        name_lock_choices(&mut cands, &together, "p.c");
        let order: Vec<u32> = cands.iter().map(|c| c.line).collect();
        assert_eq!(order, vec![5, 4]);
    }
}
