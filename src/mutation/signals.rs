//! A wake-up sent before the change it announces: `pthread_cond_signal(&cv);` and only
//! then `done = 1;`. A waiter that tests `done` between the two finds it unset and waits
//! for a signal that has already gone: a lost wake-up. A `sem_post` made before the copy
//! it announces is done (`sem_post(&copied); quota = args->quota;`) is the same mistake:
//! the poster's creator rewrites `args` first.
//!
//! A call of the program's own function that gives something back (`pool_put(b)`,
//! `session_put(s)`: it unlocks, posts or signals) made before the use it should follow
//! is the same mistake, and moves the same way.
//!
//! And its mirror, a wait made after the statements it should protect: a
//! `pthread_barrier_wait`, `sem_wait` or `pthread_join` below a read of what the other
//! threads write before they arrive (`merge(); pthread_barrier_wait(&b);` for the
//! opposite order), never moved above a thread's creation (that serializes the threads
//! rather than ordering one access).
//!
//! Why mutants of their own: along the failing schedule the wake-up ran (to nobody), or
//! the read ran before the wait; no value either line computes avoids the failure — the
//! fix is where the call stands. A wake-up's mutant moves the call statement down past
//! one, two, … of the statements that follow it in its block, a wait's moves it up past
//! those before it (at most [`FURTHEST`], never across a `return`, `break`, `continue`
//! or `goto`, nor a declaration whose name the call uses), and counts, as every mutant,
//! only when the oracle proves the moved program free of failures and deadlocks in every
//! execution.

use tree_sitter::Node;

use super::operators::{Mutant, each_node, text_of};
use super::primitives::{Part, SyncMutant};

/// How many statements a signal is moved past, at most.
const FURTHEST: usize = 4;

fn is_wake_up(name: &str) -> bool {
    matches!(
        name,
        "pthread_cond_signal"
            | "pthread_cond_broadcast"
            | "cnd_signal"
            | "cnd_broadcast"
            | "sem_post"
    )
}

/// A wait that lets a thread on only once the others have done their part: nothing but
/// its place decides what it protects. (A condition wait sits in a loop on its
/// predicate, a join is the repair's `joins`.)
fn is_gate(name: &str) -> bool {
    matches!(
        name,
        "pthread_barrier_wait" | "sem_wait" | "pthread_join" | "thrd_join"
    )
}

/// A call that takes or releases a lock.
pub(super) fn is_lock_call(name: &str) -> bool {
    ["pthread_mutex_", "pthread_rwlock_", "pthread_spin_", "mtx_"]
        .iter()
        .any(|p| name.starts_with(p))
        && !name.ends_with("_init")
        && !name.ends_with("_destroy")
}

/// A statement that starts a thread: no wait moves above it, which would serialize the
/// threads (a join before the other's creation removes every race between them) rather
/// than order one access.
fn creates_thread(name: &str) -> bool {
    matches!(name, "pthread_create" | "thrd_create")
}

/// The moves of the wake-up calls on `lines` (from 1) of `text`, down their blocks, and
/// of the calls of the program's own functions that give something back (an unlock, a
/// post, a signal: `pool_put(b)`, `session_put(s)`), which can be made before the use
/// they should follow.
pub fn signal_moves(text: &str, lines: &[u32]) -> Vec<SyncMutant> {
    // Not a function that waits for its turn: made later, it only takes later.
    let releasing = super::callees::giving_functions(text);
    let mut out = Vec::new();
    each_node(text, |n| {
        if n.kind() == "compound_statement" {
            moves_in_block(text, n, lines, &releasing, &mut out);
        }
    });
    out
}

/// The moves of the barrier and semaphore waits on `lines` (from 1) of `text`, up
/// their blocks.
pub fn wait_moves(text: &str, lines: &[u32]) -> Vec<SyncMutant> {
    let mut out = Vec::new();
    each_node(text, |n| {
        if n.kind() == "compound_statement" {
            moves_up_in_block(text, n, lines, &mut out);
        }
    });
    out
}

