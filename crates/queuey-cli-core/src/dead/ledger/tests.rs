//! The ledger's rule, line by line: what a rerun decides from what failed runs left.
use super::*;
use crate::dead::decode::X_DELIVERY_COUNT;
use crate::dead::value::Value;

/// A new copy, counted as one that may be a second.
const COPY_COUNTED: Decision = Decision::Copy {
    may_duplicate: true,
};
/// A new copy that cannot be a second.
const COPY: Decision = Decision::Copy {
    may_duplicate: false,
};

fn scope() -> Scope {
    Scope {
        broker: "127.0.0.1:5672".into(),
        vhost: "/".into(),
        queue: "orders.dead".into(),
    }
}

fn props(id: &str) -> Properties {
    Properties {
        message_id: Some(id.into()),
        ..Properties::default()
    }
}

fn run(r: &str) -> String {
    run_line(Op::Replay, &scope(), r, 10)
}

#[test]
fn a_digest_depends_on_body_and_properties_but_not_on_the_broker_bookkeeping() {
    let a = digest(&props("1"), b"body");
    assert_eq!(a.len(), 64);
    assert_eq!(a, digest(&props("1"), b"body"));
    assert_ne!(a, digest(&props("2"), b"body"));
    assert_ne!(a, digest(&props("1"), b"bodx"));
    let with = |headers: &[(&str, Value)]| {
        let mut p = props("1");
        p.headers = Some(
            headers
                .iter()
                .map(|(k, v)| ((*k).to_owned(), v.clone()))
                .collect(),
        );
        digest(&p, b"body")
    };
    // No headers, an empty table, and a table of the broker's counts only (a quorum queue
    // gives a table to a message that had none) are the same dead letter.
    let bare = with(&[]);
    assert_eq!(a, bare);
    assert_eq!(with(&[(X_DELIVERY_COUNT, Value::I64(3))]), bare);
    assert_eq!(with(&[("x-acquired-count", Value::I64(7))]), bare);
    let own = with(&[("tenant", Value::U8(1))]);
    assert_ne!(own, bare);
    assert_eq!(
        with(&[
            ("tenant", Value::U8(1)),
            ("x-acquired-count", Value::I64(1)),
            (X_DELIVERY_COUNT, Value::I64(1)),
        ]),
        own
    );
    // Nor on queuey's mark of a dead letter it replaced on its last delivery.
    assert_eq!(
        with(&[
            ("tenant", Value::U8(1)),
            ("x-queuey-rescued-at", Value::Timestamp(1_765_000_000)),
        ]),
        own
    );
    // Properties and body do not run into each other.
    let mut p = props("1");
    p.app_id = Some("x".into());
    assert_ne!(digest(&p, b""), digest(&props("1"), b"x"));
}

/// The issue's loss: a run copied one of two identical dead letters and sent its ack; the
/// twin it held comes back. The rerun must copy it.
#[test]
fn a_copy_whose_ack_was_sent_never_answers_for_a_dead_letter() {
    let text = format!(
        "{}{}{}",
        run("r1"),
        doubt_line("aa", "orders", "r1", 1),
        copied_line("aa", "orders", "r1", 1, false),
    );
    let mut l = Ledger::parse(&text, &scope()).unwrap();
    assert_eq!(l.doubts(), 0);
    assert_eq!(l.maybe_acked(), 1);
    assert_eq!(
        l.decide("aa"),
        Decision::Copy {
            may_duplicate: true
        }
    );
    // The record is counted once: a second dead letter of that content is no duplicate.
    assert_eq!(
        l.decide("aa"),
        Decision::Copy {
            may_duplicate: false
        }
    );
    assert_eq!(
        l.decide("bb"),
        Decision::Copy {
            may_duplicate: false
        }
    );
}

