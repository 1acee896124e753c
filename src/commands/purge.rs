//! `queuey dead purge`: deleting dead letters, on purpose and only those meant.

use std::fs::File;
use std::io::{self, BufWriter, IsTerminal, Write};
use std::path::Path;

use crate::broker::acker::{Acker, connection_lost};
use crate::broker::peek::{Delivered, Peek};
use crate::broker::session::Session;
use crate::clock::now_secs;
use crate::dead::decode;
use crate::dead::export::{self, EndLine, ExportLine, export_record, read_record};
use crate::dead::ledger::{Boot, Decision, Ledger, Line, Op, Scope, digest};
use crate::dead::peek::PeekOptions;
use crate::endpoint::ConnectionSettings;
use crate::error::{Error, ExitCode, Kind, Result};
use crate::ledger_file::LedgerFile;
use crate::live::scan::{missing_dead_queue, refuse_stream, with_declare_command};
use crate::live::unreadable::with_dead_peek;
use crate::output::file::create_new_file;
use crate::output::notes::note_rescued;
use crate::output::progress::Progress;
use crate::output::purge::{PurgeReport, print_report};
use crate::output::sanitize::sanitize;
use crate::output::{self, Format, Output, plural};
use crate::settings::PurgeSettings;
use crate::signals::{StopFlag, stop_flag};

pub async fn run(
    connection: &ConnectionSettings,
    settings: &PurgeSettings,
    output: Output,
) -> Result<ExitCode> {
    let session = super::session(connection, "dead purge", output)?;
    let dead = settings.queue.dead_queue();
    let mut report = PurgeReport {
        queue: dead.clone(),
        dry_run: settings.dry_run,
        archive: settings.archive.as_ref().map(|p| p.display().to_string()),
        ..PurgeReport::default()
    };
    let whole_queue = settings.filter.is_empty() && settings.archive.is_none();
    report.whole_queue = whole_queue;
    if !whole_queue {
        report.scanned = Some(0);
    }
    // Before anything reaches the queue: a quorum q.dead without a majority would not answer.
    refuse_stream(&session, &settings.queue).await?;
    let ready = match session.passive_declare(&dead).await? {
        Some(counts) => counts.messages_ready,
        None => return Err(missing_dead_queue(&session, &settings.queue).await),
    };

    let needs_prompt = !settings.yes && !settings.dry_run;
    if needs_prompt && !io::stdin().is_terminal() {
        return Err(Error::usage(format!(
            "refusing to purge {dead:?} without confirmation: standard input is not a terminal"
        ))
        .with_hint("pass --yes to purge from a script, or --dry-run to count first"));
    }
    if settings.dry_run || needs_prompt {
        let count = if whole_queue {
            u64::from(ready)
        } else {
            count_matching(&session, settings, &mut report, output).await?
        };
        if settings.dry_run {
            report.matched = count;
            session.close().await;
            report.connected_to = session.connected_to();
            return finish(&report, output);
        }
        if let Some(note) = crate::output::purge::enqueue_age_note(&report, true) {
            output.note(&note);
        }
        if count == 0 {
            output.note(&format!(
                "nothing in {} matches; nothing removed",
                sanitize(&dead)
            ));
            session.close().await;
            return Ok(ExitCode::Ok);
        }
        let what = match (whole_queue, count) {
            (true, 1) => "the 1 message".to_owned(),
            (true, n) => format!("all {n} messages"),
            (false, n) => format!("{} matching the filters", plural(n, "message")),
        };
        if !confirm(&format!(
            "Remove {what} from {} (vhost {})? This cannot be undone. [y/N] ",
            sanitize(&dead),
            sanitize(session.vhost())
        ))? {
            report.aborted = true;
            session.close().await;
            output.note(&format!(
                "declined: nothing removed from {} (exit {})",
                sanitize(&dead),
                ExitCode::Declined.code()
            ));
            if output.format == Format::Json {
                output::print_json(&report)?;
            }
            return Ok(ExitCode::Declined);
        }
        if !whole_queue {
            report.scanned = Some(0);
        }
        // Counted again by the purge itself.
        report.kept_aged_by_enqueue = 0;
        report.matched_aged_by_enqueue = 0;
    }

    if whole_queue {
        // queue.purge removes ready messages only: what others hold stays.
        report.held_elsewhere = crate::broker::peek::held_by_others(&session, &dead).await;
        report.removed = session.purge(&dead).await.map_err(|e| match e.kind {
            Kind::UnsupportedQueue => with_declare_command(e, &settings.queue),
            _ => e,
        })?;
        report.matched = report.removed;
    } else {
        let stop = stop_flag();
        let mut archived = 0u64;
        let result = tokio::select! {
            r = remove_matching(&session, settings, &mut report, &mut archived, &stop, output) => r,
            e = connection_lost(&session) => Err(e),
            e = session.majority_watch(std::slice::from_ref(&dead)) => Err(e),
        };
        report.interrupted = stop.is_set();
        if let Err(e) = result {
            let _ = tokio::time::timeout(std::time::Duration::from_secs(3), session.close()).await;
            if report.scanned.unwrap_or(0) > 0 {
                let archive = match &settings.archive {
                    Some(a) => format!(
                        "archived {archived} to {} (on disk), ",
                        sanitize(&a.display().to_string())
                    ),
                    None => String::new(),
                };
                let rerun = if settings.archive.is_some() {
                    "; running the same command again appends to the same archive, and does not \
                     write twice what it holds"
                } else {
                    ""
                };
                output.warn(&format!(
                    "stopped early: {archive}removed from {} {} (acks sent; the broker does not \
                     confirm acks, so up to {} of these may come back){rerun}; everything else \
                     is still in {}",
                    sanitize(&dead),
                    report.removed,
                    report.removed,
                    sanitize(&dead)
                ));
            }
            return Err(e);
        }
    }
    session.close().await;
    report.connected_to = session.connected_to();
    finish(&report, output)
}

