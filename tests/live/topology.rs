//! `declare`, `declare --dry-run`, `verify`, `holds ls` and `status` against the real broker.
//!
//! Drift is made the way it happens in production: another client declares a queue with raw
//! arguments. JSON output is parsed, never string-matched. Stats the broker reports late
//! (messages and consumers, ~5 s for classic queues, ~10 s for quorum ones) are polled for
//! with a deadline, or not relied on.

use std::fs;
use std::time::{Duration, Instant};

use crate::common::{
    Broker, Queuey, code, dead_letters, eventually, json, long_str, paste, run, stderr, stdout,
    table, unique, url_for,
};
use lapin::types::{AMQPValue, FieldTable};
use serde_json::{Value, json as j};

/// A logical queue name for this test; `q` and `q.dead` are deleted when `broker` drops.
fn logical(broker: &Broker, label: &str) -> String {
    let q = broker.queue_name(label);
    broker.track_queue(&format!("{q}.dead"));
    q
}

/// The x-max-priority a queuey 1.x application declares on q by default (`QueueConfig::new`:
/// ten levels, sent as an unsigned byte).
fn priority10() -> (&'static str, AMQPValue) {
    ("x-max-priority", AMQPValue::ShortShortUInt(10))
}

fn ttl(ms: i64) -> (&'static str, AMQPValue) {
    ("x-message-ttl", AMQPValue::LongLongInt(ms))
}

/// The arguments of a correct hold queue of `q` for `ttl_ms`, as an application declares them.
fn hold_args(q: &str, ttl_ms: i64) -> FieldTable {
    table(vec![
        ("x-message-ttl", AMQPValue::LongLongInt(ttl_ms)),
        ("x-dead-letter-exchange", long_str("")),
        ("x-dead-letter-routing-key", long_str(q)),
        ("x-expires", AMQPValue::LongLongInt(2 * ttl_ms)),
    ])
}

/// `logical_queues[name]` of a report.
fn logical_of<'a>(doc: &'a Value, name: &str) -> &'a Value {
    doc["logical_queues"]
        .as_array()
        .expect("logical_queues")
        .iter()
        .find(|l| l["name"] == name)
        .unwrap_or_else(|| panic!("no logical queue {name} in {doc:#}"))
}

/// `queues[name]` of a logical queue (long-lived queues), or `hold_queues.queues[name]`.
fn queue_of<'a>(doc: &'a Value, logical: &str, name: &str) -> &'a Value {
    let l = logical_of(doc, logical);
    l["queues"]
        .as_array()
        .into_iter()
        .flatten()
        .chain(l["hold_queues"]["queues"].as_array().into_iter().flatten())
        .find(|q| q["name"] == name)
        .unwrap_or_else(|| panic!("no queue {name} in {l:#}"))
}

/// The differences of a queue as (field, kind, live, computed).
fn diffs(queue: &Value) -> Vec<(String, String, Value, Value)> {
    queue["differences"]
        .as_array()
        .expect("differences")
        .iter()
        .map(|d| {
            (
                d["field"].as_str().unwrap().to_owned(),
                d["kind"].as_str().unwrap().to_owned(),
                d["live"].clone(),
                d["computed"].clone(),
            )
        })
        .collect()
}

fn diff(field: &str, kind: &str, live: Value, computed: Value) -> (String, String, Value, Value) {
    (field.to_owned(), kind.to_owned(), live, computed)
}

#[test]
fn declare_creates_then_verify_is_in_sync_and_redeclare_is_idempotent() {
    let broker = Broker::connect();
    let q = logical(&broker, "orders");
    let settings = ["--message-ttl", "5s", "--max-priority", "5"];

    let out = run(&[&["declare", &q, "-o", "json"][..], &settings].concat());
    assert_eq!(code(&out), 0, "{}", stderr(&out));
    let doc = json(&out);
    assert_eq!(queue_of(&doc, &q, &q)["result"], "created");
    assert_eq!(
        queue_of(&doc, &q, &format!("{q}.dead"))["result"],
        "created"
    );
    assert_eq!(doc["in_sync"], true);

    let live = broker.api_queue(&q).expect("q exists");
    assert_eq!(live["durable"], true);
    assert_eq!(
        live["arguments"],
        broker.api_classic_arguments(j!({"x-message-ttl": 5000, "x-max-priority": 5}))
    );
    let dead = broker
        .api_queue(&format!("{q}.dead"))
        .expect("q.dead exists");
    assert_eq!(dead["arguments"], broker.api_classic_arguments(j!({})));
    assert_eq!(dead["durable"], true);

    let out = run(&[&["verify", &q, "-o", "json"][..], &settings].concat());
    assert_eq!(code(&out), 0, "{}", stdout(&out));
    let doc = json(&out);
    assert_eq!(doc["source"], "management_api");
    assert_eq!(doc["complete"], true);
    assert_eq!(logical_of(&doc, &q)["status"], "in_sync");
    assert_eq!(logical_of(&doc, &q)["hold_queues"]["checked"], true);

    // Idempotent: a second declare finds everything in sync and changes nothing.
    let out = run(&[&["declare", &q, "-o", "json"][..], &settings].concat());
    assert_eq!(code(&out), 0, "{}", stderr(&out));
    let doc = json(&out);
    for name in [q.clone(), format!("{q}.dead")] {
        assert_eq!(queue_of(&doc, &q, &name)["result"], "already_in_sync");
    }
    let out = run(&[&["declare", "--dry-run", &q][..], &settings].concat());
    assert_eq!(code(&out), 0, "{}", stderr(&out));
    assert!(stdout(&out).contains("in sync"), "{}", stdout(&out));
}

#[test]
fn quorum_queues_are_declared_and_verified() {
    let broker = Broker::connect();
    let q = logical(&broker, "jobs");
    let settings = ["--queue-type", "quorum", "--delivery-limit", "5"];
    let out = run(&[&["declare", &q][..], &settings].concat());
    assert_eq!(code(&out), 0, "{}", stderr(&out));
    assert!(stdout(&out).contains("created"), "{}", stdout(&out));
    let live = broker.api_queue(&q).expect("q exists");
    assert_eq!(live["type"], "quorum");
    assert_eq!(
        live["arguments"],
        j!({"x-queue-type": "quorum", "x-delivery-limit": 5,
            "x-dead-letter-exchange": "", "x-dead-letter-routing-key": format!("{q}.dead")})
    );
    let out = run(&[&["verify", &q, "-o", "json"][..], &settings].concat());
    assert_eq!(code(&out), 0, "{}", stdout(&out));
    // A quorum queue's stats may be absent for ~10 s: status shows them as unknown, not zero.
    let out = run(&[&["status", &q, "-o", "json"][..], &settings].concat());
    assert_eq!(code(&out), 0, "{}", stderr(&out));
    let doc = json(&out);
    let work = &logical_of(&doc, &q)["work"];
    assert_eq!(work["exists"], true);
    assert!(
        work["messages"].is_null() || work["messages"] == 0,
        "{work}"
    );
}

#[test]
fn dry_run_and_verify_change_nothing() {
    let broker = Broker::connect();
    let q = logical(&broker, "fresh");
    let out = run(&["declare", "--dry-run", &q, "-o", "json"]);
    assert_eq!(
        code(&out),
        0,
        "dry-run exits as declare would: {}",
        stderr(&out)
    );
    let doc = json(&out);
    assert_eq!(queue_of(&doc, &q, &q)["status"], "create");
    assert_eq!(queue_of(&doc, &q, &q)["result"], Value::Null);

    let out = run(&["verify", &q, "-o", "json"]);
    assert_eq!(code(&out), 1, "a missing queue is not in sync");
    let doc = json(&out);
    assert_eq!(logical_of(&doc, &q)["status"], "create");
    assert_eq!(doc["in_sync"], false);
    assert!(broker.api_queue(&q).is_none(), "verify created {q}");
    assert!(broker.api_queue(&format!("{q}.dead")).is_none());
}

