//! What `dead replay` prints: a table per target queue and one summary line, or the report as
//! JSON.

use crate::dead::report::{ReplayReport, TargetReport};
use crate::error::Result;
use crate::output::sanitize::sanitize;
use crate::output::{self, Format, Output, noun_for, plural, rate_text};

/// Prints the report of a replay (or of a dry run), from q.dead or (`from_file`) an export.
pub fn print_report(r: &ReplayReport, from_file: bool, output: Output) -> Result<()> {
    if output.format == Format::Json {
        return output::print_json(r);
    }
    let mut table = output::table(&if r.dry_run {
        ["target queue", "would move", "would fail", "exists"]
    } else {
        ["target queue", "moved", "failed", "why"]
    });
    let mut targets: Vec<&TargetReport> = r.targets.iter().collect();
    targets.sort_by(|a, b| a.queue.cmp(&b.queue));
    for t in targets {
        table.add_row(if r.dry_run {
            vec![
                sanitize(&t.queue),
                t.would_move.to_string(),
                t.would_fail.to_string(),
                match t.exists {
                    Some(true) => "yes".to_owned(),
                    Some(false) => "NO: copies would come back unroutable".to_owned(),
                    None if t.would_fail > 0 => {
                        sanitize(t.failure.as_deref().unwrap_or("cannot be a queue name"))
                    }
                    None => "unknown (could not be checked)".to_owned(),
                },
            ]
        } else {
            vec![
                sanitize(&t.queue),
                t.moved.to_string(),
                t.failed.to_string(),
                sanitize(t.failure.as_deref().unwrap_or("")),
            ]
        });
    }
    if !r.targets.is_empty() {
        output::print(table)?;
    }
    // Where --limit stopped the read before the end, say how far it read: "1 of 1" would pass
    // for the whole queue.
    let limited = match (r.limit_reached, r.limit, r.depth_at_start) {
        (true, Some(limit), Some(depth)) if r.scanned < depth => Some(format!(
            "--limit {limit} reached after reading {} of {depth}",
            r.scanned
        )),
        (true, Some(limit), None) => Some(format!(
            "--limit {limit} reached after reading {} {}",
            r.scanned,
            noun_for(r.scanned, "line")
        )),
        _ => None,
    };
    let summary = if r.dry_run {
        let mut s = match &limited {
            Some(how_far) => format!(
                "dry run: {} in {} {} ({how_far}): {} would be replayed",
                plural(r.matched, "dead letter"),
                sanitize(&r.source),
                if r.matched == 1 { "matches" } else { "match" },
                r.would_move
            ),
            None => format!(
                "dry run: {} of {} in {} match: {} would be replayed",
                r.matched,
                plural(r.scanned, "dead letter"),
                sanitize(&r.source),
                r.would_move
            ),
        };
        if r.would_reset_attempts > 0 {
            s.push_str(&format!(
                " ({} whose attempt would be set back to 1)",
                plural(r.would_reset_attempts, "job")
            ));
        }
        if r.would_fail > 0 {
            s.push_str(&format!(
                ", {} would fail and stay (their target queue does not exist)",
                r.would_fail
            ));
        }
        if r.already_copied > 0 {
            s.push_str(&format!(
                ", {} already copied by an unfinished run (no new copy)",
                r.already_copied
            ));
        }
        s.push_str("; nothing moved");
        s
    } else {
        let scanned = match &limited {
            Some(how_far) => how_far.clone(),
            None => format!("{} scanned", r.scanned),
        };
        let mut s = format!(
            "replayed {} of {} matching {} of {} ({scanned}) in {:.2}s, {}",
            r.moved,
            r.matched,
            noun_for(r.matched, "dead letter"),
            sanitize(&r.source),
            r.elapsed_ms as f64 / 1000.0,
            rate_text(r.rate_per_sec)
        );
        if r.attempts_reset > 0 {
            s.push_str(&format!(
                "; {} start again at attempt 1",
                plural(r.attempts_reset, "job")
            ));
        }
        if r.failed > 0 {
            s.push_str(&format!("; {} failed and stay where they were", r.failed));
        }
        if r.already_copied > 0 {
            s.push_str(&format!(
                "; {} already copied by an unfinished run, not copied again",
                r.already_copied
            ));
        }
        if r.skipped_own_copies > 0 {
            s.push_str(&format!(
                "; {} of this run came back and {} left in place",
                plural(r.skipped_own_copies, "copy"),
                if r.skipped_own_copies == 1 {
                    "was"
                } else {
                    "were"
                }
            ));
        }
        if r.interrupted {
            s.push_str(if from_file {
                "; interrupted: the rest of the file was not replayed (run the same command \
                 again to go on)"
            } else {
                "; interrupted: the rest stays in the dead-letter queue"
            });
        }
        s
    };
    output::print(summary)
}
