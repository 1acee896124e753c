//! A private three-node RabbitMQ cluster that a test starts, breaks and stops.
//!
//! Production runs RabbitMQ as a cluster with quorum queues; what queuey promises must hold
//! when one node dies under it. A [`Cluster`] is the three private nodes of slots 1, 2 and 3
//! ([`Node`]: `qtest1@localhost`... on AMQP 5682-5684, API 15682-15684, distribution
//! 25682-25684), fresh, of the test broker's version (the machine's packages for 3.x, the 4.x
//! root for 4.x: each install's nodes share one Erlang cookie, so they can cluster), joined to
//! node 1 and running when [`Cluster::start`] returns.
//!
//! - [`Cluster::declare_quorum`] declares a durable quorum queue through a chosen node, which
//!   then leads it (the default leader locator is `client-local` on 3.10 and 4.x); it returns
//!   once the API shows that leader and all three members online.
//! - [`Cluster::leader_of`] reads a queue's leader from the API; [`Cluster::kill`] is kill -9
//!   of a node's VM, [`Cluster::bring_back`] starts it again on its data and waits until the
//!   cluster has it running again.
//! - Dropping the cluster kills every node (their data is thrown away anyway) and removes
//!   their directories, whether the test passed or panicked.
//!
//! A test takes [`Node::lock`] before [`Cluster::start`]: the faults of one test never hit
//! another's nodes.

use std::collections::BTreeMap;
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

use lapin::BasicProperties;
use lapin::options::{BasicConsumeOptions, ConfirmSelectOptions};
use lapin::types::{AMQPValue, FieldTable};

use super::node::{Node, SLOTS};
use super::{Broker, long_str, poll, table};

/// Three private nodes, one cluster. `nodes[0]` is node 1 (slot 1), which the others joined.
pub struct Cluster {
    pub nodes: Vec<Node>,
}

impl Cluster {
    /// Starts the three nodes afresh (in parallel: about as long as one on 2 CPUs), joins 2
    /// and 3 to 1, and waits until every node's API lists three running nodes.
    pub fn start() -> Cluster {
        let started = Instant::now();
        let mut nodes: Vec<Node> = std::thread::scope(|s| {
            let handles: Vec<_> = (1..=SLOTS)
                .map(|slot| s.spawn(move || Node::start(slot)))
                .collect();
            handles
                .into_iter()
                .map(|h| h.join().expect("a private node starts"))
                .collect()
        });
        nodes.sort_by_key(|n| n.amqp_port);
        let cluster = Cluster { nodes };
        for node in &cluster.nodes[1..] {
            node.join(&cluster.nodes[0]);
        }
        cluster.wait_running(Duration::from_secs(120));
        eprintln!(
            "private cluster of {} nodes up in {:.1}s: RabbitMQ {}",
            cluster.nodes.len(),
            started.elapsed().as_secs_f64(),
            cluster.nodes[0].version()
        );
        cluster
    }

    /// Node `n` (1, 2 or 3).
    pub fn node(&self, n: usize) -> &Node {
        &self.nodes[n - 1]
    }

    /// The number (1-3) of the node called `name` (`qtest2@localhost`).
    pub fn number_of(&self, name: &str) -> usize {
        self.nodes
            .iter()
            .position(|n| n.name == name)
            .map(|i| i + 1)
            .unwrap_or_else(|| panic!("{name} is not a node of the private cluster"))
    }

    /// The nodes other than `n`.
    pub fn others(&self, n: usize) -> Vec<usize> {
        (1..=self.nodes.len()).filter(|&m| m != n).collect()
    }

    /// Waits until every node's API lists every node of the cluster as running.
    pub fn wait_running(&self, deadline: Duration) {
        let all: Vec<usize> = (1..=self.nodes.len()).collect();
        self.wait_running_of(&all, deadline);
    }

    /// Waits until the API of each node of `which` lists each of them as running.
    fn wait_running_of(&self, which: &[usize], deadline: Duration) {
        let names: Vec<&str> = which.iter().map(|&n| self.node(n).name.as_str()).collect();
        let all_running = poll(deadline, Duration::from_millis(500), || {
            which.iter().all(|&n| {
                api_get(self.node(n), "nodes").is_some_and(|doc| {
                    names.iter().all(|name| {
                        doc.as_array().into_iter().flatten().any(|n| {
                            n["name"].as_str() == Some(name) && n["running"].as_bool() == Some(true)
                        })
                    })
                })
            })
        });
        assert!(
            all_running,
            "the private cluster did not list {names:?} as running within {deadline:?}"
        );
    }

