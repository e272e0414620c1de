//! `seqloc sweep --witness-dir DIR`: one violation witness per task and property that fails.
//!
//! The sweep does not write witnesses itself (it never runs a check in-process): it names the
//! files, gives each child `--witness` (and `--witness-yaml`, `--witness-spec`) and afterwards
//! looks at what the child left. The names are fixed before the run, from every discovered
//! task, so that the shards of one sweep name the same task's witness alike.

use std::collections::HashMap;
use std::ffi::OsString;
use std::path::{Path, PathBuf};

use super::results::Verdict;
use super::task::{PropertyKind, Task};

/// Where the witnesses of one task and property go.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct WitnessFiles {
    pub graphml: PathBuf,
    /// Written by the child only for assertion and `reach_error` failures (format 2.0 has
    /// no threads and no deadlock).
    pub yaml: PathBuf,
    /// The task's property file, given as the witnesses' specification.
    pub spec: Option<PathBuf>,
}

impl WitnessFiles {
    /// The child's arguments that ask for these witnesses.
    pub fn child_args(&self) -> Vec<OsString> {
        let mut args: Vec<OsString> = vec![
            "--witness".into(),
            self.graphml.clone().into(),
            "--witness-yaml".into(),
            self.yaml.clone().into(),
        ];
        if let Some(spec) = &self.spec {
            args.push("--witness-spec".into());
            args.push(spec.clone().into());
        }
        args
    }

    /// Removes what an earlier sweep into the same folder left, so that a file found after
    /// the run is this run's. A file that cannot be removed is left to the child to overwrite.
    pub fn clear(&self) {
        for p in [&self.graphml, &self.yaml] {
            let _ = std::fs::remove_file(p);
        }
    }
}

/// The task's path as components, its file name without the extension: `[c, pthread,
/// lazy01]` for `c/pthread/lazy01.yml`.
fn components(task: &Task) -> Vec<String> {
    let mut parts: Vec<String> = task
        .id
        .split('/')
        .filter(|p| !p.is_empty() && *p != "." && *p != "..")
        .map(sanitize)
        .collect();
    if let Some(last) = parts.last_mut() {
        for ext in [".yml", ".yaml", ".c", ".i"] {
            if let Some(s) = last.strip_suffix(ext) {
                *last = sanitize(s);
                break;
            }
        }
    }
    if parts.is_empty() {
        parts.push("task".to_string());
    }
    parts
}

/// The last `depth` components joined: `pthread__lazy01` for depth 2.
fn suffix(parts: &[String], depth: usize) -> String {
    parts[parts.len().saturating_sub(depth)..].join("__")
}

/// Keeps file names portable: letters, digits, `-`, `_` and `.`; anything else becomes `_`.
fn sanitize(s: &str) -> String {
    let out: String = s
        .chars()
        .map(|c| {
            if c.is_ascii_alphanumeric() || "-_.".contains(c) {
                c
            } else {
                '_'
            }
        })
        .collect();
    if out.is_empty() || out.chars().all(|c| c == '.') {
        "task".to_string()
    } else {
        out
    }
}

/// The witness file stems of every task in `tasks`, by task id: the task's own name
/// (`lazy01`), or where two tasks share it, as many of the folders above it as tell them
/// apart (`pthread__lazy01`), and a numbered suffix if even that collides (paths that
/// differ only in characters `sanitize` replaces).
pub fn stems(tasks: &[Task]) -> HashMap<String, String> {
    let parts: Vec<Vec<String>> = tasks.iter().map(components).collect();
    let deepest = parts.iter().map(Vec::len).max().unwrap_or(1);
    let mut counts: Vec<HashMap<String, usize>> = Vec::with_capacity(deepest);
    for depth in 1..=deepest {
        let mut c = HashMap::new();
        for p in &parts {
            *c.entry(suffix(p, depth)).or_insert(0) += 1;
        }
        counts.push(c);
    }
    let mut order: Vec<usize> = (0..tasks.len()).collect();
    // Sorted, so that the numbered suffixes do not depend on the order of discovery.
    order.sort_by(|&a, &b| tasks[a].id.cmp(&tasks[b].id));
    let mut taken: HashMap<String, usize> = HashMap::new();
    let mut out = HashMap::new();
    for i in order {
        let p = &parts[i];
        let base = (1..=p.len())
            .map(|d| suffix(p, d))
            .zip(&counts)
            .find(|(name, c)| c.get(name).copied() == Some(1))
            .map_or_else(|| suffix(p, p.len()), |(name, _)| name);
        let n = taken.entry(base.clone()).or_default();
        *n += 1;
        let name = if *n == 1 { base } else { format!("{base}.{n}") };
        out.insert(tasks[i].id.clone(), name);
    }
    out
}

