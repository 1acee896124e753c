//! What a peek must know of its queue before it reads: the type, a quorum queue's delivery
//! limit (argument and policy; 20 by default from 4.0), the broker version, and so what a
//! return or a crash costs (`broker::peek`, docs/broker-notes.md).
//!
//! Where it sits in the looks (`broker::peek`'s doc): the first thing `Peek::open` asks.

use super::session::{BrokerVersion, Session};
use crate::dead::peek::PeekOptions;
use crate::error::{Error, Kind, Result};

/// What queuey knows of the queue it peeks.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct QueueKind {
    /// `classic`, `quorum`, or `unknown` (no management API, assumed classic).
    pub queue_type: String,
    /// A quorum queue's effective delivery limit; `None` is unlimited.
    pub delivery_limit: Option<u64>,
    pub broker_version: Option<BrokerVersion>,
    /// Whether returning a delivery with `basic.nack` spends one of the message's deliveries
    /// (a quorum queue with a limit, before RabbitMQ 4.3).
    pub returns_count: bool,
    /// Whether a delivery still held when its channel closes (a crash, a lost connection)
    /// spends one of the message's deliveries: a quorum queue with a limit, on every version.
    pub closes_count: bool,
    /// Messages delivered and not acknowledged when the peek began, by the management API's
    /// statistics (seconds old); `None` without the API.
    pub unacked: Option<u64>,
}

impl QueueKind {
    /// Messages one round of a peek may take: the window; on a queue where a crash spends
    /// deliveries, half of [`QueueKind::exposure`], since a quorum round is taken whole while
    /// the next one arrives.
    pub fn round_cap(&self, options: &PeekOptions) -> u16 {
        if self.closes_count {
            (self.exposure(options) / 2).max(1)
        } else {
            options.window.max(1)
        }
    }

    /// On a queue where a crash spends deliveries: the most deliveries that may have arrived
    /// and not yet been replaced by copies, `--window` or `--quorum-at-risk` (2048 by default),
    /// whichever is smaller.
    pub fn exposure(&self, options: &PeekOptions) -> u16 {
        options.window.min(options.quorum_at_risk).max(1)
    }
}

impl QueueKind {
    /// Whether a returned message goes back to its place: a classic queue's do (and an
    /// unknown type is read as classic); a quorum queue's return to its head or its back, and
    /// a multiple return of many reorders them (docs/broker-notes.md).
    pub fn keeps_positions(&self) -> bool {
        !self.is_quorum()
    }

    /// A quorum queue: read in whole rounds, each asked for behind the one before
    /// (`broker::peek`).
    pub fn is_quorum(&self) -> bool {
        self.queue_type == "quorum"
    }
}

