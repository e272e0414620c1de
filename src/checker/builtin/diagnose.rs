//! The localization's question on the built-in checker: the diagnosis model encoded once
//! in a live solver, one query per answer, each found set (and every set containing it)
//! excluded by a constraint added to the solver.
//!
//! With several diag variables (`--faults N`) a set of `size` lines is asked for by its
//! shape: the first `size` diag variables select valid lines in increasing order, the
//! others select nothing (0).

use std::time::Instant;

use z3::ast::{BV, Bool};

use super::symex::{PropKind, Validity};
use super::{Answer, BmcError, Session, Stats, signed_value, truth, value};
use crate::checker::oracle::{Answered, Next, Oracle, OracleError, Stop};
use crate::instrument::Instrumented;
use crate::instrument::{Change, SiteKind};
use crate::seq::Sequentialized;

/// The built-in checker asked the localization's questions.
pub struct Diagnose<'a> {
    s: Session,
    ins: &'a Instrumented,
    diags: Vec<BV>,
    width: u32,
    keys: Vec<i64>,
    /// "The run reaches the final assertion": the failure avoided.
    end: Vec<Bool>,
    /// How many of the excluded sets are constraints of the solver already.
    excluded_added: usize,
    /// Ask each question on a fresh solver over the same terms instead of the live one.
    fresh_solver: bool,
    /// The questions go to the QF_BV solver (`Session::ask_on_bit_blaster`).
    blasted: bool,
    runs: u32,
}

impl<'a> Diagnose<'a> {
    /// Encodes the diagnosis model (`model` is the sequential program with the
    /// instrumented program in it) and checks that with no line selected it cannot pass:
    /// the failure the replay showed is deterministic along the schedule.
    pub fn new(
        model: Sequentialized,
        ins: &'a Instrumented,
        deadline: Option<Instant>,
        fresh_solver: bool,
    ) -> Result<Diagnose<'a>, OracleError> {
        // Concrete programs are loop-free after unrolling; the framework's loop runs once
        // per block.
        let bound = model.steps + 2;
        let mut s = match Session::new_valid(model, bound, deadline, Validity::InBounds) {
            Ok(s) => s,
            Err(BmcError::Symex(super::symex::SymexError::Timeout)) => {
                return Err(OracleError::Limit(
                    super::stop::requested().unwrap_or(super::Limit::Time),
                    "encoding the instrumented program",
                ));
            }
            Err(e) => return Err(e.into()),
        };
        if std::env::var_os("SEQLOC_DEBUG_LOCALIZE").is_some() {
            let mut counts: std::collections::BTreeMap<u32, usize> = Default::default();
            for r in &s.out.diags {
                *counts.entry(r.site).or_default() += 1;
            }
            eprintln!("diag evaluations per site: {counts:?}");
        }
        // Only runs that follow the schedule count.
        for m in s.mismatch_lits() {
            s.add(&m.not());
        }
        let end = s.property_lits(&[PropKind::Assertion]);
        let diags: Vec<BV> = ins
            .diag_vars
            .iter()
            .filter_map(|v| s.global_term(*v).cloned())
            .collect();
        if diags.len() != ins.diag_vars.len() {
            return Err(OracleError::NotReproduced(
                "the diag variables are missing from the encoding".into(),
            ));
        }
        let width = diags.first().map(BV::get_size).unwrap_or(32);
        let keys: Vec<i64> = ins.lines.keys().map(|k| *k as i64).collect();
        let mut d = Diagnose {
            s,
            ins,
            diags,
            width,
            keys,
            end,
            excluded_added: 0,
            fresh_solver,
            blasted: false,
            runs: 0,
        };
        d.validate()?;
        // The questions after the first go to Z3's QF_BV solver, bit-blasted once: the SMT
        // core, answering with the shape and the exclusions as assumptions, took minutes
        // per question on a ring buffer reached through pointers that the SAT core answers
        // in seconds, and on the 64 buggy benchmarks the localization's time fell by 45 %
        // with the same answers (BENCHMARKS.md, 53rd session). A program with floats keeps
        // the SMT core.
        if !d.fresh_solver {
            d.blasted = d.s.ask_on_bit_blaster();
        }
        Ok(d)
    }

    fn num(&self, k: i64) -> BV {
        BV::from_i64(k, self.width)
    }

    /// With no line selected the model must not pass.
    fn validate(&mut self) -> Result<(), OracleError> {
        let no_line: Vec<Bool> = self.diags.iter().map(|d| d.eq(self.num(0))).collect();
        self.runs += 1;
        // Asked of a fresh solver whatever `fresh_solver` says: with every diag variable
        // fixed the program is concrete along the schedule, and asserted (not assumed)
        // constants let Z3's preprocessing fold it away; the live solver, given the same
        // facts as assumptions, bit-blasts every statement copy first (minutes on a
        // pointer-heavy ring buffer, a quarter second fresh).
        let t = Instant::now();
        let answer = self.s.query(&self.end, &no_line);
        if std::env::var_os("SEQLOC_DEBUG_LOCALIZE").is_some() {
            eprintln!("validation query: {} ms", t.elapsed().as_millis());
        }
        match answer {
            Answer::Holds => Ok(()),
            Answer::Violated(_) => Err(OracleError::NotReproduced(
                "with no line changed the instrumented program can avoid the failure (a nondeterministic value the counterexample does not fix)".into(),
            )),
            Answer::Unknown(why) => Err(match why.limit() {
                Some(l) => OracleError::Limit(l, "validating the instrumented program"),
                None => OracleError::NotReproduced(format!("the solver could not decide: {why}")),
            }),
        }
    }

    /// The set's diag variables are increasing valid keys; the others select nothing.
    fn shape(&self, size: usize) -> Vec<Bool> {
        let mut shape: Vec<Bool> = Vec::new();
        for (i, d) in self.diags.iter().enumerate() {
            if i < size {
                let valid: Vec<Bool> = self.keys.iter().map(|k| d.eq(self.num(*k))).collect();
                shape.push(Bool::or(&valid));
                if let Some(next) = self.diags.get(i + 1).filter(|_| i + 1 < size) {
                    shape.push(d.bvslt(next));
                }
            } else {
                shape.push(d.eq(self.num(0)));
            }
        }
        shape
    }

    /// Rules out `set` and every set containing it.
    fn exclude(&mut self, set: &[u32]) {
        let contains: Vec<Bool> = set
            .iter()
            .map(|k| {
                let any: Vec<Bool> = self
                    .diags
                    .iter()
                    .map(|d| d.eq(self.num(*k as i64)))
                    .collect();
                Bool::or(&any)
            })
            .collect();
        self.s.add(&Bool::and(&contains).not());
    }

    fn ask(&mut self, extra: &[Bool]) -> Answer {
        let t = Instant::now();
        let mut a = if self.fresh_solver {
            self.s.query(&self.end, extra)
        } else {
            self.s.query_incremental(&self.end, extra)
        };
        // The QF_BV solver gives up on what it cannot bit-blast (a variable-length
        // array's object kept as an SMT array): the SMT core answers instead, from then on.
        if self.blasted && matches!(&a, Answer::Unknown(why) if why.limit().is_none()) {
            self.blasted = false;
            self.s.ask_on_smt_core();
            a = self.s.query_incremental(&self.end, extra);
        }
        if std::env::var_os("SEQLOC_DEBUG_LOCALIZE").is_some() {
            let what = match &a {
                Answer::Violated(_) => "sat",
                Answer::Holds => "unsat",
                Answer::Unknown(_) => "unknown",
            };
            eprintln!("localize query: {what} in {} ms", t.elapsed().as_millis());
        }
        a
    }
}