#[test]
fn a_different_ttl_is_drift_with_both_values_and_integer_widths_do_not_matter() {
    let broker = Broker::connect();
    let q = logical(&broker, "ttl");
    // Declared by another client with a 32-bit integer: queuey sends 64-bit ones, and the
    // broker compares by value.
    broker.declare(
        &q,
        table(vec![
            ("x-message-ttl", AMQPValue::LongInt(5000)),
            priority10(),
        ]),
    );
    broker.declare(&format!("{q}.dead"), FieldTable::default());
    let out = run(&["verify", &q, "--message-ttl", "5s"]);
    assert_eq!(code(&out), 0, "{}", stdout(&out));

    let out = run(&["verify", &q, "--message-ttl", "6s", "-o", "json"]);
    assert_eq!(code(&out), 1);
    let doc = json(&out);
    assert_eq!(logical_of(&doc, &q)["status"], "drift");
    assert_eq!(
        diffs(queue_of(&doc, &q, &q)),
        [diff("x-message-ttl", "different", j!(5000), j!(6000))]
    );
    assert_eq!(
        queue_of(&doc, &q, &format!("{q}.dead"))["status"],
        "in_sync"
    );

    let out = run(&["declare", "--dry-run", &q, "--message-ttl", "6s"]);
    assert_eq!(code(&out), 1, "dry-run over drift exits 1");
    let text = stdout(&out);
    assert!(
        text.contains("5000 (5s)") && text.contains("6000 (6s)"),
        "{text}"
    );
}

#[test]
fn a_missing_or_an_extra_max_priority_is_drift() {
    let broker = Broker::connect();
    // A queue without priorities, against queuey's default (the library's ten levels).
    let plain = logical(&broker, "plain");
    broker.declare(&plain, FieldTable::default());
    broker.declare(&format!("{plain}.dead"), FieldTable::default());
    let out = run(&["verify", &plain, "-o", "json"]);
    assert_eq!(code(&out), 1);
    assert_eq!(
        diffs(queue_of(&json(&out), &plain, &plain)),
        [diff("x-max-priority", "missing", Value::Null, j!(10))]
    );
    let out = run(&["verify", &plain, "--max-priority", "0"]);
    assert_eq!(
        code(&out),
        0,
        "--max-priority 0 is no priorities: {}",
        stdout(&out)
    );

    // The library's own declaration is in sync with the defaults, and priorities are extra
    // against --max-priority 0.
    let prio = logical(&broker, "prio");
    broker.declare(&prio, table(vec![priority10()]));
    broker.declare(&format!("{prio}.dead"), FieldTable::default());
    let out = run(&["verify", &prio]);
    assert_eq!(code(&out), 0, "{}", stdout(&out));
    let out = run(&["verify", &prio, "--max-priority", "0", "-o", "json"]);
    assert_eq!(code(&out), 1);
    assert_eq!(
        diffs(queue_of(&json(&out), &prio, &prio)),
        [diff("x-max-priority", "extra", j!(10), Value::Null)]
    );
}

#[test]
fn classic_against_quorum_is_type_drift_both_ways() {
    let broker = Broker::connect();
    let qq = logical(&broker, "was-quorum");
    broker.declare(&qq, table(vec![("x-queue-type", long_str("quorum"))]));
    broker.declare(&format!("{qq}.dead"), FieldTable::default());
    let out = run(&["verify", &qq, "--max-priority", "0", "-o", "json"]);
    assert_eq!(code(&out), 1);
    assert_eq!(
        diffs(queue_of(&json(&out), &qq, &qq)),
        [diff("type", "different", j!("quorum"), j!("classic"))]
    );

    let cq = logical(&broker, "was-classic");
    broker.declare(
        &cq,
        table(vec![("x-queue-type", long_str("classic")), priority10()]),
    );
    broker.declare(&format!("{cq}.dead"), FieldTable::default());
    // x-queue-type=classic is the same queue as no x-queue-type.
    let out = run(&["verify", &cq]);
    assert_eq!(code(&out), 0, "{}", stdout(&out));
    let out = run(&["verify", &cq, "--queue-type", "quorum", "-o", "json"]);
    assert_eq!(code(&out), 1);
    let d = diffs(queue_of(&json(&out), &cq, &cq));
    assert!(
        d.contains(&diff("type", "different", j!("classic"), j!("quorum"))),
        "{d:?}"
    );
    assert!(
        d.contains(&diff(
            "x-dead-letter-routing-key",
            "missing",
            Value::Null,
            j!(format!("{cq}.dead"))
        )),
        "{d:?}"
    );
    // The remedies say that a type change needs a new queue.
    let out = run(&["declare", &cq, "--queue-type", "quorum", "-o", "json"]);
    assert_eq!(code(&out), 1);
    let remedies = logical_of(&json(&out), &cq)["remedies"].to_string();
    assert!(remedies.contains("classic and quorum"), "{remedies}");
}

#[test]
fn extra_arguments_the_broker_enforces_are_drift_and_ignored_ones_are_not() {
    let broker = Broker::connect();
    let q = logical(&broker, "extras");
    broker.declare(
        &q,
        table(vec![
            ("x-some-client-tag", long_str("billing")),
            ("x-overflow", long_str("reject-publish")),
            priority10(),
        ]),
    );
    // A dead-letter queue that dead-letters somewhere (q.dead must keep its letters).
    broker.declare(
        &format!("{q}.dead"),
        table(vec![
            ("x-dead-letter-exchange", long_str("")),
            ("x-dead-letter-routing-key", long_str(&q)),
        ]),
    );
    let out = run(&["verify", &q, "-o", "json"]);
    assert_eq!(code(&out), 1);
    let doc = json(&out);
    let work = queue_of(&doc, &q, &q);
    assert_eq!(
        diffs(work),
        [diff(
            "x-overflow",
            "extra",
            j!("reject-publish"),
            Value::Null
        )]
    );
    assert_eq!(
        work["ignored_arguments"],
        j!({"x-some-client-tag": "billing"})
    );
    assert_eq!(
        diffs(queue_of(&doc, &q, &format!("{q}.dead"))),
        [
            diff("x-dead-letter-exchange", "extra", j!(""), Value::Null),
            diff("x-dead-letter-routing-key", "extra", j!(q), Value::Null),
        ]
    );
}

#[test]
fn a_policy_on_the_queue_is_shown_but_is_not_drift() {
    let broker = Broker::connect();
    let q = logical(&broker, "policied");
    broker.declare(&q, table(vec![priority10()]));
    broker.declare(&format!("{q}.dead"), FieldTable::default());
    let policy = unique("policy");
    let pattern = format!("^{}$", q.replace('.', "\\."));
    let params = rabbitmq_http_client::requests::PolicyParams {
        vhost: "/",
        name: &policy,
        pattern: &pattern,
        apply_to: rabbitmq_http_client::commons::PolicyTarget::Queues,
        priority: 0,
        definition: j!({"max-length": 1000}).as_object().cloned().unwrap(),
    };
    broker
        .rt
        .block_on(broker.api.declare_policy(&params))
        .expect("a policy");
    let seen = eventually("the policy on the queue", Duration::from_secs(20), || {
        let out = run(&["verify", &q, "-o", "json"]);
        let doc = json(&out);
        let work = queue_of(&doc, &q, &q).clone();
        (work["policy"] == policy.as_str()).then_some((code(&out), work))
    });
    let _ = broker
        .rt
        .block_on(broker.api.delete_policy("/", &policy, true));
    assert_eq!(seen.0, 0, "a policy is not drift");
    assert_eq!(
        seen.1["effective_policy_definition"],
        j!({"max-length": 1000})
    );
    assert_eq!(seen.1["status"], "in_sync");
}

