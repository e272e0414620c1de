//! The ranking does not depend on which failing run the solver happens to return: the
//! counterexample is picked by a documented criterion (`checker::builtin::canonical`), so
//! the same program gives the same candidates in the same order under every Z3 seed.
//! Before the criterion, each program below changed its ranking with the seed (measured
//! with `scripts/rank_stability.py`; `lazy01_bad` lost its first-ranked faulty line).
//! The criterion's questions and the root-cause search are bounded by Z3's work count
//! (`rlimit`), not by time, so the machine's load does not change them either; the
//! root-cause search is still left out here (a seed changes which unsat core Z3 returns,
//! and so which minimal causes the search reaches first).

mod common;

use common::*;

/// Programs whose ranking changed with Z3's seed while the counterexample was the model's.
const PROGRAMS: &[&str] = &[
    "paper/lazy01_bad.c",
    "paper/twostage_bad.c",
    "concbugs/histogram_lost_update.c",
    "concbugs/message_flag_before_data.c",
];

const SEEDS: &[&str] = &["0", "1", "2", "3"];

#[test]
fn the_ranking_is_the_same_under_every_solver_seed() {
    let runs: Vec<(&str, &str)> = PROGRAMS
        .iter()
        .flat_map(|p| SEEDS.iter().map(move |s| (*p, *s)))
        .collect();
    let results = parallel(&runs, |(prog, seed)| {
        let path = format!("benchmarks/{prog}");
        let out = seqloc()
            .args(["localize", &path, "--format", "json", "--max-rounds", "4"])
            // The root-cause search's answers depend on the seed: left out here.
            .args(["--timeout", "300", "--root-causes", "0"])
            .env("SEQLOC_Z3_SEED", seed)
            .output()
            .expect("the seqloc binary runs");
        let report = json(&out);
        (prog.to_string(), seed.to_string(), candidate_lines(&report))
    });
    let mut differ = Vec::new();
    for prog in PROGRAMS {
        let per: Vec<_> = results.iter().filter(|r| r.0 == *prog).collect();
        let Some(first) = per.first() else {
            panic!("{prog} was not run");
        };
        assert!(!first.2.is_empty(), "{prog}: no candidates");
        for r in &per {
            if r.2 != first.2 {
                differ.push(format!(
                    "{prog}: seed {} gives {:?}, seed {} gives {:?}",
                    first.1, first.2, r.1, r.2
                ));
            }
        }
    }
    assert!(differ.is_empty(), "{}", differ.join("\n"));
}

/// The root-cause search is bounded by questions and Z3's work, not by the clock: four
/// copies run at once on two cores (each slowed down several times) find the same causes
/// as each other. Under the earlier bound ("as long again as the localization") the
/// loaded copies stopped after one cause or none.
#[test]
fn the_root_causes_do_not_depend_on_the_machines_load() {
    for prog in ["paper/lazy01_bad.c", "concbugs/transfer_two_locks.c"] {
        let path = format!("benchmarks/{prog}");
        let reports: Vec<serde_json::Value> = std::thread::scope(|s| {
            let runs: Vec<_> = (0..4)
                .map(|_| {
                    s.spawn(|| {
                        let out = seqloc()
                            .args(["localize", &path, "--format", "json", "--max-rounds", "4"])
                            .args(["--timeout", "300"])
                            .output()
                            .expect("the seqloc binary runs");
                        json(&out)["root_causes"].clone()
                    })
                })
                .collect();
            runs.into_iter()
                .map(|r| r.join().expect("the run's thread ends"))
                .collect()
        });
        let causes = |r: &serde_json::Value| {
            (
                r["causes"].to_string(),
                r["complete"].clone(),
                r["stopped"].clone(),
                r["queries"].clone(),
            )
        };
        let first = reports.first().map(causes).expect("four runs");
        assert!(
            reports[0]["causes"]
                .as_array()
                .is_some_and(|c| !c.is_empty()),
            "{prog}: no root cause: {}",
            reports[0]
        );
        for r in &reports {
            assert_eq!(causes(r), first, "{prog}: the runs differ");
        }
    }
}
