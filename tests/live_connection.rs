//! Connecting to the real broker: what works, and the one clear error for each way it fails.

mod common;

use std::time::{Duration, Instant};

use common::{Broker, json, queuey, stderr, stdout, unique, url_for};

#[test]
fn ping_reports_amqp_and_the_management_api() {
    let _broker = Broker::connect();
    let (mut cmd, _dir) = queuey();
    let out = cmd.args(["ping", "-o", "json"]).output().unwrap();
    assert!(out.status.success(), "{}", stderr(&out));
    let doc = json(&out);
    assert_eq!(doc["amqp"]["vhost"], "/");
    assert_eq!(doc["amqp"]["user"], "guest");
    let version = doc["api"]["rabbitmq_version"].as_str().unwrap();
    assert!(
        version.chars().next().unwrap().is_ascii_digit(),
        "{version}"
    );
    assert!(
        !stdout(&out).contains(":guest@"),
        "the password must never be printed"
    );
}

#[test]
fn wrong_password_is_access_refused_and_never_printed() {
    let _broker = Broker::connect();
    let (mut cmd, _dir) = queuey();
    let out = cmd
        .args(["ping", "--url", &url_for("/", "guest", "not-the-Passw0rd")])
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(5), "{}", stderr(&out));
    let err = stderr(&out);
    assert!(err.contains("refused the login of user \"guest\""), "{err}");
    assert!(err.contains("check the username and password"), "{err}");
    assert!(!err.contains("not-the-Passw0rd") && !stdout(&out).contains("not-the-Passw0rd"));
    assert_eq!(
        err.trim_end().lines().count(),
        2,
        "one message and one hint: {err}"
    );
}

#[test]
fn unknown_vhost_is_named() {
    let _broker = Broker::connect();
    let vhost = unique("no-such-vhost");
    let (mut cmd, _dir) = queuey();
    let out = cmd
        .args(["ping", "--url", &url_for(&vhost, "guest", "guest")])
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(5));
    let err = stderr(&out);
    assert!(
        err.contains(&format!("the vhost {vhost:?} does not exist")),
        "{err}"
    );
    assert!(
        err.contains("%2f"),
        "the hint explains the default vhost: {err}"
    );
}

#[test]
fn user_without_permission_on_a_vhost_is_told_how_to_grant_it() {
    let broker = Broker::connect();
    let vhost = unique("vhost");
    let user = unique("user");
    broker.create_vhost(&vhost);
    broker.create_user(&user, "Sekr1t-pass", "management");
    let (mut cmd, _dir) = queuey();
    let out = cmd
        .args(["ping", "--url", &url_for(&vhost, &user, "Sekr1t-pass")])
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(5), "{}", stderr(&out));
    let err = stderr(&out);
    assert!(
        err.contains("may not use the vhost") && err.contains("set_permissions"),
        "{err}"
    );
    assert!(!err.contains("Sekr1t-pass"));

    // Once granted, the same URL works on a vhost other than "/".
    broker.grant(&user, &vhost);
    let (mut cmd, _dir) = queuey();
    let out = cmd
        .args([
            "ping",
            "-o",
            "json",
            "--url",
            &url_for(&vhost, &user, "Sekr1t-pass"),
        ])
        .output()
        .unwrap();
    assert!(out.status.success(), "{}", stderr(&out));
    assert_eq!(json(&out)["amqp"]["vhost"], vhost.as_str());
    assert!(!stdout(&out).contains("Sekr1t-pass"));
}

#[test]
fn broker_unreachable_is_exit_4() {
    let (mut cmd, _dir) = queuey();
    // Port 1 on localhost: nothing listens there.
    let out = cmd
        .args(["ping", "--url", "amqp://guest:Pa55word@127.0.0.1:1/%2f"])
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(4));
    let err = stderr(&out);
    assert!(
        err.contains("connection refused") && err.contains("127.0.0.1:1"),
        "{err}"
    );
    assert!(!err.contains("Pa55word"));
}

#[test]
fn management_api_unreachable_names_the_plugin() {
    let _broker = Broker::connect();
    let (mut cmd, _dir) = queuey();
    let out = cmd
        .args(["ping", "--api-url", "http://127.0.0.1:1"])
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(6));
    let err = stderr(&out);
    assert!(
        err.contains("rabbitmq-plugins enable rabbitmq_management"),
        "{err}"
    );
    assert!(
        err.contains("amqp: ok"),
        "says that AMQP itself works: {err}"
    );
}

#[test]
fn management_api_wrong_password_is_exit_6_without_the_password() {
    let _broker = Broker::connect();
    let (mut cmd, _dir) = queuey();
    let api = format!(
        "http://guest:Wr0ng-api-pw@{}",
        common::test_api_url().trim_start_matches("http://")
    );
    let out = cmd.args(["ping", "--api-url", &api]).output().unwrap();
    assert_eq!(out.status.code(), Some(6));
    let err = stderr(&out);
    assert!(err.contains("401"), "{err}");
    assert!(!err.contains("Wr0ng-api-pw"));
}