/// A release that gives back what the thread no longer holds: the error path that
/// posts a semaphore used as a lock (or unlocks, or calls the program's own function that
/// gives back more than it takes) before the common exit that posts it again, or a
/// helper that ends by releasing its caller's lock. Each such call on `lines` (from 1)
/// of `text`, in a branch of an `if` or last in a function that does more, is removed
/// (the statement becomes `;`, lines kept). Removing a release the program needs leaves
/// a thread waiting for ever: the oracle, which proves a mutant free of failures and of
/// deadlocks, rejects it.
pub fn extra_release_mutants(text: &str, lines: &[u32]) -> Vec<SyncMutant> {
    // A call of a function that takes and gives back is a whole critical section:
    // removing it removes what the thread does, not a release one too many.
    let releasing = super::callees::net_releasing_functions(text);
    let mut out = Vec::new();
    each_node(text, |n| {
        if n.kind() != "expression_statement" || !(in_branch(n) || ends_helper(n)) {
            return;
        }
        let name = n
            .named_child(0)
            .and_then(|c| super::callees::called(text, c))
            .unwrap_or("");
        let own = releasing.iter().find(|(r, _)| r == name);
        let gives_back = matches!(
            name,
            "sem_post" | "pthread_mutex_unlock" | "pthread_spin_unlock" | "mtx_unlock"
        ) || own.is_some();
        let row = n.start_position().row as u32 + 1;
        let reached = lines.contains(&row)
            || own.is_some_and(|(_, (from, to))| lines.iter().any(|l| (from..=to).contains(&l)));
        if !gives_back || !reached {
            return;
        }
        let removed = |to: String| SyncMutant {
            mutant: Mutant {
                line: row,
                column: n.start_position().column as u32 + 1,
                start: n.start_byte(),
                end: n.end_byte(),
                from: text_of(text, n).to_string(),
                to,
            },
            part: Part::ExtraRelease,
        };
        out.push(removed(";".to_string()));
        // A helper that also changes state (`dev_release(d)`: `d->busy = 0;` and a post):
        // its state change without its release, which the caller makes again.
        let call = n.named_child(0);
        let args: Vec<&str> = call
            .and_then(|c| c.child_by_field_name("arguments"))
            .map(|a| {
                let mut cursor = a.walk();
                a.named_children(&mut cursor)
                    .map(|x| text_of(text, x))
                    .collect()
            })
            .unwrap_or_default();
        if own.is_some() {
            if let Some(body) = super::callees::body_without_releases(text, name, &args) {
                out.push(removed(body));
            }
        }
    });
    out
}

/// Whether statement `n` is the last of a function body that does more than it: a
/// helper that ends by giving back its caller's lock (`flush(l)` ending in `unlock(l)`),
/// which its caller, not knowing, gives back again.
fn ends_helper(n: Node) -> bool {
    let Some(body) = n.parent().filter(|b| b.kind() == "compound_statement") else {
        return false;
    };
    if body
        .parent()
        .is_none_or(|f| f.kind() != "function_definition")
    {
        return false;
    }
    let mut cursor = body.walk();
    let stmts: Vec<Node> = body
        .named_children(&mut cursor)
        .filter(|c| c.kind() != "comment")
        .collect();
    stmts.len() >= 2 && stmts.last().is_some_and(|l| l.id() == n.id())
}

/// Whether statement `n` runs only on one branch of an `if` (directly, or in the block
/// that is the branch).
fn in_branch(n: Node) -> bool {
    let mut p = n.parent();
    if p.is_some_and(|b| b.kind() == "compound_statement") {
        p = p.and_then(|b| b.parent());
    }
    p.is_some_and(|b| matches!(b.kind(), "if_statement" | "else_clause"))
}

/// The start of the line that holds byte `at`.
pub(super) fn line_start(text: &str, at: usize) -> usize {
    text.get(..at)
        .and_then(|t| t.rfind('\n'))
        .map_or(0, |i| i + 1)
}

/// The end of the line that holds byte `at`, past its newline.
pub(super) fn line_end(text: &str, at: usize) -> usize {
    text.get(at..)
        .and_then(|t| t.find('\n'))
        .map_or(text.len(), |i| at + i + 1)
}

/// Whether `n` has its lines to itself: nothing but blanks before it on its first line
/// and after it on its last.
pub(super) fn owns_lines(text: &str, n: Node) -> bool {
    let (a, b) = (n.start_byte(), n.end_byte());
    let before = text.get(line_start(text, a)..a).unwrap_or("x");
    let after = text.get(b..line_end(text, b)).unwrap_or("x");
    before.trim().is_empty() && after.trim().is_empty()
}

