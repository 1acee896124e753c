//! `dead check` (thresholds, exit 0/1) and `-o prometheus` (`status`, `dead check`), on the
//! real dead letters of an application and on queues made by hand; the exposition is read back
//! by a parser of the Prometheus text format (`openmetrics-parser`), never by string matching.

use std::collections::BTreeMap;
use std::time::{Duration, Instant};

use queuey_core::Envelope;

use crate::common::app::{App, DEAD_LETTERS, Doomed, FATAL_WHY, MALFORMED_BODY, Mode};
use crate::common::{Broker, Queuey, Run, eventually, json, run, stderr, wait_until};

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

#[test]
fn dead_check_exits_1_on_each_crossed_threshold_and_0_otherwise() {
    let broker = Broker::connect();
    let app = App::<13>::new(&broker, "check");
    app.make_dead_letters();
    let q = app.q;
    let n = DEAD_LETTERS.to_string();
    let below = (DEAD_LETTERS - 1).to_string();

    // Count: holds at the limit, crossed above it; the JSON names threshold, value and limit.
    let out = run(&["dead", "check", q, "--max-count", &n, "-o", "json"]);
    assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));
    let out = run(&["dead", "check", q, "--max-count", &below, "-o", "json"]);
    assert_eq!(out.status.code(), Some(1), "{}", stderr(&out));
    let doc = json(&out);
    assert_eq!(doc["crossed"], true);
    let v = &doc["queues"][0]["verdicts"][0];
    assert_eq!(v["threshold"], "max-count");
    assert_eq!(v["value"], f64::from(DEAD_LETTERS));
    assert_eq!(v["limit"], f64::from(DEAD_LETTERS - 1));
    assert_eq!(v["crossed"], true);
    let table = run(&["dead", "check", q, "--max-count", &below]);
    assert_eq!(table.status.code(), Some(1));
    let text = table.stdout.as_str();
    assert!(
        text.contains("CROSSED") && text.contains("max-count"),
        "{text}"
    );

    // Age: the oldest of every dead letter (a whole peek, each returned in place). The four
    // jobs are aged from their enqueue; the malformed body has no time at all, so the oldest
    // is known only from below: enough to cross a limit, never to hold one.
    let before = broker.bodies(&app.dead);
    let first_enqueued = before
        .iter()
        .filter_map(|b| serde_json::from_str::<serde_json::Value>(b).ok())
        .filter_map(|doc| doc["enqueued_at_ms"].as_u64())
        .min()
        .expect("the jobs' envelopes say when they were enqueued");
    // The oldest job at least 2 s old (its retries alone take that long: mostly no wait).
    wait_until(
        "the oldest job to be 2 s old",
        Duration::from_secs(10),
        || epoch_ms_ago(Duration::ZERO) >= first_enqueued + 2_000,
    );
    let out = run(&["dead", "check", q, "--max-age", "1s", "-o", "json"]);
    assert_eq!(out.status.code(), Some(1), "{}", stderr(&out));
    let doc = json(&out);
    let oldest = &doc["queues"][0]["oldest"];
    assert_eq!(oldest["kind"], "at-least", "{doc:#}");
    assert_eq!(
        oldest["since"], "enqueued",
        "an application's dead letter has no death time"
    );
    assert!(oldest["seconds"].as_u64().expect("seconds") >= 2);
    let out = run(&["dead", "check", q, "--max-age", "1h"]);
    assert_eq!(
        out.status.code(),
        Some(11),
        "the malformed body may be older than 1h: unknown, not ok: {}",
        stderr(&out)
    );
    let out = run(&["dead", "check", q, "--max-age", "1h", "--older-than", "0s"]);
    assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));
    assert_eq!(
        broker.bodies(&app.dead),
        before,
        "the peeks changed nothing"
    );

    // With a filter, a scan: the oldest match (every job has an envelope) and its count.
    let out = run(&[
        "dead",
        "check",
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
        let out = run(&["dead", "check", q, "--max-rate", "1", "-o", "json"]);
        if out.status.code() == Some(1) {
            let v = &json(&out)["queues"][0]["verdicts"][0];
            assert_eq!(v["threshold"], "max-rate");
            assert!(v["value"].as_f64().expect("a rate") > 1.0, "{v}");
            last = None;
            break;
        }
        // 11 while the management API has no statistics for q.dead yet.
        assert!(
            matches!(out.status.code(), Some(0 | 11)),
            "{}",
            stderr(&out)
        );
        last = Some(json(&out));
    }
    assert!(last.is_none(), "the rate never crossed 1/s: {last:#?}");
    let out = run(&["dead", "check", q, "--max-rate", "100000"]);
    assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));

    // No threshold, a missing queue: errors, not verdicts.
    assert_eq!(run(&["dead", "check", q]).status.code(), Some(2));
    assert_eq!(
        run(&["dead", "check", "qy-no-such-queue", "--max-count", "1"])
            .status
            .code(),
        Some(7)
    );
}

