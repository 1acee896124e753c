//! PURE: the ledger, what queuey writes down before it acts on dead letters, and **the one rule
//! by which a dead letter may leave `q.dead` without a new copy**.
//!
//! The broker confirms a publish but never an ack. So whenever queuey removes dead letters
//! (`dead replay`, `dead purge --archive`) it writes down, and flushes to disk, what it is
//! about to do before it does it: a rerun after a crash (a kill -9, a lost connection, a node
//! that died) reads what the failed runs left and finishes their work. This module is the
//! format of those lines, what a rerun makes of them, and the rule.
//!
//! ## The rule
//!
//! **A dead letter is acked without a new copy only when the ledger proves that a dead letter of
//! the same content is still in `q.dead` although its copy already exists**: a record whose
//! copy is certain and whose dead letter was never acked ([`Ledger::decide`] answers
//! [`Decision::AlreadyCopied`]). Identical dead letters (same properties, same body: a
//! producer's retried publish, identical broker dead letters) are counted, never merged: the
//! ledger is a multiset by [`digest`], and each record answers for one dead letter. Acking
//! *any* dead letter of that content, rather than the very one whose copy was made, leaves the
//! same counts in `q.dead` and the targets, which is all that "identical" can mean.
//!
//! A record whose dead letter's ack was sent may answer for nothing: the broker may have
//! applied the ack (the dead letter is gone, and the one met now is an identical twin that has
//! no copy) or not (it is the one copied). No client can tell the two apart, so such a dead
//! letter is **copied again**, and counted as one that may now be in its target twice
//! ([`Decision::Copy`] with `may_duplicate`). A duplicate is always better than a loss.
//!
//! A copy in doubt that a rerun did not look for, or did not find in its target, may or may
//! not exist (on a cluster it can still arrive after the look): it answers for no dead letter
//! and no line of a file, and the new copy of its content is counted the same way.
//!
//! A decision is used up only by the dead letter it is acted on for: one that stays in `q.dead`
//! (not selected, no copy possible), or is replaced at the back of `q.dead` because it is on
//! its last delivery of a quorum queue and met again, gives its record back
//! ([`Ledger::undecide`]) to the next dead letter of its content. A dead letter on its last
//! delivery is never acked on a claim: were the run to die before the claim is on disk, the
//! broker would end it and leave its record to answer for a twin that has no copy.
//!
//! What counts as "copy certain, ack never sent":
//! - a copy published by a run that failed before its confirmation (a `doubt`), that a rerun
//!   then found in its target (`found`): a dead letter is acked only after its `copied` line,
//!   which follows the confirmation, is on disk, so a doubt's dead letter was never acked;
//! - a record of a purge's archive written after the last `acking` mark: the archive is on disk
//!   before that mark, and the mark before any ack;
//! - a confirmed copy numbered after a failed replay's `acked_through` mark: the settle stage
//!   acks in delivery order and copies are numbered in that order, so a run whose stages have
//!   all stopped writes the highest copy number whose dead letter's ack it sent or tried, and no
//!   later one was ever named to the broker (a kill -9 writes no mark).
//!
//! Every place in queuey that acks a dead letter, and its guard:
//! - the replay's settle stage (`commands/replay/settle.rs`): after the copy's `copied` line
//!   is on disk (confirmed, routed), or after a `claimed` line is on disk for a record this rule
//!   granted; held by `replay::sigkill_*`, `identical::*` and the simulation (`tests/simulation`);
//! - the purge (`commands/purge.rs`): after its archive records are on disk and the `acking`
//!   mark after them, or after a `claimed` line for a record this rule granted; held by
//!   `purge::sigkill_*`, `identical::*` and the simulation;
//! - the rescue of a quorum dead letter on its last delivery (`broker::acker::Rescuer`): after
//!   its replacement in `q.dead` itself is confirmed (no ledger: the message never leaves);
//! - the removal of a refused copy that its target dead-lettered back into `q.dead`
//!   (`commands/replay/returned_copies.rs`): the message carries this run's copy mark
//!   (`x-queuey-last-replay`), unique per copy, and its dead letter stays;
//! - `dead edit` (`commands/edit.rs`): after its archive record is on disk and the edited copy
//!   is confirmed (one dead letter, found by position or id, nothing matched by content).
//!
//! ## The lines
//! JSON lines, each flushed to disk before the step it announces:
//!
//! | line | written | means |
//! |---|---|---|
//! | `run` (`format`, `op`, `run`, broker, vhost, queue) | first | a run began |
//! | boot (`node_pids`, `broker_started_ms`) | after `run` | which start of the broker it saw |
//! | `doubt` (digest, `to`, `run`, `copy`) | before the copy is published | a copy may be in `to` |
//! | `copied` (digest, `to`, `run`, `copy`) | after the confirmation, before the ack | the copy is in `to`; the dead letter's ack may follow at any moment |
//! | `undone` (`run`, `copy`) | returned or refused | that copy is not in its target |
//! | `missed` (digest, `run`, `copy`) | a rerun did not find a doubt's copy (or carries one it gave up) | that copy is not in its target yet, but may still reach it (a cluster); its dead letter was never acked, and it answers for no dead letter or file line |
//! | `found` (digest, `run`, `copy`) | a rerun found a doubt's copy | the copy is in its target and its dead letter was never acked |
//! | `claimed` (digest) | before the ack the rule granted | that record is used up; its ack may follow |
//! | `acking` (n) | a purge, before it acks | the archive's first n records may be acked |
//! | `acked_through` (n, `run`) | a replay whose connection failed, last | its copies after n were never acked |
//! | `settled` (digest) | after a barrier proved an ack processed | for the report: that dead letter is gone |
//!
//! A crash may cut the last line short: a last line without its newline is ignored (its step
//! never followed). A journal is deleted when a run ends cleanly; one that a rerun finds is the
//! record of runs that did not. A purge keeps the same lines in its archive's marker
//! (`ARCHIVE.unfinished`), the archive itself holding the records.
//!
//! `settled` lines and the broker's [`Boot`] only make the "may now be twice" count exact: a
//! record whose ack the broker certainly processed cannot be a duplicate when its content is
//! copied again, unless a node restarted since and lost the ack it had processed
//! ([`Ledger::revive_after_restart`]).

