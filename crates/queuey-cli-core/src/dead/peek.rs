//! PURE: what a peek of a dead-letter queue may do (`broker::peek` does it).

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
}

impl PeekOptions {
    pub fn new() -> PeekOptions {
        PeekOptions {
            window: 4000,
            byte_budget: 64 << 20,
            spend_delivery_budget: false,
            assume_classic: false,
            max_messages: None,
            auto_rescue: true,
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
