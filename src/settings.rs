//! Flags + environment + `queuey.toml` -> plain, validated settings. Validation lives here.
//!
//! Every value remembers where it came from (a flag, or a table of the topology file), so an
//! error names the setting, the value, its origin and the allowed range. Precedence, highest
//! first: flags, the file's `[queues."<name>"]` table, the file's `[defaults]` table, queuey's
//! defaults. Nothing here talks to the broker.

use std::path::{Path, PathBuf};
use std::time::Duration;

use serde::Deserialize;

use crate::broker::peek::PeekOptions;
use crate::broker::url::{AmqpTarget, ApiTarget, DEFAULT_AMQP_URL};
use crate::cli::{
    self, Cli, FilterArgs, PeekArgs, QueueNamesArgs, QueueSelection, QueueSettingsArgs,
};
use crate::dead::decode::Cause;
use crate::dead::filter::{AttemptRange, Filter, GroupKey, HeaderCondition};
use crate::duration::{format_millis, parse_duration};
use crate::error::{Error, Kind, Result};
use crate::output::{Format, Output};
use crate::topology::{self, MAX_DEFERRAL_MS, MAX_TTL_MS, QueueConfig, QueueType, RabbitMqOptions};

/// The file read when neither `--config` nor `QUEUEY_CONFIG` names one.
pub const DEFAULT_CONFIG_FILE: &str = "queuey.toml";

/// The longest queue name AMQP carries (a short string).
pub const MAX_QUEUE_NAME_BYTES: usize = 255;

/// One logical queue with everything that shapes its broker queues.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct QueueSettings {
    pub name: String,
    pub config: QueueConfig,
    pub options: RabbitMqOptions,
    /// Set when a topology file is in use and does not list this queue: its settings then come
    /// from the file's `[defaults]` and queuey's defaults, which is usually a typo in the name.
    pub unlisted: Option<Unlisted>,
}

impl QueueSettings {
    pub fn dead_queue(&self) -> String {
        self.options.dead_queue(&self.name)
    }
}

/// A queue name the topology file in use does not list.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Unlisted {
    /// The topology file.
    pub file: PathBuf,
    /// The listed names nearest to it (a typo's intended name), nearest first.
    pub near: Vec<String>,
}

impl Unlisted {
    /// `not in queuey.toml`, naming the file as the user knows it.
    pub fn not_in(&self) -> String {
        format!("not in {}", self.file.display())
    }

    /// One sentence on what an unlisted `name` gets, with the listed names it is near.
    pub fn explain(&self, name: &str) -> String {
        let mut text = format!(
            "{name:?} is {}: it gets the file's [defaults] and queuey's defaults",
            self.not_in()
        );
        if !self.near.is_empty() {
            let near: Vec<String> = self.near.iter().map(|n| format!("{n:?}")).collect();
            text.push_str(&format!("; did you mean {}?", near.join(" or ")));
        }
        text
    }
}

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

