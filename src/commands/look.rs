//! `queuey dead ls | show | export`: reading dead letters without removing any. Where it sits:
//! the looks' entry command; what they read, hold and return is told in `broker::peek`'s doc.

use std::fs::File;
use std::io::{self, BufWriter, IsTerminal, Write};
use std::path::Path;

use serde::Serialize;

use crate::broker::peek::{Delivered, Peek};
use crate::dead::decode::{self};
use crate::dead::filter::{Filter, GroupKey, Grouping};
use crate::dead::peek::{HeldElsewhere, PeekOptions};
use crate::dead::scan_summary::ScanSummary;
use crate::endpoint::ConnectionSettings;
use crate::error::{Error, ExitCode, Kind, Result};
use crate::live::unreadable::with_dead_peek;
use crate::output::dead_letters::{LsReport, LsRow, print_groups, print_ls};
use crate::output::progress::Progress;
use crate::output::sanitize::sanitize;
use crate::output::show::{ShowLayout, render_show};
use crate::output::{self, Format, Output, plural, stdout_error};
use crate::queue::QueueSettings;
use crate::settings::Which;

use crate::clock::now_secs;
use crate::dead::export::{EndLine, export_record};
use crate::live::scan::{explain_missing, next_matching};
use crate::output::file::create_new_file;
use crate::output::notes::{note_crash_cost, note_held_elsewhere, note_interrupted, note_rescued};
use crate::shell::{dead_ls_command, queuey_command};
use crate::signals::{StopFlag, stop_flag};

/// 3 (partial) when `partial`, else 0.
fn partial_if(partial: bool) -> ExitCode {
    if partial {
        ExitCode::Partial
    } else {
        ExitCode::Ok
    }
}

/// How a look over q.dead ended (`dead ls`, `dead export`): what it read of the messages it was
/// to read, the dead letters it replaced by copies on their last delivery, whether a signal
/// stopped it, and whether others held messages it could not read.
/// `dead browse`'s snapshot ends the same way.
#[derive(Clone, Copy)]
pub(crate) struct Looked {
    pub(crate) scanned: u64,
    pub(crate) target: u64,
    pub(crate) rescued: u64,
    pub(crate) interrupted: bool,
    pub(crate) held_elsewhere: Option<HeldElsewhere>,
}

impl Looked {
    pub(crate) fn of(p: &Peek<'_>) -> Looked {
        Looked {
            scanned: p.received(),
            target: p.target,
            rescued: p.rescuer.count,
            interrupted: p.interrupted(),
            held_elsewhere: p.held_elsewhere,
        }
    }

    /// The look's account of `dead`, `matched` of what it read passing the filters.
    fn summary(&self, dead: String, matched: u64) -> ScanSummary {
        ScanSummary::new(
            dead,
            self.target,
            self.scanned,
            matched,
            self.interrupted,
            self.held_elsewhere,
        )
    }

    /// Says what the look replaced, could not read and was stopped by; the exit code that makes.
    fn note(&self, output: Output, dead: &str, stop: &StopFlag) -> ExitCode {
        note_rescued(output, dead, self.rescued);
        note_held_elsewhere(output, dead, self.held_elsewhere);
        note_interrupted(
            output,
            dead,
            stop,
            self.interrupted,
            self.scanned,
            self.target,
        )
        .merge(partial_if(self.held_elsewhere.is_some()))
    }
}

/// Before a look reads anything: a stop signal ends it cleanly, and what a crash would cost on
/// this queue is said.
fn begin_look(p: &mut Peek<'_>, stop: &StopFlag, output: Output) {
    p.stop_on(stop);
    if p.kind.closes_count {
        note_crash_cost(
            output,
            p.queue_name(),
            p.kind.delivery_limit.unwrap_or(0),
            p.kind.returns_count,
            p.exposure(),
        );
    }
}

