//! What the lowering's unit tests share.

use crate::ir::*;

/// How many calls of the function `name` the lowered program makes.
pub(super) fn calls_to(p: &Program, name: &str) -> usize {
    let mut n = 0;
    for f in &p.funcs {
        let Some(body) = &f.body else { continue };
        crate::ir::visit::each_expr(body, &mut |e| {
            if let ExprKind::Call(c, _) = &e.kind {
                if matches!(c.peel().kind, ExprKind::Func(g) if p.func(g).name == name) {
                    n += 1;
                }
            }
        });
    }
    n
}
