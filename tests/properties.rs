//! Property tests of the pure core: hold-queue rounding, durations, names.

use std::time::Duration;

use proptest::prelude::*;
use queuey::duration::{format_millis, parse_duration};
use queuey::topology::{
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
    use queuey::dead::decode::{self, Message, Source, X_DEATH};
    use queuey::dead::value::{Properties, Table, Value};
    use queuey::topology::{
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
            let _ = queuey::output::sanitize::sanitize(&v.display());
        }
    }
}
