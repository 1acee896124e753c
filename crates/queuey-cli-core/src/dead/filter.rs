//! PURE: which dead letters a command acts on, and how `dead ls --group-by` counts them.
//!
//! Different filters combine with AND; a filter given several times (`--reason expired
//! --reason rejected`, `--header tenant=acme --header tenant=globex`) matches any of its values
//! (OR). Every filter follows that one rule, `--header`, `--where` and `--body-contains`
//! included.

use std::collections::BTreeMap;
use std::time::Duration;

use serde::Serialize;

use super::decode::{AgeFrom, Cause, DeadLetter, Message};
use super::json_text;
use super::number::Decimal;
use super::pointer::{self, Pointer};
use super::value::{Properties, Value};

/// An inclusive range of attempts: `3`, `3..`, `..5`, `2..5`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct AttemptRange {
    pub min: Option<u64>,
    pub max: Option<u64>,
}

impl AttemptRange {
    pub fn parse(text: &str) -> Result<AttemptRange, String> {
        let bad = || format!("invalid attempts {text:?}: write N, N.., ..N or N..M (inclusive)");
        let num = |s: &str| -> Result<Option<u64>, String> {
            if s.is_empty() {
                Ok(None)
            } else {
                s.trim().parse::<u64>().map(Some).map_err(|_| bad())
            }
        };
        let range = match text.split_once("..") {
            None => {
                let n = num(text)?.ok_or_else(bad)?;
                AttemptRange {
                    min: Some(n),
                    max: Some(n),
                }
            }
            Some((a, b)) => AttemptRange {
                min: num(a)?,
                max: num(b)?,
            },
        };
        if range.min.is_none() && range.max.is_none() {
            return Err(bad());
        }
        if let (Some(a), Some(b)) = (range.min, range.max)
            && a > b
        {
            return Err(format!("invalid attempts {text:?}: {a} is more than {b}"));
        }
        Ok(range)
    }

    pub fn contains(&self, n: u64) -> bool {
        self.min.is_none_or(|m| n >= m) && self.max.is_none_or(|m| n <= m)
    }
}

/// One `--header` condition: `NAME=TEXT`, `NAME:=KEY` or `NAME` (the header is present).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct HeaderCondition {
    pub name: String,
    pub value: HeaderValue,
}

/// What a `--header` condition asks of the header's value.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum HeaderValue {
    /// `NAME`: any value.
    Any,
    /// `NAME=TEXT`: a string (short or long) of exactly TEXT's bytes, or a number, boolean,
    /// timestamp or decimal that [`Value::display`] writes as TEXT. Never a string that is not
    /// UTF-8, a byte array, an array, a table or void: what `dead show` prints for those is not
    /// the value (the byte 0xff prints as the text `\xff`); `NAME:=KEY` names them.
    Text(String),
    /// `NAME:=KEY`: exactly the AMQP value whose typed key ([`Value::key`], what `--group-by
    /// header:NAME` shows) is KEY, type included; kept as that key.
    Exactly(String),
}

impl HeaderCondition {
    /// Whether the message's headers satisfy this condition.
    pub fn holds(&self, properties: &Properties) -> bool {
        properties
            .header(&self.name)
            .is_some_and(|v| match &self.value {
                HeaderValue::Any => true,
                HeaderValue::Text(want) => text_matches(v, want),
                HeaderValue::Exactly(key) => v.key() == *key,
            })
    }

    pub fn parse(text: &str) -> Result<HeaderCondition, String> {
        let (name, value) = match text.split_once('=') {
            Some((n, v)) => match n.strip_suffix(':') {
                Some(n) => {
                    let value = Value::parse_key(v).map_err(|e| {
                        format!(
                            "invalid header filter {text:?}: {e} (NAME:=KEY takes a value as \
                             `dead ls --group-by header:NAME` shows it: acme, \"\\xff\", i32:5)"
                        )
                    })?;
                    (n, HeaderValue::Exactly(value.key()))
                }
                None => (n, HeaderValue::Text(v.to_owned())),
            },
            None => (text, HeaderValue::Any),
        };
        if name.is_empty() {
            return Err(format!(
                "invalid header filter {text:?}: write NAME=TEXT, NAME:=KEY or NAME"
            ));
        }
        Ok(HeaderCondition {
            name: name.to_owned(),
            value,
        })
    }
}

/// Whether `v` is what `NAME=TEXT` asks for ([`HeaderValue::Text`]).
fn text_matches(v: &Value, want: &str) -> bool {
    match v {
        Value::ShortStr(s) => s == want,
        Value::LongStr(b) => b == want.as_bytes(),
        // A number, boolean, decimal or timestamp by its one canonical text; bytes, arrays,
        // tables and void never equal a text.
        _ => v.is_scalar() && v.display() == want,
    }
}

