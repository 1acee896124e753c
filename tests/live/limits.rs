//! Which of a queue's argument and its policy decides a limit, by queue type and broker version,
//! measured on the broker (publishes with confirms) and read by queuey the same way
//! (`plan::bounds`, `plan::policies`; docs/broker-notes.md has the whole table).

use std::time::Duration;

use lapin::BasicProperties;
use lapin::options::{BasicPublishOptions, ConfirmSelectOptions};
use lapin::types::{AMQPValue, FieldTable};
use serde_json::{Value, json};

use crate::common::fixtures::fill;
use crate::common::{Broker, Queuey, eventually, json, long_str, stderr, stdout, table};

/// Publishes one persistent message per id (the id as message id) to `queue`, each confirm
/// awaited before the next: `A` for each ack, `N` for each nack.
fn publish_one_by_one(broker: &Broker, queue: &str, ids: &[&str]) -> String {
    let ch = broker.channel();
    broker.rt.block_on(async {
        ch.confirm_select(ConfirmSelectOptions::default())
            .await
            .expect("confirm.select");
        let mut out = String::new();
        for id in ids {
            let confirm = ch
                .basic_publish(
                    "".into(),
                    queue.into(),
                    BasicPublishOptions::default(),
                    id.as_bytes(),
                    BasicProperties::default()
                        .with_delivery_mode(2)
                        .with_message_id((*id).into()),
                )
                .await
                .expect("publish")
                .await
                .expect("confirm");
            out.push(if confirm.is_ack() { 'A' } else { 'N' });
        }
        let _ = ch.close(200, "ok".into()).await;
        out
    })
}

/// `name` as a policy pattern matching only itself.
fn only(name: &str) -> String {
    let escaped: String = name
        .chars()
        .flat_map(|c| {
            let special = "\\.^$|?*+()[]{}".contains(c);
            special.then_some('\\').into_iter().chain([c])
        })
        .collect();
    format!("^{escaped}$")
}

/// A work queue `q` of `queue_type` with `x-max-length` 2 and `x-overflow` `argument` (none
/// when `None`), a policy on it setting `overflow` `policy`, and 5 dead letters bound for it in
/// `q.dead`. Returns (q, q.dead).
fn two_slot_queue(
    broker: &Broker,
    label: &str,
    queue_type: &str,
    argument: Option<&str>,
    policy: Option<&str>,
) -> (String, String) {
    let q = broker.queue_name(label);
    let dead = format!("{q}.dead");
    broker.track_queue(&dead);
    broker.declare(&dead, FieldTable::default());
    let mut args = vec![
        ("x-queue-type", long_str(queue_type)),
        ("x-max-length", AMQPValue::LongInt(2)),
    ];
    if let Some(a) = argument {
        args.push(("x-overflow", long_str(a)));
    }
    broker.declare(&q, table(args));
    if let Some(p) = policy {
        broker.set_policy(&q, &only(&q), json!({ "overflow": p }), false);
    }
    fill(broker, &dead, &[q.as_str()], &["fatal error: x"], 5);
    broker.wait_for_count(&dead, 5);
    (q, dead)
}

/// The room queuey's dry run reads for the only target of `q.dead`.
fn dry_run_room(q: &str) -> Value {
    let out = Queuey::new()
        .args(["dead", "replay", q, "--dry-run", "-o", "json"])
        .run();
    assert_eq!(out.status.code(), Some(3), "{}", stderr(&out));
    json(&out)["targets"][0].clone()
}

