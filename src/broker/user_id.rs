//! Asking the broker whether a copy's `user_id` would be taken from this connection, before
//! publishing a copy the broker would refuse (`user_id` in the pure core says why, and what is
//! known).
//!
//! A publish whose `user_id` is not the connection's user (and the user without the
//! `impersonator` tag) closes its *channel* (406 PRECONDITION_FAILED): on the publisher's
//! channel that would fail every copy in flight with it and stop the run, on every rerun
//! again. So before the first copy whose `user_id` is another user's goes out, a probe asks:
//! an empty body claiming that `user_id`, published on a confirm channel of its own on the
//! session's connection, through the default exchange to [`PROBE_ROUTING_KEY`] (a reserved
//! `amq.` name no queue can have: routed nowhere, delivered nowhere, not mandatory so nothing
//! comes back). The broker checks the property before routing: an ack says the user may set
//! any `user_id` (it has the tag); a channel close with the exact refusal text says it may
//! not, and names the user. Anything else is an error, never a verdict. The answer holds for
//! the connection: one probe at most per command, in practice.
//!
//! The management API's `/api/whoami` lists the tags too, but it answers for the API's user
//! (which `--api-url` may make another), needs the API, and needs a tag of its own to read:
//! the probe asks the connection that publishes.

use lapin::BasicProperties;

use super::probe;
use super::session::Session;
use crate::error::Result;
use crate::user_id::{PROBE_ROUTING_KEY, RefusedUserId, UserIdCheck, Verdict, parse_refusal};

fn known(session: &Session) -> UserIdCheck {
    session
        .user_ids
        .lock()
        .unwrap_or_else(std::sync::PoisonError::into_inner)
        .clone()
}

fn learn(session: &Session, f: impl FnOnce(&mut UserIdCheck)) {
    f(&mut session
        .user_ids
        .lock()
        .unwrap_or_else(std::sync::PoisonError::into_inner));
}

/// The claimed `user_id` and the connection's user, when the broker would refuse a copy
/// claiming `user_id` (`None`: it takes it). Probes the broker when what is known does not tell.
pub async fn refusal(session: &Session, user_id: Option<&str>) -> Result<Option<RefusedUserId>> {
    let Some(claimed) = user_id else {
        return Ok(None);
    };
    loop {
        match known(session).verdict(user_id) {
            Verdict::Passes => return Ok(None),
            Verdict::Refused { user } => {
                return Ok(Some(RefusedUserId {
                    claimed: claimed.to_owned(),
                    user,
                }));
            }
            Verdict::Unknown => ask(session, claimed).await?,
        }
    }
}

/// Publishes an empty body claiming `claimed` to nowhere and learns the verdict.
async fn ask(session: &Session, claimed: &str) -> Result<()> {
    let context = format!("cannot ask the broker whether it takes a user_id of {claimed:?}");
    let answer = probe::publish(
        session,
        PROBE_ROUTING_KEY,
        &[],
        BasicProperties::default().with_user_id(claimed.into()),
        &context,
    )
    .await?;
    match answer {
        probe::Answer::Took => learn(session, |k| k.took(claimed)),
        probe::Answer::Failed(e) => match refused_user(&e, claimed) {
            Some(user) => learn(session, |k| k.refused(&user)),
            None => return Err(session.amqp_error(&e, &context)),
        },
    }
    Ok(())
}

/// The authenticated user a refusal of a probe claiming `claimed` names: a channel closed with
/// 406 and the exact text, for that `user_id`.
fn refused_user(err: &lapin::Error, claimed: &str) -> Option<String> {
    let (refused, user) = parse_refusal(&probe::refusal_text(err)?)?;
    (refused == claimed && user != claimed).then_some(user)
}
