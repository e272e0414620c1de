//! The program's standard input — `scanf`, `fscanf(stdin, …)`, `getchar`, `fgetc(stdin)`,
//! `getc(stdin)` and `fgets(buf, n, stdin)` — modelled as what it is to a verifier: any
//! text a user may type.
//!
//! Unlike a string of `argv` (`input`), standard input is a stream: every read takes new
//! characters, so every call is a fresh input and nothing is remembered between calls.
//!
//! * `getchar()` and its relatives answer any character (`0..=255`) or `EOF` (-1).
//! * `scanf(format, …)` returns `EOF` or how many conversions it stored, `0..=n`, and
//!   stores exactly that many, in order (as `sscanf` of `argv` does). The conversions
//!   modelled: integers (`%d %i %u %x %X %o` with their length modifiers) into an
//!   integer, floating point (`%f %e %g %a`, `%lf` …) into a `float` or `double` (any
//!   value, NaN and the infinities included: `strtod` reads "nan" and "inf"), `%c` into
//!   a character, and `%Ns` — a width is required, since without one the input can write
//!   past any buffer — as 1 to `N` characters that are not white space followed by a NUL.
//!   `%*…` reads without storing. Anything else (`%[`, `%n`, `%p`, `%s` without a width, a
//!   target whose type does not match its conversion) leaves the call as it is, which the
//!   later passes refuse by name.
//! * `fgets(buf, n, stdin)` with `n > 1` returns `NULL` (end of input, the buffer left as
//!   it was) or `buf` holding 1 to `n - 1` characters then a NUL; only the last of them
//!   may be a newline, since `fgets` stops after one. `n == 1` stores just the NUL and
//!   returns `buf`; `n <= 0` returns `NULL` (glibc). A NUL byte typed into the input is
//!   allowed, as it is on a real stream.
//!
//! The characters of a string are written by a loop, so a long line counts against the
//! loop bound like the program's own loops over it do.

use lang_c::ast;
use lang_c::span::Node;

use super::{Binding, Lowerer, R, assume};
use crate::ir::build as b;
use crate::ir::consteval::eval_int;
use crate::ir::*;

/// One conversion of a `scanf` format that stores a value.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) enum Conversion {
    Integer,
    /// With the `l` modifier (a `double`) or without (a `float`).
    Float {
        double: bool,
    },
    Char,
    /// `%Ns`: at most `N` characters.
    Word(u64),
}

/// The storing conversions of a `scanf` format, in order; `None` when the format holds
/// one seqloc does not model (see the module comment).
pub(super) fn conversions(f: &[u8]) -> Option<Vec<Conversion>> {
    let mut out = Vec::new();
    let mut i = 0;
    while i < f.len() {
        if f[i] != b'%' {
            i += 1;
            continue;
        }
        i += 1;
        if f.get(i) == Some(&b'%') {
            i += 1;
            continue;
        }
        let store = f.get(i) != Some(&b'*');
        if !store {
            i += 1;
        }
        let digits = i;
        while f.get(i).is_some_and(u8::is_ascii_digit) {
            i += 1;
        }
        let width: Option<u64> = std::str::from_utf8(&f[digits..i])
            .ok()
            .and_then(|s| s.parse().ok());
        let modifiers = i;
        while f
            .get(i)
            .is_some_and(|c| matches!(c, b'h' | b'l' | b'j' | b'z' | b't' | b'L'))
        {
            i += 1;
        }
        let modifiers = &f[modifiers..i];
        let c = match f.get(i) {
            Some(b'd' | b'i' | b'u' | b'x' | b'X' | b'o') if !modifiers.contains(&b'L') => {
                Conversion::Integer
            }
            Some(b'f' | b'F' | b'e' | b'E' | b'g' | b'G' | b'a' | b'A') => match modifiers {
                b"" => Conversion::Float { double: false },
                b"l" => Conversion::Float { double: true },
                _ => return None,
            },
            Some(b'c') if modifiers.is_empty() && width.unwrap_or(1) == 1 => Conversion::Char,
            Some(b's') if modifiers.is_empty() => Conversion::Word(width.filter(|w| *w > 0)?),
            _ => return None,
        };
        i += 1;
        if store {
            out.push(c);
        }
    }
    Some(out)
}

