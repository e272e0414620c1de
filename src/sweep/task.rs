//! Task discovery: which programs a sweep runs, with which properties, expected verdicts and
//! ground truth.
//!
//! This module owns the SV-COMP task-definition format (`*.yml`, format 1.0 to 2.x, as in
//! sosy-lab/sv-benchmarks), property identification from `.prp` files, and seqloc's own
//! ground-truth file (`MANIFEST.json`). It knows nothing about running seqloc or scoring.
//!
//! What becomes a task:
//!
//! * every `*.yml`/`*.yaml` task definition found under a folder, or named on the command line;
//! * every `.c`/`.i` file found or named that is *not* an input of a task definition in the same
//!   sweep; such a bare file has no expected verdict and is checked for property "all".
//!
//! A task keeps every property it lists. seqloc checks `unreach-call` and `no-deadlock`; any
//! other property (no-data-race, memsafety, termination, ...) stays on the task so that the
//! sweep reports it as *skipped* with a reason instead of dropping it. A task definition that
//! cannot be read is not fatal either: the task carries the problem and is reported as an error.
//! Only what the user typed can fail discovery (a path that does not exist, an explicit `.yml`
//! that is not a task definition), and an unreadable ground-truth manifest, because silently
//! missing ground truth would skew the hit rate.

use std::collections::{BTreeMap, HashMap, HashSet};
use std::fmt;
use std::fs;
use std::path::{Component, Path, PathBuf};

use serde::{Deserialize, Serialize};

use super::SweepError;
use super::messages;

/// A property seqloc can be asked about, or one it records only to report as skipped.
#[derive(Clone, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum PropertyKind {
    /// `CHECK( init(main()), LTL(G ! call(reach_error())) )`.
    UnreachCall,
    /// seqloc's own `no-deadlock.prp`: `CHECK( init(main()), LTL(G ! deadlock) )`.
    NoDeadlock,
    /// A bare `.c`/`.i` file: no task definition, so seqloc checks everything it can.
    All,
    /// Any property seqloc does not check, by its SV-COMP name (`no-data-race`,
    /// `valid-memsafety`, `termination`, ...).
    Unsupported(String),
}

impl PropertyKind {
    /// The SV-COMP name of the property (`unreach-call`, `no-deadlock`, `all`, ...).
    pub fn name(&self) -> &str {
        match self {
            PropertyKind::UnreachCall => "unreach-call",
            PropertyKind::NoDeadlock => "no-deadlock",
            PropertyKind::All => "all",
            PropertyKind::Unsupported(name) => name,
        }
    }

    /// The value of seqloc's `--property` option for this property, or `None` when seqloc
    /// does not check it.
    pub fn cli_value(&self) -> Option<&'static str> {
        match self {
            PropertyKind::UnreachCall => Some("unreach-call"),
            PropertyKind::NoDeadlock => Some("deadlock"),
            PropertyKind::All => Some("all"),
            PropertyKind::Unsupported(_) => None,
        }
    }

    /// Identifies a property from the text of its `.prp` file, falling back to the file name
    /// (`unreach-call.prp`) when the text is not recognised.
    pub fn identify(prp_text: Option<&str>, prp_path: &Path) -> PropertyKind {
        prp_text
            .and_then(property_from_text)
            .unwrap_or_else(|| property_from_file_name(prp_path))
    }
}

impl fmt::Display for PropertyKind {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

/// Reads a property from the text of a `.prp` file. Whitespace is ignored, as in SV-COMP's own
/// property files, whose spacing varies between versions.
fn property_from_text(text: &str) -> Option<PropertyKind> {
    let compact: String = text.chars().filter(|c| !c.is_whitespace()).collect();
    let has = |ltl: &str| compact.contains(&format!("LTL({ltl})"));
    // Older sv-benchmarks releases call `__VERIFIER_error()` instead of `reach_error()`; it is
    // the same property.
    if has("G!call(reach_error())") || has("G!call(__VERIFIER_error())") {
        return Some(PropertyKind::UnreachCall);
    }
    if has("G!deadlock") {
        return Some(PropertyKind::NoDeadlock);
    }
    let other = if has("G!data-race") {
        "no-data-race"
    } else if has("Gvalid-free") || has("Gvalid-deref") || has("Gvalid-memtrack") {
        "valid-memsafety"
    } else if has("Gvalid-memcleanup") {
        "valid-memcleanup"
    } else if has("Fend") {
        "termination"
    } else if has("G!overflow") {
        "no-overflow"
    } else {
        return None;
    };
    Some(PropertyKind::Unsupported(other.to_string()))
}

fn property_from_file_name(path: &Path) -> PropertyKind {
    let stem = path
        .file_stem()
        .map(|s| s.to_string_lossy().into_owned())
        .unwrap_or_default();
    match stem.as_str() {
        "unreach-call" => PropertyKind::UnreachCall,
        "no-deadlock" | "deadlock" => PropertyKind::NoDeadlock,
        "" => PropertyKind::Unsupported("unknown".to_string()),
        _ => PropertyKind::Unsupported(stem),
    }
}

/// One property of a task, as the task definition lists it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct TaskProperty {
    pub kind: PropertyKind,
    /// The `.prp` file, resolved against the task file's folder (`None` for bare files).
    pub property_file: Option<PathBuf>,
    /// `expected_verdict`: `true` (the property holds), `false` (it is violated), or `None`
    /// when the task does not say.
    pub expected: Option<bool>,
    /// `subproperty` (e.g. `valid-memtrack`), kept for the record.
    pub subproperty: Option<String>,
}

