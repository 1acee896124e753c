//! JSON as queuey prints it: serde_json's text, with every character that could fool a
//! terminal and that JSON lets through raw written as a `\uXXXX` escape.
//!
//! serde_json escapes the C0 controls (`\u001b`, `\n`) itself, but writes DEL, the C1 controls
//! (`U+009B` is a one-character CSI to some terminals) and the bidi and other invisible format
//! characters (`U+202E` makes `evil` read as `live`) as they are: a message id or a header from
//! a stranger printed by `dead ls -o json` or `dead export` would reach the terminal raw. As
//! escapes they are the same JSON strings to every parser, and visible to a reader. Printable
//! text, non-ASCII letters included, is kept as it is.

use std::io;

use serde::Serialize;
use serde_json::ser::{CompactFormatter, Formatter, PrettyFormatter};

use crate::output::sanitize::is_visible;

/// `value` as pretty JSON (serde_json's layout), escaped as the module says.
pub fn to_string_pretty<T: Serialize + ?Sized>(value: &T) -> serde_json::Result<String> {
    let mut out = Vec::with_capacity(256);
    let mut ser =
        serde_json::Serializer::with_formatter(&mut out, Escaping(PrettyFormatter::new()));
    value.serialize(&mut ser)?;
    text(out)
}

/// `value` as compact JSON on one line, escaped as the module says.
pub fn to_string<T: Serialize + ?Sized>(value: &T) -> serde_json::Result<String> {
    let mut out = Vec::with_capacity(256);
    to_writer(&mut out, value)?;
    text(out)
}

/// `value` as compact JSON on one line to `writer`, escaped as the module says.
pub fn to_writer<W: io::Write, T: Serialize + ?Sized>(
    writer: W,
    value: &T,
) -> serde_json::Result<()> {
    let mut ser = serde_json::Serializer::with_formatter(writer, Escaping(CompactFormatter));
    value.serialize(&mut ser)
}

/// serde_json writes UTF-8, and the escapes are ASCII.
fn text(bytes: Vec<u8>) -> serde_json::Result<String> {
    String::from_utf8(bytes).map_err(|e| serde::ser::Error::custom(e.to_string()))
}

/// `text` with every character that is not visible escaped as `\uXXXX` (UTF-16 units), but
/// for the C0 controls: serde_json escapes those inside strings itself, and between the tokens
/// of a raw fragment they are JSON's whitespace.
fn write_escaped<W: ?Sized + io::Write>(writer: &mut W, text: &str) -> io::Result<()> {
    let mut start = 0;
    for (i, c) in text.char_indices() {
        if is_visible(c) || u32::from(c) < 0x20 {
            continue;
        }
        writer.write_all(&text.as_bytes()[start..i])?;
        let mut units = [0u16; 2];
        for unit in c.encode_utf16(&mut units) {
            write!(writer, "\\u{unit:04x}")?;
        }
        start = i + c.len_utf8();
    }
    writer.write_all(&text.as_bytes()[start..])
}

/// A serde_json formatter (`.0`: compact or pretty) that escapes as the module says.
struct Escaping<F>(F);

impl<F: Formatter> Formatter for Escaping<F> {
    fn write_string_fragment<W: ?Sized + io::Write>(
        &mut self,
        writer: &mut W,
        fragment: &str,
    ) -> io::Result<()> {
        write_escaped(writer, fragment)
    }

    fn write_raw_fragment<W: ?Sized + io::Write>(
        &mut self,
        writer: &mut W,
        fragment: &str,
    ) -> io::Result<()> {
        write_escaped(writer, fragment)
    }

    // The layout is the inner formatter's: every method `PrettyFormatter` overrides.
    fn begin_array<W: ?Sized + io::Write>(&mut self, writer: &mut W) -> io::Result<()> {
        self.0.begin_array(writer)
    }

    fn end_array<W: ?Sized + io::Write>(&mut self, writer: &mut W) -> io::Result<()> {
        self.0.end_array(writer)
    }

    fn begin_array_value<W: ?Sized + io::Write>(
        &mut self,
        writer: &mut W,
        first: bool,
    ) -> io::Result<()> {
        self.0.begin_array_value(writer, first)
    }

    fn end_array_value<W: ?Sized + io::Write>(&mut self, writer: &mut W) -> io::Result<()> {
        self.0.end_array_value(writer)
    }

    fn begin_object<W: ?Sized + io::Write>(&mut self, writer: &mut W) -> io::Result<()> {
        self.0.begin_object(writer)
    }

    fn end_object<W: ?Sized + io::Write>(&mut self, writer: &mut W) -> io::Result<()> {
        self.0.end_object(writer)
    }

    fn begin_object_key<W: ?Sized + io::Write>(
        &mut self,
        writer: &mut W,
        first: bool,
    ) -> io::Result<()> {
        self.0.begin_object_key(writer, first)
    }

    fn end_object_key<W: ?Sized + io::Write>(&mut self, writer: &mut W) -> io::Result<()> {
        self.0.end_object_key(writer)
    }

    fn begin_object_value<W: ?Sized + io::Write>(&mut self, writer: &mut W) -> io::Result<()> {
        self.0.begin_object_value(writer)
    }

    fn end_object_value<W: ?Sized + io::Write>(&mut self, writer: &mut W) -> io::Result<()> {
        self.0.end_object_value(writer)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    /// What could fool a terminal is escaped, in keys and values; the JSON reads back the
    /// same; the layout is serde_json's.
    #[test]
    fn json_escapes_what_could_fool_a_terminal_and_reads_back_the_same() {
        let value = json!({
            "id\u{202e}": "a\u{9b}2J\u{7f}b\u{1b}[31m",
            "tag": "\u{e0041}\u{200b}",
            "ok": "ünïcødé 注文 ✓ C:\\dir \"q\"",
            "n": [1, -0.5, null, true],
        });
        for text in [
            to_string(&value).unwrap(),
            to_string_pretty(&value).unwrap(),
        ] {
            assert!(text.chars().all(|c| is_visible(c) || c == '\n'), "{text:?}");
            assert!(
                text.contains(r#""id\u202e""#)
                    && text.contains(r#""a\u009b2J\u007fb\u001b[31m""#)
                    && text.contains(r#""\udb40\udc41\u200b""#)
                    && text.contains("ünïcødé 注文 ✓ C:\\\\dir \\\"q\\\""),
                "{text}"
            );
            let back: serde_json::Value = serde_json::from_str(&text).unwrap();
            assert_eq!(back, value);
        }
        let plain = json!({"a": [1, {"b": "c"}], "d": {}});
        assert_eq!(
            to_string_pretty(&plain).unwrap(),
            serde_json::to_string_pretty(&plain).unwrap()
        );
        assert_eq!(to_string(&plain).unwrap(), plain.to_string());
    }
}
