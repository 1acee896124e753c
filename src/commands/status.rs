//! `queuey status <QUEUE>... | --all`: one screen per logical queue: how deep `q` is and who
//! consumes it, how many dead letters wait in `q.dead`, how many hold queues `q` has and how
//! many messages wait in them, and whether the topology drifted (as `verify` decides).
//!
//! Reads only (management API; without it, AMQP for `q` and `q.dead` as `verify` does, and
//! hold queues unknown). Counts the broker has not reported yet are unknown, never zero.

use crate::broker::session::{DeclareReply, Session};
use crate::endpoint::ConnectionSettings;
use crate::error::{ExitCode, Result};
use crate::live::inspect::{self as inspect, Inspected, Inspector};
use crate::output::status::{HoldsStatus, LogicalStatus, QueueStatus, StatusReport, print_report};
use crate::output::{Format, Output};
use crate::plan::{self, HoldPlan, Status};
use crate::queue::QueueSettings;
use crate::shell::queuey_command;

fn queue_status(i: &Inspected) -> QueueStatus {
    QueueStatus {
        name: i.computed.name.clone(),
        exists: match i.plan.status {
            Status::Create => false,
            Status::Refused => i.plan.live_type.is_some(),
            _ => true,
        },
        queue_type: i.plan.live_type.clone(),
        counts: i.counts.unwrap_or_default(),
        counted_by: "statistics",
    }
}

/// Counts `q` or `q.dead` exactly, now: the ready messages and consumers of a passive declare
/// (the management API's statistics can be seconds old: right after a replay or a purge they
/// still show what was there). With no consumer nothing is unacknowledged; with consumers,
/// that count stays the statistics'. Neither queue has an `x-expires` lease for the declare to
/// renew (hold queues, which do, are never counted so). A queue the declare cannot see (gone
/// meanwhile, exclusive to another connection) keeps the statistics.
async fn count_now(session: &Session, status: &mut QueueStatus) {
    if !status.exists {
        return;
    }
    let Ok(DeclareReply::Ok(now)) = session.passive_declare_reply(&status.name).await else {
        return;
    };
    let c = &mut status.counts;
    c.messages_ready = Some(u64::from(now.messages_ready));
    c.consumers = Some(u64::from(now.consumers));
    if now.consumers == 0 {
        c.messages_unacknowledged = Some(0);
    }
    c.messages = c
        .messages_unacknowledged
        .map(|u| u64::from(now.messages_ready) + u);
    status.counted_by = "amqp";
}

pub async fn run(
    queues: &[QueueSettings],
    connection: &ConnectionSettings,
    scan: bool,
    output: Output,
) -> Result<ExitCode> {
    let session = super::session(connection, "status", output)?;
    let result = run_in(&session, queues, scan, output).await;
    session.close().await;
    result
}

async fn run_in(
    session: &Session,
    queues: &[QueueSettings],
    scan: bool,
    output: Output,
) -> Result<ExitCode> {
    let inspector = Inspector::new(session, false, queues.len()).await?;
    let mut notes = Vec::new();
    if let Some(e) = &inspector.api_error {
        // Connect first: when AMQP fails too (a wrong password fails both), its error is the
        // one to show, without a note about a fallback that cannot happen.
        session.connection().await?;
        let note = inspect::fallback_note(e, true, false, &session.settings().api.username);
        output.note(&format!("note: {note}"));
        notes.push(note);
    }
    if let Some(note) = &inspector.vhost_default_note {
        output.note(&format!("note: {note}"));
        notes.push(note.clone());
    }
    let mut logical = Vec::new();
    for q in queues {
        let inspected = inspector.long_lived(q).await?;
        let holds: Option<Vec<(HoldPlan, Option<u64>, String)>> = if inspector.uses_api() {
            let live = inspector.hold_queues(q, false).await?;
            let plans: Vec<(HoldPlan, Option<u64>, String)> = live
                .iter()
                .filter_map(|l| {
                    let definition = l.definition();
                    plan::check_hold_queue(
                        q,
                        &l.name,
                        &definition,
                        l.consumers,
                        inspector.vhost_default,
                    )
                    .map(|p| (p, l.messages, definition.effective_type()))
                })
                .collect();
            Some(plans)
        } else {
            None
        };
        let drift = inspected.iter().any(|i| i.plan.status == Status::Drift)
            || holds
                .as_ref()
                .is_some_and(|h| h.iter().any(|(p, _, _)| p.status == Status::Drift));
        let hold_queues = match &holds {
            None => HoldsStatus {
                checked: false,
                counted_by: "statistics",
                count: None,
                messages: None,
                bad_names: None,
                types: None,
            },
            Some(h) => {
                let valid: Vec<&(HoldPlan, Option<u64>, String)> =
                    h.iter().filter(|(p, _, _)| p.ttl_ms.is_some()).collect();
                let mut types: Vec<String> = valid.iter().map(|(_, _, t)| t.clone()).collect();
                types.sort();
                types.dedup();
                HoldsStatus {
                    checked: true,
                    counted_by: "statistics",
                    count: Some(valid.len()),
                    messages: valid
                        .iter()
                        .try_fold(0u64, |acc, (_, m, _)| m.map(|m| acc.saturating_add(m))),
                    bad_names: Some(h.len() - valid.len()),
                    types: Some(types),
                }
            }
        };
        let [mut work, mut dead] = [&inspected[0], &inspected[1]].map(queue_status);
        count_now(session, &mut work).await;
        count_now(session, &mut dead).await;
        let refused = inspected.iter().any(|i| i.plan.status == Status::Refused);
        logical.push(LogicalStatus {
            name: q.name.clone(),
            queue_type: inspected[0]
                .plan
                .computed_type_known()
                .then_some(inspected[0].computed.queue_type.as_str()),
            missing: inspected
                .iter()
                .filter(|i| i.plan.status == Status::Create)
                .map(|i| i.computed.name.clone())
                .collect(),
            work,
            dead,
            hold_queues,
            drift,
            refused,
            arguments_checked: !inspected.iter().any(|i| i.plan.status == Status::Unchecked),
            declare_command: queuey_command(&["declare", &q.name], q),
            verify_command: queuey_command(&["verify", &q.name], q),
        });
    }
    for note in inspector.notes() {
        output.note(&format!("note: {note}"));
        notes.push(note);
    }
    let report = StatusReport {
        source: inspector.source,
        complete: inspector.uses_api(),
        notes,
        logical_queues: logical,
    };
    if output.format == Format::Prometheus {
        super::status_metrics::print(session, queues, &report, scan, output).await?;
    } else {
        if scan {
            output.note("note: --scan counts by cause for -o prometheus only; `queuey dead ls --group-by cause` shows them");
        }
        print_report(&report, output)?;
    }
    Ok(ExitCode::Ok)
}
