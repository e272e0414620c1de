//! The repairs proposed for a localized failure (see the module comment of `repair`),
//! each as edits of the user's source text, in the order they are worth trying.

use std::collections::{BTreeMap, BTreeSet, HashSet};

use super::edit::Edit;
use super::source::Source;

/// Where the localization points, in the input file's lines.
#[derive(Clone, Debug, Default)]
pub struct Sites {
    /// Candidate lines, best first.
    pub ranked: Vec<u32>,
    /// The differential projection's inter-thread flows: a read's line and the lines of
    /// the writes it read from in the failing and the passing run.
    pub flows: Vec<(u32, Vec<u32>)>,
    /// The failure is a deadlock.
    pub deadlock: bool,
}

/// A region of one function under a lock.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Region {
    pub function: String,
    pub first_line: u32,
    pub last_line: u32,
}

#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Action {
    /// `mutex` (a new one when `new`) taken around each region.
    Lock {
        mutex: String,
        new: bool,
        regions: Vec<Region>,
    },
    /// The statement at line `moved` put before (or, `after`, after) the one at `target`.
    Reorder {
        function: String,
        moved: u32,
        target: u32,
        after: bool,
    },
    /// The `if` around a condition wait at `line` made a `while`: the predicate is tested
    /// again after every wake-up.
    WaitLoop { function: String, line: u32 },
    /// `function` is only ever called with `mutex` held: its own lock and unlock of it
    /// (lines `lock` and `unlock`) go.
    DropRelock {
        function: String,
        mutex: String,
        lock: u32,
        unlock: u32,
    },
    /// `mutex` unlocked before the jump at `line`.
    Release {
        function: String,
        mutex: String,
        line: u32,
    },
}

impl Action {
    pub fn kind(&self) -> &'static str {
        match self {
            Action::Lock { .. } => "lock",
            Action::Reorder { .. } => "reorder",
            Action::Release { .. } => "release",
            Action::WaitLoop { .. } => "wait-loop",
            Action::DropRelock { .. } => "drop-relock",
        }
    }
}

#[derive(Clone, Debug)]
pub struct Proposal {
    pub action: Action,
    pub summary: String,
    pub edits: Vec<Edit>,
    /// Statements under the new or widened lock (0 for the other kinds).
    pub statements_locked: usize,
    /// It moves a thread's creation or join: one thread then runs wholly before or
    /// after another, the bluntest repair (tried after every other).
    pub serializes: bool,
    /// Tried after the proposals of a lower tier: lock proposals for a deadlock, and lock
    /// proposals not drawn from the projection's flows.
    pub tier: u8,
}

impl Proposal {
    /// The order of trying: narrowest lock scope, an existing mutex before a new one,
    /// then fewest edits.
    fn cost(&self) -> (bool, u8, usize, u8, usize) {
        let new = matches!(self.action, Action::Lock { new: true, .. });
        (
            self.serializes,
            self.tier,
            self.statements_locked,
            u8::from(new),
            self.edits.len(),
        )
    }
}

/// How many site sets feed the lock proposals, and how many proposals are tried in all:
/// each costs a re-check.
const MAX_RANKED: usize = 4;
const MAX_PROPOSALS: usize = 32;
/// How far a statement moves, in statements of its block.
const MAX_MOVE: usize = 3;

/// Every repair worth re-checking for `sites`, cheapest first.
pub fn propose(src: &Source, sites: &Sites) -> Vec<Proposal> {
    let mut out = Vec::new();
    for (set, from_flow) in site_sets(sites) {
        for mut p in locks(src, &set) {
            p.tier = if sites.deadlock {
                2
            } else {
                u8::from(!from_flow)
            };
            out.push(p);
        }
    }
    out.extend(reorders(src, sites));
    out.extend(releases(src, sites));
    out.extend(wait_loops(src));
    out.extend(drop_relocks(src, sites));
    out.sort_by_key(Proposal::cost);
    let mut seen = HashSet::new();
    out.retain(|p| seen.insert(p.edits.clone()));
    out.truncate(MAX_PROPOSALS);
    out
}

/// The sets of lines a critical section should cover: each flow's read with the writes
/// it saw, and the best candidates taken together.
fn site_sets(sites: &Sites) -> Vec<(Vec<u32>, bool)> {
    let mut sets: Vec<(Vec<u32>, bool)> = Vec::new();
    for (read, writes) in &sites.flows {
        let mut all = vec![*read];
        all.extend(writes);
        sets.push((all, true));
        for w in writes {
            sets.push((vec![*read, *w], true));
        }
    }
    let top: Vec<u32> = sites.ranked.iter().copied().take(MAX_RANKED).collect();
    for n in 1..=top.len() {
        sets.push((top.iter().copied().take(n).collect(), false));
    }
    for (i, a) in top.iter().enumerate() {
        for b in top.iter().skip(i + 1) {
            sets.push((vec![*a, *b], false));
        }
    }
    for (s, _) in &mut sets {
        s.sort_unstable();
        s.dedup();
    }
    let mut seen = HashSet::new();
    sets.retain(|(s, _)| seen.insert(s.clone()));
    sets
}

