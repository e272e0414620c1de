//! The summary table of a sweep, for people: one row per category, a total row and a short
//! legend, as aligned plain text. No colour and no terminal queries: the CLI decides both.

use std::collections::BTreeMap;

use super::Mode;
use super::results::{Status, SweepReport, TaskResult};

#[derive(Default)]
struct Row {
    entries: usize,
    by_status: BTreeMap<Status, usize>,
    localized: usize,
    hits: usize,
    with_truth: usize,
    time_ms: u64,
    max_mem_kib: Option<u64>,
}

impl Row {
    fn add(&mut self, t: &TaskResult) {
        self.entries += 1;
        *self.by_status.entry(t.status).or_default() += 1;
        if t.candidates.is_some_and(|c| c > 0) {
            self.localized += 1;
        }
        if t.hit == Some(true) {
            self.hits += 1;
        }
        // A correct program's empty list of faulty lines is no ground truth to hit.
        if t.faulty_lines.as_ref().is_some_and(|l| !l.is_empty()) && t.status != Status::Skipped {
            self.with_truth += 1;
        }
        self.time_ms = self.time_ms.saturating_add(t.time_ms);
        self.max_mem_kib = self.max_mem_kib.max(t.peak_mem_kib);
    }

    fn count(&self, s: Status) -> usize {
        self.by_status.get(&s).copied().unwrap_or(0)
    }
}

/// Renders the table: columns tasks, correct, wrong, unknown, timeout, memout, error, skipped,
/// (unscored, when a task has no expected verdict), (localize mode: localized, hits), total
/// time, max peak memory; a row per category, sorted, and a total row; then the legend.
pub fn render_table(report: &SweepReport) -> String {
    let mut rows: BTreeMap<&str, Row> = BTreeMap::new();
    let mut total = Row::default();
    for t in &report.tasks {
        rows.entry(t.category.as_str()).or_default().add(t);
        total.add(t);
    }
    let show_unscored = total.count(Status::Unscored) > 0;
    let localize = report.mode == Mode::Localize;

    let mut statuses = vec![
        Status::Correct,
        Status::Wrong,
        Status::Unknown,
        Status::Timeout,
        Status::Memout,
        Status::Error,
        Status::Skipped,
    ];
    if show_unscored {
        statuses.push(Status::Unscored);
    }
    let mut header: Vec<String> = vec!["category".into(), "tasks".into()];
    header.extend(statuses.iter().map(|s| s.as_str().to_string()));
    if localize {
        header.push("localized".into());
        header.push("hits".into());
    }
    header.push("time".into());
    header.push("max mem".into());

    let cells = |name: &str, r: &Row| -> Vec<String> {
        let mut c = vec![name.to_string(), r.entries.to_string()];
        c.extend(statuses.iter().map(|s| r.count(*s).to_string()));
        if localize {
            c.push(r.localized.to_string());
            c.push(format!("{}/{}", r.hits, r.with_truth));
        }
        c.push(format_ms(r.time_ms));
        c.push(r.max_mem_kib.map_or("-".to_string(), format_kib));
        c
    };
    let mut table: Vec<Vec<String>> = vec![header];
    table.extend(rows.iter().map(|(name, r)| cells(name, r)));
    let total_row = cells("total", &total);

    let ncols = total_row.len();
    let widths: Vec<usize> = (0..ncols)
        .map(|i| {
            table
                .iter()
                .chain(std::iter::once(&total_row))
                .map(|row| row[i].chars().count())
                .max()
                .unwrap_or(0)
        })
        .collect();
    let line = |row: &[String]| -> String {
        let mut s = String::new();
        for (i, cell) in row.iter().enumerate() {
            if i == 0 {
                s.push_str(&format!("{cell:<w$}", w = widths[0]));
            } else {
                s.push_str(&format!("  {cell:>w$}", w = widths[i]));
            }
        }
        s.truncate(s.trim_end().len());
        s.push('\n');
        s
    };

    let o = &report.options;
    let mut out = format!(
        "seqloc sweep ({}): {}, time limit {} s, memory limit {}, {}{}\n\n",
        match report.mode {
            Mode::Check => "check",
            Mode::Localize => "localize",
        },
        crate::words::count(report.tasks.len(), "task"),
        trim_float(o.timeout_s),
        if o.memory_mb == 0 {
            "none".to_string()
        } else {
            format!("{} MB", o.memory_mb)
        },
        crate::words::count(o.jobs, "job"),
        o.shard
            .as_deref()
            .map(|s| format!(", shard {s}"))
            .unwrap_or_default(),
    );
    for row in &table {
        out.push_str(&line(row));
    }
    let rule_len = widths.iter().sum::<usize>() + 2 * (ncols - 1);
    out.push_str(&"-".repeat(rule_len));
    out.push('\n');
    out.push_str(&line(&total_row));

    let mut legend: Vec<(&str, &str)> = vec![
        (
            "correct",
            "the expected verdict; for a task expected `true`: no failure within seqloc's bounds\n\
             (a bounded check, unless the explicit-state search covered every execution)",
        ),
        (
            "wrong",
            "a missed bug, or a failure reported on a task expected `true`",
        ),
        (
            "unknown",
            "seqloc answered unknown, or found a deadlock while checking unreach-call\n\
             (or a failure while checking no-deadlock)",
        ),
        ("timeout", "the time limit was reached"),
        ("memout", "the memory limit was reached"),
        (
            "error",
            "input error, checker failure, crash, unreadable output or task file\n\
             (reasons in the JSON results)",
        ),
        (
            "skipped",
            "not run: a property seqloc does not check (e.g. no-data-race)",
        ),
    ];
    if show_unscored {
        legend.push((
            "unscored",
            "answered, but the task has no expected verdict (bare C files)",
        ));
    }
    if localize {
        legend.push(("localized", "tasks with at least one candidate line"));
        legend.push((
            "hits",
            "tasks where a candidate is a known faulty line / tasks with ground truth\n\
             (MANIFEST.json)",
        ));
    }
    legend.push(("time", "sum of the tasks' wall-clock times"));
    legend.push((
        "max mem",
        "largest peak resident memory (seqloc and the checkers it waited for)",
    ));
    out.push_str("\nA task is one task file and one property.\n");
    let term_width = legend.iter().map(|(t, _)| t.len()).max().unwrap_or(0);
    for (term, text) in legend {
        for (k, part) in text.split('\n').enumerate() {
            let term = if k == 0 { term } else { "" };
            out.push_str(&format!("  {term:<term_width$}  {}\n", part.trim_start()));
        }
    }
    out
}

