//! `<math.h>`'s `sqrt` and `fabs` (and their `float` forms, and gcc's `__builtin_` names)
//! as operators of the IR: both are exactly specified by IEEE 754 — the square root
//! correctly rounded, the absolute value a cleared sign bit — and every engine computes
//! them bit for bit (Z3's `fp.sqrt`/`fp.abs`, Rust's `sqrt`/the sign mask in the
//! explorer). The printed C calls the library function again, declared by the printer.
//!
//! The argument is converted to the parameter's type as a call would (`sqrt(k)` of an
//! `int` is `sqrt((double) k)`). A function of these names the program defines itself is
//! its own; `long double` (`sqrtl`) is not modelled and stays a call, refused by name.

use lang_c::ast;
use lang_c::span::Node;

use super::{Lowerer, R};
use crate::ir::*;

impl Lowerer<'_, '_> {
    /// The operator a call of `name` stands for, when it is one of the modelled
    /// `<math.h>` functions; `None` leaves the call as it is.
    pub(super) fn math_call(
        &mut self,
        name: &str,
        args: &[Node<ast::Expression>],
        loc: Loc,
    ) -> R<Option<Expr>> {
        let (op, kind) = match name.strip_prefix("__builtin_").unwrap_or(name) {
            "sqrt" => (UnOp::Sqrt, FloatKind::Double),
            "sqrtf" => (UnOp::Sqrt, FloatKind::Float),
            "fabs" => (UnOp::FAbs, FloatKind::Double),
            "fabsf" => (UnOp::FAbs, FloatKind::Float),
            _ => return Ok(None),
        };
        let [arg] = args else {
            return Ok(None);
        };
        if self.func.is_none() || self.defines_function(name) {
            return Ok(None);
        }
        let a = self.rvalue(arg)?;
        let arithmetic = a.ty.is_integer(self.tt())
            || matches!(a.ty.resolve(self.tt()), Type::Float(k) if *k != FloatKind::LongDouble);
        if !arithmetic {
            return Ok(None);
        }
        let ty = Type::Float(kind);
        let a = self.conv(a, &ty);
        self.c11_calls.push((name.to_string(), loc));
        Ok(Some(Expr::new(ExprKind::Unary(op, Box::new(a)), ty, loc)))
    }
}
