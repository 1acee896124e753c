//! PURE: from a delivered message to a dead letter: where it came from, why it died, how often.
//!
//! A dead letter comes from one of two writers. A queuey 1.x application dead-letters a job
//! itself: it publishes a copy of the envelope to `q.dead` with the headers `x-death-reason`,
//! `x-original-queue`, `x-attempts` (plus `x-attempt`, `x-deferrals`) and no `x-death`; a body
//! that was not an envelope goes there as it was, with only `x-death-reason: malformed envelope`
//! and `x-original-queue`. The broker dead-letters where a queue argument or policy says so, and
//! records it in `x-death`. Both are read; reading order:
//! - original queue: `x-original-queue`, else the envelope's `queue`, else the queue of the
//!   newest `x-death` entry that is not a hold queue of this topology (a message that waited in
//!   `q.deferred.30000` and then died in `q` came from `q`), else `q` itself;
//! - attempts: `x-attempts`, else the envelope's `attempt`;
//! - reason: `x-death-reason`, else the newest `x-death` entry's reason; its [`Cause`] is
//!   derived from the text;
//! - when it died: the latest `time` among the `x-death` entries (RabbitMQ keeps the *first*
//!   time of each queue/reason pair and moves a repeat to the front), else the `timestamp`
//!   property. An application's dead letter has neither: its age is then counted from the
//!   envelope's `enqueued_at_ms` ([`AgeFrom::Enqueued`]), an upper bound of the time since it
//!   died.
//!
//! Nothing here trusts the broker or the publisher: `x-death` may not be an array, its entries
//! may not be tables, `count` may be any integer type, a string, negative or missing, `time`
//! may be missing, the queuey headers may have the wrong types. What cannot be read is left
//! unknown and described in `problems`; decoding never fails and never panics. A body that is
//! not an envelope is no problem: it is just not a job.

use serde::Serialize;

use super::envelope::{self, Envelope};
use super::value::{Properties, Table, Value, bytes_text};
use crate::topology::{
    self, HEADER_ATTEMPTS, HEADER_DEATH_REASON, HEADER_DEFERRALS, HEADER_ORIGINAL_QUEUE,
    RabbitMqOptions,
};

/// The `x-death` header RabbitMQ writes when it dead-letters a message.
pub const X_DEATH: &str = "x-death";
/// A quorum queue's count of returned deliveries, stamped on redeliveries (from 4.3 only the
/// returns that spend the delivery limit: a reject, a channel closed with the delivery held).
pub const X_DELIVERY_COUNT: &str = "x-delivery-count";
/// A quorum queue's count of a message's acquisitions, stamped on redeliveries from RabbitMQ
/// 4.3: every delivery returned, nack returns (a peek's) included.
pub const X_ACQUIRED_COUNT: &str = "x-acquired-count";
/// The header RabbitMQ stamps on every message it receives when told to
/// (`message_interceptors.incoming.set_header_timestamp`, 3.12 and later; the
/// rabbitmq_message_timestamp plugin before): milliseconds since the epoch. A dead letter an
/// application published into `q.dead` was received there when it died.
pub const TIMESTAMP_IN_MS: &str = "timestamp_in_ms";

/// The headers the broker stamps on a message when it delivers it again: its bookkeeping, not
/// the message. They change at every look, so they are left out of what identifies a dead
/// letter (the replay journal's digest), never copied by a replay, and shown apart from the
/// application's headers. (A classic queue stamps none; a stream's `x-stream-offset` does not
/// change between deliveries, and queuey reads no stream.)
pub const BROKER_BOOKKEEPING: [&str; 2] = [X_DELIVERY_COUNT, X_ACQUIRED_COUNT];

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
    /// A header the application wrote (`x-original-queue`, `x-attempts`, `x-death-reason`...).
    Header,
    /// The JSON envelope in the body.
    Envelope,
    /// The broker's `x-death` history.
    XDeath,
    /// Nothing said otherwise: the logical queue itself.
    Default,
}