fn moves_in_block(
    text: &str,
    block: Node,
    lines: &[u32],
    releasing: &[(String, (u32, u32))],
    out: &mut Vec<SyncMutant>,
) {
    let (stmts, names) = calls_in(text, block);
    for (i, s) in stmts.iter().enumerate() {
        let row = s.start_position().row as u32 + 1;
        let name = names.get(i).copied().unwrap_or("");
        // A call of the program's own function shows in a run by its body's lines,
        // not by its own: any run of the body counts (the oracle decides).
        let reached = lines.contains(&row)
            || releasing
                .iter()
                .any(|(r, (from, to))| r == name && lines.iter().any(|l| (from..=to).contains(&l)));
        if !(is_wake_up(name) || releasing.iter().any(|(r, _)| r == name))
            || !reached
            || !owns_lines(text, *s)
        {
            continue;
        }
        let from = line_start(text, s.start_byte());
        let own_end = line_end(text, s.end_byte());
        let Some(own) = text.get(from..own_end) else {
            continue;
        };
        let release = !is_wake_up(name);
        for (k, next) in stmts.iter().enumerate().skip(i + 1).take(FURTHEST) {
            // A releasing call moved past a lock or unlock would leave or enter a
            // critical section: a lock order changed, not a release made later.
            if matches!(
                next.kind(),
                "return_statement" | "break_statement" | "continue_statement" | "goto_statement"
            ) || !owns_lines(text, *next)
                || (release && names.get(k).is_some_and(|n| is_lock_call(n)))
            {
                break;
            }
            let end = line_end(text, next.end_byte());
            let Some(between) = text.get(own_end..end) else {
                break;
            };
            let mut to = between.to_string();
            if !to.ends_with('\n') {
                to.push('\n');
            }
            to.push_str(own);
            out.push(SyncMutant {
                mutant: Mutant {
                    line: row,
                    column: s.start_position().column as u32 + 1,
                    start: from,
                    end,
                    from: text_of(text, *s).to_string(),
                    to,
                },
                part: if release {
                    Part::ReleaseOrder
                } else {
                    Part::SignalOrder
                },
            });
        }
    }
}

/// The statements of `block`, and the function each calls when it is a call statement
/// (else "").
fn calls_in<'t>(text: &'t str, block: Node<'t>) -> (Vec<Node<'t>>, Vec<&'t str>) {
    let mut cursor = block.walk();
    let stmts: Vec<Node> = block
        .named_children(&mut cursor)
        .filter(|c| c.kind() != "comment")
        .collect();
    let names = stmts
        .iter()
        .map(|s| {
            s.named_child(0)
                .filter(|_| s.kind() == "expression_statement")
                .and_then(|c| super::callees::called(text, c))
                .unwrap_or("")
        })
        .collect();
    (stmts, names)
}

fn moves_up_in_block(text: &str, block: Node, lines: &[u32], out: &mut Vec<SyncMutant>) {
    let (stmts, names) = calls_in(text, block);
    for (i, s) in stmts.iter().enumerate() {
        let row = s.start_position().row as u32 + 1;
        let name = names.get(i).copied().unwrap_or("");
        if !is_gate(name) || !lines.contains(&row) || !owns_lines(text, *s) {
            continue;
        }
        let own_start = line_start(text, s.start_byte());
        let to = line_end(text, s.end_byte());
        let Some(own) = text.get(own_start..to) else {
            continue;
        };
        let mut own = own.to_string();
        if !own.ends_with('\n') {
            own.push('\n');
        }
        let call = text_of(text, *s);
        for (k, prev) in stmts.iter().enumerate().take(i).rev().take(FURTHEST) {
            if matches!(
                prev.kind(),
                "return_statement" | "break_statement" | "continue_statement" | "goto_statement"
            ) || !owns_lines(text, *prev)
                || declares_used(text, *prev, call)
                || names.get(k).is_some_and(|n| creates_thread(n))
            {
                break;
            }
            let from = line_start(text, prev.start_byte());
            let Some(between) = text.get(from..own_start) else {
                break;
            };
            out.push(SyncMutant {
                mutant: Mutant {
                    line: row,
                    column: s.start_position().column as u32 + 1,
                    start: from,
                    end: to,
                    from: call.to_string(),
                    to: format!("{own}{between}"),
                },
                part: Part::WaitOrder,
            });
        }
    }
}

/// `stmt` declares a name that `call`'s text uses: the call cannot move above it.
fn declares_used(text: &str, stmt: Node, call: &str) -> bool {
    if stmt.kind() != "declaration" {
        return false;
    }
    let mut names = Vec::new();
    each_identifier(stmt, &mut |n| {
        if n.parent().is_some_and(|p| {
            matches!(
                p.kind(),
                "init_declarator" | "array_declarator" | "pointer_declarator" | "declaration"
            )
        }) {
            names.push(text_of(text, n).to_string());
        }
    });
    names.iter().any(|n| mentions(call, n))
}

