//! `dead replay` and `dead purge` against the real broker: nothing is ever lost, whatever
//! happens to queuey or its connection.

mod common;

use std::collections::{BTreeMap, BTreeSet};
use std::io::Write;
use std::process::Stdio;
use std::time::{Duration, Instant};

use common::{
    Broker, eventually, json, long_str, queuey, queuey_in, queuey_process, stderr, stdout, table,
};
use lapin::BasicProperties;
use lapin::types::{AMQPValue, FieldTable};

fn dead_letter(id: &str, original: &str, reason: &str) -> BasicProperties {
    BasicProperties::default()
        .with_message_id(id.into())
        .with_delivery_mode(2)
        .with_priority(2)
        .with_content_type("application/json".into())
        .with_headers(table(vec![
            ("x-original-queue", long_str(original)),
            ("x-death-reason", long_str(reason)),
            ("x-attempts", AMQPValue::LongInt(5)),
            ("x-attempt", AMQPValue::LongInt(5)),
            ("tenant", long_str("acme")),
        ]))
}

/// Publishes `n` dead letters into `dead`, round-robin over `originals`; returns the ids.
fn fill(
    broker: &Broker,
    dead: &str,
    originals: &[&str],
    reasons: &[&str],
    n: usize,
) -> Vec<String> {
    let ch = broker.channel();
    let mut ids = Vec::with_capacity(n);
    broker.rt.block_on(async {
        ch.confirm_select(lapin::options::ConfirmSelectOptions::default())
            .await
            .unwrap();
        let mut confirms = Vec::new();
        for i in 0..n {
            let id = format!("m-{i:06}");
            let props = dead_letter(
                &id,
                originals[i % originals.len()],
                reasons[i % reasons.len()],
            );
            let body = format!("{{\"n\":{i}}}");
            confirms.push(
                ch.basic_publish(
                    "".into(),
                    dead.into(),
                    Default::default(),
                    body.as_bytes(),
                    props,
                )
                .await
                .unwrap(),
            );
            ids.push(id);
            if confirms.len() >= 500 {
                for c in confirms.drain(..) {
                    c.await.unwrap();
                }
            }
        }
        for c in confirms {
            c.await.unwrap();
        }
        let _ = ch.close(200, "ok".into()).await;
    });
    ids
}

fn ids_in(broker: &Broker, queue: &str) -> Vec<String> {
    broker
        .snapshot(queue)
        .iter()
        .map(|(_, p)| {
            p.message_id()
                .as_ref()
                .map(|s| s.to_string())
                .unwrap_or_default()
        })
        .collect()
}

fn setup(broker: &Broker, label: &str, targets: usize) -> (String, String, Vec<String>) {
    let q = broker.queue_name(label);
    let dead = format!("{q}.dead");
    broker.track_queue(&dead);
    broker.declare(&dead, FieldTable::default());
    let names: Vec<String> = (0..targets)
        .map(|i| {
            let t = broker.queue_name(&format!("{label}-target{i}"));
            broker.declare(&t, FieldTable::default());
            t
        })
        .collect();
    (q, dead, names)
}

