//! What `queuey dead purge` prints at its end: its JSON document, or one line saying what was
//! (or would be) removed, archived, and left.

use serde::Serialize;

use crate::error::Result;
use crate::output::{self, Format, Output, by_count, plural, sanitize::sanitize};

/// The summary of a purge.
#[derive(Clone, Debug, Default, Serialize)]
pub struct PurgeReport {
    pub queue: String,
    pub dry_run: bool,
    /// Without filters or an archive the whole queue is counted and purged at once
    /// (`queue.purge`), reading nothing.
    pub whole_queue: bool,
    /// Messages read; `null` for a whole-queue purge, which reads none.
    pub scanned: Option<u64>,
    /// Messages that match (a whole-queue purge: the queue's depth).
    pub matched: u64,
    pub removed: u64,
    pub archive: Option<String>,
    /// The confirmation prompt was answered no: nothing was removed (exit 9).
    pub aborted: bool,
    /// With --archive: dead letters found already archived by an unfinished earlier purge
    /// into the same archive: removed without being written twice.
    pub already_archived: u64,
    /// With --archive: dead letters archived that an unfinished earlier purge may have archived
    /// already (its ack was sent when it failed, and the broker may or may not have applied it):
    /// each may now be in the archive twice; none is lost.
    pub may_be_duplicates: u64,
    /// The message ids of the records counted in `may_be_duplicates` (`sha256:` and the start
    /// of its digest for a dead letter without one), the first thousand.
    pub may_be_duplicated_ids: Vec<String>,
    /// Dead letters that pass every filter but that `--older-than` would select by their job's
    /// enqueue time alone (no death time: they may have died since, a job replayed and dead
    /// again among them): kept, without `--age-from-enqueued`.
    pub kept_aged_by_enqueue: u64,
    /// With `--age-from-enqueued`: the matches `--older-than` selected by their job's enqueue
    /// time alone (included in `matched`).
    pub matched_aged_by_enqueue: u64,
    /// Stopped by a signal (Ctrl-C, SIGTERM, SIGHUP): the rest stays (exit 130).
    pub interrupted: bool,
    /// Dead letters others held when the purge began: not read, so not removed (exit 3).
    pub held_elsewhere: Option<crate::dead::peek::HeldElsewhere>,
    /// The AMQP address the purge connected to (the first of `--url`'s that answered), its
    /// password masked.
    pub connected_to: Option<String>,
}

/// What the purge did with the dead letters `--older-than` judged by their job's enqueue time
/// alone; `None` when there were none. `before`: said before the prompt (would be).
pub fn enqueue_age_note(r: &PurgeReport, before: bool) -> Option<String> {
    let (verb_kept, verb_removed) = if before || r.dry_run {
        ("would be kept", "would be removed")
    } else {
        ("kept", "removed")
    };
    if r.kept_aged_by_enqueue > 0 {
        Some(format!(
            "{} {verb_kept}: {} every filter, but carry no death time, and --older-than would \
             select them only by the time since their job was enqueued (an application's dead \
             letter has no death time; a job replayed and dead again a minute ago looks as old as \
             its first enqueue). `queuey dead ls` shows their ages (age*); --age-from-enqueued \
             removes them by that age",
            plural(r.kept_aged_by_enqueue, "dead letter"),
            by_count(r.kept_aged_by_enqueue, "it passes", "they pass"),
        ))
    } else if r.matched_aged_by_enqueue > 0 {
        Some(format!(
            "{} of the matches {verb_removed} by --age-from-enqueued: aged since their job was \
             enqueued (no death time), they may have died much later",
            r.matched_aged_by_enqueue
        ))
    } else {
        None
    }
}

/// Prints the report: JSON, or one line saying what was (or would be) removed.
pub fn print_report(r: &PurgeReport, output: Output) -> Result<()> {
    if let Some(note) = enqueue_age_note(r, false) {
        output.note(&note);
    }
    if output.format == Format::Json {
        return output::print_json(r);
    }
    let text = if r.dry_run {
        format!(
            "dry run: {} of {} would be removed{}; nothing removed",
            plural(r.matched, "dead letter"),
            sanitize(&r.queue),
            match r.scanned {
                Some(n) => format!(" ({n} scanned)"),
                None => " (the whole queue)".to_owned(),
            }
        )
    } else {
        format!(
            "removed {} from {}{}{}",
            plural(r.removed, "dead letter"),
            sanitize(&r.queue),
            match r.scanned {
                Some(n) => format!(" ({n} scanned, the rest stay in order)"),
                None => String::new(),
            },
            r.archive
                .as_ref()
                .map_or(String::new(), |a| format!("; archived to {a}"))
        ) + &if r.already_archived > 0 {
            format!(
                " ({} of them already in the archive from an unfinished purge)",
                r.already_archived
            )
        } else {
            String::new()
        } + &if r.may_be_duplicates > 0 {
            format!(
                "; {} archived that an unfinished purge may have archived already (its ack was \
                 sent when it failed): each may now be in the archive twice, none is lost{}",
                r.may_be_duplicates,
                super::duplicates_named(&r.may_be_duplicated_ids)
            )
        } else {
            String::new()
        } + match (r.interrupted, &r.archive) {
            // The archive is complete for what it holds: a purge that goes on writes another.
            (true, Some(_)) => {
                "; interrupted: the rest stays in the dead-letter queue (to go on, run the purge \
                 again with another --archive file: this one is complete)"
            }
            (true, None) => "; interrupted: the rest stays in the dead-letter queue",
            (false, _) => "",
        }
    };
    output::print(text)
}
