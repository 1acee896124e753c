//! Pure helpers describing the RabbitMQ topology of a queuey job queue.
//!
//! This module is seed 000 (`../shared/seeds/000_…`) in Rust: its constants and functions carry
//! the seed's names and values. It never touches a connection, a file or the clock, so everything
//! here is unit-tested without a broker; the broker layer turns [`QueueArgs`] into AMQP tables.
//!
//! For a logical queue `q` the backend maintains two long-lived broker queues plus one
//! short-lived hold queue per distinct delay:
//!
//! | queue                 | role                     | arguments |
//! |-----------------------|--------------------------|-----------|
//! | `q`                   | main work queue          | `x-message-ttl` when [`QueueConfig::message_ttl`] is set, `x-max-priority` when [`QueueConfig::max_priority`] is `Some` |
//! | `q.dead`              | dead-letter queue        | none |
//! | `q.deferred.{ttl_ms}` | hold queue for one delay | `x-message-ttl = ttl_ms`, `x-dead-letter-exchange = ""`, `x-dead-letter-routing-key = q`, `x-expires = 2 * ttl_ms` |
//!
//! queuey's one extension to the seed is the quorum work queue (seed 002): a quorum `q` also
//! carries `x-queue-type = quorum`, `x-delivery-limit` when set, and dead-letters to `q.dead`, so
//! that a message past its delivery limit is kept in `q.dead` instead of being dropped.
//!
//! # Why hold queues instead of per-message expiration
//!
//! A classic queue only ever expires the message at its head. Messages behind it are not
//! examined until it has gone, so in a shared wait queue a message with a five-minute expiration
//! at the head holds back every one-second expiration behind it (head-of-line blocking).
//! Exponential backoff produces exactly that mix, so retries were the worst-hit case.
//!
//! A hold queue never sets a per-message expiration. The delay is baked into the name of the
//! queue the message waits in (`q.deferred.30000` holds every 30-second wait for `q`), and the
//! wait is the queue-wide `x-message-ttl`. Every message in one hold queue has the same TTL, so
//! they expire in the order they were published and the head is always the message due next. A
//! short wait is never stuck behind a long one, because the two live in different queues. The
//! price is one queue per distinct delay, which is why delays are rounded up to a granularity
//! ([`RabbitMqOptions::retry_granularity`] for retries and delayed enqueues,
//! [`RabbitMqOptions::deferred_granularity`] for deferrals, both one second by default), so 29.2 s
//! and 30 s share `q.deferred.30000`.
//!
//! Retries and deferrals share the hold queues: the arguments depend only on the delay. What
//! differs between the two, the message priority, travels on the message and only matters once
//! it is back on `q`.
//!
//! # Why a hold queue's arguments depend only on its name
//!
//! The TTL is in the name, and every other argument is derived from it or from the main queue,
//! so two processes running different builds of an application compute the same arguments for
//! `q.deferred.30000`. RabbitMQ refuses a declaration whose arguments differ from the existing
//! queue's (PRECONDITION_FAILED, which closes the declaring channel): a tunable in `x-expires`
//! would deadlock the two processes against each other for ever. Hence `x-expires = 2 * ttl_ms`
//! and nothing else: an idle hold queue deletes itself one TTL after the last publish to it, and
//! every declare resets that timer.
//!
//! # Why a longer delay is refused
//!
//! `x-expires` must be strictly greater than `x-message-ttl`, or the broker could delete a queue
//! that still owes a message. `2 * ttl_ms` satisfies that, and stays within [`MAX_TTL_MS`], for
//! every TTL up to [`MAX_DEFERRAL_MS`]; that is why a longer delay is refused (`None` from
//! [`deferred_ttl_ms`]) rather than silently clamped.

use std::collections::BTreeMap;
use std::fmt;
use std::time::Duration;

