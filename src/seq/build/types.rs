//! Table II's types: synchronization objects become the integers the rules act on.

use crate::ir::build as b;
use crate::ir::visit::{self, VisitorMut};
use crate::ir::*;
use crate::seq::rules::{Rules, TypeRule};

/// Table II types: `pthread_mutex_t` and `pthread_cond_t` become `int`, and their
/// initializers (`PTHREAD_MUTEX_INITIALIZER`) become 0.
pub(super) fn apply_type_rules(prog: &mut Program, rules: &Rules) {
    let mut changed = false;
    for t in prog.types.typedefs.iter_mut() {
        if rules.type_rule(&t.name) == TypeRule::Int {
            t.ty = Type::int();
            changed = true;
        }
    }
    if !changed {
        return;
    }
    let tt = prog.types.clone();
    for v in prog.vars.iter_mut() {
        if let Some(i) = v.init.take() {
            v.init = Some(fix_init(i, &v.ty, &tt));
        }
    }
    let var_types: Vec<Type> = prog.vars.iter().map(|v| v.ty.clone()).collect();
    for f in prog.funcs.iter_mut() {
        if let Some(body) = &mut f.body {
            struct Fix<'a>(&'a TypeTable, &'a [Type]);
            impl VisitorMut for Fix<'_> {
                fn visit_stmt(&mut self, s: &mut Stmt) {
                    if let StmtKind::Decl { var, init } = &mut s.kind {
                        if let Some(i) = init.take() {
                            *init = Some(fix_init(i, &self.1[var.0 as usize], self.0));
                        }
                    }
                    visit::walk_stmt_mut(self, s)
                }
            }
            Fix(&tt, &var_types).visit_stmt(body);
        }
    }
}

/// A braced initializer whose object became a scalar: keep the first scalar in it.
pub(super) fn fix_init(i: Init, ty: &Type, tt: &TypeTable) -> Init {
    match (i, ty.resolve(tt)) {
        (Init::List(items), t) if t.is_scalar(tt) => {
            fn first(i: &Init) -> Option<Expr> {
                match i {
                    Init::Expr(e) => Some(e.clone()),
                    Init::List(items) => items.iter().find_map(|it| first(&it.init)),
                }
            }
            let e = items
                .iter()
                .find_map(|it| first(&it.init))
                .map(|e| b::conv(e, ty, tt))
                .unwrap_or_else(|| b::typed_int(0, ty));
            Init::Expr(e)
        }
        (Init::List(items), Type::Comp(c)) => {
            let fields = tt.comp(*c).fields.clone();
            Init::List(
                items
                    .into_iter()
                    .map(|it| {
                        let fty = match it.path.first() {
                            Some(Designator::Field(f)) => {
                                fields.get(*f).map(|x| x.ty.clone()).unwrap_or(Type::int())
                            }
                            _ => Type::int(),
                        };
                        InitItem {
                            path: it.path,
                            init: fix_init(it.init, &fty, tt),
                        }
                    })
                    .collect(),
            )
        }
        (Init::List(items), Type::Array(e, _)) => {
            let e = (**e).clone();
            Init::List(
                items
                    .into_iter()
                    .map(|it| InitItem {
                        path: it.path,
                        init: fix_init(it.init, &e, tt),
                    })
                    .collect(),
            )
        }
        (Init::Expr(e), t) if t.is_scalar(tt) && !e.ty.is_scalar(tt) => {
            Init::Expr(b::typed_int(0, ty))
        }
        (i, _) => i,
    }
}
