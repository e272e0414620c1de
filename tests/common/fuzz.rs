//! Mutation fuzzing's shared parts: seeds (the repository's own programs, preprocessed once
//! with `gcc -E`, split into the system headers and the user's part) and the mutations of
//! the user's part (token insertions, deletions, swaps, duplications, truncation, odd
//! literals). `fuzz_frontend` runs the mutants through the front end, `fuzz_pipeline`
//! through the whole `check`.

use std::path::PathBuf;
use std::process::Command;

use super::root;

/// xorshift64*: deterministic, dependency-free, good enough to pick mutations.
pub struct Rng(pub u64);

impl Rng {
    pub fn next(&mut self) -> u64 {
        self.0 ^= self.0 >> 12;
        self.0 ^= self.0 << 25;
        self.0 ^= self.0 >> 27;
        self.0.wrapping_mul(0x2545_F491_4F6C_DD1D)
    }
    pub fn below(&mut self, n: usize) -> usize {
        if n == 0 {
            0
        } else {
            (self.next() % n as u64) as usize
        }
    }
}

/// Tokens that steer mutants into the lowering's corners rather than only the parser's.
pub const DICTIONARY: &[&str] = &[
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

pub fn tokens(s: &str) -> Vec<(usize, usize)> {
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

pub fn mutate(user: &str, rng: &mut Rng) -> String {
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
pub fn split_seed(pre: &str, file_name: &str) -> (String, String) {
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

pub fn seeds() -> Vec<(String, String, String)> {
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
    // `SEQLOC_FUZZ_SEEDS=a,b`: only the seeds whose file name contains one of the words,
    // to aim a run at a new model (`stdin_,strings_,math_`).
    if let Ok(only) = std::env::var("SEQLOC_FUZZ_SEEDS") {
        let words: Vec<&str> = only.split(',').filter(|w| !w.is_empty()).collect();
        files.retain(|f| {
            let name = f
                .file_name()
                .map(|n| n.to_string_lossy())
                .unwrap_or_default();
            words.iter().any(|w| name.contains(w))
        });
    }
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

/// The case numbers of a run: `SEQLOC_FUZZ_CASES` of them (else `default_cases`) from
/// `SEQLOC_FUZZ_FIRST` (else 0), so that one case of a long run can be run again alone.
pub fn case_ids(default_cases: usize) -> Vec<usize> {
    let (cases, _) = run_config(default_cases);
    let first: usize = std::env::var("SEQLOC_FUZZ_FIRST")
        .ok()
        .and_then(|v| v.parse().ok())
        .unwrap_or(0);
    (first..first.saturating_add(cases)).collect()
}

/// Case count and seed of a run: `SEQLOC_FUZZ_CASES` (else `default_cases`) and
/// `SEQLOC_FUZZ_SEED`.
pub fn run_config(default_cases: usize) -> (usize, u64) {
    let cases = std::env::var("SEQLOC_FUZZ_CASES")
        .ok()
        .and_then(|v| v.parse().ok())
        .unwrap_or(default_cases);
    let seed = std::env::var("SEQLOC_FUZZ_SEED")
        .ok()
        .and_then(|v| v.parse().ok())
        .unwrap_or(0x005E_C10C);
    (cases, seed)
}

/// The generator of case `i` of a run with `seed`: each case is reproducible alone.
pub fn case_rng(seed: u64, i: usize) -> Rng {
    Rng(seed ^ (i as u64 + 1).wrapping_mul(0x9E37_79B9_7F4A_7C15))
}

/// Saves a mutant that failed under `target/fuzz-failures/` and returns its path.
pub fn save_failure(tag: &str, i: usize, name: &str, text: &str) -> String {
    let dir = root().join("target").join("fuzz-failures");
    let _ = std::fs::create_dir_all(&dir);
    let path = dir.join(format!("{tag}-case{i}-{name}.i"));
    let _ = std::fs::write(&path, text);
    path.display().to_string()
}

/// Statements a line mutation inserts: synchronisation and thread calls out of place, the
/// SV-COMP primitives, jumps.
pub const STATEMENTS: &[&str] = &[
    "pthread_mutex_lock(&m);",
    "pthread_mutex_unlock(&m);",
    "pthread_cond_signal(&c);",
    "pthread_join(t, 0);",
    "__VERIFIER_atomic_begin();",
    "__VERIFIER_atomic_end();",
    "__VERIFIER_assume(x > 0);",
    "assert(0);",
    "return 0;",
    "break;",
    "x = x + 1;",
    "abort();",
];

const OPERATORS: &[&str] = &[
    " + ", " - ", " < ", " <= ", " > ", " >= ", " == ", " != ", " && ", " || ",
];

const NUMBERS: &[&str] = &["0", "1", "2", "-1", "3", "255", "2147483647", "100"];

/// Mutations that mostly keep the program parseable, so that mutants get past the front end
/// into the analyses: a line deleted, duplicated elsewhere or swapped with another, an
/// integer literal or a binary operator of a line replaced, a statement inserted.
pub fn mutate_lines(user: &str, rng: &mut Rng) -> String {
    let mut lines: Vec<String> = user.lines().map(str::to_string).collect();
    for _ in 0..1 + rng.below(3) {
        if lines.is_empty() {
            break;
        }
        let i = rng.below(lines.len());
        let j = rng.below(lines.len());
        match rng.below(6) {
            0 => {
                lines.remove(i);
            }
            1 => {
                let l = lines[i].clone();
                lines.insert(j, l);
            }
            2 => lines.swap(i, j),
            3 => {
                let l = &lines[i];
                let digits: Vec<usize> = l
                    .char_indices()
                    .filter(|(k, c)| {
                        c.is_ascii_digit()
                            && !l[..*k].ends_with(|p: char| p.is_ascii_alphanumeric() || p == '_')
                    })
                    .map(|(k, _)| k)
                    .collect();
                if !digits.is_empty() {
                    let start = digits[rng.below(digits.len())];
                    let end = l[start..]
                        .find(|c: char| !c.is_ascii_alphanumeric())
                        .map_or(l.len(), |n| start + n);
                    let new = NUMBERS[rng.below(NUMBERS.len())];
                    lines[i] = format!("{}{new}{}", &l[..start], &l[end..]);
                }
            }
            4 => {
                let l = &lines[i];
                let found: Vec<(usize, &str)> = OPERATORS
                    .iter()
                    .flat_map(|op| l.match_indices(op).collect::<Vec<_>>())
                    .collect();
                if !found.is_empty() {
                    let (at, op) = found[rng.below(found.len())];
                    let new = OPERATORS[rng.below(OPERATORS.len())];
                    lines[i] = format!("{}{new}{}", &l[..at], &l[at + op.len()..]);
                }
            }
            _ => lines.insert(i, STATEMENTS[rng.below(STATEMENTS.len())].to_string()),
        }
    }
    let mut out = lines.join("\n");
    out.push('\n');
    out
}
