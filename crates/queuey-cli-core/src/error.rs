//! queuey's one error type, and the one place that maps outcomes and errors to exit codes.
//!
//! Every error names what failed (queue, vhost, file, setting, URL without its password) and,
//! where there is one, the way out (`hint`). `main` prints it once, through [`crate::redact`].
//! The mapping to exit codes is an exhaustive `match` without a catch-all arm, so a new kind of
//! error forces a decision about its code.

use std::fmt;
use std::sync::Arc;

/// Exit codes. Stable: CI pipelines branch on them. [`ExitCode::meaning`] is the one table of
/// them: `--help` and the man page print it, and a test holds docs/exit-codes.md to it.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord)]
#[repr(u8)]
pub enum ExitCode {
    /// Success; for `verify`, everything is in sync.
    Ok = 0,
    /// `verify` / `declare --dry-run` found drift, or `declare` refused to act over drift.
    Drift = 1,
    /// Bad command line, settings, topology file or URL.
    Usage = 2,
    /// Bulk work ended with some messages not processed (reported in the summary).
    Partial = 3,
    /// The broker could not be reached over AMQP (refused, DNS, timeout, TLS).
    Unreachable = 4,
    /// The broker refused the credentials, or the vhost is missing or not permitted.
    AccessRefused = 5,
    /// The management HTTP API is off, unreachable or refused the request.
    Api = 6,
    /// The broker refused an operation (a missing queue, inequivalent arguments, ...).
    BrokerRefused = 7,
    /// A local file could not be read or written.
    Io = 8,
    /// The operator answered no at a confirmation prompt (`dead purge`): nothing was changed.
    /// Not 0, which says the purge happened, nor 130, which says a signal stopped the work.
    Declined = 9,
    /// What was asked for is not there: `dead show` found no such message in q.dead.
    NotFound = 10,
    /// `dead check` could not judge a threshold (its value unknown) and found none crossed: a
    /// gate that cannot see never says "holds" (0).
    Unknown = 11,
    /// A bug in queuey.
    Internal = 70,
    /// Stopped by Ctrl-C (SIGINT) after finishing what was in flight.
    Interrupted = 130,
}

impl ExitCode {
    /// Every code, in order.
    pub const ALL: [ExitCode; 14] = [
        ExitCode::Ok,
        ExitCode::Drift,
        ExitCode::Usage,
        ExitCode::Partial,
        ExitCode::Unreachable,
        ExitCode::AccessRefused,
        ExitCode::Api,
        ExitCode::BrokerRefused,
        ExitCode::Io,
        ExitCode::Declined,
        ExitCode::NotFound,
        ExitCode::Unknown,
        ExitCode::Internal,
        ExitCode::Interrupted,
    ];

    pub fn code(self) -> u8 {
        self as u8
    }

