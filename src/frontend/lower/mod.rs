//! Lowering lang-c's AST to the IR: name resolution, typing, implicit conversions,
//! initializers, and a location on everything.

mod atomic;
mod builtins;
mod c11_threads;
mod cancel;
mod errno;
mod expr;
mod init;
mod input;
mod key_destructors;
mod libc;
mod literal;
mod math;
mod memory;
mod realloc;
mod sleep;
mod spawn;
mod stdin;
mod stmt;
mod strings;
mod sync;
#[cfg(test)]
mod test_util;
mod types;
mod vla;

use std::collections::{HashMap, HashSet};

use lang_c::ast;
use lang_c::span::{Node, Span};

use super::FrontendError;
use super::linemap::Locator;
use super::preprocess::Preprocessed;
use crate::diagnostics::SourceSpot;
use crate::ir::*;

pub(super) type R<T> = Result<T, FrontendError>;

#[derive(Clone, Debug)]
enum Binding {
    Var(VarId),
    Func(FuncId),
    /// An enumeration constant: its value and type (int).
    Const(i128),
    Typedef(TypedefId),
}

#[derive(Clone, Copy, Debug)]
enum Tag {
    Comp(CompId),
    Enum(EnumId),
}

pub(super) struct Lowerer<'a, 'b> {
    prog: &'a mut Program,
    locator: &'a mut Locator<'b>,
    pp: &'a Preprocessed,
    scopes: Vec<HashMap<String, Binding>>,
    tags: Vec<HashMap<String, Tag>>,
    func: Option<FuncId>,
    ret_ty: Type,
    /// Labels defined and gotos seen in the current function, for checking targets.
    labels: Vec<String>,
    gotos: Vec<(String, Loc)>,
    /// True while lowering a body that sits in a system header.
    in_system: bool,
    /// The first atomic operation given a memory order weaker than `seq_cst` (checked as
    /// `seq_cst`): where, and which builtin and order.
    pub(super) weak_order: Option<(Loc, String)>,
    /// Calls to the program's own `atomic_begin` minus `atomic_end` so far in the current
    /// function, and whether it is an `__VERIFIER_atomic_*` function: atomic operations
    /// there get no section markers of their own (sections do not nest).
    atomic_depth: u32,
    in_atomic_fn: bool,
    /// Functions given an atomic section for an atomic operation.
    sectioned: HashSet<FuncId>,
    /// Direct calls made inside an atomic section (see `atomic_depth`).
    calls_in_sections: Vec<(FuncId, Loc)>,
    /// `<stdatomic.h>`'s own `__auto_type __atomic_*_ptr = (&x);` variables, never
    /// assigned again: the object they point to, so the lowered operation names `x`.
    header_ptrs: HashMap<VarId, Expr>,
    /// C11 `atomic_*` functions called without any declaration, taken as C11's.
    c11_calls: Vec<(String, Loc)>,
    /// The init routines given to `pthread_once`, and where (see `sync`).
    once_routines: Vec<(FuncId, Loc)>,
    /// The library's `pthread_barrier_wait` and `pthread_once`, and C11's `<threads.h>`
    /// functions, lowered at these calls.
    lowered_sync: Vec<(FuncId, Loc)>,
    /// The start routines given to C11's `thrd_create`, and where (see `c11_threads`).
    c11_starts: HashMap<FuncId, Vec<Loc>>,
    /// Variable-length locals, now pointers (see `vla`).
    vlas: HashMap<VarId, vla::Vla>,
    /// Inside a prototype's parameter list (array lengths may name earlier parameters).
    in_parameters: u32,
    /// Locals handed to a `__CPROVER_ASYNC_` statement as copies: the spawner, the
    /// local, where, and the label (see `spawn`).
    spawn_copies: Vec<spawn::SpawnCopy>,
    /// Whether the unit cancels threads or pushes cleanup handlers, and the variables of
    /// their model (see `cancel`).
    cancel_use: cancel::CancelUse,
    cancel_vars: cancel::CancelVars,
    /// `main`'s second parameter while `main`'s body is lowered (see `input`).
    argv: Option<VarId>,
    /// The numbers read from `argv`'s strings so far, one memo per string (see `input`).
    argv_memos: Vec<input::ArgvMemo>,
    /// The globals of the clock that `time` and its relatives read (`libc`), once one is
    /// read.
    clock: Option<libc::Clock>,
    /// Whether the unit uses `errno`, and its thread-local variable once made (see
    /// `errno`).
    errno_used: bool,
    errno: Option<VarId>,
    /// The sizes kept beside the pointers given to `realloc` (see `realloc`).
    sizes: realloc::Sizes,
}

