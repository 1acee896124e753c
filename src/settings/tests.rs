//! Unit tests of the settings layer, built from a command line as the binary parses it (the
//! CLI layer's parser is used here, in tests only).

use super::*;

/// `queuey ARGS` as the binary reads it, with no topology file unless `--config` names one.
fn invocation(args: &[&str]) -> Result<Invocation> {
    let cli = Cli::try_parse_sourced(std::iter::once("queuey").chain(args.iter().copied()))
        .expect("the command line parses");
    Invocation::from_cli(cli)
}

fn work(args: &[&str]) -> Work {
    invocation(args).expect("valid settings").work
}

#[test]
fn a_rate_is_above_zero_and_finite() {
    assert_eq!(parse_rate("500").unwrap(), 500.0);
    assert_eq!(parse_rate(" 2.5/s ").unwrap(), 2.5);
    for bad in ["0", "0/s", "-1", "inf", "NaN", "", "fast"] {
        let e = parse_rate(bad).unwrap_err();
        assert!(e.message.contains("above 0"), "{bad}: {e}");
    }
}

#[test]
fn a_limit_of_0_is_every_message() {
    for (args, want) in [
        (&["dead", "ls", "orders", "--limit", "0"][..], None),
        (&["dead", "ls", "orders", "--limit", "5"], Some(5)),
        (&["dead", "ls", "orders"], Some(50)),
        (&["dead", "export", "orders"], None),
        (&["dead", "export", "orders", "--limit", "5"], Some(5)),
        (&["dead", "replay", "orders"], None),
        (&["dead", "replay", "orders", "--limit", "5"], Some(5)),
    ] {
        let limit = match work(args) {
            Work::DeadLs { limit, .. } | Work::DeadExport { limit, .. } => limit,
            Work::DeadReplay { replay, .. } => replay.limit,
            other => panic!("{other:?}"),
        };
        assert_eq!(limit, want, "{args:?}");
    }
}

#[test]
fn the_naming_flags_of_a_dead_letter_command_shape_its_queue() {
    let Work::DeadLs { queue, .. } = work(&[
        "dead",
        "ls",
        "orders",
        "--dead-suffix",
        "_dlq",
        "--deferred-suffix",
        ".hold",
    ]) else {
        panic!("dead ls")
    };
    assert_eq!(queue.dead_queue(), "orders_dlq");
    assert_eq!(queue.options.deferred_suffix, ".hold");
}

#[test]
fn replay_refuses_its_own_dead_letter_queue_as_target() {
    let e = invocation(&["dead", "replay", "orders", "--to", "orders.dead"]).unwrap_err();
    assert!(e.message.contains("the dead-letter queue itself"), "{e}");
    let Work::DeadReplay { replay, .. } = work(&["dead", "replay", "orders", "--to", "other"])
    else {
        panic!("dead replay")
    };
    assert_eq!(replay.to.as_deref(), Some("other"));
}

#[test]
fn replay_channels_default_to_1_and_stay_within_1_to_16() {
    let channels = |extra: &[&str]| {
        let mut args = vec!["dead", "replay", "orders"];
        args.extend(extra);
        let Work::DeadReplay { replay, .. } = work(&args) else {
            panic!("dead replay")
        };
        replay.channels
    };
    assert_eq!(channels(&[]), 1);
    assert_eq!(channels(&["--channels", "2"]), 2);
    assert_eq!(channels(&["--channels", "16"]), 16);
    for bad in ["0", "17"] {
        let e = invocation(&["dead", "replay", "orders", "--channels", bad]).unwrap_err();
        assert!(e.message.contains(&format!("--channels {bad}")), "{e}");
    }
}

#[test]
fn peek_flags_are_carried_and_a_window_of_0_is_refused() {
    let Work::DeadShow { peek, which, .. } = work(&[
        "dead",
        "show",
        "orders",
        "3",
        "--window",
        "7",
        "--spend-delivery-budget",
        "--assume-classic",
    ]) else {
        panic!("dead show")
    };
    assert_eq!(which, Which::Position(3));
    assert_eq!(
        (peek.window, peek.spend_delivery_budget, peek.assume_classic),
        (7, true, true)
    );
    let Work::DeadShow { peek, .. } = work(&["dead", "show", "orders", "1"]) else {
        panic!("dead show")
    };
    assert_eq!(
        (peek.window, peek.spend_delivery_budget, peek.assume_classic),
        (4000, false, false)
    );
    let e = invocation(&["dead", "show", "orders", "1", "--window", "0"]).unwrap_err();
    assert!(e.message.contains("--window 0"), "{e}");
}

#[test]
fn quorum_at_risk_defaults_to_2048_is_carried_and_needs_a_round_of_one() {
    let Work::DeadShow { peek, .. } = work(&["dead", "show", "orders", "1"]) else {
        panic!("dead show")
    };
    assert_eq!(peek.quorum_at_risk, 2048);
    let Work::DeadShow { peek, .. } =
        work(&["dead", "show", "orders", "1", "--quorum-at-risk", "1024"])
    else {
        panic!("dead show")
    };
    assert_eq!(peek.quorum_at_risk, 1024);
    for bad in ["0", "1"] {
        let e = invocation(&["dead", "show", "orders", "1", "--quorum-at-risk", bad]).unwrap_err();
        assert!(
            e.message.contains(&format!("--quorum-at-risk {bad}")),
            "{e}"
        );
    }
}

