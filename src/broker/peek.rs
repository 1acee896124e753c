//! Reading a queue without taking anything out of it: the peek behind `dead ls`, `dead show`
//! and `dead export` (the looks), and the first half of `dead replay` and `dead purge`. This is
//! the looks' flow entry: read this doc first, then the files in the order it names them.
//!
//! **What enters.** A look (`commands/look.rs`) brings the logical queue, the filters, `--limit`
//! (show: a position or a message id) and [`PeekOptions`]: `--window` (4000), a 64 MiB byte
//! budget, `--spend-delivery-budget`, `--assume-classic`, `--quorum-at-risk` (2048),
//! `--retry-unreadable`, and `auto_rescue` (on for the looks).
//!
//! **The path, in the order data flows:** `commands/look.rs` -> `live::unreadable`
//! (`with_dead_peek`: a quorum q.dead marked as holding a message queuey cannot parse is not
//! read again) -> `peek/finish.rs` (`with_peek`: whatever happens, the peek ends) ->
//! [`Peek::open`] (`queue_kind.rs` reads the type, the delivery limit and the version first)
//! -> [`Peek::next`], round by round -> `live::scan::next_matching` (decode and filter; show
//! reads `Peek::next` itself) -> the output (`output::dead_letters`, `output::show`, export
//! lines) -> [`Peek::finish`].
//!
//! **The window.** AMQP 0-9-1 has no non-destructive read: a peek consumes with manual acks and
//! holds every delivery unacknowledged. Memory is bounded by rounds, not by the queue:
//! consumers are chained on one channel, each with a prefetch of one round; once a round has
//! arrived its consumer is cancelled (its deliveries stay held) and the next one receives the
//! next round. [`RoundSizer`] sizes each round: one message first, then at most the byte budget
//! (half of it while two rounds are in flight) over the largest body seen, at most twice the
//! round before, at most `--window`. On a quorum
//! queue the next round is asked for behind the current one at a lower consumer priority, and
//! the replies to a consume or a cancel are read later (see `Peek::fetch`).
//!
//! **The quorum delivery budget** (docs/broker-notes.md, Quorum delivery limits). On a quorum
//! queue with a delivery limit (argument or policy; 20 by default from 4.0):
//! - a delivery held when its channel closes (queuey killed, the connection lost) is returned
//!   *and counted* against the limit, on every version; a `basic.nack` with requeue is counted
//!   too before RabbitMQ 4.3, free from 4.3. So before 4.3 a look is refused unless the operator
//!   passes `--spend-delivery-budget`.
//! - a message whose next counted return would end it ([`at_risk`]) is replaced as soon as it
//!   arrives (`auto_rescue`): a confirmed copy is published to the queue, then the original is
//!   acked. Nothing is lost; that message changes its place. At most `--quorum-at-risk`
//!   deliveries at risk are exposed to a crash (rounds are half as big, see
//!   [`QueueKind::round_cap`]). Replay and purge rescue what they keep themselves.
//!
//! **What is returned when.** Nothing goes back while the look reads: the held deliveries are
//! returned at its end, in [`Peek::finish`], with one multiple nack (one per round on a quorum
//! queue), and the end waits until the queue counts them ready again. On a classic queue each
//! goes back to its place, the queue unchanged but for the `redelivered` flag. A quorum queue
//! returns them to its back on 3.x, to its head on 4.x; one multiple nack keeps the order of up
//! to 32 messages (docs/broker-notes.md, Peeking and requeueing). Messages published during the
//! look land behind the held ones and are not read; they end up ahead of the peeked ones on
//! 3.x, behind them on 4.x. (Returning round by round would bound what a crash holds, but on 4.x
//! the returned round would be delivered again at once: a peek must hold what it read to read
//! further.)
//!
//! **Where it can stop.** Every peek ends: after the number of messages the queue held when it
//! began (`Peek::target`), or earlier when the look has what it wants (`--limit`, show's
//! message), or when the queue runs dry (another consumer took messages). Then:
//! - a stop signal (`crate::signals`) ends it at once, even while the broker is silent; the look
//!   says how far it read, everything held goes back, exit 130 (an export file's end line says
//!   it is incomplete);
//! - an error (a lost connection, a stall past `--timeout` or 60 s without a delivery, a quorum
//!   queue that loses its majority, a message lapin cannot parse): `with_peek` still returns
//!   what it can; what it cannot, the broker returns when the channel closes, which on a quorum
//!   queue with a limit spends a delivery of each (and leaves the unreadable mark, see
//!   `live::unreadable`);
//! - messages other consumers hold cannot be read: said, and ls and export exit 3
//!   ([`held_elsewhere`]).

