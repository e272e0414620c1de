//! Where the checker's own search cannot be trusted, and the built-in search that stands in:
//! what ESBMC is known to miss (its "no failure" is then doubted), CBMC's declined programs
//! (`Outcome::Declined`), and the built-in checker's search for the failing interleaving
//! along which the checker then localizes (the sequential programs have no threads).

use super::{Probing, escaped_locals};
use crate::checker::bounded::{Probe, Probed};
use crate::checker::external::Kind;
use crate::checker::outcome::{CheckOutcome, Verdict};
use crate::ir::Program;

impl Probing<'_> {
    /// Why ESBMC's search misses interleavings of this program, when it is known to: the
    /// reason its "no failure" is not trusted.
    pub(super) fn misses(&self) -> Option<String> {
        if self.ext.cfg.kind != Kind::Esbmc {
            return None;
        }
        let prog = &self.prep.normalized;
        let line_of = |loc| {
            prog.sources
                .position(loc)
                .map(|p| format!(" (line {})", p.line))
                .unwrap_or_default()
        };
        // ESBMC 8.4 also loses the interleavings on a local object that another thread
        // reaches through a pointer: `seeds/parse_count_before_join_bad.c` (main's stack
        // struct, written by the thread it is handed to) is VERIFICATION SUCCESSFUL as
        // seqloc prints it and FAILED with the struct made `static`, nothing else changed.
        // `main`'s are printed at file scope when they can be (`super::locals`); others
        // keep the doubt.
        let mut escaped: Vec<&crate::ir::Var> = escaped_locals(self.prep)
            .into_iter()
            .map(|v| prog.var(v))
            .collect();
        escaped.sort_by_key(|v| v.loc);
        if let Some(v) = escaped.first().filter(|_| !self.subject.locals_hoisted) {
            let name = v.source_name.as_deref().unwrap_or(&v.name);
            return Some(format!(
                "it misses interleavings on a local variable another thread reaches through a pointer, such as `{name}`{}",
                line_of(v.loc)
            ));
        }
        // And on allocated memory reached through a local pointer: two threads that each
        // read and write back a field of one `malloc`ed struct handed to them as their
        // argument are VERIFICATION SUCCESSFUL at any context bound (a lost update), and
        // so is a `malloc`ed `int` written through a thread's local copy of the pointer;
        // through a global pointer, or a local one to a global object, ESBMC finds them
        // (tests/programs/esbmc_misses/heap_*.c).
        if let Some(loc) = first_allocation(prog) {
            return Some(format!(
                "it misses interleavings on allocated memory reached through a local pointer, as the memory allocated{}",
                line_of(loc)
            ));
        }
        if self.subject.atomics_explicit {
            return None;
        }
        let f = prog
            .funcs
            .iter()
            .find(|f| f.body.is_some() && crate::ir::known::is_atomic_function(&f.name))?;
        // ESBMC 8.4 says VERIFICATION SUCCESSFUL on two threads that each call an atomic
        // get and then an atomic set (a lost update it finds once the functions are
        // renamed): its treatment of these functions loses interleavings, so its "no
        // failure" is not an answer here. Failures it reports are still replayed.
        Some(format!(
            "it misses interleavings between calls of `__VERIFIER_atomic_*` functions such as `{}`{}",
            f.name,
            line_of(f.loc)
        ))
    }

    /// The built-in search for the failure, standing in for the checker: with half of the
    /// time left (the localization still needs the rest). A failure it finds (confirmed by
    /// its own replay) is the probe's, with `note`; otherwise its outcome.
    pub(super) fn stand_in(&mut self, note: String) -> Result<Result<Probe, CheckOutcome>, String> {
        self.stand_in_asked = true;
        let mut out =
            self.backstop
                .search(self.props, self.bounds, self.ext.remaining().map(|r| r / 2))?;
        let Some(cex) = out.counterexample.take() else {
            return Ok(Err(out));
        };
        Ok(Ok(Probe {
            bounds: out.bounds,
            result: Probed::Found {
                cex: Box::new(cex),
                notes: vec![note],
                detail: None,
            },
            encode_ms: out.stats.encode_ms,
            solve_ms: out.stats.solve_ms,
            stats: out.stats,
        }))
    }

    /// The stand-in's proof as the probe's answer: `out` explored every execution with no
    /// bound cutting any ([`CheckOutcome::exhaustive`]).
    fn proven(out: CheckOutcome, note: String) -> Probe {
        Probe {
            bounds: out.bounds.clone(),
            encode_ms: out.stats.encode_ms,
            solve_ms: out.stats.solve_ms,
            stats: out.stats,
            result: Probed::Proven {
                outcome: Box::new(out),
                note,
            },
        }
    }

    /// ESBMC found no failure in a program whose interleavings it is known to miss
    /// ([`Self::misses`]): the built-in search looks for the failure, once. Its failure is
    /// the answer, and ESBMC localizes along it (the sequential programs have no threads
    /// to lose interleavings of); its proof that no execution fails (every one explored, no
    /// bound cutting any) is the answer too; its bounded "no failure" is noted, and the
    /// doubt keeps the verdict unknown.
    pub(super) fn doubted_clean(&mut self, bound_text: &str) -> Option<Probe> {
        // `--raw`/`--alone`: the doubt stays, and keeps the verdict unknown.
        if self.stand_in_asked || self.ext.cfg.searches_alone() {
            return None;
        }
        let m = self.misses()?;
        let label = self.ext.cfg.kind.label();
        (self.log)(
            0,
            &format!(
                "{label} found no failure ({bound_text}), but {m}: seqloc's built-in checker looks for a failing interleaving"
            ),
        );
        let note = format!(
            "{label} found no failure ({bound_text}), but {m}; the failing interleaving was found by seqloc's built-in checker, and {label} ran on the sequential programs built from it"
        );
        match self.stand_in(note) {
            Ok(Ok(found)) => Some(found),
            // Every execution explored: the doubt about ESBMC's search no longer matters.
            Ok(Err(out)) if out.exhaustive() => Some(Self::proven(
                out,
                format!(
                    "{label} found no failure ({bound_text}), but {m}; seqloc's built-in checker, asked in its place, explored every execution with no bound cutting any and found no failure either"
                ),
            )),
            Ok(Err(out)) => {
                self.notes.push(format!(
                    "seqloc's built-in checker, asked in {label}'s place, found no failing interleaving either ({})",
                    out.reason.unwrap_or_else(|| "within its bounds".into())
                ));
                None
            }
            Err(e) => {
                (self.log)(0, &format!("seqloc's built-in checker failed: {e}"));
                None
            }
        }
    }

    /// The checker declined the concurrent program (CBMC's unsoundness abort, which no
    /// deeper bound changes). Its answer is "unknown"; but the sequential program seqloc
    /// builds from a failing interleaving has no threads, and that the checker does run.
    /// So the built-in checker looks for the interleaving, once, with half of the time
    /// left (the localization still needs the rest), and a failure it finds, confirmed by
    /// its own replay, is the counterexample; its proof that no execution fails (every one
    /// explored, no bound cutting any) is the answer; anything else (a bounded "no
    /// failure") keeps the checker's reason.
    pub(super) fn declined(
        &mut self,
        why: &str,
        bound_text: &str,
        probe: impl Fn(Probed) -> Probe,
    ) -> Probe {
        let label = self.ext.cfg.kind.label();
        let reason = format!("{label} could not decide ({bound_text}): {why}");
        if self.ext.cfg.searches_alone() {
            return probe(Probed::Undecided {
                reason: format!(
                    "{reason}; without --raw and --alone seqloc's built-in checker looks for a failing interleaving in its place"
                ),
                limit: None,
            });
        }
        (self.log)(
            0,
            &format!(
                "{label} declined the program ({why}); seqloc's built-in checker looks for a failing interleaving"
            ),
        );
        let note = format!(
            "{label} declined the multi-threaded program ({why}); the failing interleaving was found by seqloc's built-in checker, and {label} ran on the sequential programs built from it"
        );
        match self.stand_in(note) {
            Ok(Ok(found)) => found,
            Ok(Err(out)) if out.exhaustive() => Self::proven(
                out,
                format!(
                    "{label} declined the multi-threaded program ({why}); seqloc's built-in checker, asked in its place, explored every execution with no bound cutting any and found no failure"
                ),
            ),
            Ok(Err(out)) => probe(Probed::Undecided {
                reason: format!(
                    "{reason}; seqloc's built-in checker, asked in its place, found no failing interleaving ({})",
                    out.reason.unwrap_or_else(|| match out.verdict {
                        Verdict::NoFailureWithinBounds => "none within its bounds".into(),
                        _ => "no answer".into(),
                    })
                ),
                limit: None,
            }),
            Err(e) => probe(Probed::Undecided {
                reason: format!(
                    "{reason}; seqloc's built-in checker, asked in its place, failed: {e}"
                ),
                limit: None,
            }),
        }
    }
}

/// Where the program first allocates memory (`malloc`, `calloc`, `realloc`, `alloca`), if
/// it does.
fn first_allocation(prog: &Program) -> Option<crate::ir::Loc> {
    use crate::ir::ExprKind;
    use crate::ir::known::{Known, classify};
    let mut first: Option<crate::ir::Loc> = None;
    for f in &prog.funcs {
        let Some(body) = &f.body else { continue };
        crate::ir::visit::each_expr(body, &mut |e| {
            if let ExprKind::Call(callee, _) = &e.kind
                && let ExprKind::Func(id) = callee.peel().kind
            {
                let name = prog.func(id).name.as_str();
                if matches!(classify(name), Known::Malloc | Known::Calloc) || name == "realloc" {
                    first = Some(first.map_or(e.loc, |l| l.min(e.loc)));
                }
            }
        });
    }
    first
}
