//! `queuey dead replay`: dead letters back to where they came from, losing none.
//!
//! The order of work for each dead letter is what makes a loss impossible: publish a copy
//! (confirm mode, `mandatory`), wait for the broker's confirmation, check the copy was not
//! returned, and only then ack the dead letter. If queuey dies or the connection drops at any
//! instant, each message is in `q.dead` (its ack never happened), in its target (the copy was
//! confirmed), or in both; never in neither.

use std::cell::RefCell;
use std::collections::HashMap;
use std::io::{BufRead, BufReader};
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicU64, Ordering};
use std::time::{Duration, Instant};

use futures_lite::StreamExt;
use serde::Serialize;

use crate::broker::convert::{properties_from_amqp, properties_to_amqp};
use crate::broker::peek::{Delivered, Rescuer, with_peek};
use crate::broker::publish::{Copy, Outcome, Publisher};
use crate::broker::session::Session;
use crate::broker::settle::{Acker, Flow, flow_events, lost_error};
use crate::commands::signals::{StopFlag, stop_flag};
use crate::dead::decode::{self, Message};
use crate::dead::export::read_record;
use crate::dead::journal::{Scope, Unfinished, digest};
use crate::dead::peek::PeekOptions;
use crate::dead::replay::{
    CopyBody, ReplayStamp, copy_id, replay_body, replay_properties, replayed_in_run, target,
};
use crate::duration::format_duration;
use crate::endpoint::ConnectionSettings;
use crate::error::{Error, ExitCode, Kind, Result};
use crate::journal_file::{self, JournalFile};
use crate::live::dead::explain_missing;
use crate::output::dead::note_rescued;
use crate::output::progress::Progress;
use crate::output::sanitize::sanitize;
use crate::output::time::now_secs;
use crate::output::{self, Format, Output, noun_for, plural, rate_text};
use crate::queue::MAX_QUEUE_NAME_BYTES;
use crate::settings::ReplaySettings;

/// Per target queue. Each count means one thing: `moved` and `failed` are what happened (0 in
/// a dry run), `would_move` and `would_fail` what a real run would do (0 outside a dry run).
#[derive(Clone, Debug, Default, Serialize)]
pub struct TargetReport {
    pub queue: String,
    pub moved: u64,
    pub failed: u64,
    /// With --dry-run: copies the broker would take (the queue exists, or cannot be checked).
    pub would_move: u64,
    /// With --dry-run: copies that would fail (no such queue, a name AMQP cannot carry).
    pub would_fail: u64,
    /// Why copies to this queue failed, or would (the last reason seen).
    pub failure: Option<String>,
    /// With --dry-run: whether the target queue exists now (`null`: could not be checked).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub exists: Option<bool>,
    /// With --dry-run: of the matching messages bound here, jobs whose attempt would be reset.
    #[serde(skip)]
    would_reset: u64,
}

/// The summary of a replay, printed always (JSON with `--output json`).
#[derive(Clone, Debug, Default, Serialize)]
pub struct ReplayReport {
    /// The dead-letter queue, or the export file, replayed from.
    pub source: String,
    pub dry_run: bool,
    pub scanned: u64,
    pub matched: u64,
    /// Moved: copied, confirmed, and the dead letter removed. 0 in a dry run.
    pub moved: u64,
    /// Not moved because the copy failed (they stay). 0 in a dry run.
    pub failed: u64,
    /// With --dry-run: what a real run would move (0 otherwise).
    pub would_move: u64,
    /// With --dry-run: what a real run would fail to move, its target missing (0 otherwise).
    pub would_fail: u64,
    /// Copies this run made that died again and came back during the run: left in place.
    pub skipped_own_copies: u64,
    /// Moved jobs whose envelope's attempt was set back to 1. 0 in a dry run.
    pub attempts_reset: u64,
    /// With --dry-run: jobs among `would_move` whose attempt would be set back to 1.
    pub would_reset_attempts: u64,
    /// Dead letters that an unfinished earlier run had copied (its journal says so): acked
    /// without a new copy. With --dry-run: those a real run would ack so.
    pub already_copied: u64,
    /// Quorum q.dead only: messages on their last delivery republished instead of returned.
    pub rescued: u64,
    /// The replay journal used (see `--journal`); `null` for a replay from a file.
    pub journal: Option<String>,
    /// Most copies published and not yet acked at once (never more than `--window`).
    pub peak_in_flight: u64,
    pub interrupted: bool,
    pub elapsed_ms: u64,
    pub rate_per_sec: f64,
    pub targets: Vec<TargetReport>,
    /// Where each target is in `targets`: a run with thousands of original queues must not
    /// search the list for every message.
    #[serde(skip)]
    index: HashMap<String, usize>,
}

impl ReplayReport {
    fn target(&mut self, queue: &str) -> &mut TargetReport {
        let i = match self.index.get(queue) {
            Some(&i) => i,
            None => {
                self.targets.push(TargetReport {
                    queue: queue.to_owned(),
                    ..TargetReport::default()
                });
                let i = self.targets.len() - 1;
                self.index.insert(queue.to_owned(), i);
                i
            }
        };
        &mut self.targets[i]
    }

    /// Adds the counts of a stage's own tally (moved, failed, per target).
    fn absorb(&mut self, tally: ReplayReport) {
        self.moved += tally.moved;
        self.failed += tally.failed;
        self.would_move += tally.would_move;
        self.would_fail += tally.would_fail;
        self.attempts_reset += tally.attempts_reset;
        self.would_reset_attempts += tally.would_reset_attempts;
        for t in tally.targets {
            let mine = self.target(&t.queue);
            mine.moved += t.moved;
            mine.failed += t.failed;
            mine.would_move += t.would_move;
            mine.would_fail += t.would_fail;
            mine.would_reset += t.would_reset;
            if t.failure.is_some() {
                mine.failure = t.failure;
            }
        }
    }

    /// With --dry-run: one matching message that a real run would send to `queue`.
    fn would(&mut self, queue: &str, reset: bool) {
        let t = self.target(queue);
        if queue.len() > MAX_QUEUE_NAME_BYTES {
            t.would_fail += 1;
            t.failure = Some(format!(
                "its name is {} bytes; AMQP queue names hold at most {MAX_QUEUE_NAME_BYTES} \
                 (use --to)",
                queue.len()
            ));
        } else {
            t.would_move += 1;
            t.would_reset += u64::from(reset);
        }
    }

