//! `queuey declare`, `queuey declare --dry-run` and `queuey verify`: one plan, three uses.
//!
//! For each logical queue the live state is read first ([`Inspector`]), compared with the
//! computed queues ([`crate::plan`]), and only then acted on: `declare` creates what is missing,
//! leaves what is in sync, and never redeclares over drift (it reports the diff and the
//! operator's options and changes nothing for that logical queue). `--dry-run` and `verify`
//! change nothing; `verify` also checks the live hold queues (management API only). This file
//! reads and reports; what each command does with one logical queue is in
//! [`super::declare`] and [`super::verify`].

use futures_util::stream::{self, StreamExt};

use super::{declare, verify};
use crate::broker::session::Session;
use crate::endpoint::ConnectionSettings;
use crate::error::{ExitCode, Result};
use crate::live::inspect::{self as inspect, Inspected, Inspector};
use crate::name_owner::Collision;
use crate::output::Output;
use crate::output::topology_report::{LogicalPlan, Mode, TopologyReport, print_report};
use crate::plan::Status;
use crate::queue::QueueSettings;

pub async fn run(
    queues: &[QueueSettings],
    connection: &ConnectionSettings,
    mode: Mode,
    output: Output,
) -> Result<ExitCode> {
    let session = Session::new(connection.clone(), mode.command())?;
    let result = run_in(&session, queues, mode, output).await;
    session.close().await;
    result
}

async fn run_in(
    session: &Session,
    queues: &[QueueSettings],
    mode: Mode,
    output: Output,
) -> Result<ExitCode> {
    let inspector = Inspector::new(session, mode == Mode::Declare, queues.len()).await?;
    let mut notes = Vec::new();
    if let Some(e) = &inspector.api_error {
        // Connect first: when AMQP fails too (a wrong password fails both), its error is the
        // one to show, without a note about a fallback that cannot happen.
        session.connection().await?;
        let note = inspect::fallback_note(
            e,
            mode == Mode::Verify,
            inspector.probe,
            &session.settings().api.username,
        );
        output.note(&format!("note: {note}"));
        notes.push(note);
    }
    if let Some(note) = &inspector.vhost_default_note {
        output.note(&format!("note: {note}"));
        notes.push(note.clone());
    }
    let mut code = ExitCode::Ok;
    for q in queues {
        let Some(unlisted) = &q.unlisted else {
            continue;
        };
        let mut note = unlisted.explain(&q.name);
        if let Mode::DryRun {
            allow_unlisted: false,
        } = mode
        {
            note.push_str(
                "; queuey declare refuses to create it without --allow-unlisted, so this dry \
                 run exits 2 as declare would",
            );
            code = code.merge(ExitCode::Usage);
        }
        output.note(&format!("note: {note}"));
        notes.push(note);
    }
    for collision in collisions(queues) {
        let note = collision.to_string();
        output.note(&format!("note: {note}"));
        notes.push(note);
    }
    // Through the API, logical queues are read and declared a few at a time, results kept in
    // order: a fleet's round trips overlap instead of adding up. What may end in a channel
    // error (the AMQP fallback's passive declares and probes, the configure check) runs one at
    // a time: when the broker closes one channel while another opens, the AMQP client can hand
    // that close to the new channel, which reuses the closed one's id (see
    // docs/broker-notes.md, lapin keeps a refused channel's id poisoned).
    let in_flight = if inspector.uses_api() { IN_FLIGHT } else { 1 };
    let inspected: Vec<Result<Vec<Inspected>>> = stream::iter(queues)
        .map(|q| inspector.long_lived(q))
        .buffered(in_flight)
        .collect()
        .await;
    let inspected = inspected.into_iter().collect::<Result<Vec<_>>>()?;
    for note in inspector.notes() {
        output.note(&format!("note: {note}"));
        notes.push(note);
    }
    if mode == Mode::Declare {
        // Before creating anything: nothing is created for a logical queue unless all its
        // queues may be declared. (When all exist, the declares change nothing, and a refusal
        // of them creates nothing either.)
        for i in inspected
            .iter()
            .filter(|i| i.iter().any(|i| i.plan.status == Status::Create))
        {
            for queue in i {
                session
                    .check_configure_permission(&queue.computed.name)
                    .await?;
            }
        }
    }
    let results: Vec<Result<(LogicalPlan, ExitCode)>> = stream::iter(queues.iter().zip(inspected))
        .map(|(q, inspected)| one_logical_queue(session, &inspector, q, inspected, mode))
        .buffered(in_flight)
        .collect()
        .await;
    let mut logical = Vec::new();
    for result in results {
        let (entry, entry_code) = result?;
        code = code.merge(entry_code);
        logical.push(entry);
    }
    let report = TopologyReport {
        command: mode.command(),
        source: inspector.source,
        complete: inspector.uses_api(),
        notes,
        in_sync: logical.iter().all(|l| l.status == Status::InSync),
        exit_code: code.code(),
        logical_queues: logical,
    };
    print_report(&report, mode, output)?;
    Ok(code)
}

/// The names two logical queues of the topology both claim, each once: a work or dead-letter
/// queue that is also the name of another's hold queue.
fn collisions(queues: &[QueueSettings]) -> std::collections::BTreeSet<Collision> {
    queues.iter().flat_map(QueueSettings::collisions).collect()
}

/// Logical queues inspected and declared at once.
const IN_FLIGHT: usize = 16;

/// One logical queue's entry in the report, from what was read of it; `declare` acts first.
async fn one_logical_queue(
    session: &Session,
    inspector: &Inspector<'_>,
    q: &QueueSettings,
    inspected: Vec<Inspected>,
    mode: Mode,
) -> Result<(LogicalPlan, ExitCode)> {
    let (mut entry, entry_code) = match mode {
        Mode::Declare => declare::declare_one(session, q, inspected).await?,
        Mode::DryRun { .. } => declare::dry_run_one(q, inspected, session.vhost()),
        Mode::Verify => verify::verify_one(inspector, q, inspected, session.vhost()).await?,
    };
    entry.listed = q.unlisted.is_none();
    Ok((entry, entry_code))
}
