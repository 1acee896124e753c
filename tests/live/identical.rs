//! Identical dead letters are distinct messages. A `q.dead` in the library's format where every
//! dead letter is there twice, byte for byte (the same envelope, headers and properties: a
//! producer that retried its publish, a job that failed twice alike), the two copies of each at
//! distances from 1 to 1 500 apart; `dead replay` (with and without a filter, `--to`,
//! `--after`) and `dead purge --archive` killed with SIGKILL mid-run, then run again until they
//! finish. Counted per content (the job id the twins share), on classic and quorum `q.dead`:
//! - after each kill, every content is still twice in `q.dead`, the targets (or the archive);
//! - after the reruns, every content is in its target (or the archive) at least twice, and the
//!   copies beyond two are no more than the reruns said may be duplicated.
//!
//! Each version's broker behaves differently on a kill (3.10 and 4.0-4.2 count every return of
//! a quorum message, 4.3 only some); the rule tested is the same on each: nothing lost, every
//! duplicate said (`dead::ledger`).

use std::collections::BTreeMap;
use std::path::Path;
use std::process::Stdio;
use std::time::Duration;

use base64::Engine as _;
use lapin::BasicProperties;
use lapin::types::{AMQPValue, FieldTable};

use crate::common::fixtures::publish_all;
use crate::common::{Broker, Queuey, eventually, json, kill_mid_run, long_str, stderr, table};

/// Contents; each is in `q.dead` twice.
const CONTENTS: usize = 2000;

/// How far behind its first copy each content's second copy is, in turn.
const GAPS: [usize; 6] = [1, 9, 120, 700, 1500, 37];

/// A content's job id (also its message id, as the library writes it).
fn job_id(k: usize) -> String {
    format!("00000000-0000-4000-8000-{k:012}")
}

/// Half the contents died of a timeout, half of a fatal error (a filter selects either).
fn reason(k: usize) -> &'static str {
    if k.is_multiple_of(2) {
        "max attempts (3) exhausted after attempt 3: timeout"
    } else {
        "fatal error: bad card"
    }
}

/// Whether content `k`'s dead letters carry a message id: a third do not (a producer that
/// sets none), so that twins are told apart by nothing at all; the library sets the job id.
fn has_message_id(k: usize) -> bool {
    !k.is_multiple_of(3)
}

/// The content of job id `id` (see [`job_id`]).
fn content_of(id: &str) -> Option<usize> {
    id.rsplit('-').next()?.parse().ok()
}

/// The dead letter of content `k` as a queuey 1.x worker writes it to `q.dead` (without a
/// message id for a third of the contents).
fn dead_letter(q: &str, k: usize) -> (BasicProperties, Vec<u8>) {
    let id = job_id(k);
    let body = format!(
        "{{\"job_id\":\"{id}\",\"job_type\":\"identical::Charge\",\"queue\":\"{q}\",\
         \"attempt\":3,\"enqueued_at_ms\":1765000000000,\"deferrals\":0,\"priority\":0,\
         \"payload\":{{\"n\":{k}}}}}"
    );
    let mut props = BasicProperties::default();
    if has_message_id(k) {
        props = props.with_message_id(id.as_str().into());
    }
    let props = props
        .with_type("identical::Charge".into())
        .with_delivery_mode(2)
        .with_priority(0)
        .with_content_type("application/json".into())
        .with_headers(table(vec![
            ("x-attempt", AMQPValue::LongUInt(3)),
            ("x-deferrals", AMQPValue::LongUInt(0)),
            ("x-death-reason", long_str(reason(k))),
            ("x-original-queue", long_str(q)),
            ("x-attempts", AMQPValue::LongUInt(3)),
        ]));
    (props, body.into_bytes())
}

