//! The command line as a user meets it: help, version, the example of the README, exit
//! codes, the report formats and bad input.

use std::io::Write as _;
mod common;

use common::*;

#[test]
fn help_and_version() {
    let o = run(&["--help"]);
    assert!(o.status.success());
    let h = stdout(&o);
    for cmd in ["parse", "check", "sequentialize", "localize", "sweep"] {
        assert!(h.contains(cmd), "--help lists {cmd}:\n{h}");
    }
    for cmd in [
        "parse",
        "check",
        "sequentialize",
        "localize",
        "sweep",
        "instrument",
    ] {
        let o = run(&[cmd, "--help"]);
        assert!(o.status.success(), "{cmd} --help");
        assert!(stdout(&o).contains("Usage: seqloc"), "{cmd} --help");
    }
    let o = run(&["--version"]);
    assert!(o.status.success());
    assert!(stdout(&o).starts_with("seqloc "));
}

#[test]
fn readme_example_localizes_the_lost_update() {
    let o = run(&["localize", "examples/lost_update.c"]);
    assert_eq!(o.status.code(), Some(1), "{}", stderr(&o));
    let text = stdout(&o);
    assert!(text.contains("FAILURE"), "{text}");
    assert!(text.contains("lost_update.c:16"), "{text}");
    assert!(text.contains("Interleaving"), "{text}");

    let o = run(&["localize", "examples/lost_update.c", "--format", "json"]);
    assert_eq!(o.status.code(), Some(1));
    let j = json(&o);
    assert_eq!(j["schema"], "seqloc.localize/1");
    assert_eq!(j["verdict"], "failure");
    let lines = candidate_lines(&j);
    // The read and the write of the unprotected read-modify-write.
    assert!(lines.contains(&15) && lines.contains(&16), "{lines:?}");
    let c = &j["candidates"][0];
    for field in ["file", "line", "column", "threads", "reads", "writes"] {
        assert!(!c[field].is_null(), "candidate field {field}: {c}");
    }
    assert!(
        j["schedule"]["blocks"]
            .as_array()
            .is_some_and(|b| b.len() >= 3)
    );
}

#[test]
fn sarif_has_one_result_per_candidate_and_a_thread_flow_per_thread() {
    let o = run(&["localize", "examples/lost_update.c", "--format", "sarif"]);
    assert_eq!(o.status.code(), Some(1));
    let j = json(&o);
    assert_eq!(j["version"], "2.1.0");
    let results = j["runs"][0]["results"].as_array().expect("results");
    let o2 = run(&["localize", "examples/lost_update.c", "--format", "json"]);
    assert_eq!(results.len(), candidate_lines(&json(&o2)).len());
    let flows = &results[0]["codeFlows"][0]["threadFlows"];
    assert_eq!(flows.as_array().map(|f| f.len()), Some(3), "{flows}");
}

#[test]
fn check_reports_the_failure_with_a_replayable_schedule() {
    let o = run(&["check", "examples/lost_update.c", "--json"]);
    assert_eq!(o.status.code(), Some(1), "{}", stderr(&o));
    let j = json(&o);
    assert_eq!(j["verdict"], "failure");
    assert_eq!(j["property"]["line"], 28);
    // The schedule is the sequentializer's input: replaying it reproduces the failure.
    let dir = tempfile::tempdir().expect("tempdir");
    let sched = dir.path().join("s.json");
    std::fs::write(&sched, j["schedule"].to_string()).expect("write schedule");
    let sched = sched.to_string_lossy().into_owned();
    let o = run(&[
        "localize",
        "examples/lost_update.c",
        "--schedule",
        &sched,
        "--format",
        "json",
    ]);
    assert_eq!(o.status.code(), Some(1), "{}", stderr(&o));
    assert!(candidate_lines(&json(&o)).contains(&16));
}

#[test]
fn a_correct_program_has_no_candidates() {
    let o = run(&[
        "localize",
        "benchmarks/correct/account_ok.c",
        "--format",
        "json",
        "--max-rounds",
        "3",
        "--max-unwind",
        "3",
    ]);
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    let j = json(&o);
    assert_ne!(j["verdict"], "failure");
    assert!(candidate_lines(&j).is_empty());
    // The explorer beside the bounded search covered every execution: a proof, not a
    // bounded answer; `--no-explore` leaves only the bounded one.
    assert_eq!(j["exhaustive"], true, "{j}");
    let o = run(&[
        "localize",
        "benchmarks/correct/account_ok.c",
        "--format",
        "json",
        "--max-rounds",
        "3",
        "--max-unwind",
        "3",
        "--no-explore",
    ]);
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    assert_eq!(json(&o)["exhaustive"], false);
}

/// A random input keeps the explicit-state explorer out; the bounded search proves the
/// program once its rounds hold every interleaving, and says "within the bounds" below.
#[test]
fn rounds_that_hold_every_interleaving_prove_a_program_the_explorer_cannot() {
    let prog = "tests/programs/issue26/libc_rand_alternation_ok.c";
    let o = run(&["check", prog, "--format", "json", "-v"]);
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    let j = json(&o);
    assert_eq!(j["verdict"], "no-failure-within-bounds", "{j}");
    assert_eq!(j["exhaustive"], true, "{j}");
    let err = stderr(&o);
    assert!(err.contains("explicit-state search: inconclusive"), "{err}");
    assert!(err.contains("rounds hold every interleaving"), "{err}");
    // Four rounds hold some interleavings only: a bounded answer.
    let o = run(&["check", prog, "--format", "json", "--max-rounds", "4"]);
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    assert_eq!(json(&o)["exhaustive"], false);
    // Its twin without the lock fails, with the four rounds its interleaving needs.
    let o = run(&[
        "check",
        "tests/programs/issue26/libc_rand_alternation_fail.c",
        "--format",
        "json",
    ]);
    assert_eq!(o.status.code(), Some(1), "{}", stderr(&o));
}

/// `return pthread_create(..)` in a helper whose caller drops the value: the thread is
/// created (it was not, a wrong verdict either way), and the explorer executes the call as
/// its own statement instead of giving up on "a call inside an expression".
#[test]
fn a_thread_created_in_a_helpers_return_runs() {
    let o = run(&[
        "check",
        "tests/programs/issue26/return_create_ok.c",
        "--format",
        "json",
        "-v",
    ]);
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    assert_eq!(json(&o)["exhaustive"], true);
    let err = stderr(&o);
    assert!(err.contains("explicit-state search: safe"), "{err}");
    let o = run(&[
        "check",
        "tests/programs/issue26/return_create_fail.c",
        "--format",
        "json",
    ]);
    assert_eq!(o.status.code(), Some(1), "{}", stderr(&o));
    assert_eq!(json(&o)["verdict"], "failure");
}

/// A value fault every interleaving shows has no cause to rank it by: the line where a
/// one-token change makes the whole program pass (`+ 5` for `+ 4`, proved by the
/// explorer on the mutant) comes before the shared write that only carries the value,
/// and says so; `--no-mutants` leaves Griesmeyer's order, the shared write first. The
/// correct twin has nothing to rank.
#[test]
fn a_line_a_one_token_change_repairs_ranks_before_the_values_it_feeds() {
    let f = "tests/programs/mutation/shares_constant_fail.c";
    let o = run(&["localize", f, "--format", "json"]);
    assert_eq!(o.status.code(), Some(1), "{}", stderr(&o));
    let j = json(&o);
    let first = &j["candidates"][0];
    assert_eq!(first["line"], 12, "{j}");
    assert_eq!(first["fixed_by"], "`5` for `4` at column 25", "{j}");
    let others = j["candidates"].as_array().map_or(0, |c| {
        c.iter()
            .skip(1)
            .filter(|c| !c["fixed_by"].is_null())
            .count()
    });
    assert_eq!(
        others, 0,
        "only the share's constant fixes the program: {j}"
    );
    let o = run(&["localize", f, "--format", "json", "--no-mutants"]);
    assert_eq!(o.status.code(), Some(1), "{}", stderr(&o));
    let j = json(&o);
    assert_eq!(j["candidates"][0]["line"], 14, "{j}");
    assert!(j["candidates"][0]["fixed_by"].is_null(), "{j}");
    let o = run(&["check", "tests/programs/mutation/shares_constant_ok.c"]);
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
}

/// A fault that reads past an array makes every other line's mutant unanswerable by the
/// explorer (an access outside its object): the faulty line's own is still tried, and
/// repairs. A value change that keeps the read outside the array is no candidate.
#[test]
fn a_line_whose_mutants_the_explorer_cannot_answer_does_not_stop_the_next() {
    let first = |f: &str, mutants: bool| {
        let mut args = vec!["localize", f, "--format", "json"];
        if !mutants {
            args.push("--no-mutants");
        }
        let o = run(&args);
        assert_eq!(o.status.code(), Some(1), "{}", stderr(&o));
        let j = json(&o);
        (j["candidates"][0]["line"].as_u64(), j)
    };
    let f = "tests/programs/mutation/loop_past_array_fail.c";
    let (got, j) = first(f, true);
    assert_eq!(got, Some(13), "{j}");
    assert!(!j["candidates"][0]["fixed_by"].is_null(), "{j}");
    // Without the mutants the diagnosis model still names only the loop: every other
    // line's change leaves the read past the array in place, which is no repair.
    let (got, j) = first(f, false);
    assert_eq!(got, Some(13), "{j}");
    assert!(j["candidates"][0]["fixed_by"].is_null(), "{j}");
    let lines: Vec<u64> = j["candidates"]
        .as_array()
        .into_iter()
        .flatten()
        .filter_map(|c| c["line"].as_u64())
        .collect();
    assert!(!lines.contains(&14) && !lines.contains(&16), "{j}");
    let o = run(&["check", "tests/programs/mutation/loop_past_array_ok.c"]);
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
}

/// A bounded phase the explorer's proof stopped says so; "time limit" would tell a
/// script the run hit its limit when it did not.
#[test]
fn a_phase_stopped_by_the_explorers_proof_is_not_a_time_limit() {
    let o = run(&[
        "check",
        "benchmarks/seeds/conn_pool_counts_split_ok.c",
        "--format",
        "json",
        "--timeout",
        "600",
    ]);
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    let j = json(&o);
    assert_eq!(j["exhaustive"], true, "{j}");
    for p in j["phases"].as_array().into_iter().flatten() {
        assert_ne!(p["result"], "time limit", "{j}");
    }
}