    /// With --dry-run: checks that each target exists, as a real run's copies would find out,
    /// and counts what would move and what would fail.
    async fn check_targets(&mut self, session: &Session) {
        for t in &mut self.targets {
            if t.queue.len() > MAX_QUEUE_NAME_BYTES {
                continue;
            }
            t.exists = target_exists(session, &t.queue).await;
            if t.exists == Some(false) {
                t.would_fail += t.would_move;
                t.would_move = 0;
                t.would_reset = 0;
                t.failure = Some(format!(
                    "no queue {:?}: its copies would come back unroutable and stay",
                    t.queue
                ));
            }
        }
        self.would_move = self.targets.iter().map(|t| t.would_move).sum();
        self.would_fail = self.targets.iter().map(|t| t.would_fail).sum();
        self.would_reset_attempts = self.targets.iter().map(|t| t.would_reset).sum();
    }

    /// Counts one copy's outcome; `reset` says its envelope's attempt was set back to 1.
    fn record(&mut self, queue: &str, outcome: &Outcome, reset: bool) {
        match outcome {
            Outcome::Delivered => {
                self.moved += 1;
                self.attempts_reset += u64::from(reset);
                self.target(queue).moved += 1;
            }
            Outcome::Returned { code, text } => {
                self.failed += 1;
                let t = self.target(queue);
                t.failed += 1;
                t.failure = Some(format!(
                    "returned unroutable ({code} {text}): no queue {queue:?} takes it"
                ));
            }
            Outcome::Refused => {
                self.failed += 1;
                let t = self.target(queue);
                t.failed += 1;
                t.failure = Some("refused by the broker (nack)".to_owned());
            }
            Outcome::Unknown => {
                self.failed += 1;
                let t = self.target(queue);
                t.failed += 1;
                t.failure = Some(
                    "the broker returned a copy queuey could not attribute; kept (a copy may \
                     exist too)"
                        .to_owned(),
                );
            }
        }
    }

    fn fail(&mut self, queue: &str, why: String) {
        self.failed += 1;
        let t = self.target(queue);
        t.failed += 1;
        t.failure = Some(why);
    }

    fn exit_code(&self) -> ExitCode {
        if self.interrupted {
            ExitCode::Interrupted
        } else if self.failed > 0 || self.would_fail > 0 {
            ExitCode::Partial
        } else {
            ExitCode::Ok
        }
    }
}

/// Whether `queue` exists: the management API, else a passive declare (the name is a work
/// queue's, with no `x-expires` lease to renew). `None` when neither can tell.
async fn target_exists(session: &Session, queue: &str) -> Option<bool> {
    match session.live_queue(queue).await {
        Ok(found) => Some(found.is_some()),
        Err(_) => session
            .passive_declare(queue)
            .await
            .ok()
            .map(|c| c.is_some()),
    }
}

/// Reads a returned copy's number back (see `broker::publish`).
fn returned_copy_id(props: &lapin::BasicProperties) -> Option<u64> {
    copy_id(&properties_from_amqp(props))
}

/// Counts the stages keep as they go, readable after a failure: the summary of a run that
/// stopped early says what was done.
#[derive(Default)]
struct Tally {
    /// Copies confirmed (and routed).
    copied: AtomicU64,
    /// Dead letters acked (copied now, or by an unfinished earlier run).
    acked: AtomicU64,
    /// Dead letters read from q.dead.
    read: AtomicU64,
    /// Copies published and not yet acked, now and at most.
    in_flight: AtomicU64,
    peak_in_flight: AtomicU64,
}

impl Tally {
    fn get(n: &AtomicU64) -> u64 {
        n.load(Ordering::SeqCst)
    }

    fn add(n: &AtomicU64, by: u64) {
        n.fetch_add(by, Ordering::SeqCst);
    }

    fn start_copy(&self) {
        let now = self.in_flight.fetch_add(1, Ordering::SeqCst) + 1;
        self.peak_in_flight.fetch_max(now, Ordering::SeqCst);
    }

