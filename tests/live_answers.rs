//! Issue 10 against the real broker: every answer right, and leading somewhere. Each test names
//! the item of the issue it covers.

mod common;

use std::fs;
use std::io::Write;
use std::process::{Output, Stdio};
use std::time::Duration;

use common::{
    Broker, json, long_str, queuey, queuey_in, queuey_process, stderr, stdout, table, unique,
    url_for,
};
use lapin::BasicProperties;
use lapin::types::{AMQPValue, FieldTable};
use serde_json::Value;

fn run(args: &[&str]) -> Output {
    let (mut cmd, _dir) = queuey();
    cmd.args(args).output().expect("queuey runs")
}

fn code(out: &Output) -> i32 {
    out.status.code().expect("exited")
}

/// A dead letter as a queuey application writes it, with a `tenant` header.
fn dead_letter(id: &str, original: &str, tenant: &str) -> BasicProperties {
    BasicProperties::default()
        .with_message_id(id.into())
        .with_delivery_mode(2)
        .with_content_type("application/json".into())
        .with_headers(table(vec![
            ("x-original-queue", long_str(original)),
            ("x-death-reason", long_str("fatal error: boom")),
            ("x-attempts", AMQPValue::LongUInt(1)),
            ("tenant", long_str(tenant)),
        ]))
}

/// A logical queue `q` whose `q.dead` holds `n` dead letters (ids `m-0`...), whose original
/// queue is `original` (else `q`), tenants acme, globex, initech in turn. Only `q.dead` exists.
fn dead_letters(
    broker: &Broker,
    label: &str,
    n: usize,
    original: Option<&str>,
) -> (String, String) {
    let q = broker.queue_name(label);
    let dead = format!("{q}.dead");
    broker.declare(&dead, FieldTable::default());
    let original = original.unwrap_or(&q).to_owned();
    for i in 0..n {
        let tenant = ["acme", "globex", "initech"][i % 3];
        broker.publish_props(
            &dead,
            format!("{{\"n\":{i}}}").as_bytes(),
            dead_letter(&format!("m-{i}"), &original, tenant),
        );
    }
    (q, dead)
}

/// Runs queuey with its standard output a pipe whose reading end is already closed, as in
/// `queuey ... | head` once head has exited.
fn with_stdout_closed(args: &[&str]) -> Output {
    let dir = tempfile::tempdir().unwrap();
    let mut child = queuey_process(dir.path())
        .args(args)
        .stdin(Stdio::null())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    drop(child.stdout.take());
    child.wait_with_output().unwrap()
}

/// Item 10: a filter given several times matches any of its values (OR), `--header` as much as
/// `--reason` or `--message-id`; different filters still combine with AND.
#[test]
fn repeated_header_filters_match_any_of_their_values() {
    let broker = Broker::connect();
    let (q, _dead) = dead_letters(&broker, "headers", 6, None);
    let matched = |extra: &[&str]| {
        let mut args = vec!["dead", "ls", q.as_str(), "--limit", "0", "-o", "json"];
        args.extend_from_slice(extra);
        let out = run(&args);
        assert_eq!(code(&out), 0, "{extra:?}: {}", stderr(&out));
        json(&out)["matched"].as_u64().unwrap()
    };
    assert_eq!(matched(&["--header", "tenant=acme"]), 2);
    assert_eq!(
        matched(&["--header", "tenant=acme", "--header", "tenant=globex"]),
        4,
        "OR within --header"
    );
    assert_eq!(
        matched(&["--header", "tenant=initech", "--header", "no-such-header"]),
        2,
        "presence or value, any of them"
    );
    assert_eq!(
        matched(&[
            "--header",
            "tenant=acme",
            "--header",
            "tenant=globex",
            "--message-id",
            "m-1",
            "--message-id",
            "m-2",
        ]),
        1,
        "AND across filters: m-1 is globex, m-2 initech"
    );
}

/// Item 1: a URL whose vhost does not exist gets the same answer from every command: the vhost
/// is named, with the way out, and the exit code is 5.
#[test]
fn a_missing_vhost_is_the_same_answer_everywhere() {
    let _broker = Broker::connect();
    let vhost = unique("no-such-vhost");
    let url = url_for(&vhost, "guest", "guest");
    let commands: Vec<Vec<&str>> = vec![
        vec!["ping"],
        vec!["status", "orders"],
        vec!["verify", "orders"],
        vec!["declare", "orders"],
        vec!["holds", "ls", "orders"],
        vec!["dead", "ls", "orders"],
        vec!["dead", "show", "orders", "1"],
        vec!["dead", "export", "orders"],
        vec!["dead", "replay", "orders"],
        vec!["dead", "replay", "orders", "--dry-run"],
        vec!["dead", "purge", "orders", "--yes"],
        vec!["dead", "purge", "orders", "--dry-run"],
    ];
    for mut args in commands {
        args.extend(["--url", url.as_str()]);
        let out = run(&args);
        let err = stderr(&out);
        assert_eq!(code(&out), 5, "{args:?}: {err}");
        assert!(
            err.contains(&format!("the vhost {vhost:?} does not exist")),
            "{args:?}: {err}"
        );
        assert!(
            err.contains("rabbitmqctl list_vhosts"),
            "{args:?} gives the way out: {err}"
        );
        assert!(!err.contains("queue \"orders"), "{args:?}: {err}");
    }
}

