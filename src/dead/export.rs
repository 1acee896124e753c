//! PURE: the export format (`queuey.dead-letter.v1`): one JSON record per dead letter, lossless
//! (properties with their AMQP types, the body in base64), written by `dead export`, `dead show
//! -o json` and purge archives, and read back by `dead replay --from-file`.

use base64::Engine as _;
use base64::engine::general_purpose::STANDARD as B64;
use serde_json::{Value as Json, json};

use crate::dead::decode::{DeadLetter, Message};
use crate::dead::value::Properties;

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
        "properties": message.properties.to_json(),
        "body_base64": B64.encode(&message.body),
        "dead_letter": dl,
    })
}

/// Reads one line of an export file (`dead export`, `dead purge --archive`) back into the
/// message it holds; the error says what is wrong with the line.
pub fn read_record(line: &str) -> Result<Message, String> {
    let j: Json = serde_json::from_str(line).map_err(|e| format!("not JSON: {e}"))?;
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
