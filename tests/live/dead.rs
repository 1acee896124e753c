//! `dead ls`, `dead show` and `dead export` against real dead letters on the real broker.
//! After every peek the dead-letter queue must hold the same messages in the same order.

use std::fs;
use std::time::Duration;

use crate::common::{
    Broker, Queuey, code, dead_letters, json, long_str, run, stderr, stdout, table,
};
use base64::Engine as _;
use lapin::BasicProperties;
use lapin::types::{AMQPValue, ByteArray, DecimalValue, FieldArray, FieldTable};
use serde_json::Value as Json;

fn dlx_to(dead: &str) -> Vec<(&'static str, AMQPValue)> {
    vec![
        ("x-dead-letter-exchange", long_str("")),
        ("x-dead-letter-routing-key", long_str(dead)),
    ]
}

fn with_id(id: &str) -> BasicProperties {
    BasicProperties::default()
        .with_message_id(id.into())
        .with_delivery_mode(2)
}

fn ids(doc: &Json) -> Vec<String> {
    doc["messages"]
        .as_array()
        .expect("messages")
        .iter()
        .map(|m| m["message_id"].as_str().unwrap_or("").to_owned())
        .collect()
}

#[test]
fn ls_reads_real_dead_letters_of_every_kind_and_changes_nothing() {
    let broker = Broker::connect();
    let q = broker.queue_name("orders");
    let dead = format!("{q}.dead");
    broker.track_queue(&dead);
    broker.declare(&dead, FieldTable::default());
    broker.declare(&q, table(dlx_to(&dead)));

    // 1. rejected with requeue=false
    broker.publish_props(&q, b"{\"n\":1}", with_id("m-rej-1"));
    broker.publish_props(&q, b"{\"n\":2}", with_id("m-rej-2"));
    broker.reject(&q, 2, false);
    broker.wait_for_count(&dead, 2);

    // 2. expired by a queue TTL
    let ttlq = broker.queue_name("ttl");
    let mut args = dlx_to(&dead);
    args.push(("x-message-ttl", AMQPValue::LongInt(50)));
    broker.declare(&ttlq, table(args));
    broker.publish_props(&ttlq, b"late", with_id("m-exp"));
    broker.wait_for_count(&dead, 3);

    // 3. pushed out by x-max-length (drop-head: the oldest dies)
    let lenq = broker.queue_name("bounded");
    let mut args = dlx_to(&dead);
    args.push(("x-max-length", AMQPValue::LongInt(1)));
    broker.declare(&lenq, table(args));
    broker.publish_props(&lenq, b"first", with_id("m-len-1"));
    broker.publish_props(&lenq, b"second", with_id("m-len-2"));
    broker.wait_for_count(&dead, 4);

    // 4. past a quorum queue's delivery limit
    let qq = broker.queue_name("quorum");
    let mut args = dlx_to(&dead);
    args.push(("x-queue-type", long_str("quorum")));
    args.push(("x-delivery-limit", AMQPValue::LongInt(1)));
    broker.declare(&qq, table(args));
    broker.publish_props(&qq, b"poison", with_id("m-dl"));
    broker.reject(&qq, 2, true);
    broker.wait_for_count(&dead, 5);

    // 5. waited in a real hold queue, then dead-lettered by an application with the queuey
    //    library's headers, here carrying the broker's x-death along (the library itself
    //    publishes fresh headers: the `app` module has those).
    let hold = format!("{q}.deferred.200");
    broker.track_queue(&hold);
    broker.declare(
        &hold,
        table(vec![
            ("x-message-ttl", AMQPValue::LongLongInt(200)),
            ("x-dead-letter-exchange", long_str("")),
            ("x-dead-letter-routing-key", long_str(&q)),
            ("x-expires", AMQPValue::LongLongInt(400)),
        ]),
    );
    broker.publish_props(&hold, b"retry me", with_id("m-hold"));
    broker.wait_for_count(&q, 1);
    let (body, props) = broker.snapshot(&q).remove(0);
    let mut headers = props.headers().clone().unwrap_or_default();
    headers.insert("x-original-queue".into(), long_str(&q));
    headers.insert("x-death-reason".into(), long_str(EXHAUSTED));
    headers.insert("x-attempts".into(), AMQPValue::LongUInt(3));
    broker.publish_props(&dead, &body, props.with_headers(headers));
    // The original still sits in q (the snapshot returned it): remove it.
    broker
        .rt
        .block_on(broker.api.purge_queue("/", &q))
        .expect("purge");
    broker.wait_for_count(&dead, 6);

    let before = broker.ids(&dead);
    assert_eq!(
        before,
        ["m-rej-1", "m-rej-2", "m-exp", "m-len-1", "m-dl", "m-hold"]
    );

    let out = run(&["dead", "ls", &q, "--limit", "0", "-o", "json"]);
    assert!(out.status.success(), "{}", stderr(&out));
    let doc = json(&out);
    assert_eq!(ids(&doc), before);
    assert_eq!(doc["complete"], true);
    let m = doc["messages"].as_array().unwrap();
    let expect = [
        ("rejected", q.as_str(), "x-death"),
        ("rejected", q.as_str(), "x-death"),
        ("expired", ttlq.as_str(), "x-death"),
        ("maxlen", lenq.as_str(), "x-death"),
        ("delivery_limit", qq.as_str(), "x-death"),
        (EXHAUSTED, q.as_str(), "header"),
    ];
    let causes = [
        "rejected",
        "rejected",
        "expired",
        "maxlen",
        "delivery_limit",
        "exhausted",
    ];
    for (i, (reason, original, from)) in expect.iter().enumerate() {
        assert_eq!(m[i]["reason"], *reason, "message {i}: {}", m[i]);
        assert_eq!(m[i]["cause"], causes[i], "message {i}: {}", m[i]);
        assert_eq!(m[i]["original_queue"], *original, "message {i}");
        assert_eq!(m[i]["original_queue_from"], *from, "message {i}");
        assert_eq!(m[i]["position"], i as u64 + 1);
        assert!(m[i]["problems"].as_array().unwrap().is_empty(), "{}", m[i]);
    }
    // The hold-queue message: queuey's headers, and the broker's x-death for the wait.
    assert_eq!(m[5]["attempts"], 3);
    assert_eq!(m[5]["max_attempts"], 3);
    assert_eq!(m[5]["deaths"][0]["queue"], hold.as_str());
    assert_eq!(m[5]["deaths"][0]["reason"], "expired");
    assert_eq!(m[5]["first_death"]["queue"], hold.as_str());
    assert!(m[0]["age_secs"].as_u64().is_some());

    // Peeking changed nothing: same messages, same order.
    assert_eq!(broker.ids(&dead), before);

    // The table form names the same things.
    let out = run(&["dead", "ls", &q]);
    assert!(out.status.success());
    let text = stdout(&out);
    for needle in [
        "m-rej-1",
        "delivery_limit",
        "maxlen",
        "exhausted",
        "3/3",
        "expired @",
    ] {
        assert!(text.contains(needle), "{needle} missing from\n{text}");
    }
    assert_eq!(broker.ids(&dead), before);
}

/// What a queuey 1.x worker writes when a job's last attempt fails.
const EXHAUSTED: &str = "max attempts (3) exhausted after attempt 3: timeout";

fn queuey_headers(original: &str, reason: &str, attempts: i32) -> FieldTable {
    table(vec![
        ("x-original-queue", long_str(original)),
        ("x-death-reason", long_str(reason)),
        ("x-attempts", AMQPValue::LongInt(attempts)),
    ])
}

#[test]
fn group_by_and_filters_cover_the_whole_queue() {
    let broker = Broker::connect();
    let q = broker.queue_name("billing");
    let dead = format!("{q}.dead");
    broker.declare(&dead, FieldTable::default());
    broker.track_queue(&dead);
    let now = std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .unwrap()
        .as_secs();
    for i in 0..30 {
        let (original, reason, attempts) = if i % 3 == 0 {
            ("a", "timeout", 1)
        } else {
            ("b", "crash", 5)
        };
        let mut h = queuey_headers(original, reason, attempts);
        h.insert(
            "tenant".into(),
            long_str(if i < 10 { "acme" } else { "globex" }),
        );
        // Ten messages "died" two days ago, by their timestamp property.
        let ts = if i < 10 { now - 2 * 86_400 } else { now };
        broker.publish_props(
            &dead,
            format!("body {i}").as_bytes(),
            with_id(&format!("g-{i}"))
                .with_headers(h)
                .with_timestamp(ts),
        );
    }
    let out = run(&[
        "dead",
        "ls",
        &q,
        "--group-by",
        "reason",
        "--group-by",
        "original-queue",
        "-o",
        "json",
    ]);
    assert!(out.status.success(), "{}", stderr(&out));
    let doc = json(&out);
    assert_eq!(doc["scanned"], 30);
    let groups = doc["groups"].as_array().unwrap();
    assert_eq!(groups.len(), 2);
    assert_eq!(
        groups[0]["key"],
        serde_json::json!({"reason": "crash", "original-queue": "b"})
    );
    assert_eq!(groups[0]["count"], 20);
    assert_eq!(groups[1]["count"], 10);

    let count = |args: &[&str]| {
        let mut all = vec![q.as_str(), "--limit", "0", "-o", "json"];
        all.extend_from_slice(args);
        let out = Queuey::new().args(["dead", "ls"]).args(&all).run();
        assert!(out.status.success(), "{args:?}: {}", stderr(&out));
        json(&out)["matched"].as_u64().unwrap()
    };
    assert_eq!(count(&["--reason", "timeout"]), 10);
    assert_eq!(count(&["--reason", "timeout", "--reason", "crash"]), 30);
    assert_eq!(count(&["--original-queue", "b", "--reason", "timeout"]), 0);
    assert_eq!(count(&["--attempts", "2.."]), 20);
    assert_eq!(count(&["--header", "tenant=acme"]), 10);
    assert_eq!(count(&["--older-than", "1d"]), 10);
    assert_eq!(count(&["--newer-than", "1h"]), 20);
    assert_eq!(count(&["--message-id", "g-7", "--message-id", "g-8"]), 2);

    // --limit stops early and says so.
    let out = run(&["dead", "ls", &q, "--limit", "5", "-o", "json"]);
    let doc = json(&out);
    assert_eq!(doc["messages"].as_array().unwrap().len(), 5);
    assert_eq!(doc["complete"], false);
    assert_eq!(broker.message_count(&dead), Some(30));

    let out = run(&["dead", "ls", &q, "--group-by", "colour"]);
    assert_eq!(out.status.code(), Some(2));
}

