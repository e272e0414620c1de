//! The one replay: "along this schedule, can the program be followed, and does it fail?"
//!
//! Every such question — validating a checker's counterexample, replaying the explorer's
//! failure, the interleaving analyses' variants of the failing schedule, a user's
//! `--schedule` — is asked here: the concrete sequentialization (`seq::build` with
//! `Mode::Concrete`) encoded by the built-in checker, with "the run follows the schedule"
//! as assumptions. The sequentializer's options come from one [`Framework`] and one
//! [`ReplayBounds`], so `--rules`/`--templates` reach every replay.
//!
//! Each question re-sequentializes and re-encodes its schedule. Keeping one encoding and
//! changing the schedule by assumptions would make the analyses' many questions cheaper;
//! it is not done yet (the schedule decides which code each block holds).

use std::time::Instant;

use z3::ast::Bool;

use crate::cex::Counterexample;
use crate::checker::builtin::symex::{PropKind, SymexError, Validity};
use crate::checker::builtin::{Answer, BmcError, Limit, Session, Stats};
use crate::instrument::Target;
use crate::passes::Prepared;
use crate::seq::schedule::{Resolved, ResolvedBlock, Stop};
use crate::seq::{Framework, Mode, SeqError, SeqOptions, Sequentialized, sequentialize};

/// The loop and thread bounds of a replay.
#[derive(Clone, Copy, Debug)]
pub struct ReplayBounds {
    pub unwind: u32,
    pub max_threads: u32,
    pub recursion: u32,
}

#[derive(Debug, thiserror::Error)]
pub enum ReplayError {
    #[error("the schedule cannot be sequentialized: {0}")]
    Sequentialize(#[from] SeqError),
    /// A limit stopped the encoding or a solve that had to be answered.
    #[error("{}", crate::checker::builtin::stop::describe(*.0))]
    Limit(Limit),
    #[error(transparent)]
    Bmc(BmcError),
}

impl From<BmcError> for ReplayError {
    fn from(e: BmcError) -> Self {
        match e {
            BmcError::Symex(SymexError::Timeout) => ReplayError::Limit(
                crate::checker::builtin::stop::requested().unwrap_or(Limit::Time),
            ),
            e => ReplayError::Bmc(e),
        }
    }
}

/// The properties a target's failure is.
pub fn target_kinds(t: Target) -> Vec<PropKind> {
    match t {
        Target::Failure => vec![PropKind::Assertion, PropKind::Error],
        Target::Deadlock => vec![PropKind::Deadlock],
        Target::Unlock => vec![PropKind::Unlock],
    }
}

/// Whether two runs of one schedule leave every thread at the same place: each thread's
/// last step that is no synchronization call is the same statement in both (one replay
/// keeps the lock calls, the other drops them). A thread the lock-kept replay stopped at
/// a lock another thread held ends elsewhere; loops that went round a different number
/// of times (a condition wait kept in one) do not count.
fn same_ends(a: &Counterexample, b: &Counterexample) -> bool {
    let ends = |c: &Counterexample| -> std::collections::BTreeMap<u32, crate::ir::StmtId> {
        c.steps
            .iter()
            .filter(|s| !s.statement.contains("pthread_") && !s.statement.contains("sem_"))
            .map(|s| (s.thread, s.sid))
            .collect()
    };
    ends(a) == ends(b)
}

/// What [`Replayer::passing`] found.
enum Passing {
    Run(Box<Counterexample>),
    /// The loop bound cut the run short: no answer at this bound.
    Cut,
    None,
}

/// What replays of one program share: the program, the framework, the bounds, the
/// target and the deadline.
#[derive(Clone)]
pub struct Replayer<'a> {
    pub prep: &'a Prepared,
    pub framework: &'a Framework,
    pub bounds: ReplayBounds,
    pub target: Target,
    pub deadline: Option<Instant>,
}

impl<'a> Replayer<'a> {
    /// The sequentializer's options for this replayer's schedules.
    pub fn seq_options(&self) -> SeqOptions {
        let mut opts = self.framework.replay_options(
            self.bounds.unwind,
            self.bounds.max_threads,
            self.bounds.recursion,
            self.target == Target::Deadlock,
        );
        if self.keeps_locks() {
            opts.rules = self.framework.deadlock_rules.clone();
        }
        if self.target == Target::Unlock {
            // The unlocks are what is checked: they stay, and so do the locks.
            opts.rules = self.framework.deadlock_rules.clone();
            opts.unlocks = true;
        }
        opts
    }

