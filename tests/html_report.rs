//! The HTML report (`--format html`, `--html FILE`) of three failing programs with 2, 3
//! and 10 worker threads: a DOM check (the page is read as XML by the test, so it is
//! well-formed) that every candidate line, every thread and every step appear, that the
//! page loads nothing from elsewhere; and a headless chromium rendering of each page to a
//! PNG (`target/html-report/NAME.png`, kept to look at), skipped with a notice where no
//! chromium is installed.

use std::io::Write as _;
mod common;

use common::{json, root, run, stderr};
use quick_xml::events::Event;
use serde_json::Value;
use std::collections::HashMap;
use std::path::{Path, PathBuf};

/// An element as the test reads it: name, attributes, and its text (direct and nested).
#[derive(Debug, Default, Clone)]
struct El {
    name: String,
    attrs: HashMap<String, String>,
    text: String,
}

fn read_page(html: &str) -> Vec<El> {
    let mut r = quick_xml::Reader::from_str(html);
    let mut open: Vec<usize> = vec![];
    let mut all: Vec<El> = vec![];
    loop {
        let ev = r.read_event().expect("the page is well-formed");
        match &ev {
            Event::Start(e) | Event::Empty(e) => {
                let mut el = El {
                    name: e.local_name().as_ref().to_string(),
                    ..El::default()
                };
                for a in e.attributes() {
                    let a = a.expect("attribute");
                    el.attrs
                        .insert(a.key.as_ref().to_string(), a.value.to_string());
                }
                all.push(el);
                if matches!(ev, Event::Start(_)) {
                    open.push(all.len() - 1);
                }
            }
            Event::Text(t) => {
                let s = t.xml10_content();
                for i in &open {
                    all[*i].text.push_str(&s);
                }
            }
            Event::GeneralRef(g) => {
                let s = match g.as_ref() {
                    "lt" => "<",
                    "gt" => ">",
                    "amp" => "&",
                    "quot" => "\"",
                    _ => "'",
                };
                for i in &open {
                    all[*i].text.push_str(s);
                }
            }
            Event::End(_) => {
                open.pop();
            }
            Event::Eof => break,
            _ => {}
        }
    }
    assert!(open.is_empty(), "unclosed elements");
    all
}

fn has_class(e: &El, c: &str) -> bool {
    e.attrs
        .get("class")
        .is_some_and(|v| v.split_whitespace().any(|x| x == c))
}

/// The arrows of the root causes: one list item per ordering of the report's causes (then
/// per reversed ordering of the closest passing run, at most six), in order, each naming
/// the root cause it belongs to; an item with an arrow joins two steps of the lanes made by
/// the ordering's threads on the ordering's lines. Returns the number of arrows.
fn check_orderings(name: &str, els: &[El], report: &Value) -> usize {
    let mut expected: Vec<(usize, &Value)> = vec![];
    let rc = &report["root_causes"];
    for (i, c) in rc["causes"].as_array().into_iter().flatten().enumerate() {
        for o in c["orderings"].as_array().into_iter().flatten() {
            expected.push((i + 1, o));
        }
    }
    for o in rc["closest"]["flipped"]
        .as_array()
        .into_iter()
        .flatten()
        .take(6)
    {
        expected.push((0, o));
    }
    let items: Vec<&El> = els
        .iter()
        .filter(|e| e.name == "li" && e.attrs.contains_key("data-ordering"))
        .collect();
    assert_eq!(items.len(), expected.len(), "{name}: one item per ordering");
    let by_id = |id: &str| {
        els.iter()
            .find(|e| e.attrs.get("id").map(String::as_str) == Some(id))
    };
    let mut arrows = 0;
    for (li, (cause, o)) in items.iter().zip(&expected) {
        assert_eq!(
            li.attrs["data-cause"],
            cause.to_string(),
            "{name}: {}",
            li.text
        );
        let (Some(from), Some(to)) = (li.attrs.get("data-from"), li.attrs.get("data-to")) else {
            assert!(
                li.text.contains("not a step of the run shown"),
                "{name}: {}",
                li.text
            );
            continue;
        };
        for (id, access) in [(from, &o["before"]), (to, &o["after"])] {
            let step = by_id(id).unwrap_or_else(|| panic!("{name}: no step {id}"));
            assert!(has_class(step, "step"), "{name}: {id} is no step");
            assert_eq!(
                step.attrs["data-step-thread"],
                access["thread"].to_string(),
                "{name}: {id}"
            );
            assert_eq!(
                step.attrs["data-line"],
                access["line"].to_string(),
                "{name}: {id}"
            );
        }
        let n = |id: &str| {
            id.trim_start_matches('s')
                .parse::<usize>()
                .expect("step number")
        };
        assert!(
            n(from) < n(to),
            "{name}: an ordering runs forward in time: {}",
            li.text
        );
        arrows += 1;
    }
    arrows
}