/// Reads the queue's type, delivery limit and the broker version, and decides whether a peek
/// is free, costs deliveries (refused unless accepted), or cannot be judged.
pub async fn queue_kind(
    session: &Session,
    queue: &str,
    options: &PeekOptions,
) -> Result<QueueKind> {
    let live = match session.live_queue(queue).await {
        Ok(live) => live,
        Err(e) if e.kind.is_api() => {
            if options.assume_classic {
                return Ok(QueueKind {
                    queue_type: "unknown".into(),
                    delivery_limit: None,
                    broker_version: None,
                    returns_count: false,
                    closes_count: false,
                    unacked: None,
                });
            }
            // The refusal's own hint first: wrong credentials need no tag, and a tag advice
            // says how to add one without taking the user's others away.
            let fix = match (e.kind, &e.hint) {
                (_, Some(hint)) => format!("About the API: {hint};"),
                (Kind::ApiRefused, None) => {
                    "Give the user the monitoring tag (it changes no right on queues)".to_owned()
                }
                _ => "Enable the API (rabbitmq-plugins enable rabbitmq_management)".to_owned(),
            };
            return Err(Error::new(
                e.kind,
                format!(
                    "cannot tell what kind of queue {queue:?} is without the management API: {}",
                    e.message
                ),
            )
            .with_hint(format!(
                "a peek returns every message it reads, and on a quorum queue with a delivery \
                 limit each return spends a delivery. {fix} or, if the queue is a classic queue \
                 (as queuey declares q.dead), pass --assume-classic"
            )));
        }
        Err(e) => return Err(e),
    };
    let Some(live) = live else {
        return Err(session.queue_not_found(queue));
    };
    let queue_type = live.queue_type.clone().unwrap_or_else(|| "classic".into());
    // Without a majority a quorum queue neither gives nor takes: a consume would wait about a
    // minute and end with the connection. Said now, by name.
    if let Some((online, members)) = live.majority_lost() {
        return Err(live.no_majority_error(session.vhost(), online, members));
    }
    let version = session.broker_version().await.unwrap_or(None);
    match queue_type.as_str() {
        "quorum" => {}
        "stream" => return Err(session.stream_dead_queue(queue)),
        _ => {
            return Ok(QueueKind {
                queue_type,
                delivery_limit: None,
                broker_version: version,
                returns_count: false,
                closes_count: false,
                unacked: live.messages_unacknowledged,
            });
        }
    }
    let from_args = live
        .arguments
        .get("x-delivery-limit")
        .and_then(serde_json::Value::as_i64);
    let from_policy = live
        .effective_policy_definition
        .as_ref()
        .and_then(|p| p.get("delivery-limit"))
        .and_then(serde_json::Value::as_i64);
    let four = version.is_some_and(|v| v.at_least(4, 0));
    let delivery_limit = effective_delivery_limit(from_args, from_policy, four, version.is_none());
    // From 4.3 a nack with requeue does not count; before, every return does.
    let returns_count = delivery_limit.is_some() && !version.is_some_and(|v| v.at_least(4, 3));
    let kind = QueueKind {
        queue_type,
        delivery_limit,
        broker_version: version,
        returns_count,
        closes_count: delivery_limit.is_some(),
        unacked: live.messages_unacknowledged,
    };
    if kind.returns_count && !options.spend_delivery_budget {
        let limit = delivery_limit.unwrap_or(0);
        let version_text = version.map_or("an unknown version".to_owned(), |v| v.to_string());
        return Err(Error::new(
            Kind::Usage,
            format!(
                "queue {queue:?} is a quorum queue with a delivery limit of {limit}, and on \
                 RabbitMQ {version_text} every peek spends one delivery of every message it \
                 reads (RabbitMQ counts returned deliveries until 4.3)"
            ),
        )
        .with_hint(
            "pass --spend-delivery-budget to peek anyway: queuey then never returns a message \
             on its last delivery, it republishes a confirmed copy of it to the queue \
             instead (nothing is lost; that message changes its place in the queue). Or raise the queue's \
             delivery limit with a policy first",
        ));
    }
    Ok(kind)
}

/// A quorum queue's delivery limit in force (`None`: unlimited) from its `x-delivery-limit`
/// argument and its effective policy's `delivery-limit`, as `rabbit_quorum_queue` resolves them:
/// the lower of the two; from 4.0, the higher when either is negative, and a negative limit
/// in force is none at all, while no limit set at all is 20. Before 4.0 no limit is none, and
/// 0 or a negative limit ends a message at its first return. On an unknown version, the
/// reading that protects messages more: 3.x's for a negative limit, 4.x's default of 20.
fn effective_delivery_limit(
    argument: Option<i64>,
    policy: Option<i64>,
    four: bool,
    unknown_version: bool,
) -> Option<u64> {
    let explicit = match (argument, policy) {
        (Some(a), Some(p)) if four && (a < 0 || p < 0) => Some(a.max(p)),
        (Some(a), Some(p)) => Some(a.min(p)),
        (a, p) => a.or(p),
    };
    match explicit {
        Some(n) if n < 0 && four => None,
        Some(n) => Some(u64::try_from(n).unwrap_or(0)),
        None if four || unknown_version => Some(20),
        None => None,
    }
}

#[cfg(test)]
mod tests {
    use super::effective_delivery_limit as limit;

    /// `rabbit_quorum_queue:resolve_delivery_limit/2` (4.x): min, or max when either is
    /// negative; a negative limit in force is none (rabbit_fifo); nothing set is 20 from 4.0.
    #[test]
    fn the_delivery_limit_in_force_by_version() {
        // 4.x
        assert_eq!(limit(Some(5), Some(3), true, false), Some(3));
        assert_eq!(limit(Some(-1), Some(3), true, false), Some(3));
        assert_eq!(limit(Some(5), Some(-1), true, false), Some(5));
        assert_eq!(limit(Some(-1), None, true, false), None);
        assert_eq!(limit(None, Some(-1), true, false), None);
        assert_eq!(limit(None, None, true, false), Some(20));
        // 3.x
        assert_eq!(limit(Some(5), Some(3), false, false), Some(3));
        assert_eq!(limit(Some(-1), Some(3), false, false), Some(0));
        assert_eq!(limit(None, None, false, false), None);
        // Unknown: what protects messages more.
        assert_eq!(limit(Some(-1), None, false, true), Some(0));
        assert_eq!(limit(None, None, false, true), Some(20));
    }
}