/// The order of the dead letters: each content once, its twin `GAPS[k]` places behind.
fn twin_order() -> Vec<usize> {
    let mut order = Vec::with_capacity(2 * CONTENTS);
    let mut due: BTreeMap<usize, Vec<usize>> = BTreeMap::new();
    for k in 0..CONTENTS {
        order.push(k);
        due.entry(order.len() + GAPS[k % GAPS.len()])
            .or_default()
            .push(k);
        while let Some(ks) = due.remove(&order.len()) {
            order.extend(ks);
        }
    }
    for (_, ks) in due {
        order.extend(ks);
    }
    order
}

/// Declares `q` and `q.dead` (`quorum` or classic) and fills `q.dead` with the twins.
fn fill(broker: &Broker, label: &str, quorum: bool) -> (String, String) {
    let q = broker.queue_name(label);
    let dead = format!("{q}.dead");
    broker.track_queue(&dead);
    let args = if quorum {
        table(vec![("x-queue-type", long_str("quorum"))])
    } else {
        FieldTable::default()
    };
    broker.declare(&dead, args);
    broker.declare(&q, FieldTable::default());
    let order = twin_order();
    assert_eq!(order.len(), 2 * CONTENTS);
    publish_all(broker, &dead, order.iter().map(|&k| dead_letter(&q, k)));
    broker.wait_for_count(&dead, (2 * CONTENTS) as u32);
    (q, dead)
}

/// How many of each job id `queues` hold together (a body that names none counts as ""): each
/// read whole by a consumer whose prefetch takes them all, then returned with one nack (a
/// `basic.get` per message takes minutes on a busy machine).
fn contents(broker: &Broker, queues: &[&str]) -> BTreeMap<String, usize> {
    use futures_util::StreamExt;
    let mut out = BTreeMap::new();
    for q in queues {
        let n = broker.count(q) as usize;
        if n == 0 {
            continue;
        }
        let ch = broker.channel();
        broker.rt.block_on(async {
            // A quorum queue delivers only within a prefetch: one that takes them all.
            let prefetch = u16::try_from(n).unwrap_or(u16::MAX);
            ch.basic_qos(prefetch, lapin::options::BasicQosOptions::default())
                .await
                .expect("qos");
            let mut consumer = ch
                .basic_consume(
                    (*q).into(),
                    "queuey-test-count".into(),
                    lapin::options::BasicConsumeOptions::default(),
                    FieldTable::default(),
                )
                .await
                .unwrap_or_else(|e| panic!("consuming {q}: {e}"));
            let mut last = 0;
            for _ in 0..n {
                let d = tokio::time::timeout(Duration::from_secs(30), consumer.next())
                    .await
                    .unwrap_or_else(|_| panic!("{q}: fewer than {n} messages"))
                    .expect("a delivery")
                    .expect("a delivery");
                last = d.delivery_tag;
                let id = serde_json::from_slice::<serde_json::Value>(&d.data)
                    .ok()
                    .and_then(|j| j["job_id"].as_str().map(str::to_owned))
                    .unwrap_or_default();
                *out.entry(id).or_default() += 1;
            }
            ch.basic_nack(
                last,
                lapin::options::BasicNackOptions {
                    multiple: true,
                    requeue: true,
                },
            )
            .await
            .expect("nack");
            let _ = ch.close(200, "counted".into()).await;
        });
        broker.wait_for_count(q, n as u32);
    }
    out
}

/// How many of each job id an archive holds (a last line cut short by a kill left out).
fn archived(path: &Path) -> BTreeMap<String, usize> {
    let text = std::fs::read_to_string(path).unwrap_or_default();
    let mut out = BTreeMap::new();
    for line in text.lines() {
        let Ok(record) = serde_json::from_str::<serde_json::Value>(line) else {
            continue;
        };
        let body = record["body_base64"]
            .as_str()
            .and_then(|b| base64::engine::general_purpose::STANDARD.decode(b).ok())
            .unwrap_or_default();
        let id = serde_json::from_slice::<serde_json::Value>(&body)
            .ok()
            .and_then(|j| j["job_id"].as_str().map(str::to_owned));
        if let Some(id) = id {
            *out.entry(id).or_default() += 1;
        }
    }
    out
}

