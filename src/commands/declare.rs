//! What `queuey declare` and `queuey declare --dry-run` do with one logical queue, once
//! [`super::compare`] has read it: the dry run reports the plan, `declare` acts on it.

use crate::broker::session::{DeclareReply, Session};
use crate::error::{ExitCode, Result};
use crate::live::inspect::Inspected;
use crate::output::topology_report::{DeclareResult, HoldsCheck, LogicalPlan, QueueEntry};
use crate::plan::{self, ProbeOutcome, QueuePlan, Status};
use crate::queue::QueueSettings;

/// `declare --dry-run` for one logical queue: its plan, and exit 4 when it drifted or would be
/// refused.
pub(super) fn dry_run_one(
    q: &QueueSettings,
    inspected: Vec<Inspected>,
    vhost: &str,
) -> (LogicalPlan, ExitCode) {
    let entry = plan_entry(q, inspected, None, vhost);
    let code = exit_code(entry.status);
    (entry, code)
}

/// The exit code of `declare` and its dry run for a logical queue in `status`.
fn exit_code(status: Status) -> ExitCode {
    if matches!(status, Status::Drift | Status::Refused) {
        ExitCode::Drift
    } else {
        ExitCode::Ok
    }
}

/// A logical queue's entry in the report, from its queues' plans (and, for `verify`, its hold
/// queues).
pub(super) fn plan_entry(
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
    let remedies = plan::remedies(&plans.iter().collect::<Vec<_>>(), vhost, q);
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
pub(super) async fn declare_one(
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
    let remedies = plan::remedies(&plans, session.vhost(), q);
    let code = exit_code(status);
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
