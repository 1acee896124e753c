//! `queuey declare`, `queuey declare --dry-run` and `queuey verify`: one plan, three uses.
//!
//! For each logical queue the live state is read first ([`Inspector`]), compared with the
//! computed queues ([`crate::plan`]), and only then acted on: `declare` creates what is missing,
//! leaves what is in sync, and never redeclares over drift (it reports the diff and the
//! operator's options and changes nothing for that logical queue). `--dry-run` and `verify`
//! change nothing; `verify` also checks the live hold queues (management API only).

use futures_util::stream::{self, StreamExt};

use crate::broker::session::{DeclareReply, Session};
use crate::endpoint::ConnectionSettings;
use crate::error::{ExitCode, Result};
use crate::live::topology::{self as inspect, Inspected, Inspector};
use crate::output::Output;
use crate::output::topology::{
    DeclareResult, HoldsCheck, LogicalPlan, Mode, QueueEntry, TopologyReport, print_report,
};
use crate::plan::{self, HoldPlan, ProbeOutcome, QueuePlan, Status};
use crate::queue::QueueSettings;

pub async fn run(
    queues: &[QueueSettings],
    connection: &ConnectionSettings,
    mode: Mode,
    output: Output,
) -> Result<ExitCode> {
    let session = Session::new(connection.clone(), mode.command())?;
    let result = run_in(&session, queues, mode, output).await;
    session.close().await;
    result
}

async fn run_in(
    session: &Session,
    queues: &[QueueSettings],
    mode: Mode,
    output: Output,
) -> Result<ExitCode> {
    let inspector = Inspector::new(session, mode == Mode::Declare).await?;
    let mut notes = Vec::new();
    if let Some(e) = &inspector.api_error {
        // Connect first: when AMQP fails too (a wrong password fails both), its error is the
        // one to show, without a note about a fallback that cannot happen.
        session.connection().await?;
        let note = inspect::fallback_note(
            e,
            mode == Mode::Verify,
            inspector.probe,
            &session.settings().api.username,
        );
        output.note(&format!("note: {note}"));
        notes.push(note);
    }
    if let Some(note) = &inspector.vhost_default_note {
        output.note(&format!("note: {note}"));
        notes.push(note.clone());
    }
    let mut code = ExitCode::Ok;
    for q in queues {
        let Some(unlisted) = &q.unlisted else {
            continue;
        };
        let mut note = unlisted.explain(&q.name);
        if let Mode::DryRun {
            allow_unlisted: false,
        } = mode
        {
            note.push_str(
                "; queuey declare refuses to create it without --allow-unlisted, so this dry \
                 run exits 2 as declare would",
            );
            code = code.merge(ExitCode::Usage);
        }
        output.note(&format!("note: {note}"));
        notes.push(note);
    }
    inspector.read_vhost(queues.len()).await?;
    // Through the API, logical queues are read and declared a few at a time, results kept in
    // order: a fleet's round trips overlap instead of adding up. What may end in a channel
    // error (the AMQP fallback's passive declares and probes, the configure check) runs one at
    // a time: when the broker closes one channel while another opens, the AMQP client can hand
    // that close to the new channel, which reuses the closed one's id (seen on 3.10.8; see
    // docs/broker-notes.md).
    let in_flight = if inspector.uses_api() { IN_FLIGHT } else { 1 };
    let inspected: Vec<Result<Vec<Inspected>>> = stream::iter(queues)
        .map(|q| inspector.long_lived(q))
        .buffered(in_flight)
        .collect()
        .await;
    let inspected = inspected.into_iter().collect::<Result<Vec<_>>>()?;
    if mode == Mode::Declare {
        // Before creating anything: nothing is created for a logical queue unless all its
        // queues may be declared. (When all exist, the declares change nothing, and a refusal
        // of them creates nothing either.)
        for i in inspected
            .iter()
            .filter(|i| i.iter().any(|i| i.plan.status == Status::Create))
        {
            for queue in i {
                session
                    .check_configure_permission(&queue.computed.name)
                    .await?;
            }
        }
    }
    let results: Vec<Result<(LogicalPlan, ExitCode)>> = stream::iter(queues.iter().zip(inspected))
        .map(|(q, inspected)| one_logical_queue(session, &inspector, q, inspected, mode))
        .buffered(in_flight)
        .collect()
        .await;
    let mut logical = Vec::new();
    for result in results {
        let (entry, entry_code) = result?;
        code = code.merge(entry_code);
        logical.push(entry);
    }
    let report = TopologyReport {
        command: mode.command(),
        source: inspector.source,
        complete: inspector.uses_api(),
        notes,
        in_sync: logical.iter().all(|l| l.status == Status::InSync),
        exit_code: code.code(),
        logical_queues: logical,
    };
    print_report(&report, mode, output)?;
    Ok(code)
}

/// Logical queues inspected and declared at once.
const IN_FLIGHT: usize = 16;

/// One logical queue's entry in the report, from what was read of it; `declare` acts first.
async fn one_logical_queue(
    session: &Session,
    inspector: &Inspector<'_>,
    q: &QueueSettings,
    inspected: Vec<Inspected>,
    mode: Mode,
) -> Result<(LogicalPlan, ExitCode)> {
    let (mut entry, entry_code) = match mode {
        Mode::Declare => declare_one(session, q, inspected).await?,
        Mode::DryRun { .. } => {
            let entry = plan_entry(q, inspected, None, session.vhost());
            let c = if matches!(entry.status, Status::Drift | Status::Refused) {
                ExitCode::Drift
            } else {
                ExitCode::Ok
            };
            (entry, c)
        }
        Mode::Verify => {
            let holds = if inspector.uses_api() {
                Some(check_holds(inspector, q).await?)
            } else {
                None
            };
            let entry = plan_entry(q, inspected, holds, session.vhost());
            let c = match entry.status {
                Status::InSync => ExitCode::Ok,
                // Without the API's arguments verify cannot vouch for anything.
                Status::Unchecked => ExitCode::Api,
                Status::Create | Status::Drift | Status::Refused => ExitCode::Drift,
            };
            (entry, c)
        }
    };
    entry.listed = q.unlisted.is_none();
    Ok((entry, entry_code))
}

