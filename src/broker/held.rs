//! What other consumers hold of a queue: deliveries they have not acked, which no read of
//! the queue can reach (a lost connection's consumer, another tool), reported so that a run
//! that leaves them is never a success (exit 3).

use super::session::{QueueCounts, Session};
use crate::dead::peek::HeldElsewhere;

/// What others hold of `queue` now, for work that reads nothing (a whole-queue purge): see
/// [`held_elsewhere`]. `None` when the queue does not answer a passive declare.
pub async fn held_by_others(session: &Session, queue: &str) -> Option<HeldElsewhere> {
    let live = session.live_queue(queue).await.ok().flatten();
    let exact = session.passive_declare(queue).await.ok().flatten()?;
    held_elsewhere(live.and_then(|l| l.messages_unacknowledged), exact)
}

/// What others hold of `queue` (see [`HeldElsewhere`]): when the queue has consumers (an exact
/// count: a passive declare), the management API's count of unacknowledged messages, if it
/// counts any.
///
/// A consumer of a dead-letter queue is another tool, a worker pointed at it by mistake, or a
/// lost connection's consumer the broker has not noticed yet: whatever it holds, no read of
/// the queue reaches, and the ready count a run starts from leaves it out. The API's count is
/// seconds old (a consumer that took messages a moment ago is not in it yet: seen, a look
/// 2 s after another consumer took 10 called itself complete), so a consumer alone makes a run
/// incomplete, the count saying how many when the API knows.
///
/// Without a consumer, unacknowledged messages in the API's statistics are a stale picture
/// (right after a look or a replay they still count the deliveries its end returned or
/// acked), or deliveries of `basic.get` that a tool holds, which no count tells apart from a
/// stale one: queuey does not report those, rather than make every command after a replay
/// wait for fresh statistics.
pub fn held_elsewhere(unacked: Option<u64>, exact: QueueCounts) -> Option<HeldElsewhere> {
    (exact.consumers > 0).then_some(HeldElsewhere {
        messages: unacked.filter(|n| *n > 0),
        consumers: exact.consumers,
    })
}
