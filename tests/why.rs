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

/// `localize_json` with every property checked (deadlocks too).
fn localize_all_json(program: &str) -> serde_json::Value {
    let o = run(&["localize", program, "--property", "all", "--format", "json"]);
    assert_eq!(o.status.code(), Some(1), "{program}: {}", stderr(&o));
    json(&o)
}

/// The first candidate of `r`, checked to be on `line` and to say `hint`.
fn first_names(r: &serde_json::Value, line: u64, hint: &str) -> serde_json::Value {
    let cands = r["candidates"].as_array().cloned().unwrap_or_default();
    let first = cands.first().cloned().expect("a candidate");
    assert_eq!(first["line"], line, "{cands:#?}");
    assert!(
        first["hint"].as_str().is_some_and(|h| h.contains(hint)),
        "{first:#}"
    );
    first
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
    // The writer's two writes come first, in program order: the flag it raised (seen by
    // the reader) and the value it wrote only after it (a publication out of order).
    let top: Vec<u64> = candidate_lines(&r).into_iter().take(2).collect();
    assert_eq!(top, vec![15, 16]);
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

/// main starts a worker that only reads the configuration, then loads it (inside a
/// call): a use before initialisation. The creation is where the order is decided and
/// ranks first, the call that makes the write second. The passing run loops more than the
/// failing one (the worker counts up to the limit), so it needs a higher loop bound than
/// the failing replay: the `why` exists all the same.
#[test]
fn a_thread_started_before_its_creator_set_what_it_reads_names_the_creation() {
    let r = localize_json("tests/programs/why/config_after_spawn.c");
    assert!(!r["why"].is_null(), "no why: {r:#}");
    let lines = candidate_lines(&r);
    assert_eq!(lines.get(..2), Some(&[33, 34][..]), "{lines:?}");
    let first = &r["candidates"][0];
    assert_eq!(first["kind"], "ordering");
    let hint = first["hint"].as_str().unwrap_or("");
    assert!(
        hint.contains("creates T1 worker here, before its own write of `cfg.limit` at line 17 (made inside the call at line 34)"),
        "{hint}"
    );
}

/// The summing thread only reads the table its sibling fills, and main starts both at
/// once: starting the summer after the pricer is joined is the repair, and ranks first.
#[test]
fn a_reader_started_beside_the_thread_that_fills_its_data_names_its_creation() {
    let r = localize_json("tests/programs/why/totals_before_prices.c");
    let lines = candidate_lines(&r);
    assert_eq!(lines.first(), Some(&32), "{lines:?}");
    assert_eq!(r["candidates"][0]["kind"], "ordering");
}

/// main and its worker both update `hits` after the worker started: a race between
/// updates, not a use before initialisation — the creation is no ordering candidate and
/// the racing lines rank first.
#[test]
fn a_lost_update_after_a_creation_does_not_blame_the_creation() {
    let r = localize_json("tests/programs/why/counter_after_spawn.c");
    let lines = candidate_lines(&r);
    let top: Vec<u64> = lines.iter().copied().take(2).collect();
    assert!(top.contains(&11) && top.contains(&18), "{lines:?}");
    let cands = r["candidates"].as_array().expect("candidates");
    assert!(
        !cands
            .iter()
            .any(|c| c["line"] == 17 && c["kind"] == "ordering"),
        "{cands:#?}"
    );
}

/// The parser joins the reader inside the critical section whose end (and signal) the
/// reader waits for: the join holds the wake-up back and ranks first, before where the
/// parser took the lock (which a lock-order deadlock would rank first).
#[test]
fn a_join_that_holds_back_a_wake_up_ranks_first_in_its_deadlock() {
    let o = run(&[
        "localize",
        "tests/programs/why/stage_join_before_release.c",
        "--format",
        "json",
    ]);
    assert_eq!(o.status.code(), Some(1), "{}", stderr(&o));
    let r = json(&o);
    assert_eq!(r["verdict"], "deadlock");
    let lines = candidate_lines(&r);
    assert_eq!(lines.first(), Some(&28), "{lines:?}");
}

/// book() tests a seat under the lock, releases it to print the ticket and takes it back
/// to mark the seat: the unlock and the lock that split the check from the act rank
/// first, with words that say so.
#[test]
fn a_critical_section_split_between_check_and_act_names_its_unlock_and_lock() {
    let r = localize_json("tests/programs/why/seat_split_section.c");
    let lines = candidate_lines(&r);
    let top: Vec<u64> = lines.iter().copied().take(2).collect();
    assert!(top.contains(&25) && top.contains(&27), "{lines:?}");
    let unlock = r["candidates"]
        .as_array()
        .and_then(|c| c.iter().find(|c| c["line"] == 25))
        .expect("the unlock is a candidate");
    let hint = unlock["hint"].as_str().unwrap_or("");
    assert!(hint.contains("the section was split"), "{hint}");
}

/// A postman raises the reader's predicate and signals without the mutex the reader tests
/// it under: the lost wake-up is the postman's bare write (line 24), not the reader's wait.
/// Before the lockset rule the reader's test and wait ranked first and line 24 was no
/// candidate at all.
#[test]
fn a_write_without_the_lock_the_waiter_holds_ranks_first_in_its_deadlock() {
    let o = run(&[
        "localize",
        "tests/programs/why/mailbox_post_without_lock.c",
        "--format",
        "json",
    ]);
    assert_eq!(o.status.code(), Some(1), "{}", stderr(&o));
    let r = json(&o);
    let first = &r["candidates"][0];
    assert_eq!(first["line"], 24, "{:?}", candidate_lines(&r));
    assert_eq!(first["kind"], "locking");
    let hint = first["hint"].as_str().unwrap_or("");
    assert!(
        hint.contains("holding no lock") && hint.contains("box_lock"),
        "{hint}"
    );
}

/// A bare `hits = hits + 1` beside a locked read-modify-write of the same counter: the
/// update without the lock is the fault (it ranked second, after the locked read).
#[test]
fn an_update_beside_a_locked_one_without_its_lock_ranks_first() {
    let r = localize_json("tests/programs/why/hits_bare_increment.c");
    let first = &r["candidates"][0];
    assert_eq!(first["line"], 29, "{:?}", candidate_lines(&r));
    assert_eq!(first["kind"], "locking");
}

/// Reads that differ the same way (main summing an array in a loop, each element written
/// by a worker that had not run) are one line of the text report, with their count,
/// rather than the same line repeated.
#[test]
fn reads_that_differ_alike_are_one_line_of_the_why() {
    let o = run(&["localize", "tests/programs/repair/short_join_loop.c"]);
    assert_eq!(o.status.code(), Some(1), "{}", stderr(&o));
    let out = stdout(&o);
    let why: Vec<&str> = out
        .lines()
        .skip_while(|l| !l.starts_with("Why:"))
        .skip(1)
        .take_while(|l| !l.trim().is_empty())
        .filter(|l| l.contains("'s read of"))
        .collect();
    assert!(!why.is_empty(), "{out}");
    let mut seen = std::collections::HashSet::new();
    for l in &why {
        assert!(seen.insert(*l), "a repeated line in the why:\n{out}");
    }
    let j = localize_json("tests/programs/repair/short_join_loop.c");
    let flows = flows(&j).len();
    if flows > why.len() {
        assert!(why.iter().any(|l| l.contains("such reads)")), "{out}");
    }
}

/// A value fault every interleaving shows (a refund subtracted): main's preemption inside
/// its creation loop is no cause — run on, main blocks in its first join and the workers
/// run anyway. No interleaving candidate is claimed, and the faulty line ranks first.
#[test]
fn a_preemption_the_thread_would_have_blocked_at_anyway_is_no_cause() {
    let r = localize_json("tests/programs/why/refund_sign_creation_loop.c");
    let cands = r["candidates"].as_array().expect("candidates");
    assert!(
        !cands
            .iter()
            .any(|c| c["kind"] == "atomicity" || c["kind"] == "ordering"),
        "{cands:#?}"
    );
    assert_eq!(candidate_lines(&r).first(), Some(&21), "{cands:#?}");
}

/// A value fault every interleaving shows (a deposit subtracted), checked through a
/// helper that copies the balance after the joins: the helper's copy only carries the
/// value to the check, and the line that made it ranks first.
#[test]
fn the_checks_own_copy_ranks_after_the_line_that_made_the_value() {
    let r = localize_json("tests/programs/why/deposit_sign_helper_read.c");
    let lines = candidate_lines(&r);
    assert_eq!(lines.first(), Some(&16), "{lines:?}");
    let copy = lines.iter().position(|&l| l == 24);
    assert!(copy.is_some_and(|p| p > 0), "{lines:?}");
}

/// A race the failure does not read (the visit count, line 19) is in the same block as the
/// lost update; reordering the two tellers' blocks there passes, but what differs is the
/// balance: the balance's read and write-back rank first, the visit count after them.
#[test]
fn an_ordering_on_a_location_the_failure_does_not_read_ranks_after_the_race() {
    let r = localize_json("tests/programs/why/visits_then_balance.c");
    let lines = candidate_lines(&r);
    let top: Vec<u64> = lines.iter().copied().take(2).collect();
    assert!(top.contains(&20) && top.contains(&21), "{lines:?}");
}

/// A thread whose block before the switch shows no step (it only signalled) is not said
/// to have been preempted after its last line: the trace does not show where it was.
#[test]
fn a_preemption_the_trace_does_not_show_names_no_line() {
    let r = localize_all_json("tests/programs/why/wake_before_state.c");
    assert_eq!(r["verdict"], "deadlock");
    let text = r.to_string();
    assert!(!text.contains("preempted after line 29"), "{text}");
    let cands = r["candidates"].as_array().cloned().unwrap_or_default();
    assert!(
        !cands.iter().any(|c| c["line"] == 29),
        "the thread's return is no candidate: {cands:?}"
    );
}

/// A thread handed the address of its creator's loop counter: the creation is named
/// first, as the cause, because giving each thread its own copy removes the failure from
/// every execution — the loop header and the thread's read only carry it.
#[test]
fn a_thread_given_its_creators_loop_counter_names_the_creation() {
    let r = localize_json("tests/programs/why/loop_counter_address.c");
    let first = first_names(&r, 27, "a copy of its own for each thread, not `&i`");
    assert_eq!(first["cause"], true, "{first:#}");
    // The read through the argument is not told apart from the main thread's own reads
    // of `i`: the passing run differs in no flow seqloc follows, and says so rather than
    // "differs in 0 of N".
    let o = run(&["localize", "tests/programs/why/loop_counter_address.c"]);
    let text = stdout(&o);
    assert!(!text.contains("differs in 0 of"), "{text}");
    assert!(
        !text.contains("keeps the most of the failing run's orderings (5 of 5)")
            || text.contains("keeps every ordering seqloc follows"),
        "{text}"
    );
}

/// A wrong start value at a global's declaration is a candidate, and a one-token change
/// of it that makes every execution pass moves it before the lines that only carry it.
#[test]
fn a_globals_wrong_start_value_is_a_candidate() {
    let r = localize_json("tests/programs/why/start_value_wrong.c");
    let cands = r["candidates"].as_array().cloned().unwrap_or_default();
    let decl = cands
        .iter()
        .find(|c| c["line"] == 13)
        .unwrap_or_else(|| panic!("line 13 is no candidate: {cands:#?}"));
    assert!(decl["rank"].as_u64().is_some_and(|r| r <= 2), "{cands:#?}");
    assert!(
        decl["hint"]
            .as_str()
            .is_some_and(|h| h.contains("`jobs_left` started at") && h.contains("`2` for `3`")),
        "{decl:#}"
    );
    // The thread's decrement only carries the wrong count.
    let decrement = cands.iter().position(|c| c["line"] == 20);
    let at = cands.iter().position(|c| c["line"] == 13);
    assert!(at < decrement || decrement.is_none(), "{cands:#?}");
}

/// A wake-up sent before the flag it announces is set: the deadlock's cause is where the
/// signal stands, and moving it down is what the explorer proves.
#[test]
fn a_signal_before_the_change_it_announces_names_the_signal() {
    let r = localize_all_json("tests/programs/why/wake_before_flag.c");
    assert_eq!(r["verdict"], "deadlock");
    let first = first_names(
        &r,
        23,
        "`pthread_cond_signal(&table_ready);` moved after line",
    );
    assert_eq!(first["cause"], true, "{first:#}");
}

/// Two threads handed the same slot: the creation that repeats the argument comes first.
#[test]
fn a_thread_handed_anothers_argument_names_the_repeating_creation() {
    let r = localize_json("tests/programs/why/one_slot_twice.c");
    first_names(&r, 31, "handed the wrong argument: `1` for `0`");
}

/// A thread that leaves by a `return` skipping the post it makes on its other path: the
/// `return` is named, before the semaphore's start value (which would "fix" it by letting
/// the collector go on without any post).
#[test]
fn a_way_out_that_skips_the_post_is_named() {
    let r = localize_all_json("tests/programs/why/skipped_post.c");
    assert_eq!(r["verdict"], "deadlock");
    let first = first_names(
        &r,
        21,
        "without the wake-up of `loaded` it makes at line 18",
    );
    assert_eq!(first["cause"], true, "{first:#}");
}

/// A thread holding a mutex calls a helper that locks it again: the call is named.
#[test]
fn a_call_that_relocks_a_held_mutex_is_named() {
    let r = localize_all_json("tests/programs/why/relock_through_helper.c");
    assert_eq!(r["verdict"], "deadlock");
    first_names(&r, 34, "a self-deadlock");
}

/// A writer's loop that posts one chunk fewer than the reader waits for: no value of
/// its test avoids the deadlock along the schedule; the verified change of the test does.
#[test]
fn a_loop_that_posts_too_few_times_is_named() {
    let r = localize_all_json("tests/programs/why/chunks_short.c");
    assert_eq!(r["verdict"], "deadlock");
    first_names(&r, 16, "wakes the other threads the wrong number of times");
}

/// A condition wait that tests the wrong flag.
#[test]
fn a_wait_for_the_wrong_flag_is_named() {
    let r = localize_json("tests/programs/why/wait_for_wrong_flag.c");
    first_names(&r, 34, "`ready` for `loading`");
}

/// A result read before the join of the thread that writes it (through a pointer to
/// its slot): the read and the join are named.
#[test]
fn a_read_before_the_join_names_the_read_and_the_join() {
    let r = localize_json("tests/programs/why/result_before_join.c");
    first_names(&r, 36, "before it joins T2 count_evens at line 37");
    let second = r["candidates"][1].clone();
    assert_eq!(second["line"], 37, "{second:#}");
    // The write through `j->evens` is named by the element it writes.
    assert!(
        flows(&r)
            .iter()
            .any(|(read, var, _, passing)| *read == 36 && var == "jobs[1].evens" && *passing == 23),
        "{:?}",
        flows(&r)
    );
}

/// A lightswitch whose test waits for the second viewer instead of the first: no value
/// of the test avoids the failure along the schedule (the first viewer would wait for
/// the gallery the cleaner holds); the verified change of the test does.
#[test]
fn a_test_deciding_whether_a_thread_waits_is_named() {
    let r = localize_json("tests/programs/why/lightswitch_guard.c");
    first_names(&r, 18, "decides wrongly whether the thread waits");
}

/// A creating loop that hands every thread slot 0 through a local pointer.
#[test]
fn a_constant_slot_in_a_creating_loop_is_named() {
    let r = localize_json("tests/programs/why/orders_one_slot.c");
    first_names(&r, 30, "`i` for `0`");
}

/// A synchronization object declared inside the function the threads run: each thread
/// has its own; the declaration is named (a mutex here, a once control below).
#[test]
fn a_mutex_each_thread_declares_for_itself_is_named() {
    let r = localize_json("tests/programs/why/local_mutex.c");
    let first = first_names(&r, 11, "each has its own `guard`");
    assert_eq!(first["cause"], true, "{first:#}");
}

/// A critical section split between check and act whose act re-tests the copy made
/// before the unlock: the stale test is named first, before the unlock and the lock.
#[test]
fn a_stale_test_in_a_section_taken_back_is_named() {
    let r = localize_json("tests/programs/why/stale_recheck.c");
    first_names(&r, 22, "tests `open` here, a copy it made at line 17");
    let lines = candidate_lines(&r);
    assert!(lines.iter().take(3).any(|l| *l == 21), "{lines:?}");
}

/// A changed value that avoids the failure only through an access outside its array
/// (`box[-1]`) is no repair: the diagnosis model keeps every access in bounds, so the
/// index line is no candidate and no hint names such a value.
#[test]
fn no_value_hint_reaches_outside_an_array() {
    let r = localize_json("tests/programs/why/index_in_bounds.c");
    let cands = r["candidates"].as_array().cloned().unwrap_or_default();
    assert!(
        cands.iter().any(|c| c["line"] == 15),
        "the producer's late write is named: {cands:#?}"
    );
    assert!(
        cands.iter().all(|c| c["line"] != 22),
        "the index line is only a fix through box[-1]: {cands:#?}"
    );
}

/// A thread handle's value is the library's: "had `r` been set to 1" at the line that
/// creates the reader makes `main` join the writer twice and leave the blocked reader
/// behind, which only hides the deadlock. No handle is a site, so the creation line is
/// no value candidate.
#[test]
fn no_value_hint_makes_up_a_thread_handle() {
    let r = localize_all_json("tests/programs/why/chunks_short.c");
    let cands = r["candidates"].as_array().cloned().unwrap_or_default();
    assert!(
        cands.iter().any(|c| c["line"] == 16),
        "the writer's loop is named: {cands:#?}"
    );
    for c in &cands {
        let hint = c["hint"].as_str().unwrap_or("");
        assert!(
            !(hint.contains("`r` been set") || hint.contains("`w` been set")),
            "a made-up thread id: {c:#}"
        );
    }
}

/// A binary semaphore taken and given back around a section is a lock: the auditor's
/// read made without it is named as the access that must take it, and no sentence says
/// the updater's section "belongs in one critical section" — it is one already.
#[test]
fn a_binary_semaphore_section_is_a_lock() {
    let r = localize_json("tests/programs/why/semaphore_section.c");
    first_names(&r, 26, "must hold `gate` here too");
    for c in r["candidates"].as_array().into_iter().flatten() {
        let hint = c["hint"].as_str().unwrap_or("");
        assert!(
            !hint.contains("belongs in the same critical section")
                && !hint.contains("need to run atomically"),
            "{c:#}"
        );
    }
}

/// A store copied from another function unchanged (`hits = hits + 1` in the miss path)
/// leaves the variable meant written nowhere: no value stored there fixes it, the store's
/// target does, and the copy in the function named like that variable comes first.
#[test]
fn a_store_to_the_wrong_variable_is_named() {
    let r = localize_json("tests/programs/why/copied_store.c");
    let first = first_names(&r, 22, "this store writes the wrong variable");
    assert_eq!(
        first["fixed_by"],
        "`misses = misses + 1` for `hits = hits + 1` at column 5"
    );
}

/// Two sections under different mutexes: the one under the lock the rest of the program
/// does not take around that data (`log_lock` in hold(), where restock() and count() take
/// `inv_lock`) is the slip, and comes first.
#[test]
fn the_odd_lock_out_comes_first() {
    let r = localize_json("tests/programs/why/odd_lock_out.c");
    first_names(&r, 24, "takes `log_lock` here");
    let cands = r["candidates"].as_array().cloned().unwrap_or_default();
    assert!(cands.iter().any(|c| c["line"] == 37), "{cands:#?}");
}

/// A thread preempted inside its condition wait gave its mutex up by design: the
/// switch is named, with no advice to make the wait atomic. The signal that should
/// have been a broadcast comes first.
#[test]
fn a_switch_inside_a_condition_wait_asks_for_no_atomic_section() {
    let r = localize_all_json("tests/programs/why/gate_signal_one.c");
    first_names(&r, 27, "`pthread_cond_broadcast` for `pthread_cond_signal`");
    let cands = r["candidates"].as_array().cloned().unwrap_or_default();
    let wait = cands
        .iter()
        .find(|c| c["line"] == 14)
        .expect("the wait's switch is named");
    let hint = wait["hint"].as_str().unwrap_or("");
    assert!(
        hint.contains("inside its condition wait at line 14"),
        "{wait:#}"
    );
    assert!(!hint.contains("atomically"), "{wait:#}");
}

/// A thread that never ran before the failure has no block to move: its code says what
/// it writes, and the run with it first passes. The creation of the thread that used
/// the table too early is named first.
#[test]
fn a_thread_that_never_ran_names_the_early_creation() {
    let r = localize_json("tests/programs/why/table_loader_unstarted.c");
    first_names(&r, 38, "before T1 loader has reached line 18");
}

/// A statement of a helper that ran too early is named at the helper's call in the
/// thread's own code, first; the helper's line stays a candidate.
#[test]
fn a_helper_that_ran_too_early_is_named_at_its_call() {
    let r = localize_json("tests/programs/why/reset_before_join.c");
    first_names(
        &r,
        43,
        "makes the call into `meter_retire` here, whose line 15",
    );
    let cands = r["candidates"].as_array().cloned().unwrap_or_default();
    assert!(cands.iter().any(|c| c["line"] == 15), "{cands:#?}");
}

/// Of two sections under different mutexes, each taken by one function around the
/// count, the one whose mutex also guards other data (the belt) borrowed it; the
/// section's lock is paired with its own access (line 36), not with an access of
/// another section.
#[test]
fn a_lock_that_guards_other_data_is_the_borrowed_one() {
    let r = localize_json("tests/programs/why/borrowed_lock.c");
    first_names(&r, 35, "around its access at line 36");
    let cands = r["candidates"].as_array().cloned().unwrap_or_default();
    let other = cands
        .iter()
        .find(|c| c["line"] == 23)
        .expect("the painter's lock is named too");
    assert!(
        other["hint"]
            .as_str()
            .is_some_and(|h| h.contains("around its access at line 24")),
        "{other:#}"
    );
}

/// A thread preempted inside `sum += v` after its unlock: the one-line region comes
/// before the reorderings of the locked sections beside it, which only ran in some order.
#[test]
fn a_statement_split_by_a_switch_comes_before_ordered_sections() {
    let r = localize_json("tests/programs/why/sum_after_unlock.c");
    first_names(&r, 23, "was preempted inside line 23");
}

/// Preempted inside the first setter's call, the thread's own code shows the boundary
/// at the call: the two calls were meant as one update.
#[test]
fn a_switch_inside_a_callee_names_the_call_first() {
    let r = localize_json("tests/programs/why/two_setters.c");
    first_names(&r, 27, "was preempted after line 14");
    let lines: Vec<u64> = r["candidates"]
        .as_array()
        .cloned()
        .unwrap_or_default()
        .iter()
        .filter_map(|c| c["line"].as_u64())
        .collect();
    assert!(lines.iter().take(3).any(|l| *l == 28), "{lines:?}");
}

/// A check made through a helper that locks on its own, and an act under the lock taken
/// again: the test in the caller, where the thread resumed, is the boundary named first.
#[test]
fn a_check_through_a_locking_helper_names_the_test() {
    let r = localize_json("tests/programs/why/stock_via_helper.c");
    first_names(&r, 22, "preempted between line 16 and line 22");
}

/// A C11 atomic flag read without the lock is by design, no missing lock: the flag
/// raised before the data it announces is named first.
#[test]
fn an_atomic_read_without_a_lock_is_no_missing_lock() {
    let r = localize_json("tests/programs/why/atomic_ready_first.c");
    first_names(&r, 19, "writes `ready` here");
    let cands = r["candidates"].as_array().cloned().unwrap_or_default();
    assert!(
        !cands.iter().any(|c| c["hint"]
            .as_str()
            .is_some_and(|h| h.contains("holding no lock"))),
        "{cands:#?}"
    );
}

/// The call of a helper whose statement ran too early takes the order's words where
/// it was only a value candidate ("had `b` been NULL").
#[test]
fn a_helpers_call_named_as_a_value_takes_the_orders_words() {
    let r = localize_json("tests/programs/why/reset_before_join.c");
    let first = first_names(&r, 43, "this call must wait for T1 ticker");
    assert_eq!(first["kind"], "ordering", "{first:#}");
}

/// A helper's call that takes an order's words keeps the order's place: after the
/// boundary of the region the thread was preempted inside (`carry` lets go of one
/// room's lock before it takes the other's), not ahead of it as its value would be.
#[test]
fn a_helpers_call_with_the_orders_words_ranks_after_the_violated_region() {
    let r = localize_json("tests/programs/why/shelf_restock.c");
    let first = first_names(&r, 31, "preempted after line 31");
    assert_eq!(first["kind"], "atomicity", "{first:#}");
}

/// A thread that tests under the lock, lets it go and then uses what it tested
/// without it: the unlock is where its section ended too early.
#[test]
fn a_section_released_before_the_use_it_guards_names_the_unlock() {
    let r = localize_json("tests/programs/why/lease_expire.c");
    let first = first_names(&r, 31, "the critical section ended too early");
    assert_eq!(first["kind"], "atomicity", "{first:#}");
}

/// An update put inside a section that is mostly about other data, under that data's
/// lock, while every other access of it takes another lock: the update is named
/// first, not the section's lock, which is right for its own data.
#[test]
fn an_update_under_another_datas_lock_is_named_before_that_lock() {
    let r = localize_json("tests/programs/why/index_counter.c");
    let first = first_names(&r, 27, "this access belongs under `count_lock`");
    assert_eq!(first["kind"], "locking", "{first:#}");
}

/// A barrier made for fewer threads than wait at it lets `main` through with one
/// scanner: its `pthread_barrier_init` is named first.
#[test]
fn a_barrier_made_for_too_few_threads_names_its_init() {
    let r = localize_json("tests/programs/why/stage_barrier.c");
    first_names(&r, 34, "a barrier made for too few threads");
}

/// The reader tests the flag through a helper that returns a copy of it: the flag
/// raised before the data is still the publication out of order.
#[test]
fn a_flag_tested_through_a_helpers_return_is_published_early() {
    let r = localize_json("tests/programs/why/ready_helper.c");
    first_names(&r, 24, "publish after the data is written");
}

/// A load and a store of one atomic in a helper (a read-modify-write split in two) is a
/// lost update: the pair is named as the region, not the call of the helper that ran too
/// early, and not the store alone (preempted between its operands and the store, the
/// thread was preempted before the line).
#[test]
fn an_atomic_load_and_store_pair_is_no_call_made_too_early() {
    let r = localize_json("tests/programs/why/visit_counter.c");
    first_names(&r, 16, "lines 15–16 need to run atomically");
}

/// Double-checked initialisation with the flag raised before the data: the unlocked
/// first test is the idiom's fast path, so the flag's early write is named first, not a
/// lock missing at the test.
#[test]
fn a_double_checked_flag_raised_before_its_data_is_published_early() {
    let r = localize_json("tests/programs/why/lazy_settings.c");
    first_names(&r, 20, "publish after the data is written");
}

/// A `trylock` whose failure path still touches the data: that unlocked access is
/// named, before the blocking lock that would never take the path.
#[test]
fn a_trylock_failure_path_without_the_lock_is_named() {
    let r = localize_json("tests/programs/why/trylock_backlog.c");
    let first = first_names(&r, 19, "holding no lock");
    assert_eq!(first["kind"], "locking", "{first:#}");
}

/// A trylock whose result is dropped: the printer that lost the race goes on and, at the
/// end, unlocks the spool the other printer holds. The attempt is named first, with the
/// unlock that freed the other's section; the unlock itself is named too.
#[test]
fn a_dropped_trylock_that_unlocks_the_holders_mutex_is_named() {
    let r = localize_json("tests/programs/why/claim_ignored.c");
    let first = first_names(&r, 14, "unlocked `spool_lock` at line 18");
    assert_eq!(first["kind"], "locking", "{first:#}");
    let cands = r["candidates"].as_array().cloned().unwrap_or_default();
    assert!(
        cands.iter().any(|c| c["line"] == 18
            && c["hint"]
                .as_str()
                .is_some_and(|h| h.contains("without holding it"))),
        "{cands:#?}"
    );
}

/// Opposite transfers take two accounts' locks through a `lock_account` helper: the
/// deadlock names the helper's calls in the mover (where the order is decided), not the
/// lock inside the helper that every take goes through.
#[test]
fn a_deadlock_through_a_lock_helper_names_the_callers_calls() {
    let r = localize_all_json("tests/programs/why/transfer_lock_helpers.c");
    assert_eq!(r["verdict"], "deadlock");
    let lines: Vec<u64> = r["candidates"]
        .as_array()
        .map(|a| a.iter().filter_map(|c| c["line"].as_u64()).collect())
        .unwrap_or_default();
    let mut first_two = lines.get(..2).map(<[u64]>::to_vec).unwrap_or_default();
    first_two.sort_unstable();
    assert_eq!(first_two, vec![19, 20], "{lines:?}");
}

/// A block-scope `static` total in a helper both workers call: the declaration is named
/// first (without `static`, each call has its own), before the accesses where it races.
#[test]
fn a_static_scratch_variable_shared_by_threads_names_its_declaration() {
    let r = localize_json("tests/programs/why/static_scratch.c");
    let first = first_names(&r, 8, "declared `static` inside `score`");
    assert_eq!(first["kind"], "atomicity", "{first:#}");
}

/// `take` returns early on an empty mailbox without the unlock at its end, and the
/// reader's next poll locks the mutex it still holds: the early `return` is named first.
#[test]
fn an_early_return_that_skips_the_unlock_ranks_first_in_its_deadlock() {
    let r = localize_all_json("tests/programs/why/early_return_lock.c");
    assert_eq!(r["verdict"], "deadlock");
    first_names(&r, 15, "skipping the unlock");
}

/// The shutdown joins its workers through a helper while it holds the lock they need:
/// the helper's call, whose caller unlocks only after it, is named first.
#[test]
fn a_join_helper_called_holding_the_lock_ranks_first_in_its_deadlock() {
    let r = localize_all_json("tests/programs/why/join_helper_holding.c");
    assert_eq!(r["verdict"], "deadlock");
    let cands = r["candidates"].as_array().cloned().unwrap_or_default();
    assert_eq!(
        cands.first().map(|c| c["line"].clone()),
        Some(33.into()),
        "{cands:#?}"
    );
}

/// A leaving car frees its space and signals a condition variable nobody waits on, while
/// the waiting car sleeps on one nothing signals: the signal is named first.
#[test]
fn a_signal_to_the_wrong_condition_variable_ranks_first_in_its_deadlock() {
    let r = localize_all_json("tests/programs/why/wrong_condition_signal.c");
    assert_eq!(r["verdict"], "deadlock");
    let first = first_names(&r, 25, "wrong condition variable");
    assert_eq!(first["kind"], "ordering", "{first:#}");
}

/// The drainer's wait loop tests a copy of `closing` taken once before the wait: woken
/// by the close, it waits again for ever. The test and the copy are named first.
#[test]
fn a_wait_loop_testing_a_stale_copy_names_the_test_and_the_copy() {
    let r = localize_all_json("tests/programs/why/stale_wait_copy.c");
    assert_eq!(r["verdict"], "deadlock");
    let lines: Vec<u64> = r["candidates"]
        .as_array()
        .map(|a| a.iter().filter_map(|c| c["line"].as_u64()).collect())
        .unwrap_or_default();
    assert_eq!(lines.get(..2), Some(&[15, 14][..]), "{lines:?}");
    first_names(&r, 15, "a copy of `closing` made at line 14");
}

/// A helper that takes the lock for its other callers, called by a thread that holds it
/// already: the call is named first, before the outer lock and the helper's own lock.
#[test]
fn a_call_of_a_locking_helper_made_holding_its_lock_ranks_first() {
    let r = localize_all_json("tests/programs/why/miss_counter_relock.c");
    assert_eq!(r["verdict"], "deadlock");
    first_names(&r, 34, "a self-deadlock");
}

/// A hand-made lock's test and set split by a switch: the busy-wait's test is where
/// the region starts (the wait shows in the run), and both ends are named first.
#[test]
fn a_busy_wait_split_from_its_set_names_the_test_and_the_set() {
    let r = localize_json("tests/programs/why/busy_flag_gate.c");
    let first = first_names(&r, 12, "between line 12 and line 14");
    assert_eq!(first["kind"], "atomicity", "{first:#}");
    let lines: Vec<u64> = r["candidates"]
        .as_array()
        .map(|a| a.iter().filter_map(|c| c["line"].as_u64()).collect())
        .unwrap_or_default();
    assert_eq!(lines.get(1), Some(&14), "{lines:?}");
}

/// One helper appends for both threads, one caller holds the lock around its call and
/// the other does not: the call without the lock is named, not the line inside.
#[test]
fn a_helper_called_without_the_callers_lock_names_the_call() {
    let r = localize_json("tests/programs/why/shared_append.c");
    let first = first_names(&r, 31, "calls `append` here holding no lock");
    assert_eq!(first["kind"], "locking", "{first:#}");
}

/// A read of the neighbour's phase-one cell made above the barrier that separates the
/// phases: the barrier wait is named first, with the line it belongs before.
#[test]
fn a_read_above_its_barrier_names_the_barrier_wait() {
    let r = localize_json("tests/programs/why/phase_read_before_barrier.c");
    first_names(&r, 17, "moved before line 16");
}

/// A `sem_post` that announces a copy not yet made: the post is named first, with the
/// line it belongs after.
#[test]
fn a_post_before_the_copy_it_announces_is_named_first() {
    let r = localize_json("tests/programs/why/ticket_posted_early.c");
    first_names(&r, 15, "moved after line 16");
}

/// One request object handed to every thread a loop creates, through a pointer the
/// round points at it: that pointing is named first.
#[test]
fn one_object_handed_to_every_thread_names_the_pointing() {
    let r = localize_json("tests/programs/why/shared_request.c");
    first_names(&r, 27, "handed this one object");
}

/// The miss path of a read-locked lookup asks for the write lock while it still holds
/// its read lock: the write lock is named first, as the self-deadlock it is.
#[test]
fn a_write_lock_asked_for_under_the_threads_own_read_lock_ranks_first() {
    let r = localize_all_json("tests/programs/why/rwlock_upgrade.c");
    assert_eq!(r["verdict"], "deadlock");
    first_names(&r, 19, "while it still holds it (taken at line 13)");
}

/// A dispatcher's upload path bails out through the bookkeeping helper instead of the
/// wrapper that also posts the permit: the call is named first, before the permit
/// count that would let both uploaders in.
#[test]
fn a_helper_called_where_its_posting_wrapper_was_meant_ranks_first() {
    let r = localize_all_json("tests/programs/why/permit_skipped_release.c");
    assert_eq!(r["verdict"], "deadlock");
    first_names(&r, 32, "a call of `permit_return`, not `note_return`");
}

/// A check under the lock, the lock let go around a call that logs, and the act on the
/// stale check under the lock taken back, the switch inside the logging call: the
/// unlock and the lock are named first, read off the failing run.
#[test]
fn a_section_split_around_a_call_names_its_unlock_and_lock() {
    let r = localize_json("tests/programs/why/split_withdrawal.c");
    first_names(&r, 24, "the section was split");
    let second = r["candidates"].get(1).cloned().unwrap_or_default();
    assert_eq!(second["line"], 26, "{second:#}");
}

/// main gives a frame back to the pool (a function of its own that unlocks) before it
/// joins the thread still reading the frame: the give-back is named first, with the
/// join it belongs after.
#[test]
fn a_release_made_before_the_join_it_should_follow_is_named_first() {
    let r = localize_json("tests/programs/why/pool_put_before_join.c");
    first_names(&r, 43, "`frame_release();` moved after line 44");
}

/// A slot reserved under the lock and filled after the unlock through the shared head
/// read again: that read is named first, with the copy it should have used, then the
/// unlock.
#[test]
fn a_value_read_again_after_the_section_that_copied_it_is_named_first() {
    let r = localize_json("tests/programs/why/ring_reread.c");
    first_names(&r, 18, "though it copied `head` at line 15");
    let second = r["candidates"].get(1).cloned().unwrap_or_default();
    assert_eq!(second["line"], 17, "{second:#}");
}

/// A refresher gives the cache lock back a second time on its way out: the unlock
/// property (ESBMC's and CBMC's "must hold lock upon unlock") fails there, and that
/// unlock is named first with the one before it.
#[test]
fn an_unlock_of_a_free_mutex_is_the_failure_and_ranks_first() {
    let r = localize_json("tests/programs/why/refresh_double_unlock.c");
    assert_eq!(r["property"]["kind"], "unlock", "{r:#}");
    assert_eq!(r["property"]["line"], 18, "{r:#}");
    first_names(&r, 18, "gave it back already at line 16");
    // The property is not asked for: the program asserts nothing, so it has no failure.
    let o = run(&[
        "localize",
        "tests/programs/why/refresh_double_unlock.c",
        "--property",
        "unreach-call",
    ]);
    assert_eq!(o.status.code(), Some(0), "{}", stdout(&o));
}

/// A nested-monitor deadlock whose viewers are created in a loop and the loader after
/// them: a thread slot that may run either function, and whose thread ran only its entry
/// before it blocked, is named by what it ran. Until 2026-12-06 the counterexample named
/// it after the other function, and its own deadlock did not replay (an error). The lock
/// taken before the wait ranks first.
#[test]
fn a_nested_monitor_deadlock_with_threads_of_one_slot_replays_and_names_the_outer_lock() {
    let r = localize_all_json("tests/programs/why/settings_nested_wait.c");
    assert_eq!(r["verdict"], "deadlock", "{r:#}");
    let cands = r["candidates"].as_array().cloned().unwrap_or_default();
    assert_eq!(
        cands.first().map(|c| c["line"].clone()),
        Some(43.into()),
        "{cands:#?}"
    );
}

/// A flush helper ends by posting the binary semaphore its caller took, and the caller
/// posts it again: the mutant without the helper's post is proved to fix every
/// execution, and that post ranks first as one release too many.
#[test]
fn a_helper_that_posts_its_callers_semaphore_again_ranks_first() {
    let r = localize_json("tests/programs/why/flush_double_post.c");
    first_names(&r, 27, "one release too many");
}

/// A cache calls the eviction listener its caller handed in while it holds the cache
/// lock; the listener takes the metrics lock, which the dumper holds while it asks for
/// the cache's size. Moving the unlock above the callback removes every deadlock, and
/// the callback's line ranks first, before the lock calls that close the cycle.
#[test]
fn a_callback_run_under_a_lock_ranks_first() {
    let r = localize_json("tests/programs/why/evict_listener.c");
    let first = first_names(&r, 36, "runs a callback while holding a lock");
    assert!(
        first["hint"]
            .as_str()
            .is_some_and(|h| h.contains("(line 37) moved before it")),
        "{first:#}"
    );
}

/// Closing the device sets `closing` and broadcasts, but the writer's wait loop tests
/// only the dirty count and sleeps again. The test with the announced flag added
/// removes every deadlock, and the wait loop's test ranks first with that change
/// (before the swap of the flag it tests, which only waits for the close).
#[test]
fn a_wait_test_without_the_announced_shutdown_ranks_first() {
    let r = localize_json("tests/programs/why/writer_close.c");
    let first = first_names(&r, 25, "leaves out what the waking thread announces");
    assert!(
        first["hint"]
            .as_str()
            .is_some_and(|h| h.contains("`dirty == 0 && !closing`")),
        "{first:#}"
    );
}

/// An aborted upload gives its slot back without waking the sender that sleeps on a full
/// table. A broadcast added after that write removes every deadlock, and the write ranks
/// first (not the wait loop's test loosened, which the assertion on the slots rejects,
/// nor the taking of the slot moved down: a function that takes the lock and gives it
/// back gives nothing).
#[test]
fn a_path_that_frees_a_slot_without_waking_ranks_first() {
    let r = localize_json("tests/programs/why/upload_abort.c");
    let first = first_names(&r, 38, "wakes nobody");
    assert!(
        first["hint"]
            .as_str()
            .is_some_and(|h| h.contains("`pthread_cond_broadcast(&slot_free);` added after it")),
        "{first:#}"
    );
}

/// A jam path calls a helper that clears the owner and posts the printer's semaphore,
/// then leaves through the common exit that posts it again. Removing the call breaks
/// the owner check; the helper's state change without its post repairs the program, and
/// the call ranks first with that change.
#[test]
fn a_helper_whose_post_is_one_too_many_keeps_its_state_change() {
    let r = localize_json("tests/programs/why/printer_error_path.c");
    let first = first_names(&r, 32, "one release too many");
    assert!(
        first["hint"]
            .as_str()
            .is_some_and(|h| h.contains("`p->owner = -1;` for `printer_free(p);`")),
        "{first:#}"
    );
}

/// A pool of permits made from a mutex and a condition variable whose take adds a
/// permit rather than taking one: both scanners get in. No value of the take's line
/// avoids the failure along the failing run (a permit count of zero makes the second
/// scanner wait, and that run is then not followed), so only the whole program checked
/// with `--` for `++` names it — first.
#[test]
fn a_hand_made_permit_taken_the_wrong_way_round_ranks_first() {
    let r = localize_json("tests/programs/why/permit_pool.c");
    first_names(&r, 21, "`--` for `++`");
}

/// A hand-made lock marks itself busy only on its uncontended path; a waiter that gets
/// in after a wait leaves it free, and the third exporter walks in beside it. Moving
/// the store after the `if` makes every path take the lock.
#[test]
fn a_hand_made_lock_that_records_its_owner_on_one_path_ranks_first() {
    let r = localize_json("tests/programs/why/export_gate.c");
    first_names(&r, 25, "`g->busy = 1;` moved out of its `if`");
}

/// Three stages pass a baton modulo 2: the third never gets its turn and waits for
/// ever. The baton's store, modulo 3, removes every deadlock.
#[test]
fn a_baton_passed_among_too_few_stages_ranks_first() {
    let r = localize_json("tests/programs/why/stage_baton.c");
    first_names(&r, 27, "`3` for `2`");
}

/// A reader waits for a fresh snapshot of at least its version, and the indexer clears
/// `fresh` before the slow reader looks: it sleeps for ever. The wait test without the
/// term too many (the version alone says enough) ranks first.
#[test]
fn a_wait_test_with_a_term_too_many_ranks_first() {
    let r = localize_json("tests/programs/why/snapshot_wait.c");
    first_names(
        &r,
        34,
        "`s->version < want` for `!s->fresh || s->version < want`",
    );
}

/// A reader's early return leaves the read-write lock's read lock held; the writer
/// blocks for ever. The `return` is named first, as for a mutex.
#[test]
fn a_read_lock_left_held_on_an_early_return_ranks_first() {
    let r = localize_json("tests/programs/why/settings_read.c");
    assert_eq!(r["verdict"], "deadlock");
    first_names(&r, 13, "still holding `settings_lock`");
}

/// A lock-free peak gauge computes its new value once, before the compare-and-swap
/// retry loop: a failed exchange reloads `seen`, and the retry installs the value made
/// from the stale one, lowering the peak. The computation moved into the loop ranks
/// first.
#[test]
fn a_value_computed_before_its_retry_loop_ranks_first() {
    let r = localize_json("tests/programs/why/peak_gauge.c");
    first_names(&r, 11, "moved into the loop (line 12), computed each round");
}

/// The worker copies `shutting_down` once, before its loop, and each round tests the
/// copy: it goes on using the job table the shutdown released. The test reading the
/// shared flag again ranks first.
#[test]
fn a_loop_testing_a_copy_of_a_shared_flag_ranks_first() {
    let r = localize_json("tests/programs/why/drain_worker.c");
    first_names(&r, 19, "`shutting_down` for `quit`");
}

/// The writer gives the one-frame slot back by posting `slot_full` again, not
/// `slot_empty`: it takes its own post and reads the old frame a second time. The post
/// naming the other semaphore ranks first (before, no candidate named the post at all).
#[test]
fn a_post_of_the_wrong_semaphore_ranks_first() {
    let r = localize_json("tests/programs/why/frame_slot.c");
    first_names(&r, 29, "`slot_empty` for `slot_full`");
}

/// A customer reads the next number before waiting for the desk to open; the wait
/// gives the lock up, the other customer reads the same number, and both hold it. The
/// copy moved after the wait ranks first (before, the desk's start value did).
#[test]
fn a_copy_taken_before_a_condition_wait_ranks_first() {
    let r = localize_json("tests/programs/why/service_desk.c");
    first_names(&r, 18, "moved after the wait (line 20)");
}

/// The dispatcher's "mailbox full" test is `w - r > SLOTS` where the box of two slots
/// is full at `>=`: the third message overwrites the first before the worker took it,
/// and the worker reads a message twice. The bounds check's boundary ranks first, with
/// the fix that makes it hold in every execution.
#[test]
fn a_bounds_check_off_by_one_ranks_first_with_its_fix() {
    let r = localize_json("tests/programs/why/mailbox.c");
    first_names(
        &r,
        22,
        "bounds check of shared state is off by one: `>=` for `>`",
    );
}

/// A request finds no token under the lock, unlocks to mint one and locks again to store
/// it without looking again: both requests mint. The unlock that splits the critical
/// section ranks first, with the fix that removes it and its relock.
#[test]
fn an_unlock_that_splits_a_critical_section_ranks_first_with_its_fix() {
    let r = localize_json("tests/programs/why/token_cache.c");
    first_names(&r, 25, "the unlock and the lock of line 27 removed");
}

/// The upgrade changes the seat counts under `log_lock`, where booking and cancelling
/// hold `seats_lock`: a booking's `economy--` and the upgrade's `economy++` race. The
/// upgrade's lock ranks first, with the fix that names `seats_lock` in the lock and its
/// unlock (verified over every execution).
#[test]
fn a_critical_section_under_the_wrong_lock_ranks_first_with_its_fix() {
    let r = localize_json("tests/programs/why/seat_map.c");
    first_names(
        &r,
        40,
        "`seats_lock` for `log_lock` in the lock and its unlock",
    );
}

/// A handler drops its session reference on the error path and again after the call:
/// the count reaches zero while the other handler still uses the session. The extra
/// `session_put` (a function that drops a reference: it tests what `atomic_fetch_sub`
/// returned) ranks first, removed (before, a thread argument's index did).
#[test]
fn a_reference_dropped_twice_ranks_first() {
    let r = localize_json("tests/programs/why/session_refs.c");
    first_names(&r, 26, "one release too many: removing `session_put(s);`");
}

/// An uploader gives the one upload slot back only when its upload succeeded: after a
/// failed upload the other uploader waits for ever. The post that ends the success branch
/// ranks first, moved after the `if`. The explorer that proves the fix passes and returns
/// `struct result` by value (before, it refused both, and no fix was proved).
#[test]
fn a_release_made_on_one_path_only_ranks_first_moved_after_the_if() {
    let r = localize_all_json("tests/programs/why/upload_slots.c");
    first_names(
        &r,
        31,
        "`sem_post(&slots);` moved after the `if`, to run on every path",
    );
}

/// A visitor whose card is refused should hand the reading-room key back at once, an
/// admitted one when leaving; the test is written the wrong way round (`if (valid)`), so
/// after a refusal the other visitor waits for ever. The test ranks first, turned around
/// (verified over every execution; before, the key's start count ranked first, raised).
#[test]
fn a_wake_up_guarded_the_wrong_way_round_ranks_first_turned_around() {
    let r = localize_all_json("tests/programs/why/reading_room.c");
    first_names(&r, 29, "`!valid` for `valid`");
}

/// Two clerks move stock between the same two shelves in opposite directions; the lock
/// order follows the argument order through the locals `outer` and `inner`, and the clerks
/// deadlock. The line that chose the first lock is named right after the lock call's
/// candidate (before, only the lock calls were named).
#[test]
fn a_lock_taken_through_a_local_pointer_names_where_the_pointer_was_chosen() {
    let r = localize_all_json("tests/programs/why/shelf_moves.c");
    let cands = r["candidates"].as_array().cloned().unwrap_or_default();
    let top: Vec<u64> = cands
        .iter()
        .take(3)
        .filter_map(|c| c["line"].as_u64())
        .collect();
    assert!(top.contains(&14), "{cands:#?}");
    let chosen = cands
        .iter()
        .find(|c| c["line"] == 14)
        .map(|c| c["hint"].as_str().unwrap_or("").to_string())
        .unwrap_or_default();
    assert!(chosen.contains("is chosen here"), "{chosen}");
}

/// A print job waits for a free press under `if`, not `while`: woken, it does not test
/// again, and a third job gets in beside two. The `if` ranks first (CERT CON36-C) — before,
/// behind the call after which a job was preempted once it had let go of the lock.
#[test]
fn a_wait_guarded_by_if_that_the_run_woke_from_ranks_first() {
    let r = localize_json("tests/programs/why/press_gate.c");
    first_names(&r, 22, "CON36-C");
}

/// A courier credits the destination depot while holding the source depot's mutex; both
/// are reached through pointer parameters (`src`, `dst`), and the loader locks the
/// destination through its own (`d`). Named by the objects they point to, the two
/// accesses to `south.crates` are one location under two different locks: the courier's
/// lock call ranks first (before, the pointers' names differed and no lock was named).
#[test]
fn a_wrong_lock_reached_through_pointer_parameters_ranks_first() {
    let r = localize_json("tests/programs/why/stock_moves.c");
    first_names(&r, 20, "different lock");
}

/// Tallies striped over an array of locks; the batch counter locks the stripe of
/// `ballot % CANDIDATES` around the tally of `slot_of(ballot)`. The lock whose index is
/// not the data's ranks first (before, the booth's correct lock came first).
#[test]
fn a_striped_lock_taken_by_another_index_than_its_data_ranks_first() {
    let r = localize_json("tests/programs/why/vote_stripes.c");
    first_names(&r, 27, "different lock");
}

/// `main` creates the recorders and only then opens the journal they append to; its
/// writes there are made without the journal's lock. The creation ranks first, its
/// unlocked writes after it (before, a missing lock around `main`'s setup came first: a
/// lock there would not have made the recorders wait).
#[test]
fn a_creator_s_setup_after_the_creation_names_the_creation_before_a_lock() {
    let r = localize_json("tests/programs/why/late_journal.c");
    first_names(&r, 41, "creates T1 recorder here, before its own write");
}

/// A feeder posts a quote's symbol and its price in two critical sections of the board's
/// mutex; the trader's lookup loop misses once, then finds the new symbol with the old
/// price. The reader acted on its last test, made in the same section as its read: no
/// publication order is at fault, the split update is (before, the symbol's write ranked
/// first as published before its data, from the trader's first, missed test).
#[test]
fn an_update_split_over_two_sections_is_no_early_publication() {
    let r = localize_json("tests/programs/why/quote_board.c");
    first_names(&r, 46, "preempted");
}

/// Songs are queued at the end through a pointer to the link to fill (`*at = s`, with
/// `at = &playlist` for an empty list) under the playlist's mutex; a request is put in
/// front without it. Named by what `at` pointed to at that step, the radio's store is a
/// write of `playlist`, and the listener's unlocked read of it is the access without the
/// lock the other side held: it ranks first (before, `*at` named nothing the listener
/// touched, and the nodes' own `s->next`, a different node in each thread, came first).
#[test]
fn a_store_through_a_pointer_to_a_link_names_the_list_head() {
    let r = localize_json("tests/programs/why/playlist_front.c");
    first_names(&r, 40, "holding no lock");
}

/// Each crew member counts its own tasks under its own mutex and, under that same mutex,
/// the board's finished tasks, which the board's mutex guards. The member's lock call ranks
/// first: the reader's test of `open` and its read of `finished` were under two different
/// mutexes, and the writer's `finished++` under a third (each member's own `m->mu`), so the
/// failure is a wrong lock, not `open--` published before `finished++` (before, the
/// early-publication pattern named `open--` first).
#[test]
fn sections_under_different_mutexes_are_no_early_publication() {
    let r = localize_json("tests/programs/why/crew_tasks.c");
    first_names(&r, 33, "different mutex");
}

/// A clerk marks a ticket posted in one critical section of the desk's mutex and fills
/// it in the next; the agent tests `posted` and reads the ticket in one section of its
/// own. The clerk's two sections are one after the other in its code, not two rounds of
/// a loop: the flag was published before the data, and `posted = 1` ranks first (before,
/// the agent's one section hid the order, and the unlock between the clerk's sections
/// came first; moving the flag down is the fix that keeps both sections).
#[test]
fn a_flag_published_in_the_section_before_its_data_is_named() {
    let r = localize_json("tests/programs/why/ticket_posted.c");
    first_names(&r, 20, "publish after the data is written");
}

/// A forwarder takes the port's mutex each round and, when the port is muted, goes on to
/// the next round with `continue`, past the round's unlock; its next lock blocks on the
/// mutex it holds. The `continue` ranks first (before, the relock and the operator's
/// section boundaries came first, and the `continue` was no candidate: it runs as no
/// step of its own).
#[test]
fn a_continue_past_the_unlock_is_named() {
    let r = localize_json("tests/programs/why/muted_port.c");
    first_names(&r, 23, "skipping the unlock at line 25");
}

/// The farmer waits for two baskets by counting two wake-ups of its condition variable;
/// a wait may return without a signal, and a picker's signal sent before the farmer
/// waits is lost, so it loads the truck with a basket missing. The counting loop ranks
/// first (before, only the farmer's copy of `baskets` and the calls carrying it were
/// named: no value along the run makes the wake-up happen).
#[test]
fn a_loop_that_counts_wake_ups_is_named() {
    let r = localize_json("tests/programs/why/basket_count.c");
    first_names(&r, 24, "counts its wake-ups");
}

/// The desk records a loan in the journal while it holds the catalogue's mutex; the
/// archiver stamps the catalogue while it holds the journal's. Each second lock is taken
/// inside a helper the thread calls holding the first: the two calls rank first, the
/// archiver's, which took its lock last and so closed the cycle, before the desk's
/// (before, the outer locks and the helpers' own lock calls came first, the calls third
/// at best, one of them named as a preempted boundary).
#[test]
fn a_lock_order_across_calls_names_the_calls() {
    let r = localize_json("tests/programs/why/library_journal.c");
    let first = first_names(&r, 50, "opposite orders across the call");
    assert_eq!(first["kind"], "locking", "{first:#}");
    let second = &r["candidates"][1];
    assert_eq!(second["line"], 39, "{second:#}");
}

/// The station creates the meter, then sets the scale the meter converts with; the meter
/// runs at once and converts with scale 0. The context switch right after the creation
/// is necessary, but the creation and the next line are no region to make atomic: the
/// creation ranks first as an order violation, the late write second (before, both lines
/// were named as a region that should run as one step).
#[test]
fn a_thread_created_before_its_setup_names_the_creation() {
    let r = localize_json("tests/programs/why/meter_scale.c");
    first_names(&r, 32, "before its own write of `st.scale` at line 34");
    assert_eq!(r["candidates"][1]["line"], 34, "{:#}", r["candidates"][1]);
}

/// The printer waits while the spool is full instead of while it is empty; it runs
/// before the clerk has queued anything, goes past its wait, and takes from an empty
/// spool. The wait's test ranks first as a wrong wait condition (before, a value change
/// of the printer's loop bound came first, and the test after it as "must wait for the
/// clerk").
#[test]
fn a_wait_test_that_lets_the_waiter_through_is_named() {
    let r = localize_json("tests/programs/why/spool_wait.c");
    first_names(&r, 29, "a wrong wait condition");
}

/// The server waits while the settings are loaded instead of until they are, and is
/// created before the loader: it goes past its wait before the loader exists and reads
/// empty settings. The wait's test ranks first as a wrong wait condition, naming the
/// loader that writes what it tests (before, the test was no candidate at all: no value
/// changes it along a run without the loader, and no block of the loader can move).
#[test]
fn a_wait_test_passed_before_its_provider_was_created_is_named() {
    let r = localize_json("tests/programs/why/settings_wait.c");
    first_names(&r, 33, "before any thread running `loader` was created");
}

/// The printer waits for the renderer's signal with no test of `rendered` around the
/// wait; a spurious wake-up lets it print a page not yet rendered. The wait ranks first
/// (before, the sum over the page and the counter's start did, and the wait was no
/// candidate).
#[test]
fn a_wait_with_no_test_around_it_is_named() {
    let r = localize_json("tests/programs/why/page_ready.c");
    first_names(&r, 31, "waits here without testing the state it waits for");
}

/// The handler looks its session up under the table's mutex, lets the mutex go, and
/// bills through the pointer it found; the reaper closes the session in between. The
/// unlock that let the reference escape ranks first (before, the read through the
/// pointer did, as a missing lock, with the unlock second as a split section).
#[test]
fn an_unlock_that_lets_a_found_pointer_escape_is_named_first() {
    let r = localize_json("tests/programs/why/session_lookup.c");
    first_names(&r, 29, "a reference escaped its critical section");
    assert_eq!(r["candidates"][1]["line"], 31, "{:#}", r["candidates"][1]);
}

/// A clerk issues a ticket and logs it through two helpers, each its own critical
/// section, and neither call passes anything (so neither shows as a step of its own);
/// the auditor comes in between. The two calls in the clerk rank first, the unlock
/// inside the first helper after them (before, that unlock came first and the calls
/// were no candidates).
#[test]
fn two_helper_calls_that_split_one_update_are_named_first() {
    let r = localize_json("tests/programs/why/ticket_log.c");
    let top: Vec<u64> = (0..2)
        .filter_map(|i| r["candidates"][i]["line"].as_u64())
        .collect();
    assert_eq!(top, [25, 26], "{:#}", r["candidates"]);
    assert_eq!(r["candidates"][2]["line"], 12, "{:#}", r["candidates"][2]);
}

/// Deliveries put items on the shelf under the store's stock lock, returns under its
/// audit lock, through one helper handed a pointer to the store; the audit lock also
/// guards the audit counter. The returns' lock ranks first as the odd one out (before,
/// the data was reached only through the pointer and the helper, no lock was seen
/// around it, and the delivery's lock came first by trace order).
#[test]
fn the_borrowed_lock_is_told_through_pointers_and_helpers() {
    let r = localize_json("tests/programs/why/store_locks.c");
    assert_eq!(r["candidates"][0]["line"], 34, "{:#}", r["candidates"]);
}

/// The flusher tests `dirty` before it takes the mutex and then waits; the writer's
/// signal comes between the test and the lock and is lost: a deadlock. The test outside
/// the section ranks first (before, the wait did, as a wait outside any loop, which a
/// test under the mutex would have made safe).
#[test]
fn a_wait_tested_before_its_lock_names_the_test_first() {
    let r = localize_all_json("tests/programs/why/flush_wakeup.c");
    assert_eq!(r["candidates"][0]["line"], 14, "{:#}", r["candidates"]);
}

/// Each worker drops its use of a shared handle under the handle's mutex and tests,
/// after the unlock, whether it was the last; the other worker's drop comes in between
/// and both close it. The test read again outside the section ranks first, the unlock
/// after it (before, the unlock came first).
#[test]
fn a_count_read_again_after_the_section_that_wrote_it_is_named_first() {
    let r = localize_json("tests/programs/why/handle_release.c");
    first_names(
        &r,
        28,
        "though it wrote `h->users` at line 26 under the lock",
    );
    assert_eq!(r["candidates"][1]["line"], 27, "{:#}", r["candidates"][1]);
}

/// A client marks its slot used in one section and counts it in the next, through a
/// helper handed the pool's address; the census, in one section of the same mutex, tests
/// each slot and then checks the count whatever the tests said. That is an update split
/// in two, not a flag published early: the unlock and the lock between the sections rank
/// first, named as one update split in two (before, the slot's write did, as a
/// publication, since the helper's `p->mu` and the census's `slots.mu` were not told to
/// be one mutex; but no order of the two writes would be right).
#[test]
fn a_census_of_two_split_updates_names_the_split_not_a_publication() {
    let r = localize_json("tests/programs/why/slot_census.c");
    let top: Vec<u64> = (0..2)
        .filter_map(|i| r["candidates"][i]["line"].as_u64())
        .collect();
    assert_eq!(top, [18, 19], "{:#}", r["candidates"]);
    let hint = r["candidates"][0]["hint"].as_str().unwrap_or_default();
    assert!(hint.contains("one update split in two sections"), "{hint}");
}

/// The restocker takes its shelf's mutex through a pointer chosen by the item number,
/// while the shelf is the item's decade; the picker takes the shelf's own mutex. The line
/// that chose the pointer ranks first, above the lock call it feeds (before, it came
/// right after the call, as any pointer's choice does).
#[test]
fn a_stripe_chosen_through_a_pointer_by_the_wrong_index_is_named_first() {
    let r = localize_json("tests/programs/why/shelf_guards.c");
    first_names(&r, 19, "while the section's data is chosen by `shelf`");
}

/// The reader tells the poster the slot is free (`busy = 0`) and only then reads the
/// message; the poster, let through, clears the slot with `memset` and refills it. The
/// hand-back ranks first (before, the `memset`'s stores were named by a temporary no
/// read matched, so no flow changed and the unlock came first).
#[test]
fn a_slot_handed_back_before_its_last_read_is_named_first() {
    let r = localize_json("tests/programs/why/slot_reuse.c");
    first_names(&r, 26, "hand it back after the last use");
    let f = flows(&r);
    assert!(
        f.iter()
            .any(|(read, _, failing, passing)| (*read, *failing, *passing) == (29, 40, 52)),
        "{f:?}"
    );
}

/// A job marks itself claimed and then reads its weight; the retirer, seeing the claim,
/// clears the job with `memset(j, 0, sizeof *j)`. The claim is named among the first
/// three, before the unlock after it (moving the retirement after the join, a verified
/// repair too, may come first).
#[test]
fn a_claim_made_before_the_last_read_of_the_job_ranks_before_the_unlock() {
    let r = localize_json("tests/programs/why/job_release.c");
    let lines = candidate_lines(&r);
    let at = |l: u64| lines.iter().position(|&x| x == l);
    assert!(at(21).is_some_and(|i| i < 3), "{lines:?}");
    assert!(at(21) < at(22), "{lines:?}");
}

/// A scanner breaks out of its loop on an empty entry while it holds the table's lock:
/// the `break` is named first (before, the `return` after the loop was, where the
/// function only ended).
#[test]
fn a_break_that_leaves_a_loop_holding_its_lock_is_named_first() {
    let r = localize_json("tests/programs/why/scan_stop.c");
    assert_eq!(r["verdict"], "deadlock");
    first_names(
        &r,
        16,
        "jumps out of its loop here still holding `table_lock`",
    );
}

/// A logger's flusher is created inside `if (pthread_create(..) != 0)` before the level
/// it reads is set. The creation is named first, as for a bare `pthread_create` (before,
/// the run was preempted after the `!= 0` test, a step of its own on the line, which was
/// not seen as a creation: the boundary after it came first).
#[test]
fn a_creation_tested_in_an_if_before_its_data_is_set_is_named_first() {
    let r = localize_json("tests/programs/why/logger_open.c");
    first_names(
        &r,
        24,
        "creates T1 flush_loop here, before its own write of `lg.level`",
    );
    assert_eq!(r["candidates"][1]["line"], 26, "{:#}", r["candidates"][1]);
}

/// Runners leave a barrier together and count a lap with a load and a store in a helper.
/// The split update (lines 19–20) is named first; the switch that only placed a runner
/// right after the barrier names no region (before, "lines 27–28 need to run
/// atomically", the barrier wait and the call, came first).
#[test]
fn a_switch_right_after_a_barrier_names_no_region() {
    let r = localize_json("tests/programs/why/race_after_barrier.c");
    let lines = candidate_lines(&r);
    assert_eq!(lines.first(), Some(&20), "{lines:?}");
    assert!(!lines.contains(&27), "{lines:?}");
}

/// A client tests that no one holds the lease, then makes a compare-exchange whose result
/// it drops. The exchange is named first, in words that say its result is dropped.
#[test]
fn a_compare_exchange_whose_result_is_dropped_is_named_first() {
    let r = localize_json("tests/programs/why/lease_cas.c");
    first_names(&r, 14, "the result of this compare-exchange is dropped");
}

/// A `trylock` whose result is kept and tested for one failure only (`EDEADLK`): the busy
/// cache (`EBUSY`) is swept without the lock. The test that let the failure through is
/// named first, before the accesses it let happen and the blocking lock a mutation finds.
#[test]
fn a_test_of_trylock_that_lets_a_failure_through_is_named_first() {
    let r = localize_json("tests/programs/why/cache_sweep.c");
    first_names(&r, 26, "this test of its result let");
}

/// A helper written for callers that hold the mutex (the worker calls it so, and is done
/// first), called bare by another thread, whose access races with a third thread's own
/// section elsewhere: the bare call is named first, with the caller that holds the lock.
#[test]
fn a_bare_call_of_a_helper_another_thread_calls_under_the_lock_is_named_first() {
    let r = localize_json("tests/programs/why/pool_take.c");
    let first = first_names(&r, 44, "takes no lock itself");
    assert!(
        first["hint"]
            .as_str()
            .is_some_and(|h| h.contains("calls it holding `p->mu` (line 37)")),
        "{first:#}"
    );
}

/// A check made through a helper before the caller takes the mutex its update holds
/// (`if (!in_stock(s, n)) return 0;` then lock): the call of the check is named first,
/// with the lock it belongs under.
#[test]
fn a_helper_check_called_before_the_lock_is_named_first() {
    let r = localize_json("tests/programs/why/ship_check.c");
    first_names(&r, 22, "before taking `s->mu` at line 24");
}

/// A lock-order deadlock whose order the function spells out in two locals set from its
/// arguments (`src = from; dst = to;`): the choice is named first, above the lock calls
/// that only carry it out.
#[test]
fn a_lock_order_chosen_by_two_locals_is_named_before_the_lock_calls() {
    let r = localize_json("tests/programs/why/swap_slots.c");
    first_names(&r, 18, "in the opposite order");
}

/// `main` runs on to its next join, not past it: what it does after joining the reader
/// (its own retire of the configuration) cannot come before the reader, and its creation
/// of the reader is no "too early". The reader's use outside its section is named first.
#[test]
fn what_main_does_after_a_join_makes_no_creation_too_early() {
    let r = localize_json("tests/programs/why/retire_after_join.c");
    let first = first_names(&r, 39, "atomically");
    let cands = r["candidates"].as_array().cloned().unwrap_or_default();
    assert!(
        !cands.iter().any(|c| c["line"] == 57
            && c["hint"]
                .as_str()
                .is_some_and(|h| h.contains("create it after"))),
        "{first:#}"
    );
}

/// A mutex per bin chosen by the raw value (`bins[v % NBINS].lock`) while the section's
/// data comes through a pointer another expression chose (`b = bin_of(hs, v)`): the
/// mutex's choice is named first, above the lock call.
#[test]
fn a_stripe_chosen_apart_from_the_datas_pointer_is_named_first() {
    let r = localize_json("tests/programs/why/histogram_bins.c");
    first_names(&r, 28, "`b=bin_of(hs,v)`");
}

/// A worker started before there is work, waiting for it under `if` (not `while`): its
/// read of `jobs` decides whether it waits, so it was made to wait, not started too
/// early. The `if` is named first, not the worker's creation.
#[test]
fn a_thread_that_waits_for_its_data_is_not_started_too_early() {
    let r = localize_json("tests/programs/why/early_worker_if_wait.c");
    first_names(&r, 15, "tests the condition it waits for with `if`");
    let cands = r["candidates"].as_array().cloned().unwrap_or_default();
    assert!(!cands.iter().take(2).any(|c| c["line"] == 26), "{cands:#?}");
}

/// A check made in a helper's own critical section (`seat_of` looks the guest up under
/// the hall's mutex) and acted on in the caller's next section of the same mutex: the
/// act is named first, to check again under the lock, above the helper's call.
#[test]
fn a_check_in_a_helpers_section_names_the_act_in_the_callers_next_one() {
    let r = localize_json("tests/programs/why/claim_seat.c");
    first_names(&r, 42, "checked again under the lock");
}

/// An init routine given to `pthread_once` and also called directly (`log_restart`
/// calls `log_setup()` by hand): the direct call is named first; the routine's own
/// lines only show its second run.
#[test]
fn a_once_routine_called_directly_names_the_direct_call() {
    let r = localize_json("tests/programs/why/once_and_direct.c");
    first_names(&r, 27, "init routine of `log_once`");
}

/// The pool's mutex let go one statement before the pool's counter is bumped (under
/// the slot's own mutex, a different one per slot): the unlock is named first.
#[test]
fn an_unlock_just_before_an_access_the_mutex_guards_is_named_first() {
    let r = localize_json("tests/programs/why/unlock_before_bump.c");
    first_names(&r, 28, "lets `p->mu` go here");
}

/// An atomic load and a later atomic store of the same counter: the store is named
/// first, to become a compare-exchange.
#[test]
fn an_atomic_store_after_a_separate_load_is_named_first() {
    let r = localize_json("tests/programs/why/counter_load_store.c");
    first_names(&r, 13, "compare-exchange");
}

/// The check in one helper's section, the act in another helper's, both called from
/// the thread's function (`if (!idset_has(..)) idset_add(..)`): the caller's call of
/// the check, one end of the region its two calls make, is named first (three blind
/// probe programs of this shape had their truth in the caller, one in the act's
/// section, which comes among the next lines).
#[test]
fn a_check_and_an_act_in_two_helpers_name_the_callers_check() {
    let r = localize_json("tests/programs/why/lookup_then_insert.c");
    first_names(&r, 37, "need to run atomically");
}
