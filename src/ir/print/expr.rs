//! Expressions with the parentheses their precedence needs, and initializers.

use std::collections::HashMap;

use super::printer::Printer;
use crate::ir::syntax::*;
use crate::ir::types::*;

impl<'a> Printer<'a> {
    pub(super) fn expr(&mut self, e: &Expr, min: u8) -> String {
        let (s, prec) = self.expr_prec(e);
        if prec < min { format!("({s})") } else { s }
    }

    pub(super) fn expr_prec(&mut self, e: &Expr) -> (String, u8) {
        match &e.kind {
            ExprKind::Int(v) => {
                let k = e.ty.int_kind(self.tt()).unwrap_or(IntKind::Int);
                if e.ty.is_pointer(self.tt()) {
                    return (format!("(({}){v})", self.type_name(&e.ty)), 16);
                }
                let lit = int_lit(*v, k);
                if k.rank() < IntKind::Int.rank() {
                    return (format!("(({}){lit})", self.type_name(&e.ty)), 16);
                }
                let p = if lit.starts_with('-') || lit.starts_with('(') {
                    14
                } else {
                    16
                };
                (lit, p)
            }
            ExprKind::Float(text) => {
                let suffix = match e.ty.resolve(self.tt()) {
                    Type::Float(FloatKind::Float) => "f",
                    Type::Float(FloatKind::LongDouble) => "l",
                    _ => "",
                };
                (format!("{text}{suffix}"), 16)
            }
            ExprKind::Str(bytes) => (c_string(bytes), 16),
            ExprKind::Var(v) => (self.var_name(*v), 16),
            ExprKind::Func(f) => (self.prog.func(*f).name.clone(), 16),
            ExprKind::Unary(op @ (UnOp::Sqrt | UnOp::FAbs), a) => {
                let bits = match e.ty.resolve(self.tt()) {
                    Type::Float(FloatKind::Float) => 32,
                    _ => 64,
                };
                let name = op.math_name(bits).unwrap_or("sqrt");
                (format!("{name}({})", self.expr(a, 2)), 16)
            }
            ExprKind::Unary(op, a) => {
                let o = match op {
                    UnOp::Neg => "-",
                    UnOp::BitNot => "~",
                    UnOp::LogNot => "!",
                    UnOp::Sqrt | UnOp::FAbs => "",
                };
                let inner = self.expr(a, 14);
                // `- -x` must not print as `--x`.
                let sep = if inner.starts_with(o) { " " } else { "" };
                (format!("{o}{sep}{inner}"), 14)
            }
            ExprKind::Binary(op, a, b) => {
                let p = bin_prec(*op);
                // Parenthesize where gcc's -Wparentheses would ask for it, even when the
                // precedence does not need it.
                let clarify = |x: &Expr| -> u8 {
                    match &x.peel().kind {
                        ExprKind::Binary(inner, ..) => {
                            let mixed = (op.is_comparison() && inner.is_comparison())
                                || (matches!(op, BinOp::BitAnd | BinOp::BitOr | BinOp::BitXor)
                                    && (inner.is_comparison()
                                        || matches!(inner, BinOp::Add | BinOp::Sub)))
                                || (*op == BinOp::LogOr && *inner == BinOp::LogAnd)
                                || (matches!(op, BinOp::Shl | BinOp::Shr)
                                    && matches!(inner, BinOp::Add | BinOp::Sub));
                            if mixed { 16 } else { 0 }
                        }
                        _ => 0,
                    }
                };
                let l = self.expr(a, p.max(clarify(a)));
                let r = self.expr(b, (p + 1).max(clarify(b)));
                (format!("{l} {} {r}", op.c_op()), p)
            }
            ExprKind::Assign(a, b) => {
                let l = self.expr(a, 14);
                let r = self.expr(b, 2);
                (format!("{l} = {r}"), 2)
            }
            ExprKind::OpAssign { op, lhs, rhs, .. } => {
                let l = self.expr(lhs, 14);
                let r = self.expr(rhs, 2);
                (format!("{l} {}= {r}", op.c_op()), 2)
            }
            ExprKind::IncDec { inc, post, e: a } => {
                let o = if *inc { "++" } else { "--" };
                if *post {
                    (format!("{}{o}", self.expr(a, 15)), 15)
                } else {
                    (format!("{o}{}", self.expr(a, 14)), 14)
                }
            }
            ExprKind::Cond(c, t, f) => {
                let c = self.expr(c, 4);
                let t = self.expr(t, 1);
                let f = self.expr(f, 3);
                (format!("{c} ? {t} : {f}"), 3)
            }
            ExprKind::Comma(a, b) => {
                let l = self.expr(a, 1);
                let r = self.expr(b, 2);
                (format!("{l}, {r}"), 1)
            }
            ExprKind::Cast { e: a, implicit } => {
                if *implicit {
                    return self.expr_prec(a);
                }
                let t = self.type_name(&e.ty);
                (format!("({t}){}", self.expr(a, 14)), 14)
            }
            ExprKind::Decay(a) => self.expr_prec(a),
            ExprKind::AddrOf(a) => {
                // `&*p` is `p`; `&a[i]` prints as written.
                (format!("&{}", self.expr(a, 14)), 14)
            }
            ExprKind::Deref(a) => (format!("*{}", self.expr(a, 14)), 14),
            ExprKind::Member(base, idx) => {
                let (prefix, op) = self.access_prefix(base);
                let name = self.field_name(base, *idx);
                (format!("{prefix}{op}{name}"), 15)
            }
            ExprKind::Index(a, i) => {
                let l = self.expr(a, 15);
                let r = self.expr(i, 0);
                (format!("{l}[{r}]"), 15)
            }
            ExprKind::Call(f, args) => {
                let callee = self.expr(f, 15);
                let a: Vec<String> = args.iter().map(|x| self.expr(x, 2)).collect();
                (format!("{callee}({})", a.join(", ")), 15)
            }
            ExprKind::SizeofType(t) => (format!("sizeof({})", self.type_name(t)), 14),
            ExprKind::AlignofType(t) => (format!("_Alignof({})", self.type_name(t)), 14),
            ExprKind::StmtExpr(ss) => {
                let mut parts = Vec::new();
                for s in ss {
                    parts.push(self.stmt_inline_text(s));
                }
                (format!("({{ {} }})", parts.join(" ")), 16)
            }
            ExprKind::Compound(init) => {
                let t = self.type_name(&e.ty);
                (format!("({t}){}", self.init(&e.ty, init)), 15)
            }
            ExprKind::Intrinsic(i, args) => {
                let a: Vec<String> = args.iter().map(|x| self.expr(x, 2)).collect();
                let ty = self.type_name(&e.ty);
                let key = self.type_key(&e.ty);
                let loc = match self.prog.sources.position(e.loc) {
                    Some(p) => {
                        format!("{}:{}", p.file.rsplit('/').next().unwrap_or(p.file), p.line)
                    }
                    None => "-".to_string(),
                };
                if *i == Intrinsic::Diag {
                    // `(diag == k ? nondet : original)`, the nondet in the dialect's spelling.
                    let nondet = self
                        .dialect
                        .intrinsic(Intrinsic::Nondet, &ty, &key, &[], &loc);
                    let c = args.first().map(|x| self.expr(x, 4)).unwrap_or_default();
                    let orig = args.get(1).map(|x| self.expr(x, 3)).unwrap_or_default();
                    return (format!("({c} ? {nondet} : {orig})"), 16);
                }
                (self.dialect.intrinsic(*i, &ty, &key, &a, &loc), 16)
            }
        }
    }