/// Waits until `total` stops changing and reaches at least `at_least` (the broker returns
/// what a killed connection held).
fn settled(what: &str, at_least: usize, mut total: impl FnMut() -> usize) -> usize {
    let total = crate::common::settled(
        what,
        Duration::from_secs(60),
        Duration::from_millis(300),
        || (u32::try_from(total()).expect("a count"), 0),
        |total| total as usize >= at_least,
    );
    total as usize
}

/// Every content of `selected` at least twice in `have`; returns the copies beyond two.
fn none_lost(have: &BTreeMap<String, usize>, selected: impl Fn(usize) -> bool) -> usize {
    let mut extra = 0;
    for k in (0..CONTENTS).filter(|&k| selected(k)) {
        let n = have.get(&job_id(k)).copied().unwrap_or(0);
        assert!(
            n >= 2,
            "content {k} ({}) is there {n} times: lost",
            job_id(k)
        );
        extra += n - 2;
    }
    extra
}

/// One scenario of `dead replay`: `args` on top of `dead replay q -o json`; the copies land in
/// `target` (after `--after`'s wait); `selected` says which contents the filter moves.
struct Replay<'a> {
    label: &'a str,
    quorum: bool,
    args: &'a [&'a str],
    /// Where the copies end: `None` for `q`.
    to: Option<&'a str>,
    selected: fn(usize) -> bool,
    /// Kills before the rerun that finishes (each after more copies arrived).
    kills: usize,
    /// The rerun that finishes looks in the target for the copies in doubt
    /// (`--look-in-targets`: the target has no consumer here).
    look: bool,
}