pub(super) fn lower(
    unit: &ast::TranslationUnit,
    prog: &mut Program,
    locator: &mut Locator,
    pp: &Preprocessed,
) -> R<Option<(Loc, String)>> {
    let mut l = Lowerer {
        prog,
        locator,
        pp,
        scopes: vec![HashMap::new()],
        tags: vec![HashMap::new()],
        func: None,
        ret_ty: Type::Void,
        labels: vec![],
        gotos: vec![],
        in_system: false,
        weak_order: None,
        atomic_depth: 0,
        in_atomic_fn: false,
        sectioned: HashSet::new(),
        calls_in_sections: vec![],
        header_ptrs: HashMap::new(),
        c11_calls: vec![],
        once_routines: vec![],
        lowered_sync: vec![],
        c11_starts: HashMap::new(),
        vlas: HashMap::new(),
        in_parameters: 0,
        spawn_copies: vec![],
        cancel_use: cancel::CancelUse::of(unit),
        cancel_vars: cancel::CancelVars::default(),
        argv: None,
        argv_memos: vec![],
        clock: None,
        errno_used: errno::uses_errno(unit),
        errno: None,
        sizes: realloc::Sizes::default(),
    };
    for ext in &unit.0 {
        l.external(ext)?;
    }
    l.track_realloc_sizes()?;
    l.refuse_nested_sections()?;
    l.refuse_redefined_c11_functions()?;
    l.refuse_once_routines_that_exit()?;
    l.retype_c11_start_routines()?;
    l.refuse_observable_key_destructors()?;
    l.refuse_blocked_cancellation()?;
    Ok(l.weak_order.take())
}

impl Lowerer<'_, '_> {
    // ---- locations and errors -------------------------------------------------------

    fn loc(&mut self, span: Span) -> Loc {
        let off = self.pp.raw_offset(span.start);
        self.locator.loc(off, &mut self.prog.sources)
    }

    fn spot(&mut self, span: Span, msg: impl Into<String>) -> SourceSpot {
        let loc = self.loc(span);
        let msg: String = msg.into();
        SourceSpot::at(&self.prog.sources, loc, super::identifiers::unmangle(&msg))
    }

    fn unsupported(&mut self, span: Span, what: impl Into<String>) -> FrontendError {
        let s = self.spot(span, what);
        FrontendError::Unsupported(s.with_note(
            "seqloc supports the C that SV-COMP's pthread tasks use; see README \"Supported C\"",
        ))
    }

    fn error(&mut self, span: Span, msg: impl Into<String>) -> FrontendError {
        FrontendError::Semantic(self.spot(span, msg))
    }

    // ---- scopes ---------------------------------------------------------------------

    fn push_scope(&mut self) {
        self.scopes.push(HashMap::new());
        self.tags.push(HashMap::new());
    }

    fn pop_scope(&mut self) {
        self.scopes.pop();
        self.tags.pop();
    }

    fn lookup(&self, name: &str) -> Option<&Binding> {
        self.scopes.iter().rev().find_map(|s| s.get(name))
    }

    /// Whether `name` is, so far, a function the program defines itself (whose calls are
    /// its own, never one of the library's that the front end models).
    fn defines_function(&self, name: &str) -> bool {
        matches!(self.lookup(name), Some(Binding::Func(f)) if self.prog.func(*f).body.is_some())
    }

    fn bind(&mut self, name: &str, b: Binding) {
        if let Some(s) = self.scopes.last_mut() {
            s.insert(name.to_string(), b);
        }
    }

    fn lookup_tag(&self, name: &str) -> Option<Tag> {
        self.tags.iter().rev().find_map(|s| s.get(name).copied())
    }

    /// `e` evaluated into `out` for its side effects only, when it has any: an argument
    /// of a modelled call whose value the model does not use.
    fn keep_effects(e: Expr, out: &mut Vec<Stmt>, loc: Loc) {
        if crate::analysis::shared::has_effects(&e) {
            out.push(crate::ir::build::expr_stmt(e, loc, StmtId::NONE));
        }
    }

