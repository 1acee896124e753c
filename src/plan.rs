//! PURE: the broker queues a logical queue should have (the desired state), and the difference
//! between that and what the broker has (the plan of `declare --dry-run` and `verify`).
//!
//! Two sources of live state feed the same plan:
//! - the management API, which shows a queue's whole definition: [`diff_queue`] compares every
//!   argument and flag, and knows which arguments the broker enforces on a redeclare (an extra
//!   one of those is drift) and which it ignores (shown, never drift);
//! - the AMQP fallback, which only learns whether a declare with the computed arguments is
//!   accepted: [`plan_from_probe`] reads the one difference the broker names in its 406 reply
//!   ([`parse_inequivalent`]), which is why that plan says it saw only the first difference.
//!
//! Nothing here does I/O: the broker layer fills [`LiveDefinition`] and [`ProbeOutcome`].

use serde::Serialize;
use serde_json::{Map, Value};

use crate::duration::format_millis;
use crate::settings::QueueSettings;
use crate::topology::{self, ArgValue, QueueArgs, QueueType};

/// What a broker queue is for.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum Role {
    /// The work queue `q`.
    Work,
    /// The dead-letter queue `q.dead`.
    Dead,
    /// A hold queue `q.deferred.{ttl_ms}`.
    Hold,
}

impl Role {
    pub fn describe(self) -> &'static str {
        match self {
            Role::Work => "work queue",
            Role::Dead => "dead-letter queue",
            Role::Hold => "hold queue",
        }
    }
}

/// One broker queue as queuey computes it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ComputedQueue {
    pub name: String,
    pub role: Role,
    pub queue_type: QueueType,
    /// Every queue queuey declares is durable: dead letters and waiting retries must survive a
    /// broker restart.
    pub durable: bool,
    pub arguments: QueueArgs,
}

/// The two long-lived queues of `q`, which `queuey declare` creates: `q` and `q.dead`.
/// `q.dead` is always a classic queue with no arguments (seed 000, seed 003).
pub fn long_lived_queues(q: &QueueSettings) -> [ComputedQueue; 2] {
    [
        ComputedQueue {
            name: q.name.clone(),
            role: Role::Work,
            queue_type: q.config.queue_type,
            durable: true,
            arguments: topology::queue_args(&q.name, &q.config, &q.options),
        },
        ComputedQueue {
            name: q.dead_queue(),
            role: Role::Dead,
            queue_type: QueueType::Classic,
            durable: true,
            arguments: topology::dead_queue_args(),
        },
    ]
}

/// The hold queue of `q` for a TTL: its arguments depend on its name only.
pub fn hold_queue(q: &QueueSettings, ttl_ms: u32) -> ComputedQueue {
    ComputedQueue {
        name: q.options.deferred_queue(&q.name, ttl_ms),
        role: Role::Hold,
        queue_type: QueueType::Classic,
        durable: true,
        arguments: topology::deferred_queue_args(&q.name, ttl_ms),
    }
}

// ---------------------------------------------------------------------------------------------
// Live state against computed state.
// ---------------------------------------------------------------------------------------------

/// The queue's definition as the management API shows it: what the plan compares.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct LiveDefinition {
    /// Integers come as JSON numbers, strings as strings, booleans as booleans.
    pub arguments: Map<String, Value>,
    pub durable: Option<bool>,
    pub auto_delete: Option<bool>,
    pub exclusive: Option<bool>,
    /// The API's `type` field (`classic`, `quorum`, `stream`).
    pub queue_type: Option<String>,
    pub policy: Option<String>,
    pub effective_policy_definition: Option<Value>,
}

impl LiveDefinition {
    /// The live queue type: the API's `type`, else the `x-queue-type` argument, else classic
    /// (a queue declared without `x-queue-type` is classic, and `x-queue-type=classic` is the
    /// same queue: RabbitMQ treats the two as equivalent).
    pub fn effective_type(&self) -> String {
        self.queue_type
            .clone()
            .or_else(|| {
                self.arguments
                    .get(topology::ARG_QUEUE_TYPE)
                    .and_then(|v| v.as_str().map(str::to_owned))
            })
            .unwrap_or_else(|| QueueType::Classic.as_str().to_owned())
    }
}

/// What the plan says about one queue.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum Status {
    /// The queue does not exist: `declare` creates it.
    Create,
    /// The queue exists with the computed definition.
    InSync,
    /// The queue exists with another definition: `declare` refuses to touch it.
    Drift,
}

impl Status {
    pub fn describe(self) -> &'static str {
        match self {
            Status::Create => "create",
            Status::InSync => "in sync",
            Status::Drift => "drift",
        }
    }
}

/// How a live value differs from the computed one.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum DiffKind {
    /// Both have a value, and they differ.
    Different,
    /// queuey computes a value the live queue does not have.
    Missing,
    /// The live queue has an argument queuey does not compute, and the broker enforces it
    /// (a redeclare without it fails, and it changes how the queue behaves).
    Extra,
    /// The AMQP fallback learnt that this argument differs, but the broker's reply was cut
    /// (255 bytes) before the live value.
    Unknown,
}

/// One differing argument or flag.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct Difference {
    /// An argument (`x-message-ttl`), a flag (`durable`, `auto_delete`, `exclusive`), or
    /// `type` (the queue type: classic, quorum, stream).
    pub field: String,
    pub kind: DiffKind,
    /// The broker's value; `null` when the live queue has none (or it is unknown).
    pub live: Option<Value>,
    /// queuey's value; `null` when queuey computes none.
    pub computed: Option<Value>,
}

