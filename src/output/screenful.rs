//! Long text on a terminal: a first screenful, not two megabytes scrolling past.
//!
//! `dead show` of a 2 MB body once printed 2 MB to the terminal, which no one reads and whose
//! scrollback loses the page above it. On a terminal a body is cut to what one screen holds,
//! counting the rows its long lines wrap over, and a line says how much there is and how to
//! get it all; a pipe or `--full` gets it whole.

use unicode_width::UnicodeWidthChar;

use super::table::CUT;

/// The start of a text that one screen holds.
#[derive(Debug, PartialEq, Eq)]
pub struct Screenful {
    /// What is shown, whole lines except perhaps the last, which ends with `…` when cut.
    pub text: String,
    /// Lines shown, the last one perhaps in part.
    pub lines_shown: usize,
    /// Lines in the whole text.
    pub lines: usize,
}

/// `text` cut to `rows` rows of `columns` columns, a line wider than the screen taking the rows
/// it wraps over; `None` when it fits whole.
pub fn screenful(text: &str, rows: usize, columns: usize) -> Option<Screenful> {
    let columns = columns.max(1);
    let mut left = rows.max(1);
    let mut shown = String::new();
    let mut lines_shown = 0;
    let mut lines = text.split('\n');
    for line in lines.by_ref() {
        if left == 0 {
            // One line more than the screen holds.
            let lines = lines_shown + 1 + lines.count();
            return Some(Screenful {
                text: shown,
                lines_shown,
                lines,
            });
        }
        let (part, cut, used) = fit_line(line, left, columns);
        if lines_shown > 0 {
            shown.push('\n');
        }
        shown.push_str(part);
        lines_shown += 1;
        left -= used;
        if cut {
            shown.push(CUT);
            let lines = lines_shown + lines.count();
            return Some(Screenful {
                text: shown,
                lines_shown,
                lines,
            });
        }
    }
    None
}

/// The part of `line` that `rows` rows of `columns` hold (leaving room for `…` when cut),
/// whether it was cut, and the rows it takes.
fn fit_line(line: &str, rows: usize, columns: usize) -> (&str, bool, usize) {
    let room = rows * columns;
    let mut used = 0;
    for (i, c) in line.char_indices() {
        let w = c.width().unwrap_or(0);
        if used + w > room {
            // Step back until the mark fits too.
            let mut end = i;
            let mut width = used;
            while width + 1 > room {
                let Some(prev) = line[..end].chars().next_back() else {
                    break;
                };
                end -= prev.len_utf8();
                width -= prev.width().unwrap_or(0);
            }
            return (&line[..end], true, rows);
        }
        used += w;
    }
    (line, false, used.div_ceil(columns).max(1))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn short_text_is_whole() {
        assert_eq!(screenful("a\nb\nc", 3, 80), None);
        assert_eq!(screenful("", 1, 80), None);
        assert_eq!(screenful(&"x".repeat(160), 2, 80), None, "two rows wrapped");
    }

    #[test]
    fn long_text_is_cut_at_a_screenful_of_rows() {
        let text = (1..=100)
            .map(|i| i.to_string())
            .collect::<Vec<_>>()
            .join("\n");
        let s = screenful(&text, 24, 80).expect("cut");
        assert_eq!((s.lines_shown, s.lines), (24, 100));
        assert_eq!(s.text.lines().last(), Some("24"));
        // A line that wraps takes its rows: one of 200 columns on 80 takes 3.
        let text = format!("{}\n{}", "y".repeat(200), "z\n".repeat(10));
        let s = screenful(&text, 5, 80).expect("cut");
        assert_eq!(s.lines_shown, 3);
    }

    #[test]
    fn one_huge_line_is_cut_within_the_screen_with_a_mark() {
        let text = "é".repeat(2_000_000);
        let s = screenful(&text, 24, 80).expect("cut");
        assert_eq!(s.text.chars().count(), 24 * 80);
        assert!(s.text.ends_with("é…"));
        assert_eq!((s.lines_shown, s.lines), (1, 1));
        // Wide characters are counted by their columns.
        let s = screenful(&"注".repeat(100), 1, 10).expect("cut");
        assert_eq!(s.text, "注注注注…");
    }
}
