//! `dead purge`: the prompt, `--yes`, dry runs, archives, and a purge killed or stopped mid-run
//! (every removed message in the archive, exactly once after the rerun).

use std::collections::{BTreeMap, BTreeSet};
use std::io::Write;
use std::process::Stdio;
use std::time::{Duration, Instant};

use crate::common::fixtures::{fill, id_counts, setup};
use crate::common::{
    Broker, Queuey, code, dead_letters, eventually, json, kill_mid_run, run, stderr, stdout,
};
use serde_json::Value;

#[test]
fn purge_needs_a_terminal_or_yes() {
    let broker = Broker::connect();
    let (q, dead, _) = setup(&broker, "purge-refuse", 0);
    fill(&broker, &dead, &["x"], &["r"], 10);
    let out = Queuey::new().args(["dead", "purge", &q]).run();
    assert_eq!(out.status.code(), Some(2));
    assert!(stderr(&out).contains("--yes"), "{}", stderr(&out));
    assert_eq!(broker.message_count(&dead), Some(10));

    let out = Queuey::new()
        .args(["dead", "purge", &q, "--dry-run", "-o", "json"])
        .run();
    assert!(out.status.success());
    assert_eq!(json(&out)["matched"], 10);
    assert_eq!(broker.message_count(&dead), Some(10));

    let out = Queuey::new()
        .args(["dead", "purge", &q, "--yes", "-o", "json"])
        .run();
    assert!(out.status.success(), "{}", stderr(&out));
    assert_eq!(json(&out)["removed"], 10);
    assert_eq!(broker.message_count(&dead), Some(0));
}

#[test]
fn purge_asks_on_a_terminal() {
    use std::io::Read;
    let broker = Broker::connect();
    let (q, dead, _) = setup(&broker, "purge-prompt", 0);
    let ids = fill(&broker, &dead, &["x"], &["timeout", "crash"], 20);
    let dir = tempfile::tempdir().unwrap();
    // Answers once the question is on the screen (never after a fixed sleep); returns the
    // screen and the exit code.
    let run = |answer: &str| -> (String, Option<i32>) {
        let mut child = Queuey::in_dir(dir.path())
            .args(["dead", "purge", &q, "--reason", "timeout"])
            .in_terminal()
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::piped())
            .spawn()
            .expect("script(1) from util-linux");
        let mut stdout = child.stdout.take().unwrap();
        let (tx, rx) = std::sync::mpsc::channel::<Vec<u8>>();
        let reader = std::thread::spawn(move || {
            let mut buf = [0u8; 4096];
            while let Ok(n) = stdout.read(&mut buf) {
                if n == 0 || tx.send(buf[..n].to_vec()).is_err() {
                    break;
                }
            }
        });
        let mut screen = Vec::new();
        let deadline = Instant::now() + Duration::from_secs(30);
        while !String::from_utf8_lossy(&screen).contains("[y/N]") {
            let left = deadline.saturating_duration_since(Instant::now());
            match rx.recv_timeout(left) {
                Ok(chunk) => screen.extend(chunk),
                Err(_) => panic!(
                    "no question within 30 s: {}",
                    String::from_utf8_lossy(&screen)
                ),
            }
        }
        let mut stdin = child.stdin.take().unwrap();
        stdin.write_all(answer.as_bytes()).unwrap();
        let status = child.wait().unwrap();
        drop(stdin);
        reader.join().unwrap();
        screen.extend(rx.try_iter().flatten());
        (String::from_utf8_lossy(&screen).into_owned(), status.code())
    };
    let (text, code) = run("n\n");
    assert!(
        text.contains("Remove 10 messages matching the filters"),
        "{text}"
    );
    assert_eq!(code, Some(9), "declined: {text}");
    assert_eq!(broker.ids(&dead), ids, "nothing removed, order kept");
    let (text, code) = run("y\n");
    assert!(text.contains("removed 10"), "{text}");
    assert_eq!(code, Some(0), "{text}");
    let crash: Vec<String> = ids.iter().skip(1).step_by(2).cloned().collect();
    assert_eq!(broker.ids(&dead), crash, "exactly the timeouts went");
}

