//! Private RabbitMQ nodes that a test starts, breaks and stops, beside the shared broker.
//!
//! Fault tests kill brokers, stop their applications and raise their alarms: they must never do
//! that to the test broker that every other test uses. A [`Node`] is a node of its own: its name
//! (`qtest1@localhost`), its ports (AMQP 5682, API 15682, distribution 25682 for slot 1;
//! 5683/15683/25683 for slot 2; 5684/15684/25684 for slot 3) and its data, log and pid file in a directory of its own, owned
//! by the `rabbitmq` user (the packaged scripts run the node as that user when started as root).
//!
//! - Its RabbitMQ is the test broker's major version ([`super::rabbitmq::install`]): the
//!   machine's packages for a 3.x test broker (its directory under the system's temporary
//!   directory), the 4.x root of `scripts/rabbitmq4.sh` for a 4.x one (run through `chroot`
//!   with the root's `HOME`, so that every node of the root shares its Erlang cookie and a
//!   cluster forms; its directory under the root's `/tmp`). [`Node::ctl`] is that install's
//!   `rabbitmqctl`.
//! - [`Node::start`] first finds a leftover of a killed run (its pid file, from either install,
//!   or a node answering on its ports) and stops it, then starts a fresh node and waits for its
//!   AMQP port and management API (about 10 s on 2 CPUs).
//! - Dropping the [`Node`] stops it, whether the test passed or panicked: `rabbitmqctl stop`,
//!   then `kill -9` of the pid in its pid file if the node still runs, then its directory is
//!   removed.
//! - [`Node::start_with_tls`] adds TLS listeners (AMQPS and the management API over HTTPS) with
//!   the certificates a test made ([`super::tls::Pki`]).
//! - Tests that use nodes take [`Node::lock`] first: an exclusive `flock` of [`LOCK_FILE`],
//!   shared by every test process on the machine (and every engineer), so that the faults of one
//!   test never hit another's node. The kernel releases it when the process ends, however.

use std::fs::File;
use std::os::fd::AsRawFd;
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::time::Duration;

use super::poll;
use super::rabbitmq::{self, Install};

/// The server side of a node's TLS listeners, as PEM text.
pub struct NodeTls {
    /// The CA the node trusts for client certificates.
    pub ca_pem: String,
    pub cert_pem: String,
    pub key_pem: String,
    /// AMQPS refuses a client without a certificate signed by the CA (mutual TLS).
    pub require_client_certificate: bool,
}

/// Slots of private nodes: 1 and 2 for single nodes, all three for a [`super::cluster::Cluster`].
pub const SLOTS: u16 = 3;

/// The lock that serialises private nodes across test processes.
pub const LOCK_FILE: &str = "/tmp/queuey-private-nodes.lock";

/// Held while a test uses private nodes; dropping it (or the process ending) releases it.
pub struct NodeLock {
    _file: File,
}

/// A private RabbitMQ node, stopped when dropped.
pub struct Node {
    pub name: String,
    pub amqp_port: u16,
    pub api_port: u16,
    pub dist_port: u16,
    /// The TLS listeners' ports, open when the node was started with [`Node::start_with_tls`]:
    /// AMQPS 5686 and HTTPS 15686 for slot 1, 5687 and 15687 for slot 2, 5688 and 15688 for 3.
    pub amqps_port: u16,
    pub https_port: u16,
    /// Its directory, as this machine sees it (inside the root for a root's node).
    pub dir: PathBuf,
    /// Where its RabbitMQ comes from.
    pub install: Install,
}

impl Node {
    /// Waits for, then holds, the machine-wide lock of the private nodes (each call opens the
    /// file anew, so that threads of one process exclude each other too).
    pub fn lock() -> NodeLock {
        let file = std::fs::OpenOptions::new()
            .create(true)
            .truncate(false)
            .read(true)
            .write(true)
            .open(LOCK_FILE)
            .unwrap_or_else(|e| panic!("opening the private nodes' lock {LOCK_FILE}: {e}"));
        // Anyone may take it, whoever made it.
        use std::os::unix::fs::PermissionsExt;
        let _ = file.set_permissions(std::fs::Permissions::from_mode(0o666));
        let fd = file.as_raw_fd();
        // SAFETY: flock on a descriptor this function owns.
        if unsafe { libc::flock(fd, libc::LOCK_EX | libc::LOCK_NB) } != 0 {
            eprintln!("waiting for the private nodes of another test ({LOCK_FILE})");
            loop {
                // SAFETY: as above.
                if unsafe { libc::flock(fd, libc::LOCK_EX) } == 0 {
                    break;
                }
                let e = std::io::Error::last_os_error();
                assert_eq!(
                    e.kind(),
                    std::io::ErrorKind::Interrupted,
                    "flock {LOCK_FILE}: {e}"
                );
            }
        }
        NodeLock { _file: file }
    }

