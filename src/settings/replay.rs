//! `dead replay`'s `--to` (what it may name), `--channels` and `--rate`.

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

/// `--channels N`: 1 to 16.
pub fn replay_channels(n: u8) -> Result<usize> {
    if (1..=16).contains(&n) {
        Ok(usize::from(n))
    } else {
        Err(Error::settings(format!(
            "invalid --channels {n}: allowed 1 to 16 (1 keeps the copies in q.dead's order)"
        )))
    }
}

/// `--rate 500` or `--rate 500/s`: messages per second, above zero.
pub fn parse_rate(text: &str) -> Result<f64> {
    let number = text.trim().strip_suffix("/s").unwrap_or(text.trim());
    match number.parse::<f64>() {
        Ok(r) if r.is_finite() && r > 0.0 => Ok(r),
        _ => Err(Error::settings(format!(
            "invalid --rate {text:?}: messages per second above 0, like 500 or 500/s"
        ))),
    }
}