    /// A new local of the current function initialized to `init` (converted to `ty`),
    /// declared into `out`; its value. The lowerings that expand a call into statements
    /// (`atomic`, `libc`, `memory`) hold their temporaries in these.
    fn declare_temp(
        &mut self,
        hint: &str,
        ty: &Type,
        init: Expr,
        out: &mut Vec<Stmt>,
        loc: Loc,
    ) -> Expr {
        let v = self.prog.new_local(self.func, hint, ty.clone(), loc);
        let init = self.conv(init, ty);
        out.push(Stmt::new(
            StmtKind::Decl {
                var: v,
                init: Some(Init::Expr(init)),
            },
            loc,
        ));
        Expr::var(v, self.prog, loc)
    }

    fn at_file_scope(&self) -> bool {
        self.scopes.len() == 1
    }

    fn tt(&self) -> &TypeTable {
        &self.prog.types
    }

    fn dm(&self) -> DataModel {
        self.prog.data_model
    }

    // ---- external declarations ------------------------------------------------------

    fn external(&mut self, ext: &Node<ast::ExternalDeclaration>) -> R<()> {
        match &ext.node {
            ast::ExternalDeclaration::Declaration(d) => match self.declaration(d) {
                Ok(_) => Ok(()),
                // A system header's declaration of something seqloc does not model
                // (glibc's `_Float32` prototypes under `_GNU_SOURCE`): left undeclared, so
                // a program that uses it is refused at the use, by name.
                Err(FrontendError::Unsupported(_))
                    if {
                        let loc = self.loc(d.span);
                        self.prog.sources.is_system(loc)
                    } =>
                {
                    Ok(())
                }
                Err(e) => Err(e),
            },
            ast::ExternalDeclaration::StaticAssert(_) => Ok(()),
            ast::ExternalDeclaration::FunctionDefinition(f) => self.function_definition(f),
        }
    }

    /// Lowers a declaration; at block scope returns the `Decl` statements it produces.
    /// `PTHREAD_MUTEX_INITIALIZER` is all zeros; any other constant initializer of a
    /// mutex (glibc's `PTHREAD_RECURSIVE_MUTEX_INITIALIZER_NP`, `..._ERRORCHECK_...`)
    /// chooses a mutex kind the sequentialization's rules do not model (a recursive
    /// mutex locked twice would be reported as a deadlock).
    fn refuse_mutex_kind(&mut self, ty: &Type, init: &Init, span: Span) -> R<()> {
        fn nonzero(i: &Init) -> bool {
            match i {
                Init::Expr(e) => e.as_int().is_some_and(|v| v != 0),
                Init::List(items) => items.iter().any(|it| nonzero(&it.init)),
            }
        }
        let mut t = ty;
        let is_mutex = loop {
            match t {
                Type::Typedef(id) => {
                    let def = self.tt().typedef(*id);
                    if def.name == "pthread_mutex_t" {
                        break true;
                    }
                    t = &def.ty;
                }
                Type::Qualified(inner, _) | Type::Array(inner, _) => t = inner,
                _ => break false,
            }
        };
        if is_mutex && nonzero(init) {
            return Err(self.unsupported(
                span,
                "a mutex initializer other than PTHREAD_MUTEX_INITIALIZER (a recursive or \
                 error-checking mutex): only the default mutex type is modelled",
            ));
        }
        Ok(())
    }

