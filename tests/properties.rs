//! Property tests of the pure core: hold-queue rounding and names against the queuey library
//! itself (the oracle), durations, dead-letter decoding, the envelope, the plan.

use std::time::Duration;

use proptest::prelude::*;
use queuey_cli::duration::{format_millis, parse_duration};
use queuey_cli::topology::{
    self, ARG_EXPIRES, ARG_MESSAGE_TTL, ArgValue, MAX_DEFERRAL_MS, MAX_TTL_MS, RabbitMqOptions,
};
use queuey_rabbitmq::topology as library;

const MS: u128 = 1_000_000;

/// Delays and granularities of every kind: the edges where rounding goes wrong (exact multiples
/// of a step and one nanosecond either side, zero, the limit and past it, sub-millisecond
/// values) as well as arbitrary ones.
fn any_duration() -> impl Strategy<Value = Duration> {
    prop_oneof![
        (0u64..=u64::MAX, 0u32..1_000_000_000).prop_map(|(s, n)| Duration::new(s, n)),
        (0u64..=3 * u64::from(MAX_DEFERRAL_MS)).prop_map(Duration::from_millis),
        (0u64..=u64::MAX).prop_map(Duration::from_nanos),
        (0u64..5_000_000).prop_map(Duration::from_nanos),
        near_multiples(),
        (0u64..=3).prop_map(|d| Duration::from_millis(u64::from(MAX_DEFERRAL_MS) - 1 + d)),
        Just(Duration::ZERO),
        Just(Duration::MAX),
    ]
}

/// k whole steps of a common granularity, exactly or one nanosecond off.
fn near_multiples() -> impl Strategy<Value = Duration> {
    (
        prop::sample::select(vec![1u64, 7, 250, 1_000, 60_000]),
        0u64..100_000,
        prop::sample::select(vec![-1i64, 0, 1]),
    )
        .prop_map(|(step_ms, k, off)| {
            let nanos = u128::from(step_ms * k) * MS;
            let nanos = nanos.saturating_add_signed(i128::from(off));
            Duration::from_nanos(u64::try_from(nanos).unwrap_or(u64::MAX))
        })
}

/// Whole-millisecond steps: small ones, common ones, any up to the limit, and the limit.
fn any_step() -> impl Strategy<Value = u64> {
    prop_oneof![
        1u64..=10_000,
        prop::sample::select(vec![1u64, 7, 250, 1_000, 60_000]),
        1u64..=u64::from(MAX_DEFERRAL_MS),
        Just(u64::from(MAX_DEFERRAL_MS)),
    ]
}

/// Delays for a step of `step_ms`: k steps exactly or one nanosecond either side (k from 0 to
/// past the limit), anything up to past the limit, and any duration at all.
fn around_steps(step_ms: u64) -> impl Strategy<Value = Duration> {
    let max_k = u64::from(MAX_DEFERRAL_MS) / step_ms + 2;
    let exact = move |k: u64, off: i64| {
        let nanos =
            (u128::from(k) * u128::from(step_ms) * MS).saturating_add_signed(i128::from(off));
        Duration::from_nanos(u64::try_from(nanos).unwrap_or(u64::MAX))
    };
    prop_oneof![
        3 => (0..=max_k, -1i64..=1).prop_map(move |(k, off)| exact(k, off)),
        1 => (0u64..=3, -1i64..=1).prop_map(move |(k, off)| exact(k, off)),
        1 => (max_k - 3..=max_k, -1i64..=1).prop_map(move |(k, off)| exact(k, off)),
        1 => (0u64..=2 * u64::from(MAX_DEFERRAL_MS) * 1_000_000).prop_map(Duration::from_nanos),
        1 => any_duration(),
    ]
}

/// The hold TTL by definition: the least k >= 1 with k steps >= the delay, as milliseconds;
/// `None` when that passes MAX_DEFERRAL_MS. Floor division in nanoseconds, then one more step
/// when the floor falls short.
fn smallest_multiple_oracle(delay: Duration, step_ms: u64) -> Option<u32> {
    let step = u128::from(step_ms) * MS;
    let delay = delay.as_nanos();
    let mut k = delay / step;
    if k * step < delay {
        k += 1;
    }
    let k = k.max(1);
    let ttl_ms = k * u128::from(step_ms);
    (ttl_ms <= u128::from(MAX_DEFERRAL_MS)).then(|| u32::try_from(ttl_ms).expect("within u32"))
}

#[test]
fn the_rounding_oracle_itself() {
    let ms = Duration::from_millis;
    assert_eq!(smallest_multiple_oracle(Duration::ZERO, 250), Some(250));
    assert_eq!(smallest_multiple_oracle(ms(500), 250), Some(500));
    assert_eq!(
        smallest_multiple_oracle(ms(500) + Duration::from_nanos(1), 250),
        Some(750)
    );
    assert_eq!(
        smallest_multiple_oracle(ms(500) - Duration::from_nanos(1), 250),
        Some(500)
    );
    let limit = u64::from(MAX_DEFERRAL_MS);
    assert_eq!(
        smallest_multiple_oracle(ms(limit), 1),
        Some(MAX_DEFERRAL_MS)
    );
    assert_eq!(
        smallest_multiple_oracle(ms(limit) + Duration::from_nanos(1), 1),
        None
    );
    assert_eq!(smallest_multiple_oracle(Duration::MAX, 1), None);
}