    /// Whether a failure's replay keeps the lock calls (the deadlock group's rules, with
    /// no deadlock property): in a program that calls a trylock, what the trylock answers
    /// decides the path, and the non-deadlock group's removed trylock answers 0 where
    /// the checker's run found the lock held, so the failing run would not replay.
    fn keeps_locks(&self) -> bool {
        use crate::ir::known::{Known, calls};
        self.target == Target::Failure
            && self.drops_lock_calls()
            && calls(&self.prep.normalized, Known::MutexTrylock)
    }

    /// The sequential program that runs `r`.
    pub fn sequential(&self, r: &Resolved) -> Result<Sequentialized, SeqError> {
        sequentialize(
            &self.prep.normalized,
            &self.prep.shared,
            Mode::Concrete(r),
            &self.seq_options(),
        )
    }

    /// `r` sequentialized and encoded, ready for questions.
    pub fn encode(&self, r: &Resolved) -> Result<Replay, ReplayError> {
        let sq = self.sequential(r)?;
        Replay::encode(sq, self.deadline, false)
    }

    /// Whether the program fails (the target's way) along `r`. With `strict`, "no
    /// failure" counts only if some execution can follow `r`; without, a schedule no
    /// execution can follow counts as no failure too (with a preemption removed, the
    /// later blocks' stops are typically missed because the run took another path, away
    /// from the failure). A schedule the sequentializer refuses, or an undecided solve,
    /// is not evidence that the failure is gone: it counts as failing.
    ///
    /// Joins block in every replay, so a variant of a failing schedule may end with a
    /// thread waiting in a join whose thread has ended since (main's block run on past
    /// its preemption, up to its join of workers that ran later): the failure was not
    /// avoided, only left unreached. For a failure (not a deadlock), such a thread is let
    /// go on to its end after the schedule before "no failure" is answered.
    pub fn fails(&self, r: &Resolved, strict: bool) -> Result<bool, ReplayError> {
        let joiners = if self.target != Target::Deadlock {
            self.joining_threads(r)
        } else {
            Vec::new()
        };
        match self.replay_once(r, strict, strict || !joiners.is_empty())? {
            Once::Fails => return Ok(true),
            Once::Unfollowable => return Ok(strict),
            Once::Clean => {}
        }
        let mut r = r.clone();
        // Each round lets one waiting thread go on; a round in which none can ends it.
        for _ in 0..joiners.len() * 2 {
            let mut progressed = false;
            for &t in &joiners {
                let mut next = r.clone();
                next.ends = None;
                next.blocks.push(ResolvedBlock {
                    thread: t,
                    until: Stop::End,
                });
                match self.replay_once(&next, true, true)? {
                    Once::Fails => return Ok(true),
                    Once::Clean => {
                        r = next;
                        progressed = true;
                        break;
                    }
                    // The thread had ended: no block of it can follow.
                    Once::Unfollowable => {}
                }
            }
            if !progressed {
                break;
            }
        }
        Ok(false)
    }

    /// A run that follows `r` and does not fail the target's way, when one does (the
    /// root-cause search's passing runs), with every lock honoured, not cut short by the
    /// loop bound and not ending in a deadlock. A schedule the sequentializer refuses, or
    /// whose answer is undecided, has none.
    pub fn passing_run(&self, r: &Resolved) -> Result<Option<Counterexample>, ReplayError> {
        Ok(match self.passing(r)? {
            Passing::Run(cex) => Some(*cex),
            Passing::Cut | Passing::None => None,
        })
    }

    /// [`Self::passing_run`], with the loop bound doubled (at most `raises` times) while
    /// it cuts the run short: a passing schedule often loops more than the failing one
    /// (a reader that saw the data iterates over it). With the bound the run needed.
    pub fn passing_run_raising(
        &self,
        r: &Resolved,
        raises: u32,
    ) -> Result<Option<(Counterexample, u32)>, ReplayError> {
        let mut at = self.clone();
        for _ in 0..=raises {
            match at.passing(r)? {
                Passing::Run(cex) => return Ok(Some((*cex, at.bounds.unwind))),
                Passing::None => return Ok(None),
                Passing::Cut => at.bounds.unwind = at.bounds.unwind.saturating_mul(2).max(1),
            }
        }
        Ok(None)
    }

