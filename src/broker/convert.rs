//! lapin's AMQP types <-> queuey's own (`dead::value`), both directions, losslessly.
//!
//! From lapin nothing can fail. Towards lapin a value from an export file can be out of what
//! AMQP carries (a short string over 255 bytes): that is an error naming the field, never a
//! panic (lapin's `ShortString::from` panics on a long string; we use `try_new`).

use lapin::BasicProperties;
use lapin::message::Delivery;
use lapin::types::{
    AMQPValue, ByteArray, DecimalValue, FieldArray, FieldTable, LongString, ShortString,
};

use crate::dead::decode::Message;
use crate::dead::value::{Properties, Table, Value};

pub fn value_from_amqp(v: &AMQPValue) -> Value {
    match v {
        AMQPValue::Boolean(b) => Value::Bool(*b),
        AMQPValue::ShortShortInt(n) => Value::I8(*n),
        AMQPValue::ShortShortUInt(n) => Value::U8(*n),
        AMQPValue::ShortInt(n) => Value::I16(*n),
        AMQPValue::ShortUInt(n) => Value::U16(*n),
        AMQPValue::LongInt(n) => Value::I32(*n),
        AMQPValue::LongUInt(n) => Value::U32(*n),
        AMQPValue::LongLongInt(n) => Value::I64(*n),
        AMQPValue::Float(x) => Value::F32(*x),
        AMQPValue::Double(x) => Value::F64(*x),
        AMQPValue::DecimalValue(d) => Value::Decimal {
            scale: d.scale,
            value: d.value,
        },
        AMQPValue::ShortString(s) => Value::ShortStr(s.as_str().to_owned()),
        AMQPValue::LongString(s) => Value::LongStr(s.as_bytes().to_vec()),
        AMQPValue::FieldArray(a) => {
            Value::Array(a.as_slice().iter().map(value_from_amqp).collect())
        }
        AMQPValue::Timestamp(t) => Value::Timestamp(*t),
        AMQPValue::FieldTable(t) => Value::Table(table_from_amqp(t)),
        AMQPValue::ByteArray(b) => Value::Bytes(b.as_slice().to_vec()),
        AMQPValue::Void => Value::Void,
    }
}

pub fn table_from_amqp(t: &FieldTable) -> Table {
    t.inner()
        .iter()
        .map(|(k, v)| (k.as_str().to_owned(), value_from_amqp(v)))
        .collect()
}

fn short(s: &str, what: &str) -> Result<ShortString, String> {
    ShortString::try_new(s).map_err(|_| too_long(what, s.len()))
}

fn too_long(what: &str, len: usize) -> String {
    format!("{what} is {len} bytes; AMQP short strings hold at most 255")
}

/// A value AMQP or RabbitMQ cannot carry, found under a path built from the key up
/// (".a.b[2].key") only when it happens: the path of every value is not formatted on the way.
#[derive(Debug)]
struct LongKey {
    path: String,
    problem: Unfit,
}

#[derive(Debug)]
enum Unfit {
    /// A table key of this many bytes (over 255).
    Long(usize),
    /// A float that is not finite (NaN, infinity): RabbitMQ takes the frame and closes the
    /// whole connection (541 INTERNAL_ERROR, 3.10.8 and 4.3.6), so an export file's
    /// `"NaN"`, `"inf"` or `"-inf"` cannot be published.
    NonFinite(f64),
}

fn finite(x: f64) -> Result<(), LongKey> {
    if x.is_finite() {
        Ok(())
    } else {
        Err(LongKey {
            path: String::new(),
            problem: Unfit::NonFinite(x),
        })
    }
}

