//! `dead check`'s settings: the thresholds, validated.

use crate::cli::DeadCheckArgs;
use crate::dead::filter::Filter;
use crate::dead::peek::PeekOptions;
use crate::dead::thresholds::{Thresholds, UntimedRule};
use crate::duration::parse_duration;
use crate::error::{Error, Result};
use crate::queue::QueueSettings;

use super::{TopologyFile, filter_from_args, peek_options, resolve_queues};

/// What `dead check` checks.
#[derive(Clone, Debug)]
pub struct CheckSettings {
    pub queues: Vec<QueueSettings>,
    pub thresholds: Thresholds,
    pub filter: Filter,
    pub peek: PeekOptions,
    /// What `--max-age` makes of dead letters with no time (`--untimed`).
    pub untimed: UntimedRule,
}

pub fn check_settings(a: &DeadCheckArgs, file: Option<&TopologyFile>) -> Result<CheckSettings> {
    let thresholds = Thresholds {
        max_count: a.max_count,
        max_age: a
            .max_age
            .as_deref()
            .map(|t| {
                parse_duration(t)
                    .map_err(|e| Error::settings(format!("invalid --max-age {t:?}: {e}")))
            })
            .transpose()?,
        max_rate: a
            .max_rate
            .as_deref()
            .map(|t| {
                let number = t.trim().strip_suffix("/s").unwrap_or(t.trim());
                match number.parse::<f64>() {
                    Ok(r) if r.is_finite() && r >= 0.0 => Ok(r),
                    _ => Err(Error::settings(format!(
                        "invalid --max-rate {t:?}: dead letters per second, 0 or more, like 0.5 \
                         or 0.5/s"
                    ))),
                }
            })
            .transpose()?,
    };
    if thresholds.is_empty() {
        return Err(Error::usage(
            "dead check needs a threshold: --max-count N, --max-age DURATION or --max-rate N/s",
        )
        .with_hint("e.g. `queuey dead check --all --max-count 0` fails on any dead letter"));
    }
    let names = (&a.settings).into();
    Ok(CheckSettings {
        queues: resolve_queues(&a.selection, &names, file)?,
        thresholds,
        filter: filter_from_args(&a.filters)?,
        peek: peek_options(&a.peek)?,
        untimed: UntimedRule::ALL
            .into_iter()
            .find(|r| r.as_str() == a.untimed)
            .unwrap_or_default(),
    })
}
