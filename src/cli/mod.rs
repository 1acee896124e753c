//! The command line: clap definitions only, no I/O.
//!
//! Doc comments are the help text (and the man pages and completions, which the binary
//! generates from these definitions). Values the user types stay raw here (durations and
//! numbers as text) so that `settings` can validate flags and the topology file alike, with
//! errors that name the setting and its allowed range. Nothing past `settings` sees clap.

pub mod assets;
pub mod browse;
pub mod version;

use std::path::PathBuf;

use clap::parser::ValueSource;
use clap::{Args, CommandFactory, FromArgMatches, Parser, Subcommand, ValueEnum};

use crate::dead::decode::Cause;
use crate::dead::peek::QUORUM_AT_RISK;
use crate::dead::thresholds::UntimedRule;
use crate::error::ExitCode;

/// The end of `queuey --help` (and the man page): the exit codes, from [`ExitCode`], and the
/// environment.
pub fn after_long_help() -> String {
    format!(
        "Exit codes:\n{}\n{ENVIRONMENT_HELP}",
        ExitCode::help_table()
    )
}

const ENVIRONMENT_HELP: &str = "\
Environment:
  QUEUEY_URL       AMQP URL, or several separated by commas, tried in order
                   (default amqp://guest:guest@localhost:5672/%2f)
  QUEUEY_API_URL   management API URL(s) (default: each AMQP host, port 15672, same credentials)
  QUEUEY_CONFIG    topology file (default ./queuey.toml when present)
  QUEUEY_TLS_CA_CERT, QUEUEY_TLS_CERT, QUEUEY_TLS_KEY
                   PEM files: a private CA's certificate; a client certificate and its key";

/// The operator's command line for the RabbitMQ topology and dead letters of queuey job queues.
///
/// A logical queue `q` lives on the broker as the work queue `q`, its dead-letter queue
/// `q.dead`, and short-lived hold queues `q.deferred.{ttl_ms}` through which every retry and
/// delay waits.
#[derive(Debug, Parser)]
#[command(name = "queuey", version, long_version = version::long())]
#[command(after_long_help = after_long_help())]
#[command(propagate_version = true, max_term_width = 100)]
pub struct Cli {
    #[command(flatten)]
    pub global: GlobalArgs,

    #[command(subcommand)]
    pub command: Command,
}

impl Cli {
    /// Parses `args` (the program's name first) as the binary does, and keeps what the derive
    /// drops: which TLS settings were read from the environment, so that an error about one
    /// names where it came from.
    pub fn try_parse_sourced<I, T>(args: I) -> Result<Cli, clap::Error>
    where
        I: IntoIterator<Item = T>,
        T: Into<std::ffi::OsString> + Clone,
    {
        let matches = Cli::command().try_get_matches_from(args)?;
        let mut cli = Cli::from_arg_matches(&matches).map_err(|e| e.format(&mut Cli::command()))?;
        let from_env = |id: &str| matches.value_source(id) == Some(ValueSource::EnvVariable);
        cli.global.tls_from_env = TlsFromEnv {
            ca_cert: from_env("tls_ca_cert"),
            cert: from_env("tls_cert"),
            key: from_env("tls_key"),
        };
        Ok(cli)
    }
}

/// Which of the TLS files were named by their environment variable (`QUEUEY_TLS_*`).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct TlsFromEnv {
    pub ca_cert: bool,
    pub cert: bool,
    pub key: bool,
}

#[derive(Debug, Args)]
pub struct GlobalArgs {
    /// AMQP URL of the broker (several for a cluster's nodes)
    ///
    /// The vhost is its path (%2f is "/"). Repeat it, or separate URLs with commas, for the
    /// nodes of a cluster: the first that answers is used.
    #[arg(
        long,
        global = true,
        env = "QUEUEY_URL",
        hide_env_values = true,
        value_name = "URL",
        help_heading = "Connection"
    )]
    pub url: Vec<String>,

    /// Management API URL [default: from the AMQP URL]
    ///
    /// Repeatable or comma-separated like --url [default: each AMQP address's host, port 15672,
    /// same credentials, https for amqps].
    #[arg(
        long,
        global = true,
        env = "QUEUEY_API_URL",
        hide_env_values = true,
        value_name = "URL",
        help_heading = "Connection"
    )]
    pub api_url: Vec<String>,

    /// How long to wait for the broker to answer a connection
    #[arg(
        long,
        global = true,
        value_name = "DURATION",
        default_value = "10s",
        help_heading = "Connection",
        hide_short_help = true
    )]
    pub connect_timeout: String,

    /// Stop cleanly (exit 7) when the broker owes an answer this long
    ///
    /// An answer owed: a consume to start, a delivery from a queue that has messages ready, a
    /// publish confirmation, an ack taken, a purge (exit 7, with the counts; a rerun
    /// finishes). Default: wait (a quorum queue that lost its majority is said within seconds
    /// either way).
    #[arg(
        long,
        global = true,
        value_name = "DURATION",
        help_heading = "Connection",
        hide_short_help = true
    )]
    pub timeout: Option<String>,

    /// PEM file of a private CA that signed the broker's certificate
    ///
    /// For amqps:// and https://; trusted besides the system's roots.
    #[arg(
        long,
        global = true,
        env = "QUEUEY_TLS_CA_CERT",
        hide_env_values = true,
        hide_short_help = true,
        visible_alias = "tls-ca-cert-file",
        value_name = "FILE",
        help_heading = "TLS"
    )]
    pub tls_ca_cert: Option<PathBuf>,

    /// PEM file of a client certificate, for mutual TLS (with --tls-key)
    ///
    /// For a broker that requires mutual TLS; its key is --tls-key.
    #[arg(
        long,
        global = true,
        env = "QUEUEY_TLS_CERT",
        hide_env_values = true,
        hide_short_help = true,
        visible_alias = "tls-cert-file",
        value_name = "FILE",
        help_heading = "TLS"
    )]
    pub tls_cert: Option<PathBuf>,

    /// PEM file of the client certificate's private key (with --tls-cert)
    ///
    /// Unencrypted.
    #[arg(
        long,
        global = true,
        env = "QUEUEY_TLS_KEY",
        hide_env_values = true,
        hide_short_help = true,
        visible_alias = "tls-key-file",
        value_name = "FILE",
        help_heading = "TLS"
    )]
    pub tls_key: Option<PathBuf>,

    /// Which TLS values came from the environment rather than a flag (clap knows it; the
    /// derive drops it): filled by [`Cli::try_parse_sourced`].
    #[arg(skip)]
    pub tls_from_env: TlsFromEnv,

    /// Topology file [default: ./queuey.toml when present]
    #[arg(
        long,
        global = true,
        env = "QUEUEY_CONFIG",
        hide_env_values = true,
        value_name = "FILE",
        help_heading = "Topology file"
    )]
    pub config: Option<PathBuf>,

    /// Output format
    #[arg(
        long,
        short = 'o',
        global = true,
        value_enum,
        default_value_t = OutputFormat::Table,
        help_heading = "Output"
    )]
    pub output: OutputFormat,

    /// No progress bars and no notes on stderr
    #[arg(long, short = 'q', global = true, help_heading = "Output")]
    pub quiet: bool,

    /// Tables with every column and every value whole, however wide the terminal
    ///
    /// On a terminal a table is one line per row: the columns that matter least are hidden
    /// and long values cut with … to fit its width, and a note on stderr says so. --wide
    /// shows everything, as a pipe and -o json do.
    #[arg(long, global = true, help_heading = "Output")]
    pub wide: bool,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, ValueEnum)]
