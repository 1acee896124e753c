//! `queuey dead browse`: its flags, and the filter line of its screen read by the same
//! definitions as `dead ls`'s filter flags (one language, one parser).

use clap::{Args, Command, FromArgMatches};

use super::{DeadQueueArg, FilterArgs, PeekArgs, QueueNamesArgs};

/// The most dead letters a snapshot holds by default: the screen keeps every one it shows.
pub const DEFAULT_BROWSE_LIMIT: u64 = 10_000;

#[derive(Debug, Args)]
pub struct DeadBrowseArgs {
    #[command(flatten)]
    pub queue: DeadQueueArg,

    /// Hold at most N dead letters in the snapshot, from the head (0: all)
    ///
    /// The screen keeps every dead letter it shows in memory; a snapshot cut here says so.
    #[arg(long, value_name = "N", default_value_t = DEFAULT_BROWSE_LIMIT)]
    pub limit: u64,

    /// The filter line's first value, as it is typed there (see --cause and the others below)
    #[command(flatten)]
    pub filters: FilterArgs,

    #[command(flatten)]
    pub peek: PeekArgs,

    #[command(flatten)]
    pub settings: QueueNamesArgs,
}

/// The words typed on the filter line (already split as a shell splits them), read as the
/// filter flags of `dead ls`: unknown flags, missing values and bad causes are refused with
/// the parser's own first line.
pub fn parse_filter_words(words: &[String]) -> Result<FilterArgs, String> {
    let command = FilterArgs::augment_args(
        Command::new("filter")
            .no_binary_name(true)
            .disable_help_flag(true)
            .disable_version_flag(true),
    );
    let first_line = |e: clap::Error| {
        let text = e.render().to_string();
        let line = text.lines().next().unwrap_or_default();
        line.trim_start_matches("error: ").to_owned()
    };
    let matches = command.try_get_matches_from(words).map_err(first_line)?;
    FilterArgs::from_arg_matches(&matches).map_err(first_line)
}

/// The flags that give `a` back, in the order `dead ls --help` lists them.
pub fn filter_words(a: &FilterArgs) -> Vec<String> {
    let mut out = Vec::new();
    let mut many = |flag: &str, values: &[String]| {
        for v in values {
            out.push(flag.to_owned());
            out.push(v.clone());
        }
    };
    many("--cause", &a.cause);
    many("--reason", &a.reason);
    many("--job-type", &a.job_type);
    many("--original-queue", &a.original_queue);
    many("--attempts", a.attempts.as_slice());
    many("--older-than", a.older_than.as_slice());
    many("--newer-than", a.newer_than.as_slice());
    many("--header", &a.header);
    many("--message-id", &a.message_id);
    many("--where", &a.where_);
    many("--body-contains", &a.body_contains);
    out
}

/// The peek flags of `a` that are not their defaults: every command that reads q.dead takes
/// them, and needs them again to read the same queue the same way.
pub fn peek_words(a: &PeekArgs) -> Vec<String> {
    let mut out = Vec::new();
    if a.spend_delivery_budget {
        out.push("--spend-delivery-budget".to_owned());
    }
    if a.quorum_at_risk != crate::dead::peek::QUORUM_AT_RISK {
        out.extend(["--quorum-at-risk".to_owned(), a.quorum_at_risk.to_string()]);
    }
    if a.assume_classic {
        out.push("--assume-classic".to_owned());
    }
    if a.window != PeekArgs::DEFAULT_WINDOW {
        out.extend(["--window".to_owned(), a.window.to_string()]);
    }
    if a.retry_unreadable {
        out.push("--retry-unreadable".to_owned());
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    fn words(text: &[&str]) -> Vec<String> {
        text.iter().map(|w| (*w).to_owned()).collect()
    }

    #[test]
    fn the_filter_line_reads_the_filter_flags_of_dead_ls_and_gives_them_back() {
        let typed = words(&[
            "--cause",
            "exhausted",
            "--where",
            "/payload/id=42",
            "--cause=fatal",
            "--header",
            "tenant=acme",
            "--attempts",
            "3..",
        ]);
        let a = parse_filter_words(&typed).expect("filter flags");
        assert_eq!(a.cause, ["exhausted", "fatal"]);
        assert_eq!(a.where_, ["/payload/id=42"]);
        assert_eq!(
            filter_words(&a),
            words(&[
                "--cause",
                "exhausted",
                "--cause",
                "fatal",
                "--attempts",
                "3..",
                "--header",
                "tenant=acme",
                "--where",
                "/payload/id=42",
            ])
        );
        assert!(parse_filter_words(&[]).is_ok_and(|a| filter_words(&a).is_empty()));
    }

    #[test]
    fn what_is_not_a_filter_flag_is_refused_in_one_line() {
        let err = parse_filter_words(&words(&["--limit", "5"])).expect_err("not a filter");
        assert!(err.contains("--limit"), "{err}");
        assert!(!err.contains('\n'), "{err}");
        let err = parse_filter_words(&words(&["--cause", "tired"])).expect_err("no such cause");
        assert!(err.contains("tired"), "{err}");
        assert!(parse_filter_words(&words(&["--cause"])).is_err());
        assert!(parse_filter_words(&words(&["orders"])).is_err());
    }
}
