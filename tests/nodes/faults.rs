//! `dead replay` when the broker fails under it, on private RabbitMQ nodes the tests start on
//! their own ports (`common::node`): kill -9 of queuey at several instants, kill -9 of the
//! node's VM, `stop_app`/`start_app`, memory and disk alarms. The shared broker on 5672 is
//! never touched.
//!
//! Every test checks identities as multisets: after the rerun, each job id is in the target
//! exactly as many times as it was in `q.dead` (a few dead letters are identical twins, which
//! must both arrive), and `q.dead` is empty: 0 lost, 0 duplicated. Each asserts that its fault
//! happened mid-run (queuey still running, some copies made, some dead letters left), and
//! prints the figures that docs/failures.md reports.

use std::collections::BTreeMap;
use std::path::Path;
use std::process::Child;
use std::time::{Duration, Instant};

use crate::common::node::Node;
use crate::common::{Broker, Queuey, eventually, json, long_str, settled, table};
use lapin::BasicProperties;
use lapin::options::{ConfirmSelectOptions, QueueDeclareOptions};
use lapin::types::{AMQPValue, FieldTable};

/// Dead letters per test: enough that a fault at full speed lands mid-run.
const N: usize = 20_000;
/// The replay's --window: copies in flight at most.
const WINDOW: usize = 400;
/// Of which this many are identical twins of another (same properties and body).
const TWINS: usize = 10;

struct Fixture {
    q: String,
    dead: String,
    target: String,
    /// Each job id and how many times it is in q.dead.
    expected: BTreeMap<String, usize>,
    total: usize,
}

fn dead_letter(id: &str, original: &str) -> BasicProperties {
    BasicProperties::default()
        .with_message_id(id.into())
        .with_delivery_mode(2)
        .with_content_type("application/json".into())
        .with_headers(table(vec![
            ("x-original-queue", long_str(original)),
            ("x-death-reason", long_str("fatal error: test")),
            ("x-attempts", AMQPValue::LongInt(3)),
        ]))
}

/// Declares `name`, durable, of `queue_type` (`classic`: without `x-queue-type`).
fn declare(broker: &Broker, name: &str, queue_type: &str) {
    let ch = broker.channel();
    let args = if queue_type == "classic" {
        FieldTable::default()
    } else {
        table(vec![("x-queue-type", long_str(queue_type))])
    };
    broker
        .rt
        .block_on(ch.queue_declare(
            name.into(),
            QueueDeclareOptions {
                durable: true,
                ..QueueDeclareOptions::default()
            },
            args,
        ))
        .unwrap_or_else(|e| panic!("declaring {name}: {e}"));
    let _ = broker.rt.block_on(ch.close(200, "ok".into()));
}

/// `q`, a classic `q.dead` holding `n` dead letters (plus [`TWINS`] identical twins) bound for
/// `target`.
fn fixture(broker: &Broker, label: &str, n: usize) -> Fixture {
    fixture_of(broker, label, n, "classic")
}

/// [`fixture`] with a `q.dead` of `dead_type` (a quorum one: no delivery limit of its own, the
/// version's default applies: none on 3.x, 20 from 4.0).
fn fixture_of(broker: &Broker, label: &str, n: usize, dead_type: &str) -> Fixture {
    let q = crate::common::unique(label);
    let dead = format!("{q}.dead");
    let target = format!("{q}.target");
    declare(broker, &dead, dead_type);
    declare(broker, &target, "classic");
    let mut expected = BTreeMap::new();
    let ch = broker.channel();
    broker.rt.block_on(async {
        ch.confirm_select(ConfirmSelectOptions::default())
            .await
            .expect("confirm.select");
        let mut confirms = Vec::new();
        let ids = (0..n).chain(0..TWINS.min(n));
        for i in ids {
            let id = format!("job-{i:06}");
            let body = format!("{{\"job_id\":\"{id}\",\"n\":{i}}}");
            confirms.push(
                ch.basic_publish(
                    "".into(),
                    dead.as_str().into(),
                    Default::default(),
                    body.as_bytes(),
                    dead_letter(&id, &target),
                )
                .await
                .expect("publish"),
            );
            *expected.entry(id).or_insert(0) += 1;
            if confirms.len() >= 1000 {
                for c in confirms.drain(..) {
                    c.await.expect("confirm");
                }
            }
        }
        for c in confirms {
            c.await.expect("confirm");
        }
        let _ = ch.close(200, "ok".into()).await;
    });
    let total = expected.values().sum();
    Fixture {
        q,
        dead,
        target,
        expected,
        total,
    }
}