/// Why a message died, in one word: derived from its reason (the library's own texts, or the
/// broker's `x-death` reasons).
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum Cause {
    /// `max attempts (N) exhausted after attempt M: ...`: a retryable failure on the last attempt.
    Exhausted,
    /// `fatal error: ...`: the handler said it can never succeed.
    Fatal,
    /// `no handler for job type `T``: no worker handles this job type.
    NoHandler,
    /// `decode error: ...`: the payload did not fit the handler's job type.
    Decode,
    /// `malformed envelope`: the body was not a queuey envelope at all.
    Malformed,
    /// The broker's reasons: rejected (reject/nack without requeue), expired (TTL), maxlen
    /// (length limit), delivery_limit (quorum queue).
    Rejected,
    Expired,
    Maxlen,
    DeliveryLimit,
    /// Any other reason, or none.
    Other,
}

/// A cause is its word ([`Cause::as_str`]) in JSON.
impl Serialize for Cause {
    fn serialize<S: serde::Serializer>(
        &self,
        serializer: S,
    ) -> std::result::Result<S::Ok, S::Error> {
        serializer.serialize_str(self.as_str())
    }
}

impl Cause {
    /// Every cause, in the order the help, the docs and `--group-by cause` name them: the one
    /// list of them.
    pub const ALL: [Cause; 10] = [
        Cause::Exhausted,
        Cause::Fatal,
        Cause::NoHandler,
        Cause::Decode,
        Cause::Malformed,
        Cause::Rejected,
        Cause::Expired,
        Cause::Maxlen,
        Cause::DeliveryLimit,
        Cause::Other,
    ];

    pub fn as_str(self) -> &'static str {
        match self {
            Cause::Exhausted => "exhausted",
            Cause::Fatal => "fatal",
            Cause::NoHandler => "no-handler",
            Cause::Decode => "decode",
            Cause::Malformed => "malformed",
            Cause::Rejected => "rejected",
            Cause::Expired => "expired",
            Cause::Maxlen => "maxlen",
            Cause::DeliveryLimit => "delivery_limit",
            Cause::Other => "other",
        }
    }

    /// The cause named `text` (as [`Cause::as_str`] writes it).
    pub fn parse(text: &str) -> Option<Cause> {
        Cause::ALL.into_iter().find(|c| c.as_str() == text)
    }

    /// The cause of a death `reason` (the library's texts are those of queuey-core 1.x's
    /// worker and queuey-rabbitmq's backend).
    pub fn of(reason: Option<&str>) -> Cause {
        let Some(r) = reason else {
            return Cause::Other;
        };
        if exhausted_attempts(r).is_some() {
            Cause::Exhausted
        } else if r.starts_with("fatal error: ") {
            Cause::Fatal
        } else if r.starts_with("no handler for job type ") {
            Cause::NoHandler
        } else if r.starts_with("decode error: ") {
            Cause::Decode
        } else {
            match r {
                "malformed envelope" => Cause::Malformed,
                "rejected" => Cause::Rejected,
                "expired" => Cause::Expired,
                "maxlen" => Cause::Maxlen,
                "delivery_limit" => Cause::DeliveryLimit,
                _ => Cause::Other,
            }
        }
    }
}

/// The N of the library's `max attempts (N) exhausted after attempt M: ...` (`None` too when N
/// is past `u64`: the wording still says exhausted, [`Cause::of`]).
pub fn max_attempts_of(reason: &str) -> Option<u64> {
    exhausted_attempts(reason)?.parse().ok()
}

/// The digits of N when `reason` is the library's `max attempts (N) exhausted after attempt M:
/// ...`, both plain digits, however many.
fn exhausted_attempts(reason: &str) -> Option<&str> {
    let rest = reason.strip_prefix("max attempts (")?;
    let (n, rest) = rest.split_once(") exhausted after attempt ")?;
    if n.is_empty() || !n.bytes().all(|b| b.is_ascii_digit()) {
        return None;
    }
    let (m, _) = rest.split_once(':')?;
    if m.is_empty() || !m.bytes().all(|b| b.is_ascii_digit()) {
        return None;
    }
    Some(n)
}

