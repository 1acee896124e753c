//! TLS as production uses it, against real TLS listeners: a private node (`common::node`) with
//! AMQPS that requires a client certificate (mutual TLS) and the management API over HTTPS
//! (one-way), its certificates made by the test (`common::tls`, rcgen). One node for the whole
//! file (a node start is the slow part), and every way TLS fails, each by its exit code and
//! its message: the broker's certificate signed by another CA, or by a private CA with none
//! given, for another host name, expired; no client certificate, one the broker rejects, a key
//! of another certificate. The settings' three sources (flags, environment, queuey.toml) each
//! connect.

use std::path::Path;

use crate::common::node::Node;
use crate::common::tls::Pki;
use crate::common::{Broker, Queuey, stderr, stdout};

/// `queuey ARGS` in `dir` with the extra environment `env`: its exit code, stdout and stderr.
fn run(dir: &Path, args: &[&str], env: &[(&str, &Path)]) -> (Option<i32>, String, String) {
    let mut cmd = Queuey::in_dir(dir);
    cmd.env_remove("QUEUEY_URL").env_remove("QUEUEY_API_URL");
    for (k, v) in env {
        cmd.env(k, v);
    }
    let out = cmd.args(args).run();
    let (o, e) = (stdout(&out), stderr(&out));
    assert!(
        !o.contains(":guest@") && !e.contains(":guest@"),
        "a password is printed: {o}{e}"
    );
    // What docs/connecting.md shows (`--nocapture` prints it).
    eprintln!(
        "$ queuey {}\n{e}(exit {:?})\n",
        args.join(" "),
        out.status.code()
    );
    (out.status.code(), o, e)
}

/// Notes a failed check and goes on, so that one run shows every way TLS fails.
macro_rules! check {
    ($failures:ident, $cond:expr, $($fmt:tt)+) => {
        if !$cond {
            $failures.push(format!("{}: {}", stringify!($cond), format!($($fmt)+)));
        }
    };
}

fn path(p: &Path) -> &str {
    p.to_str().expect("a UTF-8 path")
}

