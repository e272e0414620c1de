//! GraphML violation witnesses (SV-COMP witness format 1.0) for concurrent programs:
//! written from a [`Counterexample`], read back into a [`Schedule`].
//!
//! The witness is one path: the entry node, one edge per step of the counterexample's
//! trace (its thread in `threadId`, its line in `startline`/`endline`, `enterFunction` on a
//! thread's first step, `createThread` on a `pthread_create` with the new thread's id,
//! `assumption` where an input value is taken), and the violation node. Thread ids are
//! seqloc's: creation order, `0` for `main`, as ESBMC and CBMC number them.
//!
//! A block of the schedule is a run of edges of one thread; its last edge carries
//! `seqloc-until` (`end`, or the statement the thread stops before and the occurrence,
//! `lost_update.c:16:3 1`), and every input value its `seqloc-input` (`statement
//! occurrence value`). These keys are seqloc's: the standard keys name lines, and a
//! switch between the read and the write of `x = x + 1` falls inside one line. A block in
//! which a thread runs no statement of the program (it blocks at once) is an edge with
//! only its `threadId` and `seqloc-until`.

use std::collections::{HashMap, HashSet};
use std::fmt::Write as _;

use quick_xml::events::Event;
use quick_xml::reader::Reader;

use super::{Meta, WitnessError};
use crate::cex::{Counterexample, TraceStep};
use crate::seq::schedule::{Block, InputValue, SCHEMA, Schedule, StmtIndex, ThreadSpec, Until};

/// The keys a witness declares: (id = attr.name, for, type, default).
const KEYS: &[(&str, &str, &str, Option<&str>)] = &[
    ("witness-format-version", "graph", "string", None),
    ("witness-type", "graph", "string", None),
    ("sourcecodelang", "graph", "string", None),
    ("producer", "graph", "string", None),
    ("specification", "graph", "string", None),
    ("programfile", "graph", "string", None),
    ("programhash", "graph", "string", None),
    ("architecture", "graph", "string", None),
    ("creationtime", "graph", "string", None),
    ("seqloc-unwind", "graph", "int", None),
    ("entry", "node", "boolean", Some("false")),
    ("violation", "node", "boolean", Some("false")),
    ("threadId", "edge", "string", None),
    ("createThread", "edge", "string", None),
    ("enterFunction", "edge", "string", None),
    ("startline", "edge", "int", None),
    ("endline", "edge", "int", None),
    ("assumption", "edge", "string", None),
    ("assumption.resultfunction", "edge", "string", None),
    ("assumption.scope", "edge", "string", None),
    ("seqloc-statement", "edge", "string", None),
    ("seqloc-until", "edge", "string", None),
    ("seqloc-input", "edge", "string", None),
];

#[derive(Default)]
struct EdgeOut {
    thread: u32,
    /// The step's statement (for naming inputs), when the edge is a step.
    sid: Option<crate::ir::StmtId>,
    line: Option<u32>,
    statement: Option<String>,
    enter: Option<String>,
    create: Option<u32>,
    assumption: Option<(String, Option<String>, Option<String>)>,
    until: Option<String>,
    inputs: Vec<String>,
    writes: Vec<(String, String)>,
}

