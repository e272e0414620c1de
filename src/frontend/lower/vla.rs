//! Variable-length arrays at block scope. `T a[n];` (the outermost length alone
//! variable: `int a[n][4]` too) becomes
//!
//! ```c
//! size_t __vla_a = n;                          /* evaluated where the declaration is */
//! T *a = (T *)malloc(__vla_a * sizeof(T));
//! ```
//!
//! so every use of `a` (indexing, passing it on, which decay the array anyway) reads the
//! same memory, and `sizeof a` is `__vla_a * sizeof(T)`. A heap object is what every engine
//! and the printed C (gcc, ESBMC, CBMC) agree on: `alloca` would be freed when the
//! sequential program's slot function returns between two blocks of the thread. It is
//! never freed, which only costs memory. `&a` (a pointer to the whole array), a variable
//! length anywhere else (an inner dimension, a pointer to a VLA, a parameter's inner
//! dimension, a type name, a typedef) and an initializer are refused by name.

use lang_c::span::Span;

use super::{Binding, Declared, Lowerer, R};
use crate::ir::*;

/// What a variable-length local became: the variable holding its length, and the type of
/// its elements.
#[derive(Clone, Debug)]
pub(super) struct Vla {
    pub len: VarId,
    pub elem: Type,
}

impl Lowerer<'_, '_> {
    /// The statements declaring the variable-length local `name` (see the module
    /// comment), with `name` bound to its pointer.
    pub(super) fn vla_local(
        &mut self,
        name: &str,
        decl: &Declared,
        initialized: bool,
        span: Span,
    ) -> R<Vec<Stmt>> {
        let elem = match (decl.vla_len.as_ref(), decl.ty.resolve(self.tt())) {
            (Some(_), Type::Array(elem, _)) => (**elem).clone(),
            _ => {
                return Err(self.unsupported(
                    span,
                    format!(
                        "variable-length array `{name}` whose variable length is not its outermost one (or that a pointer or function type wraps)"
                    ),
                ));
            }
        };
        if initialized {
            return Err(self.error(
                span,
                format!("variable-length array `{name}` may not be initialized (C11 6.7.9p3)"),
            ));
        }
        let Some(len) = decl.vla_len.clone() else {
            return Err(self.unsupported(span, format!("variable-length array `{name}`")));
        };
        let loc = decl.loc;
        let size_t = Type::Int(self.dm().size_t());
        let len_var = self
            .prog
            .new_local(self.func, &format!("__vla_{name}"), size_t.clone(), loc);
        let len_init = self.conv(len, &size_t);
        let ptr_ty = Type::ptr(elem.clone());
        let vid = self.prog.new_local(self.func, name, ptr_ty.clone(), loc);
        self.bind(name, Binding::Var(vid));
        let malloc = self.malloc(span)?;
        let bytes = Expr::new(
            ExprKind::Binary(
                BinOp::Mul,
                Box::new(Expr::var(len_var, self.prog, loc)),
                Box::new(Expr::new(ExprKind::SizeofType(elem.clone()), size_t, loc)),
            ),
            Type::Int(self.dm().size_t()),
            loc,
        );
        let call = Expr::new(
            ExprKind::Call(Box::new(self.func_expr(malloc, loc)), vec![bytes]),
            Type::void_ptr(),
            loc,
        );
        let init = self.conv(call, &ptr_ty);
        self.vlas.insert(vid, Vla { len: len_var, elem });
        Ok(vec![
            Stmt::new(
                StmtKind::Decl {
                    var: len_var,
                    init: Some(Init::Expr(len_init)),
                },
                loc,
            ),
            Stmt::new(
                StmtKind::Decl {
                    var: vid,
                    init: Some(Init::Expr(init)),
                },
                loc,
            ),
        ])
    }

    /// `sizeof e` when `e` names a variable-length local: its length times its elements'
    /// size.
    pub(super) fn vla_sizeof(&self, e: &Expr) -> Option<Expr> {
        let ExprKind::Var(v) = e.peel().kind else {
            return None;
        };
        let vla = self.vlas.get(&v)?;
        let size_t = Type::Int(self.dm().size_t());
        let loc = e.loc;
        Some(Expr::new(
            ExprKind::Binary(
                BinOp::Mul,
                Box::new(Expr::var(vla.len, self.prog, loc)),
                Box::new(Expr::new(
                    ExprKind::SizeofType(vla.elem.clone()),
                    size_t.clone(),
                    loc,
                )),
            ),
            size_t,
            loc,
        ))
    }