/// Each job id in `queue` and how many times, taking every message out (the end of a test).
fn drain(broker: &Broker, queue: &str) -> BTreeMap<String, usize> {
    let mut out = BTreeMap::new();
    for id in broker.drain_ids(queue) {
        *out.entry(id).or_insert(0) += 1;
    }
    out
}

/// (lost at most, in both places) from the counts: q.dead and the target hold every dead
/// letter at least once when nothing is lost (the identities are checked after the rerun).
fn lost_and_duplicated(broker: &Broker, f: &Fixture) -> (usize, usize) {
    let held = (counts(broker, &f.dead).0 + counts(broker, &f.target).0) as usize;
    (f.total.saturating_sub(held), held.saturating_sub(f.total))
}

/// After the rerun: q.dead empty, and each id in the target at least as often as it was dead
/// (twins both): nothing lost; and the ids there more often no more than the rerun said may be
/// duplicated (`said`: acks the broker may have lost with the fault). The copies in flight at
/// a fault, published but not confirmed, are in doubt in the ledger, and the rerun looked for
/// them in the target (`--look-in-targets`: the target has no consumer here; see
/// docs/failures.md). Returns the duplicates.
fn assert_none_lost_after_rerun(broker: &Broker, f: &Fixture, said: u64) -> u64 {
    assert_eq!(broker.message_count(&f.dead), Some(0), "q.dead is empty");
    let found = drain(broker, &f.target);
    crate::common::assert_ids_at_least(&found, &f.expected, "the target", said, "after the rerun")
}

/// What a run's JSON summary says may be duplicated.
fn said(summary: &serde_json::Value) -> u64 {
    summary["may_be_duplicates"].as_u64().unwrap_or(0)
}

/// Starts `dead replay` of `f` with `extra` arguments; its stderr goes to `dir/stderr-N`.
fn start_replay(node: &Node, dir: &Path, f: &Fixture, extra: &[&str], n: usize) -> Child {
    let err = std::fs::File::create(dir.join(format!("stderr-{n}"))).expect("stderr file");
    let out = std::fs::File::create(dir.join(format!("stdout-{n}"))).expect("stdout file");
    Queuey::on_node(dir, node)
        .process()
        .args(["dead", "replay", &f.q, "--to", &f.target])
        .args(extra)
        .stdout(out)
        .stderr(err)
        .spawn()
        .expect("queuey starts")
}

fn stderr_of(dir: &Path, n: usize) -> String {
    std::fs::read_to_string(dir.join(format!("stderr-{n}"))).unwrap_or_default()
}

struct PrintOnPanic(std::path::PathBuf, usize);
impl Drop for PrintOnPanic {
    fn drop(&mut self) {
        if std::thread::panicking() {
            eprintln!("STDERR: {}", stderr_of(&self.0, self.1));
        }
    }
}

fn stdout_of(dir: &Path, n: usize) -> String {
    std::fs::read_to_string(dir.join(format!("stdout-{n}"))).unwrap_or_default()
}

