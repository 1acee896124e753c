//! Everything printed: tables, JSON, sanitising text that came from outside.
//!
//! Results go to stdout; notes, warnings and progress to stderr, so `--output json` stays one
//! clean document on stdout. A closed stdout (`queuey ... | head`) is not an error: `main`
//! ends quietly.

pub mod browse;
pub mod dead_letters;
pub mod file;
pub mod json;
pub mod notes;
pub mod progress;
pub mod prometheus;
pub mod replay;
pub use queuey_cli_core::sanitize;
pub mod args;
pub mod dead_check_report;
pub mod holds;
pub mod holds_prune_report;
pub mod ping;
pub mod purge;
pub mod screenful;
pub mod show;
pub mod status;
pub mod table;
pub mod time;
pub mod topology_report;

use std::io::{self, IsTerminal, Write};

use serde::Serialize;

use crate::error::{Error, Kind, Result};

/// How results are printed.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Format {
    Table,
    Json,
    /// The Prometheus text format (`status`, `dead check`; refused by the others).
    Prometheus,
}

/// Output settings of one invocation.
#[derive(Clone, Copy, Debug)]
pub struct Output {
    pub format: Format,
    pub quiet: bool,
    /// `--wide`: tables on a terminal keep every column and every value whole.
    pub wide: bool,
}

impl Output {
    /// A note on stderr (suppressed by `--quiet`).
    pub fn note(&self, text: &str) {
        if !self.quiet {
            eprintln!("{}", for_stderr(text));
        }
    }

    /// An explanation on stderr, shown whatever `--quiet` and the format: it says why the exit
    /// code is what it is, and what to do (the remedies of drift).
    /// Masked, not escaped: what is explained is built printable (names `{:?}`-escaped, commands
    /// quoted by `shell`, which spells invisible characters), and escaping again would double
    /// the backslashes of a pattern and break the command it shows.
    pub fn explain(&self, text: &str) {
        eprintln!("{}", crate::redact::redact(text));
    }

    /// A warning on stderr (always shown: it says something may be wrong).
    pub fn warn(&self, text: &str) {
        eprintln!("warning: {}", for_stderr(text));
    }
}

/// A message of queuey's own (an error, a note, a warning) as it may reach a terminal: every
/// registered password masked, then every character that could fool a terminal escaped (such a
/// message may quote a library's text, which may quote a stranger's). Masking comes first, so
/// that an escape cannot split a password.
pub fn for_stderr(text: &str) -> String {
    sanitize::sanitize_message(&crate::redact::redact(text))
}

/// Narrower than this, a table has no room for its columns: a terminal that reports less
/// (0x0 under `script` without a parent terminal, or in a container shell before its first
/// resize) is treated as one of unknown size.
pub const MIN_TABLE_WIDTH: u16 = 20;

/// The width a table on a terminal is fitted to: `COLUMNS` when it is set to a usable number
/// (as GNU tools read it), else the terminal's own width when it reports a usable one; `None`
/// when neither does, and the table keeps its natural width.
pub fn table_width(columns: Option<&str>, terminal: Option<u16>) -> Option<u16> {
    let usable = |w: u16| (w >= MIN_TABLE_WIDTH).then_some(w);
    columns
        .and_then(|c| c.trim().parse::<u16>().ok())
        .and_then(usable)
        .or_else(|| terminal.and_then(usable))
}

pub use table::Table;

/// A new table; its columns give way on a narrow terminal as [`table`] says.
pub fn table(header: &[&str]) -> Table {
    Table::new(header)
}

/// The terminal standard output is, as (rows, columns), when it reports a size.
fn terminal_size() -> Option<(u16, u16)> {
    console::Term::stdout().size_checked()
}

/// Where a table goes: fitted to the terminal's width (see [`table_width`]); whole on a pipe,
/// with `--wide`, or on a terminal of unknown size.
pub fn fit(wide: bool) -> table::Fit {
    if !io::stdout().is_terminal() {
        return table::Fit::Natural { boxed: false };
    }
    let columns = std::env::var("COLUMNS").ok();
    match table_width(columns.as_deref(), terminal_size().map(|(_, c)| c)) {
        Some(width) if !wide => table::Fit::Width(width.into()),
        _ => table::Fit::Natural { boxed: true },
    }
}