    fn passing(&self, r: &Resolved) -> Result<Passing, ReplayError> {
        let mut replay = match self.encode(r) {
            Ok(x) => x,
            Err(ReplayError::Sequentialize(_)) => return Ok(Passing::None),
            Err(e) => return Err(e),
        };
        if !matches!(replay.fails(self.target, true), Answer::Holds) {
            return Ok(Passing::None);
        }
        let Answer::Violated(model) = replay.followable(true) else {
            return Ok(Passing::None);
        };
        // A run the loop bound cut short has not shown a pass.
        if replay.bound_reached() {
            return Ok(Passing::Cut);
        }
        let run = replay.counterexample(&model, self.prep);
        // The non-deadlock rules drop lock calls: a variant of a failing schedule may run
        // a thread into a critical section another holds. Such a run is no execution.
        // Replayed with the locks kept, a thread run "until end" stops at the held lock
        // (its block ends there), so "some run follows" is not enough: the run with the
        // locks must leave every thread where the one without does.
        if self.target == Target::Failure && self.drops_lock_calls() && !self.keeps_locks() {
            match self.run_with_locks(r)? {
                Some(kept) if same_ends(&run, &kept) => {}
                _ => return Ok(Passing::None),
            }
        }
        // Nor is a run that ends with every live thread blocked a pass: a failure's
        // replay has no deadlock property, so ask the deadlock group's replay.
        if self.target != Target::Deadlock {
            let deadlock = Replayer {
                target: Target::Deadlock,
                ..self.clone()
            };
            if !matches!(deadlock.replay_once(r, true, false)?, Once::Clean) {
                return Ok(Passing::None);
            }
        }
        Ok(Passing::Run(Box::new(run)))
    }

    /// A run that follows `r` with the lock calls kept (the deadlock group's rules, no
    /// deadlock property), when one does.
    fn run_with_locks(&self, r: &Resolved) -> Result<Option<Counterexample>, ReplayError> {
        let opts = SeqOptions {
            deadlock: false,
            rules: self.framework.deadlock_rules.clone(),
            ..self.seq_options()
        };
        let sq = match sequentialize(
            &self.prep.normalized,
            &self.prep.shared,
            Mode::Concrete(r),
            &opts,
        ) {
            Ok(sq) => sq,
            Err(_) => return Ok(None),
        };
        let mut replay = Replay::encode(sq, self.deadline, false)?;
        Ok(match replay.followable(true) {
            Answer::Violated(model) => Some(replay.counterexample(&model, self.prep)),
            _ => None,
        })
    }

    /// One replay of `r`. Without `follow`, "no failure" is not asked whether a run
    /// follows `r` ([`Once::Clean`] either way); an undecided followability is a failure
    /// when `strict`, else a schedule no run follows.
    fn replay_once(&self, r: &Resolved, strict: bool, follow: bool) -> Result<Once, ReplayError> {
        let mut replay = match self.encode(r) {
            Ok(x) => x,
            Err(ReplayError::Sequentialize(_)) => return Ok(Once::Fails),
            Err(e) => return Err(e),
        };
        Ok(match replay.fails(self.target, true) {
            Answer::Violated(_) | Answer::Unknown(_) => Once::Fails,
            Answer::Holds if !follow => Once::Clean,
            Answer::Holds => match replay.followable(true) {
                Answer::Violated(_) => Once::Clean,
                Answer::Holds => Once::Unfollowable,
                Answer::Unknown(_) if strict => Once::Fails,
                Answer::Unknown(_) => Once::Unfollowable,
            },
        })
    }

    /// Whether every run that follows `r` fails the target's way, and some run does: the
    /// check of a schedule read from elsewhere (a witness) that fixes less than a run
    /// (a choice it cannot name, as a spurious wake-up, is left open). A schedule the
    /// sequentializer refuses, or an undecided solve, is no evidence that it does.
    pub fn reproduces(&self, r: &Resolved) -> Result<bool, ReplayError> {
        let mut replay = match self.encode(r) {
            Ok(x) => x,
            Err(ReplayError::Sequentialize(_)) => return Ok(false),
            Err(e) => return Err(e),
        };
        if !matches!(replay.fails(self.target, true), Answer::Violated(_)) {
            return Ok(false);
        }
        Ok(matches!(replay.passes(self.target), Answer::Holds))
    }