/// Item 3: every command that writes to standard output ends quietly with 0 when the pipe is
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
    let mut child = queuey_process(dir.path())
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

/// Issue 11: a pipe closed mid-output (`| head -c1`) is not an error for any command that
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
        assert_eq!(Some(&first), normal.stdout.first(), "{args:?}");
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

/// Item 4: a dry run to a queue that does not exist says how many would fail and exits 3, as
/// the real run does; `moved` means moved (0 in a dry run) everywhere in its JSON.
#[test]
fn a_dry_run_to_a_missing_target_fails_as_the_real_run_would() {
    let broker = Broker::connect();
    let (q, dead) = dead_letters(&broker, "dry", 5, None);
    let typo = unique("typo");
    let out = run(&[
        "dead",
        "replay",
        &q,
        "--to",
        &typo,
        "--dry-run",
        "-o",
        "json",
    ]);
    assert_eq!(code(&out), 3, "{}", stderr(&out));
    let doc = json(&out);
    assert_eq!(doc["dry_run"], true);
    assert_eq!(
        (doc["moved"].as_u64(), doc["failed"].as_u64()),
        (Some(0), Some(0))
    );
    assert_eq!(
        (doc["would_move"].as_u64(), doc["would_fail"].as_u64()),
        (Some(0), Some(5)),
        "{doc:#}"
    );
    let t = &doc["targets"][0];
    assert_eq!(t["queue"], typo.as_str());
    assert_eq!(
        (t["moved"].as_u64(), t["failed"].as_u64()),
        (Some(0), Some(0))
    );
    assert_eq!(
        (t["would_move"].as_u64(), t["would_fail"].as_u64()),
        (Some(0), Some(5))
    );
    assert_eq!(t["exists"], false);

    let out = run(&["dead", "replay", &q, "--to", &typo, "--dry-run"]);
    assert_eq!(code(&out), 3);
    let text = stdout(&out);
    assert!(text.contains("5 would fail"), "{text}");
    assert!(!text.contains("5 of 5 scanned dead letters of"), "{text}");

    // The real run agrees.
    let out = run(&["dead", "replay", &q, "--to", &typo]);
    assert_eq!(code(&out), 3);
    assert_eq!(broker.message_count(&dead), Some(5));

    // A target that exists: 0, and `would_move` counts them.
    broker.declare(&q, FieldTable::default());
    let out = run(&["dead", "replay", &q, "--dry-run", "-o", "json"]);
    assert_eq!(code(&out), 0, "{}", stderr(&out));
    let doc = json(&out);
    assert_eq!(
        (doc["moved"].as_u64(), doc["would_move"].as_u64()),
        (Some(0), Some(5))
    );
    assert_eq!(doc["targets"][0]["would_move"], 5);
    assert_eq!(doc["targets"][0]["moved"], 0);
    assert_eq!(broker.message_count(&dead), Some(5));
}

/// Extracts the first `queuey ...` command quoted in backticks from `text`.
fn suggested_command(text: &str) -> String {
    let start = text
        .find("`queuey ")
        .unwrap_or_else(|| panic!("no queuey command suggested in: {text}"));
    let rest = &text[start + 1..];
    rest[..rest.find('`').expect("closing backtick")].to_owned()
}

/// Runs a command line as a user pastes it into a shell on the broker's machine, aimed at the
/// test broker: the queuey binary on the PATH, and a `rabbitmqctl` that is the test broker's
/// own CLI talking to its node (the root's for a 4.x broker: the machine's cannot reach it).
fn paste(command_line: &str) -> Output {
    let bin_dir = assert_cmd::cargo::cargo_bin("queuey")
        .parent()
        .unwrap()
        .to_owned();
    let path = format!(
        "{}:{}:{}",
        bin_dir.display(),
        common::rabbitmq::cli_dir().display(),
        std::env::var("PATH").unwrap_or_default()
    );
    let dir = tempfile::tempdir().unwrap();
    std::process::Command::new("sh")
        .args(["-c", command_line])
        .env_clear()
        .env("PATH", path)
        .env("QUEUEY_URL", common::test_url())
        .env("QUEUEY_API_URL", common::test_api_url())
        .current_dir(dir.path())
        .stdin(Stdio::null())
        .output()
        .unwrap()
}

