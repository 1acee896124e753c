//! What the commands that read q.dead (`dead ls`, `show`, `export`, `replay`, `purge`) say on
//! stderr beside their output: what a crash would cost, a stop by a signal, dead letters others
//! hold, messages replaced by copies.

use crate::output::sanitize::sanitize;
use crate::output::{Output, plural};

/// Before a look of a quorum queue with a delivery limit: what a crash of queuey or of its
/// connection would cost while it holds the queue's messages (a signal costs nothing).
pub fn note_crash_cost(output: Output, queue: &str, limit: u64, returns_count: bool, round: u64) {
    output.note(&crash_cost(queue, limit, returns_count, round));
}

/// The words of [`note_crash_cost`], for a screen that shows them instead (`dead browse`).
pub fn crash_cost(queue: &str, limit: u64, returns_count: bool, round: u64) -> String {
    let normal = if returns_count {
        "this look spends one delivery of every message it reads (--spend-delivery-budget)"
    } else {
        "this look spends no delivery (Ctrl-C neither)"
    };
    format!(
        "{} is a quorum queue with a delivery limit of {limit}: {normal}, but if queuey is \
         killed or loses its connection, every message it holds spends one delivery, and up \
         to {round} on their last delivery could be lost (queuey republishes those it has read \
         as they arrive)",
        sanitize(queue)
    )
}

/// After a look that a stop signal ended early: what it read, and that everything it held went
/// back. The exit code of the look (130 when interrupted).
pub fn note_interrupted(
    output: Output,
    queue: &str,
    stop: &crate::signals::StopFlag,
    interrupted: bool,
    scanned: u64,
    depth_at_start: u64,
) -> crate::error::ExitCode {
    if !interrupted {
        return crate::error::ExitCode::Ok;
    }
    output.warn(&format!(
        "interrupted by {} after reading {scanned} of the {depth_at_start} messages {} held: \
         every message it held is back in {}, nothing removed; what follows is partial",
        stop.signal().unwrap_or("a signal"),
        sanitize(queue),
        sanitize(queue),
    ));
    crate::error::ExitCode::Interrupted
}

/// After a run over `queue` that had other consumers when it began: what they held
/// unacknowledged was not read (the run's exit code is then 3).
pub fn note_held_elsewhere(
    output: Output,
    queue: &str,
    held: Option<crate::dead::peek::HeldElsewhere>,
) {
    let Some(h) = held else {
        return;
    };
    let by = match h.consumers {
        1 => "1 other consumer".to_owned(),
        n => format!("{n} other consumers"),
    };
    let queue = sanitize(queue);
    let then = "when they are acked or rejected, or when the connection holding them closes; \
                run the command again then (`rabbitmqctl list_consumers` and the management UI's \
                queue page show who holds them)";
    output.warn(&match h.messages {
        Some(n) => format!(
            "{} of {queue} {} held unacknowledged by {by}, and not read: {} back in {queue} {then}",
            plural(n, "dead letter"),
            if n == 1 { "was" } else { "were" },
            if n == 1 { "it comes" } else { "they come" },
        ),
        None => format!(
            "{queue} has {by}: the dead letters {} holds unacknowledged were not read, and \
             the management API counts none yet (its statistics are seconds old, or it did not \
             answer), so this run may have missed some: they come back in {queue} {then}",
            if h.consumers == 1 { "it" } else { "they" },
        ),
    });
}

/// The warning after a peek that republished messages on their last delivery.
pub fn note_rescued(output: Output, queue: &str, rescued: u64) {
    if rescued > 0 {
        output.warn(&format!(
            "{} of {queue:?} {} on {} last delivery: queuey republished a confirmed copy of {} \
             instead of returning it (changing {} place in the queue)",
            plural(rescued, "message"),
            if rescued == 1 { "was" } else { "were" },
            if rescued == 1 { "its" } else { "their" },
            if rescued == 1 { "it" } else { "each" },
            if rescued == 1 { "its" } else { "their" },
        ));
    }
}
