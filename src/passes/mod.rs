//! IR → IR transformations: normalization (one shared access per statement), inlining
//! and unrolling (loop- and call-free thread code for the sequentializer).

pub mod goto_loops;
pub mod inline;
pub mod normalize;
pub mod unreachable;
pub mod unroll;

use crate::analysis::shared::SharedInfo;
use crate::ir::Program;
use crate::ir::index::StmtIndex;

/// A program ready for every engine: as lowered, and after the passes they all need.
pub struct Prepared {
    pub lowered: Program,
    /// After [`normalize`]: one shared access per statement, loops in one shape, the
    /// SV-COMP primitives as intrinsics, statements numbered.
    pub normalized: Program,
    /// What other threads can see, computed on the lowered program (normalization's
    /// temporaries are thread-local).
    pub shared: SharedInfo,
    /// The normalized statements' names (`file:line:col#part`).
    pub index: StmtIndex,
}

/// The passes every engine runs first, in order. Inlining and unrolling depend on the
/// bounds of a search and run later, per bound (`seq::build`).
pub fn prepare(lowered: Program) -> Prepared {
    let mut normalized = lowered.clone();
    let shared = normalize::normalize(&mut normalized);
    #[cfg(debug_assertions)]
    debug_check_one_access(&normalized, &shared);
    let index = StmtIndex::build(&normalized);
    Prepared {
        lowered,
        normalized,
        shared,
        index,
    }
}

impl Prepared {
    pub fn new(lowered: Program) -> Prepared {
        prepare(lowered)
    }
}

/// The invariant every later stage relies on: a normalized statement performs at most one
/// access to memory another thread can see (a context switch can fall between any two).
#[cfg(debug_assertions)]
fn debug_check_one_access(prog: &Program, shared: &SharedInfo) {
    for f in &prog.funcs {
        let Some(body) = &f.body else { continue };
        crate::ir::visit::each_stmt(body, &mut |s| {
            if matches!(s.kind, crate::ir::StmtKind::Block(_)) {
                return;
            }
            debug_assert!(
                normalize::shared_accesses(shared, s) <= 1,
                "normalization left {} shared accesses in a statement of `{}`",
                normalize::shared_accesses(shared, s),
                f.name
            );
        });
    }
}