/// How to reach the broker.
#[derive(Clone, Debug)]
pub struct ConnectionSettings {
    pub amqp: AmqpTarget,
    pub api: ApiTarget,
    pub timeout: Duration,
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
    Completions {
        shell: clap_complete::Shell,
    },
    GenerateAssets {
        dir: PathBuf,
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
    /// `--journal`: the replay journal's file (default: in the state directory).
    pub journal: Option<PathBuf>,
    /// `--blocked-timeout`: stop when publishing stays blocked this long.
    pub blocked_timeout: Option<std::time::Duration>,
    pub peek: PeekOptions,
}

/// What `dead purge` does.
#[derive(Clone, Debug)]
pub struct PurgeSettings {
    pub queue: QueueSettings,
    pub filter: Filter,
    pub yes: bool,
    pub dry_run: bool,
    pub archive: Option<PathBuf>,
    pub peek: PeekOptions,
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
            },
            quiet: global.quiet,
        };
        let connection = || {
            connection_settings(
                global.url.as_deref(),
                global.api_url.as_deref(),
                &global.connect_timeout,
            )
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
                    connection: connection()?,
                    dry_run: a.dry_run,
                    allow_unlisted: a.allow_unlisted,
                }
            }
            cli::Command::Verify(a) => {
                let file = TopologyFile::discover(global.config.as_deref())?;
                Work::Verify {
                    queues: resolve_queues(&a.selection, &a.settings, file.as_ref())?,
                    connection: connection()?,
                }
            }
            cli::Command::Status(a) => {
                let file = TopologyFile::discover(global.config.as_deref())?;
                Work::Status {
                    queues: resolve_queues(&a.selection, &a.settings, file.as_ref())?,
                    connection: connection()?,
                }
            }
            cli::Command::Holds(cli::HoldsCommand::Ls(a)) => {
                let file = TopologyFile::discover(global.config.as_deref())?;
                Work::HoldsLs {
                    queue: resolve_queue(&a.queue, &(&a.settings).into(), file.as_ref())?,
                    connection: connection()?,
                }
            }
            cli::Command::Ping => Work::Ping {
                connection: connection()?,
            },
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
                        connection: connection()?,
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
                        connection: connection()?,
                    },
                    cli::DeadCommand::Replay(a) => {
                        let queue =
                            resolve_queue(&a.queue.queue, &(&a.settings).into(), file.as_ref())?;
                        if let Some(to) = &a.to {
                            validate_target_queue(to)?;
                            if *to == queue.dead_queue() {
                                return Err(Error::settings(format!(
                                    "--to {to:?} is the dead-letter queue itself: replaying into it would move nothing"
                                )));
                            }
                        }
                        Work::DeadReplay {
                            replay: ReplaySettings {
                                filter: filter_from_args(&a.filters)?,
                                to: a.to,
                                dry_run: a.dry_run,
                                limit: (a.limit > 0).then_some(a.limit),
                                rate: a.rate.as_deref().map(parse_rate).transpose()?,
                                from_file: a.from_file,
                                keep_attempts: a.keep_attempts,
                                journal: a.journal,
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
                                queue,
                            },
                            connection: connection()?,
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
                            peek: peek_options(&a.peek)?,
                        },
                        connection: connection()?,
                    },
                    cli::DeadCommand::Export(a) => Work::DeadExport {
                        queue: resolve_queue(&a.queue.queue, &(&a.settings).into(), file.as_ref())?,
                        filter: filter_from_args(&a.filters)?,
                        limit: (a.limit > 0).then_some(a.limit),
                        output_file: a.output_file,
                        peek: peek_options(&a.peek)?,
                        connection: connection()?,
                    },
                }
            }
            cli::Command::Completions { shell } => Work::Completions { shell },
            cli::Command::GenerateAssets { dir } => Work::GenerateAssets { dir },
        };
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
            Work::Ping { .. } | Work::Completions { .. } | Work::GenerateAssets { .. } => {
                Vec::new()
            }
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

/// How a peek may treat the queue.
pub fn peek_options(a: &PeekArgs) -> Result<PeekOptions> {
    if a.window == 0 {
        return Err(Error::settings("invalid --window 0: allowed 1 to 65535"));
    }
    Ok(PeekOptions {
        window: a.window,
        spend_delivery_budget: a.spend_delivery_budget,
        assume_classic: a.assume_classic,
        ..PeekOptions::new()
    })
}

/// Resolves the AMQP URL, the management API URL and the connect timeout.
pub fn connection_settings(
    url: Option<&str>,
    api_url: Option<&str>,
    timeout: &str,
) -> Result<ConnectionSettings> {
    let amqp = AmqpTarget::parse(url.unwrap_or(DEFAULT_AMQP_URL))?;
    let api = match api_url {
        Some(u) => ApiTarget::parse(u, &amqp)?,
        None => ApiTarget::derive(&amqp)?,
    };
    let timeout =
        parse_duration(timeout).map_err(|e| Error::settings(format!("--connect-timeout: {e}")))?;
    if timeout.is_zero() {
        return Err(Error::settings(
            "--connect-timeout 0 would never connect: give at least 1ms (the default is 10s)",
        ));
    }
    Ok(ConnectionSettings { amqp, api, timeout })
}

/// One table of the topology file (`[defaults]` or `[queues."<name>"]`), as written.
#[derive(Clone, Debug, Default, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct RawQueueSettings {
    pub message_ttl: Option<String>,
    pub max_priority: Option<i64>,
    pub queue_type: Option<String>,
    pub delivery_limit: Option<i64>,
    pub dead_suffix: Option<String>,
    pub deferred_suffix: Option<String>,
    pub retry_granularity: Option<String>,
    pub deferred_granularity: Option<String>,
}