/// The C locale's white space (`isspace`), which `%s` stops at.
const SPACES: [i128; 6] = [b' ' as i128, 9, 10, 11, 12, 13];

/// Longest `%Ns` or `fgets` line modelled; more is refused (by leaving the call).
const MAX_LINE: i128 = 1 << 20;

impl Lowerer<'_, '_> {
    /// The model of a call of `name` reading standard input, when it is one (see the
    /// module comment); `None` leaves the call as it is.
    pub(super) fn stdin_call(
        &mut self,
        name: &str,
        args: &[Node<ast::Expression>],
        loc: Loc,
    ) -> R<Option<Expr>> {
        if self.func.is_none() || self.defines_function(name) {
            return Ok(None);
        }
        match (name, args) {
            ("getchar", []) => Ok(Some(self.character(name, loc))),
            ("fgetc" | "getc", [s]) if self.is_stdin(s) => Ok(Some(self.character(name, loc))),
            ("scanf", [format, targets @ ..]) => self.scan(name, format, targets, loc),
            ("fscanf", [s, format, targets @ ..]) if self.is_stdin(s) => {
                self.scan(name, format, targets, loc)
            }
            ("fgets", [buf, n, s]) if self.is_stdin(s) => self.fgets(buf, n, loc),
            _ => Ok(None),
        }
    }

    /// Whether `e` names the C library's `stdin` (not a variable of the program's own).
    fn is_stdin(&self, e: &Node<ast::Expression>) -> bool {
        let ast::Expression::Identifier(id) = &e.node else {
            return false;
        };
        id.node.name == "stdin"
            && matches!(self.lookup("stdin"),
                Some(Binding::Var(v)) if self.prog.var(*v).is_extern
                    && self.prog.var(*v).func.is_none())
    }

    /// `({ int c = nondet; assume(-1 <= c && c <= 255); c; })`.
    fn character(&mut self, name: &str, loc: Loc) -> Expr {
        let ty = self.declared_return(name).unwrap_or(Type::int());
        let mut stmts = Vec::new();
        let c = self.declare_temp(
            "__seq_stdin_char",
            &ty,
            b::nondet(&ty, loc),
            &mut stmts,
            loc,
        );
        let in_range = b::and(
            b::bin(BinOp::Ge, c.clone(), b::typed_int(-1, &ty)),
            b::bin(BinOp::Le, c.clone(), b::typed_int(255, &ty)),
        );
        stmts.push(assume(in_range, loc));
        stmts.push(Stmt::expr(c));
        super::locate(&mut stmts, loc);
        Expr::new(ExprKind::StmtExpr(stmts), ty, loc)
    }

    /// `scanf(format, targets…)`: any count `EOF..=n`, the first `count` targets given
    /// any value their conversion can make.
    fn scan(
        &mut self,
        name: &str,
        format: &Node<ast::Expression>,
        targets: &[Node<ast::Expression>],
        loc: Loc,
    ) -> R<Option<Expr>> {
        let format = self.rvalue(format)?;
        let ExprKind::Str(bytes) = &format.peel().kind else {
            return Ok(None);
        };
        let Some(convs) = conversions(bytes) else {
            return Ok(None);
        };
        if convs.len() != targets.len() {
            return Ok(None);
        }
        let mut stmts = Vec::new();
        // The targets, evaluated once, before anything is stored.
        let mut places = Vec::new();
        for (a, conv) in targets.iter().zip(&convs) {
            let p = self.rvalue(a)?;
            let Some(pointee) = p.ty.pointee(self.tt()).cloned() else {
                return Ok(None);
            };
            if pointee.quals(self.tt()).konst || !self.stores(*conv, &pointee) {
                return Ok(None);
            }
            let pty = p.ty.unqualified().clone();
            let t = self.declare_temp("__seq_scan_target", &pty, p, &mut stmts, loc);
            places.push((t, pointee, *conv));
        }
        let int = Type::int();
        let count = self.declare_temp(
            "__seq_scan_count",
            &int,
            b::nondet(&int, loc),
            &mut stmts,
            loc,
        );
        stmts.push(assume(
            b::and(
                b::bin(BinOp::Ge, count.clone(), b::int(-1)),
                b::bin(BinOp::Le, count.clone(), b::int(convs.len() as i128)),
            ),
            loc,
        ));
        for (k, (t, pointee, conv)) in places.into_iter().enumerate() {
            let store = match conv {
                Conversion::Word(width) => {
                    let max = Expr::int(width as i128, Type::int(), loc);
                    self.fill_line(t, &pointee, b::int(1), max, &SPACES, true, loc)
                }
                _ => {
                    let v = b::assign(b::deref(t, self.tt()), b::nondet(&pointee, loc), self.tt());
                    vec![b::expr_stmt(v, loc, StmtId::NONE)]
                }
            };
            stmts.push(b::if_(
                b::bin(BinOp::Gt, count.clone(), b::int(k as i128)),
                store,
                None,
            ));
        }
        stmts.push(Stmt::expr(count));
        self.c11_calls.push((name.to_string(), loc));
        super::locate(&mut stmts, loc);
        Ok(Some(Expr::new(ExprKind::StmtExpr(stmts), Type::int(), loc)))
    }

