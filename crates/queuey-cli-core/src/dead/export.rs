//! PURE: the export format (`queuey.dead-letter.v1`): one JSON record per dead letter, lossless
//! (properties with their AMQP types, the body in base64), written by `dead export`, `dead show
//! -o json` and purge archives, and read back by `dead replay --from-file`.
//!
//! The headers a quorum queue stamps on a redelivery (`x-delivery-count`, `x-acquired-count`:
//! [`BROKER_BOOKKEEPING`]) are the broker's, not the message's: a record keeps them apart, in
//! `broker_headers`, and `properties` holds the message as its publisher wrote it.

use base64::Engine as _;
use base64::engine::general_purpose::STANDARD as B64;
use serde::Deserialize as _;
use serde_json::{Value as Json, json};

use crate::dead::json_text;

use crate::dead::decode::{BROKER_BOOKKEEPING, DeadLetter, Message};
use crate::dead::value::{Keys, Properties, Table, typed_table_json};

/// The format tag of every export line (and of `dead show -o json`).
pub const EXPORT_FORMAT: &str = "queuey.dead-letter.v1";

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
        "properties": message.properties.to_json_with(Keys::Except(&BROKER_BOOKKEEPING)),
        "broker_headers": typed_table_json(
            message.properties.headers.as_ref().unwrap_or(&Table::new()),
            Keys::Only(&BROKER_BOOKKEEPING),
        ),
        "body_base64": B64.encode(&message.body),
        "dead_letter": dl,
    })
}

/// The format tag of the end line: the last line of a file `dead export --output-file` or
/// `dead purge --archive` wrote, once its run ended (finished, or stopped cleanly: a signal, an
/// error). A file without one was cut short (the run was killed, the machine stopped) or was
/// written by a queuey without end lines, or by `dead edit`.
pub const END_FORMAT: &str = "queuey.dead-letter.v1.end";

/// The end line of an export file or a purge archive.
#[derive(Clone, Debug, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
pub struct EndLine {
    /// [`END_FORMAT`].
    pub format: String,
    /// `export` or `purge`.
    pub command: String,
    /// The run went to its end (of the queue, or of `--limit`); false: it stopped early, `why`.
    pub finished: bool,
    /// Records the run wrote to the file.
    pub records: u64,
    /// Messages the run read (unknown after an error).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub scanned: Option<u64>,
    pub vhost: String,
    pub queue: String,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub why: Option<String>,
}

impl EndLine {
    pub fn new(command: &str, vhost: &str, queue: &str) -> EndLine {
        EndLine {
            format: END_FORMAT.to_owned(),
            command: command.to_owned(),
            finished: true,
            records: 0,
            scanned: None,
            vhost: vhost.to_owned(),
            queue: queue.to_owned(),
            why: None,
        }
    }
}

/// One line of an export file: a record, or the end line.
// The record is the common case: boxing it would cost an allocation per line.
#[allow(clippy::large_enum_variant)]
#[derive(Clone, Debug, PartialEq)]
pub enum ExportLine {
    Record(Message),
    End(EndLine),
}

/// How deep (in JSON levels) an export line may nest to be read back.
///
/// A record nests two levels for each level of a header's arrays and tables (the typed form:
/// `{"type": "array", "value": [{"type": ...}]}`) and four around the header table. serde_json
/// reads 128 levels by default: a header nested 62 arrays deep, which RabbitMQ takes and queuey
/// reads, made a line that `dead replay --from-file` refused, and the whole file with it (a
/// purge archive holding such a line could not be replayed at all). This reads what any header
/// of a content header frame of the default size (131072 bytes: 26 214 nested arrays at most)
/// makes, on the stack queuey runs on (`queuey_cli::deep_stack_thread`); deeper is refused by
/// its depth, before it is parsed.
pub const MAX_LINE_DEPTH: usize = 2 * 26_214 + 16;

/// One line of an export file as JSON, read however deep it nests up to [`MAX_LINE_DEPTH`].
pub fn line_json(line: &str) -> Result<Json, String> {
    let depth = json_text::depth(line);
    if depth > MAX_LINE_DEPTH {
        return Err(format!(
            "it nests {depth} levels deep, more than the {MAX_LINE_DEPTH} an export line may"
        ));
    }
    let mut de = serde_json::Deserializer::from_str(line);
    de.disable_recursion_limit();
    Json::deserialize(&mut de)
        .and_then(|j| de.end().map(|()| j))
        .map_err(|e| format!("not JSON: {e}"))
}

