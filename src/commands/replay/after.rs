//! `dead replay --after D`: the copies go to the hold queue the queuey library itself would use
//! for a delay of D, `{target}.deferred.{ttl_ms}`, declared with exactly the library's
//! arguments (`topology::deferred_queue_args`: the TTL, the dead-letter route back to the
//! target, `x-expires` of twice the TTL). When the TTL passes, the broker dead-letters each copy
//! back to its target: the jobs return with no process left running. Everything else is a
//! replay's (confirms, the journal, the filters): the hold queue is just the copies' target.
//!
//! Where it sits (`replay/mod.rs`): stage 2 names the hold queue, stage 3 declares it.

use std::cell::RefCell;
use std::collections::HashMap;
use std::time::{Duration, Instant};

use crate::broker::session::{DeclareReply, Session};
use crate::dead::copy_refusal::CopyRefusal;
use crate::error::{Error, Kind, Result};
use crate::plan::{ComputedQueue, Role};
use crate::settings::ReplaySettings;
use crate::topology::{self, QueueType};

/// The hold queue a copy to `target` waits in, with `--after`; `target` itself without.
pub(super) fn hold_target(settings: &ReplaySettings, target: String) -> String {
    match &settings.after {
        Some(after) => topology::deferred_queue_name(
            &target,
            &settings.queue.options.deferred_suffix,
            after.ttl_ms,
        ),
        None => target,
    }
}

/// What a run knows of each hold queue it copies into: why copies may not go there (`None`:
/// they may), and when it last declared it.
pub(super) type Holds = RefCell<HashMap<String, (Option<CopyRefusal>, Instant)>>;

/// Before a copy into a hold queue of this run: the first time, checks that the queue its
/// copies return to exists (the broker drops a message it dead-letters to a missing queue:
/// without it, the copies would be lost when their delay ends), then declares the hold queue
/// with the library's arguments (a declare of an existing equivalent queue changes nothing and
/// renews its `x-expires` lease). Publishing does not renew that lease: the queue expires twice
/// its delay after the last declare, publishes or not, and a copy sent to it then is returned
/// unroutable. So, as the library declares it before every publish, the run declares it again
/// once half its delay has passed since the last time. `None` when copies may go; else why not
/// (the dead letters stay). Without `--after`, and in a dry run, nothing is declared.
pub(super) async fn ensure_hold(
    session: &Session,
    settings: &ReplaySettings,
    declared: &Holds,
    hold: &str,
) -> Result<Option<CopyRefusal>> {
    let Some(after) = &settings.after else {
        return Ok(None);
    };
    if settings.dry_run {
        return Ok(None);
    }
    let renew_after = Duration::from_millis(u64::from(after.ttl_ms) / 2);
    if let Some((known, at)) = declared.borrow().get(hold)
        && (known.is_some() || at.elapsed() < renew_after)
    {
        return Ok(known.clone());
    }
    let Some(target) = returns_to(settings, hold) else {
        return Err(Error::internal(format!(
            "{hold:?} is not a hold queue of this run"
        )));
    };
    if target_exists(session, target).await == Some(false) {
        let why = CopyRefusal::ReturnQueueMissing {
            queue: target.to_owned(),
        };
        declared
            .borrow_mut()
            .insert(hold.to_owned(), (Some(why.clone()), Instant::now()));
        return Ok(Some(why));
    }
    let computed = ComputedQueue {
        name: hold.to_owned(),
        logical: target.to_owned(),
        role: Role::Hold,
        queue_type: QueueType::Classic,
        durable: true,
        arguments: topology::deferred_queue_args(target, after.ttl_ms),
    };
    let verdict = match session.declare(&computed).await? {
        DeclareReply::Ok(_) => None,
        DeclareReply::Refused { code: 403, text } => {
            return Err(Error::new(
                Kind::AccessRefused,
                format!(
                    "the broker refused to declare the hold queue {hold:?} in vhost {:?}: {text}",
                    session.vhost()
                ),
            )
            .with_hint(
                "--after declares the hold queue as the library does, which needs the configure \
                 permission on it",
            ));
        }
        DeclareReply::Refused { code, text } => Some(CopyRefusal::HoldQueueDrift {
            hold: hold.to_owned(),
            code,
            text,
        }),
    };
    declared
        .borrow_mut()
        .insert(hold.to_owned(), (verdict.clone(), Instant::now()));
    Ok(verdict)
}

/// The queue a copy waiting in `hold` returns to (`None` without `--after`).
pub(super) fn returns_to<'h>(settings: &ReplaySettings, hold: &'h str) -> Option<&'h str> {
    let after = settings.after.as_ref()?;
    hold.strip_suffix(&format!(
        "{}.{}",
        settings.queue.options.deferred_suffix, after.ttl_ms
    ))
}

/// Whether `queue` exists: the management API, else a passive declare (the name is a work
/// queue's, with no `x-expires` lease to renew). `None` when neither can tell.
pub(super) async fn target_exists(session: &Session, queue: &str) -> Option<bool> {
    match session.live_queue(queue).await {
        Ok(found) => Some(found.is_some()),
        Err(_) => session
            .passive_declare(queue)
            .await
            .ok()
            .map(|c| c.is_some()),
    }
}
