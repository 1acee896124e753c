//! Connecting to the real broker: what works, and the one clear error for each way it fails.

mod common;

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
fn tls_to_a_plain_listener_is_a_tls_error() {
    let _broker = Broker::connect();
    let (mut cmd, _dir) = queuey();
    let url = common::test_url().replacen("amqp://", "amqps://", 1);
    let out = cmd.args(["ping", "--url", &url]).output().unwrap();
    assert_eq!(out.status.code(), Some(4), "{}", stderr(&out));
    assert!(stderr(&out).contains("TLS"), "{}", stderr(&out));
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
