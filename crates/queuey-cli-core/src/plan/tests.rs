use serde_json::Value;

use super::*;
use crate::topology::RabbitMqOptions;
use serde_json::json;

/// A queue without priorities (`--max-priority 0`): the diffs below are about one argument
/// at a time.
fn settings(name: &str) -> QueueSettings {
    let mut q = QueueSettings::library_default(name);
    q.config.max_priority = None;
    q
}

#[test]
fn the_default_work_queue_is_the_librarys_ten_level_priority_queue() {
    let q = QueueSettings::library_default("orders");
    let [work, dead] = long_lived_queues(&q, QueueType::Classic);
    let plan = diff_queue(&work, Some(&live(json!({"x-max-priority": 10}))));
    assert_eq!(plan.status, Status::InSync);
    let plan = diff_queue(&work, Some(&live(json!({}))));
    assert_eq!(
        fields(&plan.differences),
        [("x-max-priority", DiffKind::Missing)]
    );
    assert_eq!(
        diff_queue(&dead, Some(&live(json!({})))).status,
        Status::InSync
    );
}

fn with_ttl(name: &str, ttl_ms: u64) -> QueueSettings {
    let mut q = settings(name);
    q.config.message_ttl = Some(std::time::Duration::from_millis(ttl_ms));
    q
}

fn quorum(name: &str) -> QueueSettings {
    let mut q = settings(name);
    q.config.queue_type = QueueType::Quorum;
    q.config.delivery_limit = Some(5);
    q
}

fn live(args: Value) -> LiveDefinition {
    LiveDefinition {
        arguments: args.as_object().cloned().unwrap_or_default(),
        durable: Some(true),
        auto_delete: Some(false),
        exclusive: Some(false),
        queue_type: Some("classic".into()),
        policy: None,
        operator_policy: None,
        effective_policy_definition: Some(json!({})),
        applied_policies: Vec::new(),
    }
}

/// Every remedy's words and command, one per line.
fn joined(remedies: &[Remedy]) -> String {
    remedies
        .iter()
        .flat_map(|r| std::iter::once(r.text.clone()).chain(r.command.clone()))
        .collect::<Vec<_>>()
        .join("\n")
}

/// Each difference's field and kind, in order (of a queue's plan or a hold queue's).
fn fields(differences: &[Difference]) -> Vec<(&str, DiffKind)> {
    differences
        .iter()
        .map(|d| (d.field.as_str(), d.kind))
        .collect()
}

#[test]
fn missing_queue_is_create() {
    let [work, _] = long_lived_queues(&settings("orders"), QueueType::Classic);
    let plan = diff_queue(&work, None);
    assert_eq!(plan.status, Status::Create);
    assert!(plan.differences.is_empty());
}

#[test]
fn same_definition_is_in_sync_whatever_the_number_spelling() {
    let [work, dead] = long_lived_queues(&with_ttl("orders", 5000), QueueType::Classic);
    for ttl in [json!(5000), json!(5000u64), json!(5000.0)] {
        let plan = diff_queue(&work, Some(&live(json!({"x-message-ttl": ttl}))));
        assert_eq!(plan.status, Status::InSync, "{ttl}");
    }
    assert_eq!(
        diff_queue(&dead, Some(&live(json!({})))).status,
        Status::InSync
    );
}

#[test]
fn explicit_classic_type_is_no_type() {
    let [work, _] = long_lived_queues(&settings("orders"), QueueType::Classic);
    let mut l = live(json!({"x-queue-type": "classic"}));
    assert_eq!(diff_queue(&work, Some(&l)).status, Status::InSync);
    l.queue_type = None;
    assert_eq!(diff_queue(&work, Some(&l)).status, Status::InSync);
}

#[test]
fn a_different_or_missing_value_is_drift() {
    let [work, _] = long_lived_queues(&with_ttl("orders", 6000), QueueType::Classic);
    let plan = diff_queue(&work, Some(&live(json!({"x-message-ttl": 5000}))));
    assert_eq!(plan.status, Status::Drift);
    assert_eq!(
        plan.differences,
        vec![Difference {
            field: "x-message-ttl".into(),
            kind: DiffKind::Different,
            live: Some(json!(5000)),
            computed: Some(json!(6000)),
            effect: None,
            policies: Vec::new(),
        }]
    );
    let plan = diff_queue(&work, Some(&live(json!({}))));
    assert_eq!(
        fields(&plan.differences),
        [("x-message-ttl", DiffKind::Missing)]
    );
    // A string is not the integer, whatever it reads (the broker refuses that redeclare).
    let plan = diff_queue(&work, Some(&live(json!({"x-message-ttl": "6000"}))));
    assert_eq!(
        fields(&plan.differences),
        [("x-message-ttl", DiffKind::Different)]
    );
}

