//! PURE: AMQP field values and message properties, independent of the AMQP client, with a lossless
//! typed JSON form (the export format) and a human form (tables and `dead show`).
//!
//! Every AMQP 0-9-1 field type RabbitMQ sends has its own variant, so nothing is lost between
//! a delivery, an export file and a replayed copy: a `LongInt` 5 stays a `LongInt` 5, a string
//! of bytes that are not UTF-8 stays those bytes.

use std::collections::BTreeMap;
use std::fmt::Write as _;

use base64::Engine as _;
use base64::engine::general_purpose::STANDARD as B64;
use serde::ser::{Serialize, SerializeMap, Serializer};
use serde_json::Value as Json;

/// A field table. Keys are AMQP short strings; the AMQP client keeps them sorted.
pub type Table = BTreeMap<String, Value>;

/// One AMQP field value.
#[derive(Clone, Debug, PartialEq)]
pub enum Value {
    Bool(bool),
    I8(i8),
    U8(u8),
    I16(i16),
    U16(u16),
    I32(i32),
    U32(u32),
    I64(i64),
    F32(f32),
    F64(f64),
    Decimal {
        scale: u8,
        value: u32,
    },
    ShortStr(String),
    /// A long string: bytes, usually but not always UTF-8.
    LongStr(Vec<u8>),
    /// Seconds since the Unix epoch.
    Timestamp(u64),
    Array(Vec<Value>),
    Table(Table),
    Bytes(Vec<u8>),
    Void,
}

