//! The whole program: the declarations it needs, in an order C accepts, and the functions.

use std::collections::HashSet;

use super::expr::int_lit;
use super::printer::Printer;
use crate::ir::Loc;
use crate::ir::syntax::*;
use crate::ir::types::*;
use crate::ir::visit::{self, Visitor};

impl<'a> Printer<'a> {
    pub(super) fn program(&mut self) {
        if let Some(h) = &self.opts.header {
            let h = h.clone();
            self.raw_lines(&h);
        }
        let prelude = self.dialect.prelude.clone();
        if !prelude.is_empty() && !self.opts.omit_prelude {
            self.raw_lines(&prelude);
        }
        // `sqrt`, `fabs`: the front end made operators of the calls; the printed C calls
        // the library again, which every checker models, and declares it.
        let math = math_functions(self.prog);
        for name in &math {
            let ty = if name.ends_with('f') {
                "float"
            } else {
                "double"
            };
            self.line(&format!("{ty} {name}({ty});"), Loc::SYNTH);
        }
        let used = if self.opts.keep_unused {
            None
        } else {
            Some(used_items(self.prog))
        };
        let keep = |it: &Item| used.as_ref().is_none_or(|u| u.contains(it));
        let prog = self.prog;
        // Forward declarations of every struct and union, so definitions can come in
        // source order and refer to each other through pointers.
        let mut any = false;
        for it in &prog.items {
            if let Item::Comp(c) = it {
                if keep(it) {
                    let kw = if prog.types.comp(*c).is_union {
                        "union"
                    } else {
                        "struct"
                    };
                    let t = format!("{kw} {};", self.comp_tags[c]);
                    self.line(&t, Loc::SYNTH);
                    any = true;
                }
            }
        }
        // Incomplete structs never defined (`struct opaque *p`).
        for (i, c) in prog.types.comps.iter().enumerate() {
            let it = Item::Comp(CompId(i as u32));
            if !c.complete && used.as_ref().is_some_and(|u| u.contains(&it)) {
                let kw = if c.is_union { "union" } else { "struct" };
                let t = format!("{kw} {};", self.comp_tags[&CompId(i as u32)]);
                self.line(&t, Loc::SYNTH);
                any = true;
            }
        }
        if any {
            self.line("", Loc::SYNTH);
        }
        let mut printed_comp = HashSet::new();
        for it in &prog.items {
            if !keep(it) {
                continue;
            }
            match it {
                Item::Typedef(t) => {
                    let td = prog.types.typedef(*t);
                    let d = self.declare(&td.ty, &td.name);
                    self.line(&format!("typedef {d};"), td.loc);
                }
                Item::Comp(c) if printed_comp.insert(*c) && prog.types.comp(*c).complete => {
                    self.comp_def(*c);
                }
                Item::Enum(e) => self.enum_def(*e),
                _ => {}
            }
        }
        self.line("", Loc::SYNTH);
        for it in &prog.items {
            if let Item::Func(f) = it {
                if keep(it) && !prog.func(*f).name.starts_with("__builtin_") {
                    let func = prog.func(*f);
                    let proto = self.prototype(*f);
                    self.line(&format!("{proto};"), func.loc);
                }
            }
        }
        self.line("", Loc::SYNTH);
        for it in &prog.items {
            if let Item::Var(v) = it {
                if keep(it) {
                    self.global(*v);
                }
            }
        }
        for it in &prog.items {
            if let Item::Func(f) = it {
                if keep(it) && prog.func(*f).body.is_some() {
                    self.line("", Loc::SYNTH);
                    self.function(*f);
                }
            }
        }
    }

    pub(super) fn comp_def(&mut self, c: CompId) {
        let def = self.prog.types.comp(c).clone();
        let kw = if def.is_union { "union" } else { "struct" };
        self.line(&format!("{kw} {} {{", self.comp_tags[&c]), def.loc);
        self.indent += 1;
        self.fields(&def);
        self.indent -= 1;
        self.line("};", Loc::SYNTH);
    }

    pub(super) fn fields(&mut self, def: &CompDef) {
        for f in &def.fields {
            if let (None, None, Type::Comp(inner)) = (&f.name, f.bit_width, f.ty.resolve(self.tt()))
            {
                // An anonymous member (C11) must be written as an untagged definition.
                let inner_def = self.prog.types.comp(*inner).clone();
                let kw = if inner_def.is_union {
                    "union"
                } else {
                    "struct"
                };
                self.line(&format!("{kw} {{"), Loc::SYNTH);
                self.indent += 1;
                self.fields(&inner_def);
                self.indent -= 1;
                self.line("};", Loc::SYNTH);
                continue;
            }
            let name = f.name.clone().unwrap_or_default();
            let mut d = self.declare(&f.ty, &name);
            if let Some(w) = f.bit_width {
                d = format!("{d} : {w}");
            }
            self.line(&format!("{d};"), Loc::SYNTH);
        }
    }

