//! What one run means: parse the child's stdout, read its exit and the limits, score the
//! verdict against the expected one. Pure functions over a [`RawRun`]; nothing here spawns,
//! prints or touches files.
//!
//! The child's contract (seqloc's `check`/`localize` with `--format json`):
//!
//! ```text
//! exit 0, stdout: {"schema":"seqloc.check/1", "verdict":"failure"|"deadlock"|
//!                  "no-failure-within-bounds"|"unknown", "reason":string|null,
//!                  "property":{...}|null, "bounds":{...}, "time_ms":{...}}
//!                 (localize: "schema":"seqloc.localize/1" and
//!                  "candidates":[{"file":"x.c","line":14,"column":3,...}, ...])
//! exit 1: the same JSON, a failure was found
//! exit 2: input error (syntax error, unsupported construct)
//! exit 3: no answer: the JSON with `"verdict":"unknown"` (or a localization cut short) and
//!         `"limit":"time"|"memory"|"interrupted"|null`, or a checker failure (no JSON)
//! ```
//!
//! On exit 2 or 3 the JSON may still be printed with `"verdict":"unknown"` and a `reason`;
//! otherwise stderr has the message. Only the fields below are read; the others (`property`,
//! `bounds`, `time_ms`, a candidate's `column`, `thread`, ...) are ignored on purpose so that
//! seqloc can add to its output without breaking sweeps. The verdict never comes from the exit
//! code alone, and no output never means "no failure".

use std::path::{Path, PathBuf};
use std::sync::OnceLock;
use std::time::Duration;

use regex::Regex;
use serde::Deserialize;

use super::Mode;
use super::process::{Exit, RawRun};
use super::results::{Status, Verdict};
use super::task::PropertyKind;

/// The part of seqloc's JSON answer the sweep reads.
#[derive(Debug, Deserialize)]
pub(crate) struct ChildOutput {
    pub schema: String,
    pub verdict: Verdict,
    #[serde(default)]
    pub reason: Option<String>,
    /// The limit that stopped the run, typed (`time`, `memory`, `interrupted`).
    #[serde(default)]
    pub limit: Option<String>,
    /// A `no-failure-within-bounds` verdict is a proof for every execution.
    #[serde(default)]
    pub exhaustive: Option<bool>,
    #[serde(default)]
    pub candidates: Option<Vec<Candidate>>,
    /// Why a localization stopped short (a limit after the failure was found).
    #[serde(default)]
    pub stopped: Option<String>,
}

/// One candidate faulty line of `seqloc localize`.
#[derive(Debug, Deserialize)]
pub(crate) struct Candidate {
    #[serde(default)]
    pub file: Option<String>,
    pub line: u32,
}

/// Parses the child's stdout as the answer expected in `mode`. The error quotes the start of
/// the output.
pub(crate) fn parse_output(stdout: &[u8], mode: Mode) -> Result<ChildOutput, String> {
    let text = String::from_utf8_lossy(stdout);
    let text = text.trim();
    if text.is_empty() {
        return Err("no output on stdout".to_string());
    }
    let out: ChildOutput = serde_json::from_str(text)
        .map_err(|e| format!("unparsable output ({e}): {}", snippet(text)))?;
    let family = match mode {
        Mode::Check => "seqloc.check/",
        Mode::Localize => "seqloc.localize/",
    };
    // Version 1.x only: a new major version may mean something else by the same fields.
    let major = out
        .schema
        .strip_prefix(family)
        .and_then(|v| v.split('.').next());
    if major != Some("1") {
        return Err(format!(
            "unexpected output schema `{}` (expected {family}1)",
            out.schema
        ));
    }
    Ok(out)
}

fn snippet(text: &str) -> String {
    const MAX: usize = 200;
    let one_line = text.replace(['\n', '\r'], " ");
    match one_line.char_indices().nth(MAX) {
        Some((i, _)) => format!("`{}...`", &one_line[..i]),
        None => format!("`{one_line}`"),
    }
}

