//! Struct and union copies: one access per member.
//!
//! `shared = local;` of a 32-byte struct is not one step in the compiled program: gcc
//! copies it with several moves (or `rep movs`), so another thread can read half of the old
//! value and half of the new one, or overwrite half of what is being read. Copied as one
//! step, such a torn read would be reported as "no failure in any execution". So every copy
//! of a struct or union that reads or writes memory another thread can see becomes one
//! assignment per scalar member (array elements included), each of which then performs at
//! most one shared access like every other statement. The order is the members' order,
//! which is what `rep movs` and gcc's unrolled moves do; other orders a compiler might pick
//! are not explored.
//!
//! A union is copied through a member that covers all of it with no holes (a scalar, or an
//! array of scalars, of the union's size, such as glibc's `char __size[N]`): the bytes of
//! every other member are among them. A union with no such member, and the pthread and
//! semaphore objects (copying one is undefined in POSIX; seqloc models them as objects,
//! not as bytes), are still copied in one step.

use super::normalizer::{Normalizer, assign};
use crate::analysis::shared::count_reads;
use crate::ir::*;

/// More scalar members than this in one copy: copied in one step, so that a copy of a
/// large buffer does not turn into thousands of statements. Listed in the README as an
/// approximation.
const MAX_MEMBERS: usize = 1024;

