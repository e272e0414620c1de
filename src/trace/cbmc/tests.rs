//! CBMC's outputs read into `RawTrace`: recorded JSON and text traces, verdicts, errors.

use super::*;
use crate::trace::test_support::fixtures_dir;

// `bank.c`, the program behind the hand-written traces below (line numbers matter):
//
//  1  #include <assert.h>
//  2  #include <pthread.h>
//  3  int balance = 10;
//  4  void *withdraw(void *arg)
//  5  {
//  6    int b = balance;
//  7    b = b - 6;
//  8    balance = b;
//  9    return 0;
// 10  }
// 11  int main(void)
// 12  {
// 13    pthread_t t1, t2;
// 14    pthread_create(&t1, 0, withdraw, 0);
// 15    pthread_create(&t2, 0, withdraw, 0);
// 16    pthread_join(t1, 0);
// 17    pthread_join(t2, 0);
// 18    assert(balance == -2);
// 19    return 0;
// 20  }
//
// Both threads read 10 and write 4: the lost update fails the assertion. The traces follow
// FORMAT.md §2: key order, string lines, numeric threads, hidden pthread-library steps, and
// the ordering of §2.6 (thread 2's start-routine call and parameter come after thread 1's
// steps, displaced to the slot of the last shared access).

/// The failing trace's steps, one per line as in FORMAT.md §4.
const BANK_STEPS: &str = r##"
      {"assignmentType": "variable", "hidden": true, "internal": false, "lhs": "__CPROVER_next_thread_id", "mode": "C", "sourceLocation": {"file": "<built-in-additions>", "line": "20"}, "stepType": "assignment", "thread": 0, "value": {"binary": "0000000000000000000000000000000000000000000000000000000000000000", "data": "0ul", "name": "integer", "type": "unsigned long int", "width": 64}},
      {"assignmentType": "variable", "hidden": false, "internal": false, "lhs": "balance", "mode": "C", "sourceLocation": {"file": "bank.c", "line": "3", "workingDirectory": "/src"}, "stepType": "assignment", "thread": 0, "value": {"binary": "00000000000000000000000000001010", "data": "10", "name": "integer", "type": "signed int", "width": 32}},
      {"function": {"displayName": "main", "identifier": "main", "sourceLocation": {"file": "bank.c", "line": "11", "workingDirectory": "/src"}}, "hidden": false, "internal": false, "sourceLocation": {"file": "bank.c", "line": "11", "workingDirectory": "/src"}, "stepType": "function-call", "thread": 0},
      {"assignmentType": "variable", "hidden": false, "internal": false, "lhs": "t1", "mode": "C", "sourceLocation": {"file": "bank.c", "function": "main", "line": "13", "workingDirectory": "/src"}, "stepType": "assignment", "thread": 0, "value": {"binary": "0000000000000000000000000000000000000000000000000000000000000000", "data": "0ul", "name": "integer", "type": "unsigned long int", "width": 64}},
      {"assignmentType": "variable", "hidden": false, "internal": false, "lhs": "t2", "mode": "C", "sourceLocation": {"file": "bank.c", "function": "main", "line": "13", "workingDirectory": "/src"}, "stepType": "assignment", "thread": 0, "value": {"binary": "0000000000000000000000000000000000000000000000000000000000000000", "data": "0ul", "name": "integer", "type": "unsigned long int", "width": 64}},
      {"function": {"displayName": "pthread_create", "identifier": "pthread_create", "sourceLocation": {"file": "<builtin-library-pthread_create>", "function": "pthread_create", "line": "36"}}, "hidden": false, "internal": false, "sourceLocation": {"file": "bank.c", "function": "main", "line": "14", "workingDirectory": "/src"}, "stepType": "function-call", "thread": 0},
      {"assignmentType": "variable", "hidden": true, "internal": false, "lhs": "t1", "mode": "C", "sourceLocation": {"file": "<builtin-library-pthread_create>", "function": "pthread_create", "line": "46"}, "stepType": "assignment", "thread": 0, "value": {"binary": "0000000000000000000000000000000000000000000000000000000000000001", "data": "1ul", "name": "integer", "type": "unsigned long int", "width": 64}},
      {"function": {"displayName": "pthread_create", "identifier": "pthread_create", "sourceLocation": {"file": "<builtin-library-pthread_create>", "function": "pthread_create", "line": "36"}}, "hidden": true, "internal": false, "sourceLocation": {"file": "<builtin-library-pthread_create>", "function": "pthread_create", "line": "52"}, "stepType": "function-return", "thread": 0},
      {"function": {"displayName": "pthread_create", "identifier": "pthread_create", "sourceLocation": {"file": "<builtin-library-pthread_create>", "function": "pthread_create", "line": "36"}}, "hidden": false, "internal": false, "sourceLocation": {"file": "bank.c", "function": "main", "line": "15", "workingDirectory": "/src"}, "stepType": "function-call", "thread": 0},
      {"assignmentType": "variable", "hidden": true, "internal": false, "lhs": "t2", "mode": "C", "sourceLocation": {"file": "<builtin-library-pthread_create>", "function": "pthread_create", "line": "46"}, "stepType": "assignment", "thread": 0, "value": {"binary": "0000000000000000000000000000000000000000000000000000000000000010", "data": "2ul", "name": "integer", "type": "unsigned long int", "width": 64}},
      {"function": {"displayName": "pthread_create", "identifier": "pthread_create", "sourceLocation": {"file": "<builtin-library-pthread_create>", "function": "pthread_create", "line": "36"}}, "hidden": true, "internal": false, "sourceLocation": {"file": "<builtin-library-pthread_create>", "function": "pthread_create", "line": "52"}, "stepType": "function-return", "thread": 0},
      {"function": {"displayName": "pthread_join", "identifier": "pthread_join", "sourceLocation": {"file": "<builtin-library-pthread_join>", "function": "pthread_join", "line": "24"}}, "hidden": false, "internal": false, "sourceLocation": {"file": "bank.c", "function": "main", "line": "16", "workingDirectory": "/src"}, "stepType": "function-call", "thread": 0},
      {"assignmentType": "variable", "hidden": false, "internal": false, "lhs": "b", "mode": "C", "sourceLocation": {"file": "bank.c", "function": "withdraw", "line": "6", "workingDirectory": "/src"}, "stepType": "assignment", "thread": 1, "value": {"binary": "00000000000000000000000000001010", "data": "10", "name": "integer", "type": "signed int", "width": 32}},
      {"assignmentType": "variable", "hidden": false, "internal": false, "lhs": "b", "mode": "C", "sourceLocation": {"file": "bank.c", "function": "withdraw", "line": "7", "workingDirectory": "/src"}, "stepType": "assignment", "thread": 1, "value": {"binary": "00000000000000000000000000000100", "data": "4", "name": "integer", "type": "signed int", "width": 32}},
      {"assignmentType": "variable", "hidden": false, "internal": false, "lhs": "b", "mode": "C", "sourceLocation": {"file": "bank.c", "function": "withdraw", "line": "6", "workingDirectory": "/src"}, "stepType": "assignment", "thread": 2, "value": {"binary": "00000000000000000000000000001010", "data": "10", "name": "integer", "type": "signed int", "width": 32}},
      {"assignmentType": "variable", "hidden": false, "internal": false, "lhs": "b", "mode": "C", "sourceLocation": {"file": "bank.c", "function": "withdraw", "line": "7", "workingDirectory": "/src"}, "stepType": "assignment", "thread": 2, "value": {"binary": "00000000000000000000000000000100", "data": "4", "name": "integer", "type": "signed int", "width": 32}},
      {"assignmentType": "variable", "hidden": false, "internal": false, "lhs": "balance", "mode": "C", "sourceLocation": {"file": "bank.c", "function": "withdraw", "line": "8", "workingDirectory": "/src"}, "stepType": "assignment", "thread": 2, "value": {"binary": "00000000000000000000000000000100", "data": "4", "name": "integer", "type": "signed int", "width": 32}},
      {"hidden": false, "sourceLocation": {"file": "bank.c", "function": "withdraw", "line": "9", "workingDirectory": "/src"}, "stepType": "location-only", "thread": 2},
      {"function": {"displayName": "withdraw", "identifier": "withdraw", "sourceLocation": {"file": "bank.c", "line": "4", "workingDirectory": "/src"}}, "hidden": false, "internal": false, "sourceLocation": {"file": "bank.c", "function": "withdraw", "line": "10", "workingDirectory": "/src"}, "stepType": "function-return", "thread": 2},
      {"assignmentType": "variable", "hidden": false, "internal": false, "lhs": "balance", "mode": "C", "sourceLocation": {"file": "bank.c", "function": "withdraw", "line": "8", "workingDirectory": "/src"}, "stepType": "assignment", "thread": 1, "value": {"binary": "00000000000000000000000000000100", "data": "4", "name": "integer", "type": "signed int", "width": 32}},
      {"hidden": false, "sourceLocation": {"file": "bank.c", "function": "withdraw", "line": "9", "workingDirectory": "/src"}, "stepType": "location-only", "thread": 1},
      {"function": {"displayName": "withdraw", "identifier": "withdraw", "sourceLocation": {"file": "bank.c", "line": "4", "workingDirectory": "/src"}}, "hidden": false, "internal": false, "sourceLocation": {"file": "bank.c", "function": "withdraw", "line": "10", "workingDirectory": "/src"}, "stepType": "function-return", "thread": 1},
      {"function": {"displayName": "withdraw", "identifier": "withdraw", "sourceLocation": {"file": "bank.c", "line": "4", "workingDirectory": "/src"}}, "hidden": false, "internal": false, "sourceLocation": {"file": "<builtin-library-pthread_create>", "function": "__actual_thread_spawn", "line": "21"}, "stepType": "function-call", "thread": 2},
      {"assignmentType": "actual-parameter", "hidden": false, "internal": false, "lhs": "arg", "mode": "C", "sourceLocation": {"file": "<builtin-library-pthread_create>", "function": "__actual_thread_spawn", "line": "21"}, "stepType": "assignment", "thread": 2, "value": {"data": "NULL", "name": "pointer", "type": "void *"}},
      {"function": {"displayName": "pthread_join", "identifier": "pthread_join", "sourceLocation": {"file": "<builtin-library-pthread_join>", "function": "pthread_join", "line": "24"}}, "hidden": true, "internal": false, "sourceLocation": {"file": "<builtin-library-pthread_join>", "function": "pthread_join", "line": "31"}, "stepType": "function-return", "thread": 0},
      {"function": {"displayName": "pthread_join", "identifier": "pthread_join", "sourceLocation": {"file": "<builtin-library-pthread_join>", "function": "pthread_join", "line": "24"}}, "hidden": false, "internal": false, "sourceLocation": {"file": "bank.c", "function": "main", "line": "17", "workingDirectory": "/src"}, "stepType": "function-call", "thread": 0},
      {"function": {"displayName": "pthread_join", "identifier": "pthread_join", "sourceLocation": {"file": "<builtin-library-pthread_join>", "function": "pthread_join", "line": "24"}}, "hidden": true, "internal": false, "sourceLocation": {"file": "<builtin-library-pthread_join>", "function": "pthread_join", "line": "31"}, "stepType": "function-return", "thread": 0},
      {"hidden": false, "internal": false, "property": "main.assertion.1", "reason": "assertion balance == -2", "sourceLocation": {"file": "bank.c", "function": "main", "line": "18", "workingDirectory": "/src"}, "stepType": "failure", "thread": 0}