pub enum OutputFormat {
    /// A table sized to the terminal
    Table,
    /// JSON (one document; streams print one object per line)
    Json,
    /// Prometheus text format, for node_exporter's textfile collector (status, dead check)
    Prometheus,
}

// Built once per run and matched once: the size difference between variants costs nothing.
#[allow(clippy::large_enum_variant)]
#[derive(Debug, Subcommand)]
pub enum Command {
    /// Print the queues of a logical queue and their computed arguments (offline)
    ///
    /// No broker needed: prints q, q.dead and, for each --delay or --defer, the hold queue that
    /// delay lands in, with the arguments queuey computes for each.
    Args(ArgsArgs),

    /// Create q and q.dead with their computed arguments (idempotent)
    ///
    /// For each logical queue, first checks that the user may declare q and q.dead (the
    /// configure permission; refused: exit 5, nothing created), then reads the live queues
    /// (management API; without it, AMQP: a passive declare, then a declare with the computed
    /// arguments, which the broker accepts only when the queue is equivalent). Missing queues are created durable with the computed
    /// arguments (quorum when configured); queues already in sync are left as they are. A queue
    /// that exists with other arguments is never redeclared: queuey shows the diff, changes
    /// nothing for that logical queue, explains the options (a policy, or drain, delete and
    /// redeclare) and exits 1. Hold queues are created on demand by the application.
    ///
    /// With --dry-run nothing is changed and nothing is declared, not even to probe (a read-only
    /// user can run it): the plan is printed (create, in sync or drift per queue; without the
    /// API an existing queue is "exists, not checked") and the exit code is the one declare
    /// would give (0, or 1 for drift).
    Declare(DeclareArgs),

    /// Compare the live topology with the computed one, changing nothing (a CI gate)
    ///
    /// Checks q and q.dead (create, in sync or drift, with a diff of every argument, durable,
    /// auto_delete, exclusive and the queue type) and the live hold queues of q: drift when a
    /// hold queue's arguments differ from those its name implies, when it has consumers, or
    /// when its name carries the deferred infix but no valid TTL. Policies applied to a queue
    /// are shown, and are drift only where they cost dead letters: a policy or operator policy
    /// giving q.dead a message TTL, expires, a max length (messages or bytes), a dead-letter
    /// exchange or (quorum) a delivery limit, named with what it does to the dead letters (the
    /// same for such arguments declared on q.dead). Exit 0 when everything exists and is in
    /// sync, 1 otherwise (a missing queue is not in sync), 2 and up for errors. Each drift comes
    /// with the operator's options on stderr, with commands to paste.
    ///
    /// Reads live state through the management API and never declares a hold queue (a passive
    /// declare would renew an idle hold queue's x-expires lease). A user with read permission
    /// and the monitoring tag is enough. Without the API (off, or the user has no tag) it falls
    /// back to AMQP and says so: a passive declare sees whether q and q.dead exist, but not
    /// their arguments (verify never declares to probe them), so an existing queue is "exists,
    /// not checked" and verify exits 6.
    Verify(VerifyArgs),

    /// Hold queues (q.deferred.{ttl_ms}): list the live ones, prune the idle ones
    #[command(subcommand)]
    Holds(HoldsCommand),

    /// One screen per logical queue: depth, consumers, dead letters, hold queues, drift
    ///
    /// Shows q's messages and consumers, q.dead's messages, how many hold queues q has and how
    /// many messages wait in them, and whether the topology has drifted (as verify decides).
    /// Counts the broker has not reported yet (a few seconds after a declare) show as unknown.
    /// Exits 0 whatever it finds; use verify as a gate, and dead check for dead letters.
    ///
    /// With -o prometheus: gauges for node_exporter's textfile collector, labelled vhost and
    /// queue: q's ready messages and consumers, q.dead's dead letters, the hold queues and
    /// their messages, drift (0 or 1); with --scan (a peek of each classic q.dead, every
    /// message returned in place) the dead letters by cause and the age of the oldest (no
    /// sample when it cannot be known exactly; an at-least gauge beside it).
    Status(StatusArgs),

    /// Inspect, export, replay and purge the dead letters of a logical queue (its q.dead)
    #[command(subcommand)]
    Dead(DeadCommand),

    /// Check that the broker answers over AMQP and over the management API
    ///
    /// Connects over AMQP (URL, credentials, vhost) and asks the management API for the
    /// broker's version and node. Exits non-zero, with the reason and the fix, when either fails.
    Ping,

    /// Print a shell completion script to stdout
    Completions {
        /// The shell to complete for
        #[arg(value_enum)]
        shell: clap_complete::Shell,
    },

    /// Write the completions and man pages into DIR/completions and DIR/man
    #[command(hide = true)]
    GenerateAssets {
        /// The directory that holds completions/ and man/ (the repository root)
        dir: PathBuf,
    },
}

#[derive(Debug, Subcommand)]
pub enum DeadCommand {
    /// List the dead letters in q.dead without removing any
    ///
    /// Peeks at q.dead: every message stays, in its order (only its redelivered flag changes).
    /// Shows, per message, its position, message id, job type (from the queuey envelope in the
    /// body), original queue, attempts, cause of death, x-death history, age, size and a body
    /// preview; `dead show` and `-o json` give the whole reason. --group-by counts over the
    /// whole queue instead, keeping no bodies.
    Ls(DeadLsArgs),

