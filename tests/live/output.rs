//! What queuey writes, on the real broker: a pipe closed before or during any command's output
//! (`| head`) is no error and loses nothing; broker errors under `-o json` are one JSON document
//! on stdout.

use std::process::{Output, Stdio};

use crate::common::{Broker, Queuey, code, dead_letters, run, stderr, stdout, unique, url_for};
use lapin::types::FieldTable;
use serde_json::Value;

/// Runs queuey with its standard output a pipe whose reading end is already closed, as in
/// `queuey ... | head` once head has exited.
fn with_stdout_closed(args: &[&str]) -> Output {
    let dir = tempfile::tempdir().unwrap();
    let mut child = Queuey::in_dir(dir.path())
        .process()
        .args(args)
        .stdin(Stdio::null())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    drop(child.stdout.take());
    child.wait_with_output().unwrap()
}

/// Every command that writes to standard output ends quietly with 0 when the pipe is
/// closed (`queuey ... | head`), and what it read stays where it was.
#[test]
fn a_closed_pipe_ends_every_command_quietly() {
    let broker = Broker::connect();
    let (q, dead) = dead_letters(&broker, "pipe", 300, None);
    let dead_show = ["dead", "show", q.as_str(), "1"];
    let commands: Vec<Vec<&str>> = vec![
        vec!["args", &q, "--delay", "30s"],
        vec!["completions", "bash"],
        vec!["ping"],
        vec!["verify", &q],
        vec!["status", &q, "-o", "json"],
        vec!["holds", "ls", &q],
        vec!["dead", "ls", &q],
        vec!["dead", "ls", &q, "-o", "json"],
        dead_show.to_vec(),
        vec!["dead", "export", &q],
        vec!["dead", "export", &q, "-o", "json"],
        vec!["dead", "replay", &q, "--dry-run"],
        vec!["dead", "purge", &q, "--dry-run"],
    ];
    for args in commands {
        let out = with_stdout_closed(&args);
        let err = stderr(&out);
        assert_eq!(code(&out), 0, "{args:?}: {err}");
        assert!(!err.contains("error"), "{args:?}: {err}");
        assert_eq!(broker.message_count(&dead), Some(300), "{args:?}");
    }
    assert_eq!(
        broker.snapshot(&dead).len(),
        300,
        "every dead letter is still there"
    );
}

/// Runs queuey with its standard output a pipe that is read for one byte, then closed, as in
/// `queuey ... | head -c1`: the command is usually mid-output when the pipe goes.
fn with_stdout_closed_after_one_byte(args: &[&str]) -> (Output, u8) {
    use std::io::Read;
    let dir = tempfile::tempdir().unwrap();
    let mut child = Queuey::in_dir(dir.path())
        .process()
        .args(args)
        .stdin(Stdio::null())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    let mut stdout = child.stdout.take().unwrap();
    let mut first = [0u8; 1];
    stdout
        .read_exact(&mut first)
        .unwrap_or_else(|e| panic!("{args:?} wrote nothing: {e}"));
    drop(stdout);
    (child.wait_with_output().unwrap(), first[0])
}

/// A pipe closed mid-output (`| head -c1`) is not an error for any command that
/// writes to standard output, with outputs far larger than a pipe's buffer: exit 0, nothing
/// on stderr, and nothing read is lost.
#[test]
fn a_pipe_closed_mid_output_is_not_an_error() {
    let broker = Broker::connect();
    let (q, dead) = dead_letters(&broker, "headc1", 1200, None);
    let commands: Vec<Vec<&str>> = vec![
        vec!["--help"],
        vec!["dead", "replay", "--help"],
        vec!["args", &q, "--delay", "30s"],
        vec!["completions", "zsh"],
        vec!["ping", "-o", "json"],
        vec!["verify", &q],
        vec!["declare", &q, "--dry-run"],
        vec!["status", &q],
        vec!["holds", "ls", &q, "-o", "json"],
        vec!["dead", "ls", &q, "--limit", "0"],
        vec!["dead", "ls", &q, "--limit", "0", "-o", "json"],
        vec!["dead", "ls", &q, "--group-by", "header:tenant"],
        vec!["dead", "show", &q, "1"],
        vec!["dead", "export", &q],
        vec!["dead", "export", &q, "-o", "json"],
        vec!["dead", "replay", &q, "--dry-run", "-o", "json"],
        vec!["dead", "purge", &q, "--dry-run"],
    ];
    let mut large = 0;
    for args in commands {
        let normal = run(&args);
        let (out, first) = with_stdout_closed_after_one_byte(&args);
        assert_eq!(Some(&first), normal.stdout_bytes.first(), "{args:?}");
        let err = stderr(&out);
        if normal.stdout.len() > 128 * 1024 {
            // Far more than a pipe holds: the command was writing when the pipe closed.
            large += 1;
            assert_eq!((code(&out), err.as_str()), (0, ""), "{args:?}");
        } else {
            // It may have written everything before the close: then it ends as usual.
            let usual = (code(&normal), stderr(&normal));
            assert!(
                (code(&out), err.clone()) == usual || (code(&out), err.as_str()) == (0, ""),
                "{args:?}: {} {err}; usually {usual:?}",
                code(&out)
            );
        }
        assert_eq!(broker.count(&dead), 1200, "{args:?}");
    }
    assert!(
        large >= 3,
        "dead ls and export write more than a pipe holds"
    );
    let ids: Vec<String> = broker
        .snapshot(&dead)
        .iter()
        .map(|(_, p)| p.message_id().as_ref().unwrap().to_string())
        .collect();
    let want: Vec<String> = (0..1200).map(|i| format!("m-{i}")).collect();
    assert_eq!(ids, want, "every dead letter is still there, in order");
}

/// Errors from the broker under `-o json`: one JSON document on stdout (exit code, kind,
/// message, hint) besides the text on stderr, for a listing, a single message, a stream of
/// records (`dead export`: the error is one more line) and a connection refused for a vhost.
#[test]
fn broker_errors_under_json_output_are_json_on_stdout() {
    let broker = Broker::connect();
    let q = broker.queue_name("json-errors");
    let dead = format!("{q}.dead");
    broker.declare(&dead, FieldTable::default());
    let missing = broker.queue_name("json-missing");
    let no_vhost = url_for(&unique("no-such-vhost"), "guest", "guest");
    for (args, want, kind) in [
        (
            vec!["dead", "ls", &missing, "-o", "json"],
            7,
            "queue-not-found",
        ),
        (
            vec!["dead", "export", &missing, "-o", "json"],
            7,
            "queue-not-found",
        ),
        (
            vec!["dead", "show", &q, "3", "-o", "json"],
            10,
            "message-not-found",
        ),
        (
            vec!["status", &q, "-o", "json", "--url", &no_vhost],
            5,
            "access-refused",
        ),
    ] {
        let out = run(&args);
        assert_eq!(code(&out), want, "{args:?}: {}", stderr(&out));
        let doc: Value = serde_json::from_str(&out.stdout)
            .unwrap_or_else(|e| panic!("{args:?}: stdout is not JSON ({e}): {}", stdout(&out)));
        assert_eq!(doc["error"]["exit_code"], want, "{args:?}: {doc}");
        assert_eq!(doc["error"]["kind"], kind, "{args:?}: {doc}");
        let message = doc["error"]["message"].as_str().unwrap().to_owned();
        assert!(
            stderr(&out).contains(&message),
            "{args:?}: {}",
            stderr(&out)
        );
        assert!(!stdout(&out).contains(":guest@"), "no password");
    }
}
