//! What `dead replay` prints: a table per target queue and one summary line, or the report as
//! JSON.

use crate::dead::report::{ReplayReport, TargetReport};
use crate::dead::target_room::RoomReport;
use crate::error::Result;
use crate::output::sanitize::sanitize;
use crate::output::{self, Format, Output, by_count, noun_for, plural, rate_text};
use crate::plan::bounds::Overflow;

/// Prints the report of a replay (or of a dry run), from q.dead or (`from_file`) an export.
///
/// `find_refused` is the `dead ls` command that lists refused copies a target dead-lettered (see
/// [`ReplayReport::dead_lettered_not_found`]).
pub fn print_report(
    r: &ReplayReport,
    from_file: bool,
    find_refused: &str,
    output: Output,
) -> Result<()> {
    if output.format == Format::Json {
        output::print_json(r)?;
        // Said on stderr too: a log keeps what the JSON's count means.
        if r.dead_lettered_not_found > 0 {
            output.warn(&refused_not_found(r, from_file, find_refused));
        }
        return Ok(());
    }
    let bounded = r.targets.iter().any(|t| t.room.is_some());
    let mut header = if r.dry_run {
        // With --after the targets are hold queues, which the run declares: what must exist
        // is the queue each returns to.
        let exists = if r.after.is_some() {
            "returns to an existing queue"
        } else {
            "exists"
        };
        vec!["target queue", "would move", "would fail", exists]
    } else {
        vec!["target queue", "moved", "failed", "why"]
    };
    if bounded {
        header.push("length limit");
    }
    let mut table = output::table(&header);
    let mut targets: Vec<&TargetReport> = r.targets.iter().collect();
    targets.sort_by(|a, b| a.queue.cmp(&b.queue));
    for t in targets {
        let mut row = if r.dry_run {
            vec![
                sanitize(&t.queue),
                t.would_move.to_string(),
                t.would_fail.to_string(),
                match t.exists {
                    Some(true) => "yes".to_owned(),
                    Some(false) if r.after.is_some() => {
                        "NO: the queue it returns to does not exist".to_owned()
                    }
                    Some(false) => "NO: copies would come back unroutable".to_owned(),
                    None if t.would_fail > 0 => {
                        sanitize(t.failure.as_deref().unwrap_or("cannot be a queue name"))
                    }
                    None => "unknown (could not be checked)".to_owned(),
                },
            ]
        } else {
            // A target that was full says so in its own column; the reason in full is in the
            // JSON.
            let why = match (&t.room, &t.limits_unread) {
                (Some(room), _) if room.full > 0 && room.full == t.failed => {
                    "full: not published (see its length limit)".to_owned()
                }
                (_, Some(unread)) if unread.kept > 0 && unread.kept == t.failed => {
                    "length limits unread: not published (see below)".to_owned()
                }
                _ => sanitize(t.failure.as_deref().unwrap_or("")),
            };
            vec![
                sanitize(&t.queue),
                t.moved.to_string(),
                t.failed.to_string(),
                why,
            ]
        };
        if bounded {
            row.push(t.room.as_ref().map_or(String::new(), |room| {
                sanitize(&limit_cell(t, room, r.dry_run))
            }));
        }
        table.add_row(row);
    }
    if !r.targets.is_empty() {
        output::print_table(&table, output)?;
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
        let full = full_total(r);
        // Those kept for unread limits are said below, with why.
        let unread: u64 = r
            .targets
            .iter()
            .filter_map(|t| t.limits_unread.as_ref())
            .map(|u| u.kept)
            .sum();
        if r.would_fail > full + unread {
            s.push_str(&format!(
                ", {} would fail and stay (their target queue does not exist)",
                r.would_fail - full - unread
            ));
        }
        if full > 0 {
            s.push_str(&format!(
                ", {full} would not fit in their full target and stay (see its length limit)"
            ));
        }
        if r.already_copied > 0 {
            s.push_str(&format!(
                ", {} already copied by an unfinished run (no new copy)",
                r.already_copied
            ));
        }
        for clause in unread_clauses(r) {
            s.push_str(&clause);
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
                "; {} {} again at attempt 1",
                plural(r.attempts_reset, "job"),
                by_count(r.attempts_reset, "starts", "start")
            ));
        }
        if r.failed > 0 {
            s.push_str(&if r.failed == 1 {
                "; 1 failed and stays where it was".to_owned()
            } else {
                format!("; {} failed and stay where they were", r.failed)
            });
            let full = full_total(r);
            if full > 0 {
                s.push_str(&format!(
                    " ({full} of them not published: their target was full, see its length \
                     limit)"
                ));
            }
        }
        for clause in unread_clauses(r) {
            s.push_str(&clause);
        }
        if r.dead_lettered_back > 0 {
            s.push_str(&format!(
                "; the broker refused {} and dead-lettered {} back into {}: queuey removed \
                 those copies there, their dead letters stayed (each job once)",
                plural(r.dead_lettered_back, "copy"),
                by_count(r.dead_lettered_back, "it", "them"),
                sanitize(&r.source)
            ));
        }
        let pushed: u64 = r
            .targets
            .iter()
            .filter_map(|t| t.room.as_ref())
            .map(|room| room.pushed_out)
            .sum();
        if pushed > 0 {
            s.push_str(&format!(
                "; {} went into a full drop-head target (--allow-drop-head) and pushed out as \
                 many of its oldest messages",
                plural(pushed, "copy")
            ));
        }
        if r.already_copied > 0 {
            s.push_str(&format!(
                "; {} already copied by an unfinished run, not copied again",
                r.already_copied
            ));
        }
        if r.may_be_duplicates > 0 {
            s.push_str(&format!(
                "; {} copied that an unfinished run may have copied already (its ack was sent \
                 when it failed, or its copy was in doubt): each may now be in its target \
                 twice, none is lost{}",
                r.may_be_duplicates,
                super::duplicates_named(&r.may_be_duplicated_ids)
            ));
        }
        if r.skipped_own_copies > 0 {
            s.push_str(&format!(
                "; {} of this run came back and {} left in place",
                plural(r.skipped_own_copies, "copy"),
                by_count(r.skipped_own_copies, "was", "were")
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
    output::print(summary)?;
    // Said only where a copy was (or would be) made: nothing waits when nothing was copied.
    let copied = if r.dry_run { r.would_move } else { r.moved };
    if let Some(after) = r.after.as_ref().filter(|_| copied > 0) {
        output::print(if r.dry_run {
            format!(
                "with --after {}: the copies would wait in hold queues of {} ms (declared by the \
                 run as the library declares them) and return to their queue {} after each is \
                 copied",
                after.delay, after.ttl_ms, after.delay
            )
        } else {
            format!(
                "the copies wait in hold queues of {} ms and return to their queue {} after each \
                 was copied: all by about {}",
                after.ttl_ms, after.delay, after.returns_by
            )
        })?;
    }
    if r.dead_lettered_not_found > 0 {
        output.warn(&refused_not_found(r, from_file, find_refused));
    }
    Ok(())
}

/// For each target whose length limits could not be read: why, and what became of its copies
/// (kept, or published under `--allow-drop-head`), in plain words.
fn unread_clauses(r: &ReplayReport) -> Vec<String> {
    let mut targets: Vec<&TargetReport> = r
        .targets
        .iter()
        .filter(|t| t.limits_unread.is_some())
        .collect();
    targets.sort_by(|a, b| a.queue.cmp(&b.queue));
    let mut out = Vec::new();
    for t in targets {
        let Some(u) = &t.limits_unread else { continue };
        let queue = sanitize(&t.queue);
        let head = format!(
            "; the length limits of {queue} could not be read ({})",
            sanitize(&u.why)
        );
        if u.kept > 0 {
            out.push(format!(
                "{head}: {} {} in {} (a limit set by a policy, which AMQP cannot see, with \
                 RabbitMQ's default overflow drop-head would take each copy and push out one of \
                 {queue}'s oldest jobs); --allow-drop-head publishes them anyway, accepting that",
                plural(u.kept, "dead letter"),
                if r.dry_run { "would stay" } else { "stay" },
                sanitize(&r.source)
            ));
        }
        if u.published > 0 {
            out.push(if r.dry_run {
                format!(
                    "{head}: {} would be published under --allow-drop-head (if {queue} is at a \
                     drop-head limit, each would push out one of its oldest jobs)",
                    plural(u.published, "copy")
                )
            } else {
                format!(
                    "{head}: {} published under --allow-drop-head (if {queue} was at a \
                     drop-head limit, each pushed out one of its oldest jobs)",
                    plural(u.published, "copy")
                )
            });
        }
    }
    out
}

/// The warning for refused copies that may be in a dead-letter queue, not found there: how
/// many, why they may be there, and the `dead ls` that lists them (`find_refused`).
fn refused_not_found(r: &ReplayReport, from_file: bool, find_refused: &str) -> String {
    let n = r.dead_lettered_not_found;
    let copies = plural(n, "copy");
    let (were, them) = if n == 1 {
        ("was", "it")
    } else {
        ("were", "them")
    };
    if from_file {
        format!(
            "the broker refused {copies} (nack) that what queuey read of the target does not \
             explain (no limit, drop-head, or limits it could not read): a limit set since may \
             be reject-publish-dlx and have dead-lettered {them}, e.g. into the queue's q.dead; \
             each such job would then be there and in the file (whose line stays to replay), \
             to run twice if both are replayed; `{}` lists such copies",
            sanitize(find_refused)
        )
    } else {
        let source = sanitize(&r.source);
        format!(
            "{copies} that the broker refused (nack) may have been dead-lettered into {source} \
             by their target (a reject-publish-dlx limit, whether queuey read it or it was set \
             since) and {were} not found there within 5 s: any that is there, or arrives later, \
             is a job twice in {source} (its dead letter stayed); `{}` lists such copies",
            sanitize(find_refused)
        )
    }
}

/// Copies not published (or, in a dry run, that would not be) because their target was full.
fn full_total(r: &ReplayReport) -> u64 {
    r.targets
        .iter()
        .filter_map(|t| t.room.as_ref())
        .map(|room| room.full)
        .sum()
}

/// A bounded target's limit and what the run did at it: `holds 0 of max-length 3, overflow
/// reject-publish-dlx (policy): 7 of 10 would not fit and stay`.
fn limit_cell(t: &TargetReport, room: &RoomReport, dry_run: bool) -> String {
    let mut cell = room.describe();
    let total = if dry_run {
        t.would_move + room.full
    } else {
        t.moved + t.failed
    };
    if room.full > 0 {
        let refused = match room.bounds.overflow {
            Overflow::DropHead => "would push out its oldest messages",
            Overflow::RejectPublish | Overflow::RejectPublishDlx => "would be refused",
        };
        cell.push_str(&format!(
            ": {} of {total} {refused}, {}",
            room.full,
            if dry_run {
                "so they would stay"
            } else {
                "not published: they stay"
            }
        ));
    } else if room.pushed_out > 0 {
        cell.push_str(&format!(
            ": {} of {total} {} as many of its oldest messages ({})",
            room.pushed_out,
            if dry_run {
                "would push out"
            } else {
                "pushed out"
            },
            room.bounds.fate_of_the_dead()
        ));
    } else {
        cell.push_str(": every copy fits");
    }
    cell
}