#[test]
fn show_prints_one_message_whole_and_escaped() {
    let broker = Broker::connect();
    let q = broker.queue_name("show");
    let dead = format!("{q}.dead");
    broker.declare(&dead, FieldTable::default());
    broker.track_queue(&dead);
    let mut h = queuey_headers("show-src", "boom\u{1b}[31m\u{202e}", 2);
    h.insert(
        "nested".into(),
        AMQPValue::FieldArray(FieldArray::from(vec![AMQPValue::LongInt(1)])),
    );
    broker.publish_props(
        &dead,
        b"{\"order\": {\"id\": 7, \"note\": \"\\u001b[2J\"}}",
        with_id("s-1")
            .with_headers(h)
            .with_content_type("application/json".into()),
    );
    broker.publish_props(&dead, &[0u8, 159, 146, 150, 255, b'a'], with_id("s-2"));

    let out = Queuey::new().args(["dead", "show", &q, "1"]).run();
    assert!(out.status.success(), "{}", stderr(&out));
    let text = stdout(&out);
    assert!(
        !text.contains('\u{1b}') && !text.contains('\u{202e}'),
        "raw escapes leaked: {text:?}"
    );
    assert!(
        text.contains("\\x1b[31m") && text.contains("\\u{202e}"),
        "{text}"
    );
    assert!(
        text.contains("Body (") && text.contains("JSON") && text.contains("\"id\": 7"),
        "{text}"
    );
    assert!(
        text.contains("x-attempts") && text.contains("i32"),
        "{text}"
    );
    assert!(
        text.contains("nested") && text.contains("array[1]"),
        "{text}"
    );

    let out = Queuey::new()
        .args(["dead", "show", &q, "--message-id", "s-2"])
        .run();
    assert!(out.status.success(), "{}", stderr(&out));
    let text = stdout(&out);
    assert!(
        text.contains("binary") && text.contains("00 9f 92 96 ff 61"),
        "{text}"
    );

    let out = Queuey::new().args(["dead", "show", &q, "9"]).run();
    assert_eq!(out.status.code(), Some(10), "no such message: not found");
    assert!(stderr(&out).contains("no message at position 9"));
    assert_eq!(broker.ids(&dead), ["s-1", "s-2"]);
}

/// `-o json` and `dead export` print what could fool a terminal and that JSON lets through raw
/// (a one-character CSI `U+009B`, DEL, a bidi override) as `\uXXXX` escapes: the same strings
/// to a parser, visible to a reader. Before, serde_json wrote them raw. And `dead show` shows a
/// JSON body's tokens as the queue holds them (before: a 30-digit id rounded to a double, a key
/// given twice shown once). Same on 3.10 and 4.3.
#[test]
fn json_output_escapes_what_could_fool_a_terminal_and_show_keeps_the_bodys_tokens() {
    let broker = Broker::connect();
    let q = broker.queue_name("json-escapes");
    let dead = format!("{q}.dead");
    broker.declare(&dead, FieldTable::default());
    broker.track_queue(&dead);
    let id = "j-\u{9b}2J\u{202e}evil\u{7f}";
    let reason = "boom\u{9b}31m\u{2066}";
    let body = br#"{"id":123456789012345678901234567890,"n":1.50,"a":1,"a":2}"#;
    broker.publish_props(
        &dead,
        body,
        with_id(id)
            .with_headers(queuey_headers("json-src", reason, 2))
            .with_content_type("application/json".into()),
    );
    let raw = ['\u{9b}', '\u{202e}', '\u{7f}', '\u{2066}'];
    for args in [
        vec!["dead", "ls", &q, "-o", "json"],
        vec!["dead", "show", &q, "1", "-o", "json"],
        vec!["dead", "export", &q],
        vec!["dead", "ls", &q, "--group-by", "reason", "-o", "json"],
    ] {
        let out = Queuey::new().args(&args).run();
        assert!(out.status.success(), "{args:?}: {}", stderr(&out));
        let text = stdout(&out);
        assert!(
            !text.contains(raw),
            "{args:?}: raw characters leaked: {text:?}"
        );
        assert!(text.contains("\\u009b"), "{args:?}: {text}");
        // An export prints one record a line.
        let first = if args[1] == "export" {
            text.lines().next().unwrap_or_default()
        } else {
            text.as_str()
        };
        let doc: Json = serde_json::from_str(first).unwrap();
        let found = match args[1] {
            "export" => doc["properties"]["message_id"].as_str(),
            "show" => doc["properties"]["message_id"].as_str(),
            _ if args.contains(&"--group-by") => doc["groups"][0]["key"]["reason"].as_str(),
            _ => doc["messages"][0]["message_id"].as_str(),
        };
        let want = if args.contains(&"--group-by") {
            reason
        } else {
            id
        };
        assert_eq!(found, Some(want), "{args:?}: {text}");
    }
    let out = Queuey::new().args(["dead", "show", &q, "1"]).run();
    assert!(out.status.success(), "{}", stderr(&out));
    let text = stdout(&out);
    assert!(
        text.contains("\"id\": 123456789012345678901234567890,")
            && text.contains("\"n\": 1.50,")
            && text.contains("\"a\": 1,\n  \"a\": 2\n}"),
        "{text}"
    );
    assert_eq!(broker.ids(&dead), [id]);
}

#[test]
fn export_is_lossless_and_never_overwrites() {
    let broker = Broker::connect();
    let q = broker.queue_name("export");
    let dead = format!("{q}.dead");
    broker.declare(&dead, FieldTable::default());
    broker.track_queue(&dead);
    let mut inner = FieldTable::default();
    inner.insert("when".into(), AMQPValue::Timestamp(1_700_000_000));
    let headers = table(vec![
        ("bool", AMQPValue::Boolean(true)),
        ("i8", AMQPValue::ShortShortInt(-8)),
        ("u8", AMQPValue::ShortShortUInt(8)),
        ("i16", AMQPValue::ShortInt(-16)),
        ("u16", AMQPValue::ShortUInt(16)),
        ("i32", AMQPValue::LongInt(-32)),
        ("u32", AMQPValue::LongUInt(32)),
        ("i64", AMQPValue::LongLongInt(-64)),
        ("f32", AMQPValue::Float(1.5)),
        ("f64", AMQPValue::Double(-2.5)),
        (
            "dec",
            AMQPValue::DecimalValue(DecimalValue {
                scale: 2,
                value: 1234,
            }),
        ),
        ("long", long_str("l")),
        ("nonutf8", AMQPValue::LongString(vec![0xff, 0xfe].into())),
        ("ts", AMQPValue::Timestamp(1_795_960_652)),
        (
            "arr",
            AMQPValue::FieldArray(FieldArray::from(vec![
                AMQPValue::FieldTable(inner),
                AMQPValue::Void,
            ])),
        ),
        (
            "bytes",
            AMQPValue::ByteArray(ByteArray::from(vec![1, 2, 3])),
        ),
    ]);
    let body: Vec<u8> = (0..=255u8).collect();
    broker.publish_props(
        &dead,
        &body,
        with_id("e-1")
            .with_headers(headers.clone())
            .with_priority(3)
            .with_correlation_id("c".into())
            .with_type("order.failed".into())
            .with_app_id("app".into()),
    );
    broker.publish_props(&dead, b"", with_id("e-2"));

    let dir = tempfile::tempdir().unwrap();
    let file = dir.path().join("dead.jsonl");
    let out = Queuey::in_dir(dir.path())
        .args([
            "dead",
            "export",
            &q,
            "--output-file",
            file.to_str().unwrap(),
        ])
        .run();
    assert!(out.status.success(), "{}", stderr(&out));
    // Dead letters carry customers' data: the file is its owner's alone, whatever the umask.
    let mode =
        std::os::unix::fs::PermissionsExt::mode(&std::fs::metadata(&file).unwrap().permissions());
    assert_eq!(mode & 0o777, 0o600, "the export's mode: {mode:o}");
    let text = std::fs::read_to_string(&file).unwrap();
    let mut lines: Vec<Json> = text
        .lines()
        .map(|l| serde_json::from_str(l).unwrap())
        .collect();
    // The last line says the export went to its end.
    let end = lines.pop().expect("an end line");
    assert_eq!(end["format"], "queuey.dead-letter.v1.end", "{end}");
    assert_eq!(
        (&end["finished"], &end["records"]),
        (&Json::from(true), &Json::from(2))
    );
    assert_eq!(lines.len(), 2);
    let rec = &lines[0];
    assert_eq!(rec["format"], "queuey.dead-letter.v1");
    assert_eq!(
        base64::engine::general_purpose::STANDARD
            .decode(rec["body_base64"].as_str().unwrap())
            .unwrap(),
        body
    );
    // Every header comes back with its exact type and value.
    let exported =
        queuey_cli::dead::value::table_from_typed_json(&rec["properties"]["headers"]).unwrap();
    let published = queuey_cli::broker::convert::table_from_amqp(&headers);
    assert_eq!(exported, published);
    let props = queuey_cli::dead::value::Properties::from_json(&rec["properties"]).unwrap();
    assert_eq!(props.priority, Some(3));
    assert_eq!(props.kind.as_deref(), Some("order.failed"));
    assert_eq!(lines[1]["body_base64"], "");

    // Non-destructive, and never overwrites an archive.
    assert_eq!(broker.message_count(&dead), Some(2));
    let out = Queuey::in_dir(dir.path())
        .args([
            "dead",
            "export",
            &q,
            "--output-file",
            file.to_str().unwrap(),
        ])
        .run();
    assert_eq!(out.status.code(), Some(8));
    assert!(stderr(&out).contains("never overwrites"));

    // To stdout with a filter.
    let out = Queuey::new()
        .args(["dead", "export", &q, "--message-id", "e-2"])
        .run();
    assert!(out.status.success());
    let filtered: Vec<Json> = stdout(&out)
        .lines()
        .map(|l| serde_json::from_str(l).unwrap())
        .collect();
    assert_eq!(filtered.len(), 1);
    // The whole record of e-2, as the unfiltered export wrote it (only `redelivered`, which
    // every peek sets, and the age may differ).
    let (got, want) = (&filtered[0], &lines[1]);
    for field in [
        "format",
        "vhost",
        "queue",
        "position",
        "exchange",
        "routing_key",
        "properties",
        "body_base64",
    ] {
        assert_eq!(got[field], want[field], "{field}");
    }
    assert_eq!(got["position"], 2);
    assert_eq!(got["properties"]["message_id"], "e-2");
    let mut got_dl = got["dead_letter"].clone();
    let mut want_dl = want["dead_letter"].clone();
    for dl in [&mut got_dl, &mut want_dl] {
        if let Some(m) = dl.as_object_mut() {
            m.remove("age_secs");
            m.remove("redelivered");
        }
    }
    assert_eq!(got_dl, want_dl);
}