/// What the interpretation of a run needs to know besides the run.
pub(crate) struct Context<'a> {
    pub mode: Mode,
    pub property: &'a PropertyKind,
    pub expected: Option<bool>,
    /// The task's time limit (the child's `--timeout`).
    pub timeout: Duration,
    /// The `RLIMIT_AS` in force, in bytes.
    pub memory_bytes: Option<u64>,
    /// The `RLIMIT_CPU` soft limit in force, in seconds.
    pub cpu_secs: Option<u64>,
    pub inputs: &'a [PathBuf],
    pub faulty_lines: Option<&'a [u32]>,
}

/// The meaning of one run.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) struct Outcome {
    pub status: Status,
    pub verdict: Option<Verdict>,
    pub reason: Option<String>,
    pub candidates: Option<usize>,
    pub hit: Option<bool>,
    pub exhaustive: Option<bool>,
}

impl Outcome {
    fn bare(status: Status, reason: String) -> Outcome {
        Outcome {
            status,
            verdict: None,
            reason: Some(reason),
            candidates: None,
            hit: None,
            exhaustive: None,
        }
    }
}

/// The error document (`seqloc.error/1`) a child prints on stdout when it fails with
/// `--format json`: its message is the reason, not a line of the caret display on stderr.
#[derive(Debug, Deserialize)]
struct ChildError {
    schema: String,
    error: String,
}

fn child_error(stdout: &[u8]) -> Option<String> {
    let e: ChildError = serde_json::from_slice(stdout).ok()?;
    e.schema.starts_with("seqloc.error/").then_some(e.error)
}

/// The message of a child's stderr: its first `error:` line (a caret display follows it),
/// else its last line.
fn stderr_message(stderr: &str) -> Option<String> {
    let lines = || stderr.lines().map(str::trim).filter(|l| !l.is_empty());
    lines()
        .find(|l| l.starts_with("error:"))
        .map(|l| l.trim_start_matches("error:").trim())
        .or_else(|| lines().next_back())
        .map(str::to_string)
}

fn out_of_memory_re() -> &'static Regex {
    static RE: OnceLock<Regex> = OnceLock::new();
    RE.get_or_init(|| {
        // Rust's allocation failure, C++'s bad_alloc, Python's MemoryError, errno ENOMEM's text,
        // and the plain words checkers use.
        Regex::new(
            r"(?i)out of memory|memory allocation of \d+ bytes failed|std::bad_alloc|MemoryError|cannot allocate memory|memory limit|memory exhausted",
        )
        .unwrap_or_else(|_| unreachable!("the pattern is a valid regex"))
    })
}

fn timeout_re() -> &'static Regex {
    static RE: OnceLock<Regex> = OnceLock::new();
    RE.get_or_init(|| {
        Regex::new(r"(?i)\btimed?[ -]?out\b|time limit")
            .unwrap_or_else(|_| unreachable!("the pattern is a valid regex"))
    })
}

