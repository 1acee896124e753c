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
//! before): each run line is followed by the broker's [`Boot`] (each running node's OS process
//! id, and the time the connected node started), and when a rerun finds a node started since,
//! the cancelled records count again ([`Unfinished::revive`]).
//! And a record only ever answers for a dead letter that was delivered before (`redelivered`),
//! as one whose ack was lost always is: a twin never delivered gets its own copy.
//!
//! A copy published but never confirmed (the connection died first) may or may not be in its
//! target: the broker may have taken it and died before confirming, or the confirmation was lost
//! with the connection. So before a batch is published, each of its copies is recorded "in
//! doubt" (its dead letter's digest, the target, the run and the copy's number, which the copy
//! itself carries in `x-queuey-last-replay`); its confirmation, or its return, settles the doubt.
//! A rerun that finds doubts left looks for those copies in their targets (a peek, where one
//! costs nothing) and records each one found as a confirmed copy ([`Unfinished::resolve`]):
//! its dead letter is then acked without a new copy, like one whose ack was lost.
//!
//! The file is JSON lines: a `run` line at the start of each run (the broker, vhost and queue it
//! is about, the run id, the time), a boot line (`node_pids`, `broker_started_ms`), one `doubt`
//! line per copy before
//! it is published, one `copied` line per confirmed copy (with its number, which settles its
//! doubt), one `undone` line per copy that certainly is not in its target (returned, refused,
//! or not found there by a rerun), one `settled` line per record cancelled. A crash may cut the
//! last line short: a last line without its newline is ignored (a `doubt` line is flushed before
//! its copy is published, a `copied` line before its dead letter is acked).

use std::collections::{BTreeMap, HashMap};

use serde::{Deserialize, Serialize};
use serde_json::{Value as Json, json};
use sha2::{Digest as _, Sha256};

use super::decode::{BROKER_BOOKKEEPING, X_DELIVERY_COUNT};
use super::value::{Keys, Properties, TypedProperties};
use crate::cluster::ApiCluster;

/// The `format` of a journal's run lines.
pub const JOURNAL_FORMAT: &str = "queuey-replay-journal/3";
/// The format before the broker's bookkeeping was all left out of the [`digest`]: read the same
/// way (its records of dead letters with headers have the same digests).
const JOURNAL_FORMAT_2: &str = "queuey-replay-journal/2";
/// The format before copies were recorded in doubt: read the same way (it has no `doubt` or
/// `undone` lines).
const JOURNAL_FORMAT_1: &str = "queuey-replay-journal/1";

/// What a journal is about: a dead-letter queue of one vhost on one broker.
///
/// The broker is the cluster, so that a rerun through any node of the cluster finds the
/// journal of a run made through another: `cluster:` and its name when the cluster was named
/// (`rabbitmqctl set_cluster_name`: every node then gives that name), `cluster:` and its first
/// node when it was not (RabbitMQ's default cluster name is then each node's own name, which
/// differs from node to node: seen on 3.10.8 and 4.3.6; see [`cluster_identity`]). Without
/// either it is the AMQP URL's `host:port`, as it was for every journal before.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Scope {
    /// `cluster:NAME`, or `host:port` of the AMQP URL.
    pub broker: String,
    pub vhost: String,
    /// The dead-letter queue.
    pub queue: String,
    /// Other names this broker's journals had: the `host:port` of the AMQP URL (journals
    /// before they were the cluster's) and the connected node's own default cluster name
    /// (journals between that change and this one). A journal of one of them is this
    /// scope's too.
    pub legacy_brokers: Vec<String>,
}

impl Scope {
    /// Whether a journal line of `theirs` belongs to this scope.
    pub fn owns(&self, theirs: &Scope) -> bool {
        theirs.vhost == self.vhost
            && theirs.queue == self.queue
            && (theirs.broker == self.broker || self.legacy_brokers.contains(&theirs.broker))
    }

    /// The scope under each name journals had before (see [`Scope::legacy_brokers`]).
    pub fn legacy(&self) -> Vec<Scope> {
        self.legacy_brokers
            .iter()
            .filter(|b| **b != self.broker)
            .map(|broker| Scope {
                broker: broker.clone(),
                vhost: self.vhost.clone(),
                queue: self.queue.clone(),
                legacy_brokers: Vec::new(),
            })
            .collect()
    }
}

