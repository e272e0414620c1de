//! From an external checker's trace ([`RawTrace`]) to seqloc's [`Counterexample`]: every
//! user step mapped to the IR statement it executed, the interleaving turned into the
//! [`Schedule`] the sequentializer replays, the nondeterministic inputs collected.
//!
//! Two ways a trace line names a statement:
//!
//! * [`LineMap::Printed`]: the checker ran seqloc's own printed, normalized program (every
//!   shared read and write its own statement, DESIGN principle 6). Trace line N is printed
//!   line N; the printer recorded the source location of each line, and the k-th printed
//!   line of a function with location L is the k-th statement of that function at L (the
//!   printer walks statements in the same order as [`StmtIndex`]), which tells apart the
//!   parts of a split `x = x + 1`.
//! * [`LineMap::Raw`]: the checker ran the user's file; a trace line is an original line,
//!   and a step there is taken to start the first of seqloc's statements made of the source
//!   statement at that column (ESBMC runs a whole assignment as one step, so a switch can
//!   only fall before it).
//!
//! What the traces do not show, and how that is handled:
//!
//! * Only assignments (and argument bindings, at the call's line) produce steps: a branch
//!   condition or a call without arguments that starts a thread's block is invisible, so the
//!   block boundary falls on the next visible statement and the invisible ones run in the
//!   previous block. Shared reads are visible in the printed program (they are assignments
//!   to temporaries), so this only moves thread-local work.
//! * A thread preempted for good (its last block is not the trace's last) ends before the
//!   next statement after its last step that would show in a trace, in program order; the
//!   invisible ones in between (leaving an atomic section, a branch) run first, as at every
//!   other boundary. With no such statement, or in the trace's last block, `"end"` (run
//!   until it finishes, blocks or fails).
//! * Consecutive steps of one thread on one statement are one execution (a call's argument
//!   bindings), unless a left-hand side repeats (a one-line loop running again).
//! * A `pthread_join` shows where its call started, which may be before the joined thread's
//!   last step; the replay honours joins, so each join that returned is placed after that
//!   step and the joined thread's last run ends with the thread ([`place_joins`]). A trace
//!   seqloc's semantics cannot follow at all (a `malloc` returning NULL) is refused by name
//!   ([`MapError::Unmodelled`]).
//!
//! A schedule built this way is a claim, not a fact: callers replay it with the built-in
//! sequentializer before trusting it (`engine::diagnosis::prepare`, through the driver's `Backstop`).

mod atomic_calls;
mod threads;

use crate::ir::known::Known;
use std::collections::{HashMap, HashSet};

use crate::cex::{Counterexample, InputStep, TraceStep, Violation, ViolationKind, Write};
use crate::ir::print::Printed;
use crate::ir::{ExprKind, FuncId, Loc, Program, StmtId, StmtKind};
use crate::seq::schedule::{Block, InputValue, SCHEMA, Schedule, StmtIndex, Until};
use crate::trace::{self, RawTrace, StepKind};

/// How trace lines name the program's statements.
#[derive(Clone, Debug)]
pub enum LineMap {
    /// The checker ran a program seqloc printed, saved as `file_name`.
    Printed {
        file_name: String,
        /// For each printed line (0-based), the statement printed there.
        line_stmts: Vec<Option<StmtId>>,
        /// For each printed line, the source location of what is printed there (also for
        /// lines that are no statement of the program as written, e.g. the diag
        /// instrumentation's copies).
        line_locs: Vec<Loc>,
    },
    /// The checker ran the user's file unchanged.
    Raw,
}

impl LineMap {
    /// The map of a program printed from `prog` (whose statements `index` names).
    pub fn printed(file_name: &str, printed: &Printed, index: &StmtIndex) -> LineMap {
        let mut by_key: HashMap<(FuncId, Loc), Vec<StmtId>> = HashMap::new();
        let omitted: HashSet<StmtId> = printed.omitted.iter().copied().collect();
        // A statement printed as no line (an unused label shares its loop's location)
        // takes no line's rank.
        for e in index.entries.iter().filter(|e| !omitted.contains(&e.id)) {
            by_key.entry((e.func, e.loc)).or_default().push(e.id);
        }
        let mut used: HashMap<(FuncId, Loc), usize> = HashMap::new();
        let line_stmts = printed
            .line_locs
            .iter()
            .zip(&printed.line_funcs)
            .map(|(loc, func)| {
                let f = (*func)?;
                if loc.is_synth() {
                    return None;
                }
                let list = by_key.get(&(f, *loc))?;
                let rank = used.entry((f, *loc)).or_insert(0);
                let id = list.get(*rank).or_else(|| list.last()).copied();
                *rank += 1;
                id
            })
            .collect();
        LineMap::Printed {
            file_name: file_name.to_string(),
            line_stmts,
            line_locs: printed.line_locs.clone(),
        }
    }
}

#[derive(Debug, thiserror::Error)]
pub enum MapError {
    #[error("the checker reported a failure but printed no counterexample trace")]
    NoTrace,
    #[error("the violated property is not one seqloc localizes: {0}")]
    Unsupported(String),
    #[error("no step of the trace maps to a statement of the program")]
    NoSteps,
    /// The trace takes a path seqloc's semantics does not have, so no schedule of the
    /// program can follow it.
    #[error("the trace cannot be replayed by seqloc: {0}")]
    Unmodelled(String),
}

/// One execution of one statement by one thread, as the trace shows it.
#[derive(Clone, Debug)]
struct Exec {
    thread: u32,
    sid: StmtId,
    loc: Loc,
    writes: Vec<(String, String, Option<i128>)>,
    /// A `function-call` step of this execution was seen.
    called: bool,
}

/// Reads a failing trace as a counterexample of `prog` (the normalized program `index`
/// names). `checker` is the name shown in reports. A run the trace leaves open ends before
/// the thread's next shown step ([`Boundary::BeforeShown`]).
pub fn to_counterexample(
    trace: &RawTrace,
    prog: &Program,
    index: &StmtIndex,
    map: &LineMap,
    checker: &str,
) -> Result<Counterexample, MapError> {
    to_counterexample_with(
        trace,
        prog,
        index,
        map,
        checker,
        Boundary::BeforeShown,
        JoinReading::Proven,
    )
}

