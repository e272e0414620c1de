//! The result of `seqloc localize`: readable text, the `seqloc.localize/1` JSON and
//! SARIF 2.1.0.
//!
//! # JSON (`seqloc.localize/1`)
//!
//! | field | meaning |
//! |---|---|
//! | `schema` | `"seqloc.localize/1"` |
//! | `program` | the input file |
//! | `checker` | `{ "name", "version" }` |
//! | `verdict` | `failure`, `deadlock`, `no-failure-within-bounds` or `unknown` |
//! | `reason` | why the verdict is what it is; with a failure, how it was found when not plainly by the checker named (the built-in search standing in for one that declined the program or has no deadlock check); or `null` |
//! | `property` | the violated property (`kind`, `file`, `line`, `column`, `thread`, `message`) or `null` |
//! | `schedule` | the failing interleaving (`seqloc.schedule/1`) or `null` |
//! | `interleaving` | the same, compact: `T0 main 29-33 → T1 post 9 → ...` |
//! | `context_switches` | number of context switches of the interleaving |
//! | `candidates` | ranked; each: `rank`, `kind` (`value`: changing what the line computes avoids the failure along the interleaving; `atomicity`: the failure needs a context switch next to the line; `locking`: a lock acquisition that does not exclude a conflicting critical section, or a lock held into a deadlock; `blocking`: where a thread waits for ever in a deadlock; `ordering`: a statement that ran too early, or the creation of a thread that started too early, when the failure needs it to run before another thread's conflicting block; `flow`: an access of the differential projection that no other analysis named, typically a write that came too late), `file`, `line`, `column`, `columns`, `diag`, `threads` (`id`, `function`), `reads`, `writes`, `set` (number of the multi-line set it belongs to, or `null`), `hint`, `specification` (the line of the failing check itself), `cause` (where the failure arises rather than a value that may only carry it: a line where the schedule must change — an interleaving analysis's line, a deadlock's own cause, a pattern of the projection — or, when there is none, an access of the differential projection's first change; these come first, and when no candidate is one, none is marked), `fixed_by` (a one-token change of the line — an operator or an integer constant — that removes the failure from every execution, as the explicit-state explorer proved on the mutated program, e.g. "`3` for `4` at column 12"; `null` when none was found or looked for; such a plain value candidate comes before the other plain values), `changes` (`thread`, `column`, `what`, `chosen`, `original`) |
//! | `why` | why it fails, or `null` when no passing neighbour of the failing schedule was found (see `rootcause`): `change` (how the closest passing schedule differs, in words), `passing_interleaving` (that schedule, compact), `passing_schedule` (the same as a `seqloc.schedule/1` object, for `--schedule`; `null` when the schedule read back from the passing run does not replay and pass by itself), `unwind` (the loop bound to replay it with: `seqloc sequentialize prog.c --schedule S --unwind N --dialect gcc`), `tried` (passing neighbours replayed), `failing_flows` (data flows of the failing run: reads and the write each read from), `projection` (the flows that differ: each `read` (`thread`, `file`, `line`, `variable`), `failing_source` and `passing_source` (`thread`, `file`, `line`, `occurrence` (which of the thread's writes on that line, from 1) of the write read, `null` for the initial value), `inter_thread`). In SARIF: the run's `properties.why` (`change`, `passingInterleaving`), and each result on a line of the projection lists the projection's accesses as `relatedLocations` |
//! | `root_causes` | minimal root causes, or `null` when not computed (`--root-causes 0`, a thread that creates threads, points the encoding cannot match, a limit; `-v` says why): `causes` (each `orderings`, every one `before` and `after` accesses — `thread`, `file`, `line`, `variable`, `write`, `sync`, `statement`, `occurrence` (which of the thread's executions of that access, from 1) — `atomicity` (the cause as an atomicity violation in words, or `null`), and `verified`: asked again after the search, forcing and minimal, `null` when the time ran out first), `orderings` (the failing run's selectable inter-thread orderings), `order_independent` (every complete run with these inputs fails, in any order), `complete` (no more root causes exist), `stopped`, `rounds` and `unwind` (the bounds of the runs considered), `queries`, `out_of_work` (the search used up its budget of Z3 work — 8 million `rlimit` units, or the time `--root-cause-time` gives in its place — and more causes may exist), `time_ms`, `closest` (the closest passing run of all the runs considered, MaxSMT over the orderings, or `null`: `kept` orderings, `flipped` — the differential projection, orderings as in `causes` —, `schedule` (`seqloc.schedule/1`, replay with `seqloc sequentialize --schedule S --unwind U --deadlock-rules`), `replays`: it replays and passes). In SARIF: each cause's accesses are `relatedLocations` of the results on their lines |
//! | `root_causes_missing` | why no root cause is given although they were asked for (not computed, or the search stopped before its first, or the failing run's orderings do not force the failure), or `null` (causes given, none asked for, or none needed: `order_independent`) |
//! | `complete` | the checker had no further answer (every candidate of the interleaving is listed) |
//! | `stopped` | why the loop stopped early, or `null` |
//! | `limit` | the limit that left the answer incomplete (`time`, `memory`, `interrupted`): the search's, or the one that cut the candidate loop short; otherwise `null` |
//! | `checker_runs` | checker questions asked (validation included) |
//! | `time_ms` | `{ "total", "first_counterexample", "localization", "encode", "solve", "mutants" }` (`mutants`: the one-token changes of the value lines tried after the localization, see `fixed_by`; 0 when none were, as for a deadlock or with `--no-mutants`) |

