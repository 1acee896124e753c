//! Typed header keys (`--group-by header:NAME`, `--header NAME:=KEY`) and header filters on
//! arbitrary AMQP values, strings built to print alike among them: two values have one key
//! only if they are the same value (the export format's typed JSON as the oracle), a key reads
//! back as its value, a terminal shows it unchanged, and `NAME=TEXT` never matches what only
//! prints as TEXT.

use proptest::prelude::*;
use queuey_cli::dead::decode::{self, Message};
use queuey_cli::dead::filter::{GroupKey, Grouping, HeaderCondition};
use queuey_cli::dead::value::{Properties, Table, Value, bytes_text};
use queuey_cli::output::sanitize::sanitize;
use queuey_cli::topology::RabbitMqOptions;

/// Text made of the pieces that print like something else: `\xNN` written out, backslashes,
/// quotes, type names and `:`, `(none)`, separators of arrays and tables, spaces, escapes.
fn tricky_text() -> impl Strategy<Value = String> {
    "(\\\\x[0-9a-f]{2}|\\\\|\"|i32:|longstr:|void:|\\(none\\)| |, |\\]|\\}|=|a|é|\u{202e}|\u{1b}|\\\\u\\{1b\\}){0,6}"
}

/// Bytes that are often not UTF-8, often the UTF-8 of tricky text.
fn tricky_bytes() -> impl Strategy<Value = Vec<u8>> {
    prop_oneof![
        proptest::collection::vec(any::<u8>(), 0..8),
        tricky_text().prop_map(String::into_bytes),
        (tricky_text(), proptest::collection::vec(128u8..=255, 1..3)).prop_map(|(t, b)| {
            let mut v = t.into_bytes();
            v.extend(b);
            v
        }),
    ]
}

/// Any AMQP value, nested a few levels, its strings tricky.
fn any_value() -> impl Strategy<Value = Value> {
    let leaf = prop_oneof![
        any::<bool>().prop_map(Value::Bool),
        any::<i8>().prop_map(Value::I8),
        any::<u8>().prop_map(Value::U8),
        any::<i16>().prop_map(Value::I16),
        any::<u16>().prop_map(Value::U16),
        any::<i32>().prop_map(Value::I32),
        any::<u32>().prop_map(Value::U32),
        any::<i64>().prop_map(Value::I64),
        any::<f32>().prop_map(Value::F32),
        any::<f64>().prop_map(Value::F64),
        (0u8..12, any::<u32>()).prop_map(|(scale, value)| Value::Decimal { scale, value }),
        (any::<u8>(), any::<u32>()).prop_map(|(scale, value)| Value::Decimal { scale, value }),
        tricky_text().prop_map(Value::ShortStr),
        tricky_bytes().prop_map(Value::LongStr),
        tricky_bytes().prop_map(Value::LongStr),
        any::<u64>().prop_map(Value::Timestamp),
        proptest::collection::vec(any::<u8>(), 0..8).prop_map(Value::Bytes),
        Just(Value::Void),
    ];
    leaf.prop_recursive(3, 24, 4, |inner| {
        prop_oneof![
            proptest::collection::vec(inner.clone(), 0..4).prop_map(Value::Array),
            proptest::collection::btree_map(tricky_text(), inner, 0..4).prop_map(Value::Table),
        ]
    })
}

/// The oracle of "the same AMQP value": the export format's typed JSON, which round-trips
/// every value (every NaN of a type is one), compared as text: as JSON values `-0.0` and `0.0`
/// are equal numbers, as AMQP values they are two.
fn same(a: &Value, b: &Value) -> bool {
    let text = |v: &Value| serde_json::to_string(&v.to_typed_json()).ok();
    text(a) == text(b)
}

fn with_header(v: &Value) -> Properties {
    let mut h = Table::new();
    h.insert("h".into(), v.clone());
    Properties {
        headers: Some(h),
        ..Properties::default()
    }
}

