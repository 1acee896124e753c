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
//!   quorum queue's bookkeeping of its deliveries (`x-delivery-count`, and from 4.3
//!   `x-acquired-count`). RabbitMQ up to 3.12 keeps counting on a client-set `x-death`,
//!   3.13.0-3.13.2 mishandled it, and 4.x ignores it and starts afresh; removing it gives the
//!   same fresh history on every version. If the copy dies again, it dies with a clean record;
//! - what the death was is kept, compactly, in `x-queuey-last-replay`, a table: `run` (the
//!   replay run's id), `copy` (the copy's number in the run), `time` (timestamp), `from` (the
//!   dead-letter queue or export file), `reason`,
//!   `original-queue`, `attempts` and `deaths` (the x-death count);
//! - `x-queuey-replays` counts the replays of this message (1 on the first), so a message
//!   replayed again and again is visible in `dead ls` and `dead show`.
//!
//! A `user_id` that a rescue of a quorum message on its last delivery moved into the
//! `x-queuey-user-id` header (its copy could not carry it) is the property again.
//!
//! Other headers (the application's own, `x-deferrals`) are kept. A queuey worker that
//! dead-letters the copy again writes its headers afresh from the envelope, so these two
//! `x-queuey-*` headers of queuey's own do not survive a second death in an application; they
//! matter while the copy travels (attributing a returned copy) and for messages the broker
//! dead-letters.

use super::decode::{DeadLetter, HEADER_RESCUED_AT, X_ACQUIRED_COUNT, X_DEATH, X_DELIVERY_COUNT};
use super::envelope;
use super::value::{Properties, Table, Value};
use crate::topology::{
    HEADER_ATTEMPT, HEADER_ATTEMPTS, HEADER_DEATH_REASON, HEADER_ORIGINAL_QUEUE,
};
use crate::user_id::HEADER_USER_ID;

/// How many times a message was replayed.
pub const HEADER_REPLAYS: &str = "x-queuey-replays";
/// The last replay: a table (see the module docs).
pub const HEADER_LAST_REPLAY: &str = "x-queuey-last-replay";

/// Headers a replayed copy drops (the broker's bookkeeping among them: every one of
/// `decode::BROKER_BOOKKEEPING`, which a test holds).
pub const DROPPED_HEADERS: [&str; 14] = [
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
    X_ACQUIRED_COUNT,
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

/// Headers a restored dead letter drops (`dead replay --from-file F --to q.dead`): only what a
/// broker stamps on a delivery, and `CC` (which would route the copy to more queues). Its death
/// record stays, so it decodes as it did.
pub const RESTORE_DROPPED_HEADERS: [&str; 4] =
    [X_DELIVERY_COUNT, X_ACQUIRED_COUNT, HEADER_RESCUED_AT, "CC"];

/// The properties of the replayed copy of a dead letter; `copy` numbers the copies of a run.
/// With `first_attempt` (the copy's envelope is on attempt 1), `x-attempt` is set to 1.
pub fn replay_properties(
    props: &Properties,
    dl: &DeadLetter,
    stamp: &ReplayStamp,
    copy: u64,
    first_attempt: bool,
) -> Properties {
    stamped(props, dl, stamp, copy, first_attempt, &DROPPED_HEADERS)
}

/// The properties of a dead letter restored into its dead-letter queue from a file (`dead
/// replay --from-file F --to q.dead`): the dead letter as it was, its death record included
/// (reason, original queue, attempts, `x-death`), with the replay record (`x-queuey-last-replay`,
/// by which a rerun finds the copies in doubt) and `x-queuey-replays` one more.
pub fn restore_properties(
    props: &Properties,
    dl: &DeadLetter,
    stamp: &ReplayStamp,
    copy: u64,
) -> Properties {
    stamped(props, dl, stamp, copy, false, &RESTORE_DROPPED_HEADERS)
}

fn stamped(
    props: &Properties,
    dl: &DeadLetter,
    stamp: &ReplayStamp,
    copy: u64,
    first_attempt: bool,
    dropped: &[&str],
) -> Properties {
    // A count past i64 (a `u64` or a timestamp from another client) is capped, not restarted.
    let previous = props
        .header(HEADER_REPLAYS)
        .and_then(Value::as_integer)
        .map_or(0, |n| i64::try_from(n.max(0)).unwrap_or(i64::MAX));
    // Copy the headers that stay, never the dropped ones (x-death can be large).
    let kept: Table = props
        .headers
        .iter()
        .flatten()
        .filter(|(k, _)| !dropped.contains(&k.as_str()))
        .map(|(k, v)| (k.clone(), v.clone()))
        .collect();
    let mut out = props.clone_without_headers();
    let headers = out.headers.insert(kept);
    // A user_id a rescue kept in a header (its copy could not carry it) is the property again:
    // a replay publishes it, or keeps the dead letter, as it does any other.
    if let Some(kept) = headers.remove(HEADER_USER_ID)
        && out.user_id.is_none()
    {
        out.user_id = kept.as_text().map(str::to_owned);
    }
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
        set_attempt_header(&mut out, 1);
    }
    out
}

