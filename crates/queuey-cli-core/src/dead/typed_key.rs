//! PURE: an AMQP value as one line of text that names it exactly (the typed key), and that line
//! read back.
//!
//! `dead ls --group-by header:NAME` counts by this key and `--header 'NAME:=KEY'` matches by it:
//! two values have one key only if they are the same AMQP value (every NaN of a float type is
//! one key). [`Value::display`] is for reading and is not such a name: the long string of the
//! byte 0xff shows as `\xff`, as does the text of those four characters.
//!
//! The key stays readable for the usual header, a text:
//!
//! - a long string that is UTF-8 text is the text itself (`acme`), unless that text could be
//!   read as something else: empty, with a backslash, a `"` first, space at either end, a
//!   character a terminal would not show, `(none)` (how a missing value shows), or starting
//!   with a type name and `:` (`i32:5`). Then, and for a long string that is not UTF-8, it is
//!   quoted: `"…"`, with `\\`, `\"`, `\u{202e}` for what a terminal would not show and `\xNN`
//!   for a byte that is not UTF-8 (`"\xff"`, while the four characters `\xff` are `"\\xff"`);
//! - anything else is its type name, `:` and its value: `i32:5`, `bool:true`, `f64:1.5`,
//!   `decimal:1.25`, `timestamp:1795960652`, `shortstr:"acme"`, `bytes:01ab` (hex),
//!   `void:`, `array:[i32:1, "a"]`, `table:{"region"="eu", "n"=i64:5}` (inside an array or a
//!   table every string is quoted).
//!
//! Every key is made of characters a terminal shows as themselves, so escaping it for one
//! changes nothing and cannot make two keys look alike.

use std::fmt::Write as _;

use super::value::Value;
use crate::sanitize::is_visible;

/// Every type name a key can start with (all of [`Value::type_name`]).
const TYPE_NAMES: [&str; 18] = [
    "bool",
    "i8",
    "u8",
    "i16",
    "u16",
    "i32",
    "u32",
    "i64",
    "f32",
    "f64",
    "decimal",
    "shortstr",
    "longstr",
    "timestamp",
    "array",
    "table",
    "bytes",
    "void",
];

/// How a missing value shows in a table of groups: a text that reads so is quoted.
const NONE: &str = "(none)";

impl Value {
    /// The typed key: see the module's documentation.
    pub fn key(&self) -> String {
        let mut out = String::new();
        write_key(&mut out, self, false);
        out
    }

    /// Reads a typed key back ([`Value::key`]). A bare text is a long string; a text with a
    /// backslash must be quoted (`"\\xff"` for those four characters, `"\xff"` for the byte),
    /// so that what was meant is never a guess.
    pub fn parse_key(text: &str) -> Result<Value, String> {
        let mut p = Parser { text, at: 0 };
        let v = p.value(false)?;
        if p.at != text.len() {
            return Err(format!(
                "unexpected {:?} after the value at {}",
                &text[p.at..],
                p.at
            ));
        }
        Ok(v)
    }
}

/// Whether `s` is shown as itself, unquoted, as a top-level long string.
fn bare(s: &str) -> bool {
    !s.is_empty()
        && s != NONE
        && !s.starts_with('"')
        && !s.starts_with(char::is_whitespace)
        && !s.ends_with(char::is_whitespace)
        && s.chars().all(|c| c != '\\' && is_visible(c))
        && !tagged(s)
}

/// Whether `s` starts with a type name and `:`.
fn tagged(s: &str) -> bool {
    s.split_once(':')
        .is_some_and(|(tag, _)| TYPE_NAMES.contains(&tag))
}

fn write_key(out: &mut String, v: &Value, nested: bool) {
    let tag = |out: &mut String| {
        out.push_str(v.type_name());
        out.push(':');
    };
    match v {
        Value::LongStr(b) => match std::str::from_utf8(b) {
            Ok(s) if !nested && bare(s) => out.push_str(s),
            _ => quote(out, b),
        },
        Value::ShortStr(s) => {
            tag(out);
            quote(out, s.as_bytes());
        }
        Value::Bytes(b) => {
            tag(out);
            out.push_str(&super::value::hex(b));
        }
        Value::Void => tag(out),
        Value::Array(items) => {
            tag(out);
            out.push('[');
            for (i, item) in items.iter().enumerate() {
                if i > 0 {
                    out.push_str(", ");
                }
                write_key(out, item, true);
            }
            out.push(']');
        }
        Value::Table(t) => {
            tag(out);
            out.push('{');
            for (i, (k, item)) in t.iter().enumerate() {
                if i > 0 {
                    out.push_str(", ");
                }
                quote(out, k.as_bytes());
                out.push('=');
                write_key(out, item, true);
            }
            out.push('}');
        }
        // What is left is scalar (`Value::is_scalar`, the one list of those variants): each
        // displays in one canonical way per value.
        scalar => {
            debug_assert!(scalar.is_scalar(), "{scalar:?}");
            tag(out);
            out.push_str(&scalar.display());
        }
    }
}

