//! Mutation fuzzing of the front end: no input may make seqloc panic.
//!
//! Seeds are the repo's own programs, preprocessed once with `gcc -E`. Each case mutates the
//! user's part of one seed (token insertions, deletions, swaps, duplications, truncation, odd
//! literals) and runs what `seqloc parse` runs: tree-sitter's syntax check, lang-c, lowering
//! to the IR, the concurrency facts and the C printer. Errors are fine; panics are not.
//!
//! `SEQLOC_FUZZ_CASES` (default 3000) and `SEQLOC_FUZZ_SEED` choose the run; a failing input
//! is written to `target/fuzz-failures/` so it can be replayed with `seqloc parse`.

mod common;

use common::fuzz::{case_rng, mutate, run_config, save_failure, seeds};
use common::*;
use seqloc::ir::types::DataModel;

/// Everything `seqloc parse` does with a text, in process.
fn front_end(name: &str, header: &str, user: &str) {
    let _ = seqloc::frontend::syntax_check::check_text(name, user);
    let text = format!("{header}{user}");
    for dm in [DataModel::Lp64, DataModel::Ilp32] {
        if let Ok(prog) = seqloc::frontend::load_text(name, &text, dm) {
            let _ = seqloc::analysis::facts::compute(&prog);
            let _ = seqloc::ir::print::print_program(
                &prog,
                seqloc::dialect::Dialect::svcomp(),
                &Default::default(),
            );
        }
    }
}

#[test]
fn mutated_programs_never_panic_the_front_end() {
    if !have_gcc() {
        return;
    }
    let (cases, seed) = run_config(3000);
    let seeds = seeds();
    let aimed = std::env::var_os("SEQLOC_FUZZ_SEEDS").is_some();
    assert!(aimed || seeds.len() >= 40, "{} seeds", seeds.len());
    assert!(!seeds.is_empty(), "no seed matches SEQLOC_FUZZ_SEEDS");
    // The unmutated seeds must go through cleanly: otherwise the harness tests nothing.
    for (name, header, user) in &seeds {
        let text = format!("{header}{user}");
        assert!(
            seqloc::frontend::load_text(name, &text, DataModel::Lp64).is_ok(),
            "seed {name} does not lower"
        );
    }
    let ids: Vec<usize> = (0..cases).collect();
    let failures: Vec<String> = parallel(&ids, |&i| {
        let mut rng = case_rng(seed, i);
        let (name, header, user) = &seeds[rng.below(seeds.len())];
        let mutant = mutate(user, &mut rng);
        let ok = std::panic::catch_unwind(|| front_end(name, header, &mutant)).is_ok();
        if ok {
            return None;
        }
        Some(save_failure(
            "frontend",
            i,
            name,
            &format!("{header}{mutant}"),
        ))
    })
    .into_iter()
    .flatten()
    .collect();
    assert!(
        failures.is_empty(),
        "{} of {cases} mutants panicked the front end (inputs saved):\n{}",
        failures.len(),
        failures.join("\n")
    );
}