impl Replay<'_> {
    fn run(&self) {
        let broker = Broker::connect();
        let (q, dead) = fill(&broker, self.label, self.quorum);
        let target = match self.to {
            Some(label) => {
                let t = broker.queue_name(label);
                broker.declare(&t, FieldTable::default());
                t
            }
            None => q.clone(),
        };
        let dir = tempfile::tempdir().unwrap();
        let moving = (0..CONTENTS).filter(|&k| (self.selected)(k)).count() * 2;
        let budget = budget_flag(&broker, self.quorum);
        let command = |extra: &[&str]| {
            let mut args: Vec<String> = ["dead", "replay", q.as_str(), "-o", "json", "-q"]
                .iter()
                .map(|s| s.to_string())
                .collect();
            for a in self.args.iter().chain(extra).chain(budget.iter()) {
                args.push(a.replace("{target}", &target));
            }
            args
        };
        let in_place = |broker: &Broker| contents(broker, &[&target, &dead]);
        // With --after the copies wait in the hold queue of the delay (1 s) before the target.
        let hold = format!("{q}.deferred.1000");
        let waiting = |broker: &Broker| broker.message_count(&hold).unwrap_or(0) as usize;
        // What the replay has published so far: in the target, or still waiting in the hold
        // queue (with --after a copy reaches the target only a delay after it was published).
        let published = |broker: &Broker| broker.count(&target) as usize + waiting(broker);
        // Paced, so that a kill lands mid-run on a fast machine (the whole run takes a second
        // or more); the read runs ahead of the publishing, as at full speed, so the killed run
        // holds many dead letters.
        let rate = moving.min(3000).to_string();
        let mut said = 0u64;
        for kill in 0..self.kills {
            let before = published(&broker);
            let log = dir.path().join(format!("stderr-{kill}.txt"));
            let mut child = Queuey::in_dir(dir.path())
                .process()
                .args(command(&["--rate", &rate]))
                .stdout(std::fs::File::create(&log).unwrap())
                .spawn()
                .unwrap();
            let step = moving / (2 * self.kills + 2);
            eventually("the replay to copy some", Duration::from_secs(60), || {
                if let Some(status) = child.try_wait().unwrap() {
                    panic!(
                        "the replay ended before the kill ({status}): {}",
                        std::fs::read_to_string(&log).unwrap_or_default()
                    );
                }
                (published(&broker) >= before + step).then_some(())
            });
            kill_mid_run(&mut child, "the replay");
            // Nothing lost at the kill: every content of q.dead is still there or copied.
            settled("q.dead and the target to settle", 2 * CONTENTS, || {
                let total = broker.count(&dead) as usize + broker.count(&target) as usize;
                // Not settled while copies still wait to reach the target.
                if waiting(&broker) > 0 { 0 } else { total }
            });
            none_lost(&in_place(&broker), |_| true);
        }
        let look: &[&str] = if self.look {
            &["--look-in-targets"]
        } else {
            &[]
        };
        let out = Queuey::in_dir(dir.path()).args(command(look)).run();
        let err = stderr(&out);
        assert!(
            matches!(out.status.code(), Some(0)),
            "the last rerun: {err}{}",
            out.stdout
        );
        let summary = json(&out);
        said += summary["may_be_duplicates"].as_u64().unwrap_or(0);
        settled("the copies to arrive", moving, || {
            if waiting(&broker) > 0 {
                0
            } else {
                broker.count(&target) as usize
            }
        });
        let have = in_place(&broker);
        none_lost(&have, |_| true);
        // What the filter left is still in q.dead, each twice, nothing of it copied.
        let kept = contents(&broker, &[&dead]);
        for k in (0..CONTENTS).filter(|&k| !(self.selected)(k)) {
            assert_eq!(kept.get(&job_id(k)), Some(&2), "content {k} stays twice");
        }
        let moved = contents(&broker, &[&target]);
        let extra = none_lost(&moved, self.selected);
        eprintln!(
            "{}: {} kill(s), {extra} duplicated, {said} said possible by the last rerun (already \
             copied {}): {summary}",
            self.label, self.kills, summary["already_copied"]
        );
        if self.kills == 1 {
            assert!(
                extra as u64 <= said,
                "{extra} copies beyond two, the rerun said {said}: {err}"
            );
            // And named each: every content there more than twice among the ids it listed.
            let named: Vec<&str> = summary["may_be_duplicated_ids"]
                .as_array()
                .map(|a| a.iter().filter_map(|v| v.as_str()).collect())
                .unwrap_or_default();
            if (said as usize) <= named.len() {
                // A content without a message id is named by its digest (`sha256:…`).
                let mut unnamed_extra = 0;
                for (id, n) in &moved {
                    if !content_of(id).is_some_and(has_message_id) {
                        unnamed_extra += n.saturating_sub(2);
                        continue;
                    }
                    assert!(
                        *n <= 2 || named.contains(&id.as_str()),
                        "{id} is there {n} times, not named among the possible duplicates"
                    );
                }
                let by_digest = named.iter().filter(|n| n.starts_with("sha256:")).count();
                assert!(
                    unnamed_extra <= by_digest,
                    "{unnamed_extra} extra copies without a message id, {by_digest} named"
                );
            }
        }
    }
}

/// The consent a quorum `q.dead` needs on RabbitMQ 4.0 to 4.2 (`replay::budget_on_4_0`).
fn budget_flag(broker: &Broker, quorum: bool) -> Option<&'static str> {
    crate::common::fixtures::budget_on_4_0(broker).filter(|_| quorum)
}

fn all(_: usize) -> bool {
    true
}

fn timeouts(k: usize) -> bool {
    k.is_multiple_of(2)
}

#[test]
fn a_killed_replay_of_a_classic_dead_queue_of_twins_loses_none() {
    Replay {
        label: "twins-classic",
        quorum: false,
        args: &[],
        to: None,
        selected: all,
        kills: 1,
        look: false,
    }
    .run();
}

