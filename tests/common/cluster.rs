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

use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

use super::node::{Node, SLOTS};

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
        let names: Vec<&str> = self.nodes.iter().map(|n| n.name.as_str()).collect();
        let start = Instant::now();
        loop {
            let all = self.nodes.iter().all(|node| {
                api_get(node, "nodes").is_some_and(|doc| {
                    names.iter().all(|name| {
                        doc.as_array().into_iter().flatten().any(|n| {
                            n["name"].as_str() == Some(name) && n["running"].as_bool() == Some(true)
                        })
                    })
                })
            });
            if all {
                return;
            }
            assert!(
                start.elapsed() < deadline,
                "the private cluster did not list {names:?} as running within {deadline:?}"
            );
            std::thread::sleep(Duration::from_millis(500));
        }
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
        let start = Instant::now();
        loop {
            if let Some(q) = self.queue(name) {
                let online = q["online"].as_array().map_or(0, Vec::len);
                if online == self.nodes.len() {
                    let led_by = self.leader_of(name);
                    assert_eq!(
                        led_by, leader,
                        "{name} declared through node {leader} is led by node {led_by}"
                    );
                    return;
                }
            }
            assert!(
                start.elapsed() < Duration::from_secs(60),
                "{name} did not have {} members online within 60 s: {:?}",
                self.nodes.len(),
                self.queue(name)
            );
            std::thread::sleep(Duration::from_millis(300));
        }
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

    /// Starts node `n` again on its data, and waits until the cluster runs it again.
    pub fn bring_back(&self, n: usize) {
        self.node(n).restart();
        self.wait_running(Duration::from_secs(120));
    }

    /// Every node's AMQP URL, node 1 first.
    pub fn urls(&self) -> Vec<String> {
        self.nodes.iter().map(Node::url).collect()
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