/// The name of the cluster that every node shares, from the `cluster_name` of the node queuey
/// is connected to and what the management API says of its cluster (`api`; its nodes empty
/// when unknown): `(the shared name, the node's own name when it differs)`.
///
/// A cluster never named has as its name the default of the node that answers, the node's
/// own name with the host's full name (`rabbit@mq-1.example.com` on node `rabbit@mq-1`): each
/// node gives another ([`ApiCluster`]). Then the cluster is its first node in order, which
/// every node lists alike. When the nodes are unknown (a user without the API's monitoring
/// tag), the node's own name is all there is: a rerun through another node will not find the
/// journal.
pub fn cluster_identity(cluster_name: &str, api: &ApiCluster) -> (String, Option<String>) {
    match api.nodes.iter().min() {
        Some(first) if api.unnamed() && api.is_named(cluster_name) => (
            format!("cluster:{first}"),
            Some(format!("cluster:{cluster_name}")),
        ),
        _ => (format!("cluster:{cluster_name}"), None),
    }
}

/// The digest of a dead letter as read from `q.dead`: SHA-256 over its properties (typed JSON)
/// and its body. The broker's bookkeeping ([`BROKER_BOOKKEEPING`]: `x-delivery-count`, and from
/// RabbitMQ 4.3 `x-acquired-count`, which a quorum queue changes at every redelivery, a look's
/// included) is left out, and a message without headers counts as one with an empty table (a
/// quorum queue gives a header table to a message that had none when it stamps its count), so
/// the same dead letter has the same digest however often it comes back.
///
/// For every dead letter with headers of its own and no `x-acquired-count`, this is the digest
/// journals before format 3 wrote (a property test holds them equal), so their records still
/// match; for one without headers, see [`Unfinished::take_dead_letter`].
pub fn digest(props: &Properties, body: &[u8]) -> String {
    hash(
        &TypedProperties {
            props,
            headers: Keys::Except(&BROKER_BOOKKEEPING),
            always_headers: true,
        },
        body,
    )
}

/// The digest that journals before format 3 gave a dead letter without headers (no header
/// table at all: not even an empty one).
fn digest_before_format_3(props: &Properties, body: &[u8]) -> String {
    hash(
        &TypedProperties {
            props,
            headers: Keys::Except(&[X_DELIVERY_COUNT]),
            always_headers: false,
        },
        body,
    )
}

/// SHA-256 over the typed JSON of `props` (written without building it) and `body`, in hex.
fn hash(props: &TypedProperties<'_>, body: &[u8]) -> String {
    // Room for a dead letter's usual properties at once, not grown by doubling from 128 bytes.
    let mut json = Vec::with_capacity(2048);
    let props = match serde_json::to_writer(&mut json, props) {
        Ok(()) => json,
        Err(_) => Vec::new(),
    };
    let mut h = Sha256::new();
    h.update((props.len() as u64).to_be_bytes());
    h.update(&props);
    h.update(body);
    super::value::hex(&h.finalize())
}

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

/// The line recording a confirmed copy of the dead letter `digest` in `to` (with its newline):
/// copy number `copy` of the run `run` (none for a record carried over from an earlier journal,
/// whose doubt is settled already).
pub fn copied_line(digest: &str, to: &str, run: &str, copy: Option<u64>) -> String {
    /// Written once per copy: a struct, not a JSON tree (the same text).
    #[derive(Serialize)]
    struct Copied<'a> {
        copied: &'a str,
        to: &'a str,
        run: &'a str,
        #[serde(skip_serializing_if = "Option::is_none")]
        copy: Option<u64>,
    }
    json_line(&Copied {
        copied: digest,
        to,
        run,
        copy,
    })
}

/// The line recording copy number `copy` of the run `run`, of the dead letter `digest`, to `to`,
/// as about to be published: in doubt until a `copied` or `undone` line settles it.
pub fn doubt_line(digest: &str, to: &str, run: &str, copy: u64) -> String {
    #[derive(Serialize)]
    struct Doubt<'a> {
        doubt: &'a str,
        to: &'a str,
        run: &'a str,
        copy: u64,
    }
    json_line(&Doubt {
        doubt: digest,
        to,
        run,
        copy,
    })
}

/// The line saying that copy number `copy` of the run `run` is certainly not in its target: it
/// was returned or refused, or a rerun did not find it there.
pub fn undone_line(run: &str, copy: u64) -> String {
    #[derive(Serialize)]
    struct Undone<'a> {
        undone: u64,
        run: &'a str,
    }
    json_line(&Undone { undone: copy, run })
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

/// Which start of the broker a run saw. A node that restarts may lose the acks it had
/// processed and not yet written, so a rerun must know whether a node started again since.
///
/// Each running node's OS process id tells it exactly; the connected node's start time (now
/// less its uptime, which the management API reports seconds late) only within a slack, and
/// RabbitMQ 4.3 is up and working in less than that slack (seen: a replay 7 s after the node's
/// start, its kill -9 and restart taken for the same start). The start time is kept for
/// journals written before the process ids were, and as the rule when no node is known to both.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Boot {
    /// When the connected node started, milliseconds since the epoch.
    pub started_ms: Option<u64>,
    /// Each running node's name and OS process id.
    pub pids: BTreeMap<String, String>,
}