#[test]
fn a_program_with_nothing_reachable_to_check_is_proved_without_a_search() {
    let prog = "benchmarks/correct/unchecked_workers_ok.c";
    let o = run(&["check", prog, "--property", "unreach-call", "--json"]);
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    let j = json(&o);
    assert_eq!(j["verdict"], "no-failure-within-bounds");
    assert_eq!(j["exhaustive"], true, "{j}");
    assert!(
        j["reason"]
            .as_str()
            .is_some_and(|r| r.contains("no assertion or error call is reachable")),
        "{j}"
    );
    // With the check compiled in, the 40 racing workers must be searched.
    {
        let (define, property) = ("CHECK_TOTAL", "unreach-call");
        let o = run(&[
            "check",
            prog,
            "-D",
            define,
            "--property",
            property,
            "--timeout",
            "2",
            "--json",
        ]);
        let j = json(&o);
        assert!(
            !j["reason"]
                .as_str()
                .is_some_and(|r| r.contains("reachable")),
            "{define} {property}: {j}"
        );
        assert_eq!(j["exhaustive"], false, "{define} {property}: {j}");
    }
    // The deadlock property sees the joins; they join the workers main created, so no
    // deadlock is shown without a search too.
    let o = run(&[
        "check",
        prog,
        "-D",
        "UNUSED",
        "--property",
        "all",
        "--timeout",
        "2",
        "--json",
    ]);
    let j = json(&o);
    assert_eq!(j["exhaustive"], true, "{j}");
    assert!(
        j["reason"]
            .as_str()
            .is_some_and(|r| r.contains("no deadlock")),
        "{j}"
    );
}

#[test]
fn a_counter_bound_that_holds_for_any_number_of_threads_is_proved_by_counting() {
    let prog = "benchmarks/correct/ticket_clerks_ok.c";
    let o = run(&["check", prog, "--property", "unreach-call", "--json"]);
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    let j = json(&o);
    assert_eq!(j["verdict"], "no-failure-within-bounds");
    assert_eq!(j["exhaustive"], true, "{j}");
    let reason = j["reason"].as_str().unwrap_or_default();
    assert!(
        reason.contains("by counting") && reason.contains("3·clerks"),
        "{j}"
    );
    // One ticket short in the bound, or an increment from a value not read from the
    // counter: the argument must not claim either, and the search finds the failure.
    let src = std::fs::read_to_string(prog).expect("benchmark source");
    let dir = tempfile::tempdir().expect("tempdir");
    for (from, to) in [
        ("issued <= TICKETS_EACH", "issued < TICKETS_EACH"),
        ("int seen = issued;", "int seen = issued + 1;"),
    ] {
        assert!(src.contains(from), "{from}");
        let bad = dir.path().join("ticket_clerks_bad.c");
        std::fs::write(&bad, src.replace(from, to)).expect("write");
        let o = run(&[
            "check",
            bad.to_str().expect("utf-8 path"),
            "--property",
            "unreach-call",
            "--json",
        ]);
        let j = json(&o);
        assert_eq!(o.status.code(), Some(1), "{to}: {j}");
        assert_eq!(j["verdict"], "failure", "{to}: {j}");
    }
}

#[test]
fn a_schedule_that_does_not_fit_the_program_is_bad_input() {
    let dir = tempfile::tempdir().expect("tempdir");
    let sched = dir.path().join("bad.json");
    std::fs::write(
        &sched,
        r#"{"schema":"seqloc.schedule/1","threads":[{"id":0,"function":"main"},{"id":1,"function":"teller"}],
            "blocks":[{"thread":1,"until":{"before":"lost_update.c:99:1","occurrence":1}}]}"#,
    )
    .expect("write");
    let s = sched.to_string_lossy().into_owned();
    let o = run(&["localize", "examples/lost_update.c", "--schedule", &s]);
    assert_eq!(o.status.code(), Some(2), "{}", stderr(&o));
    assert!(stdout(&o).trim().is_empty() || !stdout(&o).contains("candidates"));
    let o = run(&["localize", "examples/no_such_file.c"]);
    assert_eq!(o.status.code(), Some(2));
    assert!(stderr(&o).contains("no_such_file.c"));
}

#[test]
fn syntax_errors_point_at_the_line() {
    let dir = tempfile::tempdir().expect("tempdir");
    let f = dir.path().join("broken.c");
    std::fs::write(&f, "int main(void) {\n  int x = ;\n  return 0;\n}\n").expect("write");
    let o = run(&["check", &f.to_string_lossy()]);
    assert_eq!(o.status.code(), Some(2));
    assert!(stderr(&o).contains("broken.c:2"), "{}", stderr(&o));
}

#[test]
fn emitted_programs_compile_and_the_sequential_one_replays_the_failure() {
    if !have_gcc() {
        return;
    }
    let dir = tempfile::tempdir().expect("tempdir");
    let seq = dir.path().join("seq.c");
    let ins = dir.path().join("diag.c");
    let o = run(&[
        "localize",
        "examples/lost_update.c",
        "--emit-sequential",
        &seq.to_string_lossy(),
        "--emit-instrumented",
        &ins.to_string_lossy(),
    ]);
    assert_eq!(o.status.code(), Some(1), "{}", stderr(&o));
    for f in [&seq, &ins] {
        let text = std::fs::read_to_string(f).expect("emitted");
        assert!(
            text.contains("seqloc check"),
            "re-check command in the header"
        );
        let c = std::process::Command::new("gcc")
            .args(["-fsyntax-only", "-w"])
            .arg(f)
            .output()
            .expect("gcc");
        assert!(c.status.success(), "{}", String::from_utf8_lossy(&c.stderr));
    }
    // The instrumented program is a program a checker runs on (the re-check command of
    // its header). Re-checking it with the built-in checker takes about a minute (its
    // symbolic encoding unrolls the framework loop with every block inside each
    // iteration), too slow for this suite: the command is checked to bound that loop.
    let text = std::fs::read_to_string(&ins).expect("emitted");
    let unwind = text
        .lines()
        .find_map(|l| l.split("--unwind ").nth(1))
        .and_then(|n| n.trim().parse::<u32>().ok())
        .expect("the re-check command names the unwinding");
    assert!(unwind >= 2, "{unwind}");
}

/// `--templates DIR` replaces the framework skeleton: a skeleton that runs only the first
/// block of the schedule no longer reaches the failure when the program runs natively,
/// while the compiled-in one does. A broken skeleton is bad input, named by its line.
#[test]
fn the_framework_skeleton_can_be_replaced_with_templates_dir() {
    if !have_gcc() {
        return;
    }
    let dir = tempfile::tempdir().expect("tempdir");
    let d = dir.path();
    let o = run(&["check", "examples/lost_update.c", "--json"]);
    assert_eq!(o.status.code(), Some(1), "{}", stderr(&o));
    let sched = d.join("s.json");
    std::fs::write(&sched, json(&o)["schedule"].to_string()).expect("write schedule");
    let builtin = std::fs::read_to_string(root().join("templates/framework.c")).expect("skeleton");
    assert!(builtin.contains("while (order_index < {BLOCKS})"));
    let tdir = d.join("templates");
    std::fs::create_dir(&tdir).expect("mkdir");
    let schedule = json(&o)["schedule"].clone();
    let program = root().join("examples/lost_update.c");
    let builtin_run = common::replay::replay(&program, &schedule, d, "builtin", &[]);
    assert_eq!(
        builtin_run.code,
        Some(1),
        "the compiled-in skeleton replays the failure"
    );
    std::fs::write(
        tdir.join("framework.c"),
        builtin.replace("while (order_index < {BLOCKS})", "while (order_index < 1)"),
    )
    .expect("write skeleton");
    let t = tdir.to_string_lossy().into_owned();
    let first = common::replay::replay(&program, &schedule, d, "first_block", &["--templates", &t]);
    assert_eq!(first.code, Some(0), "only main's first block ran");
    let text = std::fs::read_to_string(d.join("first_block.c")).expect("output");
    assert!(text.contains("while (order_index < 1)"), "{text}");

    // Broken skeletons are reported with their line, exit 2.
    let s = sched.to_string_lossy().into_owned();
    for (text, expect) in [
        (
            "int main(void)\n{\n//@if concurrent\n//@end\n  return 0;\n}\n",
            ":3: unknown flag `concurrent`",
        ),
        (
            "int main(void)\n{\n  counter = 1;\n  return 0;\n}\n",
            ":3: column 3: use of undeclared identifier `counter`",
        ),
        (
            "extern int counter;\nint main(void)\n{\n  counter = 1;\n  return 0;\n}\n",
            "`counter` is not one of the sequentializer's variables",
        ),
        (
            "int main(void)\n{\n  return 0\n}\n",
            "framework.c:3: column 11: missing `;`",
        ),
    ] {
        std::fs::write(tdir.join("framework.c"), text).expect("write skeleton");
        let o = run(&[
            "sequentialize",
            "examples/lost_update.c",
            "--schedule",
            &s,
            "--templates",
            &t,
        ]);
        assert_eq!(o.status.code(), Some(2), "{}", stderr(&o));
        assert!(stderr(&o).contains(expect), "{expect}: {}", stderr(&o));
    }
}

/// A join loop that stops one thread short (inside a helper, a `while`, results in struct
/// fields): the last worker never runs in the failing interleaving, and the report names
/// the join loop, which joined three of the four threads created at one statement.
#[test]
fn a_missing_join_names_the_join_loop() {
    let o = run(&[
        "localize",
        "tests/programs/localize/missing_join.c",
        "--format",
        "json",
    ]);
    assert_eq!(o.status.code(), Some(1), "{}", stderr(&o));
    let j = json(&o);
    let found = j["candidates"]
        .as_array()
        .expect("candidates")
        .iter()
        .find(|c| c["line"] == 26);
    let c = found.unwrap_or_else(|| panic!("no candidate on line 26: {j}"));
    assert_eq!(c["kind"], "ordering");
    let hint = c["hint"].as_str().unwrap_or_default();
    assert!(
        hint.contains("joins 3 of the 4 threads created at line 37"),
        "{hint}"
    );
}