/// One `--where` condition on the body: `POINTER=VALUE` (the JSON value at the pointer equals
/// VALUE, read as JSON when it parses as JSON, else as a string; numbers by value) or `POINTER`
/// (something, `null` included, is at the pointer). A body that is not JSON never satisfies
/// one.
///
/// JSON is JSON's grammar, not what serde_json's values can hold: the value at the pointer is
/// found in the body's text as written ([`json_text::value_at`]), so a number past `f64`
/// (`1e400`), a lone surrogate escape or nesting past serde_json's limit elsewhere in the body
/// does not make it "not JSON" (it did: `--where /tenant=acme` missed such a dead letter).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct WhereCondition {
    pub pointer: Pointer,
    pub value: Option<serde_json::Value>,
    /// VALUE's exact decimal when it is a JSON number (`1e400` too, which serde_json reads as
    /// no number): a number in the body is compared with it as written, not as the nearest
    /// double ([`Decimal`]).
    pub number: Option<Decimal>,
}

impl WhereCondition {
    pub fn parse(text: &str) -> Result<WhereCondition, String> {
        let (pointer, value) = pointer::parse_assignment(text, true)
            .map_err(|why| format!("invalid --where {text:?}: {why}"))?;
        let number = match (&value, text.split_once('=')) {
            (Some(_), Some((_, v))) => Decimal::parse(v.trim()),
            _ => None,
        };
        Ok(WhereCondition {
            pointer,
            value,
            number,
        })
    }

    /// Whether the body, as text (`None`: it is not UTF-8), satisfies this condition; its
    /// numbers are compared as written.
    pub fn holds(&self, body: Option<&str>) -> bool {
        let Some(found) = body.and_then(|b| json_text::value_at(b, &self.pointer.tokens())) else {
            return false;
        };
        let Some(want) = &self.value else {
            return true;
        };
        let is_number = found.starts_with(|c: char| c == '-' || c.is_ascii_digit());
        match &self.number {
            Some(number) if is_number => Decimal::parse(found).as_ref() == Some(number),
            _ => serde_json::from_str::<serde_json::Value>(found)
                .is_ok_and(|got| pointer::json_equal(want, &got)),
        }
    }
}

/// `--body-contains TEXT`: the body's raw bytes contain TEXT's UTF-8 bytes (case-sensitive, as
/// stored: a JSON body's `\u00e9` is not `é`).
pub fn body_contains(body: &[u8], text: &str) -> bool {
    let needle = text.as_bytes();
    needle.is_empty() || body.windows(needle.len()).any(|w| w == needle)
}

/// The filters of `dead ls`, `replay`, `purge`, `export`, `check`.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Filter {
    pub causes: Vec<Cause>,
    pub reasons: Vec<String>,
    pub job_types: Vec<String>,
    pub original_queues: Vec<String>,
    pub attempts: Option<AttemptRange>,
    pub older_than: Option<Duration>,
    pub newer_than: Option<Duration>,
    pub headers: Vec<HeaderCondition>,
    pub message_ids: Vec<String>,
    /// `--where`: conditions on the JSON body (any of them).
    pub wheres: Vec<WhereCondition>,
    /// `--body-contains`: texts the raw body contains (any of them).
    pub body_contains: Vec<String>,
}

impl Filter {
    pub fn is_empty(&self) -> bool {
        *self == Filter::default()
    }

    /// Whether `dl` (decoded from `message`) passes every filter at `now` (seconds since the
    /// epoch). The age is [`DeadLetter::age`]: since the death, else since the job was
    /// enqueued; a message with neither never matches an age filter. One whose attempts or job
    /// type are unknown never matches an attempts or job type filter; a body that is not JSON
    /// never matches `--where`. The body is parsed only when `--where` asks.
    pub fn matches(&self, dl: &DeadLetter, message: &Message, now: u64) -> bool {
        self.matches_headers(dl, &message.properties, now) && self.matches_body(&message.body)
    }

    /// Whether `--older-than` judges `dl` by its job's enqueue time alone: it carries no death
    /// time (an application's dead letter never does), so its age is an upper bound of the
    /// time since it died. The queuey library never changes `enqueued_at_ms` (not on a retry,
    /// a deferral, nor on queuey's replay) and writes a dead letter's headers afresh from the
    /// envelope, so a job replayed a week after its enqueue that fails again at once is a dead
    /// letter a second old that looks a week old. `dead purge` does not remove such a dead
    /// letter by `--older-than` unless told to (`--age-from-enqueued`).
    pub fn older_by_enqueue_only(&self, dl: &DeadLetter, now: u64) -> bool {
        self.older_than.is_some() && matches!(dl.age(now), Some((_, AgeFrom::Enqueued)))
    }