use std::collections::{BTreeMap, HashMap};

use sha2::{Digest as _, Sha256};

use super::decode::{BROKER_BOOKKEEPING, HEADER_RESCUED_AT, X_ACQUIRED_COUNT, X_DELIVERY_COUNT};
use super::value::{Keys, Properties, TypedProperties};
use crate::cluster::ApiCluster;

mod boot;
mod lines;
pub use boot::Boot;
pub use lines::*;

/// The headers a digest leaves out: the broker's bookkeeping and queuey's rescue mark.
const NOT_THE_DEAD_LETTER: [&str; 3] = [X_DELIVERY_COUNT, X_ACQUIRED_COUNT, HEADER_RESCUED_AT];
const _: () = assert!(BROKER_BOOKKEEPING.len() == 2);

/// The `format` of a ledger's run lines.
pub const LEDGER_FORMAT: &str = "queuey-ledger/1";

/// What a ledger is about: a dead-letter queue of one vhost on one broker.
///
/// The broker is the cluster, so that a rerun through any node of the cluster finds the ledger
/// of a run made through another: `cluster:` and its name when the cluster was named
/// (`rabbitmqctl set_cluster_name`: every node then gives that name), `cluster:` and its first
/// node when it was not (RabbitMQ's default cluster name is then each node's own name, which
/// differs from node to node; see [`cluster_identity`]). Without either it is the AMQP URL's
/// `host:port`.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Scope {
    /// `cluster:NAME`, or `host:port` of the AMQP URL.
    pub broker: String,
    pub vhost: String,
    /// The dead-letter queue (or `file:PATH` for a replay from a file).
    pub queue: String,
}

