//! Help, completions and man pages, and the docs that must agree with them: exit codes, no
//! environment value ever shown, a flag put before its subcommand, help that lists only what a
//! command uses, every link of the docs resolving, `queuey args` examples run as written.

use std::fs;

use crate::common::{Queuey, stderr, stdout};

/// A flag of a subcommand given before it is answered with where it goes, not with a
/// suggestion of `--version`.
#[test]
fn a_flag_before_its_subcommand_is_shown_where_it_belongs() {
    let out = Queuey::new()
        .args(["--reason", "timeout", "dead", "ls", "orders"])
        .run();
    assert_eq!(out.status.code(), Some(2));
    let err = stderr(&out);
    assert!(!err.contains("--version"), "{err}");
    assert!(
        err.contains("queuey dead ls orders --reason timeout"),
        "the corrected command: {err}"
    );

    // A flag that takes no value, two levels down.
    let out = Queuey::new()
        .args(["--dry-run", "dead", "replay", "orders", "--limit", "5"])
        .run();
    assert_eq!(out.status.code(), Some(2));
    let err = stderr(&out);
    assert!(
        err.contains("queuey dead replay orders --limit 5 --dry-run"),
        "{err}"
    );

    // A flag no subcommand knows keeps clap's own answer.
    let out = Queuey::new().args(["--colour", "dead", "ls", "q"]).run();
    assert_eq!(out.status.code(), Some(2));
    assert!(stderr(&out).contains("--colour"), "{}", stderr(&out));
}

/// The help of a dead-letter command lists only the settings it uses (the suffixes
/// that name q.dead and the hold queues), and the others are refused.
#[test]
fn dead_letter_commands_take_only_the_settings_they_use() {
    for sub in ["ls", "show", "export", "replay", "purge"] {
        let out = Queuey::new().args(["dead", sub, "--help"]).run();
        assert!(out.status.success());
        let help = stdout(&out);
        for unused in [
            "--message-ttl",
            "--max-priority",
            "--queue-type",
            "--delivery-limit",
            "--retry-granularity",
            "--deferred-granularity",
        ] {
            assert!(!help.contains(unused), "dead {sub} --help lists {unused}");
        }
        for used in ["--dead-suffix", "--deferred-suffix"] {
            assert!(help.contains(used), "dead {sub} --help lacks {used}");
        }
    }
    let out = Queuey::new()
        .args(["dead", "show", "orders", "1", "--max-priority", "5"])
        .run();
    assert_eq!(out.status.code(), Some(2));
}

/// Help never shows an empty `[env: QUEUEY_CONFIG=]`.
#[test]
fn help_shows_no_empty_environment_values() {
    for args in [
        vec!["--help"],
        vec!["verify", "--help"],
        vec!["dead", "ls", "--help"],
    ] {
        let out = Queuey::new().args(&args).run();
        let text = stdout(&out);
        assert!(!text.contains("=]"), "{args:?}: {text}");
        assert!(text.contains("QUEUEY_CONFIG"), "{args:?}: {text}");
    }
}

/// The help names the exit code of a declined purge.
#[test]
fn help_documents_the_exit_code_of_a_declined_prompt() {
    let out = Queuey::new().args(["dead", "purge", "--help"]).run();
    let text = stdout(&out);
    assert!(text.contains("9"), "{text}");
    assert!(text.contains("declined"), "{text}");
    let out = Queuey::new().arg("--help").run();
    let text = stdout(&out);
    assert!(
        text.lines()
            .any(|l| l.trim_start().starts_with("9 ") && l.contains("declined")),
        "{text}"
    );
}

/// The help says how repeated filters combine, --header included.
#[test]
fn help_says_repeated_filters_match_any_value() {
    let out = Queuey::new().args(["dead", "ls", "--help"]).run();
    let text = stdout(&out);
    assert!(!text.contains("all must hold"), "{text}");
    let header = text
        .split("--header")
        .nth(1)
        .expect("--header is documented");
    let header: String = header.chars().take(300).collect();
    assert!(header.contains("any"), "{header}");
}

#[test]
fn help_documents_exit_codes_and_never_shows_env_secrets() {
    let out = Queuey::new()
        .env("QUEUEY_URL", "amqp://u:topsecret99@h/%2f")
        .arg("--help")
        .run();
    assert!(out.status.success());
    let text = stdout(&out);
    assert!(
        text.contains("Exit codes") && text.contains("130"),
        "{text}"
    );
    assert!(!text.contains("topsecret99"));
}

