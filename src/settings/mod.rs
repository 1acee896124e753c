//! Flags + environment + `queuey.toml` -> plain, validated settings. Validation lives here.
//!
//! Every value remembers where it came from (a flag, or a table of the topology file), so an
//! error names the setting, the value, its origin and the allowed range. Precedence, highest
//! first: flags, the file's `[queues."<name>"]` table, the file's `[defaults]` table, queuey's
//! defaults. Nothing here talks to the broker.

use std::path::PathBuf;
use std::time::Duration;

use crate::cli::{self, Cli, FilterArgs, PeekArgs, QueueNamesArgs, QueueSettingsArgs};
use crate::dead::decode::Cause;
use crate::dead::filter::{AttemptRange, Filter, GroupKey, HeaderCondition, WhereCondition};
use crate::dead::peek::PeekOptions;
use crate::duration::parse_duration;
use crate::endpoint::ConnectionSettings;
use crate::error::{Error, Result};
use crate::output::{Format, Output};
use crate::queue::{QueueSettings, Unlisted};
use crate::topology::RabbitMqOptions;

/// The file read when neither `--config` nor `QUEUEY_CONFIG` names one.
pub const DEFAULT_CONFIG_FILE: &str = "queuey.toml";

pub mod browse;
pub mod connection;
pub mod dead_check_settings;
pub mod edit;
pub mod file;
pub mod holds_prune_settings;
pub mod replay;
pub mod resolve;
pub mod tls_settings;

pub use browse::BrowseSettings;
pub use connection::connection_settings;
pub use dead_check_settings::CheckSettings;
pub use edit::EditSettings;
pub use file::TopologyFile;
pub use holds_prune_settings::PruneSettings;
pub use replay::parse_rate;
use replay::replay_channels;
pub use resolve::{resolve_queue, resolve_queues};

impl From<&QueueNamesArgs> for QueueSettingsArgs {
    /// The commands that only read or move messages take the two naming settings; the others
    /// come from the topology file alone.
    fn from(names: &QueueNamesArgs) -> QueueSettingsArgs {
        QueueSettingsArgs {
            dead_suffix: names.dead_suffix.clone(),
            deferred_suffix: names.deferred_suffix.clone(),
            ..QueueSettingsArgs::default()
        }
    }
}

/// Which granularity a delay is rounded with.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum DelayKind {
    /// Retries and delayed enqueues: `retry_granularity`.
    Retry,
    /// Deferrals: `deferred_granularity`.
    Deferral,
}

impl DelayKind {
    pub fn as_str(self) -> &'static str {
        match self {
            DelayKind::Retry => "retry",
            DelayKind::Deferral => "deferral",
        }
    }

    pub fn granularity(self, options: &RabbitMqOptions) -> Duration {
        match self {
            DelayKind::Retry => options.retry_granularity,
            DelayKind::Deferral => options.deferred_granularity,
        }
    }
}

/// A delay asked for on the command line.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct DelayRequest {
    pub delay: Duration,
    pub kind: DelayKind,
    /// As the user wrote it, for messages.
    pub written: String,
}

