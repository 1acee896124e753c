//! The one harness every test uses.
//!
//! - [`Queuey`] runs every command (the one front door, in [`queuey`]): a clean environment (no
//!   stray `QUEUEY_*`), a fresh empty working directory (no stray `queuey.toml`), and the test
//!   broker's URLs; its [`Run`] is the exit status, stdout and stderr, and stdout read as JSON.
//! - [`Broker`] is a live connection to the test broker (AMQP through lapin, the management API
//!   through `rabbitmq_http_client`). It hands out unique, namespaced queue names and deletes
//!   every queue, vhost and user it made when dropped. There is no skipping: without a broker,
//!   [`Broker::connect`] panics with the README's line that starts one ([`START_TEST_BROKER`]),
//!   at once in every test once the first found that nothing answers, so CI fails loudly and a
//!   fresh machine is told what to run.
//! - [`eventually`], [`wait_until`] and [`settled`] poll with a deadline instead of sleeping
//!   (all through [`poll`]).
//! - [`app`] is a small application on the real `queuey` library (producer, worker, handlers
//!   for every dead-letter cause), one per test on a queue of its own.
//!
//! - [`rabbitmq`] knows the test broker's version and runs its own `rabbitmqctl`;
//!   [`node`] starts private nodes of that version for the fault tests, [`cluster`] three of
//!   them as one cluster.
//!
//! The broker is taken from `QUEUEY_TEST_URL` (default `amqp://guest:guest@127.0.0.1:5672/%2f`)
//! and `QUEUEY_TEST_API_URL` (default `http://127.0.0.1:15672`).
//!
//! Three test binaries include it (`offline`, `live`, `nodes`), each using a part of it: `offline`
//! runs commands only, `live` never starts a node, `nodes` uses little of `Broker`. Hence the
//! `allow(dead_code)`: without it each would warn of what the others use.
#![allow(dead_code)]

pub mod app;
pub mod cluster;
pub mod fixtures;
pub mod node;
pub mod queuey;
pub mod rabbitmq;
pub mod tls;

use std::cell::RefCell;

use std::process::Output;
use std::sync::atomic::{AtomicU64, Ordering};
use std::time::{Duration, Instant};

use lapin::options::{BasicPublishOptions, ConfirmSelectOptions, QueueDeclareOptions};
use lapin::types::{AMQPValue, FieldTable, LongString, ShortString};
use lapin::{BasicProperties, Channel, Connection, ConnectionProperties};
use rabbitmq_http_client::api::Client as ApiClient;

pub use queuey::{Queuey, Run, Said};

pub const DEFAULT_TEST_URL: &str = "amqp://guest:guest@127.0.0.1:5672/%2f";
pub const DEFAULT_TEST_API_URL: &str = "http://127.0.0.1:15672";

pub fn test_url() -> String {
    std::env::var("QUEUEY_TEST_URL").unwrap_or_else(|_| DEFAULT_TEST_URL.to_owned())
}

pub fn test_api_url() -> String {
    std::env::var("QUEUEY_TEST_API_URL").unwrap_or_else(|_| DEFAULT_TEST_API_URL.to_owned())
}

/// The AMQP URL of `vhost` on the test broker, as `user:password`.
pub fn url_for(vhost: &str, user: &str, password: &str) -> String {
    let base = url::Url::parse(&test_url()).expect("QUEUEY_TEST_URL is a URL");
    let enc = |s: &str| {
        percent_encoding::utf8_percent_encode(s, percent_encoding::NON_ALPHANUMERIC).to_string()
    };
    format!(
        "amqp://{}:{}@{}:{}/{}",
        enc(user),
        enc(password),
        base.host_str().unwrap_or("127.0.0.1"),
        base.port().unwrap_or(5672),
        enc(vhost)
    )
}

/// Reads `condition` every `interval` until it holds (true) or `deadline` has passed (false):
/// the one loop every wait of the harness goes through, so that none waits out a fixed time.
pub fn poll(deadline: Duration, interval: Duration, mut condition: impl FnMut() -> bool) -> bool {
    let start = Instant::now();
    loop {
        if condition() {
            return true;
        }
        if start.elapsed() > deadline {
            return false;
        }
        // The interval between two reads of the condition, not a wait for it.
        std::thread::sleep(interval);
    }
}

/// Polls `check` until it returns `Some`, or panics after `deadline` naming `what`.
pub fn eventually<T>(what: &str, deadline: Duration, mut check: impl FnMut() -> Option<T>) -> T {
    let mut found = None;
    poll(deadline, Duration::from_millis(100), || {
        found = check();
        found.is_some()
    });
    found.unwrap_or_else(|| panic!("timed out after {deadline:?} waiting for {what}"))
}

/// Polls `condition` until it holds, or panics after `deadline` naming `what`: [`eventually`]
/// for a yes or no.
pub fn wait_until(what: &str, deadline: Duration, mut condition: impl FnMut() -> bool) {
    eventually(what, deadline, || condition().then_some(()))
}

/// Waits until a queue the broker is returning deliveries to has them all back, and returns
/// its ready count: `read` gives its (ready, consumers), and the queue is settled when it has
/// no consumer left, two reads `apart` from each other agree, and `enough(ready)` holds.
/// Nothing marks the end of a requeue (the broker requeues asynchronously, and a closed
/// channel's consumer may go before its last delivery is counted): the count holding still
/// over `apart` is the only sign. Panics naming `what` after `deadline`.
pub fn settled(
    what: &str,
    deadline: Duration,
    apart: Duration,
    mut read: impl FnMut() -> (u32, u32),
    mut enough: impl FnMut(u32) -> bool,
) -> u32 {
    let mut last = None;
    let mut ready_now = 0;
    let done = poll(deadline, apart, || {
        let (ready, consumers) = read();
        let same = last == Some(ready);
        last = Some(ready);
        ready_now = ready;
        consumers == 0 && same && enough(ready)
    });
    assert!(
        done,
        "timed out after {deadline:?} waiting for {what} (last read: {ready_now} ready)"
    );
    ready_now
}