/// Item 5: a missing queue's answer suggests the names that exist and the command that fixes
/// it, and each suggested command works when pasted.
#[test]
fn a_missing_queue_suggests_what_exists_and_how_to_fix_it() {
    let broker = Broker::connect();
    let (q, dead) = dead_letters(&broker, "orders", 2, None);

    // `dead ls q.dead`: the dead-letter queue named instead of its logical queue.
    let out = run(&["dead", "ls", &dead]);
    assert_eq!(code(&out), 7);
    let err = stderr(&out);
    assert!(!err.contains("queuey status"), "{err}");
    let fix = suggested_command(&err);
    assert_eq!(fix, format!("queuey dead ls {q}"), "{err}");
    let pasted = paste(&fix);
    assert!(pasted.status.success(), "{}", stderr(&pasted));
    assert!(stdout(&pasted).contains("m-1"), "{}", stdout(&pasted));

    // A typo: the near name is suggested.
    let typo = q.replace("orders", "ordres");
    let out = run(&["dead", "ls", &typo]);
    assert_eq!(code(&out), 7);
    let err = stderr(&out);
    assert_eq!(
        suggested_command(&err),
        format!("queuey dead ls {q}"),
        "{err}"
    );

    // A work queue without its dead-letter queue: `queuey declare q` creates it.
    let lonely = broker.queue_name("lonely");
    broker.track_queue(&format!("{lonely}.dead"));
    broker.declare(
        &lonely,
        table(vec![("x-max-priority", AMQPValue::ShortShortUInt(10))]),
    );
    let out = run(&["dead", "ls", &lonely]);
    assert_eq!(code(&out), 7);
    let err = stderr(&out);
    let fix = suggested_command(&err);
    assert_eq!(fix, format!("queuey declare {lonely}"), "{err}");
    let pasted = paste(&fix);
    assert!(pasted.status.success(), "{}", stderr(&pasted));
    assert!(broker.api_queue(&format!("{lonely}.dead")).is_some());
    let out = run(&["dead", "ls", &lonely]);
    assert_eq!(code(&out), 0, "{}", stderr(&out));

    // Nothing near: no made-up suggestion, and a way to list what exists.
    let out = run(&["dead", "ls", &unique("zzzz-nothing-like-it")]);
    assert_eq!(code(&out), 7);
    let err = stderr(&out);
    assert!(!err.contains("queuey status`"), "{err}");
    assert!(err.contains("rabbitmqctl list_queues"), "{err}");

    // `dead show` past the end names the command that lists what is there.
    let out = run(&["dead", "show", &q, "9"]);
    assert_eq!(code(&out), 10, "no such message: not found");
    let err = stderr(&out);
    assert_eq!(
        suggested_command(&err),
        format!("queuey dead ls {q}"),
        "{err}"
    );
}

/// Item 11: counts agree with their nouns.
#[test]
fn one_dead_letter_is_one_dead_letter() {
    let broker = Broker::connect();
    let (q, _dead) = dead_letters(&broker, "singular", 1, None);
    let out = run(&["dead", "purge", &q, "--dry-run"]);
    let text = stdout(&out);
    assert!(text.contains("1 dead letter "), "{text}");
    assert!(!text.contains("1 dead letters"), "{text}");
    let out = run(&["dead", "show", &q, "2"]);
    let err = stderr(&out);
    assert!(err.contains("(1 message)"), "{err}");
    let out = run(&["dead", "export", &q, "--output-file", "/dev/null/x"]);
    assert_ne!(code(&out), 0);
    let dir = tempfile::tempdir().unwrap();
    let file = dir.path().join("one.jsonl");
    let out = run(&[
        "dead",
        "export",
        &q,
        "--output-file",
        file.to_str().unwrap(),
    ]);
    let err = stderr(&out);
    assert!(err.contains("exported 1 of 1 "), "{err}");
    assert!(!err.contains("letters"), "{err}");
}

/// Item 11: `status` of a missing queue reads as a sentence and names the fix.
#[test]
fn status_of_missing_queues_names_the_fix() {
    let _broker = Broker::connect();
    let q = unique("never-declared");
    let out = run(&["status", &q]);
    assert_eq!(code(&out), 0, "{}", stderr(&out));
    let text = stdout(&out);
    assert!(!text.contains(") ("), "{text}");
    assert!(!text.contains("does not exist) "), "{text}");
    assert!(text.contains(&format!("queuey declare {q}")), "{text}");
}

/// Item 11: `dead export -o json` ends with a JSON summary when the records go to a file.
#[test]
fn export_to_a_file_prints_a_json_summary() {
    let broker = Broker::connect();
    let (q, _dead) = dead_letters(&broker, "export-json", 3, None);
    let dir = tempfile::tempdir().unwrap();
    let file = dir.path().join("out.jsonl");
    let out = run(&[
        "dead",
        "export",
        &q,
        "--output-file",
        file.to_str().unwrap(),
        "-o",
        "json",
    ]);
    assert_eq!(code(&out), 0, "{}", stderr(&out));
    let doc = json(&out);
    assert_eq!(doc["exported"], 3);
    assert_eq!(doc["scanned"], 3);
    assert_eq!(doc["output_file"], file.to_str().unwrap());
    assert_eq!(fs::read_to_string(&file).unwrap().lines().count(), 3);
}

/// Item 11: a dry run of a whole-queue purge does not claim to have scanned nothing and matched
/// everything.
#[test]
fn a_whole_queue_purge_dry_run_reports_what_it_counted() {
    let broker = Broker::connect();
    let (q, _dead) = dead_letters(&broker, "purge-json", 4, None);
    let out = run(&["dead", "purge", &q, "--dry-run", "-o", "json"]);
    assert_eq!(code(&out), 0, "{}", stderr(&out));
    let doc = json(&out);
    assert_eq!(doc["matched"], 4);
    assert_eq!(doc["scanned"], Value::Null, "nothing was read: {doc:#}");
    assert_eq!(doc["whole_queue"], true);
    let out = run(&[
        "dead",
        "purge",
        &q,
        "--dry-run",
        "--reason",
        "nope",
        "-o",
        "json",
    ]);
    let doc = json(&out);
    assert_eq!(
        (doc["scanned"].as_u64(), doc["matched"].as_u64()),
        (Some(4), Some(0))
    );
    assert_eq!(doc["whole_queue"], false);
}

