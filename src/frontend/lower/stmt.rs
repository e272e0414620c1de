//! Statements.

use lang_c::ast;
use lang_c::span::Node;

use super::{Lowerer, R};
use crate::ir::consteval::eval_int;
use crate::ir::*;

impl Lowerer<'_, '_> {
    pub(super) fn block_item(&mut self, it: &Node<ast::BlockItem>) -> R<Vec<Stmt>> {
        match &it.node {
            ast::BlockItem::Declaration(d) => self.declaration(d),
            ast::BlockItem::StaticAssert(_) => Ok(vec![]),
            ast::BlockItem::Statement(s) => {
                let st = self.statement(s)?;
                // Labels are flattened into the enclosing list (see `labeled`).
                Ok(match st.kind {
                    StmtKind::Block(v) if st.loc == LABEL_GROUP => v,
                    k => vec![Stmt::new(k, st.loc)],
                })
            }
        }
    }

    fn cond(&mut self, e: &Node<ast::Expression>) -> R<Expr> {
        let c = self.rvalue(e)?;
        if !c.ty.is_scalar(self.tt()) {
            return Err(self.error(e.span, "condition is not a scalar"));
        }
        Ok(c)
    }

    pub(super) fn statement(&mut self, s: &Node<ast::Statement>) -> R<Stmt> {
        let loc = self.loc(s.span);
        Ok(match &s.node {
            ast::Statement::Labeled(l) => {
                if let ast::Label::Identifier(id) = &l.node.label.node {
                    if id.node.name.starts_with(super::spawn::ASYNC_LABEL) {
                        return self.spawn_statement(&id.node.name, &l.node.statement, s.span, loc);
                    }
                }
                let head = match &l.node.label.node {
                    ast::Label::Identifier(id) => {
                        self.labels.push(id.node.name.clone());
                        StmtKind::Label(id.node.name.clone())
                    }
                    ast::Label::Case(e) => {
                        let v = self.case_value(e)?;
                        StmtKind::Case { lo: v, hi: v }
                    }
                    ast::Label::CaseRange(r) => {
                        let lo = self.case_value(&r.node.low)?;
                        let hi = self.case_value(&r.node.high)?;
                        StmtKind::Case { lo, hi }
                    }
                    ast::Label::Default => StmtKind::Default,
                };
                let body = self.statement(&l.node.statement)?;
                let mut v = vec![Stmt::new(head, loc)];
                match body.kind {
                    StmtKind::Block(inner) if body.loc == LABEL_GROUP => v.extend(inner),
                    k => v.push(Stmt::new(k, body.loc)),
                }
                // A group marker: a label and the statement it labels, not a new scope.
                Stmt::new(StmtKind::Block(v), LABEL_GROUP)
            }
            ast::Statement::Compound(items) => {
                self.push_scope();
                let mut v = Vec::new();
                for it in items {
                    match self.block_item(it) {
                        Ok(ss) => v.extend(ss),
                        Err(e) => {
                            self.pop_scope();
                            return Err(e);
                        }
                    }
                }
                self.pop_scope();
                Stmt::block(v, loc)
            }
            ast::Statement::Expression(e) => match e {
                Some(e) => Stmt::new(StmtKind::Expr(self.rvalue(e)?), loc),
                None => Stmt::skip(loc),
            },
            ast::Statement::If(i) => {
                let cond = self.cond(&i.node.condition)?;
                let then = self.sub(&i.node.then_statement)?;
                let els = match &i.node.else_statement {
                    Some(e) => Some(Box::new(self.sub(e)?)),
                    None => None,
                };
                Stmt::new(
                    StmtKind::If {
                        cond,
                        then: Box::new(then),
                        els,
                    },
                    loc,
                )
            }
            ast::Statement::Switch(sw) => {
                let c = self.rvalue(&sw.node.expression)?;
                if !c.ty.is_integer(self.tt()) {
                    return Err(self.error(sw.span, "switch on a non-integer"));
                }
                let t = self.promoted_type(&c.ty);
                let cond = self.conv(c, &t);
                let body = self.sub(&sw.node.statement)?;
                Stmt::new(
                    StmtKind::Switch {
                        cond,
                        body: Box::new(body),
                    },
                    loc,
                )
            }
            ast::Statement::While(w) => {
                let cond = self.cond(&w.node.expression)?;
                let body = self.sub(&w.node.statement)?;
                Stmt::new(
                    StmtKind::While {
                        cond,
                        body: Box::new(body),
                    },
                    loc,
                )
            }
            ast::Statement::DoWhile(d) => {
                let body = self.sub(&d.node.statement)?;
                let cond = self.cond(&d.node.expression)?;
                Stmt::new(
                    StmtKind::DoWhile {
                        body: Box::new(body),
                        cond,
                    },
                    loc,
                )
            }
            ast::Statement::For(f) => {
                self.push_scope();
                let r = self.for_stmt(f, loc);
                self.pop_scope();
                r?
            }
            ast::Statement::Goto(id) => {
                self.gotos.push((id.node.name.clone(), loc));
                Stmt::new(StmtKind::Goto(id.node.name.clone()), loc)
            }
            ast::Statement::Continue => Stmt::new(StmtKind::Continue, loc),
            ast::Statement::Break => Stmt::new(StmtKind::Break, loc),
            ast::Statement::Return(e) => {
                let v = match e {
                    Some(e) => {
                        let x = self.rvalue(e)?;
                        let rt = self.ret_ty.clone();
                        if rt.is_void(self.tt()) {
                            Some(x)
                        } else {
                            Some(self.conv_assignable(x, &rt, e.span, "return")?)
                        }
                    }
                    None => None,
                };
                Stmt::new(StmtKind::Return(v), loc)
            }
            ast::Statement::Asm(_) => {
                return Err(self.unsupported(s.span, "inline assembly"));
            }
        })
    }