/// A dead letter on its last delivery is replaced at the back of `q.dead` and met again;
/// one that stays (not selected) is not the one copied. Either way the record its decision
/// used answers for the next dead letter of its content, as it would have for this one.
#[test]
fn a_decision_not_acted_on_gives_its_record_back() {
    let text = format!(
        "{}{}{}{}",
        run("r1"),
        copied_line("aa", "orders", "r1", 1, false),
        doubt_line("bb", "orders", "r1", 2),
        found_line("bb", Some(("r1", 2))),
    );
    let mut l = Ledger::parse(&text, &scope()).unwrap();
    let first = l.decide("aa");
    assert_eq!(
        first,
        Decision::Copy {
            may_duplicate: true
        }
    );
    l.undecide("aa", first);
    assert_eq!(l.decide("aa"), first, "the renewal is counted, once");
    assert_eq!(
        l.decide("aa"),
        Decision::Copy {
            may_duplicate: false
        }
    );
    let claim = l.decide("bb");
    assert_eq!(claim, Decision::AlreadyCopied);
    l.undecide("bb", claim);
    assert_eq!(l.decide("bb"), Decision::AlreadyCopied);
    l.undecide(
        "cc",
        Decision::Copy {
            may_duplicate: false,
        },
    );
    assert_eq!((l.unacked(), l.maybe_acked()), (0, 0));
}

#[test]
fn a_found_doubt_answers_for_one_dead_letter_of_its_content() {
    let text = format!(
        "{}{}{}{}{}",
        run("r1"),
        doubt_line("aa", "orders", "r1", 1),
        doubt_line("aa", "orders", "r1", 2),
        doubt_line("bb", "other", "r1", 3),
        undone_line("r1", 3),
    );
    let mut l = Ledger::parse(&text, &scope()).unwrap();
    assert_eq!(l.doubts(), 2);
    assert_eq!(
        l.doubts_by_target(),
        BTreeMap::from([(
            "orders".to_owned(),
            vec![("r1".to_owned(), 1), ("r1".to_owned(), 2)]
        )])
    );
    // Copy 1 found, copy 2 not: one record for two identical dead letters, and the second
    // one's new copy counted as one that may be a second (copy 2 may still arrive).
    assert_eq!(
        l.resolve("r1", 1, true),
        Some(Doubt {
            digest: "aa".into(),
            to: "orders".into()
        })
    );
    assert!(l.resolve("r1", 2, false).is_some());
    assert_eq!(l.resolve("r1", 2, true), None, "settled once");
    assert_eq!(l.decide("aa"), Decision::AlreadyCopied);
    assert_eq!(l.decide("aa"), COPY_COUNTED);
    assert_eq!(l.decide("aa"), COPY);
}

#[test]
fn a_doubt_a_rerun_missed_makes_the_next_copy_of_its_content_a_possible_duplicate() {
    // Read back as a later rerun reads it: the `missed` line outlives the run that wrote it.
    let text = format!(
        "{}{}{}{}{}",
        run("r1"),
        doubt_line("aa", "orders", "r1", 1),
        doubt_line("aa", "orders", "r1", 2),
        run("r2"),
        missed_line("aa", "r1", 1),
    );
    let mut l = Ledger::parse(&text, &scope()).unwrap();
    assert_eq!(l.doubts(), 1, "copy 2 still in doubt");
    assert_eq!((l.uncertain(), l.maybe_acked(), l.unacked()), (1, 0, 0));
    // Carried into a new ledger as it is.
    let carried = Ledger::parse(
        &format!("{}{}", run("r3"), l.remaining_lines("r3")),
        &scope(),
    )
    .unwrap();
    assert_eq!((carried.uncertain(), carried.doubts()), (1, 1));
    // A file's line of that content is copied, counted: the copy may not exist.
    assert_eq!(carried.clone().decide_line("aa"), COPY_COUNTED);
    assert_eq!(l.decide("aa"), COPY_COUNTED);
    assert_eq!(l.decide("aa"), COPY);
}

#[test]
fn a_copy_in_doubt_given_up_answers_for_no_line_of_a_file() {
    let text = format!("{}{}", run("r1"), doubt_line("aa", "orders", "r1", 1));
    let mut l = Ledger::parse(&text, &scope()).unwrap();
    l.give_up_doubts();
    // The copy may never have reached `orders`: the line is copied again, and counted.
    assert_eq!(l.decide_line("aa"), COPY_COUNTED);
    // A confirmed copy does answer for a line.
    let text = format!(
        "{}{}",
        run("r1"),
        copied_line("aa", "orders", "r1", 1, false)
    );
    let mut l = Ledger::parse(&text, &scope()).unwrap();
    assert_eq!(l.decide_line("aa"), Decision::AlreadyCopied);
}

