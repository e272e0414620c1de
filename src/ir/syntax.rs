//! The IR's data types, and nothing else: one program representation for every stage.
//!
//! The IR is C, structured, fully typed and fully resolved: names are ids, every implicit
//! conversion is an explicit (marked implicit) cast, array and function decay is explicit,
//! member accesses name field indices. Every statement and expression carries its original
//! [`Loc`]. Transformations are IR → IR; C text exists only at the edges (the front end and
//! the printer).

use super::loc::{Loc, SourceMap};
use super::types::{DataModel, FuncType, Type, TypeTable};

#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct VarId(pub u32);
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct FuncId(pub u32);

#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum VarKind {
    /// File scope, or a block-scope `static` (which has static storage).
    Global,
    Local,
    Param,
}

#[derive(Clone, Debug)]
pub struct Var {
    pub name: String,
    pub ty: Type,
    pub kind: VarKind,
    /// The function a local or parameter belongs to (also set for block-scope statics).
    pub func: Option<FuncId>,
    pub is_static: bool,
    /// Declared `extern` and never defined in this translation unit.
    pub is_extern: bool,
    pub thread_local: bool,
    /// Initializer of a global (a local's initializer lives in its `Decl` statement).
    pub init: Option<Init>,
    pub loc: Loc,
    /// The name the user's source gives this variable, when `name` is a copy's: the
    /// sequentializer gives each thread its own global copy of a local `t` (`t_1`, `t_2`),
    /// which the printed program needs unique and a report must call `t`. `None` when
    /// `name` is the source's.
    pub source_name: Option<String>,
}

impl Var {
    /// The variable's name as the user's source spells it (see `source_name`).
    pub fn shown_name(&self) -> &str {
        self.source_name.as_deref().unwrap_or(&self.name)
    }
}

#[derive(Clone, Debug)]
pub struct Function {
    pub name: String,
    pub ty: FuncType,
    pub params: Vec<VarId>,
    /// `None` for a function that is only declared.
    pub body: Option<Stmt>,
    pub is_static: bool,
    pub is_inline: bool,
    pub noreturn: bool,
    pub loc: Loc,
    /// A body the front end could not lower (a system-header function using a construct
    /// seqloc does not model): the reason and where. Reported only if the function is used.
    pub unsupported: Option<(String, Loc)>,
}

impl Function {
    /// `int name()`, declared and never defined: C89's implicit declaration of a called
    /// name, and the front end's own internal calls.
    pub fn undeclared_int(name: &str, loc: Loc) -> Function {
        Function {
            name: name.to_string(),
            ty: FuncType {
                ret: Type::int(),
                params: vec![],
                variadic: false,
                unprototyped: true,
            },
            params: vec![],
            body: None,
            is_static: false,
            is_inline: false,
            noreturn: false,
            loc,
            unsupported: None,
        }
    }
}

/// Top-level declarations in source order, so the printer can reproduce a readable file.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Item {
    Typedef(super::types::TypedefId),
    Comp(super::types::CompId),
    Enum(super::types::EnumId),
    Var(VarId),
    Func(FuncId),
}

#[derive(Clone, Debug, Default)]
pub struct Program {
    pub types: TypeTable,
    pub vars: Vec<Var>,
    pub funcs: Vec<Function>,
    pub items: Vec<Item>,
    pub sources: SourceMap,
    pub data_model: DataModel,
    /// Set by normalization: the next unused statement id.
    pub next_stmt_id: u32,
    /// Set by normalization: constant trip counts of loops, by the id of the loop.
    pub loop_bounds: std::collections::HashMap<StmtId, u64>,
    /// Set by unrolling: for a loop cut off at its bound (the [`Intrinsic::Unwind`]
    /// statement carries the loop's id), the statement its next iteration would run first.
    /// A thread that stopped at the cut stopped before that statement: a schedule names
    /// the stop by it, which any deeper unrolling (a replay's) also has.
    pub loop_resumes: std::collections::HashMap<StmtId, StmtId>,
    /// Fresh-label supply shared by every pass that copies code (labels are
    /// function-scoped in C, and copies from several passes end up in one function).
    pub next_label: u32,
}

