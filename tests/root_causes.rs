//! Minimal root causes (`engine::causes`): on the programs of `tests/programs/rootcause/`,
//! each stating on its first line the lines its root cause names (or `none` when the
//! failure needs no order), and on every buggy benchmark: each reported root cause was
//! confirmed by the solver a second time (forcing the failure, and minimal), and a root
//! cause is a small share of the failing run's orderings.

mod common;

use common::*;

const DIR: &str = "tests/programs/rootcause";

/// `root cause: lines 12 15 (...)` → Some([12, 15]); `root cause: none (...)` → None.
fn expected(program: &str) -> Option<Vec<u64>> {
    let text = std::fs::read_to_string(root().join(DIR).join(program)).expect("reads");
    let first = text.lines().next().unwrap_or("");
    let spec = first
        .split("root cause:")
        .nth(1)
        .unwrap_or_else(|| panic!("{program}: no `root cause:` on line 1"))
        .split('(')
        .next()
        .unwrap_or("")
        .trim();
    if spec == "none" {
        return None;
    }
    Some(
        spec.trim_start_matches("lines")
            .split_whitespace()
            .map(|n| n.parse().expect("a line number"))
            .collect(),
    )
}

fn cause_lines(cause: &serde_json::Value) -> Vec<u64> {
    let mut v: Vec<u64> = cause["orderings"]
        .as_array()
        .expect("orderings")
        .iter()
        .flat_map(|o| [o["before"]["line"].as_u64(), o["after"]["line"].as_u64()])
        .flatten()
        .collect();
    v.sort_unstable();
    v.dedup();
    v
}

#[test]
fn each_program_gets_the_root_cause_it_states() {
    let mut programs: Vec<String> = std::fs::read_dir(root().join(DIR))
        .expect("the root-cause programs")
        .filter_map(|e| e.ok())
        .map(|e| e.file_name().to_string_lossy().into_owned())
        .filter(|n| n.ends_with(".c"))
        .collect();
    programs.sort();
    assert!(programs.len() >= 3);
    for p in &programs {
        let path = format!("{DIR}/{p}");
        let o = run(&["localize", &path, "--format", "json"]);
        assert_eq!(o.status.code(), Some(1), "{p}: {}", stderr(&o));
        let j = json(&o);
        let rc = &j["root_causes"];
        assert!(rc.is_object(), "{p}: no root causes: {}", stderr(&o));
        match expected(p) {
            None => {
                assert_eq!(rc["order_independent"], true, "{p}: {rc}");
                assert!(rc["causes"].as_array().is_some_and(|c| c.is_empty()));
            }
            Some(lines) => {
                assert_eq!(rc["order_independent"], false, "{p}: {rc}");
                let causes = rc["causes"].as_array().expect("causes");
                assert!(!causes.is_empty(), "{p}: no cause: {rc}");
                let mut want = lines.clone();
                want.sort_unstable();
                want.dedup();
                assert_eq!(cause_lines(&causes[0]), want, "{p}: {rc}");
                for c in causes {
                    assert_eq!(c["verified"], true, "{p}: {c}");
                    // Fewer orderings than the run has: a cause, not the whole run.
                    let n = c["orderings"].as_array().map_or(0, |o| o.len());
                    assert!(n >= 1 && n as u64 <= rc["orderings"].as_u64().unwrap_or(0));
                }
            }
        }
    }
}

#[test]
fn the_text_report_says_why_and_none_is_asked_with_zero() {
    let p = format!("{DIR}/teller_lost_update.c");
    let o = run(&["localize", &p]);
    let text = stdout(&o);
    assert!(text.contains("Root cause"), "{text}");
    assert!(
        text.contains("T1 reads balance (line 12) before T2 writes balance (line 15)")
            || text.contains("T2 reads balance (line 12) before T1 writes balance (line 15)"),
        "{text}"
    );
    let o = run(&["localize", &p, "--format", "json", "--root-causes", "0"]);
    assert!(json(&o)["root_causes"].is_null());
    let o = run(&["localize", &p, "--format", "sarif"]);
    let sarif = stdout(&o);
    assert!(sarif.contains("root cause 1: first"), "{sarif}");
}

#[test]
fn every_benchmark_root_cause_is_confirmed_and_small() {
    let tasks: Vec<(String, serde_json::Value)> = manifest()
        .into_iter()
        .filter(|(_, t)| t["expected_verdict"] == false && t["property"] != "no-deadlock")
        .collect();
    let reports = parallel(&tasks, |(task, t)| {
        let prog = task_program(task);
        let o = run(&[
            "localize",
            prog.to_str().expect("utf-8"),
            "--format",
            "json",
            "--property",
            property_arg(t),
            "--max-rounds",
            "4",
            "--timeout",
            "120",
        ]);
        (task.clone(), json(&o))
    });
    let mut shares = Vec::new();
    for (task, j) in &reports {
        let rc = &j["root_causes"];
        if !rc.is_object() {
            continue;
        }
        let stopped = rc["stopped"].as_str().unwrap_or("");
        assert!(
            !stopped.contains("not confirmed"),
            "{task}: a set the search returned is no root cause: {rc}"
        );
        let total = rc["orderings"].as_u64().unwrap_or(0) as f64;
        let causes = rc["causes"].as_array().expect("causes");
        for c in causes {
            assert_ne!(c["verified"], false, "{task}: {c}");
        }
        if let Some(min) = causes
            .iter()
            .filter_map(|c| c["orderings"].as_array().map(|o| o.len()))
            .min()
        {
            shares.push(min as f64 / total.max(1.0));
        }
    }
    eprintln!(
        "root causes on {} of {} failure benchmarks",
        shares.len(),
        reports.len()
    );
    assert!(shares.len() >= reports.len() / 2, "{shares:?}");
    shares.sort_by(f64::total_cmp);
    let median = shares[shares.len() / 2];
    assert!(median <= 0.2, "median share {median}: {shares:?}");
}
