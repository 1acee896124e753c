//! Dead letters that a hostile or careless publisher can put into `q.dead`, and that the broker
//! takes, but that queuey's AMQP client or the broker's own limits make hard to move: each must
//! be named, stay where it is, and never stop queuey from handling the others.

use lapin::types::FieldTable;

use crate::common::{Broker, json, long_str, queuey, stderr};
use crate::replay::{dead_letter, publish_all, setup};

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

    let (mut cmd, dir) = queuey();
    let export = dir.path().join("dead.jsonl");
    let out = cmd
        .args(["dead", "export", &q, "--output-file"])
        .arg(&export)
        .output()
        .unwrap();
    assert!(out.status.success(), "{}", stderr(&out));

    let (mut cmd, _dir) = queuey();
    let out = cmd
        .args(["dead", "replay", &q, "-o", "json"])
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(3), "partial: {}", stderr(&out));
    let report = json(&out);
    assert_eq!(
        (report["moved"].as_u64(), report["failed"].as_u64()),
        (Some(2), Some(1))
    );
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
    let (mut cmd, _dir) = queuey();
    let out = cmd
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
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(3), "partial: {}", stderr(&out));
    let report = json(&out);
    assert_eq!(
        (report["moved"].as_u64(), report["failed"].as_u64()),
        (Some(2), Some(1))
    );
    assert_eq!(broker.ids(target), ["before", "after", "before", "after"]);
    assert_eq!(broker.ids(&dead), ["big"]);
}
