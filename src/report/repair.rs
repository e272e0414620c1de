//! The result of `seqloc repair`: the localization's report, then the verified repairs
//! with their patches.
//!
//! # JSON (`seqloc.repair/1`)
//!
//! | field | meaning |
//! |---|---|
//! | `schema` | `"seqloc.repair/1"` |
//! | `program` | the input file |
//! | `localize` | the localization, a whole `seqloc.localize/1` document (its `verdict` says whether there was anything to repair) |
//! | `repairs` | the verified repairs, best first; each: `kind` (`lock`: a mutex taken around regions; `atomic`: an atomic section (`__VERIFIER_atomic_begin/end`) around regions, in a program that writes them (its `mutex` is `__VERIFIER_atomic`); `reorder`: a statement moved before or after another of its block; `release`: a mutex unlocked before a return; `wait-loop`: the `if` around a condition wait made a `while`; `drop-relock`: a function only called with a mutex held no longer locks it itself; `guard-wait`: a bare condition wait put in a `while` loop on its signaller's flag; `join`: a `pthread_join` inserted before a read of what the thread writes; `handshake`: a new flag, mutex and condition variable that make a read wait until another thread's write is done; `combined`: two repairs, the second found by localizing the program the first patched (two faults); `cover`: several repairs made together, the fewest that remove every root cause; `argument-slot`: each thread created in a counting loop given its own copy of the counter; `condition`: a value change, a relational operator or a `± 1` term in the condition of a candidate line), `summary`, `mutex` and `new_mutex` (for `lock` and `release`), `regions` (`function`, `first_line`, `last_line`: the code under the lock), `moved` and `before` or `after` (lines, for `reorder`; for `handshake`, `after` is the write the flag is raised after and `before` the read that waits), `line` (for `release`, `wait-loop`, `drop-relock`, `guard-wait`, `join`, `argument-slot`, `condition`: the return, the `if`, the dropped lock, the wait, the statement the join goes before, the creation, the condition), `statements_locked`, `lines_changed`, `removes_root_causes` (the root causes the repair removes by a reading of its text, as indices into `localize.root_causes.causes`: see `repair::cover`), `verified` (`exhaustive`: no failure in any execution; `reach`: how far the re-check reaches, in words; `ms`), `patch` (a unified diff from `a/PATH` to `b/PATH`, PATH the input path as given, or its file name when absolute) |
//! | `dropped` | proposals re-checked that did not verify: `summary`, `why` (the failure or deadlock the patched program still has, or why the re-check gave no answer) |
//! | `proposed`, `checked` | proposals made, and re-checked |
//! | `root_causes`, `uncovered_root_causes` | the localization's root causes the repairs were chosen against (0: none found), and those no proposal removes (indices) |
//! | `complete` | every proposal was re-checked or enough repairs verified (`false`: the time ran out) |
//! | `patch_file` | where `--write-patch` wrote the first repair, or `null` |
//! | `time_ms` | `{ "total", "rechecks" }`: the whole run, and the re-checks of every proposal tried (the localization's own times are in `localize.time_ms`) |

use serde::Serialize;

use super::style::Style;
use crate::repair::actions::{Action, Region};
use crate::repair::{Outcome, Verified};

pub const SCHEMA: &str = "seqloc.repair/1";

/// What `seqloc repair` found; `outcome` is `None` when there was nothing to repair.
pub struct RepairReport<'a> {
    pub program: String,
    /// The localization's `seqloc.localize/1` document.
    pub localize: serde_json::Value,
    pub outcome: Option<&'a Outcome>,
    pub patch_file: Option<String>,
    /// The whole run, and the proposals' re-checks within it.
    pub time_ms: RepairTimes,
}

#[derive(Clone, Copy, Debug, Default, Serialize)]
pub struct RepairTimes {
    pub total: u64,
    pub rechecks: u64,
}

