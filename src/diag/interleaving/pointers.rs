//! Which object a thread's pointer names, read from the trace's writes.
//!
//! The analyses compare accesses by the lvalues the program writes (`from->balance`,
//! `a->balance`): two threads reaching the same object through differently named
//! pointers would not clash. A pointer local a thread set to `&bob` makes its
//! `from->balance` the access `bob.balance` that another thread's `a->balance` (set to
//! `&bob` too) or `bob.balance` also is. [`Pointers`] follows the trace step by step (a
//! pointer may be set to another object later); [`StablePointers`] keeps only the
//! pointers that name one object for the whole run, so that a step can be resolved
//! without knowing where in the trace it stands.

use std::collections::HashMap;

use crate::cex::TraceStep;

/// The objects each thread's pointer locals point to, read from the trace's writes
/// (`from_1 = &checking`): so that `from->balance` in T1 is named `checking.balance`, as
/// another thread's direct access to it is. A pointer whose value is no plain address
/// (`p + 1`, a pointer read from memory) is left unresolved, and its accesses keep the
/// name they are written with.
///
/// A heap object has no name of its own: it is named through the pointer local that
/// first held it (the allocator's `f`), so that another thread's `fr->width`, with `fr`
/// holding the same object, is the allocator's `f->width`. The trace tells heap objects
/// apart only by the line that allocated them: the objects one line makes share a name,
/// as the same pointer text in each thread already made them share one. A pointer inside
/// an object (`at byte 8`) is left unresolved.
#[derive(Clone, Debug, Default)]
pub struct Pointers {
    /// (thread, local as written) → the object it points to; `*p` for a heap object
    /// named through the pointer `p`.
    targets: HashMap<(u32, String), String>,
    /// A heap object as the trace writes it → the pointer that first held it.
    heap: HashMap<String, String>,
}

impl Pointers {
    /// Takes in the pointer values `s` writes.
    pub fn record(&mut self, s: &TraceStep) {
        let suffix = format!("_{}", s.thread);
        for w in &s.writes {
            // The sequentializer renames a thread's locals `name_<thread>`; `main`'s keep
            // their names, as globals do: a global written by another thread is no
            // longer what `main` last stored in it.
            if s.thread != 0 {
                self.targets.remove(&(0, w.lhs.clone()));
            }
            let local = if s.thread == 0 {
                Some(w.lhs.as_str()).filter(|l| is_object_path(l) && !l.contains('.'))
            } else {
                w.lhs.strip_suffix(&suffix)
            };
            let Some(local) = local else {
                continue;
            };
            let key = (s.thread, local.to_string());
            match w.value.strip_prefix('&') {
                Some(obj) if is_object_path(obj) => {
                    self.targets.insert(key, obj.to_string());
                }
                // A temporary of seqloc's (`__t = malloc(..)`) names nothing the user
                // wrote: the pointer it is copied to names the object.
                _ if is_heap_object(&w.value)
                    && (!local.starts_with("__") || self.heap.contains_key(&w.value)) =>
                {
                    let first = self
                        .heap
                        .entry(w.value.clone())
                        .or_insert_with(|| local.to_string());
                    self.targets.insert(key, format!("*{first}"));
                }
                _ => {
                    self.targets.remove(&key);
                }
            }
        }
    }

    /// `var` with a leading `p->` or `*p` replaced by the object `p` points to.
    pub fn resolve(&self, thread: u32, var: &str) -> String {
        resolve_with(var, |p| self.targets.get(&(thread, p.to_string())))
    }
}

/// The start of a heap object, as the trace writes a pointer to it (see
/// `checker::builtin`'s values): not a pointer inside one.
fn is_heap_object(value: &str) -> bool {
    value.starts_with("a heap object allocated at line ") && !value.contains("(at byte")
}

