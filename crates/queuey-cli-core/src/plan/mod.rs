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
//!
//! - `mod.rs`: the desired queues and the comparison with the API's definitions;
//! - [`bounds`]: a bounded queue's limits and overflow (a replay's target);
//! - [`policies`]: a queue's effective policy, computed from the vhost's policy listings;
//! - [`fate`]: what a live `q.dead`'s arguments and policies do to its dead letters;
//! - [`probe`]: the AMQP fallback's 406 reply, parsed into the same plan;
//! - [`holds`]: the checks of live hold queues;
//! - [`remedies`]: the operator's options over drift, ready to paste.

pub mod bounds;
pub mod dead_letter_loss;
pub mod holds;
pub mod policies;
pub mod probe;
pub mod prune_candidates;
pub mod remedies;

pub use dead_letter_loss::dead_letter_hazards;
pub use holds::{HoldPlan, check_hold_queue, missing_hold_marks};
pub use probe::{
    Inequivalence, ProbeOutcome, ReplyValue, parse_inequivalent, parse_invalid_arg, plan_from_probe,
};
pub use remedies::{Remedy, policy_key, remedies};

use serde::Serialize;
use serde_json::{Map, Value};

use crate::queue::QueueSettings;
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
/// `q.dead` has no arguments (as the library declares it). A queue declared without
/// `x-queue-type` (`q.dead`, a classic `q`, as the library declares them) is of the vhost's
/// default queue type, `vhost_default` (classic unless the vhost says otherwise, RabbitMQ's
/// `default_queue_type`).
pub fn long_lived_queues(q: &QueueSettings, vhost_default: QueueType) -> [ComputedQueue; 2] {
    let work_type = match q.config.queue_type {
        // queuey declares a quorum `q` with `x-queue-type`; a classic one without.
        QueueType::Quorum => QueueType::Quorum,
        QueueType::Classic => vhost_default,
    };
    [
        ComputedQueue {
            name: q.name.clone(),
            logical: q.name.clone(),
            role: Role::Work,
            queue_type: work_type,
            durable: true,
            arguments: topology::queue_args(&q.name, &q.config, &q.options),
        },
        ComputedQueue {
            name: q.dead_queue(),
            logical: q.name.clone(),
            role: Role::Dead,
            queue_type: vhost_default,
            durable: true,
            arguments: topology::dead_queue_args(),
        },
    ]
}

/// The hold queue of `q` for a TTL: its arguments depend on its name only; declared without
/// `x-queue-type`, it is of the vhost's default type.
pub fn hold_queue(q: &QueueSettings, ttl_ms: u32, vhost_default: QueueType) -> ComputedQueue {
    ComputedQueue {
        name: q.options.deferred_queue(&q.name, ttl_ms),
        logical: q.name.clone(),
        role: Role::Hold,
        queue_type: vhost_default,
        durable: true,
        arguments: topology::deferred_queue_args(&q.name, ttl_ms),
    }
}

/// Arguments a queue type refuses when a queue of that type is created: the classic-only
/// arguments on a quorum queue (`406 PRECONDITION_FAILED - invalid arg 'x-max-priority' for
/// queue 'q' in vhost 'v' of queue type rabbit_quorum_queue`: see docs/broker-notes.md,
/// Declaring and the management API). A queue whose computed arguments carry one cannot be
/// declared at all.
pub fn refused_argument(name: &str, queue_type: QueueType) -> bool {
    const CLASSIC_ONLY: &[&str] = &[
        "x-max-priority",
        "x-queue-mode",
        "x-queue-master-locator",
        "x-queue-version",
    ];
    queue_type == QueueType::Quorum && CLASSIC_ONLY.contains(&name)
}

/// What a refused argument means, in words, with the way out.
pub fn refused_effect(computed: &ComputedQueue, argument: &str) -> String {
    let why = if computed.arguments.contains_key(topology::ARG_QUEUE_TYPE) {
        format!("{:?} is a quorum queue", computed.name)
    } else {
        format!(
            "{:?} is declared without x-queue-type, as the queuey library declares it, so it \
             is of the vhost's default queue type, quorum",
            computed.name
        )
    };
    format!("refused by the broker: {why}, and a quorum queue refuses {argument}")
}

