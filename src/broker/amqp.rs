//! AMQP 0-9-1 connections (lapin) and what their failures mean for an operator.
//!
//! Every lapin error that reaches a user goes through [`classify`], which names what failed
//! (the URL without its password, the vhost, the queue) and how to fix it. A failed attempt
//! at one address ([`Failed`], the API client's too) says whether nothing answers there:
//! `broker::addresses` decides from it whether to try the next address.

use lapin::protocol::{AMQPErrorKind, AMQPHardError, AMQPSoftError};
use lapin::uri::{
    AMQPAuthority, AMQPQueryString, AMQPScheme, AMQPUri, AMQPUserInfo, SASLMechanism,
};
use lapin::{Connection, ConnectionProperties, DefaultConnectionBuilder, ErrorKind};

use crate::endpoint::{AmqpTarget, ConnectionSettings};
use crate::error::{Error, Kind, Result};
use crate::tls_pem::TlsSettings;

/// lapin's URI for a parsed target (the host as queuey parsed it: see `endpoint`).
pub fn uri(target: &AmqpTarget) -> AMQPUri {
    let q = &target.query;
    AMQPUri {
        scheme: if target.tls {
            AMQPScheme::AMQPS
        } else {
            AMQPScheme::AMQP
        },
        authority: AMQPAuthority {
            userinfo: AMQPUserInfo {
                username: target.username.clone(),
                password: target.password().to_owned(),
            },
            host: target.host.clone(),
            port: target.port,
        },
        vhost: target.vhost.clone(),
        query: AMQPQueryString {
            frame_max: q.frame_max,
            channel_max: q.channel_max,
            heartbeat: q.heartbeat,
            connection_timeout: q.connection_timeout,
            // `endpoint` admits only the names lapin parses.
            auth_mechanism: q
                .auth_mechanism
                .as_deref()
                .and_then(|m| m.parse::<SASLMechanism>().ok()),
        },
    }
}

/// Opens an AMQP connection named `queuey <version> <purpose> (pid N)` (visible in the
/// management UI, so an operator can tell which process holds messages), giving up
/// after the connect timeout (a black-holed host would otherwise hang the TCP connect for
/// minutes). An `amqps://` URL uses the settings' TLS files (a private CA, a client identity).
pub async fn connect(settings: &ConnectionSettings, purpose: &str) -> Result<Connection> {
    try_connect(settings, purpose)
        .await
        .map_err(|failed| failed.error)
}

/// A failed attempt at one address, and whether it means that nothing answers there (the next
/// address may be tried) rather than a refusal the user has to fix.
#[derive(Debug)]
pub struct Failed {
    pub error: Error,
    pub no_answer: bool,
}

impl Failed {
    /// Something answered, and refused (or the attempt failed before reaching the address).
    pub fn answered(error: Error) -> Failed {
        Failed {
            error,
            no_answer: false,
        }
    }

    /// Nothing answered at the address.
    pub fn unanswered(error: Error) -> Failed {
        Failed {
            error,
            no_answer: true,
        }
    }
}

/// [`connect`] to `settings.amqp`, telling apart an address where no broker answers (the caller
/// may try the next address: see [`super::addresses`]) from a broker that refused.
pub async fn try_connect(
    settings: &ConnectionSettings,
    purpose: &str,
) -> std::result::Result<Connection, Failed> {
    let (target, timeout) = (&settings.amqp, settings.timeout);
    let name = format!(
        "queuey {} {purpose} (pid {})",
        env!("CARGO_PKG_VERSION"),
        std::process::id()
    );
    let properties = ConnectionProperties::default().with_connection_name(name.into());
    super::server_properties::listen();
    let builder = DefaultConnectionBuilder::new()
        .map_err(|e| {
            Failed::answered(Error::internal(format!(
                "cannot start the AMQP client: {e}"
            )))
        })?
        .with_uri(uri(target))
        .with_properties(properties)
        .with_tls_config(super::tls_clients::amqp_config(&settings.tls));
    match tokio::time::timeout(timeout, builder.connect()).await {
        Ok(Ok(connection)) => Ok(connection),
        Ok(Err(err)) => Err(Failed {
            no_answer: no_answer(target, &err),
            error: classify_connect(target, &settings.tls, &err),
        }),
        Err(_) => Err(Failed::unanswered(Error::new(
            Kind::Unreachable,
            format!(
                "cannot connect to RabbitMQ at {}: no answer within {}",
                target.display(),
                crate::duration::format_duration(timeout)
            ),
        )
        .with_hint(
            "is the host reachable, the port open and an AMQP listener (a firewall that drops packets, \
             or a server that waits for another protocol, looks like this)? Check --url / \
             QUEUEY_URL, or allow more time with --connect-timeout",
        ))),
    }
}