/// What to do, with plain validated settings.
// Built once per run and matched once: the size difference between variants costs nothing.
#[allow(clippy::large_enum_variant)]
#[derive(Debug)]
pub enum Work {
    Args {
        queues: Vec<QueueSettings>,
        delays: Vec<DelayRequest>,
    },
    /// `declare`, or `declare --dry-run` when `dry_run`.
    Declare {
        queues: Vec<QueueSettings>,
        connection: ConnectionSettings,
        dry_run: bool,
        /// Create queues the topology file does not list.
        allow_unlisted: bool,
    },
    Verify {
        queues: Vec<QueueSettings>,
        connection: ConnectionSettings,
    },
    HoldsLs {
        queue: QueueSettings,
        connection: ConnectionSettings,
    },
    Status {
        queues: Vec<QueueSettings>,
        connection: ConnectionSettings,
        /// `--scan`: count q.dead's dead letters by cause.
        scan: bool,
    },
    DeadCheck {
        connection: ConnectionSettings,
        check: CheckSettings,
    },
    HoldsPrune {
        connection: ConnectionSettings,
        prune: PruneSettings,
    },
    DeadEdit {
        connection: ConnectionSettings,
        edit: EditSettings,
    },
    Ping {
        connection: ConnectionSettings,
    },
    DeadLs {
        connection: ConnectionSettings,
        queue: QueueSettings,
        filter: Filter,
        /// `None`: every message.
        limit: Option<u64>,
        group_by: Vec<GroupKey>,
        peek: PeekOptions,
    },
    DeadShow {
        connection: ConnectionSettings,
        queue: QueueSettings,
        which: Which,
        peek: PeekOptions,
        /// The whole body on a terminal too (`--full`).
        full: bool,
    },
    DeadExport {
        connection: ConnectionSettings,
        queue: QueueSettings,
        filter: Filter,
        limit: Option<u64>,
        output_file: Option<PathBuf>,
        peek: PeekOptions,
    },
    DeadReplay {
        connection: ConnectionSettings,
        replay: ReplaySettings,
    },
    DeadPurge {
        connection: ConnectionSettings,
        purge: PurgeSettings,
    },
    DeadBrowse {
        connection: ConnectionSettings,
        browse: BrowseSettings,
    },
}

/// What `dead replay` does.
#[derive(Clone, Debug)]
pub struct ReplaySettings {
    pub queue: QueueSettings,
    pub filter: Filter,
    pub to: Option<String>,
    pub dry_run: bool,
    pub limit: Option<u64>,
    /// Messages per second at most.
    pub rate: Option<f64>,
    pub from_file: Option<PathBuf>,
    /// Copy envelope bodies unchanged instead of setting their `attempt` to 1.
    pub keep_attempts: bool,
    /// `--strip-user-id`: copies go without the `user_id` property.
    pub strip_user_id: bool,
    /// `--allow-drop-head`: copies may push out the oldest messages of a full drop-head target.
    pub allow_drop_head: bool,
    /// `--journal`: the replay ledger's file (default: in the state directory).
    pub journal: Option<PathBuf>,
    /// `--look-in-targets`: a rerun reads the targets of an unfinished run's copies in doubt.
    pub look_in_targets: bool,
    /// `--blocked-timeout`: stop when publishing stays blocked this long.
    pub blocked_timeout: Option<std::time::Duration>,
    /// `--after`: the copies wait this long in a hold queue before they reach their target.
    pub after: Option<After>,
    /// `--channels`: the copies are published over this many channels (1 keeps their order).
    pub channels: usize,
    pub peek: PeekOptions,
}

/// `dead replay --after D`: D, and the TTL of the hold queue it lands in (rounded up with the
/// retry granularity, as the library rounds a delayed enqueue).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct After {
    pub delay: Duration,
    pub ttl_ms: u32,
    /// As the user wrote it.
    pub written: String,
}

/// What `dead purge` does.
#[derive(Clone, Debug)]
pub struct PurgeSettings {
    pub queue: QueueSettings,
    pub filter: Filter,
    pub yes: bool,
    pub dry_run: bool,
    pub archive: Option<PathBuf>,
    /// `--age-from-enqueued`: `--older-than` may remove a dead letter by its job's enqueue time.
    pub age_from_enqueued: bool,
    pub peek: PeekOptions,
}

/// Which one message `dead show` shows.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Which {
    Position(u64),
    MessageId(String),
}

/// A whole invocation: how to print, and what to do.
#[derive(Debug)]
pub struct Invocation {
    pub output: Output,
    pub work: Work,
    /// Said on stderr before the work starts (a queue name the topology file does not list).
    pub notes: Vec<String>,
}

