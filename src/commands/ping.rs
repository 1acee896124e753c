//! `queuey ping`: can queuey reach the broker over AMQP and over the management API?

use std::time::Instant;

use serde::Serialize;

use crate::broker::api::{ApiClient, Overview};
use crate::broker::server_properties::{self, ServerProperties};
use crate::broker::session::{OneBroker, one_broker, other_broker};
use crate::broker::{addresses, amqp};
use crate::endpoint::{ApiTarget, ConnectionSettings, DEFAULT_API_PORT};
use crate::error::{Error, ExitCode, Result};
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

impl AddressOutcome {
    fn failed(url: String, start: Instant, error: &Error, no_answer: bool) -> AddressOutcome {
        AddressOutcome {
            url,
            outcome: if no_answer { "no-answer" } else { "refused" },
            cluster_name: None,
            rabbitmq_version: None,
            ms: elapsed_ms(start),
            error: Some(error.message.clone()),
        }
    }
}

/// Tries every AMQP address in order: which one a command would use (the first that answers,
/// unless a refusal comes first), and what each did. `Err` when a command would stop: its error.
async fn try_amqp(
    connection: &ConnectionSettings,
) -> (
    Vec<AddressOutcome>,
    Result<(ConnectionSettings, ServerProperties, u64)>,
) {
    let mut outcomes = Vec::new();
    let mut chosen: Option<Result<(ConnectionSettings, ServerProperties, u64)>> = None;
    let mut skipped = Vec::new();
    for index in 0..connection.addresses.len() {
        let at = match connection.at(index) {
            Ok(at) => at,
            Err(e) => return (outcomes, Err(e)),
        };
        let start = Instant::now();
        server_properties::clear();
        match amqp::try_connect(&at, "ping").await {
            Ok(conn) => {
                let server = server_properties::last().unwrap_or_default();
                let ms = elapsed_ms(start);
                // Closing politely keeps the broker's log free of "client unexpectedly closed".
                let _ = conn.close(200, "queuey ping done".into()).await;
                let used = chosen.is_none();
                outcomes.push(AddressOutcome {
                    url: at.amqp.display(),
                    outcome: if used { "used" } else { "ok" },
                    cluster_name: server.cluster_name.clone(),
                    rabbitmq_version: server.version.clone(),
                    ms,
                    error: None,
                });
                if used {
                    chosen = Some(Ok((at, server, ms)));
                }
            }
            Err(failed) => {
                outcomes.push(AddressOutcome::failed(
                    at.amqp.display(),
                    start,
                    &failed.error,
                    failed.no_answer,
                ));
                if chosen.is_none() {
                    if failed.no_answer {
                        skipped.push(failed.error);
                    } else {
                        let count = connection.addresses.len();
                        chosen = Some(Err(addresses::refused_among_several(failed.error, count)));
                    }
                }
            }
        }
    }
    let chosen = chosen.unwrap_or_else(|| Err(addresses::none_answered_amqp(&skipped)));
    (outcomes, chosen)
}

/// Tries every management API address for `at` (the AMQP address used), in order.
async fn try_api(
    at: &ConnectionSettings,
) -> (Vec<AddressOutcome>, Result<(ApiTarget, Overview, u64)>) {
    let mut outcomes = Vec::new();
    let mut chosen: Option<Result<(ApiTarget, Overview, u64)>> = None;
    let mut skipped = Vec::new();
    for target in at.api_candidates() {
        let start = Instant::now();
        let client = match ApiClient::new(target.clone(), &at.tls, at.timeout) {
            Ok(client) => client,
            Err(e) => return (outcomes, Err(e)),
        };
        match client.overview_at().await {
            Ok(overview) => {
                let used = chosen.is_none();
                let ms = elapsed_ms(start);
                outcomes.push(AddressOutcome {
                    url: target.display(),
                    outcome: if used { "used" } else { "ok" },
                    cluster_name: overview.cluster_name.clone(),
                    rabbitmq_version: overview.rabbitmq_version.clone(),
                    ms,
                    error: None,
                });
                if used {
                    chosen = Some(Ok((target, overview, ms)));
                }
            }
            Err(failed) => {
                outcomes.push(AddressOutcome::failed(
                    target.display(),
                    start,
                    &failed.error,
                    failed.no_answer,
                ));
                if chosen.is_none() {
                    if failed.no_answer {
                        skipped.push(failed.error);
                    } else {
                        chosen = Some(Err(failed.error));
                    }
                }
            }
        }
    }
    let chosen = chosen.unwrap_or_else(|| Err(addresses::none_answered_api(&skipped)));
    (outcomes, chosen)
}