/// Every help screen names the environment variables but never shows their values: an API URL
/// (or AMQP URL, or topology file path) holding a password stays out of `--help`, `-h` and
/// `help SUBCOMMAND` alike.
#[test]
fn no_help_screen_shows_an_environment_value() {
    for args in [
        vec!["--help"],
        vec!["-h"],
        vec!["ping", "--help"],
        vec!["dead", "replay", "--help"],
        vec!["dead", "purge", "-h"],
        vec!["help", "status"],
        vec!["holds", "ls", "--help"],
    ] {
        let out = Queuey::new()
            .env("QUEUEY_URL", "amqp://u:amqpsecret77@h/%2f")
            .env("QUEUEY_API_URL", "http://admin:apisecret88@h:15672/")
            .env("QUEUEY_CONFIG", "/etc/cfgsecret66.toml")
            .args(&args)
            .run();
        assert_eq!(out.status.code(), Some(0), "{args:?}");
        let all = format!("{}{}", stdout(&out), stderr(&out));
        assert!(all.contains("[env: QUEUEY_API_URL]"), "{args:?}: {all}");
        for secret in ["amqpsecret77", "apisecret88", "cfgsecret66", "admin:"] {
            assert!(!all.contains(secret), "{args:?} shows {secret}: {all}");
        }
    }
}

/// Every command's path below `queuey` (`["dead", "ls"]`), hidden ones and `help` left out.
fn command_paths() -> Vec<Vec<String>> {
    use clap::CommandFactory;
    fn walk(command: &clap::Command, path: Vec<String>, out: &mut Vec<Vec<String>>) {
        out.push(path.clone());
        for sub in command.get_subcommands() {
            if sub.is_hide_set() || sub.get_name() == "help" {
                continue;
            }
            let mut next = path.clone();
            next.push(sub.get_name().to_owned());
            walk(sub, next, out);
        }
    }
    let mut out = Vec::new();
    walk(&queuey_cli::cli::Cli::command(), Vec::new(), &mut out);
    out
}

/// `-h` is a summary that fits one screen, `--help` the whole text, as clap intends (the first
/// paragraph of a doc comment is the short help): `dead replay -h` was 159 lines. For every
/// command: `-h` at most 50 lines, none over 100 columns, and `--help` longer.
#[test]
fn short_help_fits_one_screen_and_long_help_has_the_rest() {
    let paths = command_paths();
    assert!(paths.len() >= 15, "{paths:?}");
    for path in paths {
        let help = |flag: &str| {
            let out = Queuey::new().args(&path).arg(flag).run();
            assert!(out.status.success(), "{path:?} {flag}: {}", stderr(&out));
            stdout(&out)
        };
        let (short, long) = (help("-h"), help("--help"));
        let lines = short.lines().count();
        assert!(
            lines <= 50,
            "queuey {} -h is {lines} lines:\n{short}",
            path.join(" ")
        );
        let widest = short.lines().map(|l| l.chars().count()).max().unwrap_or(0);
        assert!(widest <= 100, "queuey {} -h:\n{short}", path.join(" "));
        assert!(
            long.lines().count() > lines,
            "queuey {} --help says no more than -h",
            path.join(" ")
        );
    }
}

#[test]
fn completions_and_man_pages_are_up_to_date() {
    let dir = tempfile::tempdir().unwrap();
    let out = Queuey::in_dir(dir.path())
        .args(["generate-assets", "."])
        .run();
    assert!(out.status.success(), "{}", stderr(&out));
    let repo = std::path::Path::new(env!("CARGO_MANIFEST_DIR"));
    let mut checked = 0;
    for sub in ["completions", "man"] {
        let fresh_dir = dir.path().join(sub);
        let mut fresh: Vec<_> = fs::read_dir(&fresh_dir)
            .unwrap()
            .map(|e| e.unwrap().file_name())
            .collect();
        fresh.sort();
        let mut committed: Vec<_> = fs::read_dir(repo.join(sub))
            .unwrap_or_else(|_| panic!("{sub}/ is missing: run `cargo run -- generate-assets .`"))
            .map(|e| e.unwrap().file_name())
            .collect();
        committed.sort();
        assert_eq!(
            fresh, committed,
            "{sub}/ has stale or missing files: run `cargo run -- generate-assets .`"
        );
        for name in fresh {
            let a = fs::read(fresh_dir.join(&name)).unwrap();
            let b = fs::read(repo.join(sub).join(&name)).unwrap();
            assert!(
                a == b,
                "{sub}/{} is stale: run `cargo run -- generate-assets .`",
                name.to_string_lossy()
            );
            checked += 1;
        }
    }
    assert!(
        checked >= 5 + 4,
        "expected 5 completion scripts and the man pages"
    );
}

#[test]
fn completions_print_for_each_shell() {
    for shell in ["bash", "zsh", "fish", "elvish", "powershell"] {
        let out = Queuey::new().args(["completions", shell]).run();
        assert!(out.status.success());
        assert!(stdout(&out).contains("queuey"));
    }
}

