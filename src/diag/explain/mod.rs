//! From the checker's answers to what a person reads: the candidates, ranked, each with
//! its position, the threads that ran it, the shared variables it reads and writes, and a
//! repair hint in source terms ("had the read of `x` returned 2 (it returned 1), the
//! assertion at line 25 would hold") — never solver terms.

use std::collections::{BTreeMap, BTreeSet, HashMap};

mod barriers;
mod calls;
mod deadlocks;
mod early_unlocks;
mod escapes;
mod interleaving;
mod jumps;
pub mod lock_choice;
mod lock_helpers;
mod onces;
mod orderings;
mod sections;
mod statics;
mod switches;
mod trylocks;
mod unlocks;
mod wakes;

use crate::analysis::shared::SharedInfo;
use crate::cex::{Counterexample, ViolationKind};
use crate::instrument::Instrumented;
use crate::instrument::{Change, Finding};
use crate::instrument::{SiteKind, Target};
use crate::ir::*;

#[derive(Clone, Debug)]
pub struct ThreadRef {
    pub id: u32,
    pub function: String,
}

/// One changed statement copy, for people.
#[derive(Clone, Debug)]
pub struct ChangeView {
    pub thread: u32,
    pub column: u32,
    pub what: String,
    pub chosen: String,
    pub original: String,
}

/// How a candidate was found.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum CandidateKind {
    /// Griesmeyer: changing the value the line computes avoids the failure along the
    /// failing interleaving.
    Value,
    /// The failure needs a context switch right after or before this line (see
    /// `diag::interleaving`): the statements on both sides must not be separated.
    Atomicity,
    /// A lock acquisition guarding accesses that conflict with accesses under a different
    /// lock in another thread, or a lock held into a deadlock.
    Locking,
    /// Where a thread blocks for ever in a deadlock.
    Blocking,
    /// A statement that ran too early: the failure needs it to run before another
    /// thread's conflicting block (see `diag::ordering`); or the creation of a thread
    /// that started too early.
    Ordering,
    /// An access of the differential projection (see `rootcause`): a read whose source
    /// changes between the failing run and the closest passing run, or a write it read
    /// from in one of them.
    Flow,
}

#[derive(Clone, Debug)]
pub struct Candidate {
    pub rank: usize,
    pub kind: CandidateKind,
    pub file: String,
    pub line: u32,
    pub column: u32,
    /// Columns of the statements on the line the checker changed (several statements on
    /// one line are told apart here).
    pub columns: Vec<u32>,
    /// The diag value that names the line.
    pub diag: u32,
    /// Threads that ran the line in the failing interleaving.
    pub threads: Vec<ThreadRef>,
    pub reads: Vec<String>,
    pub writes: Vec<String>,
    /// For a set of lines that must change together: its number (from 1); `null` for a
    /// single line.
    pub set: Option<usize>,
    pub hint: String,
    /// The line of the failing check itself: changing it means the check, not the
    /// program, is wrong. Ranked after the other single lines.
    pub specification: bool,
    pub changes: Vec<ChangeView>,
    pub loc: Loc,
    pub source_line: Option<String>,
    /// The repair it names runs a whole thread only after another is done (a creation
    /// moved after a join): it removes every interleaving of the two, the bluntest repair.
    pub whole_thread: bool,
    /// Its part in the failure beyond its kind, for the ranking (`rootcause::rank`).
    pub role: Role,
    /// The ranking names it where the failure arises (`rootcause::rank::mark_causes`:
    /// where the schedule must change, or else the projection's first divergence), not
    /// among the values that may only carry it. `false` for every candidate when no
    /// cause was established.
    pub cause: bool,
    /// A one-token change of the line that removes the failure from every execution
    /// (`mutation`), as "`3` for `4` at column 12"; only on plain value candidates.
    pub fixed_by: Option<String>,
    /// Set by the ranking (`rootcause::rank`): a value candidate no analysis and no
    /// differential projection names — one of the values that may only carry the
    /// failure, which `mutation` may reorder.
    pub plain_value: bool,
}

impl Candidate {
    /// A candidate of `kind` on `line` of `p.c` that names nothing else: for the rankings'
    /// tests, and a base the candidates made outside the explainer complete
    /// (`mutation::apply_primitive_fixes`).
    pub(crate) fn on_line(line: u32, kind: CandidateKind) -> Candidate {
        Candidate {
            rank: 0,
            kind,
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
            loc: Loc(0),
            source_line: None,
            whole_thread: false,
            role: Role::Plain,
            cause: false,
            fixed_by: None,
            plain_value: false,
        }
    }
}

