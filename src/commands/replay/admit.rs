//! Whether each copy may be published to its target queue for the room there
//! (`dead::target_room` decides; this reads the broker for it).
//!
//! Where it sits (`replay/mod.rs`): stage 3, the last check `publishable.rs` makes.

use std::cell::RefCell;
use std::time::Instant;

use crate::broker::session::Session;
use crate::dead::copy_refusal::CopyRefusal;
use crate::dead::target_room::{Check, Known, Rooms};
use crate::error::Result;
use crate::settings::ReplaySettings;

/// Whether one more copy of `bytes` to `to` may be published (see [`admit`]); with `--after`,
/// `to` is a hold queue and the queue its copies return to is asked first: the copy lands there
/// by dead-lettering when its delay ends, and what that queue does at its limit then (push out
/// its oldest job, or drop the copy) no client is told. Its room is judged now, with every copy
/// the run sent on its way counted as held there.
pub(super) async fn admit_with_return(
    session: &Session,
    settings: &ReplaySettings,
    rooms: &RefCell<Rooms>,
    to: &str,
    bytes: usize,
) -> Result<Option<CopyRefusal>> {
    if let Some(back) = super::after::returns_to(settings, to)
        && let Some(why) = admit(session, rooms, back, bytes).await?
    {
        return Ok(Some(CopyRefusal::WhereItReturns(Box::new(why))));
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
) -> Result<Option<CopyRefusal>> {
    let bytes = u64::try_from(bytes).unwrap_or(u64::MAX);
    loop {
        // Never borrowed across an await: the publish stage reports decisions meanwhile.
        let check = rooms.borrow_mut().check(target, bytes, Instant::now());
        match check {
            Check::Admit => return Ok(None),
            Check::Full(why) => return Ok(Some(CopyRefusal::NoRoom(why))),
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
