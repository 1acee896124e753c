//! `queuey dead check <QUEUE>... | --all`: thresholds on dead letters, for cron, CI and
//! monitoring. Exit 0 when every threshold holds, 1 when one is crossed (as `verify` for drift),
//! 11 when none is crossed and one could not be judged.
//!
//! Reads only. The count is a passive declare of `q.dead` (exact, now); with filters, a whole
//! peek counts what matches instead. The age is the oldest of every dead letter (or of every
//! match), read by a whole peek that returns each in place: not the head's, which is not the
//! oldest by the age queuey documents. The rate is the management API's. What cannot be
//! measured is unknown, never guessed; a check with an unknown threshold and none crossed
//! exits 11, not 0 (`dead::thresholds`).

use crate::broker::peek::held_elsewhere;
use crate::broker::session::Session;
use crate::dead::thresholds::{Measured, judge};
use crate::endpoint::ConnectionSettings;
use crate::error::{ExitCode, Result};
use crate::live::dead_measures::{arrival_rate, oldest_age, scan};
use crate::live::scan::missing_dead_queue;
use crate::output::dead_check_report::{CheckReport, QueueCheck, print_report};
use crate::output::{Output, sanitize::sanitize};
use crate::settings::CheckSettings;

pub async fn run(
    connection: &ConnectionSettings,
    settings: &CheckSettings,
    output: Output,
) -> Result<ExitCode> {
    let session = super::session(connection, "dead check", output)?;
    let result = check_all(&session, settings, output).await;
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

async fn check_all(
    session: &Session,
    settings: &CheckSettings,
    output: Output,
) -> Result<CheckReport> {
    let mut queues = Vec::new();
    for q in &settings.queues {
        let dead = q.dead_queue();
        let mut measured = Measured::default();
        let mut held = None;
        let counted_by = if settings.filter.is_empty() {
            let exact = match session.passive_declare(&dead).await? {
                Some(c) => c,
                None => return Err(missing_dead_queue(session, q).await),
            };
            measured.count = u64::from(exact.messages_ready);
            // A passive declare counts the ready messages: what other consumers hold
            // unacknowledged is still in q.dead, counted by the API's statistics if at all.
            if exact.consumers > 0 {
                let unacked = match session.live_queue(&dead).await {
                    Ok(Some(live)) => live.messages_unacknowledged,
                    _ => None,
                };
                held = held_elsewhere(unacked, exact);
            }
            match held.map(|h| h.messages) {
                Some(Some(n)) => {
                    measured.count = measured.count.saturating_add(n);
                    measured.held = Some(n);
                }
                Some(None) => measured.not_counted = Some(None),
                None => {}
            }
            if settings.thresholds.max_age.is_some() {
                let (age, untimed) =
                    oldest_age(session, q, settings.peek, settings.untimed, output).await?;
                measured.age = Some(age);
                measured.untimed = untimed;
            }
            "amqp"
        } else {
            let found = scan(
                session,
                q,
                &settings.filter,
                settings.peek,
                settings.untimed,
                "dead check with filters",
                output,
            )
            .await?;
            measured.count = found.matched;
            measured.untimed = Some(found.untimed);
            measured.not_counted = match found.not_read {
                Some(0) => None,
                n => Some(n),
            };
            measured.age = Some(found.oldest);
            "scan"
        };
        if settings.thresholds.max_rate.is_some() {
            measured.rate = Some(arrival_rate(session, q).await);
        }
        let verdicts = judge(&settings.thresholds, &measured);
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
            count_exact: measured.not_counted.is_none(),
            counted_by,
            held_elsewhere: held,
            oldest: measured.age,
            untimed: measured
                .untimed
                .filter(|_| settings.thresholds.max_age.is_some()),
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