    pub(super) fn stmt_inline_text(&mut self, s: &Stmt) -> String {
        // Statement expressions are printed on one line by a nested printer run.
        let saved_out = std::mem::take(&mut self.out);
        let saved_locs = std::mem::take(&mut self.line_locs);
        let saved_funcs = std::mem::take(&mut self.line_funcs);
        let saved_indent = self.indent;
        self.indent = 0;
        self.stmt(s);
        let text = std::mem::replace(&mut self.out, saved_out);
        self.line_locs = saved_locs;
        self.line_funcs = saved_funcs;
        self.indent = saved_indent;
        text.lines().map(str::trim).collect::<Vec<_>>().join(" ")
    }

    /// The printed base of a member access and its operator, skipping anonymous members.
    pub(super) fn access_prefix(&mut self, base: &Expr) -> (String, &'static str) {
        match &base.kind {
            ExprKind::Member(inner, idx) if self.field_is_anonymous(inner, *idx) => {
                self.access_prefix(inner)
            }
            ExprKind::Deref(p) => (self.expr(p, 15), "->"),
            _ => (self.expr(base, 15), "."),
        }
    }

    pub(super) fn field_is_anonymous(&self, base: &Expr, idx: usize) -> bool {
        match base.ty.resolve(self.tt()) {
            Type::Comp(c) => self
                .tt()
                .comp(*c)
                .fields
                .get(idx)
                .is_some_and(|f| f.name.is_none()),
            _ => false,
        }
    }

