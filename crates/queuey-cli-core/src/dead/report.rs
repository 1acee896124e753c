//! PURE: the account of a replay: what was moved, what failed and why, per target queue, and
//! with `--dry-run` what a real run would do. Counted as outcomes come, never kept per message:
//! memory stays bounded on a queue of millions. `output::replay` prints it.

use std::collections::HashMap;

use serde::Serialize;

use crate::dead::target_room::{RoomReport, Unread};
use crate::error::ExitCode;
use crate::plan::bounds::Overflow;
use crate::queue::MAX_QUEUE_NAME_BYTES;

/// What became of one published copy.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Outcome {
    /// Confirmed and routed to a queue: the copy is safe.
    Delivered,
    /// Confirmed but returned: nothing took it (no queue by that name).
    Returned { code: u16, text: String },
    /// The broker refused it (nack), e.g. a queue at its length limit with reject-publish.
    Refused,
    /// A return in its batch could not be attributed: counted as not delivered.
    Unknown,
}

/// Per target queue. Each count means one thing: `moved` and `failed` are what happened (0 in
/// a dry run), `would_move` and `would_fail` what a real run would do (0 outside a dry run).
#[derive(Clone, Debug, Default, Serialize)]
pub struct TargetReport {
    pub queue: String,
    pub moved: u64,
    pub failed: u64,
    /// With --dry-run: copies the broker would take (the queue exists, or cannot be checked).
    pub would_move: u64,
    /// With --dry-run: copies that would fail (no such queue, a name AMQP cannot carry).
    pub would_fail: u64,
    /// Why copies to this queue failed, or would (the last reason seen).
    pub failure: Option<String>,
    /// With --dry-run: whether the target queue exists now (`null`: could not be checked).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub exists: Option<bool>,
    /// Copies the broker refused (nack), among `failed`.
    pub refused: u64,
    /// A target with a length limit: its limits, how full it was, and the copies that did not
    /// fit (not published: their dead letters stay), among `failed` / `would_fail`.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub room: Option<RoomReport>,
    /// Its length limits could not be read: why, the copies not published (their dead letters
    /// stay, among `failed` / `would_fail`) and those published under `--allow-drop-head`.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub limits_unread: Option<Unread>,
    /// Refused copies the broker dead-lettered back into q.dead (a `reject-publish-dlx`
    /// target), found there and removed: their dead letters stayed, so each job is there once.
    pub dead_lettered_back: u64,
    /// With --dry-run: of the matching messages bound here, jobs whose attempt would be reset.
    #[serde(skip)]
    would_reset: u64,
}

/// How many possible duplicates a report names by id at most (memory stays bounded).
pub const MAY_BE_DUPLICATED_IDS: usize = 1000;