/// Queue argument naming the exchange used for dead-lettering.
pub const ARG_DEAD_LETTER_EXCHANGE: &str = "x-dead-letter-exchange";
/// Queue argument naming the routing key used for dead-lettering.
pub const ARG_DEAD_LETTER_ROUTING_KEY: &str = "x-dead-letter-routing-key";
/// Queue argument making the broker delete a queue after it has been unused for that many
/// milliseconds.
pub const ARG_EXPIRES: &str = "x-expires";
/// Queue argument declaring how many priority levels a queue supports.
pub const ARG_MAX_PRIORITY: &str = "x-max-priority";
/// Queue argument setting a queue-wide message time-to-live in milliseconds.
pub const ARG_MESSAGE_TTL: &str = "x-message-ttl";
/// Queue argument choosing the queue type (queuey's quorum extension, seed 002).
pub const ARG_QUEUE_TYPE: &str = "x-queue-type";
/// Queue argument bounding how often a quorum queue redelivers one message (seed 002).
pub const ARG_DELIVERY_LIMIT: &str = "x-delivery-limit";

/// Default suffix appended to a queue name to build its dead-letter queue.
pub const DEFAULT_DEAD_SUFFIX: &str = ".dead";
/// Default infix between a queue name and a hold queue's TTL.
pub const DEFAULT_DEFERRED_SUFFIX: &str = ".deferred.";

/// Header mirroring `queuey_core::Envelope::attempt` on every publish.
pub const HEADER_ATTEMPT: &str = "x-queuey-attempt";
/// Header carrying the number of attempts made before dead-lettering.
pub const HEADER_ATTEMPTS: &str = "x-queuey-attempts";
/// Header carrying the dead-lettering reason on messages routed to `q.dead`.
pub const HEADER_DEATH_REASON: &str = "x-queuey-death-reason";
/// Header mirroring `queuey_core::Envelope::deferrals` on every publish.
pub const HEADER_DEFERRALS: &str = "x-queuey-deferrals";
/// Header carrying the originating queue name on messages routed to `q.dead`.
pub const HEADER_ORIGINAL_QUEUE: &str = "x-queuey-original-queue";

/// Largest time-to-live RabbitMQ accepts, in milliseconds (2^32-1, ~49.7 days).
///
/// Brokers from 3.10.2 accept up to ten years; queuey keeps the seed's tighter bound.
pub const MAX_TTL_MS: u64 = 4_294_967_295;
/// Longest delay this backend will hold, in milliseconds (2^31-1, ~24.8 days), so that a hold
/// queue's `x-expires = 2 * ttl_ms` never passes [`MAX_TTL_MS`].
pub const MAX_DEFERRAL_MS: u64 = 2_147_483_647;

/// A queue argument value. Only the two shapes the topology uses: integers (sent as AMQP
/// signed 64-bit integers; the broker compares integers by value whatever their width) and
/// strings (sent as AMQP long strings).
#[derive(Clone, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum ArgValue {
    Int(i64),
    Str(String),
}

impl fmt::Display for ArgValue {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            ArgValue::Int(n) => write!(f, "{n}"),
            ArgValue::Str(s) => write!(f, "{s:?}"),
        }
    }
}

/// Declaration arguments of one queue, ordered by name so that output and comparisons are
/// deterministic.
pub type QueueArgs = BTreeMap<String, ArgValue>;

/// The broker queue type of the main queue `q`.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub enum QueueType {
    #[default]
    Classic,
    Quorum,
}

impl QueueType {
    pub fn as_str(self) -> &'static str {
        match self {
            QueueType::Classic => "classic",
            QueueType::Quorum => "quorum",
        }
    }
}

impl fmt::Display for QueueType {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.as_str())
    }
}

/// The settings of one logical queue that shape the main queue's arguments.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct QueueConfig {
    /// Queue-wide message TTL of `q` (`x-message-ttl`), in whole milliseconds.
    pub message_ttl: Option<Duration>,
    /// Number of priority levels of `q` (`x-max-priority`), 1..=255.
    pub max_priority: Option<u8>,
    /// Classic (the seed) or quorum (queuey's extension).
    pub queue_type: QueueType,
    /// Quorum only: deliveries a message may take before it is dead-lettered to `q.dead`.
    pub delivery_limit: Option<u32>,
}

/// Backend options shared by the queues of one logical queue: naming and delay rounding.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct RabbitMqOptions {
    /// Suffix appended to `q` to name its dead-letter queue.
    pub dead_suffix: String,
    /// Infix between `q` and a hold queue's TTL.
    pub deferred_suffix: String,
    /// Rounding step of retry and delayed-enqueue delays.
    pub retry_granularity: Duration,
    /// Rounding step of deferral delays.
    pub deferred_granularity: Duration,
}