pub(super) fn confirm(question: &str) -> Result<bool> {
    eprint!("{question}");
    let _ = io::stderr().flush();
    let mut answer = String::new();
    io::stdin()
        .read_line(&mut answer)
        .map_err(|e| Error::io("cannot read the answer", &e))?;
    Ok(matches!(
        answer.trim().to_ascii_lowercase().as_str(),
        "y" | "yes"
    ))
}

async fn count_matching(
    session: &Session,
    settings: &PurgeSettings,
    report: &mut PurgeReport,
    output: Output,
) -> Result<u64> {
    let dead = settings.queue.dead_queue();
    let now = now_secs();
    let mut matched = 0;
    let rescued = with_dead_peek(session, &dead, settings.peek, async |p| {
        let progress = Progress::new(output, Some(p.target), "counting");
        report.held_elsewhere = p.held_elsewhere;
        while let Some(d) = p.next().await? {
            progress.inc(1);
            let dl = decode::decode(&d.message, &settings.queue.name, &settings.queue.options);
            if selects(settings, &dl, &d.message, now, report) {
                matched += 1;
            }
        }
        progress.finish();
        report.scanned = Some(p.received());
        Ok(p.rescuer.count)
    })
    .await?;
    note_rescued(output, &dead, rescued);
    Ok(matched)
}