    /// What the code tells a user or a script, in one sentence.
    pub fn meaning(self) -> &'static str {
        match self {
            ExitCode::Ok => {
                "success; for verify, every queue exists and is in sync; for declare --dry-run, \
                 declare would succeed"
            }
            ExitCode::Drift => {
                "drift: verify found a queue missing or different (hold queues included) or \
                 one the broker would refuse as computed (an argument its type refuses), \
                 declare --dry-run found either, or declare refused to act over them; dead \
                 check found a threshold crossed"
            }
            ExitCode::Usage => "usage: bad flags, settings, topology file or URL",
            ExitCode::Partial => {
                "partial: bulk work ended with some messages not processed (see the summary)"
            }
            ExitCode::Unreachable => {
                "unreachable: no AMQP connection to the broker (refused, DNS, timeout, not AMQP, \
                 or TLS: its certificate not trusted, expired or for another name, a client \
                 certificate missing or refused)"
            }
            ExitCode::AccessRefused => {
                "access refused: wrong credentials, the vhost is missing or not permitted, or the \
                 user lacks a permission the command needs (configure for declare, write for dead \
                 replay, read to peek or purge), named with the user and the vhost"
            }
            ExitCode::Api => {
                "management API off, unreachable (a failed TLS handshake included), not at \
                 that address (404), refusing the \
                 request (a user without the management or monitoring tag), or answering for \
                 another broker than the AMQP URL's; verify also exits 6 when, without the API, it \
                 could not read the arguments of an existing queue"
            }
            ExitCode::BrokerRefused => {
                "the broker refused an operation (missing queue, inequivalent arguments, ...), \
                 q.dead is a kind of queue queuey cannot read (a stream) or holds a message \
                 queuey cannot parse (a header name or a property that is not UTF-8), a quorum \
                 queue has lost the majority of its members, the broker blocked publishing longer than \
                 --blocked-timeout, or it owed an answer longer than --timeout"
            }
            ExitCode::Io => "a local file could not be read or written",
            ExitCode::Declined => {
                "declined: a confirmation prompt was answered no (dead purge, holds prune, dead \
                 edit on a terminal), or dead edit's body came back unchanged (or unusable, and \
                 the edit given up on a terminal); nothing was changed"
            }
            ExitCode::NotFound => {
                "not found: dead show or dead edit found no message at that position or with \
                 that message id in q.dead (the queue itself exists; a missing queue is 7)"
            }
            ExitCode::Unknown => {
                "unknown: dead check could not judge a threshold it was asked for (a value it \
                 could not measure, the note says why: an age no dead letter tells, a quorum \
                 q.dead not peeked, a count of dead letters other consumers hold, a rate \
                 without statistics) and found none crossed"
            }
            ExitCode::Internal => "internal error (a bug in queuey)",
            ExitCode::Interrupted => {
                "interrupted: Ctrl-C (SIGINT), SIGTERM or SIGHUP stopped a replay or purge cleanly"
            }
        }
    }

    /// The table of every code for `--help` and the man page: the code, then its meaning
    /// wrapped at 96 columns.
    pub fn help_table() -> String {
        let mut out = String::new();
        for code in ExitCode::ALL {
            let mut line = format!("  {:<5}", code.code());
            for word in code.meaning().split(' ') {
                if line.len() + 1 + word.len() > 96 {
                    out.push_str(line.trim_end());
                    out.push('\n');
                    line = " ".repeat(7);
                } else if !line.trim().chars().all(|c| c.is_ascii_digit()) {
                    line.push(' ');
                }
                line.push_str(word);
            }
            out.push_str(&line);
            out.push('\n');
        }
        out
    }

    /// The code of a run made of several results: the most severe wins, where errors outrank
    /// `Partial`, which outranks `Drift`, which outranks `Unknown`, which outranks `Ok` (a
    /// threshold crossed is news; one that could not be judged is said beside it).
    pub fn merge(self, other: ExitCode) -> ExitCode {
        fn rank(c: ExitCode) -> u8 {
            match c {
                ExitCode::Ok => 0,
                ExitCode::Unknown => 1,
                ExitCode::Drift => 2,
                ExitCode::Partial => 3,
                ExitCode::Usage
                | ExitCode::Unreachable
                | ExitCode::AccessRefused
                | ExitCode::Api
                | ExitCode::BrokerRefused
                | ExitCode::Io
                | ExitCode::Declined
                | ExitCode::NotFound
                | ExitCode::Internal => 4,
                ExitCode::Interrupted => 5,
            }
        }
        if rank(other) > rank(self) {
            other
        } else {
            self
        }
    }
}

