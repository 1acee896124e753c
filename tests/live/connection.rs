//! Connecting to the real broker: what works, and the one clear error for each way it fails.

use std::time::{Duration, Instant};

use crate::common::{Broker, Queuey, code, json, run, stderr, stdout, unique, url_for};

#[test]
fn ping_reports_amqp_and_the_management_api() {
    let _broker = Broker::connect();
    let out = Queuey::new().args(["ping", "-o", "json"]).run();
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
    let out = Queuey::new()
        .args(["ping", "--url", &url_for("/", "guest", "not-the-Passw0rd")])
        .run();
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

/// The test broker's AMQP URL with `userinfo` in place of its user and password.
fn url_with_userinfo(userinfo: &str) -> String {
    let base = url::Url::parse(&crate::common::test_url()).expect("QUEUEY_TEST_URL is a URL");
    format!(
        "amqp://{userinfo}{}:{}/%2f",
        base.host_str().unwrap_or("127.0.0.1"),
        base.port().unwrap_or(5672)
    )
}

/// A URL without a password sends the clients' default one, guest (the same on 3.10.8 and
/// 4.3.6): a refused login says so, with the word guest shown (it is no secret: it used to be
/// masked, "the *** user"), and the note about guest only for guest. An empty user spelled out
/// (`amqp://:password@`) is a usage error, never a login as guest.
#[test]
fn a_url_without_password_or_with_an_empty_user_says_so() {
    let _broker = Broker::connect();
    let nobody = unique("no-pw-user");
    let out = Queuey::new()
        .args(["ping", "--url", &url_with_userinfo(&format!("{nobody}@"))])
        .run();
    let err = stderr(&out);
    assert_eq!(out.status.code(), Some(5), "{err}");
    assert!(
        err.contains(&format!("refused the login of user {nobody:?}"))
            && err.contains("the URL gives no password, so the default one (guest) was sent"),
        "{err}"
    );
    assert!(
        !err.contains("the *** user") && !err.contains("only connect from localhost"),
        "{err}"
    );

    let out = Queuey::new()
        .args(["ping", "--url", &url_with_userinfo(":Empty-user-pw7@")])
        .run();
    let err = stderr(&out);
    assert_eq!(out.status.code(), Some(2), "{err}");
    assert!(
        err.contains("the user name is empty") && !err.contains("refused the login"),
        "{err}"
    );
    assert!(!err.contains("Empty-user-pw7"), "{err}");
}

#[test]
fn unknown_vhost_is_named() {
    let _broker = Broker::connect();
    let vhost = unique("no-such-vhost");
    let out = Queuey::new()
        .args(["ping", "--url", &url_for(&vhost, "guest", "guest")])
        .run();
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
    let out = Queuey::new()
        .args(["ping", "--url", &url_for(&vhost, &user, "Sekr1t-pass")])
        .run();
    assert_eq!(out.status.code(), Some(5), "{}", stderr(&out));
    let err = stderr(&out);
    assert!(err.contains("may not use the vhost"), "{err}");
    assert!(!err.contains("Sekr1t-pass"));
    assert!(
        !err.contains('<'),
        "no placeholder where queuey knows the names: {err}"
    );

    // The hint names the vhost and the user: pasted as printed, it grants the access.
    let start = err
        .find("`rabbitmqctl set_permissions")
        .unwrap_or_else(|| panic!("a set_permissions command in: {err}"));
    let command = &err[start + 1..];
    let command = &command[..command.find('`').expect("closing backtick")];
    let pasted = crate::common::paste(command);
    assert!(pasted.status.success(), "{command}: {}", stderr(&pasted));
    let out = Queuey::new()
        .args([
            "ping",
            "-o",
            "json",
            "--url",
            &url_for(&vhost, &user, "Sekr1t-pass"),
        ])
        .run();
    assert!(out.status.success(), "{}", stderr(&out));
    assert_eq!(json(&out)["amqp"]["vhost"], vhost.as_str());
    assert!(!stdout(&out).contains("Sekr1t-pass"));
}

#[test]
fn broker_unreachable_is_exit_4() {
    // Port 1 on localhost: nothing listens there.
    let out = Queuey::new()
        .args(["ping", "--url", "amqp://guest:Pa55word@127.0.0.1:1/%2f"])
        .run();
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
    let out = Queuey::new()
        .args(["ping", "--api-url", "http://127.0.0.1:1"])
        .run();
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
    let api = format!(
        "http://guest:Wr0ng-api-pw@{}",
        crate::common::test_api_url().trim_start_matches("http://")
    );
    let out = Queuey::new().args(["ping", "--api-url", &api]).run();
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
    let url = crate::common::test_url().replacen("amqp://", "amqps://", 1);
    let out = Queuey::new().args(["ping", "--url", &url]).run();
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
    // .invalid never resolves (RFC 6761).
    let url = "amqp://guest:Dn5-secret@no-such-host.invalid:5672/%2f";
    let out = Queuey::new().args(["ping", "--url", url]).run();
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
    // The connection is held, silent, until queuey has given up.
    let (given_up, wait_for_it) = std::sync::mpsc::channel::<()>();
    let holder = std::thread::spawn(move || {
        let conn = listener.accept();
        let _ = wait_for_it.recv();
        drop(conn);
    });
    let url = format!("amqp://guest:guest@127.0.0.1:{port}/%2f");
    let start = Instant::now();
    let out = Queuey::new()
        .args(["ping", "--url", &url, "--connect-timeout", "1s"])
        .run();
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
    drop(given_up);
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
    let out = Queuey::new()
        .args(["ping", "--url", &url, "--connect-timeout", "5s"])
        .run();
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
    assert!(!err.contains("ParserErrors"), "no parser debug dump: {err}");
    // queuey spoke first, as AMQP clients do: the protocol header.
    assert_eq!(&server.join().unwrap(), b"AMQP\x00\x00\x09\x01");
}

/// `--url` given the management API's port, a classic mistake: the broker's HTTP server waits
/// 5 s for a request line and drops the connection ("connection aborted", RabbitMQ 3.10.8 and
/// 4.3.6 alike), and queuey says which port that is.
#[test]
fn the_management_port_in_the_amqp_url_is_named() {
    let api = crate::common::test_api_url();
    let port = api
        .rsplit(':')
        .next()
        .unwrap_or_default()
        .trim_end_matches('/');
    let url = format!("amqp://guest:guest@127.0.0.1:{port}/%2f");
    let out = Queuey::new()
        .args(["ping", "--url", &url, "--connect-timeout", "30s"])
        .run();
    assert_eq!(out.status.code(), Some(4), "{}", stderr(&out));
    let err = stderr(&out);
    assert!(
        err.contains(&format!("port {port} is usually the management API's"))
            || err.contains("not its management API's (15672)")
            || err.contains("management port 15672"),
        "{err}"
    );
    assert!(!err.contains("ParserErrors"), "no parser debug dump: {err}");
}

/// A management API that answers for a cluster of its own: `/api/overview` says
/// `elsewhere@nowhere`, every other path 404. Returns its URL; the server lives as long as the
/// test process.
fn api_of_another_broker() -> String {
    use std::io::{BufRead, BufReader, Write};
    let listener = std::net::TcpListener::bind("127.0.0.1:0").unwrap();
    let port = listener.local_addr().unwrap().port();
    std::thread::spawn(move || {
        for conn in listener.incoming() {
            let Ok(mut conn) = conn else { continue };
            let mut reader = BufReader::new(conn.try_clone().unwrap());
            let mut request = String::new();
            let _ = reader.read_line(&mut request);
            loop {
                let mut line = String::new();
                if reader.read_line(&mut line).unwrap_or(0) == 0 || line == "\r\n" {
                    break;
                }
            }
            let (status, body) = if request.starts_with("GET /api/overview") {
                (
                    "200 OK",
                    r#"{"rabbitmq_version":"9.9.9","erlang_version":"99","cluster_name":"elsewhere@nowhere","node":"other@nowhere"}"#,
                )
            } else {
                (
                    "404 Not Found",
                    r#"{"error":"Object Not Found","reason":"Not Found"}"#,
                )
            };
            let _ = write!(
                conn,
                "HTTP/1.1 {status}\r\ncontent-type: application/json\r\ncontent-length: {}\r\nconnection: close\r\n\r\n{body}",
                body.len()
            );
        }
    });
    format!("http://127.0.0.1:{port}")
}

/// The API and the AMQP connection are one broker, or queuey stops: the cluster name the broker
/// gives in its AMQP `connection.start` is compared with the API's `/api/overview`. On every
/// broker version (3.10 and 4.3 give both the same way): `ping` shows both and says "one
/// broker"; an API of another cluster is refused by name (exit 6) by every command that reads
/// the API, before anything is read or changed.
#[test]
fn an_api_of_another_broker_is_refused_by_name() {
    let broker = Broker::connect();
    let cluster = broker.cluster_name();
    let (major, minor) = broker.rabbitmq_version();
    let out = Queuey::new().args(["ping", "-o", "json"]).run();
    assert!(out.status.success(), "{}", stderr(&out));
    let doc = json(&out);
    assert_eq!(doc["one_broker"], "same", "{doc}");
    assert_eq!(doc["amqp"]["cluster_name"], cluster.as_str());
    assert_eq!(doc["api"]["cluster_name"], cluster.as_str());
    let amqp_version = doc["amqp"]["rabbitmq_version"].as_str().unwrap();
    assert!(
        amqp_version.starts_with(&format!("{major}.{minor}.")),
        "{amqp_version} on {major}.{minor}"
    );

    let q = broker.queue_name("other-broker");
    let dead = format!("{q}.dead");
    broker.declare(&dead, lapin::types::FieldTable::default());
    broker.publish(&dead, &[b"kept".as_slice()], None);
    let other = api_of_another_broker();
    let commands: Vec<Vec<&str>> = vec![
        vec!["ping"],
        vec!["status", &q],
        vec!["verify", &q],
        vec!["declare", &q, "--dry-run"],
        vec!["holds", "ls", &q],
        vec!["dead", "ls", &q],
        vec!["dead", "replay", &q, "--dry-run"],
        vec!["dead", "replay", &q],
        vec!["dead", "purge", &q, "--yes"],
    ];
    for args in commands {
        let out = Queuey::new().args(&args).args(["--api-url", &other]).run();
        let err = stderr(&out);
        assert_eq!(out.status.code(), Some(6), "{args:?}: {err}");
        assert!(
            err.contains(&format!(
                "the management API at {other} answers for another broker than the AMQP URL's"
            )) && err.contains(&format!("is cluster {cluster:?}"))
                && err.contains("the API is cluster \"elsewhere@nowhere\" (RabbitMQ 9.9.9"),
            "{args:?}: {err}"
        );
        assert!(err.contains("name two brokers"), "{args:?}: {err}");
    }
    assert_eq!(broker.count(&dead), 1, "nothing read away, nothing purged");
}

/// With no API URL given, `ping` says where the API address comes from (the AMQP URL's host,
/// port 15672, its credentials). When that derived address is another broker (on this machine
/// a 4.3 test node on 5674 derives the 3.10 node's API on 15672), the run says "TWO BROKERS" and
/// exits 6; when it is the same broker, "one broker"; when nothing answers there, exit 6 with the
/// address and where it came from.
#[test]
fn ping_says_where_the_api_address_comes_from() {
    let broker = Broker::connect();
    let cluster = broker.cluster_name();
    let out = Queuey::new().env_remove("QUEUEY_API_URL").arg("ping").run();
    let all = format!("{}{}", stdout(&out), stderr(&out));
    assert!(
        all.contains(
            "was derived from the AMQP URL (its host, port 15672, its credentials) since no \
             --api-url or QUEUEY_API_URL was given"
        ),
        "{all}"
    );
    let amqp_port = url::Url::parse(&crate::common::test_url())
        .unwrap()
        .port()
        .unwrap_or(5672);
    let derived_api = std::net::TcpStream::connect("127.0.0.1:15672").is_ok();
    if !derived_api {
        assert_eq!(out.status.code(), Some(6), "{all}");
    } else if stdout(&out).contains(&format!("cluster {cluster},")) && amqp_port == 5672 {
        assert!(out.status.success(), "{all}");
        assert!(
            stdout(&out).contains(&format!("one broker: both ends are cluster {cluster}")),
            "{all}"
        );
    } else {
        assert_eq!(out.status.code(), Some(6), "{all}");
        assert!(stdout(&out).contains("TWO BROKERS"), "{all}");
        assert!(all.contains("answers for another broker"), "{all}");
    }
    let out = Queuey::new().arg("ping").run();
    assert!(out.status.success(), "{}", stderr(&out));
    assert!(
        stdout(&out)
            .contains("the management API address was given with --api-url or QUEUEY_API_URL"),
        "{}",
        stdout(&out)
    );
}

/// An API URL with a wrong path prefix reaches a RabbitMQ that answers 404 to everything: that
/// is no missing queue (7) but no API at that address (6), with the way out.
#[test]
fn an_api_url_with_a_wrong_prefix_is_an_api_problem() {
    let broker = Broker::connect();
    let q = broker.queue_name("prefix");
    let dead = format!("{q}.dead");
    broker.declare(&dead, lapin::types::FieldTable::default());
    let api = format!(
        "{}/wrongprefix",
        crate::common::test_api_url().trim_end_matches('/')
    );
    for args in [
        vec!["ping"],
        vec!["status", &q],
        vec!["dead", "ls", &q],
        vec!["holds", "ls", &q],
    ] {
        let out = Queuey::new().args(&args).args(["--api-url", &api]).run();
        let err = stderr(&out);
        if args[0] == "status" {
            // status falls back to AMQP, and says why.
            assert!(out.status.success(), "{args:?}: {err}");
            assert!(
                err.contains(&format!("no RabbitMQ management API at {api}")),
                "{err}"
            );
            continue;
        }
        assert_eq!(out.status.code(), Some(6), "{args:?}: {err}");
        assert!(
            err.contains(&format!(
                "there is no RabbitMQ management API at {api}: {api}/api/overview answered 404"
            )) && err.contains("without /api: http://host:15672"),
            "{args:?}: {err}"
        );
    }
}

/// Addresses where nothing answers, before the test broker: a port nobody listens on and a
/// name that does not resolve (`.invalid` never does).
fn dead_addresses() -> [String; 2] {
    [
        "amqp://guest:guest@127.0.0.1:5699/%2f".to_owned(),
        "amqp://guest:guest@no-such-node.invalid:5672/%2f".to_owned(),
    ]
}

/// Several addresses, on every broker version: the ones where nothing answers (refused, not
/// resolving) are skipped, each said, and the first that answers is used and named, whether
/// the list is one comma-separated value, repeated flags or QUEUEY_URL; `ping` lists every
/// address with its outcome.
#[test]
fn a_list_skips_the_addresses_that_do_not_answer_and_names_the_one_used() {
    let broker = Broker::connect();
    let q = broker.queue_name("addresses");
    broker.declare(&format!("{q}.dead"), lapin::types::FieldTable::default());
    let [refused, unresolved] = dead_addresses();
    let good = crate::common::test_url();
    let list = format!("{refused},{unresolved}, {good}");

    let out = Queuey::new()
        .args(["ping", "-o", "json", "--url", &list])
        .run();
    assert!(out.status.success(), "{}", stderr(&out));
    let doc = json(&out);
    let outcomes: Vec<(&str, &str)> = doc["addresses"]
        .as_array()
        .unwrap()
        .iter()
        .map(|a| (a["url"].as_str().unwrap(), a["outcome"].as_str().unwrap()))
        .collect();
    assert_eq!(
        outcomes,
        [
            ("amqp://guest:***@127.0.0.1:5699/%2F", "no-answer"),
            (
                "amqp://guest:***@no-such-node.invalid:5672/%2F",
                "no-answer"
            ),
            (shown(&good).as_str(), "used"),
        ],
        "{doc}"
    );
    assert_eq!(doc["amqp"]["url"], shown(&good).as_str());
    assert!(
        doc["addresses"][1]["error"]
            .as_str()
            .unwrap()
            .contains("cannot resolve the host \"no-such-node.invalid\""),
        "{doc}"
    );

    for how in ["one value", "repeated", "QUEUEY_URL"] {
        let mut cmd = Queuey::new();
        cmd.args(["dead", "ls", &q]);
        match how {
            "one value" => cmd.args(["--url", &list]),
            "repeated" => cmd.args(["--url", &refused, "--url", &unresolved, "--url", &good]),
            _ => cmd.env("QUEUEY_URL", &list),
        };
        let out = cmd.run();
        let err = stderr(&out);
        assert!(out.status.success(), "{how}: {err}");
        assert!(
            err.contains(
                "cannot connect to RabbitMQ at amqp://guest:***@127.0.0.1:5699/%2F: connection \
                 refused; trying the next address (2 of 3)"
            ),
            "{how}: {err}"
        );
        assert!(
            err.contains("no-such-node.invalid")
                && err.contains("trying the next address (3 of 3)"),
            "{how}: {err}"
        );
        assert!(
            err.contains(&format!("connected to {} (address 3 of 3)", shown(&good))),
            "{how}: {err}"
        );
    }
    // The summaries of the commands that change q.dead say which address they used.
    for command in [
        &["dead", "replay", &q, "--dry-run"][..],
        &["dead", "purge", &q, "--dry-run"][..],
    ] {
        let out = Queuey::new()
            .args(command)
            .args(["-o", "json", "--url", &list])
            .run();
        assert!(out.status.success(), "{command:?}: {}", stderr(&out));
        assert_eq!(
            json(&out)["connected_to"],
            shown(&good).as_str(),
            "{command:?}"
        );
    }
}

/// A list whose every address fails is exit 4, each address named with what it did; a login
/// refused at one address stops there (exit 5), the addresses after it untried, and says why.
#[test]
fn every_address_failing_is_exit_4_and_a_refusal_stops_the_list() {
    let _broker = Broker::connect();
    let [refused, unresolved] = dead_addresses();
    let out = Queuey::new()
        .args([
            "status",
            "orders",
            "--url",
            &format!("{refused},{unresolved}"),
        ])
        .run();
    let err = stderr(&out);
    assert_eq!(out.status.code(), Some(4), "{err}");
    assert!(
        err.contains(
            "error: none of the 2 AMQP addresses answered:\n  1. cannot connect to \
             RabbitMQ at amqp://guest:***@127.0.0.1:5699/%2F: connection refused\n  2. cannot \
             resolve the host \"no-such-node.invalid\""
        ),
        "{err}"
    );

    let wrong = url_for("/", "guest", "Wr0ng-list-pw");
    let out = Queuey::new()
        .args(["dead", "ls", "orders", "--url", &refused, "--url", &wrong])
        .args(["--url", &crate::common::test_url()])
        .run();
    let err = stderr(&out);
    assert_eq!(out.status.code(), Some(5), "{err}");
    assert!(err.contains("refused the login of user \"guest\""), "{err}");
    assert!(
        err.contains("queuey stops at a refusal rather than try another address"),
        "{err}"
    );
    assert!(!err.contains("connected to"), "{err}");
    assert!(!err.contains("Wr0ng-list-pw") && !stdout(&out).contains("Wr0ng-list-pw"));
}

/// The management API addresses are tried in order too, and the one that answers must be the
/// AMQP connection's cluster: one of another cluster is refused by name (exit 6), never used.
#[test]
fn the_api_addresses_are_tried_in_order_and_another_cluster_is_refused() {
    let broker = Broker::connect();
    let cluster = broker.cluster_name();
    let q = broker.queue_name("api-list");
    broker.declare(&format!("{q}.dead"), lapin::types::FieldTable::default());
    let api = crate::common::test_api_url();
    let out = Queuey::new()
        .args(["holds", "ls", &q, "--api-url"])
        .arg(format!("http://127.0.0.1:15699,{api}"))
        .run();
    let err = stderr(&out);
    assert!(out.status.success(), "{err}");
    assert!(
        err.contains("the RabbitMQ management API at http://127.0.0.1:15699 is not reachable")
            && err.contains("trying the next management API address (2 of 2)"),
        "{err}"
    );
    assert!(
        err.contains(&format!(
            "using the management API at {} (2 of 2)",
            api.trim_end_matches('/')
        )),
        "{err}"
    );

    let other = api_of_another_broker();
    let out = Queuey::new()
        .args(["dead", "ls", &q, "--api-url"])
        .arg(format!("http://127.0.0.1:15699,{other},{api}"))
        .run();
    let err = stderr(&out);
    assert_eq!(out.status.code(), Some(6), "{err}");
    assert!(
        err.contains(&format!(
            "the management API at {other} answers for another broker than the AMQP URL's"
        )) && err.contains(&format!("is cluster {cluster:?}"))
            && err.contains("the API is cluster \"elsewhere@nowhere\""),
        "{err}"
    );
}

/// The real management API behind a proxy that reads the first `drops` requests and closes
/// their connections without an answer (as a node's HTTP listener does when it restarts, or a
/// server closing a kept-alive connection as it is reused), then passes everything through.
/// Returns the proxy's URL; it lives as long as the test process.
fn api_that_drops_the_first(drops: usize) -> String {
    use std::io::Read;
    let upstream = crate::common::test_api_url();
    let upstream = upstream
        .trim_start_matches("http://")
        .trim_end_matches('/')
        .to_owned();
    let listener = std::net::TcpListener::bind("127.0.0.1:0").unwrap();
    let port = listener.local_addr().unwrap().port();
    std::thread::spawn(move || {
        let mut dropped = 0;
        for conn in listener.incoming() {
            let Ok(mut conn) = conn else { continue };
            if dropped < drops {
                dropped += 1;
                let mut request = [0u8; 1024];
                let _ = conn.read(&mut request);
                drop(conn);
                continue;
            }
            let Ok(server) = std::net::TcpStream::connect(&upstream) else {
                continue;
            };
            let (mut c2, mut s2) = (conn.try_clone().unwrap(), server.try_clone().unwrap());
            let (mut c, mut s) = (conn, server);
            std::thread::spawn(move || {
                let _ = std::io::copy(&mut c, &mut s);
                let _ = s.shutdown(std::net::Shutdown::Write);
            });
            std::thread::spawn(move || {
                let _ = std::io::copy(&mut s2, &mut c2);
                let _ = c2.shutdown(std::net::Shutdown::Write);
            });
        }
    });
    format!("http://guest:guest@127.0.0.1:{port}")
}

/// A request to the management API whose connection closes before the answer (nothing
/// refused, nothing timed out) is sent again, twice at most: a GET changes nothing. Seen on
/// 4.3.6 right after a private node's kill -9 and restart, where a rerun failed with exit 6
/// "connection closed before message completed". Two such closes in a row are retried (and
/// `status` reads the API, not its AMQP fallback); three are an error naming what happened
/// (exit 6).
#[test]
fn an_api_request_whose_connection_closes_unanswered_is_sent_again() {
    let broker = Broker::connect();
    let q = broker.queue_name("api-retry");
    broker.declare(&format!("{q}.dead"), lapin::types::FieldTable::default());
    let out = Queuey::new()
        .args(["status", &q, "-o", "json", "--api-url"])
        .arg(api_that_drops_the_first(2))
        .run();
    assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));
    assert!(
        !stderr(&out).contains("not available"),
        "the API answered, no AMQP fallback: {}",
        stderr(&out)
    );
    // `holds ls` needs the API (status would fall back to AMQP).
    let out = Queuey::new()
        .args(["holds", "ls", &q, "--api-url"])
        .arg(api_that_drops_the_first(3))
        .run();
    assert_eq!(out.status.code(), Some(6), "{}", stderr(&out));
    assert!(
        stderr(&out).contains("connection closed before message completed"),
        "{}",
        stderr(&out)
    );
}

