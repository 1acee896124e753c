//! What `queuey dead purge` prints at its end: its JSON document, or one line saying what was
//! (or would be) removed, archived, and left.

use serde::Serialize;

use crate::error::Result;
use crate::output::{self, Format, Output, plural, sanitize::sanitize};

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
    /// Stopped by a signal (Ctrl-C, SIGTERM, SIGHUP): the rest stays (exit 130).
    pub interrupted: bool,
    /// Dead letters others held when the purge began: not read, so not removed (exit 3).
    pub held_elsewhere: Option<crate::dead::peek::HeldElsewhere>,
    /// The AMQP address the purge connected to (the first of `--url`'s that answered), its
    /// password masked.
    pub connected_to: Option<String>,
}

/// Prints the report: JSON, or one line saying what was (or would be) removed.
pub fn print_report(r: &PurgeReport, output: Output) -> Result<()> {
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