#[test]
fn a_killed_replay_of_a_quorum_dead_queue_of_twins_loses_none() {
    Replay {
        label: "twins-quorum",
        quorum: true,
        args: &[],
        to: None,
        selected: all,
        kills: 1,
        look: false,
    }
    .run();
}

/// The same, the rerun given `--look-in-targets`: the copies in doubt found in the target are
/// not made again, and the duplicates left are the acks in doubt at the kill.
#[test]
fn a_killed_replay_of_quorum_twins_rerun_with_a_look_in_the_target_loses_none() {
    Replay {
        label: "twins-quorum-look",
        quorum: true,
        args: &[],
        to: None,
        selected: all,
        kills: 1,
        look: true,
    }
    .run();
}

#[test]
fn a_filtered_replay_of_quorum_twins_killed_twice_loses_none() {
    Replay {
        label: "twins-quorum-filter",
        quorum: true,
        args: &["--cause", "exhausted"],
        to: None,
        selected: timeouts,
        kills: 2,
        look: false,
    }
    .run();
}

#[test]
fn a_killed_replay_of_twins_to_another_queue_loses_none() {
    Replay {
        label: "twins-to",
        quorum: true,
        args: &["--to", "{target}"],
        to: Some("twins-to-other"),
        selected: all,
        kills: 1,
        look: false,
    }
    .run();
}

#[test]
fn a_killed_replay_of_twins_after_a_delay_loses_none() {
    Replay {
        label: "twins-after",
        quorum: false,
        args: &["--after", "1s", "--cause", "fatal"],
        to: None,
        selected: |k| k % 2 == 1,
        kills: 1,
        look: false,
    }
    .run();
}

/// `dead purge --archive` of the twins, killed twice mid-run, then run to its end: every
/// content twice in the archive at least (never only in a killed connection's hands), the
/// extra records no more than the reruns said.
fn purge_killed(label: &str, quorum: bool) {
    let broker = Broker::connect();
    let (q, dead) = fill(&broker, label, quorum);
    let dir = tempfile::tempdir().unwrap();
    let archive = dir.path().join("purged.jsonl");
    let budget = budget_flag(&broker, quorum);
    let command = || {
        let mut c = Queuey::in_dir(dir.path()).process();
        c.args(["dead", "purge", &q, "--yes", "-o", "json", "-q"])
            .args(["--archive", archive.to_str().unwrap()])
            .args(budget);
        c
    };
    for kill in 0..2 {
        let before: usize = archived(&archive).values().sum();
        let mut child = command()
            // A small window: an fsync every 20 records, so the kill lands mid-run.
            .args(["--window", "20"])
            .stdout(Stdio::null())
            .stderr(Stdio::null())
            .spawn()
            .unwrap();
        eventually("the archive to grow", Duration::from_secs(60), || {
            let now: usize = archived(&archive).values().sum();
            (now >= before + 600).then_some(())
        });
        kill_mid_run(&mut child, &format!("purge {kill}"));
        settled("q.dead to take back what the purge held", 0, || {
            broker.count(&dead) as usize
        });
        let mut both = contents(&broker, &[&dead]);
        for (id, n) in archived(&archive) {
            *both.entry(id).or_default() += n;
        }
        none_lost(&both, |_| true);
    }
    let out = command().output().unwrap();
    let err = stderr(&out);
    assert_eq!(out.status.code(), Some(0), "{err}");
    let summary = json(&out);
    assert_eq!(broker.count(&dead), 0, "{summary}");
    let extra = none_lost(&archived(&archive), |_| true);
    eprintln!("{label}: 2 kills, {extra} archived twice: {summary}");
    // Dead letters carry customers' data: the archive is its owner's alone.
    use std::os::unix::fs::PermissionsExt;
    let mode = std::fs::metadata(&archive).unwrap().permissions().mode();
    assert_eq!(mode & 0o777, 0o600, "the archive's mode: {mode:o}");
}

#[test]
fn a_killed_archiving_purge_of_classic_twins_loses_none() {
    purge_killed("twins-purge", false);
}