#[test]
fn replay_moves_thousands_to_their_original_queues() {
    let broker = Broker::connect();
    let (q, dead, targets) = setup(&broker, "replay", 3);
    let originals: Vec<&str> = targets.iter().map(String::as_str).collect();
    let ids = fill(&broker, &dead, &originals, &["timeout"], 3000);

    let (mut cmd, _dir) = queuey();
    let out = cmd
        .args(["dead", "replay", &q, "-o", "json"])
        .output()
        .unwrap();
    assert!(out.status.success(), "{}", stderr(&out));
    let report = json(&out);
    assert_eq!(report["moved"], 3000);
    assert_eq!(report["failed"], 0);
    assert_eq!(broker.message_count(&dead), Some(0));
    for (i, t) in targets.iter().enumerate() {
        let got = ids_in(&broker, t);
        let want: Vec<String> = ids.iter().skip(i).step_by(3).cloned().collect();
        assert_eq!(got, want, "target {t} holds its messages in order");
    }
    // What a replayed copy carries.
    let (body, props) = broker.snapshot(&targets[0]).remove(0);
    assert_eq!(body, b"{\"n\":0}");
    assert_eq!(props.message_id().as_ref().unwrap().as_str(), "m-000000");
    assert_eq!(*props.priority(), Some(2));
    assert_eq!(
        props.content_type().as_ref().unwrap().as_str(),
        "application/json"
    );
    let h = props.headers().as_ref().unwrap().inner();
    // The death record goes; the body is not a queuey envelope, so it and the x-attempt that
    // came with it are copied as they were.
    let keys: BTreeSet<&str> = h.keys().map(|k| k.as_str()).collect();
    assert_eq!(
        keys,
        BTreeSet::from([
            "tenant",
            "x-attempt",
            "x-queuey-last-replay",
            "x-queuey-replays"
        ])
    );
    assert_eq!(h.get("x-attempt"), Some(&AMQPValue::LongInt(5)));
    assert_eq!(h.get("x-queuey-replays"), Some(&AMQPValue::LongLongInt(1)));
    assert_eq!(h.get("tenant"), Some(&long_str("acme")));
    let Some(AMQPValue::FieldTable(record)) = h.get("x-queuey-last-replay") else {
        panic!("no x-queuey-last-replay: {h:?}");
    };
    assert_eq!(record.inner().get("reason"), Some(&long_str("timeout")));
    assert_eq!(
        record.inner().get("attempts"),
        Some(&AMQPValue::LongLongInt(5))
    );
    assert_eq!(record.inner().get("from"), Some(&long_str(&dead)));
}

#[test]
fn a_missing_target_leaves_its_messages_in_the_dead_queue() {
    let broker = Broker::connect();
    let (q, dead, targets) = setup(&broker, "missing", 1);
    let missing = common::unique("never-declared");
    let ids = fill(
        &broker,
        &dead,
        &[targets[0].as_str(), missing.as_str()],
        &["x"],
        100,
    );
    let (mut cmd, _dir) = queuey();
    let out = cmd
        .args(["dead", "replay", &q, "-o", "json"])
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(3), "partial: {}", stderr(&out));
    let report = json(&out);
    assert_eq!(report["moved"], 50);
    assert_eq!(report["failed"], 50);
    let failing = report["targets"]
        .as_array()
        .unwrap()
        .iter()
        .find(|t| t["queue"] == missing.as_str())
        .unwrap();
    assert!(
        failing["failure"].as_str().unwrap().contains("NO_ROUTE"),
        "{failing}"
    );
    let left: Vec<String> = ids.iter().skip(1).step_by(2).cloned().collect();
    assert_eq!(
        ids_in(&broker, &dead),
        left,
        "unroutable ones stay, in order"
    );
    assert_eq!(ids_in(&broker, &targets[0]).len(), 50);

    // The table says why too.
    let (mut cmd, _dir) = queuey();
    let out = cmd.args(["dead", "replay", &q]).output().unwrap();
    assert_eq!(out.status.code(), Some(3));
    assert!(
        stdout(&out).contains("NO_ROUTE") && stdout(&out).contains("failed"),
        "{}",
        stdout(&out)
    );
}

#[test]
fn a_filter_matching_half_leaves_the_other_half_in_order() {
    let broker = Broker::connect();
    let (q, dead, targets) = setup(&broker, "half", 1);
    let ids = fill(
        &broker,
        &dead,
        &[targets[0].as_str()],
        &["timeout", "crash"],
        200,
    );
    let (mut cmd, _dir) = queuey();
    let out = cmd
        .args(["dead", "replay", &q, "--reason", "timeout", "-o", "json"])
        .output()
        .unwrap();
    assert!(out.status.success(), "{}", stderr(&out));
    assert_eq!(json(&out)["moved"], 100);
    let crash: Vec<String> = ids.iter().skip(1).step_by(2).cloned().collect();
    let timeout: Vec<String> = ids.iter().step_by(2).cloned().collect();
    assert_eq!(ids_in(&broker, &dead), crash);
    assert_eq!(ids_in(&broker, &targets[0]), timeout);

    // --dry-run counts and moves nothing; --limit caps.
    let (mut cmd, _dir) = queuey();
    let out = cmd
        .args(["dead", "replay", &q, "--dry-run", "-o", "json"])
        .output()
        .unwrap();
    assert!(out.status.success());
    let r = json(&out);
    assert_eq!(r["matched"], 100);
    assert_eq!(r["moved"], 0, "a dry run moves nothing: {r}");
    assert_eq!(r["targets"][0]["would_move"], 100, "would move");
    assert_eq!(r["targets"][0]["moved"], 0, "moved means moved");
    assert_eq!(r["targets"][0]["exists"], true);
    assert_eq!(broker.message_count(&dead), Some(100));
    let (mut cmd, _dir) = queuey();
    let out = cmd
        .args(["dead", "replay", &q, "--limit", "10", "-o", "json"])
        .output()
        .unwrap();
    assert_eq!(json(&out)["moved"], 10);
    assert_eq!(ids_in(&broker, &dead), crash[10..].to_vec());
}