impl Default for RabbitMqOptions {
    fn default() -> Self {
        RabbitMqOptions {
            dead_suffix: DEFAULT_DEAD_SUFFIX.to_owned(),
            deferred_suffix: DEFAULT_DEFERRED_SUFFIX.to_owned(),
            retry_granularity: Duration::from_secs(1),
            deferred_granularity: Duration::from_secs(1),
        }
    }
}

/// Why [`deferred_ttl_ms`] could not round a delay: the granularity itself is unusable.
#[derive(Clone, Copy, Debug, PartialEq, Eq, thiserror::Error)]
pub enum GranularityError {
    #[error("the granularity is zero; it must be at least 1ms")]
    Zero,
    #[error("the granularity is not a whole number of milliseconds (TTLs are whole milliseconds)")]
    NotWholeMilliseconds,
}

/// Milliseconds in `d`, saturating at `u64::MAX` (no `Duration` overflows this).
fn millis_saturating(d: Duration) -> u64 {
    u64::try_from(d.as_millis()).unwrap_or(u64::MAX)
}

/// Declaration arguments for the main queue `q`.
///
/// `x-message-ttl` when a message TTL is set, `x-max-priority` when a max priority is set (the
/// seed). A quorum queue adds `x-queue-type = quorum`, `x-delivery-limit` when set, and
/// dead-letters to `q.dead` through the default exchange, so a message past its delivery limit
/// is kept rather than dropped (seed 002: a quorum queue with no dead-letter exchange drops it).
pub fn queue_args(queue: &str, config: &QueueConfig, options: &RabbitMqOptions) -> QueueArgs {
    let mut args = QueueArgs::new();
    if let Some(ttl) = config.message_ttl {
        let ms = i64::try_from(millis_saturating(ttl)).unwrap_or(i64::MAX);
        args.insert(ARG_MESSAGE_TTL.to_owned(), ArgValue::Int(ms));
    }
    if let Some(priority) = config.max_priority {
        args.insert(
            ARG_MAX_PRIORITY.to_owned(),
            ArgValue::Int(i64::from(priority)),
        );
    }
    if config.queue_type == QueueType::Quorum {
        args.insert(
            ARG_QUEUE_TYPE.to_owned(),
            ArgValue::Str(QueueType::Quorum.as_str().to_owned()),
        );
        if let Some(limit) = config.delivery_limit {
            args.insert(
                ARG_DELIVERY_LIMIT.to_owned(),
                ArgValue::Int(i64::from(limit)),
            );
        }
        args.insert(
            ARG_DEAD_LETTER_EXCHANGE.to_owned(),
            ArgValue::Str(String::new()),
        );
        args.insert(
            ARG_DEAD_LETTER_ROUTING_KEY.to_owned(),
            ArgValue::Str(dead_queue_name(queue, options)),
        );
    }
    args
}

/// Declaration arguments for the dead-letter queue `q.dead`: none.
///
/// In particular no dead-letter exchange: a DLQ that dead-letters back towards its source
/// cycles a poison message for ever (seed 003).
pub fn dead_queue_args() -> QueueArgs {
    QueueArgs::new()
}

/// Name of the dead-letter queue for `queue`.
pub fn dead_queue_name(queue: &str, options: &RabbitMqOptions) -> String {
    format!("{queue}{}", options.dead_suffix)
}

/// Declaration arguments for the hold queue `q.deferred.{ttl_ms}`.
///
/// Messages wait `ttl_ms`, then dead-letter through the default exchange back to `queue`; the
/// queue deletes itself after `2 * ttl_ms` unused. `ttl_ms` is expected to come from
/// [`deferred_ttl_ms`] (at most [`MAX_DEFERRAL_MS`]); a larger value saturates instead of
/// overflowing.
pub fn deferred_queue_args(queue: &str, ttl_ms: u64) -> QueueArgs {
    let ttl = i64::try_from(ttl_ms).unwrap_or(i64::MAX);
    let mut args = QueueArgs::new();
    args.insert(ARG_MESSAGE_TTL.to_owned(), ArgValue::Int(ttl));
    args.insert(
        ARG_DEAD_LETTER_EXCHANGE.to_owned(),
        ArgValue::Str(String::new()),
    );
    args.insert(
        ARG_DEAD_LETTER_ROUTING_KEY.to_owned(),
        ArgValue::Str(queue.to_owned()),
    );
    args.insert(ARG_EXPIRES.to_owned(), ArgValue::Int(ttl.saturating_mul(2)));
    args
}