    /// Declares a durable quorum queue `name` through node `leader`, which leads it, and waits
    /// until the API shows that leader and every member online.
    pub fn declare_quorum(&self, leader: usize, name: &str) {
        let node = self.node(leader);
        let out = curl()
            .args(["-X", "PUT", "-H", "content-type: application/json"])
            .args([
                "-d",
                r#"{"durable":true,"auto_delete":false,"arguments":{"x-queue-type":"quorum"}}"#,
            ])
            .arg(queue_url(node, name))
            .output()
            .expect("curl runs");
        assert!(
            out.status.success(),
            "declaring the quorum queue {name} through {}: {}",
            node.name,
            String::from_utf8_lossy(&out.stderr)
        );
        let all_online = poll(Duration::from_secs(60), Duration::from_millis(300), || {
            self.queue(name)
                .is_some_and(|q| q["online"].as_array().map_or(0, Vec::len) == self.nodes.len())
        });
        assert!(
            all_online,
            "{name} did not have {} members online within 60 s: {:?}",
            self.nodes.len(),
            self.queue(name)
        );
        let led_by = self.leader_of(name);
        assert_eq!(
            led_by, leader,
            "{name} declared through node {leader} is led by node {led_by}"
        );
    }

    /// The number of the node that leads the quorum queue `name`, from the API.
    pub fn leader_of(&self, name: &str) -> usize {
        let q = self
            .queue(name)
            .unwrap_or_else(|| panic!("the queue {name} in the private cluster"));
        let leader = q["leader"]
            .as_str()
            .or_else(|| q["node"].as_str())
            .unwrap_or_else(|| panic!("no leader in the API's {name}: {q}"));
        self.number_of(leader)
    }

    /// The queue `name` as the first answering node's API shows it, or `None`.
    pub fn queue(&self, name: &str) -> Option<serde_json::Value> {
        self.nodes
            .iter()
            .find_map(|node| api_get_raw(node, &queue_path(name)).ok())
            .flatten()
    }

    /// kill -9 of node `n`'s VM.
    pub fn kill(&self, n: usize) {
        self.node(n).kill_vm();
    }

    /// Starts node `n` again on its data, and waits until it and the other nodes that run
    /// list each other as running.
    pub fn bring_back(&self, n: usize) {
        self.node(n).restart();
        let up: Vec<usize> = (1..=self.nodes.len())
            .filter(|&m| m == n || self.node(m).is_running())
            .collect();
        self.wait_running_of(&up, Duration::from_secs(120));
    }

    /// Freezes node `n`'s VM (SIGSTOP), as a long pause or a hung host does: its connections
    /// stay open, it answers nothing, and the others notice only after the distribution's
    /// tick time (about a minute).
    pub fn freeze(&self, n: usize) {
        self.node(n).signal("-STOP");
    }

    /// Lets a frozen node run again (SIGCONT).
    pub fn thaw(&self, n: usize) {
        self.node(n).signal("-CONT");
    }

    /// Every node's AMQP URL, node 1 first.
    pub fn urls(&self) -> Vec<String> {
        self.nodes.iter().map(Node::url).collect()
    }
}