/// Waits until at least `at` copies are in the target, and checks the fault will land
/// mid-run: queuey still runs, and q.dead still holds dead letters.
fn wait_mid_run(broker: &Broker, child: &mut Child, f: &Fixture, at: u32, dir: &Path, run: usize) {
    let _guard = PrintOnPanic(dir.to_owned(), run);
    eventually(
        &format!("{at} copies in the target"),
        Duration::from_secs(40),
        || {
            let n = broker.message_count(&f.target).unwrap_or(0);
            if n >= at {
                return Some(());
            }
            if let Ok(Some(status)) = child.try_wait() {
                panic!(
                    "queuey ended ({status}) before {at} copies were made ({n}): {}{}",
                    stdout_of(dir, run),
                    stderr_of(dir, run)
                );
            }
            None
        },
    );
    assert!(
        child.try_wait().expect("try_wait").is_none(),
        "queuey is still running at the fault"
    );
    let left = broker.message_count(&f.dead).unwrap_or(0);
    let copied = broker.message_count(&f.target).unwrap_or(0);
    assert!(
        (copied as usize) < f.total,
        "the fault lands mid-run: {copied} of {} copied",
        f.total
    );
    eprintln!("fault at {copied} copies in the target, {left} ready in q.dead");
}

/// (ready messages, consumers) of `queue`, by passive declare: exact, unlike the API's stats.
fn counts(broker: &Broker, queue: &str) -> (u32, u32) {
    broker.ready_and_consumers(queue)
}

/// Waits until the broker has returned every delivery the stopped run held: q.dead has no
/// consumer any more, and its ready count no longer moves (the broker requeues
/// asynchronously), and q.dead and the target account for every dead letter.
fn wait_settled(broker: &Broker, f: &Fixture) {
    settled(
        "q.dead to have its held messages back",
        Duration::from_secs(120),
        Duration::from_millis(400),
        || counts(broker, &f.dead),
        |ready| (ready + counts(broker, &f.target).0) as usize >= f.total,
    );
}

/// The final, undisturbed rerun: exit 0, and its JSON summary.
fn rerun(node: &Node, dir: &Path, f: &Fixture) -> serde_json::Value {
    let out = Queuey::on_node(dir, node)
        .args(["dead", "replay", &f.q, "--to", &f.target, "-o", "json"])
        .arg("--look-in-targets")
        .run();
    let err = out.stderr.as_str();
    assert_eq!(out.status.code(), Some(0), "the rerun: {err}");
    // What it found of the copies in doubt, for docs/failures.md.
    for line in err.lines().filter(|l| l.contains("in doubt")) {
        eprintln!("rerun: {line}");
    }
    json(&out)
}

/// The journal files left in the state directory of `dir`.
fn journals(dir: &Path) -> Vec<std::path::PathBuf> {
    std::fs::read_dir(dir.join("state").join("queuey"))
        .map(|d| d.flatten().map(|e| e.path()).collect())
        .unwrap_or_default()
}

/// Reads "copied and confirmed N, removed from Q M" out of a failed run's warning.
fn reported_counts(stderr: &str) -> (u64, u64) {
    let after = |key: &str| -> u64 {
        let i = stderr
            .find(key)
            .unwrap_or_else(|| panic!("{key:?} in {stderr}"));
        stderr[i + key.len()..]
            .split(|c: char| !c.is_ascii_digit())
            .find(|s| !s.is_empty())
            .and_then(|s| s.parse().ok())
            .unwrap_or_else(|| panic!("a number after {key:?} in {stderr}"))
    };
    let copied = after("copied and confirmed ");
    let i = stderr.find("removed from ").expect("removed from");
    let rest = &stderr[i + "removed from ".len()..];
    let removed = rest
        .split_whitespace()
        .nth(1)
        .and_then(|s| s.parse().ok())
        .unwrap_or_else(|| panic!("removed count in {stderr}"));
    (copied, removed)
}

#[test]
fn kill_9_of_queuey_at_several_instants_then_a_rerun_loses_none_and_says_each_duplicate() {
    kill_queuey_three_times("kill-queuey", "classic");
}

