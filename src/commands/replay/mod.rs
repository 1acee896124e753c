//! `queuey dead replay`: dead letters back to where they came from, losing none. This is the
//! flow's entry: read this doc first, then the files in the order it names them, each once.
//!
//! The order of work for each dead letter is what makes a loss impossible: publish a copy
//! (confirm mode, `mandatory`), wait for the broker's confirmation, check the copy was not
//! returned, and only then ack the dead letter. If queuey dies or the connection drops at any
//! instant, each message is in `q.dead` (its ack never happened), in its target (the copy was
//! confirmed), or in both; never in neither.
//!
//! **What enters.** `ReplaySettings`: the logical queue, the filters, `--to`, `--limit`,
//! `--rate`, `--after`, `--channels`, `--dry-run`, and the peek's options (`--window` places,
//! a 64 MiB byte budget). The source is q.dead (`queue.rs`), or an export file with
//! `--from-file` (`file.rs`: every line checked before anything is published). Before either,
//! `run` checks that the user may publish at all.
//!
//! **The stages, in the order data flows:**
//! 1. Opening (`queue::from_queue`, `file::from_file`): `open_ledger.rs` reads what an
//!    unfinished run left in the ledger, and `doubt.rs` looks for its copies in doubt
//!    (`--look-in-targets`) or gives them up; `ledger.rs` is this run's ledger (`LedgerSlot`).
//!    The peek of q.dead begins (`broker::peek`, guarded by `live::unreadable`).
//! 2. The reader (`Reader` in `queue.rs`, `LineReader` in `file.rs`): each dead letter is first
//!    decided by the ledger's rule (`dead::ledger`: a copy it proves exists lets it go without a
//!    new one), then by `step.rs` (filters, target, the copy; with `--after`, `after.rs` names
//!    its hold queue).
//! 3. Admission, before anything is published: `publishable.rs` keeps back a copy the broker
//!    would refuse (its user_id, its header frame, its size; with `--after`, a hold queue
//!    `after.rs` cannot use), and `admit.rs` one its target has no room for. A copy kept
//!    back leaves its dead letter where it is, counted as failed; one that may go takes a place
//!    in the window (`window.rs`: `--window` places and the byte budget) and goes on.
//! 4. The publish stage (`publish_stage.rs`): confirmed batches, paced by `--rate`, each copy
//!    recorded in the ledger in doubt (on disk) before it is published and decided (on disk)
//!    after; every decided dead letter goes on, in order.
//! 5. The settle stage (`settle.rs`): acks each dead letter whose copy was delivered, in
//!    delivery order, and keeps the others; a file's lines are only counted.
//! 6. The end: `returned_copies.rs` removes the refused copies a target dead-lettered back into
//!    q.dead; the ledger is finished; back here, the summary.
//!
//! The reader (stages 2 and 3), the publish stage and the settle stage run joined on one task
//! and pass jobs through bounded channels; what they share is `Shared` and `Tally` below (the
//! counts a failed run's summary reads), and `first_error` picks the error to report when they
//! all stop.
//!
//! **What leaves.** Copies in their targets (or hold queues); acks of their dead letters (a
//! file's lines are never removed); the ledger (in the state directory, or `--journal`), which
//! a clean end removes but for the records of dead letters the run did not reach; the report
//! (`dead::report`, printed by `output::replay`) and the exit code: 0; 3 when a selected dead
//! letter could not move (its copy kept back, returned or refused) or others held dead
//! letters; 130 after a signal; else the error's own (docs/exit-codes.md). `--dry-run`
//! publishes and acks nothing, and checks that each target exists (`check_targets`).
//!
//! **Where it can stop**, what it costs, and where a rerun picks up:
//! - A signal (Ctrl-C, SIGTERM, SIGHUP): nothing more is read or published, the copies in
//!   flight are decided and their dead letters acked or kept, the peek returns the rest. Exit
//!   130. A rerun reads q.dead from its head; a file run keeps its ledger, so its rerun skips
//!   the lines this one copied.
//! - An error: a lost connection, a quorum queue that loses its majority
//!   (`Session::majority_watch`), publishing blocked longer than `--blocked-timeout`
//!   (`watch_flow`; without it the run waits and says so), a broker silent past `--timeout`
//!   (`broker::watch`). The work stops where it is; what the peek held goes back to q.dead (by
//!   the peek's end, or by the broker when the channel closes, which on a quorum q.dead with a
//!   delivery limit spends a delivery of each). `Tally::mark_ledger` marks which confirmed
//!   copies' dead letters were never acked, so the rerun lets those go without a copy; copies
//!   published and never confirmed stay in doubt, and the rerun copies their dead letters again
//!   (counted as possible duplicates) unless `--look-in-targets` finds them. The warning says
//!   how many. A file run's ledger stays, as after a signal.
//! - A message queuey cannot parse, on a quorum q.dead: the error, and a mark that stops every
//!   later read of that queue until `--retry-unreadable` (`live::unreadable`).
//! - `--limit`: a normal end; the ledger keeps the records of what the run did not reach.
//! - A full target, a hold queue declared with other arguments or whose queue to return to is
//!   missing: no stop; those dead letters stay (exit 3), the others go on.
//!
//! The rule a rerun follows is `dead::ledger`'s; docs/design.md places each file, and
//! docs/broker-notes.md says why the broker is handled as it is.

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
