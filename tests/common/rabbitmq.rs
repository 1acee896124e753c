//! Which RabbitMQ the tests' own scripts come from, and the test broker's own CLI.
//!
//! The suite runs against one test broker (`QUEUEY_TEST_URL` / `QUEUEY_TEST_API_URL`), of
//! RabbitMQ 3.x or 4.x. Its version decides where the private nodes ([`super::node`]) and every
//! `rabbitmqctl` the tests run come from ([`Install`]):
//!
//! - 3.x: the machine's packages (`rabbitmq-server`, `rabbitmqctl` on the `PATH`);
//! - 4.x: the Debian-sid root that `scripts/rabbitmq4.sh root` makes (`QUEUEY_RABBITMQ4_ROOT`,
//!   default `/var/cache/queuey/rabbitmq-sid`), each script run as
//!   `chroot ROOT env HOME=/var/lib/rabbitmq ...` (the root's `rabbitmq` user and Erlang
//!   cookie). The machine's 3.x CLI cannot reach a 4.x node: another cookie.
//!
//! The version is the test broker's (`rabbitmq_version` of its `/api/overview`), or
//! `QUEUEY_TEST_RABBITMQ_VERSION` (`3.10`, `4.3`, `4`...) when set, which asks nothing.
//!
//! [`rabbitmqctl`] runs the test broker's own CLI aimed at its node (`-n`, the `node` of its
//! `/api/overview`); [`cli_dir`] is a directory holding a `rabbitmqctl` that does the same, to
//! put first on the `PATH` of a remedy command pasted as printed.

use std::path::{Path, PathBuf};
use std::process::{Command, Output, Stdio};
use std::sync::OnceLock;

use super::{test_api_url, test_url};

/// Where a RabbitMQ's scripts come from.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Install {
    /// The machine's own packages.
    Host,
    /// A root of its own (the 4.x one of `scripts/rabbitmq4.sh`), entered with `chroot`.
    Root(PathBuf),
}

/// The default 4.x root, as `scripts/rabbitmq4.sh` makes it (Debian sid: the current 4.x).
pub const DEFAULT_ROOT: &str = "/var/cache/queuey/rabbitmq-sid";

/// The root of Debian stable's 4.0.5 (`QUEUEY_RABBITMQ4_SUITE=trixie scripts/rabbitmq4.sh`).
pub const TRIXIE_ROOT: &str = "/var/cache/queuey/rabbitmq-trixie";

impl Install {
    /// The install that goes with a RabbitMQ of `major` version.
    pub fn for_major(major: u32) -> Install {
        if major >= 4 {
            Install::Root(Install::root_path())
        } else {
            Install::Host
        }
    }

    /// The 4.x root: `QUEUEY_RABBITMQ4_ROOT`, or the default of the test broker's version
    /// (trixie's for a 4.0-4.2 test broker, sid's otherwise).
    pub fn root_path() -> PathBuf {
        std::env::var_os("QUEUEY_RABBITMQ4_ROOT")
            .filter(|v| !v.is_empty())
            .map_or_else(
                || match test_broker_version() {
                    (4, minor) if minor < 3 => PathBuf::from(TRIXIE_ROOT),
                    _ => PathBuf::from(DEFAULT_ROOT),
                },
                PathBuf::from,
            )
    }

    /// Every install a node left on this machine may have come from (to find leftovers).
    pub fn all() -> Vec<Install> {
        let root = Install::root_path();
        let mut all = vec![Install::Host];
        if root.join("usr/sbin/rabbitmq-server").exists() {
            all.push(Install::Root(root));
        }
        all
    }

    /// A command running `program` (`rabbitmqctl`, `rabbitmq-server`...) of this install. The
    /// environment given to it reaches the program (chroot and env keep it).
    pub fn command(&self, program: &str) -> Command {
        match self {
            Install::Host => Command::new(program),
            Install::Root(root) => {
                self.prepare();
                let mut cmd = Command::new("chroot");
                cmd.arg(root)
                    .args(["env", "HOME=/var/lib/rabbitmq"])
                    .arg(Path::new("/usr/sbin").join(program));
                cmd
            }
        }
    }

    /// A shell command line running this install's `program` with `args` (already quoted for
    /// the shell) followed by the caller's arguments (`"$@"`).
    fn shell_line(&self, program: &str, args: &str) -> String {
        match self {
            Install::Host => {
                let path = which(program).unwrap_or_else(|| {
                    panic!("{program} is not on the PATH: is RabbitMQ installed?")
                });
                format!(
                    "exec {} {args} \"$@\"",
                    shell_quote(&path.display().to_string())
                )
            }
            Install::Root(root) => {
                self.prepare();
                format!(
                    "exec chroot {} env HOME=/var/lib/rabbitmq /usr/sbin/{program} {args} \"$@\"",
                    shell_quote(&root.display().to_string())
                )
            }
        }
    }