/// Decides status, verdict and reason of a run. Order matters: the sweep's own kill first,
/// then deaths by signal, then exit codes, and only an exit 0 with a valid answer is scored.
pub(crate) fn interpret(raw: &RawRun, ctx: &Context<'_>) -> Outcome {
    let secs = |d: Duration| format!("{:.1} s", d.as_secs_f64());
    if raw.killed_on_timeout {
        return Outcome::bare(
            Status::Timeout,
            format!(
                "no answer within the time limit of {}; process group killed after {}",
                secs(ctx.timeout),
                secs(raw.elapsed)
            ),
        );
    }
    let parsed = parse_output(&raw.stdout, ctx.mode);
    let said_oom = out_of_memory_re().is_match(&raw.stderr_tail)
        || parsed
            .as_ref()
            .ok()
            .and_then(|o| o.reason.as_deref())
            .is_some_and(|r| out_of_memory_re().is_match(r));
    let memout = |how: String| {
        let limit = ctx
            .memory_bytes
            .map(|b| format!(" (limit {} MiB)", b >> 20))
            .unwrap_or_default();
        Outcome::bare(Status::Memout, format!("{how}{limit}"))
    };

    if let Exit::Signal(sig) = raw.exit {
        let cpu_over = ctx
            .cpu_secs
            .is_some_and(|limit| raw.cpu_time.as_secs() >= limit);
        let name = signal_name(sig);
        if sig == libc::SIGXCPU || (sig == libc::SIGKILL && cpu_over) {
            return Outcome::bare(
                Status::Timeout,
                format!(
                    "CPU time limit reached after {} of CPU time ({name})",
                    secs(raw.cpu_time)
                ),
            );
        }
        if said_oom {
            return memout(format!("out of memory (killed by {name})"));
        }
        if sig == libc::SIGKILL {
            // Not the sweep (that is `killed_on_timeout`) and not RLIMIT_CPU: the kernel's
            // out-of-memory killer is by far the likeliest sender.
            return memout("killed by SIGKILL, most likely by the out-of-memory killer".into());
        }
        if sig == libc::SIGSEGV && near_memory_limit(raw, ctx) {
            // Under RLIMIT_AS a failed mmap or stack extension often ends in SIGSEGV.
            return memout("killed by SIGSEGV close to the memory limit".into());
        }
        return Outcome::bare(
            Status::Error,
            format!("crashed: killed by {name} (exit code {})", raw.exit.code()),
        );
    }

    let code = raw.exit.code();
    let json_reason = parsed
        .as_ref()
        .ok()
        .and_then(|o| o.reason.clone().or_else(|| o.stopped.clone()));
    // A limit that stopped a localization after its failure was found: the verdict and
    // the candidates so far are kept, the task scored as the limit.
    let cut_short = code == 3
        && parsed
            .as_ref()
            .is_ok_and(|o| matches!(o.verdict, Verdict::Failure | Verdict::Deadlock));
    let child_message = child_error(&raw.stdout).or_else(|| stderr_message(&raw.stderr_tail));
    let why = || {
        json_reason
            .clone()
            .or_else(|| child_message.clone())
            .unwrap_or_else(|| "no message".to_string())
    };
    match code {
        2 => return Outcome::bare(Status::Error, format!("input error (exit 2): {}", why())),
        c if c != 0 && said_oom => {
            return memout(format!("out of memory (exit {code}): {}", why()));
        }
        // 0: no failure within the bounds; 1: a failure or deadlock was found.
        0 | 1 => {}
        3 if cut_short => {}
        3 => match parsed.as_ref().ok().and_then(|o| o.limit.as_deref()) {
            Some("time") => {
                return Outcome::bare(Status::Timeout, format!("time limit (exit 3): {}", why()));
            }
            Some("memory") => return memout(format!("memory limit (exit 3): {}", why())),
            Some(other) => {
                return Outcome::bare(Status::Error, format!("{other} (exit 3): {}", why()));
            }
            None if json_reason
                .as_deref()
                .or(child_message.as_deref())
                .is_some_and(|r| timeout_re().is_match(r)) =>
            {
                // An older seqloc, or an external checker's words: no typed limit.
                return Outcome::bare(Status::Timeout, format!("time limit (exit 3): {}", why()));
            }
            // An answer without a limit (a bound reached, the solver undecided) is scored
            // like any other: `unknown` is its verdict.
            None if parsed.is_ok() => {}
            None => {
                return Outcome::bare(
                    Status::Error,
                    format!("checker failure (exit 3): {}", why()),
                );
            }
        },
        _ => {
            return Outcome::bare(Status::Error, format!("exited with code {code}: {}", why()));
        }
    }

    let out = match parsed {
        Ok(out) => out,
        Err(e) if raw.stdout_truncated => {
            return Outcome::bare(Status::Error, format!("output too long; {e}"));
        }
        Err(e) => return Outcome::bare(Status::Error, e),
    };
    let (mut status, mut reason) = score(ctx.property, ctx.expected, out.verdict);
    if out.verdict == Verdict::Unknown {
        reason = Some(
            out.reason
                .clone()
                .unwrap_or_else(|| "seqloc answered unknown".into()),
        );
    }
    if cut_short {
        let limit = out.limit.as_deref().unwrap_or("time");
        status = if limit == "memory" {
            Status::Memout
        } else {
            Status::Timeout
        };
        reason = Some(format!(
            "{limit} limit (exit 3) after the failure was found: {}",
            why()
        ));
    }
    if raw.elapsed > ctx.timeout {
        // Answered in the grace period after the limit: counted as a timeout, as BenchExec
        // counts a result after the limit; the verdict is kept for the record.
        status = Status::Timeout;
        reason = Some(format!(
            "answered after the time limit of {} (in {})",
            secs(ctx.timeout),
            secs(raw.elapsed)
        ));
    }
    let (candidates, hit) = match (ctx.mode, &out.candidates) {
        (Mode::Localize, Some(c)) => (Some(c.len()), hit(c, ctx.inputs, ctx.faulty_lines)),
        (Mode::Localize, None) => (Some(0), ctx.faulty_lines.map(|_| false)),
        (Mode::Check, _) => (None, None),
    };
    Outcome {
        status,
        verdict: Some(out.verdict),
        reason,
        candidates,
        hit,
        exhaustive: (out.verdict == Verdict::NoFailureWithinBounds)
            .then_some(out.exhaustive.unwrap_or(false)),
    }
}

