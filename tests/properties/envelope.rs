//! The envelope in a body: decoded exactly when the library decodes it, and a replay's attempt
//! reset that changes nothing else.

use proptest::prelude::*;
use queuey_cli::dead::pointer::check_pointer;
use queuey_cli::dead::{envelope, json_text};
use queuey_core::Envelope as LibraryEnvelope;

fn ws() -> impl Strategy<Value = String> {
    prop::sample::select(vec!["", "", " ", "\n", "\t", "  \r\n "]).prop_map(str::to_owned)
}

/// `s` as a JSON string literal, escaping the characters chosen by `mask` (and always the
/// ones JSON requires) as `\uXXXX`, surrogate pairs included.
fn quoted(s: &str, mask: u64) -> String {
    let mut out = String::from("\"");
    for (i, c) in s.chars().enumerate() {
        let forced = c == '"' || c == '\\' || (c as u32) < 0x20;
        if forced || (mask >> (i % 64)) & 1 == 1 {
            let mut units = [0u16; 2];
            for u in c.encode_utf16(&mut units) {
                out.push_str(&format!("\\u{:04x}", u));
            }
        } else {
            out.push(c);
        }
    }
    out.push('"');
    out
}

fn text() -> impl Strategy<Value = String> {
    prop_oneof!["[a-zA-Z0-9:_. -]{0,12}", "\\PC{0,8}", ".{0,6}"]
}

fn string_literal() -> impl Strategy<Value = String> {
    (text(), any::<u64>()).prop_map(|(s, m)| quoted(&s, m))
}

fn number_literal() -> impl Strategy<Value = String> {
    prop_oneof![
        any::<i64>().prop_map(|n| n.to_string()),
        any::<u64>().prop_map(|n| n.to_string()),
        prop::sample::select(vec![
            "1.50",
            "-0",
            "0.0",
            "1e3",
            "2.5E-3",
            "-1.0e+2",
            "12345678901234567890123",
            "3.141592653589793238462643383279",
            "5e-324",
        ])
        .prop_map(str::to_owned),
        any::<f64>()
            .prop_filter("finite", |f| f.is_finite())
            .prop_map(|f| f.to_string()),
    ]
}

/// Any JSON value as text, with varied whitespace and spellings.
fn value_literal() -> impl Strategy<Value = String> {
    let leaf = prop_oneof![
        Just("null".to_owned()),
        Just("true".to_owned()),
        Just("false".to_owned()),
        number_literal(),
        string_literal(),
    ];
    leaf.prop_recursive(4, 24, 5, |inner| {
        prop_oneof![
            (prop::collection::vec((ws(), inner.clone(), ws()), 0..5)).prop_map(|items| {
                let parts: Vec<String> = items
                    .into_iter()
                    .map(|(a, v, b)| format!("{a}{v}{b}"))
                    .collect();
                format!("[{}]", parts.join(","))
            }),
            (prop::collection::vec((ws(), string_literal(), ws(), inner, ws()), 0..5)).prop_map(
                |items| {
                    let parts: Vec<String> = items
                        .into_iter()
                        .map(|(a, k, b, v, c)| format!("{a}{k}{b}:{c}{v}"))
                        .collect();
                    format!("{{{}}}", parts.join(","))
                }
            ),
        ]
    })
}

fn uuid_literal() -> impl Strategy<Value = String> {
    (any::<u128>(), 0usize..5).prop_map(|(n, form)| {
        let u = uuid::Uuid::from_u128(n);
        let s = match form {
            0 => u.hyphenated().to_string(),
            1 => u.hyphenated().to_string().to_uppercase(),
            2 => u.simple().to_string(),
            3 => u.braced().to_string(),
            _ => u.urn().to_string(),
        };
        format!("\"{s}\"")
    })
}

