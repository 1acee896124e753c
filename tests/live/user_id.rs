//! Dead letters whose `user_id` property names another user than queuey's. RabbitMQ takes a
//! published `user_id` only from that user, or from a user with the `impersonator` tag; any
//! other publish closes the channel (406 PRECONDITION_FAILED). The rule is the same on 3.10.8
//! and 4.3.6 (`rabbit_channel:check_user_id_header`), and so is each test's expectation on both.
//!
//! Each test makes an application user of its own (no tags, every permission on the default
//! vhost), publishes the dead letters as that user with its own `user_id`, and runs queuey as
//! the test user (guest, which has no impersonator tag: never changed here). The user is
//! deleted when the test's broker guard drops.

use lapin::BasicProperties;
use lapin::types::{AMQPValue, FieldTable};

use crate::common::fixtures::{dead_letter, publish_all, setup};
use crate::common::{Broker, Queuey, json, run, stderr, test_url, unique, url_for};

const PASSWORD: &str = "uid-Test-pw1";

/// A user of the application, and a connection as it.
fn app_user(broker: &Broker, label: &str) -> (String, Broker) {
    let name = unique(label);
    broker.create_user(&name, PASSWORD, "");
    broker.grant(&name, "/");
    let as_app = Broker::connect_to(&url_for("/", &name, PASSWORD));
    (name, as_app)
}

/// The test user's name (queuey's, in these tests).
fn test_user() -> String {
    let url: lapin::uri::AMQPUri = test_url().parse().expect("a valid AMQP URL");
    url.authority.userinfo.username
}

fn user_id(p: &BasicProperties) -> Option<String> {
    p.user_id().as_ref().map(|s| s.to_string())
}

fn header<'a>(p: &'a BasicProperties, name: &str) -> Option<&'a AMQPValue> {
    p.headers().as_ref().and_then(|h| h.inner().get(name))
}

fn by_id(messages: &[(Vec<u8>, BasicProperties)], id: &str) -> BasicProperties {
    messages
        .iter()
        .find(|(_, p)| p.message_id().as_ref().map(|s| s.as_str()) == Some(id))
        .map(|(_, p)| p.clone())
        .unwrap_or_else(|| panic!("no message {id}"))
}

/// The dead letters another user published stay in q.dead, counted as failed with a reason
/// that names the property, both users and every way out; the others move (exit 3, as any
/// partial replay). `--dry-run` says the same. With `--strip-user-id` they move, without the
/// property. Nothing stops the run (before, the first such copy closed the publisher's channel:
/// exit 7 with no hint, on every rerun).
#[test]
fn dead_letters_of_another_user_stay_named_and_move_with_strip_user_id() {
    let broker = Broker::connect();
    let (q, dead, targets) = setup(&broker, "uid", 1);
    let target = targets[0].as_str();
    let me = test_user();
    let (app, as_app) = app_user(&broker, "uid-app");
    let letter = |id: &str| dead_letter(id, target, "fatal error: x");
    publish_all(
        &as_app,
        &dead,
        ["theirs-1", "theirs-2"]
            .map(|id| (letter(id).with_user_id(app.as_str().into()), b"{}".to_vec())),
    );
    drop(as_app);
    publish_all(
        &broker,
        &dead,
        vec![
            (
                letter("mine").with_user_id(me.as_str().into()),
                b"{}".to_vec(),
            ),
            (letter("none"), b"{}".to_vec()),
        ],
    );
    broker.wait_for_count(&dead, 4);

    let out = run(&["dead", "replay", &q, "--dry-run", "-o", "json"]);
    assert_eq!(out.status.code(), Some(3), "{}", stderr(&out));
    let report = json(&out);
    assert_eq!(
        (report["would_move"].as_u64(), report["would_fail"].as_u64()),
        (Some(2), Some(2)),
        "{report}"
    );
    assert_eq!(broker.count(&dead), 4);

    let out = run(&["dead", "replay", &q, "-o", "json"]);
    assert_eq!(out.status.code(), Some(3), "{}", stderr(&out));
    let report = json(&out);
    assert_eq!(
        (report["moved"].as_u64(), report["failed"].as_u64()),
        (Some(2), Some(2)),
        "{report}"
    );
    let why = report["targets"][0]["failure"].as_str().unwrap_or_default();
    for part in [
        format!("user_id property is {app:?}"),
        format!("connected as {me:?}"),
        "impersonator tag".to_owned(),
        "--strip-user-id".to_owned(),
    ] {
        assert!(why.contains(&part), "{part}: {why}");
    }
    broker.wait_for_count(&dead, 2);
    let mut left = broker.ids(&dead);
    left.sort();
    assert_eq!(left, ["theirs-1", "theirs-2"]);
    let moved = broker.snapshot(target);
    assert_eq!(moved.len(), 2);
    assert_eq!(user_id(&by_id(&moved, "mine")), Some(me.clone()));
    assert_eq!(user_id(&by_id(&moved, "none")), None);

    // A rerun meets the same two, and says the same.
    let out = run(&["dead", "replay", &q, "-o", "json"]);
    assert_eq!(out.status.code(), Some(3), "{}", stderr(&out));
    assert_eq!(json(&out)["failed"].as_u64(), Some(2));

    let out = run(&["dead", "replay", &q, "--strip-user-id", "-o", "json"]);
    assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));
    assert_eq!(json(&out)["moved"].as_u64(), Some(2));
    assert_eq!(broker.count(&dead), 0);
    let moved = broker.snapshot(target);
    assert_eq!(moved.len(), 4);
    for id in ["theirs-1", "theirs-2"] {
        assert_eq!(user_id(&by_id(&moved, id)), None, "{id}");
    }
}