/// A purge with --archive slow enough (`--window 5`) to be stopped mid-run, over `N` dead
/// letters.
struct SlowPurge {
    q: String,
    dead: String,
    ids: Vec<String>,
    dir: tempfile::TempDir,
    archive: std::path::PathBuf,
}

impl SlowPurge {
    const N: usize = 8_000;

    fn fill(broker: &Broker, label: &str) -> SlowPurge {
        let (q, dead, _) = setup(broker, label, 0);
        let ids = fill(broker, &dead, &["orders"], &["x"], Self::N);
        assert_eq!(broker.count(&dead), Self::N as u32);
        let dir = tempfile::tempdir().unwrap();
        let archive = dir.path().join("archive.jsonl");
        SlowPurge {
            q,
            dead,
            ids,
            dir,
            archive,
        }
    }

    /// Waits until `child`, the purge, has removed a few hundred dead letters, failing if it
    /// ended first.
    fn wait_mid_run(&self, broker: &Broker, child: &mut std::process::Child) {
        eventually(
            "the purge to remove some messages",
            Duration::from_secs(60),
            || {
                if let Some(status) = child.try_wait().unwrap() {
                    panic!("the purge ended before it could be stopped ({status})");
                }
                (broker.count(&self.dead) < (Self::N - 300) as u32).then_some(())
            },
        );
    }

    /// `dead purge q --yes --window 5 --archive F`, to add to and spawn.
    fn command(&self) -> std::process::Command {
        let mut cmd = Queuey::in_dir(self.dir.path()).process();
        cmd.args([
            "dead",
            "purge",
            &self.q,
            "--yes",
            "--window",
            "5",
            "--archive",
        ])
        .arg(&self.archive);
        cmd
    }
}

/// The promise of `purge --archive` (docs/commands/dead-purge.md): a dead letter is acked only once its record is
/// written and fsynced. Killed with SIGKILL mid-purge (one fsync per 5 messages, so it is
/// caught in the middle), every message gone from q.dead is in the archive; the archive may
/// also hold messages not yet acked (they are then in both), and only its last line may be cut.
#[test]
fn sigkill_mid_purge_leaves_every_removed_message_in_the_archive() {
    let broker = Broker::connect();
    let p = SlowPurge::fill(&broker, "purgekill");
    let (n, dead, ids, archive) = (SlowPurge::N, &p.dead, &p.ids, &p.archive);
    let mut child = p
        .command()
        .arg("-q")
        .stdout(Stdio::null())
        .stderr(Stdio::null())
        .spawn()
        .unwrap();
    p.wait_mid_run(&broker, &mut child);
    kill_mid_run(&mut child, "the purge");
    let text = std::fs::read_to_string(archive).unwrap();
    let lines: Vec<&str> = text.lines().collect();
    let mut archived: BTreeMap<String, usize> = BTreeMap::new();
    for (i, line) in lines.iter().enumerate() {
        match serde_json::from_str::<serde_json::Value>(line) {
            Ok(record) => {
                let id = record["properties"]["message_id"]
                    .as_str()
                    .unwrap_or_else(|| panic!("line {}: no message id: {line}", i + 1))
                    .to_owned();
                *archived.entry(id).or_default() += 1;
            }
            Err(e) if i + 1 == lines.len() && !text.ends_with('\n') => {
                eprintln!("the last archive line was cut by the kill: {e}");
            }
            Err(e) => panic!("archive line {} is not a record ({e}): {line}", i + 1),
        }
    }
    // The broker returns what the killed connection held: wait until q.dead has taken it back.
    let archived_count = archived.len();
    crate::common::settled(
        "q.dead to take back what the killed purge held",
        Duration::from_secs(30),
        Duration::from_millis(500),
        || broker.ready_and_consumers(dead),
        |ready| ready as usize + archived_count >= n,
    );
    let in_dead = id_counts(&broker, &[dead]);
    let expected: BTreeSet<&String> = ids.iter().collect();
    for (where_, counts) in [("q.dead", &in_dead), ("the archive", &archived)] {
        for (id, n) in counts {
            assert!(
                expected.contains(id),
                "{id:?} in {where_} was never published"
            );
            assert_eq!(*n, 1, "{id} is {n} times in {where_}");
        }
    }
    let removed: Vec<&String> = ids.iter().filter(|id| !in_dead.contains_key(*id)).collect();
    assert!(
        !removed.is_empty() && removed.len() < n,
        "{} removed",
        removed.len()
    );
    for id in &removed {
        assert!(
            archived.contains_key(*id),
            "{id} was removed from q.dead but is not in the archive"
        );
    }
    eprintln!(
        "killed mid-purge: {} removed, all archived; {} archived but not yet acked",
        removed.len(),
        archived_count - removed.len()
    );
}

