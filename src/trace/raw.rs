//! Checker-neutral counterexample types: what ESBMC and CBMC told us, in one shape.
//!
//! A [`RawTrace`] is still the checker's view of the run (its thread numbers, its file names,
//! its variable spellings); turning it into seqloc's own schedule over the IR is someone
//! else's job. What this file adds on top of the plain data is what every consumer would
//! otherwise re-derive: which steps are the user's, where the thread changes, the last value
//! a variable received, and where the failure shows in the user's code.
//!
//! Value decoding lives here too ([`decode_value_int`], [`int_from_binary`]) because both
//! checkers print integers in C syntax and the rules for reading them are the same.

use std::fmt;

use serde::Serialize;

/// Which checker produced a trace.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize)]
pub enum CheckerKind {
    Esbmc,
    Cbmc,
}

impl fmt::Display for CheckerKind {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            CheckerKind::Esbmc => "ESBMC",
            CheckerKind::Cbmc => "CBMC",
        })
    }
}

/// One checker run, parsed: the verdict and, for a failure, the counterexample.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct RawTrace {
    pub checker: CheckerKind,
    /// The checker's version as it printed it (`7.9.0`), when the output names it.
    pub version: Option<String>,
    pub outcome: Outcome,
    /// The violated property; `None` unless the outcome is [`Outcome::Failed`] (and even then
    /// when the checker printed the verdict without a trace).
    pub violation: Option<Violation>,
    /// Steps in execution order, internal ones included (see [`RawTrace::user_steps`]).
    pub steps: Vec<Step>,
    /// `false` when the source does not record threads (ESBMC's JSON report): every step then
    /// says thread 0 and [`RawTrace::context_switches`] means nothing. ESBMC's text output of
    /// the same run can fill them in (`esbmc::attach_threads`).
    pub threads_known: bool,
}

/// The verdict. A run that did not finish, aborted, or admitted it could not decide is
/// `Unknown`, never `Successful`: "no failure found" must be earned.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub enum Outcome {
    Failed,
    Successful,
    Unknown {
        reason: String,
    },
    /// The checker refused to decide this program because its own model of it would be
    /// unsound (CBMC: "pointer handling for concurrency is unsound"). It decides nothing,
    /// as `Unknown`, but it is a statement about the concurrent program, not about any
    /// bound: the same checker can still run a sequential program derived from it.
    Declined {
        reason: String,
    },
}

#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct Violation {
    pub kind: ViolationKind,
    /// The checker's description (`assertion total == 6`, `Deadlocked state in
    /// pthread_mutex_lock`, a `__ESBMC_assert` message).
    pub message: String,
    /// Where the checker says the property sits (for `reach_error()` that is inside
    /// `reach_error`; see [`RawTrace::failure_site`] for the user's line).
    pub loc: Option<SrcLoc>,
    /// The thread that violated it, when the output says.
    pub thread: Option<u32>,
    /// The violated condition as the checker printed it (`total == 6`), when it did.
    pub condition: Option<String>,
    /// CBMC's property id (`main.assertion.1`); ESBMC has none.
    pub property: Option<String>,
    /// The property sits in the checker's own library models (ESBMC's pthread deadlock
    /// assertions), not in the user's code.
    pub internal: bool,
}

#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub enum ViolationKind {
    /// A user assertion: `assert`, `__VERIFIER_assert` via `reach_error`, `__ESBMC_assert`,
    /// `__CPROVER_assert`.
    Assertion,
    /// A deadlock, as reported by ESBMC's `--deadlock-check`.
    Deadlock,
    /// "must hold lock upon unlock": the pthread models of ESBMC and CBMC (and seqloc's
    /// printed programs) check that an unlock's mutex is locked.
    Unlock,
    /// A loop or recursion was cut by the unwinding bound: not a bug in the program.
    UnwindingAssertion,
    /// Any other built-in check (overflow, pointer, bounds, ...), with the checker's words.
    Other(String),
}

/// The checkers' words for an unlock of a free mutex.
pub fn is_unlock_check(message: &str) -> bool {
    message
        .to_ascii_lowercase()
        .contains("must hold lock upon unlock")
}