    fn declaration(&mut self, d: &Node<ast::Declaration>) -> R<Vec<Stmt>> {
        if let Some(stmts) = self.auto_type_declaration(d)? {
            return Ok(stmts);
        }
        let specs = self.specifiers(&d.node.specifiers, d.span)?;
        let mut out = Vec::new();
        for id in &d.node.declarators {
            let decl = self.declarator(specs.ty.clone(), &id.node.declarator)?;
            let Some(name) = decl.name.clone() else {
                continue;
            };
            let loc = decl.loc;
            if decl.vla && !decl.ty.is_function(self.tt()) {
                let what = if specs.storage == Some(ast::StorageClassSpecifier::Typedef) {
                    "a variable-length array type in a typedef"
                } else if self.at_file_scope()
                    || specs.storage == Some(ast::StorageClassSpecifier::Extern)
                    || specs.storage == Some(ast::StorageClassSpecifier::Static)
                {
                    "a variable-length array with static storage (C forbids it)"
                } else {
                    ""
                };
                if !what.is_empty() {
                    return Err(self.unsupported(id.span, format!("`{name}`: {what}")));
                }
            }
            if specs.storage == Some(ast::StorageClassSpecifier::Typedef) {
                let tid = TypedefId(self.prog.types.typedefs.len() as u32);
                self.prog.types.typedefs.push(TypedefDef {
                    name: name.clone(),
                    ty: decl.ty.clone(),
                    loc,
                });
                self.prog.items.push(Item::Typedef(tid));
                self.bind(&name, Binding::Typedef(tid));
                continue;
            }
            if decl.ty.is_function(self.tt()) {
                self.declare_function(&name, &decl, &specs, loc);
                continue;
            }
            let is_extern = specs.storage == Some(ast::StorageClassSpecifier::Extern);
            let is_static = specs.storage == Some(ast::StorageClassSpecifier::Static);
            if self.at_file_scope() || is_extern || is_static {
                let vid = self.declare_global(&name, &decl, &specs, loc)?;
                if let Some(init) = &id.node.initializer {
                    // A second initializer is a second definition: C (and gcc) refuse it,
                    // and taking either value would be a guess.
                    if self.prog.var(vid).init.is_some() {
                        return Err(self.error(
                            id.span,
                            format!(
                                "redefinition of `{name}`: it already has an initializer (C allows one definition per object)"
                            ),
                        ));
                    }
                    let ty = self.prog.var(vid).ty.clone();
                    let (ty, init) = self.initializer(&ty, init)?;
                    self.refuse_mutex_kind(&ty, &init, id.span)?;
                    if let Some(what) = runs_at_run_time(&init) {
                        return Err(self.error(
                            id.span,
                            format!(
                                "the initializer of `{name}`, which has static storage, is not a constant: it {what} (C allows only constant expressions there)"
                            ),
                        ));
                    }
                    let v = self.prog.var_mut(vid);
                    v.ty = ty;
                    v.init = Some(init);
                    v.is_extern = false;
                }
                continue;
            }
            // A local variable.
            if decl.vla {
                let init = id.node.initializer.is_some();
                out.extend(self.vla_local(&name, &decl, init, id.span)?);
                continue;
            }
            if let Type::Array(_, None) = decl.ty.resolve(self.tt()) {
                if id.node.initializer.is_none() {
                    return Err(self.error(
                        id.span,
                        format!("array `{name}` has no size and no initializer"),
                    ));
                }
            }
            let vid = self.prog.add_var(Var {
                name: name.clone(),
                ty: decl.ty.clone(),
                kind: VarKind::Local,
                func: self.func,
                is_static: false,
                is_extern: false,
                thread_local: false,
                init: None,
                loc,
                source_name: None,
            });
            // The variable is in scope in its own initializer (C11 6.2.1p7).
            self.bind(&name, Binding::Var(vid));
            let init = match &id.node.initializer {
                Some(init) => {
                    let ty = decl.ty.clone();
                    let (ty, init) = self.initializer(&ty, init)?;
                    self.refuse_mutex_kind(&ty, &init, id.span)?;
                    self.prog.var_mut(vid).ty = ty;
                    Some(init)
                }
                None => None,
            };
            out.push(Stmt::new(StmtKind::Decl { var: vid, init }, loc));
        }
        Ok(out)
    }

    /// GCC's `__auto_type x = e;` (see `preprocess::AUTO_TYPE_DECL`): `x` has the type of
    /// `e` after lvalue conversion (unqualified, arrays decayed). The
    /// parser's own declaration of the name is dropped. `None`: not such a declaration.
    fn auto_type_declaration(&mut self, d: &Node<ast::Declaration>) -> R<Option<Vec<Stmt>>> {
        let auto = d.node.specifiers.iter().any(|s| {
            matches!(&s.node, ast::DeclarationSpecifier::TypeSpecifier(ts)
                if matches!(&ts.node, ast::TypeSpecifier::TypedefName(id) if id.node.name == "__auto_type"))
        });
        if !auto {
            return Ok(None);
        }
        let typedef = d.node.specifiers.iter().any(|s| {
            matches!(
                &s.node,
                ast::DeclarationSpecifier::StorageClass(sc)
                    if sc.node == ast::StorageClassSpecifier::Typedef
            )
        });
        if typedef {
            return Ok(Some(vec![]));
        }
        if self.at_file_scope() || d.node.declarators.len() != 1 {
            return Err(self.unsupported(
                d.span,
                "`__auto_type` outside a function or with several declarators",
            ));
        }
        let id = &d.node.declarators[0];
        let (name, loc) = match &id.node.declarator.node.kind.node {
            ast::DeclaratorKind::Identifier(n) if id.node.declarator.node.derived.is_empty() => {
                let loc = self.loc(n.span);
                (n.node.name.clone(), loc)
            }
            _ => {
                return Err(self.unsupported(d.span, "`__auto_type` with a declarator"));
            }
        };
        let Some(ast::Initializer::Expression(init)) =
            id.node.initializer.as_ref().map(|i| &i.node)
        else {
            return Err(self.error(d.span, "`__auto_type` needs an expression initializer"));
        };
        // Function designators are already pointers here, and `rvalue` decays arrays.
        let e = self.rvalue(init)?;
        let ty = e.ty.unqualified().clone();
        let vid = self.prog.add_var(Var {
            name: name.clone(),
            ty: ty.clone(),
            kind: VarKind::Local,
            func: self.func,
            is_static: false,
            is_extern: false,
            thread_local: false,
            init: None,
            loc,
            source_name: None,
        });
        let e = self.conv(e, &ty);
        if name.starts_with("__atomic_") {
            if let ExprKind::AddrOf(lv) = &e.peel().kind {
                if atomic::is_stable(lv) {
                    self.header_ptrs.insert(vid, (**lv).clone());
                }
            }
        }
        self.bind(&name, Binding::Var(vid));
        Ok(Some(vec![Stmt::new(
            StmtKind::Decl {
                var: vid,
                init: Some(Init::Expr(e)),
            },
            loc,
        )]))
    }

