//! The publish stage, the same for a replay from q.dead and from a file: copies out in
//! confirmed batches, each one recorded in the ledger in doubt (flushed) before it is
//! published and decided (flushed) before its dead letter goes on to the settle stage.
//!
//! Every job carries its [`Place`] in the window: the body's bytes go back to the budget once
//! the batch is published, the place goes on with the outcome to the settle stage, and a job
//! dropped here (a stop signal, a failure) gives both back by being dropped.
//!
//! Where it sits (`replay/mod.rs`): stage 4, between the reader and the settle stage.

use std::time::{Duration, Instant};

use tokio::sync::mpsc::{self, error::TryRecvError};

use super::ledger::{InFlight, Journaled, duplicate_name};
use super::settle::{Settle, settle_for};
use super::window::Place;
use super::{Shared, Tally};
use crate::broker::publish::{Copy, Outcome, Publisher};
use crate::broker::session::Session;
use crate::dead::replay::copy_id;
use crate::dead::report::ReplayReport;
use crate::error::{Error, Result};

/// A dead letter (or a file's line) on its way from the read stage to the publish stage.
// Boxing the large variant would cost an allocation per message; the small ones are rare.
#[allow(clippy::large_enum_variant)]
pub(super) enum Job<'w> {
    /// Its copy, to publish.
    Copy(Copy<Token<'w>>),
    /// The ledger proves its copy exists: to be acked, in order, without a new copy (once its
    /// `claimed` line is on disk). Only from q.dead: a file's line is never removed.
    Copied(Token<'w>),
}

/// What the publish stage keeps of each dead letter until it is decided: its delivery tag (0
/// for a file's line), what the ledger and the report keep of its copy, and its place.
pub(super) struct Token<'w> {
    pub(super) tag: u64,
    pub(super) copy: InFlight,
    pub(super) place: Place<'w>,
}

impl Journaled for Token<'_> {
    fn in_flight(&self) -> &InFlight {
        &self.copy
    }
}

/// The publish stage: copies out in confirmed batches, each decided copy's dead letter handed
/// on to the settle stage.
pub(super) struct Publish<'a, 's> {
    shared: &'a Shared<'a>,
    session: &'s Session,
    settle: mpsc::Sender<Settle<'a>>,
    outcomes: ReplayReport,
    publisher: Option<Publisher<'s, Token<'a>>>,
    pace: Pace,
    /// At most this many copies are taken from the read stage and published in one go. Under
    /// --rate, what the rate allows in 50 ms, so that copies go out (and dead letters are
    /// settled) steadily rather than in one burst after a whole chunk's wait.
    chunk: usize,
}

impl<'a, 's> Publish<'a, 's> {
    /// The publish stage of a run, its decided dead letters sent to `settle`; paced by
    /// `--rate`, its publisher opened on the first copy.
    pub(super) fn new(
        shared: &'a Shared<'a>,
        session: &'s Session,
        settle: mpsc::Sender<Settle<'a>>,
    ) -> Publish<'a, 's> {
        let rate = shared.settings.rate;
        Publish {
            shared,
            session,
            settle,
            outcomes: ReplayReport::default(),
            publisher: None,
            pace: Pace::new(rate),
            chunk: publish_chunk(rate),
        }
    }

    pub(super) async fn run(mut self, mut jobs: mpsc::Receiver<Job<'a>>) -> Result<ReplayReport> {
        let result = self.pump(&mut jobs).await;
        // Wake a reader waiting for byte budget or a place: nobody will release any now.
        self.shared.window.close();
        drop(jobs);
        result.map(|()| self.outcomes)
    }

    async fn pump(&mut self, jobs: &mut mpsc::Receiver<Job<'a>>) -> Result<()> {
        loop {
            let first = match jobs.try_recv() {
                Ok(j) => j,
                Err(TryRecvError::Disconnected) => break,
                Err(TryRecvError::Empty) => {
                    // Nothing waiting: decide what is in flight rather than hold it (the read
                    // stage may be waiting for places in the window).
                    self.decide_in_flight().await?;
                    match jobs.recv().await {
                        Some(j) => j,
                        None => break,
                    }
                }
            };
            if self.shared.stop.is_set() {
                // A stop signal: publish nothing more; what was read stays where it is (the
                // jobs dropped give their places back).
                break;
            }
            let mut batch = vec![first];
            while batch.len() < self.chunk {
                match jobs.try_recv() {
                    Ok(j) => batch.push(j),
                    Err(_) => break,
                }
            }
            let mut copies = Vec::with_capacity(batch.len());
            for job in batch {
                match job {
                    Job::Copy(copy) => {
                        self.pace.wait().await;
                        self.shared.tally.start_copy();
                        copies.push(copy);
                    }
                    Job::Copied(token) => {
                        // Settled in order, after what is in flight.
                        self.publish(std::mem::take(&mut copies)).await?;
                        self.decide_in_flight().await?;
                        let event = Settle::Ack {
                            tag: token.tag,
                            digest: token.copy.digest,
                            claimed: true,
                            copy: 0,
                            place: token.place,
                        };
                        self.send(event).await?;
                    }
                }
            }
            self.publish(copies).await?;
        }
        if let Some(mut publisher) = self.publisher.take() {
            let decided = publisher.flush().await?;
            self.record_and_settle(decided).await?;
            publisher.close().await;
        }
        Ok(())
    }

