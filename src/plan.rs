//! PURE: the broker queues a logical queue should have (the desired state), and later the
//! difference between that and what the broker has.

use serde::Serialize;

use crate::settings::QueueSettings;
use crate::topology::{self, QueueArgs, QueueType};

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
pub fn hold_queue(q: &QueueSettings, ttl_ms: u64) -> ComputedQueue {
    ComputedQueue {
        name: topology::deferred_queue_name(&q.name, ttl_ms, &q.options),
        role: Role::Hold,
        queue_type: QueueType::Classic,
        durable: true,
        arguments: topology::deferred_queue_args(&q.name, ttl_ms),
    }
}
