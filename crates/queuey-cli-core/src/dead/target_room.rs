//! PURE: whether one more replayed copy fits in its target queue, copy by copy, for the targets
//! that have a length limit (`plan::bounds`).
//!
//! A copy that does not fit is not published: its dead letter stays in `q.dead`, counted as
//! failed with the reason. Publishing it would do worse than fail: a `reject-publish-dlx`
//! target refuses it *and* dead-letters it, often back into `q.dead` (the job then twice
//! there), and a `drop-head` target takes it by pushing out its own oldest job (dead-lettered
//! or lost), which only `--allow-drop-head` accepts. A `reject-publish` target would only
//! refuse it, but saying why beats a nack.
//!
//! The room is judged from counts, not guessed: the target's ready messages (a passive
//! declare, exact) when the run meets it first, plus the copies admitted since. When a copy does
//! not fit, the run counts again (at most once a second: consumers may have made room), and
//! copies still in flight count as held. `max-length-bytes` is judged from the management API's
//! `message_bytes_ready` at the start (statistics, seconds old) plus the bodies admitted since,
//! never counted again. A dry run judges from the first count alone. What a count misses (a
//! producer filling the queue in between) a `reject-publish` target still refuses (the replay
//! accounts for those copies, `commands::replay`); a `drop-head` one would push out its oldest.
//!
//! A target whose limits could not be read at all (no management API, a policy queuey cannot
//! evaluate) is never taken as unbounded, nor as one that refuses: a limit set by a policy,
//! which AMQP cannot see, with RabbitMQ's default overflow (`drop-head`) takes every copy and
//! pushes out as many of the queue's own jobs. Its copies stay, unless `--allow-drop-head`.

use std::collections::{HashMap, HashSet};
use std::time::{Duration, Instant};

use serde::Serialize;

use crate::plan::bounds::{Bounds, Overflow};

/// How often, at most, a run counts a full target again.
pub const RECOUNT_EVERY: Duration = Duration::from_secs(1);

/// What the run knows of a target queue.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Known {
    /// It does not exist: copies come back unroutable (and stay), as without a limit.
    Missing,
    /// No length limit, or a stream.
    Unbounded,
    /// Its limits could not be read (no management API, the API refused, a policy queuey
    /// cannot evaluate): why, in words. A limit set by a policy, which AMQP cannot see, with
    /// RabbitMQ's default overflow (`drop-head`) would take each copy and push out the queue's
    /// oldest job, refusing nothing: so copies go only with `--allow-drop-head`.
    Unknown(Unread),
    /// Bounded: the room, counted.
    Bounded(Room),
    /// It takes nothing now (a quorum queue without a majority of its members online): why.
    /// Copies are not published, and their dead letters stay.
    Closed(String),
}

/// A target whose limits could not be read, and what the run did with its copies
/// (`targets[].limits_unread` in JSON).
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct Unread {
    /// Why not, in words: `no management API`.
    pub why: String,
    /// Copies not published (their dead letters stay).
    pub kept: u64,
    /// Copies published under `--allow-drop-head`.
    pub published: u64,
}

impl Unread {
    pub fn new(why: impl Into<String>) -> Unread {
        Unread {
            why: why.into(),
            kept: 0,
            published: 0,
        }
    }
}

/// A bounded target's room.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Room {
    pub bounds: Bounds,
    /// Ready messages when the run met the target (a passive declare).
    pub held_at_start: u64,
    /// Bytes of ready bodies then (the API's statistics), when a byte limit needs them.
    pub bytes_at_start: Option<u64>,
    /// Ready messages at the last count, plus the copies then in flight.
    base: u64,
    /// Copies admitted since the last count, and their bytes since the start.
    since: u64,
    bytes_since_start: u64,
    /// Copies admitted and not yet decided by the broker.
    in_flight: u64,
    last_count: Instant,
    /// Copies not published because they did not fit.
    pub full: u64,
    /// Copies published beyond the room under `--allow-drop-head`: as many of the target's
    /// oldest messages pushed out.
    pub pushed_out: u64,
}

