//! `queuey dead replay`: dead letters back to where they came from, losing none.
//!
//! The order of work for each dead letter is what makes a loss impossible: publish a copy
//! (confirm mode, `mandatory`), wait for the broker's confirmation, check the copy was not
//! returned, and only then ack the dead letter. If queuey dies or the connection drops at any
//! instant, each message is in `q.dead` (its ack never happened), in its target (the copy was
//! confirmed), or in both; never in neither.
//!
//! The pipeline's parts, in the order data flows: `queue.rs` (or `file.rs` for an export file)
//! reads and decides each dead letter with `step.rs`, the same for both, and takes a place in
//! the run's `window.rs`; `publish_stage.rs` publishes the copies in confirmed batches;
//! `settle.rs` acks, keeps or rescues each dead letter in delivery order (for a file it only
//! frees the place). `publishable.rs` keeps back the copies the broker would refuse,
//! `ledger.rs` keeps the run's ledger (`dead::ledger` holds the rule a rerun follows),
//! `open_ledger.rs` reads an unfinished run's ledger, `doubt.rs` looks for its copies in doubt
//! (`--look-in-targets`). The report is `dead::report`, printed by `output::replay`.

mod admit;
mod after;
mod doubt;
mod file;
mod ledger;
mod open_ledger;
mod publish_stage;
mod publishable;
mod queue;
mod returned_copies;
mod settle;
mod step;
mod window;

/// `dead edit` looks for its refused copy as a replay does.
pub(super) use returned_copies::remove_returned;

use std::cell::RefCell;
use std::collections::HashMap;
use std::sync::atomic::{AtomicU64, Ordering};
use std::time::{Duration, Instant};

use futures_util::StreamExt;

use crate::broker::acker::{Flow, flow_events, lost_error};
use crate::broker::permissions::WriteCheck;
use crate::broker::session::Session;
use crate::dead::report::ReplayReport;
use crate::dead::target_room::Rooms;
use crate::duration::format_duration;
use crate::endpoint::ConnectionSettings;
use crate::error::{Error, ExitCode, Kind, Result};
use crate::live::scan::explain_missing;
use crate::output::notes::note_rescued;
use crate::output::progress::Progress;
use crate::output::replay::print_report;
use crate::output::sanitize::sanitize;
use crate::output::{Output, plural};
use crate::queue::MAX_QUEUE_NAME_BYTES;
use crate::settings::ReplaySettings;
use crate::signals::{StopFlag, stop_flag};
use ledger::LedgerSlot;