impl Value {
    /// The type name used in the export format and in `dead show`.
    pub fn type_name(&self) -> &'static str {
        match self {
            Value::Bool(_) => "bool",
            Value::I8(_) => "i8",
            Value::U8(_) => "u8",
            Value::I16(_) => "i16",
            Value::U16(_) => "u16",
            Value::I32(_) => "i32",
            Value::U32(_) => "u32",
            Value::I64(_) => "i64",
            Value::F32(_) => "f32",
            Value::F64(_) => "f64",
            Value::Decimal { .. } => "decimal",
            Value::ShortStr(_) => "shortstr",
            Value::LongStr(_) => "longstr",
            Value::Timestamp(_) => "timestamp",
            Value::Array(_) => "array",
            Value::Table(_) => "table",
            Value::Bytes(_) => "bytes",
            Value::Void => "void",
        }
    }

    /// The value as an integer, whatever the integer type (other clients send other widths).
    pub fn as_integer(&self) -> Option<i128> {
        match *self {
            Value::I8(n) => Some(n.into()),
            Value::U8(n) => Some(n.into()),
            Value::I16(n) => Some(n.into()),
            Value::U16(n) => Some(n.into()),
            Value::I32(n) => Some(n.into()),
            Value::U32(n) => Some(n.into()),
            Value::I64(n) => Some(n.into()),
            Value::Timestamp(n) => Some(n.into()),
            _ => None,
        }
    }

    /// The value as text when it is a string (short or long); bytes that are not UTF-8 are
    /// `None` (use [`Value::display`] to show them).
    pub fn as_text(&self) -> Option<&str> {
        match self {
            Value::ShortStr(s) => Some(s),
            Value::LongStr(b) => std::str::from_utf8(b).ok(),
            _ => None,
        }
    }

    /// A boolean, a number, a decimal or a timestamp: a value whose [`Value::display`] is one
    /// canonical text per value (floats the shortest text that reads back as the same float,
    /// `-0`, `NaN`, `inf` and `-inf` included). Strings, bytes, arrays, tables and void are not.
    /// The one list of these variants: the filters and the grouping keys ask this.
    pub fn is_scalar(&self) -> bool {
        match self {
            Value::Bool(_)
            | Value::I8(_)
            | Value::U8(_)
            | Value::I16(_)
            | Value::U16(_)
            | Value::I32(_)
            | Value::U32(_)
            | Value::I64(_)
            | Value::F32(_)
            | Value::F64(_)
            | Value::Decimal { .. }
            | Value::Timestamp(_) => true,
            Value::ShortStr(_)
            | Value::LongStr(_)
            | Value::Array(_)
            | Value::Table(_)
            | Value::Bytes(_)
            | Value::Void => false,
        }
    }

    /// A one-line human form, not escaped for terminals (callers sanitise): strings as they
    /// are (non-UTF-8 bytes as `\xNN`), integers in decimal, timestamps as seconds, arrays and
    /// tables in brackets.
    pub fn display(&self) -> String {
        match self {
            Value::Bool(b) => b.to_string(),
            Value::I8(n) => n.to_string(),
            Value::U8(n) => n.to_string(),
            Value::I16(n) => n.to_string(),
            Value::U16(n) => n.to_string(),
            Value::I32(n) => n.to_string(),
            Value::U32(n) => n.to_string(),
            Value::I64(n) => n.to_string(),
            Value::F32(x) => x.to_string(),
            Value::F64(x) => x.to_string(),
            Value::Decimal { scale, value } => decimal_text(*scale, *value),
            Value::ShortStr(s) => s.clone(),
            Value::LongStr(b) => bytes_text(b),
            Value::Timestamp(t) => t.to_string(),
            Value::Array(items) => {
                let inner: Vec<String> = items.iter().map(Value::display).collect();
                format!("[{}]", inner.join(", "))
            }
            Value::Table(t) => {
                let inner: Vec<String> = t
                    .iter()
                    .map(|(k, v)| format!("{k}={}", v.display()))
                    .collect();
                format!("{{{}}}", inner.join(", "))
            }
            Value::Bytes(b) => format!("<{} bytes: {}>", b.len(), hex_preview(b, 32)),
            Value::Void => "void".to_owned(),
        }
    }

    /// The lossless typed JSON form: `{"type": "i32", "value": 5}`, strings that are not
    /// UTF-8 and byte arrays as `{"type": "longstr", "base64": "…"}`, non-finite floats as
    /// strings (`"NaN"`, `"inf"`, `"-inf"`).
    pub fn to_typed_json(&self) -> Json {
        // Serialising these types cannot fail: every map key is a string.
        serde_json::to_value(TypedJson(self)).unwrap_or(Json::Null)
    }

    /// Reads the typed JSON form back; the error names what is wrong.
    pub fn from_typed_json(j: &Json) -> Result<Value, String> {
        let obj = j
            .as_object()
            .ok_or_else(|| format!("a typed value must be an object, got {j}"))?;
        let t = obj
            .get("type")
            .and_then(Json::as_str)
            .ok_or_else(|| "a typed value needs a \"type\"".to_owned())?;
        let v = obj.get("value");
        let int = |lo: i128, hi: i128| -> Result<i128, String> {
            let n = v
                .and_then(|v| {
                    v.as_i64()
                        .map(i128::from)
                        .or_else(|| v.as_u64().map(i128::from))
                })
                .ok_or_else(|| format!("{t} needs an integer \"value\""))?;
            if n < lo || n > hi {
                return Err(format!("{n} does not fit {t}"));
            }
            Ok(n)
        };
        let bytes = || -> Result<Vec<u8>, String> {
            if let Some(b) = obj.get("base64").and_then(Json::as_str) {
                return B64.decode(b).map_err(|e| format!("bad base64 in {t}: {e}"));
            }
            v.and_then(Json::as_str)
                .map(|s| s.as_bytes().to_vec())
                .ok_or_else(|| format!("{t} needs a string \"value\" or \"base64\""))
        };
        // Every range check above makes these conversions lossless; `unwrap_or` is unreachable.
        Ok(match t {
            "bool" => Value::Bool(
                v.and_then(Json::as_bool)
                    .ok_or_else(|| "bool needs a boolean \"value\"".to_owned())?,
            ),
            "i8" => Value::I8(i8::try_from(int(i8::MIN.into(), i8::MAX.into())?).unwrap_or(0)),
            "u8" => Value::U8(u8::try_from(int(0, u8::MAX.into())?).unwrap_or(0)),
            "i16" => Value::I16(i16::try_from(int(i16::MIN.into(), i16::MAX.into())?).unwrap_or(0)),
            "u16" => Value::U16(u16::try_from(int(0, u16::MAX.into())?).unwrap_or(0)),
            "i32" => Value::I32(i32::try_from(int(i32::MIN.into(), i32::MAX.into())?).unwrap_or(0)),
            "u32" => Value::U32(u32::try_from(int(0, u32::MAX.into())?).unwrap_or(0)),
            "i64" => Value::I64(i64::try_from(int(i64::MIN.into(), i64::MAX.into())?).unwrap_or(0)),
            "timestamp" => Value::Timestamp(u64::try_from(int(0, u64::MAX.into())?).unwrap_or(0)),
            "f32" => Value::F32(float_from_json(v, t)? as f32),
            "f64" => Value::F64(float_from_json(v, t)?),
            "decimal" => {
                let scale = obj
                    .get("scale")
                    .and_then(Json::as_u64)
                    .and_then(|s| u8::try_from(s).ok())
                    .ok_or_else(|| "decimal needs a \"scale\" 0-255".to_owned())?;
                let value = u32::try_from(int(0, u32::MAX.into())?).unwrap_or(0);
                Value::Decimal { scale, value }
            }
            "shortstr" => Value::ShortStr(
                String::from_utf8(bytes()?).map_err(|_| "a shortstr must be UTF-8".to_owned())?,
            ),
            "longstr" => Value::LongStr(bytes()?),
            "bytes" => Value::Bytes(bytes()?),
            "array" => {
                let items = v
                    .and_then(Json::as_array)
                    .ok_or_else(|| "array needs an array \"value\"".to_owned())?;
                Value::Array(
                    items
                        .iter()
                        .map(Value::from_typed_json)
                        .collect::<Result<_, _>>()?,
                )
            }
            "table" => Value::Table(table_from_typed_json(
                v.ok_or_else(|| "table needs an object \"value\"".to_owned())?,
            )?),
            "void" => Value::Void,
            other => return Err(format!("unknown field type {other:?}")),
        })
    }
}