/// The GraphML text of the witness of `cex`. `index` names the statements of the program
/// the counterexample was found on (the normalized program).
pub fn write(cex: &Counterexample, index: &StmtIndex, meta: &Meta) -> Result<String, WitnessError> {
    let sched = &cex.schedule;
    let not_covered = |reason: String| WitnessError::NotCovered {
        format: "GraphML",
        reason,
    };
    // A stop counted within its block (a schedule read from a YAML witness) names no
    // point of the thread's whole run, which `seqloc-until` says.
    if let Some(i) = sched.blocks.iter().position(|b| {
        matches!(
            b.until,
            Until::Before {
                within_block: true,
                ..
            }
        )
    }) {
        return Err(not_covered(format!(
            "block {} stops at an occurrence counted within the block, not over the thread's run",
            i + 1
        )));
    }
    let function_of = |t: u32| {
        sched
            .threads
            .iter()
            .find(|s| s.id == t)
            .map(|s| s.function.clone())
    };
    let mut edges: Vec<EdgeOut> = Vec::new();
    let mut entered: HashSet<u32> = HashSet::new();
    let mut next_thread = 1u32;
    let (steps, plan) = block_steps(cex, index).map_err(not_covered)?;
    for (bi, (block, taken)) in sched.blocks.iter().zip(&plan).enumerate() {
        let start = edges.len();
        for step in taken.iter().map(|&i| &steps[i]) {
            let mut e = EdgeOut {
                thread: step.thread,
                sid: Some(step.sid),
                line: (step.line > 0).then_some(step.line),
                statement: Some(step.statement.clone()),
                writes: step
                    .writes
                    .iter()
                    .map(|w| (w.lhs.clone(), w.value.clone()))
                    .collect(),
                ..EdgeOut::default()
            };
            if is_thread_creation(&step.statement) {
                let ids = created_ids(step, &mut next_thread);
                for (n, id) in ids.iter().enumerate() {
                    let mut copy = EdgeOut {
                        create: Some(*id),
                        ..e.clone_step()
                    };
                    if n + 1 == ids.len() {
                        copy.writes = std::mem::take(&mut e.writes);
                    }
                    edges.push(copy);
                }
            } else {
                edges.push(e);
            }
        }
        if edges.len() == start {
            edges.push(EdgeOut {
                thread: block.thread,
                ..EdgeOut::default()
            });
        }
        if let Some(e) = edges
            .get_mut(start)
            .filter(|_| entered.insert(block.thread))
        {
            e.enter = Some(function_of(block.thread).ok_or_else(|| {
                not_covered(format!(
                    "block {} runs thread {}, which the schedule does not declare",
                    bi + 1,
                    block.thread
                ))
            })?);
        }
        if let Some(e) = edges.last_mut() {
            e.until = Some(match &block.until {
                Until::Keyword(k) => k.clone(),
                Until::Before {
                    before, occurrence, ..
                } => format!("{before} {occurrence}"),
            });
        }
    }
    attach_inputs(&mut edges, sched, index);
    Ok(render(&edges, meta, super::loop_bound(steps, sched)))
}

/// The steps of each block (indices into `steps`), taken in the trace's order: a block
/// takes the steps of its thread that follow, skipping those of threads neither it nor
/// the next block runs (a trace may show a thread the schedule leaves out). Fewer blocks
/// than the schedule's when the failure (the last step, `truncated`) ended the execution
/// earlier. An error names a step no block took.
/// The trace up to the failing check, and the steps each block of the schedule ran
/// (indices into it), or why the trace and the schedule disagree.
pub(super) fn block_steps<'c>(
    cex: &'c Counterexample,
    index: &StmtIndex,
) -> Result<(&'c [TraceStep], Vec<Vec<usize>>), String> {
    let sched = &cex.schedule;
    // The path ends at the failing check: a trace may show steps of the failing thread
    // after it (the `return` that follows an assertion), which no execution reaches.
    let steps = match cex.violation.thread.filter(|_| cex.violation.line > 0) {
        Some(t) => match cex
            .steps
            .iter()
            .rposition(|s| s.thread == t && s.line == cex.violation.line)
        {
            Some(i) => &cex.steps[..=i],
            None => &cex.steps[..],
        },
        None => &cex.steps[..],
    };
    let truncated = steps.len() < cex.steps.len();
    // The trace's order first; a checker may show a thread's local steps anywhere (CBMC,
    // or a declaration shown before another thread's atomic block), so when that order
    // leaves steps over, each block takes its own thread's steps up to its `until`.
    let plan = match in_trace_order(steps, sched, truncated) {
        Ok(plan) => plan,
        Err(first) => by_thread(steps, sched, index, truncated).map_err(|second| {
            format!("the trace does not follow the schedule's blocks: {first}; by thread: {second}")
        })?,
    };
    Ok((steps, plan))
}

fn in_trace_order(
    steps: &[TraceStep],
    sched: &Schedule,
    truncated: bool,
) -> Result<Vec<Vec<usize>>, String> {
    let mut plan = Vec::new();
    let mut si = 0usize;
    for (bi, block) in sched.blocks.iter().enumerate() {
        if si == steps.len() && truncated {
            break;
        }
        let next_block_thread = sched.blocks.get(bi + 1).map(|b| b.thread);
        while steps
            .get(si)
            .is_some_and(|s| s.thread != block.thread && Some(s.thread) != next_block_thread)
        {
            si += 1;
        }
        let mut taken = Vec::new();
        while steps.get(si).is_some_and(|s| s.thread == block.thread) {
            taken.push(si);
            si += 1;
        }
        plan.push(taken);
    }
    match steps.get(si) {
        Some(step) => Err(format!(
            "step {} (thread {}, line {}) is left over",
            si + 1,
            step.thread,
            step.line
        )),
        None => Ok(plan),
    }
}

