//! What queuey shows on a terminal, on the real broker: every table one line per row within the
//! terminal's width (the columns that matter least hidden, long values cut with `…`, said once on
//! stderr), `--wide` and a pipe with everything; `dead show` of a 2 MB body a screenful on a
//! terminal, whole on a pipe or with `--full`.
//!
//! The terminal is a pseudo-terminal made by `script(1)` (util-linux), sized by `COLUMNS` and
//! `LINES` (under `script` without a parent terminal it reports no size of its own); standard
//! error goes to a file, so that what the terminal shows is standard output alone.

use std::path::Path;
use std::process::Stdio;

use lapin::BasicProperties;
use lapin::types::{AMQPValue, FieldTable};
use serde_json::{Value, json};

use crate::common::app::{App, DEAD_LETTERS};
use crate::common::{Broker, Queuey, code, json, long_str, run, stderr, stdout, table};

/// What a terminal showed of one command: its standard output, and its standard error apart.
struct Shown {
    screen: String,
    stderr: String,
    code: i32,
}

impl Shown {
    /// The table rows: the lines between the header's rule and the bottom border.
    fn rows(&self) -> Vec<&str> {
        self.screen
            .lines()
            .skip_while(|l| !l.starts_with('╞'))
            .skip(1)
            .take_while(|l| l.starts_with('│'))
            .collect()
    }

    /// The widest line of the tables (the prose under a table wraps as prose does).
    fn widest(&self) -> usize {
        self.screen
            .lines()
            .filter(|l| l.starts_with(['┌', '│', '╞', '└']))
            .map(|l| l.chars().count())
            .max()
            .unwrap_or(0)
    }
}

/// Runs `queuey ARGS` in `dir` with its standard output a terminal `columns` wide and `rows` high.
fn on_a_terminal(dir: &Path, args: &[&str], columns: u16, rows: u16) -> Shown {
    let quote = |a: &str| format!("'{}'", a.replace('\'', r"'\''"));
    let bin = assert_cmd::cargo::cargo_bin("queuey");
    let errors = dir.join("stderr.txt");
    let mut line = vec![quote(&bin.to_string_lossy())];
    line.extend(args.iter().map(|a| quote(a)));
    line.push(format!("2>{}", quote(&errors.to_string_lossy())));
    // The same environment as every test's command, plus the terminal's size.
    let base = Queuey::in_dir(dir).process();
    let mut cmd = std::process::Command::new("script");
    cmd.env_clear();
    for (k, v) in base.get_envs() {
        if let Some(v) = v {
            cmd.env(k, v);
        }
    }
    let out = cmd
        .env("COLUMNS", columns.to_string())
        .env("LINES", rows.to_string())
        .args(["-qec", &line.join(" "), "/dev/null"])
        .current_dir(dir)
        .stdin(Stdio::null())
        .output()
        .expect("script(1) from util-linux");
    Shown {
        screen: String::from_utf8_lossy(&out.stdout).replace('\r', ""),
        stderr: std::fs::read_to_string(&errors).unwrap_or_default(),
        code: code(&out),
    }
}

/// A dead letter as the queuey library writes one, with a payload far wider than a terminal.
fn a_long_dead_letter(broker: &Broker, dead: &str, q: &str) {
    let body = json!({
        "job_id": "6f1c2a3b-0000-4000-8000-000000000042",
        "job_type": "app.Flaky",
        "queue": q,
        "attempt": 3,
        "enqueued_at_ms": 1_700_000_000_000u64,
        "deferrals": 0,
        "priority": 0,
        "payload": {"customer": "a customer whose payload is far wider than any terminal", "n": 42},
    });
    let headers: FieldTable = table(vec![
        ("x-attempt", AMQPValue::LongUInt(3)),
        ("x-deferrals", AMQPValue::LongUInt(0)),
        (
            "x-death-reason",
            long_str("max attempts (3) exhausted after attempt 3: upstream timed out again"),
        ),
        ("x-original-queue", long_str(q)),
        ("x-attempts", AMQPValue::LongUInt(3)),
    ]);
    broker.publish_props(
        dead,
        body.to_string().as_bytes(),
        BasicProperties::default()
            .with_message_id("6f1c2a3b-0000-4000-8000-000000000042".into())
            .with_type("app.Flaky".into())
            .with_content_type("application/json".into())
            .with_delivery_mode(2)
            .with_headers(headers),
    );
}