#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
struct RawFile {
    #[serde(default)]
    defaults: RawQueueSettings,
    #[serde(default)]
    queues: toml::Table,
}

/// A parsed topology file: defaults and the queues in file order.
#[derive(Clone, Debug)]
pub struct TopologyFile {
    pub path: PathBuf,
    pub defaults: RawQueueSettings,
    pub queues: Vec<(String, RawQueueSettings)>,
}

impl TopologyFile {
    /// The file named by `--config` / `QUEUEY_CONFIG` (which must exist), else `./queuey.toml`
    /// when present, else none.
    pub fn discover(explicit: Option<&Path>) -> Result<Option<TopologyFile>> {
        match explicit {
            Some(path) => TopologyFile::load(path).map(Some),
            None => {
                let path = Path::new(DEFAULT_CONFIG_FILE);
                if path.is_file() {
                    TopologyFile::load(path).map(Some)
                } else {
                    Ok(None)
                }
            }
        }
    }

    pub fn load(path: &Path) -> Result<TopologyFile> {
        let text = std::fs::read_to_string(path).map_err(|e| {
            Error::new(
                Kind::ConfigFile,
                format!("cannot read the topology file {}: {e}", path.display()),
            )
            .with_hint("name it with --config or QUEUEY_CONFIG; ./queuey.toml is read when present")
        })?;
        TopologyFile::parse(&text, path)
    }

    pub fn parse(text: &str, path: &Path) -> Result<TopologyFile> {
        let file_error = |detail: String| {
            Error::new(
                Kind::ConfigFile,
                format!("invalid topology file {}: {detail}", path.display()),
            )
            .with_hint(
                "known tables: [defaults] and [queues.\"<name>\"]; known keys: message_ttl, \
                 max_priority, queue_type, delivery_limit, dead_suffix, deferred_suffix, \
                 retry_granularity, deferred_granularity (see the README)",
            )
        };
        let raw: RawFile = toml::from_str(text).map_err(|e| file_error(e.to_string()))?;
        let mut queues = Vec::new();
        for (name, value) in raw.queues {
            if let Some(dotted) = dotted_name(&name, &value) {
                return Err(Error::new(
                    Kind::ConfigFile,
                    format!(
                        "invalid topology file {}: [queues.{dotted}] is, in TOML, a queue {name:?} \
                         holding a table, not a queue named {dotted:?}",
                        path.display()
                    ),
                )
                .with_hint(format!(
                    "quote a queue name that holds dots: [queues.{:?}]",
                    dotted
                )));
            }
            let settings: RawQueueSettings = value
                .try_into()
                .map_err(|e: toml::de::Error| file_error(format!("[queues.{name:?}]: {e}")))?;
            queues.push((name, settings));
        }
        Ok(TopologyFile {
            path: path.to_owned(),
            defaults: raw.defaults,
            queues,
        })
    }

    fn entry(&self, name: &str) -> Option<&RawQueueSettings> {
        self.queues.iter().find(|(n, _)| n == name).map(|(_, s)| s)
    }
}

/// A table under `[queues]` that holds tables is a dotted name written without quotes
/// (`[queues.tour.orders]`): the name it was meant to be (`tour.orders`). Queue settings are
/// never tables.
fn dotted_name(name: &str, value: &toml::Value) -> Option<String> {
    let toml::Value::Table(table) = value else {
        return None;
    };
    table.iter().find_map(|(key, inner)| match inner {
        toml::Value::Table(_) => {
            let full = format!("{name}.{key}");
            Some(dotted_name(&full, inner).unwrap_or(full))
        }
        _ => None,
    })
}

/// The queues a command acts on, each with its settings merged and validated.
pub fn resolve_queues(
    selection: &QueueSelection,
    flags: &QueueSettingsArgs,
    file: Option<&TopologyFile>,
) -> Result<Vec<QueueSettings>> {
    let names: Vec<String> = if selection.all {
        let file = file.ok_or_else(|| {
            Error::usage("--all needs a topology file, and none was found")
                .with_hint("create ./queuey.toml, or name one with --config or QUEUEY_CONFIG")
        })?;
        if file.queues.is_empty() {
            return Err(Error::usage(format!(
                "--all: the topology file {} names no queues",
                file.path.display()
            ))
            .with_hint("add a table [queues.\"<name>\"] per logical queue"));
        }
        file.queues.iter().map(|(n, _)| n.clone()).collect()
    } else {
        selection.queues.clone()
    };
    let mut out: Vec<QueueSettings> = Vec::with_capacity(names.len());
    for name in names {
        if out.iter().any(|q| q.name == name) {
            continue;
        }
        out.push(resolve_queue(&name, flags, file)?);
    }
    Ok(out)
}