/// The same on a quorum `q.dead`, which stamps its bookkeeping on every redelivery (the rerun
/// still knows each dead letter: the journal's digest leaves it out) and keeps no positions.
#[test]
fn kill_9_of_queuey_then_a_rerun_over_a_quorum_dead_queue_loses_none_and_says_each_duplicate() {
    kill_queuey_three_times("kill-queuey-qq", "quorum");
}

fn kill_queuey_three_times(label: &str, dead_type: &str) {
    let _lock = Node::lock();
    let node = Node::start(1);
    let broker = Broker::connect_node(&node);
    let f = fixture_of(&broker, label, N, dead_type);
    let dir = tempfile::tempdir().expect("tempdir");
    let mut duplicates_without_journal = 0;
    for (run, at) in [(1, 4_000u32), (2, 9_000), (3, 15_000)] {
        let mut child = start_replay(
            &node,
            dir.path(),
            &f,
            // Over two channels: a kill finds copies in flight on both.
            &["--window", &WINDOW.to_string(), "--channels", "2"],
            run,
        );
        wait_mid_run(&broker, &mut child, &f, at, dir.path(), run);
        child.kill().expect("kill -9");
        child.wait().expect("wait");
        wait_settled(&broker, &f);
        let (lost, dup) = lost_and_duplicated(&broker, &f);
        assert_eq!(lost, 0, "nothing lost after kill -9 number {run}");
        eprintln!("after kill -9 of queuey number {run}: 0 lost, {dup} in both places");
        duplicates_without_journal = duplicates_without_journal.max(dup);
        assert!(journals(dir.path()).len() <= 1);
    }
    assert_eq!(
        journals(dir.path()).len(),
        1,
        "the journal of the killed runs stays"
    );
    let summary = rerun(&node, dir.path(), &f);
    eprintln!(
        "rerun: moved {}, already copied {}, may be duplicates {}",
        summary["moved"], summary["already_copied"], summary["may_be_duplicates"]
    );
    let dup = assert_none_lost_after_rerun(&broker, &f, said(&summary));
    assert!(journals(dir.path()).is_empty(), "a clean run deletes it");
    eprintln!(
        "{label} ({dead_type} q.dead), kill -9 of queuey x3: {duplicates_without_journal} in \
         both places before the rerun; after it 0 lost, {dup} duplicated ({} said possible)",
        said(&summary)
    );
}

/// Runs a replay, breaks the node with `fault` mid-run, mends it with `mend`, and reruns; over
/// a `q.dead` of `dead_type`.
/// Reads "; N more copies published before the stop" out of a failed run's warning (0 when
/// it names none).
fn copies_in_doubt(stderr: &str) -> u64 {
    let Some(i) = stderr.find(" published before the stop") else {
        return 0;
    };
    stderr[..i]
        .rsplit("; ")
        .next()
        .and_then(|s| s.split_whitespace().next())
        .and_then(|n| n.parse().ok())
        .unwrap_or_else(|| panic!("a count of copies in doubt in {stderr}"))
}