/// Name of the hold queue holding `ttl_ms`-long waits of `queue`.
pub fn deferred_queue_name(queue: &str, ttl_ms: u64, options: &RabbitMqOptions) -> String {
    format!("{queue}{}{ttl_ms}", options.deferred_suffix)
}

/// The hold queue TTL for `delay`: `delay` rounded up to a whole multiple of `granularity`, at
/// least one whole step, or `Ok(None)` when that lands past [`MAX_DEFERRAL_MS`] (a longer delay
/// is refused, never clamped).
///
/// A zero or sub-millisecond granularity is an input error, not a panic: TTLs are whole
/// milliseconds. The arithmetic is done in nanoseconds in `u128`, which no `Duration` overflows.
pub fn deferred_ttl_ms(
    delay: Duration,
    granularity: Duration,
) -> Result<Option<u64>, GranularityError> {
    let step = granularity.as_nanos();
    if step == 0 {
        return Err(GranularityError::Zero);
    }
    const NANOS_PER_MS: u128 = 1_000_000;
    if !step.is_multiple_of(NANOS_PER_MS) {
        return Err(GranularityError::NotWholeMilliseconds);
    }
    let steps = delay.as_nanos().div_ceil(step).max(1);
    // Both factors can reach ~2^94, so the product may not fit u128: checked_mul turns an
    // astronomically long delay or granularity into "past the limit" instead of overflowing.
    let ttl_ms = match steps.checked_mul(step) {
        Some(nanos) => nanos / NANOS_PER_MS,
        None => return Ok(None),
    };
    if ttl_ms > u128::from(MAX_DEFERRAL_MS) {
        return Ok(None);
    }
    Ok(u64::try_from(ttl_ms).ok())
}