#[test]
fn copies_that_die_again_during_the_run_are_not_replayed_again() {
    let broker = Broker::connect();
    let q = broker.queue_name("loop");
    let dead = format!("{q}.dead");
    broker.track_queue(&dead);
    broker.declare(&dead, FieldTable::default());
    // The work queue dead-letters straight back into q.dead.
    broker.declare(
        &q,
        table(vec![
            ("x-dead-letter-exchange", long_str("")),
            ("x-dead-letter-routing-key", long_str(&dead)),
        ]),
    );
    let ids = fill(&broker, &dead, &[q.as_str()], &["boom"], 500);
    // A consumer that rejects everything, at once, for the whole run.
    let consumer = {
        let q = q.clone();
        std::thread::spawn(move || {
            let b = Broker::connect();
            let ch = b.channel();
            b.rt.block_on(async {
                use futures_lite::StreamExt;
                let mut c = ch
                    .basic_consume(
                        q.as_str().into(),
                        "rejector".into(),
                        Default::default(),
                        FieldTable::default(),
                    )
                    .await
                    .unwrap();
                let deadline = Instant::now() + Duration::from_secs(20);
                let mut rejected = 0;
                while rejected < 500 && Instant::now() < deadline {
                    if let Ok(Some(Ok(d))) =
                        tokio::time::timeout(Duration::from_millis(500), c.next()).await
                    {
                        d.acker
                            .reject(lapin::options::BasicRejectOptions { requeue: false })
                            .await
                            .unwrap();
                        rejected += 1;
                    }
                }
                rejected
            })
        })
    };
    let (mut cmd, _dir) = queuey();
    let out = cmd
        .args(["dead", "replay", &q, "--window", "20", "-o", "json"])
        .output()
        .unwrap();
    assert!(out.status.success(), "{}", stderr(&out));
    let report = json(&out);
    assert_eq!(report["moved"], 500, "each replayed once: {report}");
    assert_eq!(consumer.join().unwrap(), 500);
    broker.wait_for_count(&dead, 500);
    // Every message is back in q.dead exactly once, replayed exactly once.
    let back = broker.snapshot(&dead);
    let mut got: Vec<String> = back
        .iter()
        .map(|(_, p)| p.message_id().as_ref().unwrap().to_string())
        .collect();
    got.sort();
    assert_eq!(got, ids);
    for (_, p) in &back {
        let h = p.headers().as_ref().unwrap().inner();
        assert_eq!(h.get("x-queuey-replays"), Some(&AMQPValue::LongLongInt(1)));
    }
}

/// Every id is in q.dead or in a target; returns how many are in both.
fn assert_nothing_lost(broker: &Broker, dead: &str, targets: &[String], ids: &[String]) -> usize {
    let in_dead: BTreeSet<String> = ids_in(broker, dead).into_iter().collect();
    let mut in_targets: BTreeMap<String, usize> = BTreeMap::new();
    for t in targets {
        for id in ids_in(broker, t) {
            *in_targets.entry(id).or_default() += 1;
        }
    }
    let mut both = 0;
    for id in ids {
        let d = in_dead.contains(id);
        let t = in_targets.get(id).copied().unwrap_or(0);
        assert!(d || t > 0, "message {id} was lost");
        assert!(t <= 1, "message {id} was copied twice");
        if d && t > 0 {
            both += 1;
        }
    }
    both
}

