//! What the tests of the interleaving analyses share: steps, programs, statements.

use crate::cex::TraceStep;
use crate::ir::{StmtId, StmtKind};

pub(super) fn step(thread: u32, line: u32, statement: &str) -> TraceStep {
    TraceStep {
        thread,
        loc: crate::ir::Loc::SYNTH,
        sid: crate::ir::StmtId::NONE,
        file: "p.c".into(),
        line,
        statement: statement.into(),
        writes: vec![],
    }
}

/// A C program (with `#include`s) through the front end and the normalization.
pub(super) fn prepared(text: &str) -> crate::passes::Prepared {
    let dir = tempfile::tempdir().expect("tempdir");
    let path = dir.path().join("p.c");
    std::fs::write(&path, text).expect("writes");
    let prog = crate::frontend::load(&path, &Default::default()).expect("parses");
    crate::passes::Prepared::new(prog)
}

/// The normalized statement of function `func` at `line` that comes last in the body.
pub(super) fn last_stmt_at(p: &crate::passes::Prepared, func: &str, line: u32) -> StmtId {
    let prog = &p.normalized;
    let f = prog.func_named(func).expect("function");
    let mut found = StmtId::NONE;
    if let Some(body) = &prog.func(f).body {
        crate::ir::visit::each_stmt(body, &mut |s| {
            if !s.id.is_none()
                && !matches!(s.kind, StmtKind::Block(_))
                && prog.sources.line(s.loc) == line
            {
                found = s.id;
            }
        });
    }
    found
}

/// Four ways out of a function that took a lock: an early `return`, a `goto`, a `break`, the end.
pub(super) const EXITS: &str = "#include <pthread.h>
pthread_mutex_t m;
int n;
int early(int v)
{
  pthread_mutex_lock(&m);
  if (v < 0) {
    n = n + 1;
    return -1;
  }
  n = n + v;
  pthread_mutex_unlock(&m);
  return 0;
}
int via_goto(int v)
{
  pthread_mutex_lock(&m);
  if (v < 0)
    goto out;
  n = v;
  pthread_mutex_unlock(&m);
out:
  return v;
}
int via_break(int v)
{
  int r = 0;
  while (1) {
    pthread_mutex_lock(&m);
    if (v < 0)
      break;
    n = n + v;
    pthread_mutex_unlock(&m);
  }
  return r;
}
void falls_off(int v)
{
  pthread_mutex_lock(&m);
  n = v;
}
void *t(void *a)
{
  early(n);
  via_goto(n);
  via_break(n);
  falls_off(n);
  return a;
}
int main(void)
{
  pthread_t x;
  pthread_create(&x, 0, t, 0);
  return 0;
}
";