/// On an 80-column terminal `dead ls` is one line per dead letter, none wider
/// than the terminal, long values cut with `…`, what was left out said once on stderr;
/// `--wide` and a pipe show every column and value whole. The same for `--group-by`, `holds ls`,
/// `status --all`, and the replay report; the purge's report is one line.
#[test]
fn every_table_is_one_line_per_row_on_an_80_column_terminal() {
    let broker = Broker::connect();
    let app = App::<23>::new(&broker, "terminal");
    app.make_dead_letters();
    a_long_dead_letter(&broker, &app.dead, app.q);
    let total = DEAD_LETTERS as usize + 1;
    let dir = tempfile::tempdir().unwrap();
    let q = app.q;

    // dead ls: one row per dead letter, in q.dead's order.
    let listed = json(&run(&["dead", "ls", q, "-o", "json"]));
    let messages = listed["messages"].as_array().unwrap();
    assert_eq!(messages.len(), total);
    let shown = on_a_terminal(dir.path(), &["dead", "ls", q], 80, 24);
    assert_eq!(shown.code, 0, "{}", shown.stderr);
    let rows = shown.rows();
    assert_eq!(
        rows.len(),
        total,
        "one line per dead letter:\n{}",
        shown.screen
    );
    for (i, row) in rows.iter().enumerate() {
        assert!(
            row.starts_with(&format!("│ {} ┆", i + 1)),
            "row {} is dead letter {}:\n{}",
            i,
            i + 1,
            shown.screen
        );
    }
    assert!(shown.widest() <= 80, "{}", shown.screen);
    let long_row = rows.last().unwrap();
    assert!(
        long_row.trim_end_matches(" │").ends_with('…'),
        "the long payload is cut: {long_row}"
    );
    assert!(
        !shown.screen.contains(q),
        "the long queue name is hidden: {}",
        shown.screen
    );
    assert!(
        shown.stderr.contains("hidden") && shown.stderr.contains("--wide shows all"),
        "{}",
        shown.stderr
    );
    assert_eq!(shown.stderr.matches("--wide").count(), 1, "said once");

    // --wide and a pipe: every value whole, still one line per dead letter.
    let wide = on_a_terminal(dir.path(), &["dead", "ls", q, "--wide"], 80, 24);
    let piped = run(&["dead", "ls", q]);
    assert_eq!(wide.rows().len(), total, "{}", wide.screen);
    assert!(
        wide.widest() > 80,
        "wider than the terminal: {}",
        wide.screen
    );
    assert!(!wide.stderr.contains("--wide"), "{}", wide.stderr);
    for m in messages {
        for field in ["message_id", "original_queue", "body_preview", "job_type"] {
            if let Some(value) = m[field].as_str() {
                assert!(
                    wide.screen.contains(value),
                    "--wide: {value}\n{}",
                    wide.screen
                );
                assert!(stdout(&piped).contains(value), "piped: {value}");
            }
        }
    }

    // --group-by: one line per group, the long reasons cut, whole with --wide.
    let groups = json(&run(&[
        "dead",
        "ls",
        q,
        "--group-by",
        "reason",
        "-o",
        "json",
    ]));
    let groups = groups["groups"].as_array().unwrap();
    let shown = on_a_terminal(
        dir.path(),
        &["dead", "ls", q, "--group-by", "reason"],
        80,
        24,
    );
    assert_eq!(shown.rows().len(), groups.len(), "{}", shown.screen);
    assert!(shown.widest() <= 80, "{}", shown.screen);
    assert!(shown.screen.contains('…'), "{}", shown.screen);
    let wide = on_a_terminal(
        dir.path(),
        &["dead", "ls", q, "--group-by", "reason", "--wide"],
        80,
        24,
    );
    for g in groups {
        let reason = g["key"]["reason"].as_str().unwrap();
        assert!(wide.screen.contains(reason), "{reason}\n{}", wide.screen);
    }

    // holds ls: the hold queue the deferred job waits in, and the totals; its name keeps its
    // end (the TTL that tells hold queues apart). The 1 s hold queue of the application's
    // retries may still be there, empty, until its x-expires deletes it: a row of its own.
    let hold = app.hold(crate::common::app::DEFER_HOLD_MS);
    let shown = on_a_terminal(dir.path(), &["holds", "ls", q], 80, 24);
    assert_eq!(shown.code, 0, "{}", shown.stderr);
    let names: Vec<&str> = shown
        .rows()
        .iter()
        .map(|row| row.split('┆').next().unwrap_or("").trim_matches(['│', ' ']))
        .collect();
    let listed = names.len().saturating_sub(1);
    assert!(
        listed >= 1
            && names
                .last()
                .is_some_and(|n| n.starts_with(&format!("total: {listed} hold queue"))),
        "one line per hold queue, then the totals:\n{}",
        shown.screen
    );
    assert!(shown.widest() <= 80, "{}", shown.screen);
    assert!(
        names
            .iter()
            .any(|name| *name == hold || name.starts_with('…') && hold.ends_with(&name[3..])),
        "a row for {hold}, its name's end kept:\n{}",
        shown.screen
    );
    let wide = on_a_terminal(dir.path(), &["holds", "ls", q, "--wide"], 80, 24);
    assert!(wide.screen.contains(&hold), "{}", wide.screen);
    assert!(wide.screen.contains("expires if idle"), "{}", wide.screen);

    // status --all: a table per logical queue of the topology file, each row one line.
    let other = broker.queue_name("terminal-other");
    std::fs::write(
        dir.path().join("queuey.toml"),
        format!("[queues.\"{q}\"]\n[queues.\"{other}\"]\n"),
    )
    .unwrap();
    let shown = on_a_terminal(dir.path(), &["status", "--all"], 60, 24);
    assert_eq!(shown.code, 0, "{}", shown.stderr);
    let tables = shown.screen.matches('╞').count();
    assert_eq!(tables, 2, "{}", shown.screen);
    let rows = shown
        .screen
        .lines()
        .filter(|l| l.starts_with("│ ") && !l.contains(q) && !l.contains(&other[..20]))
        .count();
    assert_eq!(
        rows,
        2 * 4,
        "four rows a queue, one line each:\n{}",
        shown.screen
    );
    assert!(shown.widest() <= 60, "{}", shown.screen);
    assert!(shown.screen.contains('…'), "{}", shown.screen);
    let wide = on_a_terminal(dir.path(), &["status", "--all", "--wide"], 60, 24);
    assert!(
        wide.screen.contains("(statistics, seconds old)"),
        "{}",
        wide.screen
    );
    std::fs::remove_file(dir.path().join("queuey.toml")).unwrap();

    // The replay report: a dry run to a queue that does not exist, whose row says so.
    let missing = broker.queue_name("terminal-no-such-target-queue-with-a-long-name");
    let shown = on_a_terminal(
        dir.path(),
        &["dead", "replay", q, "--to", &missing, "--dry-run"],
        50,
        24,
    );
    assert_eq!(shown.rows().len(), 1, "{}\n{}", shown.screen, shown.stderr);
    assert!(shown.widest() <= 50, "{}", shown.screen);
    assert!(shown.rows()[0].contains('…'), "{}", shown.screen);
    // A real replay of one dead letter into a queue that exists.
    let target = broker.queue_name("terminal-target");
    broker.declare(&target, FieldTable::default());
    let shown = on_a_terminal(
        dir.path(),
        &["dead", "replay", q, "--to", &target, "--limit", "1"],
        40,
        24,
    );
    assert_eq!(shown.code, 0, "{}", shown.stderr);
    assert_eq!(shown.rows().len(), 1, "{}", shown.screen);
    assert!(shown.widest() <= 40, "{}", shown.screen);
    assert_eq!(broker.count(&target), 1);
    // The purge's report is one line.
    let shown = on_a_terminal(dir.path(), &["dead", "purge", q, "--dry-run"], 80, 24);
    assert_eq!(shown.code, 0, "{}", shown.stderr);
    assert_eq!(shown.screen.lines().count(), 1, "{}", shown.screen);
    assert_eq!(
        broker.count(&app.dead),
        total as u32 - 1,
        "nothing else moved"
    );
}