#[derive(Clone, Debug)]
pub struct Stmt {
    pub kind: StmtKind,
    pub loc: Loc,
    /// Identity of the statement as normalization produced it. Copies made by inlining,
    /// thread instantiation and unrolling keep the id, so a trace step, a schedule entry
    /// and a `diag` value can all name "this statement of the program as written".
    pub id: StmtId,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct StmtId(pub u32);

impl StmtId {
    /// Not (yet) numbered: front-end output and code seqloc generates.
    pub const NONE: StmtId = StmtId(u32::MAX);
    pub fn is_none(self) -> bool {
        self == StmtId::NONE
    }
}

#[derive(Clone, Debug)]
pub enum StmtKind {
    /// A local variable comes into scope here; `init` is its initializer.
    Decl {
        var: VarId,
        init: Option<Init>,
    },
    Expr(Expr),
    Block(Vec<Stmt>),
    If {
        cond: Expr,
        then: Box<Stmt>,
        els: Option<Box<Stmt>>,
    },
    While {
        cond: Expr,
        body: Box<Stmt>,
    },
    DoWhile {
        body: Box<Stmt>,
        cond: Expr,
    },
    For {
        init: Vec<Stmt>,
        cond: Option<Expr>,
        step: Option<Expr>,
        body: Box<Stmt>,
    },
    Switch {
        cond: Expr,
        body: Box<Stmt>,
    },
    /// `case lo:` (or the GNU range `case lo ... hi:`), a label inside a switch body.
    Case {
        lo: i128,
        hi: i128,
    },
    Default,
    Label(String),
    Goto(String),
    Break,
    Continue,
    Return(Option<Expr>),
    Skip,
}

#[derive(Clone, Debug)]
pub enum Init {
    Expr(Expr),
    /// A braced list, every item with its designator path resolved (field indices and
    /// array indices relative to the object being initialized).
    List(Vec<InitItem>),
}

#[derive(Clone, Debug)]
pub struct InitItem {
    pub path: Vec<Designator>,
    pub init: Init,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Designator {
    Field(usize),
    Index(u64),
}

#[derive(Clone, Debug)]
pub struct Expr {
    pub kind: ExprKind,
    pub ty: Type,
    pub loc: Loc,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum UnOp {
    Neg,
    BitNot,
    LogNot,
    /// `<math.h>`'s `sqrt`/`sqrtf` on a float of the expression's type: IEEE's square
    /// root, rounded to nearest-even (NaN below zero, `-0.0` for `-0.0`).
    Sqrt,
    /// `fabs`/`fabsf`: the sign bit cleared (a NaN stays a NaN).
    FAbs,
}

impl UnOp {
    /// The operators C writes as a call of a `<math.h>` function, with the function's
    /// name for an operand of `bits` bits.
    pub fn math_name(self, bits: u32) -> Option<&'static str> {
        match (self, bits) {
            (UnOp::Sqrt, 32) => Some("sqrtf"),
            (UnOp::Sqrt, _) => Some("sqrt"),
            (UnOp::FAbs, 32) => Some("fabsf"),
            (UnOp::FAbs, _) => Some("fabs"),
            _ => None,
        }
    }
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum BinOp {
    Add,
    Sub,
    Mul,
    Div,
    Rem,
    Shl,
    Shr,
    BitAnd,
    BitOr,
    BitXor,
    Lt,
    Gt,
    Le,
    Ge,
    Eq,
    Ne,
    LogAnd,
    LogOr,
}

impl BinOp {
    pub fn is_comparison(self) -> bool {
        matches!(
            self,
            BinOp::Lt | BinOp::Gt | BinOp::Le | BinOp::Ge | BinOp::Eq | BinOp::Ne
        )
    }
    pub fn is_logical(self) -> bool {
        matches!(self, BinOp::LogAnd | BinOp::LogOr)
    }
    /// The comparison that holds of `(b, a)` when `self` holds of `(a, b)`.
    pub fn swapped(self) -> BinOp {
        match self {
            BinOp::Lt => BinOp::Gt,
            BinOp::Gt => BinOp::Lt,
            BinOp::Le => BinOp::Ge,
            BinOp::Ge => BinOp::Le,
            o => o,
        }
    }
    /// Whether comparison `self` holds of two integers (false for other operators).
    pub fn holds(self, a: i128, b: i128) -> bool {
        match self {
            BinOp::Eq => a == b,
            BinOp::Ne => a != b,
            BinOp::Lt => a < b,
            BinOp::Gt => a > b,
            BinOp::Le => a <= b,
            BinOp::Ge => a >= b,
            _ => false,
        }
    }
    pub fn c_op(self) -> &'static str {
        match self {
            BinOp::Add => "+",
            BinOp::Sub => "-",
            BinOp::Mul => "*",
            BinOp::Div => "/",
            BinOp::Rem => "%",
            BinOp::Shl => "<<",
            BinOp::Shr => ">>",
            BinOp::BitAnd => "&",
            BinOp::BitOr => "|",
            BinOp::BitXor => "^",
            BinOp::Lt => "<",
            BinOp::Gt => ">",
            BinOp::Le => "<=",
            BinOp::Ge => ">=",
            BinOp::Eq => "==",
            BinOp::Ne => "!=",
            BinOp::LogAnd => "&&",
            BinOp::LogOr => "||",
        }
    }
}

/// Operations seqloc itself introduces. The printer spells them in the chosen checker's
/// dialect (`templates/`), so one IR prints for ESBMC, CBMC, the built-in checker and gcc.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Intrinsic {
    /// A nondeterministic value of the expression's type. `args` is empty, or, for the
    /// input a replay leaves open past the recorded ones (`occ <= n ? table[occ - 1] :
    /// nondet(occ)`), the input's occurrence counter: a checker that reads inputs back
    /// records the occurrence with the value, since occurrences a replay fixes or skips
    /// (a signal without waiters bumps the counter) leave no nondet of their own.
    Nondet,
    /// `assume(cond)`: executions where `cond` is false are discarded.
    Assume,
    /// `assert(cond)`: a property checked at this location.
    Assert,
    /// The program reached an error location (`reach_error`, `__assert_fail`, a failed
    /// `assert`): a property violation.
    Error,
    /// The start and end of an atomic section (`__VERIFIER_atomic_begin/end`).
    AtomicBegin,
    AtomicEnd,
    /// The process stops here (`abort`, `exit`): nothing after it happens, and it is not
    /// an error.
    Abort,
    /// A loop ran out of its unwinding bound: executions going further are cut off, and
    /// the checker records that the bound was reached.
    Unwind,
    /// Sequentializer marker: the statements that follow (up to the next marker) are
    /// program point `args[1]` of thread slot `args[0]`. No effect; it lets traces name
    /// the thread and point of every step.
    Point,
    /// The deadlock property: violated when `args[0]` is non-zero.
    Deadlock,
    /// The unlock property (ESBMC's and CBMC's "must hold lock upon unlock"): an unlock
    /// gives back a mutex that is locked. Violated when `args[0]` is zero.
    MustHold,
    /// A concrete schedule could not be followed (step `args[0]`): the replay is invalid.
    Mismatch,
    /// Wait until `args[0]` holds: what a spin loop with no effect
    /// (`while (flag != 0) {}`) means. A blocking point for the sequentializer.
    Await,
    /// Sequentializer marker in the end-of-run probe: thread slot `args[0]` would resume
    /// at program point `args[1]`. No effect; it tells a counterexample where each
    /// preempted thread stopped, so its last block ends there when replayed.
    Resume,
    /// Localization site (Griesmeyer): the value `args[0] ? nondet : args[1]`, where
    /// `args[0]` says whether the `diag` switch selects this statement's line and
    /// `args[2]` is the site's number. The checker records the chosen value.
    Diag,
}

#[derive(Clone, Debug)]
pub enum ExprKind {
    /// An integer constant, already within the range of its type.
    Int(i128),
    /// A floating constant, as written.
    Float(String),
    /// A string literal's bytes (without the terminating NUL); its type is `char[len+1]`.
    Str(Vec<u8>),
    Var(VarId),
    /// A function designator; its type is pointer-to-function (decay is implicit).
    Func(FuncId),
    Unary(UnOp, Box<Expr>),
    /// Arithmetic operands are already converted to a common type; for pointer
    /// arithmetic the operand types say which form it is.
    Binary(BinOp, Box<Expr>, Box<Expr>),
    Assign(Box<Expr>, Box<Expr>),
    /// `lhs op= rhs`: computed in `op_ty`, converted back to the type of `lhs`.
    OpAssign {
        op: BinOp,
        lhs: Box<Expr>,
        rhs: Box<Expr>,
        op_ty: Type,
    },
    IncDec {
        inc: bool,
        post: bool,
        e: Box<Expr>,
    },
    Cond(Box<Expr>, Box<Expr>, Box<Expr>),
    Comma(Box<Expr>, Box<Expr>),
    /// A conversion to `ty`; `implicit` ones are not printed.
    Cast {
        e: Box<Expr>,
        implicit: bool,
    },
    /// Array-to-pointer decay (not printed).
    Decay(Box<Expr>),
    AddrOf(Box<Expr>),
    Deref(Box<Expr>),
    /// A member of a struct or union lvalue, by field index.
    Member(Box<Expr>, usize),
    /// `base[idx]` with `base` of pointer type (arrays decay first).
    Index(Box<Expr>, Box<Expr>),
    Call(Box<Expr>, Vec<Expr>),
    SizeofType(Type),
    AlignofType(Type),
    /// GNU statement expression; its value is that of the last statement if it is an
    /// expression statement.
    StmtExpr(Vec<Stmt>),
    /// A compound literal `(T){ ... }`.
    Compound(Box<Init>),
    Intrinsic(Intrinsic, Vec<Expr>),
}

impl Expr {
    pub fn new(kind: ExprKind, ty: Type, loc: Loc) -> Expr {
        Expr { kind, ty, loc }
    }

