//! Several addresses, the nodes of one cluster, tried in order: the first that answers is used.
//!
//! An address where nothing answers (a refused connection, a host name that does not resolve,
//! no answer within the connect timeout, something that does not speak AMQP, a node shutting
//! down) is skipped with a note, and the next one is tried. A broker that answers and refuses
//! (a wrong password, a vhost that does not exist or is not permitted) or a TLS handshake that
//! fails on a certificate stops there: a user, a vhost and a CA are the same on every node of a
//! cluster, so the next node would refuse too, and skipping would only hide the user's mistake.
//! When no address answers, the error names each with what it did (exit 4).
//!
//! The management API is chosen the same way once the AMQP address is known: the addresses
//! given, in order; or, derived, the one of the node queuey is connected to first, then those
//! of the other nodes. Whichever answers must be the AMQP connection's cluster
//! (`Session::overview`).

use lapin::Connection;

use super::amqp::{self, Failed};
use super::api::{ApiClient, Overview};
use super::server_properties;
use crate::endpoint::ConnectionSettings;
use crate::error::{Error, Kind, Result};

/// Connects to the first AMQP address of `settings` that answers, trying them in order; the
/// settings returned are pinned to it ([`ConnectionSettings::at`]). `note` hears each address
/// skipped, and, when there are several, which one is used.
pub async fn connect_first(
    settings: &ConnectionSettings,
    purpose: &str,
    note: &(dyn Fn(&str) + Send + Sync),
) -> Result<(Connection, ConnectionSettings)> {
    let mut skipped: Vec<Error> = Vec::new();
    let count = settings.addresses.len();
    for index in 0..count {
        let at = settings.at(index)?;
        server_properties::clear();
        match amqp::try_connect(&at, purpose).await {
            Ok(connection) => {
                if settings.several() {
                    note(&connected_note(&at));
                }
                return Ok((connection, at));
            }
            Err(failed) => skip_or_stop(failed, index, count, "address", &mut skipped, note)?,
        }
    }
    Err(none_answered("AMQP", &skipped, AMQP_HINT))
}

/// An address of `count` that failed: when nothing answered there and there are others, kept
/// to be named if none answers, and the next one announced (`next`: what an address is);
/// otherwise the error to stop on.
fn skip_or_stop(
    failed: Failed,
    index: usize,
    count: usize,
    next: &str,
    skipped: &mut Vec<Error>,
    note: &(dyn Fn(&str) + Send + Sync),
) -> Result<()> {
    if !(failed.no_answer && count > 1) {
        return Err(refused_among_several(failed.error, count));
    }
    if index + 1 < count {
        note(&format!(
            "{}; trying the next {next} ({} of {count})",
            failed.error.message,
            index + 2
        ));
    }
    skipped.push(failed.error);
    Ok(())
}

/// What queuey says of the address it connected to, among several.
pub fn connected_note(at: &ConnectionSettings) -> String {
    format!("connected to {} ({})", at.amqp.display(), at.position())
}

const AMQP_HINT: &str = "check that the nodes run (rabbitmqctl cluster_status on any of them) \
     and that --url / QUEUEY_URL names them; `queuey ping` tries every address and says what \
     each answers";

/// The management API of `settings` (pinned to the AMQP address in use): the first of its
/// candidates ([`ConnectionSettings::api_candidates`]) that answers, with its overview.
pub async fn api_first(
    settings: &ConnectionSettings,
    note: &(dyn Fn(&str) + Send + Sync),
) -> Result<(ApiClient, Overview)> {
    let candidates = settings.api_candidates();
    let count = candidates.len();
    let mut skipped: Vec<Error> = Vec::new();
    for (index, target) in candidates.into_iter().enumerate() {
        let client = ApiClient::new(target, &settings.tls, settings.timeout)?;
        match client.overview_at().await {
            Ok(overview) => {
                if index > 0 {
                    note(&format!(
                        "using the management API at {} ({} of {count})",
                        client.target().display(),
                        index + 1
                    ));
                }
                return Ok((client, overview));
            }
            Err(failed) => skip_or_stop(
                failed,
                index,
                count,
                "management API address",
                &mut skipped,
                note,
            )?,
        }
    }
    Err(none_answered(
        "management API",
        &skipped,
        super::api::ENABLE_PLUGIN_HINT,
    ))
}

/// The error when none of these AMQP addresses answered.
pub fn none_answered_amqp(skipped: &[Error]) -> Error {
    none_answered("AMQP", skipped, AMQP_HINT)
}

/// The error when none of these management API addresses answered.
pub fn none_answered_api(skipped: &[Error]) -> Error {
    none_answered("management API", skipped, super::api::ENABLE_PLUGIN_HINT)
}

/// A refusal at one of several addresses: the refusal itself, saying why queuey stops there
/// rather than try another address.
pub fn refused_among_several(error: Error, count: usize) -> Error {
    if count < 2 {
        return error;
    }
    let hint = format!(
        "{}{}queuey stops at a refusal rather than try another address: a login, a vhost or a \
         certificate refused by one node of a cluster is refused by every node",
        error.hint.clone().unwrap_or_default(),
        if error.hint.is_some() { "; " } else { "" }
    );
    error.with_hint(hint)
}

/// The error when no address answered: each one named, with what it did. One address alone
/// keeps its own error.
fn none_answered(what: &str, skipped: &[Error], hint: &str) -> Error {
    match skipped {
        [] => Error::internal(format!("no {what} address to try")),
        [only] => only.clone(),
        all => {
            let kind = all[0].kind;
            let each: Vec<String> = all
                .iter()
                .enumerate()
                .map(|(i, e)| format!("  {}. {}", i + 1, e.message))
                .collect();
            Error::new(
                kind,
                format!(
                    "none of the {} {what} addresses answered:\n{}",
                    all.len(),
                    each.join("\n")
                ),
            )
            .with_hint(if kind == Kind::Unreachable {
                AMQP_HINT
            } else {
                hint
            })
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_address_that_did_not_answer_is_named_once() {
        let errors = [
            Error::new(Kind::Unreachable, "cannot connect to a: connection refused"),
            Error::new(Kind::Unreachable, "cannot resolve the host b"),
        ];
        let all = none_answered("AMQP", &errors, AMQP_HINT);
        assert_eq!(all.kind, Kind::Unreachable);
        assert_eq!(
            all.message,
            "none of the 2 AMQP addresses answered:\n  1. cannot connect to a: connection \
             refused\n  2. cannot resolve the host b"
        );
        assert_eq!(none_answered("AMQP", &errors[..1], AMQP_HINT), errors[0]);
    }

    #[test]
    fn a_refusal_among_several_addresses_says_why_queuey_stops_there() {
        let refusal = Error::new(Kind::AccessRefused, "refused the login").with_hint("check");
        assert_eq!(refused_among_several(refusal.clone(), 1), refusal);
        let after = refused_among_several(refusal, 3);
        assert_eq!(after.kind, Kind::AccessRefused);
        let hint = after.hint.unwrap_or_default();
        assert!(
            hint.starts_with("check; queuey stops at a refusal rather than try another address"),
            "{hint}"
        );
    }
}
