//! The room in a replay's target queues (`dead::room` decides; this reads the broker for it),
//! and the refused copies a `reject-publish-dlx` target dead-letters back into q.dead.

use std::cell::RefCell;
use std::collections::HashMap;
use std::time::{Duration, Instant};

use crate::broker::api_objects::LiveQueue;
use crate::broker::peek::{Delivered, Peek};
use crate::broker::session::Session;
use crate::dead::replay::replay_mark;
use crate::dead::report::ReplayReport;
use crate::dead::room::{Check, Known, Room, Rooms};
use crate::error::Result;
use crate::plan::bounds::bounds_of;
use crate::queue::MAX_QUEUE_NAME_BYTES;

/// Whether one more copy of `bytes` to `target` may be published: `None` when it may, else
/// why not (it is not published, and its dead letter stays). Reads the target the first time
/// the run meets it, and counts a full one again when it may have room.
pub(super) async fn admit(
    session: &Session,
    rooms: &RefCell<Rooms>,
    target: &str,
    bytes: usize,
) -> Result<Option<String>> {
    let bytes = u64::try_from(bytes).unwrap_or(u64::MAX);
    loop {
        // Never borrowed across an await: the publish stage reports decisions meanwhile.
        let check = rooms.borrow_mut().check(target, bytes, Instant::now());
        match check {
            Check::Admit => return Ok(None),
            Check::Full(why) => return Ok(Some(why)),
            Check::Learn => {
                let (known, queue_type) = learn(session, target).await?;
                let mut rooms = rooms.borrow_mut();
                rooms.learned(target, known);
                rooms.learned_type(target, queue_type.as_deref());
            }
            Check::Recount => match session.passive_declare(target).await? {
                Some(counts) => rooms.borrow_mut().recounted(
                    target,
                    u64::from(counts.messages_ready),
                    Instant::now(),
                ),
                None => rooms.borrow_mut().learned(target, Known::Missing),
            },
        }
    }
}

/// What a target queue does at its length limit, and how full it is now: its definition and
/// effective policy from the management API, its ready messages by a passive declare (exact;
/// the API's statistics can be seconds old), its ready bytes from the API (the only source);
/// and its type, when the API gave it.
async fn learn(session: &Session, target: &str) -> Result<(Known, Option<String>)> {
    if target.len() > MAX_QUEUE_NAME_BYTES {
        // No such queue can exist; the copy fails on its name.
        return Ok((Known::Missing, None));
    }
    let live = match session.live_queue(target).await {
        Ok(Some(live)) => live,
        Ok(None) => return Ok((Known::Missing, None)),
        Err(e) if e.kind.is_api() => return Ok((Known::Unknown, None)),
        Err(e) => return Err(e),
    };
    let known = bounded(session, target, &live).await?;
    Ok((known, live.queue_type))
}

/// What [`learn`] knows of a queue the API described.
async fn bounded(session: &Session, target: &str, live: &LiveQueue) -> Result<Known> {
    if let Some((online, members)) = live.majority_lost() {
        return Ok(Known::Closed(format!(
            "is a quorum queue with {online} of its {members} members online: it takes no \
             message until a majority ({}) is back",
            members / 2 + 1
        )));
    }
    let Some(bounds) = bounds_of(
        target,
        live.queue_type.as_deref(),
        &live.arguments,
        live.effective_policy_definition.as_ref(),
    ) else {
        return Ok(Known::Unbounded);
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

/// How long a run looks for refused copies coming back into q.dead.
const RETURN_WAIT: Duration = Duration::from_secs(5);

/// Removes from q.dead the refused copies the broker dead-lettered back into it. They arrived
/// behind everything the run read, so the peek reads on, past its end, as many messages as
/// copies are missing, until all are found or [`RETURN_WAIT`] has passed. Each one found (this
/// run's copy, by its run id and copy number, refused: `refused`) is a double of a dead letter
/// that stayed, and is acked; anything else read so is held and returned with the rest.
pub(in crate::commands) async fn remove_returned(
    p: &mut Peek<'_>,
    run: &str,
    refused: &mut HashMap<u64, String>,
    report: &mut ReplayReport,
) -> Result<()> {
    let deadline = Instant::now() + RETURN_WAIT;
    while !refused.is_empty() && Instant::now() < deadline {
        p.read_beyond(refused.len() as u64);
        let mut read_any = false;
        while let Some(Delivered {
            tag,
            mut message,
            last_delivery,
            ..
        }) = p.next().await?
        {
            read_any = true;
            let mine = replay_mark(&message.properties)
                .filter(|(r, _)| *r == run)
                .and_then(|(_, copy)| refused.remove(&copy));
            match mine {
                Some(target) => {
                    p.ack(tag).await?;
                    report.dead_lettered_back(&target);
                }
                None if last_delivery => p.rescue(tag, &mut message).await?,
                None => {}
            }
            if refused.is_empty() {
                break;
            }
        }
        if !refused.is_empty() && !read_any {
            tokio::time::sleep(Duration::from_millis(200)).await;
        }
    }
    Ok(())
}
