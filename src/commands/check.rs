//! `queuey dead check <QUEUE>... | --all`: thresholds on dead letters, for cron, CI and
//! monitoring. Exit 0 when every threshold holds, 1 when one is crossed (as `verify` for drift),
//! 11 when none is crossed and one could not be judged.
//!
//! Reads only. The count is a passive declare of `q.dead` (exact, now); with filters, a whole
//! peek counts what matches instead. The age is the oldest of every dead letter (or of every
//! match), read by a whole peek that returns each in place: not the head's, which is not the
//! oldest by the age queuey documents. The rate is the management API's. What cannot be
//! measured is unknown, never guessed; a check with an unknown threshold and none crossed
//! exits 11, not 0 (`dead::check`).

use crate::broker::session::Session;
use crate::dead::check::{Measured, judge};
use crate::endpoint::ConnectionSettings;
use crate::error::{ExitCode, Result};
use crate::live::check::{arrival_rate, oldest_age, scan};
use crate::live::scan::missing_dead_queue;
use crate::output::check::{CheckReport, QueueCheck, print_report};
use crate::output::{Output, sanitize::sanitize};
use crate::settings::CheckSettings;

pub async fn run(
    connection: &ConnectionSettings,
    s: &CheckSettings,
    output: Output,
) -> Result<ExitCode> {
    let session = super::session(connection, "dead check", output)?;
    let result = check_all(&session, s, output).await;
    session.close().await;
    let report = result?;
    print_report(&report, output)?;
    Ok(if report.crossed {
        ExitCode::Drift
    } else if report.unknown {
        ExitCode::Unknown
    } else {
        ExitCode::Ok
    })
}

async fn check_all(session: &Session, s: &CheckSettings, output: Output) -> Result<CheckReport> {
    let mut queues = Vec::new();
    for q in &s.queues {
        let dead = q.dead_queue();
        let mut measured = Measured::default();
        let counted_by = if s.filter.is_empty() {
            measured.count = match session.passive_declare(&dead).await? {
                Some(c) => u64::from(c.messages_ready),
                None => return Err(missing_dead_queue(session, q).await),
            };
            if s.thresholds.max_age.is_some() {
                measured.age = Some(oldest_age(session, q, s.peek, output).await?);
            }
            "amqp"
        } else {
            let found = scan(
                session,
                q,
                &s.filter,
                s.peek,
                "dead check with filters",
                output,
            )
            .await?;
            measured.count = found.matched;
            measured.age = Some(found.oldest);
            "scan"
        };
        if s.thresholds.max_rate.is_some() {
            measured.rate = Some(arrival_rate(session, q).await);
        }
        let verdicts = judge(&s.thresholds, &measured);
        for v in verdicts.iter().filter(|v| v.unknown) {
            if let Some(note) = v.note.as_deref() {
                output.note(&format!(
                    "note: {}: {} {note}",
                    sanitize(&dead),
                    v.threshold
                ));
            }
        }
        queues.push(QueueCheck {
            crossed: verdicts.iter().any(|v| v.crossed),
            unknown: verdicts.iter().any(|v| v.unknown),
            queue: q.name.clone(),
            dead_queue: dead,
            count: measured.count,
            counted_by,
            oldest: measured.age,
            verdicts,
        });
    }
    Ok(CheckReport {
        vhost: session.vhost().to_owned(),
        crossed: queues.iter().any(|q| q.crossed),
        unknown: queues.iter().any(|q| q.unknown),
        queues,
    })
}
