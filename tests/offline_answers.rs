//! Issue 10 without a broker: answers that are right and lead somewhere. Tables on a terminal
//! that reports no size, a flag put before its subcommand, a dotted queue name in queuey.toml,
//! help that lists only what a command uses.

mod common;

use std::fs;
use std::process::Stdio;

use common::{queuey, stderr, stdout};

/// Runs `queuey ARGS` inside `script(1)`: its standard output is a pseudo-terminal that reports
/// 0 rows and 0 columns (a `script` without a parent terminal), as container shells do before
/// their first resize. `columns` sets COLUMNS. Returns what the terminal showed.
fn on_a_sizeless_terminal(args: &str, columns: Option<&str>) -> String {
    let bin = assert_cmd::cargo::cargo_bin("queuey");
    let dir = tempfile::tempdir().unwrap();
    let mut cmd = std::process::Command::new("script");
    cmd.env_clear()
        .env("PATH", std::env::var_os("PATH").unwrap_or_default())
        .env("NO_COLOR", "1")
        .args([
            "-qec",
            &format!("stty size; {} {args}", bin.display()),
            "/dev/null",
        ])
        .current_dir(dir.path())
        .stdin(Stdio::null());
    if let Some(c) = columns {
        cmd.env("COLUMNS", c);
    }
    let out = cmd.output().expect("script(1) from util-linux");
    assert!(out.status.success(), "{}", stderr(&out));
    let text = stdout(&out).replace('\r', "");
    assert!(
        text.starts_with("0 0\n"),
        "the terminal should report no size: {text}"
    );
    text
}

/// Item 7: a terminal that reports 0x0 gets tables at their natural width, not one character
/// per column; COLUMNS, when set, bounds them.
#[test]
fn tables_keep_their_natural_width_on_a_terminal_without_a_size() {
    let args = "args orders.eu --message-ttl 1h --delay 30s";
    let text = on_a_sizeless_terminal(args, None);
    for whole in [
        "orders.deferred.30000",
        "x-dead-letter-routing-key = \"orders.eu\"",
        "x-message-ttl = 3600000 (1h)",
    ] {
        let whole = whole.replace("orders.deferred", "orders.eu.deferred");
        assert!(
            text.contains(&whole),
            "{whole:?} should be on one line:\n{text}"
        );
    }

    let text = on_a_sizeless_terminal(args, Some("70"));
    let widest = text.lines().map(|l| l.chars().count()).max().unwrap_or(0);
    assert!(
        widest <= 70,
        "COLUMNS=70, but a line is {widest} wide:\n{text}"
    );
    assert!(
        widest >= 40,
        "COLUMNS=70 leaves room for real columns:\n{text}"
    );
    assert!(text.contains("orders.eu"), "{text}");
}

/// Item 11: a flag of a subcommand given before it is answered with where it goes, not with a
/// suggestion of `--version`.
#[test]
fn a_flag_before_its_subcommand_is_shown_where_it_belongs() {
    let (mut cmd, _dir) = queuey();
    let out = cmd
        .args(["--reason", "timeout", "dead", "ls", "orders"])
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(2));
    let err = stderr(&out);
    assert!(!err.contains("--version"), "{err}");
    assert!(
        err.contains("queuey dead ls orders --reason timeout"),
        "the corrected command: {err}"
    );

    // A flag that takes no value, two levels down.
    let (mut cmd, _dir) = queuey();
    let out = cmd
        .args(["--dry-run", "dead", "replay", "orders", "--limit", "5"])
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(2));
    let err = stderr(&out);
    assert!(
        err.contains("queuey dead replay orders --limit 5 --dry-run"),
        "{err}"
    );

    // A flag no subcommand knows keeps clap's own answer.
    let (mut cmd, _dir) = queuey();
    let out = cmd.args(["--colour", "dead", "ls", "q"]).output().unwrap();
    assert_eq!(out.status.code(), Some(2));
    assert!(stderr(&out).contains("--colour"), "{}", stderr(&out));
}

/// Item 11: `[queues.tour.orders]` is a queue "tour" with a table "orders" in TOML; the error
/// says to quote the name.
#[test]
fn an_unquoted_dotted_queue_name_in_the_file_is_explained() {
    let (mut cmd, dir) = queuey();
    fs::write(
        dir.path().join("queuey.toml"),
        "[queues.tour.orders]\nmessage_ttl = \"1h\"\n",
    )
    .unwrap();
    let out = cmd.args(["args", "tour.orders"]).output().unwrap();
    assert_eq!(out.status.code(), Some(2));
    let err = stderr(&out);
    assert!(err.contains("[queues.\"tour.orders\"]"), "{err}");
    assert!(err.contains("quote"), "{err}");
}

/// Item 11: the help of a dead-letter command lists only the settings it uses (the suffixes
/// that name q.dead and the hold queues), and the others are refused.
#[test]
fn dead_letter_commands_take_only_the_settings_they_use() {
    for sub in ["ls", "show", "export", "replay", "purge"] {
        let (mut cmd, _dir) = queuey();
        let out = cmd.args(["dead", sub, "--help"]).output().unwrap();
        assert!(out.status.success());
        let help = stdout(&out);
        for unused in [
            "--message-ttl",
            "--max-priority",
            "--queue-type",
            "--delivery-limit",
            "--retry-granularity",
            "--deferred-granularity",
        ] {
            assert!(!help.contains(unused), "dead {sub} --help lists {unused}");
        }
        for used in ["--dead-suffix", "--deferred-suffix"] {
            assert!(help.contains(used), "dead {sub} --help lacks {used}");
        }
    }
    let (mut cmd, _dir) = queuey();
    let out = cmd
        .args(["dead", "show", "orders", "1", "--max-priority", "5"])
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(2));
}