/// What kind of failure an [`Error`] is; decides the exit code.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Kind {
    /// A command line that parsed but that queuey cannot act on.
    Usage,
    /// A setting (flag, environment variable, topology file) out of its allowed range.
    Settings,
    /// The topology file cannot be read or parsed.
    ConfigFile,
    /// The AMQP or management URL is malformed.
    BadUrl,
    /// No AMQP connection: refused, DNS, timeout, TLS.
    Unreachable,
    /// Credentials refused, or the vhost is missing or not permitted.
    AccessRefused,
    /// The management API is off, unreachable, or answered with an error.
    Api,
    /// The management API refused this user: no management/monitoring tag, wrong credentials,
    /// or a request that needs a tag the user lacks. Commands that can fall back to AMQP do.
    ApiRefused,
    /// The management API answers for another broker (cluster) than the AMQP URL's.
    OtherBroker,
    /// A queue that must exist does not.
    QueueNotFound,
    /// A message asked for by position or id is not in the queue.
    MessageNotFound,
    /// The queue exists but is of a type queuey cannot work on (a stream as q.dead).
    UnsupportedQueue,
    /// The broker delivered a message that queuey's AMQP client cannot parse (a header name or
    /// a short-string property that is not UTF-8): nothing past it can be read.
    UnreadableMessage,
    /// A quorum queue without a majority of its members online: it can neither take nor give
    /// messages (the broker answered: not unreachable).
    NoMajority,
    /// The broker owed an answer (a consume, a delivery, a confirmation, an ack taken) and
    /// gave none within `--timeout`: the run stopped cleanly.
    Stalled,
    /// The broker refused an operation.
    BrokerRefused,
    /// A local file could not be read or written.
    Io,
    /// Standard output was closed by its reader (`queuey ... | head`): not a failure, the
    /// command ends quietly with 0.
    BrokenPipe,
    /// Ctrl-C.
    Interrupted,
    /// A bug: a state queuey believed impossible.
    Internal,
}

impl Kind {
    /// The management API cannot answer this user (off, unreachable, refusing): a command
    /// that can do without it falls back to AMQP.
    pub fn is_api(self) -> bool {
        matches!(self, Kind::Api | Kind::ApiRefused)
    }

    /// The kind's stable name in a JSON error (`-o json`): kebab case.
    pub fn name(self) -> &'static str {
        match self {
            Kind::Usage => "usage",
            Kind::Settings => "settings",
            Kind::ConfigFile => "config-file",
            Kind::BadUrl => "bad-url",
            Kind::Unreachable => "unreachable",
            Kind::AccessRefused => "access-refused",
            Kind::Api => "api",
            Kind::ApiRefused => "api-refused",
            Kind::OtherBroker => "other-broker",
            Kind::QueueNotFound => "queue-not-found",
            Kind::MessageNotFound => "message-not-found",
            Kind::UnsupportedQueue => "unsupported-queue",
            Kind::UnreadableMessage => "unreadable-message",
            Kind::NoMajority => "no-majority",
            Kind::Stalled => "stalled",
            Kind::BrokerRefused => "broker-refused",
            Kind::Io => "io",
            Kind::BrokenPipe => "broken-pipe",
            Kind::Interrupted => "interrupted",
            Kind::Internal => "internal",
        }
    }

    pub fn exit_code(self) -> ExitCode {
        match self {
            Kind::Usage | Kind::Settings | Kind::ConfigFile | Kind::BadUrl => ExitCode::Usage,
            Kind::Unreachable => ExitCode::Unreachable,
            Kind::AccessRefused => ExitCode::AccessRefused,
            Kind::Api | Kind::ApiRefused | Kind::OtherBroker => ExitCode::Api,
            Kind::QueueNotFound
            | Kind::BrokerRefused
            | Kind::UnsupportedQueue
            | Kind::UnreadableMessage
            | Kind::NoMajority
            | Kind::Stalled => ExitCode::BrokerRefused,
            Kind::MessageNotFound => ExitCode::NotFound,
            Kind::Io => ExitCode::Io,
            Kind::BrokenPipe => ExitCode::Ok,
            Kind::Interrupted => ExitCode::Interrupted,
            Kind::Internal => ExitCode::Internal,
        }
    }
}

