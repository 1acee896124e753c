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
