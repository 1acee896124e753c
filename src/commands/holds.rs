//! `queuey holds ls <QUEUE>`: the live hold queues of one logical queue (management API).
//!
//! Reads only: the listing renews no hold queue's `x-expires` lease. Exactly `q` + deferred
//! suffix + a TTL: the API's filter is a prefix regex (anchored, escaped) and the result is
//! filtered again with [`crate::topology::parse_deferred_queue_name`], so neither
//! `q2.deferred.1000` nor `Q.DEFERRED.1000` (the API matches without case) is listed. Names that
//! carry the infix but no valid TTL (`q.deferred.abc`) are listed apart, never dropped silently:
//! something is declaring queues in q's namespace that no queuey application would. A queue
//! another logical queue of the topology owns (`q.deferred.5000` listed as a logical queue of
//! its own, `q.deferred.dead` of a listed `q.deferred`) is not q's, and is not listed.

use serde_json::Value;

use crate::broker::api::LiveQueue;
use crate::duration::format_millis;
use crate::endpoint::ConnectionSettings;
use crate::error::{ExitCode, Result};
use crate::live::inspect;
use crate::output::holds::{BadName, HoldEntry, HoldsReport, Totals, print_report};
use crate::output::{Output, time};
use crate::plan;
use crate::queue::QueueSettings;
use crate::topology::{self, QueueType};

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
    for set_aside in live.iter().filter_map(|l| q.hold_queue_set_aside(&l.name)) {
        output.note(&format!("note: {set_aside}; holds ls does not list it"));
    }
    let report = report(q, &session.settings().amqp.vhost, &live, vhost_default);
    print_report(&report, &q.options.deferred_suffix, output)?;
    Ok(ExitCode::Ok)
}
