//! `holds prune`: only empty, unused hold queues go, and a message published into one while the
//! prune runs is kept: the broker refuses the `if-empty` delete of a queue that holds it, and
//! queuey keeps and reports that queue. What no client can prevent is the broker's own race: a
//! publish routed to a queue whose delete the queue handles first is dropped, and confirmed
//! (seen on 4.3.6: one message in two runs of three, 150 deletes with a publisher aimed at
//! them; never on 3.10.8 in four runs). The test tells the two apart.

use std::time::Duration;

use lapin::BasicProperties;
use lapin::options::{BasicPublishOptions, ConfirmSelectOptions, QueueDeclareOptions};
use lapin::types::{AMQPValue, FieldTable};

use crate::common::app::{App, DEFER_HOLD_MS};
use crate::common::{Broker, Queuey, eventually, json, long_str, stderr, stdout, table};

/// Declares the hold queue of `q` for `ttl` with the library's arguments.
fn declare_hold(broker: &Broker, q: &str, ttl: u32) -> String {
    let name = format!("{q}.deferred.{ttl}");
    broker.declare(
        &name,
        table(vec![
            ("x-message-ttl", AMQPValue::LongLongInt(i64::from(ttl))),
            ("x-dead-letter-exchange", long_str("")),
            ("x-dead-letter-routing-key", long_str(q)),
            ("x-expires", AMQPValue::LongLongInt(2 * i64::from(ttl))),
        ]),
    );
    name
}

/// Waits until the management API reports the messages and the consumers of every queue in
/// `names` (two statistics the broker emits apart).
fn wait_for_stats(broker: &Broker, names: &[String]) {
    eventually(
        "statistics of every hold queue",
        Duration::from_secs(60),
        || {
            names
                .iter()
                .all(|n| {
                    broker
                        .api_queue(n)
                        .is_some_and(|q| q["messages"].is_u64() && q["consumers"].is_u64())
                })
                .then_some(())
        },
    );
}

