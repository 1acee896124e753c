//! What `queuey holds ls` prints: its JSON document, or the table of hold queues (their delay,
//! counts, arguments, idle time and expiry), the bad names apart.

use serde::Serialize;
use serde_json::Value;

use crate::duration::format_millis;
use crate::error::Result;
use crate::output::time;
use crate::output::topology_report::DiffLines;
use crate::output::{self, Format, Output, sanitize::sanitize};
use crate::plan::Difference;
use crate::topology;

/// One hold queue.
#[derive(Debug, Serialize)]
pub struct HoldEntry {
    pub name: String,
    pub ttl_ms: u32,
    /// The delay, human-readable (`30s`).
    pub delay: String,
    /// Messages waiting (ready + unacknowledged); `null` until the broker reports it.
    pub messages: Option<u64>,
    pub consumers: Option<u64>,
    /// Whether the arguments are those its name implies.
    pub arguments_ok: bool,
    pub differences: Vec<Difference>,
    pub arguments: serde_json::Map<String, Value>,
    pub queue_type: Option<String>,
    /// As the broker printed it; `null` for quorum queues and until the first stats.
    pub idle_since: Option<String>,
    /// `idle_since` + the live `x-expires`, in UTC: when the broker deletes the queue if it
    /// stays idle (classic queues without consumers; an estimate, as the broker's own timer
    /// runs from the last use: a declare, a consumer or a get).
    pub expires_at: Option<String>,
    pub policy: Option<String>,
}

/// A queue whose name carries the deferred infix but no valid TTL.
#[derive(Debug, Serialize)]
pub struct BadName {
    pub name: String,
    pub messages: Option<u64>,
    pub consumers: Option<u64>,
    pub problem: String,
}

#[derive(Debug, Serialize)]
pub struct Totals {
    pub hold_queues: usize,
    /// `null` when the broker has not yet reported the count of some hold queue.
    pub messages: Option<u64>,
    pub consumers: Option<u64>,
}

/// The JSON document of `holds ls`.
#[derive(Debug, Serialize)]
pub struct HoldsReport {
    pub queue: String,
    pub vhost: String,
    /// Sorted by delay.
    pub hold_queues: Vec<HoldEntry>,
    pub bad_names: Vec<BadName>,
    pub totals: Totals,
    /// Where `messages` and `consumers` come from: always `statistics`, the management API's,
    /// which can be seconds old. Counting a hold queue exactly (a passive declare) would renew
    /// its `x-expires` lease and keep an idle one alive.
    pub counted_by: &'static str,
}

fn count(n: Option<u64>) -> String {
    n.map_or("?".to_owned(), |n| n.to_string())
}

/// Prints the report: JSON, or the tables (`deferred_suffix`: the infix a bad name carries).
pub fn print_report(report: &HoldsReport, deferred_suffix: &str, output: Output) -> Result<()> {
    if output.format == Format::Json {
        return output::print_json(report);
    }
    let mut table = output::table(&[
        "hold queue",
        "type",
        "delay",
        "messages",
        "consumers",
        "arguments",
        "idle since",
        "expires if idle (approx.)",
    ]);
    // A hold queue's name ends with what tells it apart, its TTL; its delay, what waits and
    // whether it is right matter most, its times least.
    table
        .priority(&["hold queue", "delay", "messages", "arguments", "consumers"])
        .keep_end("hold queue")
        .min_width("hold queue", 16)
        .whole(&["delay", "messages"])
        .min_width("arguments", 9);
    let now = crate::clock::now_millis();
    for h in &report.hold_queues {
        let arguments = if h.arguments_ok {
            "ok".to_owned()
        } else {
            let mut lines = DiffLines::default();
            lines.differences(&h.differences);
            let detail: Vec<String> = lines
                .property
                .iter()
                .zip(&lines.live)
                .zip(&lines.computed)
                .map(|((p, l), c)| format!("{p}: {l}, expected {c}"))
                .collect();
            // One line, as every row of a list: `--wide` or -o json shows it whole.
            format!("DIFFER: {}", detail.join("; "))
        };
        let expires = match (&h.expires_at, h.queue_type.as_deref()) {
            (Some(at), _) => {
                let left = time::parse_timestamp(at).zip(now).map(|(at, now)| at - now);
                match left {
                    Some(ms) if ms >= 1_000 => {
                        format!(
                            "{at} (in {})",
                            format_millis(ms.unsigned_abs() / 1_000 * 1_000)
                        )
                    }
                    Some(_) => format!("{at} (due)"),
                    None => at.clone(),
                }
            }
            (None, _) if h.consumers.is_some_and(|c| c > 0) => "not while consumed".to_owned(),
            (None, Some("quorum")) => "n/a (quorum)".to_owned(),
            (None, _) => "?".to_owned(),
        };
        let consumers = match h.consumers {
            Some(n) if n > 0 => format!("{n} (should be 0)"),
            other => count(other),
        };
        table.add_row(vec![
            sanitize(&h.name),
            h.queue_type.as_deref().map_or("?".to_owned(), sanitize),
            h.delay.clone(),
            count(h.messages),
            consumers,
            arguments,
            match h.idle_since.as_deref() {
                Some(raw) => {
                    time::parse_timestamp(raw).map_or_else(|| sanitize(raw), time::format_utc)
                }
                None if h.queue_type.as_deref() == Some("quorum") => "n/a (quorum)".to_owned(),
                None => "?".to_owned(),
            },
            expires,
        ]);
    }
    table.add_row(vec![
        format!(
            "total: {} hold queue{}",
            report.totals.hold_queues,
            if report.totals.hold_queues == 1 {
                ""
            } else {
                "s"
            }
        ),
        String::new(),
        String::new(),
        count(report.totals.messages),
        count(report.totals.consumers),
        String::new(),
        String::new(),
        String::new(),
    ]);
    output::print_table(&table, output)?;
    if !report.hold_queues.is_empty() {
        output::print(
            "messages and consumers: the management API's statistics, which can be seconds old \
             (counting a hold queue exactly would renew its x-expires lease)",
        )?;
    }
    if !report.bad_names.is_empty() {
        let mut bad = output::table(&[
            "not a hold queue (bad name)",
            "messages",
            "consumers",
            "why",
        ]);
        for b in &report.bad_names {
            bad.add_row(vec![
                sanitize(&b.name),
                count(b.messages),
                count(b.consumers),
                format!(
                    "carries {:?} but no valid TTL in ms (1 to {})",
                    sanitize(deferred_suffix),
                    topology::MAX_DEFERRAL_MS
                ),
            ]);
        }
        bad.keep_end("not a hold queue (bad name)");
        output::print_table(&bad, output)?;
    }
    let unreported = report
        .hold_queues
        .iter()
        .filter(|h| h.messages.is_none())
        .count();
    if unreported > 0 {
        output.note(&format!(
            "note: the broker has not reported the counts of {unreported} hold queue{} yet \
             (stats appear a few seconds after a declare): shown as ?",
            if unreported == 1 { "" } else { "s" }
        ));
    }
    Ok(())
}