/// A dead letter with hundreds of x-death entries is one table row of a few lines: the newest
/// three and how many more; the JSON keeps every entry.
#[test]
fn a_row_shows_the_newest_deaths_and_counts_the_rest() {
    let broker = Broker::connect();
    let q = broker.queue_name("many-deaths");
    let dead = format!("{q}.dead");
    broker.declare(&dead, FieldTable::default());
    broker.track_queue(&dead);
    let deaths: Vec<AMQPValue> = (0..900)
        .map(|i| {
            AMQPValue::FieldTable(table(vec![
                ("queue", long_str(&format!("src-{i}"))),
                ("reason", long_str("rejected")),
                ("count", AMQPValue::LongLongInt(i)),
                ("time", AMQPValue::Timestamp(1_700_000_000)),
            ]))
        })
        .collect();
    let headers = table(vec![(
        "x-death",
        AMQPValue::FieldArray(FieldArray::from(deaths)),
    )]);
    broker.publish(&dead, &[b"{}".as_slice()], Some(headers));
    let out = run(&["dead", "ls", &q]);
    assert_eq!(code(&out), 0, "{}", stderr(&out));
    let text = stdout(&out);
    assert!(text.contains("rejected @ src-2 x2"), "{text}");
    assert!(!text.contains("src-3 "), "{text}");
    assert!(text.contains("+897 more (dead show)"), "{text}");
    assert!(text.lines().count() < 12, "{text}");
    let out = run(&["dead", "ls", &q, "-o", "json"]);
    assert_eq!(
        json(&out)["messages"][0]["deaths"].as_array().map(Vec::len),
        Some(900)
    );
}

/// At least twenty malformed shapes, published straight into q.dead as a stranger could.
fn malformed_corpus() -> Vec<(String, FieldTable, Vec<u8>)> {
    let entry = |pairs: Vec<(&str, AMQPValue)>| AMQPValue::FieldTable(table(pairs));
    let good = |count: AMQPValue| {
        entry(vec![
            ("queue", long_str("src")),
            ("reason", long_str("rejected")),
            ("count", count),
            ("time", AMQPValue::Timestamp(1_700_000_000)),
        ])
    };
    let xd = |v: AMQPValue| table(vec![("x-death", v)]);
    let arr = |v: Vec<AMQPValue>| AMQPValue::FieldArray(FieldArray::from(v));
    let mut cases: Vec<(&str, FieldTable, Vec<u8>)> = vec![
        ("xdeath-string", xd(long_str("oops")), b"1".to_vec()),
        ("xdeath-int", xd(AMQPValue::LongInt(5)), b"2".to_vec()),
        (
            "xdeath-table",
            xd(entry(vec![("count", AMQPValue::LongInt(1))])),
            b"3".to_vec(),
        ),
        (
            "entry-string",
            xd(arr(vec![long_str("entry")])),
            b"4".to_vec(),
        ),
        ("entry-array", xd(arr(vec![arr(vec![])])), b"5".to_vec()),
        ("empty-entry", xd(arr(vec![entry(vec![])])), b"6".to_vec()),
        (
            "count-string",
            xd(arr(vec![good(long_str("five"))])),
            b"7".to_vec(),
        ),
        (
            "count-negative",
            xd(arr(vec![good(AMQPValue::LongLongInt(-3))])),
            b"8".to_vec(),
        ),
        (
            "count-huge",
            xd(arr(vec![
                good(AMQPValue::LongLongInt(i64::MAX)),
                good(AMQPValue::LongLongInt(i64::MAX)),
            ])),
            b"9".to_vec(),
        ),
        (
            "count-float",
            xd(arr(vec![good(AMQPValue::Double(2.5))])),
            b"10".to_vec(),
        ),
        (
            "count-u8",
            xd(arr(vec![good(AMQPValue::ShortShortUInt(2))])),
            b"11".to_vec(),
        ),
        (
            "time-missing",
            xd(arr(vec![entry(vec![
                ("queue", long_str("q")),
                ("reason", long_str("expired")),
                ("count", AMQPValue::LongInt(1)),
            ])])),
            b"12".to_vec(),
        ),
        (
            "reason-int",
            xd(arr(vec![entry(vec![
                ("queue", long_str("q")),
                ("reason", AMQPValue::LongInt(9)),
                ("count", AMQPValue::LongInt(1)),
                ("time", AMQPValue::Timestamp(1)),
            ])])),
            b"13".to_vec(),
        ),
        (
            "routing-keys-string",
            xd(arr(vec![entry(vec![
                ("queue", long_str("q")),
                ("reason", long_str("expired")),
                ("count", AMQPValue::LongInt(1)),
                ("time", AMQPValue::Timestamp(1)),
                ("routing-keys", long_str("rk")),
            ])])),
            b"14".to_vec(),
        ),
        (
            "unknown-reason",
            xd(arr(vec![entry(vec![
                ("queue", long_str("q")),
                ("reason", long_str("gremlins")),
                ("count", AMQPValue::LongInt(1)),
                ("time", AMQPValue::Timestamp(1)),
            ])])),
            b"15".to_vec(),
        ),
        (
            "attempts-string",
            table(vec![("x-attempts", long_str("three"))]),
            b"16".to_vec(),
        ),
        (
            "attempts-negative",
            table(vec![("x-attempts", AMQPValue::LongInt(-1))]),
            b"17".to_vec(),
        ),
        (
            "original-queue-int",
            table(vec![("x-original-queue", AMQPValue::LongInt(4))]),
            b"18".to_vec(),
        ),
        (
            "reason-bool",
            table(vec![("x-death-reason", AMQPValue::Boolean(false))]),
            b"19".to_vec(),
        ),
        (
            "non-utf8-strings",
            table(vec![(
                "x-original-queue",
                AMQPValue::LongString(vec![0xc3, 0x28].into()),
            )]),
            b"20".to_vec(),
        ),
        (
            "unicode-queue-names",
            xd(arr(vec![entry(vec![
                ("queue", long_str("注文 .queue ünï")),
                ("reason", long_str("expired")),
                ("count", AMQPValue::LongInt(1)),
                ("time", AMQPValue::Timestamp(1)),
            ])])),
            b"21".to_vec(),
        ),
        (
            "deeply-nested",
            table(vec![(
                "deep",
                arr(vec![arr(vec![arr(vec![arr(vec![AMQPValue::Void])])])]),
            )]),
            b"22".to_vec(),
        ),
        ("empty-body", FieldTable::default(), Vec::new()),
        (
            "binary-body",
            FieldTable::default(),
            vec![0, 1, 2, 0xff, 0xfe, 0x1b],
        ),
        ("large-body", FieldTable::default(), vec![b'x'; 3 << 20]),
    ];
    cases
        .drain(..)
        .map(|(n, h, b)| (n.to_owned(), h, b))
        .collect()
}

#[test]
fn malformed_dead_letters_are_shown_for_what_they_are() {
    let broker = Broker::connect();
    let q = broker.queue_name("malformed");
    let dead = format!("{q}.dead");
    broker.declare(&dead, FieldTable::default());
    broker.track_queue(&dead);
    let corpus = malformed_corpus();
    assert!(corpus.len() >= 20);
    for (name, headers, body) in &corpus {
        broker.publish_props(&dead, body, with_id(name).with_headers(headers.clone()));
    }
    let before = broker.ids(&dead);
    let out = run(&["dead", "ls", &q, "--limit", "0", "-o", "json"]);
    assert!(out.status.success(), "{}", stderr(&out));
    let doc = json(&out);
    assert_eq!(ids(&doc), before);
    let by_id = |id: &str| {
        doc["messages"]
            .as_array()
            .unwrap()
            .iter()
            .find(|m| m["message_id"] == id)
            .unwrap()
            .clone()
    };
    let problems = |id: &str| by_id(id)["problems"].to_string();
    assert!(problems("xdeath-string").contains("not an array"));
    assert!(problems("entry-string").contains("not a table"));
    assert!(problems("count-string").contains("count is a longstr"));
    assert!(problems("count-negative").contains("non-negative"));
    assert!(problems("time-missing").contains("has no time"));
    assert!(problems("attempts-string").contains("x-attempts"));
    assert!(problems("original-queue-int").contains("not a string"));
    assert_eq!(by_id("count-huge")["death_count"], 2 * i64::MAX as u64);
    assert_eq!(by_id("count-u8")["deaths"][0]["count"], 2);
    assert_eq!(by_id("unknown-reason")["reason"], "gremlins");
    assert_eq!(by_id("non-utf8-strings")["original_queue"], "\\xc3(");
    assert_eq!(by_id("large-body")["size"], 3 << 20);
    assert_eq!(by_id("empty-body")["body_preview"], "(empty)");

    // The table and `show` of every one of them work.
    let out = run(&["dead", "ls", &q, "--limit", "0"]);
    assert!(out.status.success(), "{}", stderr(&out));
    for i in 1..=corpus.len() {
        let out = Queuey::new()
            .args(["dead", "show", &q, &i.to_string()])
            .run();
        assert!(out.status.success(), "show {i}: {}", stderr(&out));
        assert!(!stdout(&out).contains('\u{1b}'));
    }
    assert_eq!(broker.ids(&dead), before);
}

