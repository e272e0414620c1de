//! Schedules: the information the paper extracts from a counterexample (IV-A) — which
//! thread ran, in which order, up to which point — plus the values of the
//! nondeterministic inputs. Checker adapters produce them; `--schedule FILE` reads them.
//!
//! # JSON form (`seqloc.schedule/1`)
//!
//! ```json
//! {
//!   "schema": "seqloc.schedule/1",
//!   "threads": [ {"id": 0, "function": "main"}, {"id": 1, "function": "t1"} ],
//!   "blocks": [
//!     {"thread": 0, "until": {"before": "race.c:22:3", "occurrence": 1}},
//!     {"thread": 1, "until": {"before": "race.c:8:3#2"}},
//!     {"thread": 0, "until": "end"}
//!   ],
//!   "inputs": [ {"thread": 0, "at": "race.c:24", "occurrence": 1, "value": 7} ]
//! }
//! ```
//!
//! Thread ids are creation order (0 is `main`, 1 the first thread created, ...), as ESBMC
//! and CBMC number them. A thread may name, instead of its `function`, the `created_at`
//! `file:line` of the `pthread_create` that starts it (as a YAML witness does). A block runs its thread until it is about to execute the named
//! statement for the `occurrence`-th time (counted over the whole run of that thread, so
//! the 3rd iteration of a loop is occurrence 3; with `"within_block": true`, counted from
//! the block's start, as a YAML witness is read), or to its end (`"end"`), or until it
//! blocks. A statement is named `file:line[:col][#part]`: `part` picks one of several
//! statements seqloc makes of one source statement (`x = x + 1` is the read `#1` and the
//! write `#2`); `seqloc sequentialize --list-points` prints them all. A bare `file:line`
//! names the first statement of that line in that list.
//!
//! Two kinds of statement count twice or take an input. `pthread_cond_wait` is reached
//! once when the thread starts waiting and again when it wakes, so a thread stopped while
//! it waits is stopped before occurrence 2 of its wait. Which waiter a
//! `pthread_cond_signal` wakes is a nondeterministic choice: give it as an input of the
//! signalling thread at the signal's statement, whose value is the woken thread's id.
//! A context switch inside a `__VERIFIER_atomic_*` section is refused when the program
//! runs (the replay stops with a schedule mismatch at that step).

use std::collections::HashMap;

use serde::{Deserialize, Serialize};

pub use crate::ir::index::{StmtEntry, StmtIndex, short_file};
use crate::ir::*;

pub const SCHEMA: &str = "seqloc.schedule/1";

/// Largest thread id a schedule may name (a slot is made for every id up to it).
pub const MAX_THREAD_ID: u32 = 4096;

#[derive(Clone, Debug, Serialize, Deserialize, PartialEq)]
pub struct Schedule {
    #[serde(default = "default_schema")]
    pub schema: String,
    pub threads: Vec<ThreadSpec>,
    pub blocks: Vec<Block>,
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub inputs: Vec<InputValue>,
}

fn default_schema() -> String {
    SCHEMA.to_string()
}

#[derive(Clone, Debug, Serialize, Deserialize, PartialEq)]
pub struct ThreadSpec {
    pub id: u32,
    /// The thread's start routine; empty when `created_at` names it instead.
    #[serde(default)]
    pub function: String,
    /// `file:line` of the `pthread_create` that makes the thread: the start routine is
    /// the one created there (a YAML witness names creations, not start routines).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub created_at: Option<String>,
}

impl ThreadSpec {
    pub fn new(id: u32, function: String) -> ThreadSpec {
        ThreadSpec {
            id,
            function,
            created_at: None,
        }
    }
}

#[derive(Clone, Debug, Serialize, Deserialize, PartialEq)]
pub struct Block {
    pub thread: u32,
    pub until: Until,
    /// For people: the source lines this block ran, in order (ignored when read).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub ran: Vec<String>,
}

