//! `queuey dead ls | show | export`: reading dead letters without removing any.

use std::fs::File;
use std::io::{self, BufWriter, Write};
use std::path::Path;

use serde::Serialize;

use crate::broker::peek::{Delivered, Peek, with_peek};
use crate::broker::session::Session;
use crate::dead::decode::{self, DeadLetter};
use crate::dead::filter::{Filter, GroupKey, Grouping};
use crate::dead::peek::PeekOptions;
use crate::endpoint::ConnectionSettings;
use crate::error::{Error, ExitCode, Kind, Result};
use crate::output::dead::{LsReport, LsRow, print_groups, print_ls, render_show};
use crate::output::progress::Progress;
use crate::output::sanitize::sanitize;
use crate::output::{self, Format, Output, plural, stdout_error};
use crate::queue::QueueSettings;
use crate::settings::Which;

pub use crate::dead::export::{EXPORT_FORMAT, export_record};
pub use crate::shell::{dead_ls_command, queuey_command};

/// Creates `path` for writing, refusing to overwrite an existing file (an export or archive
/// may be the only copy of what was removed). `what` names it in errors.
pub fn create_new_file(path: &Path, what: &str) -> Result<File> {
    File::options()
        .write(true)
        .create_new(true)
        .open(path)
        .map_err(|e| {
            let err = Error::io(format!("cannot create the {what} {}", path.display()), &e);
            if e.kind() == io::ErrorKind::AlreadyExists {
                err.with_hint(format!(
                    "queuey never overwrites an {what}; remove it or choose another name"
                ))
            } else {
                err
            }
        })
}

/// The next held dead letter that passes `filter`, decoded; the others are skipped (and stay
/// held, to go back in place).
pub async fn next_matching(
    p: &mut Peek<'_>,
    queue: &QueueSettings,
    filter: &Filter,
    now: u64,
    progress: &Progress,
) -> Result<Option<(Delivered, DeadLetter)>> {
    while let Some(d) = p.next().await? {
        progress.inc(1);
        let dl = decode::decode(&d.message, &queue.name, &queue.options);
        if filter.matches(&dl, &d.message.properties, now) {
            return Ok(Some((d, dl)));
        }
    }
    Ok(None)
}

/// Queue names read at most to suggest near ones (20 pages of the management API's listing).
const NAMES_TO_SUGGEST_FROM: usize = 10_000;

/// `err` from reading q.dead, explained when it is q.dead that does not exist: see
/// [`missing_dead_queue`]. Other errors are returned as they are.
pub async fn explain_missing(session: &Session, queue: &QueueSettings, err: Error) -> Error {
    if err.kind != Kind::QueueNotFound {
        return err;
    }
    // The peek asked the management API, which answers 404 for a missing vhost too: AMQP
    // tells the two apart (a missing vhost refuses the connection, exit 5).
    match session.passive_declare(&queue.dead_queue()).await {
        Ok(None) => missing_dead_queue(session, queue).await,
        Ok(Some(_)) => err,
        Err(e) => e,
    }
}

