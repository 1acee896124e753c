//! Keeping passwords out of every line queuey prints.
//!
//! The first line of defence is structural: URLs are only ever displayed through their
//! redacted form (`amqp://guest:***@host/…`). This module is the second: every password queuey
//! learns is registered here, and `main` passes every error and log line through [`redact`]
//! before printing it, in case a library echoed a credential back in an error text.
//!
//! The third is by shape: a URL that does not parse has no password queuey could register, and
//! the operator's typo (`amqp//user:pw@host`, `amqp:/user:pw@host`, `user:pw@host`) is exactly
//! what an error message wants to quote. So [`redact`] also masks anything shaped like
//! `user:password@` ([`mask_userinfo`]), parsed or not, and every raw URL queuey is given
//! registers the password it seems to hold before any parsing ([`register_userinfo_of`]).

use std::sync::{Mutex, OnceLock};

/// What replaces a password in any output.
pub const MASK: &str = "***";

fn secrets() -> &'static Mutex<Vec<String>> {
    static SECRETS: OnceLock<Mutex<Vec<String>>> = OnceLock::new();
    SECRETS.get_or_init(|| Mutex::new(Vec::new()))
}

/// Registers a password (and its percent-encoded form) so that [`redact`] masks it.
///
/// Passwords shorter than three characters are not registered: masking every `a` in a message
/// would hide more than it protects. Nor is a password equal to its username (`guest:guest`):
/// it protects nothing, and masking it would hide the user name from error messages. Both are
/// still never printed by queuey itself.
pub fn register_secret(secret: &str, username: &str) {
    if secret.chars().count() < 3 || secret == username {
        return;
    }
    let encoded = percent_encoding::utf8_percent_encode(secret, percent_encoding::NON_ALPHANUMERIC)
        .to_string();
    let mut list = secrets()
        .lock()
        .unwrap_or_else(|poisoned| poisoned.into_inner());
    for s in [secret.to_owned(), encoded] {
        if !list.contains(&s) {
            list.push(s);
        }
    }
    // Longest first, so that a secret containing another is masked whole.
    list.sort_by_key(|s| std::cmp::Reverse(s.len()));
}

/// `text` with every registered secret replaced by [`MASK`], and everything shaped like
/// `user:password@` masked ([`mask_userinfo`]).
pub fn redact(text: &str) -> String {
    let list = secrets()
        .lock()
        .unwrap_or_else(|poisoned| poisoned.into_inner());
    let mut out = text.to_owned();
    for secret in list.iter() {
        if out.contains(secret.as_str()) {
            out = out.replace(secret.as_str(), MASK);
        }
    }
    mask_userinfo(&out)
}

/// Characters that end a word of text for [`mask_userinfo`]: a URL quoted in a message sits
/// between spaces, quotes, backticks or angle brackets.
fn ends_word(c: char) -> bool {
    c.is_whitespace() || matches!(c, '"' | '\'' | '`' | '<' | '>')
}

/// Where the password of a word shaped like `[scheme:[/[/]]]user:password@host...` lies, as a
/// byte range: from after the colon that ends the user to the last `@` of the word (a password
/// may hold `@`, `/` or `:` unencoded; masking too much beats showing a piece of one). `None`
/// when the word has no `@`, or no colon before it (`amqp://user@host` has no password).
fn password_span(word: &str) -> Option<(usize, usize)> {
    let at = word.rfind('@')?;
    let before = &word[..at];
    let first_colon = before.find(':')?;
    let scheme_like = first_colon > 0
        && before[..first_colon].chars().enumerate().all(|(i, c)| {
            c.is_ascii_alphabetic() || (i > 0 && (c.is_ascii_digit() || "+-.".contains(c)))
        });
    let after_scheme = &before[first_colon + 1..];
    if scheme_like && after_scheme.starts_with('/') {
        // `amqp://user:pw@`, `amqp:/user:pw@`: the user starts after the slashes.
        let slashes = after_scheme.len() - after_scheme.trim_start_matches('/').len();
        let start = first_colon + 1 + slashes;
        return match before[start..].find(':') {
            Some(colon) => Some((start + colon + 1, at)),
            // `amqp://user@host`: no password. `x:/pw@host`: the slash was the password's.
            None if slashes >= 2 => None,
            None => Some((first_colon + 1, at)),
        };
    }
    Some((first_colon + 1, at))
}

/// `text` with the password of every word shaped like `user:password@` replaced by [`MASK`],
/// whether or not the word is a URL that parses.
pub fn mask_userinfo(text: &str) -> String {
    if !text.contains('@') {
        return text.to_owned();
    }
    let mut out = String::with_capacity(text.len());
    let mut rest = text;
    while !rest.is_empty() {
        let word_len = rest.find(ends_word).unwrap_or(rest.len());
        let word = &rest[..word_len];
        match password_span(word) {
            // `password` itself is the placeholder of queuey's own hints (a real password
            // `password` is registered, and masked above).
            Some((start, end))
                if start < end && !matches!(&word[start..end], MASK | "password") =>
            {
                out.push_str(&word[..start]);
                out.push_str(MASK);
                out.push_str(&word[end..]);
            }
            _ => out.push_str(word),
        }
        rest = &rest[word_len..];
        let gap = rest.find(|c: char| !ends_word(c)).unwrap_or(rest.len());
        out.push_str(&rest[..gap]);
        rest = &rest[gap..];
    }
    out
}

