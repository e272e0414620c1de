//! The results of a sweep and their machine-readable forms: JSON (the wire format) and CSV.
//!
//! This module owns the serialized types; nothing here runs or scores anything.
//!
//! # JSON (`seqloc.sweep/1`)
//!
//! One object:
//!
//! * `schema`: `"seqloc.sweep/1"`; a change that removes or retypes a field bumps it.
//! * `mode`: `"check"` or `"localize"`.
//! * `started`: when the sweep started, RFC 3339 UTC (`2026-11-01T12:00:00Z`).
//! * `elapsed_ms`: wall-clock time of the whole sweep.
//! * `machine`: `cores`, `os`, `arch`, `kernel` (release, when known).
//! * `options`: `timeout_s`, `memory_mb` (0: none), `jobs`, `shard` (`"2/8"` or null),
//!   `extra_args`, `seqloc_exe`, `paths`.
//! * `merged_from`: the result files a merged report was made from (absent otherwise).
//! * `tasks`: one [`TaskResult`] per task and property, sorted by `id`, fields as documented
//!   there. Optional fields are `null` when unknown.
//!
//! Readers should ignore fields they do not know; later `seqloc.sweep/1` files may add some.
//!
//! # CSV
//!
//! One header row, then one row per [`TaskResult`], columns [`CSV_COLUMNS`]; RFC 4180: CRLF
//! line ends, a field holding a comma, a quote or a line break is quoted and its quotes doubled.
//! Empty means unknown. `stderr_tail` and `command` are in the JSON only.

use std::io::Write;
use std::path::Path;
use std::time::{Duration, SystemTime, UNIX_EPOCH};

use serde::{Deserialize, Serialize};

use super::task::DataModel;
use super::{Mode, SweepError, SweepOptions};

/// The `schema` of a sweep result file.
pub const SCHEMA: &str = "seqloc.sweep/1";

/// A whole sweep (or several merged shards).
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct SweepReport {
    pub schema: String,
    pub mode: Mode,
    pub started: String,
    #[serde(default)]
    pub elapsed_ms: u64,
    pub machine: Machine,
    pub options: ReportOptions,
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub merged_from: Vec<String>,
    /// The sweep was stopped (SIGINT, SIGTERM) before every task ran: the tasks it ended
    /// or never started are `skipped`, with the reason.
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub interrupted: bool,
    pub tasks: Vec<TaskResult>,
}

/// The machine a sweep ran on.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Machine {
    pub cores: usize,
    pub os: String,
    pub arch: String,
    #[serde(default)]
    pub kernel: Option<String>,
}

impl Machine {
    /// This machine.
    pub fn current() -> Machine {
        Machine {
            cores: super::default_jobs(),
            os: std::env::consts::OS.to_string(),
            arch: std::env::consts::ARCH.to_string(),
            kernel: kernel_release(),
        }
    }
}

fn kernel_release() -> Option<String> {
    // SAFETY: utsname is plain old data; uname fills it with NUL-terminated strings.
    let mut u: libc::utsname = unsafe { std::mem::zeroed() };
    if unsafe { libc::uname(&mut u) } != 0 {
        return None;
    }
    // SAFETY: uname succeeded, so `release` is NUL-terminated within the array.
    let release = unsafe { std::ffi::CStr::from_ptr(u.release.as_ptr()) };
    Some(release.to_string_lossy().into_owned())
}

/// The options a sweep ran with, as recorded in its results.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct ReportOptions {
    pub timeout_s: f64,
    pub memory_mb: u64,
    pub jobs: usize,
    pub shard: Option<String>,
    #[serde(default)]
    pub extra_args: Vec<String>,
    pub seqloc_exe: String,
    #[serde(default)]
    pub paths: Vec<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub witness_dir: Option<String>,
}

impl ReportOptions {
    pub fn from_options(opts: &SweepOptions) -> ReportOptions {
        ReportOptions {
            timeout_s: opts.timeout.as_secs_f64(),
            memory_mb: opts.memory_mb,
            jobs: opts.effective_jobs(),
            shard: opts.shard.map(|(i, n)| format!("{i}/{n}")),
            extra_args: opts.extra_args.clone(),
            seqloc_exe: opts.seqloc_exe.display().to_string(),
            paths: opts.paths.iter().map(|p| p.display().to_string()).collect(),
            witness_dir: opts.witness_dir.as_ref().map(|p| p.display().to_string()),
        }
    }
}