/// What the ranking knows of a candidate beyond its kind.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum Role {
    #[default]
    Plain,
    /// Where a preempted thread that never ran again would have resumed: a boundary of
    /// the region that should be one step, known from the schedule, not from a run.
    NotResumed,
    /// The same, inside a function the thread's last step was calling.
    NotResumedInCallee,
    /// An atomicity boundary on a call whose callee holds the other boundary (the thread
    /// resumed inside it): the boundary in the thread's own code, and the line inside.
    CallBoundary,
    BoundaryInCallee,
    /// A deadlock's condition wait outside any loop: it never tests whether the signal
    /// already came, so one sent before it is lost (a lost wake-up).
    BareWait,
    /// A deadlock's hold-and-wait: where a thread blocks for ever while holding a lock
    /// (`HoldsWhileBlocked`), or where it took a lock it holds then (`TookHeldLock`). The
    /// cycle closes here; Coffman's condition that every deadlock needs.
    HoldsWhileBlocked,
    TookHeldLock,
    /// A deadlock's call made holding a lock, inside which the thread blocks on another
    /// lock: the lock order crosses a function boundary, and the call is where the
    /// second lock is asked for under the first (move it out of the section, or take the
    /// locks in one order).
    CallWhileHolding,
    /// A deadlock's thread blocked in `pthread_join` when its own code, after the join,
    /// unlocks, signals or posts what another blocked thread waits for: the join holds
    /// that wake-up back and closes the cycle (the join belongs after the wake-up).
    JoinBeforeWake,
    /// A thread blocked in `pthread_join` that holds no lock and has nothing left in its
    /// function that could wake another blocked thread: it waits for the deadlock, it is
    /// not part of it.
    Bystander,
    /// A value change of a thread handle (what `pthread_create` stores): the library
    /// chooses it, so "had it been another value" is no change a program can make.
    ThreadHandle,
    /// The `pthread_create` of a thread that only reads what another thread writes, when
    /// it started before that write was made: a use before initialisation (an order
    /// violation), whose repair is to start the reader later or make it wait.
    StartedTooEarly,
    /// A write another thread saw before the same writer's earlier-needed write to
    /// another location (a flag raised before the data it announces): the writer
    /// published out of order.
    PublishedEarly,
    /// The data write of a publication out of order (see `PublishedEarly`), made only
    /// after the flag another thread saw: the other end of the same repair.
    PublishedData,
    /// A write another thread tested before it overwrote data the writer still read
    /// afterwards (a "done with it" flag set before the last use): `rootcause::handback`.
    HandedBackEarly,
    /// A compare-exchange whose result the thread dropped, at one end of a region another
    /// thread's write broke into (`diag::explain::switches`).
    DroppedExchange,
    /// The unlock and the lock that split a thread's check from its act on the same
    /// location, when another thread's access came in between (a critical section
    /// released too early and taken again).
    SplitSection,
    /// An unlock that released data the thread went on reading through a pointer it set
    /// inside the section (`diag::explain::escapes`).
    EscapedPointer,
    /// A read of what another thread writes, made before the reader's own
    /// `pthread_join` of that thread (and the join): the reader did not wait for the
    /// result it joins for (an order violation: the read belongs after the join).
    ReadBeforeJoin,
    /// A deadlock's thread locking a mutex it already holds (a self-deadlock): the second
    /// lock, or the call made holding the mutex whose callee locks it again.
    Relock,
    /// A deadlock's thread that left a function holding a mutex the function unlocks on
    /// another path (an early `return` between the lock and the unlock), then went on
    /// and blocked: the way out that skipped the unlock.
    SkippedUnlock,
    /// A deadlock's thread that left its function by a way that skips the post or signal
    /// the function makes on another path, while another thread waits for it.
    SkippedWake,
    /// A synchronization object declared as a local of a function several threads run:
    /// each thread locks, waits on or initialises its own copy, which excludes nothing.
    OwnCopy,
    /// A condition wait guarded by `if`, not a loop, that the failing run woke from
    /// (`diag::waits`, CERT CON36-C): the `if`.
    IfGuardedWait,
    /// A test, in a critical section taken back, of a local copied from shared data in
    /// the thread's earlier section of the same mutex: it decides on a stale value.
    StaleTest,
    /// A value candidate on a line that is also one end of a region the failure needs
    /// preempted (`CandidateKind::Atomicity`): the atomicity analysis names no candidate
    /// of its own where a line already has one, so the line keeps its value words and
    /// takes this role — a boundary, after the ones the analysis named itself.
    AlsoBoundary,
    /// The same, where the thread was preempted inside this one line (a read-modify-write
    /// such as `total += v` split between its read and its write): the line is the whole
    /// region, not one end of it, and ranks with the boundaries the analysis named.
    SplitStatement,
    /// A statement that ran too early inside a critical section whose mutex the other
    /// thread held at its conflicting access too: the lock excluded the two, and only
    /// their order failed — a protocol between the sections (a wait for a condition),
    /// which a data race beside it more often explains, or a check that asks for one
    /// order of two updates that may come in either. Not marked where the failure
    /// arises; after the projection's lines.
    OrderedSections,
    /// A statement (or the creation of its thread) that ran before a thread that never
    /// ran at all in the failing run (`diag::ordering::unstarted`): running that thread
    /// first passes, but its writes may only overwrite a wrong start value the statement
    /// read, and a reader running first is often meant. With the plain values.
    NeverRanFirst,
    /// The same, on the test of a condition wait's loop: the waiter went on without
    /// waiting although the thread it needed never ran, so the test does not wait for
    /// what the thread needs (a wrong wait condition).
    WaitTestLetThrough,
    /// A conflicting access made holding no lock, when the other thread held one at its
    /// access to the same location along the failing run (`diag::interleaving::Unprotected`,
    /// Eraser's lockset rule): the two accesses never excluded each other, and this is the
    /// one without the lock — where a dropped `pthread_mutex_lock` belongs.
    Unprotected,
    /// A thread's `trylock` whose failure it did not test, when the thread then unlocked
    /// the mutex another thread held (`diag::interleaving::ForeignUnlock`): the unlock
    /// freed the holder's section, and this attempt is where the thread went on without
    /// the lock.
    ForeignUnlock,
    /// A deadlock's signal or broadcast sent to another condition variable than the one
    /// a blocked thread waits on, which nothing signals (`diag::explain::wakes`).
    WrongWake,
    /// The declaration of a block-scope `static` that several threads' calls of its
    /// function used as scratch (`diag::explain::statics`): the one variable all calls
    /// share, where each needed its own.
    SharedStatic,
    /// A direct call of a `pthread_once` init routine, when the failing run entered the
    /// routine more than once (`diag::explain::onces`): the call that should go through
    /// `pthread_once`.
    OnceBypassed,
    /// An unlock made just before the thread's access of a location other threads access
    /// holding that mutex (`diag::explain::early_unlocks`): the access belongs inside.
    ReleasedEarly,
    /// The `pthread_barrier_init` of a barrier made for fewer threads than wait at it:
    /// it let a thread through before another arrived, whose work the first then used.
    ShortBarrier,
    /// The test of a kept `trylock` result that turned back on some failures but let the
    /// failing run's through to an access without the lock (`diag::explain::trylocks`).
    TrylockLetThrough,
    /// The unlock that failed the unlock property: it gives back a mutex no thread holds
    /// (`diag::explain::unlocks`). The line to remove, or the path that should have
    /// taken the lock before it.
    FreeUnlock,
}

