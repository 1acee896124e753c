//! `dead replay` and `dead purge --archive` when a node of a three-node cluster dies under
//! them, on a private cluster the tests start (`common::cluster`, of the test broker's
//! version): quorum `q` and `q.dead`, each led by a chosen node, tens of thousands of dead
//! letters, and kill -9 mid-run of the node queuey is connected to, of the leader of `q.dead`
//! (queuey connected elsewhere), and of the leader of `q` (likewise).
//!
//! queuey's rule (docs/cluster.md): a run whose connection dies stops with honest counts
//! (exit 4), and the same command run again through any node of the cluster finishes the
//! work: the journal belongs to the cluster, not to a node. A run whose connection survives
//! a leader's death goes on (the queue elects another leader within seconds). Each scenario
//! checks identities as multisets: after at most one rerun through another node, each job id
//! is in `q` exactly as many times as it was dead, and `q.dead` is empty.
//!
//! What each version does with the deliveries a killed node's consumers held (the rule the
//! tests state): on 4.3 they return to `q.dead` at once; on 3.10 they have been seen to stay
//! unacked for minutes, and a rerun then must say so (`held_elsewhere`, exit 3), never
//! succeed.

use std::collections::BTreeMap;
use std::path::Path;
use std::process::{Child, ExitStatus};
use std::time::{Duration, Instant};

use crate::common::cluster::Cluster;
use crate::common::node::Node;
use crate::common::{Queuey, eventually, json, poll};

/// Dead letters per scenario: enough that a kill at full speed lands mid-run.
const N: usize = 20_000;
/// The replay's --window.
const WINDOW: usize = 400;
/// The replay's --rate: slow enough that the test sees [`KILL_AT`] copies well before the
/// end (6.7 s for [`N`]) on a fast machine, where an unbounded replay of a cluster once ended
/// between two of the test's looks.
const RATE: usize = 3_000;
/// Copies (or archived lines) made before the kill.
const KILL_AT: usize = 4_000;

struct Fixture {
    q: String,
    dead: String,
    /// Each job id and how many times it is in q.dead.
    expected: BTreeMap<String, usize>,
    total: usize,
}

/// Quorum `q` led by node `q_leader` and `q.dead` led by node `dead_leader`, with [`N`] dead
/// letters bound for `q` (and ten identical twins).
fn fixture(cluster: &Cluster, label: &str, q_leader: usize, dead_leader: usize) -> Fixture {
    let q = crate::common::unique(label);
    let dead = format!("{q}.dead");
    cluster.declare_quorum(q_leader, &q);
    cluster.declare_quorum(dead_leader, &dead);
    let expected = cluster.fill_dead(dead_leader, &q, &dead, N, 10);
    let total = expected.values().sum();
    Fixture {
        q,
        dead,
        expected,
        total,
    }
}

/// After the last run: `q.dead` empty, each id in `q` at least as often as it was dead, and
/// the ids there more often no more than the reruns said may be duplicated (`said`).
fn assert_none_lost(cluster: &Cluster, n: usize, f: &Fixture, said: u64, what: &str) {
    let (in_dead, _) = cluster.counts(n, &f.dead);
    assert_eq!(in_dead, 0, "{what}: q.dead is empty");
    let found = cluster.drain(n, &f.q, f.total);
    let dup = crate::common::assert_ids_at_least(&found, &f.expected, "q", said, what);
    eprintln!("{what}: 0 lost, {dup} duplicated, {said} said possible");
}

/// Waits until `child` ends, at most `deadline`.
fn wait_child(child: &mut Child, deadline: Duration, what: &str) -> ExitStatus {
    eventually(what, deadline, || child.try_wait().expect("try_wait"))
}

/// Waits until `count()` reaches `at` while `child` runs; panics if the child ended first.
fn wait_until(child: &mut Child, at: usize, err: &Path, mut count: impl FnMut() -> usize) {
    eventually(
        &format!("{at} done before the kill"),
        Duration::from_secs(90),
        || {
            if count() >= at {
                return Some(());
            }
            if let Ok(Some(status)) = child.try_wait() {
                panic!(
                    "queuey ended ({status}) before {at} were done: {}",
                    std::fs::read_to_string(err).unwrap_or_default()
                );
            }
            None
        },
    );
    assert!(child.try_wait().expect("try_wait").is_none(), "mid-run");
}