/// **The overflow in force**: on a classic queue the `x-overflow` argument wins over the
/// policy's `overflow`; on a quorum queue the policy's wins over the argument, and a quorum
/// queue runs `reject-publish-dlx` as `drop-head`. The same on 3.10.8 and 4.3.6 (RabbitMQ's
/// source: `rabbit_amqqueue_process` `res_arg`, `rabbit_quorum_queue` `policy_has_precedence`).
/// Each case is measured (5 publishes with confirms into `x-max-length` 2: `drop-head` takes
/// all 5 and keeps the last 2; a classic `reject-publish` takes 2 and refuses 3; a quorum
/// `reject-publish` takes one more than the limit, 3, and refuses 2), and queuey's dry run reads
/// the same overflow, where it came from and why. A quorum target read as `drop-head` keeps the
/// copies that do not fit (3 of 5), as a `reject-publish` one does, and says why.
#[test]
fn the_overflow_in_force_is_a_classic_queues_argument_and_a_quorum_queues_policy() {
    let broker = Broker::connect();
    let version = broker.rabbitmq_version();
    let cases = [
        // (type, x-overflow, policy overflow) -> (what the broker did, overflow, from, note)
        (
            "classic",
            Some("reject-publish"),
            Some("drop-head"),
            "AANNN",
            "reject-publish",
            "argument",
            Value::Null,
        ),
        (
            "classic",
            Some("drop-head"),
            Some("reject-publish-dlx"),
            "AAAAA",
            "drop-head",
            "argument",
            Value::Null,
        ),
        (
            "quorum",
            Some("reject-publish"),
            Some("drop-head"),
            "AAAAA",
            "drop-head",
            "policy",
            json!("over the argument's reject-publish: a quorum queue's policy wins"),
        ),
        (
            "quorum",
            Some("drop-head"),
            Some("reject-publish"),
            "AAANN",
            "reject-publish",
            "policy",
            json!("over the argument's drop-head: a quorum queue's policy wins"),
        ),
        (
            "quorum",
            Some("reject-publish"),
            Some("reject-publish-dlx"),
            "AAAAA",
            "drop-head",
            "policy",
            json!(
                "its reject-publish-dlx, which a quorum queue runs as drop-head, over the \
                 argument's reject-publish: a quorum queue's policy wins"
            ),
        ),
        (
            "quorum",
            Some("reject-publish-dlx"),
            None,
            "AAAAA",
            "drop-head",
            "argument",
            json!("its reject-publish-dlx, which a quorum queue runs as drop-head"),
        ),
    ];
    for (kind, argument, policy, broker_did, overflow, from, note) in cases {
        let case = format!("{version:?} {kind} x-overflow {argument:?}, policy {policy:?}");
        let (q, _dead) = two_slot_queue(&broker, "overflow-rule", kind, argument, policy);
        let target = dry_run_room(&q);
        let room = &target["room"];
        assert_eq!(
            (
                &room["max_length"],
                &room["overflow"],
                &room["overflow_from"],
                room.get("overflow_note").unwrap_or(&Value::Null),
                &target["would_move"],
                &target["would_fail"],
            ),
            (
                &json!(2),
                &json!(overflow),
                &json!(from),
                &note,
                &json!(2),
                &json!(3),
            ),
            "{case}: {target}"
        );
        // The broker, with the same queue: what it does at the limit.
        let did = publish_one_by_one(&broker, &q, &["p1", "p2", "p3", "p4", "p5"]);
        let kept = broker.drain_ids(&q);
        let expected_kept: &[&str] = match broker_did {
            "AAAAA" => &["p4", "p5"],
            "AANNN" => &["p1", "p2"],
            _ => &["p1", "p2", "p3"],
        };
        assert_eq!(
            (did.as_str(), kept),
            (
                broker_did,
                expected_kept
                    .iter()
                    .map(|s| s.to_string())
                    .collect::<Vec<_>>()
            ),
            "{case}"
        );
    }

    // Operator policies: 3.10 refuses `overflow` in one; 4.3 takes it, and it replaces the
    // policy's, after which the type's rule decides against the argument as above.
    let q = broker.queue_name("overflow-op");
    broker.declare(
        &q,
        table(vec![
            ("x-queue-type", long_str("quorum")),
            ("x-max-length", AMQPValue::LongInt(2)),
            ("x-overflow", long_str("drop-head")),
        ]),
    );
    broker.track_policy(&q, true);
    let params = rabbitmq_http_client::requests::PolicyParams {
        vhost: &broker.vhost,
        name: &q,
        pattern: &only(&q),
        apply_to: rabbitmq_http_client::commons::PolicyTarget::Queues,
        priority: 10,
        definition: json!({"overflow": "reject-publish"})
            .as_object()
            .cloned()
            .expect("an object"),
    };
    let set = broker
        .rt
        .block_on(broker.api.declare_operator_policy(&params));
    if version < (4, 0) {
        // 400: `[{<<"overflow">>,<<"reject-publish">>}] are not recognised policy settings`.
        let err = set.expect_err("3.10 refuses overflow in an operator policy");
        assert!(err.to_string().contains("400"), "{err}");
        return;
    }
    set.expect("4.x takes overflow in an operator policy");
    broker.set_policy(&q, &only(&q), json!({"overflow": "drop-head"}), false);
    let dead = format!("{q}.dead");
    broker.track_queue(&dead);
    broker.declare(&dead, FieldTable::default());
    fill(&broker, &dead, &[q.as_str()], &["fatal error: x"], 5);
    broker.wait_for_count(&dead, 5);
    let room = dry_run_room(&q)["room"].clone();
    assert_eq!(
        (&room["overflow"], &room["overflow_from"]),
        (&json!("reject-publish"), &json!("policy")),
        "{room}"
    );
    assert_eq!(
        publish_one_by_one(&broker, &q, &["p1", "p2", "p3", "p4", "p5"]),
        "AAANN",
        "the operator policy's reject-publish, over the policy's drop-head and the argument's"
    );
}