/// Item 11: answering no to the purge prompt exits 9 (declined), not 0 as a purge does.
#[test]
fn declining_the_purge_prompt_exits_9() {
    let broker = Broker::connect();
    let (q, dead) = dead_letters(&broker, "declined", 3, None);
    let bin = assert_cmd::cargo::cargo_bin("queuey");
    let dir = tempfile::tempdir().unwrap();
    let answer = |text: &str| {
        let command = format!("{} dead purge {q}", bin.display());
        let mut child = std::process::Command::new("script")
            .args(["-qec", &command, "/dev/null"])
            .env("QUEUEY_URL", common::test_url())
            .env("QUEUEY_API_URL", common::test_api_url())
            .current_dir(dir.path())
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::piped())
            .spawn()
            .expect("script(1) from util-linux");
        std::thread::sleep(Duration::from_millis(1500));
        child
            .stdin
            .take()
            .unwrap()
            .write_all(text.as_bytes())
            .unwrap();
        child.wait_with_output().unwrap()
    };
    let out = answer("n\n");
    assert_eq!(code(&out), 9, "{}", stdout(&out));
    assert!(stdout(&out).contains("nothing removed"), "{}", stdout(&out));
    assert_eq!(broker.message_count(&dead), Some(3));
    let out = answer("y\n");
    assert_eq!(code(&out), 0, "{}", stdout(&out));
    assert_eq!(broker.message_count(&dead), Some(0));
}

/// Item 6: with a topology file in use, a name it does not list is said to be unlisted; declare
/// refuses to create it without --allow-unlisted; verify and dry runs say "not in queuey.toml".
#[test]
fn a_name_missing_from_the_topology_file_is_not_created_by_default() {
    let broker = Broker::connect();
    let listed = broker.queue_name("tour.orders");
    broker.track_queue(&format!("{listed}.dead"));
    let typo = listed.replace("orders", "ordres");
    broker.track_queue(&typo);
    broker.track_queue(&format!("{typo}.dead"));
    let dir = tempfile::tempdir().unwrap();
    fs::write(
        dir.path().join("queuey.toml"),
        format!("[queues.\"{listed}\"]\nmessage_ttl = \"1h\"\n"),
    )
    .unwrap();
    let in_dir = |args: &[&str]| queuey_in(dir.path()).args(args).output().unwrap();

    let out = in_dir(&["declare", &typo]);
    assert_eq!(code(&out), 2, "{}", stderr(&out));
    let err = stderr(&out);
    assert!(err.contains("not in queuey.toml"), "{err}");
    assert!(err.contains(&listed), "suggests the listed name: {err}");
    assert!(err.contains("--allow-unlisted"), "{err}");
    assert!(broker.api_queue(&typo).is_none(), "nothing was created");

    let out = in_dir(&["declare", &typo, "--dry-run", "-o", "json"]);
    assert_eq!(code(&out), 2, "declare would refuse: {}", stderr(&out));
    let doc = json(&out);
    assert_eq!(doc["logical_queues"][0]["listed"], false);
    assert!(
        doc["notes"].to_string().contains("not in queuey.toml"),
        "{doc:#}"
    );
    assert!(stderr(&out).contains("not in queuey.toml"));

    let out = in_dir(&["verify", &typo]);
    assert_eq!(code(&out), 1);
    assert!(
        format!("{}{}", stdout(&out), stderr(&out)).contains("not in queuey.toml"),
        "{}",
        stdout(&out)
    );

    let out = in_dir(&["declare", &listed]);
    assert_eq!(code(&out), 0, "{}", stderr(&out));
    assert!(!stderr(&out).contains("not in"), "{}", stderr(&out));

    let out = in_dir(&["declare", &typo, "--allow-unlisted"]);
    assert_eq!(code(&out), 0, "{}", stderr(&out));
    assert!(broker.api_queue(&typo).is_some());
}

/// One frame of a progress bar as the terminal showed it: elapsed seconds, position, length,
/// and the rate as printed.
#[derive(Debug)]
struct Frame {
    elapsed_secs: u64,
    pos: u64,
    len: u64,
    rate: String,
}

/// The frames of the bar labelled `label` in what a terminal showed (escape sequences removed).
fn frames(screen: &str, label: &str) -> Vec<Frame> {
    let mut plain = String::new();
    let mut chars = screen.chars().peekable();
    while let Some(c) = chars.next() {
        if c == '\x1b' {
            if chars.peek() == Some(&'[') {
                chars.next();
                for d in chars.by_ref() {
                    if d.is_ascii_alphabetic() {
                        break;
                    }
                }
            }
            plain.push('\n');
            continue;
        }
        plain.push(if c == '\r' { '\n' } else { c });
    }
    let mut out = Vec::new();
    for line in plain.lines() {
        let Some(rest) = line.trim_start().strip_prefix(&format!("{label} [")) else {
            continue;
        };
        let Some((elapsed, rest)) = rest.split_once(']') else {
            continue;
        };
        let secs: Vec<u64> = elapsed.split(':').filter_map(|p| p.parse().ok()).collect();
        if secs.len() != 3 {
            continue;
        }
        let words: Vec<&str> = rest.split_whitespace().collect();
        let Some(i) = words.iter().position(|w| {
            w.split_once('/')
                .is_some_and(|(a, b)| a.parse::<u64>().is_ok() && b.parse::<u64>().is_ok())
        }) else {
            continue;
        };
        let (pos, len) = words[i].split_once('/').unwrap();
        let Some(rate) = words.get(i + 1) else {
            continue;
        };
        out.push(Frame {
            elapsed_secs: secs[0] * 3600 + secs[1] * 60 + secs[2],
            pos: pos.parse().unwrap(),
            len: len.parse().unwrap(),
            rate: (*rate).to_owned(),
        });
    }
    out
}