    pub(super) fn enum_def(&mut self, e: EnumId) {
        let def = self.prog.types.enum_def(e).clone();
        self.line(&format!("enum {} {{", self.enum_tags[&e]), def.loc);
        self.indent += 1;
        for (n, v) in &def.consts {
            self.line(
                &format!("{n} = {},", int_lit(*v, IntKind::LongLong)),
                Loc::SYNTH,
            );
        }
        self.indent -= 1;
        self.line("};", Loc::SYNTH);
    }

    pub(super) fn prototype(&mut self, f: FuncId) -> String {
        let func = self.prog.func(f);
        let names: Vec<String> = func.params.iter().map(|v| self.var_name(*v)).collect();
        let params = self.param_list(
            &func.ty,
            if func.body.is_some() {
                Some(&names)
            } else {
                None
            },
        );
        let head = format!("{}({params})", func.name);
        let mut s = self.declare(&func.ty.ret, &head);
        if func.is_static {
            s = format!("static {s}");
        }
        if func.noreturn {
            s = format!("{s} __attribute__((__noreturn__))");
        }
        s
    }

    pub(super) fn param_list(&self, fty: &FuncType, names: Option<&Vec<String>>) -> String {
        if fty.unprototyped {
            return String::new();
        }
        if fty.params.is_empty() {
            return if fty.variadic {
                "...".into()
            } else {
                "void".into()
            };
        }
        let mut parts: Vec<String> = fty
            .params
            .iter()
            .enumerate()
            .map(|(i, t)| {
                let n = names.and_then(|n| n.get(i)).cloned().unwrap_or_default();
                self.declare(t, &n)
            })
            .collect();
        if fty.variadic {
            parts.push("...".into());
        }
        parts.join(", ")
    }

    pub(super) fn global(&mut self, v: VarId) {
        let var = self.prog.var(v);
        let name = self.var_name(v);
        let mut d = self.declare(&var.ty, &name);
        if var.thread_local {
            d = format!("_Thread_local {d}");
        }
        if var.is_static {
            d = format!("static {d}");
        }
        if var.is_extern && var.init.is_none() {
            d = format!("extern {d}");
        }
        let ty = var.ty.clone();
        let text = match &var.init {
            Some(i) => format!("{d} = {};", self.init(&ty, i)),
            None => format!("{d};"),
        };
        let loc = var.loc;
        self.line(&text, loc);
    }

    pub(super) fn function(&mut self, f: FuncId) {
        self.cur_func = Some(f);
        self.goto_targets.clear();
        if let Some(b) = &self.prog.func(f).body {
            visit::each_stmt(b, &mut |s| {
                if let StmtKind::Goto(l) = &s.kind {
                    self.goto_targets.insert(l.clone());
                }
            });
        }
        let proto = self.prototype(f);
        let func = self.prog.func(f);
        self.line(&proto, func.loc);
        if let Some(body) = &func.body {
            match &body.kind {
                StmtKind::Block(ss) => {
                    self.line("{", Loc::SYNTH);
                    self.indent += 1;
                    for s in ss {
                        self.stmt(s);
                    }
                    self.indent -= 1;
                    self.line("}", Loc::SYNTH);
                }
                _ => {
                    self.line("{", Loc::SYNTH);
                    self.indent += 1;
                    self.stmt(body);
                    self.indent -= 1;
                    self.line("}", Loc::SYNTH);
                }
            }
        }
        self.cur_func = None;
    }
}

