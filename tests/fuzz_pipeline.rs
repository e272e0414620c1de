//! Mutation fuzzing of the whole `check`: no program may make seqloc panic.
//!
//! The front-end fuzzer (`fuzz_frontend`) stops at the IR. Here the mutants (mostly line
//! mutations that keep a program parseable: a line deleted, duplicated, swapped, a literal
//! or an operator replaced, a statement inserted) go further: every one that lowers
//! goes on as `seqloc check` takes it: normalization, the explicit-state explorer beside
//! the bounded search (sequentialization, symbolic execution, Z3), the replay of a failure
//! found, with small bounds (2 rounds, loops unwound twice, 4 threads) and a 2-second limit
//! per case. Errors, refusals and UNKNOWN are fine; a panic is not (nor a stack overflow,
//! which would end the test process: each case runs on a thread with the 256 MB stack
//! `seqloc` itself runs its pipeline on).
//!
//! `SEQLOC_FUZZ_CASES` (default 300), `SEQLOC_FUZZ_FIRST` (default 0) and `SEQLOC_FUZZ_SEED`
//! choose the run, `SEQLOC_FUZZ_SEEDS=word,...` narrows it to the seed files whose name
//! holds one of the words; a mutant that panicked is written to `target/fuzz-failures/pipeline-*.i`,
//! which `seqloc check` replays (`SEQLOC_FUZZ_KEEP=1` writes every mutant there first).

mod common;

use std::time::Duration;

use common::fuzz::{case_ids, case_rng, mutate, mutate_lines, run_config, save_failure, seeds};
use common::*;
use seqloc::engine::check::{CheckOptions, UserBounds, check_within};
use seqloc::ir::types::DataModel;
use seqloc::passes::Prepared;

/// What `seqloc check --rounds 2 --unwind 2 --threads 4 --timeout 2` does with a text, in
/// process. `true`: lowered and checked (whatever the answer); `false`: refused earlier.
fn pipeline(name: &str, text: &str) -> bool {
    let Ok(prog) = seqloc::frontend::load_text(name, text, DataModel::Lp64) else {
        return false;
    };
    let prep = Prepared::new(prog);
    let opts = CheckOptions {
        rounds: None,
        max_rounds: 2,
        unwind: None,
        max_unwind: 2,
        max_threads: 4,
        timeout: Some(Duration::from_secs(2)),
        ..CheckOptions::default()
    };
    let user = UserBounds {
        rounds: Some(2),
        threads: Some(4),
        timeout_given: true,
        memory_mb: None,
    };
    let _ = check_within(&prep, &opts, user);
    true
}

/// Runs one case on a big stack; `Err` with the panic's message.
fn guarded(name: &str, text: &str) -> Result<bool, String> {
    let (name, text) = (name.to_string(), text.to_string());
    let h = std::thread::Builder::new()
        .stack_size(256 << 20)
        .spawn(move || pipeline(&name, &text))
        .map_err(|e| format!("cannot start a thread: {e}"))?;
    h.join().map_err(|p| {
        p.downcast_ref::<String>()
            .cloned()
            .or_else(|| p.downcast_ref::<&str>().map(|s| s.to_string()))
            .unwrap_or_else(|| "a panic".into())
    })
}

#[test]
fn mutated_programs_never_panic_check() {
    if !have_gcc() {
        return;
    }
    let (_, seed) = run_config(300);
    let seeds = seeds();
    let aimed = std::env::var_os("SEQLOC_FUZZ_SEEDS").is_some();
    assert!(aimed || seeds.len() >= 40, "{} seeds", seeds.len());
    assert!(!seeds.is_empty(), "no seed matches SEQLOC_FUZZ_SEEDS");
    let ids = case_ids(300);
    let cases = ids.len();
    let results: Vec<Result<bool, String>> = parallel(&ids, |&i| {
        let mut rng = case_rng(seed, i);
        let (name, header, user) = &seeds[rng.below(seeds.len())];
        // Mostly line mutations, which keep a program parseable; some token ones too.
        let mutated = if rng.below(4) == 0 {
            mutate(user, &mut rng)
        } else {
            mutate_lines(user, &mut rng)
        };
        let mutant = format!("{header}{mutated}");
        eprintln!("case {i}: a mutant of {name}");
        if std::env::var_os("SEQLOC_FUZZ_KEEP").is_some() {
            save_failure("pipeline-kept", i, name, &mutant);
        }
        let t0 = std::time::Instant::now();
        let r = guarded(name, &mutant);
        eprintln!("case {i}: done in {} ms", t0.elapsed().as_millis());
        r.map_err(|why| {
            let saved = save_failure("pipeline", i, name, &mutant);
            format!("{saved}: {why}")
        })
    });
    let checked = results.iter().filter(|r| matches!(r, Ok(true))).count();
    let failures: Vec<&String> = results.iter().filter_map(|r| r.as_ref().err()).collect();
    eprintln!("{cases} mutants, {checked} lowered and checked");
    assert!(
        failures.is_empty(),
        "{} of {cases} mutants panicked `check` (inputs saved):\n{}",
        failures.len(),
        failures
            .iter()
            .map(|s| s.as_str())
            .collect::<Vec<_>>()
            .join("\n")
    );
    // Most mutants of a lowering seed still lower: otherwise the run tested the front end
    // only.
    assert!(
        checked * 4 >= cases,
        "only {checked} of {cases} mutants reached `check`"
    );
}