/// A thread that runs from its entry to its exit in one block (no point of the sequential
/// program names one of its statements) is still in the failing schedule, so the
/// schedule replays and the localization runs (it was "the schedule cannot be replayed").
#[test]
fn a_thread_run_in_one_go_keeps_its_block() {
    let o = run(&[
        "localize",
        "tests/programs/repair/unjoined_result.c",
        "--format",
        "json",
    ]);
    assert_eq!(o.status.code(), Some(1), "{}", stderr(&o));
    let j = json(&o);
    let blocks = j["schedule"]["blocks"]
        .as_array()
        .cloned()
        .unwrap_or_default();
    assert!(
        blocks
            .iter()
            .any(|b| b["thread"] == 2 && b["until"] == "end"),
        "{}",
        j["schedule"]
    );
    assert!(
        j["schedule"]["threads"]
            .as_array()
            .is_some_and(|t| t.iter().any(|t| t["function"] == "logger")),
        "{}",
        j["schedule"]
    );
    assert!(
        j["candidates"]
            .as_array()
            .is_some_and(|c| c.iter().any(|c| c["line"] == 36)),
        "{j}"
    );
}

/// A changed pointer that only avoids the failure by reading garbage through NULL is no
/// repair: the localizer discards executions that load through a pointer into no object.
/// (Here a worker's `t = arg` set to NULL made its reads of `t->id` unconstrained.)
#[test]
fn no_candidate_repairs_by_reading_through_null() {
    let o = run(&[
        "localize",
        "benchmarks/stress/task_arg_reuse.c",
        "--format",
        "json",
    ]);
    assert_eq!(o.status.code(), Some(1), "{}", stderr(&o));
    let j = json(&o);
    for c in j["candidates"].as_array().expect("candidates") {
        let hint = c["hint"].as_str().unwrap_or_default();
        assert!(!hint.contains("set to NULL"), "{hint}");
    }
    assert!(candidate_lines(&j).contains(&45), "{j}");
}

#[test]
fn a_failure_needing_many_threads_but_few_switches_is_found_by_a_wide_phase() {
    // Twelve workers each run to their end between two switches: the failure needs loops
    // unwound 12 times but only 2 rounds. The diagonal phases (rounds and unwinding grown
    // together) would reach unwind 16 only with 6 rounds; a 2-round phase of deeper loops
    // is slotted in first because it costs less.
    let dir = tempfile::tempdir().expect("tempdir");
    let prog = dir.path().join("many.c");
    std::fs::write(
        &prog,
        "#include <pthread.h>\n\
         extern unsigned __VERIFIER_nondet_uint(void);\n\
         extern void reach_error(void);\n\
         int x; unsigned n;\n\
         void *check(void *a) { if (x >= 12) reach_error(); return 0; }\n\
         void *work(void *a) { int t = x; x = t + 1; return 0; }\n\
         int main(void) {\n\
           pthread_t c, w; unsigned i;\n\
           n = __VERIFIER_nondet_uint();\n\
           if (n < 12 || n > 14) return 0;\n\
           pthread_create(&c, 0, check, 0);\n\
           for (i = 0; i < n; i++) pthread_create(&w, 0, work, 0);\n\
           return 0;\n\
         }\n",
    )
    .expect("write program");
    let prog = prog.to_string_lossy().into_owned();
    let o = run(&["check", &prog, "--json", "--no-explore", "--timeout", "120"]);
    assert_eq!(o.status.code(), Some(1), "{}", stderr(&o));
    let j = json(&o);
    assert_eq!(j["verdict"], "failure");
    assert_eq!(j["bounds"]["rounds"], 2, "{}", j["phases"]);
    assert!(j["bounds"]["unwind"].as_u64().unwrap_or(0) >= 12);
}

/// README's exit-code table, row by row, as `seqloc::exit::CODES` gives it, and `--help`
/// prints every code.
#[test]
fn the_readme_exit_code_table_is_the_code() {
    let readme = std::fs::read_to_string(root().join("README.md")).expect("README.md");
    let rows: Vec<(u8, String)> = readme
        .lines()
        .skip_while(|l| !l.starts_with("### Exit codes"))
        .skip_while(|l| !l.starts_with("| code |"))
        .skip(2)
        .take_while(|l| l.starts_with('|'))
        .filter_map(|l| {
            let cells: Vec<&str> = l.trim_matches('|').splitn(2, '|').collect();
            Some((
                cells[0].trim().parse().ok()?,
                cells.get(1)?.trim().to_string(),
            ))
        })
        .collect();
    let code: Vec<(u8, String)> = seqloc::exit::CODES
        .iter()
        .map(|(c, m)| (*c, m.to_string()))
        .collect();
    assert_eq!(rows, code, "README.md's table under `### Exit codes`");
    let help = stdout(&run(&["--help"]));
    for (c, m) in seqloc::exit::CODES {
        let start: String = m.replace('`', "").chars().take(40).collect();
        assert!(
            help.contains(&format!("{c}  {start}")),
            "--help: {c}:\n{help}"
        );
    }
}

/// No answer is never exit 0: a loop bound reached, too few thread slots.
#[test]
fn unknown_is_never_exit_zero() {
    let o = run(&[
        "check",
        "tests/programs/edges/unbounded_loop.c",
        "--max-unwind",
        "4",
        "--max-rounds",
        "3",
        "--json",
    ]);
    let j = json(&o);
    assert_eq!(j["verdict"], "unknown", "{j}");
    assert_eq!(o.status.code(), Some(3), "{j}");
    assert!(j["limit"].is_null(), "a loop bound is not a limit: {j}");
    let o = run(&[
        "check",
        "tests/programs/edges/unbounded_loop.c",
        "--max-unwind",
        "4",
        "--max-rounds",
        "3",
    ]);
    assert_eq!(o.status.code(), Some(3));
    assert!(stdout(&o).contains("UNKNOWN"), "{}", stdout(&o));

    let o = run(&[
        "check",
        "--no-explore",
        "--threads",
        "2",
        "examples/lost_update.c",
        "--json",
    ]);
    let j = json(&o);
    assert_eq!(j["verdict"], "unknown", "{j}");
    assert_eq!(o.status.code(), Some(3), "{j}");
}

/// A time limit: exit 3, `limit: "time"`, and the message names the limit's value. The
/// localization may be cut short before or after its first candidates; either way the
/// exit code says no complete answer.
#[test]
fn a_time_limit_exits_3_and_names_its_value() {
    let o = run(&[
        "check",
        "tests/programs/edges/unbounded_loop.c",
        "--no-explore",
        "--max-unwind",
        "100000",
        "--timeout",
        "1.5",
        "--json",
    ]);
    let j = json(&o);
    assert_eq!(o.status.code(), Some(3), "{j}");
    assert_eq!(j["limit"], "time", "{j}");
    assert!(
        j["reason"]
            .as_str()
            .is_some_and(|r| r.contains("time limit of 1.5 s")),
        "{j}"
    );
    for t in ["0.3", "1", "3"] {
        let o = run(&[
            "localize",
            "benchmarks/concbugs/stats_multivar_race.c",
            "--timeout",
            t,
            "--format",
            "json",
        ]);
        match o.status.code() {
            Some(1) => {
                let j = json(&o);
                assert!(j["limit"].is_null(), "{j}");
                assert_eq!(j["complete"], true, "{j}");
            }
            Some(3) => {
                let out = stdout(&o);
                if !out.trim().is_empty() {
                    let j = json(&o);
                    assert!(!j["limit"].is_null(), "{j}");
                }
            }
            c => panic!("--timeout {t}: exit {c:?}: {}", stderr(&o)),
        }
    }
}

/// A loop with no bound the search can reach: UNKNOWN by default, NO FAILURE within the
/// bounds (exit 0) when the bound is taken as an assumption, with the cut loop named; a
/// failure within the bound is found either way (`--unwind N` runs the body N - 1 times,
/// as ESBMC's and CBMC's do: `x < 6` fails at 4, not at 3).
#[test]
fn a_loop_bound_taken_as_an_assumption_gives_a_bounded_answer() {
    let verdict = |prog: &str, unwind: &str, assume: bool| {
        let path = format!("tests/programs/bounds/{prog}.c");
        let mut args = vec!["check", &path, "--unwind", unwind, "--timeout", "120"];
        if assume {
            args.push("--no-unwinding-assertions");
        }
        args.extend(["--format", "json"]);
        let o = run(&args);
        let j = json(&o);
        (o.status.code(), j)
    };
    let (code, j) = verdict("nondet_loop_even", "2", false);
    assert_eq!(code, Some(3), "{j}");
    let (code, j) = verdict("nondet_loop_even", "2", true);
    assert_eq!(code, Some(0), "{j}");
    assert_eq!(j["verdict"], "no-failure-within-bounds", "{j}");
    assert_eq!(j["loops_complete"], false, "{j}");
    assert!(
        j["unwinding_reached"]
            .to_string()
            .contains("nondet_loop_even.c:11"),
        "{j}"
    );
    let reason = j["reason"].as_str().unwrap_or_default();
    assert!(reason.contains("taken as assumptions"), "{j}");
    let (code, j) = verdict("nondet_loop_small", "3", true);
    assert_eq!(code, Some(0), "{j}");
    let (code, j) = verdict("nondet_loop_small", "4", true);
    assert_eq!(code, Some(1), "{j}");
    assert_eq!(j["property"]["line"], 20, "{j}");
}

/// Recursion is inlined `--recursion` calls deep, and at least as deep as loops are unwound
/// (as CBMC's `--unwind`); a run that goes deeper is cut off as by a loop bound (a bound
/// reached: no proof, exit 3, where named), never refused.
#[test]
fn recursion_is_checked_to_its_bound() {
    let prog = "tests/programs/edges/recursive_sum.c";
    let o = run(&["check", prog, "--format", "json"]);
    let j = json(&o);
    assert_eq!(o.status.code(), Some(1), "{j}");
    assert_eq!(j["property"]["line"], 12, "{j}");
    let o = run(&[
        "check",
        prog,
        "--recursion",
        "2",
        "--unwind",
        "2",
        "--no-explore",
        "--property",
        "unreach-call",
        "--format",
        "json",
    ]);
    let j = json(&o);
    assert_eq!(o.status.code(), Some(3), "{j}");
    let reached = j["unwinding_reached"].to_string();
    assert!(reached.contains("recursive_sum.c:5"), "{j}");
    let reason = j["reason"].as_str().unwrap_or_default();
    assert!(reason.contains("recursion depth"), "{j}");
}

