//! `queuey dead purge`: deleting dead letters, on purpose and only those meant.

use std::fs::File;
use std::io::{self, BufWriter, IsTerminal, Write};
use std::path::Path;

use serde::Serialize;

use crate::broker::peek::{Delivered, with_peek};
use crate::broker::session::Session;
use crate::commands::dead::{
    create_new_file, export_record, missing_dead_queue, next_matching, note_rescued, now_secs,
};
use crate::dead::decode;
use crate::dead::peek::PeekOptions;
use crate::endpoint::ConnectionSettings;
use crate::error::{Error, ExitCode, Result};
use crate::output::progress::Progress;
use crate::output::sanitize::sanitize;
use crate::output::{self, Format, Output, plural};
use crate::settings::PurgeSettings;

/// The summary of a purge.
#[derive(Clone, Debug, Default, Serialize)]
pub struct PurgeReport {
    pub queue: String,
    pub dry_run: bool,
    /// Without filters or an archive the whole queue is counted and purged at once
    /// (`queue.purge`), reading nothing.
    pub whole_queue: bool,
    /// Messages read; `null` for a whole-queue purge, which reads none.
    pub scanned: Option<u64>,
    /// Messages that match (a whole-queue purge: the queue's depth).
    pub matched: u64,
    pub removed: u64,
    pub archive: Option<String>,
    /// The confirmation prompt was answered no: nothing was removed (exit 9).
    pub aborted: bool,
}

pub async fn run(
    connection: &ConnectionSettings,
    s: &PurgeSettings,
    output: Output,
) -> Result<ExitCode> {
    let session = Session::new(connection.clone(), "dead purge")?;
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
            return print_report(&report, output);
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
    }

    if whole_queue {
        let channel = session.channel().await?;
        let removed = channel
            .queue_purge(
                dead.as_str().into(),
                lapin::options::QueuePurgeOptions::default(),
            )
            .await
            .map_err(|e| session.amqp_error(&e, &format!("cannot purge {dead:?}")))?;
        let _ = channel.close(200, "purged".into()).await;
        report.removed = u64::from(removed);
        report.matched = report.removed;
    } else {
        remove_matching(&session, s, &mut report, output).await?;
    }
    session.close().await;
    print_report(&report, output)
}

fn confirm(question: &str) -> Result<bool> {
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
    let rescued = with_peek(session, &dead, s.peek, async |p| {
        let progress = Progress::new(output, Some(p.target), "counting");
        while next_matching(p, &s.queue, &s.filter, now, &progress)
            .await?
            .is_some()
        {
            matched += 1;
        }
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
    output: Output,
) -> Result<()> {
    let dead = s.queue.dead_queue();
    let now = now_secs();
    let mut archive = match &s.archive {
        Some(path) => Some(Archive::create(path)?),
        None => None,
    };
    let batch = usize::from(s.peek.window);
    let options = PeekOptions {
        auto_rescue: false,
        ..s.peek
    };
    let rescued = with_peek(session, &dead, options, async |p| {
        let progress = Progress::new(output, Some(p.target), "purging");
        // Archived but not yet on disk: acked only after the archive is synced.
        let mut pending: Vec<u64> = Vec::new();
        while let Some(Delivered {
            position,
            tag,
            mut message,
            last_delivery,
        }) = p.next().await?
        {
            progress.inc(1);
            report.scanned = Some(report.scanned.unwrap_or(0) + 1);
            let dl = decode::decode(&message, &s.queue.name, &s.queue.options);
            if !s.filter.matches(&dl, &message.properties, now) {
                if last_delivery {
                    // Kept, and returning it would end it: replace it by a fresh copy.
                    p.rescue(tag, &mut message).await?;
                }
                continue;
            }
            report.matched += 1;
            match archive.as_mut() {
                None => {
                    p.ack(tag).await?;
                    report.removed += 1;
                }
                Some(a) => {
                    a.write(&export_record(
                        &dead,
                        session.vhost(),
                        position,
                        &message,
                        &dl,
                    ))?;
                    pending.push(tag);
                    if pending.len() >= batch {
                        a.sync()?;
                        for t in pending.drain(..) {
                            p.ack(t).await?;
                            report.removed += 1;
                        }
                    }
                }
            }
        }
        if let Some(a) = archive.as_mut() {
            a.sync()?;
            for t in pending.drain(..) {
                p.ack(t).await?;
                report.removed += 1;
            }
        }
        progress.finish();
        Ok(p.rescuer.count)
    })
    .await?;
    note_rescued(output, &dead, rescued);
    Ok(())
}

/// An archive file: created new (never overwritten), each batch flushed and fsynced before the
/// messages in it are removed from the broker.
struct Archive {
    path: std::path::PathBuf,
    writer: BufWriter<File>,
}

impl Archive {
    fn create(path: &Path) -> Result<Archive> {
        let file = create_new_file(path, "archive")?;
        Ok(Archive {
            path: path.to_owned(),
            writer: BufWriter::new(file),
        })
    }

    fn write(&mut self, record: &serde_json::Value) -> Result<()> {
        serde_json::to_writer(&mut self.writer, record).map_err(|e| {
            Error::io(
                format!("cannot write the archive {}", self.path.display()),
                &io::Error::other(e),
            )
        })?;
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
            })
    }
}

fn print_report(r: &PurgeReport, output: Output) -> Result<ExitCode> {
    if output.format == Format::Json {
        output::print_json(r)?;
        return Ok(ExitCode::Ok);
    }
    let text = if r.dry_run {
        format!(
            "dry run: {} of {} would be removed{}; nothing removed",
            plural(r.matched, "dead letter"),
            sanitize(&r.queue),
            match r.scanned {
                Some(n) => format!(" ({n} scanned)"),
                None => " (the whole queue)".to_owned(),
            }
        )
    } else {
        format!(
            "removed {} from {}{}{}",
            plural(r.removed, "dead letter"),
            sanitize(&r.queue),
            match r.scanned {
                Some(n) => format!(" ({n} scanned, the rest stay in order)"),
                None => String::new(),
            },
            r.archive
                .as_ref()
                .map_or(String::new(), |a| format!("; archived to {a}"))
        )
    };
    output::print(text)?;
    Ok(ExitCode::Ok)
}
