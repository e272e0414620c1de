//! The differential schedule projection (Symbiosis): of the failing execution's data
//! flows, those that differ in a passing execution of the same program with the same
//! inputs — the reads that saw another write, or the initial value, once the schedule
//! changed. Reads one execution makes and the other does not (a path that changed) are
//! left out: the flow that changed the path is in the projection, its consequences are
//! not.

use super::events::{Event, Execution};

/// One read whose source differs between the failing and the passing execution.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct FlowChange {
    /// The read, as the failing execution made it.
    pub read: Event,
    /// What it read from in the failing execution (`None`: the initial value).
    pub failing: Option<Event>,
    /// What it read from in the passing execution.
    pub passing: Option<Event>,
}

impl FlowChange {
    /// The source lines of the change: the read and both writes.
    pub fn lines(&self) -> impl Iterator<Item = (&str, u32)> {
        [
            Some(&self.read),
            self.failing.as_ref(),
            self.passing.as_ref(),
        ]
        .into_iter()
        .flatten()
        .map(|e| (e.file.as_str(), e.line))
    }

    /// Whether a thread other than the reader's is involved: a data race or an order the
    /// schedule decided, rather than a thread's own earlier write.
    pub fn inter_thread(&self) -> bool {
        [&self.failing, &self.passing]
            .into_iter()
            .flatten()
            .any(|w| w.thread != self.read.thread)
    }
}

/// The flows of `failing` that `passing` does not share (see the module comment), in
/// the failing execution's order.
pub fn differential(failing: &Execution, passing: &Execution) -> Vec<FlowChange> {
    let mut out = Vec::new();
    for f in &failing.flows {
        let Some(read) = failing.events.get(f.read) else {
            continue;
        };
        let Some(p_read) = passing.find(&read.key) else {
            continue;
        };
        let Some(p_source) = passing.source_of(p_read) else {
            continue;
        };
        let f_source = f.source.and_then(|w| failing.events.get(w));
        if f_source.map(|e| &e.key) == p_source {
            continue;
        }
        out.push(FlowChange {
            read: read.clone(),
            failing: f_source.cloned(),
            passing: p_source
                .and_then(|k| passing.find(k))
                .and_then(|i| passing.events.get(i))
                .cloned(),
        });
    }
    out
}

#[cfg(test)]
mod tests {
    use super::super::events::tests::{acc, step};
    use super::*;

    #[test]
    fn a_lost_update_differs_in_the_second_read() {
        // Failing: T2's increment runs between T1's read at 20 and T1's increment.
        let failing = [
            step(1, 20, "t = x"),
            step(2, 10, "x = x + 1"),
            step(1, 10, "x = x + 1"),
        ];
        let passing = [
            step(1, 20, "t = x"),
            step(1, 10, "x = x + 1"),
            step(2, 10, "x = x + 1"),
        ];
        let (f, p) = (
            Execution::of(&failing, &acc, true),
            Execution::of(&passing, &acc, true),
        );
        let d = differential(&f, &p);
        // T2's read saw the initial value, and in the passing run T1's write; T1's read
        // at 10 saw T2's write, and in the passing run the initial value.
        assert_eq!(d.len(), 2, "{d:#?}");
        assert_eq!(d[0].read.thread, 2);
        assert_eq!(d[0].failing, None);
        assert_eq!(
            d[0].passing.as_ref().map(|e| (e.thread, e.line)),
            Some((1, 10))
        );
        assert!(d.iter().all(FlowChange::inter_thread));
        // The same execution has no differential.
        assert!(differential(&f, &f).is_empty());
    }
}