/// The name of the cluster every node shares, from the `cluster_name` of the node queuey is
/// connected to and what the management API says of its cluster (`api`; its nodes empty when
/// unknown).
///
/// A cluster never named has as its name the default of the node that answers, the node's
/// own name with the host's full name (`rabbit@mq-1.example.com` on node `rabbit@mq-1`): each
/// node gives another ([`ApiCluster`]). Then the cluster is its first node in order, which
/// every node lists alike. When the nodes are unknown (a user without the API's monitoring
/// tag), the node's own name is all there is: a rerun through another node will not find the
/// ledger.
pub fn cluster_identity(cluster_name: &str, api: &ApiCluster) -> String {
    match api.nodes.iter().min() {
        Some(first) if api.unnamed() && api.is_named(cluster_name) => format!("cluster:{first}"),
        _ => format!("cluster:{cluster_name}"),
    }
}

/// The digest of a dead letter as read from `q.dead`: SHA-256 over its properties (typed JSON)
/// and its body. The broker's bookkeeping ([`BROKER_BOOKKEEPING`]: `x-delivery-count`, and from
/// RabbitMQ 4.3 `x-acquired-count`, which a quorum queue changes at every redelivery, a look's
/// included) is left out, and a message without headers counts as one with an empty table (a
/// quorum queue gives a header table to a message that had none when it stamps its count), so
/// the same dead letter has the same digest however often it comes back. So is queuey's own
/// mark of a dead letter it replaced on its last delivery (`x-queuey-rescued-at`, a time): the
/// replacement is the same dead letter, moved, and a run killed after copying it must know it
/// when a rerun replaces it again. Identical dead letters have the same digest: the ledger
/// counts them.
pub fn digest(props: &Properties, body: &[u8]) -> String {
    let typed = TypedProperties {
        props,
        headers: Keys::Except(&NOT_THE_DEAD_LETTER),
        always_headers: true,
    };
    // Room for a dead letter's usual properties at once, not grown by doubling from 128 bytes.
    let mut json = Vec::with_capacity(2048);
    let props = match serde_json::to_writer(&mut json, &typed) {
        Ok(()) => json,
        Err(_) => Vec::new(),
    };
    let mut h = Sha256::new();
    h.update((props.len() as u64).to_be_bytes());
    h.update(&props);
    h.update(body);
    super::value::hex(&h.finalize())
}

/// The slack within which two start times of the connected node are one start (see [`Boot`]).
pub const RESTART_SLACK_MS: u64 = 10_000;

/// A multiset of digests.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
struct Counts {
    by_digest: HashMap<String, u64>,
    total: u64,
}

impl Counts {
    fn add(&mut self, digest: &str, n: u64) {
        if n == 0 {
            return;
        }
        *self.by_digest.entry(digest.to_owned()).or_default() += n;
        self.total += n;
    }

    /// Takes one of `digest`, if there is one.
    fn take(&mut self, digest: &str) -> bool {
        let Some(n) = self.by_digest.get_mut(digest) else {
            return false;
        };
        *n -= 1;
        if *n == 0 {
            self.by_digest.remove(digest);
        }
        self.total -= 1;
        true
    }

    fn sorted(&self) -> Vec<(&String, u64)> {
        let mut v: Vec<(&String, u64)> = self.by_digest.iter().map(|(d, n)| (d, *n)).collect();
        v.sort();
        v
    }
}

/// A copy published without learning whether the broker took it: the dead letter's digest and
/// the copy's target.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Doubt {
    pub digest: String,
    pub to: String,
}

/// What the rule says of one dead letter met by a rerun (see the module docs).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Decision {
    /// A copy exists and a dead letter of this content was never acked: ack this one without a
    /// new copy, once a `claimed` line for it is on disk.
    AlreadyCopied,
    /// Copy it (if it is selected). `may_duplicate`: a failed run made a copy of this content
    /// whose dead letter's ack the broker may or may not have applied; the new copy may be a
    /// second one.
    Copy { may_duplicate: bool },
}