/// One region per function: the block that holds every site of the function, from the
/// first site's statement to the last's.
#[derive(Clone, Debug, PartialEq, Eq)]
struct Span {
    block: usize,
    lo: usize,
    hi: usize,
}

fn spans(src: &Source, lines: &[u32]) -> Vec<Span> {
    let mut by_fn: BTreeMap<String, Vec<usize>> = BTreeMap::new();
    for &l in lines {
        if let Some(s) = src.statement_at(l) {
            let f = src
                .stmts
                .get(s)
                .map(|x| x.function.clone())
                .unwrap_or_default();
            by_fn.entry(f).or_default().push(s);
        }
    }
    let mut out = Vec::new();
    for stmts in by_fn.values() {
        let Some(&first) = stmts.first() else {
            continue;
        };
        let common = src
            .enclosing_blocks(first)
            .into_iter()
            .find(|&b| stmts.iter().all(|&s| src.child_of_block(b, s).is_some()));
        let Some(b) = common else { continue };
        let idx: Vec<usize> = stmts
            .iter()
            .filter_map(|&s| src.child_of_block(b, s))
            .filter_map(|c| src.position(c).map(|(_, i)| i))
            .collect();
        if let (Some(&lo), Some(&hi)) = (idx.iter().min(), idx.iter().max()) {
            out.push(Span { block: b, lo, hi });
        }
    }
    out
}

fn children(src: &Source, sp: &Span) -> Vec<usize> {
    src.blocks
        .get(sp.block)
        .map(|b| {
            b.stmts
                .iter()
                .skip(sp.lo)
                .take(sp.hi + 1 - sp.lo)
                .copied()
                .collect()
        })
        .unwrap_or_default()
}

/// The lock and unlock calls of `m` among `stmts`, paired in order; `None` when one has
/// no partner among them.
fn pairs(src: &Source, stmts: &[usize], m: &str) -> Option<Vec<(usize, usize)>> {
    let mut open = Vec::new();
    let mut out = Vec::new();
    for &s in stmts {
        match src.stmts.get(s).and_then(|x| x.call.as_ref()?.mutex()) {
            Some(("lock", ref n)) if n == m => open.push(s),
            Some(("unlock", ref n)) if n == m => out.push((open.pop()?, s)),
            _ => {}
        }
    }
    open.is_empty().then_some(out)
}

/// Whether `s` (a child of its block) runs with `m` held by a lock call before it in its
/// block or an enclosing one.
fn held_at(src: &Source, s: usize, m: &str) -> bool {
    let mut cur = Some(s);
    while let Some(c) = cur {
        let Some(st) = src.stmts.get(c) else { break };
        if let Some(b) = st.block {
            let mut depth = 0i32;
            for &x in src.blocks.get(b).map(|b| b.stmts.as_slice()).unwrap_or(&[]) {
                if x == c {
                    break;
                }
                match src.stmts.get(x).and_then(|y| y.call.as_ref()?.mutex()) {
                    Some(("lock", ref n)) if n == m => depth += 1,
                    Some(("unlock", ref n)) if n == m => depth -= 1,
                    _ => {}
                }
            }
            if depth > 0 {
                return true;
            }
        }
        cur = st.parent;
    }
    false
}

/// A span widened so that `m`'s critical sections in its block lie wholly inside or
/// outside it, and the lock and unlock calls of `m` inside it (to move out to its ends).
/// `None` when `m` cannot be used: a call without a partner in its block, or the span
/// already under `m`.
fn widen(src: &Source, sp: &Span, m: &str) -> Option<(Span, Vec<usize>)> {
    let block = src.blocks.get(sp.block)?;
    let level = pairs(src, &block.stmts, m)?;
    let pos = |s: usize| block.stmts.iter().position(|&x| x == s);
    let (mut lo, mut hi) = (sp.lo, sp.hi);
    loop {
        let mut changed = false;
        for &(l, u) in &level {
            let (pl, pu) = (pos(l)?, pos(u)?);
            let inside = |p: usize| lo <= p && p <= hi;
            if inside(pl) != inside(pu) || (pl < lo && pu > hi && (lo..=hi).any(|_| false)) {
                lo = lo.min(pl);
                hi = hi.max(pu);
                changed = true;
            }
        }
        if !changed {
            break;
        }
    }
    let span = Span {
        block: sp.block,
        lo,
        hi,
    };
    let kids = children(src, &span);
    // Under `m` already (a section around the whole span): wrapping it again would
    // deadlock on the non-recursive mutex.
    if kids.first().is_some_and(|&k| held_at(src, k, m)) {
        return None;
    }
    let mut removed = Vec::new();
    for &(l, u) in &level {
        if kids.contains(&l) && kids.contains(&u) {
            removed.extend([l, u]);
        }
    }
    // Sections nested deeper inside the span must pair up within their own blocks.
    for &k in &kids {
        for inner in src.within(k) {
            if inner == k {
                continue;
            }
            let Some(ib) = src.stmts.get(inner).and_then(|s| s.block) else {
                continue;
            };
            if src.blocks.get(ib).and_then(|b| b.stmts.first()) != Some(&inner) {
                continue;
            }
            let stmts = src.blocks.get(ib)?.stmts.clone();
            for (l, u) in pairs(src, &stmts, m)? {
                removed.extend([l, u]);
            }
        }
    }
    Some((span, removed))
}