/// `options.data_model` of a task definition.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum DataModel {
    Ilp32,
    Lp64,
}

impl DataModel {
    /// The value of seqloc's `--data-model` option.
    pub fn cli_value(self) -> &'static str {
        match self {
            DataModel::Ilp32 => "ilp32",
            DataModel::Lp64 => "lp64",
        }
    }

    fn parse(text: &str) -> Option<DataModel> {
        match text.to_ascii_uppercase().as_str() {
            "ILP32" => Some(DataModel::Ilp32),
            "LP64" => Some(DataModel::Lp64),
            _ => None,
        }
    }
}

/// Ground truth for a task, from the nearest `MANIFEST.json`.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct GroundTruth {
    pub faulty_lines: Vec<u32>,
    pub class: Option<String>,
    pub description: Option<String>,
    /// The manifest it came from.
    pub manifest: PathBuf,
}

/// One task of a sweep: a task definition or a bare C file.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Task {
    /// The task's path as the user sees it (the sweep argument joined with the path below it,
    /// `/`-separated, no leading `./`). Unique in a sweep and the sort key.
    pub id: String,
    /// The task definition, or `None` for a bare C file.
    pub yml: Option<PathBuf>,
    /// The program's input files, resolved against the task file's folder.
    pub inputs: Vec<PathBuf>,
    /// The name of the folder holding the task file (SV-COMP's category folder).
    pub category: String,
    /// `options.data_model`; `None` when the task does not say (format 1.0 has no options).
    pub data_model: Option<DataModel>,
    /// `options.language`, when given.
    pub language: Option<String>,
    pub properties: Vec<TaskProperty>,
    pub ground_truth: Option<GroundTruth>,
    /// Why the task definition could not be used; the task is then reported as an error.
    pub problem: Option<String>,
}

impl Task {
    fn bare(id: String, path: PathBuf) -> Task {
        Task {
            id,
            category: category_of(&path),
            inputs: vec![path],
            yml: None,
            data_model: None,
            language: None,
            properties: vec![TaskProperty {
                kind: PropertyKind::All,
                property_file: None,
                expected: None,
                subproperty: None,
            }],
            ground_truth: None,
            problem: None,
        }
    }

    /// The task file (`.yml`) or, for a bare task, its C file.
    pub fn path(&self) -> &Path {
        match &self.yml {
            Some(y) => y,
            None => self.inputs.first().map_or(Path::new(""), |p| p.as_path()),
        }
    }
}

fn category_of(path: &Path) -> String {
    path.parent()
        .and_then(|p| p.file_name())
        .map(|n| n.to_string_lossy().into_owned())
        .unwrap_or_else(|| ".".to_string())
}

// ---------------------------------------------------------------------------------------------
// Task definitions (YAML)
// ---------------------------------------------------------------------------------------------

/// A task definition as written, before paths are resolved. Unknown keys are ignored on
/// purpose: later format versions add keys (e.g. `options.language` in 1.1) that seqloc does
/// not need.
#[derive(Debug, Deserialize)]
struct RawTaskDef {
    format_version: Option<serde_norway::Value>,
    input_files: Option<OneOrMany>,
    #[serde(default)]
    properties: Option<Vec<RawProperty>>,
    options: Option<RawOptions>,
}

#[derive(Debug, Deserialize)]
#[serde(untagged)]
enum OneOrMany {
    One(String),
    Many(Vec<String>),
}

#[derive(Debug, Deserialize)]
struct RawProperty {
    property_file: String,
    expected_verdict: Option<bool>,
    subproperty: Option<String>,
}

#[derive(Debug, Default, Deserialize)]
struct RawOptions {
    data_model: Option<String>,
    language: Option<String>,
}

/// A parsed task definition with paths still relative to its folder.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct TaskDef {
    /// `format_version` as written (`"1.0"`, `"2.0"`, ...).
    pub format_version: String,
    pub input_files: Vec<String>,
    /// `(property_file, expected_verdict, subproperty)` as written.
    pub properties: Vec<(String, Option<bool>, Option<String>)>,
    pub data_model: Option<DataModel>,
    pub language: Option<String>,
}