#[test]
fn a_publish_racing_the_prune_is_kept_with_its_queue() {
    const HOLDS: u32 = 150;
    let broker = Broker::connect();
    let q = broker.queue_name("prune-race");
    let holds: Vec<String> = (0..HOLDS)
        .map(|i| declare_hold(&broker, &q, 600_000 + i))
        .collect();
    wait_for_stats(&broker, &holds);

    // A publisher into the hold queues, last first (the prune deletes by delay, first first),
    // mandatory and confirmed: a copy nothing routed (its queue deleted) comes back returned.
    // It starts when the first hold queue is gone, so that it races the prune rather than
    // filling every queue before the prune's first delete (a slow start of queuey under load).
    let ch = broker.channel();
    let watch = broker.channel();
    let first = holds[0].clone();
    let targets: Vec<String> = holds.iter().rev().cloned().collect();
    let publisher = broker.rt.spawn(async move {
        ch.confirm_select(ConfirmSelectOptions::default())
            .await
            .expect("confirm.select");
        let passive = QueueDeclareOptions {
            passive: true,
            ..QueueDeclareOptions::default()
        };
        let deadline = std::time::Instant::now() + Duration::from_secs(120);
        // A passive declare of a missing queue closes the watching channel: the prune has begun.
        while watch
            .queue_declare(first.as_str().into(), passive, FieldTable::default())
            .await
            .is_ok()
        {
            assert!(
                std::time::Instant::now() < deadline,
                "the prune never deleted {first}"
            );
            // The interval of this poll, as short as can be: the publisher is to start the
            // moment the prune has begun (an async poll: [`crate::common::poll`] would block
            // the runtime).
            tokio::time::sleep(Duration::from_millis(1)).await;
        }
        let (mut routed, mut returned) = (std::collections::HashMap::new(), 0u64);
        for round in 0..3 {
            for t in &targets {
                let confirm = ch
                    .basic_publish(
                        "".into(),
                        t.as_str().into(),
                        BasicPublishOptions {
                            mandatory: true,
                            ..BasicPublishOptions::default()
                        },
                        format!("{round}").as_bytes(),
                        BasicProperties::default().with_delivery_mode(2),
                    )
                    .await
                    .expect("publish")
                    .await
                    .expect("confirm");
                match confirm {
                    lapin::Confirmation::Ack(None) => *routed.entry(t.clone()).or_insert(0u64) += 1,
                    lapin::Confirmation::Ack(Some(_)) => returned += 1,
                    other => panic!("a publish into a hold queue: {other:?}"),
                }
            }
        }
        (routed, returned)
    });
    let out = Queuey::new()
        .args(["holds", "prune", &q, "--yes", "-o", "json"])
        .run();
    assert!(out.status.success(), "{}", stderr(&out));
    let (routed, returned) = broker.rt.block_on(publisher).expect("the publisher");
    let report = json(&out);
    let deleted = report["deleted"].as_u64().expect("deleted");
    let kept = report["kept"].as_u64().expect("kept");
    eprintln!(
        "prune race: {deleted} deleted, {kept} kept; {} routed, {returned} returned",
        routed.values().sum::<u64>()
    );
    assert!(kept > 0, "the publisher raced no delete: {report:#}");
    assert!(deleted > 0, "the prune deleted nothing: {report:#}");
    // Every routed message is still in a hold queue that still exists; every queue the prune
    // deleted is gone, every other one is there.
    let routed_to = |h: &String| routed.get(h).copied().unwrap_or(0);
    let mut lost = Vec::new();
    // Confirmed publishes routed to a queue the broker deleted as they arrived (its delete ran
    // first, while it was still empty): the broker's race, not the prune's.
    let mut raced = 0u64;
    for h in &holds {
        let row = report["hold_queues"]
            .as_array()
            .expect("rows")
            .iter()
            .find(|r| r["hold_queue"] == h.as_str())
            .unwrap_or_else(|| panic!("{h} is in the report"));
        match broker.message_count(h) {
            Some(n) => {
                assert_ne!(row["outcome"], "deleted", "{h} still exists");
                if u64::from(n) != routed_to(h) {
                    lost.push(format!("{h}: {n} of {} routed", routed_to(h)));
                }
            }
            None => {
                assert_eq!(row["outcome"], "deleted", "{h} is gone: {row}");
                raced += routed_to(h);
            }
        }
    }
    assert!(
        lost.is_empty(),
        "messages lost from queues the prune kept: {lost:#?}"
    );
    eprintln!("prune race: {raced} confirmed publish(es) into a queue deleted as they arrived");
}

