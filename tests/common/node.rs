//! Private RabbitMQ nodes that a test starts, breaks and stops, beside the shared broker.
//!
//! Fault tests kill brokers, stop their applications and raise their alarms: they must never do
//! that to the shared node (`rabbit@localhost`, 5672/15672) that every other test uses. A
//! [`Node`] is a node of its own: its name (`qtest1@localhost`), its ports (AMQP 5682, API
//! 15682, distribution 25682 for slot 1; 5683/15683/25683 for slot 2) and its data, log and pid
//! file in a directory of its own under the system's temporary directory, owned by the
//! `rabbitmq` user (the packaged scripts run the node as that user when started as root).
//!
//! - [`Node::start`] first finds a leftover of a killed run (its pid file, or a node answering
//!   on its ports) and stops it, then starts a fresh node and waits for its AMQP port and
//!   management API (about 15 s on 2 CPUs).
//! - Dropping the [`Node`] stops it, whether the test passed or panicked: `rabbitmqctl stop`,
//!   then `kill -9` of the pid in its pid file if the node still runs, then its directory is
//!   removed.
//! - Tests that use nodes take [`Node::lock`] first: one node per slot at a time in a test
//!   binary, so faults of one test never hit another's node.

use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::sync::{Mutex, MutexGuard};
use std::time::{Duration, Instant};

static NODES: Mutex<()> = Mutex::new(());

/// A private RabbitMQ node, stopped when dropped.
pub struct Node {
    pub name: String,
    pub amqp_port: u16,
    pub api_port: u16,
    pub dist_port: u16,
    pub dir: PathBuf,
}

