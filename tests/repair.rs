//! `seqloc repair`: every repair it prints has been re-checked, and this test checks it
//! again from the outside, as a user would: the patch applies with `git apply` to a copy of
//! the original, compiles with `gcc -Wall -Werror`, and `seqloc check` on the patched
//! program finds no failure and no deadlock. The programs are in `tests/programs/repair/`;
//! each says on its first line whether a repair exists (`expect: repair`), the program is
//! correct (`expect: no-failure`) or no synchronization change can help
//! (`expect: no-repair`).

mod common;

use std::io::Write as _;
use std::path::Path;
use std::process::Command;

use common::*;

const DIR: &str = "tests/programs/repair";

fn expectation(program: &Path) -> String {
    let text = std::fs::read_to_string(program).expect("the program reads");
    let first = text.lines().next().unwrap_or("");
    first
        .trim_start_matches("/*")
        .trim_end_matches("*/")
        .trim()
        .strip_prefix("expect:")
        .unwrap_or_else(|| panic!("{}: no `expect:` on line 1", program.display()))
        .trim()
        .to_string()
}

fn programs() -> Vec<String> {
    let mut v: Vec<String> = std::fs::read_dir(root().join(DIR))
        .expect("the repair programs")
        .filter_map(|e| e.ok())
        .map(|e| e.file_name().to_string_lossy().into_owned())
        .filter(|n| n.ends_with(".c"))
        .collect();
    v.sort();
    v
}

fn repair_json(rel: &str) -> (Option<i32>, serde_json::Value) {
    let o = run(&["repair", rel, "--format", "json", "--timeout", "300"]);
    (o.status.code(), json(&o))
}

fn have_git() -> bool {
    Command::new("git")
        .arg("--version")
        .output()
        .is_ok_and(|o| o.status.success())
}

/// Applies `patch` to a copy of `rel` in a fresh directory, with `git apply` (or
/// `patch -p1` where git is missing), and returns the patched file.
fn apply(rel: &str, patch: &str, dir: &Path) -> std::path::PathBuf {
    let dst = dir.join(rel);
    std::fs::create_dir_all(dst.parent().expect("a parent")).expect("mkdir");
    std::fs::copy(root().join(rel), &dst).expect("copy");
    let mut cmd = if have_git() {
        let mut c = Command::new("git");
        c.arg("apply");
        c
    } else {
        let _ = writeln!(
            std::io::stderr(),
            "NOTICE: git not found: the patch is applied with patch -p1"
        );
        let mut c = Command::new("patch");
        c.args(["-p1", "--quiet"]);
        c
    };
    let mut child = cmd
        .current_dir(dir)
        .stdin(std::process::Stdio::piped())
        .spawn()
        .expect("patch runs");
    {
        use std::io::Write;
        let mut stdin = child.stdin.take().expect("stdin");
        stdin.write_all(patch.as_bytes()).expect("write patch");
    }
    let st = child.wait().expect("patch ends");
    assert!(st.success(), "{rel}: the patch does not apply:\n{patch}");
    dst
}