    /// Show one dead letter whole: properties, every header with its type, x-death, the body
    ///
    /// The body is pretty-printed when it is JSON, shown as text when it is UTF-8, and as a hex
    /// dump otherwise. Everything from the broker is escaped for the terminal.
    Show(DeadShowArgs),

    /// Write dead letters as JSON lines, losslessly, without removing any
    ///
    /// One object per message: every property, headers with their AMQP types (nested arrays,
    /// tables and timestamps included), the body in base64, and what queuey decoded. `dead
    /// replay --from-file` reads it back.
    Export(DeadExportArgs),

    /// Move dead letters back to their original queue (or --to), losing none
    ///
    /// Each copy is published with publisher confirms and `mandatory`; the dead letter is acked
    /// only once its copy is confirmed and was routed. A copy nothing takes (no such queue)
    /// leaves the dead letter in q.dead and is reported. Messages that do not match the filters
    /// stay in q.dead in their order. A run reads at most what q.dead held when it began, and
    /// never replays its own copies again. Ctrl-C, SIGTERM and SIGHUP stop it cleanly: what is
    /// in flight is settled, the rest stays in q.dead, and queuey exits 130.
    ///
    /// Copies published and not yet acked never exceed --window. A ledger (see --journal)
    /// records each copy before it is published and again once it is confirmed, so that a
    /// rerun after a failure loses nothing: a dead letter leaves q.dead without a new copy
    /// only when the ledger proves its copy exists; where it cannot, the rerun copies again
    /// and counts the possible duplicates (--look-in-targets looks for the copies whose
    /// confirmation never came). When the broker blocks publishing (a memory
    /// or disk alarm) queuey says so, and that it resumed; --blocked-timeout stops instead of
    /// waiting.
    ///
    /// A replayed job gets its retries back: in a body that is a queuey envelope, `attempt` is
    /// set to 1 (every other byte stays as it was) and the x-attempt header says 1, unless
    /// --keep-attempts. Other bodies are copied unchanged.
    ///
    /// Before anything, --dry-run included, queuey checks that the user may publish (the write
    /// permission on the default exchange, amq.default) with an empty mandatory message to a
    /// routing key no queue has, which the broker returns; refused: exit 5. Reading q.dead
    /// needs the read permission.
    Replay(DeadReplayArgs),

    /// Delete dead letters: the whole q.dead, or those matching the filters
    ///
    /// Asks for confirmation on a terminal (with the count and the queue); --yes for scripts.
    /// Without a terminal and without --yes it refuses (exit 2). Answering anything but y or
    /// yes removes nothing and exits 9 (declined), so that a wrapper can tell a purge (0) from
    /// a refusal. --archive writes every removed message in the export format (flushed to
    /// disk) before it is removed; after a failure, the same command with the same --archive
    /// appends to that unfinished archive without writing twice what it holds. Ctrl-C, SIGTERM
    /// and SIGHUP stop it cleanly (exit 130).
    ///
    /// Permissions: RabbitMQ lets a user with only the read permission on q.dead purge it,
    /// whole (queue.purge) or message by message (consume and ack): a "read-only" user can
    /// delete dead letters. No configure or write permission is needed.
    Purge(DeadPurgeArgs),

    /// Exit 1 when dead letters cross a threshold: a gate for cron, CI and monitoring
    ///
    /// For each logical queue: --max-count (dead letters in q.dead, matching the filters),
    /// --max-age (the oldest of all the dead letters, read with a peek of the whole q.dead
    /// that returns every message in place; each one's age since its death where a death
    /// time is known, else since its job was enqueued) and --max-rate (dead letters arriving
    /// per second, from the management API's statistics). A threshold holds at its limit and
    /// is crossed above it. Exit 0 when every threshold holds, 1 when one is crossed, 11 when
    /// none is crossed but one could not be judged, 2 to 10 for errors (as verify). The table
    /// and the JSON name each threshold, its value and its limit.
    ///
    /// A value queuey cannot measure is UNKNOWN, never guessed and never "holds": a quorum
    /// q.dead with a delivery limit (every one from RabbitMQ 4.0) is never peeked without
    /// --spend-delivery-budget, dead letters other consumers hold are not counted exactly, and a dead letter with neither a
    /// death time nor an envelope has no age (one that is older than the limit still crosses
    /// it; each is named, and --untimed ignore judges the others, --untimed fail crosses on
    /// them). With filters, the count
    /// and the age are those of the matching dead letters, read by the same whole peek.
    Check(DeadCheckArgs),

    /// Repair one dead letter and retry it: edit its body, publish it back, losing nothing
    ///
    /// Opens $VISUAL (else $EDITOR) on the body as pretty JSON, or applies --set POINTER=VALUE
    /// (RFC 6901, as --where) without an editor. Only what is set changes: every other byte of
    /// the body stays as written (numbers, escapes, key order). The edit must still parse, and
    /// a queuey envelope must stay one by the library's rules (else queuey names the field and
    /// refuses, exit 2, or on a terminal offers to edit again); an unchanged body changes
    /// nothing (exit 9). The job's attempt is set back to 1, as dead replay does (body and
    /// x-attempt), unless the edit sets it.
    /// queuey shows the diff and asks (--yes for scripts; without a terminal and without --yes
    /// it refuses, exit 2), then: (1) writes the original to an archive (the export format,
    /// flushed to disk), (2) publishes the edited copy to its original queue, confirmed and
    /// mandatory, (3) only then acks the original. Until (3) the original is held unacked, so a
    /// crash at any point leaves it in q.dead (and maybe the copy in its queue too), never
    /// neither.
    Edit(DeadEditArgs),

    /// Browse the dead letters on a full-screen terminal: list, groups, each one whole
    ///
    /// Takes a snapshot of q.dead with the look of `dead ls` (every message returned in place,
    /// the connection closed once it is read: the open screen holds nothing), at most --limit
    /// from the head. A list of the dead letters, their counts by cause, job type or origin,
    /// and the selected one whole as `dead show` shows it. `/` filters with the filter flags of
    /// `dead ls`, and shows that command line. Replay, purge, export and edit act on the marked
    /// dead letters (by message id) or on the filter by running that same command of queuey,
    /// its --dry-run first. `r` takes a new snapshot; `?` lists the keys. Needs a terminal
    /// (else exit 2: use `dead ls`).
    Browse(browse::DeadBrowseArgs),
}

