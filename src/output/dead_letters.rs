//! How dead letters are shown: the `dead ls` table and its JSON, the groups of `--group-by`,
//! `dead show`'s page. Every string that came from the broker is escaped here.

use serde::Serialize;
use serde_json::Value as Json;

use crate::dead::decode::{self, AgeFrom, BROKER_BOOKKEEPING, DeadLetter, Message};
use crate::dead::filter::{GroupKey, Grouping};
use crate::dead::value::{Table, Value};
use crate::duration::format_age;
use crate::error::Result;
use crate::output::sanitize::{sanitize, sanitize_multiline};
use crate::output::time::utc_time;
use crate::output::{self, Format, Output};
use crate::queue::QueueSettings;
use crate::shell::queuey_command;

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

/// `dead ls -o json`.
#[derive(Debug, Serialize)]
pub struct LsReport {
    pub queue: String,
    pub queue_type: String,
    pub depth_at_start: u64,
    pub scanned: u64,
    pub matched: u64,
    pub complete: bool,
    /// Whether a stop signal ended the look early.
    pub interrupted: bool,
    /// Dead letters others held when the look began: not read (exit 3).
    pub held_elsewhere: Option<crate::dead::peek::HeldElsewhere>,
    pub messages: Vec<LsRow>,
}

/// Prints `dead ls`: the table and its footer, or the JSON report.
pub fn print_ls(report: &LsReport, queue: &QueueSettings, output: Output) -> Result<()> {
    let LsReport {
        queue: dead,
        depth_at_start: target,
        scanned,
        matched,
        messages: rows,
        ..
    } = report;
    let (target, scanned, matched) = (*target, *scanned, *matched);
    match output.format {
        Format::Json => output::print_json(report)?,
        Format::Table | Format::Prometheus => {
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
            for r in rows.iter() {
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
                    // The newest few (x-death is newest first); `dead show` has them all.
                    let mut deaths: Vec<String> = dl
                        .deaths
                        .iter()
                        .take(MAX_DEATHS_IN_A_ROW)
                        .map(|d| {
                            format!(
                                "{} @ {} x{}",
                                sanitize(d.reason.as_deref().unwrap_or("?")),
                                sanitize(d.queue.as_deref().unwrap_or("?")),
                                d.count.map_or("?".to_owned(), |c| c.to_string())
                            )
                        })
                        .collect();
                    if dl.deaths.len() > MAX_DEATHS_IN_A_ROW {
                        deaths.push(format!(
                            "+{} more (dead show)",
                            dl.deaths.len() - MAX_DEATHS_IN_A_ROW
                        ));
                    }
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
                sanitize(dead)
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
    Ok(())
}

/// `dead ls --group-by ... -o json`.
#[derive(Debug, Serialize)]
pub struct GroupsReport<'a> {
    pub queue: &'a str,
    pub depth_at_start: u64,
    pub scanned: u64,
    pub matched: u64,
    /// Whether every message q.dead held at the start was counted.
    pub complete: bool,
    /// Whether a stop signal ended the count early.
    pub interrupted: bool,
    /// Dead letters others held when the count began: not counted (exit 3).
    pub held_elsewhere: Option<crate::dead::peek::HeldElsewhere>,
    pub group_by: Vec<String>,
    pub groups: Vec<GroupRow>,
}

/// One group: its key (by label, in `--group-by` order) and what it holds.
#[derive(Debug, Serialize)]
pub struct GroupRow {
    pub key: serde_json::Map<String, Json>,
    pub count: u64,
    pub bytes: u64,
    /// Death times, seconds since the epoch.
    pub oldest: Option<u64>,
    pub newest: Option<u64>,
    pub oldest_age_secs: Option<u64>,
    pub newest_age_secs: Option<u64>,
}

#[allow(clippy::too_many_arguments)]
pub fn print_groups(
    dead: &str,
    groups: &Grouping,
    scanned: u64,
    depth_at_start: u64,
    matched: u64,
    interrupted: bool,
    held_elsewhere: Option<crate::dead::peek::HeldElsewhere>,
    now: u64,
    output: Output,
) -> Result<()> {
    let labels: Vec<String> = groups.keys.iter().map(GroupKey::label).collect();
    match output.format {
        Format::Json => {
            let groups = groups
                .sorted()
                .into_iter()
                .map(|(key, stats)| GroupRow {
                    key: labels
                        .iter()
                        .zip(key)
                        .map(|(l, v)| (l.clone(), v.clone().map_or(Json::Null, Json::from)))
                        .collect(),
                    count: stats.count,
                    bytes: stats.bytes,
                    oldest: stats.oldest,
                    newest: stats.newest,
                    oldest_age_secs: stats.oldest.map(|t| now.saturating_sub(t)),
                    newest_age_secs: stats.newest.map(|t| now.saturating_sub(t)),
                })
                .collect();
            output::print_json(&GroupsReport {
                queue: dead,
                depth_at_start,
                scanned,
                matched,
                complete: scanned >= depth_at_start,
                interrupted,
                held_elsewhere,
                group_by: labels.clone(),
                groups,
            })
        }
        Format::Table | Format::Prometheus => {
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
                let age = |t: Option<u64>, enqueued: bool| {
                    t.map_or("-".into(), |t| {
                        let star = if enqueued { "*" } else { "" };
                        format!("{}{star}", format_age(now.saturating_sub(t)))
                    })
                };
                row.push(age(stats.oldest, stats.oldest_enqueued));
                row.push(age(stats.newest, stats.newest_enqueued));
                table.add_row(row);
            }
            output::print(table)?;
            let partial = if scanned < depth_at_start {
                format!(" (of the {depth_at_start} it held: these counts are partial)")
            } else {
                String::new()
            };
            let starred = groups
                .groups
                .values()
                .any(|g| g.oldest_enqueued || g.newest_enqueued);
            let star = if starred {
                "; age*: since the job was enqueued (an application's dead letter carries no \
                 death time)"
            } else {
                ""
            };
            output.note(&format!(
                "{matched} matching of {scanned} scanned in {}{partial}{star}",
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
            |t| format!("{} ({})", utc_time(t), ago(now, t))
        )
    ));
    if let Some(c) = dl.delivery_count {
        line(format!(
            "  delivery count   {c} (x-delivery-count of the quorum queue)"
        ));
    }
    if let Some(c) = dl.acquired_count {
        line(format!(
            "  acquired count   {c} (x-acquired-count of the quorum queue: deliveries before \
             this one, looks included)"
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
                "  enqueued         {} ({})",
                utc_time(secs),
                ago(now, secs)
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
    // The application's headers, then the broker's bookkeeping of its deliveries, apart.
    let empty = Table::new();
    let headers = p.headers.as_ref().unwrap_or(&empty);
    let (bookkeeping, own): (Vec<_>, Vec<_>) = headers
        .iter()
        .partition(|(k, _)| BROKER_BOOKKEEPING.contains(&k.as_str()));
    if own.is_empty() {
        line("Headers: none".into());
    } else {
        line("Headers".into());
        let mut lines = Vec::new();
        for (k, v) in own {
            typed_lines(&mut lines, 1, k, v);
        }
        for l in lines {
            line(l);
        }
    }
    if !bookkeeping.is_empty() {
        line(String::new());
        line(
            "Broker bookkeeping (stamped by the quorum queue on this delivery: not part of the \
             message, never copied by a replay)"
                .into(),
        );
        let mut lines = Vec::new();
        for (k, v) in bookkeeping {
            typed_lines(&mut lines, 1, k, v);
        }
        for l in lines {
            line(l);
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

/// Past this nesting a header's lines indent no further and say their level: the indent of
/// every level of a header 26 000 levels deep (a frame holds that many) would be gigabytes.
const MAX_INDENT: usize = 32;

fn typed_lines(out: &mut Vec<String>, depth: usize, name: &str, v: &Value) {
    let indent = "  ".repeat(depth.min(MAX_INDENT));
    let label = if depth > MAX_INDENT {
        format!("{indent}({depth}) {}", sanitize(name))
    } else {
        format!("{indent}{}", sanitize(name))
    };
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

/// The x-death entries a table row shows (a hostile dead letter may carry hundreds).
const MAX_DEATHS_IN_A_ROW: usize = 3;

/// A text body under its heading, escaped; the heading says when it was, since only then is
/// a backslash doubled (`\\x1b` is the sender's four characters, `\x1b` an escape character).
fn shown_text(len: usize, kind: &str, text: &str) -> String {
    let shown = sanitize_multiline(text);
    let escaped = if shown == text {
        ""
    } else {
        "; invisible characters escaped, backslashes doubled"
    };
    format!("Body ({len} bytes, {kind}{escaped})\n{shown}")
}

/// The body: pretty JSON, text, or a hex dump, always escaped.
///
/// JSON is indented as written, never read into values and printed again: that would show
/// another body than the one in the queue (`123456789012345678901234567890` as
/// `1.2345678901234568e29`, `1.50` as `1.5`, `-0` as `-0.0`, a key given twice once). A body
/// nested deeper than `dead edit` edits is shown as text, as it came.
pub fn render_body(body: &[u8], content_type: Option<&str>) -> String {
    if body.is_empty() {
        return "Body: empty".to_owned();
    }
    if let Ok(text) = std::str::from_utf8(body) {
        let looks_json = content_type.is_some_and(|c| c.contains("json"))
            || matches!(text.trim_start().chars().next(), Some('{' | '['));
        if looks_json && let Ok(pretty) = crate::dead::edit::pretty(body) {
            return shown_text(body.len(), "JSON", &pretty);
        }
        return shown_text(body.len(), "text", text);
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

/// How long ago `t` was at `now`, or how far in the future (a clock that is not queuey's,
/// or a forged time: such a dead letter has no age, see `DeadLetter::age`).
fn ago(now: u64, t: u64) -> String {
    if t > now.saturating_add(crate::dead::decode::CLOCK_SKEW_SECS) {
        format!(
            "{} in the future: a wrong clock, so no age",
            format_age(t - now)
        )
    } else {
        format!("{} ago", format_age(now.saturating_sub(t)))
    }
}

#[cfg(test)]
mod tests {
    use super::render_body;

    /// A JSON body is shown with every number, string and key as the queue holds it: before,
    /// it was read into serde_json values and printed again, and `dead show` showed another
    /// body (a big id rounded, `1.50` as `1.5`, `-0` as `-0.0`, `"\u00e9"` as `"é"`, a key
    /// given twice once, with the second value).
    #[test]
    fn a_json_body_is_shown_as_written() {
        let body = br#"{"id":123456789012345678901234567890,"n":1.50,"z":-0,"e":"\u00e9","a":1,"a":[2e0]}"#;
        assert_eq!(
            render_body(body, Some("application/json")),
            format!(
                "Body ({} bytes, JSON)\n{{\n  \"id\": 123456789012345678901234567890,\n  \"n\": 1.50,\n  \
                 \"z\": -0,\n  \"e\": \"\\u00e9\",\n  \"a\": 1,\n  \"a\": [\n    2e0\n  ]\n}}",
                body.len()
            )
        );
        // A number past f64 is JSON too (serde_json's values refuse it).
        assert!(render_body(b"[1e400]", None).starts_with("Body (7 bytes, JSON)\n[\n  1e400\n]"));
        // Nested deeper than dead edit edits: the text as it came, on its one line.
        let deep = format!("{}{}", "[".repeat(200), "]".repeat(200));
        assert_eq!(
            render_body(deep.as_bytes(), None),
            format!("Body (400 bytes, text)\n{deep}")
        );
    }

    #[test]
    fn a_body_is_escaped_only_when_it_must_be_and_says_so() {
        let path = br#"{"path": "C:\\jobs\\n1"}"#;
        let shown = render_body(path, Some("application/json"));
        assert!(shown.starts_with("Body (24 bytes, JSON)\n"), "{shown}");
        assert!(shown.contains(r#""path": "C:\\jobs\\n1""#), "{shown}");
        let hostile = "C:\\jobs \u{1b}[2J".as_bytes();
        let shown = render_body(hostile, None);
        assert_eq!(
            shown,
            "Body (12 bytes, text; invisible characters escaped, backslashes doubled)\n\
             C:\\\\jobs \\x1b[2J"
        );
    }
}