/// Where a plan's live state came from.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum Source {
    /// The management API: the whole definition was compared.
    ManagementApi,
    /// AMQP only: a passive declare, then an equivalence probe. A drift names only the first
    /// differing argument the broker reported.
    AmqpProbe,
}

/// The plan for one of the long-lived queues (`q`, `q.dead`).
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct QueuePlan {
    pub name: String,
    pub role: Role,
    /// The computed queue type.
    pub queue_type: &'static str,
    pub status: Status,
    pub differences: Vec<Difference>,
    /// Live arguments the broker ignores for this queue type (another client's extras): shown,
    /// never drift.
    pub ignored_arguments: Map<String, Value>,
    /// The policy applied to the queue, if any: it changes the effective behaviour without
    /// changing the declared arguments, so it is shown (never drift).
    pub policy: Option<String>,
    pub effective_policy_definition: Option<Value>,
    pub source: Source,
    /// True when only the first differing argument is known (AMQP fallback).
    pub first_difference_only: bool,
    /// The computed arguments (what `declare` sends).
    pub computed_arguments: Map<String, Value>,
}

/// The arguments RabbitMQ compares on a redeclare, per queue type (seen on 3.10.8: each type
/// accepts its own set and compares every argument it accepts; any other `x-` argument is
/// ignored on a classic or quorum queue, and refused when creating one of a type that does not
/// know it). For a type queuey does not know (a stream), every argument counts.
pub fn enforced_argument(name: &str, queue_type: &str) -> bool {
    const CLASSIC: &[&str] = &[
        "x-expires",
        "x-message-ttl",
        "x-dead-letter-exchange",
        "x-dead-letter-routing-key",
        "x-max-length",
        "x-max-length-bytes",
        "x-max-priority",
        "x-overflow",
        "x-queue-mode",
        "x-single-active-consumer",
        "x-queue-master-locator",
        "x-queue-version",
        "x-queue-type",
    ];
    const QUORUM: &[&str] = &[
        "x-expires",
        "x-message-ttl",
        "x-dead-letter-exchange",
        "x-dead-letter-routing-key",
        "x-dead-letter-strategy",
        "x-max-length",
        "x-max-length-bytes",
        "x-max-in-memory-length",
        "x-max-in-memory-bytes",
        "x-overflow",
        "x-single-active-consumer",
        "x-delivery-limit",
        "x-quorum-initial-group-size",
        "x-queue-leader-locator",
        "x-queue-type",
    ];
    match queue_type {
        "classic" => CLASSIC.contains(&name),
        "quorum" => QUORUM.contains(&name),
        _ => true,
    }
}

/// Whether a live JSON value is the computed argument. Integers compare by value whatever
/// their width or JSON spelling (`5000`, `5000.0`), as the broker compares them; a string never
/// equals an integer (the broker refuses that redeclare).
pub fn same_value(live: &Value, computed: &ArgValue) -> bool {
    match (live, computed) {
        (Value::Number(n), ArgValue::Int(c)) => {
            if let Some(i) = n.as_i64() {
                i == *c
            } else if let Some(u) = n.as_u64() {
                i64::try_from(u).is_ok_and(|u| u == *c)
            } else {
                // A float: equal only when it is a whole number that is exactly `c`.
                n.as_f64()
                    .is_some_and(|f| f.fract() == 0.0 && f == *c as f64 && (*c as f64) as i64 == *c)
            }
        }
        (Value::String(s), ArgValue::Str(c)) => s == c,
        _ => false,
    }
}

/// An argument value as JSON.
pub fn arg_json(value: &ArgValue) -> Value {
    match value {
        ArgValue::Int(n) => Value::from(*n),
        ArgValue::Str(s) => Value::from(s.clone()),
    }
}

/// Arguments as a JSON object.
pub fn args_json(args: &QueueArgs) -> Map<String, Value> {
    args.iter().map(|(k, v)| (k.clone(), arg_json(v))).collect()
}

fn policy_info(live: &LiveDefinition) -> (Option<String>, Option<Value>) {
    let policy = live.policy.clone().filter(|p| !p.is_empty());
    let definition = live
        .effective_policy_definition
        .clone()
        .filter(|d| match d {
            Value::Null => false,
            Value::Object(m) => !m.is_empty(),
            Value::Array(a) => !a.is_empty(),
            _ => true,
        });
    (policy, definition)
}