/// Dead letters another consumer holds unacknowledged are still in q.dead, though a passive
/// declare counts only the ready ones and a peek cannot read them: `--max-count` counts them by
/// the management API's statistics, and while it cannot (no API, or statistics not yet
/// counting them) the count is a lower bound, enough to say "crossed", never "holds" (exit 11,
/// no `queuey_dead_letters` sample). With filters, those not read may match: the count holds
/// only if it would with all of them. The same on 3.10 and 4.3.
#[test]
fn max_count_counts_the_dead_letters_another_consumer_holds() {
    let broker = Broker::connect();
    let q = broker.queue_name("check-held");
    let dead = format!("{q}.dead");
    broker.declare(&dead, lapin::types::FieldTable::default());
    broker.publish(&dead, &[b"x1", b"x2", b"x3", b"x4", b"x5"], None);
    broker.wait_for_count(&dead, 5);
    // Another tool takes 3 and holds them.
    let ch = broker.channel();
    broker
        .rt
        .block_on(ch.basic_qos(3, lapin::options::BasicQosOptions::default()))
        .expect("basic.qos");
    let _consumer = broker
        .rt
        .block_on(ch.basic_consume(
            dead.as_str().into(),
            "another-tool".into(),
            lapin::options::BasicConsumeOptions::default(),
            lapin::types::FieldTable::default(),
        ))
        .expect("basic.consume");
    broker.wait_for_count(&dead, 2);
    let verdict = |out: &Run| json(out)["queues"][0]["verdicts"][0].clone();

    // Without the management API nothing says how many it holds: 2 ready is a lower bound.
    let no_api = |args: &[&str]| {
        let mut args = args.to_vec();
        args.extend(["--api-url", "http://127.0.0.1:1"]);
        Queuey::new().args(["dead", "check"]).args(&args).run()
    };
    let out = no_api(&[&q, "--max-count", "4", "-o", "json"]);
    assert_eq!(out.status.code(), Some(11), "{}", stderr(&out));
    let v = verdict(&out);
    assert_eq!(
        (v["unknown"].clone(), v["value"].clone()),
        (true.into(), serde_json::Value::Null),
        "{v}"
    );
    assert!(
        stderr(&out).contains("other consumers hold dead letters unacknowledged"),
        "{}",
        stderr(&out)
    );
    assert_eq!(json(&out)["queues"][0]["count_exact"], false);
    assert_eq!(json(&out)["queues"][0]["held_elsewhere"]["consumers"], 1);
    let out = no_api(&[&q, "--max-count", "1"]);
    assert_eq!(
        out.status.code(),
        Some(1),
        "2 ready already cross 1: {}",
        stderr(&out)
    );
    let out = no_api(&[&q, "--max-count", "4", "-o", "prometheus"]);
    assert_eq!(out.status.code(), Some(11), "{}", stderr(&out));
    let m = metrics(&out.stdout);
    assert!(
        !m.keys().any(|(name, _)| name == "queuey_dead_letters"),
        "a lower bound is no sample: {m:?}"
    );

    // The API's statistics count what it holds (seconds later).
    eventually(
        "the API to count 3 unacknowledged",
        Duration::from_secs(30),
        || (broker.api_queue(&dead)?["messages_unacknowledged"] == 3).then_some(()),
    );
    let out = run(&["dead", "check", &q, "--max-count", "4", "-o", "json"]);
    assert_eq!(
        out.status.code(),
        Some(1),
        "5 dead letters: {}",
        stderr(&out)
    );
    let v = verdict(&out);
    assert_eq!(v["value"], 5.0, "{v}");
    assert!(
        v["note"]
            .as_str()
            .is_some_and(|n| n.starts_with("including 3 dead letters held unacknowledged")),
        "{v}"
    );
    let doc = json(&out);
    assert_eq!(doc["queues"][0]["held_elsewhere"]["messages"], 3, "{doc}");
    assert_eq!(doc["queues"][0]["count_exact"], true, "{doc}");
    assert_eq!(
        run(&["dead", "check", &q, "--max-count", "5"])
            .status
            .code(),
        Some(0)
    );
    let out = run(&["dead", "check", &q, "--max-count", "4", "-o", "prometheus"]);
    let m = metrics(&out.stdout);
    assert_eq!(
        m.get(&(
            "queuey_dead_letters".to_owned(),
            labels(&[("vhost", broker.vhost.as_str()), ("queue", &q)])
        )),
        Some(&5.0),
        "{m:?}"
    );

    // `status` counts them too: every dead letter in q.dead.
    let out = Queuey::new().args(["status", &q, "-o", "prometheus"]).run();
    assert!(out.status.success(), "{}", stderr(&out));
    let m = metrics(&out.stdout);
    assert_eq!(
        m.get(&(
            "queuey_dead_letters".to_owned(),
            labels(&[("vhost", broker.vhost.as_str()), ("queue", &q)])
        )),
        Some(&5.0),
        "{m:?}"
    );

    // With filters: 2 read and matching, 3 not read, which may match.
    let filtered = |max: &str| {
        run(&[
            "dead",
            "check",
            &q,
            "--max-count",
            max,
            "--body-contains",
            "x",
            "-o",
            "json",
        ])
    };
    let out = filtered("4");
    assert_eq!(out.status.code(), Some(11), "{}", stderr(&out));
    assert!(
        verdict(&out)["note"].as_str().is_some_and(|n| n
            .contains("3 more dead letters held unacknowledged by other consumers were not read")),
        "{}",
        verdict(&out)
    );
    assert_eq!(
        filtered("5").status.code(),
        Some(0),
        "all 5 matching would still hold 5"
    );
    assert_eq!(filtered("1").status.code(), Some(1), "2 matches cross 1");

    // Let go: every dead letter is ready again, and counted exactly.
    broker
        .rt
        .block_on(ch.close(200, "done".into()))
        .expect("channel closed");
    broker.wait_for_count(&dead, 5);
    let out = run(&["dead", "check", &q, "--max-count", "4", "-o", "json"]);
    assert_eq!(out.status.code(), Some(1), "{}", stderr(&out));
    assert_eq!(verdict(&out)["value"], 5.0);
    assert_eq!(verdict(&out)["note"], serde_json::Value::Null);
}

