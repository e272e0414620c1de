//! Functions a program calls but never defines, under the checkers' convention.
//!
//! ESBMC and CBMC take a call of a function with no body as returning a nondeterministic
//! value of its return type and doing nothing else (ESBMC warns "no body for function",
//! CBMC "no body for callee"). Programs written for them lean on it: ESBMC's regression
//! tests call `acquire_thread_id(1, lock)` and `release(lock)` that nobody defines, with
//! `-Wno-error=implicit-function-declaration`. seqloc refuses such calls by default,
//! since a function with a body elsewhere may write memory, block or exit, and a verdict
//! that assumed it does not would be a guess. `--undefined-functions nondet` is the
//! user's statement that the convention holds for their program; even then a function a
//! C library header declares (`strcpy` called without `<string.h>`) or one with a
//! reserved name (`__ESBMC_…`, `__CPROVER_…`) keeps its refusal, because its real effect
//! is known and not nothing, and so does one returning anything but an integer, `_Bool`,
//! an enum or `void` (a nondeterministic pointer would point anywhere) or one whose
//! result a call converts to a pointer.

use std::collections::HashSet;
use std::process::{Command, Stdio};
use std::sync::OnceLock;

use crate::ir::known::{Known, classify, has_no_effect};
use crate::ir::{Loc, Program, Type};

/// What a call of a function without a body means.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum UndefinedFunctions {
    /// Refused by name (exit 2): the default.
    #[default]
    Refuse,
    /// ESBMC's and CBMC's convention: a nondeterministic return value, no other effect.
    Nondet,
}

/// The prefix the functions taken as nondeterministic are renamed to, which
/// `ir::known::classify` reads as `__VERIFIER_nondet_*` (a value of the call's type).
const NONDET_PREFIX: &str = "__VERIFIER_nondet_undefined_";

/// Renames the bodiless functions the convention covers so that their calls become
/// nondeterministic values, and returns each one's source name and declaration.
pub fn apply(prog: &mut Program, cpp: Option<&str>) -> Vec<(String, Loc)> {
    let as_pointers = results_used_as_pointers(prog);
    let candidates: Vec<usize> = prog
        .funcs
        .iter()
        .enumerate()
        .filter(|(i, f)| covered(prog, f) && !as_pointers.contains(i))
        .map(|(i, _)| i)
        .collect();
    if candidates.is_empty() {
        return vec![];
    }
    let library = library_functions(cpp);
    let mut taken = vec![];
    for i in candidates {
        let Some(f) = prog.funcs.get_mut(i) else {
            continue;
        };
        if library.contains(f.name.as_str()) {
            continue;
        }
        taken.push((f.name.clone(), f.loc));
        f.name = format!("{NONDET_PREFIX}{}", f.name);
    }
    taken
}

/// The functions whose result some call converts to a pointer (`(int *)get_slot()`, the
/// C89 way of calling an undeclared function that returns one): an arbitrary integer
/// would then be dereferenced as if it pointed nowhere, when the real function returns
/// some object's address.
fn results_used_as_pointers(prog: &Program) -> HashSet<usize> {
    let mut out = HashSet::new();
    let mut look = |e: &crate::ir::Expr| {
        if let crate::ir::ExprKind::Cast { e: inner, .. } = &e.kind {
            if matches!(e.ty.resolve(&prog.types), Type::Pointer(_)) {
                if let crate::ir::ExprKind::Call(callee, _) = &inner.peel().kind {
                    if let crate::ir::ExprKind::Func(f) = callee.peel().kind {
                        out.insert(f.0 as usize);
                    }
                }
            }
        }
    };
    for f in &prog.funcs {
        if let Some(body) = &f.body {
            crate::ir::visit::each_expr(body, &mut look);
        }
    }
    out
}

/// Whether the convention would cover `f` but for the library check.
fn covered(prog: &Program, f: &crate::ir::Function) -> bool {
    f.body.is_none()
        && !f.name.starts_with("__")
        && !starts_reserved(&f.name)
        && classify(&f.name) == Known::Other
        && !has_no_effect(&f.name)
        && !prog.sources.is_system(f.loc)
        && returns_plain_value(prog, &f.ty.ret)
}

/// Whether `--undefined-functions nondet` would take the bodiless `f` as nondeterministic
/// (a refusal under the default then says so).
pub fn would_take(prog: &Program, f: &crate::ir::Function) -> bool {
    let pointer_use = prog
        .func_named(&f.name)
        .is_some_and(|id| results_used_as_pointers(prog).contains(&(id.0 as usize)));
    covered(prog, f) && !pointer_use && !library_functions(None).contains(&f.name)
}

/// `_` followed by a capital letter: reserved to the implementation like `__`.
fn starts_reserved(name: &str) -> bool {
    let mut c = name.chars();
    c.next() == Some('_') && c.next().is_some_and(|c| c.is_ascii_uppercase())
}

fn returns_plain_value(prog: &Program, ret: &Type) -> bool {
    matches!(
        ret.resolve(&prog.types),
        Type::Void | Type::Int(_) | Type::Enum(_)
    )
}