/// A URL whose vhost does not exist gets the same answer from every command: the vhost
/// is named, with the way out, and the exit code is 5.
#[test]
fn a_missing_vhost_is_the_same_answer_everywhere() {
    let _broker = Broker::connect();
    let vhost = unique("no-such-vhost");
    let url = url_for(&vhost, "guest", "guest");
    let commands: Vec<Vec<&str>> = vec![
        vec!["ping"],
        vec!["status", "orders"],
        vec!["verify", "orders"],
        vec!["declare", "orders"],
        vec!["holds", "ls", "orders"],
        vec!["dead", "ls", "orders"],
        vec!["dead", "show", "orders", "1"],
        vec!["dead", "export", "orders"],
        vec!["dead", "replay", "orders"],
        vec!["dead", "replay", "orders", "--dry-run"],
        vec!["dead", "purge", "orders", "--yes"],
        vec!["dead", "purge", "orders", "--dry-run"],
    ];
    for mut args in commands {
        args.extend(["--url", url.as_str()]);
        let out = run(&args);
        let err = stderr(&out);
        assert_eq!(code(&out), 5, "{args:?}: {err}");
        assert!(
            err.contains(&format!("the vhost {vhost:?} does not exist")),
            "{args:?}: {err}"
        );
        assert!(
            err.contains("rabbitmqctl list_vhosts"),
            "{args:?} gives the way out: {err}"
        );
        assert!(!err.contains("queue \"orders"), "{args:?}: {err}");
    }
}
