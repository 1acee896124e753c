//! PURE: what a replayed dead letter carries, where it goes, and how a run recognises its own
//! copies.
//!
//! A replayed job gets its retries back. The queuey library's worker reads the attempt from the
//! envelope in the body, never from a header, so in a body that is an envelope `attempt` is set
//! to 1 ([`replay_body`]; every other byte stays as it was) and the `x-attempt` header, which
//! mirrors it, says 1 (a `u32`, as the library writes it). `--keep-attempts` copies the body
//! and `x-attempt` unchanged; a body that is not an envelope is always copied unchanged.
//!
//! Every property (content type, message id, priority, correlation id, timestamp, type, app id,
//! delivery mode...) is kept. The other headers change:
//!
//! - the death record is removed: the application's `x-attempts`, `x-death-reason` and
//!   `x-original-queue`, and the broker's `x-death`, `x-first-death-*`, `x-last-death-*` and
//!   `x-delivery-count`. RabbitMQ up to 3.12 keeps counting on a client-set `x-death`,
//!   3.13.0-3.13.2 mishandled it, and 4.x ignores it and starts afresh; removing it gives the
//!   same fresh history on every version. If the copy dies again, it dies with a clean record;
//! - what the death was is kept, compactly, in `x-queuey-last-replay`, a table: `run` (the
//!   replay run's id), `copy` (the copy's number in the run), `time` (timestamp), `from` (the
//!   dead-letter queue or export file), `reason`,
//!   `original-queue`, `attempts` and `deaths` (the x-death count);
//! - `x-queuey-replays` counts the replays of this message (1 on the first), so a message
//!   replayed again and again is visible in `dead ls` and `dead show`.
//!
//! Other headers (the application's own, `x-deferrals`) are kept. A queuey worker that
//! dead-letters the copy again writes its headers afresh from the envelope, so these two
//! `x-queuey-*` headers of queuey's own do not survive a second death in an application; they
//! matter while the copy travels (attributing a returned copy) and for messages the broker
//! dead-letters.

use super::decode::{DeadLetter, HEADER_RESCUED_AT, X_DEATH, X_DELIVERY_COUNT};
use super::envelope;
use super::value::{Properties, Table, Value};
use crate::topology::{
    HEADER_ATTEMPT, HEADER_ATTEMPTS, HEADER_DEATH_REASON, HEADER_ORIGINAL_QUEUE,
};

/// How many times a message was replayed.
pub const HEADER_REPLAYS: &str = "x-queuey-replays";
/// The last replay: a table (see the module docs).
pub const HEADER_LAST_REPLAY: &str = "x-queuey-last-replay";

/// Headers a replayed copy drops.
pub const DROPPED_HEADERS: [&str; 13] = [
    HEADER_ATTEMPTS,
    HEADER_DEATH_REASON,
    HEADER_ORIGINAL_QUEUE,
    X_DEATH,
    "x-first-death-queue",
    "x-first-death-reason",
    "x-first-death-exchange",
    "x-last-death-queue",
    "x-last-death-reason",
    "x-last-death-exchange",
    X_DELIVERY_COUNT,
    HEADER_RESCUED_AT,
    "CC",
];

/// Who replays, and when.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ReplayStamp {
    /// Unique per run: copies carrying it are never replayed again by the same run.
    pub run: String,
    /// Seconds since the epoch.
    pub time: u64,
    /// The dead-letter queue (or export file) the copy comes from.
    pub from: String,
}

/// Where a dead letter goes back to: `--to`, else its original queue.
pub fn target(dl: &DeadLetter, to: Option<&str>) -> String {
    to.map_or_else(|| dl.original_queue.clone(), str::to_owned)
}

/// What a replayed copy's body is.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum CopyBody {
    /// An envelope whose `attempt` was set to 1 (it was `from`).
    Reset { body: Vec<u8>, from: u32 },
    /// An envelope already on attempt 1: unchanged.
    FirstAttempt(Vec<u8>),
    /// Copied unchanged: not an envelope, or `--keep-attempts`.
    Unchanged(Vec<u8>),
}

impl CopyBody {
    /// Whether the copy is an envelope on attempt 1 (its `x-attempt` header must say 1).
    pub fn first_attempt(&self) -> bool {
        !matches!(self, CopyBody::Unchanged(_))
    }

    pub fn into_bytes(self) -> Vec<u8> {
        match self {
            CopyBody::Reset { body, .. }
            | CopyBody::FirstAttempt(body)
            | CopyBody::Unchanged(body) => body,
        }
    }
}