/// `b` quoted: `"`, UTF-8 text with `\\`, `\"` and `\u{…}` for what a terminal would not show,
/// `\xNN` for each byte that is not UTF-8, `"`.
fn quote(out: &mut String, b: &[u8]) {
    out.push('"');
    for chunk in b.utf8_chunks() {
        for c in chunk.valid().chars() {
            match c {
                '\\' => out.push_str("\\\\"),
                '"' => out.push_str("\\\""),
                c if !is_visible(c) => {
                    let _ = write!(out, "\\u{{{:x}}}", c as u32);
                }
                c => out.push(c),
            }
        }
        for byte in chunk.invalid() {
            let _ = write!(out, "\\x{byte:02x}");
        }
    }
    out.push('"');
}

struct Parser<'a> {
    text: &'a str,
    at: usize,
}

impl<'a> Parser<'a> {
    fn rest(&self) -> &'a str {
        &self.text[self.at..]
    }

    /// A scalar's text: to the end, or inside an array or a table to the next `,`, `]` or `}`.
    fn scalar(&mut self, nested: bool) -> &'a str {
        let rest = self.rest();
        let end = if nested {
            rest.find([',', ']', '}']).unwrap_or(rest.len())
        } else {
            rest.len()
        };
        self.at += end;
        &rest[..end]
    }

    fn eat(&mut self, s: &str) -> Result<(), String> {
        if self.rest().starts_with(s) {
            self.at += s.len();
            Ok(())
        } else {
            Err(format!("expected {s:?} at {} of {:?}", self.at, self.text))
        }
    }

    fn value(&mut self, nested: bool) -> Result<Value, String> {
        let rest = self.rest();
        if rest.starts_with('"') {
            return Ok(Value::LongStr(self.quoted()?));
        }
        let tag = rest
            .split_once(':')
            .map(|(t, _)| t)
            .filter(|t| TYPE_NAMES.contains(t));
        let Some(tag) = tag else {
            if nested {
                return Err(format!(
                    "expected a quoted string or TYPE:VALUE at {} of {:?}",
                    self.at, self.text
                ));
            }
            if rest.contains('\\') {
                return Err(format!(
                    "{rest:?} holds a backslash: quote it, \"\\\\\" for a backslash and \"\\xNN\" \
                     for a byte (\"\\\\xff\" is the four characters \\xff, \"\\xff\" the byte 0xff)"
                ));
            }
            self.at = self.text.len();
            return Ok(Value::LongStr(rest.as_bytes().to_vec()));
        };
        self.at += tag.len() + 1;
        let bad = |what: &str| format!("{what:?} does not read as a value of type {tag}");
        Ok(match tag {
            "bool" => match self.scalar(nested) {
                "true" => Value::Bool(true),
                "false" => Value::Bool(false),
                s => return Err(bad(s)),
            },
            "i8" | "u8" | "i16" | "u16" | "i32" | "u32" | "i64" | "timestamp" => {
                let s = self.scalar(nested);
                let n: i128 = s.parse().map_err(|_| bad(s))?;
                let fit = |r: Option<Value>| r.ok_or_else(|| bad(s));
                match tag {
                    "i8" => fit(i8::try_from(n).ok().map(Value::I8))?,
                    "u8" => fit(u8::try_from(n).ok().map(Value::U8))?,
                    "i16" => fit(i16::try_from(n).ok().map(Value::I16))?,
                    "u16" => fit(u16::try_from(n).ok().map(Value::U16))?,
                    "i32" => fit(i32::try_from(n).ok().map(Value::I32))?,
                    "u32" => fit(u32::try_from(n).ok().map(Value::U32))?,
                    "i64" => fit(i64::try_from(n).ok().map(Value::I64))?,
                    _ => fit(u64::try_from(n).ok().map(Value::Timestamp))?,
                }
            }
            "f32" => {
                let s = self.scalar(nested);
                Value::F32(s.parse().map_err(|_| bad(s))?)
            }
            "f64" => {
                let s = self.scalar(nested);
                Value::F64(s.parse().map_err(|_| bad(s))?)
            }
            "decimal" => {
                let s = self.scalar(nested);
                decimal(s).ok_or_else(|| bad(s))?
            }
            "shortstr" => {
                let b = self.quoted()?;
                Value::ShortStr(
                    String::from_utf8(b).map_err(|_| "a shortstr must be UTF-8".to_owned())?,
                )
            }
            "longstr" => Value::LongStr(self.quoted()?),
            "bytes" => {
                let s = self.scalar(nested);
                Value::Bytes(unhex(s).ok_or_else(|| bad(s))?)
            }
            "void" => Value::Void,
            "array" => {
                self.eat("[")?;
                let mut items = Vec::new();
                if !self.rest().starts_with(']') {
                    loop {
                        items.push(self.value(true)?);
                        if self.rest().starts_with(']') {
                            break;
                        }
                        self.eat(", ")?;
                    }
                }
                self.eat("]")?;
                Value::Array(items)
            }
            _ => {
                self.eat("{")?;
                let mut table = super::value::Table::new();
                if !self.rest().starts_with('}') {
                    loop {
                        let k = String::from_utf8(self.quoted()?)
                            .map_err(|_| "a table's key must be UTF-8".to_owned())?;
                        self.eat("=")?;
                        table.insert(k, self.value(true)?);
                        if self.rest().starts_with('}') {
                            break;
                        }
                        self.eat(", ")?;
                    }
                }
                self.eat("}")?;
                Value::Table(table)
            }
        })
    }

    /// A quoted string's bytes.
    fn quoted(&mut self) -> Result<Vec<u8>, String> {
        let start = self.at;
        self.eat("\"")?;
        let (text, base) = (self.text, self.at);
        let mut out = Vec::new();
        let mut chars = text[base..].char_indices();
        let unclosed = || format!("a quote opened at {start} of {text:?} is not closed");
        loop {
            let Some((i, c)) = chars.next() else {
                return Err(unclosed());
            };
            match c {
                '"' => {
                    self.at = base + i + 1;
                    return Ok(out);
                }
                '\\' => {
                    let bad = || {
                        format!(
                            "unknown escape at {} of {text:?}: write \\\\, \\\", \\xNN or \\u{{…}}",
                            base + i
                        )
                    };
                    match chars.next().map(|(_, c)| c) {
                        Some('\\') => out.push(b'\\'),
                        Some('"') => out.push(b'"'),
                        Some('x') => {
                            let hi = chars.next().and_then(|(_, c)| c.to_digit(16));
                            let lo = chars.next().and_then(|(_, c)| c.to_digit(16));
                            match (hi, lo) {
                                (Some(hi), Some(lo)) => {
                                    out.push(u8::try_from(hi * 16 + lo).map_err(|_| bad())?)
                                }
                                _ => return Err(bad()),
                            }
                        }
                        Some('u') => {
                            if chars.next().map(|(_, c)| c) != Some('{') {
                                return Err(bad());
                            }
                            let mut n: u32 = 0;
                            let mut digits = 0;
                            loop {
                                match chars.next().map(|(_, c)| c) {
                                    Some('}') if digits > 0 => break,
                                    Some(c) if digits < 6 => {
                                        n = n * 16 + c.to_digit(16).ok_or_else(bad)?;
                                        digits += 1;
                                    }
                                    _ => return Err(bad()),
                                }
                            }
                            let c = char::from_u32(n).ok_or_else(bad)?;
                            out.extend_from_slice(c.encode_utf8(&mut [0; 4]).as_bytes());
                        }
                        _ => return Err(bad()),
                    }
                }
                c => out.extend_from_slice(c.encode_utf8(&mut [0; 4]).as_bytes()),
            }
        }
    }
}