impl Boot {
    /// Whether a node started again between `then` and this boot: a node both know has
    /// another process id, or another node of `then` runs no more; with no node known to both, the
    /// start times differ by more than `slack_ms`. Unknown: no (the cancelled records stay cancelled; a restart then costs
    /// duplicates, never a loss).
    pub fn restarted_since(&self, then: &Boot, slack_ms: u64) -> bool {
        // A node that ran then and runs no more may have taken acks it had processed with it:
        // a quorum queue's leader that dies before its log has them replicated (seen on a
        // 3.10.8 cluster: 10 archived dead letters whose acks node 1 had processed came back
        // through node 2). Only in a cluster both boots know a node of (with none in common,
        // the start times decide, below).
        let known_to_both = then.pids.keys().any(|node| self.pids.contains_key(node));
        if known_to_both && then.pids.keys().any(|node| !self.pids.contains_key(node)) {
            return true;
        }
        let mut common = then
            .pids
            .iter()
            .filter_map(|(node, pid)| self.pids.get(node).map(|now| now != pid))
            .peekable();
        if common.peek().is_some() {
            return common.any(|changed| changed);
        }
        match (then.started_ms, self.started_ms) {
            (Some(then), Some(now)) => now.abs_diff(then) > slack_ms,
            _ => false,
        }
    }
}

/// The line saying which start of the broker the run saw (see [`Boot`]); nothing when it knows
/// nothing of it.
pub fn boot_line(boot: &Boot) -> String {
    let mut j = serde_json::Map::new();
    if let Some(ms) = boot.started_ms {
        j.insert("broker_started_ms".into(), ms.into());
    }
    if !boot.pids.is_empty() {
        j.insert(
            "node_pids".into(),
            Json::Object(
                boot.pids
                    .iter()
                    .map(|(n, p)| (n.clone(), Json::from(p.as_str())))
                    .collect(),
            ),
        );
    }
    if j.is_empty() {
        return String::new();
    }
    let mut line = Json::Object(j).to_string();
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

/// A copy published without learning whether the broker took it: the dead letter's digest and
/// the copy's target.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Doubt {
    pub digest: String,
    pub to: String,
}

/// One line of a journal, or of a purge archive's marker, by the key that says what it is (the
/// one reading of the lines [`run_line`], [`boot_line`], [`doubt_line`], [`copied_line`],
/// [`undone_line`], [`settled_line`] and [`read_line`] write). A key whose value has another
/// type does not make the line that kind.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Line {
    /// A confirmed copy of the dead letter `digest` in `to` (its number, when the run knew it).
    Copied {
        digest: String,
        to: String,
        run: String,
        copy: Option<u64>,
    },
    /// A copy about to be published, in doubt until it is confirmed or undone.
    Doubt {
        digest: String,
        to: String,
        run: String,
        copy: Option<u64>,
    },
    /// A copy of the run that certainly is not in its target.
    Undone { run: String, copy: u64 },
    /// A record whose ack the broker processed.
    Settled { digest: String },
    /// The most dead letters the run had read.
    Read(u64),
    /// Which start of the broker the run saw.
    Boot(Boot),
    /// The start of a run: what it is about, and its id.
    Run { scope: Scope, run: String },
}

/// The fields a journal line may carry, each as JSON (its type is checked where it is read).
#[derive(Deserialize)]
struct Fields {
    copied: Option<Json>,
    doubt: Option<Json>,
    undone: Option<Json>,
    settled: Option<Json>,
    read: Option<Json>,
    format: Option<Json>,
    run: Option<Json>,
    to: Option<Json>,
    copy: Option<Json>,
    broker: Option<Json>,
    vhost: Option<Json>,
    queue: Option<Json>,
    broker_started_ms: Option<Json>,
    node_pids: Option<Json>,
}