/// The summary of a replay, printed always (JSON with `--output json`).
#[derive(Clone, Debug, Default, Serialize)]
pub struct ReplayReport {
    /// The dead-letter queue, or the export file, replayed from.
    pub source: String,
    /// `--after`: the copies wait in hold queues, and when they return.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub after: Option<AfterReport>,
    pub dry_run: bool,
    /// How many messages q.dead held when the run began (`null` for a file): the run reads at
    /// most these.
    pub depth_at_start: Option<u64>,
    /// `--from-file`: whether the file ends with the end line of a run that went to its end
    /// (absent for a queue).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub file_complete: Option<bool>,
    pub scanned: u64,
    pub matched: u64,
    /// `--limit`, when given (`null`: every match).
    pub limit: Option<u64>,
    /// The run stopped reading at `--limit`: messages after the last one read were not looked
    /// at, and may match too.
    pub limit_reached: bool,
    /// Moved: copied, confirmed, and the dead letter removed. 0 in a dry run.
    pub moved: u64,
    /// Not moved because the copy failed (they stay). 0 in a dry run.
    pub failed: u64,
    /// With --dry-run: what a real run would move (0 otherwise).
    pub would_move: u64,
    /// With --dry-run: what a real run would fail to move, its target missing (0 otherwise).
    pub would_fail: u64,
    /// Copies this run made that died again and came back during the run: left in place.
    pub skipped_own_copies: u64,
    /// Moved jobs whose envelope's attempt was set back to 1. 0 in a dry run.
    pub attempts_reset: u64,
    /// With --dry-run: jobs among `would_move` whose attempt would be set back to 1.
    pub would_reset_attempts: u64,
    /// Dead letters whose copies an unfinished earlier run made, as its ledger proves (a copy
    /// found in its target whose dead letter was never acked): acked without a new copy. With
    /// --dry-run: those a real run would ack so.
    pub already_copied: u64,
    /// Copies this run made (confirmed) of dead letters that an unfinished earlier run may have
    /// copied already: its ack was sent when it failed and the broker may or may not have
    /// applied it, or its copy was in doubt and not looked for or not found. Each may now be
    /// in its target twice; none is lost (see `dead::ledger`).
    pub may_be_duplicates: u64,
    /// The message ids of this run's copies counted in `may_be_duplicates` (a dead letter
    /// without one: `sha256:` and the start of its digest), the first
    /// [`MAY_BE_DUPLICATED_IDS`] of them: the jobs to look at in the target.
    pub may_be_duplicated_ids: Vec<String>,
    /// Quorum q.dead only: messages on their last delivery republished instead of returned.
    pub rescued: u64,
    /// Quorum q.dead only: dead letters on their last delivery that were replaced by copies as
    /// they were read (a crash while the run held them would have ended them), and read again
    /// as those copies (among `rescued`; not with --dry-run, which does not read them again).
    pub renewed: u64,
    /// Refused copies the broker dead-lettered back into q.dead, found there and removed (the
    /// sum of the targets' `dead_lettered_back`).
    pub dead_lettered_back: u64,
    /// Targets whose length limits could not be read (no management API, the API refused, a
    /// policy queuey cannot evaluate): their copies stay unless `--allow-drop-head` (each
    /// target's `limits_unread` says why and how many).
    pub limits_unread: Vec<String>,
    /// Refused copies their target dead-letters, or may have dead-lettered (a refusal the run
    /// did not expect: a limit set since it read the target), into q.dead, and that were not
    /// found there within the wait: any that is there, or arrives later, is a job twice in
    /// q.dead. With `--from-file`, refused copies that may have been dead-lettered anywhere
    /// (a file run does not look): their lines stay in the file.
    pub dead_lettered_not_found: u64,
    /// Dead letters others held (delivered, unacknowledged) when the run began: not read, so
    /// not replayed (exit 3).
    pub held_elsewhere: Option<crate::dead::peek::HeldElsewhere>,
    /// The replay journal used (see `--journal`; a replay from a file keeps one too).
    pub journal: Option<String>,
    /// The AMQP address the run connected to (the first of `--url`'s that answered), its
    /// password masked; `null` if it never connected.
    pub connected_to: Option<String>,
    /// Most copies published and not yet acked at once (never more than `--window`).
    pub peak_in_flight: u64,
    pub interrupted: bool,
    pub elapsed_ms: u64,
    pub rate_per_sec: f64,
    pub targets: Vec<TargetReport>,
    /// Where each target is in `targets`: a run with thousands of original queues must not
    /// search the list for every message.
    #[serde(skip)]
    index: HashMap<String, usize>,
}

/// With `--after D`: the delay, the hold queues' TTL, and when the last copy returns.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize)]
pub struct AfterReport {
    /// D as the user wrote it.
    pub delay: String,
    /// The hold queues' TTL: D rounded up with the retry granularity.
    pub ttl_ms: u32,
    /// When the copies return to their queue: each one TTL after it was copied, the last by
    /// this time (UTC, the end of the run plus the TTL).
    pub returns_by: String,
}

impl ReplayReport {
    pub fn new(dry_run: bool) -> ReplayReport {
        ReplayReport {
            dry_run,
            ..ReplayReport::default()
        }
    }

    pub fn target(&mut self, queue: &str) -> &mut TargetReport {
        let i = match self.index.get(queue) {
            Some(&i) => i,
            None => {
                self.targets.push(TargetReport {
                    queue: queue.to_owned(),
                    ..TargetReport::default()
                });
                let i = self.targets.len() - 1;
                self.index.insert(queue.to_owned(), i);
                i
            }
        };
        &mut self.targets[i]
    }

    /// Adds the counts of a stage's own tally (moved, failed, per target).
    /// Counts a copy that may be a duplicate, named by `id` (kept among the first
    /// [`MAY_BE_DUPLICATED_IDS`]).
    pub fn may_duplicate(&mut self, id: String) {
        self.may_be_duplicates += 1;
        self.name_duplicate(id);
    }