/// The TTL embedded in a hold queue's name, when `name` is exactly `queue` + deferred suffix +
/// a canonical decimal TTL (no sign, no leading zero) within 1..=[`MAX_DEFERRAL_MS`].
///
/// `Err(())` marks a name that carries the infix but no valid TTL (`q.deferred.abc`,
/// `q.deferred.007`); `Ok(None)` a name that is not a hold queue of `queue` at all.
#[allow(clippy::result_unit_err)]
pub fn parse_deferred_queue_name(
    queue: &str,
    name: &str,
    options: &RabbitMqOptions,
) -> Result<Option<u64>, ()> {
    let Some(rest) = name
        .strip_prefix(queue)
        .and_then(|r| r.strip_prefix(options.deferred_suffix.as_str()))
    else {
        return Ok(None);
    };
    if rest.is_empty()
        || !rest.bytes().all(|b| b.is_ascii_digit())
        || (rest.len() > 1 && rest.starts_with('0'))
    {
        return Err(());
    }
    match rest.parse::<u64>() {
        Ok(ttl) if (1..=MAX_DEFERRAL_MS).contains(&ttl) => Ok(Some(ttl)),
        _ => Err(()),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn opts() -> RabbitMqOptions {
        RabbitMqOptions::default()
    }

    fn int(n: i64) -> ArgValue {
        ArgValue::Int(n)
    }

    fn s(v: &str) -> ArgValue {
        ArgValue::Str(v.to_owned())
    }

    #[test]
    fn constants_have_the_seed_values() {
        assert_eq!(DEFAULT_DEAD_SUFFIX, ".dead");
        assert_eq!(DEFAULT_DEFERRED_SUFFIX, ".deferred.");
        assert_eq!(MAX_TTL_MS, (1u64 << 32) - 1);
        assert_eq!(MAX_DEFERRAL_MS, (1u64 << 31) - 1);
        const { assert!(2 * MAX_DEFERRAL_MS <= MAX_TTL_MS) };
        assert_eq!(HEADER_ATTEMPT, "x-queuey-attempt");
        assert_eq!(HEADER_ATTEMPTS, "x-queuey-attempts");
        assert_eq!(HEADER_DEATH_REASON, "x-queuey-death-reason");
        assert_eq!(HEADER_DEFERRALS, "x-queuey-deferrals");
        assert_eq!(HEADER_ORIGINAL_QUEUE, "x-queuey-original-queue");
        assert_eq!(ARG_DEAD_LETTER_EXCHANGE, "x-dead-letter-exchange");
        assert_eq!(ARG_DEAD_LETTER_ROUTING_KEY, "x-dead-letter-routing-key");
        assert_eq!(ARG_EXPIRES, "x-expires");
        assert_eq!(ARG_MAX_PRIORITY, "x-max-priority");
        assert_eq!(ARG_MESSAGE_TTL, "x-message-ttl");
    }

    #[test]
    fn queue_args_empty_by_default() {
        assert!(queue_args("q", &QueueConfig::default(), &opts()).is_empty());
    }

    #[test]
    fn queue_args_ttl_and_priority() {
        let config = QueueConfig {
            message_ttl: Some(Duration::from_secs(3600)),
            max_priority: Some(10),
            ..QueueConfig::default()
        };
        let args = queue_args("orders", &config, &opts());
        let expected: QueueArgs = [
            (ARG_MESSAGE_TTL.to_owned(), int(3_600_000)),
            (ARG_MAX_PRIORITY.to_owned(), int(10)),
        ]
        .into_iter()
        .collect();
        assert_eq!(args, expected);
    }

    #[test]
    fn queue_args_zero_ttl_is_kept() {
        let config = QueueConfig {
            message_ttl: Some(Duration::ZERO),
            ..QueueConfig::default()
        };
        assert_eq!(
            queue_args("q", &config, &opts()).get(ARG_MESSAGE_TTL),
            Some(&int(0))
        );
    }

    #[test]
    fn quorum_queue_dead_letters_to_its_dead_queue() {
        let config = QueueConfig {
            queue_type: QueueType::Quorum,
            delivery_limit: Some(5),
            ..QueueConfig::default()
        };
        let args = queue_args("orders", &config, &opts());
        let expected: QueueArgs = [
            (ARG_QUEUE_TYPE.to_owned(), s("quorum")),
            (ARG_DELIVERY_LIMIT.to_owned(), int(5)),
            (ARG_DEAD_LETTER_EXCHANGE.to_owned(), s("")),
            (ARG_DEAD_LETTER_ROUTING_KEY.to_owned(), s("orders.dead")),
        ]
        .into_iter()
        .collect();
        assert_eq!(args, expected);
    }

    #[test]
    fn quorum_without_limit_still_dead_letters() {
        let config = QueueConfig {
            queue_type: QueueType::Quorum,
            ..QueueConfig::default()
        };
        let args = queue_args("q", &config, &opts());
        assert!(!args.contains_key(ARG_DELIVERY_LIMIT));
        assert_eq!(args.get(ARG_DEAD_LETTER_ROUTING_KEY), Some(&s("q.dead")));
    }

    #[test]
    fn classic_ignores_delivery_limit() {
        let config = QueueConfig {
            delivery_limit: Some(3),
            ..QueueConfig::default()
        };
        assert!(queue_args("q", &config, &opts()).is_empty());
    }

    #[test]
    fn dead_queue_has_no_arguments() {
        assert!(dead_queue_args().is_empty());
    }

    #[test]
    fn names() {
        assert_eq!(dead_queue_name("orders", &opts()), "orders.dead");
        assert_eq!(
            deferred_queue_name("orders", 30_000, &opts()),
            "orders.deferred.30000"
        );
        let custom = RabbitMqOptions {
            dead_suffix: "-dlq".into(),
            deferred_suffix: "-wait-".into(),
            ..opts()
        };
        assert_eq!(dead_queue_name("a.b", &custom), "a.b-dlq");
        assert_eq!(deferred_queue_name("a.b", 5, &custom), "a.b-wait-5");
    }

    #[test]
    fn deferred_args_match_the_seed() {
        let args = deferred_queue_args("orders", 30_000);
        let expected: QueueArgs = [
            (ARG_MESSAGE_TTL.to_owned(), int(30_000)),
            (ARG_DEAD_LETTER_EXCHANGE.to_owned(), s("")),
            (ARG_DEAD_LETTER_ROUTING_KEY.to_owned(), s("orders")),
            (ARG_EXPIRES.to_owned(), int(60_000)),
        ]
        .into_iter()
        .collect();
        assert_eq!(args, expected);
    }

    #[test]
    fn deferred_ttl_rounds_up_to_the_granularity() {
        let sec = Duration::from_secs(1);
        let ttl = |d: Duration| deferred_ttl_ms(d, sec).unwrap();
        assert_eq!(ttl(Duration::from_millis(29_200)), Some(30_000));
        assert_eq!(ttl(Duration::from_secs(30)), Some(30_000));
        assert_eq!(ttl(Duration::from_nanos(30_000_000_001)), Some(31_000));
        assert_eq!(ttl(Duration::ZERO), Some(1_000));
        assert_eq!(ttl(Duration::from_nanos(1)), Some(1_000));
        assert_eq!(
            deferred_ttl_ms(Duration::from_millis(1234), Duration::from_millis(1)),
            Ok(Some(1234))
        );
    }

    #[test]
    fn deferred_ttl_refuses_past_the_limit() {
        let ms = Duration::from_millis(1);
        assert_eq!(
            deferred_ttl_ms(Duration::from_millis(MAX_DEFERRAL_MS), ms),
            Ok(Some(MAX_DEFERRAL_MS))
        );
        assert_eq!(
            deferred_ttl_ms(Duration::from_millis(MAX_DEFERRAL_MS + 1), ms),
            Ok(None)
        );
        // 24.8 days rounds up past the limit at one-second granularity.
        assert_eq!(
            deferred_ttl_ms(
                Duration::from_millis(MAX_DEFERRAL_MS),
                Duration::from_secs(1)
            ),
            Ok(None)
        );
        assert_eq!(
            deferred_ttl_ms(Duration::from_secs(30 * 86_400), Duration::from_secs(1)),
            Ok(None)
        );
        let huge_step = Duration::from_secs(u64::MAX);
        assert_eq!(deferred_ttl_ms(Duration::MAX, huge_step), Ok(None));
        assert_eq!(deferred_ttl_ms(Duration::ZERO, huge_step), Ok(None));
        assert_eq!(deferred_ttl_ms(Duration::MAX, ms), Ok(None));
        assert_eq!(
            deferred_ttl_ms(Duration::ZERO, Duration::from_millis(MAX_DEFERRAL_MS + 1)),
            Ok(None)
        );
    }

    #[test]
    fn deferred_ttl_rejects_bad_granularity() {
        assert_eq!(
            deferred_ttl_ms(Duration::from_secs(1), Duration::ZERO),
            Err(GranularityError::Zero)
        );
        assert_eq!(
            deferred_ttl_ms(Duration::from_secs(1), Duration::from_micros(1500)),
            Err(GranularityError::NotWholeMilliseconds)
        );
    }

    #[test]
    fn parses_hold_queue_names_exactly() {
        let o = opts();
        assert_eq!(
            parse_deferred_queue_name("q", "q.deferred.30000", &o),
            Ok(Some(30_000))
        );
        assert_eq!(parse_deferred_queue_name("q", "q.dead", &o), Ok(None));
        assert_eq!(parse_deferred_queue_name("q", "q", &o), Ok(None));
        assert_eq!(
            parse_deferred_queue_name("q", "q2.deferred.1000", &o),
            Ok(None)
        );
        assert_eq!(
            parse_deferred_queue_name("q", "q.deferred.abc", &o),
            Err(())
        );
        assert_eq!(parse_deferred_queue_name("q", "q.deferred.", &o), Err(()));
        assert_eq!(parse_deferred_queue_name("q", "q.deferred.0", &o), Err(()));
        assert_eq!(
            parse_deferred_queue_name("q", "q.deferred.010", &o),
            Err(())
        );
        assert_eq!(parse_deferred_queue_name("q", "q.deferred.+5", &o), Err(()));
        assert_eq!(
            parse_deferred_queue_name("q", "q.deferred.2147483648", &o),
            Err(())
        );
        assert_eq!(
            parse_deferred_queue_name("q", "q.deferred.1000.x", &o),
            Err(())
        );
    }
}