fn is_jump_free(src: &Source, kids: &[usize]) -> bool {
    kids.iter()
        .all(|&k| src.stmts.get(k).is_some_and(|s| !s.jumps))
}

/// Edits that put `before` on its own line before statement `first` and `after` after
/// statement `last` (inline when a statement shares its line).
fn wrap(src: &Source, first: usize, last: usize, before: &str, after: &str) -> Vec<Edit> {
    let mut out = Vec::new();
    let indent = src.indent(first);
    match src.own_lines(first) {
        Some((start, _)) => out.push(Edit::insert(start, format!("{indent}{before}\n"))),
        None => {
            if let Some(s) = src.stmts.get(first) {
                out.push(Edit::insert(s.start, format!("{before} ")));
            }
        }
    }
    match src.own_lines(last) {
        Some((_, end)) => out.push(Edit::insert(end, format!("{indent}{after}\n"))),
        None => {
            if let Some(s) = src.stmts.get(last) {
                out.push(Edit::insert(s.end, format!(" {after}")));
            }
        }
    }
    out
}

fn delete_stmt(src: &Source, s: usize) -> Option<Edit> {
    match src.own_lines(s) {
        Some((a, b)) => Some(Edit::delete(a, b)),
        None => src.stmts.get(s).map(|st| Edit::delete(st.start, st.end)),
    }
}

fn lines_of(src: &Source, kids: &[usize]) -> (u32, u32) {
    let first = kids
        .first()
        .and_then(|&k| src.stmts.get(k))
        .map_or(0, |s| s.first_line);
    let last = kids
        .last()
        .and_then(|&k| src.stmts.get(k))
        .map_or(0, |s| s.last_line);
    (first, last)
}

fn describe_regions(regions: &[Region]) -> String {
    regions
        .iter()
        .map(|r| {
            if r.first_line == r.last_line {
                format!("line {} of `{}`", r.first_line, r.function)
            } else {
                format!("lines {}–{} of `{}`", r.first_line, r.last_line, r.function)
            }
        })
        .collect::<Vec<_>>()
        .join(" and ")
}

/// The critical-section proposals for one set of sites: each existing mutex that can be
/// widened over the regions, and a new one.
fn locks(src: &Source, lines: &[u32]) -> Vec<Proposal> {
    let spans = spans(src, lines);
    if spans.is_empty() {
        return vec![];
    }
    let grown: Vec<Span> = spans.iter().map(|sp| grow(src, sp)).collect();
    let mut out = locks_over(src, &spans);
    if grown != spans {
        out.extend(locks_over(src, &grown));
    }
    // A region inside a branch or loop body, lifted to the statement that holds it and
    // grown there: the test that chose the branch belongs with what it guards.
    let lifted: Vec<Span> = spans
        .iter()
        .map(|sp| lift(src, sp).map_or_else(|| sp.clone(), |l| grow(src, &l)))
        .collect();
    if lifted != grown && lifted != spans {
        out.extend(locks_over(src, &lifted));
    }
    out
}

/// The span of the statement whose body holds `sp`'s block.
fn lift(src: &Source, sp: &Span) -> Option<Span> {
    let parent = src.blocks.get(sp.block)?.stmt?;
    let (block, i) = src.position(parent)?;
    Some(Span {
        block,
        lo: i,
        hi: i,
    })
}