    fn end_copies(&self, n: u64) {
        self.in_flight.fetch_sub(n, Ordering::SeqCst);
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

/// Keeps publishing under `rate` messages per second.
struct Pace {
    rate: Option<f64>,
    start: Instant,
    sent: u64,
}

impl Pace {
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

pub async fn run(
    connection: &ConnectionSettings,
    s: &ReplaySettings,
    output: Output,
) -> Result<ExitCode> {
    let session = Session::new(connection.clone(), "dead replay")?;
    // Before anything, the dry run too: a user who may not publish cannot replay.
    match session.check_write_permission("dead replay").await {
        Ok(None) => {}
        Ok(Some(unchecked)) => output.warn(&unchecked),
        Err(e) => {
            session.close().await;
            return Err(e);
        }
    }
    let stop = stop_flag();
    let started = Instant::now();
    let mut report = ReplayReport {
        dry_run: s.dry_run,
        ..ReplayReport::default()
    };
    let tally = Tally::default();
    let progress = Progress::pending(output, if s.dry_run { "counting" } else { "replaying" });
    let work = async {
        match &s.from_file {
            Some(path) => from_file(&session, s, path, &stop, &mut report, &progress, output).await,
            None => from_queue(&session, s, &stop, &mut report, &tally, &progress, output).await,
        }
    };
    let blocked = if s.dry_run {
        None
    } else {
        Some(watch_flow(&session, s.blocked_timeout, &progress, output))
    };
    let result = match blocked {
        None => work.await,
        Some(watch) => tokio::select! {
            r = work => r,
            e = watch => Err(e),
        },
    };
    progress.finish();
    report.elapsed_ms = u64::try_from(started.elapsed().as_millis()).unwrap_or(u64::MAX);
    let secs = started.elapsed().as_secs_f64();
    report.rate_per_sec = if secs > 0.0 {
        (report.moved as f64 / secs * 10.0).round() / 10.0
    } else {
        0.0
    };
    report.peak_in_flight = Tally::get(&tally.peak_in_flight);
    let result = match result {
        Err(e) if report.scanned == 0 && s.from_file.is_none() && e.kind != Kind::BrokerRefused => {
            Err(explain_missing(&session, &s.queue, e).await)
        }
        other => other,
    };
    // A blocked connection is not read by the broker: its close would wait for ever.
    let _ = tokio::time::timeout(Duration::from_secs(3), session.close()).await;
    note_rescued(output, &report.source, report.rescued);
    if let Err(e) = result {
        let copied = Tally::get(&tally.copied);
        let acked = Tally::get(&tally.acked);
        if report.scanned == 0 && Tally::get(&tally.read) == 0 && copied == 0 && acked == 0 {
            return Err(e);
        }
        // Say what was done before the failure: nothing unconfirmed was removed, and what was
        // removed may come back (acks are not confirmed), which the journal answers.
        let source = sanitize(&report.source);
        let journal = report.journal.as_deref().map_or(String::new(), |j| {
            format!(": the journal {} covers them", sanitize(j))
        });
        output.warn(&format!(
            "stopped early: copied and confirmed {copied}, removed from {source} {acked} \
             (acks sent; the broker does not confirm acks, so up to {acked} of these may come \
             back{journal}); everything else is still in {source}. Run the same command \
             again: it does not copy again what the journal records"
        ));
        return Err(e);
    }
    print_report(&report, output)?;
    Ok(report.exit_code())
}

/// Says aloud when the broker blocks publishing (a memory or disk alarm: publishes wait without
/// an error) and when it resumes; with `timeout`, stops the replay once blocked that long.
/// Returns only to stop the run.
async fn watch_flow(
    session: &Session,
    timeout: Option<Duration>,
    progress: &Progress,
    output: Output,
) -> Error {
    let Ok(events) = flow_events(session).await else {
        // No connection: the work reports why.
        return std::future::pending().await;
    };
    let mut events = std::pin::pin!(events);
    let mut blocked: Option<(Instant, String)> = None;
    loop {
        let next = match (&blocked, timeout) {
            (Some((since, reason)), Some(limit)) => {
                let left = limit.saturating_sub(since.elapsed());
                match tokio::time::timeout(left, events.next()).await {
                    Ok(e) => e,
                    Err(_) => {
                        return Error::new(
                            Kind::BrokerRefused,
                            format!(
                                "the broker blocked publishing ({}) for {}: stopped \
                                 (--blocked-timeout)",
                                sanitize(reason),
                                format_duration(limit)
                            ),
                        )
                        .with_hint(
                            "the broker blocks publishers during a memory or disk alarm \
                             (rabbitmq-diagnostics alarms); free memory or disk, then run the \
                             same command again",
                        );
                    }
                }
            }
            _ => events.next().await,
        };
        match next {
            None => return std::future::pending().await,
            Some(Flow::Lost(why)) => return lost_error(session, &why),
            Some(Flow::Blocked(reason)) => {
                let text = format!(
                    "the broker blocked publishing: {} (a resource alarm); copies wait for it \
                     to clear{}",
                    sanitize(&reason),
                    timeout.map_or(String::new(), |t| format!(
                        ", at most {} (--blocked-timeout)",
                        format_duration(t)
                    ))
                );
                progress.set_message(format!("BLOCKED by the broker: {}", sanitize(&reason)));
                progress.suspend(|| output.warn(&text));
                blocked = Some((Instant::now(), reason));
            }
            Some(Flow::Unblocked) => {
                if let Some((since, _)) = blocked.take() {
                    let text = format!(
                        "the broker resumed publishing after {:.1}s",
                        since.elapsed().as_secs_f64()
                    );
                    progress.set_message(String::new());
                    progress.suspend(|| output.warn(&text));
                }
            }
        }
    }
}

/// A copy for the publishing stage, or a dead letter an unfinished earlier run copied
/// (`copy: None`): passed through in order, to be acked without a new copy.
struct Job {
    copy: Option<(u64, lapin::BasicProperties, Vec<u8>)>,
    token: Token,
}

/// What the publish stage keeps of each dead letter until it is decided.
struct Token {
    /// The dead letter's delivery tag.
    tag: u64,
    target: String,
    /// The dead letter's digest, for the journal.
    digest: String,
    /// Its envelope's attempt was set back to 1.
    reset: bool,
    /// The dead letter itself when it is on its last delivery (quorum): if its copy fails, it
    /// must be republished rather than returned.
    last_delivery: Option<Message>,
}

/// What the ack stage does with one held dead letter. Sent in delivery order (see
/// [`Settler`]). `in_flight` marks a dead letter that went through the publish stage and holds
/// one place of the window until it is settled.
enum Settle {
    /// Ack it: its copy is confirmed and recorded in the journal (`copy`), or an earlier
    /// run's copy is recorded there. `digest` cancels the record once the ack is processed.
    Ack {
        tag: u64,
        digest: String,
        copy: bool,
    },
    /// It stays in q.dead: returned at the end.
    Keep { in_flight: bool },
    /// It stays, but returning it would end it: republish it, then ack the original.
    Rescue {
        tag: u64,
        message: Box<Message>,
        in_flight: bool,
    },
}

/// The journal of this run, opened on its first record.
struct JournalSlot {
    path: PathBuf,
    scope: Scope,
    run: String,
    /// When the broker node started, as this run sees it.
    broker_started: Option<u64>,
    file: Option<JournalFile>,
}

impl JournalSlot {
    fn record(&mut self, digest: &str, to: &str) -> Result<()> {
        self.open()?;
        if let Some(f) = self.file.as_mut() {
            f.record(digest, to, &self.run);
        }
        Ok(())
    }

    fn open(&mut self) -> Result<()> {
        if self.file.is_none() {
            self.file = Some(JournalFile::open(
                &self.path,
                &self.scope,
                &self.run,
                now_secs(),
                self.broker_started,
            )?);
        }
        Ok(())
    }

    fn sync(&mut self) -> Result<()> {
        self.file.as_mut().map_or(Ok(()), JournalFile::sync)
    }

    /// Notes how many dead letters this run has read (see `dead::journal::read_line`).
    fn read_so_far(&mut self, n: u64) -> Result<()> {
        self.open()?;
        if let Some(f) = self.file.as_mut() {
            f.read_so_far(n);
        }
        Ok(())
    }

    /// Cancels a record of this or an earlier run (see `dead::journal`).
    fn settled(&mut self, digest: &str) -> Result<()> {
        self.open()?;
        if let Some(f) = self.file.as_mut() {
            f.settled(digest);
        }
        Ok(())
    }

    /// The run ended cleanly, every ack taken: the journal goes, but for the records of
    /// earlier runs this run did not meet (`carried`, when it stopped before the end).
    fn finish(self, carried: Option<&Unfinished>) -> Result<()> {
        let file = match self.file {
            Some(f) => f,
            None if self.path.exists() => {
                JournalFile::open(&self.path, &self.scope, &self.run, now_secs(), None)?
            }
            None => return Ok(()),
        };
        file.finish(&self.scope, &self.run, carried)
    }
}

/// Replays from q.dead as a pipeline of three stages on one task, joined, so that no stage
/// waits on another's round trips: reading and decoding dead letters, publishing confirmed
/// copies, and settling the dead letters (recording each confirmed copy in the journal, then
/// acking). Copies published and not yet acked hold a place of the window each: there are
/// never more than `--window` of them.
async fn from_queue(
    session: &Session,
    s: &ReplaySettings,
    stop: &StopFlag,
    report: &mut ReplayReport,
    tally: &Tally,
    progress: &Progress,
    output: Output,
) -> Result<()> {
    let dead = s.queue.dead_queue();
    report.source = dead.clone();
    let stamp = ReplayStamp {
        run: run_id(),
        time: now_secs(),
        from: dead.clone(),
    };
    let scope = crate::live::dead::journal_scope(session, &dead);
    let journal_path = match &s.journal {
        Some(p) => p.clone(),
        None => journal_file::default_path(&scope)?,
    };
    let mut carried = journal_file::read(&journal_path, &scope)?.unwrap_or_default();
    let broker_started = session.node_started_ms().await;
    if carried.restarted_since(broker_started, 10_000) {
        // The acks an earlier run saw processed may have been lost with the node.
        carried.revive();
    }
    if carried.left() > 0 {
        output.note(&format!(
            "the journal {} of an unfinished replay records {}: their dead letters are removed \
             without a new copy",
            journal_path.display(),
            plural(carried.left(), "confirmed copy")
        ));
    }
    report.journal = Some(journal_path.display().to_string());
    let journal = JournalSlot {
        path: journal_path,
        scope,
        run: stamp.run.clone(),
        broker_started,
        file: None,
    };
    let now = now_secs();
    let window = usize::from(s.peek.window).max(1);
    let options = PeekOptions {
        auto_rescue: false,
        ..s.peek
    };
    // Outcomes are counted as they come, per target, never kept per message: memory stays
    // bounded by the window on a queue of millions.
    let carried_ref = &mut carried;
    let journal = RefCell::new(journal);
    let journal_ref = &journal;
    let (rescued, reached_end) = with_peek(session, &dead, options, async |p| {
        progress.set_length(p.target);
        let acker = Acker::new(session, &dead, p.channel());
        // Bodies read but not yet published are bounded by bytes too, not only by count: a
        // window of multi-megabyte messages must not all sit in memory at once.
        let budget = u32::try_from(s.peek.byte_budget).unwrap_or(u32::MAX).max(1);
        let bytes = tokio::sync::Semaphore::new(budget as usize);
        // One place per dead letter between the read stage and its ack.
        let places = tokio::sync::Semaphore::new(window);
        let (job_tx, mut job_rx) = tokio::sync::mpsc::channel::<Job>(window);
        let (settle_tx, settle_rx) = tokio::sync::mpsc::channel::<Settle>(window.saturating_mul(4));
        // Each stage owns its sender, so that the settle stage ends when both are done.
        let settle_read = settle_tx.clone();
        let settle_publish = settle_tx;

        let counters = tally;
        let read = async {
            let settle_tx = settle_read;
            let mut scanned = 0u64;
            let mut matched = 0u64;
            let mut skipped = 0u64;
            let mut already = 0u64;
            let mut reached_end = false;
            // Failures to build a copy, and with --dry-run what would move, per target.
            let mut tally = ReplayReport::default();
            let keep = async |tag: u64, message: Message, last: bool| {
                let event = if last {
                    Settle::Rescue {
                        tag,
                        message: Box::new(message),
                        in_flight: false,
                    }
                } else {
                    Settle::Keep { in_flight: false }
                };
                settle_tx.send(event).await.is_ok()
            };
            // Takes a place in the window for a dead letter on its way to its ack.
            let place = async || match places.acquire().await {
                Ok(p) => {
                    p.forget();
                    true
                }
                Err(_) => false,
            };
            loop {
                if stop.is_set() || s.limit.is_some_and(|l| matched >= l) {
                    break;
                }
                let Some(Delivered {
                    tag,
                    mut message,
                    last_delivery,
                    ..
                }) = p.next().await?
                else {
                    reached_end = true;
                    break;
                };
                scanned += 1;
                Tally::add(&counters.read, 1);
                let digest = digest(&message.properties, &message.body);
                // Copied by a run that did not finish: ack it, copy nothing (before filters:
                // the copy exists whatever this run selects).
                // (A dead letter whose ack was lost was delivered before: one never delivered
                // is a twin of a dead letter whose copy is recorded, and gets its own copy.)
                let copied = if message.redelivered && carried_ref.within_read(scanned) {
                    carried_ref.take(&digest)
                } else {
                    None
                };
                if let Some(copied) = copied {
                    already += 1;
                    if s.dry_run {
                        if !keep(tag, message, last_delivery).await {
                            break;
                        }
                        continue;
                    }
                    if !place().await {
                        break;
                    }
                    let job = Job {
                        copy: None,
                        token: Token {
                            tag,
                            target: copied.to,
                            digest,
                            reset: false,
                            last_delivery: None,
                        },
                    };
                    if job_tx.send(job).await.is_err() {
                        break;
                    }
                    continue;
                }
                if replayed_in_run(&message.properties, &stamp.run) {
                    skipped += 1;
                    if !keep(tag, message, last_delivery).await {
                        break;
                    }
                    continue;
                }
                let dl = decode::decode(&message, &s.queue.name, &s.queue.options);
                if !s.filter.matches(&dl, &message.properties, now) {
                    if !keep(tag, message, last_delivery).await {
                        break;
                    }
                    continue;
                }
                matched += 1;
                let to = target(&dl, s.to.as_deref());
                if s.dry_run {
                    tally.would(&to, would_reset(&dl, s.keep_attempts));
                    if !keep(tag, message, last_delivery).await {
                        break;
                    }
                    continue;
                }
                // A message on its last delivery is kept whole for its rescue; the others give
                // their body to the copy.
                let raw = if last_delivery {
                    message.body.clone()
                } else {
                    std::mem::take(&mut message.body)
                };
                let copy = copy_of(raw, &message, &dl, &to, &stamp, matched, s.keep_attempts);
                let (properties, body) = match copy {
                    Ok(c) => c,
                    Err(why) => {
                        tally.fail(&to, format!("cannot copy the message: {why}"));
                        if !keep(tag, message, last_delivery).await {
                            break;
                        }
                        continue;
                    }
                };
                let reset = matches!(body, CopyBody::Reset { .. });
                let body = body.into_bytes();
                let weight = u32::try_from(body.len())
                    .unwrap_or(u32::MAX)
                    .clamp(1, budget);
                if !place().await {
                    break;
                }
                match bytes.acquire_many(weight).await {
                    Ok(permit) => permit.forget(),
                    Err(_) => break,
                }
                let job = Job {
                    copy: Some((matched, properties, body)),
                    token: Token {
                        tag,
                        target: to,
                        digest,
                        reset,
                        last_delivery: last_delivery.then_some(message),
                    },
                };
                if job_tx.send(job).await.is_err() {
                    break; // the publishing stage stopped; its error is what gets reported
                }
            }
            drop(job_tx);
            tally.already_copied = already;
            Ok::<_, Error>((scanned, matched, skipped, reached_end, tally))
        };

        let publish = async {
            let settle_tx = settle_publish;
            let mut outcomes = ReplayReport::default();
            let mut pace = Pace {
                rate: s.rate,
                start: Instant::now(),
                sent: 0,
            };
            let chunk = s.rate.map_or(256, |r| ((r / 20.0) as usize).clamp(1, 256));
            let publish_window = paced_window(s.rate, window);
            let result: Result<()> = async {
                let mut publisher: Option<Publisher<'_, Token>> = None;
                loop {
                    let first = match job_rx.try_recv() {
                        Ok(j) => j,
                        Err(tokio::sync::mpsc::error::TryRecvError::Disconnected) => break,
                        Err(tokio::sync::mpsc::error::TryRecvError::Empty) => {
                            // Nothing waiting: decide what is in flight rather than hold it
                            // (the read stage may be waiting for places in the window).
                            if let Some(publ) = publisher.as_mut() {
                                let decided = publ.flush().await?;
                                hand_over(decided, &settle_tx, &mut outcomes, tally, journal_ref)
                                    .await?;
                            }
                            match job_rx.recv().await {
                                Some(j) => j,
                                None => break,
                            }
                        }
                    };
                    if stop.is_set() {
                        // A stop signal: publish nothing more; what was read stays in q.dead.
                        break;
                    }
                    // Take what is already waiting, up to a chunk, and publish it in one go.
                    // Under --rate a chunk is what the rate allows in 50 ms, so that copies go
                    // out (and dead letters are settled) steadily rather than in one burst
                    // after a whole chunk's wait.
                    let mut jobs = vec![first];
                    while jobs.len() < chunk {
                        match job_rx.try_recv() {
                            Ok(j) => jobs.push(j),
                            Err(_) => break,
                        }
                    }
                    let mut copies = Vec::with_capacity(jobs.len());
                    let mut weight = 0usize;
                    for job in jobs {
                        let Some((id, properties, body)) = job.copy else {
                            // Already copied: settled in order, after what is in flight.
                            if !copies.is_empty() {
                                let batch = std::mem::take(&mut copies);
                                publish_some(
                                    &mut publisher,
                                    session,
                                    publish_window,
                                    batch,
                                    &settle_tx,
                                    &mut outcomes,
                                    tally,
                                    journal_ref,
                                )
                                .await?;
                                bytes.add_permits(std::mem::take(&mut weight));
                            }
                            if let Some(publ) = publisher.as_mut() {
                                let decided = publ.flush().await?;
                                hand_over(decided, &settle_tx, &mut outcomes, tally, journal_ref)
                                    .await?;
                            }
                            let event = Settle::Ack {
                                tag: job.token.tag,
                                digest: job.token.digest,
                                copy: false,
                            };
                            if settle_tx.send(event).await.is_err() {
                                return Err(Error::internal("replay: the settle stage stopped"));
                            }
                            continue;
                        };
                        pace.wait().await;
                        weight += u32::try_from(body.len())
                            .unwrap_or(u32::MAX)
                            .clamp(1, budget) as usize;
                        tally.start_copy();
                        copies.push(Copy {
                            queue: job.token.target.clone(),
                            properties,
                            body,
                            token: job.token,
                            id,
                        });
                    }
                    if !copies.is_empty() {
                        publish_some(
                            &mut publisher,
                            session,
                            publish_window,
                            copies,
                            &settle_tx,
                            &mut outcomes,
                            tally,
                            journal_ref,
                        )
                        .await?;
                        bytes.add_permits(weight);
                    }
                }
                if let Some(mut publ) = publisher.take() {
                    let decided = publ.flush().await?;
                    hand_over(decided, &settle_tx, &mut outcomes, tally, journal_ref).await?;
                    publ.close().await;
                }
                Ok(())
            }
            .await;
            // Wake a reader waiting for byte budget or a place: nobody will release any now.
            bytes.close();
            places.close();
            drop(job_rx);
            result.map(|()| outcomes)
        };
        let settle = async {
            let mut settler = Settler {
                acker: &acker,
                rescuer: Rescuer::new(session, &dead),
                places: &places,
                tally,
                progress,
                journal: journal_ref,
                digests: Vec::new(),
                last_barrier: Instant::now(),
                pending: None,
                keep_seen: false,
                acked: 0,
            };
            let result = settler.run(settle_rx).await;
            settler.rescuer.close().await;
            (result, settler.acked, settler.rescuer.count)
        };

        let (read, published, (settled, acked, rescued)) = tokio::join!(read, publish, settle);
        // Whatever failed, the acks that went out are counted, so that `finish` knows how many
        // deliveries it returns to q.dead.
        p.acked_elsewhere(acked + rescued);
        report.scanned = p.received();
        // When the connection drops every stage fails; report the broker's error rather than
        // a stage noticing that its neighbour stopped.
        let first_error = [
            read.as_ref().err(),
            published.as_ref().err(),
            settled.as_ref().err(),
        ]
        .into_iter()
        .flatten()
        .min_by_key(|e| e.kind == Kind::Internal)
        .cloned();
        if let Some(e) = first_error {
            return Err(e);
        }
        let (scanned, matched, skipped, reached_end, read_tally) = read?;
        let outcomes = published?;
        // Every ack sent is taken before the journal may go.
        if !s.dry_run {
            acker.barrier().await?;
        }
        report.scanned = scanned;
        report.matched = matched;
        report.skipped_own_copies = skipped;
        report.already_copied = read_tally.already_copied;
        report.absorb(read_tally);
        report.absorb(outcomes);
        Ok((rescued, reached_end))
    })
    .await?;
    report.rescued = rescued;
    report.interrupted = stop.is_set();
    if s.dry_run {
        report.check_targets(session).await;
    } else {
        // Clean end: the records of this run answer for dead letters that are gone. Records
        // of earlier runs that this run did not meet stay, unless it read the whole queue.
        journal
            .into_inner()
            .finish((!reached_end).then_some(&carried))?;
    }
    Ok(())
}

/// Publishes `copies` (opening the publisher on first use) and hands over what is decided.
#[allow(clippy::too_many_arguments)]
async fn publish_some<'s>(
    publisher: &mut Option<Publisher<'s, Token>>,
    session: &'s Session,
    window: usize,
    copies: Vec<Copy<Token>>,
    settle: &tokio::sync::mpsc::Sender<Settle>,
    outcomes: &mut ReplayReport,
    tally: &Tally,
    journal: &RefCell<JournalSlot>,
) -> Result<()> {
    if publisher.is_none() {
        *publisher = Some(Publisher::open(session, window, returned_copy_id).await?);
    }
    let Some(publ) = publisher.as_mut() else {
        return Err(Error::internal("replay: no publisher"));
    };
    let decided = publ.publish_many(copies).await?;
    hand_over(decided, settle, outcomes, tally, journal).await
}

/// Sends each decided copy's dead letter to the settle stage, in order, and counts the outcome.
///
/// The copies decided delivered are recorded in the journal, and the journal flushed to disk,
/// before any of their dead letters goes to be acked: as soon as a copy is known safe, a rerun
/// knows it too.
async fn hand_over(
    decided: Vec<(Token, Outcome)>,
    settle: &tokio::sync::mpsc::Sender<Settle>,
    outcomes: &mut ReplayReport,
    tally: &Tally,
    journal: &RefCell<JournalSlot>,
) -> Result<()> {
    {
        let mut journal = journal.borrow_mut();
        let mut any = false;
        for (token, outcome) in &decided {
            if *outcome == Outcome::Delivered {
                journal.record(&token.digest, &token.target)?;
                any = true;
            }
        }
        if any {
            journal.read_so_far(Tally::get(&tally.read))?;
        }
        journal.sync()?;
    }
    for (token, outcome) in decided {
        outcomes.record(&token.target, &outcome, token.reset);
        if matches!(outcome, Outcome::Delivered) {
            Tally::add(&tally.copied, 1);
        }
        let event = settle_for(&outcome, token.tag, token.digest, token.last_delivery);
        if settle.send(event).await.is_err() {
            return Err(Error::internal("replay: the settle stage stopped"));
        }
    }
    Ok(())
}

/// What becomes of the dead letter `tag` once its copy's outcome is known: acked only when the
/// copy was confirmed and routed; otherwise (returned, refused, unattributed) it stays, rescued
/// by a republish when returning it would end it (its last delivery, on a quorum q.dead).
fn settle_for(
    outcome: &Outcome,
    tag: u64,
    digest: String,
    last_delivery: Option<Message>,
) -> Settle {
    match (outcome, last_delivery) {
        (Outcome::Delivered, _) => Settle::Ack {
            tag,
            digest,
            copy: true,
        },
        (_, Some(message)) => Settle::Rescue {
            tag,
            message: Box::new(message),
            in_flight: true,
        },
        (_, None) => Settle::Keep { in_flight: true },
    }
}

/// Whether replaying `dl` sets its envelope's attempt back to 1.
fn would_reset(dl: &decode::DeadLetter, keep_attempts: bool) -> bool {
    !keep_attempts && dl.envelope.as_ref().is_some_and(|e| e.attempt != 1)
}

/// The AMQP properties and the body of the replayed copy of `message` (whose body is `raw`),
/// going to `to`; an error says why no copy can be made (the dead letter then stays).
fn copy_of(
    raw: Vec<u8>,
    message: &Message,
    dl: &decode::DeadLetter,
    to: &str,
    stamp: &ReplayStamp,
    copy: u64,
    keep_attempts: bool,
) -> std::result::Result<(lapin::BasicProperties, CopyBody), String> {
    if to.len() > MAX_QUEUE_NAME_BYTES {
        return Err(format!(
            "its original queue name is {} bytes; AMQP queue names hold at most \
             {MAX_QUEUE_NAME_BYTES} (use --to)",
            to.len()
        ));
    }
    let body = replay_body(raw, dl, keep_attempts)?;
    let properties = properties_to_amqp(&replay_properties(
        &message.properties,
        dl,
        stamp,
        copy,
        body.first_attempt(),
    ))?;
    Ok((properties, body))
}

/// Settles held dead letters on the channel that holds them. The progress bar counts here, as
/// each dead letter is settled (acked once its copy is safe, or kept), never as it is read:
/// reading runs ahead of the broker's confirmations.
///
/// The journal records of the copies it settles are on disk already (see [`hand_over`]): an
/// ack the broker loses leaves its dead letter in q.dead, and the rerun finds its copy in the
/// journal.
///
/// Events arrive in delivery order: the read stage sends a `Keep` before it passes any later
/// message on, and the publish stage decides copies in order. So while no `Keep` has been
/// seen, every outstanding delivery up to an `Ack`'s tag is to be acked too, and one
/// `basic.ack(multiple)` settles them all: a thousand ack frames become one (the broker's
/// shovel acks the same way). After the first `Keep`, a multiple ack would take the kept
/// message with it, so acks go one by one.
struct Settler<'a, 's> {
    acker: &'a Acker<'s>,
    rescuer: Rescuer<'s>,
    places: &'a tokio::sync::Semaphore,
    tally: &'a Tally,
    progress: &'a Progress,
    journal: &'a RefCell<JournalSlot>,
    /// Digests of the dead letters acked since the last barrier.
    digests: Vec<String>,
    last_barrier: Instant,
    /// Acks not sent yet: (highest tag, how many, how many of them are copies).
    pending: Option<(u64, u64, u64)>,
    keep_seen: bool,
    acked: u64,
}

impl Settler<'_, '_> {
    async fn run(&mut self, mut events: tokio::sync::mpsc::Receiver<Settle>) -> Result<()> {
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
                Settle::Ack { tag, digest, copy } => {
                    let copy = u64::from(copy);
                    self.digests.push(digest);
                    let (n, copies) = self.pending.map_or((0, 0), |(_, n, c)| (n, c));
                    self.pending = Some((tag, n + 1, copies + copy));
                    if self.keep_seen || n + 1 >= 1024 {
                        self.flush().await?;
                    }
                }
                Settle::Keep { in_flight } => {
                    self.flush().await?;
                    self.keep_seen = true;
                    self.release(u64::from(in_flight), u64::from(in_flight));
                    // It stays in q.dead: settled too.
                    self.progress.inc(1);
                }
                Settle::Rescue {
                    tag,
                    mut message,
                    in_flight,
                } => {
                    self.flush().await?;
                    self.rescuer
                        .rescue(&self.acker_channel(), tag, &mut message)
                        .await?;
                    self.release(u64::from(in_flight), u64::from(in_flight));
                    self.progress.inc(1);
                }
            }
        }
        self.flush().await
    }

