//! A session with one broker: an AMQP connection opened on first use, the management API
//! client, and the broker's version, read once.
//!
//! Commands ask the session for a fresh channel (a 404 or 406 closes the channel it happens on,
//! so every probe gets its own), for a queue's live state, or for the broker version. (The
//! replay and purge pipelines still hold lapin channels themselves: see docs/design.md.)

use std::fmt;

use lapin::options::QueueDeclareOptions;
use lapin::protocol::{AMQPErrorKind, AMQPHardError, AMQPSoftError};
use lapin::types::{AMQPValue, FieldTable};
use lapin::{Channel, Connection, ErrorKind};
use tokio::sync::OnceCell;

use super::amqp;
use super::api::{ApiClient, LiveQueue, Overview};
use super::server_properties::{self, ServerProperties};
use crate::cluster::ApiCluster;
use crate::dead::ledger::Boot;
use crate::endpoint::ConnectionSettings;
use crate::error::{Error, Kind, Result};
use crate::plan::ComputedQueue;
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

/// What a session says as it connects (an address skipped, the one used): the command's notes.
pub type Notes = std::sync::Arc<dyn Fn(&str) + Send + Sync>;

/// One broker, reached over AMQP and the management API, through the first of its addresses
/// that answers (`broker::addresses`).
pub struct Session {
    /// Every address, as given.
    given: ConnectionSettings,
    /// Pinned to the address the connection opened on, once it has.
    pinned: std::sync::OnceLock<ConnectionSettings>,
    purpose: String,
    connection: OnceCell<Connection>,
    /// The management API that answered, with its overview (see [`Session::overview`]).
    api: OnceCell<(ApiClient, Overview)>,
    /// The server properties of the session's connection, once it is open.
    server: OnceCell<ServerProperties>,
    /// The connection of the configure checks, and how many channels it has opened (see
    /// [`Session::check_channel`]).
    checks: tokio::sync::Mutex<Option<(Connection, u32)>>,
    /// What the broker's `max_message_size` is known to allow (see `broker::message_size`):
    /// one probe per size for every command stage on this connection.
    pub(super) max_message_size: std::sync::Mutex<crate::message_size::MaxMessageSize>,
    /// Whose `user_id` the broker takes from this connection (see `broker::user_id`).
    pub(super) user_ids: std::sync::Mutex<crate::user_id::UserIdCheck>,
    notes: Option<Notes>,
}

impl Session {
    /// A session for `purpose` (named in the connection name the broker shows). Connects
    /// nothing yet.
    pub fn new(settings: ConnectionSettings, purpose: &str) -> Result<Session> {
        // The API client's TLS setup fails here, before anything connects, if it fails at all.
        ApiClient::new(settings.api.clone(), &settings.tls, settings.timeout)?;
        // EXTERNAL and ANONYMOUS send no user name: the broker names the user (a probe learns it).
        let user = (!matches!(
            settings.amqp.query.auth_mechanism.as_deref(),
            Some("external" | "anonymous")
        ))
        .then(|| settings.amqp.username.clone());
        Ok(Session {
            given: settings,
            pinned: std::sync::OnceLock::new(),
            purpose: purpose.to_owned(),
            connection: OnceCell::new(),
            api: OnceCell::new(),
            server: OnceCell::new(),
            checks: tokio::sync::Mutex::new(None),
            max_message_size: std::sync::Mutex::default(),
            user_ids: std::sync::Mutex::new(crate::user_id::UserIdCheck::new(user)),
            notes: None,
        })
    }

    /// The session, saying through `notes` which address it uses when there are several, and
    /// each address it skips.
    pub fn with_notes(mut self, notes: Notes) -> Session {
        self.notes = Some(notes);
        self
    }

    pub(super) fn note(&self, text: &str) {
        if let Some(notes) = &self.notes {
            notes(text);
        }
    }

    /// How the session reaches the broker: pinned to the address its connection opened on, once
    /// it has (before that, the first address).
    pub fn settings(&self) -> &ConnectionSettings {
        self.pinned.get().unwrap_or(&self.given)
    }

