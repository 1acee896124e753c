//! PURE: what a bounded queue does with what is published to it, read from its arguments and
//! its effective policy: the length limits (`max-length`, `max-length-bytes`), the overflow
//! behaviour at the limit, and where it dead-letters. A replay reads it for each target queue
//! (`dead::target_room` decides, copy by copy, whether one more fits).
//!
//! RabbitMQ's rules, which differ by queue type (its source, `rabbit_amqqueue_process`
//! `process_args_policy` and `rabbit_quorum_queue` `gather_policy_config`; see
//! docs/broker-notes.md, Bounded queues, streams, and who the broker is):
//! - a limit set both as an argument and by a policy is the smaller of the two, on every type
//!   (operator policies likewise, merged into the effective policy: `plan::policies`);
//! - `overflow`: on a **classic** queue the argument wins over the policy; on a **quorum** queue
//!   the **policy** wins over the argument, and a quorum queue runs `reject-publish-dlx` (from a
//!   policy or an argument, which it accepts) as `drop-head`;
//! - the dead-letter exchange and routing key: the argument wins, on every type;
//! - only *ready* messages count (unacknowledged ones do not). `max-length-bytes` counts bodies,
//!   except on a quorum queue from RabbitMQ 3.13 (its message container), which counts each
//!   message's properties and headers too, by a size queuey cannot compute.
//!
//! At the limit:
//! - `drop-head` (the default) takes the new message and pushes out the oldest one, which is
//!   dead-lettered (reason `maxlen`) if the queue has a dead-letter exchange, else dropped;
//! - `reject-publish` refuses the new message (a publisher in confirm mode gets a nack). A
//!   quorum queue refuses only once it is *over* its limit: it takes one message more than a
//!   classic queue (max-length 2 took 3), and once refusing it refuses until it is down to 80%
//!   of the limit; queuey judges as a classic queue does, which keeps the copy that would have
//!   been the one more, and counts a refusal of a copy that fitted as a refusal;
//! - `reject-publish-dlx` refuses it *and* dead-letters it (classic queues only): a replayed
//!   copy refused so lands wherever the target dead-letters, often back in `q.dead`.
//!
//! What cannot be judged faithfully is [`Unevaluable`], never guessed: an argument and a policy
//! that disagree on `overflow` on a queue of a type queuey does not know, and a byte limit on a
//! quorum queue whose overflow is `drop-head` on a version that counts more than bodies (a copy
//! that seems to fit could push out the queue's oldest job).

use serde::Serialize;
use serde_json::{Map, Value};

use super::policies::Unevaluable;

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
    /// Why the overflow in force is not simply the setting it came from, in words: `its
    /// reject-publish-dlx, which a quorum queue runs as drop-head`, `over the argument's
    /// reject-publish: a quorum queue's policy wins`.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub overflow_note: Option<String>,
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
        match &self.overflow_note {
            Some(note) => format!("overflow {} ({from}: {note})", self.overflow.name()),
            None => format!("overflow {} ({from})", self.overflow.name()),
        }
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

/// The bounds of a queue from its arguments and its effective policy definition, or `None` when
/// it has no length limit. `queue` is its name (a dead-letter exchange `""` without a routing
/// key sends a message back under its own routing key, which for a replayed copy is the queue's
/// name); `queue_type` the API's `type`; `broker` the broker's (major, minor) version, `None`
/// when unknown. A stream has no overflow: its limits are retention, and it is never bounded
/// here. `Err` when the bounds cannot be judged faithfully (the module's doc says when).
pub fn bounds_of(
    queue: &str,
    queue_type: Option<&str>,
    arguments: &Map<String, Value>,
    policy: Option<&Value>,
    broker: Option<(u32, u32)>,
) -> Result<Option<Bounds>, Unevaluable> {
    if queue_type == Some("stream") {
        return Ok(None);
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
        return Ok(None);
    }
    let (overflow, overflow_from, overflow_note) = overflow_of(
        queue,
        queue_type,
        arguments.get("x-overflow").and_then(Value::as_str),
        policy
            .and_then(|p| p.get("overflow"))
            .and_then(Value::as_str),
    )?;
    if queue_type == Some("quorum")
        && max_length_bytes.is_some()
        && overflow == Overflow::DropHead
        && broker.is_none_or(|v| v >= (3, 13))
    {
        let version = broker.map_or("an unknown version".to_owned(), |(major, minor)| {
            format!("{major}.{minor}")
        });
        return Err(Unevaluable(format!(
            "it is a quorum queue with max-length-bytes and overflow drop-head, and on RabbitMQ \
             {version} a quorum queue counts each message's properties and headers against \
             max-length-bytes as well as its body, by a size queuey cannot compute: a copy that \
             seems to fit could push out its oldest job"
        )));
    }
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
    Ok(Some(Bounds {
        max_length,
        max_length_bytes,
        overflow,
        overflow_from,
        overflow_note,
        dead_letters_to,
    }))
}