/// What [`settle`] saw.
struct Settled {
    /// `q.dead` had no consumer and the same ready count twice in a row.
    done: bool,
    /// The looks it took, for a failure's message: the first, the last and how many.
    seen: String,
}

/// Waits until `q.dead` has no consumer and its ready count no longer moves, read through
/// node `n` (the broker returns a lost consumer's deliveries asynchronously), at most
/// `deadline`.
fn settle(cluster: &Cluster, n: usize, queue: &str, deadline: Duration) -> Settled {
    let start = Instant::now();
    let mut first = None;
    let mut last = None;
    let mut looks = 0;
    // Two reads 500 ms apart agreeing, with no consumer: nothing marks the end of a requeue.
    let done = poll(deadline, Duration::from_millis(500), || {
        let (ready, consumers) = cluster.counts(n, queue);
        looks += 1;
        first.get_or_insert((ready, consumers));
        let settled = consumers == 0 && last.map(|(r, _)| r) == Some(ready);
        last = Some((ready, consumers));
        settled
    });
    let show = |at: Option<(u32, u32)>| {
        at.map_or("-".to_owned(), |(r, c)| format!("{r} ready, {c} consumers"))
    };
    Settled {
        done,
        seen: format!(
            "{looks} looks in {:.1}s via node {n}: first {}, last {}",
            start.elapsed().as_secs_f64(),
            show(first),
            show(last)
        ),
    }
}

/// One scenario of a node lost mid-replay: `q` led by `q_leader`, `q.dead` by `dead_leader`,
/// queuey connected to `connected`, node `killed` killed after [`KILL_AT`] copies; then the
/// rerun through `rerun_via` while the killed node is still down, and the node back.
fn replay_losing_a_node(
    cluster: &Cluster,
    label: &str,
    (q_leader, dead_leader): (usize, usize),
    connected: usize,
    killed: usize,
    rerun_via: usize,
) {
    assert_ne!(rerun_via, killed);
    let f = fixture(cluster, label, q_leader, dead_leader);
    let dir = tempfile::tempdir().expect("tempdir");
    let err_path = dir.path().join("stderr-1");
    let mut child = Queuey::on_node(dir.path(), cluster.node(connected))
        .process()
        .args(["dead", "replay", &f.q, "--window", &WINDOW.to_string()])
        .args(["--rate", &RATE.to_string()])
        .stdout(std::fs::File::create(dir.path().join("stdout-1")).expect("stdout"))
        .stderr(std::fs::File::create(&err_path).expect("stderr"))
        .spawn()
        .expect("queuey starts");
    let watch = rerun_via;
    wait_until(&mut child, KILL_AT, &err_path, || {
        cluster.counts(watch, &f.q).0 as usize
    });
    let killed_at = Instant::now();
    cluster.kill(killed);
    let status = wait_child(&mut child, Duration::from_secs(180), "queuey to end");
    let took = killed_at.elapsed();
    let err = std::fs::read_to_string(&err_path).unwrap_or_default();
    eprintln!(
        "{label}: node {killed} killed; queuey (via node {connected}) ended {:.1}s later with \
         {status}: {}",
        took.as_secs_f64(),
        err.trim()
    );
    match status.code() {
        // The run went on through the leader's death and finished: already exactly once?
        Some(0) => {}
        // Its connection died with the node: it stopped with the counts it knows.
        Some(4) => assert!(err.contains("copied and confirmed"), "{err}"),
        other => panic!("{label}: queuey exited {other:?}: {err}"),
    }
    let settled = settle(cluster, rerun_via, &f.dead, Duration::from_secs(10));
    let in_q = cluster.counts(rerun_via, &f.q).0;
    eprintln!(
        "{label}: before the rerun (node {killed} down): q.dead settled: {} ({}); q {in_q}",
        settled.done, settled.seen
    );
    // The rerun through another node, with the killed node still down: it finishes, or it
    // names the dead letters the dead node's consumer still holds (exit 3), never success
    // with some left behind.
    // As an operator gives a cluster: every node's address, in order, the killed one among
    // them (skipped: it does not answer), unless the scenario names the node to rerun through.
    let (first, mut said) = if killed == connected {
        rerun(cluster, Via::All(rerun_via), dir.path(), &f, label)
    } else {
        rerun(cluster, Via::Node(rerun_via), dir.path(), &f, label)
    };
    let down_for = killed_at.elapsed();
    cluster.bring_back(killed);
    let back = Instant::now();
    let settled = settle(cluster, rerun_via, &f.dead, Duration::from_secs(120));
    eprintln!(
        "{label}: node {killed} back after {:.0}s down; q.dead settled {:.1}s later: {} ({})",
        down_for.as_secs_f64(),
        back.elapsed().as_secs_f64(),
        settled.done,
        settled.seen
    );
    if first == Some(3) {
        // What was held came back with the node: one rerun, through any node, finishes.
        let (again, more) = rerun(cluster, Via::Node(rerun_via), dir.path(), &f, label);
        said += more;
        assert_eq!(
            again,
            Some(0),
            "{label}: the rerun after the node came back"
        );
    }
    assert_none_lost(cluster, rerun_via, &f, said, label);
}