pub async fn ls(
    connection: &ConnectionSettings,
    queue: &QueueSettings,
    filter: &Filter,
    limit: Option<u64>,
    group_by: &[GroupKey],
    peek: PeekOptions,
    output: Output,
) -> Result<ExitCode> {
    let session = super::session(connection, "dead ls", output)?;
    let stop = stop_flag();
    let dead = queue.dead_queue();
    let now = now_secs();
    let grouping = !group_by.is_empty();
    let mut rows = Vec::new();
    let mut groups = Grouping::new(group_by.to_vec());
    let mut matched = 0u64;
    let peeked = with_dead_peek(&session, &dead, peek, async |p| {
        begin_look(p, &stop, output);
        let progress = Progress::new(output, Some(p.target), "scanning");
        while let Some((
            Delivered {
                position, message, ..
            },
            dl,
        )) = next_matching(p, queue, filter, now, &progress).await?
        {
            matched += 1;
            if grouping {
                groups.add(&dl, &message.properties);
                continue;
            }
            let age = dl.age(now);
            rows.push(LsRow {
                position,
                age_secs: age.map(|(secs, _)| secs),
                age_from: age.map(|(_, from)| from),
                body_preview: decode::job_preview(&message.body, &dl, 60),
                dead_letter: dl,
            });
            if limit.is_some_and(|l| matched >= l) {
                break;
            }
        }
        progress.finish();
        Ok((Looked::of(p), p.kind.clone()))
    })
    .await;
    let (looked, kind) = match peeked {
        Ok(v) => v,
        Err(e) => return Err(explain_missing(&session, queue, e).await),
    };
    session.close().await;
    let code = looked.note(output, &dead, &stop);

    let scan = looked.summary(dead, matched);
    if grouping {
        print_groups(scan, &groups, now, output)?;
        return Ok(code);
    }
    print_ls(
        &LsReport {
            scan,
            queue_type: kind.queue_type,
            messages: rows,
        },
        queue,
        output,
    )?;
    Ok(code)
}

pub async fn show(
    connection: &ConnectionSettings,
    queue: &QueueSettings,
    which: &Which,
    peek: PeekOptions,
    full: bool,
    output: Output,
) -> Result<ExitCode> {
    let session = super::session(connection, "dead show", output)?;
    let stop = stop_flag();
    let dead = queue.dead_queue();
    let found = with_dead_peek(&session, &dead, peek, async |p| {
        begin_look(p, &stop, output);
        if let Which::Position(n) = which
            && *n > p.target
        {
            return Ok((None, p.target, 0));
        }
        while let Some(Delivered {
            position, message, ..
        }) = p.next().await?
        {
            let hit = match which {
                Which::Position(n) => position == *n,
                Which::MessageId(id) => message.properties.message_id.as_deref() == Some(id),
            };
            if hit {
                return Ok((Some((position, message)), p.target, position));
            }
        }
        Ok((None, p.target, p.received()))
    })
    .await;
    let found = match found {
        Ok(v) => v,
        Err(e) => return Err(explain_missing(&session, queue, e).await),
    };
    session.close().await;
    if found.0.is_none() && stop.is_set() {
        return Ok(note_interrupted(
            output, &dead, &stop, true, found.2, found.1,
        ));
    }
    let (Some((position, message)), depth, _) = found else {
        let what = match which {
            Which::Position(n) => format!(
                "no message at position {n} in {dead:?} ({})",
                plural(found.1, "message")
            ),
            Which::MessageId(id) => format!("no message with message id {id:?} in {dead:?}"),
        };
        return Err(Error::new(Kind::MessageNotFound, what)
            .with_hint(format!("`{}` lists what is there", dead_ls_command(queue))));
    };
    let dl = decode::decode(&message, &queue.name, &queue.options);
    match output.format {
        Format::Json => output::print_json(&export_record(
            &dead,
            session.vhost(),
            position,
            &message,
            &dl,
        ))?,
        Format::Table | Format::Prometheus => {
            // On a terminal a long body is cut to a screenful; a pipe and --full get it whole.
            let position_text = position.to_string();
            let layout = ShowLayout {
                fit: output::fit(output.wide),
                screen: (!full && io::stdout().is_terminal()).then(output::screen),
                full_command: queuey_command(
                    &["dead", "show", &queue.name, &position_text, "--full"],
                    queue,
                ),
            };
            let page = render_show(&dead, position, depth, &message, &dl, now_secs(), &layout);
            output::print(page.text)?;
            if let Some(note) = page.note {
                output.note(&note);
            }
        }
    }
    Ok(ExitCode::Ok)
}