/// `x-attempt` set to `attempt`, the attempt the copy's envelope says (as the library's
/// producer writes it, a `u32`): the header and the body never disagree.
pub fn set_attempt_header(props: &mut Properties, attempt: u32) {
    props
        .headers
        .get_or_insert_default()
        .insert(HEADER_ATTEMPT.into(), Value::U32(attempt));
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

/// The replay run and copy number a replayed message carries: which copy it is.
pub fn replay_mark(props: &Properties) -> Option<(&str, u64)> {
    match props.header(HEADER_LAST_REPLAY) {
        Some(Value::Table(t)) => Some((t.get("run").and_then(Value::as_text)?, copy_id(props)?)),
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

    #[test]
    fn a_user_id_a_rescue_kept_in_a_header_is_the_property_again() {
        let (mut props, dl) = dead_letter(ENVELOPE);
        props.user_id = None;
        props.headers.get_or_insert_default().insert(
            HEADER_USER_ID.into(),
            Value::LongStr(b"orders-app".to_vec()),
        );
        let out = replay_properties(&props, &dl, &stamp(), 1, true);
        assert_eq!(out.user_id.as_deref(), Some("orders-app"));
        assert_eq!(out.header(HEADER_USER_ID), None);
        let out = restore_properties(&props, &dl, &stamp(), 1);
        assert_eq!(out.user_id.as_deref(), Some("orders-app"));
        assert_eq!(out.header(HEADER_USER_ID), None);
        // A property set since wins; the header goes.
        props.user_id = Some("billing".into());
        let out = replay_properties(&props, &dl, &stamp(), 1, true);
        assert_eq!(out.user_id.as_deref(), Some("billing"));
        assert_eq!(out.header(HEADER_USER_ID), None);
    }

    #[test]
    fn a_restored_dead_letter_keeps_its_death_record() {
        let (props, dl) = dead_letter(ENVELOPE);
        let stamp = ReplayStamp {
            run: "r".into(),
            time: 1_800_000_000,
            from: "archive.jsonl".into(),
        };
        let out = restore_properties(&props, &dl, &stamp, 7);
        for kept in [
            HEADER_ATTEMPTS,
            HEADER_ATTEMPT,
            HEADER_DEATH_REASON,
            HEADER_ORIGINAL_QUEUE,
            X_DEATH,
            "x-first-death-queue",
            "tenant",
        ] {
            assert_eq!(out.header(kept), props.header(kept), "{kept}");
        }
        assert_eq!(
            out.header(HEADER_ATTEMPT),
            Some(&Value::U32(3)),
            "not reset"
        );
        assert_eq!(copy_id(&out), Some(7));
        assert_eq!(out.header(HEADER_REPLAYS), Some(&Value::I64(1)));
        assert_eq!(out.message_id, props.message_id);
        let again = decode(
            &Message {
                properties: out.clone(),
                body: ENVELOPE.as_bytes().to_vec(),
                ..Message::default()
            },
            "orders",
            &RabbitMqOptions::default(),
        );
        assert_eq!(
            (
                &again.reason,
                again.attempts,
                &again.original_queue,
                again.cause
            ),
            (&dl.reason, dl.attempts, &dl.original_queue, dl.cause)
        );
    }

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
        assert_eq!(replay_mark(&out), Some(("run-1", 7)));
        assert_eq!(replay_mark(&props), None);
        assert!(replayed_in_run(&out, "run-1"));
        assert!(!replayed_in_run(&out, "run-2"));
        assert!(!replayed_in_run(&props, "run-1"));
        // --keep-attempts: x-attempt stays what it was, like the body.
        let kept = replay_properties(&props, &dl, &stamp(), 7, false);
        assert_eq!(kept.header(HEADER_ATTEMPT), Some(&Value::U32(3)));
    }

    /// Every property of a dead letter, and every header the broker, the queuey library and a
    /// previous replay can leave on it.
    fn fully_loaded() -> (Properties, DeadLetter) {
        let s = |v: &str| Value::LongStr(v.as_bytes().to_vec());
        let mut death = Table::new();
        death.insert("queue".into(), s("orders"));
        death.insert("reason".into(), s("rejected"));
        death.insert("count".into(), Value::I64(2));
        death.insert("time".into(), Value::Timestamp(1_700_000_000));
        death.insert("exchange".into(), s(""));
        death.insert("routing-keys".into(), Value::Array(vec![s("orders")]));
        let mut meta = Table::new();
        meta.insert("region".into(), s("eu"));
        meta.insert("ids".into(), Value::Array(vec![Value::I32(1), Value::Void]));
        let mut old_record = Table::new();
        old_record.insert("run".into(), s("an-older-run"));
        old_record.insert("copy".into(), Value::I64(99));
        let mut h = Table::new();
        h.insert(HEADER_ATTEMPTS.into(), Value::U32(3));
        h.insert(HEADER_ATTEMPT.into(), Value::U32(3));
        h.insert(HEADER_DEFERRALS.into(), Value::U32(2));
        h.insert(HEADER_DEATH_REASON.into(), s("boom"));
        h.insert(HEADER_ORIGINAL_QUEUE.into(), s("orders"));
        h.insert(X_DEATH.into(), Value::Array(vec![Value::Table(death)]));
        for k in ["x-first-death-queue", "x-last-death-queue"] {
            h.insert(k.into(), s("orders"));
        }
        for k in ["x-first-death-reason", "x-last-death-reason"] {
            h.insert(k.into(), s("rejected"));
        }
        for k in ["x-first-death-exchange", "x-last-death-exchange"] {
            h.insert(k.into(), s(""));
        }
        h.insert(X_DELIVERY_COUNT.into(), Value::I64(4));
        h.insert(X_ACQUIRED_COUNT.into(), Value::I64(9));
        h.insert(HEADER_RESCUED_AT.into(), Value::Timestamp(1_700_000_100));
        h.insert("CC".into(), Value::Array(vec![s("audit")]));
        h.insert(HEADER_REPLAYS.into(), Value::I64(2));
        h.insert(HEADER_LAST_REPLAY.into(), Value::Table(old_record));
        h.insert("tenant".into(), s("acme"));
        h.insert("meta".into(), Value::Table(meta));
        h.insert("x-app-trace".into(), Value::ShortStr("t-1".into()));
        let props = Properties {
            content_type: Some("application/json".into()),
            content_encoding: Some("identity".into()),
            headers: Some(h),
            delivery_mode: Some(2),
            priority: Some(7),
            correlation_id: Some("corr-9".into()),
            reply_to: Some("replies".into()),
            expiration: Some("60000".into()),
            message_id: Some("m-42".into()),
            timestamp: Some(1_699_999_999),
            kind: Some("app::Send".into()),
            user_id: Some("guest".into()),
            app_id: Some("billing".into()),
            cluster_id: Some("c-1".into()),
        };
        let dl = decode(
            &Message {
                properties: props.clone(),
                body: ENVELOPE.as_bytes().to_vec(),
                ..Message::default()
            },
            "orders",
            &RabbitMqOptions::default(),
        );
        (props, dl)
    }

    /// The whole copy, compared at once: every property as it was, and exactly these headers.
    #[test]
    fn a_copy_is_every_property_and_exactly_the_documented_headers() {
        let (props, dl) = fully_loaded();
        assert_eq!(dl.death_count, 2);
        let out = replay_properties(&props, &dl, &stamp(), 7, true);
        let s = |v: &str| Value::LongStr(v.as_bytes().to_vec());
        let mut record = Table::new();
        record.insert("run".into(), s("run-1"));
        record.insert("copy".into(), Value::I64(7));
        record.insert("time".into(), Value::Timestamp(42));
        record.insert("from".into(), s("orders.dead"));
        record.insert("reason".into(), s("boom"));
        record.insert("original-queue".into(), s("orders"));
        record.insert("attempts".into(), Value::I64(3));
        record.insert("deaths".into(), Value::I64(2));
        let source = props.headers.clone().unwrap();
        let mut headers = Table::new();
        for kept in ["tenant", "meta", "x-app-trace", HEADER_DEFERRALS] {
            headers.insert(kept.into(), source[kept].clone());
        }
        headers.insert(HEADER_ATTEMPT.into(), Value::U32(1));
        headers.insert(HEADER_REPLAYS.into(), Value::I64(3));
        headers.insert(HEADER_LAST_REPLAY.into(), Value::Table(record.clone()));
        let expected = Properties {
            headers: Some(headers.clone()),
            ..props.clone()
        };
        assert_eq!(out, expected);
        for k in crate::dead::decode::BROKER_BOOKKEEPING {
            assert!(DROPPED_HEADERS.contains(&k), "the broker's {k} is dropped");
        }
        // Every header of the dead letter is either dropped (the documented list), replaced
        // (queuey's two and x-attempt) or kept as it was: nothing else.
        for (k, v) in &source {
            match out.header(k) {
                None => assert!(DROPPED_HEADERS.contains(&k.as_str()), "{k} dropped"),
                Some(now) if now == v => assert!(!DROPPED_HEADERS.contains(&k.as_str())),
                Some(_) => assert!(
                    [HEADER_ATTEMPT, HEADER_REPLAYS, HEADER_LAST_REPLAY].contains(&k.as_str()),
                    "{k} changed"
                ),
            }
        }
        // --keep-attempts: the same, with x-attempt as it was.
        let kept = replay_properties(&props, &dl, &stamp(), 7, false);
        headers.insert(HEADER_ATTEMPT.into(), Value::U32(3));
        assert_eq!(
            kept,
            Properties {
                headers: Some(headers),
                ..props.clone()
            }
        );
        // A dead letter without reason or attempts: the record says what is known.
        let mut bare = props.clone();
        bare.headers = None;
        let bare_dl = decode(
            &Message {
                properties: bare.clone(),
                body: b"x".to_vec(),
                ..Message::default()
            },
            "orders.dead",
            &RabbitMqOptions::default(),
        );
        let out = replay_properties(&bare, &bare_dl, &stamp(), 0, false);
        let Some(Value::Table(r)) = out.header(HEADER_LAST_REPLAY) else {
            panic!("no record");
        };
        assert_eq!(r.get("reason"), None);
        assert_eq!(r.get("attempts"), None);
        assert_eq!(r.get("deaths"), Some(&Value::I64(0)));
        assert_eq!(r.get("copy"), Some(&Value::I64(0)));
        assert_eq!(out.header(HEADER_REPLAYS), Some(&Value::I64(1)));
        assert_eq!(out.headers.as_ref().map(Table::len), Some(2));
    }

    /// Numbers past i64 are capped, never wrapped; a negative or mistyped replay count restarts.
    #[test]
    fn counts_saturate_and_mistyped_counts_restart() {
        let (mut props, mut dl) = fully_loaded();
        dl.attempts = Some(u64::MAX);
        dl.death_count = u64::MAX;
        let out = replay_properties(&props, &dl, &stamp(), u64::MAX, true);
        let Some(Value::Table(r)) = out.header(HEADER_LAST_REPLAY) else {
            panic!("no record");
        };
        assert_eq!(r.get("attempts"), Some(&Value::I64(i64::MAX)));
        assert_eq!(r.get("deaths"), Some(&Value::I64(i64::MAX)));
        assert_eq!(r.get("copy"), Some(&Value::I64(i64::MAX)));
        assert_eq!(copy_id(&out), Some(i64::MAX as u64));
        for (count, next) in [
            (Value::I64(i64::MAX), i64::MAX),
            // Past i64: capped too (it restarted at 1 before).
            (Value::Timestamp(u64::MAX), i64::MAX),
            (Value::Timestamp(1 << 63), i64::MAX),
            (Value::I64(-5), 1),
            (Value::LongStr(b"7".to_vec()), 1),
            (Value::U8(4), 5),
        ] {
            if let Some(h) = props.headers.as_mut() {
                h.insert(HEADER_REPLAYS.into(), count);
            }
            let out = replay_properties(&props, &dl, &stamp(), 1, true);
            assert_eq!(out.header(HEADER_REPLAYS), Some(&Value::I64(next)));
        }
        // A record whose copy is not a number, or negative, or that is not a table, has no id.
        let mut other = Properties::default();
        let mut t = Table::new();
        t.insert("copy".into(), Value::I64(-1));
        t.insert("run".into(), Value::I64(1));
        other.headers = Some(Table::from([(HEADER_LAST_REPLAY.into(), Value::Table(t))]));
        assert_eq!(copy_id(&other), None);
        assert!(!replayed_in_run(&other, "1"));
        assert_eq!(replay_mark(&other), None);
        // A number but no text run, or a run without a number: no mark either.
        let mut t = Table::new();
        t.insert("copy".into(), Value::I64(3));
        t.insert("run".into(), Value::I64(1));
        other.headers = Some(Table::from([(HEADER_LAST_REPLAY.into(), Value::Table(t))]));
        assert_eq!(copy_id(&other), Some(3));
        assert_eq!(replay_mark(&other), None);
        let mut t = Table::new();
        t.insert("run".into(), Value::LongStr(b"r".to_vec()));
        other.headers = Some(Table::from([(HEADER_LAST_REPLAY.into(), Value::Table(t))]));
        assert_eq!(replay_mark(&other), None);
        other.headers = Some(Table::from([(
            HEADER_LAST_REPLAY.into(),
            Value::LongStr(b"run-1".to_vec()),
        )]));
        assert_eq!(copy_id(&other), None);
        assert!(!replayed_in_run(&other, "run-1"));
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
