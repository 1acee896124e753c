//! What the broker says about itself when an AMQP connection opens: the `server-properties` of
//! its `connection.start` (`cluster_name`, `version`, `product`). queuey compares the cluster
//! name with the management API's (`/api/overview`) to know that the API and the AMQP
//! connection are one broker (`Session::overview`).
//!
//! lapin (4.12) reads those properties and drops them: the only trace of them is a `tracing`
//! event it emits at the `trace` level as the frame arrives (`Server sent connection::Start`,
//! the method in its `Debug` form). queuey listens to exactly that event: the listener below
//! enables no other callsite, so the rest of lapin's tracing stays compiled-in and costs
//! nothing, and it reads the three properties out of the `Debug` text. The alternative, a
//! second TCP connection of queuey's own that reads `connection.start` and hangs up, would
//! cost a round trip and a warning in the broker's log ("client unexpectedly closed TCP
//! connection") for every command.
//!
//! If a lapin release stops emitting the event or changes its form, the properties are simply
//! unknown and the check says "not checked" (`queuey ping` shows it); the live tests, which
//! assert the check on every broker version, fail first.

use std::sync::{Mutex, Once};

use tracing::field::{Field, Visit};
use tracing::span::{Attributes, Id, Record};
use tracing::subscriber::Interest;
use tracing::{Event, Level, Metadata, Subscriber};

/// The server properties queuey uses.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct ServerProperties {
    pub cluster_name: Option<String>,
    pub version: Option<String>,
    pub product: Option<String>,
}

/// The properties of the last `connection.start` seen in this process. queuey connects to one
/// broker per run (the check connection of `Session` goes to the same URL), so the last one is
/// the one of the connection that just opened.
static LAST: Mutex<Option<ServerProperties>> = Mutex::new(None);

/// Installs the listener as the process's `tracing` subscriber, once. Called before the first
/// connection; a process that already has a subscriber (none in queuey) keeps it.
pub fn listen() {
    static INSTALL: Once = Once::new();
    INSTALL.call_once(|| {
        let _ = tracing::subscriber::set_global_default(StartListener);
    });
}

/// Forgets what was seen, before a connection whose properties are wanted.
pub fn clear() {
    if let Ok(mut last) = LAST.lock() {
        *last = None;
    }
}

/// The properties of the last `connection.start` seen, if any.
pub fn last() -> Option<ServerProperties> {
    LAST.lock().ok().and_then(|last| last.clone())
}

/// The one `tracing` subscriber of queuey: it records lapin's `connection.start` and nothing
/// else.
struct StartListener;

/// The callsites that can carry a `connection.start`: lapin's trace events with a `method`.
fn is_method_event(metadata: &Metadata<'_>) -> bool {
    metadata.is_event()
        && *metadata.level() == Level::TRACE
        && metadata.target().starts_with("lapin")
        && metadata.fields().field("method").is_some()
}

impl Subscriber for StartListener {
    fn register_callsite(&self, metadata: &'static Metadata<'static>) -> Interest {
        if is_method_event(metadata) {
            Interest::always()
        } else {
            Interest::never()
        }
    }

    fn enabled(&self, metadata: &Metadata<'_>) -> bool {
        is_method_event(metadata)
    }

    fn max_level_hint(&self) -> Option<tracing::level_filters::LevelFilter> {
        Some(tracing::level_filters::LevelFilter::TRACE)
    }

    fn new_span(&self, _span: &Attributes<'_>) -> Id {
        // Never called: no span callsite is enabled. An id must still be non-zero.
        Id::from_u64(1)
    }

    fn record(&self, _span: &Id, _values: &Record<'_>) {}

    fn record_follows_from(&self, _span: &Id, _follows: &Id) {}

    fn event(&self, event: &Event<'_>) {
        let mut method = MethodText(None);
        event.record(&mut method);
        if let Some(props) = method.0.as_deref().and_then(parse_start)
            && let Ok(mut last) = LAST.lock()
        {
            *last = Some(props);
        }
    }

    fn enter(&self, _span: &Id) {}

    fn exit(&self, _span: &Id) {}
}

/// The `Debug` text of an event's `method` field.
struct MethodText(Option<String>);

impl Visit for MethodText {
    fn record_debug(&mut self, field: &Field, value: &dyn std::fmt::Debug) {
        if field.name() == "method" {
            self.0 = Some(format!("{value:?}"));
        }
    }
}

/// The server properties in the `Debug` text of a `connection.start` method; `None` for any
/// other method.
pub fn parse_start(debug: &str) -> Option<ServerProperties> {
    if !debug.starts_with("Start {") || !debug.contains("server_properties") {
        return None;
    }
    Some(ServerProperties {
        cluster_name: long_string(debug, "cluster_name"),
        version: long_string(debug, "version"),
        product: long_string(debug, "product"),
    })
}

/// The value of the long-string entry `key` of a field table in its `Debug` form:
/// `ShortString("key"): LongString(LongString([98, 121, ...]))`, the bytes as UTF-8.
fn long_string(debug: &str, key: &str) -> Option<String> {
    let entry = format!("ShortString({key:?}): LongString(LongString([");
    let start = debug.find(&entry)? + entry.len();
    let end = start + debug[start..].find(']')?;
    let bytes: Option<Vec<u8>> = debug[start..end]
        .split(',')
        .map(str::trim)
        .filter(|b| !b.is_empty())
        .map(|b| b.parse::<u8>().ok())
        .collect();
    String::from_utf8(bytes?).ok()
}

#[cfg(test)]
mod tests {
    use super::*;
    use lapin::protocol::connection::Start;
    use lapin::types::{AMQPValue, FieldTable, LongString};

    /// The properties are read back from the very `Debug` form lapin's event carries: a change
    /// of that form in amq-protocol fails here.
    #[test]
    fn the_properties_are_read_from_a_start_method() {
        let mut capabilities = FieldTable::default();
        capabilities.insert("publisher_confirms".into(), AMQPValue::Boolean(true));
        let mut props = FieldTable::default();
        props.insert("capabilities".into(), AMQPValue::FieldTable(capabilities));
        props.insert(
            "cluster_name".into(),
            AMQPValue::LongString(LongString::from("rabbit@mq-1.example")),
        );
        props.insert(
            "version".into(),
            AMQPValue::LongString(LongString::from("4.3.6")),
        );
        props.insert(
            "product".into(),
            AMQPValue::LongString(LongString::from("RabbitMQ")),
        );
        props.insert(
            "information".into(),
            AMQPValue::LongString(LongString::from("Licensed under the MPL 2.0, ünïcode")),
        );
        let start = Start {
            version_major: 0,
            version_minor: 9,
            server_properties: props,
            mechanisms: LongString::from("PLAIN AMQPLAIN"),
            locales: LongString::from("en_US"),
        };
        let parsed = parse_start(&format!("{start:?}")).expect("a start method");
        assert_eq!(
            parsed,
            ServerProperties {
                cluster_name: Some("rabbit@mq-1.example".into()),
                version: Some("4.3.6".into()),
                product: Some("RabbitMQ".into()),
            }
        );
        let mut bare = start.clone();
        bare.server_properties = FieldTable::default();
        assert_eq!(
            parse_start(&format!("{bare:?}")),
            Some(ServerProperties::default())
        );
        assert_eq!(parse_start("Tune { channel_max: 2047 }"), None);
    }
}
