//! The C printer: IR → C that `gcc -fsyntax-only -Wall` accepts, formatted for people.
//!
//! The output is self-contained: it declares every type, function and variable it uses
//! (unused system-header declarations are dropped) and includes no headers, so it means
//! the same under gcc, ESBMC and CBMC. Intrinsics (nondet, assume, assert, error) are
//! spelled by a checker [`Dialect`]; messages use the SV-COMP one. Alongside the text the printer
//! records, for every output line, the source location of the statement printed there,
//! which is how an external checker's trace is mapped back to the user's lines.

use std::collections::{HashMap, HashSet};
use std::fmt::Write;

use super::Loc;
use super::dialect::Dialect;
use super::syntax::*;
use super::types::*;
use super::visit::{self, Visitor};

#[derive(Clone, Debug, Default)]
pub struct PrintOptions {
    /// A `/* file:line */` comment after each statement.
    pub loc_comments: bool,
    /// Print every declaration, not only the used ones.
    pub keep_unused: bool,
    /// A comment block printed at the top.
    pub header: Option<String>,
    /// Leave out the dialect's prelude: a program printed as the user wrote it declares
    /// the primitives it calls itself, and its own `reach_error` would clash with the
    /// prelude's.
    pub omit_prelude: bool,
}

pub struct Printed {
    pub text: String,
    /// For each output line (0-based), the location of the statement printed on it.
    pub line_locs: Vec<Loc>,
    /// For each output line, the function it belongs to.
    pub line_funcs: Vec<Option<FuncId>>,
}

pub fn print_program(prog: &Program, dialect: &Dialect, opts: &PrintOptions) -> Printed {
    let mut p = Printer::new(prog, dialect, opts);
    p.program();
    p.finish()
}

/// Prints one expression (for messages and reports).
pub fn expr_to_string(prog: &Program, e: &Expr) -> String {
    let opts = PrintOptions::default();
    let mut p = Printer::for_messages(prog, Dialect::svcomp(), &opts);
    p.expr(e, 0)
}

/// `ty name` as a C declarator (for declarations seqloc generates).
pub fn declaration(prog: &Program, ty: &Type, name: &str) -> String {
    let opts = PrintOptions::default();
    let p = Printer::for_messages(prog, Dialect::svcomp(), &opts);
    p.declare(ty, name)
}

/// Prints one statement on one line where possible (for traces and reports).
pub fn stmt_summary(prog: &Program, s: &Stmt) -> String {
    let opts = PrintOptions::default();
    let mut p = Printer::for_messages(prog, Dialect::svcomp(), &opts);
    match &s.kind {
        StmtKind::Expr(e) => format!("{};", p.expr(e, 0)),
        StmtKind::Decl { var, init } => {
            let ty = prog.var(*var).ty.clone();
            let d = p.declare(&ty, &p.var_name(*var));
            match init {
                Some(i) => format!("{d} = {};", p.init(&ty, i)),
                None => format!("{d};"),
            }
        }
        StmtKind::If { cond, .. } => format!("if ({})", p.expr(cond, 0)),
        StmtKind::While { cond, .. } => format!("while ({})", p.expr(cond, 0)),
        StmtKind::DoWhile { cond, .. } => format!("do ... while ({})", p.expr(cond, 0)),
        StmtKind::For { cond, .. } => format!(
            "for (...; {}; ...)",
            cond.as_ref().map(|c| p.expr(c, 0)).unwrap_or_default()
        ),
        StmtKind::Switch { cond, .. } => format!("switch ({})", p.expr(cond, 0)),
        StmtKind::Return(Some(e)) => format!("return {};", p.expr(e, 0)),
        StmtKind::Return(None) => "return;".into(),
        StmtKind::Goto(l) => format!("goto {l};"),
        StmtKind::Break => "break;".into(),
        StmtKind::Continue => "continue;".into(),
        StmtKind::Label(l) => format!("{l}:"),
        StmtKind::Case { lo, .. } => format!("case {lo}:"),
        StmtKind::Default => "default:".into(),
        StmtKind::Block(_) => "{ ... }".into(),
        StmtKind::Skip => ";".into(),
    }
}