/// The differences between a live queue and its computed definition, and the arguments the
/// broker ignores. Flags first (`durable`, `auto_delete`, `exclusive`, `type`), then arguments
/// by name.
pub fn compare(
    computed: &ComputedQueue,
    live: &LiveDefinition,
) -> (Vec<Difference>, Map<String, Value>) {
    let mut differences = Vec::new();
    let flag = |field: &str, live: Option<bool>, computed: bool| {
        live.filter(|l| *l != computed).map(|l| Difference {
            field: field.to_owned(),
            kind: DiffKind::Different,
            live: Some(Value::Bool(l)),
            computed: Some(Value::Bool(computed)),
        })
    };
    differences.extend(flag("durable", live.durable, computed.durable));
    differences.extend(flag("auto_delete", live.auto_delete, false));
    differences.extend(flag("exclusive", live.exclusive, false));
    let live_type = live.effective_type();
    if live_type != computed.queue_type.as_str() {
        differences.push(Difference {
            field: "type".to_owned(),
            kind: DiffKind::Different,
            live: Some(Value::from(live_type.clone())),
            computed: Some(Value::from(computed.queue_type.as_str())),
        });
    }

    let mut ignored = Map::new();
    let mut names: Vec<&String> = live
        .arguments
        .keys()
        .chain(computed.arguments.keys())
        .collect();
    names.sort();
    names.dedup();
    for name in names {
        // The queue type is compared above, as `type`.
        if name == topology::ARG_QUEUE_TYPE {
            continue;
        }
        match (live.arguments.get(name), computed.arguments.get(name)) {
            (Some(l), Some(c)) if same_value(l, c) => {}
            (Some(l), Some(c)) => differences.push(Difference {
                field: name.clone(),
                kind: DiffKind::Different,
                live: Some(l.clone()),
                computed: Some(arg_json(c)),
            }),
            (None, Some(c)) => differences.push(Difference {
                field: name.clone(),
                kind: DiffKind::Missing,
                live: None,
                computed: Some(arg_json(c)),
            }),
            (Some(l), None) if enforced_argument(name, &live_type) => {
                differences.push(Difference {
                    field: name.clone(),
                    kind: DiffKind::Extra,
                    live: Some(l.clone()),
                    computed: None,
                })
            }
            (Some(l), None) => {
                ignored.insert(name.clone(), l.clone());
            }
            (None, None) => {}
        }
    }
    (differences, ignored)
}

/// The plan for a long-lived queue from its live definition (`None`: it does not exist).
pub fn diff_queue(computed: &ComputedQueue, live: Option<&LiveDefinition>) -> QueuePlan {
    let mut plan = QueuePlan {
        name: computed.name.clone(),
        role: computed.role,
        queue_type: computed.queue_type.as_str(),
        status: Status::Create,
        differences: Vec::new(),
        ignored_arguments: Map::new(),
        policy: None,
        effective_policy_definition: None,
        source: Source::ManagementApi,
        first_difference_only: false,
        computed_arguments: args_json(&computed.arguments),
    };
    if let Some(live) = live {
        let (differences, ignored) = compare(computed, live);
        let (policy, definition) = policy_info(live);
        plan.status = if differences.is_empty() {
            Status::InSync
        } else {
            Status::Drift
        };
        plan.differences = differences;
        plan.ignored_arguments = ignored;
        plan.policy = policy;
        plan.effective_policy_definition = definition;
    }
    plan
}

// ---------------------------------------------------------------------------------------------
// The AMQP fallback: a passive declare, then an equivalence probe.
// ---------------------------------------------------------------------------------------------

/// What the AMQP fallback learnt about one queue.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum ProbeOutcome {
    /// The passive declare said the queue does not exist (no probe was made).
    Missing,
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
        },
        "auto_delete" => Difference {
            field: field.to_owned(),
            kind: DiffKind::Different,
            live: reply_json(&found.current).or(Some(Value::Bool(true))),
            computed: Some(Value::Bool(false)),
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
        },
        _ => Difference {
            field: field.to_owned(),
            kind,
            live: reply_json(&found.current),
            computed: computed.arguments.get(field).map(arg_json),
        },
    }
}

