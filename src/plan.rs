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
    /// The logical queue it belongs to (`q` for `q`, `q.dead` and `q`'s hold queues).
    pub logical: String,
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
            logical: q.name.clone(),
            role: Role::Work,
            queue_type: q.config.queue_type,
            durable: true,
            arguments: topology::queue_args(&q.name, &q.config, &q.options),
        },
        ComputedQueue {
            name: q.dead_queue(),
            logical: q.name.clone(),
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
        logical: q.name.clone(),
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
    /// The operator policy applied, if any (its keys are merged into the effective definition).
    pub operator_policy: Option<String>,
    pub effective_policy_definition: Option<Value>,
    /// The policies applied, with their definitions when they could be read (filled for
    /// `q.dead`, where a policy can destroy dead letters).
    pub applied_policies: Vec<AppliedPolicy>,
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
    /// The queue exists; its definition could not be read (no management API, and a
    /// read-only command never declares to probe it).
    Unchecked,
}

impl Status {
    pub fn describe(self) -> &'static str {
        match self {
            Status::Create => "create",
            Status::InSync => "in sync",
            Status::Drift => "drift",
            Status::Unchecked => "exists, not checked",
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
    /// A policy or operator policy gives the queue this key (`field` is the policy key, `live`
    /// its effective value); the queue's own definition may be as computed. Only for what
    /// destroys or moves dead letters on `q.dead`; other policies are information.
    Policy,
}

/// A policy that applies to a queue.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct PolicyRef {
    pub name: String,
    /// An operator policy (`rabbitmqctl set_operator_policy`), rather than a user policy.
    pub operator: bool,
}