#[derive(Clone, Debug, Serialize, Deserialize, PartialEq)]
#[serde(untagged)]
pub enum Until {
    /// `"end"`: the thread runs until it finishes or blocks.
    Keyword(String),
    Before {
        before: String,
        #[serde(default = "one")]
        occurrence: u32,
        /// Count the occurrences from the block's start instead of the thread's: the
        /// reading of a YAML witness, whose validators hold a thread at the first time it
        /// reaches its next waypoint after the previous one (see `witness::yaml`).
        #[serde(default, skip_serializing_if = "std::ops::Not::not")]
        within_block: bool,
    },
}

impl Until {
    /// Before the `occurrence`-th execution of `before` over the thread's run.
    pub fn before(before: String, occurrence: u32) -> Until {
        Until::Before {
            before,
            occurrence,
            within_block: false,
        }
    }
}

fn one() -> u32 {
    1
}

#[derive(Clone, Debug, Serialize, Deserialize, PartialEq)]
pub struct InputValue {
    pub thread: u32,
    pub at: String,
    #[serde(default = "one")]
    pub occurrence: u32,
    /// The value; of a `float` or `double` input, its IEEE bit pattern (exact, where
    /// decimal text may not be).
    pub value: i128,
    /// The value as C text where it is not the integer `value` says: a float's
    /// (`0.1f`), for people and witnesses. Ignored when a schedule is read.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub text: Option<String>,
}

/// A schedule checked against a program: statement references resolved to ids.
#[derive(Clone, Debug, PartialEq)]
pub struct Resolved {
    pub threads: Vec<(u32, FuncId)>,
    pub blocks: Vec<ResolvedBlock>,
    /// Input values by thread and statement, in occurrence order.
    pub inputs: HashMap<(u32, StmtId), Vec<(u32, i128)>>,
    /// Fixed switch points: block `i` runs its thread's program points up to (not
    /// including) `ends[i]`, as a replay of this schedule did. Set by the localizer, so
    /// that a changed value cannot move a context switch (see `seq::build`).
    pub ends: Option<Vec<u32>>,
}