static COUNTER: AtomicU64 = AtomicU64::new(0);

/// Sends SIGKILL to `child` (`what` it runs), which must still be running, or the test would
/// prove nothing, and checks that the signal is what ended it.
pub fn kill_mid_run(child: &mut std::process::Child, what: &str) {
    assert!(
        child.try_wait().expect("the child's status").is_none(),
        "{what} ended before it could be killed"
    );
    child.kill().expect("kill -9");
    let status = child.wait().expect("wait for the killed child");
    assert_eq!(
        std::os::unix::process::ExitStatusExt::signal(&status),
        Some(9),
        "{what} ended by SIGKILL: {status:?}"
    );
}

/// A name no other test run will use: `qy-test.<pid>.<n>.<label>`.
pub fn unique(label: &str) -> String {
    let n = COUNTER.fetch_add(1, Ordering::Relaxed);
    format!("qy-test.{}.{n}.{label}", std::process::id())
}

/// A live connection to the test broker that cleans up after itself.
pub struct Broker {
    pub rt: tokio::runtime::Runtime,
    pub conn: Connection,
    /// The AMQP URL this broker connection uses (its vhost, the test user).
    pub url: String,
    pub api: ApiClient<String, String, String>,
    pub vhost: String,
    /// The management API's base URL and the user `api_get` asks as.
    api_base: String,
    api_auth: (String, String),
    queues: RefCell<Vec<(String, String)>>,
    vhosts: RefCell<Vec<String>>,
    users: RefCell<Vec<String>>,
    /// (vhost, name, operator policy?)
    policies: RefCell<Vec<(String, String, bool)>>,
}

impl Broker {
    /// Connects to the test broker's default vhost, or panics with how to start one.
    pub fn connect() -> Broker {
        Broker::connect_to(&test_url())
    }

    pub fn connect_to(url: &str) -> Broker {
        require_test_broker(url);
        let test: lapin::uri::AMQPUri = test_url().parse().expect("a valid AMQP URL");
        let auth = test.authority.userinfo;
        Broker::connect_with(url, &test_api_url(), (auth.username, auth.password))
    }

    /// Connects to a private node started by the test (see [`node`]).
    pub fn connect_node(node: &node::Node) -> Broker {
        Broker::connect_with(
            &node.url(),
            &node.api_url(),
            ("guest".to_owned(), "guest".to_owned()),
        )
    }

    fn connect_with(url: &str, api_url: &str, api_auth: (String, String)) -> Broker {
        let rt = tokio::runtime::Builder::new_multi_thread()
            .worker_threads(2)
            .enable_all()
            .build()
            .expect("a tokio runtime");
        let uri: lapin::uri::AMQPUri = url.parse().expect("a valid AMQP URL");
        let vhost = uri.vhost.clone();
        let conn = rt
            .block_on(async {
                tokio::time::timeout(
                    Duration::from_secs(10),
                    Connection::connect(
                        url,
                        ConnectionProperties::default()
                            .with_connection_name("queuey test harness".into()),
                    ),
                )
                .await
            })
            .unwrap_or_else(|_| panic!("{}", no_broker(url, "timed out")))
            .unwrap_or_else(|e| panic!("{}", no_broker(url, &e.to_string())));
        let api_base = api_url.trim_end_matches('/').to_owned();
        let api = ApiClient::new(
            format!("{api_base}/api"),
            uri.authority.userinfo.username.clone(),
            uri.authority.userinfo.password.clone(),
        );
        Broker {
            rt,
            conn,
            url: url.to_owned(),
            api,
            vhost,
            api_base,
            api_auth,
            queues: RefCell::new(Vec::new()),
            vhosts: RefCell::new(Vec::new()),
            users: RefCell::new(Vec::new()),
            policies: RefCell::new(Vec::new()),
        }
    }

    pub fn channel(&self) -> Channel {
        self.rt
            .block_on(self.conn.create_channel())
            .expect("a channel on the test broker")
    }

    /// A unique queue name, deleted when the broker guard drops.
    pub fn queue_name(&self, label: &str) -> String {
        let name = unique(label);
        self.track_queue(&name);
        name
    }

    /// Deletes `name` (in this vhost) on drop.
    pub fn track_queue(&self, name: &str) {
        self.queues
            .borrow_mut()
            .push((self.vhost.clone(), name.to_owned()));
    }

    /// Declares `name` durable with `args` (raw, as another client would), tracked for cleanup.
    pub fn declare(&self, name: &str, args: FieldTable) {
        self.declare_with(name, args, true)
    }

    pub fn declare_with(&self, name: &str, args: FieldTable, durable: bool) {
        self.track_queue(name);
        // A single node under load can fail to start a quorum queue's Ra cluster in time and
        // refuse the declare with `cluster_not_formed` (seen on 3.10 during a full live run); the
        // queue is not made, so declaring again is the same request. Anything else fails the test.
        for attempt in 1.. {
            let ch = self.channel();
            let declared = self.rt.block_on(ch.queue_declare(
                name.into(),
                QueueDeclareOptions {
                    durable,
                    ..QueueDeclareOptions::default()
                },
                args.clone(),
            ));
            match declared {
                Ok(_) => {
                    let _ = self.rt.block_on(ch.close(200, "ok".into()));
                    return;
                }
                Err(e) if attempt < 3 && e.to_string().contains("cluster_not_formed") => {
                    eprintln!("declaring {name}: {e}; declaring it again");
                }
                Err(e) => panic!("declaring {name}: {e}"),
            }
        }
    }

