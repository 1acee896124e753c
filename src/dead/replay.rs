//! PURE: what a replayed dead letter carries, where it goes, and how a run recognises its own
//! copies.
//!
//! A replayed copy keeps the body and every property (content type, message id, priority,
//! correlation id, timestamp, type, app id, delivery mode...) unchanged. Its headers change:
//!
//! - the attempt counters `x-queuey-attempt` and `x-queuey-attempts` are removed, so the worker
//!   sees a first attempt and gets its full retries back;
//! - the death record is removed: the broker's `x-death`, `x-first-death-*`, `x-last-death-*`
//!   and `x-delivery-count`, and queuey's `x-queuey-death-reason` and
//!   `x-queuey-original-queue`. RabbitMQ up to 3.12 keeps counting on a client-set `x-death`,
//!   3.13.0-3.13.2 mishandled it, and 4.x ignores it and starts afresh; removing it gives the
//!   same fresh history on every version. If the copy dies again, it dies with a clean record;
//! - what the death was is kept, compactly, in `x-queuey-last-replay`, a table: `run` (the
//!   replay run's id), `copy` (the copy's number in the run), `time` (timestamp), `from` (the
//!   dead-letter queue or export file), `reason`,
//!   `original-queue`, `attempts` and `deaths` (the x-death count);
//! - `x-queuey-replays` counts the replays of this message (1 on the first), so a message
//!   replayed again and again is visible in `dead ls` and `dead show`.
//!
//! Other headers (the application's, `x-queuey-deferrals`) are kept.

use super::decode::{DeadLetter, HEADER_RESCUED_AT, X_DEATH, X_DELIVERY_COUNT};
use super::value::{Properties, Table, Value};
use crate::topology::{
    HEADER_ATTEMPT, HEADER_ATTEMPTS, HEADER_DEATH_REASON, HEADER_ORIGINAL_QUEUE,
};

/// How many times a message was replayed.
pub const HEADER_REPLAYS: &str = "x-queuey-replays";
/// The last replay: a table (see the module docs).
pub const HEADER_LAST_REPLAY: &str = "x-queuey-last-replay";

/// Headers a replayed copy drops.
pub const DROPPED_HEADERS: [&str; 14] = [
    HEADER_ATTEMPT,
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

/// The properties of the replayed copy of a dead letter; `copy` numbers the copies of a run.
pub fn replay_properties(
    props: &Properties,
    dl: &DeadLetter,
    stamp: &ReplayStamp,
    copy: u64,
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
    use crate::topology::RabbitMqOptions;

    fn dead_letter() -> (Properties, DeadLetter) {
        let mut h = Table::new();
        h.insert(HEADER_ATTEMPTS.into(), Value::I32(5));
        h.insert(HEADER_ATTEMPT.into(), Value::I32(5));
        h.insert(
            HEADER_DEATH_REASON.into(),
            Value::LongStr(b"timeout".to_vec()),
        );
        h.insert(
            HEADER_ORIGINAL_QUEUE.into(),
            Value::LongStr(b"orders".to_vec()),
        );
        h.insert("x-queuey-deferrals".into(), Value::I32(2));
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
    fn a_replayed_copy_resets_attempts_and_keeps_the_rest() {
        let (props, dl) = dead_letter();
        let out = replay_properties(&props, &dl, &stamp(), 7);
        assert_eq!(out.message_id, props.message_id);
        assert_eq!(out.priority, Some(4));
        assert_eq!(out.content_type, props.content_type);
        for gone in [
            HEADER_ATTEMPTS,
            HEADER_ATTEMPT,
            HEADER_DEATH_REASON,
            X_DEATH,
            "x-first-death-queue",
        ] {
            assert!(out.header(gone).is_none(), "{gone} should be gone");
        }
        assert_eq!(out.header("tenant"), props.header("tenant"));
        assert_eq!(out.header("x-queuey-deferrals"), Some(&Value::I32(2)));
        assert_eq!(out.header(HEADER_REPLAYS), Some(&Value::I64(1)));
        let Some(Value::Table(record)) = out.header(HEADER_LAST_REPLAY) else {
            panic!("no replay record");
        };
        assert_eq!(
            record.get("reason").and_then(Value::as_text),
            Some("timeout")
        );
        assert_eq!(record.get("attempts"), Some(&Value::I64(5)));
        assert_eq!(record.get("time"), Some(&Value::Timestamp(42)));
        assert_eq!(copy_id(&out), Some(7));
        assert_eq!(copy_id(&props), None);
        assert!(replayed_in_run(&out, "run-1"));
        assert!(!replayed_in_run(&out, "run-2"));
        assert!(!replayed_in_run(&props, "run-1"));
    }

    #[test]
    fn replays_count_up() {
        let (props, dl) = dead_letter();
        let once = replay_properties(&props, &dl, &stamp(), 7);
        let twice = replay_properties(&once, &dl, &stamp(), 2);
        assert_eq!(twice.header(HEADER_REPLAYS), Some(&Value::I64(2)));
    }

    #[test]
    fn targets() {
        let (_, dl) = dead_letter();
        assert_eq!(target(&dl, None), "orders");
        assert_eq!(target(&dl, Some("other")), "other");
    }
}
