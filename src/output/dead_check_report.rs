//! What `queuey dead check` prints: its JSON document, its gauges, or a table of each
//! threshold's value and verdict.

use std::time::Duration;

use serde::Serialize;

use crate::dead::thresholds::{AgeReading, Untimed, Verdict};
use crate::duration::format_duration;
use crate::error::Result;
use crate::output::prometheus::{self, GaugeFamily, queue_labels};
use crate::output::{self, Format, Output, sanitize::sanitize};

/// One logical queue's check.
#[derive(Debug, Serialize)]
pub struct QueueCheck {
    pub queue: String,
    pub dead_queue: String,
    /// Dead letters in q.dead (ready, plus those other consumers hold when the management API
    /// counts them), or those matching the filters.
    pub count: u64,
    /// False when `count` is a lower bound: other consumers hold dead letters it could not
    /// see (how many unknown, or, with filters, not read).
    pub count_exact: bool,
    /// `amqp` (a passive declare: every dead letter, exact) or `scan` (a peek: the matches).
    pub counted_by: &'static str,
    /// Other consumers of q.dead when the count was made (no filters): their consumers, and
    /// the messages they hold unacknowledged by the management API (`null`: not counted yet).
    pub held_elsewhere: Option<crate::dead::peek::HeldElsewhere>,
    /// The oldest dead letter's age, when --max-age asked for it.
    pub oldest: Option<AgeReading>,
    /// With --max-age, the dead letters the peek read without any time (`count`, the first
    /// ten named by position, message id and why, and the `--untimed` rule applied); `null`
    /// when q.dead was not read.
    pub untimed: Option<Untimed>,
    pub verdicts: Vec<Verdict>,
    /// Whether any threshold is crossed.
    pub crossed: bool,
    /// Whether any threshold could not be judged (its value unknown).
    pub unknown: bool,
}

/// The JSON document of `dead check`.
#[derive(Debug, Serialize)]
pub struct CheckReport {
    pub vhost: String,
    pub crossed: bool,
    /// Some threshold of some queue could not be judged: exit 11 when none is crossed.
    pub unknown: bool,
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
            // The verdict is the point of the table: it goes only after the note.
            table.priority(&["queue", "threshold", ""]).whole(&[""]);
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
                        match (v.crossed, v.unknown) {
                            (true, _) => "CROSSED",
                            (false, true) => "UNKNOWN",
                            (false, false) => "ok",
                        }
                        .to_owned(),
                        v.note.clone().unwrap_or_default(),
                    ]);
                }
            }
            output::print_table(&table, output)?;
            output::print(summary(report))
        }
    }
}

/// The line under the table: what crossed, what could not be judged, and the exit code.
fn summary(report: &CheckReport) -> String {
    let of = output::plural(report.queues.len() as u64, "queue");
    let crossed = report.queues.iter().filter(|q| q.crossed).count();
    let unknown = report.queues.iter().filter(|q| q.unknown).count();
    match (crossed, unknown) {
        (0, 0) => "every threshold holds".to_owned(),
        (0, u) => format!(
            "no threshold crossed, but {u} of {of} could not be judged: UNKNOWN is not ok \
             (exit 11)"
        ),
        (c, 0) => format!("{c} of {of} crossed a threshold (exit 1)"),
        (c, u) => format!("{c} of {of} crossed a threshold, {u} could not be judged (exit 1)"),
    }
}

/// The gauges of a check: each queue's dead letters and oldest age (when known exactly), and
/// per threshold its limit, whether it is crossed (no sample when it could not be judged), and
/// whether it could not be judged.
fn families(report: &CheckReport) -> Vec<GaugeFamily> {
    let mut count = GaugeFamily::new(
        "dead_letters",
        "Dead letters in q.dead (matching the filters, when given)",
    );
    let mut age = GaugeFamily::oldest_age();
    let mut at_least = GaugeFamily::oldest_age_at_least();
    let mut rate = GaugeFamily::new(
        "dead_letter_arrival_rate",
        "Dead letters arriving in q.dead per second (management API statistics)",
    );
    let mut crossed = GaugeFamily::new(
        "dead_check_crossed",
        "1 when the dead-letter threshold is crossed, else 0",
    );
    let mut unknown = GaugeFamily::new(
        "dead_check_unknown",
        "1 when the dead-letter threshold could not be judged (its value unknown), else 0",
    );
    let mut limit = GaugeFamily::new("dead_check_limit", "The dead-letter threshold's limit");
    let mut untimed = GaugeFamily::new(
        "dead_letters_untimed",
        "Dead letters in q.dead with no time at all (no x-death, timestamp or envelope), read \
         with --max-age",
    );
    for q in &report.queues {
        let labels = queue_labels(&report.vhost, &q.queue);
        // A lower bound is no sample, as an unknown value.
        count.add(labels.clone(), q.count_exact.then_some(q.count as f64));
        if let Some(u) = &q.untimed {
            untimed.add(labels.clone(), Some(u.count as f64));
        }
        for v in &q.verdicts {
            let mut with = labels.clone();
            with.push(("threshold", v.threshold.to_owned()));
            match v.threshold {
                // Only the oldest of all: a lower bound (`at-least`) is no sample.
                "max-age" => {
                    if let Some(AgeReading::Known { seconds, .. }) = &q.oldest {
                        age.add(labels.clone(), Some(*seconds as f64));
                    }
                    let bound = q.oldest.as_ref().and_then(AgeReading::at_least);
                    at_least.add(labels.clone(), bound.map(|s| s as f64));
                }
                "max-rate" => rate.add(labels.clone(), v.value),
                _ => {}
            }
            let judged = v.crossed || !v.unknown;
            crossed.add(
                with.clone(),
                judged.then_some(if v.crossed { 1.0 } else { 0.0 }),
            );
            unknown.add(with.clone(), Some(if v.unknown { 1.0 } else { 0.0 }));
            limit.add(with, Some(v.limit));
        }
    }
    vec![count, age, at_least, rate, crossed, unknown, limit, untimed]
}