fn float_from_json(v: Option<&Json>, t: &str) -> Result<f64, String> {
    match v {
        Some(Json::Number(n)) => n.as_f64().ok_or_else(|| format!("bad {t}")),
        Some(Json::String(s)) if s == "NaN" => Ok(f64::NAN),
        Some(Json::String(s)) if s == "inf" => Ok(f64::INFINITY),
        Some(Json::String(s)) if s == "-inf" => Ok(f64::NEG_INFINITY),
        _ => Err(format!("{t} needs a number \"value\"")),
    }
}

/// Reads a table in the typed JSON form: `{"key": {"type": …, "value": …}, …}`.
pub fn table_from_typed_json(j: &Json) -> Result<Table, String> {
    let obj = j
        .as_object()
        .ok_or_else(|| "a table must be a JSON object".to_owned())?;
    obj.iter()
        .map(|(k, v)| {
            Value::from_typed_json(v)
                .map(|v| (k.clone(), v))
                .map_err(|e| format!("{k}: {e}"))
        })
        .collect()
}

/// The decimal's 32 value bits are read as signed, as RabbitMQ and its clients (pika, the Java
/// client) write them, though AMQP 0-9-1's grammar says unsigned: `-0.001` is `-0.001`, not
/// `4294967.295`. Only the text: the value is kept as its bits, copied and exported unchanged.
fn decimal_text(scale: u8, value: u32) -> String {
    let signed = i32::from_ne_bytes(value.to_ne_bytes());
    let sign = if signed < 0 { "-" } else { "" };
    let digits = signed.unsigned_abs().to_string();
    let scale = usize::from(scale);
    if scale == 0 {
        return format!("{sign}{digits}");
    }
    if digits.len() > scale {
        let (a, b) = digits.split_at(digits.len() - scale);
        format!("{sign}{a}.{b}")
    } else {
        format!("{sign}0.{}{digits}", "0".repeat(scale - digits.len()))
    }
}

/// Bytes as text: UTF-8 kept, every byte of an invalid sequence shown as `\xNN`.
pub fn bytes_text(b: &[u8]) -> String {
    let mut out = String::with_capacity(b.len());
    for chunk in b.utf8_chunks() {
        out.push_str(chunk.valid());
        for byte in chunk.invalid() {
            let _ = write!(out, "\\x{byte:02x}");
        }
    }
    out
}