/// `x`, `s.f`, `a.b.c`, `parts[1].sum`: a named object or a field and element path of one
/// (constant indices only: `a[i]` names no one element).
pub(crate) fn is_object_path(s: &str) -> bool {
    !s.is_empty()
        && s.split('.').all(|p| {
            let (name, mut indices) = p
                .split_once('[')
                .map_or((p, ""), |(n, _)| (n, &p[n.len()..]));
            while let Some(rest) = indices.strip_prefix('[') {
                let Some((i, after)) = rest.split_once(']') else {
                    return false;
                };
                if i.is_empty() || !i.chars().all(|c| c.is_ascii_digit()) {
                    return false;
                }
                indices = after;
            }
            indices.is_empty()
                && !name.is_empty()
                && name.chars().all(|c| c.is_ascii_alphanumeric() || c == '_')
                && !name.starts_with(|c: char| c.is_ascii_digit())
        })
}

/// The pointers of the whole run that each name one object throughout (see the module
/// comment): a pointer set twice to different objects, or once to no plain address, is
/// left unresolved.
#[derive(Clone, Debug, Default)]
pub struct StablePointers {
    /// (thread, local as written) → the one object, or `None` once it varied.
    targets: HashMap<(u32, String), Option<String>>,
}

impl StablePointers {
    pub fn of(steps: &[TraceStep]) -> StablePointers {
        let mut out = StablePointers::default();
        // Where each pointer stands after each step (heap objects keep the name of the
        // pointer that first held them).
        let mut one = Pointers::default();
        for s in steps {
            one.record(s);
            for w in &s.writes {
                // A global pointer another thread writes is no longer main's own.
                if s.thread != 0
                    && let Some(t) = out.targets.get_mut(&(0, w.lhs.clone()))
                {
                    *t = None;
                }
            }
            let suffix = format!("_{}", s.thread);
            for w in &s.writes {
                let local = if s.thread == 0 {
                    Some(w.lhs.as_str()).filter(|l| is_object_path(l) && !l.contains('.'))
                } else {
                    w.lhs.strip_suffix(&suffix)
                };
                let Some(local) = local else { continue };
                let key = (s.thread, local.to_string());
                let now = one.targets.get(&key).cloned();
                match out.targets.get_mut(&key) {
                    Some(known) => {
                        if *known != now {
                            *known = None;
                        }
                    }
                    None => {
                        out.targets.insert(key, now);
                    }
                }
            }
        }
        out
    }

    /// `var` with a leading `p->` or `*p` replaced by the one object `p` points to.
    pub fn resolve(&self, thread: u32, var: &str) -> String {
        resolve_with(var, |p| {
            self.targets
                .get(&(thread, p.to_string()))
                .and_then(|t| t.as_ref())
        })
    }
}

/// Each step's pointers as they stood when it ran ([`Pointers`] before the step), for
/// the steps of one trace, found by identity: the analyses hand over references into the
/// trace they were given (`&steps[k]`). A step from elsewhere (a statement of a thread's
/// code that never ran) is resolved by the run's [`StablePointers`].
pub struct StepPointers<'t> {
    steps: &'t [TraceStep],
    before: Vec<Pointers>,
    stable: StablePointers,
}

