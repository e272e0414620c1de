//! Merging the successors of one step that differ only in what one input may still be.
//!
//! A comparison on a symbolic input splits its interval, one successor per outcome. When
//! the outcomes lead to the same place (`if (!x == y)` that is false for every `x`, as in a
//! queue that checks what it dequeued), the successors are one state apart from the
//! input's interval, and every further comparison splits again: a loop over twenty inputs
//! makes 3^20 states that a merge keeps at one.
//!
//! Inputs are independent intervals, so two states equal but for one input's interval,
//! where the intervals meet, together stand for exactly the concrete states of one state
//! with the union of the intervals: the merge loses and adds nothing. It is done before
//! the successors are put in canonical form, while their objects and inputs still have
//! the ids the step gave them (after it, an input narrowed to one value is written into
//! the bytes that hold it and the states no longer line up).
//!
//! Only steps that ran the same statements (equal `Chooser::trace`) are merged, so the
//! schedule of the one kept describes every execution the merged state stands for; its
//! path records the widening (`Transition::widen`) so that a replay reaches the merged
//! state, not the narrowed one.

use super::state::State;
use super::symbolic::Dom;

/// Steps with more successors than this are not merged.
const MAX_SIBLINGS: usize = 512;

/// A successor of one step, before it is put in canonical form.
pub struct Sibling {
    pub state: State,
    /// The step's choices that reach it.
    pub picks: Vec<u32>,
    /// The statements the step ran (see `Chooser::trace`).
    pub trace: u64,
    /// Inputs (by id, before canonical form) widened to these intervals by merges.
    pub widen: Vec<(u32, Dom)>,
}

/// Merges the siblings that are equal but for one input's interval, where the intervals
/// meet, until no two can be merged. The first of each merged group is kept, with the
/// union of the intervals, and the order of the rest is unchanged.
pub fn merge_siblings(outs: &mut Vec<Sibling>) {
    // Comparing every pair is quadratic: a step with this many successors is one that
    // enumerates an input, whose successors differ in more than an interval.
    if outs.len() > MAX_SIBLINGS {
        return;
    }
    // Merging two may make a pair mergeable that was not (their intervals now agree), so
    // passes repeat until none merges.
    let mut changed = true;
    while changed {
        changed = false;
        let mut i = 0;
        while i < outs.len() {
            let mut j = i + 1;
            while j < outs.len() {
                let Some(k) = mergeable(&outs[i], &outs[j]) else {
                    j += 1;
                    continue;
                };
                let b = outs.remove(j);
                let a = &mut outs[i];
                let (x, y) = (a.state.syms[k], b.state.syms[k]);
                let d = (x.0.min(y.0), x.1.max(y.1));
                a.state.syms[k] = d;
                match a.widen.iter_mut().find(|w| w.0 == k as u32) {
                    Some(w) => w.1 = d,
                    None => a.widen.push((k as u32, d)),
                }
                changed = true;
            }
            i += 1;
        }
    }
}

/// The input in whose interval alone `a` and `b` differ, when the intervals meet.
fn mergeable(a: &Sibling, b: &Sibling) -> Option<usize> {
    let (s, t) = (&a.state, &b.state);
    if a.trace != b.trace || s.syms.len() != t.syms.len() {
        return None;
    }
    let mut diff = None;
    for (k, (x, y)) in s.syms.iter().zip(&t.syms).enumerate() {
        if x != y {
            if diff.is_some() {
                return None;
            }
            diff = Some(k);
        }
    }
    let k = diff?;
    let (x, y) = (s.syms[k], t.syms[k]);
    if x.1.saturating_add(1) < y.0 || y.1.saturating_add(1) < x.0 {
        return None;
    }
    let same =
        s.exited == t.exited && s.locks == t.locks && s.threads == t.threads && s.objs == t.objs;
    same.then_some(k)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn sibling(syms: Vec<Dom>, trace: u64) -> Sibling {
        let mut state = State::empty();
        state.syms = syms;
        Sibling {
            state,
            picks: vec![],
            trace,
            widen: vec![],
        }
    }

    #[test]
    fn intervals_that_meet_merge_and_others_stay_apart() {
        // `!x` on an int: x == 0, x < 0, x > 0; the three meet into the whole range.
        let mut outs = vec![
            sibling(vec![(7, 7), (0, 0)], 1),
            sibling(vec![(7, 7), (i128::MIN, -1)], 1),
            sibling(vec![(7, 7), (1, 100)], 1),
        ];
        merge_siblings(&mut outs);
        assert_eq!(outs.len(), 1);
        assert_eq!(outs[0].state.syms, vec![(7, 7), (i128::MIN, 100)]);
        assert_eq!(outs[0].widen, vec![(1, (i128::MIN, 100))]);

        // Two inputs each split in two: the four corners merge into one, whatever the
        // order they come in.
        let mut outs = vec![
            sibling(vec![(0, 4), (0, 4)], 1),
            sibling(vec![(5, 9), (5, 9)], 1),
            sibling(vec![(0, 4), (5, 9)], 1),
            sibling(vec![(5, 9), (0, 4)], 1),
        ];
        merge_siblings(&mut outs);
        assert_eq!(outs.len(), 1);
        assert_eq!(outs[0].state.syms, vec![(0, 9), (0, 9)]);

        // A hole (x != 5 is x < 5 or x > 5), two inputs apart, or different statements
        // run: no merge.
        let mut outs = vec![
            sibling(vec![(0, 4)], 1),
            sibling(vec![(6, 9)], 1),
            sibling(vec![(5, 5)], 2),
        ];
        merge_siblings(&mut outs);
        assert_eq!(outs.len(), 3);
        let mut outs = vec![
            sibling(vec![(0, 4), (0, 0)], 1),
            sibling(vec![(5, 9), (1, 1)], 1),
        ];
        merge_siblings(&mut outs);
        assert_eq!(outs.len(), 2);
    }

    #[test]
    fn states_that_differ_elsewhere_do_not_merge() {
        let a = sibling(vec![(0, 4)], 1);
        let mut b = sibling(vec![(5, 9)], 1);
        b.state.exited = true;
        let mut outs = vec![a, b];
        merge_siblings(&mut outs);
        assert_eq!(outs.len(), 2);
    }
}