/// A span grown over the neighbouring statements of its block that mention a variable
/// it mentions (BEST's code-proximity rule for intended atomic regions: a read and the
/// write of the value it read belong together), stopping at lock calls and jumps.
fn grow(src: &Source, sp: &Span) -> Span {
    let Some(block) = src.blocks.get(sp.block) else {
        return sp.clone();
    };
    let names = |s: usize| -> BTreeSet<String> {
        src.stmts
            .get(s)
            .map(|st| {
                st.idents
                    .iter()
                    .filter(|i| !i.starts_with("pthread_") && !src.global_mutexes.contains(i))
                    .cloned()
                    .collect()
            })
            .unwrap_or_default()
    };
    let plain = |s: usize| {
        src.stmts.get(s).is_some_and(|st| {
            !st.jumps && !st.checks && st.call.as_ref().and_then(|c| c.mutex()).is_none()
        })
    };
    let (mut lo, mut hi) = (sp.lo, sp.hi);
    let mut seen: BTreeSet<String> = (lo..=hi)
        .filter_map(|i| block.stmts.get(i))
        .flat_map(|&s| names(s))
        .collect();
    loop {
        let mut changed = false;
        if let Some(&prev) = lo.checked_sub(1).and_then(|i| block.stmts.get(i)) {
            if plain(prev) && !names(prev).is_disjoint(&seen) {
                lo -= 1;
                seen.extend(names(prev));
                changed = true;
            }
        }
        if let Some(&next) = block.stmts.get(hi + 1) {
            if plain(next) && !names(next).is_disjoint(&seen) {
                hi += 1;
                seen.extend(names(next));
                changed = true;
            }
        }
        if !changed {
            break;
        }
    }
    Span {
        block: sp.block,
        lo,
        hi,
    }
}

fn locks_over(src: &Source, spans: &[Span]) -> Vec<Proposal> {
    let mut out = Vec::new();
    for m in &src.global_mutexes {
        let mut edits = Vec::new();
        let mut regions = Vec::new();
        let mut locked = 0;
        let mut ok = true;
        for sp in spans {
            // A region already under `m` (held before its first statement, and no lock
            // or unlock of `m` among its statements) is protected by it as it is.
            let kids = children(src, sp);
            let touches_m = kids.iter().any(|&k| {
                src.within(k).into_iter().any(|i| {
                    src.stmts
                        .get(i)
                        .and_then(|st| st.call.as_ref()?.mutex())
                        .is_some_and(|(_, n)| n == *m)
                })
            });
            if !touches_m && kids.first().is_some_and(|&k| held_at(src, k, m)) {
                continue;
            }
            let Some((w, removed)) = widen(src, sp, m) else {
                ok = false;
                break;
            };
            let kids = children(src, &w);
            if !is_jump_free(src, &kids) {
                ok = false;
                break;
            }
            let (Some(&first), Some(&last)) = (kids.first(), kids.last()) else {
                ok = false;
                break;
            };
            edits.extend(wrap(
                src,
                first,
                last,
                &format!("pthread_mutex_lock(&{m});"),
                &format!("pthread_mutex_unlock(&{m});"),
            ));
            edits.extend(removed.iter().filter_map(|&s| delete_stmt(src, s)));
            locked += kids.iter().map(|&k| src.within(k).len()).sum::<usize>() - removed.len();
            let (a, b) = lines_of(src, &kids);
            regions.push(Region {
                function: function_of(src, first),
                first_line: a,
                last_line: b,
            });
        }
        if ok && !edits.is_empty() {
            out.push(Proposal {
                summary: format!(
                    "take the existing mutex `{m}` around {}",
                    describe_regions(&regions)
                ),
                action: Action::Lock {
                    mutex: m.clone(),
                    new: false,
                    regions,
                },
                edits,
                statements_locked: locked,
                serializes: false,
                tier: 0,
            });
        }
    }
    let name = src.fresh_name("seqloc_repair_lock");
    let mut edits = Vec::new();
    let mut regions = Vec::new();
    let mut locked = 0;
    for sp in spans {
        let kids = children(src, sp);
        if !is_jump_free(src, &kids) {
            return out;
        }
        let (Some(&first), Some(&last)) = (kids.first(), kids.last()) else {
            return out;
        };
        edits.extend(wrap(
            src,
            first,
            last,
            &format!("pthread_mutex_lock(&{name});"),
            &format!("pthread_mutex_unlock(&{name});"),
        ));
        locked += kids.iter().map(|&k| src.within(k).len()).sum::<usize>();
        let (a, b) = lines_of(src, &kids);
        regions.push(Region {
            function: function_of(src, first),
            first_line: a,
            last_line: b,
        });
    }
    let mut decl = String::new();
    if !src.includes_pthread {
        decl.push_str("#include <pthread.h>\n");
    }
    decl.push_str(&format!(
        "pthread_mutex_t {name} = PTHREAD_MUTEX_INITIALIZER; /* added by seqloc repair */\n"
    ));
    edits.insert(0, Edit::insert(src.includes_end, decl));
    out.push(Proposal {
        summary: format!("a new mutex `{name}` around {}", describe_regions(&regions)),
        action: Action::Lock {
            mutex: name,
            new: true,
            regions,
        },
        edits,
        statements_locked: locked,
        serializes: false,
        tier: 0,
    });
    out
}

fn function_of(src: &Source, s: usize) -> String {
    src.stmts
        .get(s)
        .map(|x| x.function.clone())
        .unwrap_or_default()
}