/// **What a quorum queue counts against `max-length-bytes`**: bodies only on 3.10.8; bodies
/// and each message's properties and headers on 4.3.6 (10 messages of 100-byte bodies showed
/// 1000 bytes ready on 3.10.8, 1920 on 4.3.6; a classic queue shows 1000 on both). queuey
/// cannot compute that size, so on 4.x a quorum target with a byte limit and `drop-head`
/// (where a copy that seems to fit could push out a job) has its limits unread: its copies
/// stay (exit 3) unless `--allow-drop-head`. On 3.10 the same target is judged by bodies.
#[test]
fn a_quorum_queues_byte_limit_counts_headers_on_4_and_queuey_does_not_guess_it() {
    let broker = Broker::connect();
    let version = broker.rabbitmq_version();
    let q = broker.queue_name("overflow-bytes");
    broker.declare(&q, table(vec![("x-queue-type", long_str("quorum"))]));
    let ids: Vec<String> = (0..10).map(|i| format!("b-{i:03}")).collect();
    let ch = broker.channel();
    broker.rt.block_on(async {
        ch.confirm_select(ConfirmSelectOptions::default())
            .await
            .expect("confirm.select");
        for id in &ids {
            ch.basic_publish(
                "".into(),
                q.as_str().into(),
                BasicPublishOptions::default(),
                &[b'x'; 100],
                BasicProperties::default()
                    .with_delivery_mode(2)
                    .with_message_id(id.as_str().into()),
            )
            .await
            .expect("publish")
            .await
            .expect("confirm");
        }
    });
    let bytes = eventually(
        "the API to count the quorum queue's bytes",
        Duration::from_secs(30),
        || {
            broker.api_queue(&q).and_then(|v| {
                // The API's counts lag, each on its own (seen on 4.3.6 under load: 10 ready
                // and 0 bytes): every version counts the bodies at least.
                (v["messages_ready"] == 10)
                    .then(|| v["message_bytes_ready"].as_u64())
                    .flatten()
                    .filter(|bytes| *bytes >= 1000)
            })
        },
    );
    if version < (3, 13) {
        assert_eq!(bytes, 1000, "{version:?}: bodies only");
    } else {
        assert!(bytes > 1000, "{version:?}: more than the bodies: {bytes}");
    }
    broker.drain_ids(&q);

    // A quorum work queue bounded by bytes, drop-head, 3 dead letters bound for it.
    let q = broker.queue_name("overflow-bytes-target");
    let dead = format!("{q}.dead");
    broker.track_queue(&dead);
    broker.declare(&dead, FieldTable::default());
    broker.declare(
        &q,
        table(vec![
            ("x-queue-type", long_str("quorum")),
            ("x-max-length-bytes", AMQPValue::LongInt(100_000)),
        ]),
    );
    let ids = fill(&broker, &dead, &[q.as_str()], &["fatal error: x"], 3);
    broker.wait_for_count(&dead, 3);
    let out = Queuey::new().args(["dead", "replay", &q]).run();
    if version < (3, 13) {
        assert_eq!(out.status.code(), Some(0), "{version:?}: {}", stderr(&out));
        assert_eq!(broker.drain_ids(&q), ids, "{version:?}");
    } else {
        assert_eq!(out.status.code(), Some(3), "{version:?}: {}", stderr(&out));
        assert!(
            stdout(&out).contains("counts each message's properties and headers"),
            "{version:?}: {}",
            stdout(&out)
        );
        assert_eq!(broker.count(&q), 0, "{version:?}: nothing published");
        assert_eq!(
            broker.drain_ids(&dead),
            ids,
            "{version:?}: the dead letters stay"
        );
    }
}
