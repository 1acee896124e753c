//! `queuey dead ls | show | export`: reading dead letters without removing any.

use std::fs::File;
use std::io::{self, BufWriter, Write};
use std::path::Path;

use base64::Engine as _;
use base64::engine::general_purpose::STANDARD as B64;
use serde::Serialize;
use serde_json::{Value as Json, json};

use crate::broker::peek::{Delivered, Peek, with_peek};
use crate::broker::session::Session;
use crate::dead::decode::{self, AgeFrom, DeadLetter, Message};
use crate::dead::filter::{Filter, GroupKey, Grouping};
use crate::dead::peek::PeekOptions;
use crate::dead::value::Value;
use crate::duration::format_age;
use crate::endpoint::ConnectionSettings;
use crate::error::{Error, ExitCode, Kind, Result};
use crate::output::progress::Progress;
use crate::output::sanitize::{sanitize, sanitize_multiline};
use crate::output::{self, Format, Output, plural, stdout_error, utc_time};
use crate::queue::QueueSettings;
use crate::settings::Which;

/// The format tag of every export line (and of `dead show -o json`).
pub const EXPORT_FORMAT: &str = "queuey.dead-letter.v1";

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

/// `queuey dead ls q`, ready to paste: the suffixes given when they are not the defaults.
pub fn dead_ls_command(queue: &QueueSettings) -> String {
    queuey_command(&["dead", "ls", &queue.name], queue)
}

/// `queuey WORDS...`, ready to paste, with `--dead-suffix` and `--deferred-suffix` when the
/// queue's are not the defaults (a flag wins over the topology file, so they always apply).
pub fn queuey_command(words: &[&str], queue: &QueueSettings) -> String {
    let mut all = vec!["queuey"];
    all.extend_from_slice(words);
    if queue.options.dead_suffix != crate::topology::DEFAULT_DEAD_SUFFIX {
        all.extend(["--dead-suffix", &queue.options.dead_suffix]);
    }
    if queue.options.deferred_suffix != crate::topology::DEFAULT_DEFERRED_SUFFIX {
        all.extend(["--deferred-suffix", &queue.options.deferred_suffix]);
    }
    crate::shell::command_line(&all)
}

pub fn now_secs() -> u64 {
    std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .map_or(0, |d| d.as_secs())
}

/// One row of `dead ls`.
#[derive(Debug, Serialize)]
pub struct LsRow {
    pub position: u64,
    #[serde(flatten)]
    pub dead_letter: DeadLetter,
    /// Seconds since it died, or since its job was enqueued (`age_from`).
    pub age_secs: Option<u64>,
    pub age_from: Option<AgeFrom>,
    /// The start of the body; of the job's payload when the body is an envelope.
    pub body_preview: String,
}

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
    match output.format {
        Format::Json => output::print_json(&json!({
            "queue": dead,
            "queue_type": kind.queue_type,
            "depth_at_start": target,
            "scanned": scanned,
            "matched": matched,
            "complete": scanned >= target,
            "messages": rows,
        }))?,
        Format::Table => {
            // The job type and x-death columns only when some row has one: a queuey
            // application's dead letters have no x-death, a broker's often no envelope.
            let with_jobs = rows.iter().any(|r| r.dead_letter.job_type.is_some());
            let with_deaths = rows.iter().any(|r| !r.dead_letter.deaths.is_empty());
            let mut header = vec!["#", "message id"];
            if with_jobs {
                header.push("job type");
            }
            header.extend(["original queue", "attempts", "cause"]);
            if with_deaths {
                header.push("deaths");
            }
            header.extend([
                "age",
                "size",
                if with_jobs { "payload / body" } else { "body" },
            ]);
            let mut table = output::table(&header);
            for r in &rows {
                let dl = &r.dead_letter;
                let mut cause = dl.cause.as_str().to_owned();
                if !dl.problems.is_empty() {
                    cause.push_str(&format!(" (!{})", dl.problems.len()));
                }
                let mut row = vec![
                    r.position.to_string(),
                    sanitize(dl.message_id.as_deref().unwrap_or("-")),
                ];
                if with_jobs {
                    row.push(sanitize(dl.job_type.as_deref().unwrap_or("-")));
                }
                row.extend([sanitize(&dl.original_queue), attempts_text(dl), cause]);
                if with_deaths {
                    let deaths: Vec<String> = dl
                        .deaths
                        .iter()
                        .map(|d| {
                            format!(
                                "{} @ {} x{}",
                                sanitize(d.reason.as_deref().unwrap_or("?")),
                                sanitize(d.queue.as_deref().unwrap_or("?")),
                                d.count.map_or("?".to_owned(), |c| c.to_string())
                            )
                        })
                        .collect();
                    row.push(if deaths.is_empty() {
                        "-".to_owned()
                    } else {
                        deaths.join("\n")
                    });
                }
                row.extend([
                    match (r.age_secs, r.age_from) {
                        (Some(secs), Some(AgeFrom::Enqueued)) => format!("{}*", format_age(secs)),
                        (Some(secs), _) => format_age(secs),
                        (None, _) => "-".to_owned(),
                    },
                    dl.size.to_string(),
                    sanitize(&r.body_preview),
                ]);
                table.add_row(row);
            }
            output::print(table)?;
            let shown = rows.len();
            let mut footer = format!(
                "{shown} shown of {} in {} (scanned {scanned} of {target})",
                if scanned >= target {
                    matched.to_string()
                } else {
                    format!("{matched}+")
                },
                sanitize(&dead)
            );
            if scanned < target {
                footer
                    .push_str("; --limit N shows more, --limit 0 all, --group-by counts them all");
            }
            if rows.iter().any(|r| !r.dead_letter.problems.is_empty()) {
                footer.push_str(&format!(
                    "; (!n): n header problems, see `{} <#>`",
                    queuey_command(&["dead", "show", &queue.name], queue)
                ));
            }
            if rows.iter().any(|r| r.age_from == Some(AgeFrom::Enqueued)) {
                footer.push_str(
                    "; age*: since the job was enqueued (an application's dead letter carries no \
                     death time)",
                );
            }
            if rows.iter().any(|r| {
                let dl = &r.dead_letter;
                dl.reason.as_deref().is_some_and(|t| t != dl.cause.as_str())
            }) {
                footer.push_str(&format!(
                    "; `{} <#>` gives the whole reason",
                    queuey_command(&["dead", "show", &queue.name], queue)
                ));
            }
            output.note(&footer);
        }
    }
    Ok(ExitCode::Ok)
}