async fn remove_matching(
    session: &Session,
    settings: &PurgeSettings,
    report: &mut PurgeReport,
    archived: &mut u64,
    stop: &StopFlag,
    output: Output,
) -> Result<()> {
    let dead = settings.queue.dead_queue();
    let now = now_secs();
    let scope = crate::live::scan::ledger_scope(session, &dead).await;
    let (mut archive, mut held) = match &settings.archive {
        Some(path) => {
            let run = crate::clock::unique_id();
            let (a, held) = Archive::open(path, &scope, &run, &session.boot().await)?;
            if a.reopened {
                output.note(&format!(
                    "{} is the archive of an unfinished purge of {}: appending to it",
                    path.display(),
                    sanitize(&dead),
                ));
            }
            report.may_be_duplicates += held.earlier_duplicates;
            (Some(a), held)
        }
        None => (None, Ledger::default()),
    };
    let batch = usize::from(settings.peek.window);
    let options = PeekOptions {
        auto_rescue: false,
        ..settings.peek
    };
    let rescued = with_dead_peek(session, &dead, options, async |p| {
        let progress = Progress::new(output, Some(p.target), "purging");
        report.held_elsewhere = p.held_elsewhere;
        // Archived but not yet on disk: acked only after the archive is synced. `true`: a
        // dead letter the ledger proves archived already, acked without a new record.
        let mut pending: Vec<Pending> = Vec::new();
        let acker = p.acker();
        while !stop.is_set() {
            let Some(Delivered {
                position,
                tag,
                mut message,
                last_delivery,
            }) = p.next().await?
            else {
                break;
            };
            progress.inc(1);
            report.scanned = Some(report.scanned.unwrap_or(0) + 1);
            // The one rule (`dead::ledger`): archived by an unfinished purge and never acked,
            // so one dead letter of its content goes without a second record.
            let d = if archive.is_some() {
                digest(&message.properties, &message.body)
            } else {
                String::new()
            };
            let decision = archive.is_some().then(|| held.decide(&d));
            if last_delivery && decision == Some(Decision::AlreadyCopied) {
                // Acked unclaimed, a crash would end it and leave its record to answer for a
                // twin never archived: replaced instead, the record kept for the replacement.
                held.undecide(&d, Decision::AlreadyCopied);
                p.rescue(tag, &mut message).await?;
                p.read_renewed(1);
                continue;
            }
            let may_duplicate = match decision {
                Some(Decision::AlreadyCopied) => {
                    report.already_archived += 1;
                    pending.push(Pending {
                        tag,
                        digest: d,
                        claimed: true,
                        may_duplicate: false,
                    });
                    continue;
                }
                Some(Decision::Copy { may_duplicate }) => may_duplicate,
                None => false,
            };
            let dl = decode::decode(&message, &settings.queue.name, &settings.queue.options);
            if !selects(settings, &dl, &message, now, report) {
                // It stays: its record answers for the next dead letter of its content.
                if let Some(decision) = decision {
                    held.undecide(&d, decision);
                }
                if last_delivery {
                    // Kept, and returning it would end it: replace it by a fresh copy.
                    p.rescue(tag, &mut message).await?;
                }
                continue;
            }
            report.matched += 1;
            match archive.as_mut() {
                None => {
                    report.removed += 1;
                    p.ack(tag).await?;
                }
                Some(a) => {
                    a.write(&export_record(
                        &dead,
                        session.vhost(),
                        position,
                        &message,
                        &dl,
                    ))?;
                    if may_duplicate {
                        report.may_be_duplicates += 1;
                        if report.may_be_duplicated_ids.len() < 1000 {
                            report.may_be_duplicated_ids.push(
                                match &message.properties.message_id {
                                    Some(id) => id.clone(),
                                    None => format!("sha256:{}", &d[..d.len().min(16)]),
                                },
                            );
                        }
                    }
                    pending.push(Pending {
                        tag,
                        digest: d,
                        claimed: false,
                        may_duplicate,
                    });
                    if pending.len() >= batch {
                        a.sync()?;
                        *archived = a.written;
                        settle_archived(p, &acker, a, &mut pending, report).await?;
                    }
                }
            }
        }
        if let Some(a) = archive.as_mut() {
            a.sync()?;
            *archived = a.written;
            settle_archived(p, &acker, a, &mut pending, report).await?;
        }
        progress.finish();
        Ok(p.rescuer.count)
    })
    .await?;
    note_rescued(output, &dead, rescued);
    if let Some(a) = archive {
        let mut end = EndLine::new("purge", session.vhost(), &dead);
        end.records = a.written;
        end.scanned = report.scanned;
        if stop.is_set() {
            end.finished = false;
            end.why = Some(
                "interrupted (a signal): every dead letter the archive holds was removed, the \
                 rest stay in the dead-letter queue"
                    .to_owned(),
            );
        }
        a.finish(&end)?;
    }
    Ok(())
}

