//! What a user reads names things as their source does (issue 27, "Words"): no variable
//! copy seqloc made (`t_1`, `mine_1`, `__atomic_value`), no encoding of a mutex, no value
//! of a thread handle before `pthread_create` wrote it, counts with their plurals. The
//! programs are in `tests/programs/words/`.

mod common;

use common::*;

const DIR: &str = "tests/programs/words";

fn check(file: &str, extra: &[&str]) -> std::process::Output {
    let path = format!("{DIR}/{file}");
    let mut args = vec!["check", path.as_str()];
    args.extend_from_slice(extra);
    run(&args)
}

/// The names seqloc gives a thread's copies (`t_1`) or its own temporaries.
fn made_up_names(text: &str) -> Vec<String> {
    text.split(|c: char| !(c.is_ascii_alphanumeric() || c == '_'))
        .filter(|w| {
            w.starts_with("__t")
                // The front end's temporaries around an atomic operation (the
                // source's own `__atomic_load` calls are the user's words).
                || ["atomic_value", "atomic_old", "atomic_result"]
                    .iter()
                    .any(|t| w.contains(t))
                || ["t_", "v_", "k_", "mine_"].iter().any(|p| {
                    w.strip_prefix(p)
                        .is_some_and(|n| !n.is_empty() && n.chars().all(|c| c.is_ascii_digit()))
                })
        })
        .map(str::to_string)
        .collect()
}

#[test]
fn traces_and_hints_name_variables_as_the_source_does() {
    for file in ["race.c", "tlsbug.c", "atomicbug.c", "staticlocal.c"] {
        let o = check(file, &[]);
        assert_eq!(o.status.code(), Some(1), "{file}: {}", stderr(&o));
        let text = stdout(&o);
        assert!(made_up_names(&text).is_empty(), "{file}:\n{text}");
        let o = check(file, &["--format", "json"]);
        let j = json(&o);
        let trace = j["trace"].to_string();
        assert!(made_up_names(&trace).is_empty(), "{file}: {trace}");
        let path = format!("{DIR}/{file}");
        let o = run(&["localize", &path, "--format", "json"]);
        assert_eq!(o.status.code(), Some(1), "{file}: {}", stderr(&o));
        let hints: Vec<String> = json(&o)["candidates"]
            .as_array()
            .into_iter()
            .flatten()
            .map(|c| c["hint"].to_string())
            .collect();
        assert!(!hints.is_empty(), "{file}");
        for h in hints {
            assert!(made_up_names(&h).is_empty(), "{file}: {h}");
        }
    }
    let text = stdout(&check("race.c", &[]));
    assert!(text.contains("t = 0"), "{text}");
    assert!(text.contains("counter == 2 is false"), "{text}");
    let text = stdout(&check("tlsbug.c", &[]));
    assert!(text.contains("mine = 1"), "{text}");
}

#[test]
fn a_thread_handle_before_pthread_create_is_no_input() {
    let o = check("race.c", &[]);
    let text = stdout(&o);
    assert!(!text.contains("Inputs:"), "{text}");
    let o = check("race.c", &["--format", "json"]);
    let j = json(&o);
    assert_eq!(j["inputs"].as_array().map(Vec::len), Some(0), "{j}");
    // The schedule keeps them: a replay reads the declarations' values by occurrence.
    assert_eq!(
        j["schedule"]["inputs"].as_array().map(Vec::len),
        Some(2),
        "{j}"
    );
    let dir = tempfile::tempdir().unwrap_or_else(|e| panic!("{e}"));
    let schedule = dir.path().join("s.json");
    std::fs::write(&schedule, j["schedule"].to_string()).unwrap_or_else(|e| panic!("{e}"));
    let path = format!("{DIR}/race.c");
    let o = run(&[
        "localize",
        &path,
        "--schedule",
        schedule.to_str().unwrap_or_default(),
    ]);
    assert_eq!(o.status.code(), Some(1), "{}", stderr(&o));
}

#[test]
fn a_mutex_is_shown_free_or_held_not_as_its_encoding() {
    let o = check("deadlock.c", &[]);
    assert_eq!(o.status.code(), Some(1), "{}", stderr(&o));
    let text = stdout(&o);
    assert!(text.contains("a: held by T1"), "{text}");
    assert!(text.contains("b: held by T2"), "{text}");
    assert!(!text.contains("b = 3"), "{text}");
}

#[test]
fn counts_of_one_are_singular() {
    let o = check("one_thread.c", &[]);
    assert_eq!(o.status.code(), Some(1), "{}", stderr(&o));
    let text = stdout(&o);
    assert!(text.contains("(1 thread, 0 context switches)"), "{text}");
    for wrong in [
        "1 threads",
        "1 rounds",
        "1 context switches",
        "1 thread slots",
    ] {
        assert!(!text.contains(wrong), "{wrong}:\n{text}");
    }
}

#[test]
fn parse_lists_an_assertion_as_the_user_wrote_it() {
    let path = format!("{DIR}/race.c");
    let o = run(&["parse", &path, "--json"]);
    assert!(o.status.success(), "{}", stderr(&o));
    let j = json(&o);
    let a = &j["assertions"][0];
    assert_eq!(a["text"], "assert(counter == 2)", "{j}");
    assert_eq!(a["kind"], "assertion", "{j}");
    let text = stdout(&run(&["parse", &path]));
    assert!(text.contains("assert(counter == 2)"), "{text}");
    assert!(!text.contains("__assert_fail"), "{text}");
}