/// The steps of each block taken thread by thread: a block takes its thread's next steps
/// in the trace up to the `occurrence`-th execution of its `before` statement (counted
/// over the thread's run), or all of them (`end`). Steps no block takes are of threads the
/// schedule does not run there (a thread created and blocked at once in a deadlock, a
/// step after the thread's last stop): the witness follows the schedule, which is what
/// replays. Refused when the failing step (the last, `truncated`) is not in the last
/// block that runs anything.
fn by_thread(
    steps: &[TraceStep],
    sched: &Schedule,
    index: &StmtIndex,
    truncated: bool,
) -> Result<Vec<Vec<usize>>, String> {
    let mut queues: HashMap<u32, std::collections::VecDeque<usize>> = HashMap::new();
    for (i, s) in steps.iter().enumerate() {
        queues.entry(s.thread).or_default().push_back(i);
    }
    let mut runs: HashMap<(u32, String), u32> = HashMap::new();
    let mut plan: Vec<Vec<usize>> = Vec::new();
    for block in &sched.blocks {
        let queue = queues.entry(block.thread).or_default();
        let mut taken = Vec::new();
        while let Some(&i) = queue.front() {
            let name = index.name(steps[i].sid);
            let n = runs.entry((block.thread, name.clone())).or_insert(0);
            if let Until::Before {
                before, occurrence, ..
            } = &block.until
            {
                if *before == name && *n + 1 == *occurrence {
                    break;
                }
            }
            *n += 1;
            taken.push(i);
            queue.pop_front();
        }
        plan.push(taken);
    }
    if truncated {
        let last = steps.len().saturating_sub(1);
        let Some(at) = plan.iter().position(|t| t.contains(&last)) else {
            return Err(format!(
                "no block runs the failing step (thread {}, line {})",
                steps[last].thread, steps[last].line
            ));
        };
        if let Some(later) = plan[at + 1..].iter().position(|t| !t.is_empty()) {
            return Err(format!(
                "block {} runs steps after the failure in block {}",
                at + later + 2,
                at + 1
            ));
        }
        plan.truncate(at + 1);
    }
    Ok(plan)
}

impl EdgeOut {
    /// The step's data without what belongs to one edge only (creation, until, inputs).
    fn clone_step(&self) -> EdgeOut {
        EdgeOut {
            thread: self.thread,
            sid: self.sid,
            line: self.line,
            statement: self.statement.clone(),
            ..EdgeOut::default()
        }
    }
}

/// The ids of the threads a creation step made: the handles it wrote (a trace step may
/// stand for several executions of one statement in a row, a creation loop with no
/// condition, each writing its handle), else the next id. `next` follows the ids made.
pub(super) fn created_ids(step: &TraceStep, next: &mut u32) -> Vec<u32> {
    let mut ids: Vec<u32> = step
        .writes
        .iter()
        .filter_map(|w| w.value.trim().parse::<u32>().ok())
        .filter(|id| *id > 0)
        .collect();
    if ids.is_empty() {
        ids.push(*next);
    }
    for id in &ids {
        *next = (*next).max(id + 1);
    }
    ids
}

pub(super) fn is_thread_creation(statement: &str) -> bool {
    statement.contains("pthread_create(")
}

/// Puts each input value on the step that takes it (the `occurrence`-th execution of its
/// statement by its thread), with an `assumption` a validator can read: `\result == v`
/// for a `__VERIFIER_nondet_*` call, `x == v` for a variable declared without a value.
/// An input whose step the trace does not show stays on the thread's first edge, as
/// `seqloc-input` only.
fn attach_inputs(edges: &mut [EdgeOut], sched: &Schedule, index: &StmtIndex) {
    for v in &sched.inputs {
        let value = format!("{} {} {}", v.at, v.occurrence, v.value);
        let mut seen = 0u32;
        let mut at = None;
        for (i, e) in edges.iter().enumerate() {
            if e.thread != v.thread {
                continue;
            }
            if e.sid.is_some_and(|sid| index.name(sid) == v.at) {
                seen += 1;
                if seen == v.occurrence {
                    at = Some(i);
                    break;
                }
            }
        }
        let Some(i) = at.or_else(|| edges.iter().position(|e| e.thread == v.thread)) else {
            continue;
        };
        let e = &mut edges[i];
        e.inputs.push(value);
        if at.is_none() || e.assumption.is_some() {
            continue;
        }
        let statement = e.statement.clone().unwrap_or_default();
        let shown = v.text.clone().unwrap_or_else(|| v.value.to_string());
        if let Some(f) = nondet_function(&statement) {
            e.assumption = Some((format!("\\result == {shown};"), Some(f), None));
        } else if let [(lhs, written)] = e.writes.as_slice() {
            if is_identifier(lhs) && v.text.is_none() && *written == shown {
                e.assumption = Some((format!("{lhs} == {shown};"), None, None));
            }
        }
    }
}

