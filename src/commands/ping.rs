//! `queuey ping`: can queuey reach the broker over AMQP and over the management API?

use std::time::Instant;

use serde::Serialize;

use crate::broker::session::{OneBroker, one_broker, other_broker};
use crate::broker::{amqp, api::ApiClient, server_properties};
use crate::endpoint::{ConnectionSettings, DEFAULT_API_PORT};
use crate::error::{ExitCode, Result};
use crate::output::{self, Format, Output, sanitize::sanitize};

#[derive(Debug, Serialize)]
pub struct PingReport {
    pub amqp: AmqpReport,
    pub api: ApiReport,
    /// Whether both ends are one broker, by cluster name: `same`, `different` (exit 6), or
    /// `unknown` (one end did not tell).
    pub one_broker: &'static str,
}

#[derive(Debug, Serialize)]
pub struct AmqpReport {
    pub url: String,
    pub user: String,
    pub vhost: String,
    /// From the broker's `connection.start`.
    pub cluster_name: Option<String>,
    pub rabbitmq_version: Option<String>,
    pub connect_ms: u64,
}

#[derive(Debug, Serialize)]
pub struct ApiReport {
    pub url: String,
    /// Whether the address was derived from the AMQP URL (no --api-url or QUEUEY_API_URL).
    pub derived: bool,
    pub rabbitmq_version: Option<String>,
    pub erlang_version: Option<String>,
    pub node: Option<String>,
    pub cluster_name: Option<String>,
    pub request_ms: u64,
}

fn elapsed_ms(start: Instant) -> u64 {
    u64::try_from(start.elapsed().as_millis()).unwrap_or(u64::MAX)
}

/// Why the API is where it is: derived from the AMQP URL, or given.
pub fn api_origin(connection: &ConnectionSettings) -> String {
    if connection.api.derived {
        format!(
            "derived from the AMQP URL (its host, port {DEFAULT_API_PORT}, its credentials) since \
             no --api-url or QUEUEY_API_URL was given"
        )
    } else {
        "given with --api-url or QUEUEY_API_URL".to_owned()
    }
}

pub async fn run(connection: &ConnectionSettings, output: Output) -> Result<ExitCode> {
    let start = Instant::now();
    server_properties::clear();
    let conn = amqp::connect(connection, "ping").await?;
    let server = server_properties::last().unwrap_or_default();
    let amqp = AmqpReport {
        url: connection.amqp.display(),
        user: connection.amqp.username.clone(),
        vhost: connection.amqp.vhost.clone(),
        cluster_name: server.cluster_name.clone(),
        rabbitmq_version: server.version.clone(),
        connect_ms: elapsed_ms(start),
    };
    // Closing politely keeps the broker's log free of "client unexpectedly closed" warnings.
    let _ = conn.close(200, "queuey ping done".into()).await;

    let start = Instant::now();
    let client = ApiClient::new(connection.api.clone(), &connection.tls, connection.timeout)?;
    let overview = match client.overview().await {
        Ok(o) => o,
        Err(e) => {
            output.note(&format!(
                "amqp: ok, connected to {} as {:?}, vhost {:?}; the management API address {} \
                 was {}",
                amqp.url,
                amqp.user,
                amqp.vhost,
                connection.api.display(),
                api_origin(connection)
            ));
            return Err(e);
        }
    };
    let judged = one_broker(&server, &overview);
    let mismatch =
        (judged == OneBroker::Different).then(|| other_broker(connection, &server, &overview));
    let api = ApiReport {
        url: connection.api.display(),
        derived: connection.api.derived,
        rabbitmq_version: overview.rabbitmq_version,
        erlang_version: overview.erlang_version,
        node: overview.node,
        cluster_name: overview.cluster_name,
        request_ms: elapsed_ms(start),
    };
    let report = PingReport {
        amqp,
        api,
        one_broker: match judged {
            OneBroker::Same => "same",
            OneBroker::Different => "different",
            OneBroker::Unknown => "unknown",
        },
    };
    let unknown = || "?".to_owned();
    match output.format {
        // Two brokers: the error is the one JSON document (it names both ends).
        Format::Json if mismatch.is_some() => {}
        Format::Json => output::print_json(&report)?,
        Format::Table | Format::Prometheus => {
            let mut table = output::table(&["", "endpoint", "status"]);
            table.add_row(vec![
                "amqp".to_owned(),
                report.amqp.url.clone(),
                format!(
                    "ok: user {}, vhost {}, RabbitMQ {}, cluster {}, connected in {} ms",
                    sanitize(&report.amqp.user),
                    sanitize(&report.amqp.vhost),
                    sanitize(&report.amqp.rabbitmq_version.clone().unwrap_or_else(unknown)),
                    sanitize(&report.amqp.cluster_name.clone().unwrap_or_else(unknown)),
                    report.amqp.connect_ms
                ),
            ]);
            table.add_row(vec![
                "management".to_owned(),
                report.api.url.clone(),
                format!(
                    "ok: RabbitMQ {}, Erlang {}, node {}, cluster {}, answered in {} ms",
                    sanitize(&report.api.rabbitmq_version.clone().unwrap_or_else(unknown)),
                    sanitize(&report.api.erlang_version.clone().unwrap_or_else(unknown)),
                    sanitize(&report.api.node.clone().unwrap_or_else(unknown)),
                    sanitize(&report.api.cluster_name.clone().unwrap_or_else(unknown)),
                    report.api.request_ms
                ),
            ]);
            output::print(table)?;
            let verdict = match judged {
                OneBroker::Same => format!(
                    "one broker: both ends are cluster {}",
                    sanitize(&report.api.cluster_name.clone().unwrap_or_else(unknown))
                ),
                OneBroker::Different => "TWO BROKERS: the AMQP URL and the management API are \
                     different clusters"
                    .to_owned(),
                OneBroker::Unknown => "one broker: not checked (one end did not tell its \
                     cluster name)"
                    .to_owned(),
            };
            output::print(format!(
                "{verdict}; the management API address was {}",
                api_origin(connection)
            ))?;
        }
    }
    match mismatch {
        Some(e) => Err(e),
        None => Ok(ExitCode::Ok),
    }
}