    /// The payload filters alone: `--body-contains` (any), and `--where` (any) on the body
    /// parsed as JSON.
    pub fn matches_body(&self, body: &[u8]) -> bool {
        if !self.body_contains.is_empty()
            && !self.body_contains.iter().any(|t| body_contains(body, t))
        {
            return false;
        }
        if self.wheres.is_empty() {
            return true;
        }
        let text = std::str::from_utf8(body).ok();
        self.wheres.iter().any(|w| w.holds(text))
    }

    /// Every filter but the payload's, on what was decoded and the properties.
    pub fn matches_headers(&self, dl: &DeadLetter, properties: &Properties, now: u64) -> bool {
        if !self.causes.is_empty() && !self.causes.contains(&dl.cause) {
            return false;
        }
        if !self.job_types.is_empty()
            && !dl
                .job_type
                .as_ref()
                .is_some_and(|t| self.job_types.contains(t))
        {
            return false;
        }
        if !self.reasons.is_empty() && !dl.reason.as_ref().is_some_and(|r| self.reasons.contains(r))
        {
            return false;
        }
        if !self.original_queues.is_empty() && !self.original_queues.contains(&dl.original_queue) {
            return false;
        }
        if let Some(range) = self.attempts
            && !dl.attempts.is_some_and(|a| range.contains(a))
        {
            return false;
        }
        if self.older_than.is_some() || self.newer_than.is_some() {
            let Some(age) = dl.age_secs(now) else {
                return false;
            };
            let age = Duration::from_secs(age);
            if self.older_than.is_some_and(|d| age < d) || self.newer_than.is_some_and(|d| age > d)
            {
                return false;
            }
        }
        if !self.headers.is_empty() && !self.headers.iter().any(|c| c.holds(properties)) {
            return false;
        }
        if !self.message_ids.is_empty()
            && !dl
                .message_id
                .as_ref()
                .is_some_and(|m| self.message_ids.contains(m))
        {
            return false;
        }
        true
    }
}

/// A key `dead ls --group-by` counts by.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum GroupKey {
    Cause,
    JobType,
    Reason,
    OriginalQueue,
    Attempts,
    FirstDeathQueue,
    FirstDeathReason,
    ContentType,
    Header(String),
}

impl GroupKey {
    pub const NAMES: &'static str = "cause, reason, job-type, original-queue, attempts, first-death-queue, first-death-reason, content-type, header:NAME";

    pub fn parse(text: &str) -> Result<GroupKey, String> {
        Ok(match text {
            "cause" => GroupKey::Cause,
            "job-type" => GroupKey::JobType,
            "reason" => GroupKey::Reason,
            "original-queue" => GroupKey::OriginalQueue,
            "attempts" => GroupKey::Attempts,
            "first-death-queue" => GroupKey::FirstDeathQueue,
            "first-death-reason" => GroupKey::FirstDeathReason,
            "content-type" => GroupKey::ContentType,
            other => match other.strip_prefix("header:") {
                Some(name) if !name.is_empty() => GroupKey::Header(name.to_owned()),
                _ => {
                    return Err(format!(
                        "invalid --group-by {other:?}: one of {}",
                        GroupKey::NAMES
                    ));
                }
            },
        })
    }

    pub fn label(&self) -> String {
        match self {
            GroupKey::Cause => "cause".into(),
            GroupKey::JobType => "job-type".into(),
            GroupKey::Reason => "reason".into(),
            GroupKey::OriginalQueue => "original-queue".into(),
            GroupKey::Attempts => "attempts".into(),
            GroupKey::FirstDeathQueue => "first-death-queue".into(),
            GroupKey::FirstDeathReason => "first-death-reason".into(),
            GroupKey::ContentType => "content-type".into(),
            GroupKey::Header(n) => format!("header:{n}"),
        }
    }

    /// This key's value for `dl`; `None` is shown as "(none)". A header's is its typed key
    /// ([`Value::key`]): two values are one group only if they are the same AMQP value.
    pub fn value(&self, dl: &DeadLetter, properties: &Properties) -> Option<String> {
        match self {
            GroupKey::Cause => Some(dl.cause.as_str().to_owned()),
            GroupKey::JobType => dl.job_type.clone(),
            GroupKey::Reason => dl.reason.clone(),
            GroupKey::OriginalQueue => Some(dl.original_queue.clone()),
            GroupKey::Attempts => dl.attempts.map(|a| a.to_string()),
            GroupKey::FirstDeathQueue => dl.first_death.queue.clone(),
            GroupKey::FirstDeathReason => dl.first_death.reason.clone(),
            GroupKey::ContentType => dl.content_type.clone(),
            GroupKey::Header(n) => properties.header(n).map(Value::key),
        }
    }
}