/// Whether a failed connection means that no broker answers at `target` (refused, a name that
/// does not resolve, an unreachable network, something that does not speak AMQP, a node shutting
/// down), rather than a broker that refused this user or vhost, or a TLS handshake that failed
/// on a certificate: those are the same on every node of a cluster, and the user's to fix.
fn no_answer(target: &AmqpTarget, err: &lapin::Error) -> bool {
    if target.tls && super::tls_clients::rustls_error(err).is_some() {
        return false;
    }
    match err.kind() {
        ErrorKind::IOError(io) => {
            // A stream closed mid-handshake is a refused login (plain) or a refused
            // certificate (TLS); any other failure of a TLS handshake names a certificate too.
            let f = IoFailure::of(io);
            f.refused_or_dns || (!f.closed && !target.tls)
        }
        ErrorKind::ParsingError(_) | ErrorKind::InvalidProtocolVersion(_) => true,
        ErrorKind::ProtocolError(amqp) => matches!(
            amqp.kind(),
            AMQPErrorKind::Hard(AMQPHardError::CONNECTIONFORCED)
        ),
        _ => false,
    }
}

/// What an I/O failure of a connection attempt is.
struct IoFailure {
    /// A name that does not resolve.
    dns: bool,
    /// A connection refused, or a name that does not resolve.
    refused_or_dns: bool,
    /// A stream closed mid-handshake.
    closed: bool,
}

impl IoFailure {
    fn of(io: &std::io::Error) -> IoFailure {
        let lower = io.to_string().to_ascii_lowercase();
        let dns = lower.contains("lookup") || lower.contains("resolve");
        IoFailure {
            dns,
            refused_or_dns: io.kind() == std::io::ErrorKind::ConnectionRefused || dns,
            closed: matches!(
                io.kind(),
                std::io::ErrorKind::ConnectionReset
                    | std::io::ErrorKind::UnexpectedEof
                    | std::io::ErrorKind::BrokenPipe
            ),
        }
    }
}

