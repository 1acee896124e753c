//! Users with less than full rights, each command run as that user: read permission only with
//! the monitoring, management or no tag; write without read; no permissions on the vhost.
//! What each may do works; what it may not is refused before anything changes, exit 5, naming
//! the permission, the user and the vhost. Users are made by the harness and deleted on drop.

use base64::Engine as _;

use crate::common::{Broker, Queuey, Run, code, json, run, stderr, stdout, unique, url_for};

const PASSWORD: &str = "perm-Test-pw1";

/// `queuey ARGS` as `user` on the default vhost.
fn run_as(user: &str, args: &[&str]) -> Run {
    Queuey::new()
        .env("QUEUEY_URL", url_for("/", user, PASSWORD))
        .args(args)
        .run()
}

/// A logical queue declared by queuey (as guest), with `dead` dead letters in q.dead.
fn logical(broker: &Broker, label: &str, dead: usize) -> String {
    let q = broker.queue_name(label);
    broker.track_queue(&format!("{q}.dead"));
    let out = run(&["declare", &q]);
    assert_eq!(code(&out), 0, "{}", stderr(&out));
    let bodies: Vec<Vec<u8>> = (0..dead)
        .map(|i| format!("{{\"n\":{i}}}").into_bytes())
        .collect();
    let refs: Vec<&[u8]> = bodies.iter().map(Vec::as_slice).collect();
    broker.publish(&format!("{q}.dead"), &refs, None);
    broker.wait_for_count(&format!("{q}.dead"), dead as u32);
    q
}

/// A user with these tags and permissions on the default vhost (deleted on drop).
fn user(broker: &Broker, label: &str, tags: &str, perms: Option<(&str, &str, &str)>) -> String {
    let name = unique(label);
    broker.create_user(&name, PASSWORD, tags);
    if let Some((configure, write, read)) = perms {
        broker.set_permissions(&name, "/", configure, write, read);
    }
    name
}

/// Asserts an exit 5 whose message names the permission, the user and the vhost.
fn assert_refused(out: &Run, permission: &str, user: &str) {
    let err = stderr(out);
    assert_eq!(code(out), 5, "{err}");
    assert!(
        err.contains(&format!("user {user:?} has no {permission} permission"))
            && err.contains("in vhost \"/\""),
        "{err}"
    );
}

const READ_ONLY: Option<(&str, &str, &str)> = Some(("", "", ".*"));

/// Every `set_user_tags` queuey prints keeps the user's other tags: the command replaces the
/// whole list (`set_user_tags guest monitoring` strips guest's administrator), so it names
/// them with a placeholder a shell refuses to run unedited, and says why.
fn assert_tag_advice_is_safe(err: &str) {
    for (i, _) in err.match_indices("rabbitmqctl set_user_tags") {
        let rest = &err[i..];
        let line = rest.lines().next().unwrap_or_default();
        assert!(
            line.contains("monitoring <its current tags> (set_user_tags replaces"),
            "an advice that would strip the user's tags: {line}"
        );
    }
}