/// `--context-switches K` bounds switches, not only rounds: no counterexample has more
/// than K (the lost update of the example needs 4), and below what the failure needs the
/// answer is UNKNOWN, never a failure beyond the bound.
#[test]
fn context_switches_bound_the_counterexample() {
    let switches = |j: &serde_json::Value| {
        let blocks = j["schedule"]["blocks"]
            .as_array()
            .cloned()
            .unwrap_or_default();
        blocks
            .windows(2)
            .filter(|w| w[0]["thread"] != w[1]["thread"])
            .count()
    };
    for (k, code) in [(3, 3), (4, 1), (6, 1)] {
        let o = run(&[
            "check",
            "examples/lost_update.c",
            "--context-switches",
            &k.to_string(),
            "--format",
            "json",
        ]);
        let j = json(&o);
        assert_eq!(o.status.code(), Some(code), "K={k}: {j}");
        if code == 1 {
            assert!(switches(&j) <= k, "K={k}: {j}");
        }
    }
}

/// A thread bound the user gave is no loop bound: the search does not deepen the loops
/// against it, nor go past `--max-rounds`, and says which bound cut the runs off.
#[test]
fn a_thread_bound_is_not_a_loop_bound_and_max_rounds_holds() {
    let o = run(&[
        "check",
        "examples/lost_update.c",
        "--threads",
        "2",
        "--format",
        "json",
    ]);
    let j = json(&o);
    assert_eq!(o.status.code(), Some(3), "{j}");
    let phases = j["phases"].as_array().cloned().unwrap_or_default();
    assert!(!phases.is_empty(), "{j}");
    for p in &phases {
        assert!(
            p["bounds"]["rounds"].as_u64().is_some_and(|r| r <= 16),
            "{p}"
        );
        assert_eq!(p["bounds"]["unwind"], 2, "{p}");
        let r = p["result"].as_str().unwrap_or_default();
        assert!(!r.contains("loop bound reached"), "{p}");
        assert!(r.contains("thread"), "{p}");
    }
}

/// Wherever a time limit falls in a localization — in the search, in the diagnosis model's
/// encoding, in the candidate loop, in the interleaving analyses — the answer says so: an
/// exit 1 is the whole list (the same as with no limit), an exit 3 is a localize document
/// with the limit and its value, the failure kept once found, never `complete`.
#[test]
fn a_localization_cut_by_the_time_limit_is_never_complete() {
    let prog = "tests/programs/edges/tallies_three_workers.c";
    let full = run(&["localize", prog, "--format", "json"]);
    assert_eq!(full.status.code(), Some(1), "{}", stderr(&full));
    let mut all = candidate_lines(&json(&full));
    all.sort();
    for t in ["0.5", "1", "2", "3", "4", "5"] {
        let o = run(&["localize", prog, "--timeout", t, "--format", "json"]);
        let j = json(&o);
        assert_eq!(j["schema"], "seqloc.localize/1", "--timeout {t}: {j}");
        match o.status.code() {
            Some(1) => {
                assert!(j["limit"].is_null(), "--timeout {t}: {j}");
                assert_eq!(j["complete"], true, "--timeout {t}: {j}");
                let mut lines = candidate_lines(&j);
                lines.sort();
                assert_eq!(lines, all, "--timeout {t}: {j}");
            }
            Some(3) => {
                assert_eq!(j["limit"], "time", "--timeout {t}: {j}");
                assert_eq!(j["complete"], false, "--timeout {t}: {j}");
                let said = format!("time limit of {t} s");
                let words = match j["verdict"].as_str() {
                    Some("failure") => j["stopped"].as_str(),
                    _ => j["reason"].as_str(),
                };
                assert!(
                    words.is_some_and(|w| w.contains(&said)),
                    "--timeout {t}: {j}"
                );
            }
            c => panic!("--timeout {t}: exit {c:?}: {}", stderr(&o)),
        }
    }
    let o = run(&["localize", prog, "--timeout", "1", "--format", "sarif"]);
    assert_eq!(o.status.code(), Some(3), "{}", stderr(&o));
    let j = json(&o);
    let inv = &j["runs"][0]["invocations"][0];
    assert_eq!(inv["properties"]["limit"], "time", "{inv}");
    assert_eq!(inv["properties"]["complete"], false, "{inv}");
    let notes = inv["toolExecutionNotifications"]
        .as_array()
        .map_or(0, Vec::len);
    assert!(notes > 0, "{inv}");
}

/// Every `--format` of `check` and `localize`, on a failure, on no answer and on bad input:
/// stdout is always a document of that format, and the exit code the table's.
#[test]
fn every_format_of_every_command_on_every_outcome() {
    let dir = tempfile::tempdir().expect("tempdir");
    let bad = dir.path().join("bad.c");
    std::fs::write(&bad, "int main( { return 0; }\n").expect("write");
    let bad = bad.to_string_lossy().into_owned();
    let unknown = [
        "tests/programs/edges/unbounded_loop.c",
        "--max-unwind",
        "2",
        "--max-rounds",
        "2",
    ];
    for cmd in ["check", "localize"] {
        for format in ["json", "sarif"] {
            let sarif = format == "sarif";
            let o = run(&[cmd, "examples/lost_update.c", "--format", format]);
            assert_eq!(o.status.code(), Some(1), "{cmd} {format}: {}", stderr(&o));
            let j = json(&o);
            if sarif {
                assert_eq!(j["version"], "2.1.0", "{j}");
                let results = j["runs"][0]["results"].as_array().expect("results");
                assert!(!results.is_empty(), "{cmd}: {j}");
                assert!(!results[0]["codeFlows"].is_null(), "{cmd}: {j}");
            } else {
                assert_eq!(j["verdict"], "failure");
            }

            let mut args = vec![cmd];
            args.extend_from_slice(&unknown);
            args.extend_from_slice(&["--format", format]);
            let o = run(&args);
            assert_eq!(o.status.code(), Some(3), "{cmd} {format}: {}", stderr(&o));
            let j = json(&o);
            if sarif {
                let inv = &j["runs"][0]["invocations"][0];
                assert_eq!(inv["properties"]["verdict"], "unknown", "{j}");
                assert_eq!(j["runs"][0]["results"].as_array().map(Vec::len), Some(0));
            } else {
                assert_eq!(j["verdict"], "unknown", "{j}");
            }

            for input in [bad.as_str(), "no/such/file.c"] {
                let o = run(&[cmd, input, "--format", format]);
                assert_eq!(o.status.code(), Some(2), "{cmd} {format} {input}");
                assert!(stderr(&o).contains("error"), "{}", stderr(&o));
                let j = json(&o);
                if sarif {
                    let inv = &j["runs"][0]["invocations"][0];
                    assert_eq!(inv["executionSuccessful"], false, "{j}");
                    assert_eq!(inv["exitCode"], 2, "{j}");
                    assert!(inv["toolExecutionNotifications"][0]["message"]["text"].is_string());
                } else {
                    assert_eq!(j["schema"], "seqloc.error/1", "{j}");
                    assert_eq!(j["exit_code"], 2, "{j}");
                    assert!(j["error"].as_str().is_some_and(|e| !e.is_empty()), "{j}");
                }
            }
        }
        // Two formats asked at once is refused, not decided silently.
        let o = run(&[cmd, "examples/lost_update.c", "--json", "--format", "sarif"]);
        assert_eq!(o.status.code(), Some(2));
        assert!(stderr(&o).contains("cannot be used with"), "{}", stderr(&o));
    }
    // A syntax error's location is in the document, not only on stderr.
    let o = run(&["check", &bad, "--json"]);
    let j = json(&o);
    assert_eq!(j["locations"][0]["line"], 1, "{j}");
}

/// Nonsense bounds are refused with a message, before any work.
#[test]
fn nonsense_bounds_are_refused() {
    for (cmd, opt, v) in [
        ("check", "--rounds", "0"),
        ("check", "--max-rounds", "0"),
        ("check", "--unwind", "0"),
        ("check", "--max-unwind", "0"),
        ("check", "--threads", "0"),
        ("check", "--timeout", "0"),
        ("check", "--timeout", "nan"),
        // Past the clock's range: a deadline that far would overflow it.
        ("check", "--timeout", "1e30"),
        ("localize", "--timeout", "18446744073709551615"),
        ("sweep", "--timeout", "1e30"),
        ("check", "--memory-limit", "0"),
        ("localize", "--faults", "0"),
        ("localize", "--max-candidates", "0"),
        ("instrument", "--faults", "0"),
    ] {
        let o = run(&[cmd, "examples/lost_update.c", opt, v]);
        assert_eq!(o.status.code(), Some(2), "{cmd} {opt} {v}");
        assert!(stderr(&o).contains(opt), "{cmd} {opt} {v}: {}", stderr(&o));
        // There is no running without a time limit: the message must not offer one.
        assert!(
            !stderr(&o).contains("no limit"),
            "{cmd} {opt} {v}: {}",
            stderr(&o)
        );
    }
    let o = run(&["check", "examples/lost_update.c", "--timeout", "1e30"]);
    assert!(
        stderr(&o).contains("every run has a time limit"),
        "{}",
        stderr(&o)
    );
}

/// `--max-candidates N` lists at most N (the first found, ranked among themselves) and says
/// it stopped.
#[test]
fn max_candidates_means_at_most() {
    let o = run(&[
        "localize",
        "examples/lost_update.c",
        "--max-candidates",
        "1",
        "--format",
        "json",
    ]);
    assert_eq!(o.status.code(), Some(1), "{}", stderr(&o));
    let j = json(&o);
    assert_eq!(candidate_lines(&j).len(), 1, "{j}");
    assert!(
        j["stopped"]
            .as_str()
            .is_some_and(|s| s.contains("--max-candidates")),
        "{j}"
    );
}

