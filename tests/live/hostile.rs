//! Dead letters that a hostile or careless publisher can put into `q.dead`, and that the broker
//! takes, but that queuey's AMQP client or the broker's own limits make hard to move: each must
//! be named, stay where it is, and never stop queuey from handling the others.

use lapin::types::{AMQPValue, FieldArray, FieldTable};

use crate::common::fixtures::{dead_letter, publish_all, setup};
use crate::common::{Broker, Queuey, Run, json, long_str, stderr};

/// The length of a header value that leaves a dead letter's content header within the broker's
/// default frame size (131072 bytes) while its replayed copy, which carries queuey's replay
/// record (`x-queuey-last-replay`: a couple of hundred bytes), is over it.
const NEAR_FRAME_MAX: usize = 130_800;

/// A copy whose properties would make a content header frame over the connection's frame size
/// is not published: the broker would close the whole connection (`FRAME_ERROR`) and the run
/// would stop, exit 4, "run the command again", and fail the same way on every rerun. The dead
/// letter stays, byte for byte, the run goes on with the others and exits 3; the same from an
/// export file. Same rule on 3.10 and 4.3 (both default to a frame size of 131072).
#[test]
fn a_copy_over_the_frame_size_stays_and_the_others_move() {
    let broker = Broker::connect();
    let (q, dead, targets) = setup(&broker, "frame", 1);
    let target = targets[0].as_str();
    let big = |id: &str| {
        let props = dead_letter(id, target, "fatal error: x");
        let mut headers: FieldTable = props.headers().clone().unwrap_or_default();
        headers.insert("big".into(), long_str(&"v".repeat(NEAR_FRAME_MAX)));
        (props.with_headers(headers), b"{\"n\":1}".to_vec())
    };
    let small = |id: &str| (dead_letter(id, target, "fatal error: x"), b"{}".to_vec());
    publish_all(
        &broker,
        &dead,
        vec![small("before"), big("big"), small("after")],
    );
    let original = broker.snapshot(&dead);

    let (_dir, export) = export_to_file(&q);

    let report = replay_keeping_one(&q, 2);
    assert!(
        report["targets"][0]["failure"]
            .as_str()
            .is_some_and(|f| f.contains("frame_max")),
        "{report}"
    );
    assert_eq!(broker.ids(target), ["before", "after"]);
    let left = broker.snapshot(&dead);
    assert_eq!(left.len(), 1);
    assert_eq!(left[0].0, original[1].0, "the body is untouched");
    assert_eq!(
        left[0].1.headers(),
        original[1].1.headers(),
        "the headers are untouched"
    );

    // From the export file: the same, and the run goes on past the line.
    replay_file_keeping_one(&q, target, &export, 2);
    assert_eq!(broker.ids(target), ["before", "after", "before", "after"]);
    assert_eq!(broker.ids(&dead), ["big"]);
}

/// AMQP 0-9-1 spoken by hand, for what lapin cannot send: a header name or a short-string
/// property that is not UTF-8 (lapin's `ShortString` is a Rust `String`). RabbitMQ takes both.
mod raw {
    use std::io::{Read, Write};
    use std::net::TcpStream;

    fn short(out: &mut Vec<u8>, s: &[u8]) {
        out.push(u8::try_from(s.len()).expect("a short string"));
        out.extend_from_slice(s);
    }

    fn long(out: &mut Vec<u8>, s: &[u8]) {
        out.extend_from_slice(&u32::try_from(s.len()).expect("a long string").to_be_bytes());
        out.extend_from_slice(s);
    }

    fn frame(stream: &mut TcpStream, kind: u8, channel: u16, payload: &[u8]) {
        let mut f = vec![kind];
        f.extend_from_slice(&channel.to_be_bytes());
        long(&mut f, payload);
        f.push(0xce);
        stream.write_all(&f).expect("write a frame");
    }

    fn method(stream: &mut TcpStream, channel: u16, class: u16, id: u16, args: &[u8]) {
        let mut p = class.to_be_bytes().to_vec();
        p.extend_from_slice(&id.to_be_bytes());
        p.extend_from_slice(args);
        frame(stream, 1, channel, &p);
    }

