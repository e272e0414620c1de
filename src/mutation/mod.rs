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
//! When several lines have a fixing mutant (a guard `seats > 0` mistyped `>=` is fixed by
//! `>` or by `>= 1`, and also by booking two seats at once or by booking none), the line
//! where more of the tried mutants fix comes first — MUSE's score with the one failing
//! property as its only test; a mutant the oracle could not answer counts as no fix.

pub mod operators;

use std::collections::BTreeMap;

use crate::diag::explain::{Candidate, CandidateKind, Role, renumber, same_file};
pub use operators::{Mutant, mutants_at};

/// Re-checks mutated programs.
pub trait Oracle {
    /// Whether the mutated program `text` has no failure and no deadlock in any
    /// execution; `None` when that was not established either way.
    fn fixes(&mut self, text: &str) -> Option<bool>;
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

/// What the mutants found.
#[derive(Clone, Debug, Default)]
pub struct Evidence {
    /// Per candidate line of the input file: the first mutant that fixed the program.
    pub fixes: BTreeMap<u32, Mutant>,
    /// Per line with a fix: how many of its mutants fixed, of how many tried.
    pub score: BTreeMap<u32, (usize, usize)>,
    /// Mutants checked, and lines looked at.
    pub checked: usize,
    pub lines: usize,
    /// The time ran out before every line was looked at.
    pub out_of_time: bool,
    /// Mutants the oracle answered "still fails" for, and gave no answer for.
    pub answered: usize,
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
        let (mut answered, mut unanswered, mut fixing) = (0, 0, 0);
        for m in mutants_at(text, line).into_iter().take(PER_LINE) {
            if oracle.expired() {
                ev.out_of_time = true;
                return ev;
            }
            let Some(mutated) = m.apply(text) else {
                continue;
            };
            ev.checked += 1;
            match oracle.fixes(&mutated) {
                Some(true) => {
                    fixing += 1;
                    answered += 1;
                    ev.fixes.entry(line).or_insert(m);
                }
                Some(false) => answered += 1,
                None => unanswered += 1,
            }
            if answered == 0 && unanswered >= GIVE_UP {
                break;
            }
        }
        if fixing > 0 {
            ev.score.insert(line, (fixing, answered + unanswered));
        }
        ev.answered += answered - fixing;
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
        if let Some(m) = ev.fixes.get(&c.line) {
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
    // The larger share of fixing mutants first (fractions compared by cross
    // multiplication); a stable sort keeps the ranking's order among equal shares.
    let share = |c: &Candidate| ev.score.get(&c.line).copied().unwrap_or((0, 1));
    moved.sort_by(|a, b| {
        let ((fa, ta), (fb, tb)) = (share(a), share(b));
        (fb * ta.max(1)).cmp(&(fa * tb.max(1)))
    });
    cands.extend(moved);
    cands.extend(rest);
    renumber(cands);
}

#[cfg(test)]
mod tests {
    use super::*;

    const PROG: &str =
        "int a, b;\nint main(void) {\n  a = 3;\n  b = a + 1;\n  a = b;\n  return 0;\n}\n";

    /// Fixes exactly the programs containing `needle`.
    struct Knows {
        needle: &'static str,
        asked: usize,
    }
    impl Oracle for Knows {
        fn fixes(&mut self, text: &str) -> Option<bool> {
            self.asked += 1;
            Some(text.contains(self.needle))
        }
        fn expired(&self) -> bool {
            false
        }
    }

    fn cand(line: u32, rank: usize) -> Candidate {
        Candidate {
            rank,
            kind: CandidateKind::Value,
            file: "p.c".into(),
            line,
            column: 1,
            columns: vec![1],
            diag: line,
            threads: vec![],
            reads: vec![],
            writes: vec![],
            set: None,
            hint: String::new(),
            specification: false,
            changes: vec![],
            loc: crate::ir::Loc(0),
            source_line: None,
            whole_thread: false,
            role: Role::Plain,
            cause: false,
            fixed_by: None,
            plain_value: true,
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
        // Line 5 is a cause: never mutated. Line 3's two constants, then all of line 4's
        // (`-` for `+`, `0` and `2` for `1`): the share of fixing mutants ranks the lines.
        assert_eq!(o.asked, 5);
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
        fn fixes(&mut self, _: &str) -> Option<bool> {
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
        fn fixes(&mut self, text: &str) -> Option<bool> {
            text.contains(self.0).then_some(true)
        }
        fn expired(&self) -> bool {
            false
        }
    }

    /// Answers "fixes" for every program containing one of `needles`, "fails" otherwise.
    struct FixesWith(&'static [&'static str]);
    impl Oracle for FixesWith {
        fn fixes(&mut self, text: &str) -> Option<bool> {
            Some(self.0.iter().any(|n| text.contains(n)))
        }
        fn expired(&self) -> bool {
            false
        }
    }

    /// Two lines with a fix: the one where more of the mutants fix comes first, whatever
    /// the ranking's order before.
    #[test]
    fn the_line_more_mutants_fix_comes_first() {
        let prog = "int a, b;\nint main(void) {\n  a = 3;\n  b = a + 1;\n  return 0;\n}\n";
        let mut cands = vec![cand(3, 1), cand(4, 2)];
        // Line 3: `2` fixes, `4` does not (1 of 2); line 4: `-` and `0` fix, `2` does not
        // (2 of 3).
        let needles: &[&str] = &["a = 2;", "b = a - 1;", "b = a + 0;"];
        let ev = evidence(prog, "p.c", &cands, &mut FixesWith(needles));
        assert_eq!(ev.score.get(&3), Some(&(1, 2)), "{:?}", ev.score);
        assert_eq!(ev.score.get(&4).map(|s| s.0), Some(2), "{:?}", ev.score);
        apply(&mut cands, "p.c", &ev);
        assert_eq!(cands[0].line, 4);
        assert_eq!(cands[1].line, 3);
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