/// Item 9: the replay bar counts dead letters settled (moved, or kept), not read; its total is
/// the depth of q.dead when the run began; its rate has at most one decimal.
#[test]
fn the_replay_progress_bar_counts_what_is_settled() {
    let broker = Broker::connect();
    let (q, dead) = dead_letters(&broker, "progress", 60, None);
    broker.declare(&q, FieldTable::default());
    let bin = assert_cmd::cargo::cargo_bin("queuey");
    let dir = tempfile::tempdir().unwrap();
    // A terminal of a real size on stderr, where the bar is drawn.
    let command = format!(
        "stty cols 150 rows 40; {} dead replay {q} --rate 20",
        bin.display()
    );
    let out = std::process::Command::new("script")
        .args(["-qec", &command, "/dev/null"])
        .env_clear()
        .env("PATH", std::env::var_os("PATH").unwrap_or_default())
        .env("TERM", "xterm")
        .env("QUEUEY_URL", common::test_url())
        .env("QUEUEY_API_URL", common::test_api_url())
        .current_dir(dir.path())
        .stdin(Stdio::null())
        .output()
        .expect("script(1) from util-linux");
    let screen = stdout(&out);
    assert_eq!(code(&out), 0, "{screen}");
    assert_eq!(broker.message_count(&dead), Some(0), "{screen}");
    let frames = frames(&screen, "replaying");
    assert!(frames.len() >= 3, "the bar was drawn: {frames:?}\n{screen}");
    for f in &frames {
        assert_eq!(f.len, 60, "the total is q.dead's depth at the start: {f:?}");
        // At 20/s, no more than 20 per second of elapsed time can have been moved.
        assert!(
            f.pos <= 20 * (f.elapsed_secs + 1) + 2,
            "counts settled messages, not read ones: {f:?} in {frames:?}"
        );
        let (number, unit) = f.rate.split_at(f.rate.len() - 2);
        assert_eq!(unit, "/s", "{f:?}");
        let decimals = number.split_once('.').map_or(0, |(_, d)| d.len());
        assert!(decimals <= 1, "at most one decimal: {f:?}");
    }
    assert!(
        frames.iter().any(|f| f.pos > 0 && f.pos < 60),
        "the bar moves with the replay: {frames:?}"
    );
}

/// `^name$` with the name's regex metacharacters escaped: a policy for exactly one queue.
fn exact(name: &str) -> String {
    let mut p = String::from("^");
    for c in name.chars() {
        if ".^$*+?()[]{}|\\".contains(c) {
            p.push('\\');
        }
        p.push(c);
    }
    p.push('$');
    p
}

/// The remedy commands of one logical queue in a `verify -o json` report.
fn remedy_commands(doc: &Value, logical: &str) -> Vec<String> {
    doc["logical_queues"]
        .as_array()
        .unwrap()
        .iter()
        .find(|l| l["name"] == logical)
        .map(|l| {
            l["remedies"]
                .as_array()
                .unwrap()
                .iter()
                .filter_map(|r| r["command"].as_str().map(str::to_owned))
                .collect()
        })
        .unwrap_or_default()
}

/// The differences of `q.dead` in a verify report, by field.
fn dead_differences(doc: &Value, logical: &str) -> Vec<Value> {
    let dead = format!("{logical}.dead");
    doc["logical_queues"]
        .as_array()
        .unwrap()
        .iter()
        .find(|l| l["name"] == logical)
        .and_then(|l| {
            l["queues"]
                .as_array()
                .unwrap()
                .iter()
                .find(|q| q["name"] == dead.as_str())
        })
        .map(|q| q["differences"].as_array().unwrap().clone())
        .unwrap_or_default()
}

