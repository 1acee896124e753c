//! `queuey ping`: can queuey reach the broker over AMQP and over the management API?

use std::time::Instant;

use serde::Serialize;

use crate::broker::{amqp, api::ApiClient};
use crate::endpoint::ConnectionSettings;
use crate::error::{ExitCode, Result};
use crate::output::{self, Format, Output, sanitize::sanitize};

#[derive(Debug, Serialize)]
pub struct PingReport {
    pub amqp: AmqpReport,
    pub api: ApiReport,
}

#[derive(Debug, Serialize)]
pub struct AmqpReport {
    pub url: String,
    pub user: String,
    pub vhost: String,
    pub connect_ms: u64,
}

#[derive(Debug, Serialize)]
pub struct ApiReport {
    pub url: String,
    pub rabbitmq_version: Option<String>,
    pub erlang_version: Option<String>,
    pub node: Option<String>,
    pub cluster_name: Option<String>,
    pub request_ms: u64,
}

fn elapsed_ms(start: Instant) -> u64 {
    u64::try_from(start.elapsed().as_millis()).unwrap_or(u64::MAX)
}

pub async fn run(connection: &ConnectionSettings, output: Output) -> Result<ExitCode> {
    let start = Instant::now();
    let conn = amqp::connect(&connection.amqp, "ping", connection.timeout).await?;
    let amqp = AmqpReport {
        url: connection.amqp.display(),
        user: connection.amqp.username.clone(),
        vhost: connection.amqp.vhost.clone(),
        connect_ms: elapsed_ms(start),
    };
    // Closing politely keeps the broker's log free of "client unexpectedly closed" warnings.
    let _ = conn.close(200, "queuey ping done".into()).await;

    let start = Instant::now();
    let client = ApiClient::new(connection.api.clone(), connection.timeout)?;
    let overview = match client.overview().await {
        Ok(o) => o,
        Err(e) => {
            output.note(&format!(
                "amqp: ok, connected to {} as {:?}, vhost {:?}",
                amqp.url, amqp.user, amqp.vhost
            ));
            return Err(e);
        }
    };
    let api = ApiReport {
        url: connection.api.display(),
        rabbitmq_version: overview.rabbitmq_version,
        erlang_version: overview.erlang_version,
        node: overview.node,
        cluster_name: overview.cluster_name,
        request_ms: elapsed_ms(start),
    };
    let report = PingReport { amqp, api };
    match output.format {
        Format::Json => output::print_json(&report)?,
        Format::Table => {
            let mut table = output::table(&["", "endpoint", "status"]);
            table.add_row(vec![
                "amqp".to_owned(),
                report.amqp.url.clone(),
                format!(
                    "ok: user {}, vhost {}, connected in {} ms",
                    sanitize(&report.amqp.user),
                    sanitize(&report.amqp.vhost),
                    report.amqp.connect_ms
                ),
            ]);
            let unknown = || "?".to_owned();
            table.add_row(vec![
                "management".to_owned(),
                report.api.url.clone(),
                format!(
                    "ok: RabbitMQ {}, Erlang {}, node {}, answered in {} ms",
                    sanitize(&report.api.rabbitmq_version.clone().unwrap_or_else(unknown)),
                    sanitize(&report.api.erlang_version.clone().unwrap_or_else(unknown)),
                    sanitize(&report.api.node.clone().unwrap_or_else(unknown)),
                    report.api.request_ms
                ),
            ]);
            output::print(table)?;
        }
    }
    Ok(ExitCode::Ok)
}
