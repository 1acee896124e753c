//! `dead edit`: a job repaired with `--set` that a real worker on the queuey library then
//! handles, and queuey killed between each step of an edit, leaving the original in q.dead
//! every time (and the copy in its queue only once it was confirmed).

use std::io::{BufRead, BufReader};
use std::process::Stdio;
use std::time::Duration;

use lapin::types::{AMQPValue, FieldTable};

use crate::common::app::{App, Mode, Outcome};
use crate::common::{Broker, Queuey, json, kill_mid_run, stderr, stdout};

#[test]
fn a_job_repaired_with_set_is_handled_by_the_real_worker() {
    let broker = Broker::connect();
    let app = App::<17>::new(&broker, "edit");
    let ids = app.make_dead_letters();
    let q = app.q;
    // The decode-error job: its payload is not the shape `app.Strict` takes ({"n": u64}).
    let dir = tempfile::tempdir().expect("a directory");
    let archive = dir.path().join("originals.jsonl");
    let out = Queuey::in_dir(dir.path())
        .args([
            "dead",
            "edit",
            q,
            "--message-id",
            &ids.decode,
            "--set",
            "/payload={\"n\":7}",
        ])
        .args([
            "--archive",
            archive.to_str().expect("a UTF-8 path"),
            "--yes",
            "-o",
            "json",
        ])
        .run();
    assert!(out.status.success(), "{}", stderr(&out));
    let report = json(&out);
    assert_eq!(report["outcome"], "published");
    assert_eq!(report["target"], q);
    // The original is archived in the export format, readable by `dead replay --from-file`.
    let text = std::fs::read_to_string(&archive).expect("the archive");
    let record: serde_json::Value =
        serde_json::from_str(text.lines().next().expect("one line")).expect("a JSON record");
    assert_eq!(record["dead_letter"]["job_id"], ids.decode.as_str());
    assert_eq!(broker.count(&app.dead), 4, "the original left q.dead");
    let worker = app.start(Mode::Normal);
    worker.until(
        "the repaired job to succeed",
        Duration::from_secs(30),
        |log| {
            log.of(&ids.decode)
                .iter()
                .any(|h| h.outcome == Outcome::Succeeded)
        },
    );
    let log = worker.stop();
    let handled = log.of(&ids.decode);
    assert_eq!(handled.len(), 1, "{handled:?}");
    assert_eq!((handled[0].attempt, handled[0].max_attempts), (1, 3));
    assert!(log.died().is_empty(), "{:?}", log.died());

    // Nothing changed: exit 9. No terminal and no --yes: refused, exit 2. A body that is no
    // longer an envelope: refused (exit 2: no terminal to edit it again on), nothing published.
    let edit = |extra: &[&str], editor: &str| {
        Queuey::new()
            .env("EDITOR", editor)
            .args(["dead", "edit", q, "--message-id", &ids.fatal])
            .args(extra)
            .run()
    };
    assert_eq!(edit(&["--yes"], "true").status.code(), Some(9));
    assert_eq!(
        edit(&["--set", "/payload/why=fixed"], "true").status.code(),
        Some(2)
    );
    let out = edit(&["--yes"], "sed -i s/job_type/kind/");
    assert_eq!(out.status.code(), Some(2), "{}", stderr(&out));
    assert!(
        stderr(&out).contains("no longer a queuey envelope: `job_type` is missing"),
        "{}",
        stderr(&out)
    );
    // An editor that changes the payload: published.
    let out = edit(&["--yes"], "sed -i s/declined/approved/");
    assert!(out.status.success(), "{}", stderr(&out));
    assert_eq!(broker.count(&app.dead), 3);
    assert!(broker.bodies(q).iter().any(|b| b.contains("approved")));
}

