//! The copies in doubt of an unfinished run: published, never confirmed (the connection or the
//! broker failed first). The broker may have taken them or not; no client can know but by
//! looking. So before a rerun replays anything it looks for them in their targets, with the
//! peek: each copy carries its run and number in `x-queuey-last-replay`. A copy found there is
//! recorded as confirmed (its dead letter is then acked without a new copy); one not found is
//! certainly not there, and its dead letter is copied again.
//!
//! The look is made only where it changes nothing but the `redelivered` flag of what it reads:
//! a target with no consumer (a consumer may already have taken a copy, which then cannot be
//! seen), and a classic queue, or a quorum queue where returning a delivery spends none of the
//! message's delivery limit (no limit set, or RabbitMQ 4.3 and later: `broker::peek`), that the
//! user may read. Elsewhere the rerun says so, and the dead letters of those copies are copied
//! again: at most that many duplicates, never a loss.

use std::collections::HashSet;

use super::journal::JournalSlot;
use crate::broker::peek::with_peek;
use crate::broker::session::Session;
use crate::dead::journal::Unfinished;
use crate::dead::peek::PeekOptions;
use crate::dead::replay::replay_mark;
use crate::error::{Kind, Result};
use crate::output::{Output, plural};
use crate::settings::ReplaySettings;

/// Looks for each copy in doubt in `carried` and settles it there (and, outside a dry run, in
/// this run's journal).
pub(super) async fn resolve_doubts(
    session: &Session,
    s: &ReplaySettings,
    carried: &mut Unfinished,
    journal: &mut JournalSlot,
    output: Output,
) -> Result<()> {
    let by_target = carried.doubts_by_target();
    if by_target.is_empty() {
        return Ok(());
    }
    output.note(&format!(
        "the journal records {} in doubt (published by a run that failed, never confirmed: \
         the broker may have taken them or not); looking in {}",
        plural(carried.doubts() as u64, "copy"),
        by_target
            .keys()
            .map(|t| format!("{t:?}"))
            .collect::<Vec<_>>()
            .join(", ")
    ));
    for (target, keys) in by_target {
        let wanted: HashSet<(String, u64)> = keys.into_iter().collect();
        let n = wanted.len() as u64;
        let found = match look_for(session, s, &target, wanted.clone()).await? {
            Look::Found(found) => found,
            Look::Missing => HashSet::new(),
            Look::Cannot(why) => {
                output.warn(&format!(
                    "cannot look for {} in doubt in {target:?}: {why}. Their dead letters are \
                     copied again: up to {n} may now be in {target:?} twice",
                    plural(n, "copy"),
                ));
                continue;
            }
        };
        for (run, copy) in &wanted {
            let is_found = found.contains(&(run.clone(), *copy));
            let Some(doubt) = carried.resolve(run, *copy, is_found) else {
                continue;
            };
            if !s.dry_run {
                let at = is_found.then_some((doubt.digest.as_str(), doubt.to.as_str()));
                journal.resolved(run, *copy, at)?;
            }
        }
        output.note(&format!(
            "{target:?}: {} of the {} in doubt found there (not copied again), {} not \
             (copied again)",
            found.len(),
            plural(n, "copy"),
            n - found.len() as u64
        ));
    }
    if !s.dry_run {
        journal.sync()?;
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
    s: &ReplaySettings,
    target: &str,
    mut wanted: HashSet<(String, u64)>,
) -> Result<Look> {
    match session.passive_declare(target).await? {
        None => return Ok(Look::Missing),
        Some(c) if c.consumers > 0 => {
            return Ok(Look::Cannot(format!(
                "it has {} (a copy one has taken cannot be seen); stop them to have a \
                 rerun look",
                plural(u64::from(c.consumers), "consumer")
            )));
        }
        Some(_) => {}
    }
    let options = PeekOptions {
        // What the operator accepted for q.dead does not extend to a work queue.
        spend_delivery_budget: false,
        max_messages: None,
        auto_rescue: true,
        ..s.peek
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
