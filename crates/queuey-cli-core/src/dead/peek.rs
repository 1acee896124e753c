//! PURE: what a peek of a dead-letter queue may do (`broker::peek` does it).
//!
//! Where it sits in the looks (`broker::peek`'s doc in the CLI crate): the options every peek is
//! given, the rule for a message at risk, and the size of each round.

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
pub const QUORUM_AT_RISK: u16 = 2048;

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
    /// The management API's count of unacknowledged messages, `None` when it counts none (its
    /// statistics are seconds old: a consumer that took messages a moment ago is not counted
    /// yet) or cannot be read.
    pub messages: Option<u64>,
    /// The queue's consumers then (exact: a passive declare).
    pub consumers: u32,
}

/// Whether one more counted return would end `message` on a quorum queue with `limit`: a
/// delivery carrying `x-delivery-count` h has been returned h times (counted); returning it
/// once more makes h+1, and the broker ends a message whose count passes the limit (see
/// docs/broker-notes.md, Quorum delivery limits).
///
/// A first delivery (`redelivered` false) has been returned no time, whatever it carries: the
/// broker stamps its count only on a redelivery, so an `x-delivery-count` there is the
/// publisher's (forged, or copied from another queue). Read as the broker's, a count of 99 made
/// a look replace a fresh dead letter by a copy, as if on its last delivery.
pub fn at_risk(message: &Message, limit: Option<u64>) -> bool {
    let Some(limit) = limit else {
        return false;
    };
    let returned = if message.redelivered {
        message
            .properties
            .header(X_DELIVERY_COUNT)
            .and_then(Value::as_integer)
            .and_then(|n| u64::try_from(n).ok())
            .unwrap_or(0)
    } else {
        0
    };
    returned.saturating_add(1) > limit
}

/// How many messages each round of a peek asks for (its consumer's prefetch), so that the
/// bodies in flight stay near [`PeekOptions::byte_budget`] whatever the queue holds.
///
/// A round's bodies are unknown until they arrive, so the sizer is careful where it knows
/// nothing and follows what it has seen:
/// - the first round is one message: a window of thousands of 1 MiB bodies is gigabytes;
/// - each next round is at most the budget divided by the *largest* body weighed since the
///   last round was asked (an average lets one round of small bodies ask for a round of big
///   ones), at most twice the round before (bodies not weighed yet may be bigger), and at
///   most the round cap (`QueueKind::round_cap`);
/// - where rounds are asked ahead (a quorum queue: the next round arrives while the current
///   one is read, so two rounds are in flight) each round gets half the budget, and no round
///   is asked ahead before a body has been weighed, nor while the largest body weighed takes
///   more than half the budget on its own.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct RoundSizer {
    /// Bytes of bodies one round may hold.
    budget: u64,
    cap: u64,
    /// The last round asked for (0 before the first).
    last: u64,
    /// The largest body weighed since the last round was asked.
    largest_since_ask: Option<u64>,
    /// The largest body the last sizing went by: kept while no new body has been weighed.
    largest: Option<u64>,
}

impl RoundSizer {
    /// A sizer for rounds of at most `cap` messages and `byte_budget` bytes of bodies in
    /// flight; `asks_ahead` when two rounds are in flight at once.
    pub fn new(byte_budget: usize, cap: u64, asks_ahead: bool) -> RoundSizer {
        let budget = u64::try_from(byte_budget).unwrap_or(u64::MAX);
        RoundSizer {
            budget: if asks_ahead { budget / 2 } else { budget }.max(1),
            cap: cap.max(1),
            last: 0,
            largest_since_ask: None,
            largest: None,
        }
    }

    /// Records the size of a body that has arrived.
    pub fn weigh(&mut self, body_len: usize) {
        let len = u64::try_from(body_len).unwrap_or(u64::MAX);
        self.largest_since_ask = Some(self.largest_since_ask.map_or(len, |l| l.max(len)));
    }

    /// The largest body the next sizing goes by: the largest weighed since the last ask, or
    /// the one the last sizing went by when nothing has arrived since.
    fn basis(&self) -> Option<u64> {
        self.largest_since_ask.or(self.largest)
    }

    /// Whether a round may be asked for ahead of the current one: once a body has been
    /// weighed, and while the largest takes no more than half a round's budget.
    pub fn may_ask_ahead(&self) -> bool {
        self.basis()
            .is_some_and(|largest| largest <= self.budget / 2)
    }

