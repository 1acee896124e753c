//! Property tests of the pure core: hold-queue rounding, durations, names.

use std::time::Duration;

use proptest::prelude::*;
use queuey_cli::duration::{format_millis, parse_duration};
use queuey_cli::topology::{
    self, ARG_EXPIRES, ARG_MESSAGE_TTL, ArgValue, GranularityError, MAX_DEFERRAL_MS, MAX_TTL_MS,
    RabbitMqOptions,
};

fn any_duration() -> impl Strategy<Value = Duration> {
    prop_oneof![
        (0u64..=u64::MAX, 0u32..1_000_000_000).prop_map(|(s, n)| Duration::new(s, n)),
        (0u64..=3 * MAX_DEFERRAL_MS).prop_map(Duration::from_millis),
        (0u64..=u64::MAX).prop_map(Duration::from_nanos),
        Just(Duration::ZERO),
        Just(Duration::MAX),
    ]
}

fn whole_ms_granularity() -> impl Strategy<Value = Duration> {
    prop_oneof![
        (1u64..=10_000).prop_map(Duration::from_millis),
        (1u64..=MAX_DEFERRAL_MS).prop_map(Duration::from_millis),
        (1u64..=u64::MAX / 1_000_000).prop_map(Duration::from_secs),
    ]
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(4000))]

    #[test]
    fn deferred_ttl_is_a_bounded_whole_multiple_not_below_the_delay(
        delay in any_duration(),
        granularity in whole_ms_granularity(),
    ) {
        match topology::deferred_ttl_ms(delay, granularity).unwrap() {
            Some(ttl) => {
                let step = u64::try_from(granularity.as_millis()).unwrap();
                prop_assert_eq!(ttl % step, 0, "whole multiple");
                prop_assert!(ttl >= step, "at least one step");
                prop_assert!(Duration::from_millis(ttl) >= delay, "not below the delay");
                if let Some(upper) = delay.checked_add(granularity) {
                    prop_assert!(Duration::from_millis(ttl) < upper.max(granularity + granularity), "the smallest such multiple");
                }
                prop_assert!(ttl <= MAX_DEFERRAL_MS);
                let args = topology::deferred_queue_args("q", ttl);
                let (ArgValue::Int(t), ArgValue::Int(e)) = (&args[ARG_MESSAGE_TTL], &args[ARG_EXPIRES]) else {
                    panic!("integer arguments");
                };
                prop_assert!(e > t, "x-expires strictly above x-message-ttl");
                prop_assert!(u64::try_from(*e).unwrap() <= MAX_TTL_MS, "x-expires within MAX_TTL_MS");
            }
            None => {
                // Refused only when the smallest whole multiple passes the limit.
                let step = granularity.as_nanos();
                let steps = delay.as_nanos().div_ceil(step).max(1);
                let needed = steps.saturating_mul(step) / 1_000_000;
                prop_assert!(needed > u128::from(MAX_DEFERRAL_MS));
            }
        }
    }

    #[test]
    fn deferred_ttl_never_panics(delay in any_duration(), granularity in any_duration()) {
        match topology::deferred_ttl_ms(delay, granularity) {
            Ok(_) => prop_assert!(granularity.as_nanos() % 1_000_000 == 0 && !granularity.is_zero()),
            Err(GranularityError::Zero) => prop_assert!(granularity.is_zero()),
            Err(GranularityError::NotWholeMilliseconds) => prop_assert!(granularity.as_nanos() % 1_000_000 != 0),
        }
    }

    #[test]
    fn zero_granularity_is_an_error(delay in any_duration()) {
        prop_assert_eq!(topology::deferred_ttl_ms(delay, Duration::ZERO), Err(GranularityError::Zero));
    }

    #[test]
    fn hold_queue_names_round_trip(queue in "[a-z.]{1,20}", ttl in 1u64..=MAX_DEFERRAL_MS) {
        let o = RabbitMqOptions::default();
        let name = topology::deferred_queue_name(&queue, ttl, &o);
        prop_assert_eq!(topology::parse_deferred_queue_name(&queue, &name, &o), Ok(Some(ttl)));
        prop_assert_eq!(topology::parse_deferred_queue_name(&queue, &topology::dead_queue_name(&queue, &o), &o), Ok(None));
    }

    #[test]
    fn durations_round_trip(ms in 0u64..=MAX_TTL_MS * 10) {
        prop_assert_eq!(parse_duration(&format_millis(ms)), Ok(Duration::from_millis(ms)));
    }

    #[test]
    fn duration_parser_never_panics(s in "\\PC{0,30}") {
        let _ = parse_duration(&s);
    }
}

mod dead_letters {
    use proptest::prelude::*;
    use queuey_cli::dead::decode::{self, Message, Source, X_DEATH};
    use queuey_cli::dead::value::{Properties, Table, Value};
    use queuey_cli::topology::{
        HEADER_ATTEMPTS, HEADER_DEATH_REASON, HEADER_ORIGINAL_QUEUE, RabbitMqOptions,
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
            if dl.original_queue_from == Source::XDeath {
                prop_assert!(!dl.original_queue.starts_with("q.deferred.") || dl.original_queue.len() <= "q.deferred.".len());
            }
            match headers.get(HEADER_ATTEMPTS).and_then(Value::as_integer) {
                Some(n) if n >= 0 => prop_assert_eq!(dl.attempts.map(i128::from), Some(n)),
                _ => prop_assert_eq!(dl.attempts, None),
            }
            if !headers.contains_key(X_DEATH) {
                prop_assert!(dl.deaths.is_empty());
            }
            // Serialising the result never fails.
            prop_assert!(serde_json::to_string(&dl).is_ok());
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
    use queuey_cli::settings::{QueueSettings, resolve_queue};
    use queuey_cli::topology::{ArgValue, MAX_TTL_MS};
    use serde_json::{Map, Value, json};

    /// Any valid settings of a logical queue.
    fn any_settings() -> impl Strategy<Value = QueueSettings> {
        (
            "[a-z][a-z0-9 .ü-]{0,20}",
            prop::option::of(0u64..=MAX_TTL_MS),
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
            policy: None,
            effective_policy_definition: None,
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
            for computed in long_lived_queues(&q) {
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
            for computed in long_lived_queues(&q) {
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
    use queuey_cli::timestamp::{format_utc, parse_timestamp};

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