/// What a failed connection attempt means.
pub fn classify_connect(target: &AmqpTarget, tls: &TlsSettings, err: &lapin::Error) -> Error {
    let url = target.display();
    if target.tls
        && let Some(found) = super::tls_clients::rustls_error(err)
        && let Some(explained) = super::tls_clients::explain(found, &tls_peer(target), tls)
    {
        return explained;
    }
    match err.kind() {
        ErrorKind::ProtocolError(amqp) => {
            let text = amqp.get_message().to_string();
            match amqp.kind() {
                AMQPErrorKind::Hard(AMQPHardError::NOTALLOWED) => vhost_refused(target, &text),
                AMQPErrorKind::Soft(AMQPSoftError::ACCESSREFUSED) => {
                    credentials_refused(target, &text)
                }
                _ => Error::new(
                    Kind::BrokerRefused,
                    format!("RabbitMQ at {url} refused the connection: {text}"),
                ),
            }
        }
        ErrorKind::IOError(io) => {
            let detail = io.to_string();
            let IoFailure {
                dns,
                refused_or_dns,
                closed,
            } = IoFailure::of(io);
            if target.tls && closed {
                return super::tls_clients::closed_in_handshake(&tls_peer(target), tls, &detail);
            }
            if target.tls && !refused_or_dns {
                return Error::new(
                    Kind::Unreachable,
                    format!("TLS handshake with {url} failed: {detail}"),
                )
                .with_hint(
                    "amqps:// needs the broker's TLS listener (usually port 5671) and a \
                     certificate this machine trusts; for a plain listener use amqp://",
                );
            }
            match io.kind() {
                std::io::ErrorKind::ConnectionRefused => Error::new(
                    Kind::Unreachable,
                    format!("cannot connect to RabbitMQ at {url}: connection refused"),
                )
                .with_hint(
                    "nothing listens on that host and port. Is the broker running (rabbitmqctl \
                     status)? Check the host and port in --url / QUEUEY_URL",
                ),
                // RabbitMQ closes the socket on a failed login without a connection.close on
                // some versions and mechanisms; lapin then sees the stream end mid-handshake.
                std::io::ErrorKind::UnexpectedEof | std::io::ErrorKind::ConnectionReset
                    if !target.tls =>
                {
                    Error::new(
                        Kind::AccessRefused,
                        format!(
                            "RabbitMQ at {url} closed the connection during the handshake: {detail}"
                        ),
                    )
                    .with_hint(
                        "this is how a broker refuses a wrong username or password (or a \
                         client it does not accept); check the credentials in --url / QUEUEY_URL",
                    )
                }
                _ if dns => Error::new(
                    Kind::Unreachable,
                    format!(
                        "cannot resolve the host {:?} of {url}: {detail}",
                        target.host
                    ),
                )
                .with_hint("check the host name in --url / QUEUEY_URL"),
                _ => Error::new(
                    Kind::Unreachable,
                    format!("cannot connect to RabbitMQ at {url}: {detail}"),
                )
                .with_hint(port_hint(target)),
            }
        }
        ErrorKind::AuthProviderError(text) => credentials_refused(target, text),
        ErrorKind::ParsingError(_) | ErrorKind::InvalidProtocolVersion(_) => Error::new(
            Kind::Unreachable,
            format!(
                "the server at {url} does not speak AMQP 0-9-1: it sent {}",
                parse_failure(err)
            ),
        )
        .with_hint(NOT_AMQP_HINT),
        _ => Error::new(
            Kind::Unreachable,
            format!("cannot connect to RabbitMQ at {url}: {err}"),
        )
        .with_hint(port_hint(target)),
    }
}

/// What lapin says of a frame it could not parse, without its parser's debug dump
/// (`failed to parse: Parsing Error: ParserErrors { error: Nom(MapRes), .. }`).
pub fn parse_failure(err: &lapin::Error) -> &'static str {
    match err.kind() {
        lapin::ErrorKind::ParsingError(_) => "a frame it cannot parse",
        lapin::ErrorKind::InvalidProtocolVersion(_) => "an answer that is not AMQP 0-9-1",
        _ => "an answer it cannot read",
    }
}

/// What answers like a server that is not AMQP's.
const NOT_AMQP_HINT: &str = "is that the AMQP port (5672, or 5671 for amqps)? The management \
     port 15672, an HTTP proxy or a TLS-only listener answer like this; an amqps listener needs \
     amqps://";

/// The hint for a connection that ended before the AMQP handshake: the management API's
/// HTTP server closes an AMQP client's connection (see docs/broker-notes.md, Connections, TLS
/// and deep headers), so a URL naming a port HTTP usually listens on says so.
fn port_hint(target: &AmqpTarget) -> String {
    match target.port {
        15672 | 15671 | 80 | 443 | 8080 | 8443 => format!(
            "port {} is usually the management API's (HTTP), not AMQP's: give the AMQP port in \
             --url / QUEUEY_URL (5672, or 5671 for amqps; the API's address goes in --api-url)",
            target.port
        ),
        _ => "check that the broker runs and that --url / QUEUEY_URL names its AMQP port (5672, \
              or 5671 for amqps), not its management API's (15672), whose HTTP server drops an \
              AMQP client"
            .to_owned(),
    }
}

/// The AMQP end as a TLS peer (exit 4 when its handshake fails).
fn tls_peer(target: &AmqpTarget) -> super::tls_clients::Peer<'_> {
    super::tls_clients::Peer {
        what: format!("RabbitMQ at {}", target.display()),
        host: &target.host,
        host_setting: "--url / QUEUEY_URL",
        certfile_setting: "ssl_options.certfile",
        kind: Kind::Unreachable,
    }
}

/// The way out of a vhost that does not exist, the same from every command.
pub const MISSING_VHOST_HINT: &str = "the vhost is the URL's path, percent-encoded: /%2f is the \
     default vhost \"/\". `rabbitmqctl list_vhosts` lists the vhosts there are";