/// The body of the replayed copy of `dl`: with `keep_attempts` or without an envelope, `body`
/// as it is; otherwise the envelope with `attempt` 1 and every other byte unchanged. An error
/// (the attempt could not be located in an envelope serde decoded; never seen) leaves the dead
/// letter where it is.
pub fn replay_body(
    body: Vec<u8>,
    dl: &DeadLetter,
    keep_attempts: bool,
) -> Result<CopyBody, String> {
    match &dl.envelope {
        Some(_) if keep_attempts => Ok(CopyBody::Unchanged(body)),
        None => Ok(CopyBody::Unchanged(body)),
        Some(e) if e.attempt == 1 => Ok(CopyBody::FirstAttempt(body)),
        Some(e) => envelope::with_first_attempt(&body)
            .map(|body| CopyBody::Reset {
                body,
                from: e.attempt,
            })
            .ok_or_else(|| {
                "its envelope's attempt could not be set to 1 (no single top-level \"attempt\" \
                 key); use --keep-attempts to copy it as it is"
                    .to_owned()
            }),
    }
}

/// The properties of the replayed copy of a dead letter; `copy` numbers the copies of a run.
/// With `first_attempt` (the copy's envelope is on attempt 1), `x-attempt` is set to 1.
pub fn replay_properties(
    props: &Properties,
    dl: &DeadLetter,
    stamp: &ReplayStamp,
    copy: u64,
    first_attempt: bool,
) -> Properties {
    let previous = props
        .header(HEADER_REPLAYS)
        .and_then(Value::as_integer)
        .and_then(|n| i64::try_from(n).ok())
        .unwrap_or(0)
        .max(0);
    // Copy the headers that stay, never the dropped ones (x-death can be large).
    let kept: Table = props
        .headers
        .iter()
        .flatten()
        .filter(|(k, _)| !DROPPED_HEADERS.contains(&k.as_str()))
        .map(|(k, v)| (k.clone(), v.clone()))
        .collect();
    let mut out = props.clone_without_headers();
    let headers = out.headers.insert(kept);
    let mut record = Table::new();
    let text = |s: &str| Value::LongStr(s.as_bytes().to_vec());
    record.insert("run".into(), text(&stamp.run));
    record.insert(
        "copy".into(),
        Value::I64(i64::try_from(copy).unwrap_or(i64::MAX)),
    );
    record.insert("time".into(), Value::Timestamp(stamp.time));
    record.insert("from".into(), text(&stamp.from));
    if let Some(r) = &dl.reason {
        record.insert("reason".into(), text(r));
    }
    record.insert("original-queue".into(), text(&dl.original_queue));
    if let Some(a) = dl.attempts {
        record.insert(
            "attempts".into(),
            Value::I64(i64::try_from(a).unwrap_or(i64::MAX)),
        );
    }
    record.insert(
        "deaths".into(),
        Value::I64(i64::try_from(dl.death_count).unwrap_or(i64::MAX)),
    );
    headers.insert(HEADER_LAST_REPLAY.into(), Value::Table(record));
    headers.insert(
        HEADER_REPLAYS.into(),
        Value::I64(previous.saturating_add(1)),
    );
    if first_attempt {
        headers.insert(HEADER_ATTEMPT.into(), Value::U32(1));
    }
    out
}

/// The copy number a replayed message carries (to attribute a returned copy).
pub fn copy_id(props: &Properties) -> Option<u64> {
    match props.header(HEADER_LAST_REPLAY) {
        Some(Value::Table(t)) => t
            .get("copy")
            .and_then(Value::as_integer)
            .and_then(|n| u64::try_from(n).ok()),
        _ => None,
    }
}

