//! What queuey prints: tables on a terminal that reports no size, errors as JSON under `-o json`.

use std::process::Stdio;

use crate::common::{Queuey, stderr, stdout};

/// Runs `queuey ARGS` inside `script(1)`: its standard output is a pseudo-terminal that reports
/// 0 rows and 0 columns (a `script` without a parent terminal), as container shells do before
/// their first resize. `columns` sets COLUMNS. Returns what the terminal showed.
fn on_a_sizeless_terminal(args: &str, columns: Option<&str>) -> String {
    let dir = tempfile::tempdir().unwrap();
    let mut queuey = Queuey::in_dir(dir.path());
    queuey.args(args.split_whitespace());
    if let Some(c) = columns {
        queuey.env("COLUMNS", c);
    }
    let out = queuey
        .in_terminal_after("stty size")
        .stdin(Stdio::null())
        .output()
        .expect("script(1) from util-linux");
    assert!(out.status.success(), "{}", stderr(&out));
    let text = stdout(&out).replace('\r', "");
    assert!(
        text.starts_with("0 0\n"),
        "the terminal should report no size: {text}"
    );
    text
}

/// A terminal that reports 0x0 gets tables at their natural width, not one character
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
        let out = Queuey::new().args(&args).run();
        assert_eq!(out.status.code(), Some(2), "{args:?}");
        let doc: serde_json::Value = serde_json::from_str(&out.stdout)
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
    let out = Queuey::new()
        .args(["args", "orders", "--delay", "30d"])
        .run();
    assert_eq!(out.status.code(), Some(2));
    assert!(out.stdout.is_empty(), "{}", stdout(&out));
}