    /// The threads of `r` whose last block runs to the end (where a thread that blocks
    /// stops), when the program joins at all: those that may be waiting in a join.
    fn joining_threads(&self, r: &Resolved) -> Vec<u32> {
        let joins = self
            .prep
            .index
            .entries
            .iter()
            .any(|e| e.text.contains("pthread_join("));
        if !joins {
            return vec![];
        }
        r.threads
            .iter()
            .filter(|(t, _)| {
                r.blocks
                    .iter()
                    .rev()
                    .find(|b| b.thread == *t)
                    .is_some_and(|b| b.until == Stop::End)
            })
            .map(|(t, _)| *t)
            .collect()
    }
}

/// What the locks say about a failing schedule replayed with the non-deadlock rules.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum LockCheck {
    /// The rules drop no lock call the program makes, or a failing run follows the
    /// schedule with every lock honoured.
    Honoured,
    /// No failing run follows the schedule once the locks are honoured: some thread takes
    /// a lock another holds (or a trylock answers otherwise). `step` is the first schedule
    /// block (1-based) no run with locks follows past, when the solver names one.
    Broken { step: Option<i64> },
    /// Runs follow the schedule with the locks honoured, and none fails: a thread run
    /// "until end" stops at a held lock (a blocked thread's run ends there), or a lock
    /// call's answer (a trylock's `EBUSY`) changes the path.
    Passes,
    /// The question was not answered (a limit, an encoding the checker refuses).
    Undecided(String),
}

/// Why a schedule the locks refuse is refused, for the user; `None` for the others.
pub fn lock_refusal(check: &LockCheck) -> Option<String> {
    match check {
        LockCheck::Honoured => None,
        LockCheck::Broken { step } => {
            let past = step.map(|s| format!(" past block {s}")).unwrap_or_default();
            Some(format!(
                "with the locks honoured, no execution follows the schedule{past}: a thread takes a mutex or spin lock another thread holds (the non-deadlock replay drops lock calls, as Table II's rules do)"
            ))
        }
        LockCheck::Passes => Some(
            "with the locks honoured, no execution along the schedule fails: a thread the schedule runs on waits at a mutex or spin lock another thread holds (its run ends there), or a trylock finds the lock held and the run takes another path (the non-deadlock replay drops lock calls, as Table II's rules do)".into(),
        ),
        LockCheck::Undecided(why) => Some(format!(
            "whether the schedule honours the locks is undecided ({why})"
        )),
    }
}

impl Replayer<'_> {
    /// Table II's non-deadlock group removes mutex and spin-lock calls, which is sound for
    /// a schedule a checker produced under lock semantics, and for no other: a schedule
    /// written by hand, or read from an external checker's trace by seqloc's mapping, may
    /// have a thread take a lock another holds, and would then "replay" and "fail" along
    /// an execution that does not exist. This replays `r` once more with the deadlock
    /// group's rules (locks kept, no deadlock property) and asks whether it still fails.
    /// With `failing`, asks whether a run with locks still fails (what `localize` needs);
    /// without, only whether one follows the schedule (`sequentialize` of any schedule).
    pub fn check_locks(&self, r: &Resolved, failing: bool) -> Result<LockCheck, ReplayError> {
        if self.target != Target::Failure || !self.drops_lock_calls() || self.keeps_locks() {
            return Ok(LockCheck::Honoured);
        }
        let opts = SeqOptions {
            deadlock: false,
            rules: self.framework.deadlock_rules.clone(),
            ..self.seq_options()
        };
        let sq = sequentialize(
            &self.prep.normalized,
            &self.prep.shared,
            Mode::Concrete(r),
            &opts,
        )?;
        let mut replay = Replay::encode(sq, self.deadline, false)?;
        if failing {
            match replay.fails(Target::Failure, true) {
                Answer::Violated(_) => return Ok(LockCheck::Honoured),
                Answer::Unknown(why) => return Ok(LockCheck::Undecided(why.to_string())),
                Answer::Holds => {}
            }
        }
        Ok(match replay.followable(true) {
            Answer::Violated(_) if failing => LockCheck::Passes,
            Answer::Violated(_) => LockCheck::Honoured,
            Answer::Holds => LockCheck::Broken {
                step: replay.first_mismatch(),
            },
            Answer::Unknown(why) => LockCheck::Undecided(why.to_string()),
        })
    }

    /// Whether the program calls a function the non-deadlock rules remove and the
    /// deadlock rules model.
    fn drops_lock_calls(&self) -> bool {
        use crate::seq::rules::Action;
        let (nd, d) = (
            &self.framework.nondeadlock_rules,
            &self.framework.deadlock_rules,
        );
        let prog = &self.prep.normalized;
        let mut found = false;
        for f in &prog.funcs {
            let Some(body) = &f.body else { continue };
            crate::ir::visit::each_expr(body, &mut |e| {
                if let crate::ir::ExprKind::Call(c, _) = &e.kind
                    && let crate::ir::ExprKind::Func(g) = &c.peel().kind
                {
                    let name = &prog.func(*g).name;
                    found |= nd.action(name) == Some(Action::Remove)
                        && d.action(name).is_some_and(|a| a != Action::Remove);
                }
            });
            if found {
                break;
            }
        }
        found
    }
}