    /// Whether `e` names a variable-length local (whose `&` seqloc refuses).
    pub(super) fn is_vla(&self, e: &Expr) -> bool {
        matches!(e.peel().kind, ExprKind::Var(v) if self.vlas.contains_key(&v))
    }

    /// `malloc`: the program's own declaration, or one made for it.
    pub(super) fn malloc(&mut self, span: Span) -> R<FuncId> {
        self.allocator("malloc", span, "a variable-length array")
    }

    /// `malloc`, `calloc` or `free`: the program's own declaration, or one made for it; `what`
    /// needs it, and is refused in a program that defines its own.
    pub(super) fn allocator(&mut self, name: &str, span: Span, what: &str) -> R<FuncId> {
        if let Some(f) = self.prog.func_named(name) {
            if self.prog.func(f).body.is_some() {
                return Err(self.unsupported(
                    span,
                    format!("{what} in a program that defines its own `{name}`"),
                ));
            }
            return Ok(f);
        }
        let size_t = Type::Int(self.dm().size_t());
        let (ret, params) = match name {
            "calloc" => (Type::void_ptr(), vec![size_t.clone(), size_t]),
            "free" => (Type::Void, vec![Type::void_ptr()]),
            _ => (Type::void_ptr(), vec![size_t]),
        };
        let f = self.prog.add_func(Function {
            name: name.into(),
            ty: FuncType {
                ret,
                params,
                variadic: false,
                unprototyped: false,
            },
            params: vec![],
            body: None,
            is_static: false,
            is_inline: false,
            noreturn: false,
            loc: Loc::SYNTH,
            unsupported: None,
        });
        self.prog.items.push(Item::Func(f));
        Ok(f)
    }
}

#[cfg(test)]
mod tests {
    use crate::ir::types::DataModel;
    use crate::ir::*;

    fn load(src: &str) -> Result<Program, String> {
        crate::frontend::load_text("t.c", src, DataModel::Lp64).map_err(|e| e.to_string())
    }

    #[test]
    fn a_variable_length_local_is_a_pointer_to_memory_of_its_length() {
        let p = load(
            "void *malloc(unsigned long); int f(int n, int a[n]) { return a[0]; }\
             int main(void) { int n = 3; int a[n][4]; a[2][3] = 7; return sizeof a + f(1, a[0]); }",
        )
        .expect("lowers");
        let main = p.main().expect("main");
        let a = p
            .vars
            .iter()
            .find(|v| v.name == "a" && v.func == Some(main))
            .expect("a");
        // A pointer to rows of 4 ints; its length is kept beside it.
        assert_eq!(
            crate::ir::print::declaration(&p, &a.ty, "a"),
            "int (*a)[4]",
            "{:?}",
            a.ty
        );
        assert!(p.vars.iter().any(|v| v.name == "__vla_a"));
        assert!(crate::ir::internal::is_internal_name("__vla_a"));
        let body = p.func(main).body.as_ref().expect("body");
        let mut sizes = vec![];
        crate::ir::visit::each_expr(body, &mut |e| {
            if let ExprKind::Binary(BinOp::Mul, l, r) = &e.kind {
                sizes.push(format!(
                    "{} * {}",
                    crate::ir::print::expr_to_string(&p, l),
                    crate::ir::print::expr_to_string(&p, r)
                ));
            }
        });
        // The allocation, and `sizeof a`.
        assert_eq!(sizes.len(), 2, "{sizes:?}");
        assert!(
            sizes.iter().all(|s| s.starts_with("__vla_a * sizeof")),
            "{sizes:?}"
        );
    }

    #[test]
    fn other_variable_lengths_are_refused_by_name() {
        for (src, what) in [
            (
                "int main(void) { int n = 2, m = 3; int a[n][m]; return 0; }",
                "outermost",
            ),
            (
                "int main(void) { int n = 2; int (*p)[n]; return 0; }",
                "outermost",
            ),
            (
                "int main(void) { int n = 2; return sizeof(int[n]); }",
                "type name",
            ),
            (
                "int main(void) { int n = 2; typedef int T[n]; return 0; }",
                "typedef",
            ),
            (
                "int main(void) { int n = 2; int a[n]; int *q = (int *)&a; return 0; }",
                "`&`",
            ),
            (
                "int f(int n, int a[][n]) { return 0; } int main(void) { return 0; }",
                "parameter",
            ),
            (
                "int main(void) { int n = 2; int a[n] = {1}; return 0; }",
                "initialized",
            ),
        ] {
            let e = load(src).map(|_| ()).expect_err(src);
            assert!(e.contains(what), "{src}: {e}");
        }
    }
}