fn near_memory_limit(raw: &RawRun, ctx: &Context<'_>) -> bool {
    match (ctx.memory_bytes, raw.peak_mem_kib) {
        // Resident memory is below the address space in use; half the limit is close.
        (Some(limit), Some(peak)) => peak.saturating_mul(1024) >= limit / 2,
        _ => false,
    }
}

/// Scores a verdict for a property against the expected verdict. `Unknown` gets no reason
/// here; the caller has the child's.
pub(crate) fn score(
    property: &PropertyKind,
    expected: Option<bool>,
    verdict: Verdict,
) -> (Status, Option<String>) {
    // The verdict that violates this property; `None` for property "all", where any
    // violation counts.
    let violation = match property {
        PropertyKind::UnreachCall => Some(Verdict::Failure),
        PropertyKind::NoDeadlock => Some(Verdict::Deadlock),
        PropertyKind::All | PropertyKind::Unsupported(_) => None,
    };
    match verdict {
        Verdict::Unknown => return (Status::Unknown, None),
        Verdict::Failure | Verdict::Deadlock => {
            if let Some(v) = violation {
                if v != verdict {
                    return (
                        Status::Unknown,
                        Some(format!(
                            "seqloc found a {} while checking {property}, which does not decide it",
                            verdict.as_str()
                        )),
                    );
                }
            }
        }
        Verdict::NoFailureWithinBounds => {}
    }
    let found = verdict != Verdict::NoFailureWithinBounds;
    match expected {
        None => (Status::Unscored, None),
        Some(false) if found => (Status::Correct, None),
        Some(true) if !found => (Status::Correct, None),
        Some(false) => (
            Status::Wrong,
            Some(format!(
                "missed bug: expected a {property} violation, seqloc found none within its bounds"
            )),
        ),
        Some(true) => (
            Status::Wrong,
            Some(format!(
                "false alarm: {property} is expected to hold, seqloc reported a {}",
                verdict.as_str()
            )),
        ),
    }
}

/// Whether a candidate names a faulty line: same line number and the same file name as one of
/// the task's inputs (by base name, since seqloc may print the path differently).
fn hit(candidates: &[Candidate], inputs: &[PathBuf], faulty_lines: Option<&[u32]>) -> Option<bool> {
    let lines = faulty_lines.filter(|l| !l.is_empty())?;
    let names: Vec<&std::ffi::OsStr> = inputs.iter().filter_map(|p| p.file_name()).collect();
    Some(candidates.iter().any(|c| {
        lines.contains(&c.line)
            && c.file
                .as_deref()
                .and_then(|f| Path::new(f).file_name())
                .is_none_or(|f| names.contains(&f))
    }))
}

