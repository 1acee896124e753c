//! A quorum `q.dead` that holds a message queuey's AMQP client cannot parse is not read again
//! by itself.
//!
//! lapin drops the connection when it meets such a message (a header name or a short-string
//! property that is not UTF-8: RabbitMQ takes both from a publisher), and on a quorum queue
//! with a delivery limit a closed connection spends one delivery of every message it held, on
//! every version. A command run in a loop (cron, a CI gate, an operator retrying) would meet the
//! same message every time and, after as many runs as the limit, the broker would drop the
//! messages read around it. So the first run that meets it leaves a mark in the state
//! directory (`unreadable-<vhost>-<queue>-<hash>.mark`, next to the replay journals), and
//! every later read of that queue refuses before it consumes anything, unless the operator
//! passes `--retry-unreadable`. A read that gets past the place (or reads the whole
//! queue) without meeting it again removes the mark. Classic queues spend nothing and are
//! never marked.
//!
//! Where it sits in the looks (`broker::peek`'s doc): between the command and `with_peek`; replay,
//! purge, edit and dead check read q.dead through it too.

use std::path::PathBuf;

use crate::broker::peek::{Peek, with_peek};
use crate::broker::session::Session;
use crate::dead::ledger::Scope;
use crate::dead::peek::PeekOptions;
use crate::error::{Error, Kind, Result};
use crate::ledger_file::state_dir;
use crate::live::scan::ledger_scope;

/// What a run that met an unreadable message left behind.
#[derive(Clone, Debug, PartialEq, Eq)]
struct Mark {
    /// Deliveries read before it.
    before: u64,
    /// When it was met (Unix milliseconds).
    at: i64,
}

impl Mark {
    fn parse(text: &str) -> Option<Mark> {
        let mut before = None;
        let mut at = None;
        for line in text.lines() {
            match line.split_once('=') {
                Some(("before", v)) => before = v.trim().parse().ok(),
                Some(("at", v)) => at = v.trim().parse().ok(),
                _ => {}
            }
        }
        Some(Mark {
            before: before?,
            at: at.unwrap_or(0),
        })
    }

    fn text(&self) -> String {
        format!(
            "# queuey: a message queuey cannot parse was met here; see `queuey dead ls --help`\n\
             before={}\nat={}\n",
            self.before, self.at
        )
    }
}

fn path(scope: &Scope) -> PathBuf {
    let dir = state_dir().unwrap_or_else(|| std::env::temp_dir().join("queuey-state"));
    dir.join(crate::ledger_file::scoped_file_name(
        scope,
        "unreadable",
        "mark",
    ))
}

/// The mark of `scope`, if a run left one (an unreadable mark file counts as one met at the
/// start of the queue: refusing once too often costs a flag, reading once too often messages).
fn read(scope: &Scope) -> Option<Mark> {
    match std::fs::read(path(scope)) {
        Ok(bytes) => {
            Some(Mark::parse(&String::from_utf8_lossy(&bytes)).unwrap_or(Mark { before: 0, at: 0 }))
        }
        Err(_) => None,
    }
}

/// Leaves the mark; a failure to write it is said, never fatal (the run's own error matters).
fn write(scope: &Scope, mark: &Mark) -> Option<String> {
    let path = path(scope);
    let written = path
        .parent()
        .map_or(Ok(()), std::fs::create_dir_all)
        .and_then(|()| std::fs::write(&path, mark.text()));
    written.err().map(|e| {
        format!(
            "; queuey could not leave its mark at {} ({e}), so it will not stop a next run by \
             itself",
            path.display()
        )
    })
}

fn clear(scope: &Scope) {
    let _ = std::fs::remove_file(path(scope));
}

/// [`with_peek`] over `q.dead`, guarded on a quorum queue whose closed connections spend
/// deliveries (see the module's documentation).
pub async fn with_dead_peek<'s, T>(
    session: &'s Session,
    queue: &str,
    options: PeekOptions,
    f: impl AsyncFnOnce(&mut Peek<'s>) -> Result<T>,
) -> Result<T> {
    let retry = options.retry_unreadable;
    let limited = options.max_messages.is_some();
    with_peek(session, queue, options, async |p| {
        if !p.kind.closes_count {
            return f(p).await;
        }
        let scope = ledger_scope(session, queue).await;
        let mark = read(&scope);
        if let Some(m) = &mark
            && !retry
        {
            return Err(refusal(queue, m, p.kind.delivery_limit));
        }
        let mut result = f(p).await;
        match &mut result {
            Err(e) if e.kind == Kind::UnreadableMessage => {
                let met = Mark {
                    before: p.fetched(),
                    at: crate::clock::now_millis().unwrap_or(0),
                };
                if let Some(why) = write(&scope, &met) {
                    e.message.push_str(&why);
                }
            }
            Ok(_) if !p.interrupted() => {
                if let Some(m) = &mark
                    && (p.received() > m.before || (!limited && p.received() >= p.target))
                {
                    clear(&scope);
                }
            }
            _ => {}
        }
        result
    })
    .await
}

fn refusal(queue: &str, mark: &Mark, limit: Option<u64>) -> Error {
    let when = if mark.at > 0 {
        format!(" on {}", crate::output::time::format_utc(mark.at))
    } else {
        String::new()
    };
    let limit = limit.map_or(String::new(), |l| format!(" (delivery limit {l})"));
    let n = crate::output::plural(mark.before, "delivery");
    Error::new(
        Kind::UnreadableMessage,
        format!(
            "queue {queue:?} holds a message queuey's AMQP client cannot parse: a run{when} \
             met it after {n}. On this quorum queue{limit} every read that meets it \
             again closes its connection and spends one delivery of each message it holds, so \
             queuey does not read the queue again by itself"
        ),
    )
    .with_hint(format!(
        "take that message out with a client that can read it (pika; or the management UI's \
         Get messages on RabbitMQ 3.x, Ack mode \"Reject requeue false\" once it is first: \
         the API of 4.3 answers 500 for it), or move what is before it with `queuey dead \
         replay <queue> --limit {n} --window 1 --retry-unreadable` (a quorum queue may have \
         changed the order when the connection was lost). --retry-unreadable reads the queue \
         anyway; a read that gets past the place, or reads the whole queue, forgets it"
    ))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_mark_reads_back_what_was_written() {
        let m = Mark {
            before: 41,
            at: 1_764_000_000_000,
        };
        assert_eq!(Mark::parse(&m.text()), Some(m));
        assert_eq!(Mark::parse("garbage"), None);
    }
}
