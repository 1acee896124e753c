//! Settings before any connection: `args`, flags, environment and the topology file (a dotted
//! queue name, a queue it does not list), every bad value refused by name, URLs and TLS files.

use std::fs;

use crate::common::{Queuey, json, stderr, stdout};

#[test]
fn args_prints_the_seed_topology_as_json() {
    let out = Queuey::new()
        .args([
            "args",
            "orders",
            "--message-ttl",
            "1h",
            "--max-priority",
            "10",
        ])
        .args(["--delay", "29.2s", "-o", "json"])
        .run();
    assert!(out.status.success(), "{}", stderr(&out));
    let doc = json(&out);
    let lq = &doc["logical_queues"][0];
    assert_eq!(lq["name"], "orders");
    let queues = lq["queues"].as_array().unwrap();
    let names: Vec<&str> = queues.iter().map(|q| q["name"].as_str().unwrap()).collect();
    assert_eq!(names, ["orders", "orders.dead", "orders.deferred.30000"]);
    assert_eq!(
        queues[0]["arguments"],
        serde_json::json!({"x-message-ttl": 3_600_000, "x-max-priority": 10})
    );
    assert_eq!(queues[0]["role"], "work");
    assert_eq!(queues[1]["arguments"], serde_json::json!({}));
    assert_eq!(
        queues[2]["arguments"],
        serde_json::json!({
            "x-message-ttl": 30_000,
            "x-dead-letter-exchange": "",
            "x-dead-letter-routing-key": "orders",
            "x-expires": 60_000
        })
    );
    assert_eq!(queues[2]["delays"][0]["requested_ms"], 29_200);
    assert_eq!(queues[2]["delays"][0]["ttl_ms"], 30_000);
    assert_eq!(queues[2]["delays"][0]["kind"], "retry");
}

#[test]
fn args_table_names_every_queue_and_argument() {
    let out = Queuey::new()
        .args([
            "args",
            "orders",
            "--message-ttl",
            "1h",
            "--max-priority",
            "10",
            "--delay",
            "29.2s",
        ])
        .run();
    assert!(out.status.success());
    let text = stdout(&out);
    for needle in [
        "orders.dead",
        "orders.deferred.30000",
        "x-message-ttl = 3600000 (1h)",
        "x-max-priority = 10",
        "x-expires = 60000 (1m)",
        "x-dead-letter-routing-key = \"orders\"",
        "retry 29.2s -> 30s",
    ] {
        assert!(text.contains(needle), "missing {needle:?} in\n{text}");
    }
}

#[test]
fn delays_share_a_hold_queue_and_use_their_granularity() {
    let out = Queuey::new()
        .args([
            "args", "q", "--delay", "29.2s", "--delay", "30s", "--defer", "1m1ms",
        ])
        .args(["--deferred-granularity", "1m", "-o", "json"])
        .run();
    assert!(out.status.success(), "{}", stderr(&out));
    let doc = json(&out);
    let queues = doc["logical_queues"][0]["queues"].as_array().unwrap();
    assert_eq!(queues.len(), 4);
    assert_eq!(queues[2]["name"], "q.deferred.30000");
    assert_eq!(queues[2]["delays"].as_array().unwrap().len(), 2);
    assert_eq!(queues[3]["name"], "q.deferred.120000");
    assert_eq!(queues[3]["delays"][0]["kind"], "deferral");
}

#[test]
fn quorum_queue_dead_letters_to_its_dlq() {
    let out = Queuey::new()
        .args([
            "args",
            "jobs",
            "--queue-type",
            "quorum",
            "--delivery-limit",
            "5",
            "-o",
            "json",
        ])
        .run();
    assert!(out.status.success(), "{}", stderr(&out));
    let doc = json(&out);
    assert_eq!(
        doc["logical_queues"][0]["queues"][0]["arguments"],
        serde_json::json!({
            "x-queue-type": "quorum",
            "x-delivery-limit": 5,
            "x-dead-letter-exchange": "",
            "x-dead-letter-routing-key": "jobs.dead"
        })
    );
}

#[test]
fn too_long_a_delay_is_refused_naming_the_limit() {
    let out = Queuey::new()
        .args(["args", "orders", "--delay", "30d"])
        .run();
    assert_eq!(out.status.code(), Some(2));
    let err = stderr(&out);
    assert!(err.contains("24.8 days") && err.contains("30d"), "{err}");
    assert!(out.stdout.is_empty());
}

