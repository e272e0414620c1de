//! One counterexample for the many Z3 may return.
//!
//! The deepening fixes the bounds (the fewest rounds that fail); within them there are
//! usually many failing runs, and which one a solve returns depends on Z3's heuristics —
//! its random seed, the order of the terms, a change anywhere in the encoding. Everything
//! built on the counterexample (the candidates, their ranking, the root causes, the
//! report's interleaving) would change with it. So the run reported is the one a
//! documented criterion picks, not the first model:
//!
//! * the choices are taken in the order the encoding makes them — round by round, thread
//!   slot by thread slot, and each input where the program reads it;
//! * each choice is the **least** it can be: a thread's switch point as early as possible
//!   (each thread runs only as far as the failure needs before the next takes over: the
//!   shortest failing run, in the run's order), an input the smallest value read as
//!   unsigned (0 before 1 before … before −1);
//! * each choice is fixed before the next is made (lexicographic), by incremental
//!   questions ("does a failing run exist with this choice smaller?"): 0 first, then
//!   halving between it and the last model's value, on Z3's incremental QF_BV solver.
//!
//! "As early as possible" was measured against "as late as possible" (each thread run as
//! far as it can) with `scripts/rank_stability.py` on the 58 buggy benchmarks under four
//! Z3 seeds: the latest switch points gave longer runs whose faulty line ranked first on
//! 42–43 (and not at all on 3–4), the earliest on 48 under every seed (BENCHMARKS.md).
//!
//! A choice the failing run does not make (a thread that never got a turn, an input on a
//! path not taken) is left alone. The questions get a budget of Z3 work (its resource
//! count, not a time: a loaded machine must pick the same run as a quiet one); when it
//! runs out (or a question is undecided) the run found so far is kept — it fails all the
//! same, only the later choices are Z3's — and [`Canonical::complete`] says so.

use z3::Model;
use z3::ast::{BV, Bool};

use super::{Answer, Session, truth};

/// What [`Session::canonical`] found.
pub struct Canonical {
    /// The failing run the criterion picks (or the one reached when the budget ran out).
    pub model: Model,
    /// Every choice was decided by the criterion.
    pub complete: bool,
    /// Solver questions asked.
    pub questions: u32,
    /// Z3 resource units they used.
    pub work: u64,
}

impl Session {
    /// The failing run (any of `lits`) the module's criterion picks, starting from `model`
    /// (a failing run of this encoding). The questions stop once they have used `budget`
    /// resource units of Z3's (or at the session's deadline).
    pub fn canonical(&mut self, lits: &[Bool], model: Model, budget: u64) -> Canonical {
        // The framework's switch points (`__seq_cs`, read by the sequential program's
        // `main`) and the program's inputs alike, in the encoding's order.
        let choices: Vec<(Bool, BV)> = self
            .out
            .inputs
            .iter()
            .map(|i| (i.guard.clone(), i.value.clone()))
            .collect();
        let mut c = Canonical {
            model,
            complete: true,
            questions: 0,
            work: 0,
        };
        // Z3's solver for QF_BV answers each question incrementally on its SAT core:
        // tens of times faster here than the live session's SMT core. Per question, the
        // whole budget.
        let asker = self
            .bit_blaster(Some(budget))
            .inspect(|solver| solver.assert(Bool::or(lits)));
        if asker.is_none() {
            super::set_work_limit(&self.solver, Some(budget));
        }
        let mut fixed: Vec<Bool> = Vec::new();
        for (guard, value) in choices {
            if !truth(&c.model, &guard) {
                continue;
            }
            match self.least(asker.as_ref(), lits, &fixed, &value, budget, &mut c) {
                // A settled choice is never reopened: asserted once into the QF_BV
                // solver rather than assumed again by every later question.
                Some(v) => match &asker {
                    Some(solver) => solver.assert(value.eq(&v)),
                    None => fixed.push(value.eq(&v)),
                },
                None => {
                    c.complete = false;
                    break;
                }
            }
        }
        // The live solver answers the localization's questions next, unlimited.
        if asker.is_none() {
            super::set_work_limit(&self.solver, None);
        }
        c
    }

    /// The least `value` (unsigned) among the failing runs that keep `fixed`, updating
    /// `c.model`; `None` once a question went undecided (`c.model` is then still a
    /// failing run keeping `fixed`).
    fn least(
        &mut self,
        asker: Option<&z3::Solver>,
        lits: &[Bool],
        fixed: &[Bool],
        value: &BV,
        budget: u64,
        c: &mut Canonical,
    ) -> Option<BV> {
        let width = value.get_size();
        let current = c.model.eval(value, true)?;
        if width > 64 {
            // Too wide to step through as a number: kept as the model has it.
            return Some(current);
        }
        // 0 first, then halving: `at` is reachable, below `low` (once known) nothing is.
        let mut at = current.as_u64()?;
        let mut low: Option<u64> = None;
        loop {
            let goal = match low {
                _ if at == 0 => break,
                Some(l) if l >= at => break,
                Some(l) => l + (at - l) / 2,
                None => 0,
            };
            let mut extra = fixed.to_vec();
            extra.push(value.bvule(BV::from_u64(goal, width)));
            if c.work >= budget {
                return None;
            }
            c.questions += 1;
            let before = super::resource_count(asker.unwrap_or(&self.solver));
            let answer = match asker {
                Some(solver) => {
                    if !self.set_timeout_on(solver) {
                        return None;
                    }
                    let (a, ms) = super::gated(self.gate.as_deref(), solver, &extra);
                    self.stats.solve_ms += ms;
                    a
                }
                None => self.query_incremental(lits, &extra),
            };
            let spent = super::resource_count(asker.unwrap_or(&self.solver)).saturating_sub(before);
            c.work = c.work.saturating_add(spent);
            match answer {
                Answer::Violated(m) => {
                    at = super::value(&m, value)?.min(goal);
                    c.model = m;
                }
                Answer::Holds => low = Some(goal + 1),
                Answer::Unknown(_) => return None,
            }
        }
        Some(BV::from_u64(at, width))
    }
}