/// The `__VERIFIER_nondet_*` (or `nondet_*`) function a statement calls.
fn nondet_function(statement: &str) -> Option<String> {
    let at = statement.find("nondet_")?;
    let start = statement[..at]
        .rfind(|c: char| !(c.is_ascii_alphanumeric() || c == '_'))
        .map_or(0, |i| i + 1);
    let rest = &statement[start..];
    let end = rest
        .find(|c: char| !(c.is_ascii_alphanumeric() || c == '_'))
        .unwrap_or(rest.len());
    rest[end..]
        .trim_start()
        .starts_with('(')
        .then(|| rest[..end].to_string())
}

fn is_identifier(s: &str) -> bool {
    let mut c = s.chars();
    c.next()
        .is_some_and(|f| f.is_ascii_alphabetic() || f == '_')
        && c.all(|x| x.is_ascii_alphanumeric() || x == '_')
}

fn esc(s: &str) -> String {
    quick_xml::escape::escape(s).into_owned()
}

fn render(edges: &[EdgeOut], meta: &Meta, unwind: u32) -> String {
    let mut o = String::new();
    o.push_str("<?xml version=\"1.0\" encoding=\"UTF-8\" standalone=\"no\"?>\n");
    o.push_str("<graphml xmlns=\"http://graphml.graphdrawing.org/xmlns\" xmlns:xsi=\"http://www.w3.org/2001/XMLSchema-instance\">\n");
    for (id, for_, ty, default) in KEYS {
        match default {
            Some(d) => {
                let _ = writeln!(
                    o,
                    " <key id=\"{id}\" attr.name=\"{id}\" attr.type=\"{ty}\" for=\"{for_}\">\n  <default>{d}</default>\n </key>"
                );
            }
            None => {
                let _ = writeln!(
                    o,
                    " <key id=\"{id}\" attr.name=\"{id}\" attr.type=\"{ty}\" for=\"{for_}\"/>"
                );
            }
        }
    }
    o.push_str(" <graph edgedefault=\"directed\">\n");
    let graph_data = [
        ("witness-format-version", "1.0".to_string()),
        ("witness-type", "violation_witness".to_string()),
        ("sourcecodelang", "C".to_string()),
        (
            "producer",
            format!("{} {}", meta.producer_name, meta.producer_version),
        ),
        ("specification", meta.specification.clone()),
        ("programfile", meta.program_file.clone()),
        ("programhash", meta.program_hash.clone()),
        ("architecture", meta.arch.graphml().to_string()),
        ("creationtime", meta.creation_time.clone()),
        ("seqloc-unwind", unwind.to_string()),
    ];
    for (k, v) in graph_data {
        let _ = writeln!(o, "  <data key=\"{k}\">{}</data>", esc(&v));
    }
    o.push_str("  <node id=\"N0\">\n   <data key=\"entry\">true</data>\n  </node>\n");
    for (i, e) in edges.iter().enumerate() {
        let target = i + 1;
        if target == edges.len() {
            let _ = writeln!(
                o,
                "  <node id=\"N{target}\">\n   <data key=\"violation\">true</data>\n  </node>"
            );
        } else {
            let _ = writeln!(o, "  <node id=\"N{target}\"/>");
        }
        let _ = writeln!(o, "  <edge source=\"N{i}\" target=\"N{target}\">");
        let mut data = |k: &str, v: &str| {
            let _ = writeln!(o, "   <data key=\"{k}\">{}</data>", esc(v));
        };
        data("threadId", &e.thread.to_string());
        if let Some(f) = &e.enter {
            data("enterFunction", f);
        }
        if let Some(l) = e.line {
            data("startline", &l.to_string());
            data("endline", &l.to_string());
        }
        if let Some(c) = e.create {
            data("createThread", &c.to_string());
        }
        if let Some((a, f, scope)) = &e.assumption {
            data("assumption", a);
            if let Some(f) = f {
                data("assumption.resultfunction", f);
            }
            if let Some(s) = scope {
                data("assumption.scope", s);
            }
        }
        if let Some(s) = &e.statement {
            data("seqloc-statement", s);
        }
        for v in &e.inputs {
            data("seqloc-input", v);
        }
        if let Some(u) = &e.until {
            data("seqloc-until", u);
        }
        o.push_str("  </edge>\n");
    }
    if edges.is_empty() {
        // A failure before any step: the entry node is the violation.
        o = o.replace(
            "<data key=\"entry\">true</data>",
            "<data key=\"entry\">true</data>\n   <data key=\"violation\">true</data>",
        );
    }
    o.push_str(" </graph>\n</graphml>\n");
    o
}