/// What a YAML file in a benchmark folder is, as far as the sweep is concerned.
#[derive(Debug, PartialEq, Eq)]
enum YamlKind {
    /// A mapping with `format_version` or `input_files` at the top level.
    Task,
    /// Meant as a task definition (a top-level `format_version:` or `input_files:` line)
    /// but not YAML: a task that cannot run, reported as an error, not silently skipped.
    BrokenTask,
    /// Anything else (witnesses, CI configuration); the reason, for the message.
    Other(String),
}

/// Whether a YAML document is meant as a task definition. Other YAML files in a benchmark
/// folder (witnesses, CI configuration) are not tasks.
fn classify_yaml(text: &str) -> YamlKind {
    match serde_norway::from_str::<serde_norway::Value>(text) {
        Ok(serde_norway::Value::Mapping(m))
            if m.contains_key("format_version") || m.contains_key("input_files") =>
        {
            YamlKind::Task
        }
        Ok(_) => YamlKind::Other("it has neither format_version nor input_files".to_string()),
        Err(e) => {
            // A top-level key starts its line; a witness names `format_version` indented,
            // inside its metadata, so a broken witness is still not taken for a task.
            let keyed = text
                .lines()
                .any(|l| l.starts_with("format_version") || l.starts_with("input_files"));
            if keyed {
                YamlKind::BrokenTask
            } else {
                YamlKind::Other(format!("it is not valid YAML ({e})"))
            }
        }
    }
}

/// Parses the text of an SV-COMP task definition. The error is a message without the path.
pub fn parse_task_def(text: &str) -> Result<TaskDef, String> {
    // Read as plain YAML first: deserializing into `RawTaskDef` can stop at a type error
    // before the parser reaches a syntax error further on, which is the message that helps.
    serde_norway::from_str::<serde_norway::Value>(text)
        .map_err(|e| format!("not valid YAML: {e}"))?;
    let raw: RawTaskDef = serde_norway::from_str(text).map_err(|e| e.to_string())?;
    let format_version = match raw.format_version {
        Some(serde_norway::Value::String(s)) => s,
        // `format_version: 2.0` without quotes is a YAML float.
        Some(serde_norway::Value::Number(n)) => {
            let s = n.to_string();
            if s.contains('.') { s } else { format!("{s}.0") }
        }
        Some(other) => return Err(format!("format_version is not a version: {other:?}")),
        None => return Err("no format_version".to_string()),
    };
    let major = format_version.split('.').next().unwrap_or("");
    if major != "1" && major != "2" {
        return Err(format!(
            "format_version {format_version} is not supported (seqloc reads 1.0 to 2.x)"
        ));
    }
    let input_files = match raw.input_files {
        Some(OneOrMany::One(s)) => vec![s],
        Some(OneOrMany::Many(v)) => v,
        None => return Err("no input_files".to_string()),
    };
    if input_files.is_empty() {
        return Err("input_files is empty".to_string());
    }
    if let Some(pattern) = input_files.iter().find(|f| f.contains(['*', '?', '['])) {
        return Err(format!(
            "input_files pattern `{pattern}` is not supported; list the files"
        ));
    }
    let options = raw.options.unwrap_or_default();
    let data_model = match options.data_model {
        Some(dm) => Some(
            DataModel::parse(&dm)
                .ok_or_else(|| format!("unknown data_model `{dm}` (expected ILP32 or LP64)"))?,
        ),
        None => None,
    };
    let properties = raw
        .properties
        .unwrap_or_default()
        .into_iter()
        .map(|p| (p.property_file, p.expected_verdict, p.subproperty))
        .collect();
    Ok(TaskDef {
        format_version,
        input_files,
        properties,
        data_model,
        language: options.language,
    })
}

/// Builds a task from a task file. Problems inside the file become `Task::problem`.
fn load_task_file(id: String, yml: &Path, text: &str) -> Task {
    let dir = yml.parent().unwrap_or(Path::new(""));
    let mut task = Task {
        id,
        yml: Some(yml.to_path_buf()),
        inputs: vec![],
        category: category_of(yml),
        data_model: None,
        language: None,
        properties: vec![],
        ground_truth: None,
        problem: None,
    };
    let def = match parse_task_def(text) {
        Ok(def) => def,
        Err(e) => {
            // The task's id is its path already: the sweep's messages and JSON give both.
            task.problem = Some(format!("invalid task definition: {e}"));
            return task;
        }
    };
    task.inputs = def
        .input_files
        .iter()
        .map(|f| clean(&dir.join(f)))
        .collect();
    task.data_model = def.data_model;
    task.language = def.language;
    let mut prp_cache: HashMap<PathBuf, PropertyKind> = HashMap::new();
    for (file, expected, subproperty) in def.properties {
        let prp = clean(&dir.join(&file));
        let kind = prp_cache
            .entry(prp.clone())
            .or_insert_with(|| {
                // A missing property file is not fatal: its name still says what it is.
                let text = fs::read_to_string(&prp).ok();
                PropertyKind::identify(text.as_deref(), &prp)
            })
            .clone();
        if task.properties.iter().any(|p| p.kind == kind) {
            messages::warn(&format!(
                "{}: property {kind} is listed twice; using the first",
                yml.display()
            ));
            continue;
        }
        task.properties.push(TaskProperty {
            kind,
            property_file: Some(prp),
            expected,
            subproperty,
        });
    }
    if let Some(missing) = task.inputs.iter().find(|p| !p.is_file()) {
        task.problem = Some(format!("input file {} not found", missing.display()));
    }
    task
}