#[derive(Serialize)]
struct Json<'a> {
    schema: &'static str,
    program: &'a str,
    localize: &'a serde_json::Value,
    repairs: Vec<RepairJson<'a>>,
    dropped: Vec<DroppedJson<'a>>,
    proposed: usize,
    checked: usize,
    root_causes: usize,
    uncovered_root_causes: &'a [usize],
    complete: bool,
    patch_file: &'a Option<String>,
    time_ms: RepairTimes,
}

#[derive(Serialize)]
struct RepairJson<'a> {
    kind: &'static str,
    summary: &'a str,
    #[serde(skip_serializing_if = "Option::is_none")]
    mutex: Option<&'a str>,
    #[serde(skip_serializing_if = "Option::is_none")]
    new_mutex: Option<bool>,
    regions: Vec<RegionJson<'a>>,
    #[serde(skip_serializing_if = "Option::is_none")]
    moved: Option<u32>,
    #[serde(skip_serializing_if = "Option::is_none")]
    before: Option<u32>,
    #[serde(skip_serializing_if = "Option::is_none")]
    after: Option<u32>,
    /// The line a `wait-loop`, `release`, `drop-relock`, `guard-wait`, `argument-slot` or
    /// `condition` changes.
    #[serde(skip_serializing_if = "Option::is_none")]
    line: Option<u32>,
    statements_locked: usize,
    lines_changed: usize,
    removes_root_causes: &'a [usize],
    verified: VerifiedJson<'a>,
    patch: &'a str,
}

#[derive(Serialize)]
struct RegionJson<'a> {
    function: &'a str,
    first_line: u32,
    last_line: u32,
}

#[derive(Serialize)]
struct VerifiedJson<'a> {
    exhaustive: bool,
    reach: &'a str,
    ms: u64,
}

#[derive(Serialize)]
struct DroppedJson<'a> {
    summary: &'a str,
    why: &'a str,
}

fn region(r: &Region) -> RegionJson<'_> {
    RegionJson {
        function: &r.function,
        first_line: r.first_line,
        last_line: r.last_line,
    }
}

fn repair_json(v: &Verified) -> RepairJson<'_> {
    let p = &v.proposal;
    let (mut mutex, mut new_mutex, mut regions) = (None, None, vec![]);
    let (mut moved, mut before, mut after, mut line) = (None, None, None, None);
    match &p.action {
        Action::Lock {
            mutex: m,
            new,
            regions: r,
        } => {
            mutex = Some(m.as_str());
            new_mutex = Some(*new);
            regions = r.iter().map(region).collect();
        }
        Action::Reorder {
            moved: from,
            target,
            after: down,
            ..
        } => {
            moved = Some(*from);
            if *down {
                after = Some(*target);
            } else {
                before = Some(*target);
            }
        }
        Action::Release {
            mutex: m, line: l, ..
        } => {
            mutex = Some(m.as_str());
            new_mutex = Some(false);
            line = Some(*l);
        }
        Action::Handshake {
            after: w,
            before: r,
            ..
        } => {
            after = Some(*w);
            before = Some(*r);
        }
        Action::Combined { .. } => {}
        Action::Cover { parts } => {
            // The regions of every lock among the parts: where the cover's code is locked.
            for a in parts {
                if let Action::Lock { regions: r, .. } = a {
                    regions.extend(r.iter().map(region));
                }
            }
        }
        Action::WaitLoop { line: l, .. }
        | Action::GuardWait { line: l, .. }
        | Action::Join { line: l, .. }
        | Action::ArgumentSlot { line: l, .. }
        | Action::Primitive { line: l, .. }
        | Action::Condition { line: l, .. } => line = Some(*l),
        Action::DropRelock { mutex: m, lock, .. } => {
            mutex = Some(m.as_str());
            new_mutex = Some(false);
            line = Some(*lock);
        }
    }
    RepairJson {
        kind: p.action.kind(),
        summary: &p.summary,
        mutex,
        new_mutex,
        regions,
        moved,
        before,
        after,
        line,
        statements_locked: p.statements_locked,
        lines_changed: v.lines_changed,
        removes_root_causes: &p.kills,
        verified: VerifiedJson {
            exhaustive: v.exhaustive,
            reach: &v.reach,
            ms: v.ms,
        },
        patch: &v.diff,
    }
}