impl Room {
    pub fn new(bounds: Bounds, held: u64, bytes: Option<u64>, now: Instant) -> Room {
        Room {
            bounds,
            held_at_start: held,
            bytes_at_start: bytes,
            base: held,
            since: 0,
            bytes_since_start: 0,
            in_flight: 0,
            last_count: now,
            full: 0,
            pushed_out: 0,
        }
    }

    /// Whether a copy of `bytes` fits now (RabbitMQ's own test: the queue's length plus one,
    /// and its ready bytes plus the body, within each limit).
    fn fits(&self, bytes: u64) -> bool {
        let length_ok = self
            .bounds
            .max_length
            .is_none_or(|max| self.base + self.since < max);
        let bytes_ok = self.bounds.max_length_bytes.is_none_or(|max| {
            self.bytes_at_start
                .unwrap_or(0)
                .saturating_add(self.bytes_since_start)
                .saturating_add(bytes)
                <= max
        });
        length_ok && bytes_ok
    }

    /// How full it is now, in words: `holds 3 of max-length 3`.
    fn occupancy(&self) -> String {
        let mut parts = Vec::new();
        if let Some(max) = self.bounds.max_length {
            parts.push(format!(
                "holds {} of max-length {max}",
                self.base + self.since
            ));
        }
        if let Some(max) = self.bounds.max_length_bytes {
            parts.push(format!(
                "about {} bytes of max-length-bytes {max}",
                self.bytes_at_start
                    .unwrap_or(0)
                    .saturating_add(self.bytes_since_start)
            ));
        }
        parts.join(", ")
    }
}

/// The answer for one copy.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Check {
    /// The target is not known yet: read it, then call [`Rooms::learned`].
    Learn,
    /// It looks full, and a new count may find room: count, then call [`Rooms::recounted`].
    Recount,
    /// Publish it.
    Admit,
    /// Do not publish it (it stays), for this reason.
    Full(String),
}

/// What the run knows of every target it met.
pub struct Rooms {
    /// The queue replayed from (a refused copy may be dead-lettered back into it).
    source: String,
    allow_drop_head: bool,
    /// A dry run never counts again: nothing it does changes the targets.
    dry_run: bool,
    targets: HashMap<String, Known>,
    /// Targets of a type that never dead-letters a copy it refuses (see
    /// [`Rooms::learned_type`]).
    never_dead_letter_refused: HashSet<String>,
}

impl Rooms {
    pub fn new(source: &str, allow_drop_head: bool, dry_run: bool) -> Rooms {
        Rooms {
            source: source.to_owned(),
            allow_drop_head,
            dry_run,
            targets: HashMap::new(),
            never_dead_letter_refused: HashSet::new(),
        }
    }

    /// Whether one more copy of `bytes` to `target` may be published, at `now`.
    pub fn check(&mut self, target: &str, bytes: u64, now: Instant) -> Check {
        let Some(known) = self.targets.get_mut(target) else {
            return Check::Learn;
        };
        if let Known::Closed(why) = known {
            return Check::Full(format!(
                "{target:?} {why}, so the copy was not published and its dead letter stays in {:?}",
                self.source
            ));
        }
        if let Known::Unknown(unread) = known {
            if self.allow_drop_head {
                unread.published += 1;
                return Check::Admit;
            }
            unread.kept += 1;
            return Check::Full(format!(
                "the length limits of {target:?} could not be read ({}): a limit set by a \
                 policy, which AMQP cannot see, with RabbitMQ's default overflow (drop-head) \
                 would take the copy and push out the queue's oldest job, so it was not \
                 published and its dead letter stays in {:?}; --allow-drop-head publishes it \
                 anyway",
                unread.why, self.source
            ));
        }
        let Known::Bounded(room) = known else {
            return Check::Admit;
        };
        let drop_head = room.bounds.overflow == Overflow::DropHead;
        if room.fits(bytes) || (drop_head && self.allow_drop_head) {
            if !room.fits(bytes) {
                room.pushed_out += 1;
            }
            room.since += 1;
            room.bytes_since_start = room.bytes_since_start.saturating_add(bytes);
            if !self.dry_run {
                room.in_flight += 1;
            }
            return Check::Admit;
        }
        if !self.dry_run && now.duration_since(room.last_count) >= RECOUNT_EVERY {
            return Check::Recount;
        }
        room.full += 1;
        let why = match room.bounds.overflow {
            Overflow::RejectPublishDlx => format!(
                "the broker would refuse the copy and dead-letter it ({})",
                room.bounds.fate_of_the_dead()
            ),
            Overflow::RejectPublish => "the broker would refuse the copy".to_owned(),
            Overflow::DropHead => format!(
                "the copy would push out its oldest message ({}); --allow-drop-head lets copies \
                 do that",
                room.bounds.fate_of_the_dead()
            ),
        };
        Check::Full(format!(
            "{target:?} is full ({}; {}): {why}, so it was not published and its dead letter \
             stays in {:?}",
            room.occupancy(),
            room.bounds.overflow_text(),
            self.source
        ))
    }