    /// The node of `slot` (1, 2 or 3) from `install`, not started. Slot 3's ports (5684,
    /// 15684, 25684; TLS 5688, 15688) are clear of every other slot's and of the brokers'
    /// (5672/15672/25672, 5674/15674/25674, the CLI's 35672-35682).
    fn of_slot(slot: u16, install: Install) -> Node {
        assert!((1..=SLOTS).contains(&slot), "slots are 1 to {SLOTS}");
        Node {
            name: format!("qtest{slot}@localhost"),
            dir: install.nodes_dir().join(format!("qtest{slot}")),
            amqp_port: 5681 + slot,
            api_port: 15681 + slot,
            dist_port: 25681 + slot,
            amqps_port: 5685 + slot,
            https_port: 15685 + slot,
            install,
        }
    }

    /// Starts the node of `slot` afresh (empty data), stopping a leftover of a killed run.
    pub fn start(slot: u16) -> Node {
        Node::start_configured(slot, None)
    }

    /// [`Node::start`] with TLS listeners besides the plain ones: AMQPS on
    /// [`Node::amqps_port`] and the management API over HTTPS on [`Node::https_port`], with
    /// `tls`'s certificate, key and CA (written into the node's directory).
    pub fn start_with_tls(slot: u16, tls: &NodeTls) -> Node {
        Node::start_configured(slot, Some(tls))
    }

    fn start_configured(slot: u16, tls: Option<&NodeTls>) -> Node {
        stop_leftovers(slot);
        let node = Node::of_slot(slot, rabbitmq::install().clone());
        if node.dir.exists() {
            let _ = std::fs::remove_dir_all(&node.dir);
        }
        for sub in ["mnesia", "log"] {
            std::fs::create_dir_all(node.dir.join(sub)).expect("a directory for the private node");
        }
        let mut conf = format!(
            "listeners.tcp.default = {}\nmanagement.tcp.port = {}\nloopback_users = none\n",
            node.amqp_port, node.api_port
        );
        if let Some(tls) = tls {
            conf.push_str(&node.tls_conf(tls));
        }
        std::fs::write(node.dir.join("rabbitmq.conf"), conf)
            .expect("the private node's configuration");
        std::fs::write(node.dir.join("enabled_plugins"), "[rabbitmq_management].\n")
            .expect("the private node's plugins");
        node.install
            .give_to_rabbitmq(node.dir.parent().unwrap_or(&node.dir));
        node.launch();
        let version = node.version();
        eprintln!(
            "private node {} up: RabbitMQ {version} ({})",
            node.name,
            match &node.install {
                Install::Host => "the machine's".to_owned(),
                Install::Root(root) => format!("the root {}", root.display()),
            }
        );
        let want = rabbitmq::test_broker_version().0;
        assert_eq!(
            rabbitmq::parse_version(&version).map(|v| v.0),
            Some(want),
            "the private node runs RabbitMQ {version}, the test broker {want}.x"
        );
        node
    }