#[test]
fn extra_arguments_the_broker_enforces_are_drift_the_others_are_shown() {
    let [work, dead] = long_lived_queues(&settings("orders"), QueueType::Classic);
    let plan = diff_queue(
        &work,
        Some(&live(json!({
            "x-max-length": 10,
            "x-overflow": "reject-publish",
            "x-max-priority": 3,
            "x-research-foo": 1,
            "x-delivery-limit": 3,
        }))),
    );
    assert_eq!(
        fields(&plan.differences),
        [
            ("x-max-length", DiffKind::Extra),
            ("x-max-priority", DiffKind::Extra),
            ("x-overflow", DiffKind::Extra),
        ]
    );
    // x-delivery-limit means nothing to a classic queue (3.10 refuses it on creation; a
    // queue carrying it was made elsewhere): ignored, like unknown arguments.
    assert_eq!(
        plan.ignored_arguments,
        json!({"x-research-foo": 1, "x-delivery-limit": 3})
            .as_object()
            .cloned()
            .unwrap()
    );
    // q.dead must never dead-letter anywhere .
    let plan = diff_queue(
        &dead,
        Some(&live(
            json!({"x-dead-letter-exchange": "", "x-dead-letter-routing-key": "orders"}),
        )),
    );
    assert_eq!(
        fields(&plan.differences),
        [
            ("x-dead-letter-exchange", DiffKind::Extra),
            ("x-dead-letter-routing-key", DiffKind::Extra),
        ]
    );
}

#[test]
fn flags_and_type_are_compared() {
    let [work, _] = long_lived_queues(&settings("orders"), QueueType::Classic);
    let mut l = live(json!({}));
    l.durable = Some(false);
    l.auto_delete = Some(true);
    l.exclusive = Some(true);
    let plan = diff_queue(&work, Some(&l));
    assert_eq!(
        fields(&plan.differences),
        [
            ("durable", DiffKind::Different),
            ("auto_delete", DiffKind::Different),
            ("exclusive", DiffKind::Different),
        ]
    );
    let l = LiveDefinition {
        queue_type: Some("quorum".into()),
        ..live(json!({"x-queue-type": "quorum"}))
    };
    let plan = diff_queue(&work, Some(&l));
    assert_eq!(fields(&plan.differences), [("type", DiffKind::Different)]);
    assert_eq!(plan.differences[0].live, Some(json!("quorum")));
    assert_eq!(plan.differences[0].computed, Some(json!("classic")));
}

#[test]
fn quorum_queue_in_sync_and_its_extras() {
    let [work, _] = long_lived_queues(&quorum("jobs"), QueueType::Classic);
    let args = json!({
        "x-queue-type": "quorum",
        "x-delivery-limit": 5,
        "x-dead-letter-exchange": "",
        "x-dead-letter-routing-key": "jobs.dead",
    });
    let l = LiveDefinition {
        queue_type: Some("quorum".into()),
        ..live(args.clone())
    };
    assert_eq!(diff_queue(&work, Some(&l)).status, Status::InSync);
    let mut with_extra = l.clone();
    with_extra
        .arguments
        .insert("x-max-in-memory-length".into(), json!(10));
    with_extra
        .arguments
        .insert("x-queue-mode".into(), json!("lazy"));
    let plan = diff_queue(&work, Some(&with_extra));
    assert_eq!(
        fields(&plan.differences),
        [("x-max-in-memory-length", DiffKind::Extra)]
    );
    assert!(plan.ignored_arguments.contains_key("x-queue-mode"));
}

#[test]
fn a_policy_is_information_not_drift() {
    let [work, _] = long_lived_queues(&settings("orders"), QueueType::Classic);
    let l = LiveDefinition {
        policy: Some("ttl-all".into()),
        effective_policy_definition: Some(json!({"message-ttl": 1000})),
        ..live(json!({}))
    };
    let plan = diff_queue(&work, Some(&l));
    assert_eq!(plan.status, Status::InSync);
    assert_eq!(plan.policy.as_deref(), Some("ttl-all"));
    assert_eq!(
        plan.effective_policy_definition,
        Some(json!({"message-ttl": 1000}))
    );
    // No policy: `{}` (3.10) and `[]` (an empty Erlang list) are none.
    for empty in [json!({}), json!([]), Value::Null] {
        let l = LiveDefinition {
            policy: Some(String::new()),
            effective_policy_definition: Some(empty),
            ..live(json!({}))
        };
        let plan = diff_queue(&work, Some(&l));
        assert_eq!(
            (plan.policy, plan.effective_policy_definition),
            (None, None)
        );
    }
}

fn value(text: &str) -> ReplyValue {
    ReplyValue::Value {
        text: text.into(),
        type_name: None,
    }
}

fn typed(text: &str, t: &str) -> ReplyValue {
    ReplyValue::Value {
        text: text.into(),
        type_name: Some(t.into()),
    }
}

