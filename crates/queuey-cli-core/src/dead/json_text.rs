//! PURE: a JSON body edited as text, so that what nobody touched stays exactly as it was written.
//!
//! A message body belongs to the application. Read into a `serde_json::Value` and written back,
//! it would change where nobody asked: a number past `f64` (`123456789012345678901234567890`
//! becomes `1.2345678901234568e+29`), digits past `f64`'s precision (`0.10000000000000000555`
//! becomes `0.1`), `-0` (becomes `-0.0`), string escapes (`"\u00e9"` becomes `"é"`). So `dead
//! edit` never does that. [`set`] replaces, adds or appends one value by splicing its text into
//! the body, leaving every other byte as it was; [`pretty`] and [`compact`] change only the
//! whitespace between tokens, each string and number kept as its exact text. A diff of two
//! [`pretty`] texts therefore shows every change of a value, spelling included.
//!
//! serde_json does the reading: [`check`] is its parser, and the members of an object or the
//! elements of an array are found as [`RawValue`]s that borrow from the body, their place in it
//! the span. Nothing here recurses on the nesting of the body.

use std::ops::Range;

use serde::Deserialize;
use serde_json::value::RawValue;

use super::pointer::Pointer;

/// Why `text` is not one JSON value, as serde_json reads it (`None`: it is one). Numbers are
/// checked for their syntax only: `1e400` is a JSON number, kept as written.
pub fn check(text: &str) -> Option<String> {
    serde_json::from_str::<&RawValue>(text)
        .err()
        .map(|e| e.to_string())
}

/// `text` (one JSON value, see [`check`]) indented as serde_json's pretty printer indents
/// (two spaces, `"key": value`, `{}` and `[]` when empty), every string and number kept as its
/// exact text.
pub fn pretty(text: &str) -> String {
    let mut out = String::with_capacity(text.len() * 2);
    let mut depth = 0usize;
    let newline = |out: &mut String, depth: usize| {
        out.push('\n');
        for _ in 0..depth {
            out.push_str("  ");
        }
    };
    let mut chars = text.char_indices().peekable();
    while let Some((i, c)) = chars.next() {
        match c {
            '"' => {
                let end = string_end(text, i);
                out.push_str(&text[i..end]);
                while chars.peek().is_some_and(|(j, _)| *j < end) {
                    chars.next();
                }
            }
            '{' | '[' => {
                out.push(c);
                let close = if c == '{' { '}' } else { ']' };
                if text[i + 1..].trim_start().starts_with(close) {
                    out.push(close);
                    while chars.next().is_some_and(|(_, n)| n != close) {}
                } else {
                    depth += 1;
                    newline(&mut out, depth);
                }
            }
            '}' | ']' => {
                depth = depth.saturating_sub(1);
                newline(&mut out, depth);
                out.push(c);
            }
            ',' => {
                out.push(',');
                newline(&mut out, depth);
            }
            ':' => out.push_str(": "),
            ' ' | '\t' | '\n' | '\r' => {}
            _ => out.push(c),
        }
    }
    out
}

/// `text` (one JSON value, see [`check`]) without the whitespace between its tokens, every
/// string and number kept as its exact text.
pub fn compact(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    let mut chars = text.char_indices().peekable();
    while let Some((i, c)) = chars.next() {
        match c {
            '"' => {
                let end = string_end(text, i);
                out.push_str(&text[i..end]);
                while chars.peek().is_some_and(|(j, _)| *j < end) {
                    chars.next();
                }
            }
            ' ' | '\t' | '\n' | '\r' => {}
            _ => out.push(c),
        }
    }
    out
}

/// How deep `text` (one JSON value) nests: 0 for a scalar, 1 for `[]`.
pub fn depth(text: &str) -> usize {
    let (mut depth, mut deepest) = (0usize, 0usize);
    let bytes = text.as_bytes();
    let mut i = 0;
    while i < bytes.len() {
        match bytes[i] {
            b'"' => i = string_end(text, i) - 1,
            b'{' | b'[' => {
                depth += 1;
                deepest = deepest.max(depth);
            }
            b'}' | b']' => depth = depth.saturating_sub(1),
            _ => {}
        }
        i += 1;
    }
    deepest
}