/// Item 11: help never shows an empty `[env: QUEUEY_CONFIG=]`.
#[test]
fn help_shows_no_empty_environment_values() {
    for args in [
        vec!["--help"],
        vec!["verify", "--help"],
        vec!["dead", "ls", "--help"],
    ] {
        let (mut cmd, _dir) = queuey();
        let out = cmd.args(&args).output().unwrap();
        let text = stdout(&out);
        assert!(!text.contains("=]"), "{args:?}: {text}");
        assert!(text.contains("QUEUEY_CONFIG"), "{args:?}: {text}");
    }
}

/// Item 11: the help names the exit code of a declined purge.
#[test]
fn help_documents_the_exit_code_of_a_declined_prompt() {
    let (mut cmd, _dir) = queuey();
    let out = cmd.args(["dead", "purge", "--help"]).output().unwrap();
    let text = stdout(&out);
    assert!(text.contains("9"), "{text}");
    assert!(text.contains("declined"), "{text}");
    let (mut cmd, _dir) = queuey();
    let out = cmd.arg("--help").output().unwrap();
    let text = stdout(&out);
    assert!(
        text.lines()
            .any(|l| l.trim_start().starts_with("9 ") && l.contains("declined")),
        "{text}"
    );
}

/// Item 10: the help says how repeated filters combine, --header included.
#[test]
fn help_says_repeated_filters_match_any_value() {
    let (mut cmd, _dir) = queuey();
    let out = cmd.args(["dead", "ls", "--help"]).output().unwrap();
    let text = stdout(&out);
    assert!(!text.contains("all must hold"), "{text}");
    let header = text
        .split("--header")
        .nth(1)
        .expect("--header is documented");
    let header: String = header.chars().take(300).collect();
    assert!(header.contains("any"), "{header}");
}

/// Item 6 without a broker: `args` names a queue missing from the topology file.
#[test]
fn a_queue_missing_from_the_topology_file_is_named() {
    let (mut cmd, dir) = queuey();
    fs::write(
        dir.path().join("queuey.toml"),
        "[defaults]\nmessage_ttl = \"1h\"\n[queues.\"tour.orders\"]\n",
    )
    .unwrap();
    let out = cmd.args(["args", "tour.ordres"]).output().unwrap();
    assert!(out.status.success(), "{}", stderr(&out));
    let err = stderr(&out);
    assert!(err.contains("not in queuey.toml"), "{err}");
    assert!(err.contains("tour.orders"), "suggests the near name: {err}");
    // A listed name says nothing.
    let out = common::queuey_in(dir.path())
        .args(["args", "tour.orders"])
        .output()
        .unwrap();
    assert!(!stderr(&out).contains("not in"), "{}", stderr(&out));
}

/// Under `-o json` an error is one JSON document on standard output as well as the usual text
/// on standard error, so that a script parsing stdout sees the failure: its exit code, kind,
/// message and hint. Three places an error can come from before any broker: clap, a flag in the
/// wrong place, and the settings.
#[test]
fn errors_under_json_output_are_one_json_document_on_stdout() {
    for (args, kind, said) in [
        (
            vec!["dead", "ls", "q", "-o", "json", "--bogus"],
            "usage",
            "unexpected argument '--bogus' found",
        ),
        (
            vec!["--reason", "x", "dead", "ls", "q", "--output=json"],
            "usage",
            "--reason is an option of `queuey dead ls`",
        ),
        (
            vec!["args", "orders", "--delay", "30d", "-o", "json"],
            "settings",
            "delay 30d is too long for a hold queue of \"orders\"",
        ),
    ] {
        let (mut cmd, _dir) = queuey();
        let out = cmd.args(&args).output().unwrap();
        assert_eq!(out.status.code(), Some(2), "{args:?}");
        let doc: serde_json::Value = serde_json::from_slice(&out.stdout)
            .unwrap_or_else(|e| panic!("{args:?}: stdout is not JSON ({e}): {}", stdout(&out)));
        assert_eq!(doc["error"]["exit_code"], 2, "{args:?}: {doc}");
        assert_eq!(doc["error"]["kind"], kind, "{args:?}: {doc}");
        let message = doc["error"]["message"].as_str().unwrap();
        assert!(message.contains(said), "{args:?}: {doc}");
        assert!(
            stderr(&out).contains(said),
            "{args:?}: the text is on stderr too"
        );
        assert_eq!(stdout(&out).lines().count(), 1, "{args:?}: one line");
    }
    // Without -o json, stdout stays empty.
    let (mut cmd, _dir) = queuey();
    let out = cmd
        .args(["args", "orders", "--delay", "30d"])
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(2));
    assert!(out.stdout.is_empty(), "{}", stdout(&out));
}