/// A message's own `x-delivery-count` (forged, or copied from another queue by its publisher)
/// on its first delivery from a quorum `q.dead` (`redelivered` false: the broker stamps its
/// count only on a redelivery) was read as the broker's count: at 99 over a limit of 5, a look
/// took the message for one on its last delivery and replaced it by a copy ("republished",
/// `x-queuey-rescued-at`), so `dead ls` changed the queue. Now a first delivery has been
/// returned no time: the look changes nothing. The same rule on 3.10 (where any look at a
/// quorum queue with a limit needs `--spend-delivery-budget`) and 4.3.
#[test]
fn a_publishers_delivery_count_on_a_first_delivery_is_not_the_brokers() {
    let broker = Broker::connect();
    let version = broker.rabbitmq_version();
    let (q, dead) = broker.quorum_dead_queue("forged-count", 5);
    broker.publish_props(&dead, b"b", with_id("before"));
    broker.publish_props(
        &dead,
        b"f",
        with_id("forged").with_headers(table(vec![(
            "x-delivery-count",
            AMQPValue::LongLongInt(99),
        )])),
    );
    broker.publish_props(&dead, b"a", with_id("after"));
    broker.wait_for_count(&dead, 3);
    let mut args = vec![q.as_str(), "--limit", "0", "-o", "json"];
    if version < (4, 3) {
        args.push("--spend-delivery-budget");
    }
    let out = Queuey::new().args(["dead", "ls"]).args(&args).run();
    assert!(out.status.success(), "{version:?}: {}", stderr(&out));
    assert!(
        !stderr(&out).contains("republished"),
        "{version:?}: {}",
        stderr(&out)
    );
    assert_eq!(ids(&json(&out)), ["before", "forged", "after"]);
    assert_still_holds(&broker, &dead, 3, "after the look");
    let held = broker.snapshot(&dead);
    let order: Vec<String> = held
        .iter()
        .map(|(_, p)| {
            p.message_id()
                .as_ref()
                .map(|s| s.to_string())
                .unwrap_or_default()
        })
        .collect();
    assert_eq!(
        order,
        ["before", "forged", "after"],
        "{version:?}: none moved"
    );
    assert!(
        held.iter().all(|(_, p)| p
            .headers()
            .as_ref()
            .is_none_or(|h| !h.inner().contains_key("x-queuey-rescued-at"))),
        "{version:?}: none replaced by a copy"
    );
}

/// A quorum `q.dead` with a delivery limit of 2 and no dead-letter exchange, where a message
/// past its limit is dropped. The broker's rule differs by version (docs/broker-versions.md):
/// - before 4.3 every returned delivery spends one of the limit: queuey refuses the peek
///   (exit 2, naming `--spend-delivery-budget`); with the flag, six peeks (three times the
///   budget) lose nothing, because a message on its last delivery is republished instead of
///   returned;
/// - from 4.3 `basic.nack` spends nothing: queuey peeks without the flag, six times, and never
///   needs to republish.
///
/// On both, every message is still there afterwards, by the broker's word.
#[test]
fn quorum_dead_letter_queue_peeks_never_lose_messages() {
    let broker = Broker::connect();
    let version = broker.rabbitmq_version();
    let (q, dead) = broker.quorum_dead_queue("qdlq", 2);
    let sent: Vec<String> = (0..5).map(|i| format!("qm-{i}")).collect();
    for id in &sent {
        broker.publish_props(&dead, id.as_bytes(), with_id(id));
    }
    let out = run(&["dead", "ls", &q]);
    let err = stderr(&out);
    let mut republished = 0;
    if version < (4, 3) {
        // Refused by default, naming the override.
        assert_eq!(out.status.code(), Some(2), "{version:?}: {err}");
        assert!(
            err.contains("quorum") && err.contains("--spend-delivery-budget"),
            "{err}"
        );
        assert_eq!(broker.message_count(&dead), Some(5));
    } else {
        // Free: a peek returns its messages by nack, which no longer counts.
        assert_eq!(out.status.code(), Some(0), "{version:?}: {err}");
        assert!(!err.contains("--spend-delivery-budget"), "{err}");
    }
    // Six peeks, three times the budget, and every message is still there. Before 4.3 those on
    // their last delivery were republished instead of returned; from 4.3 none needs to be.
    for round in 0..6 {
        let mut args = vec![q.as_str(), "--limit", "0", "-o", "json"];
        if version < (4, 3) || round % 2 == 1 {
            args.push("--spend-delivery-budget");
        }
        let out = Queuey::new().args(["dead", "ls"]).args(&args).run();
        assert!(out.status.success(), "round {round}: {}", stderr(&out));
        if stderr(&out).contains("republished") {
            republished += 1;
        }
        let mut got = ids(&json(&out));
        got.sort();
        assert_eq!(got, sent, "round {round}");
        assert_eq!(broker.message_count(&dead), Some(5), "round {round}");
    }
    if version < (4, 3) {
        assert!(
            republished >= 2,
            "the budget was spent and messages republished: {republished}"
        );
    } else {
        assert_eq!(republished, 0, "nothing spent, nothing to republish");
    }
    // Still there by the broker's word, not only queuey's: each id once, bodies intact. Last,
    // since this read spends a delivery of each before 4.3.
    let mut held: Vec<(String, Vec<u8>)> = broker
        .snapshot(&dead)
        .into_iter()
        .map(|(body, p)| (p.message_id().as_ref().unwrap().to_string(), body))
        .collect();
    held.sort();
    let want: Vec<(String, Vec<u8>)> = sent
        .iter()
        .map(|id| (id.clone(), id.as_bytes().to_vec()))
        .collect();
    assert_eq!(held, want);
}

/// Looks keep a quorum queue's order: a look reads it in rounds, a consumer each, and returns
/// what it held one nack per round, in order (one nack of everything came back split by
/// consumer in an order of the broker's own, on 3.10.8 and 4.3.6: 3 000 messages read twice
/// came back with stretches of hundreds moved). The rule is the same on both versions; on
/// 4.3 the queue has its default delivery limit of 20, on 3.10 none (a look there would need
/// `--spend-delivery-budget`).
#[test]
fn looks_keep_a_quorum_queues_order() {
    let broker = Broker::connect();
    let q = broker.queue_name("qorder");
    let dead = format!("{q}.dead");
    broker.declare(&dead, table(vec![("x-queue-type", long_str("quorum"))]));
    broker.track_queue(&dead);
    let sent: Vec<String> = (0..3000).map(|i| format!("qo-{i:04}")).collect();
    broker.publish_ids(&dead, &sent);
    broker.wait_for_count(&dead, 3000);
    for look in 0..2 {
        let out = run(&["dead", "ls", &q, "--limit", "0", "-o", "json"]);
        assert!(out.status.success(), "look {look}: {}", stderr(&out));
        assert_eq!(json(&out)["scanned"], 3000, "look {look}");
    }
    let held = broker.drain_ids(&dead);
    let what = format!(
        "{:?}: in the order sent after two looks",
        broker.rabbitmq_version()
    );
    crate::common::assert_same_order(&held, &sent, &what);
}

/// A look that replaced messages on their last delivery (acked their originals) still returns
/// the rest one nack per round, in order: only the replaced ones move (their copies go to the
/// back of the queue while the look runs, and end up behind the returned messages, on both).
/// Delivery limit 1: the first ten messages, returned once by a closed channel, are on their
/// last delivery.
///
/// The rule differs by version. 4.x: the others come back in the order they were in. 3.x: a
/// look counts its own return, so it needs `--spend-delivery-budget`, and the queue returns
/// more than 32 messages of one consumer in an order of its own whether they are returned by
/// one nack or one at a time in order (seen on 3.10.8, the same order every time: rounds of 1
/// to 32 came back in order, the round of 64 after them shuffled); every message is there once.
#[test]
fn a_look_that_replaced_messages_keeps_the_rest_of_a_quorum_queue_in_order() {
    let broker = Broker::connect();
    let version = broker.rabbitmq_version();
    let (q, dead) = broker.quorum_dead_queue("qorder-rescue", 1);
    broker.track_queue(&dead);
    let risky: Vec<String> = (0..10).map(|i| format!("risky-{i}")).collect();
    broker.publish_ids(&dead, &risky);
    broker.spend_one_delivery(&dead);
    let sent: Vec<String> = (0..3000).map(|i| format!("qr-{i:04}")).collect();
    broker.publish_ids(&dead, &sent);
    broker.wait_for_count(&dead, 3010);
    let mut args = vec![q.as_str(), "--limit", "0", "-o", "json"];
    if version < (4, 3) {
        args.push("--spend-delivery-budget");
    }
    let out = Queuey::new().args(["dead", "ls"]).args(&args).run();
    assert!(out.status.success(), "{version:?}: {}", stderr(&out));
    assert_eq!(json(&out)["scanned"], 3010, "{version:?}");
    assert!(
        stderr(&out).contains("10 messages of"),
        "{version:?}: the ten on their last delivery are replaced: {}",
        stderr(&out)
    );
    broker.wait_for_count(&dead, 3010);
    let held = broker.drain_ids(&dead);
    // The copies were published while the look held the rest, and the returned messages went
    // ahead of them: on 4.x a nack returns to the front; on 3.10.8 too, with a delivery limit
    // (seen: the ten copies last; without a limit 3.10.8 returns to the back).
    let copies_at = 3000..3010;
    assert!(
        held.get(copies_at.clone())
            .is_some_and(|c| c.iter().all(|id| id.starts_with("risky-"))),
        "{version:?}: the ten copies at {copies_at:?}: {:?} ... {:?}",
        &held[..12.min(held.len())],
        &held[held.len().saturating_sub(12)..]
    );
    let (mut replaced, rest): (Vec<String>, Vec<String>) =
        held.into_iter().partition(|id| id.starts_with("risky-"));
    replaced.sort();
    assert_eq!(
        replaced, risky,
        "{version:?}: each replaced message is there once"
    );
    if version < (4, 0) {
        let mut rest = rest;
        rest.sort();
        assert_eq!(rest, sent, "{version:?}: each of the others is there once");
        return;
    }
    let what = format!("{version:?}: the others in the order sent");
    crate::common::assert_same_order(&rest, &sent, &what);
}