    /// Reads frames until a method frame of (class, id); returns its arguments.
    fn expect(stream: &mut TcpStream, class: u16, id: u16) -> Vec<u8> {
        loop {
            let mut head = [0u8; 7];
            stream.read_exact(&mut head).expect("read a frame header");
            let size = u32::from_be_bytes([head[3], head[4], head[5], head[6]]) as usize;
            let mut payload = vec![0u8; size + 1];
            stream.read_exact(&mut payload).expect("read a frame");
            if head[0] != 1 {
                continue;
            }
            let got = (
                u16::from_be_bytes([payload[0], payload[1]]),
                u16::from_be_bytes([payload[2], payload[3]]),
            );
            assert_ne!(got, (10, 50), "the broker closed the connection");
            assert_ne!(got, (20, 40), "the broker closed the channel");
            if got == (class, id) {
                return payload[4..size].to_vec();
            }
        }
    }

    /// One message, as a hostile publisher writes it.
    pub struct Raw<'a> {
        pub message_id: &'a [u8],
        /// Header names and long-string values, names taken as they are.
        pub headers: Vec<(&'a [u8], &'a [u8])>,
        /// Header names and field values already encoded (type octet and value).
        pub encoded: Vec<(&'a [u8], Vec<u8>)>,
        pub body: &'a [u8],
    }

    /// A field value of `depth` arrays, each holding the next, the last a long string:
    /// encoded in a loop, however deep.
    pub fn nested_arrays(depth: usize, bottom: &[u8]) -> Vec<u8> {
        let mut value = vec![b'S'];
        long(&mut value, bottom);
        for _ in 0..depth {
            let mut outer = vec![b'A'];
            long(&mut outer, &value);
            value = outer;
        }
        value
    }

    impl<'a> Raw<'a> {
        /// A dead letter lapin reads: an id, `x-original-queue` naming `target`.
        pub fn readable(id: &'a str, target: &'a [u8]) -> Raw<'a> {
            Raw {
                message_id: id.as_bytes(),
                headers: vec![(b"x-original-queue".as_slice(), target)],
                encoded: Vec::new(),
                body: b"{}",
            }
        }

        /// A message whose header name is not UTF-8: lapin cannot parse it.
        pub fn bad_header_name() -> Raw<'static> {
            Raw {
                message_id: b"bad-name",
                headers: vec![(b"x-\xff\xfe".as_slice(), b"v".as_slice())],
                encoded: Vec::new(),
                body: b"bad",
            }
        }
    }

    /// Publishes `messages` to `queue` through the default exchange, with publisher confirms,
    /// as `guest` on the test broker's host and port and in `vhost`.
    pub fn publish(url: &str, vhost: &str, queue: &str, messages: &[Raw]) {
        let url = url::Url::parse(url).expect("a URL");
        let host = url.host_str().expect("a host");
        let mut s = TcpStream::connect((host, url.port().unwrap_or(5672))).expect("connect");
        s.write_all(b"AMQP\x00\x00\x09\x01")
            .expect("protocol header");
        expect(&mut s, 10, 10);
        let mut start_ok = 0u32.to_be_bytes().to_vec();
        short(&mut start_ok, b"PLAIN");
        let user = percent_encoding::percent_decode_str(url.username()).decode_utf8_lossy();
        let password = url.password().unwrap_or("guest");
        let password = percent_encoding::percent_decode_str(password).decode_utf8_lossy();
        long(&mut start_ok, format!("\0{user}\0{password}").as_bytes());
        short(&mut start_ok, b"en_US");
        method(&mut s, 0, 10, 11, &start_ok);
        let tune = expect(&mut s, 10, 30);
        method(&mut s, 0, 10, 31, &tune);
        let mut open = Vec::new();
        short(&mut open, vhost.as_bytes());
        short(&mut open, b"");
        open.push(0);
        method(&mut s, 0, 10, 40, &open);
        expect(&mut s, 10, 41);
        method(&mut s, 1, 20, 10, &[0]);
        expect(&mut s, 20, 11);
        method(&mut s, 1, 85, 10, &[0]);
        expect(&mut s, 85, 11);
        for m in messages {
            let mut publish = 0u16.to_be_bytes().to_vec();
            short(&mut publish, b"");
            short(&mut publish, queue.as_bytes());
            publish.push(0);
            method(&mut s, 1, 60, 40, &publish);
            let mut table = Vec::new();
            for (name, value) in &m.headers {
                short(&mut table, name);
                table.push(b'S');
                long(&mut table, value);
            }
            for (name, value) in &m.encoded {
                short(&mut table, name);
                table.extend_from_slice(value);
            }
            let mut header = 60u16.to_be_bytes().to_vec();
            header.extend_from_slice(&0u16.to_be_bytes());
            header.extend_from_slice(&(m.body.len() as u64).to_be_bytes());
            // headers (bit 13), delivery mode (12), message id (7)
            let flags: u16 = (1 << 13) | (1 << 12) | (1 << 7);
            header.extend_from_slice(&flags.to_be_bytes());
            long(&mut header, &table);
            header.push(2);
            short(&mut header, m.message_id);
            frame(&mut s, 2, 1, &header);
            frame(&mut s, 3, 1, m.body);
            expect(&mut s, 60, 80);
        }
        let mut close = 200u16.to_be_bytes().to_vec();
        short(&mut close, b"done");
        close.extend_from_slice(&[0, 0, 0, 0]);
        method(&mut s, 0, 10, 50, &close);
        expect(&mut s, 10, 51);
    }
}