    /// The address the AMQP connection opened on (its password masked), once it has.
    pub fn connected_to(&self) -> Option<String> {
        self.pinned.get().map(|at| at.amqp.display())
    }

    /// Every address given, in order.
    pub fn given(&self) -> &ConnectionSettings {
        &self.given
    }

    pub fn vhost(&self) -> &str {
        &self.settings().amqp.vhost
    }

    /// The management API, once it is known to answer for the broker of the AMQP URL (see
    /// [`Session::overview`]).
    pub async fn api(&self) -> Result<&ApiClient> {
        self.overview().await?;
        match self.api.get() {
            Some((client, _)) => Ok(client),
            None => Err(Error::internal("the management API is missing")),
        }
    }

    /// Where the management API is (to name it; nothing is asked): the one that answered, or
    /// the first to try.
    pub fn api_target(&self) -> &crate::endpoint::ApiTarget {
        match self.api.get() {
            Some((client, _)) => client.target(),
            None => &self.settings().api,
        }
    }

    /// The AMQP connection, opened on first use, to the first address that answers.
    pub async fn connection(&self) -> Result<&Connection> {
        self.connection
            .get_or_try_init(|| async {
                let (conn, pinned) =
                    super::addresses::connect_first(&self.given, &self.purpose, &|text| {
                        self.note(text)
                    })
                    .await?;
                let _ = self
                    .server
                    .set(server_properties::last().unwrap_or_default());
                let _ = self.pinned.set(pinned);
                Ok(conn)
            })
            .await
    }

    /// What the broker said of itself when the session's connection opened (empty until then,
    /// or when lapin did not tell: see `broker::server_properties`).
    pub fn server_properties(&self) -> ServerProperties {
        self.server.get().cloned().unwrap_or_default()
    }

    /// A new channel on the session's connection.
    ///
    /// A `channel.open` cannot be refused at channel level, yet lapin (4.x) answers one with
    /// the close the broker sent to an earlier channel of the same id: it keeps a closed
    /// channel's id "poisoned" and discards the open frame of the next channel that reuses it
    /// (see docs/broker-notes.md, lapin keeps a refused channel's id poisoned). Such an answer
    /// is stale,
    /// nothing reached the broker, and the open is tried again (lapin keeps the failed channel,
    /// so the next try has another id).
    pub async fn channel(&self) -> Result<Channel> {
        let conn = self.connection().await?;
        open_channel(self, conn).await
    }

    /// A channel for a check the broker answers by closing it (the configure check), on a
    /// connection of its own (to the session's address) that is replaced before its channel
    /// ids wrap: the refused channels then never poison the ids of the session's own channels
    /// (see [`Session::channel`]).
    pub async fn check_channel(&self) -> Result<Channel> {
        self.connection().await?;
        let mut checks = self.checks.lock().await;
        if checks
            .as_ref()
            .is_none_or(|(_, opened)| *opened >= CHECKS_PER_CONNECTION)
        {
            if let Some((old, _)) = checks.take() {
                let _ = old.close(200, "ok".into()).await;
            }
            let purpose = format!("{} (permission checks)", self.purpose);
            let conn = amqp::connect(self.settings(), &purpose).await?;
            *checks = Some((conn, 0));
        }
        let Some((conn, opened)) = checks.as_mut() else {
            return Err(Error::internal("the check connection is missing"));
        };
        *opened += 1;
        open_channel(self, conn).await
    }

    /// Closes the check connection, if one was opened.
    async fn close_checks(&self) {
        if let Some((conn, _)) = self.checks.lock().await.take() {
            let _ = conn.close(200, "ok".into()).await;
        }
    }
}

/// Opens a channel on `conn`, trying again past stale closes (see [`Session::channel`]).
async fn open_channel(session: &Session, conn: &Connection) -> Result<Channel> {
    let mut attempts = 0;
    loop {
        match conn.create_channel().await {
            Ok(channel) => return Ok(channel),
            Err(e) if soft_error_code(&e).is_some() && attempts < STALE_CLOSE_RETRIES => {
                attempts += 1;
            }
            Err(e) => return Err(session.amqp_error(&e, "cannot open a channel")),
        }
    }
}