    /// Writes `tls`'s files into the node's directory and returns the configuration of its
    /// listeners: AMQPS (`ssl_options`: the client must present a certificate signed by the CA
    /// when `tls.require_client_certificate`) and the management API over HTTPS (one-way: the
    /// broker presents its certificate and asks for none).
    fn tls_conf(&self, tls: &NodeTls) -> String {
        let dir = self.dir.join("tls");
        std::fs::create_dir_all(&dir).expect("a directory for the node's TLS files");
        for (name, text) in [
            ("ca.pem", &tls.ca_pem),
            ("server.pem", &tls.cert_pem),
            ("server.key", &tls.key_pem),
        ] {
            std::fs::write(dir.join(name), text).expect("the node's TLS files");
        }
        let file = |name: &str| self.install.inside(&dir.join(name)).display().to_string();
        let (ca, cert, key) = (file("ca.pem"), file("server.pem"), file("server.key"));
        let verify = if tls.require_client_certificate {
            "ssl_options.verify = verify_peer\nssl_options.fail_if_no_peer_cert = true\n"
        } else {
            "ssl_options.verify = verify_none\nssl_options.fail_if_no_peer_cert = false\n"
        };
        format!(
            "listeners.ssl.default = {}\nssl_options.cacertfile = {ca}\n\
             ssl_options.certfile = {cert}\nssl_options.keyfile = {key}\n{verify}\
             management.ssl.port = {}\nmanagement.ssl.cacertfile = {ca}\n\
             management.ssl.certfile = {cert}\nmanagement.ssl.keyfile = {key}\n",
            self.amqps_port, self.https_port
        )
    }

    /// Replaces the certificate and key that the node's TLS listeners present to new
    /// connections, as an operator rotates them: the files, then `ssl:clear_pem_cache()`.
    pub fn replace_server_certificate(&self, cert_pem: &str, key_pem: &str) {
        let dir = self.dir.join("tls");
        std::fs::write(dir.join("server.pem"), cert_pem).expect("the node's certificate");
        std::fs::write(dir.join("server.key"), key_pem).expect("the node's key");
        self.ctl(&["eval", "ssl:clear_pem_cache()."]);
    }

    /// The AMQPS URL of the node's default vhost, by the host name `host`.
    pub fn amqps_url(&self, host: &str) -> String {
        format!("amqps://guest:guest@{host}:{}/%2f", self.amqps_port)
    }

    /// The management API over HTTPS, by the host name `host`.
    pub fn https_api_url(&self, host: &str) -> String {
        format!("https://{host}:{}", self.https_port)
    }

    /// The node's RabbitMQ version, from its API.
    pub fn version(&self) -> String {
        let out = Command::new("curl")
            .args(["-fsS", "-u", "guest:guest"])
            .arg(format!("http://127.0.0.1:{}/api/overview", self.api_port))
            .stdin(Stdio::null())
            .output()
            .expect("curl runs");
        let doc: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap_or_else(|e| {
            panic!(
                "the overview of {}: {e}: {}",
                self.name,
                String::from_utf8_lossy(&out.stderr)
            )
        });
        doc["rabbitmq_version"]
            .as_str()
            .unwrap_or_else(|| panic!("no rabbitmq_version from {}: {doc}", self.name))
            .to_owned()
    }

    /// Joins this node (started, of the same install: one Erlang cookie) to `first`'s cluster:
    /// `stop_app`, `join_cluster`, `start_app`.
    pub fn join(&self, first: &Node) {
        self.ctl(&["stop_app"]);
        self.ctl(&["join_cluster", &first.name]);
        self.ctl(&["start_app"]);
        self.wait_up(Duration::from_secs(120));
    }

    /// Starts the node again on the data it has (after [`Node::kill_vm`] or [`Node::stop`]).
    pub fn restart(&self) {
        self.launch();
    }

    fn launch(&self) {
        let out = self
            .env(self.install.command("rabbitmq-server"))
            .arg("-detached")
            .stdin(Stdio::null())
            .output()
            .unwrap_or_else(|e| {
                panic!("cannot run rabbitmq-server (is RabbitMQ installed here?): {e}")
            });
        assert!(
            out.status.success(),
            "rabbitmq-server -detached for {} ({:?}) failed: {}{}",
            self.name,
            self.install,
            String::from_utf8_lossy(&out.stdout),
            String::from_utf8_lossy(&out.stderr)
        );
        self.wait_up(Duration::from_secs(120));
    }