/// The bytes in lowercase hex, two digits each: the one hex writer (previews, digests, file
/// names). Written digit by digit, not through `write!`: it runs for every message's digest.
pub fn hex(bytes: &[u8]) -> String {
    const DIGITS: &[u8; 16] = b"0123456789abcdef";
    let mut out = String::with_capacity(bytes.len() * 2);
    for byte in bytes {
        out.push(char::from(DIGITS[usize::from(byte >> 4)]));
        out.push(char::from(DIGITS[usize::from(byte & 0xf)]));
    }
    out
}

/// The first `max` bytes in hex, `…` when cut.
pub fn hex_preview(b: &[u8], max: usize) -> String {
    let mut out = hex(&b[..b.len().min(max)]);
    if b.len() > max {
        out.push('…');
    }
    out
}

/// The typed JSON form of a value, written straight to a serializer: the same text as
/// `serde_json::to_string(&value.to_typed_json())` (keys in the same order, the same numbers),
/// without building the tree, for what runs once per message (the journal's digest).
struct TypedJson<'a>(&'a Value);

impl Serialize for TypedJson<'_> {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        let v = self.0;
        let mut m = serializer.serialize_map(None)?;
        m.serialize_entry("type", v.type_name())?;
        match v {
            Value::Bool(b) => m.serialize_entry("value", b)?,
            Value::I8(n) => m.serialize_entry("value", n)?,
            Value::U8(n) => m.serialize_entry("value", n)?,
            Value::I16(n) => m.serialize_entry("value", n)?,
            Value::U16(n) => m.serialize_entry("value", n)?,
            Value::I32(n) => m.serialize_entry("value", n)?,
            Value::U32(n) => m.serialize_entry("value", n)?,
            Value::I64(n) => m.serialize_entry("value", n)?,
            Value::F32(x) => m.serialize_entry("value", &TypedFloat(f64::from(*x)))?,
            Value::F64(x) => m.serialize_entry("value", &TypedFloat(*x))?,
            Value::Decimal { scale, value } => {
                m.serialize_entry("scale", scale)?;
                m.serialize_entry("value", value)?;
            }
            Value::ShortStr(s) => m.serialize_entry("value", s)?,
            Value::LongStr(b) => match std::str::from_utf8(b) {
                Ok(s) => m.serialize_entry("value", s)?,
                Err(_) => m.serialize_entry("base64", &B64.encode(b))?,
            },
            Value::Timestamp(n) => m.serialize_entry("value", n)?,
            Value::Array(items) => {
                let items: Vec<TypedJson<'_>> = items.iter().map(TypedJson).collect();
                m.serialize_entry("value", &items)?;
            }
            Value::Table(table) => m.serialize_entry("value", &TypedTable(table, Keys::ALL))?,
            Value::Bytes(b) => m.serialize_entry("base64", &B64.encode(b))?,
            Value::Void => {}
        }
        m.end()
    }
}

/// A float in the typed JSON form: a number, or `"NaN"`, `"inf"`, `"-inf"`.
struct TypedFloat(f64);

impl Serialize for TypedFloat {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        let x = self.0;
        if x.is_finite() {
            serializer.serialize_f64(x)
        } else if x.is_nan() {
            serializer.serialize_str("NaN")
        } else if x > 0.0 {
            serializer.serialize_str("inf")
        } else {
            serializer.serialize_str("-inf")
        }
    }
}

/// A table in the typed JSON form (`{"key": {"type": …, "value": …}, …}`), of the keys `.1`
/// selects.
struct TypedTable<'a>(&'a Table, Keys<'a>);

/// Which keys of a table are written.
#[derive(Clone, Copy, Debug)]
pub enum Keys<'a> {
    /// Every key but these.
    Except(&'a [&'a str]),
    /// Only these.
    Only(&'a [&'a str]),
}

impl Keys<'_> {
    /// Every key.
    pub const ALL: Keys<'static> = Keys::Except(&[]);

    fn take(&self, key: &str) -> bool {
        match self {
            Keys::Except(keys) => !keys.contains(&key),
            Keys::Only(keys) => keys.contains(&key),
        }
    }
}

impl Serialize for TypedTable<'_> {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        let mut m = serializer.serialize_map(None)?;
        for (k, v) in self.0 {
            if self.1.take(k) {
                m.serialize_entry(k, &TypedJson(v))?;
            }
        }
        m.end()
    }
}