/// Whether this message is a copy made by the replay run `run` (it failed again and came back
/// during the same run): such a message is left where it is.
pub fn replayed_in_run(props: &Properties, run: &str) -> bool {
    match props.header(HEADER_LAST_REPLAY) {
        Some(Value::Table(t)) => t.get("run").and_then(Value::as_text) == Some(run),
        _ => false,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::dead::decode::{Message, decode};
    use crate::topology::{HEADER_DEFERRALS, RabbitMqOptions};

    const ENVELOPE: &str = r#"{"job_id":"67e55044-10b1-426f-9247-bb680e5fe0c8","job_type":"app::Send","queue":"orders","attempt":3,"enqueued_at_ms":1700000000000,"deferrals":2,"priority":0,"payload":{"n":1.0}}"#;

    /// A dead letter as the queuey library writes it, plus broker and application headers.
    fn dead_letter(body: &str) -> (Properties, DeadLetter) {
        let mut h = Table::new();
        h.insert(HEADER_ATTEMPTS.into(), Value::U32(3));
        h.insert(HEADER_ATTEMPT.into(), Value::U32(3));
        h.insert(HEADER_DEFERRALS.into(), Value::U32(2));
        h.insert(
            HEADER_DEATH_REASON.into(),
            Value::LongStr(b"max attempts (3) exhausted after attempt 3: timeout".to_vec()),
        );
        h.insert(
            HEADER_ORIGINAL_QUEUE.into(),
            Value::LongStr(b"orders".to_vec()),
        );
        h.insert("tenant".into(), Value::LongStr(b"acme".to_vec()));
        h.insert(X_DEATH.into(), Value::Array(vec![]));
        h.insert(
            "x-first-death-queue".into(),
            Value::LongStr(b"orders".to_vec()),
        );
        let props = Properties {
            headers: Some(h),
            message_id: Some("m-1".into()),
            priority: Some(4),
            content_type: Some("application/json".into()),
            ..Properties::default()
        };
        let dl = decode(
            &Message {
                properties: props.clone(),
                body: body.as_bytes().to_vec(),
                ..Message::default()
            },
            "orders",
            &RabbitMqOptions::default(),
        );
        (props, dl)
    }

    fn stamp() -> ReplayStamp {
        ReplayStamp {
            run: "run-1".into(),
            time: 42,
            from: "orders.dead".into(),
        }
    }

    #[test]
    fn a_replayed_copy_drops_the_death_record_and_keeps_the_rest() {
        let (props, dl) = dead_letter(ENVELOPE);
        let out = replay_properties(&props, &dl, &stamp(), 7, true);
        assert_eq!(out.message_id, props.message_id);
        assert_eq!(out.priority, Some(4));
        assert_eq!(out.content_type, props.content_type);
        for gone in [
            HEADER_ATTEMPTS,
            HEADER_DEATH_REASON,
            HEADER_ORIGINAL_QUEUE,
            X_DEATH,
            "x-first-death-queue",
        ] {
            assert!(out.header(gone).is_none(), "{gone} should be gone");
        }
        assert_eq!(out.header(HEADER_ATTEMPT), Some(&Value::U32(1)));
        assert_eq!(out.header("tenant"), props.header("tenant"));
        assert_eq!(out.header(HEADER_DEFERRALS), Some(&Value::U32(2)));
        assert_eq!(out.header(HEADER_REPLAYS), Some(&Value::I64(1)));
        let Some(Value::Table(record)) = out.header(HEADER_LAST_REPLAY) else {
            panic!("no replay record");
        };
        assert_eq!(
            record.get("reason").and_then(Value::as_text),
            Some("max attempts (3) exhausted after attempt 3: timeout")
        );
        assert_eq!(record.get("attempts"), Some(&Value::I64(3)));
        assert_eq!(record.get("time"), Some(&Value::Timestamp(42)));
        assert_eq!(copy_id(&out), Some(7));
        assert_eq!(copy_id(&props), None);
        assert!(replayed_in_run(&out, "run-1"));
        assert!(!replayed_in_run(&out, "run-2"));
        assert!(!replayed_in_run(&props, "run-1"));
        // --keep-attempts: x-attempt stays what it was, like the body.
        let kept = replay_properties(&props, &dl, &stamp(), 7, false);
        assert_eq!(kept.header(HEADER_ATTEMPT), Some(&Value::U32(3)));
    }

    #[test]
    fn an_envelope_body_starts_again_at_attempt_one() {
        let (_, dl) = dead_letter(ENVELOPE);
        let body = replay_body(ENVELOPE.as_bytes().to_vec(), &dl, false).unwrap();
        assert!(body.first_attempt());
        let CopyBody::Reset { body, from } = body else {
            panic!("not reset");
        };
        assert_eq!(from, 3);
        assert_eq!(
            String::from_utf8(body).unwrap(),
            ENVELOPE.replace(r#""attempt":3"#, r#""attempt":1"#)
        );
        assert_eq!(
            replay_body(ENVELOPE.as_bytes().to_vec(), &dl, true).unwrap(),
            CopyBody::Unchanged(ENVELOPE.as_bytes().to_vec()),
            "--keep-attempts"
        );
        let first = ENVELOPE.replace(r#""attempt":3"#, r#""attempt":1"#);
        let (_, dl1) = dead_letter(&first);
        assert_eq!(
            replay_body(first.as_bytes().to_vec(), &dl1, false).unwrap(),
            CopyBody::FirstAttempt(first.as_bytes().to_vec())
        );
    }

    #[test]
    fn a_body_that_is_not_an_envelope_is_copied_unchanged() {
        let (props, dl) = dead_letter("not json");
        let body = replay_body(b"not json".to_vec(), &dl, false).unwrap();
        assert_eq!(body, CopyBody::Unchanged(b"not json".to_vec()));
        let out = replay_properties(&props, &dl, &stamp(), 1, body.first_attempt());
        assert_eq!(
            out.header(HEADER_ATTEMPT),
            Some(&Value::U32(3)),
            "x-attempt is left as it was"
        );
    }

    #[test]
    fn replays_count_up() {
        let (props, dl) = dead_letter(ENVELOPE);
        let once = replay_properties(&props, &dl, &stamp(), 7, true);
        let twice = replay_properties(&once, &dl, &stamp(), 2, true);
        assert_eq!(twice.header(HEADER_REPLAYS), Some(&Value::I64(2)));
    }

    #[test]
    fn targets() {
        let (_, dl) = dead_letter(ENVELOPE);
        assert_eq!(target(&dl, None), "orders");
        assert_eq!(target(&dl, Some("other")), "other");
    }
}