    /// What was read of `target` (after [`Check::Learn`]).
    pub fn learned(&mut self, target: &str, known: Known) {
        self.targets.insert(target.to_owned(), known);
    }

    /// A new count of `target`'s ready messages (after [`Check::Recount`]): what is in flight
    /// still counts as held.
    pub fn recounted(&mut self, target: &str, ready: u64, now: Instant) {
        if let Some(Known::Bounded(room)) = self.targets.get_mut(target) {
            room.base = ready + room.in_flight;
            room.since = 0;
            room.last_count = now;
        }
    }

    /// The broker decided a copy to `target` (confirmed, returned or refused).
    pub fn decided(&mut self, target: &str) {
        if let Some(Known::Bounded(room)) = self.targets.get_mut(target) {
            room.in_flight = room.in_flight.saturating_sub(1);
        }
    }

    /// The type of `target` (the management API's `type`), when it is known: a quorum queue
    /// never dead-letters a copy it refuses (it knows no `reject-publish-dlx`: RabbitMQ 3.10
    /// and 4.3 run a quorum queue whose policy or argument says so as `drop-head`), and a stream refuses nothing for its length. Whatever a policy set later says, a refusal
    /// by those is only a refusal.
    pub fn learned_type(&mut self, target: &str, queue_type: Option<&str>) {
        if matches!(queue_type, Some("quorum" | "stream")) {
            self.never_dead_letter_refused.insert(target.to_owned());
        }
    }

    /// Whether what the run read of `target` explains a refusal (a nack) by it, and so where
    /// the refused copy is: a `reject-publish` or `reject-publish-dlx` limit (its dead-letter
    /// route read with it), a type that never dead-letters what it refuses, or a target that
    /// takes nothing. A target read with no limit, or as `drop-head` (which refuses nothing for
    /// its length), or not read at all, does not: its refusal says that a limit was set after
    /// the run read it (a policy: the API shows a new one seconds late) or was never read,
    /// and such a limit may be `reject-publish-dlx`, whose dead-letter route the run does not
    /// know either.
    pub fn refusal_explained(&self, target: &str) -> bool {
        if self.never_dead_letter_refused.contains(target) {
            return true;
        }
        match self.targets.get(target) {
            Some(Known::Bounded(room)) => room.bounds.overflow != Overflow::DropHead,
            Some(Known::Closed(_)) => true,
            Some(Known::Unbounded | Known::Missing | Known::Unknown(_)) | None => false,
        }
    }

    /// Whether a copy `target` refused (nacked) is back in the queue replayed from,
    /// dead-lettered there: `Some(true)` surely (`reject-publish-dlx` to that queue),
    /// `Some(false)` surely not, `None` when it cannot be told (an exchange decides, or the
    /// refusal is not what the run read of the target: see [`Rooms::refusal_explained`]).
    pub fn refused_copies_return(&self, target: &str) -> Option<bool> {
        if !self.refusal_explained(target) {
            return None;
        }
        match self.targets.get(target) {
            Some(Known::Bounded(room)) if !self.never_dead_letter_refused.contains(target) => {
                room.bounds.refused_copies_return_to(&self.source)
            }
            _ => Some(false),
        }
    }

    /// The targets whose limits could not be read, by name, with why and what the run did.
    pub fn unread(&self) -> Vec<(String, Unread)> {
        let mut unread: Vec<(String, Unread)> = self
            .targets
            .iter()
            .filter_map(|(n, k)| match k {
                Known::Unknown(u) => Some((n.clone(), u.clone())),
                _ => None,
            })
            .collect();
        unread.sort_by(|a, b| a.0.cmp(&b.0));
        unread
    }

