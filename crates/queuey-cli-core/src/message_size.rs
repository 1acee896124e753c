//! The broker's `max_message_size`: what queuey knows of it, the size of the probe that asks,
//! and the refusal that answers.
//!
//! RabbitMQ refuses a publish whose body is over `max_message_size` (128 MiB by default on
//! 3.x, 16 MiB from 4.0; 1 byte to 512 MiB) by closing the channel with 406
//! PRECONDITION_FAILED, "message size N is larger than configured max size M" (or "... than
//! max size M" at the 512 MiB ceiling). Dead-lettering does not check the size, and the limit
//! may be lowered after a message was queued: `q.dead` can hold a dead letter no publish can
//! move. The AMQP client cannot read the limit; a publish of a zero body of a chosen size, to
//! nowhere, can (`broker::message_size`), and the refusal names the exact limit, so one refused
//! probe answers for every size after it.
//!
//! Asking costs a round trip and the probe's bytes: bodies up to [`ASSUMED_TO_FIT`] are not
//! asked about (no broker is configured that low in practice, and a replay of small bodies must
//! not slow down), and a probe's size is rounded up ([`probe_size`]) so that one probe answers
//! for many bodies of about the same size.

/// Bodies up to this size are published without asking (1 MiB).
pub const ASSUMED_TO_FIT: u64 = 1 << 20;

/// The smallest probe (64 KiB).
pub const MIN_PROBE: u64 = 64 << 10;

/// One MiB.
const MIB: u64 = 1 << 20;

/// The routing key of a probe: through the default exchange to a queue no client may declare
/// (`amq.` names are reserved), so a probe that fits is routed nowhere and delivered nowhere.
pub const PROBE_ROUTING_KEY: &str = "amq.queuey.max-message-size-probe";

/// What a body of a given size meets at the broker.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Verdict {
    /// The broker takes it.
    Fits,
    /// The broker refuses it: over the limit, which is known exactly.
    TooLarge { limit: u64 },
    /// Not known yet: a probe of this many bytes would tell.
    Unknown { probe: u64 },
}

/// The size of the probe that answers for a body of `body` bytes: at least [`MIN_PROBE`], a
/// power of two up to 1 MiB, a whole number of MiB above. Never below `body`.
pub fn probe_size(body: u64) -> u64 {
    if body <= MIN_PROBE {
        MIN_PROBE
    } else if body <= MIB {
        body.next_power_of_two()
    } else {
        body.div_ceil(MIB).saturating_mul(MIB)
    }
}

/// What queuey has learnt of one connection's limit: a size the broker took, and the limit
/// itself once a refusal has named it.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct MaxMessageSize {
    /// The largest probe the broker took.
    fits_up_to: u64,
    /// The limit, named by a refusal.
    limit: Option<u64>,
}

impl MaxMessageSize {
    /// The verdict on a body of `body` bytes from what is known.
    pub fn verdict(&self, body: u64) -> Verdict {
        match self.limit {
            Some(limit) if body > limit => Verdict::TooLarge { limit },
            Some(_) => Verdict::Fits,
            None if body <= ASSUMED_TO_FIT || body <= self.fits_up_to => Verdict::Fits,
            None => Verdict::Unknown {
                probe: probe_size(body),
            },
        }
    }

    /// The broker took a probe of `size` bytes.
    pub fn took(&mut self, size: u64) {
        self.fits_up_to = self.fits_up_to.max(size);
    }

    /// The broker refused a probe and named its limit.
    pub fn refused(&mut self, limit: u64) {
        self.limit = Some(limit);
    }

    /// The limit, when a refusal has named it.
    pub fn limit(&self) -> Option<u64> {
        self.limit
    }
}

/// The size and the limit a refusal names: the reply text of RabbitMQ's channel close, with or
/// without its `PRECONDITION_FAILED - ` prefix. `None` for any other text.
pub fn parse_refusal(text: &str) -> Option<(u64, u64)> {
    let text = text.strip_prefix("PRECONDITION_FAILED - ").unwrap_or(text);
    let rest = text.strip_prefix("message size ")?;
    let (size, rest) = rest.split_once(' ')?;
    let limit = rest
        .strip_prefix("is larger than configured max size ")
        .or_else(|| rest.strip_prefix("is larger than max size "))?;
    Some((number(size)?, number(limit)?))
}

