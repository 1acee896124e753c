//! `dead show`'s page: one dead letter whole (what queuey decoded, its properties, every header
//! typed, its x-death table and its body), every string that came from the broker escaped. On a
//! terminal a body longer than a screen is cut to a screenful ([`super::screenful`]).
//!
//! Where it sits in the looks (`broker::peek`'s doc): the output of `dead show`.

use crate::dead::decode::{self, BROKER_BOOKKEEPING, DeadLetter, Message};
use crate::dead::value::{Table, Value};
use crate::duration::format_age;
use crate::output;
use crate::output::sanitize::{sanitize, sanitize_multiline};
use crate::output::screenful::screenful;
use crate::output::table::{Fit, left_out_note};
use crate::output::time::utc_time;

/// Attempts as `M/N` when the reason says how many were allowed, else `M`, else `-`.
pub fn attempts_text(dl: &DeadLetter) -> String {
    match (dl.attempts, dl.max_attempts) {
        (Some(a), Some(max)) => format!("{a}/{max}"),
        (Some(a), None) => a.to_string(),
        (None, _) => "-".to_owned(),
    }
}

/// How `dead show` lays out its page on this output.
#[derive(Clone, Debug)]
pub struct ShowLayout {
    /// The x-death table's.
    pub fit: Fit,
    /// The screen a long body is cut to, as (rows, columns); `None`: the whole body (a pipe,
    /// `--full`).
    pub screen: Option<(usize, usize)>,
    /// The command that shows this dead letter whole, said under a cut body.
    pub full_command: String,
}

impl ShowLayout {
    /// Everything whole, as on a pipe.
    pub fn whole() -> ShowLayout {
        ShowLayout {
            fit: Fit::Natural { boxed: false },
            screen: None,
            full_command: String::new(),
        }
    }
}

/// `dead show`'s page, and what its x-death table left out (said on stderr).
#[derive(Debug)]
pub struct ShowPage {
    pub text: String,
    pub note: Option<String>,
}

/// The human rendering of one dead letter, every outside string escaped.
pub fn render_show(
    dead: &str,
    position: u64,
    depth: u64,
    m: &Message,
    dl: &DeadLetter,
    now: u64,
    layout: &ShowLayout,
) -> ShowPage {
    let mut note = None;
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
        let rendered = t.render(layout.fit);
        note = left_out_note(&rendered);
        line(rendered.text);
    }
    line(String::new());
    let body = render_body(&m.body, p.content_type.as_deref());
    match layout
        .screen
        .and_then(|(rows, columns)| screenful(&body, rows, columns))
    {
        Some(cut) => {
            line(cut.text);
            line(format!(
                "(cut to a screenful: {} of {} lines shown, the body is {} bytes; `{}` shows it \
                 whole, as a pipe does, and `dead export` writes it losslessly)",
                cut.lines_shown,
                cut.lines,
                m.body.len(),
                layout.full_command
            ));
        }
        None => line(body),
    }
    ShowPage { text: out, note }
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