#[derive(Debug, Args)]
pub struct DeadEditArgs {
    #[command(flatten)]
    pub queue: DeadQueueArg,

    /// Position in q.dead, 1 being the head (as `dead ls` shows it)
    #[arg(value_name = "POSITION", required_unless_present = "message_id")]
    pub position: Option<u64>,

    /// The first message with this message id instead of a position
    #[arg(long, value_name = "ID", conflicts_with = "position")]
    pub message_id: Option<String>,

    /// Set the JSON value at a JSON Pointer instead of opening an editor
    ///
    /// VALUE is JSON when it parses, else a string; given several times, applied in order, as
    /// in --set /payload/address="1 Main St".
    #[arg(long, value_name = "POINTER=VALUE")]
    pub set: Vec<String>,

    /// Append the original to FILE (export format) before anything is published
    ///
    /// [default: a new file in $XDG_STATE_HOME/queuey/edits, else ~/.local/state/queuey/edits]
    #[arg(long, value_name = "FILE")]
    pub archive: Option<PathBuf>,

    /// Do not ask for confirmation (for scripts)
    #[arg(long, short = 'y')]
    pub yes: bool,

    /// Publish into a full drop-head target, or one whose limits cannot be read
    ///
    /// The edited copy goes into a full target whose overflow is drop-head (RabbitMQ's
    /// default), or into one whose length limits cannot be read (no management API, a policy
    /// queuey cannot evaluate), even though it may push out that queue's oldest message.
    /// Without it the original stays.
    #[arg(long)]
    pub allow_drop_head: bool,

    #[command(flatten)]
    pub peek: PeekArgs,

    #[command(flatten)]
    pub settings: QueueNamesArgs,
}

#[derive(Debug, Args)]
pub struct DeadCheckArgs {
    #[command(flatten)]
    pub selection: QueueSelection,

    /// Crossed when q.dead holds more than N dead letters (matching the filters)
    #[arg(long, value_name = "N")]
    pub max_count: Option<u64>,

    /// Crossed when the oldest dead letter is older than this (e.g. 1h); reads q.dead whole
    #[arg(long, value_name = "DURATION", allow_hyphen_values = true)]
    pub max_age: Option<String>,

    /// Crossed when dead letters arrive faster than this (e.g. 0.5 or 0.5/s), by the
    /// management API's statistics
    #[arg(long, value_name = "N/s")]
    pub max_rate: Option<String>,

    /// What --max-age makes of dead letters with no time at all (no x-death, timestamp or
    /// envelope; each is named): unknown (exit 11 unless crossed anyway), ignore (judge the
    /// others), fail (crossed while any is there)
    #[arg(long, value_name = "RULE", default_value = "unknown",
        value_parser = clap::builder::PossibleValuesParser::new(UntimedRule::ALL.map(UntimedRule::as_str)))]
    pub untimed: String,

    #[command(flatten)]
    pub filters: FilterArgs,

    #[command(flatten)]
    pub peek: PeekArgs,

    #[command(flatten)]
    pub settings: QueueNamesArgs,
}

/// The logical queue whose q.dead a dead-letter command reads.
#[derive(Debug, Args)]
pub struct DeadQueueArg {
    /// Logical queue name (q; queuey reads q.dead)
    #[arg(value_name = "QUEUE")]
    pub queue: String,
}

/// Which dead letters a command acts on. Different filters combine with AND; a filter given
/// several times matches any of its values (OR), `--header` included.
#[derive(Debug, Default, Args)]
#[command(
    next_help_heading = "Filters (AND across filters; a filter given several times: any of its values)"
)]
pub struct FilterArgs {
    /// Why it died: exhausted, fatal, no-handler, decode, malformed, rejected, expired, maxlen,
    /// delivery_limit, other
    ///
    /// In one word: exhausted, fatal, no-handler, decode and malformed are the queuey
    /// library's reasons, rejected, expired, maxlen and delivery_limit the broker's.
    #[arg(long, value_name = "CAUSE", hide_possible_values = true,
        value_parser = clap::builder::PossibleValuesParser::new(Cause::ALL.map(Cause::as_str)))]
    pub cause: Vec<String>,

    /// Death reason, the whole text
    ///
    /// x-death-reason, else the newest x-death reason.
    #[arg(long, value_name = "REASON")]
    pub reason: Vec<String>,

    /// Job type (the envelope's job_type)
    #[arg(long, value_name = "TYPE")]
    pub job_type: Vec<String>,

    /// Original queue
    ///
    /// x-original-queue, else the envelope's queue, else from x-death, else q.
    #[arg(long, value_name = "QUEUE")]
    pub original_queue: Vec<String>,

    /// Attempts: N, N.., ..N or N..M (inclusive)
    ///
    /// x-attempts, else the envelope's attempt.
    #[arg(long, value_name = "RANGE")]
    pub attempts: Option<String>,

    /// Died longer ago than this (e.g. 7d)
    ///
    /// Without a death time (x-death or the timestamp property; an application's dead letter
    /// has neither), the time since the job was enqueued counts: never less than the time
    /// since it died, and much more for a job replayed and dead again (dead purge keeps those
    /// unless --age-from-enqueued).
    #[arg(long, value_name = "DURATION", allow_hyphen_values = true)]
    pub older_than: Option<String>,

    /// Died more recently than this (e.g. 1h)
    ///
    /// The same age as --older-than.
    #[arg(long, value_name = "DURATION", allow_hyphen_values = true)]
    pub newer_than: Option<String>,

    /// A header's value or presence: NAME=TEXT, NAME:=KEY or NAME
    ///
    /// Given several times, any of them (OR), like every filter: --header tenant=acme --header
    /// tenant=globex matches both tenants. NAME=TEXT: a string of exactly TEXT, or a number or
    /// boolean written so. NAME:=KEY: exactly one typed value, as --group-by header:NAME shows
    /// it ("\xff" for the byte 0xff, i32:5). NAME: present.
    #[arg(long, value_name = "NAME[=TEXT|:=KEY]")]
    pub header: Vec<String>,

    /// Message id (the message_id property)
    #[arg(long, value_name = "ID")]
    pub message_id: Vec<String>,

    /// The JSON body at a JSON Pointer equals VALUE, or is there
    ///
    /// A JSON Pointer is RFC 6901's. POINTER=VALUE: VALUE is read as JSON when it parses, else
    /// as a string; numbers by value. POINTER alone: it is there. As in --where
    /// /payload/customer/id=42. A body that is not JSON never matches.
    #[arg(long = "where", value_name = "POINTER[=VALUE]")]
    pub where_: Vec<String>,

    /// The raw body contains TEXT (bytes as stored, case-sensitive)
    #[arg(long, value_name = "TEXT")]
    pub body_contains: Vec<String>,
}

