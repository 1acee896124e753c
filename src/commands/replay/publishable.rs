//! Whether a copy can be published at all, asked before it is: a copy the broker would refuse
//! by closing the connection (a content header over `frame_max`) or the publisher's channel (a
//! body over `max_message_size`, or a `user_id` property that is another user's while the
//! connection's user lacks the `impersonator` tag) would stop the run, and every rerun at the
//! same place; one its target has no room for, or whose hold queue could not be declared,
//! would be refused there.
//! A copy refused here is not published: its dead letter stays in q.dead (its line, unrecorded,
//! stays to replay), reported as kept with the reason, and the run goes on with the others.
//! Written once for the replay from q.dead and from a file.
//!
//! Where it sits (`replay/mod.rs`): stage 3, asked by each reader before it passes a copy on.

use std::cell::RefCell;

use crate::broker::publish::{Copy, frame_refusal};
use crate::broker::session::Session;
use crate::broker::{message_size, user_id};
use crate::dead::copy_refusal::CopyRefusal;
use crate::dead::target_room::Rooms;
use crate::error::Result;
use crate::settings::ReplaySettings;

/// Why `copy` cannot be published (`None`: it can): its `user_id` (another user's, see
/// `broker::user_id`; `--strip-user-id` drops it from the copies), the frame size, the broker's
/// `max_message_size`, with `--after` its hold queue, then its target's room (with `--after`,
/// the hold queue's and that of the queue it returns to) (`holds` and
/// `rooms` are the run's, see `after` and `admit`).
pub(super) async fn refusal<T>(
    session: &Session,
    settings: &ReplaySettings,
    copy: &Copy<T>,
    holds: &super::after::Holds,
    rooms: &RefCell<Rooms>,
) -> Result<Option<CopyRefusal>> {
    if let Some(why) = user_id_refusal(session, copy.user_id()).await? {
        return Ok(Some(why));
    }
    if let Some(why) = frame_refusal(session, copy).await? {
        return Ok(Some(why));
    }
    if let Some(why) = message_size::refusal(session, copy.body.len()).await? {
        return Ok(Some(why));
    }
    if let Some(why) = super::after::ensure_hold(session, settings, holds, &copy.queue).await? {
        return Ok(Some(why));
    }
    super::admit::admit_with_return(session, settings, rooms, &copy.queue, copy.body.len()).await
}

/// Why a copy carrying `claimed` as its `user_id` would be refused, or `None`.
pub(super) async fn user_id_refusal(
    session: &Session,
    claimed: Option<&str>,
) -> Result<Option<CopyRefusal>> {
    Ok(user_id::refusal(session, claimed)
        .await?
        .map(|refused| CopyRefusal::UserId {
            refused,
            flag: Some("--strip-user-id"),
        }))
}