/// Item 12 (and item 2 for its remedies): a policy, an operator policy or an argument that
/// makes q.dead lose its dead letters is drift, named with what it does; the remedies printed
/// for it (clear the policy, delete the queue to declare it again) work when pasted.
#[test]
fn a_dead_letter_queue_that_destroys_its_letters_is_drift() {
    let broker = Broker::connect();
    struct Case {
        q: String,
        /// (definition, operator policy?)
        policy: Option<(Value, bool)>,
        /// Arguments another client declared q.dead with.
        arguments: Vec<(&'static str, AMQPValue)>,
        quorum: bool,
        field: &'static str,
        kind: &'static str,
        says: &'static str,
    }
    let case = |label: &str,
                policy: Option<(Value, bool)>,
                arguments: Vec<(&'static str, AMQPValue)>,
                quorum: bool,
                field: &'static str,
                kind: &'static str,
                says: &'static str| {
        let q = broker.queue_name(label);
        broker.track_queue(&format!("{q}.dead"));
        Case {
            q,
            policy,
            arguments,
            quorum,
            field,
            kind,
            says,
        }
    };
    let policy = |v: Value| Some((v, false));
    let operator = |v: Value| Some((v, true));
    let mut cases = vec![
        case(
            "p-ttl-loop",
            None,
            vec![],
            false,
            "message-ttl",
            "policy",
            "sent back to",
        ),
        case(
            "p-expires",
            policy(serde_json::json!({"expires": 3_600_000})),
            vec![],
            false,
            "expires",
            "policy",
            "itself is deleted",
        ),
        case(
            "p-maxlen",
            policy(serde_json::json!({"max-length": 1000})),
            vec![],
            false,
            "max-length",
            "policy",
            "the oldest dead letters",
        ),
        case(
            "p-maxbytes",
            policy(serde_json::json!({"max-length-bytes": 1_000_000})),
            vec![],
            false,
            "max-length-bytes",
            "policy",
            "the oldest dead letters",
        ),
        case(
            "p-dlx",
            policy(serde_json::json!({"dead-letter-exchange": "amq.fanout"})),
            vec![],
            false,
            "dead-letter-exchange",
            "policy",
            "exchange \"amq.fanout\"",
        ),
        case(
            "p-limit",
            policy(serde_json::json!({"delivery-limit": 5})),
            vec![],
            true,
            "delivery-limit",
            "policy",
            "return of a delivery",
        ),
        case(
            "o-ttl",
            operator(serde_json::json!({"message-ttl": 60_000})),
            vec![],
            false,
            "message-ttl",
            "policy",
            "dropped",
        ),
        case(
            "o-expires",
            operator(serde_json::json!({"expires": 3_600_000})),
            vec![],
            false,
            "expires",
            "policy",
            "itself is deleted",
        ),
        case(
            "o-maxlen",
            operator(serde_json::json!({"max-length": 1000})),
            vec![],
            false,
            "max-length",
            "policy",
            "the oldest dead letters",
        ),
        case(
            "o-maxbytes",
            operator(serde_json::json!({"max-length-bytes": 1_000_000})),
            vec![],
            false,
            "max-length-bytes",
            "policy",
            "the oldest dead letters",
        ),
        case(
            "o-limit",
            operator(serde_json::json!({"delivery-limit": 5})),
            vec![],
            true,
            "delivery-limit",
            "policy",
            "return of a delivery",
        ),
        case(
            "a-ttl",
            None,
            vec![("x-message-ttl", AMQPValue::LongLongInt(60_000))],
            false,
            "x-message-ttl",
            "extra",
            "expires 1m",
        ),
        case(
            "a-expires",
            None,
            vec![("x-expires", AMQPValue::LongLongInt(3_600_000))],
            false,
            "x-expires",
            "extra",
            "itself is deleted",
        ),
        case(
            "a-maxlen",
            None,
            vec![("x-max-length", AMQPValue::LongLongInt(1000))],
            false,
            "x-max-length",
            "extra",
            "the oldest dead letters",
        ),
        case(
            "a-maxbytes",
            None,
            vec![("x-max-length-bytes", AMQPValue::LongLongInt(1_000_000))],
            false,
            "x-max-length-bytes",
            "extra",
            "the oldest dead letters",
        ),
        case(
            "a-dlx",
            None,
            vec![("x-dead-letter-exchange", long_str(""))],
            false,
            "x-dead-letter-exchange",
            "extra",
            "sent back to",
        ),
        case(
            "a-limit",
            None,
            vec![("x-delivery-limit", AMQPValue::LongLongInt(5))],
            true,
            "x-delivery-limit",
            "extra",
            "return of a delivery",
        ),
    ];
    // The issue's case: a minute's TTL that sends every dead letter back to q.
    let first = cases[0].q.clone();
    cases[0].policy = policy(serde_json::json!({
        "message-ttl": 60_000,
        "dead-letter-exchange": "",
        "dead-letter-routing-key": first,
    }));
    // The routing key back to q goes with the dead-letter exchange argument.
    let a_dlx = cases
        .iter()
        .position(|c| c.field == "x-dead-letter-exchange")
        .unwrap();
    let back_to = cases[a_dlx].q.clone();
    cases[a_dlx]
        .arguments
        .push(("x-dead-letter-routing-key", long_str(&back_to)));

    let mut policies = Vec::new();
    for (i, c) in cases.iter().enumerate() {
        let dead = format!("{}.dead", c.q);
        broker.declare(
            &c.q,
            table(vec![("x-max-priority", AMQPValue::ShortShortUInt(10))]),
        );
        let mut args = c.arguments.clone();
        if c.quorum {
            args.push(("x-queue-type", long_str("quorum")));
        }
        broker.declare(&dead, table(args));
        if let Some((definition, operator)) = &c.policy {
            let name = format!("{}-{i}", unique("policy"));
            broker.set_policy(&name, &exact(&dead), definition.clone(), *operator);
            policies.push((name, *operator));
        }
    }
    let names: Vec<&str> = cases.iter().map(|c| c.q.as_str()).collect();
    let verify_all = |format_json: bool| {
        let mut args = vec!["verify"];
        args.extend(&names);
        if format_json {
            args.extend(["-o", "json"]);
        }
        run(&args)
    };
    // Policies reach the API's queue objects with the next stats emission (about 5 s).
    let (out, doc) = common::eventually(
        "every policy shown on its queue",
        Duration::from_secs(30),
        || {
            let out = verify_all(true);
            let doc = json(&out);
            cases
                .iter()
                .all(|c| {
                    dead_differences(&doc, &c.q)
                        .iter()
                        .any(|d| d["field"] == c.field)
                })
                .then_some((out, doc))
        },
    );
    assert_eq!(code(&out), 1, "{}", stderr(&out));
    for c in &cases {
        let diffs = dead_differences(&doc, &c.q);
        let d = diffs
            .iter()
            .find(|d| d["field"] == c.field)
            .unwrap_or_else(|| panic!("{}: {diffs:?}", c.q));
        assert_eq!(d["kind"], c.kind, "{}: {d}", c.field);
        let effect = d["effect"].as_str().unwrap_or_default();
        assert!(effect.contains(c.says), "{}: {effect}", c.field);
        if let Some((_, operator)) = &c.policy {
            assert_eq!(d["policies"][0]["operator"], *operator, "{d}");
            assert!(
                d["policies"][0]["name"]
                    .as_str()
                    .unwrap()
                    .contains("policy")
            );
        }
    }
    let issue = dead_differences(&doc, &cases[0].q);
    let ttl = issue.iter().find(|d| d["field"] == "message-ttl").unwrap();
    assert!(ttl["effect"].as_str().unwrap().contains("loop"), "{ttl}");
    assert!(
        issue.iter().any(|d| d["field"] == "dead-letter-exchange"),
        "{issue:?}"
    );

    // The table names what each does, and the remedies print their commands on lines of
    // their own.
    let out = verify_all(false);
    let text = stdout(&out);
    assert!(text.contains("sent back to"), "{text}");
    assert!(!text.contains("policy (info)"), "{text}");
    let err = stderr(&out);
    let mut pasted = 0;
    for c in &cases {
        let commands = remedy_commands(&doc, &c.q);
        assert!(!commands.is_empty(), "{}: no remedy command", c.q);
        for command in commands {
            assert!(
                err.lines().any(|l| l.trim() == command),
                "{command} on a line of its own in:\n{err}"
            );
            assert!(
                command.starts_with("rabbitmqctl clear_policy ")
                    || command.starts_with("rabbitmqctl clear_operator_policy ")
                    || command.starts_with("rabbitmqctl delete_queue "),
                "{command}"
            );
            let out = paste(&command);
            assert!(out.status.success(), "{command}: {}", stderr(&out));
            pasted += 1;
        }
    }
    assert!(pasted >= cases.len());
    // They took effect: no policy is left, and the deleted queues come back as computed
    // (once the API stops showing the cleared policies: stats lag).
    for (name, operator) in &policies {
        assert!(!broker.policy_exists(name, *operator), "{name} is gone");
    }
    let mut declare = vec!["declare"];
    declare.extend(&names);
    let last = std::cell::RefCell::new(String::new());
    let recreated = std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| {
        common::eventually("declare to recreate them", Duration::from_secs(30), || {
            let out = run(&declare);
            *last.borrow_mut() = format!("{}{}", stdout(&out), stderr(&out));
            (code(&out) == 0).then_some(())
        })
    }));
    assert!(recreated.is_ok(), "declare: {}", last.borrow());
    common::eventually("every q.dead in sync", Duration::from_secs(30), || {
        (code(&verify_all(true)) == 0).then_some(())
    });
}

