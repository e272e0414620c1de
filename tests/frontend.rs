//! The front end as a user meets it: every real SV-COMP task and fixture parses and lowers,
//! `seqloc parse` reports the right concurrency facts, the printed IR compiles, and
//! single-threaded programs printed from the IR behave exactly as the originals.

mod common;

use common::*;
use std::path::{Path, PathBuf};
use std::process::Command;

/// C files under `dir` (recursively), sorted; property folders hold no programs.
fn c_files(dir: &Path) -> Vec<PathBuf> {
    let mut out = vec![];
    let mut stack = vec![dir.to_path_buf()];
    while let Some(d) = stack.pop() {
        let Ok(entries) = std::fs::read_dir(&d) else {
            continue;
        };
        for e in entries.flatten() {
            let p = e.path();
            if p.is_dir() {
                if p.file_name().is_some_and(|n| n != "properties") {
                    stack.push(p);
                }
            } else if p.extension().is_some_and(|x| x == "c" || x == "i") {
                out.push(p);
            }
        }
    }
    out.sort();
    out
}

/// Every program a user-facing test may name: the repo's own corpus, and the shared
/// SV-COMP tasks and fixtures when they are beside the clone.
fn corpus() -> Vec<PathBuf> {
    let mut files = vec![];
    for d in ["benchmarks", "examples", "tests/programs"] {
        files.extend(c_files(&root().join(d)));
    }
    // Programs that test refusals are meant not to load (tests/issue26.rs checks them).
    files.retain(|p| !p.to_string_lossy().ends_with("_refused.c"));
    for sub in ["svcomp/c", "fixtures/programs"] {
        if let Some(d) = shared(sub) {
            files.extend(c_files(&d));
        }
    }
    files
}

#[test]
fn every_shared_program_parses_and_names_its_threads() {
    let Some(svcomp) = shared("svcomp/c") else {
        return;
    };
    let Some(fixtures) = shared("fixtures/programs") else {
        return;
    };
    let mut files = c_files(&svcomp);
    files.extend(c_files(&fixtures));
    assert!(files.len() >= 60, "{} programs", files.len());
    let problems: Vec<String> = parallel(&files, |f| {
        let o = run(&["parse", "--json", &f.to_string_lossy()]);
        if o.status.code() != Some(0) {
            return Some(format!(
                "{}: exit {:?}\n{}",
                f.display(),
                o.status.code(),
                stderr(&o)
            ));
        }
        let facts = json(&o);
        let creates = std::fs::read_to_string(f)
            .map(|t| t.contains("pthread_create("))
            .unwrap_or(false);
        let threads = facts["threads"].as_array().map_or(0, |t| t.len());
        (creates && threads == 0).then(|| format!("{}: no thread found", f.display()))
    })
    .into_iter()
    .flatten()
    .collect();
    assert!(problems.is_empty(), "{}", problems.join("\n"));
}

/// Facts of one fixture: (thread function, exact instance count) and shared variable names.
struct Expected {
    file: &'static str,
    threads: &'static [(&'static str, u64)],
    shared: &'static [&'static str],
    locks: &'static [&'static str],
}

const FIXTURE_FACTS: &[Expected] = &[
    Expected {
        file: "f01_race.c",
        threads: &[("t1", 1), ("t2", 1)],
        shared: &["x"],
        locks: &[],
    },
    Expected {
        file: "f02_deadlock.c",
        threads: &[("post", 1), ("audit", 1)],
        shared: &["entries"],
        locks: &["accounts", "ledger"],
    },
    Expected {
        file: "f03_loop.c",
        threads: &[("adder", 2)],
        shared: &["total"],
        locks: &[],
    },
    Expected {
        file: "f05_condvar.c",
        threads: &[("producer", 1), ("consumer", 2)],
        shared: &["items", "taken"],
        locks: &["m"],
    },
    Expected {
        file: "f06_thread_array.c",
        threads: &[("fill", 3)],
        shared: &["filled", "slots"],
        locks: &[],
    },
    Expected {
        file: "f07_calls.c",
        threads: &[("buyer", 2)],
        shared: &["sold", "stock"],
        locks: &[],
    },
    Expected {
        file: "f09_atomic.c",
        threads: &[("writer", 1), ("checker", 1)],
        shared: &["a", "b"],
        locks: &[],
    },
    Expected {
        file: "f10_malloc.c",
        threads: &[("push", 2)],
        shared: &["head"],
        locks: &[],
    },
];

fn names(v: &serde_json::Value, key: &str) -> Vec<String> {
    let mut n: Vec<String> = v
        .as_array()
        .into_iter()
        .flatten()
        .filter_map(|x| x[key].as_str().map(str::to_string))
        .collect();
    n.sort();
    n
}