/// The clusters the answering addresses named, each once, in order.
fn clusters(outcomes: &[&AddressOutcome]) -> Vec<String> {
    let mut out: Vec<String> = Vec::new();
    for name in outcomes.iter().filter_map(|o| o.cluster_name.clone()) {
        if !out.contains(&name) {
            out.push(name);
        }
    }
    out
}

/// The error for a list of addresses that names more than one cluster: a command would act on
/// whichever answers first.
fn two_clusters(all: &[&AddressOutcome], names: &[String]) -> Error {
    let each: Vec<String> = all
        .iter()
        .filter_map(|o| {
            Some(format!(
                "{} is cluster {:?}",
                o.url,
                o.cluster_name.as_ref()?
            ))
        })
        .collect();
    Error::new(
        crate::error::Kind::OtherBroker,
        format!(
            "the addresses name {} clusters ({}): {}. A command connects to the first address \
             that answers, so it would act on one cluster or another depending on which node \
             is up",
            names.len(),
            names.join(", "),
            each.join("; ")
        ),
    )
    .with_hint(
        "list only the nodes of one cluster in --url / QUEUEY_URL and --api-url / \
         QUEUEY_API_URL (rabbitmqctl cluster_status names a cluster's nodes)",
    )
}

pub async fn run(connection: &ConnectionSettings, output: Output) -> Result<ExitCode> {
    let several = connection.several();
    let (amqp_outcomes, chosen) = try_amqp(connection).await;
    let (at, server, connect_ms) = match chosen {
        Ok(chosen) => chosen,
        Err(e) => {
            if several {
                print_outcomes(output, &amqp_outcomes, &[])?;
            }
            return Err(e);
        }
    };
    let amqp = AmqpReport {
        url: at.amqp.display(),
        user: at.amqp.username.clone(),
        vhost: at.amqp.vhost.clone(),
        cluster_name: server.cluster_name.clone(),
        rabbitmq_version: server.version.clone(),
        connect_ms,
    };
    let (api_outcomes, chosen_api) = try_api(&at).await;
    let (api_target, overview, request_ms) = match chosen_api {
        Ok(chosen) => chosen,
        Err(e) => {
            if several || api_outcomes.len() > 1 {
                print_outcomes(output, &amqp_outcomes, &api_outcomes)?;
            }
            output.note(&format!(
                "amqp: ok, connected to {} as {:?}, vhost {:?}; the management API address {} \
                 was {}",
                amqp.url,
                amqp.user,
                amqp.vhost,
                at.api.display(),
                api_origin(&at)
            ));
            return Err(e);
        }
    };
    let used = ConnectionSettings {
        api: api_target,
        ..at.clone()
    };
    let judged = one_broker(&server, &overview);
    let everyone: Vec<&AddressOutcome> = amqp_outcomes.iter().chain(&api_outcomes).collect();
    let names = clusters(&everyone);
    let mismatch = if judged == OneBroker::Different {
        Some(other_broker(&used, &server, &overview))
    } else if names.len() > 1 {
        Some(two_clusters(&everyone, &names))
    } else {
        None
    };
    let api = ApiReport {
        url: used.api.display(),
        derived: used.api.derived,
        rabbitmq_version: overview.rabbitmq_version,
        erlang_version: overview.erlang_version,
        node: overview.node,
        cluster_name: overview.cluster_name,
        request_ms,
    };
    let report = PingReport {
        amqp,
        api,
        one_broker: match judged {
            OneBroker::Same => "same",
            OneBroker::Different => "different",
            OneBroker::Unknown => "unknown",
        },
        addresses: amqp_outcomes,
        api_addresses: api_outcomes,
    };
    match output.format {
        // Two brokers: the error is the one JSON document (it names both ends).
        Format::Json if mismatch.is_some() => {}
        Format::Json => output::print_json(&report)?,
        Format::Table | Format::Prometheus => print_table(&report, judged, &used, several)?,
    }
    match mismatch {
        Some(e) => Err(e),
        None => Ok(ExitCode::Ok),
    }
}

/// Every address tried, with what it did (when a command would stop before the full table).
fn print_outcomes(output: Output, amqp: &[AddressOutcome], api: &[AddressOutcome]) -> Result<()> {
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
    output::print(table)
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

fn print_table(
    report: &PingReport,
    judged: OneBroker,
    used: &ConnectionSettings,
    several: bool,
) -> Result<()> {
    let unknown = || "?".to_owned();
    let mut table = output::table(&["", "endpoint", "status"]);
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
        api_origin(used)
    ))?;
    if several {
        output::print(addresses::connected_note(used).replacen(
            "connected to",
            "commands connect to",
            1,
        ))?;
    }
    Ok(())
}