use serde::Serialize;

use super::check::{CheckerInfo, code_flow, thread_label};
use super::json;
use super::style::Style;
use crate::cex::{Counterexample, ViolationKind};
use crate::diag::explain::Candidate;
use crate::diagnostics::SourceSpot;
use crate::engine::check::Verdict;
use crate::ir::Program;
use crate::rootcause::ordinal;
use crate::seq::schedule::short_file;

pub const SCHEMA: &str = "seqloc.localize/1";

/// Everything a localization report says.
pub struct LocalizeReport<'a> {
    pub program: String,
    pub checker: CheckerInfo,
    pub verdict: Verdict,
    /// No failure, and the explicit-state explorer covered every execution.
    pub exhaustive: bool,
    pub reason: Option<String>,
    pub cex: Option<&'a Counterexample>,
    pub candidates: Vec<Candidate>,
    pub complete: bool,
    pub stopped: Option<String>,
    pub limit: Option<crate::checker::builtin::Limit>,
    pub checker_runs: u32,
    pub time: Times,
    pub why: Option<WhyView>,
    /// Minimal root causes (see `engine::causes`).
    pub root_causes: Option<&'a crate::rootcause::causes::RootCauses>,
    /// Why no root cause is given although they were asked for (text, and the JSON's
    /// `root_causes_missing`; `-v` says the same).
    pub causes_missing: Option<&'a crate::rootcause::causes::MissingCauses>,
}

/// The `why` of a report (see the JSON table above).
#[derive(Clone, Debug, Serialize)]
pub struct WhyView {
    pub change: String,
    pub passing_interleaving: String,
    /// The passing schedule (`seqloc.schedule/1`): `seqloc sequentialize --schedule` and
    /// `localize --schedule` replay it.
    pub passing_schedule: Option<crate::seq::schedule::Schedule>,
    /// The loop bound to replay it with (`--unwind`).
    pub unwind: u32,
    pub tried: usize,
    pub failing_flows: usize,
    pub projection: Vec<FlowView>,
    /// The passing run's thread functions, for threads the failing run does not show.
    #[serde(skip)]
    pub passing_threads: Vec<(u32, String)>,
}

#[derive(Clone, Debug, Serialize)]
pub struct FlowView {
    pub read: ReadView,
    pub failing_source: Option<WriteView>,
    pub passing_source: Option<WriteView>,
    pub inter_thread: bool,
}

#[derive(Clone, Debug, Serialize)]
pub struct ReadView {
    pub thread: u32,
    pub file: String,
    pub line: u32,
    pub variable: String,
}

#[derive(Clone, Debug, Serialize)]
pub struct WriteView {
    pub thread: u32,
    pub file: String,
    pub line: u32,
    /// Which of the thread's writes on that line it is (from 1).
    pub occurrence: u32,
}

