//! A `pthread_once` init routine also called directly (`reg_init();` beside
//! `pthread_once(&reg_once, reg_init)` elsewhere, or `if (!ready) create();`): the direct
//! call runs the routine again after (or before) the once-guarded one, and the second run
//! redoes what the first set up — a count reset to zero, a fresh buffer in place of one in
//! use. When the failing run entered the routine more than once, a direct call among the
//! entries, and a candidate lies in the routine's code, the direct call is the fault: the
//! routine's statements are only where the second run shows.

use std::collections::{BTreeMap, BTreeSet};

use super::{Candidate, CandidateKind, Explainer, Role, before_specification, same_file};
use crate::cex::TraceStep;
use crate::ir::known::Known;
use crate::ir::{ExprKind, FuncId, Stmt, StmtKind};

impl Explainer<'_> {
    /// Candidates for the direct calls of a `pthread_once` init routine the failing run
    /// made (see the module comment).
    pub fn once_bypass_candidates(&self, mut out: Vec<Candidate>) -> Vec<Candidate> {
        let prog = self.normalized;
        let line_of = |s: &Stmt| prog.sources.position(s.loc).map(|p| p.line);
        // The lines (per function) that call `pthread_once`, with the once control's
        // text; the program's own functions called on them are init routines.
        let mut once_lines: BTreeMap<(usize, u32), String> = BTreeMap::new();
        for (sid, s) in &self.stmts {
            if matches!(s.kind, StmtKind::Block(_)) {
                continue;
            }
            let (Some(f), Some(line)) = (self.function_of(*sid), line_of(s)) else {
                continue;
            };
            if let Some((_, obj)) = self
                .calls_in(s)
                .into_iter()
                .find(|(k, _)| *k == Known::OnceBegin)
            {
                once_lines.insert((f, line), obj);
            }
        }
        if once_lines.is_empty() {
            return out;
        }
        let mut routines: BTreeMap<usize, (u32, String)> = BTreeMap::new();
        for (sid, s) in &self.stmts {
            let (Some(f), Some(line)) = (self.function_of(*sid), line_of(s)) else {
                continue;
            };
            let Some(obj) = once_lines.get(&(f, line)) else {
                continue;
            };
            for callee in own_callees(s, prog) {
                routines
                    .entry(callee.0 as usize)
                    .or_insert((line, obj.clone()));
            }
        }
        let steps = &self.cex.steps;
        let mut extra: Vec<Candidate> = Vec::new();
        for (&routine, (once_line, obj)) in &routines {
            // The calls of the routine not made through `pthread_once`.
            let sites: Vec<crate::ir::StmtId> = self
                .stmts
                .iter()
                .filter(|(sid, st)| {
                    let (Some(f), Some(line)) = (self.function_of(**sid), line_of(st)) else {
                        return false;
                    };
                    !once_lines.contains_key(&(f, line))
                        && own_callees(st, prog)
                            .iter()
                            .any(|c| c.0 as usize == routine)
                })
                .map(|(sid, _)| *sid)
                .collect();
            if sites.is_empty() {
                continue;
            }
            // Each entry into the routine, placed by the thread's step before it: on a
            // `pthread_once` line, or in (or calling toward) a direct call's function —
            // the trace shows a call only where it touches something.
            let mut guarded = 0usize;
            let mut direct: Vec<TraceStep> = Vec::new();
            let mut unplaced = false;
            let mut last: BTreeMap<u32, &TraceStep> = BTreeMap::new();
            let mut ran: BTreeSet<(String, u32)> = BTreeSet::new();
            for s in steps {
                if self.function_of(s.sid) == Some(routine) {
                    ran.insert((s.file.clone(), s.line));
                    match last.get(&s.thread) {
                        Some(p) if self.function_of(p.sid) == Some(routine) => {}
                        Some(p) => {
                            let caller = self.function_of(p.sid);
                            if caller.is_some_and(|c| once_lines.contains_key(&(c, p.line))) {
                                guarded += 1;
                            } else if let Some(d) = sites.iter().find(|d| {
                                self.function_of(**d) == caller || self.calls_toward(p.sid, **d)
                            }) {
                                direct.extend(self.step_at(s.thread, *d));
                            } else {
                                unplaced = true;
                            }
                        }
                        None => unplaced = true,
                    }
                }
                last.insert(s.thread, s);
            }
            if unplaced {
                continue;
            }
            if direct.is_empty() || guarded + direct.len() < 2 {
                continue;
            }
            let in_routine = out.iter().any(|c| {
                !c.specification
                    && ran
                        .iter()
                        .any(|(f, l)| *l == c.line && same_file(f, &c.file))
            });
            if !in_routine {
                continue;
            }
            let name = &prog
                .funcs
                .get(routine)
                .map(|f| f.name.clone())
                .unwrap_or_default();
            let runs = guarded + direct.len();
            let mut named: Vec<u32> = Vec::new();
            for call in &direct {
                if named.contains(&call.line) {
                    continue;
                }
                named.push(call.line);
                let hint = format!(
                    "`{name}` is the init routine of `{obj}` (`pthread_once` at line {once_line}), but {} calls it directly here: the failing run ran it {runs} times, and a later run redid what an earlier one had set up; called only through `pthread_once(&{obj}, {name})`, it runs once",
                    self.thread_name(call.thread),
                );
                let at = extra.len();
                self.push_step_candidate(&mut extra, &out, call, CandidateKind::Ordering, &hint);
                if let Some(c) = extra.get_mut(at) {
                    c.role = Role::OnceBypassed;
                } else if let Some(c) = out.iter_mut().chain(extra.iter_mut()).find(|c| {
                    c.line == call.line
                        && same_file(&c.file, &call.file)
                        && !c.specification
                        && c.set.is_none()
                        && c.role == Role::Plain
                }) {
                    c.role = Role::OnceBypassed;
                    c.kind = CandidateKind::Ordering;
                    c.hint = hint;
                }
            }
        }
        before_specification(out, extra)
    }
}

/// The program's own functions (with a body) a simple statement calls by name.
fn own_callees(s: &Stmt, prog: &crate::ir::Program) -> Vec<FuncId> {
    let mut found = Vec::new();
    let mut look = |e: &crate::ir::Expr| {
        crate::ir::visit::each_subexpr(e, &mut |x| {
            if let ExprKind::Call(f, _) = &x.kind
                && let ExprKind::Func(fid) = f.peel().kind
                && prog.func(fid).body.is_some()
            {
                found.push(fid);
            }
        });
    };
    match &s.kind {
        StmtKind::Expr(e) | StmtKind::Return(Some(e)) => look(e),
        StmtKind::Decl {
            init: Some(crate::ir::Init::Expr(e)),
            ..
        } => look(e),
        _ => {}
    }
    found
}
