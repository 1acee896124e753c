//! `dead check` (thresholds, exit 0/1) and `-o prometheus` (`status`, `dead check`), on the
//! real dead letters of an application and on queues made by hand; the exposition is read back
//! by a parser of the Prometheus text format (`openmetrics-parser`), never by string matching.

use std::collections::BTreeMap;
use std::time::{Duration, Instant};

use crate::common::app::{App, DEAD_LETTERS};
use crate::common::{Broker, json, queuey, stderr};

/// (family, labels) -> value, as a parser of the text format reads `text`.
fn metrics(text: &str) -> BTreeMap<(String, BTreeMap<String, String>), f64> {
    let exposition = openmetrics_parser::prometheus::parse_prometheus(text)
        .unwrap_or_else(|e| panic!("not the Prometheus text format ({e:?}):\n{text}"));
    let mut out = BTreeMap::new();
    for (name, family) in &exposition.families {
        assert!(!family.help.is_empty(), "{name} has a HELP line");
        let names = family.get_label_names().to_vec();
        for sample in family.iter_samples() {
            let set = sample.get_labelset().expect("a label set");
            let labels = names
                .iter()
                .map(|n| {
                    (
                        n.clone(),
                        set.get_label_value(n).unwrap_or_default().to_owned(),
                    )
                })
                .collect();
            let value = match &sample.value {
                openmetrics_parser::PrometheusValue::Gauge(n) => n.as_f64(),
                other => panic!("{name} is a gauge, not {other:?}"),
            };
            out.insert((name.clone(), labels), value);
        }
    }
    out
}

fn labels(pairs: &[(&str, &str)]) -> BTreeMap<String, String> {
    pairs
        .iter()
        .map(|(k, v)| (k.to_string(), v.to_string()))
        .collect()
}

fn check(args: &[&str]) -> std::process::Output {
    let (mut cmd, _dir) = queuey();
    cmd.args(["dead", "check"])
        .args(args)
        .output()
        .expect("queuey runs")
}

#[test]
fn dead_check_exits_1_on_each_crossed_threshold_and_0_otherwise() {
    let broker = Broker::connect();
    let app = App::<13>::new(&broker, "check");
    app.make_dead_letters();
    let q = app.q;
    let n = DEAD_LETTERS.to_string();
    let below = (DEAD_LETTERS - 1).to_string();

    // Count: holds at the limit, crossed above it; the JSON names threshold, value and limit.
    let out = check(&[q, "--max-count", &n, "-o", "json"]);
    assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));
    let out = check(&[q, "--max-count", &below, "-o", "json"]);
    assert_eq!(out.status.code(), Some(1), "{}", stderr(&out));
    let doc = json(&out);
    assert_eq!(doc["crossed"], true);
    let v = &doc["queues"][0]["verdicts"][0];
    assert_eq!(v["threshold"], "max-count");
    assert_eq!(v["value"], f64::from(DEAD_LETTERS));
    assert_eq!(v["limit"], f64::from(DEAD_LETTERS - 1));
    assert_eq!(v["crossed"], true);
    let table = check(&[q, "--max-count", &below]);
    assert_eq!(table.status.code(), Some(1));
    let text = String::from_utf8_lossy(&table.stdout);
    assert!(
        text.contains("CROSSED") && text.contains("max-count"),
        "{text}"
    );

    // Age of the head: a one-message peek, the head returned in place.
    let before = broker.bodies(&app.dead);
    let head_is_job = serde_json::from_str::<serde_json::Value>(&before[0]).is_ok();
    std::thread::sleep(Duration::from_secs(2));
    let out = check(&[q, "--max-age", "1s", "-o", "json"]);
    let doc = json(&out);
    let oldest = &doc["queues"][0]["oldest"];
    if head_is_job {
        assert_eq!(out.status.code(), Some(1), "{}", stderr(&out));
        assert_eq!(oldest["kind"], "known");
        assert_eq!(
            oldest["since"], "enqueued",
            "an application's dead letter has no death time"
        );
        assert!(oldest["seconds"].as_u64().expect("seconds") >= 2);
    } else {
        assert_eq!(out.status.code(), Some(0), "an unknown age crosses nothing");
        assert_eq!(oldest["kind"], "unknown");
    }
    let out = check(&[q, "--max-age", "1h"]);
    assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));
    assert_eq!(
        broker.bodies(&app.dead),
        before,
        "the peeks changed nothing"
    );

    // With a filter, a scan: the oldest match (every job has an envelope) and its count.
    let out = check(&[
        q,
        "--where",
        "/payload",
        "--max-age",
        "1s",
        "--max-count",
        "4",
        "-o",
        "json",
    ]);
    assert_eq!(out.status.code(), Some(1), "{}", stderr(&out));
    let doc = json(&out);
    assert_eq!(doc["queues"][0]["counted_by"], "scan");
    assert_eq!(
        doc["queues"][0]["count"], 4,
        "the four jobs, not the malformed body"
    );
    assert_eq!(doc["queues"][0]["verdicts"][0]["crossed"], false);
    assert_eq!(doc["queues"][0]["verdicts"][1]["crossed"], true);
    assert_eq!(doc["queues"][0]["oldest"]["since"], "enqueued");

    // Rate: dead letters published into q.dead while the check polls, until the statistics
    // show them arriving faster than 1/s.
    let start = Instant::now();
    let mut last = None;
    while start.elapsed() < Duration::from_secs(60) {
        let bodies: Vec<&[u8]> = vec![b"x"; 20];
        broker.publish(&app.dead, &bodies, None);
        let out = check(&[q, "--max-rate", "1", "-o", "json"]);
        if out.status.code() == Some(1) {
            let v = &json(&out)["queues"][0]["verdicts"][0];
            assert_eq!(v["threshold"], "max-rate");
            assert!(v["value"].as_f64().expect("a rate") > 1.0, "{v}");
            last = None;
            break;
        }
        assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));
        last = Some(json(&out));
    }
    assert!(last.is_none(), "the rate never crossed 1/s: {last:#?}");
    let out = check(&[q, "--max-rate", "100000"]);
    assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));

    // No threshold, a missing queue: errors, not verdicts.
    assert_eq!(check(&[q]).status.code(), Some(2));
    assert_eq!(
        check(&["qy-no-such-queue", "--max-count", "1"])
            .status
            .code(),
        Some(7)
    );
}