/// [`to_counterexample`] with the given choice of where open runs end.
pub fn to_counterexample_with(
    trace: &RawTrace,
    prog: &Program,
    index: &StmtIndex,
    map: &LineMap,
    checker: &str,
    policy: Boundary,
    reading: JoinReading,
) -> Result<Counterexample, MapError> {
    let raw_violation = trace.violation.as_ref().ok_or(MapError::NoTrace)?;
    if let Some(at) = failed_allocation(trace) {
        return Err(MapError::Unmodelled(format!(
            "its malloc returned NULL at {at}, and seqloc models malloc as never failing"
        )));
    }
    let mut execs = executions(trace, prog, index, map);
    if execs.is_empty() {
        return Err(MapError::NoSteps);
    }
    let violation = violation(trace, raw_violation, index, map, prog)?;
    let threads = threads::thread_specs(trace, &execs, prog);
    let visible = visibility(prog);
    let joined = place_joins(&mut execs, &visible, raw_violation, reading)?;
    let finished = threads::finished_threads(trace);
    let ends = Ends {
        finished: &finished,
        joined: &joined,
        deadlock: raw_violation.kind == trace::ViolationKind::Deadlock,
    };
    let blocks = match policy {
        Boundary::BeforeShown | Boundary::BeforeWait | Boundary::ToBlock => {
            blocks(&execs, index, &visible, policy, &ends)
        }
        // CBMC's traces order a thread's steps that touch nothing shared arbitrarily (its
        // partial-order encoding gives them no place); the runs are those of the steps
        // that do.
        Boundary::SharedSteps => {
            let placed = atomic_calls::placed(&execs, prog, index, &visible);
            blocks(&placed, index, &visible, policy, &ends)
        }
    };
    let mut blocks = blocks;
    // An unlock's check inside the checker's pthread model shows no step of its own: the
    // failing thread's block ends before the call, and later blocks may be another
    // thread's. The failing thread runs last, to its failure.
    if raw_violation.kind == trace::ViolationKind::Unlock
        && raw_violation.internal
        && let Some(t) = raw_violation.thread
        && blocks.iter().any(|b| b.thread == t)
        && blocks.last().is_some_and(|b| b.thread != t)
    {
        blocks.push(Block {
            thread: t,
            until: Until::Keyword("end".into()),
            ran: vec![],
        });
    }
    let (inputs, input_steps) = inputs(&execs, index);
    let steps = execs
        .iter()
        .map(|e| {
            let (file, line) = match prog.sources.position(e.loc) {
                Some(p) => (p.file.to_string(), p.line),
                None => (String::new(), 0),
            };
            TraceStep {
                thread: e.thread,
                loc: e.loc,
                sid: e.sid,
                file,
                line,
                statement: index.get(e.sid).map(|x| x.text.clone()).unwrap_or_default(),
                writes: e
                    .writes
                    .iter()
                    .filter(|(lhs, _, _)| shown_lhs(lhs))
                    .map(|(lhs, value, _)| Write::named(lhs.clone(), value.clone()))
                    .collect(),
            }
        })
        .collect();
    Ok(Counterexample {
        checker: checker.to_string(),
        violation,
        schedule: Schedule {
            schema: SCHEMA.to_string(),
            threads,
            blocks,
            inputs,
        },
        steps,
        inputs: input_steps,
    })
}

/// Checker bookkeeping that reaches user steps (`return_value$f$1`, `goto_symex::guard`,
/// seqloc's framework variables): kept for the mapping, not shown.
fn shown_lhs(lhs: &str) -> bool {
    !(lhs.contains('$') || lhs.contains("::") || lhs.starts_with("__seq"))
}

/// The statement a user step executed, with its location.
fn step_stmt(
    step: &trace::Step,
    prog: &Program,
    index: &StmtIndex,
    map: &LineMap,
) -> Option<(StmtId, Loc)> {
    let loc = step.loc.as_ref()?;
    match map {
        LineMap::Printed {
            file_name,
            line_stmts,
            ..
        } => {
            if !same_file(&loc.file, file_name) {
                return None;
            }
            let sid = (*line_stmts.get((loc.line as usize).checked_sub(1)?)?)?;
            Some((sid, index.get(sid)?.loc))
        }
        LineMap::Raw => {
            // Global initialisers have no function: they are no step of any thread.
            let function = loc.function.as_deref()?;
            let candidates: Vec<_> = index
                .entries
                .iter()
                .filter(|e| e.line == loc.line && same_file(&e.file, &loc.file))
                .collect();
            let in_func: Vec<_> = candidates
                .iter()
                .copied()
                .filter(|e| prog.func(e.func).name == function)
                .collect();
            let pool = if in_func.is_empty() {
                candidates
            } else {
                in_func
            };
            // seqloc splits a source statement into parts whose columns are those of their
            // sub-expressions (`used = used + want` at column 5 reads `used` at column 12
            // first); the checker names the statement's own column and ran it whole. So the
            // step starts the first part, in program order, at or after that column.
            let exact = pool
                .iter()
                .find(|e| loc.column.is_none_or(|c| e.col >= c))
                .or_else(|| pool.first())?;
            Some((exact.id, exact.loc))
        }
    }
}

/// The trace's user steps as statement executions, in order.
///
/// One execution of a statement can leave several steps that other threads' steps separate:
/// CBMC's partial-order traces show a call's `function-call` step, then other threads, then
/// the call's parameter bindings (a `pthread_join` binds its arguments only once the joined
/// thread has returned). The statement ran when its last step did, so a step that continues
/// its thread's previous execution (same statement, a left-hand side not yet written by it,
/// nothing else of that thread in between) joins it and moves it to its own position. A
/// repeated write of the same left-hand side (but for CBMC's echo of an array element), or a
/// second call step, is a new execution.
fn executions(trace: &RawTrace, prog: &Program, index: &StmtIndex, map: &LineMap) -> Vec<Exec> {
    let mut out: Vec<Exec> = Vec::new();
    for step in trace.user_steps() {
        let Some((sid, loc)) = step_stmt(step, prog, index, map) else {
            continue;
        };
        let write = match &step.kind {
            StepKind::Assignment {
                lhs,
                value,
                value_int,
            } => Some((lhs.clone(), value.clone(), *value_int)),
            _ => None,
        };
        let is_call = matches!(step.kind, StepKind::FunctionCall { .. });
        let previous = out.iter().rposition(|e| e.thread == step.thread);
        let continues = previous.filter(|&i| {
            let e = &out[i];
            e.sid == sid
                && !(is_call && e.called)
                && write.as_ref().is_none_or(|(l, v, _)| {
                    // CBMC follows an array element's write with the whole array, element
                    // by element: the same element with the same value is that echo.
                    !e.writes
                        .iter()
                        .any(|(x, w, _)| x == l && !(l.contains('[') && w == v))
                })
        });
        match continues {
            Some(i) => {
                let mut e = out.remove(i);
                e.writes.extend(write);
                e.called |= is_call;
                out.push(e);
            }
            None => out.push(Exec {
                thread: step.thread,
                sid,
                loc,
                writes: write.into_iter().collect(),
                called: is_call,
            }),
        }
    }
    out
}