/// The explorer's failure needs more context switches or threads than the user allowed:
/// it is reported as lying beyond the bounds, never localized along (which could only end
/// in "no line's change removes the failure").
#[test]
fn a_failure_beyond_the_given_bounds_is_reported_not_localized() {
    for bound in [
        &["--context-switches", "0"][..],
        &["--rounds", "1"],
        &["--max-rounds", "1"],
        &["--threads", "2"],
    ] {
        let mut args = vec!["localize", "examples/lost_update.c", "--format", "json"];
        args.extend_from_slice(bound);
        let o = run(&args);
        assert_eq!(o.status.code(), Some(3), "{bound:?}: {}", stderr(&o));
        let j = json(&o);
        assert_eq!(j["verdict"], "unknown", "{bound:?}: {j}");
        assert!(candidate_lines(&j).is_empty(), "{bound:?}: {j}");
        assert!(
            j["reason"]
                .as_str()
                .is_some_and(|r| r.contains("beyond the bounds given")),
            "{bound:?}: {j}"
        );
    }
    // Within the bounds it is the answer.
    let o = run(&[
        "check",
        "examples/lost_update.c",
        "--context-switches",
        "6",
        "--json",
    ]);
    assert_eq!(o.status.code(), Some(1), "{}", stderr(&o));
}

/// A plain `assert` of `<assert.h>` is an assertion in the words of the report, the JSON's
/// `kind` and its `message`, not an error location.
#[test]
fn an_assert_failure_is_called_an_assertion() {
    let o = run(&["check", "examples/lost_update.c"]);
    let text = stdout(&o);
    assert!(
        text.contains("FAILURE: assertion failed at lost_update.c:28"),
        "{text}"
    );
    assert!(!text.contains("error location"), "{text}");
    let o = run(&["check", "examples/lost_update.c", "--json"]);
    let j = json(&o);
    assert_eq!(j["property"]["kind"], "assertion", "{j}");
    assert!(
        j["property"]["message"]
            .as_str()
            .is_some_and(|m| m.starts_with("assert(")),
        "{j}"
    );
    let o = run(&["localize", "examples/lost_update.c"]);
    assert!(
        stdout(&o).contains("FAILURE: assertion failed"),
        "{}",
        stdout(&o)
    );
}

/// What is not a C program to run is refused with a clear message: no `main`, C++, a file
/// that does not exist.
#[test]
fn what_is_not_a_c_program_is_refused() {
    let dir = tempfile::tempdir().expect("tempdir");
    let nomain = dir.path().join("lib.c");
    std::fs::write(&nomain, "int x;\nint get(void) { return x; }\n").expect("write");
    let cpp = dir.path().join("prog.cpp");
    std::fs::write(&cpp, "#include <thread>\nint main() { return 0; }\n").expect("write");
    let (nomain, cpp) = (
        nomain.to_string_lossy().into_owned(),
        cpp.to_string_lossy().into_owned(),
    );
    for cmd in ["check", "localize", "sequentialize", "parse"] {
        for (file, words) in [
            (nomain.as_str(), "has no `main`"),
            (cpp.as_str(), "is C++"),
            ("no/such/file.c", "cannot read"),
        ] {
            let o = run(&[cmd, file]);
            assert_eq!(o.status.code(), Some(2), "{cmd} {file}: {}", stdout(&o));
            assert!(stderr(&o).contains(words), "{cmd} {file}: {}", stderr(&o));
        }
    }
    // A program without `main` has no initial thread for `parse` to show either; asked for
    // JSON, it says so in the error document.
    let o = run(&["parse", &nomain, "--json"]);
    assert_eq!(o.status.code(), Some(2), "{}", stdout(&o));
    let j = json(&o);
    assert_eq!(j["schema"], "seqloc.error/1", "{j}");
    assert!(
        j["error"]
            .as_str()
            .is_some_and(|e| e.contains("has no `main`")),
        "{j}"
    );
}

#[test]
fn the_version_names_z3() {
    let o = run(&["--version"]);
    let v = stdout(&o);
    assert!(v.starts_with("seqloc ") && v.contains("(Z3 4."), "{v}");
    let j = json(&run(&["check", "examples/lost_update.c", "--json"]));
    assert!(
        j["checker"]["version"]
            .as_str()
            .is_some_and(|v| v.contains("with Z3 4.")),
        "{j}"
    );
}

/// Every message that sends the reader to a README section names one that exists.
#[test]
fn every_readme_section_a_message_names_exists() {
    let readme = std::fs::read_to_string(root().join("README.md")).expect("README.md");
    let headings: Vec<&str> = readme
        .lines()
        .filter_map(|l| l.strip_prefix('#'))
        .map(|l| l.trim_start_matches('#').trim())
        .collect();
    let mut pending = vec![root().join("src")];
    let mut named = 0;
    while let Some(dir) = pending.pop() {
        for e in std::fs::read_dir(&dir).expect("src").flatten() {
            let p = e.path();
            if p.is_dir() {
                pending.push(p);
                continue;
            }
            let text = std::fs::read_to_string(&p).unwrap_or_default();
            for (i, _) in text.match_indices("README \\\"") {
                let rest = &text[i + "README \\\"".len()..];
                let Some(end) = rest.find("\\\"") else {
                    continue;
                };
                let section = &rest[..end];
                named += 1;
                assert!(
                    headings.contains(&section),
                    "{}: README section \"{section}\" does not exist",
                    p.display()
                );
            }
        }
    }
    assert!(named > 0, "the messages name README sections");
}

/// A sweep's exit code says whether every task went right; its JSON gives an error's
/// message (not a line of the caret display) and whether a `true` verdict is a proof.
#[test]
fn a_sweep_exits_non_zero_on_a_wrong_or_failed_task() {
    let dir = tempfile::tempdir().expect("tempdir");
    let d = dir.path();
    std::fs::create_dir(d.join("properties")).expect("mkdir");
    std::fs::copy(
        root().join("benchmarks/properties/unreach-call.prp"),
        d.join("properties/unreach-call.prp"),
    )
    .expect("copy");
    let tasks = d.join("tasks");
    std::fs::create_dir(&tasks).expect("mkdir");
    let task = |name: &str, program: &str, expected: bool| {
        std::fs::write(
            tasks.join(format!("{name}.yml")),
            format!(
                "format_version: '2.0'\ninput_files: '{name}.c'\nproperties:\n  - property_file: ../properties/unreach-call.prp\n    expected_verdict: {expected}\noptions:\n  language: C\n  data_model: LP64\n"
            ),
        )
        .expect("write task");
        std::fs::write(tasks.join(format!("{name}.c")), program).expect("write program");
    };
    let ok = std::fs::read_to_string(root().join("benchmarks/correct/account_ok.c"))
        .expect("account_ok.c");
    task("proved", &ok, true);
    let sweep = |extra: &[&str]| {
        let json = d.join("out.json");
        let mut args = vec![
            "sweep".to_string(),
            tasks.to_string_lossy().into_owned(),
            "--no-progress".into(),
            "--timeout".into(),
            "60".into(),
            "--json".into(),
            json.to_string_lossy().into_owned(),
        ];
        args.extend(extra.iter().map(|s| s.to_string()));
        let args: Vec<&str> = args.iter().map(String::as_str).collect();
        let o = run(&args);
        let j: serde_json::Value = std::fs::read(&json)
            .ok()
            .and_then(|b| serde_json::from_slice(&b).ok())
            .unwrap_or_default();
        (o, j)
    };
    let (o, j) = sweep(&[]);
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    assert_eq!(j["tasks"][0]["status"], "correct", "{j}");
    assert_eq!(j["tasks"][0]["exhaustive"], true, "{j}");

    task("broken", "int main( { return 0; }\n", false);
    let (o, j) = sweep(&[]);
    assert_eq!(o.status.code(), Some(1), "{}", stderr(&o));
    let broken = j["tasks"]
        .as_array()
        .and_then(|t| {
            t.iter()
                .find(|t| t["id"].as_str().is_some_and(|i| i.contains("broken")))
        })
        .cloned()
        .unwrap_or_default();
    assert_eq!(broken["status"], "error", "{j}");
    let reason = broken["reason"].as_str().unwrap_or_default();
    assert!(reason.contains("syntax error"), "{reason}");
    assert!(!reason.contains('^'), "{reason}");
    let (o, _) = sweep(&["--exit-zero"]);
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));

    // A task file with a YAML syntax error is an errored task, named with the parser's
    // message, not a file skipped with a warning.
    let yaml = dir.path().join("yaml");
    std::fs::create_dir(&yaml).expect("mkdir");
    std::fs::write(
        yaml.join("broken.yml"),
        "format_version: '2.0'\ninput_files: 'nosuch.c'\nproperties: [[[\n",
    )
    .expect("write");
    for arg in [yaml.clone(), yaml.join("broken.yml")] {
        let o = run(&["sweep", &arg.to_string_lossy(), "--no-progress"]);
        assert_eq!(o.status.code(), Some(1), "{}", stderr(&o));
        assert!(
            stderr(&o).contains("not valid YAML: did not find expected node content at line 4"),
            "{}",
            stderr(&o)
        );
    }

    let empty = d.join("empty");
    std::fs::create_dir(&empty).expect("mkdir");
    let o = run(&["sweep", &empty.to_string_lossy(), "--no-progress"]);
    assert_eq!(o.status.code(), Some(2), "{}", stdout(&o));
    assert!(stderr(&o).contains("no tasks"), "{}", stderr(&o));
}

/// The processes whose command line mentions `needle`, other than this test.
fn processes_mentioning(needle: &str) -> Vec<i32> {
    let me = std::process::id() as i32;
    std::fs::read_dir("/proc")
        .map(|d| {
            d.filter_map(Result::ok)
                .filter_map(|e| e.file_name().to_string_lossy().parse::<i32>().ok())
                .filter(|pid| *pid != me)
                .filter(|pid| {
                    std::fs::read(format!("/proc/{pid}/cmdline"))
                        .is_ok_and(|c| String::from_utf8_lossy(&c).contains(needle))
                })
                .collect()
        })
        .unwrap_or_default()
}