#[test]
fn prune_keeps_what_waits_and_what_the_topology_file_lists() {
    let broker = Broker::connect();
    let app = App::<15>::new(&broker, "prune");
    app.make_dead_letters();
    let q = app.q;
    // The application's deferral waits in its hold queue; two idle hold queues beside it, one
    // of a listed delay, one whose arguments drift (no x-expires: still a hold queue of q, as
    // it has a TTL and dead-letters back to q).
    let listed = declare_hold(&broker, q, 30_000);
    let drifted = format!("{q}.deferred.45000");
    broker.declare(
        &drifted,
        table(vec![
            ("x-message-ttl", AMQPValue::LongLongInt(45_000)),
            ("x-dead-letter-exchange", long_str("")),
            ("x-dead-letter-routing-key", long_str(q)),
        ]),
    );
    let waiting = app.hold(DEFER_HOLD_MS);
    wait_for_stats(&broker, &[listed.clone(), drifted.clone(), waiting.clone()]);
    let dir = tempfile::tempdir().expect("a directory");
    std::fs::write(
        dir.path().join("queuey.toml"),
        format!("[queues.\"{q}\"]\ndelays = [\"30s\"]\ndeferrals = [\"10m\"]\n"),
    )
    .expect("a topology file");
    let run = |args: &[&str]| {
        Queuey::in_dir(dir.path())
            .args(["holds", "prune", q])
            .args(args)
            .run()
    };
    // Without a terminal and without --yes: refused, nothing deleted.
    let out = run(&[]);
    assert_eq!(out.status.code(), Some(2), "{}", stderr(&out));
    // --unlisted: only the drifted one (45 s is no listed delay).
    let out = run(&["--unlisted", "--dry-run", "-o", "json"]);
    assert!(out.status.success(), "{}", stderr(&out));
    let outcome = |doc: &serde_json::Value, name: &str| {
        doc["hold_queues"]
            .as_array()
            .expect("rows")
            .iter()
            .find(|r| r["hold_queue"] == name)
            .map(|r| r["outcome"].as_str().unwrap_or_default().to_owned())
    };
    let doc = json(&out);
    assert_eq!(outcome(&doc, &drifted).as_deref(), Some("would delete"));
    assert_eq!(outcome(&doc, &listed).as_deref(), Some("left"));
    assert_eq!(outcome(&doc, &waiting).as_deref(), Some("left"));
    assert_eq!(
        broker.message_count(&drifted),
        Some(0),
        "a dry run deletes nothing"
    );
    // --drift: the same one, for its arguments.
    let doc = json(&run(&["--drift", "--dry-run", "-o", "json"]));
    assert_eq!(outcome(&doc, &drifted).as_deref(), Some("would delete"));
    assert_eq!(outcome(&doc, &listed).as_deref(), Some("left"));
    // Everything idle: both go; the deferral's hold queue keeps its job.
    let out = run(&["--yes", "-o", "json"]);
    assert!(out.status.success(), "{}", stderr(&out));
    let doc = json(&out);
    assert_eq!(outcome(&doc, &listed).as_deref(), Some("deleted"));
    assert_eq!(outcome(&doc, &drifted).as_deref(), Some("deleted"));
    assert_eq!(outcome(&doc, &waiting).as_deref(), Some("left"));
    assert_eq!(broker.message_count(&listed), None);
    assert_eq!(
        broker.message_count(&waiting),
        Some(1),
        "the deferred job still waits"
    );
    // Why, in words that agree with the count, and what to do: wait, then prune again.
    let why = |doc: &serde_json::Value, name: &str| {
        doc["hold_queues"]
            .as_array()
            .expect("rows")
            .iter()
            .find(|r| r["hold_queue"] == name)
            .map(|r| r["why"].as_str().unwrap_or_default().to_owned())
    };
    assert_eq!(
        why(&doc, &waiting).as_deref(),
        Some(
            format!(
                "1 message waiting (statistics): it goes back to {q} within {}; prune again then",
                queuey_cli::duration::format_millis(DEFER_HOLD_MS)
            )
            .as_str()
        )
    );
    let text = stdout(&run(&["--dry-run"]));
    assert!(
        text.contains("1 message waiting (statistics)") && !text.contains("message(s)"),
        "{text}"
    );
    // --unlisted without delays in the file: refused.
    let out = Queuey::new()
        .args(["holds", "prune", q, "--unlisted", "--dry-run"])
        .run();
    assert_eq!(out.status.code(), Some(2), "{}", stderr(&out));
}