"##;

fn bank_json() -> String {
    format!(
        r##"[
  {{
"program": "CBMC 6.4.1 (cbmc-6.4.1)"
  }},
  {{
"messageText": "CBMC version 6.4.1 (cbmc-6.4.1) 64-bit x86_64 linux",
"messageType": "STATUS-MESSAGE"
  }},
  {{
"messageText": "Building error trace",
"messageType": "STATUS-MESSAGE"
  }},
  {{
"messageText": "function 'pthread_join': no body",
"messageType": "WARNING",
"sourceLocation": {{
  "file": "bank.c",
  "function": "main",
  "line": "16",
  "workingDirectory": "/src"
}}
  }},
  {{
"result": [
  {{
    "description": "dereference failure: pointer NULL in *thread",
    "property": "pthread_create.pointer_dereference.1",
    "sourceLocation": {{
      "file": "<builtin-library-pthread_create>",
      "function": "pthread_create",
      "line": "46"
    }},
    "status": "SUCCESS"
  }},
  {{
    "description": "assertion balance == -2",
    "property": "main.assertion.1",
    "sourceLocation": {{
      "file": "bank.c",
      "function": "main",
      "line": "18",
      "workingDirectory": "/src"
    }},
    "status": "FAILURE",
    "trace": [{BANK_STEPS}        ]
  }}
]
  }},
  {{
"messageText": "VERIFICATION FAILED",
"messageType": "STATUS-MESSAGE"
  }},
  {{
"cProverStatus": "failure"
  }}
]
"##
    )
}

