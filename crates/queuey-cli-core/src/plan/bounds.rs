//! PURE: what a bounded queue does with what is published to it, read from its arguments and
//! its effective policy: the length limits (`max-length`, `max-length-bytes`), the overflow
//! behaviour at the limit, and where it dead-letters. A replay reads it for each target queue
//! (`dead::room` decides, copy by copy, whether one more fits).
//!
//! RabbitMQ's rules (docs "Queue Length Limit"; checked on 3.10.8 and 4.3.6): a limit set both
//! as an argument and by a policy is the smaller of the two (operator policies likewise, merged
//! into the effective policy); the overflow behaviour and the dead-letter exchange of an
//! argument win over a policy's; only *ready* messages count (unacknowledged ones do not), and
//! `max-length-bytes` counts bodies only. At the limit:
//! - `drop-head` (the default) takes the new message and pushes out the oldest one, which is
//!   dead-lettered (reason `maxlen`) if the queue has a dead-letter exchange, else dropped;
//! - `reject-publish` refuses the new message (a publisher in confirm mode gets a nack);
//! - `reject-publish-dlx` refuses it *and* dead-letters it (classic queues only): a replayed
//!   copy refused so lands wherever the target dead-letters, often back in `q.dead`.

use serde::Serialize;
use serde_json::{Map, Value};

/// What a queue does with a message published at its limit.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
#[serde(rename_all = "kebab-case")]
pub enum Overflow {
    DropHead,
    RejectPublish,
    RejectPublishDlx,
}

impl Overflow {
    pub fn name(self) -> &'static str {
        match self {
            Overflow::DropHead => "drop-head",
            Overflow::RejectPublish => "reject-publish",
            Overflow::RejectPublishDlx => "reject-publish-dlx",
        }
    }
}

/// Where a setting in force came from.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum Origin {
    /// The queue's `x-` argument.
    Argument,
    /// The effective policy (a policy or an operator policy).
    Policy,
    /// Neither: RabbitMQ's default.
    Default,
}

/// Where a queue's dead letters go.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum DeadLetterTo {
    /// Through the default exchange to the queue of that name.
    Queue(String),
    /// Through an exchange (with this routing key, or the message's own): which queue takes
    /// it depends on the exchange's bindings.
    Exchange {
        exchange: String,
        routing_key: Option<String>,
    },
}

impl DeadLetterTo {
    /// In words: `the queue "q.dead"`, `exchange "dlx" (routing key "k")`.
    pub fn describe(&self) -> String {
        match self {
            DeadLetterTo::Queue(q) => format!("the queue {q:?}"),
            DeadLetterTo::Exchange {
                exchange,
                routing_key: Some(rk),
            } => format!("exchange {exchange:?} (routing key {rk:?})"),
            DeadLetterTo::Exchange {
                exchange,
                routing_key: None,
            } => format!("exchange {exchange:?} (with the message's own routing key)"),
        }
    }
}

/// A queue's length limits and what it does at them.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct Bounds {
    /// Ready messages at most.
    pub max_length: Option<u64>,
    /// Bytes of ready bodies at most.
    pub max_length_bytes: Option<u64>,
    pub overflow: Overflow,
    pub overflow_from: Origin,
    /// Where the queue dead-letters, if it does.
    pub dead_letters_to: Option<DeadLetterTo>,
}

impl Bounds {
    /// The limits in words: `max-length 3`, `max-length 3 and max-length-bytes 1048576`.
    pub fn limits(&self) -> String {
        let mut parts = Vec::new();
        if let Some(n) = self.max_length {
            parts.push(format!("max-length {n}"));
        }
        if let Some(n) = self.max_length_bytes {
            parts.push(format!("max-length-bytes {n}"));
        }
        parts.join(" and ")
    }

    /// The overflow behaviour and where it comes from: `overflow reject-publish-dlx (policy)`.
    pub fn overflow_text(&self) -> String {
        let from = match self.overflow_from {
            Origin::Argument => "argument",
            Origin::Policy => "policy",
            Origin::Default => "the default",
        };
        format!("overflow {} ({from})", self.overflow.name())
    }

