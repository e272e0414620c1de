//! The sequentializer: one sequential program that executes a multi-threaded program's
//! interleaving (paper 004, section IV), in the `switch(order[i])` framework.
//!
//! One mechanism, two uses. Every thread instance gets a *slot*: its code (inlined,
//! unrolled, locals kept in globals so they survive context switches) cut into numbered
//! program points, each point's statements guarded by "this thread is between its resume
//! point and its switch point". Which thread runs when, and where it stops, is data:
//!
//! * [`Mode::Symbolic`] — for the built-in checker: the switch points are
//!   nondeterministic and bounded by rounds (lazy sequentialization, as in Lazy-CSeq), so
//!   the sequential program has every bounded interleaving among its executions;
//! * [`Mode::Concrete`] — for localization and inspection: `order[]` and the stop points
//!   come from one schedule, so the program replays exactly that interleaving.
//!
//! The pthread calls follow Table II through [`rules`]; blocking operations become
//! assumptions (symbolic) or explicit "the thread stops here" (concrete), so a deadlock
//! along the schedule is reproduced.

pub mod build;
pub mod rules;
pub mod schedule;
pub mod skeleton;

use crate::ir::*;
pub use build::{Inputs, sequentialize, sequentialize_with_inputs};
use rules::Rules;
use schedule::Resolved;

#[derive(Clone, Debug)]
pub struct SeqOptions {
    /// Default loop bound (counted loops use their exact trip count).
    pub unwind: u32,
    /// Rounds of round-robin scheduling (symbolic mode).
    pub rounds: u32,
    /// Most thread slots (main included) the symbolic program provides.
    pub max_threads: u32,
    /// Recursion depth for inlining.
    pub recursion: u32,
    /// Check for deadlocks (all live threads blocked) at the end.
    pub deadlock: bool,
    /// Check at each unlock that its mutex is locked (the unlock property). Only with the
    /// deadlock group's rules: the other group removes the unlocks.
    pub unlocks: bool,
    /// The most statements a thread's code may unroll to (its calls inlined), when the
    /// caller chose the bound itself and would rather have no program than one that does
    /// not fit in memory ([`SeqError::TooLarge`]).
    pub max_statements: Option<u128>,
    /// Symbolic mode: the most context switches a run may have (`--context-switches`).
    pub max_switches: Option<u32>,
    pub rules: Rules,
    /// The framework's `main` (`templates/framework.c`).
    pub skeleton: skeleton::Skeleton,
}

impl Default for SeqOptions {
    fn default() -> Self {
        SeqOptions {
            unwind: 3,
            rounds: 2,
            max_threads: 32,
            recursion: 3,
            deadlock: true,
            unlocks: false,
            max_statements: None,
            max_switches: None,
            rules: Rules::deadlock(),
            skeleton: skeleton::Skeleton::builtin(),
        }
    }
}

/// What `--rules DIR` and `--templates DIR` choose, loaded once and used by every
/// sequentialization of a run: the symbolic search's, every replay's and the printed
/// programs' (so an override changes the built-in search too, not only the replay).
#[derive(Clone, Debug)]
pub struct Framework {
    pub deadlock_rules: Rules,
    pub nondeadlock_rules: Rules,
    pub skeleton: skeleton::Skeleton,
}