/// What the trace says about threads that ran to their end.
struct Ends<'a> {
    /// Shown returning from their start routine ([`finished_threads`]).
    finished: &'a HashSet<u32>,
    /// Joined by a join that returned ([`place_joins`]): they ended, whatever the trace
    /// showed of their last steps.
    joined: &'a HashSet<u32>,
    /// The trace ends in a deadlock: every thread is blocked or has ended there, and none
    /// runs after its last run, so each last run went on until its thread blocked or
    /// ended, whatever steps the trace showed of it (ESBMC 8 shows no pthread call, so a
    /// thread's last shown step is often well before the lock it blocks in).
    deadlock: bool,
}

/// Block boundaries: each maximal run of one thread ends where that thread's next run
/// starts, counted as the how-many-th execution of that statement by the thread.
fn blocks(
    execs: &[Exec],
    index: &StmtIndex,
    visible: &Visibility,
    policy: Boundary,
    ends: &Ends,
) -> Vec<Block> {
    let mut runs: Vec<(u32, Vec<usize>)> = Vec::new();
    for (i, e) in execs.iter().enumerate() {
        match runs.last_mut() {
            Some((t, v)) if *t == e.thread => v.push(i),
            _ => runs.push((e.thread, vec![i])),
        }
    }
    let mut blocks = Vec::new();
    for (r, (thread, members)) in runs.iter().enumerate() {
        let next = runs
            .iter()
            .skip(r + 1)
            .find(|(t, _)| t == thread)
            .and_then(|(_, m)| m.first().copied());
        let until = match next {
            Some(first) => {
                let sid = execs[first].sid;
                let before = execs[..first]
                    .iter()
                    .filter(|e| e.thread == *thread && e.sid == sid)
                    .count() as u32;
                let waits = (policy != Boundary::BeforeShown)
                    .then(|| first_wait(execs, members, index, visible, Some(sid)))
                    .flatten();
                let at = match policy {
                    Boundary::SharedSteps => {
                        enclosing_atomic_begin(index, visible, sid).unwrap_or(sid)
                    }
                    _ => sid,
                };
                waits.unwrap_or(Until::before(index.name(at), before + 1))
            }
            None if r + 1 == runs.len() => Until::Keyword("end".into()),
            None if ends.deadlock || policy == Boundary::ToBlock => Until::Keyword("end".into()),
            // A returned join is a fact whichever reading: the replay, which honours joins,
            // must let the thread finish before the joiner goes on.
            None if ends.joined.contains(thread) => Until::Keyword("end".into()),
            // The trace shows the thread returning after its last step: it ran to its end,
            // whatever statements the trace did not show on the way (a loop's exit).
            None if policy != Boundary::BeforeShown && ends.finished.contains(thread) => {
                Until::Keyword("end".into())
            }
            None => {
                let last = members.last().map(|&i| execs[i].sid);
                // With only the shared steps placed, the others' occurrences are unknown:
                // the run ends before the next shared step.
                let (shown, surely_shown) = match policy {
                    Boundary::SharedSteps => (&visible.switches, &visible.switches),
                    _ => (&visible.shows, &visible.shows_surely),
                };
                let next = last.and_then(|sid| next_visible(index, shown, sid));
                let waits = (policy != Boundary::BeforeShown)
                    .then(|| {
                        let surely = last.and_then(|sid| next_visible(index, surely_shown, sid));
                        first_wait(execs, members, index, visible, surely)
                    })
                    .flatten();
                if let Some(w) = waits {
                    w
                } else {
                    match next {
                        Some(next) => {
                            let before = execs
                                .iter()
                                .filter(|e| e.thread == *thread && e.sid == next)
                                .count() as u32;
                            Until::before(index.name(next), before + 1)
                        }
                        None => Until::Keyword("end".into()),
                    }
                }
            }
        };
        let until = past_create(execs, &runs, r, until, index, visible);
        let mut ran: Vec<String> = Vec::new();
        for &i in members {
            if let Some(e) = index.get(execs[i].sid) {
                let l = format!("{}:{}", crate::seq::schedule::short_file(&e.file), e.line);
                if ran.last() != Some(&l) {
                    ran.push(l);
                }
            }
        }
        blocks.push(Block {
            thread: *thread,
            until,
            ran,
        });
    }
    blocks
}

/// A run read as ending before a library call (which ESBMC 8 shows no step for) on the
/// way to one of its thread's `pthread_create` calls, while threads the trace has not shown
/// yet start before the thread runs again: a thread that runs was created, so the run went
/// past the call (and past each further one on the way, one per new thread at most), to
/// the next statement that shows in a trace, in program order. Which thread created which
/// the trace does not say; the replay checks the reading.
fn past_create(
    execs: &[Exec],
    runs: &[(u32, Vec<usize>)],
    r: usize,
    until: Until,
    index: &StmtIndex,
    visible: &Visibility,
) -> Until {
    let Some((thread, members)) = runs.get(r) else {
        return until;
    };
    let Some(&end) = members.last() else {
        return until;
    };
    let seen: HashSet<u32> = runs[..=r].iter().map(|(t, _)| *t).collect();
    let mut news: HashSet<u32> = HashSet::new();
    for (t, _) in &runs[r + 1..] {
        if t == thread {
            break;
        }
        if !seen.contains(t) {
            news.insert(*t);
        }
    }
    let Until::Before {
        before,
        within_block: false,
        ..
    } = &until
    else {
        return until;
    };
    let Some(mut at) = index
        .entries
        .iter()
        .find(|e| index.name(e.id) == *before)
        .map(|e| e.id)
    else {
        return until;
    };
    // Along the library calls the trace cannot show (the thread stopped before the first),
    // up to the last `pthread_create` a new thread needs.
    let mut passed = 0;
    let mut out = until.clone();
    while passed < news.len() && visible.shows.contains(&at) && !visible.shows_surely.contains(&at)
    {
        let Some(next) = next_visible(index, &visible.shows, at) else {
            break;
        };
        if visible.creates.contains(&at) {
            passed += 1;
            let done = execs[..=end]
                .iter()
                .filter(|e| e.thread == *thread && e.sid == next)
                .count() as u32;
            out = Until::before(index.name(next), done + 1);
        }
        at = next;
    }
    out
}

