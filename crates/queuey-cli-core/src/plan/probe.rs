//! The AMQP fallback: RabbitMQ's 406 reply to an inequivalent redeclare, parsed, and the plan
//! it gives (only the first difference the broker names).

use serde_json::Value;

use super::*;
use crate::topology::{self, QueueType};

/// What the AMQP fallback learnt about one queue.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum ProbeOutcome {
    /// The passive declare said the queue does not exist (no probe was made).
    Missing,
    /// The passive declare found the queue, and no probe was made (a read-only command).
    Exists,
    /// A declare with the computed arguments was accepted: the queue exists and is equivalent.
    Equivalent,
    /// The declare was refused with 406 PRECONDITION_FAILED and this reply text.
    Inequivalent(String),
    /// The declare was refused with 405 RESOURCE_LOCKED: the queue is exclusive to another
    /// connection.
    Locked(String),
}

/// One side of a 406 "inequivalent arg" reply.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum ReplyValue {
    /// `none`: that side has no such argument.
    Absent,
    /// A value as the broker printed it, and its AMQP type when the broker named it.
    Value {
        text: String,
        type_name: Option<String>,
    },
    /// The reply was cut (RabbitMQ cuts reply texts at 255 bytes) before this value ended.
    Cut,
}

/// A parsed `inequivalent arg` reply: which argument differs, what queuey sent (`received`)
/// and what the queue has (`current`).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Inequivalence {
    pub argument: String,
    pub received: ReplyValue,
    pub current: ReplyValue,
}

/// Parses RabbitMQ's 406 reply to an inequivalent redeclare:
///
/// - `inequivalent arg 'X' for queue 'Q' in vhost 'V': received 'A' but current is 'B'`
/// - `... received none but current is the value 'B' of type 'T'`
/// - `... received the value 'A' of type 'T' but current is none`
///
/// `queue` and `vhost` are the names queuey declared in, used to skip the middle exactly
/// (a queue name may itself contain `': received `). The reply may be cut at 255 bytes, even
/// inside the queue name: what was cut comes back as [`ReplyValue::Cut`]. `None` when the text
/// is not an `inequivalent arg` reply at all.
pub fn parse_inequivalent(text: &str, queue: &str, vhost: &str) -> Option<Inequivalence> {
    const HEAD: &str = "inequivalent arg '";
    let start = text.find(HEAD)? + HEAD.len();
    let after_head = &text[start..];
    let (argument, rest) = match after_head.find('\'') {
        Some(end) => (&after_head[..end], &after_head[end..]),
        None => {
            return Some(Inequivalence {
                argument: after_head.trim_end_matches("...").to_owned(),
                received: ReplyValue::Cut,
                current: ReplyValue::Cut,
            });
        }
    };
    let cut = |argument: &str| Inequivalence {
        argument: argument.to_owned(),
        received: ReplyValue::Cut,
        current: ReplyValue::Cut,
    };
    let middle = format!("' for queue '{queue}' in vhost '{vhost}': ");
    let values = if let Some(v) = rest.strip_prefix(middle.as_str()) {
        v
    } else if middle.starts_with(rest) || middle.starts_with(rest.trim_end_matches("...")) {
        // Cut inside the queue or vhost name.
        return Some(cut(argument));
    } else {
        // An unexpected middle (another broker version's wording): take the last `: received `.
        match rest.rfind("': received ") {
            Some(i) => &rest[i + "': ".len()..],
            None => return Some(cut(argument)),
        }
    };
    let Some(values) = values.strip_prefix("received ") else {
        return Some(cut(argument));
    };
    let (received, after) = parse_reply_value(values, " but current is ");
    let current = match after {
        Some(rest) => parse_reply_value(rest, "").0,
        None => ReplyValue::Cut,
    };
    Some(Inequivalence {
        argument: argument.to_owned(),
        received,
        current,
    })
}