/// A purge with --archive killed mid-run (kill -9): the rerun with the same --archive
/// recognises its own unfinished archive, appends to it, and writes twice only what it says
/// may be twice (dead letters whose acks were in flight at the kill): every removed dead letter
/// is in the archive, once but for those.
#[test]
fn a_killed_archive_purge_is_finished_by_its_rerun_writing_twice_only_what_it_says() {
    let broker = Broker::connect();
    let (q, dead, _) = setup(&broker, "archive-kill", 0);
    let ids = fill(&broker, &dead, &["orders"], &["timeout"], 6000);
    let dir = tempfile::tempdir().unwrap();
    let archive = dir.path().join("purged.jsonl");
    let lines = |p: &std::path::Path| {
        std::fs::read_to_string(p)
            .unwrap_or_default()
            .lines()
            .count()
    };
    let mut child = Queuey::in_dir(dir.path())
        .process()
        .args(["dead", "purge", &q, "--yes", "--window", "20"])
        .args(["--archive", archive.to_str().unwrap()])
        .stdout(Stdio::null())
        .stderr(Stdio::null())
        .spawn()
        .unwrap();
    eventually("the archive to fill", Duration::from_secs(60), || {
        (lines(&archive) >= 400).then_some(())
    });
    assert!(child.try_wait().unwrap().is_none(), "killed mid-run");
    child.kill().unwrap();
    child.wait().unwrap();
    let after_kill = lines(&archive);
    assert!(after_kill < 6000, "{after_kill} archived before the kill");
    // The rerun without the same archive name would refuse; with it, it appends.
    eventually("the held messages back", Duration::from_secs(30), || {
        (broker.message_count(&dead).unwrap_or(0) as usize + after_kill >= 6000).then_some(())
    });
    let out = Queuey::in_dir(dir.path())
        .args(["dead", "purge", &q, "--yes", "-o", "json"])
        .args(["--archive", archive.to_str().unwrap()])
        .run();
    assert!(out.status.success(), "{}", stderr(&out));
    assert!(
        stderr(&out).contains("unfinished purge"),
        "{}",
        stderr(&out)
    );
    assert_eq!(broker.message_count(&dead), Some(0));
    let text = std::fs::read_to_string(&archive).unwrap();
    let (records, end) = text.trim_end().rsplit_once('\n').expect("lines");
    let end: serde_json::Value = serde_json::from_str(end).unwrap();
    assert_eq!(
        (&end["format"], &end["command"], &end["finished"]),
        (
            &Value::from("queuey.dead-letter.v1.end"),
            &Value::from("purge"),
            &Value::from(true)
        ),
        "the rerun ends the archive: {end}"
    );
    let mut archived: BTreeMap<String, usize> = BTreeMap::new();
    for l in records.lines() {
        let id = serde_json::from_str::<serde_json::Value>(l).unwrap()["properties"]["message_id"]
            .as_str()
            .unwrap()
            .to_owned();
        *archived.entry(id).or_default() += 1;
    }
    let want: BTreeMap<String, usize> = ids.iter().map(|id| (id.clone(), 1)).collect();
    let said = json(&out)["may_be_duplicates"].as_u64().unwrap_or(0);
    crate::common::assert_ids_at_least(
        &archived,
        &want,
        "the archive",
        said,
        "each removed dead letter archived",
    );
    let mut marker = archive.as_os_str().to_owned();
    marker.push(".unfinished");
    assert!(!std::path::Path::new(&marker).exists(), "the marker goes");
    // A finished archive is never appended to.
    let out = Queuey::in_dir(dir.path())
        .args(["dead", "purge", &q, "--yes", "--reason", "x"])
        .args(["--archive", archive.to_str().unwrap()])
        .run();
    assert_ne!(out.status.code(), Some(0));
}