/// Counts of one group.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize)]
pub struct GroupStats {
    pub count: u64,
    pub bytes: u64,
    /// Earliest and latest death time in the group (seconds since the epoch); the enqueue time
    /// of a job whose dead letter carries no death time.
    pub oldest: Option<u64>,
    pub newest: Option<u64>,
    /// Whether `oldest` / `newest` is a job's enqueue time (no death time known).
    pub oldest_enqueued: bool,
    pub newest_enqueued: bool,
}

/// Running counts per group: memory grows with the number of distinct keys, never with the
/// number of messages, and no body is kept.
#[derive(Clone, Debug, Default)]
pub struct Grouping {
    pub keys: Vec<GroupKey>,
    pub groups: BTreeMap<Vec<Option<String>>, GroupStats>,
}

impl Grouping {
    pub fn new(keys: Vec<GroupKey>) -> Grouping {
        Grouping {
            keys,
            groups: BTreeMap::new(),
        }
    }

    pub fn add(&mut self, dl: &DeadLetter, properties: &Properties) {
        let key: Vec<Option<String>> = self.keys.iter().map(|k| k.value(dl, properties)).collect();
        let g = self.groups.entry(key).or_default();
        g.count += 1;
        g.bytes = g.bytes.saturating_add(dl.size as u64);
        if let Some((t, from)) = dl.time() {
            let enqueued = from == super::decode::AgeFrom::Enqueued;
            if g.oldest.is_none_or(|o| t < o) {
                g.oldest = Some(t);
                g.oldest_enqueued = enqueued;
            }
            if g.newest.is_none_or(|n| t > n) {
                g.newest = Some(t);
                g.newest_enqueued = enqueued;
            }
        }
    }