impl Resolved {
    /// What is left of a cut schedule: every thread whose last block stops short of its
    /// end runs to its end, `first` first, `main` last, the others in id order — `main`
    /// last because it joins the others. With `unstarted`, so does a thread with no block
    /// yet. Changing the blocks drops the fixed switch points, which were for the old ones.
    pub fn finish_threads(&mut self, first: Option<u32>, unstarted: bool) {
        let mut open: Vec<u32> = self
            .threads
            .iter()
            .map(|(t, _)| *t)
            .filter(
                |t| match self.blocks.iter().rev().find(|b| b.thread == *t) {
                    Some(b) => b.until != Stop::End,
                    None => unstarted,
                },
            )
            .collect();
        open.sort_by_key(|t| (Some(*t) != first, *t == 0, *t));
        for t in open {
            self.ends = None;
            match self.blocks.last_mut() {
                Some(b) if b.thread == t => b.until = Stop::End,
                _ => self.blocks.push(ResolvedBlock {
                    thread: t,
                    until: Stop::End,
                }),
            }
        }
    }
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct ResolvedBlock {
    pub thread: u32,
    pub until: Stop,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Stop {
    End,
    /// Before the thread's n-th execution of the statement, counted over its whole run.
    Before(StmtId, u32),
    /// Before its n-th execution counted from the start of this block (the first statement
    /// a resumed thread runs counts).
    BeforeInBlock(StmtId, u32),
}

impl Stop {
    /// The statement the block stops before, if it names one.
    pub fn stmt(self) -> Option<StmtId> {
        match self {
            Stop::End => None,
            Stop::Before(s, _) | Stop::BeforeInBlock(s, _) => Some(s),
        }
    }
}

#[derive(Debug, thiserror::Error)]
pub enum ScheduleError {
    #[error("cannot read schedule {path}: {reason}")]
    Io { path: String, reason: String },
    #[error("schedule {path} is not valid JSON for {SCHEMA}: {reason}")]
    Json { path: String, reason: String },
    #[error("schedule {where_}: {reason}")]
    Mismatch { where_: String, reason: String },
}

impl Schedule {
    /// The loop bound its stops need: a block that stops before the n-th run of a
    /// statement needs n iterations of the loop around it (a thread held before its loop's
    /// next iteration ran the loop fewer times than that). 0 without such stops.
    pub fn deepest_stop(&self) -> u32 {
        self.blocks
            .iter()
            .filter_map(|b| match &b.until {
                Until::Before {
                    occurrence,
                    within_block: false,
                    ..
                } => Some(*occurrence),
                Until::Before { .. } | Until::Keyword(_) => None,
            })
            .max()
            .unwrap_or(0)
    }

    /// One line: `T0 until before f.c:12:3 (#1), T1 until end`.
    pub fn compact(&self) -> String {
        let parts: Vec<String> = self
            .blocks
            .iter()
            .map(|b| {
                let until = match &b.until {
                    Until::Keyword(k) => k.clone(),
                    Until::Before {
                        before,
                        occurrence,
                        within_block,
                    } => {
                        let from = if *within_block { " in block" } else { "" };
                        format!("before {before} (#{occurrence}{from})")
                    }
                };
                format!("T{} until {until}", b.thread)
            })
            .collect();
        parts.join(", ")
    }

    pub fn from_json(text: &str, path: &str) -> Result<Schedule, ScheduleError> {
        serde_json::from_str(text).map_err(|e| ScheduleError::Json {
            path: path.to_string(),
            reason: e.to_string(),
        })
    }

    pub fn load(path: &std::path::Path) -> Result<Schedule, ScheduleError> {
        let text = std::fs::read_to_string(path).map_err(|e| ScheduleError::Io {
            path: path.display().to_string(),
            reason: e.to_string(),
        })?;
        Schedule::from_json(&text, &path.display().to_string())
    }

    pub fn to_json(&self) -> String {
        serde_json::to_string_pretty(self).unwrap_or_default()
    }

    pub fn context_switches(&self) -> usize {
        self.blocks
            .windows(2)
            .filter(|w| w[0].thread != w[1].thread)
            .count()
    }

    /// Checks the schedule against a normalized program.
    pub fn resolve(&self, prog: &Program, index: &StmtIndex) -> Result<Resolved, ScheduleError> {
        let mismatch = |where_: String, reason: String| ScheduleError::Mismatch { where_, reason };
        if self.schema != SCHEMA {
            return Err(mismatch(
                "header".into(),
                format!("schema is `{}`, seqloc reads `{SCHEMA}`", self.schema),
            ));
        }
        let mut threads = Vec::new();
        for (i, t) in self.threads.iter().enumerate() {
            let named = match (&t.created_at, t.function.is_empty()) {
                (Some(at), true) => Some(
                    created_at(prog, at).map_err(|r| mismatch(format!("thread {}", t.id), r))?,
                ),
                _ => prog.func_named(&t.function),
            };
            let Some(f) = named.filter(|f| prog.func(*f).body.is_some()) else {
                return Err(mismatch(
                    format!("thread {} (entry {})", t.id, i + 1),
                    format!(
                        "no function named `{}` with a body in the program",
                        t.function
                    ),
                ));
            };
            if threads.iter().any(|(id, _)| *id == t.id) {
                return Err(mismatch(
                    format!("thread {}", t.id),
                    "declared twice".into(),
                ));
            }
            threads.push((t.id, f));
        }
        if !threads.iter().any(|(id, _)| *id == 0) {
            return Err(mismatch(
                "threads".into(),
                "thread 0 (main) is missing".into(),
            ));
        }
        // Ids are creation order; threads that never run may be left out.
        if let Some((id, _)) = threads.iter().find(|(id, _)| *id > MAX_THREAD_ID) {
            return Err(mismatch(
                format!("thread {id}"),
                format!("thread ids are creation order and at most {MAX_THREAD_ID}"),
            ));
        }
        let mut blocks = Vec::new();
        let mut ended: Vec<u32> = Vec::new();
        for (i, b) in self.blocks.iter().enumerate() {
            let step = format!("step {} (thread {})", i + 1, b.thread);
            let Some((_, func)) = threads.iter().find(|(id, _)| *id == b.thread) else {
                return Err(mismatch(
                    step,
                    format!("thread {} is not declared in `threads`", b.thread),
                ));
            };
            if ended.contains(&b.thread) {
                return Err(mismatch(
                    step,
                    format!(
                        "thread {} already ran to its end in an earlier step",
                        b.thread
                    ),
                ));
            }
            let until = match &b.until {
                Until::Keyword(k) if k == "end" => {
                    ended.push(b.thread);
                    Stop::End
                }
                Until::Keyword(k) => {
                    return Err(mismatch(
                        step,
                        format!("`until` is `{k}`; expected \"end\" or {{\"before\": ...}}"),
                    ));
                }
                Until::Before {
                    before,
                    occurrence,
                    within_block,
                } => {
                    if *occurrence == 0 {
                        return Err(mismatch(step, "occurrences count from 1".into()));
                    }
                    let sid = index
                        .resolve(before)
                        .map_err(|r| mismatch(step.clone(), r))?;
                    if !reachable_from(index, prog, *func, sid) {
                        return Err(mismatch(
                            step,
                            format!(
                                "`{before}` is not code thread {} (`{}`) can run",
                                b.thread,
                                prog.func(*func).name
                            ),
                        ));
                    }
                    if *within_block {
                        Stop::BeforeInBlock(sid, *occurrence)
                    } else {
                        Stop::Before(sid, *occurrence)
                    }
                }
            };
            blocks.push(ResolvedBlock {
                thread: b.thread,
                until,
            });
        }
        let mut inputs: HashMap<(u32, StmtId), Vec<(u32, i128)>> = HashMap::new();
        for (i, v) in self.inputs.iter().enumerate() {
            let step = format!("input {} (thread {})", i + 1, v.thread);
            if !threads.iter().any(|(id, _)| *id == v.thread) {
                return Err(mismatch(
                    step,
                    format!("thread {} is not declared", v.thread),
                ));
            }
            let sid = index.resolve(&v.at).map_err(|r| mismatch(step, r))?;
            inputs
                .entry((v.thread, sid))
                .or_default()
                .push((v.occurrence, v.value));
        }
        for vals in inputs.values_mut() {
            vals.sort_by_key(|(o, _)| *o);
        }
        Ok(Resolved {
            ends: None,
            threads,
            blocks,
            inputs,
        })
    }
}

/// The start routine of the threads created at `at` (`file:line`): the one thread entry
/// function created there, or why there is not one.
fn created_at(prog: &Program, at: &str) -> Result<FuncId, String> {
    let (file, line) = at
        .rsplit_once(':')
        .and_then(|(f, l)| Some((f, l.parse::<u32>().ok()?)))
        .ok_or_else(|| format!("`created_at` `{at}` is not `file:line`"))?;
    let ts = crate::analysis::facts::thread_structure(prog);
    let found: Vec<FuncId> = ts
        .entries
        .iter()
        .filter(|(_, sites)| {
            sites.iter().any(|(loc, ..)| {
                prog.sources
                    .position(*loc)
                    .is_some_and(|p| p.line == line && crate::ir::index::same_file(p.file, file))
            })
        })
        .map(|(f, _)| *f)
        .collect();
    match found.as_slice() {
        [f] => Ok(*f),
        [] => Err(format!(
            "no `pthread_create` at `{at}` starts a thread function"
        )),
        more => Err(format!(
            "the `pthread_create` calls at `{at}` may start any of {}: which one is not said",
            more.iter()
                .map(|f| format!("`{}`", prog.func(*f).name))
                .collect::<Vec<_>>()
                .join(", ")
        )),
    }
}

/// Whether thread function `f` can execute statement `sid` (itself or a callee).
fn reachable_from(index: &StmtIndex, prog: &Program, f: FuncId, sid: StmtId) -> bool {
    let Some(e) = index.get(sid) else {
        return false;
    };
    let ts = crate::analysis::facts::thread_structure(prog);
    let mut seen = std::collections::BTreeSet::new();
    let mut work = vec![f];
    while let Some(x) = work.pop() {
        if x == e.func {
            return true;
        }
        if seen.insert(x) {
            if let Some(cs) = ts.calls.get(&x) {
                work.extend(cs.iter().copied());
            }
        }
    }
    false
}

#[cfg(test)]
mod tests {
    use super::*;

    fn prepared(text: &str) -> crate::passes::Prepared {
        let dir = tempfile::tempdir().expect("tempdir");
        let path = dir.path().join("p.c");
        std::fs::write(&path, text).expect("writes");
        let prog = crate::frontend::load(&path, &Default::default()).expect("parses");
        crate::passes::Prepared::new(prog)
    }

    const TWO_ROUTINES: &str = "#include <pthread.h>
int x;
void helper(void) { x = 1; }
void *a(void *p) { helper(); return 0; }
void *b(void *p) { x = 2; return 0; }
int main(void) {
  pthread_t t, u;
  pthread_create(&t, 0, a, 0);
  pthread_create(&u, 0, b, 0);
  return 0;
}
";

    fn created(at: &str) -> Schedule {
        Schedule {
            schema: SCHEMA.into(),
            threads: vec![
                ThreadSpec::new(0, "main".into()),
                ThreadSpec {
                    id: 1,
                    function: String::new(),
                    created_at: Some(at.into()),
                },
            ],
            blocks: vec![Block {
                thread: 0,
                until: Until::Keyword("end".into()),
                ran: vec![],
            }],
            inputs: vec![],
        }
    }

    #[test]
    fn a_thread_named_by_its_creation_runs_the_routine_created_there() {
        let p = prepared(TWO_ROUTINES);
        let r = created("p.c:9")
            .resolve(&p.normalized, &p.index)
            .expect("resolves");
        let (_, f) = r.threads[1];
        assert_eq!(p.normalized.func(f).name, "b");
        let e = created("p.c:3")
            .resolve(&p.normalized, &p.index)
            .expect_err("no creation on line 3");
        assert!(
            e.to_string().contains("no `pthread_create` at `p.c:3`"),
            "{e}"
        );
    }

    #[test]
    fn stops_counted_within_a_block_are_read_and_shown_as_such() {
        let s: Schedule = serde_json::from_str(
            r#"{"threads": [{"id": 0, "function": "main"}],
                "blocks": [{"thread": 0, "until": {"before": "p.c:9", "within_block": true}}]}"#,
        )
        .expect("parses");
        assert_eq!(
            s.blocks[0].until,
            Until::Before {
                before: "p.c:9".into(),
                occurrence: 1,
                within_block: true
            }
        );
        // No point of the thread's whole run: no loop bound follows from it.
        assert_eq!(s.deepest_stop(), 0);
        assert!(s.compact().contains("(#1 in block)"));
        let p = prepared(TWO_ROUTINES);
        let r = s.resolve(&p.normalized, &p.index).expect("resolves");
        assert!(matches!(r.blocks[0].until, Stop::BeforeInBlock(_, 1)));
        // Written back, an ordinary stop keeps its JSON shape.
        let plain = serde_json::to_string(&Until::before("p.c:9".into(), 2)).expect("json");
        assert!(!plain.contains("within_block"), "{plain}");
    }
}