pub async fn export(
    connection: &ConnectionSettings,
    queue: &QueueSettings,
    filter: &Filter,
    limit: Option<u64>,
    output_file: Option<&Path>,
    peek: PeekOptions,
    output: Output,
) -> Result<ExitCode> {
    let mut sink: Box<dyn Write> = match output_file {
        Some(path) => {
            let file = create_new_file(path, "export file")?;
            Box::new(BufWriter::new(file))
        }
        None => Box::new(BufWriter::new(io::stdout().lock())),
    };
    let write_error = |e: io::Error| match output_file {
        Some(path) => Error::io(
            format!("cannot write the export file {}", path.display()),
            &e,
        ),
        None => stdout_error(e),
    };
    let session = super::session(connection, "dead export", output)?;
    let stop = stop_flag();
    let dead = queue.dead_queue();
    let vhost = session.vhost().to_owned();
    let now = now_secs();
    let mut exported = 0u64;
    let peeked = with_dead_peek(&session, &dead, peek, async |p| {
        begin_look(p, &stop, output);
        let progress = Progress::new(output, Some(p.target), "exporting");
        while let Some((
            Delivered {
                position, message, ..
            },
            dl,
        )) = next_matching(p, queue, filter, now, &progress).await?
        {
            let record = export_record(&dead, &vhost, position, &message, &dl);
            // `io::Error::from` keeps the kind of an I/O failure (a closed pipe stays
            // `BrokenPipe`, which ends the command quietly).
            crate::output::json::to_writer(&mut sink, &record)
                .map_err(|e| write_error(io::Error::from(e)))?;
            sink.write_all(b"\n").map_err(write_error)?;
            exported += 1;
            if limit.is_some_and(|l| exported >= l) {
                break;
            }
        }
        progress.finish();
        Ok(Looked::of(p))
    })
    .await;
    let looked = match peeked {
        Ok(v) => v,
        Err(e) => {
            let e = explain_missing(&session, queue, e).await;
            if output_file.is_some() {
                // The file says it stopped early (best effort: the error is what matters).
                let mut end = EndLine::new("export", &vhost, &dead);
                end.records = exported;
                end.finished = false;
                end.why = Some(format!("stopped by an error: {}", e.message));
                let _ = write_end(&mut sink, &end).and_then(|()| sink.flush());
            }
            return Err(e);
        }
    };
    if output_file.is_some() {
        // The last line says whether the export went to its end: a file without it was cut
        // short (a kill, a crash).
        let mut end = EndLine::new("export", &vhost, &dead);
        end.records = exported;
        end.scanned = Some(looked.scanned);
        if looked.interrupted {
            end.finished = false;
            end.why = Some(format!(
                "interrupted (a signal) after {} of the {} dead letters the queue held",
                looked.scanned, looked.target
            ));
        }
        write_end(&mut sink, &end).map_err(write_error)?;
    }
    sink.flush().map_err(write_error)?;
    drop(sink);
    if let Some(path) = output_file {
        File::open(path)
            .and_then(|f| f.sync_all())
            .map_err(|e| Error::io(format!("cannot sync {}", path.display()), &e))?;
    }
    session.close().await;
    let code = looked.note(output, &dead, &stop);
    let report = ExportReport {
        scan: looked.summary(dead, exported),
        exported,
        output_file: output_file.map(|p| p.display().to_string()),
    };
    match (output.format, &report.output_file) {
        // Without --output-file the records are standard output's JSON; the summary stays a
        // note on stderr so that the stream remains one record per line.
        (Format::Json, Some(_)) => output::print_json(&report)?,
        _ => output.note(&format!(
            "exported {exported} of {} scanned in {}{}{}",
            plural(looked.scanned, "dead letter"),
            sanitize(&report.scan.queue),
            output_file.map_or(String::new(), |p| format!(
                " to {}",
                sanitize(&p.display().to_string())
            )),
            if looked.interrupted {
                format!(
                    "; INCOMPLETE: the export stopped after {} of the {} dead letters the \
                     queue held",
                    looked.scanned, looked.target
                )
            } else {
                String::new()
            }
        )),
    }
    Ok(code)
}

/// Writes the end line of an export file.
fn write_end(sink: &mut dyn Write, end: &EndLine) -> io::Result<()> {
    crate::output::json::to_writer(&mut *sink, end).map_err(io::Error::from)?;
    sink.write_all(b"\n")
}

/// The summary of `dead export` (`-o json` with `--output-file`).
#[derive(Debug, Serialize)]
pub struct ExportReport {
    /// What the export read (its `matched` are the dead letters exported; a signal leaves the
    /// file incomplete and `complete` false, as does --limit).
    #[serde(flatten)]
    pub scan: ScanSummary,
    pub exported: u64,
    pub output_file: Option<String>,
}