/// What a trace can and cannot show of each statement.
struct Visibility {
    /// Statements that leave a step in a checker's trace: declarations, assignments, calls
    /// with arguments (their bindings), returns of a value. Branch conditions, intrinsics
    /// (atomic sections, assumptions) and calls without arguments do not.
    shows: HashSet<StmtId>,
    /// Statements that may make their thread wait, or keep the others out: mutex and
    /// trylock acquisitions, joins, condition waits, assumptions, atomic sections. ESBMC 8
    /// shows no step for a pthread call, so the trace does not say whether a thread that
    /// stopped just before one had run it.
    waits: HashSet<StmtId>,
    /// `shows` without calls of library functions (no body), which ESBMC 8 does not show.
    shows_surely: HashSet<StmtId>,
    /// Statements another thread can tell apart from their neighbours: a shared access, a
    /// library call, an atomic section's bounds, an assumption. Only these need a place in
    /// the interleaving; a thread's other steps commute with everything the others do.
    switches: HashSet<StmtId>,
    /// `pthread_join` calls.
    joins: HashSet<StmtId>,
    /// `pthread_create` calls, which ESBMC 8 shows no step for.
    creates: HashSet<StmtId>,
    /// Atomic sections' begins and ends (`__VERIFIER_atomic_begin()`, the dialects' own).
    atomic_begins: HashSet<StmtId>,
    atomic_ends: HashSet<StmtId>,
}

/// The expression a statement evaluates as a whole: `e;`, the right side of `v = e;`, the
/// initializer of `T v = e;` (a call, when the statement is one).
fn statement_call(s: &crate::ir::Stmt) -> Option<&crate::ir::Expr> {
    match &s.kind {
        StmtKind::Expr(e) => match &e.peel().kind {
            ExprKind::Assign(_, r) => Some(r.peel()),
            _ => Some(e.peel()),
        },
        StmtKind::Decl {
            init: Some(crate::ir::Init::Expr(e)),
            ..
        } => Some(e.peel()),
        _ => None,
    }
}

fn visibility(prog: &Program) -> Visibility {
    let shared = crate::analysis::shared::SharedInfo::compute(prog);
    let mut switches = HashSet::new();
    let mut shows = HashSet::new();
    let mut waits = HashSet::new();
    let mut library_calls = HashSet::new();
    let mut joins = HashSet::new();
    let mut creates = HashSet::new();
    let mut atomic_begins = HashSet::new();
    let mut atomic_ends = HashSet::new();
    for f in &prog.funcs {
        let Some(body) = &f.body else { continue };
        crate::ir::visit::each_stmt(body, &mut |s| {
            if s.id.is_none() {
                return;
            }
            if crate::passes::normalize::shared_accesses(&shared, s) > 0 {
                switches.insert(s.id);
            }
            let call = statement_call(s);
            if let Some(ExprKind::Intrinsic(
                crate::ir::Intrinsic::AtomicBegin
                | crate::ir::Intrinsic::Assume
                | crate::ir::Intrinsic::Await,
                _,
            )) = call.map(|c| &c.kind)
            {
                waits.insert(s.id);
            }
            match call.map(|c| &c.kind) {
                Some(ExprKind::Intrinsic(crate::ir::Intrinsic::AtomicBegin, _)) => {
                    atomic_begins.insert(s.id);
                }
                Some(ExprKind::Intrinsic(crate::ir::Intrinsic::AtomicEnd, _)) => {
                    atomic_ends.insert(s.id);
                }
                _ => {}
            }
            if let Some(ExprKind::Call(callee, _)) = call.map(|c| &c.kind) {
                if let ExprKind::Func(g) = callee.peel().kind {
                    if prog.func(g).body.is_none() {
                        library_calls.insert(s.id);
                    }
                    let name = &prog.func(g).name;
                    let known = crate::ir::known::classify(name);
                    match known {
                        Known::ThreadJoin => joins.insert(s.id),
                        Known::ThreadCreate => creates.insert(s.id),
                        Known::AtomicBegin => atomic_begins.insert(s.id),
                        Known::AtomicEnd => atomic_ends.insert(s.id),
                        _ => false,
                    };
                    let waiting = matches!(
                        known,
                        Known::MutexLock
                            | Known::MutexTrylock
                            | Known::SemWait
                            | Known::BarrierArrive
                            | Known::BarrierLeave
                            | Known::OnceBegin
                            | Known::RwRdlock
                            | Known::RwWrlock
                            | Known::ThreadJoin
                            | Known::CondWait
                            | Known::CondTimedwait
                            | Known::AtomicBegin
                            | Known::VerifierAssume
                    ) || crate::ir::known::is_atomic_function(name);
                    if waiting {
                        waits.insert(s.id);
                    }
                }
            }
            let shown = match &s.kind {
                StmtKind::Decl { .. } | StmtKind::Return(Some(_)) => true,
                StmtKind::Expr(e) => match &e.kind {
                    ExprKind::Assign(..) | ExprKind::OpAssign { .. } | ExprKind::IncDec { .. } => {
                        true
                    }
                    ExprKind::Call(_, args) => !args.is_empty(),
                    _ => false,
                },
                _ => false,
            };
            if shown {
                shows.insert(s.id);
            }
        });
    }
    let shows_surely = shows.difference(&library_calls).copied().collect();
    switches.extend(waits.iter().copied());
    switches.extend(library_calls.iter().copied());
    Visibility {
        shows,
        waits,
        shows_surely,
        switches,
        joins,
        creates,
        atomic_begins,
        atomic_ends,
    }
}

