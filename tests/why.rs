//! `localize` says why the failure happens: the closest passing schedule among the
//! failing schedule's neighbours and the data flows that differ (the `why` block of the
//! text report and the `why` field of the JSON), and ranks the accesses of those flows
//! first. The programs are in `tests/programs/why/`; their faulty lines are in their
//! comments.

mod common;

use common::*;

fn localize_json(program: &str) -> serde_json::Value {
    let o = run(&["localize", program, "--format", "json"]);
    assert_eq!(o.status.code(), Some(1), "{program}: {}", stderr(&o));
    json(&o)
}

/// The flows of the projection as (read line, variable, failing source line, passing
/// source line), 0 for the initial value.
fn flows(report: &serde_json::Value) -> Vec<(u64, String, u64, u64)> {
    let line = |w: &serde_json::Value| w["line"].as_u64().unwrap_or(0);
    report["why"]["projection"]
        .as_array()
        .map(|a| {
            a.iter()
                .map(|f| {
                    (
                        f["read"]["line"].as_u64().unwrap_or(0),
                        f["read"]["variable"].as_str().unwrap_or("").to_string(),
                        line(&f["failing_source"]),
                        line(&f["passing_source"]),
                    )
                })
                .collect()
        })
        .unwrap_or_default()
}

/// The writer publishes the flag before the value: the reader's read of `total` saw the
/// initial value, and in the passing schedule sees the write at line 16 — which the
/// failing run never reached before the check, so only the projection can name it.
#[test]
fn a_write_that_came_too_late_is_named_by_the_projection() {
    let r = localize_json("tests/programs/why/late_total.c");
    assert_eq!(
        flows(&r),
        vec![(25, "total".to_string(), 0, 16)],
        "{:#}",
        r["why"]
    );
    assert!(r["why"]["failing_flows"].as_u64().unwrap_or(0) >= 1);
    assert!(
        r["why"]["passing_interleaving"]
            .as_str()
            .is_some_and(|s| s.contains("T1 writer")),
        "{:#}",
        r["why"]
    );
    let cands = r["candidates"].as_array().expect("candidates");
    let late = cands
        .iter()
        .find(|c| c["line"] == 16)
        .expect("the late write is a candidate");
    assert_eq!(late["kind"], "flow");
    // The projection's lines (the read and the late write) come first.
    let top: Vec<u64> = candidate_lines(&r).into_iter().take(2).collect();
    assert!(top.contains(&16) && top.contains(&25), "{top:?}");
    // The text report says the same in words.
    let o = run(&["localize", "tests/programs/why/late_total.c"]);
    let text = stdout(&o);
    assert!(
        text.contains("T2 reader's read of `total` at line 25 saw the initial value; passing, it sees T1 writer's write at line 16"),
        "{text}"
    );
}

/// One thread adds through a pointer, the other directly: the events name the same
/// object (`c.hits`), so the lost update shows as a flow between the two threads, and the
/// racing lines rank above `main`'s check (the ordering analysis's candidates may come
/// first: they rank above the projection).
#[test]
fn an_access_through_a_pointer_races_with_the_direct_one() {
    let r = localize_json("tests/programs/why/shared_through_pointer.c");
    let f = flows(&r);
    assert!(!f.is_empty(), "{:#}", r["why"]);
    assert!(f.iter().all(|(_, v, _, _)| v == "c.hits"), "{f:?}");
    assert!(
        f.iter()
            .any(|(read, _, a, b)| [*read, *a, *b].contains(&11) && [*read, *a, *b].contains(&24)),
        "{f:?}"
    );
    let lines = candidate_lines(&r);
    let at = |l: u64| lines.iter().position(|x| *x == l).unwrap_or(usize::MAX);
    assert!(at(11) < at(35) && at(24) < at(35), "{lines:?}");
    assert!(at(11) < 3 && at(24) < 3, "{lines:?}");
}

/// No failure, nothing to explain: no `why`.
#[test]
fn a_program_without_failure_has_no_why() {
    let dir = tempfile::tempdir().expect("tempdir");
    let p = dir.path().join("fine.c");
    std::fs::write(
        &p,
        "#include <pthread.h>\n#include <assert.h>\nint x;\nvoid *w(void *a) { (void)a; x = 1; return 0; }\nint main(void) { pthread_t t; pthread_create(&t, 0, w, 0); pthread_join(t, 0); assert(x == 1); return 0; }\n",
    )
    .expect("write");
    let o = run(&["localize", p.to_str().expect("utf-8"), "--format", "json"]);
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    assert!(json(&o)["why"].is_null());
}