impl WhyView {
    /// `w` for the report; `cex` names the threads.
    pub fn of(w: &crate::rootcause::Why, cex: &Counterexample) -> WhyView {
        let write = |e: &Option<crate::rootcause::Event>| {
            e.as_ref().map(|e| WriteView {
                thread: e.thread,
                file: e.file.clone(),
                line: e.line,
                occurrence: e.key.occurrence + 1,
            })
        };
        // The failing run's names for the threads it shows; the passing run may show more.
        let mut passing = w.passing.clone();
        for t in &mut passing.schedule.threads {
            if let Some(named) = cex.schedule.threads.iter().find(|c| c.id == t.id) {
                t.function = named.function.clone();
            }
        }
        WhyView {
            change: w.change.clone(),
            passing_threads: passing
                .schedule
                .threads
                .iter()
                .map(|t| (t.id, t.function.clone()))
                .collect(),
            passing_interleaving: interleaving(&passing),
            passing_schedule: w.schedule_replays.then(|| w.passing.schedule.clone()),
            unwind: w.unwind,
            tried: w.tried,
            failing_flows: w.failing_flows,
            projection: w
                .projection
                .iter()
                .map(|c| FlowView {
                    read: ReadView {
                        thread: c.read.thread,
                        file: c.read.file.clone(),
                        line: c.read.line,
                        variable: c.read.var.clone(),
                    },
                    failing_source: write(&c.failing),
                    passing_source: write(&c.passing),
                    inter_thread: c.inter_thread(),
                })
                .collect(),
        }
    }

    /// The why in plain lines: the head, one line per differing flow (at most six, then
    /// how many more), the passing interleaving. The text report and the HTML page show
    /// these.
    pub fn lines(&self, cex: &Counterexample) -> Vec<String> {
        let n = self.projection.len();
        let flows = crate::words::count(self.failing_flows, "data flow");
        // No differing flow, yet one run fails and the other passes: the difference is
        // in accesses the events do not tell apart. Saying "differs in 0" would be false.
        let mut out = vec![if n == 0 {
            format!(
                "the closest passing schedule found ({}) differs in none of the {flows} seqloc follows: the difference is in an access it does not tell apart (a read through a pointer, or which of one line's writes a read saw)",
                self.change
            )
        } else {
            format!(
                "the closest passing schedule found ({}) differs in {n} of {flows}:",
                self.change
            )
        }];
        let label = |t: u32| match self.passing_threads.iter().find(|(id, _)| *id == t) {
            Some((_, f)) if !cex.schedule.threads.iter().any(|c| c.id == t) => format!("T{t} {f}"),
            _ => thread_label(cex, t),
        };
        // When both writes are the same thread's on the same line, which time it wrote
        // there is the difference.
        let src = |w: &Option<WriteView>, nth: bool| match w {
            Some(w) if nth => format!(
                "{}'s {} write at line {}",
                label(w.thread),
                ordinal(w.occurrence),
                w.line
            ),
            Some(w) => format!("{}'s write at line {}", label(w.thread), w.line),
            None => "the initial value".into(),
        };
        // Flows that read the same way (the elements of an array read in a loop) are one
        // line with how many they are.
        let mut distinct: Vec<(String, usize)> = Vec::new();
        for f in &self.projection {
            let nth = match (&f.failing_source, &f.passing_source) {
                (Some(a), Some(b)) => a.thread == b.thread && a.line == b.line && a.file == b.file,
                _ => false,
            };
            let line = format!(
                "{}'s read of `{}` at line {} saw {}; passing, it sees {}",
                thread_label(cex, f.read.thread),
                f.read.variable,
                f.read.line,
                src(&f.failing_source, nth),
                src(&f.passing_source, nth)
            );
            match distinct.iter_mut().find(|(l, _)| *l == line) {
                Some((_, k)) => *k += 1,
                None => distinct.push((line, 1)),
            }
        }
        const SHOWN: usize = 6;
        for (line, k) in distinct.iter().take(SHOWN) {
            out.push(if *k > 1 {
                format!("{line} ({k} such reads)")
            } else {
                line.clone()
            });
        }
        if distinct.len() > SHOWN {
            let more: usize = distinct.iter().skip(SHOWN).map(|(_, k)| k).sum();
            out.push(format!("... and {more} more (see --format json)"));
        }
        out.push(format!(
            "passing interleaving: {}",
            self.passing_interleaving
        ));
        out
    }

