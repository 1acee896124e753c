//! PURE: `dead check`'s thresholds, and whether what was measured crosses them.
//!
//! A threshold holds while its value is at most its limit; it is crossed above it. A value that
//! could not be measured (the age of a quorum `q.dead` that queuey was not allowed to peek, a
//! rate the management API does not give) is **unknown**: queuey never guesses it, says why,
//! and a check with an unknown threshold and none crossed exits 11, never 0 ("holds").
//!
//! The age of the oldest dead letter is the largest age among *all* of them ([`Oldest`]), read
//! by a peek of the whole `q.dead`: the head is not the oldest by the age queuey documents. An
//! application's dead letter is aged from its job's `enqueued_at_ms` (it carries no death
//! time), and a job that retried or deferred for days dies after jobs enqueued a second ago.
//! A dead letter with no time at all, or one the peek could not read, makes the oldest age
//! known only from below ([`AgeReading::AtLeast`]): enough to say "crossed", never "holds".

use std::time::Duration;

use serde::Serialize;

use super::decode::AgeFrom;
use crate::duration::format_duration;

/// The limits asked for; at least one.
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct Thresholds {
    /// `--max-count`: dead letters (matching the filters).
    pub max_count: Option<u64>,
    /// `--max-age`: the oldest dead letter's age.
    pub max_age: Option<Duration>,
    /// `--max-rate`: dead letters arriving per second.
    pub max_rate: Option<f64>,
}

impl Thresholds {
    pub fn is_empty(&self) -> bool {
        self.max_count.is_none() && self.max_age.is_none() && self.max_rate.is_none()
    }
}

/// Where the oldest dead letter's age comes from.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
#[serde(rename_all = "kebab-case", tag = "kind")]
pub enum AgeReading {
    /// `q.dead` (or, with filters, what matches) is empty: no age, nothing old.
    Empty,
    /// Seconds, since the death (`death`) or since the job was enqueued (`enqueued`), of the
    /// oldest of every dead letter read, each of which had an age.
    Known { seconds: u64, since: String },
    /// The oldest of the dead letters that have an age, while `without_time` dead letters have
    /// none and `not_read` were not read (`None`: some, held by other consumers, how many the
    /// management API does not count yet): the oldest of all is at least this old, maybe older.
    AtLeast {
        seconds: u64,
        since: String,
        without_time: u64,
        not_read: Option<u64>,
    },
    /// Not measured, and why.
    Unknown { why: String },
}

impl AgeReading {
    /// Seconds the oldest dead letter is at least as old as: the oldest age known, exact or
    /// a lower bound.
    pub fn at_least(&self) -> Option<u64> {
        match self {
            AgeReading::Known { seconds, .. } | AgeReading::AtLeast { seconds, .. } => {
                Some(*seconds)
            }
            AgeReading::Empty | AgeReading::Unknown { .. } => None,
        }
    }
}

/// The oldest age among the dead letters of one read of `q.dead`, and those that had none.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Oldest {
    oldest: Option<(u64, AgeFrom)>,
    /// Read, and with no time at all (no death time, no envelope).
    without_time: u64,
    /// The first [`UNTIMED_NAMED`] of them, named.
    untimed: Vec<UntimedLetter>,
}

/// What `dead check --untimed` makes of a dead letter with no time at all (no `x-death` time,
/// no `timestamp` property or `timestamp_in_ms` header, no envelope): its age cannot be known.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize)]
#[serde(rename_all = "kebab-case")]
pub enum UntimedRule {
    /// The oldest age is known only from below: it can be crossed, never hold (exit 11).
    #[default]
    Unknown,
    /// The dead letters with a time are judged alone; those without are named, not aged.
    Ignore,
    /// A dead letter without a time crosses `--max-age` (exit 1) until it is taken out.
    Fail,
}

impl UntimedRule {
    pub const ALL: [UntimedRule; 3] =
        [UntimedRule::Unknown, UntimedRule::Ignore, UntimedRule::Fail];