    /// Groups by count, largest first, then by key.
    pub fn sorted(&self) -> Vec<(&Vec<Option<String>>, &GroupStats)> {
        let mut v: Vec<_> = self.groups.iter().collect();
        v.sort_by(|a, b| b.1.count.cmp(&a.1.count).then_with(|| a.0.cmp(b.0)));
        v
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::dead::decode::Source;

    fn dl() -> DeadLetter {
        DeadLetter {
            message_id: Some("m-1".into()),
            job_type: Some("app::Send".into()),
            job_id: Some("m-1".into()),
            original_queue: "orders".into(),
            original_queue_from: Source::Header,
            attempts: Some(3),
            attempts_from: Some(Source::Header),
            max_attempts: None,
            deferrals: None,
            reason: Some("timeout".into()),
            reason_from: Some(Source::Header),
            cause: Cause::Other,
            envelope: None,
            deaths: vec![],
            death_count: 0,
            first_death: Default::default(),
            died_at: Some(1_000),
            delivery_count: None,
            acquired_count: None,
            size: 10,
            content_type: None,
            redelivered: false,
            problems: vec![],
        }
    }

    #[test]
    fn attempt_ranges() {
        let r = AttemptRange::parse("3").unwrap();
        assert!(r.contains(3) && !r.contains(4));
        assert!(AttemptRange::parse("3..").unwrap().contains(99));
        assert!(!AttemptRange::parse("..2").unwrap().contains(3));
        assert!(AttemptRange::parse("2..5").unwrap().contains(5));
        for bad in ["", "..", "x", "5..2", "-1"] {
            assert!(AttemptRange::parse(bad).is_err(), "{bad}");
        }
    }

    #[test]
    fn older_than_by_enqueue_only_is_told_apart_from_a_death_time() {
        let f = Filter {
            older_than: Some(Duration::from_secs(500)),
            ..Filter::default()
        };
        let died = dl();
        assert!(
            !f.older_by_enqueue_only(&died, 2_000),
            "a death time is exact"
        );
        let mut enqueued = dl();
        enqueued.died_at = None;
        enqueued.envelope = Some(crate::dead::envelope::Envelope {
            job_id: "j".into(),
            job_type: "t".into(),
            queue: "q".into(),
            attempt: 1,
            enqueued_at_ms: 1_000_000,
            deferrals: 0,
            priority: 0,
            correlation_id: None,
        });
        assert!(f.older_by_enqueue_only(&enqueued, 2_000));
        let mut no_time = enqueued.clone();
        no_time.envelope = None;
        assert!(!f.older_by_enqueue_only(&no_time, 2_000), "no age at all");
        let newer = Filter {
            newer_than: Some(Duration::from_secs(500)),
            ..Filter::default()
        };
        assert!(
            !newer.older_by_enqueue_only(&enqueued, 2_000),
            "only --older-than over-estimates"
        );
    }

    #[test]
    fn filters_combine_with_and_values_with_or() {
        let p = Properties::default();
        let d = dl();
        let mut f = Filter {
            reasons: vec!["expired".into(), "timeout".into()],
            ..Filter::default()
        };
        assert!(f.matches_headers(&d, &p, 2_000));
        f.original_queues = vec!["billing".into()];
        assert!(!f.matches_headers(&d, &p, 2_000));
        let f = Filter {
            older_than: Some(Duration::from_secs(500)),
            ..Filter::default()
        };
        assert!(f.matches_headers(&d, &p, 2_000));
        assert!(!f.matches_headers(&d, &p, 1_100));
        let f = Filter {
            newer_than: Some(Duration::from_secs(500)),
            ..Filter::default()
        };
        assert!(f.matches_headers(&d, &p, 1_100));
        let mut unknown = dl();
        unknown.died_at = None;
        assert!(!f.matches_headers(&unknown, &p, 1_100));
        let f = Filter {
            attempts: Some(AttemptRange::parse("4..").unwrap()),
            ..Filter::default()
        };
        assert!(!f.matches_headers(&d, &p, 0));
    }

    #[test]
    fn causes_and_job_types_filter_with_or_within_and_across() {
        let p = Properties::default();
        let mut d = dl();
        d.cause = Cause::Exhausted;
        let f = |causes: Vec<Cause>, types: Vec<&str>| Filter {
            causes,
            job_types: types.into_iter().map(str::to_owned).collect(),
            ..Filter::default()
        };
        assert!(f(vec![Cause::Fatal, Cause::Exhausted], vec![]).matches_headers(&d, &p, 0));
        assert!(!f(vec![Cause::Fatal], vec![]).matches_headers(&d, &p, 0));
        assert!(f(vec![], vec!["x", "app::Send"]).matches_headers(&d, &p, 0));
        assert!(!f(vec![Cause::Exhausted], vec!["x"]).matches_headers(&d, &p, 0));
        d.job_type = None;
        assert!(
            !f(vec![], vec!["app::Send"]).matches_headers(&d, &p, 0),
            "no envelope, no job type"
        );
        let mut g = Grouping::new(vec![GroupKey::parse("cause").unwrap(), GroupKey::JobType]);
        g.add(&d, &p);
        assert_eq!(g.sorted()[0].0, &vec![Some("exhausted".to_owned()), None]);
    }

    #[test]
    fn header_conditions() {
        use crate::dead::value::{Table, Value};
        let mut h = Table::new();
        h.insert("tenant".into(), Value::LongStr(b"acme".to_vec()));
        h.insert("n".into(), Value::I32(5));
        let p = Properties {
            headers: Some(h),
            ..Properties::default()
        };
        let f = |spec: &str| Filter {
            headers: vec![HeaderCondition::parse(spec).unwrap()],
            ..Filter::default()
        };
        assert!(f("tenant=acme").matches_headers(&dl(), &p, 0));
        assert!(f("n=5").matches_headers(&dl(), &p, 0));
        assert!(f("tenant").matches_headers(&dl(), &p, 0));
        assert!(!f("tenant=other").matches_headers(&dl(), &p, 0));
        assert!(!f("missing").matches_headers(&dl(), &p, 0));
        assert!(HeaderCondition::parse("=x").is_err());
        // Given several times, --header matches any of its conditions (OR), like every filter.
        let any = |specs: &[&str]| Filter {
            headers: specs
                .iter()
                .map(|s| HeaderCondition::parse(s).unwrap())
                .collect(),
            ..Filter::default()
        };
        assert!(any(&["tenant=other", "tenant=acme"]).matches_headers(&dl(), &p, 0));
        assert!(any(&["missing", "n=5"]).matches_headers(&dl(), &p, 0));
        assert!(!any(&["missing", "tenant=other"]).matches_headers(&dl(), &p, 0));
        // And across filters: a header that holds does not rescue a message id that does not.
        let mut f = any(&["tenant=acme"]);
        f.message_ids = vec!["m-2".into()];
        assert!(!f.matches_headers(&dl(), &p, 0));
    }

    /// The byte 0xff and the four characters `\xff` print alike in `dead show`; a filter and a
    /// group tell them apart, and `NAME:=KEY` names either.
    #[test]
    fn bytes_and_text_that_print_alike_are_two_values() {
        use crate::dead::value::{Table, Value};
        let props = |v: Value| {
            let mut h = Table::new();
            h.insert("sig".into(), v);
            Properties {
                headers: Some(h),
                ..Properties::default()
            }
        };
        let byte = props(Value::LongStr(vec![0xff]));
        let text = props(Value::LongStr(b"\\xff".to_vec()));
        let bytes = props(Value::Bytes(vec![0xff]));
        let short = props(Value::ShortStr("\\xff".into()));
        let holds = |spec: &str, p: &Properties| HeaderCondition::parse(spec).unwrap().holds(p);
        // Plain text is text: the string of those four characters, short or long.
        assert!(holds("sig=\\xff", &text));
        assert!(holds("sig=\\xff", &short));
        assert!(!holds("sig=\\xff", &byte));
        assert!(!holds("sig=\\xff", &bytes));
        // A typed key is one value.
        assert!(holds("sig:=\"\\xff\"", &byte));
        assert!(!holds("sig:=\"\\xff\"", &text));
        assert!(holds("sig:=\"\\\\xff\"", &text));
        assert!(!holds("sig:=\"\\\\xff\"", &short));
        assert!(holds("sig:=bytes:ff", &bytes));
        assert!(holds("sig:=shortstr:\"\\\\xff\"", &short));
        // A bare backslash is refused rather than guessed at.
        assert!(HeaderCondition::parse("sig:=\\xff").is_err());
        // Four groups, four keys.
        let mut g = Grouping::new(vec![GroupKey::Header("sig".into())]);
        for p in [&byte, &text, &bytes, &short, &byte] {
            g.add(&dl(), p);
        }
        let keys: Vec<_> = g
            .sorted()
            .into_iter()
            .map(|(k, s)| (k[0].clone(), s.count))
            .collect();
        assert_eq!(
            keys,
            vec![
                (Some("\"\\xff\"".to_owned()), 2),
                (Some("\"\\\\xff\"".to_owned()), 1),
                (Some("bytes:ff".to_owned()), 1),
                (Some("shortstr:\"\\\\xff\"".to_owned()), 1),
            ]
        );
    }

    /// Empty means "every message" (a purge then empties the whole queue at once): any one
    /// filter makes it not empty.
    #[test]
    fn a_filter_is_empty_only_without_any_condition() {
        assert!(Filter::default().is_empty());
        let one_each = [
            Filter {
                causes: vec![Cause::Fatal],
                ..Filter::default()
            },
            Filter {
                reasons: vec!["x".into()],
                ..Filter::default()
            },
            Filter {
                job_types: vec!["t".into()],
                ..Filter::default()
            },
            Filter {
                original_queues: vec!["q".into()],
                ..Filter::default()
            },
            Filter {
                attempts: Some(AttemptRange::parse("3").unwrap()),
                ..Filter::default()
            },
            Filter {
                older_than: Some(Duration::from_secs(1)),
                ..Filter::default()
            },
            Filter {
                newer_than: Some(Duration::ZERO),
                ..Filter::default()
            },
            Filter {
                headers: vec![HeaderCondition::parse("h").unwrap()],
                ..Filter::default()
            },
            Filter {
                message_ids: vec!["m".into()],
                ..Filter::default()
            },
            Filter {
                wheres: vec![WhereCondition::parse("/a").unwrap()],
                ..Filter::default()
            },
            Filter {
                body_contains: vec!["x".into()],
                ..Filter::default()
            },
        ];
        for f in one_each {
            assert!(!f.is_empty(), "{f:?}");
        }
    }

    /// The documented rule, filter by filter: `--header` with another filter is AND (each side
    /// alone can fail the message); `--header` repeated is OR, whether the conditions name the
    /// same header or two different ones; nested tables and mistyped values compare as shown.
    #[test]
    fn header_filters_and_with_other_filters_and_or_among_themselves() {
        use crate::dead::value::{Table, Value};
        let mut nested = Table::new();
        nested.insert("region".into(), Value::LongStr(b"eu".to_vec()));
        let mut h = Table::new();
        h.insert("tenant".into(), Value::LongStr(b"acme".to_vec()));
        h.insert("n".into(), Value::I64(5));
        h.insert("flag".into(), Value::Bool(true));
        h.insert("meta".into(), Value::Table(nested));
        let p = Properties {
            headers: Some(h),
            ..Properties::default()
        };
        let filter = |headers: &[&str], causes: Vec<Cause>, reasons: Vec<&str>| Filter {
            headers: headers
                .iter()
                .map(|s| HeaderCondition::parse(s).unwrap())
                .collect(),
            causes,
            reasons: reasons.into_iter().map(str::to_owned).collect(),
            ..Filter::default()
        };
        let d = dl(); // cause other, reason "timeout"
        // AND: header and cause both hold; either failing fails the whole.
        assert!(filter(&["tenant=acme"], vec![Cause::Other], vec![]).matches_headers(&d, &p, 0));
        assert!(
            !filter(&["tenant=acme"], vec![Cause::Exhausted], vec![]).matches_headers(&d, &p, 0)
        );
        assert!(!filter(&["tenant=globex"], vec![Cause::Other], vec![]).matches_headers(&d, &p, 0));
        assert!(!filter(&["tenant=acme"], vec![], vec!["expired"]).matches_headers(&d, &p, 0));
        assert!(filter(&["tenant=acme"], vec![], vec!["timeout"]).matches_headers(&d, &p, 0));
        // OR among --header conditions, same or different names; none holding fails.
        assert!(
            filter(&["tenant=globex", "tenant=acme"], vec![], vec![]).matches_headers(&d, &p, 0)
        );
        assert!(
            filter(&["tenant=acme", "tenant=globex"], vec![], vec![]).matches_headers(&d, &p, 0)
        );
        assert!(filter(&["tenant=globex", "n=5"], vec![], vec![]).matches_headers(&d, &p, 0));
        assert!(!filter(&["tenant=globex", "n=6"], vec![], vec![]).matches_headers(&d, &p, 0));
        // The OR of headers is still ANDed with the other filters.
        assert!(
            !filter(&["tenant=globex", "n=5"], vec![Cause::Fatal], vec![])
                .matches_headers(&d, &p, 0)
        );
        // Plain text matches strings, and numbers and booleans as `dead show` prints them; a
        // nested table only by presence or by its typed key.
        assert!(filter(&["flag=true"], vec![], vec![]).matches_headers(&d, &p, 0));
        assert!(!filter(&["flag=1"], vec![], vec![]).matches_headers(&d, &p, 0));
        assert!(!filter(&["n=5.0"], vec![], vec![]).matches_headers(&d, &p, 0));
        assert!(filter(&["meta"], vec![], vec![]).matches_headers(&d, &p, 0));
        assert!(!filter(&["meta=eu"], vec![], vec![]).matches_headers(&d, &p, 0));
        assert!(!filter(&["meta={region=eu}"], vec![], vec![]).matches_headers(&d, &p, 0));
        assert!(
            filter(&["meta:=table:{\"region\"=\"eu\"}"], vec![], vec![]).matches_headers(&d, &p, 0)
        );
        assert!(filter(&["n:=i64:5"], vec![], vec![]).matches_headers(&d, &p, 0));
        assert!(!filter(&["n:=i32:5"], vec![], vec![]).matches_headers(&d, &p, 0));
        assert!(!filter(&["n:=5"], vec![], vec![]).matches_headers(&d, &p, 0));
        assert!(
            !filter(&["region"], vec![], vec![]).matches_headers(&d, &p, 0),
            "not a top-level header"
        );
        // A value may itself hold `=`: only the first one splits.
        assert_eq!(
            HeaderCondition::parse("k=a=b").unwrap(),
            HeaderCondition {
                name: "k".into(),
                value: HeaderValue::Text("a=b".into())
            }
        );
        assert_eq!(
            HeaderCondition::parse("k=").unwrap(),
            HeaderCondition {
                name: "k".into(),
                value: HeaderValue::Text(String::new())
            }
        );
    }

    fn message(body: &[u8]) -> Message {
        Message {
            properties: Properties::default(),
            body: body.to_vec(),
            redelivered: false,
            exchange: String::new(),
            routing_key: String::new(),
        }
    }

    /// `--where` and `--body-contains`: each ORed with itself, ANDed with each other and with
    /// every other filter; a body that is not JSON never satisfies a `--where`.
    #[test]
    fn payload_filters_and_across_and_or_within() {
        let body = br#"{"job_type":"shop.Charge","attempt":3,"payload":{"customer":{"id":42,"tier":"gold"},"note":null,"a/b":1}}"#;
        let m = message(body);
        let w = |specs: &[&str]| Filter {
            wheres: specs
                .iter()
                .map(|s| WhereCondition::parse(s).unwrap())
                .collect(),
            ..Filter::default()
        };
        let d = dl();
        assert!(w(&["/payload/customer/id=42"]).matches(&d, &m, 0));
        assert!(
            w(&["/payload/customer/id=42.0"]).matches(&d, &m, 0),
            "numbers by value"
        );
        assert!(
            !w(&["/payload/customer/id=\"42\""]).matches(&d, &m, 0),
            "a string is not a number"
        );
        assert!(
            w(&["/payload/customer/tier=gold"]).matches(&d, &m, 0),
            "not JSON: a string"
        );
        assert!(w(&["/payload/customer/tier=\"gold\""]).matches(&d, &m, 0));
        assert!(w(&["/payload/note"]).matches(&d, &m, 0), "null is present");
        assert!(w(&["/payload/note=null"]).matches(&d, &m, 0));
        assert!(w(&["/payload/a~1b=1"]).matches(&d, &m, 0), "an escaped key");
        // Numbers exactly, beyond 64 bits and a double's digits too.
        let big = message(
            br#"{"id":123456789012345678901234567890,"f":0.1000000000000000055511151231257827}"#,
        );
        assert!(w(&["/id=123456789012345678901234567890"]).matches(&d, &big, 0));
        assert!(w(&["/id=1.2345678901234567890123456789e29"]).matches(&d, &big, 0));
        assert!(!w(&["/id=123456789012345678901234567891"]).matches(&d, &big, 0));
        assert!(!w(&["/f=0.1"]).matches(&d, &big, 0));
        assert!(w(&["/f=0.1000000000000000055511151231257827"]).matches(&d, &big, 0));
        assert!(!w(&["/payload/missing"]).matches(&d, &m, 0));
        assert!(w(&["/payload/customer={\"tier\":\"gold\",\"id\":42}"]).matches(&d, &m, 0));
        // OR within --where.
        assert!(w(&["/payload/customer/id=7", "/payload/customer/id=42"]).matches(&d, &m, 0));
        assert!(!w(&["/payload/customer/id=7", "/payload/customer/id=8"]).matches(&d, &m, 0));
        // Bodies that are not JSON never match, not even a presence test.
        for other in [&b"not json"[..], b"", b"\xff\xfe", br#"{"payload":"#] {
            assert!(!w(&["/payload"]).matches(&d, &message(other), 0));
        }
        // --body-contains: raw bytes, any of them; works on any body.
        let c = |texts: &[&str]| Filter {
            body_contains: texts.iter().map(|s| s.to_string()).collect(),
            ..Filter::default()
        };
        assert!(c(&["gold"]).matches(&d, &m, 0));
        assert!(!c(&["GOLD"]).matches(&d, &m, 0), "case-sensitive");
        assert!(c(&["silver", "gold"]).matches(&d, &m, 0));
        assert!(c(&["not"]).matches(&d, &message(b"not json"), 0));
        assert!(!c(&["x"]).matches(&d, &message(b""), 0));
        // AND across: --where and --body-contains, and with the other filters.
        let mut f = w(&["/payload/customer/id=42"]);
        f.body_contains = vec!["silver".into()];
        assert!(!f.matches(&d, &m, 0));
        f.body_contains = vec!["gold".into()];
        assert!(f.matches(&d, &m, 0));
        f.causes = vec![Cause::Fatal];
        assert!(!f.matches(&d, &m, 0), "the cause does not match");
        f.causes = vec![Cause::Other];
        assert!(f.matches(&d, &m, 0));
        assert!(!f.is_empty());
        assert!(WhereCondition::parse("payload/id=1").is_err());
        assert!(WhereCondition::parse("/a~2=1").is_err());
        assert!(WhereCondition::parse("=1").is_err());
    }

    /// A body is JSON by JSON's grammar: a number past `f64`, a lone surrogate escape or
    /// nesting past serde_json's limit of 128 elsewhere in it made it "not JSON" to
    /// `--where`, which then never matched it (`dead ls --where` hid it, `dead replay
    /// --where` and `dead purge --where` left it).
    #[test]
    fn where_reads_json_that_serde_json_values_cannot_hold() {
        let w = |spec: &str| Filter {
            wheres: vec![WhereCondition::parse(spec).unwrap()],
            ..Filter::default()
        };
        let deep = format!("{}1{}", "[".repeat(200), "]".repeat(200));
        let (d, m) = (dl(), message);
        for body in [
            r#"{"tenant":"acme","big":1e400}"#.to_owned(),
            format!(r#"{{"tenant":"acme","deep":{deep}}}"#),
            r#"{"tenant":"acme","s":"\ud800"}"#.to_owned(),
        ] {
            let b = m(body.as_bytes());
            assert!(w("/tenant=acme").matches(&d, &b, 0), "{body}");
            assert!(w("/tenant").matches(&d, &b, 0), "{body}");
            assert!(!w("/tenant=globex").matches(&d, &b, 0), "{body}");
        }
        let big = m(br#"{"big":1e400,"n":[1e400]}"#);
        assert!(w("/big=1e400").matches(&d, &big, 0));
        assert!(w("/big=10e399").matches(&d, &big, 0), "numbers by value");
        assert!(!w("/big=1e401").matches(&d, &big, 0));
        assert!(!w("/n=[1]").matches(&d, &big, 0));
        assert!(
            w("/s=1e400").matches(&d, &m(br#"{"s":"1e400"}"#), 0),
            "as a string"
        );
        assert!(
            !w("/s=42").matches(&d, &m(br#"{"s":"42"}"#), 0),
            "a string is not a number"
        );
    }

    #[test]
    fn grouping_counts_without_keeping_messages() {
        let p = Properties::default();
        let mut g = Grouping::new(vec![GroupKey::Reason, GroupKey::OriginalQueue]);
        let mut a = dl();
        g.add(&a, &p);
        a.died_at = Some(500);
        g.add(&a, &p);
        a.reason = None;
        g.add(&a, &p);
        let sorted = g.sorted();
        assert_eq!(sorted.len(), 2);
        assert_eq!(sorted[0].1.count, 2);
        assert_eq!(sorted[0].1.oldest, Some(500));
        assert_eq!(sorted[0].1.newest, Some(1_000));
        assert_eq!(sorted[1].0, &vec![None, Some("orders".to_owned())]);
        assert!(GroupKey::parse("header:tenant").is_ok());
        assert!(GroupKey::parse("colour").is_err());
    }
}