/// Context for explaining answers.
pub struct Explainer<'a> {
    pub normalized: &'a Program,
    pub shared: &'a SharedInfo,
    pub ins: &'a Instrumented,
    pub cex: &'a Counterexample,
    stmts: HashMap<StmtId, Stmt>,
    /// The statements of `__VERIFIER_atomic_*` functions: each call runs as one step.
    atomic_body: std::collections::HashSet<StmtId>,
    /// The function (its index) each statement belongs to.
    function: HashMap<StmtId, usize>,
    /// seqloc's temporaries as the expressions they copy (`crate::ir::print::temp_origins`).
    origins: HashMap<crate::ir::VarId, String>,
    /// The objects the failing run's pointers name throughout (`from->balance` is
    /// `bob.balance` in the thread that set `from = &bob`).
    pointers: crate::diag::interleaving::StablePointers,
}

impl<'a> Explainer<'a> {
    pub fn new(
        normalized: &'a Program,
        shared: &'a SharedInfo,
        ins: &'a Instrumented,
        cex: &'a Counterexample,
    ) -> Explainer<'a> {
        let mut stmts = HashMap::new();
        let mut atomic_body = std::collections::HashSet::new();
        let mut function = HashMap::new();
        for (fi, f) in normalized.funcs.iter().enumerate() {
            if let Some(body) = &f.body {
                let atomic = crate::ir::known::is_atomic_function(&f.name);
                crate::ir::visit::each_stmt(body, &mut |s| {
                    if !s.id.is_none() && !matches!(s.kind, StmtKind::Block(_)) {
                        stmts.entry(s.id).or_insert_with(|| s.clone());
                        function.entry(s.id).or_insert(fi);
                        if atomic {
                            atomic_body.insert(s.id);
                        }
                    }
                });
            }
        }
        Explainer {
            normalized,
            shared,
            ins,
            cex,
            stmts,
            atomic_body,
            function,
            origins: crate::ir::print::temp_origins(normalized),
            pointers: crate::diag::interleaving::StablePointers::of(&cex.steps),
        }
    }

    /// The function a statement belongs to.
    pub(crate) fn function_of(&self, sid: StmtId) -> Option<usize> {
        self.function.get(&sid).copied()
    }

    /// The statement belongs to a `__VERIFIER_atomic_*` function.
    pub fn in_atomic_function(&self, sid: StmtId) -> bool {
        self.atomic_body.contains(&sid)
    }

    /// The ranked candidates of all findings: single lines first (ranked), then sets.
    pub fn candidates(&self, findings: &[Finding]) -> Vec<Candidate> {
        let mut singles: Vec<Candidate> = Vec::new();
        let mut sets: Vec<Candidate> = Vec::new();
        let mut set_no = 0;
        for f in findings {
            let set = if f.set.len() > 1 {
                set_no += 1;
                Some(set_no)
            } else {
                None
            };
            let hint = self.hint(f);
            for key in &f.set {
                let Some(c) = self.candidate(*key, f, set, &hint) else {
                    continue;
                };
                if set.is_some() {
                    sets.push(c);
                } else {
                    singles.push(c);
                }
            }
        }
        // Lines that touch shared memory first, then the ones that ran last before the
        // failure (closest to it), then by position.
        let last_run = |c: &Candidate| {
            self.cex
                .steps
                .iter()
                .rposition(|s| s.line == c.line && same_file(&s.file, &c.file))
                .map(|i| i as i64)
                .unwrap_or(-1)
        };
        singles.sort_by_key(|c| {
            (
                c.specification,
                c.reads.is_empty() && c.writes.is_empty(),
                -last_run(c),
                c.file.clone(),
                c.line,
            )
        });
        let mut out = singles;
        out.extend(sets);
        renumber(&mut out);
        out
    }

    fn candidate(
        &self,
        key: u32,
        f: &Finding,
        set: Option<usize>,
        hint: &str,
    ) -> Option<Candidate> {
        let lk = self.ins.line(key)?;
        let sites: Vec<&crate::instrument::Site> =
            self.ins.sites.iter().filter(|s| s.key == key).collect();
        let changed: Vec<(&Change, &crate::instrument::Site)> = f
            .changes
            .iter()
            .filter_map(|c| {
                let s = self.ins.sites.get(c.site as usize)?;
                (s.key == key).then_some((c, s))
            })
            .collect();
        let mut columns: BTreeSet<u32> = changed
            .iter()
            .filter_map(|(_, s)| self.col_of(s.loc))
            .collect();
        if columns.is_empty() {
            columns = sites.iter().filter_map(|s| self.col_of(s.loc)).collect();
        }
        let column = columns.iter().next().copied().unwrap_or(1);
        let threads: Vec<ThreadRef> = {
            let mut ids: BTreeSet<u32> = self
                .cex
                .steps
                .iter()
                .filter(|s| s.line == lk.line && same_file(&s.file, &lk.file))
                .map(|s| s.thread)
                .collect();
            // A start value is no thread's step.
            if ids.is_empty() && !sites.iter().all(|s| s.sid.is_none()) {
                ids = changed.iter().map(|(_, s)| s.slot).collect();
            }
            ids.into_iter().map(|id| self.thread_ref(id)).collect()
        };
        let (reads, writes) = self.accesses(&lk.file, lk.line);
        let changes = changed
            .iter()
            .map(|(c, s)| ChangeView {
                thread: s.slot,
                column: self.col_of(s.loc).unwrap_or(0),
                what: self.describe_site(s),
                chosen: self.value_text(c, true),
                original: self.value_text(c, false),
            })
            .collect();
        let loc = sites
            .iter()
            .find(|s| self.col_of(s.loc) == Some(column))
            .map(|s| s.loc)
            .unwrap_or(lk.loc);
        let v = &self.cex.violation;
        let specification = self.ins.target == Target::Failure
            && v.kind != ViolationKind::Deadlock
            && v.line == lk.line
            && same_file(&v.file, &lk.file);
        let hint = if specification && set.is_none() {
            format!("the check itself may be wrong: {hint}")
        } else {
            hint.to_string()
        };
        Some(Candidate {
            rank: 0,
            kind: CandidateKind::Value,
            specification,
            file: lk.file.clone(),
            line: lk.line,
            column,
            columns: columns.into_iter().collect(),
            diag: key,
            threads,
            reads,
            writes,
            set,
            hint,
            changes,
            loc,
            source_line: self.normalized.sources.source_line(loc).map(str::to_string),
            whole_thread: false,
            role: if self.creates_thread(&sites) {
                Role::ThreadHandle
            } else {
                Role::Plain
            },
            cause: false,
            fixed_by: None,
            plain_value: false,
        })
    }

    pub(crate) fn push_step_candidate(
        &self,
        extra: &mut Vec<Candidate>,
        existing: &[Candidate],
        step: &crate::cex::TraceStep,
        kind: CandidateKind,
        hint: &str,
    ) {
        let same = |c: &Candidate| c.line == step.line && same_file(&c.file, &step.file);
        if existing.iter().any(same) || extra.iter().any(same) {
            return;
        }
        let (reads, writes) = self.accesses(&step.file, step.line);
        let column = self
            .normalized
            .sources
            .position(step.loc)
            .map(|p| p.col)
            .unwrap_or(1);
        extra.push(Candidate {
            // Keeps the trace order for the sort above.
            rank: extra.len(),
            kind,
            file: step.file.clone(),
            line: step.line,
            column,
            columns: vec![column],
            diag: 0,
            threads: vec![self.thread_ref(step.thread)],
            reads,
            writes,
            set: None,
            hint: hint.to_string(),
            specification: false,
            changes: vec![],
            loc: step.loc,
            source_line: self
                .normalized
                .sources
                .source_line(step.loc)
                .map(str::to_string),
            whole_thread: false,
            role: Role::Plain,
            cause: false,
            fixed_by: None,
            plain_value: false,
        });
    }

    /// `T<id> <function>`, as the report names threads.
    pub(crate) fn thread_name(&self, id: u32) -> String {
        let r = self.thread_ref(id);
        format!("T{} {}", r.id, r.function)
    }

    pub fn thread_ref(&self, id: u32) -> ThreadRef {
        let function = self
            .cex
            .schedule
            .threads
            .iter()
            .find(|t| t.id == id)
            .map(|t| t.function.clone())
            .or_else(|| self.created_function(id))
            .unwrap_or_else(|| "?".into());
        ThreadRef { id, function }
    }

    /// The function thread `id` was created to run, read from its `pthread_create` in the
    /// trace (threads are numbered in creation order): for a thread that never ran, which
    /// the schedule does not list.
    fn created_function(&self, id: u32) -> Option<String> {
        let at = crate::diag::ordering::creation_index(&self.cex.steps, id)?;
        let stmt = self.stmts.get(&self.cex.steps.get(at)?.sid)?;
        let mut found = None;
        crate::ir::visit::each_expr(stmt, &mut |e| {
            if let ExprKind::Call(c, args) = &e.kind {
                let create = matches!(c.peel().kind, ExprKind::Func(f)
                    if crate::ir::known::classify(&self.normalized.func(f).name)
                        == crate::ir::known::Known::ThreadCreate);
                if let (true, Some(ExprKind::Func(g))) =
                    (create, args.get(2).map(|a| &a.peel().kind))
                {
                    found.get_or_insert_with(|| self.normalized.func(*g).name.clone());
                }
            }
        });
        found
    }

    /// What the failure was, as the end of a hint sentence.
    pub(crate) fn outcome(&self) -> String {
        let v = &self.cex.violation;
        match (self.ins.target, v.kind) {
            (Target::Deadlock, _) | (_, ViolationKind::Deadlock) => {
                "the threads would not deadlock along this interleaving".into()
            }
            (_, ViolationKind::Assertion) => {
                format!("the assertion at line {} would hold", v.line)
            }
            (_, ViolationKind::Unlock) => {
                format!("the unlock at line {} would find its mutex locked", v.line)
            }
            (_, ViolationKind::Error) => {
                let what = self
                    .normalized
                    .sources
                    .source_line(v.loc)
                    .filter(|l| l.contains("assert"))
                    .map(|_| "the assertion")
                    .unwrap_or("the error location");
                if what == "the assertion" {
                    format!("the assertion at line {} would hold", v.line)
                } else {
                    format!("{what} at line {} would not be reached", v.line)
                }
            }
        }
    }

    /// The repair hint of one finding.
    pub fn hint(&self, f: &Finding) -> String {
        let outcome = self.outcome();
        let mut parts: Vec<String> = Vec::new();
        let mut seen: BTreeSet<(u32, u32)> = BTreeSet::new();
        let threads_of_key = |key: u32| -> BTreeSet<u32> {
            self.ins
                .sites
                .iter()
                .filter(|s| s.key == key)
                .map(|s| s.slot)
                .collect()
        };
        // A line run several times (a loop, a helper called twice) may need each of its
        // runs changed: the first is shown, and how many more there are, so the hint is
        // not read as "this one change suffices".
        let mut runs: BTreeMap<(u32, u32), usize> = BTreeMap::new();
        for c in &f.changes {
            if let Some(site) = self.ins.sites.get(c.site as usize) {
                *runs.entry((site.key, site.slot)).or_insert(0) += 1;
            }
        }
        for c in &f.changes {
            let Some(site) = self.ins.sites.get(c.site as usize) else {
                continue;
            };
            if !seen.insert((site.key, site.slot)) && !parts.is_empty() {
                continue;
            }
            if parts.len() >= 3 {
                parts.push("…".into());
                break;
            }
            let mut p = format!(
                "line {}: {}",
                self.line_of(site.loc),
                self.change_text(c, site)
            );
            if threads_of_key(site.key).len() > 1 {
                let t = self.thread_ref(site.slot);
                p.push_str(&format!(" in T{} {}", t.id, t.function));
            }
            match runs.get(&(site.key, site.slot)).copied().unwrap_or(1) {
                0 | 1 => {}
                2 => p.push_str(", and one later run of the line changed too"),
                n => p.push_str(&format!(
                    ", and {} later runs of the line changed too",
                    n - 1
                )),
            }
            parts.push(p);
        }
        if parts.is_empty() {
            let lines: Vec<String> = f.set.iter().map(|k| format!("line {k}")).collect();
            return format!("changing {}, {outcome}", lines.join(" and "));
        }
        format!("{} — {outcome}", parts.join("; "))
    }

    /// The column of `loc`, moved off whitespace to the next character of the line: a
    /// statement expanded from a macro (`assert`) may be placed just before its text.
    fn col_of(&self, loc: Loc) -> Option<u32> {
        let col = self.normalized.sources.position(loc)?.col;
        let Some(text) = self.normalized.sources.source_line(loc) else {
            return Some(col);
        };
        Some(snap_column(text, col))
    }

    fn line_of(&self, loc: Loc) -> u32 {
        self.normalized.sources.line(loc)
    }

    fn value_text(&self, c: &Change, chosen: bool) -> String {
        let text = if chosen {
            &c.chosen_text
        } else {
            &c.original_text
        };
        if let Some(t) = text {
            return t.clone();
        }
        let v = if chosen { c.chosen } else { c.original };
        let truth_valued = self
            .ins
            .sites
            .get(c.site as usize)
            .and_then(|s| self.stmts.get(&s.sid))
            .and_then(|s| self.stored(s))
            .is_some_and(|(_, r)| r.is_truth_valued());
        if c.boolean || truth_valued {
            if v != 0 {
                "true".into()
            } else {
                "false".into()
            }
        } else {
            v.to_string()
        }
    }

    /// What the statement copy computes, in source terms: a description that would name
    /// a temporary of seqloc's (`__ret`, `__t`) says what it is instead.
    fn describe_site(&self, site: &crate::instrument::Site) -> String {
        let text = self.describe_site_raw(site);
        if !crate::ir::internal::mentions_internal_name(&text) {
            return text;
        }
        match &site.kind {
            SiteKind::Condition => "the condition".into(),
            SiteKind::Store { lhs, .. } if lhs.contains("__ret") => {
                "the value the call returns".into()
            }
            // The variable the value goes to, as the program names it (the printer adds
            // `_N` to tell copies apart).
            SiteKind::Store { lhs, .. } => {
                let base = lhs.trim_start_matches("*&");
                let base = match base.rsplit_once('_') {
                    Some((b, n)) if !b.is_empty() && n.chars().all(|c| c.is_ascii_digit()) => b,
                    _ => base,
                };
                let known = self.normalized.vars.iter().any(|v| v.name == base);
                if known && !crate::ir::internal::is_internal_name(base) {
                    format!("`{base}`")
                } else {
                    "the value computed there".into()
                }
            }
        }
    }

    fn describe_site_raw(&self, site: &crate::instrument::Site) -> String {
        let stmt = self.stmts.get(&site.sid);
        match (&site.kind, stmt) {
            (SiteKind::Condition, Some(s)) => match &s.kind {
                StmtKind::If { cond, .. } => format!("the condition `{}`", self.expr_text(cond)),
                _ => "the condition".into(),
            },
            (SiteKind::Condition, None) => "the condition".into(),
            (SiteKind::Store { lhs, temp }, s) => {
                let target = s.and_then(|s| self.stored(s));
                match target {
                    Some((_, r)) if *temp => match self.read_of(&r) {
                        Some(x) => format!("the read of `{x}`"),
                        None => format!("the value of `{}`", self.expr_text(&r)),
                    },
                    Some((l, _)) => format!("`{}`", self.lvalue_text(&l)),
                    None => format!("`{}`", lhs.trim_start_matches("*&")),
                }
            }
        }
    }

    fn change_text(&self, c: &Change, site: &crate::instrument::Site) -> String {
        let mut chosen = self.value_text(c, true);
        let mut original = self.value_text(c, false);
        // Two values that read alike as truth values (2 and 1 are both "true"): the numbers,
        // rather than "had it been true (it was true)".
        if chosen == original && c.chosen != c.original && c.chosen_text.is_none() {
            chosen = c.chosen.to_string();
            original = c.original.to_string();
        }
        let stmt = self.stmts.get(&site.sid);
        if let Some(call) = stmt.and_then(|s| self.lock_call(s)) {
            let (name, obj) = call;
            if matches!(
                name.as_str(),
                "pthread_mutex_lock"
                    | "pthread_mutex_trylock"
                    | "pthread_spin_lock"
                    | "pthread_spin_trylock"
            ) {
                return if c.chosen == 0 {
                    format!("had `{name}` left `{obj}` free (not taken it)")
                } else {
                    format!("had `{name}` stored {chosen} in `{obj}` (it stored {original})")
                };
            }
        }
        if let Some(text) = stmt.and_then(|s| self.barrier_or_once_change(s, c)) {
            return text;
        }
        match &site.kind {
            SiteKind::Condition => format!(
                "had {} been {chosen} (it was {original})",
                self.describe_site(site)
            ),
            SiteKind::Store { temp: true, .. } => {
                let what = self.describe_site(site);
                if what.starts_with("the read") {
                    format!("had {what} returned {chosen} (it returned {original})")
                } else {
                    format!("had {what} been {chosen} (it was {original})")
                }
            }
            // Two pointers that read the same (two heap objects from one line).
            SiteKind::Store { temp: false, .. } if chosen == original => format!(
                "had {} been set to another object than {original}",
                self.describe_site(site)
            ),
            // A global's start value (`instrument`'s initial values have no statement).
            SiteKind::Store { temp: false, .. } if site.sid.is_none() => format!(
                "had {} started at {chosen} (it starts at {original})",
                self.describe_site(site)
            ),
            SiteKind::Store { temp: false, .. } => format!(
                "had {} been set to {chosen} (it was set to {original})",
                self.describe_site(site)
            ),
        }
    }

    /// `(function, object)` for a pthread mutex or condition call on `&object`.
    /// A change at a barrier or `pthread_once` call, in the calls' terms: the object is
    /// an encoded integer in the sequential program (see `seq::build::sync`), whose raw
    /// values mean nothing to the user.
    fn barrier_or_once_change(&self, s: &Stmt, c: &Change) -> Option<String> {
        use crate::ir::known::Known;
        let call = match &s.kind {
            StmtKind::Expr(e) => match &e.kind {
                ExprKind::Assign(_, r) => r.as_ref(),
                _ => e,
            },
            StmtKind::Decl {
                init: Some(Init::Expr(e)),
                ..
            } => e,
            _ => return None,
        };
        let ExprKind::Call(f, args) = &call.peel().kind else {
            return None;
        };
        let ExprKind::Func(fid) = f.peel().kind else {
            return None;
        };
        let known = crate::ir::known::classify(&self.normalized.func(fid).name);
        let obj = self.object_text(args.first()?);
        // The count of a barrier no thread has reached yet: its low 10 bits.
        let count = |v: i128| (0..0x400).contains(&v).then_some(v);
        Some(match known {
            // The original is the program's constant when it wrote one: the sequential
            // program stores a count no cycle can reach as the thread slots plus one.
            Known::BarrierInit => match (count(c.chosen), args.get(2).and_then(Expr::as_int)) {
                (Some(n), Some(o)) => {
                    format!("had `pthread_barrier_init` given `{obj}` a count of {n} (it gave {o})")
                }
                (Some(n), None) => {
                    format!("had `pthread_barrier_init` given `{obj}` a count of {n}")
                }
                _ => format!("had `pthread_barrier_init` left `{obj}` in another state"),
            },
            Known::BarrierArrive | Known::BarrierLeave => format!(
                "had `pthread_barrier_wait` found `{obj}` in another state (its cycle complete)"
            ),
            Known::OnceBegin | Known::OnceEnd => {
                format!("had `pthread_once` found `{obj}` in another state")
            }
            _ => return None,
        })
    }

    pub(super) fn lock_call(&self, s: &Stmt) -> Option<(String, String)> {
        let StmtKind::Expr(e) = &s.kind else {
            return None;
        };
        let call = match &e.kind {
            ExprKind::Assign(_, r) => r,
            _ => e,
        };
        let ExprKind::Call(f, args) = &call.peel().kind else {
            return None;
        };
        let ExprKind::Func(fid) = f.peel().kind else {
            return None;
        };
        let name = self.normalized.func(fid).name.clone();
        if !(name.starts_with("pthread_mutex_")
            || name.starts_with("pthread_spin_")
            || name.starts_with("pthread_cond_"))
        {
            return None;
        }
        Some((name, self.object_text(args.first()?)))
    }

    /// The object a call's argument names, as the program writes it: `&m` as `m`.
    fn object_text(&self, arg: &Expr) -> String {
        let arg = arg.peel();
        match &arg.kind {
            ExprKind::AddrOf(x) => self.lvalue_text(x),
            _ => self.expr_text(arg),
        }
    }

    /// The lvalue and value a normalized statement stores.
    fn stored(&self, s: &Stmt) -> Option<(Expr, Expr)> {
        match &s.kind {
            StmtKind::Expr(e) => match &e.kind {
                ExprKind::Assign(l, r) => Some(((**l).clone(), (**r).clone())),
                _ => None,
            },
            StmtKind::Decl {
                var,
                init: Some(Init::Expr(r)),
            } => Some((Expr::var(*var, self.normalized, s.loc), r.clone())),
            _ => None,
        }
    }

    /// `x` when `e` is a read of shared memory `x`.
    fn read_of(&self, e: &Expr) -> Option<String> {
        let p = e.peel();
        (p.is_lvalue() && self.shared.is_shared_lvalue(p)).then(|| self.lvalue_text(p))
    }

    fn expr_text(&self, e: &Expr) -> String {
        crate::ir::print::expr_in_source_terms_with(self.normalized, e, &self.origins)
    }

    /// An lvalue as a person names it: `x`, `buf[]`, `*p`, `s.count`.
    fn lvalue_text(&self, e: &Expr) -> String {
        match &e.kind {
            ExprKind::Var(v) => match self.origins.get(v) {
                Some(o) => o.clone(),
                None => self.normalized.var(*v).shown_name().to_string(),
            },
            ExprKind::Index(b, _) => match &b.kind {
                ExprKind::Decay(a) => format!("{}[]", self.lvalue_text(a)),
                _ => format!("{}[]", self.expr_text(b)),
            },
            ExprKind::Deref(p) => match &p.peel().kind {
                ExprKind::AddrOf(x) => self.lvalue_text(x),
                _ => format!("*{}", self.expr_text(p)),
            },
            ExprKind::Cast { e, .. } => self.lvalue_text(e),
            _ => self.expr_text(e),
        }
    }

    /// Shared memory the statements of `file:line` read and write (the program as
    /// written, after normalization).
    pub fn accesses(&self, file: &str, line: u32) -> (Vec<String>, Vec<String>) {
        let mut reads = BTreeSet::new();
        let mut writes = BTreeSet::new();
        for s in self.stmts.values() {
            let Some(p) = self.normalized.sources.position(s.loc) else {
                continue;
            };
            if p.line != line || !same_file(p.file, file) {
                continue;
            }
            self.stmt_accesses(s, &mut reads, &mut writes);
        }
        (reads.into_iter().collect(), writes.into_iter().collect())
    }

    /// [`Self::accesses`] of the step's line, an access through a pointer the step's
    /// thread set to one object for the whole run named by that object: what the
    /// interleaving analyses compare between threads.
    pub fn thread_accesses(&self, s: &crate::cex::TraceStep) -> (Vec<String>, Vec<String>) {
        let (r, w) = self.accesses(&s.file, s.line);
        let resolve = |v: Vec<String>| -> Vec<String> {
            let set: BTreeSet<String> = v
                .iter()
                .map(|x| self.pointers.resolve(s.thread, x))
                .collect();
            set.into_iter().collect()
        };
        (resolve(r), resolve(w))
    }

    /// Whether the statements of `file:line` only carry a value on: each copies one
    /// (`x = y;`, `x = s.f;`, `x = *p;`, `x = a[i];`, `return x;`, a declaration so
    /// initialised) and computes nothing — no operator, no call, no condition. `false`
    /// for a line with no statement.
    pub fn only_copies(&self, file: &str, line: u32) -> bool {
        fn plain(e: &Expr) -> bool {
            match &e.kind {
                ExprKind::Var(_) | ExprKind::Int(_) => true,
                ExprKind::Member(b, _) | ExprKind::Deref(b) | ExprKind::Decay(b) => plain(b),
                ExprKind::Cast { e, .. } => plain(e),
                ExprKind::Index(b, i) => plain(b) && plain(i),
                _ => false,
            }
        }
        let mut any = false;
        for s in self.stmts.values() {
            let Some(p) = self.normalized.sources.position(s.loc) else {
                continue;
            };
            if p.line != line || !same_file(p.file, file) {
                continue;
            }
            any = true;
            let copy = match &s.kind {
                StmtKind::Expr(e) => match &e.kind {
                    ExprKind::Assign(l, r) => plain(l) && plain(r),
                    _ => false,
                },
                StmtKind::Decl { init, .. } => match init {
                    None => true,
                    Some(crate::ir::Init::Expr(e)) => plain(e),
                    Some(crate::ir::Init::List(_)) => false,
                },
                StmtKind::Return(e) => e.as_ref().is_none_or(plain),
                StmtKind::Skip | StmtKind::Label(_) => true,
                _ => false,
            };
            if !copy {
                return false;
            }
        }
        any
    }

    /// Shared memory the one normalized statement `sid` reads and writes (at most one
    /// access, by the normalization's invariant, besides a lock call's object); `None`
    /// for a statement the program does not have (a step the replay made up).
    pub fn stmt_access(&self, sid: StmtId) -> Option<(Vec<String>, Vec<String>)> {
        let s = self.stmts.get(&sid)?;
        let mut reads = BTreeSet::new();
        let mut writes = BTreeSet::new();
        self.stmt_accesses(s, &mut reads, &mut writes);
        Some((reads.into_iter().collect(), writes.into_iter().collect()))
    }

    fn stmt_accesses(&self, s: &Stmt, reads: &mut BTreeSet<String>, writes: &mut BTreeSet<String>) {
        if let Some((_, obj)) = self.lock_call(s) {
            writes.insert(obj);
            return;
        }
        let mut rvalues: Vec<&Expr> = Vec::new();
        match &s.kind {
            StmtKind::Expr(e) => match &e.kind {
                ExprKind::Assign(l, r) => {
                    if self.shared.is_shared_lvalue(l) {
                        writes.insert(self.lvalue_text(l));
                    }
                    self.lvalue_reads(l, reads);
                    rvalues.push(r);
                }
                _ => rvalues.push(e),
            },
            StmtKind::Decl {
                init: Some(Init::Expr(r)),
                ..
            } => rvalues.push(r),
            StmtKind::If { cond, .. } => rvalues.push(cond),
            StmtKind::Return(Some(r)) => rvalues.push(r),
            _ => {}
        }
        for r in rvalues {
            self.reads_in(r, reads);
        }
    }

    /// Reads made while computing the address of an lvalue (`a[i]` reads `i`).
    fn lvalue_reads(&self, l: &Expr, out: &mut BTreeSet<String>) {
        match &l.kind {
            ExprKind::Index(b, i) => {
                self.reads_in(i, out);
                if !matches!(b.kind, ExprKind::Decay(_)) {
                    self.reads_in(b, out);
                }
            }
            ExprKind::Deref(p) if !matches!(p.peel().kind, ExprKind::AddrOf(_)) => {
                self.reads_in(p, out);
            }
            ExprKind::Member(b, _) => self.lvalue_reads(b, out),
            _ => {}
        }
    }

    fn reads_in(&self, e: &Expr, out: &mut BTreeSet<String>) {
        match &e.kind {
            ExprKind::AddrOf(x) => self.lvalue_reads(x, out),
            ExprKind::Decay(x) => self.lvalue_reads(x, out),
            k if e.is_lvalue() && !matches!(k, ExprKind::Str(_) | ExprKind::Compound(_)) => {
                if self.shared.is_shared_lvalue(e) {
                    out.insert(self.lvalue_text(e));
                }
                self.lvalue_reads(e, out);
            }
            _ => {
                let mut subs: Vec<&Expr> = Vec::new();
                children(e, &mut subs);
                for s in subs {
                    self.reads_in(s, out);
                }
            }
        }
    }
}