impl<'t> StepPointers<'t> {
    pub fn of(steps: &'t [TraceStep]) -> StepPointers<'t> {
        let mut now = Pointers::default();
        let mut before = Vec::with_capacity(steps.len());
        for s in steps {
            before.push(now.clone());
            now.record(s);
        }
        StepPointers {
            steps,
            before,
            stable: StablePointers::of(steps),
        }
    }

    /// `var`, accessed by step `s`, named by the object its pointer pointed to then.
    pub fn resolve(&self, s: &TraceStep, var: &str) -> String {
        match self
            .steps
            .iter()
            .position(|x| std::ptr::eq(x, s))
            .and_then(|i| self.before.get(i))
        {
            Some(p) => p.resolve(s.thread, var),
            None => self.stable.resolve(s.thread, var),
        }
    }

    /// A step's reads and writes (as [`crate::diag::explain::Explainer::accesses`] gives
    /// them), each resolved, sorted and named once.
    pub fn accesses(
        &self,
        s: &TraceStep,
        (reads, writes): (Vec<String>, Vec<String>),
    ) -> (Vec<String>, Vec<String>) {
        let resolve = |v: Vec<String>| -> Vec<String> {
            let set: std::collections::BTreeSet<String> =
                v.iter().map(|x| self.resolve(s, x)).collect();
            set.into_iter().collect()
        };
        (resolve(reads), resolve(writes))
    }
}

/// `var` with a leading `p->` (a direct member path after it) or `*p` replaced by the
/// object `target(p)` names.
fn resolve_with<'a>(var: &str, target: impl Fn(&str) -> Option<&'a String>) -> String {
    // A heap object: the same access through the pointer that first held it.
    let through = |p: &str| target(p).and_then(|t| t.strip_prefix('*'));
    if let Some((p, rest)) = var.split_once("->")
        && let Some(first) = through(p)
    {
        return format!("{first}->{rest}");
    }
    if let Some(p) = var.strip_prefix('*')
        && let Some(first) = through(p)
    {
        return format!("*{first}");
    }
    if let Some((p, rest)) = var.split_once("[]")
        && let Some(first) = through(p)
    {
        return format!("{first}[]{rest}");
    }
    if let Some((p, field)) = var.split_once("->")
        && member_path(field)
        && let Some(obj) = target(p)
    {
        return format!("{obj}.{field}");
    }
    if let Some(p) = var.strip_prefix('*')
        && let Some(obj) = target(p)
    {
        return obj.clone();
    }
    // `p[]` through a pointer to one object is that object (`memset(p, 0, sizeof *p)`).
    if let Some((p, rest)) = var.split_once("[]")
        && (rest.is_empty() || (rest.starts_with('.') && member_path(rest)))
        && let Some(obj) = target(p)
    {
        return format!("{obj}{rest}");
    }
    var.to_string()
}