#[test]
fn a_killed_archiving_purge_of_quorum_twins_loses_none() {
    purge_killed("twins-purge-quorum", true);
}

/// `dead edit` of one of two identical dead letters, killed after each of its steps (the dead
/// letter found, archived, its edited copy published) and run again: it acts on the one dead
/// letter at its position, never on a content, so after every kill both twins are still in
/// `q.dead` byte for byte, and the edit that finishes removes exactly one of them. A kill after
/// the publish leaves its edited copy in `q` (the archive and the copy say so); the original
/// is never the price.
#[test]
fn a_killed_edit_of_one_of_two_classic_twins_leaves_both_until_one_edit_finishes() {
    killed_edit_of_twins(false);
}

#[test]
fn a_killed_edit_of_one_of_two_quorum_twins_leaves_both_until_one_edit_finishes() {
    killed_edit_of_twins(true);
}

fn killed_edit_of_twins(quorum: bool) {
    let broker = Broker::connect();
    let q = broker.queue_name("twins-edit");
    let dead = format!("{q}.dead");
    broker.declare(&q, FieldTable::default());
    let args = match quorum {
        true => table(vec![("x-queue-type", long_str("quorum"))]),
        false => FieldTable::default(),
    };
    broker.declare(&dead, args);
    let budget = budget_flag(&broker, quorum);
    let id = job_id(7);
    let body = serde_json::json!({
        "job_id": id, "job_type": "app.Ship", "queue": q, "attempt": 3,
        "enqueued_at_ms": 1_700_000_000_000u64, "deferrals": 0, "priority": 0,
        "payload": {"address": "Nowhere 0"}
    })
    .to_string();
    for _ in 0..2 {
        broker.publish_props(
            &dead,
            body.as_bytes(),
            // No message id: the twins are told apart by nothing.
            BasicProperties::default().with_delivery_mode(2),
        );
    }
    broker.wait_for_count(&dead, 2);
    let edit = |dir: &Path| {
        let mut cmd = Queuey::in_dir(dir).process();
        cmd.args([
            "dead",
            "edit",
            &q,
            "1",
            "--set",
            "/payload/address=1 Main St",
            "--yes",
        ]);
        cmd.args(budget);
        cmd
    };
    let mut copies_left = 0;
    for step in ["found", "archived", "published"] {
        let dir = tempfile::tempdir().expect("a directory");
        let mut child = edit(dir.path())
            .env("QUEUEY_TEST_EDIT_PAUSE", step)
            .stdout(Stdio::null())
            .stderr(Stdio::piped())
            .spawn()
            .expect("queuey starts");
        let reader = std::io::BufReader::new(child.stderr.take().expect("stderr"));
        let paused = std::io::BufRead::lines(reader)
            .map_while(Result::ok)
            .any(|line| line.contains(&format!("paused after {step}")));
        assert!(paused, "queuey paused after {step}");
        kill_mid_run(&mut child, &format!("dead edit paused after {step}"));
        broker.wait_for_count(&dead, 2);
        assert_eq!(
            broker.bodies(&dead),
            vec![body.clone(), body.clone()],
            "both twins untouched after a kill after {step}"
        );
        broker.wait_for_count(&dead, 2);
        copies_left += usize::from(step == "published");
        assert_eq!(broker.count(&q), copies_left as u32, "copies after {step}");
    }
    let dir = tempfile::tempdir().expect("a directory");
    let out = edit(dir.path()).output().expect("queuey runs");
    assert!(out.status.success(), "{}", stderr(&out));
    assert_eq!(broker.bodies(&dead), vec![body.clone()], "one twin left");
    let edited = broker.bodies(&q);
    assert_eq!(edited.len(), copies_left + 1);
    for copy in edited {
        let copy: serde_json::Value = serde_json::from_str(&copy).expect("JSON");
        assert_eq!(copy["payload"]["address"], "1 Main St");
    }
}