/// The atomic section's begin that `sid` lies inside, by the program's text: the nearest
/// atomic begin or end before it in its function, when that is a begin. CBMC shows a
/// section's begin as a step of no place among the thread's local steps, so a run read by
/// its shared steps can end between the begin and the access after it, where no other
/// thread can run; it ends before the begin instead, the same time round (a straight-line
/// section runs its begin as often as its statements; where it does not, the reading does
/// not replay and is not used).
fn enclosing_atomic_begin(index: &StmtIndex, visible: &Visibility, sid: StmtId) -> Option<StmtId> {
    let func = index.get(sid)?.func;
    let pos = index.entries.iter().position(|e| e.id == sid)?;
    index.entries[..pos]
        .iter()
        .rev()
        .filter(|e| e.func == func)
        .find(|e| visible.atomic_begins.contains(&e.id) || visible.atomic_ends.contains(&e.id))
        .filter(|e| visible.atomic_begins.contains(&e.id))
        .map(|e| e.id)
}

/// The thread a join execution joined: the value bound to the call's `thread` parameter
/// (both checkers' pthread models name it so, and number threads as seqloc does).
fn joined_thread(e: &Exec) -> Option<u32> {
    let named = e.writes.iter().find_map(|(lhs, _, v)| {
        let param = lhs.rsplit([':', '$', '@']).next() == Some("thread") || lhs == "thread";
        if param { *v } else { None }
    });
    named
        .or_else(|| e.writes.first().and_then(|(_, _, v)| *v))
        .and_then(|t| u32::try_from(t).ok())
}

/// Places every join where it took effect: after the joined thread's last step. Traces
/// print a join where its call started (ESBMC binds the arguments and then waits; CBMC puts
/// thread-local steps anywhere), and a schedule read at that place has the joiner go on
/// while the joined thread still runs, which the replay (honouring joins) rightly refuses.
///
/// A join that returned (its thread shows a later step, or fails after it) moves after the
/// joined thread's last step, together with the joiner's steps printed in between, which
/// ran after it. A join that had not returned when the trace ends is dropped: its thread
/// waits in it, so its run ends before the call. Returns the threads joined by a returned
/// join: they ran to their end. A trace whose joins admit no such order (threads joining
/// each other) is refused by name.
fn place_joins(
    execs: &mut Vec<Exec>,
    visible: &Visibility,
    violation: &trace::Violation,
    reading: JoinReading,
) -> Result<HashSet<u32>, MapError> {
    let mut joined = HashSet::new();
    let fails_in = |t: u32| {
        violation.kind != trace::ViolationKind::Deadlock && violation.thread.unwrap_or(0) == t
    };
    // Every move pushes one join later; more moves than this means joins chase each other.
    let mut moves_left = execs.len().saturating_mul(execs.len()).max(16);
    let mut i = 0;
    while i < execs.len() {
        let e = &execs[i];
        let is_join = visible.joins.contains(&e.sid);
        let target = if is_join {
            joined_thread(e).filter(|&t| t != e.thread)
        } else {
            None
        };
        let Some(target) = target else {
            // A join whose thread the trace does not name (CBMC shows only the call's
            // location when it waits) and that its thread never goes past: the thread
            // waits in it, as in one that names its thread.
            let waits = is_join
                && !execs[i + 1..].iter().any(|x| x.thread == e.thread)
                && !fails_in(e.thread);
            if waits {
                execs.remove(i);
            } else {
                i += 1;
            }
            continue;
        };
        let joiner = e.thread;
        // Only a later step of the joiner (or its failure) shows that the join returned:
        // both checkers print a join's argument bindings when the call starts, also when
        // it then waits to the end of the trace (CBMC's partial-order traces even print it
        // after the joined thread's last shown step, which is not its end).
        let returned = execs[i + 1..].iter().any(|x| x.thread == joiner) || fails_in(joiner);
        let printed_after_end = || {
            execs
                .iter()
                .rposition(|x| x.thread == target)
                .is_some_and(|last| last < i)
        };
        let taken_as_returned =
            returned || (reading == JoinReading::AsPrinted && printed_after_end());
        if !taken_as_returned {
            execs.remove(i);
            continue;
        }
        match execs.iter().rposition(|x| x.thread == target) {
            Some(last) if last > i => {
                if moves_left == 0 {
                    return Err(MapError::Unmodelled(format!(
                        "its joins admit no order: thread {joiner} joins thread {target}, which does not end before it"
                    )));
                }
                moves_left -= 1;
                // The join is the joiner's first exec of the span.
                let (moved, stay): (Vec<Exec>, Vec<Exec>) =
                    execs.drain(i..=last).partition(|x| x.thread == joiner);
                let tail = execs.split_off(i);
                execs.extend(stay);
                execs.extend(moved);
                execs.extend(tail);
            }
            Some(_) => {
                joined.insert(target);
                i += 1;
            }
            // The joined thread shows no step: nothing to place the join after.
            None => i += 1,
        }
    }
    Ok(joined)
}

/// Where a checker's `malloc` model returned NULL (ESBMC's may fail unless told
/// otherwise), as `file:line`.
fn failed_allocation(trace: &RawTrace) -> Option<String> {
    trace.steps.iter().find_map(|s| {
        let StepKind::Assignment { lhs, value_int, .. } = &s.kind else {
            return None;
        };
        let allocator = ["malloc", "calloc", "realloc"]
            .iter()
            .any(|f| lhs.starts_with(&format!("return_value$_{f}$")));
        if !allocator || *value_int != Some(0) {
            return None;
        }
        let loc = s.loc.as_ref()?;
        Some(format!("{}:{}", loc.file, loc.line))
    })
}

/// How a `pthread_join` the trace shows as the joiner's last step is read.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum JoinReading {
    /// It returned only if the joiner shows a later step or fails after it: the trace
    /// proves no more (CBMC prints it after the joined thread's last shown step, which
    /// need not be its end).
    Proven,
    /// Printed after the joined thread's last step, it returned and that thread ended:
    /// the second reading, when the first does not replay (an ESBMC trace whose joined
    /// thread's remaining steps are calls ESBMC 8 does not show).
    AsPrinted,
}