/// A failure, with what failed (`message`), how to fix it (`hint`), and the lower-level error
/// it came from (`source`, for `std::error::Error::source`; its text is already in `message`).
#[derive(Debug, Clone)]
pub struct Error {
    pub kind: Kind,
    pub message: String,
    pub hint: Option<String>,
    source: Option<Arc<dyn std::error::Error + Send + Sync + 'static>>,
}

/// Two errors are equal when they say the same thing; their sources are not compared.
impl PartialEq for Error {
    fn eq(&self, other: &Error) -> bool {
        (self.kind, &self.message, &self.hint) == (other.kind, &other.message, &other.hint)
    }
}

impl Eq for Error {}

impl std::error::Error for Error {
    fn source(&self) -> Option<&(dyn std::error::Error + 'static)> {
        self.source
            .as_deref()
            .map(|e| e as &(dyn std::error::Error + 'static))
    }
}

pub type Result<T, E = Error> = std::result::Result<T, E>;

impl Error {
    pub fn new(kind: Kind, message: impl Into<String>) -> Self {
        Error {
            kind,
            message: message.into(),
            hint: None,
            source: None,
        }
    }

    /// Keeps `source` as the cause of this error.
    pub fn with_source(mut self, source: impl std::error::Error + Send + Sync + 'static) -> Self {
        self.source = Some(Arc::new(source));
        self
    }

    /// Whether this is a closed standard output (not a failure: see [`Kind::BrokenPipe`]).
    pub fn is_broken_pipe(&self) -> bool {
        self.kind == Kind::BrokenPipe
    }

    pub fn with_hint(mut self, hint: impl Into<String>) -> Self {
        self.hint = Some(hint.into());
        self
    }

    pub fn usage(message: impl Into<String>) -> Self {
        Error::new(Kind::Usage, message)
    }

    pub fn settings(message: impl Into<String>) -> Self {
        Error::new(Kind::Settings, message)
    }

    pub fn internal(message: impl Into<String>) -> Self {
        Error::new(Kind::Internal, message)
            .with_hint("this is a bug in queuey; please report it with the command you ran")
    }

    pub fn io(what: impl fmt::Display, err: &std::io::Error) -> Self {
        Error::new(Kind::Io, format!("{what}: {err}"))
            .with_source(std::io::Error::new(err.kind(), err.to_string()))
    }

    pub fn exit_code(&self) -> ExitCode {
        self.kind.exit_code()
    }
}

impl fmt::Display for Error {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.message)?;
        if let Some(hint) = &self.hint {
            write!(f, "\n  {hint}")?;
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn merge_keeps_the_most_severe() {
        use ExitCode::*;
        assert_eq!(Ok.merge(Drift), Drift);
        assert_eq!(Drift.merge(Ok), Drift);
        assert_eq!(Drift.merge(Partial), Partial);
        assert_eq!(Partial.merge(Unreachable), Unreachable);
        assert_eq!(Api.merge(Drift), Api);
        assert_eq!(
            Api.merge(BrokerRefused),
            Api,
            "first error wins among errors"
        );
        assert_eq!(Interrupted.merge(Api), Interrupted);
        assert_eq!(Ok.merge(Ok), Ok);
        assert_eq!(Ok.merge(Unknown), Unknown);
        assert_eq!(Unknown.merge(Drift), Drift);
        assert_eq!(Drift.merge(Unknown), Drift);
        assert_eq!(Unknown.merge(Api), Api);
    }

    #[test]
    fn codes_are_stable() {
        let codes: Vec<u8> = ExitCode::ALL.iter().map(|c| c.code()).collect();
        assert_eq!(codes, vec![0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 70, 130]);
    }

    #[test]
    fn display_puts_the_hint_on_its_own_line() {
        let e = Error::new(Kind::Unreachable, "cannot connect").with_hint("start it");
        assert_eq!(e.to_string(), "cannot connect\n  start it");
        assert_eq!(e.exit_code(), ExitCode::Unreachable);
    }
}