    /// Publishes `copies` (opening the publisher on first use), hands over what is decided,
    /// and gives their bytes back to the budget.
    ///
    /// Each copy is recorded in the ledger as in doubt, and the ledger flushed to disk, before
    /// it is published: whatever fails from then on, a rerun knows which copies may be in
    /// their targets.
    async fn publish(&mut self, mut copies: Vec<Copy<Token<'a>>>) -> Result<()> {
        if copies.is_empty() {
            return Ok(());
        }
        // Held until the bodies are out, then dropped: back to the budget.
        let bytes: Vec<_> = copies
            .iter_mut()
            .filter_map(|c| c.token.place.take_bytes())
            .collect();
        self.shared.journal.borrow_mut().before_publish(&copies)?;
        if self.publisher.is_none() {
            // `--channels`: each channel's batches are a share of the one batch size, so the
            // copies in flight stay within the window whatever the channels.
            let lanes = self.shared.settings.channels;
            let window =
                (paced_window(self.shared.settings.rate, self.shared.window.size()) / lanes).max(1);
            self.publisher =
                Some(Publisher::open_lanes(self.session, window, lanes, copy_id).await?);
        }
        let Some(publisher) = self.publisher.as_mut() else {
            return Err(Error::internal("replay: no publisher"));
        };
        let decided = publisher.publish_many(copies).await?;
        self.record_and_settle(decided).await?;
        drop(bytes);
        Ok(())
    }

    /// Decides every copy in flight.
    pub(super) async fn decide_in_flight(&mut self) -> Result<()> {
        if let Some(publisher) = self.publisher.as_mut() {
            let decided = publisher.flush().await?;
            self.record_and_settle(decided).await?;
        }
        Ok(())
    }

    /// Sends each decided copy's dead letter to the settle stage, in order, and counts the
    /// outcome.
    ///
    /// The copies decided delivered are recorded in the ledger, and the ledger flushed to
    /// disk, before any of their dead letters goes to be acked (from then on a rerun counts
    /// them as acks in doubt). A returned copy was routed nowhere, and a refused (nacked) one
    /// was not taken: their doubts are settled too. An `Unknown` copy stays in doubt while this
    /// run lasts (a run that ends cleanly leaves its dead letter in q.dead, to be copied again:
    /// a duplicate at worst).
    async fn record_and_settle(&mut self, decided: Vec<(Token<'a>, Outcome)>) -> Result<()> {
        self.shared.journal.borrow_mut().after_publish(&decided)?;
        let from_file = self.shared.settings.from_file.is_some();
        for (token, outcome) in decided {
            let Token {
                tag,
                copy: token,
                place,
            } = token;
            self.shared.rooms.borrow_mut().decided(&token.target);
            if outcome == Outcome::Refused {
                let rooms = self.shared.rooms.borrow();
                if from_file {
                    // A refusal that what the run read of the target does not explain: a
                    // limit set since, which may have dead-lettered the copy while its line
                    // stays to replay. A file run has no q.dead in hand to look in: the
                    // summary says so.
                    if !rooms.refusal_explained(&token.target) {
                        self.outcomes.dead_lettered_not_found += 1;
                    }
                } else if rooms.refused_copies_return(&token.target) != Some(false) {
                    // It may be back in q.dead, dead-lettered by its target: looked for at
                    // the end. So is a copy refused by a target the run read with no limit
                    // (or did not read): the refusal itself says a limit came since, maybe
                    // reject-publish-dlx.
                    self.shared
                        .refused
                        .borrow_mut()
                        .insert(token.copy, token.target.clone());
                }
            }
            self.outcomes.record(&token.target, &outcome, token.reset);
            if outcome == Outcome::Delivered {
                Tally::add(&self.shared.tally.copied, 1);
                if token.may_duplicate {
                    let id = duplicate_name(token.message_id.as_deref(), &token.digest);
                    self.outcomes.may_duplicate(id);
                }
            }
            self.send(settle_for(&outcome, tag, token.digest, token.copy, place))
                .await?;
        }
        Ok(())
    }

    async fn send(&self, event: Settle<'a>) -> Result<()> {
        self.settle
            .send(event)
            .await
            .map_err(|_| Error::internal("replay: the settle stage stopped"))
    }
}

/// The publisher's batch: a quarter of the window, or under `--rate` at most half a second's
/// worth. The publisher decides a batch only once the next one is confirmed (that is how it
/// attributes returns), so with the batch being filled, three batches of copies can be
/// published and not yet acked; a quarter keeps them within the window. A full batch at a
/// slow rate would settle nothing for seconds and then everything at once.
fn paced_window(rate: Option<f64>, window: usize) -> usize {
    let batch = (window / 4).max(1);
    rate.map_or(batch, |r| ((r / 2.0) as usize).clamp(1, batch))
}

/// How many copies are published in one go: 256, or under `--rate` what the rate allows in
/// 50 ms, so that copies go out (and are settled) steadily rather than in bursts.
fn publish_chunk(rate: Option<f64>) -> usize {
    rate.map_or(256, |r| ((r / 20.0) as usize).clamp(1, 256))
}

/// Keeps publishing under `rate` messages per second.
struct Pace {
    rate: Option<f64>,
    start: Instant,
    sent: u64,
}

impl Pace {
    fn new(rate: Option<f64>) -> Pace {
        Pace {
            rate,
            start: Instant::now(),
            sent: 0,
        }
    }

    async fn wait(&mut self) {
        if let Some(rate) = self.rate {
            let due = self.start + Duration::from_secs_f64(self.sent as f64 / rate);
            let now = Instant::now();
            if due > now {
                tokio::time::sleep(due - now).await;
            }
        }
        self.sent += 1;
    }
}
