//! The mutants of the start values of the globals the run's lines name (a declaration
//! is no step of the run): a count that gates the threads (`int tokens = 2;` for a
//! one-at-a-time gate, `int remaining = 1;` for two workers) is wrong because of the
//! schedules it allows, like a semaphore's, and no value change along the failing
//! schedule names it — made right, the schedule cannot be followed.

use super::operators::{mutants_at, start_value_lines};
use super::primitives::{Part, SyncMutant};

/// How many mutants of globals' start values are tried, after the calls' and the
/// arguments'.
const START_VALUE_MUTANTS: usize = 8;

/// The start-value mutants of the globals that lines `lines` (from 1) of `text` name.
pub fn start_values(text: &str, lines: &[u32]) -> Vec<SyncMutant> {
    let ran: Vec<&str> = text
        .lines()
        .enumerate()
        .filter(|(i, _)| lines.contains(&(*i as u32 + 1)))
        .map(|(_, l)| l)
        .collect();
    let named = |name: &str| {
        ran.iter().any(|l| {
            l.match_indices(name).any(|(at, _)| {
                let word = |c: char| c.is_ascii_alphanumeric() || c == '_';
                let before = l[..at].chars().next_back().is_none_or(|c| !word(c));
                let after = l[at + name.len()..].chars().next().is_none_or(|c| !word(c));
                before && after
            })
        })
    };
    let mut out = Vec::new();
    for (line, names) in start_value_lines(text) {
        if !names.iter().any(|n| named(n)) {
            continue;
        }
        // Starting in a state the program only moves to (`int done = 1;` where a thread
        // writes `done = 1` and nothing writes 0) skips the work that sets it: a fix by
        // doing less. A flag the program sets both ways (`full = 1` by a producer,
        // `full = 0` by a consumer) may start at either, zero included.
        let later = assigned_literals(text, &names, line);
        let only_taken = updated(text, &names, false) && !updated(text, &names, true);
        out.extend(
            mutants_at(text, line)
                .into_iter()
                .filter(|m| !later.contains(&m.to) || later.contains(&m.from))
                // A stock the threads only take from, started empty (`int stock = 0;`
                // for `1`: nobody buys), fixes by leaving the work undone; a count they
                // add to (`hits`) starts at zero naturally.
                .filter(|m| m.to != "0" || later.iter().any(|v| v == "0") || !only_taken)
                .map(|mutant| SyncMutant {
                    mutant,
                    part: Part::StartValue,
                }),
        );
        if out.len() >= START_VALUE_MUTANTS {
            break;
        }
    }
    out.truncate(START_VALUE_MUTANTS);
    out
}

/// Whether the text adds to (`up`) or takes from one of `names`: `x++`, `++x`, `x += ..`,
/// `x = x + ..` (or `--`, `-=`, `x = x - ..`).
fn updated(text: &str, names: &[String], up: bool) -> bool {
    let compound = if up { r"\+" } else { "-" };
    names.iter().any(|name| {
        let n = regex::escape(name);
        let pattern = format!(
            r"(?:^|[^\w.>]){n}\s*(?:{compound}{compound}|{compound}=)|{compound}{compound}\s*{n}\b|(?:^|[^\w.>]){n}\s*=\s*{n}\s*{compound}"
        );
        regex::Regex::new(&pattern).is_ok_and(|re| re.is_match(text))
    })
}

/// The integer literals the text assigns to one of `names` (`done = 1;`) outside line
/// `skip`, as written.
fn assigned_literals(text: &str, names: &[String], skip: u32) -> Vec<String> {
    let mut out = Vec::new();
    for name in names {
        let Ok(re) = regex::Regex::new(&format!(
            r"(?:^|[^\w.>])\s*{}\s*=\s*(-?\d+)\s*[;,)]",
            regex::escape(name)
        )) else {
            continue;
        };
        for (i, l) in text.lines().enumerate() {
            if i as u32 + 1 == skip {
                continue;
            }
            for c in re.captures_iter(l) {
                if let Some(v) = c.get(1) {
                    out.push(v.as_str().to_string());
                }
            }
        }
    }
    out
}
