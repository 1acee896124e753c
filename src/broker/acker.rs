//! Settling held deliveries, and hearing when the broker blocks publishing.
//!
//! [`Acker`] acks the deliveries a peek holds, from the stage of a pipeline that decides them.
//! The broker never confirms an ack; [`Acker::barrier`] is the nearest thing: a synchronous
//! method on the same channel, answered only after every frame sent before it (the acks
//! included) was processed. [`Rescuer`] settles a quorum message on its last delivery by a
//! confirmed republish before its ack, since returning it would dead-letter or drop it.
//!
//! During a memory or disk alarm the broker blocks connections that publish: it stops reading
//! from them, so publishes (and acks on the same connection) wait without an error. lapin
//! announces the `connection.blocked` capability; [`flow_events`] turns the broker's
//! `connection.blocked` / `connection.unblocked` into [`Flow`] values.

use std::sync::{Arc, Mutex, MutexGuard, PoisonError};

use futures_util::{Stream, StreamExt};
use lapin::options::{
    BasicAckOptions, BasicPublishOptions, ConfirmSelectOptions, QueueDeclareOptions,
};
use lapin::types::FieldTable;
use lapin::{Channel, Confirmation};

use super::convert::properties_to_amqp;
use super::session::Session;
use crate::dead::copy_refusal::CopyRefusal;
use crate::dead::decode::{HEADER_RESCUED_AT, Message, X_DELIVERY_COUNT};
use crate::dead::requeue_order::HeldTags;
use crate::dead::value::Value;
use crate::error::{Error, Kind, Result};
use crate::user_id::HEADER_USER_ID;

/// The delivery tags a peek's channel holds ([`HeldTags`]), shared by the peek and its
/// [`Acker`]s: each ack releases the tags it settles, so that the peek returns only the tags
/// still held, round by round.
#[derive(Clone, Default)]
pub struct SharedTags(Arc<Mutex<HeldTags>>);

impl SharedTags {
    /// The tags. A panic elsewhere while they were locked leaves them as they were: every
    /// change is a whole `hold` or `release`.
    pub fn lock(&self) -> MutexGuard<'_, HeldTags> {
        self.0.lock().unwrap_or_else(PoisonError::into_inner)
    }
}

/// Acks deliveries held on one channel.
pub struct Acker<'a> {
    session: &'a Session,
    channel: Channel,
    queue: String,
    held: SharedTags,
}

impl<'a> Acker<'a> {
    /// Acks deliveries of `queue` held on `channel`, releasing them from `held`.
    pub fn new(session: &'a Session, queue: &str, channel: Channel, held: SharedTags) -> Acker<'a> {
        Acker {
            session,
            channel,
            queue: queue.to_owned(),
            held,
        }
    }

    /// Rescues the held delivery `tag` through `rescuer`: a confirmed republish, then the ack
    /// of the original on the channel that holds it.
    pub async fn rescue(
        &self,
        rescuer: &mut Rescuer<'_>,
        tag: u64,
        message: &mut Message,
    ) -> Result<()> {
        rescuer.rescue(&self.channel, tag, message).await
    }

    /// Acks `tag`, or with `multiple` every outstanding delivery up to it.
    pub async fn ack(&self, tag: u64, multiple: bool) -> Result<()> {
        // Sent or not, these tags may be acked: they are never named to the broker again.
        {
            let mut held = self.held.lock();
            if multiple {
                held.release_up_to(tag);
            } else {
                held.release(tag);
            }
        }
        self.channel
            .basic_ack(tag, BasicAckOptions { multiple })
            .await
            .map_err(|e| {
                self.session.amqp_error(
                    &e,
                    &format!("cannot acknowledge a message of {:?}", self.queue),
                )
            })
    }

    /// Returns once the broker has processed every ack sent before (a passive declare of the
    /// queue on the same channel: the broker handles a channel's frames in order).
    pub async fn barrier(&self) -> Result<()> {
        let what = format!(
            "waiting for the broker to take the acks on {:?}",
            self.queue
        );
        self.session
            .owed(&what, &[self.queue.as_str()], self.barrier_now())
            .await
    }

    async fn barrier_now(&self) -> Result<()> {
        self.channel
            .queue_declare(
                self.queue.as_str().into(),
                QueueDeclareOptions {
                    passive: true,
                    ..QueueDeclareOptions::default()
                },
                FieldTable::default(),
            )
            .await
            .map(|_| ())
            .map_err(|e| {
                self.session.amqp_error(
                    &e,
                    &format!("cannot make sure the acks on {:?} were taken", self.queue),
                )
            })
    }
}

/// Replaces quorum messages on their last delivery by fresh copies: a confirmed copy of each
/// message is published to the queue, and only then the held original is acked. The copy carries the
/// `x-queuey-rescued-at` timestamp and no `x-delivery-count`. Nothing is lost; the message
/// changes its place in the queue. A `user_id` the broker would refuse from this connection
/// (another user's, and the user without the `impersonator` tag: the channel would close, and
/// every copy of the batch fail with it) is not the copy's property: the copy keeps it in the
/// header `x-queuey-user-id`, which a replay makes the property again.
pub struct Rescuer<'a> {
    session: &'a Session,
    queue: String,
    channel: Option<Channel>,
    /// The tags rescued by a batch that then failed on a body over `max_message_size`: acked
    /// already, so a later batch (the peek's last, as it ends) skips them rather than copy them
    /// twice.
    rescued_before_failing: Vec<u64>,
    /// Messages rescued so far.
    pub count: u64,
}