    /// Whether conversion `c` stores into an object of type `t`.
    fn stores(&self, c: Conversion, t: &Type) -> bool {
        let t = t.resolve(self.tt());
        match c {
            Conversion::Integer => t.is_integer(self.tt()),
            Conversion::Float { double: false } => matches!(t, Type::Float(FloatKind::Float)),
            Conversion::Float { double: true } => matches!(t, Type::Float(FloatKind::Double)),
            Conversion::Char | Conversion::Word(_) => matches!(
                t,
                Type::Int(IntKind::Char | IntKind::SChar | IntKind::UChar)
            ),
        }
    }

    /// `fgets(buf, n, stdin)` (see the module comment), for a constant `n`.
    fn fgets(
        &mut self,
        buf: &Node<ast::Expression>,
        n: &Node<ast::Expression>,
        loc: Loc,
    ) -> R<Option<Expr>> {
        let buf = self.rvalue(buf)?;
        let n = self.rvalue(n)?;
        let Some(pointee) = buf.ty.pointee(self.tt()).cloned() else {
            return Ok(None);
        };
        if pointee.quals(self.tt()).konst || !self.stores(Conversion::Char, &pointee) {
            return Ok(None);
        }
        let Some(k) = eval_int(&n, self.tt(), self.dm()) else {
            return Ok(None);
        };
        if k > MAX_LINE {
            return Ok(None);
        }
        let ret = Type::ptr(pointee.unqualified().clone());
        let mut stmts = Vec::new();
        // A named array is written element by element as itself (`line[i] = c`), not
        // through a pointer to it: the analyses then still see every write to it (a
        // line read by `main` before its threads start is frozen for them).
        let p = match &buf.kind {
            ExprKind::Decay(a) if matches!(a.kind, ExprKind::Var(_)) => buf,
            _ => self.declare_temp("__seq_fgets_buf", &ret, buf, &mut stmts, loc),
        };
        Self::keep_effects(n, &mut stmts, loc);
        let null = self.conv(b::int(0), &ret);
        let answer = if k <= 0 {
            null
        } else if k == 1 {
            let nul = b::assign(
                b::deref(p.clone(), self.tt()),
                b::typed_int(0, &pointee),
                self.tt(),
            );
            stmts.push(b::expr_stmt(nul, loc, StmtId::NONE));
            p
        } else {
            let r = self.declare_temp("__seq_fgets", &ret, null.clone(), &mut stmts, loc);
            let newline = [b'\n' as i128];
            let max = b::int(k - 1);
            let mut read =
                self.fill_line(p.clone(), &pointee, b::int(1), max, &newline, false, loc);
            read.push(b::expr_stmt(
                b::assign(r.clone(), p, self.tt()),
                loc,
                StmtId::NONE,
            ));
            let line = b::bin(BinOp::Ne, b::nondet(&Type::int(), loc), b::int(0));
            stmts.push(b::if_(line, read, None));
            r
        };
        stmts.push(Stmt::expr(answer));
        self.c11_calls.push(("fgets".to_string(), loc));
        super::locate(&mut stmts, loc);
        Ok(Some(Expr::new(ExprKind::StmtExpr(stmts), ret, loc)))
    }

