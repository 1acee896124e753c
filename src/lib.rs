//! queuey: the operator's command line for the RabbitMQ topology and dead letters of queuey
//! job queues. The binary is a thin `main` over [`run`]; the modules are public so that tests,
//! property tests and fuzz targets can reach the pure parts.
//!
//! Layout: `cli` (clap only) -> `settings` (plain validated values) -> `commands` (the work),
//! which reach RabbitMQ only through `broker` and print only through `output`. `topology`,
//! `plan` and `duration` are pure and never import lapin.

pub mod broker;
pub mod cli;
pub mod commands;
pub mod dead;
pub mod duration;
pub mod error;
pub mod output;
pub mod plan;
pub mod redact;
pub mod settings;
pub mod shell;
pub mod suggest;
pub mod timestamp;
pub mod topology;

use clap::Parser;

use error::{Error, ExitCode};

/// Parses the command line, runs the command, prints any error once, and returns the exit code.
pub fn run() -> ExitCode {
    let cli = match cli::Cli::try_parse() {
        Ok(cli) => cli,
        Err(e) => {
            if let Some(text) = misplaced_flag_error(&e) {
                eprintln!("{}", output::for_stderr(&text));
                return ExitCode::Usage;
            }
            // clap prints help and version to stdout with success, usage errors to stderr.
            let _ = e.print();
            return if e.use_stderr() {
                ExitCode::Usage
            } else {
                ExitCode::Ok
            };
        }
    };
    let invocation = match settings::Invocation::from_cli(cli) {
        Ok(i) => i,
        Err(e) => return report(&e),
    };
    // One thread: queuey's work is a few pipelined stages joined on one task, and lapin runs
    // its own I/O; more worker threads only add wake-ups between them.
    let runtime = match tokio::runtime::Builder::new_current_thread()
        .enable_all()
        .build()
    {
        Ok(r) => r,
        Err(e) => {
            return report(&Error::internal(format!(
                "cannot start the async runtime: {e}"
            )));
        }
    };
    let output = invocation.output;
    for note in &invocation.notes {
        output.note(note);
    }
    match runtime.block_on(commands::run(invocation.work, output)) {
        Ok(code) => code,
        Err(e) => report(&e),
    }
}

/// clap's answer to a subcommand's flag given before the subcommand suggests a top-level flag
/// that merely looks alike (`--reason` -> `--version`); this says where the flag goes instead.
fn misplaced_flag_error(e: &clap::Error) -> Option<String> {
    use clap::error::{ContextKind, ContextValue, ErrorKind};
    if e.kind() != ErrorKind::UnknownArgument {
        return None;
    }
    let Some(ContextValue::String(flag)) = e.get(ContextKind::InvalidArg) else {
        return None;
    };
    let args: Vec<String> = std::env::args_os()
        .skip(1)
        .map(|a| a.to_string_lossy().into_owned())
        .collect();
    let (subcommand, corrected) = cli::misplaced_flag(&args, flag)?;
    Some(format!(
        "error: {flag} is an option of `queuey {subcommand}`: it goes after the subcommand, as in\n  \
         {corrected}"
    ))
}

/// Prints `err` once, on stderr, with its hint and without secrets; a closed stdout is silent.
fn report(err: &Error) -> ExitCode {
    match error_text(err) {
        Some(text) => {
            eprintln!("{text}");
            err.exit_code()
        }
        None => ExitCode::Ok,
    }
}

/// What [`report`] prints for `err`: `None` for a closed stdout (not an error), else the error
/// and its hint, every registered password masked and every character that could fool a
/// terminal escaped (an error may quote a library's text, which may quote a stranger's).
pub fn error_text(err: &Error) -> Option<String> {
    if err.kind == error::Kind::Io && err.message == output::BROKEN_PIPE {
        return None;
    }
    Some(format!("error: {}", output::for_stderr(&err.to_string())))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_error_printer_masks_passwords_and_escapes_what_fools_a_terminal() {
        redact::register_secret("pr1nter-s3cret", "bob");
        let err = Error::new(
            error::Kind::Unreachable,
            "cannot connect to amqp://bob:pr1nter-s3cret@host (pr1nter-s3cret%21?)\x1b[2J",
        )
        .with_hint("the library said \u{2067}terces\u{2069}\r");
        let text = error_text(&err).expect("an error is printed");
        assert_eq!(
            text,
            format!(
                "error: cannot connect to amqp://bob:***@host (***%21?)\\x1b[2J\n  \
                 the library said \\u{{2067}}terces\\u{{2069}}\\r"
            )
        );
        assert_eq!(err.exit_code(), ExitCode::Unreachable);
    }

    #[test]
    fn a_closed_stdout_prints_nothing() {
        let err = Error::new(error::Kind::Io, output::BROKEN_PIPE);
        assert_eq!(error_text(&err), None);
        assert_eq!(report(&err), ExitCode::Ok, "a closed pipe is not an error");
        let other = Error::new(error::Kind::Io, "cannot write archive.jsonl");
        assert_eq!(
            error_text(&other).as_deref(),
            Some("error: cannot write archive.jsonl")
        );
    }
}