/// The typed JSON form of the keys of `table` that `keys` selects.
pub fn typed_table_json(table: &Table, keys: Keys<'_>) -> Json {
    serde_json::to_value(TypedTable(table, keys)).unwrap_or(Json::Null)
}

/// Properties as [`Properties::to_json`] writes them, with only the headers `headers` selects.
/// With `always_headers`, properties without a header table are written as with an empty one.
pub struct TypedProperties<'a> {
    pub props: &'a Properties,
    pub headers: Keys<'a>,
    pub always_headers: bool,
}

impl Serialize for TypedProperties<'_> {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        /// The text properties among `fields` that are set, in order.
        fn texts<M: SerializeMap>(
            m: &mut M,
            fields: &[(&str, &Option<String>)],
        ) -> Result<(), M::Error> {
            for (k, v) in fields {
                if let Some(v) = v {
                    m.serialize_entry(k, v)?;
                }
            }
            Ok(())
        }
        let p = self.props;
        let mut m = serializer.serialize_map(None)?;
        texts(
            &mut m,
            &[
                ("content_type", &p.content_type),
                ("content_encoding", &p.content_encoding),
            ],
        )?;
        match &p.headers {
            Some(h) => m.serialize_entry("headers", &TypedTable(h, self.headers))?,
            None if self.always_headers => {
                m.serialize_entry("headers", &TypedTable(&Table::new(), Keys::ALL))?;
            }
            None => {}
        }
        for (k, v) in [("delivery_mode", p.delivery_mode), ("priority", p.priority)] {
            if let Some(v) = v {
                m.serialize_entry(k, &v)?;
            }
        }
        texts(
            &mut m,
            &[
                ("correlation_id", &p.correlation_id),
                ("reply_to", &p.reply_to),
                ("expiration", &p.expiration),
                ("message_id", &p.message_id),
            ],
        )?;
        if let Some(t) = p.timestamp {
            m.serialize_entry("timestamp", &t)?;
        }
        texts(
            &mut m,
            &[
                ("type", &p.kind),
                ("user_id", &p.user_id),
                ("app_id", &p.app_id),
                ("cluster_id", &p.cluster_id),
            ],
        )?;
        m.end()
    }
}

/// The basic properties of a message. `None` is "not set", which AMQP distinguishes from empty.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Properties {
    pub content_type: Option<String>,
    pub content_encoding: Option<String>,
    pub headers: Option<Table>,
    pub delivery_mode: Option<u8>,
    pub priority: Option<u8>,
    pub correlation_id: Option<String>,
    pub reply_to: Option<String>,
    pub expiration: Option<String>,
    pub message_id: Option<String>,
    /// Seconds since the Unix epoch.
    pub timestamp: Option<u64>,
    /// The `type` property.
    pub kind: Option<String>,
    pub user_id: Option<String>,
    pub app_id: Option<String>,
    pub cluster_id: Option<String>,
}

impl Properties {
    /// A copy of every property but the headers (`None`), without copying the headers.
    pub fn clone_without_headers(&self) -> Properties {
        Properties {
            content_type: self.content_type.clone(),
            content_encoding: self.content_encoding.clone(),
            headers: None,
            delivery_mode: self.delivery_mode,
            priority: self.priority,
            correlation_id: self.correlation_id.clone(),
            reply_to: self.reply_to.clone(),
            expiration: self.expiration.clone(),
            message_id: self.message_id.clone(),
            timestamp: self.timestamp,
            kind: self.kind.clone(),
            user_id: self.user_id.clone(),
            app_id: self.app_id.clone(),
            cluster_id: self.cluster_id.clone(),
        }
    }

    pub fn header(&self, name: &str) -> Option<&Value> {
        self.headers.as_ref().and_then(|h| h.get(name))
    }

    /// The typed JSON form: set properties only; headers as a typed table.
    pub fn to_json(&self) -> Json {
        self.to_json_with(Keys::ALL)
    }

    /// The typed JSON form, with only the headers `headers` selects.
    pub fn to_json_with(&self, headers: Keys<'_>) -> Json {
        serde_json::to_value(TypedProperties {
            props: self,
            headers,
            always_headers: false,
        })
        .unwrap_or(Json::Null)
    }