pub fn to_json(r: &RepairReport) -> String {
    let empty = Outcome::default();
    let o = r.outcome.unwrap_or(&empty);
    let j = Json {
        schema: SCHEMA,
        program: &r.program,
        localize: &r.localize,
        repairs: o.verified.iter().map(repair_json).collect(),
        dropped: o
            .dropped
            .iter()
            .map(|d| DroppedJson {
                summary: &d.summary,
                why: &d.why,
            })
            .collect(),
        proposed: o.proposed,
        checked: o.checked,
        root_causes: o.root_causes,
        uncovered_root_causes: &o.uncovered,
        // Complete only when the localization it repairs from was complete too.
        complete: !o.out_of_time && r.localize["complete"] != serde_json::Value::Bool(false),
        patch_file: &r.patch_file,
        time_ms: r.time_ms,
    };
    serde_json::to_string_pretty(&j).unwrap_or_default()
}

/// The repair section that follows the localization's text.
pub fn render_text(r: &RepairReport, st: &Style) -> String {
    let mut out = String::new();
    let Some(o) = r.outcome else {
        let verdict = r.localize["verdict"].as_str().unwrap_or_default();
        out.push_str(match verdict {
            "failure" | "deadlock" => {
                "\nNothing to repair yet: a limit stopped the localization before its first candidate.\n"
            }
            "unknown" => "\nNothing to repair: no failure was found, and no answer either (see above).\n",
            _ => "\nNothing to repair: no failure was found.\n",
        });
        return out;
    };
    if o.verified.is_empty() {
        out.push_str(&format!(
            "\n{}: {} of {} proposals re-checked, none removes the failure without another{}.\n",
            st.red("No verified repair"),
            o.checked,
            o.proposed,
            if o.out_of_time {
                " (the time ran out first)"
            } else {
                ""
            }
        ));
        for d in o.dropped.iter().take(5) {
            out.push_str(&format!("  tried: {} — {}\n", d.summary, d.why));
        }
        return out;
    }
    for (i, v) in o.verified.iter().enumerate() {
        out.push_str(&format!(
            "\n{} {}: {}\n  verified by re-checking the patched program: {} ({} ms); {} line{} changed\n",
            st.bold("Repair"),
            i + 1,
            v.proposal.summary,
            v.reach,
            v.ms,
            v.lines_changed,
            if v.lines_changed == 1 { "" } else { "s" },
        ));
        if let Some(line) = removes(o.root_causes, &v.proposal.kills) {
            out.push_str(&format!("  {line}\n"));
        }
        out.push('\n');
        for line in v.diff.lines() {
            let shown = if line.starts_with('+') && !line.starts_with("+++") {
                st.green(line)
            } else if line.starts_with('-') && !line.starts_with("---") {
                st.red(line)
            } else {
                line.to_string()
            };
            out.push_str(&shown);
            out.push('\n');
        }
    }
    let took = if r.time_ms.rechecks < 1000 {
        format!("{} ms", r.time_ms.rechecks)
    } else {
        format!("{:.1} s", r.time_ms.rechecks as f64 / 1000.0)
    };
    out.push_str(&format!(
        "\n{} of {} proposals re-checked in {took}",
        o.checked, o.proposed
    ));
    if o.dropped.is_empty() {
        out.push_str(".\n");
    } else {
        out.push_str(&format!(
            "; {} dropped first (they did not verify; `-v` or JSON `dropped` says why).\n",
            o.dropped.len()
        ));
    }
    if let Some(p) = &r.patch_file {
        out.push_str(&format!("Patch written to {p}.\n"));
    }
    out
}