    /// Deletes `name` now (in this vhost), whatever it holds.
    pub fn delete_queue(&self, name: &str) {
        let ch = self.channel();
        self.rt
            .block_on(ch.queue_delete(name.into(), lapin::options::QueueDeleteOptions::default()))
            .unwrap_or_else(|e| panic!("deleting {name}: {e}"));
        let _ = self.rt.block_on(ch.close(200, "ok".into()));
    }

    /// A logical queue `q` whose `q.dead` is a quorum queue with `x-delivery-limit` = `limit`
    /// and no dead-letter exchange, so a message returned past the limit is dropped. Returns
    /// (`q`, `q.dead`), both deleted on drop.
    pub fn quorum_dead_queue(&self, label: &str, limit: i32) -> (String, String) {
        let q = self.queue_name(label);
        let dead = format!("{q}.dead");
        self.declare(
            &dead,
            table(vec![
                ("x-queue-type", long_str("quorum")),
                ("x-delivery-limit", AMQPValue::LongInt(limit)),
            ]),
        );
        (q, dead)
    }

    /// Publishes `bodies` to `queue` through the default exchange, persistent, confirmed.
    pub fn publish(&self, queue: &str, bodies: &[&[u8]], headers: Option<FieldTable>) {
        let ch = self.channel();
        self.rt.block_on(async {
            ch.confirm_select(ConfirmSelectOptions::default())
                .await
                .expect("confirm.select");
            for body in bodies {
                let mut props = BasicProperties::default().with_delivery_mode(2);
                if let Some(h) = &headers {
                    props = props.with_headers(h.clone());
                }
                ch.basic_publish(
                    "".into(),
                    queue.into(),
                    BasicPublishOptions::default(),
                    body,
                    props,
                )
                .await
                .expect("publish")
                .await
                .expect("confirm");
            }
            let _ = ch.close(200, "ok".into()).await;
        });
    }

    /// Publishes one message with `props` to `queue` (default exchange), confirmed.
    pub fn publish_props(&self, queue: &str, body: &[u8], props: BasicProperties) {
        let ch = self.channel();
        self.rt.block_on(async {
            ch.confirm_select(ConfirmSelectOptions::default())
                .await
                .expect("confirm.select");
            ch.basic_publish(
                "".into(),
                queue.into(),
                BasicPublishOptions::default(),
                body,
                props,
            )
            .await
            .expect("publish")
            .await
            .expect("confirm");
            let _ = ch.close(200, "ok".into()).await;
        });
    }

    /// Publishes one persistent message per id (the id as message id and body) to `queue`,
    /// with the confirms awaited in batches.
    pub fn publish_ids(&self, queue: &str, ids: &[String]) {
        let ch = self.channel();
        self.rt.block_on(async {
            ch.confirm_select(ConfirmSelectOptions::default())
                .await
                .expect("confirm.select");
            for chunk in ids.chunks(500) {
                let mut pending = Vec::with_capacity(chunk.len());
                for id in chunk {
                    let props = BasicProperties::default()
                        .with_message_id(id.as_str().into())
                        .with_delivery_mode(2);
                    pending.push(
                        ch.basic_publish(
                            "".into(),
                            queue.into(),
                            BasicPublishOptions::default(),
                            id.as_bytes(),
                            props,
                        )
                        .await
                        .expect("publish"),
                    );
                }
                for confirm in pending {
                    assert!(
                        confirm.await.expect("confirm").is_ack(),
                        "publish to {queue}"
                    );
                }
            }
            let _ = ch.close(200, "ok".into()).await;
        });
    }

    /// Spends one delivery of every message of the quorum queue `queue`: consumes them all
    /// unacknowledged, then closes the channel, which returns them counted (on every version).
    /// Returns once they are all ready again.
    pub fn spend_one_delivery(&self, queue: &str) {
        let n = self.count(queue);
        let ch = self.channel();
        self.rt.block_on(async {
            use futures_util::StreamExt;
            ch.basic_qos(u16::MAX, lapin::options::BasicQosOptions::default())
                .await
                .expect("basic.qos");
            let mut consumer = ch
                .basic_consume(
                    queue.into(),
                    "".into(),
                    lapin::options::BasicConsumeOptions::default(),
                    FieldTable::default(),
                )
                .await
                .expect("basic.consume");
            let mut got = 0;
            while got < n {
                match tokio::time::timeout(Duration::from_secs(30), consumer.next()).await {
                    Ok(Some(Ok(_))) => got += 1,
                    other => panic!("consuming {queue} to spend a delivery: {:?}", other.is_ok()),
                }
            }
            let _ = ch.close(200, "spent".into()).await;
        });
        self.wait_for_count(queue, n);
    }

    /// Removes every message of `queue` (consumed with acks) and returns their message ids, in
    /// order: the last word on what a queue held, for a test that is done with it.
    pub fn drain_ids(&self, queue: &str) -> Vec<String> {
        let ch = self.channel();
        self.rt.block_on(async {
            let mut out = Vec::new();
            while let Some(m) = ch
                .basic_get(
                    queue.into(),
                    lapin::options::BasicGetOptions { no_ack: true },
                )
                .await
                .expect("basic.get")
            {
                out.push(
                    m.delivery
                        .properties
                        .message_id()
                        .as_ref()
                        .map(|s| s.to_string())
                        .unwrap_or_default(),
                );
            }
            let _ = ch.close(200, "ok".into()).await;
            out
        })
    }

    /// Every message of `queue` in order, read with basic.get and returned with one multiple
    /// nack (a classic queue keeps its order; a quorum queue spends one delivery each).
    pub fn snapshot(&self, queue: &str) -> Vec<(Vec<u8>, BasicProperties)> {
        let ch = self.channel();
        self.rt.block_on(async {
            let mut out = Vec::new();
            let mut last = 0;
            while let Some(m) = ch
                .basic_get(
                    queue.into(),
                    lapin::options::BasicGetOptions { no_ack: false },
                )
                .await
                .expect("basic.get")
            {
                last = m.delivery.delivery_tag;
                out.push((m.delivery.data.clone(), m.delivery.properties.clone()));
            }
            if last > 0 {
                ch.basic_nack(
                    last,
                    lapin::options::BasicNackOptions {
                        multiple: true,
                        requeue: true,
                    },
                )
                .await
                .expect("nack");
            }
            let _ = ch.close(200, "ok".into()).await;
            out
        })
    }

