//! PURE: the replay journal's format, and the rule a rerun follows with it.
//!
//! A replay acks a dead letter only once its copy is confirmed, but the broker never confirms
//! an ack: when the connection or the broker dies, acks sent in the last moments may be lost,
//! and those dead letters come back to `q.dead` although their copies are safe in the target.
//! Replaying them again would duplicate them. So before a dead letter is acked, its confirmed
//! copy is recorded in the journal (and the journal flushed to disk): the dead letter's
//! [`digest`], the target queue, the run. A rerun on the same broker, vhost and queue reads the
//! unfinished journal first, and a dead letter whose digest is recorded there is acked without
//! a new copy ("already copied").
//!
//! Identical dead letters (same body, same properties) have the same digest: the journal is a
//! multiset, and each record answers for one dead letter ([`Unfinished::take`]). A journal is
//! deleted when a run ends cleanly; one that a rerun finds is the record of runs that did not.
//!
//! A record must not outlive its dead letter: an identical twin met later would be taken for it
//! and acked without a copy. So once the broker has certainly processed a batch of acks (a
//! synchronous round trip on the channel after them), a `settled` line per acked dead letter
//! cancels its record. A broker that restarts, though, loses acks it had processed but not yet
//! written (seen: kill -9 of a 3.10 node brought back every dead letter acked in the seconds
//! before): each run line is followed by the time the broker node started, and when a rerun
//! finds the node started since, the cancelled records count again ([`Unfinished::revive`]).
//! And a record only ever answers for a dead letter that was delivered before (`redelivered`),
//! as one whose ack was lost always is: a twin never delivered gets its own copy.
//!
//! The file is JSON lines: a `run` line at the start of each run (the broker, vhost and queue it
//! is about, the run id, the time), a `broker_started_ms` line, one `copied` line per confirmed
//! copy, one `settled` line per record cancelled. A crash may cut the last line short: a last
//! line without its newline is ignored (its copy's dead letter was not acked yet: the record is
//! flushed before the ack is sent).

use std::collections::HashMap;

use serde::Serialize;
use serde_json::{Value as Json, json};
use sha2::{Digest as _, Sha256};

use super::decode::X_DELIVERY_COUNT;
use super::value::{Properties, TypedProperties};

/// The `format` of a journal's run lines.
pub const JOURNAL_FORMAT: &str = "queuey-replay-journal/1";

/// What a journal is about: a dead-letter queue of one vhost on one broker.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Scope {
    /// `host:port` of the AMQP URL.
    pub broker: String,
    pub vhost: String,
    /// The dead-letter queue.
    pub queue: String,
}

/// The digest of a dead letter as read from `q.dead`: SHA-256 over its properties (typed JSON)
/// and its body. `x-delivery-count`, which a quorum queue changes at each redelivery, is left
/// out, so the same dead letter has the same digest when it comes back.
pub fn digest(props: &Properties, body: &[u8]) -> String {
    // The typed JSON of `props.to_json()` without that header, written without building it
    // (the digests of journals written before stay the same: a test holds them equal).
    let props =
        serde_json::to_vec(&TypedProperties(props, Some(X_DELIVERY_COUNT))).unwrap_or_default();
    let mut h = Sha256::new();
    h.update((props.len() as u64).to_be_bytes());
    h.update(&props);
    h.update(body);
    let mut hex = String::with_capacity(64);
    for b in h.finalize() {
        hex.push(char::from(HEX_DIGITS[usize::from(b >> 4)]));
        hex.push(char::from(HEX_DIGITS[usize::from(b & 0xf)]));
    }
    hex
}

const HEX_DIGITS: &[u8; 16] = b"0123456789abcdef";

/// The line that opens a run's part of the journal (with its newline).
pub fn run_line(scope: &Scope, run: &str, started: u64) -> String {
    let mut line = json!({
        "format": JOURNAL_FORMAT,
        "run": run,
        "started": started,
        "broker": scope.broker,
        "vhost": scope.vhost,
        "queue": scope.queue,
    })
    .to_string();
    line.push('\n');
    line
}

