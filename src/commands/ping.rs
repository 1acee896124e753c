//! `queuey ping`: can queuey reach the broker over AMQP and over the management API?

use std::time::Instant;

use crate::broker::api::{ApiClient, Overview};
use crate::broker::server_properties::{self, ServerProperties};
use crate::broker::session::{OneBroker, one_broker, one_unnamed_cluster, other_broker};
use crate::broker::{addresses, amqp};
use crate::cluster::ApiCluster;
use crate::endpoint::{ConnectionSettings, DEFAULT_API_PORT};
use crate::error::{Error, ExitCode, Result};
use crate::output::ping::{
    AddressOutcome, AmqpReport, ApiReport, PingReport, print_outcomes, print_table,
};
use crate::output::{self, Format, Output};

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

/// An address that failed, and how.
fn failed_outcome(url: String, start: Instant, error: &Error, no_answer: bool) -> AddressOutcome {
    AddressOutcome {
        url,
        outcome: if no_answer { "no-answer" } else { "refused" },
        cluster_name: None,
        rabbitmq_version: None,
        ms: elapsed_ms(start),
        error: Some(error.message.clone()),
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
                outcomes.push(failed_outcome(
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
) -> (Vec<AddressOutcome>, Result<(ApiClient, Overview, u64)>) {
    let mut outcomes = Vec::new();
    let mut chosen: Option<Result<(ApiClient, Overview, u64)>> = None;
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
                    chosen = Some(Ok((client, overview, ms)));
                }
            }
            Err(failed) => {
                outcomes.push(failed_outcome(
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

/// The clusters the answering addresses named, each once, in order. A name that is the API's
/// cluster (`api`: a cluster never named gives each node's own default name as the cluster's)
/// counts as the API's name.
fn clusters(outcomes: &[&AddressOutcome], api: &ApiCluster) -> Vec<String> {
    let mut out: Vec<String> = Vec::new();
    for name in outcomes.iter().filter_map(|o| o.cluster_name.clone()) {
        let name = match api.name {
            Some(own) if api.is_named(&name) => own.to_owned(),
            _ => name,
        };
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
    let (api_client, overview, request_ms) = match chosen_api {
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
        api: api_client.target().clone(),
        ..at.clone()
    };
    let mut judged = one_broker(&server, &overview);
    let everyone: Vec<&AddressOutcome> = amqp_outcomes.iter().chain(&api_outcomes).collect();
    let api_cluster = |nodes| ApiCluster {
        node: overview.node.as_deref(),
        name: overview.cluster_name.as_deref(),
        nodes,
    };
    let mut names = clusters(&everyone, &api_cluster(&[]));
    let mut cluster_nodes = Vec::new();
    if judged == OneBroker::Different || names.len() > 1 {
        // Names that differ may be the nodes of one cluster that was never named.
        cluster_nodes = api_client.node_names().await;
        if judged == OneBroker::Different {
            judged = one_unnamed_cluster(&server, &overview, &cluster_nodes);
        }
        names = clusters(&everyone, &api_cluster(&cluster_nodes));
        if names.len() <= 1 && judged != OneBroker::Different {
            cluster_nodes.sort();
        } else {
            cluster_nodes.clear();
        }
    }
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
        cluster_nodes,
    };
    match output.format {
        // Two brokers: the error is the one JSON document (it names both ends).
        Format::Json if mismatch.is_some() => {}
        Format::Json => output::print_json(&report)?,
        Format::Table | Format::Prometheus => {
            let connected = several.then(|| {
                addresses::connected_note(&used).replacen("connected to", "commands connect to", 1)
            });
            print_table(&report, &api_origin(&used), connected.as_deref())?;
        }
    }
    match mismatch {
        Some(e) => Err(e),
        None => Ok(ExitCode::Ok),
    }
}
