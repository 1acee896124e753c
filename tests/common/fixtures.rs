//! The dead letters the broker tests publish and the queues they go through, shared by the
//! live test modules (replay, purge, dead, hostile, identical, limits, repair, user_id).

use std::collections::BTreeMap;

use lapin::BasicProperties;
use lapin::types::{AMQPValue, FieldTable};

use super::{Broker, long_str, table};

/// The properties of a dead letter bound for `original`, dead for `reason`, as a queuey
/// application writes them (persistent, priority 2, its attempts and a `tenant` header).
pub fn dead_letter(id: &str, original: &str, reason: &str) -> BasicProperties {
    BasicProperties::default()
        .with_message_id(id.into())
        .with_delivery_mode(2)
        .with_priority(2)
        .with_content_type("application/json".into())
        .with_headers(table(vec![
            ("x-original-queue", long_str(original)),
            ("x-death-reason", long_str(reason)),
            ("x-attempts", AMQPValue::LongInt(5)),
            ("x-attempt", AMQPValue::LongInt(5)),
            ("tenant", long_str("acme")),
        ]))
}

/// Publishes `n` dead letters into `dead`, round-robin over `originals`; returns the ids.
pub fn fill(
    broker: &Broker,
    dead: &str,
    originals: &[&str],
    reasons: &[&str],
    n: usize,
) -> Vec<String> {
    let messages = (0..n).map(|i| {
        let id = format!("m-{i:06}");
        let props = dead_letter(
            &id,
            originals[i % originals.len()],
            reasons[i % reasons.len()],
        );
        (props, format!("{{\"n\":{i}}}").into_bytes())
    });
    publish_all(broker, dead, messages)
}

/// Publishes `messages` into `queue`, confirmed in batches; returns their message ids.
pub fn publish_all(
    broker: &Broker,
    queue: &str,
    messages: impl IntoIterator<Item = (BasicProperties, Vec<u8>)>,
) -> Vec<String> {
    let ch = broker.channel();
    let mut ids = Vec::new();
    broker.rt.block_on(async {
        ch.confirm_select(lapin::options::ConfirmSelectOptions::default())
            .await
            .unwrap_or_else(|e| panic!("confirm.select to publish into {queue}: {e}"));
        let mut confirms = Vec::new();
        for (props, body) in messages {
            ids.push(
                props
                    .message_id()
                    .as_ref()
                    .map(|s| s.to_string())
                    .unwrap_or_default(),
            );
            confirms.push(
                ch.basic_publish("".into(), queue.into(), Default::default(), &body, props)
                    .await
                    .unwrap_or_else(|e| panic!("publishing into {queue}: {e}")),
            );
            if confirms.len() >= 500 {
                for c in confirms.drain(..) {
                    c.await
                        .unwrap_or_else(|e| panic!("the confirm of a publish into {queue}: {e}"));
                }
            }
        }
        for c in confirms {
            c.await
                .unwrap_or_else(|e| panic!("the confirm of a publish into {queue}: {e}"));
        }
        let _ = ch.close(200, "ok".into()).await;
    });
    ids
}

/// A logical queue `label`: its `q.dead` (empty) and `targets` other queues to replay into;
/// `q` itself is not declared. Returns (q, q.dead, the targets).
pub fn setup(broker: &Broker, label: &str, targets: usize) -> (String, String, Vec<String>) {
    let q = broker.queue_name(label);
    let dead = format!("{q}.dead");
    broker.track_queue(&dead);
    broker.declare(&dead, FieldTable::default());
    let names: Vec<String> = (0..targets)
        .map(|i| {
            let t = broker.queue_name(&format!("{label}-target{i}"));
            broker.declare(&t, FieldTable::default());
            t
        })
        .collect();
    (q, dead, names)
}

/// The message ids in `queues`, counted: a multiset, so that a duplicate inside one queue shows.
pub fn id_counts(broker: &Broker, queues: &[&str]) -> BTreeMap<String, usize> {
    let mut counts = BTreeMap::new();
    for q in queues {
        for id in broker.ids(q) {
            *counts.entry(id).or_default() += 1;
        }
    }
    counts
}

/// RabbitMQ 4.0 to 4.2 count every return of a quorum message against its delivery limit (20
/// by default): a look or a replay of a quorum `q.dead` runs there only with the operator's
/// consent (harmless on a classic one). 3.x (no limit by default) and 4.3 (a nack is free)
/// need none.
pub fn budget_on_4_0(broker: &Broker) -> Option<&'static str> {
    ((4, 0)..(4, 3))
        .contains(&broker.rabbitmq_version())
        .then_some("--spend-delivery-budget")
}

/// A work queue `q` with no dead-letter exchange (a job it pushes out is gone), its `q.dead`,
/// 3 jobs waiting in `q` and `n` dead letters bound for `q` in `q.dead`; `args` are `q`'s
/// arguments. Returns (q, q.dead, the waiting jobs' ids, the dead letters' ids).
pub fn busy_work_queue(
    broker: &Broker,
    label: &str,
    args: FieldTable,
    n: usize,
) -> (String, String, Vec<String>, Vec<String>) {
    let q = broker.queue_name(label);
    let dead = format!("{q}.dead");
    broker.track_queue(&dead);
    broker.declare(&dead, FieldTable::default());
    broker.declare(&q, args);
    let waiting: Vec<String> = (0..3).map(|i| format!("work-{i}")).collect();
    broker.publish_ids(&q, &waiting);
    let ids = fill(broker, &dead, &[q.as_str()], &["fatal error: x"], n);
    broker.wait_for_count(&dead, n as u32);
    (q, dead, waiting, ids)
}
