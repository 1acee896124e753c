//! `queuey args`: the queues of each logical queue and their computed arguments. Offline.

use serde_json::{Map, Value};

use crate::duration::{format_duration, format_millis};
use crate::error::{Error, ExitCode, Result};
use crate::output::Output;
use crate::output::args::{
    ArgsReport, DelayReport, LogicalQueueReport, QueueReport, SettingsReport, print_report,
};
use crate::plan::{self, ComputedQueue, Role};
use crate::queue::QueueSettings;
use crate::settings::DelayRequest;
use crate::topology::{self, ArgValue, MAX_DEFERRAL_MS, QueueArgs, QueueType};

fn millis(d: std::time::Duration) -> u64 {
    u64::try_from(d.as_millis()).unwrap_or(u64::MAX)
}

/// The JSON object of a queue's arguments: integers as numbers, strings as strings.
pub fn arguments_json(args: &QueueArgs) -> Map<String, Value> {
    args.iter()
        .map(|(k, v)| {
            let value = match v {
                ArgValue::Int(n) => Value::from(*n),
                ArgValue::Str(s) => Value::from(s.clone()),
            };
            (k.clone(), value)
        })
        .collect()
}

/// Builds the report, refusing a delay that no hold queue can take.
pub fn report(queues: &[QueueSettings], delays: &[DelayRequest]) -> Result<ArgsReport> {
    let mut logical_queues = Vec::new();
    for q in queues {
        // Offline: the vhost's default queue type is not known; classic, RabbitMQ's default.
        let mut rows: Vec<(ComputedQueue, Vec<DelayReport>)> =
            plan::long_lived_queues(q, QueueType::Classic)
                .into_iter()
                .map(|c| (c, Vec::new()))
                .collect();
        for d in delays {
            let granularity = d.kind.granularity(&q.options);
            let ttl = topology::deferred_ttl_ms(d.delay, granularity).ok_or_else(|| {
                Error::settings(format!(
                    "delay {} is too long for a hold queue of {:?}: rounded up to the {} \
                         granularity ({}), it passes the longest delay queuey holds, {} \
                         (MAX_DEFERRAL_MS = {MAX_DEFERRAL_MS} ms, ~24.8 days)",
                    d.written,
                    q.name,
                    d.kind.as_str(),
                    format_duration(granularity),
                    format_millis(MAX_DEFERRAL_MS),
                ))
                .with_hint(
                    "a hold queue expires after 2 x its TTL, which must stay within \
                         RabbitMQ's 2^32-1 ms TTL ceiling, so longer delays are refused rather \
                         than clamped; schedule them outside the broker",
                )
            })?;
            let delay = DelayReport {
                requested: d.written.clone(),
                requested_ms: millis(d.delay),
                kind: d.kind.as_str(),
                granularity_ms: millis(granularity),
                ttl_ms: ttl,
            };
            let hold = plan::hold_queue(q, ttl, QueueType::Classic);
            match rows.iter_mut().find(|(c, _)| c.name == hold.name) {
                Some((_, ds)) => ds.push(delay),
                None => rows.push((hold, vec![delay])),
            }
        }
        // Long-lived queues first, then hold queues by delay.
        rows[2..].sort_by_key(|(_, ds)| ds.first().map_or(0, |d| d.ttl_ms));
        logical_queues.push(LogicalQueueReport {
            name: q.name.clone(),
            settings: SettingsReport {
                queue_type: q.config.queue_type.as_str(),
                message_ttl_ms: q.config.message_ttl.map(millis),
                max_priority: q.config.max_priority,
                delivery_limit: q.config.delivery_limit,
                dead_suffix: q.options.dead_suffix.clone(),
                deferred_suffix: q.options.deferred_suffix.clone(),
                retry_granularity_ms: millis(q.options.retry_granularity),
                deferred_granularity_ms: millis(q.options.deferred_granularity),
            },
            queues: rows
                .into_iter()
                .map(|(c, delays)| QueueReport {
                    declared_by: match c.role {
                        Role::Work | Role::Dead => "queuey declare",
                        Role::Hold => "the application, on demand",
                    },
                    name: c.name,
                    role: c.role,
                    queue_type: c.queue_type.as_str(),
                    durable: c.durable,
                    arguments: arguments_json(&c.arguments),
                    typed_arguments: c.arguments,
                    delays,
                })
                .collect(),
        });
    }
    Ok(ArgsReport { logical_queues })
}

pub fn run(queues: &[QueueSettings], delays: &[DelayRequest], output: Output) -> Result<ExitCode> {
    let report = report(queues, delays)?;
    let collisions: std::collections::BTreeSet<crate::name_owner::Collision> =
        queues.iter().flat_map(QueueSettings::collisions).collect();
    for collision in collisions {
        output.note(&format!("note: {collision}"));
    }
    print_report(&report, output)?;
    Ok(ExitCode::Ok)
}