/// The screen a long text is cut to on a terminal, as (rows, columns): `LINES` and `COLUMNS`
/// when set to usable numbers, else the terminal's size, else 24x80.
pub fn screen() -> (usize, usize) {
    let size = terminal_size();
    let var = |name: &str, min: usize| {
        std::env::var(name)
            .ok()
            .and_then(|v| v.trim().parse::<usize>().ok())
            .filter(|n| *n >= min)
    };
    let rows = var("LINES", 5)
        .or(size.map(|(r, _)| r.into()).filter(|r| *r >= 5))
        .unwrap_or(24);
    let columns = var("COLUMNS", MIN_TABLE_WIDTH.into())
        .or(size
            .map(|(_, c)| c.into())
            .filter(|c| *c >= usize::from(MIN_TABLE_WIDTH)))
        .unwrap_or(80);
    (rows, columns)
}

/// Prints `table` on stdout, fitted to the terminal, and once per run what fitting it left
/// out, on stderr.
pub fn print_table(table: &Table, output: Output) -> Result<()> {
    let rendered = table.render(fit(output.wide));
    print(&rendered.text)?;
    if let Some(note) = table::left_out_note(&rendered) {
        output.note(&note);
    }
    Ok(())
}

pub use crate::words::{by_count, noun_for, plural};

/// A rate in messages per second, with at most one decimal: `812/s`, `60.8/s`.
pub fn rate_text(per_sec: f64) -> String {
    let rounded = (per_sec * 10.0).round() / 10.0;
    if rounded.fract() == 0.0 {
        format!("{rounded:.0}/s")
    } else {
        format!("{rounded:.1}/s")
    }
}

/// Prints `text` and a newline to stdout.
pub fn print(text: impl std::fmt::Display) -> Result<()> {
    let mut out = io::stdout().lock();
    writeln!(out, "{text}").map_err(stdout_error)
}

/// Prints `value` as one pretty JSON document on stdout, what could fool a terminal escaped
/// ([`json`]).
pub fn print_json<T: Serialize>(value: &T) -> Result<()> {
    let text = json::to_string_pretty(value)
        .map_err(|e| Error::internal(format!("cannot encode JSON output: {e}")))?;
    print(text)
}

/// A failed write to stdout. A broken pipe is marked so that `main` exits quietly.
pub fn stdout_error(err: io::Error) -> Error {
    if err.kind() == io::ErrorKind::BrokenPipe {
        Error::new(Kind::BrokenPipe, "standard output closed").with_source(err)
    } else {
        Error::io("cannot write to standard output", &err)
    }
}

/// " (message ids: a, b, c, and N more: -o json lists them)" for the possible duplicates a
/// summary counts, escaped for a terminal; nothing when none is named.
pub fn duplicates_named(ids: &[String]) -> String {
    const SHOWN: usize = 3;
    if ids.is_empty() {
        return String::new();
    }
    let shown: Vec<String> = ids
        .iter()
        .take(SHOWN)
        .map(|id| sanitize::sanitize(id))
        .collect();
    let more = match ids.len().saturating_sub(SHOWN) {
        0 => String::new(),
        n => format!(" and {n} more, -o json lists them"),
    };
    format!(" (message ids: {}{more})", shown.join(", "))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn tables_fit_columns_then_the_terminal_else_their_natural_width() {
        assert_eq!(table_width(None, Some(120)), Some(120));
        assert_eq!(table_width(Some("80"), Some(120)), Some(80), "COLUMNS wins");
        assert_eq!(table_width(None, Some(0)), None, "a 0x0 terminal");
        assert_eq!(table_width(None, Some(3)), None, "too narrow to be real");
        assert_eq!(table_width(None, None), None);
        assert_eq!(table_width(Some("70"), Some(0)), Some(70));
        assert_eq!(table_width(Some("0"), Some(100)), Some(100));
        assert_eq!(table_width(Some("wide"), None), None);
    }

    #[test]
    fn counts_agree_with_their_nouns_and_rates_keep_one_decimal() {
        assert_eq!(plural(1, "dead letter"), "1 dead letter");
        assert_eq!(plural(0, "dead letter"), "0 dead letters");
        assert_eq!(plural(2, "copy"), "2 copies");
        assert_eq!(plural(2, "day"), "2 days");
        assert_eq!(rate_text(812.0), "812/s");
        assert_eq!(rate_text(60.8234), "60.8/s");
        assert_eq!(rate_text(0.04), "0/s");
        assert_eq!(rate_text(2.96), "3/s");
    }
}
