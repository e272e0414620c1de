//! The external checkers' traces, mapped by `checker::external::mapping`, replayed by the
//! engine: the adapters' end-to-end tests (they sit here, above both, so `checker/` never
//! imports the engine).

use crate::cex::ViolationKind;
use crate::checker::external::mapping::printed_tests::f01_trace;
use crate::checker::external::mapping::tests::{bounds, fixtures, prepared, read};
use crate::checker::external::mapping::{LineMap, MapError, to_counterexample};
use crate::checker::external::rounds::with_exclusions;
use crate::dialect::Dialect;
use crate::instrument::Target;
use crate::ir::print::{PrintOptions, print_program};
use crate::seq::schedule::Until;
use crate::trace::esbmc;

/// Every recorded ESBMC counterexample on the raw fixture programs maps to a schedule
/// that seqloc's sequentializer replays to the same kind of violation.
#[test]
fn recorded_counterexamples_replay() {
    let Some(dir) = fixtures() else { return };
    let mut checked = 0;
    for name in [
        "f03_loop",
        "f04_svcomp_nondet",
        "f05_condvar",
        "f07_calls",
        "f09_atomic",
        "f10_malloc",
    ] {
        for run in ["cex", "deadlock"] {
            let exit = read(&dir, &format!("{name}.{run}.exit"));
            if exit.trim() != "1" {
                continue;
            }
            let trace = esbmc::parse_text(
                &read(&dir, &format!("{name}.{run}.stdout")),
                &read(&dir, &format!("{name}.{run}.stderr")),
            )
            .expect("parses");
            let prep = prepared(&dir.join("programs").join(format!("{name}.c")));
            let mapped = to_counterexample(
                &trace,
                &prep.normalized,
                &prep.index,
                &LineMap::Raw,
                "esbmc",
            );
            if name == "f10_malloc" {
                // ESBMC 7.9 was run without --force-malloc-success: both pushes get NULL
                // from malloc and return, so the list stays empty. seqloc's malloc never
                // fails, so no schedule follows this path (with joins removed, one that
                // stopped both threads before their pushes used to "replay" while main
                // joined them). The mapping names the reason instead.
                assert!(
                    matches!(&mapped, Err(MapError::Unmodelled(why)) if why.contains("malloc returned NULL at f10_malloc.c:14")),
                    "{name}.{run}: {:?}",
                    mapped.map(|c| c.schedule.compact())
                );
                continue;
            }
            let cex = mapped.unwrap_or_else(|e| panic!("{name}.{run}: {e}"));
            let target = if cex.violation.kind == ViolationKind::Deadlock {
                Target::Deadlock
            } else {
                Target::Failure
            };
            let site = trace.failure_site().map(|l| l.line);
            assert_eq!(Some(cex.violation.line), site, "{name}.{run}");
            assert!(cex.violation.line > 0, "{name}.{run}: {:?}", cex.violation);
            // f05_condvar's trace wakes a consumer without a signal (ESBMC's
            // pthread_cond_wait returns spuriously); its wait is `if`-guarded, where
            // seqloc models spurious wake-ups too, so it replays like the others.
            let r = super::replay(&prep, &cex, target, 8, &bounds(), None);
            assert!(
                r.is_ok(),
                "{name}.{run}: {r:?}\nschedule: {}",
                cex.schedule.to_json()
            );
            checked += 1;
        }
    }
    assert!(checked >= 5, "only {checked} recordings checked");
}

#[test]
fn printed_lines_map_to_split_statements() {
    let Some(dir) = fixtures() else { return };
    let (prep, map, trace) = f01_trace(&dir, &[0, 1, 2, 3, 4, 5, 6, 7]);
    let cex =
        to_counterexample(&trace, &prep.normalized, &prep.index, &map, "esbmc").expect("maps");
    assert_eq!(cex.violation.line, 25);
    assert_eq!(
        cex.schedule
            .threads
            .iter()
            .map(|t| t.function.as_str())
            .collect::<Vec<_>>(),
        vec!["main", "t1", "t2"]
    );
    let r = super::replay(&prep, &cex, Target::Failure, 4, &bounds(), None);
    assert!(r.is_ok(), "{r:?}\n{}", cex.schedule.to_json());
}

/// ESBMC prints a join's argument binding when the call starts, before the joined
/// thread's steps: main's `pthread_join(a)` printed right after the creates. Read where
/// printed, main would pass the join while t1 still runs, which the replay (honouring
/// joins) refuses; placed where it took effect, after t1's last step, t1 ends first.
#[test]
fn a_join_printed_before_the_joined_thread_is_placed_after_it() {
    let Some(dir) = fixtures() else { return };
    let (prep, map, trace) = f01_trace(&dir, &[0, 1, 6, 2, 3, 4, 5, 7]);
    let cex =
        to_counterexample(&trace, &prep.normalized, &prep.index, &map, "esbmc").expect("maps");
    let blocks = &cex.schedule.blocks;
    let t1_last = blocks.iter().rposition(|b| b.thread == 1).expect("t1 runs");
    assert_eq!(blocks[t1_last].until, Until::Keyword("end".into()));
    let main_past_join = blocks
        .iter()
        .position(|b| b.thread == 0 && b.ran.iter().any(|l| l.ends_with(":23")))
        .expect("main joins");
    assert!(t1_last < main_past_join, "{}", cex.schedule.to_json());
    let r = super::replay(&prep, &cex, Target::Failure, 4, &bounds(), None);
    assert!(r.is_ok(), "{r:?}\n{}", cex.schedule.to_json());
}

/// The exclusions land right after `diag` gets its value, in the checker's spelling.
#[test]
fn exclusions_follow_the_diag_choice() {
    let Some(dir) = fixtures() else { return };
    let prep = prepared(&dir.join("programs/f01_race.c"));
    let sched = {
        let out = crate::engine::check::check(&prep, &Default::default()).expect("builtin check");
        out.counterexample.expect("f01 fails").schedule
    };
    let resolved = sched
        .resolve(&prep.normalized, &prep.index)
        .expect("resolves");
    let framework = crate::seq::Framework::builtin();
    let replayer = crate::engine::replay::Replayer {
        prep: &prep,
        framework: &framework,
        bounds: crate::engine::replay::ReplayBounds {
            unwind: 3,
            max_threads: 32,
            recursion: 3,
        },
        target: Target::Failure,
        deadline: None,
    };
    let d = crate::engine::diagnosis::prepare(&replayer, &resolved, 1).expect("prepares");
    let diag = d.model.diag_vars[0];
    let p = with_exclusions(&d.model.program, diag, &[8, 14]);
    let dialect = Dialect::load("esbmc", None).expect("dialect");
    let text = print_program(&p, &dialect, &PrintOptions::default()).text;
    let at = |needle: &str| {
        text.find(needle)
            .unwrap_or_else(|| panic!("{needle}:\n{text}"))
    };
    assert!(at("__ESBMC_assume(diag != 8)") > at("diag = "));
    assert!(at("__ESBMC_assume(diag != 14)") > at("__ESBMC_assume(diag != 8)"));
    assert!(
        !print_program(&d.model.program, &dialect, &PrintOptions::default())
            .text
            .contains("diag != 8")
    );
}
