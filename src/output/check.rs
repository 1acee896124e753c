//! What `queuey dead check` prints: its JSON document, its gauges, or a table of each
//! threshold's value and verdict.

use std::time::Duration;

use serde::Serialize;

use crate::dead::check::{AgeReading, Verdict};
use crate::duration::format_duration;
use crate::error::Result;
use crate::output::prometheus::{self, GaugeFamily, queue_labels};
use crate::output::{self, Format, Output, sanitize::sanitize};

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

/// A value with at most two decimals: `7`, `0.5`, `12.34`.
fn number(v: f64) -> String {
    format!("{}", (v * 100.0).round() / 100.0)
}

/// Prints the report: JSON, the gauges (`-o prometheus`), or a table of every threshold and a
/// line on how many queues crossed one.
pub fn print_report(report: &CheckReport, output: Output) -> Result<()> {
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
    let mut age = GaugeFamily::oldest_age();
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