/// What seqloc answered (the child's `verdict`).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum Verdict {
    /// A reachable failure (`reach_error()` or a failing assertion).
    Failure,
    /// A reachable deadlock.
    Deadlock,
    /// No failure within seqloc's bounds: not a proof.
    NoFailureWithinBounds,
    Unknown,
}

impl Verdict {
    pub fn as_str(self) -> &'static str {
        match self {
            Verdict::Failure => "failure",
            Verdict::Deadlock => "deadlock",
            Verdict::NoFailureWithinBounds => "no-failure-within-bounds",
            Verdict::Unknown => "unknown",
        }
    }
}

/// How a task and property came out. Every entry has exactly one.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum Status {
    /// The verdict matches the expected verdict (`true` tasks: no failure within bounds).
    Correct,
    /// The verdict contradicts the expected verdict (a missed bug or a false alarm).
    Wrong,
    /// seqloc answered `unknown`, or a verdict that does not decide this property.
    Unknown,
    /// seqloc answered, but the task has no expected verdict (bare C files).
    Unscored,
    /// The wall-clock or CPU limit passed.
    Timeout,
    /// The memory limit was hit.
    Memout,
    /// The run failed: input error (exit 2), checker failure (exit 3), crash, other exit code,
    /// unparsable output, or a task definition that cannot be used.
    Error,
    /// Not run: seqloc does not check this property (or this kind of task).
    Skipped,
}

impl Status {
    pub const ALL: [Status; 8] = [
        Status::Correct,
        Status::Wrong,
        Status::Unknown,
        Status::Unscored,
        Status::Timeout,
        Status::Memout,
        Status::Error,
        Status::Skipped,
    ];

    pub fn as_str(self) -> &'static str {
        match self {
            Status::Correct => "correct",
            Status::Wrong => "wrong",
            Status::Unknown => "unknown",
            Status::Unscored => "unscored",
            Status::Timeout => "timeout",
            Status::Memout => "memout",
            Status::Error => "error",
            Status::Skipped => "skipped",
        }
    }
}

/// The result for one task and one property.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct TaskResult {
    /// `<task path>#<property>`, e.g. `c/pthread/lazy01.yml#unreach-call`. Unique in a report.
    pub id: String,
    /// The task definition, `null` for a bare C file.
    pub yml: Option<String>,
    /// The program given to seqloc (the first input file), `null` if the task has none.
    pub input: Option<String>,
    /// The folder holding the task (SV-COMP category folder).
    pub category: String,
    /// `unreach-call`, `no-deadlock`, `all` (bare file), or the name of a property seqloc does
    /// not check (`no-data-race`, ...).
    pub property: String,
    /// `expected_verdict`: `true` (holds), `false` (violated), `null` (not given).
    pub expected: Option<bool>,
    /// The data model given to seqloc.
    #[serde(default)]
    pub data_model: Option<DataModel>,
    /// seqloc's verdict, when it gave one.
    pub verdict: Option<Verdict>,
    /// For a `no-failure-within-bounds` verdict: `true` when it is a proof for every
    /// execution (the explicit-state search covered them all, or nothing reachable can
    /// fail), `false` when it holds within the bounds only; `null` for other verdicts.
    #[serde(default)]
    pub exhaustive: Option<bool>,
    pub status: Status,
    /// Why the status is what it is, in words (null for a plain correct answer).
    pub reason: Option<String>,
    /// Wall-clock time of the run, 0 when not run.
    pub time_ms: u64,
    /// Peak resident memory of the run (seqloc and the checkers it waited for).
    pub peak_mem_kib: Option<u64>,
    /// The exit code, or 128 + signal for a run killed by a signal.
    #[serde(default)]
    pub exit_code: Option<i32>,
    /// Localize mode: the number of candidate lines.
    pub candidates: Option<usize>,
    /// Localize mode: whether a candidate is a faulty line of the ground truth (`null`
    /// without ground truth or without a candidate list).
    pub hit: Option<bool>,
    /// The ground truth's faulty lines, when known.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub faulty_lines: Option<Vec<u32>>,
    /// The last lines of the child's stderr, for runs that did not end well.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub stderr_tail: Option<String>,
    /// The command that ran, ready to paste into a shell.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub command: Option<String>,
    /// With `--witness-dir`: the violation witnesses the run wrote (GraphML, and YAML for an
    /// assertion or `reach_error` failure).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub witnesses: Vec<String>,
    /// With `--witness-dir`: why a failure has no GraphML witness (seqloc's warning).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub witness_note: Option<String>,
}

