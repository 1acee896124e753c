//! Asking the broker whether a body of some size would be taken, before publishing a copy the
//! broker would refuse (`message_size` in the pure core says why, and what is known).
//!
//! A publish over `max_message_size` closes its *channel* (406 PRECONDITION_FAILED): on the
//! publisher's channel that would fail every copy in flight with it and stop the run, on every
//! rerun again. So before a copy with a big body goes out, a probe asks: a zero body of
//! `message_size::probe_size` bytes, published on a confirm channel of its own on the
//! session's connection, through the default exchange to [`PROBE_ROUTING_KEY`] (a reserved
//! `amq.` name no queue can have: routed nowhere, delivered nowhere, not mandatory so nothing
//! comes back).
//! The broker checks the size before routing: an ack says it fits; a channel close with the
//! exact refusal text says it does not, and names the limit. Anything else is an error, never a
//! verdict: a probe that cannot tell does not let a copy through, nor keep one back.
//!
//! On 3.x the limit is read when a channel opens, so a probe's new channel sees a limit
//! lowered after the publisher's channel opened (the probe is stricter: the copy stays); from
//! 4.0 the limit is one for the node.

use lapin::BasicProperties;

use super::probe;
use super::session::Session;
use crate::dead::copy_refusal::CopyRefusal;
use crate::error::{Error, Result};
use crate::message_size::{MaxMessageSize, PROBE_ROUTING_KEY, Verdict, parse_refusal};

/// What the session's broker knows of its `max_message_size` (kept in the session, so that
/// every stage of a command shares its probes).
fn known(session: &Session) -> MaxMessageSize {
    *session
        .max_message_size
        .lock()
        .unwrap_or_else(std::sync::PoisonError::into_inner)
}

fn learn(session: &Session, f: impl FnOnce(&mut MaxMessageSize)) {
    f(&mut session
        .max_message_size
        .lock()
        .unwrap_or_else(std::sync::PoisonError::into_inner));
}

/// Why a body of `body` bytes cannot be published (the limit, and the way out in its text), or
/// `None`. Probes the broker when what is known does not tell.
pub async fn refusal(session: &Session, body: usize) -> Result<Option<CopyRefusal>> {
    let body = body as u64;
    loop {
        match known(session).verdict(body) {
            Verdict::Fits => return Ok(None),
            Verdict::TooLarge { limit } => {
                return Ok(Some(CopyRefusal::MessageSize { body, limit }));
            }
            Verdict::Unknown { probe: size } => ask(session, size).await?,
        }
    }
}

/// Publishes a zero body of `size` bytes to nowhere and learns the verdict.
async fn ask(session: &Session, size: u64) -> Result<()> {
    let context = format!("cannot ask the broker whether it takes a {size}-byte message");
    let len = usize::try_from(size)
        .map_err(|_| Error::internal(format!("{context}: too large for this machine")))?;
    let body = vec![0u8; len];
    let answer = probe::publish(
        session,
        PROBE_ROUTING_KEY,
        &body,
        BasicProperties::default(),
        &context,
    )
    .await?;
    drop(body);
    match answer {
        probe::Answer::Took => learn(session, |k| k.took(size)),
        probe::Answer::Failed(e) => match refused_limit(&e, size) {
            Some(limit) => learn(session, |k| k.refused(limit)),
            None => return Err(session.amqp_error(&e, &context)),
        },
    }
    Ok(())
}

/// The limit a refusal of a `size`-byte probe names: a channel closed with 406 and the exact
/// text, for that size.
fn refused_limit(err: &lapin::Error, size: u64) -> Option<u64> {
    let (refused, limit) = parse_refusal(&probe::refusal_text(err)?)?;
    (refused == size && limit < size).then_some(limit)
}