/// The rule of both versions (3.10.8 and 4.3.6 alike): a queue the topology file lists as a
/// logical queue of its own (`q.deferred.5000`), or its queues (`q.deferred.dead`), is never
/// one of q's hold queues, although its name is one: `holds prune` (any flags) leaves it,
/// `verify` and `status` do not count it as q's (so they pass), `holds ls` does not list it,
/// and `declare` and `verify` say why.
#[test]
fn a_logical_queue_named_like_a_hold_queue_is_never_pruned() {
    let broker = Broker::connect();
    let q = broker.queue_name("prune-sibling");
    let sibling = format!("{q}.deferred.5000");
    let infix = format!("{q}.deferred");
    for name in [
        format!("{q}.dead"),
        infix.clone(),
        format!("{infix}.dead"),
        sibling.clone(),
        format!("{sibling}.dead"),
    ] {
        broker.track_queue(&name);
    }
    let dir = tempfile::tempdir().expect("a directory");
    std::fs::write(
        dir.path().join("queuey.toml"),
        format!("[queues.\"{q}\"]\n[queues.\"{infix}\"]\n[queues.\"{sibling}\"]\n"),
    )
    .expect("a topology file");
    let run = |args: &[&str]| Queuey::in_dir(dir.path()).args(args).run();
    let declared = run(&["declare", "--all"]);
    assert!(declared.status.success(), "{}", stderr(&declared));
    // An empty, unused queue: before the fix, exactly what prune deleted.
    wait_for_stats(&broker, std::slice::from_ref(&sibling));

    for args in [
        &["holds", "prune", "--all", "--drift", "--yes", "-o", "json"][..],
        &["holds", "prune", "--all", "--yes", "-o", "json"],
        &["holds", "prune", &q, "--yes", "-o", "json"],
    ] {
        let out = run(args);
        assert!(out.status.success(), "{args:?}: {}", stderr(&out));
        let doc = json(&out);
        assert_eq!(doc["deleted"], 0, "{args:?}: {doc}");
        assert_eq!(doc["hold_queues"], serde_json::json!([]), "{args:?}: {doc}");
        assert!(
            stderr(&out).contains(&format!(
                "{sibling:?} is named like the 5s hold queue of {q:?}, but it is the work \
                 queue of the logical queue {sibling:?}"
            )),
            "{args:?}: {}",
            stderr(&out)
        );
        assert_eq!(
            broker.message_count(&sibling),
            Some(0),
            "{args:?} deleted the logical queue {sibling}"
        );
    }
    let out = run(&["verify", "--all", "-o", "json"]);
    assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));
    let doc = json(&out);
    for l in doc["logical_queues"].as_array().expect("logical queues") {
        assert_eq!(l["status"], "in_sync", "{l}");
        assert_eq!(l["hold_queues"]["queues"], serde_json::json!([]), "{l}");
    }
    assert!(
        doc["notes"].to_string().contains("PRECONDITION_FAILED"),
        "{}",
        doc["notes"]
    );
    let out = run(&["status", "--all", "-o", "prometheus"]);
    assert!(out.status.success(), "{}", stderr(&out));
    assert!(
        stdout(&out).contains(&format!("queuey_drift{{vhost=\"/\",queue=\"{q}\"}} 0")),
        "{}",
        stdout(&out)
    );
    let out = run(&["holds", "ls", &q, "-o", "json"]);
    assert!(out.status.success(), "{}", stderr(&out));
    let doc = json(&out);
    assert_eq!(doc["hold_queues"], serde_json::json!([]), "{doc}");
    assert_eq!(doc["bad_names"], serde_json::json!([]), "{doc}");
    assert!(
        stderr(&out).contains("holds ls does not list it"),
        "{}",
        stderr(&out)
    );

    assert!(
        stderr(&declared).contains(&format!(
            "{sibling:?} is the work queue of {sibling:?} and also the name of the 5s hold \
             queue of {q:?}"
        )),
        "declare says the two names collide: {}",
        stderr(&declared)
    );
    let out = run(&["verify", &sibling]);
    assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));
}