#[test]
fn hold_queues_with_wrong_arguments_consumers_or_bad_names_are_drift() {
    let broker = Broker::connect();
    let q = logical(&broker, "holds");
    broker.declare(&q, table(vec![priority10()]));
    broker.declare(&format!("{q}.dead"), FieldTable::default());
    let good = format!("{q}.deferred.60000");
    let wrong_rk = format!("{q}.deferred.30000");
    let eaten = format!("{q}.deferred.10000");
    let bad = format!("{q}.deferred.soon");
    broker.declare(&good, hold_args(&q, 60_000));
    broker.declare(&wrong_rk, hold_args("somewhere-else", 30_000));
    broker.declare(&eaten, hold_args(&q, 10_000));
    broker.declare(&bad, FieldTable::default());

    // Keep a consumer on one hold queue for the whole check: it eats the delays.
    let (_ch, _consumer) = broker.consume(&eaten);
    eventually(
        "the broker to report the consumer",
        Duration::from_secs(20),
        || {
            broker
                .api_queue(&eaten)
                .filter(|l| l["consumers"] == 1)
                .map(|_| ())
        },
    );

    let out = run(&["verify", &q, "-o", "json"]);
    assert_eq!(code(&out), 1, "{}", stderr(&out));
    let doc = json(&out);
    assert_eq!(logical_of(&doc, &q)["status"], "drift");
    // q and q.dead themselves are fine.
    assert_eq!(queue_of(&doc, &q, &q)["status"], "in_sync");

    let g = queue_of(&doc, &q, &good);
    assert_eq!(
        (g["status"].as_str(), g["ttl_ms"].as_u64()),
        (Some("in_sync"), Some(60_000))
    );

    let w = queue_of(&doc, &q, &wrong_rk);
    assert_eq!(w["status"], "drift");
    assert_eq!(
        diffs(w),
        [diff(
            "x-dead-letter-routing-key",
            "different",
            j!("somewhere-else"),
            j!(q)
        )]
    );

    let e = queue_of(&doc, &q, &eaten);
    assert_eq!(e["status"], "drift");
    assert_eq!(e["consumers"], 1);
    assert!(diffs(e).is_empty(), "its arguments are right");
    assert!(e["problems"].to_string().contains("consumer"), "{e}");

    let b = queue_of(&doc, &q, &bad);
    assert_eq!(b["status"], "drift");
    assert_eq!(b["ttl_ms"], Value::Null);
    assert!(b["problems"].to_string().contains("bad name"), "{b}");

    // The table says the same.
    let out = run(&["verify", &q]);
    let text = stdout(&out);
    assert!(text.contains("not a hold queue (bad name)"), "{text}");
    assert!(text.contains("consumers"), "{text}");
}