/// SIGTERM to a purge with --archive stops it as Ctrl-C does: what is in flight is archived
/// and acked, the summary says how many were removed (exit 130), and nothing is in both
/// places: each dead letter is in q.dead or in the archive, exactly once.
#[test]
fn sigterm_stops_an_archiving_purge_cleanly() {
    let broker = Broker::connect();
    let p = SlowPurge::fill(&broker, "purgeterm");
    let (n, dead, ids, archive) = (SlowPurge::N, &p.dead, &p.ids, &p.archive);
    let mut child = p
        .command()
        .args(["-o", "json"])
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    p.wait_mid_run(&broker, &mut child);
    let status = std::process::Command::new("kill")
        .args(["-TERM", &child.id().to_string()])
        .status()
        .unwrap();
    assert!(status.success());
    let out = child.wait_with_output().unwrap();
    assert_eq!(out.status.code(), Some(130), "{}", stderr(&out));
    let summary = json(&out);
    assert_eq!(summary["interrupted"], true, "{summary}");
    let removed = summary["removed"].as_u64().unwrap();
    assert!(
        removed > 0 && removed < n as u64,
        "stopped mid-run: {summary}"
    );
    let text = std::fs::read_to_string(archive).unwrap();
    assert!(text.ends_with('\n'), "no line cut short by a clean stop");
    // Its end line says the purge stopped early, and how many it holds.
    let (records, end) = text.trim_end().rsplit_once('\n').expect("lines");
    let end: serde_json::Value = serde_json::from_str(end).unwrap();
    assert_eq!(end["format"], "queuey.dead-letter.v1.end", "{end}");
    assert_eq!(end["finished"], false, "{end}");
    assert_eq!(end["records"].as_u64(), Some(removed), "{end}");
    let mut archived: BTreeMap<String, usize> = BTreeMap::new();
    for line in records.lines() {
        let record: serde_json::Value = serde_json::from_str(line).unwrap();
        let id = record["properties"]["message_id"]
            .as_str()
            .unwrap()
            .to_owned();
        *archived.entry(id).or_default() += 1;
    }
    assert_eq!(
        archived.len() as u64,
        removed,
        "the summary counts the archive"
    );
    // A clean stop settles what it held: q.dead takes nothing back.
    let in_dead = id_counts(&broker, &[dead]);
    for id in ids {
        let n = in_dead.get(id).copied().unwrap_or(0) + archived.get(id).copied().unwrap_or(0);
        assert_eq!(n, 1, "{id} is in q.dead or the archive, exactly once");
    }
    assert_eq!(in_dead.len() + archived.len(), n);
}

/// A dry run of a whole-queue purge does not claim to have scanned nothing and matched
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

/// Answering no to the purge prompt exits 9 (declined), not 0 as a purge does.
#[test]
fn declining_the_purge_prompt_exits_9() {
    let broker = Broker::connect();
    let (q, dead) = dead_letters(&broker, "declined", 3, None);
    let dir = tempfile::tempdir().unwrap();
    let answer = |text: &str| {
        let mut child = Queuey::in_dir(dir.path())
            .args(["dead", "purge", &q])
            .in_terminal()
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::piped())
            .spawn()
            .expect("script(1) from util-linux");
        // The answer is typed once the prompt is on the terminal, as an operator types it.
        let mut screen = child.stdout.take().expect("script's stdout");
        let mut shown = Vec::new();
        let mut chunk = [0u8; 512];
        while !String::from_utf8_lossy(&shown).contains("[y/N]") {
            let n = std::io::Read::read(&mut screen, &mut chunk).expect("the terminal's output");
            if n == 0 {
                break;
            }
            shown.extend_from_slice(&chunk[..n]);
        }
        child
            .stdin
            .take()
            .expect("script's stdin")
            .write_all(text.as_bytes())
            .expect("typing the answer");
        std::io::Read::read_to_end(&mut screen, &mut shown).expect("the terminal's output");
        let mut out = child.wait_with_output().expect("script(1) ends");
        out.stdout = shown;
        out
    };
    let out = answer("n\n");
    assert_eq!(code(&out), 9, "{}", stdout(&out));
    assert!(stdout(&out).contains("nothing removed"), "{}", stdout(&out));
    assert_eq!(broker.message_count(&dead), Some(3));
    let out = answer("y\n");
    assert_eq!(code(&out), 0, "{}", stdout(&out));
    assert_eq!(broker.message_count(&dead), Some(0));
}

