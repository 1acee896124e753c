//! PURE: who owns a queue name when one logical queue's names fall in another's hold-queue
//! namespace.
//!
//! The library names the hold queues of `q` `{q}{deferred_suffix}.{ttl_ms}` (queuey-rabbitmq
//! 1.1.0 `topology::deferred_queue_name`, the TTL a canonical decimal from 1 to
//! `MAX_DEFERRAL_MS`). Nothing stops a topology from also listing a logical queue named
//! `orders.deferred.5000` (or `orders.deferred`, whose `orders.deferred.dead` carries the infix
//! of `orders`): the library and queuey declare it like any other. Such a queue is never taken
//! for one of `orders`' hold queues: the topology's own declaration wins, whether the name is
//! another logical queue's work queue, its dead-letter queue or one of its hold queues.

use std::fmt;

use crate::duration::format_millis;
use crate::queue::{QueueSettings, Sibling};
use crate::topology;

/// What another logical queue of the topology makes of a name in `q`'s hold-queue namespace.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum NameOwner {
    /// The work queue of this logical queue.
    WorkQueue(String),
    /// The dead-letter queue of this logical queue.
    DeadQueue(String),
    /// A hold queue of this logical queue, with the TTL its name says.
    HoldQueue(String, u32),
    /// A name in this logical queue's hold-queue namespace without a valid TTL, where `q`'s
    /// own namespace is the less specific (its prefix is shorter).
    BadName(String),
}

impl NameOwner {
    /// The logical queue that owns the name.
    pub fn logical(&self) -> &str {
        match self {
            NameOwner::WorkQueue(l)
            | NameOwner::DeadQueue(l)
            | NameOwner::HoldQueue(l, _)
            | NameOwner::BadName(l) => l,
        }
    }
}

impl fmt::Display for NameOwner {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            NameOwner::WorkQueue(l) => write!(f, "the work queue of the logical queue {l:?}"),
            NameOwner::DeadQueue(l) => {
                write!(f, "the dead-letter queue of the logical queue {l:?}")
            }
            NameOwner::HoldQueue(l, ttl) => write!(
                f,
                "the {} hold queue of the logical queue {l:?}",
                format_millis(*ttl)
            ),
            NameOwner::BadName(l) => {
                write!(f, "in the hold-queue namespace of the logical queue {l:?}")
            }
        }
    }
}

/// A work or dead-letter queue of one logical queue whose name is also a hold queue's name of
/// another: the two cannot both be declared (the broker refuses a second declaration of one
/// queue with other arguments), so a wait of that length fails, or the other's declare does.
#[derive(Clone, Debug, PartialEq, Eq, PartialOrd, Ord)]
pub struct Collision {
    /// The queue name both claim.
    pub name: String,
    /// The logical queue it belongs to, as its work or dead-letter queue.
    pub owner: String,
    /// `work queue` or `dead-letter queue`.
    pub role: &'static str,
    /// The logical queue whose hold queue has the same name.
    pub holder: String,
    pub ttl_ms: u32,
}

impl fmt::Display for Collision {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let delay = format_millis(self.ttl_ms);
        write!(
            f,
            "{name:?} is the {role} of {owner:?} and also the name of the {delay} hold queue of \
             {holder:?}: queuey counts it as {owner:?}'s (the topology's own declaration wins), \
             never as a hold queue, and `holds prune` never deletes it; but a {delay} wait of \
             {holder:?} (a retry or a deferral) and {owner:?} cannot both work, as the broker \
             refuses to declare one queue twice with different arguments (PRECONDITION_FAILED): \
             rename one of the two logical queues",
            name = self.name,
            role = self.role,
            owner = self.owner,
            holder = self.holder,
        )
    }
}

/// What queuey says of a live queue named like the `ttl_ms` hold queue of `q` that `owner`
/// owns instead.
pub fn set_aside(q: &str, name: &str, ttl_ms: u32, owner: &NameOwner) -> String {
    format!(
        "{name:?} is named like the {} hold queue of {q:?}, but it is {owner}: queuey does not \
         take it for a hold queue of {q:?} (the topology's own declaration wins)",
        format_millis(ttl_ms)
    )
}

