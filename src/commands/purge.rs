//! `queuey dead purge`: deleting dead letters, on purpose and only those meant.

use std::fs::{File, OpenOptions};
use std::io::{self, BufWriter, IsTerminal, Write};
use std::path::Path;

use crate::broker::acker::{Acker, connection_lost};
use crate::broker::peek::{Delivered, Peek};
use crate::broker::session::Session;
use crate::clock::now_secs;
use crate::dead::decode;
use crate::dead::export::{self, EndLine, ExportLine, export_record, read_record};
use crate::dead::journal::{
    Boot, Line, Scope, Unfinished, boot_line, digest, read_line, run_line, settled_line,
};
use crate::dead::peek::PeekOptions;
use crate::endpoint::ConnectionSettings;
use crate::error::{Error, ExitCode, Kind, Result};
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
    s: &PurgeSettings,
    output: Output,
) -> Result<ExitCode> {
    let session = super::session(connection, "dead purge", output)?;
    let dead = s.queue.dead_queue();
    let mut report = PurgeReport {
        queue: dead.clone(),
        dry_run: s.dry_run,
        archive: s.archive.as_ref().map(|p| p.display().to_string()),
        ..PurgeReport::default()
    };
    let whole_queue = s.filter.is_empty() && s.archive.is_none();
    report.whole_queue = whole_queue;
    if !whole_queue {
        report.scanned = Some(0);
    }
    // Before anything reaches the queue: a quorum q.dead without a majority would not answer.
    refuse_stream(&session, &s.queue).await?;
    let ready = match session.passive_declare(&dead).await? {
        Some(counts) => counts.messages_ready,
        None => return Err(missing_dead_queue(&session, &s.queue).await),
    };

    let needs_prompt = !s.yes && !s.dry_run;
    if needs_prompt && !io::stdin().is_terminal() {
        return Err(Error::usage(format!(
            "refusing to purge {dead:?} without confirmation: standard input is not a terminal"
        ))
        .with_hint("pass --yes to purge from a script, or --dry-run to count first"));
    }
    if s.dry_run || needs_prompt {
        let count = if whole_queue {
            u64::from(ready)
        } else {
            count_matching(&session, s, &mut report, output).await?
        };
        if s.dry_run {
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
            Kind::UnsupportedQueue => with_declare_command(e, &s.queue),
            _ => e,
        })?;
        report.matched = report.removed;
    } else {
        let stop = stop_flag();
        let mut archived = 0u64;
        let result = tokio::select! {
            r = remove_matching(&session, s, &mut report, &mut archived, &stop, output) => r,
            e = connection_lost(&session) => Err(e),
            e = session.majority_watch(std::slice::from_ref(&dead)) => Err(e),
        };
        report.interrupted = stop.is_set();
        if let Err(e) = result {
            let _ = tokio::time::timeout(std::time::Duration::from_secs(3), session.close()).await;
            if report.scanned.unwrap_or(0) > 0 {
                let archive = match &s.archive {
                    Some(a) => format!(
                        "archived {archived} to {} (on disk), ",
                        sanitize(&a.display().to_string())
                    ),
                    None => String::new(),
                };
                let rerun = if s.archive.is_some() {
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
    s: &PurgeSettings,
    report: &mut PurgeReport,
    output: Output,
) -> Result<u64> {
    let dead = s.queue.dead_queue();
    let now = now_secs();
    let mut matched = 0;
    let rescued = with_dead_peek(session, &dead, s.peek, async |p| {
        let progress = Progress::new(output, Some(p.target), "counting");
        report.held_elsewhere = p.held_elsewhere;
        while let Some(d) = p.next().await? {
            progress.inc(1);
            let dl = decode::decode(&d.message, &s.queue.name, &s.queue.options);
            if selects(s, &dl, &d.message, now, report) {
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
    s: &PurgeSettings,
    report: &mut PurgeReport,
    archived: &mut u64,
    stop: &StopFlag,
    output: Output,
) -> Result<()> {
    let dead = s.queue.dead_queue();
    let now = now_secs();
    let scope = crate::live::scan::journal_scope(session, &dead).await;
    let (mut archive, mut held) = match &s.archive {
        Some(path) => {
            let (a, held) = Archive::open(path, &scope, &session.boot().await)?;
            if a.reopened {
                output.note(&format!(
                    "{} is the archive of an unfinished purge of {}: appending to it",
                    path.display(),
                    sanitize(&dead),
                ));
            }
            (Some(a), held)
        }
        None => (None, Unfinished::default()),
    };
    let batch = usize::from(s.peek.window);
    let options = PeekOptions {
        auto_rescue: false,
        ..s.peek
    };
    let rescued = with_dead_peek(session, &dead, options, async |p| {
        let progress = Progress::new(output, Some(p.target), "purging");
        report.held_elsewhere = p.held_elsewhere;
        // Archived but not yet on disk: acked only after the archive is synced.
        let mut pending: Vec<(u64, String)> = Vec::new();
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
            // Archived by an unfinished purge whose ack was lost: remove it, write it once.
            let mut d = if archive.is_some() {
                digest(&message.properties, &message.body)
            } else {
                String::new()
            };
            let scanned = report.scanned.unwrap_or(0);
            if archive.is_some()
                && message.redelivered
                && held.within_read(scanned, p.kind.keeps_positions())
                && held
                    .take_dead_letter(&mut d, &message.properties, &message.body)
                    .is_some()
            {
                report.already_archived += 1;
                pending.push((tag, d));
                continue;
            }
            let dl = decode::decode(&message, &s.queue.name, &s.queue.options);
            if !selects(s, &dl, &message, now, report) {
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
                    pending.push((tag, d));
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
    s: &PurgeSettings,
    dl: &decode::DeadLetter,
    message: &decode::Message,
    now: u64,
    report: &mut PurgeReport,
) -> bool {
    if !s.filter.matches(dl, message, now) {
        return false;
    }
    if !s.filter.older_by_enqueue_only(dl, now) {
        return true;
    }
    if s.age_from_enqueued {
        report.matched_aged_by_enqueue += 1;
        true
    } else {
        report.kept_aged_by_enqueue += 1;
        false
    }
}

/// Acks archived dead letters (the archive is on disk), then, once the broker has processed
/// the acks, says so in the archive's marker.
async fn settle_archived(
    p: &mut Peek<'_>,
    acker: &Acker<'_>,
    archive: &Archive,
    pending: &mut Vec<(u64, String)>,
    report: &mut PurgeReport,
) -> Result<()> {
    // What the records of this batch answer for lies within what was read so far.
    archive.note(&read_line(report.scanned.unwrap_or(0)))?;
    let mut digests = Vec::with_capacity(pending.len());
    for (t, d) in pending.drain(..) {
        report.removed += 1; // counted as sent: it may arrive anyway
        p.ack(t).await?;
        digests.push(d);
    }
    acker.barrier().await?;
    archive.settled(&digests)
}

/// An archive file, each batch flushed and fsynced before the messages in it are removed from
/// the broker. Created new (never overwriting a file), with a marker `ARCHIVE.unfinished`
/// beside it naming the broker, vhost and queue until the purge ends cleanly: a rerun after a
/// failure finds the marker, recognises its own unfinished archive, and appends to it; the
/// dead letters it already holds that come back (their acks lost) are removed without being
/// written twice.
struct Archive {
    path: std::path::PathBuf,
    marker: std::path::PathBuf,
    writer: BufWriter<File>,
    /// Records on disk (this run's, synced).
    written: u64,
    /// It is the unfinished archive of an earlier run, appended to.
    reopened: bool,
    unsynced: u64,
}

impl Archive {
    /// Creates the archive, or reopens the unfinished archive of the same queue; returns the
    /// records it holds, by digest.
    fn open(path: &Path, scope: &Scope, boot: &Boot) -> Result<(Archive, Unfinished)> {
        let mut marker = path.as_os_str().to_owned();
        marker.push(".unfinished");
        let marker = std::path::PathBuf::from(marker);
        let io = |doing: &str, e: &io::Error| {
            Error::io(format!("cannot {doing} the archive {}", path.display()), e)
        };
        // The marker: the scope's run line, when the broker node started, then a `settled` line
        // per archived dead letter whose ack the broker processed (as in the replay journal).
        let marker_text = std::fs::read_to_string(&marker).unwrap_or_default();
        // The archive's own scope, or the one it had before scopes were the cluster's.
        let mine = std::iter::once(scope.clone())
            .chain(scope.legacy())
            .any(|s| marker_text.starts_with(&run_line(&s, "purge", 0)));
        let (file, held) = if mine && path.exists() {
            let mut held = Unfinished::default();
            for line in std::fs::read_to_string(path)
                .map_err(|e| io("read", &e))?
                .lines()
            {
                // A line cut short by a crash was never acked: skipped, written again.
                if let Ok(m) = read_record(line) {
                    held.add_copied(&digest(&m.properties, &m.body));
                    // A line may reach the file (a buffer flushed as the run failed) after the
                    // last `read` line of the marker: its position says it was read, so its
                    // record answers within that many too.
                    let position = export::line_json(line)
                        .ok()
                        .and_then(|j| j.get("position").and_then(serde_json::Value::as_u64));
                    held.read = held.read.max(position.unwrap_or(0));
                }
            }
            let mut then = Boot::default();
            for line in marker_text.lines().skip(1) {
                match Line::parse(line) {
                    Ok(Line::Settled { digest }) => held.settle(&digest),
                    Ok(Line::Read(n)) => held.read = held.read.max(n),
                    Ok(Line::Boot(b)) => then = b,
                    _ => {}
                }
            }
            // A node that restarted may have lost the acks it had processed.
            held.boots.push(then);
            held.revive_after_restart(boot);
            let whole = {
                let bytes = std::fs::read(path).map_err(|e| io("read", &e))?;
                let whole = bytes.iter().rposition(|&b| b == b'\n').map_or(0, |i| i + 1);
                // An end line written just before a crash took the marker's removal: the
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
            (file, held)
        } else {
            let file = create_new_file(path, "archive")?;
            let mut text = run_line(scope, "purge", 0);
            text.push_str(&boot_line(boot));
            std::fs::write(&marker, text).map_err(|e| io("mark (as unfinished)", &e))?;
            (file, Unfinished::default())
        };
        Ok((
            Archive {
                path: path.to_owned(),
                marker,
                writer: BufWriter::new(file),
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
        self.written += std::mem::take(&mut self.unsynced);
        Ok(())
    }

    /// Records in the marker that the broker processed these dead letters' acks: their
    /// archived records must not answer for an identical twin met later.
    fn settled(&self, digests: &[String]) -> Result<()> {
        if digests.is_empty() {
            return Ok(());
        }
        let text: String = digests.iter().map(|d| settled_line(d)).collect();
        self.note(&text)
    }

    /// Appends `text` to the marker, on disk.
    fn note(&self, text: &str) -> Result<()> {
        OpenOptions::new()
            .append(true)
            .open(&self.marker)
            .and_then(|mut f| {
                f.write_all(text.as_bytes())?;
                f.sync_data()
            })
            .map_err(|e| Error::io(format!("cannot write {}", self.marker.display()), &e))
    }

    /// The purge ended cleanly: the archive gets its end line, and its marker goes.
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
        match std::fs::remove_file(&self.marker) {
            Ok(()) => Ok(()),
            Err(e) if e.kind() == io::ErrorKind::NotFound => Ok(()),
            Err(e) => Err(Error::io(
                format!("cannot remove {}", self.marker.display()),
                &e,
            )),
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