/// How a peek may treat the queue.
#[derive(Debug, Default, Args)]
#[command(next_help_heading = "Peeking")]
pub struct PeekArgs {
    /// Peek a quorum q.dead even though each peek spends a delivery of every message
    ///
    /// Each peek spends one delivery of every message before RabbitMQ 4.3; a message on its
    /// last delivery is moved to the back instead. On every version a crash of queuey or of
    /// its connection spends one delivery of each message held, and could lose only the
    /// messages on their last delivery that have arrived and are not yet moved: at most
    /// --quorum-at-risk, or --window if smaller.
    #[arg(long, hide_short_help = true)]
    pub spend_delivery_budget: bool,

    /// On a quorum q.dead: the most messages a crash could lose
    ///
    /// On a quorum q.dead with a delivery limit: the most messages on their last delivery that
    /// a crash of queuey or of its connection could lose (those arrived and not yet moved).
    /// The queue is read in rounds of half as many (the default's, 1024, about the prefetch of
    /// the management UI's shovel); smaller rounds are slower (a replay at 256 ran at about
    /// 0.8x the speed of one at 2048: docs/benchmarks.md).
    #[arg(long, value_name = "N", default_value_t = QUORUM_AT_RISK, hide_short_help = true)]
    pub quorum_at_risk: u16,

    /// Without the management API, treat q.dead as a classic queue
    ///
    /// As queuey declares it.
    #[arg(long, hide_short_help = true)]
    pub assume_classic: bool,

    /// Messages in flight at most, per stage
    ///
    /// Read ahead from q.dead, and in a replay the copies published but not yet acked, so
    /// copies confirmed but not yet acked never exceed the window (memory stays bounded by
    /// it, and by 64 MiB of bodies).
    #[arg(long, value_name = "N", default_value_t = PeekArgs::DEFAULT_WINDOW, hide_short_help = true)]
    pub window: u16,

    /// Read a quorum q.dead where a message queuey cannot parse was met
    ///
    /// A quorum q.dead where an earlier run on this machine met a message queuey cannot parse
    /// (a header name or property that is not UTF-8), which queuey refuses by itself: each
    /// read that meets it again closes its connection, and spends one delivery of every
    /// message it holds. A read that gets past it, or reads the whole queue, forgets it.
    #[arg(long, hide_short_help = true)]
    pub retry_unreadable: bool,
}

impl PeekArgs {
    /// `--window`'s default.
    pub const DEFAULT_WINDOW: u16 = 4000;
}

#[derive(Debug, Args)]
pub struct DeadLsArgs {
    #[command(flatten)]
    pub queue: DeadQueueArg,

    /// Show at most N messages (0: all)
    #[arg(long, value_name = "N", default_value_t = 50)]
    pub limit: u64,

    /// Count by KEY over the whole queue instead of listing (cause, reason, ...)
    ///
    /// Keys: cause, reason, job-type, original-queue, attempts, first-death-queue,
    /// first-death-reason, content-type, header:NAME (by typed value: a string as its text,
    /// quoted when it could read as anything else, e.g. "\xff" for the byte 0xff; other types
    /// named, e.g. i32:5).
    #[arg(long, value_name = "KEY")]
    pub group_by: Vec<String>,

    #[command(flatten)]
    pub filters: FilterArgs,

    #[command(flatten)]
    pub peek: PeekArgs,

    #[command(flatten)]
    pub settings: QueueNamesArgs,
}

#[derive(Debug, Args)]
pub struct DeadShowArgs {
    #[command(flatten)]
    pub queue: DeadQueueArg,

    /// Position in q.dead, 1 being the head (as `dead ls` shows it)
    #[arg(value_name = "POSITION", required_unless_present = "message_id")]
    pub position: Option<u64>,

    /// The first message with this message id instead of a position
    #[arg(long, value_name = "ID", conflicts_with = "position")]
    pub message_id: Option<String>,

    /// The whole body on a terminal too
    ///
    /// On a terminal a body longer than a screen is cut after its first screenful, with its
    /// size and the ways to see it all; a pipe gets it whole (`queuey dead show q 1 | less`),
    /// and `dead export` writes it losslessly.
    #[arg(long)]
    pub full: bool,

    #[command(flatten)]
    pub peek: PeekArgs,

    #[command(flatten)]
    pub settings: QueueNamesArgs,
}

#[derive(Debug, Args)]
pub struct DeadExportArgs {
    #[command(flatten)]
    pub queue: DeadQueueArg,

    /// Write to FILE instead of standard output
    #[arg(long, value_name = "FILE")]
    pub output_file: Option<PathBuf>,

    /// Export at most N matching messages (0: all)
    #[arg(long, value_name = "N", default_value_t = 0)]
    pub limit: u64,

    #[command(flatten)]
    pub filters: FilterArgs,

    #[command(flatten)]
    pub peek: PeekArgs,

    #[command(flatten)]
    pub settings: QueueNamesArgs,
}

#[derive(Debug, Args)]
pub struct DeadReplayArgs {
    #[command(flatten)]
    pub queue: DeadQueueArg,

    /// Send every replayed message to this queue instead of its original queue
    ///
    /// With --from-file, q.dead itself restores the file's dead letters as they were (death
    /// record and attempts kept): a purge undone from its archive.
    #[arg(long, value_name = "QUEUE")]
    pub to: Option<String>,

    /// Print what would go where (counts per target queue) and move nothing
    #[arg(long)]
    pub dry_run: bool,

    /// Replay at most N matching messages (0: all)
    #[arg(long, value_name = "N", default_value_t = 0)]
    pub limit: u64,

    /// Publish at most N messages per second (e.g. 500 or 500/s)
    #[arg(long, value_name = "N/s")]
    pub rate: Option<String>,