#[derive(Debug, Clone, PartialEq, Eq, Hash, Serialize)]
pub struct SrcLoc {
    pub file: String,
    pub line: u32,
    pub column: Option<u32>,
    pub function: Option<String>,
}

#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct Step {
    /// The checker's own step number (ESBMC's and CBMC's `State N`; for formats without
    /// one, the position in the checker's list). Several steps can share one number when a
    /// state holds several lines; numbers have gaps where the checker printed nothing.
    pub index: usize,
    pub thread: u32,
    pub loc: Option<SrcLoc>,
    pub kind: StepKind,
    /// Checker internals and library models (`__ESBMC_*`, `__CPROVER_*`, steps located in
    /// the checker's own model sources such as ESBMC's pthread library, CBMC's hidden
    /// steps). Kept, so that nothing is lost, but not part of the user's program.
    pub internal: bool,
}

#[derive(Debug, Clone, PartialEq, Serialize)]
pub enum StepKind {
    Assignment {
        lhs: String,
        /// The value as the checker printed it, without ESBMC's or CBMC's trailing binary
        /// group.
        value: String,
        /// The value as an integer, when it is one (ints, `_Bool`, chars, `TRUE`/`FALSE`).
        value_int: Option<i128>,
    },
    FunctionCall {
        function: String,
    },
    FunctionReturn {
        function: String,
    },
    Assumption,
    /// Anything else: location-only steps, outputs, and the failing step itself (text
    /// `violated: <message>`).
    Other {
        text: String,
    },
}

/// Functions that SV-COMP programs (and seqloc's own instrumented output) call to signal a
/// failure: a violation located inside them is really at their caller's line.
const ERROR_FUNCTIONS: &[&str] = &[
    "reach_error",
    "__VERIFIER_error",
    "__VERIFIER_assert",
    "__assert_fail",
    "abort",
];

fn in_error_function(loc: &SrcLoc) -> bool {
    loc.function
        .as_deref()
        .is_some_and(|f| ERROR_FUNCTIONS.contains(&f))
}

impl RawTrace {
    /// The steps of the user's program: everything but checker internals and library models.
    pub fn user_steps(&self) -> impl Iterator<Item = &Step> + '_ {
        self.steps.iter().filter(|s| !s.internal)
    }

    /// Positions in [`RawTrace::steps`] of the user steps whose thread differs from the
    /// previous user step's: the context switches of the interleaving, as the user sees it.
    /// Internal steps are skipped because the checkers' thread-start machinery runs in the new
    /// thread before the user's code does, which would put the switch on a library line.
    pub fn context_switches(&self) -> Vec<usize> {
        let mut switches = Vec::new();
        let mut previous: Option<u32> = None;
        for (pos, step) in self.steps.iter().enumerate() {
            if step.internal {
                continue;
            }
            if previous.is_some_and(|t| t != step.thread) {
                switches.push(pos);
            }
            previous = Some(step.thread);
        }
        switches
    }

    /// The last value assigned to `lhs` (spelled as the checker spells it), as text and as an
    /// integer when it is one.
    pub fn last_value_of(&self, lhs: &str) -> Option<(&str, Option<i128>)> {
        self.steps.iter().rev().find_map(|s| match &s.kind {
            StepKind::Assignment {
                lhs: l,
                value,
                value_int,
            } if l == lhs => Some((value.as_str(), *value_int)),
            _ => None,
        })
    }

    /// The threads that appear in the trace, in order of first appearance.
    pub fn threads(&self) -> Vec<u32> {
        let mut seen = Vec::new();
        for s in &self.steps {
            if !seen.contains(&s.thread) {
                seen.push(s.thread);
            }
        }
        seen
    }

    /// Where the failure shows in the user's code. The checker's violation location, unless
    /// that is inside an SV-COMP error function (`reach_error`, `__VERIFIER_assert`, ...) or
    /// in the checker's library models (a deadlock inside ESBMC's `pthread_mutex_lock`): then
    /// the location of the last user step of the violating thread outside those functions,
    /// which is the call site (`__VERIFIER_assert(used <= limit)` rather than `reach_error`'s
    /// body).
    pub fn failure_site(&self) -> Option<&SrcLoc> {
        let violation = self.violation.as_ref()?;
        if let Some(loc) = &violation.loc
            && !violation.internal
            && !in_error_function(loc)
        {
            return Some(loc);
        }
        let same_thread = |s: &&Step| match violation.thread {
            Some(t) if self.threads_known => s.thread == t,
            _ => true,
        };
        self.steps
            .iter()
            .rev()
            .filter(same_thread)
            .filter(|s| !s.internal)
            .filter_map(|s| s.loc.as_ref())
            .find(|loc| !in_error_function(loc))
            .or(violation.loc.as_ref())
    }
}