#[test]
fn sigkill_mid_replay_loses_nothing() {
    let broker = Broker::connect();
    let (q, dead, targets) = setup(&broker, "kill", 2);
    let originals: Vec<&str> = targets.iter().map(String::as_str).collect();
    let ids = fill(&broker, &dead, &originals, &["x"], 6000);
    let dir = tempfile::tempdir().unwrap();
    let mut child = queuey_process(dir.path())
        .args(["dead", "replay", &q, "--rate", "1500", "-q"])
        .stdout(Stdio::null())
        .stderr(Stdio::null())
        .spawn()
        .unwrap();
    eventually(
        "the replay to move some messages",
        Duration::from_secs(30),
        || (broker.message_count(&targets[0]).unwrap_or(0) > 500).then_some(()),
    );
    child.kill().unwrap();
    child.wait().unwrap();
    // The broker returns the unacked dead letters when it notices the connection is gone.
    eventually(
        "q.dead and the targets to add up",
        Duration::from_secs(30),
        || {
            let total: u32 = [dead.as_str(), targets[0].as_str(), targets[1].as_str()]
                .iter()
                .map(|q| broker.message_count(q).unwrap_or(0))
                .sum();
            (total >= 6000).then_some(())
        },
    );
    let both = assert_nothing_lost(&broker, &dead, &targets, &ids);
    eprintln!("after SIGKILL: {both} duplicates (in q.dead and a target), none lost");
}

#[test]
fn connection_closed_by_the_broker_mid_replay_loses_nothing() {
    let broker = Broker::connect();
    let (q, dead, targets) = setup(&broker, "closed", 1);
    let ids = fill(&broker, &dead, &[targets[0].as_str()], &["x"], 6000);
    let dir = tempfile::tempdir().unwrap();
    // Slow enough (12 s) that the management API, whose connection list lags by seconds,
    // shows queuey's connection well before the replay would end.
    let child = queuey_process(dir.path())
        .args(["dead", "replay", &q, "--rate", "500"])
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    eventually(
        "the replay to move some messages",
        Duration::from_secs(30),
        || (broker.message_count(&targets[0]).unwrap_or(0) > 200).then_some(()),
    );
    eventually(
        "queuey's connection to be closed",
        Duration::from_secs(30),
        || {
            (broker.close_connections_named(&format!("dead replay (pid {})", child.id())) > 0)
                .then_some(())
        },
    );
    let out = child.wait_with_output().unwrap();
    assert_eq!(out.status.code(), Some(4), "{}", stderr(&out));
    assert!(stderr(&out).contains("still in"), "{}", stderr(&out));
    eventually(
        "q.dead and the target to add up",
        Duration::from_secs(30),
        || {
            let total = broker.message_count(&dead).unwrap_or(0)
                + broker.message_count(&targets[0]).unwrap_or(0);
            (total >= 6000).then_some(())
        },
    );
    assert_nothing_lost(&broker, &dead, &targets, &ids);
}

/// Sends `signal` to a replay while it runs: it stops cleanly, as on Ctrl-C (finishes what is
/// in flight, acks what is confirmed, prints its summary, exits 130), duplicating nothing.
fn stops_cleanly_on(signal: &str, label: &str) {
    let broker = Broker::connect();
    let (q, dead, targets) = setup(&broker, label, 1);
    let ids = fill(&broker, &dead, &[targets[0].as_str()], &["x"], 3000);
    let dir = tempfile::tempdir().unwrap();
    let mut child = queuey_process(dir.path())
        .args(["dead", "replay", &q, "--rate", "1000"])
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    eventually(
        "the replay to move some messages",
        Duration::from_secs(30),
        || (broker.message_count(&targets[0]).unwrap_or(0) > 300).then_some(()),
    );
    assert!(
        child.try_wait().unwrap().is_none(),
        "queuey still runs when it gets {signal}"
    );
    let status = std::process::Command::new("kill")
        .args([signal, &child.id().to_string()])
        .status()
        .unwrap();
    assert!(status.success());
    let out = child.wait_with_output().unwrap();
    assert_eq!(out.status.code(), Some(130), "{signal}: {}", stderr(&out));
    assert!(stdout(&out).contains("interrupted"), "{}", stdout(&out));
    let moved = broker.message_count(&targets[0]).unwrap();
    assert!(moved < 3000, "stopped mid-run");
    assert!(
        stdout(&out).contains(&format!("replayed {moved} of")),
        "the summary counts what was found: {}",
        stdout(&out)
    );
    // Clean stop: everything in flight was settled, so nothing is in both places.
    assert_eq!(moved + broker.message_count(&dead).unwrap(), 3000);
    assert_eq!(assert_nothing_lost(&broker, &dead, &targets, &ids), 0);
}