pub async fn run(
    connection: &ConnectionSettings,
    settings: &ReplaySettings,
    output: Output,
) -> Result<ExitCode> {
    let session = crate::commands::session(connection, "dead replay", output)?;
    // Before anything, the dry run too: a user who may not publish cannot replay.
    match session.check_write_permission("dead replay").await {
        Ok(WriteCheck::Allowed) => {}
        Ok(WriteCheck::Unanswered(unchecked)) => output.warn(&unchecked.to_string()),
        Err(e) => {
            session.close().await;
            return Err(e);
        }
    }
    let stop = stop_flag();
    let started = Instant::now();
    let mut report = ReplayReport::new(settings.dry_run);
    let tally = Tally::default();
    let progress = Progress::pending(
        output,
        if settings.dry_run {
            "counting"
        } else {
            "replaying"
        },
    );
    let work = async {
        match &settings.from_file {
            Some(path) => {
                file::from_file(
                    &session,
                    settings,
                    path,
                    &stop,
                    &mut report,
                    &tally,
                    &progress,
                    output,
                )
                .await
            }
            None => {
                queue::from_queue(
                    &session,
                    settings,
                    &stop,
                    &mut report,
                    &tally,
                    &progress,
                    output,
                )
                .await
            }
        }
    };
    let blocked = if settings.dry_run {
        None
    } else {
        Some(watch_flow(
            &session,
            settings.blocked_timeout,
            &progress,
            output,
        ))
    };
    // q.dead, q and the --to queue: a quorum one that loses its majority mid-run is said
    // within seconds (`broker::watch`).
    let watched: Vec<String> = [
        Some(settings.queue.dead_queue()),
        Some(settings.queue.name.clone()),
        settings.to.clone(),
    ]
    .into_iter()
    .flatten()
    .collect();
    let majority = session.majority_watch(&watched);
    let result = match blocked {
        None => tokio::select! {
            r = work => r,
            e = majority => Err(e),
        },
        Some(watch) => tokio::select! {
            r = work => r,
            e = watch => Err(e),
            e = majority => Err(e),
        },
    };
    if result.is_err()
        && !settings.dry_run
        && settings.from_file.is_none()
        && let Err(why) = tally.mark_ledger()
    {
        output.warn(&format!(
            "the ledger's last line could not be written ({why}): a rerun copies again every \
             dead letter whose copy this run confirmed, and counts them"
        ));
    }
    progress.finish();
    report.elapsed_ms = u64::try_from(started.elapsed().as_millis()).unwrap_or(u64::MAX);
    let secs = started.elapsed().as_secs_f64();
    report.rate_per_sec = if secs > 0.0 {
        (report.moved as f64 / secs * 10.0).round() / 10.0
    } else {
        0.0
    };
    report.peak_in_flight = Tally::get(&tally.peak_in_flight);
    report.after = settings
        .after
        .as_ref()
        .map(|a| crate::dead::report::AfterReport {
            delay: a.written.clone(),
            ttl_ms: a.ttl_ms,
            returns_by: crate::clock::now_millis().map_or_else(String::new, |now| {
                crate::output::time::format_utc(now.saturating_add(i64::from(a.ttl_ms)))
            }),
        });
    let result = match result {
        Err(e)
            if report.scanned == 0
                && settings.from_file.is_none()
                && e.kind != Kind::BrokerRefused =>
        {
            Err(explain_missing(&session, &settings.queue, e).await)
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
        // removed may come back (acks are not confirmed), which the ledger answers.
        let source = sanitize(&report.source);
        let ledger = report.journal.as_deref().map_or(String::new(), |j| {
            format!(" (the ledger {} records them)", sanitize(j))
        });
        if settings.from_file.is_some() {
            output.warn(&format!(
                "stopped early: copied and confirmed {copied} of the lines of {source}{ledger}. \
                 Run the same command again: it does not copy again the lines the ledger \
                 records as copied"
            ));
            return Err(e);
        }
        // A message queuey cannot parse stops every rerun at the same place: the error's hint
        // says what to do instead, and nothing here says to run it again.
        let again = if e.kind == Kind::UnreadableMessage {
            String::new()
        } else {
            " Run the same command again: it loses nothing, and counts the dead letters it \
             copies again that may then be in their targets twice"
                .into()
        };
        // Copies published whose dead letters were not acked: unconfirmed (the broker may
        // have taken them) or confirmed just before the stop.
        let in_doubt = Tally::get(&tally.in_flight);
        let doubt = match in_doubt {
            0 => String::new(),
            n => format!(
                "; {} published before the stop and not removed from {source} may also be in \
                 {} target already (a rerun copies {} again unless --look-in-targets finds {} \
                 there)",
                plural(n, "more copy"),
                if n == 1 { "its" } else { "their" },
                if n == 1 {
                    "its dead letter"
                } else {
                    "their dead letters"
                },
                if n == 1 { "it" } else { "them" },
            ),
        };
        output.warn(&format!(
            "stopped early: copied and confirmed {copied}, removed from {source} {acked} \
             (acks sent; the broker does not confirm acks, so up to {acked} of these may come \
             back{ledger}){doubt}; everything else is still only in {source}.{again}"
        ));
        return Err(e);
    }
    crate::output::notes::note_held_elsewhere(output, &report.source, report.held_elsewhere);
    report.connected_to = session.connected_to();
    let find_refused = crate::shell::queuey_command(
        &[
            "dead",
            "ls",
            &settings.queue.name,
            "--cause",
            "maxlen",
            "--header",
            "x-queuey-last-replay",
        ],
        &settings.queue,
    );
    print_report(&report, settings.from_file.is_some(), &find_refused, output)?;
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

/// What the three stages of the queue pipeline share.
struct Shared<'a> {
    session: &'a Session,
    settings: &'a ReplaySettings,
    stop: &'a StopFlag,
    tally: &'a Tally,
    /// One place per dead letter between the read stage and its settling, and a byte budget:
    /// bodies read but not yet published are bounded by bytes too, not only by count (a window
    /// of multi-megabyte messages must not all sit in memory at once).
    window: window::Window,
    journal: RefCell<LedgerSlot>,
    /// The room in each target (the read stage asks, the publish stage reports decisions).
    rooms: RefCell<Rooms>,
    /// Copies the broker refused whose target may dead-letter them back into q.dead: copy
    /// number -> target.
    refused: RefCell<HashMap<u64, String>>,
    /// With `--after`: the hold queues declared so far, and why one could not be.
    holds: after::Holds,
}

impl<'a> Shared<'a> {
    /// What the stages of a run from `source` (q.dead, or a file) share, its ledger `journal`.
    fn new(
        session: &'a Session,
        settings: &'a ReplaySettings,
        stop: &'a StopFlag,
        tally: &'a Tally,
        journal: LedgerSlot,
        source: &str,
    ) -> Shared<'a> {
        Shared {
            session,
            settings,
            stop,
            tally,
            window: window::Window::new(
                usize::from(settings.peek.window),
                settings.peek.byte_budget,
            ),
            journal: RefCell::new(journal),
            rooms: RefCell::new(Rooms::new(
                source,
                settings.allow_drop_head,
                settings.dry_run,
            )),
            refused: RefCell::new(HashMap::new()),
            holds: RefCell::new(HashMap::new()),
        }
    }
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
    /// The highest copy number whose dead letter's ack was sent or tried. The settle stage
    /// acks in delivery order and copies are numbered in that order: no later copy's dead
    /// letter was ever named to the broker.
    acked_through: AtomicU64,
    /// This run's ledger and run id, once it has one: where a failed run leaves that mark.
    ledger: std::sync::Mutex<Option<(std::path::PathBuf, String)>>,
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

    fn acks_through(&self, copy: u64) {
        self.acked_through.fetch_max(copy, Ordering::SeqCst);
    }

    fn name_ledger(&self, path: &std::path::Path, run: &str) {
        if let Ok(mut slot) = self.ledger.lock() {
            *slot = Some((path.to_owned(), run.to_owned()));
        }
    }

    /// The run is finishing its ledger (rewriting what it carries under its own id, which a
    /// mark must never cut): from now on it leaves no mark.
    fn forget_ledger(&self) {
        if let Ok(mut slot) = self.ledger.lock() {
            *slot = None;
        }
    }

    /// A failed replay, its work ended or dropped (no ack can follow): the ledger's last
    /// line says which of its copies had dead letters never named in an ack, so that a rerun
    /// lets them go without copying them again (see `dead::ledger`). Nothing when the run
    /// wrote no ledger. A kill -9 writes no mark: its rerun copies those again, and counts
    /// them as possible duplicates.
    fn mark_ledger(&self) -> std::result::Result<(), String> {
        let Some((path, run)) = self.ledger.lock().ok().and_then(|s| s.clone()) else {
            return Ok(());
        };
        crate::ledger_file::append_if_present(
            &path,
            &crate::dead::ledger::acked_through_line(&run, Self::get(&self.acked_through)),
        )
        .map_err(|e| e.message)
    }
}

/// The error a pipeline whose stages stopped reports: when the connection drops every stage
/// fails, and the broker's error is the one to say, not a stage noticing that its neighbour
/// stopped (an internal error).
fn first_error(errors: [Option<&Error>; 3]) -> Option<Error> {
    errors
        .into_iter()
        .flatten()
        .min_by_key(|e| e.kind == Kind::Internal)
        .cloned()
}

/// With --dry-run: checks that each target exists, as a real run's copies would find out, and
/// counts what would move and what would fail.
/// With `--after` the targets are hold queues, which the run declares: what must exist is the
/// queue each returns to.
async fn check_targets(session: &Session, settings: &ReplaySettings, report: &mut ReplayReport) {
    for t in &mut report.targets {
        if t.queue.len() <= MAX_QUEUE_NAME_BYTES {
            let returns_to = after::returns_to(settings, &t.queue).unwrap_or(&t.queue);
            t.exists = after::target_exists(session, returns_to).await;
        }
    }
    report.settle_would();
}