struct Printer<'a> {
    prog: &'a Program,
    dialect: &'a Dialect,
    opts: &'a PrintOptions,
    out: String,
    line_locs: Vec<Loc>,
    line_funcs: Vec<Option<FuncId>>,
    cur_func: Option<FuncId>,
    indent: usize,
    var_names: HashMap<VarId, String>,
    comp_tags: HashMap<CompId, String>,
    enum_tags: HashMap<EnumId, String>,
    /// Labels some `goto` in the current function targets.
    goto_targets: HashSet<String>,
}

impl<'a> Printer<'a> {
    fn new(prog: &'a Program, dialect: &'a Dialect, opts: &'a PrintOptions) -> Printer<'a> {
        let mut p = Printer::for_messages(prog, dialect, opts);
        p.assign_var_names();
        p
    }

    /// A printer for one expression or statement in a message: variables keep their
    /// source names. Whole-program naming (unique names for hoisted statics and locals)
    /// costs a pass over every variable and function, too much for each trace step.
    fn for_messages(
        prog: &'a Program,
        dialect: &'a Dialect,
        opts: &'a PrintOptions,
    ) -> Printer<'a> {
        let mut p = Printer {
            prog,
            dialect,
            opts,
            out: String::new(),
            line_locs: Vec::new(),
            line_funcs: Vec::new(),
            cur_func: None,
            indent: 0,
            var_names: HashMap::new(),
            comp_tags: HashMap::new(),
            enum_tags: HashMap::new(),
            goto_targets: HashSet::new(),
        };
        p.assign_tags();
        p
    }

    fn tt(&self) -> &TypeTable {
        &self.prog.types
    }

    fn finish(mut self) -> Printed {
        let lines = self.out.lines().count();
        self.line_locs.resize(lines, Loc::SYNTH);
        self.line_funcs.resize(lines, None);
        Printed {
            text: self.out,
            line_locs: self.line_locs,
            line_funcs: self.line_funcs,
        }
    }

    // ---- naming ---------------------------------------------------------------------

    fn assign_var_names(&mut self) {
        let prog = self.prog;
        let mut global_names: HashSet<String> = HashSet::new();
        for f in &prog.funcs {
            global_names.insert(f.name.clone());
        }
        for t in &prog.types.typedefs {
            global_names.insert(t.name.clone());
        }
        for e in &prog.types.enums {
            for (n, _) in &e.consts {
                global_names.insert(n.clone());
            }
        }
        // File-scope variables keep their names; block-scope statics are hoisted and
        // renamed only on a clash.
        for (i, v) in prog.vars.iter().enumerate() {
            if v.kind == VarKind::Global && v.func.is_none() {
                let name = unique(&v.name, &global_names);
                global_names.insert(name.clone());
                self.var_names.insert(VarId(i as u32), name);
            }
        }
        for (i, v) in prog.vars.iter().enumerate() {
            if v.kind == VarKind::Global && v.func.is_some() {
                let base = match v.func {
                    Some(f) => format!("{}__{}", prog.func(f).name, v.name),
                    None => v.name.clone(),
                };
                let name = unique(&base, &global_names);
                global_names.insert(name.clone());
                self.var_names.insert(VarId(i as u32), name);
            }
        }
        // Locals: unique within their function and distinct from any global the function
        // mentions (so a renamed copy never shadows what it reads).
        let mut by_func: HashMap<FuncId, Vec<VarId>> = HashMap::new();
        for (i, v) in prog.vars.iter().enumerate() {
            if matches!(v.kind, VarKind::Local | VarKind::Param) {
                if let Some(f) = v.func {
                    by_func.entry(f).or_default().push(VarId(i as u32));
                }
            }
        }
        let mut orphans: HashSet<String> = global_names.clone();
        for (i, v) in prog.vars.iter().enumerate() {
            if matches!(v.kind, VarKind::Local | VarKind::Param) && v.func.is_none() {
                let name = unique(&v.name, &orphans);
                orphans.insert(name.clone());
                self.var_names.insert(VarId(i as u32), name);
            }
        }
        for (f, vars) in by_func {
            let mut taken: HashSet<String> = HashSet::new();
            if let Some(body) = &prog.func(f).body {
                let mut names = MentionedGlobals {
                    prog,
                    out: &mut taken,
                };
                names.visit_stmt(body);
            }
            for g in &global_names {
                if prog.func_named(g).is_some() {
                    continue;
                }
                taken.insert(g.clone());
            }
            // Params first so that they keep their names.
            let mut ordered = vars.clone();
            ordered.sort_by_key(|v| (prog.var(*v).kind != VarKind::Param, v.0));
            for v in ordered {
                let name = unique(&prog.var(v).name, &taken);
                taken.insert(name.clone());
                self.var_names.insert(v, name);
            }
        }
    }