/// SIGINT stops a sweep instead of losing it: no task starts after it, the running one is
/// ended (its process gone), and the JSON of what finished is written and says so; exit 3.
#[test]
fn an_interrupted_sweep_writes_what_finished() {
    let dir = tempfile::tempdir().expect("tempdir");
    let tasks = dir.path().join("tasks");
    std::fs::create_dir(&tasks).expect("mkdir");
    for (name, from) in [
        ("a_quick.c", "examples/lost_update.c"),
        ("b_long.c", "tests/programs/edges/unbounded_loop.c"),
        ("c_later.c", "examples/lost_update.c"),
    ] {
        std::fs::copy(root().join(from), tasks.join(name)).expect("copy");
    }
    let json = dir.path().join("out.json");
    let mut child = seqloc()
        .args([
            "sweep",
            &tasks.to_string_lossy(),
            "--jobs",
            "1",
            "--timeout",
            "300",
        ])
        .args(["--no-progress", "--json", &json.to_string_lossy()])
        .stdout(std::process::Stdio::null())
        .stderr(std::process::Stdio::piped())
        .spawn()
        .expect("sweep starts");
    // Interrupt once the long task runs (the quick one is done by then: one job).
    let long = tasks.join("b_long.c").to_string_lossy().into_owned();
    let t0 = std::time::Instant::now();
    while processes_mentioning(&long).is_empty() && t0.elapsed().as_secs() < 120 {
        std::thread::sleep(std::time::Duration::from_millis(50));
    }
    std::thread::sleep(std::time::Duration::from_millis(300));
    // SAFETY: kill only sends a signal to the sweep this test started.
    unsafe { libc::kill(child.id() as i32, libc::SIGINT) };
    let t1 = std::time::Instant::now();
    let status = loop {
        if let Some(s) = child.try_wait().expect("wait") {
            break s;
        }
        assert!(t1.elapsed().as_secs() < 30, "the sweep did not stop");
        std::thread::sleep(std::time::Duration::from_millis(50));
    };
    let err = child
        .stderr
        .take()
        .map(|mut e| {
            let mut s = String::new();
            let _ = std::io::Read::read_to_string(&mut e, &mut s);
            s
        })
        .unwrap_or_default();
    assert_eq!(status.code(), Some(3), "{err}");
    assert!(err.contains("the sweep was stopped"), "{err}");
    assert!(
        processes_mentioning(&long).is_empty(),
        "the long task's seqloc survived"
    );
    let j: serde_json::Value =
        serde_json::from_slice(&std::fs::read(&json).expect("the JSON is written")).expect("JSON");
    assert_eq!(j["interrupted"], true, "{j:#}");
    let task = |name: &str| {
        j["tasks"]
            .as_array()
            .and_then(|t| {
                t.iter()
                    .find(|t| t["id"].as_str().is_some_and(|i| i.contains(name)))
            })
            .cloned()
            .unwrap_or_default()
    };
    assert_eq!(task("a_quick")["verdict"], "failure", "{j:#}");
    assert_eq!(task("b_long")["status"], "skipped", "{j:#}");
    assert!(
        task("b_long")["reason"]
            .as_str()
            .is_some_and(|r| r.contains("interrupted")),
        "{j:#}"
    );
    assert_eq!(task("c_later")["status"], "skipped", "{j:#}");
    assert!(
        task("c_later")["reason"]
            .as_str()
            .is_some_and(|r| r.starts_with("not run")),
        "{j:#}"
    );
}

/// The compiled-in framework is used unless `--templates` names a directory: a
/// `templates/framework.c` in the working directory is not read.
#[test]
fn templates_are_read_only_from_the_templates_option() {
    let dir = tempfile::tempdir().expect("tempdir");
    std::fs::create_dir(dir.path().join("templates")).expect("mkdir");
    std::fs::write(
        dir.path().join("templates/framework.c"),
        "this is not C and must not be read\n",
    )
    .expect("write");
    let prog = root().join("examples/lost_update.c");
    let o = seqloc()
        .current_dir(dir.path())
        .args(["localize", &prog.to_string_lossy(), "--format", "json"])
        .output()
        .expect("runs");
    assert_eq!(o.status.code(), Some(1), "{}", stderr(&o));
    assert!(candidate_lines(&json(&o)).contains(&16));
}

/// There is always a time limit, and the help says which; the memory limit holds for the
/// built-in checker's search, as a typed UNKNOWN naming its value.
#[test]
fn the_default_time_limit_and_the_memory_limit_hold() {
    for cmd in ["check", "localize"] {
        let h = stdout(&run(&[cmd, "--help"]));
        assert!(h.contains("[default: 900]"), "{cmd} --help:\n{h}");
    }
    for explore in [&[][..], &["--no-explore"]] {
        let mut args = vec![
            "check",
            "tests/programs/edges/unbounded_loop.c",
            "--memory-limit",
            "1",
            "--json",
        ];
        args.extend_from_slice(explore);
        let o = run(&args);
        let j = json(&o);
        assert_eq!(o.status.code(), Some(3), "{j}");
        assert_eq!(j["limit"], "memory", "{j}");
        assert!(
            j["reason"]
                .as_str()
                .is_some_and(|r| r.contains("memory limit of 1 MB")),
            "{j}"
        );
    }
}

#[test]
fn output_to_a_hard_link_of_the_input_is_refused() {
    let dir = tempfile::tempdir().expect("temp dir");
    let input = dir.path().join("prog.c");
    let original = std::fs::read(root().join("examples/lost_update.c")).expect("example");
    std::fs::write(&input, &original).expect("copy");
    let link = dir.path().join("other-name.c");
    std::fs::hard_link(&input, &link).expect("hard link");
    for cmd in ["sequentialize", "instrument"] {
        let o = run(&[
            cmd,
            input.to_str().expect("utf-8"),
            "-o",
            link.to_str().expect("utf-8"),
        ]);
        assert_eq!(o.status.code(), Some(2), "{cmd}: {}", stderr(&o));
        assert!(
            stderr(&o).contains("hard link") && stderr(&o).contains("input file"),
            "{cmd}: {}",
            stderr(&o)
        );
        assert_eq!(std::fs::read(&input).expect("input"), original, "{cmd}");
    }
    // A new file beside it is written.
    let out = dir.path().join("seq.c");
    let o = run(&[
        "sequentialize",
        input.to_str().expect("utf-8"),
        "-o",
        out.to_str().expect("utf-8"),
    ]);
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    assert!(out.exists());
}

#[test]
fn property_all_tries_the_cheap_proofs_for_every_property_it_covers() {
    // The counting argument proves the assertions, and only `main` joining the clerks it
    // created can block: a proof for both properties `all` means, at once.
    let o = run(&[
        "check",
        "benchmarks/correct/ticket_clerks_ok.c",
        "--json",
        "--timeout",
        "30",
    ]);
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    let j = json(&o);
    assert_eq!(j["exhaustive"], true, "{j}");
    let why = j.to_string();
    assert!(
        why.contains("by counting") && why.contains("no deadlock"),
        "{why}"
    );
    // Deadlock alone is proved the same way.
    let o = run(&[
        "check",
        "benchmarks/correct/ticket_clerks_ok.c",
        "--property",
        "deadlock",
        "--timeout",
        "30",
    ]);
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    assert!(
        stdout(&o).contains("NO FAILURE in any execution"),
        "{}",
        stdout(&o)
    );
}

#[test]
fn the_memory_limit_holds_during_localization() {
    // Along a schedule given by hand no search runs: the limit is met by the localization
    // (its validation replay and the diag loop), which must stop there, naming it.
    let dir = tempfile::tempdir().expect("tempdir");
    let schedule = dir.path().join("s.json");
    let s = schedule.to_str().expect("utf-8");
    let o = run(&["check", "examples/lost_update.c", "--emit-schedule", s]);
    assert_eq!(o.status.code(), Some(1), "{}", stderr(&o));
    let o = run(&[
        "localize",
        "examples/lost_update.c",
        "--schedule",
        s,
        "--memory-limit",
        "1",
        "--format",
        "json",
    ]);
    assert_eq!(o.status.code(), Some(3), "{}", stderr(&o));
    let j = json(&o);
    assert_eq!(j["limit"], "memory", "{j}");
    assert!(
        stderr(&o).contains("memory limit of 1 MB reached"),
        "{}",
        stderr(&o)
    );
    // Without the limit the same run localizes.
    let o = run(&["localize", "examples/lost_update.c", "--schedule", s]);
    assert_eq!(o.status.code(), Some(1), "{}", stderr(&o));
}

/// Starts `seqloc args`, sends `sig` after `after`, and returns its output (failing the
/// test if it does not end within 15 s of the signal).
fn signalled(args: &[&str], sig: i32, after: std::time::Duration) -> std::process::Output {
    use std::process::Stdio;
    let child = seqloc()
        .args(args)
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("seqloc starts");
    std::thread::sleep(after);
    let pid = child.id() as i32;
    // SAFETY: sends a signal to the child started above.
    unsafe { libc::kill(pid, sig) };
    let (tx, rx) = std::sync::mpsc::channel();
    std::thread::spawn(move || {
        let _ = tx.send(child.wait_with_output());
    });
    match rx.recv_timeout(std::time::Duration::from_secs(15)) {
        Ok(o) => o.expect("waits"),
        Err(_) => {
            // SAFETY: as above.
            unsafe { libc::kill(pid, libc::SIGKILL) };
            panic!("seqloc {args:?} did not stop within 15 s of signal {sig}");
        }
    }
}