impl Session {
    /// `/api/overview`, read once, and the proof that the API and the AMQP connection are one
    /// broker: the AMQP connection is opened (if it was not) and the cluster name the broker
    /// gave in its `connection.start` must be the API's. Every use of the API goes through
    /// here first, so that no command reads one broker's queues and acts on another's. When
    /// either side does not tell its cluster name, nothing can be compared and nothing is
    /// refused (`queuey ping` says "not checked").
    pub async fn overview(&self) -> Result<&Overview> {
        let (_, overview) = self
            .api
            .get_or_try_init(|| async {
                // The AMQP address first: the API derived from it is tried first.
                self.connection().await?;
                let (client, overview) =
                    super::addresses::api_first(self.settings(), &|text| self.note(text)).await?;
                let amqp = self.server_properties();
                let mut judged = one_broker(&amqp, &overview);
                if judged == OneBroker::Different {
                    // A cluster never named gives each node's own name as the cluster's (3.10.8
                    // and 4.3.6): two nodes of one cluster differ by name, and are one broker
                    // when both names are nodes of the API's cluster.
                    let nodes = client.node_names().await;
                    judged = one_unnamed_cluster(&amqp, &overview, &nodes);
                }
                match judged {
                    OneBroker::Different => {
                        let used = ConnectionSettings {
                            api: client.target().clone(),
                            ..self.settings().clone()
                        };
                        Err(other_broker(&used, &amqp, &overview))
                    }
                    OneBroker::Same | OneBroker::Unknown => Ok((client, overview)),
                }
            })
            .await?;
        Ok(overview)
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

    /// Which start of the broker this is (see [`Boot`]): each running node's OS process id,
    /// and when the connected node started, from the management API (one listing of the
    /// nodes). Unknown parts stay empty: without the API a restart cannot be told, which
    /// costs duplicates after one, never a loss.
    pub async fn boot(&self) -> Boot {
        let mut boot = Boot::default();
        let Ok(api) = self.api().await else {
            return boot;
        };
        let connected = self.overview().await.ok().and_then(|o| o.node.clone());
        // A node that has just started reports its process id and uptime only from its first
        // statistics emission, about 5 s in: wait for them (up to 10 s), or a restart that
        // happened just before this run could not be told.
        let mut nodes = serde_json::Value::Null;
        for _ in 0..10 {
            let Ok(listed) = api.get_json::<serde_json::Value>(&["nodes"], &[]).await else {
                return boot;
            };
            nodes = listed;
            let reported = nodes.as_array().into_iter().flatten().any(|n| {
                n.get("name").and_then(serde_json::Value::as_str) == connected.as_deref()
                    && n.get("os_pid").is_some()
            });
            if reported || connected.is_none() {
                break;
            }
            tokio::time::sleep(std::time::Duration::from_secs(1)).await;
        }
        for node in nodes.as_array().into_iter().flatten() {
            let Some(name) = node.get("name").and_then(serde_json::Value::as_str) else {
                continue;
            };
            if node.get("running").and_then(serde_json::Value::as_bool) == Some(false) {
                continue;
            }
            // A string in the API; accept a number too.
            let pid = match node.get("os_pid") {
                Some(serde_json::Value::String(p)) => Some(p.clone()),
                Some(serde_json::Value::Number(n)) => Some(n.to_string()),
                _ => None,
            };
            if let Some(pid) = pid {
                boot.pids.insert(name.to_owned(), pid);
            }
            if connected.as_deref() == Some(name)
                && let Some(uptime) = node.get("uptime").and_then(serde_json::Value::as_u64)
            {
                boot.started_ms = crate::clock::now_millis()
                    .and_then(|now| u64::try_from(now).ok())
                    .and_then(|now| now.checked_sub(uptime));
            }
        }
        boot
    }

    /// The names of the cluster's nodes, running or not, from the management API (`GET
    /// /api/nodes`, which needs the monitoring tag): `None` when the API cannot tell.
    pub async fn cluster_nodes(&self) -> Option<Vec<String>> {
        #[derive(serde::Deserialize)]
        struct Named {
            name: String,
        }
        let api = self.api().await.ok()?;
        let nodes: Vec<Named> = api
            .get_json(&["nodes"], &[("columns", "name")])
            .await
            .ok()?;
        Some(nodes.into_iter().map(|n| n.name).collect())
    }

    /// A queue's live state from the management API; `None` when it does not exist.
    pub async fn live_queue(&self, name: &str) -> Result<Option<LiveQueue>> {
        self.api().await?.queue(self.vhost(), name).await
    }

    /// Whether `queue` exists, by passive declare on a fresh channel (a 404 closes it).
    ///
    /// Caution: on a classic queue a passive declare renews its `x-expires` lease (docs/broker-notes.md);
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

    /// Removes every ready message of `queue` (`queue.purge`): how many it removed. Messages
    /// delivered and not yet acked are not ready, and stay.
    pub async fn purge(&self, queue: &str) -> Result<u64> {
        let channel = self.channel().await?;
        let what = format!("purging queue {queue:?}");
        let purge = channel.queue_purge(queue.into(), lapin::options::QueuePurgeOptions::default());
        let removed = self
            .owed(&what, &[queue], async { Ok(purge.await) })
            .await?
            .map_err(|e| {
                // A stream refuses queue.purge with a connection-level 540: not a lost
                // connection (see docs/broker-notes.md, Bounded queues, streams, and who the
                // broker is).
                let not_implemented = matches!(
                    e.kind(),
                    ErrorKind::ProtocolError(amqp)
                        if amqp.kind() == &AMQPErrorKind::Hard(AMQPHardError::NOTIMPLEMENTED)
                );
                if not_implemented && protocol_error_text(&e).is_some_and(|t| t.contains("stream"))
                {
                    self.stream_dead_queue(queue)
                } else {
                    self.amqp_error(&e, &format!("cannot purge {queue:?}"))
                }
            })?;
        let _ = channel.close(200, "purged".into()).await;
        Ok(u64::from(removed))
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
                (Some(403), text) => Err(self.permission_refused(
                    if options.passive { "read" } else { "configure" },
                    &format!("queue {queue:?}"),
                    "the broker refused to declare it",
                    &text.unwrap_or_default(),
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
            crate::shell::list_queues_command(self.vhost())
        ))
    }

    /// The error for a dead-letter queue that is a stream (exit 7): what a stream is not, and
    /// the way to a queue queuey can read. `live::scan::explain_missing` adds the `queuey
    /// declare` command of the logical queue.
    pub fn stream_dead_queue(&self, queue: &str) -> Error {
        let delete = crate::shell::rabbitmqctl(self.vhost(), &["delete_queue", queue])
            .unwrap_or_else(|| "rabbitmqctl delete_queue".to_owned());
        Error::new(
            Kind::UnsupportedQueue,
            format!(
                "queue {queue:?} in vhost {:?} is a stream, and a stream cannot be a queuey \
                 dead-letter queue: it is read by offset and never acknowledged or requeued, \
                 so there is nothing queuey can peek, replay or purge in it",
                self.vhost()
            ),
        )
        .with_hint(format!(
            "queuey declares the dead-letter queue as a classic queue (a quorum queue works \
             too). To make it one: copy what you need out of the stream first (a stream client, \
             or a shovel from it), delete it with `{delete}` (this deletes its messages), then \
             declare it again"
        ))
    }

    /// Closes the AMQP connection politely, if one was opened.
    pub async fn close(&self) {
        self.close_checks().await;
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
                // queuey declares queues through `declare_raw` (configure, handled there), so
                // a refusal on a queue here is a consume, get or purge (read), and one on an
                // exchange is a publish (write).
                AMQPErrorKind::Soft(AMQPSoftError::ACCESSREFUSED) => {
                    let named = |kind: &str| {
                        let start = text.find(&format!("access to {kind} '"))? + kind.len() + 12;
                        let end = start + text[start..].find("' in vhost")?;
                        Some(format!("{kind} {:?}", &text[start..end]))
                    };
                    let (permission, resource) = if text.contains("access to exchange") {
                        (
                            "write",
                            named("exchange").unwrap_or_else(|| "the exchange".into()),
                        )
                    } else {
                        ("read", named("queue").unwrap_or_else(|| "the queue".into()))
                    };
                    self.permission_refused(permission, &resource, context, &text)
                }
                // A hard error closes the whole connection: an operator or the broker closed it
                // (CONNECTION_FORCED), or the broker shuts down.
                AMQPErrorKind::Hard(_) => Error::new(
                    Kind::Unreachable,
                    format!(
                        "{context}: the broker closed the connection ({text}) at {}",
                        self.settings().amqp.display()
                    ),
                )
                .with_hint("run the command again; messages not confirmed stayed where they were"),
                _ => match crate::user_id::parse_refusal(&text) {
                    // A copy's user_id another user's: a check before publishing missed it.
                    Some((claimed, user)) => Error::new(
                        Kind::BrokerRefused,
                        format!(
                            "{context}: the broker refused a copy's user_id property {claimed:?}: \
                             it takes a user_id only from that user, or from a user with the \
                             impersonator tag, and queuey is connected as {user:?} ({text})"
                        ),
                    )
                    .with_hint(format!(
                        "{}; or, for dead replay, run again with --strip-user-id to publish the \
                         copies without user_id",
                        crate::user_id::hint(&claimed, &user, None)
                    )),
                    None => Error::new(Kind::BrokerRefused, format!("{context}: {text}")),
                },
            };
        }
        if matches!(err.kind(), ErrorKind::ParsingError(_)) {
            return self.unreadable_message(err, context);
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
                    self.settings().amqp.display()
                ),
            )
            .with_hint("the broker closed the connection or went away; run the command again");
        }
        Error::new(Kind::BrokerRefused, format!("{context}: {err}"))
    }
}

