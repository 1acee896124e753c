//! PURE: what to suggest when a name is not found: the near names that exist, and what the
//! operator most likely meant. Commands turn the advice into hints with commands to paste.

/// The edit distance between `a` and `b` (optimal string alignment: insertions, deletions,
/// substitutions and swaps of two neighbours each cost 1), by characters.
pub fn distance(a: &str, b: &str) -> usize {
    let a: Vec<char> = a.chars().collect();
    let b: Vec<char> = b.chars().collect();
    let width = b.len() + 1;
    let mut d = vec![0usize; (a.len() + 1) * width];
    for i in 0..=a.len() {
        d[i * width] = i;
    }
    for (j, cell) in d.iter_mut().enumerate().take(width) {
        *cell = j;
    }
    for i in 1..=a.len() {
        for j in 1..=b.len() {
            let cost = usize::from(a[i - 1] != b[j - 1]);
            let mut best = (d[(i - 1) * width + j] + 1)
                .min(d[i * width + j - 1] + 1)
                .min(d[(i - 1) * width + j - 1] + cost);
            if i > 1 && j > 1 && a[i - 1] == b[j - 2] && a[i - 2] == b[j - 1] {
                best = best.min(d[(i - 2) * width + j - 2] + 1);
            }
            d[i * width + j] = best;
        }
    }
    d[a.len() * width + b.len()]
}

/// The candidates near `name`, nearest first (then by name), at most `max`: the same name in
/// another case, or within an edit distance that grows with the name (1 up to 4 characters, 2
/// up to 12, 3 beyond).
pub fn near<'a>(
    name: &str,
    candidates: impl IntoIterator<Item = &'a str>,
    max: usize,
) -> Vec<&'a str> {
    let allowed = match name.chars().count() {
        0..=4 => 1,
        5..=12 => 2,
        _ => 3,
    };
    let lower = name.to_lowercase();
    let mut found: Vec<(usize, &str)> = candidates
        .into_iter()
        .filter(|c| *c != name)
        .filter_map(|c| {
            let d = if c.to_lowercase() == lower {
                0
            } else {
                distance(name, c)
            };
            (d <= allowed).then_some((d, c))
        })
        .collect();
    found.sort();
    found.dedup();
    found.into_iter().take(max).map(|(_, c)| c).collect()
}

/// Why a logical queue's dead-letter queue was not found, as far as the queues that exist tell.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum MissingDeadQueue {
    /// The name given is itself a dead-letter queue (`q.dead`): its logical queue is this.
    DeadQueueGiven { logical: String },
    /// The name given is a hold queue (`q.deferred.30000`): its logical queue is this.
    HoldQueueGiven { logical: String },
    /// The work queue exists, its dead-letter queue does not (`queuey declare` creates it).
    NotDeclared,
    /// Logical queues with a dead-letter queue whose names are near the one given.
    Near(Vec<String>),
    /// Nothing near.
    Nothing,
}

/// What `existing` (queue names in the vhost) says about a missing `name + dead_suffix`, where
/// hold queues are named `q + deferred_suffix + "." + TTL`.
pub fn missing_dead_queue(
    name: &str,
    dead_suffix: &str,
    deferred_suffix: &str,
    existing: &[String],
) -> MissingDeadQueue {
    let exists = |n: &str| existing.iter().any(|e| e == n);
    if let Some((head, ttl)) = name.rsplit_once('.')
        && !ttl.is_empty()
        && ttl.bytes().all(|b| b.is_ascii_digit())
        && let Some(logical) = head.strip_suffix(deferred_suffix)
        && !logical.is_empty()
    {
        return MissingDeadQueue::HoldQueueGiven {
            logical: logical.to_owned(),
        };
    }
    if let Some(logical) = name.strip_suffix(dead_suffix)
        && !logical.is_empty()
        && exists(name)
    {
        return MissingDeadQueue::DeadQueueGiven {
            logical: logical.to_owned(),
        };
    }
    if exists(name) {
        return MissingDeadQueue::NotDeclared;
    }
    let logicals = existing
        .iter()
        .filter_map(|e| e.strip_suffix(dead_suffix))
        .filter(|l| !l.is_empty());
    let near: Vec<String> = near(name, logicals, 3)
        .into_iter()
        .map(str::to_owned)
        .collect();
    if near.is_empty() {
        MissingDeadQueue::Nothing
    } else {
        MissingDeadQueue::Near(near)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn distances() {
        assert_eq!(distance("orders", "orders"), 0);
        assert_eq!(distance("orders", "ordres"), 1, "a swap is one edit");
        assert_eq!(distance("orders", "order"), 1);
        assert_eq!(distance("", "abc"), 3);
        assert_eq!(distance("注文", "注文書"), 1);
    }

    #[test]
    fn near_names_nearest_first() {
        let names = ["tour.orders", "tour.order", "tour.billing", "TOUR.ORDRES"];
        assert_eq!(
            near("tour.ordres", names, 3),
            ["TOUR.ORDRES", "tour.orders", "tour.order"]
        );
        assert!(near("zzz", names, 3).is_empty());
        assert!(
            near("tour.orders", ["tour.orders"], 3).is_empty(),
            "not itself"
        );
    }

    #[test]
    fn what_a_missing_dead_queue_means() {
        let existing: Vec<String> = ["orders", "orders.dead", "lonely", "billing.dead"]
            .map(str::to_owned)
            .to_vec();
        assert_eq!(
            missing_dead_queue("orders.dead", ".dead", ".deferred", &existing),
            MissingDeadQueue::DeadQueueGiven {
                logical: "orders".into()
            }
        );
        assert_eq!(
            missing_dead_queue("lonely", ".dead", ".deferred", &existing),
            MissingDeadQueue::NotDeclared
        );
        assert_eq!(
            missing_dead_queue("ordres", ".dead", ".deferred", &existing),
            MissingDeadQueue::Near(vec!["orders".into()])
        );
        assert_eq!(
            missing_dead_queue("shipping", ".dead", ".deferred", &existing),
            MissingDeadQueue::Nothing
        );
        assert_eq!(
            missing_dead_queue("orders.deferred.30000", ".dead", ".deferred", &existing),
            MissingDeadQueue::HoldQueueGiven {
                logical: "orders".into()
            }
        );
    }
}