impl QueueSettings {
    /// What queuey says of the live queue `name` when it is named like one of this queue's hold
    /// queues but another logical queue of the topology owns it (`holds ls` and `holds prune`
    /// leave it out); `None` for a hold queue of this queue or a name outside its namespace.
    pub fn hold_queue_set_aside(&self, name: &str) -> Option<String> {
        let owner = self.claimed_elsewhere(name)?;
        match topology::parse_deferred_queue_name(&self.name, name, &self.options) {
            Ok(Some(ttl_ms)) => Some(set_aside(&self.name, name, ttl_ms, &owner)),
            _ => None,
        }
    }

    /// The other logical queues of the topology (never this one, which the shared list may hold).
    fn others(&self) -> impl Iterator<Item = &Sibling> + Clone {
        self.siblings.iter().filter(move |s| s.name != self.name)
    }

    /// The other logical queue that owns `name`, when `name` is in this queue's hold-queue
    /// namespace (a hold queue of it, or the infix without a valid TTL) and the topology gives
    /// it to another: that queue's work queue, its dead-letter queue, one of its hold queues,
    /// or a bad name of its own more specific namespace. `None`: the name is this queue's (or
    /// not in its namespace at all).
    pub fn claimed_elsewhere(&self, name: &str) -> Option<NameOwner> {
        let mine = topology::parse_deferred_queue_name(&self.name, name, &self.options);
        if mine == Ok(None) {
            return None;
        }
        let others = self.others();
        if let Some(s) = others.clone().find(|s| s.name == name) {
            return Some(NameOwner::WorkQueue(s.name.clone()));
        }
        if let Some(s) = others.clone().find(|s| {
            name.strip_prefix(s.name.as_str())
                .is_some_and(|rest| rest == s.options.dead_suffix)
        }) {
            return Some(NameOwner::DeadQueue(s.name.clone()));
        }
        for s in others.clone() {
            if let Ok(Some(ttl)) = topology::parse_deferred_queue_name(&s.name, name, &s.options) {
                return Some(NameOwner::HoldQueue(s.name.clone(), ttl));
            }
        }
        if mine.is_err() {
            let prefix = |n: &str, o: &topology::RabbitMqOptions| n.len() + o.deferred_suffix.len();
            let own = prefix(&self.name, &self.options);
            for s in others {
                if topology::parse_deferred_queue_name(&s.name, name, &s.options).is_err()
                    && prefix(&s.name, &s.options) > own
                {
                    return Some(NameOwner::BadName(s.name.clone()));
                }
            }
        }
        None
    }