fn any_granularity() -> impl Strategy<Value = Duration> {
    prop_oneof![
        prop::sample::select(vec![1u64, 7, 250, 1_000, 60_000]).prop_map(Duration::from_millis),
        (1u64..=u64::from(MAX_DEFERRAL_MS)).prop_map(Duration::from_millis),
        any_duration(),
    ]
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(4000))]

    /// The oracle: queuey computes the library's hold queue TTL for every input, zero and huge
    /// granularities included.
    #[test]
    fn deferred_ttl_is_the_librarys(delay in any_duration(), granularity in any_granularity()) {
        prop_assert_eq!(
            topology::deferred_ttl_ms(delay, granularity),
            library::deferred_ttl_ms(delay, granularity)
        );
    }

    /// What the rounding must mean, with an oracle that shares nothing with the code (which
    /// rounds the delay up to whole milliseconds, then divides rounding up): in nanoseconds,
    /// u128, floor division and a correction. The delay is chosen around the step itself, as
    /// often as not exactly k steps or one nanosecond either side, up to past the limit.
    #[test]
    fn deferred_ttl_is_the_smallest_step_multiple_not_below_the_delay(
        (step_ms, delay) in any_step().prop_flat_map(|step_ms| (Just(step_ms), around_steps(step_ms))),
    ) {
        let granularity = Duration::from_millis(step_ms);
        let expected = smallest_multiple_oracle(delay, step_ms);
        let got = topology::deferred_ttl_ms(delay, granularity);
        prop_assert_eq!(got, expected, "delay {:?}, step {} ms", delay, step_ms);
        if let Some(ttl) = got {
            let args = topology::deferred_queue_args("q", ttl);
            let (ArgValue::Int(t), ArgValue::Int(e)) = (&args[ARG_MESSAGE_TTL], &args[ARG_EXPIRES]) else {
                panic!("integer arguments");
            };
            prop_assert_eq!(*t, i64::from(ttl));
            prop_assert!(e > t, "x-expires strictly above x-message-ttl");
            prop_assert!(*e <= i64::from(MAX_TTL_MS), "x-expires within MAX_TTL_MS");
        }
    }

    #[test]
    fn names_are_the_librarys(
        queue in "[a-zA-Z0-9._ü -]{0,40}",
        suffix in prop_oneof![Just(".dead".to_owned()), Just(".deferred".to_owned()), "[a-z.-]{1,8}"],
        ttl in any::<u32>(),
    ) {
        prop_assert_eq!(
            topology::dead_queue_name(&queue, &suffix),
            library::dead_queue_name(&queue, &suffix)
        );
        prop_assert_eq!(
            topology::deferred_queue_name(&queue, &suffix, ttl),
            library::deferred_queue_name(&queue, &suffix, ttl)
        );
    }

    #[test]
    fn hold_queue_names_round_trip(queue in "[a-z.]{1,20}", ttl in 1u32..=MAX_DEFERRAL_MS) {
        let o = RabbitMqOptions::default();
        let name = o.deferred_queue(&queue, ttl);
        prop_assert_eq!(topology::parse_deferred_queue_name(&queue, &name, &o), Ok(Some(ttl)));
        prop_assert_eq!(topology::parse_deferred_queue_name(&queue, &o.dead_queue(&queue), &o), Ok(None));
    }

    #[test]
    fn durations_round_trip(ms in 0u64..=u64::from(MAX_TTL_MS) * 10) {
        prop_assert_eq!(parse_duration(&format_millis(ms)), Ok(Duration::from_millis(ms)));
    }

    #[test]
    fn duration_parser_never_panics(s in "\\PC{0,30}") {
        let _ = parse_duration(&s);
    }
}

/// Every public constant of `queuey_rabbitmq::topology` has the library's value in queuey.
#[test]
fn constants_are_the_librarys() {
    assert_eq!(topology::DEFAULT_DEAD_SUFFIX, library::DEFAULT_DEAD_SUFFIX);
    assert_eq!(
        topology::DEFAULT_DEFERRED_SUFFIX,
        library::DEFAULT_DEFERRED_SUFFIX
    );
    assert_eq!(topology::HEADER_ATTEMPT, library::HEADER_ATTEMPT);
    assert_eq!(topology::HEADER_ATTEMPTS, library::HEADER_ATTEMPTS);
    assert_eq!(topology::HEADER_DEATH_REASON, library::HEADER_DEATH_REASON);
    assert_eq!(topology::HEADER_DEFERRALS, library::HEADER_DEFERRALS);
    assert_eq!(
        topology::HEADER_ORIGINAL_QUEUE,
        library::HEADER_ORIGINAL_QUEUE
    );
    assert_eq!(
        topology::ARG_DEAD_LETTER_EXCHANGE,
        library::ARG_DEAD_LETTER_EXCHANGE
    );
    assert_eq!(
        topology::ARG_DEAD_LETTER_ROUTING_KEY,
        library::ARG_DEAD_LETTER_ROUTING_KEY
    );
    assert_eq!(topology::ARG_EXPIRES, library::ARG_EXPIRES);
    assert_eq!(topology::ARG_MAX_PRIORITY, library::ARG_MAX_PRIORITY);
    assert_eq!(topology::ARG_MESSAGE_TTL, library::ARG_MESSAGE_TTL);
    assert_eq!(topology::MAX_TTL_MS, library::MAX_TTL_MS);
    assert_eq!(topology::MAX_DEFERRAL_MS, library::MAX_DEFERRAL_MS);
    assert_eq!(
        topology::DEFAULT_MAX_PRIORITY,
        queuey_core::DEFAULT_MAX_PRIORITY
    );
    // QueueConfig::new's defaults are queuey's defaults.
    let library_default = queuey_core::QueueConfig::new("q");
    let ours = topology::QueueConfig::default();
    assert_eq!(ours.max_priority, library_default.max_priority);
    assert_eq!(ours.message_ttl, library_default.message_ttl);
    assert!(library_default.durable, "queuey declares durable queues");
}