// ---------------------------------------------------------------------------------------------
// Ground truth (MANIFEST.json)
// ---------------------------------------------------------------------------------------------

#[derive(Debug, Deserialize)]
struct RawManifest {
    version: u32,
    #[serde(default)]
    tasks: BTreeMap<String, RawManifestEntry>,
}

#[derive(Debug, Deserialize)]
struct RawManifestEntry {
    #[serde(default)]
    faulty_lines: Vec<u32>,
    class: Option<String>,
    description: Option<String>,
}

/// The manifests met so far, by folder (`None`: the folder has none).
#[derive(Default)]
struct Manifests {
    by_dir: HashMap<PathBuf, Option<BTreeMap<String, RawManifestEntry>>>,
}

impl Manifests {
    fn in_dir(
        &mut self,
        dir: &Path,
    ) -> Result<Option<&BTreeMap<String, RawManifestEntry>>, SweepError> {
        if !self.by_dir.contains_key(dir) {
            let path = dir.join("MANIFEST.json");
            let loaded = if path.is_file() {
                let text = fs::read_to_string(&path).map_err(|source| SweepError::Io {
                    path: path.clone(),
                    source,
                })?;
                let raw: RawManifest =
                    serde_json::from_str(&text).map_err(|e| SweepError::Manifest {
                        path: path.clone(),
                        message: e.to_string(),
                    })?;
                if raw.version != 1 {
                    return Err(SweepError::Manifest {
                        path,
                        message: format!("version {} is not supported (expected 1)", raw.version),
                    });
                }
                Some(raw.tasks)
            } else {
                None
            };
            self.by_dir.insert(dir.to_path_buf(), loaded);
        }
        Ok(self.by_dir.get(dir).and_then(|m| m.as_ref()))
    }

    /// Looks the task file up in the manifests of its folder and its ancestors; the nearest
    /// manifest that names the task wins. Manifests up to `root` (the sweep argument) must be
    /// valid; above it, a folder the user did not point at, an unreadable or foreign
    /// `MANIFEST.json` is passed over rather than failing the sweep. `root` is `None` for a
    /// file named on the command line: every ancestor is then searched leniently.
    fn lookup(
        &mut self,
        task_file: &Path,
        root: Option<&Path>,
    ) -> Result<Option<GroundTruth>, SweepError> {
        // Canonical paths, so that `seqloc sweep .` inside a benchmark folder still finds the
        // manifest of the folder above.
        let task_file = canonical(task_file);
        let root = root.map(canonical);
        let mut strict = root.is_some();
        let mut dir = task_file.parent();
        while let Some(d) = dir {
            let entries = match self.in_dir(d) {
                Ok(e) => e,
                Err(e) if strict => return Err(e),
                Err(_) => None,
            };
            if let Some(entries) = entries {
                if let Ok(rel) = task_file.strip_prefix(d) {
                    if let Some(e) = entries.get(&slash_path(rel)) {
                        return Ok(Some(GroundTruth {
                            faulty_lines: e.faulty_lines.clone(),
                            class: e.class.clone(),
                            description: e.description.clone(),
                            manifest: d.join("MANIFEST.json"),
                        }));
                    }
                }
            }
            if Some(d) == root.as_deref() {
                strict = false;
            }
            if d.as_os_str().is_empty() {
                break;
            }
            dir = d.parent();
        }
        Ok(None)
    }
}

// ---------------------------------------------------------------------------------------------
// Discovery
// ---------------------------------------------------------------------------------------------

#[derive(Clone, Copy, PartialEq, Eq)]
enum FileKind {
    TaskFile,
    Source,
}

fn file_kind(path: &Path) -> Option<FileKind> {
    match path.extension().and_then(|e| e.to_str()) {
        Some("yml" | "yaml") => Some(FileKind::TaskFile),
        Some("c" | "i") => Some(FileKind::Source),
        _ => None,
    }
}

struct Found {
    path: PathBuf,
    kind: FileKind,
    /// The last folder searched for `MANIFEST.json`: the sweep argument for what a folder
    /// walk found; `None` (every ancestor) for a file named on the command line.
    root: Option<PathBuf>,
    /// Named on the command line (an unreadable one is then fatal).
    explicit: bool,
}

