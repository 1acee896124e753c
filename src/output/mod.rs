//! Everything printed: tables, JSON, sanitising text that came from outside.
//!
//! Results go to stdout; notes, warnings and progress to stderr, so `--output json` stays one
//! clean document on stdout. A closed stdout (`queuey ... | head`) is not an error: `main`
//! ends quietly.

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

/// Prints `value` as one compact JSON line on stdout (streams: one object per line).
pub fn print_json_line<T: Serialize>(value: &T) -> Result<()> {
    let text = serde_json::to_string(value)
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

/// The message of the error a closed stdout turns into; `main` recognises it.
pub const BROKEN_PIPE: &str = "standard output closed";
