//! What `queuey status` shows: the JSON document, and one table per logical queue (how deep
//! `q` is and who consumes it, the dead letters, the hold queues, the drift).

use serde::Serialize;

use crate::counts::Counts;
use crate::error::Result;
use crate::output::{self, Format, Output, plural, sanitize::sanitize};
use crate::plan;

/// `q` or `q.dead`.
#[derive(Debug, Serialize)]
pub struct QueueStatus {
    pub name: String,
    pub exists: bool,
    /// The live queue's type (`classic`, `quorum`, `stream`); `null` when it does not exist or
    /// the source cannot tell (the AMQP fallback).
    #[serde(rename = "type")]
    pub queue_type: Option<String>,
    /// `null` when unknown (not reported yet, or the AMQP fallback, which sees only ready
    /// messages and consumers).
    #[serde(flatten)]
    pub counts: Counts,
    /// Where `messages_ready` and `consumers` come from: `amqp` (a passive declare as the
    /// command ran: exact) or `statistics` (the management API's, which can be seconds old).
    /// `messages_unacknowledged` is always the statistics' (0 exactly when nothing consumes).
    pub counted_by: &'static str,
}

#[derive(Debug, Serialize)]
pub struct HoldsStatus {
    /// False without the management API.
    pub checked: bool,
    /// Always `statistics` (the management API's, seconds old): a passive declare would count
    /// exactly but renew each hold queue's `x-expires` lease.
    pub counted_by: &'static str,
    pub count: Option<usize>,
    /// Messages waiting in all hold queues; `null` when unknown for any of them.
    pub messages: Option<u64>,
    /// Names with the deferred infix but no valid TTL.
    pub bad_names: Option<usize>,
    /// The types of the hold queues (each once, sorted); `null` when not checked.
    pub types: Option<Vec<String>>,
}

#[derive(Debug, Serialize)]
pub struct LogicalStatus {
    pub name: String,
    /// The type queuey computes for `q` (with the vhost's default queue type); `None` in the
    /// AMQP fallback unless the declaration names it ([`crate::plan::QueuePlan::known_type`]).
    pub queue_type: Option<&'static str>,
    pub work: QueueStatus,
    pub dead: QueueStatus,
    pub hold_queues: HoldsStatus,
    /// True when any queue or hold queue differs from its computed definition.
    pub drift: bool,
    /// True when the broker refuses a computed declaration (an argument the queue's type
    /// refuses: `x-max-priority` in a vhost whose default queue type is quorum).
    pub refused: bool,
    /// False when the arguments of an existing `q` or `q.dead` could not be read (the AMQP
    /// fallback: `status` never declares to probe them), so `drift` says nothing about them.
    pub arguments_checked: bool,
    /// Long-lived queues that do not exist (`queuey declare` creates them).
    pub missing: Vec<String>,
    /// The commands that fix what this screen shows, ready to paste.
    #[serde(skip)]
    pub declare_command: String,
    #[serde(skip)]
    pub verify_command: String,
}

impl LogicalStatus {
    /// What `verify` would decide of this logical queue: `Some(true)` when it would exit 1 (a
    /// queue missing, a queue or hold queue that differs from its computed definition, or a
    /// computed declaration the broker refuses), `Some(false)` when every queue exists and is
    /// in sync, `None` when that is not known (the AMQP fallback reads no arguments and lists
    /// no hold queues, and nothing known is out of sync).
    pub fn out_of_sync(&self) -> Option<bool> {
        if self.drift || self.refused || !self.missing.is_empty() {
            Some(true)
        } else if !self.arguments_checked || !self.hold_queues.checked {
            None
        } else {
            Some(false)
        }
    }
}

/// The JSON document of `status`.
#[derive(Debug, Serialize)]
pub struct StatusReport {
    pub source: plan::Source,
    pub complete: bool,
    pub notes: Vec<String>,
    pub logical_queues: Vec<LogicalStatus>,
}

