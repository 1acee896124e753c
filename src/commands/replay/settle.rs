//! The settle stage of the pipeline: each held dead letter acked once its copy is safe (its
//! ledger line on disk first: `copied`, or `claimed` for one the ledger proves copied already),
//! or kept, in delivery order (one the read stage rescued, on its last delivery, is only
//! counted). A replay from a file has nothing to ack: its settle stage only frees each line's
//! place and counts it.
//!
//! Where it sits (`replay/mod.rs`): stage 5, the last of the three joined stages.

use std::collections::VecDeque;
use std::time::{Duration, Instant};

use super::window::Place;
use super::{Shared, Tally};
use crate::broker::acker::Acker;
use crate::broker::publish::Outcome;
use crate::error::Result;
use crate::output::progress::Progress;

/// How long after a barrier the acks of a quorum q.dead are taken as processed by the queue
/// (only for the ledger's count of possible duplicates, never for a claim): the channel may
/// still hold them back from the queue (see `Peek::finish`), which it does for milliseconds on
/// a working queue.
const QUORUM_RECORDS_WAIT: Duration = Duration::from_secs(2);

/// What the ack stage does with one held dead letter. Sent in delivery order (see
/// [`Settler`]). `place`: a dead letter that went through the publish stage holds one place of
/// the window until it is settled (dropped with it).
pub(super) enum Settle<'w> {
    /// Ack it: its copy is confirmed and its `copied` line on disk, or (`claimed`) the ledger
    /// proves a copy of its content exists, and the ack waits for its `claimed` line on disk.
    /// `digest` names it in the ledger's `settled` line once the ack is processed.
    Ack {
        tag: u64,
        digest: String,
        claimed: bool,
        /// Its copy's number in this run's ledger (0 for a claim).
        copy: u64,
        place: Place<'w>,
    },
    /// It stays in q.dead: returned at the end.
    Keep { place: Option<Place<'w>> },
    /// The read stage settled it (replaced it by a copy): counted, in its turn.
    Counted,
}

/// What becomes of the dead letter `tag` once its copy's outcome is known: acked only when the
/// copy was confirmed and routed; otherwise (returned, refused, unattributed) it stays. (A
/// dead letter on its last delivery never gets here: the read stage replaces it first.)
pub(super) fn settle_for<'w>(
    outcome: &Outcome,
    tag: u64,
    digest: String,
    copy: u64,
    place: Place<'w>,
) -> Settle<'w> {
    match outcome {
        Outcome::Delivered => Settle::Ack {
            tag,
            digest,
            claimed: false,
            copy,
            place,
        },
        _ => Settle::Keep { place: Some(place) },
    }
}

/// Settles held dead letters on the channel that holds them. The progress bar counts here, as
/// each dead letter is settled (acked once its copy is safe, or kept), never as it is read:
/// reading runs ahead of the broker's confirmations.
///
/// The `copied` lines of the copies it settles are on disk already (see `Publish::record_and_settle` in
/// `publish_stage.rs`); it writes the `claimed` lines of the dead letters the ledger let go
/// without a copy, and flushes them, before their acks (see `dead::ledger`).
///
/// Events arrive in delivery order: the read stage sends a `Keep` before it passes any later
/// message on, and the publish stage decides copies in order. So while no `Keep` has been
/// seen, every outstanding delivery up to an `Ack`'s tag is to be acked too, and one
/// `basic.ack(multiple)` settles them all: a thousand ack frames become one (the broker's
/// shovel acks the same way). After the first `Keep`, a multiple ack would take the kept
/// message with it, so acks go one by one.
pub(super) struct Settler<'a, 's> {
    /// `None` for a file: its lines are never removed.
    acker: Option<&'a Acker<'s>>,
    shared: &'a Shared<'a>,
    progress: &'a Progress,
    /// Digests of the dead letters acked since the last barrier.
    digests: Vec<String>,
    /// Digests of the pending acks the ledger granted without a copy: their `claimed` lines go
    /// to disk before the ack.
    claims: Vec<String>,
    /// On a quorum q.dead: digests acked before a barrier, with its time, whose records wait
    /// [`QUORUM_RECORDS_WAIT`] longer (see `Settler::flush`).
    waiting: VecDeque<(Instant, Vec<String>)>,
    quorum: bool,
    last_barrier: Instant,
    /// Acks not sent yet: (highest tag, how many, how many of them are copies).
    pending: Option<(u64, u64, u64)>,
    /// The places of the pending acks, freed once they are sent.
    places: Vec<Place<'a>>,
    /// The highest copy number among the pending acks.
    pending_copy: u64,
    keep_seen: bool,
    acked: u64,
}

/// What the settle stage did, whatever happened.
pub(super) struct Settled {
    pub(super) result: Result<()>,
    /// Dead letters acked (the peek must know).
    pub(super) acked: u64,
}

impl<'a, 's> Settler<'a, 's> {
    /// A settler of `acker`'s deliveries; `quorum` when they come from a quorum queue.
    pub(super) fn new(
        acker: Option<&'a Acker<'s>>,
        shared: &'a Shared<'a>,
        progress: &'a Progress,
        quorum: bool,
    ) -> Settler<'a, 's> {
        Settler {
            acker,
            shared,
            progress,
            digests: Vec::new(),
            claims: Vec::new(),
            waiting: VecDeque::new(),
            quorum,
            last_barrier: Instant::now(),
            pending: None,
            places: Vec::new(),
            pending_copy: 0,
            keep_seen: false,
            acked: 0,
        }
    }