#[test]
fn a_read_only_monitoring_user_reads_everything_and_changes_nothing() {
    let broker = Broker::connect();
    let q = logical(&broker, "perm-ro", 2);
    let dead = format!("{q}.dead");
    let ro = user(&broker, "perm-ro-user", "monitoring", READ_ONLY);

    for args in [
        vec!["verify", &q],
        vec!["status", &q],
        vec!["declare", "--dry-run", &q],
        vec!["holds", "ls", &q],
        vec!["dead", "ls", &q],
        vec!["dead", "show", &q, "2"],
    ] {
        let out = run_as(&ro, &args);
        assert_eq!(code(&out), 0, "{args:?}: {}", stderr(&out));
        // The management API served it all: no fallback note.
        assert!(!stderr(&out).contains("fell back"), "{}", stderr(&out));
    }
    let out = run_as(&ro, &["verify", &q, "-o", "json"]);
    let doc = json(&out);
    assert_eq!(
        (doc["source"].as_str(), doc["in_sync"].as_bool()),
        (Some("management_api"), Some(true)),
        "{doc:#}"
    );
    let out = run_as(&ro, &["dead", "export", &q]);
    assert_eq!(code(&out), 0, "{}", stderr(&out));
    let bodies: Vec<String> = stdout(&out)
        .lines()
        .map(|l| serde_json::from_str::<serde_json::Value>(l).expect("JSON lines"))
        .map(|v| v["body_base64"].as_str().unwrap_or_default().to_owned())
        .collect();
    let b64 = |s: &str| base64::engine::general_purpose::STANDARD.encode(s);
    assert_eq!(bodies, [b64(r#"{"n":0}"#), b64(r#"{"n":1}"#)]);

    // Replay, even a dry run, is refused before anything: the user may not publish.
    for dry in [true, false] {
        let mut args = vec!["dead", "replay", &q];
        if dry {
            args.push("--dry-run");
        }
        let out = run_as(&ro, &args);
        assert_refused(&out, "write", &ro);
        assert!(stderr(&out).contains("amq.default"), "{}", stderr(&out));
        assert!(stdout(&out).is_empty(), "{}", stdout(&out));
    }
    assert_eq!(broker.bodies(&dead), [r#"{"n":0}"#, r#"{"n":1}"#]);
    assert_eq!(broker.message_count(&q), Some(0));

    // declare is refused (configure), and creates nothing, even for a missing logical queue.
    let out = run_as(&ro, &["declare", &q]);
    assert_refused(&out, "configure", &ro);
    let missing = broker.queue_name("perm-ro-missing");
    broker.track_queue(&format!("{missing}.dead"));
    let out = run_as(&ro, &["declare", &missing]);
    assert_refused(&out, "configure", &ro);
    assert!(stderr(&out).contains(&format!("queue {missing:?}")));
    // Nor do the read-only commands create it.
    for (args, expected) in [
        (vec!["verify", &missing], 1),
        (vec!["declare", "--dry-run", &missing], 0),
    ] {
        let out = run_as(&ro, &args);
        assert_eq!(code(&out), expected, "{args:?}: {}", stderr(&out));
        assert!(stdout(&out).contains("create"), "{}", stdout(&out));
    }
    assert!(broker.api_queue(&missing).is_none(), "created {missing}");
    assert!(broker.api_queue(&format!("{missing}.dead")).is_none());

    // RabbitMQ lets the read permission purge a queue.
    let out = run_as(&ro, &["dead", "purge", &q, "--yes"]);
    assert_eq!(code(&out), 0, "{}", stderr(&out));
    assert!(
        stdout(&out).contains("removed 2 dead letters"),
        "{}",
        stdout(&out)
    );
    assert_eq!(broker.message_count(&dead), Some(0));
}

#[test]
fn a_management_tag_is_enough_and_no_tag_falls_back_to_amqp_naming_the_tag() {
    let broker = Broker::connect();
    let q = logical(&broker, "perm-tags", 1);
    let mgmt = user(&broker, "perm-mgmt", "management", READ_ONLY);
    let out = run_as(&mgmt, &["verify", &q, "-o", "json"]);
    assert_eq!(code(&out), 0, "{}", stderr(&out));
    assert_eq!(json(&out)["source"], "management_api");

    let none = user(&broker, "perm-notag", "", READ_ONLY);
    let out = run_as(&none, &["verify", &q]);
    let err = stderr(&out);
    // Not "the management API is not available ... enable the plugin": it is on, and refuses.
    assert_eq!(code(&out), 6, "{err}");
    assert!(
        err.contains("none of the tags management, monitoring or administrator")
            && err.contains(&format!("{none:?}"))
            && err.contains("exists, not checked")
            && !err.contains("not available")
            && !err.contains("rabbitmq-plugins enable")
            && err.contains("set_user_tags"),
        "{err}"
    );
    assert_tag_advice_is_safe(&err);
    let out = run_as(&none, &["status", &q]);
    assert_eq!(code(&out), 0, "{}", stderr(&out));
    assert!(stdout(&out).contains("not checked"), "{}", stdout(&out));
    let out = run_as(&none, &["declare", "--dry-run", &q]);
    assert_eq!(code(&out), 0, "{}", stderr(&out));
    assert!(
        stdout(&out).contains("exists, not checked"),
        "{}",
        stdout(&out)
    );
    let out = run_as(&none, &["holds", "ls", &q]);
    assert_eq!(code(&out), 6, "{}", stderr(&out));
    assert!(stderr(&out).contains("set_user_tags"), "{}", stderr(&out));
    assert_tag_advice_is_safe(&stderr(&out));
    // Peeking needs the queue type from the API, or the operator's word for it.
    let out = run_as(&none, &["dead", "ls", &q]);
    assert_eq!(code(&out), 6, "{}", stderr(&out));
    assert!(
        stderr(&out).contains("monitoring tag") && stderr(&out).contains("--assume-classic"),
        "{}",
        stderr(&out)
    );
    assert_tag_advice_is_safe(&stderr(&out));
    let out = run_as(&none, &["dead", "ls", &q, "--assume-classic"]);
    assert_eq!(code(&out), 0, "{}", stderr(&out));
    assert!(stderr(&out).contains("1 shown of 1"), "{}", stderr(&out));
    // Nothing declared: the arguments are the ones queuey declared (as this broker lists them).
    assert_eq!(
        broker.api_queue(&q).expect("q")["arguments"],
        broker.api_classic_arguments(serde_json::json!({"x-max-priority": 10}))
    );
}

/// A wrong management API password is a refused login, not a missing tag: 3.10 answers 401
/// "Login failed", 4.3 401 "Not_Authorized" (both checked), and every command that reads the
/// API says the credentials are not accepted and never advises a tag (the advice used to be
/// `set_user_tags guest monitoring`, which would strip guest's administrator tag). The AMQP
/// end (guest, right password) works: status falls back (exit 0), the others exit 6.
#[test]
fn a_wrong_api_password_is_a_refused_login_and_never_a_tag_advice() {
    let broker = Broker::connect();
    let q = logical(&broker, "perm-badpw", 1);
    let mut api = url::Url::parse(&crate::common::test_api_url()).expect("an API URL");
    let test: lapin::uri::AMQPUri = crate::common::test_url().parse().expect("a URL");
    api.set_username(&test.authority.userinfo.username)
        .expect("a user");
    api.set_password(Some("wrong-Api-pw9")).expect("a password");
    for (args, exit) in [
        (vec!["status", &q], 0),
        (vec!["verify", &q], 6),
        (vec!["dead", "ls", &q], 6),
        (vec!["holds", "ls", &q], 6),
    ] {
        let out = Queuey::new()
            .env("QUEUEY_API_URL", api.as_str())
            .args(&args)
            .run();
        let err = stderr(&out);
        assert_eq!(code(&out), exit, "{args:?}: {err}");
        assert!(
            err.contains("refused the login of user")
                && err.contains("password is not accepted")
                && err.contains("check the credentials")
                && err.contains("http://user:password@host:15672"),
            "{args:?}: {err}"
        );
        assert!(
            !err.contains("set_user_tags") && !err.contains("monitoring tag"),
            "{args:?}: a tag advice for a wrong password: {err}"
        );
        assert!(!err.contains("wrong-Api-pw9"), "{args:?}: {err}");
    }
}

#[test]
fn write_without_read_and_no_permissions_at_all_are_refused_by_name() {
    let broker = Broker::connect();
    let q = logical(&broker, "perm-wo", 1);
    let dead = format!("{q}.dead");
    let wo = user(&broker, "perm-wo-user", "monitoring", Some(("", ".*", "")));
    for args in [
        vec!["dead", "ls", &q],
        vec!["dead", "export", &q],
        vec!["dead", "replay", &q],
        vec!["dead", "purge", &q, "--yes"],
    ] {
        let out = run_as(&wo, &args);
        assert_refused(&out, "read", &wo);
        assert!(
            stderr(&out).contains(&format!("queue {dead:?}")),
            "{}",
            stderr(&out)
        );
    }
    assert_refused(&run_as(&wo, &["declare", &q]), "configure", &wo);
    // The API reads need no queue permission: verify works.
    assert_eq!(code(&run_as(&wo, &["verify", &q])), 0);
    assert_eq!(broker.message_count(&dead), Some(1));

    let nothing = user(&broker, "perm-none", "monitoring", None);
    for args in [
        vec!["verify", &q],
        vec!["status", &q],
        vec!["dead", "ls", &q],
        vec!["dead", "replay", &q, "--dry-run"],
        vec!["declare", &q],
    ] {
        let out = run_as(&nothing, &args);
        let err = stderr(&out);
        assert_eq!(code(&out), 5, "{args:?}: {err}");
        assert!(
            err.contains(&format!("{nothing:?}")) && err.contains("vhost \"/\""),
            "{args:?}: {err}"
        );
    }
    assert_eq!(broker.message_count(&dead), Some(1));
    // queuey's answer (above) is the same on every version; the API's differs: 3.x refuses a
    // user with no permission on the vhost (401 not_authorised), 4.x answers as if the vhost
    // did not exist (404; seen on 3.10.8 and 4.3.6, the versions between not checked).
    let path = format!(
        "queues/%2F/{}",
        percent_encoding::utf8_percent_encode(&dead, percent_encoding::NON_ALPHANUMERIC)
    );
    let want = if broker.rabbitmq_version() >= (4, 0) {
        404
    } else {
        401
    };
    assert_eq!(
        broker.api_status_as(&nothing, PASSWORD, &path),
        want,
        "the API's answer to a user without permissions, on {:?}",
        broker.rabbitmq_version()
    );
}

#[test]
fn a_user_who_may_publish_passes_the_write_check_and_replays() {
    let broker = Broker::connect();
    let q = logical(&broker, "perm-rw", 2);
    // Write on the default exchange only, read everything: what a replay needs.
    let rw = user(
        &broker,
        "perm-rw-user",
        "monitoring",
        Some(("", "^amq\\.default$", ".*")),
    );
    let out = run_as(&rw, &["dead", "replay", &q, "--dry-run"]);
    assert_eq!(code(&out), 0, "{}", stderr(&out));
    let out = run_as(&rw, &["dead", "replay", &q]);
    assert_eq!(code(&out), 0, "{}", stderr(&out));
    broker.wait_for_count(&q, 2);
    assert_eq!(broker.message_count(&format!("{q}.dead")), Some(0));
    // The write check published nothing that stayed anywhere.
    assert_eq!(broker.bodies(&q), [r#"{"n":0}"#, r#"{"n":1}"#]);
}

#[test]
fn declare_checks_every_queue_before_creating_any() {
    let broker = Broker::connect();
    let q = broker.queue_name("perm-half");
    broker.track_queue(&format!("{q}.dead"));
    // Configure on q only, not on q.dead: the check of q passes (the broker refuses its
    // invalid argument with 406 after the permission check), q.dead's fails, nothing is made.
    let escaped: String = q
        .chars()
        .flat_map(|c| {
            let escape = !c.is_ascii_alphanumeric();
            escape.then_some('\\').into_iter().chain([c])
        })
        .collect();
    let half = user(
        &broker,
        "perm-half-user",
        "monitoring",
        Some((&format!("^{escaped}$"), "", ".*")),
    );
    let out = run_as(&half, &["declare", &q]);
    assert_refused(&out, "configure", &half);
    assert!(
        stderr(&out).contains(&format!("queue \"{q}.dead\"")),
        "{}",
        stderr(&out)
    );
    assert!(broker.api_queue(&q).is_none(), "the check created {q}");
    assert!(broker.api_queue(&format!("{q}.dead")).is_none());
}
