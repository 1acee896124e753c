//! How dead letters are listed: the `dead ls` table and its JSON, the groups of `--group-by`
//! (`dead show`'s page is [`super::show`]). Every string that came from the broker is escaped
//! here.

use serde::Serialize;
use serde_json::Value as Json;

use crate::dead::decode::{AgeFrom, DeadLetter};
use crate::dead::filter::{GroupKey, Grouping};
use crate::dead::scan_summary::ScanSummary;
use crate::duration::format_age;
use crate::error::Result;
use crate::output::sanitize::sanitize;
use crate::output::show::attempts_text;
use crate::output::{self, Format, Output};
use crate::queue::QueueSettings;
use crate::shell::queuey_command;

/// One row of `dead ls`.
#[derive(Debug, Serialize)]
pub struct LsRow {
    pub position: u64,
    #[serde(flatten)]
    pub dead_letter: DeadLetter,
    /// Seconds since it died, or since its job was enqueued (`age_from`).
    pub age_secs: Option<u64>,
    pub age_from: Option<AgeFrom>,
    /// The start of the body; of the job's payload when the body is an envelope.
    pub body_preview: String,
}

/// `dead ls -o json`.
#[derive(Debug, Serialize)]
pub struct LsReport {
    #[serde(flatten)]
    pub scan: ScanSummary,
    pub queue_type: String,
    pub messages: Vec<LsRow>,
}

/// Prints `dead ls`: the table and its footer, or the JSON report.
pub fn print_ls(report: &LsReport, queue: &QueueSettings, output: Output) -> Result<()> {
    let LsReport {
        scan,
        messages: rows,
        ..
    } = report;
    let ScanSummary {
        queue: dead,
        depth_at_start: target,
        scanned,
        matched,
        ..
    } = scan;
    let (target, scanned, matched) = (*target, *scanned, *matched);
    match output.format {
        Format::Json => output::print_json(report)?,
        Format::Table | Format::Prometheus => {
            // The job type and x-death columns only when some row has one: a queuey
            // application's dead letters have no x-death, a broker's often no envelope.
            let with_jobs = rows.iter().any(|r| r.dead_letter.job_type.is_some());
            let with_deaths = rows.iter().any(|r| !r.dead_letter.deaths.is_empty());
            let mut header = vec!["#", "message id"];
            if with_jobs {
                header.push("job type");
            }
            header.extend(["original queue", "attempts", "cause"]);
            if with_deaths {
                header.push("deaths");
            }
            header.extend([
                "age",
                "size",
                if with_jobs { "payload / body" } else { "body" },
            ]);
            let body = if with_jobs { "payload / body" } else { "body" };
            let mut table = output::table(&header);
            // On a narrow terminal: what died, why, when, and what it carried, before where
            // from, its deaths and its ids; the preview is cut only once these are hidden.
            let first: Vec<&str> = [
                "#",
                "cause",
                "job type",
                "attempts",
                "age",
                body,
                "original queue",
                "deaths",
                "message id",
            ]
            .into_iter()
            .filter(|h| header.contains(h))
            .collect();
            table
                .priority(&first)
                // A message id cut short is no use to --message-id: whole or hidden.
                .whole(&["#", "cause", "attempts", "age", "size", "message id"])
                .min_width(body, 20)
                .flex(body)
                .flex("original queue");
            for r in rows.iter() {
                let dl = &r.dead_letter;
                let mut cause = dl.cause.as_str().to_owned();
                if !dl.problems.is_empty() {
                    cause.push_str(&format!(" (!{})", dl.problems.len()));
                }
                let mut row = vec![
                    r.position.to_string(),
                    sanitize(dl.message_id.as_deref().unwrap_or("-")),
                ];
                if with_jobs {
                    row.push(sanitize(dl.job_type.as_deref().unwrap_or("-")));
                }
                row.extend([sanitize(&dl.original_queue), attempts_text(dl), cause]);
                if with_deaths {
                    // The newest few (x-death is newest first); `dead show` has them all.
                    let mut deaths: Vec<String> = dl
                        .deaths
                        .iter()
                        .take(MAX_DEATHS_IN_A_ROW)
                        .map(|d| {
                            format!(
                                "{} @ {} x{}",
                                sanitize(d.reason.as_deref().unwrap_or("?")),
                                sanitize(d.queue.as_deref().unwrap_or("?")),
                                d.count.map_or("?".to_owned(), |c| c.to_string())
                            )
                        })
                        .collect();
                    if dl.deaths.len() > MAX_DEATHS_IN_A_ROW {
                        deaths.push(format!(
                            "+{} more (dead show)",
                            dl.deaths.len() - MAX_DEATHS_IN_A_ROW
                        ));
                    }
                    row.push(if deaths.is_empty() {
                        "-".to_owned()
                    } else {
                        deaths.join("; ")
                    });
                }
                row.extend([
                    match (r.age_secs, r.age_from) {
                        (Some(secs), Some(AgeFrom::Enqueued)) => format!("{}*", format_age(secs)),
                        (Some(secs), _) => format_age(secs),
                        (None, _) => "-".to_owned(),
                    },
                    dl.size.to_string(),
                    sanitize(&r.body_preview),
                ]);
                table.add_row(row);
            }
            output::print_table(&table, output)?;
            let shown = rows.len();
            let mut footer = format!(
                "{shown} shown of {} in {} (scanned {scanned} of {target})",
                if scanned >= target {
                    matched.to_string()
                } else {
                    format!("{matched}+")
                },
                sanitize(dead)
            );
            if scanned < target {
                footer
                    .push_str("; --limit N shows more, --limit 0 all, --group-by counts them all");
            }
            if rows.iter().any(|r| !r.dead_letter.problems.is_empty()) {
                footer.push_str(&format!(
                    "; (!n): n header problems, see `{} <#>`",
                    queuey_command(&["dead", "show", &queue.name], queue)
                ));
            }
            if rows.iter().any(|r| r.age_from == Some(AgeFrom::Enqueued)) {
                footer.push_str(
                    "; age*: since the job was enqueued (an application's dead letter carries no \
                     death time)",
                );
            }
            if rows.iter().any(|r| {
                let dl = &r.dead_letter;
                dl.reason.as_deref().is_some_and(|t| t != dl.cause.as_str())
            }) {
                footer.push_str(&format!(
                    "; `{} <#>` gives the whole reason",
                    queuey_command(&["dead", "show", &queue.name], queue)
                ));
            }
            output.note(&footer);
        }
    }
    Ok(())
}