    /// The text block after the interleaving.
    fn render(&self, cex: &Counterexample, st: &Style) -> String {
        let mut s = String::new();
        for (i, l) in self.lines(cex).iter().enumerate() {
            if i == 0 {
                s.push_str(&format!("{}: {l}\n", st.bold("Why")));
            } else {
                s.push_str(&format!("  {l}\n"));
            }
        }
        s.push('\n');
        s
    }
}

#[derive(Clone, Copy, Debug, Default, Serialize)]
pub struct Times {
    pub total: u64,
    pub first_counterexample: u64,
    pub localization: u64,
    pub encode: u64,
    pub solve: u64,
    /// The mutants' time after the localization (`mutation`).
    pub mutants: u64,
}

#[derive(Serialize)]
struct Json<'a> {
    schema: &'static str,
    program: &'a str,
    checker: &'a CheckerInfo,
    verdict: &'static str,
    exhaustive: bool,
    reason: &'a Option<String>,
    property: Option<json::Property>,
    schedule: Option<&'a crate::seq::schedule::Schedule>,
    interleaving: Option<String>,
    context_switches: Option<usize>,
    candidates: Vec<json::CandidateJson>,
    complete: bool,
    stopped: &'a Option<String>,
    limit: Option<&'static str>,
    checker_runs: u32,
    time_ms: Times,
    why: &'a Option<WhyView>,
    root_causes: Option<&'a crate::rootcause::causes::RootCauses>,
    root_causes_missing: Option<&'a str>,
}

pub fn to_json(r: &LocalizeReport) -> String {
    let j = Json {
        schema: SCHEMA,
        program: &r.program,
        checker: &r.checker,
        verdict: json::verdict(r.verdict),
        exhaustive: r.exhaustive,
        reason: &r.reason,
        property: r.cex.map(|c| (&c.violation).into()),
        schedule: r.cex.map(|c| &c.schedule),
        interleaving: r.cex.map(interleaving),
        context_switches: r.cex.map(|c| c.context_switches()),
        candidates: r.candidates.iter().map(Into::into).collect(),
        complete: r.complete,
        stopped: &r.stopped,
        limit: json::limit(r.limit),
        checker_runs: r.checker_runs,
        time_ms: r.time,
        why: &r.why,
        root_causes: r.root_causes,
        root_causes_missing: r.causes_missing.map(|m| m.reason.as_str()),
    };
    serde_json::to_string_pretty(&j).unwrap_or_default()
}

/// `T0 main 29-33 → T1 post 9 → T2 audit 19`: each block's thread and the lines it ran.
pub fn interleaving(cex: &Counterexample) -> String {
    super::check::schedule_interleaving(&cex.schedule)
}

fn violation_head(cex: &Counterexample) -> String {
    let v = &cex.violation;
    match v.kind {
        ViolationKind::Deadlock => "DEADLOCK: every live thread is blocked".to_string(),
        ViolationKind::Assertion => format!(
            "FAILURE: assertion failed at {}:{}",
            short_file(&v.file),
            v.line
        ),
        ViolationKind::Error => format!(
            "FAILURE: error location reached at {}:{}",
            short_file(&v.file),
            v.line
        ),
        ViolationKind::Unlock => format!(
            "FAILURE: unlock of a mutex no thread holds at {}:{}",
            short_file(&v.file),
            v.line
        ),
    }
}