#[test]
fn tls_with_a_private_ca_and_mutual_tls_and_each_way_it_fails() {
    // The test broker decides the private node's version (and must answer).
    let _broker = Broker::connect();
    let _lock = Node::lock();
    let pki = Pki::new();
    let node = Node::start_with_tls(1, &pki.node_tls(true));
    let work = tempfile::tempdir().expect("a working directory");
    let dir = work.path();
    let amqps = node.amqps_url("localhost");
    let https = node.https_api_url("localhost");
    let (ca, other_ca) = (path(&pki.ca.cert), path(&pki.other_ca.cert));
    let (cert, key) = (path(&pki.client.cert), path(&pki.client.key));
    let (stranger, stranger_key) = (path(&pki.stranger.cert), path(&pki.stranger.key));
    let endpoint = ["--url", &amqps, "--api-url", &https];
    let mutual = ["--tls-ca-cert", ca, "--tls-cert", cert, "--tls-key", key];

    // Mutual TLS on AMQP, a private CA on both ends, from flags.
    let args = [&["ping", "-o", "json"][..], &endpoint, &mutual].concat();
    let (code, out, err) = run(dir, &args, &[]);
    assert_eq!(code, Some(0), "{err}");
    let doc: serde_json::Value = serde_json::from_str(&out).expect("JSON");
    assert_eq!(
        doc["amqp"]["url"],
        format!("amqps://guest:***@localhost:{}/%2F", node.amqps_port)
    );
    assert_eq!(doc["api"]["url"], https);
    assert_eq!(doc["one_broker"], "same");

    // The same from the environment.
    let env = [
        ("QUEUEY_TLS_CA_CERT", pki.ca.cert.as_path()),
        ("QUEUEY_TLS_CERT", pki.client.cert.as_path()),
        ("QUEUEY_TLS_KEY", pki.client.key.as_path()),
    ];
    let args = [&["ping"][..], &endpoint].concat();
    let (code, _, err) = run(dir, &args, &env);
    assert_eq!(code, Some(0), "{err}");

    // The same from queuey.toml's [tls] table (paths relative to the file), for real work:
    // declare a queue, read its dead letters.
    for (name, from) in [
        ("ca.pem", &pki.ca.cert),
        ("client.pem", &pki.client.cert),
        ("client.key", &pki.client.key),
    ] {
        std::fs::create_dir_all(dir.join("tls")).expect("a directory");
        std::fs::copy(from, dir.join("tls").join(name)).expect("a copy");
    }
    std::fs::write(
        dir.join("queuey.toml"),
        "[tls]\nca_cert = \"tls/ca.pem\"\ncert = \"tls/client.pem\"\nkey = \"tls/client.key\"\n\n\
         [queues.orders]\n",
    )
    .expect("queuey.toml");
    let (code, _, err) = run(dir, &[&["declare", "orders"][..], &endpoint].concat(), &[]);
    assert_eq!(code, Some(0), "{err}");
    let (code, out, err) = run(
        dir,
        &[&["dead", "ls", "orders"][..], &endpoint].concat(),
        &[],
    );
    assert_eq!(code, Some(0), "{err}");
    assert!(out.contains("| # | message id |"), "{out}");
    assert!(err.contains("0 shown of 0 in orders.dead"), "{err}");
    std::fs::remove_file(dir.join("queuey.toml")).expect("queuey.toml removed");

    // One-way TLS with a private CA: the API over HTTPS (AMQP plain).
    let plain = node.url().replace("127.0.0.1", "localhost");
    let (code, _, err) = run(
        dir,
        &[
            "ping",
            "--url",
            &plain,
            "--api-url",
            &https,
            "--tls-ca-cert",
            ca,
        ],
        &[],
    );
    assert_eq!(code, Some(0), "{err}");

    // The failures, each checked and reported together.
    let mut failures: Vec<String> = Vec::new();

    // The broker's certificate signed by a CA other than the one given.
    let args = [
        &["ping"][..],
        &endpoint,
        &[
            "--tls-ca-cert",
            other_ca,
            "--tls-cert",
            cert,
            "--tls-key",
            key,
        ],
    ]
    .concat();
    let (code, _, err) = run(dir, &args, &[]);
    check!(failures, code == Some(4), "{code:?} {err}");
    check!(
        failures,
        err.starts_with(&format!(
            "error: TLS: the certificate of RabbitMQ at amqps://guest:***@localhost:{}/%2F is \
             not signed by the CA of {other_ca} (from --tls-ca-cert) nor by any of the \
             system's roots\n",
            node.amqps_port
        )),
        "{err}"
    );
    check!(
        failures,
        err.contains(
            "  give the certificate of the CA that signed the broker's with --tls-ca-cert FILE"
        ),
        "{code:?} {err}"
    );

    // A private CA, and none given: the system's roots do not know it.
    let args = [
        &["ping"][..],
        &endpoint,
        &["--tls-cert", cert, "--tls-key", key],
    ]
    .concat();
    let (code, _, err) = run(dir, &args, &[]);
    check!(failures, code == Some(4), "{code:?} {err}");
    check!(
        failures,
        err.contains(
            "is not signed by a CA this machine trusts (the system's roots; no CA certificate \
             was given)\n  a broker with a certificate from a private CA needs that CA: give \
             its certificate with --tls-ca-cert FILE, QUEUEY_TLS_CA_CERT or ca_cert in the \
             [tls] table of queuey.toml"
        ),
        "{err}"
    );

    // Another host name than the certificate's.
    let by_ip = node.amqps_url("127.0.0.1");
    let args = [&["ping", "--url", &by_ip, "--api-url", &https][..], &mutual].concat();
    let (code, _, err) = run(dir, &args, &[]);
    check!(failures, code == Some(4), "{code:?} {err}");
    check!(
        failures,
        err.contains(&format!(
            "error: TLS: the certificate of RabbitMQ at amqps://guest:***@127.0.0.1:{}/%2F is \
             not valid for the host name \"127.0.0.1\" (it names localhost)\n  connect by a \
             name the certificate holds (the host of --url / QUEUEY_URL)",
            node.amqps_port
        )),
        "{err}"
    );

    // The broker refusing a client: without a certificate, or with one of a CA it does not
    // trust. With TLS 1.3 the broker's alert (certificate_required, unknown_ca) can be lost
    // to the reset that follows it (src/broker/tls_clients.rs says why), so each is tried a few
    // times and each answer must be one of the two messages, word for word, with its one hint.
    let shown = format!(
        "RabbitMQ at amqps://guest:***@localhost:{}/%2F",
        node.amqps_port
    );
    let ways = "--tls-cert FILE and --tls-key FILE (or QUEUEY_TLS_CERT and QUEUEY_TLS_KEY, or \
                cert and key in the [tls] table of queuey.toml)";
    let missing_alert = format!(
        "error: TLS: {shown} requires a client certificate (mutual TLS), and none was given \
         (the broker's alert: certificate_required)\n"
    );
    let missing_reset = format!(
        "error: TLS: {shown} closed the connection right after the TLS handshake (Connection \
         reset by peer (os error 104)): a broker that requires a client certificate (mutual \
         TLS) does this when none is given\n"
    );
    let missing_hint = format!(
        "  give the client certificate and its key with {ways}; a broker that requires none \
         says in its log why it closed the connection\n"
    );
    let rejected_alert = format!(
        "error: TLS: {shown} rejected the client certificate {stranger} (from --tls-cert): it \
         is not signed by a CA the broker trusts (unknown_ca)\n"
    );
    let rejected_reset = format!(
        "error: TLS: {shown} closed the connection right after the TLS handshake (Connection \
         reset by peer (os error 104)): a broker that requires mutual TLS does this when it \
         rejects the client certificate {stranger} (from --tls-cert) (not signed by a CA it \
         trusts, expired, revoked)\n"
    );
    let rejected_hint = format!(
        "  the broker accepts client certificates signed by the CA of its \
         ssl_options.cacertfile: give one it trusts with {ways}; the broker's log says why it \
         refused this one\n"
    );
    let without = [&["ping"][..], &endpoint, &["--tls-ca-cert", ca]].concat();
    let untrusted = [
        &["ping"][..],
        &endpoint,
        &[
            "--tls-ca-cert",
            ca,
            "--tls-cert",
            stranger,
            "--tls-key",
            stranger_key,
        ],
    ]
    .concat();
    for (case, args, alert, reset, hint) in [
        (
            "no client certificate",
            &without,
            &missing_alert,
            &missing_reset,
            &missing_hint,
        ),
        (
            "an untrusted client certificate",
            &untrusted,
            &rejected_alert,
            &rejected_reset,
            &rejected_hint,
        ),
    ] {
        let (mut alerts, mut resets) = (0, 0);
        for _ in 0..5 {
            let (code, _, err) = run(dir, args, &[]);
            check!(failures, code == Some(4), "{case}: {code:?} {err}");
            if err == format!("{alert}{hint}") {
                alerts += 1;
            } else if err == format!("{reset}{hint}") {
                resets += 1;
            } else {
                check!(failures, false, "{case}: {err}");
            }
        }
        eprintln!("{case}: the alert read {alerts} times, a reset {resets} times");
    }

    // A key that belongs to another certificate: a bad setting.
    let args = [
        &["ping"][..],
        &endpoint,
        &[
            "--tls-ca-cert",
            ca,
            "--tls-cert",
            cert,
            "--tls-key",
            stranger_key,
        ],
    ]
    .concat();
    let (code, _, err) = run(dir, &args, &[]);
    check!(failures, code == Some(2), "{code:?} {err}");
    check!(
        failures,
        err.contains(&format!(
            "error: the client key {stranger_key} (from --tls-key) is not the key of the \
             certificate {cert} (from --tls-cert)"
        )),
        "{err}"
    );

    // The API's certificate not signed by the given CA: the API is unreachable (exit 6).
    let (code, _, err) = run(
        dir,
        &[
            "ping",
            "--url",
            &plain,
            "--api-url",
            &https,
            "--tls-ca-cert",
            other_ca,
        ],
        &[],
    );
    check!(failures, code == Some(6), "{code:?} {err}");
    check!(
        failures,
        err.contains(&format!(
            "error: TLS: the certificate of the management API at {https} is not signed by the \
             CA of {other_ca} (from --tls-ca-cert)"
        )),
        "{err}"
    );

    // Last, as it changes the node: an expired certificate, rotated in as an operator would.
    node.replace_server_certificate(&pki.expired_server.cert_pem, &pki.expired_server.key_pem);
    let args = [&["ping"][..], &endpoint, &mutual].concat();
    let (code, _, err) = run(dir, &args, &[]);
    check!(failures, code == Some(4), "{code:?} {err}");
    check!(
        failures,
        err.contains(&format!(
            "error: TLS: the certificate of RabbitMQ at amqps://guest:***@localhost:{}/%2F \
             expired on 2021-01-01 00:00:00 UTC (it is ",
            node.amqps_port
        )),
        "{err}"
    );
    check!(
        failures,
        err.contains(
            "  the broker's certificate must be renewed on the broker (ssl_options.certfile)"
        ),
        "{err}"
    );
    let (code, _, err) = run(
        dir,
        &[
            "ping",
            "--url",
            &plain,
            "--api-url",
            &https,
            "--tls-ca-cert",
            ca,
        ],
        &[],
    );
    check!(failures, code == Some(6), "{code:?} {err}");
    check!(
        failures,
        err.contains(&format!(
            "error: TLS: the certificate of the management API at {https} expired on 2021-01-01"
        )),
        "{err}"
    );
    assert!(failures.is_empty(), "{}", failures.join("\n\n"));
}