    /// What becomes of a copy refused, or of a message pushed out, by this queue: dead-lettered
    /// to where it dead-letters, or dropped.
    pub fn fate_of_the_dead(&self) -> String {
        match &self.dead_letters_to {
            Some(to) => format!("dead-lettered to {}", to.describe()),
            None => "dropped (it has no dead-letter exchange)".to_owned(),
        }
    }

    /// Whether a copy this queue refuses comes back into `source` (dead-lettered there):
    /// `Some(true)` when it surely does (reject-publish-dlx to that queue), `Some(false)` when
    /// it surely does not (the queue does not dead-letter what it refuses, or dead-letters it
    /// to another queue), `None` when an exchange decides.
    pub fn refused_copies_return_to(&self, source: &str) -> Option<bool> {
        if self.overflow != Overflow::RejectPublishDlx {
            return Some(false);
        }
        match &self.dead_letters_to {
            None => Some(false),
            Some(DeadLetterTo::Queue(q)) => Some(q == source),
            Some(DeadLetterTo::Exchange { .. }) => None,
        }
    }
}

/// The bounds of a queue from its arguments and its effective policy definition (the API's
/// `effective_policy_definition`), or `None` when it has no length limit. `queue` is its name
/// (a dead-letter exchange `""` without a routing key sends a message back under its own
/// routing key, which for a replayed copy is the queue's name). A stream has no overflow: its
/// limits are retention, and it is never bounded here.
pub fn bounds_of(
    queue: &str,
    queue_type: Option<&str>,
    arguments: &Map<String, Value>,
    policy: Option<&Value>,
) -> Option<Bounds> {
    if queue_type == Some("stream") {
        return None;
    }
    let policy = policy.and_then(Value::as_object);
    let number = |arg: &str, key: &str| -> Option<u64> {
        let a = arguments.get(arg).and_then(non_negative);
        let p = policy.and_then(|p| p.get(key)).and_then(non_negative);
        match (a, p) {
            (Some(a), Some(p)) => Some(a.min(p)),
            (a, p) => a.or(p),
        }
    };
    let text = |arg: &str, key: &str| -> Option<(String, Origin)> {
        arguments
            .get(arg)
            .and_then(Value::as_str)
            .map(|v| (v.to_owned(), Origin::Argument))
            .or_else(|| {
                policy
                    .and_then(|p| p.get(key))
                    .and_then(Value::as_str)
                    .map(|v| (v.to_owned(), Origin::Policy))
            })
    };
    let max_length = number("x-max-length", "max-length");
    let max_length_bytes = number("x-max-length-bytes", "max-length-bytes");
    if max_length.is_none() && max_length_bytes.is_none() {
        return None;
    }
    let (overflow, overflow_from) = match text("x-overflow", "overflow") {
        Some((v, from)) => match v.as_str() {
            "reject-publish" => (Overflow::RejectPublish, from),
            "reject-publish-dlx" => (Overflow::RejectPublishDlx, from),
            _ => (Overflow::DropHead, from),
        },
        None => (Overflow::DropHead, Origin::Default),
    };
    let dead_letters_to =
        text("x-dead-letter-exchange", "dead-letter-exchange").map(|(exchange, _)| {
            let routing_key =
                text("x-dead-letter-routing-key", "dead-letter-routing-key").map(|(k, _)| k);
            if exchange.is_empty() {
                DeadLetterTo::Queue(routing_key.unwrap_or_else(|| queue.to_owned()))
            } else {
                DeadLetterTo::Exchange {
                    exchange,
                    routing_key,
                }
            }
        });
    Some(Bounds {
        max_length,
        max_length_bytes,
        overflow,
        overflow_from,
        dead_letters_to,
    })
}