#[test]
fn ctrl_c_stops_cleanly_with_a_summary() {
    stops_cleanly_on("-INT", "sigint");
}

#[test]
fn sigterm_stops_cleanly_as_ctrl_c_does() {
    stops_cleanly_on("-TERM", "sigterm");
}

#[test]
fn sighup_stops_cleanly_as_ctrl_c_does() {
    stops_cleanly_on("-HUP", "sighup");
}

/// Copies published and not yet acked never exceed --window (the JSON summary's
/// `peak_in_flight`, counted by queuey as it publishes and acks).
#[test]
fn copies_in_flight_stay_within_the_window() {
    let broker = Broker::connect();
    let (q, dead, targets) = setup(&broker, "window", 1);
    fill(&broker, &dead, &[targets[0].as_str()], &["x"], 5000);
    let (mut cmd, _dir) = queuey();
    let out = cmd
        .args(["dead", "replay", &q, "--window", "500", "-o", "json"])
        .output()
        .unwrap();
    assert!(out.status.success(), "{}", stderr(&out));
    let j = json(&out);
    assert_eq!(j["moved"], 5000);
    let peak = j["peak_in_flight"].as_u64().unwrap();
    assert!(peak > 0 && peak <= 500, "peak in flight {peak}, window 500");
    assert_eq!(broker.message_count(&dead), Some(0));
}

#[test]
fn purge_needs_a_terminal_or_yes() {
    let broker = Broker::connect();
    let (q, dead, _) = setup(&broker, "purge-refuse", 0);
    fill(&broker, &dead, &["x"], &["r"], 10);
    let (mut cmd, _dir) = queuey();
    let out = cmd.args(["dead", "purge", &q]).output().unwrap();
    assert_eq!(out.status.code(), Some(2));
    assert!(stderr(&out).contains("--yes"), "{}", stderr(&out));
    assert_eq!(broker.message_count(&dead), Some(10));

    let (mut cmd, _dir) = queuey();
    let out = cmd
        .args(["dead", "purge", &q, "--dry-run", "-o", "json"])
        .output()
        .unwrap();
    assert!(out.status.success());
    assert_eq!(json(&out)["matched"], 10);
    assert_eq!(broker.message_count(&dead), Some(10));

    let (mut cmd, _dir) = queuey();
    let out = cmd
        .args(["dead", "purge", &q, "--yes", "-o", "json"])
        .output()
        .unwrap();
    assert!(out.status.success(), "{}", stderr(&out));
    assert_eq!(json(&out)["removed"], 10);
    assert_eq!(broker.message_count(&dead), Some(0));
}

#[test]
fn purge_asks_on_a_terminal() {
    let broker = Broker::connect();
    let (q, dead, _) = setup(&broker, "purge-prompt", 0);
    fill(&broker, &dead, &["x"], &["timeout", "crash"], 20);
    let dir = tempfile::tempdir().unwrap();
    let bin = assert_cmd::cargo::cargo_bin("queuey");
    let run = |answer: &str| {
        // `script` gives queuey a pseudo-terminal as its standard input.
        let command = format!("{} dead purge {} --reason timeout", bin.display(), q);
        let mut child = std::process::Command::new("script")
            .args(["-qec", &command, "/dev/null"])
            .env("QUEUEY_URL", common::test_url())
            .env("QUEUEY_API_URL", common::test_api_url())
            .current_dir(dir.path())
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::piped())
            .spawn()
            .expect("script(1) from util-linux");
        std::thread::sleep(Duration::from_millis(1500));
        child
            .stdin
            .take()
            .unwrap()
            .write_all(answer.as_bytes())
            .unwrap();
        let out = child.wait_with_output().unwrap();
        String::from_utf8_lossy(&out.stdout).into_owned()
    };
    let text = run("n\n");
    assert!(
        text.contains("Remove 10 messages matching the filters"),
        "{text}"
    );
    assert_eq!(broker.message_count(&dead), Some(20));
    let text = run("y\n");
    assert!(text.contains("removed 10"), "{text}");
    assert_eq!(broker.message_count(&dead), Some(10));
}

