//! One module per command: each takes plain settings, does its work through `broker`, prints
//! through `output`, and returns the exit code of a run that did not fail.

pub mod args;
pub mod browse;
mod compare;
pub mod dead_check;
mod declare;
pub mod edit;
pub mod holds;
pub mod holds_prune;
pub mod look;
pub mod ping;
pub mod purge;
pub mod replay;
pub mod status;
mod status_metrics;
mod verify;

use crate::error::{ExitCode, Result};
use crate::output::Output;
use crate::output::topology_report::Mode;
use crate::settings::Work;

/// Runs one invocation's work.
pub async fn run(work: Work, output: Output) -> Result<ExitCode> {
    match work {
        Work::Args { queues, delays } => args::run(&queues, &delays, output),
        Work::Declare {
            queues,
            connection,
            dry_run,
            allow_unlisted,
        } => {
            let mode = if dry_run {
                Mode::DryRun { allow_unlisted }
            } else {
                Mode::Declare
            };
            compare::run(&queues, &connection, mode, output).await
        }
        Work::Verify { queues, connection } => {
            compare::run(&queues, &connection, Mode::Verify, output).await
        }
        Work::HoldsLs { queue, connection } => holds::run(&queue, &connection, output).await,
        Work::Status {
            queues,
            connection,
            scan,
        } => status::run(&queues, &connection, scan, output).await,
        Work::DeadCheck { connection, check } => dead_check::run(&connection, &check, output).await,
        Work::HoldsPrune { connection, prune } => {
            holds_prune::run(&connection, &prune, output).await
        }
        Work::DeadEdit { connection, edit } => edit::run(&connection, &edit, output).await,
        Work::Ping { connection } => ping::run(&connection, output).await,
        Work::DeadLs {
            connection,
            queue,
            filter,
            limit,
            group_by,
            peek,
        } => look::ls(&connection, &queue, &filter, limit, &group_by, peek, output).await,
        Work::DeadShow {
            connection,
            queue,
            which,
            peek,
            full,
        } => look::show(&connection, &queue, &which, peek, full, output).await,
        Work::DeadExport {
            connection,
            queue,
            filter,
            limit,
            output_file,
            peek,
        } => {
            look::export(
                &connection,
                &queue,
                &filter,
                limit,
                output_file.as_deref(),
                peek,
                output,
            )
            .await
        }
        Work::DeadReplay { connection, replay } => replay::run(&connection, &replay, output).await,
        Work::DeadPurge { connection, purge } => purge::run(&connection, &purge, output).await,
        Work::DeadBrowse { connection, browse } => browse::run(&connection, &browse, output).await,
    }
}

/// A session with the broker for `purpose` that says, through the command's notes, which of
/// several addresses it connects to, and each one it skips.
pub fn session(
    connection: &crate::endpoint::ConnectionSettings,
    purpose: &str,
    output: Output,
) -> Result<crate::broker::session::Session> {
    Ok(
        crate::broker::session::Session::new(connection.clone(), purpose)?
            .with_notes(std::sync::Arc::new(move |text: &str| output.note(text))),
    )
}