/// Reads a value as printed by a checker as an integer: decimal, hex or octal C literals with
/// an optional sign and C suffixes (`5`, `-1`, `5ul`, `0x1F`), ESBMC's `5 (00000101)` (the
/// binary group is dropped), `TRUE`/`FALSE`/`true`/`false`, and character literals (`'a'`,
/// `'\n'`, `'\x41'`, `'\101'`). Anything else (pointers, structs, floats, `NULL`) is `None`.
pub fn decode_value_int(text: &str) -> Option<i128> {
    let text = strip_binary_group(text).trim();
    match text {
        "TRUE" | "true" => return Some(1),
        "FALSE" | "false" => return Some(0),
        _ => {}
    }
    if let Some(inner) = text.strip_prefix('\'').and_then(|t| t.strip_suffix('\'')) {
        return decode_char_literal(inner);
    }
    let (negative, digits) = match text.strip_prefix('-') {
        Some(rest) => (true, rest),
        None => (false, text.strip_prefix('+').unwrap_or(text)),
    };
    let digits = digits.trim_end_matches(['u', 'U', 'l', 'L']);
    let magnitude = if let Some(hex) = digits
        .strip_prefix("0x")
        .or_else(|| digits.strip_prefix("0X"))
    {
        parse_radix(hex, 16)?
    } else if digits.len() > 1 && digits.starts_with('0') {
        parse_radix(digits.get(1..)?, 8)?
    } else {
        parse_radix(digits, 10)?
    };
    if negative {
        magnitude.checked_neg()
    } else {
        Some(magnitude)
    }
}

fn parse_radix(digits: &str, radix: u32) -> Option<i128> {
    if digits.is_empty() || !digits.chars().all(|c| c.is_digit(radix)) {
        return None;
    }
    i128::from_str_radix(digits, radix).ok()
}

fn decode_char_literal(inner: &str) -> Option<i128> {
    let mut chars = inner.chars();
    let first = chars.next()?;
    if first != '\\' {
        // A single (possibly multi-byte) character; more than one is not a char literal.
        return chars
            .next()
            .is_none()
            .then_some(i128::from(u32::from(first)));
    }
    let rest: String = chars.collect();
    let simple = match rest.as_str() {
        "n" => Some(10),
        "t" => Some(9),
        "r" => Some(13),
        "a" => Some(7),
        "b" => Some(8),
        "f" => Some(12),
        "v" => Some(11),
        "\\" => Some(92),
        "'" => Some(39),
        "\"" => Some(34),
        "?" => Some(63),
        _ => None,
    };
    if simple.is_some() {
        return simple;
    }
    if let Some(hex) = rest.strip_prefix('x') {
        return parse_radix(hex, 16);
    }
    if !rest.is_empty() && rest.len() <= 3 {
        return parse_radix(&rest, 8);
    }
    None
}

/// Drops a trailing ` (0101 ...)` binary group, as ESBMC and CBMC print after integer values.
/// Only a group of binary digits, spaces and `?` counts, so `( struct node *)0` survives.
pub fn strip_binary_group(text: &str) -> &str {
    let trimmed = text.trim_end();
    if let Some(body) = trimmed.strip_suffix(')')
        && let Some(open) = body.rfind(" (")
        && let (Some(value), Some(group)) = (body.get(..open), body.get(open + 2..))
        && group.chars().any(|c| c == '0' || c == '1')
        && group.chars().all(|c| matches!(c, '0' | '1' | ' ' | '?'))
    {
        return value.trim_end();
    }
    trimmed
}