fn each_identifier<'t>(n: Node<'t>, f: &mut dyn FnMut(Node<'t>)) {
    if n.kind() == "identifier" {
        f(n);
    }
    let mut c = n.walk();
    for ch in n.named_children(&mut c) {
        each_identifier(ch, f);
    }
}

/// `text` names the identifier `name` (not as a part of a longer one).
pub(super) fn mentions(text: &str, name: &str) -> bool {
    text.match_indices(name).any(|(at, _)| {
        let ident = |c: char| c.is_alphanumeric() || c == '_';
        let before = text.get(..at).and_then(|t| t.chars().next_back());
        let after = text.get(at + name.len()..).and_then(|t| t.chars().next());
        !before.is_some_and(ident) && !after.is_some_and(ident)
    })
}

/// The line a move puts the signal after (its mutant's text ends with the signal's own
/// line).
pub fn moved_after(m: &Mutant) -> u32 {
    m.line + m.to.lines().count().saturating_sub(1) as u32
}

/// The line a move puts the wait before (its mutant's text starts with the wait's own
/// line, then the first statement it moved above).
pub fn moved_before(m: &Mutant) -> u32 {
    m.line
        .saturating_sub(m.to.lines().count().saturating_sub(1) as u32)
}

#[cfg(test)]
mod tests {
    use super::*;

    const PROG: &str = "void *w(void *a) {\n  int n = 1;\n  pthread_cond_signal(&cv);\n  pthread_mutex_lock(&m);\n  done = n;\n  pthread_mutex_unlock(&m);\n  return a;\n}\nvoid f(void) { if (x) pthread_cond_signal(&cv); pthread_cond_broadcast(&cv); x = 1; }\n";

    #[test]
    fn a_signal_moves_down_its_block_up_to_a_return() {
        let ms = signal_moves(PROG, &[3, 9]);
        let afters: Vec<u32> = ms.iter().map(|m| moved_after(&m.mutant)).collect();
        assert_eq!(
            afters,
            [4, 5, 6],
            "not past the return; line 9 shares its line"
        );
        let moved = ms[2].mutant.apply(PROG).expect("applies");
        assert!(
            moved.contains("  int n = 1;\n  pthread_mutex_lock(&m);\n  done = n;\n  pthread_mutex_unlock(&m);\n  pthread_cond_signal(&cv);\n  return a;"),
            "{moved}"
        );
        assert!(
            signal_moves(PROG, &[4]).is_empty(),
            "only a signal the run reached"
        );
    }

    const GATED: &str = "void *w(void *a) {\n  int me = *(int *)a;\n  cell[me] = 1;\n  int near = cell[1 - me];\n  pthread_barrier_wait(&b);\n  sem_t *s = a;\n  got = near;\n  sem_wait(s);\n  return a;\n}\n";

    #[test]
    fn a_wait_moves_up_its_block_above_no_declaration_it_uses() {
        let ms = wait_moves(GATED, &[5, 8]);
        let befores: Vec<(u32, u32)> = ms
            .iter()
            .map(|m| (m.mutant.line, moved_before(&m.mutant)))
            .collect();
        assert_eq!(
            befores,
            [(5, 4), (5, 3), (5, 2), (8, 7)],
            "the sem_wait stops at the declaration of `s`"
        );
        assert!(ms.iter().all(|m| m.part == Part::WaitOrder));
        let moved = ms[0].mutant.apply(GATED).expect("applies");
        assert!(
            moved.contains("  cell[me] = 1;\n  pthread_barrier_wait(&b);\n  int near = cell[1 - me];\n  sem_t *s = a;"),
            "{moved}"
        );
        assert!(
            wait_moves(GATED, &[4]).is_empty(),
            "only a wait the run reached"
        );
    }

    #[test]
    fn a_post_moves_down_like_a_signal() {
        let ms = signal_moves(GATED.replace("sem_wait", "sem_post").as_str(), &[8]);
        assert!(ms.is_empty(), "not past the return");
        let posted = "void f(void) {\n  sem_post(&s);\n  int t = slot;\n  got = t;\n}\n";
        let afters: Vec<u32> = signal_moves(posted, &[2])
            .iter()
            .map(|m| moved_after(&m.mutant))
            .collect();
        assert_eq!(afters, [3, 4]);
    }