/// A message whose header name or message id is not UTF-8 (RabbitMQ takes both from a
/// publisher) cannot be parsed by queuey's AMQP client, which then drops the connection: the
/// peek ends there. Before, that was exit 4 "lost the connection ... run the command again",
/// for ever. Now it is exit 7 (`unreadable-message`) naming how far it read and the way out,
/// and nothing is removed; the messages before it can be moved with `--limit --window 1`.
/// Same on 3.10 and 4.3.
#[test]
fn a_message_queueys_client_cannot_parse_is_named_and_nothing_is_removed() {
    let broker = Broker::connect();
    let (q, dead, targets) = setup(&broker, "unparsable", 1);
    let target = targets[0].as_str();
    let fine = |id: &'static str| raw::Raw::readable(id, target.as_bytes());
    raw::publish(
        &broker.url,
        &broker.vhost,
        &dead,
        &[
            fine("before"),
            raw::Raw::bad_header_name(),
            raw::Raw {
                message_id: b"bad-\xc3\x28-id",
                headers: vec![],
                encoded: Vec::new(),
                body: b"bad",
            },
            fine("after"),
        ],
    );
    broker.wait_for_count(&dead, 4);
    // One state directory for every run, as an operator's: a replay stopped at the message may
    // have copied the one before it (its dead letter's ack lost with the connection), and its
    // rerun finds that copy in its journal rather than copy it again.
    let dir = tempfile::tempdir().unwrap();
    let queuey = || Queuey::in_dir(dir.path());
    for args in [
        vec!["dead", "ls", &q, "-o", "json"],
        vec!["dead", "export", &q],
        vec!["dead", "replay", &q, "-o", "json"],
    ] {
        let out = queuey().args(&args).run();
        assert_eq!(out.status.code(), Some(7), "{args:?}: {}", out.stderr);
        let text = out.stdout + &out.stderr;
        assert!(
            text.contains("unreadable-message") || text.contains("cannot parse"),
            "{args:?}: {text}"
        );
        assert!(!text.contains("run the command again;"), "{args:?}: {text}");
        assert!(
            !text.contains("Run the same command again"),
            "{args:?}: {text}"
        );
        broker.wait_for_count(&dead, 4);
    }
    let out = queuey().args(["dead", "ls", &q]).run();
    assert!(
        stderr(&out).contains("after 1 delivery:"),
        "how far it read: {}",
        stderr(&out)
    );

    // What is before it can be moved, one delivery at a time. The replay that stopped at the
    // message may have sent the ack of "before" when its connection died: then no client can
    // tell whether the broker applied it, and "before" is copied again and said to be a
    // possible duplicate (the ledger's rule); if that ack was never sent, the ledger's last
    // line says so and the rerun copies nothing again.
    let out = queuey()
        .args([
            "dead", "replay", &q, "--limit", "1", "--window", "1", "-o", "json",
        ])
        .run();
    assert!(out.status.success(), "{}", stderr(&out));
    let said = json(&out)["may_be_duplicates"].as_u64().unwrap_or(0);
    let moved = broker.ids(target);
    assert!(
        !moved.is_empty() && moved.iter().all(|id| id == "before"),
        "{moved:?}"
    );
    assert!(
        moved.len() as u64 <= 1 + said,
        "{} copies of \"before\", {said} said to be possible duplicates",
        moved.len()
    );
    broker.wait_for_count(&dead, 3);
}