/// A job enqueued two days ago (its envelope's `enqueued_at_ms`), published through the library;
/// the worker dead-letters it fatally, now.
fn doomed_two_days_ago<const S: usize>(app: &crate::common::app::App<'_, S>) -> String {
    use crate::common::app::{Doomed, FATAL_WHY};
    let mut envelope = queuey_core::Envelope::new(&Doomed::<S> {
        why: FATAL_WHY.to_owned(),
    })
    .expect("an envelope");
    let now = std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .expect("the clock");
    envelope.enqueued_at_ms =
        u64::try_from((now - Duration::from_secs(2 * 86_400)).as_millis()).expect("fits");
    app.publish_envelope(&envelope);
    envelope.job_id.to_string()
}

/// The rule, the same on every version: an application's dead letter carries no death time, and
/// the queuey library writes a dead letter's headers afresh from the envelope, so the replay
/// record queuey puts on a copy (`x-queuey-last-replay`, with its time) does not survive the
/// copy's second death (checked here on the real library), and `enqueued_at_ms` never changes.
/// A job enqueued two days ago, replayed and dead again a second ago, is aged two days. `dead
/// purge --older-than 1d` keeps it (and says so) unless `--age-from-enqueued`; a dead letter
/// with a death time (here the `timestamp` property) two days old is removed as before.
#[test]
fn purge_older_than_keeps_a_young_dead_letter_aged_by_its_enqueue() {
    use crate::common::app::{App, Mode};
    let broker = Broker::connect();
    // Slot 22: see the list in main.rs.
    let app = App::<22>::new(&broker, "purge-enqueue-age");
    let q = app.q;
    app.declare();
    let job = doomed_two_days_ago(&app);
    let worker = app.start(Mode::Normal);
    worker.until("the job dead once", Duration::from_secs(30), |_| {
        app.count(&app.dead) == Some(1)
    });
    // The operator replays it; the application fails it again at once.
    let out = run(&["dead", "replay", q]);
    assert_eq!(code(&out), 0, "{}", stderr(&out));
    worker.until("the job dead again", Duration::from_secs(30), |log| {
        log.died().len() == 2 && app.count(&app.dead) == Some(1)
    });
    worker.stop();
    let snapshot = broker.snapshot(&app.dead);
    let (body, props) = &snapshot[0];
    let headers = props.headers().clone().unwrap_or_default();
    let names: Vec<String> = headers.inner().keys().map(|k| k.to_string()).collect();
    assert!(
        !names
            .iter()
            .any(|n| n == "x-queuey-last-replay" || n == "x-queuey-replays"),
        "the library writes the dead letter's headers afresh: {names:?}"
    );
    assert!(props.timestamp().is_none(), "no death time: {props:?}");
    let envelope: serde_json::Value = serde_json::from_slice(body).expect("an envelope");
    assert_eq!(envelope["job_id"], job.as_str());
    // A dead letter with a death time two days old (the timestamp property), behind it.
    let two_days_ago = std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .expect("the clock")
        .as_secs()
        - 2 * 86_400;
    broker.publish_props(
        &app.dead,
        b"old",
        lapin::BasicProperties::default()
            .with_message_id("old-death".into())
            .with_timestamp(two_days_ago),
    );

    let purge = |args: &[&str]| {
        let mut all = vec!["dead", "purge", q, "--older-than", "1d"];
        all.extend_from_slice(args);
        run(&all)
    };
    let out = purge(&["--dry-run", "-o", "json"]);
    assert_eq!(code(&out), 0, "{}", stderr(&out));
    let doc = json(&out);
    assert_eq!(doc["matched"], 1, "{doc:#}");
    assert_eq!(doc["kept_aged_by_enqueue"], 1, "{doc:#}");
    assert!(
        stderr(&out).contains("1 dead letter would be kept")
            && stderr(&out).contains("--age-from-enqueued"),
        "{}",
        stderr(&out)
    );

    let out = purge(&["--yes"]);
    assert_eq!(code(&out), 0, "{}", stderr(&out));
    assert!(
        stdout(&out).contains("removed 1 dead letter"),
        "{}",
        stdout(&out)
    );
    assert!(
        stderr(&out).contains("1 dead letter kept"),
        "{}",
        stderr(&out)
    );
    assert_eq!(broker.ids(&app.dead), [job], "the young one stays");

    // Told to, the enqueue age counts.
    let out = purge(&["--yes", "--age-from-enqueued", "-o", "json"]);
    assert_eq!(code(&out), 0, "{}", stderr(&out));
    let doc = json(&out);
    assert_eq!(doc["removed"], 1, "{doc:#}");
    assert_eq!(doc["matched_aged_by_enqueue"], 1, "{doc:#}");
    assert_eq!(doc["kept_aged_by_enqueue"], 0, "{doc:#}");
    assert_eq!(broker.message_count(&app.dead), Some(0));

    // --age-from-enqueued alone is a usage error.
    let out = run(&["dead", "purge", q, "--age-from-enqueued", "--dry-run"]);
    assert_eq!(code(&out), 2, "{}", stderr(&out));
}