/// A decimal as [`Value::display`] writes it (`-12.5`): the scale is the digits after the
/// point; the value, read as a signed 32-bit integer, is kept as its bits.
fn decimal(s: &str) -> Option<Value> {
    let (negative, digits) = match s.strip_prefix('-') {
        Some(d) => (true, d),
        None => (false, s),
    };
    let (whole, frac) = digits.split_once('.').unwrap_or((digits, ""));
    if whole.is_empty()
        || (digits.contains('.') && frac.is_empty())
        || !whole
            .bytes()
            .chain(frac.bytes())
            .all(|b| b.is_ascii_digit())
    {
        return None;
    }
    let scale = u8::try_from(frac.len()).ok()?;
    let mut n: i64 = 0;
    for b in whole.bytes().chain(frac.bytes()) {
        n = n.checked_mul(10)?.checked_add(i64::from(b - b'0'))?;
        if n > 1 << 31 {
            return None;
        }
    }
    let signed = i32::try_from(if negative { -n } else { n }).ok()?;
    Some(Value::Decimal {
        scale,
        value: u32::from_ne_bytes(signed.to_ne_bytes()),
    })
}

fn unhex(s: &str) -> Option<Vec<u8>> {
    if !s.len().is_multiple_of(2) {
        return None;
    }
    (0..s.len())
        .step_by(2)
        .map(|i| u8::from_str_radix(s.get(i..i + 2)?, 16).ok())
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::dead::value::Table;

    #[test]
    fn text_is_itself_unless_it_could_be_read_as_something_else() {
        let s = |t: &str| Value::LongStr(t.as_bytes().to_vec()).key();
        assert_eq!(s("acme"), "acme");
        assert_eq!(s("eu:west"), "eu:west");
        assert_eq!(s("héllo wörld"), "héllo wörld");
        assert_eq!(s("\\xff"), "\"\\\\xff\"");
        assert_eq!(Value::LongStr(vec![0xff]).key(), "\"\\xff\"");
        assert_eq!(s("i32:5"), "\"i32:5\"");
        assert_eq!(s("(none)"), "\"(none)\"");
        assert_eq!(s(""), "\"\"");
        assert_eq!(s(" acme"), "\" acme\"");
        assert_eq!(s("\"q\""), "\"\\\"q\\\"\"");
        assert_eq!(s("a\u{202e}b\x1b"), "\"a\\u{202e}b\\u{1b}\"");
    }

    #[test]
    fn other_types_are_named() {
        assert_eq!(Value::I32(5).key(), "i32:5");
        assert_eq!(Value::I64(5).key(), "i64:5");
        assert_eq!(Value::Bool(true).key(), "bool:true");
        assert_eq!(Value::F64(-0.0).key(), "f64:-0");
        assert_eq!(Value::F64(f64::NAN).key(), "f64:NaN");
        assert_eq!(Value::ShortStr("acme".into()).key(), "shortstr:\"acme\"");
        assert_eq!(Value::Bytes(vec![1, 0xab]).key(), "bytes:01ab");
        assert_eq!(Value::Void.key(), "void:");
        let mut t = Table::new();
        t.insert("region".into(), Value::LongStr(b"eu".to_vec()));
        t.insert("n".into(), Value::I64(5));
        assert_eq!(
            Value::Array(vec![Value::Table(t), Value::LongStr(b"a, b]".to_vec())]).key(),
            "array:[table:{\"n\"=i64:5, \"region\"=\"eu\"}, \"a, b]\"]"
        );
    }

    #[test]
    fn keys_read_back() {
        for key in [
            "acme",
            "\"\\xff\"",
            "\"\\\\xff\"",
            "i32:-5",
            "decimal:-0.001",
            "array:[]",
            "table:{}",
            "array:[void:, bytes:, \"x\", table:{\"k\"=array:[f32:1.5]}]",
        ] {
            assert_eq!(Value::parse_key(key).unwrap().key(), key);
        }
        assert_eq!(
            Value::parse_key("\"\\u{e9}\\x00\"").unwrap(),
            Value::LongStr(vec![0xc3, 0xa9, 0])
        );
        for bad in [
            "\\xff",
            "i8:300",
            "u8:-1",
            "bool:yes",
            "\"open",
            "\"\\q\"",
            "array:[1]",
            "bytes:abc",
            "decimal:1.",
            "i32:5x",
            "array:[i32:1]]",
        ] {
            assert!(Value::parse_key(bad).is_err(), "{bad}");
        }
    }
}