/// The plan for a long-lived queue from the AMQP fallback.
pub fn plan_from_probe(computed: &ComputedQueue, outcome: &ProbeOutcome, vhost: &str) -> QueuePlan {
    let mut plan = diff_queue(computed, None);
    plan.source = Source::AmqpProbe;
    match outcome {
        ProbeOutcome::Missing => {}
        ProbeOutcome::Equivalent => plan.status = Status::InSync,
        ProbeOutcome::Locked(_) => {
            plan.status = Status::Drift;
            plan.first_difference_only = true;
            plan.differences.push(Difference {
                field: "exclusive".to_owned(),
                kind: DiffKind::Different,
                live: Some(Value::Bool(true)),
                computed: Some(Value::Bool(false)),
            });
        }
        ProbeOutcome::Inequivalent(text) => {
            plan.status = Status::Drift;
            plan.first_difference_only = true;
            let difference = match parse_inequivalent(text, &computed.name, vhost) {
                Some(found) => probe_difference(computed, &found),
                // A 406 that is not an "inequivalent arg" reply (e.g. "invalid arg"): say so.
                None => Difference {
                    field: "(unknown)".to_owned(),
                    kind: DiffKind::Unknown,
                    live: Some(Value::from(text.clone())),
                    computed: None,
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

/// The check of one live hold queue of `q` (or of a name that carries the deferred infix but
/// no valid TTL).
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct HoldPlan {
    pub name: String,
    /// The TTL in the name; `null` for a bad name.
    pub ttl_ms: Option<u32>,
    /// `in_sync` or `drift` (a hold queue is never created by queuey).
    pub status: Status,
    pub differences: Vec<Difference>,
    pub ignored_arguments: Map<String, Value>,
    /// `null` when the broker has not reported it yet (stats lag a few seconds).
    pub consumers: Option<u64>,
    /// Why the queue is drift, in words (bad name, consumers, arguments).
    pub problems: Vec<String>,
    pub policy: Option<String>,
    pub effective_policy_definition: Option<Value>,
}

/// Checks a live queue whose name starts with `q` + deferred suffix. `None` when the name is
/// not a hold queue of `q` at all (another queue sharing the prefix, a different case).
///
/// Drift when its arguments differ from `deferred_queue_args` of the TTL in its own name, when
/// it has consumers (someone is eating the delays: messages would go to that consumer instead
/// of waiting and coming back to `q`), or when its name carries the infix but no valid TTL.
pub fn check_hold_queue(
    q: &QueueSettings,
    name: &str,
    live: &LiveDefinition,
    consumers: Option<u64>,
) -> Option<HoldPlan> {
    let parsed = topology::parse_deferred_queue_name(&q.name, name, &q.options);
    let (policy, effective_policy_definition) = policy_info(live);
    let mut plan = HoldPlan {
        name: name.to_owned(),
        ttl_ms: None,
        status: Status::InSync,
        differences: Vec::new(),
        ignored_arguments: Map::new(),
        consumers,
        problems: Vec::new(),
        policy,
        effective_policy_definition,
    };
    match parsed {
        Ok(None) => return None,
        Err(()) => {
            plan.problems.push(format!(
                "not a hold queue (bad name): {:?} follows {:?} but is not a TTL in whole \
                 milliseconds from 1 to {} without leading zeros; no hold queue of {:?} has this \
                 name, so nothing computes its arguments",
                name.get(q.name.len() + q.options.deferred_suffix.len()..)
                    .unwrap_or_default(),
                q.options.deferred_suffix,
                topology::MAX_DEFERRAL_MS,
                q.name,
            ));
        }
        Ok(Some(ttl)) => {
            plan.ttl_ms = Some(ttl);
            let computed = hold_queue(q, ttl);
            let (differences, ignored) = compare(&computed, live);
            if !differences.is_empty() {
                plan.problems.push(format!(
                    "its arguments differ from those of a {} hold queue",
                    format_millis(ttl)
                ));
            }
            plan.differences = differences;
            plan.ignored_arguments = ignored;
        }
    }
    if let Some(n) = consumers.filter(|n| *n > 0) {
        plan.problems.push(format!(
            "{n} consumer{} attached: a hold queue must have none (a consumer takes the \
             messages that should wait there and come back to {:?} when their TTL ends)",
            if n == 1 { "" } else { "s" },
            q.name
        ));
    }
    if !plan.problems.is_empty() {
        plan.status = Status::Drift;
    }
    Some(plan)
}

// ---------------------------------------------------------------------------------------------
// What an operator can do about drift.
// ---------------------------------------------------------------------------------------------

/// The policy key that sets the same thing as argument `arg`, when there is one.
pub fn policy_key(arg: &str) -> Option<&'static str> {
    Some(match arg {
        "x-message-ttl" => "message-ttl",
        "x-expires" => "expires",
        "x-max-length" => "max-length",
        "x-max-length-bytes" => "max-length-bytes",
        "x-overflow" => "overflow",
        "x-dead-letter-exchange" => "dead-letter-exchange",
        "x-dead-letter-routing-key" => "dead-letter-routing-key",
        "x-delivery-limit" => "delivery-limit",
        "x-queue-mode" => "queue-mode",
        "x-dead-letter-strategy" => "dead-letter-strategy",
        _ => return None,
    })
}

/// Whether a policy setting `key` to the computed value would change the queue's effective
/// behaviour (checked on 3.10.8: for TTLs and length limits the lower of argument and policy
/// wins; for dead-lettering and the other keys the queue's own argument wins over a policy).
fn policy_effect(key: &str, d: &Difference) -> Result<(), String> {
    const LOWER_WINS: &[&str] = &[
        "message-ttl",
        "expires",
        "max-length",
        "max-length-bytes",
        "delivery-limit",
    ];
    match d.kind {
        DiffKind::Missing => Ok(()),
        DiffKind::Extra => Err("a policy cannot remove an argument the queue declares".to_owned()),
        DiffKind::Unknown => Err("the live value is not known".to_owned()),
        DiffKind::Different if LOWER_WINS.contains(&key) => {
            let live = d.live.as_ref().and_then(Value::as_i64);
            let computed = d.computed.as_ref().and_then(Value::as_i64);
            match (live, computed) {
                (Some(l), Some(c)) if c < l => Ok(()),
                (Some(l), Some(c)) => Err(format!(
                    "the queue declares {l}, and between an argument and a policy the lower \
                     value wins, so a policy of {c} would change nothing"
                )),
                _ => Err("the values are not comparable numbers".to_owned()),
            }
        }
        DiffKind::Different => {
            Err("the queue's own argument wins over a policy for this key".to_owned())
        }
    }
}

/// The operator's options when `declare` refuses to act over drift, for the drifting queues.
pub fn remedies(plans: &[&QueuePlan]) -> Vec<String> {
    // A queue exclusive to another client's connection is not a definition to reconcile: no
    // setting of queuey declares an exclusive queue, and the queue ends with its connection.
    let (locked, drifting): (Vec<&&QueuePlan>, Vec<&&QueuePlan>) = plans
        .iter()
        .filter(|p| p.status == Status::Drift)
        .partition(|p| {
            p.differences
                .iter()
                .any(|d| d.field == "exclusive" && d.live == Some(Value::Bool(true)))
        });
    let mut out = Vec::new();
    if !locked.is_empty() {
        let names: Vec<String> = locked.iter().map(|p| format!("\"{}\"", p.name)).collect();
        out.push(format!(
            "{} {} exclusive to another client's connection: no queuey setting matches an \
             exclusive queue, and it is deleted when that connection closes. Find the owner \
             (rabbitmqctl list_queues name exclusive owner_pid, or the queue's page in the \
             management UI), stop the client that declares this name as an exclusive queue, \
             then run queuey declare again",
            names.join(" and "),
            if names.len() == 1 { "is" } else { "are" }
        ));
    }
    if drifting.is_empty() {
        return out;
    }
    let differences: Vec<(&str, &Difference)> = drifting
        .iter()
        .flat_map(|p| p.differences.iter().map(|d| (p.name.as_str(), d)))
        .collect();
    out.push(
        "if the live queue is what you want, change the settings (queuey.toml or the flags) to \
         match it; the applications declare with the same settings"
            .to_owned(),
    );
    let mut effective: Vec<(&str, &str, &Difference)> = Vec::new();
    let mut useless: Vec<String> = Vec::new();
    for (queue, d) in &differences {
        let Some(key) = policy_key(&d.field) else {
            continue;
        };
        match policy_effect(key, d) {
            Ok(()) => effective.push((queue, key, d)),
            Err(why) => useless.push(format!("{} of \"{queue}\": {why}", d.field)),
        }
    }
    if let Some((queue, _, _)) = effective.first() {
        let definition: Vec<String> = effective
            .iter()
            .filter(|(q, _, _)| q == queue)
            .map(|(_, key, d)| {
                let value = d
                    .computed
                    .as_ref()
                    .map_or("<value>".to_owned(), Value::to_string);
                format!("\"{key}\": {value}")
            })
            .collect();
        out.push(format!(
            "a policy can give the live queue the computed value without recreating it: keep \
             its declared arguments (set queuey.toml to the live values, so the applications' \
             declarations keep matching) and apply e.g. rabbitmqctl set_policy --apply-to \
             queues queuey-{queue} '^{}$' '{{{}}}'",
            policy_regex(queue),
            definition.join(", "),
        ));
    }
    if !useless.is_empty() {
        out.push(format!("a policy cannot fix {}", useless.join("; ")));
    }
    let names: Vec<String> = drifting.iter().map(|p| format!("\"{}\"", p.name)).collect();
    out.push(format!(
        "otherwise recreate {}: stop the publishers, drain it (let the consumers finish it, or \
         move its messages elsewhere), delete it (rabbitmqctl delete_queue <name>; deleting a \
         queue loses every message still in it), then run queuey declare again",
        names.join(" and ")
    ));
    if differences.iter().any(|(_, d)| d.field == "type") {
        out.push(
            "a change between classic and quorum always needs a new queue: a queue's type \
             never changes in place"
                .to_owned(),
        );
    }
    out
}

/// `name` as an anchored policy pattern body: regex metacharacters escaped.
fn policy_regex(name: &str) -> String {
    let mut out = String::with_capacity(name.len() * 2);
    for c in name.chars() {
        if ".^$*+?()[]{}|\\".contains(c) {
            out.push('\\');
        }
        out.push(c);
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::settings::resolve_queue;
    use serde_json::json;

    /// A queue without priorities (`--max-priority 0`): the diffs below are about one argument
    /// at a time.
    fn settings(name: &str) -> QueueSettings {
        let flags = crate::cli::QueueSettingsArgs {
            max_priority: Some(0),
            ..Default::default()
        };
        resolve_queue(name, &flags, None).unwrap()
    }

    #[test]
    fn the_default_work_queue_is_the_librarys_ten_level_priority_queue() {
        let q = resolve_queue("orders", &crate::cli::QueueSettingsArgs::default(), None).unwrap();
        let [work, dead] = long_lived_queues(&q);
        let plan = diff_queue(&work, Some(&live(json!({"x-max-priority": 10}))));
        assert_eq!(plan.status, Status::InSync);
        let plan = diff_queue(&work, Some(&live(json!({}))));
        assert_eq!(fields(&plan), [("x-max-priority", DiffKind::Missing)]);
        assert_eq!(
            diff_queue(&dead, Some(&live(json!({})))).status,
            Status::InSync
        );
    }

    fn with_ttl(name: &str, ttl_ms: u64) -> QueueSettings {
        let mut q = settings(name);
        q.config.message_ttl = Some(std::time::Duration::from_millis(ttl_ms));
        q
    }

    fn quorum(name: &str) -> QueueSettings {
        let mut q = settings(name);
        q.config.queue_type = QueueType::Quorum;
        q.config.delivery_limit = Some(5);
        q
    }

    fn live(args: Value) -> LiveDefinition {
        LiveDefinition {
            arguments: args.as_object().cloned().unwrap_or_default(),
            durable: Some(true),
            auto_delete: Some(false),
            exclusive: Some(false),
            queue_type: Some("classic".into()),
            policy: None,
            effective_policy_definition: Some(json!({})),
        }
    }

    fn fields(plan: &QueuePlan) -> Vec<(&str, DiffKind)> {
        plan.differences
            .iter()
            .map(|d| (d.field.as_str(), d.kind))
            .collect()
    }

    #[test]
    fn missing_queue_is_create() {
        let [work, _] = long_lived_queues(&settings("orders"));
        let plan = diff_queue(&work, None);
        assert_eq!(plan.status, Status::Create);
        assert!(plan.differences.is_empty());
    }

    #[test]
    fn same_definition_is_in_sync_whatever_the_number_spelling() {
        let [work, dead] = long_lived_queues(&with_ttl("orders", 5000));
        for ttl in [json!(5000), json!(5000u64), json!(5000.0)] {
            let plan = diff_queue(&work, Some(&live(json!({"x-message-ttl": ttl}))));
            assert_eq!(plan.status, Status::InSync, "{ttl}");
        }
        assert_eq!(
            diff_queue(&dead, Some(&live(json!({})))).status,
            Status::InSync
        );
    }

    #[test]
    fn explicit_classic_type_is_no_type() {
        let [work, _] = long_lived_queues(&settings("orders"));
        let mut l = live(json!({"x-queue-type": "classic"}));
        assert_eq!(diff_queue(&work, Some(&l)).status, Status::InSync);
        l.queue_type = None;
        assert_eq!(diff_queue(&work, Some(&l)).status, Status::InSync);
    }

    #[test]
    fn a_different_or_missing_value_is_drift() {
        let [work, _] = long_lived_queues(&with_ttl("orders", 6000));
        let plan = diff_queue(&work, Some(&live(json!({"x-message-ttl": 5000}))));
        assert_eq!(plan.status, Status::Drift);
        assert_eq!(
            plan.differences,
            vec![Difference {
                field: "x-message-ttl".into(),
                kind: DiffKind::Different,
                live: Some(json!(5000)),
                computed: Some(json!(6000)),
            }]
        );
        let plan = diff_queue(&work, Some(&live(json!({}))));
        assert_eq!(fields(&plan), [("x-message-ttl", DiffKind::Missing)]);
        // A string is not the integer, whatever it reads (the broker refuses that redeclare).
        let plan = diff_queue(&work, Some(&live(json!({"x-message-ttl": "6000"}))));
        assert_eq!(fields(&plan), [("x-message-ttl", DiffKind::Different)]);
    }

    #[test]
    fn extra_arguments_the_broker_enforces_are_drift_the_others_are_shown() {
        let [work, dead] = long_lived_queues(&settings("orders"));
        let plan = diff_queue(
            &work,
            Some(&live(json!({
                "x-max-length": 10,
                "x-overflow": "reject-publish",
                "x-max-priority": 3,
                "x-research-foo": 1,
                "x-delivery-limit": 3,
            }))),
        );
        assert_eq!(
            fields(&plan),
            [
                ("x-max-length", DiffKind::Extra),
                ("x-max-priority", DiffKind::Extra),
                ("x-overflow", DiffKind::Extra),
            ]
        );
        // x-delivery-limit means nothing to a classic queue (3.10 refuses it on creation; a
        // queue carrying it was made elsewhere): ignored, like unknown arguments.
        assert_eq!(
            plan.ignored_arguments,
            json!({"x-research-foo": 1, "x-delivery-limit": 3})
                .as_object()
                .cloned()
                .unwrap()
        );
        // q.dead must never dead-letter anywhere (seed 003).
        let plan = diff_queue(
            &dead,
            Some(&live(
                json!({"x-dead-letter-exchange": "", "x-dead-letter-routing-key": "orders"}),
            )),
        );
        assert_eq!(
            fields(&plan),
            [
                ("x-dead-letter-exchange", DiffKind::Extra),
                ("x-dead-letter-routing-key", DiffKind::Extra),
            ]
        );
    }

    #[test]
    fn flags_and_type_are_compared() {
        let [work, _] = long_lived_queues(&settings("orders"));
        let mut l = live(json!({}));
        l.durable = Some(false);
        l.auto_delete = Some(true);
        l.exclusive = Some(true);
        let plan = diff_queue(&work, Some(&l));
        assert_eq!(
            fields(&plan),
            [
                ("durable", DiffKind::Different),
                ("auto_delete", DiffKind::Different),
                ("exclusive", DiffKind::Different),
            ]
        );
        let l = LiveDefinition {
            queue_type: Some("quorum".into()),
            ..live(json!({"x-queue-type": "quorum"}))
        };
        let plan = diff_queue(&work, Some(&l));
        assert_eq!(fields(&plan), [("type", DiffKind::Different)]);
        assert_eq!(plan.differences[0].live, Some(json!("quorum")));
        assert_eq!(plan.differences[0].computed, Some(json!("classic")));
    }

    #[test]
    fn quorum_queue_in_sync_and_its_extras() {
        let [work, _] = long_lived_queues(&quorum("jobs"));
        let args = json!({
            "x-queue-type": "quorum",
            "x-delivery-limit": 5,
            "x-dead-letter-exchange": "",
            "x-dead-letter-routing-key": "jobs.dead",
        });
        let l = LiveDefinition {
            queue_type: Some("quorum".into()),
            ..live(args.clone())
        };
        assert_eq!(diff_queue(&work, Some(&l)).status, Status::InSync);
        let mut with_extra = l.clone();
        with_extra
            .arguments
            .insert("x-max-in-memory-length".into(), json!(10));
        with_extra
            .arguments
            .insert("x-queue-mode".into(), json!("lazy"));
        let plan = diff_queue(&work, Some(&with_extra));
        assert_eq!(fields(&plan), [("x-max-in-memory-length", DiffKind::Extra)]);
        assert!(plan.ignored_arguments.contains_key("x-queue-mode"));
    }

    #[test]
    fn a_policy_is_information_not_drift() {
        let [work, _] = long_lived_queues(&settings("orders"));
        let l = LiveDefinition {
            policy: Some("ttl-all".into()),
            effective_policy_definition: Some(json!({"message-ttl": 1000})),
            ..live(json!({}))
        };
        let plan = diff_queue(&work, Some(&l));
        assert_eq!(plan.status, Status::InSync);
        assert_eq!(plan.policy.as_deref(), Some("ttl-all"));
        assert_eq!(
            plan.effective_policy_definition,
            Some(json!({"message-ttl": 1000}))
        );
        // No policy: `{}` (3.10) and `[]` (an empty Erlang list) are none.
        for empty in [json!({}), json!([]), Value::Null] {
            let l = LiveDefinition {
                policy: Some(String::new()),
                effective_policy_definition: Some(empty),
                ..live(json!({}))
            };
            let plan = diff_queue(&work, Some(&l));
            assert_eq!(
                (plan.policy, plan.effective_policy_definition),
                (None, None)
            );
        }
    }

    fn value(text: &str) -> ReplyValue {
        ReplyValue::Value {
            text: text.into(),
            type_name: None,
        }
    }

    fn typed(text: &str, t: &str) -> ReplyValue {
        ReplyValue::Value {
            text: text.into(),
            type_name: Some(t.into()),
        }
    }

    #[test]
    fn parses_the_three_inequivalent_forms() {
        let parse = |t: &str| parse_inequivalent(t, "q", "/").unwrap();
        let p = parse(
            "PRECONDITION_FAILED - inequivalent arg 'x-message-ttl' for queue 'q' in vhost '/': \
             received '6000' but current is '5000'",
        );
        assert_eq!(p.argument, "x-message-ttl");
        assert_eq!((p.received, p.current), (value("6000"), value("5000")));
        let p = parse(
            "PRECONDITION_FAILED - inequivalent arg 'x-message-ttl' for queue 'q' in vhost '/': \
             received none but current is the value '5000' of type 'long'",
        );
        assert_eq!(
            (p.received, p.current),
            (ReplyValue::Absent, typed("5000", "long"))
        );
        let p = parse(
            "PRECONDITION_FAILED - inequivalent arg 'x-dead-letter-exchange' for queue 'q' in \
             vhost '/': received the value 'foo' of type 'longstr' but current is none",
        );
        assert_eq!(
            (p.received, p.current),
            (typed("foo", "longstr"), ReplyValue::Absent)
        );
        let p = parse(
            "PRECONDITION_FAILED - inequivalent arg 'durable' for queue 'q' in vhost '/': \
             received 'false' but current is 'true'",
        );
        assert_eq!(p.argument, "durable");
        assert_eq!(p.current, value("true"));
        assert_eq!(
            parse_inequivalent("NOT_FOUND - no queue 'q' in vhost '/'", "q", "/"),
            None
        );
    }

    #[test]
    fn names_and_values_with_quotes_do_not_confuse_the_parser() {
        let queue = "it's: received 'x' but current is 'y'";
        let text = format!(
            "PRECONDITION_FAILED - inequivalent arg 'x-dead-letter-routing-key' for queue \
             '{queue}' in vhost 'v\\'s': received 'a' but current is 'b' but current is 'c'"
        );
        let p = parse_inequivalent(&text, queue, "v\\'s").unwrap();
        assert_eq!(p.received, value("a"));
        assert_eq!(p.current, value("b' but current is 'c"));
    }

    #[test]
    fn a_reply_cut_at_255_bytes_keeps_what_it_can() {
        let long = "é".repeat(110);
        let full = format!(
            "PRECONDITION_FAILED - inequivalent arg 'x-message-ttl' for queue '{long}' in \
             vhost '/': received '6000' but current is '5000'"
        );
        let mut cut = full.clone();
        let mut at = 252;
        while !cut.is_char_boundary(at) {
            at -= 1;
        }
        cut.truncate(at);
        cut.push_str("...");
        let p = parse_inequivalent(&cut, &long, "/").unwrap();
        assert_eq!(p.argument, "x-message-ttl");
        assert_eq!((p.received, p.current), (ReplyValue::Cut, ReplyValue::Cut));
        // Cut inside the current value.
        let cut = "PRECONDITION_FAILED - inequivalent arg 'x-message-ttl' for queue 'q' in vhost \
                   '/': received '6000' but current is '50...";
        let p = parse_inequivalent(cut, "q", "/").unwrap();
        assert_eq!((p.received, p.current), (value("6000"), ReplyValue::Cut));
        // Cut inside the argument name itself.
        let p = parse_inequivalent(
            "PRECONDITION_FAILED - inequivalent arg 'x-mess...",
            "q",
            "/",
        )
        .unwrap();
        assert_eq!(p.argument, "x-mess");
    }

    #[test]
    fn probe_outcomes_become_plans() {
        let [work, _] = long_lived_queues(&with_ttl("orders", 6000));
        let p = plan_from_probe(&work, &ProbeOutcome::Missing, "/");
        assert_eq!(p.status, Status::Create);
        let p = plan_from_probe(&work, &ProbeOutcome::Equivalent, "/");
        assert_eq!((p.status, p.source), (Status::InSync, Source::AmqpProbe));
        let text = "PRECONDITION_FAILED - inequivalent arg 'x-message-ttl' for queue 'orders' in \
                    vhost '/': received '6000' but current is '5000'";
        let p = plan_from_probe(&work, &ProbeOutcome::Inequivalent(text.into()), "/");
        assert!(p.first_difference_only);
        assert_eq!(
            p.differences,
            vec![Difference {
                field: "x-message-ttl".into(),
                kind: DiffKind::Different,
                live: Some(json!(5000)),
                computed: Some(json!(6000)),
            }]
        );
        let text = "PRECONDITION_FAILED - inequivalent arg 'x-queue-type' for queue 'orders' in \
                    vhost '/': received none but current is the value 'quorum' of type 'longstr'";
        let p = plan_from_probe(&work, &ProbeOutcome::Inequivalent(text.into()), "/");
        assert_eq!(
            (p.differences[0].field.as_str(), &p.differences[0].live),
            ("type", &Some(json!("quorum")))
        );
        let text = "PRECONDITION_FAILED - inequivalent arg 'x-max-priority' for queue 'orders' \
                    in vhost '/': received none but current is the value '5' of type 'signedint'";
        let p = plan_from_probe(&work, &ProbeOutcome::Inequivalent(text.into()), "/");
        assert_eq!(p.differences[0].kind, DiffKind::Extra);
        assert_eq!(p.differences[0].live, Some(json!(5)));
        let p = plan_from_probe(&work, &ProbeOutcome::Locked("RESOURCE_LOCKED".into()), "/");
        assert_eq!(fields(&p), [("exclusive", DiffKind::Different)]);
    }

    #[test]
    fn hold_queues_are_checked_against_their_own_name() {
        let q = settings("orders");
        let good = |ttl: u32| {
            live(Value::Object(args_json(&topology::deferred_queue_args(
                "orders", ttl,
            ))))
        };
        let p = check_hold_queue(&q, "orders.deferred.1000", &good(1000), Some(0)).unwrap();
        assert_eq!((p.status, p.ttl_ms), (Status::InSync, Some(1000)));
        // Arguments of another TTL.
        let p = check_hold_queue(&q, "orders.deferred.1000", &good(2000), Some(0)).unwrap();
        assert_eq!(p.status, Status::Drift);
        assert_eq!(
            fields_hold(&p),
            [
                ("x-expires", DiffKind::Different),
                ("x-message-ttl", DiffKind::Different)
            ]
        );
        // A consumer eats the delays.
        let p = check_hold_queue(&q, "orders.deferred.1000", &good(1000), Some(2)).unwrap();
        assert_eq!(p.status, Status::Drift);
        assert!(p.problems[0].contains("2 consumers"), "{:?}", p.problems);
        // Unknown consumers (stats not reported yet) are not drift.
        let p = check_hold_queue(&q, "orders.deferred.1000", &good(1000), None).unwrap();
        assert_eq!(p.status, Status::InSync);
        // The infix without a TTL.
        let p = check_hold_queue(&q, "orders.deferred.abc", &live(json!({})), Some(0)).unwrap();
        assert_eq!((p.status, p.ttl_ms), (Status::Drift, None));
        assert!(p.problems[0].contains("bad name"), "{:?}", p.problems);
        // Not hold queues of "orders" at all.
        for other in [
            "orders2.deferred.1000",
            "ORDERS.deferred.1000",
            "orders.dead",
            "orders",
        ] {
            assert!(
                check_hold_queue(&q, other, &good(1000), Some(0)).is_none(),
                "{other}"
            );
        }
    }

    fn fields_hold(plan: &HoldPlan) -> Vec<(&str, DiffKind)> {
        plan.differences
            .iter()
            .map(|d| (d.field.as_str(), d.kind))
            .collect()
    }

    #[test]
    fn a_queue_exclusive_to_another_connection_gets_its_own_remedy() {
        let [work, dead] = long_lived_queues(&settings("orders"));
        let locked = plan_from_probe(&work, &ProbeOutcome::Locked("RESOURCE_LOCKED".into()), "/");
        let all = remedies(&[&locked]).join("\n");
        assert!(
            all.contains("\"orders\" is exclusive to another client's connection"),
            "{all}"
        );
        assert!(all.contains("owner_pid"), "{all}");
        assert!(
            !all.contains("delete_queue"),
            "deleting is not the fix: {all}"
        );
        // Through the API too, and beside another queue's ordinary drift.
        let mut l = live(json!({}));
        l.exclusive = Some(true);
        let locked = diff_queue(&work, Some(&l));
        let other = diff_queue(&dead, Some(&live(json!({"x-message-ttl": 5}))));
        let all = remedies(&[&locked, &other]).join("\n");
        assert!(all.contains("\"orders\" is exclusive"), "{all}");
        assert!(all.contains("otherwise recreate \"orders.dead\":"), "{all}");
    }

    #[test]
    fn remedies_name_the_policy_and_the_cost_of_deleting() {
        let [work, dead] = long_lived_queues(&with_ttl("orders.eu", 6000));
        let p = diff_queue(&work, Some(&live(json!({"x-message-ttl": 5000}))));
        let d = diff_queue(&dead, Some(&live(json!({}))));
        let r = remedies(&[&p, &d]);
        let all = r.join("\n");
        // 6000 above the live 5000: the lower wins, so a policy cannot raise it.
        assert!(!all.contains("set_policy"), "{all}");
        assert!(all.contains("the lower value wins"), "{all}");
        assert!(all.contains("loses every message"), "{all}");
        assert!(!all.contains("classic and quorum"), "{all}");
        assert!(remedies(&[&d]).is_empty());
        // 4000 below the live 5000, and a missing max priority (not policy-able).
        let [work, _] = long_lived_queues(&with_ttl("orders.eu", 4000));
        let p = diff_queue(&work, Some(&live(json!({"x-message-ttl": 5000}))));
        let all = remedies(&[&p]).join("\n");
        assert!(
            all.contains(r#"set_policy --apply-to queues queuey-orders.eu '^orders\.eu$' '{"message-ttl": 4000}'"#),
            "{all}"
        );
        // The queue's own dead-letter argument wins over a policy.
        let [_, dead] = long_lived_queues(&settings("x"));
        let p = diff_queue(&dead, Some(&live(json!({"x-dead-letter-exchange": "dlx"}))));
        let all = remedies(&[&p]).join("\n");
        assert!(all.contains("cannot remove an argument"), "{all}");
        let l = LiveDefinition {
            queue_type: Some("quorum".into()),
            ..live(json!({"x-message-ttl": 4000}))
        };
        let all = remedies(&[&diff_queue(&work, Some(&l))]).join("\n");
        assert!(all.contains("classic and quorum"), "{all}");
        assert!(!all.contains("set_policy"), "{all}");
    }
}
