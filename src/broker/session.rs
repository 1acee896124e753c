//! A session with one broker: an AMQP connection opened on first use, the management API
//! client, and the broker's version, read once.
//!
//! Commands never hold lapin or reqwest types of their own: they ask the session for a fresh
//! channel (a 404 or 406 closes the channel it happens on, so every probe gets its own), for a
//! queue's live state, or for the broker version.

use std::fmt;

use lapin::options::QueueDeclareOptions;
use lapin::protocol::{AMQPErrorKind, AMQPSoftError};
use lapin::types::{AMQPValue, FieldTable};
use lapin::{Channel, Connection, ErrorKind};
use tokio::sync::OnceCell;

use super::amqp;
use super::api::{ApiClient, LiveQueue, Overview};
use crate::error::{Error, Kind, Result};
use crate::plan::ComputedQueue;
use crate::settings::ConnectionSettings;
use crate::topology::{ArgValue, QueueArgs};

/// A RabbitMQ version, as `/api/overview` reports it (`3.10.8`, `4.0.0-rc.1`, `3.13.7+1.g…`).
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord)]
pub struct BrokerVersion {
    pub major: u32,
    pub minor: u32,
    pub patch: u32,
}

impl BrokerVersion {
    pub fn parse(text: &str) -> Option<BrokerVersion> {
        let core = text
            .trim()
            .split(['-', '+', ' '])
            .next()
            .unwrap_or_default();
        let mut parts = core.split('.').map(|p| p.parse::<u32>());
        let major = parts.next()?.ok()?;
        let minor = parts.next().unwrap_or(Ok(0)).ok()?;
        let patch = parts.next().unwrap_or(Ok(0)).ok()?;
        Some(BrokerVersion {
            major,
            minor,
            patch,
        })
    }

    pub const fn new(major: u32, minor: u32, patch: u32) -> BrokerVersion {
        BrokerVersion {
            major,
            minor,
            patch,
        }
    }

    pub fn at_least(self, major: u32, minor: u32) -> bool {
        (self.major, self.minor) >= (major, minor)
    }
}

impl fmt::Display for BrokerVersion {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}.{}.{}", self.major, self.minor, self.patch)
    }
}

/// What a passive declare tells: the queue exists, with these counts.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct QueueCounts {
    pub messages_ready: u32,
    pub consumers: u32,
}

/// The broker's answer to a `queue.declare`.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum DeclareReply {
    /// Declared (created, or found equivalent), with its counts.
    Ok(QueueCounts),
    /// Refused at channel level: 404 (passive, missing), 405 (exclusive to another
    /// connection), 406 (inequivalent or invalid arguments), with the reply text.
    Refused { code: u16, text: String },
}

/// Queue arguments as an AMQP field table: integers as signed 64-bit (`l`; the broker compares
/// integers by value whatever their width), strings as long strings.
pub fn field_table(args: &QueueArgs) -> FieldTable {
    let mut table = FieldTable::default();
    for (name, value) in args {
        let value = match value {
            ArgValue::Int(n) => AMQPValue::LongLongInt(*n),
            ArgValue::Str(s) => AMQPValue::LongString(s.as_str().into()),
        };
        table.insert(name.as_str().into(), value);
    }
    table
}

/// One broker, reached over AMQP and the management API.
pub struct Session {
    pub settings: ConnectionSettings,
    purpose: String,
    connection: OnceCell<Connection>,
    api: ApiClient,
    overview: OnceCell<Overview>,
}

impl Session {
    /// A session for `purpose` (named in the connection name the broker shows). Connects
    /// nothing yet.
    pub fn new(settings: ConnectionSettings, purpose: &str) -> Result<Session> {
        let api = ApiClient::new(settings.api.clone(), settings.timeout)?;
        Ok(Session {
            settings,
            purpose: purpose.to_owned(),
            connection: OnceCell::new(),
            api,
            overview: OnceCell::new(),
        })
    }

    pub fn vhost(&self) -> &str {
        &self.settings.amqp.vhost
    }

    pub fn api(&self) -> &ApiClient {
        &self.api
    }

    /// The AMQP connection, opened on first use.
    pub async fn connection(&self) -> Result<&Connection> {
        self.connection
            .get_or_try_init(|| {
                amqp::connect(&self.settings.amqp, &self.purpose, self.settings.timeout)
            })
            .await
    }

    /// A new channel on the session's connection.
    pub async fn channel(&self) -> Result<Channel> {
        let conn = self.connection().await?;
        conn.create_channel()
            .await
            .map_err(|e| self.amqp_error(&e, "cannot open a channel"))
    }

    /// `/api/overview`, read once.
    pub async fn overview(&self) -> Result<&Overview> {
        self.overview.get_or_try_init(|| self.api.overview()).await
    }