/// Which addresses a rerun is given.
#[derive(Clone, Copy, Debug)]
enum Via {
    /// One node's AMQP and API addresses.
    Node(usize),
    /// Every node's, node 1 first (`QUEUEY_URL` and `QUEUEY_API_URL` lists): the run must
    /// connect to this node, the first that answers.
    All(usize),
}

/// `dead replay` of `f` through `via`, in `dir`, looking in `q` for the copies in doubt: its
/// exit code and what it said may be duplicated, after checking that a run that leaves dead
/// letters held by another consumer says so (exit 3, `held_elsewhere`) and a successful one
/// left none.
fn rerun(cluster: &Cluster, via: Via, dir: &Path, f: &Fixture, label: &str) -> (Option<i32>, u64) {
    let mut cmd = match via {
        Via::Node(n) => Queuey::on_node(dir, cluster.node(n)).process(),
        Via::All(_) => {
            let apis: Vec<String> = cluster.nodes.iter().map(Node::api_url).collect();
            let mut cmd = Queuey::in_dir(dir).process();
            cmd.env("QUEUEY_URL", cluster.urls().join(","))
                .env("QUEUEY_API_URL", apis.join(","));
            cmd
        }
    };
    let out = cmd
        .args(["dead", "replay", &f.q, "-o", "json", "--look-in-targets"])
        .output()
        .expect("queuey runs");
    let err = String::from_utf8_lossy(&out.stderr).into_owned();
    let summary = json(&out);
    if let Via::All(n) = via {
        let expected = cluster.node(n).url().replace("guest:guest", "guest:***");
        assert!(
            summary["connected_to"]
                .as_str()
                .is_some_and(|at| at.eq_ignore_ascii_case(&expected)),
            "{label}: the rerun given every address connects to node {n}, the first that \
             answers ({expected}): {summary} {err}"
        );
    }
    eprintln!(
        "{label}: rerun via {via:?}: exit {:?}; moved {}, already copied {}, held elsewhere {}",
        out.status.code(),
        summary["moved"],
        summary["already_copied"],
        summary["held_elsewhere"]
    );
    match out.status.code() {
        Some(0) => assert!(summary["held_elsewhere"].is_null(), "{summary}"),
        Some(3) => {
            // How many, when the management API's statistics (seconds old) count them; else
            // the consumers that may hold them.
            let held = &summary["held_elsewhere"];
            assert!(
                held["messages"].as_u64() > Some(0)
                    || (held["messages"].is_null() && held["consumers"].as_u64() > Some(0)),
                "{label}: exit 3 names what is held elsewhere: {summary}"
            );
            assert!(
                err.contains("held unacknowledged by") || err.contains("may have missed some"),
                "{err}"
            );
        }
        other => panic!("{label}: the rerun exited {other:?}: {err}"),
    }
    (
        out.status.code(),
        summary["may_be_duplicates"].as_u64().unwrap_or(0),
    )
}

#[test]
fn a_node_lost_mid_replay_then_a_rerun_through_another_node_loses_none() {
    let _lock = Node::lock();
    let started = Instant::now();
    let cluster = Cluster::start();
    // The node queuey is connected to, which leads q and q.dead.
    replay_losing_a_node(&cluster, "lose-connected", (1, 1), 1, 1, 2);
    // The leader of q.dead; queuey connected to node 2.
    replay_losing_a_node(&cluster, "lose-dead-leader", (3, 1), 2, 1, 3);
    // The leader of q; queuey connected to node 2.
    replay_losing_a_node(&cluster, "lose-q-leader", (1, 3), 2, 1, 3);
    eprintln!(
        "a node lost mid-replay, three scenarios: {:.0}s",
        started.elapsed().as_secs_f64()
    );
}