#[test]
fn every_repair_applies_compiles_and_checks_clean() {
    let gcc = have_gcc();
    let names = programs();
    assert!(names.len() >= 8, "{names:?}");
    let results = parallel(&names, |name| {
        let rel = format!("{DIR}/{name}");
        let expect = expectation(&root().join(&rel));
        let (code, j) = repair_json(&rel);
        (rel, expect, code, j)
    });
    for (rel, expect, code, j) in results {
        let repairs = j["repairs"].as_array().cloned().unwrap_or_default();
        match expect.as_str() {
            "no-failure" => {
                assert_eq!(code, Some(0), "{rel}: {j}");
                assert!(repairs.is_empty(), "{rel}");
                assert_eq!(
                    j["localize"]["verdict"], "no-failure-within-bounds",
                    "{rel}"
                );
            }
            "no-repair" => {
                assert_eq!(code, Some(1), "{rel}: {j}");
                assert!(
                    repairs.is_empty(),
                    "{rel}: a repair for a non-concurrency fault: {j}"
                );
                assert!(
                    !j["localize"]["candidates"]
                        .as_array()
                        .is_none_or(|c| c.is_empty()),
                    "{rel}: the candidates are still printed"
                );
                assert!(j["checked"].as_u64().unwrap_or(0) > 0, "{rel}");
            }
            "repair" => {
                assert_eq!(code, Some(1), "{rel}: the program as given fails");
                let first = repairs
                    .first()
                    .unwrap_or_else(|| panic!("{rel}: no verified repair: {j}"));
                let patch = first["patch"].as_str().expect("a patch");
                let dir = tempfile::tempdir().expect("tempdir");
                let patched = apply(&rel, patch, dir.path());
                if gcc {
                    let o = Command::new("gcc")
                        .args(["-Wall", "-Werror", "-pthread", "-c", "-o"])
                        .arg(dir.path().join("x.o"))
                        .arg(&patched)
                        .output()
                        .expect("gcc runs");
                    assert!(
                        o.status.success(),
                        "{rel}: the patched program does not compile:\n{}",
                        String::from_utf8_lossy(&o.stderr)
                    );
                }
                let p = patched.display().to_string();
                let o = run(&["check", &p, "--timeout", "120"]);
                assert_eq!(
                    o.status.code(),
                    Some(0),
                    "{rel}: the patched program still fails:\n{patch}\n{}",
                    stdout(&o)
                );
            }
            other => panic!("{rel}: unknown expectation {other}"),
        }
    }
}

fn first_repair(rel: &str) -> serde_json::Value {
    let (code, j) = repair_json(rel);
    assert_eq!(code, Some(1), "{rel}");
    j["repairs"][0].clone()
}

/// Each fault gets the repair of its kind — a thread's own argument slot, a guarded wait,
/// a read that waits for another thread's write, one thread run before another, a missing
/// join, a corrected test — and a value change is never made to
/// the test that states the property.
#[test]
fn each_fault_gets_the_repair_of_its_kind() {
    let cases = [
        ("loop_counter_arg.c", "argument-slot", "&seqloc_arg_t[t]"),
        ("bare_wait.c", "guard-wait", "+  while (phase != 2)"),
        (
            "config_then_serve.c",
            "handshake",
            "+  while (!seqloc_ready)",
        ),
        ("inverted_handoff.c", "condition", "+  while (items == 0)"),
        (
            "short_join_loop.c",
            "condition",
            "+  for (k = 0; k < WORKERS; k++)",
        ),
    ];
    let names: Vec<String> = cases.iter().map(|c| c.0.to_string()).collect();
    let firsts = parallel(&names, |n| first_repair(&format!("{DIR}/{n}")));
    for ((name, kind, line), first) in cases.iter().zip(firsts) {
        assert_eq!(first["kind"], *kind, "{name}: {first}");
        let patch = first["patch"].as_str().unwrap_or_default();
        assert!(patch.contains(line), "{name}: {patch}");
    }
    // When no handshake holds (the write may never happen: a refused withdrawal), one
    // thread runs wholly before the other, and the report says so.
    let serial = first_repair("benchmarks/paper/account_bad.c");
    assert_eq!(serial["kind"], "reorder", "{serial}");
    assert!(
        serial["summary"]
            .as_str()
            .is_some_and(|s| s.contains("runs wholly before")),
        "{serial}"
    );
    // Two independent races, one per trace: the second is found by localizing again —
    // its root cause learnt and both covered at once (`cover`), or, when no root cause
    // was found in time, repaired on top of the first repair (`combined`).
    let both = first_repair(&format!("{DIR}/two_races.c"));
    assert!(
        both["kind"] == "cover" || both["kind"] == "combined",
        "{both}"
    );
    let patch = both["patch"].as_str().unwrap_or_default();
    assert_eq!(
        patch.matches("+  pthread_mutex_lock(").count(),
        2,
        "{patch}"
    );
    let (code, j) = repair_json(&format!("{DIR}/guarded_spec.c"));
    assert_eq!(code, Some(1));
    let tried = j["dropped"].to_string();
    assert!(!tried.contains("condition at line 31"), "{tried}");
}