impl Normalizer<'_> {
    /// Emits `kind` as one statement per member when it copies a struct or union from or
    /// to shared memory (`None`), and gives it back otherwise.
    pub(super) fn split_copy(
        &mut self,
        kind: StmtKind,
        loc: Loc,
        out: &mut Vec<Stmt>,
    ) -> Option<StmtKind> {
        match kind {
            StmtKind::Expr(Expr {
                kind: ExprKind::Assign(l, r),
                ty,
                loc: eloc,
            }) => {
                if !self.splits(&l.ty) || !self.copy_is_shared(&l, &r) {
                    return Some(StmtKind::Expr(Expr::new(ExprKind::Assign(l, r), ty, eloc)));
                }
                self.copy(*l, *r, loc, out);
                None
            }
            StmtKind::Decl {
                var,
                init: Some(Init::Expr(r)),
            } => {
                let target = Expr::var(var, self.prog, loc);
                if !self.splits(&target.ty) || !self.copy_is_shared(&target, &r) {
                    return Some(StmtKind::Decl {
                        var,
                        init: Some(Init::Expr(r)),
                    });
                }
                if target.ty.quals(self.tt()).konst {
                    // `const struct P l = g;`: the members cannot be assigned, so they are
                    // copied into a temporary that then initializes `l` in one local step.
                    let t = self.temp(&target.ty, loc);
                    let tv = Expr::var(t, self.prog, loc);
                    self.declare_zeroed(t, loc, out);
                    self.copy(tv.clone(), r, loc, out);
                    let init = Some(Init::Expr(tv));
                    self.push(StmtKind::Decl { var, init }, loc, out);
                    return None;
                }
                self.declare_zeroed(var, loc, out);
                self.copy(target, r, loc, out);
                None
            }
            StmtKind::Return(Some(e))
                if self.splits(&e.ty)
                    && !matches!(e.kind, ExprKind::Call(..))
                    && count_reads(self.shared, &e) > 0 =>
            {
                let t = self.temp(&e.ty, loc);
                self.declare_zeroed(t, loc, out);
                self.copy(Expr::var(t, self.prog, loc), e, loc, out);
                self.push(
                    StmtKind::Return(Some(Expr::var(t, self.prog, loc))),
                    loc,
                    out,
                );
                None
            }
            k => Some(k),
        }
    }

    /// Binds a hoisted shared read of a struct or union to a fresh temporary, member by
    /// member. `x` is an lvalue whose address reads were hoisted before it.
    pub(super) fn bind_copy(&mut self, x: Expr, out: &mut Vec<Stmt>) -> Result<VarId, Expr> {
        if !self.splits(&x.ty) || !x.is_lvalue() {
            return Err(x);
        }
        let loc = x.loc;
        let t = self.temp(&x.ty, loc);
        self.declare_zeroed(t, loc, out);
        let target = Expr::var(t, self.prog, loc);
        self.copy_members(target, x, loc, out);
        Ok(t)
    }

    /// Declares `var` zero-initialized, before its members are copied in one by one.
    fn declare_zeroed(&mut self, var: VarId, loc: Loc, out: &mut Vec<Stmt>) {
        let init = Some(zeroed());
        self.push(StmtKind::Decl { var, init }, loc, out);
    }

    fn copy_is_shared(&self, l: &Expr, r: &Expr) -> bool {
        self.shared.is_shared_lvalue(l)
            || (!matches!(r.kind, ExprKind::Call(..)) && count_reads(self.shared, r) > 0)
    }

    /// Whether a copy of a value of type `ty` is split (a struct or union, not a
    /// pthread object, not too large, with no `const` member: one cannot be assigned, in
    /// the printed program either, so such a struct is still copied in one step).
    fn splits(&self, ty: &Type) -> bool {
        match ty.resolve(self.tt()) {
            Type::Comp(c) if self.tt().comp(*c).complete && !is_sync_object(ty, self.tt()) => {}
            _ => return false,
        }
        if has_const_member(ty, self.tt(), 0) {
            return false;
        }
        let n = self.count_members(ty);
        n > 1 && n <= MAX_MEMBERS
    }

    /// `l = r` for a struct or union `l`: the right-hand side's and the target's address
    /// computations are evaluated once (into temporaries), then the members are copied.
    fn copy(&mut self, mut l: Expr, r: Expr, loc: Loc, out: &mut Vec<Stmt>) {
        let r = if let ExprKind::Call(..) = r.kind {
            // `s = f()`: the call is one step into a local, the write is member-wise.
            self.bind(r, loc, out)
        } else if r.is_lvalue() {
            let mut r = r;
            self.hoist_address(&mut r, out);
            r
        } else {
            // A struct-valued expression (`c ? a : b`, a compound literal): every shared
            // read in it is hoisted (a struct-typed one member-wise), then its value is
            // one local step.
            let mut r = r;
            self.hoist(&mut r, 0, out);
            self.bind(r, loc, out)
        };
        self.hoist_address(&mut l, out);
        self.copy_members(l, r, loc, out);
    }

    /// `l = r` member by member; both are lvalues whose addresses read no shared memory.
    fn copy_members(&mut self, l: Expr, r: Expr, loc: Loc, out: &mut Vec<Stmt>) {
        let tt = self.tt();
        let parts: Vec<(Expr, Expr)> = match l.ty.resolve(tt) {
            Type::Comp(c) if !is_sync_object(&l.ty, tt) => {
                let def = tt.comp(*c);
                let quals = l.ty.quals(tt);
                if def.is_union {
                    match self.covering_member(*c) {
                        Some(i) => {
                            let fty = def.fields.get(i).map(|f| f.ty.clone());
                            fty.map(|fty| {
                                let fty = fty.qualified(quals);
                                vec![(member(&l, i, &fty), member(&r, i, &fty))]
                            })
                            .unwrap_or_default()
                        }
                        None => vec![],
                    }
                } else {
                    def.fields
                        .iter()
                        .enumerate()
                        // Unnamed bit-fields are padding.
                        .filter(|(_, f)| f.name.is_some() || f.bit_width.is_none())
                        .map(|(i, f)| {
                            let fty = f.ty.clone().qualified(quals);
                            (member(&l, i, &fty), member(&r, i, &fty))
                        })
                        .collect()
                }
            }
            Type::Array(e, Some(n)) => {
                let e = (**e).clone();
                (0..*n)
                    .map(|i| (element(&l, i, &e), element(&r, i, &e)))
                    .collect()
            }
            _ => vec![],
        };
        if parts.is_empty() {
            self.simple(StmtKind::Expr(assign(l, r, loc)), loc, out);
            return;
        }
        for (lp, rp) in parts {
            self.copy_members(lp, rp, loc, out);
        }
    }

    /// A union member that covers every byte of the union with no holes.
    fn covering_member(&self, c: CompId) -> Option<usize> {
        let tt = self.tt();
        let dm = self.prog.data_model;
        let size = tt.layout(c, dm).size;
        tt.comp(c).fields.iter().position(|f| {
            let dense = match f.ty.resolve(tt) {
                Type::Int(_) | Type::Enum(_) | Type::Pointer(_) => true,
                Type::Array(e, Some(_)) => {
                    matches!(
                        e.resolve(tt),
                        Type::Int(_) | Type::Enum(_) | Type::Pointer(_)
                    )
                }
                _ => false,
            };
            dense && f.bit_width.is_none() && f.ty.size(tt, dm) == Some(size)
        })
    }

    /// The assignments a member-wise copy of `ty` makes (a part copied whole counts one).
    fn count_members(&self, ty: &Type) -> usize {
        let tt = self.tt();
        match ty.resolve(tt) {
            Type::Comp(c) if !is_sync_object(ty, tt) => {
                let def = tt.comp(*c);
                if def.is_union {
                    return match self.covering_member(*c).and_then(|i| def.fields.get(i)) {
                        Some(f) => self.count_members(&f.ty),
                        None => 1,
                    };
                }
                def.fields
                    .iter()
                    .filter(|f| f.name.is_some() || f.bit_width.is_none())
                    .map(|f| self.count_members(&f.ty))
                    .fold(0usize, usize::saturating_add)
            }
            Type::Array(e, Some(len)) => self
                .count_members(e)
                .saturating_mul(usize::try_from(*len).unwrap_or(usize::MAX)),
            _ => 1,
        }
    }
}