    /// An atomic operation reached through a call from inside an atomic section would
    /// end that section early (the sequentializer's per-thread flag does not nest), so
    /// such a program is refused at the call.
    fn refuse_nested_sections(&mut self) -> R<()> {
        if self.sectioned.is_empty() || self.calls_in_sections.is_empty() {
            return Ok(());
        }
        let mut callees: HashMap<FuncId, Vec<FuncId>> = HashMap::new();
        for (i, f) in self.prog.funcs.iter().enumerate() {
            let Some(body) = &f.body else { continue };
            let mut out = Vec::new();
            crate::ir::visit::each_expr(body, &mut |e| {
                if let ExprKind::Call(c, _) = &e.kind {
                    if let ExprKind::Func(g) = c.peel().kind {
                        out.push(g);
                    }
                }
            });
            callees.insert(FuncId(i as u32), out);
        }
        for (f, loc) in self.calls_in_sections.clone() {
            let mut seen = HashSet::from([f]);
            let mut todo = vec![f];
            while let Some(g) = todo.pop() {
                if self.sectioned.contains(&g) {
                    let name = self.prog.func(f).name.clone();
                    let spot = SourceSpot::at(
                        &self.prog.sources,
                        loc,
                        format!(
                            "`{name}` runs an atomic operation (C11 or `__atomic_*`/`__sync_*`) \
                             inside an atomic section: nested atomic sections are not modelled"
                        ),
                    );
                    return Err(FrontendError::Unsupported(spot));
                }
                for h in callees.get(&g).into_iter().flatten() {
                    if seen.insert(*h) {
                        todo.push(*h);
                    }
                }
            }
        }
        Ok(())
    }

    /// A C11 `atomic_*` name called before any declaration was taken as C11's function;
    /// if the program defines a function of that name after all, that call meant the
    /// program's own: refused rather than given the wrong meaning.
    fn refuse_redefined_c11_functions(&mut self) -> R<()> {
        for (name, loc) in &self.c11_calls {
            if self
                .prog
                .funcs
                .iter()
                .any(|f| &f.name == name && f.body.is_some())
            {
                let spot = SourceSpot::at(
                    &self.prog.sources,
                    *loc,
                    format!(
                        "`{name}` is called before its declaration and defined by the program: \
                         declare it before the call (seqloc took the call for C11's `{name}`)"
                    ),
                );
                return Err(FrontendError::Semantic(spot));
            }
        }
        Ok(())
    }

    fn declare_function(&mut self, name: &str, decl: &Declared, specs: &Specs, loc: Loc) -> FuncId {
        let fty = match decl.ty.resolve(self.tt()) {
            Type::Function(f) => (**f).clone(),
            _ => FuncType {
                ret: Type::int(),
                params: vec![],
                variadic: false,
                unprototyped: true,
            },
        };
        // Functions always have file scope, even when declared in a block.
        let existing = self.scopes[0].get(name).cloned();
        if let Some(Binding::Func(fid)) = existing {
            let f = self.prog.func_mut(fid);
            if f.ty.unprototyped && !fty.unprototyped {
                f.ty = fty;
            }
            f.noreturn |= specs.noreturn;
            if !self.at_file_scope() {
                self.bind(name, Binding::Func(fid));
            }
            return fid;
        }
        let fid = self.prog.add_func(Function {
            name: name.to_string(),
            ty: fty,
            params: vec![],
            body: None,
            is_static: specs.storage == Some(ast::StorageClassSpecifier::Static),
            is_inline: specs.inline,
            noreturn: specs.noreturn,
            loc,
            unsupported: None,
        });
        self.prog.items.push(Item::Func(fid));
        self.scopes[0].insert(name.to_string(), Binding::Func(fid));
        if !self.at_file_scope() {
            self.bind(name, Binding::Func(fid));
        }
        fid
    }