/// The existing mutex is moved out over the test rather than a second lock added, and a
/// lock-order inversion is repaired by taking the locks in one order.
#[test]
fn repairs_prefer_the_programs_own_mutexes_and_orders() {
    let r = first_repair(&format!("{DIR}/check_then_act.c"));
    assert_eq!(r["kind"], "lock", "{r}");
    assert_eq!(r["mutex"], "m", "{r}");
    assert_eq!(r["new_mutex"], false, "{r}");
    let r = first_repair(&format!("{DIR}/lock_order.c"));
    assert_eq!(r["kind"], "reorder", "{r}");
    let r = first_repair(&format!("{DIR}/order_flag.c"));
    assert_eq!(r["kind"], "reorder", "{r}");
    assert_eq!(
        (r["moved"].as_u64(), r["before"].as_u64()),
        (Some(17), Some(16))
    );
}

/// Where the naive lock would deadlock — the region calls a helper that takes the same
/// mutex, or the new lock would nest against an existing order — the repair shown is
/// another one, and no shown repair holds `m` across the helper's call.
#[test]
fn a_repair_never_brings_a_deadlock() {
    let r = first_repair(&format!("{DIR}/callee_locks.c"));
    for reg in r["regions"].as_array().cloned().unwrap_or_default() {
        let (a, b) = (
            reg["first_line"].as_u64().unwrap_or(0),
            reg["last_line"].as_u64().unwrap_or(0),
        );
        // log_event() is called on lines 28 and 31.
        assert!(
            !(a..=b).contains(&28) && !(a..=b).contains(&31),
            "the region holds the lock across log_event(): {r}"
        );
    }
    // Several repairs asked: the search goes past the first that verifies, through the
    // one that locks `b` inside `a`'s order (which of two equally cheap locks is tried
    // first is the cover's tie to break).
    let o = run(&[
        "repair",
        &format!("{DIR}/opposite_regions.c"),
        "--format",
        "json",
        "--repairs",
        "3",
    ]);
    let j = json(&o);
    assert!(!j["repairs"].as_array().is_none_or(|a| a.is_empty()), "{j}");
    let dropped = j["dropped"].as_array().cloned().unwrap_or_default();
    assert!(
        dropped
            .iter()
            .any(|d| d["why"].as_str().unwrap_or("").contains("deadlock")),
        "a proposal that deadlocks was re-checked and dropped: {j}"
    );
}

#[test]
fn the_patch_is_written_where_asked_and_never_over_the_input() {
    let dir = tempfile::tempdir().expect("tempdir");
    let out = dir.path().join("fix.patch");
    let o = run(&[
        "repair",
        &format!("{DIR}/lost_update.c"),
        "--write-patch",
        out.to_str().expect("utf-8"),
    ]);
    assert_eq!(o.status.code(), Some(1), "{}", stderr(&o));
    let text = stdout(&o);
    assert!(text.contains("Repair 1:"), "{text}");
    assert!(text.contains("verified by re-checking"), "{text}");
    let patch = std::fs::read_to_string(&out).expect("the patch is written");
    assert!(
        patch.starts_with(&format!("--- a/{DIR}/lost_update.c")),
        "{patch}"
    );
    let input = format!("{DIR}/lost_update.c");
    let before = std::fs::read_to_string(root().join(&input)).expect("reads");
    let o = run(&["repair", &input, "--write-patch", &input]);
    assert_eq!(o.status.code(), Some(2), "{}", stderr(&o));
    assert_eq!(
        std::fs::read_to_string(root().join(&input)).expect("reads"),
        before,
        "the input is never modified"
    );
}