/// The overflow in force on a queue of `queue_type` whose `x-overflow` argument is `argument`
/// and whose effective policy's `overflow` is `policy`, where it comes from, and why it is not
/// simply that setting (see [`Bounds::overflow_note`]). A classic queue takes its argument, a
/// quorum queue its policy; a type queuey does not know is judged only where the two agree.
pub fn overflow_of(
    queue: &str,
    queue_type: Option<&str>,
    argument: Option<&str>,
    policy: Option<&str>,
) -> Result<(Overflow, Origin, Option<String>), Unevaluable> {
    let quorum = queue_type == Some("quorum");
    let policy_wins = match (queue_type, argument, policy) {
        (Some("quorum"), ..) => true,
        (Some("classic"), ..) | (_, None, _) | (_, _, None) => false,
        (_, Some(a), Some(p)) if a == p => false,
        (_, Some(a), Some(p)) => {
            let of_type = queue_type.map_or("of a type the API did not show".to_owned(), |t| {
                format!("of type {t:?}, which queuey does not know")
            });
            return Err(Unevaluable(format!(
                "{queue:?} is a queue {of_type}, with the argument x-overflow {a:?} and a \
                 policy's overflow {p:?}: which one wins depends on the type (the argument on a \
                 classic queue, the policy on a quorum queue)"
            )));
        }
    };
    let chosen = if policy_wins {
        policy
            .map(|p| (p, Origin::Policy))
            .or(argument.map(|a| (a, Origin::Argument)))
    } else {
        argument
            .map(|a| (a, Origin::Argument))
            .or(policy.map(|p| (p, Origin::Policy)))
    };
    let Some((value, from)) = chosen else {
        return Ok((Overflow::DropHead, Origin::Default, None));
    };
    let mut notes = Vec::new();
    let overflow = match value {
        "reject-publish" => Overflow::RejectPublish,
        "reject-publish-dlx" if quorum => {
            notes.push("its reject-publish-dlx, which a quorum queue runs as drop-head".to_owned());
            Overflow::DropHead
        }
        "reject-publish-dlx" => Overflow::RejectPublishDlx,
        _ => Overflow::DropHead,
    };
    if let (Origin::Policy, Some(a)) = (from, argument)
        && a != value
    {
        notes.push(format!(
            "over the argument's {a}: a quorum queue's policy wins"
        ));
    }
    let note = (!notes.is_empty()).then(|| notes.join(", "));
    Ok((overflow, from, note))
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

    const V3: Option<(u32, u32)> = Some((3, 10));
    const V4: Option<(u32, u32)> = Some((4, 3));

    fn args(v: Value) -> Map<String, Value> {
        v.as_object().cloned().unwrap_or_default()
    }

    #[test]
    fn no_limit_is_no_bounds_and_a_stream_is_never_bounded() {
        assert_eq!(
            bounds_of("q", None, &args(json!({})), None, V4).unwrap(),
            None
        );
        assert_eq!(
            bounds_of(
                "q",
                Some("classic"),
                &args(json!({"x-overflow": "reject-publish"})),
                Some(&json!({"overflow": "reject-publish-dlx"})),
                V4
            )
            .unwrap(),
            None,
            "an overflow without a limit bounds nothing"
        );
        assert_eq!(
            bounds_of(
                "s",
                Some("stream"),
                &args(json!({"x-max-length-bytes": 1000})),
                None,
                V4
            )
            .unwrap(),
            None
        );
    }

    /// The smaller limit wins; on a classic queue the argument's overflow and dead-letter
    /// exchange win over the policy's (the table in docs/broker-notes.md, Bounded queues,
    /// streams, and who the broker is).
    #[test]
    fn limits_take_the_smaller_and_a_classic_argument_wins_the_rest() {
        let b = bounds_of(
            "q",
            Some("classic"),
            &args(json!({"x-max-length": 2, "x-overflow": "reject-publish"})),
            Some(&json!({"max-length": 5, "overflow": "drop-head", "max-length-bytes": 100})),
            V4,
        )
        .unwrap()
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
            V4,
        )
        .unwrap()
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
        let b = bounds_of("q", None, &args(json!({"x-max-length": 0})), None, V4)
            .unwrap()
            .unwrap();
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
            bounds_of("q", None, &a, None, V4).unwrap().unwrap()
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

    /// The table in docs/broker-notes.md (Bounded queues, streams, and who the broker is):
    /// x-max-length 2 and a policy's overflow (the smaller limit of the two in every case).
    #[test]
    fn a_classic_queue_takes_its_argument_and_a_quorum_queue_its_policy() {
        let cases = [
            // (type, x-overflow, policy overflow) -> (overflow, from, note)
            (
                "classic",
                Some("reject-publish"),
                Some("drop-head"),
                Overflow::RejectPublish,
                Origin::Argument,
                None,
            ),
            (
                "classic",
                Some("drop-head"),
                Some("reject-publish"),
                Overflow::DropHead,
                Origin::Argument,
                None,
            ),
            (
                "classic",
                None,
                Some("reject-publish"),
                Overflow::RejectPublish,
                Origin::Policy,
                None,
            ),
            (
                "classic",
                Some("drop-head"),
                Some("reject-publish-dlx"),
                Overflow::DropHead,
                Origin::Argument,
                None,
            ),
            (
                "classic",
                Some("reject-publish-dlx"),
                None,
                Overflow::RejectPublishDlx,
                Origin::Argument,
                None,
            ),
            (
                "quorum",
                Some("reject-publish"),
                Some("drop-head"),
                Overflow::DropHead,
                Origin::Policy,
                Some("over the argument's reject-publish: a quorum queue's policy wins"),
            ),
            (
                "quorum",
                Some("drop-head"),
                Some("reject-publish"),
                Overflow::RejectPublish,
                Origin::Policy,
                Some("over the argument's drop-head: a quorum queue's policy wins"),
            ),
            (
                "quorum",
                None,
                Some("reject-publish"),
                Overflow::RejectPublish,
                Origin::Policy,
                None,
            ),
            (
                "quorum",
                Some("reject-publish"),
                None,
                Overflow::RejectPublish,
                Origin::Argument,
                None,
            ),
            (
                "quorum",
                Some("reject-publish"),
                Some("reject-publish"),
                Overflow::RejectPublish,
                Origin::Policy,
                None,
            ),
            (
                "quorum",
                Some("reject-publish"),
                Some("reject-publish-dlx"),
                Overflow::DropHead,
                Origin::Policy,
                Some(
                    "its reject-publish-dlx, which a quorum queue runs as drop-head, over the argument's reject-publish: a quorum queue's policy wins",
                ),
            ),
            (
                "quorum",
                Some("reject-publish-dlx"),
                None,
                Overflow::DropHead,
                Origin::Argument,
                Some("its reject-publish-dlx, which a quorum queue runs as drop-head"),
            ),
            (
                "quorum",
                None,
                None,
                Overflow::DropHead,
                Origin::Default,
                None,
            ),
        ];
        for version in [V3, V4, None] {
            for (kind, arg, pol, overflow, from, note) in cases {
                let mut a = args(json!({"x-max-length": 2}));
                if let Some(arg) = arg {
                    a.insert("x-overflow".into(), json!(arg));
                }
                let policy = pol.map(|p| json!({"overflow": p, "max-length": 5}));
                let b = bounds_of("q", Some(kind), &a, policy.as_ref(), version)
                    .unwrap()
                    .unwrap();
                let case = format!("{version:?} {kind} {arg:?} {pol:?}");
                assert_eq!(b.max_length, Some(2), "{case}");
                assert_eq!(
                    (b.overflow, b.overflow_from, b.overflow_note.as_deref()),
                    (overflow, from, note),
                    "{case}"
                );
            }
        }
        let b = bounds_of(
            "q",
            Some("quorum"),
            &args(json!({"x-max-length": 2, "x-overflow": "reject-publish"})),
            Some(&json!({"overflow": "reject-publish-dlx"})),
            V4,
        )
        .unwrap()
        .unwrap();
        assert_eq!(
            b.overflow_text(),
            "overflow drop-head (policy: its reject-publish-dlx, which a quorum queue runs as \
             drop-head, over the argument's reject-publish: a quorum queue's policy wins)"
        );
        // A quorum queue never dead-letters what it refuses: it refuses nothing here.
        assert_eq!(b.refused_copies_return_to("q"), Some(false));
    }

    /// A type queuey does not know (or none shown) is judged only where the argument and the
    /// policy agree on the overflow, or one alone sets it.
    #[test]
    fn an_unknown_type_is_judged_only_where_argument_and_policy_agree() {
        let a = args(json!({"x-max-length": 2, "x-overflow": "reject-publish"}));
        for kind in [None, Some("x-plugin")] {
            let Err(Unevaluable(why)) =
                bounds_of("q", kind, &a, Some(&json!({"overflow": "drop-head"})), V4)
            else {
                panic!("{kind:?}: a disagreement is not guessed")
            };
            assert!(why.contains("depends on the type"), "{why}");
            let b = bounds_of(
                "q",
                kind,
                &a,
                Some(&json!({"overflow": "reject-publish"})),
                V4,
            )
            .unwrap()
            .unwrap();
            assert_eq!(
                (b.overflow, b.overflow_from),
                (Overflow::RejectPublish, Origin::Argument)
            );
            let b = bounds_of("q", kind, &a, None, V4).unwrap().unwrap();
            assert_eq!(b.overflow, Overflow::RejectPublish);
        }
    }

    /// A quorum queue counts properties and headers against max-length-bytes from 3.13 (see
    /// docs/broker-notes.md, Bounded queues, streams, and who the broker is): with drop-head, a
    /// copy that seems to fit could push out a job, so such bounds are unknown there; with
    /// reject-publish the broker refuses what does not fit, and the bounds stand.
    #[test]
    fn a_quorum_byte_limit_with_drop_head_is_unknown_where_headers_count() {
        let bytes = args(json!({"x-max-length-bytes": 1000}));
        let judged = |kind: &str, policy: Value, version| {
            bounds_of("q", Some(kind), &bytes, Some(&policy), version)
        };
        for version in [Some((3, 13)), V4, None] {
            let Err(Unevaluable(why)) = judged("quorum", json!({}), version) else {
                panic!("{version:?}: a quorum byte limit with drop-head is not judged")
            };
            assert!(why.contains("properties and headers"), "{why}");
            assert!(
                judged("quorum", json!({"overflow": "reject-publish"}), version)
                    .unwrap()
                    .is_some()
            );
            assert!(judged("classic", json!({}), version).unwrap().is_some());
        }
        for version in [V3, Some((3, 12))] {
            let b = judged("quorum", json!({}), version).unwrap().unwrap();
            assert_eq!(
                (b.max_length_bytes, b.overflow),
                (Some(1000), Overflow::DropHead)
            );
        }
        // A count limit alone is judged on every version.
        let b = bounds_of(
            "q",
            Some("quorum"),
            &args(json!({"x-max-length": 3})),
            None,
            V4,
        )
        .unwrap()
        .unwrap();
        assert_eq!(b.max_length, Some(3));
    }
}
