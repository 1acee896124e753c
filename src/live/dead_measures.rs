//! What `dead check` and `status` measure of a `q.dead` beyond its depth: the age of its oldest
//! dead letter, the count and age of what a filter keeps, the dead letters by cause (each a
//! peek of the whole queue that returns every message in place), and the rate at which dead
//! letters arrive (the management API's statistics).
//!
//! A quorum `q.dead` with a delivery limit is never peeked here unless the operator passed
//! `--spend-delivery-budget`:
//! every peek of one spends a delivery of the messages it reads before RabbitMQ 4.3, and on
//! every version a crash mid-peek does, and a check that runs every minute would spend
//! them for ever. Its age is then unknown, and said so.

use std::collections::BTreeMap;

use crate::broker::queue_kind::queue_kind;
use crate::broker::session::{BrokerVersion, Session};
use crate::clock::now_secs;
use crate::dead::filter::Filter;
use crate::dead::peek::PeekOptions;
use crate::dead::thresholds::{AgeReading, Oldest, Untimed, UntimedLetter, UntimedRule};
use crate::error::{Error, Result};
use crate::live::scan::{explain_missing, next_matching};
use crate::live::unreadable::with_dead_peek;
use crate::output::Output;
use crate::output::progress::Progress;
use crate::queue::QueueSettings;

/// Why a quorum `q.dead` is not peeked for its age, as true on the broker's `version` (the
/// same words as `dead ls`: before 4.3 every return spends a delivery; from 4.3 a look spends
/// none, and only a crash mid-peek does).
pub fn quorum_not_peeked(version: Option<BrokerVersion>) -> String {
    let cost = match version {
        Some(v) if v.at_least(4, 3) => format!(
            "on RabbitMQ {v} a peek spends no delivery, but if queuey is killed or loses its \
             connection mid-peek every message it holds spends one, a risk a check run every \
             few minutes would take each time"
        ),
        Some(v) => format!(
            "on RabbitMQ {v} a peek spends one delivery of every message it reads (RabbitMQ \
             counts returned deliveries until 4.3)"
        ),
        None => "a peek spends one delivery of every message it reads before RabbitMQ 4.3 \
                 (this broker's version is not known), and on every version if queuey is \
                 killed mid-peek"
            .to_owned(),
    };
    format!(
        "q.dead is a quorum queue, which queuey peeks only with --spend-delivery-budget: {cost}"
    )
}

/// [`quorum_not_peeked`] for the broker of `session`.
pub async fn quorum_not_peeked_here(session: &Session) -> String {
    quorum_not_peeked(session.broker_version().await.unwrap_or(None))
}

/// Whether `q.dead` is a quorum queue with a delivery limit in force (its argument or policy;
/// from RabbitMQ 4.0, 20 when none is set), by the management API (`None` without it): the
/// quorum queues a peek can cost messages. Without a limit (RabbitMQ 3.x, none set) a returned
/// delivery ends nothing, and such a queue is peeked as a classic one is.
pub async fn is_quorum(session: &Session, queue: &QueueSettings) -> Option<bool> {
    let options = PeekOptions {
        spend_delivery_budget: true,
        ..PeekOptions::new()
    };
    match queue_kind(session, &queue.dead_queue(), &options).await {
        Ok(kind) => Some(kind.is_quorum() && kind.delivery_limit.is_some()),
        Err(_) => None,
    }
}

/// The age of the oldest dead letter of `q.dead`: a peek of the whole queue, every message
/// returned in place. The head is not the oldest by the age queuey documents (an application's
/// dead letter is aged from its job's enqueue, and a job that retried for days dies after jobs
/// enqueued a second ago), and a head with no time says nothing of the rest. A quorum `q.dead`
/// is not peeked without `--spend-delivery-budget`: its age is then unknown.
pub async fn oldest_age(
    session: &Session,
    queue: &QueueSettings,
    peek: PeekOptions,
    untimed: UntimedRule,
    output: Output,
) -> Result<(AgeReading, Option<Untimed>)> {
    if is_quorum(session, queue).await == Some(true) && !peek.spend_delivery_budget {
        return Ok((
            AgeReading::Unknown {
                why: quorum_not_peeked_here(session).await,
            },
            None,
        ));
    }
    let found = scan(
        session,
        queue,
        &Filter::default(),
        peek,
        untimed,
        "the age of the oldest dead letter",
        output,
    )
    .await?;
    Ok((found.oldest, Some(found.untimed)))
}