    pub fn as_str(self) -> &'static str {
        match self {
            UntimedRule::Unknown => "unknown",
            UntimedRule::Ignore => "ignore",
            UntimedRule::Fail => "fail",
        }
    }
}

/// How many dead letters without a time a check names (it counts them all).
pub const UNTIMED_NAMED: usize = 10;

/// A dead letter with no time, named: where it sits, its message id, and why it has no time.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct UntimedLetter {
    /// Its position in `q.dead` (1: the head), as `dead ls` and `dead show` number them.
    pub position: u64,
    pub message_id: Option<String>,
    /// Why it has no time, in words: `the body is not JSON, no x-death, no timestamp`.
    pub why: String,
}

/// The dead letters of a read with no time, and what the check made of them.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize)]
pub struct Untimed {
    /// How many were read.
    pub count: u64,
    /// The first [`UNTIMED_NAMED`] of them.
    pub dead_letters: Vec<UntimedLetter>,
    pub rule: UntimedRule,
}

impl Untimed {
    /// `positions 1 and 3: the body is not JSON, ...; position 7 (message id "a1"): ...`:
    /// the named ones grouped by why, and how many more.
    pub fn named(&self) -> String {
        let mut groups: Vec<(&str, Vec<String>)> = Vec::new();
        for d in &self.dead_letters {
            let item = match &d.message_id {
                Some(id) => format!("{} (message id {id:?})", d.position),
                None => d.position.to_string(),
            };
            match groups.iter_mut().find(|(why, _)| *why == d.why) {
                Some((_, items)) => items.push(item),
                None => groups.push((&d.why, vec![item])),
            }
        }
        let mut out: Vec<String> = groups
            .into_iter()
            .map(|(why, items)| {
                let list = match items.split_last() {
                    Some((last, [])) => format!("position {last}"),
                    Some((last, rest)) => format!("positions {} and {last}", rest.join(", ")),
                    None => String::new(),
                };
                format!("{list}: {why}")
            })
            .collect();
        let more = self.count.saturating_sub(self.dead_letters.len() as u64);
        if more > 0 {
            out.push(format!("{more} more"));
        }
        out.join("; ")
    }
}

/// The words of an [`AgeFrom`] in `since`.
pub fn since(from: AgeFrom) -> String {
    match from {
        AgeFrom::Death => "death".to_owned(),
        AgeFrom::Enqueued => "enqueued".to_owned(),
    }
}

/// What kept an age from being the oldest of all, in words: `1 dead letter has no time (...)`.
pub fn gaps(without_time: u64, not_read: Option<u64>) -> String {
    let mut out = Vec::new();
    match without_time {
        0 => {}
        1 => out.push("1 dead letter has no time".to_owned()),
        n => out.push(format!("{n} dead letters have no time")),
    }
    match not_read {
        Some(0) => {}
        Some(1) => out.push("1 dead letter held by another consumer was not read".to_owned()),
        Some(n) => out.push(format!(
            "{n} dead letters held by other consumers were not read"
        )),
        None => out.push(
            "dead letters held by other consumers were not read (how many, the management \
             API does not count yet)"
                .to_owned(),
        ),
    }
    out.join(", and ")
}

/// The way out, where dead letters without a time keep the age from being known.
fn judge_others(without_time: u64) -> &'static str {
    if without_time > 0 {
        "; --untimed ignore judges those with an age, --untimed fail counts those without as \
         crossing"
    } else {
        ""
    }
}

impl Oldest {
    /// Counts one dead letter read, with its age (`DeadLetter::age`); `None` when it has none,
    /// and then `untimed` names it (called for the first [`UNTIMED_NAMED`] only).
    pub fn add(&mut self, age: Option<(u64, AgeFrom)>, untimed: impl FnOnce() -> UntimedLetter) {
        match age {
            Some(a) if self.oldest.is_none_or(|o| a.0 > o.0) => self.oldest = Some(a),
            Some(_) => {}
            None => {
                self.without_time += 1;
                if self.untimed.len() < UNTIMED_NAMED {
                    self.untimed.push(untimed());
                }
            }
        }
    }