/// The line recording a confirmed copy of the dead letter `digest` in `to` (with its newline).
pub fn copied_line(digest: &str, to: &str, run: &str) -> String {
    /// Written once per copy: a struct, not a JSON tree (the same text).
    #[derive(Serialize)]
    struct Copied<'a> {
        copied: &'a str,
        to: &'a str,
        run: &'a str,
    }
    json_line(&Copied {
        copied: digest,
        to,
        run,
    })
}

/// The line cancelling one record of `digest`: the broker processed its dead letter's ack.
pub fn settled_line(digest: &str) -> String {
    #[derive(Serialize)]
    struct Settled<'a> {
        settled: &'a str,
    }
    json_line(&Settled { settled: digest })
}

/// `value` as one JSON line, with its newline.
fn json_line(value: &impl Serialize) -> String {
    // Serialising a struct of strings cannot fail.
    let mut line = serde_json::to_string(value).unwrap_or_default();
    line.push('\n');
    line
}

/// The line saying when the broker node started (milliseconds since the epoch), as the run saw
/// it.
pub fn started_line(ms: u64) -> String {
    let mut line = json!({"broker_started_ms": ms}).to_string();
    line.push('\n');
    line
}

/// The line saying how many dead letters a run had read from the head of `q.dead` so far: the
/// dead letters its records answer for are among them. A rerun meets those first (the broker
/// puts an unacked message back in its place), so it matches records only among its first
/// that many: a twin further back, which the failed run never read, keeps its own copy.
pub fn read_line(n: u64) -> String {
    let mut line = json!({"read": n}).to_string();
    line.push('\n');
    line
}

/// One record of an unfinished journal: a confirmed copy whose dead letter may still be in
/// `q.dead`.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Copied {
    pub to: String,
    pub run: String,
}

/// What an unfinished journal holds: the runs it saw, and its records by digest.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Unfinished {
    pub runs: Vec<String>,
    records: HashMap<String, Vec<Copied>>,
    left: u64,
    /// Records cancelled by `settled` lines, kept in case the broker restarted since.
    settled: Vec<(String, Copied)>,
    /// When the broker node started, per run line (`None`: not known to that run).
    pub broker_started: Vec<Option<u64>>,
    /// The most dead letters a run read (see [`read_line`]).
    pub read: u64,
}

impl Unfinished {
    /// Reads a journal's text. A last line cut short (no newline) is ignored; any other line
    /// that is not a journal line, or a run line of another scope, is an error that says why.
    pub fn parse(text: &str, scope: &Scope) -> Result<Unfinished, String> {
        let mut out = Unfinished::default();
        let complete = match text.rfind('\n') {
            Some(i) => &text[..=i],
            None => "",
        };
        for (i, line) in complete.lines().enumerate() {
            let n = i + 1;
            if line.trim().is_empty() {
                continue;
            }
            let j: Json = serde_json::from_str(line)
                .map_err(|e| format!("line {n} is not a journal line ({e})"))?;
            let s = |k: &str| j.get(k).and_then(Json::as_str);
            if let Some(d) = s("copied") {
                if out.runs.is_empty() {
                    return Err(format!("line {n}: a record before any run line"));
                }
                out.add(
                    d,
                    Copied {
                        to: s("to").unwrap_or_default().to_owned(),
                        run: s("run").unwrap_or_default().to_owned(),
                    },
                );
            } else if let Some(d) = s("settled") {
                if let Some(c) = out.take(d) {
                    out.settled.push((d.to_owned(), c));
                }
            } else if let Some(n) = j.get("read").and_then(Json::as_u64) {
                out.read = out.read.max(n);
            } else if let Some(ms) = j.get("broker_started_ms") {
                if let Some(last) = out.broker_started.last_mut() {
                    *last = ms.as_u64();
                }
            } else if s("format") == Some(JOURNAL_FORMAT) {
                let theirs = Scope {
                    broker: s("broker").unwrap_or_default().to_owned(),
                    vhost: s("vhost").unwrap_or_default().to_owned(),
                    queue: s("queue").unwrap_or_default().to_owned(),
                };
                if theirs != *scope {
                    return Err(format!(
                        "line {n}: it belongs to queue {:?} of vhost {:?} on {}, not queue {:?} \
                         of vhost {:?} on {}",
                        theirs.queue,
                        theirs.vhost,
                        theirs.broker,
                        scope.queue,
                        scope.vhost,
                        scope.broker
                    ));
                }
                out.runs.push(s("run").unwrap_or_default().to_owned());
                out.broker_started.push(None);
            } else {
                return Err(format!(
                    "line {n} is not a journal line (format {JOURNAL_FORMAT})"
                ));
            }
        }
        Ok(out)
    }

