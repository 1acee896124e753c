//! Pure helpers describing the RabbitMQ topology of a queuey job queue.
//!
//! This module is the documentation page of `queuey_rabbitmq::topology` (the queuey job-queue
//! library, 1.x) in Rust: its constants and functions carry the library's names and values, and
//! compute what the library computes for every input (a property test compares the two, with the
//! library as a dev-dependency). It never touches a connection, a file or the clock, so
//! everything here is unit-tested without a broker; the broker layer turns [`QueueArgs`] into
//! AMQP tables.
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
//! A queue's defaults are the library's `QueueConfig::new`: durable, classic, no message TTL,
//! [`DEFAULT_MAX_PRIORITY`] priority levels.
//!
//! queuey's one extension to the library is the quorum work queue : a quorum `q` also
//! carries `x-queue-type = quorum`, `x-delivery-limit` when set, and dead-letters to `q.dead`, so
//! that a message past its delivery limit is kept in `q.dead` instead of being dropped. A queuey
//! 1.x application declares classic queues only, so a quorum `q` is for queues the application
//! does not declare itself (it would otherwise fail its own declaration with PRECONDITION_FAILED).
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
/// Queue argument choosing the queue type (queuey's quorum extension).
pub const ARG_QUEUE_TYPE: &str = "x-queue-type";
/// Queue argument bounding how often a quorum queue redelivers one message .
pub const ARG_DELIVERY_LIMIT: &str = "x-delivery-limit";

/// Default suffix appended to a queue name to build its dead-letter queue.
pub const DEFAULT_DEAD_SUFFIX: &str = ".dead";
/// Default infix between a queue name and a hold queue's TTL: a hold queue is
/// `{q}{suffix}.{ttl_ms}`, so a suffix `.hold` gives `q.hold.30000`.
pub const DEFAULT_DEFERRED_SUFFIX: &str = ".deferred";

/// Header mirroring the envelope's `attempt` on every publish (a `u32`, `LongUInt`).
pub const HEADER_ATTEMPT: &str = "x-attempt";
/// Header carrying the number of attempts made before dead-lettering (a `u32`).
pub const HEADER_ATTEMPTS: &str = "x-attempts";
/// Header carrying the dead-lettering reason on messages routed to `q.dead` (a long string).
pub const HEADER_DEATH_REASON: &str = "x-death-reason";
/// Header mirroring the envelope's `deferrals` on every publish (a `u32`).
pub const HEADER_DEFERRALS: &str = "x-deferrals";
/// Header carrying the originating queue name on messages routed to `q.dead` (a long string).
pub const HEADER_ORIGINAL_QUEUE: &str = "x-original-queue";

/// Largest time-to-live RabbitMQ accepts, in milliseconds (`u32::MAX`, ~49.7 days).
///
/// Brokers from 3.10.2 accept up to ten years; queuey keeps the library's tighter bound.
pub const MAX_TTL_MS: u32 = u32::MAX;
/// Longest delay this backend will hold, in milliseconds (`MAX_TTL_MS / 2`, ~24.8 days), so
/// that a hold queue's `x-expires = 2 * ttl_ms` never passes [`MAX_TTL_MS`].
pub const MAX_DEFERRAL_MS: u32 = MAX_TTL_MS / 2;

/// Priority levels of a main queue when nothing says otherwise: the library's
/// `queuey_core::DEFAULT_MAX_PRIORITY` (`QueueConfig::new` declares `x-max-priority = 10`).
pub const DEFAULT_MAX_PRIORITY: u8 = 10;

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
///
/// The default is the library's `QueueConfig::new`: no message TTL, [`DEFAULT_MAX_PRIORITY`]
/// levels, classic.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct QueueConfig {
    /// Queue-wide message TTL of `q` (`x-message-ttl`).
    pub message_ttl: Option<Duration>,
    /// Number of priority levels of `q` (`x-max-priority`), 1..=255; `None` is no priorities.
    pub max_priority: Option<u8>,
    /// Classic (the library) or quorum (queuey's extension).
    pub queue_type: QueueType,
    /// Quorum only: deliveries a message may take before it is dead-lettered to `q.dead`.
    pub delivery_limit: Option<u32>,
}