/// On a quorum `q.dead` with a delivery limit, a read that meets a message queuey cannot parse
/// loses its connection, which spends one delivery of every message it held (on every
/// version), and a run in a loop would meet it every time until the broker drops the messages
/// around it. So the first run leaves a mark in the state directory and later runs refuse
/// before they consume anything (their refusal is said before any consume), exit 7, until
/// `--retry-unreadable`. The same rule on 3.10 and 4.3 (3.10 reads a quorum queue only
/// with `--spend-delivery-budget` at all).
#[test]
fn a_quorum_dead_queue_with_an_unreadable_message_is_not_read_again_by_itself() {
    let broker = Broker::connect();
    let (q, dead) = broker.quorum_dead_queue("unreadable-quorum", 5);
    let target = broker.queue_name("unreadable-quorum-target");
    broker.declare(&target, FieldTable::default());
    let fine = |id: &'static str| raw::Raw::readable(id, target.as_bytes());
    raw::publish(
        &broker.url,
        &broker.vhost,
        &dead,
        &[fine("before"), raw::Raw::bad_header_name(), fine("after")],
    );
    broker.wait_for_count(&dead, 3);
    let mut flags: Vec<&str> = Vec::new();
    if broker.rabbitmq_version() < (4, 3) {
        flags.push("--spend-delivery-budget");
    }
    let dir = tempfile::tempdir().expect("a temporary directory");
    let run = |args: &[&str]| {
        let out = Queuey::in_dir(dir.path()).args(args).args(&flags).run();
        broker.wait_for_count(&dead, 3);
        out
    };
    let first = run(&["dead", "ls", &q]);
    assert_eq!(first.status.code(), Some(7), "{}", stderr(&first));
    assert!(
        stderr(&first).contains("cannot parse"),
        "{}",
        stderr(&first)
    );
    for _ in 0..2 {
        let again = run(&["dead", "ls", &q]);
        assert_eq!(again.status.code(), Some(7), "{}", stderr(&again));
        assert!(
            stderr(&again).contains("does not read the queue again by itself")
                && stderr(&again).contains("after 1 delivery")
                && stderr(&again).contains("--retry-unreadable"),
            "{}",
            stderr(&again)
        );
    }
    // With the flag it reads again, meets the message again, and marks it again.
    let retried = run(&["dead", "ls", &q, "--retry-unreadable"]);
    assert_eq!(retried.status.code(), Some(7), "{}", stderr(&retried));
    assert!(
        stderr(&retried).contains("cannot parse"),
        "{}",
        stderr(&retried)
    );
    let still = run(&["dead", "ls", &q]);
    assert!(
        stderr(&still).contains("does not read the queue again by itself"),
        "{}",
        stderr(&still)
    );
    // Elsewhere (another state directory: another machine) nothing is known of it.
    let out = Queuey::new().args(["dead", "ls", &q]).args(&flags).run();
    assert!(stderr(&out).contains("cannot parse"), "{}", stderr(&out));
    broker.wait_for_count(&dead, 3);
}

/// An export file may say `"NaN"`, `"inf"` or `"-inf"` for a float header (the format allows
/// it), but RabbitMQ cannot store one: it closes the whole connection on such a publish (541
/// INTERNAL_ERROR, 3.10.8 and 4.3.6), which made `--from-file` fail with "run the command
/// again" for ever. Now the file is refused before anything is published (exit 2), naming the
/// line and the header.
#[test]
fn an_export_line_with_a_float_that_is_not_finite_is_refused_before_publishing() {
    let broker = Broker::connect();
    let (q, dead, targets) = setup(&broker, "nan", 1);
    let target = targets[0].as_str();
    publish_all(
        &broker,
        &dead,
        vec![(dead_letter("one", target, "fatal error: x"), b"{}".to_vec())],
    );
    let (dir, export) = export_to_file(&q);
    let mut record: serde_json::Value = serde_json::from_str(
        std::fs::read_to_string(&export)
            .unwrap()
            .lines()
            .next()
            .unwrap(),
    )
    .unwrap();
    for (i, value) in ["NaN", "inf", "-inf"].into_iter().enumerate() {
        record["properties"]["headers"]["score"] =
            serde_json::json!({"type": "f64", "value": value});
        let file = dir.path().join(format!("edited-{i}.jsonl"));
        std::fs::write(&file, format!("{record}\n")).unwrap();
        let out = Queuey::new()
            .args(["dead", "replay", &q, "--to", target, "--from-file"])
            .arg(&file)
            .run();
        assert_eq!(out.status.code(), Some(2), "{value}: {}", stderr(&out));
        assert!(
            stderr(&out).contains("line 1: headers.score is")
                && stderr(&out).contains("not finite"),
            "{value}: {}",
            stderr(&out)
        );
    }
    assert_eq!(broker.count(target), 0);
}