    pub fn int(v: i128, ty: Type, loc: Loc) -> Expr {
        Expr::new(ExprKind::Int(v), ty, loc)
    }

    pub fn var(id: VarId, prog: &Program, loc: Loc) -> Expr {
        Expr::new(ExprKind::Var(id), prog.var(id).ty.clone(), loc)
    }

    pub fn as_int(&self) -> Option<i128> {
        match &self.kind {
            ExprKind::Int(v) => Some(*v),
            ExprKind::Cast { e, .. } => e.as_int(),
            _ => None,
        }
    }

    /// The expression without any of its conversions, explicit ones too (`NULL` is
    /// `(void *)0`; a function designator decays).
    pub fn uncast(&self) -> &Expr {
        match &self.kind {
            ExprKind::Cast { e, .. } | ExprKind::Decay(e) => e.uncast(),
            _ => self,
        }
    }

    /// Strips implicit casts and decays (the expression as the user wrote it).
    pub fn peel(&self) -> &Expr {
        match &self.kind {
            ExprKind::Cast { e, implicit: true } | ExprKind::Decay(e) => e.peel(),
            _ => self,
        }
    }

    /// A comparison or logical expression: its value reads as true/false.
    pub fn is_truth_valued(&self) -> bool {
        match &self.peel().kind {
            ExprKind::Binary(op, ..) => matches!(
                op,
                BinOp::Eq
                    | BinOp::Ne
                    | BinOp::Lt
                    | BinOp::Le
                    | BinOp::Gt
                    | BinOp::Ge
                    | BinOp::LogAnd
                    | BinOp::LogOr
            ),
            ExprKind::Unary(UnOp::LogNot, _) => true,
            _ => false,
        }
    }