    fn declare_global(&mut self, name: &str, decl: &Declared, specs: &Specs, loc: Loc) -> R<VarId> {
        let is_extern = specs.storage == Some(ast::StorageClassSpecifier::Extern);
        let is_static = specs.storage == Some(ast::StorageClassSpecifier::Static);
        let block_static = is_static && !self.at_file_scope();
        if !block_static {
            // File-scope (or block-scope extern) declarations of one name are one object.
            if let Some(Binding::Var(vid)) = self.scopes[0].get(name).cloned() {
                let tt = self.prog.types.clone();
                let v = self.prog.var_mut(vid);
                if let (Type::Array(_, None), Type::Array(_, Some(_))) =
                    (v.ty.resolve(&tt), decl.ty.resolve(&tt))
                {
                    v.ty = decl.ty.clone();
                }
                if !is_extern {
                    v.is_extern = false;
                    v.loc = loc;
                }
                v.thread_local |= specs.thread_local;
                if !self.at_file_scope() {
                    self.bind(name, Binding::Var(vid));
                }
                return Ok(vid);
            }
        }
        let vid = self.prog.add_var(Var {
            name: name.to_string(),
            ty: decl.ty.clone(),
            kind: VarKind::Global,
            func: if block_static { self.func } else { None },
            is_static,
            is_extern,
            thread_local: specs.thread_local,
            init: None,
            loc,
            source_name: None,
        });
        self.prog.items.push(Item::Var(vid));
        if block_static {
            self.bind(name, Binding::Var(vid));
        } else {
            self.scopes[0].insert(name.to_string(), Binding::Var(vid));
            if !self.at_file_scope() {
                self.bind(name, Binding::Var(vid));
            }
        }
        Ok(vid)
    }

    fn function_definition(&mut self, f: &Node<ast::FunctionDefinition>) -> R<()> {
        let specs = self.specifiers(&f.node.specifiers, f.span)?;
        if !f.node.declarations.is_empty() {
            return Err(self.unsupported(f.span, "K&R-style function definition"));
        }
        let decl = self.declarator(specs.ty.clone(), &f.node.declarator)?;
        let Some(name) = decl.name.clone() else {
            return Err(self.error(f.span, "function definition without a name"));
        };
        if !decl.ty.is_function(self.tt()) {
            return Err(self.error(
                f.span,
                format!("`{name}` is defined like a function but is not one"),
            ));
        }
        let loc = decl.loc;
        let fid = self.declare_function(&name, &decl, &specs, loc);
        {
            // The definition's own prototype wins.
            if let Type::Function(fty) = decl.ty.resolve(&self.prog.types).clone() {
                let func = self.prog.func_mut(fid);
                if !fty.unprototyped || func.ty.unprototyped {
                    func.ty = *fty;
                }
                func.loc = loc;
                func.is_inline |= specs.inline;
            }
        }
        let system = self.prog.sources.is_system(loc);
        self.in_system = system;
        let result = self.function_body(fid, &decl, &f.node.statement);
        self.in_system = false;
        match result {
            Ok(()) => Ok(()),
            Err(e) if system => {
                // A system-header helper seqloc cannot model: keep it declared only, and
                // say why if the program ever uses it.
                let what = e.to_string();
                let func = self.prog.func_mut(fid);
                func.body = None;
                func.unsupported = Some((what, loc));
                self.func = None;
                while self.scopes.len() > 1 {
                    self.pop_scope();
                }
                Ok(())
            }
            Err(e) => Err(e),
        }
    }