/// An edge as read: source, target, data as (attr.name, text).
pub type Edge = (String, String, Vec<(String, String)>);

/// A GraphML document as read: declared keys by id, and the graph's data, nodes and
/// edges with their data as (attr.name, text).
#[derive(Debug, Default)]
pub struct Document {
    /// id -> (attr.name, for, default)
    pub keys: HashMap<String, (String, String, Option<String>)>,
    pub graph: Vec<(String, String)>,
    pub nodes: Vec<(String, Vec<(String, String)>)>,
    pub edges: Vec<Edge>,
}

impl Document {
    /// The value of a boolean node key, its default when the node has no data for it.
    fn node_flag(&self, data: &[(String, String)], name: &str) -> bool {
        match data.iter().find(|(k, _)| k == name) {
            Some((_, v)) => v.trim() == "true",
            None => self
                .keys
                .values()
                .find(|(n, f, _)| n == name && f == "node")
                .and_then(|(_, _, d)| d.as_deref())
                .is_some_and(|d| d.trim() == "true"),
        }
    }
}

/// Parses GraphML, checking what a witness needs of it: every `data` names a declared
/// key, every edge joins declared nodes.
pub fn parse(text: &str, path: &str) -> Result<Document, WitnessError> {
    let bad = |reason: String| WitnessError::Malformed {
        path: path.to_string(),
        reason,
    };
    let mut r = Reader::from_str(text);
    let mut doc = Document::default();
    let mut owner = Owner::None;
    let mut key_open: Option<String> = None;
    let mut data_key: Option<String> = None;
    let mut text_buf = String::new();
    let mut raw_graph: Vec<(String, String)> = Vec::new();
    let attr =
        |e: &quick_xml::events::BytesStart, name: &str| -> Result<Option<String>, WitnessError> {
            for a in e.attributes() {
                let a = a.map_err(|x| bad(x.to_string()))?;
                if a.key.as_ref() == name {
                    return Ok(Some(
                        a.normalized_value(quick_xml::XmlVersion::Implicit1_0)
                            .map_err(|x| bad(x.to_string()))?
                            .into_owned(),
                    ));
                }
            }
            Ok(None)
        };
    let mut edge_data: Vec<Vec<(String, String)>> = Vec::new();
    let mut node_data: Vec<Vec<(String, String)>> = Vec::new();
    loop {
        let ev = r
            .read_event()
            .map_err(|e| bad(format!("not well-formed XML: {e}")))?;
        match ev {
            Event::Start(ref e) | Event::Empty(ref e) => {
                let empty = matches!(ev, Event::Empty(_));
                match e.local_name().as_ref() {
                    "key" => {
                        let id = attr(e, "id")?.ok_or_else(|| bad("a key without id".into()))?;
                        let name = attr(e, "attr.name")?.unwrap_or_else(|| id.clone());
                        let for_ = attr(e, "for")?.unwrap_or_else(|| "all".into());
                        doc.keys.insert(id.clone(), (name, for_, None));
                        if !empty {
                            key_open = Some(id);
                        }
                    }
                    "default" => {
                        text_buf.clear();
                    }
                    "graph" => owner = Owner::Graph,
                    "node" => {
                        let id = attr(e, "id")?.ok_or_else(|| bad("a node without id".into()))?;
                        doc.nodes.push((id, vec![]));
                        node_data.push(vec![]);
                        if !empty {
                            owner = Owner::Node(doc.nodes.len() - 1);
                        }
                    }
                    "edge" => {
                        let s = attr(e, "source")?
                            .ok_or_else(|| bad("an edge without source".into()))?;
                        let t = attr(e, "target")?
                            .ok_or_else(|| bad("an edge without target".into()))?;
                        doc.edges.push((s, t, vec![]));
                        edge_data.push(vec![]);
                        if !empty {
                            owner = Owner::Edge(doc.edges.len() - 1);
                        }
                    }
                    "data" => {
                        let k = attr(e, "key")?.ok_or_else(|| bad("data without key".into()))?;
                        text_buf.clear();
                        if empty {
                            push_data(
                                &owner,
                                &mut raw_graph,
                                &mut node_data,
                                &mut edge_data,
                                k,
                                String::new(),
                            );
                        } else {
                            data_key = Some(k);
                        }
                    }
                    _ => {}
                }
            }
            Event::Text(t) => text_buf.push_str(&t.xml10_content()),
            Event::CData(t) => text_buf.push_str(&t.into_inner()),
            Event::GeneralRef(g) => {
                let s = match g.resolve_char_ref().map_err(|e| bad(e.to_string()))? {
                    Some(c) => c.to_string(),
                    None => match g.as_ref() {
                        "lt" => "<".into(),
                        "gt" => ">".into(),
                        "amp" => "&".into(),
                        "quot" => "\"".into(),
                        "apos" => "'".into(),
                        other => return Err(bad(format!("unknown entity &{other};"))),
                    },
                };
                text_buf.push_str(&s);
            }
            Event::End(e) => match e.local_name().as_ref() {
                "data" => {
                    if let Some(k) = data_key.take() {
                        let v = std::mem::take(&mut text_buf);
                        push_data(&owner, &mut raw_graph, &mut node_data, &mut edge_data, k, v);
                    }
                }
                "default" => {
                    if let Some(id) = &key_open {
                        if let Some(k) = doc.keys.get_mut(id) {
                            k.2 = Some(std::mem::take(&mut text_buf));
                        }
                    }
                }
                "key" => key_open = None,
                "node" | "edge" => owner = Owner::Graph,
                "graph" => owner = Owner::None,
                _ => {}
            },
            Event::Eof => break,
            _ => {}
        }
    }
    // Data by key name; an undeclared key is an error.
    let name_of = |k: &str| -> Result<String, WitnessError> {
        doc.keys
            .get(k)
            .map(|(n, _, _)| n.clone())
            .ok_or_else(|| bad(format!("data with undeclared key `{k}`")))
    };
    let mut graph = Vec::new();
    for (k, v) in raw_graph {
        graph.push((name_of(&k)?, v));
    }
    let mut nodes = Vec::new();
    for ((id, _), data) in doc.nodes.iter().zip(node_data) {
        let mut d = Vec::new();
        for (k, v) in data {
            d.push((name_of(&k)?, v));
        }
        nodes.push((id.clone(), d));
    }
    let mut edges = Vec::new();
    for ((s, t, _), data) in doc.edges.iter().zip(edge_data) {
        let mut d = Vec::new();
        for (k, v) in data {
            d.push((name_of(&k)?, v));
        }
        edges.push((s.clone(), t.clone(), d));
    }
    doc.graph = graph;
    doc.nodes = nodes;
    doc.edges = edges;
    let ids: HashSet<&str> = doc.nodes.iter().map(|(i, _)| i.as_str()).collect();
    if ids.len() != doc.nodes.len() {
        return Err(bad("two nodes share an id".into()));
    }
    for (s, t, _) in &doc.edges {
        if !ids.contains(s.as_str()) || !ids.contains(t.as_str()) {
            return Err(bad(format!("edge {s} -> {t} joins an undeclared node")));
        }
    }
    Ok(doc)
}

