//! How every table queuey draws is laid out: one line per row on a terminal, whatever its width.
//!
//! A list is one line per item, as `kubectl get` and `gh pr list` draw theirs: a row that wraps
//! over five lines of a narrow terminal, its words split, cannot be read down. So on a terminal
//! of known width a table is fitted, never wrapped. Each column has a priority and a narrowest
//! width: the columns of lowest priority are hidden until the others fit at their narrowest,
//! then the columns kept widen in priority order, and a value still too long is cut with `…`
//! (a flexible column, a body preview, is cut only once the columns less important than it
//! are hidden). What was hidden or cut is said once, on stderr, with the way to see it all
//! (`--wide`).
//!
//! Everything, at its natural width, on a pipe (a script reads it whole), with `--wide`, and on
//! a terminal that reports no size (see [`super::table_width`]). A line break inside a cell
//! (the arguments of `args`, a diff of `verify`) is the caller's: each of its lines is cut like
//! a value.
//!
//! Values are cut at the character boundaries of text already escaped (`sanitize`): a cut never
//! splits a character, and the `…` that follows keeps a partial escape (`\u{20…`) from reading
//! as another, since no escape sanitize writes is a prefix of a different one. Widths are
//! display widths (a CJK character takes two columns), as comfy-table, which draws the
//! borders, measures them.

use std::sync::atomic::{AtomicBool, Ordering};

use comfy_table::{ContentArrangement, presets};
use unicode_width::{UnicodeWidthChar, UnicodeWidthStr};

use crate::words::plural;

/// How narrow a column may be cut unless its table says otherwise: room for a word and `…`.
pub const DEFAULT_MIN_WIDTH: usize = 10;

/// The mark of a cut value.
pub const CUT: char = '…';

/// A column: its header and how it gives way on a narrow terminal.
#[derive(Clone, Debug)]
struct Column {
    header: String,
    /// Lower is more important: the highest numbers are hidden first.
    priority: usize,
    /// The narrowest it may be cut to (never wider than its widest value).
    min: usize,
    /// Worth more than every less important column: they are hidden before it is cut.
    flex: bool,
    /// Cut at the start (`…eferred.600000`): for names whose end tells them apart.
    keep_end: bool,
}

/// A table of text cells, laid out when it is printed.
#[derive(Clone, Debug)]
pub struct Table {
    columns: Vec<Column>,
    rows: Vec<Vec<String>>,
}

/// Where a table is printed.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Fit {
    /// Every column, every value whole; drawn with box characters on a terminal (`boxed`), as
    /// Markdown on a pipe.
    Natural { boxed: bool },
    /// A terminal this many columns wide: one line per row.
    Width(usize),
}

/// A table drawn, and what it left out to fit.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Rendered {
    pub text: String,
    /// The headers of the columns hidden.
    pub hidden: Vec<String>,
    /// How many values (header cells not counted) were cut.
    pub cut: usize,
    /// The width fitted to, when the table was fitted.
    pub width: Option<usize>,
}

impl Table {
    /// A table whose columns are hidden from the right first, each cut to no less than
    /// [`DEFAULT_MIN_WIDTH`].
    pub fn new(header: &[&str]) -> Table {
        Table {
            columns: header
                .iter()
                .enumerate()
                .map(|(i, h)| Column {
                    header: (*h).to_owned(),
                    priority: i,
                    min: DEFAULT_MIN_WIDTH,
                    flex: false,
                    keep_end: false,
                })
                .collect(),
            rows: Vec::new(),
        }
    }

    fn column(&mut self, header: &str) -> &mut Column {
        let found = self.columns.iter().position(|c| c.header == header);
        // A header that is not there is a mistake of the caller's, found by its tests.
        let i = found.unwrap_or_else(|| panic!("no column {header:?} in this table"));
        &mut self.columns[i]
    }

