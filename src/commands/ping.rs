//! `queuey ping`: can queuey reach the broker over AMQP and over the management API?

use std::time::Instant;

use crate::broker::amqp::Failed;
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

/// The addresses tried so far, in order, with what each did, and the one a command would use:
/// the first that answers, unless a refusal comes first.
struct Tried<T> {
    outcomes: Vec<AddressOutcome>,
    chosen: Option<Result<T>>,
    skipped: Vec<Error>,
}

impl<T> Tried<T> {
    fn new() -> Tried<T> {
        Tried {
            outcomes: Vec::new(),
            chosen: None,
            skipped: Vec::new(),
        }
    }

    /// An address that answered in `ms`: the one used when it is the first (`used`).
    fn answered(
        &mut self,
        url: String,
        ms: u64,
        cluster_name: Option<String>,
        rabbitmq_version: Option<String>,
        used: T,
    ) {
        let first = self.chosen.is_none();
        self.outcomes.push(AddressOutcome {
            url,
            outcome: if first { "used" } else { "ok" },
            cluster_name,
            rabbitmq_version,
            ms,
            error: None,
        });
        if first {
            self.chosen = Some(Ok(used));
        }
    }

    /// An address that failed: skipped when it gave no answer; when it refused before any
    /// address answered, the error a command stops on (`refused` words it).
    fn failed(
        &mut self,
        url: String,
        start: Instant,
        failed: Failed,
        refused: impl FnOnce(Error) -> Error,
    ) {
        self.outcomes.push(AddressOutcome {
            url,
            outcome: if failed.no_answer {
                "no-answer"
            } else {
                "refused"
            },
            cluster_name: None,
            rabbitmq_version: None,
            ms: elapsed_ms(start),
            error: Some(failed.error.message.clone()),
        });
        if self.chosen.is_none() {
            if failed.no_answer {
                self.skipped.push(failed.error);
            } else {
                self.chosen = Some(Err(refused(failed.error)));
            }
        }
    }

    /// What each did, and the one used (`Err` when a command would stop: its error, or
    /// `none_answered`'s when no address answered).
    fn finish(
        self,
        none_answered: impl FnOnce(&[Error]) -> Error,
    ) -> (Vec<AddressOutcome>, Result<T>) {
        let chosen = self
            .chosen
            .unwrap_or_else(|| Err(none_answered(&self.skipped)));
        (self.outcomes, chosen)
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
    let mut tried = Tried::new();
    for index in 0..connection.addresses.len() {
        let at = match connection.at(index) {
            Ok(at) => at,
            Err(e) => return (tried.outcomes, Err(e)),
        };
        let start = Instant::now();
        server_properties::clear();
        match amqp::try_connect(&at, "ping").await {
            Ok(conn) => {
                let server = server_properties::last().unwrap_or_default();
                let ms = elapsed_ms(start);
                // Closing politely keeps the broker's log free of "client unexpectedly closed".
                let _ = conn.close(200, "queuey ping done".into()).await;
                let (cluster_name, version) = (server.cluster_name.clone(), server.version.clone());
                tried.answered(
                    at.amqp.display(),
                    ms,
                    cluster_name,
                    version,
                    (at, server, ms),
                );
            }
            Err(failed) => {
                let count = connection.addresses.len();
                tried.failed(at.amqp.display(), start, failed, |e| {
                    addresses::refused_among_several(e, count)
                });
            }
        }
    }
    tried.finish(addresses::none_answered_amqp)
}

/// Tries every management API address for `at` (the AMQP address used), in order.
async fn try_api(
    at: &ConnectionSettings,
) -> (Vec<AddressOutcome>, Result<(ApiClient, Overview, u64)>) {
    let mut tried = Tried::new();
    for target in at.api_candidates() {
        let start = Instant::now();
        let client = match ApiClient::new(target.clone(), &at.tls, at.timeout) {
            Ok(client) => client,
            Err(e) => return (tried.outcomes, Err(e)),
        };
        match client.overview_at().await {
            Ok(overview) => {
                let ms = elapsed_ms(start);
                let (cluster_name, version) = (
                    overview.cluster_name.clone(),
                    overview.rabbitmq_version.clone(),
                );
                tried.answered(
                    target.display(),
                    ms,
                    cluster_name,
                    version,
                    (client, overview, ms),
                );
            }
            Err(failed) => tried.failed(target.display(), start, failed, |e| e),
        }
    }
    tried.finish(addresses::none_answered_api)
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
        judged = one_unnamed_cluster(&server, &overview, &cluster_nodes);
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
            print_table(&report, &api_origin(&used), connected.as_deref(), output)?;
        }
    }
    match mismatch {
        Some(e) => Err(e),
        None => Ok(ExitCode::Ok),
    }
}
