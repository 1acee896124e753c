//! The commands the browser runs: queuey itself (this very executable) with the command line
//! it shows, so that an action on the screen is exactly that command, its checks, prompts and
//! ledger included. Each reaches the broker as this run was told to: the connection and
//! topology file given by flags are passed on as their variables (a password never on a
//! command line another user's `ps` shows).

use std::io::{self, BufRead, Write};
use std::process::{Command, Stdio};

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

/// Runs `queuey ARGS` with no terminal (its standard input empty): what it printed, standard
/// output then standard error, and its exit code (`None`: a signal ended it).
pub fn run_captured(settings: &BrowseSettings, args: &[String]) -> (String, Option<i32>) {
    let output = queuey(settings, args).and_then(|mut c| c.stdin(Stdio::null()).output());
    match output {
        Ok(out) => {
            let mut text = String::from_utf8_lossy(&out.stdout).into_owned();
            let err = String::from_utf8_lossy(&out.stderr);
            if !err.trim().is_empty() {
                if !text.is_empty() && !text.ends_with('\n') {
                    text.push('\n');
                }
                text.push_str(&err);
            }
            (text, out.status.code())
        }
        Err(e) => (format!("cannot run queuey: {e}"), Some(-1)),
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