    /// The dead letters read without a time, under `rule`.
    pub fn untimed(&self, rule: UntimedRule) -> Untimed {
        Untimed {
            count: self.without_time,
            dead_letters: self.untimed.clone(),
            rule,
        }
    }

    /// What the read says of the oldest age; `not_read`: dead letters the read could not see
    /// (held unacknowledged by other consumers, or left when a stop signal ended it; `None`:
    /// some, how many unknown). Under [`UntimedRule::Ignore`] the dead letters without a time
    /// are left out: the age is that of the others.
    pub fn reading(&self, not_read: Option<u64>, rule: UntimedRule) -> AgeReading {
        let without_time = if rule == UntimedRule::Ignore {
            0
        } else {
            self.without_time
        };
        match (self.oldest, without_time + not_read.unwrap_or(1)) {
            (None, 0) => AgeReading::Empty,
            (Some((seconds, from)), 0) => AgeReading::Known {
                seconds,
                since: since(from),
            },
            (Some((seconds, from)), _) => AgeReading::AtLeast {
                seconds,
                since: since(from),
                without_time,
                not_read,
            },
            (None, _) => AgeReading::Unknown {
                why: format!(
                    "{}{}",
                    gaps(without_time, not_read),
                    judge_others(without_time)
                ),
            },
        }
    }
}

/// One threshold's verdict.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct Verdict {
    /// `max-count`, `max-age` or `max-rate`.
    pub threshold: &'static str,
    /// The value measured; `None` when unknown (or, for the age, when q.dead is empty).
    pub value: Option<f64>,
    pub limit: f64,
    pub crossed: bool,
    /// Not judged: the value is not known well enough to say whether the limit holds. Never
    /// with `crossed`.
    pub unknown: bool,
    /// Said beside the value: where the age or the rate comes from, or why it is unknown.
    pub note: Option<String>,
}

/// What one queue's check measured.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Measured {
    /// Dead letters counted: those ready (a passive declare), plus `held` when the management
    /// API counts them; with filters, those of a whole peek that matched.
    pub count: u64,
    /// Dead letters other consumers hold unacknowledged (still in `q.dead`, yet out of reach
    /// of a passive declare, which counts ready messages, and of a peek): `Some(n)` when `count`
    /// includes them (the API's statistics), `None` otherwise.
    pub held: Option<u64>,
    /// Dead letters `count` could not see: `Some(Some(n))` held by other consumers and not
    /// read (with filters: they may match), `Some(None)` some whose number the management API
    /// does not give yet; `None` when the count missed none.
    pub not_counted: Option<Option<u64>>,
    pub age: Option<AgeReading>,
    /// The dead letters the age's read found without a time (with the rule for them), when
    /// it read any.
    pub untimed: Option<Untimed>,
    /// Dead letters per second, and where the figure comes from; `Err` says why it is unknown.
    pub rate: Option<Result<(f64, String), String>>,
}

/// The verdict of each threshold asked for, in the order count, age, rate.
pub fn judge(t: &Thresholds, m: &Measured) -> Vec<Verdict> {
    let mut out = Vec::new();
    if let Some(limit) = t.max_count {
        out.push(judge_count(limit, m));
    }
    if let Some(limit) = t.max_age {
        out.push(judge_untimed(
            judge_age(limit, m.age.as_ref()),
            m.untimed.as_ref(),
            m.age.as_ref(),
        ));
    }
    if let Some(limit) = t.max_rate {
        let (value, note) = match &m.rate {
            Some(Ok((rate, from))) => (Some(*rate), Some(from.clone())),
            Some(Err(why)) => (None, Some(format!("unknown: {why}"))),
            None => (None, Some("unknown: not measured".to_owned())),
        };
        out.push(Verdict {
            threshold: "max-rate",
            crossed: value.is_some_and(|v| v > limit),
            unknown: value.is_none(),
            value,
            limit,
            note,
        });
    }
    out
}

