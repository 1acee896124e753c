//! Settling held deliveries, and hearing when the broker blocks publishing.
//!
//! [`Acker`] acks the deliveries a peek holds, from the stage of a pipeline that decides them.
//! The broker never confirms an ack; [`Acker::barrier`] is the nearest thing: a synchronous
//! method on the same channel, answered only after every frame sent before it (the acks
//! included) was processed.
//!
//! During a memory or disk alarm the broker blocks connections that publish: it stops reading
//! from them, so publishes (and acks on the same connection) wait without an error. lapin
//! announces the `connection.blocked` capability; [`flow_events`] turns the broker's
//! `connection.blocked` / `connection.unblocked` into [`Flow`] values.

use futures_lite::{Stream, StreamExt};
use lapin::Channel;
use lapin::options::{BasicAckOptions, QueueDeclareOptions};
use lapin::types::FieldTable;

use super::session::Session;
use crate::error::Result;

/// Acks deliveries held on one channel.
pub struct Acker<'a> {
    session: &'a Session,
    channel: Channel,
    queue: String,
}

impl<'a> Acker<'a> {
    /// Acks deliveries of `queue` held on `channel`.
    pub fn new(session: &'a Session, queue: &str, channel: Channel) -> Acker<'a> {
        Acker {
            session,
            channel,
            queue: queue.to_owned(),
        }
    }

    /// The channel holding the deliveries (to rescue one on it).
    pub fn channel(&self) -> Channel {
        self.channel.clone()
    }

    /// Acks `tag`, or with `multiple` every outstanding delivery up to it.
    pub async fn ack(&self, tag: u64, multiple: bool) -> Result<()> {
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

/// Whether the broker lets the connection publish.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Flow {
    /// `connection.blocked`, with the broker's reason (`low on memory`, `low on disk`).
    Blocked(String),
    Unblocked,
    /// The connection failed (the broker went away): what lapin said.
    Lost(String),
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
pub fn lost_error(session: &Session, why: &str) -> crate::error::Error {
    crate::error::Error::new(
        crate::error::Kind::Unreachable,
        format!(
            "lost the connection to the broker at {}:{} ({why})",
            session.settings.amqp.host, session.settings.amqp.port
        ),
    )
}

/// The session's connection's blocked/unblocked events, from now on (connects if needed).
pub async fn flow_events(session: &Session) -> Result<impl Stream<Item = Flow> + Send + 'static> {
    let conn = session.connection().await?;
    Ok(conn.events_listener().filter_map(|e| match e {
        lapin::Event::ConnectionBlocked(reason) => Some(Flow::Blocked(reason)),
        lapin::Event::ConnectionUnblocked => Some(Flow::Unblocked),
        // A channel-level error (a refused declare, a queue the user may not read) closes one
        // channel, not the connection: the call that made it reports it.
        lapin::Event::Error(e) if super::session::soft_error_code(&e).is_some() => None,
        lapin::Event::Error(e) => Some(Flow::Lost(e.to_string())),
        _ => None,
    }))
}