/// The mutexes the lock calls of `stmts` name (fields and pointers included).
fn block_mutexes(src: &Source, stmts: &[usize]) -> Vec<String> {
    let mut out: Vec<String> = stmts
        .iter()
        .filter_map(|&s| src.stmts.get(s)?.call.as_ref()?.mutex())
        .map(|(_, m)| m)
        .filter(|m| !src.global_mutexes.contains(m))
        .collect();
    out.sort();
    out.dedup();
    out
}

/// A statement with no effect (`(void)arg;`): moving it, or across it alone, changes
/// nothing.
fn inert(src: &Source, s: usize) -> bool {
    src.stmts.get(s).is_some_and(|st| {
        let text = src.text_of(s);
        let text = text.strip_prefix("(void)").unwrap_or(text);
        st.kind == "expression_statement"
            && st.writes.is_empty()
            && st.call.is_none()
            && !text.contains('(')
    })
}

/// Can `x` move across `c` without changing what either computes (textually)?
fn independent(src: &Source, x: usize, c: usize) -> bool {
    let (Some(a), Some(b)) = (src.stmts.get(x), src.stmts.get(c)) else {
        return false;
    };
    let movable =
        |s: &super::source::Stmt| !s.jumps && !s.checks && !s.calls_user && s.kind != "declaration";
    movable(a) && movable(b) && a.writes.is_disjoint(&b.idents) && b.writes.is_disjoint(&a.idents)
}

/// Statement moves around the best candidates: a candidate moved up or down over up to
/// `MAX_MOVE` statements of its block, or a neighbour moved across it.
fn reorders(src: &Source, sites: &Sites) -> Vec<Proposal> {
    let mut out = Vec::new();
    let mut seen = BTreeSet::new();
    for &line in sites.ranked.iter().take(MAX_RANKED + 2) {
        let Some(s) = src.statement_at(line) else {
            continue;
        };
        let Some((b, i)) = src.position(s) else {
            continue;
        };
        let Some(block) = src.blocks.get(b) else {
            continue;
        };
        // (moved, target): the statement at `moved` goes before `target` when
        // target < moved, after it when target > moved.
        let mut moves = Vec::new();
        for k in 1..=MAX_MOVE {
            if let Some(j) = i.checked_sub(k) {
                moves.extend([(i, j), (j, i)]);
            }
            if i + k < block.stmts.len() {
                moves.extend([(i + k, i), (i, i + k)]);
            }
        }
        // Over a whole critical section next to it (a lock and its unlock in the block):
        // a join or a lock taken after another thread's section, not inside it.
        let level: Vec<(usize, usize)> = src
            .global_mutexes
            .iter()
            .chain(block_mutexes(src, &block.stmts).iter())
            .filter_map(|m| pairs(src, &block.stmts, m))
            .flatten()
            .filter_map(|(l, u)| {
                let pl = block.stmts.iter().position(|&x| x == l)?;
                let pu = block.stmts.iter().position(|&x| x == u)?;
                Some((pl, pu))
            })
            .collect();
        for &(pl, pu) in &level {
            if pl == i + 1 {
                moves.push((i, pu));
            }
            if pu + 1 == i {
                moves.push((i, pl));
            }
        }
        for (from, to) in moves {
            if !seen.insert((b, from, to)) {
                continue;
            }
            if let Some(p) = reorder(src, &block.stmts, from, to) {
                out.push(p);
            }
        }
    }
    out
}

/// Whether moving `x` across `crossed` keeps every data statement on its side of the lock
/// and unlock calls it passes: a move may pull code into a critical section, never push it
/// out of one (that would be a race made, not removed).
fn keeps_sections(src: &Source, x: usize, crossed: &[usize], up: bool) -> bool {
    let op = |s: usize| src.stmts.get(s).and_then(|st| st.call.as_ref()?.mutex());
    let data = |s: usize| {
        src.stmts.get(s).is_some_and(|st| {
            st.call
                .as_ref()
                .is_none_or(|c| !c.name.starts_with("pthread_"))
        })
    };
    let xo = op(x);
    // Data inside a section of another mutex that moves along with it stays protected.
    let sheltered = |c: usize| {
        let Some(at) = crossed.iter().position(|&y| y == c) else {
            return false;
        };
        let mut open: Vec<String> = Vec::new();
        for &y in crossed.iter().take(at) {
            match op(y) {
                Some(("lock", n)) => open.push(n),
                Some(("unlock", n)) => open.retain(|o| *o != n),
                _ => {}
            }
        }
        open.iter().any(|n| {
            crossed
                .iter()
                .skip(at + 1)
                .any(|&y| op(y).is_some_and(|(k, m)| k == "unlock" && m == *n))
        })
    };
    crossed.iter().all(|&c| {
        let co = op(c);
        if let (Some((_, a)), Some((_, b))) = (&xo, &co) {
            if a == b {
                return false;
            }
        }
        let (x_kind, c_kind) = (xo.as_ref().map(|o| o.0), co.as_ref().map(|o| o.0));
        match (up, x_kind, c_kind) {
            // x moves before a lock: x leaves the section it followed.
            (true, None, Some("lock")) => !data(x),
            // an unlock moves before data: the data leaves the section.
            (true, Some("unlock"), None) => !data(c) || sheltered(c),
            // x moves after an unlock: it leaves the section it was in.
            (false, None, Some("unlock")) => !data(x),
            // a lock moves after data: the data leaves the section.
            (false, Some("lock"), None) => !data(c) || sheltered(c),
            _ => true,
        }
    })
}