/// Direct sub-expressions.
fn children<'e>(e: &'e Expr, out: &mut Vec<&'e Expr>) {
    match &e.kind {
        ExprKind::Unary(_, a)
        | ExprKind::Cast { e: a, .. }
        | ExprKind::Decay(a)
        | ExprKind::AddrOf(a)
        | ExprKind::Deref(a)
        | ExprKind::Member(a, _) => out.push(a),
        ExprKind::Binary(_, a, b)
        | ExprKind::Assign(a, b)
        | ExprKind::Index(a, b)
        | ExprKind::Comma(a, b) => {
            out.push(a);
            out.push(b);
        }
        ExprKind::OpAssign { lhs, rhs, .. } => {
            out.push(lhs);
            out.push(rhs);
        }
        ExprKind::IncDec { e, .. } => out.push(e),
        ExprKind::Cond(a, b, c) => {
            out.push(a);
            out.push(b);
            out.push(c);
        }
        ExprKind::Call(f, args) => {
            out.push(f);
            out.extend(args.iter());
        }
        ExprKind::Intrinsic(_, args) => out.extend(args.iter()),
        _ => {}
    }
}

/// `extra` after `out`'s candidates but before the value candidates on the failing check
/// itself (those go last), renumbered.
fn before_specification(mut out: Vec<Candidate>, extra: Vec<Candidate>) -> Vec<Candidate> {
    let spec_at = out
        .iter()
        .position(|c| c.specification)
        .unwrap_or(out.len());
    let tail = out.split_off(spec_at);
    out.extend(extra);
    out.extend(tail);
    renumber(&mut out);
    out
}