/// What a whole peek of `q.dead` found: the dead letters `filter` keeps, the oldest of their
/// ages, and their count by cause.
#[derive(Clone, Debug)]
pub struct Scan {
    pub matched: u64,
    /// Dead letters the peek could not read: held by other consumers when it began, or left
    /// when a stop signal ended it (`None`: some, how many the management API does not say).
    pub not_read: Option<u64>,
    pub oldest: AgeReading,
    /// The dead letters read without a time, named, under the rule asked for.
    pub untimed: Untimed,
    pub by_cause: BTreeMap<String, u64>,
}

/// Reads `q.dead` whole (a peek that returns everything in place). Refuses a quorum `q.dead`
/// without `--spend-delivery-budget` (exit 2), naming `what` needs the scan. `untimed`: what
/// the oldest age makes of the dead letters without a time.
pub async fn scan(
    session: &Session,
    queue: &QueueSettings,
    filter: &Filter,
    peek: PeekOptions,
    untimed: UntimedRule,
    what: &str,
    output: Output,
) -> Result<Scan> {
    if is_quorum(session, queue).await == Some(true) && !peek.spend_delivery_budget {
        return Err(Error::usage(format!(
            "{what} reads {:?} whole, and it is a quorum queue: {}",
            queue.dead_queue(),
            quorum_not_peeked_here(session).await
        ))
        .with_hint("pass --spend-delivery-budget, or leave out what needs the scan"));
    }
    let now = now_secs();
    let mut matched = 0u64;
    let mut by_cause = BTreeMap::<String, u64>::new();
    let mut oldest = Oldest::default();
    let read = with_dead_peek(session, &queue.dead_queue(), peek, async |p| {
        let progress = Progress::new(output, Some(p.target), "scanning");
        while let Some((d, dl)) = next_matching(p, queue, filter, now, &progress).await? {
            matched += 1;
            *by_cause.entry(dl.cause.as_str().to_owned()).or_default() += 1;
            oldest.add(dl.age(now), || UntimedLetter {
                position: d.position,
                message_id: dl.message_id.clone(),
                why: dl.untimed_why(&d.message.body, now),
            });
        }
        progress.finish();
        // What the peek could not see may be older than all it read: messages others held
        // when it began, and what a stop signal left unread.
        // Consumers whose holdings the API does not count yet: some, how many unknown.
        let mut unread = p.held_elsewhere.map_or(Some(0), |h| h.messages);
        if p.interrupted() {
            unread = unread.map(|n| n + p.target.saturating_sub(p.received()));
        }
        Ok(unread)
    })
    .await;
    match read {
        Ok(unread) => Ok(Scan {
            matched,
            not_read: unread,
            oldest: oldest.reading(unread, untimed),
            untimed: oldest.untimed(untimed),
            by_cause,
        }),
        Err(e) => Err(explain_missing(session, queue, e).await),
    }
}

/// Dead letters arriving in `q.dead` per second, by the management API's statistics: the
/// larger of the publish rate (an application publishes its dead letters) and the growth of
/// the queue (RabbitMQ does not count the messages it dead-letters itself as publishes).
pub async fn arrival_rate(
    session: &Session,
    queue: &QueueSettings,
) -> std::result::Result<(f64, String), String> {
    let live = match session.live_queue(&queue.dead_queue()).await {
        Ok(Some(live)) => live,
        Ok(None) => return Err("q.dead does not exist".to_owned()),
        Err(e) => return Err(format!("needs the management API ({})", e.message)),
    };
    match (live.publish_rate(), live.growth_rate()) {
        (None, None) => Err("the management API has no statistics for q.dead yet".to_owned()),
        (publish, growth) => {
            let (p, g) = (publish.unwrap_or(0.0), growth.unwrap_or(0.0).max(0.0));
            let from = if g > p {
                "growth of q.dead (statistics)"
            } else {
                "publishes into q.dead (statistics)"
            };
            Ok((p.max(g), from.to_owned()))
        }
    }
}
