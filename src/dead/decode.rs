//! PURE: from a delivered message to a dead letter: where it came from, why it died, how often.
//!
//! Reading order (SPEC.md §4):
//! - original queue: `x-queuey-original-queue`, else the queue of the newest `x-death` entry
//!   that is not a hold queue of this topology (a message that waited in `q.deferred.30000` and
//!   then died in `q` came from `q`), else `q` itself;
//! - attempts: `x-queuey-attempts`;
//! - reason: `x-queuey-death-reason`, else the newest `x-death` entry's reason;
//! - when it died: the latest `time` among the `x-death` entries (RabbitMQ keeps the *first*
//!   time of each queue/reason pair and moves a repeat to the front), else the `timestamp`
//!   property.
//!
//! Nothing here trusts the broker or the publisher: `x-death` may not be an array, its entries
//! may not be tables, `count` may be any integer type, a string, negative or missing, `time`
//! may be missing, the queuey headers may have the wrong types. What cannot be read is left
//! unknown and described in `problems`; decoding never fails and never panics.

use serde::Serialize;

use super::value::{Properties, Table, Value, bytes_text};
use crate::topology::{
    self, HEADER_ATTEMPTS, HEADER_DEATH_REASON, HEADER_ORIGINAL_QUEUE, RabbitMqOptions,
};

/// The `x-death` header RabbitMQ writes when it dead-letters a message.
pub const X_DEATH: &str = "x-death";
/// A quorum queue's count of returned deliveries, stamped on redeliveries.
pub const X_DELIVERY_COUNT: &str = "x-delivery-count";

/// Header stamped on a copy queuey made of a quorum message on its last delivery instead of
/// returning it during a peek (seconds since the epoch), so an operator can tell why it moved.
pub const HEADER_RESCUED_AT: &str = "x-queuey-rescued-at";

/// A message as delivered: what the decoder reads. The body is not kept by the decoder.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Message {
    pub properties: Properties,
    pub body: Vec<u8>,
    pub redelivered: bool,
    pub exchange: String,
    pub routing_key: String,
}

/// Where a decoded value came from.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
#[serde(rename_all = "kebab-case")]
pub enum Source {
    /// A queuey header (`x-queuey-…`).
    Header,
    /// The broker's `x-death` history.
    XDeath,
    /// Nothing said otherwise: the logical queue itself.
    Default,
}

/// One readable entry of `x-death`. Fields that could not be read are `None` and described in
/// the dead letter's `problems`.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize)]
pub struct Death {
    pub queue: Option<String>,
    pub reason: Option<String>,
    pub count: Option<u64>,
    /// Seconds since the Unix epoch.
    pub time: Option<u64>,
    pub exchange: Option<String>,
    pub routing_keys: Vec<String>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub original_expiration: Option<String>,
}

/// The `x-first-death-*` headers (set on the first death only; absent when the message already
/// carried an `x-death`).
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize)]
pub struct FirstDeath {
    pub queue: Option<String>,
    pub reason: Option<String>,
    pub exchange: Option<String>,
}

/// What queuey knows about one dead letter.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct DeadLetter {
    pub message_id: Option<String>,
    pub original_queue: String,
    pub original_queue_from: Source,
    pub attempts: Option<u64>,
    pub reason: Option<String>,
    pub reason_from: Option<Source>,
    /// The readable `x-death` entries, newest first.
    pub deaths: Vec<Death>,
    /// Sum of the readable `count`s.
    pub death_count: u64,
    pub first_death: FirstDeath,
    /// When it died (seconds since the epoch), see the module docs.
    pub died_at: Option<u64>,
    /// A quorum queue's `x-delivery-count` on this delivery (absent on a first delivery).
    pub delivery_count: Option<u64>,
    pub size: usize,
    pub content_type: Option<String>,
    pub redelivered: bool,
    /// What could not be read, in words.
    pub problems: Vec<String>,
}

impl DeadLetter {
    /// Seconds since it died, at `now` (seconds since the epoch).
    pub fn age_secs(&self, now: u64) -> Option<u64> {
        self.died_at.map(|t| now.saturating_sub(t))
    }
}