    /// Takes every message of `queue` with basic.get, unsettled, then closes the channel: the
    /// broker returns them all. A quorum queue counts that return against each message's
    /// delivery limit on every version (a `basic.nack` stops counting from 4.3). Waits until
    /// the `n` messages are back.
    pub fn return_unsettled(&self, queue: &str, n: u32) {
        let ch = self.channel();
        let taken = self.rt.block_on(async {
            let mut taken = 0;
            while ch
                .basic_get(
                    queue.into(),
                    lapin::options::BasicGetOptions { no_ack: false },
                )
                .await
                .expect("basic.get")
                .is_some()
            {
                taken += 1;
            }
            let _ = ch.close(200, "returning unsettled deliveries".into()).await;
            taken
        });
        assert_eq!(taken, n, "{queue} held {taken} messages, not {n}");
        self.wait_for_count(queue, n);
    }

    /// The message ids of [`Broker::snapshot`], in order (`""` for a message without one).
    pub fn ids(&self, queue: &str) -> Vec<String> {
        self.snapshot(queue)
            .iter()
            .map(|(_, p)| {
                p.message_id()
                    .as_ref()
                    .map(|s| s.to_string())
                    .unwrap_or_default()
            })
            .collect()
    }

    /// The bodies of [`Broker::snapshot`], as text.
    pub fn bodies(&self, queue: &str) -> Vec<String> {
        self.snapshot(queue)
            .into_iter()
            .map(|(b, _)| String::from_utf8_lossy(&b).into_owned())
            .collect()
    }

    /// Takes `n` messages from `queue` with basic.get and rejects each (requeue=false
    /// dead-letters it when the queue has a dead-letter exchange). Fails the test when the `n`
    /// messages are not all there within 30 s.
    pub fn reject(&self, queue: &str, n: usize, requeue: bool) {
        let ch = self.channel();
        let deadline = Duration::from_secs(30);
        let start = Instant::now();
        self.rt.block_on(async {
            for i in 0..n {
                let m = loop {
                    if let Some(m) = ch
                        .basic_get(
                            queue.into(),
                            lapin::options::BasicGetOptions { no_ack: false },
                        )
                        .await
                        .unwrap_or_else(|e| panic!("basic.get from {queue}: {e}"))
                    {
                        break m;
                    }
                    assert!(
                        start.elapsed() < deadline,
                        "{queue} held only {i} of the {n} messages to reject after {deadline:?}"
                    );
                    // The interval of this poll of the queue (an async one: inside the
                    // runtime, [`poll`] would block it).
                    tokio::time::sleep(Duration::from_millis(50)).await;
                };
                ch.basic_reject(
                    m.delivery.delivery_tag,
                    lapin::options::BasicRejectOptions { requeue },
                )
                .await
                .unwrap_or_else(|e| panic!("reject in {queue}: {e}"));
            }
            let _ = ch.close(200, "ok".into()).await;
        });
    }

    /// Waits until `queue` holds exactly `n` ready messages.
    pub fn wait_for_count(&self, queue: &str, n: u32) {
        eventually(
            &format!("{queue} to hold {n} messages"),
            // A requeue of thousands is counted within seconds, but on a loaded machine (a
            // full run beside a build) it took over 30 s once.
            Duration::from_secs(90),
            || (self.message_count(queue) == Some(n)).then_some(()),
        );
    }

    /// Ready messages in `queue`, by passive declare: `None` when it does not exist; any
    /// other failure fails the test (never read as "no messages").
    /// (ready, consumers) of `queue` now, from the queue itself by passive declare (exact: the
    /// management API's figures lag by seconds). A closed channel's consumer goes when the queue
    /// has requeued what that channel held.
    pub fn ready_and_consumers(&self, queue: &str) -> (u32, u32) {
        let ch = self.channel();
        let q = self
            .rt
            .block_on(ch.queue_declare(
                queue.into(),
                QueueDeclareOptions {
                    passive: true,
                    ..QueueDeclareOptions::default()
                },
                FieldTable::default(),
            ))
            .unwrap_or_else(|e| panic!("passive declare of {queue}: {e}"));
        let _ = self.rt.block_on(ch.close(200, "ok".into()));
        (q.message_count(), q.consumer_count())
    }

    pub fn message_count(&self, queue: &str) -> Option<u32> {
        let ch = self.channel();
        let r = self.rt.block_on(ch.queue_declare(
            queue.into(),
            QueueDeclareOptions {
                passive: true,
                ..QueueDeclareOptions::default()
            },
            FieldTable::default(),
        ));
        match r {
            Ok(q) => {
                let _ = self.rt.block_on(ch.close(200, "ok".into()));
                Some(q.message_count())
            }
            Err(e) => match e.kind() {
                lapin::ErrorKind::ProtocolError(amqp)
                    if amqp.kind()
                        == &lapin::protocol::AMQPErrorKind::Soft(
                            lapin::protocol::AMQPSoftError::NOTFOUND,
                        ) =>
                {
                    None
                }
                _ => panic!("counting the messages of {queue}: {e}"),
            },
        }
    }

    /// Ready messages in `queue`, which must exist.
    pub fn count(&self, queue: &str) -> u32 {
        self.message_count(queue)
            .unwrap_or_else(|| panic!("{queue} does not exist"))
    }

