//! Checking a permission before the work that needs it, without changing anything.
//!
//! Reading a user's permissions takes the administrator tag (`/api/permissions/{vhost}/{user}`,
//! `/api/users/{user}/permissions`), which an operator's user rarely has. So queuey asks the
//! broker the way the work itself would, with an action the broker refuses (403
//! ACCESS_REFUSED, which closes the channel) before it does anything when the permission is
//! missing, and that changes nothing when it is there (see docs/broker-notes.md, Permissions
//! and management tags):
//!
//! - **write** (publishing, `dead replay`): a mandatory publish of an empty message to the
//!   default exchange with a routing key no queue has, on a connection of its own. Allowed, the broker returns it
//!   (NO_ROUTE, 312) and confirms it; refused, the channel closes with 403. The broker checks
//!   write permission on the exchange only (`amq.default` for the default exchange, which a
//!   replay publishes through), never on the queue a message is routed to.
//! - **configure** (`declare`): a declare of the queue itself with an argument the broker
//!   always refuses (`x-expires` = 0). The broker checks the configure permission first (403),
//!   then the arguments (406 `invalid arg`): the queue is neither created nor changed.

use lapin::options::{BasicPublishOptions, ConfirmSelectOptions, QueueDeclareOptions};
use lapin::types::{AMQPValue, FieldTable};

use super::session::{Session, protocol_error_text, soft_error_code};
use crate::error::{Error, Kind, Result};

/// The argument and value that make every declare invalid, after the permission check.
const INVALID_ARGUMENT: (&str, i64) = ("x-expires", 0);

/// What a write-permission check found, when it did not fail.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum WriteCheck {
    /// The broker confirmed a test publish: the user may publish.
    Allowed,
    /// The broker did not answer within the timeout, so the permission was not checked.
    Unanswered(Unanswered),
}

/// A test publish the broker did not answer: a memory or disk alarm blocks publishing
/// connections, and a blocked broker neither confirms nor refuses. Its text is the warning.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Unanswered {
    timeout: std::time::Duration,
    user: String,
    vhost: String,
}

impl std::fmt::Display for Unanswered {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(
            f,
            "the broker did not answer a test publish within {} (a memory or disk alarm blocks \
             publishing: `rabbitmq-diagnostics alarms` lists them), so queuey could not check \
             that user {:?} may publish in vhost {:?}",
            crate::duration::format_duration(self.timeout),
            self.user,
            self.vhost
        )
    }
}

impl Session {
    /// Fails with exit 5 (naming the user, the vhost and the permission) unless the user may
    /// publish through the default exchange; `doing` names the command (`dead replay`).
    ///
    /// [`WriteCheck::Unanswered`] when the broker gave no answer within the connect timeout: a
    /// memory or disk alarm blocks publishing connections, and a blocked broker neither
    /// confirms nor refuses. The caller says so and goes on; the permission was not checked.
    pub async fn check_write_permission(&self, doing: &str) -> Result<WriteCheck> {
        // On a connection of its own: under an alarm the broker stops reading from a
        // connection once it publishes, and the session's connection must stay free to read
        // q.dead (a dry run publishes nothing and works during an alarm).
        let timeout = self.settings().timeout;
        // To the address the session uses.
        self.connection().await?;
        let connection =
            super::amqp::connect(self.settings(), &format!("{doing} (write check)")).await?;
        let result = self.publish_probe(&connection, doing).await;
        // A blocked connection may never answer its close: do not wait for ever.
        let _ = tokio::time::timeout(timeout, connection.close(200, "ok".into())).await;
        result
    }

