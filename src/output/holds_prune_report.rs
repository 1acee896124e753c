//! What `queuey holds prune` prints: its JSON document, or a table of the hold queues and what
//! became of each.

use serde::Serialize;

use crate::error::Result;
use crate::output::{self, Format, Output, plural, sanitize::sanitize};

/// One hold queue and what became of it.
#[derive(Debug, Serialize)]
pub struct PrunedHold {
    pub queue: String,
    pub hold_queue: String,
    pub ttl_ms: u32,
    pub delay: String,
    /// `deleted`, `would delete` (--dry-run), `kept` (a candidate the broker refused to delete:
    /// it got a message or a consumer meanwhile), or `left` (not a candidate).
    pub outcome: &'static str,
    pub why: Option<String>,
}

/// The JSON document of `holds prune`.
#[derive(Debug, Serialize)]
pub struct PruneReport {
    pub vhost: String,
    pub dry_run: bool,
    pub deleted: u64,
    /// Candidates the broker refused to delete (a message or a consumer came meanwhile).
    pub kept: u64,
    pub hold_queues: Vec<PrunedHold>,
    /// The confirmation prompt was answered no: nothing was deleted (exit 9).
    pub declined: bool,
}

/// Prints the report: JSON, or the table of hold queues and a line saying what was deleted.
pub fn print_report(report: &PruneReport, output: Output) -> Result<()> {
    if output.format == Format::Json {
        return output::print_json(report);
    }
    let mut table = output::table(&["hold queue", "delay", "", "why"]);
    // A hold queue's name ends with what tells it apart, its TTL.
    table.keep_end("hold queue").whole(&[""]);
    for r in &report.hold_queues {
        table.add_row(vec![
            sanitize(&r.hold_queue),
            r.delay.clone(),
            r.outcome.to_owned(),
            r.why.as_deref().map(sanitize).unwrap_or_default(),
        ]);
    }
    if !report.hold_queues.is_empty() {
        output::print_table(&table, output)?;
    }
    let would = report
        .hold_queues
        .iter()
        .filter(|r| r.outcome == "would delete")
        .count() as u64;
    output::print(match (report.dry_run, report.declined) {
        (true, _) => format!(
            "dry run: would delete {} of {}; nothing deleted",
            plural(would, "hold queue"),
            report.hold_queues.len()
        ),
        (_, true) => "declined: nothing deleted".to_owned(),
        _ => format!(
            "deleted {} of {}{}",
            plural(report.deleted, "hold queue"),
            report.hold_queues.len(),
            if report.kept > 0 {
                format!(
                    "; kept {} that got a message or a consumer meanwhile",
                    report.kept
                )
            } else {
                String::new()
            }
        ),
    })
}