fn is_text_scalar(v: &Value) -> bool {
    !matches!(
        v,
        Value::ShortStr(_)
            | Value::LongStr(_)
            | Value::Bytes(_)
            | Value::Array(_)
            | Value::Table(_)
            | Value::Void
    )
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(2000))]

    #[test]
    fn one_key_one_value(a in any_value(), b in any_value()) {
        prop_assert_eq!(a.key() == b.key(), same(&a, &b), "{} / {}", a.key(), b.key());
        // And against the values that print as `a` does: its display as a long and a short
        // string (the text `\xff` for the byte 0xff, `5` for the integer 5).
        for alike in [
            Value::LongStr(a.display().into_bytes()),
            Value::ShortStr(a.display()),
        ] {
            prop_assert_eq!(a.display(), alike.display());
            prop_assert_eq!(
                a.key() == alike.key(),
                same(&a, &alike),
                "{} / {}",
                a.key(),
                alike.key()
            );
        }
    }

    #[test]
    fn a_key_reads_back_as_its_value(v in any_value()) {
        let key = v.key();
        let back = Value::parse_key(&key).map_err(|e| TestCaseError::fail(format!("{key}: {e}")))?;
        prop_assert!(same(&back, &v), "{} read back as {:?}", key, back);
        prop_assert_eq!(back.key(), key);
    }

    #[test]
    fn a_terminal_shows_a_key_as_it_is(v in any_value()) {
        let key = v.key();
        prop_assert_eq!(sanitize(&key), key.clone());
        prop_assert!(key != "(none)");
    }

    /// Bytes and the text they print as (`\xff`): one display, two keys, two groups; plain
    /// text matches the text alone.
    #[test]
    fn what_prints_alike_is_told_apart(b in tricky_bytes()) {
        let bytes = Value::LongStr(b.clone());
        let printed = Value::LongStr(bytes_text(&b).into_bytes());
        prop_assert_eq!(bytes.display(), printed.display());
        let text = bytes_text(&b);
        let plain = HeaderCondition::parse(&format!("h={text}")).map_err(TestCaseError::fail)?;
        prop_assert!(plain.holds(&with_header(&printed)));
        prop_assert_eq!(plain.holds(&with_header(&bytes)), b == text.as_bytes());
        let mut g = Grouping::new(vec![GroupKey::Header("h".into())]);
        let message = Message {
            properties: Properties::default(),
            body: vec![],
            redelivered: false,
            exchange: String::new(),
            routing_key: "q.dead".into(),
        };
        let dl = decode::decode(&message, "q", &RabbitMqOptions::default());
        g.add(&dl, &with_header(&bytes));
        g.add(&dl, &with_header(&printed));
        prop_assert_eq!(g.groups.len(), if b == text.as_bytes() { 1 } else { 2 });
    }

    /// `NAME:=KEY` holds exactly for the value KEY names; `NAME=TEXT` for a string of exactly
    /// TEXT's bytes or a number or boolean printed as TEXT, never anything else.
    #[test]
    fn filters_follow_the_typed_value(a in any_value(), b in any_value(), t in tricky_text()) {
        let exact = HeaderCondition::parse(&format!("h:={}", a.key())).map_err(TestCaseError::fail)?;
        prop_assert_eq!(exact.holds(&with_header(&b)), same(&a, &b));
        // Any text, and the very text `b` prints as.
        for t in [t, b.display()] {
            let plain = HeaderCondition::parse(&format!("h={t}")).map_err(TestCaseError::fail)?;
            let expected = match &b {
                Value::ShortStr(s) => s == &t,
                Value::LongStr(bytes) => bytes == t.as_bytes(),
                other if is_text_scalar(other) => other.display() == t,
                _ => false,
            };
            prop_assert_eq!(plain.holds(&with_header(&b)), expected, "h={}", t);
        }
        let plain = HeaderCondition::parse(&format!("h={}", b.display())).map_err(TestCaseError::fail)?;
        if let Value::LongStr(bytes) = &b && std::str::from_utf8(bytes).is_err() {
            prop_assert!(!plain.holds(&with_header(&b)));
        }
    }
}