    /// The columns named, most important first; the others keep their order after them.
    pub fn priority(&mut self, headers: &[&str]) -> &mut Table {
        for c in &mut self.columns {
            c.priority += headers.len();
        }
        for (i, h) in headers.iter().enumerate() {
            self.column(h).priority = i;
        }
        self
    }

    /// The narrowest `header`'s column may be cut to (0: never cut, shown whole or hidden).
    pub fn min_width(&mut self, header: &str, min: usize) -> &mut Table {
        self.column(header).min = if min == 0 { usize::MAX } else { min };
        self
    }

    /// The columns that are shown whole or hidden, never cut (short values: counts, ages).
    pub fn whole(&mut self, headers: &[&str]) -> &mut Table {
        for h in headers {
            self.min_width(h, 0);
        }
        self
    }

    /// `header`'s column is hidden or cut only once every less important one is hidden (a
    /// body preview, worth more than the stub of a message id).
    pub fn flex(&mut self, header: &str) -> &mut Table {
        self.column(header).flex = true;
        self
    }

    /// `header`'s values are cut at their start, keeping their end (hold queue names).
    pub fn keep_end(&mut self, header: &str) -> &mut Table {
        self.column(header).keep_end = true;
        self
    }

    pub fn add_row(&mut self, row: Vec<String>) -> &mut Table {
        self.rows.push(row);
        self
    }

    pub fn is_empty(&self) -> bool {
        self.rows.is_empty()
    }

    /// Each column's natural width: its widest line, header included.
    fn natural_widths(&self) -> Vec<usize> {
        self.columns
            .iter()
            .enumerate()
            .map(|(i, c)| {
                self.rows
                    .iter()
                    .filter_map(|r| r.get(i))
                    .chain(std::iter::once(&c.header))
                    .flat_map(|cell| cell.lines())
                    .map(UnicodeWidthStr::width)
                    .max()
                    .unwrap_or(0)
            })
            .collect()
    }

    /// The width given to each column on a terminal `width` wide; `None`: hidden.
    ///
    /// The columns of lowest priority are hidden until the rest fit at their narrowest; then
    /// each kept column widens toward its natural width, most important first. A column less
    /// important than a flexible one is hidden too while the flexible one is cut (lowest
    /// first): a body preview is worth more than the stub of a message id.
    fn layout(&self, width: usize) -> Vec<Option<usize>> {
        let natural = self.natural_widths();
        let floor: Vec<usize> = self
            .columns
            .iter()
            .zip(&natural)
            .map(|(c, n)| c.min.min(*n).max(1))
            .collect();
        // Most important first; among equals, the leftmost.
        let mut kept: Vec<usize> = (0..self.columns.len()).collect();
        kept.sort_by_key(|&i| (self.columns[i].priority, i));
        let need =
            |kept: &[usize]| kept.iter().map(|&i| floor[i]).sum::<usize>() + overhead(kept.len());
        while kept.len() > 1 && need(&kept) > width {
            kept.pop();
        }
        loop {
            let mut given: Vec<Option<usize>> = vec![None; self.columns.len()];
            for &i in &kept {
                given[i] = Some(floor[i]);
            }
            if need(&kept) > width {
                // One column wider than the terminal at its narrowest: cut to the terminal.
                given[kept[0]] = Some(width.saturating_sub(overhead(1)).max(1));
                return given;
            }
            let mut room = width - need(&kept);
            for &i in &kept {
                if let Some(w) = &mut given[i] {
                    let more = natural[i].saturating_sub(*w).min(room);
                    *w += more;
                    room -= more;
                }
            }
            let flexible_cut = kept
                .iter()
                .position(|&i| self.columns[i].flex && given[i] < Some(natural[i]));
            match flexible_cut {
                Some(at) if at + 1 < kept.len() => {
                    kept.pop();
                }
                _ => return given,
            }
        }
    }

