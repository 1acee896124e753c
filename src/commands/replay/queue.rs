//! Replaying from q.dead: a pipeline of three stages on one task, joined, so that no stage waits
//! on another's round trips.
//!
//! - [`Reader`] reads and decodes dead letters and makes their copies (the per-message step of
//!   `step.rs`), or passes on a dead letter the ledger proves already copied (the rule of
//!   `dead::ledger`, asked once per dead letter, before the filters);
//! - `publish_stage::Publish` publishes the copies in confirmed batches, records each
//!   confirmed copy in the ledger, flushed to disk, and hands every decided dead letter on;
//! - `settle::Settler` acks or keeps them, in delivery order (and counts those the reader
//!   replaced by copies, on their last delivery).
//!
//! Dead letters between the read and their ack hold a place of the window each (a
//! `window::Place`, owned by the job and dropped with it): copies published and not yet acked
//! are never more than `--window`. Outcomes are counted as they
//! come, per target, never kept per message: memory stays bounded on a queue of millions.
//!
//! Where it sits (`replay/mod.rs`): stages 1, 2 and 6 of a run from q.dead; its opening, reader and
//! end.

use tokio::sync::mpsc;

use super::ledger::InFlight;
use super::publish_stage::{Job, Publish, Token};
use super::settle::{Settle, Settler};
use super::step::{Step, Stepper};
use super::{Shared, Tally};
use crate::broker::peek::{Delivered, Peek};
use crate::broker::session::Session;
use crate::dead::copy_refusal::CopyRefusal;
use crate::dead::decode::Message;
use crate::dead::ledger::{Decision, Ledger, digest};
use crate::dead::peek::PeekOptions;
use crate::dead::replay::{ReplayStamp, replayed_in_run};
use crate::dead::report::ReplayReport;
use crate::error::Result;
use crate::live::unreadable::with_dead_peek;
use crate::output::Output;
use crate::output::progress::Progress;
use crate::settings::ReplaySettings;
use crate::signals::StopFlag;

pub(super) async fn from_queue(
    session: &Session,
    settings: &ReplaySettings,
    stop: &StopFlag,
    report: &mut ReplayReport,
    tally: &Tally,
    progress: &Progress,
    output: Output,
) -> Result<()> {
    let dead = settings.queue.dead_queue();
    report.source = dead.clone();
    let stamp = ReplayStamp {
        run: crate::clock::unique_id(),
        time: crate::clock::now_secs(),
        from: dead.clone(),
    };
    let scope = crate::live::scan::ledger_scope(session, &dead).await;
    let boot = session.boot().await;
    let (mut carried, journal) =
        super::open_ledger::begin(session, settings, scope, &stamp.run, boot, output).await?;
    report.journal = Some(journal.path().display().to_string());
    if !settings.dry_run {
        tally.name_ledger(journal.path(), &stamp.run);
    }
    let shared = Shared::new(session, settings, stop, tally, journal, &dead);
    let window = shared.window.size();
    let options = PeekOptions {
        auto_rescue: false,
        ..settings.peek
    };
    let carried_dups = carried.earlier_duplicates;
    let carried_ref = &mut carried;
    let (rescued, reached_end) = with_dead_peek(session, &dead, options, async |p| {
        progress.set_length(p.target);
        let depth_at_start = p.target;
        report.held_elsewhere = p.held_elsewhere;
        let acker = p.acker();
        let (job_tx, job_rx) = mpsc::channel::<Job>(window);
        let (settle_tx, settle_rx) = mpsc::channel::<Settle>(window.saturating_mul(4));
        // Each stage owns its sender, so that the settle stage ends when both are done.
        let reader = Reader {
            shared: &shared,
            stepper: Stepper::new(settings, &stamp),
            carried: carried_ref,
            progress,
            jobs: job_tx,
            settle: settle_tx.clone(),
            tally: ReplayReport::default(),
        };
        let publish = Publish::new(&shared, session, settle_tx);
        let settler = Settler::new(Some(&acker), &shared, progress, p.kind.is_quorum());
        let (read, published, settled) =
            tokio::join!(reader.run(p), publish.run(job_rx), settler.run(settle_rx));
        // Whatever failed, the acks that went out are counted, so that `finish` knows how many
        // deliveries it returns to q.dead.
        p.acked_elsewhere(settled.acked);
        let settled = settled.result;
        report.scanned = p.received();
        // When the connection drops every stage fails; report the broker's error rather than
        // a stage noticing that its neighbour stopped.
        let errors = [
            read.as_ref().err(),
            published.as_ref().err(),
            settled.as_ref().err(),
        ];
        if let Some(e) = super::first_error(errors) {
            return Err(e);
        }
        let read = read?;
        let outcomes = published?;
        // Every ack sent is taken before the journal may go.
        if !settings.dry_run {
            acker.barrier().await?;
        }
        report.depth_at_start = Some(depth_at_start);
        // Refused copies the broker dead-lettered (or may have) back into q.dead: doubles of
        // dead letters that stayed, removed (after the acks, which no longer take a multiple).
        // Those not found may be there all the same, or arrive later: the summary says so.
        let mut refused = shared.refused.take();
        if !refused.is_empty() && !stop.is_set() {
            let mut back = ReplayReport::default();
            super::returned_copies::remove_returned(p, &stamp.run, &mut refused, &mut back).await?;
            report.absorb(back);
        }
        report.dead_lettered_not_found = refused.len() as u64;
        report.scanned = read.scanned;
        report.matched = read.matched;
        report.limit = settings.limit;
        report.limit_reached = read.limit_reached;
        report.skipped_own_copies = read.skipped;
        report.already_copied = read.already;
        report.absorb(read.tally);
        // This run's possible duplicates, and those of unfinished runs before it (each made
        // by a run that did not live to say so).
        report.absorb(outcomes);
        report.may_be_duplicates += carried_dups;
        report.renewed = read.renewed;
        Ok((p.rescuer.count, read.reached_end))
    })
    .await?;
    report.rescued = rescued;
    report.interrupted = stop.is_set();
    for (target, room) in shared.rooms.borrow().reports() {
        report.set_room(target, room);
    }
    for (target, unread) in shared.rooms.borrow().unread() {
        report.set_unread(&target, unread);
    }
    if settings.dry_run {
        super::check_targets(session, settings, report).await;
    } else {
        // Clean end: the records of this run answer for dead letters that are gone. Records
        // of earlier runs that this run did not meet stay, unless it read the whole queue: a
        // queue others held dead letters of (a dead node's consumers) was not read whole, and
        // the copies an earlier run made of those are in its records (on a 4.3 cluster, a
        // rerun that dropped them copied 128 jobs twice once the node came back).
        let held = report.held_elsewhere.is_some();
        // The rewrite numbers carried records under this run's id: no mark may follow it.
        tally.forget_ledger();
        shared
            .journal
            .into_inner()
            .finish((!reached_end || held).then_some(&carried))?;
    }
    Ok(())
}