/// `dead show` of a 2 MB body prints a screenful on a terminal (far under
/// 20 KB) with the body's size and how to see it whole; a pipe and `--full` print it whole.
#[test]
fn dead_show_of_a_2_mb_body_is_a_screenful_on_a_terminal_and_whole_on_a_pipe() {
    let broker = Broker::connect();
    let q = broker.queue_name("terminal-big");
    let dead = format!("{q}.dead");
    broker.declare(&dead, FieldTable::default());
    let text = "0123456789abcdef".repeat(125_000);
    let body = format!("{{\"payload\":\"{text}\"}}");
    broker.publish(&dead, &[body.as_bytes()], None);
    let dir = tempfile::tempdir().unwrap();

    let shown = on_a_terminal(dir.path(), &["dead", "show", &q, "1"], 80, 24);
    assert_eq!(shown.code, 0, "{}", shown.stderr);
    assert!(
        shown.screen.len() < 20_000,
        "{} bytes on the terminal",
        shown.screen.len()
    );
    let size = body.len().to_string();
    assert!(shown.screen.contains(&size), "the size: {}", shown.screen);
    assert!(shown.screen.contains("--full"), "{}", shown.screen);
    assert!(shown.screen.contains("…"), "{}", shown.screen);

    let piped = run(&["dead", "show", &q, "1"]);
    assert_eq!(code(&piped), 0, "{}", stderr(&piped));
    assert!(stdout(&piped).contains(&text), "a pipe gets the whole body");
    assert!(!stdout(&piped).contains("--full"));
    let full = on_a_terminal(dir.path(), &["dead", "show", &q, "1", "--full"], 80, 24);
    assert!(full.screen.contains(&text), "--full: the whole body");
    // -o json is the export record, the whole body in base64.
    let record: Value = json(&run(&["dead", "show", &q, "1", "-o", "json"]));
    let base64 = record["body_base64"].as_str().unwrap();
    assert_eq!(base64.len(), body.len().div_ceil(3) * 4, "the whole body");
    assert_eq!(broker.count(&dead), 1, "the look removed nothing");
}