/// Finds the tasks under `paths`: folders (searched recursively; hidden entries skipped), task
/// definitions (`.yml`, `.yaml`) and C files (`.c`, `.i`). Returns them sorted by id.
pub fn discover(paths: &[PathBuf]) -> Result<Vec<Task>, SweepError> {
    let mut found = Vec::new();
    let mut visited = HashSet::new();
    for arg in paths {
        let path = clean(arg);
        let meta = fs::metadata(&path).map_err(|source| {
            if source.kind() == std::io::ErrorKind::NotFound {
                SweepError::NotFound { path: path.clone() }
            } else {
                SweepError::Io {
                    path: path.clone(),
                    source,
                }
            }
        })?;
        if meta.is_dir() {
            walk(&path, &path, &mut found, &mut visited)?;
        } else {
            let kind = file_kind(&path)
                .ok_or_else(|| SweepError::UnsupportedPath { path: path.clone() })?;
            found.push(Found {
                path,
                kind,
                root: None,
                explicit: true,
            });
        }
    }

    let mut manifests = Manifests::default();
    let mut tasks: Vec<(Task, Option<PathBuf>)> = Vec::new();
    let mut seen: HashSet<PathBuf> = HashSet::new();
    let mut listed_inputs: HashSet<PathBuf> = HashSet::new();
    let mut sources: Vec<Found> = Vec::new();
    for f in found {
        if !seen.insert(canonical(&f.path)) {
            continue; // reached twice (overlapping arguments)
        }
        match f.kind {
            FileKind::Source => sources.push(f),
            FileKind::TaskFile => {
                let text = fs::read_to_string(&f.path).map_err(|source| SweepError::Io {
                    path: f.path.clone(),
                    source,
                })?;
                if let YamlKind::Other(reason) = classify_yaml(&text) {
                    if f.explicit {
                        return Err(SweepError::NotATask {
                            path: f.path,
                            reason,
                        });
                    }
                    messages::warn(&format!(
                        "{}: not an SV-COMP task definition ({reason}); ignored",
                        f.path.display()
                    ));
                    continue;
                }
                // A broken task definition is loaded too: `load_task_file` makes the YAML
                // parser's message (with its line and column) the task's problem.
                let task = load_task_file(slash_path(&f.path), &f.path, &text);
                listed_inputs.extend(task.inputs.iter().map(|p| canonical(p)));
                tasks.push((task, f.root));
            }
        }
    }
    for f in sources {
        if listed_inputs.contains(&canonical(&f.path)) {
            continue; // the input of a task definition, not a task of its own
        }
        tasks.push((Task::bare(slash_path(&f.path), f.path.clone()), f.root));
    }
    let mut out = Vec::with_capacity(tasks.len());
    for (mut task, root) in tasks {
        let file = task.path().to_path_buf();
        task.ground_truth = manifests.lookup(&file, root.as_deref())?;
        out.push(task);
    }
    out.sort_by(|a, b| a.id.cmp(&b.id));
    Ok(out)
}

fn walk(
    dir: &Path,
    root: &Path,
    out: &mut Vec<Found>,
    visited: &mut HashSet<PathBuf>,
) -> Result<(), SweepError> {
    // Symbolic links are followed; the canonical path stops a link cycle.
    if !visited.insert(canonical(dir)) {
        return Ok(());
    }
    let entries = fs::read_dir(dir).map_err(|source| SweepError::Io {
        path: dir.to_path_buf(),
        source,
    })?;
    let mut paths = Vec::new();
    for entry in entries {
        let entry = entry.map_err(|source| SweepError::Io {
            path: dir.to_path_buf(),
            source,
        })?;
        if entry.file_name().to_string_lossy().starts_with('.') {
            continue;
        }
        paths.push(entry.path());
    }
    paths.sort();
    for path in paths {
        let meta = match fs::metadata(&path) {
            Ok(m) => m,
            Err(e) => {
                messages::warn(&format!("{}: {e}; ignored", path.display()));
                continue;
            }
        };
        if meta.is_dir() {
            walk(&path, root, out, visited)?;
        } else if let Some(kind) = file_kind(&path) {
            out.push(Found {
                path,
                kind,
                root: Some(root.to_path_buf()),
                explicit: false,
            });
        }
    }
    Ok(())
}

/// Removes `.` components and folds `dir/..` where `dir` is a plain name, without touching the
/// file system, so that ids read like the paths the user typed (`../properties/x.prp` inside
/// `c/pthread/` becomes `c/properties/x.prp`).
pub(crate) fn clean(path: &Path) -> PathBuf {
    let mut out: Vec<Component<'_>> = Vec::new();
    for c in path.components() {
        match c {
            Component::CurDir => {}
            Component::ParentDir => match out.last() {
                Some(Component::Normal(_)) => {
                    out.pop();
                }
                Some(Component::RootDir) => {}
                _ => out.push(c),
            },
            other => out.push(other),
        }
    }
    if out.is_empty() {
        return PathBuf::from(".");
    }
    out.iter().collect()
}

fn canonical(path: &Path) -> PathBuf {
    fs::canonicalize(path).unwrap_or_else(|_| clean(path))
}

/// A path as a `/`-separated string.
pub(crate) fn slash_path(path: &Path) -> String {
    let parts: Vec<String> = path
        .components()
        .map(|c| c.as_os_str().to_string_lossy().into_owned())
        .collect();
    let joined = parts.join("/");
    // A root component renders as "/" and would double the separator.
    joined.replacen("//", "/", 1)
}