fn signal_name(sig: i32) -> String {
    let name = match sig {
        libc::SIGHUP => "SIGHUP",
        libc::SIGINT => "SIGINT",
        libc::SIGQUIT => "SIGQUIT",
        libc::SIGILL => "SIGILL",
        libc::SIGTRAP => "SIGTRAP",
        libc::SIGABRT => "SIGABRT",
        libc::SIGBUS => "SIGBUS",
        libc::SIGFPE => "SIGFPE",
        libc::SIGKILL => "SIGKILL",
        libc::SIGSEGV => "SIGSEGV",
        libc::SIGPIPE => "SIGPIPE",
        libc::SIGALRM => "SIGALRM",
        libc::SIGTERM => "SIGTERM",
        libc::SIGXCPU => "SIGXCPU",
        libc::SIGXFSZ => "SIGXFSZ",
        _ => return format!("signal {sig}"),
    };
    format!("{name} (signal {sig})")
}

#[cfg(test)]
mod tests {
    use super::*;

    fn raw(exit: Exit, stdout: &str, stderr: &str) -> RawRun {
        RawRun {
            exit,
            stdout: stdout.as_bytes().to_vec(),
            stdout_truncated: false,
            stderr_tail: stderr.to_string(),
            elapsed: Duration::from_millis(100),
            killed_on_timeout: false,
            interrupted: false,
            peak_mem_kib: Some(1000),
            cpu_time: Duration::from_millis(90),
        }
    }