/// The test broker's `max_message_size`, lowered for a test and put back as it was found when
/// the guard drops (passed or panicked): the broker is shared.
///
/// Each version's rule: on 3.x the limit is the `rabbit` application's setting, read when a
/// channel opens (`application:set_env` reaches channels opened after it); from 4.0 it is
/// copied into `persistent_term` at boot (`persistent_term:get(max_message_size)` in
/// `rabbit_channel:check_msg_size`), and a `set_env` changes nothing.
struct LoweredMaxMessageSize {
    major: u32,
    was: u64,
}

/// Held by a test that changes the broker's `max_message_size`, from before it publishes its
/// big bodies until it has put the limit back: the tests of a binary run side by side.
static MAX_MESSAGE_SIZE_CHANGED: std::sync::Mutex<()> = std::sync::Mutex::new(());

fn one_max_message_size_test_at_a_time() -> std::sync::MutexGuard<'static, ()> {
    MAX_MESSAGE_SIZE_CHANGED
        .lock()
        .unwrap_or_else(std::sync::PoisonError::into_inner)
}

impl LoweredMaxMessageSize {
    fn eval(expr: &str) -> String {
        let out = crate::common::rabbitmq::rabbitmqctl(&["eval", expr]);
        assert!(
            out.status.success(),
            "rabbitmqctl eval {expr}: {}",
            stderr(&out)
        );
        String::from_utf8_lossy(&out.stdout).trim().to_owned()
    }

    fn read(major: u32) -> u64 {
        let text = if major >= 4 {
            Self::eval("persistent_term:get(max_message_size).")
        } else {
            Self::eval("application:get_env(rabbit, max_message_size).")
        };
        let digits: String = text.chars().filter(char::is_ascii_digit).collect();
        digits
            .parse()
            .unwrap_or_else(|_| panic!("max_message_size: {text:?}"))
    }

    fn set(major: u32, size: u64) {
        if major >= 4 {
            Self::eval(&format!("persistent_term:put(max_message_size, {size})."));
        } else {
            Self::eval(&format!(
                "application:set_env(rabbit, max_message_size, {size})."
            ));
        }
    }

    fn lower(major: u32, to: u64) -> LoweredMaxMessageSize {
        let was = Self::read(major);
        let guard = LoweredMaxMessageSize { major, was };
        Self::set(major, to);
        assert_eq!(Self::read(major), to);
        guard
    }
}

impl Drop for LoweredMaxMessageSize {
    fn drop(&mut self) {
        Self::set(self.major, self.was);
    }
}

/// A dead letter whose body is over the broker's `max_message_size` (it was dead-lettered, or
/// the limit lowered, after it was queued): its copy would be refused by a channel close (406
/// PRECONDITION_FAILED, "message size N is larger than configured max size M"). The replay asks
/// the broker first (a probe, once per size), keeps that dead letter in q.dead, names the limit
/// and moves the others; exit 3. The same from an export file. The defaults: 128 MiB on 3.x,
/// 16 MiB from 4.0; the limit lowered here to 8 MiB, a body of exactly 8 MiB taken, one byte
/// more refused.
#[test]
fn a_body_over_the_brokers_max_message_size_stays_and_the_others_move() {
    const LIMIT: u64 = 8 << 20;
    let _one = one_max_message_size_test_at_a_time();
    let broker = Broker::connect();
    let (major, minor) = broker.rabbitmq_version();
    let default = if major >= 4 { 16 << 20 } else { 128 << 20 };
    assert_eq!(
        LoweredMaxMessageSize::read(major),
        default,
        "the default max_message_size of {major}.{minor}"
    );
    let (q, dead, targets) = setup(&broker, "maxsize", 1);
    let target = targets[0].as_str();
    let letter = |id: &str, size: u64| {
        (
            dead_letter(id, target, "fatal error: x"),
            vec![b'x'; size as usize],
        )
    };
    publish_all(
        &broker,
        &dead,
        vec![
            letter("small", 2),
            letter("at-limit", LIMIT),
            letter("over", LIMIT + 1),
            letter("after", 2 << 20),
        ],
    );
    let (_dir, export) = export_to_file(&q);

    // Lowered after the dead letters were queued, as an operator would.
    let _lowered = LoweredMaxMessageSize::lower(major, LIMIT);
    let report = replay_keeping_one(&q, 3);
    let failure = report["targets"][0]["failure"].as_str().unwrap_or_default();
    assert!(
        failure.contains(&format!("max_message_size {LIMIT}")) && failure.contains("export"),
        "{report}"
    );
    assert_eq!(broker.ids(&dead), ["over"], "the big one stays, once");
    assert_eq!(broker.ids(target), ["small", "at-limit", "after"]);
    let left = broker.snapshot(&dead);
    assert_eq!(left[0].0.len() as u64, LIMIT + 1, "its body is untouched");

    // From the export file: the same, and the run goes on past the line.
    replay_file_keeping_one(&q, target, &export, 3);
    assert_eq!(
        broker.ids(target),
        ["small", "at-limit", "after", "small", "at-limit", "after"]
    );
    assert_eq!(broker.ids(&dead), ["over"]);
}

