//! `seqloc repair`: every repair it prints has been re-checked, and this test checks it
//! again from the outside, as a user would: the patch applies with `patch -p1` to a copy of
//! the original, compiles with `gcc -Wall -Werror`, and `seqloc check` on the patched
//! program finds no failure and no deadlock. The programs are in `tests/programs/repair/`;
//! each says on its first line whether a repair exists (`expect: repair`), the program is
//! correct (`expect: no-failure`) or no synchronization change can help
//! (`expect: no-repair`).

mod common;

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

/// Applies `patch` to a copy of `rel` in a fresh directory and returns the patched file.
fn apply(rel: &str, patch: &str, dir: &Path) -> std::path::PathBuf {
    let dst = dir.join(rel);
    std::fs::create_dir_all(dst.parent().expect("a parent")).expect("mkdir");
    std::fs::copy(root().join(rel), &dst).expect("copy");
    let mut child = Command::new("patch")
        .args(["-p1", "--quiet"])
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
    let (_, j) = repair_json(&format!("{DIR}/opposite_regions.c"));
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