    /// The size of the next round (at least 1, at most `wanted`, the messages the peek still
    /// means to ask for), counted as asked for: the bodies weighed from now on size the round
    /// after it.
    pub fn next_round(&mut self, wanted: u64) -> u64 {
        let round = match self.basis() {
            _ if self.last == 0 => 1,
            None => self.last,
            Some(largest) => (self.budget / largest.max(1))
                .min(self.last.saturating_mul(2))
                .max(1),
        }
        .min(self.cap)
        .min(wanted.max(1));
        self.largest = self.basis();
        self.largest_since_ask = None;
        self.last = round;
        round
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const MIB: usize = 1 << 20;

    /// The count of a redelivery is the broker's; a first delivery's is the publisher's, and
    /// a first delivery is at risk only where no return at all is allowed (a limit of 0).
    #[test]
    fn only_a_redelivery_carries_the_brokers_count() {
        let with_count = |count: Value, redelivered: bool| {
            let mut m = Message {
                redelivered,
                ..Message::default()
            };
            m.properties.headers = Some(crate::dead::value::Table::from([(
                X_DELIVERY_COUNT.to_owned(),
                count,
            )]));
            m
        };
        assert!(at_risk(&with_count(Value::I64(5), true), Some(5)));
        assert!(!at_risk(&with_count(Value::I64(4), true), Some(5)));
        assert!(at_risk(
            &with_count(Value::Timestamp(u64::MAX), true),
            Some(5)
        ));
        // Forged on a first delivery: it was returned no time (before: at risk).
        assert!(!at_risk(&with_count(Value::I64(99), false), Some(5)));
        assert!(!at_risk(&with_count(Value::I64(5), false), Some(1)));
        assert!(at_risk(&with_count(Value::I64(99), false), Some(0)));
        assert!(at_risk(&Message::default(), Some(0)));
        assert!(!at_risk(&with_count(Value::I64(99), true), None));
    }

    /// Asks for rounds, each followed by the arrival of its bodies (all of `body` bytes).
    fn rounds(sizer: &mut RoundSizer, bodies: &[usize]) -> Vec<u64> {
        bodies
            .iter()
            .map(|&body| {
                let round = sizer.next_round(u64::MAX);
                for _ in 0..round {
                    sizer.weigh(body);
                }
                round
            })
            .collect()
    }

    #[test]
    fn the_first_round_is_one_message_and_rounds_at_most_double() {
        let mut sizer = RoundSizer::new(64 * MIB, 4000, false);
        assert_eq!(
            rounds(&mut sizer, &[10; 14]),
            [
                1, 2, 4, 8, 16, 32, 64, 128, 256, 512, 1024, 2048, 4000, 4000
            ]
        );
    }

    #[test]
    fn big_bodies_keep_the_rounds_within_the_budget() {
        let mut sizer = RoundSizer::new(64 * MIB, 4000, false);
        assert_eq!(
            rounds(&mut sizer, &[MIB; 9]),
            [1, 2, 4, 8, 16, 32, 64, 64, 64]
        );
        // Bodies bigger than the budget: one at a time.
        let mut sizer = RoundSizer::new(64 * MIB, 4000, false);
        assert_eq!(rounds(&mut sizer, &[100 * MIB; 3]), [1, 1, 1]);
    }

    /// The largest body sizes the next round, not the average: one big body among small ones
    /// is enough to shrink it.
    #[test]
    fn the_largest_body_since_the_last_ask_sizes_the_next_round() {
        let mut sizer = RoundSizer::new(64 * MIB, 4000, false);
        assert_eq!(rounds(&mut sizer, &[10; 12]).last(), Some(&2048));
        for _ in 0..2047 {
            sizer.weigh(10);
        }
        sizer.weigh(MIB);
        assert_eq!(sizer.next_round(u64::MAX), 64);
        for _ in 0..64 {
            sizer.weigh(10);
        }
        // Small bodies again: the rounds grow back, doubling.
        assert_eq!(rounds(&mut sizer, &[10; 3]), [128, 256, 512]);
    }

    /// After a round of small bodies the next may be bigger, but only twice as big: bodies
    /// that turn big then hold at most twice the round before.
    #[test]
    fn small_bodies_followed_by_big_ones_hold_at_most_twice_the_round() {
        let mut sizer = RoundSizer::new(64 * MIB, 4000, false);
        let grown = rounds(&mut sizer, &[10; 6]);
        assert_eq!(grown, [1, 2, 4, 8, 16, 32]);
        let round = sizer.next_round(u64::MAX);
        assert_eq!(round, 64);
        for _ in 0..round {
            sizer.weigh(4 * MIB);
        }
        assert_eq!(sizer.next_round(u64::MAX), 16);
    }

    #[test]
    fn nothing_weighed_since_the_last_ask_keeps_the_last_basis() {
        let mut sizer = RoundSizer::new(64 * MIB, 4000, false);
        assert_eq!(sizer.next_round(u64::MAX), 1);
        assert_eq!(sizer.next_round(u64::MAX), 1, "nothing weighed: no growth");
        sizer.weigh(16 * MIB);
        assert_eq!(sizer.next_round(u64::MAX), 2);
        assert_eq!(sizer.next_round(u64::MAX), 4, "by the same largest body");
        assert_eq!(sizer.next_round(u64::MAX), 4);
    }

    #[test]
    fn rounds_stop_at_the_cap_and_at_what_is_wanted() {
        let mut sizer = RoundSizer::new(64 * MIB, 128, true);
        assert_eq!(rounds(&mut sizer, &[10; 10]).last(), Some(&128));
        assert_eq!(sizer.next_round(5), 5);
        assert_eq!(sizer.next_round(0), 1, "a round is at least one message");
    }

    /// Two rounds in flight (a quorum queue): each gets half the budget, and none is asked
    /// ahead before a body has been weighed or while one body takes half a round's budget.
    #[test]
    fn rounds_asked_ahead_share_the_budget() {
        let mut sizer = RoundSizer::new(64 * MIB, 4000, true);
        assert!(!sizer.may_ask_ahead(), "nothing weighed yet");
        assert_eq!(rounds(&mut sizer, &[MIB; 8]), [1, 2, 4, 8, 16, 32, 32, 32]);
        assert!(sizer.may_ask_ahead());
        sizer.weigh(16 * MIB);
        assert!(sizer.may_ask_ahead(), "half of the half budget");
        sizer.weigh(16 * MIB + 1);
        assert!(!sizer.may_ask_ahead());
        assert_eq!(sizer.next_round(u64::MAX), 1);
        assert!(
            !sizer.may_ask_ahead(),
            "until a smaller body is weighed after an ask"
        );
        sizer.weigh(MIB);
        assert!(sizer.may_ask_ahead());
    }
}