/// Undoing a purge from its archive: `dead replay q --from-file ARCHIVE --to q.dead` puts the
/// dead letters back as they were (reason, original queue, attempts: they decode as before),
/// where a replay into q.dead from q.dead itself is still refused (it would move nothing). A
/// copy of the archive cut short by a crash (its last line half written, no newline) is read
/// all the same: the cut line is left out with a note, and the file's missing end line is said.
#[test]
fn a_purge_is_undone_from_its_archive_and_a_cut_archive_is_read_but_its_last_line() {
    let broker = Broker::connect();
    let (q, dead, _) = setup(&broker, "purge-undo", 0);
    let ids = fill(&broker, &dead, &["orders"], &["timeout", "crash"], 40);
    let dir = tempfile::tempdir().unwrap();
    let archive = dir.path().join("purged.jsonl");
    let archive_arg = archive.to_str().unwrap();
    let ls_reason = |reason: &str| {
        let out = run(&[
            "dead", "ls", &q, "--reason", reason, "--limit", "0", "-o", "json",
        ]);
        assert_eq!(code(&out), 0, "{}", stderr(&out));
        json(&out)["matched"].as_u64().unwrap()
    };
    let out = run(&[
        "dead",
        "purge",
        &q,
        "--yes",
        "--reason",
        "timeout",
        "--archive",
        archive_arg,
    ]);
    assert_eq!(code(&out), 0, "{}", stderr(&out));
    assert_eq!((ls_reason("timeout"), ls_reason("crash")), (0, 20));
    let text = std::fs::read_to_string(&archive).unwrap();
    let end: Value = serde_json::from_str(text.lines().last().unwrap()).unwrap();
    assert_eq!(
        (
            &end["format"],
            &end["command"],
            &end["finished"],
            &end["records"]
        ),
        (
            &Value::from("queuey.dead-letter.v1.end"),
            &Value::from("purge"),
            &Value::from(true),
            &Value::from(20)
        ),
        "{end}"
    );

    // Not from q.dead into itself.
    let out = run(&["dead", "replay", &q, "--to", &dead]);
    assert_eq!(code(&out), 2, "{}", stderr(&out));
    assert!(stderr(&out).contains("--from-file"), "{}", stderr(&out));

    // A copy of the archive cut by a crash mid-line: 19 whole records and half of the 20th.
    let cut = dir.path().join("cut.jsonl");
    let records: Vec<&str> = text.lines().take(20).collect();
    let mut cut_text = records[..19].join("\n") + "\n";
    cut_text.push_str(&records[19][..records[19].len() / 2]);
    std::fs::write(&cut, &cut_text).unwrap();
    let out = run(&[
        "dead",
        "replay",
        &q,
        "--from-file",
        cut.to_str().unwrap(),
        "--to",
        &dead,
        "--dry-run",
        "-o",
        "json",
    ]);
    assert_eq!(code(&out), 0, "{}", stderr(&out));
    let doc = json(&out);
    assert_eq!(doc["would_move"], 19, "{doc:#}");
    assert_eq!(doc["file_complete"], false, "{doc:#}");
    let err = stderr(&out);
    assert!(
        err.contains("line 20, the last, is cut short") && err.contains("has no end line"),
        "{err}"
    );
    assert!(!err.contains("not JSON"), "{err}");

    // A file whose end line says its export was interrupted: read, and said INCOMPLETE.
    let stopped = dir.path().join("stopped.jsonl");
    let mut stopped_end = end.clone();
    stopped_end["command"] = "export".into();
    stopped_end["finished"] = false.into();
    stopped_end["records"] = 5.into();
    stopped_end["why"] = "interrupted (a signal) after 5 of the 40 dead letters".into();
    std::fs::write(
        &stopped,
        records[..5].join("\n") + "\n" + &stopped_end.to_string() + "\n",
    )
    .unwrap();
    let out = run(&[
        "dead",
        "replay",
        &q,
        "--from-file",
        stopped.to_str().unwrap(),
        "--to",
        &dead,
        "--dry-run",
        "-o",
        "json",
    ]);
    assert_eq!(code(&out), 0, "{}", stderr(&out));
    assert_eq!(json(&out)["would_move"], 5);
    assert_eq!(json(&out)["file_complete"], false);
    let err = stderr(&out);
    assert!(
        err.contains("is INCOMPLETE") && err.contains("after 5 of the 40"),
        "{err}"
    );

    // The whole archive back where it was: 20 dead letters, decoded as before.
    let out = run(&[
        "dead",
        "replay",
        &q,
        "--from-file",
        archive_arg,
        "--to",
        &dead,
        "-o",
        "json",
    ]);
    assert_eq!(code(&out), 0, "{}", stderr(&out));
    let doc = json(&out);
    assert_eq!(
        (&doc["moved"], &doc["attempts_reset"]),
        (&Value::from(20), &Value::from(0)),
        "{doc:#}"
    );
    assert_eq!(doc["file_complete"], true, "{doc:#}");
    assert!(!stderr(&out).contains("end line"), "{}", stderr(&out));
    assert_eq!((ls_reason("timeout"), ls_reason("crash")), (20, 20));
    let mut back = broker.ids(&dead);
    back.sort();
    let mut want = ids.clone();
    want.sort();
    assert_eq!(back, want, "every dead letter once");
    let out = run(&[
        "dead", "ls", &q, "--reason", "timeout", "--limit", "1", "-o", "json",
    ]);
    let first = &json(&out)["messages"][0];
    assert_eq!(first["original_queue"], "orders", "{first:#}");
    assert_eq!(first["attempts"], 5, "{first:#}");
}