/// The same run printed without `--json-ui` (FORMAT.md §3): hidden steps left out, global
/// initialisers in `__CPROVER_initialize`.
const BANK_TEXT: &str = "CBMC version 6.4.1 (cbmc-6.4.1) 64-bit x86_64 linux
Parsing bank.c
Converting
Type-checking bank
Generating GOTO Program
Adding CPROVER library (x86_64)
Running with 8 object bits, 56 offset bits (default)
Starting Bounded Model Checking
Building error trace

** Results:
<builtin-library-pthread_create> function pthread_create
[pthread_create.pointer_dereference.1] line 46 dereference failure: pointer NULL in *thread: SUCCESS

bank.c function main
[main.assertion.1] line 18 assertion balance == -2: FAILURE

Trace for main.assertion.1:

State 23 file bank.c function __CPROVER_initialize line 3 thread 0
----------------------------------------------------
  balance=10 (00000000 00000000 00000000 00001010)

State 27 file bank.c function main line 13 thread 0
----------------------------------------------------
  t1=0ul (00000000 00000000 00000000 00000000 00000000 00000000 00000000 00000000)

State 28 file bank.c function main line 13 thread 0
----------------------------------------------------
  t2=0ul (00000000 00000000 00000000 00000000 00000000 00000000 00000000 00000000)

State 61 file bank.c function withdraw line 6 thread 1
----------------------------------------------------
  b=10 (00000000 00000000 00000000 00001010)

State 62 file bank.c function withdraw line 7 thread 1
----------------------------------------------------
  b=4 (00000000 00000000 00000000 00000100)

State 64 file bank.c function withdraw line 6 thread 2
----------------------------------------------------
  b=10 (00000000 00000000 00000000 00001010)

State 65 file bank.c function withdraw line 7 thread 2
----------------------------------------------------
  b=4 (00000000 00000000 00000000 00000100)

State 66 file bank.c function withdraw line 8 thread 2
----------------------------------------------------
  balance=4 (00000000 00000000 00000000 00000100)

State 71 file bank.c function withdraw line 8 thread 1
----------------------------------------------------
  balance=4 (00000000 00000000 00000000 00000100)

State 79 file <builtin-library-pthread_create> function __actual_thread_spawn line 21 thread 2
----------------------------------------------------
  arg=NULL (00000000 00000000 00000000 00000000 00000000 00000000 00000000 00000000)

Violated property:
  file bank.c function main line 18 thread 0
  assertion balance == -2
  balance == -2


** 1 of 2 failed (2 iterations)
VERIFICATION FAILED
";

/// Every hand-written CBMC output above, for the robustness test in `trace/mod.rs`.
pub(crate) fn sample_outputs() -> Vec<String> {
    vec![
        bank_json(),
        BANK_TEXT.to_string(),
        bank_json().replace("\n]\n", "\n"),
        bank_json().replace(
            "assertion balance == -2",
            "pointer handling for concurrency is unsound",
        ),
    ]
}