/// Whether some member of `ty` (at any depth, array elements included) is `const`.
fn has_const_member(ty: &Type, tt: &TypeTable, depth: u32) -> bool {
    if depth > 64 {
        return false;
    }
    match ty.resolve(tt) {
        Type::Array(e, _) => e.quals(tt).konst || has_const_member(e, tt, depth + 1),
        Type::Comp(c) => tt
            .comp(*c)
            .fields
            .iter()
            .any(|f| f.ty.quals(tt).konst || has_const_member(&f.ty, tt, depth + 1)),
        _ => false,
    }
}

/// `pthread_mutex_t`, `pthread_cond_t`, `sem_t`...: objects seqloc models as a whole.
fn is_sync_object(ty: &Type, tt: &TypeTable) -> bool {
    let mut t = ty;
    loop {
        match t {
            Type::Typedef(id) => {
                let def = tt.typedef(*id);
                if def.name.starts_with("pthread_") || def.name == "sem_t" {
                    return true;
                }
                t = &def.ty;
            }
            Type::Qualified(inner, _) => t = inner,
            _ => return false,
        }
    }
}

/// `= { 0 }`: the target of a member-wise copy starts defined, so that its declaration is
/// not a nondeterministic input of the trace.
fn zeroed() -> Init {
    Init::List(vec![])
}

fn member(base: &Expr, i: usize, ty: &Type) -> Expr {
    Expr::new(
        ExprKind::Member(Box::new(base.clone()), i),
        ty.clone(),
        base.loc,
    )
}

fn element(base: &Expr, i: u64, ty: &Type) -> Expr {
    let decayed = Expr::new(
        ExprKind::Decay(Box::new(base.clone())),
        Type::ptr(ty.clone()),
        base.loc,
    );
    Expr::new(
        ExprKind::Index(
            Box::new(decayed),
            Box::new(Expr::int(i as i128, Type::int(), base.loc)),
        ),
        ty.clone(),
        base.loc,
    )
}

#[cfg(test)]
mod tests {
    use super::super::{normalize, shared_accesses};
    use crate::frontend;
    use crate::ir::visit;
    use crate::ir::*;

    const HEADER: &str = "int pthread_create(int *, void *, void *(*)(void *), void *);\n";

    /// Statements of `func` that write or read a member of a struct-typed shared
    /// object, and whether any statement copies a whole struct to or from shared memory.
    fn copies(src: &str, func: &str) -> (usize, bool) {
        let mut p =
            frontend::load_text("t.c", &format!("{HEADER}{src}"), DataModel::Lp64).expect("parses");
        let shared = normalize(&mut p);
        let f = p
            .funcs
            .iter()
            .find(|f| f.name == func)
            .expect("function exists");
        let mut accesses = 0;
        let mut whole = false;
        if let Some(b) = &f.body {
            visit::each_stmt(b, &mut |s| {
                assert!(shared_accesses(&shared, s) <= 1);
                if matches!(s.kind, StmtKind::Block(_)) {
                    return;
                }
                let n = shared_accesses(&shared, s);
                accesses += n;
                let struct_copy = match &s.kind {
                    StmtKind::Expr(Expr {
                        kind: ExprKind::Assign(l, _),
                        ..
                    }) => matches!(l.ty.resolve(&p.types), Type::Comp(_)),
                    StmtKind::Decl {
                        var,
                        init: Some(Init::Expr(_)),
                    } => matches!(p.var(*var).ty.resolve(&p.types), Type::Comp(_)),
                    StmtKind::Return(Some(e)) => {
                        matches!(e.ty.resolve(&p.types), Type::Comp(_))
                    }
                    _ => false,
                };
                whole |= struct_copy && n > 0;
            });
        }
        (accesses, whole)
    }