/// Benchmarks of the project's own (with their ground truth in `benchmarks/MANIFEST.json`)
/// whose repair is quick: the repair verifies, its patch applies, compiles and checks
/// clean, and it changes the code next to a faulty line.
#[test]
fn benchmark_repairs_are_next_to_the_fault_and_check_clean() {
    let tasks = [
        "concbugs/seat_check_then_act",
        "concbugs/lazy_init_twice",
        "deadlock/lock_order_two",
        "deadlock/early_return_keeps_lock",
        "deadlock/join_holding_lock",
        "paper/circular_buffer_bad",
    ];
    let manifest = manifest();
    let results = parallel(&tasks, |t| {
        let rel = format!("benchmarks/{t}.c");
        let o = run(&["repair", &rel, "--format", "json", "--max-rounds", "4"]);
        (t.to_string(), rel, o.status.code(), json(&o))
    });
    for (t, rel, code, j) in results {
        assert_eq!(code, Some(1), "{t}");
        let faulty: Vec<u64> = manifest
            .iter()
            .find(|(n, _)| n == &format!("{t}.yml"))
            .and_then(|(_, v)| v["faulty_lines"].as_array().cloned())
            .unwrap_or_default()
            .iter()
            .filter_map(|l| l.as_u64())
            .collect();
        let patch = j["repairs"][0]["patch"]
            .as_str()
            .unwrap_or_else(|| panic!("{t}: no verified repair: {}", j["dropped"]));
        // The lines of the original the patch removes or inserts next to.
        let mut touched = Vec::new();
        let mut old = 0u64;
        for l in patch.lines() {
            if let Some(h) = l.strip_prefix("@@ -") {
                old = h
                    .split([',', ' '])
                    .next()
                    .and_then(|n| n.parse().ok())
                    .unwrap_or(0);
            } else if l.starts_with("---") || l.starts_with("+++") {
            } else if l.starts_with('-') {
                touched.push(old);
                old += 1;
            } else if l.starts_with('+') {
                touched.extend([old.saturating_sub(1), old]);
            } else {
                old += 1;
            }
        }
        assert!(
            touched
                .iter()
                .any(|a| faulty.iter().any(|f| a.abs_diff(*f) <= 1)),
            "{t}: the repair is not next to a faulty line {faulty:?}:\n{patch}"
        );
        let dir = tempfile::tempdir().expect("tempdir");
        let patched = apply(&rel, patch, dir.path());
        let p = patched.display().to_string();
        let o = run(&["check", &p, "--timeout", "120", "--max-rounds", "4"]);
        assert_eq!(o.status.code(), Some(0), "{t}: {}", stdout(&o));
    }
}

/// `--format sarif`: the repair is a SARIF `fix` whose replacements, made on the original
/// text, give the same program as the unified diff.
#[test]
fn the_sarif_fix_makes_the_same_program_as_the_patch() {
    let rel = format!("{DIR}/check_then_act.c");
    let o = run(&["repair", &rel, "--format", "sarif"]);
    assert_eq!(o.status.code(), Some(1), "{}", stderr(&o));
    let sarif = json(&o);
    let results = sarif["runs"][0]["results"]
        .as_array()
        .cloned()
        .unwrap_or_default();
    let fix = results
        .iter()
        .find_map(|r| r["fixes"].get(0).cloned())
        .unwrap_or_else(|| panic!("no result carries a fix: {sarif}"));
    let original = std::fs::read_to_string(root().join(&rel)).expect("reads");
    let mut chars: Vec<char> = original.chars().collect();
    let mut reps: Vec<(usize, usize, usize, String)> = fix["artifactChanges"][0]["replacements"]
        .as_array()
        .cloned()
        .unwrap_or_default()
        .iter()
        .enumerate()
        .map(|(i, r)| {
            (
                r["deletedRegion"]["charOffset"].as_u64().unwrap_or(0) as usize,
                i,
                r["deletedRegion"]["charLength"].as_u64().unwrap_or(0) as usize,
                r["insertedContent"]["text"]
                    .as_str()
                    .unwrap_or("")
                    .to_string(),
            )
        })
        .collect();
    assert!(!reps.is_empty());
    // Made from the end, so earlier offsets stay true; of two at one offset the later
    // one first, so the earlier ends up in front.
    reps.sort_by_key(|r| std::cmp::Reverse((r.0, r.1)));
    for (at, _, len, text) in reps {
        chars.splice(at..at + len, text.chars());
    }
    let from_sarif: String = chars.into_iter().collect();
    let (_, j) = repair_json(&rel);
    let dir = tempfile::tempdir().expect("tempdir");
    let patched = apply(
        &rel,
        j["repairs"][0]["patch"].as_str().expect("patch"),
        dir.path(),
    );
    assert_eq!(
        from_sarif,
        std::fs::read_to_string(patched).expect("reads"),
        "the SARIF fix and the patch disagree"
    );
}

