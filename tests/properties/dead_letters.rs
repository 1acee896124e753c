//! Dead letters on arbitrary headers and bodies: the decoder never panics and follows the
//! reading order, the typed JSON forms (the export format's) round-trip, the journal's digest is
//! the one defined, `dead show`'s rendering never panics.

use proptest::prelude::*;
use queuey_cli::dead::decode::{self, Message, Source, X_DEATH};
use queuey_cli::dead::value::{Properties, Table, Value};
use queuey_cli::topology::{
    HEADER_ATTEMPTS, HEADER_DEATH_REASON, HEADER_ORIGINAL_QUEUE, RabbitMqOptions,
    parse_deferred_queue_name,
};

/// Any AMQP value, nested a few levels; floats finite so that equality holds.
fn any_value() -> impl Strategy<Value = Value> {
    let leaf = prop_oneof![
        any::<bool>().prop_map(Value::Bool),
        any::<i8>().prop_map(Value::I8),
        any::<u8>().prop_map(Value::U8),
        any::<i16>().prop_map(Value::I16),
        any::<u16>().prop_map(Value::U16),
        any::<i32>().prop_map(Value::I32),
        any::<u32>().prop_map(Value::U32),
        any::<i64>().prop_map(Value::I64),
        (-1e6f32..1e6).prop_map(Value::F32),
        (-1e12f64..1e12).prop_map(Value::F64),
        (any::<u8>(), any::<u32>()).prop_map(|(scale, value)| Value::Decimal { scale, value }),
        "\\PC{0,12}".prop_map(Value::ShortStr),
        proptest::collection::vec(any::<u8>(), 0..16).prop_map(Value::LongStr),
        "(queue|rejected|expired|maxlen|q\\.deferred\\.[0-9]{1,4}|count|time)"
            .prop_map(|s| Value::LongStr(s.into_bytes())),
        any::<u64>().prop_map(Value::Timestamp),
        proptest::collection::vec(any::<u8>(), 0..8).prop_map(Value::Bytes),
        Just(Value::Void),
    ];
    leaf.prop_recursive(4, 48, 6, |inner| {
        prop_oneof![
            proptest::collection::vec(inner.clone(), 0..6).prop_map(Value::Array),
            proptest::collection::btree_map(
                "(queue|reason|count|time|exchange|routing-keys|original-expiration|[a-z]{1,6})",
                inner,
                0..7
            )
            .prop_map(Value::Table),
        ]
    })
}

fn any_headers() -> impl Strategy<Value = Table> {
    proptest::collection::btree_map(
        prop_oneof![
            Just(X_DEATH.to_owned()),
            Just(HEADER_ATTEMPTS.to_owned()),
            Just(HEADER_ORIGINAL_QUEUE.to_owned()),
            Just(HEADER_DEATH_REASON.to_owned()),
            Just("x-first-death-queue".to_owned()),
            Just("x-delivery-count".to_owned()),
            "[a-z-]{1,10}",
        ],
        any_value(),
        0..8,
    )
}

/// The ledger's digest as defined: the broker's bookkeeping and queuey's rescue mark left out,
/// and no headers the same as an empty table.
fn digest_as_defined(props: &Properties, body: &[u8]) -> String {
    let mut stable = props.clone();
    let h = stable.headers.get_or_insert_with(Table::new);
    h.remove("x-delivery-count");
    h.remove("x-acquired-count");
    h.remove("x-queuey-rescued-at");
    sha_of(&stable, body)
}

fn sha_of(stable: &Properties, body: &[u8]) -> String {
    use sha2::{Digest, Sha256};
    let text = properties_as_first_defined(stable).to_string();
    let mut h = Sha256::new();
    h.update((text.len() as u64).to_be_bytes());
    h.update(text.as_bytes());
    h.update(body);
    h.finalize().iter().map(|b| format!("{b:02x}")).collect()
}

/// `Properties::to_json` as it was first written: a JSON tree built field by field.
fn properties_as_first_defined(p: &Properties) -> serde_json::Value {
    let mut m = serde_json::Map::new();
    let mut put = |k: &str, v: Option<serde_json::Value>| {
        if let Some(v) = v {
            m.insert(k.to_owned(), v);
        }
    };
    let text = |v: &Option<String>| v.clone().map(serde_json::Value::from);
    put("content_type", text(&p.content_type));
    put("content_encoding", text(&p.content_encoding));
    put("headers", p.headers.as_ref().map(table_as_first_defined));
    put(
        "delivery_mode",
        p.delivery_mode.map(serde_json::Value::from),
    );
    put("priority", p.priority.map(serde_json::Value::from));
    put("correlation_id", text(&p.correlation_id));
    put("reply_to", text(&p.reply_to));
    put("expiration", text(&p.expiration));
    put("message_id", text(&p.message_id));
    put("timestamp", p.timestamp.map(serde_json::Value::from));
    put("type", text(&p.kind));
    put("user_id", text(&p.user_id));
    put("app_id", text(&p.app_id));
    put("cluster_id", text(&p.cluster_id));
    serde_json::Value::Object(m)
}