#[test]
fn parse_reports_the_threads_instances_and_shared_variables_of_the_fixtures() {
    let Some(dir) = shared("fixtures/programs") else {
        return;
    };
    for e in FIXTURE_FACTS {
        let f = dir.join(e.file);
        let o = run(&["parse", "--json", &f.to_string_lossy()]);
        assert_eq!(o.status.code(), Some(0), "{}: {}", e.file, stderr(&o));
        let facts = json(&o);
        let mut got: Vec<(String, u64)> = facts["threads"]
            .as_array()
            .into_iter()
            .flatten()
            .map(|t| {
                (
                    t["function"].as_str().unwrap_or("?").to_string(),
                    t["instances"]["exactly"].as_u64().unwrap_or(0),
                )
            })
            .collect();
        got.sort();
        let mut want: Vec<(String, u64)> =
            e.threads.iter().map(|(f, n)| (f.to_string(), *n)).collect();
        want.sort();
        assert_eq!(got, want, "threads of {}", e.file);
        let want_shared: Vec<String> = e.shared.iter().map(|s| s.to_string()).collect();
        assert_eq!(
            names(&facts["shared"], "name"),
            want_shared,
            "shared of {}",
            e.file
        );
        // Every shared variable names the threads that use it and where it is written.
        for s in facts["shared"].as_array().into_iter().flatten() {
            assert!(
                s["threads"].as_array().is_some_and(|t| !t.is_empty()),
                "{s}"
            );
            assert!(s["writes"].as_array().is_some_and(|w| !w.is_empty()), "{s}");
        }
        if !e.locks.is_empty() {
            let locks: Vec<String> = {
                let mut l: Vec<String> = facts["sync_objects"]
                    .as_array()
                    .into_iter()
                    .flatten()
                    .filter(|o| o["kind"] == "mutex")
                    .filter_map(|o| o["name"].as_str().map(str::to_string))
                    .collect();
                l.sort();
                l
            };
            let want: Vec<String> = e.locks.iter().map(|s| s.to_string()).collect();
            assert_eq!(locks, want, "mutexes of {}", e.file);
        }
    }
}

fn gcc(args: &[&str]) -> std::process::Output {
    Command::new("gcc").args(args).output().expect("gcc runs")
}

#[test]
fn printed_ir_of_every_program_compiles() {
    if !have_gcc() {
        return;
    }
    let files = corpus();
    let dir = tempfile::tempdir().expect("tempdir");
    let problems: Vec<String> = parallel(&files, |f| {
        let o = run(&["parse", "--print", &f.to_string_lossy()]);
        if o.status.code() != Some(0) {
            return Some(format!(
                "{}: parse exit {:?}\n{}",
                f.display(),
                o.status.code(),
                stderr(&o)
            ));
        }
        let out = dir
            .path()
            .join(f.to_string_lossy().replace(['/', '\\'], "_"))
            .with_extension("c");
        std::fs::write(&out, &o.stdout).expect("write");
        let c = gcc(&["-fsyntax-only", "-Wall", &out.to_string_lossy()]);
        (!c.status.success()).then(|| {
            format!(
                "{}: printed IR does not compile\n{}",
                f.display(),
                String::from_utf8_lossy(&c.stderr)
            )
        })
    })
    .into_iter()
    .flatten()
    .collect();
    assert!(files.len() >= 80, "{} programs", files.len());
    assert!(problems.is_empty(), "{}", problems.join("\n"));
}

/// Builds `src` with gcc and runs it: (exit status, stdout).
fn build_and_run(src: &Path, exe: &Path) -> (Option<i32>, String) {
    let c = gcc(&["-w", "-o", &exe.to_string_lossy(), &src.to_string_lossy()]);
    assert!(
        c.status.success(),
        "{} does not compile:\n{}",
        src.display(),
        String::from_utf8_lossy(&c.stderr)
    );
    let o = Command::new(exe).output().expect("the program runs");
    (
        o.status.code(),
        String::from_utf8_lossy(&o.stdout).into_owned(),
    )
}

#[test]
fn printed_single_threaded_programs_behave_as_the_originals() {
    if !have_gcc() {
        return;
    }
    let files = c_files(&root().join("tests/programs/roundtrip"));
    assert!(files.len() >= 5);
    let dir = tempfile::tempdir().expect("tempdir");
    for f in &files {
        let stem = f.file_stem().and_then(|s| s.to_str()).unwrap_or("p");
        let original = build_and_run(f, &dir.path().join(format!("{stem}.orig")));
        let o = run(&["parse", "--print", &f.to_string_lossy()]);
        assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
        let printed_src = dir.path().join(format!("{stem}.printed.c"));
        std::fs::write(&printed_src, &o.stdout).expect("write");
        let printed = build_and_run(&printed_src, &dir.path().join(format!("{stem}.printed")));
        assert_eq!(
            printed,
            original,
            "{} behaves differently once printed",
            f.display()
        );
        assert!(!original.1.is_empty(), "{} prints its results", f.display());
    }
}