/// One scenario of a node lost mid-purge: `dead purge --archive` (filtered, so that every
/// dead letter is read and archived) of a `q.dead` led by `dead_leader`, queuey connected to
/// `connected`, node `killed` killed after [`KILL_AT`] archived; the rerun (the same command,
/// the same archive) through `rerun_via` once the node is back. Every dead letter is then in
/// the archive, twice at most where the rerun said so (acks the dead node may have lost), and
/// `q.dead` is empty.
fn purge_losing_a_node(
    cluster: &Cluster,
    label: &str,
    dead_leader: usize,
    connected: usize,
    killed: usize,
    rerun_via: usize,
) {
    let f = fixture(cluster, label, dead_leader, dead_leader);
    let dir = tempfile::tempdir().expect("tempdir");
    let archive = dir.path().join("archive.jsonl");
    let lines = |p: &Path| {
        std::fs::read_to_string(p)
            .unwrap_or_default()
            .lines()
            .count()
    };
    let purge = |n: usize| {
        let mut cmd = Queuey::on_node(dir.path(), cluster.node(n)).process();
        cmd.args(["dead", "purge", &f.q, "--yes", "--original-queue", &f.q])
            .args(["--archive", archive.to_str().expect("utf-8 path")]);
        cmd
    };
    let err_path = dir.path().join("stderr-1");
    let mut child = purge(connected)
        .stdout(std::process::Stdio::null())
        .stderr(std::fs::File::create(&err_path).expect("stderr"))
        .spawn()
        .expect("queuey starts");
    wait_until(&mut child, KILL_AT, &err_path, || lines(&archive));
    let killed_at = Instant::now();
    cluster.kill(killed);
    let status = wait_child(&mut child, Duration::from_secs(180), "queuey to end");
    let err = std::fs::read_to_string(&err_path).unwrap_or_default();
    eprintln!(
        "{label}: node {killed} killed; purge (via node {connected}) ended {:.1}s later with \
         {status}, {} archived: {}",
        killed_at.elapsed().as_secs_f64(),
        lines(&archive),
        err.trim()
    );
    match status.code() {
        Some(0) => {}
        Some(4) => assert!(err.contains("archived "), "{err}"),
        other => panic!("{label}: queuey exited {other:?}: {err}"),
    }
    cluster.bring_back(killed);
    let settled = settle(cluster, rerun_via, &f.dead, Duration::from_secs(120));
    assert!(
        settled.done,
        "{label}: q.dead settles once the node is back: {}",
        settled.seen
    );
    let mut said = 0;
    if status.code() != Some(0) {
        let out = purge(rerun_via)
            .args(["-o", "json"])
            .output()
            .expect("queuey runs");
        let summary = json(&out);
        assert_eq!(
            out.status.code(),
            Some(0),
            "{label}: {}",
            String::from_utf8_lossy(&out.stderr)
        );
        eprintln!(
            "{label}: rerun via node {rerun_via}: removed {}, already archived {}, may be \
             duplicates {}",
            summary["removed"], summary["already_archived"], summary["may_be_duplicates"]
        );
        said = summary["may_be_duplicates"].as_u64().unwrap_or(0);
    }
    assert_eq!(cluster.counts(rerun_via, &f.dead).0, 0, "q.dead is empty");
    let mut found: BTreeMap<String, usize> = BTreeMap::new();
    for line in std::fs::read_to_string(&archive).expect("archive").lines() {
        let j: serde_json::Value = serde_json::from_str(line).expect("a JSON line");
        // The archive's end line (a finished run's) is no dead letter.
        if j["format"] == "queuey.dead-letter.v1.end" {
            assert_eq!(j["finished"], true, "{line}");
            continue;
        }
        let id = j["properties"]["message_id"].as_str().unwrap_or_default();
        *found.entry(id.to_owned()).or_insert(0) += 1;
    }
    let dup = crate::common::assert_ids_at_least(&found, &f.expected, "the archive", said, label);
    eprintln!("{label}: each dead letter archived, {dup} twice ({said} said possible)");
}