fn broker_fault(label: &str, dead_type: &str, fault: impl Fn(&Node), mend: impl Fn(&Node)) {
    let _lock = Node::lock();
    let node = Node::start(1);
    let f = {
        let broker = Broker::connect_node(&node);
        fixture_of(&broker, label, N, dead_type)
    };
    let dir = tempfile::tempdir().expect("tempdir");
    let mut child = start_replay(&node, dir.path(), &f, &["--window", &WINDOW.to_string()], 1);
    {
        let broker = Broker::connect_node(&node);
        wait_mid_run(&broker, &mut child, &f, 5_000, dir.path(), 1);
    }
    let started = Instant::now();
    fault(&node);
    let status = child.wait().expect("wait");
    eprintln!(
        "queuey ended {:.1}s after the fault: {status}",
        started.elapsed().as_secs_f64()
    );
    let err = stderr_of(dir.path(), 1);
    assert_ne!(status.code(), Some(0), "{err}");
    assert!(err.contains("the broker does not confirm acks"), "{err}");
    let (copied, removed) = reported_counts(&err);
    let in_doubt = copies_in_doubt(&err);
    mend(&node);
    let broker = Broker::connect_node(&node);
    wait_settled(&broker, &f);
    let in_target = broker.message_count(&f.target).unwrap_or(0) as u64;
    let in_dead = broker.message_count(&f.dead).unwrap_or(0) as u64;
    // The counts printed are the counts found: every confirmed copy is in the target, and at
    // most the reported number left q.dead.
    assert!(
        in_target >= copied,
        "{copied} copies confirmed but {in_target} in the target"
    );
    assert!(
        in_dead + removed >= f.total as u64,
        "{removed} reported removed, but q.dead holds {in_dead} of {}",
        f.total
    );
    // Every copy in the target beyond the confirmed ones was announced as possibly there.
    assert!(
        in_target - copied <= in_doubt,
        "{in_target} in the target, {copied} confirmed, but only {in_doubt} said to be in doubt: {err}"
    );
    let (lost, dup) = lost_and_duplicated(&broker, &f);
    assert_eq!(lost, 0);
    eprintln!(
        "{label}: queuey said copied and confirmed {copied}, removed {removed}, {in_doubt} \
         more in doubt; found {in_dead} in q.dead, {in_target} in the target; 0 lost, {dup} in \
         both places"
    );
    let summary = rerun(&node, dir.path(), &f);
    eprintln!(
        "{label} rerun: moved {}, already copied {}",
        summary["moved"], summary["already_copied"]
    );
    let dup = assert_none_lost_after_rerun(&broker, &f, said(&summary));
    eprintln!(
        "{label}: after the rerun 0 lost, {dup} duplicated ({} said possible)",
        said(&summary)
    );
}

#[test]
fn kill_9_of_the_node_then_a_rerun_loses_none_and_says_each_duplicate() {
    broker_fault("kill-node", "classic", Node::kill_vm, Node::restart);
}

/// The same over a quorum `q.dead`: a quorum queue writes its acks to its log, and a node
/// killed before they were written returns those dead letters; the rerun knows them.
#[test]
fn kill_9_of_the_node_then_a_rerun_over_a_quorum_dead_queue_loses_none_and_says_each_duplicate() {
    broker_fault("kill-node-qq", "quorum", Node::kill_vm, Node::restart);
}

#[test]
fn stop_app_and_start_app_then_a_rerun_loses_none_and_says_each_duplicate() {
    broker_fault("stop-app", "classic", stop_app, start_app);
}

#[test]
fn stop_app_and_start_app_then_a_rerun_over_a_quorum_dead_queue_loses_none_and_says_each_duplicate()
{
    broker_fault("stop-app-qq", "quorum", stop_app, start_app);
}

fn stop_app(node: &Node) {
    node.ctl(&["stop_app"]);
}

fn start_app(node: &Node) {
    node.ctl(&["start_app"]);
    node.wait_up(Duration::from_secs(60));
}