    /// The table drawn for `fit`.
    pub fn render(&self, fit: Fit) -> Rendered {
        let mut t = comfy_table::Table::new();
        t.set_content_arrangement(ContentArrangement::Disabled);
        let (given, width) = match fit {
            Fit::Natural { boxed } => {
                t.load_preset(if boxed {
                    presets::UTF8_FULL_CONDENSED
                } else {
                    presets::ASCII_MARKDOWN
                });
                (vec![Some(usize::MAX); self.columns.len()], None)
            }
            Fit::Width(w) => {
                t.load_preset(presets::UTF8_FULL_CONDENSED);
                (self.layout(w), Some(w))
            }
        };
        let mut cut = 0;
        let mut cells = |cells: &mut dyn Iterator<Item = &String>, count: bool| -> Vec<String> {
            cells
                .zip(self.columns.iter().zip(&given))
                .filter_map(|(cell, (c, w))| {
                    let (text, was_cut) = cut_cell(cell, (*w)?, c.keep_end);
                    if was_cut && count {
                        cut += 1;
                    }
                    Some(text)
                })
                .collect()
        };
        t.set_header(cells(&mut self.columns.iter().map(|c| &c.header), false));
        for row in &self.rows {
            t.add_row(cells(&mut row.iter(), true));
        }
        Rendered {
            text: t.to_string(),
            hidden: self
                .columns
                .iter()
                .zip(&given)
                .filter(|(_, w)| w.is_none())
                .map(|(c, _)| c.header.clone())
                .collect(),
            cut,
            width,
        }
    }
}

/// The columns' borders and padding: `│ a ┆ b │`.
fn overhead(columns: usize) -> usize {
    3 * columns + 1
}

/// `cell` with each of its lines at most `width` columns wide, and whether one was cut.
fn cut_cell(cell: &str, width: usize, keep_end: bool) -> (String, bool) {
    if width == usize::MAX || cell.lines().all(|l| l.width() <= width) {
        return (cell.to_owned(), false);
    }
    let lines: Vec<String> = cell
        .lines()
        .map(|l| {
            if l.width() <= width {
                l.to_owned()
            } else if keep_end {
                let kept: String = take_width(l.chars().rev(), width - 1)
                    .chars()
                    .rev()
                    .collect();
                format!("{CUT}{kept}")
            } else {
                format!("{}{CUT}", take_width(l.chars(), width - 1))
            }
        })
        .collect();
    (lines.join("\n"), true)
}

/// The first characters of `chars` that fit in `width` columns.
fn take_width(chars: impl Iterator<Item = char>, width: usize) -> String {
    let mut out = String::new();
    let mut used = 0;
    for c in chars {
        let w = c.width().unwrap_or(0);
        if used + w > width {
            break;
        }
        used += w;
        out.push(c);
    }
    out
}

/// Whether the note on what a fitted table left out was said in this run.
static SAID: AtomicBool = AtomicBool::new(false);

