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
/// not a hold queue of `q` at all (another queue sharing the prefix, a different case). The
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

// ---------------------------------------------------------------------------------------------
// What an operator can do about drift.
// ---------------------------------------------------------------------------------------------