/// `col` (from 1, in bytes) of `line`, or the first column after it that is not
/// whitespace when it points at whitespace (unchanged when the rest of the line is blank).
fn snap_column(line: &str, col: u32) -> u32 {
    let bytes = line.as_bytes();
    let mut i = col.saturating_sub(1) as usize;
    while i < bytes.len() && bytes[i].is_ascii_whitespace() {
        i += 1;
    }
    if i < bytes.len() { i as u32 + 1 } else { col }
}

/// Ranks from 1 in list order.
pub(crate) fn renumber(cands: &mut [Candidate]) {
    for (i, c) in cands.iter_mut().enumerate() {
        c.rank = i + 1;
    }
}

/// Whether two file names, as a trace or a report spells them, name the same file.
pub fn same_file(a: &str, b: &str) -> bool {
    a == b || a.ends_with(&format!("/{b}")) || b.ends_with(&format!("/{a}"))
}

#[cfg(test)]
mod tests {
    use super::snap_column;

    #[test]
    fn a_column_on_whitespace_moves_to_the_text() {
        // `  assert(x);` placed at column 2 (a macro expansion) is at `assert`.
        assert_eq!(snap_column("  assert(x);", 2), 3);
        assert_eq!(snap_column("  assert(x);", 1), 3);
        // A column on text stays.
        assert_eq!(snap_column("  x = y;", 5), 5);
        // Past the end or on a blank rest: unchanged.
        assert_eq!(snap_column("x;   ", 4), 4);
        assert_eq!(snap_column("", 1), 1);
    }

