//! `queuey dead check <QUEUE>... | --all`: thresholds on dead letters, for cron, CI and
//! monitoring. Exit 0 when every threshold holds, 1 when one is crossed, as `verify` for drift.
//!
//! Reads only. The count is a passive declare of `q.dead` (exact, now); with filters, a whole
//! peek counts what matches instead. The age is the head's (a one-message peek, returned in
//! place), or with filters the oldest match's. The rate is the management API's. What cannot be
//! measured is unknown, never guessed, and crosses nothing (`dead::check`).

use std::time::Duration;

use serde::Serialize;

use crate::broker::session::Session;
use crate::dead::check::{AgeReading, Measured, Verdict, judge};
use crate::duration::format_duration;
use crate::endpoint::ConnectionSettings;
use crate::error::{ExitCode, Result};
use crate::live::check::{arrival_rate, head_age, scan};
use crate::live::scan::missing_dead_queue;
use crate::output::prometheus::{self, GaugeFamily, queue_labels};
use crate::output::{self, Format, Output, sanitize::sanitize};
use crate::settings::CheckSettings;

/// One logical queue's check.
#[derive(Debug, Serialize)]
pub struct QueueCheck {
    pub queue: String,
    pub dead_queue: String,
    /// Dead letters in q.dead, or those matching the filters.
    pub count: u64,
    /// `amqp` (a passive declare: every dead letter, exact) or `scan` (a peek: the matches).
    pub counted_by: &'static str,
    /// The oldest dead letter's age, when --max-age asked for it.
    pub oldest: Option<AgeReading>,
    pub verdicts: Vec<Verdict>,
    /// Whether any threshold is crossed.
    pub crossed: bool,
}

/// The JSON document of `dead check`.
#[derive(Debug, Serialize)]
pub struct CheckReport {
    pub vhost: String,
    pub crossed: bool,
    pub queues: Vec<QueueCheck>,
}

pub async fn run(
    connection: &ConnectionSettings,
    s: &CheckSettings,
    output: Output,
) -> Result<ExitCode> {
    let session = super::session(connection, "dead check", output)?;
    let result = check_all(&session, s, output).await;
    session.close().await;
    let report = result?;
    print(&report, output)?;
    Ok(if report.crossed {
        ExitCode::Drift
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
                measured.age = Some(head_age(session, q, s.peek).await?);
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
            measured.age = found.oldest;
            "scan"
        };
        if s.thresholds.max_rate.is_some() {
            measured.rate = Some(arrival_rate(session, q).await);
        }
        let verdicts = judge(&s.thresholds, &measured);
        for v in verdicts.iter().filter(|v| v.value.is_none()) {
            if let Some(note) = v.note.as_deref().filter(|n| n.starts_with("unknown")) {
                output.note(&format!(
                    "note: {}: {} {note}",
                    sanitize(&dead),
                    v.threshold
                ));
            }
        }
        queues.push(QueueCheck {
            crossed: verdicts.iter().any(|v| v.crossed),
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
        queues,
    })
}

/// A value with at most two decimals: `7`, `0.5`, `12.34`.
fn number(v: f64) -> String {
    format!("{}", (v * 100.0).round() / 100.0)
}

fn print(report: &CheckReport, output: Output) -> Result<()> {
    match output.format {
        Format::Json => output::print_json(report),
        Format::Prometheus => prometheus::print(&families(report)),
        Format::Table => {
            let mut table = output::table(&["queue", "threshold", "value", "limit", "", "note"]);
            for q in &report.queues {
                for v in &q.verdicts {
                    let unit = |x: f64| match v.threshold {
                        "max-age" => format_duration(Duration::from_secs_f64(x.max(0.0))),
                        "max-rate" => format!("{}/s", number(x)),
                        _ => number(x),
                    };
                    table.add_row(vec![
                        sanitize(&q.dead_queue),
                        v.threshold.to_owned(),
                        v.value.map_or("?".to_owned(), unit),
                        unit(v.limit),
                        match (v.crossed, v.value) {
                            (true, _) => "CROSSED".to_owned(),
                            (false, None) if v.note.as_deref() != Some("no dead letters") => {
                                "unknown".to_owned()
                            }
                            _ => "ok".to_owned(),
                        },
                        v.note.clone().unwrap_or_default(),
                    ]);
                }
            }
            output::print(table)?;
            let crossed = report.queues.iter().filter(|q| q.crossed).count();
            output::print(if crossed == 0 {
                "every threshold holds".to_owned()
            } else {
                format!(
                    "{crossed} of {} crossed a threshold (exit 1)",
                    output::plural(report.queues.len() as u64, "queue")
                )
            })
        }
    }
}

/// The gauges of a check: each queue's dead letters and oldest age, and per threshold its
/// limit and whether it is crossed.
fn families(report: &CheckReport) -> Vec<GaugeFamily> {
    let mut count = GaugeFamily::new(
        "dead_letters",
        "Dead letters in q.dead (matching the filters, when given)",
    );
    let mut age = GaugeFamily::new(
        "dead_letter_oldest_age_seconds",
        "Age of the oldest dead letter in q.dead, since its death, else since its job was enqueued",
    );
    let mut rate = GaugeFamily::new(
        "dead_letter_arrival_rate",
        "Dead letters arriving in q.dead per second (management API statistics)",
    );
    let mut crossed = GaugeFamily::new(
        "dead_check_crossed",
        "1 when the dead-letter threshold is crossed, else 0",
    );
    let mut limit = GaugeFamily::new("dead_check_limit", "The dead-letter threshold's limit");
    for q in &report.queues {
        let labels = queue_labels(&report.vhost, &q.queue);
        count.add(labels.clone(), Some(q.count as f64));
        for v in &q.verdicts {
            let mut with = labels.clone();
            with.push(("threshold", v.threshold.to_owned()));
            match v.threshold {
                "max-age" => age.add(labels.clone(), v.value),
                "max-rate" => rate.add(labels.clone(), v.value),
                _ => {}
            }
            crossed.add(with.clone(), Some(if v.crossed { 1.0 } else { 0.0 }));
            limit.add(with, Some(v.limit));
        }
    }
    vec![count, age, rate, crossed, limit]
}