/// Whether the purge removes `dl`: it passes the filters, and if `--older-than` selects it by
/// its job's enqueue time alone (no death time: it may have died a second ago), only with
/// `--age-from-enqueued`. Either way such a dead letter is counted in `report`.
fn selects(
    settings: &PurgeSettings,
    dl: &decode::DeadLetter,
    message: &decode::Message,
    now: u64,
    report: &mut PurgeReport,
) -> bool {
    if !settings.filter.matches(dl, message, now) {
        return false;
    }
    if !settings.filter.older_by_enqueue_only(dl, now) {
        return true;
    }
    if settings.age_from_enqueued {
        report.matched_aged_by_enqueue += 1;
        true
    } else {
        report.kept_aged_by_enqueue += 1;
        false
    }
}

/// A dead letter held until its archive record is on disk.
struct Pending {
    tag: u64,
    digest: String,
    /// The ledger proves it archived already: no new record, a `claimed` line before its ack.
    claimed: bool,
    /// Archived although an unfinished purge may have archived it already.
    may_duplicate: bool,
}

/// Acks archived dead letters: the archive is on disk; then the ledger's `claimed` lines and
/// its `acking` mark (every record so far may be acked from now on), on disk; then the acks;
/// then, once the broker has processed them, their `settled` lines.
async fn settle_archived(
    p: &mut Peek<'_>,
    acker: &Acker<'_>,
    archive: &mut Archive,
    pending: &mut Vec<Pending>,
    report: &mut PurgeReport,
) -> Result<()> {
    if pending.is_empty() {
        return Ok(());
    }
    for claim in pending.iter().filter(|p| p.claimed) {
        archive.ledger.claimed(&claim.digest);
    }
    let dups = pending.iter().filter(|p| p.may_duplicate).count() as u64;
    archive.ledger.acking(archive.records, dups);
    archive.ledger.sync()?;
    let mut digests = Vec::with_capacity(pending.len());
    for Pending { tag, digest, .. } in pending.drain(..) {
        report.removed += 1; // counted as sent: it may arrive anyway
        p.ack(tag).await?;
        digests.push(digest);
    }
    acker.barrier().await?;
    for d in &digests {
        archive.ledger.settled(d);
    }
    archive.ledger.sync()
}

/// An archive file, each batch flushed and fsynced before the messages in it are removed from
/// the broker, created new (never overwriting a file, readable by its owner alone), with its
/// ledger `ARCHIVE.unfinished` beside it (see `dead::ledger`: the run lines naming the broker,
/// vhost and queue, then `acking` marks, `claimed` and `settled` lines) until the purge ends
/// cleanly. A rerun after a failure finds the ledger, recognises its own unfinished archive, and
/// appends to it; a dead letter the archive holds whose ack was never sent is removed without
/// being written twice, and any other is archived again (a duplicate at worst, counted).
struct Archive {
    path: std::path::PathBuf,
    writer: BufWriter<File>,
    ledger: LedgerFile,
    /// Records in the file (earlier runs' and this run's), synced.
    records: u64,
    /// Records on disk (this run's, synced).
    written: u64,
    /// It is the unfinished archive of an earlier run, appended to.
    reopened: bool,
    unsynced: u64,
}