/// The DOM check of one page against the `seqloc.localize/1` report of the same run.
fn check_page(name: &str, html: &str, report: &Value) -> usize {
    let els = read_page(html);
    // Self-contained: no external resource, no script or style from elsewhere.
    for e in &els {
        for k in ["src", "href"] {
            if let Some(v) = e.attrs.get(k) {
                assert!(
                    v.starts_with('#'),
                    "{name}: <{} {k}=\"{v}\"> loads something",
                    e.name
                );
            }
        }
        assert_ne!(e.name, "link", "{name}: a <link> element");
    }
    // Why it fails: the section is there exactly when the report has a `why`, with one
    // item per shown flow of the projection and the passing interleaving.
    let why = els
        .iter()
        .find(|e| e.name == "section" && e.attrs.get("id").map(String::as_str) == Some("why"));
    match report["why"].as_object() {
        Some(w) => {
            let why = why.unwrap_or_else(|| panic!("{name}: no why section"));
            let passing = w["passing_interleaving"]
                .as_str()
                .expect("passing_interleaving");
            assert!(why.text.contains(passing), "{name}: {}", why.text);
            for f in w["projection"]
                .as_array()
                .expect("projection")
                .iter()
                .take(6)
            {
                let read = format!("at line {}", f["read"]["line"]);
                assert!(
                    why.text.contains(&read),
                    "{name}: {read} not in {}",
                    why.text
                );
            }
        }
        None => assert!(why.is_none(), "{name}: a why section without a why"),
    }
    // Every candidate: in the list with its rank, and marked on its source line.
    let cands = report["candidates"].as_array().expect("candidates");
    assert!(!cands.is_empty(), "{name}: no candidates to show");
    let mut best: HashMap<u64, u64> = HashMap::new();
    for c in cands {
        let (line, rank) = (
            c["line"].as_u64().expect("line"),
            c["rank"].as_u64().expect("rank"),
        );
        let b = best.entry(line).or_insert(rank);
        *b = (*b).min(rank);
        assert!(
            els.iter().any(|e| e.name == "li"
                && e.attrs.get("data-cand-line") == Some(&line.to_string())
                && e.attrs.get("data-rank") == Some(&rank.to_string())
                && e.text.contains(c["hint"].as_str().unwrap_or_default())),
            "{name}: candidate {rank} (line {line}) with its hint is not listed"
        );
    }
    for (line, rank) in &best {
        let src = els
            .iter()
            .find(|e| e.attrs.get("id") == Some(&format!("L{line}")))
            .unwrap_or_else(|| panic!("{name}: source line {line} missing"));
        assert_eq!(
            src.attrs.get("data-rank"),
            Some(&rank.to_string()),
            "{name}: line {line}"
        );
        assert!(has_class(src, "cand"));
    }
    // Every thread has its lane, named as the schedule names it.
    let threads = report["schedule"]["threads"].as_array().expect("threads");
    for t in threads {
        let id = t["id"].to_string();
        let head = els
            .iter()
            .find(|e| has_class(e, "lane-head") && e.attrs.get("data-thread") == Some(&id))
            .unwrap_or_else(|| panic!("{name}: no lane for thread {id}"));
        assert_eq!(
            head.text.trim(),
            format!("T{id} {}", t["function"].as_str().unwrap_or_default())
        );
    }
    // The steps, run by run of one thread, are the schedule's blocks: the same threads in
    // the same order, each run showing the lines its block ran (`ran`); a band marks each
    // change of thread; the failing step is marked.
    let steps: Vec<&El> = els.iter().filter(|e| has_class(e, "step")).collect();
    let mut runs: Vec<(String, Vec<String>)> = vec![];
    for s in &steps {
        let t = s.attrs.get("data-step-thread").cloned().unwrap_or_default();
        let l = s.attrs.get("data-line").cloned().unwrap_or_default();
        match runs.last_mut() {
            Some((rt, lines)) if *rt == t => {
                if lines.last() != Some(&l) {
                    lines.push(l)
                }
            }
            _ => runs.push((t, vec![l])),
        }
    }
    let blocks: Vec<(String, Vec<String>)> = report["schedule"]["blocks"]
        .as_array()
        .expect("blocks")
        .iter()
        .filter_map(|b| {
            let ran: Vec<String> = b["ran"]
                .as_array()?
                .iter()
                .filter_map(|l| l.as_str()?.rsplit(':').next().map(str::to_string))
                .collect();
            (!ran.is_empty()).then(|| (b["thread"].to_string(), ran))
        })
        .collect();
    // The trace (the lanes) and `ran` are two readings of one run: `ran` lists the
    // points a block ran (a join's), the trace the statements (a `return`); the threads
    // and their order agree, and each run shares lines with its block.
    let threads_of =
        |v: &[(String, Vec<String>)]| v.iter().map(|(t, _)| t.clone()).collect::<Vec<_>>();
    assert_eq!(
        threads_of(&runs),
        threads_of(&blocks),
        "{name}: the lanes' runs are the schedule's blocks"
    );
    for ((_, lines), (_, ran)) in runs.iter().zip(&blocks) {
        assert!(
            lines.iter().any(|l| ran.contains(l)),
            "{name}: run {lines:?} vs block {ran:?}"
        );
    }
    let bands = els.iter().filter(|e| has_class(e, "switch")).count();
    assert_eq!(bands, runs.len() - 1, "{name}: context-switch bands");
    let failing = steps.iter().filter(|e| has_class(e, "fail")).count();
    assert_eq!(failing, 1, "{name}: one failing step");
    check_orderings(name, &els, report)
}