    /// Replay the dead letters of an export file instead of q.dead
    ///
    /// A file of `dead export` or `dead purge --archive`; nothing is removed from it. A run
    /// that fails keeps a journal of the lines it copied, so that its rerun goes on without
    /// copying them again. A file whose end line is missing or says its run stopped early is
    /// read, and said incomplete; a last line cut short by a crash is left out, with a note.
    #[arg(long, value_name = "FILE")]
    pub from_file: Option<PathBuf>,

    /// Copy each body unchanged: a job comes back on the attempt it died on
    ///
    /// By default its envelope's attempt is set to 1, so it gets its full retries back.
    #[arg(long)]
    pub keep_attempts: bool,

    /// Publish the copies without the `user_id` property
    ///
    /// RabbitMQ takes a message whose user_id is not the connection's user only from a user
    /// with the impersonator tag; without this flag, a dead letter carrying another user's
    /// user_id stays in q.dead (or its line in the file), counted as failed with that user
    /// named.
    #[arg(long)]
    pub strip_user_id: bool,

    /// Publish into a full drop-head target, or one whose limits cannot be read
    ///
    /// Copies go into a full target whose overflow is drop-head (RabbitMQ's default), or into
    /// one whose length limits cannot be read (no management API, a policy queuey cannot
    /// evaluate), even though each one may push out that queue's oldest message
    /// (dead-lettered or dropped, as the queue says). Without it such copies are not published
    /// and their dead letters stay.
    #[arg(long)]
    pub allow_drop_head: bool,

    /// The replay's ledger, which a rerun reads [default: in $XDG_STATE_HOME/queuey]
    ///
    /// Each copy is recorded here before it is published ("in doubt") and again once
    /// confirmed, before its dead letter is acked: a SHA-256 digest of the dead letter's
    /// properties and body, the target queue, the run id and the copy's number, flushed to
    /// disk. A rerun after a crash or a lost connection reads it first. A dead letter leaves
    /// q.dead without a new copy only when the ledger proves its copy exists and that no dead
    /// letter of its content was acked for it (a copy in doubt found by --look-in-targets);
    /// every other dead letter is copied, and those an unfinished run may have copied already
    /// (an ack sent when it failed, a copy in doubt not looked for) are counted as possible
    /// duplicates. Deleted when a run ends cleanly. Default: $XDG_STATE_HOME/queuey (else
    /// ~/.local/state/queuey), one file per broker, vhost and queue, readable by its owner
    /// alone.
    #[arg(long, value_name = "FILE", hide_short_help = true)]
    pub journal: Option<PathBuf>,

    /// On a rerun, look in the targets for the copies in doubt of an unfinished run
    ///
    /// The copies an unfinished run published and never saw confirmed may be in their targets
    /// or not; with this flag the dead letters of those found there are not copied again.
    /// Each such target is read from head to tail once, by the peek of `dead ls` (every job
    /// held, then returned in place: the workers wait meanwhile, and each job is marked
    /// redelivered; on a quorum queue from RabbitMQ 4.3 each gets x-acquired-count), and only
    /// when it has no consumer and a return spends no delivery; queuey says how many jobs it
    /// reads before it reads them. Without this flag those dead letters are copied again: each
    /// may then be in its target twice, and the summary counts and names them.
    #[arg(long)]
    pub look_in_targets: bool,

    /// Put the jobs back after this delay (e.g. 5s, 8h), through a hold queue
    ///
    /// The copies go to the hold queue the queuey library uses for that delay
    /// (q.deferred.{ttl_ms}, declared with the library's arguments, the delay rounded up with
    /// the retry granularity), and the broker returns them to their queue when it has passed;
    /// no process stays running. At most 24d20h31m23s647ms.
    #[arg(long, value_name = "DURATION", allow_hyphen_values = true)]
    pub after: Option<String>,

    /// Stop (exit 7) when the broker has blocked publishing this long
    ///
    /// Stop cleanly when the broker has blocked publishing (a memory or disk alarm) for this
    /// long, instead of waiting for the alarm to clear (e.g. 30s; default: wait).
    #[arg(
        long,
        value_name = "DURATION",
        allow_hyphen_values = true,
        hide_short_help = true
    )]
    pub blocked_timeout: Option<String>,

    /// Publish the copies over N channels (1 to 16), at the cost of order
    ///
    /// Whole batches in turn: for a broker whose channel processes are the limit (idle cores),
    /// at the cost of order: copies bound for one queue no longer arrive in q.dead's order
    /// (each lands at most the copies in flight away from its place). 1 keeps the order.
    #[arg(long, value_name = "N", default_value_t = 1, hide_short_help = true)]
    pub channels: u8,

    #[command(flatten)]
    pub filters: FilterArgs,

    #[command(flatten)]
    pub peek: PeekArgs,

    #[command(flatten)]
    pub settings: QueueNamesArgs,
}

#[derive(Debug, Args)]
pub struct DeadPurgeArgs {
    #[command(flatten)]
    pub queue: DeadQueueArg,

    /// Do not ask for confirmation (for scripts)
    #[arg(long, short = 'y')]
    pub yes: bool,

    /// Count what would be removed and remove nothing
    #[arg(long)]
    pub dry_run: bool,

    /// Write every removed message to FILE (export format) before removing it
    #[arg(long, value_name = "FILE")]
    pub archive: Option<PathBuf>,

    /// Let --older-than remove dead letters without a death time by their enqueue time
    ///
    /// Without it they are kept, and counted: an application's dead letter has no death time,
    /// and a job replayed and dead again a minute ago looks as old as its first enqueue.
    #[arg(long, requires = "older_than")]
    pub age_from_enqueued: bool,

    #[command(flatten)]
    pub filters: FilterArgs,

    #[command(flatten)]
    pub peek: PeekArgs,

    #[command(flatten)]
    pub settings: QueueNamesArgs,
}

/// Which logical queues a command acts on.
#[derive(Debug, Args)]
pub struct QueueSelection {
    /// Logical queue names (the work queue q, not q.dead)
    #[arg(value_name = "QUEUE", required_unless_present = "all")]
    pub queues: Vec<String>,

    /// Every queue in the topology file
    #[arg(long, conflicts_with = "queues")]
    pub all: bool,
}