    const THREADS: &str = "int main() { int p; pthread_create(&p, 0, t, 0); \
        pthread_create(&p, 0, t, 0); return 0; }\n";

    #[test]
    fn a_shared_struct_is_copied_member_by_member_both_ways() {
        let (n, whole) = copies(
            &format!(
                "struct P {{ long a; long b; int c[3]; }} g;\n\
                 void *t(void *x) {{ struct P l = g; l.a++; g = l; return 0; }}\n{THREADS}"
            ),
            "t",
        );
        // 5 scalar members read, 5 written.
        assert_eq!(n, 10);
        assert!(!whole);
    }

    #[test]
    fn a_copy_between_two_shared_structs_reads_then_writes_each_member() {
        let (n, whole) = copies(
            &format!(
                "struct P {{ int a; int b; }} g, h;\n\
                 void *t(void *x) {{ h = g; return 0; }}\n{THREADS}"
            ),
            "t",
        );
        assert_eq!(n, 4);
        assert!(!whole);
    }

    /// `*dst = *src` through shared pointers and a shared index: each address is read once,
    /// then every member is one access.
    #[test]
    fn addresses_are_read_once_before_a_member_wise_copy() {
        let (n, whole) = copies(
            &format!(
                "struct P {{ int a; int b; int c; }}; struct T {{ int i; struct P s[2]; }} tab; \
                 struct P *src;\n\
                 void *t(void *x) {{ tab.s[tab.i] = *src; return 0; }}\n{THREADS}"
            ),
            "t",
        );
        // `src`, then 3 member reads, then `tab.i`, then 3 member writes.
        assert_eq!(n, 8);
        assert!(!whole);
    }

    #[test]
    fn arguments_returns_and_unions_are_split_too() {
        let (n, whole) = copies(
            &format!(
                "union U {{ long l; unsigned char raw[8]; }};\n\
                 struct P {{ int a; union U u; }} g;\n\
                 int use(struct P p) {{ return p.a; }}\n\
                 struct P get(void) {{ return g; }}\n\
                 void *t(void *x) {{ use(g); struct P q = get(); return 0; }}\n{THREADS}"
            ),
            "t",
        );
        // `use(g)`: `a`, and the union through `l`, the first member covering it.
        assert_eq!(n, 2);
        assert!(!whole);
        let (n, whole) = copies(
            &format!(
                "struct P {{ int a; int b; }} g;\n\
                 struct P get(void) {{ return g; }}\n\
                 void *t(void *x) {{ struct P q = get(); return 0; }}\n{THREADS}"
            ),
            "get",
        );
        assert_eq!(n, 2);
        assert!(!whole);
    }

    /// `const struct P l = g;` cannot assign `l`'s members (nor can the printed program):
    /// they go to a temporary, which initializes `l`; a struct with a `const` member cannot
    /// be assigned member by member at all and is still copied in one step.
    #[test]
    fn const_targets_and_const_members() {
        let (n, whole) = copies(
            &format!(
                "struct P {{ long a; long b; }} g;\n\
                 void *t(void *x) {{ const struct P l = g; return (void *)l.a; }}\n{THREADS}"
            ),
            "t",
        );
        assert_eq!(n, 2);
        assert!(!whole);
        let (n, whole) = copies(
            &format!(
                "struct P {{ const long a; long b; }} g;\n\
                 void *t(void *x) {{ struct P l = g; return (void *)l.a; }}\n{THREADS}"
            ),
            "t",
        );
        assert_eq!(n, 1);
        assert!(whole);
    }

    /// Local copies stay one statement: no other thread can see them.
    #[test]
    fn a_local_copy_is_left_alone() {
        let src = format!(
            "struct P {{ int a; int b; }} g;\n\
             void *t(void *x) {{ struct P l = {{1, 2}}; struct P m = l; m = l; return 0; }}\n{THREADS}"
        );
        let mut p =
            frontend::load_text("t.c", &format!("{HEADER}{src}"), DataModel::Lp64).expect("parses");
        normalize(&mut p);
        let f = p.funcs.iter().find(|f| f.name == "t").expect("t");
        let mut members = 0;
        if let Some(b) = &f.body {
            visit::each_expr(b, &mut |e| {
                members += matches!(e.kind, ExprKind::Member(..)) as usize
            });
        }
        assert_eq!(members, 0);
    }
}