use std::collections::VecDeque;
use std::future::Future;
use std::pin::Pin;
use std::task::Poll;
use std::time::{Duration, Instant};

use futures_util::{Stream, StreamExt};
use lapin::options::{BasicAckOptions, BasicCancelOptions, BasicConsumeOptions, BasicQosOptions};
use lapin::types::{AMQPValue, FieldTable};
use lapin::{Channel, Consumer};

use super::acker::{Acker, Rescuer, SharedTags};
use super::convert::message_from_delivery;
pub use super::queue_kind::{QueueKind, queue_kind};
use super::session::{QueueCounts, Session};
use crate::dead::decode::Message;
pub use crate::dead::peek::at_risk;
use crate::dead::peek::{HeldElsewhere, PeekOptions, RoundSizer};
use crate::error::{Error, Kind, Result};
use crate::signals::StopFlag;

mod finish;
pub use finish::with_peek;

/// The consumer priority of a quorum peek's first round (each next round's is one lower):
/// above the default of 0 that any other consumer has.
const ROUND_PRIORITY: i32 = 1 << 30;

/// One message a peek holds: its position in the queue when the peek began (1 is the head),
/// its delivery tag on the peek's channel, and the message.
pub struct Delivered {
    pub position: u64,
    pub tag: u64,
    pub message: Message,
    /// A quorum message whose next counted return would end it, still held. With
    /// `auto_rescue` the peek has already replaced it by a fresh copy (and this is `false`);
    /// otherwise a caller that keeps it must hand it to a [`Rescuer`].
    pub last_delivery: bool,
}

/// What waiting for a delivery gave.
// Boxing the delivery would cost an allocation per message; `Over` comes once.
#[allow(clippy::large_enum_variant)]
enum Waited {
    Delivery(lapin::message::Delivery),
    /// The rounds were ended to learn whether the queue ran dry, and deliveries were still on
    /// their way: they are held in `arrived`, and the peek goes on.
    Drained,
    /// The queue ran dry or a stop signal came; the round is ended.
    Over,
}

/// What ending the rounds to learn whether the queue ran dry found (see [`Peek::dry`]).
enum Dryness {
    /// Deliveries were on their way: held now.
    Drained,
    /// The cancel returned messages the broker had checked out to the peek: a new round waits
    /// for them.
    Returned(u32),
    Dry,
}

/// A delivery taken from the broker and not yet handed to the caller.
struct Arrived {
    tag: u64,
    message: Message,
    /// Replaced by a copy already (`auto_rescue`): the tag is acked.
    rescued: bool,
}