    /// Settles `events` until both stages that send them are done.
    pub(super) async fn run(mut self, events: tokio::sync::mpsc::Receiver<Settle<'a>>) -> Settled {
        let result = self.settle(events).await;
        Settled {
            result,
            acked: self.acked,
        }
    }

    async fn settle(&mut self, mut events: tokio::sync::mpsc::Receiver<Settle<'a>>) -> Result<()> {
        loop {
            let event = match events.try_recv() {
                Ok(e) => Some(e),
                Err(_) => {
                    // Nothing waiting: settle what is pending before sleeping.
                    self.flush().await?;
                    events.recv().await
                }
            };
            let Some(event) = event else {
                break;
            };
            match event {
                Settle::Ack {
                    tag,
                    digest,
                    claimed,
                    copy: number,
                    place,
                } => {
                    self.places.push(place);
                    self.pending_copy = self.pending_copy.max(number);
                    let copy = u64::from(!claimed);
                    if claimed {
                        self.claims.push(digest.clone());
                    }
                    self.digests.push(digest);
                    let (n, copies) = self.pending.map_or((0, 0), |(_, n, c)| (n, c));
                    self.pending = Some((tag, n + 1, copies + copy));
                    if self.keep_seen || n + 1 >= 1024 {
                        self.flush().await?;
                    }
                }
                Settle::Keep { place } => {
                    self.flush().await?;
                    self.keep_seen = true;
                    let copies = u64::from(place.is_some());
                    drop(place);
                    self.shared.tally.end_copies(copies);
                    // It stays in q.dead: settled too.
                    self.progress.inc(1);
                }
                Settle::Counted => self.progress.inc(1),
            }
        }
        self.flush().await
    }

    /// The claims to disk, then the pending ack (multiple while no message was kept).
    async fn flush(&mut self) -> Result<()> {
        let Some((tag, n, copies)) = self.pending else {
            return Ok(());
        };
        let Some(acker) = self.acker else {
            // A file's lines: nothing to ack, each copy confirmed and in the ledger.
            self.pending = None;
            self.release(copies);
            self.progress.inc(n);
            return Ok(());
        };
        if !self.claims.is_empty() {
            let mut ledger = self.shared.journal.borrow_mut();
            for d in self.claims.drain(..) {
                ledger.claimed(&d)?;
            }
            ledger.sync()?;
        }
        // Counted before it is sent: an ack cut off by a failure may still reach the broker,
        // and the summary must not say fewer were removed than were.
        Tally::add(&self.shared.tally.acked, n);
        self.pending = None;
        // Before the ack is named to the broker: the mark a failed run leaves (`Tally`).
        self.shared.tally.acks_through(self.pending_copy);
        acker.ack(tag, !self.keep_seen).await?;
        self.acked += n;
        if self.digests.len() >= 1000 || self.last_barrier.elapsed() > Duration::from_millis(250) {
            // The broker has processed these acks: a rerun that copies a dead letter of their
            // content again copies no duplicate (unless a node restarts: see `dead::ledger`).
            acker.barrier().await?;
            let now = Instant::now();
            let settled: Vec<String> = if self.quorum {
                // A quorum queue's channel may hold acks back after it has processed them,
                // until the queue's log catches up, and drops them if it closes first (see
                // `Peek::finish`): they count as acks in doubt a while longer.
                self.waiting
                    .push_back((now, std::mem::take(&mut self.digests)));
                let mut due = Vec::new();
                while let Some((at, _)) = self.waiting.front()
                    && now.duration_since(*at) >= QUORUM_RECORDS_WAIT
                {
                    if let Some((_, d)) = self.waiting.pop_front() {
                        due.extend(d);
                    }
                }
                due
            } else {
                std::mem::take(&mut self.digests)
            };
            if !settled.is_empty() {
                let mut journal = self.shared.journal.borrow_mut();
                for d in &settled {
                    journal.settled(d)?;
                }
                journal.sync()?;
            }
            self.last_barrier = now;
        }
        self.release(copies);
        self.progress.inc(n);
        self.progress.set_message(format!("moved {}", self.acked));
        Ok(())
    }

    /// Frees the places of the acks just sent, `copies` of them copies in flight.
    fn release(&mut self, copies: u64) {
        self.places.clear();
        self.shared.tally.end_copies(copies);
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::commands::replay::window::Window;

    /// Only a confirmed, routed copy lets its dead letter go; every other outcome keeps it,
    /// and its place goes with it either way.
    #[tokio::test]
    async fn only_a_delivered_copy_acks_its_dead_letter() {
        let w = Window::new(8, 100);
        let returned = Outcome::Returned {
            code: 312,
            text: "NO_ROUTE".into(),
        };
        let place = w.admit(1).await.expect("a place");
        assert!(matches!(
            settle_for(&Outcome::Delivered, 7, "d7".into(), 3, place),
            Settle::Ack { tag: 7, ref digest, claimed: false, copy: 3, .. } if digest == "d7"
        ));
        for outcome in [returned, Outcome::Refused, Outcome::Unknown] {
            let place = w.admit(1).await.expect("a place");
            assert!(
                matches!(
                    settle_for(&outcome, 7, "d7".into(), 3, place),
                    Settle::Keep { place: Some(_) }
                ),
                "{outcome:?} keeps the dead letter"
            );
        }
        let mut all = Vec::new();
        for _ in 0..8 {
            let next = tokio::time::timeout(Duration::from_secs(1), w.admit(0)).await;
            all.push(next.expect("every place came back").expect("open"));
        }
    }
}