    /// A queue as the management API shows it (raw JSON: quorum queues and fresh queues lack
    /// some fields), or `None` when it does not exist. A GET renews no `x-expires` lease.
    pub fn api_queue(&self, name: &str) -> Option<serde_json::Value> {
        let enc = |s: &str| {
            percent_encoding::utf8_percent_encode(s, percent_encoding::NON_ALPHANUMERIC).to_string()
        };
        self.api_get(&format!("queues/{}/{}", enc(&self.vhost), enc(name)))
    }

    /// The arguments the management API lists for a classic queue declared with `declared`
    /// (a JSON object): the same on 3.x; 4.x adds `"x-queue-type": "classic"` to a queue
    /// declared without it (seen on 4.3.6; applied here from 4.0, not checked on 4.0-4.2).
    pub fn api_classic_arguments(&self, declared: serde_json::Value) -> serde_json::Value {
        let mut args = declared;
        if self.rabbitmq_version() >= (4, 0) {
            args.as_object_mut()
                .expect("arguments are a JSON object")
                .entry("x-queue-type")
                .or_insert_with(|| "classic".into());
        }
        args
    }

    /// The broker's cluster name, from the management API (`rabbit@host` for a node alone).
    pub fn cluster_name(&self) -> String {
        let overview = self.api_get("overview").expect("GET /api/overview");
        overview["cluster_name"]
            .as_str()
            .expect("cluster_name")
            .to_owned()
    }

    /// What queuey's ledgers call this broker (`dead::ledger::Scope::broker`): its cluster, by
    /// the same rule (`cluster_identity`) from the management API's overview and nodes.
    pub fn ledger_broker(&self) -> String {
        let overview = self.api_get("overview").expect("GET /api/overview");
        let name = overview["cluster_name"].as_str().expect("cluster_name");
        let nodes: Vec<String> = self
            .api_get("nodes")
            .and_then(|n| n.as_array().cloned())
            .unwrap_or_default()
            .iter()
            .filter_map(|n| n["name"].as_str().map(str::to_owned))
            .collect();
        let api = queuey_cli::cluster::ApiCluster {
            node: overview["node"].as_str(),
            name: Some(name),
            nodes: &nodes,
        };
        queuey_cli::dead::ledger::cluster_identity(name, &api)
    }

    /// The broker's (major, minor) version, from the management API.
    pub fn rabbitmq_version(&self) -> (u32, u32) {
        let overview = self.api_get("overview").expect("GET /api/overview");
        let text = overview["rabbitmq_version"]
            .as_str()
            .expect("rabbitmq_version");
        let mut parts = text
            .split('.')
            .map(|p| p.parse::<u32>().expect("a version number"));
        (parts.next().unwrap_or(0), parts.next().unwrap_or(0))
    }

    /// `GET /api/{path}` of this broker as the test user: `None` on 404; any other failure
    /// fails the test.
    fn api_get(&self, path: &str) -> Option<serde_json::Value> {
        let url = format!("{}/api/{path}", self.api_base);
        self.rt.block_on(async {
            let response = reqwest::Client::new()
                .get(&url)
                .basic_auth(&self.api_auth.0, Some(&self.api_auth.1))
                .send()
                .await
                .unwrap_or_else(|e| panic!("GET {url}: {e}"));
            match response.status().as_u16() {
                404 => None,
                200 => Some(response.json().await.expect("JSON")),
                other => panic!("GET {url}: {other}"),
            }
        })
    }

    /// Starts a consumer on `queue` (manual ack, nothing acked); it stays attached while the
    /// returned guard lives.
    pub fn consume(&self, queue: &str) -> (Channel, lapin::Consumer) {
        let ch = self.channel();
        let consumer = self
            .rt
            .block_on(ch.basic_consume(
                queue.into(),
                "queuey-test-consumer".into(),
                lapin::options::BasicConsumeOptions::default(),
                FieldTable::default(),
            ))
            .unwrap_or_else(|e| panic!("consuming {queue}: {e}"));
        (ch, consumer)
    }

    /// Creates a vhost (deleted on drop) and gives `guest` full access to it.
    pub fn create_vhost(&self, name: &str) {
        self.vhosts.borrow_mut().push(name.to_owned());
        let params = rabbitmq_http_client::requests::VirtualHostParams::named(name);
        self.rt
            .block_on(self.api.create_vhost(&params))
            .unwrap_or_else(|e| panic!("creating vhost {name}: {e}"));
    }

    /// Creates `name` (deleted on drop) with the default queue type `queue_type`: what a queue
    /// declared there without `x-queue-type` is. Both versions know the setting; 3.10 reads it
    /// from the API's `defaultqueuetype` only, 4.x from `default_queue_type` too.
    pub fn create_vhost_with_default_type(&self, name: &str, queue_type: &str) {
        self.vhosts.borrow_mut().push(name.to_owned());
        let enc = |s: &str| {
            percent_encoding::utf8_percent_encode(s, percent_encoding::NON_ALPHANUMERIC).to_string()
        };
        let url = format!("{}/api/vhosts/{}", self.api_base, enc(name));
        self.rt.block_on(async {
            let response = reqwest::Client::new()
                .put(&url)
                .basic_auth(&self.api_auth.0, Some(&self.api_auth.1))
                .json(&serde_json::json!({"defaultqueuetype": queue_type}))
                .send()
                .await
                .unwrap_or_else(|e| panic!("PUT {url}: {e}"));
            assert!(
                response.status().is_success(),
                "PUT {url}: {}",
                response.status()
            );
        });
        let listed = self
            .api_get("vhosts")
            .and_then(|v| v.as_array().cloned())
            .unwrap_or_default();
        let made = listed.iter().find(|v| v["name"] == name);
        assert_eq!(
            made.map(|v| v["default_queue_type"].clone()),
            Some(serde_json::Value::from(queue_type)),
            "the vhost {name} has the default queue type {queue_type}"
        );
    }

