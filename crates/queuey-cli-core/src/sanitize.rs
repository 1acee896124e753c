//! Escaping text that came from outside (queue names, headers, bodies) before it reaches a
//! terminal.
//!
//! A message body or header is written by strangers: it may hold ANSI escape sequences that
//! rewrite the screen, carriage returns that hide text, or bidirectional overrides that make
//! `evil` read as `live` (CVE-2021-42574). Every such character is shown as a visible escape
//! instead (`\x1b`, `\r`, `\u{202e}`); printable text, including non-ASCII letters, is kept.

/// `text` with control, bidi-override and other invisible formatting characters escaped.
/// Newlines and tabs are escaped too: the result is always one line.
///
/// A backslash is doubled only when something else in `text` is escaped: then `\x1b` written
/// by the sender and an escaped escape character must look different. Text with nothing to
/// escape is shown as it is, so that a path or a JSON escape (`C:\dir`, `\n`) reads and pastes
/// as written.
pub fn sanitize(text: &str) -> String {
    escape_all(text, false)
}

/// Like [`sanitize`] but keeps newlines and tabs, for multi-line bodies.
pub fn sanitize_multiline(text: &str) -> String {
    escape_all(text, true)
}

fn escape_all(text: &str, keep_lines: bool) -> String {
    let plain = text
        .chars()
        .all(|c| is_visible(c) || (keep_lines && matches!(c, '\n' | '\t')));
    if plain {
        return text.to_owned();
    }
    let mut out = String::with_capacity(text.len() + 8);
    for c in text.chars() {
        push_char(&mut out, c, keep_lines, true);
    }
    out
}

/// Like [`sanitize_multiline`] but keeps backslashes as they are, for queuey's own messages
/// (errors, notes), whose quoted names already show a backslash as `\\`: only the characters
/// that could fool a terminal are escaped.
pub fn sanitize_message(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    for c in text.chars() {
        push_char(&mut out, c, true, false);
    }
    out
}

fn push_char(out: &mut String, c: char, keep_lines: bool, escape_backslash: bool) {
    match c {
        '\n' | '\t' if keep_lines => out.push(c),
        '\n' => out.push_str("\\n"),
        '\t' => out.push_str("\\t"),
        '\r' => out.push_str("\\r"),
        '\\' if escape_backslash => out.push_str("\\\\"),
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

/// Every format character (Unicode general category Cf, as of Unicode 16: bidi embeddings,
/// overrides and isolates, zero-width characters, invisible operators, tags that smuggle text
/// past a reader), plus the line and paragraph separators, which break lines like `\n`.
fn is_invisible_format(c: char) -> bool {
    matches!(c as u32,
        0x00AD                // soft hyphen
        | 0x0600..=0x0605     // arabic number signs
        | 0x061C              // arabic letter mark
        | 0x06DD              // arabic end of ayah
        | 0x070F              // syriac abbreviation mark
        | 0x0890..=0x0891     // arabic pound and piastre marks above
        | 0x08E2              // arabic disputed end of ayah
        | 0x180E              // mongolian vowel separator
        | 0x200B..=0x200F     // zero-width space/joiners, LRM, RLM
        | 0x2028..=0x202E     // line/paragraph separators, bidi embeddings and overrides
        | 0x2060..=0x206F     // word joiner, invisible operators, bidi isolates (LRI..PDI)
        | 0xFEFF              // zero-width no-break space (BOM)
        | 0xFFF9..=0xFFFB     // interlinear annotations
        | 0x110BD | 0x110CD   // kaithi number signs
        | 0x13430..=0x1343F   // egyptian hieroglyph format controls
        | 0x1BCA0..=0x1BCA3   // shorthand format controls
        | 0x1D173..=0x1D17A   // musical symbol format controls
        | 0xE0001             // language tag
        | 0xE0020..=0xE007F   // tag characters (invisible ASCII)
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
        // A backslash is doubled only beside something escaped, where it must be told apart.
        assert_eq!(sanitize("C:\\x1b"), "C:\\x1b");
        assert_eq!(sanitize("C:\\x1b\x1b"), "C:\\\\x1b\\x1b");
        assert_eq!(sanitize_multiline("a\\n\nb"), "a\\n\nb");
        assert_eq!(sanitize_multiline("a\\n\rb"), "a\\\\n\\rb");
        assert_eq!(
            sanitize_message("bad \"a\\\"b\":\n  hint\x1b[2J\u{202e}"),
            "bad \"a\\\"b\":\n  hint\\x1b[2J\\u{202e}"
        );
        // Bidi isolates (LRI, RLI, FSI, PDI), a word joiner, a tag character.
        assert_eq!(
            sanitize("\u{2066}a\u{2067}b\u{2068}c\u{2069}\u{2060}\u{e0041}"),
            "\\u{2066}a\\u{2067}b\\u{2068}c\\u{2069}\\u{2060}\\u{e0041}"
        );
    }

    #[test]
    fn keeps_printable_text() {
        assert_eq!(
            sanitize("orders.eu west/ünïcødé 注文 ✓"),
            "orders.eu west/ünïcødé 注文 ✓"
        );
    }
}