impl Node {
    /// Serialises the tests of a binary that start nodes (a poisoned lock is taken anyway: a
    /// test that panicked has dropped its node).
    pub fn lock() -> MutexGuard<'static, ()> {
        NODES.lock().unwrap_or_else(|e| e.into_inner())
    }

    /// The node of `slot` (1 or 2), not started.
    fn of_slot(slot: u16) -> Node {
        assert!((1..=2).contains(&slot), "slots are 1 and 2");
        let name = format!("qtest{slot}@localhost");
        Node {
            dir: std::env::temp_dir()
                .join("queuey-private-nodes")
                .join(format!("qtest{slot}")),
            name,
            amqp_port: 5681 + slot,
            api_port: 15681 + slot,
            dist_port: 25681 + slot,
        }
    }

    /// Starts the node of `slot` afresh (empty data), stopping a leftover of a killed run.
    pub fn start(slot: u16) -> Node {
        let node = Node::of_slot(slot);
        node.stop_leftover();
        if node.dir.exists() {
            let _ = std::fs::remove_dir_all(&node.dir);
        }
        for sub in ["mnesia", "log"] {
            std::fs::create_dir_all(node.dir.join(sub)).expect("a directory for the private node");
        }
        std::fs::write(
            node.dir.join("rabbitmq.conf"),
            format!(
                "listeners.tcp.default = {}\nmanagement.tcp.port = {}\nloopback_users = none\n",
                node.amqp_port, node.api_port
            ),
        )
        .expect("the private node's configuration");
        std::fs::write(node.dir.join("enabled_plugins"), "[rabbitmq_management].\n")
            .expect("the private node's plugins");
        node.own_dir();
        node.launch();
        node
    }

    /// Starts the node again on the data it has (after [`Node::kill_vm`] or [`Node::stop`]).
    pub fn restart(&self) {
        self.launch();
    }

    fn launch(&self) {
        let out = self
            .env(Command::new("rabbitmq-server"))
            .arg("-detached")
            .stdin(Stdio::null())
            .output()
            .unwrap_or_else(|e| {
                panic!("cannot run rabbitmq-server (is RabbitMQ installed here?): {e}")
            });
        assert!(
            out.status.success(),
            "rabbitmq-server -detached for {} failed: {}{}",
            self.name,
            String::from_utf8_lossy(&out.stdout),
            String::from_utf8_lossy(&out.stderr)
        );
        self.wait_up(Duration::from_secs(120));
    }

    /// Waits until the node takes AMQP connections and its management API answers.
    pub fn wait_up(&self, deadline: Duration) {
        let start = Instant::now();
        loop {
            if self.api_answers() && port_open(self.amqp_port) {
                return;
            }
            if start.elapsed() > deadline {
                panic!(
                    "the private node {} did not come up within {deadline:?}; its log is in {}",
                    self.name,
                    self.dir.join("log").display()
                );
            }
            std::thread::sleep(Duration::from_millis(250));
        }
    }

    fn api_answers(&self) -> bool {
        Command::new("curl")
            .args(["-fsS", "-o", "/dev/null", "-u", "guest:guest"])
            .arg(format!("http://127.0.0.1:{}/api/overview", self.api_port))
            .stdout(Stdio::null())
            .stderr(Stdio::null())
            .status()
            .is_ok_and(|s| s.success())
    }

    /// The environment that makes the packaged scripts act on this node.
    fn env(&self, mut cmd: Command) -> Command {
        let d = |sub: &str| self.dir.join(sub).display().to_string();
        cmd.env("RABBITMQ_NODENAME", &self.name)
            .env("RABBITMQ_NODE_PORT", self.amqp_port.to_string())
            .env("RABBITMQ_DIST_PORT", self.dist_port.to_string())
            .env("RABBITMQ_MNESIA_BASE", d("mnesia"))
            .env("RABBITMQ_LOG_BASE", d("log"))
            .env("RABBITMQ_PID_FILE", d("pid"))
            .env("RABBITMQ_CONFIG_FILE", d("rabbitmq"))
            .env("RABBITMQ_ENABLED_PLUGINS_FILE", d("enabled_plugins"));
        cmd
    }

    /// The packaged scripts run the node as `rabbitmq` when started as root: its directory
    /// must be that user's.
    fn own_dir(&self) {
        let root = Command::new("id")
            .arg("-u")
            .output()
            .is_ok_and(|o| o.stdout.trim_ascii() == b"0");
        if root {
            let parent = self.dir.parent().unwrap_or(&self.dir);
            let status = Command::new("chown")
                .args(["-R", "rabbitmq:rabbitmq"])
                .arg(parent)
                .status()
                .expect("chown");
            assert!(
                status.success(),
                "cannot give {} to rabbitmq",
                parent.display()
            );
        }
    }

    /// `rabbitmqctl -n NODE args...`: its output, or a panic naming the failure.
    pub fn ctl(&self, args: &[&str]) -> String {
        let out = self.ctl_output(args);
        assert!(
            out.status.success(),
            "rabbitmqctl -n {} {} failed: {}{}",
            self.name,
            args.join(" "),
            String::from_utf8_lossy(&out.stdout),
            String::from_utf8_lossy(&out.stderr)
        );
        String::from_utf8_lossy(&out.stdout).into_owned()
    }

    fn ctl_output(&self, args: &[&str]) -> std::process::Output {
        Command::new("rabbitmqctl")
            .args(["-n", &self.name])
            .args(args)
            .stdin(Stdio::null())
            .output()
            .expect("rabbitmqctl runs")
    }

    /// The AMQP URL of the node's default vhost.
    pub fn url(&self) -> String {
        format!("amqp://guest:guest@127.0.0.1:{}/%2f", self.amqp_port)
    }

    pub fn api_url(&self) -> String {
        format!("http://127.0.0.1:{}", self.api_port)
    }

    /// The pid of the node's Erlang VM, from its pid file.
    pub fn pid(&self) -> Option<u32> {
        read_pid(&self.dir.join("pid"))
    }

    /// `kill -9` of the node's VM: the broker dies without closing anything.
    pub fn kill_vm(&self) {
        let pid = self.pid().expect("the private node's pid file");
        let status = Command::new("kill")
            .args(["-9", &pid.to_string()])
            .status()
            .expect("kill");
        assert!(status.success(), "kill -9 {pid} failed");
        let start = Instant::now();
        while alive(pid) || port_open(self.amqp_port) {
            assert!(
                start.elapsed() < Duration::from_secs(30),
                "the killed node {} still runs",
                self.name
            );
            std::thread::sleep(Duration::from_millis(100));
        }
    }

    /// Stops the node (`rabbitmqctl stop`), then kills what is left of it.
    pub fn stop(&self) {
        let pid = self.pid();
        let _ = self.ctl_output(&["stop"]);
        if let Some(pid) = pid {
            let start = Instant::now();
            while alive(pid) && start.elapsed() < Duration::from_secs(20) {
                std::thread::sleep(Duration::from_millis(100));
            }
            if alive(pid) {
                let _ = Command::new("kill").args(["-9", &pid.to_string()]).status();
            }
        }
    }

    /// A node of this slot left running by a killed test run: stop it.
    fn stop_leftover(&self) {
        let pid_running = self.pid().is_some_and(alive);
        if pid_running || port_open(self.amqp_port) || port_open(self.dist_port) {
            eprintln!("stopping a leftover private node {}", self.name);
            self.stop();
            let start = Instant::now();
            while port_open(self.amqp_port) || port_open(self.dist_port) {
                assert!(
                    start.elapsed() < Duration::from_secs(30),
                    "a process that is not the node {} holds port {} or {}; stop it",
                    self.name,
                    self.amqp_port,
                    self.dist_port
                );
                std::thread::sleep(Duration::from_millis(200));
            }
        }
    }
}

impl Drop for Node {
    fn drop(&mut self) {
        self.stop();
        let _ = std::fs::remove_dir_all(&self.dir);
    }
}

fn read_pid(path: &Path) -> Option<u32> {
    std::fs::read_to_string(path).ok()?.trim().parse().ok()
}

fn alive(pid: u32) -> bool {
    Path::new(&format!("/proc/{pid}")).exists()
        && !std::fs::read_to_string(format!("/proc/{pid}/stat"))
            .is_ok_and(|s| s.split_whitespace().nth(2) == Some("Z"))
}

fn port_open(port: u16) -> bool {
    std::net::TcpStream::connect_timeout(
        &std::net::SocketAddr::from(([127, 0, 0, 1], port)),
        Duration::from_millis(300),
    )
    .is_ok()
}
