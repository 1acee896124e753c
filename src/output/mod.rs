//! Everything printed: tables, JSON, sanitising text that came from outside.
//!
//! Results go to stdout; notes, warnings and progress to stderr, so `--output json` stays one
//! clean document on stdout. A closed stdout (`queuey ... | head`) is not an error: `main`
//! ends quietly.

pub mod progress;
pub mod sanitize;

use std::io::{self, IsTerminal, Write};

use comfy_table::{ContentArrangement, Table, presets};
use serde::Serialize;

use crate::error::{Error, Kind, Result};

/// How results are printed.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Format {
    Table,
    Json,
}

/// Output settings of one invocation.
#[derive(Clone, Copy, Debug)]
pub struct Output {
    pub format: Format,
    pub quiet: bool,
}

impl Output {
    /// A note on stderr (suppressed by `--quiet`).
    pub fn note(&self, text: &str) {
        if !self.quiet {
            eprintln!("{}", crate::redact::redact(text));
        }
    }

    /// A warning on stderr (always shown: it says something may be wrong).
    pub fn warn(&self, text: &str) {
        eprintln!("warning: {}", crate::redact::redact(text));
    }
}

/// A new table sized to the terminal (or unbounded on a pipe), with queuey's style.
pub fn table(header: &[&str]) -> Table {
    let mut t = Table::new();
    t.load_preset(presets::UTF8_FULL_CONDENSED);
    if io::stdout().is_terminal() {
        t.set_content_arrangement(ContentArrangement::Dynamic);
    } else {
        t.load_preset(presets::ASCII_MARKDOWN);
        t.set_content_arrangement(ContentArrangement::Disabled);
    }
    t.set_header(header.iter().copied());
    t
}

/// Prints `text` and a newline to stdout.
pub fn print(text: impl std::fmt::Display) -> Result<()> {
    let mut out = io::stdout().lock();
    writeln!(out, "{text}").map_err(stdout_error)
}

/// Prints `value` as one pretty JSON document on stdout.
pub fn print_json<T: Serialize>(value: &T) -> Result<()> {
    let text = serde_json::to_string_pretty(value)
        .map_err(|e| Error::internal(format!("cannot encode JSON output: {e}")))?;
    print(text)
}

/// A failed write to stdout. A broken pipe is marked so that `main` exits quietly.
pub fn stdout_error(err: io::Error) -> Error {
    if err.kind() == io::ErrorKind::BrokenPipe {
        Error::new(Kind::Io, BROKEN_PIPE)
    } else {
        Error::io("cannot write to standard output", &err)
    }
}

/// Seconds since the epoch as `2026-11-29 13:57:32 UTC` (proleptic Gregorian, no leap seconds).
pub fn utc_time(secs: u64) -> String {
    let days = i64::try_from(secs / 86_400).unwrap_or(i64::MAX / 2);
    let rem = secs % 86_400;
    // Howard Hinnant's civil_from_days.
    let z = days + 719_468;
    let era = z.div_euclid(146_097);
    let doe = z.rem_euclid(146_097);
    let yoe = (doe - doe / 1_460 + doe / 36_524 - doe / 146_096) / 365;
    let doy = doe - (365 * yoe + yoe / 4 - yoe / 100);
    let mp = (5 * doy + 2) / 153;
    let day = doy - (153 * mp + 2) / 5 + 1;
    let month = if mp < 10 { mp + 3 } else { mp - 9 };
    let year = yoe + era * 400 + i64::from(month <= 2);
    format!(
        "{year:04}-{month:02}-{day:02} {:02}:{:02}:{:02} UTC",
        rem / 3_600,
        rem % 3_600 / 60,
        rem % 60
    )
}

/// The message of the error a closed stdout turns into; `main` recognises it.
pub const BROKEN_PIPE: &str = "standard output closed";

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn utc_times() {
        assert_eq!(utc_time(0), "1970-01-01 00:00:00 UTC");
        assert_eq!(utc_time(951_782_400), "2000-02-29 00:00:00 UTC");
        assert_eq!(utc_time(1_795_960_652), "2026-11-29 13:57:32 UTC");
        let _ = utc_time(u64::MAX);
    }
}