    fn ctx<'a>(
        mode: Mode,
        property: &'a PropertyKind,
        expected: Option<bool>,
        inputs: &'a [PathBuf],
        faulty: Option<&'a [u32]>,
    ) -> Context<'a> {
        Context {
            mode,
            property,
            expected,
            timeout: Duration::from_secs(10),
            memory_bytes: Some(100 << 20),
            cpu_secs: Some(12),
            inputs,
            faulty_lines: faulty,
        }
    }

    const UC: PropertyKind = PropertyKind::UnreachCall;
    const DL: PropertyKind = PropertyKind::NoDeadlock;

    #[test]
    fn scores_verdicts() {
        use Status::*;
        use Verdict::*;
        let s = |p: &PropertyKind, e, v| score(p, e, v).0;
        assert_eq!(s(&UC, Some(false), Failure), Correct);
        assert_eq!(s(&UC, Some(true), NoFailureWithinBounds), Correct);
        assert_eq!(s(&UC, Some(false), NoFailureWithinBounds), Wrong);
        assert_eq!(s(&UC, Some(true), Failure), Wrong);
        assert_eq!(s(&UC, Some(false), Deadlock), Status::Unknown);
        assert_eq!(s(&UC, Some(true), Deadlock), Status::Unknown);
        assert_eq!(s(&UC, Some(false), Verdict::Unknown), Status::Unknown);
        assert_eq!(s(&DL, Some(false), Deadlock), Correct);
        assert_eq!(s(&DL, Some(true), Deadlock), Wrong);
        assert_eq!(s(&DL, Some(false), Failure), Status::Unknown);
        assert_eq!(s(&DL, Some(true), NoFailureWithinBounds), Correct);
        assert_eq!(s(&PropertyKind::All, None, Failure), Unscored);
        assert_eq!(s(&UC, None, NoFailureWithinBounds), Unscored);
        assert!(
            score(&UC, Some(false), NoFailureWithinBounds)
                .1
                .is_some_and(|r| r.contains("missed"))
        );
        assert!(
            score(&UC, Some(true), Failure)
                .1
                .is_some_and(|r| r.contains("false alarm"))
        );
        assert!(
            score(&UC, Some(true), Deadlock)
                .1
                .is_some_and(|r| r.contains("deadlock"))
        );
    }

    #[test]
    fn parses_child_output_tolerating_extra_fields() {
        let o = parse_output(
            br#"{"schema":"seqloc.check/1","verdict":"failure","reason":null,"property":{"kind":"unreach-call"},"bounds":{"unwind":2},"time_ms":{"total":12},"new":1}"#,
            Mode::Check,
        )
        .unwrap();
        assert_eq!(o.verdict, Verdict::Failure);
        let o = parse_output(
            br#"{"schema":"seqloc.localize/1","verdict":"failure","candidates":[{"file":"x.c","line":14,"column":3,"thread":1}]}"#,
            Mode::Localize,
        )
        .unwrap();
        assert_eq!(o.candidates.map(|c| c.len()), Some(1));
        assert!(parse_output(b"", Mode::Check).is_err());
        assert!(
            parse_output(b"garbage", Mode::Check)
                .unwrap_err()
                .contains("`garbage`")
        );
        assert!(
            parse_output(
                br#"{"schema":"seqloc.check/1","verdict":"maybe"}"#,
                Mode::Check
            )
            .is_err()
        );
        assert!(
            parse_output(
                br#"{"schema":"seqloc.localize/1","verdict":"failure"}"#,
                Mode::Check
            )
            .unwrap_err()
            .contains("schema")
        );
        assert!(
            parse_output(
                br#"{"schema":"seqloc.check/2","verdict":"failure"}"#,
                Mode::Check
            )
            .is_err()
        );
        assert!(
            parse_output(
                br#"{"schema":"seqloc.check/1.1","verdict":"failure"}"#,
                Mode::Check
            )
            .is_ok()
        );
    }

    #[test]
    fn interprets_exits() {
        let inputs = [PathBuf::from("c/x/a.i")];
        let c = ctx(Mode::Check, &UC, Some(false), &inputs, None);
        let ok = r#"{"schema":"seqloc.check/1","verdict":"failure","reason":null}"#;
        assert_eq!(
            interpret(&raw(Exit::Code(0), ok, ""), &c).status,
            Status::Correct
        );

        let o = interpret(
            &raw(
                Exit::Code(2),
                "",
                "a.i:3:1: error: unsupported construct `asm`\n",
            ),
            &c,
        );
        assert_eq!(o.status, Status::Error);
        assert!(o.reason.unwrap().contains("input error (exit 2): a.i:3:1"));

        let unk = r#"{"schema":"seqloc.check/1","verdict":"unknown","reason":"esbmc crashed"}"#;
        // An answer of `unknown` exits 3 (no answer) and is scored as unknown; a failure
        // without an answer on stdout is an error.
        let o = interpret(&raw(Exit::Code(3), unk, ""), &c);
        assert_eq!(o.status, Status::Unknown);
        assert!(o.reason.unwrap().contains("esbmc crashed"));
        let o = interpret(&raw(Exit::Code(3), "", "error: esbmc crashed\n"), &c);
        assert_eq!(o.status, Status::Error);
        assert!(o.reason.unwrap().contains("esbmc crashed"));
        // The typed limit decides, whatever the words.
        let typed =
            r#"{"schema":"seqloc.check/1","verdict":"unknown","reason":"gave up","limit":"time"}"#;
        assert_eq!(
            interpret(&raw(Exit::Code(3), typed, ""), &c).status,
            Status::Timeout
        );
        let typed = r#"{"schema":"seqloc.check/1","verdict":"unknown","reason":"gave up","limit":"memory"}"#;
        assert_eq!(
            interpret(&raw(Exit::Code(3), typed, ""), &c).status,
            Status::Memout
        );

        let tmo = r#"{"schema":"seqloc.check/1","verdict":"unknown","reason":"checker timed out after 900 s"}"#;
        assert_eq!(
            interpret(&raw(Exit::Code(3), tmo, ""), &c).status,
            Status::Timeout
        );
        let oom = r#"{"schema":"seqloc.check/1","verdict":"unknown","reason":"z3: out of memory"}"#;
        assert_eq!(
            interpret(&raw(Exit::Code(3), oom, ""), &c).status,
            Status::Memout
        );
        let o = interpret(
            &raw(
                Exit::Code(0),
                r#"{"schema":"seqloc.check/1","verdict":"unknown","reason":"too many threads"}"#,
                "",
            ),
            &c,
        );
        assert_eq!(
            (o.status, o.reason.as_deref()),
            (Status::Unknown, Some("too many threads"))
        );

        let o = interpret(
            &raw(
                Exit::Code(101),
                "",
                "thread 'main' panicked at src/x.rs:1:1\n",
            ),
            &c,
        );
        assert_eq!(o.status, Status::Error);
        assert!(o.reason.unwrap().contains("exited with code 101"));
        let o = interpret(
            &raw(
                Exit::Code(134),
                "",
                "memory allocation of 1048576 bytes failed\n",
            ),
            &c,
        );
        assert_eq!(o.status, Status::Memout);

        let o = interpret(&raw(Exit::Signal(libc::SIGABRT), "", ""), &c);
        assert_eq!(o.status, Status::Error);
        assert!(
            o.reason
                .unwrap()
                .contains("SIGABRT (signal 6) (exit code 134)")
        );
        assert_eq!(
            interpret(&raw(Exit::Signal(libc::SIGKILL), "", ""), &c).status,
            Status::Memout
        );
        assert_eq!(
            interpret(&raw(Exit::Signal(libc::SIGXCPU), "", ""), &c).status,
            Status::Timeout
        );
        let mut r = raw(Exit::Signal(libc::SIGKILL), "", "");
        r.cpu_time = Duration::from_secs(13);
        assert_eq!(interpret(&r, &c).status, Status::Timeout);
        // SIGSEGV far below the memory limit is a crash; close to it, a memout.
        assert_eq!(
            interpret(&raw(Exit::Signal(libc::SIGSEGV), "", ""), &c).status,
            Status::Error
        );
        let mut r = raw(Exit::Signal(libc::SIGSEGV), "", "");
        r.peak_mem_kib = Some(80 << 10);
        assert_eq!(interpret(&r, &c).status, Status::Memout);

        let o = interpret(&raw(Exit::Code(0), "not json", ""), &c);
        assert_eq!(o.status, Status::Error);
        assert!(o.reason.unwrap().contains("unparsable output"));

        let mut r = raw(Exit::Code(0), ok, "");
        r.killed_on_timeout = true;
        assert_eq!(interpret(&r, &c).status, Status::Timeout);
        let mut r = raw(Exit::Code(0), ok, "");
        r.elapsed = Duration::from_secs(11);
        let o = interpret(&r, &c);
        assert_eq!(
            (o.status, o.verdict),
            (Status::Timeout, Some(Verdict::Failure))
        );
    }

    #[test]
    fn localize_counts_candidates_and_hits() {
        let inputs = [PathBuf::from("c/x/bug.c")];
        let lines = [14u32, 22];
        let c = ctx(Mode::Localize, &UC, Some(false), &inputs, Some(&lines));
        let out = |cands: &str| {
            format!(
                r#"{{"schema":"seqloc.localize/1","verdict":"failure","candidates":[{cands}]}}"#
            )
        };
        let o = interpret(
            &raw(
                Exit::Code(0),
                &out(r#"{"file":"/tmp/x/bug.c","line":22,"column":3},{"file":"bug.c","line":5}"#),
                "",
            ),
            &c,
        );
        assert_eq!((o.candidates, o.hit), (Some(2), Some(true)));
        let o = interpret(
            &raw(Exit::Code(0), &out(r#"{"file":"other.c","line":22}"#), ""),
            &c,
        );
        assert_eq!((o.candidates, o.hit), (Some(1), Some(false)));
        let o = interpret(&raw(Exit::Code(0), &out(""), ""), &c);
        assert_eq!((o.candidates, o.hit), (Some(0), Some(false)));
        let no_truth = ctx(Mode::Localize, &UC, Some(false), &inputs, None);
        let o = interpret(
            &raw(Exit::Code(0), &out(r#"{"file":"bug.c","line":22}"#), ""),
            &no_truth,
        );
        assert_eq!((o.candidates, o.hit), (Some(1), None));
    }
}