    /// `name`'s entry in the API's plain listing of the vhost's queues (`GET /api/queues/{vhost}`),
    /// which carries fewer fields than the queue's own object on some versions.
    pub fn api_listed_queue(&self, name: &str) -> Option<serde_json::Value> {
        let enc = |s: &str| {
            percent_encoding::utf8_percent_encode(s, percent_encoding::NON_ALPHANUMERIC).to_string()
        };
        let listed = self.api_get(&format!("queues/{}", enc(&self.vhost)))?;
        listed
            .as_array()?
            .iter()
            .find(|q| q["name"] == name)
            .cloned()
    }

    /// The HTTP status of `GET /api/{path}` of this broker as `user`: how the API answers that
    /// user, whatever it is.
    pub fn api_status_as(&self, user: &str, password: &str, path: &str) -> u16 {
        let url = format!("{}/api/{path}", self.api_base);
        self.rt.block_on(async {
            reqwest::Client::new()
                .get(&url)
                .basic_auth(user, Some(password))
                .send()
                .await
                .unwrap_or_else(|e| panic!("GET {url}: {e}"))
                .status()
                .as_u16()
        })
    }

    /// Creates a user with `password` and `tags` (deleted on drop), with no permissions.
    pub fn create_user(&self, name: &str, password: &str, tags: &str) {
        self.users.borrow_mut().push(name.to_owned());
        let salt = rabbitmq_http_client::password_hashing::salt();
        let hash =
            rabbitmq_http_client::password_hashing::base64_encoded_salted_password_hash_sha256(
                &salt, password,
            );
        let params = rabbitmq_http_client::requests::UserParams {
            name,
            password_hash: &hash,
            tags,
        };
        self.rt
            .block_on(self.api.create_user(&params))
            .unwrap_or_else(|e| panic!("creating user {name}: {e}"));
    }

    /// Gives `user` full permissions on `vhost`.
    pub fn grant(&self, user: &str, vhost: &str) {
        let params = rabbitmq_http_client::requests::Permissions {
            user,
            vhost,
            configure: ".*",
            read: ".*",
            write: ".*",
        };
        self.rt
            .block_on(self.api.declare_permissions(&params))
            .unwrap_or_else(|e| panic!("granting {user} on {vhost}: {e}"));
    }

    /// Sets `user`'s permissions on `vhost` to these three patterns.
    pub fn set_permissions(
        &self,
        user: &str,
        vhost: &str,
        configure: &str,
        write: &str,
        read: &str,
    ) {
        let params = rabbitmq_http_client::requests::Permissions {
            user,
            vhost,
            configure,
            read,
            write,
        };
        self.rt
            .block_on(self.api.declare_permissions(&params))
            .unwrap_or_else(|e| panic!("setting the permissions of {user} on {vhost}: {e}"));
    }

    /// Closes every connection whose client-given name contains `needle` (fault injection),
    /// returning how many it closed.
    pub fn close_connections_named(&self, needle: &str) -> usize {
        let conns = self
            .rt
            .block_on(self.api.list_connections())
            .expect("listing connections");
        let mut closed = 0;
        for c in conns {
            let client_name = c.client_properties.connection_name.clone();
            if client_name.contains(needle) {
                let _ = self.rt.block_on(self.api.close_connection(
                    &c.name,
                    Some("queuey test: fault injection"),
                    true,
                ));
                closed += 1;
            }
        }
        closed
    }
}

impl Broker {
    /// Sets a policy (with `operator`, an operator policy) in this vhost matching `pattern`,
    /// at priority 10; deleted when the broker guard drops.
    pub fn set_policy(
        &self,
        name: &str,
        pattern: &str,
        definition: serde_json::Value,
        operator: bool,
    ) {
        self.track_policy(name, operator);
        let params = rabbitmq_http_client::requests::PolicyParams {
            vhost: &self.vhost,
            name,
            pattern,
            apply_to: rabbitmq_http_client::commons::PolicyTarget::Queues,
            priority: 10,
            definition: definition
                .as_object()
                .cloned()
                .expect("a policy definition is an object"),
        };
        let result = if operator {
            self.rt.block_on(self.api.declare_operator_policy(&params))
        } else {
            self.rt.block_on(self.api.declare_policy(&params))
        };
        result.unwrap_or_else(|e| panic!("setting policy {name}: {e}"));
    }

    /// Deletes the policy `name` of this vhost on drop (one a test made another way, such as
    /// a remedy it pasted).
    pub fn track_policy(&self, name: &str, operator: bool) {
        self.policies
            .borrow_mut()
            .push((self.vhost.clone(), name.to_owned(), operator));
    }

    /// Whether the policy (operator policy) `name` exists in this vhost.
    pub fn policy_exists(&self, name: &str, operator: bool) -> bool {
        if operator {
            self.rt
                .block_on(self.api.get_operator_policy(&self.vhost, name))
                .is_ok()
        } else {
            self.rt
                .block_on(self.api.get_policy(&self.vhost, name))
                .is_ok()
        }
    }
}

impl Drop for Broker {
    fn drop(&mut self) {
        for (vhost, name, operator) in self.policies.borrow().iter() {
            let _ = if *operator {
                self.rt
                    .block_on(self.api.delete_operator_policy(vhost, name, true))
            } else {
                self.rt.block_on(self.api.delete_policy(vhost, name, true))
            };
        }
        for (vhost, q) in self.queues.borrow().iter() {
            let _ = self.rt.block_on(self.api.delete_queue(vhost, q, true));
        }
        for v in self.vhosts.borrow().iter() {
            let _ = self.rt.block_on(self.api.delete_vhost(v, true));
        }
        for u in self.users.borrow().iter() {
            let _ = self.rt.block_on(self.api.delete_user(u, true));
        }
        // A node of a private cluster may stop answering under the connection (killed and
        // brought back): lapin's close then waits for a close-ok forever. Seen in CI on
        // 3.10.8: `cluster::a_node_lost_mid_replay...` hung 30 min in this drop, holding the
        // private nodes' lock that every other fault test waits for.
        // (The timer is made inside the runtime: made outside, it panics.)
        let close = self.conn.close(200, "test done".into());
        let _ = self
            .rt
            .block_on(async { tokio::time::timeout(Duration::from_secs(10), close).await });
    }
}