    pub fn from_json(j: &Json) -> Result<Properties, String> {
        let obj = j
            .as_object()
            .ok_or_else(|| "properties must be a JSON object".to_owned())?;
        for key in obj.keys() {
            if !PROPERTY_NAMES.contains(&key.as_str()) {
                return Err(format!("unknown property {key:?}"));
            }
        }
        let text = |k: &str| -> Result<Option<String>, String> {
            match obj.get(k) {
                None | Some(Json::Null) => Ok(None),
                Some(Json::String(s)) => Ok(Some(s.clone())),
                Some(other) => Err(format!("property {k} must be a string, got {other}")),
            }
        };
        let small = |k: &str| -> Result<Option<u8>, String> {
            match obj.get(k) {
                None | Some(Json::Null) => Ok(None),
                Some(v) => v
                    .as_u64()
                    .and_then(|n| u8::try_from(n).ok())
                    .map(Some)
                    .ok_or_else(|| format!("property {k} must be 0-255, got {v}")),
            }
        };
        Ok(Properties {
            content_type: text("content_type")?,
            content_encoding: text("content_encoding")?,
            headers: match obj.get("headers") {
                None | Some(Json::Null) => None,
                Some(h) => Some(table_from_typed_json(h).map_err(|e| format!("headers: {e}"))?),
            },
            delivery_mode: small("delivery_mode")?,
            priority: small("priority")?,
            correlation_id: text("correlation_id")?,
            reply_to: text("reply_to")?,
            expiration: text("expiration")?,
            message_id: text("message_id")?,
            timestamp: match obj.get("timestamp") {
                None | Some(Json::Null) => None,
                Some(v) => Some(
                    v.as_u64()
                        .ok_or_else(|| format!("property timestamp must be seconds, got {v}"))?,
                ),
            },
            kind: text("type")?,
            user_id: text("user_id")?,
            app_id: text("app_id")?,
            cluster_id: text("cluster_id")?,
        })
    }
}

