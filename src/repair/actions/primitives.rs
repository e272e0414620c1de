//! A synchronization primitive of the wrong kind or count, made right in one word: the
//! write lock for a read lock taken to write, `pthread_mutex_lock` for a `trylock` whose
//! failure is not handled, a broadcast for a signal every waiter needs, a semaphore's or
//! barrier's count off by one, a mutex type (`mutation::primitives` makes the words), and
//! a global's start value off by one (`mutation::start_values`).
//!
//! One word of a call the program already makes is the smallest repair there is when it
//! is the fault: one the ranking found fixing (`mutation::primitives`) is tried before
//! any other. Otherwise it is a last resort: such a word can also make a program pass by
//! serializing it (a semaphore of one) or by waiting less. Only a change that verifies
//! is kept, like every proposal.

use super::{Action, Proposal};
use crate::repair::edit::Edit;
use crate::repair::source::Source;

/// How many primitive changes are tried: each costs a re-check.
const MAX: usize = 8;

/// The tier of these proposals: after every other, value changes included, unless the
/// ranking found the change fixing (the CLI then tries it first).
pub const PRIMITIVE_TIER: u8 = 4;

pub(super) fn primitives(src: &Source, sites: &super::Sites) -> Vec<Proposal> {
    // Every line: the mutants are of calls only, and there are few.
    let lines: Vec<u32> = (1..=src.text.lines().count() as u32).collect();
    let mut out = Vec::new();
    // A global's start value off by one (file scope: no function) after the calls, where
    // the localization proved it fixing.
    // The kinds after the calls, each only where the localization proved it fixing: a
    // global's start value off by one (file scope: no function), a waking loop's bound,
    // the state a hand-made lock's waiters test, a critical section split in two, a
    // bounds check off by one, a store to the wrong variable.
    type Generator = fn(&str, &[u32]) -> Vec<crate::mutation::SyncMutant>;
    let proved_only: [Generator; 6] = [
        crate::mutation::start_values,
        crate::mutation::guards::loop_bound_mutants,
        crate::mutation::gate_writes::gate_write_mutants,
        crate::mutation::sections::split_section_mutants,
        crate::mutation::bounds::bound_check_mutants,
        crate::mutation::targets::store_target_mutants,
    ];
    let mut mutants: Vec<crate::mutation::SyncMutant> =
        crate::mutation::primitive_mutants(&src.text, &lines)
            .into_iter()
            .take(MAX)
            .collect();
    for generate in proved_only {
        mutants.extend(
            generate(&src.text, &lines)
                .into_iter()
                .filter(|m| sites.fixed.contains(&m.mutant.line))
                .take(MAX),
        );
    }
    for crate::mutation::SyncMutant { mutant: m, part } in mutants {
        let function = match src.statement_at(m.line) {
            Some(s) => src
                .stmts
                .get(s)
                .map(|x| x.function.clone())
                .unwrap_or_default(),
            None if part == crate::mutation::Part::StartValue => String::new(),
            None => continue,
        };
        let place = if function.is_empty() {
            String::new()
        } else {
            format!(" of `{function}`")
        };
        // A split section's change spans lines: said in words, not as the texts.
        let split = (part == crate::mutation::Part::SplitSection).then(|| {
            format!(
                "one critical section at line {}{place}: the unlock and the lock of line {} removed",
                m.line,
                crate::mutation::sections::relock_line(&m)
            )
        });
        out.push(Proposal {
            summary: split.unwrap_or_else(|| {
                format!(
                    "{} at line {}{place}: `{}` for `{}`",
                    match part {
                        crate::mutation::Part::Kind => "the kind of the synchronization call",
                        crate::mutation::Part::Count => "the count of the synchronization call",
                        crate::mutation::Part::MutexType => "the mutex type",
                        crate::mutation::Part::WaitTest => "the test of the wait loop",
                        crate::mutation::Part::WaitFlag => "the flag the wait loop tests",
                        crate::mutation::Part::WaitTerm => "a flag the wait loop's test leaves out",
                        crate::mutation::Part::StartValue => "the start value",
                        // Not made here: `arguments::argument_slots` gives each thread its
                        // own copy with an array rather than an allocation, `moves` moves
                        // statements; an argument's literal is left to the user.
                        crate::mutation::Part::ArgumentCopy
                        | crate::mutation::Part::Argument
                        | crate::mutation::Part::Slot
                        | crate::mutation::Part::SharedObject => {
                            "the thread's argument"
                        }
                        crate::mutation::Part::SignalOrder => "the place of the wake-up",
                        crate::mutation::Part::ReleaseOrder => "the place of the release",
                        crate::mutation::Part::WaitOrder => "the place of the wait",
                        crate::mutation::Part::ExtraRelease => "a release one too many",
                        crate::mutation::Part::MissingWake => "a missing wake-up",
                        crate::mutation::Part::LockedCallback => "the place of the unlock",
                        crate::mutation::Part::Callee => "the function called",
                        crate::mutation::Part::LoopBound => "the test of the waking loop",
                        crate::mutation::Part::Guard =>
                            "the test that decides whether the thread waits",
                        crate::mutation::Part::WakeGuard => {
                            "the test that decides when the thread wakes the others"
                        }
                        crate::mutation::Part::StoreTarget => "the variable the store writes",
                        crate::mutation::Part::GateWrite => "the state the waiting threads test",
                        crate::mutation::Part::StaleRetry => "where the retried value is computed",
                        crate::mutation::Part::StaleCopy =>
                            "the copy of shared state the loop tests",
                        crate::mutation::Part::WrongObject => "the object the call names",
                        crate::mutation::Part::CopyBeforeWait =>
                            "where the copy of shared state is taken",
                        crate::mutation::Part::BoundCheck => "the boundary of the bounds check",
                        crate::mutation::Part::SplitSection =>
                            "the window between two critical sections",
                        crate::mutation::Part::WrongLock => "the lock of the critical section",
                        crate::mutation::Part::OnePathRelease => "the path that releases",
                    },
                    m.line,
                    m.to,
                    m.from
                )
            }),
            // A wait loop's test is a condition like any other: its change is one.
            action: if matches!(
                part,
                crate::mutation::Part::WaitTest
                    | crate::mutation::Part::WaitFlag
                    | crate::mutation::Part::WaitTerm
                    | crate::mutation::Part::LoopBound
                    | crate::mutation::Part::Guard
                    | crate::mutation::Part::WakeGuard
                    | crate::mutation::Part::BoundCheck
            ) {
                Action::Condition {
                    function,
                    line: m.line,
                    from: m.from.clone(),
                    to: m.to.clone(),
                }
            } else {
                Action::Primitive {
                    function,
                    line: m.line,
                    from: m.from.clone(),
                    to: m.to.clone(),
                }
            },
            edits: vec![Edit {
                start: m.start,
                end: m.end,
                text: m.to,
            }],
            statements_locked: 0,
            serializes: false,
            kills: Vec::new(),
            tier: PRIMITIVE_TIER,
        });
    }
    out
}