#[test]
fn declare_over_drift_refuses_explains_and_changes_nothing() {
    let broker = Broker::connect();
    let q = logical(&broker, "busy");
    broker.declare(&q, table(vec![ttl(5000), priority10()]));
    broker.publish(&q, &[b"keep me"], None);
    // q.dead is missing: declare must not create it either, since q drifted.
    let out = run(&["declare", &q, "--message-ttl", "4s", "-o", "json"]);
    assert_eq!(code(&out), 1, "{}", stderr(&out));
    let doc = json(&out);
    assert_eq!(queue_of(&doc, &q, &q)["result"], "refused");
    assert_eq!(
        queue_of(&doc, &q, &format!("{q}.dead"))["result"],
        "unchanged"
    );
    assert_eq!(
        diffs(queue_of(&doc, &q, &q)),
        [diff("x-message-ttl", "different", j!(5000), j!(4000))]
    );
    let err = stderr(&out);
    assert!(!err.contains("error:"), "not a raw error: {err}");
    assert!(
        err.contains("refused") && err.contains("changed nothing"),
        "{err}"
    );
    assert!(
        err.contains(r#"'{"message-ttl": 4000}'"#),
        "names the policy option: {err}"
    );
    assert!(
        err.contains("delete") && err.contains("loses every message"),
        "names the cost of deleting: {err}"
    );

    // Nothing changed: q keeps its TTL and its message, q.dead still does not exist.
    assert!(broker.api_queue(&format!("{q}.dead")).is_none());
    let live = broker.api_queue(&q).expect("q is still there");
    assert_eq!(
        live["arguments"],
        broker.api_classic_arguments(j!({"x-message-ttl": 5000, "x-max-priority": 10}))
    );
    assert_eq!(broker.message_count(&q), Some(1));
}

#[test]
fn names_with_dots_spaces_and_unicode() {
    let broker = Broker::connect();
    let q = logical(&broker, "orders.eu west/ünï 注文");
    let hold = format!("{q}.deferred.5000");
    broker.track_queue(&hold);
    let out = run(&["declare", &q, "--message-ttl", "1h"]);
    assert_eq!(code(&out), 0, "{}", stderr(&out));
    assert!(stdout(&out).contains(&q), "{}", stdout(&out));
    broker.declare(&hold, hold_args(&q, 5000));
    let out = run(&["verify", &q, "--message-ttl", "1h", "-o", "json"]);
    assert_eq!(code(&out), 0, "{}", stdout(&out));
    assert_eq!(queue_of(&json(&out), &q, &hold)["status"], "in_sync");
    let out = run(&["holds", "ls", &q, "-o", "json"]);
    assert_eq!(code(&out), 0, "{}", stderr(&out));
    let names: Vec<String> = json(&out)["hold_queues"]
        .as_array()
        .unwrap()
        .iter()
        .map(|h| h["name"].as_str().unwrap().to_owned())
        .collect();
    assert_eq!(names, [hold.as_str()]);
    let out = run(&["status", &q, "--message-ttl", "1h", "-o", "json"]);
    assert_eq!(code(&out), 0);
    assert_eq!(logical_of(&json(&out), &q)["drift"], false);
}

#[test]
fn a_vhost_other_than_the_default() {
    let broker = Broker::connect();
    let vhost = unique("vhost/with slash");
    broker.create_vhost(&vhost);
    let url = url_for(&vhost, "guest", "guest");
    let in_vhost = Broker::connect_to(&url);
    let q = logical(&in_vhost, "orders");
    let out = run(&["declare", &q, "--url", &url, "--message-ttl", "5s"]);
    assert_eq!(code(&out), 0, "{}", stderr(&out));
    assert!(in_vhost.api_queue(&q).is_some(), "declared in {vhost}");
    assert!(broker.api_queue(&q).is_none(), "not in /");
    let out = run(&["verify", &q, "--url", &url, "--message-ttl", "5s"]);
    assert_eq!(code(&out), 0, "{}", stdout(&out));
    // The same name in "/" does not exist: verify there says create.
    let out = run(&["verify", &q, "--message-ttl", "5s", "-o", "json"]);
    assert_eq!(code(&out), 1);
    assert_eq!(queue_of(&json(&out), &q, &q)["status"], "create");
    drop(in_vhost);
}

#[test]
fn an_unknown_vhost_is_exit_5_not_a_plan_to_create() {
    let _broker = Broker::connect();
    let url = url_for(&unique("no-such-vhost"), "guest", "guest");
    let out = run(&["verify", "orders", "--url", &url]);
    assert_eq!(code(&out), 5, "{}", stderr(&out));
    assert!(stderr(&out).contains("does not exist"), "{}", stderr(&out));
}

#[test]
fn without_the_management_api_verify_falls_back_to_amqp_and_says_so() {
    let broker = Broker::connect();
    let no_api = ["--api-url", "http://127.0.0.1:1"];

    // An existing queue: a read-only command never declares it to probe its arguments, so
    // it is "exists, not checked", and verify cannot vouch for it (exit 6).
    let q = logical(&broker, "probe");
    broker.declare(&q, table(vec![ttl(5000), priority10()]));
    broker.declare(&format!("{q}.dead"), FieldTable::default());
    for command in ["verify", "status"] {
        let out = run(&[
            &[command, &q, "--message-ttl", "5s", "-o", "json"][..],
            &no_api,
        ]
        .concat());
        assert_eq!(
            code(&out),
            if command == "verify" { 6 } else { 0 },
            "{}",
            stderr(&out)
        );
        let doc = json(&out);
        assert_eq!(doc["source"], "amqp_probe");
        assert_eq!(doc["complete"], false);
        let err = stderr(&out);
        assert!(
            err.contains("never declares a queue to probe them")
                && err.contains("hold queues were not checked"),
            "{err}"
        );
        assert!(
            err.contains("rabbitmq-plugins enable rabbitmq_management"),
            "{err}"
        );
        assert!(
            doc["notes"][0]
                .as_str()
                .unwrap()
                .contains("exists, not checked")
        );
        if command == "verify" {
            assert_eq!(logical_of(&doc, &q)["hold_queues"], Value::Null);
            assert_eq!(queue_of(&doc, &q, &q)["status"], "unchecked");
        } else {
            assert_eq!(doc["logical_queues"][0]["arguments_checked"], false);
            assert_eq!(doc["logical_queues"][0]["drift"], false);
        }
    }

    // `declare` probes (it declares anyway): drift in two arguments, the broker names only
    // one, queuey says so, and changes nothing.
    let out = run(&[
        &[
            "declare",
            &q,
            "--message-ttl",
            "6s",
            "--max-priority",
            "3",
            "-o",
            "json",
        ][..],
        &no_api,
    ]
    .concat());
    assert_eq!(code(&out), 1, "{}", stderr(&out));
    let work = queue_of(&json(&out), &q, &q).clone();
    assert_eq!(work["first_difference_only"], true);
    assert_eq!(work["source"], "amqp_probe");
    let d = diffs(&work);
    assert_eq!(d.len(), 1, "{d:?}");
    assert!(
        d[0] == diff("x-message-ttl", "different", j!(5000), j!(6000))
            || d[0] == diff("x-max-priority", "different", j!(10), j!(3)),
        "{d:?}"
    );
    let out = run(&[&["declare", &q, "--message-ttl", "6s"][..], &no_api].concat());
    assert!(
        stdout(&out).contains("first difference only"),
        "{}",
        stdout(&out)
    );
    // Nothing changed.
    assert_eq!(
        broker.api_queue(&q).unwrap()["arguments"],
        broker.api_classic_arguments(j!({"x-message-ttl": 5000, "x-max-priority": 10}))
    );

    // A queue that does not exist is never created by the probe.
    let missing = logical(&broker, "probe-missing");
    let out = run(&[&["verify", &missing, "-o", "json"][..], &no_api].concat());
    assert_eq!(code(&out), 1);
    assert_eq!(
        queue_of(&json(&out), &missing, &missing)["status"],
        "create"
    );
    assert!(broker.api_queue(&missing).is_none(), "verify created it");
    assert!(broker.api_queue(&format!("{missing}.dead")).is_none());

    // declare works without the API, and refuses over drift the same way.
    let out = run(&[&["declare", &missing, "-o", "json"][..], &no_api].concat());
    assert_eq!(code(&out), 0, "{}", stderr(&out));
    assert_eq!(
        queue_of(&json(&out), &missing, &missing)["result"],
        "created"
    );
    assert!(broker.api_queue(&missing).is_some());
    let out = run(&[&["declare", &q, "--message-ttl", "6s"][..], &no_api].concat());
    assert_eq!(code(&out), 1);
    assert!(stderr(&out).contains("changed nothing"), "{}", stderr(&out));
}

#[test]
fn a_queue_exclusive_to_another_connection_is_drift_never_a_raw_error() {
    // Another client holds `q` as an exclusive queue: to every other connection, even a
    // passive declare is 405 RESOURCE_LOCKED.
    let broker = Broker::connect();
    let q = logical(&broker, "locked");
    let holder = broker.channel();
    broker
        .rt
        .block_on(holder.queue_declare(
            q.as_str().into(),
            lapin::options::QueueDeclareOptions {
                exclusive: true,
                ..lapin::options::QueueDeclareOptions::default()
            },
            FieldTable::default(),
        ))
        .expect("an exclusive queue");
    let no_api = ["--api-url", "http://127.0.0.1:1"];

    // Through the management API: every differing flag, with both values.
    let out = run(&["verify", &q, "-o", "json"]);
    assert_eq!(code(&out), 1, "{}", stderr(&out));
    let d = diffs(queue_of(&json(&out), &q, &q));
    assert!(
        d.contains(&diff("exclusive", "different", j!(true), j!(false))),
        "{d:?}"
    );
    assert!(
        d.contains(&diff("durable", "different", j!(false), j!(true))),
        "{d:?}"
    );

    // Through the AMQP fallback: the 405 itself is the difference.
    let out = run(&[&["verify", &q, "-o", "json"][..], &no_api].concat());
    assert_eq!(code(&out), 1, "{}", stderr(&out));
    let work = queue_of(&json(&out), &q, &q).clone();
    assert_eq!(work["status"], "drift");
    assert_eq!(
        diffs(&work),
        [diff("exclusive", "different", j!(true), j!(false))]
    );

    // declare refuses, explains, and changes nothing, with and without the API.
    for extra in [&[][..], &no_api[..]] {
        let out = run(&[&["declare", &q, "-o", "json"][..], extra].concat());
        assert_eq!(code(&out), 1, "{}", stderr(&out));
        assert_eq!(queue_of(&json(&out), &q, &q)["result"], "refused");
        let err = stderr(&out);
        assert!(
            !err.lines().any(|l| l.starts_with("error:")),
            "not a raw error: {err}"
        );
        assert!(err.contains("changed nothing"), "{err}");
        assert!(
            err.contains("exclusive to another client's connection") && err.contains("owner_pid"),
            "says whose queue it is and how to find the owner: {err}"
        );
        assert!(
            !err.contains("delete_queue"),
            "deleting is not the fix: {err}"
        );
    }
    assert!(
        broker.api_queue(&format!("{q}.dead")).is_none(),
        "q.dead was created although q drifted"
    );
    let live = broker.api_queue(&q).expect("still held by its owner");
    assert_eq!(live["exclusive"], true);
}

#[test]
fn wrong_password_is_exit_5() {
    let _broker = Broker::connect();
    let url = url_for("/", "guest", "Wr0ng-pass");
    for command in ["verify", "declare", "status"] {
        let out = run(&[command, "orders", "--url", &url]);
        assert_eq!(code(&out), 5, "{command}: {}", stderr(&out));
        let all = format!("{}{}", stdout(&out), stderr(&out));
        assert!(!all.contains("Wr0ng-pass"), "{all}");
        assert!(all.contains("refused the login"), "{all}");
    }
}

#[test]
fn broker_unreachable_is_exit_4() {
    let url = "amqp://guest:Pa55word@127.0.0.1:1/%2f";
    for command in ["verify", "declare", "status"] {
        let out = run(&[
            command,
            "orders",
            "--url",
            url,
            "--api-url",
            "http://127.0.0.1:1",
        ]);
        assert_eq!(code(&out), 4, "{command}: {}", stderr(&out));
        assert!(!stderr(&out).contains("Pa55word"));
    }
    // declare needs AMQP even when the API answers.
    let broker = Broker::connect();
    let q = logical(&broker, "unreachable");
    let out = run(&["declare", &q, "--url", url]);
    assert_eq!(code(&out), 4, "{}", stderr(&out));
}

#[test]
fn holds_ls_lists_exactly_the_hold_queues_of_q_sorted_with_totals() {
    let broker = Broker::connect();
    let q = logical(&broker, "hl");
    broker.declare(&q, FieldTable::default());
    broker.declare(&format!("{q}.dead"), FieldTable::default());
    let h1000 = format!("{q}.deferred.1000");
    let h30000 = format!("{q}.deferred.30000");
    let other = format!("{q}2.deferred.1000");
    let abc = format!("{q}.deferred.abc");
    let upper = format!("{}.DEFERRED.5000", q.to_uppercase());
    let upper_q = format!("{}.deferred.5000", q.to_uppercase());
    // Long x-expires on the short hold queue, so it outlives the test's polling.
    broker.declare(
        &h1000,
        table(vec![
            ("x-message-ttl", AMQPValue::LongLongInt(1000)),
            ("x-dead-letter-exchange", long_str("")),
            ("x-dead-letter-routing-key", long_str(&q)),
            ("x-expires", AMQPValue::LongLongInt(600_000)),
        ]),
    );
    broker.declare(&h30000, hold_args(&q, 30_000));
    broker.publish(&h30000, &[b"a", b"b"], None);
    for name in [&other, &abc, &upper, &upper_q] {
        broker.declare(name, FieldTable::default());
    }

    // Wait for the stats, so that the totals are known.
    let doc = eventually(
        "the counts of both hold queues",
        Duration::from_secs(20),
        || {
            let out = run(&["holds", "ls", &q, "-o", "json"]);
            assert_eq!(code(&out), 0, "{}", stderr(&out));
            let doc = json(&out);
            // messages and consumers are reported separately, and may appear at different times.
            (doc["totals"]["messages"] == 2 && doc["totals"]["consumers"] == 0).then_some(doc)
        },
    );
    let names: Vec<&str> = doc["hold_queues"]
        .as_array()
        .unwrap()
        .iter()
        .map(|h| h["name"].as_str().unwrap())
        .collect();
    assert_eq!(
        names,
        [h1000.as_str(), h30000.as_str()],
        "sorted by delay, nothing else"
    );
    let first = &doc["hold_queues"][0];
    assert_eq!(first["ttl_ms"], 1000);
    assert_eq!(first["delay"], "1s");
    assert_eq!(first["arguments_ok"], false, "x-expires is not 2 x 1000");
    assert_eq!(
        diffs(first),
        [diff("x-expires", "different", j!(600_000), j!(2000))]
    );
    let second = &doc["hold_queues"][1];
    assert_eq!(second["arguments_ok"], true);
    assert_eq!(second["messages"], 2);
    assert_eq!(second["delay"], "30s");
    assert_eq!(
        doc["totals"],
        j!({"hold_queues": 2, "messages": 2, "consumers": 0})
    );
    let bad: Vec<&str> = doc["bad_names"]
        .as_array()
        .unwrap()
        .iter()
        .map(|b| b["name"].as_str().unwrap())
        .collect();
    assert_eq!(bad, [abc.as_str()]);

    // An idle classic hold queue shows when it went idle and when it would expire.
    let doc = eventually("idle_since", Duration::from_secs(20), || {
        let out = run(&["holds", "ls", &q, "-o", "json"]);
        let doc = json(&out);
        doc["hold_queues"][1]["expires_at"]
            .is_string()
            .then_some(doc)
    });
    assert!(doc["hold_queues"][1]["idle_since"].is_string());
    // The broker's rule, which holds ls works around: the plain listing of a vhost's queues
    // carries `idle_since` before 3.13 (seen on 3.10.8) and leaves it out from 3.13 (seen on
    // 4.3.6), where only the queue's own object has it.
    let idle = doc["hold_queues"][1]["name"].as_str().unwrap().to_owned();
    let listed = broker.api_listed_queue(&idle).expect("listed");
    let own = broker.api_queue(&idle).expect("the queue's own object");
    assert!(own["idle_since"].is_string(), "{own}");
    assert_eq!(
        listed["idle_since"].is_string(),
        broker.rabbitmq_version() < (3, 13),
        "{:?}: {listed}",
        broker.rabbitmq_version()
    );

    let out = run(&["holds", "ls", &q]);
    let text = stdout(&out);
    assert!(text.contains("total: 2 hold queues"), "{text}");
    assert!(text.contains("not a hold queue (bad name)"), "{text}");
    assert!(!text.contains(&other) && !text.contains(&upper), "{text}");
}

#[test]
fn holds_ls_needs_the_management_api() {
    let _broker = Broker::connect();
    let out = run(&["holds", "ls", "orders", "--api-url", "http://127.0.0.1:1"]);
    assert_eq!(code(&out), 6, "{}", stderr(&out));
    assert!(
        stderr(&out).contains("rabbitmq-plugins enable rabbitmq_management"),
        "{}",
        stderr(&out)
    );
}

#[test]
fn status_shows_depths_hold_queues_and_drift() {
    let broker = Broker::connect();
    let q = logical(&broker, "st");
    let hold = format!("{q}.deferred.20000");
    broker.declare(&q, table(vec![priority10()]));
    broker.declare(&format!("{q}.dead"), FieldTable::default());
    broker.declare(&hold, hold_args(&q, 20_000));
    broker.publish(&q, &[b"1", b"2", b"3"], None);
    broker.publish(&format!("{q}.dead"), &[b"dead"], None);
    broker.publish(&hold, &[b"later"], None);
    let doc = eventually("the broker's counts", Duration::from_secs(20), || {
        let out = run(&["status", &q, "-o", "json"]);
        assert_eq!(code(&out), 0, "{}", stderr(&out));
        let doc = json(&out);
        let l = logical_of(&doc, &q).clone();
        // Each count appears when the broker first reports it, not all at once.
        let known = l["work"]["messages"] == 3
            && l["work"]["consumers"] == 0
            && l["dead"]["messages"] == 1
            && l["hold_queues"]["messages"] == 1;
        known.then_some(l)
    });
    assert_eq!(doc["dead"]["messages"], 1);
    assert_eq!(doc["work"]["consumers"], 0);
    assert_eq!(doc["hold_queues"]["count"], 1);
    assert_eq!(doc["drift"], false);

    let out = run(&["status", &q, "--message-ttl", "1m", "-o", "json"]);
    assert_eq!(code(&out), 0, "status is not a gate");
    assert_eq!(logical_of(&json(&out), &q)["drift"], true);
    let out = run(&["status", &q]);
    let text = stdout(&out);
    assert!(
        text.contains("3 messages") && text.contains("1 hold queue"),
        "{text}"
    );
}

/// Counts where they matter are read now, not from the management API's statistics (which
/// lag by seconds: right after a purge they still showed 14 dead letters where there were 0):
/// `status` counts `q` and `q.dead` by a passive declare (`counted_by: amqp`) and says which
/// counts are the statistics' (hold queues, which a declare would keep alive, and
/// unacknowledged messages); `holds ls` says its counts are statistics. The same on 3.10 and
/// 4.3.
#[test]
fn status_counts_now_and_says_what_is_statistics() {
    let broker = Broker::connect();
    let q = logical(&broker, "now");
    let dead = format!("{q}.dead");
    let hold = format!("{q}.deferred.60000");
    broker.declare(&q, table(vec![priority10()]));
    broker.declare(&dead, FieldTable::default());
    broker.declare(&hold, hold_args(&q, 60_000));
    broker.publish(&hold, &[b"later"], None);
    let bodies: Vec<Vec<u8>> = (0..10).map(|i| format!("d{i}").into_bytes()).collect();
    let refs: Vec<&[u8]> = bodies.iter().map(Vec::as_slice).collect();
    broker.publish(&dead, &refs, None);
    eventually(
        "the statistics to count 10 dead letters",
        Duration::from_secs(30),
        || (broker.api_queue(&dead)?["messages"] == 10).then_some(()),
    );
    let out = run(&["dead", "purge", &q, "--yes"]);
    assert_eq!(code(&out), 0, "{}", stderr(&out));
    // At once: the statistics may still say 10; status says 0.
    let out = run(&["status", &q, "-o", "json"]);
    assert_eq!(code(&out), 0, "{}", stderr(&out));
    let l = logical_of(&json(&out), &q).clone();
    for (queue, want) in [("dead", 0), ("work", 0)] {
        assert_eq!(
            (
                &l[queue]["messages"],
                &l[queue]["messages_ready"],
                &l[queue]["messages_unacknowledged"],
                &l[queue]["consumers"],
                &l[queue]["counted_by"]
            ),
            (&j!(want), &j!(want), &j!(0), &j!(0), &j!("amqp")),
            "{queue}: {l}"
        );
    }
    assert_eq!(l["hold_queues"]["counted_by"], "statistics", "{l}");
    assert_eq!(l["hold_queues"]["count"], 1, "{l}");
    broker.publish(&dead, &refs[..3], None);
    let out = run(&["status", &q]);
    let text = stdout(&out);
    assert!(
        text.contains(&format!("3 messages ready, 0 consumers in {dead}"))
            && text.contains("1 hold queue (classic) with")
            && text.contains("waiting (statistics, seconds old)"),
        "{text}"
    );
    let out = run(&["holds", "ls", &q]);
    assert_eq!(code(&out), 0, "{}", stderr(&out));
    assert!(
        stdout(&out).contains(
            "messages and consumers: the management API's statistics, which can be seconds old"
        ),
        "{}",
        stdout(&out)
    );
    let out = run(&["holds", "ls", &q, "-o", "json"]);
    assert_eq!(json(&out)["counted_by"], "statistics");
}

#[test]
fn verify_all_from_a_topology_file_is_a_ci_gate() {
    let broker = Broker::connect();
    let a = logical(&broker, "ci-a");
    let b = logical(&broker, "ci-b");
    let dir = tempfile::tempdir().unwrap();
    std::fs::write(
        dir.path().join("queuey.toml"),
        format!(
            "[queues.\"{a}\"]\nmessage_ttl = \"1h\"\n\n[queues.\"{b}\"]\nqueue_type = \"quorum\"\n"
        ),
    )
    .unwrap();
    let run_in = |args: &[&str]| Queuey::in_dir(dir.path()).args(args).run();
    assert_eq!(
        code(&run_in(&["verify", "--all"])),
        1,
        "nothing declared yet"
    );
    let out = run_in(&["declare", "--all"]);
    assert_eq!(code(&out), 0, "{}", stderr(&out));
    let out = run_in(&["verify", "--all", "-o", "json"]);
    assert_eq!(code(&out), 0, "{}", stdout(&out));
    let doc = json(&out);
    assert_eq!(doc["logical_queues"].as_array().unwrap().len(), 2);
    // Someone edits the file: the gate fails.
    std::fs::write(
        dir.path().join("queuey.toml"),
        format!(
            "[queues.\"{a}\"]\nmessage_ttl = \"2h\"\n\n[queues.\"{b}\"]\nqueue_type = \"quorum\"\n"
        ),
    )
    .unwrap();
    let out = run_in(&["verify", "--all", "-o", "json"]);
    assert_eq!(code(&out), 1);
    let doc = json(&out);
    assert_eq!(logical_of(&doc, &a)["status"], "drift");
    assert_eq!(logical_of(&doc, &b)["status"], "in_sync");
}

#[test]
fn verify_does_not_renew_a_hold_queues_lease() {
    let broker = Broker::connect();
    let q = logical(&broker, "lease");
    broker.declare(&q, table(vec![priority10()]));
    broker.declare(&format!("{q}.dead"), FieldTable::default());
    let hold = format!("{q}.deferred.3000");
    // x-expires = 6000 ms: unused for 6 s, the broker deletes it (6 s, not 2: on a loaded
    // machine one verify run can take a second or more, and it must run at least twice).
    broker.declare(&hold, hold_args(&q, 3000));
    let declared = Instant::now();
    let mut runs = 0;
    let mut saw_it = false;
    let gone_after = loop {
        let out = run(&["verify", &q, "-o", "json"]);
        runs += 1;
        let doc = json(&out);
        let listed = logical_of(&doc, &q)["hold_queues"]["queues"]
            .as_array()
            .unwrap()
            .iter()
            .any(|h| h["name"] == hold.as_str());
        saw_it |= listed;
        if broker.api_queue(&hold).is_none() {
            break declared.elapsed();
        }
        assert!(
            declared.elapsed() < Duration::from_secs(14),
            "{hold} still exists {:?} after its declare, after {runs} verify runs: verify kept it alive",
            declared.elapsed()
        );
    };
    assert!(saw_it, "verify saw the hold queue while it lived");
    assert!(runs >= 2, "verify ran while the lease ran ({runs} runs)");
    assert!(
        gone_after >= Duration::from_millis(5900),
        "deleted by its own x-expires, not earlier: {gone_after:?}"
    );
}

#[test]
fn a_topology_read_in_one_listing_says_what_reading_each_queue_says() {
    // With several logical queues, verify/declare --dry-run read the vhost in one listing; with
    // one, they read each queue on its own. Both must give the same plan, queue by queue:
    // in sync, drift, missing, a q.dead whose policy destroys letters, hold queues good and bad.
    let broker = Broker::connect();
    let synced = logical(&broker, "one-read-sync");
    let drifted = logical(&broker, "one-read-drift");
    let missing = logical(&broker, "one-read-missing");
    let policied = logical(&broker, "one-read-policy");
    broker.declare(&synced, table(vec![priority10()]));
    broker.declare(&format!("{synced}.dead"), FieldTable::default());
    // A TTL of a minute: its x-expires (2 min) outlives the test on a loaded machine (a
    // second's hold queue expired between the two reads once).
    let good_hold = format!("{synced}.deferred.60000");
    let bad_hold = format!("{synced}.deferred.soon");
    broker.declare(&good_hold, hold_args(&synced, 60_000));
    broker.declare(&bad_hold, FieldTable::default());
    broker.track_queue(&good_hold);
    broker.track_queue(&bad_hold);
    broker.declare(&drifted, table(vec![priority10(), ttl(5000)]));
    broker.declare(&policied, table(vec![priority10()]));
    broker.declare(&format!("{policied}.dead"), FieldTable::default());
    let policy = unique("one-read-policy");
    broker.set_policy(
        &policy,
        &format!("^{}$", regex_quote(&format!("{policied}.dead"))),
        j!({"message-ttl": 1000}),
        false,
    );
    let names = [&synced, &drifted, &missing, &policied];
    let dir = tempfile::tempdir().unwrap();
    let file: String = names
        .iter()
        .map(|n| format!("[queues.\"{n}\"]\n"))
        .collect();
    std::fs::write(dir.path().join("queuey.toml"), file).unwrap();
    let run_in = |args: &[&str]| Queuey::in_dir(dir.path()).args(args).run();
    // A fresh queue's consumer count is in the API's listing once its first statistics are
    // in (seconds): before, the listing says it is not known, which is what it is.
    eventually(
        "the hold queues' statistics",
        Duration::from_secs(30),
        || {
            [&good_hold, &bad_hold]
                .iter()
                .all(|q| broker.api_queue(q).is_some_and(|j| j["consumers"].is_u64()))
                .then_some(())
        },
    );
    // The policy is seen by the API a moment after it is set.
    eventually("the policy on q.dead", Duration::from_secs(10), || {
        let doc = json(&run_in(&["verify", &policied, "-o", "json"]));
        (logical_of(&doc, &policied)["status"] == "drift").then_some(())
    });
    for command in [&["verify"][..], &["declare", "--dry-run"][..]] {
        let all = run_in(&[command, &["--all", "-o", "json"]].concat());
        let all = json(&all);
        assert_eq!(
            all["logical_queues"].as_array().map(Vec::len),
            Some(4),
            "{all:#}"
        );
        for name in names {
            let one = json(&run_in(&[command, &[name.as_str(), "-o", "json"]].concat()));
            assert_eq!(
                logical_of(&all, name),
                logical_of(&one, name),
                "{command:?}: {name} read in one listing differs from {name} read on its own"
            );
        }
        if command[0] == "verify" {
            // The bad hold-queue name makes `synced` drift for verify (it checks hold queues).
            let statuses: Vec<&Value> = names
                .iter()
                .map(|n| &logical_of(&all, n)["status"])
                .collect();
            assert_eq!(
                statuses,
                [&j!("drift"), &j!("drift"), &j!("create"), &j!("drift")]
            );
        }
    }
}

/// `text` as a literal in a policy pattern (an Erlang regex).
fn regex_quote(text: &str) -> String {
    text.chars()
        .map(|c| {
            if c.is_ascii_alphanumeric() {
                c.to_string()
            } else {
                format!("\\{c}")
            }
        })
        .collect()
}

/// The promise of docs/commands/holds-ls.md and status.md: `holds ls` and `status` read hold
/// queues without renewing their `x-expires` lease. Both run in turn, again and again, on a
/// hold queue that expires after 6 s unused: it still goes on time. (A lease of 6 s, not 2: on
/// a loaded machine one run of each can take a second or more, and both must run at least
/// twice while the queue lives.)
#[test]
fn holds_ls_and_status_do_not_renew_a_hold_queues_lease() {
    let broker = Broker::connect();
    let q = logical(&broker, "lease2");
    broker.declare(&q, table(vec![priority10()]));
    broker.declare(&format!("{q}.dead"), FieldTable::default());
    let hold = format!("{q}.deferred.3000");
    broker.declare(&hold, hold_args(&q, 3000));
    let declared = Instant::now();
    let (mut holds_runs, mut status_runs) = (0, 0);
    let (mut holds_saw, mut status_saw) = (false, false);
    let gone_after = loop {
        let out = run(&["holds", "ls", &q, "-o", "json"]);
        assert_eq!(code(&out), 0, "{}", stderr(&out));
        holds_runs += 1;
        holds_saw |= json(&out)["hold_queues"]
            .as_array()
            .unwrap()
            .iter()
            .any(|h| h["name"] == hold.as_str());
        let out = run(&["status", &q, "-o", "json"]);
        assert_eq!(code(&out), 0, "{}", stderr(&out));
        status_runs += 1;
        status_saw |= logical_of(&json(&out), &q)["hold_queues"]["count"] == 1;
        if broker.api_queue(&hold).is_none() {
            break declared.elapsed();
        }
        assert!(
            declared.elapsed() < Duration::from_secs(14),
            "{hold} still exists {:?} after its declare, after {holds_runs} holds ls and \
             {status_runs} status runs: one of them kept it alive",
            declared.elapsed()
        );
    };
    assert!(holds_saw, "holds ls saw the hold queue while it lived");
    assert!(status_saw, "status saw the hold queue while it lived");
    assert!(
        holds_runs >= 2 && status_runs >= 2,
        "both ran while the lease ran ({holds_runs}, {status_runs})"
    );
    assert!(
        gone_after >= Duration::from_millis(5900),
        "deleted by its own x-expires, not earlier: {gone_after:?}"
    );
}

#[test]
fn declare_all_over_a_fleet_creates_every_queue_in_order() {
    // Logical queues are declared 16 at a time (each with its configure check, one at a time):
    // every queue is created, the report keeps the file's order, and verify agrees after.
    let broker = Broker::connect();
    let names: Vec<String> = (0..120)
        .map(|i| logical(&broker, &format!("fleet{i:03}")))
        .collect();
    // A few exist already, in sync, as an application would have declared them.
    for name in names.iter().step_by(10) {
        broker.declare(name, table(vec![priority10()]));
        broker.declare(&format!("{name}.dead"), FieldTable::default());
    }
    let dir = tempfile::tempdir().unwrap();
    let file: String = names
        .iter()
        .map(|n| format!("[queues.\"{n}\"]\n"))
        .collect();
    std::fs::write(dir.path().join("queuey.toml"), file).unwrap();
    let run_in = |args: &[&str]| Queuey::in_dir(dir.path()).args(args).run();
    let out = run_in(&["declare", "--all", "-o", "json"]);
    assert_eq!(code(&out), 0, "{}", stderr(&out));
    let doc = json(&out);
    let reported: Vec<&str> = doc["logical_queues"]
        .as_array()
        .unwrap()
        .iter()
        .map(|l| l["name"].as_str().unwrap())
        .collect();
    assert_eq!(
        reported,
        names.iter().map(String::as_str).collect::<Vec<_>>()
    );
    for (i, name) in names.iter().enumerate() {
        let results: Vec<&Value> = logical_of(&doc, name)["queues"]
            .as_array()
            .unwrap()
            .iter()
            .map(|q| &q["result"])
            .collect();
        let expected = if i % 10 == 0 {
            "already_in_sync"
        } else {
            "created"
        };
        assert_eq!(results, [&j!(expected), &j!(expected)], "{name}");
        assert!(
            broker.api_queue(name).is_some() && broker.api_queue(&format!("{name}.dead")).is_some()
        );
    }
    let out = run_in(&["verify", "--all"]);
    assert_eq!(code(&out), 0, "{}", stdout(&out));
}

/// Extracts the first `queuey ...` command quoted in backticks from `text`.
fn suggested_command(text: &str) -> String {
    let start = text
        .find("`queuey ")
        .unwrap_or_else(|| panic!("no queuey command suggested in: {text}"));
    let rest = &text[start + 1..];
    rest[..rest.find('`').expect("closing backtick")].to_owned()
}

/// A missing queue's answer suggests the names that exist and the command that fixes
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

/// `status` of a missing queue reads as a sentence and names the fix.
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

/// With a topology file in use, a name it does not list is said to be unlisted; declare
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
    let in_dir = |args: &[&str]| Queuey::in_dir(dir.path()).args(args).run();

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

/// A policy, an operator policy or an argument that
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
    // A minute's TTL that sends every dead letter back to q.
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
    let (out, doc) = crate::common::eventually(
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
            // Clear the policy, or recreate q.dead keeping its dead letters (archive, delete,
            // declare, restore: one line).
            assert!(
                command.starts_with("rabbitmqctl clear_policy ")
                    || command.starts_with("rabbitmqctl clear_operator_policy ")
                    || command.starts_with("queuey dead purge "),
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
        crate::common::eventually("declare to recreate them", Duration::from_secs(30), || {
            let out = run(&declare);
            *last.borrow_mut() = format!("{}{}", stdout(&out), stderr(&out));
            (code(&out) == 0).then_some(())
        })
    }));
    assert!(recreated.is_ok(), "declare: {}", last.borrow());
    crate::common::eventually("every q.dead in sync", Duration::from_secs(30), || {
        (code(&verify_all(true)) == 0).then_some(())
    });
}