    /// A directory for private nodes' data, as the machine sees it: under the temporary
    /// directory for the host, under the root's `/tmp` for a root (the node sees only its root).
    pub fn nodes_dir(&self) -> PathBuf {
        match self {
            Install::Host => std::env::temp_dir().join("queuey-private-nodes"),
            Install::Root(root) => root.join("tmp/queuey-private-nodes"),
        }
    }

    /// `path` (under [`Install::nodes_dir`]) as a node of this install sees it.
    pub fn inside(&self, path: &Path) -> PathBuf {
        match self {
            Install::Host => path.to_owned(),
            Install::Root(root) => Path::new("/").join(
                path.strip_prefix(root)
                    .unwrap_or_else(|_| panic!("{} is not in {}", path.display(), root.display())),
            ),
        }
    }

    /// Gives `path` (under [`Install::nodes_dir`]) to this install's `rabbitmq` user, when the
    /// tests run as root (the packaged scripts then run the node as that user).
    pub fn give_to_rabbitmq(&self, path: &Path) {
        if !running_as_root() {
            if matches!(self, Install::Root(_)) {
                panic!(
                    "private RabbitMQ 4.x nodes run in a root of their own: the tests must run as root (chroot)"
                );
            }
            return;
        }
        let status = match self {
            Install::Host => Command::new("chown")
                .args(["-R", "rabbitmq:rabbitmq"])
                .arg(path)
                .status(),
            Install::Root(root) => Command::new("chroot")
                .arg(root)
                .args(["chown", "-R", "rabbitmq:rabbitmq"])
                .arg(self.inside(path))
                .status(),
        }
        .expect("chown runs");
        assert!(
            status.success(),
            "cannot give {} to the rabbitmq user",
            path.display()
        );
    }

    /// A root needs `/proc` mounted and the machine's `/etc/hosts` (without it: `epmd error for
    /// host localhost: nxdomain`), as `scripts/rabbitmq4.sh` does. Once per process.
    fn prepare(&self) {
        let Install::Root(root) = self else { return };
        static PREPARED: OnceLock<()> = OnceLock::new();
        PREPARED.get_or_init(|| {
            assert!(
                root.join("usr/sbin/rabbitmq-server").exists(),
                "no RabbitMQ 4.x root at {}: make it with `scripts/rabbitmq4.sh root` (as root, \
                 about a minute), or set QUEUEY_RABBITMQ4_ROOT",
                root.display()
            );
            let _ = std::fs::copy("/etc/hosts", root.join("etc/hosts"));
            if !root.join("proc/self").exists() {
                let status = Command::new("mount")
                    .args(["-t", "proc", "proc"])
                    .arg(root.join("proc"))
                    .status()
                    .expect("mount runs");
                assert!(status.success(), "cannot mount /proc in {}", root.display());
            }
        });
    }
}

/// What the tests know of the test broker: its version and its node's name.
#[derive(Clone, Debug)]
pub struct TestBroker {
    pub version: (u32, u32),
    /// The node's name (`rabbit@localhost`), `None` when the version came from
    /// `QUEUEY_TEST_RABBITMQ_VERSION` and nothing asked the broker.
    node: Option<String>,
}

/// Parses `4.3.6` or `4` into (major, minor).
pub fn parse_version(text: &str) -> Option<(u32, u32)> {
    let mut parts = text.trim().split('.');
    let major = parts.next()?.parse().ok()?;
    let minor = match parts.next() {
        Some(p) => p.parse().ok()?,
        None => 0,
    };
    Some((major, minor))
}

/// The test broker's version: `QUEUEY_TEST_RABBITMQ_VERSION`, or its API's.
pub fn test_broker_version() -> (u32, u32) {
    static VERSION: OnceLock<(u32, u32)> = OnceLock::new();
    *VERSION.get_or_init(|| match std::env::var("QUEUEY_TEST_RABBITMQ_VERSION") {
        Ok(v) if !v.is_empty() => parse_version(&v).unwrap_or_else(|| {
            panic!("QUEUEY_TEST_RABBITMQ_VERSION={v:?} is not a version such as 3.10 or 4.3")
        }),
        _ => overview().version,
    })
}