    fn function_body(
        &mut self,
        fid: FuncId,
        decl: &Declared,
        body: &Node<ast::Statement>,
    ) -> R<()> {
        self.func = Some(fid);
        self.ret_ty = self.prog.func(fid).ty.ret.clone();
        self.atomic_depth = 0;
        self.in_atomic_fn = crate::ir::known::is_atomic_function(&self.prog.func(fid).name);
        self.labels.clear();
        self.gotos.clear();
        self.cancel_vars.handlers.clear();
        self.push_scope();
        let mut params = Vec::new();
        let ptys = self.prog.func(fid).ty.params.clone();
        for (i, p) in decl.params.iter().enumerate() {
            let ty = ptys.get(i).cloned().unwrap_or_else(|| p.ty.clone());
            let name = p.name.clone().unwrap_or_else(|| format!("__param{i}"));
            let vid = self.prog.new_param(fid, &name, ty, p.loc);
            if let Some(n) = &p.name {
                self.bind(n, Binding::Var(vid));
            }
            params.push(vid);
        }
        self.argv = (self.prog.func(fid).name == "main")
            .then(|| params.get(1).copied())
            .flatten();
        // `__func__` and friends.
        let name = self.prog.func(fid).name.clone();
        let mut body_stmt = self.statement(body)?;
        self.pop_scope();
        self.argv = None;
        if name == "main" {
            body_stmt = self.main_inputs(&params, decl, body_stmt);
        }
        self.check_spawn_copies(fid, &params, &mut body_stmt)?;
        for (label, loc) in std::mem::take(&mut self.gotos) {
            if !self.labels.contains(&label) {
                let s = SourceSpot::at(
                    &self.prog.sources,
                    loc,
                    format!("`goto {label}` in `{name}` has no matching label"),
                );
                return Err(FrontendError::Semantic(s));
            }
        }
        let func = self.prog.func_mut(fid);
        func.params = params;
        func.body = Some(body_stmt);
        self.func = None;
        Ok(())
    }
}

/// What a declarator declares.
#[derive(Clone, Debug)]
pub(super) struct Declared {
    pub name: Option<String>,
    pub ty: Type,
    pub loc: Loc,
    /// Parameters of the outermost function declarator (for definitions).
    pub params: Vec<ParamDecl>,
    /// An array dimension was not a constant.
    pub vla: bool,
    /// The length of the outermost array, when it is the only variable one (what a
    /// variable-length local array needs: `vla`).
    pub vla_len: Option<Expr>,
}

#[derive(Clone, Debug)]
pub(super) struct ParamDecl {
    pub name: Option<String>,
    pub ty: Type,
    pub loc: Loc,
}

#[derive(Clone, Debug)]
pub(super) struct Specs {
    pub ty: Type,
    pub storage: Option<ast::StorageClassSpecifier>,
    pub inline: bool,
    pub noreturn: bool,
    pub thread_local: bool,
}

/// What in an initializer of an object with static storage would have to run: a call, an
/// assignment, an increment, a statement expression. C rejects them (the initializer must
/// be a constant expression), and the engines evaluate such an initializer before any
/// thread starts, where a call has no frame to run in.
fn runs_at_run_time(init: &Init) -> Option<&'static str> {
    struct Find(Option<&'static str>);
    impl crate::ir::visit::Visitor for Find {
        fn visit_expr(&mut self, e: &Expr) {
            if self.0.is_some() {
                return;
            }
            self.0 = match e.kind {
                ExprKind::Call(..) => Some("calls a function"),
                ExprKind::Assign(..) | ExprKind::OpAssign { .. } | ExprKind::IncDec { .. } => {
                    Some("assigns a variable")
                }
                ExprKind::StmtExpr(_) => Some("runs statements"),
                _ => None,
            };
            crate::ir::visit::walk_expr(self, e)
        }
    }
    let mut f = Find(None);
    crate::ir::visit::Visitor::visit_init(&mut f, init);
    f.0
}

/// `__VERIFIER_assume(cond)` as a statement at `loc`: what the library models promise.
fn assume(cond: Expr, loc: Loc) -> Stmt {
    crate::ir::build::expr_stmt(
        crate::ir::build::intrinsic(Intrinsic::Assume, vec![cond], loc),
        loc,
        StmtId::NONE,
    )
}

/// Every statement and expression of `stmts` made up without a location (`Loc::SYNTH`)
/// gets `loc`: the lowerings that write a library call out as code (`stdin`, `strings`)
/// build with `ir::build`, whose pieces have none, and a schedule's switch point or a
/// candidate in that code must name the call's line.
fn locate(stmts: &mut [Stmt], loc: Loc) {
    use crate::ir::visit::{VisitorMut, walk_expr_mut, walk_stmt_mut};
    struct L(Loc);
    impl VisitorMut for L {
        fn visit_stmt(&mut self, s: &mut Stmt) {
            if s.loc.is_synth() {
                s.loc = self.0;
            }
            walk_stmt_mut(self, s)
        }
        fn visit_expr(&mut self, e: &mut Expr) {
            if e.loc.is_synth() {
                e.loc = self.0;
            }
            walk_expr_mut(self, e)
        }
    }
    let mut l = L(loc);
    for s in stmts {
        l.visit_stmt(s);
    }
}