/// A body the library decodes: its fields in any order, keys sometimes escaped, optional
/// fields sometimes absent, unknown keys, any payload.
fn envelope_body() -> impl Strategy<Value = String> {
    (
        uuid_literal(),
        string_literal(),
        string_literal(),
        any::<u32>(),
        any::<u64>(),
        prop::option::of(any::<u32>()),
        prop::option::of(any::<u8>()),
        prop::option::of(prop_oneof![string_literal(), Just("null".to_owned())]),
        value_literal(),
        prop::collection::vec(("x-[a-z]{1,5}", value_literal()), 0..3),
        (any::<u64>(), any::<u64>()),
        prop::collection::vec(ws(), 40),
    )
        .prop_map(
            |(
                id,
                job_type,
                queue,
                attempt,
                enq,
                deferrals,
                priority,
                corr,
                payload,
                extra,
                (mask, order),
                spaces,
            )| {
                let mut fields: Vec<(String, String)> = vec![
                    ("job_id".into(), id),
                    ("job_type".into(), job_type),
                    ("queue".into(), queue),
                    ("attempt".into(), attempt.to_string()),
                    ("enqueued_at_ms".into(), enq.to_string()),
                    ("payload".into(), payload),
                ];
                if let Some(d) = deferrals {
                    fields.push(("deferrals".into(), d.to_string()));
                }
                if let Some(p) = priority {
                    fields.push(("priority".into(), p.to_string()));
                }
                if let Some(c) = corr {
                    fields.push(("correlation_id".into(), c));
                }
                fields.extend(extra);
                // A deterministic shuffle from `order`.
                let n = fields.len();
                for i in (1..n).rev() {
                    let j = ((order >> (i % 60)) as usize ^ i.wrapping_mul(31)) % (i + 1);
                    fields.swap(i, j);
                }
                let mut sp = spaces.into_iter().cycle();
                let mut out = format!("{}{{", sp.next().unwrap_or_default());
                for (i, (k, v)) in fields.into_iter().enumerate() {
                    if i > 0 {
                        out.push(',');
                    }
                    // Keys are escaped in one body of four, so that most keep their plain
                    // spelling (which the edits of `near_envelope` look for).
                    let key_mask = if mask % 4 == 0 {
                        mask.rotate_left(i as u32)
                    } else {
                        0
                    };
                    let key = quoted(&k, key_mask);
                    out.push_str(&format!(
                        "{}{key}{}:{}{v}{}",
                        sp.next().unwrap_or_default(),
                        sp.next().unwrap_or_default(),
                        sp.next().unwrap_or_default(),
                        sp.next().unwrap_or_default()
                    ));
                }
                out.push('}');
                out.push_str(&sp.next().unwrap_or_default());
                out
            },
        )
}