/// What the unfinished runs of a ledger left: the copies whose dead letters may still be in
/// `q.dead`, by content.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Ledger {
    pub runs: Vec<String>,
    /// Which start of the broker each run saw, per run line (default: not known to that run).
    pub boots: Vec<Boot>,
    /// Copies in doubt, by run and copy number.
    doubts: BTreeMap<(String, u64), Doubt>,
    /// Certain copies whose dead letters were never acked: each answers for one dead letter.
    unacked: Counts,
    /// Copies that exist for which no dead letter may be left to answer: confirmed copies
    /// whose dead letters' acks were sent and not known processed. A new copy of such content
    /// may be a second one; a file's line of it is answered (the copy exists).
    maybe_acked: Counts,
    /// Copies that may or may not exist, whose dead letters were never acked: copies in doubt
    /// not looked for, or not found (on a cluster they can still arrive). A new copy of such
    /// content may be a second one; they never answer for a dead letter or a file's line.
    uncertain: Counts,
    /// Copies whose dead letters' acks the broker processed (unless it restarted since).
    settled: Counts,
    /// The confirmed copies of the runs read so far, by run and number: a run's
    /// `acked_through` line makes those after it copies whose dead letters were never acked.
    copied: BTreeMap<(String, u64), String>,
    /// Copies (or archive records) unfinished runs made although the rule said each may be a
    /// second one: counted in the report of the run that ends, since they did not end.
    pub earlier_duplicates: u64,
}

impl Ledger {
    /// Reads a ledger's text. A last line cut short (no newline) is ignored; any other line
    /// that is not a ledger line, or a run line of another scope, is an error that says why.
    pub fn parse(text: &str, scope: &Scope) -> Result<Ledger, String> {
        let mut out = Ledger::default();
        out.read_lines(text, scope)?;
        Ok(out)
    }

    /// Reads more lines of a ledger (a purge's marker after its archive's records).
    pub fn read_lines(&mut self, text: &str, scope: &Scope) -> Result<(), String> {
        let complete = match text.rfind('\n') {
            Some(i) => &text[..=i],
            None => "",
        };
        for (i, line) in complete.lines().enumerate() {
            let n = i + 1;
            if line.trim().is_empty() {
                continue;
            }
            let line = Line::parse(line).map_err(|e| format!("line {n} {e}"))?;
            if !matches!(line, Line::Run { .. } | Line::Boot(_)) && self.runs.is_empty() {
                return Err(format!("line {n}: a record before any run line"));
            }
            self.apply(line, scope)
                .map_err(|e| format!("line {n}: {e}"))?;
        }
        Ok(())
    }

    fn apply(&mut self, line: Line, scope: &Scope) -> Result<(), String> {
        match line {
            Line::Run {
                scope: theirs, run, ..
            } => {
                if theirs != *scope {
                    return Err(format!(
                        "it belongs to queue {:?} of vhost {:?} on {}, not queue {:?} of vhost \
                         {:?} on {}",
                        theirs.queue,
                        theirs.vhost,
                        theirs.broker,
                        scope.queue,
                        scope.vhost,
                        scope.broker
                    ));
                }
                self.runs.push(run);
                self.boots.push(Boot::default());
            }
            Line::Boot(boot) => {
                if let Some(last) = self.boots.last_mut() {
                    *last = boot;
                }
            }
            Line::Doubt {
                digest,
                to,
                run,
                copy,
            } => {
                self.doubts.insert((run, copy), Doubt { digest, to });
            }
            Line::Copied {
                digest,
                run,
                copy,
                may_duplicate,
                ..
            } => {
                self.doubts.remove(&(run.clone(), copy));
                self.maybe_acked.add(&digest, 1);
                self.copied.insert((run, copy), digest);
                self.earlier_duplicates += u64::from(may_duplicate);
            }
            Line::Undone { run, copy } => {
                self.doubts.remove(&(run, copy));
            }
            Line::Missed { digest, run, copy } => {
                self.doubts.remove(&(run, copy));
                self.uncertain.add(&digest, 1);
            }
            Line::Found { digest, doubt } => {
                if let Some(key) = doubt {
                    self.doubts.remove(&key);
                }
                self.unacked.add(&digest, 1);
            }
            Line::Claimed(digest) => {
                if self.unacked.take(&digest) {
                    self.maybe_acked.add(&digest, 1);
                }
            }
            Line::AckedThrough { run, n } => {
                let never_acked: Vec<(String, u64)> = self
                    .copied
                    .range((run.clone(), n.saturating_add(1))..=(run, u64::MAX))
                    .map(|(k, _)| k.clone())
                    .collect();
                for key in never_acked {
                    if let Some(digest) = self.copied.remove(&key)
                        && self.maybe_acked.take(&digest)
                    {
                        self.unacked.add(&digest, 1);
                    }
                }
            }
            Line::Acking { may_duplicate, .. } => self.earlier_duplicates += may_duplicate,
            Line::Settled(digest) => self.settle(&digest),
        }
        Ok(())
    }

