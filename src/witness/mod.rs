//! Violation witnesses: the SV-COMP exchange formats for a failing execution, written for
//! `check` and `localize` failures (`--witness FILE`, `--witness-yaml FILE`) and by
//! `seqloc sweep --witness-dir DIR`, and read back (`--schedule` accepts a GraphML
//! witness seqloc wrote and a YAML format-2.2 witness) so that a witness is replayed by
//! the sequentializer like any schedule.
//!
//! * [`graphml`]: witness format 1.0 (GraphML), one edge per step of the counterexample
//!   with `threadId`, `createThread`, `enterFunction`, `startline`/`endline` and, where
//!   an input value matters, `assumption` (`\result == v` with
//!   `assumption.resultfunction` for `__VERIFIER_nondet_*` calls). seqloc's own keys
//!   (`seqloc-until`, `seqloc-input`, `seqloc-statement`) carry the exact switch points
//!   and input values of the schedule, which line numbers alone cannot name (`x = x + 1`
//!   is a read and a write on one line, and a switch may fall between them); other
//!   tools ignore them, as the format asks of unknown keys.
//! * [`yaml`]: witness format 2.2 (`violation_sequence` with `thread_id`s): a waypoint at
//!   each context switch, the thread creations, the input values (`function_return`) and
//!   the failing check (`target`), in happens-before order, as the validators of
//!   concurrency witnesses replay them. Waypoints name lines, so a schedule whose switches
//!   the line-level reading would move is refused, as are deadlocks (no property of the
//!   format).

pub mod graphml;
pub mod sha256;
pub mod yaml;

use std::path::Path;

use crate::cex::{Counterexample, ViolationKind};
use crate::seq::schedule::{Schedule, ScheduleError};

/// SV-COMP's text of the reachability property (`unreach-call.prp`).
pub const SPEC_UNREACH_CALL: &str = "CHECK( init(main()), LTL(G ! call(reach_error())) )";
/// The deadlock property seqloc's benchmarks use (`benchmarks/properties/no-deadlock.prp`);
/// not an SV-COMP property.
pub const SPEC_NO_DEADLOCK: &str = "CHECK( init(main()), LTL(G ! deadlock) )";

#[derive(Debug, thiserror::Error)]
pub enum WitnessError {
    #[error("cannot read {path}: {reason}")]
    Io { path: String, reason: String },
    #[error("witness {path}: {reason}")]
    Malformed { path: String, reason: String },
    #[error("no {format} witness for this failure: {reason}")]
    NotCovered {
        format: &'static str,
        reason: String,
    },
}

/// The assumed machine, as the witness formats name it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Arch {
    Bits32,
    Bits64,
}

impl Arch {
    /// GraphML's `architecture`.
    pub fn graphml(self) -> &'static str {
        match self {
            Arch::Bits32 => "32bit",
            Arch::Bits64 => "64bit",
        }
    }
    /// YAML's `data_model`.
    pub fn data_model(self) -> &'static str {
        match self {
            Arch::Bits32 => "ILP32",
            Arch::Bits64 => "LP64",
        }
    }
}

/// What a witness says about the task beside the execution.
#[derive(Clone, Debug)]
pub struct Meta {
    /// The program file as it was given to seqloc.
    pub program_file: String,
    /// SHA-256 of the program file's bytes.
    pub program_hash: String,
    pub specification: String,
    pub arch: Arch,
    /// Name and version, e.g. `seqloc 0.1.0`.
    pub producer_name: String,
    pub producer_version: String,
    /// ISO 8601, UTC (`2026-11-25T20:14:05Z`).
    pub creation_time: String,
}

impl Meta {
    /// The metadata of a witness for `cex` on `program`; `specification` is the task's
    /// property text when known (a sweep reads it from the task's `.prp`), otherwise the
    /// one that matches the violation.
    pub fn new(
        program: &Path,
        cex: &Counterexample,
        arch: Arch,
        specification: Option<&str>,
    ) -> Result<Meta, WitnessError> {
        let bytes = std::fs::read(program).map_err(|e| WitnessError::Io {
            path: program.display().to_string(),
            reason: e.to_string(),
        })?;
        let specification = match specification {
            Some(s) => s.trim().to_string(),
            None => match cex.violation.kind {
                ViolationKind::Deadlock => SPEC_NO_DEADLOCK.to_string(),
                _ => SPEC_UNREACH_CALL.to_string(),
            },
        };
        Ok(Meta {
            program_file: program.display().to_string(),
            program_hash: sha256::hex_digest(&bytes),
            specification,
            arch,
            producer_name: "seqloc".into(),
            producer_version: env!("CARGO_PKG_VERSION").into(),
            creation_time: iso8601_utc(std::time::SystemTime::now()),
        })
    }
}