/// The read stage: dead letters from the peek, each decided by the per-message step.
struct Reader<'a, 'r> {
    shared: &'a Shared<'a>,
    stepper: Stepper<'a>,
    /// What unfinished earlier runs left (see `dead::ledger`).
    carried: &'r mut Ledger,
    progress: &'a Progress,
    jobs: mpsc::Sender<Job<'a>>,
    settle: mpsc::Sender<Settle<'a>>,
    /// Failures to build a copy, and with --dry-run what would move, per target.
    tally: ReplayReport,
}

/// What the read stage did.
struct Read {
    scanned: u64,
    matched: u64,
    /// This run's own copies that came back, left in place.
    skipped: u64,
    /// Dead letters an earlier run had copied.
    already: u64,
    /// Dead letters on their last delivery replaced by copies at the back of q.dead.
    renewed: u64,
    reached_end: bool,
    /// `--limit` ended the read (see `Stepper::at_limit`).
    limit_reached: bool,
    tally: ReplayReport,
}

impl Reader<'_, '_> {
    async fn run(mut self, p: &mut Peek<'_>) -> Result<Read> {
        let mut read = Read {
            scanned: 0,
            matched: 0,
            skipped: 0,
            already: 0,
            renewed: 0,
            reached_end: false,
            limit_reached: false,
            tally: ReplayReport::default(),
        };
        loop {
            if self.shared.stop.is_set() || self.stepper.at_limit() {
                break;
            }
            let Some(Delivered {
                tag,
                mut message,
                last_delivery,
                ..
            }) = p.next().await?
            else {
                read.reached_end = true;
                break;
            };
            read.scanned += 1;
            Tally::add(&self.shared.tally.read, 1);
            let mut digest = digest(&message.properties, &message.body);
            // The one rule (`dead::ledger`), before the filters: a copy the ledger proves exists
            // answers for one dead letter of its content, whatever this run selects.
            let decision = self.carried.decide(&digest);
            let may_duplicate = match decision {
                Decision::AlreadyCopied => None,
                Decision::Copy { may_duplicate } => Some(may_duplicate),
            };
            // Whether this dead letter goes as decided (acked after its claim, or copied): if
            // not, its record answers for the next one of its content (`Ledger::undecide`).
            let mut used = true;
            let went_on = if last_delivery {
                // A quorum dead letter whose next counted return ends it: a crash while this
                // run holds it (a closed channel counts, on every version) would lose it, and
                // copies wait their turn in the window. So it is replaced at once by a
                // confirmed copy at the back of q.dead, which this run reads again (and moves
                // then, if it matches). A dry run, which moves nothing, does not read it again.
                // One the ledger proves copied is replaced too, its record kept for the
                // replacement: acked unclaimed, a crash would end it and leave the record to
                // answer for a twin that has no copy.
                p.rescue(tag, &mut message).await?;
                read.renewed += 1;
                used = false;
                if !self.shared.settings.dry_run {
                    p.read_renewed(1);
                    self.progress.set_length(p.target);
                }
                self.settled_elsewhere().await
            } else if may_duplicate.is_none() {
                read.already += 1;
                self.stepper.already_copied();
                if self.shared.settings.dry_run {
                    used = false;
                    self.keep().await
                } else {
                    let copy = InFlight {
                        target: String::new(),
                        digest: std::mem::take(&mut digest),
                        copy: 0,
                        reset: false,
                        may_duplicate: false,
                        message_id: None,
                    };
                    match self.shared.window.admit(0).await {
                        Some(place) => {
                            let token = Token { tag, copy, place };
                            self.jobs.send(Job::Copied(token)).await.is_ok()
                        }
                        None => false,
                    }
                }
            } else if replayed_in_run(&message.properties, &self.stepper.stamp().run) {
                read.skipped += 1;
                used = false;
                self.keep().await
            } else {
                // Only a copy passed on uses the record.
                used = false;
                match self.stepper.step(&mut message) {
                    Step::Unmatched => self.keep().await,
                    Step::Would { to, reset } => {
                        let bytes = message.body.len();
                        let refusal = match self.would_refuse_user_id(&message).await? {
                            Some(why) => Some(why),
                            None => self.admit(&to, bytes).await?,
                        };
                        match refusal {
                            None => self.tally.would(&to, reset),
                            Some(why) => self.tally.would_not_fit(&to, why.to_string()),
                        }
                        self.keep().await
                    }
                    Step::Cannot { to, why } => {
                        self.tally
                            .fail(&to, format!("cannot copy the message: {why}"));
                        self.keep().await
                    }
                    Step::Copy(copy) => {
                        let sh = self.shared;
                        let cannot = super::publishable::refusal(
                            sh.session,
                            sh.settings,
                            &copy,
                            &sh.holds,
                            &sh.rooms,
                        )
                        .await?;
                        if let Some(why) = cannot {
                            self.tally.fail(&copy.queue, why.to_string());
                            self.keep().await
                        } else {
                            let weight = self.shared.window.weight(&copy.body);
                            let in_flight = InFlight {
                                target: copy.queue.clone(),
                                digest: std::mem::take(&mut digest),
                                copy: copy.id,
                                reset: copy.token,
                                may_duplicate: may_duplicate.unwrap_or(false),
                                message_id: may_duplicate
                                    .unwrap_or(false)
                                    .then(|| message.properties.message_id.clone())
                                    .flatten(),
                            };
                            used = true;
                            match self.shared.window.admit(weight).await {
                                Some(place) => {
                                    let token = Token {
                                        tag,
                                        copy: in_flight,
                                        place,
                                    };
                                    let job = Job::Copy(copy.with_token(token));
                                    self.jobs.send(job).await.is_ok()
                                }
                                None => false,
                            }
                        }
                    }
                }
            };
            if !used {
                self.carried.undecide(&digest, decision);
            }
            if !went_on {
                // The next stage stopped; its error is what gets reported.
                break;
            }
        }
        read.matched = self.stepper.matched;
        read.limit_reached = self.stepper.at_limit();
        read.tally = self.tally;
        Ok(read)
    }

    /// Whether a copy of `bytes` to `target` fits there (see `dead::target_room`; with
    /// `--after`, the queue it returns to too): `None`, or why not.
    async fn admit(&self, target: &str, bytes: usize) -> Result<Option<CopyRefusal>> {
        let sh = self.shared;
        super::admit::admit_with_return(sh.session, sh.settings, &sh.rooms, target, bytes).await
    }

    /// With `--dry-run`: why a real run would keep `message` for its `user_id`, or `None`.
    async fn would_refuse_user_id(&self, message: &Message) -> Result<Option<CopyRefusal>> {
        if self.shared.settings.strip_user_id {
            return Ok(None);
        }
        let claimed = message.properties.user_id.as_deref();
        super::publishable::user_id_refusal(self.shared.session, claimed).await
    }

    /// The dead letter stays in q.dead.
    async fn keep(&self) -> bool {
        self.settle.send(Settle::Keep { place: None }).await.is_ok()
    }

    /// The dead letter was settled by the read stage itself (replaced by a copy): the settle
    /// stage only counts it, in its turn.
    async fn settled_elsewhere(&self) -> bool {
        self.settle.send(Settle::Counted).await.is_ok()
    }
}