fn table_as_first_defined(t: &Table) -> serde_json::Value {
    serde_json::Value::Object(
        t.iter()
            .map(|(k, v)| (k.clone(), value_as_first_defined(v)))
            .collect(),
    )
}

fn value_as_first_defined(v: &Value) -> serde_json::Value {
    use base64::Engine as _;
    use serde_json::json;
    let b64 = |b: &[u8]| base64::engine::general_purpose::STANDARD.encode(b);
    let float = |x: f64| {
        if x.is_finite() {
            json!(x)
        } else if x.is_nan() {
            json!("NaN")
        } else if x > 0.0 {
            json!("inf")
        } else {
            json!("-inf")
        }
    };
    let t = v.type_name();
    match v {
        Value::Bool(b) => json!({"type": t, "value": b}),
        Value::I8(n) => json!({"type": t, "value": n}),
        Value::U8(n) => json!({"type": t, "value": n}),
        Value::I16(n) => json!({"type": t, "value": n}),
        Value::U16(n) => json!({"type": t, "value": n}),
        Value::I32(n) => json!({"type": t, "value": n}),
        Value::U32(n) => json!({"type": t, "value": n}),
        Value::I64(n) => json!({"type": t, "value": n}),
        Value::F32(x) => json!({"type": t, "value": float(f64::from(*x))}),
        Value::F64(x) => json!({"type": t, "value": float(*x)}),
        Value::Decimal { scale, value } => json!({"type": t, "scale": scale, "value": value}),
        Value::ShortStr(s) => json!({"type": t, "value": s}),
        Value::LongStr(b) => match std::str::from_utf8(b) {
            Ok(s) => json!({"type": t, "value": s}),
            Err(_) => json!({"type": t, "base64": b64(b)}),
        },
        Value::Timestamp(n) => json!({"type": t, "value": n}),
        Value::Array(items) => {
            json!({"type": t, "value": items.iter().map(value_as_first_defined).collect::<Vec<_>>()})
        }
        Value::Table(table) => json!({"type": t, "value": table_as_first_defined(table)}),
        Value::Bytes(b) => json!({"type": t, "base64": b64(b)}),
        Value::Void => json!({"type": t}),
    }
}

/// Headers with the floats [`any_value`] leaves out too (NaN, infinities, -0).
fn any_digest_headers() -> impl Strategy<Value = Table> {
    let special = prop_oneof![
        Just(Value::F64(f64::NAN)),
        Just(Value::F64(f64::INFINITY)),
        Just(Value::F32(f32::NEG_INFINITY)),
        Just(Value::F64(-0.0)),
        any::<f64>().prop_map(Value::F64),
        any::<f32>().prop_map(Value::F32),
    ];
    (
        any_headers(),
        proptest::collection::vec(("[a-z]{1,3}", special), 0..3),
    )
        .prop_map(|(mut headers, floats)| {
            headers.extend(floats);
            headers
        })
}