    fn name_duplicate(&mut self, id: String) {
        if self.may_be_duplicated_ids.len() < MAY_BE_DUPLICATED_IDS {
            self.may_be_duplicated_ids.push(id);
        }
    }

    pub fn absorb(&mut self, tally: ReplayReport) {
        self.moved += tally.moved;
        self.failed += tally.failed;
        self.would_move += tally.would_move;
        self.would_fail += tally.would_fail;
        self.attempts_reset += tally.attempts_reset;
        self.would_reset_attempts += tally.would_reset_attempts;
        self.dead_lettered_back += tally.dead_lettered_back;
        self.may_be_duplicates += tally.may_be_duplicates;
        for id in tally.may_be_duplicated_ids {
            self.name_duplicate(id);
        }
        for t in tally.targets {
            let mine = self.target(&t.queue);
            mine.moved += t.moved;
            mine.failed += t.failed;
            mine.would_move += t.would_move;
            mine.would_fail += t.would_fail;
            mine.would_reset += t.would_reset;
            mine.refused += t.refused;
            mine.dead_lettered_back += t.dead_lettered_back;
            if t.failure.is_some() {
                mine.failure = t.failure;
            }
        }
    }

    /// With --dry-run: one matching message that a real run would send to `queue`.
    pub fn would(&mut self, queue: &str, reset: bool) {
        let t = self.target(queue);
        if queue.len() > MAX_QUEUE_NAME_BYTES {
            t.would_fail += 1;
            t.failure = Some(format!(
                "its name is {} bytes; AMQP queue names hold at most {MAX_QUEUE_NAME_BYTES} \
                 (use --to)",
                queue.len()
            ));
        } else {
            t.would_move += 1;
            t.would_reset += u64::from(reset);
        }
    }

    /// With --dry-run, once each target's `exists` is known: the copies bound for a target
    /// that does not exist would fail, as a real run's would come back unroutable.
    pub fn settle_would(&mut self) {
        for t in &mut self.targets {
            if t.exists == Some(false) {
                t.would_fail += t.would_move;
                t.would_move = 0;
                t.would_reset = 0;
                t.failure = Some(format!(
                    "no queue {:?}: its copies would come back unroutable and stay",
                    t.queue
                ));
            }
        }
        self.would_move = self.targets.iter().map(|t| t.would_move).sum();
        self.would_fail = self.targets.iter().map(|t| t.would_fail).sum();
        self.would_reset_attempts = self.targets.iter().map(|t| t.would_reset).sum();
    }

    /// Counts one copy's outcome; `reset` says its envelope's attempt was set back to 1.
    pub fn record(&mut self, queue: &str, outcome: &Outcome, reset: bool) {
        match outcome {
            Outcome::Delivered => {
                self.moved += 1;
                self.attempts_reset += u64::from(reset);
                self.target(queue).moved += 1;
            }
            Outcome::Returned { code, text } => {
                self.failed += 1;
                let t = self.target(queue);
                t.failed += 1;
                t.failure = Some(format!(
                    "returned unroutable ({code} {text}): no queue {queue:?} takes it"
                ));
            }
            Outcome::Refused => {
                self.failed += 1;
                let t = self.target(queue);
                t.failed += 1;
                t.refused += 1;
                t.failure = Some("refused by the broker (nack)".to_owned());
            }
            Outcome::Unknown => {
                self.failed += 1;
                let t = self.target(queue);
                t.failed += 1;
                t.failure = Some(
                    "the broker returned a copy queuey could not attribute; kept (a copy may \
                     exist too)"
                        .to_owned(),
                );
            }
        }
    }

    /// With --dry-run: one matching message a real run would not publish, its target being
    /// full (`why`); it would stay.
    pub fn would_not_fit(&mut self, queue: &str, why: String) {
        let t = self.target(queue);
        t.would_fail += 1;
        t.failure = Some(why);
    }

    /// A refused copy that the broker dead-lettered back into q.dead, found and removed there.
    pub fn dead_lettered_back(&mut self, queue: &str) {
        self.dead_lettered_back += 1;
        self.target(queue).dead_lettered_back += 1;
    }

    /// The limits of a bounded target, and what the run did at them. Copies the broker refused
    /// there and dead-lettered elsewhere than back into the source (which a run removes) are
    /// said to be where they went.
    pub fn set_room(&mut self, queue: &str, room: RoomReport) {
        let elsewhere = room.bounds.overflow == Overflow::RejectPublishDlx
            && room.bounds.refused_copies_return_to(&self.source) != Some(true);
        let t = self.target(queue);
        if t.refused > 0 && elsewhere {
            t.failure = Some(format!(
                "refused by the broker (nack), {queue:?} being full, and {}: each of those jobs \
                 is there and its dead letter stays here",
                room.bounds.fate_of_the_dead()
            ));
        }
        t.room = Some(room);
    }

