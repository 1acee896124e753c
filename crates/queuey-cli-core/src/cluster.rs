//! Cluster names. A cluster that was never named (`rabbitmqctl set_cluster_name`) gives as its
//! name the default of the node that answers: the node's own name part with the host's full
//! name (`rabbit@mq-1.example.com` from node `rabbit@mq-1`, `qtest1@vm` from node
//! `qtest1@localhost` on the host `vm`; see docs/broker-notes.md, A three-node cluster). Each
//! node then gives
//! another name, and only the cluster's node list (the management API's `/api/nodes`) can say
//! that two names are one cluster.

/// What the management API says of its own cluster.
#[derive(Clone, Copy, Debug, Default)]
pub struct ApiCluster<'a> {
    /// `/api/overview`'s `node`: the node that answered.
    pub node: Option<&'a str>,
    /// `/api/overview`'s `cluster_name`.
    pub name: Option<&'a str>,
    /// `/api/nodes`: every node of the cluster (empty when it could not be read).
    pub nodes: &'a [String],
}

impl ApiCluster<'_> {
    /// The node of this cluster whose default name `name` is, if any: the same name part, on
    /// the same host up to its domain (`mq-1` and `mq-1.example.com`), or on the host the
    /// answering node's own default name gives for its node name's host (node
    /// `qtest2@localhost`, cluster `qtest2@vm`: `localhost` is known as `vm`). Two single-node
    /// brokers called `rabbit@...` on two hosts stay two: their hosts differ.
    pub fn node_named_by_default(&self, name: &str) -> Option<&str> {
        let (id, host) = name.split_once('@')?;
        let alias = self.node.zip(self.name).and_then(|(node, own)| {
            let (node_id, node_host) = node.split_once('@')?;
            let (own_id, own_host) = own.split_once('@')?;
            (node_id == own_id).then_some((node_host, own_host))
        });
        self.nodes.iter().map(String::as_str).find(|node| {
            let Some((node_id, node_host)) = node.split_once('@') else {
                return false;
            };
            node_id == id
                && (same_host(node_host, host)
                    || alias.is_some_and(|(known, as_host)| {
                        same_host(node_host, known) && same_host(host, as_host)
                    }))
        })
    }

    /// Whether this cluster was never named: its name is the default name of one of its nodes.
    pub fn unnamed(&self) -> bool {
        self.name
            .is_some_and(|name| self.node_named_by_default(name).is_some())
    }

    /// Whether `name`, the cluster name some node gave, is this cluster: its own name, or, for
    /// a cluster never named, the default name of one of its nodes.
    pub fn is_named(&self, name: &str) -> bool {
        self.name == Some(name) || (self.unnamed() && self.node_named_by_default(name).is_some())
    }
}

/// Host names equal, or equal up to the domain one of them adds.
fn same_host(a: &str, b: &str) -> bool {
    a.eq_ignore_ascii_case(b) || dotted_prefix(a, b) || dotted_prefix(b, a)
}

/// `long` is `short` followed by a dot and a domain.
fn dotted_prefix(short: &str, long: &str) -> bool {
    long.as_bytes().get(short.len()) == Some(&b'.')
        && long
            .get(..short.len())
            .is_some_and(|start| start.eq_ignore_ascii_case(short))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn names(list: &[&str]) -> Vec<String> {
        list.iter().map(|n| (*n).to_owned()).collect()
    }

    #[test]
    fn the_test_machines_cluster_never_named() {
        // Nodes named after localhost, names after the host `vm` (see docs/broker-notes.md, A
        // three-node cluster).
        let nodes = names(&["qtest1@localhost", "qtest2@localhost", "qtest3@localhost"]);
        let api = ApiCluster {
            node: Some("qtest2@localhost"),
            name: Some("qtest2@vm"),
            nodes: &nodes,
        };
        assert!(api.unnamed());
        assert!(api.is_named("qtest1@vm"));
        assert!(api.is_named("qtest3@vm"));
        assert_eq!(
            api.node_named_by_default("qtest3@vm"),
            Some("qtest3@localhost")
        );
        // Another broker on the machine, and a node of that name on another host.
        assert!(!api.is_named("rabbit@vm"));
        assert!(!api.is_named("qtest1@other"));
        // The node list unread: nothing is one cluster but the name itself.
        let unread = ApiCluster { nodes: &[], ..api };
        assert!(!unread.unnamed());
        assert!(unread.is_named("qtest2@vm"));
        assert!(!unread.is_named("qtest1@vm"));
    }

    #[test]
    fn hosts_match_up_to_their_domain_and_other_hosts_do_not() {
        let nodes = names(&["rabbit@mq-1", "rabbit@mq-2", "rabbit@mq-3"]);
        let api = ApiCluster {
            node: Some("rabbit@mq-1"),
            name: Some("rabbit@mq-1.example.com"),
            nodes: &nodes,
        };
        assert!(api.unnamed());
        assert!(api.is_named("rabbit@mq-3.example.com"));
        assert!(api.is_named("rabbit@MQ-2"));
        // Two single-node brokers, each `rabbit@` its host: not one cluster.
        assert!(!api.is_named("rabbit@mq-4.example.com"));
        assert!(!api.is_named("rabbit@mq-10.example.com"));
        // In containers: every node `rabbit@localhost`, each host its own; the API's node
        // is known by its own host only.
        let local = names(&["rabbit@localhost"]);
        let container = ApiCluster {
            node: Some("rabbit@localhost"),
            name: Some("rabbit@container-b"),
            nodes: &local,
        };
        assert!(container.unnamed());
        assert!(!container.is_named("rabbit@container-a"));
    }

    #[test]
    fn a_named_cluster_is_its_name_alone() {
        let nodes = names(&["rabbit@mq-1", "rabbit@mq-2"]);
        let api = ApiCluster {
            node: Some("rabbit@mq-1"),
            name: Some("prod-eu"),
            nodes: &nodes,
        };
        assert!(!api.unnamed());
        assert!(api.is_named("prod-eu"));
        assert!(!api.is_named("rabbit@mq-2.example.com"));
        assert!(!api.is_named("rabbit@mq-2"));
        // Names without `@` or odd bytes never panic.
        assert!(!api.is_named(""));
        assert!(!api.is_named("@"));
        assert!(!api.is_named("rabbit@mq-1é.x"));
    }
}
