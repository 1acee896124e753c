//! Which start of the broker a run saw, so that a rerun knows whether a node restarted since
//! (and may have lost acks it had processed).

use std::collections::BTreeMap;

/// Which start of the broker a run saw. A node that restarts may lose the acks it had
/// processed and not yet written, so a rerun must know whether a node started again since.
///
/// Each running node's OS process id tells it exactly; the connected node's start time (now
/// less its uptime, which the management API reports seconds late) only within a slack, and
/// RabbitMQ 4.3 is up and working in less than that slack. The start time is the rule when no
/// node is known to both.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Boot {
    /// When the connected node started, milliseconds since the epoch.
    pub started_ms: Option<u64>,
    /// Each running node's name and OS process id.
    pub pids: BTreeMap<String, String>,
}

impl Boot {
    /// Whether a node started again between `then` and this boot: a node both know has
    /// another process id, or another node of `then` runs no more; with no node known to both,
    /// the start times differ by more than `slack_ms`. Unknown: no.
    pub fn restarted_since(&self, then: &Boot, slack_ms: u64) -> bool {
        // A node that ran then and runs no more may have taken the acks it had processed with
        // it (a quorum leader that dies before its log is replicated).
        let known_to_both = then.pids.keys().any(|node| self.pids.contains_key(node));
        if known_to_both && then.pids.keys().any(|node| !self.pids.contains_key(node)) {
            return true;
        }
        let mut common = then
            .pids
            .iter()
            .filter_map(|(node, pid)| self.pids.get(node).map(|now| now != pid))
            .peekable();
        if common.peek().is_some() {
            return common.any(|changed| changed);
        }
        match (then.started_ms, self.started_ms) {
            (Some(then), Some(now)) => now.abs_diff(then) > slack_ms,
            _ => false,
        }
    }
}
