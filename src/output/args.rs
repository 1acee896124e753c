//! What `queuey args` prints: its JSON document, or a table of each logical queue's queues and
//! their computed arguments.

use serde::Serialize;
use serde_json::{Map, Value};

use crate::duration::format_millis;
use crate::error::Result;
use crate::output::{self, Format, Output, sanitize::sanitize};
use crate::plan::Role;
use crate::topology::{self, ArgValue, QueueArgs, QueueType};

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

/// Prints the report: JSON, or the table (and the quorum note where a quorum `q` is computed).
pub fn print_report(report: &ArgsReport, output: Output) -> Result<()> {
    match output.format {
        Format::Json => output::print_json(report)?,
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
            output::print_table(&table, output)?;
            if report
                .logical_queues
                .iter()
                .any(|lq| lq.settings.queue_type == QueueType::Quorum.as_str())
            {
                output.note(QUORUM_NOTE);
            }
        }
    }
    Ok(())
}

/// Said wherever a quorum `q` is computed: the queuey library cannot use one.
pub const QUORUM_NOTE: &str = "a quorum q is queuey's extension: a queuey 1.x application \
     declares its queues classic (with x-max-priority) and would fail its own declaration \
     (PRECONDITION_FAILED) on a quorum q; use it for queues the application does not declare";