#[test]
fn every_bad_setting_is_refused_with_its_name_and_range() {
    let long_name = "x".repeat(250);
    let cases: Vec<(Vec<&str>, &[&str])> = vec![
        (
            vec!["--max-priority", "256"],
            &["max_priority", "0 (no priorities) to 255"],
        ),
        (
            vec!["--max-priority", "-1"],
            &["max_priority", "0 (no priorities) to 255"],
        ),
        (vec!["--message-ttl", "50d"], &["message_ttl", "49.7 days"]),
        (vec!["--message-ttl", "30"], &["no unit"]),
        (
            vec!["--retry-granularity", "0s"],
            &["retry_granularity", "1ms"],
        ),
        (
            vec!["--deferred-granularity", "0ms"],
            &["deferred_granularity", "1ms"],
        ),
        (
            vec!["--queue-type", "quorum", "--max-priority", "5"],
            &["max_priority", "quorum"],
        ),
        (vec!["--delivery-limit", "3"], &["delivery_limit", "quorum"]),
        (
            vec!["--queue-type", "quorum", "--delivery-limit", "0"],
            &["delivery_limit", "1 to"],
        ),
        (vec!["--dead-suffix", ""], &["dead_suffix", "empty"]),
    ];
    for (flags, needles) in cases {
        let out = Queuey::new().arg("args").arg("orders").args(&flags).run();
        assert_eq!(out.status.code(), Some(2), "{flags:?}: {}", stderr(&out));
        let err = stderr(&out);
        for n in needles {
            assert!(err.contains(n), "{flags:?}: missing {n:?} in {err}");
        }
    }
    for name in ["", "amq.orders", long_name.as_str(), "orders\nlive"] {
        let out = Queuey::new().args(["args", name]).run();
        assert_eq!(out.status.code(), Some(2), "{name:?}");
        assert!(stderr(&out).contains("queue name"), "{}", stderr(&out));
    }
}

#[test]
fn topology_file_defaults_queues_and_all() {
    let dir = tempfile::tempdir().unwrap();
    let mut cmd = Queuey::in_dir(dir.path());
    fs::write(
        dir.path().join("queuey.toml"),
        r#"
[defaults]
retry_granularity = "5s"
max_priority = 3

[queues.orders]
message_ttl = "1h30m"

[queues."emails.send"]
queue_type = "quorum"
delivery_limit = 20
max_priority = 5
"#,
    )
    .unwrap();
    // A quorum queue takes no x-max-priority.
    let out = cmd.args(["args", "--all", "-o", "json"]).run();
    assert_eq!(out.status.code(), Some(2));
    assert!(
        stderr(&out).contains("[queues.\"emails.send\"] max_priority"),
        "{}",
        stderr(&out)
    );

    fs::write(
        dir.path().join("queuey.toml"),
        r#"
[defaults]
retry_granularity = "5s"

[queues.orders]
message_ttl = "1h30m"
max_priority = 3

[queues."emails.send"]
queue_type = "quorum"
delivery_limit = 20
max_priority = 0
"#,
    )
    .unwrap();
    let out = Queuey::in_dir(dir.path())
        .args(["args", "--all", "--delay", "1s", "-o", "json"])
        .run();
    assert!(out.status.success(), "{}", stderr(&out));
    let doc = json(&out);
    let lqs = doc["logical_queues"].as_array().unwrap();
    assert_eq!(lqs[0]["name"], "orders");
    assert_eq!(lqs[0]["settings"]["message_ttl_ms"], 5_400_000);
    assert_eq!(lqs[0]["settings"]["retry_granularity_ms"], 5_000);
    assert_eq!(lqs[0]["queues"][2]["name"], "orders.deferred.5000");
    assert_eq!(lqs[1]["name"], "emails.send");
    assert_eq!(lqs[1]["queues"][0]["arguments"]["x-delivery-limit"], 20);

    // Flags win over the file.
    let out = Queuey::in_dir(dir.path())
        .args(["args", "orders", "--max-priority", "9", "-o", "json"])
        .run();
    let doc = json(&out);
    assert_eq!(doc["logical_queues"][0]["settings"]["max_priority"], 9);
    assert_eq!(
        doc["logical_queues"][0]["settings"]["message_ttl_ms"],
        5_400_000
    );
}

#[test]
fn topology_file_unknown_keys_and_missing_files_are_errors() {
    let dir = tempfile::tempdir().unwrap();
    let mut cmd = Queuey::in_dir(dir.path());
    fs::write(
        dir.path().join("queuey.toml"),
        "[queues.orders]\nmesage_ttl = \"1h\"\n",
    )
    .unwrap();
    let out = cmd.args(["args", "orders"]).run();
    assert_eq!(out.status.code(), Some(2));
    let err = stderr(&out);
    assert!(
        err.contains("mesage_ttl") && err.contains("queuey.toml"),
        "{err}"
    );

    let out = Queuey::in_dir(dir.path())
        .args(["args", "orders", "--config", "nope.toml"])
        .run();
    assert_eq!(out.status.code(), Some(2));
    assert!(stderr(&out).contains("nope.toml"));

    let out = Queuey::in_dir(dir.path())
        .env("QUEUEY_CONFIG", "also-nope.toml")
        .args(["args", "orders"])
        .run();
    assert_eq!(out.status.code(), Some(2));
    assert!(stderr(&out).contains("also-nope.toml"));
}