    /// THE RULE (see the module docs), for a dead letter of `digest` met in `q.dead` by a rerun.
    /// An `AlreadyCopied` answer uses up the record: the caller writes [`claimed_line`] to disk
    /// before the ack. A `Copy` answer with `may_duplicate` uses up a record of an ack in doubt,
    /// so that each such record is counted once.
    pub fn decide(&mut self, digest: &str) -> Decision {
        if self.unacked.take(digest) {
            return Decision::AlreadyCopied;
        }
        Decision::Copy {
            may_duplicate: self.maybe_acked.take(digest) || self.uncertain.take(digest),
        }
    }

    /// Gives back the record a [`Ledger::decide`] used when its dead letter was not acted on as
    /// decided: kept in `q.dead` (not selected, a copy that cannot be made) or replaced at the
    /// back of `q.dead` by a renewal on its last delivery, which the run meets again. The next
    /// dead letter of that content is decided as this one was: a record of an ack in doubt is
    /// counted for the dead letter that is copied, never for one that stays. (It comes back as
    /// a copy that may not exist: the safe side, which answers for no file's line.)
    pub fn undecide(&mut self, digest: &str, decision: Decision) {
        match decision {
            Decision::AlreadyCopied => self.unacked.add(digest, 1),
            Decision::Copy {
                may_duplicate: true,
            } => self.uncertain.add(digest, 1),
            Decision::Copy {
                may_duplicate: false,
            } => {}
        }
    }

    /// The same rule for a replay from a file: a line is never removed from its file, so every
    /// certain copy answers for one line of its content (the rerun reads the lines in the same
    /// order). A copy that may not exist answers for none: the line is copied, and counted as
    /// one that may be a second.
    pub fn decide_line(&mut self, digest: &str) -> Decision {
        if self.unacked.take(digest) || self.maybe_acked.take(digest) {
            Decision::AlreadyCopied
        } else {
            Decision::Copy {
                may_duplicate: self.uncertain.take(digest),
            }
        }
    }

    /// Records a certain copy of a dead letter of `digest` that was never acked (a purge's
    /// archive record after its last `acking` mark), or, with `maybe_acked`, one whose ack may
    /// have been sent.
    pub fn add_copy(&mut self, digest: &str, maybe_acked: bool) {
        if maybe_acked {
            self.maybe_acked.add(digest, 1);
        } else {
            self.unacked.add(digest, 1);
        }
    }

    /// The broker processed the ack of a dead letter of `digest`: one record of an ack in doubt
    /// is no longer one (kept aside for [`Ledger::revive_after_restart`]).
    pub fn settle(&mut self, digest: &str) {
        if self.maybe_acked.take(digest) {
            self.settled.add(digest, 1);
        }
    }

    /// Whether a node restarted since a run of this ledger (see [`Boot::restarted_since`]).
    pub fn restarted_since(&self, now: &Boot, slack_ms: u64) -> bool {
        self.boots
            .iter()
            .any(|then| now.restarted_since(then, slack_ms))
    }