#[test]
fn a_quorum_dead_queue_is_peeked_for_its_age_only_with_the_flag() {
    let broker = Broker::connect();
    let (q, dead) = broker.quorum_dead_queue("check-quorum", 50);
    let props = lapin::BasicProperties::default()
        .with_delivery_mode(2)
        .with_timestamp(
            std::time::SystemTime::now()
                .duration_since(std::time::UNIX_EPOCH)
                .expect("the clock")
                .as_secs()
                - 120,
        );
    broker.publish_props(&dead, b"died two minutes ago", props);
    broker.wait_for_count(&dead, 1);
    let out = check(&[&q, "--max-age", "1m", "-o", "json"]);
    assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));
    let doc = json(&out);
    assert_eq!(doc["queues"][0]["oldest"]["kind"], "unknown");
    assert!(
        stderr(&out).contains("--spend-delivery-budget"),
        "{}",
        stderr(&out)
    );
    let out = check(&[
        &q,
        "--max-age",
        "1m",
        "--spend-delivery-budget",
        "-o",
        "json",
    ]);
    assert_eq!(out.status.code(), Some(1), "{}", stderr(&out));
    let doc = json(&out);
    assert_eq!(doc["queues"][0]["oldest"]["since"], "death");
    assert!(
        doc["queues"][0]["oldest"]["seconds"]
            .as_u64()
            .expect("seconds")
            >= 120
    );
    // A filter needs the scan, which a quorum q.dead gets only with the flag.
    let out = check(&[&q, "--max-count", "0", "--body-contains", "two"]);
    assert_eq!(out.status.code(), Some(2), "{}", stderr(&out));
    assert_eq!(broker.count(&dead), 1);
}

#[test]
fn prometheus_output_parses_with_labels_escaped() {
    let broker = Broker::connect();
    let app = App::<14>::new(&broker, "prom");
    app.make_dead_letters();
    let q = app.q;
    let vhost = broker.vhost.clone();
    let (mut cmd, _dir) = queuey();
    let out = cmd
        .args(["status", q, "--scan", "-o", "prometheus"])
        .output()
        .expect("queuey runs");
    assert!(out.status.success(), "{}", stderr(&out));
    let m = metrics(&String::from_utf8_lossy(&out.stdout));
    let at = |family: &str, extra: &[(&str, &str)]| {
        let mut l = vec![("vhost", vhost.as_str()), ("queue", q)];
        l.extend_from_slice(extra);
        m.get(&(family.to_owned(), labels(&l))).copied()
    };
    assert_eq!(
        at("queuey_dead_letters", &[]),
        Some(f64::from(DEAD_LETTERS))
    );
    assert_eq!(at("queuey_queue_messages", &[]), Some(0.0));
    assert_eq!(at("queuey_drift", &[]), Some(0.0));
    // The deferral's hold queue, and the retries' until its x-expires (2 s) deletes it.
    let holds = at("queuey_hold_queues", &[]).expect("a hold-queue gauge");
    assert!((1.0..=2.0).contains(&holds), "{holds}");
    for cause in ["exhausted", "fatal", "no-handler", "decode", "malformed"] {
        assert_eq!(
            at("queuey_dead_letters_by_cause", &[("cause", cause)]),
            Some(1.0),
            "{cause}"
        );
    }
    // Label values escaped: a queue name with a quote, a backslash and unicode.
    let odd = broker.queue_name("odd\"quote\\back é");
    broker.declare(&format!("{odd}.dead"), lapin::types::FieldTable::default());
    broker.track_queue(&format!("{odd}.dead"));
    broker.publish(&format!("{odd}.dead"), &[b"a", b"b"], None);
    let out = check(&[&odd, "--max-count", "1", "-o", "prometheus"]);
    assert_eq!(out.status.code(), Some(1), "{}", stderr(&out));
    let m = metrics(&String::from_utf8_lossy(&out.stdout));
    let key = |family: &str, extra: &[(&str, &str)]| {
        let mut l = vec![("vhost", vhost.as_str()), ("queue", odd.as_str())];
        l.extend_from_slice(extra);
        (family.to_owned(), labels(&l))
    };
    assert_eq!(
        m.get(&key("queuey_dead_letters", &[])),
        Some(&2.0),
        "{m:#?}"
    );
    assert_eq!(
        m.get(&key(
            "queuey_dead_check_crossed",
            &[("threshold", "max-count")]
        )),
        Some(&1.0)
    );
    assert_eq!(
        m.get(&key(
            "queuey_dead_check_limit",
            &[("threshold", "max-count")]
        )),
        Some(&1.0)
    );
    // Only status and dead check speak it.
    let (mut cmd, _dir) = queuey();
    let out = cmd
        .args(["dead", "ls", q, "-o", "prometheus"])
        .output()
        .expect("queuey runs");
    assert_eq!(out.status.code(), Some(2));
}