impl Default for QueueConfig {
    fn default() -> Self {
        QueueConfig {
            message_ttl: None,
            max_priority: Some(DEFAULT_MAX_PRIORITY),
            queue_type: QueueType::Classic,
            delivery_limit: None,
        }
    }
}

/// Backend options shared by the queues of one logical queue: naming and delay rounding (the
/// library's `RabbitMqOptions` fields of the same names and defaults).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct RabbitMqOptions {
    /// Suffix appended to `q` to name its dead-letter queue.
    pub dead_suffix: String,
    /// Infix between `q` and a hold queue's TTL (`{q}{suffix}.{ttl_ms}`).
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

impl RabbitMqOptions {
    /// The dead-letter queue of `queue` with these options' suffix.
    pub fn dead_queue(&self, queue: &str) -> String {
        dead_queue_name(queue, &self.dead_suffix)
    }

    /// The hold queue of `queue` for `ttl_ms` with these options' suffix.
    pub fn deferred_queue(&self, queue: &str, ttl_ms: u32) -> String {
        deferred_queue_name(queue, &self.deferred_suffix, ttl_ms)
    }
}

/// Whole milliseconds in `duration`, rounded up, unclamped.
fn millis_ceil(duration: Duration) -> u128 {
    duration.as_nanos().div_ceil(1_000_000)
}

/// The `x-message-ttl` of a queue-wide `ttl`: whole milliseconds, rounded up, clamped to
/// `[1, MAX_TTL_MS]`, as the library computes it (a zero TTL declares 1 ms).
pub fn ttl_millis(ttl: Duration) -> u32 {
    let ms = millis_ceil(ttl).clamp(1, u128::from(MAX_TTL_MS));
    u32::try_from(ms).unwrap_or(MAX_TTL_MS)
}

/// Declaration arguments for the main queue `q`.
///
/// `x-message-ttl` when a message TTL is set ([`ttl_millis`]), `x-max-priority` when a max
/// priority is set (the library). A quorum queue adds `x-queue-type = quorum`,
/// `x-delivery-limit` when set, and dead-letters to `q.dead` through the default exchange, so a
/// message past its delivery limit is kept rather than dropped (a quorum queue with
/// no dead-letter exchange drops it).
pub fn queue_args(queue: &str, config: &QueueConfig, options: &RabbitMqOptions) -> QueueArgs {
    let mut args = QueueArgs::new();
    if let Some(ttl) = config.message_ttl {
        args.insert(
            ARG_MESSAGE_TTL.to_owned(),
            ArgValue::Int(i64::from(ttl_millis(ttl))),
        );
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
            ArgValue::Str(options.dead_queue(queue)),
        );
    }
    args
}

/// Declaration arguments for the dead-letter queue `q.dead`: none.
///
/// In particular no dead-letter exchange: a DLQ that dead-letters back towards its source
/// cycles a poison message for ever.
pub fn dead_queue_args() -> QueueArgs {
    QueueArgs::new()
}

/// Name of the dead-letter queue for `queue`: `{queue}{suffix}`.
pub fn dead_queue_name(queue: &str, suffix: &str) -> String {
    format!("{queue}{suffix}")
}

/// Declaration arguments for the hold queue `q.deferred.{ttl_ms}`.
///
/// Messages wait `ttl_ms`, then dead-letter through the default exchange back to `queue`; the
/// queue deletes itself after `2 * ttl_ms` unused, clamped to [`MAX_TTL_MS`] (only reachable
/// with a TTL past [`MAX_DEFERRAL_MS`], which [`deferred_ttl_ms`] never returns).
pub fn deferred_queue_args(queue: &str, ttl_ms: u32) -> QueueArgs {
    let expires = u64::from(ttl_ms)
        .saturating_mul(2)
        .min(u64::from(MAX_TTL_MS));
    let mut args = QueueArgs::new();
    args.insert(ARG_MESSAGE_TTL.to_owned(), ArgValue::Int(i64::from(ttl_ms)));
    args.insert(
        ARG_DEAD_LETTER_EXCHANGE.to_owned(),
        ArgValue::Str(String::new()),
    );
    args.insert(
        ARG_DEAD_LETTER_ROUTING_KEY.to_owned(),
        ArgValue::Str(queue.to_owned()),
    );
    args.insert(
        ARG_EXPIRES.to_owned(),
        ArgValue::Int(i64::try_from(expires).unwrap_or(i64::from(MAX_TTL_MS))),
    );
    args
}

