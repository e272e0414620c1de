//! Splitting a sweep across machines (`--shard I/N`) and merging the shards' result files.
//!
//! **Sharding is round-robin over the sorted task list:** shard `I` of `N` (1-based) runs the
//! tasks at 0-based positions `I-1, I-1+N, I-1+2N, ...` of the list [`discover`] returns
//! (sorted by task path). Every machine that discovers the same tree therefore computes the
//! same slices: the shards are disjoint, together they are every task, and their sizes differ
//! by at most one. Round-robin rather than contiguous blocks, because neighbouring tasks in a
//! benchmark folder tend to be variants of similar cost (`-1`, `-2`, `_longer`, `_longest`),
//! and spreading them evens out the shards' run times. A task's properties always stay in one
//! shard.
//!
//! [`discover`]: super::task::discover

use std::collections::HashMap;
use std::path::{Path, PathBuf};

use super::SweepError;
use super::messages;
use super::results::{SCHEMA, SweepReport, read_json};
use super::task::Task;

/// Parses `I/N` (1 <= I <= N).
pub fn parse_shard(spec: &str) -> Result<(u32, u32), SweepError> {
    let bad = |reason: &str| SweepError::BadShard {
        spec: spec.to_string(),
        reason: reason.to_string(),
    };
    let (i, n) = spec.split_once('/').ok_or_else(|| bad("no `/`"))?;
    let i: u32 = i.trim().parse().map_err(|_| bad("I is not a number"))?;
    let n: u32 = n.trim().parse().map_err(|_| bad("N is not a number"))?;
    check_shard((i, n)).map_err(|r| bad(&r))?;
    Ok((i, n))
}

fn check_shard((i, n): (u32, u32)) -> Result<(), String> {
    if n == 0 {
        return Err("N must be at least 1".to_string());
    }
    if i == 0 || i > n {
        return Err(format!("I must be between 1 and {n}"));
    }
    Ok(())
}

/// The tasks of shard `i` of `n` (1-based, round-robin; see the module doc). `tasks` must be
/// in [`discover`](super::task::discover)'s order.
pub fn select(tasks: Vec<Task>, (i, n): (u32, u32)) -> Result<Vec<Task>, SweepError> {
    check_shard((i, n)).map_err(|reason| SweepError::BadShard {
        spec: format!("{i}/{n}"),
        reason,
    })?;
    let (i, n) = (i as usize - 1, n as usize);
    Ok(tasks
        .into_iter()
        .enumerate()
        .filter(|(k, _)| k % n == i)
        .map(|(_, t)| t)
        .collect())
}

/// Merges the result files of several shards (or several sweeps of disjoint tasks) into one
/// report, sorted by id.
///
/// Rejects files that are not `seqloc.sweep/1` results, files of different modes, and a task
/// that appears in two files. Files made with different limits or seqloc arguments are merged
/// with a warning (the first file's options are kept). The merged report starts when the
/// earliest shard started, adds up the shards' elapsed times, and lists its files in
/// `merged_from`; its `shard` is empty.
pub fn merge(files: &[PathBuf]) -> Result<SweepReport, SweepError> {
    let mut merged: Option<(SweepReport, PathBuf)> = None;
    let mut owner: HashMap<String, PathBuf> = HashMap::new();
    let mut shards: Vec<Option<(u32, u32)>> = Vec::new();
    for file in files {
        let report = read_json(file)?;
        shards.push(
            report
                .options
                .shard
                .as_deref()
                .and_then(|s| parse_shard(s).ok()),
        );
        for t in &report.tasks {
            if let Some(first) = owner.insert(t.id.clone(), file.clone()) {
                return Err(SweepError::DuplicateTask {
                    id: t.id.clone(),
                    first,
                    second: file.clone(),
                });
            }
        }
        match &mut merged {
            None => merged = Some((report, file.clone())),
            Some((m, first)) => {
                if report.mode != m.mode {
                    return Err(SweepError::MergeConflict {
                        path: file.clone(),
                        reason: format!(
                            "it is a {} sweep and {} a {} sweep",
                            report.mode.subcommand(),
                            first.display(),
                            m.mode.subcommand()
                        ),
                    });
                }
                let (a, b) = (&m.options, &report.options);
                if a.timeout_s != b.timeout_s
                    || a.memory_mb != b.memory_mb
                    || a.extra_args != b.extra_args
                {
                    messages::warn(&format!(
                        "{} was made with other limits or seqloc arguments than {}; merged anyway",
                        file.display(),
                        first.display()
                    ));
                }
                if report.started < m.started {
                    m.started = report.started;
                }
                m.elapsed_ms = m.elapsed_ms.saturating_add(report.elapsed_ms);
                m.interrupted |= report.interrupted;
                m.tasks.extend(report.tasks);
            }
        }
    }
    let Some((mut report, _)) = merged else {
        return Err(SweepError::MergeConflict {
            path: PathBuf::new(),
            reason: "no result files given".to_string(),
        });
    };
    warn_about_missing_shards(&shards);
    report.schema = SCHEMA.to_string();
    report.options.shard = None;
    report.merged_from = files.iter().map(|f| display(f)).collect();
    report.tasks.sort_by(|a, b| a.id.cmp(&b.id));
    Ok(report)
}