/// A value and where it came from.
struct Sourced<T> {
    value: T,
    origin: String,
}

/// Settings of one queue: flags over the file's entry over its defaults.
pub fn resolve_queue(
    name: &str,
    flags: &QueueSettingsArgs,
    file: Option<&TopologyFile>,
) -> Result<QueueSettings> {
    let entry = file.and_then(|f| f.entry(name));
    let file_label = |table: &str, key: &str| {
        file.map(|f| format!("{} {table} {key}", f.path.display()))
            .unwrap_or_default()
    };
    macro_rules! pick {
        ($field:ident, $flag:literal) => {{
            let from_flag = flags.$field.clone().map(|value| Sourced {
                value,
                origin: $flag.to_owned(),
            });
            let from_entry = entry.and_then(|e| e.$field.clone()).map(|value| Sourced {
                value,
                origin: file_label(&format!("[queues.{name:?}]"), stringify!($field)),
            });
            let from_defaults = file
                .and_then(|f| f.defaults.$field.clone())
                .map(|value| Sourced {
                    value,
                    origin: file_label("[defaults]", stringify!($field)),
                });
            from_flag.or(from_entry).or(from_defaults)
        }};
    }

    let invalid = |setting: &str, value: &dyn std::fmt::Display, origin: &str, allowed: &str| {
        Error::settings(format!(
            "invalid {setting} {value} for queue {name:?} (from {origin}): {allowed}"
        ))
    };

    let message_ttl = match pick!(message_ttl, "--message-ttl") {
        None => None,
        Some(s) => {
            let d = parse_duration(&s.value).map_err(|e| {
                Error::settings(format!("{} (from {}): {e}", "message_ttl", s.origin))
            })?;
            // Like the library, a TTL is whole milliseconds rounded up and at least 1 ms
            // (`topology::ttl_millis`); past MAX_TTL_MS the library clamps, but a setting that
            // large is a mistake worth saying.
            if d > Duration::from_millis(u64::from(MAX_TTL_MS)) {
                return Err(invalid(
                    "message_ttl",
                    &s.value,
                    &s.origin,
                    &format!(
                        "allowed 0ms to {} (MAX_TTL_MS = {MAX_TTL_MS} ms, ~49.7 days)",
                        format_millis(MAX_TTL_MS)
                    ),
                ));
            }
            Some(d)
        }
    };

    let queue_type = match pick!(queue_type, "--queue-type") {
        None => QueueType::Classic,
        Some(s) => match s.value.as_str() {
            "classic" => QueueType::Classic,
            "quorum" => QueueType::Quorum,
            other => {
                return Err(invalid(
                    "queue_type",
                    &format!("{other:?}"),
                    &s.origin,
                    "allowed \"classic\" or \"quorum\"",
                ));
            }
        },
    };

    // The library's default is ten levels (`QueueConfig::new`) and 0 turns priorities off
    // (`QueueConfig::max_priority(0)`). A quorum queue is queuey's extension, never declared by
    // a queuey 1.x application, and takes no x-max-priority: its default is none.
    let max_priority = match pick!(max_priority, "--max-priority") {
        None if queue_type == QueueType::Quorum => None,
        None => Some(topology::DEFAULT_MAX_PRIORITY),
        Some(s) if s.value == 0 => None,
        Some(s) => {
            let p = u8::try_from(s.value).ok().ok_or_else(|| {
                invalid(
                    "max_priority",
                    &s.value,
                    &s.origin,
                    "allowed 0 (no priorities) to 255",
                )
            })?;
            if queue_type == QueueType::Quorum {
                return Err(invalid(
                    "max_priority",
                    &s.value,
                    &s.origin,
                    "a quorum queue takes no x-max-priority (RabbitMQ 3.x refuses it with \
                     406 invalid arg; 4.x quorum queues have two built-in priority levels \
                     instead). Drop max_priority or use queue_type = \"classic\"",
                ));
            }
            Some(p)
        }
    };

    let delivery_limit = match pick!(delivery_limit, "--delivery-limit") {
        None => None,
        Some(s) => {
            if queue_type != QueueType::Quorum {
                return Err(invalid(
                    "delivery_limit",
                    &s.value,
                    &s.origin,
                    "a delivery limit applies to quorum queues only; add queue_type = \
                     \"quorum\" (--queue-type quorum) or drop it",
                ));
            }
            let limit = u32::try_from(s.value)
                .ok()
                .filter(|l| (1..=i32::MAX as u32).contains(l))
                .ok_or_else(|| {
                    invalid(
                        "delivery_limit",
                        &s.value,
                        &s.origin,
                        "allowed 1 to 2147483647 (0 or a negative limit makes RabbitMQ 3.x \
                         drop a message at its first requeue)",
                    )
                })?;
            Some(limit)
        }
    };

    let suffix =
        |picked: Option<Sourced<String>>, setting: &str, default: &str| -> Result<String> {
            match picked {
                None => Ok(default.to_owned()),
                Some(s) if s.value.is_empty() => Err(invalid(
                    setting,
                    &"\"\"",
                    &s.origin,
                    "it must not be empty (the queue names would collide)",
                )),
                Some(s) => Ok(s.value),
            }
        };
    let dead_suffix = suffix(
        pick!(dead_suffix, "--dead-suffix"),
        "dead_suffix",
        topology::DEFAULT_DEAD_SUFFIX,
    )?;
    let deferred_suffix = suffix(
        pick!(deferred_suffix, "--deferred-suffix"),
        "deferred_suffix",
        topology::DEFAULT_DEFERRED_SUFFIX,
    )?;
    if dead_suffix.starts_with(&format!("{deferred_suffix}.")) {
        return Err(Error::settings(format!(
            "dead_suffix {dead_suffix:?} starts with deferred_suffix {deferred_suffix:?} and a \
             dot for queue {name:?}: the dead-letter queue would read as a hold queue \
             ({{q}}{deferred_suffix}.{{ttl_ms}}); choose suffixes that do not overlap"
        )));
    }

    let granularity = |picked: Option<Sourced<String>>, setting: &str| -> Result<Duration> {
        let Some(s) = picked else {
            return Ok(Duration::from_secs(1));
        };
        let d = parse_duration(&s.value)
            .map_err(|e| Error::settings(format!("{setting} (from {}): {e}", s.origin)))?;
        // Like the library, a fraction of a millisecond rounds up to a whole one.
        let allowed = format!("allowed 1ms to {}", format_millis(MAX_DEFERRAL_MS));
        if d.is_zero() || d > Duration::from_millis(u64::from(MAX_DEFERRAL_MS)) {
            return Err(invalid(setting, &s.value, &s.origin, &allowed));
        }
        Ok(d)
    };
    let retry_granularity = granularity(
        pick!(retry_granularity, "--retry-granularity"),
        "retry_granularity",
    )?;
    let deferred_granularity = granularity(
        pick!(deferred_granularity, "--deferred-granularity"),
        "deferred_granularity",
    )?;

    let options = RabbitMqOptions {
        dead_suffix,
        deferred_suffix,
        retry_granularity,
        deferred_granularity,
    };
    validate_queue_name(name, &options)?;
    let unlisted = file.filter(|f| f.entry(name).is_none()).map(|f| Unlisted {
        file: f.path.clone(),
        near: crate::suggest::near(name, f.queues.iter().map(|(n, _)| n.as_str()), 3)
            .into_iter()
            .map(str::to_owned)
            .collect(),
    });
    Ok(QueueSettings {
        unlisted,
        name: name.to_owned(),
        config: QueueConfig {
            message_ttl,
            max_priority,
            queue_type,
            delivery_limit,
        },
        options,
    })
}