    /// Waits until the node takes AMQP connections and its management API answers.
    pub fn wait_up(&self, deadline: Duration) {
        let up = poll(deadline, Duration::from_millis(250), || {
            self.api_answers() && port_open(self.amqp_port)
        });
        assert!(
            up,
            "the private node {} did not come up within {deadline:?}; its log is in {}",
            self.name,
            self.dir.join("log").display()
        );
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

    /// The environment that makes the packaged scripts act on this node (its paths as the
    /// node sees them).
    fn env(&self, mut cmd: Command) -> Command {
        let d = |sub: &str| {
            self.install
                .inside(&self.dir.join(sub))
                .display()
                .to_string()
        };
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

    /// `rabbitmq-plugins -n NODE args...` with the node's own plugins file: its output, or a
    /// panic naming the failure.
    pub fn plugins(&self, args: &[&str]) -> String {
        let out = self
            .env(self.install.command("rabbitmq-plugins"))
            .args(["-n", &self.name])
            .args(args)
            .stdin(Stdio::null())
            .output()
            .expect("rabbitmq-plugins runs");
        assert!(
            out.status.success(),
            "rabbitmq-plugins -n {} {} failed: {}{}",
            self.name,
            args.join(" "),
            String::from_utf8_lossy(&out.stdout),
            String::from_utf8_lossy(&out.stderr)
        );
        String::from_utf8_lossy(&out.stdout).into_owned()
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
        self.install
            .command("rabbitmqctl")
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
        let gone = poll(Duration::from_secs(30), Duration::from_millis(100), || {
            !alive(pid) && !port_open(self.amqp_port)
        });
        assert!(gone, "the killed node {} still runs", self.name);
    }

    /// Sends `signal` (`-STOP`, `-CONT`) to the node's VM.
    pub fn signal(&self, signal: &str) {
        let pid = self.pid().expect("the private node's pid file");
        let status = Command::new("kill")
            .args([signal, &pid.to_string()])
            .status()
            .expect("kill");
        assert!(status.success(), "kill {signal} {pid} failed");
    }

    /// Whether the node's VM runs (its pid file names a live process).
    pub fn is_running(&self) -> bool {
        self.pid().is_some_and(alive)
    }

    /// kill -9 of the node's VM if it runs (the end of a test that throws its data away).
    pub fn kill_vm_if_running(&self) {
        if let Some(pid) = self.pid().filter(|&p| alive(p)) {
            let _ = Command::new("kill").args(["-9", &pid.to_string()]).status();
            poll(Duration::from_secs(10), Duration::from_millis(100), || {
                !alive(pid)
            });
        }
    }

    /// Stops the node (`rabbitmqctl stop`), then kills what is left of it.
    pub fn stop(&self) {
        let pid = self.pid();
        if pid.is_some_and(|p| !alive(p)) && !port_open(self.amqp_port) {
            // Killed already (a cluster's end): the CLI would only take seconds to say so.
            return;
        }
        let _ = self.ctl_output(&["stop"]);
        if let Some(pid) = pid {
            poll(Duration::from_secs(20), Duration::from_millis(100), || {
                !alive(pid)
            });
            if alive(pid) {
                let _ = Command::new("kill").args(["-9", &pid.to_string()]).status();
            }
        }
    }
}

/// Stops whatever a killed run left of the node of `slot`, whichever install it came from
/// (the lock is held: no other test's node can be running there).
fn stop_leftovers(slot: u16) {
    // Never dropped: a leftover's directory goes when the slot's fresh node is made, or stays
    // (another install's) until that install's next run.
    let leftovers: Vec<std::mem::ManuallyDrop<Node>> = Install::all()
        .into_iter()
        .map(|install| std::mem::ManuallyDrop::new(Node::of_slot(slot, install)))
        .collect();
    let Some(any) = leftovers.first() else { return };
    let (amqp_port, dist_port) = (any.amqp_port, any.dist_port);
    let ports_busy = || port_open(amqp_port) || port_open(dist_port);
    let mut found = false;
    for node in &leftovers {
        if node.pid().is_some_and(alive) {
            eprintln!(
                "stopping a leftover private node {} ({:?})",
                node.name, node.install
            );
            node.stop();
            found = true;
        }
    }
    if ports_busy() {
        // No pid file: ask each install's CLI (one has the node's cookie).
        for node in &leftovers {
            eprintln!(
                "stopping a leftover private node {} ({:?}) found on its ports",
                node.name, node.install
            );
            let _ = node.ctl_output(&["stop"]);
        }
        found = true;
    }
    if found {
        let free = poll(Duration::from_secs(30), Duration::from_millis(200), || {
            !ports_busy()
        });
        assert!(
            free,
            "a process that is not a private node qtest{slot}@localhost holds port \
             {amqp_port} or {dist_port}; stop it"
        );
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
