//! Where a line that a primitive mutant fixed goes in the ranking: first, as a cause, or
//! after the analyses' causes when the fix changes how much a thread does (a start value,
//! a loop bound, a bounds check, a semaphore count raised from 0) — and the words that
//! say what changed.

use super::{
    Part, PrimitiveEvidence, callbacks, gate_writes, guards, objects, release_paths, sections,
    signals, stale_values, wakes,
};
use crate::diag::explain::{Candidate, CandidateKind, ThreadRef, renumber, same_file};

/// Puts the lines a primitive mutant fixed first, as causes: the candidate the line
/// already had, or a new one on `file` (the input, as the other candidates name it).
/// `thread` names a thread of the run, `source` gives a line's text.
pub fn apply_primitive_fixes(
    cands: &mut Vec<Candidate>,
    ev: &PrimitiveEvidence,
    file: &str,
    thread: &dyn Fn(u32) -> ThreadRef,
    source: &dyn Fn(u32) -> Option<String>,
    order_independent: bool,
) {
    if ev.fixes.is_empty() {
        return;
    }
    // Several fixes: those on lines the ranking already named first, in its order, then
    // the others in the run's. A fix can be degenerate (a producer's wait test changed to
    // fit a consumer's wrong one leaves no deadlock, and no assertion to catch the
    // counts); the line the analyses found is the likelier fault.
    let mut front: Vec<((u32, usize, u32), Candidate)> = Vec::new();
    // A start value that fixes comes after the causes the analyses found: a count that
    // gates a wait "fixed" to start above zero lets the waiter go on at once (a consumer
    // takes an item nobody made), and where the threads' order is the fault the
    // analyses named it (measured: three of the 64 buggy benchmarks lost their first
    // line to such a start value when it came first). Unless every run with these
    // inputs fails whatever the order (`order_independent`): then no order is the
    // fault, and the analyses' "causes" are only where this run diverged.
    let mut after_causes: Vec<((u32, usize, u32), Candidate)> = Vec::new();
    // An access the lock-set analysis found made without the lock the other thread held
    // (`readers--` outside `rw_lock`): a flag swapped in a wait test then "fixes" by
    // serializing the threads around it, and the access is the fault.
    let unprotected = cands.iter().any(|c| {
        c.cause && c.role == crate::diag::explain::Role::Unprotected && same_file(&c.file, file)
    });
    // A path that leaves a function holding its lock (`return -1;` before the unlock)
    // is a defect whatever the schedule: a call or a wait moved elsewhere "fixes" the
    // deadlock only by having no thread lock after that path (a reaper that closes the
    // session last), after that cause.
    let skipped_unlock = cands.iter().any(|c| {
        c.cause && c.role == crate::diag::explain::Role::SkippedUnlock && same_file(&c.file, file)
    });
    let let_through = cands.iter().any(|c| {
        c.cause
            && c.role == crate::diag::explain::Role::TrylockLetThrough
            && same_file(&c.file, file)
    });
    for f in &ev.fixes {
        let m = &f.mutant;
        let on_line = |c: &Candidate| c.line == m.line && same_file(&c.file, file);
        // A wait moved up, or a release moved down, past a line the analyses already
        // named as a cause: the move orders that line by serializing it (`join` above
        // main's own racing `hits++`), and the line is the better-explained fault. Such
        // a move is no evidence.
        let jumped = match f.part {
            Part::WaitOrder => Some(signals::moved_before(m)..m.line),
            Part::ReleaseOrder => Some(m.line + 1..signals::moved_after(m) + 1),
            _ => None,
        };
        let serializes = jumped.is_some_and(|lines| {
            cands
                .iter()
                .any(|c| c.cause && same_file(&c.file, file) && lines.contains(&c.line))
        });
        if serializes {
            continue;
        }
        let had = cands.iter().find(|c| on_line(c)).map(|c| c.rank);
        // A lock swap is symmetric (`table_lock` for `stats_lock` here, or the reverse in
        // the other section), and the lock-set analyses already rank the sections of a
        // datum by the other accesses; the swap says how to fix the line where they put
        // it, and does not move it (measured: moved first, it put the wrong section of
        // two first, and a whole section before the one access the analyses named).
        let keep_at = cands
            .iter()
            .position(on_line)
            .filter(|_| f.part == Part::WrongLock);
        let mut c = match cands.iter().position(on_line) {
            Some(i) => cands.remove(i),
            None => {
                let kind = if matches!(
                    f.part,
                    Part::StartValue
                        | Part::LoopBound
                        | Part::Guard
                        | Part::WakeGuard
                        | Part::StoreTarget
                        | Part::GateWrite
                        | Part::StaleRetry
                        | Part::StaleCopy
                        | Part::CopyBeforeWait
                        | Part::BoundCheck
                ) {
                    CandidateKind::Value
                } else if f.part.is_locking() || m.from.contains("lock") {
                    CandidateKind::Locking
                } else {
                    CandidateKind::Ordering
                };
                Candidate {
                    file: file.to_string(),
                    column: m.column,
                    columns: vec![m.column],
                    diag: 0,
                    threads: f.threads.iter().map(|t| thread(*t)).collect(),
                    source_line: source(m.line),
                    ..Candidate::on_line(m.line, kind)
                }
            }
        };
        let change = match f.part {
            // The mutant rewrites the whole statement; what changes for the reader is the
            // argument.
            Part::ArgumentCopy => format!(
                "a copy of its own for each thread, not `{}` (column {})",
                m.from, m.column
            ),
            Part::SignalOrder | Part::ReleaseOrder => {
                format!("`{}` moved after line {}", m.from, signals::moved_after(m))
            }
            Part::Callee => format!("a call of `{}`, not `{}`", m.to, m.from),
            Part::ExtraRelease if m.to == ";" => format!("removing `{}`", m.from),
            Part::ExtraRelease => format!("`{}` for `{}`, its release left out", m.to, m.from),
            Part::MissingWake => format!("`{}` added after it", wakes::added_call(m)),
            Part::CopyBeforeWait => format!(
                "`{}` moved after the wait (line {})",
                m.from,
                signals::moved_after(m)
            ),
            Part::StaleRetry => format!(
                "`{}` moved into the loop (line {}), computed each round",
                m.from,
                stale_values::moved_into(m)
            ),
            Part::OnePathRelease => format!(
                "`{}` moved after the `if`, to run on every path",
                release_paths::moved_call(m)
            ),
            Part::WrongLock => {
                let (old, new) = objects::swapped_names(m);
                format!("`{new}` for `{old}` in the lock and its unlock")
            }
            Part::SplitSection => format!(
                "the unlock and the lock of line {} removed, one critical section",
                sections::relock_line(m)
            ),
            Part::GateWrite if gate_writes::is_hoist(m) => {
                format!("`{}` moved out of its `if`, to run on every path", m.from)
            }
            Part::LockedCallback => format!(
                "`{}` (line {}) moved before it",
                m.from,
                callbacks::unlock_line(m)
            ),
            Part::WaitOrder => {
                format!(
                    "`{}` moved before line {}",
                    m.from,
                    signals::moved_before(m)
                )
            }
            _ => format!("`{}` for `{}` at column {}", m.to, m.from, m.column),
        };
        let hint = format!(
            "{}: {change} removes the failure and every deadlock from every execution",
            f.part.words()
        );
        c.hint = if c.hint.is_empty() {
            hint
        } else {
            format!("{hint}; {}", c.hint)
        };
        c.fixed_by = Some(change);
        let was_cause = c.cause;
        c.cause = true;
        c.plain_value = false;
        if let Some(at) = keep_at {
            c.cause = was_cause;
            cands.insert(at.min(cands.len()), c);
            continue;
        }
        // Two creations handed the same argument are both "fixed" by changing either;
        // the later one repeats what an earlier thread was already given.
        let repeat = if f.part == Part::Argument {
            u32::MAX - m.line
        } else {
            0
        };
        // A flag swapped in a wait test can "fix" by waiting for any global the other
        // thread happens to set first (`result` for `done`): after the other fixes.
        // A semaphore given more permits lets threads on that waited: a fix by
        // synchronizing less, after the fixes that keep every wait (the wrapper that
        // posts, a post moved down). A named count (`QUEUE_SLOTS + 1`) raised as well.
        let loosened = f.part == Part::Count
            && source(m.line).is_some_and(|l| l.contains("sem_init"))
            && (matches!(
                (m.from.trim().parse::<i64>(), m.to.trim().parse::<i64>()),
                (Ok(a), Ok(b)) if b > a
            ) || m.to.trim() == format!("{} + 1", m.from.trim()));
        // A call of the program's own that hands something back, moved past statements
        // that use none of its arguments (`put(s)` after a join), fixes only by
        // serializing; moved past a use (`put(s)` after `use(s->n)`), it was given back
        // before its last use: that one first.
        let serializes_only =
            u32::from(f.part == Part::ReleaseOrder && !moved_past_a_use(&m.from, &m.to));
        let swapped = u32::from(f.part == Part::WaitFlag || loosened) + serializes_only;
        let key = (swapped, had.unwrap_or(usize::MAX), repeat);
        // A loop bound or the guard of a wake-up, likewise: they change how much a
        // thread does, and a changed guard "fixes" a wrong count as readily as the
        // count itself (`remaining != 0` for a `remaining` started one too low), so the
        // analyses' causes and the lines the ranking already named come first. A guard
        // that makes a thread wait where the run went on adds synchronization, as a
        // wait loop's test does, and stays in front. A bounds check likewise: made to
        // leave more often, a thread does less.
        // A semaphore that starts at zero waits for a post; started above zero, a waiter
        // goes on before any thread posted — a fix by doing less, whatever the order:
        // after the causes even when every order fails (a post skipped on one path is
        // such a cause).
        let raises_zero = f.part == Part::Count && m.from.trim() == "0";
        // A `trylock` whose result decides a branch (`if (pthread_mutex_trylock(..))`)
        // has a path for the failure to take it: made a blocking lock, that path is
        // never taken — a fix by doing less, while the analyses name what the path does
        // wrong (an access without the lock). A call whose result is dropped, or kept
        // only to decide the unlock (`busy = pthread_mutex_trylock(..)`), goes on to the
        // data either way: the call is the fault itself.
        // Likewise when the result is kept and a later test let the failure through (the
        // analyses name that test, `Role::TrylockLetThrough`).
        let tested_try = f.part == Part::Kind
            && (m.from.ends_with("_trylock") || m.from.ends_with("_trywait"))
            && (source(m.line).is_some_and(|l| branch_on(&l, &m.from)) || let_through);
        // A wake-up's guard turned around (`if (!ok) sem_post(..)` for `if (ok)`) does
        // not wake less: it wakes on the other path, the one the run took.
        let turned_around = f.part == Part::WakeGuard && guards::is_negation(m);
        if raises_zero
            || tested_try
            || f.part == Part::WrongLock
            || (f.part == Part::WaitFlag && unprotected)
            || (matches!(f.part, Part::ReleaseOrder | Part::WaitOrder) && skipped_unlock)
            || (matches!(
                f.part,
                Part::StartValue | Part::LoopBound | Part::WakeGuard | Part::BoundCheck
            ) && !order_independent
                && !turned_around)
        {
            after_causes.push((key, c));
        } else {
            front.push((key, c));
        }
    }
    front.sort_by_key(|(key, _)| *key);
    after_causes.sort_by_key(|(key, _)| *key);
    let mut out: Vec<Candidate> = front.into_iter().map(|(_, c)| c).collect();
    let causes = cands.iter().take_while(|c| c.cause).count();
    let rest = cands.split_off(causes);
    out.append(cands);
    out.extend(after_causes.into_iter().map(|(_, c)| c));
    out.extend(rest);
    *cands = out;
    renumber(cands);
}