/// Where the parser is: the element whose `data` it reads.
enum Owner {
    None,
    Graph,
    Node(usize),
    Edge(usize),
}

fn push_data(
    owner: &Owner,
    graph: &mut Vec<(String, String)>,
    nodes: &mut [Vec<(String, String)>],
    edges: &mut [Vec<(String, String)>],
    k: String,
    v: String,
) {
    match owner {
        Owner::Graph => graph.push((k, v)),
        Owner::Node(i) => {
            if let Some(n) = nodes.get_mut(*i) {
                n.push((k, v));
            }
        }
        Owner::Edge(i) => {
            if let Some(e) = edges.get_mut(*i) {
                e.push((k, v));
            }
        }
        Owner::None => {}
    }
}

fn get<'a>(data: &'a [(String, String)], name: &str) -> Option<&'a str> {
    data.iter()
        .find(|(k, _)| k == name)
        .map(|(_, v)| v.as_str())
}

/// The path of a violation witness: its edges' data from the entry node to the violation
/// node. A witness that branches is not a single execution and is refused.
pub fn path(doc: &Document, path: &str) -> Result<Vec<Vec<(String, String)>>, WitnessError> {
    let bad = |reason: String| WitnessError::Malformed {
        path: path.to_string(),
        reason,
    };
    match get(&doc.graph, "witness-type") {
        Some("violation_witness") => {}
        Some(other) => {
            return Err(bad(format!(
                "witness-type is `{other}`, not violation_witness"
            )));
        }
        None => return Err(bad("no witness-type".into())),
    }
    let entries: Vec<&str> = doc
        .nodes
        .iter()
        .filter(|(_, d)| doc.node_flag(d, "entry"))
        .map(|(i, _)| i.as_str())
        .collect();
    let [entry] = entries.as_slice() else {
        return Err(bad(format!(
            "{} entry nodes, a witness has one",
            entries.len()
        )));
    };
    let violation: HashSet<&str> = doc
        .nodes
        .iter()
        .filter(|(_, d)| doc.node_flag(d, "violation"))
        .map(|(i, _)| i.as_str())
        .collect();
    let mut out: HashMap<&str, Vec<usize>> = HashMap::new();
    for (i, (s, _, _)) in doc.edges.iter().enumerate() {
        out.entry(s.as_str()).or_default().push(i);
    }
    let mut at: &str = entry;
    let mut edges = Vec::new();
    while !violation.contains(at) {
        let Some(next) = out.get(at) else {
            return Err(bad(format!(
                "the path ends at node {at}, which is no violation node"
            )));
        };
        let [e] = next.as_slice() else {
            return Err(bad(format!(
                "node {at} has {} outgoing edges: seqloc reads witnesses that are one path",
                next.len()
            )));
        };
        if edges.len() > doc.edges.len() {
            return Err(bad("the path runs in a cycle".into()));
        }
        edges.push(doc.edges[*e].2.clone());
        at = doc.edges[*e].1.as_str();
    }
    Ok(edges)
}