    pub fn is_lvalue(&self) -> bool {
        matches!(
            self.kind,
            ExprKind::Var(_)
                | ExprKind::Deref(_)
                | ExprKind::Member(..)
                | ExprKind::Index(..)
                | ExprKind::Str(_)
                | ExprKind::Compound(_)
        )
    }
}

impl Stmt {
    pub fn new(kind: StmtKind, loc: Loc) -> Stmt {
        Stmt {
            kind,
            loc,
            id: StmtId::NONE,
        }
    }
    pub fn with_id(mut self, id: StmtId) -> Stmt {
        self.id = id;
        self
    }
    pub fn block(stmts: Vec<Stmt>, loc: Loc) -> Stmt {
        Stmt::new(StmtKind::Block(stmts), loc)
    }
    pub fn skip(loc: Loc) -> Stmt {
        Stmt::new(StmtKind::Skip, loc)
    }
    pub fn expr(e: Expr) -> Stmt {
        let loc = e.loc;
        Stmt::new(StmtKind::Expr(e), loc)
    }
}

impl Program {
    pub fn var(&self, id: VarId) -> &Var {
        &self.vars[id.0 as usize]
    }
    pub fn var_mut(&mut self, id: VarId) -> &mut Var {
        &mut self.vars[id.0 as usize]
    }
    pub fn func(&self, id: FuncId) -> &Function {
        &self.funcs[id.0 as usize]
    }
    pub fn func_mut(&mut self, id: FuncId) -> &mut Function {
        &mut self.funcs[id.0 as usize]
    }