/// What an age is counted from.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
#[serde(rename_all = "kebab-case")]
pub enum AgeFrom {
    /// The death (`x-death` time, or the `timestamp` property).
    Death,
    /// The job's first enqueue (the envelope's `enqueued_at_ms`): the dead letter carries no
    /// death time, as an application's never does. At least as old as the death.
    Enqueued,
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

/// How far ahead of queuey's clock a dead letter's time may be and still be read as "now":
/// the clocks of the broker's and the application's hosts are not queuey's.
pub const CLOCK_SKEW_SECS: u64 = 300;

/// What queuey knows about one dead letter.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct DeadLetter {
    pub message_id: Option<String>,
    /// The envelope's job type and id (`None` when the body is not an envelope).
    pub job_type: Option<String>,
    pub job_id: Option<String>,
    pub original_queue: String,
    pub original_queue_from: Source,
    /// Attempts made: the attempt that failed last.
    pub attempts: Option<u64>,
    pub attempts_from: Option<Source>,
    /// The N of an exhausted job's reason (`max attempts (N) exhausted ...`).
    pub max_attempts: Option<u64>,
    /// Deferrals (`x-deferrals`, else the envelope's).
    pub deferrals: Option<u64>,
    pub reason: Option<String>,
    pub reason_from: Option<Source>,
    pub cause: Cause,
    /// The JSON envelope in the body, when it is one (everything but the payload).
    pub envelope: Option<Envelope>,
    /// The readable `x-death` entries, newest first.
    pub deaths: Vec<Death>,
    /// Sum of the readable `count`s.
    pub death_count: u64,
    pub first_death: FirstDeath,
    /// When it died (seconds since the epoch), see the module docs.
    pub died_at: Option<u64>,
    /// A quorum queue's `x-delivery-count` on this delivery (absent on a first delivery).
    pub delivery_count: Option<u64>,
    /// A quorum queue's `x-acquired-count` on this delivery (RabbitMQ 4.3 and later; absent on
    /// a first delivery): every earlier delivery, looks included.
    pub acquired_count: Option<u64>,
    pub size: usize,
    pub content_type: Option<String>,
    pub redelivered: bool,
    /// What could not be read, in words.
    pub problems: Vec<String>,
}

impl DeadLetter {
    /// Seconds since it died, or since its job was enqueued where no death time is known, at
    /// `now` (seconds since the epoch). A time up to [`CLOCK_SKEW_SECS`] ahead of `now` is the
    /// two clocks' difference (age 0); one further ahead is no age at all (`None`, as for a
    /// dead letter without a time): a wrong clock or a forged header, which no `--older-than`
    /// or `--max-age` should take for a fresh dead letter.
    pub fn age(&self, now: u64) -> Option<(u64, AgeFrom)> {
        self.time()
            .filter(|(t, _)| *t <= now.saturating_add(CLOCK_SKEW_SECS))
            .map(|(t, from)| (now.saturating_sub(t), from))
    }

    /// When it died (seconds since the epoch), else when its job was enqueued.
    pub fn time(&self) -> Option<(u64, AgeFrom)> {
        match (self.died_at, &self.envelope) {
            (Some(t), _) => Some((t, AgeFrom::Death)),
            (None, Some(e)) => Some((e.enqueued_at_ms / 1000, AgeFrom::Enqueued)),
            (None, None) => None,
        }
    }

    /// Why it has no age at `now` ([`DeadLetter::age`] is `None`), in words, from its `body`:
    /// `the body is not JSON, no x-death, no timestamp`.
    pub fn untimed_why(&self, body: &[u8], now: u64) -> String {
        if let Some((t, _)) = self.time() {
            return format!(
                "its time is {} s ahead of this machine's clock, more than the {CLOCK_SKEW_SECS} s \
                 allowed",
                t.saturating_sub(now)
            );
        }
        let body = if serde_json::from_slice::<serde::de::IgnoredAny>(body).is_ok() {
            "the body is JSON but not a queuey envelope (no enqueued_at_ms)"
        } else {
            "the body is not JSON"
        };
        let deaths = if self.deaths.is_empty() {
            "no x-death"
        } else {
            "no time in its x-death"
        };
        format!("{body}, {deaths}, no timestamp property or {TIMESTAMP_IN_MS} header")
    }