/// A limit as the API shows it: a JSON number (a negative one is no limit RabbitMQ accepts).
fn non_negative(v: &Value) -> Option<u64> {
    v.as_u64()
        .or_else(|| v.as_i64().map(|n| u64::try_from(n).unwrap_or(0)))
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    fn args(v: Value) -> Map<String, Value> {
        v.as_object().cloned().unwrap_or_default()
    }

    #[test]
    fn no_limit_is_no_bounds_and_a_stream_is_never_bounded() {
        assert_eq!(bounds_of("q", None, &args(json!({})), None), None);
        assert_eq!(
            bounds_of(
                "q",
                Some("classic"),
                &args(json!({"x-overflow": "reject-publish"})),
                Some(&json!({"overflow": "reject-publish-dlx"}))
            ),
            None,
            "an overflow without a limit bounds nothing"
        );
        assert_eq!(
            bounds_of(
                "s",
                Some("stream"),
                &args(json!({"x-max-length-bytes": 1000})),
                None
            ),
            None
        );
    }

    /// The smaller limit wins; the argument's overflow and dead-letter exchange win over the
    /// policy's (seen on 3.10.8 and 4.3.6: x-max-length 2 with reject-publish under a policy of
    /// max-length 5 and drop-head refuses the third message).
    #[test]
    fn limits_take_the_smaller_and_an_argument_wins_the_rest() {
        let b = bounds_of(
            "q",
            Some("classic"),
            &args(json!({"x-max-length": 2, "x-overflow": "reject-publish"})),
            Some(&json!({"max-length": 5, "overflow": "drop-head", "max-length-bytes": 100})),
        )
        .unwrap();
        assert_eq!(
            (
                b.max_length,
                b.max_length_bytes,
                b.overflow,
                b.overflow_from
            ),
            (
                Some(2),
                Some(100),
                Overflow::RejectPublish,
                Origin::Argument
            )
        );
        let b = bounds_of(
            "q",
            None,
            &args(json!({"x-max-length": 9})),
            Some(&json!({"max-length": 3, "overflow": "reject-publish-dlx",
                         "dead-letter-exchange": "", "dead-letter-routing-key": "q.dead"})),
        )
        .unwrap();
        assert_eq!(b.max_length, Some(3));
        assert_eq!(
            (b.overflow, b.overflow_from),
            (Overflow::RejectPublishDlx, Origin::Policy)
        );
        assert_eq!(
            b.dead_letters_to,
            Some(DeadLetterTo::Queue("q.dead".into()))
        );
        assert_eq!(b.limits(), "max-length 3");
        assert_eq!(b.overflow_text(), "overflow reject-publish-dlx (policy)");
        let b = bounds_of("q", None, &args(json!({"x-max-length": 0})), None).unwrap();
        assert_eq!(
            (b.max_length, b.overflow, b.overflow_from),
            (Some(0), Overflow::DropHead, Origin::Default)
        );
        assert_eq!(b.overflow_text(), "overflow drop-head (the default)");
        assert_eq!(
            b.fate_of_the_dead(),
            "dropped (it has no dead-letter exchange)"
        );
    }

    #[test]
    fn where_a_refused_copy_goes() {
        let with = |overflow: &str, dlx: Value| {
            let mut a = args(json!({"x-max-length": 1, "x-overflow": overflow}));
            for (k, v) in args(dlx) {
                a.insert(k, v);
            }
            bounds_of("q", None, &a, None).unwrap()
        };
        let to_dead = json!({"x-dead-letter-exchange": "", "x-dead-letter-routing-key": "q.dead"});
        assert_eq!(
            with("reject-publish-dlx", to_dead.clone()).refused_copies_return_to("q.dead"),
            Some(true)
        );
        assert_eq!(
            with("reject-publish-dlx", to_dead.clone()).refused_copies_return_to("other.dead"),
            Some(false)
        );
        assert_eq!(
            with("reject-publish", to_dead.clone()).refused_copies_return_to("q.dead"),
            Some(false)
        );
        assert_eq!(
            with("drop-head", to_dead).refused_copies_return_to("q.dead"),
            Some(false)
        );
        assert_eq!(
            with("reject-publish-dlx", json!({})).refused_copies_return_to("q.dead"),
            Some(false)
        );
        let through = with(
            "reject-publish-dlx",
            json!({"x-dead-letter-exchange": "dlx"}),
        );
        assert_eq!(through.refused_copies_return_to("q.dead"), None);
        assert_eq!(
            through.fate_of_the_dead(),
            "dead-lettered to exchange \"dlx\" (with the message's own routing key)"
        );
        let own_key = with("reject-publish-dlx", json!({"x-dead-letter-exchange": ""}));
        assert_eq!(
            own_key.dead_letters_to,
            Some(DeadLetterTo::Queue("q".into()))
        );
    }
}
