//! PURE: JSON Pointers (RFC 6901) into a message body, and the `POINTER=VALUE` conditions and
//! assignments of `--where` (the payload filter) and `dead edit --set`.
//!
//! serde_json's [`serde_json::Value::pointer`] resolves a pointer; this module checks that a
//! pointer is well formed before it is used (it starts with `/`, and `~` is only ever `~0` or
//! `~1`), reads a VALUE as JSON when it parses as JSON and as a string otherwise, compares
//! numbers by value (`42` equals `42.0`). (`dead edit --set` puts a value at a pointer with
//! [`super::json_text::set`].)

use serde_json::Value;

/// A JSON Pointer that [`check_pointer`] accepted.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Pointer(String);

impl Pointer {
    pub fn as_str(&self) -> &str {
        &self.0
    }

    /// The reference tokens, unescaped (`~1` is `/`, `~0` is `~`).
    pub fn tokens(&self) -> Vec<String> {
        self.0
            .split('/')
            .skip(1)
            .map(|t| t.replace("~1", "/").replace("~0", "~"))
            .collect()
    }
}

/// `text` as a pointer, or why it is not one.
pub fn check_pointer(text: &str) -> Result<Pointer, String> {
    if !text.starts_with('/') {
        return Err(format!(
            "{text:?} is not a JSON Pointer, which starts with \"/\" (RFC 6901), as in \
             /payload/customer/id"
        ));
    }
    let mut chars = text.chars();
    while let Some(c) = chars.next() {
        if c == '~' && !matches!(chars.next(), Some('0' | '1')) {
            return Err(format!(
                "{text:?} is not a JSON Pointer: \"~\" is written ~0 and \"/\" inside a key ~1 \
                 (RFC 6901)"
            ));
        }
    }
    Ok(Pointer(text.to_owned()))
}

/// The pointer to the member `key` of `parent` (escaping `~` and `/`).
pub fn child(parent: &str, key: &str) -> String {
    format!("{parent}/{}", key.replace('~', "~0").replace('/', "~1"))
}

/// VALUE as the user wrote it: JSON when it parses as JSON (`42`, `true`, `null`, `"42"`,
/// `{"a":1}`), else the text itself as a JSON string (`acme`).
pub fn parse_value(text: &str) -> Value {
    serde_json::from_str(text).unwrap_or_else(|_| Value::String(text.to_owned()))
}

/// `POINTER=VALUE` (split at the first `=`: a key holding `=` cannot be named) or, when
/// `value_optional`, `POINTER` alone.
pub fn parse_assignment(
    text: &str,
    value_optional: bool,
) -> Result<(Pointer, Option<Value>), String> {
    let (pointer, value) = match text.split_once('=') {
        Some((p, v)) => (p, Some(parse_value(v))),
        None if value_optional => (text, None),
        None => {
            return Err(format!(
                "{text:?} has no \"=\": write POINTER=VALUE, like /payload/customer/id=42"
            ));
        }
    };
    Ok((check_pointer(pointer)?, value))
}

/// Whether two JSON values are equal, numbers compared by value (`1` equals `1.0`; serde_json's
/// own equality tells an integer from a float).
pub fn json_equal(a: &Value, b: &Value) -> bool {
    match (a, b) {
        (Value::Number(x), Value::Number(y)) => {
            if let (Some(x), Some(y)) = (x.as_i64(), y.as_i64()) {
                x == y
            } else if let (Some(x), Some(y)) = (x.as_u64(), y.as_u64()) {
                x == y
            } else {
                x.as_f64().zip(y.as_f64()).is_some_and(|(x, y)| x == y)
            }
        }
        (Value::Array(x), Value::Array(y)) => {
            x.len() == y.len() && x.iter().zip(y).all(|(x, y)| json_equal(x, y))
        }
        (Value::Object(x), Value::Object(y)) => {
            x.len() == y.len()
                && x.iter()
                    .all(|(k, v)| y.get(k).is_some_and(|w| json_equal(v, w)))
        }
        _ => a == b,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn pointers_start_with_a_slash_and_escape_only_tilde_and_slash() {
        assert!(check_pointer("/payload/id").is_ok());
        assert!(check_pointer("/a~1b/c~0d").is_ok());
        assert!(check_pointer("/").is_ok(), "the member named \"\"");
        for bad in ["", "payload/id", "/a~2", "/a~", "#/a"] {
            assert!(check_pointer(bad).is_err(), "{bad:?}");
        }
        assert_eq!(
            check_pointer("/a~1b/c~0d/~01").unwrap().tokens(),
            vec!["a/b", "c~d", "~1"]
        );
        assert_eq!(child("/p", "a/b~c"), "/p/a~1b~0c");
    }

    #[test]
    fn values_are_json_when_they_parse_else_strings() {
        assert_eq!(parse_value("42"), json!(42));
        assert_eq!(parse_value("\"42\""), json!("42"));
        assert_eq!(parse_value("acme"), json!("acme"));
        assert_eq!(parse_value("null"), Value::Null);
        assert_eq!(parse_value("{\"a\":[1]}"), json!({"a": [1]}));
        assert_eq!(parse_value(""), json!(""));
        let (p, v) = parse_assignment("/a=b=c", false).unwrap();
        assert_eq!((p.as_str(), v), ("/a", Some(json!("b=c"))));
        assert_eq!(parse_assignment("/a", true).unwrap().1, None);
        assert!(parse_assignment("/a", false).is_err());
        assert!(parse_assignment("a=1", true).is_err());
    }

    #[test]
    fn numbers_compare_by_value() {
        assert!(json_equal(&json!(42), &json!(42.0)));
        assert!(json_equal(&json!(u64::MAX), &json!(u64::MAX)));
        assert!(json_equal(&json!(-1), &json!(-1.0)));
        assert!(!json_equal(&json!(42), &json!("42")));
        assert!(json_equal(&json!({"a": [1, 2.0]}), &json!({"a": [1.0, 2]})));
        assert!(!json_equal(&json!({"a": 1}), &json!({"a": 1, "b": 2})));
        assert!(!json_equal(&json!([1]), &json!([1, 1])));
    }
}
