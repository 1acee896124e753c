//! PURE: which hold queues `holds prune` deletes, and why it keeps the others.
//!
//! A hold queue is a candidate when the statistics show it empty and unused; the delete itself
//! (`queue.delete` with `if-empty` and `if-unused`) is what decides, atomically, in the broker:
//! statistics seconds old cannot lose a message, because the broker refuses to delete a queue
//! that got one meanwhile. `--unlisted` and `--drift` narrow the candidates to the hold queues
//! whose delay the topology file does not list, or whose arguments differ from their name's
//! (either, when both are given). A queue named like a hold queue but without the marks of one
//! (an `x-message-ttl`, dead-lettering back to `q`) is never a candidate, whatever the flags.

use std::collections::BTreeSet;

use serde::Serialize;

/// What queuey knows of one live hold queue.
#[derive(Clone, Debug, PartialEq)]
pub struct HoldFacts {
    pub name: String,
    pub ttl_ms: u32,
    /// Ready + unacknowledged, by the statistics; `None` until the broker reports it.
    pub messages: Option<u64>,
    pub consumers: Option<u64>,
    /// `classic`, `quorum`... (`None`: classic).
    pub queue_type: Option<String>,
    /// Whether its arguments are those its name implies.
    pub arguments_ok: bool,
    /// Why it may not be a hold queue at all ([`super::missing_hold_marks`]); `None` when it
    /// carries the marks of one.
    pub not_a_hold_queue: Option<String>,
}

/// What to select beyond "empty and unused".
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct PruneScope {
    /// `--unlisted`: only TTLs not in this set (the delays of the topology file, rounded).
    pub unlisted: Option<BTreeSet<u32>>,
    /// `--drift`: only hold queues whose arguments differ from their name's.
    pub drift: bool,
}

/// The decision for one hold queue.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
#[serde(rename_all = "kebab-case", tag = "decision", content = "why")]
pub enum Decision {
    /// To delete (if still empty and unused when the broker is asked).
    Prune,
    /// Left alone, and why.
    Keep(String),
}

pub fn decide(h: &HoldFacts, scope: &PruneScope) -> Decision {
    if let Some(why) = &h.not_a_hold_queue {
        return Decision::Keep(why.clone());
    }
    if h.queue_type.as_deref() == Some("quorum") {
        return Decision::Keep(
            "a quorum queue: RabbitMQ cannot delete one only if empty and unused".to_owned(),
        );
    }
    match h.messages {
        Some(0) => {}
        Some(n) => return Decision::Keep(format!("{n} message(s) waiting (statistics)")),
        None => return Decision::Keep("its message count is not reported yet".to_owned()),
    }
    match h.consumers {
        Some(0) => {}
        Some(n) => return Decision::Keep(format!("{n} consumer(s)")),
        None => return Decision::Keep("its consumer count is not reported yet".to_owned()),
    }
    let unlisted = scope
        .unlisted
        .as_ref()
        .map(|listed| !listed.contains(&h.ttl_ms));
    let drifted = scope.drift.then_some(!h.arguments_ok);
    match (unlisted, drifted) {
        (None, None) | (Some(true), _) | (_, Some(true)) => Decision::Prune,
        (Some(false), Some(false)) => {
            Decision::Keep("a listed delay, and its arguments match its name".to_owned())
        }
        (Some(false), None) => Decision::Keep("a delay the topology file lists".to_owned()),
        (None, Some(false)) => Decision::Keep("its arguments match its name".to_owned()),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn hold(ttl: u32) -> HoldFacts {
        HoldFacts {
            name: format!("q.deferred.{ttl}"),
            ttl_ms: ttl,
            messages: Some(0),
            consumers: Some(0),
            queue_type: Some("classic".into()),
            arguments_ok: true,
            not_a_hold_queue: None,
        }
    }

    #[test]
    fn only_empty_unused_classic_hold_queues_are_candidates() {
        let all = PruneScope::default();
        assert_eq!(decide(&hold(1000), &all), Decision::Prune);
        let busy = |f: fn(&mut HoldFacts)| {
            let mut h = hold(1000);
            f(&mut h);
            decide(&h, &all)
        };
        assert!(
            matches!(busy(|h| h.messages = Some(1)), Decision::Keep(w) if w.contains("1 message"))
        );
        assert!(matches!(busy(|h| h.messages = None), Decision::Keep(_)));
        assert!(
            matches!(busy(|h| h.consumers = Some(2)), Decision::Keep(w) if w.contains("2 consumer"))
        );
        assert!(matches!(busy(|h| h.consumers = None), Decision::Keep(_)));
        assert!(
            matches!(busy(|h| h.queue_type = Some("quorum".into())), Decision::Keep(w) if w.contains("quorum"))
        );
        assert_eq!(busy(|h| h.queue_type = None), Decision::Prune);
    }

    #[test]
    fn a_queue_without_the_marks_of_a_hold_queue_is_never_a_candidate() {
        let mut h = hold(5000);
        h.arguments_ok = false;
        h.not_a_hold_queue = Some("not certainly a hold queue".into());
        for scope in [
            PruneScope::default(),
            PruneScope {
                unlisted: Some(BTreeSet::new()),
                drift: true,
            },
            PruneScope {
                unlisted: None,
                drift: true,
            },
        ] {
            assert_eq!(
                decide(&h, &scope),
                Decision::Keep("not certainly a hold queue".into())
            );
        }
    }

    #[test]
    fn unlisted_and_drift_narrow_the_candidates_and_either_selects() {
        let listed = PruneScope {
            unlisted: Some([1000u32].into_iter().collect()),
            drift: false,
        };
        assert!(matches!(decide(&hold(1000), &listed), Decision::Keep(_)));
        assert_eq!(decide(&hold(30000), &listed), Decision::Prune);
        let drift = PruneScope {
            unlisted: None,
            drift: true,
        };
        assert!(matches!(decide(&hold(1000), &drift), Decision::Keep(_)));
        let mut drifted = hold(1000);
        drifted.arguments_ok = false;
        assert_eq!(decide(&drifted, &drift), Decision::Prune);
        let both = PruneScope {
            unlisted: Some([1000u32].into_iter().collect()),
            drift: true,
        };
        assert_eq!(decide(&drifted, &both), Decision::Prune);
        assert_eq!(decide(&hold(5000), &both), Decision::Prune);
        assert!(matches!(decide(&hold(1000), &both), Decision::Keep(_)));
    }
}