impl Invocation {
    pub fn from_cli(cli: Cli) -> Result<Invocation> {
        let global = cli.global;
        let output = Output {
            format: match global.output {
                cli::OutputFormat::Table => Format::Table,
                cli::OutputFormat::Json => Format::Json,
                cli::OutputFormat::Prometheus => Format::Prometheus,
            },
            quiet: global.quiet,
            wide: global.wide,
        };
        let tls_flags = tls_settings::TlsFlags {
            ca_cert: global.tls_ca_cert.clone(),
            cert: global.tls_cert.clone(),
            key: global.tls_key.clone(),
            from_env: global.tls_from_env,
        };
        // The topology file's [tls] table counts too.
        let stall_timeout = stall_timeout(global.timeout.as_deref())?;
        // The addresses: the flags (or their variables) over the topology file's [connection].
        let connection = |file: Option<&TopologyFile>| {
            let pick = |given: &[String], in_file: Option<&Vec<String>>| match in_file {
                Some(listed) if given.is_empty() => listed.clone(),
                _ => given.to_vec(),
            };
            let raw = file.map(|f| &f.connection);
            connection_settings(
                &pick(&global.url, raw.and_then(|c| c.url.as_ref())),
                &pick(&global.api_url, raw.and_then(|c| c.api_url.as_ref())),
                &global.connect_timeout,
                tls_settings::resolve_tls(&tls_flags, file)?,
            )
            .map(|c| ConnectionSettings { stall_timeout, ..c })
        };
        let work = match cli.command {
            cli::Command::Args(a) => {
                let file = TopologyFile::discover(global.config.as_deref())?;
                let queues = resolve_queues(&a.selection, &a.settings, file.as_ref())?;
                let mut delays = Vec::new();
                for (written, kind) in a
                    .delay
                    .iter()
                    .map(|d| (d, DelayKind::Retry))
                    .chain(a.defer.iter().map(|d| (d, DelayKind::Deferral)))
                {
                    let flag = match kind {
                        DelayKind::Retry => "--delay",
                        DelayKind::Deferral => "--defer",
                    };
                    let delay = parse_duration(written)
                        .map_err(|e| Error::settings(format!("{flag}: {e}")))?;
                    delays.push(DelayRequest {
                        delay,
                        kind,
                        written: written.clone(),
                    });
                }
                Work::Args { queues, delays }
            }
            cli::Command::Declare(a) => {
                let file = TopologyFile::discover(global.config.as_deref())?;
                let queues = resolve_queues(&a.selection, &a.settings, file.as_ref())?;
                if !a.dry_run && !a.allow_unlisted {
                    refuse_unlisted(&queues)?;
                }
                Work::Declare {
                    queues,
                    connection: connection(file.as_ref())?,
                    dry_run: a.dry_run,
                    allow_unlisted: a.allow_unlisted,
                }
            }
            cli::Command::Verify(a) => {
                let file = TopologyFile::discover(global.config.as_deref())?;
                Work::Verify {
                    queues: resolve_queues(&a.selection, &a.settings, file.as_ref())?,
                    connection: connection(file.as_ref())?,
                }
            }
            cli::Command::Status(a) => {
                let file = TopologyFile::discover(global.config.as_deref())?;
                Work::Status {
                    queues: resolve_queues(&a.selection, &a.settings, file.as_ref())?,
                    connection: connection(file.as_ref())?,
                    scan: a.scan,
                }
            }
            cli::Command::Holds(cli::HoldsCommand::Prune(a)) => {
                let file = TopologyFile::discover(global.config.as_deref())?;
                Work::HoldsPrune {
                    prune: holds_prune_settings::prune_settings(&a, file.as_ref())?,
                    connection: connection(file.as_ref())?,
                }
            }
            cli::Command::Holds(cli::HoldsCommand::Ls(a)) => {
                let file = TopologyFile::discover(global.config.as_deref())?;
                Work::HoldsLs {
                    queue: resolve_queue(&a.queue, &a.settings, file.as_ref())?,
                    connection: connection(file.as_ref())?,
                }
            }
            cli::Command::Ping => {
                let file = TopologyFile::discover(global.config.as_deref())?;
                Work::Ping {
                    connection: connection(file.as_ref())?,
                }
            }
            cli::Command::Dead(dead) => {
                let file = TopologyFile::discover(global.config.as_deref())?;
                match dead {
                    cli::DeadCommand::Ls(a) => Work::DeadLs {
                        queue: resolve_queue(&a.queue.queue, &(&a.settings).into(), file.as_ref())?,
                        filter: filter_from_args(&a.filters)?,
                        limit: (a.limit > 0).then_some(a.limit),
                        group_by: a
                            .group_by
                            .iter()
                            .map(|k| GroupKey::parse(k).map_err(Error::settings))
                            .collect::<Result<_>>()?,
                        peek: peek_options(&a.peek)?,
                        connection: connection(file.as_ref())?,
                    },
                    cli::DeadCommand::Show(a) => Work::DeadShow {
                        queue: resolve_queue(&a.queue.queue, &(&a.settings).into(), file.as_ref())?,
                        which: match (a.position, a.message_id) {
                            (_, Some(id)) => Which::MessageId(id),
                            (Some(0), None) => {
                                return Err(Error::settings(
                                    "position 0: positions start at 1 (the head of q.dead)",
                                ));
                            }
                            (Some(p), None) => Which::Position(p),
                            (None, None) => {
                                return Err(Error::usage("give a POSITION or --message-id"));
                            }
                        },
                        peek: peek_options(&a.peek)?,
                        full: a.full,
                        connection: connection(file.as_ref())?,
                    },
                    cli::DeadCommand::Replay(a) => {
                        let queue =
                            resolve_queue(&a.queue.queue, &(&a.settings).into(), file.as_ref())?;
                        replay::check_target(&a, &queue)?;
                        Work::DeadReplay {
                            replay: ReplaySettings {
                                filter: filter_from_args(&a.filters)?,
                                to: a.to,
                                dry_run: a.dry_run,
                                limit: (a.limit > 0).then_some(a.limit),
                                rate: a.rate.as_deref().map(parse_rate).transpose()?,
                                from_file: a.from_file,
                                keep_attempts: a.keep_attempts,
                                strip_user_id: a.strip_user_id,
                                allow_drop_head: a.allow_drop_head,
                                journal: a.journal,
                                look_in_targets: a.look_in_targets,
                                blocked_timeout: a
                                    .blocked_timeout
                                    .as_deref()
                                    .map(|t| {
                                        parse_duration(t).map_err(|why| {
                                            Error::settings(format!(
                                                "invalid --blocked-timeout {t:?}: {why}"
                                            ))
                                        })
                                    })
                                    .transpose()?,
                                peek: peek_options(&a.peek)?,
                                channels: replay_channels(a.channels)?,
                                after: a
                                    .after
                                    .as_deref()
                                    .map(|d| after_settings(d, &queue))
                                    .transpose()?,
                                queue,
                            },
                            connection: connection(file.as_ref())?,
                        }
                    }
                    cli::DeadCommand::Purge(a) => Work::DeadPurge {
                        purge: PurgeSettings {
                            queue: resolve_queue(
                                &a.queue.queue,
                                &(&a.settings).into(),
                                file.as_ref(),
                            )?,
                            filter: filter_from_args(&a.filters)?,
                            yes: a.yes,
                            dry_run: a.dry_run,
                            archive: a.archive,
                            age_from_enqueued: a.age_from_enqueued,
                            peek: peek_options(&a.peek)?,
                        },
                        connection: connection(file.as_ref())?,
                    },
                    cli::DeadCommand::Edit(a) => Work::DeadEdit {
                        edit: edit::edit_settings(&a, file.as_ref())?,
                        connection: connection(file.as_ref())?,
                    },
                    cli::DeadCommand::Browse(a) => Work::DeadBrowse {
                        browse: browse::browse_settings(&a, &global, file.as_ref())?,
                        connection: connection(file.as_ref())?,
                    },
                    cli::DeadCommand::Check(a) => Work::DeadCheck {
                        check: dead_check_settings::check_settings(&a, file.as_ref())?,
                        connection: connection(file.as_ref())?,
                    },
                    cli::DeadCommand::Export(a) => Work::DeadExport {
                        queue: resolve_queue(&a.queue.queue, &(&a.settings).into(), file.as_ref())?,
                        filter: filter_from_args(&a.filters)?,
                        limit: (a.limit > 0).then_some(a.limit),
                        output_file: a.output_file,
                        peek: peek_options(&a.peek)?,
                        connection: connection(file.as_ref())?,
                    },
                }
            }
            cli::Command::Completions { .. } | cli::Command::GenerateAssets { .. } => {
                return Err(Error::internal(
                    "completions and generate-assets belong to the CLI layer (lib.rs runs them)",
                ));
            }
        };
        if output.format == Format::Prometheus
            && !matches!(work, Work::Status { .. } | Work::DeadCheck { .. })
        {
            return Err(Error::usage(
                "-o prometheus is the output of `queuey status` and `queuey dead check` only",
            )
            .with_hint("use -o json or the table with this command"));
        }
        let notes = match &work {
            // Declare and verify say it in their report, where it decides what happens.
            Work::Declare { .. } | Work::Verify { .. } => Vec::new(),
            other => other
                .queues()
                .into_iter()
                .filter_map(|q| {
                    q.unlisted
                        .as_ref()
                        .map(|u| format!("note: {}", u.explain(&q.name)))
                })
                .collect(),
        };
        Ok(Invocation {
            output,
            work,
            notes,
        })
    }
}