    fn assign_tags(&mut self) {
        let prog = self.prog;
        let mut tags: HashSet<String> = HashSet::new();
        for (i, c) in prog.types.comps.iter().enumerate() {
            let base = c.tag.clone().unwrap_or_else(|| format!("__anon{i}"));
            let name = unique(&base, &tags);
            tags.insert(name.clone());
            self.comp_tags.insert(CompId(i as u32), name);
        }
        for (i, e) in prog.types.enums.iter().enumerate() {
            let base = e.tag.clone().unwrap_or_else(|| format!("__anon_enum{i}"));
            let name = unique(&base, &tags);
            tags.insert(name.clone());
            self.enum_tags.insert(EnumId(i as u32), name);
        }
    }

    fn var_name(&self, v: VarId) -> String {
        self.var_names
            .get(&v)
            .cloned()
            .unwrap_or_else(|| match self.prog.vars.get(v.0 as usize) {
                Some(var) => var.name.clone(),
                None => format!("__v{}", v.0),
            })
    }

    // ---- output ---------------------------------------------------------------------

    fn line(&mut self, text: &str, loc: Loc) {
        for _ in 0..self.indent {
            self.out.push_str("  ");
        }
        self.out.push_str(text);
        if self.opts.loc_comments && !loc.is_synth() {
            if let Some(p) = self.prog.sources.position(loc) {
                let _ = write!(self.out, " /* {}:{} */", p.file, p.line);
            }
        }
        self.out.push('\n');
        self.line_locs.push(loc);
        self.line_funcs.push(self.cur_func);
    }

    fn raw_lines(&mut self, text: &str) {
        for l in text.lines() {
            self.out.push_str(l);
            self.out.push('\n');
            self.line_locs.push(Loc::SYNTH);
            self.line_funcs.push(None);
        }
    }

    // ---- program --------------------------------------------------------------------