/// Where a thread's run ends when the checker's trace leaves it open.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Boundary {
    /// Just before the thread's next step the trace shows: whatever the trace does not show
    /// ran in this run.
    BeforeShown,
    /// As [`Boundary::BeforeShown`], but before the first statement on the way that may wait
    /// (a lock, a join): it ran later, when the trace does not say. An unlock the trace does
    /// not show has run, so another thread can take the mutex; ESBMC 8 shows no pthread call.
    /// A thread's last run ends with the thread when the trace shows it returning.
    BeforeWait,
    /// As [`Boundary::BeforeWait`], with only the steps another thread can observe placing
    /// the runs: CBMC's traces put a thread's other steps anywhere.
    SharedSteps,
    /// As [`Boundary::BeforeWait`], but a thread's last run goes on until the thread
    /// blocks or ends: the next statement in program order is not the next one run when
    /// the thread left a loop (ESBMC shows the condition's value, not the `break`), nor
    /// when it went through an unlock or a `pthread_create` ESBMC 8 does not show. A
    /// thread preempted for good while it could run makes this reading wrong, which its
    /// replay shows; so it is the last one tried.
    ToBlock,
}

/// The first statement that may wait between a run's last step and `until` (exclusive;
/// `None`: the end of the function), in program order within the function, as the end of
/// the run: the waiting statement runs once more than the run's last statement did.
fn first_wait(
    execs: &[Exec],
    members: &[usize],
    index: &StmtIndex,
    visible: &Visibility,
    until: Option<StmtId>,
) -> Option<Until> {
    let last = *members.last()?;
    let e = execs.get(last)?;
    let func = index.get(e.sid)?.func;
    let pos = index.entries.iter().position(|x| x.id == e.sid)?;
    let wait = index.entries[pos + 1..]
        .iter()
        .filter(|x| x.func == func)
        .take_while(|x| Some(x.id) != until)
        .find(|x| visible.waits.contains(&x.id))?;
    let ran = execs[..=last]
        .iter()
        .filter(|x| x.thread == e.thread && x.sid == e.sid)
        .count() as u32;
    Some(Until::before(index.name(wait.id), ran))
}

/// The first statement after `sid` in its function, in program order, that would show in a
/// trace.
fn next_visible(index: &StmtIndex, visible: &HashSet<StmtId>, sid: StmtId) -> Option<StmtId> {
    let func = index.get(sid)?.func;
    let pos = index.entries.iter().position(|e| e.id == sid)?;
    index.entries[pos + 1..]
        .iter()
        .filter(|e| e.func == func)
        .find(|e| visible.contains(&e.id))
        .map(|e| e.id)
}

/// Input values: an execution of a statement that calls a nondet function, with the integer
/// it stored (the last integer write of the execution: the checker's own temporaries for the
/// call's result come first).
fn inputs(execs: &[Exec], index: &StmtIndex) -> (Vec<InputValue>, Vec<InputStep>) {
    let mut values = Vec::new();
    let mut steps = Vec::new();
    let mut count: HashMap<(u32, StmtId), u32> = HashMap::new();
    for e in execs {
        let Some(entry) = index.get(e.sid) else {
            continue;
        };
        // The index's statement text is printed in the SV-COMP dialect, where every
        // nondeterministic value is a `__VERIFIER_nondet_*` call.
        if !entry.text.contains("__VERIFIER_nondet_") {
            continue;
        }
        let Some(value) = e.writes.iter().rev().find_map(|(_, _, v)| *v) else {
            continue;
        };
        let c = count.entry((e.thread, e.sid)).or_insert(0);
        *c += 1;
        let at = index.name(e.sid);
        values.push(InputValue {
            thread: e.thread,
            at: at.clone(),
            occurrence: *c,
            value,
            text: None,
        });
        steps.push(InputStep {
            thread: e.thread,
            at,
            value,
        });
    }
    (values, steps)
}

fn violation(
    trace: &RawTrace,
    v: &trace::Violation,
    index: &StmtIndex,
    map: &LineMap,
    prog: &Program,
) -> Result<Violation, MapError> {
    let kind = match &v.kind {
        trace::ViolationKind::Deadlock => ViolationKind::Deadlock,
        trace::ViolationKind::Assertion => ViolationKind::Assertion,
        trace::ViolationKind::Unlock => ViolationKind::Unlock,
        trace::ViolationKind::UnwindingAssertion => {
            return Err(MapError::Unsupported(format!(
                "an unwinding assertion ({}): a loop bound was reached",
                v.message
            )));
        }
        trace::ViolationKind::Other(what) => {
            return Err(MapError::Unsupported(format!("{what}: {}", v.message)));
        }
    };
    if kind == ViolationKind::Deadlock {
        return Ok(Violation::new(
            kind,
            Loc::SYNTH,
            None,
            v.message.clone(),
            &prog.sources,
        ));
    }
    let site = trace.failure_site();
    // `reach_error()` and friends: the checker's location is inside them, the user's is the
    // call site.
    // An unlock's check is inside the checker's pthread model: its site is the user's
    // call all the same.
    let kind = match (site, v.loc.as_ref()) {
        (Some(s), Some(l)) if s != l && kind == ViolationKind::Assertion => ViolationKind::Error,
        _ => kind,
    };
    let loc = site
        .and_then(|s| site_loc(s, index, map))
        .or_else(|| v.loc.as_ref().and_then(|s| site_loc(s, index, map)))
        .unwrap_or(Loc::SYNTH);
    Ok(Violation::new(
        kind,
        loc,
        v.thread,
        v.condition.clone().unwrap_or_else(|| v.message.clone()),
        &prog.sources,
    ))
}

fn site_loc(s: &trace::SrcLoc, index: &StmtIndex, map: &LineMap) -> Option<Loc> {
    match map {
        LineMap::Printed {
            file_name,
            line_locs,
            ..
        } => {
            if !same_file(&s.file, file_name) {
                return None;
            }
            line_locs
                .get((s.line as usize).checked_sub(1)?)
                .copied()
                .filter(|l| !l.is_synth())
        }
        LineMap::Raw => index
            .entries
            .iter()
            .filter(|e| e.line == s.line && same_file(&e.file, &s.file))
            .min_by_key(|e| (Some(e.col) != s.column, e.part))
            .map(|e| e.loc),
    }
}

fn same_file(a: &str, b: &str) -> bool {
    let short = |f: &str| f.rsplit('/').next().unwrap_or(f).to_string();
    a == b || short(a) == short(b)
}

#[cfg(test)]
pub(crate) mod tests {
    use std::path::{Path, PathBuf};

    use super::*;
    use crate::checker::external::driver::Bounds;
    use crate::passes::Prepared;
    use crate::trace::esbmc;

    pub(crate) fn fixtures() -> Option<PathBuf> {
        crate::trace::test_support::fixtures_dir()
    }