/// The witness files of one task and property: `DIR/<stem>.graphml` and
/// `DIR/<stem>.witness.yml`, with `.<property>` after the stem when the task has more than
/// one property (SV-COMP's concurrency tasks have one).
pub fn files(dir: &Path, stem: &str, task: &Task, property: &PropertyKind) -> WitnessFiles {
    let stem = if task.properties.len() > 1 {
        format!("{stem}.{}", property.name())
    } else {
        stem.to_string()
    };
    let spec = task
        .properties
        .iter()
        .find(|p| &p.kind == property)
        .and_then(|p| p.property_file.clone());
    WitnessFiles {
        graphml: dir.join(format!("{stem}.graphml")),
        yaml: dir.join(format!("{stem}.witness.yml")),
        spec,
    }
}

/// What the child left, for the result: the witness files that exist, and for a failure
/// without a GraphML witness, why (the child's warning or note, when it gave one).
pub fn collect(
    files: &WitnessFiles,
    verdict: Option<Verdict>,
    stderr: &str,
) -> (Vec<String>, Option<String>) {
    let found: Vec<String> = [&files.graphml, &files.yaml]
        .into_iter()
        .filter(|p| p.is_file())
        .map(|p| super::task::slash_path(p))
        .collect();
    let failed = matches!(verdict, Some(Verdict::Failure | Verdict::Deadlock));
    let note = (failed && !files.graphml.is_file()).then(|| {
        stderr
            .lines()
            .map(str::trim)
            .find(|l| {
                (l.starts_with("warning:") || l.starts_with("note:"))
                    && l.contains("witness")
                    && !l.contains("YAML")
            })
            .map(str::to_string)
            .unwrap_or_else(|| "the run wrote no GraphML witness".to_string())
    });
    (found, note)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::sweep::task::discover;
    use crate::sweep::task::tests::{UNREACH, tree};

    #[test]
    fn names_follow_the_task_and_disambiguate_collisions() {
        let c = "int main(void) { return 0; }\n";
        let dir = tree(&[
            ("b/x/a.c", c),
            ("b/y/a.c", c),
            ("b/y/b c.i", c),
            ("b/properties/unreach-call.prp", UNREACH),
            (
                "b/z/t.yml",
                "format_version: '2.0'\ninput_files: t.c\nproperties:\n  - property_file: ../properties/unreach-call.prp\n    expected_verdict: false\n",
            ),
            ("b/z/t.c", c),
        ]);
        let tasks = discover(&[dir.path().join("b")]).unwrap();
        let stems = stems(&tasks);
        let of = |suffix: &str| {
            let t = tasks.iter().find(|t| t.id.ends_with(suffix)).unwrap();
            (t, stems[&t.id].clone())
        };
        assert_eq!(of("x/a.c").1, "x__a");
        assert_eq!(of("y/a.c").1, "y__a");
        assert_eq!(of("b c.i").1, "b_c");
        let (t, s) = of("z/t.yml");
        assert_eq!(s, "t");
        let f = files(Path::new("/w"), &s, t, &PropertyKind::UnreachCall);
        assert_eq!(f.graphml, Path::new("/w/t.graphml"));
        assert_eq!(f.yaml, Path::new("/w/t.witness.yml"));
        assert!(
            f.spec
                .as_deref()
                .is_some_and(|p| p.ends_with("unreach-call.prp"))
        );
        let args = f.child_args();
        assert_eq!(args[0], "--witness");
        assert_eq!(args[4], "--witness-spec");
    }

    #[test]
    fn collects_the_files_and_says_why_one_is_missing() {
        let dir = tree(&[("w/t.graphml", "<graphml/>")]);
        let f = WitnessFiles {
            graphml: dir.path().join("w/t.graphml"),
            yaml: dir.path().join("w/t.witness.yml"),
            spec: None,
        };
        let (found, note) = collect(&f, Some(Verdict::Failure), "");
        assert_eq!(found.len(), 1);
        assert_eq!(note, None);
        f.clear();
        assert!(!f.graphml.exists());
        let (found, note) = collect(
            &f,
            Some(Verdict::Deadlock),
            "note: no YAML 2.2 witness for this failure: a deadlock\nwarning: no GraphML witness for this failure: the trace and schedule disagree\n",
        );
        assert!(found.is_empty());
        assert!(note.is_some_and(|n| n.contains("disagree")));
        let (_, note) = collect(&f, Some(Verdict::NoFailureWithinBounds), "");
        assert_eq!(note, None);
    }
}