#[cfg(test)]
pub(crate) mod tests {
    use super::*;

    const V10: &str = "format_version: '1.0'\n\n# old file name: lamport_true-unreach-call.i\ninput_files: 'lamport.i'\n\nproperties:\n  - property_file: ../properties/unreach-call.prp\n    expected_verdict: true\n  - property_file: ../properties/no-data-race.prp\n    expected_verdict: true\n";
    const V11: &str = "format_version: '1.1'\ninput_files: 'peterson.i'\nproperties:\n  - property_file: ../properties/unreach-call.prp\n    expected_verdict: true\noptions:\n  language: C\n  data_model: ILP32\n";
    const V20: &str = "format_version: 2.0\ninput_files:\n  - a.c\n  - b.c\nproperties:\n  - property_file: ../properties/valid-memsafety.prp\n    expected_verdict: false\n    subproperty: valid-memtrack\n  - property_file: ../properties/unreach-call.prp\n    expected_verdict: false\noptions:\n  language: C\n  data_model: LP64\n";

    #[test]
    fn parses_format_1_0_with_string_input() {
        let d = parse_task_def(V10).unwrap();
        assert_eq!(d.format_version, "1.0");
        assert_eq!(d.input_files, vec!["lamport.i"]);
        assert_eq!(d.properties.len(), 2);
        assert_eq!(
            d.properties[0],
            (
                "../properties/unreach-call.prp".to_string(),
                Some(true),
                None
            )
        );
        assert_eq!(d.data_model, None);
    }

    #[test]
    fn parses_format_1_1_with_options() {
        let d = parse_task_def(V11).unwrap();
        assert_eq!(d.format_version, "1.1");
        assert_eq!(d.data_model, Some(DataModel::Ilp32));
        assert_eq!(d.language.as_deref(), Some("C"));
    }

    #[test]
    fn parses_format_2_0_with_list_input_and_subproperty() {
        let d = parse_task_def(V20).unwrap();
        assert_eq!(d.format_version, "2.0");
        assert_eq!(d.input_files, vec!["a.c", "b.c"]);
        assert_eq!(d.properties[0].1, Some(false));
        assert_eq!(d.properties[0].2.as_deref(), Some("valid-memtrack"));
        assert_eq!(d.data_model, Some(DataModel::Lp64));
    }

    #[test]
    fn rejects_bad_task_definitions() {
        assert!(parse_task_def("input_files: a.c\n").is_err());
        assert!(parse_task_def("format_version: '3.0'\ninput_files: a.c\n").is_err());
        assert!(parse_task_def("format_version: '2.0'\n").is_err());
        assert!(
            parse_task_def("format_version: '2.0'\ninput_files: a.c\noptions:\n  data_model: X\n")
                .is_err()
        );
        assert!(parse_task_def("format_version: '2.0'\ninput_files: '*.c'\n").is_err());
        assert!(parse_task_def(": : :\n- [").is_err());
    }

    #[test]
    fn identifies_properties_by_content() {
        let p = Path::new("whatever.prp");
        let id = |t: &str| PropertyKind::identify(Some(t), p);
        assert_eq!(
            id("CHECK( init(main()), LTL(G ! call(reach_error())) )\n"),
            PropertyKind::UnreachCall
        );
        assert_eq!(
            id("CHECK(init(main()),LTL(G!call(__VERIFIER_error())))"),
            PropertyKind::UnreachCall
        );
        assert_eq!(
            id("CHECK( init(main()), LTL(G ! deadlock) )"),
            PropertyKind::NoDeadlock
        );
        assert_eq!(
            id("CHECK( init(main()), LTL(G ! data-race) )"),
            PropertyKind::Unsupported("no-data-race".into())
        );
        assert_eq!(
            id(
                "CHECK( init(main()), LTL(G valid-free) )\nCHECK( init(main()), LTL(G valid-deref) )"
            ),
            PropertyKind::Unsupported("valid-memsafety".into())
        );
        assert_eq!(
            id("CHECK( init(main()), LTL(F end) )"),
            PropertyKind::Unsupported("termination".into())
        );
        // Content wins over the name; unknown content falls back to the name.
        assert_eq!(
            PropertyKind::identify(
                Some("CHECK( init(main()), LTL(G ! deadlock) )"),
                Path::new("unreach-call.prp")
            ),
            PropertyKind::NoDeadlock
        );
        assert_eq!(
            PropertyKind::identify(Some("gibberish"), Path::new("x/unreach-call.prp")),
            PropertyKind::UnreachCall
        );
        assert_eq!(
            PropertyKind::identify(None, Path::new("x/no-deadlock.prp")),
            PropertyKind::NoDeadlock
        );
        assert_eq!(
            PropertyKind::identify(None, Path::new("coverage-branches.prp")),
            PropertyKind::Unsupported("coverage-branches".into())
        );
    }