fn print_groups(
    dead: &str,
    groups: &Grouping,
    scanned: u64,
    matched: u64,
    now: u64,
    output: Output,
) -> Result<()> {
    let labels: Vec<String> = groups.keys.iter().map(GroupKey::label).collect();
    match output.format {
        Format::Json => {
            let list: Vec<Json> = groups
                .sorted()
                .into_iter()
                .map(|(key, stats)| {
                    let key: serde_json::Map<String, Json> = labels
                        .iter()
                        .zip(key)
                        .map(|(l, v)| (l.clone(), v.clone().map_or(Json::Null, Json::from)))
                        .collect();
                    json!({
                        "key": key,
                        "count": stats.count,
                        "bytes": stats.bytes,
                        "oldest": stats.oldest,
                        "newest": stats.newest,
                        "oldest_age_secs": stats.oldest.map(|t| now.saturating_sub(t)),
                        "newest_age_secs": stats.newest.map(|t| now.saturating_sub(t)),
                    })
                })
                .collect();
            output::print_json(&json!({
                "queue": dead,
                "scanned": scanned,
                "matched": matched,
                "group_by": labels,
                "groups": list,
            }))
        }
        Format::Table => {
            let mut header: Vec<&str> = labels.iter().map(String::as_str).collect();
            header.extend(["count", "bytes", "oldest", "newest"]);
            let mut table = output::table(&header);
            for (key, stats) in groups.sorted() {
                let mut row: Vec<String> = key
                    .iter()
                    .map(|v| v.as_deref().map_or("(none)".to_owned(), sanitize))
                    .collect();
                row.push(stats.count.to_string());
                row.push(stats.bytes.to_string());
                row.push(
                    stats
                        .oldest
                        .map_or("-".into(), |t| format_age(now.saturating_sub(t))),
                );
                row.push(
                    stats
                        .newest
                        .map_or("-".into(), |t| format_age(now.saturating_sub(t))),
                );
                table.add_row(row);
            }
            output::print(table)?;
            output.note(&format!(
                "{matched} matching of {scanned} scanned in {}",
                sanitize(dead)
            ));
            Ok(())
        }
    }
}

/// Attempts as `M/N` when the reason says how many were allowed, else `M`, else `-`.
pub fn attempts_text(dl: &DeadLetter) -> String {
    match (dl.attempts, dl.max_attempts) {
        (Some(a), Some(max)) => format!("{a}/{max}"),
        (Some(a), None) => a.to_string(),
        (None, _) => "-".to_owned(),
    }
}

