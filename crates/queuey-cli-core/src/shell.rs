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
//!
//! `rabbitmqctl` commands must survive a second reading too: the Debian and Ubuntu packages'
//! `rabbitmqctl` is a wrapper that, run as root, passes its arguments on through `su -c` inside
//! double quotes, where `$`, a backquote and `\` are read again (`\$` becomes `$`, `$q`
//! disappears). So a pattern never spells those three with themselves ([`exact_pattern`] writes
//! them `\x24`, `\x60`, `\x5c`), and [`rabbitmqctl`] prints no command with a name that holds
//! one of them (the caller says why, rather than print a command that would act on another
//! name).

use crate::sanitize::is_visible;

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
/// anchored, every metacharacter escaped; `$`, a backquote and `\` written as hex escapes (see
/// the module docs) and characters that are not visible as `\x{HEX}`, so that the pattern
/// stays printable and survives a wrapper's second reading.
pub fn exact_pattern(name: &str) -> String {
    format!("^{}$", regex_literal(name, true))
}

/// `text` as a literal inside a PCRE regex (RabbitMQ's policy patterns and the management API's
/// name filter): metacharacters backslash-escaped, `$`, a backquote and `\` as hex escapes.
/// With `printable`, characters that are not visible become `\x{HEX}` (a pattern shown to a
/// user, to paste); without, they stay as they are (a regex sent over HTTP, which the broker
/// compiles without Unicode mode, where `\x{HEX}` above FF is an error).
pub fn regex_literal(text: &str, printable: bool) -> String {
    let mut out = String::with_capacity(text.len() + 2);
    for c in text.chars() {
        match c {
            '$' => out.push_str("\\x24"),
            '`' => out.push_str("\\x60"),
            '\\' => out.push_str("\\x5c"),
            c if ".^*+?()[]{}|".contains(c) => {
                out.push('\\');
                out.push(c);
            }
            c if !printable || is_visible(c) => out.push(c),
            c => out.push_str(&format!("\\x{{{:x}}}", c as u32)),
        }
    }
    out
}

/// Whether `word` reaches a command unchanged through a second reading inside double quotes
/// (the Debian `rabbitmqctl` wrapper run as root): no backquote, no `$` but a last one (an
/// anchor, which the closing quote keeps literal), and no `\` but before a character that
/// double quotes leave alone (`\.` stays `\.`; `\$`, `\\`, a final `\` do not).
pub fn survives_rereading(word: &str) -> bool {
    let chars: Vec<char> = word.chars().collect();
    chars.iter().enumerate().all(|(i, c)| match c {
        '`' => false,
        '$' => i + 1 == chars.len(),
        '\\' => chars
            .get(i + 1)
            .is_some_and(|next| !matches!(next, '$' | '`' | '"' | '\\' | '\n')),
        _ => true,
    })
}

/// Why [`rabbitmqctl`] printed no command.
pub const REREAD_CAVEAT: &str = "queuey prints no rabbitmqctl command for a name that holds $, a \
     backquote or a backslash: the Debian and Ubuntu rabbitmqctl wrapper, run as root, reads \
     them again and would act on another name; run rabbitmqctl as the rabbitmq user (sudo -u \
     rabbitmq rabbitmqctl ...) with the name in single quotes";

/// `rabbitmqctl SUBCOMMAND [-p VHOST] ARGS...` (the vhost only when it is not the default one),
/// or `None` when a word would not survive the Debian wrapper's second reading (see
/// [`REREAD_CAVEAT`]).
pub fn rabbitmqctl(vhost: &str, words: &[&str]) -> Option<String> {
    let mut all = vec!["rabbitmqctl"];
    let (first, rest) = words
        .split_first()
        .map_or((None, &[][..]), |(f, r)| (Some(*f), r));
    all.extend(first);
    if vhost != "/" {
        all.extend(["-p", vhost]);
    }
    all.extend(rest);
    all.iter()
        .all(|w| survives_rereading(w))
        .then(|| command_line(&all))
}

/// `queuey dead ls q`, ready to paste: the suffixes given when they are not the defaults.
pub fn dead_ls_command(queue: &crate::queue::QueueSettings) -> String {
    queuey_command(&["dead", "ls", &queue.name], queue)
}

/// `queuey WORDS...`, ready to paste, with `--dead-suffix` and `--deferred-suffix` when the
/// queue's are not the defaults (a flag wins over the topology file, so they always apply).
pub fn queuey_command(words: &[&str], queue: &crate::queue::QueueSettings) -> String {
    let mut all = vec!["queuey"];
    all.extend_from_slice(words);
    if queue.options.dead_suffix != crate::topology::DEFAULT_DEAD_SUFFIX {
        all.extend(["--dead-suffix", &queue.options.dead_suffix]);
    }
    if queue.options.deferred_suffix != crate::topology::DEFAULT_DEFERRED_SUFFIX {
        all.extend(["--deferred-suffix", &queue.options.deferred_suffix]);
    }
    command_line(&all)
}

