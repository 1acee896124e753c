//! `--where POINTER[=VALUE]` and `--body-contains TEXT` on the dead letters of a real
//! application: `dead ls`, `dead export`, `dead replay` and `dead purge` act on exactly the
//! messages whose payload matches, and leave the others in `q.dead`, in their order.

use std::collections::BTreeSet;

use crate::common::app::{App, FATAL_WHY, MALFORMED_BODY};
use crate::common::{Broker, Queuey, json, stderr};

/// The job ids (or, for a body that is not an envelope, `-`) that `dead ls -o json` lists.
fn listed(args: &[&str]) -> BTreeSet<String> {
    let out = Queuey::new()
        .args(["dead", "ls", "-o", "json", "--limit", "0"])
        .args(args)
        .run();
    assert!(out.status.success(), "dead ls {args:?}: {}", stderr(&out));
    json(&out)["messages"]
        .as_array()
        .expect("messages")
        .iter()
        .map(|m| m["job_id"].as_str().unwrap_or("-").to_owned())
        .collect()
}

fn set(ids: &[&str]) -> BTreeSet<String> {
    ids.iter().map(|s| s.to_string()).collect()
}

#[test]
fn where_selects_by_payload_in_ls_replay_and_purge() {
    let broker = Broker::connect();
    let app = App::<12>::new(&broker, "payload");
    let ids = app.make_dead_letters();
    let q = app.q;

    // ls: equality as JSON, equality as a string, presence, OR within, AND across.
    let fatal = format!("/payload/why={FATAL_WHY}");
    assert_eq!(listed(&[q, "--where", &fatal]), set(&[&ids.fatal]));
    let quoted = format!("/payload/why={}", serde_json::json!(FATAL_WHY));
    assert_eq!(listed(&[q, "--where", &quoted]), set(&[&ids.fatal]));
    assert_eq!(
        listed(&[q, "--where", "/payload/n=1"]),
        set(&[&ids.no_handler])
    );
    assert_eq!(
        listed(&[q, "--where", "/payload/n=\"1\""]),
        set(&[]),
        "a string is not 1"
    );
    assert_eq!(
        listed(&[q, "--where", "/payload/n=1.0"]),
        set(&[&ids.no_handler])
    );
    assert_eq!(
        listed(&[q, "--where", "/payload/fail_until"]),
        set(&[&ids.exhausted])
    );
    assert_eq!(
        listed(&[q, "--where", "/payload"]),
        set(&[&ids.exhausted, &ids.fatal, &ids.no_handler, &ids.decode]),
        "every envelope has a payload; the body that is not JSON matches no --where"
    );
    assert_eq!(
        listed(&[
            q,
            "--where",
            "/payload/n=1",
            "--where",
            "/payload/wrong=shape"
        ]),
        set(&[&ids.no_handler, &ids.decode]),
        "--where given twice: either"
    );
    assert_eq!(
        listed(&[q, "--where", "/payload", "--cause", "fatal"]),
        set(&[&ids.fatal]),
        "--where and --cause: both"
    );
    let malformed = String::from_utf8_lossy(MALFORMED_BODY).into_owned();
    assert_eq!(listed(&[q, "--body-contains", &malformed]), set(&["-"]));
    assert_eq!(
        listed(&[q, "--body-contains", "shape", "--where", "/payload/wrong"]),
        set(&[&ids.decode])
    );
    assert_eq!(
        listed(&[q, "--body-contains", "shape", "--where", "/payload/n"]),
        set(&[]),
        "--body-contains and --where: both"
    );

    // A pointer that is not one is refused before anything is read.
    let out = Queuey::new()
        .args(["dead", "ls", q, "--where", "payload/n=1"])
        .run();
    assert_eq!(out.status.code(), Some(2));
    assert!(
        stderr(&out).contains("starts with \"/\""),
        "{}",
        stderr(&out)
    );

    // export: the same selection.
    let out = Queuey::new()
        .args(["dead", "export", q, "--where", "/payload/wrong=shape"])
        .run();
    assert!(out.status.success(), "{}", stderr(&out));
    let lines: Vec<serde_json::Value> = out
        .stdout
        .as_str()
        .lines()
        .map(|l| serde_json::from_str(l).expect("a JSON line"))
        .collect();
    assert_eq!(lines.len(), 1);
    assert_eq!(
        lines[0]["dead_letter"]["job_id"],
        ids.decode.as_str(),
        "{:#}",
        lines[0]
    );

    // replay: only the job whose payload matches goes back to q; the rest stay, in order.
    let before: Vec<String> = broker.bodies(&app.dead);
    let out = Queuey::new()
        .args(["dead", "replay", q, "--where", &fatal])
        .run();
    assert!(out.status.success(), "{}", stderr(&out));
    // The summary's nouns agree with its counts (the job died on its first attempt: no reset).
    let said = out.stdout.as_str();
    assert!(
        said.contains("replayed 1 of 1 matching dead letter of") && !said.contains("again"),
        "{said}"
    );
    broker.wait_for_count(q, 1);
    let replayed = broker.bodies(q);
    assert!(replayed[0].contains(FATAL_WHY), "{replayed:?}");
    let after = broker.bodies(&app.dead);
    let expected: Vec<String> = before
        .into_iter()
        .filter(|b| !b.contains(FATAL_WHY))
        .collect();
    assert_eq!(after, expected, "the others stay in q.dead, in their order");

    // purge: only the job whose payload matches is removed.
    let out = Queuey::new()
        .args([
            "dead",
            "purge",
            q,
            "--yes",
            "--where",
            "/payload/wrong=shape",
            "-o",
            "json",
        ])
        .run();
    assert!(out.status.success(), "{}", stderr(&out));
    assert_eq!(json(&out)["removed"], 1);
    assert_eq!(
        listed(&[q]),
        set(&[&ids.exhausted, &ids.no_handler, "-"]),
        "the decode-error job is gone, the others stay"
    );
}