/// What one replay answered.
enum Once {
    /// It fails the target's way (or the answer is not evidence that it does not).
    Fails,
    /// A run follows the schedule, and none fails.
    Clean,
    /// No run follows the schedule.
    Unfollowable,
}

/// One schedule's sequential program, encoded.
pub struct Replay {
    pub session: Session,
}

impl Replay {
    /// Encodes a concrete sequential program. The framework's loop runs once per block
    /// (`steps`), user loops were unrolled already: `steps + 2` unwindings cover it.
    /// `valid_loads` discards executions that read through a pointer into no object (the
    /// localizer's models).
    pub fn encode(
        sq: Sequentialized,
        deadline: Option<Instant>,
        valid_loads: bool,
    ) -> Result<Replay, ReplayError> {
        Replay::encode_bounded(sq, 0, deadline, valid_loads)
    }

    /// [`Replay::encode`] with `extra` more unwindings (a replay of the explorer's path,
    /// whose loops ran up to `extra` times).
    pub fn encode_bounded(
        sq: Sequentialized,
        extra: u32,
        deadline: Option<Instant>,
        valid_loads: bool,
    ) -> Result<Replay, ReplayError> {
        let bound = sq.steps + 2 + extra;
        let session = if valid_loads {
            Session::new_valid(sq, bound, deadline, Validity::Objects)?
        } else {
            Session::new(sq, bound, deadline)?
        };
        Ok(Replay { session })
    }

    fn follows(&self) -> Vec<Bool> {
        self.session.mismatch_lits().iter().map(Bool::not).collect()
    }

    /// Does a run that follows the schedule fail with one of `kinds`?
    pub fn fails_with(&mut self, kinds: &[PropKind], incremental: bool) -> Answer {
        let lits = self.session.property_lits(kinds);
        let follows = self.follows();
        if incremental {
            self.session.query_incremental(&lits, &follows)
        } else {
            self.session.query(&lits, &follows)
        }
    }

    /// Does a run that follows the schedule fail the target's way?
    pub fn fails(&mut self, target: Target, incremental: bool) -> Answer {
        self.fails_with(&target_kinds(target), incremental)
    }

    /// Does a run that follows the schedule end without failing the target's way?
    pub fn passes(&mut self, target: Target) -> Answer {
        let mut assumed = self.follows();
        assumed.extend(
            self.session
                .property_lits(&target_kinds(target))
                .iter()
                .map(Bool::not),
        );
        self.session.query(&[Bool::from_bool(true)], &assumed)
    }

    /// Can any run follow the schedule to its end?
    pub fn followable(&mut self, incremental: bool) -> Answer {
        let follows = self.follows();
        let t = [Bool::from_bool(true)];
        if incremental {
            self.session.query_incremental(&t, &follows)
        } else {
            self.session.query(&t, &follows)
        }
    }

    /// The first block (1-based) no run can follow past, when some run leaves the
    /// schedule.
    pub fn first_mismatch(&mut self) -> Option<i64> {
        let m = self.session.mismatch_lits();
        match self.session.query(&m, &[]) {
            Answer::Violated(model) => self.session.mismatch_step(&model),
            _ => None,
        }
    }

    /// Whether some run is cut short by the loop bound.
    pub fn bound_reached(&mut self) -> bool {
        let u = self.session.unwind_lits();
        matches!(self.session.query(&u, &[]), Answer::Violated(_))
    }

    /// The failing run of a model, named in the program's statements.
    pub fn counterexample(&self, model: &z3::Model, prep: &Prepared) -> Counterexample {
        self.session
            .counterexample(model, &prep.index, &prep.normalized)
    }

    pub fn stats(&self) -> &Stats {
        &self.session.stats
    }
}