/// Describes a value for a problem report: its type and a short rendering.
fn describe(v: &Value) -> String {
    let mut shown = v.display();
    if shown.chars().count() > 40 {
        shown = format!("{}…", shown.chars().take(40).collect::<String>());
    }
    format!("{} {shown:?}", v.type_name())
}

fn text_of(v: &Value) -> Option<String> {
    match v {
        Value::ShortStr(s) => Some(s.clone()),
        // A long string that is not UTF-8 is still shown, its bad bytes as \xNN.
        Value::LongStr(b) => Some(bytes_text(b)),
        _ => None,
    }
}

fn unsigned_of(v: &Value) -> Option<u64> {
    v.as_integer().and_then(|n| u64::try_from(n).ok())
}

/// Decodes `message` as a dead letter of the logical queue `queue`.
pub fn decode(message: &Message, queue: &str, options: &RabbitMqOptions) -> DeadLetter {
    let props = &message.properties;
    let mut problems = Vec::new();
    let empty = Table::new();
    let headers = props.headers.as_ref().unwrap_or(&empty);

    let deaths = match headers.get(X_DEATH) {
        None => Vec::new(),
        Some(Value::Array(entries)) => decode_deaths(entries, &mut problems),
        Some(other) => {
            problems.push(format!("x-death is a {}, not an array", describe(other)));
            Vec::new()
        }
    };

    let string_header = |name: &str, problems: &mut Vec<String>| -> Option<String> {
        let v = headers.get(name)?;
        match text_of(v) {
            Some(s) => Some(s),
            None => {
                problems.push(format!("{name} is a {}, not a string", describe(v)));
                None
            }
        }
    };

    let newest_not_hold = deaths.iter().find_map(|d| {
        d.queue.as_ref().filter(|q| {
            !matches!(
                topology::parse_deferred_queue_name(queue, q, options),
                Ok(Some(_))
            )
        })
    });
    let (original_queue, original_queue_from) =
        match string_header(HEADER_ORIGINAL_QUEUE, &mut problems) {
            Some(q) => (q, Source::Header),
            None => match newest_not_hold {
                Some(q) => (q.clone(), Source::XDeath),
                None => (queue.to_owned(), Source::Default),
            },
        };

    let attempts = headers
        .get(HEADER_ATTEMPTS)
        .and_then(|v| match unsigned_of(v) {
            Some(n) => Some(n),
            None => {
                problems.push(format!(
                    "{HEADER_ATTEMPTS} is a {}, not a non-negative integer",
                    describe(v)
                ));
                None
            }
        });

    let (reason, reason_from) = match string_header(HEADER_DEATH_REASON, &mut problems) {
        Some(r) => (Some(r), Some(Source::Header)),
        None => match deaths.first().and_then(|d| d.reason.clone()) {
            Some(r) => (Some(r), Some(Source::XDeath)),
            None => (None, None),
        },
    };

    let first_death = FirstDeath {
        queue: string_header("x-first-death-queue", &mut problems),
        reason: string_header("x-first-death-reason", &mut problems),
        exchange: string_header("x-first-death-exchange", &mut problems),
    };

    let delivery_count = headers.get(X_DELIVERY_COUNT).and_then(unsigned_of);
    let died_at = deaths
        .iter()
        .filter_map(|d| d.time)
        .max()
        .or(props.timestamp);
    let death_count = deaths
        .iter()
        .filter_map(|d| d.count)
        .fold(0u64, u64::saturating_add);

    DeadLetter {
        message_id: props.message_id.clone(),
        original_queue,
        original_queue_from,
        attempts,
        reason,
        reason_from,
        deaths,
        death_count,
        first_death,
        died_at,
        delivery_count,
        size: message.body.len(),
        content_type: props.content_type.clone(),
        redelivered: message.redelivered,
        problems,
    }
}