fn chromium() -> Option<PathBuf> {
    for c in ["chromium", "chromium-browser", "google-chrome"] {
        let ok = std::process::Command::new(c)
            .arg("--version")
            .output()
            .is_ok_and(|o| o.status.success());
        if ok {
            return Some(PathBuf::from(c));
        }
    }
    None
}

/// Width and height of a PNG (its IHDR chunk).
fn png_size(p: &Path) -> Option<(u32, u32)> {
    let b = std::fs::read(p).ok()?;
    if b.len() < 24 || &b[..8] != b"\x89PNG\r\n\x1a\n" || &b[12..16] != b"IHDR" {
        return None;
    }
    let w = u32::from_be_bytes(b[16..20].try_into().ok()?);
    let h = u32::from_be_bytes(b[20..24].try_into().ok()?);
    Some((w, h))
}

const PAGES: &[(&str, &str, usize)] = &[
    // (name, program, worker threads in the failing run)
    (
        "lazy_init_twice",
        "benchmarks/concbugs/lazy_init_twice.c",
        2,
    ),
    // The shortest failing run (`checker::builtin::canonical`): adder_b and the auditor;
    // adder_a never gets a turn.
    ("lazy01_bad", "benchmarks/paper/lazy01_bad.c", 2),
    ("ten_workers", "examples/ten_workers.c", 10),
];

