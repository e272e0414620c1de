//! Mutation evidence for the ranking: a value candidate on whose line a one-token change
//! (an operator or an integer constant, `operators`) removes the failure from *every*
//! execution is where a fix is — the idea of mutation-based fault localization
//! (Metallaxis-FL, MUSE), restricted to the candidates Griesmeyer's method already found.
//!
//! Why it is needed: a value fault that every interleaving shows (a wrong operator or
//! constant in a thread) has no interleaving cause and no closest passing schedule, so
//! nothing in `rootcause::rank` tells the faulty line from the lines that only carry its
//! value to the check (`hist[b]++` after a wrong `b = s[i] % 4`; the sum `main` makes of
//! what the threads wrote). Griesmeyer's candidates say "some value here avoids this
//! failure"; a mutant says "this small change makes the program correct", which a copy
//! of the faulty value cannot say.
//!
//! The evidence is asked of an [`Oracle`] the caller supplies (the CLI re-parses the
//! mutated source and runs the explicit-state explorer on it with a fixed state budget,
//! so the answer does not depend on the machine's speed). Only an exhaustive "no failure
//! and no deadlock in any execution" counts. It reorders the plain value candidates only:
//! the lines where the schedule must change and the projection's divergence (`cause`)
//! stay first — a program whose failure needs an interleaving has its cause there.
//!
//! When several lines have a fixing mutant, the one whose mutated program keeps more
//! distinct outcomes (final states of its executions, as the explorer counts them) comes
//! first; equal counts keep the ranking's order. A degenerate fix removes the failure by
//! removing behaviour: `booked[id] = 0` instead of `1`, a guard no thread passes, both
//! threads writing one slot — every execution then ends alike. The fix of the actual
//! fault keeps what the program could do (either customer may get the last seat). This
//! is MUSE's other half — the behaviour a mutant breaks — measured on the outcomes
//! themselves, since a program whose every run fails has no passing run to break
//! (BENCHMARKS.md, 38th session). Ordering by the share of a line's mutants that fix
//! (MUSE's score with the one failing property as its only test) was measured and
//! dropped: a line that sets a thread's index has many degenerate fixes, the injected
//! fault's line usually one (its inverse), so the share ranked 4 injected faults lower
//! and 2 higher (29th session).
//!
//! A fix that only keeps the failing check from running (a flag stored as 0 that the
//! check's guard tests, a loop bound that skips the check) repairs nothing: the oracle
//! says whether the mutated program still runs the check (`Answer::Fixes::reaches`), and
//! a mutant that does not is no evidence.
//!
//! Fixes do not move a line past the analyses' causes, however many outcomes they keep:
//! tried on every candidate line, the strongest fix ranked first fixed four injected value
//! faults and moved the ground truth down on twelve of the 58 buggy benchmarks — a race
//! has one-token "fixes" that keep the check running and every outcome (`booked[id] = 0`,
//! a thread's index off by one so two threads share no slot), and neither the outcomes of
//! the input's own passing runs nor those of the fix tell them apart (39th session).

pub mod arguments;
pub mod bounds;
pub mod callbacks;
pub mod callees;
pub mod gate_writes;
pub mod guards;
pub mod objects;
pub mod operators;
pub mod primitive_fixes;
pub mod primitives;
pub mod release_paths;
pub mod sections;
pub mod signals;
pub mod stale_values;
pub mod start_values;
pub mod targets;
pub mod wait_terms;
pub mod wakes;

use std::collections::BTreeMap;

use crate::diag::explain::{Candidate, CandidateKind, Role, renumber, same_file};
pub use operators::{Mutant, mutants_at};
pub use primitive_fixes::apply_primitive_fixes;
pub use primitives::{Part, SyncMutant, primitive_mutants};
pub use start_values::start_values;

/// What the oracle established about one mutated program.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Answer {
    /// No failure and no deadlock in any execution; `outcomes` is the number of distinct
    /// final states its executions reach, when every execution was explored; `reaches`
    /// whether some execution still runs the check that failed (`None`: not known).
    Fixes {
        outcomes: Option<u64>,
        reaches: Option<bool>,
    },
    /// Some execution still fails.
    Fails,
}