/// A negative delivery limit: from RabbitMQ 4.0 no limit at all (`rabbit_fifo` ignores it), so
/// a look rescues nothing and keeps the order; before 4.0 the lowest limit there is (a message
/// ends at its first counted return), so a look is refused without
/// `--spend-delivery-budget`, and with it every message read is kept by a copy.
#[test]
fn a_negative_delivery_limit_is_none_on_4_and_the_lowest_before() {
    let broker = Broker::connect();
    let version = broker.rabbitmq_version();
    let (q, dead) = broker.quorum_dead_queue("neg-limit", -1);
    let sent: Vec<String> = (0..5).map(|i| format!("neg-{i}")).collect();
    for id in &sent {
        broker.publish_props(&dead, id.as_bytes(), with_id(id));
    }
    if version >= (4, 0) {
        // More looks, by a consumer closing its channel each time, than the default limit of
        // 20 would survive: each close counts a delivery; none ends a message.
        for round in 0..3 {
            let out = run(&["dead", "ls", &q, "--limit", "0", "-o", "json"]);
            assert!(out.status.success(), "round {round}: {}", stderr(&out));
            assert!(
                !stderr(&out).contains("republished"),
                "{version:?}: no message is on a last delivery: {}",
                stderr(&out)
            );
            assert_eq!(
                ids(&json(&out)),
                sent,
                "round {round}: in order, none moved"
            );
        }
        for _ in 0..21 {
            broker.spend_one_delivery(&dead);
        }
        let out = run(&["dead", "ls", &q, "--limit", "0", "-o", "json"]);
        assert!(out.status.success(), "{}", stderr(&out));
        assert_eq!(ids(&json(&out)), sent, "21 counted returns end nothing");
    } else {
        let out = run(&["dead", "ls", &q]);
        assert_eq!(out.status.code(), Some(2), "{version:?}: {}", stderr(&out));
        assert!(
            stderr(&out).contains("delivery limit of 0"),
            "{}",
            stderr(&out)
        );
        let out = run(&[
            "dead",
            "ls",
            &q,
            "--limit",
            "0",
            "-o",
            "json",
            "--spend-delivery-budget",
        ]);
        assert!(out.status.success(), "{}", stderr(&out));
        assert!(stderr(&out).contains("republished"), "{}", stderr(&out));
        let mut got = ids(&json(&out));
        got.sort();
        assert_eq!(got, sent);
    }
    let mut held: Vec<String> = broker
        .snapshot(&dead)
        .into_iter()
        .map(|(_, p)| p.message_id().as_ref().unwrap().to_string())
        .collect();
    held.sort();
    assert_eq!(held, sent, "every message still there");
}

#[test]
fn ls_ends_while_messages_keep_arriving() {
    let broker = Broker::connect();
    let q = broker.queue_name("busy");
    let dead = format!("{q}.dead");
    broker.declare(&dead, FieldTable::default());
    broker.track_queue(&dead);
    let bodies: Vec<Vec<u8>> = (0..500).map(|i| format!("b-{i}").into_bytes()).collect();
    let refs: Vec<&[u8]> = bodies.iter().map(Vec::as_slice).collect();
    broker.publish(&dead, &refs, None);

    let stop = std::sync::Arc::new(std::sync::atomic::AtomicBool::new(false));
    let publisher = {
        let stop = stop.clone();
        let dead = dead.clone();
        std::thread::spawn(move || {
            let b = Broker::connect();
            let mut n = 0;
            while !stop.load(std::sync::atomic::Ordering::Relaxed) {
                b.publish(&dead, &[b"more".as_slice(); 20], None);
                n += 20;
            }
            n
        })
    };
    // The look begins once the publisher is at work.
    crate::common::wait_until(
        "the publisher to add to q.dead",
        Duration::from_secs(30),
        || broker.count(&dead) > 500,
    );
    let out = run(&[
        "dead",
        "ls",
        &q,
        "--group-by",
        "reason",
        "-o",
        "json",
        "--window",
        "50",
    ]);
    stop.store(true, std::sync::atomic::Ordering::Relaxed);
    let published = publisher.join().unwrap();
    assert!(out.status.success(), "{}", stderr(&out));
    let scanned = json(&out)["scanned"].as_u64().unwrap();
    assert!(scanned >= 500, "{scanned}");
    assert!(published > 0);
    // Nothing was lost: the first 500 are still first, in order.
    let after = broker.bodies(&dead);
    let first: Vec<String> = (0..500).map(|i| format!("b-{i}")).collect();
    assert_eq!(&after[..500], first.as_slice());
}

#[test]
fn missing_queue_and_missing_api_are_explained() {
    let broker = Broker::connect();
    let q = broker.queue_name("nothing-here");
    let out = run(&["dead", "ls", &q]);
    assert_eq!(out.status.code(), Some(7), "{}", stderr(&out));
    assert!(stderr(&out).contains("does not exist"));

    let dead = format!("{q}.dead");
    broker.declare(&dead, FieldTable::default());
    broker.track_queue(&dead);
    broker.publish_props(&dead, b"x", with_id("only"));
    let out = Queuey::new()
        .args(["dead", "ls", &q, "--api-url", "http://127.0.0.1:1"])
        .run();
    assert_eq!(out.status.code(), Some(6));
    assert!(
        stderr(&out).contains("--assume-classic"),
        "{}",
        stderr(&out)
    );
    let out = Queuey::new()
        .args([
            "dead",
            "ls",
            &q,
            "--api-url",
            "http://127.0.0.1:1",
            "--assume-classic",
            "-o",
            "json",
        ])
        .run();
    assert!(out.status.success(), "{}", stderr(&out));
    assert_eq!(ids(&json(&out)), ["only"]);
}

/// What a quorum queue stamps on a redelivery is the broker's bookkeeping, not the message:
/// `dead show` lists it apart from the application's headers, and its JSON (the export record)
/// keeps it in `broker_headers`, out of `properties`. Each version's rule: one look (`dead ls`)
/// before, so the delivery `show` reads is the second; on RabbitMQ 4.3 it carries
/// `x-acquired-count` 1 (every acquisition counts, a look's nack included) and no
/// `x-delivery-count` (a nack spends no delivery); before 4.3 `x-delivery-count` 1 (a nack
/// counts) and no `x-acquired-count` (new in 4.3). A second look raises the count again.
#[test]
fn show_and_export_keep_the_broker_bookkeeping_apart() {
    let broker = Broker::connect();
    let v43 = broker.rabbitmq_version() >= (4, 3);
    let q = broker.queue_name("bookkeeping");
    let dead = format!("{q}.dead");
    broker.track_queue(&dead);
    broker.declare(&dead, table(vec![("x-queue-type", long_str("quorum"))]));
    broker.publish_props(
        &dead,
        b"{}",
        with_id("bk-1").with_headers(table(vec![("tenant", long_str("acme"))])),
    );
    broker.wait_for_count(&dead, 1);
    let out = run(&["dead", "ls", &q]);
    assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));
    broker.wait_for_count(&dead, 1);
    let (counted, absent) = if v43 {
        ("x-acquired-count", "x-delivery-count")
    } else {
        ("x-delivery-count", "x-acquired-count")
    };

    let out = Queuey::new().args(["dead", "show", &q, "1"]).run();
    assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));
    let text = stdout(&out);
    let headers_at = text.find("\nHeaders\n").expect("a Headers section");
    let broker_at = text
        .find("\nBroker bookkeeping (")
        .unwrap_or_else(|| panic!("a bookkeeping section: {text}"));
    assert!(headers_at < broker_at, "{text}");
    let own = &text[headers_at..broker_at];
    assert!(own.contains("tenant"), "{own}");
    assert!(
        !own.contains("-count"),
        "the broker's counts among the headers: {own}"
    );
    let theirs = &text[broker_at..];
    let theirs = &theirs[..theirs.find("\n\n").unwrap_or(theirs.len())];
    assert!(
        theirs
            .lines()
            .any(|l| l.contains(counted) && l.trim_end().ends_with(" 1")),
        "{theirs}"
    );
    assert!(!theirs.contains(absent), "{theirs}");
    let line = if v43 {
        "  acquired count   1 "
    } else {
        "  delivery count   1 "
    };
    assert!(text.contains(line), "{text}");

    broker.wait_for_count(&dead, 1);
    let out = Queuey::new()
        .args(["dead", "show", &q, "1", "-o", "json"])
        .run();
    assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));
    let record = json(&out);
    assert_eq!(
        record["properties"]["headers"],
        serde_json::json!({"tenant": {"type": "longstr", "value": "acme"}})
    );
    // The third delivery: two looks before it.
    assert_eq!(
        record["broker_headers"],
        serde_json::json!({counted: {"type": "i64", "value": 2}})
    );
    let (acquired, delivered) = if v43 {
        (Json::from(2), Json::Null)
    } else {
        (Json::Null, Json::from(2))
    };
    assert_eq!(record["dead_letter"]["acquired_count"], acquired);
    assert_eq!(record["dead_letter"]["delivery_count"], delivered);

    broker.wait_for_count(&dead, 1);
    let out = Queuey::new().args(["dead", "export", &q]).run();
    assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));
    let record: Json = serde_json::from_str(stdout(&out).trim()).expect("one record");
    assert_eq!(
        record["broker_headers"],
        serde_json::json!({counted: {"type": "i64", "value": 3}})
    );
    assert!(record["properties"]["headers"].get(counted).is_none());
}

/// Where a quorum queue puts a message returned by `basic.nack` (requeue) is the broker's rule,
/// and it differs by version (docs/broker-versions.md): before 4.3 at the back, in the order
/// returned; from 4.3 at the front, ahead of every message never delivered. So a look of a
/// quorum queue cannot return what it has read and read on (on 4.3 it would be delivered again
/// at once): it holds everything it read until its end. Ten messages, three taken and nacked
/// one by one, then all read.
#[test]
fn a_quorum_queue_puts_nacked_messages_where_the_version_says() {
    let broker = Broker::connect();
    let version = broker.rabbitmq_version();
    let q = broker.queue_name("nack-place");
    broker.track_queue(&q);
    broker.declare(&q, table(vec![("x-queue-type", long_str("quorum"))]));
    let ids: Vec<String> = (0..10).map(|i| format!("np-{i}")).collect();
    broker.publish_ids(&q, &ids);
    broker.wait_for_count(&q, 10);
    let ch = broker.channel();
    broker.rt.block_on(async {
        let mut tags = Vec::new();
        for _ in 0..3 {
            let m = ch
                .basic_get(
                    q.as_str().into(),
                    lapin::options::BasicGetOptions { no_ack: false },
                )
                .await
                .expect("basic.get")
                .expect("a message");
            tags.push(m.delivery.delivery_tag);
        }
        for tag in tags {
            ch.basic_nack(
                tag,
                lapin::options::BasicNackOptions {
                    multiple: false,
                    requeue: true,
                },
            )
            .await
            .expect("nack");
        }
        let _ = ch.close(200, "ok".into()).await;
    });
    broker.wait_for_count(&q, 10);
    let want: Vec<String> = if version >= (4, 3) {
        ids.clone()
    } else {
        ids[3..].iter().chain(&ids[..3]).cloned().collect()
    };
    assert_eq!(broker.ids(&q), want, "{version:?}");
}