    pub(super) fn field_name(&self, base: &Expr, idx: usize) -> String {
        match base.ty.resolve(self.tt()) {
            Type::Comp(c) => self
                .tt()
                .comp(*c)
                .fields
                .get(idx)
                .and_then(|f| f.name.clone())
                .unwrap_or_else(|| format!("__field{idx}")),
            _ => format!("__field{idx}"),
        }
    }

    /// An initializer printed with the type known, so fields get `.name =` designators.
    pub(super) fn init(&mut self, ty: &Type, i: &Init) -> String {
        match (i, ty.resolve(self.tt()).clone()) {
            (Init::List(items), Type::Comp(c)) => {
                let def = self.tt().comp(c).clone();
                let has_anon = items.iter().any(|it| {
                    matches!(it.path.first(), Some(Designator::Field(f)) if def.fields.get(*f).is_some_and(|x| x.name.is_none()))
                });
                let mut parts = Vec::new();
                if has_anon {
                    // Anonymous members cannot be designated: print positionally, with
                    // zeros for the gaps.
                    let mut by_field: HashMap<usize, &Init> = HashMap::new();
                    for it in items {
                        if let Some(Designator::Field(f)) = it.path.first() {
                            by_field.insert(*f, &it.init);
                        }
                    }
                    let last = by_field.keys().max().copied().unwrap_or(0);
                    for f in 0..=last {
                        let fty = def.fields[f].ty.clone();
                        parts.push(match by_field.get(&f) {
                            Some(init) => self.init(&fty, init),
                            None => "{ 0 }".to_string(),
                        });
                    }
                } else {
                    for it in items {
                        if let Some(Designator::Field(f)) = it.path.first() {
                            let fty = def.fields[*f].ty.clone();
                            let v = self.init(&fty, &it.init);
                            match &def.fields[*f].name {
                                Some(n) => parts.push(format!(".{n} = {v}")),
                                None => parts.push(v),
                            }
                        }
                    }
                }
                if parts.is_empty() {
                    return "{ 0 }".into();
                }
                format!("{{ {} }}", parts.join(", "))
            }
            (Init::List(items), Type::Array(elem, _)) => {
                let mut parts = Vec::new();
                for it in items {
                    let v = self.init(&elem, &it.init);
                    match it.path.first() {
                        Some(Designator::Index(k)) => parts.push(format!("[{k}] = {v}")),
                        _ => parts.push(v),
                    }
                }
                if parts.is_empty() {
                    return "{ 0 }".into();
                }
                format!("{{ {} }}", parts.join(", "))
            }
            (Init::List(items), _) => match items.first() {
                Some(it) => self.init(ty, &it.init),
                None => "0".into(),
            },
            (Init::Expr(e), _) => self.expr(e, 2),
        }
    }
}

pub(super) fn bin_prec(op: BinOp) -> u8 {
    match op {
        BinOp::Mul | BinOp::Div | BinOp::Rem => 13,
        BinOp::Add | BinOp::Sub => 12,
        BinOp::Shl | BinOp::Shr => 11,
        BinOp::Lt | BinOp::Gt | BinOp::Le | BinOp::Ge => 10,
        BinOp::Eq | BinOp::Ne => 9,
        BinOp::BitAnd => 8,
        BinOp::BitXor => 7,
        BinOp::BitOr => 6,
        BinOp::LogAnd => 5,
        BinOp::LogOr => 4,
    }
}

/// An integer literal of kind `k` with the suffix that gives it that type.
pub fn int_lit(v: i128, k: IntKind) -> String {
    let suffix = match k {
        IntKind::UInt => "u",
        IntKind::Long => "l",
        IntKind::ULong => "ul",
        IntKind::LongLong | IntKind::Int128 => "ll",
        IntKind::ULongLong | IntKind::UInt128 => "ull",
        _ => "",
    };
    if v < 0 {
        // The most negative value has no literal: write it as an expression.
        let min_of = |bits: u32| -(1i128 << (bits - 1));
        for bits in [32u32, 64] {
            if v == min_of(bits) {
                return format!("({}{suffix} - 1{suffix})", v + 1);
            }
        }
        return format!("{v}{suffix}");
    }
    format!("{v}{suffix}")
}

pub fn c_string(bytes: &[u8]) -> String {
    let mut s = String::from("\"");
    for &b in bytes {
        match b {
            b'\n' => s.push_str("\\n"),
            b'\t' => s.push_str("\\t"),
            b'\r' => s.push_str("\\r"),
            b'"' => s.push_str("\\\""),
            b'\\' => s.push_str("\\\\"),
            // Octal escapes are always three digits, so a following digit is safe.
            0x20..=0x7e => s.push(b as char),
            _ => s.push_str(&format!("\\{b:03o}")),
        }
    }
    s.push('"');
    s
}