pub fn render_text(r: &LocalizeReport, prog: &Program, st: &Style) -> String {
    let mut s = format!(
        "{} {} ({} checker, {})\n",
        st.bold("seqloc localize"),
        r.program,
        r.checker.name,
        r.checker.version
    );
    let Some(cex) = r.cex else {
        match r.verdict {
            Verdict::NoFailureWithinBounds => {
                let head = if r.exhaustive {
                    "NO FAILURE in any execution"
                } else {
                    "NO FAILURE within the bounds"
                };
                s.push_str(&format!("{}\n", st.green(head)));
                s.push_str("  nothing to localize: no candidates\n");
            }
            _ => {
                s.push_str(&format!("{}\n", st.yellow("UNKNOWN")));
                s.push_str(
                    "  no failing interleaving was found, so there is nothing to localize\n",
                );
            }
        }
        if let Some(reason) = &r.reason {
            s.push_str(&format!("  {reason}\n"));
        }
        s.push_str(&format!("  {:.1} s\n", r.time.total as f64 / 1000.0));
        return s;
    };
    s.push_str(&format!("{}\n", st.red(&violation_head(cex))));
    if cex.violation.kind != ViolationKind::Deadlock {
        let spot = SourceSpot::at(
            &prog.sources,
            cex.violation.loc,
            format!(
                "in thread {}",
                thread_label(cex, cex.violation.thread.unwrap_or(0))
            ),
        );
        s.push_str(&spot.render_plain("note"));
    }
    // How the failure was found, where that is not plainly the checker named in the header
    // (seqloc's built-in search standing in for it).
    if let Some(how) = &r.reason {
        s.push_str(&format!("note: {how}\n"));
    }
    s.push_str(&format!(
        "{} ({}, {}): {}\n\n",
        st.bold("Interleaving"),
        crate::words::count(cex.schedule.threads.len(), "thread"),
        crate::words::count(cex.context_switches(), "context switch"),
        interleaving(cex)
    ));
    if let Some(w) = &r.why {
        s.push_str(&w.render(cex, st));
    }
    if let Some(c) = r.root_causes {
        s.push_str(&super::causes::render(c, st));
    }
    if let Some(m) = r.causes_missing {
        s.push_str(&super::causes::render_missing(m, st));
    }
    let n = r.candidates.len();
    if n == 0 {
        s.push_str(&format!(
            "{}\n",
            st.yellow("No line's change removes the failure along this interleaving.")
        ));
        s.push_str(
            "  The fault may need several lines changed together (try --faults 2), or lie in\n  code the interleaving does not run, or in the synchronisation itself.\n",
        );
    } else {
        let causes = r.candidates.iter().filter(|c| c.cause).count();
        if causes == 0 || causes == n {
            s.push_str(&format!(
                "{} fault candidate{}, most likely first:\n\n",
                st.bold(&n.to_string()),
                if n == 1 { "" } else { "s" }
            ));
        } else {
            s.push_str(&format!(
                "{} fault candidate{}, most likely first; {} where the failure arises:\n\n",
                st.bold(&n.to_string()),
                if n == 1 { "" } else { "s" },
                st.bold(&causes.to_string())
            ));
        }
    }
    let mut last_set = None;
    let mut in_causes = r.candidates.first().is_some_and(|c| c.cause);
    for c in &r.candidates {
        if in_causes && !c.cause {
            in_causes = false;
            s.push_str(&format!(
                "  {}: a change there avoids the failure too, but may only treat its consequence\n  (the check's own reads, copies into locals, setup, a whole thread serialized):\n\n",
                st.bold("Also involved")
            ));
        }
        if c.set.is_some() && c.set != last_set {
            s.push_str(&format!(
                "  {} {} (these lines must change together):\n",
                st.bold("set"),
                c.set.unwrap_or(0)
            ));
        }
        last_set = c.set;
        let threads: Vec<String> = c
            .threads
            .iter()
            .map(|t| format!("T{} {}", t.id, t.function))
            .collect();
        let mut access = Vec::new();
        if !c.writes.is_empty() {
            access.push(format!("writes {}", c.writes.join(", ")));
        }
        if !c.reads.is_empty() {
            access.push(format!("reads {}", c.reads.join(", ")));
        }
        let tag = match c.kind {
            crate::diag::explain::CandidateKind::Value => String::new(),
            crate::diag::explain::CandidateKind::Atomicity => {
                format!(" {}", st.yellow("[atomicity]"))
            }
            crate::diag::explain::CandidateKind::Locking => format!(" {}", st.yellow("[locking]")),
            crate::diag::explain::CandidateKind::Blocking => {
                format!(" {}", st.yellow("[blocking]"))
            }
            crate::diag::explain::CandidateKind::Ordering => {
                format!(" {}", st.yellow("[ordering]"))
            }
            crate::diag::explain::CandidateKind::Flow => format!(" {}", st.yellow("[flow]")),
        };
        let head = format!(
            "{:>3}. {}{tag}  {}{}",
            c.rank,
            st.bold(&format!("{}:{}:{}", short_file(&c.file), c.line, c.column)),
            if threads.is_empty() {
                String::new()
            } else {
                format!("run by {}", threads.join(", "))
            },
            if access.is_empty() {
                String::new()
            } else {
                format!("; {}", st.cyan(&access.join("; ")))
            }
        );
        // A start value has no thread and no access: nothing after the location.
        s.push_str(head.trim_end());
        s.push('\n');
        if let Some(src) = &c.source_line {
            let gutter = c.line.to_string();
            let pad = " ".repeat(gutter.len());
            let caret_pad: String = src
                .chars()
                .take(c.column.saturating_sub(1) as usize)
                .map(|ch| if ch == '\t' { '\t' } else { ' ' })
                .collect();
            s.push_str(&format!(
                "     {pad} |\n     {gutter} | {src}\n     {pad} | {caret_pad}{}\n",
                st.red("^")
            ));
        }
        if c.set.is_none()
            || r.candidates
                .iter()
                .rfind(|x| x.set == c.set)
                .map(|x| x.rank)
                == Some(c.rank)
        {
            s.push_str(&format!("     {} {}\n", st.blue("="), c.hint));
        }
        s.push('\n');
    }
    if let Some(why) = &r.stopped {
        s.push_str(&format!("{} {why}\n", st.yellow("note:")));
    }
    s.push_str(&format!(
        "{}; first counterexample {:.1} s, localization {:.1} s, total {:.1} s\n",
        crate::words::count(r.checker_runs, "checker run"),
        r.time.first_counterexample as f64 / 1000.0,
        r.time.localization as f64 / 1000.0,
        r.time.total as f64 / 1000.0
    ));
    s
}