fn reorder(src: &Source, stmts: &[usize], from: usize, to: usize) -> Option<Proposal> {
    let up = to < from;
    let (&x, &y) = (stmts.get(from)?, stmts.get(to)?);
    let crossed = if up {
        stmts.get(to..from)?
    } else {
        stmts.get(from + 1..=to)?
    };
    if !crossed.iter().all(|&c| independent(src, x, c))
        || !keeps_sections(src, x, crossed, up)
        || inert(src, x)
        || crossed.iter().all(|&c| inert(src, c))
    {
        return None;
    }
    let (xa, xb) = src.own_lines(x)?;
    let (ya, yb) = src.own_lines(y)?;
    let moved = src.text.get(xa..xb)?;
    let (xs, ys) = (src.stmts.get(x)?, src.stmts.get(y)?);
    let at = if up { ya } else { yb };
    Some(Proposal {
        summary: format!(
            "move line {} of `{}` (`{}`) {} line {}",
            xs.first_line,
            xs.function,
            src.text_of(x).lines().next().unwrap_or("").trim(),
            if up { "before" } else { "after" },
            if up { ys.first_line } else { ys.last_line },
        ),
        action: Action::Reorder {
            function: xs.function.clone(),
            moved: xs.first_line,
            target: if up { ys.first_line } else { ys.last_line },
            after: !up,
        },
        edits: if up {
            vec![Edit::insert(at, moved.to_string()), Edit::delete(xa, xb)]
        } else {
            vec![Edit::delete(xa, xb), Edit::insert(at, moved.to_string())]
        },
        statements_locked: 0,
        serializes: serializes(src, x, crossed, up),
        tier: 0,
    })
}

/// Whether statement `s` mentions `name` (a call of it), itself or nested.
fn mentions(src: &Source, s: usize, name: &str) -> bool {
    src.within(s)
        .iter()
        .any(|&i| src.stmts.get(i).is_some_and(|st| st.idents.contains(name)))
}

/// Whether a move makes code wait for a whole thread: a join moved earlier or a creation
/// moved later, or code moved after a join or before a creation. (A join moved later or
/// a creation earlier lets the threads overlap more, not less.)
fn serializes(src: &Source, x: usize, crossed: &[usize], up: bool) -> bool {
    let (join, create) = ("pthread_join", "pthread_create");
    if up {
        mentions(src, x, join) || crossed.iter().any(|&c| mentions(src, c, create))
    } else {
        mentions(src, x, create) || crossed.iter().any(|&c| mentions(src, c, join))
    }
}

/// An unlock before each jump that leaves a function of the sites with a mutex held.
fn releases(src: &Source, sites: &Sites) -> Vec<Proposal> {
    let functions: BTreeSet<String> = sites
        .ranked
        .iter()
        .filter_map(|&l| src.statement_at(l))
        .map(|s| function_of(src, s))
        .collect();
    let mut out = Vec::new();
    for (i, st) in src.stmts.iter().enumerate() {
        if st.kind != "return_statement" || !functions.contains(&st.function) {
            continue;
        }
        for m in held_mutexes(src, i) {
            let unlock = format!("pthread_mutex_unlock(&{m});");
            let edits = if st.block.is_some() {
                match src.own_lines(i) {
                    Some((a, _)) => vec![Edit::insert(a, format!("{}{unlock}\n", src.indent(i)))],
                    None => vec![Edit::insert(st.start, format!("{unlock} "))],
                }
            } else {
                vec![Edit {
                    start: st.start,
                    end: st.end,
                    text: format!("{{ {unlock} {} }}", src.text_of(i)),
                }]
            };
            out.push(Proposal {
                summary: format!(
                    "unlock `{m}` before the return at line {} of `{}`",
                    st.first_line, st.function
                ),
                action: Action::Release {
                    function: st.function.clone(),
                    mutex: m.clone(),
                    line: st.first_line,
                },
                edits,
                statements_locked: 0,
                serializes: false,
                tier: 0,
            });
        }
    }
    out
}