/// A quorum queue serves its consumers strictly by priority (`x-priority`), on every version
/// tested: a consumer receives nothing while one of a higher priority may take more, then at
/// once. A quorum look relies on it (`broker::peek`: the next round waits behind the current
/// one at a lower priority, so deliveries come in the queue's order, round after round, and a
/// round is never held up by its own consume). Three consumers of prefetch 5 on the same
/// channel, the lowest asked for first, on an empty queue; then 20 messages.
#[test]
fn a_quorum_queue_serves_consumers_strictly_by_priority() {
    let broker = Broker::connect();
    let version = broker.rabbitmq_version();
    let q = broker.queue_name("consumer-priority");
    broker.track_queue(&q);
    broker.declare(&q, table(vec![("x-queue-type", long_str("quorum"))]));
    let ch = broker.channel();
    let mut consumers = broker.rt.block_on(async {
        ch.basic_qos(5, lapin::options::BasicQosOptions { global: false })
            .await
            .expect("qos");
        let mut consumers = Vec::new();
        for priority in [(1 << 30) - 2, (1 << 30) - 1, 1 << 30] {
            let c = ch
                .basic_consume(
                    q.as_str().into(),
                    "".into(),
                    lapin::options::BasicConsumeOptions::default(),
                    table(vec![("x-priority", AMQPValue::LongInt(priority))]),
                )
                .await
                .expect("consume");
            consumers.push(c);
        }
        consumers
    });
    let ids: Vec<String> = (0..20).map(|i| format!("cp-{i}")).collect();
    broker.publish_ids(&q, &ids);
    // Highest first: 5 each, in the queue's order, and the last 5 stay in the queue.
    consumers.reverse();
    let got: Vec<Vec<String>> = broker.rt.block_on(async {
        let mut got = Vec::new();
        for c in consumers.iter_mut() {
            let mut ids = Vec::new();
            for _ in 0..5 {
                let d =
                    tokio::time::timeout(Duration::from_secs(10), futures_util::StreamExt::next(c))
                        .await
                        .expect("a delivery within 10 s")
                        .expect("the consumer goes on")
                        .expect("a delivery");
                let id = d.properties.message_id().as_ref().map(|s| s.to_string());
                ids.push(id.unwrap_or_default());
            }
            got.push(ids);
        }
        got
    });
    let want: Vec<Vec<String>> = ids[..15].chunks(5).map(<[String]>::to_vec).collect();
    assert_eq!(got, want, "{version:?}");
    let _ = broker.rt.block_on(ch.close(200, "ok".into()));
    broker.wait_for_count(&q, 20);
}

/// A quorum queue without a delivery limit of its own and without a dead-letter exchange: the
/// broker's default limit differs by version (docs/broker-versions.md), and queuey's look counts
/// on it (`broker::peek`): none before 4.0, so a message returned 25 times is still there; 20
/// from 4.0, so the message is dropped once 20 counted returns are spent. Each return here is a
/// `basic.reject` with requeue, which every version counts.
#[test]
fn a_quorum_queues_default_delivery_limit_is_the_versions() {
    let broker = Broker::connect();
    let version = broker.rabbitmq_version();
    let q = broker.queue_name("default-limit");
    broker.track_queue(&q);
    broker.declare(&q, table(vec![("x-queue-type", long_str("quorum"))]));
    broker.publish_ids(&q, &["dl-0".to_owned()]);
    broker.wait_for_count(&q, 1);
    let ch = broker.channel();
    let deliveries = broker.rt.block_on(async {
        let mut deliveries = 0;
        for _ in 0..25 {
            let got = ch
                .basic_get(
                    q.as_str().into(),
                    lapin::options::BasicGetOptions { no_ack: false },
                )
                .await
                .expect("basic.get");
            let Some(m) = got else { break };
            deliveries += 1;
            ch.basic_reject(
                m.delivery.delivery_tag,
                lapin::options::BasicRejectOptions { requeue: true },
            )
            .await
            .expect("reject");
        }
        let _ = ch.close(200, "ok".into()).await;
        deliveries
    });
    // The last reject is applied by the queue after its reply: a count read at once can miss
    // the message it returns (3.10.8 read 0 once), so the kept message is waited for, and a
    // dropped one is checked to stay gone.
    if version >= (4, 0) {
        assert_eq!(
            deliveries, 21,
            "{version:?}: 20 returns allowed, then dropped"
        );
        // That the dropped message stays gone is seen only by waiting for it not to come.
        std::thread::sleep(Duration::from_secs(2));
        assert_eq!(broker.message_count(&q), Some(0), "{version:?}");
    } else {
        assert_eq!(deliveries, 25, "{version:?}: no limit");
        broker.wait_for_count(&q, 1);
    }
}

// ---------------------------------------------------------------------------------------------
// A look never loses a message, whatever stops it.
//
// The hardest queue for a look: a quorum q.dead with a delivery limit of 1 and no dead-letter
// exchange, whose every message has already spent its one allowed counted return (its
// `x-delivery-count` is 1), so that one more counted return drops it. The rules, by version:
// - a channel closing with deliveries unsettled (kill -9, a lost connection) counts a return on
//   every version;
// - `basic.nack` with requeue counts before 4.3 (a look then needs --spend-delivery-budget), and
//   is free from 4.3;
// so on every version queuey replaces each message at risk by a confirmed copy as soon as it
// arrives, and on a signal returns what it holds: nothing is lost. kill -9 can cost only the
// messages at risk that have arrived and are not yet replaced: at most two rounds,
// `--quorum-at-risk` (2048 by default), or `--window` if smaller.

/// Whether a look of a quorum queue with a delivery limit must be told to spend deliveries: its
/// final return by `basic.nack` counts before RabbitMQ 4.3, not from 4.3.
fn look_needs_budget(broker: &Broker) -> bool {
    broker.rabbitmq_version() < (4, 3)
}

/// A quorum q.dead with a delivery limit of 1, no dead-letter exchange, holding `n` messages
/// (ids `{label}-{i}`) that have each spent their one allowed counted return.
fn at_risk_quorum_dead_queue(
    broker: &Broker,
    label: &str,
    n: usize,
) -> (String, String, Vec<String>) {
    let (q, dead) = broker.quorum_dead_queue(label, 1);
    let ids: Vec<String> = (0..n).map(|i| format!("{label}-{i:05}")).collect();
    broker.publish_ids(&dead, &ids);
    broker.wait_for_count(&dead, n as u32);
    broker.spend_one_delivery(&dead);
    (q, dead, ids)
}

/// A look (`dead ls`, `export`, `show`) of `q` as a child process, with the version's flag.
fn spawn_look(broker: &Broker, dir: &std::path::Path, look: &[&str]) -> std::process::Child {
    let mut cmd = Queuey::in_dir(dir).process();
    cmd.args(look);
    if look_needs_budget(broker) {
        cmd.arg("--spend-delivery-budget");
    }
    cmd.stdout(std::process::Stdio::piped())
        .stderr(std::process::Stdio::piped())
        .spawn()
        .expect("queuey starts")
}

/// Waits until `dead` holds `n` ready messages again (a look returns what it held), and fails
/// naming `what` when it does not within 30 s.
fn assert_still_holds(broker: &Broker, dead: &str, n: u32, what: &str) {
    let mut now = None;
    let holds = crate::common::poll(Duration::from_secs(30), Duration::from_millis(100), || {
        now = broker.message_count(dead);
        now == Some(n)
    });
    if !holds {
        // The last word on what went wrong: which ids are missing or there twice.
        let counts = crate::common::fixtures::id_counts(broker, &[dead]);
        let twice: Vec<_> = counts.iter().filter(|(_, c)| **c > 1).take(10).collect();
        panic!(
            "{what}: {dead} holds {now:?} messages, not {n}: {} distinct ids, some twice: \
             {twice:?}",
            counts.len()
        );
    }
}

fn sorted(mut v: Vec<String>) -> Vec<String> {
    v.sort();
    v
}

