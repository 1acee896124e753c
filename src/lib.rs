//! queuey: the operator's command line for the RabbitMQ topology and dead letters of queuey
//! job queues. The binary is a thin `main` over [`run`]; the modules are public so that tests,
//! property tests and fuzz targets can reach the pure parts.
//!
//! Layout: `cli` (clap only) -> `settings` (plain validated values) -> `commands` (the work),
//! which reach RabbitMQ only through `broker` and print only through `output`. The pure core
//! (`topology`, `queue`, `plan`, `dead`, `endpoint`, `duration`, ...) is the crate
//! `queuey-cli-core`, re-exported here under the same names.

pub use queuey_cli_core::{
    cluster, counts, dead, duration, endpoint, error, message_size, name_owner, plan, queue,
    redact, shell, suggest, tls_pem, topology, user_id, words,
};

pub mod broker;
pub mod cli;
pub mod clock;
pub mod commands;
pub mod deep_stack_thread;
pub mod ledger_file;
pub mod live;
pub mod output;
pub mod settings;
pub mod signals;

use error::{Error, ExitCode};

/// Parses the command line, runs the command, prints any error once, and returns the exit code.
pub fn run() -> ExitCode {
    // Before anything can fail: whatever looks like a password in a URL given on the command
    // line or in the URL variables is masked in every message, even where it does not parse
    // as a URL. (Other arguments, filters say, are left to the shape-based masking: their
    // `a:b@c` is rarely a password, and registering `b` would mask it everywhere.)
    let args: Vec<String> = std::env::args_os()
        .skip(1)
        .map(|a| a.to_string_lossy().into_owned())
        .collect();
    let url_values = args.iter().enumerate().filter_map(|(i, arg)| {
        let after_flag = i
            .checked_sub(1)
            .is_some_and(|p| matches!(args[p].as_str(), "--url" | "--api-url"));
        if after_flag {
            Some(arg.clone())
        } else {
            ["--url=", "--api-url="]
                .iter()
                .find_map(|flag| arg.strip_prefix(flag).map(str::to_owned))
        }
    });
    let env_values = ["QUEUEY_URL", "QUEUEY_API_URL"]
        .iter()
        .filter_map(|v| std::env::var_os(v).map(|v| v.to_string_lossy().into_owned()));
    for raw in url_values.chain(env_values) {
        redact::register_userinfo_of(&raw);
        // Each address of a list has its own password.
        for address in endpoint::split_list(&raw) {
            redact::register_userinfo_of(&address);
        }
    }
    let cli = match cli::Cli::try_parse_sourced(std::env::args_os()) {
        Ok(cli) => cli,
        Err(e) => {
            let json = asks_for_json(&args);
            // Nothing but this error is printed now, so every argument's `user:password@`
            // may be registered (a filter's `a:b@c` masked here costs nothing).
            for arg in &args {
                redact::register_userinfo_of(arg);
            }
            if let Some(text) = misplaced_flag_error(&e) {
                eprintln!("{}", output::for_stderr(&text));
                if json {
                    print_json_error(&Error::usage(text.trim_start_matches("error: ")));
                }
                return ExitCode::Usage;
            }
            // clap prints help and version to stdout with success, usage errors to stderr;
            // a usage error quotes the argument it refused, which may hold a password.
            if e.use_stderr() {
                let styled = e.render().ansi().to_string();
                let text = output::for_stderr(&strip_sgr(&styled));
                if text == e.render().to_string() {
                    let _ = e.print();
                } else {
                    eprint!("{text}");
                }
                if json {
                    let first = text.lines().next().unwrap_or_default();
                    print_json_error(&Error::usage(first.trim_start_matches("error: ")));
                }
                return ExitCode::Usage;
            }
            let _ = e.print();
            return ExitCode::Ok;
        }
    };
    // The two commands about the command line itself are run here, where clap is known.
    let quiet = cli.global.quiet;
    let assets = match &cli.command {
        cli::Command::Completions { shell } => Some(cli::assets::print_completions(*shell)),
        cli::Command::GenerateAssets { dir } => Some(cli::assets::generate(
            dir,
            output::Output {
                format: output::Format::Table,
                quiet,
                wide: false,
            },
        )),
        _ => None,
    };
    let format = match cli.global.output {
        cli::OutputFormat::Table => output::Format::Table,
        cli::OutputFormat::Json => output::Format::Json,
        cli::OutputFormat::Prometheus => output::Format::Prometheus,
    };
    if let Some(done) = assets {
        return done.unwrap_or_else(|e| report(&e, format));
    }
    let invocation = match settings::Invocation::from_cli(cli) {
        Ok(i) => i,
        Err(e) => return report(&e, format),
    };
    // One thread: queuey's work is a few pipelined stages joined on one task, and the AMQP client runs
    // its own I/O; more worker threads only add wake-ups between them.
    let runtime = match tokio::runtime::Builder::new_current_thread()
        .enable_all()
        .build()
    {
        Ok(r) => r,
        Err(e) => {
            return report(
                &Error::internal(format!("cannot start the async runtime: {e}")),
                format,
            );
        }
    };
    let output = invocation.output;
    for note in &invocation.notes {
        output.note(note);
    }
    match runtime.block_on(commands::run(invocation.work, output)) {
        Ok(code) => code,
        Err(e) => report(&e, format),
    }
}