impl Session {
    /// The broker delivered a frame lapin cannot parse: a message whose header name or
    /// short-string property (message_id, type, ...) is not UTF-8, which RabbitMQ takes from a
    /// publisher. lapin then drops the connection; a rerun meets the same message.
    fn unreadable_message(&self, err: &lapin::Error, context: &str) -> Error {
        Error::new(
            Kind::UnreadableMessage,
            format!(
                "{context}: RabbitMQ delivered a message that queuey's AMQP client cannot parse \
                 (lapin: {}), most likely a header name or a property (message_id, type, \
                 content_type, ...) that is not UTF-8, which RabbitMQ takes from a publisher. \
                 queuey removed nothing, but it cannot read that message or any behind it, and \
                 running the command again meets it again",
                super::amqp::parse_failure(err)
            ),
        )
        .with_hint(
            "take it out with a client that can read it (pika; or the management UI's Get \
             messages on RabbitMQ 3.x: the API of 4.3 answers 500 for it). Once the messages \
             before it are moved (`queuey dead replay` with --limit N --window 1, N the \
             deliveries read before it), it is first in the queue, and Get messages with Ack \
             mode \"Reject requeue false\" removes it; `queuey dead purge` without filters \
             empties the whole queue. On a quorum queue every such run spends one delivery of \
             each message queuey held, so queuey then refuses to read the queue again by \
             itself (--retry-unreadable reads it anyway)",
        )
    }
}