    /// Adds a record of `digest` (for a multiset built from another source: an archive).
    pub fn add_copied(&mut self, digest: &str) {
        self.add(
            digest,
            Copied {
                to: String::new(),
                run: String::new(),
            },
        );
    }

    fn add(&mut self, digest: &str, copied: Copied) {
        self.records
            .entry(digest.to_owned())
            .or_default()
            .push(copied);
        self.left += 1;
    }

    /// Whether a dead letter of this digest was copied by an unfinished run: if so, one record
    /// answers for it (and is used up), and the dead letter is to be acked without a new copy.
    pub fn take(&mut self, digest: &str) -> Option<Copied> {
        let records = self.records.get_mut(digest)?;
        let copied = records.pop()?;
        if records.is_empty() {
            self.records.remove(digest);
        }
        self.left -= 1;
        Some(copied)
    }

    /// Whether the broker node restarted since a run of this journal: its start time now
    /// (`now_started`) differs from one a run saw by more than `slack_ms`. Unknown either side:
    /// no (the cancelled records stay cancelled; a restart then costs duplicates, never a loss).
    pub fn restarted_since(&self, now_started: Option<u64>, slack_ms: u64) -> bool {
        let Some(now) = now_started else {
            return false;
        };
        self.broker_started
            .iter()
            .flatten()
            .any(|&then| now.abs_diff(then) > slack_ms)
    }

    /// Cancels one record of `digest` (kept aside for [`Unfinished::revive`]).
    pub fn settle(&mut self, digest: &str) {
        if let Some(c) = self.take(digest) {
            self.settled.push((digest.to_owned(), c));
        }
    }

    /// Makes the cancelled records count again: the broker restarted, and may have lost the
    /// acks it had processed.
    pub fn revive(&mut self) -> u64 {
        let n = self.settled.len() as u64;
        for (d, c) in std::mem::take(&mut self.settled) {
            self.add(&d, c);
        }
        n
    }

    /// Whether the `n`-th dead letter a rerun reads (1 is the head) may be one a record answers
    /// for.
    pub fn within_read(&self, n: u64) -> bool {
        n <= self.read
    }

    /// Records not used up.
    pub fn left(&self) -> u64 {
        self.left
    }