/// The lossless export record of one message.
pub fn export_record(
    dead: &str,
    vhost: &str,
    position: u64,
    message: &Message,
    dl: &DeadLetter,
) -> Json {
    json!({
        "format": EXPORT_FORMAT,
        "vhost": vhost,
        "queue": dead,
        "position": position,
        "exchange": message.exchange,
        "routing_key": message.routing_key,
        "redelivered": message.redelivered,
        "properties": message.properties.to_json(),
        "body_base64": B64.encode(&message.body),
        "dead_letter": dl,
    })
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

/// The human rendering of one dead letter, every outside string escaped.
pub fn render_show(
    dead: &str,
    position: u64,
    depth: u64,
    m: &Message,
    dl: &DeadLetter,
    now: u64,
) -> String {
    let mut out = String::new();
    let mut line = |s: String| {
        out.push_str(&s);
        out.push('\n');
    };
    line(format!(
        "Message {position} of {depth} in {}",
        sanitize(dead)
    ));
    line(String::new());
    line("Dead letter".into());
    let from = |s: Option<decode::Source>| match s {
        Some(decode::Source::Header) => " (header)",
        Some(decode::Source::Envelope) => " (envelope)",
        Some(decode::Source::XDeath) => " (x-death)",
        Some(decode::Source::Default) => " (default: the logical queue)",
        None => "",
    };
    line(format!("  cause            {}", dl.cause.as_str()));
    line(format!(
        "  reason           {}{}",
        sanitize(dl.reason.as_deref().unwrap_or("unknown")),
        from(dl.reason_from)
    ));
    line(format!(
        "  original queue   {}{}",
        sanitize(&dl.original_queue),
        from(Some(dl.original_queue_from))
    ));
    line(format!(
        "  attempts         {}{}",
        match dl.attempts {
            Some(_) => attempts_text(dl),
            None => "unknown".to_owned(),
        },
        from(dl.attempts_from)
    ));
    if let Some(d) = dl.deferrals.filter(|d| *d > 0) {
        line(format!("  deferrals        {d}"));
    }
    line(format!(
        "  died             {}",
        dl.died_at.map_or(
            "unknown (no x-death, no timestamp property)".into(),
            |t| format!(
                "{} ({} ago)",
                utc_time(t),
                format_age(now.saturating_sub(t))
            )
        )
    ));
    if let Some(c) = dl.delivery_count {
        line(format!(
            "  delivery count   {c} (x-delivery-count of the quorum queue)"
        ));
    }
    for p in &dl.problems {
        line(format!("  problem          {}", sanitize(p)));
    }
    match &dl.envelope {
        Some(e) => {
            line(String::new());
            line("Job (the queuey envelope in the body)".into());
            line(format!("  job type         {}", sanitize(&e.job_type)));
            line(format!("  job id           {}", sanitize(&e.job_id)));
            line(format!("  queue            {}", sanitize(&e.queue)));
            line(format!(
                "  attempt          {} (a replay sets it to 1; --keep-attempts keeps it)",
                e.attempt
            ));
            line(format!("  deferrals        {}", e.deferrals));
            line(format!("  priority         {}", e.priority));
            let secs = e.enqueued_at_ms / 1000;
            line(format!(
                "  enqueued         {} ({} ago)",
                utc_time(secs),
                format_age(now.saturating_sub(secs))
            ));
            if let Some(c) = &e.correlation_id {
                line(format!("  correlation id   {}", sanitize(c)));
            }
        }
        None => {
            line(String::new());
            line("Job: none (the body is not a queuey envelope)".into());
        }
    }
    line(String::new());
    line("Properties".into());
    let p = &m.properties;
    let props: [(&str, Option<String>); 13] = [
        ("message_id", p.message_id.clone()),
        ("content_type", p.content_type.clone()),
        ("content_encoding", p.content_encoding.clone()),
        (
            "delivery_mode",
            p.delivery_mode.map(|d| match d {
                2 => "2 (persistent)".to_owned(),
                1 => "1 (transient)".to_owned(),
                n => n.to_string(),
            }),
        ),
        ("priority", p.priority.map(|v| v.to_string())),
        ("correlation_id", p.correlation_id.clone()),
        ("reply_to", p.reply_to.clone()),
        ("expiration", p.expiration.clone()),
        (
            "timestamp",
            p.timestamp.map(|t| format!("{t} ({})", utc_time(t))),
        ),
        ("type", p.kind.clone()),
        ("user_id", p.user_id.clone()),
        ("app_id", p.app_id.clone()),
        ("cluster_id", p.cluster_id.clone()),
    ];
    for (name, value) in props {
        if let Some(v) = value {
            line(format!("  {name:<17}{}", sanitize(&v)));
        }
    }
    let exchange = if m.exchange.is_empty() {
        "\"\" (the default exchange)".to_owned()
    } else {
        sanitize(&m.exchange)
    };
    line(format!("  {:<17}{exchange}", "exchange"));
    line(format!(
        "  {:<17}{}",
        "routing_key",
        sanitize(&m.routing_key)
    ));
    line(format!("  {:<17}{}", "redelivered", m.redelivered));
    line(String::new());
    match &p.headers {
        None => line("Headers: none".into()),
        Some(h) => {
            line("Headers".into());
            let mut lines = Vec::new();
            for (k, v) in h {
                typed_lines(&mut lines, 1, k, v);
            }
            for l in lines {
                line(l);
            }
        }
    }
    if !dl.deaths.is_empty() {
        line(String::new());
        let mut t = output::table(&[
            "#",
            "queue",
            "reason",
            "count",
            "time",
            "exchange",
            "routing keys",
        ]);
        for (i, d) in dl.deaths.iter().enumerate() {
            t.add_row(vec![
                i.to_string(),
                sanitize(d.queue.as_deref().unwrap_or("?")),
                sanitize(d.reason.as_deref().unwrap_or("?")),
                d.count.map_or("?".into(), |c| c.to_string()),
                d.time.map_or("?".into(), utc_time),
                sanitize(d.exchange.as_deref().unwrap_or("?")),
                sanitize(&d.routing_keys.join(", ")),
            ]);
        }
        line("x-death (newest first)".into());
        line(t.to_string());
    }
    line(String::new());
    line(render_body(&m.body, p.content_type.as_deref()));
    out
}

fn typed_lines(out: &mut Vec<String>, depth: usize, name: &str, v: &Value) {
    let indent = "  ".repeat(depth);
    let label = format!("{indent}{}", sanitize(name));
    match v {
        Value::Array(items) => {
            out.push(format!("{label:<36} array[{}]", items.len()));
            for (i, item) in items.iter().enumerate() {
                typed_lines(out, depth + 1, &format!("[{i}]"), item);
            }
        }
        Value::Table(t) => {
            out.push(format!("{label:<36} table"));
            for (k, item) in t {
                typed_lines(out, depth + 1, k, item);
            }
        }
        Value::Timestamp(t) => out.push(format!(
            "{label:<36} {:<10} {t} ({})",
            "timestamp",
            utc_time(*t)
        )),
        other => {
            let shown = other.display();
            let shown = if shown.is_empty() {
                "\"\"".to_owned()
            } else {
                sanitize(&shown)
            };
            out.push(format!("{label:<36} {:<10} {shown}", other.type_name()))
        }
    }
}

/// The body: pretty JSON, text, or a hex dump, always escaped.
pub fn render_body(body: &[u8], content_type: Option<&str>) -> String {
    if body.is_empty() {
        return "Body: empty".to_owned();
    }
    if let Ok(text) = std::str::from_utf8(body) {
        let looks_json = content_type.is_some_and(|c| c.contains("json"))
            || matches!(text.trim_start().chars().next(), Some('{' | '['));
        if looks_json && let Ok(v) = serde_json::from_str::<Json>(text) {
            let pretty = serde_json::to_string_pretty(&v).unwrap_or_else(|_| text.to_owned());
            return format!(
                "Body ({} bytes, JSON)\n{}",
                body.len(),
                sanitize_multiline(&pretty)
            );
        }
        return format!(
            "Body ({} bytes, text)\n{}",
            body.len(),
            sanitize_multiline(text)
        );
    }
    let mut out = format!("Body ({} bytes, binary)\n", body.len());
    for (i, chunk) in body.chunks(16).enumerate() {
        let hex: Vec<String> = chunk.iter().map(|b| format!("{b:02x}")).collect();
        let ascii: String = chunk
            .iter()
            .map(|&b| {
                if b.is_ascii_graphic() || b == b' ' {
                    b as char
                } else {
                    '.'
                }
            })
            .collect();
        out.push_str(&format!(
            "{:08x}  {:<47}  |{ascii}|\n",
            i * 16,
            hex.join(" ")
        ));
    }
    out.pop();
    out
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