/// A logical queue name must make valid broker queue names for `q`, `q.dead` and every hold
/// queue: at most 255 bytes each, not empty, not in the broker's reserved `amq.` namespace.
pub fn validate_queue_name(name: &str, options: &RabbitMqOptions) -> Result<()> {
    if name.is_empty() {
        return Err(Error::settings(
            "invalid queue name \"\": it must not be empty",
        ));
    }
    if name.starts_with("amq.") {
        return Err(Error::settings(format!(
            "invalid queue name {name:?}: names starting with \"amq.\" are reserved by RabbitMQ \
             (it refuses them with 403 ACCESS_REFUSED)"
        )));
    }
    let longest_hold = topology::longest_deferred_queue_name(name, options);
    let dead = options.dead_queue(name);
    for (what, derived) in [
        ("", name),
        ("its dead-letter queue ", &dead),
        ("its longest hold queue ", &longest_hold),
    ] {
        if derived.len() > MAX_QUEUE_NAME_BYTES {
            return Err(Error::settings(format!(
                "invalid queue name {:?}: {what}name is {} bytes long, and AMQP allows at most \
                 {MAX_QUEUE_NAME_BYTES} (the longest derived name is {} bytes; keep the queue \
                 name to {} bytes)",
                truncate_for_message(name),
                derived.len(),
                longest_hold.len().max(dead.len()),
                MAX_QUEUE_NAME_BYTES
                    .saturating_sub(longest_hold.len().max(dead.len()) - name.len()),
            )));
        }
    }
    Ok(())
}

