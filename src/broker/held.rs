//! What other consumers hold of a queue: deliveries they have not acked, which no read of
//! the queue can reach (a lost connection's consumer, another tool), reported so that a run
//! that leaves them is never a success (exit 3).

use super::session::{QueueCounts, Session};
use crate::dead::peek::HeldElsewhere;

/// What others hold of `queue` now, for work that reads nothing (a whole-queue purge): see
/// [`held_elsewhere`]. `None` without the management API.
pub async fn held_by_others(session: &Session, queue: &str) -> Option<HeldElsewhere> {
    let live = session.live_queue(queue).await.ok().flatten()?;
    let exact = session.passive_declare(queue).await.ok().flatten()?;
    held_elsewhere(live.messages_unacknowledged, exact)
}

/// What others hold of `queue` (see [`HeldElsewhere`]): the management API's count of
/// unacknowledged messages, when the queue has consumers (an exact count: a passive declare).
///
/// The API's statistics are seconds old: right after a look or a replay they still count the
/// deliveries its end returned or acked. With no consumer there they are such a stale picture
/// (deliveries are held by consumers; a lost connection's consumers stay registered until the
/// broker notices, and are counted), or deliveries of `basic.get` that a tool holds, which no
/// count tells apart from a stale one: queuey does not report those, rather than make every
/// command after a replay wait for fresh statistics.
pub fn held_elsewhere(unacked: Option<u64>, exact: QueueCounts) -> Option<HeldElsewhere> {
    let unacked = unacked?;
    (unacked > 0 && exact.consumers > 0).then_some(HeldElsewhere {
        messages: unacked,
        consumers: exact.consumers,
    })
}