    /// When a node started again since a run, the acks it had processed may be lost with it:
    /// the settled records are acks in doubt again. Returns whether they are.
    pub fn revive_after_restart(&mut self, now: &Boot) -> bool {
        let restarted = self.restarted_since(now, RESTART_SLACK_MS);
        if restarted {
            for (d, n) in std::mem::take(&mut self.settled).by_digest {
                self.maybe_acked.add(&d, n);
            }
        }
        restarted
    }

    /// The copies in doubt, by target: `(run, copy number)` of each.
    pub fn doubts_by_target(&self) -> BTreeMap<String, Vec<(String, u64)>> {
        let mut out: BTreeMap<String, Vec<(String, u64)>> = BTreeMap::new();
        for ((run, copy), d) in &self.doubts {
            out.entry(d.to.clone())
                .or_default()
                .push((run.clone(), *copy));
        }
        out
    }

    /// Copies in doubt.
    pub fn doubts(&self) -> u64 {
        self.doubts.len() as u64
    }

    /// Settles the doubt about copy `copy` of `run`: `found` in its target, its dead letter was
    /// never acked, and one dead letter of its content is acked without a new copy; not found,
    /// its dead letter is copied again, and that copy is counted as one that may be a second:
    /// on a cluster a copy in doubt can still reach its target after the look (a leader of the
    /// target frozen or without its majority takes it once it runs again, seen on 3.10.8 and
    /// 4.3.6). Returns the doubt, `None` if there was none.
    pub fn resolve(&mut self, run: &str, copy: u64, found: bool) -> Option<Doubt> {
        let doubt = self.doubts.remove(&(run.to_owned(), copy))?;
        if found {
            self.unacked.add(&doubt.digest, 1);
        } else {
            self.uncertain.add(&doubt.digest, 1);
        }
        Some(doubt)
    }

    /// Gives up every copy in doubt (no look in the targets): their dead letters are copied
    /// again, and each copy may then be a second one. Returns how many there were, by target.
    pub fn give_up_doubts(&mut self) -> BTreeMap<String, u64> {
        let mut out = BTreeMap::new();
        for (_, d) in std::mem::take(&mut self.doubts) {
            *out.entry(d.to).or_default() += 1;
            self.uncertain.add(&d.digest, 1);
        }
        out
    }

    /// Gives up the copy `copy` of `run` in doubt (its target could not be read), as
    /// [`Ledger::give_up_doubts`] does.
    pub fn give_up_doubt(&mut self, run: &str, copy: u64) {
        if let Some(d) = self.doubts.remove(&(run.to_owned(), copy)) {
            self.uncertain.add(&d.digest, 1);
        }
    }

    /// Records the rule can still grant (certain copies whose dead letters were never acked).
    pub fn unacked(&self) -> u64 {
        self.unacked.total
    }

    /// Records of acks in doubt.
    pub fn maybe_acked(&self) -> u64 {
        self.maybe_acked.total
    }

    /// Records of copies that may not exist (copies in doubt given up or not found).
    pub fn uncertain(&self) -> u64 {
        self.uncertain.total
    }

    /// Whether anything is left that a later run must know.
    pub fn is_empty(&self) -> bool {
        self.unacked.total == 0
            && self.maybe_acked.total == 0
            && self.uncertain.total == 0
            && self.doubts.is_empty()
    }

    /// What is left, as lines of `run` for a new ledger (records a run did not meet).
    pub fn remaining_lines(&self, run: &str) -> String {
        let mut out = String::new();
        for (d, n) in self.unacked.sorted() {
            for _ in 0..n {
                out.push_str(&found_line(d, None));
            }
        }
        let mut copy = 0;
        for (d, n) in self.maybe_acked.sorted() {
            for _ in 0..n {
                copy += 1;
                out.push_str(&copied_line(d, "", run, copy, false));
            }
        }
        for (d, n) in self.uncertain.sorted() {
            for _ in 0..n {
                copy += 1;
                out.push_str(&missed_line(d, run, copy));
            }
        }
        for ((r, c), d) in &self.doubts {
            out.push_str(&doubt_line(&d.digest, &d.to, r, *c));
        }
        out
    }
}

#[cfg(test)]
mod tests;
