//! Names in the output: every variable, tag and label unique and no C keyword, so the
//! printed program means what the IR means.

use std::collections::{HashMap, HashSet};

use super::printer::Printer;
use crate::ir::syntax::*;
use crate::ir::types::*;
use crate::ir::visit::{self, Visitor};

impl<'a> Printer<'a> {
    pub(super) fn assign_var_names(&mut self) {
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

    pub(super) fn assign_tags(&mut self) {
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

    pub(super) fn var_name(&self, v: VarId) -> String {
        if self.source_names {
            if let Some(o) = self.origins.and_then(|o| o.get(&v)) {
                return o.clone();
            }
            if let Some(var) = self.prog.vars.get(v.0 as usize) {
                return var.shown_name().to_string();
            }
        }
        self.var_names
            .get(&v)
            .cloned()
            .unwrap_or_else(|| match self.prog.vars.get(v.0 as usize) {
                Some(var) => var.name.clone(),
                None => format!("__v{}", v.0),
            })
    }
}

pub(super) struct MentionedGlobals<'a, 'b> {
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

pub(super) fn unique(base: &str, taken: &HashSet<String>) -> String {
    if !taken.contains(base) && !is_keyword(base) {
        return base.to_string();
    }
    (1..)
        .map(|i| format!("{base}_{i}"))
        .find(|n| !taken.contains(n))
        .unwrap_or_else(|| base.to_string())
}

pub(super) fn is_keyword(s: &str) -> bool {
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
