//! What queuey reads from the management API's JSON: small, tolerant structs with only the
//! fields it uses, each optional, so that a broker version that drops or reshapes one degrades a
//! column instead of failing a command ([`super::api`] sends the requests).

use serde::Deserialize;
use serde::de::DeserializeOwned;

use crate::error::{Error, Kind};
use crate::plan::LiveDefinition;

/// The fields of `GET /api/overview` queuey uses.
#[derive(Clone, Debug, Default, Deserialize)]
pub struct Overview {
    pub rabbitmq_version: Option<String>,
    pub erlang_version: Option<String>,
    pub cluster_name: Option<String>,
    pub node: Option<String>,
    pub product_name: Option<String>,
}

/// The fields of a queue object (`GET /api/queues/{vhost}/{name}` or a listing) queuey uses.
///
/// Every field is optional: a quorum queue has no `idle_since`, and until a queue's first stats
/// emission (~5 s after declare for a classic queue, ~10 s for a quorum one) it has no
/// `messages*`, `consumers`, `policy` or `idle_since` fields; `idle_since` left the plain listing
/// in 3.13. Stats lag the broker by seconds.
#[derive(Clone, Debug, Default, Deserialize)]
pub struct LiveQueue {
    pub name: String,
    #[serde(default, deserialize_with = "lenient")]
    pub vhost: Option<String>,
    /// Integers come as JSON numbers, strings as strings.
    #[serde(default, deserialize_with = "lenient_map")]
    pub arguments: serde_json::Map<String, serde_json::Value>,
    #[serde(default, deserialize_with = "lenient")]
    pub durable: Option<bool>,
    #[serde(default, deserialize_with = "lenient")]
    pub auto_delete: Option<bool>,
    #[serde(default, deserialize_with = "lenient")]
    pub exclusive: Option<bool>,
    /// `classic`, `quorum`, `stream` (absent on very old brokers: classic).
    #[serde(default, rename = "type", deserialize_with = "lenient")]
    pub queue_type: Option<String>,
    #[serde(default, deserialize_with = "lenient")]
    pub messages: Option<u64>,
    #[serde(default, deserialize_with = "lenient")]
    pub messages_ready: Option<u64>,
    #[serde(default, deserialize_with = "lenient")]
    pub messages_unacknowledged: Option<u64>,
    /// Bytes of the ready messages' bodies (what `max-length-bytes` limits).
    #[serde(default, deserialize_with = "lenient")]
    pub message_bytes_ready: Option<u64>,
    #[serde(default, deserialize_with = "lenient")]
    pub consumers: Option<u64>,
    /// e.g. `2026-11-29T13:59:29.881+00:00` on 3.10 (older brokers: `2026-11-29 13:59:29`);
    /// classic queues only.
    #[serde(default, deserialize_with = "lenient")]
    pub idle_since: Option<String>,
    #[serde(default, deserialize_with = "lenient")]
    pub policy: Option<String>,
    #[serde(default, deserialize_with = "lenient")]
    pub operator_policy: Option<String>,
    #[serde(default, deserialize_with = "lenient")]
    pub effective_policy_definition: Option<serde_json::Value>,
    #[serde(default, deserialize_with = "lenient")]
    pub state: Option<String>,
    /// `publish_details.rate`: messages published into the queue per second (absent until one
    /// is; RabbitMQ does not count the messages it dead-letters into a queue itself).
    #[serde(default, deserialize_with = "lenient")]
    pub message_stats: Option<serde_json::Value>,
    /// `rate`: how fast the queue's depth changes, per second.
    #[serde(default, deserialize_with = "lenient")]
    pub messages_details: Option<serde_json::Value>,
    /// A quorum queue's member nodes, and those of them online (3.10 and 4.x).
    #[serde(default, deserialize_with = "lenient")]
    pub members: Option<Vec<String>>,
    #[serde(default, deserialize_with = "lenient")]
    pub online: Option<Vec<String>>,
}