/// The README's line that starts the test broker (its "Run the tests" section, held equal to
/// this by `packaging::the_readme_starts_the_test_broker_with_the_line_the_harness_names`): what
/// a test that finds no broker tells the reader to run. The plugin is enabled offline first,
/// so that the node starts with its management API.
pub const START_TEST_BROKER: &str =
    "sudo rabbitmq-plugins enable --offline rabbitmq_management && sudo rabbitmq-server -detached";

/// Why no local test broker answers, once [`ensure_local_broker`] tried to start one and
/// nothing came up: every live test then fails at once with the same sentence (what to run),
/// instead of each waiting on a connection of its own and printing its error.
static NO_LOCAL_BROKER: std::sync::OnceLock<String> = std::sync::OnceLock::new();

/// Makes sure a local test broker is up (see [`ensure_local_broker`]), or panics with the
/// README's line that starts one. Every path of the harness to the test broker starts here.
fn require_test_broker(url: &str) {
    ensure_local_broker();
    if let Some(why) = NO_LOCAL_BROKER.get() {
        panic!("{}", no_broker(url, why));
    }
}

/// On a fresh machine of the kind queuey is developed on, RabbitMQ runs but its management
/// plugin may be off. So that `cargo test` alone runs the suite, the first live test makes sure
/// a *local* test broker is up: the machine's own on 5672 (starting a stopped one, enabling the
/// plugin), or the RabbitMQ 4.x node of `scripts/rabbitmq4.sh` on 5674 (`start`, which does
/// nothing to a node that answers). It never stops or restarts a running broker, and does
/// nothing for a remote one or another port. When nothing answers after that, it says why in
/// [`NO_LOCAL_BROKER`], and every test fails naming [`START_TEST_BROKER`].
fn ensure_local_broker() {
    static ONCE: std::sync::Once = std::sync::Once::new();
    ONCE.call_once(|| {
        let url = url::Url::parse(&test_url()).expect("QUEUEY_TEST_URL is a URL");
        let local = matches!(url.host_str(), Some("127.0.0.1" | "localhost" | "::1"));
        let amqp_addr = format!(
            "{}:{}",
            url.host_str().unwrap_or("127.0.0.1"),
            url.port().unwrap_or(5672)
        );
        let api = url::Url::parse(&test_api_url()).expect("QUEUEY_TEST_API_URL is a URL");
        let api_addr = format!(
            "{}:{}",
            api.host_str().unwrap_or("127.0.0.1"),
            api.port().unwrap_or(15672)
        );
        let up = |addr: &str| {
            use std::net::ToSocketAddrs;
            addr.to_socket_addrs()
                .ok()
                .and_then(|mut a| a.next())
                .is_some_and(|a| {
                    std::net::TcpStream::connect_timeout(&a, Duration::from_secs(2)).is_ok()
                })
        };
        // Runs a command that starts something; says why it did not, when it did not (then
        // there is nothing to wait for).
        let run = |cmd: &mut std::process::Command| -> Result<(), String> {
            let line = format!("{cmd:?}");
            eprintln!("queuey tests: running {line}");
            match cmd.status() {
                Ok(status) if status.success() => Ok(()),
                Ok(status) => Err(format!("{line} failed ({status})")),
                Err(e) => Err(format!("{line} could not run ({e})")),
            }
        };
        let wait = |addr: &str| {
            poll(Duration::from_secs(90), Duration::from_millis(500), || {
                up(addr)
            });
        };
        let nothing_answers = |started: Result<(), String>| {
            let why = match started {
                Ok(()) => "nothing came up within 90 s of starting it".to_owned(),
                Err(e) => e,
            };
            let _ = NO_LOCAL_BROKER.set(format!("nothing answers at {amqp_addr}; {why}"));
        };
        let port = url.port().unwrap_or(5672);
        if local && matches!(port, 5674 | 5676) && !(up(&amqp_addr) && up(&api_addr)) {
            let script = concat!(env!("CARGO_MANIFEST_DIR"), "/scripts/rabbitmq4.sh");
            let mut start = std::process::Command::new(script);
            start.arg("start");
            if port == 5676 {
                // Debian stable's 4.0.5.
                start.env("QUEUEY_RABBITMQ4_SUITE", "trixie");
            }
            let started = run(&mut start);
            if !up(&amqp_addr) {
                nothing_answers(started);
            }
            return;
        }
        if !local || port != 5672 {
            return;
        }
        if !up(&amqp_addr) {
            let started = run(std::process::Command::new("rabbitmq-server").arg("-detached"));
            if started.is_ok() {
                wait(&amqp_addr);
            }
            if !up(&amqp_addr) {
                nothing_answers(started);
                return;
            }
        }
        if !up(&api_addr) {
            let enabled = run(std::process::Command::new("rabbitmq-plugins")
                .args(["enable", "rabbitmq_management"]));
            if enabled.is_ok() {
                wait(&api_addr);
            }
        }
    });
}

/// What a test that finds no test broker says: the README's line first, then the other ways.
pub fn no_broker(url: &str, why: &str) -> String {
    format!(
        "no RabbitMQ test broker at {url} ({why}). Start it with the README's line:\n\n    \
         {START_TEST_BROKER}\n\n(RabbitMQ not installed: `sudo apt-get install rabbitmq-server` \
         first; a RabbitMQ 4.x on 5674: `scripts/rabbitmq4.sh start`), or point QUEUEY_TEST_URL \
         and QUEUEY_TEST_API_URL at a broker. Broker tests never skip."
    )
}