/// Without a topology file, `holds prune q` deletes only what is certainly a hold queue of `q`:
/// named so, and declared with an `x-message-ttl` and dead-lettering back to `q` (the marks of
/// every hold queue the library declares), whatever else drifted. A queue of that name without
/// them (another application's work queue, a queue that dead-letters elsewhere) is left, with
/// the reason, even with `--drift`. Both versions alike.
#[test]
fn prune_deletes_only_what_is_certainly_a_hold_queue() {
    let broker = Broker::connect();
    let q = broker.queue_name("prune-marks");
    let work = format!("{q}.deferred.5000");
    broker.declare(
        &work,
        table(vec![("x-max-priority", AMQPValue::LongLongInt(10))]),
    );
    let elsewhere = format!("{q}.deferred.6000");
    broker.declare(
        &elsewhere,
        table(vec![
            ("x-message-ttl", AMQPValue::LongLongInt(6000)),
            ("x-dead-letter-exchange", long_str("")),
            ("x-dead-letter-routing-key", long_str("somewhere-else")),
        ]),
    );
    // A hold queue of q whose x-expires drifted: still certainly q's.
    let drifted = format!("{q}.deferred.7000");
    broker.declare(
        &drifted,
        table(vec![
            ("x-message-ttl", AMQPValue::LongLongInt(7000)),
            ("x-dead-letter-exchange", long_str("")),
            ("x-dead-letter-routing-key", long_str(&q)),
        ]),
    );
    let hold = declare_hold(&broker, &q, 8000);
    let all = [
        work.clone(),
        elsewhere.clone(),
        drifted.clone(),
        hold.clone(),
    ];
    wait_for_stats(&broker, &all);
    let dir = tempfile::tempdir().expect("a temporary directory");
    let row = |doc: &serde_json::Value, name: &str| {
        doc["hold_queues"]
            .as_array()
            .expect("rows")
            .iter()
            .find(|r| r["hold_queue"] == name)
            .cloned()
            .unwrap_or_else(|| panic!("no row for {name}: {doc}"))
    };
    let out = Queuey::in_dir(dir.path())
        .args(["holds", "prune", &q, "--drift", "--dry-run", "-o", "json"])
        .run();
    assert!(out.status.success(), "{}", stderr(&out));
    let doc = json(&out);
    assert_eq!(row(&doc, &drifted)["outcome"], "would delete", "{doc}");
    assert_eq!(row(&doc, &hold)["outcome"], "left", "{doc}");
    for name in [&work, &elsewhere] {
        let r = row(&doc, name);
        assert_eq!(r["outcome"], "left", "{doc}");
        assert!(
            r["why"]
                .as_str()
                .is_some_and(|w| w.starts_with(&format!("not certainly a hold queue of {q:?}"))),
            "{r}"
        );
    }
    let out = Queuey::in_dir(dir.path())
        .args(["holds", "prune", &q, "--yes", "-o", "json"])
        .run();
    assert!(out.status.success(), "{}", stderr(&out));
    let doc = json(&out);
    assert_eq!(doc["deleted"], 2, "{doc}");
    assert_eq!(row(&doc, &drifted)["outcome"], "deleted", "{doc}");
    assert_eq!(row(&doc, &hold)["outcome"], "deleted", "{doc}");
    assert!(
        row(&doc, &elsewhere)["why"].as_str().is_some_and(
            |w| w.ends_with("this one has x-dead-letter-routing-key \"somewhere-else\"")
        ),
        "{doc}"
    );
    assert!(
        row(&doc, &work)["why"]
            .as_str()
            .is_some_and(|w| w.ends_with(
                "this one has no x-message-ttl, no x-dead-letter-exchange, no \
             x-dead-letter-routing-key"
            )),
        "{doc}"
    );
    assert_eq!(broker.message_count(&work), Some(0), "{work} was deleted");
    assert_eq!(
        broker.message_count(&elsewhere),
        Some(0),
        "{elsewhere} was deleted"
    );
    assert_eq!(broker.message_count(&drifted), None);
    assert_eq!(broker.message_count(&hold), None);
}