/// A quorum q.dead declared without a delivery limit: on RabbitMQ 3.x it has none, a peek
/// costs its messages nothing, and `dead check --max-age` reads it as `dead ls` does, with no
/// flag; from 4.0 it has the default limit of 20, and is peeked only with the flag.
#[test]
fn a_quorum_dead_queue_without_a_delivery_limit_is_peeked_as_the_version_allows() {
    let broker = Broker::connect();
    let q = broker.queue_name("check-quorum-nolimit");
    let dead = format!("{q}.dead");
    broker.declare(
        &dead,
        crate::common::table(vec![("x-queue-type", crate::common::long_str("quorum"))]),
    );
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
    let out = run(&["dead", "check", &q, "--max-age", "1m", "-o", "json"]);
    let doc = json(&out);
    if broker.rabbitmq_version() >= (4, 0) {
        assert_eq!(out.status.code(), Some(11), "{}", stderr(&out));
        assert_eq!(doc["queues"][0]["oldest"]["kind"], "unknown", "{doc}");
    } else {
        assert_eq!(out.status.code(), Some(1), "{}", stderr(&out));
        assert_eq!(doc["queues"][0]["oldest"]["kind"], "known", "{doc}");
        assert_eq!(doc["queues"][0]["oldest"]["since"], "death", "{doc}");
    }
    assert_eq!(broker.count(&dead), 1);
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
    let out = run(&["dead", "check", &q, "--max-age", "1m", "-o", "json"]);
    assert_eq!(
        out.status.code(),
        Some(11),
        "not peeked, not judged: {}",
        stderr(&out)
    );
    let doc = json(&out);
    assert_eq!(doc["queues"][0]["oldest"]["kind"], "unknown");
    // Why, as true on this version, and as `dead ls` says it: before 4.3 every peek spends a
    // delivery of what it reads (dead ls refuses without the flag); from 4.3 a peek spends
    // none (dead ls reads, and says so), only a crash mid-peek does, which a check run every
    // few minutes would risk each time.
    let why = stderr(&out);
    assert!(why.contains("--spend-delivery-budget"), "{why}");
    let ls = Queuey::new().args(["dead", "ls", &q]).run();
    if broker.rabbitmq_version() >= (4, 3) {
        assert!(
            why.contains("a peek spends no delivery")
                && why.contains("killed or loses its connection"),
            "{why}"
        );
        assert_eq!(ls.status.code(), Some(0), "{}", stderr(&ls));
        assert!(
            stderr(&ls).contains("this look spends no delivery"),
            "{}",
            stderr(&ls)
        );
    } else {
        assert!(
            why.contains("a peek spends one delivery of every message it reads")
                && !why.contains("no delivery"),
            "{why}"
        );
        assert_eq!(ls.status.code(), Some(2), "{}", stderr(&ls));
        assert!(
            stderr(&ls).contains("every peek spends one delivery of every message it reads"),
            "{}",
            stderr(&ls)
        );
    }
    let out = run(&[
        "dead",
        "check",
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
    let out = run(&[
        "dead",
        "check",
        &q,
        "--max-count",
        "0",
        "--body-contains",
        "two",
    ]);
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
    let out = Queuey::new()
        .args(["status", q, "--scan", "-o", "prometheus"])
        .run();
    assert!(out.status.success(), "{}", stderr(&out));
    let m = metrics(&out.stdout);
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
    let out = run(&[
        "dead",
        "check",
        &odd,
        "--max-count",
        "1",
        "-o",
        "prometheus",
    ]);
    assert_eq!(out.status.code(), Some(1), "{}", stderr(&out));
    let m = metrics(&out.stdout);
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
    let out = Queuey::new()
        .args(["dead", "ls", q, "-o", "prometheus"])
        .run();
    assert_eq!(out.status.code(), Some(2));
}

/// Milliseconds since the Unix epoch, `ago` back.
fn epoch_ms_ago(ago: Duration) -> u64 {
    let now = std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .expect("the clock");
    u64::try_from(now.saturating_sub(ago).as_millis()).expect("milliseconds fit")
}

const TWO_DAYS: Duration = Duration::from_secs(2 * 86_400);

/// The application's worker dead-letters each of `steps` in turn: it runs one step, waits until
/// `q.dead` holds one more dead letter, then runs the next, so that they lie in q.dead in this
/// order (the library writes them: headers, body, no death time).
fn dead_letter_in_order<const S: usize>(app: &App<'_, S>, steps: &[&dyn Fn()]) {
    app.declare();
    let worker = app.start(Mode::Normal);
    for (i, step) in steps.iter().enumerate() {
        step();
        let want = u32::try_from(i + 1).expect("a few");
        worker.until(
            &format!("{want} dead letters in {}", app.dead),
            Duration::from_secs(30),
            |_| app.count(&app.dead) == Some(want),
        );
    }
    worker.stop();
}

/// A job of the application enqueued `ago` back (its envelope's `enqueued_at_ms`), published
/// to `q` through the library; it fails fatally, and the worker dead-letters it.
fn doomed_enqueued_ago<const S: usize>(app: &App<'_, S>, ago: Duration) -> String {
    let mut envelope = Envelope::new(&Doomed::<S> {
        why: FATAL_WHY.to_owned(),
    })
    .expect("an envelope");
    envelope.enqueued_at_ms = epoch_ms_ago(ago);
    app.publish_envelope(&envelope);
    envelope.job_id.to_string()
}

/// The `max-age` verdict of the first queue of a check's JSON.
fn age_verdict(doc: &serde_json::Value) -> serde_json::Value {
    doc["queues"][0]["verdicts"]
        .as_array()
        .and_then(|v| v.iter().find(|v| v["threshold"] == "max-age"))
        .cloned()
        .unwrap_or_else(|| panic!("no max-age verdict in {doc:#}"))
}

/// The gauges of `dead check -o prometheus` for `q`: (family, threshold label or "") -> value.
fn gauges(out: &Run, vhost: &str, q: &str) -> BTreeMap<(String, String), f64> {
    metrics(&out.stdout)
        .into_iter()
        .filter(|((_, l), _)| l.get("vhost").map(String::as_str) == Some(vhost))
        .filter(|((_, l), _)| l.get("queue").map(String::as_str) == Some(q))
        .map(|((name, l), v)| (name, l.get("threshold").cloned().unwrap_or_default(), v))
        .map(|(name, t, v)| ((name, t), v))
        .collect()
}

#[test]
fn the_age_gate_sees_an_old_dead_letter_behind_a_young_head() {
    let broker = Broker::connect();
    let app = App::<20>::new(&broker, "age-behind");
    let q = app.q;
    // Head: a job enqueued now. Behind it: a job enqueued two days ago that died after it (a
    // job that retried or deferred for days does).
    let young = std::cell::RefCell::new(String::new());
    let old = std::cell::RefCell::new(String::new());
    dead_letter_in_order(
        &app,
        &[
            &|| *young.borrow_mut() = doomed_enqueued_ago(&app, Duration::ZERO),
            &|| *old.borrow_mut() = doomed_enqueued_ago(&app, TWO_DAYS),
        ],
    );
    let before = broker.ids(&app.dead);
    assert_eq!(
        before,
        [young.take(), old.take()],
        "the young one is the head"
    );

    let out = run(&["dead", "check", q, "--max-age", "1h", "-o", "json"]);
    assert_eq!(out.status.code(), Some(1), "{}", stderr(&out));
    let doc = json(&out);
    let oldest = &doc["queues"][0]["oldest"];
    assert_eq!(oldest["kind"], "known", "{doc:#}");
    assert_eq!(oldest["since"], "enqueued");
    let seconds = oldest["seconds"].as_u64().expect("seconds");
    assert!(seconds >= TWO_DAYS.as_secs(), "{doc:#}");
    let v = age_verdict(&doc);
    assert_eq!(v["crossed"], true, "{v}");
    assert_eq!(v["value"].as_f64(), Some(seconds as f64));
    let table = run(&["dead", "check", q, "--max-age", "1h"]);
    assert_eq!(table.status.code(), Some(1), "{}", stderr(&table));
    let text = table.stdout.as_str();
    assert!(text.contains("CROSSED") && text.contains("2d"), "{text}");
    // Holds at a limit above the oldest.
    let out = run(&["dead", "check", q, "--max-age", "3d"]);
    assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));

    // status reads no dead letter without --scan: no age gauge (a scrape stays a listing);
    // with it, the gauge is the oldest too.
    let status = |args: &[&str]| {
        let out = Queuey::new()
            .args(["status", q, "-o", "prometheus"])
            .args(args)
            .run();
        assert!(out.status.success(), "{}", stderr(&out));
        gauges(&out, &broker.vhost, q)
    };
    let g = status(&[]);
    assert!(
        !g.keys()
            .any(|(family, _)| family.starts_with("queuey_dead_letter_oldest_age")),
        "{g:#?}"
    );
    let g = status(&["--scan"]);
    let age = g
        .get(&(
            "queuey_dead_letter_oldest_age_seconds".to_owned(),
            String::new(),
        ))
        .copied();
    assert!(
        age.is_some_and(|a| a >= TWO_DAYS.as_secs_f64()),
        "{age:?} in {g:#?}"
    );
    assert_eq!(
        g.get(&(
            "queuey_dead_letter_oldest_age_at_least_seconds".to_owned(),
            String::new()
        ))
        .copied(),
        age,
        "exact, so the lower bound is the same"
    );
    assert_eq!(
        broker.ids(&app.dead),
        before,
        "every look returned them in place"
    );
}