/// Writes the report as pretty-printed JSON with a final newline.
pub fn write_json(report: &SweepReport, mut out: impl Write) -> Result<(), SweepError> {
    let wrap = |source| SweepError::Write {
        what: "JSON",
        source,
    };
    serde_json::to_writer_pretty(&mut out, report).map_err(|e| wrap(std::io::Error::other(e)))?;
    out.write_all(b"\n").map_err(wrap)?;
    out.flush().map_err(wrap)
}

/// Reads a result file written by [`write_json`].
pub fn read_json(path: &Path) -> Result<SweepReport, SweepError> {
    let text = std::fs::read_to_string(path).map_err(|source| SweepError::Io {
        path: path.to_path_buf(),
        source,
    })?;
    let bad = |message: String| SweepError::BadReport {
        path: path.to_path_buf(),
        message,
    };
    let value: serde_json::Value = serde_json::from_str(&text).map_err(|e| bad(e.to_string()))?;
    match value.get("schema").and_then(|s| s.as_str()) {
        Some(SCHEMA) => {}
        Some(other) => return Err(bad(format!("schema is {other}, expected {SCHEMA}"))),
        None => return Err(bad(format!("no schema field (expected {SCHEMA})"))),
    }
    serde_json::from_value(value).map_err(|e| bad(e.to_string()))
}

/// The CSV columns, in order.
pub const CSV_COLUMNS: [&str; 15] = [
    "id",
    "category",
    "property",
    "expected",
    "verdict",
    "status",
    "reason",
    "time_ms",
    "peak_mem_kib",
    "exit_code",
    "candidates",
    "hit",
    "yml",
    "input",
    "data_model",
];

/// Writes one header row and one row per task (RFC 4180).
pub fn write_csv(report: &SweepReport, mut out: impl Write) -> Result<(), SweepError> {
    let wrap = |source| SweepError::Write {
        what: "CSV",
        source,
    };
    let opt = |v: Option<String>| v.unwrap_or_default();
    let mut text = csv_row(CSV_COLUMNS.iter().map(|s| s.to_string()));
    for t in &report.tasks {
        text.push_str(&csv_row([
            t.id.clone(),
            t.category.clone(),
            t.property.clone(),
            opt(t.expected.map(|b| b.to_string())),
            opt(t.verdict.map(|v| v.as_str().to_string())),
            t.status.as_str().to_string(),
            opt(t.reason.clone()),
            t.time_ms.to_string(),
            opt(t.peak_mem_kib.map(|m| m.to_string())),
            opt(t.exit_code.map(|c| c.to_string())),
            opt(t.candidates.map(|c| c.to_string())),
            opt(t.hit.map(|h| h.to_string())),
            opt(t.yml.clone()),
            opt(t.input.clone()),
            opt(t.data_model.map(|d| d.cli_value().to_string())),
        ]));
    }
    out.write_all(text.as_bytes()).map_err(wrap)?;
    out.flush().map_err(wrap)
}

fn csv_row(fields: impl IntoIterator<Item = String>) -> String {
    let mut row = fields
        .into_iter()
        .map(|f| csv_field(&f))
        .collect::<Vec<_>>()
        .join(",");
    row.push_str("\r\n");
    row
}

/// Quotes a field when RFC 4180 requires it (comma, quote, CR or LF), doubling its quotes.
pub(crate) fn csv_field(field: &str) -> String {
    if field.contains([',', '"', '\r', '\n']) {
        format!("\"{}\"", field.replace('"', "\"\""))
    } else {
        field.to_string()
    }
}

/// `t` as RFC 3339 UTC with second precision. Written by hand to avoid a date crate for one
/// timestamp; days to civil date after Howard Hinnant's `civil_from_days`.
pub fn rfc3339_utc(t: SystemTime) -> String {
    let secs = t
        .duration_since(UNIX_EPOCH)
        .unwrap_or(Duration::ZERO)
        .as_secs();
    let days = (secs / 86_400) as i64;
    let rem = secs % 86_400;
    let z = days + 719_468;
    let era = z.div_euclid(146_097);
    let doe = z.rem_euclid(146_097);
    let yoe = (doe - doe / 1460 + doe / 36_524 - doe / 146_096) / 365;
    let doy = doe - (365 * yoe + yoe / 4 - yoe / 100);
    let mp = (5 * doy + 2) / 153;
    let day = doy - (153 * mp + 2) / 5 + 1;
    let month = if mp < 10 { mp + 3 } else { mp - 9 };
    let year = yoe + era * 400 + i64::from(month <= 2);
    format!(
        "{year:04}-{month:02}-{day:02}T{:02}:{:02}:{:02}Z",
        rem / 3600,
        rem % 3600 / 60,
        rem % 60
    )
}