/// Re-checks mutated programs.
pub trait Oracle {
    /// What the mutated program `text` does; `None` when nothing was established.
    fn check(&mut self, text: &str) -> Option<Answer>;
    /// The time for mutants is over.
    fn expired(&self) -> bool;
}

/// How many mutants of one line are tried.
const PER_LINE: usize = 12;
/// How many candidate lines are mutated.
const LINES: usize = 8;
/// Unanswered mutants of a line, before any answer on it, after which its other mutants
/// are not tried: the fault itself may keep the program beyond the oracle (an access out
/// of bounds the explorer does not model, a state space it cannot finish), and a mutant
/// of another line, the faulty one, may not.
const GIVE_UP: usize = 3;
/// Lines whose mutants all went unanswered, before any answer at all, after which the
/// program is taken to be beyond the oracle.
const SILENT_LINES: usize = 4;

/// A mutant that removed the failure from every execution.
#[derive(Clone, Debug)]
pub struct Fix {
    pub mutant: Mutant,
    /// The distinct final states of the mutated program's executions, when counted.
    pub outcomes: Option<u64>,
}

/// What the mutants found.
#[derive(Clone, Debug, Default)]
pub struct Evidence {
    /// Per candidate line of the input file: the first mutant that fixed the program.
    pub fixes: BTreeMap<u32, Fix>,
    /// Mutants checked, and lines looked at.
    pub checked: usize,
    pub lines: usize,
    /// The time ran out before every line was looked at.
    pub out_of_time: bool,
    /// Mutants the oracle answered "still fails" for, and gave no answer for.
    pub answered: usize,
    /// Mutants that removed the failure only by never running the check.
    pub vacuous: usize,
    pub unanswered: usize,
    /// The first mutants all went unanswered, so the rest were not tried.
    pub beyond_budget: bool,
}

/// A plain value candidate: one that may only carry the failure's value — the ranking
/// put it in no analysis's tier and on no line of the differential projection (the
/// accesses that raced: a mutant that only stops a racing thread's writes from
/// mattering, `y = a[j + 0]` in a swap, would "repair" those too); the mutants are tried
/// on these lines and reorder these only.
fn plain_value(c: &Candidate) -> bool {
    c.plain_value
        && c.kind == CandidateKind::Value
        && c.role == Role::Plain
        && !c.specification
        && c.set.is_none()
        && !c.cause
}

/// Tries the mutants of the plain value candidates' lines in `file` (whose text is
/// `text`), best ranked first.
pub fn evidence(text: &str, file: &str, cands: &[Candidate], oracle: &mut dyn Oracle) -> Evidence {
    let mut ev = Evidence::default();
    let mut lines: Vec<u32> = Vec::new();
    for c in cands
        .iter()
        .filter(|c| plain_value(c) && same_file(&c.file, file))
    {
        if !lines.contains(&c.line) {
            lines.push(c.line);
        }
    }
    let mut silent = 0;
    for line in lines.into_iter().take(LINES) {
        ev.lines += 1;
        let (mut answered, mut unanswered) = (0, 0);
        for m in mutants_at(text, line).into_iter().take(PER_LINE) {
            if oracle.expired() {
                ev.out_of_time = true;
                return ev;
            }
            let Some(mutated) = m.apply(text) else {
                continue;
            };
            ev.checked += 1;
            match oracle.check(&mutated) {
                Some(Answer::Fixes {
                    reaches: Some(false),
                    ..
                }) => {
                    ev.vacuous += 1;
                    answered += 1;
                }
                Some(Answer::Fixes { outcomes, .. }) => {
                    ev.fixes.insert(
                        line,
                        Fix {
                            mutant: m,
                            outcomes,
                        },
                    );
                    break;
                }
                Some(Answer::Fails) => answered += 1,
                None => unanswered += 1,
            }
            if answered == 0 && unanswered >= GIVE_UP {
                break;
            }
        }
        ev.answered += answered;
        ev.unanswered += unanswered;
        if answered == 0 && unanswered > 0 && ev.answered == 0 && ev.fixes.is_empty() {
            silent += 1;
            if silent >= SILENT_LINES {
                ev.beyond_budget = true;
                return ev;
            }
        }
    }
    ev
}