    #[test]
    fn cleans_paths() {
        assert_eq!(
            clean(Path::new("./c/pthread/../properties/x.prp")),
            PathBuf::from("c/properties/x.prp")
        );
        assert_eq!(clean(Path::new("../a/./b")), PathBuf::from("../a/b"));
        assert_eq!(slash_path(Path::new("/a/b")), "/a/b");
    }

    const SVCOMP: &str = concat!(env!("CARGO_MANIFEST_DIR"), "/../shared/svcomp/c");

    #[test]
    fn discovers_the_real_svcomp_tree() {
        let root = Path::new(SVCOMP);
        if !root.is_dir() {
            eprintln!("skipped: ../shared/svcomp not found");
            return;
        }
        let tasks = discover(&[root.to_path_buf()]).unwrap();
        assert_eq!(
            tasks.len(),
            56,
            "{:#?}",
            tasks.iter().map(|t| &t.id).collect::<Vec<_>>()
        );
        let mut with_race = Vec::new();
        for t in &tasks {
            assert_eq!(t.problem, None, "{}", t.id);
            assert!(t.yml.is_some(), "{} should be a task definition", t.id);
            assert_eq!(t.inputs.len(), 1);
            assert_eq!(t.properties[0].kind, PropertyKind::UnreachCall, "{}", t.id);
            assert!(t.properties[0].expected.is_some());
            if t.properties.len() > 1 {
                assert_eq!(
                    t.properties[1].kind,
                    PropertyKind::Unsupported("no-data-race".into())
                );
                let name = t.id.rsplit('/').next().unwrap_or("");
                with_race.push(format!("{}/{name}", t.category));
            }
        }
        with_race.sort();
        assert_eq!(
            with_race,
            vec![
                "pthread-atomic/lamport.yml",
                "pthread-ext/40_barrier_vf.yml"
            ]
        );
        let falses = tasks
            .iter()
            .filter(|t| t.properties[0].expected == Some(false))
            .count();
        assert_eq!(falses, 27);
        let mut ids: Vec<_> = tasks.iter().map(|t| t.id.clone()).collect();
        ids.sort();
        assert_eq!(ids, tasks.iter().map(|t| t.id.clone()).collect::<Vec<_>>());
    }

    /// Writes `files` (path, content) under a fresh temp dir.
    pub(crate) fn tree(files: &[(&str, &str)]) -> tempfile::TempDir {
        let dir = tempfile::tempdir().unwrap();
        for (path, text) in files {
            let p = dir.path().join(path);
            fs::create_dir_all(p.parent().unwrap()).unwrap();
            fs::write(p, text).unwrap();
        }
        dir
    }

    pub(crate) const UNREACH: &str = "CHECK( init(main()), LTL(G ! call(reach_error())) )\n";
    pub(crate) const RACE: &str = "CHECK( init(main()), LTL(G ! data-race) )\n";

