//! Scanning a `q.dead`: the next dead letter a filter keeps, and what to say when the queue is
//! not there.
//!
//! Where it sits in the looks (`broker::peek`'s doc): `next_matching` is the loop of `dead ls` and
//! `dead export`, between `Peek::next` and the output.

use crate::broker::peek::{Delivered, Peek};
use crate::broker::session::Session;
use crate::cluster::ApiCluster;
use crate::dead::decode::{self, DeadLetter};
use crate::dead::filter::Filter;
use crate::dead::ledger::{Scope, cluster_identity};
use crate::error::{Error, Kind, Result};
use crate::output::progress::Progress;
use crate::queue::QueueSettings;
use crate::shell::queuey_command;

/// The next held dead letter that passes `filter`, decoded; the others are skipped (and stay
/// held, to go back in place).
pub async fn next_matching(
    p: &mut Peek<'_>,
    queue: &QueueSettings,
    filter: &Filter,
    now: u64,
    progress: &Progress,
) -> Result<Option<(Delivered, DeadLetter)>> {
    while let Some(d) = p.next().await? {
        progress.inc(1);
        let dl = decode::decode(&d.message, &queue.name, &queue.options);
        if filter.matches(&dl, &d.message, now) {
            return Ok(Some((d, dl)));
        }
    }
    Ok(None)
}

/// A stream q.dead's error (see `Session::stream_dead_queue`), with the command that declares
/// the logical queue's dead-letter queue again once the stream is gone.
pub fn with_declare_command(err: Error, queue: &QueueSettings) -> Error {
    let hint = err.hint.clone().unwrap_or_default();
    let declare = queuey_command(&["declare", &queue.name], queue);
    err.with_hint(format!("{hint} with `{declare}`"))
}

/// Refuses a q.dead that is a stream (exit 7, with the way out), or a quorum one without a
/// majority of its members online (exit 7: a purge would wait for it, then fail as if the
/// broker were gone), before a command that does not peek first (`dead purge` of the whole
/// queue). Without the management API nothing is known here: the peek and `Session::purge`
/// say it from the broker's own refusal.
pub async fn refuse_stream(session: &Session, queue: &QueueSettings) -> Result<()> {
    let dead = queue.dead_queue();
    match session.live_queue(&dead).await {
        Ok(Some(live)) if live.queue_type.as_deref() == Some("stream") => Err(
            with_declare_command(session.stream_dead_queue(&dead), queue),
        ),
        Ok(Some(live)) if live.majority_lost().is_some() => {
            let (online, members) = live.majority_lost().unwrap_or_default();
            Err(live.no_majority_error(session.vhost(), online, members))
        }
        Ok(_) => Ok(()),
        Err(e) if e.kind.is_api() => Ok(()),
        Err(e) => Err(e),
    }
}

/// Queue names read at most to suggest near ones (20 pages of the management API's listing).
const NAMES_TO_SUGGEST_FROM: usize = 10_000;

/// `err` from reading q.dead, explained when it is q.dead that does not exist: see
/// [`missing_dead_queue`]. Other errors are returned as they are.
pub async fn explain_missing(session: &Session, queue: &QueueSettings, err: Error) -> Error {
    if err.kind == Kind::UnsupportedQueue {
        return with_declare_command(err, queue);
    }
    if err.kind != Kind::QueueNotFound {
        return err;
    }
    // The peek asked the management API, which answers 404 for a missing vhost too: AMQP
    // tells the two apart (a missing vhost refuses the connection, exit 5).
    match session.passive_declare(&queue.dead_queue()).await {
        Ok(None) => missing_dead_queue(session, queue).await,
        Ok(Some(_)) => err,
        Err(e) => e,
    }
}