/// A look at a quorum `q.dead` replaces the messages on their last delivery by fresh copies
/// before it hands them on (a crash would end them). One whose body is over the broker's
/// `max_message_size` cannot be kept by a copy: the others are, and the look stops naming it
/// and the limit (exit 7), its return by the look's `basic.nack`, not by a closed channel. The
/// rule for that message by version: from 4.3 a nack spends no delivery, and it stays; before
/// 4.3 every return counts, and that one ends it (the hint says so before it happens: a look
/// there needs `--spend-delivery-budget`). The others are in `q.dead` once each on both.
#[test]
fn a_quorum_message_on_its_last_delivery_over_max_message_size_is_named_and_the_others_kept() {
    const LIMIT: u64 = 8 << 20;
    let _one = one_max_message_size_test_at_a_time();
    let broker = Broker::connect();
    let (major, minor) = broker.rabbitmq_version();
    let (q, dead) = broker.quorum_dead_queue("maxsize-rescue", 1);
    let letter = |id: &str, size: usize| (dead_letter(id, &q, "fatal error: x"), vec![b'x'; size]);
    publish_all(
        &broker,
        &dead,
        vec![
            letter("small-1", 2),
            letter("over", LIMIT as usize + 1),
            letter("small-2", 3),
        ],
    );
    broker.wait_for_count(&dead, 3);
    // Each has spent its one allowed counted return: every one is on its last delivery.
    broker.spend_one_delivery(&dead);
    let lowered = LoweredMaxMessageSize::lower(major, LIMIT);
    let mut cmd = Queuey::new();
    cmd.args(["dead", "ls", &q, "--limit", "0"]);
    if (major, minor) < (4, 3) {
        cmd.arg("--spend-delivery-budget");
    }
    let out = cmd.run();
    let err = stderr(&out);
    assert_eq!(out.status.code(), Some(7), "{err}");
    assert!(
        err.contains("\"over\"")
            && err.contains(&format!("max_message_size {LIMIT}"))
            && err.contains("the others on their last delivery were kept by copies"),
        "{err}"
    );
    drop(lowered);
    let expected: &[&str] = if (major, minor) >= (4, 3) {
        &["over", "small-1", "small-2"]
    } else {
        &["small-1", "small-2"]
    };
    broker.wait_for_count(&dead, expected.len() as u32);
    let mut left = broker.drain_ids(&dead);
    left.sort();
    assert_eq!(left, expected, "{major}.{minor}");
}

