//! Text edits on the user's file and the unified diff a repair is shown as.

use super::RepairError;

/// Replace `start..end` (bytes of the original text) by `text`.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct Edit {
    pub start: usize,
    pub end: usize,
    pub text: String,
}

impl Edit {
    pub fn insert(at: usize, text: impl Into<String>) -> Edit {
        Edit {
            start: at,
            end: at,
            text: text.into(),
        }
    }

    pub fn delete(start: usize, end: usize) -> Edit {
        Edit {
            start,
            end,
            text: String::new(),
        }
    }
}

/// The text with `edits` made. Edits may not overlap; insertions at the same offset are
/// made in the order given.
pub fn apply(text: &str, edits: &[Edit]) -> Result<String, RepairError> {
    let mut sorted: Vec<(usize, &Edit)> = edits.iter().enumerate().collect();
    sorted.sort_by_key(|(i, e)| (e.start, e.end, *i));
    let mut out = String::with_capacity(text.len() + 256);
    let mut at = 0;
    for (_, e) in sorted {
        if e.start < at || e.end < e.start || e.end > text.len() {
            return Err(RepairError::Source(format!(
                "overlapping edits at byte {}",
                e.start
            )));
        }
        let kept = text
            .get(at..e.start)
            .ok_or_else(|| RepairError::Source(format!("edit inside a character at {at}")))?;
        out.push_str(kept);
        out.push_str(&e.text);
        at = e.end;
    }
    out.push_str(text.get(at..).unwrap_or(""));
    Ok(out)
}

/// A unified diff that `git apply` and `patch -p1` take, from `a/PATH` to `b/PATH`.
pub fn unified_diff(old: &str, new: &str, path: &str) -> String {
    similar::TextDiff::from_lines(old, new)
        .unified_diff()
        .context_radius(3)
        .header(&format!("a/{path}"), &format!("b/{path}"))
        .to_string()
}

/// The edits of `old` that give `new`, one per changed run of lines (for a repair made in
/// two steps, each step's edits were on a different text).
pub fn edits_between(old: &str, new: &str) -> Vec<Edit> {
    let diff = similar::TextDiff::from_lines(old, new);
    let old_lines: Vec<&str> = old.split_inclusive('\n').collect();
    let new_lines: Vec<&str> = new.split_inclusive('\n').collect();
    let offset =
        |lines: &[&str], i: usize| -> usize { lines.iter().take(i).map(|l| l.len()).sum() };
    diff.ops()
        .iter()
        .filter(|op| op.tag() != similar::DiffTag::Equal)
        .map(|op| {
            let (o, n) = (op.old_range(), op.new_range());
            Edit {
                start: offset(&old_lines, o.start),
                end: offset(&old_lines, o.end),
                text: new_lines.get(n).map(|ls| ls.concat()).unwrap_or_default(),
            }
        })
        .collect()
}

/// Lines added and removed.
pub fn lines_changed(old: &str, new: &str) -> usize {
    similar::TextDiff::from_lines(old, new)
        .iter_all_changes()
        .filter(|c| c.tag() != similar::ChangeTag::Equal)
        .count()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn edits_apply_in_order_and_refuse_overlaps() {
        let t = "abc\ndef\n";
        let out = apply(
            t,
            &[
                Edit::insert(4, "X\n"),
                Edit::delete(0, 4),
                Edit::insert(8, "Y\n"),
            ],
        )
        .expect("applies");
        assert_eq!(out, "X\ndef\nY\n");
        assert!(apply(t, &[Edit::delete(0, 3), Edit::delete(2, 5)]).is_err());
        let d = unified_diff(t, &out, "f.c");
        assert!(d.starts_with("--- a/f.c\n+++ b/f.c\n"), "{d}");
        assert_eq!(lines_changed(t, &out), 3);
        let back = edits_between(t, &out);
        assert_eq!(apply(t, &back).expect("applies"), out);
    }
}