    /// Statements storing a line of input through `p` (pointing to `elem`): `len`
    /// characters, `min <= len <= max`, then a NUL. No character is one of `excluded`;
    /// unless `everywhere`, the last one may be (a line's newline).
    #[allow(clippy::too_many_arguments)]
    fn fill_line(
        &mut self,
        p: Expr,
        elem: &Type,
        min: Expr,
        max: Expr,
        excluded: &[i128],
        everywhere: bool,
        loc: Loc,
    ) -> Vec<Stmt> {
        let int = Type::int();
        let mut out = Vec::new();
        let len = self.declare_temp("__seq_line_len", &int, b::nondet(&int, loc), &mut out, loc);
        out.push(assume(
            b::and(
                b::bin(BinOp::Ge, len.clone(), min),
                b::bin(BinOp::Le, len.clone(), max),
            ),
            loc,
        ));
        let iv = self
            .prog
            .new_local(self.func, "__seq_line_i", int.clone(), loc);
        let ivx = Expr::var(iv, self.prog, loc);
        let i = || ivx.clone();
        let at = |i: Expr| {
            Expr::new(
                ExprKind::Index(Box::new(p.clone()), Box::new(i)),
                elem.unqualified().clone(),
                loc,
            )
        };
        let mut body = Vec::new();
        let c = self.declare_temp(
            "__seq_line_char",
            elem,
            b::nondet(elem, loc),
            &mut body,
            loc,
        );
        let mut allowed: Option<Expr> = None;
        for x in excluded {
            let ne = b::bin(BinOp::Ne, c.clone(), b::typed_int(*x, elem));
            allowed = Some(match allowed {
                Some(a) => b::and(a, ne),
                None => ne,
            });
        }
        if let Some(allowed) = allowed {
            let cond = if everywhere {
                allowed
            } else {
                let last = b::bin(BinOp::Eq, b::bin(BinOp::Add, i(), b::int(1)), len.clone());
                b::bin(BinOp::LogOr, last, allowed)
            };
            body.push(assume(cond, loc));
        }
        body.push(b::expr_stmt(
            b::assign(at(i()), c, self.tt()),
            loc,
            StmtId::NONE,
        ));
        out.push(Stmt::new(
            StmtKind::For {
                init: vec![Stmt::new(
                    StmtKind::Decl {
                        var: iv,
                        init: Some(Init::Expr(b::int(0))),
                    },
                    loc,
                )],
                cond: Some(b::bin(BinOp::Lt, i(), len.clone())),
                step: Some(b::assign(
                    i(),
                    b::bin(BinOp::Add, i(), b::int(1)),
                    self.tt(),
                )),
                body: Box::new(Stmt::block(body, loc)),
            },
            loc,
        ));
        out.push(b::expr_stmt(
            b::assign(at(len), b::typed_int(0, elem), self.tt()),
            loc,
            StmtId::NONE,
        ));
        out
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn scanf_formats_name_what_they_store() {
        use Conversion::*;
        assert_eq!(conversions(b"%d"), Some(vec![Integer]));
        assert_eq!(
            conversions(b"%d %*d %lf%f %c %15s %%"),
            Some(vec![
                Integer,
                Float { double: true },
                Float { double: false },
                Char,
                Word(15)
            ])
        );
        assert_eq!(conversions(b"%s"), None, "no width: any length");
        assert_eq!(conversions(b"%0s"), None);
        assert_eq!(conversions(b"%Lf"), None, "long double");
        assert_eq!(conversions(b"%3c"), None);
        assert_eq!(conversions(b"%[a-z]"), None);
        assert_eq!(conversions(b"%n"), None);
        assert_eq!(conversions(b"%"), None);
        assert_eq!(conversions(b"plain"), Some(vec![]));
    }
}