    fn acker_channel(&self) -> lapin::Channel {
        self.acker.channel()
    }

    /// Journal to disk, then the pending ack (multiple while no message was kept).
    async fn flush(&mut self) -> Result<()> {
        let Some((tag, n, copies)) = self.pending else {
            return Ok(());
        };
        // Counted before it is sent: an ack cut off by a failure may still reach the broker,
        // and the summary must not say fewer were removed than were.
        Tally::add(&self.tally.acked, n);
        self.pending = None;
        self.acker.ack(tag, !self.keep_seen).await?;
        self.acked += n;
        if self.digests.len() >= 1000 || self.last_barrier.elapsed() > Duration::from_millis(250) {
            // The broker has processed these acks: their records must not answer for a twin
            // (unless the broker restarts: see `dead::journal`).
            self.acker.barrier().await?;
            let mut journal = self.journal.borrow_mut();
            for d in self.digests.drain(..) {
                journal.settled(&d)?;
            }
            journal.sync()?;
            self.last_barrier = Instant::now();
        }
        self.release(n, copies);
        self.progress.inc(n);
        self.progress.set_message(format!("moved {}", self.acked));
        Ok(())
    }

    /// Frees `places` of the window, `copies` of them copies in flight.
    fn release(&self, places: u64, copies: u64) {
        self.places
            .add_permits(usize::try_from(places).unwrap_or(usize::MAX));
        self.tally.end_copies(copies);
    }
}

