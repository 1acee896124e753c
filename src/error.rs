//! queuey's one error type, and the one place that maps outcomes and errors to exit codes.
//!
//! Every error names what failed (queue, vhost, file, setting, URL without its password) and,
//! where there is one, the way out (`hint`). `main` prints it once, through [`crate::redact`].
//! The mapping to exit codes is an exhaustive `match` without a catch-all arm, so a new kind of
//! error forces a decision about its code.

use std::fmt;

/// Exit codes, documented in the README and the man page. Stable: CI pipelines branch on them.
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
    /// A bug in queuey.
    Internal = 70,
    /// Stopped by Ctrl-C (SIGINT) after finishing what was in flight.
    Interrupted = 130,
}

impl ExitCode {
    pub fn code(self) -> u8 {
        self as u8
    }

    /// The code of a run made of several results: the most severe wins, where errors outrank
    /// `Partial`, which outranks `Drift`, which outranks `Ok`.
    pub fn merge(self, other: ExitCode) -> ExitCode {
        fn rank(c: ExitCode) -> u8 {
            match c {
                ExitCode::Ok => 0,
                ExitCode::Drift => 1,
                ExitCode::Partial => 2,
                ExitCode::Usage
                | ExitCode::Unreachable
                | ExitCode::AccessRefused
                | ExitCode::Api
                | ExitCode::BrokerRefused
                | ExitCode::Io
                | ExitCode::Declined
                | ExitCode::Internal => 3,
                ExitCode::Interrupted => 4,
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
    /// A command line that clap accepted but queuey cannot act on.
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
    /// A queue that must exist does not.
    QueueNotFound,
    /// The broker refused an operation.
    BrokerRefused,
    /// A local file could not be read or written.
    Io,
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

    pub fn exit_code(self) -> ExitCode {
        match self {
            Kind::Usage | Kind::Settings | Kind::ConfigFile | Kind::BadUrl => ExitCode::Usage,
            Kind::Unreachable => ExitCode::Unreachable,
            Kind::AccessRefused => ExitCode::AccessRefused,
            Kind::Api | Kind::ApiRefused => ExitCode::Api,
            Kind::QueueNotFound | Kind::BrokerRefused => ExitCode::BrokerRefused,
            Kind::Io => ExitCode::Io,
            Kind::Interrupted => ExitCode::Interrupted,
            Kind::Internal => ExitCode::Internal,
        }
    }
}

/// A failure, with what failed (`message`) and how to fix it (`hint`).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Error {
    pub kind: Kind,
    pub message: String,
    pub hint: Option<String>,
}

pub type Result<T, E = Error> = std::result::Result<T, E>;

impl Error {
    pub fn new(kind: Kind, message: impl Into<String>) -> Self {
        Error {
            kind,
            message: message.into(),
            hint: None,
        }
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

impl std::error::Error for Error {}

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
    }

    #[test]
    fn codes_are_stable() {
        let codes: Vec<u8> = [
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
            ExitCode::Internal,
            ExitCode::Interrupted,
        ]
        .iter()
        .map(|c| c.code())
        .collect();
        assert_eq!(codes, vec![0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 70, 130]);
    }

    #[test]
    fn display_puts_the_hint_on_its_own_line() {
        let e = Error::new(Kind::Unreachable, "cannot connect").with_hint("start it");
        assert_eq!(e.to_string(), "cannot connect\n  start it");
        assert_eq!(e.exit_code(), ExitCode::Unreachable);
    }
}