/// Moves the plain value candidates with a fixing mutant in front of the other plain
/// value candidates (keeping every other position and the order among each group) and
/// names the change in their hint and `fixed_by`.
pub fn apply(cands: &mut Vec<Candidate>, file: &str, ev: &Evidence) {
    if ev.fixes.is_empty() {
        return;
    }
    let fixed = |c: &Candidate| {
        plain_value(c) && same_file(&c.file, file) && ev.fixes.contains_key(&c.line)
    };
    for c in cands.iter_mut().filter(|c| fixed(c)) {
        if let Some(Fix { mutant: m, .. }) = ev.fixes.get(&c.line) {
            let change = format!("`{}` for `{}` at column {}", m.to, m.from, m.column);
            c.hint = format!(
                "{}; a one-token change here removes the failure from every execution: {change}",
                c.hint
            );
            c.fixed_by = Some(change);
        }
    }
    let Some(first) = cands.iter().position(plain_value) else {
        return;
    };
    let (mut moved, rest): (Vec<Candidate>, Vec<Candidate>) = cands
        .drain(first..)
        .partition(|c| plain_value(c) && c.fixed_by.is_some());
    // Among the fixes, those that keep more of the program's outcomes first (a stable
    // sort: equal counts keep the ranking's order).
    moved.sort_by_key(|c| {
        std::cmp::Reverse(ev.fixes.get(&c.line).and_then(|f| f.outcomes).unwrap_or(0))
    });
    cands.extend(moved);
    cands.extend(rest);
    renumber(cands);
}

/// Primitive mutants tried in all: each is a whole program checked.
const PRIMITIVE_MUTANTS: usize = 12;
/// How many mutants of the arguments handed to new threads are tried, after those, and
/// how many moves of wake-ups.
const ARGUMENT_MUTANTS: usize = 6;

/// A primitive mutant that removed the failure from every execution (`primitives`), and
/// the threads of the failing run that executed its line.
#[derive(Clone, Debug)]
pub struct PrimitiveFix {
    pub mutant: Mutant,
    pub part: Part,
    pub threads: Vec<u32>,
}

/// What the primitive mutants found.
#[derive(Clone, Debug, Default)]
pub struct PrimitiveEvidence {
    /// The first fixing mutant of each line, in the order of the failing run.
    pub fixes: Vec<PrimitiveFix>,
    pub checked: usize,
    pub out_of_time: bool,
}

