//! `dead replay`'s `--to`: what it may name.

use crate::cli::DeadReplayArgs;
use crate::error::{Error, Result};
use crate::queue::{QueueSettings, validate_target_queue};

/// `--to` must be a queue name; q.dead itself only with `--from-file` (a restore, which has no
/// `--after`): from q.dead into itself a replay would move nothing.
pub fn check_target(a: &DeadReplayArgs, queue: &QueueSettings) -> Result<()> {
    let Some(to) = &a.to else {
        return Ok(());
    };
    validate_target_queue(to)?;
    if *to != queue.dead_queue() {
        return Ok(());
    }
    if a.from_file.is_none() {
        return Err(Error::settings(format!(
            "--to {to:?} is the dead-letter queue itself: replaying it into itself would move \
             nothing (--from-file F --to {to} restores an export or a purge archive into it)"
        )));
    }
    if a.after.is_some() {
        return Err(Error::settings(format!(
            "--after with --to {to:?}: a restore into the dead-letter queue has no delay to wait"
        )));
    }
    Ok(())
}