/// With root causes found, the repair tried first is the cheapest cover of them (issue 24,
/// item 2: kill sets and a binate cover): on these programs it verifies at the first
/// re-check and says which root causes it removes.
#[test]
fn the_first_repair_tried_removes_the_root_causes() {
    let names = [
        "check_then_act.c",
        "config_then_serve.c",
        "order_flag.c",
        "lost_update.c",
        "unjoined_result.c",
    ];
    let names: Vec<String> = names.iter().map(|n| n.to_string()).collect();
    let results = parallel(&names, |n| repair_json(&format!("{DIR}/{n}")));
    for (name, (code, j)) in names.iter().zip(results) {
        assert_eq!(code, Some(1), "{name}: {j}");
        let found = j["localize"]["root_causes"]["causes"]
            .as_array()
            .map_or(0, Vec::len);
        assert_eq!(j["root_causes"].as_u64(), Some(found as u64), "{name}");
        // The root-cause search is bounded by questions and Z3's work, not by the clock:
        // a loaded machine finds the same causes as a quiet one.
        assert!(
            found > 0,
            "{name}: no root cause: {}",
            j["localize"]["root_causes"]
        );
        let first = &j["repairs"][0];
        let removes = first["removes_root_causes"].as_array().map_or(0, Vec::len);
        assert!(removes > 0, "{name}: {first}");
        assert_eq!(j["checked"].as_u64(), Some(1), "{name}: {}", j["dropped"]);
    }
}

/// A program that writes `__VERIFIER_atomic_begin/end` sections is repaired with one: the
/// sensor's two sections of one loop body become one (the human fix, when the root cause
/// was found in time), never a pthread mutex beside the program's own convention.
#[test]
fn a_program_with_atomic_sections_gets_an_atomic_section() {
    let r = first_repair("benchmarks/concbugs/reading_split_atomic.c");
    assert_eq!(r["kind"], "atomic", "{r}");
    let patch = r["patch"].as_str().unwrap_or_default();
    assert!(!patch.contains("pthread_mutex"), "{patch}");
    assert!(
        patch.contains("-    __VERIFIER_atomic_end();\n-    __VERIFIER_atomic_begin();\n"),
        "{patch}"
    );
}

/// `localize --repair` is `repair`; the options it cannot honour are refused by name.
#[test]
fn localize_repair_is_repair() {
    let rel = format!("{DIR}/order_flag.c");
    let o = run(&["localize", &rel, "--repair", "--format", "json"]);
    assert_eq!(o.status.code(), Some(1), "{}", stderr(&o));
    let j = json(&o);
    assert_eq!(j["schema"], "seqloc.repair/1");
    assert_eq!(j["repairs"][0]["kind"], "reorder", "{j}");
    let o = run(&["localize", &rel, "--repair", "--faults", "2"]);
    assert_eq!(o.status.code(), Some(2));
    assert!(stderr(&o).contains("--faults"), "{}", stderr(&o));
}

/// A repair search the time limit cut short, with nothing verified, is no answer (exit 3),
/// never "no repair exists" (exit 1).
#[test]
fn running_out_of_time_is_no_answer() {
    let rel = format!("{DIR}/always_fails.c");
    for limit in ["1", "2", "4"] {
        let o = run(&["repair", &rel, "--format", "json", "--timeout", limit]);
        let j = json(&o);
        let none = j["repairs"].as_array().is_none_or(|a| a.is_empty());
        if o.status.code() == Some(1) {
            assert!(
                j["complete"] == true || !none,
                "exit 1 with an incomplete search and no repair: {j}"
            );
        } else {
            assert_eq!(o.status.code(), Some(3), "{j}");
        }
    }
}