/// The answer when `q.dead` does not exist: the queue, and where the operator most likely meant
/// to go, with the command that goes there: the logical queue when `q.dead` itself was named,
/// `queuey declare q` when `q` exists without its dead-letter queue, the near names that exist
/// (management API), or how to list the queues of the vhost.
pub async fn missing_dead_queue(session: &Session, queue: &QueueSettings) -> Error {
    use crate::suggest::{self, MissingDeadQueue};
    let dead = queue.dead_queue();
    let vhost = session.vhost();
    let name = &queue.name;
    let err = Error::new(
        Kind::QueueNotFound,
        format!("queue {dead:?} does not exist in vhost {vhost:?}"),
    );
    let listing = match session.api().await {
        Ok(api) => api.queue_names(vhost, NAMES_TO_SUGGEST_FROM).await,
        Err(e) => Err(e),
    };
    let (existing, listed) = match listing {
        Ok(names) => (names, true),
        Err(e) if e.kind == Kind::AccessRefused => return e,
        // Without the management API, AMQP can still tell whether `q` itself exists.
        Err(_) => match session.passive_declare(name).await {
            Ok(Some(_)) => (vec![name.clone()], false),
            Ok(None) => (Vec::new(), false),
            Err(e) => return e,
        },
    };
    let advice = suggest::missing_dead_queue(
        name,
        &queue.options.dead_suffix,
        &queue.options.deferred_suffix,
        &existing,
    );
    let hint = match advice {
        MissingDeadQueue::DeadQueueGiven { logical } => format!(
            "{name:?} is itself a dead-letter queue, and dead-letter commands take its logical \
             queue: `{}`",
            queuey_command(&["dead", "ls", &logical], queue)
        ),
        MissingDeadQueue::HoldQueueGiven { logical } => format!(
            "{name:?} is a hold queue, and dead-letter commands take its logical queue: `{}`",
            queuey_command(&["dead", "ls", &logical], queue)
        ),
        MissingDeadQueue::NotDeclared => format!(
            "the work queue {name:?} exists, but not its dead-letter queue: `{}` creates it \
             (and checks {name:?} against its settings)",
            queuey_command(&["declare", name], queue)
        ),
        MissingDeadQueue::Near(near) => {
            let names: Vec<String> = near.iter().map(|n| format!("{n:?}")).collect();
            format!(
                "did you mean {}? `{}` lists its dead letters",
                names.join(" or "),
                queuey_command(&["dead", "ls", &near[0]], queue)
            )
        }
        MissingDeadQueue::Nothing if listed => format!(
            "no queue in vhost {vhost:?} has a name near {name:?}: check the name, and the \
             vhost in --url; `{}` lists the queues there",
            crate::shell::list_queues_command(vhost)
        ),
        MissingDeadQueue::Nothing => format!(
            "check the name, and the vhost in --url; `{}` lists the queues there (with the \
             management API on, queuey suggests the near names itself)",
            crate::shell::list_queues_command(vhost)
        ),
    };
    // Not through `sanitize`, which doubles backslashes: names here are `{:?}`-escaped, and
    // the commands are quoted by `shell`, which spells every invisible character visibly.
    err.with_hint(hint)
}

/// What a journal or an archive of `dead` on this session's broker belongs to: the cluster
/// (its name from the AMQP connection, else from the management API; a cluster never named
/// is its first node, see [`cluster_identity`]), so that a rerun through any of its nodes
/// finds the journal; the AMQP URL's `host:port` when neither tells it.
pub async fn ledger_scope(session: &Session, dead: &str) -> Scope {
    // The address the connection opened on, among several.
    let _ = session.connection().await;
    let address = format!(
        "{}:{}",
        session.settings().amqp.host,
        session.settings().amqp.port
    );
    let overview = session.overview().await.ok().cloned();
    let cluster = session
        .server_properties()
        .cluster_name
        .or_else(|| overview.as_ref().and_then(|o| o.cluster_name.clone()));
    let broker = match cluster {
        Some(name) => {
            let node = overview.as_ref().and_then(|o| o.node.clone());
            let nodes = match node {
                Some(_) => session.cluster_nodes().await.unwrap_or_default(),
                None => Vec::new(),
            };
            let api = ApiCluster {
                node: node.as_deref(),
                name: overview.as_ref().and_then(|o| o.cluster_name.as_deref()),
                nodes: &nodes,
            };
            cluster_identity(&name, &api)
        }
        None => address,
    };
    Scope {
        broker,
        vhost: session.vhost().to_owned(),
        queue: dead.to_owned(),
    }
}