impl Line {
    /// Reads one line; the error says why it is not a journal line.
    pub fn parse(text: &str) -> Result<Line, String> {
        let f: Fields =
            serde_json::from_str(text).map_err(|e| format!("is not a journal line ({e})"))?;
        let text_of = |v: &Option<Json>| v.as_ref().and_then(Json::as_str).map(str::to_owned);
        let number = |v: &Option<Json>| v.as_ref().and_then(Json::as_u64);
        let run = || text_of(&f.run).unwrap_or_default();
        let to = || text_of(&f.to).unwrap_or_default();
        if let Some(digest) = text_of(&f.copied) {
            return Ok(Line::Copied {
                digest,
                to: to(),
                run: run(),
                copy: number(&f.copy),
            });
        }
        if let Some(digest) = text_of(&f.doubt) {
            return Ok(Line::Doubt {
                digest,
                to: to(),
                run: run(),
                copy: number(&f.copy),
            });
        }
        if let Some(copy) = number(&f.undone) {
            return Ok(Line::Undone { run: run(), copy });
        }
        if let Some(digest) = text_of(&f.settled) {
            return Ok(Line::Settled { digest });
        }
        if let Some(n) = number(&f.read) {
            return Ok(Line::Read(n));
        }
        if f.broker_started_ms.is_some() || f.node_pids.as_ref().is_some_and(Json::is_object) {
            return Ok(Line::Boot(Boot {
                started_ms: number(&f.broker_started_ms),
                pids: f
                    .node_pids
                    .as_ref()
                    .and_then(Json::as_object)
                    .into_iter()
                    .flatten()
                    .filter_map(|(node, pid)| Some((node.clone(), pid.as_str()?.to_owned())))
                    .collect(),
            }));
        }
        if matches!(
            f.format.as_ref().and_then(Json::as_str),
            Some(JOURNAL_FORMAT | JOURNAL_FORMAT_2 | JOURNAL_FORMAT_1)
        ) {
            return Ok(Line::Run {
                scope: Scope {
                    broker: text_of(&f.broker).unwrap_or_default(),
                    vhost: text_of(&f.vhost).unwrap_or_default(),
                    queue: text_of(&f.queue).unwrap_or_default(),
                    legacy_brokers: Vec::new(),
                },
                run: run(),
            });
        }
        Err(format!("is not a journal line (format {JOURNAL_FORMAT})"))
    }
}

/// The slack within which two start times of the connected node are one start (see [`Boot`]).
pub const RESTART_SLACK_MS: u64 = 10_000;

