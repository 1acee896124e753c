//! PURE: returning a quorum queue's held deliveries in their order.
//!
//! A look holds every delivery it reads and returns them all at its end. A quorum queue puts
//! the messages of one `basic.nack` back in the order the nack lists them, but a nack that
//! covers the deliveries of several consumers is split by consumer in an order of the broker's
//! own, while one nack per consumer, in order, keeps the order (see docs/broker-notes.md,
//! Peeking and requeueing). A look reads a quorum queue in rounds, a
//! consumer each, so it returns them round by round: [`HeldTags`] keeps which round holds each
//! delivery tag, and [`HeldTags::returns_counted`] gives the tags to nack, each with `multiple`, in
//! order: each covers one round's deliveries still held since the one before. Acks release their
//! tags ([`HeldTags::release`], [`HeldTags::release_up_to`] for a multiple ack), so a replay or
//! a purge, which acks as it goes, returns what it keeps in order too.

/// A stretch of consecutive delivery tags held by one round.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
struct Stretch {
    round: u32,
    first: u64,
    last: u64,
}

/// The delivery tags a channel holds, by round (see the module's doc). Memory is a [`Stretch`] per
/// run of consecutive tags of one round, not a word per tag.
#[derive(Clone, Debug, Default)]
pub struct HeldTags {
    /// Sorted by `first`, disjoint.
    stretches: Vec<Stretch>,
}

impl HeldTags {
    /// `tag` was delivered to the consumer of `round`.
    pub fn hold(&mut self, round: u32, tag: u64) {
        // Tags grow; a cancelled round's late deliveries may be read after the next round's.
        let at = self.stretches.partition_point(|r| r.first < tag);
        if self.stretches.get(at).is_some_and(|r| r.first == tag) {
            return; // held already
        }
        if at > 0 {
            let before = &mut self.stretches[at - 1];
            if before.round == round && before.last + 1 == tag {
                before.last = tag;
                return;
            }
            if before.last >= tag {
                return; // held already
            }
        }
        self.stretches.insert(
            at,
            Stretch {
                round,
                first: tag,
                last: tag,
            },
        );
    }

    /// `tag` is held no more (acked, or replaced by a copy).
    pub fn release(&mut self, tag: u64) {
        let at = self.stretches.partition_point(|r| r.last < tag);
        let Some(stretch) = self.stretches.get(at).copied() else {
            return;
        };
        if tag < stretch.first {
            return;
        }
        match (tag == stretch.first, tag == stretch.last) {
            (true, true) => {
                self.stretches.remove(at);
            }
            (true, false) => self.stretches[at].first = tag + 1,
            (false, true) => self.stretches[at].last = tag - 1,
            (false, false) => {
                self.stretches[at].last = tag - 1;
                self.stretches.insert(
                    at + 1,
                    Stretch {
                        round: stretch.round,
                        first: tag + 1,
                        last: stretch.last,
                    },
                );
            }
        }
    }

    /// Every tag up to `tag` (included) is held no more: a `basic.ack(tag, multiple)`.
    pub fn release_up_to(&mut self, tag: u64) {
        let gone = self.stretches.partition_point(|r| r.last <= tag);
        self.stretches.drain(..gone);
        if let Some(stretch) = self.stretches.first_mut()
            && stretch.first <= tag
        {
            stretch.first = tag + 1;
        }
    }

    /// Whether any tag is held.
    pub fn is_empty(&self) -> bool {
        self.stretches.is_empty()
    }

    /// The tags to `basic.nack` with `multiple`, in this order, to return every held delivery
    /// round by round, each with how many held deliveries its nack returns: the last tag of
    /// each stretch of one round's tags. Each is held, so the broker knows it; each nack covers
    /// only tags held since the one before.
    ///
    /// One nack per round, however large: smaller nacks (32 deliveries at most each, what one
    /// nack is said to keep in order) lose the order where one nack per round keeps it (see
    /// docs/broker-notes.md, Peeking and requeueing).
    pub fn returns_counted(&self) -> Vec<(u64, u64)> {
        let mut out: Vec<(u64, u64)> = Vec::new();
        let mut previous: Option<u32> = None;
        for stretch in &self.stretches {
            let n = stretch.last - stretch.first + 1;
            match out.last_mut() {
                // The same round again, nothing of another in between: one nack for both.
                Some((last, count)) if previous == Some(stretch.round) => {
                    *last = stretch.last;
                    *count += n;
                }
                _ => out.push((stretch.last, n)),
            }
            previous = Some(stretch.round);
        }
        out
    }

