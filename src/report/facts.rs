//! `seqloc parse`: the concurrency facts of a program, as text or JSON
//! (`seqloc.parse/1`: the [`Facts`] fields, plus `schema` and `program`).

use std::collections::BTreeMap;

use serde::Serialize;

use super::style::Style;
use crate::analysis::facts::Facts;
use crate::analysis::loops::TripCount;
use crate::seq::schedule::short_file;

pub const SCHEMA: &str = "seqloc.parse/1";

#[derive(Serialize)]
struct FactsJson<'a> {
    schema: &'static str,
    program: &'a str,
    #[serde(flatten)]
    facts: &'a Facts,
}

pub fn to_json(facts: &Facts, program: &str) -> String {
    serde_json::to_string_pretty(&FactsJson {
        schema: SCHEMA,
        program,
        facts,
    })
    .unwrap_or_default()
}

fn count(t: TripCount) -> String {
    match t {
        TripCount::Exactly(1) => "1 instance".into(),
        TripCount::Exactly(n) => format!("{n} instances"),
        TripCount::Unbounded => "unbounded instances (created in an endless loop)".into(),
        TripCount::Unknown => "a number of instances that depends on the input".into(),
    }
}

fn short(at: &str) -> String {
    let mut parts = at.rsplitn(3, ':').collect::<Vec<_>>();
    parts.reverse();
    match parts.as_slice() {
        [file, line, _col] => format!("{}:{}", short_file(file), line),
        _ => short_file(at).to_string(),
    }
}

fn lines(v: &[u32]) -> String {
    if v.is_empty() {
        "-".into()
    } else {
        v.iter()
            .map(|l| l.to_string())
            .collect::<Vec<_>>()
            .join(", ")
    }
}

pub fn render_text(f: &Facts, program: &str, st: &Style) -> String {
    let mut s = format!("{} {}\n", st.bold("seqloc parse"), program);
    s.push_str(&format!("\n{}\n", st.bold("Threads")));
    s.push_str(&format!("  {:<24} {}\n", "main", "the initial thread"));
    for t in &f.threads {
        s.push_str(&format!(
            "  {:<24} defined at {}, {}\n",
            t.function,
            short(&t.defined_at),
            count(t.instances)
        ));
        for c in &t.creations {
            let how = match c.instances {
                TripCount::Exactly(1) => String::new(),
                other => format!(" ({} per run of `{}`)", count(other), c.in_function),
            };
            let ind = if c.indirect {
                ", through a function pointer"
            } else {
                ""
            };
            s.push_str(&format!(
                "      created at {} in `{}`{}{}\n",
                short(&c.at),
                c.in_function,
                how,
                ind
            ));
        }
    }
    if f.threads.is_empty() {
        s.push_str("  (no pthread_create: the program is single-threaded)\n");
    }
    s.push_str(&format!("\n{}\n", st.bold("Shared variables")));
    if f.shared.is_empty() {
        s.push_str("  (none)\n");
    }
    for v in &f.shared {
        s.push_str(&format!(
            "  {:<16} {:<22} threads: {:<20} reads: {:<14} writes: {}\n",
            v.name,
            short(&v.declared_at),
            v.threads.join(", "),
            lines(&v.reads),
            lines(&v.writes)
        ));
    }
    if !f.escaping.is_empty() {
        s.push_str(&format!(
            "\n{}\n",
            st.bold("Memory reachable from several threads")
        ));
        for e in &f.escaping {
            s.push_str(&format!(
                "  {:<16} {:<22} {}\n",
                e.what,
                short(&e.at),
                e.how
            ));
        }
    }
    s.push_str(&format!("\n{}\n", st.bold("Locks and condition variables")));
    if f.sync_objects.is_empty() {
        s.push_str("  (none)\n");
    }
    for o in &f.sync_objects {
        let mut by: BTreeMap<String, Vec<u32>> = BTreeMap::new();
        for u in &o.uses {
            let op = u.function.trim_start_matches("pthread_").to_string();
            by.entry(op).or_default().push(u.line);
        }
        let uses = by
            .into_iter()
            .map(|(op, l)| format!("{op} {}", lines(&l)))
            .collect::<Vec<_>>()
            .join("; ");
        let kind = match o.kind {
            crate::ir::known::SyncKind::Mutex => "mutex",
            crate::ir::known::SyncKind::Cond => "condition variable",
            crate::ir::known::SyncKind::Semaphore => "semaphore",
            crate::ir::known::SyncKind::RwLock => "read-write lock",
            crate::ir::known::SyncKind::Barrier => "barrier",
            crate::ir::known::SyncKind::Once => "once control",
        };
        s.push_str(&format!(
            "  {:<16} {:<18} {:<22} {}\n",
            o.name,
            kind,
            short(&o.declared_at),
            uses
        ));
    }
    if !f.atomic_functions.is_empty() {
        s.push_str(&format!(
            "\n{}\n  {}\n",
            st.bold("Atomic functions"),
            f.atomic_functions.join(", ")
        ));
    }
    s.push_str(&format!("\n{}\n", st.bold("Assertions")));
    if f.assertions.is_empty() {
        s.push_str("  (none)\n");
    }
    for a in &f.assertions {
        s.push_str(&format!(
            "  {:<22} in `{}`: {}\n",
            short(&a.at),
            a.in_function,
            a.text
        ));
    }
    let mut calls: BTreeMap<String, usize> = BTreeMap::new();
    for c in f.pthread_calls.iter().chain(f.svcomp_calls.iter()) {
        *calls.entry(c.function.clone()).or_default() += 1;
    }
    if !calls.is_empty() {
        s.push_str(&format!("\n{}\n  ", st.bold("pthread and SV-COMP calls")));
        s.push_str(
            &calls
                .into_iter()
                .map(|(f, n)| format!("{f} x{n}"))
                .collect::<Vec<_>>()
                .join(", "),
        );
        s.push('\n');
    }
    s
}
