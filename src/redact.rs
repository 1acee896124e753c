//! Keeping passwords out of every line queuey prints.
//!
//! The first line of defence is structural: URLs are only ever displayed through their
//! redacted form (`amqp://guest:***@host/…`). This module is the second: every password queuey
//! learns is registered here, and `main` passes every error and log line through [`redact`]
//! before printing it, in case a library echoed a credential back in an error text.

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

/// `text` with every registered secret replaced by [`MASK`].
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
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn masks_registered_secrets_and_their_encoding() {
        register_secret("s3cr3t/pw", "bob");
        assert_eq!(redact("login s3cr3t/pw failed"), "login *** failed");
        assert_eq!(redact("amqp://u:s3cr3t%2Fpw@h"), "amqp://u:***@h");
        assert_eq!(redact("nothing here"), "nothing here");
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