/// A policy applied to a live queue, as the management API shows it.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct AppliedPolicy {
    pub name: String,
    pub operator: bool,
    /// Its pattern and definition, when the API let queuey read them (reading policies needs
    /// the policymaker or administrator tag).
    pub pattern: Option<String>,
    pub definition: Option<Map<String, Value>>,
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
    /// What it does, in words, where that is what matters: on `q.dead`, what happens to the
    /// dead letters (expire, dropped, sent back to `q`, ...). `null` otherwise.
    pub effect: Option<String>,
    /// The policies that set it (kind `policy`); empty for the queue's own arguments.
    pub policies: Vec<PolicyRef>,
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
    /// changing the declared arguments, so it is shown; on `q.dead`, the keys that destroy or
    /// move dead letters are drift (differences of kind `policy`).
    pub policy: Option<String>,
    /// The operator policy applied to the queue, if any; the same rule.
    pub operator_policy: Option<String>,
    pub effective_policy_definition: Option<Value>,
    /// The policies applied, with what could be read of them (for the remedies).
    #[serde(skip)]
    pub applied_policies: Vec<AppliedPolicy>,
    /// The live queue's type, when it exists and the source tells (for the remedies).
    #[serde(skip)]
    pub live_type: Option<String>,
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
            effect: None,
            policies: Vec::new(),
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
            effect: None,
            policies: Vec::new(),
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
                effect: None,
                policies: Vec::new(),
            }),
            (None, Some(c)) => differences.push(Difference {
                field: name.clone(),
                kind: DiffKind::Missing,
                live: None,
                computed: Some(arg_json(c)),
                effect: None,
                policies: Vec::new(),
            }),
            (Some(l), None) if enforced_argument(name, &live_type) => {
                differences.push(Difference {
                    field: name.clone(),
                    kind: DiffKind::Extra,
                    live: Some(l.clone()),
                    computed: None,
                    effect: None,
                    policies: Vec::new(),
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
        operator_policy: None,
        effective_policy_definition: None,
        applied_policies: Vec::new(),
        live_type: None,
        source: Source::ManagementApi,
        first_difference_only: false,
        computed_arguments: args_json(&computed.arguments),
    };
    if let Some(live) = live {
        let (mut differences, ignored) = compare(computed, live);
        let (policy, definition) = policy_info(live);
        if computed.role == Role::Dead {
            dead_letter_hazards(computed, live, &mut differences);
        }
        plan.status = if differences.is_empty() {
            Status::InSync
        } else {
            Status::Drift
        };
        plan.differences = differences;
        plan.ignored_arguments = ignored;
        plan.policy = policy;
        plan.operator_policy = live.operator_policy.clone().filter(|p| !p.is_empty());
        plan.effective_policy_definition = definition;
        plan.applied_policies = applied_policies(live);
        plan.live_type = Some(live.effective_type());
    }
    plan
}

// ---------------------------------------------------------------------------------------------
// A dead-letter queue that destroys its letters.
// ---------------------------------------------------------------------------------------------

/// The policy keys that make `q.dead` lose or move its dead letters: a TTL expires them, an
/// `expires` deletes the queue with them, a length limit drops the oldest (or refuses new
/// ones), a dead-letter exchange sends whatever leaves elsewhere (back to `q`: the loop seed 003
/// warns about), and on a quorum queue a delivery limit ends a letter after so many returns
/// (every peek returns). `dead-letter-routing-key` acts only with an exchange, and is told with
/// it.
pub const DEAD_LETTER_HAZARDS: [&str; 6] = [
    "message-ttl",
    "expires",
    "max-length",
    "max-length-bytes",
    "dead-letter-exchange",
    "delivery-limit",
];

/// The policies applied to a live queue: the names the API shows, with what was read of them.
pub fn applied_policies(live: &LiveDefinition) -> Vec<AppliedPolicy> {
    let mut out = Vec::new();
    for (name, operator) in [(&live.policy, false), (&live.operator_policy, true)] {
        let Some(name) = name.as_ref().filter(|n| !n.is_empty()) else {
            continue;
        };
        out.push(
            live.applied_policies
                .iter()
                .find(|a| &a.name == name && a.operator == operator)
                .cloned()
                .unwrap_or_else(|| AppliedPolicy {
                    name: name.clone(),
                    operator,
                    ..AppliedPolicy::default()
                }),
        );
    }
    out
}

/// The policies that set `key`: those whose definition has it, else (definitions unread)
/// every policy applied.
fn policies_setting(key: &str, applied: &[AppliedPolicy]) -> Vec<PolicyRef> {
    let known: Vec<&AppliedPolicy> = applied
        .iter()
        .filter(|a| a.definition.as_ref().is_some_and(|d| d.contains_key(key)))
        .collect();
    let chosen: Vec<&AppliedPolicy> = if known.is_empty() {
        applied.iter().filter(|a| a.definition.is_none()).collect()
    } else {
        known
    };
    chosen
        .into_iter()
        .map(|a| PolicyRef {
            name: a.name.clone(),
            operator: a.operator,
        })
        .collect()
}

/// What happens to the dead letters of a live `q.dead`, from its arguments and policies.
struct DeadLetterFate<'a> {
    logical: &'a str,
    dead: &'a str,
    /// The dead-letter exchange and routing key in force (an argument wins over a policy).
    exchange: Option<String>,
    routing_key: Option<String>,
    overflow: Option<String>,
}