/// A primitive of the wrong kind or count (`benchmarks/primitives/`) is repaired in one
/// word of its call, before any new lock: the patch changes exactly the faulty line, and
/// the patched program has no failure and no deadlock.
#[test]
fn primitive_repairs_change_one_word_of_the_faulty_call() {
    let tasks = [
        (
            "ledger_reader_lock_write",
            34,
            "pthread_rwlock_wrlock(&ledger_lock);",
        ),
        ("pool_semaphore_count", 42, "sem_init(&printers, 0, 1);"),
        (
            "signal_one_of_two_waiters",
            44,
            "pthread_cond_broadcast(&gate_open);",
        ),
        (
            "tally_trylock_unchecked",
            30,
            "pthread_mutex_lock(&tally_lock);",
        ),
        (
            "stage_barrier_count",
            37,
            "pthread_barrier_init(&meet, 0, 2);",
        ),
        ("journal_mutex_type", 55, "PTHREAD_MUTEX_RECURSIVE);"),
    ];
    let results = parallel(&tasks, |(t, _, _)| {
        let rel = format!("benchmarks/primitives/{t}.c");
        let o = run(&["repair", &rel, "--format", "json", "--max-rounds", "4"]);
        (rel, o.status.code(), json(&o))
    });
    for ((t, line, want), (rel, code, j)) in tasks.iter().zip(results) {
        assert_eq!(code, Some(1), "{t}");
        let r = &j["repairs"][0];
        assert_eq!(r["kind"], "primitive", "{t}: {r}");
        let patch = r["patch"].as_str().unwrap_or_default();
        let removed: Vec<&str> = patch
            .lines()
            .filter(|l| l.starts_with('-') && !l.starts_with("---"))
            .collect();
        let added: Vec<&str> = patch
            .lines()
            .filter(|l| l.starts_with('+') && !l.starts_with("+++"))
            .collect();
        assert_eq!((removed.len(), added.len()), (1, 1), "{t}:\n{patch}");
        assert!(added[0].contains(want), "{t}: line {line}:\n{patch}");
        let dir = tempfile::tempdir().expect("tempdir");
        let patched = apply(&rel, patch, dir.path());
        let p = patched.display().to_string();
        let o = run(&["check", &p, "--property", "all", "--max-rounds", "4"]);
        assert_eq!(o.status.code(), Some(0), "{t}: {}", stdout(&o));
    }
}

/// A global's wrong start value is repaired where it is declared, in one word, and the
/// patched program passes in every execution.
#[test]
fn a_wrong_start_value_is_repaired_at_its_declaration() {
    let rel = "tests/programs/why/start_value_wrong.c";
    let o = run(&["repair", rel, "--format", "json"]);
    assert_eq!(o.status.code(), Some(1), "{}", stderr(&o));
    let j = json(&o);
    let r = &j["repairs"][0];
    assert_eq!(r["kind"], "primitive", "{r}");
    let patch = r["patch"].as_str().unwrap_or_default();
    assert!(patch.contains("-int jobs_left = 3;"), "{patch}");
    assert!(patch.contains("+int jobs_left = 2;"), "{patch}");
    let dir = tempfile::tempdir().expect("tempdir");
    let patched = apply(rel, patch, dir.path());
    let p = patched.display().to_string();
    let o = run(&["check", &p, "--property", "all"]);
    assert_eq!(o.status.code(), Some(0), "{}", stdout(&o));
}

/// A critical section split by an unlock and a relock around a slow call is repaired by
/// removing both, said in words (not as the spanned texts), and the patched program
/// passes in every execution.
#[test]
fn a_split_critical_section_is_repaired_as_one() {
    let rel = "tests/programs/why/token_cache.c";
    let o = run(&["repair", rel, "--format", "json"]);
    assert_eq!(o.status.code(), Some(1), "{}", stderr(&o));
    let j = json(&o);
    let r = &j["repairs"][0];
    assert_eq!(
        r["summary"],
        "one critical section at line 25 of `token_for`: the unlock and the lock of line 27 removed",
        "{r}"
    );
    let patch = r["patch"].as_str().unwrap_or_default();
    assert!(
        patch.contains("-        pthread_mutex_unlock(&c->lock);"),
        "{patch}"
    );
    assert!(
        patch.contains("-        pthread_mutex_lock(&c->lock);"),
        "{patch}"
    );
    let dir = tempfile::tempdir().expect("tempdir");
    let patched = apply(rel, patch, dir.path());
    let p = patched.display().to_string();
    let o = run(&["check", &p, "--property", "all"]);
    assert_eq!(o.status.code(), Some(0), "{}", stdout(&o));
}