    #[test]
    fn a_join_moves_up_but_never_above_a_creation() {
        let prog = "int main(void) {\n  pthread_create(&a, 0, f, 0);\n  pthread_create(&b, 0, g, 0);\n  give_back(buf);\n  x = 1;\n  pthread_join(a, 0);\n  return 0;\n}\n";
        let befores: Vec<u32> = wait_moves(prog, &[6])
            .iter()
            .map(|m| moved_before(&m.mutant))
            .collect();
        assert_eq!(befores, [5, 4], "not above the creation of `b`");
    }

    #[test]
    fn a_call_of_a_releasing_function_moves_down_as_a_release() {
        let prog = "void give_back(int *b) {\n  lock(&m);\n  pthread_mutex_unlock(&m);\n}\nvoid keep(int *b) { *b = 0; }\nint main(void) {\n  give_back(buf);\n  keep(buf);\n  use(buf);\n  return 0;\n}\n";
        let ms = signal_moves(prog, &[7, 8]);
        let got: Vec<(u32, u32, Part)> = ms
            .iter()
            .map(|m| (m.mutant.line, moved_after(&m.mutant), m.part))
            .collect();
        assert_eq!(
            got,
            [(7, 8, Part::ReleaseOrder), (7, 9, Part::ReleaseOrder)],
            "`keep` gives nothing back"
        );
        let waits = prog.replace("  lock(&m);", "  pthread_cond_wait(&c, &m);");
        assert!(
            signal_moves(&waits, &[7, 8]).is_empty(),
            "a function that waits for its turn gives nothing"
        );
        let nested = prog.replace("  keep(buf);\n", "  pthread_mutex_unlock(&n);\n");
        assert!(
            signal_moves(&nested, &[7]).is_empty(),
            "not out of the section it is called in"
        );
    }
    /// A post in a branch and the closing post of a function that does more are removal
    /// mutants (the oracle rejects those the program needs); the post of a function
    /// that does nothing else, and one not run, are not.
    #[test]
    fn releases_in_branches_and_ending_helpers_are_removed() {
        let text = "void give(void) {\n  sem_post(&s);\n}\n\
void flush(void) {\n  n = 0;\n  sem_post(&s);\n}\n\
void put(int v) {\n  sem_wait(&s);\n  if (v < 0) {\n    give();\n  }\n  sem_post(&s);\n}\n";
        let ms = extra_release_mutants(text, &[2, 5, 6, 9, 10, 11, 13]);
        let lines: Vec<u32> = ms.iter().map(|m| m.mutant.line).collect();
        assert_eq!(lines, vec![6, 11, 13], "{ms:?}");
        assert!(
            ms.iter()
                .all(|m| m.part == Part::ExtraRelease && m.mutant.to == ";")
        );
        assert!(extra_release_mutants(text, &[9]).is_empty());
        // A helper that takes the lock and gives it back is a section of its own.
        let balanced = text.replace(
            "  sem_post(&s);\n}\nvoid flush",
            "  sem_wait(&t);\n  sem_post(&t);\n}\nvoid flush",
        );
        let lines: Vec<u32> = extra_release_mutants(&balanced, &[2, 3, 6, 7, 10, 11, 12, 14])
            .iter()
            .map(|m| m.mutant.line)
            .collect();
        assert_eq!(lines, vec![3, 7, 14], "not the call of `give` at line 12");
    }

    /// A helper that changes state and releases is also replaced by its state change
    /// alone, its parameters named by the call's arguments.
    #[test]
    fn a_releasing_helper_in_a_branch_keeps_its_state_change() {
        let text = "void done(struct dev *d, int v) {\n  d->busy = v;\n  sem_post(&d->sem);\n}\n\
void put(struct dev *x, int v) {\n  sem_wait(&x->sem);\n  if (v < 0) {\n    done(x + 1, 0);\n  }\n  sem_post(&x->sem);\n}\n";
        let got: Vec<(u32, String)> = extra_release_mutants(text, &[2, 3, 6, 7, 8, 10])
            .into_iter()
            .map(|m| (m.mutant.line, m.mutant.to))
            .collect();
        assert_eq!(
            got,
            [
                (3, ";".to_string()),
                (8, ";".to_string()),
                (8, "(x + 1)->busy = 0;".to_string()),
                (10, ";".to_string())
            ]
        );
    }
}