/// What a count did not see, in words (`3 more dead letters held by ...`).
fn not_counted(missed: Option<u64>) -> String {
    match missed {
        Some(n) => format!(
            "{} held unacknowledged by other consumers {} not read",
            if n == 1 {
                "1 more dead letter".to_owned()
            } else {
                format!("{n} more dead letters")
            },
            if n == 1 { "was" } else { "were" }
        ),
        None => "other consumers hold dead letters unacknowledged, which a count cannot see, \
                 and the management API does not count them yet"
            .to_owned(),
    }
}

/// `--max-count`: the dead letters counted, with those other consumers hold. Those the count
/// could not see make it a lower bound: enough to say "crossed", and "holds" only when all of
/// them together stay within the limit.
fn judge_count(limit: u64, m: &Measured) -> Verdict {
    let verdict = |crossed: bool, unknown: bool, note: Option<String>| Verdict {
        threshold: "max-count",
        value: (!unknown).then_some(m.count as f64),
        limit: limit as f64,
        crossed,
        unknown,
        note,
    };
    let held = m.held.filter(|n| *n > 0).map(|n| {
        format!(
            "including {} held unacknowledged by other consumers (statistics, seconds old)",
            if n == 1 {
                "1 dead letter".to_owned()
            } else {
                format!("{n} dead letters")
            }
        )
    });
    match m.not_counted {
        None | Some(Some(0)) => verdict(m.count > limit, false, held),
        Some(missed) if m.count > limit => verdict(
            true,
            false,
            Some(format!("at least: {}", not_counted(missed))),
        ),
        Some(Some(n)) if m.count.saturating_add(n) <= limit => verdict(
            false,
            false,
            Some(format!(
                "at most {}: {}",
                m.count.saturating_add(n),
                not_counted(Some(n))
            )),
        ),
        Some(missed) => verdict(
            false,
            true,
            Some(format!(
                "unknown: {} counted, but {}",
                m.count,
                not_counted(missed)
            )),
        ),
    }
}

/// The age's verdict under `--untimed`, naming the dead letters without a time: `fail`
/// crosses it while any is there, `ignore` keeps the verdict of the others and says what it
/// left out, `unknown` (the default) keeps the verdict of [`judge_age`].
fn judge_untimed(mut v: Verdict, untimed: Option<&Untimed>, age: Option<&AgeReading>) -> Verdict {
    let Some(u) = untimed.filter(|u| u.count > 0) else {
        return v;
    };
    let some = if u.count == 1 {
        "1 dead letter has no time".to_owned()
    } else {
        format!("{} dead letters have no time", u.count)
    };
    let note = v.note.take().unwrap_or_default();
    match u.rule {
        UntimedRule::Fail => {
            v.crossed = true;
            v.unknown = false;
            v.value = age.and_then(AgeReading::at_least).map(|s| s as f64);
            v.note = Some(format!("{some} (--untimed fail): {}", u.named()));
        }
        UntimedRule::Ignore => {
            let note = if note == "no dead letters" {
                "no dead letter with a time"
            } else {
                &note
            };
            v.note = Some(format!(
                "{note}; {some}, left out (--untimed ignore): {}",
                u.named()
            ));
        }
        UntimedRule::Unknown => {
            v.note = Some(format!("{note}; without a time: {}", u.named()));
        }
    }
    v
}