impl DeadLetterFate<'_> {
    fn new<'a>(computed: &'a ComputedQueue, live: &LiveDefinition) -> DeadLetterFate<'a> {
        let text = |arg: &str, key: &str| -> Option<String> {
            live.arguments
                .get(arg)
                .or_else(|| {
                    live.effective_policy_definition
                        .as_ref()
                        .and_then(|d| d.get(key))
                })
                .and_then(|v| v.as_str().map(str::to_owned))
        };
        DeadLetterFate {
            logical: &computed.logical,
            dead: &computed.name,
            exchange: text("x-dead-letter-exchange", "dead-letter-exchange"),
            routing_key: text("x-dead-letter-routing-key", "dead-letter-routing-key"),
            overflow: text("x-overflow", "overflow"),
        }
    }

    /// Where a dead letter goes when it leaves `q.dead`.
    fn leaves(&self) -> String {
        let Some(exchange) = &self.exchange else {
            return "dropped: it is gone".to_owned();
        };
        match (exchange.as_str(), &self.routing_key) {
            ("", Some(rk)) if rk == self.logical => format!(
                "sent back to {:?}: its job runs again and dies again, round and round (the loop \
                 seed 003 warns about)",
                self.logical
            ),
            ("", Some(rk)) => format!("sent to the queue {rk:?}, out of {:?}", self.dead),
            (ex, Some(rk)) => format!("sent to exchange {ex:?} with routing key {rk:?}"),
            (ex, None) => format!("sent to exchange {ex:?} with its own routing key"),
        }
    }

    /// In words, what `key` (a policy key, or the argument `x-` + key) set to `value` does to
    /// the dead letters; `None` when it does nothing to them by itself.
    fn effect(&self, key: &str, value: &Value) -> Option<String> {
        let key = key.strip_prefix("x-").unwrap_or(key);
        let number = value.as_u64();
        let millis = |n: Option<u64>| n.map_or_else(|| value.to_string(), format_millis);
        let refuse = matches!(
            self.overflow.as_deref(),
            Some("reject-publish" | "reject-publish-dlx")
        );
        let limit = |what: String| {
            if refuse {
                format!(
                    "once {:?} holds {what}, new dead letters are refused: the application's \
                     dead-lettering fails",
                    self.dead
                )
            } else {
                format!(
                    "beyond {what}, the oldest dead letters are pushed out of {:?} and {}",
                    self.dead,
                    self.leaves()
                )
            }
        };
        Some(match key {
            "message-ttl" => format!(
                "every dead letter expires {} after it reaches {:?} and is {}",
                millis(number),
                self.dead,
                self.leaves()
            ),
            "expires" => format!(
                "{:?} itself is deleted, with every dead letter in it, once unused for {} (no \
                 consumer, no basic.get, no redeclare)",
                self.dead,
                millis(number)
            ),
            "max-length" => limit(format!("{value} messages")),
            "max-length-bytes" => limit(format!("{value} bytes")),
            "dead-letter-exchange" => format!(
                "a dead letter that expires, overflows or is rejected leaves {:?} and is {}",
                self.dead,
                self.leaves()
            ),
            "dead-letter-routing-key" if self.exchange.is_some() => format!(
                "with the dead-letter exchange: a dead letter that leaves {:?} is {}",
                self.dead,
                self.leaves()
            ),
            "delivery-limit" => format!(
                "every return of a delivery counts (each peek, a failed replay, a consumer's \
                 nack): after {value}, a dead letter is {}",
                self.leaves()
            ),
            _ => return None,
        })
    }
}

/// On a live `q.dead`: names what each argument another client declared does to the dead
/// letters, and adds a difference (kind `policy`) for each policy key that destroys or moves
/// them (seed 003: `q.dead` must never dead-letter anywhere, and must keep its letters).
pub fn dead_letter_hazards(
    computed: &ComputedQueue,
    live: &LiveDefinition,
    differences: &mut Vec<Difference>,
) {
    let fate = DeadLetterFate::new(computed, live);
    let quorum = live.effective_type() == QueueType::Quorum.as_str();
    for d in differences.iter_mut() {
        if d.kind == DiffKind::Extra
            && let Some(value) = &d.live
            && (d.field != "x-delivery-limit" || quorum)
        {
            d.effect = fate.effect(&d.field, value);
        }
    }
    let Some(Value::Object(definition)) = &live.effective_policy_definition else {
        return;
    };
    let applied = applied_policies(live);
    for key in DEAD_LETTER_HAZARDS {
        let Some(value) = definition.get(key) else {
            continue;
        };
        if key == "delivery-limit" && !quorum {
            continue; // a classic queue has no delivery limit
        }
        differences.push(Difference {
            field: key.to_owned(),
            kind: DiffKind::Policy,
            live: Some(value.clone()),
            computed: None,
            effect: fate.effect(key, value),
            policies: policies_setting(key, &applied),
        });
    }
}