/// What a fitted table left out, and the way to see it all, once per run (several tables
/// may be fitted: `status --all`): `None` when nothing was, or it was said already.
pub fn left_out_note(r: &Rendered) -> Option<String> {
    let width = r.width?;
    if r.hidden.is_empty() && r.cut == 0 || SAID.swap(true, Ordering::Relaxed) {
        return None;
    }
    let hidden = (!r.hidden.is_empty()).then(|| {
        let n = r.hidden.len() as u64;
        format!("{} hidden ({})", plural(n, "column"), r.hidden.join(", "))
    });
    let cut = (r.cut > 0).then(|| format!("{} cut ({CUT})", plural(r.cut as u64, "value")));
    let what = match (hidden, cut) {
        (Some(h), Some(c)) => format!("{h} and {c}"),
        (Some(one), None) | (None, Some(one)) => one,
        (None, None) => return None,
    };
    Some(format!("{what} to fit {width} columns; --wide shows all"))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn lines(r: &Rendered) -> Vec<&str> {
        r.text.lines().collect()
    }

    fn widest(r: &Rendered) -> usize {
        r.text
            .lines()
            .map(UnicodeWidthStr::width)
            .max()
            .unwrap_or(0)
    }

    fn letters() -> Table {
        let mut t = Table::new(&["#", "message id", "cause", "age", "body"]);
        t.priority(&["#", "cause", "age", "body"])
            .whole(&["#", "cause", "age"])
            .min_width("body", 12)
            .flex("body");
        for i in 1..=3 {
            t.add_row(vec![
                i.to_string(),
                format!("0b9d7f6e-4a44-4c5e-9a8e-00000000000{i}"),
                "exhausted".to_owned(),
                "9s".to_owned(),
                format!("{{\"order_id\":\"A-100{i}\",\"amount\":1999,\"currency\":\"EUR\"}}"),
            ]);
        }
        t
    }

    #[test]
    fn a_narrow_terminal_hides_the_least_important_columns_and_cuts_the_flexible_one() {
        let r = letters().render(Fit::Width(40));
        assert_eq!(r.hidden, vec!["message id"]);
        assert_eq!(widest(&r), 40, "{}", r.text);
        assert_eq!(lines(&r).len(), 3 + 4, "one line per row:\n{}", r.text);
        assert_eq!(r.cut, 3);
        assert!(
            r.text
                .contains("│ 1 ┆ exhausted ┆ 9s  ┆ {\"order_id\":\"… │"),
            "{}",
            r.text
        );
    }

    #[test]
    fn a_wide_terminal_shows_everything_at_its_natural_width() {
        let natural = letters().render(Fit::Natural { boxed: true });
        let fitted = letters().render(Fit::Width(200));
        assert_eq!(fitted.text, natural.text);
        assert_eq!((fitted.hidden.len(), fitted.cut), (0, 0));
        assert!(left_out_note(&fitted).is_none());
    }

    #[test]
    fn a_pipe_gets_markdown_whole() {
        let r = letters().render(Fit::Natural { boxed: false });
        assert!(r.text.starts_with("| # | message id "), "{}", r.text);
        assert!(r.text.contains("\"currency\":\"EUR\"}"));
        assert_eq!(r.width, None);
    }

    #[test]
    fn columns_are_hidden_by_priority_not_position() {
        let r = letters().render(Fit::Width(30));
        assert_eq!(r.hidden, vec!["message id", "body"]);
        assert!(widest(&r) <= 30, "{}", r.text);
        // Narrower than the first column: still one line per row, cut to the terminal.
        let r = letters().render(Fit::Width(3));
        assert_eq!(r.hidden.len(), 4);
        assert_eq!(lines(&r).len(), 7);
    }

    #[test]
    fn values_are_cut_by_display_width_at_character_boundaries() {
        assert_eq!(
            cut_cell("注文注文注文", 5, false),
            ("注文…".to_owned(), true)
        );
        assert_eq!(cut_cell("ünïcødé", 4, false), ("ünï…".to_owned(), true));
        assert_eq!(cut_cell("short", 5, false), ("short".to_owned(), false));
        assert_eq!(
            cut_cell("orders.deferred.600000", 10, true),
            ("…ed.600000".to_owned(), true)
        );
        // Each line of a cell on its own.
        assert_eq!(
            cut_cell("x-message-ttl = 30000\nx-expires = 1", 12, false),
            ("x-message-t…\nx-expires =…".to_owned(), true)
        );
        // An escape cut short never reads as another: the mark follows it.
        assert_eq!(cut_cell("\\u{202e}evil", 5, false).0, "\\u{2…");
    }

    #[test]
    fn what_was_left_out_is_said_once() {
        let r = letters().render(Fit::Width(40));
        let note = left_out_note(&r).expect("said the first time");
        assert_eq!(
            note,
            "1 column hidden (message id) and 3 values cut (…) to fit 40 columns; --wide shows all"
        );
        assert_eq!(left_out_note(&r), None, "once");
    }
}