#[test]
fn parses_the_three_inequivalent_forms() {
    let parse = |t: &str| parse_inequivalent(t, "q", "/").unwrap();
    let p = parse(
        "PRECONDITION_FAILED - inequivalent arg 'x-message-ttl' for queue 'q' in vhost '/': \
         received '6000' but current is '5000'",
    );
    assert_eq!(p.argument, "x-message-ttl");
    assert_eq!((p.received, p.current), (value("6000"), value("5000")));
    let p = parse(
        "PRECONDITION_FAILED - inequivalent arg 'x-message-ttl' for queue 'q' in vhost '/': \
         received none but current is the value '5000' of type 'long'",
    );
    assert_eq!(
        (p.received, p.current),
        (ReplyValue::Absent, typed("5000", "long"))
    );
    let p = parse(
        "PRECONDITION_FAILED - inequivalent arg 'x-dead-letter-exchange' for queue 'q' in \
         vhost '/': received the value 'foo' of type 'longstr' but current is none",
    );
    assert_eq!(
        (p.received, p.current),
        (typed("foo", "longstr"), ReplyValue::Absent)
    );
    let p = parse(
        "PRECONDITION_FAILED - inequivalent arg 'durable' for queue 'q' in vhost '/': \
         received 'false' but current is 'true'",
    );
    assert_eq!(p.argument, "durable");
    assert_eq!(p.current, value("true"));
    assert_eq!(
        parse_inequivalent("NOT_FOUND - no queue 'q' in vhost '/'", "q", "/"),
        None
    );
}

#[test]
fn names_and_values_with_quotes_do_not_confuse_the_parser() {
    let queue = "it's: received 'x' but current is 'y'";
    let text = format!(
        "PRECONDITION_FAILED - inequivalent arg 'x-dead-letter-routing-key' for queue \
         '{queue}' in vhost 'v\\'s': received 'a' but current is 'b' but current is 'c'"
    );
    let p = parse_inequivalent(&text, queue, "v\\'s").unwrap();
    assert_eq!(p.received, value("a"));
    assert_eq!(p.current, value("b' but current is 'c"));
}

#[test]
fn a_reply_cut_at_255_bytes_keeps_what_it_can() {
    let long = "é".repeat(110);
    let full = format!(
        "PRECONDITION_FAILED - inequivalent arg 'x-message-ttl' for queue '{long}' in \
         vhost '/': received '6000' but current is '5000'"
    );
    let mut cut = full.clone();
    let mut at = 252;
    while !cut.is_char_boundary(at) {
        at -= 1;
    }
    cut.truncate(at);
    cut.push_str("...");
    let p = parse_inequivalent(&cut, &long, "/").unwrap();
    assert_eq!(p.argument, "x-message-ttl");
    assert_eq!((p.received, p.current), (ReplyValue::Cut, ReplyValue::Cut));
    // Cut inside the current value.
    let cut = "PRECONDITION_FAILED - inequivalent arg 'x-message-ttl' for queue 'q' in vhost \
               '/': received '6000' but current is '50...";
    let p = parse_inequivalent(cut, "q", "/").unwrap();
    assert_eq!((p.received, p.current), (value("6000"), ReplyValue::Cut));
    // Cut inside the argument name itself.
    let p = parse_inequivalent(
        "PRECONDITION_FAILED - inequivalent arg 'x-mess...",
        "q",
        "/",
    )
    .unwrap();
    assert_eq!(p.argument, "x-mess");
}

#[test]
fn probe_outcomes_become_plans() {
    let [work, _] = long_lived_queues(&with_ttl("orders", 6000), QueueType::Classic);
    let p = plan_from_probe(&work, &ProbeOutcome::Missing, "/");
    assert_eq!(p.status, Status::Create);
    let p = plan_from_probe(&work, &ProbeOutcome::Equivalent, "/");
    assert_eq!((p.status, p.source), (Status::InSync, Source::AmqpProbe));
    let text = "PRECONDITION_FAILED - inequivalent arg 'x-message-ttl' for queue 'orders' in \
                vhost '/': received '6000' but current is '5000'";
    let p = plan_from_probe(&work, &ProbeOutcome::Inequivalent(text.into()), "/");
    assert!(p.first_difference_only);
    assert_eq!(
        p.differences,
        vec![Difference {
            field: "x-message-ttl".into(),
            kind: DiffKind::Different,
            live: Some(json!(5000)),
            computed: Some(json!(6000)),
            effect: None,
            policies: Vec::new(),
        }]
    );
    let text = "PRECONDITION_FAILED - inequivalent arg 'x-queue-type' for queue 'orders' in \
                vhost '/': received none but current is the value 'quorum' of type 'longstr'";
    let p = plan_from_probe(&work, &ProbeOutcome::Inequivalent(text.into()), "/");
    assert_eq!(
        (p.differences[0].field.as_str(), &p.differences[0].live),
        ("type", &Some(json!("quorum")))
    );
    let text = "PRECONDITION_FAILED - inequivalent arg 'x-max-priority' for queue 'orders' \
                in vhost '/': received none but current is the value '5' of type 'signedint'";
    let p = plan_from_probe(&work, &ProbeOutcome::Inequivalent(text.into()), "/");
    assert_eq!(p.differences[0].kind, DiffKind::Extra);
    assert_eq!(p.differences[0].live, Some(json!(5)));
    let p = plan_from_probe(&work, &ProbeOutcome::Locked("RESOURCE_LOCKED".into()), "/");
    assert_eq!(fields(&p.differences), [("exclusive", DiffKind::Different)]);
}