    fn program(&mut self) {
        if let Some(h) = &self.opts.header {
            let h = h.clone();
            self.raw_lines(&h);
        }
        let prelude = self.dialect.prelude.clone();
        if !prelude.is_empty() && !self.opts.omit_prelude {
            self.raw_lines(&prelude);
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

    fn comp_def(&mut self, c: CompId) {
        let def = self.prog.types.comp(c).clone();
        let kw = if def.is_union { "union" } else { "struct" };
        self.line(&format!("{kw} {} {{", self.comp_tags[&c]), def.loc);
        self.indent += 1;
        self.fields(&def);
        self.indent -= 1;
        self.line("};", Loc::SYNTH);
    }

    fn fields(&mut self, def: &CompDef) {
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

    fn enum_def(&mut self, e: EnumId) {
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

    fn prototype(&mut self, f: FuncId) -> String {
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

    fn param_list(&self, fty: &FuncType, names: Option<&Vec<String>>) -> String {
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

    fn global(&mut self, v: VarId) {
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

    fn function(&mut self, f: FuncId) {
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

    // ---- statements -----------------------------------------------------------------

    fn stmt(&mut self, s: &Stmt) {
        match &s.kind {
            StmtKind::Decl { var, init } => {
                let name = self.var_name(*var);
                let ty = self.prog.var(*var).ty.clone();
                let d = self.declare(&ty, &name);
                let text = match init {
                    Some(i) => format!("{d} = {};", self.init(&ty, i)),
                    None => format!("{d};"),
                };
                self.line(&text, s.loc);
            }
            StmtKind::Expr(e) => {
                let t = self.expr(e, 0);
                self.line(&format!("{t};"), s.loc);
            }
            StmtKind::Block(ss) => {
                self.line("{", Loc::SYNTH);
                self.indent += 1;
                for x in ss {
                    self.stmt(x);
                }
                self.indent -= 1;
                self.line("}", Loc::SYNTH);
            }
            StmtKind::If { cond, then, els } => {
                let c = self.expr(cond, 0);
                self.line(&format!("if ({c})"), s.loc);
                self.sub(then);
                if let Some(e) = els {
                    self.line("else", Loc::SYNTH);
                    self.sub(e);
                }
            }
            StmtKind::While { cond, body } => {
                let c = self.expr(cond, 0);
                self.line(&format!("while ({c})"), s.loc);
                self.sub(body);
            }
            StmtKind::DoWhile { body, cond } => {
                self.line("do", s.loc);
                self.sub(body);
                let c = self.expr(cond, 0);
                self.line(&format!("while ({c});"), cond.loc);
            }
            StmtKind::For {
                init,
                cond,
                step,
                body,
            } => {
                // Declarations in the init clause need their own block to keep C89-safe
                // scoping and to allow several declarators of different types.
                let simple_init = init.len() <= 1
                    && init
                        .iter()
                        .all(|s| matches!(s.kind, StmtKind::Expr(_) | StmtKind::Decl { .. }));
                let c = cond.as_ref().map(|c| self.expr(c, 0)).unwrap_or_default();
                let st = step.as_ref().map(|c| self.expr(c, 0)).unwrap_or_default();
                if simple_init {
                    let i = match init.first() {
                        Some(s) => self.inline_stmt(s),
                        None => ";".to_string(),
                    };
                    self.line(&format!("for ({i} {c}; {st})"), s.loc);
                    self.sub(body);
                } else {
                    self.line("{", Loc::SYNTH);
                    self.indent += 1;
                    for x in init {
                        self.stmt(x);
                    }
                    self.line(&format!("for (; {c}; {st})"), s.loc);
                    self.sub(body);
                    self.indent -= 1;
                    self.line("}", Loc::SYNTH);
                }
            }
            StmtKind::Switch { cond, body } => {
                let c = self.expr(cond, 0);
                self.line(&format!("switch ({c})"), s.loc);
                self.sub(body);
            }
            StmtKind::Case { lo, hi } => {
                // Case labels are converted to the controlling type anyway: the plainest
                // literal that holds the value reads best.
                let lit = |v: i128| {
                    let k = if i32::try_from(v).is_ok() {
                        IntKind::Int
                    } else {
                        IntKind::LongLong
                    };
                    int_lit(v, k)
                };
                let t = if lo == hi {
                    format!("case {}:", lit(*lo))
                } else {
                    format!("case {} ... {}:", lit(*lo), lit(*hi))
                };
                self.indent = self.indent.saturating_sub(1);
                self.line(&format!("{t};"), s.loc);
                self.indent += 1;
            }
            StmtKind::Default => {
                self.indent = self.indent.saturating_sub(1);
                self.line("default: ;", s.loc);
                self.indent += 1;
            }
            StmtKind::Label(l) => {
                // Labels nothing jumps to (SV-COMP's `ERROR:`) would draw -Wunused-label,
                // and `label: __attribute__((unused));` is GNU C that not every checker's
                // front end reads: they mean nothing, so they are left out.
                if self.goto_targets.contains(l) {
                    self.indent = self.indent.saturating_sub(1);
                    self.line(&format!("{l}:;"), s.loc);
                    self.indent += 1;
                }
            }
            StmtKind::Goto(l) => self.line(&format!("goto {l};"), s.loc),
            StmtKind::Break => self.line("break;", s.loc),
            StmtKind::Continue => self.line("continue;", s.loc),
            StmtKind::Return(e) => {
                let t = match e {
                    Some(e) => format!("return {};", self.expr(e, 0)),
                    None => "return;".to_string(),
                };
                self.line(&t, s.loc);
            }
            StmtKind::Skip => self.line(";", s.loc),
        }
    }

    /// A sub-statement, always braced (so dangling else and declarations are safe).
    fn sub(&mut self, s: &Stmt) {
        match &s.kind {
            StmtKind::Block(_) => self.stmt(s),
            _ => {
                self.line("{", Loc::SYNTH);
                self.indent += 1;
                self.stmt(s);
                self.indent -= 1;
                self.line("}", Loc::SYNTH);
            }
        }
    }

    fn inline_stmt(&mut self, s: &Stmt) -> String {
        match &s.kind {
            StmtKind::Expr(e) => format!("{};", self.expr(e, 0)),
            StmtKind::Decl { var, init } => {
                let name = self.var_name(*var);
                let ty = self.prog.var(*var).ty.clone();
                let d = self.declare(&ty, &name);
                match init {
                    Some(i) => format!("{d} = {};", self.init(&ty, i)),
                    None => format!("{d};"),
                }
            }
            _ => ";".into(),
        }
    }

    // ---- types ----------------------------------------------------------------------

    fn base_name(&self, t: &Type) -> String {
        match t {
            Type::Void => "void".into(),
            Type::Int(k) => k.c_name().into(),
            Type::Float(k) => k.c_name().into(),
            Type::Comp(c) => {
                let kw = if self.tt().comp(*c).is_union {
                    "union"
                } else {
                    "struct"
                };
                format!("{kw} {}", self.comp_tags[c])
            }
            Type::Enum(e) => format!("enum {}", self.enum_tags[e]),
            Type::Typedef(t) => self.tt().typedef(*t).name.clone(),
            _ => "int".into(),
        }
    }

    /// A declaration of `name` with type `ty` (C's inside-out declarator syntax).
    fn declare(&self, ty: &Type, name: &str) -> String {
        match ty {
            Type::Pointer(p) => {
                let inner = format!("*{name}");
                match p.unqualified() {
                    Type::Array(..) | Type::Function(_) => {
                        self.declare_pointee(p, &format!("({inner})"))
                    }
                    _ => self.declare_pointee(p, &inner),
                }
            }
            Type::Array(e, n) => {
                let dim = n.map(|n| n.to_string()).unwrap_or_default();
                self.declare(e, &format!("{name}[{dim}]"))
            }
            Type::Function(f) => {
                let params = self.param_list(f, None);
                self.declare(&f.ret, &format!("{name}({params})"))
            }
            Type::Qualified(inner, q) => match inner.as_ref() {
                Type::Pointer(_) => {
                    let qs = quals_str(*q);
                    let n = if name.is_empty() {
                        qs.trim_end().to_string()
                    } else {
                        format!("{qs}{name}")
                    };
                    self.declare(inner, &n)
                }
                Type::Array(..) => self.declare(inner, name),
                other => {
                    let base = format!("{}{}", quals_str(*q), self.base_name(other));
                    join_decl(&base, name)
                }
            },
            t => join_decl(&self.base_name(t), name),
        }
    }

    fn declare_pointee(&self, p: &Type, inner: &str) -> String {
        self.declare(p, inner)
    }

    fn type_name(&self, ty: &Type) -> String {
        self.declare(ty, "")
    }

    fn type_key(&self, ty: &Type) -> String {
        match ty.resolve(self.tt()) {
            Type::Int(k) => match k {
                IntKind::Bool => "bool",
                IntKind::Char | IntKind::SChar => "char",
                IntKind::UChar => "uchar",
                IntKind::Short => "short",
                IntKind::UShort => "ushort",
                IntKind::Int => "int",
                IntKind::UInt => "uint",
                IntKind::Long => "long",
                IntKind::ULong => "ulong",
                IntKind::LongLong => "longlong",
                IntKind::ULongLong => "ulonglong",
                IntKind::Int128 => "longlong",
                IntKind::UInt128 => "ulonglong",
            }
            .into(),
            Type::Enum(_) => "int".into(),
            Type::Pointer(_) => "pointer".into(),
            Type::Float(FloatKind::Float) => "float".into(),
            Type::Float(_) => "double".into(),
            _ => "int".into(),
        }
    }

    // ---- expressions ----------------------------------------------------------------

    fn expr(&mut self, e: &Expr, min: u8) -> String {
        let (s, prec) = self.expr_prec(e);
        if prec < min { format!("({s})") } else { s }
    }

    fn expr_prec(&mut self, e: &Expr) -> (String, u8) {
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
            ExprKind::Unary(op, a) => {
                let o = match op {
                    UnOp::Neg => "-",
                    UnOp::BitNot => "~",
                    UnOp::LogNot => "!",
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
            ExprKind::SizeofExpr(a) => (format!("sizeof({})", self.expr(a, 0)), 14),
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

    fn stmt_inline_text(&mut self, s: &Stmt) -> String {
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
    fn access_prefix(&mut self, base: &Expr) -> (String, &'static str) {
        match &base.kind {
            ExprKind::Member(inner, idx) if self.field_is_anonymous(inner, *idx) => {
                self.access_prefix(inner)
            }
            ExprKind::Deref(p) => (self.expr(p, 15), "->"),
            _ => (self.expr(base, 15), "."),
        }
    }

    fn field_is_anonymous(&self, base: &Expr, idx: usize) -> bool {
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

    fn field_name(&self, base: &Expr, idx: usize) -> String {
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
    fn init(&mut self, ty: &Type, i: &Init) -> String {
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

struct MentionedGlobals<'a, 'b> {
    prog: &'a Program,
    out: &'b mut HashSet<String>,
}

impl Visitor for MentionedGlobals<'_, '_> {
    fn visit_expr(&mut self, e: &Expr) {
        if let ExprKind::Var(v) = e.kind {
            if self.prog.var(v).kind == VarKind::Global {
                self.out.insert(self.prog.var(v).name.clone());
            }
        }
        if let ExprKind::Func(f) = e.kind {
            self.out.insert(self.prog.func(f).name.clone());
        }
        visit::walk_expr(self, e)
    }
}

fn unique(base: &str, taken: &HashSet<String>) -> String {
    if !taken.contains(base) && !is_keyword(base) {
        return base.to_string();
    }
    (1..)
        .map(|i| format!("{base}_{i}"))
        .find(|n| !taken.contains(n))
        .unwrap_or_else(|| base.to_string())
}

fn is_keyword(s: &str) -> bool {
    matches!(
        s,
        "auto"
            | "break"
            | "case"
            | "char"
            | "const"
            | "continue"
            | "default"
            | "do"
            | "double"
            | "else"
            | "enum"
            | "extern"
            | "float"
            | "for"
            | "goto"
            | "if"
            | "inline"
            | "int"
            | "long"
            | "register"
            | "restrict"
            | "return"
            | "short"
            | "signed"
            | "sizeof"
            | "static"
            | "struct"
            | "switch"
            | "typedef"
            | "union"
            | "unsigned"
            | "void"
            | "volatile"
            | "while"
    )
}

fn join_decl(base: &str, name: &str) -> String {
    if name.is_empty() {
        base.to_string()
    } else {
        format!("{base} {name}")
    }
}

fn quals_str(q: Quals) -> String {
    let mut s = String::new();
    if q.konst {
        s.push_str("const ");
    }
    if q.volatile {
        s.push_str("volatile ");
    }
    if q.restrict {
        s.push_str("__restrict ");
    }
    s
}

fn bin_prec(op: BinOp) -> u8 {
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
struct Refs {
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

struct RefCollector<'a, 'b> {
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
            ExprKind::SizeofExpr(x) => self.visit_expr(x),
            ExprKind::Int(_) => {
                // Enum constants are folded to integers, but their enum type may matter
                // for printing; the expression's type covers it.
            }
            _ => {}
        }
        visit::walk_expr(self, e)
    }
}