/// Whether a call `from` of a function of the program, moved down into `to` (the
/// statements it moved past and itself), moved past a statement that names one of its
/// arguments' variables. A library call (an unlock, a post) is never "only serializing":
/// what it protects is not among its arguments.
fn moved_past_a_use(from: &str, to: &str) -> bool {
    let library = ["pthread_", "sem_", "atomic_", "mtx_", "cnd_", "__VERIFIER_"];
    let call = from.trim_start();
    if library.iter().any(|p| call.starts_with(p)) {
        return true;
    }
    let words = |s: &str| -> Vec<String> {
        s.split(|c: char| !(c.is_ascii_alphanumeric() || c == '_'))
            .filter(|w| !w.is_empty() && !w.starts_with(|c: char| c.is_ascii_digit()))
            .map(str::to_string)
            .collect()
    };
    let Some((_, args)) = call.split_once('(') else {
        return true;
    };
    let args = words(args);
    if args.is_empty() {
        return true;
    }
    to.lines()
        .filter(|l| l.trim() != call.trim())
        .any(|l| words(l).iter().any(|w| args.contains(w)))
}

/// `call` is made inside the test of an `if` or a loop on `line` (the source text).
fn branch_on(line: &str, call: &str) -> bool {
    let Some(at) = line.find(call) else {
        return false;
    };
    let before = &line[..at];
    ["if", "while"].iter().any(|kw| {
        before.match_indices(kw).any(|(p, _)| {
            let head = before[..p]
                .chars()
                .next_back()
                .is_none_or(|c| !(c.is_alphanumeric() || c == '_'));
            let tail = before[p + kw.len()..].trim_start().starts_with('(');
            head && tail
        })
    })
}
