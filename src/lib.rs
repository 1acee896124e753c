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
pub mod journal_file;
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
                eprintln!("{}", redact::redact(&text));
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
    if err.kind == error::Kind::Io && err.message == output::BROKEN_PIPE {
        return ExitCode::Ok;
    }
    eprintln!("error: {}", redact::redact(&err.to_string()));
    err.exit_code()
}
