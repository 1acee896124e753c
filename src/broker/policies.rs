//! The vhost's policies and operator policies, listed as the broker applies them now: what a
//! replay's room (`broker::limits`) and `verify`'s plan (`live::inspect`) compute a queue's
//! effective policy from (`plan::policies`), rather than the queue's object, whose policy
//! fields lag a new policy by seconds (see docs/broker-notes.md, Policies, operator policies
//! and the management API).

use queuey_cli_core::plan::policies::ListedPolicy;

use crate::broker::api::{ApiClient, NamedPolicy};
use crate::error::{Error, Result};

/// The vhost's two policy listings, each as far as the API let queuey read it.
#[derive(Clone, Debug)]
pub struct PolicyListings {
    /// The policies; `Err` with the API's error when they could not be listed (refused, or
    /// no API).
    pub policies: std::result::Result<Vec<ListedPolicy>, Error>,
    /// The operator policies; `None` when they could not be listed (reading them needs the
    /// administrator tag: a monitoring user is refused).
    pub operators: Option<Vec<ListedPolicy>>,
}

impl PolicyListings {
    /// Both listings of `vhost`. An API error is kept in the answer; any other error (the
    /// session's own) is returned.
    pub async fn read(api: &ApiClient, vhost: &str) -> Result<PolicyListings> {
        let policies = match api.policies(vhost, false).await {
            Ok(p) => Ok(listed(p)),
            Err(e) if e.kind.is_api() => Err(e),
            Err(e) => return Err(e),
        };
        let operators = match api.policies(vhost, true).await {
            Ok(p) => Some(listed(p)),
            Err(e) if e.kind.is_api() => None,
            Err(e) => return Err(e),
        };
        Ok(PolicyListings {
            policies,
            operators,
        })
    }
}

/// A vhost's policy listing as the pure core reads it.
fn listed(found: Vec<NamedPolicy>) -> Vec<ListedPolicy> {
    found
        .into_iter()
        .map(|p| ListedPolicy {
            name: p.name,
            pattern: p.policy.pattern.unwrap_or_default(),
            apply_to: p.policy.apply_to.unwrap_or_else(|| "all".to_owned()),
            priority: p.policy.priority.unwrap_or(0.0),
            definition: p.policy.definition,
        })
        .collect()
}
