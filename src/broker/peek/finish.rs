//! The end of a peek: every held message returned to the queue, then the channel closed
//! ([`Peek::finish`]), and [`with_peek`], which makes sure that end comes whatever happened.
//!
//! Where it sits in the looks (`broker::peek`'s doc): the last step, and `with_peek` the frame
//! around every read.

use std::time::{Duration, Instant};

use lapin::options::BasicNackOptions;

use super::{Peek, PeekOptions, Session};
use crate::error::{Kind, Result};

/// How long a quorum peek that acked deliveries keeps its channel open at most after its last
/// ack or return when nothing proves them passed on to the queue (see [`Peek::finish`]): the
/// channel sends what it held back as soon as the queue's log has taken a few of its commands,
/// which takes milliseconds on a working queue.
const QUORUM_ACKS_GRACE: Duration = Duration::from_millis(500);

impl Peek<'_> {
    /// Returns every held message to the queue in one multiple nack, and closes the channel.
    ///
    /// Before that, with `auto_rescue`, the messages at risk that arrived after the last
    /// rescue (cancelled consumers' late deliveries) are replaced too: on 3.x the nack itself
    /// counts against their limit.
    ///
    /// The broker requeues asynchronously: until it is done a passive declare counts fewer
    /// ready messages, and a `dead replay` started at once would see a shorter queue. So
    /// `finish` waits until the queue counts the returned messages again, at most 10 s plus 1 s
    /// per 10 000 returned (see docs/broker-notes.md, Peeking and requeueing).
    ///
    /// It waits *before* it closes the channel, because on a quorum queue the channel may hold
    /// back acks and returns while 32 or more of its commands wait for the queue's log, and
    /// drops them at its close: the queue then returns acked deliveries as if never acked. So a
    /// quorum peek that acked anything closes its channel only after a proof that the channel
    /// sent what it held: the returns counted ready again (they leave last), or, when nothing is
    /// returned, the queue counting no consumer (a cancelled quorum consumer is counted until
    /// every delivery checked out to it is settled or returned). Without a proof (others consume
    /// the queue, or the returns are not counted in time) the channel stays open
    /// [`QUORUM_ACKS_GRACE`] more. See docs/broker-notes.md, Quorum delivery limits (a channel
    /// may hold acks back).
    pub async fn finish(mut self) -> Result<()> {
        self.end_round().await?;
        // A message no copy can keep (a body over max_message_size) fails the rescue after the
        // others: it is returned all the same, by the nack (free from 4.3), not by a closed
        // channel (which always spends a delivery).
        let rescued = self.rescue_arrived().await;
        let returned = self.outstanding;
        let ready_before = if returned > 0 {
            self.session
                .passive_declare(&self.queue)
                .await
                .ok()
                .flatten()
                .map(|c| u64::from(c.messages_ready))
        } else {
            None
        };
        if self.outstanding > 0 {
            // On a quorum queue, round by round, each nack naming a tag still held (see
            // `HeldTags`; every ack on the channel released its tags), so that they go back in
            // their order, unless a rescue failed part-way (which tags it acked is not known:
            // an acked tag cannot be named). Per-round nacks do not stop acks the channel held
            // back from being dropped at its close: the wait below does (see
            // docs/broker-notes.md, Quorum delivery limits). Otherwise tag 0 with multiple:
            // every outstanding delivery of the channel (the highest tag may have been acked,
            // and RabbitMQ refuses a multiple nack of a tag it does not know: the channel would
            // close, and a closed channel spends a delivery of everything it held).
            // A last nack of tag 0 returns whatever the tags missed (none: a safety net; a
            // nack of tag 0 with nothing held is no error).
            let mut tags = if self.kind.is_quorum() && !self.tags_unsure {
                self.held_tags.lock().returns_counted()
            } else {
                Vec::new()
            };
            tags.push((0, 0));
            // The nacks go in groups, each once the one before is counted ready again: the
            // channel's quorum client holds back commands while 32 or more wait for the log
            // and sends what it held one command per consumer in an order of its own, which
            // would return later rounds first (see docs/broker-notes.md, Quorum delivery
            // limits). The first group is one nack: it also proves sent whatever acks
            // the channel still held. Past a group that is not counted in time (others consume
            // the queue) the rest go at once.
            let (first, rest) = tags.split_at(tags.len().min(1));
            let mut paced = ready_before;
            let mut sent = 0u64;
            for (i, group) in std::iter::once(first).chain(rest.chunks(16)).enumerate() {
                if i > 0
                    && let Some(before) = paced
                    && !self
                        .counted(before + sent, Instant::now() + Duration::from_secs(5))
                        .await
                {
                    paced = None;
                }
                for &(tag, count) in group {
                    self.nack(tag).await?;
                    sent += count;
                }
            }
        }
        // Before the channel closes: the returns counted again, and on a quorum queue the acks
        // sent to it (see above).
        let mut counted = false;
        if let Some(before) = ready_before {
            let deadline = Instant::now() + Duration::from_secs(10 + returned / 10_000);
            counted = self.counted(before + returned, deadline).await;
        }
        if self.kind.is_quorum() && self.acked_any && !counted {
            let deadline = Instant::now() + QUORUM_ACKS_GRACE;
            if !(self.outstanding == 0 && self.no_consumer(deadline).await) {
                tokio::time::sleep_until(deadline.into()).await;
            }
        }
        let _ = self.channel.close(200, "peek done".into()).await;
        self.rescuer.close().await;
        rescued
    }

    /// Returns every held delivery up to `tag` (every one: 0) to the queue.
    async fn nack(&self, tag: u64) -> Result<()> {
        let options = BasicNackOptions {
            multiple: true,
            requeue: true,
        };
        self.channel.basic_nack(tag, options).await.map_err(|e| {
            self.session.amqp_error(
                &e,
                &format!("cannot return the peeked messages of {:?}", self.queue),
            )
        })
    }

    /// Whether the queue counts no consumer by `deadline` (asked every 2 ms): on a quorum queue,
    /// proof that every ack of this peek's cancelled consumers reached the queue (see
    /// [`Peek::finish`]).
    async fn no_consumer(&self, deadline: Instant) -> bool {
        while Instant::now() < deadline {
            match self.session.passive_declare(&self.queue).await {
                Ok(Some(c)) if c.consumers == 0 => return true,
                Ok(Some(_)) => tokio::time::sleep(Duration::from_millis(2)).await,
                _ => return false,
            }
        }
        false
    }

    /// Whether the queue counts at least `ready` ready messages by `deadline` (asked every
    /// 20 ms).
    async fn counted(&self, ready: u64, deadline: Instant) -> bool {
        while Instant::now() < deadline {
            match self.session.passive_declare(&self.queue).await {
                Ok(Some(c)) if u64::from(c.messages_ready) >= ready => return true,
                Ok(Some(_)) => tokio::time::sleep(Duration::from_millis(20)).await,
                _ => return false,
            }
        }
        false
    }
}

/// Runs `f` over a peek, and returns every held message to the queue whatever happened.
pub async fn with_peek<'s, T>(
    session: &'s Session,
    queue: &str,
    options: PeekOptions,
    f: impl AsyncFnOnce(&mut Peek<'s>) -> Result<T>,
) -> Result<T> {
    let mut peek = Peek::open(session, queue, options).await?;
    let result = f(&mut peek).await;
    // A queue that stalls would stall the returns too: what is not returned in a few seconds
    // the broker returns when the connection closes (it was never acked).
    let finished = match &result {
        Err(e) if matches!(e.kind, Kind::Stalled | Kind::NoMajority) => {
            tokio::time::timeout(Duration::from_secs(3), peek.finish())
                .await
                .unwrap_or(Ok(()))
        }
        _ => peek.finish().await,
    };
    let value = result?;
    finished?;
    Ok(value)
}