/// The way out of a refused argument: the settings change, never the broker's queues.
pub fn refused_remedy(queue: &str, argument: &str) -> String {
    if argument == topology::ARG_MAX_PRIORITY {
        format!(
            "run the application with priorities off (QueueConfig::max_priority(0) in the \
             queuey library) and queuey with --max-priority 0 (max_priority = 0 for {queue:?} \
             in queuey.toml): {queue:?} is then declared without x-max-priority, which a quorum \
             queue accepts (RabbitMQ 4.x quorum queues have two priority levels of their own; \
             3.x quorum queues none)"
        )
    } else {
        format!("leave {argument} out of the settings of {queue:?}: a quorum queue refuses it")
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
    /// The broker refuses the computed declaration (an argument its queue type refuses),
    /// whether or not the queue exists: `declare` changes nothing, the settings must change.
    Refused,
}

impl Status {
    pub fn describe(self) -> &'static str {
        match self {
            Status::Create => "create",
            Status::InSync => "in sync",
            Status::Drift => "drift",
            Status::Unchecked => "exists, not checked",
            Status::Refused => "refused",
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
    /// queuey computes an argument the queue's type refuses (`x-max-priority` on a queue that
    /// is quorum, as every queue declared without `x-queue-type` is in a vhost whose default
    /// queue type is quorum): the broker refuses the declaration, whatever the live queue.
    Refused,
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

impl QueuePlan {
    /// Whether the computed type is the type a declare gives the queue: with the management
    /// API, which read the vhost's default queue type, always; in the AMQP fallback only when
    /// the declaration names it (`x-queue-type`), since a queue declared without it is of the
    /// vhost's default type, which AMQP cannot read.
    pub fn computed_type_known(&self) -> bool {
        self.source == Source::ManagementApi
            || self
                .computed_arguments
                .contains_key(topology::ARG_QUEUE_TYPE)
    }

    /// The queue's type as far as queuey knows it: the live one where the source tells it,
    /// else the computed one when it is known ([`QueuePlan::computed_type_known`]) and is the
    /// queue's: the queue is missing (a declare creates that type), or the API read it, or the
    /// fallback's probe found it equivalent. `None`: the AMQP fallback cannot tell.
    pub fn known_type(&self) -> Option<&str> {
        if let Some(t) = &self.live_type {
            return Some(t);
        }
        let unread = self.source == Source::AmqpProbe
            && !matches!(self.status, Status::Create | Status::InSync);
        (self.computed_type_known() && !unread).then_some(self.queue_type)
    }
}

/// What a report says in place of a type [`QueuePlan::known_type`] does not know.
pub const TYPE_NOT_READ: &str = "type not read without the management API";

/// The arguments RabbitMQ compares on a redeclare, per queue type: each type compares every
/// argument it accepts, and ignores any other `x-` argument on a redeclare (see
/// docs/broker-notes.md, Declaring and the management API). For a type queuey does not know
/// (a stream), every argument counts.
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
        // The queue type is compared above, as `type` (4.x lists it among a queue's arguments
        // even where it was not declared).
        if name == topology::ARG_QUEUE_TYPE {
            continue;
        }
        if let Some(c) = computed.arguments.get(name)
            && refused_argument(name, computed.queue_type)
        {
            differences.push(Difference {
                field: name.clone(),
                kind: DiffKind::Refused,
                live: live.arguments.get(name).cloned(),
                computed: Some(arg_json(c)),
                effect: Some(refused_effect(computed, name)),
                policies: Vec::new(),
            });
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

/// The differences of a queue that does not exist: the arguments its type refuses, which make
/// its creation fail.
pub fn refused_differences(computed: &ComputedQueue) -> Vec<Difference> {
    computed
        .arguments
        .iter()
        .filter(|(name, _)| refused_argument(name, computed.queue_type))
        .map(|(name, value)| Difference {
            field: name.clone(),
            kind: DiffKind::Refused,
            live: None,
            computed: Some(arg_json(value)),
            effect: Some(refused_effect(computed, name)),
            policies: Vec::new(),
        })
        .collect()
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
        plan.status = if differences.iter().any(|d| d.kind == DiffKind::Refused) {
            Status::Refused
        } else if differences.is_empty() {
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
    } else {
        plan.differences = refused_differences(computed);
        if !plan.differences.is_empty() {
            plan.status = Status::Refused;
        }
    }
    plan
}

// ---------------------------------------------------------------------------------------------
// A dead-letter queue that destroys its letters.
// ---------------------------------------------------------------------------------------------

/// The policy keys that make `q.dead` lose or move its dead letters: a TTL expires them, an
/// `expires` deletes the queue with them, a length limit drops the oldest (or refuses new
/// ones), a dead-letter exchange sends whatever leaves elsewhere (back to `q`: the loop the library
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

#[cfg(test)]
mod tests;
