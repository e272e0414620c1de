//! The root causes of a localization report (`engine::causes`), as text: after the "Why"
//! block, each cause as the orderings that force the failure. (JSON: the `root_causes`
//! field of `seqloc.localize/1`, serialized from the same type.)

use super::style::Style;
use crate::diag::explain::{Candidate, same_file};
use crate::rootcause::causes::{Access, MissingCauses, RootCauses};

/// The "Root cause" block, then the closest passing run: nothing when there is nothing
/// to say.
pub fn render(c: &RootCauses, st: &Style) -> String {
    let mut s = render_causes(c, st);
    if let Some(run) = &c.closest {
        s.push_str(&format!(
            "{}: of every complete run within {}, the one that keeps the most of the failing run's orderings ({} of {}):
  {}
",
            st.bold("Closest passing run"),
            crate::words::count(c.rounds, "round"),
            run.kept,
            c.orderings,
            super::check::schedule_interleaving(&run.schedule)
        ));
        if run.kept >= c.orderings && c.orderings > 0 {
            s.push_str(
                "  (it keeps every ordering seqloc follows, and passes: the difference is in an access it does not tell apart, such as a read through a pointer)\n",
            );
        }
        for o in &run.flipped {
            s.push_str(&format!(
                "  no longer: {}
",
                o.describe()
            ));
        }
        s.push_str(if run.replays {
            "  (its schedule replays and passes: JSON root_causes.closest.schedule, for --schedule)

"
        } else {
            "  (its schedule, read back, does not replay by itself: not given to replay)

"
        });
    }
    s
}

/// One line when the root causes were asked for and none is given: why, and, when the
/// search ran out of time, the option that gives it more.
pub fn render_missing(m: &MissingCauses, st: &Style) -> String {
    let more = if m.out_of_time {
        " (--root-cause-time SECS gives the search more time)"
    } else {
        ""
    };
    format!(
        "{}: none found — {}{more}.\n\n",
        st.bold("Root cause"),
        m.reason
    )
}

fn render_causes(c: &RootCauses, st: &Style) -> String {
    let mut s = String::new();
    if c.order_independent {
        s.push_str(&format!(
            "{}: none in the order of the threads: every complete run with these inputs fails ({}, loops to {}).\n\n",
            st.bold("Root cause"),
            crate::words::count(c.rounds, "round"),
            c.unwind
        ));
        return s;
    }
    if c.causes.is_empty() {
        return s;
    }
    let head = if c.causes.len() == 1 {
        "Root cause".to_string()
    } else {
        format!("Root causes ({})", c.causes.len())
    };
    // Sufficiency is the solver's answer among the runs of the encoding's bounds: a
    // longer run may keep the orderings and pass, so the bounds are part of the claim.
    s.push_str(&format!(
        "{}: orderings that by themselves force the failure ({} of the run's {} inter-thread orderings; every complete run of up to {}, loops to {}, that keeps them fails{}):\n",
        st.bold(&head),
        c.causes.iter().map(|x| x.orderings.len()).min().unwrap_or(0),
        c.orderings,
        crate::words::count(c.rounds, "round"),
        c.unwind,
        if c.complete { "" } else { "; more may exist" }
    ));
    for (i, cause) in c.causes.iter().enumerate() {
        let lead = if c.causes.len() == 1 {
            "  ".to_string()
        } else {
            format!("  {}. ", i + 1)
        };
        for (j, o) in cause.orderings.iter().enumerate() {
            let pre = if j == 0 {
                lead.clone()
            } else {
                " ".repeat(lead.len())
            };
            s.push_str(&format!("{pre}{}\n", o.describe()));
        }
        if let Some(a) = &cause.atomicity {
            s.push_str(&format!(
                "{}= an atomicity violation: {a}\n",
                " ".repeat(lead.len())
            ));
        }
    }
    s.push('\n');
    s
}

/// SARIF related locations for a result on `c`'s line: the accesses of every root-cause
/// ordering that has an access on that line (both ends, so the order reads in place).
/// Ids continue from `first_id`.
pub fn sarif_locations(rc: &RootCauses, c: &Candidate, first_id: usize) -> Vec<serde_json::Value> {
    use serde_json::json;
    let mut out = Vec::new();
    for (n, cause) in rc.causes.iter().enumerate() {
        for o in &cause.orderings {
            let on_line = [&o.before, &o.after]
                .iter()
                .any(|a| a.line == c.line && same_file(&a.file, &c.file));
            if !on_line {
                continue;
            }
            for (a, role) in [(&o.before, "first"), (&o.after, "then")] {
                out.push(json!({
                    "id": first_id + out.len(),
                    "physicalLocation": {
                        "artifactLocation": { "uri": super::json::sarif_uri(&a.file) },
                        "region": { "startLine": a.line }
                    },
                    "message": { "text": format!("root cause {}: {role}, {}", n + 1, a.describe()) }
                }));
            }
        }
    }
    out
}

/// The root causes as lines for the HTML page's "why" list, one per cause.
pub fn lines(c: &RootCauses) -> Vec<String> {
    if c.order_independent {
        return vec![
            "Root cause: none in the order of the threads (every complete run with these inputs fails)"
                .into(),
        ];
    }
    c.causes
        .iter()
        .enumerate()
        .map(|(i, cause)| match &cause.atomicity {
            Some(a) => format!(
                "Root cause {}: {} (an atomicity violation: {a})",
                i + 1,
                cause.describe()
            ),
            None => format!("Root cause {}: {}", i + 1, cause.describe()),
        })
        .collect()
}

/// The orderings the HTML page draws as arrows: each root cause's, then those the
/// closest passing run reverses or leaves out (at most [`MAX_FLIPPED_ARROWS`]).
pub fn arrows(c: &RootCauses) -> Vec<super::html::OrderingArrow> {
    use super::html::{OrderingArrow, StepRef};
    let step = |a: &Access| StepRef {
        thread: a.thread,
        line: a.line,
        statement: a.statement.clone(),
        occurrence: a.occurrence,
    };
    let mut out = Vec::new();
    for (i, cause) in c.causes.iter().enumerate() {
        for o in &cause.orderings {
            out.push(OrderingArrow {
                cause: i + 1,
                before: step(&o.before),
                after: step(&o.after),
                label: o.describe(),
            });
        }
    }
    if let Some(closest) = &c.closest {
        for o in closest.flipped.iter().take(MAX_FLIPPED_ARROWS) {
            out.push(OrderingArrow {
                cause: 0,
                before: step(&o.before),
                after: step(&o.after),
                label: o.describe(),
            });
        }
    }
    out
}

/// Reversed orderings drawn at most: more arrows than this hide the lanes.
pub const MAX_FLIPPED_ARROWS: usize = 6;

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_missing_cause_says_why_and_offers_time_only_when_time_was_short() {
        let st = Style::plain();
        let missing = |reason: &str, out_of_time| MissingCauses {
            reason: reason.into(),
            out_of_time,
        };
        let stopped = render_missing(&missing("stopped: the search had had its time", true), &st);
        assert!(
            stopped.starts_with("Root cause: none found — stopped"),
            "{stopped}"
        );
        assert!(stopped.contains("--root-cause-time"), "{stopped}");
        let refused = render_missing(
            &missing("a thread other than main creates threads", false),
            &st,
        );
        assert!(refused.contains("creates threads"), "{refused}");
        assert!(!refused.contains("--root-cause-time"), "{refused}");
    }
}
