//! What a queue that copies are published into does at its length limit, read for a replay or
//! an edit (`dead::target_room` decides, copy by copy, whether one more fits).
//!
//! The queue's type and arguments come from its API object; its effective policy is computed
//! from the vhost's policy listings (`plan::policies`), never taken from the object's
//! `effective_policy_definition`, which shows a new policy only at the queue's next statistics
//! emission (up to 5 s) while the broker enforces it at once. Anything that cannot be read or
//! evaluated makes the limits unknown ([`Known::Unknown`]), never absent.

use std::time::Instant;

use queuey_cli_core::plan::policies::{OperatorPolicies, Unevaluable, effective_definition};
use serde_json::Value;

use crate::broker::api::LiveQueue;
use crate::broker::policies::PolicyListings;
use crate::broker::session::Session;
use crate::dead::target_room::{Known, Room, Unread};
use crate::error::{Kind, Result};
use crate::plan::bounds::bounds_of;
use crate::queue::MAX_QUEUE_NAME_BYTES;

/// What a target queue does at its length limit, and how full it is now: its definition from
/// the management API, its effective policy from the policy listings, its ready messages by a
/// passive declare (exact; the API's statistics can be seconds old), its ready bytes from the
/// API (the only source).
/// With the queue's type, when the API gave it.
pub async fn learn(session: &Session, target: &str) -> Result<(Known, Option<String>)> {
    if target.len() > MAX_QUEUE_NAME_BYTES {
        // No such queue can exist; the copy fails on its name.
        return Ok((Known::Missing, None));
    }
    let live = match session.live_queue(target).await {
        Ok(Some(live)) => live,
        Ok(None) => return Ok((Known::Missing, None)),
        Err(e) if e.kind.is_api() => {
            return Ok((Known::Unknown(Unread::new(unread_why(e.kind))), None));
        }
        Err(e) => return Err(e),
    };
    let known = of_queue(session, target, &live).await?;
    Ok((known, live.queue_type))
}

/// What [`learn`] knows of a queue the API described.
async fn of_queue(session: &Session, target: &str, live: &LiveQueue) -> Result<Known> {
    if let Some((online, members)) = live.majority_lost() {
        return Ok(Known::Closed(format!(
            "is a quorum queue with {online} of its {members} members online: it takes no \
             message until a majority ({}) is back",
            members / 2 + 1
        )));
    }
    let Some(queue_type) = live.queue_type.as_deref() else {
        return Ok(Known::Unknown(Unread::new(
            "the management API did not show its type",
        )));
    };
    let api = session.api().await?;
    let listings = PolicyListings::read(api, session.vhost()).await?;
    let policies = match listings.policies {
        Ok(p) => p,
        // Any management, monitoring or policymaker user may list them (3.10.8 and 4.3.6);
        // one the API refuses gets the effective policy the queue's object shows, seconds old
        // (a policy set in those seconds is not seen: docs/commands/dead-replay.md says so).
        Err(e) if e.kind == Kind::ApiRefused => {
            return bounded(
                session,
                target,
                live,
                live.effective_policy_definition.clone(),
            )
            .await;
        }
        Err(e) => return Ok(Known::Unknown(Unread::new(unread_why(e.kind)))),
    };
    let shown = match &live.effective_policy_definition {
        Some(Value::Object(d)) if live.operator_policy.as_deref().is_some_and(|n| n != "none") => {
            Some(d)
        }
        _ => None,
    };
    // Refused: what the queue last showed of its operator policy bounds the limits instead
    // (see `plan::policies`).
    let operator = match &listings.operators {
        Some(listed) => OperatorPolicies::Listed(listed),
        None => OperatorPolicies::AsShown(shown),
    };
    match effective_definition(target, queue_type, &policies, operator) {
        Ok(d) => bounded(session, target, live, d.map(Value::Object)).await,
        Err(Unevaluable(why)) => Ok(Known::Unknown(Unread::new(why))),
    }
}

/// The target's room under its arguments and the effective policy `policy`.
async fn bounded(
    session: &Session,
    target: &str,
    live: &LiveQueue,
    policy: Option<Value>,
) -> Result<Known> {
    let queue_type = live.queue_type.as_deref();
    // Which of the argument and the policy decides, and what counts against a byte limit,
    // depend on the type and the version (`plan::bounds`); a version the API does not tell is
    // judged as the least known one.
    let version = match session.broker_version().await {
        Ok(v) => v.map(|v| (v.major, v.minor)),
        Err(e) if e.kind.is_api() => None,
        Err(e) => return Err(e),
    };
    let bounds = match bounds_of(
        target,
        queue_type,
        &live.arguments,
        policy.as_ref(),
        version,
    ) {
        Ok(Some(bounds)) => bounds,
        Ok(None) => return Ok(Known::Unbounded),
        Err(Unevaluable(why)) => return Ok(Known::Unknown(Unread::new(why))),
    };
    let Some(counts) = session.passive_declare(target).await? else {
        return Ok(Known::Missing);
    };
    let held = u64::from(counts.messages_ready);
    let bytes = match live.message_bytes_ready {
        Some(b) => Some(b),
        None if held == 0 => Some(0),
        None => None,
    };
    Ok(Known::Bounded(Room::new(
        bounds,
        held,
        bytes,
        Instant::now(),
    )))
}

/// Why the API could not tell, in a few words.
fn unread_why(kind: Kind) -> &'static str {
    if kind == Kind::ApiRefused {
        "the management API refused to show it"
    } else {
        "no management API"
    }
}