/// An integer from a two's-complement bit string (most significant bit first), as CBMC's JSON
/// gives them. `None` for non-binary text or values that do not fit an `i128`.
pub fn int_from_binary(bits: &str, signed: bool) -> Option<i128> {
    let bits: Vec<bool> = bits
        .chars()
        .filter(|c| !c.is_whitespace())
        .map(|c| match c {
            '0' => Some(false),
            '1' => Some(true),
            _ => None,
        })
        .collect::<Option<_>>()?;
    if bits.is_empty() || bits.len() > 128 {
        return None;
    }
    let negative = signed && bits.first().copied().unwrap_or(false);
    // A negative value is -(inverted + 1); summing the inverted bits keeps every
    // intermediate value non-negative, so 128-bit widths need no special case.
    let mut value: i128 = 0;
    for &bit in &bits {
        value = value
            .checked_mul(2)?
            .checked_add(i128::from(bit != negative))?;
    }
    if negative {
        value = -value - 1;
    }
    Some(value)
}

/// The fields of a location as ESBMC and CBMC print them: `file F` followed by `line L`,
/// `column C`, `function G` and `thread T` in either checker's order, each optional. File
/// names may hold spaces; the other values are single words, so fields are peeled off the
/// end (a regex with a lazy file group does the same, but is slow in debug builds on
/// multi-megabyte traces).
#[derive(Debug, Default, Clone, Copy, PartialEq, Eq)]
pub(crate) struct LocFields<'a> {
    pub file: Option<&'a str>,
    pub line: Option<&'a str>,
    pub column: Option<&'a str>,
    pub function: Option<&'a str>,
    pub thread: Option<&'a str>,
}

/// Splits `file F line L ...` into its fields; `None` if what is left after the known
/// trailing fields is neither empty nor `file <name>`.
pub(crate) fn loc_fields(text: &str) -> Option<LocFields<'_>> {
    let mut fields = LocFields::default();
    let mut rest = text.trim();
    'peel: while let Some((head, value)) = rest.rsplit_once(' ') {
        for key in ["thread", "line", "column", "function"] {
            let slot = match key {
                "thread" => &mut fields.thread,
                "line" => &mut fields.line,
                "column" => &mut fields.column,
                _ => &mut fields.function,
            };
            if slot.is_none()
                && let Some(before) = head.strip_suffix(key)
                && (before.is_empty() || before.ends_with(' '))
            {
                *slot = Some(value);
                rest = before.trim_end();
                continue 'peel;
            }
        }
        break;
    }
    if !rest.is_empty() {
        fields.file = Some(rest.strip_prefix("file ")?.trim()).filter(|f| !f.is_empty());
        fields.file?;
    }
    Some(fields)
}

impl<'a> LocFields<'a> {
    /// A [`SrcLoc`] if there is a file and a readable line; `Err(())` when a present line,
    /// column or thread is not a number.
    pub(crate) fn src_loc(&self) -> Result<Option<SrcLoc>, ()> {
        let line = self
            .line
            .map(str::parse::<u32>)
            .transpose()
            .map_err(|_| ())?;
        let column = self
            .column
            .map(str::parse::<u32>)
            .transpose()
            .map_err(|_| ())?;
        Ok(match (self.file, line) {
            (Some(file), Some(line)) => Some(SrcLoc {
                file: file.to_string(),
                line,
                column,
                function: self.function.map(str::to_string),
            }),
            _ => None,
        })
    }

    pub(crate) fn thread_number(&self) -> Result<Option<u32>, ()> {
        self.thread
            .map(str::parse::<u32>)
            .transpose()
            .map_err(|_| ())
    }
}

/// How ESBMC and CBMC word their built-in checks (bounds, pointers, overflow, ...). A failed
/// property described otherwise, at a user location, is a user's assertion with a message
/// (`__ESBMC_assert(c, "msg")`, `__CPROVER_assert(c, "msg")`).
const BUILTIN_CHECKS: &[&str] = &[
    "dereference failure",
    "array bounds",
    "array ",
    "division by zero",
    "arithmetic overflow",
    "overflow",
    "nan on",
    "same object violation",
    "invalid pointer",
    "pointer",
    "data race",
    "memory leak",
    "forgotten memory",
    "atomicity violation",
    "undefined behavior",
    "undefined shift",
    "shift distance",
    "free argument",
    "double free",
];

