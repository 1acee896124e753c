//! `queuey args`: the queues of each logical queue and their computed arguments. Offline.

use serde::Serialize;
use serde_json::{Map, Value};

use crate::duration::{format_duration, format_millis};
use crate::error::{Error, ExitCode, Result};
use crate::output::{self, Format, Output, sanitize::sanitize};
use crate::plan::{self, ComputedQueue, Role};
use crate::queue::QueueSettings;
use crate::settings::DelayRequest;
use crate::topology::{self, ArgValue, MAX_DEFERRAL_MS, QueueArgs, QueueType};

/// The JSON document `queuey args -o json` prints.
#[derive(Debug, Serialize)]
pub struct ArgsReport {
    pub logical_queues: Vec<LogicalQueueReport>,
}

#[derive(Debug, Serialize)]
pub struct LogicalQueueReport {
    pub name: String,
    pub settings: SettingsReport,
    pub queues: Vec<QueueReport>,
}

#[derive(Debug, Serialize)]
pub struct SettingsReport {
    pub queue_type: &'static str,
    pub message_ttl_ms: Option<u64>,
    pub max_priority: Option<u8>,
    pub delivery_limit: Option<u32>,
    pub dead_suffix: String,
    pub deferred_suffix: String,
    pub retry_granularity_ms: u64,
    pub deferred_granularity_ms: u64,
}

#[derive(Debug, Serialize)]
pub struct QueueReport {
    pub name: String,
    pub role: Role,
    pub queue_type: &'static str,
    pub durable: bool,
    /// Who creates it: `queuey declare` for `q` and `q.dead`, the application for hold queues.
    pub declared_by: &'static str,
    pub arguments: Map<String, Value>,
    #[serde(skip)]
    pub typed_arguments: QueueArgs,
    /// Hold queues only: the delays asked for that land in this queue.
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub delays: Vec<DelayReport>,
}

#[derive(Debug, Serialize)]
pub struct DelayReport {
    pub requested: String,
    pub requested_ms: u64,
    pub kind: &'static str,
    pub granularity_ms: u64,
    pub ttl_ms: u32,
}

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

/// One argument as a table line, with the human reading of millisecond values.
pub fn describe_argument(name: &str, value: &ArgValue) -> String {
    let is_ms = [topology::ARG_MESSAGE_TTL, topology::ARG_EXPIRES].contains(&name);
    match value {
        ArgValue::Int(n) if is_ms && *n >= 0 => {
            format!("{name} = {n} ({})", format_millis(n.unsigned_abs()))
        }
        other => format!("{name} = {}", sanitize(&other.to_string())),
    }
}

pub fn run(queues: &[QueueSettings], delays: &[DelayRequest], output: Output) -> Result<ExitCode> {
    let report = report(queues, delays)?;
    match output.format {
        Format::Json => output::print_json(&report)?,
        Format::Table | Format::Prometheus => {
            let mut table = output::table(&["queue", "role", "arguments"]);
            for lq in &report.logical_queues {
                for q in &lq.queues {
                    let role = match q.role {
                        Role::Work => format!("work queue ({})", q.queue_type),
                        Role::Dead => "dead-letter queue".to_owned(),
                        Role::Hold => {
                            let mut lines = vec!["hold queue".to_owned()];
                            for d in &q.delays {
                                lines.push(format!(
                                    "{} {} -> {}",
                                    d.kind,
                                    sanitize(&d.requested),
                                    format_millis(d.ttl_ms)
                                ));
                            }
                            lines.join("\n")
                        }
                    };
                    let args: Vec<String> = q
                        .typed_arguments
                        .iter()
                        .map(|(k, v)| describe_argument(k, v))
                        .collect();
                    let args = if args.is_empty() {
                        "(none)".to_owned()
                    } else {
                        args.join("\n")
                    };
                    table.add_row(vec![sanitize(&q.name), role, args]);
                }
            }
            output::print(table)?;
            if report
                .logical_queues
                .iter()
                .any(|lq| lq.settings.queue_type == QueueType::Quorum.as_str())
            {
                output.note(QUORUM_NOTE);
            }
        }
    }
    Ok(ExitCode::Ok)
}

/// Said wherever a quorum `q` is computed: the queuey library cannot use one.
pub const QUORUM_NOTE: &str = "a quorum q is queuey's extension: a queuey 1.x application \
     declares its queues classic (with x-max-priority) and would fail its own declaration \
     (PRECONDITION_FAILED) on a quorum q; use it for queues the application does not declare";