/// `dead ls --group-by ... -o json`.
#[derive(Debug, Serialize)]
pub struct GroupsReport {
    #[serde(flatten)]
    pub scan: ScanSummary,
    pub group_by: Vec<String>,
    pub groups: Vec<GroupRow>,
}

/// One group: its key (by label, in `--group-by` order) and what it holds.
#[derive(Debug, Serialize)]
pub struct GroupRow {
    pub key: serde_json::Map<String, Json>,
    pub count: u64,
    pub bytes: u64,
    /// Death times, seconds since the epoch.
    pub oldest: Option<u64>,
    pub newest: Option<u64>,
    pub oldest_age_secs: Option<u64>,
    pub newest_age_secs: Option<u64>,
}

pub fn print_groups(scan: ScanSummary, groups: &Grouping, now: u64, output: Output) -> Result<()> {
    let labels: Vec<String> = groups.keys.iter().map(GroupKey::label).collect();
    match output.format {
        Format::Json => {
            let groups = groups
                .sorted()
                .into_iter()
                .map(|(key, stats)| GroupRow {
                    key: labels
                        .iter()
                        .zip(key)
                        .map(|(l, v)| (l.clone(), v.clone().map_or(Json::Null, Json::from)))
                        .collect(),
                    count: stats.count,
                    bytes: stats.bytes,
                    oldest: stats.oldest,
                    newest: stats.newest,
                    oldest_age_secs: stats.oldest.map(|t| now.saturating_sub(t)),
                    newest_age_secs: stats.newest.map(|t| now.saturating_sub(t)),
                })
                .collect();
            output::print_json(&GroupsReport {
                scan,
                group_by: labels.clone(),
                groups,
            })
        }
        Format::Table | Format::Prometheus => {
            let mut header: Vec<&str> = labels.iter().map(String::as_str).collect();
            header.extend(["count", "bytes", "oldest", "newest"]);
            let mut table = output::table(&header);
            // The keys and the count are the point; the bytes matter least.
            let mut first: Vec<&str> = labels.iter().map(String::as_str).collect();
            first.extend(["count", "oldest", "newest"]);
            table
                .priority(&first)
                .whole(&["count", "bytes", "oldest", "newest"]);
            for (key, stats) in groups.sorted() {
                let mut row: Vec<String> = key
                    .iter()
                    .map(|v| v.as_deref().map_or("(none)".to_owned(), sanitize))
                    .collect();
                row.push(stats.count.to_string());
                row.push(stats.bytes.to_string());
                let age = |t: Option<u64>, enqueued: bool| {
                    t.map_or("-".into(), |t| {
                        let star = if enqueued { "*" } else { "" };
                        format!("{}{star}", format_age(now.saturating_sub(t)))
                    })
                };
                row.push(age(stats.oldest, stats.oldest_enqueued));
                row.push(age(stats.newest, stats.newest_enqueued));
                table.add_row(row);
            }
            output::print_table(&table, output)?;
            let partial = scan.partial_note().unwrap_or_default();
            let starred = groups
                .groups
                .values()
                .any(|g| g.oldest_enqueued || g.newest_enqueued);
            let star = if starred {
                "; age*: since the job was enqueued (an application's dead letter carries no \
                 death time)"
            } else {
                ""
            };
            output.note(&format!(
                "{} matching of {} scanned in {}{partial}{star}",
                scan.matched,
                scan.scanned,
                sanitize(&scan.queue)
            ));
            Ok(())
        }
    }
}

/// The x-death entries a table row shows (a hostile dead letter may carry hundreds).
const MAX_DEATHS_IN_A_ROW: usize = 3;