/// A field table from (key, value) pairs.
pub fn table(entries: Vec<(&str, AMQPValue)>) -> FieldTable {
    let mut t = FieldTable::default();
    for (k, v) in entries {
        t.insert(ShortString::from(k), v);
    }
    t
}

/// Fails unless `got` is `want`, in the same order; says where the first one out of place is,
/// with its neighbours, rather than printing thousands of ids.
pub fn assert_same_order(got: &[String], want: &[String], what: &str) {
    let first_off = got.iter().zip(want).position(|(a, b)| a != b);
    assert_eq!(
        (got.len(), first_off),
        (want.len(), None),
        "{what}: (how many, the first out of place); around it: {:?}",
        first_off.map(|i| &got[i.saturating_sub(2)..(i + 6).min(got.len())])
    );
}

pub fn long_str(s: &str) -> AMQPValue {
    AMQPValue::LongString(LongString::from(s))
}

/// Parses stdout as one JSON document.
pub fn json(output: &impl Said) -> serde_json::Value {
    let stdout = output.stdout_text();
    serde_json::from_str(&stdout).unwrap_or_else(|e| {
        panic!(
            "stdout is not JSON ({e}):\n{stdout}\nstderr:\n{}",
            output.stderr_text()
        )
    })
}

pub fn stderr(output: &impl Said) -> String {
    output.stderr_text()
}

pub fn stdout(output: &impl Said) -> String {
    output.stdout_text()
}

/// Each id of `expected` found in `place` exactly as often as it was sent (twins both): none
/// lost, none twice, none that nobody sent. `what` names the case in the failure.
pub fn assert_ids_exactly(
    found: &std::collections::BTreeMap<String, usize>,
    expected: &std::collections::BTreeMap<String, usize>,
    place: &str,
    what: &str,
) {
    assert_ids_at_least(found, expected, place, 0, what);
}

/// Every id of `expected` at least as often in `found` (none lost, none unexpected), and the
/// copies beyond no more than `said` (what queuey said may be duplicated, see
/// `dead::ledger`). Returns how many there are beyond.
pub fn assert_ids_at_least(
    found: &std::collections::BTreeMap<String, usize>,
    expected: &std::collections::BTreeMap<String, usize>,
    place: &str,
    said: u64,
    what: &str,
) -> u64 {
    let mut lost = Vec::new();
    let mut dup = 0u64;
    for (id, &want) in expected {
        let have = found.get(id).copied().unwrap_or(0);
        if have < want {
            lost.push(format!("{id}: {have} in {place}, expected {want}"));
        }
        dup += have.saturating_sub(want) as u64;
    }
    assert!(
        lost.is_empty(),
        "{what}: {} ids lost, e.g. {:?}",
        lost.len(),
        &lost[..lost.len().min(5)]
    );
    assert!(
        found.keys().all(|id| expected.contains_key(id)),
        "{what}: a message nobody sent"
    );
    assert!(
        dup <= said,
        "{what}: {dup} ids more than once in {place}, queuey said at most {said}"
    );
    dup
}

/// Runs a command line as a user pastes it into a shell on the broker's machine, aimed at the
/// test broker: the queuey binary on the PATH, and a `rabbitmqctl` that is the test broker's
/// own CLI talking to its node (the root's for a 4.x broker: the machine's cannot reach it).
pub fn paste(command_line: &str) -> Output {
    let bin_dir = assert_cmd::cargo::cargo_bin("queuey")
        .parent()
        .unwrap()
        .to_owned();
    let path = format!(
        "{}:{}:{}",
        bin_dir.display(),
        rabbitmq::cli_dir().display(),
        std::env::var("PATH").unwrap_or_default()
    );
    let dir = tempfile::tempdir().unwrap();
    std::process::Command::new("sh")
        .args(["-c", command_line])
        .env_clear()
        .env("PATH", path)
        .env("QUEUEY_URL", test_url())
        .env("QUEUEY_API_URL", test_api_url())
        .current_dir(dir.path())
        .stdin(std::process::Stdio::null())
        .output()
        .unwrap()
}

/// queuey with `args` in a fresh directory: the shortest way through [`Queuey`].
pub fn run(args: &[&str]) -> Run {
    Queuey::new().args(args).run()
}

/// The exit code; a run ended by a signal fails the test.
pub fn code(out: &impl Said) -> i32 {
    out.status()
        .code()
        .unwrap_or_else(|| panic!("queuey ended by a signal: {}", out.stderr_text()))
}

/// A dead letter as a queuey application writes it, with a `tenant` header.
fn tenant_dead_letter(id: &str, original: &str, tenant: &str) -> BasicProperties {
    BasicProperties::default()
        .with_message_id(id.into())
        .with_delivery_mode(2)
        .with_content_type("application/json".into())
        .with_headers(table(vec![
            ("x-original-queue", long_str(original)),
            ("x-death-reason", long_str("fatal error: boom")),
            ("x-attempts", AMQPValue::LongUInt(1)),
            ("tenant", long_str(tenant)),
        ]))
}

/// A logical queue `q` whose `q.dead` holds `n` dead letters (ids `m-0`...), whose original
/// queue is `original` (else `q`), tenants acme, globex, initech in turn. Only `q.dead` exists.
pub fn dead_letters(
    broker: &Broker,
    label: &str,
    n: usize,
    original: Option<&str>,
) -> (String, String) {
    let q = broker.queue_name(label);
    let dead = format!("{q}.dead");
    broker.declare(&dead, FieldTable::default());
    let original = original.unwrap_or(&q).to_owned();
    for i in 0..n {
        let tenant = ["acme", "globex", "initech"][i % 3];
        broker.publish_props(
            &dead,
            format!("{{\"n\":{i}}}").as_bytes(),
            tenant_dead_letter(&format!("m-{i}"), &original, tenant),
        );
    }
    (q, dead)
}
