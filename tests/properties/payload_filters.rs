//! The payload filters (`--where`, `--body-contains`) on generated JSON documents: every node
//! of a document is found by its pointer (keys with `~`, `/` and unicode escaped as RFC 6901
//! says) and equals its own JSON text; a body that is not JSON matches no `--where`.

use proptest::prelude::*;
use queuey_cli::dead::filter::{Filter, WhereCondition};
use queuey_cli::dead::pointer::{child, json_equal};
use serde_json::Value;

fn any_json() -> impl Strategy<Value = Value> {
    let leaf = prop_oneof![
        Just(Value::Null),
        any::<bool>().prop_map(Value::Bool),
        any::<i64>().prop_map(Value::from),
        any::<u64>().prop_map(Value::from),
        (-1e12f64..1e12).prop_map(Value::from),
        "[a-z ~/é0-9\"\\\\]{0,8}".prop_map(Value::from),
    ];
    leaf.prop_recursive(4, 40, 5, |inner| {
        prop_oneof![
            prop::collection::vec(inner.clone(), 0..5).prop_map(Value::Array),
            prop::collection::btree_map("[a-z~/é0-9 ]{0,6}", inner, 0..5)
                .prop_map(|m| Value::Object(m.into_iter().collect())),
        ]
    })
}

/// Every node of `doc` with its pointer.
fn nodes(doc: &Value, at: &str, out: &mut Vec<(String, Value)>) {
    if !at.is_empty() {
        out.push((at.to_owned(), doc.clone()));
    }
    match doc {
        Value::Object(m) => m.iter().for_each(|(k, v)| nodes(v, &child(at, k), out)),
        Value::Array(a) => a
            .iter()
            .enumerate()
            .for_each(|(i, v)| nodes(v, &child(at, &i.to_string()), out)),
        _ => {}
    }
}

fn where_(spec: &str) -> Filter {
    Filter {
        wheres: vec![WhereCondition::parse(spec).expect("a valid --where")],
        ..Filter::default()
    }
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(500))]

    #[test]
    fn every_node_is_found_by_its_pointer_and_equals_its_json(
        doc in any_json(),
        pick in any::<prop::sample::Index>(),
        other in any_json(),
    ) {
        let body = serde_json::to_vec(&doc).expect("JSON");
        let mut all = Vec::new();
        nodes(&doc, "", &mut all);
        prop_assume!(!all.is_empty());
        let (pointer, value) = &all[pick.index(all.len())];
        let text = serde_json::to_string(value).expect("JSON");
        prop_assert!(where_(pointer).matches_body(&body), "presence of {}", pointer);
        prop_assert!(where_(&format!("{pointer}={text}")).matches_body(&body), "{}={}", pointer, text);
        if let Value::String(s) = value && serde_json::from_str::<Value>(s).is_err() {
            prop_assert!(where_(&format!("{pointer}={s}")).matches_body(&body), "bare {}={}", pointer, s);
        }
        let other_text = serde_json::to_string(&other).expect("JSON");
        prop_assert_eq!(
            where_(&format!("{pointer}={other_text}")).matches_body(&body),
            json_equal(value, &other),
            "{}={} against {}", pointer, other_text, text
        );
        // OR: a condition that fails beside one that holds.
        let mut f = where_(&format!("{pointer}={text}"));
        f.wheres.insert(0, WhereCondition::parse("/no such key/at all").expect("valid"));
        prop_assert!(f.matches_body(&body));
        // The raw body contains each of its own slices.
        let from = pick.index(body.len());
        let slice = String::from_utf8_lossy(&body[from..body.len().min(from + 6)]).into_owned();
        if !slice.contains('\u{fffd}') && !slice.is_empty() {
            let contains = Filter { body_contains: vec![slice.clone()], ..Filter::default() };
            prop_assert!(contains.matches_body(&body), "{:?}", slice);
        }
    }

    #[test]
    fn a_body_that_is_not_json_matches_no_where(body in prop::collection::vec(any::<u8>(), 0..64), key in "[a-z]{1,5}") {
        // Not JSON by JSON's grammar (serde_json's values refuse more: `[1e400]`).
        prop_assume!(!std::str::from_utf8(&body).is_ok_and(|t| queuey_cli::dead::json_text::check(t).is_none()));
        let pointer = format!("/{key}");
        prop_assert!(!where_(&pointer).matches_body(&body));
        prop_assert!(!where_("/0").matches_body(&body));
    }
}