/// A 406 reply refusing an argument for the queue's type, as RabbitMQ words it (see
/// docs/broker-notes.md, Declaring and the management API):
/// `PRECONDITION_FAILED - invalid arg 'x-max-priority' for queue 'q' in vhost 'v' of queue type
/// rabbit_quorum_queue`. Returns the argument and the queue type (`quorum`: the module name
/// without `rabbit_` and `_queue`), the type `None` when the reply was cut before it. `None`
/// when the text is not such a reply (an `invalid arg` with a value, as `x-expires` of 0 gets,
/// is not about the queue's type).
pub fn parse_invalid_arg(text: &str) -> Option<(String, Option<String>)> {
    const HEAD: &str = "invalid arg '";
    let start = text.find(HEAD)? + HEAD.len();
    let rest = &text[start..];
    let end = rest.find('\'')?;
    let argument = &rest[..end];
    let after = &rest[end + 1..];
    if !after.starts_with(" for queue '") {
        return None;
    }
    let queue_type = after.rfind(" of queue type ").map(|i| {
        let module = after[i + " of queue type ".len()..].trim();
        module
            .strip_prefix("rabbit_")
            .and_then(|m| m.strip_suffix("_queue"))
            .unwrap_or(module)
            .to_owned()
    });
    Some((argument.to_owned(), queue_type))
}

/// One value of a 406 reply at the start of `text`, then the text after `separator` (or
/// `None` when the value or the separator was cut). With an empty separator the value must
/// end the text.
fn parse_reply_value<'a>(text: &'a str, separator: &str) -> (ReplyValue, Option<&'a str>) {
    let end_of = |after: &'a str| -> Option<&'a str> {
        if separator.is_empty() {
            after.is_empty().then_some(after)
        } else {
            after.strip_prefix(separator)
        }
    };
    if let Some(after) = text.strip_prefix("none") {
        return match end_of(after) {
            Some(rest) => (ReplyValue::Absent, Some(rest)),
            None => (ReplyValue::Cut, None),
        };
    }
    if let Some(body) = text.strip_prefix("the value '") {
        // `the value 'A' of type 'T'`: A may contain quotes, T does not.
        let marker = "' of type '";
        let found = if separator.is_empty() {
            body.rfind(marker)
        } else {
            body.find(marker)
        };
        if let Some(i) = found {
            let value = &body[..i];
            let after_marker = &body[i + marker.len()..];
            if let Some(j) = after_marker.find('\'') {
                let type_name = &after_marker[..j];
                if let Some(rest) = end_of(&after_marker[j + 1..]) {
                    return (
                        ReplyValue::Value {
                            text: value.to_owned(),
                            type_name: Some(type_name.to_owned()),
                        },
                        Some(rest),
                    );
                }
            }
        }
        return (ReplyValue::Cut, None);
    }
    if let Some(body) = text.strip_prefix('\'') {
        let found = if separator.is_empty() {
            body.strip_suffix('\'').map(|v| (v, ""))
        } else {
            let marker = format!("'{separator}");
            body.find(&marker)
                .map(|i| (&body[..i], &body[i + marker.len()..]))
        };
        if let Some((value, rest)) = found {
            return (
                ReplyValue::Value {
                    text: value.to_owned(),
                    type_name: None,
                },
                Some(rest),
            );
        }
    }
    (ReplyValue::Cut, None)
}

/// A value from a 406 reply as JSON: a boolean or integer when it reads as one (and its type,
/// if named, is not a string type), else a string.
fn reply_json(value: &ReplyValue) -> Option<Value> {
    match value {
        ReplyValue::Absent | ReplyValue::Cut => None,
        ReplyValue::Value { text, type_name } => {
            let stringy = type_name
                .as_deref()
                .is_some_and(|t| t.contains("str") || t == "binary");
            if !stringy {
                if let Ok(n) = text.parse::<i64>() {
                    return Some(Value::from(n));
                }
                if text == "true" || text == "false" {
                    return Some(Value::Bool(text == "true"));
                }
            }
            Some(Value::from(text.clone()))
        }
    }
}