/// The end (one past the closing quote) of the JSON string that starts at the quote at `start`;
/// the end of `text` when it is not closed (never, for a text [`check`] accepted).
fn string_end(text: &str, start: usize) -> usize {
    let bytes = text.as_bytes();
    let mut i = start + 1;
    while i < bytes.len() {
        match bytes[i] {
            b'\\' => i += 2,
            b'"' => return i + 1,
            _ => i += 1,
        }
    }
    text.len()
}

/// `body` (one JSON value) with `value` (the text of one JSON value) put at `pointer`: it
/// replaces a member or an array element that exists, is added as the last member of an object
/// that has no such member, or appended to an array with `-`. Every other byte of `body` stays.
/// The parent must exist: a pointer through a missing member or index is refused, saying which;
/// so is a pointer through a key that an object holds twice (which of them an application
/// reads is its parser's choice).
pub fn set(body: &str, pointer: &Pointer, value: &str) -> Result<String, String> {
    let whole = serde_json::from_str::<&RawValue>(body)
        .ok()
        .and_then(|raw| span_in(body, raw.get()))
        .ok_or_else(|| "the body is not JSON".to_owned())?;
    let tokens = pointer.tokens();
    let Some((last, parents)) = tokens.split_last() else {
        return Ok(splice(body, whole, value));
    };
    let mut at = whole;
    let mut path = String::new();
    let place = |path: &str| {
        if path.is_empty() {
            "the body".to_owned()
        } else {
            path.to_owned()
        }
    };
    for token in parents {
        let here = place(&path);
        at = match child(body, at.clone(), token)
            .map_err(|why| format!("{}: {here} {why}", pointer.as_str()))?
        {
            Some(span) => span,
            None => return Err(format!("{}: {here} has no {token:?}", pointer.as_str())),
        };
        path = super::pointer::child(&path, token);
    }
    let here = place(&path);
    let text = &body[at.clone()];
    let close = at.end - 1;
    match text.as_bytes().first() {
        Some(b'{') => {
            let members = members(text).ok_or_else(|| format!("{here} is not an object"))?;
            match child(body, at.clone(), last)
                .map_err(|why| format!("{}: {here} {why}", pointer.as_str()))?
            {
                Some(span) => Ok(splice(body, span, value)),
                None => {
                    let key = serde_json::to_string(last)
                        .map_err(|e| format!("cannot write the key {last:?}: {e}"))?;
                    let comma = if members.is_empty() { "" } else { "," };
                    Ok(splice(body, close..close, &format!("{comma}{key}:{value}")))
                }
            }
        }
        Some(b'[') => {
            let items = elements(text).ok_or_else(|| format!("{here} is not an array"))?;
            if last == "-" {
                let comma = if items.is_empty() { "" } else { "," };
                return Ok(splice(body, close..close, &format!("{comma}{value}")));
            }
            match child(body, at.clone(), last)
                .map_err(|why| format!("{}: {here} {why}", pointer.as_str()))?
            {
                Some(span) => Ok(splice(body, span, value)),
                None => Err(format!(
                    "{}: {here} has {} elements, no index {last:?} (\"-\" appends)",
                    pointer.as_str(),
                    items.len()
                )),
            }
        }
        _ => Err(format!(
            "{}: {here} is {}, which has no members",
            pointer.as_str(),
            kind(text)
        )),
    }
}

/// The span in `body` of the member `token` of the object, or the element `token` of the array,
/// at `at`; `None` when there is none; an error when the object holds the key more than once.
fn child(body: &str, at: Range<usize>, token: &str) -> Result<Option<Range<usize>>, String> {
    let text = &body[at.clone()];
    let found = match text.as_bytes().first() {
        Some(b'{') => {
            let members = members(text).unwrap_or_default();
            let mut same = members.into_iter().filter(|(k, _)| k == token);
            let first = same.next().map(|(_, v)| v);
            if same.next().is_some() {
                return Err(format!(
                    "has the key {token:?} more than once: which one counts is the reader's \
                     choice, so dead edit does not pick one"
                ));
            }
            first
        }
        Some(b'[') => index(token).and_then(|i| elements(text).unwrap_or_default().get(i).copied()),
        _ => None,
    };
    Ok(found.and_then(|raw| span_in(body, raw.get())))
}