impl Work {
    /// The logical queues this work is about.
    pub fn queues(&self) -> Vec<&QueueSettings> {
        match self {
            Work::Args { queues, .. }
            | Work::Declare { queues, .. }
            | Work::Verify { queues, .. }
            | Work::Status { queues, .. } => queues.iter().collect(),
            Work::HoldsLs { queue, .. }
            | Work::DeadLs { queue, .. }
            | Work::DeadShow { queue, .. }
            | Work::DeadExport { queue, .. } => vec![queue],
            Work::DeadReplay { replay, .. } => vec![&replay.queue],
            Work::DeadPurge { purge, .. } => vec![&purge.queue],
            Work::DeadBrowse { browse, .. } => vec![&browse.queue],
            Work::DeadCheck { check, .. } => check.queues.iter().collect(),
            Work::HoldsPrune { prune, .. } => prune.queues.iter().map(|(q, _)| q).collect(),
            Work::DeadEdit { edit, .. } => vec![&edit.queue],
            Work::Ping { .. } => Vec::new(),
        }
    }
}

/// `declare` creates only what the topology file lists (when one is in use): a name it does not
/// list is usually a typo, and would be created with default settings.
pub fn refuse_unlisted(queues: &[QueueSettings]) -> Result<()> {
    let unlisted: Vec<(&QueueSettings, &Unlisted)> = queues
        .iter()
        .filter_map(|q| q.unlisted.as_ref().map(|u| (q, u)))
        .collect();
    let Some((_, first)) = unlisted.first() else {
        return Ok(());
    };
    let explained: Vec<String> = unlisted.iter().map(|(q, u)| u.explain(&q.name)).collect();
    Err(Error::usage(format!(
        "refusing to declare a queue that is {}: {}; nothing was declared",
        first.not_in(),
        explained.join("; ")
    ))
    .with_hint(format!(
        "fix the name, add a table [queues.\"<name>\"] to {}, or pass --allow-unlisted to \
         create it with the defaults",
        first.file.display()
    )))
}

