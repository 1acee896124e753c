//! Hold-queue rounding, names and constants against the queuey library itself (the oracle),
//! and durations.

use std::time::Duration;

use proptest::prelude::*;
use queuey_cli::duration::{format_millis, parse_duration};
use queuey_cli::queue::{QueueSettings, Sibling};
use queuey_cli::topology::{
    self, ARG_EXPIRES, ARG_MESSAGE_TTL, ArgValue, MAX_DEFERRAL_MS, MAX_TTL_MS, QueueConfig,
    RabbitMqOptions,
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

    /// Logical queues named from fragments that make them each other's hold-queue names
    /// (`k`, `k.deferred`, `k.deferred.5000`, `k.deferred.5000.dead`...): no queue another
    /// logical queue owns, named as the library names it (its work queue, its dead-letter
    /// queue, its hold queues), is ever taken for a hold queue of `q`; and q's own hold
    /// queues stay q's unless another logical queue owns that very name.
    #[test]
    fn no_queue_of_one_logical_queue_is_a_hold_queue_of_another(
        names in prop::collection::btree_set(
            prop::collection::vec(
                prop::sample::select(vec!["k", ".deferred", ".5000", ".1", ".dead", ".x", "0"]),
                1..5,
            )
            .prop_map(|parts| parts.concat()),
            2..6,
        ),
        ttl in prop::sample::select(vec![1u32, 5000, MAX_DEFERRAL_MS]),
    ) {
        let o = RabbitMqOptions::default();
        let names: Vec<String> = names.into_iter().collect();
        let owned = |n: &str| {
            [
                n.to_owned(),
                library::dead_queue_name(n, library::DEFAULT_DEAD_SUFFIX),
                library::deferred_queue_name(n, library::DEFAULT_DEFERRED_SUFFIX, ttl),
            ]
        };
        for q in &names {
            let settings = QueueSettings {
                name: q.clone(),
                config: QueueConfig::default(),
                options: o.clone(),
                unlisted: None,
                siblings: std::sync::Arc::new(names
                    .iter()
                    .map(|n| Sibling { name: n.clone(), options: o.clone() })
                    .collect()),
            };
            let claimed = |n: &str| {
                topology::parse_deferred_queue_name(q, n, &o) != Ok(None)
                    && settings.claimed_elsewhere(n).is_none()
            };
            for other in names.iter().filter(|n| *n != q) {
                for n in owned(other) {
                    prop_assert!(!claimed(&n), "{n:?} of {other:?} taken by {q:?}");
                }
            }
            let own = library::deferred_queue_name(q, library::DEFAULT_DEFERRED_SUFFIX, ttl);
            let elsewhere = names.iter().filter(|n| *n != q).any(|n| owned(n).contains(&own));
            prop_assert_eq!(claimed(&own), !elsewhere, "{:?} of {:?}", own, q);
        }
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