/// When every file is a shard of the same `N`, says which of the `N` shards are missing (a
/// merge of part of a sweep is allowed, but should not pass for the whole).
fn warn_about_missing_shards(shards: &[Option<(u32, u32)>]) {
    let Some(Some((_, n))) = shards.first() else {
        return;
    };
    if !shards.iter().all(|s| s.is_some_and(|(_, m)| m == *n)) {
        return;
    }
    let missing: Vec<String> = (1..=*n)
        .filter(|i| !shards.iter().any(|s| s.is_some_and(|(j, _)| j == *i)))
        .map(|i| format!("{i}/{n}"))
        .collect();
    if !missing.is_empty() {
        messages::warn(&format!(
            "merged results lack shard{} {}",
            if missing.len() == 1 { "" } else { "s" },
            missing.join(", ")
        ));
    }
}

fn display(p: &Path) -> String {
    p.display().to_string()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::sweep::Mode;
    use crate::sweep::results::tests::{report, result};
    use crate::sweep::results::{Status, write_json};
    use proptest::prelude::*;

    fn tasks(n: usize) -> Vec<Task> {
        (0..n)
            .map(|k| Task {
                id: format!("t{k:03}.c"),
                yml: None,
                inputs: vec![PathBuf::from(format!("t{k:03}.c"))],
                category: "x".into(),
                data_model: None,
                language: None,
                properties: vec![],
                ground_truth: None,
                problem: None,
            })
            .collect()
    }

    #[test]
    fn parses_shard_specs() {
        assert_eq!(parse_shard("2/8").unwrap(), (2, 8));
        assert_eq!(parse_shard("1/1").unwrap(), (1, 1));
        for bad in ["0/3", "4/3", "1/0", "x/2", "2", "1/y", ""] {
            assert!(
                matches!(parse_shard(bad), Err(SweepError::BadShard { .. })),
                "{bad}"
            );
        }
    }

    proptest! {
        #[test]
        fn shards_are_disjoint_and_cover_everything(len in 0usize..60, n in 1u32..9) {
            let all = tasks(len);
            let mut seen: Vec<String> = Vec::new();
            let mut sizes = Vec::new();
            for i in 1..=n {
                let part = select(all.clone(), (i, n)).unwrap();
                sizes.push(part.len());
                // Each shard keeps the sorted order.
                prop_assert!(part.windows(2).all(|w| w[0].id < w[1].id));
                seen.extend(part.into_iter().map(|t| t.id));
            }
            seen.sort();
            let mut ids: Vec<String> = all.into_iter().map(|t| t.id).collect();
            ids.sort();
            prop_assert_eq!(seen, ids);
            let (min, max) = (sizes.iter().min().copied().unwrap_or(0), sizes.iter().max().copied().unwrap_or(0));
            prop_assert!(max - min <= 1);
        }
    }

    fn save(dir: &Path, name: &str, r: &SweepReport) -> PathBuf {
        let p = dir.join(name);
        let f = std::fs::File::create(&p).unwrap();
        write_json(r, f).unwrap();
        p
    }

    #[test]
    fn merge_round_trips_and_rejects_duplicates() {
        let dir = tempfile::tempdir().unwrap();
        let a = result("c/x/a.yml#unreach-call", "x", Status::Correct);
        let b = result("c/x/b.yml#unreach-call", "x", Status::Wrong);
        let c = result("c/y/c.yml#unreach-call", "y", Status::Timeout);
        let whole = report(Mode::Check, vec![a.clone(), b.clone(), c.clone()]);
        let mut s1 = report(Mode::Check, vec![a.clone(), c.clone()]);
        s1.options.shard = Some("1/2".into());
        s1.started = "2026-11-01T12:00:05Z".into();
        let mut s2 = report(Mode::Check, vec![b.clone()]);
        s2.options.shard = Some("2/2".into());
        let p1 = save(dir.path(), "s1.json", &s1);
        let p2 = save(dir.path(), "s2.json", &s2);

        let m = merge(&[p1.clone(), p2.clone()]).unwrap();
        assert_eq!(m.tasks, whole.tasks);
        assert_eq!(m.options.shard, None);
        assert_eq!(m.started, "2026-11-01T12:00:00Z");
        assert_eq!(m.merged_from.len(), 2);
        // The merged file reads back as the same report.
        let pm = save(dir.path(), "merged.json", &m);
        assert_eq!(read_json(&pm).unwrap(), m);

        let e = merge(&[p1.clone(), p2, p1.clone()]).unwrap_err();
        assert!(matches!(e, SweepError::DuplicateTask { .. }), "{e}");
        assert!(e.to_string().contains("c/x/a.yml#unreach-call"), "{e}");
        assert!(e.to_string().contains("s1.json"), "{e}");

        let loc = save(dir.path(), "loc.json", &report(Mode::Localize, vec![b]));
        let e = merge(&[p1.clone(), loc]).unwrap_err();
        assert!(matches!(e, SweepError::MergeConflict { .. }), "{e}");
        assert!(e.to_string().contains("localize"), "{e}");

        let junk = dir.path().join("junk.json");
        std::fs::write(&junk, "[1,2]").unwrap();
        assert!(matches!(
            merge(&[p1, junk]),
            Err(SweepError::BadReport { .. })
        ));
        assert!(merge(&[]).is_err());
    }
}