#[test]
fn a_claim_makes_its_record_an_ack_in_doubt_for_the_next_rerun() {
    // Rerun r2 found copy 7 and claimed it; then it was killed.
    let text = format!(
        "{}{}{}{}{}",
        run("r1"),
        doubt_line("aa", "orders", "r1", 7),
        run("r2"),
        found_line("aa", Some(("r1", 7))),
        claimed_line("aa"),
    );
    let mut l = Ledger::parse(&text, &scope()).unwrap();
    assert_eq!((l.doubts(), l.unacked(), l.maybe_acked()), (0, 0, 1));
    assert_eq!(
        l.decide("aa"),
        Decision::Copy {
            may_duplicate: true
        }
    );
    // Killed before the claim: the record still answers.
    let text = format!(
        "{}{}{}{}",
        run("r1"),
        doubt_line("aa", "orders", "r1", 7),
        run("r2"),
        found_line("aa", Some(("r1", 7))),
    );
    let mut l = Ledger::parse(&text, &scope()).unwrap();
    assert_eq!(l.decide("aa"), Decision::AlreadyCopied);
}

#[test]
fn copies_after_a_failed_runs_last_ack_answer_for_their_dead_letters() {
    let text = format!(
        "{}{}{}{}{}",
        run("r1"),
        copied_line("aa", "orders", "r1", 1, false),
        copied_line("aa", "orders", "r1", 2, false),
        copied_line("bb", "orders", "r1", 3, false),
        acked_through_line("r1", 1),
    );
    let mut l = Ledger::parse(&text, &scope()).unwrap();
    assert_eq!((l.unacked(), l.maybe_acked()), (2, 1));
    assert_eq!(l.decide("bb"), Decision::AlreadyCopied);
    assert_eq!(l.decide("aa"), Decision::AlreadyCopied);
    assert_eq!(
        l.decide("aa"),
        Decision::Copy {
            may_duplicate: true
        },
        "copy 1's ack was sent"
    );
    // Another run's mark says nothing of r1's copies.
    let other = format!(
        "{}{}{}",
        run("r1"),
        copied_line("aa", "orders", "r1", 5, false),
        acked_through_line("r0", 0),
    );
    let l = Ledger::parse(&other, &scope()).unwrap();
    assert_eq!((l.unacked(), l.maybe_acked()), (0, 1));
}

#[test]
fn settled_acks_are_no_duplicates_unless_a_node_restarted() {
    let text = format!(
        "{}{}{}{}{}{}",
        run("r1"),
        boot_line(&started(1_000_000)),
        copied_line("aa", "orders", "r1", 1, false),
        copied_line("aa", "orders", "r1", 2, false),
        settled_line("aa"),
        settled_line("zz"),
    );
    let l = Ledger::parse(&text, &scope()).unwrap();
    assert_eq!(l.maybe_acked(), 1, "one of the twins' acks was processed");
    let mut same = l.clone();
    assert!(!same.revive_after_restart(&started(1_000_500)));
    assert_eq!(same.maybe_acked(), 1);
    let mut restarted = l.clone();
    assert!(restarted.revive_after_restart(&started(2_000_000)));
    assert_eq!(restarted.maybe_acked(), 2);
    // Either way nothing answers for a dead letter.
    assert!(matches!(restarted.decide("aa"), Decision::Copy { .. }));
}

fn started(ms: u64) -> Boot {
    Boot {
        started_ms: Some(ms),
        pids: BTreeMap::new(),
    }
}

fn with_pids(ms: u64, pids: &[(&str, &str)]) -> Boot {
    Boot {
        started_ms: Some(ms),
        pids: pids
            .iter()
            .map(|(n, p)| (n.to_string(), p.to_string()))
            .collect(),
    }
}

#[test]
fn a_restart_is_a_node_with_another_process_id_whatever_the_start_times() {
    let then = with_pids(1_000_000, &[("rabbit@a", "100"), ("rabbit@b", "200")]);
    assert!(
        with_pids(1_003_000, &[("rabbit@a", "101"), ("rabbit@b", "200")])
            .restarted_since(&then, 10_000)
    );
    assert!(
        !with_pids(1_050_000, &[("rabbit@a", "100"), ("rabbit@b", "200")])
            .restarted_since(&then, 10_000)
    );
    assert!(with_pids(1_050_000, &[("rabbit@b", "200")]).restarted_since(&then, 10_000));
    assert!(with_pids(1_050_000, &[("rabbit@c", "1")]).restarted_since(&then, 10_000));
    assert!(!with_pids(1_005_000, &[("rabbit@c", "1")]).restarted_since(&then, 10_000));
    assert!(!started(1_010_000).restarted_since(&started(1_000_000), 10_000));
    assert!(started(1_010_001).restarted_since(&started(1_000_000), 10_000));
    assert!(!Boot::default().restarted_since(&then, 10_000));
    let text = format!("{}{}", run("r1"), boot_line(&then));
    let l = Ledger::parse(&text, &scope()).unwrap();
    assert_eq!(l.boots, vec![then]);
    assert_eq!(boot_line(&Boot::default()), "");
}

