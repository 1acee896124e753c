//! What `queuey ping` prints: its JSON document, or a table of every address tried with what it
//! did, the verdict on one broker, and where the API address came from.

use serde::Serialize;

use crate::error::Result;
use crate::output::{self, Format, Output, sanitize::sanitize};

#[derive(Debug, Serialize)]
pub struct PingReport {
    pub amqp: AmqpReport,
    pub api: ApiReport,
    /// Whether both ends are one broker, by cluster name: `same`, `different` (exit 6), or
    /// `unknown` (one end did not tell).
    pub one_broker: &'static str,
    /// Every AMQP address, in order, with what it did.
    pub addresses: Vec<AddressOutcome>,
    /// Every management API address tried, in order, with what it did.
    pub api_addresses: Vec<AddressOutcome>,
    /// The nodes of the API's cluster (`/api/nodes`), read only when the ends gave different
    /// cluster names: a cluster never named gives each node's own name as the cluster's, and
    /// names among these nodes are that one cluster.
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub cluster_nodes: Vec<String>,
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

/// What one address did when `ping` tried it.
#[derive(Debug, Serialize)]
pub struct AddressOutcome {
    pub url: String,
    /// `used` (the first that answered: what every command connects to), `ok` (answers, after
    /// the one used), `no-answer` (a command skips it), `refused` (a command stops there), or
    /// `not-tried` (after a refusal).
    pub outcome: &'static str,
    pub cluster_name: Option<String>,
    pub rabbitmq_version: Option<String>,
    pub ms: u64,
    pub error: Option<String>,
}

/// Every address tried, with what it did (when a command would stop before the full table).
pub fn print_outcomes(
    output: Output,
    amqp: &[AddressOutcome],
    api: &[AddressOutcome],
) -> Result<()> {
    if output.format == Format::Json {
        return Ok(());
    }
    let mut table = output::table(&["", "endpoint", "status"]);
    for (label, outcome) in amqp
        .iter()
        .map(|o| ("amqp", o))
        .chain(api.iter().map(|o| ("management", o)))
    {
        table.add_row(vec![
            label.to_owned(),
            outcome.url.clone(),
            status_of(outcome),
        ]);
    }
    output::print_table(&table, output)
}

/// An address's outcome in the table.
fn status_of(o: &AddressOutcome) -> String {
    let unknown = || "?".to_owned();
    match o.outcome {
        "used" | "ok" => format!(
            "{}: RabbitMQ {}, cluster {}, answered in {} ms",
            if o.outcome == "used" {
                "ok, used"
            } else {
                "ok, not used (an earlier address answered)"
            },
            sanitize(&o.rabbitmq_version.clone().unwrap_or_else(unknown)),
            sanitize(&o.cluster_name.clone().unwrap_or_else(unknown)),
            o.ms
        ),
        "no-answer" => format!(
            "no answer, skipped: {}",
            sanitize(&o.error.clone().unwrap_or_default())
        ),
        _ => format!(
            "refused: {}",
            sanitize(&o.error.clone().unwrap_or_default())
        ),
    }
}

/// The table of every address, then the verdict on one broker and where the API address came
/// from (`api_origin`); with several addresses, which one commands connect to (`connected`).
pub fn print_table(
    report: &PingReport,
    api_origin: &str,
    connected: Option<&str>,
    output: Output,
) -> Result<()> {
    let several = connected.is_some();
    let unknown = || "?".to_owned();
    let mut table = output::table(&["", "endpoint", "status"]);
    // What each end answered matters more than its whole address.
    table
        .priority(&["", "status"])
        .min_width("endpoint", 24)
        .min_width("status", 24);
    for outcome in &report.addresses {
        let status = if outcome.outcome == "used" {
            format!(
                "ok: user {}, vhost {}, RabbitMQ {}, cluster {}, connected in {} ms{}",
                sanitize(&report.amqp.user),
                sanitize(&report.amqp.vhost),
                sanitize(&report.amqp.rabbitmq_version.clone().unwrap_or_else(unknown)),
                sanitize(&report.amqp.cluster_name.clone().unwrap_or_else(unknown)),
                report.amqp.connect_ms,
                if several { "; used" } else { "" }
            )
        } else {
            status_of(outcome)
        };
        table.add_row(vec!["amqp".to_owned(), outcome.url.clone(), status]);
    }
    for outcome in &report.api_addresses {
        let status = if outcome.outcome == "used" {
            format!(
                "ok: RabbitMQ {}, Erlang {}, node {}, cluster {}, answered in {} ms{}",
                sanitize(&report.api.rabbitmq_version.clone().unwrap_or_else(unknown)),
                sanitize(&report.api.erlang_version.clone().unwrap_or_else(unknown)),
                sanitize(&report.api.node.clone().unwrap_or_else(unknown)),
                sanitize(&report.api.cluster_name.clone().unwrap_or_else(unknown)),
                report.api.request_ms,
                if report.api_addresses.len() > 1 {
                    "; used"
                } else {
                    ""
                }
            )
        } else {
            status_of(outcome)
        };
        table.add_row(vec!["management".to_owned(), outcome.url.clone(), status]);
    }
    output::print_table(&table, output)?;
    let verdict = match report.one_broker {
        "same" if !report.cluster_nodes.is_empty() => format!(
            "one broker: a cluster never named (each node gives its own name), every address \
             that answered is one of its nodes: {}",
            sanitize(&report.cluster_nodes.join(", "))
        ),
        "same" => format!(
            "one broker: both ends are cluster {}",
            sanitize(&report.api.cluster_name.clone().unwrap_or_else(unknown))
        ),
        "different" => "TWO BROKERS: the AMQP URL and the management API are \
             different clusters"
            .to_owned(),
        _ => "one broker: not checked (one end did not tell its \
             cluster name)"
            .to_owned(),
    };
    output::print(format!(
        "{verdict}; the management API address was {api_origin}"
    ))?;
    if let Some(connected) = connected {
        output::print(connected)?;
    }
    Ok(())
}