/// A queue name given with `--to`: what AMQP and RabbitMQ accept.
pub fn validate_target_queue(name: &str) -> Result<()> {
    if name.is_empty() || name.len() > MAX_QUEUE_NAME_BYTES {
        return Err(Error::settings(format!(
            "invalid --to {:?}: a queue name is 1 to {MAX_QUEUE_NAME_BYTES} bytes",
            truncate_for_message(name)
        )));
    }
    Ok(())
}

fn truncate_for_message(name: &str) -> String {
    if name.chars().count() > 40 {
        format!("{}…", name.chars().take(40).collect::<String>())
    } else {
        name.to_owned()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn flags() -> QueueSettingsArgs {
        QueueSettingsArgs::default()
    }

    fn file(text: &str) -> TopologyFile {
        TopologyFile::parse(text, Path::new("queuey.toml")).unwrap()
    }

    #[test]
    fn defaults_without_file() {
        let q = resolve_queue("orders", &flags(), None).unwrap();
        assert_eq!(q.config, QueueConfig::default());
        assert_eq!(
            q.config.max_priority,
            Some(10),
            "QueueConfig::new's ten levels"
        );
        assert_eq!(q.options, RabbitMqOptions::default());
    }

    #[test]
    fn max_priority_zero_is_no_priorities_and_quorum_has_none_by_default() {
        let off = |f: QueueSettingsArgs| resolve_queue("orders", &f, None).unwrap().config;
        assert_eq!(
            off(QueueSettingsArgs {
                max_priority: Some(0),
                ..flags()
            })
            .max_priority,
            None
        );
        let quorum = off(QueueSettingsArgs {
            queue_type: Some("quorum".into()),
            ..flags()
        });
        assert_eq!(quorum.max_priority, None);
        let q = resolve_queue(
            "orders",
            &flags(),
            Some(&file("[queues.orders]\nmax_priority = 0\n")),
        )
        .unwrap();
        assert_eq!(
            q.config.max_priority, None,
            "max_priority = 0 in queuey.toml"
        );
        // A TTL is whole milliseconds rounded up, as the library computes it; 0 declares 1 ms.
        for ttl in ["0s", "1500us"] {
            let c = off(QueueSettingsArgs {
                message_ttl: Some(ttl.into()),
                ..flags()
            });
            assert!(c.message_ttl.is_some(), "{ttl}");
        }
    }

    #[test]
    fn precedence_flags_over_entry_over_defaults() {
        let f = file(
            r#"
            [defaults]
            message_ttl = "1h"
            max_priority = 5
            [queues.orders]
            max_priority = 7
            "#,
        );
        let q = resolve_queue("orders", &flags(), Some(&f)).unwrap();
        assert_eq!(q.config.message_ttl, Some(Duration::from_secs(3600)));
        assert_eq!(q.config.max_priority, Some(7));
        let mut fl = flags();
        fl.max_priority = Some(9);
        let q = resolve_queue("orders", &fl, Some(&f)).unwrap();
        assert_eq!(q.config.max_priority, Some(9));
        let other = resolve_queue("other", &flags(), Some(&f)).unwrap();
        assert_eq!(other.config.max_priority, Some(5));
    }

    #[test]
    fn file_keeps_queue_order_and_refuses_unknown_keys() {
        let f = file("[queues.b]\n[queues.a]\n[queues.\"c d\"]\n");
        let names: Vec<_> = f.queues.iter().map(|(n, _)| n.as_str()).collect();
        assert_eq!(names, ["b", "a", "c d"]);
        for bad in [
            "[defaults]\nmessage_tll = \"1s\"\n",
            "[queues.a]\nfoo = 1\n",
            "[connection]\nurl = \"x\"\n",
            "[queues.a]\nmax_priority = \"high\"\n",
        ] {
            let err = TopologyFile::parse(bad, Path::new("queuey.toml")).unwrap_err();
            assert_eq!(err.kind, Kind::ConfigFile, "{bad}");
            assert!(err.message.contains("queuey.toml"), "{err}");
        }
        let err = TopologyFile::parse("[queues.a]\nfoo = 1\n", Path::new("q.toml")).unwrap_err();
        assert!(err.message.contains("foo"), "{err}");
    }

    fn refused(f: QueueSettingsArgs) -> String {
        let err = resolve_queue("orders", &f, None).unwrap_err();
        assert_eq!(err.kind, Kind::Settings);
        err.to_string()
    }

    #[test]
    fn refuses_bad_settings_naming_them() {
        for bad in [-1, 256] {
            let e = refused(QueueSettingsArgs {
                max_priority: Some(bad),
                ..flags()
            });
            assert!(
                e.contains("max_priority")
                    && e.contains("0 (no priorities) to 255")
                    && e.contains("--max-priority")
                    && e.contains(&bad.to_string()),
                "{e}"
            );
        }
        let e = refused(QueueSettingsArgs {
            message_ttl: Some("50d".into()),
            ..flags()
        });
        assert!(e.contains("MAX_TTL_MS"), "{e}");
        let e = refused(QueueSettingsArgs {
            retry_granularity: Some("0s".into()),
            ..flags()
        });
        assert!(e.contains("retry_granularity") && e.contains("1ms"), "{e}");
        let e = refused(QueueSettingsArgs {
            deferred_granularity: Some("25d".into()),
            ..flags()
        });
        assert!(
            e.contains("deferred_granularity") && e.contains("24d"),
            "{e}"
        );
        let e = refused(QueueSettingsArgs {
            queue_type: Some("quorum".into()),
            max_priority: Some(5),
            ..flags()
        });
        assert!(e.contains("quorum"), "{e}");
        let e = refused(QueueSettingsArgs {
            delivery_limit: Some(5),
            ..flags()
        });
        assert!(e.contains("quorum queues only"), "{e}");
        let e = refused(QueueSettingsArgs {
            queue_type: Some("quorum".into()),
            delivery_limit: Some(0),
            ..flags()
        });
        assert!(e.contains("1 to 2147483647"), "{e}");
        let e = refused(QueueSettingsArgs {
            dead_suffix: Some(String::new()),
            ..flags()
        });
        assert!(e.contains("dead_suffix"), "{e}");
        let e = refused(QueueSettingsArgs {
            message_ttl: Some("30".into()),
            ..flags()
        });
        assert!(e.contains("no unit"), "{e}");
    }

    #[test]
    fn refuses_bad_names() {
        let o = RabbitMqOptions::default();
        assert!(validate_queue_name("", &o).is_err());
        assert!(validate_queue_name("amq.foo", &o).is_err());
        assert!(validate_queue_name(&"x".repeat(256), &o).is_err());
        // q.deferred.2147483647 adds 20 bytes.
        assert!(validate_queue_name(&"x".repeat(236), &o).is_err());
        assert!(validate_queue_name(&"x".repeat(235), &o).is_ok());
        assert!(validate_queue_name("orders.eu west/ünï", &o).is_ok());
        let e = validate_queue_name(&"x".repeat(300), &o).unwrap_err();
        assert!(e.message.contains("235"), "{e}");
    }

    #[test]
    fn file_values_name_their_table() {
        let f = file("[queues.orders]\nmax_priority = 300\n");
        let e = resolve_queue("orders", &flags(), Some(&f)).unwrap_err();
        assert!(
            e.message.contains("[queues.\"orders\"] max_priority"),
            "{e}"
        );
    }
}