/// A body of the API as `T`: read straight into `T` (a listing of thousands of queues never
/// becomes a tree of JSON values beside its structs), else through a JSON value: an object may
/// give a key twice (see docs/broker-notes.md, A three-node cluster), which a struct refuses and
/// a map takes (the last one wins).
pub(super) fn read_json<T: DeserializeOwned>(body: &[u8]) -> serde_json::Result<T> {
    serde_json::from_slice::<T>(body).or_else(|_| {
        serde_json::from_slice::<serde_json::Value>(body).and_then(serde_json::from_value::<T>)
    })
}

/// A field of the API's queue object read as `T`, or `None` when the broker gives something
/// else there (RabbitMQ renders an empty Erlang list as `[]` where an object is expected, and a
/// quorum queue whose node just came back may give fields queuey cannot read: see
/// docs/broker-notes.md, A three-node cluster): one odd field is an unknown value, never a
/// queue that cannot be read at all.
fn lenient<'de, D, T>(deserializer: D) -> std::result::Result<Option<T>, D::Error>
where
    D: serde::Deserializer<'de>,
    T: DeserializeOwned,
{
    let value = serde_json::Value::deserialize(deserializer)?;
    Ok(serde_json::from_value(value).ok())
}

/// The queue's arguments: an object, or none when the broker gives anything else (`[]`).
fn lenient_map<'de, D>(
    deserializer: D,
) -> std::result::Result<serde_json::Map<String, serde_json::Value>, D::Error>
where
    D: serde::Deserializer<'de>,
{
    match serde_json::Value::deserialize(deserializer)? {
        serde_json::Value::Object(map) => Ok(map),
        _ => Ok(serde_json::Map::new()),
    }
}

impl LiveQueue {
    /// Messages published into the queue per second, by the statistics.
    pub fn publish_rate(&self) -> Option<f64> {
        self.message_stats
            .as_ref()?
            .get("publish_details")?
            .get("rate")?
            .as_f64()
    }

    /// How fast the queue's depth grows (negative: shrinks), per second, by the statistics.
    pub fn growth_rate(&self) -> Option<f64> {
        self.messages_details.as_ref()?.get("rate")?.as_f64()
    }

    /// A quorum queue whose members online are not a majority: `(online, members)`. It can
    /// neither take nor give messages until a majority is back (a consume waits, then fails:
    /// seen ~65 s on 4.3).
    pub fn majority_lost(&self) -> Option<(usize, usize)> {
        let members = self.members.as_ref()?;
        let online = self
            .online
            .as_ref()
            .map_or(0, |o| o.iter().filter(|n| members.contains(n)).count());
        (!members.is_empty() && online * 2 <= members.len()).then_some((online, members.len()))
    }

    /// The error for a queue whose majority is lost (see [`LiveQueue::majority_lost`]), naming
    /// the members that are not online.
    pub fn no_majority_error(&self, vhost: &str, online: usize, members: usize) -> Error {
        let down: Vec<&str> = self
            .members
            .iter()
            .flatten()
            .filter(|m| !self.online.iter().flatten().any(|o| o == *m))
            .map(String::as_str)
            .collect();
        Error::new(
            Kind::NoMajority,
            format!(
                "queue {:?} in vhost {vhost:?} is a quorum queue with {online} of its {members} \
                 members online: it can neither take nor give messages until a majority ({}) \
                 is back",
                self.name,
                members / 2 + 1
            ),
        )
        .with_hint(format!(
            "start the nodes that are down ({}), then run the command again; \
             `rabbitmq-diagnostics cluster_status` shows the cluster, `rabbitmq-queues \
             quorum_status {}` the queue",
            down.join(", "),
            crate::shell::quote(&self.name)
        ))
    }
}

impl LiveQueue {
    /// The definition the plan compares (arguments, flags, type, policy).
    pub fn definition(&self) -> LiveDefinition {
        LiveDefinition {
            arguments: self.arguments.clone(),
            durable: self.durable,
            auto_delete: self.auto_delete,
            exclusive: self.exclusive,
            queue_type: self.queue_type.clone(),
            policy: self.policy.clone(),
            operator_policy: self.operator_policy.clone(),
            effective_policy_definition: self.effective_policy_definition.clone(),
            applied_policies: Vec::new(),
        }
    }
}