/// The filters of a dead-letter command, validated.
pub fn filter_from_args(a: &FilterArgs) -> Result<Filter> {
    let duration = |flag: &str, v: &Option<String>| -> Result<Option<Duration>> {
        v.as_deref()
            .map(|t| parse_duration(t).map_err(|e| Error::settings(format!("{flag}: {e}"))))
            .transpose()
    };
    let filter = Filter {
        causes: a
            .cause
            .iter()
            .map(|c| {
                Cause::parse(c).ok_or_else(|| {
                    Error::settings(format!(
                        "invalid --cause {c:?}: one of {}",
                        Cause::ALL.map(Cause::as_str).join(", ")
                    ))
                })
            })
            .collect::<Result<_>>()?,
        reasons: a.reason.clone(),
        job_types: a.job_type.clone(),
        original_queues: a.original_queue.clone(),
        attempts: a
            .attempts
            .as_deref()
            .map(|t| {
                AttemptRange::parse(t).map_err(|e| Error::settings(format!("--attempts: {e}")))
            })
            .transpose()?,
        older_than: duration("--older-than", &a.older_than)?,
        newer_than: duration("--newer-than", &a.newer_than)?,
        headers: a
            .header
            .iter()
            .map(|h| {
                HeaderCondition::parse(h).map_err(|e| Error::settings(format!("--header: {e}")))
            })
            .collect::<Result<_>>()?,
        message_ids: a.message_id.clone(),
        wheres: a
            .where_
            .iter()
            .map(|w| WhereCondition::parse(w).map_err(Error::settings))
            .collect::<Result<_>>()?,
        body_contains: a
            .body_contains
            .iter()
            .map(|t| {
                if t.is_empty() {
                    Err(Error::settings(
                        "invalid --body-contains \"\": every body contains it; leave it out",
                    ))
                } else {
                    Ok(t.clone())
                }
            })
            .collect::<Result<_>>()?,
    };
    if let (Some(o), Some(n)) = (filter.older_than, filter.newer_than)
        && o >= n
    {
        return Err(Error::settings(format!(
            "--older-than {} and --newer-than {} match nothing: older-than must be shorter than newer-than",
            a.older_than.as_deref().unwrap_or_default(),
            a.newer_than.as_deref().unwrap_or_default()
        )));
    }
    Ok(filter)
}