/// Settings of a logical queue. Each overrides the topology file's value.
#[derive(Debug, Default, Args)]
#[command(next_help_heading = "Queue settings (override the topology file)")]
pub struct QueueSettingsArgs {
    /// Message TTL of q (x-message-ttl), e.g. 1h or 30s
    ///
    /// Queue-wide; at most 49d17h2m47s295ms.
    #[arg(long, value_name = "DURATION", allow_hyphen_values = true)]
    pub message_ttl: Option<String>,

    /// Priority levels of q (x-max-priority), 0 (none) to 255 [default: 10]
    ///
    /// Classic queues only. [default: 10, as the queuey library's QueueConfig::new; none for a
    /// quorum q]
    #[arg(long, value_name = "N", allow_negative_numbers = true)]
    pub max_priority: Option<i64>,

    /// Queue type of q
    #[arg(long, value_name = "TYPE", value_parser = ["classic", "quorum"])]
    pub queue_type: Option<String>,

    /// Deliveries a message of a quorum q may take before q.dead
    ///
    /// After that many deliveries the broker dead-letters it to q.dead.
    #[arg(long, value_name = "N", allow_negative_numbers = true)]
    pub delivery_limit: Option<i64>,

    /// Suffix naming the dead-letter queue [default: .dead]
    #[arg(long, value_name = "SUFFIX")]
    pub dead_suffix: Option<String>,

    /// Infix between q and a hold queue's TTL [default: .deferred]
    ///
    /// Hold queues are q + INFIX + "." + TTL in ms [default: .deferred].
    #[arg(long, value_name = "INFIX")]
    pub deferred_suffix: Option<String>,

    /// Rounding step of retry and delayed-enqueue delays [default: 1s]
    #[arg(long, value_name = "DURATION", allow_hyphen_values = true)]
    pub retry_granularity: Option<String>,

    /// Rounding step of deferral delays [default: 1s]
    #[arg(long, value_name = "DURATION", allow_hyphen_values = true)]
    pub deferred_granularity: Option<String>,
}

/// The two settings that name a logical queue's broker queues: all that the commands which
/// only read or move messages (`dead ...`) use.
#[derive(Debug, Default, Args)]
#[command(next_help_heading = "Queue names (override the topology file)")]
pub struct QueueNamesArgs {
    /// Suffix naming the dead-letter queue [default: .dead]
    #[arg(long, value_name = "SUFFIX", hide_short_help = true)]
    pub dead_suffix: Option<String>,

    /// Infix between q and a hold queue's TTL [default: .deferred]
    ///
    /// Hold queues are q + INFIX + "." + TTL in ms [default: .deferred].
    #[arg(long, value_name = "INFIX", hide_short_help = true)]
    pub deferred_suffix: Option<String>,
}

#[derive(Debug, Args)]
pub struct DeclareArgs {
    #[command(flatten)]
    pub selection: QueueSelection,

    /// Change nothing: print the plan (create, in sync or drift per queue)
    #[arg(long)]
    pub dry_run: bool,

    /// Create queues the topology file does not list, with its [defaults]
    ///
    /// Without this flag, a name missing from the file is refused: it is usually a typo.
    #[arg(long)]
    pub allow_unlisted: bool,

    #[command(flatten)]
    pub settings: QueueSettingsArgs,
}

#[derive(Debug, Args)]
pub struct VerifyArgs {
    #[command(flatten)]
    pub selection: QueueSelection,

    #[command(flatten)]
    pub settings: QueueSettingsArgs,
}

#[derive(Debug, Args)]
pub struct StatusArgs {
    #[command(flatten)]
    pub selection: QueueSelection,

    /// Also read q.dead whole for its dead letters by cause and its oldest
    ///
    /// A peek that returns every message, for the dead letters by cause and the age of the
    /// oldest; not a quorum q.dead with a delivery limit, as every one has from RabbitMQ 4.0:
    /// status never peeks one.
    #[arg(long)]
    pub scan: bool,

    #[command(flatten)]
    pub settings: QueueSettingsArgs,
}

#[derive(Debug, Subcommand)]
pub enum HoldsCommand {
    /// List the live hold queues of q, sorted by delay, with totals (management API)
    ///
    /// Exactly the queues named q + deferred suffix + a TTL in milliseconds: not those of
    /// another queue sharing the prefix, not q.dead. For each: the delay, messages waiting,
    /// consumers (a hold queue should have none), whether its arguments match its name, when
    /// it went idle and when x-expires deletes it if it stays idle. Names that carry the
    /// deferred infix but no valid TTL are listed apart as "not a hold queue (bad name)"; a
    /// queue another logical queue of the topology file owns is not q's, and not listed. Needs
    /// the management API (exit 6 without it). Takes the queue settings of status, verify and
    /// holds prune, so that one set of flags pastes into each; only the suffixes change which
    /// queues are listed.
    Ls(HoldsLsArgs),

    /// Delete the hold queues of q that are empty and unused, losing nothing to a race
    ///
    /// Each delete is a queue.delete with if-empty and if-unused: the broker itself refuses to
    /// delete a hold queue that got a message or a consumer since queuey looked, and such a
    /// queue is kept and reported. Hold queues are created on demand by the application and
    /// expire on their own when idle (x-expires); prune removes the ones a change of delays
    /// left behind now. --unlisted keeps the delays the topology file lists (delays = [...],
    /// deferrals = [...]); --drift prunes only those whose arguments differ from their name's;
    /// both: either. Only what is certainly a hold queue of q is ever deleted: never a queue
    /// another logical queue of the topology owns (q.deferred.5000 listed as a queue of its
    /// own), nor one without an x-message-ttl and dead-lettering back to q. A quorum hold
    /// queue is never deleted (RabbitMQ refuses if-empty deletes of quorum queues). Asks for confirmation on a terminal, as dead purge (--yes for
    /// scripts; declined: exit 9); --dry-run says what it would delete. Needs the management
    /// API to list the hold queues, and the configure permission on them to delete.
    Prune(HoldsPruneArgs),
}

#[derive(Debug, Args)]
pub struct HoldsPruneArgs {
    #[command(flatten)]
    pub selection: QueueSelection,

    /// Only hold queues of delays the topology file does not list
    ///
    /// Its delays and deferrals.
    #[arg(long)]
    pub unlisted: bool,

    /// Only hold queues whose arguments differ from those their name implies
    #[arg(long)]
    pub drift: bool,

    /// Say what would be deleted and delete nothing
    #[arg(long)]
    pub dry_run: bool,