    /// The broker's version, from the management API (lapin does not expose the server
    /// properties). `None` when the API answered without a readable version.
    pub async fn broker_version(&self) -> Result<Option<BrokerVersion>> {
        Ok(self
            .overview()
            .await?
            .rabbitmq_version
            .as_deref()
            .and_then(BrokerVersion::parse))
    }

    /// When the broker node started (milliseconds since the epoch): now less the node's uptime,
    /// from the management API. `None` when the API cannot tell.
    pub async fn node_started_ms(&self) -> Option<u64> {
        let node = self.overview().await.ok()?.node.clone()?;
        // A node that has just started reports no uptime until its first stats emission.
        let mut uptime = None;
        for _ in 0..8 {
            let v: serde_json::Value = self.api.get_json(&["nodes", &node], &[]).await.ok()?;
            uptime = v.get("uptime").and_then(serde_json::Value::as_u64);
            if uptime.is_some() {
                break;
            }
            tokio::time::sleep(std::time::Duration::from_secs(1)).await;
        }
        let uptime = uptime?;
        let now = std::time::SystemTime::now()
            .duration_since(std::time::UNIX_EPOCH)
            .ok()?
            .as_millis();
        Some(u64::try_from(now).ok()?.saturating_sub(uptime))
    }

    /// A queue's live state from the management API; `None` when it does not exist.
    pub async fn live_queue(&self, name: &str) -> Result<Option<LiveQueue>> {
        self.api.queue(self.vhost(), name).await
    }

    /// Whether `queue` exists, by passive declare on a fresh channel (a 404 closes it).
    ///
    /// Caution: on a classic queue a passive declare renews its `x-expires` lease (BROKER.md);
    /// never probe hold queues this way.
    pub async fn passive_declare(&self, queue: &str) -> Result<Option<QueueCounts>> {
        match self.passive_declare_reply(queue).await? {
            DeclareReply::Ok(counts) => Ok(Some(counts)),
            DeclareReply::Refused { code: 404, .. } => Ok(None),
            DeclareReply::Refused { code, text } => {
                Err(self.refused("inspect", queue, code, &text))
            }
        }
    }

    /// A channel-level refusal the caller has no plan for, as an error naming what was tried
    /// (`doing`: "inspect", "declare"...), on which queue, and the broker's answer.
    pub fn refused(&self, doing: &str, queue: &str, code: u16, text: &str) -> Error {
        Error::new(
            Kind::BrokerRefused,
            format!(
                "cannot {doing} queue {queue:?} in vhost {:?}: the broker answered {code} {text}",
                self.vhost()
            ),
        )
    }

    /// A passive declare's reply as it is: `Refused` with 404 when the queue does not exist,
    /// 405 when it is exclusive to another connection. Same caution as [`Session::passive_declare`].
    pub async fn passive_declare_reply(&self, queue: &str) -> Result<DeclareReply> {
        let options = QueueDeclareOptions {
            passive: true,
            ..QueueDeclareOptions::default()
        };
        self.declare_raw(queue, options, FieldTable::default())
            .await
    }

    /// Declares `queue` durable (not exclusive, not auto-delete) with its computed arguments,
    /// on a fresh channel. An existing equivalent queue is left as it is (`Ok`); an existing
    /// queue with another definition is refused by the broker (`Refused` with 406, or 405 when
    /// it is exclusive to another connection) and is not changed.
    ///
    /// Caution: on a queue that does not exist this creates it. The AMQP fallback of `verify`
    /// calls it only after a passive declare said the queue exists.
    pub async fn declare(&self, queue: &ComputedQueue) -> Result<DeclareReply> {
        let options = QueueDeclareOptions {
            durable: queue.durable,
            ..QueueDeclareOptions::default()
        };
        self.declare_raw(&queue.name, options, field_table(&queue.arguments))
            .await
    }

    /// `queue.declare` on a fresh channel: a channel-level refusal (404, 405, 406, 403) is a
    /// `Refused` reply, anything else (a lost connection) an error.
    async fn declare_raw(
        &self,
        queue: &str,
        options: QueueDeclareOptions,
        arguments: FieldTable,
    ) -> Result<DeclareReply> {
        let channel = self.channel().await?;
        let result = channel
            .queue_declare(queue.into(), options, arguments)
            .await;
        match result {
            Ok(q) => {
                let _ = channel.close(200, "ok".into()).await;
                Ok(DeclareReply::Ok(QueueCounts {
                    messages_ready: q.message_count(),
                    consumers: q.consumer_count(),
                }))
            }
            Err(e) => match (soft_error_code(&e), protocol_error_text(&e)) {
                (Some(403), _) => Err(self.amqp_error(
                    &e,
                    &format!("cannot declare queue {queue:?} in vhost {:?}", self.vhost()),
                )),
                (Some(code), Some(text)) => Ok(DeclareReply::Refused { code, text }),
                _ => Err(self.amqp_error(
                    &e,
                    &format!("cannot declare queue {queue:?} in vhost {:?}", self.vhost()),
                )),
            },
        }
    }