/// The text of the JSON value at `tokens` (RFC 6901, unescaped) in `body`, as written: `None`
/// when the body is not JSON or holds nothing there. A member named twice is its last one, as
/// serde_json reads it (so `--where` compares the value its pointer found).
pub fn value_at<'a>(body: &'a str, tokens: &[String]) -> Option<&'a str> {
    let mut at: &RawValue = serde_json::from_str(body).ok()?;
    for token in tokens {
        let text = at.get().trim();
        at = match text.as_bytes().first() {
            Some(b'{') => {
                members(text)?
                    .into_iter()
                    .rev()
                    .find(|(k, _)| k == token)?
                    .1
            }
            Some(b'[') => *elements(text)?.get(index(token)?)?,
            _ => return None,
        };
    }
    Some(at.get().trim())
}

/// An array index as RFC 6901 writes one (digits, no leading zero).
fn index(token: &str) -> Option<usize> {
    let digits = !token.is_empty() && token.bytes().all(|b| b.is_ascii_digit());
    if !digits || (token.len() > 1 && token.starts_with('0')) {
        return None;
    }
    token.parse().ok()
}

/// What kind of JSON value `text` is, for messages.
fn kind(text: &str) -> &'static str {
    match text.as_bytes().first() {
        Some(b'n') => "null",
        Some(b't' | b'f') => "a boolean",
        Some(b'"') => "a string",
        Some(b'[') => "an array",
        Some(b'{') => "an object",
        _ => "a number",
    }
}

fn splice(body: &str, span: Range<usize>, text: &str) -> String {
    let mut out = String::with_capacity(body.len() + text.len());
    out.push_str(&body[..span.start]);
    out.push_str(text);
    out.push_str(&body[span.end..]);
    out
}

/// Where `inner`, a slice that borrows from `outer`, lies in `outer`.
pub fn span_in(outer: &str, inner: &str) -> Option<Range<usize>> {
    let start = (inner.as_ptr() as usize).checked_sub(outer.as_ptr() as usize)?;
    let span = start..start.checked_add(inner.len())?;
    (outer.get(span.clone())? == inner).then_some(span)
}

/// The members of the JSON object `text`, in order, each key unescaped (as serde reads keys)
/// and each value the raw text it borrows from `text`; `None` when `text` is not one object.
pub fn members(text: &str) -> Option<Vec<(String, &RawValue)>> {
    serde_json::from_str::<Members>(text).ok().map(|m| m.0)
}

/// The elements of the JSON array `text`, each the raw text it borrows from `text`.
fn elements(text: &str) -> Option<Vec<&RawValue>> {
    serde_json::from_str(text).ok()
}

/// A JSON object's members in order, each value the raw text it borrows from the input.
pub(crate) struct Members<'a>(pub(crate) Vec<(String, &'a RawValue)>);