/// The fields of a policy or operator policy (`GET /api/policies/{vhost}/{name}`) queuey uses.
#[derive(Clone, Debug, Default, Deserialize)]
pub struct PolicyDefinition {
    #[serde(default)]
    pub pattern: Option<String>,
    #[serde(default)]
    pub definition: serde_json::Map<String, serde_json::Value>,
    /// `all`, `queues`, `classic_queues`, ... (absent: `all`).
    #[serde(default, rename = "apply-to", deserialize_with = "lenient")]
    pub apply_to: Option<String>,
    /// A number (absent: 0).
    #[serde(default, deserialize_with = "lenient")]
    pub priority: Option<f64>,
}

/// A policy of a vhost's listing.
#[derive(Clone, Debug, Default, Deserialize)]
pub struct NamedPolicy {
    pub name: String,
    #[serde(flatten)]
    pub policy: PolicyDefinition,
}

#[cfg(test)]
mod tests {

    /// A quorum queue's object with `online` twice (docs/broker-notes.md, A three-node
    /// cluster): read, the last one kept.
    #[test]
    fn a_key_given_twice_is_read_the_last_one_kept() {
        let q: LiveQueue = read_json(
            br#"{"name":"q.dead","members":["a","b","c"],"online":["a"],"online":["a","b"]}"#,
        )
        .expect("read");
        assert_eq!(q.online, Some(vec!["a".to_owned(), "b".to_owned()]));
    }

    /// One odd field is an unknown value, never a queue that cannot be read: an empty Erlang
    /// list for the arguments, an object where a string goes, a string where a number goes.
    #[test]
    fn odd_fields_of_a_queue_object_are_unknown_not_an_error() {
        let q: LiveQueue = serde_json::from_str(
            r#"{"name":"q.dead","arguments":[],"type":"quorum","state":{"minority":true},
                "messages":"","messages_ready":5,"members":"rabbit@a","online":[1,2],
                "consumers":null,"durable":true}"#,
        )
        .expect("an odd queue object is read");
        assert_eq!(q.name, "q.dead");
        assert!(q.arguments.is_empty());
        assert_eq!(q.queue_type.as_deref(), Some("quorum"));
        assert_eq!(
            (q.state, q.messages, q.messages_ready),
            (None, None, Some(5))
        );
        assert_eq!((q.members, q.online, q.consumers), (None, None, None));
        assert_eq!(q.durable, Some(true));
    }
    use super::*;

    fn quorum(members: &[&str], online: &[&str]) -> LiveQueue {
        LiveQueue {
            name: "orders.dead".into(),
            members: Some(members.iter().map(|m| m.to_string()).collect()),
            online: Some(online.iter().map(|m| m.to_string()).collect()),
            ..LiveQueue::default()
        }
    }

    #[test]
    fn a_quorum_queue_without_a_majority_online_is_named_with_its_nodes_down() {
        assert_eq!(
            quorum(&["a", "b", "c"], &["a", "b", "c"]).majority_lost(),
            None
        );
        assert_eq!(quorum(&["a", "b", "c"], &["a", "c"]).majority_lost(), None);
        assert_eq!(
            quorum(&["a", "b", "c"], &["c"]).majority_lost(),
            Some((1, 3))
        );
        assert_eq!(quorum(&["a", "b"], &["a"]).majority_lost(), Some((1, 2)));
        // An online node that is not a member does not count.
        assert_eq!(
            quorum(&["a", "b", "c"], &["c", "d"]).majority_lost(),
            Some((1, 3))
        );
        // A classic queue has no members.
        assert_eq!(LiveQueue::default().majority_lost(), None);
        let q = quorum(&["rabbit@n1", "rabbit@n2", "rabbit@n3"], &["rabbit@n3"]);
        let e = q.no_majority_error("/", 1, 3);
        assert_eq!(e.kind, Kind::NoMajority);
        assert!(
            e.message.contains("1 of its 3 members online"),
            "{}",
            e.message
        );
        assert!(e.message.contains("majority (2)"), "{}", e.message);
        let hint = e.hint.clone().unwrap_or_default();
        assert!(hint.contains("rabbit@n1, rabbit@n2"), "{hint}");
    }
}