#[cfg(test)]
mod tests {
    use crate::ir::types::DataModel;

    /// A global initialized by a call once reached the engines, which evaluate globals
    /// before any thread runs (a placeholder variable id escaped: the pipeline fuzzer).
    #[test]
    fn a_static_initializer_that_runs_code_is_refused() {
        for (src, what) in [
            (
                "int f(void) { return 1; } int g = f(); int main(void) { return g; }",
                "calls",
            ),
            (
                "int a; int g = (a = 2); int main(void) { return g; }",
                "assigns",
            ),
            (
                "int f(void) { return 1; } int main(void) { static int s = f(); return s; }",
                "calls",
            ),
        ] {
            let e = crate::frontend::load_text("t.c", src, DataModel::Lp64)
                .map(|_| ())
                .expect_err("refused")
                .to_string();
            assert!(e.contains("not a constant") && e.contains(what), "{e}");
        }
        crate::frontend::load_text(
            "t.c",
            "int a; int *p = &a; int n = sizeof(int) * 2; int main(void) { return *p + n; }",
            DataModel::Lp64,
        )
        .expect("constant initializers lower");
    }

    /// Two initializers of one object are two definitions: gcc refuses the file, and a
    /// verdict on either value would be a guess (a repair once declared its new mutex
    /// twice and the program still checked). Tentative and `extern` declarations beside
    /// one definition stay allowed.
    #[test]
    fn a_second_definition_with_an_initializer_is_refused() {
        let e = crate::frontend::load_text(
            "t.c",
            "int x = 1; int x = 2; int main(void) { return x; }",
            DataModel::Lp64,
        )
        .map(|_| ())
        .expect_err("refused")
        .to_string();
        assert!(e.contains("redefinition of `x`"), "{e}");
        crate::frontend::load_text(
            "t.c",
            "extern int x; int x; int x = 1; int x; int main(void) { return x; }",
            DataModel::Lp64,
        )
        .expect("one definition and declarations lower");
    }

    /// A mutant the pipeline fuzzer made, `pthread_mutex_lock(m)` with the mutex itself,
    /// reached symbolic execution as a 40-byte value stored through a pointer and made
    /// Z3 panic (an `extract` past its width): values C does not allow where they stand
    /// are refused.
    #[test]
    fn values_of_incompatible_types_and_wrong_argument_counts_are_refused() {
        let head = "struct S { int a; }; struct T { int a; };                    int f(int *p); int g(struct S s); int v(int n, ...);
";
        for (body, what) in [
            ("struct S s; f(s);", "argument 1"),
            ("struct S s; struct T t; g(t);", "argument 1"),
            ("int x; g(x);", "argument 1"),
            ("struct S s; int x; x = s;", "assignment"),
            ("f();", "called with 0 argument(s)"),
            ("int x; f(&x, 2);", "called with 2"),
            ("v();", "takes 1 or more"),
            ("struct S s; int x = (int)s;", "cast"),
        ] {
            let src = format!("{head}int main(void) {{ {body} return 0; }}");
            let e = crate::frontend::load_text("t.c", &src, DataModel::Lp64)
                .map(|_| ())
                .expect_err(body)
                .to_string();
            assert!(e.contains(what), "{body}: {e}");
        }
        let e = crate::frontend::load_text(
            "t.c",
            "struct S { int a; }; int h(struct S s) { return s; } int main(void) { return 0; }",
            DataModel::Lp64,
        )
        .map(|_| ())
        .expect_err("return")
        .to_string();
        assert!(e.contains("return"), "{e}");
        crate::frontend::load_text(
            "t.c",
            &format!(
                "{head}int f(int *p) {{ return *p; }} int g(struct S s) {{ return s.a; }}                 int v(int n, ...) {{ return n; }}                 int main(void) {{ struct S s = {{1}}; const struct S c = s; int x = 0;                 s = c; (void)s; return f(&x) + g(c) + v(1, 2, 3); }}"
            ),
            DataModel::Lp64,
        )
        .expect("compatible values lower");
    }
}