/// The difference a probe's 406 reply names, in the same shape as [`compare`]'s.
pub fn probe_difference(computed: &ComputedQueue, found: &Inequivalence) -> Difference {
    let field = found.argument.as_str();
    let kind = match (&found.received, &found.current) {
        (_, ReplyValue::Cut) => DiffKind::Unknown,
        (_, ReplyValue::Absent) => DiffKind::Missing,
        (ReplyValue::Absent, _) => DiffKind::Extra,
        _ => DiffKind::Different,
    };
    match field {
        "durable" => Difference {
            field: field.to_owned(),
            kind: DiffKind::Different,
            live: reply_json(&found.current).or(Some(Value::Bool(!computed.durable))),
            computed: Some(Value::Bool(computed.durable)),
            effect: None,
            policies: Vec::new(),
        },
        "auto_delete" => Difference {
            field: field.to_owned(),
            kind: DiffKind::Different,
            live: reply_json(&found.current).or(Some(Value::Bool(true))),
            computed: Some(Value::Bool(false)),
            effect: None,
            policies: Vec::new(),
        },
        a if a == topology::ARG_QUEUE_TYPE => Difference {
            field: "type".to_owned(),
            kind: if kind == DiffKind::Unknown {
                DiffKind::Unknown
            } else {
                DiffKind::Different
            },
            live: match &found.current {
                ReplyValue::Absent => Some(Value::from(QueueType::Classic.as_str())),
                other => reply_json(other),
            },
            computed: Some(Value::from(computed.queue_type.as_str())),
            effect: None,
            policies: Vec::new(),
        },
        _ => Difference {
            field: field.to_owned(),
            kind,
            live: reply_json(&found.current),
            computed: computed.arguments.get(field).map(arg_json),
            effect: None,
            policies: Vec::new(),
        },
    }
}

/// The plan for a long-lived queue from the AMQP fallback.
pub fn plan_from_probe(computed: &ComputedQueue, outcome: &ProbeOutcome, vhost: &str) -> QueuePlan {
    let mut plan = diff_queue(computed, None);
    plan.source = Source::AmqpProbe;
    match outcome {
        ProbeOutcome::Missing => {}
        ProbeOutcome::Exists => plan.status = Status::Unchecked,
        ProbeOutcome::Equivalent => plan.status = Status::InSync,
        ProbeOutcome::Locked(_) => {
            plan.status = Status::Drift;
            plan.first_difference_only = true;
            plan.differences.push(Difference {
                field: "exclusive".to_owned(),
                kind: DiffKind::Different,
                live: Some(Value::Bool(true)),
                computed: Some(Value::Bool(false)),
                effect: None,
                policies: Vec::new(),
            });
        }
        ProbeOutcome::Inequivalent(text) => {
            plan.status = Status::Drift;
            plan.first_difference_only = true;
            let invalid = parse_invalid_arg(text);
            let difference = match (parse_inequivalent(text, &computed.name, vhost), invalid) {
                (Some(found), _) => probe_difference(computed, &found),
                (None, Some((argument, queue_type))) => {
                    plan.status = Status::Refused;
                    // The type the broker named, which the fallback could not read before.
                    if queue_type.as_deref() == Some(QueueType::Quorum.as_str()) {
                        plan.queue_type = QueueType::Quorum.as_str();
                    }
                    let what = match &queue_type {
                        Some(t) => format!(
                            "{:?} is a {t} queue there (a queue declared without x-queue-type \
                             is of the vhost's default queue type), and a {t} queue refuses \
                             {argument}",
                            computed.name
                        ),
                        None => format!("its type refuses {argument}"),
                    };
                    Difference {
                        kind: DiffKind::Refused,
                        live: None,
                        computed: computed.arguments.get(&argument).map(arg_json),
                        effect: Some(format!("refused by the broker: {what}")),
                        policies: Vec::new(),
                        field: argument,
                    }
                }
                // A 406 that is neither an "inequivalent arg" nor an "invalid arg" reply: say so.
                (None, None) => Difference {
                    field: "(unknown)".to_owned(),
                    kind: DiffKind::Unknown,
                    live: Some(Value::from(text.clone())),
                    computed: None,
                    effect: None,
                    policies: Vec::new(),
                },
            };
            plan.differences.push(difference);
        }
    }
    plan
}

// ---------------------------------------------------------------------------------------------
// Hold queues.
// ---------------------------------------------------------------------------------------------