/// Each `if` without `else` whose body waits on a condition variable becomes a `while`:
/// after a wake-up (a spurious one, or another thread's that consumed the state) the
/// predicate is tested again, as POSIX asks of every condition wait.
fn wait_loops(src: &Source) -> Vec<Proposal> {
    let mut out = Vec::new();
    for (i, st) in src.stmts.iter().enumerate() {
        if st.kind != "if_statement" || !src.text_of(i).starts_with("if") {
            continue;
        }
        let text = src.text_of(i);
        if text.contains("else")
            || !(text.contains("pthread_cond_wait") || text.contains("pthread_cond_timedwait"))
        {
            continue;
        }
        out.push(Proposal {
            summary: format!(
                "test the condition again after each wake-up: `while` for the `if` at line {} of `{}`",
                st.first_line, st.function
            ),
            action: Action::WaitLoop {
                function: st.function.clone(),
                line: st.first_line,
            },
            edits: vec![Edit {
                start: st.start,
                end: st.start + 2,
                text: "while".into(),
            }],
            statements_locked: 0,
            serializes: false,
            tier: 0,
        });
    }
    out
}

/// A function of the sites that locks a mutex every one of its callers already holds
/// (a non-recursive mutex locked twice deadlocks): its own lock and unlock of it go. Only
/// when every call is under the mutex and no thread starts in the function.
fn drop_relocks(src: &Source, sites: &Sites) -> Vec<Proposal> {
    let functions: BTreeSet<String> = sites
        .ranked
        .iter()
        .filter_map(|&l| src.statement_at(l))
        .map(|s| function_of(src, s))
        .collect();
    let mut out = Vec::new();
    for f in &functions {
        // Every mention of `f` outside it, at the innermost statement that makes it.
        let mentions = |i: usize| {
            src.stmts
                .get(i)
                .is_some_and(|st| st.function != *f && st.idents.contains(f))
        };
        let calls: Vec<usize> = (0..src.stmts.len())
            .filter(|&i| mentions(i) && !src.within(i).into_iter().any(|j| j != i && mentions(j)))
            .collect();
        if calls.is_empty()
            || calls
                .iter()
                .any(|&c| src.text_of(c).contains("pthread_create"))
        {
            continue;
        }
        for b in &src.blocks {
            let Some(&first) = b.stmts.first() else {
                continue;
            };
            if function_of(src, first) != *f {
                continue;
            }
            for m in &src.global_mutexes {
                let Some(ps) = pairs(src, &b.stmts, m) else {
                    continue;
                };
                if !calls.iter().all(|&c| held_at(src, c, m)) {
                    continue;
                }
                for (l, u) in ps {
                    let (Some(dl), Some(du)) = (delete_stmt(src, l), delete_stmt(src, u)) else {
                        continue;
                    };
                    let (ll, ul) = (
                        src.stmts.get(l).map_or(0, |s| s.first_line),
                        src.stmts.get(u).map_or(0, |s| s.first_line),
                    );
                    out.push(Proposal {
                        summary: format!(
                            "`{f}` is only called with `{m}` held: drop its own lock and unlock of `{m}` (lines {ll} and {ul})"
                        ),
                        action: Action::DropRelock {
                            function: f.clone(),
                            mutex: m.clone(),
                            lock: ll,
                            unlock: ul,
                        },
                        edits: vec![dl, du],
                        statements_locked: 0,
                        serializes: false,
                        tier: 0,
                    });
                }
            }
        }
    }
    out
}