/// Name of the hold queue holding `ttl_ms`-long waits of `queue`: `{queue}{suffix}.{ttl_ms}`.
pub fn deferred_queue_name(queue: &str, suffix: &str, ttl_ms: u32) -> String {
    format!("{queue}{suffix}.{ttl_ms}")
}

/// The hold queue TTL for `delay`: `delay` rounded up to a whole multiple of `granularity`, at
/// least one whole step, or `None` when that lands past [`MAX_DEFERRAL_MS`] (a longer delay is
/// refused, never clamped: the job must never come back early).
///
/// Exactly the library's function: both durations are first taken in whole milliseconds,
/// rounded up, and the granularity is clamped to `[1 ms, MAX_DEFERRAL_MS]`, so a zero or
/// absurd granularity is corrected rather than refused. (The command line still refuses a
/// zero granularity as a setting: it is almost certainly a typo.)
pub fn deferred_ttl_ms(delay: Duration, granularity: Duration) -> Option<u32> {
    let max = u128::from(MAX_DEFERRAL_MS);
    let step = millis_ceil(granularity).clamp(1, max);
    let ttl = millis_ceil(delay)
        .div_ceil(step)
        .saturating_mul(step)
        .max(step);
    if ttl > max {
        return None;
    }
    u32::try_from(ttl).ok()
}

/// The longest hold queue name `queue` can have: its TTL is [`MAX_DEFERRAL_MS`], ten digits.
/// The library refuses to declare a queue whose longest hold queue name passes 255 bytes.
pub fn longest_deferred_queue_name(queue: &str, options: &RabbitMqOptions) -> String {
    options.deferred_queue(queue, MAX_DEFERRAL_MS)
}