    /// The error for a queue that must exist and does not.
    pub fn queue_not_found(&self, queue: &str) -> Error {
        Error::new(
            Kind::QueueNotFound,
            format!("queue {queue:?} does not exist in vhost {:?}", self.vhost()),
        )
        .with_hint(format!(
            "check the queue name, and the vhost in --url; `{}` lists the queues there",
            crate::shell::rabbitmqctl(self.vhost(), &["list_queues", "name", "messages"])
                .unwrap_or_else(|| "rabbitmqctl list_queues -p <vhost> name messages".to_owned())
        ))
    }

    /// Closes the AMQP connection politely, if one was opened.
    pub async fn close(&self) {
        if let Some(conn) = self.connection.get() {
            let _ = conn.close(200, "queuey done".into()).await;
        }
    }

    /// An AMQP error met while working: what it means for the operator. `context` says what
    /// queuey was doing ("cannot declare queue \"orders\"").
    pub fn amqp_error(&self, err: &lapin::Error, context: &str) -> Error {
        let vhost = self.vhost();
        if let ErrorKind::ProtocolError(amqp) = err.kind() {
            let text = amqp.get_message().to_string();
            return match amqp.kind() {
                AMQPErrorKind::Soft(AMQPSoftError::NOTFOUND) => Error::new(
                    Kind::QueueNotFound,
                    format!("{context}: it does not exist in vhost {vhost:?} ({text})"),
                ),
                AMQPErrorKind::Soft(AMQPSoftError::ACCESSREFUSED) => Error::new(
                    Kind::BrokerRefused,
                    format!("{context}: access refused ({text})"),
                )
                .with_hint(
                    "the user needs configure/write/read permissions matching this queue in the \
                     vhost (rabbitmqctl list_permissions -p <vhost>)",
                ),
                // A hard error closes the whole connection: an operator or the broker closed it
                // (CONNECTION_FORCED), or the broker shuts down.
                AMQPErrorKind::Hard(_) => Error::new(
                    Kind::Unreachable,
                    format!(
                        "{context}: the broker closed the connection ({text}) at {}",
                        self.settings.amqp.display()
                    ),
                )
                .with_hint("run the command again; messages not confirmed stayed where they were"),
                _ => Error::new(Kind::BrokerRefused, format!("{context}: {text}")),
            };
        }
        let connection_gone = self
            .connection
            .get()
            .is_some_and(|c| !c.status().connected());
        if err.is_io_error()
            || connection_gone
            || matches!(err.kind(), ErrorKind::InvalidConnectionState(_))
        {
            return Error::new(
                Kind::Unreachable,
                format!(
                    "{context}: lost the connection to RabbitMQ at {} ({err})",
                    self.settings.amqp.display()
                ),
            )
            .with_hint("the broker closed the connection or went away; run the command again");
        }
        Error::new(Kind::BrokerRefused, format!("{context}: {err}"))
    }
}

/// The reply code of a channel-level (soft) AMQP error: 404, 405, 406, 403...
pub fn soft_error_code(err: &lapin::Error) -> Option<u16> {
    match err.kind() {
        ErrorKind::ProtocolError(amqp) => match amqp.kind() {
            AMQPErrorKind::Soft(soft) => Some(soft.get_id()),
            AMQPErrorKind::Hard(_) => None,
        },
        _ => None,
    }
}

/// The reply text of an AMQP protocol error, when it is one.
pub fn protocol_error_text(err: &lapin::Error) -> Option<String> {
    match err.kind() {
        ErrorKind::ProtocolError(amqp) => Some(amqp.get_message().to_string()),
        _ => None,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn parses_versions() {
        assert_eq!(
            BrokerVersion::parse("3.10.8"),
            Some(BrokerVersion::new(3, 10, 8))
        );
        assert_eq!(
            BrokerVersion::parse("4.0.0-rc.1"),
            Some(BrokerVersion::new(4, 0, 0))
        );
        assert_eq!(
            BrokerVersion::parse("3.13.7+1.g0123"),
            Some(BrokerVersion::new(3, 13, 7))
        );
        assert_eq!(
            BrokerVersion::parse("4.1"),
            Some(BrokerVersion::new(4, 1, 0))
        );
        assert_eq!(BrokerVersion::parse("garbage"), None);
        assert!(BrokerVersion::new(4, 3, 0).at_least(4, 3));
        assert!(!BrokerVersion::new(4, 2, 9).at_least(4, 3));
        assert!(BrokerVersion::new(3, 10, 8) < BrokerVersion::new(3, 13, 0));
    }
}