#[test]
fn filtered_purge_with_archive_then_replay_from_the_archive() {
    let broker = Broker::connect();
    let (q, dead, targets) = setup(&broker, "archive", 1);
    let ids = fill(
        &broker,
        &dead,
        &[targets[0].as_str()],
        &["timeout", "crash"],
        300,
    );
    let dir = tempfile::tempdir().unwrap();
    let archive = dir.path().join("purged.jsonl");
    let out = queuey_in(dir.path())
        .args([
            "dead", "purge", &q, "--reason", "timeout", "--yes", "--window", "40",
        ])
        .args(["--archive", archive.to_str().unwrap(), "-o", "json"])
        .output()
        .unwrap();
    assert!(out.status.success(), "{}", stderr(&out));
    assert_eq!(json(&out)["removed"], 150);
    let crash: Vec<String> = ids.iter().skip(1).step_by(2).cloned().collect();
    let timeout: Vec<String> = ids.iter().step_by(2).cloned().collect();
    assert_eq!(ids_in(&broker, &dead), crash, "the rest stay, in order");
    // The archive holds exactly what was removed.
    let text = std::fs::read_to_string(&archive).unwrap();
    let archived: Vec<String> = text
        .lines()
        .map(|l| {
            serde_json::from_str::<serde_json::Value>(l).unwrap()["properties"]["message_id"]
                .as_str()
                .unwrap()
                .to_owned()
        })
        .collect();
    assert_eq!(archived, timeout);

    // Replaying the archive puts them back, losslessly, into their original queue.
    let out = queuey_in(dir.path())
        .args([
            "dead",
            "replay",
            &q,
            "--from-file",
            archive.to_str().unwrap(),
            "-o",
            "json",
        ])
        .output()
        .unwrap();
    assert!(out.status.success(), "{}", stderr(&out));
    assert_eq!(json(&out)["moved"], 150);
    let back = broker.snapshot(&targets[0]);
    let got: Vec<String> = back
        .iter()
        .map(|(_, p)| p.message_id().as_ref().unwrap().to_string())
        .collect();
    assert_eq!(got, timeout);
    assert_eq!(back[0].0, b"{\"n\":0}");
    assert_eq!(
        back[0].1.headers().as_ref().unwrap().inner().get("tenant"),
        Some(&long_str("acme"))
    );

    // A broken archive line stops the run before anything is published.
    let bad = dir.path().join("bad.jsonl");
    std::fs::write(
        &bad,
        format!("{}\nnot json\n", text.lines().next().unwrap()),
    )
    .unwrap();
    let out = queuey_in(dir.path())
        .args(["dead", "replay", &q, "--from-file", bad.to_str().unwrap()])
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(2));
    assert!(stderr(&out).contains("line 2"), "{}", stderr(&out));
    assert_eq!(broker.message_count(&targets[0]), Some(150));
}

#[test]
fn replay_from_a_quorum_dead_queue_keeps_what_it_does_not_move() {
    let broker = Broker::connect();
    // A delivery limit of 1 and no dead-letter exchange: a message returned twice is dropped.
    let (q, dead) = broker.quorum_dead_queue("qreplay", 1);
    let target = broker.queue_name("qreplay-target");
    broker.declare(&target, FieldTable::default());
    let ids = fill(
        &broker,
        &dead,
        &[target.as_str()],
        &["timeout", "crash"],
        10,
    );
    // Spend one delivery of every message first.
    let (mut cmd, _dir) = queuey();
    let out = cmd
        .args(["dead", "ls", &q, "--spend-delivery-budget"])
        .output()
        .unwrap();
    assert!(out.status.success(), "{}", stderr(&out));
    // Replaying half: the other half are on their last delivery and must not be returned.
    let (mut cmd, _dir) = queuey();
    let out = cmd
        .args(["dead", "replay", &q, "--reason", "timeout", "-o", "json"])
        .output()
        .unwrap();
    assert_eq!(
        out.status.code(),
        Some(2),
        "refused without the flag: {}",
        stderr(&out)
    );
    let (mut cmd, _dir) = queuey();
    let out = cmd
        .args([
            "dead",
            "replay",
            &q,
            "--reason",
            "timeout",
            "--spend-delivery-budget",
            "-o",
            "json",
        ])
        .output()
        .unwrap();
    assert!(out.status.success(), "{}", stderr(&out));
    let report = json(&out);
    assert_eq!(report["moved"], 5);
    assert_eq!(report["rescued"], 5, "{report}");
    eventually("the kept half to be back", Duration::from_secs(10), || {
        (broker.message_count(&dead) == Some(5)).then_some(())
    });
    let mut moved = ids_in(&broker, &target);
    moved.sort();
    let timeout: Vec<String> = ids.iter().step_by(2).cloned().collect();
    assert_eq!(moved, timeout);
}