/// `--max-age`: crossed when the oldest age is above the limit, which a lower bound can prove
/// ([`AgeReading::AtLeast`]); held only when the oldest of all is known.
fn judge_age(limit: Duration, age: Option<&AgeReading>) -> Verdict {
    let secs = limit.as_secs_f64();
    let verdict = |value: Option<u64>, crossed: bool, note: String| Verdict {
        threshold: "max-age",
        value: value.map(|v| v as f64),
        limit: secs,
        crossed,
        unknown: value.is_none() && !crossed && note.starts_with("unknown"),
        note: Some(note),
    };
    match age {
        Some(AgeReading::Known { seconds, since }) => verdict(
            Some(*seconds),
            *seconds as f64 > secs,
            format!("since {since}"),
        ),
        Some(AgeReading::Empty) => verdict(None, false, "no dead letters".to_owned()),
        Some(AgeReading::AtLeast {
            seconds,
            since,
            without_time,
            not_read,
        }) if *seconds as f64 > secs => verdict(
            Some(*seconds),
            true,
            format!(
                "at least, since {since}: {}",
                gaps(*without_time, *not_read)
            ),
        ),
        Some(AgeReading::AtLeast {
            seconds,
            without_time,
            not_read,
            ..
        }) => verdict(
            None,
            false,
            format!(
                "unknown: the others are at most {} old, but {}{}",
                format_duration(Duration::from_secs(*seconds)),
                gaps(*without_time, *not_read),
                judge_others(*without_time)
            ),
        ),
        Some(AgeReading::Unknown { why }) => verdict(None, false, format!("unknown: {why}")),
        None => verdict(None, false, "unknown: not measured".to_owned()),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_threshold_is_crossed_only_above_its_limit_and_never_by_an_unknown() {
        let t = Thresholds {
            max_count: Some(3),
            max_age: Some(Duration::from_secs(60)),
            max_rate: Some(0.5),
        };
        let at_limit = Measured {
            count: 3,
            age: Some(AgeReading::Known {
                seconds: 60,
                since: "death".into(),
            }),
            rate: Some(Ok((0.5, "publish".into()))),
            ..Measured::default()
        };
        let v = judge(&t, &at_limit);
        assert_eq!(
            v.iter().map(|v| v.threshold).collect::<Vec<_>>(),
            ["max-count", "max-age", "max-rate"]
        );
        assert!(v.iter().all(|v| !v.crossed), "{v:?}");
        let above = Measured {
            count: 4,
            age: Some(AgeReading::Known {
                seconds: 61,
                since: "death".into(),
            }),
            rate: Some(Ok((0.6, "publish".into()))),
            ..Measured::default()
        };
        assert!(judge(&t, &above).iter().all(|v| v.crossed));
        let unknown = Measured {
            count: 0,
            age: Some(AgeReading::Unknown {
                why: "quorum".into(),
            }),
            rate: Some(Err("no statistics".into())),
            ..Measured::default()
        };
        let v = judge(&t, &unknown);
        assert!(v.iter().all(|v| !v.crossed));
        assert!(v[1].unknown && v[2].unknown && !v[0].unknown, "{v:?}");
        assert_eq!(v[1].value, None);
        assert_eq!(v[1].note.as_deref(), Some("unknown: quorum"));
        let empty = Measured {
            age: Some(AgeReading::Empty),
            ..Measured::default()
        };
        assert_eq!(
            judge(&t, &empty)[1].note.as_deref(),
            Some("no dead letters")
        );
        assert!(!judge(&t, &empty)[1].unknown, "an empty q.dead holds");
        assert!(judge(&Thresholds::default(), &above).is_empty());
        assert!(Thresholds::default().is_empty());
        assert!(
            !Thresholds {
                max_rate: Some(1.0),
                ..Thresholds::default()
            }
            .is_empty()
        );
    }

    fn count(m: &Measured, limit: u64) -> Verdict {
        let t = Thresholds {
            max_count: Some(limit),
            ..Thresholds::default()
        };
        judge(&t, m).remove(0)
    }

    #[test]
    fn dead_letters_other_consumers_hold_count_and_an_unseen_number_never_holds() {
        // Counted with the API's statistics: ready 0, held 3.
        let held = Measured {
            count: 3,
            held: Some(3),
            ..Measured::default()
        };
        let v = count(&held, 0);
        assert!(v.crossed && !v.unknown && v.value == Some(3.0), "{v:?}");
        assert!(
            v.note
                .as_deref()
                .is_some_and(|n| n.starts_with("including 3 dead letters held")),
            "{v:?}"
        );
        assert!(!count(&held, 3).crossed, "holds at its limit");
        // Held, how many unknown: a count above the limit is crossed, else unknown.
        let unseen = Measured {
            count: 2,
            not_counted: Some(None),
            ..Measured::default()
        };
        let v = count(&unseen, 1);
        assert!(v.crossed && !v.unknown, "{v:?}");
        assert!(v.note.as_deref().is_some_and(|n| n.starts_with("at least")));
        let v = count(&unseen, 5);
        assert!(!v.crossed && v.unknown && v.value.is_none(), "{v:?}");
        assert!(
            v.note
                .as_deref()
                .is_some_and(|n| n.starts_with("unknown: 2 counted, but other consumers")),
            "{v:?}"
        );
        // Matches of a peek, 4 held and not read: holds only if all of them would.
        let peeked = Measured {
            count: 1,
            not_counted: Some(Some(4)),
            ..Measured::default()
        };
        assert!(count(&peeked, 5).value == Some(1.0) && !count(&peeked, 5).unknown);
        assert!(count(&peeked, 4).unknown);
        assert!(count(&peeked, 0).crossed);
        let none_missed = Measured {
            count: 1,
            not_counted: Some(Some(0)),
            ..Measured::default()
        };
        assert_eq!(count(&none_missed, 0).note, None);
    }

    fn age(m: &Measured, limit: u64) -> Verdict {
        let t = Thresholds {
            max_age: Some(Duration::from_secs(limit)),
            ..Thresholds::default()
        };
        judge(&t, m).remove(0)
    }

    fn read(ages: &[Option<u64>], unread: u64) -> Measured {
        read_under(ages, unread, UntimedRule::Unknown)
    }

    fn read_under(ages: &[Option<u64>], unread: u64, rule: UntimedRule) -> Measured {
        let mut oldest = Oldest::default();
        for (i, a) in ages.iter().enumerate() {
            oldest.add(a.map(|s| (s, AgeFrom::Enqueued)), || UntimedLetter {
                position: i as u64 + 1,
                message_id: Some(format!("m{}", i + 1)),
                why: "the body is not JSON".to_owned(),
            });
        }
        Measured {
            age: Some(oldest.reading(Some(unread), rule)),
            untimed: Some(oldest.untimed(rule)),
            ..Measured::default()
        }
    }

    #[test]
    fn the_oldest_is_the_largest_age_wherever_it_sits() {
        // A head enqueued a second ago, a job enqueued two days ago behind it.
        let m = read(&[Some(1), Some(172_800), Some(5)], 0);
        assert_eq!(
            m.age,
            Some(AgeReading::Known {
                seconds: 172_800,
                since: "enqueued".into()
            })
        );
        let v = age(&m, 3600);
        assert!(v.crossed && !v.unknown, "{v:?}");
        assert_eq!(v.value, Some(172_800.0));
        assert!(!age(&m, 172_800).crossed, "holds at its limit");
        assert_eq!(read(&[], 0).age, Some(AgeReading::Empty));
    }

    #[test]
    fn a_dead_letter_without_a_time_can_prove_crossed_but_never_holds() {
        // A head with no time, old ones behind it: crossed, by a lower bound.
        let m = read(&[None, Some(7 * 365 * 86_400)], 0);
        assert!(matches!(m.age, Some(AgeReading::AtLeast { .. })), "{m:?}");
        let v = age(&m, 3600);
        assert!(v.crossed && !v.unknown, "{v:?}");
        assert!(v.note.as_deref().is_some_and(|n| n.starts_with("at least")));
        // Young ones behind it: the head may be older than the limit, or not.
        let v = age(&read(&[None, Some(10)], 0), 3600);
        assert!(!v.crossed && v.unknown && v.value.is_none(), "{v:?}");
        let note = v.note.unwrap_or_default();
        assert_eq!(
            note,
            "unknown: the others are at most 10s old, but 1 dead letter has no time; --untimed \
             ignore judges those with an age, --untimed fail counts those without as crossing; \
             without a time: position 1 (message id \"m1\"): the body is not JSON"
        );
        // Nothing but dead letters without a time.
        let m = read(&[None, None], 0);
        assert!(matches!(m.age, Some(AgeReading::Unknown { .. })), "{m:?}");
        assert!(age(&m, 3600).unknown);
        // Dead letters the peek could not read (held by another consumer): the same.
        let v = age(&read(&[Some(10)], 2), 3600);
        assert!(v.unknown, "{v:?}");
        assert!(
            v.note.as_deref().is_some_and(|n| n
                .contains("2 dead letters held by other consumers were not read")
                && !n.contains("--untimed")),
            "{v:?}"
        );
        assert!(age(&read(&[Some(7200)], 2), 3600).crossed);
        assert!(
            age(&read(&[], 3), 3600).unknown,
            "all of them held elsewhere"
        );
    }

    /// `--untimed`: the dead letters without a time are named (position, message id, why) under
    /// every rule; `ignore` judges the others alone, `fail` crosses while any is there, and the
    /// default never says "holds" for them.
    #[test]
    fn untimed_dead_letters_are_named_and_judged_by_the_rule() {
        let ages = [Some(10), None, Some(20), None];
        let v = age(&read_under(&ages, 0, UntimedRule::Unknown), 3600);
        assert!(v.unknown && !v.crossed, "{v:?}");
        let note = v.note.unwrap_or_default();
        assert!(
            note.contains(
                "positions 2 (message id \"m2\") and 4 (message id \"m4\"): the body is not JSON"
            ),
            "{note}"
        );

        let v = age(&read_under(&ages, 0, UntimedRule::Ignore), 3600);
        assert!(!v.unknown && !v.crossed && v.value == Some(20.0), "{v:?}");
        let note = v.note.unwrap_or_default();
        assert!(note.starts_with("since enqueued; 2 dead letters have no time, left out (--untimed ignore): positions 2"), "{note}");
        // The others still cross when old.
        assert!(age(&read_under(&ages, 0, UntimedRule::Ignore), 15).crossed);
        // Only untimed ones, ignored: nothing with a time, which holds.
        let v = age(&read_under(&[None], 0, UntimedRule::Ignore), 1);
        assert!(!v.unknown && !v.crossed, "{v:?}");
        assert!(
            v.note
                .unwrap_or_default()
                .starts_with("no dead letter with a time;")
        );
        // Ignoring the untimed ones does not hide dead letters that were not read.
        assert!(age(&read_under(&ages, 2, UntimedRule::Ignore), 3600).unknown);

        let v = age(&read_under(&ages, 0, UntimedRule::Fail), 3600);
        assert!(v.crossed && !v.unknown && v.value == Some(20.0), "{v:?}");
        assert!(
            v.note
                .unwrap_or_default()
                .starts_with("2 dead letters have no time (--untimed fail): positions 2")
        );
        let v = age(&read_under(&[None], 0, UntimedRule::Fail), 3600);
        assert!(v.crossed && v.value.is_none(), "{v:?}");
        // Without untimed ones, every rule judges as the default does.
        for rule in UntimedRule::ALL {
            let v = age(&read_under(&[Some(5)], 0, rule), 3600);
            assert_eq!(v.note.as_deref(), Some("since enqueued"), "{rule:?}");
        }
        // More than the named ones are counted.
        let many = vec![None; UNTIMED_NAMED + 3];
        let m = read_under(&many, 0, UntimedRule::Unknown);
        let u = m.untimed.unwrap();
        assert_eq!(
            (u.count, u.dead_letters.len()),
            (UNTIMED_NAMED as u64 + 3, UNTIMED_NAMED)
        );
        assert!(u.named().ends_with("; 3 more"), "{}", u.named());
    }
}