/// The URL as queuey shows it: the password masked, the default vhost spelled `%2F`.
fn shown(url: &str) -> String {
    let (scheme, rest) = url.split_once("://").unwrap();
    let (userinfo, host) = rest.split_once('@').unwrap();
    let user = userinfo.split_once(':').map_or(userinfo, |(u, _)| u);
    format!("{scheme}://{user}:***@{host}").replace("/%2f", "/%2F")
}

#[test]
fn tls_to_a_plain_listener_is_classified_as_a_tls_handshake_failure() {
    let _broker = Broker::connect();
    let (mut cmd, _dir) = queuey();
    let url = common::test_url().replacen("amqp://", "amqps://", 1);
    let out = cmd.args(["ping", "--url", &url]).output().unwrap();
    assert_eq!(out.status.code(), Some(4), "{}", stderr(&out));
    let err = stderr(&out);
    let lines: Vec<&str> = err.trim_end().lines().collect();
    assert_eq!(lines.len(), 2, "one message and one hint: {err}");
    assert!(
        lines[0].starts_with(&format!(
            "error: TLS handshake with {} failed:",
            shown(&url)
        )),
        "{err}"
    );
    assert!(
        lines[1].starts_with("  amqps:// needs the broker's TLS listener"),
        "{err}"
    );
    assert!(!err.contains("does not speak AMQP") && !err.contains("no answer within"));
}

#[test]
fn an_unknown_host_is_a_dns_failure() {
    let (mut cmd, _dir) = queuey();
    // .invalid never resolves (RFC 6761).
    let url = "amqp://guest:Dn5-secret@no-such-host.invalid:5672/%2f";
    let out = cmd.args(["ping", "--url", url]).output().unwrap();
    assert_eq!(out.status.code(), Some(4), "{}", stderr(&out));
    let err = stderr(&out);
    let lines: Vec<&str> = err.trim_end().lines().collect();
    assert_eq!(lines.len(), 2, "{err}");
    assert!(
        lines[0].starts_with(
            "error: cannot resolve the host \"no-such-host.invalid\" of \
             amqp://guest:***@no-such-host.invalid:5672/%2F:"
        ),
        "{err}"
    );
    assert_eq!(lines[1], "  check the host name in --url / QUEUEY_URL");
    assert!(!err.contains("Dn5-secret"));
}

/// A listener that accepts and never says a word (what a firewall dropping packets, or a
/// server waiting for another protocol, looks like): queuey gives up after --connect-timeout.
#[test]
fn a_silent_server_is_a_connect_timeout() {
    let listener = std::net::TcpListener::bind("127.0.0.1:0").unwrap();
    let port = listener.local_addr().unwrap().port();
    let holder = std::thread::spawn(move || {
        let conn = listener.accept();
        std::thread::sleep(Duration::from_secs(6));
        drop(conn);
    });
    let url = format!("amqp://guest:guest@127.0.0.1:{port}/%2f");
    let (mut cmd, _dir) = queuey();
    let start = Instant::now();
    let out = cmd
        .args(["ping", "--url", &url, "--connect-timeout", "1s"])
        .output()
        .unwrap();
    let took = start.elapsed();
    assert_eq!(out.status.code(), Some(4), "{}", stderr(&out));
    let err = stderr(&out);
    assert!(
        err.starts_with(&format!(
            "error: cannot connect to RabbitMQ at {}: no answer within 1s\n",
            shown(&url)
        )),
        "{err}"
    );
    assert!(err.contains("--connect-timeout"), "{err}");
    assert!(
        took >= Duration::from_millis(900) && took < Duration::from_secs(5),
        "gave up after {took:?}"
    );
    holder.join().unwrap();
}

/// A port that answers in another protocol (here HTTP, like the management port): named as
/// not AMQP, with the likely mix-ups, never as a TLS or timeout failure.
#[test]
fn a_port_speaking_http_is_not_amqp() {
    use std::io::{Read, Write};
    let listener = std::net::TcpListener::bind("127.0.0.1:0").unwrap();
    let port = listener.local_addr().unwrap().port();
    let server = std::thread::spawn(move || {
        let (mut conn, _) = listener.accept().unwrap();
        let mut hello = [0u8; 8];
        let _ = conn.read_exact(&mut hello);
        let _ = conn.write_all(
            b"HTTP/1.1 400 Bad Request\r\nContent-Type: text/plain\r\nContent-Length: 11\r\n\r\nbad request",
        );
        hello
    });
    let url = format!("amqp://guest:guest@127.0.0.1:{port}/%2f");
    let (mut cmd, _dir) = queuey();
    let out = cmd
        .args(["ping", "--url", &url, "--connect-timeout", "5s"])
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(4), "{}", stderr(&out));
    let err = stderr(&out);
    let lines: Vec<&str> = err.trim_end().lines().collect();
    assert_eq!(lines.len(), 2, "{err}");
    assert!(
        lines[0].starts_with(&format!(
            "error: the server at {} does not speak AMQP 0-9-1:",
            shown(&url)
        )),
        "{err}"
    );
    assert!(lines[1].contains("management port 15672"), "{err}");
    // queuey spoke first, as AMQP clients do: the protocol header.
    assert_eq!(&server.join().unwrap(), b"AMQP\x00\x00\x09\x01");
}