    #[test]
    fn discovers_a_miniature_tree() {
        let dir = tree(&[
            ("bench/properties/unreach-call.prp", UNREACH),
            ("bench/properties/no-data-race.prp", RACE),
            // seqloc's own property, with a name that would not identify it.
            (
                "bench/properties/dl.prp",
                "CHECK( init(main()), LTL(G ! deadlock) )\n",
            ),
            (
                "bench/MANIFEST.json",
                r#"{"version":1,"tasks":{"cat/bug.yml":{"faulty_lines":[14,22],"class":"atomicity","description":"lost update"}}}"#,
            ),
            (
                "bench/cat/bug.yml",
                "format_version: '2.0'\ninput_files: bug.c\nproperties:\n  - property_file: ../properties/unreach-call.prp\n    expected_verdict: false\n  - property_file: ../properties/dl.prp\n    expected_verdict: true\noptions:\n  data_model: LP64\n",
            ),
            ("bench/cat/bug.c", "int main(void) { return 0; }\n"),
            (
                "bench/cat/race.yml",
                "format_version: '1.0'\ninput_files: [race.i]\nproperties:\n  - property_file: ../properties/no-data-race.prp\n    expected_verdict: false\n",
            ),
            ("bench/cat/race.i", "int main(void) { return 0; }\n"),
            ("bench/cat/lonely.c", "int main(void) { return 0; }\n"),
            ("bench/cat/header.h", "int x;\n"),
            ("bench/cat/.hidden.c", "int main(void) { return 0; }\n"),
            (
                "bench/cat/broken.yml",
                "format_version: '2.0'\ninput_files: missing.c\n",
            ),
            ("bench/ci.yml", "jobs: {}\n"),
        ]);
        let root = dir.path().join("bench");
        let tasks = discover(std::slice::from_ref(&root)).unwrap();
        let names: Vec<_> = tasks
            .iter()
            .map(|t| t.id.rsplit('/').next().unwrap_or("").to_string())
            .collect();
        assert_eq!(names, vec!["broken.yml", "bug.yml", "lonely.c", "race.yml"]);

        let broken = &tasks[0];
        assert!(
            broken
                .problem
                .as_deref()
                .unwrap_or("")
                .contains("missing.c")
        );

        let bug = &tasks[1];
        assert_eq!(bug.category, "cat");
        assert_eq!(bug.data_model, Some(DataModel::Lp64));
        assert_eq!(
            bug.properties
                .iter()
                .map(|p| p.kind.clone())
                .collect::<Vec<_>>(),
            vec![PropertyKind::UnreachCall, PropertyKind::NoDeadlock]
        );
        let gt = bug.ground_truth.as_ref().unwrap();
        assert_eq!(gt.faulty_lines, vec![14, 22]);
        assert_eq!(gt.class.as_deref(), Some("atomicity"));

        let lonely = &tasks[2];
        assert_eq!(lonely.yml, None);
        assert_eq!(lonely.properties[0].kind, PropertyKind::All);
        assert_eq!(lonely.properties[0].expected, None);
        assert_eq!(lonely.ground_truth, None);

        let race = &tasks[3];
        assert_eq!(
            race.properties[0].kind,
            PropertyKind::Unsupported("no-data-race".into())
        );
        assert_eq!(race.problem, None);

        // An explicit .c that is the input of a task in the same sweep is not a task again,
        // and naming a file twice does not duplicate it.
        let again = discover(&[
            root.join("cat/bug.yml"),
            root.join("cat/bug.c"),
            root.join("cat/bug.yml"),
        ])
        .unwrap();
        assert_eq!(again.len(), 1);
        assert_eq!(
            again[0].ground_truth.as_ref().map(|g| g.faulty_lines.len()),
            Some(2)
        );
        // ... but on its own it is a bare task.
        let alone = discover(&[root.join("cat/bug.c")]).unwrap();
        assert_eq!(alone.len(), 1);
        assert_eq!(alone[0].yml, None);
        // Sweeping a sub-folder still finds the ground truth in the manifest above it.
        let sub = discover(&[root.join("cat")]).unwrap();
        let bug = sub.iter().find(|t| t.id.ends_with("bug.yml")).unwrap();
        assert_eq!(
            bug.ground_truth.as_ref().map(|g| g.faulty_lines.clone()),
            Some(vec![14, 22])
        );
    }

    /// A task file with a YAML syntax error is an errored task with the parser's line and
    /// column, in a folder and named alone; YAML that is no task definition is still skipped.
    #[test]
    fn a_task_file_that_is_not_yaml_is_an_error_not_skipped() {
        let broken = "format_version: '2.0'\ninput_files: 'nosuch.c'\nproperties: [[[\n";
        let dir = tree(&[
            ("x/broken.yml", broken),
            (
                "x/witness.yml",
                "- entry_type: x\n  metadata:\n    format_version: [\n",
            ),
            ("x/ok.c", "int main(void) { return 0; }\n"),
        ]);
        let tasks = discover(&[dir.path().join("x")]).unwrap();
        let ids: Vec<_> = tasks.iter().map(|t| t.id.rsplit('/').next()).collect();
        assert_eq!(ids, vec![Some("broken.yml"), Some("ok.c")]);
        let problem = tasks[0].problem.as_deref().unwrap_or("");
        assert!(problem.contains("not valid YAML"), "{problem}");
        assert!(problem.contains("at line 4 column 1"), "{problem}");
        let alone = discover(&[dir.path().join("x/broken.yml")]).unwrap();
        assert!(
            alone[0]
                .problem
                .as_deref()
                .is_some_and(|p| p.contains("not valid YAML")),
            "{alone:?}"
        );
        let e = discover(&[dir.path().join("x/witness.yml")]).unwrap_err();
        assert!(e.to_string().contains("not valid YAML"), "{e}");
        assert_eq!(
            classify_yaml("jobs: {}\n"),
            YamlKind::Other("it has neither format_version nor input_files".into())
        );
    }

    #[test]
    fn discovery_errors_name_the_path() {
        let dir = tree(&[("x/ci.yml", "jobs: {}\n"), ("x/notes.txt", "hi\n")]);
        let e = discover(&[dir.path().join("nope")]).unwrap_err();
        assert!(matches!(e, SweepError::NotFound { .. }), "{e}");
        let e = discover(&[dir.path().join("x/ci.yml")]).unwrap_err();
        assert!(matches!(e, SweepError::NotATask { .. }), "{e}");
        assert!(e.to_string().contains("ci.yml"));
        let e = discover(&[dir.path().join("x/notes.txt")]).unwrap_err();
        assert!(matches!(e, SweepError::UnsupportedPath { .. }), "{e}");
        let bad = tree(&[
            ("MANIFEST.json", "{not json"),
            ("a.c", "int main(void){return 0;}\n"),
        ]);
        let e = discover(&[bad.path().to_path_buf()]).unwrap_err();
        assert!(matches!(e, SweepError::Manifest { .. }), "{e}");
        assert!(e.to_string().contains("MANIFEST.json"));
    }
}