/// The harness's cluster was never given a name (`rabbitmqctl set_cluster_name`), the default
/// of most clusters. The rule on 3.10.8 and 4.3.6 alike: each node then gives its own node name
/// as the cluster's name, in `connection.start` and in `/api/overview`. queuey reads the API's
/// node list before it calls two names two clusters: the three addresses in one `--url` are one
/// cluster to `ping` (exit 0, the nodes listed), AMQP on node 1 with the API of node 2 is one
/// broker to every command (`dead ls` reads, exit 0), and a node of this cluster listed with
/// the test broker is still two clusters (exit 6, both named).
fn addresses_of_a_cluster_never_named(cluster: &Cluster) {
    let dir = tempfile::tempdir().expect("a temporary directory");
    let names: Vec<String> = cluster.nodes.iter().map(|n| n.name.clone()).collect();
    let urls = cluster.urls().join(",");
    let out = Queuey::in_dir(dir.path())
        .args(["ping", "-o", "json", "--url", &urls])
        .args(["--api-url", &cluster.node(2).api_url()])
        .run();
    assert_eq!(
        out.status.code(),
        Some(0),
        "ping over the three nodes: {} {}",
        out.stdout,
        out.stderr
    );
    let doc = json(&out);
    // Each node answers with its own name as the cluster's.
    let given: Vec<&str> = doc["addresses"]
        .as_array()
        .expect("addresses")
        .iter()
        .map(|a| a["cluster_name"].as_str().unwrap_or("?"))
        .collect();
    let own: Vec<String> = names.iter().map(|n| n.replace("@localhost", "@")).collect();
    for (i, (given, own)) in given.iter().zip(&own).enumerate() {
        assert!(
            given.starts_with(own.as_str()),
            "node {}: a cluster never named gives the node's own name ({own}...), not {given}",
            i + 1
        );
    }
    assert_eq!(doc["one_broker"], "same", "{doc:#}");
    let mut listed: Vec<String> = doc["cluster_nodes"]
        .as_array()
        .expect("cluster_nodes, the API's node list")
        .iter()
        .filter_map(|n| n.as_str().map(str::to_owned))
        .collect();
    listed.sort();
    assert_eq!(listed.len(), 3, "the three nodes: {listed:?}");
    for (listed, own) in listed.iter().zip(&own) {
        assert!(listed.starts_with(own.as_str()), "{listed} is {own}...");
    }

    // AMQP on node 1, the API of node 2: one broker to a command that reads the API.
    let q = crate::common::unique("unnamed");
    let dead = format!("{q}.dead");
    cluster.declare_quorum(1, &q);
    cluster.declare_quorum(2, &dead);
    cluster.fill_dead(2, &q, &dead, 5, 0);
    let out = Queuey::in_dir(dir.path())
        .args([
            "dead",
            "ls",
            &q,
            "-o",
            "json",
            "--url",
            &cluster.node(1).url(),
        ])
        .args(["--api-url", &cluster.node(2).api_url()])
        .run();
    assert_eq!(
        out.status.code(),
        Some(0),
        "dead ls, AMQP on node 1 and the API of node 2: {}",
        out.stderr
    );

    // A node of this cluster and the test broker: two clusters, whatever the names.
    let two = format!("{},{}", cluster.node(1).url(), crate::common::test_url());
    let out = Queuey::in_dir(dir.path())
        .args([
            "ping",
            "--url",
            &two,
            "--api-url",
            &cluster.node(1).api_url(),
        ])
        .run();
    let err = out.stderr.as_str();
    assert_eq!(out.status.code(), Some(6), "two clusters: {err}");
    assert!(err.contains("2 clusters"), "{err}");
}

#[test]
fn a_node_lost_mid_purge_then_a_rerun_through_another_node_archives_each_at_least_once() {
    let _lock = Node::lock();
    let started = Instant::now();
    let cluster = Cluster::start();
    addresses_of_a_cluster_never_named(&cluster);
    purge_losing_a_node(&cluster, "purge-lose-connected", 1, 1, 1, 2);
    purge_losing_a_node(&cluster, "purge-lose-dead-leader", 1, 2, 1, 3);
    eprintln!(
        "a node lost mid-purge, two scenarios: {:.0}s",
        started.elapsed().as_secs_f64()
    );
}