/// The TTL embedded in a hold queue's name, when `name` is exactly `queue` + deferred suffix +
/// `.` + a canonical decimal TTL (no sign, no leading zero) within 1..=[`MAX_DEFERRAL_MS`].
///
/// `Err(())` marks a name that carries the infix but no valid TTL (`q.deferred.abc`,
/// `q.deferred.007`); `Ok(None)` a name that is not a hold queue of `queue` at all
/// (`q.deferredx`, `q.dead`).
#[allow(clippy::result_unit_err)]
pub fn parse_deferred_queue_name(
    queue: &str,
    name: &str,
    options: &RabbitMqOptions,
) -> Result<Option<u32>, ()> {
    let Some(digits) = name
        .strip_prefix(queue)
        .and_then(|r| r.strip_prefix(options.deferred_suffix.as_str()))
        .and_then(|r| r.strip_prefix('.'))
    else {
        return Ok(None);
    };
    if digits.is_empty()
        || !digits.bytes().all(|b| b.is_ascii_digit())
        || (digits.len() > 1 && digits.starts_with('0'))
    {
        return Err(());
    }
    match digits.parse::<u32>() {
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
    fn queue_types_show_as_rabbitmq_names_them() {
        assert_eq!(QueueType::Classic.to_string(), "classic");
        assert_eq!(QueueType::Quorum.to_string(), "quorum");
        assert_eq!(format!("{:>8}", QueueType::Quorum.as_str()), "  quorum");
    }

    fn plain() -> QueueConfig {
        QueueConfig {
            max_priority: None,
            ..QueueConfig::default()
        }
    }

    #[test]
    fn constants_have_the_library_values() {
        assert_eq!(DEFAULT_DEAD_SUFFIX, ".dead");
        assert_eq!(DEFAULT_DEFERRED_SUFFIX, ".deferred");
        assert_eq!(MAX_TTL_MS, 4_294_967_295);
        assert_eq!(MAX_DEFERRAL_MS, 2_147_483_647);
        const { assert!(2 * (MAX_DEFERRAL_MS as u64) <= MAX_TTL_MS as u64) };
        assert_eq!(HEADER_ATTEMPT, "x-attempt");
        assert_eq!(HEADER_ATTEMPTS, "x-attempts");
        assert_eq!(HEADER_DEATH_REASON, "x-death-reason");
        assert_eq!(HEADER_DEFERRALS, "x-deferrals");
        assert_eq!(HEADER_ORIGINAL_QUEUE, "x-original-queue");
        assert_eq!(ARG_DEAD_LETTER_EXCHANGE, "x-dead-letter-exchange");
        assert_eq!(ARG_DEAD_LETTER_ROUTING_KEY, "x-dead-letter-routing-key");
        assert_eq!(ARG_EXPIRES, "x-expires");
        assert_eq!(ARG_MAX_PRIORITY, "x-max-priority");
        assert_eq!(ARG_MESSAGE_TTL, "x-message-ttl");
        assert_eq!(DEFAULT_MAX_PRIORITY, 10);
    }

    #[test]
    fn the_default_queue_has_ten_priority_levels() {
        let args = queue_args("q", &QueueConfig::default(), &opts());
        let expected: QueueArgs = [(ARG_MAX_PRIORITY.to_owned(), int(10))]
            .into_iter()
            .collect();
        assert_eq!(args, expected);
        assert!(queue_args("q", &plain(), &opts()).is_empty());
    }

    #[test]
    fn queue_args_ttl_and_priority() {
        let config = QueueConfig {
            message_ttl: Some(Duration::from_secs(3600)),
            max_priority: Some(3),
            ..QueueConfig::default()
        };
        let args = queue_args("orders", &config, &opts());
        let expected: QueueArgs = [
            (ARG_MESSAGE_TTL.to_owned(), int(3_600_000)),
            (ARG_MAX_PRIORITY.to_owned(), int(3)),
        ]
        .into_iter()
        .collect();
        assert_eq!(args, expected);
    }

    #[test]
    fn message_ttl_is_whole_milliseconds_rounded_up_within_one_and_max_ttl() {
        let ttl = |d: Duration| {
            queue_args(
                "q",
                &QueueConfig {
                    message_ttl: Some(d),
                    ..plain()
                },
                &opts(),
            )
            .get(ARG_MESSAGE_TTL)
            .cloned()
        };
        assert_eq!(ttl(Duration::ZERO), Some(int(1)));
        assert_eq!(ttl(Duration::from_nanos(1)), Some(int(1)));
        assert_eq!(ttl(Duration::from_micros(1_500)), Some(int(2)));
        assert_eq!(ttl(Duration::from_millis(5_000)), Some(int(5_000)));
        assert_eq!(
            ttl(Duration::from_millis(u64::from(MAX_TTL_MS))),
            Some(int(i64::from(MAX_TTL_MS)))
        );
        assert_eq!(ttl(Duration::MAX), Some(int(i64::from(MAX_TTL_MS))));
    }

    #[test]
    fn quorum_queue_dead_letters_to_its_dead_queue() {
        let config = QueueConfig {
            queue_type: QueueType::Quorum,
            delivery_limit: Some(5),
            ..plain()
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
            ..plain()
        };
        let args = queue_args("q", &config, &opts());
        assert!(!args.contains_key(ARG_DELIVERY_LIMIT));
        assert_eq!(args.get(ARG_DEAD_LETTER_ROUTING_KEY), Some(&s("q.dead")));
    }

    #[test]
    fn classic_ignores_delivery_limit() {
        let config = QueueConfig {
            delivery_limit: Some(3),
            ..plain()
        };
        assert!(queue_args("q", &config, &opts()).is_empty());
    }

    #[test]
    fn dead_queue_has_no_arguments() {
        assert!(dead_queue_args().is_empty());
    }

    #[test]
    fn names() {
        assert_eq!(
            dead_queue_name("orders", DEFAULT_DEAD_SUFFIX),
            "orders.dead"
        );
        assert_eq!(opts().dead_queue("orders"), "orders.dead");
        assert_eq!(
            deferred_queue_name("orders", DEFAULT_DEFERRED_SUFFIX, 30_000),
            "orders.deferred.30000"
        );
        let custom = RabbitMqOptions {
            dead_suffix: "-dlq".into(),
            deferred_suffix: ".hold".into(),
            ..opts()
        };
        assert_eq!(custom.dead_queue("a.b"), "a.b-dlq");
        assert_eq!(custom.deferred_queue("q", 30_000), "q.hold.30000");
        assert_eq!(
            longest_deferred_queue_name("q", &opts()),
            "q.deferred.2147483647"
        );
    }

    #[test]
    fn deferred_args_match_the_library() {
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
        assert_eq!(
            deferred_queue_args("q", MAX_TTL_MS).get(ARG_EXPIRES),
            Some(&int(i64::from(MAX_TTL_MS)))
        );
    }

    #[test]
    fn deferred_ttl_rounds_up_to_the_granularity() {
        let sec = Duration::from_secs(1);
        let ttl = |d: Duration| deferred_ttl_ms(d, sec);
        assert_eq!(ttl(Duration::from_millis(29_200)), Some(30_000));
        assert_eq!(ttl(Duration::from_secs(30)), Some(30_000));
        assert_eq!(ttl(Duration::from_nanos(30_000_000_001)), Some(31_000));
        assert_eq!(ttl(Duration::ZERO), Some(1_000));
        assert_eq!(ttl(Duration::from_nanos(1)), Some(1_000));
        assert_eq!(
            deferred_ttl_ms(Duration::from_millis(1234), Duration::from_millis(1)),
            Some(1234)
        );
        // A sub-millisecond granularity is whole milliseconds rounded up, like a delay.
        assert_eq!(
            deferred_ttl_ms(Duration::from_millis(3), Duration::from_micros(1500)),
            Some(4)
        );
    }

    #[test]
    fn deferred_ttl_refuses_past_the_limit() {
        let ms = Duration::from_millis(1);
        let max = u64::from(MAX_DEFERRAL_MS);
        assert_eq!(
            deferred_ttl_ms(Duration::from_millis(max), ms),
            Some(MAX_DEFERRAL_MS)
        );
        assert_eq!(deferred_ttl_ms(Duration::from_millis(max + 1), ms), None);
        // 24.8 days rounds up past the limit at one-second granularity.
        assert_eq!(
            deferred_ttl_ms(Duration::from_millis(max), Duration::from_secs(1)),
            None
        );
        assert_eq!(
            deferred_ttl_ms(Duration::from_secs(30 * 86_400), Duration::from_secs(1)),
            None
        );
        assert_eq!(deferred_ttl_ms(Duration::MAX, ms), None);
    }

    #[test]
    fn deferred_ttl_clamps_the_granularity_like_the_library() {
        assert_eq!(
            deferred_ttl_ms(Duration::from_millis(7), Duration::ZERO),
            Some(7)
        );
        assert_eq!(deferred_ttl_ms(Duration::ZERO, Duration::ZERO), Some(1));
        assert_eq!(
            deferred_ttl_ms(Duration::from_secs(1), Duration::MAX),
            Some(MAX_DEFERRAL_MS)
        );
        assert_eq!(deferred_ttl_ms(Duration::MAX, Duration::MAX), None);
    }

    #[test]
    fn parses_hold_queue_names_exactly() {
        let o = opts();
        let parse = |name: &str| parse_deferred_queue_name("q", name, &o);
        assert_eq!(parse("q.deferred.30000"), Ok(Some(30_000)));
        assert_eq!(parse("q.dead"), Ok(None));
        assert_eq!(parse("q"), Ok(None));
        assert_eq!(parse("q.deferred"), Ok(None));
        assert_eq!(parse("q.deferredx.5"), Ok(None));
        assert_eq!(parse("q2.deferred.1000"), Ok(None));
        assert_eq!(parse("q.deferred.abc"), Err(()));
        assert_eq!(parse("q.deferred."), Err(()));
        assert_eq!(parse("q.deferred.0"), Err(()));
        assert_eq!(parse("q.deferred.010"), Err(()));
        assert_eq!(parse("q.deferred.+5"), Err(()));
        assert_eq!(parse("q.deferred.2147483648"), Err(()));
        assert_eq!(parse("q.deferred.99999999999"), Err(()));
        assert_eq!(parse("q.deferred.1000.x"), Err(()));
        let hold = RabbitMqOptions {
            deferred_suffix: ".hold".into(),
            ..opts()
        };
        assert_eq!(
            parse_deferred_queue_name("q", "q.hold.250", &hold),
            Ok(Some(250))
        );
        assert_eq!(
            parse_deferred_queue_name("q", "q.deferred.250", &hold),
            Ok(None)
        );
    }
}