/// An application's dead letter: a queuey envelope on attempt 3 with the library's headers.
fn envelope_dead_letter(broker: &Broker, dead: &str, original: &str, id: &str) -> Vec<u8> {
    // Key order, spacing, an escape and a number spelling the library would not write: a
    // replay must keep every byte but the attempt's.
    let body = format!(
        "{{ \"job_id\": \"{id}\", \"queue\": \"{original}\", \"job_type\": \"app.Charge\", \
         \"attempt\": 3, \"enqueued_at_ms\": 1700000000000, \"deferrals\": 1, \"priority\": 0, \
         \"payload\": {{\"amount\": 1.50, \"note\": \"caf\\u00e9\", \"attempt\": 9}} }}"
    );
    let props = BasicProperties::default()
        .with_message_id(id.into())
        .with_delivery_mode(2)
        .with_content_type("application/json".into())
        .with_headers(table(vec![
            ("x-attempt", AMQPValue::LongUInt(3)),
            ("x-deferrals", AMQPValue::LongUInt(1)),
            (
                "x-death-reason",
                long_str("max attempts (3) exhausted after attempt 3: timeout"),
            ),
            ("x-original-queue", long_str(original)),
            ("x-attempts", AMQPValue::LongUInt(3)),
        ]));
    broker.publish_props(dead, body.as_bytes(), props);
    body.into_bytes()
}

#[test]
fn replay_from_an_export_resets_the_attempt_as_from_the_queue() {
    let broker = Broker::connect();
    let (q, dead, targets) = setup(&broker, "export-reset", 1);
    let ids = [
        "67e55044-10b1-426f-9247-bb680e5fe0c1",
        "67e55044-10b1-426f-9247-bb680e5fe0c2",
    ];
    let bodies: Vec<Vec<u8>> = ids
        .iter()
        .map(|id| envelope_dead_letter(&broker, &dead, &targets[0], id))
        .collect();
    broker.wait_for_count(&dead, 2);
    let dir = tempfile::tempdir().unwrap();
    let file = dir.path().join("dead.jsonl");
    let out = queuey_in(dir.path())
        .args([
            "dead",
            "export",
            &q,
            "--output-file",
            file.to_str().unwrap(),
        ])
        .output()
        .unwrap();
    assert!(out.status.success(), "{}", stderr(&out));

    let replay = |extra: &[&str]| {
        let out = queuey_in(dir.path())
            .args(["dead", "replay", &q, "--from-file", file.to_str().unwrap()])
            .args(extra)
            .args(["-o", "json"])
            .output()
            .unwrap();
        assert!(out.status.success(), "{}", stderr(&out));
        json(&out)
    };
    let dry = replay(&["--dry-run"]);
    assert_eq!(
        (
            dry["matched"].clone(),
            dry["would_reset_attempts"].clone(),
            dry["attempts_reset"].clone()
        ),
        (2.into(), 2.into(), 0.into())
    );
    assert_eq!(
        broker.message_count(&targets[0]),
        Some(0),
        "a dry run moves nothing"
    );

    let report = replay(&[]);
    assert_eq!(
        (report["moved"].clone(), report["attempts_reset"].clone()),
        (2.into(), 2.into())
    );
    let copies = broker.snapshot(&targets[0]);
    assert_eq!(copies.len(), 2);
    for ((body, props), original) in copies.iter().zip(&bodies) {
        let expected = String::from_utf8(original.clone()).unwrap().replacen(
            "\"attempt\": 3",
            "\"attempt\": 1",
            1,
        );
        assert_eq!(String::from_utf8(body.clone()).unwrap(), expected);
        let envelope = queuey_core::Envelope::from_bytes(body).expect("the library decodes it");
        assert_eq!((envelope.attempt, envelope.deferrals), (1, 1));
        let h = props.headers().as_ref().unwrap().inner();
        assert_eq!(h.get("x-attempt"), Some(&AMQPValue::LongUInt(1)));
        assert_eq!(h.get("x-deferrals"), Some(&AMQPValue::LongUInt(1)));
        assert!(!h.contains_key("x-attempts") && !h.contains_key("x-death-reason"));
    }
    broker
        .rt
        .block_on(broker.api.purge_queue("/", &targets[0]))
        .expect("purge");
    broker.wait_for_count(&targets[0], 0);

    // --keep-attempts: the bodies and x-attempt as they were.
    let report = replay(&["--keep-attempts"]);
    assert_eq!(
        (report["moved"].clone(), report["attempts_reset"].clone()),
        (2.into(), 0.into())
    );
    let copies = broker.snapshot(&targets[0]);
    let got: Vec<&Vec<u8>> = copies.iter().map(|(b, _)| b).collect();
    assert_eq!(got, bodies.iter().collect::<Vec<_>>());
    for (_, props) in &copies {
        let h = props.headers().as_ref().unwrap().inner();
        assert_eq!(h.get("x-attempt"), Some(&AMQPValue::LongUInt(3)));
    }
}