/// Thread changes over *all* steps, internal ones included: what CBMC's order says.
fn raw_switches(trace: &RawTrace) -> Vec<usize> {
    trace
        .steps
        .windows(2)
        .enumerate()
        .filter(|(_, w)| w[0].thread != w[1].thread)
        .map(|(i, _)| i + 1)
        .collect()
}

fn failed_violation(trace: &RawTrace) -> &Violation {
    assert_eq!(trace.outcome, Outcome::Failed);
    trace.violation.as_ref().expect("violation")
}

#[test]
fn json_ui_two_threads_failed_assertion() {
    let trace = parse_json_ui(&bank_json()).expect("parses");
    assert_eq!(trace.checker, CheckerKind::Cbmc);
    assert_eq!(trace.version.as_deref(), Some("6.4.1"));
    let v = failed_violation(&trace);
    assert_eq!(v.kind, ViolationKind::Assertion);
    assert_eq!(v.message, "assertion balance == -2");
    assert_eq!(v.property.as_deref(), Some("main.assertion.1"));
    assert_eq!(v.thread, Some(0));
    assert!(!v.internal);
    let loc = v.loc.as_ref().expect("located");
    assert_eq!(
        (loc.file.as_str(), loc.line, loc.function.as_deref()),
        ("bank.c", 18, Some("main"))
    );
    assert_eq!(trace.failure_site(), v.loc.as_ref());

    assert_eq!(trace.steps.len(), 28);
    assert!(trace.threads_known);
    assert_eq!(trace.threads(), vec![0, 1, 2]);
    // Values: signed ints from `binary`, unsigned longs with their C suffix as text, a
    // NULL pointer without an integer.
    assert_eq!(trace.last_value_of("balance"), Some(("4", Some(4))));
    assert_eq!(trace.last_value_of("t2"), Some(("2ul", Some(2))));
    assert_eq!(trace.last_value_of("arg"), Some(("NULL", None)));
    let last = trace.steps.last().expect("steps");
    assert_eq!(
        last.kind,
        StepKind::Other {
            text: "violated: assertion balance == -2".into()
        }
    );
    // The global initialiser has no function, as FORMAT.md §2.4 says.
    assert_eq!(
        trace.steps[1].loc.as_ref().map(|l| l.function.is_none()),
        Some(true)
    );
}

#[test]
fn json_ui_hidden_and_internal_steps_are_marked() {
    let trace = parse_json_ui(&bank_json()).expect("parses");
    let internal: Vec<usize> = trace
        .steps
        .iter()
        .enumerate()
        .filter(|(_, s)| s.internal)
        .map(|(i, _)| i)
        .collect();
    // Hidden: CPROVER's thread counter, pthread_create/join internals. Library file:
    // the start-routine call and its parameter in `__actual_thread_spawn`.
    assert_eq!(internal, vec![0, 6, 7, 9, 10, 22, 23, 24, 26]);
    assert!(
        matches!(&trace.steps[5].kind, StepKind::FunctionCall { function } if function == "pthread_create")
    );
    assert!(
        !trace.steps[5].internal,
        "the user's call of pthread_create is the user's"
    );
    assert!(
        matches!(&trace.steps[18].kind, StepKind::FunctionReturn { function } if function == "withdraw")
    );
    assert!(matches!(&trace.steps[17].kind, StepKind::Other { text } if text == "location-only"));
    assert_eq!(trace.user_steps().count(), 28 - internal.len());
}

/// FORMAT.md §2.6: the array order is the execution order; thread 2's displaced entry
/// steps stay where CBMC put them and do not count as a switch to the user.
#[test]
fn json_ui_keeps_cbmc_order() {
    let trace = parse_json_ui(&bank_json()).expect("parses");
    assert!(trace.steps.iter().enumerate().all(|(i, s)| s.index == i));
    assert_eq!(raw_switches(&trace), vec![12, 14, 19, 22, 24]);
    assert_eq!(trace.context_switches(), vec![12, 14, 19, 25]);
    // The lost update: thread 2 writes 4, then thread 1 writes its stale 4.
    let writes: Vec<u32> = trace
        .steps
        .iter()
        .filter(|s| matches!(&s.kind, StepKind::Assignment { lhs, .. } if lhs == "balance"))
        .map(|s| s.thread)
        .collect();
    assert_eq!(writes, vec![0, 2, 1]);
}

/// FORMAT.md's own worked example, read at test time: its documented context switches.
#[test]
fn format_md_worked_example() {
    let Some(dir) = fixtures_dir() else { return };
    let doc = std::fs::read_to_string(dir.join("cbmc/FORMAT.md")).expect("FORMAT.md");
    let start = doc.find("```json\n[").expect("the worked example") + "```json\n".len();
    let end = start + doc[start..].find("\n```").expect("its end");
    let trace = parse_json_ui(&doc[start..end]).expect("parses");
    assert_eq!(trace.outcome, Outcome::Failed);
    assert_eq!(raw_switches(&trace), vec![11, 13, 18, 21, 24]);
    let v = trace.violation.as_ref().expect("violation");
    assert_eq!(
        (v.loc.as_ref().map(|l| l.line), v.thread),
        (Some(21), Some(0))
    );
    assert_eq!(trace.last_value_of("counter"), Some(("1", Some(1))));

    let text_start = doc.find("```\n\n** Results:").expect("the text example") + 4;
    let text_end = text_start + doc[text_start..].find("\n```").expect("its end");
    let text = parse_text(&doc[text_start..text_end]).expect("parses");
    assert_eq!(text.outcome, Outcome::Failed);
    let tv = text.violation.as_ref().expect("violation");
    assert_eq!(
        (tv.loc.as_ref().map(|l| l.line), tv.thread),
        (Some(21), Some(0))
    );
    assert_eq!(text.last_value_of("counter"), Some(("1", Some(1))));
}

