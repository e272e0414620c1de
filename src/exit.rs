//! Exit codes: the contract with scripts. README's exit-code table is checked against
//! [`CODES`] by `tests/cli.rs`, and `seqloc --help` prints it from here.

/// No failure: proved for every execution (`exhaustive`), or within the bounds reported.
pub const NO_FAILURE: u8 = 0;
/// A failure or deadlock was found (and, by `localize`, localized).
pub const FAILURE_FOUND: u8 = 1;
/// The input cannot be analysed as given.
pub const BAD_INPUT: u8 = 2;
/// No answer. One code for every way of having none: a script that wants to tell a time
/// limit from a loop bound reads the JSON (`verdict`, `limit`, `reason`).
pub const NO_ANSWER: u8 = 3;

/// Every exit code and what it means, as README's table gives them.
pub const CODES: &[(u8, &str)] = &[
    (
        NO_FAILURE,
        "no failure: a proof for every execution when the output says `NO FAILURE in any execution` (JSON `\"exhaustive\": true`), otherwise within the bounds it reports; for `parse`, `sequentialize` and `instrument`: done",
    ),
    (
        FAILURE_FOUND,
        "a failure or deadlock was found (`check`), and localized (`localize`, also when it stopped at `--max-candidates`); `sweep`: a task's verdict was wrong or a task errored (`--exit-zero` makes that 0)",
    ),
    (
        BAD_INPUT,
        "bad input: a missing or unreadable file, a syntax error, an unsupported construct, a program without `main`, a bad option value, a schedule or override file that does not fit",
    ),
    (
        NO_ANSWER,
        "no answer: UNKNOWN (a loop or thread bound reached, a failure only beyond the requested bounds, the solver undecided), a time or memory limit reached, interrupted (Ctrl-C), a checker failure, the checker's own counterexample not replayable, or a localization cut short by a limit (the candidates found so far are printed, JSON `\"complete\": false`)",
    ),
];
