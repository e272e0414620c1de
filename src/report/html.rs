//! The HTML report (`--format html`, `--html FILE`): one self-contained page, no network,
//! no external script or style. It shows
//!
//! * the verdict and the violated check;
//! * the candidates, by rank, each with its kind, the threads that ran it, what it reads
//!   and writes, and its repair hint;
//! * the failing interleaving as swim lanes: one column per thread (`T0 main`, `T1
//!   teller`, ...), time downwards, one row per step, a marked band at every context
//!   switch, the shared variables each step reads (`R`) or writes (`W`, with the value
//!   written) named beside it, candidate lines flagged with their rank and the failing
//!   step marked;
//! * the program's source with candidate lines marked by rank (hint on hover) and the
//!   failing line marked.
//!
//! The page is well-formed XML as well as HTML5 (every element closed, the script in a
//! CDATA section), so tests read it with an XML parser. Hovering a candidate highlights
//! its line in the lanes and the source (a few lines of inline script). After the
//! headline, why it fails (`localize`): the closest passing schedule found and the data
//! flows that differ, as lines; the root causes' orderings (and those the closest passing
//! run reverses) as arrows between the lanes' steps, listed above the lanes and drawn by
//! the page's script (without scripts, the list still names each ordering's two steps).

use std::collections::{BTreeMap, HashMap};
use std::fmt::Write as _;

use crate::cex::{Counterexample, TraceStep};
use crate::diag::explain::Candidate;

/// What the page shows.
pub struct Page<'a> {
    /// The program as the user named it.
    pub program: &'a str,
    /// The program's text (the source view); lines of other files are not shown.
    pub source: &'a str,
    /// `failure`, `deadlock`, `no-failure-within-bounds`, `unknown`.
    pub verdict: &'a str,
    /// One line for people: the violation, or why there is none.
    pub headline: String,
    /// `builtin (seqloc 0.1.0 with Z3 4.8.12)`.
    pub checker: String,
    pub cex: Option<&'a Counterexample>,
    pub candidates: &'a [Candidate],
    /// Names of the program's shared variables (globals more than one thread touches,
    /// escaped locals), to name the shared accesses of each step.
    pub shared: Vec<String>,
    /// Why it fails, in lines (`report::localize::WhyView::lines`); empty when unknown.
    pub why: Vec<String>,
    /// The root causes' orderings (and the closest passing run's reversed ones), drawn as
    /// arrows between the lanes.
    pub orderings: Vec<OrderingArrow>,
}

/// One ordering of the failing run to draw: `before` ran before `after`.
#[derive(Clone, Debug)]
pub struct OrderingArrow {
    /// The root cause it belongs to, from 1; 0 for an ordering the closest passing run
    /// reverses or leaves out.
    pub cause: usize,
    pub before: StepRef,
    pub after: StepRef,
    /// In words ("T1 writes hits at line 40 before T2 reads hits at line 30").
    pub label: String,
}

/// A step of the trace as a root cause names it: the thread's `occurrence`-th run of the
/// statement on that line, counted from one. The root causes come from a replay of the
/// failing schedule (with the locks kept), whose trace is not the one the lanes show step
/// for step; the thread, line, statement and occurrence find the same step in both.
#[derive(Clone, Debug)]
pub struct StepRef {
    pub thread: u32,
    pub line: u32,
    pub statement: String,
    pub occurrence: u32,
}

/// The index of the step of `steps` that `r` names, if the trace has it.
fn find_step(steps: &[TraceStep], r: &StepRef) -> Option<usize> {
    let n = usize::try_from(r.occurrence.max(1) - 1).ok()?;
    steps
        .iter()
        .enumerate()
        .filter(|(_, s)| s.thread == r.thread && s.line == r.line && s.statement == r.statement)
        .nth(n)
        .map(|(i, _)| i)
}