#[test]
fn hold_queues_are_checked_against_their_own_name() {
    let q = settings("orders");
    let good = |ttl: u32| {
        live(Value::Object(args_json(&topology::deferred_queue_args(
            "orders", ttl,
        ))))
    };
    let p = check_hold_queue(
        &q,
        "orders.deferred.1000",
        &good(1000),
        Some(0),
        QueueType::Classic,
    )
    .unwrap();
    assert_eq!((p.status, p.ttl_ms), (Status::InSync, Some(1000)));
    // Arguments of another TTL.
    let p = check_hold_queue(
        &q,
        "orders.deferred.1000",
        &good(2000),
        Some(0),
        QueueType::Classic,
    )
    .unwrap();
    assert_eq!(p.status, Status::Drift);
    assert_eq!(
        fields(&p.differences),
        [
            ("x-expires", DiffKind::Different),
            ("x-message-ttl", DiffKind::Different)
        ]
    );
    // A consumer eats the delays.
    let p = check_hold_queue(
        &q,
        "orders.deferred.1000",
        &good(1000),
        Some(2),
        QueueType::Classic,
    )
    .unwrap();
    assert_eq!(p.status, Status::Drift);
    assert!(p.problems[0].contains("2 consumers"), "{:?}", p.problems);
    // Unknown consumers (stats not reported yet) are not drift.
    let p = check_hold_queue(
        &q,
        "orders.deferred.1000",
        &good(1000),
        None,
        QueueType::Classic,
    )
    .unwrap();
    assert_eq!(p.status, Status::InSync);
    // The infix without a TTL.
    let p = check_hold_queue(
        &q,
        "orders.deferred.abc",
        &live(json!({})),
        Some(0),
        QueueType::Classic,
    )
    .unwrap();
    assert_eq!((p.status, p.ttl_ms), (Status::Drift, None));
    assert!(p.problems[0].contains("bad name"), "{:?}", p.problems);
    // Not hold queues of "orders" at all.
    for other in [
        "orders2.deferred.1000",
        "ORDERS.deferred.1000",
        "orders.dead",
        "orders",
    ] {
        assert!(
            check_hold_queue(&q, other, &good(1000), Some(0), QueueType::Classic).is_none(),
            "{other}"
        );
    }
}

#[test]
fn a_queue_the_topology_lists_is_never_checked_as_a_hold_queue() {
    let mut q = settings("orders");
    let work = live(json!({"x-max-priority": 10}));
    for (name, args) in [
        ("orders.deferred.5000", &work),
        ("orders.deferred.dead", &work),
    ] {
        assert!(check_hold_queue(&q, name, args, Some(0), QueueType::Classic).is_some());
    }
    q.siblings = std::sync::Arc::new(
        ["orders", "orders.deferred", "orders.deferred.5000"]
            .into_iter()
            .map(|n| crate::queue::Sibling {
                name: n.to_owned(),
                options: RabbitMqOptions::default(),
            })
            .collect(),
    );
    for name in [
        "orders.deferred.5000",
        "orders.deferred.dead",
        "orders.deferred.5000.dead",
        "orders.deferred.deferred.1000",
        "orders.deferred.5000.deferred.1000",
    ] {
        assert!(
            check_hold_queue(&q, name, &work, Some(0), QueueType::Classic).is_none(),
            "{name}"
        );
    }
    let own = live(Value::Object(args_json(&topology::deferred_queue_args(
        "orders", 1000,
    ))));
    let p = check_hold_queue(
        &q,
        "orders.deferred.1000",
        &own,
        Some(0),
        QueueType::Classic,
    );
    assert_eq!(p.map(|p| p.status), Some(Status::InSync));
}

#[test]
fn a_hold_queue_is_known_by_its_ttl_and_its_way_back() {
    let own = |ttl: u32| Value::Object(args_json(&topology::deferred_queue_args("orders", ttl)));
    assert_eq!(missing_hold_marks("orders", &live(own(1000))), None);
    // Drifted, yet a hold queue of orders: another TTL, no x-expires.
    let mut drifted = own(2000);
    drifted.as_object_mut().unwrap().remove("x-expires");
    assert_eq!(missing_hold_marks("orders", &live(drifted)), None);
    let why = missing_hold_marks("orders", &live(json!({"x-max-priority": 10}))).unwrap();
    assert!(
        why.starts_with("not certainly a hold queue of \"orders\""),
        "{why}"
    );
    assert!(
        why.ends_with(
            "this one has no x-message-ttl, no x-dead-letter-exchange, no \
             x-dead-letter-routing-key"
        ),
        "{why}"
    );
    // Another queue's hold queue, or a TTL given as a string.
    let why = missing_hold_marks(
        "orders",
        &live(own(1000).tap_key("x-dead-letter-routing-key", json!("other"))),
    );
    assert!(why.is_some_and(|w| w.ends_with("has x-dead-letter-routing-key \"other\"")));
    let why = missing_hold_marks(
        "orders",
        &live(own(1000).tap_key("x-message-ttl", json!("1000"))),
    );
    assert!(why.is_some_and(|w| w.contains("x-message-ttl \"1000\"")));
    let why = missing_hold_marks(
        "orders",
        &live(own(1000).tap_key("x-dead-letter-exchange", json!("dlx"))),
    );
    assert!(why.is_some_and(|w| w.contains("x-dead-letter-exchange \"dlx\"")));
}

