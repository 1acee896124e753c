//! The one way a test runs queuey: [`Queuey`] builds the command, [`Run`] is what it said.
//!
//! Every command starts from the same ground: a cleared environment (no stray `QUEUEY_*`, only
//! `PATH`), `NO_COLOR`, the test broker's URLs in `QUEUEY_URL` and `QUEUEY_API_URL`, and a
//! working directory of its own (a fresh empty one unless the test gives one), with the replay
//! journal's state directory inside it. A test adds what it is about and nothing else:
//!
//! ```ignore
//! let out = Queuey::new().args(["dead", "ls", &q, "-o", "json"]).run();
//! // Or built step by step, as a `std::process::Command` is:
//! let mut queuey = Queuey::new();
//! queuey.args(["dead", "ls", &q]);
//! if json {
//!     queuey.args(["-o", "json"]);
//! }
//! let out = queuey.run();
//! assert_eq!(out.code(), 0, "{}", out.stderr);
//! assert_eq!(out.json()["total"], 3);
//! ```

use std::ffi::OsStr;
use std::path::{Path, PathBuf};
use std::process::{ExitStatus, Output};
use std::time::Duration;

use tempfile::TempDir;

use super::node::Node;
use super::{test_api_url, test_url};

/// How long one run on the test broker may take before the test fails: a hang fails instead of
/// holding the suite (the longest runs of the live suite take under a minute).
const RUN_TIMEOUT: Duration = Duration::from_secs(120);

/// A queuey command aimed at the test broker, run by [`Queuey::run`] or spawned from
/// [`Queuey::process`].
pub struct Queuey {
    cmd: std::process::Command,
    /// The fresh directory the command runs in, when the test gave none: kept until it ends.
    own_dir: Option<TempDir>,
    stdin: Option<Vec<u8>>,
    /// None: as long as it takes.
    timeout: Option<Duration>,
}

impl Queuey {
    /// queuey in a fresh empty directory (no `queuey.toml`, no journal).
    pub fn new() -> Queuey {
        let dir = tempfile::tempdir().expect("a temporary directory");
        let mut queuey = Queuey::in_dir(dir.path());
        queuey.own_dir = Some(dir);
        queuey
    }

    /// queuey in `dir` (its `queuey.toml`, its journal in `dir/state`), which the test keeps.
    pub fn in_dir(dir: &Path) -> Queuey {
        let mut cmd = std::process::Command::new(assert_cmd::cargo::cargo_bin("queuey"));
        cmd.env_clear()
            .env("PATH", std::env::var_os("PATH").unwrap_or_default())
            .env("QUEUEY_URL", test_url())
            .env("QUEUEY_API_URL", test_api_url())
            .env("NO_COLOR", "1")
            // The replay journal lives in the state directory: one per test directory.
            .env("XDG_STATE_HOME", dir.join("state"))
            .current_dir(dir);
        Queuey {
            cmd,
            own_dir: None,
            stdin: None,
            timeout: Some(RUN_TIMEOUT),
        }
    }

    /// queuey in `dir` aimed at a private node (its AMQP and management API URLs), with no
    /// time limit: a run through a broker the test is breaking takes what the fault costs
    /// (minutes, for 20 000 quorum dead letters on a cluster under load).
    pub fn on_node(dir: &Path, node: &Node) -> Queuey {
        let mut queuey = Queuey::in_dir(dir);
        queuey.broker(&node.url(), &node.api_url());
        queuey.timeout = None;
        queuey
    }

    pub fn arg(&mut self, arg: impl AsRef<OsStr>) -> &mut Queuey {
        self.cmd.arg(arg);
        self
    }

    pub fn args<I, S>(&mut self, args: I) -> &mut Queuey
    where
        I: IntoIterator<Item = S>,
        S: AsRef<OsStr>,
    {
        self.cmd.args(args);
        self
    }

    pub fn env(&mut self, key: impl AsRef<OsStr>, value: impl AsRef<OsStr>) -> &mut Queuey {
        self.cmd.env(key, value);
        self
    }

    pub fn env_remove(&mut self, key: impl AsRef<OsStr>) -> &mut Queuey {
        self.cmd.env_remove(key);
        self
    }

    /// Aims the command at another broker than the test broker (a private node, a cluster):
    /// `QUEUEY_URL` and `QUEUEY_API_URL`.
    pub fn broker(&mut self, url: &str, api_url: &str) -> &mut Queuey {
        self.env("QUEUEY_URL", url).env("QUEUEY_API_URL", api_url)
    }

    /// What the command reads on its standard input (else nothing: stdin is closed).
    pub fn stdin(&mut self, input: impl Into<Vec<u8>>) -> &mut Queuey {
        self.stdin = Some(input.into());
        self
    }

    /// How long [`Queuey::run`] waits before it fails the test (two minutes unless said).
    pub fn timeout(&mut self, timeout: Duration) -> &mut Queuey {
        self.timeout = Some(timeout);
        self
    }

    /// The directory the command runs in.
    pub fn dir(&self) -> PathBuf {
        self.cmd
            .get_current_dir()
            .expect("a queuey command has its directory")
            .to_owned()
    }