    pub(crate) fn prepared(path: &Path) -> Prepared {
        let prog = crate::frontend::load(path, &Default::default())
            .unwrap_or_else(|e| panic!("{}: {e}", path.display()));
        Prepared::new(prog)
    }

    pub(crate) fn bounds() -> Bounds {
        Bounds {
            context_bound: None,
            max_switches: None,
            max_context_bound: 16,
            unwind: None,
            max_unwind: 64,
            assume_loop_bounds: false,
            threads: 64,
            recursion: 3,
        }
    }

    pub(crate) fn read(dir: &Path, name: &str) -> String {
        let p = dir.join("esbmc").join(name);
        std::fs::read_to_string(&p).unwrap_or_else(|e| panic!("{}: {e}", p.display()))
    }

    #[test]
    fn threads_and_inputs_of_the_nondet_fixture() {
        let Some(dir) = fixtures() else { return };
        let trace = esbmc::parse_text(
            &read(&dir, "f04_svcomp_nondet.cex.stdout"),
            &read(&dir, "f04_svcomp_nondet.cex.stderr"),
        )
        .expect("parses");
        let prep = prepared(&dir.join("programs/f04_svcomp_nondet.c"));
        let cex = to_counterexample(
            &trace,
            &prep.normalized,
            &prep.index,
            &LineMap::Raw,
            "esbmc",
        )
        .expect("maps");
        let fns: Vec<&str> = cex
            .schedule
            .threads
            .iter()
            .map(|t| t.function.as_str())
            .collect();
        assert_eq!(fns, vec!["main", "consume", "consume"]);
        assert_eq!(cex.violation.kind, ViolationKind::Error);
        assert_eq!(cex.violation.line, 31);
        // `limit = __VERIFIER_nondet_int()` at line 24 chose 3.
        assert_eq!(cex.schedule.inputs.len(), 1, "{:?}", cex.schedule.inputs);
        assert_eq!(cex.schedule.inputs[0].value, 3);
        assert!(cex.schedule.inputs[0].at.contains(":24"));
        assert!(cex.steps.iter().all(|s| s.line > 0));
    }
}

/// The principle-6 path: a trace over seqloc's printed, normalized program (here written by
/// hand: ESBMC's lost update on f01, each thread's read and write of `x` its own step) maps
/// back to the original lines, parts told apart, and replays.
#[cfg(test)]
mod join_tests {
    use super::*;

    fn exec(thread: u32, sid: u32, writes: &[(&str, i128)]) -> Exec {
        Exec {
            thread,
            sid: StmtId(sid),
            loc: crate::ir::Loc::SYNTH,
            writes: writes
                .iter()
                .map(|(l, v)| (l.to_string(), v.to_string(), Some(*v)))
                .collect(),
            called: true,
        }
    }

    fn visible_joins(sids: &[u32]) -> Visibility {
        Visibility {
            shows: HashSet::new(),
            waits: HashSet::new(),
            shows_surely: HashSet::new(),
            switches: HashSet::new(),
            joins: sids.iter().map(|&s| StmtId(s)).collect(),
            creates: HashSet::new(),
            atomic_begins: HashSet::new(),
            atomic_ends: HashSet::new(),
        }
    }

    fn failure_in(thread: u32) -> trace::Violation {
        trace::Violation {
            kind: trace::ViolationKind::Assertion,
            message: "assertion".into(),
            loc: None,
            thread: Some(thread),
            condition: None,
            property: None,
            internal: false,
        }
    }

    /// CBMC's partial-order traces may print a join's argument binding after the joined
    /// thread's last shown step, which is not its end (CBMC 6.6 on an order violation:
    /// main's `join(sender)` printed after the sender's flag write, the receiver failing).
    /// The join is main's last step: it did not provably return, so it is dropped and the
    /// sender is not taken to have ended, which would run it past the write the failure
    /// needs missing.
    #[test]
    fn a_join_that_is_the_joiners_last_step_proves_no_end() {
        let mut execs = vec![
            exec(0, 1, &[("s", 1)]),
            exec(1, 5, &[("posted", 1)]),
            exec(0, 9, &[("thread", 1), ("value_ptr", 0)]),
            exec(2, 7, &[("sum", 18)]),
        ];
        let joined = place_joins(
            &mut execs,
            &visible_joins(&[9]),
            &failure_in(2),
            JoinReading::Proven,
        )
        .expect("places");
        assert!(joined.is_empty(), "{joined:?}");
        assert!(execs.iter().all(|e| e.sid != StmtId(9)));
    }

    /// The same join followed by another step of main returned: the sender ended.
    #[test]
    fn a_join_the_joiner_goes_past_ends_the_joined_thread() {
        let mut execs = vec![
            exec(0, 1, &[("s", 1)]),
            exec(1, 5, &[("posted", 1)]),
            exec(0, 9, &[("thread", 1), ("value_ptr", 0)]),
            exec(0, 10, &[("thread", 2), ("value_ptr", 0)]),
        ];
        let joined = place_joins(
            &mut execs,
            &visible_joins(&[9]),
            &failure_in(0),
            JoinReading::Proven,
        )
        .expect("places");
        assert_eq!(joined, HashSet::from([1]));
    }
}

#[cfg(test)]
pub(crate) mod printed_tests {
    use super::tests::{fixtures, prepared};
    use super::*;
    use crate::ir::print::{PrintOptions, print_program};
    use crate::trace::{CheckerKind, Outcome, SrcLoc, Step};