#[test]
fn bad_inputs_are_named_and_exit_2() {
    let dir = tempfile::tempdir().expect("tempdir");
    let empty = dir.path().join("empty.c");
    std::fs::write(&empty, "").expect("write");
    let binary = dir.path().join("noise.c");
    std::fs::write(&binary, [0u8, 159, 146, 150, 0, 1, 2, 255]).expect("write");
    let prose = dir.path().join("notes.c");
    std::fs::write(&prose, "These are meeting notes, not a program.\n").expect("write");
    let missing = dir.path().join("missing.c");
    for (input, what) in [
        (dir.path().to_path_buf(), "directory"),
        (empty, "empty"),
        (binary, "binary"),
        (prose, "notes.c:1"),
        (missing, "missing.c"),
    ] {
        let o = run(&["parse", &input.to_string_lossy()]);
        assert_eq!(
            o.status.code(),
            Some(2),
            "{}: {}",
            input.display(),
            stderr(&o)
        );
        let err = stderr(&o);
        assert!(err.contains(what), "{}: {err}", input.display());
        assert!(!err.contains("panicked"), "{err}");
    }
}

#[test]
fn unsupported_constructs_are_named_with_their_location() {
    let dir = tempfile::tempdir().expect("tempdir");
    let f = dir.path().join("vla_in_struct.c");
    std::fs::write(
        &f,
        "int main(void) {\n  int x = 1;\n  __asm__(\"nop\");\n  return x;\n}\n",
    )
    .expect("write");
    let o = run(&["parse", &f.to_string_lossy()]);
    let err = stderr(&o);
    assert_eq!(o.status.code(), Some(2), "{err}");
    assert!(err.contains("vla_in_struct.c:3"), "{err}");
}

/// glibc's headers under `_GNU_SOURCE` declare `_Float32`... functions seqloc does not
/// model: the program is checked all the same, and a use of one is refused by name.
#[test]
fn gnu_source_headers_are_read_and_their_unmodelled_functions_refused_at_use() {
    let dir = tempfile::tempdir().expect("tempdir");
    let head = "#define _GNU_SOURCE\n#include <pthread.h>\n#include <stdlib.h>\n\
                #include <stdio.h>\n#include <string.h>\n#include <math.h>\n#include <assert.h>\n";
    let ok = dir.path().join("gnu.c");
    std::fs::write(
        &ok,
        format!(
            "{head}int x; pthread_mutex_t m = PTHREAD_MUTEX_INITIALIZER;\n\
             void *t(void *a) {{ pthread_mutex_lock(&m); x++; pthread_mutex_unlock(&m); return 0; }}\n\
             int main(void) {{ pthread_t a, b; pthread_create(&a, 0, t, 0); pthread_create(&b, 0, t, 0);\n\
             pthread_join(a, 0); pthread_join(b, 0); assert(x == 2); return 0; }}\n"
        ),
    )
    .expect("write");
    let o = run(&["check", &ok.to_string_lossy()]);
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    let uses = dir.path().join("uses.c");
    std::fs::write(
        &uses,
        format!("{head}int main(void) {{ return (int)strtof32(\"1\", 0); }}\n"),
    )
    .expect("write");
    let o = run(&["check", &uses.to_string_lossy()]);
    assert_eq!(o.status.code(), Some(2), "{}", stderr(&o));
    assert!(stderr(&o).contains("strtof32"), "{}", stderr(&o));
}

#[test]
fn identifiers_beyond_ascii_are_read_and_shown_as_written() {
    let prog = root().join("tests/programs/edges/utf8_identifiers.c");
    let p = prog.to_string_lossy();
    let o = run(&["localize", &p, "--format", "json"]);
    assert_eq!(o.status.code(), Some(1), "{}", stderr(&o));
    let j = json(&o);
    let lines = candidate_lines(&j);
    assert!(lines.contains(&7), "{lines:?}");
    let text = j.to_string();
    assert!(text.contains("zähler"), "{text}");
    assert!(!text.contains("__ucn_"), "{text}");
    // The failing check is pointed at by its `assert`; the read of `zähler` inside it by
    // the identifier, counted in characters of the file.
    assert_eq!(j["property"]["column"], 3, "{}", j["property"]);
    let cols: Vec<_> = j["candidates"]
        .as_array()
        .into_iter()
        .flatten()
        .filter(|c| c["line"] == 16)
        .map(|c| c["column"].clone())
        .collect();
    assert!(cols.iter().all(|c| c == 3 || c == 10), "{cols:?}");
    let dir = tempfile::tempdir().expect("tempdir");
    let out = dir.path().join("seq.c");
    let o = run(&["sequentialize", &p, "-o", &out.to_string_lossy()]);
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    let printed = std::fs::read_to_string(&out).expect("printed program");
    assert!(printed.contains("zähler") && !printed.contains("__ucn_"));
    if have_gcc() {
        let o = gcc(&["-fsyntax-only", "-w", &out.to_string_lossy()]);
        assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    }
    let bad = dir.path().join("bad.c");
    std::fs::write(&bad, "int zähler = ;\nint main(void) { return 0; }\n").expect("write");
    let o = run(&["check", &bad.to_string_lossy()]);
    assert_eq!(o.status.code(), Some(2), "{}", stderr(&o));
    assert!(!stderr(&o).contains("\\U"), "{}", stderr(&o));
}
