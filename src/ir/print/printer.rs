//! The printer's state, and its output: each line with the location and function it
//! prints, which is how a checker's trace is mapped back to the user's lines.

use std::collections::{HashMap, HashSet};
use std::fmt::Write;

use crate::ir::Loc;
use crate::ir::dialect::Dialect;
use crate::ir::syntax::*;
use crate::ir::types::*;

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
    /// Statements that print no line (a label nothing jumps to): the line map must not
    /// count them among the statements of their location.
    pub omitted: Vec<StmtId>,
}

pub(super) struct Printer<'a> {
    pub(super) prog: &'a Program,
    pub(super) dialect: &'a Dialect,
    pub(super) opts: &'a PrintOptions,
    pub(super) out: String,
    pub(super) line_locs: Vec<Loc>,
    pub(super) line_funcs: Vec<Option<FuncId>>,
    pub(super) cur_func: Option<FuncId>,
    pub(super) indent: usize,
    pub(super) var_names: HashMap<VarId, String>,
    pub(super) comp_tags: HashMap<CompId, String>,
    pub(super) enum_tags: HashMap<EnumId, String>,
    /// Labels some `goto` in the current function targets.
    pub(super) goto_targets: HashSet<String>,
    /// Statements printed as no line (see [`Printed::omitted`]).
    pub(super) omitted: Vec<StmtId>,
    /// Variables printed by the names the user's source gives them (`t` for a thread's
    /// copy `t_1`): for what a person reads, never for a program a compiler reads.
    pub(super) source_names: bool,
    /// With `source_names`: seqloc's temporaries printed as the expression they were
    /// copied from (`__t` as `shared_box`), each a postfix expression, so that `__t->n`
    /// reads `shared_box->n` as the user wrote it.
    pub(super) origins: Option<&'a HashMap<VarId, String>>,
}

impl<'a> Printer<'a> {
    pub(super) fn new(
        prog: &'a Program,
        dialect: &'a Dialect,
        opts: &'a PrintOptions,
    ) -> Printer<'a> {
        let mut p = Printer::for_messages(prog, dialect, opts);
        p.assign_var_names();
        p
    }

    /// A printer for one expression or statement in a message: variables keep their
    /// source names. Whole-program naming (unique names for hoisted statics and locals)
    /// costs a pass over every variable and function, too much for each trace step.
    pub(super) fn for_messages(
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
            omitted: Vec::new(),
            source_names: false,
            origins: None,
        };
        p.assign_tags();
        p
    }

    pub(super) fn tt(&self) -> &TypeTable {
        &self.prog.types
    }

    pub(super) fn finish(mut self) -> Printed {
        let lines = self.out.lines().count();
        self.line_locs.resize(lines, Loc::SYNTH);
        self.line_funcs.resize(lines, None);
        Printed {
            text: self.out,
            line_locs: self.line_locs,
            line_funcs: self.line_funcs,
            omitted: self.omitted,
        }
    }

    pub(super) fn line(&mut self, text: &str, loc: Loc) {
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

    pub(super) fn raw_lines(&mut self, text: &str) {
        for l in text.lines() {
            self.out.push_str(l);
            self.out.push('\n');
            self.line_locs.push(Loc::SYNTH);
            self.line_funcs.push(None);
        }
    }
}