impl Oracle for Diagnose<'_> {
    fn max_set(&self) -> usize {
        self.diags.len()
    }

    fn next(&mut self, size: usize, excluded: &[Vec<u32>]) -> Result<Next, OracleError> {
        let fresh: Vec<Vec<u32>> = excluded.iter().skip(self.excluded_added).cloned().collect();
        for set in &fresh {
            self.exclude(set);
        }
        self.excluded_added = excluded.len();
        let size = size.clamp(1, self.diags.len().max(1));
        let shape = self.shape(size);
        self.runs += 1;
        match self.ask(&shape) {
            Answer::Holds => Ok(Next::Exhausted),
            Answer::Unknown(why) => Ok(Next::Stopped(match why.limit() {
                Some(l) => Stop::Limit(l),
                None => Stop::Undecided(format!("the solver could not decide ({why})")),
            })),
            Answer::Violated(model) => {
                let width = self.width;
                let mut set: Vec<u32> = self.diags[..size.min(self.diags.len())]
                    .iter()
                    .filter_map(|d| value(&model, d))
                    .map(|u| signed_value(u, width, true))
                    .filter(|v| *v > 0)
                    .map(|v| v as u32)
                    .collect();
                set.sort_unstable();
                set.dedup();
                if set.is_empty() {
                    return Err(OracleError::NotReproduced(
                        "the checker passed the program without selecting a line".into(),
                    ));
                }
                // Prefer a repair close to what the statement computed: a person reads
                // "had it stored 2 (it stored 1)" more easily than an arbitrary value.
                let model = self.nearer(&set, &shape, &model).unwrap_or(model);
                let changes = changes(&self.s, &model, self.ins, &set);
                Ok(Next::Found(Answered {
                    set,
                    changes,
                    stored: vec![],
                }))
            }
        }
    }

    fn runs(&self) -> u32 {
        self.runs
    }

    fn stats(&self) -> Stats {
        self.s.stats
    }
}