    /// Normalization reads a shared pointer into a temporary (`__t = shared_box;
    /// __t->count = ...`); what a person reads is the expression written.
    #[test]
    fn a_temporary_is_named_as_the_expression_it_copies() {
        use crate::ir::{ExprKind, StmtKind};
        let prog = crate::frontend::load_text(
            "t.c",
            "struct box { int count; struct box *next; };\n\
             struct box *shared_box;\n\
             void *worker(void *arg) {\n\
             \x20 shared_box->count = shared_box->count + 1;\n\
             \x20 shared_box->next->count = 2;\n\
             \x20 return arg;\n}\n\
             int main(void) { return 0; }\n",
            crate::ir::DataModel::Lp64,
        )
        .expect("parses");
        let prep = crate::passes::Prepared::new(prog);
        let n = &prep.normalized;
        let origins = crate::ir::print::temp_origins(n);
        let worker = n.func_named("worker").expect("worker");
        let mut written = Vec::new();
        crate::ir::visit::each_stmt(n.func(worker).body.as_ref().expect("body"), &mut |s| {
            if let StmtKind::Expr(e) = &s.kind
                && let ExprKind::Assign(l, _) = &e.kind
            {
                written.push(crate::ir::print::expr_in_source_terms_with(n, l, &origins));
            }
        });
        assert!(
            written.contains(&"shared_box->count".to_string()),
            "{written:?}"
        );
        assert!(
            written.contains(&"shared_box->next->count".to_string()),
            "{written:?}"
        );
        assert!(written.iter().all(|w| !w.contains("__t")), "{written:?}");
    }
}