/// Runs a replay at a steady rate, raises an alarm with `raise` mid-run and clears it with
/// `clear` after a few seconds: queuey says the broker blocked publishing (`reason`), and that
/// it resumed, and the run completes. Then, with `--blocked-timeout 2s`, the same alarm stops
/// the run cleanly (exit 7), and the rerun after the alarm finishes the work.
fn alarm(label: &str, raise: &[&str], clear: &[&str], reason: &str) {
    let _lock = Node::lock();
    let node = Node::start(1);
    let broker = Broker::connect_node(&node);
    let f = fixture(&broker, label, 6_000);
    let dir = tempfile::tempdir().expect("tempdir");
    let mut child = start_replay(&node, dir.path(), &f, &["--rate", "1500"], 1);
    wait_mid_run(&broker, &mut child, &f, 1_000, dir.path(), 1);
    node.ctl(raise);
    let frozen = eventually("publishing to stop", Duration::from_secs(30), || {
        let a = counts(&broker, &f.target).0;
        // That the target stops growing is known only by watching it not grow: nothing else
        // says that the broker blocks queuey's publishes.
        std::thread::sleep(Duration::from_millis(1500));
        (counts(&broker, &f.target).0 == a).then_some(a)
    });
    // queuey is to wait out the alarm, not give up: it must still run a while later, which
    // only the time passing can show.
    std::thread::sleep(Duration::from_secs(3));
    assert!(
        child.try_wait().expect("try_wait").is_none(),
        "queuey waits"
    );
    assert_eq!(
        counts(&broker, &f.target).0,
        frozen,
        "nothing published while blocked"
    );
    node.ctl(clear);
    let status = child.wait().expect("wait");
    let err = stderr_of(dir.path(), 1);
    assert_eq!(status.code(), Some(0), "{err}");
    assert!(
        err.contains(&format!("the broker blocked publishing: {reason}")),
        "{err}"
    );
    assert!(err.contains("the broker resumed publishing after"), "{err}");
    wait_settled(&broker, &f);
    assert_none_lost_after_rerun(&broker, &f, 0);
    eprintln!("{label}: blocked at {frozen} copies, resumed; 0 lost, 0 duplicated");

    // --blocked-timeout: a clean stop instead of a wait.
    let g = fixture(&broker, &format!("{label}-timeout"), 6_000);
    let mut child = start_replay(
        &node,
        dir.path(),
        &g,
        &[
            "--rate",
            "1500",
            "--blocked-timeout",
            "2s",
            "--window",
            &WINDOW.to_string(),
        ],
        2,
    );
    wait_mid_run(&broker, &mut child, &g, 1_000, dir.path(), 2);
    let raised = Instant::now();
    node.ctl(raise);
    let status = eventually("queuey to stop", Duration::from_secs(60), || {
        child.try_wait().expect("try_wait")
    });
    let took = raised.elapsed();
    let err = stderr_of(dir.path(), 2);
    assert_eq!(status.code(), Some(7), "{err}");
    assert!(err.contains("--blocked-timeout"), "{err}");
    assert!(err.contains("copied and confirmed"), "{err}");
    node.ctl(clear);
    wait_settled(&broker, &g);
    let summary = rerun(&node, dir.path(), &g);
    assert_none_lost_after_rerun(&broker, &g, said(&summary));
    eprintln!(
        "{label} --blocked-timeout 2s: stopped {:.1}s after the alarm (exit 7); rerun moved {}, \
         already copied {}; 0 lost, 0 duplicated",
        took.as_secs_f64(),
        summary["moved"],
        summary["already_copied"]
    );
}

#[test]
fn a_memory_alarm_is_said_aloud_and_blocked_timeout_stops_cleanly() {
    alarm(
        "memory-alarm",
        &["set_vm_memory_high_watermark", "0.0000001"],
        &["set_vm_memory_high_watermark", "0.4"],
        "low on memory",
    );
}

#[test]
fn a_disk_alarm_is_said_aloud_and_blocked_timeout_stops_cleanly() {
    alarm(
        "disk-alarm",
        &["set_disk_free_limit", "100000GB"],
        &["set_disk_free_limit", "50MB"],
        "low on disk",
    );
}

