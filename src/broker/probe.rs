//! A probe published to nowhere: one message on a confirm channel of its own, through the
//! default exchange to a reserved `amq.` routing key no queue can have (routed nowhere,
//! delivered nowhere, not mandatory so nothing comes back). The broker checks a publish's
//! size and `user_id` before routing, so its answer tells whether it takes such a message
//! (`message_size`, `user_id` ask it that way).

use lapin::options::{BasicPublishOptions, ConfirmSelectOptions};
use lapin::{BasicProperties, Confirmation};

use super::session::{Session, protocol_error_text, soft_error_code};
use crate::error::{Error, Kind, Result};

/// The AMQP reply code of a channel closed for a refused precondition.
const PRECONDITION_FAILED: u16 = 406;

/// What the broker answered a probe.
pub(super) enum Answer {
    /// Acked: the broker takes such a message.
    Took,
    /// The publish failed (the broker closed the probe's channel: nothing left to close):
    /// a refusal when [`refusal_text`] reads one, else an error.
    Failed(lapin::Error),
}

/// The text of a channel closed with 406 PRECONDITION_FAILED, the way the broker refuses a
/// message it will not take.
pub(super) fn refusal_text(err: &lapin::Error) -> Option<String> {
    if soft_error_code(err) != Some(PRECONDITION_FAILED) {
        return None;
    }
    protocol_error_text(err)
}

/// Publishes `body` with `properties` to `routing_key` on a confirm channel of its own.
/// A confirmation other than an ack is an error (`context` says of what), never a verdict.
pub(super) async fn publish(
    session: &Session,
    routing_key: &str,
    body: &[u8],
    properties: BasicProperties,
    context: &str,
) -> Result<Answer> {
    let channel = session.channel().await?;
    channel
        .confirm_select(ConfirmSelectOptions::default())
        .await
        .map_err(|e| session.amqp_error(&e, "cannot enable publisher confirms"))?;
    let confirmed = match channel
        .basic_publish(
            "".into(),
            routing_key.into(),
            BasicPublishOptions::default(),
            body,
            properties,
        )
        .await
    {
        Ok(confirm) => confirm.await,
        Err(e) => Err(e),
    };
    match confirmed {
        Ok(Confirmation::Ack(_)) => {
            let _ = channel.close(200, "done".into()).await;
            Ok(Answer::Took)
        }
        Ok(other) => {
            let _ = channel.close(200, "done".into()).await;
            Err(Error::new(
                Kind::BrokerRefused,
                format!("{context}: the broker answered {other:?} to a probe routed nowhere"),
            ))
        }
        Err(e) => Ok(Answer::Failed(e)),
    }
}