/// A peek in progress over one queue.
pub struct Peek<'a> {
    session: &'a Session,
    queue: String,
    channel: Channel,
    options: PeekOptions,
    pub kind: QueueKind,
    /// Messages the peek will read at most (the queue's depth when it began).
    pub target: u64,
    /// What others held of the queue when the peek began.
    pub held_elsewhere: Option<HeldElsewhere>,
    /// Deliveries handed to the caller.
    received: u64,
    /// Deliveries taken from the broker (handed on or waiting in `arrived`).
    fetched: u64,
    consumer: Option<Consumer>,
    /// Rounds asked for behind the current one, their `consume-ok` not read yet, each with its
    /// prefetch: on a quorum queue one round waits there, at a lower consumer priority, so
    /// that the broker delivers to it the moment the current round has all it may take.
    ahead: VecDeque<(Sent<'a, Consumer>, u64)>,
    /// Rounds asked for so far: each gets a lower consumer priority than the one before.
    rounds_asked: u32,
    /// The last round's consumer, cancelled and its `cancel-ok` not read yet: its stream ends
    /// with whatever the broker delivered to it before the cancel.
    cancelling: Option<(Sent<'a, ()>, Consumer, u32)>,
    /// The round of the current consumer (counted from 0 as they become current).
    round: u32,
    /// On a quorum queue, the delivery tags held, by round, to return them in their order
    /// ([`HeldTags`](crate::dead::requeue_order::HeldTags)); unused when `tags_unsure`. Shared
    /// with the [`Acker`]s of the channel, which release the tags they ack.
    held_tags: SharedTags,
    /// Some delivery may be acked where the peek cannot tell which (a rescue that failed
    /// part-way): the held deliveries are returned by one `basic.nack(0, multiple)`, which
    /// names no tag the broker may not know (and may reorder a quorum queue's). Every other
    /// ack (rescues, [`Peek::ack`], an [`Acker`]'s) releases its tags from `held_tags`, and
    /// the rest still go back round by round.
    tags_unsure: bool,
    /// Some delivery was acked on the channel: on a quorum queue the channel may still hold
    /// the ack back from the queue when the peek ends (see [`Peek::finish`]).
    acked_any: bool,
    /// The prefetch the channel gives its next consumer (`basic.qos` is sent when it changes).
    prefetch_set: Option<u16>,
    round_left: u64,
    /// Sizes each round by the bodies that arrived (see [`RoundSizer`]).
    sizer: RoundSizer,
    /// Deliveries held and not acked.
    outstanding: u64,
    /// Deliveries taken from the broker and not yet handed on, in delivery order.
    arrived: VecDeque<Arrived>,
    stop: Option<StopFlag>,
    interrupted: bool,
    /// Republishes messages on their last delivery instead of returning them.
    pub rescuer: Rescuer<'a>,
}

impl<'a> Peek<'a> {
    /// Starts a peek of `queue`: checks that it exists, learns its kind, refuses what would
    /// cost messages, and opens the channel that will hold the deliveries.
    pub async fn open(session: &'a Session, queue: &str, options: PeekOptions) -> Result<Peek<'a>> {
        let kind = queue_kind(session, queue, &options).await?;
        let counts = session
            .passive_declare(queue)
            .await?
            .ok_or_else(|| session.queue_not_found(queue))?;
        let mut target = u64::from(counts.messages_ready);
        if let Some(max) = options.max_messages {
            target = target.min(max);
        }
        let held_elsewhere = held_elsewhere(kind.unacked, counts);
        let channel = session.channel().await?;
        Ok(Peek {
            session,
            queue: queue.to_owned(),
            channel,
            held_elsewhere,
            sizer: RoundSizer::new(
                options.byte_budget,
                u64::from(kind.round_cap(&options)),
                kind.is_quorum(),
            ),
            options,
            kind,
            target,
            received: 0,
            fetched: 0,
            consumer: None,
            ahead: VecDeque::new(),
            rounds_asked: 0,
            cancelling: None,
            round: 0,
            held_tags: SharedTags::default(),
            tags_unsure: false,
            acked_any: false,
            prefetch_set: None,
            round_left: 0,
            outstanding: 0,
            arrived: VecDeque::new(),
            stop: None,
            interrupted: false,
            rescuer: Rescuer::new(session, queue),
        })
    }

    /// Ends the peek early, as if the queue had ended, once `stop` is set: [`Peek::next`]
    /// then answers `None` and [`Peek::interrupted`] says why.
    pub fn stop_on(&mut self, stop: &StopFlag) {
        self.stop = Some(stop.clone());
    }

    /// Whether a stop signal ended the peek before it read what it meant to.
    pub fn interrupted(&self) -> bool {
        self.interrupted
    }

    pub fn received(&self) -> u64 {
        self.received
    }

    /// Deliveries taken from the broker so far (handed on or not yet).
    pub fn fetched(&self) -> u64 {
        self.fetched
    }

    /// The queue this peek reads.
    pub fn queue_name(&self) -> &str {
        &self.queue
    }

    /// On a queue where a crash spends deliveries: the most deliveries at risk that may have
    /// arrived and not yet been replaced by copies (see [`QueueKind::exposure`]).
    pub fn exposure(&self) -> u64 {
        u64::from(self.kind.exposure(&self.options))
    }

    /// Reads `n` more messages than the peek meant to: the copies it republished to the back of
    /// the queue in the meantime (see `dead replay`'s messages on their last delivery).
    pub fn read_renewed(&mut self, n: u64) {
        self.target = self.target.saturating_add(n);
    }

    /// Reads up to `n` messages more than the queue held when the peek began (and whatever of
    /// that it has not read yet): messages that arrived since, behind the held ones. A replay
    /// looks there for its refused copies that the broker dead-lettered back. The peek still
    /// ends when the queue runs dry.
    pub fn read_arrived_since(&mut self, n: u64) {
        self.target = self.target.max(self.fetched).saturating_add(n);
    }

    /// The next message, or `None` when the peek has read what the queue held when it began
    /// (or the queue ran dry because someone else consumed, or a stop signal came).
    pub async fn next(&mut self) -> Result<Option<Delivered>> {
        if self.received >= self.target {
            self.end_round().await?;
            return Ok(None);
        }
        if self.stop.as_ref().is_some_and(StopFlag::is_set) {
            self.interrupted = true;
            return Ok(None);
        }
        if self.arrived.is_empty() && !self.fetch().await? {
            return Ok(None);
        }
        let Some(a) = self.arrived.pop_front() else {
            return Err(Error::internal("peek: nothing arrived"));
        };
        Ok(Some(self.serve(a)))
    }

    /// Takes what the broker has sent (at least one delivery, waiting for it), then replaces
    /// the messages at risk among them. `false` when the peek is over instead: the queue ran
    /// dry, or a stop signal came.
    ///
    /// On a quorum queue a round is taken whole, and its consumer cancelled, before any of it
    /// is handed on: a quorum queue may deliver to a consumer after its `cancel-ok` when an
    /// ack gave that consumer credit again, and lapin drops a delivery for a consumer it no
    /// longer knows, so that message would be held unseen, and the peek's final return would
    /// spend its delivery (see docs/broker-notes.md, lapin). Nothing
    /// acks a delivery of a live consumer then. The next round starts at once, so that it
    /// arrives while this one is read.
    ///
    /// The next round is asked for before this one is read, behind it (see
    /// [`Peek::ask_round`]), and nothing waits for the broker's replies: the cancel's frame is
    /// sent before the round is handed on (so every ack of it reaches the broker after the
    /// cancel, and gives the cancelled consumer no credit), and the replies are read at the
    /// next fetch, by when they have long arrived. A consume and a cancel are each a command
    /// of a quorum queue's log: awaited in turn, they held the read up twice a round
    /// (docs/benchmarks.md: a replay from a quorum q.dead on 4.3.6 went from 0.40x the
    /// broker's in-process shovel to 0.50x, level with the same shovel over a network).
    async fn fetch(&mut self) -> Result<bool> {
        let whole_rounds = self.kind.is_quorum();
        if whole_rounds {
            self.settle_cancel().await?;
            if !self.arrived.is_empty() {
                // The cancelled consumer's last deliveries, sent before its cancel-ok.
                self.rescue_arrived().await?;
                return Ok(true);
            }
            self.await_round().await?;
        }
        if self.consumer.is_none() {
            self.start_round().await?;
        }
        if whole_rounds && self.ahead.is_empty() && !self.interrupted && self.sizer.may_ask_ahead()
        {
            self.ask_round().await?;
        }
        let started = Instant::now();
        match self.wait_delivery(started).await? {
            Waited::Delivery(d) => self.take(d).await?,
            // Over with nothing held: `Peek::dry` holds what was on its way before it says so.
            Waited::Over if self.arrived.is_empty() => return Ok(false),
            Waited::Drained | Waited::Over => {}
        }
        if whole_rounds {
            while self.consumer.is_some() {
                match self.wait_delivery(started).await? {
                    Waited::Delivery(d) => self.take(d).await?,
                    // Ran dry or stopped: what arrived is served (or returned) all the same.
                    Waited::Drained | Waited::Over => break,
                }
            }
            if !self.interrupted && self.consumer.is_none() && self.ahead.is_empty() {
                self.ask_round().await?;
            }
        } else {
            // And whatever else is already here, up to the end of the round.
            while let Some(consumer) = self.consumer.as_mut() {
                match ready_next(consumer).await {
                    Some(Some(Ok(delivery))) => self.take(delivery).await?,
                    Some(Some(Err(e))) => {
                        return Err(self.session.amqp_error(&e, &self.lost_context()));
                    }
                    Some(None) | None => break,
                }
            }
        }
        self.rescue_arrived().await?;
        Ok(true)
    }

    /// The next delivery of the current round, waiting for it while watching for a stop
    /// signal and for a queue that runs dry (another consumer took what was counted at the
    /// start: then the peek's target shrinks to what it has and the round ends).
    async fn wait_delivery(&mut self, started: Instant) -> Result<Waited> {
        let stall_limit = Duration::from_secs(60);
        let stop = self.stop.clone();
        let silent_since = Instant::now();
        loop {
            let Some(consumer) = self.consumer.as_mut() else {
                return Err(Error::internal("peek: no consumer"));
            };
            // Most deliveries are already buffered: take them without arming a timer.
            let next = match ready_next(consumer).await {
                Some(item) => Some(item),
                None => {
                    let wait = tokio::time::timeout(Duration::from_millis(1500), consumer.next());
                    tokio::select! {
                        r = wait => r.ok(),
                        () = async {
                            match &stop {
                                Some(s) => s.stopped().await,
                                None => std::future::pending().await,
                            }
                        } => {
                            self.interrupted = true;
                            self.end_round().await?;
                            return Ok(Waited::Over);
                        }
                    }
                }
            };
            match next {
                Some(Some(Ok(delivery))) => return Ok(Waited::Delivery(delivery)),
                Some(Some(Err(e))) => {
                    return Err(self.session.amqp_error(&e, &self.lost_context()));
                }
                Some(None) => {
                    return Err(Error::new(
                        Kind::BrokerRefused,
                        format!(
                            "the broker cancelled queuey's consumer on queue {:?} (was it deleted?)",
                            self.queue
                        ),
                    ));
                }
                None => {
                    // Nothing for a while. A quorum queue that lost its majority meanwhile
                    // delivers nothing and, about a minute later, closes the connection: the
                    // management API tells it at once.
                    if self.kind.is_quorum()
                        && let Ok(Some(live)) = self.session.live_queue(&self.queue).await
                        && let Some((online, members)) = live.majority_lost()
                    {
                        return Err(live.no_majority_error(self.session.vhost(), online, members));
                    }
                    // Has the queue run dry? Ready messages exclude the ones we hold.
                    let mut ready = self.count_ready().await?;
                    if ready == 0 && silent_since.elapsed() >= self.dry_after() {
                        match self.dry().await? {
                            Dryness::Drained => return Ok(Waited::Drained),
                            Dryness::Returned(n) => ready = n,
                            Dryness::Dry => {
                                self.target = self.fetched;
                                return Ok(Waited::Over);
                            }
                        }
                    }
                    let what = format!("waiting for deliveries from {:?}", self.queue);
                    self.session.timeout_check(&what, started)?;
                    if started.elapsed() > stall_limit {
                        return Err(Error::new(
                            Kind::BrokerRefused,
                            format!(
                                "the broker stopped delivering from queue {:?} ({ready} messages ready)",
                                self.queue
                            ),
                        ));
                    }
                }
            }
        }
    }

    /// The queue's ready messages (those not delivered to any consumer). The count asks the
    /// queue's leader, which may be the node that stalls.
    async fn count_ready(&self) -> Result<u32> {
        let what = format!("counting the messages of {:?}", self.queue);
        let count = self.session.passive_declare(&self.queue);
        Ok(
            (self.session.owed(&what, &[&self.queue], count).await?)
                .map_or(0, |c| c.messages_ready),
        )
    }

    /// How long the broker must have delivered nothing to a peek, with no message ready,
    /// before [`Peek::dry`] ends the rounds to learn whether the queue ran dry. On a quorum
    /// queue a cancel does not settle everything: messages the broker had checked out to the
    /// cancelled consumer and not yet sent stay with it until the channel closes, and the peek
    /// would take its checked-out round for a dry queue (see docs/broker-notes.md, Peeking and
    /// requeueing). So there the broker is given longer to send what it checked out; the
    /// rounds' sizes ([`RoundSizer`]) keep what it has to read for one round to 32 MiB.
    fn dry_after(&self) -> Duration {
        if self.kind.is_quorum() {
            Duration::from_secs(10)
        } else {
            Duration::ZERO
        }
    }

    /// Whether a queue that counts no ready message has run dry. The count proves nothing
    /// while messages are checked out to this peek's consumers and on their way: a quorum
    /// queue on 3.10 hands a consumer its whole prefetch at once, and with big bodies read
    /// from disk the first delivery can take seconds (see docs/broker-notes.md, Peeking and
    /// requeueing). So every round is ended first,
    /// and what was delivered before the broker's `cancel-ok` is held: if anything came, the
    /// queue did not run dry. If nothing came and the queue counts ready messages again, the
    /// cancel returned what was checked out, and a new round asks for it. Else the queue ran
    /// dry: proven on a classic queue, whose cancel leaves nothing checked out; on a quorum
    /// queue only as far as [`Peek::dry_after`]'s wait goes.
    async fn dry(&mut self) -> Result<Dryness> {
        let fetched = self.fetched;
        self.end_round().await?;
        if self.fetched > fetched {
            return Ok(Dryness::Drained);
        }
        match self.count_ready().await? {
            0 => Ok(Dryness::Dry),
            ready => {
                self.start_round().await?;
                Ok(Dryness::Returned(ready))
            }
        }
    }

    /// What an error that ends the peek interrupted: the queue, and how far it had read (the
    /// message that lapin could not parse, if that is the error, is the next one).
    fn lost_context(&self) -> String {
        format!(
            "lost the peek of queue {:?} after {}",
            self.queue,
            crate::output::plural(self.fetched, "delivery")
        )
    }

    /// Records one delivery of the current round; ends the round when it is complete.
    async fn take(&mut self, delivery: lapin::message::Delivery) -> Result<()> {
        self.hold(delivery, self.round);
        self.round_left = self.round_left.saturating_sub(1);
        if self.round_left == 0 {
            if self.kind.is_quorum() {
                self.cancel_round().await?;
            } else {
                self.end_round().await?;
            }
        }
        Ok(())
    }

    /// Holds a delivery taken from the broker, to hand on in its turn.
    fn hold(&mut self, delivery: lapin::message::Delivery, round: u32) {
        let (tag, message) = message_from_delivery(delivery);
        if self.kind.is_quorum() {
            self.held_tags.lock().hold(round, tag);
        }
        self.sizer.weigh(message.body.len());
        self.outstanding += 1;
        self.fetched += 1;
        self.arrived.push_back(Arrived {
            tag,
            message,
            rescued: false,
        });
    }

    /// With `auto_rescue`: replaces every arrived message at risk by a confirmed copy, in one
    /// batch.
    async fn rescue_arrived(&mut self) -> Result<()> {
        if !self.options.auto_rescue || !self.kind.closes_count {
            return Ok(());
        }
        let limit = self.kind.delivery_limit;
        let mut batch: Vec<(u64, &mut Message)> = self
            .arrived
            .iter_mut()
            .filter(|a| !a.rescued && at_risk(&a.message, limit))
            .map(|a| (a.tag, &mut a.message))
            .collect();
        if batch.is_empty() {
            return Ok(());
        }
        let n = batch.len() as u64;
        let tags: Vec<u64> = batch.iter().map(|(tag, _)| *tag).collect();
        self.acked_any = true;
        if let Err(e) = self.rescuer.rescue_batch(&self.channel, &mut batch).await {
            // Some of the batch may be acked: which, the peek cannot tell.
            self.tags_unsure = true;
            return Err(e);
        }
        drop(batch);
        let mut held = self.held_tags.lock();
        for tag in tags {
            held.release(tag);
        }
        for a in self.arrived.iter_mut() {
            if !a.rescued && at_risk(&a.message, limit) {
                a.rescued = true;
            }
        }
        self.outstanding = self.outstanding.saturating_sub(n);
        Ok(())
    }

    /// Hands one held delivery to the caller, in queue order.
    fn serve(&mut self, a: Arrived) -> Delivered {
        self.received += 1;
        let last_delivery = !a.rescued && self.on_last_delivery(&a.message);
        Delivered {
            position: self.received,
            tag: a.tag,
            message: a.message,
            last_delivery,
        }
    }

    /// Starts a round and waits for its consumer.
    async fn start_round(&mut self) -> Result<()> {
        self.ask_round().await?;
        self.await_round().await
    }

    /// Makes the first round asked for (see [`Peek::ask_round`]) the current one, once the
    /// broker has answered, when there is no current round.
    async fn await_round(&mut self) -> Result<()> {
        if self.consumer.is_none()
            && let Some((sent, prefetch)) = self.ahead.pop_front()
        {
            let what = format!("consuming from queue {:?}", self.queue);
            self.consumer = Some(sent.reply(self.session, &what, &self.queue).await?);
            self.round += 1;
            self.round_left = prefetch;
        }
        Ok(())
    }

    /// Asks for the next round's consumer without waiting for the broker's answer (see
    /// [`Peek::await_round`]), unless the rounds asked for already cover the peek's target.
    ///
    /// On a quorum queue each round's consumer has a lower priority (`x-priority`) than the
    /// one before, which the broker keeps strictly (see docs/broker-notes.md, lapin): the round
    /// behind receives nothing while the current one may take more, then at once. So the
    /// deliveries come in the queue's order, round after round, and a round is never held up
    /// by its own consume (a command of the queue's log, which waits for the log's write).
    async fn ask_round(&mut self) -> Result<()> {
        let asked = self.round_left * u64::from(self.consumer.is_some())
            + self.ahead.iter().map(|(_, n)| n).sum::<u64>();
        let wanted = self.target.saturating_sub(self.fetched + asked);
        if wanted == 0 {
            return Ok(());
        }
        let round = self.sizer.next_round(wanted);
        let prefetch = u16::try_from(round).unwrap_or(u16::MAX);
        let context = format!("cannot peek queue {:?}", self.queue);
        if self.prefetch_set != Some(prefetch) {
            self.channel
                .basic_qos(prefetch, BasicQosOptions { global: false })
                .await
                .map_err(|e| self.session.amqp_error(&e, &context))?;
            self.prefetch_set = Some(prefetch);
        }
        // A quorum queue without a majority takes no consumer: its reply waits (see
        // `Sent::reply`).
        let mut arguments = FieldTable::default();
        if self.kind.is_quorum() {
            // Above any other consumer's default of 0, and one lower each round.
            let priority =
                ROUND_PRIORITY.saturating_sub(i32::try_from(self.rounds_asked).unwrap_or(i32::MAX));
            arguments.insert("x-priority".into(), AMQPValue::LongInt(priority.max(1)));
        }
        self.rounds_asked = self.rounds_asked.saturating_add(1);
        let (session, channel, queue) = (self.session, self.channel.clone(), self.queue.clone());
        let consume = Box::pin(async move {
            channel
                .basic_consume(
                    queue.as_str().into(),
                    "".into(),
                    BasicConsumeOptions::default(),
                    arguments,
                )
                .await
                .map_err(|e| session.amqp_error(&e, &context))
        });
        let sent = Sent::send(consume).await;
        self.ahead.push_back((sent, u64::from(prefetch)));
        Ok(())
    }

    /// Cancels the current consumer (its round taken whole on a quorum queue) without waiting
    /// for the broker's answer: [`Peek::settle_cancel`] reads it.
    async fn cancel_round(&mut self) -> Result<()> {
        if let Some(consumer) = self.consumer.take() {
            let tag = consumer.tag();
            let context = format!("cannot peek queue {:?}", self.queue);
            let (session, channel) = (self.session, self.channel.clone());
            let cancel = Box::pin(async move {
                channel
                    .basic_cancel(tag, BasicCancelOptions::default())
                    .await
                    .map_err(|e| session.amqp_error(&e, &context))
            });
            self.cancelling = Some((Sent::send(cancel).await, consumer, self.round));
        }
        Ok(())
    }

    /// Reads the answer to [`Peek::cancel_round`], and holds what the cancelled consumer was
    /// sent before it (see [`Peek::drain`]).
    async fn settle_cancel(&mut self) -> Result<()> {
        if let Some((sent, consumer, round)) = self.cancelling.take() {
            let context = format!("cannot peek queue {:?}", self.queue);
            sent.reply(self.session, &context, &self.queue).await?;
            self.drain(consumer, round, &context).await?;
        }
        Ok(())
    }

    /// Cancels the current consumer; its deliveries stay unacknowledged on the channel.
    ///
    /// A prefetch limits *unacknowledged* deliveries, so when the caller acks during a round
    /// (replay, purge, a rescue) the broker sends this consumer more than one window. Those
    /// arrive before the cancel-ok, and lapin yields them before the end of the stream: they
    /// are kept, in order, and served before the next round. Dropping them would leave
    /// messages held but unseen, and the peek would end early.
    async fn end_round(&mut self) -> Result<()> {
        self.settle_cancel().await?;
        self.cancel_current().await?;
        // A round asked for is a consumer of the queue all the same: each is ended too, in
        // turn (the broker delivers to it only once the one before may take no more).
        while !self.ahead.is_empty() {
            self.await_round().await?;
            self.cancel_current().await?;
        }
        Ok(())
    }

    /// Cancels the current consumer and holds what it was sent before the broker's answer.
    async fn cancel_current(&mut self) -> Result<()> {
        self.cancel_round().await?;
        self.settle_cancel().await
    }

    /// Holds what a cancelled consumer's stream yields up to its end (lapin ends it at the
    /// broker's `cancel-ok`).
    async fn drain(&mut self, mut consumer: Consumer, round: u32, context: &str) -> Result<()> {
        loop {
            match tokio::time::timeout(Duration::from_secs(10), consumer.next()).await {
                Ok(Some(Ok(delivery))) => self.hold(delivery, round),
                Ok(Some(Err(e))) => return Err(self.session.amqp_error(&e, context)),
                Ok(None) => return Ok(()),
                Err(_) => {
                    return Err(Error::new(
                        Kind::BrokerRefused,
                        format!("{context}: the broker did not confirm the end of a consumer"),
                    ));
                }
            }
        }
    }

    /// Whether a counted return would end `message` (see [`at_risk`]), on a queue where a
    /// caller's return by `basic.nack` or a crash counts.
    fn on_last_delivery(&self, message: &Message) -> bool {
        self.kind.closes_count && at_risk(message, self.kind.delivery_limit)
    }

    /// Replaces a held message on its last delivery by a fresh copy (see [`Rescuer`]), for a
    /// caller that keeps it: returning it would end it.
    pub async fn rescue(&mut self, tag: u64, message: &mut Message) -> Result<()> {
        self.acked_any = true;
        if let Err(e) = self.rescuer.rescue(&self.channel, tag, message).await {
            self.tags_unsure = true;
            return Err(e);
        }
        self.held_tags.lock().release(tag);
        self.outstanding = self.outstanding.saturating_sub(1);
        Ok(())
    }

    /// An [`Acker`] on the channel holding the deliveries, to ack them from another stage of
    /// a pipeline; report those acks with [`Peek::acked_elsewhere`]. It releases the tags it
    /// acks from the peek's, so that what stays still goes back round by round.
    pub fn acker(&mut self) -> Acker<'a> {
        self.acked_any = true;
        Acker::new(
            self.session,
            &self.queue,
            self.channel.clone(),
            self.held_tags.clone(),
        )
    }

    /// Counts `n` deliveries acked through [`Peek::acker`].
    pub fn acked_elsewhere(&mut self, n: u64) {
        self.outstanding = self.outstanding.saturating_sub(n);
    }

    /// Removes a held message from the queue for good (its copy is safe elsewhere).
    pub async fn ack(&mut self, tag: u64) -> Result<()> {
        // Sent or not, the tag may be acked: it is never named to the broker again.
        self.held_tags.lock().release(tag);
        self.acked_any = true;
        self.channel
            .basic_ack(tag, BasicAckOptions::default())
            .await
            .map_err(|e| {
                self.session.amqp_error(
                    &e,
                    &format!("cannot acknowledge a message of {:?}", self.queue),
                )
            })?;
        self.outstanding = self.outstanding.saturating_sub(1);
        Ok(())
    }
}

// What other consumers hold of a queue: deliveries they have not acked, which no read of the
// queue can reach (a lost connection's consumer, another tool), reported so that a run that
// leaves them is never a success (exit 3).

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
/// seconds old (a consumer that took messages a moment ago is not in it yet: see
/// docs/broker-notes.md, Peeking and requeueing), so a consumer alone makes a run incomplete,
/// the count saying how many when the API knows.
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

// Two tools of the peek's rounds: a channel method whose reply is read later, and a stream's
// next item when it is already here.

/// A method of the peek's channel whose frame is on its way and whose reply is read later, so
/// that the broker's round trip overlaps the caller's work.
enum Sent<'a, T> {
    Answered(Result<T>),
    Owed(Pin<Box<dyn Future<Output = Result<T>> + 'a>>),
}

impl<'a, T> Sent<'a, T> {
    /// Polls `method` once: lapin queues a method's frame on the first poll, so every frame
    /// sent on the channel afterwards (an ack) reaches the broker behind it.
    async fn send(mut method: Pin<Box<dyn Future<Output = Result<T>> + 'a>>) -> Sent<'a, T> {
        match std::future::poll_fn(|cx| Poll::Ready(method.as_mut().poll(cx))).await {
            Poll::Ready(r) => Sent::Answered(r),
            Poll::Pending => Sent::Owed(method),
        }
    }

    /// The reply, waited for as [`Session::owed`] waits.
    async fn reply(self, session: &Session, what: &str, queue: &str) -> Result<T> {
        match self {
            Sent::Answered(r) => r,
            Sent::Owed(method) => session.owed(what, &[queue], method).await,
        }
    }
}

/// The stream's next item when it is already here: one poll in this task's context (its waker
/// registered), `None` when it is not.
async fn ready_next<S: Stream + Unpin>(stream: &mut S) -> Option<Option<S::Item>> {
    std::future::poll_fn(|cx| match stream.poll_next_unpin(cx) {
        std::task::Poll::Ready(item) => std::task::Poll::Ready(Some(item)),
        std::task::Poll::Pending => std::task::Poll::Ready(None),
    })
    .await
}