/// The items a program uses: everything reachable from `main` and from functions whose
/// address is taken (or, without a `main`, from every function defined outside system
/// headers). Unused declarations, including all of glibc's, are dropped.
pub fn used_items(prog: &Program) -> HashSet<Item> {
    let mut used: HashSet<Item> = HashSet::new();
    let mut work: Vec<Item> = Vec::new();
    let mut roots: Vec<FuncId> = Vec::new();
    match prog.main() {
        // Functions whose address main's code takes are reached through the references.
        Some(m) => roots.push(m),
        None => {
            for (i, f) in prog.funcs.iter().enumerate() {
                if f.body.is_some() && !prog.sources.is_system(f.loc) {
                    roots.push(FuncId(i as u32));
                }
            }
        }
    }
    for f in roots {
        if used.insert(Item::Func(f)) {
            work.push(Item::Func(f));
        }
    }
    // Variables and functions that are not items (locals) contribute through function
    // bodies; collect the types they mention.
    let mut type_work: Vec<Type> = Vec::new();
    while let Some(it) = work.pop() {
        let mut refs = Refs::default();
        match it {
            Item::Typedef(t) => refs.ty(&prog.types.typedef(t).ty),
            Item::Comp(c) => {
                for f in &prog.types.comp(c).fields {
                    refs.ty(&f.ty)
                }
            }
            Item::Enum(_) => {}
            Item::Var(v) => {
                let var = prog.var(v);
                refs.ty(&var.ty);
                if let Some(i) = &var.init {
                    let mut c = RefCollector {
                        prog,
                        refs: &mut refs,
                    };
                    c.visit_init(i);
                }
            }
            Item::Func(f) => {
                let func = prog.func(f);
                refs.ty(&func.ty.ret);
                for p in &func.ty.params {
                    refs.ty(p)
                }
                for p in &func.params {
                    refs.ty(&prog.var(*p).ty)
                }
                if let Some(b) = &func.body {
                    let mut c = RefCollector {
                        prog,
                        refs: &mut refs,
                    };
                    c.visit_stmt(b);
                }
            }
        }
        type_work.append(&mut refs.types);
        for i in refs.items {
            if used.insert(i) {
                work.push(i);
            }
        }
        while let Some(t) = type_work.pop() {
            let mut r = Refs::default();
            r.ty(&t);
            for i in r.items {
                if used.insert(i) {
                    work.push(i);
                }
            }
        }
    }
    // An enum constant used in code makes its enum used.
    used
}

#[derive(Default)]
pub(super) struct Refs {
    items: Vec<Item>,
    types: Vec<Type>,
}

impl Refs {
    fn ty(&mut self, t: &Type) {
        match t {
            Type::Pointer(p) => self.ty(p),
            Type::Array(e, _) => self.ty(e),
            Type::Function(f) => {
                self.ty(&f.ret);
                for p in &f.params {
                    self.ty(p)
                }
            }
            Type::Comp(c) => self.items.push(Item::Comp(*c)),
            Type::Enum(e) => self.items.push(Item::Enum(*e)),
            Type::Typedef(t) => self.items.push(Item::Typedef(*t)),
            Type::Qualified(inner, _) => self.ty(inner),
            Type::Void | Type::Int(_) | Type::Float(_) => {}
        }
    }
}

pub(super) struct RefCollector<'a, 'b> {
    prog: &'a Program,
    refs: &'b mut Refs,
}

impl Visitor for RefCollector<'_, '_> {
    fn visit_stmt(&mut self, s: &Stmt) {
        if let StmtKind::Decl { var, .. } = &s.kind {
            self.refs.ty(&self.prog.var(*var).ty);
        }
        visit::walk_stmt(self, s)
    }
    fn visit_expr(&mut self, e: &Expr) {
        self.refs.ty(&e.ty);
        match &e.kind {
            ExprKind::Var(v) => {
                let var = self.prog.var(*v);
                if var.kind == VarKind::Global {
                    self.refs.items.push(Item::Var(*v));
                }
            }
            ExprKind::Func(f) => self.refs.items.push(Item::Func(*f)),
            ExprKind::SizeofType(t) | ExprKind::AlignofType(t) => self.refs.ty(t),
            ExprKind::Int(_) => {
                // Enum constants are folded to integers, but their enum type may matter
                // for printing; the expression's type covers it.
            }
            _ => {}
        }
        visit::walk_expr(self, e)
    }
}

/// The `<math.h>` functions the program's operators stand for, sorted.
fn math_functions(prog: &Program) -> Vec<&'static str> {
    let mut names = std::collections::BTreeSet::new();
    for f in &prog.funcs {
        let Some(body) = &f.body else { continue };
        visit::each_expr(body, &mut |e| {
            if let ExprKind::Unary(op, _) = &e.kind {
                let bits = match e.ty.resolve(&prog.types) {
                    Type::Float(FloatKind::Float) => 32,
                    _ => 64,
                };
                names.extend(op.math_name(bits));
            }
        });
    }
    names.into_iter().collect()
}