// ---------------------------------------------------------------------------------------------
// The AMQP fallback: a passive declare, then an equivalence probe.
// ---------------------------------------------------------------------------------------------

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
            let difference = match parse_inequivalent(text, &computed.name, vhost) {
                Some(found) => probe_difference(computed, &found),
                // A 406 that is not an "inequivalent arg" reply (e.g. "invalid arg"): say so.
                None => Difference {
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
        DiffKind::Policy => Err("it comes from a policy already".to_owned()),
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

/// One of the operator's options over drift: what to do, in words, and the command that does it
/// when there is one, ready to paste into a POSIX shell (every word quoted by [`crate::shell`];
/// it shows only visible characters, however the queue is named).
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct Remedy {
    pub text: String,
    pub command: Option<String>,
}

impl Remedy {
    fn say(text: String) -> Remedy {
        Remedy {
            text,
            command: None,
        }
    }

    /// A remedy with its command; without one (a name the Debian rabbitmqctl wrapper would
    /// misread, see [`crate::shell::REREAD_CAVEAT`]) the text says why.
    fn run(text: String, command: Option<String>) -> Remedy {
        match command {
            Some(command) => Remedy {
                text,
                command: Some(command),
            },
            None => Remedy {
                text: format!("{text} ({})", crate::shell::REREAD_CAVEAT),
                command: None,
            },
        }
    }
}

/// The name queuey gives a policy it suggests for `queue`: `queuey-` and the queue's name, with
/// anything invisible replaced (a policy name is shown in the management UI), and `$`, a
/// backquote or `\` too (so that the command survives the Debian rabbitmqctl wrapper).
fn suggested_policy_name(queue: &str) -> String {
    let visible: String = queue
        .chars()
        .map(|c| {
            if crate::output::sanitize::is_visible(c) && !matches!(c, '$' | '`' | '\\') {
                c
            } else {
                '_'
            }
        })
        .collect();
    format!("queuey-{visible}")
}

/// The operator's options for the drifting queues among `plans`, in the vhost `vhost`: in words
/// (every name from outside `{:?}`-escaped), each with a command where one does it.
pub fn remedies(plans: &[&QueuePlan], vhost: &str) -> Vec<Remedy> {
    use crate::shell;
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
        let names: Vec<String> = locked.iter().map(|p| format!("{:?}", p.name)).collect();
        out.push(Remedy::run(
            format!(
                "{} {} exclusive to another client's connection: no queuey setting matches an \
                 exclusive queue, and it is deleted when that connection closes. Find the owner \
                 (the queue's page in the management UI, or the owner_pid this lists), stop the \
                 client that declares this name as an exclusive queue, then run queuey declare \
                 again",
                names.join(" and "),
                if names.len() == 1 { "is" } else { "are" }
            ),
            shell::rabbitmqctl(vhost, &["list_queues", "name", "exclusive", "owner_pid"]),
        ));
    }
    // Policies that destroy dead letters: clear them (or narrow their pattern).
    let mut by_policy: Vec<(PolicyRef, &QueuePlan, Vec<&str>)> = Vec::new();
    for p in &drifting {
        for d in p.differences.iter().filter(|d| d.kind == DiffKind::Policy) {
            for policy in &d.policies {
                match by_policy
                    .iter_mut()
                    .find(|(r, q, _)| r == policy && q.name == p.name)
                {
                    Some((_, _, keys)) => keys.push(&d.field),
                    None => by_policy.push((policy.clone(), p, vec![&d.field])),
                }
            }
        }
    }
    for (policy, plan, keys) in &by_policy {
        let kind = if policy.operator {
            "operator policy"
        } else {
            "policy"
        };
        let pattern = plan
            .applied_policies
            .iter()
            .find(|a| a.name == policy.name && a.operator == policy.operator)
            .and_then(|a| a.pattern.as_deref())
            .map_or(String::new(), |p| format!(" (pattern {})", shell::quote(p)));
        out.push(Remedy::run(
            format!(
                "the {kind} {:?}{pattern} gives {:?} {}, which {} its dead letters (see the \
                 effects above). If it is meant for other queues, set it again under the same \
                 name with a pattern that does not match {:?}; otherwise delete it",
                policy.name,
                plan.name,
                keys.join(", "),
                if keys.len() == 1 { "costs" } else { "cost" },
                plan.name,
            ),
            shell::rabbitmqctl(
                vhost,
                &[
                    if policy.operator {
                        "clear_operator_policy"
                    } else {
                        "clear_policy"
                    },
                    &policy.name,
                ],
            ),
        ));
    }
    // Queues whose own definition differs (not only their policies).
    let defined: Vec<&&QueuePlan> = drifting
        .iter()
        .copied()
        .filter(|p| p.differences.iter().any(|d| d.kind != DiffKind::Policy))
        .collect();
    if defined.is_empty() {
        return out;
    }
    let differences: Vec<(&str, &Difference)> = defined
        .iter()
        .flat_map(|p| {
            p.differences
                .iter()
                .filter(|d| d.kind != DiffKind::Policy)
                .map(|d| (p.name.as_str(), d))
        })
        .collect();
    out.push(Remedy::say(
        "if the live queue is what you want, change the settings (queuey.toml or the flags) to \
         match it; the applications declare with the same settings"
            .to_owned(),
    ));
    let mut effective: Vec<(&str, &str, &Difference)> = Vec::new();
    let mut useless: Vec<String> = Vec::new();
    for (queue, d) in &differences {
        let Some(key) = policy_key(&d.field) else {
            continue;
        };
        match policy_effect(key, d) {
            Ok(()) => effective.push((queue, key, d)),
            Err(why) => useless.push(format!("{:?} of {queue:?}: {why}", d.field)),
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
        let existing = defined
            .iter()
            .find(|p| p.name == *queue)
            .and_then(|p| p.policy.as_ref());
        let mut text = format!(
            "a policy can give the live queue {queue:?} the computed value without recreating \
             it: keep its declared arguments (set queuey.toml to the live values, so the \
             applications' declarations keep matching) and apply a policy"
        );
        if let Some(existing) = existing {
            text.push_str(&format!(
                " (it already has the policy {existing:?}, and only one policy applies to a \
                 queue, the highest priority's: add these keys to {existing:?} instead, or give \
                 this one a higher --priority)"
            ));
        }
        out.push(Remedy::run(
            text,
            shell::rabbitmqctl(
                vhost,
                &[
                    "set_policy",
                    "--apply-to",
                    "queues",
                    &suggested_policy_name(queue),
                    &shell::exact_pattern(queue),
                    &format!("{{{}}}", definition.join(", ")),
                ],
            ),
        ));
    }
    if !useless.is_empty() {
        out.push(Remedy::say(format!(
            "a policy cannot fix {}",
            useless.join("; ")
        )));
    }
    for p in &defined {
        // RabbitMQ 3.10 refuses `--if-empty` on a quorum queue (not_implemented), and
        // rabbitmqctl still exits 0 having deleted nothing.
        let quorum = p.live_type.as_deref() == Some(QueueType::Quorum.as_str());
        let (guard, command) = if quorum {
            (
                "a quorum queue cannot be deleted --if-empty: check that it holds no message \
                 first (queuey status)",
                shell::rabbitmqctl(vhost, &["delete_queue", &p.name]),
            )
        } else {
            (
                "--if-empty refuses while any is left",
                shell::rabbitmqctl(vhost, &["delete_queue", "--if-empty", &p.name]),
            )
        };
        out.push(Remedy::run(
            format!(
                "otherwise recreate {:?}: stop the publishers, drain it (let the consumers finish \
                 it, or move its messages elsewhere), delete it (deleting a queue loses every \
                 message still in it; {guard}), then run queuey declare again",
                p.name
            ),
            command,
        ));
    }
    if differences.iter().any(|(_, d)| d.field == "type") {
        out.push(Remedy::say(
            "a change between classic and quorum always needs a new queue: a queue's type \
             never changes in place"
                .to_owned(),
        ));
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
            operator_policy: None,
            effective_policy_definition: Some(json!({})),
            applied_policies: Vec::new(),
        }
    }

    /// Every remedy's words and command, one per line.
    fn joined(remedies: &[Remedy]) -> String {
        remedies
            .iter()
            .flat_map(|r| std::iter::once(r.text.clone()).chain(r.command.clone()))
            .collect::<Vec<_>>()
            .join("\n")
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
                effect: None,
                policies: Vec::new(),
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
                effect: None,
                policies: Vec::new(),
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
        let all = joined(&remedies(&[&locked], "/"));
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
        let all = joined(&remedies(&[&locked, &other], "/"));
        assert!(all.contains("\"orders\" is exclusive"), "{all}");
        assert!(all.contains("otherwise recreate \"orders.dead\":"), "{all}");
        assert!(
            all.contains("rabbitmqctl delete_queue --if-empty orders.dead"),
            "{all}"
        );
    }

    #[test]
    fn remedies_name_the_policy_and_the_cost_of_deleting() {
        let [work, dead] = long_lived_queues(&with_ttl("orders.eu", 6000));
        let p = diff_queue(&work, Some(&live(json!({"x-message-ttl": 5000}))));
        let d = diff_queue(&dead, Some(&live(json!({}))));
        let all = joined(&remedies(&[&p, &d], "/"));
        // 6000 above the live 5000: the lower wins, so a policy cannot raise it.
        assert!(!all.contains("set_policy"), "{all}");
        assert!(all.contains("the lower value wins"), "{all}");
        assert!(all.contains("loses every message"), "{all}");
        assert!(!all.contains("classic and quorum"), "{all}");
        assert!(remedies(&[&d], "/").is_empty());
        // 4000 below the live 5000, and a missing max priority (not policy-able).
        let [work, _] = long_lived_queues(&with_ttl("orders.eu", 4000));
        let p = diff_queue(&work, Some(&live(json!({"x-message-ttl": 5000}))));
        let all = joined(&remedies(&[&p], "/"));
        assert!(
            all.contains(r#"rabbitmqctl set_policy --apply-to queues queuey-orders.eu '^orders\.eu$' '{"message-ttl": 4000}'"#),
            "{all}"
        );
        // The queue's own dead-letter argument wins over a policy.
        let [_, dead] = long_lived_queues(&settings("x"));
        let p = diff_queue(&dead, Some(&live(json!({"x-dead-letter-exchange": "dlx"}))));
        let all = joined(&remedies(&[&p], "/"));
        assert!(all.contains("cannot remove an argument"), "{all}");
        let l = LiveDefinition {
            queue_type: Some("quorum".into()),
            ..live(json!({"x-message-ttl": 4000}))
        };
        let all = joined(&remedies(&[&diff_queue(&work, Some(&l))], "/"));
        assert!(all.contains("classic and quorum"), "{all}");
        assert!(!all.contains("set_policy"), "{all}");
    }

    fn policied(definition: Value, policy: Option<&str>, operator: Option<&str>) -> LiveDefinition {
        LiveDefinition {
            policy: policy.map(str::to_owned),
            operator_policy: operator.map(str::to_owned),
            effective_policy_definition: Some(definition),
            ..live(json!({}))
        }
    }

    #[test]
    fn a_dead_letter_queue_that_loses_its_letters_is_drift_named_with_what_it_does() {
        let [work, dead] = long_lived_queues(&settings("orders"));
        // The issue's case: a TTL that sends every dead letter back to q after a minute.
        let l = policied(
            json!({"message-ttl": 60000, "dead-letter-exchange": "", "dead-letter-routing-key": "orders"}),
            Some("dlx-all"),
            None,
        );
        let plan = diff_queue(&dead, Some(&l));
        assert_eq!(plan.status, Status::Drift);
        assert_eq!(
            fields(&plan),
            [
                ("message-ttl", DiffKind::Policy),
                ("dead-letter-exchange", DiffKind::Policy)
            ]
        );
        let ttl = &plan.differences[0];
        assert_eq!(ttl.live, Some(json!(60000)));
        assert_eq!(
            ttl.policies,
            [PolicyRef {
                name: "dlx-all".into(),
                operator: false
            }]
        );
        let effect = ttl.effect.as_deref().unwrap();
        assert!(effect.contains("expires 1m"), "{effect}");
        assert!(effect.contains("sent back to \"orders\""), "{effect}");
        assert!(effect.contains("loop"), "{effect}");
        // Without an exchange, the same TTL drops them.
        let l = policied(json!({"message-ttl": 60000}), None, Some("op"));
        let plan = diff_queue(&dead, Some(&l));
        let d = &plan.differences[0];
        assert!(d.effect.as_deref().unwrap().contains("dropped"), "{d:?}");
        assert!(d.policies[0].operator);
        // Each key, and what it does.
        for (definition, says) in [
            (json!({"expires": 3_600_000}), "itself is deleted"),
            (json!({"max-length": 10}), "the oldest dead letters"),
            (json!({"max-length-bytes": 10}), "10 bytes"),
            (
                json!({"max-length": 10, "overflow": "reject-publish"}),
                "new dead letters are refused",
            ),
            (
                json!({"dead-letter-exchange": "elsewhere"}),
                "exchange \"elsewhere\"",
            ),
        ] {
            let plan = diff_queue(&dead, Some(&policied(definition.clone(), Some("p"), None)));
            assert_eq!(plan.status, Status::Drift, "{definition}");
            let effects: Vec<&str> = plan
                .differences
                .iter()
                .filter_map(|d| d.effect.as_deref())
                .collect();
            assert!(
                effects.iter().any(|e| e.contains(says)),
                "{definition}: {effects:?}"
            );
        }
        // A delivery limit costs letters on a quorum queue only.
        let classic = policied(json!({"delivery-limit": 3}), Some("p"), None);
        assert_eq!(diff_queue(&dead, Some(&classic)).status, Status::InSync);
        let quorum = LiveDefinition {
            queue_type: Some("quorum".into()),
            ..policied(json!({"delivery-limit": 3}), Some("p"), None)
        };
        let plan = diff_queue(&dead, Some(&quorum));
        assert!(
            plan.differences
                .iter()
                .any(|d| d.field == "delivery-limit" && d.kind == DiffKind::Policy),
            "{plan:?}"
        );
        // Harmless keys stay information, and the work queue's policies are never drift.
        let lazy = policied(json!({"queue-mode": "lazy"}), Some("p"), None);
        assert_eq!(diff_queue(&dead, Some(&lazy)).status, Status::InSync);
        let ttl = policied(json!({"message-ttl": 1000}), Some("p"), None);
        assert_eq!(diff_queue(&work, Some(&ttl)).status, Status::InSync);
    }

    #[test]
    fn arguments_declared_on_the_dead_letter_queue_say_what_they_do() {
        let [_, dead] = long_lived_queues(&settings("orders"));
        let plan = diff_queue(
            &dead,
            Some(&live(json!({
                "x-message-ttl": 5000,
                "x-dead-letter-exchange": "",
                "x-dead-letter-routing-key": "orders",
                "x-max-length": 7,
            }))),
        );
        for d in &plan.differences {
            assert_eq!(d.kind, DiffKind::Extra);
            let effect = d.effect.as_deref().unwrap_or_default();
            assert!(effect.contains("sent back to \"orders\""), "{d:?}");
        }
    }

    #[test]
    fn the_policy_remedy_names_the_policy_that_sets_each_key() {
        let [_, dead] = long_lived_queues(&settings("orders"));
        let mut l = policied(
            json!({"message-ttl": 1000, "max-length": 5}),
            Some("mine"),
            Some("theirs"),
        );
        l.applied_policies = vec![
            AppliedPolicy {
                name: "mine".into(),
                operator: false,
                pattern: Some("^orders\\.dead$".into()),
                definition: json!({"message-ttl": 1000}).as_object().cloned(),
            },
            AppliedPolicy {
                name: "theirs".into(),
                operator: true,
                pattern: None,
                definition: json!({"max-length": 5}).as_object().cloned(),
            },
        ];
        let plan = diff_queue(&dead, Some(&l));
        assert_eq!(plan.differences[0].policies[0].name, "mine");
        assert_eq!(plan.differences[1].policies[0].name, "theirs");
        let r = remedies(&[&plan], "prod");
        let commands: Vec<&str> = r.iter().filter_map(|r| r.command.as_deref()).collect();
        assert_eq!(
            commands,
            [
                "rabbitmqctl clear_policy -p prod mine",
                "rabbitmqctl clear_operator_policy -p prod theirs"
            ]
        );
        assert!(
            r[0].text.contains("pattern '^orders\\.dead$'"),
            "{}",
            r[0].text
        );
        assert!(
            !joined(&r).contains("delete_queue"),
            "deleting the queue does not remove a policy"
        );
    }

    #[test]
    fn remedies_show_only_visible_characters_whatever_the_name() {
        let q = settings("a'b \u{1b}[31m\u{202e}c");
        let [work, dead] = long_lived_queues(&q);
        let p = diff_queue(&work, Some(&live(json!({"x-max-priority": 5}))));
        let d = diff_queue(
            &dead,
            Some(&policied(json!({"expires": 5}), Some("p\u{1b}"), None)),
        );
        let all = joined(&remedies(&[&p, &d], "v\u{202e}"));
        assert!(
            all.chars()
                .all(|c| c == '\n' || crate::output::sanitize::is_visible(c)),
            "{all:?}"
        );
    }
}