/// The answer when `q.dead` does not exist: the queue, and where the operator most likely meant
/// to go, with the command that goes there: the logical queue when `q.dead` itself was named,
/// `queuey declare q` when `q` exists without its dead-letter queue, the near names that exist
/// (management API), or how to list the queues of the vhost.
pub async fn missing_dead_queue(session: &Session, queue: &QueueSettings) -> Error {
    use crate::suggest::{self, MissingDeadQueue};
    let dead = queue.dead_queue();
    let vhost = session.vhost();
    let name = &queue.name;
    let err = Error::new(
        Kind::QueueNotFound,
        format!("queue {dead:?} does not exist in vhost {vhost:?}"),
    );
    let listing = session
        .api()
        .queue_names(vhost, NAMES_TO_SUGGEST_FROM)
        .await;
    let (existing, listed) = match listing {
        Ok(names) => (names, true),
        Err(e) if e.kind == Kind::AccessRefused => return e,
        // Without the management API, AMQP can still tell whether `q` itself exists.
        Err(_) => match session.passive_declare(name).await {
            Ok(Some(_)) => (vec![name.clone()], false),
            Ok(None) => (Vec::new(), false),
            Err(e) => return e,
        },
    };
    let advice = suggest::missing_dead_queue(
        name,
        &queue.options.dead_suffix,
        &queue.options.deferred_suffix,
        &existing,
    );
    let hint = match advice {
        MissingDeadQueue::DeadQueueGiven { logical } => format!(
            "{name:?} is itself a dead-letter queue, and dead-letter commands take its logical \
             queue: `{}`",
            queuey_command(&["dead", "ls", &logical], queue)
        ),
        MissingDeadQueue::HoldQueueGiven { logical } => format!(
            "{name:?} is a hold queue, and dead-letter commands take its logical queue: `{}`",
            queuey_command(&["dead", "ls", &logical], queue)
        ),
        MissingDeadQueue::NotDeclared => format!(
            "the work queue {name:?} exists, but not its dead-letter queue: `{}` creates it \
             (and checks {name:?} against its settings)",
            queuey_command(&["declare", name], queue)
        ),
        MissingDeadQueue::Near(near) => {
            let names: Vec<String> = near.iter().map(|n| format!("{n:?}")).collect();
            format!(
                "did you mean {}? `{}` lists its dead letters",
                names.join(" or "),
                queuey_command(&["dead", "ls", &near[0]], queue)
            )
        }
        MissingDeadQueue::Nothing if listed => format!(
            "no queue in vhost {vhost:?} has a name near {name:?}: check the name, and the \
             vhost in --url; `{}` lists the queues there",
            crate::shell::rabbitmqctl(vhost, &["list_queues", "name", "messages"])
                .unwrap_or_else(|| "rabbitmqctl list_queues -p <vhost> name messages".to_owned())
        ),
        MissingDeadQueue::Nothing => format!(
            "check the name, and the vhost in --url; `{}` lists the queues there (with the \
             management API on, queuey suggests the near names itself)",
            crate::shell::rabbitmqctl(vhost, &["list_queues", "name", "messages"])
                .unwrap_or_else(|| "rabbitmqctl list_queues -p <vhost> name messages".to_owned())
        ),
    };
    // Not through `sanitize`, which doubles backslashes: names here are `{:?}`-escaped, and
    // the commands are quoted by `shell`, which spells every invisible character visibly.
    err.with_hint(hint)
}

pub use crate::output::time::now_secs;