    /// Runs queuey to its end and returns what it said.
    pub fn run(&mut self) -> Run {
        let mut cmd = assert_cmd::Command::from_std(self.command());
        if let Some(timeout) = self.timeout {
            cmd.timeout(timeout);
        }
        if let Some(input) = self.stdin.take() {
            cmd.write_stdin(input);
        }
        let output = cmd
            .output()
            .unwrap_or_else(|e| panic!("running queuey: {e}"));
        Run::from(output)
    }

    /// The command to spawn (to signal, kill or read it while it runs), in a directory the test
    /// gave: a fresh one would be gone before the child ran.
    pub fn process(&mut self) -> std::process::Command {
        assert!(
            self.own_dir.is_none(),
            "a spawned queuey needs a directory that outlives it: use Queuey::in_dir"
        );
        self.command()
    }

    /// The command run on a pseudo-terminal: `script -qec` (whose `-e` passes queuey's exit
    /// code on) with the same environment and directory; what queuey writes to stdout and
    /// stderr is on the terminal, read from script's stdout.
    pub fn in_terminal(&mut self) -> std::process::Command {
        self.in_terminal_after("")
    }

    /// [`Queuey::in_terminal`], with the shell command `before` run first on the same terminal
    /// (`stty cols 150 rows 40` gives it a size; `stty size` shows the one it has).
    pub fn in_terminal_after(&mut self, before: &str) -> std::process::Command {
        let queuey = self.process();
        let quote = |a: &OsStr| format!("'{}'", a.to_string_lossy().replace('\'', r"'\''"));
        let line: Vec<String> = std::iter::once(queuey.get_program())
            .chain(queuey.get_args())
            .map(quote)
            .collect();
        let mut script = std::process::Command::new("script");
        script.env_clear();
        for (key, value) in queuey.get_envs() {
            if let Some(value) = value {
                script.env(key, value);
            }
        }
        let line = line.join(" ");
        let line = if before.is_empty() {
            line
        } else {
            format!("{before}; {line}")
        };
        script.args(["-qec", &line, "/dev/null"]);
        if let Some(dir) = queuey.get_current_dir() {
            script.current_dir(dir);
        }
        script
    }

    /// The command built so far, taken out (a [`Queuey`] runs once).
    fn command(&mut self) -> std::process::Command {
        std::mem::replace(
            &mut self.cmd,
            std::process::Command::new("queuey-already-ran"),
        )
    }
}

impl Default for Queuey {
    fn default() -> Queuey {
        Queuey::new()
    }
}

/// What one run of queuey said: its exit status, its stdout and stderr as text (stdout also as
/// bytes, for what is not text).
#[derive(Debug)]
pub struct Run {
    pub status: ExitStatus,
    pub stdout: String,
    pub stderr: String,
    pub stdout_bytes: Vec<u8>,
}

impl From<Output> for Run {
    fn from(output: Output) -> Run {
        Run {
            status: output.status,
            stdout: String::from_utf8_lossy(&output.stdout).into_owned(),
            stderr: String::from_utf8_lossy(&output.stderr).into_owned(),
            stdout_bytes: output.stdout,
        }
    }
}

impl Run {
    /// The exit code; a run ended by a signal fails the test.
    pub fn code(&self) -> i32 {
        self.status
            .code()
            .unwrap_or_else(|| panic!("queuey ended by a signal: {self:?}"))
    }

    pub fn success(&self) -> bool {
        self.status.success()
    }

    /// Fails the test, showing stderr, unless queuey exited `code`.
    pub fn expect_code(self, code: i32) -> Run {
        assert_eq!(
            self.status.code(),
            Some(code),
            "queuey's exit code; stderr:\n{}\nstdout:\n{}",
            self.stderr,
            self.stdout
        );
        self
    }

    /// stdout as one JSON document (`-o json`), or the test fails showing both streams.
    pub fn json(&self) -> serde_json::Value {
        self.json_as()
    }

    /// stdout as one JSON document read into `T`.
    pub fn json_as<T: serde::de::DeserializeOwned>(&self) -> T {
        serde_json::from_str(&self.stdout).unwrap_or_else(|e| {
            panic!(
                "stdout is not the JSON expected ({e}):\n{}\nstderr:\n{}",
                self.stdout, self.stderr
            )
        })
    }

    /// The report of a run that succeeded (exit 0): its JSON document.
    pub fn report(&self) -> serde_json::Value {
        assert!(
            self.success(),
            "queuey failed ({}):\n{}",
            self.status,
            self.stderr
        );
        self.json()
    }
}

/// What the shared readers ([`super::json`], [`super::stdout`], [`super::stderr`],
/// [`super::code`]) take: a [`Run`], or the `Output` of a spawned queuey.
pub trait Said {
    fn status(&self) -> ExitStatus;
    fn stdout_text(&self) -> String;
    fn stderr_text(&self) -> String;
}

impl Said for Run {
    fn status(&self) -> ExitStatus {
        self.status
    }
    fn stdout_text(&self) -> String {
        self.stdout.clone()
    }
    fn stderr_text(&self) -> String {
        self.stderr.clone()
    }
}

impl Said for Output {
    fn status(&self) -> ExitStatus {
        self.status
    }
    fn stdout_text(&self) -> String {
        String::from_utf8_lossy(&self.stdout).into_owned()
    }
    fn stderr_text(&self) -> String {
        String::from_utf8_lossy(&self.stderr).into_owned()
    }
}
