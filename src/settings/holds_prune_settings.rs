//! `holds prune`'s settings: which logical queues, and the hold-queue TTLs the topology file
//! lists for each (its `delays` and `deferrals`, rounded as the library rounds them).

use std::collections::BTreeSet;

use crate::cli::HoldsPruneArgs;
use crate::duration::parse_duration;
use crate::error::{Error, Result};
use crate::plan::prune_candidates::PruneScope;
use crate::queue::QueueSettings;
use crate::topology::deferred_ttl_ms;

use super::{TopologyFile, resolve_queues};

/// What `holds prune` does.
#[derive(Clone, Debug)]
pub struct PruneSettings {
    /// Each logical queue with what to select among its hold queues.
    pub queues: Vec<(QueueSettings, PruneScope)>,
    pub dry_run: bool,
    pub yes: bool,
}

pub fn prune_settings(a: &HoldsPruneArgs, file: Option<&TopologyFile>) -> Result<PruneSettings> {
    let queues = resolve_queues(&a.selection, &a.settings, file)?;
    let mut out = Vec::new();
    for q in queues {
        let unlisted = if a.unlisted {
            Some(listed_ttls(&q, file)?)
        } else {
            None
        };
        out.push((
            q,
            PruneScope {
                unlisted,
                drift: a.drift,
            },
        ));
    }
    Ok(PruneSettings {
        queues: out,
        dry_run: a.dry_run,
        yes: a.yes,
    })
}

/// The TTLs of the hold queues `q`'s listed delays land in: its table's `delays` and
/// `deferrals` in the topology file, else those of `[defaults]`.
fn listed_ttls(q: &QueueSettings, file: Option<&TopologyFile>) -> Result<BTreeSet<u32>> {
    let missing = || {
        Error::usage(format!(
            "--unlisted keeps the hold queues of the delays the topology file lists for {:?}, \
             and it lists none",
            q.name
        ))
        .with_hint(
            "add `delays = [\"1s\", \"30s\"]` (retries and delayed enqueues) and `deferrals = \
             [\"10m\"]` to its [queues.\"<name>\"] table or to [defaults]",
        )
    };
    let file = file.ok_or_else(missing)?;
    let entry = file
        .queues
        .iter()
        .find(|(name, _)| *name == q.name)
        .map(|(_, e)| e);
    let pick = |f: fn(&super::file::RawQueueSettings) -> &Option<Vec<String>>| {
        entry
            .and_then(|e| f(e).clone())
            .or_else(|| f(&file.defaults).clone())
    };
    let delays = pick(|e| &e.delays);
    let deferrals = pick(|e| &e.deferrals);
    if delays.is_none() && deferrals.is_none() {
        return Err(missing());
    }
    let mut ttls = BTreeSet::new();
    for (list, key, granularity) in [
        (delays, "delays", q.options.retry_granularity),
        (deferrals, "deferrals", q.options.deferred_granularity),
    ] {
        for written in list.unwrap_or_default() {
            let delay = parse_duration(&written).map_err(|e| {
                Error::settings(format!(
                    "{}: {key} {written:?} of {:?}: {e}",
                    file.path.display(),
                    q.name
                ))
            })?;
            let ttl = deferred_ttl_ms(delay, granularity).ok_or_else(|| {
                Error::settings(format!(
                    "{}: {key} {written:?} of {:?} is past the longest delay, {}ms",
                    file.path.display(),
                    q.name,
                    crate::topology::MAX_DEFERRAL_MS
                ))
            })?;
            ttls.insert(ttl);
        }
    }
    Ok(ttls)
}