#[cfg(test)]
mod tests {
    use z3::Model;
    use z3::ast::Bool;

    use super::super::symex::PropKind;
    use super::super::{Answer, Session, truth, value};
    use crate::ir::DataModel;
    use crate::passes::Prepared;
    use crate::seq::{self, Framework, Mode};

    const PRELUDE: &str = "typedef unsigned long pthread_t;\
        extern int pthread_create(pthread_t *, void *, void *(*)(void *), void *);\
        extern int pthread_join(pthread_t, void **);\
        extern void reach_error(void); extern unsigned __VERIFIER_nondet_uint(void);\
        extern void __VERIFIER_assume(int);\n";

    /// `src` encoded with `rounds` rounds, and its failure's literals.
    fn session(src: &str, rounds: u32) -> (Session, Prepared, Vec<Bool>) {
        let text = format!("{PRELUDE}{src}");
        let prog = crate::frontend::load_text("t.c", &text, DataModel::Lp64).expect("parses");
        let prep = Prepared::new(prog);
        let opts = Framework::builtin().search_options(2, rounds, 4, 2, false);
        let sq = seq::sequentialize(&prep.normalized, &prep.shared, Mode::Symbolic, &opts)
            .expect("sequentializes");
        let s = Session::new(sq, rounds + 2, None).expect("encodes");
        let lits = s.property_lits(&[PropKind::Assertion, PropKind::Error]);
        (s, prep, lits)
    }

    /// Every choice the run makes, in the encoding's order.
    fn choices(s: &Session, m: &Model) -> Vec<u64> {
        s.out
            .inputs
            .iter()
            .filter(|i| truth(m, &i.guard))
            .filter_map(|i| value(m, &i.value))
            .collect()
    }

    fn failing(s: &mut Session, lits: &[Bool], extra: &[Bool]) -> Model {
        match s.query(lits, extra) {
            Answer::Violated(m) => m,
            _ => panic!("the program fails"),
        }
    }

    #[test]
    fn an_input_is_the_least_value_that_fails() {
        let (mut s, _, lits) = session(
            "int main(void) { unsigned n = __VERIFIER_nondet_uint();\
               if (n >= 7 && n != 9) reach_error(); return 0; }",
            1,
        );
        // Start from a run with a large input: the criterion walks it down to 7.
        let big = s
            .out
            .inputs
            .iter()
            .find(|i| i.point.is_some())
            .map(|i| i.value.clone());
        let big = big.expect("main reads an input");
        let start = failing(&mut s, &lits, &[big.bvuge(z3::ast::BV::from_u64(1000, 32))]);
        let c = s.canonical(&lits, start, 1 << 31);
        assert!(c.complete);
        assert_eq!(value(&c.model, &big), Some(7));
    }

    #[test]
    fn the_same_run_whichever_failing_run_it_starts_from() {
        // A lost update: many runs fail within three rounds (each thread may be preempted
        // anywhere between its read and its write, in either order).
        let src = "int x; void *t(void *a) { int r = x; x = r + 1; return 0; }\
            int main(void) { pthread_t a, b; pthread_create(&a, 0, t, 0);\
              pthread_create(&b, 0, t, 0); pthread_join(a, 0); pthread_join(b, 0);\
              if (x != 2) reach_error(); return 0; }";
        let (mut s, prep, lits) = session(src, 3);
        let first = failing(&mut s, &lits, &[]);
        let seen = choices(&s, &first);
        // Another failing run: some choice differs from the first's.
        let differs: Vec<Bool> = s
            .out
            .inputs
            .iter()
            .filter(|i| truth(&first, &i.guard))
            .filter_map(|i| {
                let v = value(&first, &i.value)?;
                Some(
                    i.value
                        .eq(z3::ast::BV::from_u64(v, i.value.get_size()))
                        .not(),
                )
            })
            .collect();
        let second = failing(&mut s, &lits, &[Bool::or(&differs)]);
        assert_ne!(
            seen,
            choices(&s, &second),
            "two different runs to start from"
        );
        let a = s.canonical(&lits, first, 1 << 31);
        let b = s.canonical(&lits, second, 1 << 31);
        assert!(a.complete && b.complete);
        assert_eq!(choices(&s, &a.model), choices(&s, &b.model));
        // The least switch points: main starts, and the run is no longer than the lost
        // update needs (main, the first thread up to its read, the second, the first's
        // write, main's check).
        let cex = s.counterexample(&a.model, &prep.index, &prep.normalized);
        let blocks: Vec<u32> = cex.schedule.blocks.iter().map(|b| b.thread).collect();
        assert_eq!(blocks.first(), Some(&0), "{blocks:?}");
        assert!(blocks.len() <= 5, "{blocks:?}");
    }
}