#[test]
fn json_ui_picks_the_first_failure_and_its_own_failure_step() {
    // Two failed properties; the second's trace contains the first's failure step
    // (FORMAT.md §2.3: earlier `failure` steps of other properties can occur inside).
    let json = r#"[
  {"program": "CBMC 6.4.1 (cbmc-6.4.1)"},
  {"result": [
{"description": "assertion x > 0", "property": "main.assertion.1", "status": "SUCCESS"},
{"description": "assertion y == 1", "property": "main.assertion.2",
 "sourceLocation": {"file": "a.c", "function": "main", "line": "9"}, "status": "FAILURE",
 "trace": [
   {"hidden": false, "internal": false, "property": "main.assertion.3", "reason": "assertion z", "sourceLocation": {"file": "a.c", "function": "main", "line": "7"}, "stepType": "failure", "thread": 0},
   {"assignmentType": "variable", "hidden": false, "internal": false, "lhs": "y", "mode": "C", "sourceLocation": {"file": "a.c", "function": "worker", "line": "4"}, "stepType": "assignment", "thread": 1, "value": {"binary": "11111111111111111111111111111110", "data": "-2", "name": "integer", "type": "signed int", "width": 32}},
   {"hidden": false, "internal": false, "property": "main.assertion.2", "reason": "assertion y == 1", "sourceLocation": {"file": "a.c", "function": "main", "line": "9"}, "stepType": "failure", "thread": 0}
 ]},
{"description": "assertion z", "property": "main.assertion.3", "status": "FAILURE", "trace": []}
  ]},
  {"cProverStatus": "failure"}
]"#;
    let trace = parse_json_ui(json).expect("parses");
    let v = failed_violation(&trace);
    assert_eq!(v.property.as_deref(), Some("main.assertion.2"));
    assert_eq!(v.loc.as_ref().map(|l| l.line), Some(9));
    assert_eq!(trace.last_value_of("y"), Some(("-2", Some(-2))));
    assert_eq!(trace.steps.len(), 3);
    // No `sourceLocation` on the result (older CBMC): the failure step's location.
    let older = json.replace(
        r#""sourceLocation": {"file": "a.c", "function": "main", "line": "9"}, "status""#,
        r#""status""#,
    );
    let trace = parse_json_ui(&older).expect("parses");
    assert_eq!(
        failed_violation(&trace).loc.as_ref().map(|l| l.line),
        Some(9)
    );
}

#[test]
fn unsoundness_abort_is_declined() {
    let aborted = r#"[
  {
"program": "CBMC 6.4.1 (cbmc-6.4.1)"
  },
  {
"messageText": "CBMC version 6.4.1 (cbmc-6.4.1) 64-bit x86_64 linux",
"messageType": "STATUS-MESSAGE"
  },
  {
"messageText": "Starting Bounded Model Checking",
"messageType": "STATUS-MESSAGE"
  },
  {
"messageText": "pointer handling for concurrency is unsound",
"messageType": "ERROR"
  }
]
"#;
    for text in [aborted.to_string(), aborted.replace("]\n", "")] {
        let trace = parse_json_ui(&text).expect("parses");
        let Outcome::Declined { reason } = &trace.outcome else {
            panic!("abort parsed as {:?}", trace.outcome)
        };
        assert!(reason.contains("unsound"), "{reason}");
        assert!(trace.violation.is_none());
    }
    // Even next to a verdict, an unsound encoding decides nothing.
    let with_status = aborted.replace(
        "\n]\n",
        ",\n  {\n    \"cProverStatus\": \"success\"\n  }\n]\n",
    );
    assert!(matches!(
        parse_json_ui(&with_status).expect("parses").outcome,
        Outcome::Declined { .. }
    ));
    // Plain text: on stderr (text mode) or wherever it lands.
    let stdout =
        "CBMC version 6.4.1 (cbmc-6.4.1) 64-bit x86_64 linux\nStarting Bounded Model Checking\n";
    let trace =
        parse_text_output(stdout, "pointer handling for concurrency is unsound\n").expect("parses");
    assert!(matches!(trace.outcome, Outcome::Declined { .. }));
    let trace = parse_text(&format!(
        "{stdout}pointer handling for concurrency is unsound\n"
    ))
    .expect("parses");
    assert!(matches!(trace.outcome, Outcome::Declined { .. }));
}