    /// ESBMC's lost update on f01 over seqloc's printed program, its steps in the order
    /// given by `order` (positions in the order ESBMC would run them), with the map.
    pub(crate) fn f01_trace(
        dir: &std::path::Path,
        order: &[usize],
    ) -> (crate::passes::Prepared, LineMap, RawTrace) {
        let prep = prepared(&dir.join("programs/f01_race.c"));
        let dialect = crate::dialect::Dialect::load("esbmc", None).expect("dialect");
        let printed = print_program(
            &prep.normalized,
            &dialect,
            &PrintOptions {
                loc_comments: true,
                ..Default::default()
            },
        );
        let map = LineMap::printed("f01_race.seqloc.c", &printed, &prep.index);
        let LineMap::Printed { line_stmts, .. } = &map else {
            panic!("printed map")
        };
        // The printed lines of line 8 (t1) and 14 (t2): read then write, in that order.
        let lines_of = |src_line: u32| -> Vec<usize> {
            line_stmts
                .iter()
                .enumerate()
                .filter(|(_, s)| {
                    s.and_then(|s| prep.index.get(s))
                        .is_some_and(|e| e.line == src_line)
                })
                .map(|(i, _)| i + 1)
                .collect()
        };
        let (t1, t2) = (lines_of(8), lines_of(14));
        assert_eq!(t1.len(), 2, "{}", printed.text);
        assert_eq!(t2.len(), 2);
        assert_ne!(
            line_stmts[t1[0] - 1],
            line_stmts[t1[1] - 1],
            "two statements"
        );
        let main_lines = |src_line: u32| lines_of(src_line).first().copied().unwrap_or(0);
        let step =
            |index: usize, thread: u32, line: usize, function: &str, lhs: &str, v: i128| Step {
                index,
                thread,
                loc: Some(SrcLoc {
                    file: "f01_race.seqloc.c".into(),
                    line: line as u32,
                    column: Some(3),
                    function: Some(function.into()),
                }),
                kind: StepKind::Assignment {
                    lhs: lhs.into(),
                    value: v.to_string(),
                    value_int: Some(v),
                },
                internal: false,
            };
        let assert_line = main_lines(25);
        let steps = [
            step(1, 0, main_lines(21), "main", "thread", 0),
            step(2, 0, main_lines(22), "main", "thread", 0),
            step(3, 1, t1[0], "t1", "__t", 0),
            step(4, 2, t2[0], "t2", "__t", 0),
            step(5, 2, t2[1], "t2", "x", 1),
            step(6, 1, t1[1], "t1", "x", 1),
            step(7, 0, main_lines(23), "main", "thread", 1),
            step(8, 0, main_lines(24), "main", "thread", 2),
        ];
        let trace = RawTrace {
            checker: CheckerKind::Esbmc,
            version: None,
            outcome: Outcome::Failed,
            violation: Some(trace::Violation {
                kind: trace::ViolationKind::Assertion,
                message: "assertion x == 2".into(),
                loc: Some(SrcLoc {
                    file: "f01_race.seqloc.c".into(),
                    line: assert_line as u32,
                    column: Some(3),
                    function: Some("main".into()),
                }),
                thread: Some(0),
                condition: Some("x == 2".into()),
                property: None,
                internal: false,
            }),
            steps: order
                .iter()
                .filter_map(|&i| steps.get(i).cloned())
                .collect(),
            threads_known: true,
        };
        (prep, map, trace)
    }

    /// A join that never returned (main's last step, the failure in another thread) did
    /// not take effect: main waits in it, and t1 is not taken to have ended.
    #[test]
    fn a_join_that_never_returned_is_dropped() {
        let Some(dir) = fixtures() else { return };
        let (prep, map, mut trace) = f01_trace(&dir, &[0, 1, 6, 2, 3, 4, 5]);
        if let Some(v) = trace.violation.as_mut() {
            v.thread = Some(2);
        }
        let cex =
            to_counterexample(&trace, &prep.normalized, &prep.index, &map, "esbmc").expect("maps");
        assert!(
            cex.steps.iter().all(|s| s.line != 23),
            "the join is no step: {:?}",
            cex.steps
        );
        let main_runs: Vec<_> = cex
            .schedule
            .blocks
            .iter()
            .filter(|b| b.thread == 0)
            .collect();
        assert!(
            main_runs
                .iter()
                .all(|b| b.ran.iter().all(|l| !l.ends_with(":23"))),
            "{}",
            cex.schedule.to_json()
        );
    }
}

/// Truncated and garbled recordings may fail to parse or to map, never panic.
#[cfg(test)]
mod robustness {
    use proptest::prelude::*;

    use super::tests::{fixtures, prepared};
    use super::*;

    proptest! {
        #![proptest_config(ProptestConfig {
            cases: std::env::var("PROPTEST_CASES").ok().and_then(|v| v.parse().ok()).unwrap_or(64),
            ..ProptestConfig::default()
        })]

        #[test]
        fn mapping_never_panics(cut in 0.0f64..1.0, flip in any::<u8>(), at in 0.0f64..1.0) {
            let Some(dir) = fixtures() else { return Ok(()) };
            let text = std::fs::read_to_string(dir.join("esbmc/f04_svcomp_nondet.cex.stderr"))
                .unwrap_or_default();
            let mut bytes = text.into_bytes();
            let n = bytes.len();
            if n > 0 {
                let i = ((n - 1) as f64 * at) as usize;
                bytes[i] ^= flip | 1;
                bytes.truncate(((n as f64) * cut) as usize + n / 2);
            }
            let text = String::from_utf8_lossy(&bytes).into_owned();
            let prep = prepared(&dir.join("programs/f04_svcomp_nondet.c"));
            if let Ok(trace) = crate::trace::esbmc::parse_text("", &text) {
                let _ = to_counterexample(&trace, &prep.normalized, &prep.index, &LineMap::Raw, "esbmc");
            }
        }
    }

    /// A `for` loop's continue label, which nothing jumps to, is printed as no line but
    /// shares the loop's location with its step: the step's line maps to the step, not
    /// to the label (until 2026-11-28 it mapped to the label, and a schedule ended
    /// "before" a label the replay never stops at).
    #[test]
    fn an_unprinted_label_takes_no_line_of_its_location() {
        let src = "int a[3];\nint main(void) {\n  int k;\n  for (k = 0; k < 3; k++)\n    a[k] = k;\n  return 0;\n}\n";
        let prog =
            crate::frontend::load_text("t.c", src, crate::ir::DataModel::Lp64).expect("parses");
        let prep = crate::passes::Prepared::new(prog);
        let d = crate::dialect::Dialect::load("esbmc", None).expect("dialect");
        let printed = crate::ir::print::print_program(
            &prep.normalized,
            &d,
            &crate::ir::print::PrintOptions::default(),
        );
        assert!(!printed.omitted.is_empty(), "{}", printed.text);
        let map = LineMap::printed("t.seqloc.c", &printed, &prep.index);
        let LineMap::Printed { line_stmts, .. } = &map else {
            panic!("a printed map")
        };
        let step = printed
            .text
            .lines()
            .position(|l| l.trim() == "k = k + 1;")
            .expect("the loop's step is printed");
        let sid = line_stmts[step].expect("the step's line maps to a statement");
        let text = &prep.index.get(sid).expect("indexed").text;
        assert_eq!(text, "k = k + 1;");
    }
}