    /// A sub-statement (of if/while/...): a label group becomes a real block.
    fn sub(&mut self, s: &Node<ast::Statement>) -> R<Stmt> {
        let st = self.statement(s)?;
        Ok(if st.loc == LABEL_GROUP {
            let loc = match &st.kind {
                StmtKind::Block(v) => v.first().map(|x| x.loc).unwrap_or(Loc::SYNTH),
                _ => Loc::SYNTH,
            };
            Stmt::new(st.kind, loc)
        } else {
            st
        })
    }

    fn for_stmt(&mut self, f: &Node<ast::ForStatement>, loc: Loc) -> R<Stmt> {
        let init = match &f.node.initializer.node {
            ast::ForInitializer::Empty | ast::ForInitializer::StaticAssert(_) => vec![],
            ast::ForInitializer::Expression(e) => {
                vec![Stmt::new(StmtKind::Expr(self.rvalue(e)?), self.loc(e.span))]
            }
            ast::ForInitializer::Declaration(d) => self.declaration(d)?,
        };
        let cond = match &f.node.condition {
            Some(c) => Some(self.cond(c)?),
            None => None,
        };
        let step = match &f.node.step {
            Some(s) => Some(self.rvalue(s)?),
            None => None,
        };
        let body = self.sub(&f.node.statement)?;
        Ok(Stmt::new(
            StmtKind::For {
                init,
                cond,
                step,
                body: Box::new(body),
            },
            loc,
        ))
    }

    fn case_value(&mut self, e: &Node<ast::Expression>) -> R<i128> {
        let x = self.expr(e)?;
        eval_int(&x, self.tt(), self.dm())
            .ok_or_else(|| self.error(e.span, "case label is not an integer constant"))
    }
}

/// Marks the block that groups a label with the statement it labels (flattened into the
/// enclosing statement list, so labels never open a scope).
const LABEL_GROUP: Loc = Loc(u32::MAX - 1);
