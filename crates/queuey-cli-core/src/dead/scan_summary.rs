//! PURE: what a look over q.dead read, the same facts in every report of `dead ls` (the list and
//! `--group-by`) and `dead export`, built in one place so that the three cannot drift.
//!
//! `dead replay` and `dead purge` report the same facts under the names their JSON has always
//! had (the replay's `source` may be a file, a whole-queue purge reads nothing): their reports
//! are contracts of their own, documented in docs/output.md.

use serde::Serialize;

use crate::dead::peek::HeldElsewhere;

/// One look's account of q.dead: flattened into each look's JSON report.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct ScanSummary {
    pub queue: String,
    /// Messages q.dead held when the look began: what it set out to read.
    pub depth_at_start: u64,
    pub scanned: u64,
    pub matched: u64,
    /// Whether every message q.dead held at the start was read.
    pub complete: bool,
    /// Whether a stop signal ended the look early.
    pub interrupted: bool,
    /// Dead letters others held when the look began: not read (exit 3).
    pub held_elsewhere: Option<HeldElsewhere>,
}

impl ScanSummary {
    /// The summary of a look over `queue` that read `scanned` of the `depth_at_start` messages
    /// it held and found `matched` passing the filters.
    pub fn new(
        queue: impl Into<String>,
        depth_at_start: u64,
        scanned: u64,
        matched: u64,
        interrupted: bool,
        held_elsewhere: Option<HeldElsewhere>,
    ) -> ScanSummary {
        ScanSummary {
            queue: queue.into(),
            depth_at_start,
            scanned,
            matched,
            complete: scanned >= depth_at_start,
            interrupted,
            held_elsewhere,
        }
    }

    /// What a table's footer adds when the look stopped short of the depth it began with.
    pub fn partial_note(&self) -> Option<String> {
        (!self.complete).then(|| {
            format!(
                " (of the {} it held: these counts are partial)",
                self.depth_at_start
            )
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_look_is_complete_once_it_read_the_depth_it_began_with() {
        let whole = ScanSummary::new("q.dead", 10, 10, 3, false, None);
        assert!(whole.complete);
        assert_eq!(whole.partial_note(), None);
        let cut = ScanSummary::new("q.dead", 10, 4, 3, true, None);
        assert!(!cut.complete);
        assert_eq!(
            cut.partial_note().as_deref(),
            Some(" (of the 10 it held: these counts are partial)")
        );
        // Messages that arrived during the look are read too: more than the depth is complete.
        assert!(ScanSummary::new("q.dead", 10, 12, 0, false, None).complete);
    }

    #[test]
    fn its_json_keeps_the_field_names_the_looks_have_always_written() {
        let json = serde_json::to_value(ScanSummary::new("q.dead", 2, 2, 1, false, None))
            .unwrap_or_default();
        let keys: Vec<&str> = json
            .as_object()
            .map(|o| o.keys().map(String::as_str).collect())
            .unwrap_or_default();
        assert_eq!(
            keys,
            [
                "queue",
                "depth_at_start",
                "scanned",
                "matched",
                "complete",
                "interrupted",
                "held_elsewhere"
            ]
        );
    }
}