impl Cluster {
    /// Publishes `n` dead letters bound for `q` (`x-original-queue`) into `dead` through node
    /// `via`, confirmed, ids `job-000000`... and `twins` identical twins of the first ones;
    /// returns each id and how many times it was published.
    pub fn fill_dead(
        &self,
        via: usize,
        q: &str,
        dead: &str,
        n: usize,
        twins: usize,
    ) -> BTreeMap<String, usize> {
        let broker = Broker::connect_node(self.node(via));
        let mut expected = BTreeMap::new();
        let ch = broker.channel();
        broker.rt.block_on(async {
            ch.confirm_select(ConfirmSelectOptions::default())
                .await
                .expect("confirm.select");
            let mut confirms = Vec::new();
            for i in (0..n).chain(0..twins.min(n)) {
                let id = format!("job-{i:06}");
                let body = format!("{{\"job_id\":\"{id}\",\"n\":{i}}}");
                let props = BasicProperties::default()
                    .with_message_id(id.as_str().into())
                    .with_delivery_mode(2)
                    .with_content_type("application/json".into())
                    .with_headers(table(vec![
                        ("x-original-queue", long_str(q)),
                        ("x-death-reason", long_str("fatal error: test")),
                        ("x-attempts", AMQPValue::LongInt(3)),
                    ]));
                confirms.push(
                    ch.basic_publish(
                        "".into(),
                        dead.into(),
                        Default::default(),
                        body.as_bytes(),
                        props,
                    )
                    .await
                    .expect("publish"),
                );
                *expected.entry(id).or_insert(0) += 1;
                if confirms.len() >= 2000 {
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
        expected
    }

    /// (ready, consumers) of `queue` as seen through node `n`, by passive declare (exact).
    pub fn counts(&self, n: usize, queue: &str) -> (u32, u32) {
        Broker::connect_node(self.node(n)).ready_and_consumers(queue)
    }

    /// Each job id in `queue` and how many times, taking every message out through node `n` (a
    /// consumer without acks; the end of a scenario).
    pub fn drain(&self, n: usize, queue: &str, expect: usize) -> BTreeMap<String, usize> {
        use futures_util::StreamExt;
        let broker = Broker::connect_node(self.node(n));
        let ch = broker.channel();
        broker.rt.block_on(async {
            let mut consumer = ch
                .basic_consume(
                    queue.into(),
                    "drain".into(),
                    BasicConsumeOptions {
                        no_ack: true,
                        ..BasicConsumeOptions::default()
                    },
                    FieldTable::default(),
                )
                .await
                .expect("basic.consume");
            let mut out = BTreeMap::new();
            let mut seen = 0;
            loop {
                // Past the expected count, wait a little for a duplicate to show itself.
                let wait = if seen >= expect { 1_500 } else { 20_000 };
                match tokio::time::timeout(Duration::from_millis(wait), consumer.next()).await {
                    Ok(Some(Ok(d))) => {
                        let id = d
                            .properties
                            .message_id()
                            .as_ref()
                            .map(|s| s.to_string())
                            .unwrap_or_default();
                        *out.entry(id).or_insert(0) += 1;
                        seen += 1;
                    }
                    Ok(Some(Err(e))) => panic!("draining {queue}: {e}"),
                    Ok(None) | Err(_) => break,
                }
            }
            out
        })
    }
}

impl Drop for Cluster {
    fn drop(&mut self) {
        // Their data goes with them: no orderly stop needed, and a stop waits for quorum
        // queues that have lost their majority.
        for node in &self.nodes {
            node.kill_vm_if_running();
        }
    }
}

fn curl() -> Command {
    let mut cmd = Command::new("curl");
    cmd.args(["-sS", "-m", "10", "-u", "guest:guest"])
        .stdin(Stdio::null());
    cmd
}

fn queue_path(name: &str) -> String {
    let enc =
        percent_encoding::utf8_percent_encode(name, percent_encoding::NON_ALPHANUMERIC).to_string();
    format!("queues/%2F/{enc}")
}

fn queue_url(node: &Node, name: &str) -> String {
    format!("{}/api/{}", node.api_url(), queue_path(name))
}

/// `GET /api/{path}` of `node`: `None` when it does not answer or answers other than 200.
fn api_get(node: &Node, path: &str) -> Option<serde_json::Value> {
    api_get_raw(node, path).ok().flatten()
}

/// `GET /api/{path}` of `node`: `Ok(None)` on 404, `Err` when it does not answer.
fn api_get_raw(node: &Node, path: &str) -> Result<Option<serde_json::Value>, ()> {
    let out = curl()
        .args(["-w", "\n%{http_code}"])
        .arg(format!("{}/api/{path}", node.api_url()))
        .output()
        .map_err(|_| ())?;
    let text = String::from_utf8_lossy(&out.stdout);
    let (body, code) = text.rsplit_once('\n').ok_or(())?;
    match code.trim() {
        "200" => serde_json::from_str(body).map(Some).map_err(|_| ()),
        "404" => Ok(None),
        _ => Err(()),
    }
}