/// The same from an export file: the lines of another user's dead letters are not published
/// (they stay to replay), the others are; `--strip-user-id` publishes them without it (the run
/// that reached the file's end keeps no journal: the rerun selects the line that stayed).
#[test]
fn lines_of_another_user_stay_in_the_file_until_strip_user_id() {
    let broker = Broker::connect();
    let (q, dead, targets) = setup(&broker, "uid-file", 1);
    let target = targets[0].as_str();
    let (app, as_app) = app_user(&broker, "uid-file-app");
    publish_all(
        &as_app,
        &dead,
        vec![(
            dead_letter("theirs", target, "fatal error: x").with_user_id(app.as_str().into()),
            b"{}".to_vec(),
        )],
    );
    drop(as_app);
    publish_all(
        &broker,
        &dead,
        vec![(
            dead_letter("none", target, "fatal error: x"),
            b"{}".to_vec(),
        )],
    );
    broker.wait_for_count(&dead, 2);
    let dir = tempfile::tempdir().expect("a temp dir");
    let file = dir.path().join("dead.jsonl");
    let file = file.to_str().expect("a UTF-8 path");
    let out = Queuey::in_dir(dir.path())
        .args(["dead", "export", &q, "--output-file", file])
        .run();
    assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));

    let out = Queuey::in_dir(dir.path())
        .args(["dead", "replay", &q, "--from-file", file, "-o", "json"])
        .run();
    assert_eq!(out.status.code(), Some(3), "{}", stderr(&out));
    let report = json(&out);
    assert_eq!(
        (report["moved"].as_u64(), report["failed"].as_u64()),
        (Some(1), Some(1)),
        "{report}"
    );
    assert!(
        report["targets"][0]["failure"]
            .as_str()
            .is_some_and(|why| why.contains(&format!("{app:?}")) && why.contains("--strip-user-id")),
        "{report}"
    );
    let out = Queuey::in_dir(dir.path())
        .args([
            "dead",
            "replay",
            &q,
            "--from-file",
            file,
            "--strip-user-id",
            "--message-id",
            "theirs",
            "-o",
            "json",
        ])
        .run();
    assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));
    assert_eq!(json(&out)["moved"].as_u64(), Some(1));
    let moved = broker.snapshot(target);
    assert_eq!(moved.len(), 2);
    assert_eq!(user_id(&by_id(&moved, "theirs")), None);
    assert_eq!(
        broker.count(&dead),
        2,
        "nothing is removed from q.dead by a file replay"
    );
}