    /// Do not ask for confirmation (for scripts)
    #[arg(long, short = 'y')]
    pub yes: bool,

    #[command(flatten)]
    pub settings: QueueSettingsArgs,
}

#[derive(Debug, Args)]
pub struct HoldsLsArgs {
    /// The logical queue q (not a hold queue's name)
    #[arg(value_name = "QUEUE")]
    pub queue: String,

    // The queue settings `status`, `verify` and `holds prune` take (see `HoldsCommand::Ls`).
    #[command(flatten)]
    pub settings: QueueSettingsArgs,
}

#[derive(Debug, Args)]
pub struct ArgsArgs {
    #[command(flatten)]
    pub selection: QueueSelection,

    /// A retry delay: adds the hold queue it waits in
    ///
    /// A retry or delayed-enqueue delay, rounded with the retry granularity.
    #[arg(long, value_name = "DURATION", allow_hyphen_values = true)]
    pub delay: Vec<String>,

    /// A deferral delay: adds the hold queue it waits in
    ///
    /// Rounded with the deferral granularity.
    #[arg(long, value_name = "DURATION", allow_hyphen_values = true)]
    pub defer: Vec<String>,

    #[command(flatten)]
    pub settings: QueueSettingsArgs,
}

/// A flag given before the subcommand that defines it (`queuey --reason x dead ls q`): clap
/// refuses it at the top level and, by spelling alone, suggests `--version`. Returns the
/// subcommand that takes `flag` (`dead ls`) and the command line with the flag (and its value)
/// moved to the end, where it belongs, when that command line parses. `args` are the words
/// after the program name; `flag` is the word clap refused.
pub fn misplaced_flag(args: &[String], flag: &str) -> Option<(String, String)> {
    use clap::CommandFactory;
    let at = args.iter().position(|a| a == flag)?;
    let name = flag.split('=').next().unwrap_or(flag);
    let inline_value = flag.contains('=');
    for takes_value in [true, false] {
        if inline_value && !takes_value {
            continue;
        }
        let mut rest: Vec<String> = args.to_vec();
        let mut moved = vec![rest.remove(at)];
        if takes_value && !inline_value {
            if at >= rest.len() {
                continue;
            }
            moved.push(rest.remove(at));
        }
        rest.extend(moved);
        let command = Cli::command();
        let Ok(matches) = command
            .clone()
            .try_get_matches_from(std::iter::once("queuey".to_owned()).chain(rest.clone()))
        else {
            continue;
        };
        // The subcommand that parsed last is where the flag now sits.
        let mut leaf = command;
        let mut path = Vec::new();
        let mut m = &matches;
        while let Some((sub, sub_matches)) = m.subcommand() {
            let Some(next) = leaf.find_subcommand(sub).cloned() else {
                break;
            };
            path.push(sub.to_owned());
            leaf = next;
            m = sub_matches;
        }
        let defines = leaf.get_arguments().any(|a| {
            let long = a.get_long().map(|l| format!("--{l}"));
            let short = a.get_short().map(|s| format!("-{s}"));
            (long.as_deref() == Some(name) || short.as_deref() == Some(name))
                && a.get_action().takes_values() == takes_value
                && !a.is_global_set()
        });
        if defines && !path.is_empty() {
            let mut words = vec!["queuey".to_owned()];
            words.extend(rest);
            return Some((path.join(" "), crate::shell::command_line(&words)));
        }
    }
    None
}

#[cfg(test)]
mod tests {
    use super::*;
    use clap::CommandFactory;

    fn words(line: &str) -> Vec<String> {
        line.split(' ').map(str::to_owned).collect()
    }

    #[test]
    fn a_flag_before_its_subcommand_is_moved_after_it() {
        assert_eq!(
            misplaced_flag(&words("--reason timeout dead ls q"), "--reason"),
            Some((
                "dead ls".to_owned(),
                "queuey dead ls q --reason timeout".to_owned()
            ))
        );
        assert_eq!(
            misplaced_flag(&words("--reason=a b dead ls q"), "--reason=a"),
            None,
            "`b` is no subcommand"
        );
        assert_eq!(
            misplaced_flag(&words("-y dead purge q"), "-y"),
            Some(("dead purge".to_owned(), "queuey dead purge q -y".to_owned()))
        );
        assert_eq!(
            misplaced_flag(&words("--colour dead ls q"), "--colour"),
            None
        );
        assert_eq!(
            misplaced_flag(&words("--reason x verify q"), "--reason"),
            None,
            "verify takes no --reason"
        );
    }

    /// The causes are one list, `Cause::ALL`: `--cause` accepts exactly those, its help and
    /// the `--cause` row of docs/commands/dead-ls.md name each of them in that order.
    #[test]
    fn the_causes_of_the_help_and_the_docs_are_cause_all() {
        let all: Vec<&str> = Cause::ALL.map(Cause::as_str).to_vec();
        let command = Cli::command();
        let ls = command
            .find_subcommand("dead")
            .and_then(|d| d.find_subcommand("ls"))
            .expect("dead ls");
        let arg = ls
            .get_arguments()
            .find(|a| a.get_id() == "cause")
            .expect("--cause");
        let accepted: Vec<String> = arg
            .get_possible_values()
            .iter()
            .map(|v| v.get_name().to_owned())
            .collect();
        assert_eq!(accepted, all);
        let in_order = |text: &str| -> Vec<&str> {
            let mut found: Vec<(usize, &str)> = all
                .iter()
                .filter_map(|c| {
                    text.match_indices(c)
                        .find(|(i, _)| {
                            let next = text[i + c.len()..].chars().next();
                            !next.is_some_and(|n| n.is_alphanumeric() || n == '-' || n == '_')
                        })
                        .map(|(i, _)| (i, *c))
                })
                .collect();
            found.sort();
            found.into_iter().map(|(_, c)| c).collect()
        };
        let help = arg.get_help().expect("help").to_string();
        assert_eq!(in_order(&help), all, "{help}");
        let docs = include_str!("../../docs/commands/dead-ls.md");
        let row = docs
            .lines()
            .find(|l| l.starts_with("| `--cause C`"))
            .expect("the --cause row of docs/commands/dead-ls.md");
        let named: Vec<&str> = row.split('`').skip(3).step_by(2).collect();
        assert_eq!(named, all, "{row}");
    }

    #[test]
    fn definitions_are_consistent() {
        Cli::command().debug_assert();
    }
}