/// A policy put on q.dead is drift the moment it exists, and its clearing is seen at once
/// too: verify computes q.dead's policies from the vhost's policy listings as the broker
/// applies them, not from the queue object, which shows them at its next statistics emission
/// (seconds later: a CI gate run in between passed a `max-length` on q.dead). On 3.10 and 4.3.
#[test]
fn a_policy_on_q_dead_is_drift_at_once_and_so_is_its_clearing() {
    let broker = Broker::connect();
    let q = logical(&broker, "policy-now");
    let dead = format!("{q}.dead");
    let out = run(&["declare", &q]);
    assert_eq!(code(&out), 0, "{}", stderr(&out));
    let verify = || {
        let out = run(&["verify", &q, "-o", "json"]);
        (code(&out), json(&out))
    };
    assert_eq!(verify().0, 0);

    let policy = unique("maxlen-now");
    broker.set_policy(&policy, &exact(&dead), j!({"max-length": 5}), false);
    let operator = unique("ttl-now");
    broker.set_policy(&operator, &exact(&dead), j!({"message-ttl": 60_000}), true);
    // At once, no polling: the first run after the policies were set.
    let (code_now, doc) = verify();
    assert_eq!(code_now, 1, "{doc:#}");
    let diffs = dead_differences(&doc, &q);
    let by = |field: &str| {
        diffs
            .iter()
            .find(|d| d["field"] == field)
            .unwrap_or_else(|| panic!("{field} in {diffs:?}"))
            .clone()
    };
    let (maxlen, ttl) = (by("max-length"), by("message-ttl"));
    assert_eq!(
        (&maxlen["kind"], &maxlen["live"], &maxlen["policies"][0]),
        (
            &j!("policy"),
            &j!(5),
            &j!({"name": policy, "operator": false})
        ),
        "{maxlen}"
    );
    assert_eq!(
        (&ttl["kind"], &ttl["live"], &ttl["policies"][0]),
        (
            &j!("policy"),
            &j!(60_000),
            &j!({"name": operator, "operator": true})
        ),
        "{ttl}"
    );
    // Its remedies clear them; pasted, they work, and verify is in sync at once again.
    let commands = remedy_commands(&doc, &q);
    assert_eq!(commands.len(), 2, "{commands:?}");
    for command in &commands {
        let out = paste(command);
        assert!(out.status.success(), "{command}: {}", stderr(&out));
    }
    let (code_now, doc) = verify();
    assert_eq!(code_now, 0, "{doc:#}");
}