impl<'de> Deserialize<'de> for Members<'de> {
    fn deserialize<D: serde::Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        struct Visit;
        impl<'de> serde::de::Visitor<'de> for Visit {
            type Value = Members<'de>;

            fn expecting(&self, f: &mut std::fmt::Formatter) -> std::fmt::Result {
                f.write_str("a JSON object")
            }

            fn visit_map<A: serde::de::MapAccess<'de>>(
                self,
                mut map: A,
            ) -> Result<Self::Value, A::Error> {
                let mut members = Vec::new();
                while let Some(member) = map.next_entry::<String, &'de RawValue>()? {
                    members.push(member);
                }
                Ok(Members(members))
            }
        }
        d.deserialize_map(Visit)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::dead::pointer::check_pointer;

    fn set_at(body: &str, pointer: &str, value: &str) -> Result<String, String> {
        set(body, &check_pointer(pointer).unwrap(), value)
    }

    /// For what serde_json writes exactly, the same text as serde_json's own pretty printer.
    #[test]
    fn pretty_is_serde_jsons_layout_with_the_tokens_as_written() {
        let body = r#" {"a" : [1, {"b":[]}, {}, "x,\"]}:"], "c":{"d":null,"e":true},"f":-0} "#;
        let value: serde_json::Value = serde_json::from_str(body).unwrap();
        let serde = serde_json::to_string_pretty(&value).unwrap();
        assert_eq!(pretty(body), serde.replace("-0.0", "-0"));
        assert_eq!(compact(&pretty(body)), compact(body));
        assert_eq!(
            compact(body),
            r#"{"a":[1,{"b":[]},{},"x,\"]}:"],"c":{"d":null,"e":true},"f":-0}"#
        );
        assert_eq!(pretty(r#""a b""#), r#""a b""#);
        assert_eq!(pretty("[ ]"), "[]");
    }

    #[test]
    fn check_is_serde_jsons_parser() {
        assert_eq!(check(" [1e400, -0, \"\\u00e9\"] "), None);
        for bad in ["", "{", "[1,]", "{\"a\" 1}", "1 2", "\"\\x\""] {
            assert!(check(bad).is_some(), "{bad}");
        }
    }

    #[test]
    fn set_splices_one_value_and_keeps_every_other_byte() {
        let body = "{ \"p\" : {\"items\": [1, 2.50], \"id\": 7, \"e\": {}} , \"a\": [] }";
        assert_eq!(
            set_at(body, "/p/id", "8").unwrap(),
            body.replace("\"id\": 7", "\"id\": 8")
        );
        assert_eq!(
            set_at(body, "/p/new", "\"x\"").unwrap(),
            body.replace("\"e\": {}}", "\"e\": {},\"new\":\"x\"}")
        );
        assert_eq!(
            set_at(body, "/p/e/k", "1").unwrap(),
            body.replace("{}}", "{\"k\":1}}")
        );
        assert_eq!(
            set_at(body, "/p/items/0", "0").unwrap(),
            body.replace("[1,", "[0,")
        );
        assert_eq!(
            set_at(body, "/p/items/-", "3").unwrap(),
            body.replace("2.50]", "2.50,3]")
        );
        assert_eq!(
            set_at(body, "/a/-", "3").unwrap(),
            body.replace("[] }", "[3] }")
        );
        assert_eq!(
            set_at(body, "/p/a~1b", "1").unwrap(),
            body.replace("{}}", "{},\"a/b\":1}")
        );
        assert_eq!(
            set_at(r#"{"\u0070":1}"#, "/p", "2").unwrap(),
            r#"{"\u0070":2}"#,
            "a key matched as serde reads it"
        );
    }

    #[test]
    fn set_refuses_what_it_cannot_place_saying_where() {
        let body = r#"{"p":{"items":[1,2],"id":7,"d":1,"d":2}}"#;
        for (pointer, says) in [
            ("/p/missing/x", "/p/missing/x: /p has no \"missing\""),
            ("/q/x", "the body has no \"q\""),
            ("/p/items/5", "/p/items has 2 elements, no index \"5\""),
            ("/p/items/01", "no index \"01\""),
            ("/p/id/x", "/p/id is a number, which has no members"),
            ("/p/d", "has the key \"d\" more than once"),
            ("/p/d/x", "has the key \"d\" more than once"),
        ] {
            let e = set_at(body, pointer, "1").unwrap_err();
            assert!(e.contains(says), "{pointer}: {e}");
        }
        assert!(set_at("{", "/a", "1").is_err());
    }

    #[test]
    fn deep_nesting_does_not_recurse() {
        let deep = format!(
            "{{\"p\":{}1{},\"q\":5}}",
            "[".repeat(50_000),
            "]".repeat(50_000)
        );
        assert_eq!(check(&deep), None);
        assert_eq!(compact(&deep), deep);
        assert_eq!(depth(&deep), 50_001);
        assert_eq!(depth(r#"{"a":"[[[","b":[{}]}"#), 3);
        assert_eq!(
            set_at(&deep, "/q", "6").unwrap(),
            deep.replace("\"q\":5", "\"q\":6")
        );
    }
}