/// One set of queue settings pastes into `status`, `verify`, `holds ls` and `holds prune` (the
/// same on 3.10.8 and 4.3.6): `holds ls` used to refuse `--max-priority` (clap: unexpected
/// argument). It validates them as the others do, and lists the same hold queue.
#[test]
fn holds_ls_takes_the_queue_settings_of_status_verify_and_prune() {
    let broker = Broker::connect();
    let q = broker.queue_name("holds-flags");
    broker.track_queue(&format!("{q}.dlq"));
    let settings = [
        "--max-priority",
        "0",
        "--message-ttl",
        "1h",
        "--dead-suffix",
        ".dlq",
    ];
    let run = |words: &[&str], extra: &[&str]| Queuey::new().args(words).arg(&q).args(extra).run();
    let out = run(
        &["declare"],
        &[&settings[..], &["--allow-unlisted"]].concat(),
    );
    assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));
    let hold = declare_hold(&broker, &q, 5000);
    for (words, extra) in [
        (&["status"][..], &[][..]),
        (&["verify"][..], &[][..]),
        (&["holds", "ls"][..], &["-o", "json"][..]),
        (&["holds", "prune"][..], &["--dry-run"][..]),
    ] {
        let out = run(words, &[&settings[..], extra].concat());
        assert_eq!(out.status.code(), Some(0), "{words:?}: {}", stderr(&out));
        if words == ["holds", "ls"] {
            let doc = json(&out);
            assert_eq!(doc["hold_queues"][0]["name"], hold.as_str(), "{doc}");
        }
        // Validated the same way: an out-of-range value is a usage error everywhere.
        let out = run(words, &["--max-priority", "300"]);
        assert_eq!(out.status.code(), Some(2), "{words:?}: {}", stderr(&out));
        assert!(
            stderr(&out).contains("max-priority"),
            "{words:?}: {}",
            stderr(&out)
        );
    }
}

/// The rule of both versions: RabbitMQ refuses `if-empty` and `if-unused` deletes of a quorum
/// queue, so `holds prune` never deletes a quorum hold queue, empty or not; it says what will:
/// its messages go back to q within its delay, and its own queue TTL (`x-expires`, which a
/// quorum queue honours on 3.10.8 and 4.3.6 alike) deletes it once unused.
#[test]
fn a_quorum_hold_queue_is_left_with_what_will_delete_it() {
    let broker = Broker::connect();
    let q = broker.queue_name("prune-quorum");
    let hold = |ttl: u32| {
        let name = format!("{q}.deferred.{ttl}");
        broker.declare(
            &name,
            table(vec![
                ("x-queue-type", long_str("quorum")),
                ("x-message-ttl", AMQPValue::LongLongInt(i64::from(ttl))),
                ("x-dead-letter-exchange", long_str("")),
                ("x-dead-letter-routing-key", long_str(&q)),
                ("x-expires", AMQPValue::LongLongInt(2 * i64::from(ttl))),
            ]),
        );
        name
    };
    let (busy, idle) = (hold(600_000), hold(900_000));
    broker.publish(&busy, &[b"one", b"two"], None);
    eventually(
        "the statistics of the quorum hold queues",
        Duration::from_secs(60),
        || {
            (broker
                .api_queue(&busy)
                .is_some_and(|v| v["messages"] == 2 && v["consumers"].is_u64())
                && broker
                    .api_queue(&idle)
                    .is_some_and(|v| v["messages"] == 0 && v["consumers"].is_u64()))
            .then_some(())
        },
    );
    let out = Queuey::new()
        .args(["holds", "prune", &q, "--yes", "-o", "json"])
        .run();
    assert!(out.status.success(), "{}", stderr(&out));
    let doc = json(&out);
    let row = |name: &str| {
        doc["hold_queues"]
            .as_array()
            .expect("rows")
            .iter()
            .find(|r| r["hold_queue"] == name)
            .cloned()
            .unwrap_or_else(|| panic!("{name}: {doc}"))
    };
    let never = "a quorum queue, which RabbitMQ cannot delete only if empty and unused, so \
                 queuey never deletes it";
    assert_eq!(row(&busy)["outcome"], "left");
    assert_eq!(
        row(&busy)["why"],
        format!(
            "{never}; 2 messages waiting go back to {q} within 10m; it deletes itself once \
             unused for 20m (its queue TTL)"
        )
    );
    assert_eq!(row(&idle)["outcome"], "left");
    assert_eq!(
        row(&idle)["why"],
        format!("{never}; it deletes itself once unused for 30m (its queue TTL)")
    );
    assert_eq!(doc["deleted"], 0);
    assert_eq!(broker.message_count(&busy), Some(2), "nothing lost");
    assert_eq!(broker.message_count(&idle), Some(0));
}