pub(crate) fn is_builtin_check(message: &str) -> bool {
    let lower = message.to_ascii_lowercase();
    BUILTIN_CHECKS.iter().any(|c| lower.starts_with(c))
}

/// Errors from the parsers: the output is not what the checker prints. Each message quotes a
/// short snippet of the offending text.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum TraceParseError {
    #[error("{checker} output is not valid JSON ({reason}) near `{snippet}`")]
    Json {
        checker: CheckerKind,
        reason: String,
        snippet: String,
    },
    #[error("{checker} output: {what} near `{snippet}`")]
    Malformed {
        checker: CheckerKind,
        what: String,
        snippet: String,
    },
    #[error("{checker} output not recognised (no verdict, trace or banner) near `{snippet}`")]
    Unrecognised {
        checker: CheckerKind,
        snippet: String,
    },
}

/// A short, single-line excerpt of `text` for error messages.
pub(crate) fn snippet(text: &str) -> String {
    const MAX_CHARS: usize = 80;
    let text = text.trim();
    let mut out: String = text
        .chars()
        .take(MAX_CHARS)
        .map(|c| if c.is_control() { ' ' } else { c })
        .collect();
    if text.chars().nth(MAX_CHARS).is_some() {
        out.push('…');
    }
    out
}

/// A short excerpt of `text` around byte offset `at` (clamped to a char boundary).
pub(crate) fn snippet_at(text: &str, at: usize) -> String {
    let mut start = at.min(text.len()).saturating_sub(30);
    while !text.is_char_boundary(start) {
        start -= 1;
    }
    snippet(text.get(start..).unwrap_or(""))
}

