//! `queuey status -o prometheus`: the status screen as gauges, labelled `vhost` and `queue`,
//! and with `--scan` the age of each classic q.dead's oldest dead letter and its dead letters
//! by cause: both from one peek of the whole q.dead, every message returned in place (the head
//! is not the oldest by the age queuey documents: `live::dead_measures::oldest_age`).

use crate::broker::session::Session;
use crate::dead::filter::Filter;
use crate::dead::peek::PeekOptions;
use crate::dead::thresholds::{AgeReading, gaps};
use crate::error::Result;
use crate::live::dead_measures::{is_quorum, quorum_not_peeked_here, scan};
use crate::output::Output;
use crate::output::prometheus::{self, GaugeFamily, queue_labels};
use crate::output::sanitize::sanitize;
use crate::queue::QueueSettings;

use crate::output::status::StatusReport;

fn count(v: Option<u64>) -> Option<f64> {
    v.map(|v| v as f64)
}

/// Prints `report` as gauges, reading what the screen does not show: each q.dead's oldest age
/// and, with `scan`, its dead letters by cause (classic q.dead only; a quorum one is never
/// peeked by status, and said so). The age gauge is the oldest of all, or no sample: a lower
/// bound (a dead letter with no time, one held by another consumer) is said in a note.
pub async fn print(
    session: &Session,
    queues: &[QueueSettings],
    report: &StatusReport,
    scan_causes: bool,
    output: Output,
) -> Result<()> {
    let vhost = session.vhost();
    let mut messages = GaugeFamily::new(
        "queue_messages",
        "Messages in q (ready, exact when counted by AMQP)",
    );
    let mut consumers = GaugeFamily::new("queue_consumers", "Consumers of q");
    let mut dead = GaugeFamily::new(
        "dead_letters",
        "Dead letters in q.dead (ready, and those other consumers hold unacknowledged)",
    );
    let mut age = GaugeFamily::oldest_age();
    let mut at_least = GaugeFamily::oldest_age_at_least();
    let mut by_cause = GaugeFamily::new(
        "dead_letters_by_cause",
        "Dead letters in q.dead by cause (status --scan)",
    );
    let mut holds = GaugeFamily::new("hold_queues", "Live hold queues of q");
    let mut waiting = GaugeFamily::new(
        "hold_queue_messages",
        "Messages waiting in the hold queues of q (statistics)",
    );
    let mut exists = GaugeFamily::new("queue_exists", "1 when q exists, else 0");
    let mut dead_exists =
        GaugeFamily::new("dead_letter_queue_exists", "1 when q.dead exists, else 0");
    let mut drift = GaugeFamily::new(
        "drift",
        "1 when queuey verify of q would exit 1 (q or q.dead missing, a queue or hold queue that differs from its computed definition, or one the broker refuses as computed), 0 when all are in sync",
    );
    for (l, q) in report.logical_queues.iter().zip(queues) {
        let labels = queue_labels(vhost, &l.name);
        let ready = |s: &crate::output::status::QueueStatus| {
            if s.exists {
                s.counts.messages_ready.or(s.counts.messages)
            } else {
                None
            }
        };
        messages.add(labels.clone(), count(ready(&l.work)));
        consumers.add(
            labels.clone(),
            count(l.work.exists.then_some(l.work.counts.consumers).flatten()),
        );
        // Every dead letter, those another consumer holds included (they are still in q.dead):
        // no sample while their number is not known.
        dead.add(
            labels.clone(),
            count(l.dead.exists.then_some(l.dead.counts.messages).flatten()),
        );
        holds.add(labels.clone(), l.hold_queues.count.map(|n| n as f64));
        waiting.add(labels.clone(), count(l.hold_queues.messages));
        let flag = |b: bool| if b { 1.0 } else { 0.0 };
        exists.add(labels.clone(), Some(flag(l.work.exists)));
        dead_exists.add(labels.clone(), Some(flag(l.dead.exists)));
        drift.add(labels.clone(), l.out_of_sync().map(flag));
        // The oldest age and the causes need every dead letter read: only with --scan, so
        // that a scrape of a fleet stays a listing (a million dead letters take minutes).
        if !l.dead.exists || !scan_causes {
            continue;
        }
        let dead_name = sanitize(&l.dead.name);
        if is_quorum(session, q).await == Some(true) {
            output.note(&format!(
                "note: {dead_name}: no oldest-age or by-cause gauges: {}",
                quorum_not_peeked_here(session).await
            ));
            continue;
        }
        let found = scan(
            session,
            q,
            &Filter::default(),
            PeekOptions::new(),
            crate::dead::thresholds::UntimedRule::Unknown,
            "status -o prometheus",
            output,
        )
        .await?;
        at_least.add(labels.clone(), found.oldest.at_least().map(|s| s as f64));
        match found.oldest {
            AgeReading::Known { seconds, .. } => age.add(labels.clone(), Some(seconds as f64)),
            AgeReading::Empty => {}
            AgeReading::AtLeast {
                seconds,
                without_time,
                not_read,
                ..
            } => output.note(&format!(
                "note: {dead_name}: no oldest-age gauge (the at-least gauge says {}): {}",
                crate::duration::format_duration(std::time::Duration::from_secs(seconds)),
                gaps(without_time, not_read)
            )),
            AgeReading::Unknown { why } => {
                output.note(&format!("note: {dead_name}: no oldest-age gauge: {why}"))
            }
        }
        for (cause, n) in found.by_cause {
            let mut with = labels.clone();
            with.push(("cause", cause));
            by_cause.add(with, Some(n as f64));
        }
    }
    prometheus::print(&[
        messages,
        consumers,
        dead,
        age,
        at_least,
        by_cause,
        holds,
        waiting,
        exists,
        dead_exists,
        drift,
    ])
}