/// Registers the password a raw URL (or any text given where a URL goes) seems to hold, before
/// it is parsed, so that it stays masked wherever a library or a message might echo it, even
/// cut out of its `user:password@` shape.
pub fn register_userinfo_of(raw: &str) {
    // A URL has no spaces: a password with one is still the password of the whole text.
    for word in std::iter::once(raw.trim()).chain(raw.split(ends_word)) {
        if let Some((start, end)) = password_span(word) {
            let user_start = word[..start - 1].rfind(['/', ':']).map_or(0, |i| i + 1);
            register_secret(&word[start..end], &word[user_start..start - 1]);
            // And what follows the span's last colon: a parser that reads the span otherwise
            // (`amqp://h:/:pw@` is host `h` and vhost `:pw@`) may show that part alone.
            // (Its user is what stands before that colon: in a list of URLs,
            // `amqp://guest:guest@a,amqp://guest:guest@b`, the span's tail is the second
            // URL's password, and `guest` as `guest` protects nothing.)
            if let Some(colon) = word[start..end].rfind(':') {
                let before = &word[start..start + colon];
                let user = before.rsplit(['/', ':', '@']).next().unwrap_or_default();
                register_secret(&word[start + colon + 1..end], user);
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_password_read_as_a_vhost_is_masked_alone_too() {
        // `amqp://amqp:/:Zq0aaAaa@` parses as host `amqp` and vhost `:Zq0aaAaa@`, which the
        // URL's display encodes as `%3AZq0aaAaa%40` (found by tests/offline/secrets.rs).
        register_userinfo_of("amqp://amqp:/:Zq0aaAaa@");
        assert_eq!(redact("vhost %3AZq0aaAaa%40"), "vhost %3A***%40");
    }

    #[test]
    fn masks_registered_secrets_and_their_encoding() {
        register_secret("s3cr3t/pw", "bob");
        assert_eq!(redact("login s3cr3t/pw failed"), "login *** failed");
        assert_eq!(redact("amqp://u:s3cr3t%2Fpw@h"), "amqp://u:***@h");
        assert_eq!(redact("nothing here"), "nothing here");
    }

    #[test]
    fn masks_what_looks_like_user_and_password() {
        for (text, masked) in [
            (
                "invalid AMQP URL amqp//guest:PASSWORD@host:5672/%2f: relative URL",
                "invalid AMQP URL amqp//guest:***@host:5672/%2f: relative URL",
            ),
            ("amqp:/guest:PASSWORD@host", "amqp:/guest:***@host"),
            ("(guest:PASSWORD@host)", "(guest:***@host)"),
            ("\"amqp://u:p@ss:w/rd@h/v\"", "\"amqp://u:***@h/v\""),
            ("amqp://u:***@h:5672/%2F", "amqp://u:***@h:5672/%2F"),
            ("x:/secret@h", "x:***@h"),
            ("amqp://user@host/v", "amqp://user@host/v"),
            ("mail bob@example.com now", "mail bob@example.com now"),
            ("no at sign: here", "no at sign: here"),
            ("a:b@c d:e@f", "a:***@c d:***@f"),
            (
                "like amqp://user:password@host",
                "like amqp://user:password@host",
            ),
        ] {
            assert_eq!(mask_userinfo(text), masked, "{text}");
        }
    }

    #[test]
    fn registers_the_password_of_a_raw_url() {
        register_userinfo_of("amqp//carol:Unp4rsed@h");
        assert_eq!(redact("echoed Unp4rsed alone"), "echoed *** alone");
        register_userinfo_of("dave:dave@h");
        assert_eq!(redact("user dave"), "user dave");
    }

    #[test]
    fn a_list_of_urls_registers_each_password_and_no_user() {
        register_userinfo_of("amqp://gus:gus@a:1/%2f,amqp://gus:Li5tPw2@b:2/%2f");
        assert_eq!(redact("user gus, pw Li5tPw2"), "user gus, pw ***");
    }

    #[test]
    fn ignores_tiny_secrets() {
        register_secret("x", "bob");
        assert_eq!(redact("x marks"), "x marks");
        register_secret("Z%", "bob");
        assert_eq!(redact("Z% marks"), "Z% marks");
        // Three characters (not bytes) are enough.
        register_secret("Ü#7", "bob");
        assert_eq!(redact("pw Ü#7 and Ü%23"), "pw *** and Ü%23");
        assert_eq!(redact("pw %C3%9C%237"), "pw ***");
        register_secret("guest", "guest");
        assert_eq!(redact("user guest"), "user guest");
    }
}