#[test]
fn a_last_line_cut_short_is_ignored_and_other_bad_lines_refused() {
    let whole = format!("{}{}", run("r1"), doubt_line("aa", "orders", "r1", 1));
    let cut = format!("{whole}{{\"copied\":\"a");
    assert_eq!(Ledger::parse(&cut, &scope()).unwrap().doubts(), 1);
    let bad = format!("{whole}nonsense\n");
    let e = Ledger::parse(&bad, &scope()).unwrap_err();
    assert!(e.contains("line 3"), "{e}");
    let orphan = doubt_line("aa", "orders", "r1", 1);
    assert!(Ledger::parse(&orphan, &scope()).is_err());
    let unnumbered = format!("{}{{\"copied\":\"aa\",\"to\":\"q\"}}\n", run("r1"));
    assert!(
        Ledger::parse(&unnumbered, &scope())
            .unwrap_err()
            .contains("copy number")
    );
    assert!(Ledger::parse("", &scope()).unwrap().is_empty());
    // Another format, or another queue, is refused.
    let other = run("r1").replace(LEDGER_FORMAT, "queuey-replay-journal/3");
    assert!(Ledger::parse(&other, &scope()).is_err());
    let mut prod = scope();
    prod.vhost = "prod".into();
    let e = Ledger::parse(&run_line(Op::Purge, &prod, "r", 1), &scope()).unwrap_err();
    assert!(e.contains("\"prod\""), "{e}");
}

#[test]
fn a_file_line_is_answered_by_any_certain_copy_of_its_content() {
    let text = format!(
        "{}{}{}",
        run("r1"),
        copied_line("aa", "orders", "r1", 1, false),
        doubt_line("bb", "orders", "r1", 2),
    );
    let mut l = Ledger::parse(&text, &scope()).unwrap();
    assert_eq!(l.decide_line("aa"), Decision::AlreadyCopied);
    assert!(matches!(l.decide_line("aa"), Decision::Copy { .. }));
    assert!(matches!(l.decide_line("bb"), Decision::Copy { .. }));
}

#[test]
fn what_is_left_carries_into_a_new_ledger_unchanged() {
    let mut l = Ledger::default();
    l.runs.push("r1".into());
    l.add_copy("aa", false);
    l.add_copy("aa", false);
    l.add_copy("bb", true);
    l.doubts.insert(
        ("r1".into(), 9),
        Doubt {
            digest: "cc".into(),
            to: "orders".into(),
        },
    );
    let text = format!("{}{}", run("r2"), l.remaining_lines("r2"));
    let again = Ledger::parse(&text, &scope()).unwrap();
    assert_eq!(
        (again.unacked(), again.maybe_acked(), again.doubts()),
        (2, 1, 1)
    );
    assert_eq!(again.doubts_by_target(), l.doubts_by_target());
}

#[test]
fn a_cluster_never_named_is_its_first_node_for_every_node() {
    let nodes: Vec<String> = ["qtest2@localhost", "qtest1@localhost", "qtest3@localhost"]
        .iter()
        .map(|n| n.to_string())
        .collect();
    let api = |node, name| ApiCluster {
        node: Some(node),
        name: Some(name),
        nodes: &nodes,
    };
    for (name, api_node, api_name) in [
        ("qtest1@vm", "qtest1@localhost", "qtest1@vm"),
        ("qtest3@vm.example", "qtest3@localhost", "qtest3@vm.example"),
        ("qtest1@vm", "qtest2@localhost", "qtest2@vm"),
    ] {
        assert_eq!(
            cluster_identity(name, &api(api_node, api_name)),
            "cluster:qtest1@localhost",
            "{name}"
        );
    }
    assert_eq!(
        cluster_identity("prod-eu", &api("qtest2@localhost", "prod-eu")),
        "cluster:prod-eu"
    );
    let unknown = ApiCluster {
        node: Some("qtest2@localhost"),
        name: Some("qtest2@vm"),
        nodes: &[],
    };
    assert_eq!(cluster_identity("qtest2@vm", &unknown), "cluster:qtest2@vm");
}