/// Tries the primitive mutants of the calls in the input file (whose text is `text`) on
/// the lines the failing run executed: `ran`, (thread, line) of that file in the run's
/// order. A line counts when the run passed it, also where no step shows it (a lock
/// call's own statements are the model's, not the program's).
pub fn primitive_evidence(
    text: &str,
    ran: &[(u32, u32)],
    oracle: &mut dyn Oracle,
) -> PrimitiveEvidence {
    let mut ev = PrimitiveEvidence::default();
    let mut lines: Vec<u32> = Vec::new();
    for (_, l) in ran {
        if !lines.contains(l) {
            lines.push(*l);
        }
    }
    let in_run_order = |ms: &mut Vec<SyncMutant>, most: usize| {
        ms.sort_by_key(|m| lines.iter().position(|l| *l == m.mutant.line));
        ms.truncate(most);
    };
    let mut mutants = primitive_mutants(text, &lines);
    in_run_order(&mut mutants, PRIMITIVE_MUTANTS);
    // The arguments and start values after the calls, each with a share of its own: a
    // program that creates many threads or declares many globals does not crowd out
    // the calls' mutants.
    let mut arguments = arguments::argument_mutants(text, &lines);
    in_run_order(&mut arguments, ARGUMENT_MUTANTS);
    mutants.extend(arguments);
    let mut moves = signals::signal_moves(text, &lines);
    in_run_order(&mut moves, ARGUMENT_MUTANTS);
    mutants.extend(moves);
    let mut moves = signals::wait_moves(text, &lines);
    in_run_order(&mut moves, ARGUMENT_MUTANTS);
    mutants.extend(moves);
    let mut missing = wakes::missing_wake_mutants(text, &lines);
    in_run_order(&mut missing, ARGUMENT_MUTANTS);
    mutants.extend(missing);
    let mut one_path = release_paths::one_path_release_mutants(text, &lines);
    in_run_order(&mut one_path, ARGUMENT_MUTANTS);
    mutants.extend(one_path);
    let mut extra = signals::extra_release_mutants(text, &lines);
    in_run_order(&mut extra, ARGUMENT_MUTANTS);
    mutants.extend(extra);
    let mut moves = callbacks::callback_unlock_moves(text, &lines);
    in_run_order(&mut moves, ARGUMENT_MUTANTS);
    mutants.extend(moves);
    let mut swaps = objects::object_swaps(text, &lines);
    in_run_order(&mut swaps, ARGUMENT_MUTANTS);
    mutants.extend(swaps);
    let mut swaps = objects::lock_swaps(text, &lines);
    in_run_order(&mut swaps, ARGUMENT_MUTANTS);
    mutants.extend(swaps);
    let mut stale = stale_values::stale_before_loop_mutants(text, &lines);
    in_run_order(&mut stale, ARGUMENT_MUTANTS);
    mutants.extend(stale);
    let mut before_wait = stale_values::copy_before_wait_mutants(text, &lines);
    in_run_order(&mut before_wait, ARGUMENT_MUTANTS);
    mutants.extend(before_wait);
    let mut copies = stale_values::stale_copy_mutants(text, &lines);
    in_run_order(&mut copies, ARGUMENT_MUTANTS);
    mutants.extend(copies);
    let mut gates = gate_writes::gate_write_mutants(text, &lines);
    in_run_order(&mut gates, ARGUMENT_MUTANTS);
    mutants.extend(gates);
    let mut wrappers = callees::wrapper_mutants(text, &lines);
    in_run_order(&mut wrappers, ARGUMENT_MUTANTS);
    mutants.extend(wrappers);
    mutants.extend(start_values(text, &lines));
    let mut bounds = guards::loop_bound_mutants(text, &lines);
    in_run_order(&mut bounds, ARGUMENT_MUTANTS);
    mutants.extend(bounds);
    let mut guarded = guards::guard_mutants(text, &lines);
    in_run_order(&mut guarded, ARGUMENT_MUTANTS);
    mutants.extend(guarded);
    let mut splits = sections::split_section_mutants(text, &lines);
    in_run_order(&mut splits, ARGUMENT_MUTANTS);
    mutants.extend(splits);
    let mut checks = bounds::bound_check_mutants(text, &lines);
    in_run_order(&mut checks, ARGUMENT_MUTANTS);
    mutants.extend(checks);
    // Already in the order to try them (the store named like its variable first).
    let mut targets = targets::store_target_mutants(text, &lines);
    targets.truncate(ARGUMENT_MUTANTS);
    mutants.extend(targets);
    for SyncMutant { mutant: m, part } in mutants {
        if ev.fixes.iter().any(|f| f.mutant.line == m.line) {
            continue;
        }
        if oracle.expired() {
            ev.out_of_time = true;
            break;
        }
        let Some(mutated) = m.apply(text) else {
            continue;
        };
        ev.checked += 1;
        // A fix that only keeps the check from running repairs nothing.
        if let Some(Answer::Fixes { reaches, .. }) = oracle.check(&mutated) {
            if reaches != Some(false) {
                let mut threads: Vec<u32> = Vec::new();
                for (t, _) in ran.iter().filter(|(_, l)| *l == m.line) {
                    if !threads.contains(t) {
                        threads.push(*t);
                    }
                }
                ev.fixes.push(PrimitiveFix {
                    mutant: m,
                    part,
                    threads,
                });
            }
        }
    }
    ev
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::diag::explain::ThreadRef;

    const PROG: &str =
        "int a, b;\nint main(void) {\n  a = 3;\n  b = a + 1;\n  a = b;\n  return 0;\n}\n";

    /// Fixes exactly the programs containing `needle`.
    struct Knows {
        needle: &'static str,
        asked: usize,
    }
    impl Oracle for Knows {
        fn check(&mut self, text: &str) -> Option<Answer> {
            self.asked += 1;
            Some(if text.contains(self.needle) {
                Answer::Fixes {
                    outcomes: None,
                    reaches: None,
                }
            } else {
                Answer::Fails
            })
        }
        fn expired(&self) -> bool {
            false
        }
    }

    fn cand(line: u32, rank: usize) -> Candidate {
        Candidate {
            rank,
            plain_value: true,
            ..Candidate::on_line(line, CandidateKind::Value)
        }
    }

    #[test]
    fn a_fixing_mutant_moves_its_line_before_the_other_values_only() {
        let mut cands = vec![cand(5, 1), cand(3, 2), cand(4, 3)];
        cands[0].cause = true;
        let mut o = Knows {
            needle: "b = a - 1;",
            asked: 0,
        };
        let ev = evidence(PROG, "p.c", &cands, &mut o);
        assert_eq!(ev.fixes.keys().copied().collect::<Vec<_>>(), [4]);
        // Line 5 is a cause: never mutated. Line 3's two constants, then line 4's `+`.
        assert_eq!(o.asked, 3);
        apply(&mut cands, "p.c", &ev);
        let order: Vec<u32> = cands.iter().map(|c| c.line).collect();
        assert_eq!(order, [5, 4, 3], "the cause stays first");
        assert_eq!(
            cands[1].fixed_by.as_deref(),
            Some("`-` for `+` at column 9")
        );
        assert_eq!(cands[1].rank, 2);
    }

    struct Silent(usize);
    impl Oracle for Silent {
        fn check(&mut self, _: &str) -> Option<Answer> {
            self.0 += 1;
            None
        }
        fn expired(&self) -> bool {
            false
        }
    }

    #[test]
    fn a_program_beyond_the_budget_is_given_up_after_a_few_mutants() {
        let prog = format!(
            "int a;\nint main(void) {{\n{}}}\n",
            "  a = a + 1;\n".repeat(8)
        );
        let cands: Vec<Candidate> = (3..11).map(|l| cand(l, l as usize)).collect();
        let mut o = Silent(0);
        let ev = evidence(&prog, "p.c", &cands, &mut o);
        // Each line is left after GIVE_UP unanswered mutants, the program after
        // SILENT_LINES such lines.
        assert_eq!(o.0, SILENT_LINES * GIVE_UP);
        assert_eq!(ev.lines, SILENT_LINES);
        assert!(ev.beyond_budget && ev.fixes.is_empty());
    }

    /// Answers only for programs containing `needle`, and there says it fixes.
    struct FixesOnly(&'static str);
    impl Oracle for FixesOnly {
        fn check(&mut self, text: &str) -> Option<Answer> {
            text.contains(self.0).then_some(Answer::Fixes {
                outcomes: None,
                reaches: None,
            })
        }
        fn expired(&self) -> bool {
            false
        }
    }

    /// The faulty line's own mutants may be the only ones the oracle can answer (the
    /// fault makes every other mutant an access out of bounds): a line whose mutants go
    /// unanswered does not stop the next line's.
    #[test]
    fn a_line_beyond_the_oracle_does_not_stop_the_next() {
        let mut cands = vec![cand(3, 1), cand(4, 2)];
        let ev = evidence(PROG, "p.c", &cands, &mut FixesOnly("b = a - 1;"));
        assert!(!ev.beyond_budget);
        assert!(ev.fixes.contains_key(&4), "{:?}", ev.fixes.keys());
        apply(&mut cands, "p.c", &ev);
        assert_eq!(cands[0].line, 4);
    }

    /// Fixes every program, counting as its outcomes how many of `keep` it still holds.
    struct Outcomes(&'static [&'static str]);
    impl Oracle for Outcomes {
        fn check(&mut self, text: &str) -> Option<Answer> {
            let n = self.0.iter().filter(|k| text.contains(*k)).count() as u64;
            Some(Answer::Fixes {
                outcomes: Some(n),
                reaches: None,
            })
        }
        fn expired(&self) -> bool {
            false
        }
    }

    /// A fix that collapses what the program can do (every mutant of line 3 changes the
    /// `3` that both later lines depend on) ranks after one that keeps more outcomes;
    /// equal counts keep the ranking's order.
    #[test]
    fn among_fixes_the_one_keeping_more_outcomes_comes_first() {
        let mut cands = vec![cand(3, 1), cand(4, 2), cand(5, 3)];
        let ev = evidence(PROG, "p.c", &cands, &mut Outcomes(&["a = 3;", "a = b;"]));
        assert_eq!(ev.fixes.len(), 2, "line 5 has no token to change");
        assert_eq!(ev.fixes.get(&3).and_then(|f| f.outcomes), Some(1));
        assert_eq!(ev.fixes.get(&4).and_then(|f| f.outcomes), Some(2));
        apply(&mut cands, "p.c", &ev);
        let order: Vec<u32> = cands.iter().map(|c| c.line).collect();
        assert_eq!(order, [4, 3, 5]);
    }

    /// Fixes the programs containing `needle`, but no execution of them runs the check.
    struct Skips(&'static str);
    impl Oracle for Skips {
        fn check(&mut self, text: &str) -> Option<Answer> {
            Some(if text.contains(self.0) {
                Answer::Fixes {
                    outcomes: Some(3),
                    reaches: Some(false),
                }
            } else {
                Answer::Fails
            })
        }
        fn expired(&self) -> bool {
            false
        }
    }

    #[test]
    fn a_fix_that_only_keeps_the_check_from_running_is_no_evidence() {
        let mut cands = vec![cand(3, 1), cand(4, 2)];
        let ev = evidence(PROG, "p.c", &cands, &mut Skips("b = a - 1;"));
        assert!(ev.fixes.is_empty());
        assert_eq!(ev.vacuous, 1);
        apply(&mut cands, "p.c", &ev);
        assert_eq!(cands.iter().map(|c| c.line).collect::<Vec<_>>(), [3, 4]);
    }

    const LOCKED: &str = "#include <pthread.h>\npthread_rwlock_t rw;\nint x;\nvoid *f(void *a) {\n  pthread_rwlock_rdlock(&rw);\n  x = x + 1;\n  pthread_rwlock_unlock(&rw);\n  return a;\n}\n";

    /// The read lock taken to write is no value candidate; its fixing mutant makes it one,
    /// first and a cause, named for both threads that ran it; a line that was a candidate
    /// already moves to the front instead.
    #[test]
    fn a_primitive_fix_puts_its_line_first() {
        let ran = [(1, 5), (1, 6), (2, 5), (2, 6)];
        let mut o = Knows {
            needle: "pthread_rwlock_wrlock(&rw);",
            asked: 0,
        };
        let ev = primitive_evidence(LOCKED, &ran, &mut o);
        assert_eq!(o.asked, 1, "one mutant: the lock's kind");
        assert_eq!(ev.fixes.len(), 1);
        let mut cands = vec![cand(6, 1), cand(7, 2)];
        let thread = |id: u32| ThreadRef {
            id,
            function: "f".into(),
        };
        apply_primitive_fixes(&mut cands, &ev, "p.c", &thread, &|_| None, false);
        let order: Vec<u32> = cands.iter().map(|c| c.line).collect();
        assert_eq!(order, [5, 6, 7]);
        let first = &cands[0];
        assert!(first.cause && first.kind == CandidateKind::Locking);
        assert_eq!(
            first.threads.iter().map(|t| t.id).collect::<Vec<_>>(),
            [1, 2]
        );
        assert_eq!(
            first.fixed_by.as_deref(),
            Some("`pthread_rwlock_wrlock` for `pthread_rwlock_rdlock` at column 3")
        );
        assert_eq!(cands[1].rank, 2);

        let mut had = vec![cand(6, 1), cand(5, 2)];
        // (Its old rank orders it among several fixes.)
        apply_primitive_fixes(&mut had, &ev, "p.c", &thread, &|_| None, false);
        assert_eq!(had.iter().map(|c| c.line).collect::<Vec<_>>(), [5, 6]);
        assert_eq!(had.len(), 2, "no second candidate on the line");
    }

    /// Of two fixes, the one on a line the ranking had already named comes first, though
    /// the run reached the other first.
    #[test]
    fn of_several_fixes_a_named_line_comes_first() {
        let fix = |line: u32| PrimitiveFix {
            mutant: Mutant {
                line,
                column: 1,
                start: 0,
                end: 1,
                from: "==".into(),
                to: "!=".into(),
            },
            part: Part::WaitTest,
            threads: vec![1],
        };
        let ev = PrimitiveEvidence {
            fixes: vec![fix(4), fix(9)],
            ..PrimitiveEvidence::default()
        };
        let mut cands = vec![cand(7, 1), cand(9, 2)];
        let thread = |id: u32| ThreadRef {
            id,
            function: "f".into(),
        };
        apply_primitive_fixes(&mut cands, &ev, "p.c", &thread, &|_| None, false);
        assert_eq!(cands.iter().map(|c| c.line).collect::<Vec<_>>(), [9, 4, 7]);
    }

    /// A call moved later "fixes" a deadlock whose cause is a path that leaves its
    /// function holding the lock (no thread locks after it any more): after that cause.
    #[test]
    fn a_release_moved_comes_after_an_unlock_skipped_on_a_path() {
        let ev = PrimitiveEvidence {
            fixes: vec![PrimitiveFix {
                mutant: Mutant {
                    line: 47,
                    column: 5,
                    start: 0,
                    end: 1,
                    from: "close(0);".into(),
                    to: "close(1);\n    close(0);".into(),
                },
                part: Part::ReleaseOrder,
                threads: vec![2],
            }],
            ..PrimitiveEvidence::default()
        };
        let thread = |id: u32| ThreadRef {
            id,
            function: "f".into(),
        };
        let mut skipped = cand(22, 1);
        skipped.cause = true;
        skipped.role = crate::diag::explain::Role::SkippedUnlock;
        let mut cands = vec![skipped, cand(21, 2)];
        apply_primitive_fixes(&mut cands, &ev, "p.c", &thread, &|_| None, false);
        assert_eq!(
            cands.iter().map(|c| c.line).collect::<Vec<_>>(),
            [22, 47, 21]
        );
        // Without that cause the move is the fix to show first.
        let mut cands = vec![cand(22, 1), cand(21, 2)];
        apply_primitive_fixes(&mut cands, &ev, "p.c", &thread, &|_| None, false);
        assert_eq!(cands[0].line, 47);
    }

    /// Two calls that hand an object back, each moved later: the one moved past a use of
    /// its argument comes first, the one moved past a join only serializes.
    #[test]
    fn a_release_moved_past_a_use_of_what_it_hands_back_comes_first() {
        let fix = |line: u32, past: &str| PrimitiveFix {
            mutant: Mutant {
                line,
                column: 5,
                start: 0,
                end: 1,
                from: "session_put(s);".into(),
                to: format!("{past}\n    session_put(s);"),
            },
            part: Part::ReleaseOrder,
            threads: vec![1],
        };
        let ev = PrimitiveEvidence {
            fixes: vec![
                fix(65, "pthread_join(th[i], NULL);"),
                fix(45, "account(uid, s->nbytes);"),
            ],
            ..PrimitiveEvidence::default()
        };
        let thread = |id: u32| ThreadRef {
            id,
            function: "f".into(),
        };
        let mut cands = vec![cand(65, 1), cand(45, 2), cand(24, 3)];
        apply_primitive_fixes(&mut cands, &ev, "p.c", &thread, &|_| None, false);
        assert_eq!(
            cands.iter().map(|c| c.line).collect::<Vec<_>>(),
            [45, 65, 24]
        );
    }

    /// A `trylock` made blocking "fixes" by never taking its failure path: when the
    /// program tests its result, the causes the analyses found come first; a bare call
    /// whose result is dropped stays in front.
    #[test]
    fn a_tested_trylock_made_blocking_comes_after_the_causes() {
        let ev = PrimitiveEvidence {
            fixes: vec![PrimitiveFix {
                mutant: Mutant {
                    line: 4,
                    column: 9,
                    start: 0,
                    end: 1,
                    from: "pthread_mutex_trylock".into(),
                    to: "pthread_mutex_lock".into(),
                },
                part: Part::Kind,
                threads: vec![1],
            }],
            ..PrimitiveEvidence::default()
        };
        let thread = |id: u32| ThreadRef {
            id,
            function: "f".into(),
        };
        let order = |text: &'static str| {
            let mut cands = vec![
                Candidate {
                    cause: true,
                    ..cand(5, 1)
                },
                cand(8, 2),
            ];
            apply_primitive_fixes(
                &mut cands,
                &ev,
                "p.c",
                &thread,
                &|_| Some(text.into()),
                false,
            );
            cands.iter().map(|c| c.line).collect::<Vec<_>>()
        };
        assert_eq!(
            order("    if (pthread_mutex_trylock(&m) != 0) {"),
            [5, 4, 8]
        );
        assert_eq!(order("    pthread_mutex_trylock(&m);"), [4, 5, 8]);
        assert_eq!(order("  int busy = pthread_mutex_trylock(&m);"), [4, 5, 8]);
        assert_eq!(
            order("  } else if (pthread_mutex_trylock(&m)) {"),
            [5, 4, 8]
        );
    }

    /// A call the failing run never made is not mutated.
    #[test]
    fn primitives_the_run_did_not_call_are_not_tried() {
        let mut o = Knows {
            needle: "never",
            asked: 0,
        };
        let ev = primitive_evidence(LOCKED, &[(1, 6)], &mut o);
        assert_eq!((o.asked, ev.checked), (0, 0));
    }

    #[test]
    fn start_values_of_the_globals_the_run_named_are_mutated_but_not_into_a_later_state() {
        const GATE: &str = "int tokens = 2;\nint done = 0, unused = 4;\nvoid *t(void *a) {\n  tokens--;\n  done = 1;\n  return a;\n}\n";
        let texts = |ms: Vec<SyncMutant>| -> Vec<String> {
            ms.iter()
                .map(|m| format!("{}:{}->{}", m.mutant.line, m.mutant.from, m.mutant.to))
                .collect()
        };
        assert_eq!(
            texts(start_values(GATE, &[4, 5])),
            ["1:2->1", "1:2->3", "2:4->3", "2:4->5"],
            "`done = 1` is a state the thread sets itself; `unused` shares the line"
        );
        assert!(
            start_values(GATE, &[6]).is_empty(),
            "no ran line names them"
        );
        const STOCK: &str =
            "int stock = 1;\nvoid *b(void *a) {\n  stock = stock - 1;\n  return a;\n}\n";
        assert_eq!(
            texts(start_values(STOCK, &[3])),
            ["1:1->2"],
            "a stock the threads only take from is not started empty"
        );
        const HITS: &str = "int hits = 1;\nvoid *h(void *a) {\n  hits++;\n  return a;\n}\n";
        assert_eq!(
            texts(start_values(HITS, &[3])),
            ["1:1->0", "1:1->2"],
            "a count the threads add to may start at zero"
        );
        const FLAG: &str =
            "int full = 1;\nvoid *p(void *a) {\n  full = 1;\n  full = 0;\n  return a;\n}\n";
        assert_eq!(
            texts(start_values(FLAG, &[3])),
            ["1:1->0", "1:1->2"],
            "a flag set both ways may start at either"
        );
        let mut o = Knows {
            needle: "tokens = 1;",
            asked: 0,
        };
        let ev = primitive_evidence(GATE, &[(1, 4)], &mut o);
        let fixed: Vec<(u32, Part)> = ev.fixes.iter().map(|f| (f.mutant.line, f.part)).collect();
        assert_eq!(fixed, [(1, Part::StartValue)]);
        let mut cands = vec![cand(4, 1)];
        let thread = |id| ThreadRef {
            id,
            function: "t".into(),
        };
        apply_primitive_fixes(&mut cands, &ev, "p.c", &thread, &|_| None, false);
        assert_eq!((cands[0].line, cands[0].kind), (1, CandidateKind::Value));
        assert!(
            cands[0]
                .hint
                .starts_with("the start value here is wrong: `1` for `2`")
        );
        // After the causes the analyses found, before the rest.
        let mut cands = vec![
            Candidate {
                cause: true,
                ..cand(5, 1)
            },
            cand(4, 2),
        ];
        apply_primitive_fixes(&mut cands, &ev, "p.c", &thread, &|_| None, false);
        let lines: Vec<u32> = cands.iter().map(|c| c.line).collect();
        assert_eq!(lines, [5, 1, 4]);
        // Every run fails whatever the order: the start value comes first.
        let mut cands = vec![
            Candidate {
                cause: true,
                ..cand(5, 1)
            },
            cand(4, 2),
        ];
        apply_primitive_fixes(&mut cands, &ev, "p.c", &thread, &|_| None, true);
        let lines: Vec<u32> = cands.iter().map(|c| c.line).collect();
        assert_eq!(lines, [1, 5, 4]);
    }

    #[test]
    fn no_fix_changes_nothing() {
        let mut cands = vec![cand(3, 1), cand(4, 2)];
        let mut o = Knows {
            needle: "never",
            asked: 0,
        };
        let ev = evidence(PROG, "p.c", &cands, &mut o);
        apply(&mut cands, "p.c", &ev);
        assert_eq!(cands.iter().map(|c| c.line).collect::<Vec<_>>(), [3, 4]);
        assert!(cands.iter().all(|c| c.fixed_by.is_none()));
    }
}