    /// The report of each bounded target: its limits and what the run did at them.
    pub fn reports(&self) -> impl Iterator<Item = (&str, RoomReport)> {
        self.targets.iter().filter_map(|(name, known)| match known {
            Known::Bounded(room) => Some((
                name.as_str(),
                RoomReport {
                    bounds: room.bounds.clone(),
                    held_at_start: room.held_at_start,
                    bytes_at_start: room.bytes_at_start,
                    full: room.full,
                    pushed_out: room.pushed_out,
                },
            )),
            _ => None,
        })
    }
}

/// A bounded target in the report (`targets[].room` in JSON).
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct RoomReport {
    #[serde(flatten)]
    pub bounds: Bounds,
    /// Ready messages when the run met it (exact: a passive declare).
    pub held_at_start: u64,
    /// Bytes of ready bodies then (management statistics, seconds old), for a byte limit.
    pub bytes_at_start: Option<u64>,
    /// Copies not published because they did not fit (or, in a dry run, would not).
    pub full: u64,
    /// Copies published beyond the room under `--allow-drop-head`.
    pub pushed_out: u64,
}

impl RoomReport {
    /// `holds 0 of max-length 3, overflow reject-publish-dlx (policy)`.
    pub fn describe(&self) -> String {
        let mut held = Vec::new();
        if let Some(max) = self.bounds.max_length {
            held.push(format!("holds {} of max-length {max}", self.held_at_start));
        }
        if let Some(max) = self.bounds.max_length_bytes {
            held.push(format!(
                "{} of max-length-bytes {max}",
                self.bytes_at_start
                    .map_or("? bytes".to_owned(), |b| format!("{b} bytes"))
            ));
        }
        format!("{}, {}", held.join(", "), self.bounds.overflow_text())
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::plan::bounds::{DeadLetterTo, Origin};

    fn bounds(max: Option<u64>, bytes: Option<u64>, overflow: Overflow) -> Bounds {
        Bounds {
            max_length: max,
            max_length_bytes: bytes,
            overflow,
            overflow_from: Origin::Policy,
            overflow_note: None,
            dead_letters_to: Some(DeadLetterTo::Queue("q.dead".into())),
        }
    }

    fn bounded(rooms: &mut Rooms, b: Bounds, held: u64, bytes: Option<u64>, now: Instant) {
        rooms.learned("q", Known::Bounded(Room::new(b, held, bytes, now)));
    }

    /// 10 copies into a queue that holds 0 of max-length 3: 3 fit, 7 stay, each with the reason
    /// (a dry run never counts again).
    #[test]
    fn copies_fit_up_to_the_limit_and_the_rest_stay() {
        let now = Instant::now();
        let mut rooms = Rooms::new("q.dead", false, true);
        assert_eq!(rooms.check("q", 10, now), Check::Learn);
        bounded(
            &mut rooms,
            bounds(Some(3), None, Overflow::RejectPublishDlx),
            0,
            None,
            now,
        );
        let later = now + Duration::from_secs(5);
        let answers: Vec<Check> = (0..10).map(|_| rooms.check("q", 10, later)).collect();
        assert_eq!(answers[..3], [Check::Admit, Check::Admit, Check::Admit]);
        let Check::Full(why) = &answers[3] else {
            panic!("{answers:?}")
        };
        assert_eq!(
            why,
            "\"q\" is full (holds 3 of max-length 3; overflow reject-publish-dlx (policy)): the \
             broker would refuse the copy and dead-letter it (dead-lettered to the queue \
             \"q.dead\"), so it was not published and its dead letter stays in \"q.dead\""
        );
        assert!(answers[3..].iter().all(|a| matches!(a, Check::Full(_))));
        let (name, report) = rooms.reports().next().unwrap();
        assert_eq!((name, report.full, report.pushed_out), ("q", 7, 0));
        assert_eq!(
            report.describe(),
            "holds 0 of max-length 3, overflow reject-publish-dlx (policy)"
        );
        assert_eq!(rooms.refused_copies_return("q"), Some(true));
        assert_eq!(rooms.refused_copies_return("elsewhere"), None);
    }

    /// A real run counts a full target again, at most once a second, with what is in flight
    /// counted as held: room a consumer made is used, none is invented.
    #[test]
    fn a_full_target_is_counted_again_at_most_once_a_second() {
        let now = Instant::now();
        let mut rooms = Rooms::new("q.dead", false, false);
        bounded(
            &mut rooms,
            bounds(Some(2), None, Overflow::RejectPublish),
            1,
            None,
            now,
        );
        assert_eq!(rooms.check("q", 1, now), Check::Admit);
        // Within the second: full, without a count.
        assert!(matches!(rooms.check("q", 1, now), Check::Full(_)));
        let later = now + RECOUNT_EVERY;
        assert_eq!(rooms.check("q", 1, later), Check::Recount);
        // A consumer took everything; the admitted copy is still in flight.
        rooms.recounted("q", 0, later);
        assert_eq!(rooms.check("q", 1, later), Check::Admit);
        assert!(matches!(rooms.check("q", 1, later), Check::Full(_)));
        rooms.decided("q");
        rooms.decided("q");
        let again = later + RECOUNT_EVERY;
        assert_eq!(rooms.check("q", 1, again), Check::Recount);
        rooms.recounted("q", 2, again);
        assert!(matches!(rooms.check("q", 1, again), Check::Full(_)));
        let (_, report) = rooms.reports().next().unwrap();
        assert_eq!(report.full, 3);
    }

    /// drop-head: a copy that does not fit would push out the target's oldest message, refused
    /// unless --allow-drop-head, with which it goes and is counted.
    #[test]
    fn drop_head_pushes_out_only_when_allowed() {
        let now = Instant::now();
        for allow in [false, true] {
            let mut rooms = Rooms::new("q.dead", allow, true);
            bounded(
                &mut rooms,
                bounds(Some(1), None, Overflow::DropHead),
                1,
                None,
                now,
            );
            let answer = rooms.check("q", 1, now);
            if allow {
                assert_eq!(answer, Check::Admit);
                assert_eq!(rooms.reports().next().unwrap().1.pushed_out, 1);
            } else {
                let Check::Full(why) = answer else {
                    panic!("{answer:?}")
                };
                assert!(
                    why.contains("would push out its oldest message (dead-lettered to the queue \"q.dead\"); --allow-drop-head"),
                    "{why}"
                );
            }
        }
    }

    /// A byte limit: the ready bytes at the start plus the bodies admitted, RabbitMQ's test.
    #[test]
    fn a_byte_limit_counts_bodies() {
        let now = Instant::now();
        let mut rooms = Rooms::new("q.dead", false, true);
        bounded(
            &mut rooms,
            bounds(None, Some(100), Overflow::RejectPublish),
            5,
            Some(60),
            now,
        );
        assert_eq!(rooms.check("q", 30, now), Check::Admit);
        assert_eq!(rooms.check("q", 10, now), Check::Admit);
        let Check::Full(why) = rooms.check("q", 1, now) else {
            panic!()
        };
        assert!(
            why.contains("about 100 bytes of max-length-bytes 100"),
            "{why}"
        );
        for known in [Known::Missing, Known::Unbounded] {
            let mut rooms = Rooms::new("q.dead", false, false);
            rooms.learned("x", known.clone());
            assert_eq!(rooms.check("x", 1 << 40, now), Check::Admit, "{known:?}");
        }
    }

    /// Limits that could not be read are not assumed absent, nor assumed to refuse: a
    /// drop-head limit refuses nothing and pushes out the target's oldest jobs. Copies stay,
    /// unless --allow-drop-head, and the run says how many of each.
    #[test]
    fn unread_limits_keep_the_copies_unless_drop_head_is_allowed() {
        let now = Instant::now();
        for allow in [false, true] {
            let mut rooms = Rooms::new("q.dead", allow, false);
            rooms.learned("q", Known::Unknown(Unread::new("no management API")));
            for _ in 0..3 {
                let answer = rooms.check("q", 1, now);
                if allow {
                    assert_eq!(answer, Check::Admit);
                } else {
                    let Check::Full(why) = answer else {
                        panic!("{answer:?}")
                    };
                    assert!(
                        why.starts_with(
                            "the length limits of \"q\" could not be read (no management API)"
                        ),
                        "{why}"
                    );
                    assert!(why.contains("push out the queue's oldest job"), "{why}");
                    assert!(why.contains("stays in \"q.dead\""), "{why}");
                    assert!(
                        why.ends_with("--allow-drop-head publishes it anyway"),
                        "{why}"
                    );
                }
            }
            let unread = rooms.unread();
            assert_eq!(unread.len(), 1);
            let (name, u) = &unread[0];
            assert_eq!(name, "q");
            assert_eq!((u.kept, u.published), if allow { (0, 3) } else { (3, 0) });
            assert_eq!(rooms.refused_copies_return("q"), None);
        }
    }

    #[test]
    fn a_closed_target_takes_nothing_and_says_why() {
        let now = Instant::now();
        let mut rooms = Rooms::new("q.dead", true, false);
        rooms.learned("q", Known::Closed("has 1 of 3 members online".into()));
        let Check::Full(why) = rooms.check("q", 1, now) else {
            panic!("a closed target admits nothing")
        };
        assert!(why.contains("\"q\" has 1 of 3 members online"), "{why}");
        assert!(why.contains("stays in \"q.dead\""), "{why}");
        assert_eq!(rooms.refused_copies_return("q"), Some(false));
    }

    /// A refusal by a target read with no limit, or as drop-head, or not read, is news: a limit
    /// set since (a policy), which may dead-letter the copy anywhere, q.dead included. Only a
    /// limit that refuses, or a type that never dead-letters, says where the copy is.
    #[test]
    fn a_refusal_the_run_did_not_expect_may_have_been_dead_lettered_anywhere() {
        let now = Instant::now();
        let to = |q: &str| Some(DeadLetterTo::Queue(q.into()));
        let cases: Vec<(Known, Option<&str>, Option<bool>)> = vec![
            (Known::Unbounded, Some("classic"), None),
            (Known::Unbounded, None, None),
            (Known::Missing, None, None),
            (Known::Unknown(Unread::new("no management API")), None, None),
            (Known::Unbounded, Some("quorum"), Some(false)),
            (Known::Unbounded, Some("stream"), Some(false)),
            (Known::Closed("down".into()), Some("quorum"), Some(false)),
        ];
        for (known, kind, expected) in cases {
            let mut rooms = Rooms::new("q.dead", false, false);
            rooms.learned("q", known.clone());
            rooms.learned_type("q", kind);
            assert_eq!(
                rooms.refused_copies_return("q"),
                expected,
                "{known:?} {kind:?}"
            );
            assert_eq!(
                rooms.refusal_explained("q"),
                expected.is_some(),
                "{known:?} {kind:?}"
            );
        }
        let bounded_as = |overflow, dead: Option<DeadLetterTo>, kind| {
            let mut rooms = Rooms::new("q.dead", false, false);
            let mut b = bounds(Some(1), None, overflow);
            b.dead_letters_to = dead;
            rooms.learned("q", Known::Bounded(Room::new(b, 0, None, now)));
            rooms.learned_type("q", kind);
            rooms.refused_copies_return("q")
        };
        let classic = Some("classic");
        assert_eq!(
            bounded_as(Overflow::RejectPublishDlx, to("q.dead"), classic),
            Some(true)
        );
        assert_eq!(
            bounded_as(Overflow::RejectPublishDlx, to("other"), classic),
            Some(false)
        );
        assert_eq!(
            bounded_as(Overflow::RejectPublish, to("q.dead"), classic),
            Some(false)
        );
        // drop-head refuses nothing for its length: a nack means the policy changed since.
        assert_eq!(bounded_as(Overflow::DropHead, to("q.dead"), classic), None);
        // A quorum queue runs a reject-publish-dlx policy as drop-head, and dead-letters no
        // copy it refuses.
        assert_eq!(
            bounded_as(Overflow::RejectPublishDlx, to("q.dead"), Some("quorum")),
            Some(false)
        );
        assert_eq!(
            bounded_as(Overflow::DropHead, to("q.dead"), Some("quorum")),
            Some(false)
        );
    }
}
