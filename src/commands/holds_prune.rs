//! `queuey holds prune <QUEUE>... | --all`: deletes the hold queues that are empty and unused,
//! with `queue.delete` `if-empty` `if-unused`, so that a message published into one meanwhile
//! makes the broker refuse the delete: that queue is kept and reported, nothing is lost.
//!
//! Only what is certainly a hold queue of `q` is ever a candidate: named so, owned by no other
//! logical queue of the topology ([`crate::queue::QueueSettings::claimed_elsewhere`]), and
//! carrying the marks of one ([`plan::missing_hold_marks`]: an `x-message-ttl`, dead-lettering
//! back to `q`).

use std::io::{self, IsTerminal};

use crate::broker::delete::DeleteReply;
use crate::broker::session::Session;
use crate::duration::format_millis;
use crate::endpoint::ConnectionSettings;
use crate::error::{Error, ExitCode, Kind, Result};
use crate::live::inspect::{hold_queues, vhost_default as vhost_default_type};
use crate::output::holds_prune_report::{PruneReport, PrunedHold, print_report};
use crate::output::{Output, plural, sanitize::sanitize};
use crate::plan::prune_candidates::{Decision, HoldFacts, decide};
use crate::plan::{self};
use crate::settings::PruneSettings;
use crate::topology;

pub async fn run(
    connection: &ConnectionSettings,
    settings: &PruneSettings,
    output: Output,
) -> Result<ExitCode> {
    let session = super::session(connection, "holds prune", output)?;
    let result = prune(&session, settings, output).await;
    session.close().await;
    let report = result?;
    print_report(&report, output)?;
    Ok(if report.declined {
        ExitCode::Declined
    } else {
        ExitCode::Ok
    })
}

/// The queue's TTL: its `x-expires`, or its policy's `expires`, the shorter when both are set
/// (as the broker applies them).
fn expires_ms(definition: &plan::LiveDefinition) -> Option<u64> {
    let argument = definition
        .arguments
        .get(topology::ARG_EXPIRES)
        .and_then(serde_json::Value::as_u64);
    let policy = definition
        .effective_policy_definition
        .as_ref()
        .and_then(|p| p.get("expires"))
        .and_then(serde_json::Value::as_u64);
    match (argument, policy) {
        (Some(a), Some(p)) => Some(a.min(p)),
        (a, p) => a.or(p),
    }
}

async fn prune(session: &Session, settings: &PruneSettings, output: Output) -> Result<PruneReport> {
    let mut rows = Vec::new();
    let mut vhost_default = None;
    for (q, scope) in &settings.queues {
        let live = hold_queues(session, q, false).await.map_err(|mut e| {
            if e.kind.is_api() {
                e.message = format!(
                    "queuey holds prune needs the management API to list hold queues: {}",
                    e.message
                );
            }
            e
        })?;
        let default = match vhost_default {
            Some(d) => d,
            None => {
                let (d, note) = vhost_default_type(session).await?;
                if let Some(note) = note {
                    output.note(&format!("note: {note}"));
                }
                *vhost_default.insert(d)
            }
        };
        for l in &live {
            if let Some(set_aside) = q.hold_queue_set_aside(&l.name) {
                output.note(&format!("note: {set_aside}; holds prune leaves it alone"));
                continue;
            }
            let definition = l.definition();
            let Some(check) = plan::check_hold_queue(q, &l.name, &definition, l.consumers, default)
            else {
                continue;
            };
            let Some(ttl_ms) = check.ttl_ms else {
                continue;
            };
            let facts = HoldFacts {
                queue: q.name.clone(),
                name: l.name.clone(),
                ttl_ms,
                messages: l.messages,
                consumers: l.consumers,
                queue_type: l.queue_type.clone(),
                arguments_ok: check.differences.is_empty(),
                expires_ms: expires_ms(&definition),
                not_a_hold_queue: plan::missing_hold_marks(&q.name, &definition),
            };
            let (outcome, why) = match decide(&facts, scope) {
                Decision::Prune if settings.dry_run => ("would delete", None),
                Decision::Prune => ("delete", None),
                Decision::Keep(why) => ("left", Some(why)),
            };
            rows.push(PrunedHold {
                queue: q.name.clone(),
                hold_queue: l.name.clone(),
                ttl_ms,
                delay: format_millis(ttl_ms),
                outcome,
                why,
            });
        }
    }
    rows.sort_by(|a, b| (&a.queue, a.ttl_ms).cmp(&(&b.queue, b.ttl_ms)));
    let mut report = PruneReport {
        vhost: session.vhost().to_owned(),
        dry_run: settings.dry_run,
        deleted: 0,
        kept: 0,
        hold_queues: rows,
        declined: false,
    };
    let candidates = report
        .hold_queues
        .iter()
        .filter(|r| r.outcome == "delete")
        .count() as u64;
    if settings.dry_run || candidates == 0 {
        return Ok(report);
    }
    if !settings.yes {
        if !io::stdin().is_terminal() {
            return Err(Error::usage(format!(
                "refusing to delete {} without confirmation: standard input is not a terminal",
                plural(candidates, "hold queue")
            ))
            .with_hint(
                "pass --yes to prune from a script, or --dry-run to see what it would delete",
            ));
        }
        let names: Vec<String> = report
            .hold_queues
            .iter()
            .filter(|r| r.outcome == "delete")
            .map(|r| sanitize(&r.hold_queue))
            .collect();
        if !super::purge::confirm(&format!(
            "Delete {} (vhost {}), each only if still empty and unused: {}? [y/N] ",
            plural(candidates, "hold queue"),
            sanitize(session.vhost()),
            names.join(", ")
        ))? {
            report.declined = true;
            for r in report
                .hold_queues
                .iter_mut()
                .filter(|r| r.outcome == "delete")
            {
                r.outcome = "left";
                r.why = Some("declined".to_owned());
            }
            return Ok(report);
        }
    }
    for r in report
        .hold_queues
        .iter_mut()
        .filter(|r| r.outcome == "delete")
    {
        match session.delete_if_idle(&r.hold_queue).await? {
            DeleteReply::Deleted => {
                r.outcome = "deleted";
                report.deleted += 1;
            }
            DeleteReply::Refused { code: 406, text } => {
                r.outcome = "kept";
                r.why = Some(format!("the broker refused: {text}"));
                report.kept += 1;
            }
            DeleteReply::Refused { code: 403, text } => {
                return Err(Error::new(
                    Kind::AccessRefused,
                    format!(
                        "the broker refused to delete {:?} in vhost {:?}: {text}",
                        r.hold_queue,
                        session.vhost()
                    ),
                )
                .with_hint("deleting a queue needs the configure permission on it"));
            }
            DeleteReply::Refused { code, text } => {
                return Err(session.refused("delete", &r.hold_queue, code, &text));
            }
        }
    }
    if report.kept > 0 {
        output.note(&format!(
            "note: kept {}: a message or a consumer arrived after queuey looked, and the broker \
             refused to delete them (nothing lost)",
            plural(report.kept, "hold queue")
        ));
    }
    Ok(report)
}