/// SARIF 2.1.0: one result per candidate, the interleaving as a code flow with one
/// thread flow per thread (steps ordered across threads by `executionOrder`).
pub fn to_sarif(r: &LocalizeReport) -> String {
    use serde_json::{Value, json};
    let uri = |f: &str| sarif_uri(f);
    let code_flow: Option<Value> = r.cex.map(code_flow);
    // Where causes are marked, the values that may only carry the failure are notes, so
    // a code-scanning view leads with the lines where it arises.
    let split = r.candidates.iter().any(|c| c.cause);
    let results: Vec<Value> = r
        .candidates
        .iter()
        .map(|c| {
            let mut res = json!({
                "ruleId": "seqloc/fault-candidate",
                "ruleIndex": 0,
                "level": if split && !c.cause { "note" } else { "warning" },
                "rank": (100.0 - (c.rank as f64 - 1.0) * 100.0 / (r.candidates.len() as f64)).max(0.0),
                "message": { "text": format!("fault candidate {}: {}", c.rank, c.hint) },
                "locations": [{
                    "physicalLocation": {
                        "artifactLocation": { "uri": uri(&c.file) },
                        "region": { "startLine": c.line, "startColumn": c.column }
                    }
                }],
                "properties": {
                    "kind": json::candidate_kind(c.kind),
                    "diag": c.diag,
                    "threads": c.threads.iter().map(|t| json!({ "id": t.id, "function": t.function })).collect::<Vec<Value>>(),
                    "reads": c.reads,
                    "writes": c.writes,
                    "set": c.set,
                    "cause": c.cause
                }
            });
            if let Some(obj) = res.as_object_mut() {
                if let Some(flow) = &code_flow {
                    obj.insert("codeFlows".into(), json!([flow]));
                }
                let mut related = r
                    .why
                    .as_ref()
                    .map(|w| projection_locations(w, c))
                    .unwrap_or_default();
                if let Some(rc) = r.root_causes {
                    related.extend(super::causes::sarif_locations(rc, c, related.len()));
                }
                if !related.is_empty() {
                    obj.insert("relatedLocations".into(), Value::Array(related));
                }
            }
            res
        })
        .collect();
    // A run cut short, or with no answer, says so where SARIF viewers show a run's
    // problems.
    let notifications: Vec<Value> = [
        (r.verdict == Verdict::Unknown)
            .then(|| format!("no answer: {}", r.reason.as_deref().unwrap_or("unknown"))),
        r.stopped
            .as_ref()
            .filter(|_| !r.complete)
            .map(|s| format!("localization incomplete: {s}")),
    ]
    .into_iter()
    .flatten()
    .map(|text| json!({ "level": "warning", "message": { "text": text } }))
    .collect();
    let doc = json!({
        "$schema": "https://json.schemastore.org/sarif-2.1.0.json",
        "version": "2.1.0",
        "runs": [{
            "tool": {
                "driver": {
                    "name": "seqloc",
                    "version": env!("CARGO_PKG_VERSION"),
                    "rules": [{
                        "id": "seqloc/fault-candidate",
                        "name": "FaultCandidate",
                        "shortDescription": { "text": "A line whose change removes the failure along the failing interleaving" },
                        "fullDescription": { "text": "seqloc replays a failing interleaving as a sequential program and asks a bounded model checker which single lines (or minimal sets of lines) can be changed so that the failure does not happen (Griesmeyer's method)." },
                        "defaultConfiguration": { "level": "warning" }
                    }]
                }
            },
            "invocations": [{
                "executionSuccessful": true,
                "toolExecutionNotifications": notifications,
                "properties": {
                    "checker": r.checker.name,
                    "checkerVersion": r.checker.version,
                    "verdict": json::verdict(r.verdict),
                    "complete": r.complete,
                    "limit": json::limit(r.limit),
                    "reason": r.reason,
                    "stopped": r.stopped
                }
            }],
            "properties": {
                "why": r.why.as_ref().map(|w| json!({
                    "change": w.change,
                    "passingInterleaving": w.passing_interleaving
                }))
            },
            "results": results
        }]
    });
    serde_json::to_string_pretty(&doc).unwrap_or_default()
}

