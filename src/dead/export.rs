//! PURE: the export format (`queuey.dead-letter.v1`): one JSON record per dead letter, lossless
//! (properties with their AMQP types, the body in base64), written by `dead export`, `dead show
//! -o json` and purge archives, and read back by `dead replay --from-file`.

use base64::Engine as _;
use base64::engine::general_purpose::STANDARD as B64;
use serde_json::{Value as Json, json};

use crate::dead::decode::{DeadLetter, Message};

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