pub(crate) fn esc(s: &str) -> String {
    let mut o = String::with_capacity(s.len());
    for c in s.chars() {
        match c {
            '<' => o.push_str("&lt;"),
            '>' => o.push_str("&gt;"),
            '&' => o.push_str("&amp;"),
            '"' => o.push_str("&quot;"),
            '\'' => o.push_str("&#39;"),
            // Control characters are not allowed in XML 1.0 text.
            c if (c as u32) < 0x20 && c != '\n' && c != '\t' => o.push(' '),
            c => o.push(c),
        }
    }
    o
}

const CSS: &str = r#"
:root { --bg:#fff; --fg:#1d2330; --mute:#667085; --line:#e4e7ec; --bad:#c0262d; --badbg:#fde8e8;
  --sw:#f3eefe; --swfg:#6941c6; --c1:#d92d20; --c2:#f79009; --c3:#eaaa08; --cn:#7a869a; }
* { box-sizing: border-box; }
body { margin: 0; font: 14px/1.45 system-ui, -apple-system, "Segoe UI", sans-serif; color: var(--fg); background: var(--bg); }
header { padding: 14px 24px; border-bottom: 1px solid var(--line); background: #f8f9fb; }
header h1 { margin: 0 0 4px; font-size: 18px; }
header .verdict { display: inline-block; padding: 1px 8px; border-radius: 10px; font-weight: 600; font-size: 12px; text-transform: uppercase; }
.v-failure, .v-deadlock { background: var(--badbg); color: var(--bad); }
.v-other { background: #eef4ff; color: #3538cd; }
main { padding: 12px 24px 40px; }
h2 { font-size: 15px; margin: 22px 0 8px; }
code, pre, .mono { font-family: ui-monospace, "DejaVu Sans Mono", Menlo, Consolas, monospace; font-size: 12.5px; }
ol.cands { list-style: none; padding: 0; margin: 0; display: grid; gap: 6px; }
ol.cands li { border: 1px solid var(--line); border-left: 5px solid var(--cn); border-radius: 6px; padding: 6px 10px; }
ol.cands li.r1 { border-left-color: var(--c1); } ol.cands li.r2 { border-left-color: var(--c2); } ol.cands li.r3 { border-left-color: var(--c3); }
ol.cands li.hot { background: #fffbea; }
.rank { display: inline-block; min-width: 22px; padding: 0 6px; border-radius: 10px; color: #fff; background: var(--cn); font-weight: 700; font-size: 12px; text-align: center; }
.rank.r1 { background: var(--c1); } .rank.r2 { background: var(--c2); } .rank.r3 { background: var(--c3); color: #1d2330; }
.kind { font-size: 11px; text-transform: uppercase; letter-spacing: .04em; color: var(--mute); margin-left: 6px; }
.hint { margin-top: 3px; color: #344054; }
.meta { color: var(--mute); font-size: 12.5px; }
.lanes-wrap { overflow-x: auto; border: 1px solid var(--line); border-radius: 6px; max-height: 80vh; overflow-y: auto; }
.lanes { display: grid; }
.lanes.many .step { font-size: 11px; }
.lanes.many .step code { font-size: 11px; }
.lanes > div { border-right: 1px solid var(--line); padding: 2px 6px; min-height: 22px; min-width: 0; }
.lane-head { position: sticky; top: 0; z-index: 2; background: #f2f4f7; font-weight: 600; font-size: 12.5px; border-bottom: 1px solid #cfd4dc; white-space: nowrap; padding: 6px !important; }
.t-idx { background: #fafafa; color: var(--mute); font-size: 11px; text-align: right; }
.step { font-size: 12px; }
.step .code { white-space: nowrap; overflow: hidden; text-overflow: ellipsis; }
.step .accs { line-height: 1.2; }
.step .ln { color: var(--mute); margin-right: 4px; }
.step.cand { background: #fff4e5; }
.step.hot { outline: 2px solid var(--c2); outline-offset: -2px; }
.step.fail { background: var(--badbg); color: var(--bad); font-weight: 600; }
.acc { display: inline-block; margin: 0 4px 1px 0; padding: 0 4px; border-radius: 3px; font-size: 10.5px; background: #eef4ff; color: #3538cd; }
.acc.w { background: #fdf2fa; color: #c11574; }
.switch { grid-column: 1 / -1; background: var(--sw); color: var(--swfg); font-size: 11px; font-weight: 600; border-top: 1px dashed var(--swfg); padding: 1px 8px !important; min-height: 0 !important; }
.src { border: 1px solid var(--line); border-radius: 6px; overflow-x: auto; }
.src div { white-space: pre; padding: 0 8px 0 0; }
.src .no { display: inline-block; width: 4.5em; color: var(--mute); text-align: right; padding-right: 8px; margin-right: 8px; border-right: 1px solid var(--line); user-select: none; }
.src .cand { background: #fff4e5; }
.src .cand.hot { background: #ffe2b8; }
.src .fail { background: var(--badbg); }
.src .rank { margin-left: 8px; }
.legend span { margin-right: 14px; }
.lanes { position: relative; }
svg.arrows { position: absolute; left: 0; top: 0; pointer-events: none; z-index: 1; overflow: visible; }
svg.arrows path { fill: none; stroke-width: 2; opacity: .85; }
.oc1 { stroke: #d92d20; color: #d92d20; } .oc2 { stroke: #1570ef; color: #1570ef; } .oc3 { stroke: #079455; color: #079455; }
.ocn { stroke: #7a869a; color: #7a869a; } .oc0 { stroke: #7a869a; color: #7a869a; stroke-dasharray: 5 4; }
ol.orderings { margin: 4px 0 10px; padding-left: 22px; font-size: 12.5px; }
ol.orderings li .sw { display: inline-block; width: 18px; height: 0; border-top: 3px solid currentColor; vertical-align: middle; margin-right: 6px; }
ol.orderings li.oc0 .sw { border-top-style: dashed; }
.step.ord { box-shadow: inset 3px 0 0 #1570ef; }
"#;

const JS: &str = r#"
//<![CDATA[
document.querySelectorAll('[data-cand-line]').forEach(function (c) {
  var line = c.getAttribute('data-cand-line');
  var on = function (v) {
    document.querySelectorAll('[data-line="' + line + '"]').forEach(function (e) {
      e.classList.toggle('hot', v);
    });
    c.classList.toggle('hot', v);
  };
  c.addEventListener('mouseenter', function () { on(true); });
  c.addEventListener('mouseleave', function () { on(false); });
});
// The orderings listed above the lanes, drawn as arrows from step to step.
(function () {
  var lanes = document.querySelector('.lanes');
  var items = document.querySelectorAll('ol.orderings li[data-from]');
  if (!lanes || !items.length) { return; }
  var NS = 'http://www.w3.org/2000/svg';
  var svg = document.createElementNS(NS, 'svg');
  svg.setAttribute('class', 'arrows');
  svg.setAttribute('width', lanes.scrollWidth);
  svg.setAttribute('height', lanes.scrollHeight);
  var defs = document.createElementNS(NS, 'defs');
  svg.appendChild(defs);
  var marker = function (cls) {
    var id = 'head-' + cls;
    if (!document.getElementById(id)) {
      var m = document.createElementNS(NS, 'marker');
      m.setAttribute('id', id);
      m.setAttribute('viewBox', '0 0 10 10');
      m.setAttribute('refX', '9'); m.setAttribute('refY', '5');
      m.setAttribute('markerWidth', '7'); m.setAttribute('markerHeight', '7');
      m.setAttribute('orient', 'auto-start-reverse');
      var h = document.createElementNS(NS, 'path');
      h.setAttribute('d', 'M0,0 L10,5 L0,10 z');
      h.setAttribute('class', cls);
      h.setAttribute('style', 'fill: currentColor; stroke: none');
      m.appendChild(h);
      defs.appendChild(m);
    }
    return 'url(#' + id + ')';
  };
  // The closest run's reversed orderings first: a root cause's arrow over the same
  // steps stays on top.
  items = Array.prototype.slice.call(items).sort(function (x, y) {
    return (x.getAttribute('data-cause') === '0' ? 0 : 1) - (y.getAttribute('data-cause') === '0' ? 0 : 1);
  });
  items.forEach(function (li) {
    var a = document.getElementById(li.getAttribute('data-from'));
    var b = document.getElementById(li.getAttribute('data-to'));
    if (!a || !b) { return; }
    var cls = li.getAttribute('data-class');
    var ay = a.offsetTop + a.offsetHeight / 2, by = b.offsetTop + b.offsetHeight / 2;
    // From inside the earlier step to inside the later one, so that an arrow between
    // neighbouring lanes does not run along their common border.
    var right = b.offsetLeft > a.offsetLeft, same = b.offsetLeft === a.offsetLeft;
    var ax = a.offsetLeft + a.offsetWidth * (same || right ? 0.7 : 0.3);
    var bx = b.offsetLeft + b.offsetWidth * (same ? 0.7 : right ? 0.3 : 0.7);
    var bend = same ? 60 : (bx - ax) / 2;
    var p = document.createElementNS(NS, 'path');
    p.setAttribute('d', 'M' + ax + ',' + ay + ' C' + (ax + bend) + ',' + ay + ' ' +
      (bx - (same ? -60 : bend)) + ',' + by + ' ' + bx + ',' + by);
    p.setAttribute('class', cls);
    p.setAttribute('marker-end', marker(cls));
    var dot = document.createElementNS(NS, 'circle');
    dot.setAttribute('cx', ax); dot.setAttribute('cy', ay); dot.setAttribute('r', 3.5);
    dot.setAttribute('class', cls);
    dot.setAttribute('style', 'fill: currentColor; stroke: none');
    svg.appendChild(dot);
    p.setAttribute('data-ordering', li.getAttribute('data-ordering'));
    svg.appendChild(p);
    a.classList.add('ord'); b.classList.add('ord');
  });
  lanes.appendChild(svg);
})();
//]]>
"#;

fn rank_class(rank: usize) -> String {
    if rank <= 3 {
        format!("r{rank}")
    } else {
        "rn".into()
    }
}

/// The shared accesses of a step: the shared variables it writes (with the value) and the
/// other shared variables its statement names (reads).
fn accesses(step: &TraceStep, shared: &[String]) -> Vec<(bool, String)> {
    let mut out: Vec<(bool, String)> = Vec::new();
    let root = |lhs: &str| -> String {
        lhs.trim_start_matches(['*', '&', '('])
            .split(|c: char| !(c.is_ascii_alphanumeric() || c == '_'))
            .next()
            .unwrap_or_default()
            .to_string()
    };
    let mut written = Vec::new();
    for w in &step.writes {
        // Named as the source names it: a thread's copy `t_1` is `t`.
        let Some(lhs) = &w.shown else { continue };
        let r = root(lhs);
        if shared.contains(&r) {
            out.push((true, format!("{lhs}={}", w.value)));
            written.push(r);
        }
    }
    // Identifiers of the statement, in order, without repeats.
    let mut seen = Vec::new();
    for tok in step
        .statement
        .split(|c: char| !(c.is_ascii_alphanumeric() || c == '_'))
        .filter(|t| !t.is_empty())
    {
        if shared.iter().any(|s| s == tok) && !seen.iter().any(|x: &String| x == tok) {
            seen.push(tok.to_string());
        }
    }
    // A written variable also named on the right-hand side is read too (`x = x + 1`).
    let rhs = step.statement.split_once('=').map(|(_, r)| r).unwrap_or("");
    for name in seen {
        let on_rhs = rhs
            .split(|c: char| !(c.is_ascii_alphanumeric() || c == '_'))
            .any(|t| t == name);
        if !written.contains(&name) || on_rhs {
            out.push((false, name));
        }
    }
    out
}

pub fn render(p: &Page) -> String {
    let mut o = String::new();
    let title = format!("seqloc: {}", p.program);
    let _ = write!(
        o,
        "<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\"/>\n<meta name=\"viewport\" content=\"width=device-width, initial-scale=1\"/>\n<title>{}</title>\n<style>{CSS}</style>\n</head>\n<body>\n",
        esc(&title)
    );
    let vclass = match p.verdict {
        "failure" | "deadlock" => "v-failure",
        _ => "v-other",
    };
    let _ = write!(
        o,
        "<header><h1>{}</h1><div><span class=\"verdict {vclass}\" id=\"verdict\">{}</span> {}</div><div class=\"meta\">checker: {}</div></header>\n<main>\n",
        esc(p.program),
        esc(p.verdict),
        esc(&p.headline),
        esc(&p.checker)
    );
    // Candidate lines: line -> best rank.
    let mut cand_lines: BTreeMap<u32, usize> = BTreeMap::new();
    for c in p.candidates {
        let e = cand_lines.entry(c.line).or_insert(c.rank);
        *e = (*e).min(c.rank);
    }
    let fail_line = p.cex.map(|c| c.violation.line).filter(|l| *l > 0);
    why(&mut o, p);
    candidates(&mut o, p);
    if let Some(cex) = p.cex {
        lanes(&mut o, cex, p, &cand_lines);
    }
    source(&mut o, p, &cand_lines, fail_line);
    let _ = write!(o, "</main>\n<script>{JS}</script>\n</body>\n</html>\n");
    o
}

/// The closest passing schedule and the data flows that differ, as the text report says.
fn why(o: &mut String, p: &Page) {
    let Some((head, rest)) = p.why.split_first() else {
        return;
    };
    let _ = writeln!(
        o,
        "<section id=\"why\"><h2>Why</h2>\n<p>{}</p>\n<ul>",
        esc(head)
    );
    for l in rest {
        let _ = writeln!(o, "<li class=\"mono\">{}</li>", esc(l));
    }
    o.push_str("</ul></section>\n");
}

fn candidates(o: &mut String, p: &Page) {
    if p.cex.is_none() {
        return;
    }
    let _ = writeln!(
        o,
        "<section id=\"candidates\"><h2>Fault candidates ({})</h2>",
        p.candidates.len()
    );
    if p.candidates.is_empty() {
        o.push_str("<p class=\"meta\">None listed (a `check` run does not localize; run `seqloc localize`).</p>\n");
    } else {
        o.push_str("<ol class=\"cands\">\n");
        for c in p.candidates {
            let threads: Vec<String> = c
                .threads
                .iter()
                .map(|t| format!("T{} {}", t.id, t.function))
                .collect();
            let mut rw = Vec::new();
            if !c.reads.is_empty() {
                rw.push(format!("reads {}", c.reads.join(", ")));
            }
            if !c.writes.is_empty() {
                rw.push(format!("writes {}", c.writes.join(", ")));
            }
            let set = c.set.map(|s| format!(" (set {s})")).unwrap_or_default();
            let _ = writeln!(
                o,
                "<li class=\"cand {rc}\" data-cand-line=\"{line}\" data-rank=\"{rank}\"><span class=\"rank {rc}\">{rank}</span> <a class=\"mono\" href=\"#L{line}\">{file}:{line}:{col}</a><span class=\"kind\">{kind}{set}</span>{src}<div class=\"meta\">{threads}{sep}{rw}</div><div class=\"hint\">{hint}</div></li>",
                rc = rank_class(c.rank),
                line = c.line,
                rank = c.rank,
                file = esc(crate::seq::schedule::short_file(&c.file)),
                col = c.column,
                kind = esc(&format!(
                    "{}{}",
                    format!("{:?}", c.kind).to_lowercase(),
                    if c.cause { ", cause" } else { "" }
                )),
                set = esc(&set),
                src = c
                    .source_line
                    .as_deref()
                    .map(|s| format!(" <code>{}</code>", esc(s.trim())))
                    .unwrap_or_default(),
                threads = esc(&if threads.is_empty() {
                    String::new()
                } else {
                    format!("run by {}", threads.join(", "))
                }),
                sep = if threads.is_empty() || rw.is_empty() {
                    ""
                } else {
                    "; "
                },
                rw = esc(&rw.join("; ")),
                hint = esc(&c.hint),
            );
        }
        o.push_str("</ol>\n");
    }
    o.push_str("</section>\n");
}

fn lanes(o: &mut String, cex: &Counterexample, p: &Page, cand_lines: &BTreeMap<u32, usize>) {
    // Columns: every thread of the schedule, and any the trace shows beside them.
    let mut threads: Vec<(u32, String)> = cex
        .schedule
        .threads
        .iter()
        .map(|t| (t.id, t.function.clone()))
        .collect();
    for s in &cex.steps {
        if !threads.iter().any(|(id, _)| *id == s.thread) {
            threads.push((s.thread, "?".into()));
        }
    }
    threads.sort_by_key(|(id, _)| *id);
    let col: HashMap<u32, usize> = threads
        .iter()
        .enumerate()
        .map(|(i, (id, _))| (*id, i + 2))
        .collect();
    let n = threads.len();
    // Wider lanes for few threads; narrower ones keep ten threads on a laptop screen.
    let width = if n <= 3 {
        "minmax(240px, 1fr)"
    } else if n <= 6 {
        "minmax(170px, 1fr)"
    } else {
        "minmax(112px, 1fr)"
    };
    let many = if n > 6 { " many" } else { "" };
    let _ = write!(
        o,
        "<section id=\"interleaving\"><h2>Interleaving: {}, {}, {}</h2>\n<p class=\"legend meta\"><span>time runs downwards</span><span><span class=\"acc\">R x</span> reads shared x</span><span><span class=\"acc w\">W x=v</span> writes v to shared x</span><span>▌ purple band: context switch</span></p>\n{orderings}<div class=\"lanes-wrap\"><div class=\"lanes{many}\" style=\"grid-template-columns: 3.2em repeat({n}, {width});\">\n",
        crate::words::count(n, "thread"),
        crate::words::count(cex.context_switches(), "context switch"),
        crate::words::count(cex.steps.len(), "step"),
        orderings = ordering_list(&p.orderings, &cex.steps),
    );
    o.push_str("<div class=\"lane-head t-idx\">#</div>");
    for (id, f) in &threads {
        let _ = write!(
            o,
            "<div class=\"lane-head\" data-thread=\"{id}\" style=\"grid-column: {};\">T{id} {}</div>",
            col[id],
            esc(f)
        );
    }
    o.push('\n');
    let last = cex.steps.len().saturating_sub(1);
    let mut row = 2usize;
    let mut prev: Option<u32> = None;
    for (i, s) in cex.steps.iter().enumerate() {
        if let Some(pt) = prev.filter(|pt| *pt != s.thread) {
            let _ = writeln!(
                o,
                "<div class=\"switch\" data-switch=\"{pt}-{}\" style=\"grid-row: {row};\">context switch: T{pt} → T{}</div>",
                s.thread, s.thread
            );
            row += 1;
        }
        prev = Some(s.thread);
        let mut class = String::from("step");
        let rank = cand_lines.get(&s.line).copied();
        if rank.is_some() {
            class.push_str(" cand");
        }
        let failing = i == last && cex.violation.line == s.line;
        if failing {
            class.push_str(" fail");
        }
        let acc: Vec<String> = accesses(s, &p.shared)
            .into_iter()
            .map(|(w, a)| {
                format!(
                    "<span class=\"acc{}\">{} {}</span>",
                    if w { " w" } else { "" },
                    if w { "W" } else { "R" },
                    esc(&a)
                )
            })
            .collect();
        let acc = if acc.is_empty() {
            String::new()
        } else {
            format!("<div class=\"accs\">{}</div>", acc.join(""))
        };
        let badge = rank
            .map(|r| format!("<span class=\"rank {}\">{r}</span> ", rank_class(r)))
            .unwrap_or_default();
        let statement = super::check::shown_statement(s);
        let title = format!(
            "T{} line {}: {}{}",
            s.thread,
            s.line,
            statement,
            if failing { " (fails here)" } else { "" }
        );
        let _ = writeln!(
            o,
            "<div class=\"t-idx\" style=\"grid-row: {row}; grid-column: 1;\">{}</div><div class=\"{class}\" id=\"s{i}\" data-line=\"{}\" data-step-thread=\"{}\" title=\"{}\" style=\"grid-row: {row}; grid-column: {};\"><div class=\"code\">{badge}<span class=\"ln\">{}</span><code>{}</code></div>{acc}</div>",
            i + 1,
            s.line,
            s.thread,
            esc(&title),
            col.get(&s.thread).copied().unwrap_or(2),
            s.line,
            esc(&statement)
        );
        row += 1;
    }
    if cex.steps.is_empty() {
        o.push_str("<div class=\"switch\">no steps</div>\n");
    }
    o.push_str("</div></div>\n");
    let _ = writeln!(
        o,
        "<p class=\"meta\" id=\"violation\">{}</p></section>",
        esc(&cex.violation.describe())
    );
}

/// The legend of the arrows: one item per ordering, naming the steps it joins
/// (`data-from`/`data-to`: the lanes' step ids; the page's script draws the arrow). An
/// ordering whose steps the shown trace does not have is listed without an arrow.
fn ordering_list(orderings: &[OrderingArrow], steps: &[TraceStep]) -> String {
    if orderings.is_empty() {
        return String::new();
    }
    let mut o = String::from("<ol class=\"orderings\" id=\"orderings\">\n");
    for (n, a) in orderings.iter().enumerate() {
        let class = match a.cause {
            0 => "oc0".to_string(),
            1..=3 => format!("oc{}", a.cause),
            _ => "ocn".to_string(),
        };
        let whose = match a.cause {
            0 => "the closest passing run reverses".to_string(),
            c => format!("root cause {c}"),
        };
        match (find_step(steps, &a.before), find_step(steps, &a.after)) {
            (Some(f), Some(t)) => {
                let _ = writeln!(
                    o,
                    "<li class=\"{class}\" data-ordering=\"{n}\" data-cause=\"{}\" data-class=\"{class}\" data-from=\"s{f}\" data-to=\"s{t}\"><span class=\"sw\"></span>{}: {} (step {} → step {})</li>",
                    a.cause,
                    esc(&whose),
                    esc(&a.label),
                    f + 1,
                    t + 1
                );
            }
            _ => {
                let _ = writeln!(
                    o,
                    "<li class=\"{class}\" data-ordering=\"{n}\" data-cause=\"{}\"><span class=\"sw\"></span>{}: {} (not a step of the run shown)</li>",
                    a.cause,
                    esc(&whose),
                    esc(&a.label)
                );
            }
        }
    }
    o.push_str("</ol>\n");
    o
}

fn source(o: &mut String, p: &Page, cand_lines: &BTreeMap<u32, usize>, fail_line: Option<u32>) {
    let hints: HashMap<u32, &str> = p
        .candidates
        .iter()
        .rev()
        .map(|c| (c.line, c.hint.as_str()))
        .collect();
    let _ = write!(
        o,
        "<section id=\"source\"><h2>Source: {}</h2>\n<div class=\"src mono\">\n",
        esc(p.program)
    );
    for (i, text) in p.source.lines().enumerate() {
        let line = (i + 1) as u32;
        let mut class = Vec::new();
        let rank = cand_lines.get(&line).copied();
        if rank.is_some() {
            class.push("cand");
        }
        if fail_line == Some(line) {
            class.push("fail");
        }
        let title = hints
            .get(&line)
            .map(|h| format!(" title=\"{}\"", esc(h)))
            .unwrap_or_default();
        let rank_attr = rank
            .map(|r| format!(" data-rank=\"{r}\""))
            .unwrap_or_default();
        let badge = rank
            .map(|r| format!("<span class=\"rank {}\">{r}</span>", rank_class(r)))
            .unwrap_or_default();
        let _ = writeln!(
            o,
            "<div id=\"L{line}\" data-line=\"{line}\"{rank_attr} class=\"{}\"{title}><span class=\"no\">{line}</span>{}{badge}</div>",
            class.join(" "),
            esc(text)
        );
    }
    o.push_str("</div></section>\n");
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::cex::Write;

    fn step(statement: &str, writes: &[(&str, &str)]) -> TraceStep {
        TraceStep {
            thread: 1,
            loc: crate::ir::Loc::SYNTH,
            sid: crate::ir::StmtId(0),
            file: "a.c".into(),
            line: 3,
            statement: statement.into(),
            writes: writes
                .iter()
                .map(|(l, v)| Write::named(l.to_string(), v.to_string()))
                .collect(),
        }
    }

    #[test]
    fn shared_accesses_of_a_step() {
        let shared = vec!["balance".to_string(), "n".to_string()];
        let a = accesses(&step("seen = balance;", &[("seen", "100")]), &shared);
        assert_eq!(a, vec![(false, "balance".to_string())]);
        let a = accesses(
            &step("balance = seen + amount;", &[("balance", "110")]),
            &shared,
        );
        assert_eq!(a, vec![(true, "balance=110".to_string())]);
        let a = accesses(&step("n = n + 1;", &[("n", "2")]), &shared);
        assert_eq!(a, vec![(true, "n=2".into()), (false, "n".into())]);
        assert!(accesses(&step("x = 1;", &[("x", "1")]), &shared).is_empty());
    }

    #[test]
    fn an_ordering_joins_the_steps_its_thread_line_statement_and_occurrence_name() {
        let at = |thread: u32, line: u32, statement: &str| TraceStep {
            thread,
            line,
            ..step(statement, &[])
        };
        let steps = vec![
            at(1, 10, "t = hits;"),
            at(2, 10, "t = hits;"),
            at(1, 11, "hits = t + 1;"),
            at(1, 10, "t = hits;"),
            at(2, 11, "hits = t + 1;"),
        ];
        let r = |thread, line, statement: &str, occurrence| StepRef {
            thread,
            line,
            statement: statement.into(),
            occurrence,
        };
        assert_eq!(find_step(&steps, &r(1, 10, "t = hits;", 2)), Some(3));
        assert_eq!(find_step(&steps, &r(2, 10, "t = hits;", 1)), Some(1));
        assert_eq!(find_step(&steps, &r(2, 10, "t = hits;", 2)), None);
        assert_eq!(find_step(&steps, &r(1, 12, "t = hits;", 1)), None);
        let arrows = vec![
            OrderingArrow {
                cause: 1,
                before: r(2, 10, "t = hits;", 1),
                after: r(1, 11, "hits = t + 1;", 1),
                label: "T2 reads hits (line 10) before T1 writes hits (line 11)".into(),
            },
            OrderingArrow {
                cause: 0,
                before: r(2, 11, "hits = t + 1;", 3),
                after: r(1, 10, "t = hits;", 1),
                label: "gone".into(),
            },
        ];
        let list = ordering_list(&arrows, &steps);
        assert!(list.contains("data-from=\"s1\" data-to=\"s2\""), "{list}");
        assert!(list.contains("root cause 1: T2 reads hits"), "{list}");
        // A step the trace does not have: listed, no arrow.
        assert!(list.contains("not a step of the run shown"), "{list}");
        assert_eq!(list.matches("data-from").count(), 1);
        assert!(ordering_list(&[], &steps).is_empty());
    }

    #[test]
    fn text_is_escaped() {
        assert_eq!(
            esc("a < b && c > \"d\""),
            "a &lt; b &amp;&amp; c &gt; &quot;d&quot;"
        );
    }
}