    async fn publish_probe(
        &self,
        connection: &lapin::Connection,
        doing: &str,
    ) -> Result<WriteCheck> {
        let timeout = self.settings().timeout;
        let channel = connection
            .create_channel()
            .await
            .map_err(|e| self.amqp_error(&e, "cannot open a channel"))?;
        channel
            .confirm_select(ConfirmSelectOptions::default())
            .await
            .map_err(|e| self.amqp_error(&e, "cannot enable publisher confirms"))?;
        // A name no queue has: binding keys of the default exchange are queue names.
        let key = format!("queuey.write-check.{}", crate::clock::unique_id());
        // Under a memory or disk alarm the publish or its confirmation may wait: the deadline
        // covers both.
        let confirmed = tokio::time::timeout(timeout, async {
            channel
                .basic_publish(
                    "".into(),
                    key.as_str().into(),
                    BasicPublishOptions {
                        mandatory: true,
                        ..BasicPublishOptions::default()
                    },
                    b"",
                    lapin::BasicProperties::default(),
                )
                .await?
                .await
                .map(|_| ())
        })
        .await;
        let Ok(confirmed) = confirmed else {
            return Ok(WriteCheck::Unanswered(Unanswered {
                timeout,
                user: self.settings().amqp.username.clone(),
                vhost: self.vhost().to_owned(),
            }));
        };
        match confirmed {
            Ok(()) => Ok(WriteCheck::Allowed),
            Err(e) if soft_error_code(&e) == Some(403) => Err(self.permission_refused(
                "write",
                "the default exchange (amq.default)",
                &format!(
                    "{doing} publishes the dead letters' copies through it, and the broker \
                     refused a test publish"
                ),
                &protocol_error_text(&e).unwrap_or_default(),
            )),
            Err(e) => Err(self.amqp_error(&e, "cannot check the write permission")),
        }
    }

    /// Fails with exit 5 (naming the user, the vhost and the permission) unless the user may
    /// declare `queue`; creates and changes nothing either way.
    pub async fn check_configure_permission(&self, queue: &str) -> Result<()> {
        let channel = self.check_channel().await?;
        let mut arguments = FieldTable::default();
        arguments.insert(
            INVALID_ARGUMENT.0.into(),
            AMQPValue::LongLongInt(INVALID_ARGUMENT.1),
        );
        let result = channel
            .queue_declare(
                queue.into(),
                QueueDeclareOptions {
                    durable: true,
                    ..QueueDeclareOptions::default()
                },
                arguments,
            )
            .await;
        match result {
            // 406 (invalid or inequivalent arguments) or 405 (exclusive to another
            // connection): past the permission check, nothing changed.
            Err(e) if matches!(soft_error_code(&e), Some(405 | 406)) => Ok(()),
            Err(e) if soft_error_code(&e) == Some(403) => Err(self.permission_refused(
                "configure",
                &format!("queue {queue:?}"),
                "declaring a queue needs it",
                &protocol_error_text(&e).unwrap_or_default(),
            )),
            Err(e) => Err(self.amqp_error(
                &e,
                &format!("cannot check the configure permission on queue {queue:?}"),
            )),
            // A broker that accepts x-expires = 0 created (or kept) the queue: the user may
            // configure it. Say so rather than pretend nothing happened.
            Ok(_) => {
                let _ = channel.close(200, "ok".into()).await;
                Err(Error::internal(format!(
                    "the broker accepted x-expires = 0 on queue {queue:?} while queuey checked \
                     the configure permission; check the queue's arguments"
                )))
            }
        }
    }

    /// The error for a permission the broker refused: exit 5, naming the user, the vhost, the
    /// permission and the resource, and how an administrator grants it.
    pub fn permission_refused(
        &self,
        permission: &str,
        resource: &str,
        why: &str,
        reply: &str,
    ) -> Error {
        let user = &self.settings().amqp.username;
        let vhost = self.vhost();
        let (grant, list) = match (
            crate::shell::set_permissions_advice(vhost, user),
            crate::shell::rabbitmqctl("/", &["list_user_permissions", user]),
        ) {
            (Some(grant), Some(list)) => (grant, list),
            _ => {
                return Error::new(
                    Kind::AccessRefused,
                    format!(
                        "user {user:?} has no {permission} permission on {resource} in vhost \
                         {vhost:?}: {why} ({reply})"
                    ),
                )
                .with_hint(format!(
                    "an administrator grants it with rabbitmqctl set_permissions for that \
                     vhost and user, the {permission} pattern matching {resource} ({})",
                    crate::shell::REREAD_CAVEAT
                ));
            }
        };
        Error::new(
            Kind::AccessRefused,
            format!(
                "user {user:?} has no {permission} permission on {resource} in vhost {vhost:?}: \
                 {why} ({reply})"
            ),
        )
        .with_hint(format!(
            "an administrator grants it with `{grant}`, the {permission} pattern matching \
             {resource} and the others as they are now (this replaces all three patterns: \
             `{list}` shows the current ones; the placeholders make the command fail until \
             they are filled in)"
        ))
    }
}
