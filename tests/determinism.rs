//! The ranking does not depend on which failing run the solver happens to return: the
//! counterexample is picked by a documented criterion (`checker::builtin::canonical`), so
//! the same program gives the same candidates in the same order under every Z3 seed.
//! Before the criterion, each program below changed its ranking with the seed (measured
//! with `scripts/rank_stability.py`; `lazy01_bad` lost its first-ranked faulty line).
//! What is still bounded by time is left out or kept small: the root-cause search (it
//! stops after as long again as the localization) and the criterion's own questions (a
//! second, or as long as the solves that found the failure; these programs need less).

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
            // The root-cause search stops after as long again as the localization took,
            // so whether it finishes depends on the machine's load: left out here.
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