/// The hold queues of `q`, each checked against the arguments its name implies.
async fn check_holds(inspector: &Inspector<'_>, q: &QueueSettings) -> Result<HoldsCheck> {
    let live = inspector.hold_queues(q, false).await?;
    let mut queues: Vec<HoldPlan> = live
        .iter()
        .filter_map(|l| {
            plan::check_hold_queue(
                q,
                &l.name,
                &l.definition(),
                l.consumers,
                inspector.vhost_default,
            )
        })
        .collect();
    sort_holds(&mut queues);
    Ok(HoldsCheck {
        checked: true,
        queues,
    })
}

/// Hold queues by delay, bad names last (by name).
pub fn sort_holds(queues: &mut [HoldPlan]) {
    queues.sort_by(|a, b| {
        (a.ttl_ms.is_none(), a.ttl_ms, &a.name).cmp(&(b.ttl_ms.is_none(), b.ttl_ms, &b.name))
    });
}

fn plan_entry(
    q: &QueueSettings,
    inspected: Vec<Inspected>,
    holds: Option<HoldsCheck>,
    vhost: &str,
) -> LogicalPlan {
    let plans: Vec<QueuePlan> = inspected.into_iter().map(|i| i.plan).collect();
    let hold_drift = holds
        .as_ref()
        .is_some_and(|h| h.queues.iter().any(|p| p.status == Status::Drift));
    let status = overall(&plans, hold_drift);
    let remedies = plan::remedies(&plans.iter().collect::<Vec<_>>(), vhost);
    LogicalPlan {
        name: q.name.clone(),
        listed: true,
        status,
        queues: plans
            .into_iter()
            .map(|plan| QueueEntry { plan, result: None })
            .collect(),
        hold_queues: holds,
        remedies,
    }
}

fn overall(plans: &[QueuePlan], hold_drift: bool) -> Status {
    if plans.iter().any(|p| p.status == Status::Refused) {
        Status::Refused
    } else if hold_drift || plans.iter().any(|p| p.status == Status::Drift) {
        Status::Drift
    } else if plans.iter().any(|p| p.status == Status::Create) {
        Status::Create
    } else if plans.iter().any(|p| p.status == Status::Unchecked) {
        Status::Unchecked
    } else {
        Status::InSync
    }
}

/// `declare` for one logical queue: nothing at all when any of its queues drifted or would be
/// refused; else each queue declared (created, or confirmed in sync). A 406 from a race
/// (someone declared the queue differently since it was read), or from a broker that refuses
/// an argument the AMQP fallback could not foresee, is reported as drift or refusal like one
/// found by reading, and the queues after it are left as they are.
async fn declare_one(
    session: &Session,
    q: &QueueSettings,
    inspected: Vec<Inspected>,
) -> Result<(LogicalPlan, ExitCode)> {
    let drift = inspected
        .iter()
        .any(|i| matches!(i.plan.status, Status::Drift | Status::Refused));
    let mut entries = Vec::new();
    if drift {
        for i in inspected {
            let result = if matches!(i.plan.status, Status::Drift | Status::Refused) {
                DeclareResult::Refused
            } else {
                DeclareResult::Unchanged
            };
            entries.push(QueueEntry {
                plan: i.plan,
                result: Some(result),
            });
        }
    } else {
        let mut refused = false;
        for i in inspected {
            if refused {
                entries.push(QueueEntry {
                    plan: i.plan,
                    result: Some(DeclareResult::Unchanged),
                });
                continue;
            }
            let existed = i.plan.status == Status::InSync;
            let entry = match session.declare(&i.computed).await? {
                DeclareReply::Ok(_) => {
                    let mut plan = i.plan;
                    plan.status = Status::InSync;
                    QueueEntry {
                        plan,
                        result: Some(if existed {
                            DeclareResult::AlreadyInSync
                        } else {
                            DeclareResult::Created
                        }),
                    }
                }
                DeclareReply::Refused { code, text } if code == 405 || code == 406 => {
                    refused = true;
                    let outcome = if code == 405 {
                        ProbeOutcome::Locked(text)
                    } else {
                        ProbeOutcome::Inequivalent(text)
                    };
                    QueueEntry {
                        plan: plan::plan_from_probe(&i.computed, &outcome, session.vhost()),
                        result: Some(DeclareResult::Refused),
                    }
                }
                DeclareReply::Refused { code, text } => {
                    return Err(session.refused("declare", &i.computed.name, code, &text));
                }
            };
            entries.push(entry);
        }
    }
    let plans: Vec<&QueuePlan> = entries.iter().map(|e| &e.plan).collect();
    let status = if plans.iter().any(|p| p.status == Status::Refused) {
        Status::Refused
    } else if plans.iter().any(|p| p.status == Status::Drift) {
        Status::Drift
    } else if plans.iter().any(|p| p.status == Status::Create) {
        // Left uncreated beside a refusal met while declaring.
        Status::Create
    } else {
        Status::InSync
    };
    let remedies = plan::remedies(&plans, session.vhost());
    let code = if matches!(status, Status::Drift | Status::Refused) {
        ExitCode::Drift
    } else {
        ExitCode::Ok
    };
    Ok((
        LogicalPlan {
            name: q.name.clone(),
            listed: true,
            status,
            queues: entries,
            hold_queues: None,
            remedies,
        },
        code,
    ))
}