/// The C and POSIX headers whose functions are never taken as doing nothing.
const HEADERS: &[&str] = &[
    "assert.h",
    "ctype.h",
    "errno.h",
    "fcntl.h",
    "inttypes.h",
    "locale.h",
    "math.h",
    "pthread.h",
    "sched.h",
    "semaphore.h",
    "setjmp.h",
    "signal.h",
    "stdatomic.h",
    "stdio.h",
    "stdlib.h",
    "string.h",
    "strings.h",
    "sys/mman.h",
    "sys/socket.h",
    "sys/stat.h",
    "sys/time.h",
    "sys/types.h",
    "sys/wait.h",
    "threads.h",
    "time.h",
    "unistd.h",
    "wchar.h",
];

/// Every identifier the system's C headers follow with `(`: their functions, and some
/// macros and attributes besides, which only makes the set larger (a name in it is
/// refused, never taken as nondeterministic). Computed once per process with the
/// preprocessor the front end uses; a header the system lacks is left out. `None` when
/// the preprocessor does not run: `library_functions` then refuses every candidate.
fn declared_by_headers(cpp: &str) -> Option<HashSet<String>> {
    let mut text = String::new();
    for h in HEADERS {
        text.push_str(&format!(
            "#if __has_include(<{h}>)\n#include <{h}>\n#endif\n"
        ));
    }
    let mut child = Command::new(cpp)
        .args(["-E", "-P", "-D_GNU_SOURCE", "-x", "c", "-"])
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::null())
        .spawn()
        .ok()?;
    {
        use std::io::Write;
        let mut stdin = child.stdin.take()?;
        stdin.write_all(text.as_bytes()).ok()?;
    }
    let out = child.wait_with_output().ok()?;
    if !out.status.success() {
        return None;
    }
    Some(called_identifiers(&String::from_utf8_lossy(&out.stdout)))
}

/// The identifiers in `text` that a `(` follows.
fn called_identifiers(text: &str) -> HashSet<String> {
    let mut out = HashSet::new();
    let bytes = text.as_bytes();
    let mut i = 0;
    while i < bytes.len() {
        let b = bytes.get(i).copied().unwrap_or(0);
        if b.is_ascii_alphabetic() || b == b'_' {
            let start = i;
            while bytes
                .get(i)
                .is_some_and(|c| c.is_ascii_alphanumeric() || *c == b'_')
            {
                i += 1;
            }
            let mut j = i;
            while bytes.get(j).is_some_and(|c| c.is_ascii_whitespace()) {
                j += 1;
            }
            if bytes.get(j) == Some(&b'(') {
                if let Some(name) = text.get(start..i) {
                    out.insert(name.to_string());
                }
            }
        } else {
            i += 1;
        }
    }
    out
}

/// The library's function names, or — when the preprocessor cannot say — a set that
/// answers "yes" for every name, so nothing is taken as nondeterministic on a guess.
fn library_functions(cpp: Option<&str>) -> Library {
    static NAMES: OnceLock<Option<HashSet<String>>> = OnceLock::new();
    match NAMES.get_or_init(|| declared_by_headers(cpp.unwrap_or("gcc"))) {
        Some(names) => Library::Names(names),
        None => Library::Everything,
    }
}

enum Library {
    Names(&'static HashSet<String>),
    Everything,
}

impl Library {
    fn contains(&self, name: &str) -> bool {
        match self {
            Library::Names(n) => n.contains(name),
            Library::Everything => true,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_headers_name_the_library_functions() {
        let names = declared_by_headers("gcc").expect("gcc preprocesses the C headers");
        for f in [
            "strcpy",
            "fgets",
            "pthread_create",
            "sqrt",
            "sem_wait",
            "sleep",
        ] {
            assert!(names.contains(f), "{f}");
        }
        assert!(!names.contains("acquire_thread_id"));
    }

    #[test]
    fn the_convention_covers_user_functions_returning_plain_values() {
        let prog = crate::frontend::load_text(
            "t.c",
            "int sense(int); char *strcpy(char *, const char *); int *find(int); \
             void __ESBMC_yield(void); int slot(void); \
             int main(void) { int *p = (int *)slot(); return sense(1) + *p; }",
            crate::ir::types::DataModel::Lp64,
        )
        .expect("lowers");
        let takes = |name: &str| {
            let f = prog.func_named(name).expect("declared");
            would_take(&prog, prog.func(f))
        };
        assert!(takes("sense"));
        assert!(!takes("strcpy"), "a C library function");
        assert!(!takes("find"), "returns a pointer");
        assert!(!takes("__ESBMC_yield"), "a reserved name");
        assert!(!takes("slot"), "its result is used as a pointer");
    }

    #[test]
    fn identifiers_before_a_parenthesis() {
        let n = called_identifiers("extern int f (int); int g(void) ; x = h\n(1); y;");
        assert!(n.contains("f") && n.contains("g") && n.contains("h"));
        assert!(!n.contains("x") && !n.contains("y") && !n.contains("int"));
    }
}