    /// The names of this logical queue that are also hold-queue names of another, and the
    /// names of others that are hold-queue names of this one (each collision is the same value
    /// from both sides, so a set of them across queues names each once).
    pub fn collisions(&self) -> Vec<Collision> {
        let mut out = Vec::new();
        let roles = |name: &str, options: &topology::RabbitMqOptions| {
            [
                (name.to_owned(), "work queue"),
                (options.dead_queue(name), "dead-letter queue"),
            ]
        };
        for s in self.others() {
            // A name of one that is a hold-queue name of the other starts with the other's
            // name, so one name is a prefix of the other: most pairs end here, without
            // building a name (a topology of 1 000 queues has a million pairs).
            if !s.name.starts_with(self.name.as_str()) && !self.name.starts_with(s.name.as_str()) {
                continue;
            }
            let pairs = [
                (&self.name, &self.options, &s.name, &s.options),
                (&s.name, &s.options, &self.name, &self.options),
            ];
            for (owner, owner_options, holder, holder_options) in pairs {
                for (name, role) in roles(owner, owner_options) {
                    if let Ok(Some(ttl_ms)) =
                        topology::parse_deferred_queue_name(holder, &name, holder_options)
                    {
                        out.push(Collision {
                            name,
                            owner: owner.clone(),
                            role,
                            holder: holder.clone(),
                            ttl_ms,
                        });
                    }
                }
            }
        }
        out
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::topology::RabbitMqOptions;

    fn topology(names: &[&str]) -> Vec<QueueSettings> {
        names
            .iter()
            .map(|n| {
                let mut q = QueueSettings::library_default(n);
                q.siblings = std::sync::Arc::new(
                    names
                        .iter()
                        .map(|s| Sibling {
                            name: (*s).to_owned(),
                            options: RabbitMqOptions::default(),
                        })
                        .collect(),
                );
                q
            })
            .collect()
    }

    #[test]
    fn a_listed_queue_is_never_another_ones_hold_queue() {
        let t = topology(&["k2", "k2.deferred", "k2.deferred.5000"]);
        let k2 = &t[0];
        assert_eq!(
            k2.claimed_elsewhere("k2.deferred.5000"),
            Some(NameOwner::WorkQueue("k2.deferred.5000".into()))
        );
        assert_eq!(
            k2.claimed_elsewhere("k2.deferred.dead"),
            Some(NameOwner::DeadQueue("k2.deferred".into()))
        );
        assert_eq!(
            k2.claimed_elsewhere("k2.deferred.5000.dead"),
            Some(NameOwner::DeadQueue("k2.deferred.5000".into()))
        );
        // A hold queue of k2.deferred.5000 is a bad name for k2: the longer prefix wins.
        assert_eq!(
            k2.claimed_elsewhere("k2.deferred.5000.deferred.1000"),
            Some(NameOwner::HoldQueue("k2.deferred.5000".into(), 1000))
        );
        // A hold queue of k2.deferred is a bad name for k2 too.
        assert_eq!(
            k2.claimed_elsewhere("k2.deferred.deferred.30000"),
            Some(NameOwner::HoldQueue("k2.deferred".into(), 30000))
        );
        assert_eq!(
            k2.claimed_elsewhere("k2.deferred.5000.deferred.x"),
            Some(NameOwner::BadName("k2.deferred.5000".into()))
        );
        // k2's own hold queues and bad names stay k2's.
        assert_eq!(k2.claimed_elsewhere("k2.deferred.1000"), None);
        assert_eq!(k2.claimed_elsewhere("k2.deferred.abc"), None);
        assert_eq!(k2.claimed_elsewhere("k2.dead"), None);
        // And k2.deferred's own are its own.
        assert_eq!(t[1].claimed_elsewhere("k2.deferred.deferred.30000"), None);
        assert_eq!(
            t[1].claimed_elsewhere("k2.deferred.deferred.x"),
            None,
            "k2 reads it as a bad name with a shorter prefix"
        );
        // Without siblings nothing is claimed: the command line's queue alone.
        let alone = QueueSettings::library_default("k2");
        assert_eq!(alone.claimed_elsewhere("k2.deferred.5000"), None);
    }

    #[test]
    fn each_collision_is_one_value_seen_from_both_sides() {
        let t = topology(&["k2", "k2.deferred", "k2.deferred.5000"]);
        let all: std::collections::BTreeSet<Collision> =
            t.iter().flat_map(QueueSettings::collisions).collect();
        assert_eq!(
            all.into_iter().collect::<Vec<_>>(),
            vec![Collision {
                name: "k2.deferred.5000".into(),
                owner: "k2.deferred.5000".into(),
                role: "work queue",
                holder: "k2".into(),
                ttl_ms: 5000,
            }],
            "k2.deferred.dead is a bad name of k2: the library never declares it, no collision"
        );
        assert_eq!(t[0].collisions(), t[2].collisions());
        assert!(t[1].collisions().is_empty());
        assert_eq!(
            set_aside(
                "k2",
                "k2.deferred.5000",
                5000,
                &NameOwner::WorkQueue("k2.deferred.5000".into())
            ),
            "\"k2.deferred.5000\" is named like the 5s hold queue of \"k2\", but it is the work \
             queue of the logical queue \"k2.deferred.5000\": queuey does not take it for a hold \
             queue of \"k2\" (the topology's own declaration wins)"
        );
        assert_eq!(
            t[0].hold_queue_set_aside("k2.deferred.5000").as_deref(),
            Some(
                "\"k2.deferred.5000\" is named like the 5s hold queue of \"k2\", but it is the \
                 work queue of the logical queue \"k2.deferred.5000\": queuey does not take it \
                 for a hold queue of \"k2\" (the topology's own declaration wins)"
            )
        );
        assert_eq!(t[0].hold_queue_set_aside("k2.deferred.6000"), None);
        let text = t[0].collisions()[0].to_string();
        assert!(text.contains("the 5s hold queue of \"k2\""), "{text}");
        assert!(text.contains("PRECONDITION_FAILED"), "{text}");
        // A dead-letter suffix that makes a hold-queue name.
        let mut t = topology(&["a", "a.deferred"]);
        t[1].options.dead_suffix = ".7".into();
        std::sync::Arc::make_mut(&mut t[0].siblings)[1]
            .options
            .dead_suffix = ".7".into();
        assert_eq!(
            t[0].collisions(),
            vec![Collision {
                name: "a.deferred.7".into(),
                owner: "a.deferred".into(),
                role: "dead-letter queue",
                holder: "a".into(),
                ttl_ms: 7,
            }]
        );
    }
}