#[test]
fn a_dead_letter_without_a_time_at_the_head_never_makes_the_age_gate_hold() {
    let broker = Broker::connect();
    let app = App::<21>::new(&broker, "age-timeless");
    let q = app.q;
    let vhost = broker.vhost.clone();
    // Head: a body that is not an envelope, which the library dead-letters as it was ("malformed
    // envelope": no x-death, no timestamp, no envelope). Behind it: a job enqueued two days ago.
    dead_letter_in_order(
        &app,
        &[&|| app.publish_raw(MALFORMED_BODY), &|| {
            doomed_enqueued_ago(&app, TWO_DAYS);
        }],
    );
    let before = broker.bodies(&app.dead);
    assert_eq!(before[0].as_bytes(), MALFORMED_BODY, "the head has no time");

    // What is behind it is older than the limit: crossed, whatever the head's age.
    let out = run(&["dead", "check", q, "--max-age", "1h", "-o", "json"]);
    assert_eq!(out.status.code(), Some(1), "{}", stderr(&out));
    let doc = json(&out);
    let oldest = &doc["queues"][0]["oldest"];
    assert_eq!(oldest["kind"], "at-least", "{doc:#}");
    assert!(oldest["seconds"].as_u64().expect("seconds") >= TWO_DAYS.as_secs());
    assert_eq!(age_verdict(&doc)["crossed"], true);
    let out = run(&["dead", "check", q, "--max-age", "1h", "-o", "prometheus"]);
    assert_eq!(out.status.code(), Some(1), "{}", stderr(&out));
    let g = gauges(&out, &vhost, q);
    let at = |family: &str| g.get(&(family.to_owned(), "max-age".to_owned())).copied();
    assert_eq!(at("queuey_dead_check_crossed"), Some(1.0), "{g:#?}");
    assert_eq!(at("queuey_dead_check_unknown"), Some(0.0), "{g:#?}");

    // Below the limit: the head may be older than it, or not. Not "holds" (0), not "crossed"
    // (1): unknown, exit 11, and why.
    let out = run(&["dead", "check", q, "--max-age", "3d", "-o", "json"]);
    assert_eq!(out.status.code(), Some(11), "{}", stderr(&out));
    let doc = json(&out);
    let v = age_verdict(&doc);
    assert_eq!(
        (v["crossed"].clone(), v["unknown"].clone()),
        (false.into(), true.into()),
        "{v}"
    );
    assert_eq!(v["value"], serde_json::Value::Null);
    assert!(
        stderr(&out).contains("1 dead letter has no time"),
        "{}",
        stderr(&out)
    );
    assert_eq!(doc["crossed"], false);
    assert_eq!(doc["unknown"], true);
    let table = run(&["dead", "check", q, "--max-age", "3d"]);
    assert_eq!(table.status.code(), Some(11));
    let text = table.stdout.as_str();
    assert!(
        text.contains("UNKNOWN") && !text.contains("every threshold holds"),
        "{text}"
    );
    let out = run(&["dead", "check", q, "--max-age", "3d", "-o", "prometheus"]);
    assert_eq!(out.status.code(), Some(11), "{}", stderr(&out));
    let g = gauges(&out, &vhost, q);
    let at = |family: &str| g.get(&(family.to_owned(), "max-age".to_owned())).copied();
    assert_eq!(
        at("queuey_dead_check_crossed"),
        None,
        "no made-up 0: {g:#?}"
    );
    assert_eq!(at("queuey_dead_check_unknown"), Some(1.0), "{g:#?}");
    assert_eq!(at("queuey_dead_check_limit"), Some(3.0 * 86_400.0));
    let any = |family: &str| g.get(&(family.to_owned(), String::new())).copied();
    assert_eq!(
        any("queuey_dead_letter_oldest_age_seconds"),
        None,
        "a lower bound is no oldest age: {g:#?}"
    );
    assert!(
        any("queuey_dead_letter_oldest_age_at_least_seconds")
            .is_some_and(|a| a >= TWO_DAYS.as_secs_f64()),
        "{g:#?}"
    );

    // Judged on the dead letters with an age only, as a filter: holds.
    let out = run(&["dead", "check", q, "--max-age", "3d", "--older-than", "0s"]);
    assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));

    // The one without a time is named: its position, message id (none) and why.
    let out = run(&["dead", "check", q, "--max-age", "3d", "-o", "json"]);
    let untimed = json(&out)["queues"][0]["untimed"].clone();
    assert_eq!(
        (
            &untimed["count"],
            &untimed["rule"],
            &untimed["dead_letters"][0]["position"]
        ),
        (&1.into(), &"unknown".into(), &1.into()),
        "{untimed:#}"
    );
    let why = untimed["dead_letters"][0]["why"]
        .as_str()
        .unwrap_or_default();
    assert!(why.starts_with("the body is not JSON, no x-death"), "{why}");
    // --untimed ignore: the others judged alone, and it holds (0), the untimed one still named.
    let out = run(&[
        "dead",
        "check",
        q,
        "--max-age",
        "3d",
        "--untimed",
        "ignore",
        "-o",
        "json",
    ]);
    assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));
    let v = age_verdict(&json(&out));
    assert_eq!(
        (&v["crossed"], &v["unknown"]),
        (&false.into(), &false.into()),
        "{v}"
    );
    assert!(
        v["value"]
            .as_f64()
            .is_some_and(|a| a >= TWO_DAYS.as_secs_f64()),
        "{v}"
    );
    assert!(
        v["note"]
            .as_str()
            .unwrap_or_default()
            .contains("position 1"),
        "{v}"
    );
    // ... and still crosses on the others.
    let out = run(&["dead", "check", q, "--max-age", "1h", "--untimed", "ignore"]);
    assert_eq!(out.status.code(), Some(1), "{}", stderr(&out));
    // --untimed fail: crossed while it is there (1), said in the gauges too.
    let out = run(&[
        "dead",
        "check",
        q,
        "--max-age",
        "3d",
        "--untimed",
        "fail",
        "-o",
        "prometheus",
    ]);
    assert_eq!(out.status.code(), Some(1), "{}", stderr(&out));
    let g = gauges(&out, &vhost, q);
    let at = |family: &str| g.get(&(family.to_owned(), "max-age".to_owned())).copied();
    assert_eq!(at("queuey_dead_check_crossed"), Some(1.0), "{g:#?}");
    assert_eq!(
        g.get(&("queuey_dead_letters_untimed".to_owned(), String::new()))
            .copied(),
        Some(1.0),
        "{g:#?}"
    );
    assert_eq!(
        broker.bodies(&app.dead),
        before,
        "every look returned them in place"
    );
}