/// Whether the AMQP connection and the management API are one broker.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum OneBroker {
    Same,
    Different,
    /// One side did not tell its cluster name.
    Unknown,
}

/// Judges by the cluster name, which every node of a cluster shares and gives both in its AMQP
/// `connection.start` and in `/api/overview` (a node alone is a cluster of one: `rabbit@host`
/// by default). Versions are not compared: a cluster in a rolling upgrade runs two.
pub fn one_broker(amqp: &ServerProperties, api: &Overview) -> OneBroker {
    match (amqp.cluster_name.as_deref(), api.cluster_name.as_deref()) {
        (Some(a), Some(b)) if a == b => OneBroker::Same,
        (Some(_), Some(_)) => OneBroker::Different,
        _ => OneBroker::Unknown,
    }
}

/// Two names that differ are still one broker when the cluster was never named (each node then
/// gives its own default name as the cluster's) and the AMQP side's name is the default name of
/// a node of the API's cluster (`nodes`, from `/api/nodes`; empty when it could not be read:
/// then they stay different). See [`ApiCluster`].
pub fn one_unnamed_cluster(amqp: &ServerProperties, api: &Overview, nodes: &[String]) -> OneBroker {
    let cluster = ApiCluster {
        node: api.node.as_deref(),
        name: api.cluster_name.as_deref(),
        nodes,
    };
    match amqp.cluster_name.as_deref() {
        Some(a) if cluster.is_named(a) => OneBroker::Same,
        _ => one_broker(amqp, api),
    }
}