#[derive(Debug, thiserror::Error)]
pub enum FrameworkError {
    #[error(transparent)]
    Rules(#[from] rules::RulesError),
    #[error(transparent)]
    Skeleton(#[from] skeleton::SkeletonError),
}

impl Default for Framework {
    fn default() -> Self {
        Framework::builtin()
    }
}

impl Framework {
    /// The compiled-in rules and framework.
    pub fn builtin() -> Framework {
        Framework {
            deadlock_rules: Rules::deadlock(),
            nondeadlock_rules: Rules::nondeadlock(),
            skeleton: skeleton::Skeleton::builtin(),
        }
    }

    /// `DIR/{deadlock,nondeadlock}.toml` and `DIR/framework.c`, each only when its
    /// directory is given.
    pub fn load(
        rules_dir: Option<&std::path::Path>,
        templates_dir: Option<&std::path::Path>,
    ) -> Result<Framework, FrameworkError> {
        let (deadlock_rules, nondeadlock_rules) = match rules_dir {
            Some(d) => Rules::load_dir(d)?,
            None => (Rules::deadlock(), Rules::nondeadlock()),
        };
        Ok(Framework {
            deadlock_rules,
            nondeadlock_rules,
            skeleton: skeleton::Skeleton::load(templates_dir)?,
        })
    }

    /// Options for replaying one schedule (one round): Table II's deadlock group for a
    /// deadlock, the other group otherwise.
    pub fn replay_options(
        &self,
        unwind: u32,
        max_threads: u32,
        recursion: u32,
        deadlock: bool,
    ) -> SeqOptions {
        SeqOptions {
            unwind: unwind.max(1),
            rounds: 1,
            max_threads: max_threads.max(1),
            recursion: recursion.max(unwind).max(1),
            deadlock,
            unlocks: false,
            max_statements: None,
            max_switches: None,
            rules: if deadlock {
                self.deadlock_rules.clone()
            } else {
                self.nondeadlock_rules.clone()
            },
            skeleton: self.skeleton.clone(),
        }
    }

    /// Options for the symbolic search and for replaying the explorer's failures: the
    /// deadlock group always (mutexes that block), with the deadlock check on request.
    pub fn search_options(
        &self,
        unwind: u32,
        rounds: u32,
        max_threads: u32,
        recursion: u32,
        deadlock: bool,
    ) -> SeqOptions {
        SeqOptions {
            unwind,
            rounds,
            max_threads,
            // The unwinding bounds recursion too (as CBMC's `--unwind` does): a deeper
            // phase of the search inlines deeper, and a replay of a path that recursed
            // as often as it looped has the depth it needs.
            recursion: recursion.max(unwind).max(1),
            deadlock,
            unlocks: false,
            max_statements: None,
            max_switches: None,
            rules: self.deadlock_rules.clone(),
            skeleton: self.skeleton.clone(),
        }
    }
}

#[derive(Clone, Copy, Debug)]
pub enum Mode<'a> {
    Symbolic,
    Concrete(&'a Resolved),
}

/// What the checker needs to know about the program the sequentializer built.
#[derive(Clone, Debug)]
pub struct Sequentialized {
    pub program: Program,
    /// Thread entry functions; index 0 is `main`. `__seq_fn[slot]` holds an index.
    pub thread_fns: Vec<FuncId>,
    pub slots: Vec<SlotInfo>,
    pub vars: SeqVars,
    /// Rounds (symbolic) or blocks (concrete).
    pub steps: u32,
    /// Thread creations beyond the slot bound are cut off (the exploration is bounded).
    pub slot_bound: u32,
}

impl Sequentialized {
    /// Rounds that hold every interleaving of this program (symbolic mode): more rounds
    /// add no execution, so a search with this many is complete in its schedule.
    ///
    /// Why: a run of a slot executes the points from its `__seq_pc` up to a later
    /// `__seq_cs` (the skeleton's assumption), and an empty run is always possible. Take
    /// any execution and make each run that is not its thread's last end right after the
    /// last point it executed that other threads can tell from not having run (one that
    /// touches what they see, synchronizes, blocks, or begins or ends an atomic section):
    /// the points after it were skipped by the code's control flow or touch only the
    /// thread's own data, and the thread's next run executes them instead, which no other
    /// thread can tell (the sequentializer cuts points on the same judgement); drop runs
    /// left empty. Such a run then ends right after such a point that may leave the
    /// thread outside an atomic section ([`PointInfo::may_end_run`]: the skeleton allows
    /// no switch inside one), each point at most once; so a slot has at most one run
    /// more than it has such points (its last point aside: the thread ends there). Put the runs into the round-robin
    /// greedily (as the skeleton does): a new round starts only where a run of a higher
    /// slot is followed by one of a lower slot, so the rounds needed are one more than
    /// such descents, each of which ends a run of a slot other than the first and is
    /// followed by a run of a slot other than the last.
    pub fn rounds_enough(&self) -> u32 {
        let runs: Vec<u64> = self
            .slots
            .iter()
            .map(|s| {
                s.codes
                    .iter()
                    .map(|c| {
                        let last = c.points.len().saturating_sub(1);
                        let ends = c.points.iter().take(last).filter(|p| p.may_end_run);
                        ends.count() as u64 + 1
                    })
                    .max()
                    .unwrap_or(0)
            })
            .collect();
        rounds_for(&runs)
    }
}

/// [`Sequentialized::rounds_enough`] for slots with at most these numbers of runs, in slot
/// order.
fn rounds_for(runs: &[u64]) -> u32 {
    let after_first: u64 = runs.iter().skip(1).sum();
    let before_last: u64 = runs.iter().take(runs.len().saturating_sub(1)).sum();
    u32::try_from(after_first.min(before_last).saturating_add(1)).unwrap_or(u32::MAX)
}

#[derive(Clone, Debug)]
pub struct SlotInfo {
    pub id: u32,
    pub codes: Vec<SlotCode>,
}

#[derive(Clone, Debug)]
pub struct SlotCode {
    /// Index into [`Sequentialized::thread_fns`].
    pub thread_fn: usize,
    pub func: FuncId,
    pub name: String,
    pub points: Vec<PointInfo>,
    /// The generated function holding this slot's code.
    pub code_func: FuncId,
}

#[derive(Clone, Debug)]
pub struct PointInfo {
    /// The statement that starts the point (the program as written).
    pub head: StmtId,
    pub loc: Loc,
    /// Statements of the point: their ids and locations, in order.
    pub stmts: Vec<(StmtId, Loc)>,
    /// The statement each translated step of the point came from, in order. A source
    /// statement may give several steps (a declaration whose initializer is an inlined
    /// call: the declaration, the argument binding, the result); a schedule's
    /// `occurrence` counts steps, so the checker and the replay count alike.
    pub step_heads: Vec<StmtId>,
    /// The point reads or writes memory other threads see, or synchronizes.
    pub visible: bool,
    /// A blocking operation (lock, join, wait): its enabling condition.
    pub blocking: Option<Expr>,
    pub kind: PointKind,
    /// Other threads can tell whether this point ran (it touches what they see,
    /// synchronizes, blocks, or begins or ends an atomic section), and executing it may
    /// leave the thread outside an atomic section: some run that is not the thread's
    /// last may have to end right after it ([`Sequentialized::rounds_enough`]).
    pub may_end_run: bool,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum PointKind {
    Code,
    /// The thread's last point: it finishes here.
    Exit,
}

/// Variables of the framework.
#[derive(Clone, Debug)]
pub struct SeqVars {
    pub pc: VarId,
    pub cs: VarId,
    pub created: VarId,
    pub done: VarId,
    /// Each thread's detach state (`build::actions`): 0 joinable, 1 detached, 2 joined.
    pub detached: VarId,
    pub fnid: VarId,
    pub arg: VarId,
    pub ret: VarId,
    pub nthreads: VarId,
    pub halted: VarId,
    pub atomic: VarId,
    pub wait: VarId,
    pub sig: VarId,
    pub tls: VarId,
    pub nkeys: VarId,
    pub dtor: VarId,
    pub stop: VarId,
    pub stop_reason: VarId,
    pub order: VarId,
    pub stop_sid: VarId,
    pub stop_occ: VarId,
    /// Whether a block's stop is counted within the block ([`schedule::Stop::BeforeInBlock`]).
    pub stop_in_block: VarId,
    /// Arrivals of the running block's thread at its stop statement since the block began.
    pub stop_seen: VarId,
    pub order_index: VarId,
    pub probed: VarId,
    pub blocked: VarId,
    pub dead: VarId,
    pub tmp: VarId,
    /// Symbolic mode: a property was violated; nothing runs after it, so the end-of-run
    /// probes see where every thread stood at the failure.
    pub failed: VarId,
}

impl SeqVars {
    /// Every framework variable.
    pub fn all(&self) -> Vec<VarId> {
        vec![
            self.pc,
            self.cs,
            self.created,
            self.done,
            self.detached,
            self.fnid,
            self.arg,
            self.ret,
            self.nthreads,
            self.halted,
            self.atomic,
            self.wait,
            self.sig,
            self.tls,
            self.nkeys,
            self.dtor,
            self.stop,
            self.stop_reason,
            self.order,
            self.stop_sid,
            self.stop_occ,
            self.stop_in_block,
            self.stop_seen,
            self.order_index,
            self.probed,
            self.blocked,
            self.dead,
            self.tmp,
            self.failed,
        ]
    }
}

#[derive(Debug, thiserror::Error)]
pub enum SeqError {
    #[error("the program has no `main` function")]
    NoMain,
    #[error(transparent)]
    Inline(#[from] crate::passes::inline::InlineError),
    #[error(transparent)]
    Skeleton(#[from] skeleton::SkeletonError),
    #[error("schedule step {step}: {reason}")]
    Schedule { step: usize, reason: String },
    #[error(
        "`{function}` unrolls to about {statements} statements at this loop bound, more than the {limit} allowed"
    )]
    TooLarge {
        function: String,
        statements: u128,
        limit: u128,
    },
    /// A construct the sequentializer refuses: the spot's message names it and says why.
    #[error("{}: {}", .0.location(), .0.message)]
    Unsupported(Box<crate::diagnostics::SourceSpot>),
}

impl SeqError {
    /// Where in the source the refused construct stands, for a located report.
    pub fn spot(&self) -> Option<&crate::diagnostics::SourceSpot> {
        match self {
            SeqError::Unsupported(s) => Some(s),
            SeqError::Inline(crate::passes::inline::InlineError::Unsupported(s)) => Some(s),
            _ => None,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::rounds_for;

    /// `src` (the file `t.c`) lowered and prepared.
    fn prepared(src: &str) -> crate::passes::Prepared {
        let prog = crate::frontend::load_text("t.c", src, crate::ir::types::DataModel::Lp64)
            .expect("parses");
        crate::passes::Prepared::new(prog)
    }

    /// `prep`'s symbolic sequential program with `opts`.
    fn symbolic(
        prep: &crate::passes::Prepared,
        opts: &crate::seq::SeqOptions,
    ) -> Result<crate::seq::Sequentialized, crate::seq::SeqError> {
        crate::seq::sequentialize(
            &prep.normalized,
            &prep.shared,
            crate::seq::Mode::Symbolic,
            opts,
        )
    }

    /// Rounds enough for every interleaving of a program whose workers read `n` and `k`,
    /// which `main` sets (or, with `late`, changes again after the threads start).
    fn rounds_with(late: bool) -> u32 {
        let src = format!(
            "typedef unsigned long pthread_t;\n\
             extern int pthread_create(pthread_t *, void *, void *(*)(void *), void *);\n\
             extern int pthread_join(pthread_t, void **); extern void reach_error(void);\n\
             extern int __VERIFIER_nondet_int(void);\nint n, k, r1, r2;\n\
             void *w1(void *a) {{ r1 = n + k; r1 = r1 + n; return 0; }}\n\
             void *w2(void *a) {{ r2 = n - k; r2 = r2 - k; return 0; }}\n\
             int main(void) {{ pthread_t a, b; n = __VERIFIER_nondet_int(); k = 3;\n\
             pthread_create(&a, 0, w1, 0); pthread_create(&b, 0, w2, 0); {}\n\
             pthread_join(a, 0); pthread_join(b, 0); if (r1 == r2 + 100) reach_error();\n\
             return 0; }}\n",
            if late { "k = 4;" } else { "" }
        );
        let prep = prepared(&src);
        let opts = crate::seq::Framework::builtin().search_options(2, 2, 3, 1, false);
        let sq = symbolic(&prep, &opts).expect("sequentializes");
        sq.rounds_enough()
    }

    /// A thread whose calls, inlined, nest loops beyond the caller's statement budget is
    /// refused before it is unrolled (the explorer's replay then leaves the failure to
    /// the bounded search); without a budget it is built.
    #[test]
    fn a_thread_past_the_statement_budget_is_too_large() {
        let src = "typedef unsigned long pthread_t;\n\
             extern int pthread_create(pthread_t *, void *, void *(*)(void *), void *);\n\
             extern int pthread_join(pthread_t, void **);\nint x;\n\
             void inner(void) { for (int j = 0; j < 50; j++) x = x + j; }\n\
             void *w(void *a) { for (int i = 0; i < 50; i++) inner(); return 0; }\n\
             int main(void) { pthread_t a; pthread_create(&a, 0, w, 0); pthread_join(a, 0); return 0; }\n";
        let prep = prepared(src);
        let build = |max_statements| {
            let opts = crate::seq::SeqOptions {
                max_statements,
                ..crate::seq::Framework::builtin().search_options(2, 2, 3, 1, false)
            };
            symbolic(&prep, &opts)
        };
        assert!(matches!(
            build(Some(1_000)),
            Err(crate::seq::SeqError::TooLarge { .. })
        ));
        assert!(build(None).is_ok());
    }

    /// The unlock property's check is in the sequential program only when asked for:
    /// one per unlock the threads run (default and typed mutexes alike).
    #[test]
    fn unlock_checks_only_when_asked_for() {
        let src = "typedef unsigned long pthread_t; typedef struct { int x; } pthread_mutex_t;\n\
             extern int pthread_create(pthread_t *, void *, void *(*)(void *), void *);\n\
             extern int pthread_join(pthread_t, void **);\n\
             extern int pthread_mutex_lock(pthread_mutex_t *); extern int pthread_mutex_unlock(pthread_mutex_t *);\n\
             pthread_mutex_t m; int x;\n\
             void *w(void *a) { pthread_mutex_lock(&m); x = 1; pthread_mutex_unlock(&m); return 0; }\n\
             int main(void) { pthread_t a; pthread_create(&a, 0, w, 0); pthread_join(a, 0); return 0; }\n";
        let prep = prepared(src);
        let checks = |unlocks: bool| {
            let opts = crate::seq::SeqOptions {
                unlocks,
                ..crate::seq::Framework::builtin().search_options(2, 2, 3, 1, false)
            };
            let sq = symbolic(&prep, &opts).expect("sequentializes");
            let mut n = 0;
            for f in &sq.program.funcs {
                if let Some(body) = &f.body {
                    crate::ir::visit::each_expr(body, &mut |e| {
                        n += matches!(
                            e.kind,
                            crate::ir::ExprKind::Intrinsic(crate::ir::Intrinsic::MustHold, _)
                        ) as usize;
                    });
                }
            }
            n
        };
        assert_eq!(checks(false), 0);
        assert!(checks(true) >= 1);
    }

    /// Globals `main` froze before the first thread started are read with no point before
    /// them: the workers' only points are their writes of `r1`, `r2`.
    #[test]
    fn reads_of_globals_main_froze_are_no_points() {
        let frozen = rounds_with(false);
        let changed = rounds_with(true);
        assert!(frozen < changed, "{frozen} rounds vs {changed}");
    }

    #[test]
    fn one_thread_needs_one_round() {
        assert_eq!(rounds_for(&[40]), 1);
        assert_eq!(rounds_for(&[]), 1);
    }

    #[test]
    fn a_short_thread_bounds_the_switches_of_a_long_main() {
        // main 12 runs at most, the thread 2: the thread's two runs each need a round of
        // their own at most, and main's last run one more.
        assert_eq!(rounds_for(&[12, 2]), 3);
        assert_eq!(rounds_for(&[2, 12]), 3);
    }

    #[test]
    fn with_many_slots_the_smaller_sum_bounds_the_descents() {
        // Descents end a run of slot 1 or 2 (4 + 5 runs at most) and are followed by a
        // run of slot 0 or 1 (3 + 4).
        assert_eq!(rounds_for(&[3, 4, 5]), 8);
    }
}