#[test]
fn signals_during_a_look_at_a_quorum_queue_on_its_last_delivery_lose_nothing() {
    let broker = Broker::connect();
    let n = 3000;
    let (q, dead, ids) = at_risk_quorum_dead_queue(&broker, "sig-look", n);
    let dir = tempfile::tempdir().unwrap();
    let out_file = |i: usize| dir.path().join(format!("export-{i}.jsonl"));
    let mut interrupted = 0;
    let looks: [(&str, &[&str]); 3] = [
        ("ls", &["dead", "ls", "--group-by", "cause", "-o", "json"]),
        ("export", &["dead", "export", "--output-file"]),
        ("show", &["dead", "show"]),
    ];
    let instants_ms = [100u64, 300, 600, 1200];
    let signals = ["-INT", "-TERM", "-HUP"];
    let mut run = 0;
    for (name, look) in looks {
        for (k, delay) in instants_ms.iter().enumerate() {
            let signal = signals[(run + k) % signals.len()];
            run += 1;
            // Every message on its last delivery again: a look replaces those it reads by fresh
            // copies, which have their whole budget again.
            if run > 1 {
                assert_eq!(sorted(broker.drain_ids(&dead)), ids, "before run {run}");
                broker.publish_ids(&dead, &ids);
                broker.wait_for_count(&dead, n as u32);
                broker.spend_one_delivery(&dead);
            }
            let mut args: Vec<String> = look.iter().map(|s| s.to_string()).collect();
            args.insert(2, q.clone());
            match name {
                "export" => args.push(out_file(run).display().to_string()),
                "show" => args.push(n.to_string()),
                _ => {}
            }
            let args: Vec<&str> = args.iter().map(String::as_str).collect();
            let child = spawn_look(&broker, dir.path(), &args);
            // The delay is what the test varies: where in the look the signal lands.
            std::thread::sleep(Duration::from_millis(*delay));
            let pid = child.id().to_string();
            let _ = std::process::Command::new("kill")
                .args([signal, &pid])
                .status();
            let out = child.wait_with_output().unwrap();
            let what = format!("{name} stopped by {signal} after {delay} ms");
            let code = out.status.code();
            eprintln!("{what}: exit {:?}", out.status);
            // Before queuey hears signals it has taken nothing: the signal's own action then
            // ends it, which costs nothing either.
            let early = std::os::unix::process::ExitStatusExt::signal(&out.status).is_some();
            assert!(
                code == Some(130) || code == Some(0) || early,
                "{what}: exit {code:?}: {}",
                stderr(&out)
            );
            if code == Some(130) {
                interrupted += 1;
                let err = stderr(&out);
                assert!(
                    err.contains("interrupted by SIG") && err.contains("nothing removed"),
                    "{what}: says what happened: {err}"
                );
                match name {
                    "ls" => {
                        let j = json(&out);
                        assert_eq!(j["interrupted"], true, "{what}");
                        assert_eq!(j["complete"], false, "{what}");
                    }
                    "export" => {
                        assert!(err.contains("INCOMPLETE"), "{what}: {err}");
                        let text = std::fs::read_to_string(out_file(run)).unwrap();
                        // The file says it too: its end line.
                        let end: Json =
                            serde_json::from_str(text.lines().last().expect("a line")).unwrap();
                        assert_eq!(end["format"], "queuey.dead-letter.v1.end", "{what}");
                        assert_eq!(end["finished"], false, "{what}: {end}");
                        let lines = text.lines().count() - 1;
                        assert_eq!(end["records"].as_u64(), Some(lines as u64), "{what}");
                        assert!(
                            err.contains(&format!("exported {lines} of ")),
                            "{what}: the note counts the {lines} lines written: {err}"
                        );
                    }
                    _ => {}
                }
            }
            assert_still_holds(&broker, &dead, n as u32, &what);
        }
    }
    assert!(
        interrupted >= 6,
        "most signals landed mid-look ({interrupted} of {run}): the test proves little otherwise"
    );
    // The last word, by the broker: every id exactly once.
    assert_eq!(sorted(broker.drain_ids(&dead)), ids);
}

#[test]
fn kill_9_during_a_look_at_a_quorum_queue_costs_at_most_the_window() {
    let broker = Broker::connect();
    let n = 3000;
    let (q, dead, ids) = at_risk_quorum_dead_queue(&broker, "kill-look", n);
    let dir = tempfile::tempdir().unwrap();
    let window = 100;
    let mut killed = 0;
    let mut left = n as u32;
    for (round, delay) in [100u64, 400].into_iter().enumerate() {
        if round > 0 {
            // Every message on its last delivery again.
            let before = broker.drain_ids(&dead);
            broker.publish_ids(&dead, &before);
            broker.wait_for_count(&dead, left);
            broker.spend_one_delivery(&dead);
        }
        let mut child = spawn_look(
            &broker,
            dir.path(),
            &[
                "dead",
                "ls",
                &q,
                "--group-by",
                "cause",
                "--window",
                &window.to_string(),
            ],
        );
        // The delay is what the test varies: where in the look the kill lands.
        std::thread::sleep(Duration::from_millis(delay));
        if child.try_wait().unwrap().is_some() {
            continue;
        }
        crate::common::kill_mid_run(&mut child, "dead ls");
        killed += 1;
        // The broker returns the killed connection's deliveries at once, each counted: those
        // not yet replaced that were on their last delivery are dropped, and only those.
        let now = crate::common::settled(
            "q.dead to have the killed look's deliveries back",
            Duration::from_secs(30),
            Duration::from_millis(500),
            || broker.ready_and_consumers(&dead),
            |_| true,
        );
        assert!(
            now <= left && left - now <= window,
            "kill -9 after {delay} ms: {left} before, {now} after: at most {window} lost"
        );
        left = now;
    }
    assert!(killed >= 1, "no kill landed mid-look");
    let after = broker.drain_ids(&dead);
    assert_eq!(after.len() as u32, left);
    // What is left is the original ids, each at most once.
    let mut seen = std::collections::BTreeSet::new();
    for id in &after {
        assert!(ids.binary_search(id).is_ok(), "unexpected id {id}");
        assert!(seen.insert(id.clone()), "{id} twice");
    }
}

/// A `q.dead` that is a stream (a mistake made on 4.x, where streams are one declare away) is
/// named for what it is by every dead-letter command: exit 7, "is a stream", and the way to a
/// queue queuey can read (delete it, then `queuey declare q`), never a usage error (2) or an
/// unreachable broker (4). The same rule on 3.10 and 4.3: both have streams and refuse
/// `queue.purge` on one with a connection-level NOT_IMPLEMENTED. The stream keeps its messages.
#[test]
fn a_stream_dead_letter_queue_is_named_for_what_it_is() {
    let broker = Broker::connect();
    let q = broker.queue_name("streamed");
    let dead = format!("{q}.dead");
    broker.declare(&dead, table(vec![("x-queue-type", long_str("stream"))]));
    for id in ["s-1", "s-2", "s-3"] {
        broker.publish_props(&dead, id.as_bytes(), with_id(id));
    }
    let commands: Vec<Vec<&str>> = vec![
        vec!["dead", "ls", &q],
        vec!["dead", "ls", &q, "--group-by", "cause"],
        vec!["dead", "show", &q, "1"],
        vec!["dead", "export", &q],
        vec!["dead", "replay", &q],
        vec!["dead", "replay", &q, "--dry-run"],
        vec!["dead", "purge", &q, "--yes"],
        vec!["dead", "purge", &q, "--yes", "--dry-run"],
        vec!["dead", "purge", &q, "--yes", "--reason", "x"],
    ];
    for args in commands {
        let out = Queuey::new().args(&args).run();
        let err = stderr(&out);
        assert_eq!(out.status.code(), Some(7), "{args:?}: {err}");
        assert!(
            err.contains(&format!("{dead:?} in vhost \"/\" is a stream"))
                && err.contains("cannot be a queuey dead-letter queue")
                && err.contains(&format!("delete_queue {dead}"))
                && err.contains(&format!("queuey declare {q}")),
            "{args:?}: {err}"
        );
    }
    // Without the management API, the whole-queue purge learns it from the broker's refusal.
    let out = Queuey::new()
        .args([
            "dead",
            "purge",
            &q,
            "--yes",
            "--api-url",
            "http://127.0.0.1:1",
        ])
        .run();
    assert_eq!(out.status.code(), Some(7), "{}", stderr(&out));
    assert!(stderr(&out).contains("is a stream"), "{}", stderr(&out));
    let live = broker.api_queue(&dead).expect("the stream is still there");
    assert_eq!(live["type"], "stream");
}

/// A filter given several times matches any of its values (OR), `--header` as much as
/// `--reason` or `--message-id`; different filters still combine with AND.
#[test]
fn repeated_header_filters_match_any_of_their_values() {
    let broker = Broker::connect();
    let (q, _dead) = dead_letters(&broker, "headers", 6, None);
    let matched = |extra: &[&str]| {
        let mut args = vec!["dead", "ls", q.as_str(), "--limit", "0", "-o", "json"];
        args.extend_from_slice(extra);
        let out = run(&args);
        assert_eq!(code(&out), 0, "{extra:?}: {}", stderr(&out));
        json(&out)["matched"].as_u64().unwrap()
    };
    assert_eq!(matched(&["--header", "tenant=acme"]), 2);
    assert_eq!(
        matched(&["--header", "tenant=acme", "--header", "tenant=globex"]),
        4,
        "OR within --header"
    );
    assert_eq!(
        matched(&["--header", "tenant=initech", "--header", "no-such-header"]),
        2,
        "presence or value, any of them"
    );
    assert_eq!(
        matched(&[
            "--header",
            "tenant=acme",
            "--header",
            "tenant=globex",
            "--message-id",
            "m-1",
            "--message-id",
            "m-2",
        ]),
        1,
        "AND across filters: m-1 is globex, m-2 initech"
    );
}

/// Counts agree with their nouns.
#[test]
fn one_dead_letter_is_one_dead_letter() {
    let broker = Broker::connect();
    let (q, _dead) = dead_letters(&broker, "singular", 1, None);
    let out = run(&["dead", "purge", &q, "--dry-run"]);
    let text = stdout(&out);
    assert!(text.contains("1 dead letter "), "{text}");
    assert!(!text.contains("1 dead letters"), "{text}");
    let out = run(&["dead", "show", &q, "2"]);
    let err = stderr(&out);
    assert!(err.contains("(1 message)"), "{err}");
    let out = run(&["dead", "export", &q, "--output-file", "/dev/null/x"]);
    assert_ne!(code(&out), 0);
    let dir = tempfile::tempdir().unwrap();
    let file = dir.path().join("one.jsonl");
    let out = run(&[
        "dead",
        "export",
        &q,
        "--output-file",
        file.to_str().unwrap(),
    ]);
    let err = stderr(&out);
    assert!(err.contains("exported 1 of 1 "), "{err}");
    assert!(!err.contains("letters"), "{err}");
}

/// `dead export -o json` ends with a JSON summary when the records go to a file.
#[test]
fn export_to_a_file_prints_a_json_summary() {
    let broker = Broker::connect();
    let (q, _dead) = dead_letters(&broker, "export-json", 3, None);
    let dir = tempfile::tempdir().unwrap();
    let file = dir.path().join("out.jsonl");
    let out = run(&[
        "dead",
        "export",
        &q,
        "--output-file",
        file.to_str().unwrap(),
        "-o",
        "json",
    ]);
    assert_eq!(code(&out), 0, "{}", stderr(&out));
    let doc = json(&out);
    assert_eq!(doc["exported"], 3);
    assert_eq!(doc["scanned"], 3);
    assert_eq!(doc["output_file"], file.to_str().unwrap());
    // Three records and the end line.
    assert_eq!(fs::read_to_string(&file).unwrap().lines().count(), 4);
}