#[test]
fn ctrl_c_and_sigterm_stop_the_builtin_checker_with_an_answer() {
    // A localization that takes many seconds: interrupted in its search or its loop, it
    // answers UNKNOWN (exit 3) with `limit: interrupted`, never a crash or a silent 0.
    for (sig, after) in [
        (libc::SIGINT, 1500),
        (libc::SIGTERM, 4000),
        (libc::SIGINT, 7000),
    ] {
        let o = signalled(
            &[
                "localize",
                "benchmarks/concbugs/histogram_lost_update.c",
                "--format",
                "json",
            ],
            sig,
            std::time::Duration::from_millis(after),
        );
        // Finished before the signal (a fast machine): nothing to check.
        if o.status.code() == Some(1) {
            let _ = writeln!(
                std::io::stderr(),
                "NOTICE: the localization ended before the signal at {after} ms"
            );
            continue;
        }
        assert_eq!(o.status.code(), Some(3), "signal {sig}: {}", stderr(&o));
        let j = json(&o);
        assert_eq!(j["limit"], "interrupted", "signal {sig} at {after} ms: {j}");
        assert!(!stderr(&o).contains("panicked"), "{}", stderr(&o));
    }
    let o = signalled(
        &["check", "benchmarks/correct/registry_ok.c"],
        libc::SIGINT,
        std::time::Duration::from_millis(1500),
    );
    assert_eq!(o.status.code(), Some(3), "{}", stderr(&o));
    assert!(stdout(&o).contains("interrupted"), "{}", stdout(&o));
}

#[test]
fn every_candidate_column_points_at_code() {
    let o = run(&["localize", "examples/lost_update.c", "--format", "json"]);
    assert_eq!(o.status.code(), Some(1), "{}", stderr(&o));
    let j = json(&o);
    let text = std::fs::read_to_string(root().join("examples/lost_update.c")).expect("source");
    let lines: Vec<&str> = text.lines().collect();
    let cands = j["candidates"].as_array().expect("candidates");
    assert!(!cands.is_empty());
    for c in cands {
        let line = c["line"].as_u64().expect("line") as usize;
        let col = c["column"].as_u64().expect("column") as usize;
        let at = lines[line - 1].as_bytes().get(col - 1).copied();
        assert!(
            at.is_some_and(|b| !b.is_ascii_whitespace()),
            "candidate at {line}:{col} points at {at:?}: {}",
            lines[line - 1]
        );
    }
}

#[test]
fn hints_speak_in_source_terms() {
    // A helper's return value (a temporary of seqloc's once inlined), its parameter, a
    // heap pointer: no internal name, no raw address, no `malloc@N` in any hint.
    let o = run(&[
        "localize",
        "tests/programs/edges/hint_terms.c",
        "--format",
        "json",
    ]);
    assert_eq!(o.status.code(), Some(1), "{}", stderr(&o));
    let j = json(&o);
    let cands = j["candidates"].as_array().expect("candidates");
    assert!(cands.len() >= 3, "{j}");
    for c in cands {
        let hint = c["hint"].as_str().expect("hint");
        for bad in ["__ret", "__t", "malloc@", "0x", "`__"] {
            assert!(!hint.contains(bad), "hint names {bad}: {hint}");
        }
    }
    let text = j.to_string();
    assert!(text.contains("the value the call returns"), "{text}");
    // Pointing `p` at a seqloc temporary (once "another object") is no change a program
    // can make: line 14 is no candidate. Heap objects in hints: `issue26.rs`'s VLA test.
    assert!(!text.contains("another object"), "{text}");
}

#[test]
fn progress_only_on_a_terminal() {
    // Piped: stderr holds no spinner or phase line.
    let o = run(&["localize", "examples/lost_update.c"]);
    assert_eq!(o.status.code(), Some(1), "{}", stderr(&o));
    assert!(!stderr(&o).contains("localizing:"), "{}", stderr(&o));
    // On a terminal (`script` gives one): the phase is shown, then cleared.
    let have_script = std::process::Command::new("script")
        .arg("--version")
        .output()
        .is_ok_and(|o| o.status.success());
    if !have_script {
        let _ = writeln!(
            std::io::stderr(),
            "NOTICE: skipped the terminal half: `script` not found"
        );
        return;
    }
    let dir = tempfile::tempdir().expect("tempdir");
    let log = dir.path().join("pty.txt");
    let cmd = format!(
        "{} localize benchmarks/concbugs/histogram_lost_update.c --timeout 3",
        env!("CARGO_BIN_EXE_seqloc")
    );
    let o = std::process::Command::new("script")
        .args(["-qec", &cmd, log.to_str().expect("utf-8")])
        .current_dir(root())
        .output()
        .expect("script runs");
    let seen = std::fs::read_to_string(&log).unwrap_or_default();
    assert!(seen.contains("localizing:"), "{:?}\n{seen}", o.status);
    // During the candidate loop the line counts the checker's runs and the candidates.
    let counted = format!(
        "{} localize benchmarks/paper/account_bad.c",
        env!("CARGO_BIN_EXE_seqloc")
    );
    let o = std::process::Command::new("script")
        .args(["-qec", &counted, log.to_str().expect("utf-8")])
        .current_dir(root())
        .output()
        .expect("script runs");
    let seen = std::fs::read_to_string(&log).unwrap_or_default();
    assert!(
        seen.contains("checker runs, ") && seen.contains("so far)"),
        "{:?}\n{seen}",
        o.status
    );
    // With JSON asked for, nothing of it even on a terminal.
    let cmd = format!("{cmd} --format json");
    let _ = std::process::Command::new("script")
        .args(["-qec", &cmd, log.to_str().expect("utf-8")])
        .current_dir(root())
        .output()
        .expect("script runs");
    let seen = std::fs::read_to_string(&log).unwrap_or_default();
    assert!(!seen.contains("localizing:"), "{seen}");
}

/// `--rules DIR` reaches the built-in search, not only the replay: with rules that drop
/// the mutex calls, a counter every thread updates under a lock loses an update, and the
/// search finds it (the compiled-in rules keep the lock, and there is no failure).
#[test]
fn rules_dir_changes_the_builtin_search() {
    let dir = tempfile::tempdir().expect("tempdir");
    let d = dir.path();
    let prog = d.join("locked.c");
    std::fs::write(
        &prog,
        "#include <pthread.h>\n#include <assert.h>\n\nint counter;\npthread_mutex_t m = PTHREAD_MUTEX_INITIALIZER;\n\nvoid *worker(void *arg)\n{\n  pthread_mutex_lock(&m);\n  int t = counter;\n  counter = t + 1;\n  pthread_mutex_unlock(&m);\n  return 0;\n}\n\nint main(void)\n{\n  pthread_t a, b;\n  pthread_create(&a, 0, worker, 0);\n  pthread_create(&b, 0, worker, 0);\n  pthread_join(a, 0);\n  pthread_join(b, 0);\n  assert(counter == 2);\n  return 0;\n}\n",
    )
    .expect("write program");
    let rules = d.join("rules");
    std::fs::create_dir(&rules).expect("mkdir");
    for name in ["deadlock.toml", "nondeadlock.toml"] {
        let text = std::fs::read_to_string(root().join("rules").join(name)).expect("rules");
        let text = text
            .replace(
                "pthread_mutex_lock = \"lock\"",
                "pthread_mutex_lock = \"remove\"",
            )
            .replace(
                "pthread_mutex_unlock = \"unlock\"",
                "pthread_mutex_unlock = \"remove\"",
            );
        assert!(text.contains("pthread_mutex_lock = \"remove\""), "{name}");
        std::fs::write(rules.join(name), text).expect("write rules");
    }
    let p = prog.to_string_lossy().into_owned();
    let base = [
        "localize",
        p.as_str(),
        "--max-rounds",
        "3",
        "--format",
        "json",
    ];
    let o = run(&base);
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    let r = rules.to_string_lossy().into_owned();
    let mut with_rules = base.to_vec();
    with_rules.extend(["--rules", r.as_str()]);
    let o = run(&with_rules);
    assert_eq!(o.status.code(), Some(1), "{}", stderr(&o));
    let lines: Vec<u64> = json(&o)["candidates"]
        .as_array()
        .expect("candidates")
        .iter()
        .filter_map(|c| c["line"].as_u64())
        .collect();
    assert!(
        lines.contains(&10) || lines.contains(&11),
        "the lost update's read or write is a candidate: {lines:?}"
    );
}

/// `parse --dump-ir normalized` shows the program after the passes every engine runs
/// first: the assertion's shared read is its own statement, with the source line beside it.
#[test]
fn the_normalized_program_can_be_dumped() {
    let o = run(&["parse", "examples/lost_update.c", "--dump-ir", "normalized"]);
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    let text = stdout(&o);
    assert!(
        text.contains("int __t = balance == 130; /* examples/lost_update.c:28 */"),
        "{text}"
    );
    let o = run(&["parse", "examples/lost_update.c", "--dump-ir", "lowered"]);
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    assert!(!stdout(&o).contains("__t"), "{}", stdout(&o));
}

/// A failed `__VERIFIER_assert` ends the run in the replay as its `abort()` does: the
/// read through the NULL pointer the check was about, right after it, does not discard
/// the failing run (it was "the sequential program does not reproduce the failure").
#[test]
fn a_failed_check_ends_the_replayed_run() {
    let o = run(&[
        "localize",
        "tests/programs/localize/assert_then_use.c",
        "--format",
        "json",
    ]);
    assert_eq!(o.status.code(), Some(1), "{}", stderr(&o));
    let lines = candidate_lines(&json(&o));
    assert!(lines.contains(&24) && lines.contains(&25), "{lines:?}");
}

/// An `if`-guarded condition wait in a program without assertions: its spurious wake-up
/// is modelled and harmless, so every property is proved (under `all` and `deadlock` the
/// answer was UNKNOWN while spurious wake-ups were not modelled).
#[test]
fn an_if_guarded_wait_without_assertions_is_proved_with_its_spurious_wake_up() {
    let p = "tests/programs/edges/cond_if_without_assertion.c";
    for property in ["unreach-call", "all", "deadlock"] {
        let o = run(&["check", p, "--property", property]);
        assert_eq!(o.status.code(), Some(0), "{property}: {}", stdout(&o));
        assert!(
            stdout(&o).contains("NO FAILURE in any execution"),
            "{property}: {}",
            stdout(&o)
        );
    }
}