/// A filtered purge of a quorum `q.dead` removes what matches and returns the rest one nack per
/// round, naming only the tags it still holds: the rest keep their order, on both versions
/// (one nack of all came back split by consumer, in an order of the broker's own). No delivery
/// limit on 3.x (a return there would count), 4.x's default of 20 (a nack is free from 4.3).
#[test]
fn a_filtered_purge_of_a_quorum_dead_queue_keeps_the_rest_in_order() {
    let broker = Broker::connect();
    let version = broker.rabbitmq_version();
    let q = broker.queue_name("qpurge-order");
    let dead = format!("{q}.dead");
    broker.declare(
        &dead,
        crate::common::table(vec![("x-queue-type", crate::common::long_str("quorum"))]),
    );
    broker.track_queue(&dead);
    let ids = fill(&broker, &dead, &["x"], &["timeout", "crash", "crash"], 3000);
    let out = Queuey::new()
        .args([
            "dead", "purge", &q, "--reason", "timeout", "--yes", "-o", "json",
        ])
        .run();
    assert!(out.status.success(), "{version:?}: {}", stderr(&out));
    assert_eq!(json(&out)["removed"], 1000, "{version:?}");
    broker.wait_for_count(&dead, 2000);
    let kept: Vec<String> = ids
        .iter()
        .enumerate()
        .filter(|(i, _)| i % 3 != 0)
        .map(|(_, id)| id.clone())
        .collect();
    let held = broker.drain_ids(&dead);
    let what = format!("{version:?}: the 2 000 kept in their order");
    crate::common::assert_same_order(&held, &kept, &what);
}