/// How to give `user` the tag `tag` without taking any away. `rabbitmqctl set_user_tags`
/// replaces the user's whole tag list (there is no command that adds one): the plain
/// `set_user_tags guest monitoring` strips `administrator` from guest. So the command ends with
/// a placeholder for the tags the user has now, `<its current tags>`, which a shell reads as a
/// redirection from a file that does not exist: pasted unedited, it fails and changes nothing.
pub fn add_user_tag_advice(user: &str, tag: &str) -> String {
    let command = rabbitmqctl("/", &["set_user_tags", user, tag])
        .unwrap_or_else(|| format!("rabbitmqctl set_user_tags <user> {tag}"));
    format!(
        "{command} <its current tags> (set_user_tags replaces the user's tags: list them in \
         place of the placeholder, as `rabbitmqctl list_users` shows them)"
    )
}

/// `rabbitmqctl list_queues [-p VHOST] name messages`; for a vhost the Debian wrapper would
/// read again (see [`REREAD_CAVEAT`]), the same run as the rabbitmq user, whose words the
/// wrapper passes on unread.
pub fn list_queues_command(vhost: &str) -> String {
    let words = ["list_queues", "name", "messages"];
    rabbitmqctl(vhost, &words).unwrap_or_else(|| {
        command_line(&[
            "sudo",
            "-u",
            "rabbitmq",
            "rabbitmqctl",
            words[0],
            "-p",
            vhost,
            words[1],
            words[2],
        ])
    })
}

/// `rabbitmqctl set_permissions [-p VHOST] USER <configure> <write> <read>`: the vhost and user
/// filled in, the three patterns placeholders. `set_permissions` replaces all three, and
/// queuey cannot read the current ones (that needs the administrator tag), so the operator
/// writes them in; pasted unedited, the shell refuses the `<` and nothing changes. `None` for
/// a name the Debian wrapper would read again (see [`REREAD_CAVEAT`]).
pub fn set_permissions_advice(vhost: &str, user: &str) -> Option<String> {
    rabbitmqctl(vhost, &["set_permissions", user])
        .map(|c| format!("{c} <configure> <write> <read>"))
}

