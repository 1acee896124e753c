//! The plan: live arguments (JSON from the management API) against computed ones.

use proptest::prelude::*;
use queuey_cli::cli::QueueSettingsArgs;
use queuey_cli::plan::{
    self, DiffKind, LiveDefinition, ReplyValue, Status, args_json, long_lived_queues,
    parse_inequivalent, same_value,
};
use queuey_cli::queue::QueueSettings;
use queuey_cli::settings::resolve_queue;
use queuey_cli::topology::{ArgValue, MAX_TTL_MS, QueueType};
use serde_json::{Map, Value, json};

/// Any valid settings of a logical queue.
fn any_settings() -> impl Strategy<Value = QueueSettings> {
    (
        "[a-z][a-z0-9 .ü-]{0,20}",
        prop::option::of(0u64..=u64::from(MAX_TTL_MS)),
        prop::option::of(1i64..=255),
        any::<bool>(),
        prop::option::of(1i64..=1000),
    )
        .prop_map(|(name, ttl, priority, is_quorum, limit)| {
            let flags = QueueSettingsArgs {
                message_ttl: ttl.map(|t| format!("{t}ms")),
                max_priority: if is_quorum { None } else { priority },
                queue_type: Some(if is_quorum { "quorum" } else { "classic" }.into()),
                delivery_limit: if is_quorum { limit } else { None },
                ..QueueSettingsArgs::default()
            };
            resolve_queue(&name, &flags, None).expect("valid settings")
        })
}

/// An integer as the API (or another client's JSON) may spell it.
fn spellings(n: i64) -> Vec<Value> {
    let mut out = vec![json!(n)];
    if n >= 0 {
        out.push(json!(n as u64));
    }
    if (n as f64) as i64 == n && n.unsigned_abs() < (1u64 << 53) {
        out.push(json!(n as f64));
    }
    out
}

/// The live definition another client would create with the computed arguments.
fn live_of(args: Map<String, Value>, queue_type: &str) -> LiveDefinition {
    LiveDefinition {
        arguments: args,
        durable: Some(true),
        auto_delete: Some(false),
        exclusive: Some(false),
        queue_type: Some(queue_type.to_owned()),
        ..LiveDefinition::default()
    }
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(2000))]

    #[test]
    fn integers_compare_by_value_whatever_their_spelling(n in any::<i64>(), m in any::<i64>()) {
        for v in spellings(n) {
            prop_assert!(same_value(&v, &ArgValue::Int(n)), "{v} == {n}");
            prop_assert_eq!(same_value(&v, &ArgValue::Int(m)), n == m, "{} vs {}", v, m);
            prop_assert!(!same_value(&Value::from(n.to_string()), &ArgValue::Int(n)));
        }
    }

    #[test]
    fn a_queue_declared_by_another_client_with_the_same_arguments_is_in_sync(
        q in any_settings(),
        explicit_classic in any::<bool>(),
        ignored in prop::collection::btree_map("x-other-[a-z]{1,8}", any::<i32>(), 0..3),
        seed in any::<u64>(),
    ) {
        for computed in long_lived_queues(&q, QueueType::Classic) {
            // Same values, integers spelled the way another client's JSON may spell them.
            let mut args: Map<String, Value> = Map::new();
            for (i, (k, v)) in computed.arguments.iter().enumerate() {
                let value = match v {
                    ArgValue::Int(n) => {
                        let s = spellings(*n);
                        s[(seed as usize + i) % s.len()].clone()
                    }
                    ArgValue::Str(s) => json!(s),
                };
                args.insert(k.clone(), value);
            }
            if explicit_classic && computed.queue_type.as_str() == "classic" {
                args.insert("x-queue-type".into(), json!("classic"));
            }
            for (k, v) in &ignored {
                args.insert(k.clone(), json!(v));
            }
            let live = live_of(args, computed.queue_type.as_str());
            let p = plan::diff_queue(&computed, Some(&live));
            prop_assert_eq!(p.status, Status::InSync, "{:?}", p.differences);
            prop_assert_eq!(p.ignored_arguments.len(), ignored.len());
        }
    }

    #[test]
    fn an_enforced_extra_or_a_changed_value_is_always_drift(
        q in any_settings(),
        extra in prop::sample::select(vec!["x-max-length", "x-max-length-bytes", "x-overflow", "x-expires", "x-single-active-consumer"]),
        bump in 1i64..1000,
    ) {
        for computed in long_lived_queues(&q, QueueType::Classic) {
            let mut args = args_json(&computed.arguments);
            args.insert(extra.into(), json!(10));
            let p = plan::diff_queue(&computed, Some(&live_of(args, computed.queue_type.as_str())));
            prop_assert_eq!(p.status, Status::Drift);
            prop_assert!(p.differences.iter().any(|d| d.field == extra && d.kind == DiffKind::Extra));

            // Every integer argument changed is one Different entry with both values.
            for (k, v) in &computed.arguments {
                if let ArgValue::Int(n) = v {
                    let mut args = args_json(&computed.arguments);
                    args.insert(k.clone(), json!(n.saturating_add(bump)));
                    let p = plan::diff_queue(&computed, Some(&live_of(args, computed.queue_type.as_str())));
                    prop_assert_eq!(p.differences.len(), 1);
                    prop_assert_eq!(p.differences[0].kind, DiffKind::Different);
                    prop_assert_eq!(&p.differences[0].computed, &Some(json!(n)));
                }
            }
        }
    }

    #[test]
    fn the_406_parser_never_panics_and_reads_what_was_not_cut(
        arg in "x-[a-z-]{1,20}",
        queue in "\\PC{0,120}",
        vhost in "\\PC{0,20}",
        received in prop::option::of("[a-z0-9' ]{0,12}"),
        current in prop::option::of("[a-z0-9' ]{0,12}"),
        cut_at in 0usize..400,
    ) {
        let side = |v: &Option<String>, with_type: bool| match v {
            None => "none".to_owned(),
            Some(v) if with_type => format!("the value '{v}' of type 'longstr'"),
            Some(v) => format!("'{v}'"),
        };
        let typed = received.is_none() || current.is_none();
        let text = format!(
            "PRECONDITION_FAILED - inequivalent arg '{arg}' for queue '{queue}' in vhost '{vhost}': received {} but current is {}",
            side(&received, typed), side(&current, typed)
        );
        let expect = |v: &Option<String>| match v {
            None => ReplyValue::Absent,
            Some(v) => ReplyValue::Value { text: v.clone(), type_name: typed.then(|| "longstr".to_owned()) },
        };
        if received.is_some() || current.is_some() {
            let p = parse_inequivalent(&text, &queue, &vhost).expect("parsed");
            prop_assert_eq!(&p.argument, &arg);
            prop_assert_eq!(p.received, expect(&received));
            prop_assert_eq!(p.current, expect(&current));
        }
        // The broker cuts long replies at 255 bytes: whatever the cut, no panic, the argument
        // name survives when it was not itself cut, and a value is either whole or Cut.
        if cut_at < text.len() {
            let mut at = cut_at;
            while !text.is_char_boundary(at) { at -= 1; }
            let cut = format!("{}...", &text[..at]);
            if let Some(p) = parse_inequivalent(&cut, &queue, &vhost) {
                let head = "PRECONDITION_FAILED - inequivalent arg '".len();
                if at > head + arg.len() {
                    prop_assert_eq!(&p.argument, &arg);
                }
                if p.current != ReplyValue::Cut {
                    prop_assert_eq!(p.current, expect(&current));
                }
            }
        }
    }
}