/// What follows `p->` names a member of the object itself (`balance`, `stats.count`),
/// not one reached through another pointer (`acct->balance`, the same object whichever
/// job `p` is).
fn member_path(field: &str) -> bool {
    !field.contains("->") && !field.contains('*')
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::cex::Write;

    fn step(thread: u32, line: u32) -> TraceStep {
        TraceStep::at(thread, line, "")
    }

    fn setting(thread: u32, lhs: &str, value: &str) -> TraceStep {
        let mut s = step(thread, 5);
        s.writes.push(Write::named(lhs.into(), value.into()));
        s
    }

    #[test]
    fn only_plain_addresses_are_followed() {
        let mut p = Pointers::default();
        p.record(&setting(1, "q_1", "&a[1] + 2"));
        assert_eq!(p.resolve(1, "*q"), "*q");
        // An element's address is followed to the element.
        p.record(&setting(2, "r_2", "&parts[1]"));
        assert_eq!(p.resolve(2, "r->sum"), "parts[1].sum");
        assert_eq!(p.resolve(2, "r[]"), "parts[1]");
        assert_eq!(p.resolve(2, "r[].sum"), "parts[1].sum");
        assert!(!is_object_path("a[i]") && !is_object_path("a[1") && is_object_path("a[1][2].b"));
    }

    #[test]
    fn main_s_pointers_keep_their_names_until_another_thread_writes_one() {
        let mut p = Pointers::default();
        p.record(&setting(0, "lg", "&req_log"));
        assert_eq!(p.resolve(0, "lg->cap"), "req_log.cap");
        // Thread 1 has its own `lg_1`; main's `lg` is not its.
        assert_eq!(p.resolve(1, "lg->cap"), "lg->cap");
        // A global pointer that another thread overwrites is no longer known to main.
        p.record(&setting(1, "lg", "&spare_log"));
        assert_eq!(p.resolve(0, "lg->cap"), "lg->cap");
    }

    #[test]
    fn a_heap_object_is_named_through_the_pointer_that_first_held_it() {
        let mut p = Pointers::default();
        p.record(&setting(2, "__t_2", "a heap object allocated at line 32"));
        p.record(&setting(2, "f_2", "a heap object allocated at line 32"));
        p.record(&setting(1, "fr_1", "a heap object allocated at line 32"));
        p.record(&setting(
            1,
            "g_1",
            "a heap object allocated at line 32 (at byte 8)",
        ));
        assert_eq!(p.resolve(1, "fr->width"), "f->width");
        assert_eq!(p.resolve(1, "fr->pixels[]"), "f->pixels[]");
        assert_eq!(p.resolve(1, "*fr"), "*f");
        assert_eq!(p.resolve(1, "fr[].n"), "f[].n");
        assert_eq!(p.resolve(2, "f->width"), "f->width");
        assert_eq!(p.resolve(1, "g->width"), "g->width");
        // Another object from another line is not the first one.
        p.record(&setting(1, "fr_1", "a heap object allocated at line 40"));
        assert_eq!(p.resolve(1, "fr->width"), "fr->width");
        let stable = StablePointers::of(&[
            setting(2, "f_2", "a heap object allocated at line 32"),
            setting(1, "fr_1", "a heap object allocated at line 32"),
        ]);
        assert_eq!(stable.resolve(1, "fr->height"), "f->height");
    }

    #[test]
    fn a_step_s_pointer_is_resolved_as_it_stood_then() {
        let steps = [
            setting(1, "pp_1", "&head"),
            step(1, 31),
            setting(1, "pp_1", "a heap object allocated at line 15 (at byte 8)"),
            step(1, 31),
        ];
        let p = StepPointers::of(&steps);
        assert_eq!(p.resolve(&steps[1], "*pp"), "head");
        assert_eq!(p.resolve(&steps[3], "*pp"), "*pp");
        // A step that is not one of the trace's (a statement of a thread's code): the
        // run's stable pointers, and `pp` was set to two things.
        let elsewhere = step(1, 31);
        assert_eq!(p.resolve(&elsewhere, "*pp"), "*pp");
        let (r, w) = p.accesses(&steps[1], (vec![], vec!["*pp".into(), "head".into()]));
        assert!(r.is_empty());
        assert_eq!(w, vec!["head".to_string()]);
    }

    #[test]
    fn a_pointer_stable_over_the_run_names_its_object_anywhere() {
        let steps = [
            setting(1, "from_1", "&alice"),
            setting(1, "to_1", "&bob"),
            setting(2, "a_2", "&bob"),
            setting(2, "p_2", "&x"),
            setting(2, "p_2", "&y"),
        ];
        let p = StablePointers::of(&steps);
        assert_eq!(p.resolve(1, "to->balance"), "bob.balance");
        assert_eq!(p.resolve(2, "a->balance"), "bob.balance");
        assert_eq!(p.resolve(1, "from->balance"), "alice.balance");
        // A member reached through another pointer is the same whichever object `to` is.
        assert_eq!(p.resolve(1, "to->acct->balance"), "to->acct->balance");
        // Set to two objects: left as written; another thread's local of that name too.
        assert_eq!(p.resolve(2, "*p"), "*p");
        assert_eq!(p.resolve(1, "a->balance"), "a->balance");
        // Set once to something that is no plain address.
        let p = StablePointers::of(&[setting(1, "q_1", "&a[1] + 2")]);
        assert_eq!(p.resolve(1, "*q"), "*q");
        // Main's pointer, overwritten by another thread.
        let p = StablePointers::of(&[setting(0, "lg", "&req_log"), setting(1, "lg", "&spare")]);
        assert_eq!(p.resolve(0, "lg->cap"), "lg->cap");
    }
}
