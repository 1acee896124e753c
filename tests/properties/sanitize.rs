//! The sanitiser: every control, format (bidi, zero-width, tag) and line-separator character a
//! stranger can put in a header or body is escaped; everything printable is kept.

use proptest::prelude::*;
use queuey_cli::output::sanitize::{is_visible, sanitize, sanitize_message, sanitize_multiline};

/// One character a terminal must never receive raw: Unicode's own classes (Cc, Cf, Zl, Zp)
/// as the regex engine's tables know them, not queuey's list; the bidi controls and
/// isolates (U+202A-202E, U+2066-2069) named too, so they come up often.
fn hostile() -> impl Strategy<Value = char> {
    prop_oneof![
        "[\\p{Cc}\\p{Cf}\\p{Zl}\\p{Zp}]",
        "[\\u{202a}-\\u{202e}\\u{2060}-\\u{2064}\\u{2066}-\\u{206f}\\u{e0000}-\\u{e007f}]",
        "[\\x00-\\x1f\\x7f]",
    ]
    .prop_filter_map("one character", |s| s.chars().next())
    .prop_filter("assigned or in a hostile range", |c| {
        // \p{Cf} has unassigned gaps in the tag block; everything generated is hostile.
        *c != '\u{e0000}' && !('\u{e0002}'..='\u{e001f}').contains(c)
    })
}

/// A printable character: any non-control, non-format one (letters of every script,
/// symbols, spaces, the backslash), never a separator.
fn printable() -> impl Strategy<Value = char> {
    prop_oneof!["\\PC", "[ -~]", Just("\\".to_owned())].prop_filter_map(
        "one printable character",
        |s| {
            s.chars()
                .next()
                .filter(|c| *c != '\u{2028}' && *c != '\u{2029}')
        },
    )
}

fn pieces() -> impl Strategy<Value = Vec<(bool, char)>> {
    prop::collection::vec(
        prop_oneof![
            hostile().prop_map(|c| (true, c)),
            printable().prop_map(|c| (false, c)),
        ],
        0..40,
    )
}

/// Checks `out` escapes every hostile character of `pieces`: none of them is left, each
/// became exactly one escape (one more backslash), printable characters are all there in
/// order, and nothing but ASCII was added. `kept` are hostile characters the variant keeps
/// (newline and tab for the multi-line ones); `doubles` says a backslash is escaped wherever
/// something else is (and only there: text with nothing to escape comes out as it went in).
fn check(out: &str, pieces: &[(bool, char)], kept: &[char], doubles: bool) {
    let input: String = pieces.iter().map(|(_, c)| c).collect();
    let escaped = pieces
        .iter()
        .filter(|(h, c)| *h && !kept.contains(c))
        .count();
    let backslashes = pieces.iter().filter(|(_, c)| *c == '\\').count();
    for c in out.chars() {
        assert!(
            is_visible(c) || kept.contains(&c),
            "{c:?} reached the output of {input:?}: {out:?}"
        );
        assert!(
            c.is_ascii() || pieces.iter().any(|(h, p)| !h && *p == c),
            "{c:?} was added to {input:?}: {out:?}"
        );
    }
    let want = escaped
        + if doubles && escaped > 0 {
            2 * backslashes
        } else {
            backslashes
        };
    if escaped == 0 {
        assert_eq!(out, input, "nothing to escape");
    }
    assert_eq!(out.matches('\\').count(), want, "{input:?} -> {out:?}");
    let mut rest = out;
    for (hostile, c) in pieces {
        if !hostile || kept.contains(c) {
            let at = rest
                .find(*c)
                .unwrap_or_else(|| panic!("{c:?} lost: {out:?}"));
            rest = &rest[at + c.len_utf8()..];
        }
    }
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(3000))]

    #[test]
    fn every_hostile_character_is_escaped(pieces in pieces()) {
        let input: String = pieces.iter().map(|(_, c)| c).collect();
        check(&sanitize(&input), &pieces, &[], true);
        check(&sanitize_multiline(&input), &pieces, &['\n', '\t'], true);
        check(&sanitize_message(&input), &pieces, &['\n', '\t'], false);
        for (hostile, c) in &pieces {
            prop_assert_eq!(is_visible(*c), !hostile, "{:?}", c);
        }
    }

    /// Alone, a hostile character shows as one visible escape naming its code point.
    #[test]
    fn a_hostile_character_shows_its_code_point(c in hostile()) {
        let out = sanitize(&c.to_string());
        let code = c as u32;
        let named = [format!("\\x{code:02x}"), format!("\\u{{{code:x}}}")];
        let short = match c {
            '\n' => Some("\\n"),
            '\t' => Some("\\t"),
            '\r' => Some("\\r"),
            _ => None,
        };
        prop_assert!(
            named.contains(&out) || short == Some(out.as_str()),
            "{:?} -> {:?}", c, out
        );
    }
}
