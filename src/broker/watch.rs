//! Waiting for an answer the broker owes, without waiting for ever.
//!
//! A quorum queue that loses the majority of its members neither gives nor takes: a consume,
//! a delivery, a confirmation of a copy into it or an ack on it waits, and about a minute
//! later the broker closes the connection as if it were gone (see docs/broker-notes.md, A
//! three-node cluster). The
//! management API says it at once (the queue's `members` and `online`). So every such wait is
//! watched: every [`TICK`] without an answer, the API is asked about the quorum queues the
//! answer depends on, and a lost majority ends the wait with [`Kind::NoMajority`] by name
//! (exit 7). `--timeout D` ends any such wait after D with [`Kind::Stalled`] (exit 7). Either
//! way the caller stops as it does on a lost connection: what is confirmed is journaled, what
//! is not stays where it was, and the counts are said.

use std::future::Future;
use std::time::{Duration, Instant};

use super::session::Session;
use crate::error::{Error, Kind, Result};

/// How long a wait goes before the API is asked.
pub const TICK: Duration = Duration::from_millis(1500);

impl Session {
    /// Awaits `answer`, which the broker owes about `queues` (`what` names it in an error),
    /// checking every [`TICK`] whether one of them lost its majority, and ending after
    /// `--timeout` when one is set.
    pub async fn owed<T>(
        &self,
        what: &str,
        queues: &[&str],
        answer: impl Future<Output = Result<T>>,
    ) -> Result<T> {
        let mut answer = std::pin::pin!(answer);
        let started = Instant::now();
        loop {
            if let Ok(r) = tokio::time::timeout(TICK, &mut answer).await {
                return r;
            }
            self.majority_check(queues).await?;
            self.timeout_check(what, started)?;
        }
    }

    /// Fails with [`Kind::NoMajority`] when one of `queues` is a quorum queue whose majority
    /// is lost (the API unanswered within a [`TICK`]: nothing is known, nothing is said).
    pub async fn majority_check(&self, queues: &[&str]) -> Result<()> {
        for queue in queues {
            // An API that does not answer either (its node frozen) must not hold the wait.
            if let Ok(Ok(Some(live))) = tokio::time::timeout(TICK, self.live_queue(queue)).await
                && let Some((online, members)) = live.majority_lost()
            {
                return Err(live.no_majority_error(self.vhost(), online, members));
            }
        }
        Ok(())
    }

    /// Returns only when one of `queues` has lost its majority, checked every [`TICK`]: raced
    /// against a whole run (replay, purge), it stops the run by name within seconds, whatever
    /// the run is waiting for then (a consume, its cancel, a confirmation, a rate limit).
    pub async fn majority_watch(&self, queues: &[String]) -> Error {
        let queues: Vec<&str> = queues.iter().map(String::as_str).collect();
        loop {
            tokio::time::sleep(TICK).await;
            if let Err(e) = self.majority_check(&queues).await {
                return e;
            }
        }
    }

    /// Fails with [`Kind::Stalled`] when a wait begun at `started` has passed `--timeout`.
    pub fn timeout_check(&self, what: &str, started: Instant) -> Result<()> {
        match self.settings().stall_timeout {
            Some(limit) if started.elapsed() >= limit => Err(stalled(what, limit)),
            _ => Ok(()),
        }
    }
}

/// The error of a wait for `what` that passed `--timeout limit`.
pub fn stalled(what: &str, limit: Duration) -> Error {
    Error::new(
        Kind::Stalled,
        format!(
            "{what}: the broker gave no answer within --timeout {}",
            crate::duration::format_duration(limit)
        ),
    )
    .with_hint(
        "`queuey status` and the management UI show the queue and its nodes; run the same \
         command again once the broker answers (a longer --timeout waits longer)",
    )
}