/// A quorum dead letter of another user on its last delivery (its next counted return ends
/// it): a look replaces it by a confirmed copy, which cannot carry the `user_id` (the broker
/// would close the channel, and with it the look's rescue of the whole batch, and the return
/// that follows would end the message before 4.3), so the copy keeps it in the header
/// `x-queuey-user-id`, and the look says so. A replay makes it the property again: without
/// `--strip-user-id` the dead letter stays, named; with it, it moves without either.
#[test]
fn a_quorum_dead_letter_of_another_user_on_its_last_delivery_is_kept_by_a_copy() {
    let broker = Broker::connect();
    let (major, minor) = broker.rabbitmq_version();
    let (q, dead) = broker.quorum_dead_queue("uid-rescue", 1);
    let target = broker.queue_name("uid-rescue-target");
    broker.declare(&target, FieldTable::default());
    let (app, as_app) = app_user(&broker, "uid-rescue-app");
    let letter = |id: &str| dead_letter(id, &target, "fatal error: x");
    publish_all(
        &as_app,
        &dead,
        vec![(
            letter("theirs").with_user_id(app.as_str().into()),
            b"{}".to_vec(),
        )],
    );
    drop(as_app);
    publish_all(
        &broker,
        &dead,
        vec![
            (letter("plain-1"), b"{}".to_vec()),
            (letter("plain-2"), b"{}".to_vec()),
        ],
    );
    broker.wait_for_count(&dead, 3);
    // Each has spent its one allowed counted return: every one is on its last delivery.
    broker.spend_one_delivery(&dead);
    let before_4_3 = (major, minor) < (4, 3);
    let mut cmd = Queuey::new();
    cmd.args(["dead", "ls", &q, "--limit", "0"]);
    if before_4_3 {
        cmd.arg("--spend-delivery-budget");
    }
    let out = cmd.run();
    let err = stderr(&out);
    assert_eq!(out.status.code(), Some(0), "{major}.{minor}: {err}");
    assert!(
        err.contains("x-queuey-user-id") && err.contains(&format!("{app:?}")),
        "{err}"
    );
    broker.wait_for_count(&dead, 3);

    let mut args = vec![q.as_str()];
    if before_4_3 {
        args.push("--spend-delivery-budget");
    }
    let out = Queuey::new()
        .args(["dead", "replay"])
        .args(&args)
        .args(["-o", "json"])
        .run();
    assert_eq!(
        out.status.code(),
        Some(3),
        "{major}.{minor}: {}",
        stderr(&out)
    );
    let report = json(&out);
    assert_eq!(
        (report["moved"].as_u64(), report["failed"].as_u64()),
        (Some(2), Some(1)),
        "{report}"
    );
    broker.wait_for_count(&dead, 1);

    args.push("--strip-user-id");
    let out = Queuey::new()
        .args(["dead", "replay"])
        .args(&args)
        .args(["-o", "json"])
        .run();
    assert_eq!(
        out.status.code(),
        Some(0),
        "{major}.{minor}: {}",
        stderr(&out)
    );
    assert_eq!(json(&out)["moved"].as_u64(), Some(1));
    assert_eq!(broker.count(&dead), 0);
    let moved = broker.snapshot(&target);
    assert_eq!(moved.len(), 3);
    let theirs = by_id(&moved, "theirs");
    assert_eq!(user_id(&theirs), None);
    assert_eq!(header(&theirs, "x-queuey-user-id"), None);
}

/// `dead edit` of another user's dead letter: the edited copy would be refused, so it is not
/// published; exit 7 naming the property, both users and the ways out; the original stays.
#[test]
fn an_edit_of_another_users_dead_letter_is_refused_and_the_original_stays() {
    let broker = Broker::connect();
    let (q, dead, targets) = setup(&broker, "uid-edit", 1);
    let target = targets[0].as_str();
    let me = test_user();
    let (app, as_app) = app_user(&broker, "uid-edit-app");
    publish_all(
        &as_app,
        &dead,
        vec![(
            dead_letter("theirs", target, "fatal error: x").with_user_id(app.as_str().into()),
            b"{\"n\":1}".to_vec(),
        )],
    );
    drop(as_app);
    broker.wait_for_count(&dead, 1);
    let dir = tempfile::tempdir().expect("a temp dir");
    let archive = dir.path().join("a.jsonl");
    let out = Queuey::in_dir(dir.path())
        .args(["dead", "edit", &q, "1", "--set", "/n=2", "--yes"])
        .args(["--archive", archive.to_str().expect("UTF-8")])
        .run();
    let err = stderr(&out);
    assert_eq!(out.status.code(), Some(7), "{err}");
    for part in [
        format!("user_id property is {app:?}"),
        format!("connected as {me:?}"),
        "impersonator".to_owned(),
        "the original stays".to_owned(),
    ] {
        assert!(err.contains(&part), "{part}: {err}");
    }
    assert_eq!(broker.count(&dead), 1);
    assert_eq!(broker.count(target), 0);
}

/// A user with the `impersonator` tag (and `monitoring`, for the API) may publish any
/// `user_id`: queuey, connected as one,
/// learns it from its probe and moves the copies with their `user_id` as it was.
#[test]
fn an_impersonator_replays_them_with_their_user_id() {
    let broker = Broker::connect();
    let (q, dead, targets) = setup(&broker, "uid-imp", 1);
    let target = targets[0].as_str();
    let (app, as_app) = app_user(&broker, "uid-imp-app");
    publish_all(
        &as_app,
        &dead,
        ["theirs-1", "theirs-2"].map(|id| {
            (
                dead_letter(id, target, "fatal error: x").with_user_id(app.as_str().into()),
                b"{}".to_vec(),
            )
        }),
    );
    drop(as_app);
    broker.wait_for_count(&dead, 2);
    let ops = unique("uid-imp-ops");
    broker.create_user(&ops, PASSWORD, "impersonator,monitoring");
    broker.grant(&ops, "/");
    let dir = tempfile::tempdir().expect("a temp dir");
    let out = Queuey::in_dir(dir.path())
        .env("QUEUEY_URL", url_for("/", &ops, PASSWORD))
        .args(["dead", "replay", &q, "-o", "json"])
        .run();
    assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));
    assert_eq!(json(&out)["moved"].as_u64(), Some(2));
    let moved = broker.snapshot(target);
    for id in ["theirs-1", "theirs-2"] {
        assert_eq!(user_id(&by_id(&moved, id)), Some(app.clone()), "{id}");
    }
}