/// One line of an export file as a message to replay: read by [`read_record`], and checked now
/// to fit AMQP, so that a bad line stops the run before anything is published.
fn parse_record(line: &str) -> std::result::Result<Message, String> {
    let message = read_record(line)?;
    properties_to_amqp(&message.properties)?;
    Ok(message)
}

fn open_lines(path: &Path) -> Result<impl Iterator<Item = (usize, std::io::Result<String>)>> {
    let file = std::fs::File::open(path).map_err(|e| {
        Error::io(
            format!("cannot read the export file {}", path.display()),
            &e,
        )
    })?;
    Ok(BufReader::new(file)
        .lines()
        .enumerate()
        .map(|(i, l)| (i + 1, l)))
}

async fn from_file(
    session: &Session,
    s: &ReplaySettings,
    path: &Path,
    stop: &StopFlag,
    report: &mut ReplayReport,
    progress: &Progress,
    output: Output,
) -> Result<()> {
    let _ = output;
    report.source = path.display().to_string();
    // First pass: every line must be a valid record, or nothing is published.
    let mut total = 0u64;
    for (n, line) in open_lines(path)? {
        let line =
            line.map_err(|e| Error::io(format!("cannot read {} line {n}", path.display()), &e))?;
        if line.trim().is_empty() {
            continue;
        }
        parse_record(&line).map_err(|why| {
            Error::new(Kind::Usage, format!("{} line {n}: {why}", path.display()))
                .with_hint("nothing was replayed; the file must hold `queuey dead export` lines")
        })?;
        total += 1;
    }
    let stamp = ReplayStamp {
        run: run_id(),
        time: now_secs(),
        from: path.display().to_string(),
    };
    let now = now_secs();
    progress.set_length(total);
    // The token of a copy: its target, and whether its envelope's attempt was reset.
    let mut publisher: Option<Publisher<'_, (String, bool)>> = None;
    let mut pace = Pace {
        rate: s.rate,
        start: Instant::now(),
        sent: 0,
    };
    for (n, line) in open_lines(path)? {
        if stop.is_set() || s.limit.is_some_and(|l| report.matched >= l) {
            break;
        }
        let line =
            line.map_err(|e| Error::io(format!("cannot read {} line {n}", path.display()), &e))?;
        if line.trim().is_empty() {
            continue;
        }
        let record = parse_record(&line).map_err(|why| {
            Error::new(Kind::Usage, format!("{} line {n}: {why}", path.display()))
        })?;
        report.scanned += 1;
        let m = record;
        let dl = decode::decode(&m, &s.queue.name, &s.queue.options);
        if !s.filter.matches(&dl, &m.properties, now) {
            progress.inc(1);
            continue;
        }
        report.matched += 1;
        let to = target(&dl, s.to.as_deref());
        if s.dry_run {
            report.would(&to, would_reset(&dl, s.keep_attempts));
            progress.inc(1);
            continue;
        }
        let copy = report.matched;
        let mut m = m;
        let raw = std::mem::take(&mut m.body);
        let (props, body) =
            copy_of(raw, &m, &dl, &to, &stamp, copy, s.keep_attempts).map_err(|why| {
                Error::new(Kind::Usage, format!("{} line {n}: {why}", path.display()))
            })?;
        let reset = matches!(body, CopyBody::Reset { .. });
        pace.wait().await;
        if publisher.is_none() {
            publisher = Some(
                Publisher::open(
                    session,
                    paced_window(s.rate, usize::from(s.peek.window)),
                    returned_copy_id,
                )
                .await?,
            );
        }
        let Some(publ) = publisher.as_mut() else {
            return Err(Error::internal("replay: no publisher"));
        };
        let copies = vec![Copy {
            queue: to.clone(),
            properties: props,
            body: body.into_bytes(),
            token: (to, reset),
            id: copy,
        }];
        for (queue, outcome) in publ.publish_many(copies).await? {
            report.record(&queue.0, &outcome, queue.1);
            progress.inc(1);
        }
    }
    if let Some(mut publ) = publisher {
        for (queue, outcome) in publ.flush().await? {
            report.record(&queue.0, &outcome, queue.1);
            progress.inc(1);
        }
        publ.close().await;
    }
    progress.finish();
    report.interrupted = stop.is_set();
    if s.dry_run {
        report.check_targets(session).await;
    }
    Ok(())
}