/// A body near an envelope: one random edit of a valid one, or anything at all.
fn near_envelope() -> impl Strategy<Value = Vec<u8>> {
    prop_oneof![
        (
            envelope_body(),
            any::<prop::sample::Index>(),
            any::<u8>(),
            0usize..4
        )
            .prop_map(|(body, at, byte, edit)| {
                let mut b = body.into_bytes();
                let i = at.index(b.len().max(1)).min(b.len());
                match edit {
                    0 if i < b.len() => {
                        b.remove(i);
                    }
                    1 => b.insert(i, byte),
                    2 if i < b.len() => b[i] = byte,
                    _ => b.truncate(i),
                }
                b
            }),
        (
            envelope_body(),
            prop::sample::select(vec![
                ("\"attempt\"", "\"attempt\":1,\"attempt\""),
                ("\"attempt\"", "\"attempts\""),
                ("\"job_id\"", "\"job-id\""),
                ("\"payload\"", "\"x\":1,\"payload\""),
                ("\"payload\"", "\"x\":1E400,\"payload\""),
                ("\"attempt\":", "\"attempt\":4294967296,\"z\":"),
                ("\"attempt\":", "\"attempt\":-1,\"z\":"),
                ("\"attempt\":", "\"attempt\":1.0,\"z\":"),
                ("\"priority\":", "\"priority\":256,\"z\":"),
                ("\"deferrals\":", "\"deferrals\":null,\"z\":"),
                (
                    "\"enqueued_at_ms\":",
                    "\"enqueued_at_ms\":18446744073709551616,\"z\":"
                ),
                (
                    "\"job_id\":",
                    "\"job_id\":\"67e55044-10b1-426f-9247\",\"z\":"
                ),
                ("\"job_type\":", "\"job_type\":null,\"z\":"),
                ("\"correlation_id\":", "\"correlation_id\":7,\"z\":"),
                (",\"deferrals\":", ",\"x\":"),
                ("\"payload\":", "\"payload\":[1E400],\"y\":"),
            ])
        )
            .prop_map(|(body, (from, to))| body.replacen(from, to, 1).into_bytes()),
        (value_literal(), any::<u64>()).prop_map(|(v, _)| v.into_bytes()),
        prop::collection::vec(any::<u8>(), 0..64),
    ]
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(3000))]

    /// queuey sees an envelope exactly where the library does, with the same fields.
    #[test]
    fn decoded_exactly_when_the_library_decodes(body in prop_oneof![envelope_body().prop_map(String::into_bytes), near_envelope()]) {
        let ours = envelope::decode(&body);
        let theirs = LibraryEnvelope::from_bytes(&body);
        prop_assert_eq!(ours.is_some(), theirs.is_ok(), "{:?}", String::from_utf8_lossy(&body));
        // `dead edit`'s refusal of an edit is the same verdict, with the field named.
        prop_assert_eq!(envelope::why_not(&body).is_none(), theirs.is_ok());
        if let (Some(o), Ok(t)) = (ours, theirs) {
            prop_assert_eq!(o.job_id, t.job_id.to_string());
            prop_assert_eq!(o.job_type, t.job_type);
            prop_assert_eq!(o.queue, t.queue);
            prop_assert_eq!(o.attempt, t.attempt);
            prop_assert_eq!(o.enqueued_at_ms, t.enqueued_at_ms);
            prop_assert_eq!(o.deferrals, t.deferrals);
            prop_assert_eq!(o.priority, t.priority);
            prop_assert_eq!(o.correlation_id, t.correlation_id);
        }
    }

    /// A replayed body is the same envelope on attempt 1, and the same bytes but for the
    /// attempt's value.
    #[test]
    fn first_attempt_changes_the_attempt_and_no_other_byte(body in envelope_body()) {
        let before = LibraryEnvelope::from_bytes(body.as_bytes()).expect("a generated envelope decodes");
        let out = envelope::with_first_attempt(body.as_bytes()).expect("the attempt is found");
        let after = LibraryEnvelope::from_bytes(&out).expect("the copy still decodes");
        prop_assert_eq!(after.attempt, 1);
        let mut expected = before.clone();
        expected.attempt = 1;
        prop_assert_eq!(&after, &expected);
        // Byte for byte: the only change is the attempt's digits.
        let span = envelope::top_level_value(body.as_bytes(), "attempt").expect("span");
        let b = body.as_bytes();
        prop_assert_eq!(&out[..span.start], &b[..span.start]);
        prop_assert_eq!(&out[span.start + 1..], &b[span.end..]);
        let digits = before.attempt.to_string();
        prop_assert_eq!(&b[span.clone()], digits.as_bytes());
    }

    /// `dead edit --set` changes the bytes of the value it sets and no other; a member it adds
    /// is one the library ignores; the pretty text the operator sees and edits reads back to
    /// the same body, every token as written.
    #[test]
    fn a_set_changes_only_what_it_sets(body in envelope_body(), value in value_literal()) {
        let value = json_text::compact(&value);
        let payload = check_pointer("/payload").expect("a pointer");
        let out = json_text::set(&body, &payload, &value).expect("set");
        let span = envelope::top_level_value(body.as_bytes(), "payload").expect("span");
        prop_assert_eq!(&out[..span.start], &body[..span.start]);
        prop_assert_eq!(&out[span.start..span.start + value.len()], value.as_str());
        prop_assert_eq!(&out[span.start + value.len()..], &body[span.end..]);
        prop_assert_eq!(json_text::check(&out), None);

        let added = json_text::set(&body, &check_pointer("/queuey_note").expect("a pointer"), &value)
            .expect("added");
        prop_assert_eq!(
            LibraryEnvelope::from_bytes(added.as_bytes()).ok(),
            LibraryEnvelope::from_bytes(body.as_bytes()).ok()
        );

        let pretty = json_text::pretty(&body);
        prop_assert_eq!(json_text::compact(&pretty), json_text::compact(&body));
        let a: serde_json::Value = serde_json::from_str(&pretty).expect("pretty is JSON");
        let b: serde_json::Value = serde_json::from_str(&body).expect("the body is JSON");
        prop_assert_eq!(a, b);
    }

    #[test]
    fn the_scanner_never_panics(body in prop::collection::vec(any::<u8>(), 0..200)) {
        let _ = envelope::top_level_value(&body, "attempt");
        let _ = envelope::with_first_attempt(&body);
    }
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(1000))]

    /// `dead show` shows a JSON body (an envelope or any other) with its own tokens, each as
    /// written: only the whitespace between them differs. Before, it showed the body read into
    /// serde_json values and printed again (numbers respelled, escapes undone, a key given
    /// twice shown once).
    #[test]
    fn dead_show_shows_a_json_body_with_its_own_tokens(body in prop_oneof![envelope_body(), value_literal()]) {
        let shown = queuey_cli::output::show::render_body(body.as_bytes(), Some("application/json"));
        let (heading, text) = shown.split_once('\n').unwrap_or((shown.as_str(), ""));
        prop_assert!(heading.contains("JSON"), "{}", heading);
        if !heading.contains("escaped") {
            prop_assert_eq!(json_text::compact(text), json_text::compact(&body));
        }
    }
}
