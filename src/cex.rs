//! Counterexamples in seqloc's own terms, whichever checker found them: the violated
//! property, the schedule the sequentializer can replay, the readable trace (one step
//! per statement, with its thread and the values it wrote) and the input values.

use crate::ir::{Loc, SourceMap, StmtId};
use crate::seq::schedule::Schedule;

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum ViolationKind {
    /// An `assert`/`__VERIFIER_assert` condition was false.
    Assertion,
    /// `reach_error()` (or `__assert_fail`, `abort` after a failed check) was reached.
    Error,
    /// Every live thread blocked (on a lock, a condition variable or a join).
    Deadlock,
    /// An unlock of a mutex no thread holds (ESBMC's and CBMC's "must hold lock upon
    /// unlock"; undefined behaviour in POSIX).
    Unlock,
}

#[derive(Clone, Debug)]
pub struct Violation {
    pub kind: ViolationKind,
    pub loc: Loc,
    pub file: String,
    pub line: u32,
    pub column: u32,
    /// The thread in which the violation happened (none for a deadlock).
    pub thread: Option<u32>,
    pub message: String,
}

#[derive(Clone, Debug)]
pub struct Write {
    /// The location written, as the checked program names it: a thread's copy of a local
    /// `t` is `t_1`, so that writes of different copies stay apart.
    pub lhs: String,
    /// The same location as the user's source names it (`t`), for reports; `None` for a
    /// temporary seqloc made up, which a report describes by what the step computed.
    pub shown: Option<String>,
    pub value: String,
}

impl Write {
    /// A write whose location the source names as the checked program does (`lhs`), unless
    /// that name is one seqloc made up.
    pub fn named(lhs: String, value: String) -> Write {
        let shown = (!crate::ir::internal::mentions_internal_name(&lhs)).then(|| lhs.clone());
        Write { lhs, shown, value }
    }
}

#[derive(Clone, Debug)]
pub struct TraceStep {
    pub thread: u32,
    pub loc: Loc,
    pub sid: StmtId,
    pub file: String,
    pub line: u32,
    pub statement: String,
    pub writes: Vec<Write>,
}

impl TraceStep {
    /// A step of `thread` at `line` of `p.c` running `statement`, with no statement id:
    /// the analyses' unit tests build their runs from these.
    #[cfg(test)]
    pub(crate) fn at(thread: u32, line: u32, statement: &str) -> TraceStep {
        TraceStep {
            thread,
            loc: Loc(0),
            sid: StmtId::NONE,
            file: "p.c".into(),
            line,
            statement: statement.into(),
            writes: vec![],
        }
    }
}

#[derive(Clone, Debug)]
pub struct InputStep {
    pub thread: u32,
    pub at: String,
    pub value: i128,
}

#[derive(Clone, Debug)]
pub struct Counterexample {
    pub checker: String,
    pub violation: Violation,
    pub schedule: Schedule,
    pub steps: Vec<TraceStep>,
    pub inputs: Vec<InputStep>,
}

impl Violation {
    pub fn new(
        kind: ViolationKind,
        loc: Loc,
        thread: Option<u32>,
        message: String,
        sources: &SourceMap,
    ) -> Violation {
        let (file, line, column) = match sources.position(loc) {
            Some(p) => (p.file.to_string(), p.line, p.col),
            None => (String::new(), 0, 0),
        };
        Violation {
            kind,
            loc,
            file,
            line,
            column,
            thread,
            message,
        }
    }

    pub fn describe(&self) -> String {
        let what = match self.kind {
            ViolationKind::Assertion => "assertion failed",
            ViolationKind::Error => "error location reached",
            ViolationKind::Deadlock => "deadlock: every live thread is blocked",
            ViolationKind::Unlock => "unlock of a mutex no thread holds",
        };
        if self.line > 0 {
            format!("{what} at {}:{}", self.file, self.line)
        } else {
            what.to_string()
        }
    }
}

impl Counterexample {
    pub fn context_switches(&self) -> usize {
        self.schedule.context_switches()
    }
}