/// A run id unique enough to tell this run's copies from every other run's.
fn run_id() -> String {
    let nanos = std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .map_or(0, |d| d.as_nanos());
    format!("{nanos:x}-{}", std::process::id())
}

fn print_report(r: &ReplayReport, output: Output) -> Result<()> {
    if output.format == Format::Json {
        return output::print_json(r);
    }
    let mut table = output::table(&if r.dry_run {
        ["target queue", "would move", "would fail", "exists"]
    } else {
        ["target queue", "moved", "failed", "why"]
    });
    let mut targets: Vec<&TargetReport> = r.targets.iter().collect();
    targets.sort_by(|a, b| a.queue.cmp(&b.queue));
    for t in targets {
        table.add_row(if r.dry_run {
            vec![
                sanitize(&t.queue),
                t.would_move.to_string(),
                t.would_fail.to_string(),
                match t.exists {
                    Some(true) => "yes".to_owned(),
                    Some(false) => "NO: copies would come back unroutable".to_owned(),
                    None if t.would_fail > 0 => {
                        sanitize(t.failure.as_deref().unwrap_or("cannot be a queue name"))
                    }
                    None => "unknown (could not be checked)".to_owned(),
                },
            ]
        } else {
            vec![
                sanitize(&t.queue),
                t.moved.to_string(),
                t.failed.to_string(),
                sanitize(t.failure.as_deref().unwrap_or("")),
            ]
        });
    }
    if !r.targets.is_empty() {
        output::print(table)?;
    }
    let summary = if r.dry_run {
        let mut s = format!(
            "dry run: {} of {} in {} match: {} would be replayed",
            r.matched,
            plural(r.scanned, "dead letter"),
            sanitize(&r.source),
            r.would_move
        );
        if r.would_reset_attempts > 0 {
            s.push_str(&format!(
                " ({} whose attempt would be set back to 1)",
                plural(r.would_reset_attempts, "job")
            ));
        }
        if r.would_fail > 0 {
            s.push_str(&format!(
                ", {} would fail and stay (their target queue does not exist)",
                r.would_fail
            ));
        }
        s.push_str("; nothing moved");
        s
    } else {
        let mut s = format!(
            "replayed {} of {} matching {} of {} ({} scanned) in {:.2}s, {}",
            r.moved,
            r.matched,
            noun_for(r.matched, "dead letter"),
            sanitize(&r.source),
            r.scanned,
            r.elapsed_ms as f64 / 1000.0,
            rate_text(r.rate_per_sec)
        );
        if r.attempts_reset > 0 {
            s.push_str(&format!(
                "; {} start again at attempt 1",
                plural(r.attempts_reset, "job")
            ));
        }
        if r.failed > 0 {
            s.push_str(&format!("; {} failed and stay where they were", r.failed));
        }
        if r.skipped_own_copies > 0 {
            s.push_str(&format!(
                "; {} of this run came back and {} left in place",
                plural(r.skipped_own_copies, "copy"),
                if r.skipped_own_copies == 1 {
                    "was"
                } else {
                    "were"
                }
            ));
        }
        if r.interrupted {
            s.push_str("; interrupted: the rest stays in the dead-letter queue");
        }
        s
    };
    output::print(summary)
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Only a confirmed, routed copy lets its dead letter go; every other outcome keeps it.
    #[test]
    fn only_a_delivered_copy_acks_its_dead_letter() {
        let returned = Outcome::Returned {
            code: 312,
            text: "NO_ROUTE".into(),
        };
        assert!(matches!(
            settle_for(&Outcome::Delivered, 7, "d7".into(), None),
            Settle::Ack { tag: 7, ref digest, copy: true } if digest == "d7"
        ));
        assert!(matches!(
            settle_for(
                &Outcome::Delivered,
                8,
                "d8".into(),
                Some(Message::default())
            ),
            Settle::Ack {
                tag: 8,
                copy: true,
                ..
            }
        ));
        for outcome in [returned, Outcome::Refused, Outcome::Unknown] {
            assert!(
                matches!(
                    settle_for(&outcome, 7, "d7".into(), None),
                    Settle::Keep { in_flight: true }
                ),
                "{outcome:?} keeps the dead letter"
            );
            let last = Message {
                body: b"last delivery".to_vec(),
                ..Message::default()
            };
            assert!(
                matches!(
                    settle_for(&outcome, 9, "d9".into(), Some(last)),
                    Settle::Rescue { tag: 9, ref message, in_flight: true } if message.body == b"last delivery"
                ),
                "{outcome:?} on a last delivery rescues it"
            );
        }
    }

    #[test]
    fn stage_tallies_add_up_per_target_without_a_row_per_message() {
        let mut publish = ReplayReport::default();
        for _ in 0..3 {
            publish.record("orders", &Outcome::Delivered, true);
        }
        publish.record(
            "gone",
            &Outcome::Returned {
                code: 312,
                text: "NO_ROUTE".into(),
            },
            true,
        );
        publish.record("orders", &Outcome::Refused, true);
        let mut read = ReplayReport::default();
        read.fail("orders", "cannot copy the message: too long".into());
        let mut report = ReplayReport::default();
        report.absorb(read);
        report.absorb(publish);
        assert_eq!((report.moved, report.failed), (3, 3));
        assert_eq!(report.attempts_reset, 3, "only delivered copies count");
        assert_eq!(report.targets.len(), 2, "one entry per target");
        let orders = report.target("orders").clone();
        assert_eq!((orders.moved, orders.failed), (3, 2));
        assert_eq!(
            orders.failure.as_deref(),
            Some("refused by the broker (nack)")
        );
        let gone = report.target("gone").clone();
        assert_eq!((gone.moved, gone.failed), (0, 1));
        assert!(gone.failure.unwrap().contains("312 NO_ROUTE"));
        assert_eq!(report.exit_code(), ExitCode::Partial);
    }
}