    pub fn func_named(&self, name: &str) -> Option<FuncId> {
        self.funcs
            .iter()
            .position(|f| f.name == name)
            .map(|i| FuncId(i as u32))
    }

    pub fn global_named(&self, name: &str) -> Option<VarId> {
        self.vars
            .iter()
            .position(|v| v.kind == VarKind::Global && v.name == name)
            .map(|i| VarId(i as u32))
    }

    pub fn add_var(&mut self, var: Var) -> VarId {
        self.vars.push(var);
        VarId((self.vars.len() - 1) as u32)
    }

    pub fn add_func(&mut self, f: Function) -> FuncId {
        self.funcs.push(f);
        FuncId((self.funcs.len() - 1) as u32)
    }

    /// A new local of `func` named after `hint` (the printer makes names unique).
    pub fn new_local(&mut self, func: Option<FuncId>, hint: &str, ty: Type, loc: Loc) -> VarId {
        self.add_var(Var {
            name: hint.to_string(),
            ty,
            kind: VarKind::Local,
            func,
            is_static: false,
            is_extern: false,
            thread_local: false,
            init: None,
            loc,
            source_name: None,
        })
    }

    /// A new parameter of `func` (the caller puts it in the function's `params`).
    pub fn new_param(&mut self, func: FuncId, name: &str, ty: Type, loc: Loc) -> VarId {
        let v = self.new_local(Some(func), name, ty, loc);
        self.var_mut(v).kind = VarKind::Param;
        v
    }

    /// A new global, appended to the declaration order.
    pub fn new_global(&mut self, name: &str, ty: Type, init: Option<Init>, loc: Loc) -> VarId {
        let id = self.add_var(Var {
            name: name.to_string(),
            ty,
            kind: VarKind::Global,
            func: None,
            is_static: false,
            is_extern: false,
            thread_local: false,
            init,
            loc,
            source_name: None,
        });
        self.items.push(Item::Var(id));
        id
    }

    /// Size of a type in bytes under this program's data model.
    pub fn sizeof(&self, ty: &Type) -> Option<u64> {
        ty.size(&self.types, self.data_model)
    }

    /// A label no other pass has used.
    pub fn fresh_label(&mut self, hint: &str) -> String {
        self.next_label += 1;
        format!("__{hint}{}", self.next_label)
    }

    /// The entry point.
    pub fn main(&self) -> Option<FuncId> {
        self.funcs
            .iter()
            .position(|f| f.name == "main" && f.body.is_some())
            .map(|i| FuncId(i as u32))
    }
}