mod dead_letters {
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

    /// The journal's digest as it was first defined (the JSON tree of the properties, printed,
    /// then SHA-256): the oracle for the digest written without the tree, so that a journal an
    /// earlier queuey left is read the same way.
    fn digest_as_first_defined(props: &Properties, body: &[u8]) -> String {
        let mut stable = props.clone();
        if let Some(h) = stable.headers.as_mut() {
            h.remove("x-delivery-count");
        }
        sha_of(&stable, body)
    }

    /// The digest of journal format 3: the broker's bookkeeping all left out, and no headers
    /// the same as an empty table.
    fn digest_as_defined_in_format_3(props: &Properties, body: &[u8]) -> String {
        let mut stable = props.clone();
        let h = stable.headers.get_or_insert_with(Table::new);
        h.remove("x-delivery-count");
        h.remove("x-acquired-count");
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
        fn the_journal_digest_is_the_one_defined_and_the_first_where_it_can_be(props in any_properties(), acquired in proptest::option::of(any::<i64>()), body in proptest::collection::vec(any::<u8>(), 0..64)) {
            // The export format is the same typed JSON, written through the same code.
            prop_assert_eq!(props.to_json(), properties_as_first_defined(&props));
            let digest = queuey_cli::dead::journal::digest(&props, &body);
            prop_assert_eq!(&digest, &digest_as_defined_in_format_3(&props, &body));
            // Journals written before still match every dead letter with headers of its own
            // (all of a queuey application's, all of the broker's) and no x-acquired-count.
            if props.headers.is_some() && props.header("x-acquired-count").is_none() {
                prop_assert_eq!(&digest, &digest_as_first_defined(&props, &body));
            }
            // The broker's bookkeeping changes nothing.
            let mut counted = props.clone();
            let h = counted.headers.get_or_insert_with(Table::new);
            h.insert("x-delivery-count".into(), Value::I64(4));
            if let Some(n) = acquired {
                h.insert("x-acquired-count".into(), Value::I64(n));
            }
            prop_assert_eq!(queuey_cli::dead::journal::digest(&counted, &body), digest);
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
            match headers.get(HEADER_ORIGINAL_QUEUE) {
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
}

// ---------------------------------------------------------------------------------------------
// The plan: live arguments (JSON from the management API) against computed ones.
// ---------------------------------------------------------------------------------------------

mod plan_properties {
    use proptest::prelude::*;
    use queuey_cli::cli::QueueSettingsArgs;
    use queuey_cli::plan::{
        self, DiffKind, LiveDefinition, ReplyValue, Status, args_json, long_lived_queues,
        parse_inequivalent, same_value,
    };
    use queuey_cli::queue::QueueSettings;
    use queuey_cli::settings::resolve_queue;
    use queuey_cli::topology::{ArgValue, MAX_TTL_MS, QueueType};
    use serde_json::{Map, Value, json};

    /// Any valid settings of a logical queue.
    fn any_settings() -> impl Strategy<Value = QueueSettings> {
        (
            "[a-z][a-z0-9 .ü-]{0,20}",
            prop::option::of(0u64..=u64::from(MAX_TTL_MS)),
            prop::option::of(1i64..=255),
            any::<bool>(),
            prop::option::of(1i64..=1000),
        )
            .prop_map(|(name, ttl, priority, is_quorum, limit)| {
                let flags = QueueSettingsArgs {
                    message_ttl: ttl.map(|t| format!("{t}ms")),
                    max_priority: if is_quorum { None } else { priority },
                    queue_type: Some(if is_quorum { "quorum" } else { "classic" }.into()),
                    delivery_limit: if is_quorum { limit } else { None },
                    ..QueueSettingsArgs::default()
                };
                resolve_queue(&name, &flags, None).expect("valid settings")
            })
    }

    /// An integer as the API (or another client's JSON) may spell it.
    fn spellings(n: i64) -> Vec<Value> {
        let mut out = vec![json!(n)];
        if n >= 0 {
            out.push(json!(n as u64));
        }
        if (n as f64) as i64 == n && n.unsigned_abs() < (1u64 << 53) {
            out.push(json!(n as f64));
        }
        out
    }

    /// The live definition another client would create with the computed arguments.
    fn live_of(args: Map<String, Value>, queue_type: &str) -> LiveDefinition {
        LiveDefinition {
            arguments: args,
            durable: Some(true),
            auto_delete: Some(false),
            exclusive: Some(false),
            queue_type: Some(queue_type.to_owned()),
            ..LiveDefinition::default()
        }
    }

    proptest! {
        #![proptest_config(ProptestConfig::with_cases(2000))]

        #[test]
        fn integers_compare_by_value_whatever_their_spelling(n in any::<i64>(), m in any::<i64>()) {
            for v in spellings(n) {
                prop_assert!(same_value(&v, &ArgValue::Int(n)), "{v} == {n}");
                prop_assert_eq!(same_value(&v, &ArgValue::Int(m)), n == m, "{} vs {}", v, m);
                prop_assert!(!same_value(&Value::from(n.to_string()), &ArgValue::Int(n)));
            }
        }

        #[test]
        fn a_queue_declared_by_another_client_with_the_same_arguments_is_in_sync(
            q in any_settings(),
            explicit_classic in any::<bool>(),
            ignored in prop::collection::btree_map("x-other-[a-z]{1,8}", any::<i32>(), 0..3),
            seed in any::<u64>(),
        ) {
            for computed in long_lived_queues(&q, QueueType::Classic) {
                // Same values, integers spelled the way another client's JSON may spell them.
                let mut args: Map<String, Value> = Map::new();
                for (i, (k, v)) in computed.arguments.iter().enumerate() {
                    let value = match v {
                        ArgValue::Int(n) => {
                            let s = spellings(*n);
                            s[(seed as usize + i) % s.len()].clone()
                        }
                        ArgValue::Str(s) => json!(s),
                    };
                    args.insert(k.clone(), value);
                }
                if explicit_classic && computed.queue_type.as_str() == "classic" {
                    args.insert("x-queue-type".into(), json!("classic"));
                }
                for (k, v) in &ignored {
                    args.insert(k.clone(), json!(v));
                }
                let live = live_of(args, computed.queue_type.as_str());
                let p = plan::diff_queue(&computed, Some(&live));
                prop_assert_eq!(p.status, Status::InSync, "{:?}", p.differences);
                prop_assert_eq!(p.ignored_arguments.len(), ignored.len());
            }
        }

        #[test]
        fn an_enforced_extra_or_a_changed_value_is_always_drift(
            q in any_settings(),
            extra in prop::sample::select(vec!["x-max-length", "x-max-length-bytes", "x-overflow", "x-expires", "x-single-active-consumer"]),
            bump in 1i64..1000,
        ) {
            for computed in long_lived_queues(&q, QueueType::Classic) {
                let mut args = args_json(&computed.arguments);
                args.insert(extra.into(), json!(10));
                let p = plan::diff_queue(&computed, Some(&live_of(args, computed.queue_type.as_str())));
                prop_assert_eq!(p.status, Status::Drift);
                prop_assert!(p.differences.iter().any(|d| d.field == extra && d.kind == DiffKind::Extra));

                // Every integer argument changed is one Different entry with both values.
                for (k, v) in &computed.arguments {
                    if let ArgValue::Int(n) = v {
                        let mut args = args_json(&computed.arguments);
                        args.insert(k.clone(), json!(n.saturating_add(bump)));
                        let p = plan::diff_queue(&computed, Some(&live_of(args, computed.queue_type.as_str())));
                        prop_assert_eq!(p.differences.len(), 1);
                        prop_assert_eq!(p.differences[0].kind, DiffKind::Different);
                        prop_assert_eq!(&p.differences[0].computed, &Some(json!(n)));
                    }
                }
            }
        }

        #[test]
        fn the_406_parser_never_panics_and_reads_what_was_not_cut(
            arg in "x-[a-z-]{1,20}",
            queue in "\\PC{0,120}",
            vhost in "\\PC{0,20}",
            received in prop::option::of("[a-z0-9' ]{0,12}"),
            current in prop::option::of("[a-z0-9' ]{0,12}"),
            cut_at in 0usize..400,
        ) {
            let side = |v: &Option<String>, with_type: bool| match v {
                None => "none".to_owned(),
                Some(v) if with_type => format!("the value '{v}' of type 'longstr'"),
                Some(v) => format!("'{v}'"),
            };
            let typed = received.is_none() || current.is_none();
            let text = format!(
                "PRECONDITION_FAILED - inequivalent arg '{arg}' for queue '{queue}' in vhost '{vhost}': received {} but current is {}",
                side(&received, typed), side(&current, typed)
            );
            let expect = |v: &Option<String>| match v {
                None => ReplyValue::Absent,
                Some(v) => ReplyValue::Value { text: v.clone(), type_name: typed.then(|| "longstr".to_owned()) },
            };
            if received.is_some() || current.is_some() {
                let p = parse_inequivalent(&text, &queue, &vhost).expect("parsed");
                prop_assert_eq!(&p.argument, &arg);
                prop_assert_eq!(p.received, expect(&received));
                prop_assert_eq!(p.current, expect(&current));
            }
            // The broker cuts long replies at 255 bytes: whatever the cut, no panic, the argument
            // name survives when it was not itself cut, and a value is either whole or Cut.
            if cut_at < text.len() {
                let mut at = cut_at;
                while !text.is_char_boundary(at) { at -= 1; }
                let cut = format!("{}...", &text[..at]);
                if let Some(p) = parse_inequivalent(&cut, &queue, &vhost) {
                    let head = "PRECONDITION_FAILED - inequivalent arg '".len();
                    if at > head + arg.len() {
                        prop_assert_eq!(&p.argument, &arg);
                    }
                    if p.current != ReplyValue::Cut {
                        prop_assert_eq!(p.current, expect(&current));
                    }
                }
            }
        }
    }
}

mod timestamp_properties {
    use proptest::prelude::*;
    use queuey_cli::output::time::{format_utc, parse_timestamp};

    proptest! {
        #[test]
        fn broker_timestamps_round_trip(secs in 0i64..=253_402_300_799) {
            let ms = secs * 1000;
            prop_assert_eq!(parse_timestamp(&format_utc(ms)), Some(ms));
            let iso = format_utc(ms).replace('Z', ".000+00:00");
            prop_assert_eq!(parse_timestamp(&iso), Some(ms));
        }

        #[test]
        fn the_timestamp_parser_never_panics(s in "\\PC{0,40}", t in "[0-9T:. +Z-]{0,32}") {
            let _ = parse_timestamp(&s);
            let _ = parse_timestamp(&t);
        }
    }
}

// ---------------------------------------------------------------------------------------------
// The envelope in a body: decoded exactly when the library decodes it, and a replay's attempt
// reset that changes nothing else.
// ---------------------------------------------------------------------------------------------

mod envelope_properties {
    use proptest::prelude::*;
    use queuey_cli::dead::envelope;
    use queuey_core::Envelope as LibraryEnvelope;

    fn ws() -> impl Strategy<Value = String> {
        prop::sample::select(vec!["", "", " ", "\n", "\t", "  \r\n "]).prop_map(str::to_owned)
    }

    /// `s` as a JSON string literal, escaping the characters chosen by `mask` (and always the
    /// ones JSON requires) as `\uXXXX`, surrogate pairs included.
    fn quoted(s: &str, mask: u64) -> String {
        let mut out = String::from("\"");
        for (i, c) in s.chars().enumerate() {
            let forced = c == '"' || c == '\\' || (c as u32) < 0x20;
            if forced || (mask >> (i % 64)) & 1 == 1 {
                let mut units = [0u16; 2];
                for u in c.encode_utf16(&mut units) {
                    out.push_str(&format!("\\u{:04x}", u));
                }
            } else {
                out.push(c);
            }
        }
        out.push('"');
        out
    }

    fn text() -> impl Strategy<Value = String> {
        prop_oneof!["[a-zA-Z0-9:_. -]{0,12}", "\\PC{0,8}", ".{0,6}"]
    }

    fn string_literal() -> impl Strategy<Value = String> {
        (text(), any::<u64>()).prop_map(|(s, m)| quoted(&s, m))
    }

    fn number_literal() -> impl Strategy<Value = String> {
        prop_oneof![
            any::<i64>().prop_map(|n| n.to_string()),
            any::<u64>().prop_map(|n| n.to_string()),
            prop::sample::select(vec![
                "1.50",
                "-0",
                "0.0",
                "1e3",
                "2.5E-3",
                "-1.0e+2",
                "12345678901234567890123",
                "3.141592653589793238462643383279",
                "5e-324",
            ])
            .prop_map(str::to_owned),
            any::<f64>()
                .prop_filter("finite", |f| f.is_finite())
                .prop_map(|f| f.to_string()),
        ]
    }

    /// Any JSON value as text, with varied whitespace and spellings.
    fn value_literal() -> impl Strategy<Value = String> {
        let leaf = prop_oneof![
            Just("null".to_owned()),
            Just("true".to_owned()),
            Just("false".to_owned()),
            number_literal(),
            string_literal(),
        ];
        leaf.prop_recursive(4, 24, 5, |inner| {
            prop_oneof![
                (prop::collection::vec((ws(), inner.clone(), ws()), 0..5)).prop_map(|items| {
                    let parts: Vec<String> = items
                        .into_iter()
                        .map(|(a, v, b)| format!("{a}{v}{b}"))
                        .collect();
                    format!("[{}]", parts.join(","))
                }),
                (prop::collection::vec((ws(), string_literal(), ws(), inner, ws()), 0..5))
                    .prop_map(|items| {
                        let parts: Vec<String> = items
                            .into_iter()
                            .map(|(a, k, b, v, c)| format!("{a}{k}{b}:{c}{v}"))
                            .collect();
                        format!("{{{}}}", parts.join(","))
                    }),
            ]
        })
    }

    fn uuid_literal() -> impl Strategy<Value = String> {
        (any::<u128>(), 0usize..5).prop_map(|(n, form)| {
            let u = uuid::Uuid::from_u128(n);
            let s = match form {
                0 => u.hyphenated().to_string(),
                1 => u.hyphenated().to_string().to_uppercase(),
                2 => u.simple().to_string(),
                3 => u.braced().to_string(),
                _ => u.urn().to_string(),
            };
            format!("\"{s}\"")
        })
    }

    /// A body the library decodes: its fields in any order, keys sometimes escaped, optional
    /// fields sometimes absent, unknown keys, any payload.
    fn envelope_body() -> impl Strategy<Value = String> {
        (
            uuid_literal(),
            string_literal(),
            string_literal(),
            any::<u32>(),
            any::<u64>(),
            prop::option::of(any::<u32>()),
            prop::option::of(any::<u8>()),
            prop::option::of(prop_oneof![string_literal(), Just("null".to_owned())]),
            value_literal(),
            prop::collection::vec(("x-[a-z]{1,5}", value_literal()), 0..3),
            (any::<u64>(), any::<u64>()),
            prop::collection::vec(ws(), 40),
        )
            .prop_map(
                |(
                    id,
                    job_type,
                    queue,
                    attempt,
                    enq,
                    deferrals,
                    priority,
                    corr,
                    payload,
                    extra,
                    (mask, order),
                    spaces,
                )| {
                    let mut fields: Vec<(String, String)> = vec![
                        ("job_id".into(), id),
                        ("job_type".into(), job_type),
                        ("queue".into(), queue),
                        ("attempt".into(), attempt.to_string()),
                        ("enqueued_at_ms".into(), enq.to_string()),
                        ("payload".into(), payload),
                    ];
                    if let Some(d) = deferrals {
                        fields.push(("deferrals".into(), d.to_string()));
                    }
                    if let Some(p) = priority {
                        fields.push(("priority".into(), p.to_string()));
                    }
                    if let Some(c) = corr {
                        fields.push(("correlation_id".into(), c));
                    }
                    fields.extend(extra);
                    // A deterministic shuffle from `order`.
                    let n = fields.len();
                    for i in (1..n).rev() {
                        let j = ((order >> (i % 60)) as usize ^ i.wrapping_mul(31)) % (i + 1);
                        fields.swap(i, j);
                    }
                    let mut sp = spaces.into_iter().cycle();
                    let mut out = format!("{}{{", sp.next().unwrap_or_default());
                    for (i, (k, v)) in fields.into_iter().enumerate() {
                        if i > 0 {
                            out.push(',');
                        }
                        // Keys are escaped in one body of four, so that most keep their plain
                        // spelling (which the edits of `near_envelope` look for).
                        let key_mask = if mask % 4 == 0 {
                            mask.rotate_left(i as u32)
                        } else {
                            0
                        };
                        let key = quoted(&k, key_mask);
                        out.push_str(&format!(
                            "{}{key}{}:{}{v}{}",
                            sp.next().unwrap_or_default(),
                            sp.next().unwrap_or_default(),
                            sp.next().unwrap_or_default(),
                            sp.next().unwrap_or_default()
                        ));
                    }
                    out.push('}');
                    out.push_str(&sp.next().unwrap_or_default());
                    out
                },
            )
    }

    /// A body near an envelope: one random edit of a valid one, or anything at all.
    fn near_envelope() -> impl Strategy<Value = Vec<u8>> {
        prop_oneof![
            (
                envelope_body(),
                any::<prop::sample::Index>(),
                any::<u8>(),
                0usize..4
            )
                .prop_map(|(body, at, byte, edit)| {
                    let mut b = body.into_bytes();
                    let i = at.index(b.len().max(1)).min(b.len());
                    match edit {
                        0 if i < b.len() => {
                            b.remove(i);
                        }
                        1 => b.insert(i, byte),
                        2 if i < b.len() => b[i] = byte,
                        _ => b.truncate(i),
                    }
                    b
                }),
            (
                envelope_body(),
                prop::sample::select(vec![
                    ("\"attempt\"", "\"attempt\":1,\"attempt\""),
                    ("\"attempt\"", "\"attempts\""),
                    ("\"job_id\"", "\"job-id\""),
                    ("\"payload\"", "\"x\":1,\"payload\""),
                    ("\"payload\"", "\"x\":1E400,\"payload\""),
                    ("\"attempt\":", "\"attempt\":4294967296,\"z\":"),
                    ("\"attempt\":", "\"attempt\":-1,\"z\":"),
                    ("\"attempt\":", "\"attempt\":1.0,\"z\":"),
                    ("\"priority\":", "\"priority\":256,\"z\":"),
                    ("\"deferrals\":", "\"deferrals\":null,\"z\":"),
                    (
                        "\"enqueued_at_ms\":",
                        "\"enqueued_at_ms\":18446744073709551616,\"z\":"
                    ),
                    (
                        "\"job_id\":",
                        "\"job_id\":\"67e55044-10b1-426f-9247\",\"z\":"
                    ),
                    ("\"job_type\":", "\"job_type\":null,\"z\":"),
                    ("\"correlation_id\":", "\"correlation_id\":7,\"z\":"),
                    (",\"deferrals\":", ",\"x\":"),
                    ("\"payload\":", "\"payload\":[1E400],\"y\":"),
                ])
            )
                .prop_map(|(body, (from, to))| body.replacen(from, to, 1).into_bytes()),
            (value_literal(), any::<u64>()).prop_map(|(v, _)| v.into_bytes()),
            prop::collection::vec(any::<u8>(), 0..64),
        ]
    }

    proptest! {
        #![proptest_config(ProptestConfig::with_cases(3000))]

        /// queuey sees an envelope exactly where the library does, with the same fields.
        #[test]
        fn decoded_exactly_when_the_library_decodes(body in prop_oneof![envelope_body().prop_map(String::into_bytes), near_envelope()]) {
            let ours = envelope::decode(&body);
            let theirs = LibraryEnvelope::from_bytes(&body);
            prop_assert_eq!(ours.is_some(), theirs.is_ok(), "{:?}", String::from_utf8_lossy(&body));
            if let (Some(o), Ok(t)) = (ours, theirs) {
                prop_assert_eq!(o.job_id, t.job_id.to_string());
                prop_assert_eq!(o.job_type, t.job_type);
                prop_assert_eq!(o.queue, t.queue);
                prop_assert_eq!(o.attempt, t.attempt);
                prop_assert_eq!(o.enqueued_at_ms, t.enqueued_at_ms);
                prop_assert_eq!(o.deferrals, t.deferrals);
                prop_assert_eq!(o.priority, t.priority);
                prop_assert_eq!(o.correlation_id, t.correlation_id);
            }
        }

        /// A replayed body is the same envelope on attempt 1, and the same bytes but for the
        /// attempt's value.
        #[test]
        fn first_attempt_changes_the_attempt_and_no_other_byte(body in envelope_body()) {
            let before = LibraryEnvelope::from_bytes(body.as_bytes()).expect("a generated envelope decodes");
            let out = envelope::with_first_attempt(body.as_bytes()).expect("the attempt is found");
            let after = LibraryEnvelope::from_bytes(&out).expect("the copy still decodes");
            prop_assert_eq!(after.attempt, 1);
            let mut expected = before.clone();
            expected.attempt = 1;
            prop_assert_eq!(&after, &expected);
            // Byte for byte: the only change is the attempt's digits.
            let span = envelope::top_level_value(body.as_bytes(), "attempt").expect("span");
            let b = body.as_bytes();
            prop_assert_eq!(&out[..span.start], &b[..span.start]);
            prop_assert_eq!(&out[span.start + 1..], &b[span.end..]);
            let digits = before.attempt.to_string();
            prop_assert_eq!(&b[span.clone()], digits.as_bytes());
        }

        #[test]
        fn the_scanner_never_panics(body in prop::collection::vec(any::<u8>(), 0..200)) {
            let _ = envelope::top_level_value(&body, "attempt");
            let _ = envelope::with_first_attempt(&body);
        }
    }
}

// ---------------------------------------------------------------------------------------------
// The sanitiser: every control, format (bidi, zero-width, tag) and line-separator character a
// stranger can put in a header or body is escaped; everything printable is kept.
// ---------------------------------------------------------------------------------------------

mod sanitize_properties {
    use proptest::prelude::*;
    use queuey_cli::output::sanitize::{
        is_visible, sanitize, sanitize_message, sanitize_multiline,
    };

    /// One character a terminal must never receive raw: Unicode's own classes (Cc, Cf, Zl, Zp)
    /// as the regex engine's tables know them, not queuey's list; the bidi controls and
    /// isolates (U+202A-202E, U+2066-2069) named too, so they come up often.
    fn hostile() -> impl Strategy<Value = char> {
        prop_oneof![
            "[\\p{Cc}\\p{Cf}\\p{Zl}\\p{Zp}]",
            "[\\u{202a}-\\u{202e}\\u{2060}-\\u{2064}\\u{2066}-\\u{206f}\\u{e0000}-\\u{e007f}]",
            "[\\x00-\\x1f\\x7f]",
        ]
        .prop_filter_map("one character", |s| s.chars().next())
        .prop_filter("assigned or in a hostile range", |c| {
            // \p{Cf} has unassigned gaps in the tag block; everything generated is hostile.
            *c != '\u{e0000}' && !('\u{e0002}'..='\u{e001f}').contains(c)
        })
    }

    /// A printable character: any non-control, non-format one (letters of every script,
    /// symbols, spaces, the backslash), never a separator.
    fn printable() -> impl Strategy<Value = char> {
        prop_oneof!["\\PC", "[ -~]", Just("\\".to_owned())].prop_filter_map(
            "one printable character",
            |s| {
                s.chars()
                    .next()
                    .filter(|c| *c != '\u{2028}' && *c != '\u{2029}')
            },
        )
    }

    fn pieces() -> impl Strategy<Value = Vec<(bool, char)>> {
        prop::collection::vec(
            prop_oneof![
                hostile().prop_map(|c| (true, c)),
                printable().prop_map(|c| (false, c)),
            ],
            0..40,
        )
    }

    /// Checks `out` escapes every hostile character of `pieces`: none of them is left, each
    /// became exactly one escape (one more backslash), printable characters are all there in
    /// order, and nothing but ASCII was added. `kept` are hostile characters the variant keeps
    /// (newline and tab for the multi-line ones); `doubles` says a backslash is escaped.
    fn check(out: &str, pieces: &[(bool, char)], kept: &[char], doubles: bool) {
        let input: String = pieces.iter().map(|(_, c)| c).collect();
        let escaped = pieces
            .iter()
            .filter(|(h, c)| *h && !kept.contains(c))
            .count();
        let backslashes = pieces.iter().filter(|(_, c)| *c == '\\').count();
        for c in out.chars() {
            assert!(
                is_visible(c) || kept.contains(&c),
                "{c:?} reached the output of {input:?}: {out:?}"
            );
            assert!(
                c.is_ascii() || pieces.iter().any(|(h, p)| !h && *p == c),
                "{c:?} was added to {input:?}: {out:?}"
            );
        }
        let want = escaped
            + if doubles {
                2 * backslashes
            } else {
                backslashes
            };
        assert_eq!(out.matches('\\').count(), want, "{input:?} -> {out:?}");
        let mut rest = out;
        for (hostile, c) in pieces {
            if !hostile || kept.contains(c) {
                let at = rest
                    .find(*c)
                    .unwrap_or_else(|| panic!("{c:?} lost: {out:?}"));
                rest = &rest[at + c.len_utf8()..];
            }
        }
    }

    proptest! {
        #![proptest_config(ProptestConfig::with_cases(3000))]

        #[test]
        fn every_hostile_character_is_escaped(pieces in pieces()) {
            let input: String = pieces.iter().map(|(_, c)| c).collect();
            check(&sanitize(&input), &pieces, &[], true);
            check(&sanitize_multiline(&input), &pieces, &['\n', '\t'], true);
            check(&sanitize_message(&input), &pieces, &['\n', '\t'], false);
            for (hostile, c) in &pieces {
                prop_assert_eq!(is_visible(*c), !hostile, "{:?}", c);
            }
        }

        /// Alone, a hostile character shows as one visible escape naming its code point.
        #[test]
        fn a_hostile_character_shows_its_code_point(c in hostile()) {
            let out = sanitize(&c.to_string());
            let code = c as u32;
            let named = [format!("\\x{code:02x}"), format!("\\u{{{code:x}}}")];
            let short = match c {
                '\n' => Some("\\n"),
                '\t' => Some("\\t"),
                '\r' => Some("\\r"),
                _ => None,
            };
            prop_assert!(
                named.contains(&out) || short == Some(out.as_str()),
                "{:?} -> {:?}", c, out
            );
        }
    }
}

/// The payload filters (`--where`, `--body-contains`) on generated JSON documents: every node
/// of a document is found by its pointer (keys with `~`, `/` and unicode escaped as RFC 6901
/// says) and equals its own JSON text; a body that is not JSON matches no `--where`.
mod payload_filters {
    use proptest::prelude::*;
    use queuey_cli::dead::filter::{Filter, WhereCondition};
    use queuey_cli::dead::pointer::{child, json_equal};
    use serde_json::Value;

    fn any_json() -> impl Strategy<Value = Value> {
        let leaf = prop_oneof![
            Just(Value::Null),
            any::<bool>().prop_map(Value::Bool),
            any::<i64>().prop_map(Value::from),
            any::<u64>().prop_map(Value::from),
            (-1e12f64..1e12).prop_map(Value::from),
            "[a-z ~/é0-9\"\\\\]{0,8}".prop_map(Value::from),
        ];
        leaf.prop_recursive(4, 40, 5, |inner| {
            prop_oneof![
                prop::collection::vec(inner.clone(), 0..5).prop_map(Value::Array),
                prop::collection::btree_map("[a-z~/é0-9 ]{0,6}", inner, 0..5)
                    .prop_map(|m| Value::Object(m.into_iter().collect())),
            ]
        })
    }

    /// Every node of `doc` with its pointer.
    fn nodes(doc: &Value, at: &str, out: &mut Vec<(String, Value)>) {
        if !at.is_empty() {
            out.push((at.to_owned(), doc.clone()));
        }
        match doc {
            Value::Object(m) => m.iter().for_each(|(k, v)| nodes(v, &child(at, k), out)),
            Value::Array(a) => a
                .iter()
                .enumerate()
                .for_each(|(i, v)| nodes(v, &child(at, &i.to_string()), out)),
            _ => {}
        }
    }

    fn where_(spec: &str) -> Filter {
        Filter {
            wheres: vec![WhereCondition::parse(spec).expect("a valid --where")],
            ..Filter::default()
        }
    }

    proptest! {
        #![proptest_config(ProptestConfig::with_cases(500))]

        #[test]
        fn every_node_is_found_by_its_pointer_and_equals_its_json(
            doc in any_json(),
            pick in any::<prop::sample::Index>(),
            other in any_json(),
        ) {
            let body = serde_json::to_vec(&doc).expect("JSON");
            let mut all = Vec::new();
            nodes(&doc, "", &mut all);
            prop_assume!(!all.is_empty());
            let (pointer, value) = &all[pick.index(all.len())];
            let text = serde_json::to_string(value).expect("JSON");
            prop_assert!(where_(pointer).matches_body(&body), "presence of {}", pointer);
            prop_assert!(where_(&format!("{pointer}={text}")).matches_body(&body), "{}={}", pointer, text);
            if let Value::String(s) = value && serde_json::from_str::<Value>(s).is_err() {
                prop_assert!(where_(&format!("{pointer}={s}")).matches_body(&body), "bare {}={}", pointer, s);
            }
            let other_text = serde_json::to_string(&other).expect("JSON");
            prop_assert_eq!(
                where_(&format!("{pointer}={other_text}")).matches_body(&body),
                json_equal(value, &other),
                "{}={} against {}", pointer, other_text, text
            );
            // OR: a condition that fails beside one that holds.
            let mut f = where_(&format!("{pointer}={text}"));
            f.wheres.insert(0, WhereCondition::parse("/no such key/at all").expect("valid"));
            prop_assert!(f.matches_body(&body));
            // The raw body contains each of its own slices.
            let from = pick.index(body.len());
            let slice = String::from_utf8_lossy(&body[from..body.len().min(from + 6)]).into_owned();
            if !slice.contains('\u{fffd}') && !slice.is_empty() {
                let contains = Filter { body_contains: vec![slice.clone()], ..Filter::default() };
                prop_assert!(contains.matches_body(&body), "{:?}", slice);
            }
        }

        #[test]
        fn a_body_that_is_not_json_matches_no_where(body in prop::collection::vec(any::<u8>(), 0..64), key in "[a-z]{1,5}") {
            prop_assume!(serde_json::from_slice::<Value>(&body).is_err());
            let pointer = format!("/{key}");
            prop_assert!(!where_(&pointer).matches_body(&body));
            prop_assert!(!where_("/0").matches_body(&body));
        }
    }
}