#[test]
fn all_without_a_file_is_a_usage_error() {
    let out = Queuey::new().args(["args", "--all"]).run();
    assert_eq!(out.status.code(), Some(2));
    assert!(stderr(&out).contains("topology file"));
}

#[test]
fn bad_urls_are_usage_errors_without_the_password() {
    for url in [
        "http://u:topsecret99@h/",
        "amqp://u:topsecret99@/",
        "amqp://u:topsecret99@h/a/b",
    ] {
        let out = Queuey::new().args(["ping", "--url", url]).run();
        assert_eq!(out.status.code(), Some(2), "{url}");
        let all = format!("{}{}", stdout(&out), stderr(&out));
        assert!(!all.contains("topsecret99"), "{all}");
        assert!(all.contains("invalid AMQP URL"), "{all}");
    }
}

/// `--url "$RABBIT_URL"` with the variable unset must not reach the machine's own broker by
/// default: an empty address is a usage error naming the flag (it was taken as no --url).
#[test]
fn an_empty_url_is_a_usage_error_not_the_default_broker() {
    for args in [
        &["ping", "--url", ""][..],
        &["ping", "--url", " , "],
        &[
            "ping",
            "--url",
            "amqp://127.0.0.1:5672/%2f",
            "--api-url",
            "",
        ],
    ] {
        let out = Queuey::new().args(args).run();
        assert_eq!(out.status.code(), Some(2), "{args:?}: {}", stderr(&out));
        assert!(
            stderr(&out).contains("is empty"),
            "{args:?}: {}",
            stderr(&out)
        );
    }
}

#[test]
fn the_defaults_are_the_librarys_and_a_suffix_changes_names_as_the_librarys_option_does() {
    let args_json = |extra: &[&str]| {
        let out = Queuey::new()
            .args(["args", "orders", "-o", "json"])
            .args(extra)
            .run();
        assert!(out.status.success(), "{extra:?}: {}", stderr(&out));
        json(&out)["logical_queues"][0]["queues"].clone()
    };
    // QueueConfig::new: ten priority levels, nothing else.
    let queues = args_json(&[]);
    assert_eq!(
        queues[0]["arguments"],
        serde_json::json!({"x-max-priority": 10})
    );
    // max_priority(0) turns priorities off.
    let queues = args_json(&["--max-priority", "0"]);
    assert_eq!(queues[0]["arguments"], serde_json::json!({}));
    // A zero TTL declares 1 ms and a fraction of a millisecond rounds up, as the library does.
    let queues = args_json(&["--message-ttl", "1500us"]);
    assert_eq!(queues[0]["arguments"]["x-message-ttl"], 2);
    // The deferred suffix is an infix: `{q}{suffix}.{ttl_ms}`.
    let queues = args_json(&["--deferred-suffix", ".hold", "--delay", "30s"]);
    assert_eq!(queues[2]["name"], "orders.hold.30000");
    // A quorum q has no priorities by default, and the table says who can use one.
    let out = Queuey::new()
        .args(["args", "orders", "--queue-type", "quorum"])
        .run();
    assert!(out.status.success(), "{}", stderr(&out));
    assert!(!stdout(&out).contains("x-max-priority"), "{}", stdout(&out));
    assert!(
        stderr(&out).contains("a queuey 1.x application declares its queues classic"),
        "{}",
        stderr(&out)
    );
}

