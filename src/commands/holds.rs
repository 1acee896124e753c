//! `queuey holds ls <QUEUE>`: the live hold queues of one logical queue (management API).
//!
//! Reads only: the listing renews no hold queue's `x-expires` lease. Exactly `q` + deferred
//! suffix + a TTL: the API's filter is a prefix regex (anchored, escaped) and the result is
//! filtered again with [`crate::topology::parse_deferred_queue_name`], so neither
//! `q2.deferred.1000` nor `Q.DEFERRED.1000` (the API matches without case) is listed. Names that
//! carry the infix but no valid TTL (`q.deferred.abc`) are listed apart, never dropped silently:
//! something is declaring queues in q's namespace that no queuey application would.

use serde::Serialize;
use serde_json::Value;

use crate::broker::api::LiveQueue;
use crate::duration::format_millis;
use crate::endpoint::ConnectionSettings;
use crate::error::{ExitCode, Result};
use crate::live::inspect;
use crate::output::time;
use crate::output::topology_report::DiffLines;
use crate::output::{self, Format, Output, sanitize::sanitize};
use crate::plan::{self, Difference};
use crate::queue::QueueSettings;
use crate::topology::{self, QueueType};

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

fn sum(mut values: impl Iterator<Item = Option<u64>>) -> Option<u64> {
    values.try_fold(0u64, |acc, v| v.map(|v| acc.saturating_add(v)))
}

/// Builds the report from the live queues (pure, given the listing), in a vhost whose default
/// queue type is `vhost_default` (the type of a hold queue, which the application declares
/// without `x-queue-type`).
pub fn report(
    q: &QueueSettings,
    vhost: &str,
    live: &[LiveQueue],
    vhost_default: QueueType,
) -> HoldsReport {
    let mut hold_queues = Vec::new();
    let mut bad_names = Vec::new();
    for l in live {
        let definition = l.definition();
        let Some(check) =
            plan::check_hold_queue(q, &l.name, &definition, l.consumers, vhost_default)
        else {
            continue;
        };
        match check.ttl_ms {
            None => bad_names.push(BadName {
                name: l.name.clone(),
                messages: l.messages,
                consumers: l.consumers,
                problem: check.problems.join("; "),
            }),
            Some(ttl) => {
                let idle_ms = l.idle_since.as_deref().and_then(time::parse_timestamp);
                let expires_ms = l
                    .arguments
                    .get(topology::ARG_EXPIRES)
                    .and_then(Value::as_i64);
                let classic = l.queue_type.as_deref().unwrap_or("classic") == "classic";
                // A queue with consumers is in use: x-expires does not run.
                let consumed = l.consumers.is_some_and(|c| c > 0);
                let expires_at = match (idle_ms, expires_ms) {
                    (Some(idle), Some(exp)) if classic && !consumed => {
                        Some(time::format_utc(idle.saturating_add(exp)))
                    }
                    _ => None,
                };
                hold_queues.push(HoldEntry {
                    name: l.name.clone(),
                    ttl_ms: ttl,
                    delay: format_millis(ttl),
                    messages: l.messages,
                    consumers: l.consumers,
                    arguments_ok: check.differences.is_empty(),
                    differences: check.differences,
                    arguments: l.arguments.clone(),
                    queue_type: Some(definition.effective_type()),
                    idle_since: l.idle_since.clone(),
                    expires_at,
                    policy: check.policy,
                });
            }
        }
    }
    hold_queues.sort_by(|a, b| (a.ttl_ms, &a.name).cmp(&(b.ttl_ms, &b.name)));
    bad_names.sort_by(|a, b| a.name.cmp(&b.name));
    let totals = Totals {
        hold_queues: hold_queues.len(),
        messages: sum(hold_queues.iter().map(|h| h.messages)),
        consumers: sum(hold_queues.iter().map(|h| h.consumers)),
    };
    HoldsReport {
        queue: q.name.clone(),
        vhost: vhost.to_owned(),
        hold_queues,
        bad_names,
        totals,
        counted_by: "statistics",
    }
}

fn count(n: Option<u64>) -> String {
    n.map_or("?".to_owned(), |n| n.to_string())
}

pub async fn run(
    q: &QueueSettings,
    connection: &ConnectionSettings,
    output: Output,
) -> Result<ExitCode> {
    let session = super::session(connection, "holds ls", output)?;
    let live = inspect::hold_queues(&session, q, true).await;
    let vhost_default = match &live {
        Ok(_) => inspect::vhost_default(&session).await,
        Err(_) => Ok((QueueType::Classic, None)),
    };
    session.close().await;
    let live = live.map_err(|mut e| {
        if e.kind.is_api() {
            e.message = format!(
                "queuey holds ls needs the management API (AMQP cannot list queues): {}",
                e.message
            );
        }
        e
    })?;
    let (vhost_default, note) = vhost_default?;
    if let Some(note) = &note {
        output.note(&format!("note: {note}"));
    }
    let report = report(q, &session.settings().amqp.vhost, &live, vhost_default);
    if output.format == Format::Json {
        output::print_json(&report)?;
        return Ok(ExitCode::Ok);
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
            format!("DIFFER\n{}", detail.join("\n"))
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
    output::print(table)?;
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
                    sanitize(&q.options.deferred_suffix),
                    topology::MAX_DEFERRAL_MS
                ),
            ]);
        }
        output::print(bad)?;
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
    Ok(ExitCode::Ok)
}
