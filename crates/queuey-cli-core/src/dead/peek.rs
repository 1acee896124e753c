//! PURE: what a peek of a dead-letter queue may do (`broker::peek` does it).

use crate::dead::decode::{Message, X_DELIVERY_COUNT};
use crate::dead::value::Value;

/// How a peek may treat the queue.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct PeekOptions {
    /// Largest number of messages in flight from the broker.
    pub window: u16,
    /// Target bytes of bodies in flight; the window shrinks for big messages.
    pub byte_budget: usize,
    /// Accept that peeking a quorum queue spends one delivery of each message (before 4.3).
    pub spend_delivery_budget: bool,
    /// Without the management API: treat the queue as classic instead of refusing.
    pub assume_classic: bool,
    /// Stop after this many messages (from the head) even if the queue holds more.
    pub max_messages: Option<u64>,
    /// Replace messages on their last delivery as they are read (for peeks that keep every
    /// message). Replay and purge keep only some, and rescue those themselves.
    pub auto_rescue: bool,
    /// On a queue where a crash spends deliveries (a quorum queue with a delivery limit): the
    /// most messages *at risk* (on their last counted delivery) that a crash could lose, those
    /// arrived and not yet replaced by copies (`--quorum-at-risk`). The queue is read in rounds
    /// of half as many, each replaced once it has arrived while the next one arrives.
    pub quorum_at_risk: u16,
    /// Read a quorum queue where an earlier run met a message queuey's AMQP client cannot
    /// parse (`--retry-unreadable`); refused otherwise, since each such read spends a delivery
    /// of every message it holds.
    pub retry_unreadable: bool,
}

/// The default of [`PeekOptions::quorum_at_risk`]: a crash spends one delivery of every held
/// message, and can lose the messages at risk among the deliveries that have arrived and are
/// not yet replaced by copies: at most this many.
pub const QUORUM_AT_RISK: u16 = 256;

impl PeekOptions {
    pub fn new() -> PeekOptions {
        PeekOptions {
            window: 4000,
            byte_budget: 64 << 20,
            spend_delivery_budget: false,
            assume_classic: false,
            max_messages: None,
            auto_rescue: true,
            quorum_at_risk: QUORUM_AT_RISK,
            retry_unreadable: false,
        }
    }
}

/// Messages of the queue that others held, delivered and unacknowledged, when a peek began: a
/// peek cannot read them (another consumer, another tool, or the consumers of a connection
/// that is gone and whose deliveries the broker has not returned yet).
#[derive(Clone, Copy, Debug, PartialEq, Eq, serde::Serialize)]
pub struct HeldElsewhere {
    pub messages: u64,
    /// The queue's consumers then (exact: a passive declare).
    pub consumers: u32,
}

/// Whether one more counted return would end `message` on a quorum queue with `limit`: a
/// delivery carrying `x-delivery-count` h has been returned h times (counted); returning it
/// once more makes h+1, and the broker ends a message whose count passes the limit (seen on
/// 3.10 and 4.3: with a limit of 1 the first counted return keeps it, the second drops it).
pub fn at_risk(message: &Message, limit: Option<u64>) -> bool {
    let Some(limit) = limit else {
        return false;
    };
    let returned = message
        .properties
        .header(X_DELIVERY_COUNT)
        .and_then(Value::as_integer)
        .and_then(|n| u64::try_from(n).ok())
        .unwrap_or(0);
    returned.saturating_add(1) > limit
}