    /// The seconds of [`DeadLetter::age`].
    pub fn age_secs(&self, now: u64) -> Option<u64> {
        self.age(now).map(|(secs, _)| secs)
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

    let envelope = envelope::decode(&message.body);
    let newest_not_hold = deaths.iter().find_map(|d| {
        d.queue.as_ref().filter(|q| {
            !matches!(
                topology::parse_deferred_queue_name(queue, q, options),
                Ok(Some(_))
            )
        })
    });
    // An empty name is no queue (the default exchange routes "" nowhere): read as absent.
    let header_queue = string_header(HEADER_ORIGINAL_QUEUE, &mut problems).filter(|q| {
        if q.is_empty() {
            problems.push(format!("{HEADER_ORIGINAL_QUEUE} is empty"));
        }
        !q.is_empty()
    });
    let envelope_queue = envelope.as_ref().filter(|e| !e.queue.is_empty());
    let (original_queue, original_queue_from) = match header_queue {
        Some(q) => (q, Source::Header),
        None => match (envelope_queue, newest_not_hold) {
            (Some(e), _) => (e.queue.clone(), Source::Envelope),
            (None, Some(q)) if !q.is_empty() => (q.clone(), Source::XDeath),
            _ => (queue.to_owned(), Source::Default),
        },
    };

    let mut counter_header = |name: &str| {
        headers.get(name).and_then(|v| match unsigned_of(v) {
            Some(n) => Some(n),
            None => {
                problems.push(format!(
                    "{name} is a {}, not a non-negative integer",
                    describe(v)
                ));
                None
            }
        })
    };
    let (attempts, attempts_from) = match counter_header(HEADER_ATTEMPTS) {
        Some(n) => (Some(n), Some(Source::Header)),
        None => match &envelope {
            Some(e) => (Some(u64::from(e.attempt)), Some(Source::Envelope)),
            None => (None, None),
        },
    };
    let deferrals = counter_header(HEADER_DEFERRALS)
        .or_else(|| envelope.as_ref().map(|e| u64::from(e.deferrals)));

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
    let acquired_count = headers.get(X_ACQUIRED_COUNT).and_then(unsigned_of);
    let died_at = deaths
        .iter()
        .filter_map(|d| d.time)
        .max()
        .or(props.timestamp)
        .or_else(|| {
            headers
                .get(TIMESTAMP_IN_MS)
                .and_then(unsigned_of)
                .map(|ms| ms / 1000)
        });
    let death_count = deaths
        .iter()
        .filter_map(|d| d.count)
        .fold(0u64, u64::saturating_add);

    DeadLetter {
        message_id: props.message_id.clone(),
        job_type: envelope.as_ref().map(|e| e.job_type.clone()),
        job_id: envelope.as_ref().map(|e| e.job_id.clone()),
        original_queue,
        original_queue_from,
        attempts,
        attempts_from,
        max_attempts: reason.as_deref().and_then(max_attempts_of),
        deferrals,
        cause: Cause::of(reason.as_deref()),
        reason,
        reason_from,
        envelope,
        deaths,
        death_count,
        first_death,
        died_at,
        delivery_count,
        acquired_count,
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

/// A short one-line preview of a dead letter's body for tables: the job's payload when the
/// body is a queuey envelope (its metadata has columns of its own), else the body.
pub fn job_preview(body: &[u8], dl: &DeadLetter, max_chars: usize) -> String {
    match dl
        .envelope
        .as_ref()
        .and_then(|_| envelope::top_level_value(body, "payload"))
    {
        Some(span) => body_preview(body.get(span).unwrap_or(body), max_chars),
        None => body_preview(body, max_chars),
    }
}

/// A short one-line preview of a body for tables: text as text, binary as hex.
pub fn body_preview(body: &[u8], max_chars: usize) -> String {
    if body.is_empty() {
        return "(empty)".to_owned();
    }
    match std::str::from_utf8(body) {
        Ok(text) => squeezed_preview(text, max_chars),
        Err(_) => format!(
            "<binary {} bytes> {}",
            body.len(),
            super::value::hex_preview(body, max_chars / 3)
        ),
    }
}

/// `text` with each run of whitespace made one space and the ends trimmed, cut at `max_chars`
/// characters (`…` then marks the cut). Copies only what it shows: a body may be megabytes.
fn squeezed_preview(text: &str, max_chars: usize) -> String {
    let mut out = String::new();
    let mut shown = 0usize;
    for (i, word) in text.split_whitespace().enumerate() {
        if i > 0 {
            if shown == max_chars {
                out.push('…');
                return out;
            }
            out.push(' ');
            shown += 1;
        }
        for c in word.chars() {
            if shown == max_chars {
                out.push('…');
                return out;
            }
            out.push(c);
            shown += 1;
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    fn opts() -> RabbitMqOptions {
        RabbitMqOptions::default()
    }

    /// Only the library's exact wording, with plain digits on both sides, names max attempts:
    /// a sign, an empty or a non-numeric attempt is not that wording.
    #[test]
    fn max_attempts_need_plain_digits_on_both_sides() {
        let of = max_attempts_of;
        assert_eq!(
            of("max attempts (3) exhausted after attempt 3: boom"),
            Some(3)
        );
        assert_eq!(
            of("max attempts (+3) exhausted after attempt 3: boom"),
            None
        );
        assert_eq!(of("max attempts () exhausted after attempt 3: boom"), None);
        assert_eq!(of("max attempts (3) exhausted after attempt : boom"), None);
        assert_eq!(
            of("max attempts (3) exhausted after attempt x3: boom"),
            None
        );
        assert_eq!(
            of("max attempts (3) exhausted after attempt +3: boom"),
            None
        );
        assert_eq!(of("max attempts (3) exhausted after attempt 3 boom"), None);
    }

    /// An N past `u64` is no number of attempts, but the wording is still the library's: the
    /// cause is exhausted (it was `other`, and `--cause exhausted` missed it).
    #[test]
    fn an_absurd_max_attempts_is_still_exhausted() {
        let reason = "max attempts (99999999999999999999999) exhausted after attempt 3: boom";
        assert_eq!(max_attempts_of(reason), None);
        assert_eq!(Cause::of(Some(reason)), Cause::Exhausted);
        let at_max = format!("max attempts ({}) exhausted after attempt 3: x", u64::MAX);
        assert_eq!(max_attempts_of(&at_max), Some(u64::MAX));
    }

    /// A table's preview: the job's payload for an envelope, else the body, whitespace
    /// squeezed, whole up to `max_chars` characters, then cut with an ellipsis.
    #[test]
    fn previews_show_the_payload_of_a_job_and_cut_at_the_limit() {
        let envelope = br#"{"job_id":"67e55044-10b1-426f-9247-bb680e5fe0c8","job_type":"app::Send","queue":"orders","attempt":3,"enqueued_at_ms":1700000000000,"deferrals":0,"priority":0,"payload":{"n":  1}}"#;
        let decoded = |body: &[u8]| {
            decode(
                &Message {
                    body: body.to_vec(),
                    ..Message::default()
                },
                "orders",
                &opts(),
            )
        };
        let job = decoded(envelope);
        assert!(job.envelope.is_some());
        assert_eq!(job_preview(envelope, &job, 60), r#"{"n": 1}"#);
        let plain = b"not   a\njob";
        assert_eq!(job_preview(plain, &decoded(plain), 60), "not a job");
        assert_eq!(body_preview(b"abcd", 4), "abcd");
        assert_eq!(body_preview(b"abcde", 4), "abcd…");
        assert_eq!(body_preview(b"abc", 4), "abc");
        assert_eq!(body_preview(b"", 4), "(empty)");
    }

    /// A problem report shows a value whole up to 40 characters, then cut with an ellipsis.
    #[test]
    fn described_values_are_cut_after_forty_characters() {
        for (n, shown) in [
            (39, "é".repeat(39)),
            (40, "é".repeat(40)),
            (41, format!("{}…", "é".repeat(40))),
        ] {
            let v = Value::LongStr("é".repeat(n).into_bytes());
            assert_eq!(describe(&v), format!("{} {shown:?}", v.type_name()), "{n}");
        }
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

    const ENVELOPE: &str = r#"{"job_id":"67e55044-10b1-426f-9247-bb680e5fe0c8","job_type":"app::Send","queue":"app.emails","attempt":3,"enqueued_at_ms":1700000000000,"deferrals":2,"priority":0,"payload":{}}"#;

    /// What queuey-rabbitmq 1.1.0's `dead_letter_props` writes (codec.rs).
    fn library_dead_letter(reason: &str) -> Message {
        let mut m = message(vec![
            (HEADER_ATTEMPTS, Value::U32(3)),
            (topology::HEADER_ATTEMPT, Value::U32(3)),
            (HEADER_DEFERRALS, Value::U32(2)),
            (HEADER_DEATH_REASON, s(reason)),
            (HEADER_ORIGINAL_QUEUE, s("app.emails")),
        ]);
        m.body = ENVELOPE.as_bytes().to_vec();
        m.properties.message_id = Some("67e55044-10b1-426f-9247-bb680e5fe0c8".into());
        m
    }

    #[test]
    fn an_applications_dead_letter_is_read_from_its_headers_and_envelope() {
        let reason = "max attempts (3) exhausted after attempt 3: smtp timeout";
        let d = decode(&library_dead_letter(reason), "app.emails", &opts());
        assert_eq!(d.cause, Cause::Exhausted);
        assert_eq!(d.reason.as_deref(), Some(reason));
        assert_eq!((d.attempts, d.max_attempts), (Some(3), Some(3)));
        assert_eq!(d.attempts_from, Some(Source::Header));
        assert_eq!(d.deferrals, Some(2));
        assert_eq!(d.job_type.as_deref(), Some("app::Send"));
        assert_eq!(
            d.job_id.as_deref(),
            Some("67e55044-10b1-426f-9247-bb680e5fe0c8")
        );
        assert_eq!(d.original_queue, "app.emails");
        assert_eq!(d.original_queue_from, Source::Header);
        assert_eq!(d.died_at, None);
        assert_eq!(
            d.age(1_700_000_060),
            Some((60, AgeFrom::Enqueued)),
            "no death time: the age counts from the enqueue"
        );
        assert!(d.problems.is_empty(), "{:?}", d.problems);
        // Its time 5 minutes ahead of queuey's clock: the clocks differ, age 0; further ahead,
        // no age at all (a wrong clock), never a fresh dead letter.
        let enqueued = 1_700_000_000;
        assert_eq!(
            d.age(enqueued - CLOCK_SKEW_SECS),
            Some((0, AgeFrom::Enqueued))
        );
        assert_eq!(d.age(enqueued - CLOCK_SKEW_SECS - 1), None);
    }

    /// A malformed body has no age; the broker's `timestamp_in_ms` header gives it one (when the
    /// broker stamps it), and what it lacks is said.
    #[test]
    fn a_dead_letter_without_a_time_says_why_and_the_brokers_stamp_ages_it() {
        let mut m = message(vec![
            (HEADER_DEATH_REASON, s("malformed envelope")),
            (HEADER_ORIGINAL_QUEUE, s("app.emails")),
        ]);
        m.body = b"not json".to_vec();
        let d = decode(&m, "app.emails", &opts());
        assert_eq!(d.age(1_700_000_000), None);
        assert_eq!(
            d.untimed_why(&m.body, 1_700_000_000),
            "the body is not JSON, no x-death, no timestamp property or timestamp_in_ms header"
        );
        assert!(
            d.untimed_why(b"{\"a\":1}", 1_700_000_000)
                .starts_with("the body is JSON but not a queuey envelope")
        );
        if let Some(h) = m.properties.headers.as_mut() {
            h.insert(TIMESTAMP_IN_MS.to_owned(), Value::I64(1_700_000_000_500));
        }
        let d = decode(&m, "app.emails", &opts());
        assert_eq!(d.age(1_700_000_060), Some((60, AgeFrom::Death)));
        // Far ahead of this clock: no age, and the why says so.
        assert!(
            d.untimed_why(&m.body, 1_600_000_000)
                .contains("ahead of this machine's clock"),
            "{}",
            d.untimed_why(&m.body, 1_600_000_000)
        );
    }

    #[test]
    fn an_empty_original_queue_header_is_no_queue() {
        let mut m = library_dead_letter("boom");
        if let Some(h) = m.properties.headers.as_mut() {
            h.insert(HEADER_ORIGINAL_QUEUE.to_owned(), Value::LongStr(Vec::new()));
        }
        let d = decode(&m, "app.emails", &opts());
        assert_eq!(d.original_queue, "app.emails");
        assert_eq!(d.original_queue_from, Source::Envelope);
        assert!(
            d.problems.iter().any(|p| p.contains("is empty")),
            "{:?}",
            d.problems
        );
    }

    #[test]
    fn without_headers_the_envelope_says_queue_and_attempts() {
        let m = Message {
            body: ENVELOPE.as_bytes().to_vec(),
            ..Message::default()
        };
        let d = decode(&m, "other", &opts());
        assert_eq!(d.original_queue, "app.emails");
        assert_eq!(d.original_queue_from, Source::Envelope);
        assert_eq!(d.attempts, Some(3));
        assert_eq!(d.attempts_from, Some(Source::Envelope));
        assert_eq!(d.cause, Cause::Other);
    }

    #[test]
    fn a_body_that_is_not_an_envelope_is_not_a_problem() {
        let mut m = message(vec![
            (HEADER_DEATH_REASON, s("malformed envelope")),
            (HEADER_ORIGINAL_QUEUE, s("app.emails")),
        ]);
        m.body = b"not json".to_vec();
        let d = decode(&m, "app.emails", &opts());
        assert_eq!(d.cause, Cause::Malformed);
        assert_eq!((d.job_type, d.attempts, d.envelope), (None, None, None));
        assert!(d.problems.is_empty(), "{:?}", d.problems);
    }

    #[test]
    fn causes_of_every_reason_the_library_and_the_broker_write() {
        for (reason, cause) in [
            (
                "max attempts (3) exhausted after attempt 3: boom",
                Cause::Exhausted,
            ),
            (
                "max attempts (10) exhausted after attempt 12: ",
                Cause::Exhausted,
            ),
            ("fatal error: card declined", Cause::Fatal),
            ("no handler for job type `app::Gone`", Cause::NoHandler),
            ("decode error: missing field `to`", Cause::Decode),
            ("malformed envelope", Cause::Malformed),
            ("rejected", Cause::Rejected),
            ("expired", Cause::Expired),
            ("maxlen", Cause::Maxlen),
            ("delivery_limit", Cause::DeliveryLimit),
            (
                "max attempts (x) exhausted after attempt 3: y",
                Cause::Other,
            ),
            ("Fatal error: x", Cause::Other),
            ("timeout", Cause::Other),
        ] {
            assert_eq!(Cause::of(Some(reason)), cause, "{reason}");
            assert_eq!(Cause::parse(cause.as_str()), Some(cause));
        }
        assert_eq!(Cause::of(None), Cause::Other);
        assert_eq!(
            max_attempts_of("max attempts (5) exhausted after attempt 5: x: y"),
            Some(5)
        );
        assert_eq!(
            serde_json::to_value(Cause::NoHandler).unwrap(),
            serde_json::json!("no-handler")
        );
        assert_eq!(
            serde_json::to_value(Cause::DeliveryLimit).unwrap(),
            serde_json::json!("delivery_limit")
        );
    }

    /// The preview copies only what it shows, and shows what squeezing the whole text and
    /// cutting it would: every text of up to five characters from a small alphabet, every cut.
    #[test]
    fn previews_squeeze_as_the_whole_text_would() {
        fn whole(text: &str, max_chars: usize) -> String {
            let squeezed = text.split_whitespace().collect::<Vec<_>>().join(" ");
            if squeezed.chars().count() > max_chars {
                format!("{}…", squeezed.chars().take(max_chars).collect::<String>())
            } else {
                squeezed
            }
        }
        let alphabet = ['a', 'é', ' ', '\n'];
        let mut texts = vec![String::new()];
        for _ in 0..5 {
            let longer: Vec<String> = texts
                .iter()
                .flat_map(|t| alphabet.iter().map(move |c| format!("{t}{c}")))
                .collect();
            texts.extend(longer);
        }
        for text in &texts {
            for max in 0..7 {
                assert_eq!(
                    squeezed_preview(text, max),
                    whole(text, max),
                    "{text:?} {max}"
                );
            }
        }
    }

    #[test]
    fn previews() {
        assert_eq!(body_preview(b"", 10), "(empty)");
        assert_eq!(body_preview(b"hello\n  world", 20), "hello world");
        assert_eq!(body_preview(b"abcdefghijkl", 5), "abcde…");
        assert!(body_preview(&[0xff, 0xfe, 0], 30).starts_with("<binary 3 bytes> fffe00"));
    }
}