/// The TLS files are read and checked before anything connects (the URL here has no broker),
/// and a bad one is named with where it came from: a flag, a variable, the topology file.
#[test]
fn tls_files_are_checked_before_connecting_and_named_by_their_origin() {
    let nowhere = "amqps://guest:guest@127.0.0.1:1/%2f";
    let made = rcgen::generate_simple_self_signed(vec!["localhost".to_owned()]).unwrap();
    let (cert, key) = (made.cert.pem(), made.signing_key.serialize_pem());

    let dir = tempfile::tempdir().unwrap();
    let mut cmd = Queuey::in_dir(dir.path());
    let out = cmd
        .args(["ping", "--url", nowhere, "--tls-ca-cert", "missing.pem"])
        .run();
    assert_eq!(out.status.code(), Some(2), "{}", stderr(&out));
    let err = stderr(&out);
    assert!(
        err.starts_with(
            "error: cannot read the CA certificate file missing.pem (from --tls-ca-cert): "
        ),
        "{err}"
    );
    assert!(
        err.contains("\n  name a readable PEM file with --tls-ca-cert FILE, QUEUEY_TLS_CA_CERT or ca_cert in the [tls] table of queuey.toml"),
        "{err}"
    );
    drop(dir);

    // A certificate from the environment without its key.
    let dir = tempfile::tempdir().unwrap();
    let mut cmd = Queuey::in_dir(dir.path());
    fs::write(dir.path().join("client.pem"), &cert).unwrap();
    let out = cmd
        .env("QUEUEY_TLS_CERT", "client.pem")
        .args(["status", "orders", "--url", nowhere])
        .run();
    assert_eq!(out.status.code(), Some(2), "{}", stderr(&out));
    let err = stderr(&out);
    assert!(
        err.starts_with(
            "error: the client certificate client.pem (from QUEUEY_TLS_CERT) was given without \
             its key\n  mutual TLS needs both: give the key with --tls-key FILE, QUEUEY_TLS_KEY \
             or key in the [tls] table of queuey.toml"
        ),
        "{err}"
    );

    // The topology file's [tls] table, the key and the certificate swapped; the rabbitmqadmin
    // names of the keys are read too.
    fs::write(dir.path().join("client.key"), &key).unwrap();
    fs::write(
        dir.path().join("queuey.toml"),
        "[tls]\nclient_certificate_file_path = \"client.key\"\nkey = \"client.pem\"\n",
    )
    .unwrap();
    let out = Queuey::in_dir(dir.path())
        .args(["dead", "ls", "orders", "--url", nowhere])
        .run();
    assert_eq!(out.status.code(), Some(2), "{}", stderr(&out));
    let err = stderr(&out);
    assert!(
        err.starts_with(
            "error: the client certificate file client.key (from queuey.toml [tls] cert) is \
             not usable: it holds a private key but no CERTIFICATE\n"
        ),
        "{err}"
    );

    // An unknown key of [tls] is a topology file error.
    fs::write(dir.path().join("queuey.toml"), "[tls]\nca = \"ca.pem\"\n").unwrap();
    let out = Queuey::in_dir(dir.path())
        .args(["ping", "--url", nowhere])
        .run();
    assert_eq!(out.status.code(), Some(2), "{}", stderr(&out));
    let err = stderr(&out);
    assert!(err.contains("unknown field `ca`"), "{err}");
    assert!(
        err.contains(
            "[tls], with the keys ca_cert, cert, key; and [connection], with the keys url, api_url"
        ),
        "{err}"
    );
    assert!(!stdout(&out).contains(&key) && !err.contains("PRIVATE KEY-----"));
}

/// `[queues.tour.orders]` is a queue "tour" with a table "orders" in TOML; the error
/// says to quote the name.
#[test]
fn an_unquoted_dotted_queue_name_in_the_file_is_explained() {
    let dir = tempfile::tempdir().unwrap();
    let mut cmd = Queuey::in_dir(dir.path());
    fs::write(
        dir.path().join("queuey.toml"),
        "[queues.tour.orders]\nmessage_ttl = \"1h\"\n",
    )
    .unwrap();
    let out = cmd.args(["args", "tour.orders"]).run();
    assert_eq!(out.status.code(), Some(2));
    let err = stderr(&out);
    assert!(err.contains("[queues.\"tour.orders\"]"), "{err}");
    assert!(err.contains("quote"), "{err}");
}

/// Without a broker, `args` names a queue missing from the topology file.
#[test]
fn a_queue_missing_from_the_topology_file_is_named() {
    let dir = tempfile::tempdir().unwrap();
    let mut cmd = Queuey::in_dir(dir.path());
    fs::write(
        dir.path().join("queuey.toml"),
        "[defaults]\nmessage_ttl = \"1h\"\n[queues.\"tour.orders\"]\n",
    )
    .unwrap();
    let out = cmd.args(["args", "tour.ordres"]).run();
    assert!(out.status.success(), "{}", stderr(&out));
    let err = stderr(&out);
    assert!(err.contains("not in queuey.toml"), "{err}");
    assert!(err.contains("tour.orders"), "suggests the near name: {err}");
    // A listed name says nothing.
    let out = Queuey::in_dir(dir.path())
        .args(["args", "tour.orders"])
        .run();
    assert!(!stderr(&out).contains("not in"), "{}", stderr(&out));
}

/// A negative duration is queuey's own error, naming the flag, wherever it is written: clap
/// alone would read `-5m` as an unknown flag.
#[test]
fn a_negative_duration_is_named_as_such() {
    for args in [
        &["dead", "ls", "orders", "--older-than", "-5m"][..],
        &["dead", "ls", "orders", "--older-than=-5m"],
        &["dead", "purge", "orders", "--newer-than", "-1h", "--yes"],
    ] {
        let out = Queuey::new().args(args).run();
        assert_eq!(out.status.code(), Some(2), "{args:?}: {}", stderr(&out));
        let err = stderr(&out);
        assert!(err.contains("invalid duration \"-"), "{args:?}: {err}");
        assert!(!err.contains("unexpected argument"), "{args:?}: {err}");
    }
}