/// Reads one line of an export file: a record (see [`read_record`]) or the end line.
pub fn read_line(line: &str) -> Result<ExportLine, String> {
    let j = line_json(line)?;
    if j.get("format").and_then(|f| f.as_str()) == Some(END_FORMAT) {
        return serde_json::from_value(j)
            .map(ExportLine::End)
            .map_err(|e| format!("an end line that cannot be read: {e}"));
    }
    record_from_json(&j).map(ExportLine::Record)
}

/// Reads one line of an export file (`dead export`, `dead purge --archive`) back into the
/// message it holds; the error says what is wrong with the line (an end line is no record).
pub fn read_record(line: &str) -> Result<Message, String> {
    let j = line_json(line)?;
    record_from_json(&j)
}

fn record_from_json(j: &Json) -> Result<Message, String> {
    match j.get("format").and_then(|f| f.as_str()) {
        Some(EXPORT_FORMAT) => {}
        Some(other) => return Err(format!("format {other:?}, expected {EXPORT_FORMAT:?}")),
        None => {
            return Err(format!(
                "no \"format\": not a queuey export ({EXPORT_FORMAT})"
            ));
        }
    }
    let properties = Properties::from_json(j.get("properties").unwrap_or(&Json::Null))
        .map_err(|e| format!("properties: {e}"))?;
    let body = B64
        .decode(
            j.get("body_base64")
                .and_then(|b| b.as_str())
                .ok_or("no body_base64")?,
        )
        .map_err(|e| format!("body_base64: {e}"))?;
    Ok(Message {
        properties,
        body,
        ..Message::default()
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn an_end_line_reads_back_and_is_no_record() {
        let mut end = EndLine::new("export", "/", "q.dead");
        end.records = 3;
        end.scanned = Some(5);
        end.finished = false;
        end.why = Some("interrupted".into());
        let line = serde_json::to_string(&end).unwrap();
        assert!(
            line.starts_with(r#"{"format":"queuey.dead-letter.v1.end","#),
            "{line}"
        );
        assert_eq!(read_line(&line), Ok(ExportLine::End(end)));
        assert!(read_record(&line).unwrap_err().contains("expected"));
        assert!(read_line(r#"{"format":"queuey.dead-letter.v1.end"}"#).is_err());
    }
    use crate::dead::decode::decode;
    use crate::topology::RabbitMqOptions;

    fn message() -> Message {
        Message {
            properties: Properties {
                content_type: Some("application/json".into()),
                message_id: Some("m-1".into()),
                priority: Some(3),
                ..Properties::default()
            },
            body: b"\x00\xffjob".to_vec(),
            redelivered: true,
            exchange: "ex".into(),
            routing_key: "orders".into(),
        }
    }

    /// A record holds the message as it was (the body in base64) and where it was; reading it
    /// back gives the properties and the body.
    #[test]
    fn a_record_reads_back_as_its_message() {
        let m = message();
        let dl = decode(&m, "orders", &RabbitMqOptions::default());
        let record = export_record("q.dead", "/", 7, &m, &dl);
        assert_eq!(record["format"], "queuey.dead-letter.v1");
        assert_eq!(record["vhost"], "/");
        assert_eq!(record["queue"], "q.dead");
        assert_eq!(record["position"], 7);
        assert_eq!(record["exchange"], "ex");
        assert_eq!(record["routing_key"], "orders");
        assert_eq!(record["redelivered"], true);
        assert_eq!(record["body_base64"], "AP9qb2I=");
        assert_eq!(record["properties"], m.properties.to_json());
        assert_eq!(record["broker_headers"], json!({}));
        assert_eq!(record["dead_letter"]["message_id"], "m-1");
        let back = read_record(&record.to_string()).expect("a valid record");
        assert_eq!(
            back,
            Message {
                properties: m.properties.clone(),
                body: m.body.clone(),
                ..Message::default()
            }
        );
    }

    /// The counts a quorum queue stamps on a redelivery are the broker's: kept in
    /// `broker_headers`, typed, and out of `properties`, which is the message as published.
    #[test]
    fn the_broker_bookkeeping_is_kept_apart() {
        use crate::dead::value::Value;
        let mut m = message();
        let mut h = Table::new();
        h.insert("tenant".into(), Value::LongStr(b"acme".to_vec()));
        h.insert("x-delivery-count".into(), Value::I64(2));
        h.insert("x-acquired-count".into(), Value::I64(5));
        m.properties.headers = Some(h);
        let dl = decode(&m, "orders", &RabbitMqOptions::default());
        assert_eq!((dl.delivery_count, dl.acquired_count), (Some(2), Some(5)));
        let record = export_record("q.dead", "/", 1, &m, &dl);
        assert_eq!(
            record["properties"]["headers"],
            json!({"tenant": {"type": "longstr", "value": "acme"}})
        );
        assert_eq!(
            record["broker_headers"],
            json!({
                "x-acquired-count": {"type": "i64", "value": 5},
                "x-delivery-count": {"type": "i64", "value": 2},
            })
        );
        assert_eq!(record["dead_letter"]["acquired_count"], 5);
        let back = read_record(&record.to_string()).expect("a valid record");
        assert_eq!(back.properties.header("x-acquired-count"), None);
        assert_eq!(
            back.properties.header("tenant"),
            m.properties.header("tenant")
        );
    }

    /// A message whose header nests deep (RabbitMQ takes it, queuey reads it) makes a line
    /// deeper than serde_json's default 128 levels: it reads back, the header whole. Before,
    /// `dead replay --from-file` refused the line ("recursion limit exceeded"), and the whole
    /// file with it. A line deeper than [`MAX_LINE_DEPTH`] is refused by its depth.
    #[test]
    fn a_record_of_a_deeply_nested_header_reads_back() {
        use crate::dead::value::Value;
        let mut deep = Value::LongStr(b"bottom".to_vec());
        for i in 0..100 {
            deep = if i % 2 == 0 {
                Value::Array(vec![deep])
            } else {
                Value::Table(Table::from([("k".to_owned(), deep)]))
            };
        }
        let mut m = message();
        m.properties.headers = Some(Table::from([("deep".to_owned(), deep)]));
        let dl = decode(&m, "orders", &RabbitMqOptions::default());
        let line = export_record("q.dead", "/", 1, &m, &dl).to_string();
        assert!(
            json_text::depth(&line) > 200,
            "deeper than serde_json reads"
        );
        let back = read_record(&line).expect("it reads back");
        assert_eq!(back.properties, m.properties);
        assert_eq!(read_line(&line), Ok(ExportLine::Record(back)));
        let too_deep = format!(
            "{}{}",
            "[".repeat(MAX_LINE_DEPTH + 1),
            "]".repeat(MAX_LINE_DEPTH + 1)
        );
        assert!(read_record(&too_deep).unwrap_err().contains("levels deep"));
        assert!(read_record("{} x").unwrap_err().starts_with("not JSON: "));
    }

    /// A line that is not a record of this format is refused, and the error says why.
    #[test]
    fn a_line_that_is_not_a_record_is_refused() {
        let refused = |line: &str| read_record(line).expect_err(line);
        assert!(refused("{").starts_with("not JSON: "));
        assert_eq!(
            refused(r#"{"format":"other.v2","body_base64":""}"#),
            r#"format "other.v2", expected "queuey.dead-letter.v1""#
        );
        assert_eq!(
            refused(r#"{"body_base64":""}"#),
            "no \"format\": not a queuey export (queuey.dead-letter.v1)"
        );
        assert_eq!(
            refused(r#"{"format":"queuey.dead-letter.v1","properties":{}}"#),
            "no body_base64"
        );
        assert!(
            refused(r#"{"format":"queuey.dead-letter.v1","properties":{},"body_base64":"!"}"#)
                .starts_with("body_base64: ")
        );
        assert!(
            refused(r#"{"format":"queuey.dead-letter.v1","properties":1,"body_base64":""}"#)
                .starts_with("properties: ")
        );
    }
}