trait TapKey {
    fn tap_key(self, key: &str, value: Value) -> Value;
}

impl TapKey for Value {
    fn tap_key(mut self, key: &str, value: Value) -> Value {
        if let Some(map) = self.as_object_mut() {
            map.insert(key.to_owned(), value);
        }
        self
    }
}

#[test]
fn a_queue_exclusive_to_another_connection_gets_its_own_remedy() {
    let [work, dead] = long_lived_queues(&settings("orders"), QueueType::Classic);
    let locked = plan_from_probe(&work, &ProbeOutcome::Locked("RESOURCE_LOCKED".into()), "/");
    let all = joined(&remedies(&[&locked], "/", &settings("orders")));
    assert!(
        all.contains("\"orders\" is exclusive to another client's connection"),
        "{all}"
    );
    assert!(all.contains("owner_pid"), "{all}");
    assert!(
        !all.contains("delete_queue"),
        "deleting is not the fix: {all}"
    );
    // Through the API too, and beside another queue's ordinary drift.
    let mut l = live(json!({}));
    l.exclusive = Some(true);
    let locked = diff_queue(&work, Some(&l));
    let other = diff_queue(&dead, Some(&live(json!({"x-message-ttl": 5}))));
    let all = joined(&remedies(&[&locked, &other], "/", &settings("orders")));
    assert!(all.contains("\"orders\" is exclusive"), "{all}");
    assert!(
        all.contains("recreate \"orders.dead\" keeping its dead letters"),
        "{all}"
    );
    assert!(
        all.contains(
            "queuey dead purge orders --yes --archive orders.dead.jsonl && rabbitmqctl \
             delete_queue --if-empty orders.dead && queuey declare orders && queuey dead replay \
             orders --from-file orders.dead.jsonl --to orders.dead"
        ),
        "{all}"
    );
    assert!(
        !all.contains("change the settings"),
        "no setting covers q.dead: {all}"
    );
}