/// What a repair does to the root causes, in words; `None` when there were none.
fn removes(causes: usize, kills: &[usize]) -> Option<String> {
    let n = |i: &usize| (i + 1).to_string();
    match (causes, kills) {
        (0, _) => None,
        (1, [_]) => Some(
            "removes the root cause found: its orderings cannot all happen in the patched program"
                .into(),
        ),
        (_, []) => Some(format!(
            "removes none of the {causes} root cause{} found, by a reading of its text: it verified all the same",
            if causes == 1 { "" } else { "s" }
        )),
        (_, k) if k.len() == causes => Some(format!("removes all {causes} root causes found")),
        (_, k) => Some(format!(
            "removes root cause{} {} of the {causes} found",
            if k.len() == 1 { "" } else { "s" },
            k.iter().map(n).collect::<Vec<_>>().join(", ")
        )),
    }
}

/// The localization's SARIF run with each verified repair as a SARIF `fix` (its edits as
/// replacements of the original file, offsets in characters) on the result of the first
/// candidate the repair touches, or on the first result; code-scanning viewers offer it.
/// `source` is the original file's text, `uri` its SARIF location.
pub fn to_sarif(localize_sarif: &str, r: &RepairReport, source: &str, uri: &str) -> String {
    use serde_json::{Value, json};
    let Ok(mut doc) = serde_json::from_str::<Value>(localize_sarif) else {
        return localize_sarif.to_string();
    };
    let chars = |byte: usize| source.get(..byte).map_or(0, |s| s.chars().count());
    let empty = Outcome::default();
    let o = r.outcome.unwrap_or(&empty);
    let Some(results) = doc
        .pointer_mut("/runs/0/results")
        .and_then(Value::as_array_mut)
    else {
        return localize_sarif.to_string();
    };
    for v in &o.verified {
        let replacements: Vec<Value> = v
            .proposal
            .edits
            .iter()
            .map(|e| {
                json!({
                    "deletedRegion": {
                        "charOffset": chars(e.start),
                        "charLength": chars(e.end) - chars(e.start)
                    },
                    "insertedContent": { "text": e.text }
                })
            })
            .collect();
        let fix = json!({
            "description": { "text": format!("{} (verified: {})", v.proposal.summary, v.reach) },
            "artifactChanges": [{
                "artifactLocation": { "uri": uri },
                "replacements": replacements
            }]
        });
        let lines = touched_lines(&v.proposal.action);
        let at = results
            .iter()
            .position(|res| {
                res.pointer("/locations/0/physicalLocation/region/startLine")
                    .and_then(Value::as_u64)
                    .is_some_and(|l| lines.contains(&(l as u32)))
            })
            .unwrap_or(0);
        if let Some(obj) = results.get_mut(at).and_then(Value::as_object_mut) {
            let fixes = obj.entry("fixes").or_insert_with(|| json!([]));
            if let Some(a) = fixes.as_array_mut() {
                a.push(fix);
            }
        }
    }
    serde_json::to_string_pretty(&doc).unwrap_or_default()
}

fn touched_lines(a: &Action) -> Vec<u32> {
    match a {
        Action::Lock { regions, .. } => regions
            .iter()
            .flat_map(|r| r.first_line..=r.last_line)
            .collect(),
        Action::Reorder { moved, target, .. } => vec![*moved, *target],
        Action::Handshake { after, before, .. } => vec![*after, *before],
        // The second step's lines are the patched program's: the first's place the fix.
        Action::Combined { first, .. } => touched_lines(first),
        Action::Cover { parts } => parts.iter().flat_map(touched_lines).collect(),
        Action::Release { line, .. }
        | Action::WaitLoop { line, .. }
        | Action::GuardWait { line, .. }
        | Action::Join { line, .. }
        | Action::ArgumentSlot { line, .. }
        | Action::Primitive { line, .. }
        | Action::Condition { line, .. } => vec![*line],
        Action::DropRelock { lock, unlock, .. } => vec![*lock, *unlock],
    }
}