fn value_to_amqp_at(v: &Value) -> Result<AMQPValue, LongKey> {
    Ok(match v {
        Value::Bool(b) => AMQPValue::Boolean(*b),
        Value::I8(n) => AMQPValue::ShortShortInt(*n),
        Value::U8(n) => AMQPValue::ShortShortUInt(*n),
        Value::I16(n) => AMQPValue::ShortInt(*n),
        Value::U16(n) => AMQPValue::ShortUInt(*n),
        Value::I32(n) => AMQPValue::LongInt(*n),
        Value::U32(n) => AMQPValue::LongUInt(*n),
        Value::I64(n) => AMQPValue::LongLongInt(*n),
        Value::F32(x) => {
            finite(f64::from(*x))?;
            AMQPValue::Float(*x)
        }
        Value::F64(x) => {
            finite(*x)?;
            AMQPValue::Double(*x)
        }
        Value::Decimal { scale, value } => AMQPValue::DecimalValue(DecimalValue {
            scale: *scale,
            value: *value,
        }),
        // RabbitMQ reads table type 's' as a signed 16-bit integer, not a short string, and
        // closes the whole connection (INTERNAL_ERROR) on lapin's ShortString. The broker never
        // sends one; one from an edited export file is published as a long string.
        Value::ShortStr(s) => AMQPValue::LongString(LongString::from(s.as_bytes().to_vec())),
        Value::LongStr(b) => AMQPValue::LongString(LongString::from(b.clone())),
        Value::Timestamp(t) => AMQPValue::Timestamp(*t),
        Value::Array(items) => {
            let mut out = Vec::with_capacity(items.len());
            for (i, item) in items.iter().enumerate() {
                out.push(value_to_amqp_at(item).map_err(|mut e| {
                    e.path.insert_str(0, &format!("[{i}]"));
                    e
                })?);
            }
            AMQPValue::FieldArray(FieldArray::from(out))
        }
        Value::Table(t) => AMQPValue::FieldTable(table_to_amqp_at(t)?),
        Value::Bytes(b) => AMQPValue::ByteArray(ByteArray::from(b.clone())),
        Value::Void => AMQPValue::Void,
    })
}

fn table_to_amqp_at(t: &Table) -> Result<FieldTable, LongKey> {
    let mut out = FieldTable::default();
    for (k, v) in t {
        let key = ShortString::try_new(k.as_str()).map_err(|_| LongKey {
            path: format!(".{k}"),
            problem: Unfit::Long(k.len()),
        })?;
        let value = value_to_amqp_at(v).map_err(|mut e| {
            e.path.insert_str(0, &format!(".{k}"));
            e
        })?;
        out.insert(key, value);
    }
    Ok(out)
}

/// `t` as lapin's table; `what` names it in the error (a key over 255 bytes).
pub fn table_to_amqp(t: &Table, what: &str) -> Result<FieldTable, String> {
    table_to_amqp_at(t).map_err(|e| match e.problem {
        Unfit::Long(len) => too_long(&format!("{what}{}", e.path), len),
        Unfit::NonFinite(x) => format!(
            "{what}{} is {x}: RabbitMQ cannot store a float that is not finite (it closes the \
             connection on it)",
            e.path
        ),
    })
}

pub fn properties_from_amqp(p: &BasicProperties) -> Properties {
    let s = |v: &Option<ShortString>| v.as_ref().map(|s| s.as_str().to_owned());
    Properties {
        content_type: s(p.content_type()),
        content_encoding: s(p.content_encoding()),
        headers: p.headers().as_ref().map(table_from_amqp),
        delivery_mode: *p.delivery_mode(),
        priority: *p.priority(),
        correlation_id: s(p.correlation_id()),
        reply_to: s(p.reply_to()),
        expiration: s(p.expiration()),
        message_id: s(p.message_id()),
        timestamp: *p.timestamp(),
        kind: s(p.kind()),
        user_id: s(p.user_id()),
        app_id: s(p.app_id()),
        cluster_id: s(p.cluster_id()),
    }
}

