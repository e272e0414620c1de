//! Reads that need no switch point because a held mutex keeps every writer out.
//!
//! If every write to a global, once threads exist, happens while its thread holds mutex
//! `m`, then a thread that holds `m` reads a value no other thread can change before it
//! lets go of `m`: the read commutes with every step another thread can take meanwhile
//! (other reads commute anyway). So reads of such a global under `m` run without a switch
//! point, as reads of a thread's own data do. Writes under `m` stay visible: another
//! thread may read the global without the lock (the race SV-COMP tasks check).
//!
//! Which mutexes a thread surely holds at an instruction is a forward must-analysis over
//! each function's instructions: `pthread_mutex_lock(&m)` on a global mutex adds `m`,
//! its unlock removes it, an unlock of a mutex known only by a pointer, a call through a
//! pointer or a call of a function that may unlock clears the set, and at a function's
//! entry the set is empty. A condition wait gives its mutex back before it returns.

use std::collections::{BTreeSet, HashSet};

use rustc_hash::FxHashMap as HashMap;

use crate::analysis::shared::address_taken_vars;
use crate::ir::known::{Known, classify};
use crate::ir::visit::{Visitor, walk_expr, walk_init};
use crate::ir::*;

use super::code::{Code, Instr};
use super::frozen::{Scan, after_threads, reaching};

type Held = BTreeSet<VarId>;

/// Per function, per instruction: the globals that instruction may read without a switch
/// point (it holds a mutex that guards every write to them, and it writes none of them).
pub fn guarded_reads(
    prog: &Program,
    codes: &HashMap<FuncId, Code>,
    main: FuncId,
) -> HashMap<FuncId, Vec<Vec<VarId>>> {
    let unlocking = may_unlock(prog, codes);
    let held: HashMap<FuncId, Vec<Option<Held>>> = codes
        .iter()
        .map(|(f, code)| (*f, held_at(prog, code, &unlocking)))
        .collect();
    let after = after_threads(prog, codes, main);
    let taken = address_taken_vars(prog);
    // For each global: the mutexes held at every write once threads exist (`None`: no
    // such write seen yet).
    let mut guard: HashMap<VarId, Option<Held>> = HashMap::default();
    let mut unguarded: HashSet<VarId> = HashSet::new();
    for (f, code) in codes {
        for (pc, ins) in code.instrs.iter().enumerate() {
            if *f == main && !after.get(pc).copied().unwrap_or(true) {
                continue;
            }
            // An instruction no path reaches holds every mutex: it never writes.
            let Some(h) = &held[f][pc] else { continue };
            let mut scan = Scan::new(prog);
            scan.instr(ins);
            for v in scan.writes {
                let g = guard.entry(v).or_insert(None);
                *g = Some(match g.take() {
                    None => h.clone(),
                    Some(prev) => prev.intersection(h).copied().collect(),
                });
                if g.as_ref().is_some_and(|g| g.is_empty()) {
                    unguarded.insert(v);
                }
            }
        }
    }
    let guarded: HashMap<VarId, Held> = guard
        .into_iter()
        .filter_map(|(v, g)| Some((v, g?)))
        .filter(|(v, g)| {
            let var = prog.var(*v);
            !g.is_empty()
                && !unguarded.contains(v)
                && var.kind == VarKind::Global
                && !var.thread_local
                && !taken.contains(v)
        })
        .collect();
    codes
        .iter()
        .map(|(f, code)| {
            let per: Vec<Vec<VarId>> = code
                .instrs
                .iter()
                .enumerate()
                .map(|(pc, ins)| {
                    let Some(h) = &held[f][pc] else {
                        return vec![];
                    };
                    let mut scan = Scan::new(prog);
                    scan.instr(ins);
                    let mut out: Vec<VarId> = guarded
                        .iter()
                        .filter(|(v, g)| !g.is_disjoint(h) && !scan.writes.contains(v))
                        .map(|(v, _)| *v)
                        .collect();
                    out.sort();
                    out
                })
                .collect();
            (*f, per)
        })
        .collect()
}

/// Whether a thread's unlocks can run without a switch point before them: an unlock
/// disables nothing another thread could do (a lock of the mutex cannot be enabled while
/// it is held), so it commutes to the left of every other thread's step (Lipton's left
/// mover), unless a `pthread_mutex_trylock` could see the mutex held and fail.
pub fn unlock_moves_left(prog: &Program, codes: &HashMap<FuncId, Code>) -> bool {
    !codes.values().any(|code| {
        let mut scan = Scan::new(prog);
        code.instrs.iter().for_each(|i| scan.instr(i));
        scan.calls
            .iter()
            .any(|c| c.is_some_and(|f| classify(&prog.func(f).name) == Known::MutexTrylock))
    })
}

/// The arguments of an instruction that is only a call of `pthread_mutex_unlock`.
pub fn unlock_args<'i>(prog: &Program, ins: &'i Instr) -> Option<&'i [Expr]> {
    let Instr::Exec(e) = ins else { return None };
    let ExprKind::Call(c, args) = &e.peel().kind else {
        return None;
    };
    match &c.peel().kind {
        ExprKind::Func(f) if classify(&prog.func(*f).name) == Known::MutexUnlock => Some(args),
        _ => None,
    }
}