/// `--after D`: its hold queue's TTL, as the library computes it for a delayed enqueue; past
/// `MAX_DEFERRAL_MS` refused (never clamped: the jobs must not come back early).
pub fn after_settings(written: &str, queue: &QueueSettings) -> Result<After> {
    let delay = parse_duration(written)
        .map_err(|e| Error::settings(format!("invalid --after {written:?}: {e}")))?;
    let ttl_ms = crate::topology::deferred_ttl_ms(delay, queue.options.retry_granularity)
        .ok_or_else(|| {
            Error::settings(format!(
                "--after {written}: a hold queue holds a message at most {} ({} ms, the \
                 library's MAX_DEFERRAL_MS)",
                crate::duration::format_millis(crate::topology::MAX_DEFERRAL_MS),
                crate::topology::MAX_DEFERRAL_MS
            ))
        })?;
    Ok(After {
        delay,
        ttl_ms,
        written: written.to_owned(),
    })
}

/// How a peek may treat the queue.
pub fn peek_options(a: &PeekArgs) -> Result<PeekOptions> {
    if a.window == 0 {
        return Err(Error::settings("invalid --window 0: allowed 1 to 65535"));
    }
    if a.quorum_at_risk < 2 {
        return Err(Error::settings(format!(
            "invalid --quorum-at-risk {}: allowed 2 to 65535 (the queue is read in rounds of half as many)",
            a.quorum_at_risk
        )));
    }
    Ok(PeekOptions {
        window: a.window,
        quorum_at_risk: a.quorum_at_risk,
        spend_delivery_budget: a.spend_delivery_budget,
        assume_classic: a.assume_classic,
        retry_unreadable: a.retry_unreadable,
        ..PeekOptions::new()
    })
}

/// `--timeout D`: how long an answer the broker owes may take (none: wait).
fn stall_timeout(text: Option<&str>) -> Result<Option<std::time::Duration>> {
    let Some(text) = text else { return Ok(None) };
    let d = parse_duration(text).map_err(|e| Error::settings(format!("--timeout: {e}")))?;
    if d.is_zero() {
        return Err(Error::settings(
            "--timeout 0 would stop at the first wait: give at least 1ms, or leave it out to wait",
        ));
    }
    Ok(Some(d))
}

#[cfg(test)]
mod tests;