/// Prints the report: JSON, or a table per logical queue.
pub fn print_report(report: &StatusReport, output: Output) -> Result<()> {
    if output.format == Format::Json {
        return output::print_json(report);
    }
    for (i, l) in report.logical_queues.iter().enumerate() {
        if i > 0 {
            output::print("")?;
        }
        let mut table = output::table(&[&sanitize(&l.name), ""]);
        let describe = |s: &QueueStatus, what: &str| -> String {
            if !s.exists {
                return format!("missing: `{}` creates it", l.declare_command);
            }
            // Counted now (AMQP): the ready messages, exact; otherwise the statistics, which
            // say so. Unacknowledged messages are only ever the statistics'.
            let messages = match (s.counted_by, s.counts.messages, s.counts.messages_ready) {
                ("amqp", _, Some(r)) => format!("{} ready", plural(r, "message")),
                (_, Some(m), _) => format!("{} (statistics, seconds old)", plural(m, "message")),
                (_, None, Some(r)) => format!("{} (ready)", plural(r, "message")),
                (_, None, None) => "? messages (not reported yet)".to_owned(),
            };
            let unacked = match s.counts.messages_unacknowledged {
                Some(u) if u > 0 && s.counted_by == "amqp" => {
                    format!(" + {u} unacknowledged (statistics, seconds old)")
                }
                Some(u) if u > 0 => format!(" ({u} unacknowledged)"),
                _ => String::new(),
            };
            let consumers = s
                .counts
                .consumers
                .map_or("? consumers".to_owned(), |c| plural(c, "consumer"));
            format!("{messages}{unacked}, {consumers}{what}")
        };
        // Each queue's real type, as the broker tells it: none where the source cannot tell
        // (the AMQP fallback, which cannot read the vhost's default queue type either, so the
        // computed type could be wrong).
        let live_type = |s: &QueueStatus| match &s.queue_type {
            Some(t) => format!(" ({}{})", sanitize(t), s.counts.members_text()),
            None => String::new(),
        };
        table.add_row(vec![
            "work queue".to_owned(),
            if l.work.exists {
                format!("{}{}", describe(&l.work, ""), live_type(&l.work))
            } else {
                // The type a declare would give it, when known: not in the AMQP fallback for
                // a queue of the vhost's default type, which AMQP cannot read.
                let missing = match l.queue_type {
                    Some(t) => format!("missing ({t})"),
                    None => "missing".to_owned(),
                };
                if l.refused {
                    format!(
                        "{missing}, and the broker would refuse it: `{}` says why",
                        l.verify_command
                    )
                } else {
                    format!("{missing}: `{}` creates it", l.declare_command)
                }
            },
        ]);
        table.add_row(vec![
            "dead letters".to_owned(),
            describe(
                &l.dead,
                &format!(" in {}{}", sanitize(&l.dead.name), live_type(&l.dead)),
            ),
        ]);
        let holds = match (&l.hold_queues.count, l.hold_queues.checked) {
            (Some(n), true) => {
                let waiting = l
                    .hold_queues
                    .messages
                    .map_or("? messages".to_owned(), |m| plural(m, "message"));
                let types = match l.hold_queues.types.as_ref().filter(|t| !t.is_empty()) {
                    Some(t) => format!(" ({})", sanitize(&t.join(", "))),
                    None => String::new(),
                };
                let mut s = format!(
                    "{}{types} with {waiting} waiting",
                    plural(*n as u64, "hold queue")
                );
                if *n > 0 {
                    s.push_str(" (statistics, seconds old)");
                }
                if let Some(b) = l.hold_queues.bad_names.filter(|b| *b > 0) {
                    s.push_str(&format!(", {b} bad name{}", if b == 1 { "" } else { "s" }));
                }
                s
            }
            _ => "not checked (needs the management API)".to_owned(),
        };
        table.add_row(vec!["hold queues".to_owned(), holds]);
        let topology = if l.refused {
            format!(
                "REFUSED: the broker refuses a declaration of these queues (an argument their \
                 type refuses): `{}` shows which, and the way out",
                l.verify_command
            )
        } else if l.drift {
            format!("DRIFT: `{}` shows the diff", l.verify_command)
        } else if !l.missing.is_empty() {
            format!(
                "missing: {}; `{}` creates {}",
                l.missing
                    .iter()
                    .map(|m| sanitize(m))
                    .collect::<Vec<_>>()
                    .join(", "),
                l.declare_command,
                if l.missing.len() == 1 { "it" } else { "them" }
            )
        } else if !l.arguments_checked {
            format!(
                "not checked: AMQP cannot read arguments, the management API can (`{}` with it)",
                l.verify_command
            )
        } else if report.complete {
            "in sync".to_owned()
        } else {
            "in sync (q and q.dead; hold queues not checked)".to_owned()
        };
        table.add_row(vec!["drift".to_owned(), topology]);
        output::print_table(&table, output)?;
    }
    Ok(())
}
