//! One module per command: each takes plain settings, does its work through `broker`, prints
//! through `output`, and returns the exit code of a run that did not fail.

pub mod args;
pub mod assets;
pub mod declare;
pub mod holds;
pub mod inspect;
pub mod ping;
pub mod status;

use crate::error::{ExitCode, Result};
use crate::output::Output;
use crate::settings::Work;

/// Runs one invocation's work.
pub async fn run(work: Work, output: Output) -> Result<ExitCode> {
    match work {
        Work::Args { queues, delays } => args::run(&queues, &delays, output),
        Work::Declare {
            queues,
            connection,
            dry_run,
        } => {
            let mode = if dry_run {
                declare::Mode::DryRun
            } else {
                declare::Mode::Declare
            };
            declare::run(&queues, &connection, mode, output).await
        }
        Work::Verify { queues, connection } => {
            declare::run(&queues, &connection, declare::Mode::Verify, output).await
        }
        Work::HoldsLs { queue, connection } => holds::run(&queue, &connection, output).await,
        Work::Status { queues, connection } => status::run(&queues, &connection, output).await,
        Work::Ping { connection } => ping::run(&connection, output).await,
        Work::Completions { shell } => assets::print_completions(shell),
        Work::GenerateAssets { dir } => assets::generate(&dir, output),
    }
}