/// The first remedy command of the first drifted logical queue in a declare/verify report.
fn commands_of(doc: &Value) -> Vec<String> {
    doc["logical_queues"]
        .as_array()
        .unwrap()
        .iter()
        .flat_map(|l| l["remedies"].as_array().cloned().unwrap_or_default())
        .filter_map(|r| r["command"].as_str().map(str::to_owned))
        .collect()
}

/// Item 2: every remedy printed for a shell works when pasted as it is (here through `sh -c`),
/// whatever the queue and vhost are called, and takes effect.
#[test]
fn every_remedy_printed_for_a_shell_works_when_pasted() {
    let broker = Broker::connect();
    let vhost = unique("remedies/in a vhost");
    broker.create_vhost(&vhost);
    let url = url_for(&vhost, "guest", "guest");
    let in_vhost = Broker::connect_to(&url);

    // A policy gives the live queue the lower TTL asked for: `set_policy`, with a name that
    // holds a quote, a space, a `$` and dots, in a vhost whose name has a slash and a space.
    let q = in_vhost.queue_name("it's a $q.eu");
    in_vhost.track_queue(&format!("{q}.dead"));
    in_vhost.declare(
        &q,
        table(vec![
            ("x-message-ttl", AMQPValue::LongLongInt(5000)),
            ("x-max-priority", AMQPValue::ShortShortUInt(10)),
        ]),
    );
    let args = [
        "declare",
        q.as_str(),
        "--message-ttl",
        "4s",
        "--url",
        url.as_str(),
    ];
    // What the operator sees and copies: the command as printed.
    let out = run(&args);
    assert_eq!(code(&out), 1, "{}", stderr(&out));
    let err = stderr(&out);
    let line = err
        .lines()
        .find(|l| l.contains("rabbitmqctl set_policy"))
        .unwrap_or_else(|| panic!("a set_policy remedy in:\n{err}"));
    let command = line[line.find("rabbitmqctl").unwrap()..].trim().to_owned();
    // (The policy goes with the vhost when the test ends; one set in "/" by a command that
    // forgot the vhost would be deleted with the harness's policies.)
    broker.track_policy(&format!("queuey-{q}"), false);
    let pasted = paste(&command);
    assert!(pasted.status.success(), "{command}: {}", stderr(&pasted));
    let live = common::eventually("the policy on the queue", Duration::from_secs(30), || {
        // queuey names it after the queue, `$` replaced (see the Debian wrapper).
        in_vhost
            .api_queue(&q)
            .filter(|l| l["policy"] == format!("queuey-{}", q.replace('$', "_")).as_str())
    });
    assert_eq!(
        live["effective_policy_definition"]["message-ttl"], 4000,
        "{live}"
    );
    // The JSON report carries the same command, on its own.
    let out = run(&[&args[..], &["-o", "json"]].concat());
    assert_eq!(commands_of(&json(&out)).first(), Some(&command));

    // Recreating a drifted queue: `delete_queue --if-empty`, then `queuey declare` again.
    let drifted = in_vhost.queue_name("drifted");
    in_vhost.track_queue(&format!("{drifted}.dead"));
    in_vhost.declare(
        &drifted,
        table(vec![("x-max-priority", AMQPValue::ShortShortUInt(3))]),
    );
    let out = run(&["declare", &drifted, "--url", &url, "-o", "json"]);
    assert_eq!(code(&out), 1);
    let commands = commands_of(&json(&out));
    let delete: Vec<&String> = commands
        .iter()
        .filter(|c| c.starts_with("rabbitmqctl delete_queue"))
        .collect();
    assert_eq!(delete.len(), 1, "{commands:?}");
    let pasted = paste(delete[0]);
    assert!(pasted.status.success(), "{}", stderr(&pasted));
    assert!(
        in_vhost.api_queue(&drifted).is_none(),
        "{} took effect",
        delete[0]
    );
    let out = run(&["declare", &drifted, "--url", &url]);
    assert_eq!(code(&out), 0, "{}", stderr(&out));
    // A name that the Debian rabbitmqctl wrapper (run as root) would read again gets no command
    // that could act on another queue, and the text says why.
    let dollar = in_vhost.queue_name("price$eur");
    in_vhost.track_queue(&format!("{dollar}.dead"));
    in_vhost.declare(
        &dollar,
        table(vec![("x-max-priority", AMQPValue::ShortShortUInt(3))]),
    );
    let out = run(&["declare", &dollar, "--url", &url, "-o", "json"]);
    assert_eq!(code(&out), 1);
    let doc = json(&out);
    assert!(
        !commands_of(&doc).iter().any(|c| c.contains("delete_queue")),
        "{doc:#}"
    );
    assert!(
        doc["logical_queues"][0]["remedies"]
            .to_string()
            .contains("sudo -u rabbitmq"),
        "{doc:#}"
    );

    // A queue exclusive to another connection: `list_queues` finds its owner.
    let locked = in_vhost.queue_name("locked");
    let holder = in_vhost.channel();
    in_vhost
        .rt
        .block_on(holder.queue_declare(
            locked.as_str().into(),
            lapin::options::QueueDeclareOptions {
                exclusive: true,
                ..lapin::options::QueueDeclareOptions::default()
            },
            FieldTable::default(),
        ))
        .expect("an exclusive queue");
    let out = run(&["verify", &locked, "--url", &url, "-o", "json"]);
    assert_eq!(code(&out), 1);
    let commands = commands_of(&json(&out));
    assert_eq!(commands.len(), 1, "{commands:?}");
    let pasted = paste(&commands[0]);
    assert!(pasted.status.success(), "{}", stderr(&pasted));
    let listing = stdout(&pasted);
    let row = listing
        .lines()
        .find(|l| l.starts_with(&locked))
        .unwrap_or_else(|| panic!("{} lists {locked}: {listing}", commands[0]));
    assert!(
        row.contains("true") && row.contains('<'),
        "owner shown: {row}"
    );
    drop(in_vhost);
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
        let doc: Value = serde_json::from_slice(&out.stdout)
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

/// A replay stopped by `--limit` before the end of q.dead says how far it read: never "1 of 1
/// dead letter ... match" when the queue held 2, as if the whole queue had been looked at.
#[test]
fn a_replay_stopped_by_its_limit_says_how_far_it_read() {
    let broker = Broker::connect();
    let (q, dead) = dead_letters(&broker, "limited", 2, None);
    broker.declare(&q, FieldTable::default());
    let args = ["dead", "replay", &q, "--cause", "fatal", "--limit", "1"];
    let out = run(&[&args[..], &["--dry-run"]].concat());
    assert_eq!(code(&out), 0, "{}", stderr(&out));
    assert!(
        stdout(&out).contains(&format!(
            "dry run: 1 dead letter in {dead} matches (--limit 1 reached after reading 1 of 2): \
             1 would be replayed"
        )),
        "{}",
        stdout(&out)
    );
    let out = run(&[&args[..], &["--dry-run", "-o", "json"]].concat());
    let doc = json(&out);
    assert_eq!(
        (
            &doc["depth_at_start"],
            &doc["scanned"],
            &doc["matched"],
            &doc["limit"],
            &doc["limit_reached"]
        ),
        (
            &Value::from(2),
            &Value::from(1),
            &Value::from(1),
            &Value::from(1),
            &Value::from(true)
        ),
        "{doc}"
    );
    // The whole queue read: no limit said.
    let out = run(&["dead", "replay", &q, "--cause", "fatal", "--dry-run"]);
    assert!(
        stdout(&out).contains(&format!("dry run: 2 of 2 dead letters in {dead} match")),
        "{}",
        stdout(&out)
    );
    let out = run(&args);
    assert_eq!(code(&out), 0, "{}", stderr(&out));
    assert!(
        stdout(&out).contains(&format!(
            "replayed 1 of 1 matching dead letter of {dead} (--limit 1 reached after reading 1 \
             of 2)"
        )),
        "{}",
        stdout(&out)
    );
    assert_eq!((broker.count(&q), broker.count(&dead)), (1, 1));
}