/// The loop bound a replay of `steps` along `schedule` needs: the most times one thread
/// ran one statement, or the schedule's deepest stop, plus one.
pub fn loop_bound(steps: &[crate::cex::TraceStep], schedule: &Schedule) -> u32 {
    let mut runs: std::collections::HashMap<(u32, crate::ir::StmtId), u32> =
        std::collections::HashMap::new();
    for s in steps {
        *runs.entry((s.thread, s.sid)).or_insert(0) += 1;
    }
    runs.values()
        .copied()
        .max()
        .unwrap_or(0)
        .max(schedule.deepest_stop())
        + 1
}

/// `YYYY-MM-DDTHH:MM:SSZ` for a time after 1970.
pub fn iso8601_utc(t: std::time::SystemTime) -> String {
    let secs = t
        .duration_since(std::time::UNIX_EPOCH)
        .map(|d| d.as_secs())
        .unwrap_or(0);
    let (days, rem) = ((secs / 86_400) as i64, secs % 86_400);
    let (y, m, d) = civil_from_days(days);
    format!(
        "{y:04}-{m:02}-{d:02}T{:02}:{:02}:{:02}Z",
        rem / 3600,
        (rem % 3600) / 60,
        rem % 60
    )
}

/// Days since 1970-01-01 to a proleptic Gregorian date (H. Hinnant's algorithm).
fn civil_from_days(z: i64) -> (i64, u32, u32) {
    let z = z + 719_468;
    let era = z.div_euclid(146_097);
    let doe = z.rem_euclid(146_097);
    let yoe = (doe - doe / 1460 + doe / 36_524 - doe / 146_096) / 365;
    let y = yoe + era * 400;
    let doy = doe - (365 * yoe + yoe / 4 - yoe / 100);
    let mp = (5 * doy + 2) / 153;
    let d = (doy - (153 * mp + 2) / 5 + 1) as u32;
    let m = if mp < 10 { mp + 3 } else { mp - 9 } as u32;
    (if m <= 2 { y + 1 } else { y }, m, d)
}

/// What a witness says beside its schedule, for replaying it.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Hints {
    /// A loop bound that lets the replay follow every loop of the execution (the most
    /// times one thread ran one statement, plus one).
    pub unwind: Option<u32>,
    /// The violation is a deadlock: replay with blocking mutexes, joins and waits.
    pub deadlock: bool,
}

/// Reads a schedule file: `seqloc.schedule/1` JSON, a GraphML violation witness that
/// seqloc wrote, or a YAML format-2.2 violation witness (told apart by the first non-blank
/// character: `{`, `<`, anything else).
pub fn load_schedule(path: &Path) -> Result<Schedule, ScheduleError> {
    load_schedule_hints(path).map(|(s, _)| s)
}

/// [`load_schedule`], with the witness's [`Hints`] (none for JSON).
pub fn load_schedule_hints(path: &Path) -> Result<(Schedule, Hints), ScheduleError> {
    let text = std::fs::read_to_string(path).map_err(|e| ScheduleError::Io {
        path: path.display().to_string(),
        reason: e.to_string(),
    })?;
    let name = path.display().to_string();
    let witness = |e: WitnessError| ScheduleError::Mismatch {
        where_: name.clone(),
        reason: e.to_string(),
    };
    let start = text.trim_start();
    if start.starts_with('<') {
        graphml::read(&text, &name).map_err(witness)
    } else if start.starts_with('{') {
        Schedule::from_json(&text, &name).map(|s| (s, Hints::default()))
    } else {
        yaml::read(&text, &name).map_err(witness)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::time::{Duration, UNIX_EPOCH};

    #[test]
    fn iso8601_dates() {
        assert_eq!(iso8601_utc(UNIX_EPOCH), "1970-01-01T00:00:00Z");
        // 2000-02-29 (a leap day of a century year divisible by 400), 12:34:56.
        let t = UNIX_EPOCH + Duration::from_secs(951_827_696);
        assert_eq!(iso8601_utc(t), "2000-02-29T12:34:56Z");
        // 2026-11-25T20:14:05Z
        let t = UNIX_EPOCH + Duration::from_secs(1_795_637_645);
        assert_eq!(iso8601_utc(t), "2026-11-25T20:14:05Z");
    }
}
