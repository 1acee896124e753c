//! PURE: command lines an operator pastes into a POSIX shell.
//!
//! Every command queuey prints as a remedy or a hint (`rabbitmqctl set_policy ...`, `queuey
//! declare q`) must work when pasted as it is, whatever the queue or vhost is called: names hold
//! dots, spaces, quotes, `$`, unicode and, from strangers, control characters. So each word is
//! quoted here ([`quote`]), and a policy pattern is an anchored regex whose metacharacters are
//! escaped ([`exact_pattern`]). A word that holds a character a terminal could act on (escape
//! sequences, bidi overrides) is spelled with `printf` octal escapes: the printed command shows
//! only visible characters and still names the exact queue.
//!
//! Nothing else quotes for the shell: text printed through `output::sanitize` is for reading
//! (it doubles backslashes), never for pasting.

use crate::output::sanitize::is_visible;

/// `word` as one shell word: unchanged when it holds only characters no shell treats specially,
/// in single quotes when it is printable, else as `"$(printf '...')"` with octal escapes (a
/// word that ends in a newline loses it there: `$(...)` strips trailing newlines).
pub fn quote(word: &str) -> String {
    let plain = |c: char| c.is_alphanumeric() || "_-.,/:@%+=".contains(c);
    if !word.is_empty() && word.chars().all(|c| plain(c) && is_visible(c)) {
        return word.to_owned();
    }
    if word.chars().all(is_visible) {
        return format!("'{}'", word.replace('\'', "'\\''"));
    }
    let mut format = String::new();
    for c in word.chars() {
        match c {
            '\'' => format.push_str("'\\''"),
            '\\' => format.push_str("\\\\"),
            '%' => format.push_str("%%"),
            c if is_visible(c) => format.push(c),
            c => {
                let mut buf = [0u8; 4];
                for b in c.encode_utf8(&mut buf).bytes() {
                    format.push_str(&format!("\\{b:03o}"));
                }
            }
        }
    }
    format!("\"$(printf '{format}')\"")
}

/// A command line from its words, each quoted.
pub fn command_line<S: AsRef<str>>(words: &[S]) -> String {
    words
        .iter()
        .map(|w| quote(w.as_ref()))
        .collect::<Vec<_>>()
        .join(" ")
}

/// The policy pattern (a PCRE regex, as RabbitMQ reads it) matching exactly the queue `name`:
/// anchored, every metacharacter escaped, and characters that are not visible written as
/// `\x{HEX}` so that the pattern itself stays printable.
pub fn exact_pattern(name: &str) -> String {
    let mut out = String::with_capacity(name.len() + 2);
    out.push('^');
    for c in name.chars() {
        if ".^$*+?()[]{}|\\".contains(c) {
            out.push('\\');
            out.push(c);
        } else if is_visible(c) {
            out.push(c);
        } else {
            out.push_str(&format!("\\x{{{:x}}}", c as u32));
        }
    }
    out.push('$');
    out
}

/// `rabbitmqctl` with `-p VHOST` when the vhost is not the default one.
pub fn rabbitmqctl(vhost: &str, words: &[&str]) -> String {
    let mut all = vec!["rabbitmqctl"];
    let (first, rest) = words
        .split_first()
        .map_or((None, &[][..]), |(f, r)| (Some(*f), r));
    all.extend(first);
    if vhost != "/" {
        all.extend(["-p", vhost]);
    }
    all.extend(rest);
    command_line(&all)
}

#[cfg(test)]
mod tests {
    use super::*;

    /// What `sh` makes of `line`: `printf '%s\n'` of each word.
    fn words_in_sh(line: &str) -> Vec<String> {
        let out = std::process::Command::new("sh")
            .args([
                "-c",
                &format!("for w in {line}; do printf '%s|' \"$w\"; done"),
            ])
            .output()
            .expect("sh");
        let text = String::from_utf8(out.stdout).unwrap();
        text.split('|')
            .filter(|s| !s.is_empty())
            .map(str::to_owned)
            .collect()
    }

    #[test]
    fn every_word_reaches_the_command_unchanged() {
        for word in [
            "orders",
            "orders.eu-west/1",
            "it's a $q",
            "a b",
            "`date`",
            "back\\slash",
            "ünï 注文",
            "100%",
            "esc\x1b[31mred",
            "bidi\u{202e}evil",
            "tab\there",
            "\"double\"",
            "*",
        ] {
            let quoted = quote(word);
            assert!(quoted.chars().all(is_visible), "{quoted:?}");
            assert_eq!(words_in_sh(&quoted), [word], "{word:?} as {quoted}");
        }
        assert_eq!(quote("orders.eu"), "orders.eu");
        assert_eq!(quote("it's"), "'it'\\''s'");
        assert_eq!(quote(""), "''");
    }

    #[test]
    fn patterns_are_anchored_and_escaped() {
        assert_eq!(exact_pattern("tour.orders"), "^tour\\.orders$");
        assert_eq!(exact_pattern("a$b(c)"), "^a\\$b\\(c\\)$");
        assert_eq!(exact_pattern("x\x1by"), "^x\\x{1b}y$");
    }

    #[test]
    fn rabbitmqctl_names_the_vhost_only_when_it_is_not_the_default() {
        assert_eq!(
            rabbitmqctl("/", &["clear_policy", "p"]),
            "rabbitmqctl clear_policy p"
        );
        assert_eq!(
            rabbitmqctl("prod eu", &["clear_policy", "p"]),
            "rabbitmqctl clear_policy -p 'prod eu' p"
        );
    }
}