    /// A target whose length limits could not be read, and what the run did with its copies.
    pub fn set_unread(&mut self, queue: &str, unread: Unread) {
        self.limits_unread.push(queue.to_owned());
        self.target(queue).limits_unread = Some(unread);
    }

    pub fn fail(&mut self, queue: &str, why: String) {
        self.failed += 1;
        let t = self.target(queue);
        t.failed += 1;
        t.failure = Some(why);
    }

    pub fn exit_code(&self) -> ExitCode {
        if self.interrupted {
            ExitCode::Interrupted
        } else if self.failed > 0 || self.would_fail > 0 || self.held_elsewhere.is_some() {
            ExitCode::Partial
        } else {
            ExitCode::Ok
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Scripts read `dry_run` from the JSON: a report of either kind says which it is, and a
    /// run that found nothing to do exits 0.
    #[test]
    fn a_report_says_in_its_json_whether_it_is_a_dry_run() {
        for dry_run in [true, false] {
            let report = ReplayReport::new(dry_run);
            let json = serde_json::to_value(&report).expect("a report is JSON");
            assert_eq!(json["dry_run"], serde_json::Value::Bool(dry_run));
            assert_eq!(
                (json["matched"].as_u64(), json["moved"].as_u64()),
                (Some(0), Some(0))
            );
            assert_eq!(report.exit_code(), ExitCode::Ok);
        }
    }

    #[test]
    fn dead_letters_held_elsewhere_make_a_run_partial() {
        let mut r = ReplayReport::new(false);
        r.held_elsewhere = Some(crate::dead::peek::HeldElsewhere {
            messages: Some(12),
            consumers: 3,
        });
        assert_eq!(r.exit_code(), ExitCode::Partial);
        r.interrupted = true;
        assert_eq!(r.exit_code(), ExitCode::Interrupted);
    }

    #[test]
    fn stage_tallies_add_up_per_target_without_a_row_per_message() {
        let mut publish = ReplayReport::default();
        for _ in 0..3 {
            publish.record("orders", &Outcome::Delivered, true);
        }
        publish.record(
            "gone",
            &Outcome::Returned {
                code: 312,
                text: "NO_ROUTE".into(),
            },
            true,
        );
        publish.record("orders", &Outcome::Refused, true);
        let mut read = ReplayReport::default();
        read.fail("orders", "cannot copy the message: too long".into());
        let mut report = ReplayReport::default();
        report.absorb(read);
        report.absorb(publish);
        assert_eq!((report.moved, report.failed), (3, 3));
        assert_eq!(report.attempts_reset, 3, "only delivered copies count");
        assert_eq!(report.targets.len(), 2, "one entry per target");
        let orders = report.target("orders").clone();
        assert_eq!((orders.moved, orders.failed), (3, 2));
        assert_eq!(
            orders.failure.as_deref(),
            Some("refused by the broker (nack)")
        );
        let gone = report.target("gone").clone();
        assert_eq!((gone.moved, gone.failed), (0, 1));
        assert!(gone.failure.unwrap().contains("312 NO_ROUTE"));
        assert_eq!(report.exit_code(), ExitCode::Partial);
    }

    /// Each target once, in the order first seen, under its own name.
    #[test]
    fn a_target_is_found_again_by_its_name() {
        let mut report = ReplayReport::default();
        report.target("a").moved = 2;
        report.target("b").failed = 5;
        report.target("a").moved += 1;
        let rows: Vec<(&str, u64, u64)> = report
            .targets
            .iter()
            .map(|t| (t.queue.as_str(), t.moved, t.failed))
            .collect();
        assert_eq!(rows, [("a", 3, 0), ("b", 0, 5)]);
    }

    /// Every count of a tally adds to the report's, per target too; a tally's failure replaces
    /// the target's, a tally without one keeps it.
    #[test]
    fn absorb_adds_every_count() {
        let mut report = ReplayReport {
            moved: 2,
            failed: 3,
            would_move: 4,
            would_fail: 5,
            attempts_reset: 6,
            would_reset_attempts: 7,
            ..ReplayReport::default()
        };
        *report.target("orders") = TargetReport {
            queue: "orders".into(),
            moved: 1,
            failed: 2,
            would_move: 3,
            would_fail: 4,
            failure: Some("before".into()),
            would_reset: 5,
            ..TargetReport::default()
        };
        *report.target("kept") = TargetReport {
            queue: "kept".into(),
            failure: Some("kept".into()),
            ..TargetReport::default()
        };
        let mut tally = ReplayReport {
            moved: 10,
            failed: 20,
            would_move: 30,
            would_fail: 40,
            attempts_reset: 50,
            would_reset_attempts: 60,
            ..ReplayReport::default()
        };
        *tally.target("orders") = TargetReport {
            queue: "orders".into(),
            moved: 10,
            failed: 20,
            would_move: 30,
            would_fail: 40,
            failure: Some("after".into()),
            would_reset: 50,
            ..TargetReport::default()
        };
        tally.target("kept").moved = 1;
        tally.target("new").failed = 7;
        report.absorb(tally);
        assert_eq!(
            (
                report.moved,
                report.failed,
                report.would_move,
                report.would_fail,
                report.attempts_reset,
                report.would_reset_attempts
            ),
            (12, 23, 34, 45, 56, 67)
        );
        let orders = report.target("orders").clone();
        assert_eq!(
            (
                orders.moved,
                orders.failed,
                orders.would_move,
                orders.would_fail,
                orders.would_reset
            ),
            (11, 22, 33, 44, 55)
        );
        assert_eq!(orders.failure.as_deref(), Some("after"));
        let kept = report.target("kept").clone();
        assert_eq!((kept.moved, kept.failure.as_deref()), (1, Some("kept")));
        assert_eq!(report.target("new").failed, 7);
        assert_eq!(report.targets.len(), 3);
    }

    /// A dry run counts per target what a real run would do: a name AMQP cannot carry (more
    /// than 255 bytes) would fail, the longest one it can would move; once `exists` is known,
    /// the copies bound for a missing queue would fail too, and the totals add up.
    #[test]
    fn a_dry_run_counts_what_would_move_and_fail() {
        let longest = "q".repeat(MAX_QUEUE_NAME_BYTES);
        let too_long = "q".repeat(MAX_QUEUE_NAME_BYTES + 1);
        let mut report = ReplayReport::new(true);
        report.would("orders", true);
        report.would("orders", false);
        report.would("orders", true);
        report.would(&longest, false);
        report.would(&too_long, true);
        report.would(&too_long, true);
        report.would("gone", true);
        report.would("gone", true);
        let counts = |t: &TargetReport| (t.would_move, t.would_fail, t.would_reset);
        assert_eq!(counts(report.target("orders")), (3, 0, 2));
        assert_eq!(counts(report.target(&longest)), (1, 0, 0));
        assert_eq!(report.target(&longest).failure, None);
        assert_eq!(counts(report.target(&too_long)), (0, 2, 0));
        assert_eq!(
            report.target(&too_long).failure.as_deref(),
            Some("its name is 256 bytes; AMQP queue names hold at most 255 (use --to)")
        );
        assert_eq!(counts(report.target("gone")), (2, 0, 2));
        assert_eq!(
            (
                report.would_move,
                report.would_fail,
                report.would_reset_attempts
            ),
            (0, 0, 0),
            "the totals wait for settle_would"
        );

        report.target("orders").exists = Some(true);
        report.target("gone").exists = Some(false);
        report.settle_would();
        assert_eq!(counts(report.target("orders")), (3, 0, 2));
        assert_eq!(report.target("orders").failure, None);
        assert_eq!(counts(report.target("gone")), (0, 2, 0));
        assert_eq!(
            report.target("gone").failure.as_deref(),
            Some("no queue \"gone\": its copies would come back unroutable and stay")
        );
        assert_eq!(
            counts(report.target(&too_long)),
            (0, 2, 0),
            "exists unknown"
        );
        assert_eq!(
            (
                report.would_move,
                report.would_fail,
                report.would_reset_attempts
            ),
            (4, 4, 2)
        );
        assert_eq!(report.exit_code(), ExitCode::Partial);
    }

    /// Each outcome counts once, in the report and in its target, with its own reason.
    #[test]
    fn each_outcome_is_counted_with_its_reason() {
        let mut report = ReplayReport::default();
        report.record("a", &Outcome::Delivered, true);
        report.record("a", &Outcome::Delivered, false);
        report.record("a", &Outcome::Delivered, true);
        let returned = Outcome::Returned {
            code: 312,
            text: "NO_ROUTE".into(),
        };
        report.record("b", &returned, true);
        report.record("b", &returned, false);
        report.record("c", &Outcome::Refused, true);
        report.record("c", &Outcome::Refused, true);
        report.record("d", &Outcome::Unknown, true);
        report.record("d", &Outcome::Unknown, false);
        report.fail("e", "cannot read it".into());
        report.fail("e", "cannot copy it".into());
        assert_eq!(
            (report.moved, report.failed, report.attempts_reset),
            (3, 8, 2)
        );
        let rows: Vec<(&str, u64, u64, Option<&str>)> = report
            .targets
            .iter()
            .map(|t| (t.queue.as_str(), t.moved, t.failed, t.failure.as_deref()))
            .collect();
        assert_eq!(
            rows,
            [
                ("a", 3, 0, None),
                (
                    "b",
                    0,
                    2,
                    Some("returned unroutable (312 NO_ROUTE): no queue \"b\" takes it")
                ),
                ("c", 0, 2, Some("refused by the broker (nack)")),
                (
                    "d",
                    0,
                    2,
                    Some(
                        "the broker returned a copy queuey could not attribute; kept (a copy \
                         may exist too)"
                    )
                ),
                ("e", 0, 2, Some("cannot copy it")),
            ]
        );
    }

    /// Copies a full reject-publish-dlx target refused and dead-lettered elsewhere than back
    /// into the source are said to be where they went; those dead-lettered back (removed by
    /// the run) and other overflows keep the broker's reason.
    #[test]
    fn refused_copies_are_said_to_be_where_the_broker_put_them() {
        use crate::plan::bounds::{Bounds, DeadLetterTo, Origin};
        let room = |overflow, to: &str| RoomReport {
            bounds: Bounds {
                max_length: Some(3),
                max_length_bytes: None,
                overflow,
                overflow_from: Origin::Argument,
                overflow_note: None,
                dead_letters_to: Some(DeadLetterTo::Queue(to.into())),
            },
            held_at_start: 3,
            bytes_at_start: None,
            full: 0,
            pushed_out: 0,
        };
        let mut report = ReplayReport {
            source: "q.dead".into(),
            ..ReplayReport::default()
        };
        for target in ["a", "b", "c", "d"] {
            report.record(target, &Outcome::Refused, false);
        }
        report.set_room("a", room(Overflow::RejectPublishDlx, "elsewhere"));
        report.set_room("b", room(Overflow::RejectPublishDlx, "q.dead"));
        report.set_room("c", room(Overflow::RejectPublish, "elsewhere"));
        report.dead_lettered_back("b");
        assert_eq!(
            report.target("a").failure.as_deref(),
            Some(
                "refused by the broker (nack), \"a\" being full, and dead-lettered to the queue \
                 \"elsewhere\": each of those jobs is there and its dead letter stays here"
            )
        );
        for t in ["b", "c", "d"] {
            assert_eq!(
                report.target(t).failure.as_deref(),
                Some("refused by the broker (nack)"),
                "{t}"
            );
        }
        assert!(report.target("c").room.is_some() && report.target("d").room.is_none());
        assert_eq!(
            (
                report.dead_lettered_back,
                report.target("b").dead_lettered_back
            ),
            (1, 1)
        );
        report.would_not_fit("e", "full".into());
        report.settle_would();
        assert_eq!((report.would_fail, report.target("e").would_fail), (1, 1));
    }

    /// Interrupted wins; then any failure, real or in a dry run, is partial; else ok.
    #[test]
    fn the_exit_code_follows_interruption_then_failures() {
        let code = |failed: u64, would_fail: u64, interrupted: bool| {
            ReplayReport {
                failed,
                would_fail,
                interrupted,
                ..ReplayReport::default()
            }
            .exit_code()
        };
        assert_eq!(code(0, 0, false), ExitCode::Ok);
        assert_eq!(code(1, 0, false), ExitCode::Partial);
        assert_eq!(code(0, 1, false), ExitCode::Partial);
        assert_eq!(code(2, 3, false), ExitCode::Partial);
        assert_eq!(code(0, 0, true), ExitCode::Interrupted);
        assert_eq!(code(1, 1, true), ExitCode::Interrupted);
    }
}
