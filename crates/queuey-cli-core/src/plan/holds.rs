//! The checks of live hold queues (`q.deferred.{ttl_ms}`) against their own name.

use serde::Serialize;
use serde_json::{Map, Value};

use super::*;
use crate::duration::format_millis;
use crate::queue::QueueSettings;
use crate::topology::{self};

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
    /// The live queue's type (`classic`, `quorum`, ...).
    pub queue_type: String,
}

/// Checks a live queue whose name starts with `q` + deferred suffix. `None` when the name is
/// not a hold queue of `q` at all (another queue sharing the prefix, a different case), or
/// when another logical queue of the topology owns it ([`QueueSettings::claimed_elsewhere`]:
/// `q.deferred.5000` listed as a logical queue of its own is its own, not `q`'s). The
/// application declares hold queues without `x-queue-type`: they are of the vhost's default
/// type, `vhost_default`.
///
/// Drift when its arguments differ from `deferred_queue_args` of the TTL in its own name, when
/// it has consumers (someone is eating the delays: messages would go to that consumer instead
/// of waiting and coming back to `q`), or when its name carries the infix but no valid TTL.
pub fn check_hold_queue(
    q: &QueueSettings,
    name: &str,
    live: &LiveDefinition,
    consumers: Option<u64>,
    vhost_default: topology::QueueType,
) -> Option<HoldPlan> {
    let parsed = topology::parse_deferred_queue_name(&q.name, name, &q.options);
    if parsed == Ok(None) || q.claimed_elsewhere(name).is_some() {
        return None;
    }
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
        queue_type: live.effective_type(),
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
            let computed = hold_queue(q, ttl, vhost_default);
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

/// What a live queue named like a hold queue of `q` lacks of the marks every hold queue is
/// declared with (the library's `deferred_queue_args`): an `x-message-ttl`, and dead-lettering
/// through the default exchange back to `q` (`x-dead-letter-exchange = ""`,
/// `x-dead-letter-routing-key = q`). `None`: it has them, so it is certainly a hold queue of
/// `q`, whatever else drifted (a TTL or an `x-expires` other than its name's). Without them a
/// message in it would never come back to `q`: whatever made it, it is not a hold queue of
/// `q`, and `holds prune` never deletes it.
pub fn missing_hold_marks(q: &str, live: &LiveDefinition) -> Option<String> {
    let args = &live.arguments;
    let found = |key: &str| match args.get(key) {
        None => format!("no {key}"),
        Some(v) => format!("{key} {v}"),
    };
    let mut missing = Vec::new();
    if args
        .get(topology::ARG_MESSAGE_TTL)
        .and_then(Value::as_u64)
        .is_none()
    {
        missing.push(found(topology::ARG_MESSAGE_TTL));
    }
    for (key, wanted) in [
        (topology::ARG_DEAD_LETTER_EXCHANGE, ""),
        (topology::ARG_DEAD_LETTER_ROUTING_KEY, q),
    ] {
        if args.get(key).and_then(Value::as_str) != Some(wanted) {
            missing.push(found(key));
        }
    }
    (!missing.is_empty()).then(|| {
        format!(
            "not certainly a hold queue of {q:?}: a hold queue has an x-message-ttl and \
             dead-letters back to {q:?} (x-dead-letter-exchange \"\", x-dead-letter-routing-key \
             {q:?}); this one has {}",
            missing.join(", ")
        )
    })
}

// ---------------------------------------------------------------------------------------------
// What an operator can do about drift.
// ---------------------------------------------------------------------------------------------