/// The accesses of the projection's flows that `c`'s line takes part in, as SARIF related
/// locations: the read and the writes it read from in the failing and the passing run.
fn projection_locations(w: &WhyView, c: &Candidate) -> Vec<serde_json::Value> {
    use serde_json::json;
    let mut out = Vec::new();
    let mut id = 0;
    let loc = |id: usize, file: &str, line: u32, text: String| {
        json!({
            "id": id,
            "physicalLocation": {
                "artifactLocation": { "uri": sarif_uri(file) },
                "region": { "startLine": line }
            },
            "message": { "text": text }
        })
    };
    for f in &w.projection {
        let lines = [Some((&f.read.file, f.read.line))]
            .into_iter()
            .chain(
                [&f.failing_source, &f.passing_source]
                    .map(|s| s.as_ref().map(|s| (&s.file, s.line))),
            )
            .flatten();
        if !lines
            .into_iter()
            .any(|(file, line)| line == c.line && crate::diag::explain::same_file(file, &c.file))
        {
            continue;
        }
        out.push(loc(
            id,
            &f.read.file,
            f.read.line,
            format!("T{} reads `{}` here", f.read.thread, f.read.variable),
        ));
        id += 1;
        for (s, run) in [
            (&f.failing_source, "failing"),
            (&f.passing_source, "passing"),
        ] {
            if let Some(s) = s {
                out.push(loc(
                    id,
                    &s.file,
                    s.line,
                    format!(
                        "the write T{} read in the {run} run (T{})",
                        f.read.thread, s.thread
                    ),
                ));
                id += 1;
            }
        }
    }
    out
}

pub use super::json::sarif_uri;

#[cfg(test)]
mod tests {
    use crate::rootcause::ordinal;

    #[test]
    fn ordinals_read_as_english() {
        let got: Vec<String> = [1, 2, 3, 4, 11, 12, 13, 21, 22, 101, 111]
            .into_iter()
            .map(ordinal)
            .collect();
        assert_eq!(
            got,
            [
                "1st", "2nd", "3rd", "4th", "11th", "12th", "13th", "21st", "22nd", "101st",
                "111th"
            ]
        );
    }
}