/// Reads a GraphML violation witness that seqloc wrote back into the schedule it was
/// written from.
pub fn read_schedule(text: &str, path_name: &str) -> Result<Schedule, WitnessError> {
    read(text, path_name).map(|(s, _)| s)
}

/// [`read_schedule`], with the witness's replay [`super::Hints`].
pub fn read(text: &str, path_name: &str) -> Result<(Schedule, super::Hints), WitnessError> {
    let bad = |reason: String| WitnessError::Malformed {
        path: path_name.to_string(),
        reason,
    };
    let doc = parse(text, path_name)?;
    let edges = path(&doc, path_name)?;
    let mut threads: Vec<ThreadSpec> = Vec::new();
    let mut blocks: Vec<Block> = Vec::new();
    let mut inputs: Vec<InputValue> = Vec::new();
    let mut open: Option<u32> = None;
    for (i, d) in edges.iter().enumerate() {
        let edge = i + 1;
        let t: u32 = get(d, "threadId")
            .ok_or_else(|| bad(format!("edge {edge} has no threadId")))?
            .trim()
            .parse()
            .map_err(|_| {
                bad(format!(
                    "edge {edge}: threadId is not a seqloc thread number"
                ))
            })?;
        if let Some(f) = get(d, "enterFunction") {
            if !threads.iter().any(|s| s.id == t) {
                threads.push(ThreadSpec::new(t, f.trim().to_string()));
            }
        }
        match open {
            Some(o) if o != t => {
                return Err(bad(format!(
                    "edge {edge} runs thread {t} inside a block of thread {o} (no seqloc-until between them)"
                )));
            }
            _ => open = Some(t),
        }
        for (k, v) in d {
            if k == "seqloc-input" {
                let w: Vec<&str> = v.split_whitespace().collect();
                let [at, occ, val] = w.as_slice() else {
                    return Err(bad(format!(
                        "edge {edge}: seqloc-input `{v}` is not `statement occurrence value`"
                    )));
                };
                inputs.push(InputValue {
                    thread: t,
                    at: at.to_string(),
                    occurrence: occ
                        .parse()
                        .map_err(|_| bad(format!("edge {edge}: occurrence `{occ}`")))?,
                    value: val
                        .parse()
                        .map_err(|_| bad(format!("edge {edge}: value `{val}`")))?,
                    text: None,
                });
            }
        }
        if let Some(u) = get(d, "seqloc-until") {
            let w: Vec<&str> = u.split_whitespace().collect();
            let until = match w.as_slice() {
                [k] => Until::Keyword(k.to_string()),
                [before, occ] => Until::before(
                    before.to_string(),
                    occ.parse()
                        .map_err(|_| bad(format!("edge {edge}: seqloc-until `{u}`")))?,
                ),
                _ => {
                    return Err(bad(format!(
                        "edge {edge}: seqloc-until `{u}` is not `end` or `statement occurrence`"
                    )));
                }
            };
            blocks.push(Block {
                thread: t,
                until,
                ran: vec![],
            });
            open = None;
        }
    }
    if blocks.is_empty() {
        return Err(bad(
            "no seqloc-until data: seqloc replays the witnesses it wrote, whose blocks it marks (line numbers alone cannot name a switch inside a statement)".into(),
        ));
    }
    if let Some(t) = open {
        return Err(bad(format!("the last edges (thread {t}) end no block")));
    }
    if !threads.iter().any(|s| s.id == 0) {
        threads.insert(0, ThreadSpec::new(0, "main".into()));
    }
    threads.sort_by_key(|s| s.id);
    let hints = super::Hints {
        unwind: get(&doc.graph, "seqloc-unwind").and_then(|u| u.trim().parse().ok()),
        deadlock: get(&doc.graph, "specification").is_some_and(|s| s.contains("deadlock")),
    };
    Ok((
        Schedule {
            schema: SCHEMA.to_string(),
            threads,
            blocks,
            inputs,
        },
        hints,
    ))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn nondet_functions_are_found_in_statements() {
        assert_eq!(
            nondet_function("val[0] = ((int)__VERIFIER_nondet_int());").as_deref(),
            Some("__VERIFIER_nondet_int")
        );
        assert_eq!(
            nondet_function("x = nondet_uint ();").as_deref(),
            Some("nondet_uint")
        );
        assert_eq!(nondet_function("nondet_flag = 1;"), None);
        assert_eq!(nondet_function("x = y;"), None);
    }

    fn doc(edges: &str) -> String {
        format!(
            r#"<?xml version="1.0"?>
<graphml xmlns="http://graphml.graphdrawing.org/xmlns">
 <key id="entry" attr.name="entry" for="node"><default>false</default></key>
 <key id="violation" attr.name="violation" for="node"><default>false</default></key>
 <key id="witness-type" attr.name="witness-type" for="graph"/>
 <key id="t" attr.name="threadId" for="edge"/>
 <key id="f" attr.name="enterFunction" for="edge"/>
 <key id="u" attr.name="seqloc-until" for="edge"/>
 <key id="i" attr.name="seqloc-input" for="edge"/>
 <key id="a" attr.name="assumption" for="edge"/>
 <graph edgedefault="directed">
  <data key="witness-type">violation_witness</data>
  <node id="A"><data key="entry">true</data></node>
  <node id="B"/>
  <node id="C"/>
  <node id="D"><data key="violation">true</data></node>
  {edges}
 </graph>
</graphml>"#
        )
    }

    #[test]
    fn a_path_reads_back_as_blocks_and_inputs() {
        // Keys with ids other than their names, and an escaped assumption.
        let text = doc(
            r#"<edge source="A" target="B"><data key="t">0</data><data key="f">main</data><data key="a">x &lt; 5 &amp;&amp; y == 1;</data><data key="i">p.c:3:7 1 -4</data><data key="u">p.c:9:3#2 1</data></edge>
  <edge source="B" target="C"><data key="t">1</data><data key="f">worker</data><data key="u">end</data></edge>
  <edge source="C" target="D"><data key="t">0</data><data key="u">end</data></edge>"#,
        );
        let s = read_schedule(&text, "w.graphml").expect("reads");
        assert_eq!(s.threads.len(), 2);
        assert_eq!(s.threads[1].function, "worker");
        assert_eq!(s.blocks.len(), 3);
        assert_eq!(s.blocks[0].until, Until::before("p.c:9:3#2".into(), 1));
        assert_eq!(s.blocks[2].until, Until::Keyword("end".into()));
        assert_eq!(s.inputs[0].value, -4);
        let d = parse(&text, "w").expect("parses");
        let p = path(&d, "w").expect("a path");
        assert_eq!(get(&p[0], "assumption"), Some("x < 5 && y == 1;"));
    }

    #[test]
    fn malformed_witnesses_are_refused() {
        // Branching.
        let two = doc(
            r#"<edge source="A" target="B"><data key="t">0</data><data key="u">end</data></edge>
  <edge source="A" target="C"><data key="t">0</data></edge>"#,
        );
        assert!(
            read_schedule(&two, "w")
                .unwrap_err()
                .to_string()
                .contains("one path")
        );
        // An undeclared key.
        let undeclared = doc(r#"<edge source="A" target="D"><data key="zz">0</data></edge>"#);
        assert!(
            read_schedule(&undeclared, "w")
                .unwrap_err()
                .to_string()
                .contains("undeclared key")
        );
        // An edge to a node that does not exist.
        let dangling = doc(r#"<edge source="A" target="Q"><data key="t">0</data></edge>"#);
        assert!(
            read_schedule(&dangling, "w")
                .unwrap_err()
                .to_string()
                .contains("undeclared node")
        );
        // Threads changing inside a block.
        let mixed = doc(r#"<edge source="A" target="D"><data key="t">0</data></edge>"#);
        assert!(
            read_schedule(&mixed, "w")
                .unwrap_err()
                .to_string()
                .contains("no seqloc-until")
        );
        let inside = doc(r#"<edge source="A" target="B"><data key="t">0</data></edge>
  <edge source="B" target="D"><data key="t">1</data><data key="u">end</data></edge>"#);
        assert!(
            read_schedule(&inside, "w")
                .unwrap_err()
                .to_string()
                .contains("inside a block")
        );
        // Not XML.
        assert!(read_schedule("<graphml><graph>", "w").is_err());
    }
}