impl Diagnose<'_> {
    /// The simplest repair the same lines allow, for the hint: one statement copy changed
    /// (tried in execution order), to a value near the one it computed; else every copy
    /// near its value; else `None` (keep the first answer).
    fn nearer(&mut self, set: &[u32], shape: &[Bool], first: &z3::Model) -> Option<z3::Model> {
        let ins = self.ins;
        const NEAR: u64 = 8;
        const MAX_TRIES: usize = 6;
        let mut base: Vec<Bool> = shape.to_vec();
        // The same set, in the same order.
        for (d, k) in self.diags.iter().zip(set.iter()) {
            base.push(d.eq(BV::from_i64(*k as i64, d.get_size())));
        }
        // The records of the set's sites: whether each is active, its "unchanged" and
        // "near" conditions.
        struct Rec {
            active: Bool,
            same: Bool,
            near: Option<Bool>,
            changed_first: bool,
        }
        let mut recs: Vec<Rec> = Vec::new();
        for rec in &self.s.out.diags {
            let Some(site) = ins.sites.get(rec.site as usize) else {
                continue;
            };
            if !set.contains(&site.key) {
                continue;
            }
            let active = Bool::and(&[rec.guard.clone(), rec.selected.clone()]);
            let w = rec.chosen.get_size();
            let numeric =
                site.kind != SiteKind::Condition && !rec.ty.is_pointer(&ins.program.types);
            let near = (numeric && w >= 5).then(|| {
                rec.chosen
                    .bvsub(&rec.original)
                    .bvadd(BV::from_u64(NEAR, w))
                    .bvule(BV::from_u64(2 * NEAR, w))
            });
            let changed_first =
                truth(first, &active) && value(first, &rec.chosen) != value(first, &rec.original);
            recs.push(Rec {
                same: rec.chosen.eq(&rec.original),
                active,
                near,
                changed_first,
            });
        }
        let changed: Vec<usize> = (0..recs.len()).filter(|i| recs[*i].changed_first).collect();
        if changed.len() > 1 || recs.iter().any(|r| r.changed_first && r.near.is_some()) {
            // One copy at a time (the others keep their values): first with a value near the
            // original, then with any value, because a hint that changes one thread's copy
            // reads better than two arbitrary ones.
            for near in [true, false] {
                if !near && changed.len() <= 1 {
                    break;
                }
                for &i in changed.iter().take(MAX_TRIES) {
                    let mut extra = base.clone();
                    for (j, r) in recs.iter().enumerate() {
                        if j == i {
                            if let (true, Some(n)) = (near, &r.near) {
                                extra.push(r.active.implies(n));
                            }
                        } else {
                            extra.push(r.active.implies(&r.same));
                        }
                    }
                    self.runs += 1;
                    if let Answer::Violated(m) = self.ask(&extra) {
                        return Some(m);
                    }
                }
            }
        }
        let mut extra = base;
        for r in &recs {
            if let Some(n) = &r.near {
                extra.push(r.active.implies(n));
            }
        }
        self.runs += 1;
        match self.ask(&extra) {
            Answer::Violated(m) => Some(m),
            _ => None,
        }
    }
}

/// The site copies of `set`'s lines the model changed (selected, executed, and given a
/// value other than the one the statement computes).
fn changes(s: &Session, model: &z3::Model, ins: &Instrumented, set: &[u32]) -> Vec<Change> {
    let mut out = Vec::new();
    for rec in &s.out.diags {
        let Some(site) = ins.sites.get(rec.site as usize) else {
            continue;
        };
        if !set.contains(&site.key) || !truth(model, &rec.guard) || !truth(model, &rec.selected) {
            continue;
        }
        let signed = rec
            .ty
            .int_kind(&ins.program.types)
            .is_some_and(|k| k.is_signed());
        let (Some(c), Some(o)) = (value(model, &rec.chosen), value(model, &rec.original)) else {
            continue;
        };
        let w = rec.chosen.get_size();
        let (chosen, original) = (signed_value(c, w, signed), signed_value(o, w, signed));
        let boolean = site.kind == SiteKind::Condition
            || site.truth
            || matches!(
                rec.ty.resolve(&ins.program.types),
                crate::ir::Type::Int(crate::ir::IntKind::Bool)
            );
        let pointer = rec.ty.is_pointer(&ins.program.types);
        let differs = if boolean {
            (chosen != 0) != (original != 0)
        } else {
            chosen != original
        };
        if differs {
            let (chosen_text, original_text) = if pointer {
                (
                    Some(s.render_value(model, &rec.chosen, &rec.ty)),
                    Some(s.render_value(model, &rec.original, &rec.ty)),
                )
            } else {
                (None, None)
            };
            out.push(Change {
                site: rec.site,
                chosen,
                original,
                boolean,
                chosen_text,
                original_text,
            });
        }
    }
    out
}