/// The install of the test broker's version: where private nodes and the CLI come from.
pub fn install() -> &'static Install {
    static INSTALL: OnceLock<Install> = OnceLock::new();
    INSTALL.get_or_init(|| Install::for_major(test_broker_version().0))
}

/// The test broker's `/api/overview`: its version and node name (asked once).
fn overview() -> TestBroker {
    static OVERVIEW: OnceLock<TestBroker> = OnceLock::new();
    OVERVIEW
        .get_or_init(|| {
            // A thread of its own: a runtime cannot start inside a test's runtime.
            super::require_test_broker(&test_url());
            std::thread::spawn(|| {
                let url = format!("{}/api/overview", test_api_url().trim_end_matches('/'));
                let uri: lapin::uri::AMQPUri = test_url().parse().expect("a valid AMQP URL");
                let rt = tokio::runtime::Builder::new_current_thread()
                    .enable_all()
                    .build()
                    .expect("a tokio runtime");
                let doc: serde_json::Value = rt.block_on(async {
                    reqwest::Client::new()
                        .get(&url)
                        .basic_auth(
                            &uri.authority.userinfo.username,
                            Some(&uri.authority.userinfo.password),
                        )
                        .timeout(std::time::Duration::from_secs(30))
                        .send()
                        .await
                        .and_then(reqwest::Response::error_for_status)
                        .unwrap_or_else(|e| {
                            panic!("GET {url} (the test broker's version and node): {e}")
                        })
                        .json()
                        .await
                        .expect("JSON")
                });
                let version = doc["rabbitmq_version"]
                    .as_str()
                    .and_then(parse_version)
                    .unwrap_or_else(|| panic!("no rabbitmq_version in {url}: {doc}"));
                let node = doc["node"].as_str().map(str::to_owned);
                TestBroker { version, node }
            })
            .join()
            .unwrap_or_else(|e| std::panic::resume_unwind(e))
        })
        .clone()
}

/// The test broker's node name, from its API.
pub fn test_node() -> String {
    overview()
        .node
        .unwrap_or_else(|| panic!("the test broker's /api/overview names no node"))
}

/// `rabbitmqctl -n NODE args...` of the test broker, through its own CLI.
pub fn rabbitmqctl(args: &[&str]) -> Output {
    install()
        .command("rabbitmqctl")
        .args(["-n", &test_node()])
        .args(args)
        .stdin(Stdio::null())
        .output()
        .expect("rabbitmqctl runs")
}

/// A directory holding a `rabbitmqctl` that runs the test broker's own CLI aimed at its node:
/// put it first on the `PATH` of a command pasted as queuey prints it.
pub fn cli_dir() -> PathBuf {
    static DIR: OnceLock<PathBuf> = OnceLock::new();
    DIR.get_or_init(|| {
        let node = test_node();
        let script = format!(
            "#!/bin/sh\n# The test broker's own rabbitmqctl (tests/common/rabbitmq.rs).\n{}\n",
            install().shell_line("rabbitmqctl", &format!("-n {}", shell_quote(&node)))
        );
        // One directory per node, written afresh by each test process (atomically: another
        // process may be running it).
        // Cargo's scratch directory of the tests (an example including the harness has none).
        let scratch = option_env!("CARGO_TARGET_TMPDIR")
            .map(PathBuf::from)
            .unwrap_or_else(|| std::env::temp_dir().join("queuey-harness"));
        let dir = scratch.join("test-broker-cli").join(&node);
        std::fs::create_dir_all(&dir).expect("a directory for the test broker's CLI");
        let fresh = dir.join(format!(".rabbitmqctl.{}", std::process::id()));
        std::fs::write(&fresh, script).expect("the test broker's rabbitmqctl");
        use std::os::unix::fs::PermissionsExt;
        std::fs::set_permissions(&fresh, std::fs::Permissions::from_mode(0o755)).expect("chmod +x");
        std::fs::rename(&fresh, dir.join("rabbitmqctl")).expect("the test broker's rabbitmqctl");
        dir
    })
    .clone()
}

pub fn running_as_root() -> bool {
    Command::new("id")
        .arg("-u")
        .output()
        .is_ok_and(|o| o.stdout.trim_ascii() == b"0")
}

fn which(program: &str) -> Option<PathBuf> {
    std::env::var_os("PATH")
        .map(|paths| std::env::split_paths(&paths).collect::<Vec<_>>())
        .unwrap_or_default()
        .into_iter()
        .map(|d| d.join(program))
        .find(|p| p.is_file())
}

fn shell_quote(s: &str) -> String {
    format!("'{}'", s.replace('\'', r"'\''"))
}