/// `--quorum-at-risk N` sets the rounds a quorum `q.dead` with a delivery limit is read in:
/// at most N/2 deliveries each (the next round arriving behind the current one, so that at most
/// N messages on their last delivery have arrived and are not yet replaced), and never more
/// than half of `--window`. The first round is one message and each next one at most twice the
/// one before (and at most 32 MiB of bodies like the largest seen: these are tiny), so the
/// rounds reach N/2 after a few and stay there. Seen by the broker: the prefetch of each consumer `rabbitmqctl
/// list_consumers` shows on `q.dead` while a replay slowed by `--rate` reads it. The same rule
/// on both versions (a limit of 20, 4.x's default, set on 3.10 too, where `--spend-delivery-budget`
/// is needed to read the queue at all).
#[test]
fn quorum_at_risk_sets_the_rounds_a_quorum_queue_is_read_in() {
    use crate::common::fixtures::{dead_letter, publish_all};
    let broker = Broker::connect();
    // A window smaller than the queue, so that the replay, slowed, keeps asking for rounds.
    let cases: [(&[&str], u64); 4] = [
        // The default (2048) binds less than the window: rounds of half the window.
        (&["--window", "1000"], 500),
        (&["--window", "1000", "--quorum-at-risk", "256"], 128),
        (&["--window", "1000", "--quorum-at-risk", "1000"], 500),
        (&["--window", "600", "--quorum-at-risk", "1000"], 300),
    ];
    for (flags, round) in cases {
        let (q, dead) = broker.quorum_dead_queue(&format!("at-risk-{round}"), 20);
        broker.declare(&q, FieldTable::default());
        let n = 3000usize;
        publish_all(
            &broker,
            &dead,
            (0..n).map(|i| {
                let id = format!("r-{i:05}");
                (dead_letter(&id, &q, "x"), b"{}".to_vec())
            }),
        );
        broker.wait_for_count(&dead, n as u32);
        let dir = tempfile::tempdir().unwrap();
        let mut cmd = Queuey::in_dir(dir.path()).process();
        cmd.args(["dead", "replay", &q, "--rate", "100", "-q"])
            .args(flags);
        if broker.rabbitmq_version() < (4, 3) {
            cmd.arg("--spend-delivery-budget");
        }
        let mut child = cmd
            .stdout(std::process::Stdio::null())
            .stderr(std::process::Stdio::null())
            .spawn()
            .expect("queuey starts");
        let prefetches = crate::common::eventually(
            "consumers of the replay on q.dead",
            Duration::from_secs(20),
            || {
                let out = crate::common::rabbitmq::rabbitmqctl(&[
                    "list_consumers",
                    "-q",
                    "-p",
                    "/",
                    "queue_name",
                    "prefetch_count",
                    "--formatter",
                    "json",
                ]);
                let listed: serde_json::Value = serde_json::from_slice(&out.stdout).ok()?;
                let mine: Vec<u64> = listed
                    .as_array()?
                    .iter()
                    .filter(|c| c["queue_name"] == dead.as_str())
                    .filter_map(|c| c["prefetch_count"].as_u64())
                    .collect();
                // The early rounds are smaller: wait for one of the full size (or more).
                (mine.iter().max() >= Some(&round)).then_some(mine)
            },
        );
        crate::common::kill_mid_run(&mut child, "dead replay --rate 100");
        assert!(
            prefetches.iter().all(|p| *p <= round) && prefetches.len() <= 2,
            "{flags:?}: rounds of at most {round} expected, the broker lists consumers of {prefetches:?}"
        );
    }
}

/// A look at a quorum `q.dead` of big bodies reads every message and leaves every one. A quorum
/// queue hands a consumer as much as its prefetch allows at once, and with bodies of 1 MiB the
/// broker needs seconds to read a big round from disk: meanwhile no message is ready, and the
/// peek took that for a queue that ran dry (seen on 3.10 with 1200 bodies of 1 MiB and a
/// first round of all of them: `dead ls` scanned 0 of 1200 and called itself complete). Now
/// the first round is one message, each next at most 32 MiB of bodies like the largest seen
/// (half the 64 MiB budget: the next round arrives while one is read), and a quorum peek gives
/// the broker 10 s of silence before it ends its rounds to judge the queue dry. The same on
/// both versions (no delivery limit set: 3.10 has none, 4.x its default of 20, and from 4.3
/// a look's return is free).
#[test]
fn a_look_at_big_quorum_dead_letters_reads_them_all() {
    use crate::common::fixtures::{dead_letter, publish_all};
    let broker = Broker::connect();
    let q = broker.queue_name("big-bodies");
    let dead = format!("{q}.dead");
    broker.declare(&dead, table(vec![("x-queue-type", long_str("quorum"))]));
    let n = 1200usize;
    let body = vec![b'x'; 1 << 20];
    publish_all(
        &broker,
        &dead,
        (0..n).map(|i| (dead_letter(&format!("b-{i:05}"), &q, "x"), body.clone())),
    );
    broker.wait_for_count(&dead, n as u32);
    let mut args = vec![q.as_str(), "--limit", "0", "-o", "json"];
    if broker.rabbitmq_version() >= (4, 0) && broker.rabbitmq_version() < (4, 3) {
        args.push("--spend-delivery-budget");
    }
    // 1.2 GB through the broker: minutes on a loaded machine, more than a command's usual 120 s.
    let out = Queuey::new()
        .args(["dead", "ls"])
        .args(&args)
        .timeout(std::time::Duration::from_secs(600))
        .run();
    assert_eq!(code(&out), 0, "{}", stderr(&out));
    let doc = json(&out);
    assert_eq!(doc["scanned"], n, "{}", stderr(&out));
    assert_eq!(doc["complete"], true);
    let mut got = ids(&doc);
    got.sort();
    got.dedup();
    assert_eq!(got.len(), n, "each message once");
    broker.wait_for_count(&dead, n as u32);
}

/// A header is filtered and counted by its typed value, not by how it prints: the byte 0xff (a
/// long string that is not UTF-8) and the text `\xff` print alike, yet are two groups, and
/// each filter selects one of them; a byte array, an integer and a string are their own groups.
#[test]
fn headers_that_print_alike_are_told_apart() {
    let broker = Broker::connect();
    let q = broker.queue_name("typed-headers");
    let dead = format!("{q}.dead");
    broker.declare(&dead, FieldTable::default());
    let sig = |v: AMQPValue| Some(table(vec![("sig", v)]));
    for (id, value) in [
        ("byte-1", AMQPValue::LongString(vec![0xff].into())),
        ("text", long_str("\\xff")),
        ("array", AMQPValue::ByteArray(ByteArray::from(vec![0xff]))),
        ("byte-2", AMQPValue::LongString(vec![0xff].into())),
        ("int", AMQPValue::LongInt(5)),
        ("five", long_str("5")),
    ] {
        let mut props = BasicProperties::default().with_message_id(id.into());
        if let Some(h) = sig(value) {
            props = props.with_headers(h);
        }
        broker.publish_props(&dead, b"{}", props);
    }
    broker.wait_for_count(&dead, 6);
    let ls = |extra: &[&str]| {
        let mut args = vec!["dead", "ls", q.as_str(), "--limit", "0", "-o", "json"];
        args.extend_from_slice(extra);
        let out = run(&args);
        assert_eq!(code(&out), 0, "{extra:?}: {}", stderr(&out));
        json(&out)
    };
    let ids = |extra: &[&str]| -> Vec<String> {
        ls(extra)["messages"]
            .as_array()
            .unwrap()
            .iter()
            .map(|m| m["message_id"].as_str().unwrap().to_owned())
            .collect()
    };

    let doc = ls(&["--group-by", "header:sig"]);
    let mut groups: Vec<(String, u64)> = doc["groups"]
        .as_array()
        .unwrap()
        .iter()
        .map(|g| {
            (
                g["key"]["header:sig"].as_str().unwrap().to_owned(),
                g["count"].as_u64().unwrap(),
            )
        })
        .collect();
    groups.sort();
    let expected: Vec<(String, u64)> = [
        ("\"\\xff\"", 2),
        ("\"\\\\xff\"", 1),
        ("5", 1),
        ("bytes:ff", 1),
        ("i32:5", 1),
    ]
    .into_iter()
    .map(|(k, n)| (k.to_owned(), n))
    .collect();
    let mut expected = expected;
    expected.sort();
    assert_eq!(groups, expected, "{doc}");
    let out = run(&["dead", "ls", &q, "--group-by", "header:sig"]);
    let table_text = stdout(&out);
    for key in [
        "| \"\\xff\"",
        "| \"\\\\xff\"",
        "| bytes:ff",
        "| i32:5",
        "| 5 ",
    ] {
        assert!(table_text.contains(key), "{key}: {table_text}");
    }

    // Plain text is text: the four characters, never the byte or the byte array.
    assert_eq!(ids(&["--header", "sig=\\xff"]), ["text"]);
    // A typed key, as the groups show it, selects its group alone.
    assert_eq!(ids(&["--header", "sig:=\"\\xff\""]), ["byte-1", "byte-2"]);
    assert_eq!(ids(&["--header", "sig:=\"\\\\xff\""]), ["text"]);
    assert_eq!(ids(&["--header", "sig:=bytes:ff"]), ["array"]);
    // A number matches its text as before; the typed key tells the integer from the string.
    assert_eq!(ids(&["--header", "sig=5"]), ["int", "five"]);
    assert_eq!(ids(&["--header", "sig:=i32:5"]), ["int"]);
    assert_eq!(ids(&["--header", "sig:=5"]), ["five"]);
    // A bare backslash in a typed key is refused, never guessed at.
    let out = run(&["dead", "ls", &q, "--header", "sig:=\\xff"]);
    assert_eq!(code(&out), 2, "{}", stderr(&out));
    assert!(stderr(&out).contains("quote it"), "{}", stderr(&out));
    // Every command takes the same filters: the purge's dry run counts the two bytes.
    let out = run(&[
        "dead",
        "purge",
        &q,
        "--header",
        "sig:=\"\\xff\"",
        "--dry-run",
    ]);
    assert_eq!(code(&out), 0, "{}", stderr(&out));
    assert!(stdout(&out).contains("2 dead letters"), "{}", stdout(&out));
    assert_eq!(broker.count(&dead), 6, "peeking changes nothing");
}