fn trim_float(v: f64) -> String {
    if v.fract() == 0.0 {
        format!("{v:.0}")
    } else {
        format!("{v:.1}")
    }
}

/// `850 ms`, `12.3 s`, `4m 05s`, `2h 03m`.
fn format_ms(ms: u64) -> String {
    match ms {
        0..1_000 => format!("{ms} ms"),
        1_000..60_000 => format!("{:.1} s", ms as f64 / 1000.0),
        60_000..3_600_000 => format!("{}m {:02}s", ms / 60_000, ms / 1000 % 60),
        _ => format!("{}h {:02}m", ms / 3_600_000, ms / 60_000 % 60),
    }
}

/// `512 KiB`, `12.3 MiB`, `1.2 GiB`.
fn format_kib(kib: u64) -> String {
    match kib {
        0..1024 => format!("{kib} KiB"),
        1024..1_048_576 => format!("{:.1} MiB", kib as f64 / 1024.0),
        _ => format!("{:.1} GiB", kib as f64 / 1_048_576.0),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::sweep::results::tests::{report, result};

    #[test]
    fn formats_units() {
        assert_eq!(format_ms(850), "850 ms");
        assert_eq!(format_ms(12_345), "12.3 s");
        assert_eq!(format_ms(245_000), "4m 05s");
        assert_eq!(format_ms(7_380_000), "2h 03m");
        assert_eq!(format_kib(512), "512 KiB");
        assert_eq!(format_kib(12_595), "12.3 MiB");
        assert_eq!(format_kib(1_258_291), "1.2 GiB");
    }

    #[test]
    fn renders_a_check_table() {
        let mut slow = result("c/b/s.yml#unreach-call", "pthread-ext", Status::Timeout);
        slow.time_ms = 901_000;
        slow.peak_mem_kib = Some(1_048_576);
        let r = report(
            Mode::Check,
            vec![
                result("c/a/x.yml#unreach-call", "pthread", Status::Correct),
                result("c/a/y.yml#unreach-call", "pthread", Status::Wrong),
                result("c/a/y.yml#no-data-race", "pthread", Status::Skipped),
                slow,
            ],
        );
        let text = render_table(&r);
        let expected_table = "\
category     tasks  correct  wrong  unknown  timeout  memout  error  skipped    time  max mem
pthread          3        1      1        0        0       0      0        1   4.5 s  2.0 MiB
pthread-ext      1        0      0        0        1       0      0        0  15m 01s  1.0 GiB
";
        // Compare the rows without depending on the exact column widths of the header line.
        let lines: Vec<&str> = text.lines().collect();
        assert!(lines[0].starts_with("seqloc sweep (check): 4 tasks, time limit 900 s"));
        let words = |s: &str| s.split_whitespace().map(str::to_string).collect::<Vec<_>>();
        for (got, want) in lines[2..5].iter().zip(expected_table.lines()) {
            assert_eq!(words(got), words(want));
        }
        assert!(lines[5].chars().all(|c| c == '-'));
        assert_eq!(
            words(lines[6]),
            words("total 4 1 1 0 1 0 0 1 15m 05s 1.0 GiB")
        );
        // Aligned: every table line has the same length (right-aligned last column).
        let widths: Vec<usize> = lines[2..7].iter().map(|l| l.chars().count()).collect();
        assert!(widths.iter().all(|w| *w == widths[0]), "{text}");
        assert!(
            text.contains(
                "a bounded check, unless the explicit-state search covered every execution"
            )
        );
        assert!(!text.contains("unscored"));
        assert!(!text.contains("hits"));
        assert!(!text.contains('\x1b'));
    }

    #[test]
    fn renders_localize_columns() {
        let mut a = result("c/a/x.yml#unreach-call", "pthread", Status::Correct);
        a.candidates = Some(2);
        a.hit = Some(true);
        a.faulty_lines = Some(vec![14]);
        let mut b = result("c/a/y.yml#unreach-call", "pthread", Status::Correct);
        b.candidates = Some(1);
        b.hit = Some(false);
        b.faulty_lines = Some(vec![3]);
        let mut c = result("c/a/z.c#all", "pthread", Status::Unscored);
        c.candidates = Some(0);
        let text = render_table(&report(Mode::Localize, vec![a, b, c]));
        let lines: Vec<&str> = text.lines().collect();
        assert!(lines[2].contains("unscored"));
        assert!(lines[2].contains("localized") && lines[2].contains("hits"));
        let total: Vec<&str> = lines[5].split_whitespace().collect();
        // tasks, 7 statuses, unscored, localized, hits
        assert_eq!(
            &total[1..12],
            &["3", "2", "0", "0", "0", "0", "0", "0", "1", "2", "1/2"]
        );
        assert!(text.contains("hits       tasks where a candidate"));
    }
}