/// Whether the command line asks for `-o json` / `--output json`, read from the raw arguments
/// when clap could not parse them (its error must then be JSON too).
fn asks_for_json(args: &[String]) -> bool {
    args.iter().enumerate().any(|(i, arg)| {
        let next = || args.get(i + 1).map(String::as_str);
        match arg.as_str() {
            "-o" | "--output" => next() == Some("json"),
            "-ojson" | "-o=json" | "--output=json" => true,
            _ => false,
        }
    })
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

/// `text` without its colour codes (`ESC [ digits;... m`, what clap styles its errors with),
/// and with every other character as it was: an argument's own escape character stays, for
/// [`output::for_stderr`] to mask around and to show escaped. (clap's plain rendering strips
/// every escape sequence, and with it the start of an argument such as `ESC:pw@`, which then
/// no longer has the shape of a password.)
fn strip_sgr(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    let mut rest = text;
    while let Some(esc) = rest.find("\x1b[") {
        out.push_str(&rest[..esc]);
        let params = &rest[esc + 2..];
        let len = params
            .find(|c: char| !(c.is_ascii_digit() || c == ';'))
            .unwrap_or(params.len());
        if params[len..].starts_with('m') {
            rest = &params[len + 1..];
        } else {
            out.push('\x1b');
            rest = &rest[esc + 1..];
        }
    }
    out.push_str(rest);
    out
}

/// Prints `err` once, on stderr, with its hint and without secrets; a closed stdout is silent.
/// With `-o json` the error is also one JSON document on stdout ([`json_error`]), so that a
/// script that parses stdout sees the failure rather than nothing.
fn report(err: &Error, format: output::Format) -> ExitCode {
    match error_text(err) {
        Some(text) => {
            eprintln!("{text}");
            if format == output::Format::Json {
                print_json_error(err);
            }
            err.exit_code()
        }
        None => ExitCode::Ok,
    }
}

/// Prints [`json_error`] on one line of stdout (one line, so that it also ends a stream of
/// JSON lines, `dead export`'s, as one more record). A stdout that cannot take it is let be:
/// the error is on stderr already.
fn print_json_error(err: &Error) {
    use std::io::Write;
    let doc = output::json::to_string(&json_error(err)).unwrap_or_default();
    let mut out = std::io::stdout().lock();
    let _ = writeln!(out, "{doc}");
}

/// The JSON document of an error: `{"error": {"exit_code", "kind", "message", "hint"}}`,
/// every registered password masked (JSON escapes control characters itself).
pub fn json_error(err: &Error) -> serde_json::Value {
    serde_json::json!({
        "error": {
            "exit_code": err.exit_code().code(),
            "kind": err.kind.name(),
            "message": redact::redact(&err.message),
            "hint": err.hint.as_deref().map(redact::redact),
        }
    })
}

/// What [`report`] prints for `err`: `None` for a closed stdout (not an error), else the error
/// and its hint, every registered password masked and every character that could fool a
/// terminal escaped (an error may quote a library's text, which may quote a stranger's).
pub fn error_text(err: &Error) -> Option<String> {
    if err.is_broken_pipe() {
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
    fn a_json_error_has_the_code_the_kind_the_message_and_the_hint_without_secrets() {
        redact::register_secret("j5on-s3cret", "bob");
        let err = Error::new(
            error::Kind::QueueNotFound,
            "queue \"q.dead\" does not exist at amqp://bob:j5on-s3cret@host",
        )
        .with_hint("declare it");
        assert_eq!(
            json_error(&err),
            serde_json::json!({"error": {
                "exit_code": 7,
                "kind": "queue-not-found",
                "message": "queue \"q.dead\" does not exist at amqp://bob:***@host",
                "hint": "declare it",
            }})
        );
        let bare = json_error(&Error::usage("bad"));
        assert_eq!(bare["error"]["hint"], serde_json::Value::Null);
        assert_eq!(bare["error"]["exit_code"], 2);
        let args = |a: &[&str]| a.iter().map(|s| s.to_string()).collect::<Vec<_>>();
        assert!(asks_for_json(&args(&["dead", "ls", "-o", "json", "--bad"])));
        assert!(asks_for_json(&args(&["--output=json", "x"])));
        assert!(asks_for_json(&args(&["-ojson"])));
        assert!(!asks_for_json(&args(&["-o", "table", "json"])));
        assert!(!asks_for_json(&args(&["dead", "ls", "json"])));
    }

    #[test]
    fn a_closed_stdout_prints_nothing() {
        let err = Error::new(error::Kind::BrokenPipe, "standard output closed");
        assert_eq!(error_text(&err), None);
        assert_eq!(
            report(&err, output::Format::Json),
            ExitCode::Ok,
            "a closed pipe is not an error"
        );
        let other = Error::new(error::Kind::Io, "cannot write archive.jsonl");
        assert_eq!(
            error_text(&other).as_deref(),
            Some("error: cannot write archive.jsonl")
        );
    }
}