#[test]
fn remedies_name_the_policy_and_the_cost_of_deleting() {
    let [work, dead] = long_lived_queues(&with_ttl("orders.eu", 6000), QueueType::Classic);
    let p = diff_queue(&work, Some(&live(json!({"x-message-ttl": 5000}))));
    let d = diff_queue(&dead, Some(&live(json!({}))));
    let all = joined(&remedies(&[&p, &d], "/", &settings("orders.eu")));
    // 6000 above the live 5000: the lower wins, so a policy cannot raise it.
    assert!(!all.contains("set_policy"), "{all}");
    assert!(all.contains("the lower value wins"), "{all}");
    assert!(all.contains("loses every message"), "{all}");
    assert!(!all.contains("classic and quorum"), "{all}");
    assert!(remedies(&[&d], "/", &settings("orders.eu")).is_empty());
    // 4000 below the live 5000, and a missing max priority (not policy-able).
    let [work, _] = long_lived_queues(&with_ttl("orders.eu", 4000), QueueType::Classic);
    let p = diff_queue(&work, Some(&live(json!({"x-message-ttl": 5000}))));
    let all = joined(&remedies(&[&p], "/", &settings("orders.eu")));
    assert!(
        all.contains(r#"rabbitmqctl set_policy --apply-to queues queuey-orders.eu '^orders\.eu$' '{"message-ttl": 4000}'"#),
        "{all}"
    );
    // The queue's own dead-letter argument wins over a policy.
    let [_, dead] = long_lived_queues(&settings("x"), QueueType::Classic);
    let p = diff_queue(&dead, Some(&live(json!({"x-dead-letter-exchange": "dlx"}))));
    let all = joined(&remedies(&[&p], "/", &settings("x")));
    assert!(all.contains("cannot remove an argument"), "{all}");
    let l = LiveDefinition {
        queue_type: Some("quorum".into()),
        ..live(json!({"x-message-ttl": 4000}))
    };
    let all = joined(&remedies(
        &[&diff_queue(&work, Some(&l))],
        "/",
        &settings("orders.eu"),
    ));
    assert!(all.contains("classic and quorum"), "{all}");
    assert!(!all.contains("set_policy"), "{all}");
}

fn policied(definition: Value, policy: Option<&str>, operator: Option<&str>) -> LiveDefinition {
    LiveDefinition {
        policy: policy.map(str::to_owned),
        operator_policy: operator.map(str::to_owned),
        effective_policy_definition: Some(definition),
        ..live(json!({}))
    }
}

#[test]
fn a_dead_letter_queue_that_loses_its_letters_is_drift_named_with_what_it_does() {
    let [work, dead] = long_lived_queues(&settings("orders"), QueueType::Classic);
    // The issue's case: a TTL that sends every dead letter back to q after a minute.
    let l = policied(
        json!({"message-ttl": 60000, "dead-letter-exchange": "", "dead-letter-routing-key": "orders"}),
        Some("dlx-all"),
        None,
    );
    let plan = diff_queue(&dead, Some(&l));
    assert_eq!(plan.status, Status::Drift);
    assert_eq!(
        fields(&plan.differences),
        [
            ("message-ttl", DiffKind::Policy),
            ("dead-letter-exchange", DiffKind::Policy)
        ]
    );
    let ttl = &plan.differences[0];
    assert_eq!(ttl.live, Some(json!(60000)));
    assert_eq!(
        ttl.policies,
        [PolicyRef {
            name: "dlx-all".into(),
            operator: false
        }]
    );
    let effect = ttl.effect.as_deref().unwrap();
    assert!(effect.contains("expires 1m"), "{effect}");
    assert!(effect.contains("sent back to \"orders\""), "{effect}");
    assert!(effect.contains("round and round"), "{effect}");
    // Without an exchange, the same TTL drops them.
    let l = policied(json!({"message-ttl": 60000}), None, Some("op"));
    let plan = diff_queue(&dead, Some(&l));
    let d = &plan.differences[0];
    assert!(d.effect.as_deref().unwrap().contains("dropped"), "{d:?}");
    assert!(d.policies[0].operator);
    // Each key, and what it does.
    for (definition, says) in [
        (json!({"expires": 3_600_000}), "itself is deleted"),
        (json!({"max-length": 10}), "the oldest dead letters"),
        (json!({"max-length-bytes": 10}), "10 bytes"),
        (
            json!({"max-length": 10, "overflow": "reject-publish"}),
            "new dead letters are refused",
        ),
        (
            json!({"dead-letter-exchange": "elsewhere"}),
            "exchange \"elsewhere\"",
        ),
    ] {
        let plan = diff_queue(&dead, Some(&policied(definition.clone(), Some("p"), None)));
        assert_eq!(plan.status, Status::Drift, "{definition}");
        let effects: Vec<&str> = plan
            .differences
            .iter()
            .filter_map(|d| d.effect.as_deref())
            .collect();
        assert!(
            effects.iter().any(|e| e.contains(says)),
            "{definition}: {effects:?}"
        );
    }
    // A delivery limit costs letters on a quorum queue only.
    let classic = policied(json!({"delivery-limit": 3}), Some("p"), None);
    assert_eq!(diff_queue(&dead, Some(&classic)).status, Status::InSync);
    let quorum = LiveDefinition {
        queue_type: Some("quorum".into()),
        ..policied(json!({"delivery-limit": 3}), Some("p"), None)
    };
    let plan = diff_queue(&dead, Some(&quorum));
    assert!(
        plan.differences
            .iter()
            .any(|d| d.field == "delivery-limit" && d.kind == DiffKind::Policy),
        "{plan:?}"
    );
    // Harmless keys stay information, and the work queue's policies are never drift.
    let lazy = policied(json!({"queue-mode": "lazy"}), Some("p"), None);
    assert_eq!(diff_queue(&dead, Some(&lazy)).status, Status::InSync);
    let ttl = policied(json!({"message-ttl": 1000}), Some("p"), None);
    assert_eq!(diff_queue(&work, Some(&ttl)).status, Status::InSync);
}

#[test]
fn arguments_declared_on_the_dead_letter_queue_say_what_they_do() {
    let [_, dead] = long_lived_queues(&settings("orders"), QueueType::Classic);
    let plan = diff_queue(
        &dead,
        Some(&live(json!({
            "x-message-ttl": 5000,
            "x-dead-letter-exchange": "",
            "x-dead-letter-routing-key": "orders",
            "x-max-length": 7,
        }))),
    );
    for d in &plan.differences {
        assert_eq!(d.kind, DiffKind::Extra);
        let effect = d.effect.as_deref().unwrap_or_default();
        assert!(effect.contains("sent back to \"orders\""), "{d:?}");
    }
}

#[test]
fn the_policy_remedy_names_the_policy_that_sets_each_key() {
    let [_, dead] = long_lived_queues(&settings("orders"), QueueType::Classic);
    let mut l = policied(
        json!({"message-ttl": 1000, "max-length": 5}),
        Some("mine"),
        Some("theirs"),
    );
    l.applied_policies = vec![
        AppliedPolicy {
            name: "mine".into(),
            operator: false,
            pattern: Some("^orders\\.dead$".into()),
            definition: json!({"message-ttl": 1000}).as_object().cloned(),
        },
        AppliedPolicy {
            name: "theirs".into(),
            operator: true,
            pattern: None,
            definition: json!({"max-length": 5}).as_object().cloned(),
        },
    ];
    let plan = diff_queue(&dead, Some(&l));
    assert_eq!(plan.differences[0].policies[0].name, "mine");
    assert_eq!(plan.differences[1].policies[0].name, "theirs");
    let r = remedies(&[&plan], "prod", &settings("orders"));
    let commands: Vec<&str> = r.iter().filter_map(|r| r.command.as_deref()).collect();
    assert_eq!(
        commands,
        [
            "rabbitmqctl clear_policy -p prod mine",
            "rabbitmqctl clear_operator_policy -p prod theirs"
        ]
    );
    assert!(
        r[0].text.contains("pattern '^orders\\.dead$'"),
        "{}",
        r[0].text
    );
    assert!(
        !joined(&r).contains("delete_queue"),
        "deleting the queue does not remove a policy"
    );
}

#[test]
fn remedies_show_only_visible_characters_whatever_the_name() {
    let q = settings("a'b \u{1b}[31m\u{202e}c");
    let [work, dead] = long_lived_queues(&q, QueueType::Classic);
    let p = diff_queue(&work, Some(&live(json!({"x-max-priority": 5}))));
    let d = diff_queue(
        &dead,
        Some(&policied(json!({"expires": 5}), Some("p\u{1b}"), None)),
    );
    let all = joined(&remedies(&[&p, &d], "v\u{202e}", &q));
    assert!(
        all.chars()
            .all(|c| c == '\n' || crate::sanitize::is_visible(c)),
        "{all:?}"
    );
}

/// A live definition of `queue_type` as RabbitMQ 4.x's API shows it: `x-queue-type` among the
/// arguments, even where the queue was declared without it.
fn live_4x(queue_type: &str, args: Value) -> LiveDefinition {
    let mut l = live(args);
    l.arguments
        .insert(topology::ARG_QUEUE_TYPE.to_owned(), json!(queue_type));
    l.queue_type = Some(queue_type.to_owned());
    l
}

#[test]
fn the_x_queue_type_that_4x_lists_is_the_type_never_drift() {
    let [work, dead] = long_lived_queues(&settings("orders"), QueueType::Classic);
    for computed in [&work, &dead] {
        let plan = diff_queue(computed, Some(&live_4x("classic", json!({}))));
        assert_eq!(plan.status, Status::InSync, "{:?}", plan.differences);
        assert!(plan.ignored_arguments.is_empty());
    }
}

/// In a vhost whose default queue type is quorum, a queue declared without `x-queue-type` is
/// quorum: `q.dead`, the hold queues and a classic `q` are computed so, and in sync as quorum
/// queues. The one real problem is named: `q`'s `x-max-priority`, which a quorum queue refuses.
#[test]
fn in_a_quorum_default_vhost_the_queues_are_quorum_and_priorities_are_refused() {
    let library = QueueSettings::library_default("orders");
    let [work, dead] = long_lived_queues(&library, QueueType::Quorum);
    assert_eq!(
        (work.queue_type, dead.queue_type),
        (QueueType::Quorum, QueueType::Quorum)
    );
    // Nothing says x-queue-type: the broker decides, as for the application's declarations.
    assert!(!work.arguments.contains_key(topology::ARG_QUEUE_TYPE));
    assert!(!dead.arguments.contains_key(topology::ARG_QUEUE_TYPE));
    assert_eq!(
        diff_queue(&dead, Some(&live_4x("quorum", json!({})))).status,
        Status::InSync
    );
    // A classic q.dead there is drift: the application's declaration would be refused.
    let plan = diff_queue(&dead, Some(&live_4x("classic", json!({}))));
    assert_eq!(fields(&plan.differences), [("type", DiffKind::Different)]);

    // q with the library's default priorities: refused, created or not.
    let plan = diff_queue(&work, None);
    assert_eq!(plan.status, Status::Refused);
    assert_eq!(
        fields(&plan.differences),
        [("x-max-priority", DiffKind::Refused)]
    );
    assert_eq!(plan.differences[0].computed, Some(json!(10)));
    let effect = plan.differences[0].effect.clone().unwrap();
    assert!(
        effect.contains("default queue type, quorum") && effect.contains("refuses x-max-priority"),
        "{effect}"
    );
    let plan = diff_queue(&work, Some(&live_4x("quorum", json!({}))));
    assert_eq!(plan.status, Status::Refused);
    assert_eq!(
        fields(&plan.differences),
        [("x-max-priority", DiffKind::Refused)]
    );
    // A classic q made before: its type differs too, and the refusal is still the news.
    let plan = diff_queue(
        &work,
        Some(&live_4x("classic", json!({"x-max-priority": 10}))),
    );
    assert_eq!(plan.status, Status::Refused);
    assert_eq!(
        fields(&plan.differences),
        [
            ("type", DiffKind::Different),
            ("x-max-priority", DiffKind::Refused)
        ]
    );
    // The way out: priorities off, never a queue deleted.
    let remedies = remedies(
        &[&plan, &diff_queue(&dead, None)],
        "qv",
        &settings("orders"),
    );
    let text = joined(&remedies);
    assert_eq!(remedies.len(), 1, "{text}");
    assert!(
        text.contains("max_priority(0)") && text.contains("--max-priority 0"),
        "{text}"
    );
    assert!(!text.contains("delete"), "{text}");

    // With priorities off, q is a quorum queue like any other there, and in sync.
    let [work, _] = long_lived_queues(&settings("orders"), QueueType::Quorum);
    assert_eq!(diff_queue(&work, None).status, Status::Create);
    assert_eq!(
        diff_queue(&work, Some(&live_4x("quorum", json!({})))).status,
        Status::InSync
    );
    // queuey's own quorum q says so itself, whatever the vhost.
    let [work, _] = long_lived_queues(&quorum("jobs"), QueueType::Classic);
    assert_eq!(work.queue_type, QueueType::Quorum);
}

#[test]
fn hold_queues_are_of_the_vhosts_default_type() {
    let q = settings("orders");
    let args = Value::Object(args_json(&topology::deferred_queue_args("orders", 1000)));
    let quorum_hold = live_4x("quorum", args.clone());
    let p = check_hold_queue(
        &q,
        "orders.deferred.1000",
        &quorum_hold,
        Some(0),
        QueueType::Quorum,
    )
    .unwrap();
    assert_eq!(p.status, Status::InSync, "{:?}", p.differences);
    assert_eq!(p.queue_type, "quorum");
    let p = check_hold_queue(
        &q,
        "orders.deferred.1000",
        &quorum_hold,
        Some(0),
        QueueType::Classic,
    )
    .unwrap();
    assert_eq!(fields(&p.differences), [("type", DiffKind::Different)]);
    let classic_hold = live_4x("classic", args);
    let p = check_hold_queue(
        &q,
        "orders.deferred.1000",
        &classic_hold,
        Some(0),
        QueueType::Classic,
    )
    .unwrap();
    assert_eq!(p.status, Status::InSync);
}

/// The broker's refusal of an argument for the queue's type, as 3.10.8 and 4.3.6 word it: read
/// by the AMQP fallback (where the vhost's default type is not known before the declare).
#[test]
fn an_invalid_arg_reply_is_a_refusal() {
    let text = "PRECONDITION_FAILED - invalid arg 'x-max-priority' for queue 'orders' in vhost \
                'qv' of queue type rabbit_quorum_queue";
    assert_eq!(
        parse_invalid_arg(text),
        Some(("x-max-priority".to_owned(), Some("quorum".to_owned())))
    );
    // Cut before the type (a long queue name): the argument is still known.
    assert_eq!(
        parse_invalid_arg("PRECONDITION_FAILED - invalid arg 'x-max-priority' for queue 'ord..."),
        Some(("x-max-priority".to_owned(), None))
    );
    // The configure check's refusal is about a value, not the queue's type.
    assert_eq!(
        parse_invalid_arg("PRECONDITION_FAILED - invalid arg 'x-expires': {value_zero,0}"),
        None
    );
    assert_eq!(
        parse_invalid_arg("PRECONDITION_FAILED - inequivalent arg 'x'"),
        None
    );
    let library = QueueSettings::library_default("orders");
    let [work, _] = long_lived_queues(&library, QueueType::Classic);
    let p = plan_from_probe(&work, &ProbeOutcome::Inequivalent(text.into()), "qv");
    assert_eq!(p.status, Status::Refused);
    assert_eq!(p.queue_type, "quorum", "the type the broker named");
    assert_eq!(
        fields(&p.differences),
        [("x-max-priority", DiffKind::Refused)]
    );
    assert_eq!(p.differences[0].computed, Some(json!(10)));
    assert!(
        p.differences[0]
            .effect
            .as_deref()
            .unwrap()
            .contains("is a quorum queue there"),
        "{:?}",
        p.differences[0].effect
    );
    let text = joined(&remedies(&[&p], "qv", &settings("orders")));
    assert!(text.contains("--max-priority 0"), "{text}");
}

/// A type is named only where queuey knows it: read by the API, or, in the AMQP fallback,
/// named by the declaration (`x-queue-type`) of a queue that is missing or found equivalent.
/// A classic queue is declared without `x-queue-type`, so it is of the vhost's default type,
/// which AMQP cannot read: the fallback knows no type for it, existing or not.
#[test]
fn a_type_is_known_only_where_it_was_read_or_declared() {
    let [classic, _] = long_lived_queues(&with_ttl("orders", 6000), QueueType::Classic);
    let [pinned, _] = long_lived_queues(&quorum("jobs"), QueueType::Classic);
    for outcome in [
        ProbeOutcome::Missing,
        ProbeOutcome::Exists,
        ProbeOutcome::Equivalent,
    ] {
        let p = plan_from_probe(&classic, &outcome, "/");
        assert_eq!(p.known_type(), None, "{outcome:?}");
        assert!(!p.computed_type_known());
    }
    for (outcome, known) in [
        (ProbeOutcome::Missing, Some("quorum")),
        (ProbeOutcome::Equivalent, Some("quorum")),
        (ProbeOutcome::Exists, None),
    ] {
        let p = plan_from_probe(&pinned, &outcome, "/");
        assert_eq!(p.known_type(), known, "{outcome:?}");
        assert!(p.computed_type_known());
    }
    // With the API: the live type where the queue exists, else the computed one.
    assert_eq!(diff_queue(&classic, None).known_type(), Some("classic"));
    let [in_quorum_vhost, _] = long_lived_queues(&with_ttl("orders", 6000), QueueType::Quorum);
    assert_eq!(
        diff_queue(&in_quorum_vhost, None).known_type(),
        Some("quorum")
    );
    let mut live_quorum = live(json!({"x-message-ttl": 6000}));
    live_quorum.queue_type = Some("quorum".into());
    assert_eq!(
        diff_queue(&classic, Some(&live_quorum)).known_type(),
        Some("quorum")
    );
}