fn any_properties() -> impl Strategy<Value = Properties> {
    let text = || proptest::option::of(".{0,10}");
    (
        (
            text(),
            text(),
            proptest::option::of(any_digest_headers()),
            proptest::option::of(any::<u8>()),
            proptest::option::of(any::<u8>()),
            text(),
            text(),
        ),
        (
            text(),
            text(),
            proptest::option::of(any::<u64>()),
            text(),
            text(),
            text(),
            text(),
        ),
    )
        .prop_map(
            |(
                (
                    content_type,
                    content_encoding,
                    headers,
                    delivery_mode,
                    priority,
                    correlation_id,
                    reply_to,
                ),
                (expiration, message_id, timestamp, kind, user_id, app_id, cluster_id),
            )| Properties {
                content_type,
                content_encoding,
                headers,
                delivery_mode,
                priority,
                correlation_id,
                reply_to,
                expiration,
                message_id,
                timestamp,
                kind,
                user_id,
                app_id,
                cluster_id,
            },
        )
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(1000))]

    #[test]
    fn the_ledger_digest_is_the_one_defined(props in any_properties(), acquired in proptest::option::of(any::<i64>()), rescued in proptest::option::of(any::<u64>()), body in proptest::collection::vec(any::<u8>(), 0..64)) {
        // The export format is the same typed JSON, written through the same code.
        prop_assert_eq!(props.to_json(), properties_as_first_defined(&props));
        let digest = queuey_cli::dead::ledger::digest(&props, &body);
        prop_assert_eq!(&digest, &digest_as_defined(&props, &body));
        // The broker's bookkeeping and queuey's rescue mark change nothing.
        let mut counted = props.clone();
        let h = counted.headers.get_or_insert_with(Table::new);
        h.insert("x-delivery-count".into(), Value::I64(4));
        if let Some(n) = acquired {
            h.insert("x-acquired-count".into(), Value::I64(n));
        }
        if let Some(t) = rescued {
            h.insert("x-queuey-rescued-at".into(), Value::Timestamp(t));
        }
        prop_assert_eq!(queuey_cli::dead::ledger::digest(&counted, &body), digest);
    }
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(1500))]

    #[test]
    fn decoding_never_panics_and_follows_the_reading_order(headers in any_headers(), body in proptest::collection::vec(any::<u8>(), 0..64)) {
        let message = Message {
            properties: Properties { headers: Some(headers.clone()), ..Properties::default() },
            body: body.clone(),
            ..Message::default()
        };
        let dl = decode::decode(&message, "q", &RabbitMqOptions::default());
        prop_assert_eq!(dl.size, body.len());
        // Never an empty name: the default exchange routes "" nowhere.
        prop_assert!(!dl.original_queue.is_empty());
        match headers.get(HEADER_ORIGINAL_QUEUE) {
            // An empty x-original-queue is read as absent (and named as a problem).
            Some(Value::ShortStr(s)) if s.is_empty() => {
                prop_assert_ne!(dl.original_queue_from, Source::Header);
            }
            Some(Value::LongStr(b)) if b.is_empty() => {
                prop_assert_ne!(dl.original_queue_from, Source::Header);
            }
            Some(Value::ShortStr(s)) => prop_assert_eq!(&dl.original_queue, s),
            Some(Value::LongStr(b)) => {
                prop_assert_eq!(dl.original_queue_from, Source::Header);
                if let Ok(s) = std::str::from_utf8(b) {
                    prop_assert_eq!(&dl.original_queue, s);
                }
            }
            _ => prop_assert_ne!(dl.original_queue_from, Source::Header),
        }
        // x-death's newest queue that is not one of q's hold queues: a name the library
        // never gives a hold queue (`q.deferred.0`, `q.deferred.007`) is a queue like another.
        if dl.original_queue_from == Source::XDeath {
            prop_assert!(!matches!(
                parse_deferred_queue_name("q", &dl.original_queue, &RabbitMqOptions::default()),
                Ok(Some(_))
            ));
        }
        match headers.get(HEADER_ATTEMPTS).and_then(Value::as_integer) {
            Some(n) if n >= 0 => prop_assert_eq!(dl.attempts.map(i128::from), Some(n)),
            _ => prop_assert_eq!(dl.attempts, None),
        }
        if !headers.contains_key(X_DEATH) {
            prop_assert!(dl.deaths.is_empty());
        }
        // Its JSON (what `dead show -o json` builds on) carries what was decoded, whatever
        // the bytes: the name, the counts and every problem, word for word.
        let json: serde_json::Value = serde_json::from_str(&serde_json::to_string(&dl).unwrap()).unwrap();
        prop_assert_eq!(json["original_queue"].as_str(), Some(dl.original_queue.as_str()));
        prop_assert_eq!(json["size"].as_u64(), Some(body.len() as u64));
        prop_assert_eq!(json["attempts"].as_u64(), dl.attempts);
        prop_assert_eq!(json["death_count"].as_u64(), Some(dl.death_count));
        let problems: Vec<&str> = json["problems"].as_array().unwrap().iter().filter_map(serde_json::Value::as_str).collect();
        prop_assert_eq!(problems, dl.problems.iter().map(String::as_str).collect::<Vec<_>>());
        let _ = decode::body_preview(&body, 20);
    }

    #[test]
    fn typed_json_round_trips(v in any_value()) {
        let text = serde_json::to_string(&v.to_typed_json()).unwrap();
        let back = Value::from_typed_json(&serde_json::from_str(&text).unwrap()).unwrap();
        prop_assert_eq!(back, v);
    }

    #[test]
    fn display_never_panics(v in any_value()) {
        let _ = v.display();
        let _ = queuey_cli::output::sanitize::sanitize(&v.display());
    }
}