/// A decimal number as Erlang's `~B` writes it: digits only.
fn number(text: &str) -> Option<u64> {
    if text.is_empty() || !text.bytes().all(|b| b.is_ascii_digit()) {
        return None;
    }
    text.parse().ok()
}

/// Why a body of `body` bytes stays, for a report: the limit and the way out.
pub fn too_large(body: u64, limit: u64) -> String {
    format!(
        "its body ({body} bytes) is larger than the broker's max_message_size {limit}: the \
         broker would refuse the copy; not published. Raise max_message_size (rabbitmq.conf) \
         or export it (dead export)"
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_probe_is_rounded_up_to_a_power_of_two_then_whole_mib() {
        assert_eq!(probe_size(0), MIN_PROBE);
        assert_eq!(probe_size(1), MIN_PROBE);
        assert_eq!(probe_size(MIN_PROBE), MIN_PROBE);
        assert_eq!(probe_size(MIN_PROBE + 1), 128 << 10);
        assert_eq!(probe_size(300_000), 512 << 10);
        assert_eq!(probe_size(MIB), MIB);
        assert_eq!(probe_size(MIB + 1), 2 * MIB);
        assert_eq!(probe_size(3 * MIB - 1), 3 * MIB);
        assert_eq!(probe_size(3 * MIB), 3 * MIB);
        assert_eq!(probe_size(512 * MIB + 1), 513 * MIB);
        assert_eq!(probe_size(u64::MAX), u64::MAX);
        for body in [
            0,
            1,
            65_535,
            65_537,
            1 << 19,
            MIB - 1,
            MIB,
            MIB + 1,
            17 * MIB + 5,
        ] {
            assert!(probe_size(body) >= body, "{body}");
        }
    }

    #[test]
    fn small_bodies_are_not_asked_about_and_one_refusal_answers_for_every_size() {
        let mut known = MaxMessageSize::default();
        assert_eq!(known.verdict(ASSUMED_TO_FIT), Verdict::Fits);
        assert_eq!(
            known.verdict(ASSUMED_TO_FIT + 1),
            Verdict::Unknown { probe: 2 * MIB }
        );
        known.took(2 * MIB);
        assert_eq!(known.verdict(2 * MIB), Verdict::Fits);
        assert_eq!(
            known.verdict(2 * MIB + 1),
            Verdict::Unknown { probe: 3 * MIB }
        );
        known.refused(2 * MIB + 7);
        assert_eq!(known.limit(), Some(2 * MIB + 7));
        assert_eq!(known.verdict(2 * MIB + 7), Verdict::Fits);
        assert_eq!(
            known.verdict(2 * MIB + 8),
            Verdict::TooLarge { limit: 2 * MIB + 7 }
        );
        // A limit below the size assumed to fit is the limit, once known.
        known.refused(100);
        assert_eq!(known.verdict(101), Verdict::TooLarge { limit: 100 });
        assert_eq!(known.verdict(100), Verdict::Fits);
    }

    #[test]
    fn the_refusal_names_the_size_and_the_limit() {
        assert_eq!(
            parse_refusal(
                "PRECONDITION_FAILED - message size 9437184 is larger than configured max size 8388608"
            ),
            Some((9_437_184, 8_388_608))
        );
        assert_eq!(
            parse_refusal("message size 536870913 is larger than max size 536870912"),
            Some((536_870_913, 536_870_912))
        );
        for other in [
            "",
            "PRECONDITION_FAILED - message size is larger than configured max size 1",
            "PRECONDITION_FAILED - message size 1 is larger than configured max size",
            "PRECONDITION_FAILED - message size 1 is larger than configured max size 2x",
            "PRECONDITION_FAILED - message size -1 is larger than configured max size 2",
            "PRECONDITION_FAILED - inequivalent arg 'x-max-length'",
            "NOT_FOUND - no queue 'q'",
        ] {
            assert_eq!(parse_refusal(other), None, "{other}");
        }
    }

    #[test]
    fn a_report_names_the_limit_and_the_way_out() {
        let why = too_large(9_437_184, 8_388_608);
        assert!(why.contains("max_message_size 8388608"), "{why}");
        assert!(why.contains("9437184 bytes"), "{why}");
        assert!(why.contains("export"), "{why}");
    }
}