/// A schedule that ends in a deadlock, given without `--property deadlock`: under the
/// default `--property all` it is replayed as a deadlock once no assertion fails along
/// it (it was refused: "no assertion fails"); with `--property unreach-call` it is still
/// refused.
#[test]
fn a_deadlock_schedule_replays_under_the_default_property() {
    let p = "tests/programs/why/stage_join_before_release.c";
    let o = run(&["localize", p, "--format", "json"]);
    assert_eq!(o.status.code(), Some(1), "{}", stderr(&o));
    let schedule = json(&o)["schedule"].clone();
    let dir = tempfile::tempdir().expect("tempdir");
    let s = dir.path().join("deadlock.json");
    std::fs::write(&s, schedule.to_string()).expect("write schedule");
    let s = s.to_str().expect("utf-8");
    let o = run(&["localize", p, "--schedule", s, "--format", "json"]);
    assert_eq!(o.status.code(), Some(1), "{}", stderr(&o));
    assert_eq!(json(&o)["verdict"], "deadlock");
    let o = run(&["localize", p, "--schedule", s, "--property", "unreach-call"]);
    assert_eq!(o.status.code(), Some(2), "{}", stderr(&o));
}

/// `sequentialize` and `instrument` on a program with no failure write nothing, say so on
/// stderr, and leave no earlier run's file at `-o` for a script to take for their output.
#[test]
fn no_failure_writes_no_output_and_leaves_no_stale_one() {
    let dir = tempfile::tempdir().expect("tempdir");
    let ok = dir.path().join("ok.c");
    std::fs::write(
        &ok,
        "#include <pthread.h>\n#include <assert.h>\nint c = 0;\npthread_mutex_t m = PTHREAD_MUTEX_INITIALIZER;\nvoid *w(void *a) { pthread_mutex_lock(&m); c = c + 1; pthread_mutex_unlock(&m); return 0; }\nint main(void) {\n  pthread_t a, b;\n  pthread_create(&a, 0, w, 0);\n  pthread_create(&b, 0, w, 0);\n  pthread_join(a, 0);\n  pthread_join(b, 0);\n  assert(c == 2);\n  return 0;\n}\n",
    )
    .expect("write");
    let ok = ok.to_string_lossy().into_owned();
    for (cmd, what) in [
        ("sequentialize", "nothing to sequentialize"),
        ("instrument", "nothing to instrument"),
    ] {
        let out = dir.path().join(format!("{cmd}.c"));
        std::fs::write(&out, "/* an earlier run's output */\n").expect("write");
        let o = run(&[cmd, &ok, "-o", &out.to_string_lossy()]);
        assert_eq!(o.status.code(), Some(0), "{cmd}: {}", stderr(&o));
        let err = stderr(&o);
        assert!(err.contains(what), "{cmd}: {err}");
        assert!(err.contains("not written"), "{cmd}: {err}");
        assert!(err.contains("removed"), "{cmd}: {err}");
        assert!(!out.exists(), "{cmd}: the stale file is still there");
        assert!(stdout(&o).is_empty(), "{cmd}: {}", stdout(&o));
    }
    // The input itself is never removed, whatever `-o` says.
    let o = run(&["sequentialize", &ok, "-o", &ok]);
    assert!(std::path::Path::new(&ok).exists(), "{}", stderr(&o));
}

/// `--format html` on an error prints a small error page on stdout (well-formed, with the
/// message and the location), the message for people staying on stderr.
#[test]
fn an_error_with_format_html_is_an_error_page() {
    let dir = tempfile::tempdir().expect("tempdir");
    let bad = dir.path().join("bad.c");
    std::fs::write(&bad, "int main( { return 0; }\n").expect("write");
    let asm = dir.path().join("asm.c");
    std::fs::write(
        &asm,
        "int main(void) {\n  __asm__(\"nop\");\n  return 0;\n}\n",
    )
    .expect("write");
    let (bad, asm) = (
        bad.to_string_lossy().into_owned(),
        asm.to_string_lossy().into_owned(),
    );
    for cmd in ["check", "localize"] {
        for (input, location) in [
            ("no/such/file.c", None),
            (bad.as_str(), Some("bad.c:1:")),
            (asm.as_str(), Some("asm.c:2:")),
        ] {
            let o = run(&[cmd, input, "--format", "html"]);
            assert_eq!(o.status.code(), Some(2), "{cmd} {input}");
            assert!(stderr(&o).contains("error"), "{}", stderr(&o));
            let page = stdout(&o);
            assert!(page.starts_with("<!DOCTYPE html>"), "{cmd} {input}: {page}");
            assert!(page.contains("id=\"message\""), "{page}");
            if let Some(l) = location {
                assert!(page.contains(l), "{cmd} {input}: {page}");
            }
            let mut r = quick_xml::Reader::from_str(&page);
            loop {
                match r.read_event() {
                    Ok(quick_xml::events::Event::Eof) => break,
                    Ok(_) => {}
                    Err(e) => panic!("{cmd} {input}: not well-formed ({e}): {page}"),
                }
            }
        }
    }
}

/// `repair --help` offers only the formats `repair` writes, and the one it does not write
/// is refused by the argument parser, before any work.
#[test]
fn repair_offers_only_the_formats_it_writes() {
    let help = stdout(&run(&["repair", "--help"]));
    assert!(
        help.contains("[possible values: text, json, sarif]"),
        "{help}"
    );
    assert!(!help.contains("HTML page"), "{help}");
    for args in [
        &["repair", "examples/lost_update.c", "--format", "html"][..],
        &[
            "localize",
            "--repair",
            "examples/lost_update.c",
            "--format",
            "html",
        ][..],
    ] {
        let o = run(args);
        assert_eq!(o.status.code(), Some(2), "{args:?}");
        assert!(stderr(&o).contains("html"), "{args:?}: {}", stderr(&o));
    }
}

/// `--rounds` above an explicit `--max-rounds` is refused naming both (the search would be
/// cut to the maximum); above the default maximum it raises it instead.
#[test]
fn rounds_above_max_rounds_are_refused_or_raise_the_default() {
    for (args, asked) in [
        (&["--max-rounds", "2", "--rounds", "3"][..], "--rounds 3"),
        (
            &["--max-rounds", "2", "--context-switches", "4"][..],
            "--context-switches 4",
        ),
    ] {
        for cmd in ["check", "localize"] {
            let mut a = vec![cmd, "examples/lost_update.c"];
            a.extend_from_slice(args);
            let o = run(&a);
            assert_eq!(o.status.code(), Some(2), "{a:?}: {}", stderr(&o));
            let err = stderr(&o);
            assert!(
                err.contains(asked) && err.contains("--max-rounds 2"),
                "{err}"
            );
            a.push("--json");
            let j = json(&run(&a));
            assert_eq!(j["schema"], "seqloc.error/1", "{j}");
        }
    }
    let j = json(&run(&[
        "check",
        "examples/lost_update.c",
        "--rounds",
        "17",
        "--json",
    ]));
    assert_eq!(j["bounds"]["rounds"], 17, "{j}");
}

/// A construct refused after the front end (by the inliner, the sequentializer or the
/// built-in checker) is located as the front end's refusals are: JSON `locations` and
/// SARIF locations filled, the caret display on stderr, the construct named as the source
/// wrote it, and the README section that lists what is modelled.
#[test]
fn late_refusals_are_located_and_point_at_supported_c() {
    let dir = tempfile::tempdir().expect("tempdir");
    let head = "#include <pthread.h>\n#include <assert.h>\n";
    let cases: &[(&str, &str, u64, &str)] = &[
        (
            "kill.c",
            "int x;\nvoid *w(void *a) { x = 1; return 0; }\nint main(void) {\n  pthread_t t;\n  pthread_create(&t, 0, w, 0);\n  pthread_kill(t, 0);\n  pthread_join(t, 0);\n  return 0;\n}\n",
            8,
            "`pthread_kill`",
        ),
        (
            "long_double.c",
            "int main(void) {\n  long double d = 1.5;\n  assert(d > 1);\n  return 0;\n}\n",
            4,
            "`long double`",
        ),
        (
            "raise.c",
            "#include <signal.h>\nint main(void) {\n  raise(0);\n  return 0;\n}\n",
            5,
            "`raise`",
        ),
        (
            "bitfield.c",
            "struct S { int a : 3; int b : 5; };\nint main(void) {\n  struct S s = {1, 2};\n  assert(s.a == 1);\n  return 0;\n}\n",
            5,
            "bit-fields",
        ),
        (
            "strerror.c",
            "#include <string.h>\nint main(void) {\n  char *s = strerror(1);\n  assert(s != 0);\n  return 0;\n}\n",
            5,
            "`strerror`",
        ),
        (
            "setjmp.c",
            "#include <setjmp.h>\njmp_buf b;\nint main(void) {\n  if (setjmp(b)) return 1;\n  longjmp(b, 1);\n  return 0;\n}\n",
            6,
            "`setjmp`",
        ),
    ];
    for (name, body, line, construct) in cases {
        let f = dir.path().join(name);
        std::fs::write(&f, format!("{head}{body}")).expect("write");
        let f = f.to_string_lossy().into_owned();
        let o = run(&["check", &f, "--json"]);
        assert_eq!(o.status.code(), Some(2), "{name}: {}", stderr(&o));
        let j = json(&o);
        let error = j["error"].as_str().unwrap_or_default();
        assert!(error.contains(construct), "{name}: {j}");
        assert!(error.ends_with("see README \"Supported C\""), "{name}: {j}");
        assert!(
            !error.contains("<generated>") && !error.contains("__"),
            "{name}: {j}"
        );
        assert!(!error.contains("is not supported"), "{name}: {j}");
        let loc = &j["locations"][0];
        assert_eq!(loc["line"], *line, "{name}: {j}");
        assert!(
            loc["file"].as_str().is_some_and(|p| p.ends_with(name)),
            "{name}: {j}"
        );
        // The text report shows the line with its caret, as the front end's refusals do.
        let err = stderr(&o);
        assert!(err.contains(&format!("{name}:{line}:")), "{name}: {err}");
        assert!(err.contains('^'), "{name}: {err}");
    }
    let f = dir.path().join("kill.c").to_string_lossy().into_owned();
    let j = json(&run(&["check", &f, "--format", "sarif"]));
    let note = &j["runs"][0]["invocations"][0]["toolExecutionNotifications"][0];
    assert_eq!(
        note["locations"][0]["physicalLocation"]["region"]["startLine"], 8,
        "{j}"
    );
}