/// A header nested 100 arrays deep (RabbitMQ takes it; a record nests two JSON levels for each)
/// made an export line deeper than the 128 levels serde_json reads by default: `dead replay
/// --from-file` refused the file ("recursion limit exceeded", exit 2), and a purge archive
/// holding such a line could not be replayed at all. Now the line reads back and the copy
/// carries the header as it was; `dead ls` and `dead show` read it. Same on 3.10 and 4.3.
#[test]
fn a_deeply_nested_header_survives_an_export_and_its_replay() {
    const DEPTH: usize = 100;
    let broker = Broker::connect();
    let (q, dead, targets) = setup(&broker, "deep", 1);
    let target = targets[0].as_str();
    let mut deep = long_str("bottom");
    for _ in 0..DEPTH {
        deep = AMQPValue::FieldArray(FieldArray::from(vec![deep]));
    }
    let props = dead_letter("deep", target, "fatal error: x");
    let mut headers: FieldTable = props.headers().clone().unwrap_or_default();
    headers.insert("deep".into(), deep.clone());
    publish_all(
        &broker,
        &dead,
        vec![
            (props.with_headers(headers), b"{}".to_vec()),
            (
                dead_letter("plain", target, "fatal error: x"),
                b"{}".to_vec(),
            ),
        ],
    );
    broker.wait_for_count(&dead, 2);
    for args in [vec!["dead", "ls", &q], vec!["dead", "show", &q, "1"]] {
        let out = Queuey::new().args(&args).run();
        assert!(out.status.success(), "{args:?}: {}", stderr(&out));
    }
    let (_dir, export) = export_to_file(&q);
    let out = Queuey::new()
        .args([
            "dead",
            "replay",
            &q,
            "-o",
            "json",
            "--to",
            target,
            "--from-file",
        ])
        .arg(&export)
        .run();
    assert!(out.status.success(), "{}", stderr(&out));
    assert_eq!(json(&out)["moved"].as_u64(), Some(2), "{}", stderr(&out));
    let copies = broker.snapshot(target);
    let copy = copies
        .iter()
        .find(|(_, p)| p.message_id().as_ref().map(|s| s.as_str()) == Some("deep"))
        .expect("the copy of the deep dead letter");
    assert_eq!(
        copy.1
            .headers()
            .as_ref()
            .and_then(|h| h.inner().get("deep")),
        Some(&deep),
        "the header whole"
    );
    assert_eq!(
        broker.ids(&dead),
        ["deep", "plain"],
        "a file replay removes nothing"
    );
}

/// A dead letter whose headers name `q.dead` itself as its original queue cannot be copied
/// without `--to` (the copy would only go to the back of `q.dead`): from `q.dead` it stays and
/// the others move (exit 3). From an export file it stopped the whole run at its line (exit 2,
/// the lines before it copied), and every rerun stopped there again, though `--dry-run` said it
/// would move. Now its line fails alone: exit 3, the others copied. Same on 3.10 and 4.3.
#[test]
fn a_line_naming_its_dead_queue_as_its_origin_fails_alone_in_a_file_replay() {
    let broker = Broker::connect();
    let (q, dead, targets) = setup(&broker, "self-origin", 1);
    let target = targets[0].as_str();
    publish_all(
        &broker,
        &dead,
        vec![
            (
                dead_letter("before", target, "fatal error: x"),
                b"{}".to_vec(),
            ),
            (dead_letter("self", &dead, "fatal error: x"), b"{}".to_vec()),
            (
                dead_letter("after", target, "fatal error: x"),
                b"{}".to_vec(),
            ),
        ],
    );
    broker.wait_for_count(&dead, 3);
    let (_dir, export) = export_to_file(&q);
    let out = Queuey::new()
        .args(["dead", "replay", &q, "-o", "json", "--from-file"])
        .arg(&export)
        .run();
    let report = partial_keeping_one(&out, 2);
    assert!(
        report.to_string().contains("itself") && report.to_string().contains("line 2"),
        "{report}"
    );
    assert_eq!(broker.ids(target), ["before", "after"]);
    assert_eq!(broker.ids(&dead), ["before", "self", "after"]);
}