#[test]
fn older_than_must_be_shorter_than_newer_than() {
    let filter = |older: &str, newer: &str| {
        filter_from_args(&FilterArgs {
            older_than: Some(older.into()),
            newer_than: Some(newer.into()),
            ..FilterArgs::default()
        })
    };
    let f = filter("1h", "2h").unwrap();
    assert_eq!(
        (f.older_than, f.newer_than),
        (
            Some(Duration::from_secs(3600)),
            Some(Duration::from_secs(7200))
        )
    );
    for (older, newer) in [("2h", "1h"), ("1h", "1h")] {
        let e = filter(older, newer).unwrap_err();
        assert!(e.message.contains("match nothing"), "{older} {newer}: {e}");
    }
}

#[test]
fn declare_refuses_an_unlisted_queue_unless_told_or_dry() {
    let dir = tempfile::tempdir().unwrap();
    let config = dir.path().join("queuey.toml");
    std::fs::write(&config, "[queues.orders]\n").unwrap();
    let config = config.to_str().unwrap();
    let e = invocation(&["declare", "ordrs", "--config", config]).unwrap_err();
    assert!(e.message.contains("refusing to declare"), "{e}");
    assert!(e.message.contains("did you mean \"orders\"?"), "{e}");
    for flag in ["--dry-run", "--allow-unlisted"] {
        let i = invocation(&["declare", "ordrs", "--config", config, flag]).unwrap();
        assert!(i.notes.is_empty(), "declare says it in its report");
    }
    invocation(&["declare", "orders", "--config", config]).unwrap();
    let i = invocation(&["dead", "ls", "ordrs", "--config", config]).unwrap();
    assert_eq!(i.work.queues().len(), 1);
    assert_eq!(i.notes.len(), 1, "{:?}", i.notes);
    assert!(
        i.notes[0].starts_with("note: \"ordrs\" is not in"),
        "{:?}",
        i.notes
    );
}

fn addresses_of(args: &[&str]) -> Result<ConnectionSettings> {
    match invocation(args)?.work {
        Work::Ping { connection } => Ok(connection),
        other => panic!("not ping: {other:?}"),
    }
}

#[test]
fn several_addresses_from_repeated_flags_and_commas_in_order() {
    let c = addresses_of(&[
        "ping",
        "--url",
        "amqp://u:p@n1/v,amqp://u:p@n2/v",
        "--url",
        "amqp://u:p@n3/v",
    ])
    .unwrap();
    let hosts: Vec<&str> = c.addresses.iter().map(|a| a.host.as_str()).collect();
    assert_eq!(hosts, ["n1", "n2", "n3"]);
    assert_eq!(c.amqp.host, "n1");
    assert!(c.api_addresses.is_empty() && c.api.derived);
    let c = addresses_of(&[
        "ping",
        "--url",
        "amqp://u:p@n1/v",
        "--api-url",
        "http://m1:15672,http://m2:15672",
    ])
    .unwrap();
    assert_eq!(c.api_addresses.len(), 2);
    assert_eq!(c.api.display(), "http://m1:15672");
}

#[test]
fn the_addresses_of_a_list_are_one_user_in_one_vhost() {
    for (list, what) in [
        ("amqp://u:p@n1/v,amqp://u:p@n2/w", "two vhosts"),
        ("amqp://u:p@n1/v,amqp://bob:p@n2/v", "two users"),
    ] {
        let err = addresses_of(&["ping", "--url", list]).unwrap_err();
        assert_eq!(err.kind, crate::error::Kind::Settings);
        assert!(err.message.contains(what), "{err}");
    }
}

#[test]
fn the_topology_file_lists_addresses_as_a_list_or_a_comma_string_under_the_flags() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("queuey.toml");
    let config = path.to_str().unwrap();
    for text in [
        "[connection]\nurl = [\"amqp://u:p@n1/v\", \"amqp://u:p@n2/v\"]\napi_url = \"http://m1:15672,http://m2:15672\"\n",
        "[connection]\nurl = \"amqp://u:p@n1/v, amqp://u:p@n2/v\"\napi_url = [\"http://m1:15672\", \"http://m2:15672\"]\n",
    ] {
        std::fs::write(&path, text).unwrap();
        let c = addresses_of(&["ping", "--config", config]).unwrap();
        let hosts: Vec<&str> = c.addresses.iter().map(|a| a.host.as_str()).collect();
        assert_eq!(hosts, ["n1", "n2"], "{text}");
        assert_eq!(c.api_addresses.len(), 2, "{text}");
        let c = addresses_of(&["ping", "--config", config, "--url", "amqp://u:p@n9/v"]).unwrap();
        assert_eq!(c.addresses.len(), 1, "the flag comes first");
        assert_eq!(c.addresses[0].host, "n9");
    }
}

/// With no flag and no topology file a queue is the library's default one: the core's tests
/// build it so (`QueueSettings::library_default` in the core's tests), without the CLI.
#[test]
fn no_flag_and_no_file_is_the_librarys_default_queue() {
    let q = resolve_queue("orders", &crate::cli::QueueSettingsArgs::default(), None).unwrap();
    assert_eq!(
        q,
        crate::queue::QueueSettings {
            name: "orders".to_owned(),
            config: crate::topology::QueueConfig::default(),
            options: crate::topology::RabbitMqOptions::default(),
            unlisted: None,
            siblings: Default::default(),
        }
    );
}