#[test]
fn killed_between_each_step_the_original_stays_in_the_dead_queue() {
    let broker = Broker::connect();
    let q = broker.queue_name("edit-kill");
    let dead = format!("{q}.dead");
    broker.declare(&q, FieldTable::default());
    broker.declare(&dead, FieldTable::default());
    let id = "5f0c8a52-0d3e-4a7e-9a0c-2b1f6c7d8e90";
    let body = serde_json::json!({
        "job_id": id, "job_type": "app.Ship", "queue": q, "attempt": 3,
        "enqueued_at_ms": 1_700_000_000_000u64, "deferrals": 0, "priority": 0,
        "payload": {"address": "Nowhere 0"}
    })
    .to_string();
    broker.publish_props(
        &dead,
        body.as_bytes(),
        lapin::BasicProperties::default()
            .with_message_id(id.into())
            .with_delivery_mode(2),
    );
    for (step, copies) in [("found", 0), ("archived", 0), ("published", 1)] {
        let dir = tempfile::tempdir().expect("a directory");
        let archive = dir.path().join("a.jsonl");
        let mut child = Queuey::in_dir(dir.path())
            .process()
            .env("QUEUEY_TEST_EDIT_PAUSE", step)
            .args([
                "dead",
                "edit",
                &q,
                "1",
                "--set",
                "/payload/address=1 Main St",
                "--yes",
            ])
            .args(["--archive", archive.to_str().expect("UTF-8")])
            .stdout(Stdio::null())
            .stderr(Stdio::piped())
            .spawn()
            .expect("queuey starts");
        let reader = BufReader::new(child.stderr.take().expect("stderr"));
        let mut paused = false;
        for line in reader.lines() {
            let line = line.expect("a line of stderr");
            if line.contains(&format!("paused after {step}")) {
                paused = true;
                break;
            }
        }
        assert!(paused, "queuey paused after {step}");
        kill_mid_run(&mut child, &format!("dead edit paused after {step}"));
        broker.wait_for_count(&dead, 1);
        assert_eq!(
            broker.drain_ids(&q).len(),
            copies,
            "copies in {q} after {step}"
        );
        let original = broker.bodies(&dead);
        assert_eq!(
            original,
            vec![body.clone()],
            "the original, untouched, after {step}"
        );
        let archived = std::fs::read_to_string(&archive).unwrap_or_default();
        assert_eq!(
            archived.lines().count(),
            usize::from(step != "found"),
            "the archive after {step}"
        );
    }
    // And uninterrupted: the copy in q, the original gone.
    let out = Queuey::new()
        .args([
            "dead",
            "edit",
            &q,
            "1",
            "--set",
            "/payload/address=1 Main St",
            "--yes",
        ])
        .run();
    assert!(out.status.success(), "{}", stderr(&out));
    assert_eq!(broker.count(&dead), 0);
    let copies = broker.bodies(&q);
    assert_eq!(copies.len(), 1);
    let copy: serde_json::Value = serde_json::from_str(&copies[0]).expect("JSON");
    assert_eq!(copy["payload"]["address"], "1 Main St");
    assert_eq!(copy["attempt"], 1, "its retries back");
}

/// A work queue and its q.dead holding one dead letter (`body`, message id `id`, `x-attempt` 3
/// as the library's worker writes it), for the tests of what an edit may publish.
fn one_dead_letter(broker: &Broker, label: &str, id: &str, body: &str) -> (String, String) {
    let q = broker.queue_name(label);
    let dead = format!("{q}.dead");
    broker.declare(&q, FieldTable::default());
    broker.declare(&dead, FieldTable::default());
    broker.publish_props(
        &dead,
        body.as_bytes(),
        lapin::BasicProperties::default()
            .with_message_id(id.into())
            .with_delivery_mode(2)
            .with_headers(crate::common::table(vec![
                ("x-attempt", AMQPValue::LongUInt(3)),
                ("x-attempts", AMQPValue::LongUInt(3)),
                ("x-original-queue", crate::common::long_str(&q)),
                (
                    "x-death-reason",
                    crate::common::long_str("fatal error: edit me"),
                ),
            ])),
    );
    (q, dead)
}

fn envelope(id: &str, q: &str, payload: &str) -> String {
    format!(
        r#"{{"job_id":"{id}","job_type":"app.Ship","queue":"{q}","attempt":3,"enqueued_at_ms":1700000000000,"deferrals":0,"priority":0,"payload":{payload}}}"#
    )
}

/// The copies in `q` (consumed), each its body and its `x-attempt` header.
fn copies(broker: &Broker, q: &str) -> Vec<(String, Option<AMQPValue>)> {
    let copies = broker
        .snapshot(q)
        .into_iter()
        .map(|(body, props)| {
            let attempt = props
                .headers()
                .as_ref()
                .and_then(|h| h.inner().get("x-attempt").cloned());
            (String::from_utf8_lossy(&body).into_owned(), attempt)
        })
        .collect();
    broker.drain_ids(q);
    copies
}