/// A header of 25 000 nested arrays (125 KB: it fits the default frame of 131072 bytes, and
/// RabbitMQ takes it from any publisher) aborted queuey on every look at its queue: the AMQP
/// client's parser recursed once per level on its I/O thread's 2 MiB stack (`thread
/// 'lapin-io-loop' has overflowed its stack`, exit 134, from 200 levels in a debug build), and
/// queuey's own decoding ran on the 8 MiB main thread. Now every thread has a deep stack: the
/// message is listed, shown (the indent stops at 32 levels, each line saying its level), purged
/// into an archive and restored from it, the header whole. Same on 3.10 and 4.3.
#[test]
fn a_header_nested_as_deep_as_a_frame_holds_is_read_purged_and_restored() {
    const DEPTH: usize = 25_000;
    let broker = Broker::connect();
    let (q, dead, targets) = setup(&broker, "deeper", 1);
    let target = targets[0].as_bytes();
    raw::publish(
        &broker.url,
        &broker.vhost,
        &dead,
        &[
            raw::Raw {
                message_id: b"deep",
                headers: vec![(b"x-original-queue".as_slice(), target)],
                encoded: vec![(b"deep".as_slice(), raw::nested_arrays(DEPTH, b"bottom"))],
                body: b"{}",
            },
            raw::Raw::readable("after", target),
        ],
    );
    broker.wait_for_count(&dead, 2);
    let dir = tempfile::tempdir().unwrap();
    let run = |args: &[&str]| {
        let out = Queuey::in_dir(dir.path()).args(args).run();
        assert!(
            out.status.success(),
            "{args:?}: {:?} {}",
            out.status,
            stderr(&out)
        );
        out
    };
    assert_eq!(json(&run(&["dead", "ls", &q, "-o", "json"]))["scanned"], 2);
    let shown = run(&["dead", "show", &q, "1"]).stdout;
    assert!(
        shown.contains(&format!("({}) [0]", DEPTH + 1)),
        "the deepest level named"
    );
    assert!(
        shown.len() < 4 << 20,
        "{} bytes: the indent stops",
        shown.len()
    );
    let archive = dir.path().join("purged.jsonl");
    let archive_arg = archive.to_str().unwrap();
    run(&["dead", "purge", &q, "--yes", "--archive", archive_arg]);
    broker.wait_for_count(&dead, 0);
    let out = run(&[
        "dead",
        "replay",
        &q,
        "-o",
        "json",
        "--from-file",
        archive_arg,
        "--to",
        &dead,
    ]);
    assert_eq!(json(&out)["moved"].as_u64(), Some(2));
    broker.wait_for_count(&dead, 2);
    // The header as archived (the same typed JSON text) in an export of the restored message.
    let archived = std::fs::read_to_string(&archive).unwrap();
    let header = |line: &str| -> String {
        let from = line.find("\"deep\":").expect("the deep header");
        let to = from
            + line[from..]
                .find(",\"x-original-queue\"")
                .expect("the next header");
        line[from..to].to_owned()
    };
    let before = header(archived.lines().next().unwrap());
    assert!(before.len() > 20 * DEPTH, "{} bytes", before.len());
    let exported = run(&["dead", "export", &q]).stdout;
    let first = exported.lines().next().unwrap();
    assert!(first.contains("\"message_id\":\"deep\""), "the order kept");
    assert!(header(first) == before, "the header whole");
}

/// Replays an export file of `q`'s dead letters to `target` and checks the partial outcome:
/// exit 3, `moved` copies, one line kept back.
fn replay_file_keeping_one(q: &str, target: &str, export: &std::path::Path, moved: u64) {
    let out = Queuey::new()
        .args([
            "dead",
            "replay",
            q,
            "-o",
            "json",
            "--to",
            target,
            "--from-file",
        ])
        .arg(export)
        .run();
    partial_keeping_one(&out, moved);
}

/// Exports `q`'s dead letters to a file of a directory of its own (kept while the guard lives).
fn export_to_file(q: &str) -> (tempfile::TempDir, std::path::PathBuf) {
    let dir = tempfile::tempdir().expect("a temporary directory");
    let export = dir.path().join("dead.jsonl");
    let out = Queuey::in_dir(dir.path())
        .args(["dead", "export", q, "--output-file"])
        .arg(&export)
        .run();
    assert!(out.status.success(), "{}", stderr(&out));
    (dir, export)
}

/// Replays `q`'s dead letters and checks the partial outcome: exit 3, `moved` copies, one dead
/// letter kept back; the report.
fn replay_keeping_one(q: &str, moved: u64) -> serde_json::Value {
    let out = Queuey::new()
        .args(["dead", "replay", q, "-o", "json"])
        .run();
    partial_keeping_one(&out, moved)
}

/// A replay's partial outcome: exit 3, `moved` copies, one kept back; its report.
fn partial_keeping_one(out: &Run, moved: u64) -> serde_json::Value {
    assert_eq!(out.status.code(), Some(3), "partial: {}", stderr(out));
    let report = json(out);
    assert_eq!(
        (report["moved"].as_u64(), report["failed"].as_u64()),
        (Some(moved), Some(1)),
        "{report}"
    );
    report
}