    /// The records not used up, as `copied` lines of `run` (to carry them into a new journal).
    pub fn remaining_lines(&self) -> String {
        let mut digests: Vec<&String> = self.records.keys().collect();
        digests.sort();
        let mut out = String::new();
        for d in digests {
            for c in &self.records[d] {
                out.push_str(&copied_line(d, &c.to, &c.run));
            }
        }
        out
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::dead::value::{Table, Value};

    fn scope() -> Scope {
        Scope {
            broker: "127.0.0.1:5672".into(),
            vhost: "/".into(),
            queue: "orders.dead".into(),
        }
    }

    fn props(id: &str) -> Properties {
        Properties {
            message_id: Some(id.into()),
            ..Properties::default()
        }
    }

    #[test]
    fn a_digest_depends_on_body_and_properties_but_not_on_the_delivery_count() {
        let a = digest(&props("1"), b"body");
        assert_eq!(a.len(), 64);
        assert_eq!(a, digest(&props("1"), b"body"));
        assert_ne!(a, digest(&props("2"), b"body"));
        assert_ne!(a, digest(&props("1"), b"bodx"));
        let mut counted = props("1");
        let mut h = Table::new();
        h.insert(X_DELIVERY_COUNT.into(), Value::I64(3));
        counted.headers = Some(h);
        let mut empty = props("1");
        empty.headers = Some(Table::new());
        assert_eq!(digest(&counted, b"body"), digest(&empty, b"body"));
        // Properties and body do not run into each other.
        let mut p = props("1");
        p.app_id = Some("x".into());
        assert_ne!(digest(&p, b""), digest(&props("1"), b"x"));
    }

    #[test]
    fn records_answer_for_one_dead_letter_each() {
        let text = format!(
            "{}{}{}{}",
            run_line(&scope(), "r1", 10),
            copied_line("aa", "orders", "r1"),
            copied_line("aa", "orders", "r1"),
            copied_line("bb", "other", "r1"),
        );
        let mut j = Unfinished::parse(&text, &scope()).unwrap();
        assert_eq!(j.runs, vec!["r1".to_owned()]);
        assert_eq!(j.left(), 3);
        assert!(j.take("aa").is_some());
        assert!(j.take("aa").is_some());
        assert_eq!(
            j.take("aa"),
            None,
            "two identical dead letters, two records"
        );
        assert_eq!(
            j.take("bb"),
            Some(Copied {
                to: "other".into(),
                run: "r1".into()
            })
        );
        assert_eq!(j.left(), 0);
        assert_eq!(j.take("cc"), None);
    }

    #[test]
    fn a_last_line_cut_short_is_ignored_and_other_bad_lines_refused() {
        let whole = format!(
            "{}{}",
            run_line(&scope(), "r1", 10),
            copied_line("aa", "orders", "r1")
        );
        let cut = format!("{whole}{{\"copied\":\"b");
        let j = Unfinished::parse(&cut, &scope()).unwrap();
        assert_eq!(j.left(), 1);
        let bad = format!("{whole}nonsense\n");
        assert!(
            Unfinished::parse(&bad, &scope())
                .unwrap_err()
                .contains("line 3")
        );
        let orphan = copied_line("aa", "orders", "r1");
        assert!(Unfinished::parse(&orphan, &scope()).is_err());
        assert_eq!(Unfinished::parse("", &scope()).unwrap().left(), 0);
    }

    #[test]
    fn settled_records_are_cancelled_unless_the_broker_restarted_since() {
        let text = format!(
            "{}{}{}{}{}{}",
            run_line(&scope(), "r1", 10),
            started_line(1_000_000),
            copied_line("aa", "orders", "r1"),
            copied_line("aa", "orders", "r1"),
            settled_line("aa"),
            settled_line("zz"),
        );
        let mut j = Unfinished::parse(&text, &scope()).unwrap();
        assert_eq!(j.left(), 1, "one of the twins' records is cancelled");
        assert!(!j.restarted_since(Some(1_000_500), 10_000));
        assert!(!j.restarted_since(None, 10_000));
        assert!(j.restarted_since(Some(2_000_000), 10_000));
        assert_eq!(j.revive(), 1);
        assert_eq!(j.left(), 2);
        let unknown = Unfinished::parse(&run_line(&scope(), "r1", 10), &scope()).unwrap();
        assert!(
            !unknown.restarted_since(Some(5), 1),
            "a run that did not know"
        );
    }

    #[test]
    fn records_answer_only_within_what_the_runs_read() {
        let text = format!(
            "{}{}{}{}{}",
            run_line(&scope(), "r1", 10),
            copied_line("aa", "orders", "r1"),
            read_line(40),
            read_line(120),
            run_line(&scope(), "r2", 20),
        );
        let j = Unfinished::parse(&text, &scope()).unwrap();
        assert!(j.within_read(120));
        assert!(!j.within_read(121));
        assert!(!Unfinished::default().within_read(1));
    }

    #[test]
    fn a_journal_of_another_queue_is_refused() {
        let mut other = scope();
        other.vhost = "prod".into();
        let text = run_line(&other, "r1", 10);
        let e = Unfinished::parse(&text, &scope()).unwrap_err();
        assert!(e.contains("\"prod\""), "{e}");
    }

    #[test]
    fn runs_accumulate_and_what_is_left_carries_over() {
        let text = format!(
            "{}{}{}{}",
            run_line(&scope(), "r1", 10),
            copied_line("aa", "orders", "r1"),
            run_line(&scope(), "r2", 20),
            copied_line("bb", "orders", "r2"),
        );
        let mut j = Unfinished::parse(&text, &scope()).unwrap();
        assert_eq!(j.runs.len(), 2);
        j.take("aa");
        let carried = format!("{}{}", run_line(&scope(), "r3", 30), j.remaining_lines());
        let again = Unfinished::parse(&carried, &scope()).unwrap();
        assert_eq!(again.left(), 1);
        assert_eq!(again.clone().take("bb").map(|c| c.run), Some("r2".into()));
    }
}