/// The mutexes locked before statement `s` in its block or an enclosing one and not
/// unlocked since.
fn held_mutexes(src: &Source, s: usize) -> Vec<String> {
    let mut names = BTreeSet::new();
    for st in &src.stmts {
        if let Some((_, m)) = st.call.as_ref().and_then(|c| c.mutex()) {
            names.insert(m);
        }
    }
    // A brace-less body: its parent statement's position counts.
    let anchor = {
        let mut cur = s;
        while src.stmts.get(cur).is_some_and(|x| x.block.is_none()) {
            match src.stmts.get(cur).and_then(|x| x.parent) {
                Some(p) => cur = p,
                None => break,
            }
        }
        cur
    };
    names
        .into_iter()
        .filter(|m| held_at(src, anchor, m))
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::repair::edit::apply;

    const SEAT: &str = r#"#include <pthread.h>
pthread_mutex_t m = PTHREAD_MUTEX_INITIALIZER;
int seats = 1;
void *buy(void *a) {
  if (seats > 0) {
    pthread_mutex_lock(&m);
    seats = seats - 1;
    pthread_mutex_unlock(&m);
  }
  return 0;
}
"#;

    #[test]
    fn an_existing_mutex_is_widened_over_the_check() {
        let src = Source::parse(SEAT).expect("parses");
        let props = locks(&src, &[5, 7]);
        let existing = props
            .iter()
            .find(|p| matches!(&p.action, Action::Lock { new: false, .. }))
            .expect("widens m");
        let text = apply(&src.text, &existing.edits).expect("applies");
        assert_eq!(
            text,
            r#"#include <pthread.h>
pthread_mutex_t m = PTHREAD_MUTEX_INITIALIZER;
int seats = 1;
void *buy(void *a) {
  pthread_mutex_lock(&m);
  if (seats > 0) {
    seats = seats - 1;
  }
  pthread_mutex_unlock(&m);
  return 0;
}
"#
        );
        assert!(
            props
                .iter()
                .any(|p| matches!(&p.action, Action::Lock { new: true, .. }))
        );
    }

    const TWO: &str = r#"#include <pthread.h>
pthread_mutex_t m = PTHREAD_MUTEX_INITIALIZER;
int bal;
void *t(void *a) {
  int v;
  pthread_mutex_lock(&m);
  v = bal;
  pthread_mutex_unlock(&m);
  pthread_mutex_lock(&m);
  bal = v + 1;
  pthread_mutex_unlock(&m);
  return 0;
}
"#;

    #[test]
    fn two_sections_merge_into_one() {
        let src = Source::parse(TWO).expect("parses");
        let p = locks(&src, &[7, 10])
            .into_iter()
            .find(|p| matches!(&p.action, Action::Lock { new: false, .. }))
            .expect("widens m");
        let text = apply(&src.text, &p.edits).expect("applies");
        assert!(
            text.contains("  pthread_mutex_lock(&m);\n  v = bal;\n  bal = v + 1;\n  pthread_mutex_unlock(&m);\n"),
            "{text}"
        );
    }

    const ORDER: &str = r#"#include <pthread.h>
pthread_mutex_t a = PTHREAD_MUTEX_INITIALIZER, b = PTHREAD_MUTEX_INITIALIZER;
void *t(void *x) {
  pthread_mutex_lock(&b);
  pthread_mutex_lock(&a);
  pthread_mutex_unlock(&a);
  pthread_mutex_unlock(&b);
  return 0;
}
void *u(void *x) {
  pthread_mutex_lock(&a);
  if (x) return 0;
  pthread_mutex_unlock(&a);
  return 0;
}
"#;

    #[test]
    fn locks_swap_and_returns_release() {
        let src = Source::parse(ORDER).expect("parses");
        assert_eq!(src.global_mutexes, vec!["a".to_string(), "b".to_string()]);
        let sites = Sites {
            ranked: vec![4, 12],
            flows: vec![],
            deadlock: true,
        };
        let r = reorders(&src, &sites);
        let swap = r
            .iter()
            .find(|p| {
                p.action
                    == Action::Reorder {
                        function: "t".into(),
                        moved: 5,
                        target: 4,
                        after: false,
                    }
            })
            .expect("lock a moved before lock b");
        let text = apply(&src.text, &swap.edits).expect("applies");
        assert!(text.contains("  pthread_mutex_lock(&a);\n  pthread_mutex_lock(&b);\n"));
        let rel = releases(&src, &sites);
        assert_eq!(rel.len(), 1, "{rel:?}");
        let text = apply(&src.text, &rel[0].edits).expect("applies");
        assert!(
            text.contains("if (x) { pthread_mutex_unlock(&a); return 0; }"),
            "{text}"
        );
    }

    const SECTIONS: &str = r#"#include <pthread.h>
pthread_mutex_t t = PTHREAD_MUTEX_INITIALIZER, q = PTHREAD_MUTEX_INITIALIZER;
int queued, rows;
void *c(void *x) {
  pthread_mutex_lock(&t);
  pthread_mutex_lock(&q);
  queued = queued - 1;
  pthread_mutex_unlock(&q);
  rows = rows + 1;
  pthread_mutex_unlock(&t);
  return 0;
}
"#;

    #[test]
    fn moves_pull_code_into_sections_never_out() {
        let src = Source::parse(SECTIONS).expect("parses");
        let sites = Sites {
            ranked: vec![5, 7, 9],
            flows: vec![],
            deadlock: true,
        };
        let moves: Vec<Action> = reorders(&src, &sites)
            .into_iter()
            .map(|p| p.action)
            .collect();
        // The outer lock taken after the inner section: its data stays under `q`.
        assert!(
            moves.contains(&Action::Reorder {
                function: "c".into(),
                moved: 5,
                target: 8,
                after: true,
            }),
            "{moves:?}"
        );
        // `rows` is never pushed out of `t`'s section, nor `queued` out of `q`'s.
        for m in &moves {
            if let Action::Reorder {
                moved,
                target,
                after,
                ..
            } = m
            {
                assert!(!(*moved == 9 && *target == 10 && *after), "{m:?}");
                assert!(!(*moved == 7 && *target == 6 && !*after), "{m:?}");
                assert!(!(*moved == 10 && *target == 9 && !*after), "{m:?}");
            }
        }
    }
}