/// A filtered `dead purge --archive` when the node is killed: the failure says how many were
/// archived and removed; after the restart, the same command with the same archive appends to
/// it, and every dead letter that matched is in the archive, twice at most where the rerun said
/// so (acks the node lost), the others in q.dead.
#[test]
fn a_filtered_archiving_purge_survives_kill_9_of_the_node() {
    let _lock = Node::lock();
    let node = Node::start(1);
    let f = {
        let broker = Broker::connect_node(&node);
        fixture(&broker, "purge-kill", N)
    };
    let dir = tempfile::tempdir().expect("tempdir");
    let archive = dir.path().join("archive.jsonl");
    let lines = |p: &Path| {
        std::fs::read_to_string(p)
            .unwrap_or_default()
            .lines()
            .count()
    };
    // A filtered purge (every dead letter here matches: the identities can then be counted).
    let err = std::fs::File::create(dir.path().join("stderr-1")).expect("stderr file");
    let mut child = Queuey::on_node(dir.path(), &node)
        .process()
        .args([
            "dead",
            "purge",
            &f.q,
            "--yes",
            "--original-queue",
            &f.target,
        ])
        .args(["--archive", archive.to_str().expect("utf-8 path")])
        .stdout(std::process::Stdio::null())
        .stderr(err)
        .spawn()
        .expect("queuey starts");
    eventually("the archive to fill", Duration::from_secs(120), || {
        (lines(&archive) >= 6_000).then_some(())
    });
    assert!(child.try_wait().expect("try_wait").is_none(), "mid-run");
    node.kill_vm();
    let status = child.wait().expect("wait");
    let err = stderr_of(dir.path(), 1);
    assert_ne!(status.code(), Some(0), "{err}");
    assert!(err.contains("archived "), "{err}");
    assert!(err.contains("removed from"), "{err}");
    let archived_before = lines(&archive);
    assert!(archived_before < f.total, "stopped mid-run");
    node.restart();
    let broker = Broker::connect_node(&node);
    let in_dead = settled(
        "q.dead to settle",
        Duration::from_secs(120),
        Duration::from_millis(500),
        || counts(&broker, &f.dead),
        |_| true,
    ) as usize;
    eprintln!(
        "purge, kill -9 of the node: queuey said {:?}; {archived_before} in the archive, \
         {in_dead} in q.dead ({} in both)",
        err.lines()
            .find(|l| l.contains("stopped early"))
            .unwrap_or(""),
        (archived_before + in_dead).saturating_sub(f.total)
    );
    let out = Queuey::on_node(dir.path(), &node)
        .args([
            "dead",
            "purge",
            &f.q,
            "--yes",
            "--original-queue",
            &f.target,
        ])
        .args([
            "--archive",
            archive.to_str().expect("utf-8 path"),
            "-o",
            "json",
        ])
        .run();
    assert_eq!(out.status.code(), Some(0), "{}", out.stderr);
    let summary = json(&out);
    assert_eq!(counts(&broker, &f.dead).0, 0);
    let mut found: BTreeMap<String, usize> = BTreeMap::new();
    for line in std::fs::read_to_string(&archive).expect("archive").lines() {
        let j: serde_json::Value = serde_json::from_str(line).expect("a JSON line");
        // The archive's end line (a finished run's) is no dead letter.
        if j["format"] == "queuey.dead-letter.v1.end" {
            assert_eq!(j["finished"], true, "{line}");
            continue;
        }
        let id = j["properties"]["message_id"]
            .as_str()
            .unwrap_or_default()
            .to_owned();
        *found.entry(id).or_insert(0) += 1;
    }
    let lost: usize = f
        .expected
        .iter()
        .map(|(id, &w)| w.saturating_sub(found.get(id).copied().unwrap_or(0)))
        .sum();
    let dup: usize = f
        .expected
        .iter()
        .map(|(id, &w)| found.get(id).copied().unwrap_or(0).saturating_sub(w))
        .sum();
    eprintln!(
        "purge rerun: removed {}, already archived {}, may be duplicates {}; the archive: 0 \
         lost, {dup} twice",
        summary["removed"], summary["already_archived"], summary["may_be_duplicates"]
    );
    assert_eq!(lost, 0, "every removed dead letter is in the archive");
    assert!(
        dup as u64 <= said(&summary),
        "{dup} twice in the archive, the rerun said {summary}"
    );
}