impl Archive {
    /// Creates the archive, or reopens the unfinished archive of the same queue; returns what
    /// its ledger says of the records it holds.
    fn open(path: &Path, scope: &Scope, run: &str, boot: &Boot) -> Result<(Archive, Ledger)> {
        let mut marker = path.as_os_str().to_owned();
        marker.push(".unfinished");
        let marker = std::path::PathBuf::from(marker);
        let io = |doing: &str, e: &io::Error| {
            Error::io(format!("cannot {doing} the archive {}", path.display()), e)
        };
        let marker_text = std::fs::read_to_string(&marker).unwrap_or_default();
        let mine = matches!(
            marker_text.lines().next().map(Line::parse),
            Some(Ok(Line::Run { scope: ref theirs, op: Some(Op::Purge), .. })) if theirs == scope
        );
        let mut held = Ledger::default();
        let (file, records) = if mine && path.exists() {
            // Records up to the last `acking` mark may have been acked; those after it were not.
            let acking = marker_text
                .lines()
                .filter_map(|l| match Line::parse(l) {
                    Ok(Line::Acking { n, .. }) => Some(n),
                    _ => None,
                })
                .max()
                .unwrap_or(0);
            let mut records = 0u64;
            for line in std::fs::read_to_string(path)
                .map_err(|e| io("read", &e))?
                .lines()
            {
                // A line cut short by a crash was never acked: skipped, written again.
                if let Ok(m) = read_record(line) {
                    records += 1;
                    held.add_copy(&digest(&m.properties, &m.body), records <= acking);
                }
            }
            held.read_lines(&marker_text, scope).map_err(|why| {
                Error::usage(format!(
                    "the archive's ledger {} cannot be used: {why}",
                    marker.display()
                ))
            })?;
            // A node that restarted may have lost the acks it had processed.
            held.revive_after_restart(boot);
            let whole = {
                let bytes = std::fs::read(path).map_err(|e| io("read", &e))?;
                let whole = bytes.iter().rposition(|&b| b == b'\n').map_or(0, |i| i + 1);
                // An end line written just before a crash took the ledger's removal: the
                // records go on after it, so it goes.
                let start = bytes[..whole.saturating_sub(1)]
                    .iter()
                    .rposition(|&b| b == b'\n')
                    .map_or(0, |i| i + 1);
                let last = String::from_utf8_lossy(&bytes[start..whole]);
                match export::read_line(last.trim_end()) {
                    Ok(ExportLine::End(_)) => start,
                    _ => whole,
                }
            };
            let file = File::options()
                .append(true)
                .open(path)
                .map_err(|e| io("open", &e))?;
            file.set_len(whole as u64).map_err(|e| io("repair", &e))?;
            (file, records)
        } else {
            (create_new_file(path, "archive")?, 0)
        };
        let ledger = LedgerFile::open(&marker, Op::Purge, scope, run, now_secs(), boot)?;
        Ok((
            Archive {
                path: path.to_owned(),
                writer: BufWriter::new(file),
                ledger,
                records,
                written: 0,
                unsynced: 0,
                reopened: mine,
            },
            held,
        ))
    }

    fn write(&mut self, record: &serde_json::Value) -> Result<()> {
        crate::output::json::to_writer(&mut self.writer, record).map_err(|e| {
            Error::io(
                format!("cannot write the archive {}", self.path.display()),
                &io::Error::other(e),
            )
        })?;
        self.unsynced += 1;
        self.writer.write_all(b"\n").map_err(|e| {
            Error::io(
                format!("cannot write the archive {}", self.path.display()),
                &e,
            )
        })
    }

    fn sync(&mut self) -> Result<()> {
        self.writer
            .flush()
            .and_then(|()| self.writer.get_ref().sync_data())
            .map_err(|e| {
                Error::io(
                    format!("cannot write the archive {}", self.path.display()),
                    &e,
                )
            })?;
        let n = std::mem::take(&mut self.unsynced);
        self.written += n;
        self.records += n;
        Ok(())
    }

    /// The purge ended cleanly: the archive gets its end line, and its ledger goes.
    fn finish(mut self, end: &EndLine) -> Result<()> {
        let fail = |e: io::Error| {
            Error::io(
                format!("cannot write the archive {}", self.path.display()),
                &e,
            )
        };
        crate::output::json::to_writer(&mut self.writer, end)
            .map_err(|e| fail(io::Error::from(e)))?;
        self.writer.write_all(b"\n").map_err(fail)?;
        self.writer
            .flush()
            .and_then(|()| self.writer.get_ref().sync_data())
            .map_err(fail)?;
        let marker = self.ledger.path.clone();
        match std::fs::remove_file(&marker) {
            Ok(()) => Ok(()),
            Err(e) if e.kind() == io::ErrorKind::NotFound => Ok(()),
            Err(e) => Err(Error::io(format!("cannot remove {}", marker.display()), &e)),
        }
    }
}

/// Prints the report (and what others held), and returns the run's exit code.
fn finish(r: &PurgeReport, output: Output) -> Result<ExitCode> {
    crate::output::notes::note_held_elsewhere(output, &r.queue, r.held_elsewhere);
    print_report(r, output)?;
    Ok(if r.interrupted {
        ExitCode::Interrupted
    } else if r.held_elsewhere.is_some() {
        ExitCode::Partial
    } else {
        ExitCode::Ok
    })
}