/// The last non-blank line of `text`, for "the output stops here" reasons.
pub(crate) fn last_line(text: &str) -> String {
    snippet(
        text.lines()
            .rev()
            .find(|l| !l.trim().is_empty())
            .unwrap_or(""),
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    fn step(index: usize, thread: u32, internal: bool, line: u32) -> Step {
        Step {
            index,
            thread,
            loc: Some(SrcLoc {
                file: "a.c".into(),
                line,
                column: None,
                function: Some("f".into()),
            }),
            kind: StepKind::Assignment {
                lhs: "x".into(),
                value: index.to_string(),
                value_int: Some(index as i128),
            },
            internal,
        }
    }

    fn trace(steps: Vec<Step>) -> RawTrace {
        RawTrace {
            checker: CheckerKind::Cbmc,
            version: None,
            outcome: Outcome::Failed,
            violation: None,
            steps,
            threads_known: true,
        }
    }

    #[test]
    fn decodes_checker_integers() {
        assert_eq!(decode_value_int("5 (00000101)"), Some(5));
        assert_eq!(
            decode_value_int("-1 (11111111 11111111 11111111 11111111)"),
            Some(-1)
        );
        assert_eq!(decode_value_int("0ul"), Some(0));
        assert_eq!(
            decode_value_int("18446744073709551615ull"),
            Some(18446744073709551615)
        );
        assert_eq!(decode_value_int("0x1F"), Some(31));
        assert_eq!(decode_value_int("010"), Some(8));
        assert_eq!(decode_value_int("TRUE"), Some(1));
        assert_eq!(decode_value_int("false"), Some(0));
        assert_eq!(decode_value_int("'a'"), Some(97));
        assert_eq!(decode_value_int("'\\n'"), Some(10));
        assert_eq!(decode_value_int("'\\x41'"), Some(65));
        assert_eq!(decode_value_int("'\\0'"), Some(0));
        assert_eq!(decode_value_int("&a"), None);
        assert_eq!(decode_value_int("( struct node *)0"), None);
        assert_eq!(decode_value_int("{ .func=&adder, .start_arg=0 }"), None);
        assert_eq!(decode_value_int("1.5 (00111111 11000000)"), None);
        assert_eq!(decode_value_int("NULL"), None);
        assert_eq!(decode_value_int(""), None);
        assert_eq!(decode_value_int("-"), None);
        assert_eq!(
            decode_value_int("99999999999999999999999999999999999999999"),
            None
        );
    }

    #[test]
    fn strips_only_binary_groups() {
        assert_eq!(strip_binary_group("5 (00000101)"), "5");
        assert_eq!(strip_binary_group("( struct node *)0"), "( struct node *)0");
        assert_eq!(strip_binary_group("(void *)(&va)"), "(void *)(&va)");
        assert_eq!(strip_binary_group("f(1)"), "f(1)");
    }

    #[test]
    fn decodes_binary() {
        assert_eq!(int_from_binary("00000101", true), Some(5));
        assert_eq!(int_from_binary("11111111", true), Some(-1));
        assert_eq!(int_from_binary("11111111", false), Some(255));
        assert_eq!(int_from_binary("1", false), Some(1));
        assert_eq!(int_from_binary("", false), None);
        assert_eq!(int_from_binary("012", false), None);
        assert_eq!(int_from_binary(&"1".repeat(128), true), Some(-1));
        assert_eq!(int_from_binary(&"1".repeat(128), false), None);
        assert_eq!(int_from_binary(&"0".repeat(200), false), None);
    }

    #[test]
    fn context_switches_skip_internal_steps() {
        let t = trace(vec![
            step(1, 0, false, 1),
            step(2, 1, true, 2),
            step(3, 0, false, 3),
            step(4, 1, true, 4),
            step(5, 1, false, 5),
            step(6, 0, false, 6),
        ]);
        assert_eq!(t.context_switches(), vec![4, 5]);
        assert_eq!(t.user_steps().count(), 4);
        assert_eq!(t.last_value_of("x"), Some(("6", Some(6))));
        assert_eq!(t.last_value_of("y"), None);
        assert_eq!(t.threads(), vec![0, 1]);
    }

    #[test]
    fn failure_site_walks_out_of_error_functions() {
        let mut t = trace(vec![step(1, 0, false, 31), step(2, 1, false, 16)]);
        let in_reach_error = SrcLoc {
            file: "a.c".into(),
            line: 3,
            column: None,
            function: Some("reach_error".into()),
        };
        t.steps.push(Step {
            index: 3,
            thread: 0,
            loc: Some(in_reach_error.clone()),
            kind: StepKind::Other {
                text: "violated: assertion 0".into(),
            },
            internal: false,
        });
        t.violation = Some(Violation {
            kind: ViolationKind::Assertion,
            message: "assertion 0".into(),
            loc: Some(in_reach_error),
            thread: Some(0),
            condition: None,
            property: None,
            internal: false,
        });
        assert_eq!(t.failure_site().map(|l| l.line), Some(31));
    }

    #[test]
    fn location_fields_in_both_orders() {
        let esbmc = loc_fields("file my file.c line 23 column 3 function main").expect("esbmc");
        assert_eq!(esbmc.file, Some("my file.c"));
        assert_eq!(
            (esbmc.line, esbmc.column, esbmc.function),
            (Some("23"), Some("3"), Some("main"))
        );
        let cbmc = loc_fields(
            "file <builtin-library-pthread_create> function __actual_thread_spawn line 21 thread 2",
        )
        .expect("cbmc");
        assert_eq!(cbmc.file, Some("<builtin-library-pthread_create>"));
        assert_eq!(
            (cbmc.function, cbmc.line, cbmc.thread),
            (Some("__actual_thread_spawn"), Some("21"), Some("2"))
        );
        assert_eq!(loc_fields(""), Some(LocFields::default()));
        assert_eq!(loc_fields("line 4").and_then(|f| f.line), Some("4"));
        assert_eq!(loc_fields("nonsense here"), None);
        assert_eq!(loc_fields("file"), None);
        let global = loc_fields("file f03_loop.c line 4 column 1").expect("global");
        assert_eq!(
            global
                .src_loc()
                .ok()
                .flatten()
                .map(|l| (l.line, l.function)),
            Some((4, None))
        );
        assert!(
            loc_fields("file a.c line x")
                .expect("fields")
                .src_loc()
                .is_err()
        );
    }

    #[test]
    fn snippets_are_short_and_safe() {
        let long = "é".repeat(200);
        assert!(snippet(&long).chars().count() <= 81);
        for at in 0..10 {
            assert!(!snippet_at(&long, at).is_empty());
        }
        assert_eq!(snippet_at("abc", 99), "abc");
        assert_eq!(last_line("a\nb\n\n"), "b");
    }
}
