//! What `queuey verify` does with one logical queue, once [`super::compare`] has read it:
//! its queues and (through the management API) its live hold queues checked against the
//! settings; exit 0 in sync, 4 on drift, 6 when only AMQP could be read (nothing vouched for).

use super::declare::plan_entry;
use crate::error::{ExitCode, Result};
use crate::live::inspect::{Inspected, Inspector};
use crate::output::topology_report::{HoldsCheck, LogicalPlan};
use crate::plan::{self, HoldPlan, Status};
use crate::queue::QueueSettings;

/// `verify` for one logical queue.
pub(super) async fn verify_one(
    inspector: &Inspector<'_>,
    q: &QueueSettings,
    inspected: Vec<Inspected>,
    vhost: &str,
) -> Result<(LogicalPlan, ExitCode)> {
    let holds = if inspector.uses_api() {
        Some(check_holds(inspector, q).await?)
    } else {
        None
    };
    let entry = plan_entry(q, inspected, holds, vhost);
    let code = match entry.status {
        Status::InSync => ExitCode::Ok,
        // Without the API's arguments verify cannot vouch for anything.
        Status::Unchecked => ExitCode::Api,
        Status::Create | Status::Drift | Status::Refused => ExitCode::Drift,
    };
    Ok((entry, code))
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
