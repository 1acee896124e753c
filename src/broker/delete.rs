//! Deleting a queue only while it is empty and unused: `queue.delete` with `if-empty` and
//! `if-unused`, which the broker checks atomically in the queue itself. A message published
//! (or a consumer attached) between queuey's look and the delete makes the broker refuse the
//! delete (406), and nothing is lost: the race `holds prune` must never lose.
//!
//! Quorum queues refuse both flags with a connection error (540 NOT_IMPLEMENTED), so the
//! caller must never ask this of one (it knows the type from the management API).

use lapin::options::QueueDeleteOptions;

use super::session::{Session, soft_error_code};
use crate::error::Result;

/// What the broker did with an `if-empty`, `if-unused` delete.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum DeleteReply {
    /// Deleted (or already gone: a delete of a missing queue succeeds).
    Deleted,
    /// Refused at channel level: 406 when the queue holds a message or has a consumer (its
    /// text says which), 403 without the configure permission, 405 when another connection
    /// holds it exclusively.
    Refused { code: u16, text: String },
}

impl Session {
    /// Deletes `queue` if it is empty and has no consumer, on a fresh channel (a refusal
    /// closes it).
    pub async fn delete_if_idle(&self, queue: &str) -> Result<DeleteReply> {
        let channel = self.channel().await?;
        let options = QueueDeleteOptions {
            if_unused: true,
            if_empty: true,
            nowait: false,
        };
        match channel.queue_delete(queue.into(), options).await {
            Ok(_) => {
                let _ = channel.close(200, "ok".into()).await;
                Ok(DeleteReply::Deleted)
            }
            Err(e) => match soft_error_code(&e) {
                Some(code) => Ok(DeleteReply::Refused {
                    code,
                    text: match e.kind() {
                        lapin::ErrorKind::ProtocolError(amqp) => amqp.get_message().to_string(),
                        _ => e.to_string(),
                    },
                }),
                None => Err(self.amqp_error(
                    &e,
                    &format!("cannot delete queue {queue:?} in vhost {:?}", self.vhost()),
                )),
            },
        }
    }
}