/// The error for an API that answers for another broker than the AMQP URL's (exit 6):
/// both named, and where the API URL came from.
pub fn other_broker(
    settings: &ConnectionSettings,
    amqp: &ServerProperties,
    api: &Overview,
) -> Error {
    let unknown = || "?".to_owned();
    let api_url = settings.api.display();
    let amqp_url = settings.amqp.display();
    let message = format!(
        "the management API at {api_url} answers for another broker than the AMQP URL's: \
         {amqp_url} is cluster {:?} (RabbitMQ {}), the API is cluster {:?} (RabbitMQ {}, \
         node {}). queuey would read one broker and act on the other: it stops here",
        amqp.cluster_name.clone().unwrap_or_else(unknown),
        amqp.version.clone().unwrap_or_else(unknown),
        api.cluster_name.clone().unwrap_or_else(unknown),
        api.rabbitmq_version.clone().unwrap_or_else(unknown),
        api.node.clone().unwrap_or_else(unknown),
    );
    let hint = if settings.api.derived {
        format!(
            "{api_url} was derived from the AMQP URL (its host, port {}, its credentials), \
             and the broker at {amqp_url} has its management API elsewhere: give it with \
             --api-url or QUEUEY_API_URL (`queuey ping` shows both ends)",
            crate::endpoint::DEFAULT_API_PORT
        )
    } else {
        "--api-url / QUEUEY_API_URL and --url / QUEUEY_URL name two brokers: point them at \
         the same one (`queuey ping` shows both ends)"
            .to_owned()
    };
    Error::new(Kind::OtherBroker, message).with_hint(hint)
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

/// How often a channel open answered by a stale channel-level close is tried again (each try
/// fails locally, without a round trip).
const STALE_CLOSE_RETRIES: u32 = 64;

/// Channels a check connection opens before it is replaced: fewer than the 2047 channel ids,
/// so that none is reused.
const CHECKS_PER_CONNECTION: u32 = 1000;

/// The reply text of an AMQP protocol error, when it is one.
pub fn protocol_error_text(err: &lapin::Error) -> Option<String> {
    match err.kind() {
        ErrorKind::ProtocolError(amqp) => Some(amqp.get_message().to_string()),
        _ => None,
    }
}

#[cfg(test)]
mod tests {

    /// A cluster never named: each node gives its own name. AMQP on one node and the API on
    /// another are one broker when both are nodes of the API's cluster, and two brokers when the
    /// node list does not hold both (or could not be read).
    #[test]
    fn the_nodes_of_an_unnamed_cluster_are_one_broker() {
        // As a private cluster on the test machine gives them (3.10.8 and 4.3.6): nodes named
        // after localhost, default cluster names after the host.
        let amqp = ServerProperties {
            cluster_name: Some("n1@vm".to_owned()),
            ..ServerProperties::default()
        };
        let api = Overview {
            cluster_name: Some("n2@vm".to_owned()),
            node: Some("n2@localhost".to_owned()),
            ..Overview::default()
        };
        let nodes = ["n1@localhost", "n2@localhost", "n3@localhost"].map(str::to_owned);
        assert_eq!(one_broker(&amqp, &api), OneBroker::Different);
        assert_eq!(one_unnamed_cluster(&amqp, &api, &nodes), OneBroker::Same);
        assert_eq!(
            one_unnamed_cluster(&amqp, &api, &nodes[1..]),
            OneBroker::Different
        );
        assert_eq!(one_unnamed_cluster(&amqp, &api, &[]), OneBroker::Different);
    }
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