/// A dead letter whose body is not an envelope, stamped by the broker when it reached q.dead
/// (the `timestamp_in_ms` header of RabbitMQ's timestamp interceptor, 3.12 and later, or of
/// the rabbitmq_message_timestamp plugin before), is aged from that stamp: no longer untimed.
#[test]
fn the_brokers_timestamp_header_ages_a_dead_letter_that_is_not_an_envelope() {
    let broker = Broker::connect();
    let q = broker.queue_name("stamped");
    let dead = format!("{q}.dead");
    broker.track_queue(&dead);
    broker.declare(&dead, lapin::types::FieldTable::default());
    let stamp = i64::try_from(epoch_ms_ago(TWO_DAYS)).expect("fits");
    let headers = crate::common::table(vec![(
        "timestamp_in_ms",
        lapin::types::AMQPValue::LongLongInt(stamp),
    )]);
    broker.publish(&dead, &[MALFORMED_BODY], Some(headers));
    broker.wait_for_count(&dead, 1);
    let out = run(&["dead", "check", &q, "--max-age", "1h", "-o", "json"]);
    assert_eq!(out.status.code(), Some(1), "{}", stderr(&out));
    let doc = json(&out);
    let oldest = &doc["queues"][0]["oldest"];
    assert_eq!(
        (&oldest["kind"], &oldest["since"]),
        (&"known".into(), &"death".into()),
        "{doc:#}"
    );
    assert!(
        oldest["seconds"]
            .as_u64()
            .is_some_and(|s| s >= TWO_DAYS.as_secs()),
        "{doc:#}"
    );
    assert_eq!(doc["queues"][0]["untimed"]["count"], 0, "{doc:#}");
    let out = run(&["dead", "check", &q, "--max-age", "3d"]);
    assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));
}

