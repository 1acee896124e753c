//! `dead edit`: a job repaired with `--set` that a real worker on the queuey library then
//! handles, and queuey killed between each step of an edit, leaving the original in q.dead
//! every time (and the copy in its queue only once it was confirmed).

use std::io::{BufRead, BufReader};
use std::process::Stdio;
use std::time::Duration;

use lapin::types::FieldTable;

use crate::common::app::{App, Mode, Outcome};
use crate::common::{Broker, json, kill_mid_run, queuey, queuey_in, queuey_process, stderr};

#[test]
fn a_job_repaired_with_set_is_handled_by_the_real_worker() {
    let broker = Broker::connect();
    let app = App::<17>::new(&broker, "edit");
    let ids = app.make_dead_letters();
    let q = app.q;
    // The decode-error job: its payload is not the shape `app.Strict` takes ({"n": u64}).
    let dir = tempfile::tempdir().expect("a directory");
    let archive = dir.path().join("originals.jsonl");
    let out = queuey_in(dir.path())
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
        .output()
        .expect("queuey runs");
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
    // longer an envelope: refused, nothing published.
    let edit = |extra: &[&str], editor: &str| {
        let (mut cmd, _dir) = queuey();
        cmd.env("EDITOR", editor)
            .args(["dead", "edit", q, "--message-id", &ids.fatal])
            .args(extra)
            .output()
            .expect("queuey runs")
    };
    assert_eq!(edit(&["--yes"], "true").status.code(), Some(9));
    assert_eq!(
        edit(&["--set", "/payload/why=fixed"], "true").status.code(),
        Some(2)
    );
    let out = edit(&["--yes"], "sed -i s/job_type/kind/");
    assert_eq!(out.status.code(), Some(9), "{}", stderr(&out));
    assert!(
        stderr(&out).contains("no longer a queuey envelope"),
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
        let mut child = queuey_process(dir.path())
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
    let (mut cmd, _dir) = queuey();
    let out = cmd
        .args([
            "dead",
            "edit",
            &q,
            "1",
            "--set",
            "/payload/address=1 Main St",
            "--yes",
        ])
        .output()
        .expect("queuey runs");
    assert!(out.status.success(), "{}", stderr(&out));
    assert_eq!(broker.count(&dead), 0);
    let copies = broker.bodies(&q);
    assert_eq!(copies.len(), 1);
    let copy: serde_json::Value = serde_json::from_str(&copies[0]).expect("JSON");
    assert_eq!(copy["payload"]["address"], "1 Main St");
    assert_eq!(copy["attempt"], 1, "its retries back");
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
    let (q, dead, waiting, ids) = crate::replay::busy_work_queue(
        &broker,
        "edit-full",
        crate::common::table(vec![(
            "x-max-length",
            lapin::types::AMQPValue::LongLongInt(3),
        )]),
        2,
    );
    let edit = |extra: &[&str]| {
        let (mut cmd, _dir) = queuey();
        cmd.args([
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
        .output()
        .expect("queuey runs")
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
        let child = crate::common::queuey_process(dir.path())
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