/// `line` split into words as a POSIX shell splits a simple command: blanks separate words,
/// single quotes keep everything, double quotes keep all but `\"`, `\\`, `\$` and `` \` ``,
/// a backslash outside quotes keeps the next character. What a shell would expand (`$x`,
/// `*`, `$(...)`) is kept as written: the words are read, never run. An unclosed quote is an
/// error naming it. The inverse of [`command_line`] for every word [`quote`] leaves printable.
pub fn split(line: &str) -> Result<Vec<String>, String> {
    let mut words = Vec::new();
    let mut word: Option<String> = None;
    let mut chars = line.chars();
    while let Some(c) = chars.next() {
        match c {
            c if c.is_whitespace() => {
                if let Some(w) = word.take() {
                    words.push(w);
                }
            }
            '\'' => {
                let w = word.get_or_insert_with(String::new);
                loop {
                    match chars.next() {
                        Some('\'') => break,
                        Some(c) => w.push(c),
                        None => return Err("a single quote (') is not closed".to_owned()),
                    }
                }
            }
            '"' => {
                let w = word.get_or_insert_with(String::new);
                loop {
                    match chars.next() {
                        Some('"') => break,
                        Some('\\') => match chars.next() {
                            Some(c @ ('"' | '\\' | '$' | '`')) => w.push(c),
                            Some(c) => {
                                w.push('\\');
                                w.push(c);
                            }
                            None => return Err("a double quote (\") is not closed".to_owned()),
                        },
                        Some(c) => w.push(c),
                        None => return Err("a double quote (\") is not closed".to_owned()),
                    }
                }
            }
            '\\' => {
                let w = word.get_or_insert_with(String::new);
                match chars.next() {
                    Some(c) => w.push(c),
                    None => return Err("a backslash (\\) ends the line".to_owned()),
                }
            }
            c => word.get_or_insert_with(String::new).push(c),
        }
    }
    words.extend(word);
    Ok(words)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_permissions_advice_names_vhost_and_user_and_cannot_run_unedited() {
        let advice = set_permissions_advice("prod eu", "ci bot").unwrap();
        assert_eq!(
            advice,
            "rabbitmqctl set_permissions -p 'prod eu' 'ci bot' <configure> <write> <read>"
        );
        let out = std::process::Command::new("sh")
            .args(["-c", &advice.replacen("rabbitmqctl", "echo RAN", 1)])
            .current_dir(std::env::temp_dir())
            .output()
            .expect("sh");
        assert!(!out.status.success(), "{out:?}");
        assert!(
            !String::from_utf8_lossy(&out.stdout).contains("RAN"),
            "{out:?}"
        );
        assert_eq!(set_permissions_advice("/", "a$b"), None);
        assert_eq!(
            list_queues_command("/"),
            "rabbitmqctl list_queues name messages"
        );
        assert_eq!(
            list_queues_command("v$x"),
            "sudo -u rabbitmq rabbitmqctl list_queues -p 'v$x' name messages"
        );
    }

    #[test]
    fn the_tag_advice_keeps_the_current_tags_and_cannot_run_unedited() {
        let advice = add_user_tag_advice("ci bot", "monitoring");
        assert!(
            advice.starts_with("rabbitmqctl set_user_tags 'ci bot' monitoring <its current tags>"),
            "{advice}"
        );
        assert!(advice.contains("replaces"), "{advice}");
        // Pasted as it is, the shell refuses the redirection and runs nothing.
        let command = advice.split(" (").next().unwrap_or_default();
        let out = std::process::Command::new("sh")
            .args(["-c", &command.replacen("rabbitmqctl", "echo RAN", 1)])
            .current_dir(std::env::temp_dir())
            .output()
            .expect("sh");
        assert!(!out.status.success(), "{out:?}");
        assert!(
            !String::from_utf8_lossy(&out.stdout).contains("RAN"),
            "{out:?}"
        );
        // A name the Debian wrapper would read again gets no command with it.
        assert!(add_user_tag_advice("a$b", "monitoring").contains("<user>"));
    }

    #[test]
    fn regex_literals_for_patterns_and_for_the_api() {
        assert_eq!(regex_literal("a.b c*d$", true), "a\\.b c\\*d\\x24");
        assert_eq!(regex_literal("ünï\u{200b}", true), "ünï\\x{200b}");
        assert_eq!(regex_literal("ünï\u{200b}", false), "ünï\u{200b}");
        assert_eq!(exact_pattern("q.dead"), "^q\\.dead$");
    }

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
        assert_eq!(exact_pattern("a$b(c)"), "^a\\x24b\\(c\\)$");
        assert_eq!(exact_pattern("x\x1by"), "^x\\x{1b}y$");
        assert_eq!(exact_pattern("a`b\\c"), "^a\\x60b\\x5cc$");
    }

    /// What the Debian wrapper does to a word: `sh -c "... \"WORD\""` with `"` escaped.
    fn reread(word: &str) -> String {
        let escaped = word.replace('"', "\\\"");
        let out = std::process::Command::new("sh")
            .args(["-c", &format!("printf '%s' \"{escaped}\"")])
            .env_remove("q")
            .output()
            .expect("sh");
        String::from_utf8(out.stdout).unwrap()
    }

    #[test]
    fn patterns_survive_a_second_reading_and_commands_refuse_names_that_would_not() {
        for name in ["it's a $q.eu", "a`b", "back\\slash", "x\"y", "tour.orders"] {
            let pattern = exact_pattern(name);
            assert!(survives_rereading(&pattern), "{pattern}");
            assert_eq!(reread(&pattern), pattern, "{name:?}");
        }
        for word in ["a$q", "a`b", "a\\$", "a\\", "a\\\\b", "$x"] {
            assert!(!survives_rereading(word), "{word}");
            assert_ne!(reread(word), word, "{word}");
        }
        assert_eq!(reread("a$q"), "a", "what the second reading does");
        assert_eq!(
            rabbitmqctl("/", &["clear_policy", "p"]).as_deref(),
            Some("rabbitmqctl clear_policy p")
        );
        assert_eq!(
            rabbitmqctl("prod eu", &["clear_policy", "p"]).as_deref(),
            Some("rabbitmqctl clear_policy -p 'prod eu' p")
        );
        assert_eq!(rabbitmqctl("/", &["delete_queue", "a$b"]), None);
        assert_eq!(rabbitmqctl("v`", &["list_queues"]), None);
    }

    #[test]
    fn a_line_splits_as_a_shell_splits_it_and_back() {
        let words = |ws: &[&str]| ws.iter().map(|w| (*w).to_owned()).collect::<Vec<_>>();
        assert_eq!(
            split(
                r#"--cause exhausted  --where '/payload/name=a b' --reason "it's \"x\"" a\ b ''"#
            ),
            Ok(words(&[
                "--cause",
                "exhausted",
                "--where",
                "/payload/name=a b",
                "--reason",
                "it's \"x\"",
                "a b",
                "",
            ]))
        );
        assert_eq!(split("  "), Ok(vec![]));
        assert!(split("--reason 'open").is_err());
        assert!(split("--reason \"open").is_err());
        assert!(split("end\\").is_err());
        for w in ["a b", "it's", "$HOME", "x\\y", "\"q\"", "", "é ü"] {
            let line = command_line(&["--reason", w]);
            assert_eq!(split(&line), Ok(words(&["--reason", w])), "{line}");
        }
    }
}