/// Review (3.10.8 and 4.3.6): `--set /job_id=not-a-uuid`, `--set '/attempt="x"'` and
/// `--set /enqueued_at_ms=-1` were published (exit 0): the worker would dead-letter each again
/// at once as a malformed envelope. And the summary said "(attempt 1)" while the copy went out
/// with `"attempt":3` and `x-attempt: 3`. Now an edit the library's worker would not read is
/// refused naming the field (exit 2, nothing published, the original in q.dead as it was); what
/// is published says the same attempt in its body, its `x-attempt` and the summary.
#[test]
fn an_edit_the_worker_would_not_read_is_refused_and_the_attempt_is_told_true() {
    let broker = Broker::connect();
    let id = "66666666-6666-4666-8666-666666666666";
    let q0 = broker.queue_name("edit-env");
    let body = envelope(id, &format!("{q0}-x"), r#"{"address":"Nowhere 0"}"#);
    let (q, dead) = one_dead_letter(&broker, "edit-env", id, &body);
    let edit = |args: &[&str], editor: &str| {
        Queuey::new()
            .env("EDITOR", editor)
            .args(["dead", "edit", &q, "--message-id", id])
            .args(args)
            .run()
    };
    for (args, says) in [
        (
            vec!["--set", "/job_id=not-a-uuid"],
            "`job_id` must be a UUID",
        ),
        (
            vec!["--set", "/attempt=\"x\""],
            "`attempt` must be an integer",
        ),
        (
            vec!["--set", "/payload=5", "--set", "/enqueued_at_ms=-1"],
            "`enqueued_at_ms` must be an integer",
        ),
        (
            vec!["--set", "/priority=256"],
            "`priority` must be an integer from 0 to 255",
        ),
        (vec![], "`job_type` is missing"),
    ] {
        let out = edit(
            &[args.as_slice(), &["--yes"]].concat(),
            "sed -i s/job_type/kind/",
        );
        assert_eq!(out.status.code(), Some(2), "{args:?}: {}", stderr(&out));
        let err = stderr(&out);
        assert!(
            err.contains("no longer a queuey envelope") && err.contains(says),
            "{args:?}: {err}"
        );
        assert!(err.contains("nothing published"), "{args:?}: {err}");
        assert_eq!(broker.count(&q), 0, "{args:?}: nothing published");
        assert_eq!(
            broker.bodies(&dead),
            vec![body.clone()],
            "{args:?}: the original stays"
        );
    }

    // What the library reads goes: a payload of any shape (the handler's business), the
    // attempt back to 1 in the body, the header and the summary alike.
    let out = edit(&["--set", "/payload=5", "--yes"], "true");
    assert!(out.status.success(), "{}", stderr(&out));
    assert!(
        stdout(&out).contains(&format!("published the edited copy to {q} (attempt 1)")),
        "{}",
        stdout(&out)
    );
    let expected = body
        .replace("\"attempt\":3", "\"attempt\":1")
        .replace(r#"{"address":"Nowhere 0"}"#, "5");
    assert_eq!(
        copies(&broker, &q),
        vec![(expected, Some(AMQPValue::LongUInt(1)))]
    );
    assert_eq!(broker.count(&dead), 0);

    // An attempt the operator sets is the one published, and said.
    let (q2, _dead2) = one_dead_letter(&broker, "edit-env2", id, &body);
    let out = Queuey::new()
        .args([
            "dead",
            "edit",
            &q2,
            "1",
            "--set",
            "/attempt=2",
            "--yes",
            "-o",
            "json",
        ])
        .run();
    assert!(out.status.success(), "{}", stderr(&out));
    assert_eq!(json(&out)["attempt"], 2);
    let expected = body.replace("\"attempt\":3", "\"attempt\":2");
    assert_eq!(
        copies(&broker, &q2),
        vec![(expected, Some(AMQPValue::LongUInt(2)))]
    );

    // A JSON body that is no envelope has no attempt: none is claimed, its header left alone.
    let plain = r#"{"order":5}"#;
    let (q3, _dead3) = one_dead_letter(&broker, "edit-env3", "plain", plain);
    let out = Queuey::new()
        .args(["dead", "edit", &q3, "1", "--set", "/order=6", "--yes"])
        .run();
    assert!(out.status.success(), "{}", stderr(&out));
    assert!(
        stdout(&out).contains(&format!("published the edited copy to {q3} and removed")),
        "{}",
        stdout(&out)
    );
    assert_eq!(
        copies(&broker, &q3),
        vec![(r#"{"order":6}"#.to_owned(), Some(AMQPValue::LongUInt(3)))]
    );
}

/// Review (4.3.6): with `--set /payload/addr=x`, the payload's
/// `123456789012345678901234567890`, `0.1000000000000000055511151231257827` and `-0` were
/// published as `1.2345678901234568e+29`, `0.1` and `-0.0`, its `"\u00e9"` as `"é"`, and the
/// diff the operator approved showed those lines as unchanged. Now everything the operator did
/// not set is published byte for byte, and the diff is of the exact texts.
#[test]
fn numbers_escapes_and_key_order_nobody_set_are_published_as_written() {
    let broker = Broker::connect();
    let id = "77777777-7777-4777-8777-777777777777";
    let payload = r#"{"big":123456789012345678901234567890,"f":0.1000000000000000055511151231257827,"u":"\u00e9\ud83d\ude00","z":1.0,"n":-0,"k":12345678901234567,"a":{"y":1,"x":[1e2,2.50]}}"#;
    let q0 = broker.queue_name("edit-exact");
    let body = envelope(id, &q0, payload);
    let (q, dead) = one_dead_letter(&broker, "edit-exact", id, &body);
    let out = Queuey::new()
        .args(["dead", "edit", &q, "--message-id", id])
        .args(["--set", "/payload/addr=x", "--set", "/payload/a/x/-=1.10"])
        .args(["--yes", "-o", "json"])
        .run();
    assert!(out.status.success(), "{}", stderr(&out));
    let expected = body
        .replace("\"attempt\":3", "\"attempt\":1")
        .replace("2.50]}}", "2.50,1.10]},\"addr\":\"x\"}");
    assert_eq!(
        copies(&broker, &q),
        vec![(expected, Some(AMQPValue::LongUInt(1)))]
    );
    assert_eq!(broker.count(&dead), 0);
    let report = json(&out);
    let diff: Vec<&str> = report["diff"]
        .as_array()
        .expect("the diff")
        .iter()
        .map(|l| l.as_str().expect("a line"))
        .collect();
    for kept in [
        "      \"big\": 123456789012345678901234567890,",
        "      \"f\": 0.1000000000000000055511151231257827,",
        r#"      "u": "\u00e9\ud83d\ude00","#,
        "      \"z\": 1.0,",
        "      \"n\": -0,",
    ] {
        assert!(diff.contains(&kept), "{kept:?} in {diff:#?}");
    }
    let changed: Vec<&str> = diff
        .iter()
        .copied()
        .filter(|l| !l.starts_with("  "))
        .collect();
    assert_eq!(
        changed,
        [
            "-   \"attempt\": 3,",
            "+   \"attempt\": 1,",
            "-         2.50",
            "+         2.50,",
            "+         1.10",
            "-     }",
            "+     },",
            "+     \"addr\": \"x\"",
        ],
        "{diff:#?}"
    );
}

/// `dead edit` publishes its copy under a replay's rules of room: into a work queue at its
/// length limit (here max-length 3, drop-head, holding 3 jobs) the edited copy would push out
/// the queue's oldest job, and without the management API the limit cannot be read at all:
/// either way nothing is archived or published, the original stays, exit 7, and the error says
/// why. `--allow-drop-head` is the consent: the copy goes and the oldest job is pushed out.
/// The same on 3.10 and 4.3.
#[test]
fn an_edited_copy_into_a_full_or_unread_target_is_not_published_unless_allowed() {
    let broker = Broker::connect();
    let (q, dead, waiting, ids) = crate::common::fixtures::busy_work_queue(
        &broker,
        "edit-full",
        crate::common::table(vec![(
            "x-max-length",
            lapin::types::AMQPValue::LongLongInt(3),
        )]),
        2,
    );
    let edit = |extra: &[&str]| {
        Queuey::new()
            .args([
                "dead",
                "edit",
                &q,
                "--message-id",
                &ids[0],
                "--set",
                "/n=9",
                "--yes",
            ])
            .args(extra)
            .run()
    };
    for (extra, why) in [
        (
            &["--api-url", "http://127.0.0.1:1", "--assume-classic"][..],
            format!("the length limits of {q:?} could not be read (no management API)"),
        ),
        (&[][..], format!("{q:?} is full (holds 3 of max-length 3")),
    ] {
        let out = edit(extra);
        assert_eq!(out.status.code(), Some(7), "{}", stderr(&out));
        assert!(stderr(&out).contains(&why), "{}", stderr(&out));
        assert_eq!(broker.ids(&q), waiting, "the waiting jobs stay");
        assert_eq!(broker.ids(&dead), ids, "the original stays");
    }
    let out = edit(&["--allow-drop-head"]);
    assert!(out.status.success(), "{}", stderr(&out));
    assert_eq!(
        broker.ids(&q),
        [&waiting[1..], &ids[..1]].concat(),
        "the copy went, pushing out the oldest job"
    );
    assert_eq!(broker.ids(&dead), ids[1..].to_vec());
}

/// A repaired copy its queue refuses (nack: the queue is full) must not end up beside its
/// original. `q` holds 1 job and has its overflow and dead-letter route as arguments but no
/// limit, so queuey's look at its room finds none; while queuey waits after archiving the
/// original (the test hook), a `max-length 1` policy arrives, and the broker refuses the copy.
/// With `reject-publish-dlx` back into q.dead the broker dead-letters it there: queuey finds it
/// (by the edit's run id, past the end of q.dead, 5 s at most) and removes it, and says so
/// (exit 7); q.dead holds exactly what it held, in order, the original untouched. Before, the
/// copy stayed: the job twice in q.dead. With `reject-publish` nothing comes back, and after
/// its look queuey says where such a copy would be and the `dead ls` that lists it. The same on
/// 3.10 and 4.3.
#[test]
fn an_edited_copy_refused_by_a_full_queue_is_not_left_beside_its_original() {
    let broker = Broker::connect();
    for overflow in ["reject-publish-dlx", "reject-publish"] {
        let q = broker.queue_name("edit-full");
        let dead = format!("{q}.dead");
        broker.declare(&dead, FieldTable::default());
        broker.declare(
            &q,
            crate::common::table(vec![
                ("x-overflow", crate::common::long_str(overflow)),
                ("x-dead-letter-exchange", crate::common::long_str("")),
                ("x-dead-letter-routing-key", crate::common::long_str(&dead)),
            ]),
        );
        broker.publish(&q, &[b"the job that fills q"], None);
        let id = "6a1d9b63-1e4f-4b8f-8b1d-3c2a7d8e9fa1";
        let body = serde_json::json!({
            "job_id": id, "job_type": "app.Ship", "queue": q, "attempt": 3,
            "enqueued_at_ms": 1_700_000_000_000u64, "deferrals": 0, "priority": 0,
            "payload": {"address": "Nowhere 0"}
        })
        .to_string();
        broker.publish_props(
            &dead,
            body.as_bytes(),
            lapin::BasicProperties::default()
                .with_message_id(id.into())
                .with_delivery_mode(2),
        );
        // Another dead letter behind it: the look reads past it.
        broker.publish(&dead, &[b"another dead letter"], None);
        broker.wait_for_count(&dead, 2);
        let dir = tempfile::tempdir().expect("a directory");
        let err_file = dir.path().join("stderr");
        let child = Queuey::in_dir(dir.path())
            .process()
            .args(["dead", "edit", &q, "--message-id", id])
            .args(["--set", "/payload/address=1 Main St", "--yes"])
            .env("QUEUEY_TEST_EDIT_PAUSE", "archived")
            .env("QUEUEY_TEST_EDIT_PAUSE_SECS", "5")
            .stdout(std::process::Stdio::null())
            .stderr(std::fs::File::create(&err_file).expect("a file"))
            .spawn()
            .expect("queuey runs");
        crate::common::eventually(
            "queuey to pause after archiving",
            std::time::Duration::from_secs(60),
            || {
                std::fs::read_to_string(&err_file)
                    .is_ok_and(|e| e.contains("paused after archived"))
                    .then_some(())
            },
        );
        broker.set_policy(
            &q,
            &format!("^{}$", q.replace('.', "\\.")),
            serde_json::json!({"max-length": 1}),
            false,
        );
        let out = child.wait_with_output().expect("queuey ends");
        let err = std::fs::read_to_string(&err_file).unwrap_or_default();
        // queuey exits once q.dead counts what it returned.
        assert_eq!(
            broker.bodies(&dead),
            vec![body.clone(), "another dead letter".to_owned()],
            "{overflow}: q.dead as it was, the original untouched, no copy beside it ({err})"
        );
        assert_eq!(
            broker.bodies(&q),
            vec!["the job that fills q".to_owned()],
            "{overflow}"
        );
        assert_eq!(out.status.code(), Some(7), "{overflow}: {err}");
        assert!(
            err.contains(&format!(
                "the edited copy to {q:?} was refused by the broker (nack)"
            )),
            "{overflow}: {err}"
        );
        if overflow == "reject-publish-dlx" {
            assert!(
                err.contains(&format!(
                    "which dead-lettered it into {dead:?}: queuey removed it there"
                )),
                "{err}"
            );
        } else {
            assert!(
                err.contains(&format!(
                    "`queuey dead ls {q} --cause maxlen --message-id {id}` lists it"
                )),
                "{err}"
            );
        }
    }
}
