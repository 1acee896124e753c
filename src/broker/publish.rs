//! Publishing copies that must not be lost: publisher confirms, `mandatory`, and a window of
//! publishes in flight (never one round trip per message).
//!
//! A copy counts as delivered only when the broker confirmed it *and* did not return it: with
//! `mandatory`, an unroutable publish (no such queue) is still confirmed with an `Ack`, and the
//! message comes back in a `basic.return` sent just before that confirmation (BROKER.md).
//!
//! **lapin attaches a returned message to the wrong confirmation.** It queues `basic.return`s
//! and hands the oldest one to whichever pending confirmation it resolves next; a multiple ack
//! resolves many at once in `HashMap` order, so the return of copy 55 can arrive on the
//! confirmation of copy 52, and copy 55's own confirmation says `Ack(None)`. Trusting that
//! would ack the dead letter of a copy nothing received: a lost message. (Seen on 3.10 with
//! lapin 4.12: the live replay test with a missing target caught it.)
//!
//! So every copy carries an id of its own (the caller puts it in the headers and tells the
//! publisher how to read it back), and copies go out in batches: a batch is published, then
//! every confirmation of the batch is awaited before the next batch goes out. A return is sent
//! before the confirmation of its own copy, so it is attached to some confirmation of the same
//! batch; the ids of all returns of a batch name exactly the copies that came back. Should a
//! return carry no readable id of the batch, no copy of the batch counts as delivered: their
//! dead letters stay (a duplicate at worst, never a loss).

use lapin::options::{BasicPublishOptions, ConfirmSelectOptions};
use lapin::{BasicProperties, Channel, Confirmation, PublisherConfirm};

use super::session::Session;
use crate::error::Result;

/// What became of one published copy.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Outcome {
    /// Confirmed and routed to a queue: the copy is safe.
    Delivered,
    /// Confirmed but returned: nothing took it (no queue by that name).
    Returned { code: u16, text: String },
    /// The broker refused it (nack), e.g. a queue at its length limit with reject-publish.
    Refused,
    /// A return in its batch could not be attributed: counted as not delivered.
    Unknown,
}

/// Reads a copy's id back from the properties of a returned message.
pub type IdOf = fn(&BasicProperties) -> Option<u64>;

/// A confirm-mode channel publishing in confirmed batches of `window`.
pub struct Publisher<'a, T> {
    session: &'a Session,
    channel: Channel,
    window: usize,
    id_of: IdOf,
    batch: Vec<(T, u64, PublisherConfirm)>,
}

impl<'a, T> Publisher<'a, T> {
    pub async fn open(
        session: &'a Session,
        window: usize,
        id_of: IdOf,
    ) -> Result<Publisher<'a, T>> {
        let channel = session.channel().await?;
        channel
            .confirm_select(ConfirmSelectOptions::default())
            .await
            .map_err(|e| session.amqp_error(&e, "cannot enable publisher confirms"))?;
        Ok(Publisher {
            session,
            channel,
            window: window.max(1),
            id_of,
            batch: Vec::new(),
        })
    }

    /// Publishes `body` to `queue` through the default exchange, mandatory. `id` must be
    /// readable from `properties` by the publisher's `id_of`. When the batch is full, waits for
    /// it and returns every copy's outcome, in publish order; otherwise returns nothing yet.
    pub async fn publish(
        &mut self,
        queue: &str,
        properties: BasicProperties,
        body: &[u8],
        token: T,
        id: u64,
    ) -> Result<Vec<(T, Outcome)>> {
        let context = format!("cannot publish to queue {queue:?}");
        let confirm = self
            .channel
            .basic_publish(
                "".into(),
                queue.into(),
                BasicPublishOptions {
                    mandatory: true,
                    ..BasicPublishOptions::default()
                },
                body,
                properties,
            )
            .await
            .map_err(|e| self.session.amqp_error(&e, &context))?;
        self.batch.push((token, id, confirm));
        if self.batch.len() >= self.window {
            return self.flush().await;
        }
        Ok(Vec::new())
    }

    /// Waits for every confirmation of the current batch and attributes the returns by id.
    pub async fn flush(&mut self) -> Result<Vec<(T, Outcome)>> {
        let batch = std::mem::take(&mut self.batch);
        let mut settled = Vec::with_capacity(batch.len());
        let mut returned: Vec<(u64, u16, String)> = Vec::new();
        let mut unattributed = false;
        for (token, id, confirm) in batch {
            let confirmation = confirm
                .await
                .map_err(|e| self.session.amqp_error(&e, "lost a publisher confirmation"))?;
            let (acked, message) = match confirmation {
                Confirmation::Ack(m) => (true, m),
                Confirmation::Nack(m) => (false, m),
                Confirmation::NotRequested => (false, None),
            };
            if let Some(m) = message {
                match (self.id_of)(&m.delivery.properties) {
                    Some(rid) => {
                        returned.push((rid, m.reply_code, m.reply_text.as_str().to_owned()))
                    }
                    None => unattributed = true,
                }
            }
            settled.push((token, id, acked));
        }
        if returned
            .iter()
            .any(|(rid, ..)| !settled.iter().any(|(_, id, _)| id == rid))
        {
            unattributed = true;
        }
        Ok(settled
            .into_iter()
            .map(|(token, id, acked)| {
                let outcome = if !acked {
                    Outcome::Refused
                } else if let Some((_, code, text)) = returned.iter().find(|(rid, ..)| *rid == id) {
                    Outcome::Returned {
                        code: *code,
                        text: text.clone(),
                    }
                } else if unattributed {
                    Outcome::Unknown
                } else {
                    Outcome::Delivered
                };
                (token, outcome)
            })
            .collect())
    }

    pub async fn close(self) {
        let _ = self.channel.close(200, "done".into()).await;
    }
}