/// CBMC's check of its own spawned-thread model (`__spawned_thread.*`) is not a property of
/// the program: beside a failed assertion of the program, the assertion is the failure;
/// alone, CBMC declined the program.
#[test]
fn a_failure_of_cbmcs_thread_model_is_no_failure_of_the_program() {
    let spawned = bank_json().replace(
        r#""description": "dereference failure: pointer NULL in *thread",
    "property": "pthread_create.pointer_dereference.1","#,
        r#""description": "dereferenced function pointer must be worker",
    "property": "__spawned_thread.pointer_dereference.1","#,
    );
    let both = spawned.replacen(r#""status": "SUCCESS""#, r#""status": "FAILURE""#, 1);
    assert_ne!(both, spawned, "the thread model's check is made to fail");
    let trace = parse_json_ui(&both).expect("parses");
    assert_eq!(trace.outcome, Outcome::Failed);
    let v = trace.violation.expect("the program's assertion");
    assert_eq!(v.property.as_deref(), Some("main.assertion.1"));
    // Only the model's check failed (the program's assertion held).
    let alone = both.replace(
        r#""status": "FAILURE",
    "trace""#,
        r#""status": "SUCCESS",
    "trace""#,
    );
    assert_ne!(alone, both, "the program's assertion is made to hold");
    let trace = parse_json_ui(&alone).expect("parses");
    let Outcome::Declined { reason } = &trace.outcome else {
        panic!("parsed as {:?}", trace.outcome)
    };
    assert!(
        reason.contains("__spawned_thread.pointer_dereference.1"),
        "{reason}"
    );
}

#[test]
fn other_verdicts() {
    let with_status = |status: &str, extra: &str| {
        format!(
            "[\n  {{\n    \"program\": \"CBMC 6.4.1 (cbmc-6.4.1)\"\n  }},{extra}\n  {{\n    \"result\": [\n      {{\n        \"description\": \"assertion x\",\n        \"property\": \"main.assertion.1\",\n        \"status\": \"UNKNOWN\"\n      }}\n    ]\n  }},\n  {{\n    \"cProverStatus\": \"{status}\"\n  }}\n]\n"
        )
    };
    assert_eq!(
        parse_json_ui(&with_status("success", ""))
            .expect("parses")
            .outcome,
        Outcome::Successful
    );
    let Outcome::Unknown { reason } = parse_json_ui(&with_status("inconclusive", ""))
        .expect("parses")
        .outcome
    else {
        panic!("inconclusive is unknown")
    };
    assert!(reason.contains("main.assertion.1"), "{reason}");
    let error =
        "\n  {\n    \"messageText\": \"PARSING ERROR\",\n    \"messageType\": \"ERROR\"\n  },";
    for status in ["error", "success"] {
        let outcome = parse_json_ui(&with_status(status, error))
            .expect("parses")
            .outcome;
        assert!(
            matches!(&outcome, Outcome::Unknown { reason } if reason.contains("PARSING ERROR")),
            "{outcome:?}"
        );
    }
    // An unwinding assertion is a failure of its own kind.
    let unwind = bank_json()
        .replace("main.assertion.1", "withdraw.unwind.0")
        .replace("assertion balance == -2", "unwinding assertion loop 0");
    let trace = parse_json_ui(&unwind).expect("parses");
    assert_eq!(
        failed_violation(&trace).kind,
        ViolationKind::UnwindingAssertion
    );
}

#[test]
fn stop_on_fail_shape() {
    let json = format!(
        "[\n  {{\n    \"program\": \"CBMC 6.4.1 (cbmc-6.4.1)\"\n  }},\n  {{\n    \"description\": \"assertion balance == -2\",\n    \"property\": \"main.assertion.1\",\n    \"status\": \"failed\",\n    \"trace\": [{BANK_STEPS}    ]\n  }},\n  {{\n    \"cProverStatus\": \"failure\"\n  }}\n]\n"
    );
    let trace = parse_json_ui(&json).expect("parses");
    let v = failed_violation(&trace);
    assert_eq!(v.loc.as_ref().map(|l| l.line), Some(18));
    assert_eq!(trace.steps.len(), 28);
}

#[test]
fn killed_json_ui_keeps_no_verdict() {
    let full = bank_json();
    // Cut inside the result (the element being written is lost): no verdict.
    let cut = full.find("\"b\"").expect("a step");
    let trace = parse_json_ui(&full[..cut]).expect("parses");
    assert!(
        matches!(&trace.outcome, Outcome::Unknown { reason } if reason.contains("no verdict")),
        "{:?}",
        trace.outcome
    );
    assert_eq!(trace.version.as_deref(), Some("6.4.1"));
    // Cut after the complete result but before the verdict: the trace is whole.
    let cut = full.find("VERIFICATION FAILED").expect("verdict");
    let trace = parse_json_ui(&full[..cut]).expect("parses");
    assert_eq!(trace.outcome, Outcome::Failed);
    assert_eq!(trace.steps.len(), 28);
    // Killed before anything but the opening bracket: not recognisably CBMC's.
    assert!(parse_json_ui("[\n").is_err());
}

#[test]
fn json_ui_rejects_what_is_not_cbmc() {
    assert!(matches!(
        parse_json_ui(""),
        Err(TraceParseError::Unrecognised { .. })
    ));
    assert!(matches!(
        parse_json_ui(BANK_TEXT),
        Err(TraceParseError::Unrecognised { .. })
    ));
    let err = parse_json_ui("[\n  {\"program\": \"CBMC 6\"} {\"x\": 1}\n]").expect_err("no comma");
    assert!(err.to_string().contains("{\"x\": 1}"), "{err}");
    let err = parse_json_ui("[\n  {\"program\": \"CBMC 6\"},\n  {\"result\": 5}\n]")
        .expect_err("bad result");
    assert!(err.to_string().contains("result"), "{err}");
    let bad_step = bank_json().replacen("\"thread\": 1,", "\"thread\": \"one\",", 1);
    let err = parse_json_ui(&bad_step).expect_err("thread must be a number");
    assert!(matches!(err, TraceParseError::Malformed { .. }), "{err}");
    let bad_line = bank_json().replacen("\"line\": \"6\"", "\"line\": \"six\"", 1);
    assert!(parse_json_ui(&bad_line).is_err());
    // Unknown keys and step types are ignored, not refused.
    let drift = bank_json().replace(
        "\"stepType\": \"location-only\"",
        "\"stepType\": \"memory-barrier\", \"clock\": 7",
    );
    assert_eq!(parse_json_ui(&drift).expect("tolerated").steps.len(), 28);
}

#[test]
fn json_values() {
    let v = |json: &str| render_value(&serde_json::from_str(json).expect("json"));
    assert_eq!(
        v(
            r#"{"binary": "01100001", "data": "'a'", "name": "integer", "type": "char", "width": 8}"#
        ),
        ("'a'".into(), Some(97))
    );
    assert_eq!(
        v(
            r#"{"binary": "11111111", "data": "255", "name": "integer", "type": "unsigned char", "width": 8}"#
        ),
        ("255".into(), Some(255))
    );
    assert_eq!(
        v(
            r#"{"binary": "11111111", "data": "-1", "name": "integer", "type": "signed char", "width": 8}"#
        ),
        ("-1".into(), Some(-1))
    );
    assert_eq!(
        v(r#"{"binary": "1", "data": true, "name": "boolean"}"#),
        ("true".into(), Some(1))
    );
    assert_eq!(
        v(r#"{"binary": "0", "name": "boolean"}"#),
        ("false".into(), Some(0))
    );
    assert_eq!(
        v(r#"{"data": "5ul", "name": "integer", "width": 64}"#),
        ("5ul".into(), Some(5))
    );
    assert_eq!(
        v(r#"{"data": "x!0@1", "name": "pointer", "type": "int *"}"#),
        ("x!0@1".into(), None)
    );
    assert_eq!(
        v(
            r#"{"binary": "01000000001000000000000000000000", "data": "2.5f", "name": "float", "width": 32}"#
        ),
        ("2.5f".into(), Some(i128::from(2.5f32.to_bits())))
    );
    assert_eq!(
        v(
            r#"{"members": [{"name": "a", "value": {"binary": "01", "data": "1", "name": "integer", "type": "int", "width": 2}}, {"name": "$pad2", "value": {"name": "unknown"}}], "name": "struct"}"#
        ),
        ("{ .a=1, .$pad2=? }".into(), None)
    );
    assert_eq!(
        v(
            r#"{"elements": [{"index": 0, "value": {"binary": "1", "data": "1", "name": "integer", "type": "_Bool", "width": 1}}], "name": "array"}"#
        ),
        ("{ 1 }".into(), None)
    );
    assert_eq!(
        v(
            r#"{"member": {"name": "i", "value": {"data": "NULL", "name": "pointer"}}, "name": "union"}"#
        ),
        ("{ .i=NULL }".into(), None)
    );
    let wide = format!(
        r#"{{"binary": "{}", "name": "integer", "type": "unsigned __int256", "width": 256}}"#,
        "1".repeat(256)
    );
    assert_eq!(v(&wide).1, None);
}

#[test]
fn input_steps_are_the_users() {
    let json = r#"[
  {"program": "CBMC 6.4.1 (cbmc-6.4.1)"},
  {"result": [{"description": "assertion n < 5", "property": "main.assertion.1", "status": "FAILURE", "trace": [
{"hidden": false, "inputID": "n", "internal": true, "mode": "C", "sourceLocation": {"file": "in.c", "function": "main", "line": "3"}, "stepType": "input", "thread": 0, "values": [{"binary": "00000111", "data": "7", "name": "integer", "type": "signed char", "width": 8}]},
{"hidden": false, "internal": true, "mode": "C", "outputID": "o", "stepType": "output", "thread": 0, "values": []}
  ]}]},
  {"cProverStatus": "failure"}
]"#;
    let trace = parse_json_ui(json).expect("parses");
    assert!(!trace.steps[0].internal && trace.steps[1].internal);
    assert_eq!(trace.last_value_of("n"), Some(("7", Some(7))));
}

#[test]
fn text_trace() {
    let trace = parse_text(BANK_TEXT).expect("parses");
    assert_eq!(trace.version.as_deref(), Some("6.4.1"));
    let v = failed_violation(&trace);
    assert_eq!(v.property.as_deref(), Some("main.assertion.1"));
    assert_eq!(v.message, "assertion balance == -2");
    assert_eq!(v.condition.as_deref(), Some("balance == -2"));
    assert_eq!(v.thread, Some(0));
    assert_eq!(v.kind, ViolationKind::Assertion);
    let loc = v.loc.as_ref().expect("located");
    assert_eq!(
        (loc.file.as_str(), loc.line, loc.function.as_deref()),
        ("bank.c", 18, Some("main"))
    );

    let indices: Vec<usize> = trace.steps.iter().map(|s| s.index).collect();
    assert_eq!(indices, vec![23, 27, 28, 61, 62, 64, 65, 66, 71, 79, 79]);
    assert_eq!(trace.threads(), vec![0, 1, 2]);
    assert_eq!(
        trace.steps[0].loc.as_ref().map(|l| l.function.is_none()),
        Some(true)
    );
    assert!(
        trace.steps[9].internal,
        "arg in __actual_thread_spawn is CBMC's"
    );
    assert_eq!(trace.user_steps().count(), 10);
    assert_eq!(trace.context_switches(), vec![3, 5, 8, 10]);
    assert_eq!(trace.last_value_of("t1"), Some(("0ul", Some(0))));
    assert_eq!(trace.last_value_of("arg"), Some(("NULL", None)));
    assert_eq!(trace.last_value_of("balance"), Some(("4", Some(4))));
    // The text and JSON traces of one run agree on the user's assignments.
    let json = parse_json_ui(&bank_json()).expect("parses");
    let assigned = |t: &RawTrace| -> Vec<(u32, String, Option<i128>)> {
        t.user_steps()
            .filter_map(|s| match &s.kind {
                StepKind::Assignment { lhs, value_int, .. } => {
                    Some((s.thread, lhs.clone(), *value_int))
                }
                _ => None,
            })
            .collect()
    };
    assert_eq!(assigned(&trace), assigned(&json));
}

#[test]
fn text_assumptions_calls_and_fallbacks() {
    let text = "CBMC version 6.4.1 (cbmc-6.4.1) 64-bit x86_64 linux
Counterexample:

State 12 file a.c function main line 4 thread 0
----------------------------------------------------
  x=-3 (11111111 11111111 11111111 11111101)
#### Function call: check(x) (depth 1) ####

Assumption:
  file a.c line 5 column 3 function main
  x < 0

State 15 file a.c function main line 6 thread 0
----------------------------------------------------
  INPUT in: 7 (00000111)

Violated property:
  file a.c function check line 2 thread 0
  x is positive
  x > 0

VERIFICATION FAILED
";
    let trace = parse_text(text).expect("parses");
    let kinds: Vec<&StepKind> = trace.steps.iter().map(|s| &s.kind).collect();
    assert!(matches!(kinds[1], StepKind::FunctionCall { function } if function == "check"));
    assert_eq!(kinds[2], &StepKind::Assumption);
    assert_eq!(
        trace.steps[2].loc.as_ref().map(|l| (l.line, l.column)),
        Some((5, Some(3)))
    );
    assert_eq!(trace.last_value_of("x"), Some(("-3", Some(-3))));
    assert_eq!(trace.last_value_of("in"), Some(("7", Some(7))));
    let v = failed_violation(&trace);
    // `__CPROVER_assert(x > 0, "x is positive")`: no property id without a results list.
    assert_eq!(
        (v.kind.clone(), v.property.clone()),
        (ViolationKind::Assertion, None)
    );
    assert_eq!(v.condition.as_deref(), Some("x > 0"));

    // No trace printed: the results list still names the failed property.
    let results_only = BANK_TEXT
        .split("Trace for")
        .next()
        .map(|head| format!("{head}** 1 of 2 failed (2 iterations)\nVERIFICATION FAILED\n"))
        .expect("head");
    let trace = parse_text(&results_only).expect("parses");
    let v = failed_violation(&trace);
    assert_eq!(v.property.as_deref(), Some("main.assertion.1"));
    assert_eq!(
        v.loc
            .as_ref()
            .map(|l| (l.file.as_str(), l.line, l.function.as_deref())),
        Some(("bank.c", 18, Some("main")))
    );
    assert!(trace.steps.is_empty());
}

#[test]
fn text_verdicts_and_garbage() {
    let banner = "CBMC version 6.4.1 (cbmc-6.4.1) 64-bit x86_64 linux\n";
    assert_eq!(
        parse_text(&format!("{banner}VERIFICATION SUCCESSFUL\n"))
            .expect("ok")
            .outcome,
        Outcome::Successful
    );
    for verdict in ["VERIFICATION INCONCLUSIVE", "VERIFICATION ERROR"] {
        let t = parse_text(&format!("{banner}{verdict}\n")).expect("ok");
        assert!(matches!(t.outcome, Outcome::Unknown { .. }), "{verdict}");
    }
    // Killed mid-trace: no verdict, never success.
    let cut = BANK_TEXT.find("State 66").expect("a state");
    let t = parse_text_output(&BANK_TEXT[..cut], "").expect("ok");
    assert!(matches!(&t.outcome, Outcome::Unknown { reason } if reason.contains("no verdict")));
    let t = parse_text_output(&BANK_TEXT[..cut], "Killed\n").expect("ok");
    assert!(matches!(&t.outcome, Outcome::Unknown { reason } if reason.contains("Killed")));
    assert!(matches!(
        parse_text("hello"),
        Err(TraceParseError::Unrecognised { .. })
    ));
    assert!(parse_text_output("", "cbmc: command not found").is_err());
    let bad = BANK_TEXT.replace("State 62 file", "State sixty-two file");
    let err = parse_text(&bad).expect_err("malformed header");
    assert!(err.to_string().contains("sixty-two"), "{err}");
}

#[test]
fn versions() {
    assert_eq!(version("6.4.1 (cbmc-6.4.1)\n").as_deref(), Some("6.4.1"));
    assert_eq!(
        version("CBMC version 5.95.1 (cbmc-5.95.1) 64-bit x86_64 linux").as_deref(),
        Some("5.95.1")
    );
    assert_eq!(version(&bank_json()).as_deref(), Some("6.4.1"));
    assert_eq!(version("no version here"), None);
}
