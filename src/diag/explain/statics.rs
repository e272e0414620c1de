//! A block-scope `static` used as scratch by a function several threads run
//! (`static unsigned acc; acc = 17; ...`): every call shares the one variable, so the
//! threads' calls overwrite each other's work. The declaration is the fault (the
//! `static` makes it shared); its accesses are only where the race shows.

use std::collections::{BTreeMap, BTreeSet};

use super::{Candidate, CandidateKind, Explainer, Role, before_specification};
use crate::cex::TraceStep;
use crate::ir::{StmtId, VarKind};

impl Explainer<'_> {
    /// Candidates for the block-scope statics of the failing run that two or more
    /// threads accessed through their function, each thread writing it before its first
    /// read (the function never needs the value a call left behind: scratch, not state
    /// kept across calls such as a counter, which is read first), not all of them under
    /// one mutex.
    pub fn shared_static_candidates(&self, out: Vec<Candidate>) -> Vec<Candidate> {
        let prog = self.normalized;
        let mut extra: Vec<Candidate> = Vec::new();
        let held = crate::diag::interleaving::locks_held(&self.cex.steps);
        for v in &prog.vars {
            let (VarKind::Global, Some(func), true) = (v.kind, v.func, v.is_static) else {
                continue;
            };
            let name = v.shown_name();
            // Per thread: whether its first access wrote, and its first access.
            let mut first: BTreeMap<u32, (bool, &TraceStep)> = BTreeMap::new();
            // The locks each thread held there: scratch every thread uses under one
            // mutex is shared by design, and the failure lies elsewhere.
            let mut guards: Vec<BTreeSet<&String>> = Vec::new();
            for (i, s) in self.cex.steps.iter().enumerate() {
                if first.contains_key(&s.thread) || self.function_of(s.sid) != Some(func.0 as usize)
                {
                    continue;
                }
                let Some(st) = self.stmts.get(&s.sid) else {
                    continue;
                };
                let (mut r, mut w) = (BTreeSet::new(), BTreeSet::new());
                self.stmt_accesses(st, &mut r, &mut w);
                let wrote = if r.contains(name) {
                    false
                } else if w.contains(name) {
                    true
                } else {
                    continue;
                };
                first.insert(s.thread, (wrote, s));
                guards.push(
                    held.get(i)
                        .and_then(|h| h.get(&s.thread))
                        .map(|v| v.iter().map(|(l, _)| l).collect())
                        .unwrap_or_default(),
                );
            }
            if first.len() < 2 || !first.values().all(|(wrote, _)| *wrote) {
                continue;
            }
            let common = guards
                .iter()
                .skip(1)
                .fold(guards.first().cloned().unwrap_or_default(), |acc, g| {
                    acc.intersection(g).copied().collect()
                });
            if !common.is_empty() {
                continue;
            }
            let Some(p) = prog.sources.position(v.loc) else {
                continue;
            };
            let threads: Vec<String> = first.keys().map(|t| self.thread_name(*t)).collect();
            let fname = &prog.func(func).name;
            let hint = format!(
                "`{name}` is declared `static` inside `{fname}`, so {} share one `{name}`: each call sets it before it uses it (scratch, not a value kept across calls), and one thread's call overwrote another's between its writes and its reads; without `static`, each call has its own",
                threads.join(" and "),
            );
            let decl = TraceStep {
                thread: first.keys().next().copied().unwrap_or(0),
                loc: v.loc,
                sid: StmtId::NONE,
                file: p.file.to_string(),
                line: p.line,
                statement: String::new(),
                writes: vec![],
            };
            let at = extra.len();
            self.push_step_candidate(&mut extra, &out, &decl, CandidateKind::Atomicity, &hint);
            if let Some(c) = extra.get_mut(at) {
                c.role = Role::SharedStatic;
                c.threads = first.keys().map(|t| self.thread_ref(*t)).collect();
                if !c.writes.iter().any(|w| w == name) {
                    c.writes.push(name.to_string());
                }
            }
        }
        before_specification(out, extra)
    }
}
