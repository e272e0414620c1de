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

use common::*;
use seqloc::ir::types::DataModel;
use std::path::PathBuf;
use std::process::Command;

/// xorshift64*: deterministic, dependency-free, good enough to pick mutations.
struct Rng(u64);

impl Rng {
    fn next(&mut self) -> u64 {
        self.0 ^= self.0 >> 12;
        self.0 ^= self.0 << 25;
        self.0 ^= self.0 >> 27;
        self.0.wrapping_mul(0x2545_F491_4F6C_DD1D)
    }
    fn below(&mut self, n: usize) -> usize {
        if n == 0 {
            0
        } else {
            (self.next() % n as u64) as usize
        }
    }
}

/// Tokens that steer mutants into the lowering's corners rather than only the parser's.
const DICTIONARY: &[&str] = &[
    "pthread_create(&t, 0, main, 0);",
    "pthread_join(t, 0);",
    "pthread_mutex_lock(&m);",
    "pthread_cond_wait(&c, &m);",
    "__VERIFIER_atomic_begin();",
    "__VERIFIER_assume(0);",
    "__VERIFIER_nondet_int()",
    "reach_error();",
    "goto L;",
    "L:",
    "return;",
    "break;",
    "continue;",
    "case 1:",
    "default:",
    "switch (x) {",
    "while (1)",
    "do",
    "for (;;)",
    "{",
    "}",
    "(",
    ")",
    "[",
    "]",
    "*",
    "&",
    "->",
    ".",
    ",",
    ";",
    "?",
    ":",
    "sizeof",
    "(void *)",
    "(char)",
    "(struct s *)",
    "struct s { int a; }",
    "union u { int a; float f; }",
    "enum e { A = 1 << 31 }",
    "typedef int T;",
    "static",
    "extern",
    "const",
    "volatile",
    "_Bool",
    "unsigned long long",
    "int (*fp)(int)",
    "int a[0]",
    "int a[-1]",
    "int a[2][3] = { [1][2] = 3 }",
    "0",
    "-1",
    "2147483648",
    "0xffffffffffffffff",
    "18446744073709551616",
    "1e308",
    "'\\0'",
    "\"str\"",
    "x / 0",
    "x % 0",
    "1 << 64",
    "x++",
    "--x",
    "x += 1",
    "&&",
    "||",
    "main",
    "main(",
    "__attribute__((unused))",
    "__extension__",
    "__builtin_expect(x, 1)",
    "asm(\"nop\");",
];

fn tokens(s: &str) -> Vec<(usize, usize)> {
    let b = s.as_bytes();
    let mut out = vec![];
    let mut i = 0;
    while i < b.len() {
        if b[i].is_ascii_whitespace() {
            i += 1;
            continue;
        }
        let start = i;
        if b[i].is_ascii_alphanumeric() || b[i] == b'_' {
            while i < b.len() && (b[i].is_ascii_alphanumeric() || b[i] == b'_') {
                i += 1;
            }
        } else {
            i += 1;
        }
        out.push((start, i));
    }
    out
}

fn mutate(user: &str, rng: &mut Rng) -> String {
    let mut s = user.to_string();
    for _ in 0..1 + rng.below(3) {
        let toks = tokens(&s);
        if toks.is_empty() {
            s.push_str(DICTIONARY[rng.below(DICTIONARY.len())]);
            continue;
        }
        let (a, b) = toks[rng.below(toks.len())];
        let (c, d) = toks[rng.below(toks.len())];
        s = match rng.below(7) {
            0 => format!("{}{}", &s[..a], &s[b..]),
            1 => format!(
                "{} {} {}",
                &s[..a],
                DICTIONARY[rng.below(DICTIONARY.len())],
                &s[a..]
            ),
            2 => format!(
                "{}{}{}",
                &s[..a],
                DICTIONARY[rng.below(DICTIONARY.len())],
                &s[b..]
            ),
            3 if c > b => format!("{}{}{}{}{}", &s[..a], &s[c..d], &s[b..c], &s[a..b], &s[d..]),
            4 => {
                let (lo, hi) = (a.min(c), b.max(d));
                format!("{}{}", &s[..hi], &s[lo..])
            }
            5 => {
                let (lo, hi) = (a.min(c), b.max(d));
                format!("{}{}", &s[..lo], &s[hi..])
            }
            _ => s[..a].to_string(),
        };
    }
    s
}

/// The preprocessed seed split into the system-header part (kept) and the user's part
/// (mutated): the user's part starts at the last line marker naming the seed file.
fn split_seed(pre: &str, file_name: &str) -> (String, String) {
    let mut header_end = 0;
    let mut off = 0;
    for line in pre.split_inclusive('\n') {
        if line.starts_with("# ") && line.contains(file_name) {
            header_end = off;
        }
        off += line.len();
    }
    (pre[..header_end].to_string(), pre[header_end..].to_string())
}

fn seeds() -> Vec<(String, String, String)> {
    let mut files: Vec<PathBuf> = vec![];
    for d in ["benchmarks", "examples", "tests/programs"] {
        let mut stack = vec![root().join(d)];
        while let Some(dir) = stack.pop() {
            for e in std::fs::read_dir(&dir).into_iter().flatten().flatten() {
                let p = e.path();
                if p.is_dir() {
                    stack.push(p);
                } else if p.extension().is_some_and(|x| x == "c")
                    // Programs that test refusals are meant not to lower.
                    && !p.to_string_lossy().ends_with("_refused.c")
                {
                    files.push(p);
                }
            }
        }
    }
    files.sort();
    files
        .iter()
        .filter_map(|f| {
            let o = Command::new("gcc").arg("-E").arg(f).output().ok()?;
            let pre = String::from_utf8(o.stdout).ok()?;
            let name = f.file_name()?.to_string_lossy().into_owned();
            let (header, user) = split_seed(&pre, &name);
            Some((name, header, user))
        })
        .collect()
}

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
    let cases: usize = std::env::var("SEQLOC_FUZZ_CASES")
        .ok()
        .and_then(|v| v.parse().ok())
        .unwrap_or(3000);
    let seed: u64 = std::env::var("SEQLOC_FUZZ_SEED")
        .ok()
        .and_then(|v| v.parse().ok())
        .unwrap_or(0x005E_C10C);
    let seeds = seeds();
    assert!(seeds.len() >= 40, "{} seeds", seeds.len());
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
        let mut rng = Rng(seed ^ (i as u64 + 1).wrapping_mul(0x9E37_79B9_7F4A_7C15));
        let (name, header, user) = &seeds[rng.below(seeds.len())];
        let mutant = mutate(user, &mut rng);
        let ok = std::panic::catch_unwind(|| front_end(name, header, &mutant)).is_ok();
        if ok {
            return None;
        }
        let dir = root().join("target").join("fuzz-failures");
        let _ = std::fs::create_dir_all(&dir);
        let path = dir.join(format!("case{i}-{name}.i"));
        let _ = std::fs::write(&path, format!("{header}{mutant}"));
        Some(path.display().to_string())
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