pub fn note_rescued(output: Output, queue: &str, rescued: u64) {
    if rescued > 0 {
        output.warn(&format!(
            "{} of {queue:?} {} on {} last delivery: queuey republished a confirmed copy of {} \
             instead of returning it (changing {} place in the queue)",
            plural(rescued, "message"),
            if rescued == 1 { "was" } else { "were" },
            if rescued == 1 { "its" } else { "their" },
            if rescued == 1 { "it" } else { "each" },
            if rescued == 1 { "its" } else { "their" },
        ));
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
    let session = Session::new(connection.clone(), "dead ls")?;
    let dead = queue.dead_queue();
    let now = now_secs();
    let grouping = !group_by.is_empty();
    let mut rows = Vec::new();
    let mut groups = Grouping::new(group_by.to_vec());
    let mut matched = 0u64;
    let peeked = with_peek(&session, &dead, peek, async |p| {
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
        Ok((p.received(), p.target, p.rescuer.count, p.kind.clone()))
    })
    .await;
    let (scanned, target, rescued, kind) = match peeked {
        Ok(v) => v,
        Err(e) => return Err(explain_missing(&session, queue, e).await),
    };
    session.close().await;
    note_rescued(output, &dead, rescued);

    if grouping {
        print_groups(&dead, &groups, scanned, matched, now, output)?;
        return Ok(ExitCode::Ok);
    }
    print_ls(
        &LsReport {
            queue: dead,
            queue_type: kind.queue_type,
            depth_at_start: target,
            scanned,
            matched,
            complete: scanned >= target,
            messages: rows,
        },
        queue,
        output,
    )?;
    Ok(ExitCode::Ok)
}

pub async fn show(
    connection: &ConnectionSettings,
    queue: &QueueSettings,
    which: &Which,
    peek: PeekOptions,
    output: Output,
) -> Result<ExitCode> {
    let session = Session::new(connection.clone(), "dead show")?;
    let dead = queue.dead_queue();
    let found = with_peek(&session, &dead, peek, async |p| {
        if let Which::Position(n) = which
            && *n > p.target
        {
            return Ok((None, p.target));
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
                return Ok((Some((position, message)), p.target));
            }
        }
        Ok((None, p.target))
    })
    .await;
    let found = match found {
        Ok(v) => v,
        Err(e) => return Err(explain_missing(&session, queue, e).await),
    };
    session.close().await;
    let (Some((position, message)), depth) = found else {
        let what = match which {
            Which::Position(n) => format!(
                "no message at position {n} in {dead:?} ({})",
                plural(found.1, "message")
            ),
            Which::MessageId(id) => format!("no message with message id {id:?} in {dead:?}"),
        };
        return Err(Error::new(Kind::QueueNotFound, what)
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
        Format::Table => output::print(render_show(
            &dead,
            position,
            depth,
            &message,
            &dl,
            now_secs(),
        ))?,
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
    let session = Session::new(connection.clone(), "dead export")?;
    let dead = queue.dead_queue();
    let vhost = session.vhost().to_owned();
    let now = now_secs();
    let mut exported = 0u64;
    let peeked = with_peek(&session, &dead, peek, async |p| {
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
            serde_json::to_writer(&mut sink, &record)
                .map_err(|e| write_error(io::Error::from(e)))?;
            sink.write_all(b"\n").map_err(write_error)?;
            exported += 1;
            if limit.is_some_and(|l| exported >= l) {
                break;
            }
        }
        progress.finish();
        Ok((p.received(), p.target, p.rescuer.count))
    })
    .await;
    let (scanned, target, rescued) = match peeked {
        Ok(v) => v,
        Err(e) => return Err(explain_missing(&session, queue, e).await),
    };
    sink.flush().map_err(write_error)?;
    drop(sink);
    if let Some(path) = output_file {
        File::open(path)
            .and_then(|f| f.sync_all())
            .map_err(|e| Error::io(format!("cannot sync {}", path.display()), &e))?;
    }
    session.close().await;
    note_rescued(output, &dead, rescued);
    let report = ExportReport {
        queue: dead,
        depth_at_start: target,
        scanned,
        exported,
        complete: scanned >= target,
        output_file: output_file.map(|p| p.display().to_string()),
    };
    match (output.format, &report.output_file) {
        // Without --output-file the records are standard output's JSON; the summary stays a
        // note on stderr so that the stream remains one record per line.
        (Format::Json, Some(_)) => output::print_json(&report)?,
        _ => output.note(&format!(
            "exported {exported} of {} scanned in {}{}",
            plural(scanned, "dead letter"),
            sanitize(&report.queue),
            output_file.map_or(String::new(), |p| format!(" to {}", p.display()))
        )),
    }
    Ok(ExitCode::Ok)
}

/// The summary of `dead export` (`-o json` with `--output-file`).
#[derive(Debug, Serialize)]
pub struct ExportReport {
    pub queue: String,
    pub depth_at_start: u64,
    pub scanned: u64,
    pub exported: u64,
    /// Whether every message q.dead held at the start was read (false after --limit).
    pub complete: bool,
    pub output_file: Option<String>,
}
