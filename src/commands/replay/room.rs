//! The room in a replay's target queues (`dead::room` decides; this reads the broker for it),
//! and the refused copies a `reject-publish-dlx` target dead-letters back into q.dead.

use std::cell::RefCell;
use std::collections::HashMap;
use std::time::{Duration, Instant};

use crate::broker::peek::{Delivered, Peek};
use crate::broker::session::Session;
use crate::dead::replay::replay_mark;
use crate::dead::report::ReplayReport;
use crate::dead::room::{Check, Known, Rooms};
use crate::error::Result;
use crate::settings::ReplaySettings;

/// Whether one more copy of `bytes` to `to` may be published (see [`admit`]); with `--after`,
/// `to` is a hold queue and the queue its copies return to is asked first: the copy lands there
/// by dead-lettering when its delay ends, and what that queue does at its limit then (push out
/// its oldest job, or drop the copy) no client is told. Its room is judged now, with every copy
/// the run sent on its way counted as held there.
pub(super) async fn admit_with_return(
    session: &Session,
    s: &ReplaySettings,
    rooms: &RefCell<Rooms>,
    to: &str,
    bytes: usize,
) -> Result<Option<String>> {
    if let Some(back) = super::after::returns_to(s, to)
        && let Some(why) = admit(session, rooms, back, bytes).await?
    {
        return Ok(Some(format!("where the copy would return: {why}")));
    }
    admit(session, rooms, to, bytes).await
}

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
                let (known, queue_type) = crate::broker::limits::learn(session, target).await?;
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