#[test]
fn html_reports_show_every_candidate_thread_and_step_and_render() {
    let out = root().join("target/html-report");
    std::fs::create_dir_all(&out).expect("mkdir");
    let browser = chromium();
    if browser.is_none() {
        let _ = writeln!(
            std::io::stderr(),
            "NOTICE: skipped: rendering the HTML reports (no chromium; `apt-get install chromium`)"
        );
    }
    let mut total_arrows = 0;
    for (name, program, workers) in PAGES {
        let html_path = out.join(format!("{name}.html"));
        let html_arg = html_path.to_string_lossy();
        let mut args = vec!["localize", program, "--json", "--html", &html_arg];
        // Time for the root causes, whose orderings the page draws (the ten-thread
        // program's search takes longer than a test should wait).
        if *workers <= 3 {
            args.extend(["--root-cause-time", "20"]);
        }
        let o = run(&args);
        assert_eq!(o.status.code(), Some(1), "{name}: {}", stderr(&o));
        let report = json(&o);
        assert_eq!(
            report["schedule"]["threads"].as_array().map(Vec::len),
            Some(workers + 1),
            "{name}: main and {workers} workers"
        );
        let html = std::fs::read_to_string(&html_path).expect("the page");
        let arrows = check_page(name, &html, &report);
        eprintln!("{name}: {arrows} root-cause orderings drawn as arrows");
        total_arrows += arrows;
        if let Some(b) = &browser {
            // The script draws one arrow per ordering joining two steps.
            let dom = std::process::Command::new(b)
                .args([
                    "--headless",
                    "--no-sandbox",
                    "--disable-gpu",
                    "--window-size=1440,1800",
                    "--dump-dom",
                ])
                .arg(format!("file://{}", html_path.display()))
                .output()
                .expect("chromium runs");
            let dom = String::from_utf8_lossy(&dom.stdout);
            assert_eq!(
                dom.matches("marker-end=").count(),
                arrows,
                "{name}: arrows drawn by the page's script"
            );
            let png = out.join(format!("{name}.png"));
            let _ = std::fs::remove_file(&png);
            let r = std::process::Command::new(b)
                .args([
                    "--headless",
                    "--no-sandbox",
                    "--disable-gpu",
                    "--hide-scrollbars",
                    "--window-size=1440,1800",
                ])
                .arg(format!("--screenshot={}", png.display()))
                .arg(format!("file://{}", html_path.display()))
                .output()
                .expect("chromium runs");
            assert!(
                r.status.success(),
                "{name}: chromium failed: {}",
                String::from_utf8_lossy(&r.stderr)
            );
            assert_eq!(png_size(&png), Some((1440, 1800)), "{name}: the PNG");
            let bytes = std::fs::metadata(&png).map(|m| m.len()).unwrap_or(0);
            // A blank page compresses to a few KB; a rendered report does not.
            assert!(
                bytes > 40_000,
                "{name}: the PNG is {bytes} bytes: nothing rendered?"
            );
            eprintln!("rendered {} ({bytes} bytes)", png.display());
        }
    }
    // The root causes of the small programs are found well within their time: some
    // ordering must have been drawn, or the arrows are not being tested at all.
    assert!(total_arrows > 0, "no root-cause ordering drawn on any page");
}

#[test]
fn check_prints_the_page_with_format_html() {
    let o = run(&["check", "examples/lost_update.c", "--format", "html"]);
    assert_eq!(o.status.code(), Some(1), "{}", stderr(&o));
    let html = String::from_utf8_lossy(&o.stdout);
    assert!(html.starts_with("<!DOCTYPE html>"));
    let els = read_page(&html);
    // No candidates from `check`, but the lanes of its three threads and the source.
    assert_eq!(
        els.iter()
            .filter(|e| has_class(e, "lane-head") && e.attrs.contains_key("data-thread"))
            .count(),
        3
    );
    assert!(
        els.iter()
            .any(|e| e.attrs.get("id").is_some_and(|i| i == "L28") && has_class(e, "fail"))
    );
}