impl<'a> Rescuer<'a> {
    pub fn new(session: &'a Session, queue: &str) -> Rescuer<'a> {
        Rescuer {
            session,
            queue: queue.to_owned(),
            channel: None,
            rescued_before_failing: Vec::new(),
            count: 0,
        }
    }

    /// Republishes `message` (delivered as `tag` on `holder`) and acks the original. On return,
    /// `message` carries the copy's headers.
    pub async fn rescue(
        &mut self,
        holder: &Channel,
        tag: u64,
        message: &mut Message,
    ) -> Result<()> {
        self.rescue_batch(holder, &mut [(tag, message)]).await
    }

    /// Republishes each message of `batch` (delivered as its tag on `holder`), waits until the
    /// broker has confirmed every copy, and only then acks the originals. A copy that is not
    /// simply confirmed (returned, refused) fails the whole batch before any ack: lapin may
    /// hand a return to another copy's confirmation, so no original of the batch is known
    /// safe to remove. On return, each message carries its copy's headers.
    ///
    /// A message whose body is over the broker's `max_message_size` cannot be kept by a copy
    /// (the broker would close the channel, the batch's copies with it): the others are
    /// rescued, and then the batch fails naming it (see [`Rescuer::too_large`]).
    pub async fn rescue_batch(
        &mut self,
        holder: &Channel,
        batch: &mut [(u64, &mut Message)],
    ) -> Result<()> {
        if batch.is_empty() {
            return Ok(());
        }
        let context = format!(
            "cannot republish a message on its last delivery to {:?}",
            self.queue
        );
        let mut fitting = Vec::with_capacity(batch.len());
        let mut too_large = None;
        for (tag, message) in batch.iter_mut() {
            if self.rescued_before_failing.contains(tag) {
                continue;
            }
            match super::message_size::refusal(self.session, message.body.len()).await? {
                Some(why) if too_large.is_none() => {
                    too_large = Some(Self::too_large(&context, message, why));
                }
                Some(_) => {}
                None => fitting.push((*tag, &mut **message)),
            }
        }
        self.publish_and_ack(holder, &mut fitting, &context).await?;
        if let Some(why) = too_large {
            self.rescued_before_failing
                .extend(fitting.iter().map(|(tag, _)| *tag));
            return Err(why);
        }
        Ok(())
    }

    /// Republishes each message of `batch`, waits for every confirm, then acks the originals
    /// (see [`Rescuer::rescue_batch`]).
    async fn publish_and_ack(
        &mut self,
        holder: &Channel,
        batch: &mut [(u64, &mut Message)],
        context: &str,
    ) -> Result<()> {
        if batch.is_empty() {
            return Ok(());
        }
        // Asked before the first publish: a refused user_id would close the channel, failing
        // every copy of the batch (and the peek with them).
        let mut refused_user = Vec::with_capacity(batch.len());
        for (_, message) in batch.iter() {
            let claimed = message.properties.user_id.as_deref();
            refused_user.push(super::user_id::refusal(self.session, claimed).await?);
        }
        let ch = self.confirm_channel().await?;
        let now = crate::clock::now_secs();
        let mut pending = Vec::with_capacity(batch.len());
        let mut copies = Vec::with_capacity(batch.len());
        let mut moved = Vec::new();
        for ((_, message), refused_user) in batch.iter().zip(refused_user) {
            let mut copy = message.properties.clone();
            let user_id = copy.user_id.take_if(|_| refused_user.is_some());
            let headers = copy.headers.get_or_insert_with(Default::default);
            headers.remove(X_DELIVERY_COUNT);
            headers.insert(HEADER_RESCUED_AT.to_owned(), Value::Timestamp(now));
            if let (Some(user_id), Some(refused)) = (user_id, refused_user) {
                // The broker would refuse the copy with it, and a return ends the message:
                // the copy keeps it in a header instead.
                headers.insert(
                    HEADER_USER_ID.to_owned(),
                    Value::LongStr(user_id.clone().into_bytes()),
                );
                moved.push((user_id, refused.user));
            }
            let props = properties_to_amqp(&copy).map_err(|e| {
                Error::new(Kind::BrokerRefused, format!("cannot copy a message: {e}"))
            })?;
            let confirm = ch
                .basic_publish(
                    "".into(),
                    self.queue.as_str().into(),
                    BasicPublishOptions {
                        mandatory: true,
                        ..BasicPublishOptions::default()
                    },
                    &message.body,
                    props,
                )
                .await
                .map_err(|e| self.session.amqp_error(&e, context))?;
            pending.push(confirm);
            copies.push((copy.user_id, copy.headers));
        }
        let mut refused = 0usize;
        for confirm in pending {
            match confirm
                .await
                .map_err(|e| self.session.amqp_error(&e, context))?
            {
                Confirmation::Ack(None) => {}
                _ => refused += 1,
            }
        }
        if refused > 0 {
            return Err(Error::new(
                Kind::BrokerRefused,
                format!(
                    "{context}: the broker did not accept {refused} of {} copies",
                    batch.len()
                ),
            ));
        }
        for ((tag, message), (user_id, headers)) in batch.iter_mut().zip(copies) {
            holder
                .basic_ack(*tag, BasicAckOptions::default())
                .await
                .map_err(|e| self.session.amqp_error(&e, context))?;
            self.count += 1;
            message.properties.user_id = user_id;
            message.properties.headers = headers;
        }
        if let Some((user_id, user)) = moved.first() {
            use crate::output::{by_count, plural};
            let n = moved.len() as u64;
            self.session.note(&format!(
                "warning: {} of {:?} on {} last delivery carried another user's user_id \
                 ({user_id:?}{}), which the broker takes only from that user or from one with \
                 the impersonator tag, and queuey is connected as {user:?}: {} replaced by a \
                 confirmed copy without the property, its value kept in the header \
                 {HEADER_USER_ID} (a counted return would end {})",
                plural(n, "message"),
                self.queue,
                by_count(n, "its", "their"),
                by_count(n, "", ", ..."),
                by_count(n, "it was", "each was"),
                by_count(n, "it", "them"),
            ));
        }
        Ok(())
    }

    /// The error for a message on its last delivery whose body is over the broker's
    /// `max_message_size`: no copy can keep it, and a return that counts ends it.
    fn too_large(context: &str, message: &Message, why: CopyRefusal) -> Error {
        let id = message.properties.message_id.as_deref().unwrap_or("(none)");
        Error::new(
            Kind::BrokerRefused,
            format!(
                "{context}: message {id:?}: {why}; the others on their last delivery were kept \
                 by copies"
            ),
        )
        .with_hint(
            "a return ends a message on its last delivery where returns count (a quorum queue \
             before RabbitMQ 4.3; from 4.3 the peek's own return is free and it stays): raise the \
             broker's max_message_size, or the queue's delivery limit with a policy, before \
             reading the queue again",
        )
    }

    /// The channel the copies are published on, in confirm mode (opened at the first rescue).
    async fn confirm_channel(&mut self) -> Result<Channel> {
        if let Some(ch) = &self.channel {
            return Ok(ch.clone());
        }
        let ch = self.session.channel().await?;
        ch.confirm_select(ConfirmSelectOptions::default())
            .await
            .map_err(|e| {
                self.session
                    .amqp_error(&e, "cannot enable publisher confirms")
            })?;
        self.channel = Some(ch.clone());
        Ok(ch)
    }

    pub async fn close(&mut self) {
        if let Some(ch) = self.channel.take() {
            let _ = ch.close(200, "done".into()).await;
        }
    }
}

/// Whether the broker lets the connection publish.
#[derive(Clone, Debug, PartialEq)]
pub enum Flow {
    /// `connection.blocked`, with the broker's reason (`low on memory`, `low on disk`).
    Blocked(String),
    Unblocked,
    /// The connection failed (the broker went away, or sent what lapin cannot parse).
    Lost(lapin::Error),
}

/// Returns once the session's connection has failed (never, if it does not): some lapin calls
/// wait for ever on a connection whose broker died, so long work races its work against this.
pub async fn connection_lost(session: &Session) -> crate::error::Error {
    let Ok(events) = flow_events(session).await else {
        return std::future::pending().await;
    };
    let mut events = std::pin::pin!(events);
    while let Some(e) = events.next().await {
        if let Flow::Lost(why) = e {
            return lost_error(session, &why);
        }
    }
    std::future::pending().await
}

/// The error of a connection that failed under the work.
pub fn lost_error(session: &Session, why: &lapin::Error) -> crate::error::Error {
    if matches!(why.kind(), lapin::ErrorKind::ParsingError(_)) {
        return session.amqp_error(why, "lost the connection to the broker");
    }
    crate::error::Error::new(
        crate::error::Kind::Unreachable,
        format!(
            "lost the connection to the broker at {}:{} ({why})",
            session.settings().amqp.host,
            session.settings().amqp.port
        ),
    )
}

/// The session's connection's blocked/unblocked events, from now on (connects if needed).
pub async fn flow_events(session: &Session) -> Result<impl Stream<Item = Flow> + Send + 'static> {
    let conn = session.connection().await?;
    Ok(conn.events_listener().filter_map(|e| {
        std::future::ready(match e {
            lapin::Event::ConnectionBlocked(reason) => Some(Flow::Blocked(reason)),
            lapin::Event::ConnectionUnblocked => Some(Flow::Unblocked),
            // A channel-level error (a refused declare, a queue the user may not read) closes
            // one channel, not the connection: the call that made it reports it.
            lapin::Event::Error(e) if super::session::soft_error_code(&e).is_some() => None,
            lapin::Event::Error(e) => Some(Flow::Lost(e)),
            _ => None,
        })
    }))
}