pub fn properties_to_amqp(p: &Properties) -> Result<BasicProperties, String> {
    let mut out = BasicProperties::default();
    if let Some(v) = &p.content_type {
        out = out.with_content_type(short(v, "content_type")?);
    }
    if let Some(v) = &p.content_encoding {
        out = out.with_content_encoding(short(v, "content_encoding")?);
    }
    if let Some(h) = &p.headers {
        out = out.with_headers(table_to_amqp(h, "headers")?);
    }
    if let Some(v) = p.delivery_mode {
        out = out.with_delivery_mode(v);
    }
    if let Some(v) = p.priority {
        out = out.with_priority(v);
    }
    if let Some(v) = &p.correlation_id {
        out = out.with_correlation_id(short(v, "correlation_id")?);
    }
    if let Some(v) = &p.reply_to {
        out = out.with_reply_to(short(v, "reply_to")?);
    }
    if let Some(v) = &p.expiration {
        out = out.with_expiration(short(v, "expiration")?);
    }
    if let Some(v) = &p.message_id {
        out = out.with_message_id(short(v, "message_id")?);
    }
    if let Some(v) = p.timestamp {
        out = out.with_timestamp(v);
    }
    if let Some(v) = &p.kind {
        out = out.with_type(short(v, "type")?);
    }
    if let Some(v) = &p.user_id {
        out = out.with_user_id(short(v, "user_id")?);
    }
    if let Some(v) = &p.app_id {
        out = out.with_app_id(short(v, "app_id")?);
    }
    if let Some(v) = &p.cluster_id {
        out = out.with_cluster_id(short(v, "cluster_id")?);
    }
    Ok(out)
}

/// A delivery as the decoder's [`Message`]; the body is moved, not copied.
pub fn message_from_delivery(d: Delivery) -> (u64, Message) {
    (
        d.delivery_tag,
        Message {
            properties: properties_from_amqp(&d.properties),
            body: d.data,
            redelivered: d.redelivered,
            exchange: d.exchange.as_str().to_owned(),
            routing_key: d.routing_key.as_str().to_owned(),
        },
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn round_trips_every_type_through_lapin() {
        let mut inner = Table::new();
        inner.insert("k".into(), Value::Void);
        let v = Value::Array(vec![
            Value::Bool(false),
            Value::I8(-1),
            Value::U8(1),
            Value::I16(-2),
            Value::U16(2),
            Value::I32(-3),
            Value::U32(3),
            Value::I64(-4),
            Value::F32(0.5),
            Value::F64(0.25),
            Value::Decimal { scale: 1, value: 9 },
            Value::ShortStr("s".into()),
            Value::LongStr(vec![0xff]),
            Value::Timestamp(7),
            Value::Table(inner),
            Value::Bytes(vec![0]),
            Value::Void,
        ]);
        let back = value_from_amqp(&value_to_amqp_at(&v).unwrap());
        let Value::Array(mut expected) = v else {
            unreachable!()
        };
        expected[11] = Value::LongStr(b"s".to_vec());
        assert_eq!(back, Value::Array(expected));
    }

    #[test]
    fn long_short_strings_are_errors_not_panics() {
        let long = "x".repeat(256);
        let mut t = Table::new();
        t.insert(long.clone(), Value::Void);
        assert!(table_to_amqp(&t, "headers").is_err());
        let p = Properties {
            message_id: Some(long),
            ..Properties::default()
        };
        assert!(properties_to_amqp(&p).unwrap_err().contains("message_id"));
    }

    #[test]
    fn a_float_that_is_not_finite_is_an_error_naming_its_path() {
        for x in [f64::NAN, f64::INFINITY, f64::NEG_INFINITY] {
            let mut headers = Table::new();
            headers.insert("ok".into(), Value::F64(1.5));
            headers.insert("list".into(), Value::Array(vec![Value::F64(x)]));
            let err = table_to_amqp(&headers, "headers").unwrap_err();
            assert!(err.starts_with("headers.list[0] is "), "{err}");
            assert!(err.contains("not finite"), "{err}");
        }
        let mut headers = Table::new();
        headers.insert("f".into(), Value::F32(f32::NAN));
        assert!(table_to_amqp(&headers, "headers").is_err());
    }

    #[test]
    fn a_long_key_deep_inside_is_named_by_its_path() {
        let mut deep = Table::new();
        deep.insert("k".repeat(300), Value::Void);
        let mut entry = Table::new();
        entry.insert("inner".into(), Value::Table(deep));
        let mut headers = Table::new();
        headers.insert("ok".into(), Value::I8(1));
        headers.insert(
            "list".into(),
            Value::Array(vec![Value::Void, Value::Table(entry)]),
        );
        let err = table_to_amqp(&headers, "headers").unwrap_err();
        assert_eq!(
            err,
            format!(
                "headers.list[1].inner.{} is 300 bytes; AMQP short strings hold at most 255",
                "k".repeat(300)
            )
        );
    }
}
