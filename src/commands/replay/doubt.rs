//! The copies in doubt of an unfinished run: published, never confirmed (the connection or the
//! broker failed first). The broker may have taken them or not; no client can know but by
//! looking, and looking means reading the target: a work queue that belongs to the
//! application (SPEC 5.8). So a rerun looks only when the operator asks (`--look-in-targets`),
//! says first how many jobs it reads and what that costs, and reads only a target where the
//! look changes nothing but each job's `redelivered` flag (and, on a quorum queue from 4.3,
//! its `x-acquired-count`): one with no consumer (a worker may already have taken a copy,
//! which then cannot be seen, and workers would wait behind the look), classic, or quorum
//! where a return spends no delivery (`broker::peek`). A copy found there answers for one dead
//! letter of its content, which is acked without a new copy (`dead::ledger`). One not found is
//! not there yet: its dead letter is copied again, and counted as one that may be in its
//! target twice, since on a cluster such a copy can still arrive after the look (a leader of
//! the target frozen or without its majority takes it once it runs again: docs/cluster.md).
//!
//! Without the flag, or where no look is made, the dead letters of those copies are copied
//! again: each may then be in its target twice, and the rerun says how many, where.
//!
//! Where it sits (`replay/mod.rs`): stage 1, called by `open_ledger.rs`.

use std::collections::HashSet;

use super::ledger::LedgerSlot;
use crate::broker::peek::with_peek;
use crate::broker::session::Session;
use crate::dead::ledger::Ledger;
use crate::dead::peek::PeekOptions;
use crate::dead::replay::replay_mark;
use crate::error::{Kind, Result};
use crate::output::{Output, plural};
use crate::settings::ReplaySettings;

/// Looks for each copy in doubt in `carried` and settles it there (and, outside a dry run, in
/// this run's journal).
pub(super) async fn resolve_doubts(
    session: &Session,
    settings: &ReplaySettings,
    carried: &mut Ledger,
    ledger: &mut LedgerSlot,
    output: Output,
) -> Result<()> {
    let by_target = carried.doubts_by_target();
    if by_target.is_empty() {
        return Ok(());
    }
    if !settings.look_in_targets {
        let given_up = carried.give_up_doubts();
        output.warn(&format!(
            "the ledger records {} in doubt (published by a run that failed, never confirmed: \
             the broker may have taken them or not): their dead letters are copied again, so \
             up to that many may now be twice in {}. --look-in-targets reads those queues \
             first (each must have no consumer) and copies again only what is not there",
            plural(given_up.values().sum(), "copy"),
            given_up
                .iter()
                .map(|(t, n)| format!("{t:?} ({n})"))
                .collect::<Vec<_>>()
                .join(", ")
        ));
        return Ok(());
    }
    for (target, keys) in by_target {
        let wanted: HashSet<(String, u64)> = keys.into_iter().collect();
        let n = wanted.len() as u64;
        let found = match look_for(session, settings, &target, wanted.clone(), output).await? {
            Look::Found(found) => found,
            Look::Missing => HashSet::new(),
            Look::Cannot(why) => {
                output.warn(&format!(
                    "cannot look for {} in doubt in {target:?}: {why}. Their dead letters are \
                     copied again: up to {n} may now be in {target:?} twice",
                    plural(n, "copy"),
                ));
                for (run, copy) in &wanted {
                    carried.give_up_doubt(run, *copy);
                }
                continue;
            }
        };
        for (run, copy) in &wanted {
            let is_found = found.contains(&(run.clone(), *copy));
            let Some(doubt) = carried.resolve(run, *copy, is_found) else {
                continue;
            };
            if !settings.dry_run {
                ledger.resolved(run, *copy, &doubt.digest, is_found)?;
            }
        }
        output.note(&format!(
            "{target:?}: {} of the {} in doubt found there (their dead letters are not copied \
             again), {} not (copied again, and counted in may_be_duplicates: on a cluster a \
             copy in doubt can still arrive after this look)",
            found.len(),
            plural(n, "copy"),
            n - found.len() as u64
        ));
    }
    if !settings.dry_run {
        ledger.sync()?;
    }
    Ok(())
}

/// What a look in a target found.
enum Look {
    /// These copies, of those looked for.
    Found(HashSet<(String, u64)>),
    /// The target does not exist: no copy is there.
    Missing,
    /// No look was made, for this reason.
    Cannot(String),
}

/// Reads `target` from head to tail (or until every copy `wanted` is found), and returns every
/// message where it was.
async fn look_for(
    session: &Session,
    settings: &ReplaySettings,
    target: &str,
    mut wanted: HashSet<(String, u64)>,
    output: Output,
) -> Result<Look> {
    match session.passive_declare(target).await? {
        None => return Ok(Look::Missing),
        Some(c) if c.consumers > 0 => {
            return Ok(Look::Cannot(format!(
                "it has {} (a worker may have taken a copy, which then cannot be seen, and \
                 would wait behind the look); stop them to have a rerun look",
                plural(u64::from(c.consumers), "consumer")
            )));
        }
        Some(c) => output.note(&format!(
            "looking for {} in doubt in {target:?}: reading its {} (each held, then returned \
             in place and marked redelivered, a quorum queue's stamped x-acquired-count from \
             RabbitMQ 4.3; no consumer is waiting)",
            plural(wanted.len() as u64, "copy"),
            plural(u64::from(c.messages_ready), "job")
        )),
    }
    let options = PeekOptions {
        // What the operator accepted for q.dead does not extend to a work queue.
        spend_delivery_budget: false,
        max_messages: None,
        auto_rescue: true,
        ..settings.peek
    };
    let mut found = HashSet::new();
    let looked = with_peek(session, target, options, async |p| {
        while !wanted.is_empty() {
            let Some(d) = p.next().await? else {
                break;
            };
            if let Some((run, copy)) = replay_mark(&d.message.properties) {
                let key = (run.to_owned(), copy);
                if wanted.remove(&key) {
                    found.insert(key);
                }
            }
        }
        Ok(())
    })
    .await;
    match looked {
        Ok(()) => Ok(Look::Found(found)),
        Err(e) if e.kind == Kind::QueueNotFound => Ok(Look::Missing),
        // A kind of queue a peek would cost, one queuey cannot tell without the management
        // API, or one the user may not read: no look, said aloud.
        Err(e)
            if matches!(
                e.kind,
                Kind::Usage | Kind::Api | Kind::ApiRefused | Kind::AccessRefused
            ) =>
        {
            Ok(Look::Cannot(e.message))
        }
        Err(e) => Err(e),
    }
}
