//! The commands the browser runs: queuey itself (this very executable) with the command line
//! it shows, so that an action on the screen is exactly that command, its checks, prompts and
//! ledger included. Each reaches the broker as this run was told to: the connection and
//! topology file given by flags are passed on as their variables (a password never on a
//! command line another user's `ps` shows).

use std::io::{self, BufRead, Read, Write};
use std::process::{Child, Command, Stdio};
use std::thread::JoinHandle;

use crate::settings::BrowseSettings;

fn queuey(settings: &BrowseSettings, args: &[String]) -> io::Result<Command> {
    let exe = std::env::current_exe()?;
    let mut command = Command::new(exe);
    command
        .args(&settings.child_flags)
        .args(args)
        .envs(settings.child_env.iter().map(|(k, v)| (k, v)));
    Ok(command)
}

/// `queuey ARGS` running with no terminal (its standard input empty), its standard output
/// and error read as they come by two threads (a command that says much never waits on a full
/// pipe), so that the screen can go on while it runs and stop it as Ctrl-C stops a command.
/// Dropped before its end (an error, a panic), it stops the command and waits for it: an
/// action never runs on behind a browser that has ended.
pub struct Running {
    child: Child,
    stdout: Option<JoinHandle<Vec<u8>>>,
    stderr: Option<JoinHandle<Vec<u8>>>,
}

/// Starts `queuey ARGS` with no terminal.
pub fn start(settings: &BrowseSettings, args: &[String]) -> io::Result<Running> {
    let mut child = queuey(settings, args)?
        .stdin(Stdio::null())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()?;
    Ok(Running {
        stdout: child.stdout.take().map(read_all),
        stderr: child.stderr.take().map(read_all),
        child,
    })
}

fn read_all(mut from: impl Read + Send + 'static) -> JoinHandle<Vec<u8>> {
    std::thread::spawn(move || {
        let mut bytes = Vec::new();
        // What was read before an error is what the command said.
        let _ = from.read_to_end(&mut bytes);
        bytes
    })
}

impl Running {
    /// Once the command has ended: what it printed, standard output then standard error, and
    /// its exit code (`None`: a signal ended it). `None` while it runs.
    pub fn ended(&mut self) -> Option<(String, Option<i32>)> {
        let code = match self.child.try_wait() {
            Ok(None) => return None,
            Ok(Some(status)) => status.code(),
            Err(e) => return Some((format!("cannot wait for queuey: {e}"), Some(-1))),
        };
        let take = |handle: Option<JoinHandle<Vec<u8>>>| {
            handle
                .and_then(|h| h.join().ok())
                .map(|bytes| String::from_utf8_lossy(&bytes).into_owned())
                .unwrap_or_default()
        };
        let mut text = take(self.stdout.take());
        let err = take(self.stderr.take());
        if !err.trim().is_empty() {
            if !text.is_empty() && !text.ends_with('\n') {
                text.push('\n');
            }
            text.push_str(&err);
        }
        Some((text, code))
    }

    /// Asks the command to stop as Ctrl-C asks it on a terminal (SIGINT): it stops taking
    /// messages, settles what it holds, says so and exits 130.
    pub fn interrupt(&self) {
        if let Ok(pid) = libc::pid_t::try_from(self.child.id()) {
            // SAFETY: a signal to our own child, not yet reaped (`ended` has not seen it end:
            // the screen interrupts only a command still running).
            unsafe { libc::kill(pid, libc::SIGINT) };
        }
    }
}

impl Drop for Running {
    fn drop(&mut self) {
        // Once reaped, the child keeps its status: `try_wait` says it has ended.
        if matches!(self.child.try_wait(), Ok(None)) {
            self.interrupt();
            let _ = self.child.wait();
        }
    }
}

/// Runs `queuey ARGS` on the terminal (an editor, its prompt), then waits for Enter so that
/// what it said can be read before the screen comes back. Its exit code (`None`: a signal).
pub fn run_on_terminal(settings: &BrowseSettings, args: &[String]) -> Option<i32> {
    let line = crate::output::browse::state::command_text(args);
    println!("$ {line}");
    let status = queuey(settings, args).and_then(|mut c| c.status());
    let code = match &status {
        Ok(s) => s.code(),
        Err(e) => {
            println!("cannot run queuey: {e}");
            Some(-1)
        }
    };
    print!(
        "[{}] press Enter to go back to the browser ",
        code.map_or("ended by a signal".to_owned(), |c| format!("exit code {c}"))
    );
    let _ = io::stdout().flush();
    let _ = io::stdin().lock().read_line(&mut String::new());
    code
}