/// The mutexes surely held before each instruction (`None`: no path reaches it).
fn held_at(prog: &Program, code: &Code, unlocking: &HashSet<FuncId>) -> Vec<Option<Held>> {
    let n = code.instrs.len();
    let mut at: Vec<Option<Held>> = vec![None; n];
    if n == 0 {
        return at;
    }
    at[0] = Some(Held::new());
    let mut work: Vec<usize> = vec![0];
    while let Some(pc) = work.pop() {
        let Some(before) = at[pc].clone() else {
            continue;
        };
        let out = transfer(prog, &code.instrs[pc], before, unlocking);
        for s in code.instrs[pc].successors(pc) {
            if s >= n {
                continue;
            }
            let next = match &at[s] {
                None => out.clone(),
                Some(old) => old.intersection(&out).copied().collect(),
            };
            if at[s].as_ref() != Some(&next) {
                at[s] = Some(next);
                work.push(s);
            }
        }
    }
    at
}

fn transfer(prog: &Program, ins: &Instr, mut held: Held, unlocking: &HashSet<FuncId>) -> Held {
    let mut calls = Calls(vec![], prog);
    match ins {
        Instr::Decl { init: Some(i), .. } => walk_init(&mut calls, i),
        Instr::Exec(e) | Instr::Branch { cond: e, .. } | Instr::Switch { cond: e, .. } => {
            calls.visit_expr(e)
        }
        Instr::Return(Some(e)) => calls.visit_expr(e),
        Instr::Decl { init: None, .. } | Instr::Return(None) | Instr::Jump(_) => {}
    }
    for (callee, first) in calls.0 {
        let Some(f) = callee else {
            held.clear();
            continue;
        };
        match classify(&prog.func(f).name) {
            Known::MutexLock => {
                if let Some(m) = first {
                    held.insert(m);
                }
            }
            Known::MutexUnlock => match first {
                Some(m) => {
                    held.remove(&m);
                }
                None => held.clear(),
            },
            _ if unlocking.contains(&f) => held.clear(),
            _ => {}
        }
    }
    held
}

/// Functions with a body that may unlock a mutex, directly or through calls (a call
/// through a pointer may reach anything).
fn may_unlock(prog: &Program, codes: &HashMap<FuncId, Code>) -> HashSet<FuncId> {
    let mut out = reaching(prog, codes, |k| {
        matches!(
            k,
            Known::MutexUnlock | Known::CondWait | Known::CondTimedwait
        )
    });
    // The library calls themselves are handled one by one in `transfer`.
    out.retain(|f| codes.contains_key(f));
    out
}

/// The calls of an instruction in evaluation order, with the global mutex each names by
/// its first argument (`&m`), when it does.
struct Calls<'p>(Vec<(Option<FuncId>, Option<VarId>)>, &'p Program);

impl Visitor for Calls<'_> {
    fn visit_expr(&mut self, e: &Expr) {
        walk_expr(self, e);
        if let ExprKind::Call(c, args) = &e.kind {
            let callee = match &c.peel().kind {
                ExprKind::Func(f) => Some(*f),
                _ => None,
            };
            let first = args.first().and_then(|a| match &a.peel().kind {
                // Only a global names one mutex for every thread.
                ExprKind::AddrOf(x) => match &x.kind {
                    ExprKind::Var(v) if self.1.var(*v).kind == VarKind::Global => Some(*v),
                    _ => None,
                },
                _ => None,
            });
            self.0.push((callee, first));
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::checker::explicit::code::flatten_all;

    /// The names of the globals read without a switch point at any instruction.
    fn guarded_names(src: &str) -> Vec<String> {
        let prog = crate::frontend::load_text("t.c", src, crate::ir::types::DataModel::Lp64)
            .expect("parses");
        let main = prog.main().expect("main");
        let codes = flatten_all(&prog);
        let mut v: Vec<String> = guarded_reads(&prog, &codes, main)
            .into_values()
            .flatten()
            .flatten()
            .map(|v| prog.var(v).name.clone())
            .collect();
        v.sort();
        v.dedup();
        v
    }

    const HEAD: &str = "typedef unsigned long pthread_t; typedef int pthread_mutex_t;\n\
        int pthread_create(pthread_t *, void *, void *(*)(void *), void *);\n\
        int pthread_mutex_lock(pthread_mutex_t *); int pthread_mutex_unlock(pthread_mutex_t *);\n";

    #[test]
    fn a_global_written_only_under_its_lock_is_read_there_without_a_switch() {
        let src = format!(
            "{HEAD}int x, y; pthread_mutex_t m;\n\
             void *w(void *a) {{ pthread_mutex_lock(&m); int t = x; x = t + 1; y = t; \
             pthread_mutex_unlock(&m); y = 2; return 0; }}\n\
             int main() {{ pthread_t t; x = 0; pthread_create(&t, 0, w, 0); \
             return x; }}"
        );
        // `x` is written only under `m` (main's write comes before any thread); `y` is
        // also written after the unlock.
        assert_eq!(guarded_names(&src), vec!["x".to_string()]);
    }

    #[test]
    fn a_helper_that_unlocks_or_a_write_after_threads_start_unguards() {
        let src = format!(
            "{HEAD}int x, z; pthread_mutex_t m;\n\
             void drop(void) {{ pthread_mutex_unlock(&m); }}\n\
             void *w(void *a) {{ pthread_mutex_lock(&m); drop(); x = 1; \
             pthread_mutex_lock(&m); int t = z; pthread_mutex_unlock(&m); return 0; }}\n\
             int main() {{ pthread_t t; pthread_create(&t, 0, w, 0); z = 1; return 0; }}"
        );
        assert!(guarded_names(&src).is_empty());
    }
}