#[cfg(test)]
pub(crate) mod tests {
    use super::*;

    pub(crate) fn result(id: &str, category: &str, status: Status) -> TaskResult {
        TaskResult {
            id: id.to_string(),
            yml: Some(id.split('#').next().unwrap_or(id).to_string()),
            input: None,
            category: category.to_string(),
            property: "unreach-call".to_string(),
            expected: Some(false),
            data_model: Some(DataModel::Ilp32),
            verdict: None,
            exhaustive: None,
            status,
            reason: None,
            time_ms: 1500,
            peak_mem_kib: Some(2048),
            exit_code: Some(0),
            candidates: None,
            hit: None,
            faulty_lines: None,
            stderr_tail: None,
            command: None,
            witnesses: Vec::new(),
            witness_note: None,
        }
    }

    pub(crate) fn report(mode: Mode, tasks: Vec<TaskResult>) -> SweepReport {
        SweepReport {
            schema: SCHEMA.to_string(),
            mode,
            started: "2026-11-01T12:00:00Z".to_string(),
            elapsed_ms: 10,
            machine: Machine {
                cores: 2,
                os: "linux".into(),
                arch: "x86_64".into(),
                kernel: None,
            },
            options: ReportOptions {
                timeout_s: 900.0,
                memory_mb: 15000,
                jobs: 2,
                shard: None,
                extra_args: vec![],
                seqloc_exe: "seqloc".into(),
                paths: vec!["c".into()],
                witness_dir: None,
            },
            merged_from: vec![],
            interrupted: false,
            tasks,
        }
    }

    #[test]
    fn csv_quotes_per_rfc_4180() {
        assert_eq!(csv_field("plain"), "plain");
        assert_eq!(csv_field("a,b"), "\"a,b\"");
        assert_eq!(csv_field("say \"hi\""), "\"say \"\"hi\"\"\"");
        assert_eq!(csv_field("two\nlines"), "\"two\nlines\"");
        assert_eq!(csv_field("cr\r"), "\"cr\r\"");
        assert_eq!(csv_field(""), "");
    }

    #[test]
    fn csv_has_a_header_and_one_row_per_task() {
        let mut t = result("c/x/a.yml#unreach-call", "x", Status::Error);
        t.reason = Some("exited with code 1: \"boom\", then\nmore".into());
        let r = report(
            Mode::Check,
            vec![t, result("c/x/b.yml#unreach-call", "x", Status::Correct)],
        );
        let mut out = Vec::new();
        write_csv(&r, &mut out).unwrap();
        let text = String::from_utf8(out).unwrap();
        let rows: Vec<&str> = text.split("\r\n").collect();
        assert_eq!(rows.len(), 4, "{text:?}"); // header, 2 rows, empty after the last CRLF
        assert_eq!(rows[0], CSV_COLUMNS.join(","));
        assert!(rows[1].starts_with("c/x/a.yml#unreach-call,x,unreach-call,false,,error,\"exited with code 1: \"\"boom\"\", then\nmore\",1500,2048,0,,,c/x/a.yml,,ilp32"), "{}", rows[1]);
        assert_eq!(rows[3], "");
    }

    #[test]
    fn json_round_trips() {
        let mut t = result("c/x/a.yml#unreach-call", "x", Status::Correct);
        t.verdict = Some(Verdict::NoFailureWithinBounds);
        t.candidates = Some(3);
        t.hit = Some(true);
        let r = report(Mode::Localize, vec![t]);
        let mut out = Vec::new();
        write_json(&r, &mut out).unwrap();
        let text = String::from_utf8(out).unwrap();
        assert!(text.contains("\"schema\": \"seqloc.sweep/1\""));
        assert!(text.contains("\"verdict\": \"no-failure-within-bounds\""));
        let dir = tempfile::tempdir().unwrap();
        let p = dir.path().join("r.json");
        std::fs::write(&p, &text).unwrap();
        assert_eq!(read_json(&p).unwrap(), r);
        std::fs::write(&p, "{\"schema\":\"other/1\"}").unwrap();
        assert!(matches!(read_json(&p), Err(SweepError::BadReport { .. })));
    }

    #[test]
    fn formats_timestamps() {
        assert_eq!(rfc3339_utc(UNIX_EPOCH), "1970-01-01T00:00:00Z");
        let t = UNIX_EPOCH + Duration::from_secs(1_709_210_096); // a leap day
        assert_eq!(rfc3339_utc(t), "2024-02-29T12:34:56Z");
    }
}