/// A purge with --archive killed mid-run (kill -9): the rerun with the same --archive
/// recognises its own unfinished archive, appends to it, and writes nothing twice: every
/// removed dead letter is in the archive exactly once.
#[test]
fn a_killed_archive_purge_is_finished_by_its_rerun_without_writing_twice() {
    let broker = Broker::connect();
    let (q, dead, _) = setup(&broker, "archive-kill", 0);
    let ids = fill(&broker, &dead, &["orders"], &["timeout"], 6000);
    let dir = tempfile::tempdir().unwrap();
    let archive = dir.path().join("purged.jsonl");
    let lines = |p: &std::path::Path| {
        std::fs::read_to_string(p)
            .unwrap_or_default()
            .lines()
            .count()
    };
    let mut child = queuey_process(dir.path())
        .args(["dead", "purge", &q, "--yes", "--window", "20"])
        .args(["--archive", archive.to_str().unwrap()])
        .stdout(Stdio::null())
        .stderr(Stdio::null())
        .spawn()
        .unwrap();
    eventually("the archive to fill", Duration::from_secs(60), || {
        (lines(&archive) >= 400).then_some(())
    });
    assert!(child.try_wait().unwrap().is_none(), "killed mid-run");
    child.kill().unwrap();
    child.wait().unwrap();
    let after_kill = lines(&archive);
    assert!(after_kill < 6000, "{after_kill} archived before the kill");
    // The rerun without the same archive name would refuse; with it, it appends.
    eventually("the held messages back", Duration::from_secs(30), || {
        (broker.message_count(&dead).unwrap_or(0) as usize + after_kill >= 6000).then_some(())
    });
    let out = queuey_in(dir.path())
        .args(["dead", "purge", &q, "--yes", "-o", "json"])
        .args(["--archive", archive.to_str().unwrap()])
        .output()
        .unwrap();
    assert!(out.status.success(), "{}", stderr(&out));
    assert!(
        stderr(&out).contains("unfinished purge"),
        "{}",
        stderr(&out)
    );
    assert_eq!(broker.message_count(&dead), Some(0));
    let text = std::fs::read_to_string(&archive).unwrap();
    let mut archived: Vec<String> = text
        .lines()
        .map(|l| {
            serde_json::from_str::<serde_json::Value>(l).unwrap()["properties"]["message_id"]
                .as_str()
                .unwrap()
                .to_owned()
        })
        .collect();
    archived.sort();
    let mut want = ids.clone();
    want.sort();
    assert_eq!(
        archived, want,
        "each removed dead letter archived exactly once"
    );
    let mut marker = archive.as_os_str().to_owned();
    marker.push(".unfinished");
    assert!(!std::path::Path::new(&marker).exists(), "the marker goes");
    // A finished archive is never appended to.
    let out = queuey_in(dir.path())
        .args(["dead", "purge", &q, "--yes", "--reason", "x"])
        .args(["--archive", archive.to_str().unwrap()])
        .output()
        .unwrap();
    assert_ne!(out.status.code(), Some(0));
}