fn decode_deaths(entries: &[Value], problems: &mut Vec<String>) -> Vec<Death> {
    let mut out = Vec::with_capacity(entries.len());
    for (i, entry) in entries.iter().enumerate() {
        let Value::Table(t) = entry else {
            problems.push(format!(
                "x-death[{i}] is a {}, not a table",
                describe(entry)
            ));
            continue;
        };
        let mut text = |key: &str, required: bool| -> Option<String> {
            match t.get(key) {
                None => {
                    if required {
                        problems.push(format!("x-death[{i}] has no {key}"));
                    }
                    None
                }
                Some(v) => text_of(v).or_else(|| {
                    problems.push(format!(
                        "x-death[{i}].{key} is a {}, not a string",
                        describe(v)
                    ));
                    None
                }),
            }
        };
        let queue = text("queue", true);
        let reason = text("reason", true);
        let exchange = text("exchange", false);
        let original_expiration = text("original-expiration", false);
        let mut number = |key: &str| -> Option<u64> {
            match t.get(key) {
                None => {
                    problems.push(format!("x-death[{i}] has no {key}"));
                    None
                }
                Some(v) => unsigned_of(v).or_else(|| {
                    problems.push(format!(
                        "x-death[{i}].{key} is a {}, not a non-negative integer",
                        describe(v)
                    ));
                    None
                }),
            }
        };
        let count = number("count");
        let time = number("time");
        let routing_keys = match t.get("routing-keys") {
            None => Vec::new(),
            Some(Value::Array(keys)) => keys
                .iter()
                .filter_map(|k| {
                    text_of(k).or_else(|| {
                        problems.push(format!("x-death[{i}].routing-keys holds a {}", describe(k)));
                        None
                    })
                })
                .collect(),
            Some(other) => {
                problems.push(format!(
                    "x-death[{i}].routing-keys is a {}, not an array",
                    describe(other)
                ));
                Vec::new()
            }
        };
        out.push(Death {
            queue,
            reason,
            count,
            time,
            exchange,
            routing_keys,
            original_expiration,
        });
    }
    out
}