/// `status -o prometheus` agrees with `verify`, on 3.10.8 and 4.3.6 alike (the rule is the
/// same on both): `queuey_drift` is 1 exactly when `verify` exits 1, a queue missing and a
/// declaration the broker refuses included (they used to read 0: an alert on the drift gauge
/// stayed silent for the two worst states), and `queuey_queue_exists` /
/// `queuey_dead_letter_queue_exists` say which queue is gone, where the depth gauges have no
/// sample. `status` itself still exits 0: it reports, and a scrape wrapper that stops on a
/// failing exit would freeze the last gauges.
#[test]
fn prometheus_drift_is_1_for_a_missing_or_refused_queue_as_verify_exits_1() {
    let admin = Broker::connect();
    let test: lapin::uri::AMQPUri = crate::common::test_url().parse().unwrap();
    let (user, password) = (
        test.authority.userinfo.username.clone(),
        test.authority.userinfo.password.clone(),
    );
    // (url, queue, extra flags) -> (status gauges, verify's exit code)
    let look = |url: &str, vhost: &str, q: &str, extra: &[&str]| {
        let out = Queuey::new()
            .env("QUEUEY_URL", url)
            .args(["status", q, "-o", "prometheus"])
            .args(extra)
            .run();
        assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));
        let g = gauges(&out, vhost, q);
        let verify = Queuey::new()
            .env("QUEUEY_URL", url)
            .args(["verify", q])
            .args(extra)
            .run();
        (g, verify.status.code())
    };
    let at = |g: &BTreeMap<(String, String), f64>, family: &str| {
        g.get(&(family.to_owned(), String::new())).copied()
    };

    // In sync: drift 0, both queues exist.
    let url = admin.url.clone();
    let q = admin.queue_name("prom-missing");
    admin.track_queue(&format!("{q}.dead"));
    let out = crate::common::run(&["declare", &q, "--allow-unlisted"]);
    assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));
    let (g, verify) = look(&url, &admin.vhost, &q, &[]);
    assert_eq!(verify, Some(0));
    assert_eq!(at(&g, "queuey_drift"), Some(0.0), "{g:#?}");
    assert_eq!(at(&g, "queuey_queue_exists"), Some(1.0), "{g:#?}");
    assert_eq!(
        at(&g, "queuey_dead_letter_queue_exists"),
        Some(1.0),
        "{g:#?}"
    );
    assert_eq!(at(&g, "queuey_dead_letters"), Some(0.0), "{g:#?}");
    // Without the management API nothing says whether the arguments are in sync: no drift
    // sample (never a made-up 0), the existence gauges still there.
    let off = ["--api-url", "http://127.0.0.1:1"];
    let (g, _) = look(&url, &admin.vhost, &q, &off);
    assert_eq!(at(&g, "queuey_drift"), None, "{g:#?}");
    assert_eq!(at(&g, "queuey_queue_exists"), Some(1.0), "{g:#?}");

    // q.dead deleted: verify exits 1, the drift gauge says 1, and which queue is gone.
    admin.delete_queue(&format!("{q}.dead"));
    let (g, verify) = look(&url, &admin.vhost, &q, &[]);
    assert_eq!(verify, Some(1));
    assert_eq!(at(&g, "queuey_drift"), Some(1.0), "{g:#?}");
    assert_eq!(at(&g, "queuey_queue_exists"), Some(1.0), "{g:#?}");
    assert_eq!(
        at(&g, "queuey_dead_letter_queue_exists"),
        Some(0.0),
        "{g:#?}"
    );
    assert_eq!(at(&g, "queuey_dead_letters"), None, "no made-up 0: {g:#?}");

    // Both gone.
    admin.delete_queue(&q);
    let (g, verify) = look(&url, &admin.vhost, &q, &[]);
    assert_eq!(verify, Some(1));
    assert_eq!(at(&g, "queuey_drift"), Some(1.0), "{g:#?}");
    assert_eq!(at(&g, "queuey_queue_exists"), Some(0.0), "{g:#?}");
    assert_eq!(
        at(&g, "queuey_dead_letter_queue_exists"),
        Some(0.0),
        "{g:#?}"
    );
    assert_eq!(at(&g, "queuey_queue_messages"), None, "{g:#?}");
    // Missing is known without the API too (a passive declare).
    let (g, _) = look(&url, &admin.vhost, &q, &off);
    assert_eq!(at(&g, "queuey_drift"), Some(1.0), "{g:#?}");
    assert_eq!(at(&g, "queuey_queue_exists"), Some(0.0), "{g:#?}");

    // A vhost whose default queue type is quorum, and an application with priorities off:
    // its queues exist as quorum queues, and queuey's default q (10 priorities) is refused
    // there. verify exits 1, and the drift gauge says so.
    let vhost = crate::common::unique("prom-refused");
    admin.create_vhost_with_default_type(&vhost, "quorum");
    admin.grant(&user, &vhost);
    let url = crate::common::url_for(&vhost, &user, &password);
    let q = "prom-refused";
    let out = Queuey::new()
        .env("QUEUEY_URL", &url)
        .args(["declare", q, "--allow-unlisted", "--max-priority", "0"])
        .run();
    assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));
    let (g, verify) = look(&url, &vhost, q, &["--max-priority", "0"]);
    assert_eq!(verify, Some(0));
    assert_eq!(at(&g, "queuey_drift"), Some(0.0), "{g:#?}");
    let (g, verify) = look(&url, &vhost, q, &[]);
    assert_eq!(verify, Some(1), "refused as computed");
    assert_eq!(at(&g, "queuey_drift"), Some(1.0), "{g:#?}");
    assert_eq!(at(&g, "queuey_queue_exists"), Some(1.0), "{g:#?}");
    assert_eq!(
        at(&g, "queuey_dead_letter_queue_exists"),
        Some(1.0),
        "{g:#?}"
    );
    assert_eq!(at(&g, "queuey_queue_messages"), Some(0.0), "{g:#?}");
    // The queues live in the vhost, which the guard deletes.
}