/// Every relative link in the README and docs/ points at a file that exists (and a `#fragment`
/// at a heading of that file), so the front door never leads nowhere.
#[test]
fn documentation_links_resolve() {
    let root = std::path::Path::new(env!("CARGO_MANIFEST_DIR"));
    let mut pages = vec![root.join("README.md")];
    let mut dirs = vec![root.join("docs")];
    while let Some(dir) = dirs.pop() {
        for entry in fs::read_dir(&dir).unwrap() {
            let path = entry.unwrap().path();
            if path.is_dir() {
                dirs.push(path);
            } else if path.extension().is_some_and(|e| e == "md") {
                pages.push(path);
            }
        }
    }
    let slug = |heading: &str| -> String {
        heading
            .trim()
            .to_lowercase()
            .chars()
            .filter_map(|c| match c {
                'a'..='z' | '0'..='9' | '-' | '_' => Some(c),
                ' ' => Some('-'),
                _ => None,
            })
            .collect()
    };
    let mut checked = 0;
    for page in &pages {
        let text = fs::read_to_string(page).unwrap();
        let mut rest = text.as_str();
        while let Some(i) = rest.find("](") {
            rest = &rest[i + 2..];
            let Some(end) = rest.find(')') else { break };
            let target = &rest[..end];
            if target.contains("://") || target.starts_with('#') || target.contains(' ') {
                continue;
            }
            let (file, fragment) = target.split_once('#').unwrap_or((target, ""));
            let path = page.parent().unwrap().join(file);
            assert!(
                path.exists(),
                "{}: link to {target} leads nowhere",
                page.display()
            );
            if !fragment.is_empty() {
                let linked = fs::read_to_string(&path).unwrap();
                assert!(
                    linked
                        .lines()
                        .filter(|l| l.starts_with('#'))
                        .any(|l| slug(l.trim_start_matches('#')) == fragment),
                    "{}: no heading #{fragment} in {file}",
                    page.display()
                );
            }
            checked += 1;
        }
    }
    assert!(checked > 20, "only {checked} links checked");
}

#[test]
fn the_exit_code_table_is_written_once() {
    // docs/exit-codes.md and `queuey --help` show ExitCode::meaning, code by code.
    let docs = std::fs::read_to_string(concat!(env!("CARGO_MANIFEST_DIR"), "/docs/exit-codes.md"))
        .expect("docs/exit-codes.md");
    let rows: Vec<&str> = docs
        .lines()
        .filter(|l| l.starts_with("| ") && !l.starts_with("| code"))
        .collect();
    let expected: Vec<String> = queuey_cli::error::ExitCode::ALL
        .iter()
        .map(|c| format!("| {} | {} |", c.code(), c.meaning()))
        .collect();
    assert_eq!(
        rows, expected,
        "docs/exit-codes.md differs from ExitCode::meaning"
    );
    let out = Queuey::new().arg("--help").run();
    let help = out
        .stdout
        .as_str()
        .split_whitespace()
        .collect::<Vec<_>>()
        .join(" ");
    for code in queuey_cli::error::ExitCode::ALL {
        let line = format!("{} {}", code.code(), code.meaning());
        assert!(help.contains(&line), "--help lacks {line:?}");
    }
}

/// Every `$ queuey args ...` example of docs/commands/args.md prints what the page shows
/// (standard output then standard error) and exits with the code its `$ echo $?` shows (0 when
/// it shows none): the page is the binary's own output, not a memory of it.
#[test]
fn the_args_page_shows_what_args_prints_and_exits_with() {
    let page = fs::read_to_string(concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/docs/commands/args.md"
    ))
    .expect("docs/commands/args.md");
    let mut examples: Vec<(String, Vec<String>, i32)> = Vec::new();
    let mut in_block = false;
    let mut code_next = false;
    for line in page.lines() {
        if line.starts_with("```") {
            in_block = !in_block;
            continue;
        }
        if !in_block {
            continue;
        }
        if let Some(command) = line.strip_prefix("$ queuey ") {
            examples.push((command.to_owned(), Vec::new(), 0));
        } else if line == "$ echo $?" {
            code_next = true;
        } else if let Some(last) = examples.last_mut() {
            if std::mem::take(&mut code_next) {
                last.2 = line.parse().expect("an exit code after `$ echo $?`");
            } else {
                last.1.push(line.to_owned());
            }
        }
    }
    assert!(examples.len() >= 4, "{examples:?}");
    for (command, shown, code) in examples {
        let out = Queuey::new().args(command.split(' ')).run();
        assert_eq!(out.status.code(), Some(code), "queuey {command}");
        let printed = format!("{}{}", stdout(&out), stderr(&out));
        let printed: Vec<&str> = printed.lines().collect();
        assert_eq!(printed, shown, "queuey {command}");
    }
}