const PROPERTY_NAMES: [&str; 14] = [
    "content_type",
    "content_encoding",
    "headers",
    "delivery_mode",
    "priority",
    "correlation_id",
    "reply_to",
    "expiration",
    "message_id",
    "timestamp",
    "type",
    "user_id",
    "app_id",
    "cluster_id",
];

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn hex_is_two_lowercase_digits_a_byte() {
        let all: Vec<u8> = (0..=255).collect();
        let expected: String = all.iter().map(|b| format!("{b:02x}")).collect();
        assert_eq!(hex(&all), expected);
        assert_eq!(hex(&[]), "");
    }

    fn every_type() -> Value {
        let mut t = Table::new();
        t.insert(
            "nested".into(),
            Value::Array(vec![Value::I8(-1), Value::Void]),
        );
        Value::Array(vec![
            Value::Bool(true),
            Value::I8(-8),
            Value::U8(8),
            Value::I16(-16),
            Value::U16(16),
            Value::I32(-32),
            Value::U32(32),
            Value::I64(i64::MIN),
            Value::F32(1.5),
            Value::F64(-2.25),
            Value::Decimal {
                scale: 2,
                value: 12345,
            },
            Value::ShortStr("short".into()),
            Value::LongStr(b"long".to_vec()),
            Value::LongStr(vec![0xff, 0x00, b'a']),
            Value::Timestamp(1_795_960_652),
            Value::Table(t),
            Value::Bytes(vec![1, 2, 3]),
            Value::Void,
        ])
    }

    #[test]
    fn typed_json_round_trips_every_type() {
        let v = every_type();
        let j = v.to_typed_json();
        let text = serde_json::to_string(&j).unwrap();
        let back = Value::from_typed_json(&serde_json::from_str(&text).unwrap()).unwrap();
        assert_eq!(back, v);
    }

    #[test]
    fn non_finite_floats_round_trip() {
        for x in [f64::INFINITY, f64::NEG_INFINITY] {
            let back = Value::from_typed_json(&Value::F64(x).to_typed_json()).unwrap();
            assert_eq!(back, Value::F64(x));
        }
        let nan = Value::from_typed_json(&Value::F64(f64::NAN).to_typed_json()).unwrap();
        assert!(matches!(nan, Value::F64(x) if x.is_nan()));
    }

    #[test]
    fn typed_json_refuses_what_does_not_fit() {
        for bad in [
            json!({"type": "i8", "value": 300}),
            json!({"type": "u8", "value": -1}),
            json!({"type": "nope"}),
            json!({"value": 1}),
            json!("x"),
            json!({"type": "longstr", "base64": "***"}),
            json!({"type": "decimal", "scale": 999, "value": 1}),
        ] {
            assert!(Value::from_typed_json(&bad).is_err(), "{bad}");
        }
    }

    #[test]
    fn display_shows_bytes_for_what_they_are() {
        assert_eq!(Value::LongStr(vec![b'o', b'k', 0xff]).display(), "ok\\xff");
        assert_eq!(Value::Decimal { scale: 3, value: 5 }.display(), "0.005");
        // What pika sends for Decimal("-0.001") and Decimal("-12.5").
        let minus = |n: i32| u32::from_ne_bytes(n.to_ne_bytes());
        assert_eq!(
            Value::Decimal {
                scale: 3,
                value: minus(-1)
            }
            .display(),
            "-0.001"
        );
        assert_eq!(
            Value::Decimal {
                scale: 1,
                value: minus(-125)
            }
            .display(),
            "-12.5"
        );
        assert_eq!(
            Value::Decimal {
                scale: 0,
                value: minus(i32::MIN)
            }
            .display(),
            "-2147483648"
        );
        assert_eq!(
            Value::Decimal {
                scale: 1,
                value: 125
            }
            .display(),
            "12.5"
        );
        assert_eq!(
            Value::Array(vec![Value::ShortStr("a".into()), Value::I32(1)]).display(),
            "[a, 1]"
        );
    }

    #[test]
    fn properties_round_trip() {
        let mut headers = Table::new();
        headers.insert("x-death".into(), every_type());
        let p = Properties {
            content_type: Some("application/json".into()),
            headers: Some(headers),
            delivery_mode: Some(2),
            priority: Some(0),
            message_id: Some("m-1".into()),
            timestamp: Some(1),
            kind: Some("order.created".into()),
            ..Properties::default()
        };
        assert_eq!(Properties::from_json(&p.to_json()).unwrap(), p);
        assert!(Properties::from_json(&json!({"colour": "red"})).is_err());
    }

    #[test]
    fn strings_read_as_text_unless_they_are_not_utf8() {
        assert_eq!(Value::ShortStr("short".into()).as_text(), Some("short"));
        assert_eq!(Value::LongStr(b"long".to_vec()).as_text(), Some("long"));
        assert_eq!(Value::LongStr(vec![0xff]).as_text(), None);
        assert_eq!(Value::Bytes(b"bytes".to_vec()).as_text(), None);
        assert_eq!(Value::I32(1).as_text(), None);
    }

    #[test]
    fn a_decimal_with_as_many_digits_as_its_scale_starts_with_0() {
        assert_eq!(
            Value::Decimal {
                scale: 3,
                value: 125
            }
            .display(),
            "0.125"
        );
        assert_eq!(
            Value::Decimal {
                scale: 0,
                value: 125
            }
            .display(),
            "125"
        );
        assert_eq!(
            Value::Decimal {
                scale: 2,
                value: 125
            }
            .display(),
            "1.25"
        );
    }

    #[test]
    fn bytes_show_their_length_and_at_most_32_in_hex() {
        assert_eq!(Value::Bytes(vec![1, 0xab]).display(), "<2 bytes: 01ab>");
        assert_eq!(hex_preview(&[0xab; 32], 32), "ab".repeat(32));
        assert_eq!(
            hex_preview(&[0xab; 33], 32),
            format!("{}…", "ab".repeat(32))
        );
        assert_eq!(hex_preview(&[], 32), "");
    }

    #[test]
    fn a_float_spelled_as_any_other_string_is_refused() {
        for spelling in ["infinity", "-Infinity", "nan", ""] {
            for t in ["f32", "f64"] {
                let e = Value::from_typed_json(&json!({"type": t, "value": spelling})).unwrap_err();
                assert!(e.contains("needs a number"), "{t} {spelling:?}: {e}");
            }
        }
    }
}