/// A q.dead of another type than the vhost gives it (a quorum q.dead in a classic vhost) is
/// drift for ever: no setting covers q.dead's type, and declare creates no q beside it. Its
/// remedy keeps the dead letters: archived, q.dead deleted, declared again with q, restored;
/// pasted as printed, it works, on 3.10 and 4.3.
#[test]
fn a_q_dead_of_the_wrong_type_is_recreated_by_its_remedy_keeping_its_dead_letters() {
    let broker = Broker::connect();
    let q = logical(&broker, "wrong-type");
    let dead = format!("{q}.dead");
    broker.declare(&dead, table(vec![("x-queue-type", long_str("quorum"))]));
    let bodies: [&[u8]; 3] = [b"one", b"not json", b"three"];
    broker.publish(&dead, &bodies, None);
    broker.wait_for_count(&dead, 3);

    let out = run(&["verify", &q, "-o", "json"]);
    assert_eq!(code(&out), 1, "{}", stderr(&out));
    let doc = json(&out);
    assert!(
        queue_of(&doc, &q, &dead)["differences"]
            .as_array()
            .unwrap()
            .iter()
            .any(|d| d["field"] == "type"),
        "{doc:#}"
    );
    assert_eq!(queue_of(&doc, &q, &q)["status"], "create", "{doc:#}");
    let remedies = doc["logical_queues"][0]["remedies"].to_string();
    assert!(!remedies.contains("change the settings"), "{remedies}");
    let commands = remedy_commands(&doc, &q);
    assert_eq!(commands.len(), 1, "{commands:?}");
    let out = paste(&commands[0]);
    assert!(
        out.status.success(),
        "{}: {}{}",
        commands[0],
        stdout(&out),
        stderr(&out)
    );
    let out = run(&["verify", &q, "-o", "json"]);
    assert_eq!(code(&out), 0, "{}", stdout(&out));
    let mut kept = broker.bodies(&dead);
    kept.sort();
    assert_eq!(kept, ["not json", "one", "three"]);
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

/// Every remedy printed for a shell works when pasted as it is (here through `sh -c`),
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
    let live =
        crate::common::eventually("the policy on the queue", Duration::from_secs(30), || {
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

/// Without the management API no queue's type is read (AMQP cannot read one), nor the vhost's
/// default queue type: `verify`, `status` and `holds ls` claim no type rather than the classic
/// queuey would compute. Two quorum queues declared explicitly (`x-queue-type`) in a classic
/// vhost: each version's API says quorum, and the fallback says it did not read the type.
#[test]
fn without_the_api_no_type_is_claimed_for_quorum_queues_declared_explicitly() {
    let broker = Broker::connect();
    let q = logical(&broker, "typeless");
    let dead = format!("{q}.dead");
    for name in [&q, &dead] {
        broker.declare(name, table(vec![("x-queue-type", long_str("quorum"))]));
        assert_eq!(
            broker.api_queue(name).expect("declared")["type"],
            "quorum",
            "{name}"
        );
    }
    let off = ["--api-url", "http://127.0.0.1:1"];
    let with_off = |args: &[&str]| {
        let mut all = args.to_vec();
        all.extend(off);
        run(&all)
    };

    let out = with_off(&["verify", &q, "--max-priority", "0"]);
    assert_eq!(code(&out), 6, "{}", stderr(&out));
    let text = stdout(&out);
    assert!(!text.contains("classic"), "{text}");
    for role in [
        "work queue (type not read without the management API)",
        "dead-letter queue (type not read without the management API)",
    ] {
        assert!(text.contains(role), "{role}: {text}");
    }
    // With the API, the same queues are named quorum (what the fallback must not contradict).
    let text = stdout(&run(&["verify", &q, "--max-priority", "0"]));
    assert!(
        text.contains("work queue (quorum)") && text.contains("dead-letter queue (quorum)"),
        "{text}"
    );

    let out = with_off(&["status", &q, "--max-priority", "0"]);
    assert_eq!(code(&out), 0, "{}", stderr(&out));
    let text = stdout(&out);
    assert!(!text.contains("classic"), "{text}");
    let out = with_off(&["status", &q, "--max-priority", "0", "-o", "json"]);
    let l = &json(&out)["logical_queues"][0];
    assert_eq!(
        (&l["queue_type"], &l["work"]["type"], &l["dead"]["type"]),
        (&Value::Null, &Value::Null, &Value::Null),
        "{l}"
    );

    // A missing queue: `declare` would give it the vhost's default type, which AMQP cannot read.
    let missing = logical(&broker, "typeless-missing");
    let out = with_off(&["status", &missing, "--max-priority", "0"]);
    assert_eq!(code(&out), 0, "{}", stderr(&out));
    let text = stdout(&out);
    assert!(
        text.contains("missing: `") && !text.contains("classic"),
        "{text}"
    );
    let out = with_off(&["verify", &missing, "--max-priority", "0"]);
    let text = stdout(&out);
    assert!(
        text.contains("work queue (type not read without the management API)")
            && !text.contains("classic"),
        "{text}"
    );
    // Named in the declaration (`--queue-type quorum`), the type of the missing q is known.
    let text = stdout(&with_off(&[
        "verify",
        &missing,
        "--queue-type",
        "quorum",
        "--max-priority",
        "0",
    ]));
    assert!(text.contains("work queue (quorum)"), "{text}");

    // `holds ls` lists through the API alone: without it, it fails and names no type.
    let out = with_off(&["holds", "ls", &q]);
    assert_eq!(code(&out), 6, "{}", stderr(&out));
    assert!(!stdout(&out).contains("classic"), "{}", stdout(&out));
}