/// A short one-line preview of a body for tables: text as text, binary as hex.
pub fn body_preview(body: &[u8], max_chars: usize) -> String {
    if body.is_empty() {
        return "(empty)".to_owned();
    }
    match std::str::from_utf8(body) {
        Ok(text) => {
            let squeezed: String = text.split_whitespace().collect::<Vec<_>>().join(" ");
            if squeezed.chars().count() > max_chars {
                format!("{}…", squeezed.chars().take(max_chars).collect::<String>())
            } else {
                squeezed
            }
        }
        Err(_) => format!(
            "<binary {} bytes> {}",
            body.len(),
            super::value::hex_preview(body, max_chars / 3)
        ),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn opts() -> RabbitMqOptions {
        RabbitMqOptions::default()
    }

    fn s(v: &str) -> Value {
        Value::LongStr(v.as_bytes().to_vec())
    }

    fn death(queue: &str, reason: &str, count: Value, time: u64) -> Value {
        let mut t = Table::new();
        t.insert("queue".into(), s(queue));
        t.insert("reason".into(), s(reason));
        t.insert("count".into(), count);
        t.insert("time".into(), Value::Timestamp(time));
        t.insert("exchange".into(), s(""));
        t.insert("routing-keys".into(), Value::Array(vec![s(queue)]));
        Value::Table(t)
    }

    fn message(headers: Vec<(&str, Value)>) -> Message {
        Message {
            properties: Properties {
                headers: Some(
                    headers
                        .into_iter()
                        .map(|(k, v)| (k.to_owned(), v))
                        .collect(),
                ),
                message_id: Some("m-1".into()),
                ..Properties::default()
            },
            body: b"{\"orderId\": 1}".to_vec(),
            ..Message::default()
        }
    }

    #[test]
    fn queuey_headers_win() {
        let m = message(vec![
            (HEADER_ORIGINAL_QUEUE, s("orders.eu")),
            (HEADER_ATTEMPTS, Value::I32(5)),
            (HEADER_DEATH_REASON, s("timeout")),
            (
                X_DEATH,
                Value::Array(vec![death("orders", "rejected", Value::I64(1), 100)]),
            ),
        ]);
        let d = decode(&m, "orders", &opts());
        assert_eq!(d.original_queue, "orders.eu");
        assert_eq!(d.original_queue_from, Source::Header);
        assert_eq!(d.attempts, Some(5));
        assert_eq!(d.reason.as_deref(), Some("timeout"));
        assert_eq!(d.reason_from, Some(Source::Header));
        assert_eq!(d.died_at, Some(100));
        assert!(d.problems.is_empty(), "{:?}", d.problems);
    }

    #[test]
    fn x_death_skips_hold_queues_of_the_topology() {
        let m = message(vec![(
            X_DEATH,
            Value::Array(vec![
                death("orders.deferred.30000", "expired", Value::I64(2), 300),
                death("orders", "rejected", Value::I64(1), 200),
            ]),
        )]);
        let d = decode(&m, "orders", &opts());
        assert_eq!(d.original_queue, "orders");
        assert_eq!(d.original_queue_from, Source::XDeath);
        assert_eq!(
            d.reason.as_deref(),
            Some("expired"),
            "the newest entry's reason"
        );
        assert_eq!(d.death_count, 3);
        assert_eq!(d.died_at, Some(300));
        assert_eq!(d.deaths[0].routing_keys, ["orders.deferred.30000"]);
    }

    #[test]
    fn no_headers_default_to_the_queue() {
        let m = Message::default();
        let d = decode(&m, "orders", &opts());
        assert_eq!(d.original_queue, "orders");
        assert_eq!(d.original_queue_from, Source::Default);
        assert_eq!(d.reason, None);
        assert_eq!(d.attempts, None);
        assert_eq!(d.died_at, None);
    }

    #[test]
    fn every_integer_type_counts() {
        for count in [
            Value::I8(3),
            Value::U8(3),
            Value::I16(3),
            Value::U16(3),
            Value::I32(3),
            Value::U32(3),
            Value::I64(3),
            Value::Timestamp(3),
        ] {
            let m = message(vec![(
                X_DEATH,
                Value::Array(vec![death("q", "expired", count, 1)]),
            )]);
            assert_eq!(decode(&m, "q", &opts()).deaths[0].count, Some(3));
        }
    }

    #[test]
    fn malformed_shapes_are_problems_not_panics() {
        let cases: Vec<(Value, &str)> = vec![
            (s("not an array"), "not an array"),
            (Value::Array(vec![s("entry")]), "not a table"),
            (
                Value::Array(vec![death("q", "expired", s("five"), 1)]),
                "count is a longstr",
            ),
            (
                Value::Array(vec![death("q", "expired", Value::I64(-1), 1)]),
                "not a non-negative",
            ),
            (
                Value::Array(vec![Value::Table(Table::new())]),
                "has no queue",
            ),
        ];
        for (x_death, needle) in cases {
            let m = message(vec![(X_DEATH, x_death)]);
            let d = decode(&m, "q", &opts());
            assert!(
                d.problems.iter().any(|p| p.contains(needle)),
                "{needle}: {:?}",
                d.problems
            );
        }
        let m = message(vec![
            (HEADER_ATTEMPTS, s("three")),
            (HEADER_ORIGINAL_QUEUE, Value::I32(7)),
            (HEADER_DEATH_REASON, Value::Bool(true)),
        ]);
        let d = decode(&m, "q", &opts());
        assert_eq!(d.attempts, None);
        assert_eq!(d.original_queue, "q");
        assert_eq!(d.reason, None);
        assert_eq!(d.problems.len(), 3, "{:?}", d.problems);
    }

    #[test]
    fn huge_counts_saturate() {
        let m = message(vec![(
            X_DEATH,
            Value::Array(vec![
                death("a", "expired", Value::I64(i64::MAX), 1),
                death("b", "expired", Value::I64(i64::MAX), 2),
                death("c", "expired", Value::I64(i64::MAX), 3),
            ]),
        )]);
        assert_eq!(decode(&m, "q", &opts()).death_count, u64::MAX);
    }

    #[test]
    fn previews() {
        assert_eq!(body_preview(b"", 10), "(empty)");
        assert_eq!(body_preview(b"hello\n  world", 20), "hello world");
        assert_eq!(body_preview(b"abcdefghijkl", 5), "abcde…");
        assert!(body_preview(&[0xff, 0xfe, 0], 30).starts_with("<binary 3 bytes> fffe00"));
    }
}