fn credentials_refused(target: &AmqpTarget, text: &str) -> Error {
    Error::new(
        Kind::AccessRefused,
        format!(
            "RabbitMQ at {} refused the login of user {:?}: {text}",
            target.display(),
            target.username
        ),
    )
    .with_hint(credentials_hint(target))
}

/// What to check after a refused login: the password the URL did not give, or the user and
/// password it did (and, for guest, where it may log in from).
fn credentials_hint(target: &AmqpTarget) -> String {
    let mut hint = if target.password_given {
        "check the username and password in --url / QUEUEY_URL".to_owned()
    } else {
        "the URL gives no password, so the default one (guest) was sent: give the user's \
         password in --url / QUEUEY_URL, as amqp://user:password@host:5672/vhost"
            .to_owned()
    };
    if target.username == "guest" {
        hint.push_str(" (the guest user can only connect from localhost)");
    }
    hint
}

fn vhost_refused(target: &AmqpTarget, text: &str) -> Error {
    let missing = text.contains("not found");
    let message = if missing {
        format!(
            "the vhost {:?} does not exist on RabbitMQ at {}: {text}",
            target.vhost,
            target.display()
        )
    } else {
        format!(
            "user {:?} may not use the vhost {:?} on RabbitMQ at {}: {text}",
            target.username,
            target.vhost,
            target.display()
        )
    };
    let hint = if missing {
        MISSING_VHOST_HINT.to_owned()
    } else {
        vhost_access_hint(&target.vhost, &target.username)
    };
    Error::new(Kind::AccessRefused, message).with_hint(hint)
}

/// How an administrator gives `user` access to `vhost`, the names filled in: the read
/// permission on every queue, which queuey's reading commands need (`verify`, `status`,
/// `dead ls`, `dead check`), and where the others' needs are listed.
pub fn vhost_access_hint(vhost: &str, user: &str) -> String {
    let grant = crate::shell::rabbitmqctl(vhost, &["set_permissions", user, "", "", ".*"]);
    let more = "declare needs configure on q and q.dead, dead replay and dead edit write on \
                amq.default (docs/permissions.md lists each command's)";
    match grant {
        Some(grant) => format!(
            "an administrator grants read access, enough for queuey's reading commands, with \
             `{grant}`; {more}; or use another user"
        ),
        None => format!(
            "an administrator grants read access with rabbitmqctl set_permissions, the vhost \
             and user as named above, configure '' write '' read '.*' ({}); {more}; or use \
             another user",
            crate::shell::REREAD_CAVEAT
        ),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn query_parameters_are_read_as_lapin_reads_them() {
        for query in [
            "",
            "?heartbeat=10",
            "?frame_max=131072&channel_max=7&connection_timeout=5000",
            "?auth_mechanism=EXTERNAL",
            "?heartbeat=1&heartbeat=2&unknown=x",
        ] {
            let text = format!("amqp://u:p@broker.example:5672/v{query}");
            let ours = uri(&AmqpTarget::parse(&text).unwrap());
            let lapins: AMQPUri = text.parse().unwrap();
            assert_eq!(ours.query, lapins.query, "{text}");
        }
        for bad in [
            "?heartbeat=x",
            "?frame_max=-1",
            "?channel_max=70000",
            "?auth_mechanism=kerberos",
        ] {
            let text = format!("amqp://u:p@broker.example:5672/v{bad}");
            assert!(text.parse::<AMQPUri>().is_err(), "lapin accepts {text}");
            let err = AmqpTarget::parse(&text).unwrap_err();
            assert_eq!(err.kind, Kind::BadUrl, "{text}");
        }
    }

    #[test]
    fn refused_connection_names_the_url_without_password() {
        let target = AmqpTarget::parse("amqp://bob:hunter22@localhost:1/%2f").unwrap();
        let io = std::io::Error::from(std::io::ErrorKind::ConnectionRefused);
        let err = classify_connect(&target, &TlsSettings::default(), &lapin::Error::from(io));
        assert_eq!(err.kind, Kind::Unreachable);
        assert!(err.message.contains("amqp://bob:***@localhost:1/"), "{err}");
        assert!(!err.to_string().contains("hunter22"));
    }
}
