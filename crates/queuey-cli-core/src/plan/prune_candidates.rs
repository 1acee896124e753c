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

use crate::duration::format_millis;
use crate::words::{by_count, plural};

/// What queuey knows of one live hold queue.
#[derive(Clone, Debug, PartialEq)]
pub struct HoldFacts {
    /// The logical queue `q` whose hold queue it is.
    pub queue: String,
    pub name: String,
    pub ttl_ms: u32,
    /// Ready + unacknowledged, by the statistics; `None` until the broker reports it.
    pub messages: Option<u64>,
    pub consumers: Option<u64>,
    /// `classic`, `quorum`... (`None`: classic).
    pub queue_type: Option<String>,
    /// Whether its arguments are those its name implies.
    pub arguments_ok: bool,
    /// Its queue TTL, in ms: `x-expires`, or an `expires` policy, the shorter of the two
    /// (`None`: it never expires by itself).
    pub expires_ms: Option<u64>,
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
    let delay = format_millis(h.ttl_ms);
    if h.queue_type.as_deref() == Some("quorum") {
        // RabbitMQ refuses `if-empty` and `if-unused` on a quorum queue, and a delete without
        // them could drop a job deferred into it meanwhile: queuey never deletes one. What
        // does: the queue's own TTL, once its jobs have gone back and no job waits in it.
        let way_out = match h.expires_ms {
            Some(ms) => format!(
                "it deletes itself once unused for {} (its queue TTL)",
                format_millis(ms)
            ),
            None => "it has no queue TTL (x-expires) to delete itself: once it is empty and no \
                     job is deferred by this delay, delete it yourself (rabbitmqctl \
                     delete_queue, the management UI)"
                .to_owned(),
        };
        let waiting = match h.messages {
            Some(0) => String::new(),
            Some(n) => format!(
                "; {} waiting {} back to {} within {delay}",
                plural(n, "message"),
                by_count(n, "goes", "go"),
                h.queue
            ),
            None => format!(
                "; any message waiting goes back to {} within {delay}",
                h.queue
            ),
        };
        return Decision::Keep(format!(
            "a quorum queue, which RabbitMQ cannot delete only if empty and unused, so queuey \
             never deletes it{waiting}; {way_out}"
        ));
    }
    match h.messages {
        Some(0) => {}
        Some(n) => {
            return Decision::Keep(format!(
                "{} waiting (statistics): {} back to {} within {delay}; prune again then",
                plural(n, "message"),
                by_count(n, "it goes", "they go"),
                h.queue
            ));
        }
        None => return Decision::Keep("its message count is not reported yet".to_owned()),
    }
    match h.consumers {
        Some(0) => {}
        Some(n) => return Decision::Keep(plural(n, "consumer")),
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
            queue: "q".into(),
            name: format!("q.deferred.{ttl}"),
            ttl_ms: ttl,
            messages: Some(0),
            consumers: Some(0),
            queue_type: Some("classic".into()),
            arguments_ok: true,
            expires_ms: Some(2 * u64::from(ttl)),
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
        assert_eq!(
            busy(|h| h.messages = Some(1)),
            Decision::Keep(
                "1 message waiting (statistics): it goes back to q within 1s; prune again then"
                    .into()
            )
        );
        assert_eq!(
            busy(|h| h.messages = Some(2)),
            Decision::Keep(
                "2 messages waiting (statistics): they go back to q within 1s; prune again then"
                    .into()
            )
        );
        assert!(matches!(busy(|h| h.messages = None), Decision::Keep(_)));
        assert_eq!(
            busy(|h| h.consumers = Some(2)),
            Decision::Keep("2 consumers".into())
        );
        assert_eq!(
            busy(|h| h.consumers = Some(1)),
            Decision::Keep("1 consumer".into())
        );
        assert!(matches!(busy(|h| h.consumers = None), Decision::Keep(_)));
        assert!(
            matches!(busy(|h| h.queue_type = Some("quorum".into())), Decision::Keep(w) if w.contains("quorum"))
        );
        assert_eq!(busy(|h| h.queue_type = None), Decision::Prune);
    }

    /// queuey never deletes a quorum hold queue: the reason says what will, with or without
    /// messages waiting in it.
    #[test]
    fn a_quorum_hold_queue_is_left_with_the_way_out() {
        let quorum = |messages: Option<u64>, expires_ms: Option<u64>| {
            let mut h = hold(30_000);
            h.queue_type = Some("quorum".into());
            h.messages = messages;
            h.expires_ms = expires_ms;
            decide(&h, &PruneScope::default())
        };
        let never = "a quorum queue, which RabbitMQ cannot delete only if empty and unused, so \
                     queuey never deletes it";
        assert_eq!(
            quorum(Some(0), Some(60_000)),
            Decision::Keep(format!(
                "{never}; it deletes itself once unused for 1m (its queue TTL)"
            ))
        );
        assert_eq!(
            quorum(Some(1), Some(60_000)),
            Decision::Keep(format!(
                "{never}; 1 message waiting goes back to q within 30s; it deletes itself once \
                 unused for 1m (its queue TTL)"
            ))
        );
        assert_eq!(
            quorum(Some(3), Some(60_000)),
            Decision::Keep(format!(
                "{never}; 3 messages waiting go back to q within 30s; it deletes itself once \
                 unused for 1m (its queue TTL)"
            ))
        );
        let Decision::Keep(why) = quorum(Some(3), None) else {
            panic!("a quorum queue is never pruned");
        };
        assert!(
            why.contains("no queue TTL") && why.contains("delete it yourself"),
            "{why}"
        );
        let Decision::Keep(why) = quorum(None, None) else {
            panic!("a quorum queue is never pruned");
        };
        assert!(
            why.contains("any message waiting goes back to q within 30s"),
            "{why}"
        );
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
