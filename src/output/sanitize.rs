//! Escaping text that came from outside (queue names, headers, bodies) before it reaches a
//! terminal.
//!
//! A message body or header is written by strangers: it may hold ANSI escape sequences that
//! rewrite the screen, carriage returns that hide text, or bidirectional overrides that make
//! `evil` read as `live` (CVE-2021-42574). Every such character is shown as a visible escape
//! instead (`\x1b`, `\r`, `\u{202e}`); printable text, including non-ASCII letters, is kept.

/// `text` with control, bidi-override and other invisible formatting characters escaped.
/// Newlines and tabs are escaped too: the result is always one line.
pub fn sanitize(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    for c in text.chars() {
        push_char(&mut out, c, false);
    }
    out
}

/// Like [`sanitize`] but keeps newlines and tabs, for multi-line bodies.
pub fn sanitize_multiline(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    for c in text.chars() {
        push_char(&mut out, c, true);
    }
    out
}

fn push_char(out: &mut String, c: char, keep_lines: bool) {
    match c {
        '\n' | '\t' if keep_lines => out.push(c),
        '\n' => out.push_str("\\n"),
        '\t' => out.push_str("\\t"),
        '\r' => out.push_str("\\r"),
        '\\' => out.push_str("\\\\"),
        c if c.is_control() => out.push_str(&format!("\\x{:02x}", c as u32)),
        c if is_invisible_format(c) => out.push_str(&format!("\\u{{{:x}}}", c as u32)),
        c => out.push(c),
    }
}

/// Whether `c` shows as itself on a terminal: not a control character, not a bidi control or
/// other invisible format character.
pub fn is_visible(c: char) -> bool {
    !c.is_control() && !is_invisible_format(c)
}

/// Bidi controls, zero-width and other format characters that change how text reads.
fn is_invisible_format(c: char) -> bool {
    matches!(c as u32,
        0x00AD                // soft hyphen
        | 0x061C              // arabic letter mark
        | 0x180E              // mongolian vowel separator
        | 0x200B..=0x200F     // zero-width space/joiners, LRM, RLM
        | 0x2028..=0x202E     // line/paragraph separators, bidi embeddings and overrides
        | 0x2060..=0x206F     // word joiner, invisible operators, bidi isolates
        | 0xFEFF              // zero-width no-break space (BOM)
        | 0xFFF9..=0xFFFB     // interlinear annotations
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn escapes_what_could_fool_a_terminal() {
        assert_eq!(sanitize("a\x1b[31mred"), "a\\x1b[31mred");
        assert_eq!(sanitize("x\ry"), "x\\ry");
        assert_eq!(sanitize("line\nnext"), "line\\nnext");
        assert_eq!(sanitize("\u{202e}evil"), "\\u{202e}evil");
        assert_eq!(sanitize("zero\u{200b}width"), "zero\\u{200b}width");
        assert_eq!(sanitize("\u{7f}\u{9b}"), "\\x7f\\x9b");
        assert_eq!(sanitize_multiline("a\n\tb\x07"), "a\n\tb\\x07");
        assert_eq!(sanitize("C:\\x1b"), "C:\\\\x1b");
    }

    #[test]
    fn keeps_printable_text() {
        assert_eq!(
            sanitize("orders.eu west/ünïcødé 注文 ✓"),
            "orders.eu west/ünïcødé 注文 ✓"
        );
    }
}