    /// The tags of [`HeldTags::returns_counted`] alone.
    #[cfg(test)]
    pub fn returns(&self) -> Vec<u64> {
        self.returns_counted()
            .into_iter()
            .map(|(tag, _)| tag)
            .collect()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn rounds_are_returned_one_after_another_in_tag_order() {
        let mut h = HeldTags::default();
        for tag in 1..=3 {
            h.hold(0, tag);
        }
        for tag in 4..=9 {
            h.hold(1, tag);
        }
        assert_eq!(h.returns(), [3, 9]);
        for tag in 12..=80 {
            h.hold(3, tag);
        }
        assert_eq!(h.returns(), [3, 9, 80], "one nack per round");
        for tag in 12..=80 {
            h.release(tag);
        }
        // A cancelled round's late delivery, read after the next round's.
        h.hold(2, 11);
        h.hold(1, 10);
        assert_eq!(h.returns(), [3, 10, 11]);
    }

    #[test]
    fn released_tags_are_never_named_and_a_gap_in_one_round_is_one_nack() {
        let mut h = HeldTags::default();
        for tag in 1..=5 {
            h.hold(0, tag);
        }
        h.release(3);
        assert_eq!(h.returns(), [5], "4..5 and 1..2: one multiple nack at 5");
        assert_eq!(h.returns_counted(), [(5, 4)]);
        h.release(5);
        assert_eq!(h.returns(), [4]);
        for tag in 6..=7 {
            h.hold(1, tag);
        }
        h.release(7);
        assert_eq!(h.returns(), [4, 6]);
        for tag in [1, 2, 4, 6] {
            h.release(tag);
        }
        assert!(h.is_empty());
        assert!(h.returns().is_empty());
        h.release(99);
    }

    /// Every held tag is covered once, by a nack of its own round.
    #[test]
    fn every_nack_covers_one_rounds_tags() {
        let mut h = HeldTags::default();
        let mut round_of = std::collections::BTreeMap::new();
        for tag in 1..=500u64 {
            let round = u32::try_from(tag / 70).unwrap();
            h.hold(round, tag);
            round_of.insert(tag, round);
        }
        for tag in (5..500).step_by(7) {
            h.release(tag);
            round_of.remove(&tag);
        }
        let mut covered = 0;
        let mut from = 0;
        for at in h.returns() {
            assert!(round_of.contains_key(&at), "{at} is held");
            let tags: Vec<(&u64, &u32)> = round_of.range(from + 1..=at).collect();
            assert!(!tags.is_empty(), "{at}");
            assert!(
                tags.iter().all(|(_, r)| **r == *tags[0].1),
                "{at}: one round"
            );
            covered += tags.len();
            from = at;
        }
        assert_eq!(covered, round_of.len());
    }

    /// A multiple ack releases every held tag up to its own, whatever the rounds; what is
    /// left goes back round by round.
    #[test]
    fn a_multiple_ack_releases_every_tag_up_to_its_own() {
        let mut h = HeldTags::default();
        for tag in 1..=10 {
            h.hold(0, tag);
        }
        for tag in 11..=20 {
            h.hold(1, tag);
        }
        h.release(13);
        h.release_up_to(5);
        assert_eq!(h.returns(), [10, 20]);
        h.release_up_to(12);
        assert_eq!(h.returns(), [20], "13 was released already, 14..20 held");
        h.release_up_to(13);
        assert_eq!(h.returns(), [20]);
        h.hold(2, 21);
        h.release_up_to(19);
        assert_eq!(h.returns(), [20, 21]);
        h.release_up_to(0);
        assert_eq!(h.returns(), [20, 21], "tag 0 names nothing");
        h.release_up_to(u64::MAX);
        assert!(h.is_empty());
    }

    #[test]
    fn a_tag_held_twice_is_one() {
        let mut h = HeldTags::default();
        h.hold(0, 1);
        h.hold(0, 2);
        h.hold(0, 2);
        h.hold(1, 1);
        assert_eq!(h.returns(), [2]);
    }
}