/// What an unfinished journal holds: the runs it saw, and its records by digest.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Unfinished {
    pub runs: Vec<String>,
    records: HashMap<String, Vec<Copied>>,
    /// Copies in doubt, by run and copy number (see the module docs).
    doubts: BTreeMap<(String, u64), Doubt>,
    left: u64,
    /// Records cancelled by `settled` lines, kept in case the broker restarted since.
    settled: Vec<(String, Copied)>,
    /// Which start of the broker each run saw, per run line (default: not known to that run).
    pub boots: Vec<Boot>,
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
            let line = Line::parse(line).map_err(|e| format!("line {n} {e}"))?;
            let is_record = matches!(line, Line::Copied { .. } | Line::Doubt { .. });
            if is_record && out.runs.is_empty() {
                return Err(format!("line {n}: a record before any run line"));
            }
            match line {
                Line::Copied {
                    digest,
                    to,
                    run,
                    copy,
                } => {
                    if let Some(c) = copy {
                        out.doubts.remove(&(run.clone(), c));
                    }
                    out.add(&digest, Copied { to, run });
                }
                Line::Doubt {
                    digest,
                    to,
                    run,
                    copy,
                } => {
                    let Some(c) = copy else {
                        return Err(format!("line {n}: a copy in doubt without its number"));
                    };
                    out.doubts.insert((run, c), Doubt { digest, to });
                }
                Line::Undone { run, copy } => {
                    out.doubts.remove(&(run, copy));
                }
                Line::Settled { digest } => {
                    if let Some(c) = out.take(&digest) {
                        out.settled.push((digest, c));
                    }
                }
                Line::Read(n) => out.read = out.read.max(n),
                Line::Boot(boot) => {
                    if let Some(last) = out.boots.last_mut() {
                        *last = boot;
                    }
                }
                Line::Run { scope: theirs, run } => {
                    if !scope.owns(&theirs) {
                        return Err(format!(
                            "line {n}: it belongs to queue {:?} of vhost {:?} on {}, not queue \
                             {:?} of vhost {:?} on {}",
                            theirs.queue,
                            theirs.vhost,
                            theirs.broker,
                            scope.queue,
                            scope.vhost,
                            scope.broker
                        ));
                    }
                    out.runs.push(run);
                    out.boots.push(Boot::default());
                }
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

    /// Whether a broker node restarted since a run of this journal (see
    /// [`Boot::restarted_since`]).
    pub fn restarted_since(&self, now: &Boot, slack_ms: u64) -> bool {
        self.boots
            .iter()
            .any(|then| now.restarted_since(then, slack_ms))
    }

    /// The one restart rule, for a replay's journal and a purge's archive alike: when a node
    /// started again since a run that cancelled records (`now` against each run's [`Boot`],
    /// within [`RESTART_SLACK_MS`]), the acks it had processed may be lost with it, so the
    /// cancelled records count again. Returns whether they did.
    pub fn revive_after_restart(&mut self, now: &Boot) -> bool {
        let restarted = self.restarted_since(now, RESTART_SLACK_MS);
        if restarted {
            self.revive();
        }
        restarted
    }

    /// The record answering for a dead letter read from `q.dead` now, of digest `digest`, if an
    /// unfinished run copied it (used up, as by [`Unfinished::take`]). A dead letter without
    /// headers is also looked for under the digest journals before format 3 gave it; when it is
    /// found so, `digest` becomes that one, which its `settled` line must name.
    pub fn take_dead_letter(
        &mut self,
        digest: &mut String,
        props: &Properties,
        body: &[u8],
    ) -> Option<Copied> {
        if let Some(c) = self.take(digest) {
            return Some(c);
        }
        if props.headers.is_some() || self.left == 0 {
            return None;
        }
        let before = digest_before_format_3(props, body);
        let c = self.take(&before)?;
        *digest = before;
        Some(c)
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
    pub fn doubts(&self) -> usize {
        self.doubts.len()
    }

    /// Settles the doubt about copy `copy` of `run`: `found` in its target, it becomes a
    /// confirmed copy's record (its dead letter is acked without a new copy); not found, it is
    /// dropped (the dead letter is copied again). Returns the doubt, `None` if there was none.
    pub fn resolve(&mut self, run: &str, copy: u64, found: bool) -> Option<Doubt> {
        let doubt = self.doubts.remove(&(run.to_owned(), copy))?;
        if found {
            self.add(
                &doubt.digest,
                Copied {
                    to: doubt.to.clone(),
                    run: run.to_owned(),
                },
            );
        }
        Some(doubt)
    }

    /// Whether the `n`-th dead letter a rerun reads (1 is the head) may be one a record answers
    /// for. In a queue that `keeps_positions` (a classic queue puts every returned message back
    /// in its place), only among the first that the runs read (see [`read_line`]). A quorum
    /// queue does not: it returns a dead connection's deliveries to its head, but a multiple
    /// return of more than a few dozen messages (a look's, `dead ls` between the failed run and
    /// the rerun) puts them back in an order of its own (seen on 3.10 and 4.3), so a dead letter
    /// whose ack was lost may be anywhere; there only `redelivered` narrows the match.
    pub fn within_read(&self, n: u64, keeps_positions: bool) -> bool {
        !keeps_positions || n <= self.read
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
                out.push_str(&copied_line(d, &c.to, &c.run, None));
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
            legacy_brokers: Vec::new(),
        }
    }

    fn props(id: &str) -> Properties {
        Properties {
            message_id: Some(id.into()),
            ..Properties::default()
        }
    }

    #[test]
    fn a_digest_depends_on_body_and_properties_but_not_on_the_broker_bookkeeping() {
        let a = digest(&props("1"), b"body");
        assert_eq!(a.len(), 64);
        assert_eq!(a, digest(&props("1"), b"body"));
        assert_ne!(a, digest(&props("2"), b"body"));
        assert_ne!(a, digest(&props("1"), b"bodx"));
        let with = |headers: &[(&str, Value)]| {
            let mut p = props("1");
            p.headers = Some(
                headers
                    .iter()
                    .map(|(k, v)| ((*k).to_owned(), v.clone()))
                    .collect(),
            );
            digest(&p, b"body")
        };
        // No headers, an empty table, and a table of the broker's counts only (a quorum queue
        // gives a table to a message that had none) are the same dead letter.
        let bare = with(&[]);
        assert_eq!(a, bare);
        assert_eq!(with(&[(X_DELIVERY_COUNT, Value::I64(3))]), bare);
        assert_eq!(with(&[("x-acquired-count", Value::I64(7))]), bare);
        let own = with(&[("tenant", Value::U8(1))]);
        assert_ne!(own, bare);
        assert_eq!(
            with(&[
                ("tenant", Value::U8(1)),
                ("x-acquired-count", Value::I64(1)),
                (X_DELIVERY_COUNT, Value::I64(1)),
            ]),
            own
        );
        // Properties and body do not run into each other.
        let mut p = props("1");
        p.app_id = Some("x".into());
        assert_ne!(digest(&p, b""), digest(&props("1"), b"x"));
    }

    /// A journal written before format 3 recorded a dead letter without headers under another
    /// digest: it is still found (and named by that digest), and only for such a dead letter.
    #[test]
    fn a_dead_letter_without_headers_is_found_under_its_digest_before_format_3() {
        let bare = props("1");
        let old = digest_before_format_3(&bare, b"body");
        assert_ne!(old, digest(&bare, b"body"));
        let text = format!(
            "{}{}",
            run_line(&scope(), "r1", 10).replace(JOURNAL_FORMAT, JOURNAL_FORMAT_2),
            copied_line(&old, "orders", "r1", Some(1)),
        );
        let mut j = Unfinished::parse(&text, &scope()).unwrap();
        // A dead letter with headers of its own is never taken for it.
        let mut with_headers = props("1");
        with_headers.headers = Some(Table::new());
        let mut d = digest(&with_headers, b"body");
        assert_eq!(j.take_dead_letter(&mut d, &with_headers, b"body"), None);
        let mut d = digest(&bare, b"body");
        let found = j.take_dead_letter(&mut d, &bare, b"body");
        assert_eq!(found.map(|c| c.run), Some("r1".to_owned()));
        assert_eq!(d, old, "its settled line names the record it took");
        assert_eq!(j.left(), 0);
        // A record of this format is found first, under this format's digest.
        let new = digest(&bare, b"body");
        let text = format!(
            "{}{}",
            run_line(&scope(), "r2", 10),
            copied_line(&new, "orders", "r2", Some(1))
        );
        let mut j = Unfinished::parse(&text, &scope()).unwrap();
        let mut d = new.clone();
        assert!(j.take_dead_letter(&mut d, &bare, b"body").is_some());
        assert_eq!(d, new);
    }

    #[test]
    fn records_answer_for_one_dead_letter_each() {
        let text = format!(
            "{}{}{}{}",
            run_line(&scope(), "r1", 10),
            copied_line("aa", "orders", "r1", None),
            copied_line("aa", "orders", "r1", None),
            copied_line("bb", "other", "r1", None),
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
            copied_line("aa", "orders", "r1", None)
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
        let orphan = copied_line("aa", "orders", "r1", None);
        assert!(Unfinished::parse(&orphan, &scope()).is_err());
        assert_eq!(Unfinished::parse("", &scope()).unwrap().left(), 0);
    }

    #[test]
    fn settled_records_are_cancelled_unless_the_broker_restarted_since() {
        let text = format!(
            "{}{}{}{}{}{}",
            run_line(&scope(), "r1", 10),
            boot_line(&started(1_000_000)),
            copied_line("aa", "orders", "r1", None),
            copied_line("aa", "orders", "r1", None),
            settled_line("aa"),
            settled_line("zz"),
        );
        let mut j = Unfinished::parse(&text, &scope()).unwrap();
        assert_eq!(j.left(), 1, "one of the twins' records is cancelled");
        assert!(!j.restarted_since(&started(1_000_500), 10_000));
        // The slack itself is not a restart; a millisecond more is.
        assert!(!j.restarted_since(&started(1_010_000), 10_000));
        assert!(j.restarted_since(&started(1_010_001), 10_000));
        assert!(!j.restarted_since(&started(990_000), 10_000));
        assert!(j.restarted_since(&started(989_999), 10_000));
        assert!(!j.restarted_since(&Boot::default(), 10_000));
        assert!(j.restarted_since(&started(2_000_000), 10_000));
        assert_eq!(j.revive(), 1);
        assert_eq!(j.left(), 2);
        let unknown = Unfinished::parse(&run_line(&scope(), "r1", 10), &scope()).unwrap();
        assert!(
            !unknown.restarted_since(&started(5), 1),
            "a run that did not know"
        );
    }

    fn started(ms: u64) -> Boot {
        Boot {
            started_ms: Some(ms),
            pids: BTreeMap::new(),
        }
    }

    fn with_pids(ms: u64, pids: &[(&str, &str)]) -> Boot {
        Boot {
            started_ms: Some(ms),
            pids: pids
                .iter()
                .map(|(n, p)| (n.to_string(), p.to_string()))
                .collect(),
        }
    }

    #[test]
    fn a_restart_is_a_node_with_another_process_id_whatever_the_start_times() {
        let then = with_pids(1_000_000, &[("rabbit@a", "100"), ("rabbit@b", "200")]);
        // Within the slack of the start time, but another process: a restart (a 4.3 node is
        // up and replaying in less than the slack).
        assert!(
            with_pids(1_003_000, &[("rabbit@a", "101"), ("rabbit@b", "200")])
                .restarted_since(&then, 10_000)
        );
        // The same processes, whatever the start times say (the API's uptime lags).
        assert!(
            !with_pids(1_050_000, &[("rabbit@a", "100"), ("rabbit@b", "200")])
                .restarted_since(&then, 10_000)
        );
        // A node down now may have lost the acks it had processed, as a restarted one.
        assert!(with_pids(1_050_000, &[("rabbit@b", "200")]).restarted_since(&then, 10_000));
        assert!(with_pids(1_000_000, &[("rabbit@b", "201")]).restarted_since(&then, 10_000));
        // No node known to both: the start times decide, as for a journal without pids.
        assert!(with_pids(1_050_000, &[("rabbit@c", "1")]).restarted_since(&then, 10_000));
        assert!(!with_pids(1_005_000, &[("rabbit@c", "1")]).restarted_since(&then, 10_000));
        assert!(started(1_050_000).restarted_since(&then, 10_000));
        // Read back from its line as it was written.
        let text = format!("{}{}", run_line(&scope(), "r1", 10), boot_line(&then));
        let j = Unfinished::parse(&text, &scope()).unwrap();
        assert_eq!(j.boots, vec![then.clone()]);
        assert!(j.restarted_since(&with_pids(1_000_000, &[("rabbit@a", "7")]), 10_000));
        assert_eq!(boot_line(&Boot::default()), "");
    }

    #[test]
    fn records_answer_only_within_what_the_runs_read() {
        let text = format!(
            "{}{}{}{}{}",
            run_line(&scope(), "r1", 10),
            copied_line("aa", "orders", "r1", None),
            read_line(40),
            read_line(120),
            run_line(&scope(), "r2", 20),
        );
        let j = Unfinished::parse(&text, &scope()).unwrap();
        assert!(j.within_read(120, true));
        assert!(!j.within_read(121, true));
        assert!(!Unfinished::default().within_read(1, true));
        // A quorum queue keeps no positions: anywhere.
        assert!(j.within_read(121, false));
        assert!(Unfinished::default().within_read(1, false));
    }

    #[test]
    fn a_copy_is_in_doubt_until_confirmed_undone_or_resolved() {
        let text = format!(
            "{}{}{}{}{}{}{}{}",
            run_line(&scope(), "r1", 10),
            doubt_line("aa", "orders", "r1", 1),
            doubt_line("bb", "orders", "r1", 2),
            doubt_line("cc", "other", "r1", 3),
            doubt_line("dd", "orders", "r1", 4),
            copied_line("aa", "orders", "r1", Some(1)),
            undone_line("r1", 2),
            // Another run's copy 4 settles nothing of r1's.
            copied_line("ee", "orders", "r0", Some(4)),
        );
        let mut j = Unfinished::parse(&text, &scope()).unwrap();
        assert_eq!(j.doubts(), 2, "copies 3 and 4 are still in doubt");
        assert_eq!(j.left(), 2, "the confirmed copies aa and ee");
        let by_target = j.doubts_by_target();
        assert_eq!(
            by_target,
            BTreeMap::from([
                ("orders".to_owned(), vec![("r1".to_owned(), 4)]),
                ("other".to_owned(), vec![("r1".to_owned(), 3)]),
            ])
        );
        // Copy 4 found in its target: a record of dd, answering for one dead letter.
        let found = j.resolve("r1", 4, true).unwrap();
        assert_eq!(found.digest, "dd");
        assert_eq!(found.to, "orders");
        assert_eq!(j.left(), 3);
        assert_eq!(
            j.take("dd"),
            Some(Copied {
                to: "orders".into(),
                run: "r1".into()
            })
        );
        // Copy 3 not found: no record, and no doubt any more.
        assert_eq!(
            j.resolve("r1", 3, false).map(|d| d.digest),
            Some("cc".into())
        );
        assert_eq!(j.take("cc"), None);
        assert_eq!(j.doubts(), 0);
        assert_eq!(j.resolve("r1", 3, true), None, "settled once");
        assert_eq!(j.left(), 2);
    }

    #[test]
    fn what_a_rerun_writes_after_resolving_reads_back_the_same() {
        let failed = format!(
            "{}{}{}",
            run_line(&scope(), "r1", 10),
            doubt_line("aa", "orders", "r1", 7),
            doubt_line("bb", "orders", "r1", 8),
        );
        // The rerun r2 found copy 7 and not copy 8, wrote so, then acked aa's dead letter.
        let rerun = format!(
            "{failed}{}{}{}{}",
            run_line(&scope(), "r2", 20),
            copied_line("aa", "orders", "r1", Some(7)),
            undone_line("r1", 8),
            settled_line("aa"),
        );
        let j = Unfinished::parse(&rerun, &scope()).unwrap();
        assert_eq!(j.doubts(), 0, "nothing to look for again");
        assert_eq!(j.left(), 0, "and aa's record cancelled by its ack");
        // A doubt line must carry its copy's number.
        let bad = format!(
            "{}{{\"doubt\":\"aa\",\"to\":\"orders\",\"run\":\"r1\"}}\n",
            run_line(&scope(), "r1", 10)
        );
        assert!(
            Unfinished::parse(&bad, &scope())
                .unwrap_err()
                .contains("line 2")
        );
        let orphan = doubt_line("aa", "orders", "r1", 1);
        assert!(Unfinished::parse(&orphan, &scope()).is_err());
    }

    #[test]
    fn a_journal_of_the_first_format_is_read_the_same() {
        let old = run_line(&scope(), "r1", 10).replace(JOURNAL_FORMAT, JOURNAL_FORMAT_1);
        assert!(old.contains("queuey-replay-journal/1"));
        let text = format!("{old}{}", copied_line("aa", "orders", "r1", None));
        assert_eq!(Unfinished::parse(&text, &scope()).unwrap().left(), 1);
        let other = run_line(&scope(), "r1", 10).replace(JOURNAL_FORMAT, "queuey-replay-journal/9");
        assert!(Unfinished::parse(&other, &scope()).is_err());
    }

    #[test]
    fn records_added_from_an_archive_answer_like_journal_records() {
        let mut j = Unfinished::default();
        j.add_copied("aa");
        j.add_copied("aa");
        assert_eq!(j.left(), 2);
        assert_eq!(
            j.take("aa"),
            Some(Copied {
                to: String::new(),
                run: String::new()
            })
        );
        assert!(j.take("aa").is_some(), "one record per archived twin");
        assert_eq!(j.take("aa"), None);
        assert_eq!(j.left(), 0);
    }

    #[test]
    fn a_record_settled_in_memory_is_cancelled_until_revived() {
        let text = format!(
            "{}{}{}",
            run_line(&scope(), "r1", 10),
            copied_line("aa", "orders", "r1", None),
            copied_line("bb", "orders", "r1", None),
        );
        let mut j = Unfinished::parse(&text, &scope()).unwrap();
        j.settle("aa");
        j.settle("zz");
        assert_eq!(j.left(), 1, "aa cancelled, zz had no record");
        assert_eq!(j.take("aa"), None);
        assert_eq!(j.revive(), 1);
        assert!(j.take("aa").is_some(), "back after a restart");
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
            copied_line("aa", "orders", "r1", None),
            run_line(&scope(), "r2", 20),
            copied_line("bb", "orders", "r2", None),
        );
        let mut j = Unfinished::parse(&text, &scope()).unwrap();
        assert_eq!(j.runs.len(), 2);
        j.take("aa");
        let carried = format!("{}{}", run_line(&scope(), "r3", 30), j.remaining_lines());
        let again = Unfinished::parse(&carried, &scope()).unwrap();
        assert_eq!(again.left(), 1);
        assert_eq!(again.clone().take("bb").map(|c| c.run), Some("r2".into()));
    }

    #[test]
    fn a_cluster_never_named_is_its_first_node_for_every_node() {
        let nodes: Vec<String> = ["qtest2@localhost", "qtest1@localhost", "qtest3@localhost"]
            .iter()
            .map(|n| n.to_string())
            .collect();
        let api = |node, name| ApiCluster {
            node: Some(node),
            name: Some(name),
            nodes: &nodes,
        };
        // Each node's default cluster name is its own, with the host's full name; the API on
        // that node or on another.
        for (name, node, api_node, api_name) in [
            (
                "qtest1@vm",
                "qtest1@localhost",
                "qtest1@localhost",
                "qtest1@vm",
            ),
            (
                "qtest3@vm.example",
                "qtest3@localhost",
                "qtest3@localhost",
                "qtest3@vm.example",
            ),
            (
                "qtest1@vm",
                "qtest1@localhost",
                "qtest2@localhost",
                "qtest2@vm",
            ),
        ] {
            assert_eq!(
                cluster_identity(name, &api(api_node, api_name)),
                (
                    "cluster:qtest1@localhost".to_owned(),
                    Some(format!("cluster:{name}"))
                ),
                "{node}"
            );
        }
        // A name of its own is the cluster's, whatever the node.
        assert_eq!(
            cluster_identity("prod-eu", &api("qtest2@localhost", "prod-eu")),
            ("cluster:prod-eu".to_owned(), None)
        );
        // The nodes unknown (no monitoring tag): the node's own name is all there is.
        let unknown = ApiCluster {
            node: Some("qtest2@localhost"),
            name: Some("qtest2@vm"),
            nodes: &[],
        };
        assert_eq!(
            cluster_identity("qtest2@vm", &unknown),
            ("cluster:qtest2@vm".to_owned(), None)
        );
        let no_node = ApiCluster {
            node: None,
            ..api("", "qtest2@vm")
        };
        assert_eq!(
            cluster_identity("qtest2@vm", &no_node),
            ("cluster:qtest2@vm".to_owned(), None)
        );
    }
}
